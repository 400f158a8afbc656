"""Constructs of pasted code that break at one value: masked scores filled with -inf, a key_padding_mask that can
mask a whole row, a log of a probability with nothing to keep it off 0, a term times its own log, an exp unshifted
inside a ratio, a log or a running product, and a square root or a norm that can meet 0 (breaking_construct).

Each is a suspect beside a run that went nan or inf, not a bug on its own: the row, the probability or the vector it
breaks on is one the paste need not show.
"""
from __future__ import annotations

import functools
import itertools
import re

from .brackets import arguments, sequential_layers
from .loss_inputs import model_output
from .precision_said import half_precision_shown
from .printed_sizes import MODEL_CALL, TARGET_NAME
from .thesaurus import tokens
from .sentences import UNDONE, denied_before, sentence_around
from . import lazy_regex

# Three constructs of pasted code that break at one value, each the construct an entry's Why section names, beside a
# run whose loss went nan or inf (in its values or its words); half a printed fact each for the entries whose phrases
# say so. Read in code only: not in a comment or a docstring. (Each pattern bounded, so a long line costs
# no more than its length.)
# - Masked scores filled with -inf (`masked_fill(mask, float('-inf'))`, `np.where(mask, s, -np.inf)`,
#   `scores[~mask] = -math.inf`; a subscript only where its index is a boolean mask, not `history["best"] = -np.inf`
#   nor one token's column, `logits[:, pad_id]`): a row whose every position is masked is all -inf, and its softmax
#   is exp(-inf - (-inf)) = nan. Attention is written so (PyTorch's MultiheadAttention is, and gives nan on such a row;
#   F.scaled_dot_product_attention has returned 0 there since PyTorch 2.5), and breaks only on a row with nothing to
#   attend to: a suspect beside a nan, not a bug on its own.
MASKED_SOFTMAX_WORDS = {"mask", "softmax"}
_NEG_INF = (r"(?:float\(\s*['\"]-inf(?:inity)?['\"]\s*\)|-\s*float\(\s*['\"]inf(?:inity)?['\"]\s*\)"
            r"|-\s*(?:np|numpy|math|torch|jnp)\.inf\b)")
# (a `where`'s -inf may be a tensor of it, -inf times a tensor of ones: `tf.ones_like(s) * float('-inf')`; a
# `torch.full_like(s, -math.inf)` or `tf.fill(tf.shape(s), float('-inf'))` ends in the -inf itself, read as it is)
_INF_TENSOR = r"(?:[\w.]{1,30}\([^()\n]{0,60}\)\s*\*\s*)?"
MASKED_INF = lazy_regex.compile(r"\bmasked_fill_?\([^\n]{0,120}?,\s*" + _NEG_INF + r"\s*\)?|\bwhere\([^\n]{0,120}?,\s*" + _INF_TENSOR
                                + _NEG_INF + r"\s*\)|\[(?=[^\]\n]{0,40}(?:mask|~|==|!=|<|>|\bis_|bool))[^\]\n]{1,40}\]\s*=\s*" + _NEG_INF)
# ... or with a finite constant past float16's largest magnitude, 65504, in a `where` of TensorFlow, NumPy or JAX
#   (`tf.where(mask, s, tf.cast(-1e9, s.dtype))`, `jnp.where(mask, s, -1e9)`, `tf.float32.min`), in a run the report
#   shows in float16 (precision_said.half_precision_shown: not denied, hearsay or a stored file's dtype): the constant
#   becomes -inf in float16 (in NumPy from 2.0, whose scalars no longer promote the result to float32), and the row
#   masked whole is nan again (WR-070's "A finite -1e9 mask is not finite in float16"). Not PyTorch's masked_fill,
#   which refuses such a constant on a float16 tensor with an error instead (`RuntimeError: value cannot be converted
#   to type at::Half without overflow: -1e+09`, NVIDIA/apex#1052), nor torch.where, which has raised or written -inf
#   by version; an additive mask is read below (MASK_ADDED_PAST_FP16), where its dtype is the scores'.
_PAST_FP16 = (r"(?:-\s*(?:\d(?:\.\d+)?[eE]\+?0*(?:[5-9]|[1-9]\d)|[1-9]\d{5,})(?:\.0+)?(?![\w.])|"
              # (the sign and its spaces as one optional piece: `-?\s*` first in an alternative tried at every position
              # scans each run of spaces to its end, quadratic in a paste of blank lines -- code_review_s68 H1)
              r"(?:-\s*)?(?:tf\.float32\.min|(?:np|jnp|numpy)\.finfo\(\s*(?:np|jnp|numpy)\.float32\s*\)\.min)\b)")
MASKED_PAST_FP16 = lazy_regex.compile(r"\b(?:tf|np|numpy|jnp|jax\.numpy)\.where\([^\n]{0,120}?,\s*(?:[\w.]{1,30}\(\s*)?"
                                      + _PAST_FP16)
# ... or an additive mask made in the scores' own dtype and scaled by such a constant (`scores + (1.0 -
#   mask.to(scores.dtype)) * -1e9`, `mask.half() * -1e9`, `-1e9 * (1 - mask.type_as(scores))`), in such a run: PyTorch
#   multiplies a float16 tensor by a Python number in float32 and rounds the product to float16, so a masked position
#   is -inf (0 * -1e9 is 0 first: the kept ones stay finite) and a row masked whole is nan, as above. Not a mask made in
#   float32 (`mask.float()`, the additive mask of the comment above): its sum with float16 scores is float32, where -1e9
#   stays finite.
#   (`.to(x.dtype)` and `.type_as(x)` only where x is what the mask is added to, `x + ...` or `... + x` on that line or
#   the next two, and not where the paste computes that block in float32: `autocast(enabled=False)`, `x.float()`)
_IN_SCORES_DTYPE = (r"(?:\.to\(\s*(?:(?P<of>[A-Za-z_]\w{0,30})\.dtype|torch\.(?:half|float16))\s*\)|"
                    r"\.type_as\(\s*(?P<like>[A-Za-z_]\w{0,30})\s*\)|\.half\(\s*\))")
MASK_ADDED_PAST_FP16 = lazy_regex.compile(_IN_SCORES_DTYPE + r"[^\n*]{0,20}?\*\s*" + _PAST_FP16 + "|"
                                          + _PAST_FP16 + r"\s*\*\s*[^\n*]{0,40}?"
                                          + _IN_SCORES_DTYPE.replace("?P<of>", "?P<of2>").replace("?P<like>", "?P<like2>"))
IN_FLOAT32 = lazy_regex.compile(r"autocast\([^()\n]{0,80}enabled\s*=\s*False")
# ... or made in that dtype on a line of its own, then scaled where it is added (`keep = causal * attn_mask.to(att.dtype)`,
# then `att = att + (1.0 - keep) * -1e9`): the name, and the name it took the dtype of
MASK_MADE_IN_DTYPE = lazy_regex.compile(r"(?m)^[ \t]*(?P<mask>[A-Za-z_]\w{0,30})[ \t]*=[^\n]{0,120}?" + _IN_SCORES_DTYPE)


def mask_added_past_fp16(code: str) -> re.Match | None:
    """The additive mask of MASK_ADDED_PAST_FP16 whose dtype is the float16 of what it is added to (see above)."""
    if IN_FLOAT32.search(code):
        return None
    for m in itertools.islice(MASK_ADDED_PAST_FP16.finditer(code), 10):
        name = m.group("of") or m.group("like") or m.group("of2") or m.group("like2")
        if name is None:                     # (`.half()`, `torch.float16`: float16 by name)
            return m
        after = "\n".join(code[code.rfind("\n", 0, m.start()) + 1:].split("\n")[:3])
        n = re.escape(name)
        if name != "self" and re.search(rf"\b{n}\s*\+|\+\s*{n}\b", after) \
                and not re.search(rf"\b{n}\s*=[^\n]*\.float\(\)|\b{n}\.float\(\)", code):
            return m
    for made in itertools.islice(MASK_MADE_IN_DTYPE.finditer(code), 10):
        name = made.group("of") or made.group("like")
        if name == "self":
            continue
        # (within the next five lines: `x + (1.0 - mask) * -1e9` or `x + -1e9 * (1 - mask)`, x the name whose dtype it
        # took, or any x where the mask is float16 by name)
        x = re.escape(name) if name else r"[A-Za-z_]\w{0,30}"
        mask = re.escape(made.group("mask"))
        end = re.compile(r"[^\n]*(?:\n[^\n]*){0,5}").match(code, made.end()).end()
        # (searched in the code itself, within those lines: the match's place is the code's, for the line it quotes)
        added = re.compile(rf"(?<![\w.]){x}\s*\+\s*(?:\(\s*1(?:\.0*)?\s*-\s*{mask}\s*\)\s*\*\s*{_PAST_FP16}|"
                           rf"{_PAST_FP16}\s*\*\s*\(\s*1(?:\.0*)?\s*-\s*{mask}\s*\))").search(code, made.end(), end)
        if added and not (name and re.search(rf"\b{x}\s*=[^\n]*\.float\(\)|\b{x}\.float\(\)", code)):
            return added
    return None
# - A log of a probability with nothing to keep it off 0 (`np.log(1 - y_hat)`, a binary cross-entropy's,
#   `tf.log(tf.sigmoid(z))`, `torch.log(p)` where the paste makes p with a sigmoid or a softmax): a probability that
#   rounds to 0 -- a float32 sigmoid of about -88 or less (PyTorch, JAX, TensorFlow), or 1 - p for a p that rounds to
#   1 (a sigmoid of about 17 or more) -- makes it -inf, and the loss nan or inf. Not with an eps added, a clamp or a
#   max inside it, nor log_softmax or logsigmoid (computed stably), nor log1p (another name, though log1p(-p) breaks
#   the same way); not a log of a name the paste does not show to be a probability (`np.log(p)` of prices).
LOG_OF_ZERO_WORDS = {"log", "epsilon"}
# (a call of a library's function, and its argument: one level of brackets inside it at most)
# (Paddle's and MXNet's too, Triton's `tl.` and CuPy's `cp.` inside a kernel written by hand, and Julia's broadcast
# log, `log.(ŷ)`; and a log in bits or digits, `log2(`, `log10(`, -inf at 0 the same)
# The libraries a call is written with (`torch.exp`, `np.log`, Triton's `tl.`, CuPy's `cp.`): one list for every reading
_LIBRARY_NAMES = r"torch|np|numpy|tf|tf\.math|jnp|math|K|ops|keras\.ops|paddle|mx\.nd|mx\.np|nd|tl|cp"
_LIBRARY = r"(?<![\w.])(?:(?:" + _LIBRARY_NAMES + r")\.)?"
_ARGUMENT = r"(?P<arg>[^()\n]{0,80}(?:\([^()\n]{0,80}\)[^()\n]{0,40})?)\)"
_LOG_OPEN = _LIBRARY + r"log(?:2|10)?\.?\(\s*"
LOG_CALL = lazy_regex.compile(_LOG_OPEN + _ARGUMENT)
LOG_OPEN = lazy_regex.compile(_LOG_OPEN)
# A term times the log of itself, or of itself over another, written by hand: `t * torch.log(t / p)`, `p * np.log(p)`
# (a KL divergence, an entropy) -- not xlogy, and not with anything added inside the log
# (a term times its log, or times a bracket that opens with its log: `p * (torch.log(p) - log_q)`, a KL written by hand)
# (and PyTorch's method form, `q * (q.log() - p.log())`)
XLOGX = lazy_regex.compile(r"(?<![\w.])(?P<a>[A-Za-z_]\w{0,30}(?:\[[^\]\n]{0,20}\])?)\s*\*\s*(?:\(\s*)?(?:(?:torch\.|np\.|jnp\.|tf\.math\.|math\.)?"
                           r"log\(\s*(?P=a)\s*(?:/\s*[A-Za-z_][\w.]{0,30}(?:\[[^\]\n]{0,20}\])?\s*)?\)|(?P=a)\.log\(\))")
PROBABILITY_ARG = lazy_regex.compile(r"\b(?:sigmoid|softmax)\b|^(?:probs?|probabilit\w*)$", re.I)
# (a name in any script, Julia's `ŷ` too, and Julia's broadcast minus, `1 .- ŷ`)
CDF_DIFFERENCE = lazy_regex.compile(r"^\s*([A-Za-z_]\w{0,30})\s*-\s*([A-Za-z_]\w{0,30})\s*$")
NAME_ARG = lazy_regex.compile(r"^(?P<minus>1(?:\.0*)?\s*\.?-\s*)?(?P<name>(?!\d)\w{1,31})$")
KERAS_ACTIVATION = lazy_regex.compile(r"\bactivation\s*=\s*['\"](\w+)['\"]")
# the model's last layer, whose activation is the output's: a Dense (linear unless it names one) or an Activation
KERAS_LAYER = lazy_regex.compile(r"\bDense\([^\n]{0,160}|\bActivation\(\s*['\"](?P<activation>\w+)['\"]")
KERAS_LOSS_DEF = lazy_regex.compile(r"\bdef\s+\w+\(\s*y_true\s*,\s*y_pred\s*\)")
# (a clamp or a clip called, or a name said to hold a clamped value: not a name that only starts so, PANNs' own
# `clipwise_output`, a sigmoid's)
# (an eps by any name, dotted or called: `+ eps`, `+ self.eps`, `+ K.epsilon()`, `+ keras.backend.epsilon()`)
GUARDED = lazy_regex.compile(r"\+\s*(?:(?:[\w.]+\.)?\w*eps\w*(?:\(\))?|(?:\d+(?:\.\d+)?|\.\d+)e-\d+|0?\.0*[1-9])|"
                             r"(?:(?<!\w)(?:[\w.]+\.)?\w*eps\w*(?:\(\))?|(?<![\d.])(?:\d+(?:\.\d+)?|\.\d+)e-\d+)\s*\+|"
                             r"\b(?:clamp|clip)(?:_by_value|_min_?|_max_?|_)?\s*\(|(?<![A-Za-z])(?:clamped|clipped)|"
                             r"\bmax\(|maximum", re.I)
# - An exp whose result is divided by a sum of exps, or summed inside a log (a softmax or a log-sum-exp written by
#   hand: `jnp.exp(s) / jnp.exp(s).sum(-1)`, `den = torch.exp(sim).sum(1)` then `num / den`,
#   `np.log(np.sum(np.exp(z)))`),
#   with nothing subtracted from its input first (no max in the call, none in what made a bare name it is handed): an
#   input past about 88.7 in float32 makes exp inf, and inf / inf is nan (a log of it, inf). Not a sigmoid's
#   `1 / (1 + exp(-z))`: its inf gives the correctly rounded 0.0 (see BENIGN_OVERFLOW).
# (Julia's broadcast call too: `exp.(s) ./ sum(exp.(s))`)
EXP_OF = lazy_regex.compile(_LIBRARY + r"exp\.?\(\s*" + _ARGUMENT)
SHIFTED = lazy_regex.compile(r"max|logsumexp|log_softmax", re.I)
# - An exp of a layer's or a model's raw output, the prediction itself (`torch.exp(self.net(x))`, an exp link for a
#   rate or a scale, a VAE's `torch.exp(self.log_var(h))`): nothing bounds a layer's output, and one past about 88.7 in
#   float32 makes the prediction inf (softplus, or a clamp of the input, bounds it). Not a clamped input, nor a
#   parameter's exp (`torch.exp(self.log_scale)`).
_LAYER_NAMES = r"net|model|layer|linear|fc|dense|head|decoder|mlp"
EXP_OF_OUTPUT = lazy_regex.compile(_LIBRARY + r"exp\(\s*(?:self\.\w+|\w*(?:" + _LAYER_NAMES + r")\w*)"
                                   r"\s*\([^()\n]{0,80}\)\s*\)", re.I)
# ... or of a name the code makes from such an output, directly or as a piece of it (`h = self.nn(x_id)`, then `s, t =
# h.chunk(2, dim=1)` and `torch.exp(s)`, an affine coupling's scale; `mu, logvar = self.enc(x).chunk(2, -1)`): the
# same unbounded output. Not where any assignment of the name bounds it (a tanh, a clamp, a softplus, a sigmoid: a
# coupling's usual `s = torch.tanh(s)`).
# (Flax's and Haiku's call of a model by its apply, `model.apply(params, x)`, and a forward called by name, are its output
# too; and a layer made and called at once, Flax's compact `nn.Conv(2, (1, 1))(h)` or Keras' functional
# `layers.Dense(1)(x)` -- with no activation of its own but a linear one: `Dense(2, activation="softplus")` keeps its
# output positive, "exponential" and "relu" at or above 0)
_LAYER_CALL = (r"(?:(?:self\.\w+|\w*(?:" + _LAYER_NAMES + r"|encoder|enc|dec|conditioner)\w*)(?:\.(?:apply|forward))?|"
               r"(?:\w+\.)*(?:Dense\w{0,9}|Conv\w{0,9}|Linear)\((?!(?:[^()\n]|\([^()\n]*\))*?\bactivation\s*=\s*"
               r"(?!None\b|['\"]linear['\"]))(?:[^()\n]|\([^()\n]*\))*\))\s*\(")
BOUNDED = lazy_regex.compile(r"tanh|clamp|clip|softplus|sigmoid|\bsin\(|\bcos\(", re.I)


def _assignments(name: str, code: str, part: bool = False) -> list[str]:
    """The right-hand sides the code assigns to `name`, alone or in a tuple (`s, t = ...`); with `part`, in a tuple
    assigned a tuple of as many (`e, v = out[:, 0], out[:, 1]`), only its own part."""
    made = []
    for m in itertools.islice(re.finditer(r"(?m)^[ \t]*(?P<names>(?:[A-Za-z_]\w{0,30}[ \t]*,[ \t]*){0,4}" + re.escape(name)
                                          + r"(?:[ \t]*,[ \t]*[A-Za-z_]\w{0,30}){0,4})[ \t]*=(?!=)[ \t]*([^\n]{1,160})$",
                                          code), 10):
        names = [n.strip() for n in m.group("names").split(",")] if part else []
        values = arguments("(" + m.group(2) + ")", 0) if len(names) > 1 else None
        made.append(values[names.index(name)] if values and len(values) == len(names) else m.group(2))
    return made


def _line_of(code: str, m: re.Match) -> tuple[int, str]:
    """Where the match's line starts, and the line, from its start to its end."""
    start = code.rfind("\n", 0, m.start()) + 1
    end = code.find("\n", m.end())
    return start, code[start:end if end >= 0 else len(code)]


def _divides(code: str, m: re.Match) -> bool:
    """Is the exp call a divisor (`(y - mu) / jnp.exp(log_sigma)`, a Gaussian's scale from its log)? Its overflow
    makes the quotient 0, not inf: no exp-overflow's nan there."""
    # (a divisor that is a sum of exps, `/ torch.exp(s).sum(-1)`, is a softmax's denominator: not this)
    return re.search(r"/\s*(?:\(\s*)?$", code[max(0, m.start() - 8):m.start()]) is not None \
        and re.match(r"\s*\.(?:sum|mean)\(", code[m.end():m.end() + 12]) is None


SIGMOID_DENOMINATOR = lazy_regex.compile(r"(?<![\w.])1(?:\.0*)?\s*\+\s*(?:[\w.]{0,20}\.)?$")


# The marker set beside exp-unshifted where the exp is of a layer's output negated, in a Gaussian NLL's shape
# (exp_of_layer_piece, _gaussian_nll_shape): a precision from a log-variance
EXP_NEGATED = "exp-negated"


def exp_of_layer_piece(code: str) -> re.Match | None:
    """The exp of a name made from a layer's raw output, directly or as a chunk of it, or of its negation, never
    bounded, and not a divisor; or None."""
    for m in itertools.islice(EXP_OF.finditer(code), EXP_CALLS_READ):
        # (or of its negation, a precision from a log-variance, `jnp.exp(-log_var)`: an output pushed below about -88.7
        # overflows it just the same -- not a sigmoid's `1 + exp(-z)`, whose inf gives 1/inf = 0.0)
        name = NAME_ARG.match(m.group("arg").strip())
        if name and name.group("minus"):
            continue
        name = name or NEGATED_NAME.match(m.group("arg").strip())
        if not name or _divides(code, m) \
                or not NAME_ARG.made(name) and SIGMOID_DENOMINATOR.search(code[max(0, m.start() - 16):m.start()]):
            continue
        made = _assignments(name.group("name"), code, part=True)
        if not made or any(BOUNDED.search(rhs) for rhs in made):
            continue
        for rhs in made:
            if re.match(_LAYER_CALL, rhs):
                return m
            # (a chunk, a split or a slice of a name that is itself a layer's output: PIECE_OF's chunk, split, unbind
            # and index, `log_var = out[..., 1]`)
            # (an affine of the piece, `out[..., 1] * 0.5 - 3`, is as unbounded as the piece: only a squashing function
            # or a clamp bounds it, which BOUNDED reads above)
            piece = PIECE_OF.match(rhs.split("#")[0].strip())
            kind = (piece.group("call") or piece.group("how") or "").lstrip(".") if piece else ""
            source = _assignments(piece.group("base") or piece.group("inner"), code) \
                if kind.startswith(("chunk", "split", "unbind", "[")) else []
            if any(re.match(_LAYER_CALL, r) for r in source) and not any(BOUNDED.search(r) for r in source):
                return m
    return None


def _made_by_a_model(name: str, code: str, depth: int = 2) -> bool:
    """Is the name made by a model, a layer or a squashing function -- a prediction, not data -- directly or through
    the names its assignments read (`out = model(x)`, then `y = out[:, 0]`, `y = out * std + mean`), `depth` steps back?"""
    for rhs in _assignments(name, code):
        if re.search(_LAYER_CALL, rhs) or BOUNDED.search(rhs) or KEPT_POSITIVE.search(rhs) \
                or re.match(r"[ \t]*" + MODEL_CALL, rhs):
            return True
        if depth and any(_made_by_a_model(other, code, depth - 1) for other in
                         dict.fromkeys(re.findall(r"(?<![\w.])([A-Za-z_]\w{0,30})\b(?!\s*\()", rhs)) if other != name):
            return True
    return False


_SQUARED = r"\*\*\s*2\b|\.pow\(\s*2\b|\bsquare\(|(?<![\w.])(?P<twice>[A-Za-z_]\w{0,30})\s*\*\s*(?P=twice)\b"


def _gaussian_nll_shape(code: str, m: re.Match, name: str) -> bool:
    """Is the exp of the negated name a Gaussian NLL's precision, `0.5 * (exp(-s) * r**2 + s)`: the name itself added to
    the loss (`+ s`, `+ 0.5 * s.sum()`), and a squared term times the exp -- on its line, or on a line that uses the
    name made from it, or in the assignment of a name multiplied by it there (`se = (y - mu) ** 2`)?"""
    added = re.search(r"\+\s*(?:[\d.]+\s*\*\s*)?" + re.escape(name) + r"\b(?!\s*\()|(?<![\w.])" + re.escape(name)
                      + r"(?:\.(?:sum|mean)\([^()\n]{0,30}\))?\s*\+", code)
    if not added:
        return False
    _start, line = _line_of(code, m)
    made = re.match(r"\s*([A-Za-z_]\w{0,30})\s*=(?!=)", line)
    lines = [line] + ([used for used in code.split("\n")[:2000]
                       if re.search(r"(?<![\w.])" + re.escape(made.group(1)) + r"\b", used)] if made else [])
    factors = {f for used in lines for f in re.findall(r"\*\s*([A-Za-z_]\w{0,30})\b(?![\w.(\[])", used)} - {name}
    return any(re.search(_SQUARED, used) for used in lines) \
        or any(re.search(_SQUARED, rhs) for factor in factors for rhs in _assignments(factor, code))


# ... or multiplies exps into a running product over a sequence, a forward algorithm in probability space (`alpha =
# (alpha @ jnp.exp(trans)) * jnp.exp(emissions[t])`, `alpha *= np.exp(scores[t])`): each step multiplies in another
# exponential, so the product grows (or shrinks) exponentially with the sequence's length -- WR-020's CRF/HMM face.
EXP_PRODUCT = lazy_regex.compile(r"(?m)^[ \t]*(?P<acc>[A-Za-z_]\w{0,30})\s*(?:\*=|=\s*(?:\(\s*)?(?P=acc)\b\s*[*@])[^\n]{0,120}?"
                                 + _LIBRARY + r"exp\(")
EXP_CALLS_READ = 50
# (the log-sum-exp *trick* is the shift; "log-sum-exp pooling" names an operation, shifted or not)
_STABLE_WORDS = r"log-sum-exp trick|subtract(?:ing|s)? the max\w*|max subtraction|stable softmax"
STABLE_SAID = lazy_regex.compile(r"\b(?:logsumexp|log_softmax|" + _STABLE_WORDS + r")\b", re.I)
# ... of which only the words count anywhere in the paste's code: a call shifts the exp it feeds (_exp_in_a_ratio)
STABLE_WORDS = lazy_regex.compile(r"\b(?:" + _STABLE_WORDS + r")\b", re.I)
# ... or said in words: exps divided by their sum by hand ("the weights are exp(-F/T) divided by their sum", "exp of each
#   score divided by the sum of the exps"), nothing said subtracted from their inputs
EXP_RATIO_SAID = lazy_regex.compile(r"(?i)\bexp\s*\((?:[^()\n]|\([^()\n]{0,20}\)){1,40}\)\s*(?:divided by|over|normali[sz]ed by)\s+"
                                    r"(?:their|the|its)\s+"
                                    r"(?:sum|total)\b|\bexp(?:s|onentials?)?\s+of\s+(?:each|every|the)\s+\w+\s+divided by\s+the\s+"
                                    r"sum\s+of\s+(?:the\s+|all\s+)?exp\w*\b")
# ... not where the words say the inputs are shifted ("after subtracting the minimum energy", "relative to the lowest")
#   or name a library's softmax, which shifts them itself
SHIFT_SAID = lazy_regex.compile(r"(?i)\bsubtract\w*\s+(?:the\s+)?(?:max\w*|min\w*|lowest|largest|highest)\b|"
                                r"\brelative to the (?:lowest|largest|highest|min\w*|max\w*)\b|"
                                r"\b(?:nn\.|F\.|torch\.|tf\.nn\.|jax\.nn\.|scipy\.special\.)softmax\b")
# - A square root with nothing added under it (`torch.sqrt(((a - b) ** 2).sum(1))`), a JAX, TensorFlow or Keras norm
#   (`jnp.linalg.norm(a - b)`; Keras's on the JAX or TensorFlow backend), or a where that picks a sqrt or a log on one
#   branch (`where(s > 0, sqrt(s), 0)`, `where(y > 0, y * log(y), 0)`): fine in value at 0, but the slope of sqrt
#   there is 1 / (2 sqrt(0)) = inf, and inf * 0 in the backward pass is nan (a norm's gradient at a zero vector is
#   x / ||x|| = 0/0; the where's other branch is still differentiated). Not PyTorch's norm: torch.linalg.vector_norm
#   gives a zero gradient at 0 (WR-050's framework part); not math.sqrt, of a Python number that has no gradient;
#   not the double where, whose inner where made the value safe first (WR-050's own fix).
SINGULAR_SLOPE_WORDS = {"sqrt", "gradient"}
# (a sqrt of what can be 0: a sum of squares, a difference, a variance -- not of a size, `np.sqrt(d_k)`, nor of an
# init's scale, `np.sqrt(2 / fan_in)`)
# (or of what a backward that multiplies clips at 0: JAX's jnp.maximum(x, 0) and jnp.clip(x, 0, ...), whose JVP is
# g * (x == max) (lax.py, `ad.defjvp2(max_p, lambda g, ans, x, y: mul(g, _balanced_eq(x, ans, y)), ...)`), and
# TensorFlow's tf.nn.relu, whose ReluGrad is `gradients * (features > 0)` (relu_op_functor.h): where they clip, sqrt's
# infinite slope at 0 meets that 0, and inf * 0 is nan, whatever they clip. PyTorch's clamp and relu, jax.nn.relu and
# tf.maximum select instead, so a clipped input's gradient is 0 -- but a clamp or a maximum at 0 keeps `x >= 0` and
# passes sqrt's inf where its input is exactly 0, as a sum of squared differences is on a pairwise matrix's diagonal:
# a clip at exactly 0 is no guard (ZERO_CLIP), only an eps is)
_FIRST_ARG = r"(?:[^,()\n]|\((?:[^()\n]|\([^()\n]{0,60}\)){0,120}\)){1,160}"
_ZERO = r"0(?:\.0*)?(?![\w.])"
AT_ZERO = lazy_regex.compile(r"\bjnp\.(?:maximum\(\s*(?:" + _FIRST_ARG + r",\s*" + _ZERO + r"|" + _ZERO + r"\s*,)|clip\(\s*"
                             + _FIRST_ARG + r",\s*(?:a_)?(?:min\s*=\s*)?" + _ZERO + r")|\btf\.nn\.relu\(")
ZERO_CLIP = lazy_regex.compile(r"\b(?:clamp(?:_min)?|clip|maximum)\(\s*(?:" + _FIRST_ARG + r",\s*(?:(?:a_)?min\s*=\s*)?" + _ZERO
                               + r"|" + _ZERO + r"\s*,)")
DIFFERENCE = lazy_regex.compile(r"\w\s*-\s*[\w(]|\*\*\s*2|\bpow\(|\bsum\(|\bsquare\(|\bvar\(|\bmean\(|\bdot\(|@|"
                                + AT_ZERO.pattern)
# (three levels of brackets inside it: `sqrt(clamp(((a - b) ** 2).sum(-1), min=0))`; Keras's backend and ops too:
# `K.sqrt(K.sum(K.square(x - y), axis=1))`, a Siamese distance written with its backend)
SQRT_CALL = lazy_regex.compile(r"(?<![\w.])(?:(?:torch|np|numpy|tf|tf\.math|jnp|K|backend|keras\.ops|ops|tf\.keras\.backend|"
                               r"keras\.backend|tf\.keras\.ops)\.)?"
                               r"(?<!math\.)sqrt\(\s*(?P<arg>(?:[^()\n]|\((?:"
                               r"[^()\n]|\((?:[^()\n]|\([^()\n]{0,60}\)){0,60}\)){0,80}\)){0,120})\)|(?P<norm>\b(?:jnp\.linalg|tf|keras\.ops|ops)\.norm\()|"
                               # (a framework's where, not NumPy's, which no gradient goes through; nor a schedule's, whose
                               # step is never differentiated: `where(step < warmup, ..., sqrt(warmup / step))`)
                               r"(?P<where>(?<![\w.])(?:(?:torch|jnp|tf|tf\.experimental\.numpy)\.)?where\("
                               r"(?!\s*(?:step|epoch|it|iteration|t)\s*[<>])[^\n]{0,80}?,"
                               r"[^,\n]{0,40}?\b(?:sqrt|log)\()"
                               r"(?![^\n]{0,80}where\()"
                               r"\s*(?P<inner>[\w.]{1,40})?")
# ... or a division on one branch of a framework's where whose condition keeps the divisor off 0 in value only
# (`torch.where(n > 0, s / n, 0)`): the branch not taken is still differentiated, and its slope 1 / n is inf where n is
# 0, times the 0 the where sends it: nan. The divisor a name the condition tests, not a number (`img / 255.0`), nor one
# kept off 0 by a clamp or an eps, nor one an inner where made safe first (WR-050's own fix); not NumPy's where, which
# no gradient goes through.
WHERE_CALL = lazy_regex.compile(r"(?<![\w.])(?:(?:torch|jnp|tf|tf\.experimental\.numpy)\.)?where\(")
# (the condition keeps the divisor off 0: it compares the divisor with 0, a small number or a threshold -- `n > 0`,
# `obs > thr`, `0 < n` -- itself, or through a name it was assigned to, `wet = obs > thr`; not `diff < beta`, which
# tests the numerator against a constant divisor)
_OFF_ZERO = r"(?:-?\d+(?:\.\d+)?(?:e-?\d+)?|\w*(?:eps|thr|thresh|tol|min)\w*|self\.\w+)"
DIVIDED_BY = lazy_regex.compile(r"(?<![/*])/(?![/=])\s*(?P<den>[A-Za-z_][\w.]{0,40}(?:\[[^\[\]\n]{0,30}\])?)(?!\s*(?:\.|\+|\())")


def assignment(code: str, name: str) -> re.Match | None:
    """The first line of the code that assigns the name, its right-hand side as group 1 (not a comparison, `==`); or
    None."""
    return re.search(r"(?m)^[ \t]*" + re.escape(name) + r"\s*=(?!=)\s*([^\n]{0,120})", code)


def _named_difference(code: str, arg: str, at: int) -> bool:
    """Is the square root's argument, at `at`, a bare name the code last assigns before it from what can be 0 -- a sum
    of squares, a mean of them (`mse = se.sum(1) / mask.sum(1).clamp(min=1)`) -- with nothing added to keep it off 0,
    and no clamp of it in place between? What divides it is left out, the divisor's operand only: a clamp on the
    divisor keeps the division off 0/0, not the quotient off 0, and an eps added after it (`... / n + 1e-8`) does."""
    made = last_assignment(code, arg.strip(), at) if re.fullmatch(r"\s*[A-Za-z_]\w{0,40}\s*", arg) else None
    if made is None or re.search(r"(?<![\w.])" + re.escape(arg.strip()) + r"\.clamp(?:_min)?_\(", code[made.end():at]):
        return False
    rhs, kept, depth, i = made.group(1), [], 0, 0
    while i < len(rhs):
        ch = rhs[i]
        depth += (ch in "([") - (ch in ")]")
        if ch == "/" and depth == 0 and rhs[i + 1:i + 2] != "/" and rhs[i - 1:i] != "/":
            # (skip the divisor's operand: to the next + or - at this level)
            j, d = i + 1, 0
            while j < len(rhs) and not (d == 0 and rhs[j] in "+-" and rhs[j - 1] not in "eE("):
                d += (rhs[j] in "([") - (rhs[j] in ")]")
                j += 1
            i = j
            continue
        kept.append(ch)
        i += 1
    rest = "".join(kept)
    return bool(DIFFERENCE.search(rest)) and not GUARDED.search(ZERO_CLIP.sub("", rest))


# An arccos or an arcsin of what a clamp holds to exactly [-1, 1] (`torch.acos(torch.clamp(cos, -1.0, 1.0))`), inline or
# through a name the code last set so: fine in value at a perfect match, its slope there -1/sqrt(1 - x^2) is inf, and the
# clamp passes it at its own bounds (WR-050's page); a margin, `1 - 1e-7`, keeps it off the ends
# (a framework's, whose gradient runs through the clamp: not NumPy's or math's, which nothing differentiates)
ARC_CALL = lazy_regex.compile(r"(?<![\w.])(?:(?:torch|jnp|tf\.math|tf)\.)?(?P<fn>acos|arccos|asin|arcsin)\(\s*"
                              r"(?P<arg>(?:[^()\n]|\((?:[^()\n]|\((?:[^()\n]|\([^()\n]{0,60}\)){0,80}\)){0,120}\)){1,200})\)")
_UNIT_CLAMP = lazy_regex.compile(r"(?:(?:torch|jnp|tf)\.)?(?:clamp|clip|clip_by_value)\(\s*(?:[^()\n]|\((?:[^()\n]|\([^()\n]{0,60}\))"
                                 r"{0,80}\)){1,160}?,\s*(?:min\s*=\s*|clip_value_min\s*=\s*)?-1(?:\.0*)?\s*,\s*"
                                 r"(?:max\s*=\s*|clip_value_max\s*=\s*)?1(?:\.0*)?\s*\)|"
                                 # (a tensor's own clamp: `(dot / denom).clamp(-1.0, 1.0)`)
                                 r"(?:\([^()\n]{1,80}\)|[\w.\[\]]{1,80})\.clamp\(\s*(?:min\s*=\s*)?-1(?:\.0*)?\s*,\s*(?:max\s*=\s*)?"
                                 r"1(?:\.0*)?\s*\)")


def arc_at_its_ends(code: str) -> re.Match | None:
    """The arccos or arcsin call whose argument a clamp holds to exactly [-1, 1], inline or through a name last set so
    before the call (ARC_CALL, _UNIT_CLAMP); or None. (Not math's, of a Python number with no gradient.)"""
    for m in itertools.islice(ARC_CALL.finditer(code), 10):
        arg = m.group("arg").strip()
        # (the clamp alone: one scaled or shifted after it, `clamp(c, -1, 1) * 0.999999`, keeps its slope finite)
        if _UNIT_CLAMP.fullmatch(arg):
            return m
        made = last_assignment(code, arg, m.start()) if re.fullmatch(r"[A-Za-z_]\w{0,40}", arg) else None
        if made and _UNIT_CLAMP.fullmatch(made.group(1).split("#")[0].strip()):
            return m
    return None


def last_assignment(code: str, name: str, at: int) -> re.Match | None:
    """The last line before `at` that assigns the name, its right-hand side as group 1 (as assignment() reads one)."""
    found = None
    for m in itertools.islice(re.finditer(r"(?m)^[ \t]*" + re.escape(name) + r"\s*=(?!=)\s*([^\n]{0,120})", code[:at]), 50):
        found = m
    return found


def _assigned_from(code: str, prose: str, m: re.Match) -> str:
    """", where `name = ...`" for a square root of a bare name the code assigns, as the paste writes it; else ""."""
    arg = (m.group("arg") or "").strip()
    made = last_assignment(code, arg, m.start()) if re.fullmatch(r"[A-Za-z_]\w{0,40}", arg) else None
    return f", where `{' '.join(prose[made.start():made.end()].split())}`" if made else ""


def where_division(code: str) -> str:
    """The where call (as written, to its end) that picks a division on a branch by a name its condition tests; or ""."""
    for m in itertools.islice(WHERE_CALL.finditer(code), 50):
        args = arguments(code, m.end() - 1)
        if not args or len(args) != 3:
            continue
        condition = args[0] + "".join(
            f" {a.group(1)}" for name in re.findall(r"[A-Za-z_]\w{0,40}", args[0])[:5]
            if (a := assignment(code, name)))
        for branch in args[1:]:
            for d in DIVIDED_BY.finditer(branch):
                base = re.escape(d.group("den").split("[")[0].split(".")[-1])
                made_safe = re.search(r"(?<![\w.])" + base + r"\s*=[^=\n][^\n]{0,120}?where\(", code)
                tested = re.search(r"(?<![\w.])" + base + r"\s*(?:>=?|!=)\s*" + _OFF_ZERO + r"(?![\w.])|(?<![\w.])"
                                   + _OFF_ZERO + r"\s*(?:<=?|!=)\s*" + base + r"(?!\w)", condition)
                if tested and not made_safe:
                    return " ".join(code[m.start():m.end() + sum(len(a) + 1 for a in args)].split())
    return ""


# ... and a tensor's own sqrt method on a squared difference (`((a - b) ** 2).sum(-1).sqrt()`): the line before it, with
# no eps added by a method either (`.add(1e-8)`)
SQRT_METHOD = lazy_regex.compile(r"(?m)^(?P<line>[^\n]{0,200}?)\.sqrt\(\s*\)")
ADDED = lazy_regex.compile(r"\.add_?\(\s*(?:\w*eps\w*|(?:\d+(?:\.\d+)?|\.\d+)e-\d+|0?\.0*[1-9])", re.I)
# A difference between every pair of a batch's rows, the row and itself included (`z[:, None, :] - z[None, :, :]`,
# `x.unsqueeze(1) - x.unsqueeze(0)`): its diagonal is 0 from the very first step (WR-050's page), so a norm or square
# root of it breaks the first backward pass, not only one after training has run. (Not torch.cdist(z, z), whose
# gradient at 0 is finite in all its modes: factcheck_session38 item 6.)
PAIRWISE = lazy_regex.compile(r"\[\s*:\s*,\s*None\b[^\n]{0,40}?-[^\n]{0,40}?\[\s*None\s*,|"
                              r"\.unsqueeze\(\s*1\s*\)\s*-\s*\w+\.unsqueeze\(\s*0\s*\)")
TRIPLE_QUOTED = lazy_regex.compile(r'"""|\'\'\'')


def line_from(text: str, start: int) -> str:
    """The text from `start` to its line's end, its runs of spaces made one, to quote; or to the backtick that closes
    the code a sentence quotes, where `start` is inside one."""
    end = text.find("\n", start)
    end = end if end >= 0 else len(text)
    if text.count("`", text.rfind("\n", 0, start) + 1, start) % 2 and (tick := text.find("`", start, end)) >= 0:
        end = tick
    return " ".join(text[start:end].split())


@functools.lru_cache(maxsize=4)      # (asked by every reading of the paste's code; read only)
def code_of(prose: str) -> str:
    """The paste with what is not code blanked (same length, lines kept): comments (`#`, `//`), docstrings and other
    triple-quoted strings."""
    chars, opened = list(prose), None
    for m in TRIPLE_QUOTED.finditer(prose):           # (paired in order: each mark costs its own length)
        if opened is None:
            opened = m
        elif m.group(0) == opened.group(0):
            for i in range(opened.start(), m.end()):
                if chars[i] != "\n":
                    chars[i] = " "
            opened = None
    return re.sub(r"(?:#|//)[^\n]*", lambda m: " " * len(m.group(0)), "".join(chars))


def log_call_of(name: str) -> re.Pattern:
    """A log of this very name, alone (the other term of a binary cross-entropy)."""
    return re.compile(_LOG_OPEN + re.escape(name) + r"\s*\)")


# A parameter made as it is, `self.sigma = nn.Parameter(torch.ones(n))` (`tf.Variable(1.0)`; not one made with
# requires_grad=False, which nothing learns): nothing keeps its value
# positive, and a log of it -- of the name, or of one of its items, `self.sigma[i]` -- meets 0 or a negative number once
# an update carries it there (Kendall et al.'s uncertainty weights are learned as log variances for that reason)
PARAMETER_MADE = lazy_regex.compile(r"(?m)^[ \t]*(?P<name>(?:self\.)?[A-Za-z_]\w{0,30})\s*=\s*(?:(?:(?:torch\.)?nn\.|torch\.)?"
                                    r"Parameter|tf\.Variable)\((?![^\n]{0,160}requires_grad\s*=\s*False)")
_PARAMETER_ARG = lazy_regex.compile(r"^(?P<name>(?:self\.)?[A-Za-z_]\w{0,30})(?:\s*\[[^\[\]\n]{0,20}\])?$")


def _learned_as_is(arg: str, code: str) -> bool:
    """Is the log's argument a parameter the code makes as it is (PARAMETER_MADE), or an item of one?"""
    m = _PARAMETER_ARG.match(arg.strip())
    # (not one clamped where the code uses it: `self.sigma.clamp_(min=1e-3)`)
    return bool(m) and any(p.group("name") == m.group("name") for p in PARAMETER_MADE.finditer(code)) \
        and not _guarded_before(m.group("name"), code) \
        and not re.search(r"(?<![\w.])" + re.escape(m.group("name")) + r"(?:\.data)?\.clamp(?:_min)?_\(", code)


def _probability_named(arg: str, code: str, weighted: bool) -> bool:
    """Is the log's argument a probability: a sigmoid's or a softmax's output named in it, probs, a name the paste
    assigns from a sigmoid or a softmax, one minus a name whose own log the paste takes too, weighted (`weighted`: the
    call is multiplied by something, as a binary cross-entropy's `(1 - y) * log(1 - p)` is), or the y_pred of a Keras
    loss function beside a model whose output layer (the last Dense or Activation pasted) is a sigmoid or a softmax
    (Keras hands a loss the model's output as y_pred), or what a pasted PyTorch model returns when it returns one?"""
    if PROBABILITY_ARG.search(arg):
        return True
    m = NAME_ARG.match(arg)
    if not m:
        # (a probability mass written as the difference of two CDFs, `upper - lower`, each made by a cdf: far in a
        # tail both round to one float, 1.0 and 1.0 in the upper tail, and the mass is exactly 0 -- CompressAI's
        # GaussianConditional takes the CDFs in the lower tail, where they keep their precision, and bounds the
        # likelihood below, likelihood_bound=1e-9)
        mass = CDF_DIFFERENCE.match(arg)
        return bool(mass) and all(re.search(r"(?<![\w.])" + re.escape(name) + r"\s*=[^=\n][^\n]{0,120}?\bcdf\(", code)
                                  for name in mass.groups())
    name = m.group("name")
    # (not a log(alpha) - log(1. - alpha) of a schedule's constants: the two terms of no cross-entropy)
    if m.group("minus") and weighted and log_call_of(name).search(code):
        return True
    if name == "y_pred" and KERAS_LOSS_DEF.search(code) and keras_output_activation(code) in ("sigmoid", "softmax"):
        return True
    # (`probs = model(xb)` beside a pasted PyTorch model that returns a sigmoid's or a softmax's output)
    if re.search(r"(?<![\w.])" + re.escape(name) + r"\s*=\s*(?:self\.)?\w*(?:model|net)\w*\(", code, re.I) \
            and model_output(code):
        return True
    return re.search(r"(?<![\w.])" + re.escape(name) + r"\s*=[^=\n][^\n]{0,120}?\b(?:sigmoid|softmax)\b",
                     code) is not None


# The Keras model's output layer as the paste builds it: the last Dense (over its lines: `Dense(\n 2,\n ...)`) or
# Activation pasted, or a layer after the last Dense that transforms its output (Softmax, ReLU, a Lambda, TFP's
# DistributionLambda)
_KERAS_AFTER_DENSE = lazy_regex.compile(r"\b(?:Softmax|ReLU|LeakyReLU|ELU|Lambda|DistributionLambda|IndependentNormal|"
                                        r"MixtureNormal)\(")


@functools.lru_cache(maxsize=8)
def keras_output_activation(code: str) -> str | None:
    """The activation of the pasted Keras model's output layer: `linear` for a last Dense with none (or with a
    callable, not read: `other`), its name for an Activation or a Dense that names one, `other` for a layer after the
    last Dense that transforms it; None where no Dense or Activation is pasted."""
    last = None
    for last in KERAS_LAYER.finditer(code):
        pass
    if last is None:
        return None
    if last.group("activation"):
        return last.group("activation")
    listed = arguments(code, last.start() + len("Dense"), across_lines=True)
    call = ", ".join(listed) if listed else last.group(0)
    if _KERAS_AFTER_DENSE.search(code, last.end()):
        return "other"
    if re.search(r"\bactivation\s*=\s*(?!['\"]|None\b)", call):
        return "other"
    return (KERAS_ACTIVATION.findall(call) or ["linear"])[-1]


# ... or the log of y_pred, or of a slice of it, in a Keras loss function beside a model whose output layer is linear
# (`sigma = y_pred[:, 1:2]` then `tf.math.log(sigma)`, a last Dense with no activation): a linear output is negative for
# some inputs from the first forward pass, and the log of a negative number is nan (WR-030's raw-output face). Not a
# slice reassigned before the log (`sigma = tf.nn.softplus(sigma)`), nor a model of several heads concatenated.
RAW_SLICE = lazy_regex.compile(r"(?m)(?<![\w.])(?P<name>[A-Za-z_]\w{0,30})\s*=\s*y_pred\s*\[[^\]\n]{1,30}\]\s*$")


HEADS_JOINED = lazy_regex.compile(r"(?i)\bconcatenate\(|\btf\.concat\(|\bops\.concatenate\(")


@functools.lru_cache(maxsize=8)
def y_pred_slices(code: str) -> dict[str, int]:
    """The names a Keras loss function slices from y_pred (and y_pred itself), each with where its slice ends; {}
    where no loss function of (y_true, y_pred) is pasted."""
    if not KERAS_LOSS_DEF.search(code):
        return {}
    return {"y_pred": 0, **{m.group("name"): m.end() for m in itertools.islice(RAW_SLICE.finditer(code), 20)}}


def loss_def_body(text: str) -> tuple[int, int]:
    """Where the pasted Keras loss function of (y_true, y_pred) runs (KERAS_LOSS_DEF), from its def to the first line
    at its indentation or less; (0, 0) where none is pasted."""
    m = KERAS_LOSS_DEF.search(text)
    if m is None:
        return 0, 0
    start = text.rfind("\n", 0, m.start()) + 1
    indent = len(text[start:m.start()]) - len(text[start:m.start()].lstrip(" \t"))
    line_end = text.find("\n", m.end())
    end = re.compile(r"(?m)^[ \t]{0,%d}\S" % indent).search(text, line_end + 1) if line_end >= 0 else None
    return start, end.start() if end else len(text)


def sliced_from_y_pred(code: str) -> dict[str, int]:
    """y_pred_slices, where the model's output layer is linear and no heads are concatenated; else {}."""
    return y_pred_slices(code) if keras_output_activation(code) == "linear" and not HEADS_JOINED.search(code) else {}


def raw_output_logged(code: str, m: re.Match, sliced: dict[str, int]) -> bool:
    """Is the log's argument y_pred, or a name sliced from it (`sliced`: sliced_from_y_pred), not reassigned between
    its slice and the log?"""
    name = NAME_ARG.match(m.group("arg").strip())
    if not name or name.group("minus") or name.group("name") not in sliced:
        return False
    n = name.group("name")
    again = re.compile(r"(?m)^[ \t]*" + re.escape(n) + r"\s*(?:=(?!=)|\+=|\*=)")
    return again.search(code, sliced[n], m.start()) is None     # (y_pred clipped first, `y_pred = K.clip(...)`: kept off 0)


# ... and, in any framework, the log of a piece of a layer's raw output: a slice by constants, a chunk or a split of it,
# or a sum of such pieces (`out = self.readout(s)`, `var_atom = out[:, 1]`, `var = scatter(var_atom, batch,
# reduce="sum")`, then `torch.log(var)`: a variance or a scale head read off a plain Linear). A linear output is negative
# or 0 for some inputs from the first forward pass, and the log of it nan or -inf. Only a piece: a whole output logged is
# more often a probability the model's own last layer made; and not where the layer reached is defined with a softmax or
# a sigmoid (or called with one), nor a name that reads as a probability or a weight, nor an entry picked by a label or an action (`probs[i, a]`): the
# canonical log-probability. Not where any making of a name on the way keeps it positive (an exp, a softplus, a sigmoid,
# an absolute value, a square, a norm, a variance, a clamp, an epsilon added), in place too (`var.clamp_(min=1e-6)`).
KEPT_POSITIVE = lazy_regex.compile(r"(?<![A-Za-z0-9_])(?:exp|softplus|sigmoid|softmax|square|clamp|clip|maximum|abs|norm|var|"
                                   r"std|pow)(?:_min|_max|_by_value|_by_norm)?_?\s*\(|(?<![\w.])max\(|\*\*\s*2")
PROBABILITY_SHOWN = lazy_regex.compile(r"(?i)softmax|sigmoid")
PROBABILITY_NAME = lazy_regex.compile(r"(?i)p|probs?|prob_\w*|\w*_probs?|pi|attn\w*|att|weights?|alphas?|w")
# (a name that is no library's, nor torch.nn.functional's `F.` or JAX's)
_NOT_A_LIBRARY = r"(?!(?:" + _LIBRARY_NAMES + r"|F|jax|mx)\.)"
# (the name a piece is taken from, the whole right-hand side: `out[:, 1]`, `out.chunk(2, -1)`, `torch.split(out, 1, -1)`,
# `tf.split(out, 2, axis=-1)`, `scatter(v, batch, dim=0, reduce="sum")`, `v.sum(0)`)
PIECE_OF = lazy_regex.compile(_NOT_A_LIBRARY + r"(?P<base>[A-Za-z_]\w{0,30})(?P<how>\[[\s\d:,.\-]{1,30}\]|"
                              r"\.(?:chunk|split|unbind|sum|mean)\([^()\n]{0,40}\))(?:\.(?:sum|mean)\([^()\n]{0,40}\))*|"
                              r"(?:\w+\.)*(?P<call>chunk|split|unbind|scatter\w*|segment_sum|sum|mean)\(\s*"
                              r"(?P<inner>[A-Za-z_]\w{0,30})(?P<islice>\[[\s\d:,.\-]{1,30}\])?(?![\w\[])[^\n]*\)")
_SUMMED = ("sum", "mean", "scatter", "segment_sum")
# (or the piece taken from the call itself: `self.head(h)[:, 1]`, `self.out(h).chunk(2, -1)`)
LAYER_PIECE = lazy_regex.compile(_LAYER_CALL + r"[^\n]*\)\s*(?:\[[\s\d:,.\-]{1,30}\]|\.(?:chunk|split|unbind)\()")


def _ends_in_probability(rhs: str, code: str) -> bool:
    """Does the layer called on this right-hand side end in a softmax or a sigmoid where the paste defines it
    (`self.head = nn.Sequential(..., nn.Softmax(dim=-1))`), or on the line itself?"""
    if PROBABILITY_SHOWN.search(rhs):
        return True
    called = re.match(r"\s*((?:self\.)?[A-Za-z_]\w{0,40})\s*\(", rhs)
    defined = assignment(code, called.group(1)) if called else None
    return bool(defined and PROBABILITY_SHOWN.search(code, defined.start(1), defined.start(1) + 400))


def _piece_of_layer_output(name: str, code: str, seen: set, piece: bool = False) -> bool:
    """Is `name` made from a layer's raw output, through a slice, a chunk or a split (`piece` once one is met) and
    any sums, with nothing on the way that keeps it positive, nor a layer that ends in a softmax or a sigmoid? (`seen`:
    the names read already, with whether a piece was met, each once; a name made from a piece of itself, `x = x[:, 0]`,
    is that piece, and its other makings are read on.)"""
    if (name, piece) in seen or len(seen) > 16:
        return False
    seen.add((name, piece))
    made = [r.split("#")[0].strip() for r in _assignments(name, code, part=True)]
    if not made or any(KEPT_POSITIVE.search(rhs) or GUARDED.search(rhs) for rhs in made) \
            or re.search(r"(?<![\w.])" + re.escape(name) + r"\.(?:clamp|clip|abs|exp)\w*_\(", code):
        return False
    steps = []
    for rhs in made:
        m = PIECE_OF.fullmatch(rhs)
        source = (m.group("base") or m.group("inner")) if m else None
        summed = bool(m) and (m.group("call") or m.group("how") or "").lstrip(".").startswith(_SUMMED) \
            and not m.group("islice")
        if source == name:
            piece = piece or not summed          # (a piece of itself: the piece this name holds)
        steps.append((rhs, m, source, summed))
    for rhs, m, source, summed in steps:
        if re.match(_LAYER_CALL, rhs) and (piece or LAYER_PIECE.match(rhs)):
            return not _ends_in_probability(rhs, code)
        if m is None or source == name:
            continue
        if _piece_of_layer_output(source, code, seen, piece or not summed):
            return True
    return False


def log_of_layer_piece(code: str) -> re.Match | None:
    """The first log (LOG_CALL) of a name made from a piece of a layer's raw output (_piece_of_layer_output), or None."""
    for m in itertools.islice(LOG_CALL.finditer(code), EXP_CALLS_READ):
        name = NAME_ARG.match(m.group("arg").strip())
        if name and not name.group("minus") and not PROBABILITY_NAME.fullmatch(name.group("name")) \
                and _piece_of_layer_output(name.group("name"), code, set()):
            return m
    return None


def _weighted(code: str, m: re.Match) -> bool:
    """Is the call multiplied by something: `(1 - y) * log(1 - p)`, `log(1 - p) * (1 - y)`, `np.multiply(np.log(1 - A2),
    1 - Y)`?"""
    before, after = code[max(0, m.start() - 40):m.start()].rstrip(), code[m.end():m.end() + 40].lstrip()
    return before.endswith(("*", "multiply(")) or after.startswith("*")


def _guarded_before(name: str, code: str) -> bool:
    """Does the paste keep the name off 0 before its log (`y_pred = K.clip(y_pred, K.epsilon(), 1 - K.epsilon())`,
    `p = p.clamp(min=1e-7)`, `p += eps`)?"""
    return any(GUARDED.search(m.group(1)) for m in
               re.finditer(r"(?<![\w.])" + re.escape(name) + r"\s*(?:=(?!=)|\+=)([^\n]{0,160})", code))


# - A sum raised to a negative power, or under a reciprocal square root, with nothing to keep it off 0: a graph's
#   `deg = A.sum(1); d = deg.pow(-0.5)` (the D^-1/2 A D^-1/2 of a GCN written by hand), `1 / torch.sqrt(counts)`. A node
#   with no edge (no self-loop added) or an empty bag sums to 0, 0 ** -0.5 is inf, and the inf times the zeros of its
#   row and column is nan. Not with an eps or a clamp in the sum, nor where the paste adds self-loops (an identity) or
#   replaces the infs. (Triton's `tl.` too: an RMSNorm kernel's `1.0 / tl.sqrt(ms)` of a row's mean square, inf on a
#   row of zeros.)
NEGATIVE_POWER = lazy_regex.compile(r"(?<![\w.])(?P<n>[A-Za-z_]\w{0,30})\s*(?:\.pow\(\s*-\s*(?:0?\.5|1(?:\.0*)?)\s*\)|"
                                    r"\*\*\s*(?:\(\s*)?-\s*(?:0?\.5|1(?:\.0*)?)\s*\)?)|"
                                    r"\b(?:torch|jnp|np|tf\.math|lax|tl)\.rsqrt\(\s*(?P<r>[A-Za-z_]\w{0,30})\s*\)|"
                                    r"(?<![\w.])1(?:\.0*)?\s*/\s*(?:torch|jnp|np|tf\.math|math|tl)\.sqrt\(\s*(?P<s>[A-Za-z_]\w{0,30})\s*\)")
INVERSE_GUARDED = lazy_regex.compile(r"\beye\(|\bidentity\(|add_self_loops|self[_ -]loops?|isinf|masked_fill|nan_to_num|"
                                     r"\[\s*\w+\s*==\s*0\s*\]|==\s*float\(\s*['\"]inf|\binf\b\s*\]\s*=", re.I)


def inverse_of_sum(prose: str) -> str:
    """The code that raises a sum to a negative power with nothing to keep it off 0 (NEGATIVE_POWER), as written; or
    ""."""
    code = code_of(prose)
    if INVERSE_GUARDED.search(code):
        return ""
    for m in itertools.islice(NEGATIVE_POWER.finditer(code), 10):
        name = m.group("n") or m.group("r") or m.group("s")
        made = assignment(code[:m.start()], name)
        if made and re.search(r"\.sum\(|\bsum\(|\bdegree\(|\.count_nonzero\(", made.group(1)) \
                and not GUARDED.search(made.group(1)):
            return " ".join(m.group(0).split())
    return ""


# A division by a vector's norm with nothing to keep it off 0 (`g / g.flatten(1).norm(dim=1).view(-1, 1, 1, 1)`,
# `v /= np.linalg.norm(v)`): a zero vector -- an all-zero gradient, a padded row of zeros -- has norm 0, and 0/0 is nan
# in the forward pass (WR-060's "normalizing a zero vector gives nan"). Not F.normalize, which divides by max(norm,
# eps); nor a divisor with an eps added or a clamp inside it, the bracket it opens with or the calls chained to its
# norm (`x / x.norm() + 1e-8` adds the eps to the quotient: no guard). Read only where the paste gives the vector a
# way to be zero: a gradient (`autograd.grad(`, `.grad`, a name of a gradient divided), or words of zero vectors (not
# a tokenizer's padding or an attention mask, which a text encoder's features never are).
NORM_DIVISOR = lazy_regex.compile(r"(?<![/*])/=?(?!/)[ \t]*(?P<paren>\()?[ \t]*(?:(?:torch|np|numpy|jnp|tf)\.(?:linalg\.)?"
                                  r"(?:vector_)?norm|(?<![\w.])(?:vector_)?norm|[A-Za-z_][\w\[\]]{0,40}"
                                  r"(?:\.\w+(?:\([^()\n]{0,20}\))?){0,4}?\.norm)(?=\()")
ZERO_VECTOR_REASON = lazy_regex.compile(r"(?i)\bautograd\.grad\(|\.grad\b(?!_)|\bgrad\w*[ \t]*/|\bzero[- ]vectors?\b|"
                                        r"\ball[- ]zeros?\b|\bzero (?:rows?|gradients?|embeddings?)\b")
_CHAINED = lazy_regex.compile(r"\.\w+(?=\()")


def _after_bracket(code: str, at: int) -> int | None:
    """Where the bracket that opens at `at` has closed (across lines); or None."""
    args = arguments(code, at, across_lines=True)
    return None if args is None else at + sum(map(len, args)) + len(args) + 1


def divides_by_norm(prose: str) -> str:
    """The line of the code that divides by a norm with nothing to keep it off 0 (NORM_DIVISOR), spaces collapsed; or
    "" -- also where the paste gives the vector no way to be zero (ZERO_VECTOR_REASON)."""
    if not ZERO_VECTOR_REASON.search(prose):
        return ""
    return next((line for line, _at in _unguarded_norm_lines(code_of(prose))), "")


# ... or a vector a ReLU made: the last op of what the divided name is assigned from, before the division, is a ReLU
# (`z = self.proj(feats)` where `self.proj = nn.Sequential(..., nn.ReLU())`, `z = F.relu(self.fc(x))`, `z = self.act(h)`
# where `self.act = nn.ReLU()`), so a row whose every pre-activation is below 0 is exactly the zero vector -- at whichever
# batch first brings one, not only at the first step. (A layer after the ReLU that maps 0 to 0 -- a Dropout, a Flatten,
# an Identity, a pooling, a Linear with no bias -- keeps a zero row zero; one that adds a bias or a constant moves it off
# 0, and a call with more after it, `torch.relu(h) @ W + b`, is not read.)
RELU_MODULE = r"(?:(?:torch\.)?nn\.|(?:keras\.|tf\.keras\.)?layers\.)?ReLU\(\s*(?:(?:inplace\s*=\s*)?True\s*)?\)"
RELU_CALL = lazy_regex.compile(r"(?:F|torch|torch\.nn\.functional|nn\.functional|jax\.nn|tf\.nn|nn)\.relu\(")
KEEPS_ZERO = lazy_regex.compile(r"(?:(?:torch\.)?nn\.|(?:keras\.|tf\.keras\.)?layers\.)?(?:Dropout\w*|Flatten|Identity|"
                                r"\w*Pool\w*)\(|(?:(?:torch\.)?nn\.)?Linear\([^()]*\bbias\s*=\s*False")
SEQUENTIAL = lazy_regex.compile(r"(?:(?:torch\.)?nn\.|(?:tf\.)?keras\.(?:models\.)?)?Sequential\(")


def norm_of_relu_output(prose: str) -> str:
    """The line of the code that divides by the norm of a vector a ReLU made (made_by_a_relu), with nothing to keep
    the norm off 0, spaces collapsed; or ""."""
    code = code_of(prose)
    if "relu" not in code.lower():
        return ""
    for line, at in _unguarded_norm_lines(code):
        # (the name just before the slash NORM_DIVISOR starts at -- `z = z / z.norm(...)`, `z /= z.norm(...)` -- and the
        # norm taken of that same name: `h / z.norm()` divides a ReLU's zero row by a norm that need not be 0)
        divided = re.search(r"(?<![\w.])(?P<name>[A-Za-z_]\w{0,30})\s*$", code[code.rfind("\n", 0, at) + 1:at])
        if divided and not re.match(r"/=?\s*(?:\(\s*)?(?:(?:\w+\.)*norm\(\s*" + re.escape(divided.group("name")) + r"\b|"
                                    + re.escape(divided.group("name")) + r"\.norm\()", code[at:]):
            continue
        # (its last making before the division: not the division itself, `z = z / z.norm(...)`)
        made = last_assignment(code, divided.group("name"), code.rfind("\n", 0, at) + 1) if divided else None
        if made and made_by_a_relu(made.group(1).split("#")[0].strip(), code):
            return line
    return ""


def made_by_a_relu(rhs: str, code: str) -> bool:
    """Is this right-hand side one call whose last op is a ReLU: a relu call around the whole of it, a `.relu()` at its
    end, or a module the code defines as a ReLU or as a Sequential that ends in one?"""
    call = RELU_CALL.match(rhs) or re.match(r"(?:self\.)?[A-Za-z_]\w{0,40}(?=\s*\()", rhs)
    if call is None:
        return False
    opened = rhs.find("(", call.end() - 1)
    end = _after_bracket(rhs, opened)
    if end is None or rhs[end:].strip() and not re.fullmatch(r"\.relu\(\s*\)", rhs[end:].strip()):
        return False            # (a call with more after it: `torch.relu(h) @ W`, `F.relu(h) + 1.0`)
    if RELU_CALL.match(rhs) or rhs[end:].strip():
        return True
    defined = assignment(code, call.group(0))
    if defined is None:
        return False
    module = code[defined.start(1):]
    if re.match(RELU_MODULE, module):
        return True
    sequential = SEQUENTIAL.match(module)
    layers = sequential_layers(module, sequential.end() - 1) if sequential else []
    while layers and KEEPS_ZERO.match(layers[-1]):
        layers.pop()
    return bool(layers) and bool(re.fullmatch(RELU_MODULE, layers[-1])
                                 or re.search(r"\bactivation\s*=\s*['\"]relu['\"]", layers[-1]))


def _unguarded_norm_lines(code: str):
    """Each line of the code that divides by a norm with nothing to keep it off 0 (NORM_DIVISOR), spaces collapsed, and
    where its division starts."""
    for m in itertools.islice(NORM_DIVISOR.finditer(code), 10):
        end = _after_bracket(code, m.start("paren")) if m.group("paren") else _after_bracket(code, m.end())
        while not m.group("paren") and end is not None and (chained := _CHAINED.match(code, end)):
            end = _after_bracket(code, chained.end())
        if end is not None and not GUARDED.search(code, m.start(), end):
            line_end = code.find("\n", m.start())
            yield (" ".join(code[code.rfind("\n", 0, m.start()) + 1:line_end if line_end >= 0 else len(code)].split()),
                   m.start())


# ... and the tensor's own method assigned alone, `alpha = alpha.exp()`, its receiver the argument (as PyTorch writes an
# attention's scores before it divides them by their sum) -- read only as a name later divided by its own sum, not on a
# line of its own that holds a sum and a slash (a VAE's KL `... - logvar.exp()) / x.size(0)`, a Gaussian NLL's
# `/ logvar.exp()`); and not of a name made bounded, a sigmoid's, a cosine's, a log-probability's (exp of it is at most
# e or 1)
EXP_METHOD = lazy_regex.compile(r"(?m)^[ \t]*[A-Za-z_]\w{0,30}\s*=\s*(?P<arg>[A-Za-z_]\w{0,30})\.exp\(\s*\)[ \t]*(?:#[^\n]*)?$")
EXP_BOUNDED_INPUT = lazy_regex.compile(r"sigmoid|tanh|cosine_similarity|log_prob|log_softmax|logsigmoid|softmax")
# (a sum over a graph's neighbourhoods by the exps as the call's first argument: torch_scatter's scatter, whose reduce
# is "sum" unless said otherwise, and scatter_add; TensorFlow's and JAX's segment_sum -- GAT's softmax over each
# node's incoming edges, written by hand)
# (TensorFlow's reduce_sum too: `e / tf.reduce_sum(e, axis=-1, keepdims=True)`)
_SUM_CALL = r"(?:\w+\.)*(?:sum|reduce_sum|scatter(?:_add|_sum)?|segment_sum)\("
LOG_OF_ADDED_EXPS = lazy_regex.compile(_LOG_OPEN + r"(?:\w+\.)*exp\([^\n]{0,200}?\+\s*(?:\w+\.)*exp\(")
# - A softplus written by hand: a log of an exp with a constant added, `torch.log(1 + torch.exp(x))`, `np.log1p(np.exp(z))`,
#   SchNet's shifted softplus as `torch.log(0.5 * torch.exp(x) + 0.5)`. An input past about 88.7 in float32 makes exp
#   inf and the log of it inf; the backward pass then multiplies the log's 1 / inf = 0 by exp's slope, inf: nan. The
#   library's softplus returns its input unchanged above a threshold (torch.nn.Softplus, pytorch.org/docs/stable/generated/
#   torch.nn.Softplus.html: "reverts to the linear function
#   when input x beta > threshold", 20 by default), and `logaddexp(0, x)` subtracts the larger first. Not the stable
#   form's `log1p(exp(-abs(x)))`, whose exp is at most 1, nor an input with the largest subtracted.
_CONSTANT = r"(?:\d+(?:\.\d*)?|\.\d+)(?:e-?\d+)?"
SOFTPLUS_BY_HAND = lazy_regex.compile(_LIBRARY + r"(?:log\(\s*(?=" + _CONSTANT + r"\s*\+|(?:" + _CONSTANT + r"\s*\*\s*)?"
                                      + _LIBRARY + r"exp\([^\n]{0,200}?\)\s*\+\s*" + _CONSTANT + r"\s*\))|log1p\(\s*)(?:"
                                      + _CONSTANT + r"\s*\+\s*)?(?:" + _CONSTANT + r"\s*\*\s*)?" + _LIBRARY + r"exp\(\s*"
                                      + _ARGUMENT + r"(?:\s*\+\s*" + _CONSTANT + r")?\s*\)?")
# ... and with the tensor's own exp: `torch.log(1 + x.exp())`, `torch.log1p(x.exp())`
SOFTPLUS_METHOD = lazy_regex.compile(_LIBRARY + r"(?:log\(\s*(?=" + _CONSTANT + r"\s*\+|[A-Za-z_][\w.]{0,40}\.exp\(\)\s*\+\s*"
                                     + _CONSTANT + r"\s*\))|log1p\(\s*)(?:" + _CONSTANT + r"\s*\+\s*)?"
                                     r"(?P<arg>[A-Za-z_][\w.]{0,40})\.exp\(\)(?:\s*\+\s*" + _CONSTANT + r")?\s*\)")
# (a line of code: an assignment, a return, or an indented line; or a call a library names, `torch.log(...)` -- not the
# formula said in a sentence, "nn.Softplus(), i.e. log(1 + exp(x))")
_CODE_LINE = lazy_regex.compile(r"^(?:[ \t]{4,}|\t|[ \t]*return\b|[ \t]*[\w.\[\], ]{1,80}?(?<![=!<>])=(?!=))")
# (the library's softplus named on the line, or a replacement said: "replaced log(1 + exp(x)) with F.softplus(x)")
LIBRARY_SOFTPLUS = lazy_regex.compile(r"(?:\bF|\bnn|\btorch|\btf\.nn|\btf\.math|\bjax\.nn|\bkeras\.\w+)\.[Ss]oftplus\b|\breplac\w*")
# (a shift by the largest as a call, not a name that holds "max": `x_max`)
SHIFTED_CALL = lazy_regex.compile(r"(?<![\w.])max\(|\.max\(|\.amax\(|logsumexp|log_softmax")
_LIBRARY_CALLED = lazy_regex.compile(r"(?:" + _LIBRARY_NAMES + r")\.")


# Minus a quantity the code makes nonnegative -- a distance, a norm, a square (`jnp.exp(-dist / self.tau)` after
# `dist = jnp.sqrt(...)`) -- over a temperature or times a scale: at most 0, so that exp is at most 1 and cannot overflow
# (a kernel of distances, not a softmax of scores)
NEGATED_NAME = lazy_regex.compile(r"\s*-\s*(?:\(\s*)?(?P<name>[A-Za-z_]\w{0,30})\s*(?:\)\s*)?(?:[/*]\s*[\w.]{1,30}\s*)?$")
NONNEGATIVE = r"(?:\b(?:\w+\.)?(?:sqrt|norm|abs|cdist|pdist|square)\w*\(|\*\*\s*2\b|\.pow\(\s*2\s*\))"


def _minus_a_nonnegative(arg: str, before: str) -> bool:
    """Is the exp's input minus a name that the code before it assigns from a square root, a norm, an absolute value or
    a square (NONNEGATIVE)?"""
    negated = NEGATED_NAME.match(arg)
    made = _assignments(negated.group("name"), before) if negated else []
    return bool(made) and re.search(NONNEGATIVE, made[-1]) is not None


# (the subtrahend's base name, whatever index or method follows it: `lse[:, None]`, `m.detach()`)
SUBTRACTED_NAME = lazy_regex.compile(r"-\s*(?P<name>[A-Za-z_]\w{0,30})\b")


def _exp_in_a_ratio(code: str) -> re.Match | None:
    """The first exp call of the code (see EXP_OF) whose result a sum of exps divides or a log takes, its input
    unshifted: no largest or log-sum-exp taken from it, in it or in the name it is less (SUBTRACTED_NAME).
    Among the first EXP_CALLS_READ calls: each is judged against the whole code, and a paste writes a softmax once."""
    calls = sorted(itertools.chain(itertools.islice(EXP_OF.finditer(code), EXP_CALLS_READ),
                                   itertools.islice(EXP_METHOD.finditer(code), EXP_CALLS_READ)), key=lambda m: m.start())
    for m in calls[:EXP_CALLS_READ]:
        arg = m.group("arg")
        method = EXP_METHOD.made(m)
        if not method and _divides(code, m):
            continue        # (a scale from its log, dividing: `(y - mu) / jnp.exp(log_sigma)` sums no exps)
        if method and (re.search(r"(?:logp|log_prob|logprob)$", arg) or any(
                EXP_BOUNDED_INPUT.search(rhs) for rhs in _assignments(arg, code[:m.start()]))):
            continue
        if _minus_a_nonnegative(arg, code[:m.start()]):
            continue
        if SHIFTED.search(arg) or ((name := NAME_ARG.match(arg.strip())) and re.search(
                r"(?<![\w.])" + re.escape(name.group("name")) + r"\s*=(?!=)[^\n]{0,160}?(?:max|logsumexp|log_softmax)",
                code[:m.start()])):
            continue
        # (or less a name made by a shift's call: `lse = torch.logsumexp(x, -1, keepdim=True)`, then `torch.exp(x - lse)`;
        # `m = s.max(-1, keepdim=True).values`, then `torch.exp((s - m) / t)`)
        if any(SHIFTED_CALL.search(rhs) for sub in itertools.islice(SUBTRACTED_NAME.finditer(arg), 4)
               for rhs in _assignments(sub.group("name"), code[:m.start()])):
            continue
        start, line = _line_of(code, m)
        if "Warning: " in code[code.rfind("\n", 0, max(start - 1, 0)) + 1:start]:
            continue        # (the line a Python warning echoes: when it was printed, the message's own reading says)
        # (a mean of exps is a sum of them over n: `log(mean(exp(r * s)))` is a log-sum-exp less log n)
        # (the exp inside the sum's or the mean's brackets: not a sigmoid beside a loss's mean on one line, `p =
        # 1/(1+np.exp(-X@w)), loss = -np.mean(y*np.log(p) + ...)`)
        summed = _inside_a_call(line, m.start() - start, ("sum(", "mean(")) or re.search(
            r"exp\((?:[^()\n]|\([^()\n]*\))*\)\.(?:sum|mean)\(", line)
        # (a math library's log, `_LOG_OPEN`: not a logger's, `self.log(...)`, `wandb.log(...)`)
        if not method and summed and ("/" in line or LOG_OPEN.search(line)):
            return m
        # (or added up by hand inside a log: `torch.log(torch.exp(-a / g) + torch.exp(-b / g) + torch.exp(-c / g))`, a
        # soft minimum)
        if LOG_OF_ADDED_EXPS.search(line):
            return m
        # (a name made with it: divided by later, when it is the sum; divided by its own sum, when it is the exps)
        made = re.match(r"\s*(?P<name>[A-Za-z_]\w{0,30})\s*=(?!=)", line)
        name = re.escape(made.group("name")) if made else ""
        # (a scatter whose reduce is a max, a min or a mean divides by no sum)
        if made and re.search(r"/\s*(?:\(\s*)?(?:" + (name + r"\b(?![\w.(\[])|" if "sum(" in line else "")
                              + name + r"\.sum\(|" + _SUM_CALL + r"\s*" + name + r"\b(?![^)\n]*\breduce\s*=\s*['\"]"
                              r"(?:max|min|mean|mul|amax|amin)['\"]))", code[m.end():]):
            return m
        # ... or summed (or averaged) inside a log later, masked or not (`jnp.log(jnp.sum(exp_sim, axis=-1))`,
        # `torch.log((exp_sim * mask).sum(1))`, `torch.log(exp_sim.mean(1))`): a log-sum-exp by hand -- not of an exp
        # of a log (`var = torch.exp(log_var)`), a positive quantity whose sum is no log-sum-exp of scores
        # (or a running sum: `torch.log(torch.cumsum(torch.exp(risk), 0))`, the risk set of a Cox partial likelihood
        # written by hand, where torch.logcumsumexp is the stable form)
        if made and not re.search(r"(?<![A-Za-z])log", arg) and re.search(
                _LOG_OPEN + r"(?:(?:\w+\.)*(?:sum|mean|cumsum)\(\s*(?:\(\s*)?" + name + r"\b(?![\w(])|"
                + name + r"(?:\[[^\]\n]{0,30}\])?\.(?:sum|mean|cumsum)\(|\(\s*" + name
                + r"\b[^()\n]{0,40}\)\.(?:sum|mean|cumsum)\()",
                code[m.end():]):
            return m
        # ... or summed into a name of its own that divides later (`denom = (exp_sim * mask).sum(1)`, then
        # `exp_sim[pos] / denom`)
        summed = re.search(r"(?m)^[ \t]*(?P<den>[A-Za-z_]\w{0,30})\s*=(?!=)[^\n]{0,120}?\b" + name
                           + r"\b[^\n]{0,120}?\bsum\(", code[m.end():]) if made else None
        if summed and re.search(r"/\s*(?:\(\s*)?" + re.escape(summed.group("den")) + r"\b(?![\w.(\[])",
                                code[m.end() + summed.end():]):
            return m
    return None


def _inside_a_call(line: str, at: int, calls: tuple[str, ...]) -> bool:
    """Is the position `at` of the line inside the brackets of one of these calls (`sum(`, `mean(`) made on it?"""
    for call in calls:
        found = line.find(call)
        while 0 <= found < at:
            opened = found + len(call) - 1
            held = arguments(line, opened)
            if held is not None and opened < at <= opened + sum(len(a) + 1 for a in held):
                return True
            found = line.find(call, found + 1)
    return False


# Logs that no input takes to 0: every log the pasted code calls is of a positive constant plus an exp (`torch.log(1 +
# torch.exp(-y * z))`, a logistic loss by hand), at least that constant whatever the exp gives -- no log of a
# probability or a method's `.log()`, and no library loss that takes one (a cross-entropy, an NLL, a log_prob). Its
# inf comes from the exp's overflow, not from a log of 0.
LOG_OF_ONE_PLUS_EXP = lazy_regex.compile(r"^\s*(?:[1-9]\d*(?:\.\d*)?|\d*\.\d*[1-9]\d*)\s*\+\s*" + _LIBRARY + r"exp\(")
LOGS_ELSEWHERE = lazy_regex.compile(r"\.log\w*\(\)|\blog1p\(|\blog_prob\b|\bnll_loss\b|\bNLLLoss\b|\bBCELoss\b|"
                                    r"\bbinary_cross_entropy\b|\bcross_?entropy\b|\bCrossEntropy|crossentropy\b|"
                                    r"\blog_?softmax\b|\bxlogy\b|\bkl_div\b|\bKLDiv|\bpoisson_nll|\bPoissonNLL")
# (the loss's own line: a return, or an assignment to a loss's name)
LOSS_LINE = lazy_regex.compile(r"^[ \t]*(?:return\b|[\w.]*loss\w*[ \t]*=)", re.I)
# (a log of 0 the run printed itself: no code shown says otherwise)
LOG_OF_ZERO_PRINTED = lazy_regex.compile(r"divide by zero encountered in log|LogBackward")


def logs_kept_off_zero(code: str) -> str:
    """The first log call of the pasted code, quoted, where every log it opens (LOG_OPEN: one that LOG_CALL's bracket
    depth cannot read too, `torch.log(torch.sigmoid(model(x)))`) is of a positive constant plus an exp
    (LOG_OF_ONE_PLUS_EXP), on the loss's own line (LOSS_LINE), and nothing else in it takes a log (LOGS_ELSEWHERE) nor
    prints a log of 0; or ""."""
    calls = [m for m in itertools.islice(LOG_CALL.finditer(code), 20) if _CODE_LINE.match(_line_of(code, m)[1])
             or _LIBRARY_CALLED.match(m.group(0))]
    if not calls or LOGS_ELSEWHERE.search(code) or LOG_OF_ZERO_PRINTED.search(code) \
            or len(list(itertools.islice(LOG_OPEN.finditer(code), 40))) != len(calls) \
            or not all(LOG_OF_ONE_PLUS_EXP.match(m.group("arg")) and LOSS_LINE.match(_line_of(code, m)[1]) for m in calls):
        return ""
    return " ".join(calls[0].group(0).split())


def softplus_by_hand(code: str) -> re.Match | None:
    """The first softplus written by hand (SOFTPLUS_BY_HAND, SOFTPLUS_METHOD) in a line of code, whose exp's input
    nothing bounds: no largest subtracted, no minus an absolute value (the stable form's exp(-|x|)) or a square, no
    squashing function, and no clamp or shift where a bare name is made. Not on a line that names the library's
    softplus ("replaced log(1 + exp(x)) with F.softplus(x)")."""
    found = itertools.chain(itertools.islice(SOFTPLUS_BY_HAND.finditer(code), EXP_CALLS_READ),
                            itertools.islice(SOFTPLUS_METHOD.finditer(code), EXP_CALLS_READ))
    for m in sorted(found, key=lambda m: m.start()):
        _start, line = _line_of(code, m)
        if not (_LIBRARY_CALLED.match(m.group(0)) or _CODE_LINE.match(line)) or LIBRARY_SOFTPLUS.search(line):
            continue
        arg = m.group("arg").strip()
        if SHIFTED.search(arg) or re.match(r"-\s*(?:(?:\w+\.)*abs\(|\(?[\w.]+\s*\*\*\s*2)", arg) \
                or EXP_BOUNDED_INPUT.search(arg):
            continue
        if (name := NAME_ARG.match(arg)) and any(SHIFTED_CALL.search(rhs) or BOUNDED.search(rhs) or GUARDED.search(rhs)
                                                 for rhs in _assignments(name.group("name"), code[:m.start()])):
            continue
        return m
    return None


# A key_padding_mask handed to attention, beside words that a sequence can be all padding ("length 0", "empty after
# cleaning", "its whole mask row is True"): a query with every key masked (WR-070's page: nn.MultiheadAttention with
# its default need_weights=True gives it a nan output)
# (a decoder's, `tgt_` or `memory_key_padding_mask`, only where it is handed a mask: every decoder layer copied from
# PyTorch's declares both `= None` in its signature -- code_review_s70b 7)
PADDING_MASK = lazy_regex.compile(r"\b(?:src_)?key_padding_mask\b|"
                                  r"\b(?:tgt_|memory_)key_padding_mask(?=\s*=\s*(?!None\b)[A-Za-z_(~])")
# ... or said in words: "positions that are not mentions filled with float('-inf'), then softmax", "masked logits are
# set to -inf" (not a denial, "instead of -inf", "rather than -inf")
MASKED_INF_SAID = lazy_regex.compile(r"(?i)\b(?:fill(?:ed|s|ing)?|set|sets|setting|mask(?:ed|s|ing)?|replac(?:ed|es|ing))\b"
                                     r"(?:(?!\b(?:instead|rather|not)\b)[^.;\n]){0,60}?\b(?:with|to|by)\s+`?(?:float\(\s*['\"]-inf(?:inity)?['\"]\s*\)|"
                                     r"-\s?inf(?:inity)?\b|-∞|negative infinity|minus infinity)")
# ... or an attention mask made by thresholding a prediction (`attn_mask = mask_logits.sigmoid() < 0.5`, a masked-
# attention decoder's) and handed to attention as its attn_mask: a query whose prediction is empty has every key
# masked, and nn.MultiheadAttention gives its row a nan with its default need_weights=True (scaled_dot_product_attention,
# which need_weights=False calls, gives 0 there from PyTorch 2.5, and takes True as "attend": not read for it).
# Mask2Former's decoder un-masks such rows before each layer (`attn_mask[torch.where(attn_mask.sum(-1) ==
# attn_mask.shape[-1])] = False`, "if a mask is all True (all background), then set it all False"); not where the paste
# does the same in any spelling, nor a mask made a finite bias (`.float() * -1e4`), whose full row is only uniform.
THRESHOLD_MASK = lazy_regex.compile(r"(?m)^[ \t]*(?P<name>[A-Za-z_]\w{0,40})\s*=\s*(?P<rhs>(?:[^\n]|\n[ \t]+(?=[.)])){0,300}?"
                                    r"[<>]=?\s*(?:0?\.\d+|self\.\w*thresh\w*|\w*thresh\w*)\b[^\n]{0,60})")
PREDICTED = lazy_regex.compile(r"\b(?:sigmoid|softmax)\(|\.(?:sigmoid|softmax)\(|\w*(?:pred|logit|mask_embed)\w*")
MASK_HANDED = r"\b(?:attn_mask|memory_mask|cross_attn_mask)\s*=\s*{n}\b"
ROWS_UNMASKED = (r"\b{n}\b[^\n]{{0,80}}?\.(?:sum\(\s*(?:dim\s*=\s*)?-1\s*\)\s*==|all\(\s*(?:dim\s*=\s*)?-1)|"
                 r"~\s*{n}\.all\(")


def threshold_attention_mask(code: str) -> re.Match | None:
    """A mask the code makes by thresholding a prediction and hands to attention as its attn_mask, with no line that
    un-masks its fully masked rows (THRESHOLD_MASK); or None."""
    for m in itertools.islice(THRESHOLD_MASK.finditer(code), 30):
        name = re.escape(m.group("name"))
        handed = re.search(r"(?m)^[^\n]*" + MASK_HANDED.format(n=name), code)
        if handed and "scaled_dot_product_attention" not in handed.group(0) and PREDICTED.search(m.group("rhs")) \
                and not re.search(r"\.float\(\)|\*\s*-", m.group("rhs")) \
                and not re.search(ROWS_UNMASKED.format(n=name), code):
            return m
    return None


# ... or attention said to be kept to the positions a condition selects: "I only let it attend to the frames that my
# voice activity detector marks as speech", "each query attends only to the nodes whose distance is under 5 km" -- a
# sequence in which the condition selects none has every key masked
# (a condition that can select none: not a causal mask's "the tokens that came before it", which always keeps the
# position itself, nor a description of what a model learned to look at, "the words that carry sentiment")
ATTEND_SELECTED = lazy_regex.compile(r"(?i)\battend(?:s|ed|ing)?\s+(?:only\s+)?to\s+(?:the\s+)?(?:[\w-]+\s+){0,2}?(?:frames?|tokens?|"
                                     r"positions?|steps?|patch(?:es)?|nodes?|items?|regions?|words?|segments?|keys?|events?|"
                                     r"neighbou?rs?|points?)\s+(?:(?:that|which|where|whose)\b(?!\s+(?:came|come|comes|precede\w*|"
                                     r"are\s+before|were\s+before|appear\w*\s+earlier|carry|carries|matter\w*|it\s+needs)\b)|"
                                     r"(?:marked|flagged|selected|detected|labell?ed)\b)")
# ... and sequences padded on the left under a causal mask: "left-padded with zeros to 120 steps",
# `padding_side="left"`, Keras's `padding="pre"`; beside `generate_square_subsequent_mask`, `is_causal=True`, a causal
# or look-ahead mask (WR-070's own case)
LEFT_PADDED = lazy_regex.compile(r"(?i)\bleft[- ]?pad(?:s|ded|ding)?\b|\bpadd(?:ed|ing)\s+(?:on|at|to|from)\s+the\s+left\b|"
                                 r"\bpadding_side\s*=\s*['\"]left['\"]|\bpadding\s*=\s*['\"]pre['\"]|\bpre-padd(?:ed|ing)\b")
CAUSAL_MASK = lazy_regex.compile(r"(?i)\bgenerate_square_subsequent_mask\b|\bis_causal\s*=\s*True\b|\bcausal\b|"
                                 r"\bsubsequent[_ ]mask\b|\blook-?ahead mask\b")


# ... or a mask that keeps each position from itself as well as from the future: "each stop can only look at the stops
# before it, so it can't peek at its own delay", "attends to strictly earlier positions" -- the first position then
# sees nothing, in every sequence. Not the ordinary causal mask said loosely ("only the tokens before it and itself"):
# "only ... before it" counts only where the same sentence keeps the position from itself.
STRICTLY_EARLIER = lazy_regex.compile(r"(?i)\bstrictly\s+(?:earlier|previous|preceding|past|prior)\s+(?:\w+\s+)?"
                                      r"(?:positions?|tokens?|steps?|stops?|frames?|items?|events?)\b|"
                                      r"\b(?:can|could|may|should)\s+only\s+(?:look|attend|see)\s+(?:at\s+|to\s+)?(?:the\s+)?"
                                      r"(?:\w+\s+){0,2}?(?:before|preceding|earlier than|prior to)\s+(?:it|them)\b"
                                      r"(?!\s*(?:,\s*)?(?:and|or|plus|including)\s+(?:it)?self)")
NOT_ITSELF = lazy_regex.compile(r"(?i)\b(?:can'?t|cannot|can not|not|never)\s+(?:see|peek\s+at|look\s+at|attend\s+to)\s+"
                                r"(?:its|their)\s+own\b|\b(?:not|excluding|without)\s+(?:it)?self\b|\bnot\s+(?:at\s+)?itself\b")
ATTENTION_SAID = lazy_regex.compile(r"(?i)\battention\b|\bMultiheadAttention\b|\battn\b|\bsoftmax\b|\btransformer\b")


def _first_query_masked(prose: str) -> str:
    """The words that keep each position from itself as well as from the future, in a paste about attention; else
    ""."""
    for m in itertools.islice(STRICTLY_EARLIER.finditer(prose), 5):
        start, end = sentence_around(prose, m.start(), m.end(), stops=".;\n")
        if denied_before(prose, m.start(), 20) or not (m.group(0).lower().startswith("strictly")
                                                        or NOT_ITSELF.search(prose, start, end)):
            continue
        if ATTENTION_SAID.search(prose):
            return " ".join(m.group(0).split())
    return ""


def _left_padded_causal(prose: str) -> str:
    """The words that pad on the left, where the paste also builds a causal mask; else ""."""
    left = next((m for m in itertools.islice(LEFT_PADDED.finditer(prose), 5) if not denied_before(prose, m.start(), 20)),
                None)
    return " ".join(left.group(0).split()) if left and CAUSAL_MASK.search(prose) else ""


ALL_PADDING = lazy_regex.compile(r"\b(?:length|len)(?: of)? 0\b|\bzero[- ]length\b|\bempty (?:sequences?|reviews?|texts?|strings?|"
                                 r"sentences?|inputs?|rows?)\b|\b(?:sequences?|reviews?|texts?|inputs?)\b[^.\n]{0,30}\bempty\b|"
                                 r"\b(?:whole|entire|every|all)\b[^.\n]{0,20}\bmask(?:\w*)?\b[^.\n]{0,20}\b(?:row|rows)?\b[^.\n]{0,10}"
                                 r"\b(?:is|are)\s+(?:all\s+)?True\b|\ball[- ]padding\b|\bonly padding\b", re.I)


# ... or prints one: a count of each sequence's tokens that are not padding (`(input_ids != 0).sum(1)`, an attention
# mask's sum, `lengths`) whose printed list holds a 0 (`tensor([ 87, 128,  41, 0, 71])`)
TOKENS_COUNTED = lazy_regex.compile(r"(?:\(\s*[\w.]{1,40}\s*!=\s*[\w.]{1,40}\s*\)|\b(?![\w.]{0,40}pad)[\w.]{0,40}attention_mask)"
                                    r"\.sum\(\s*(?:dim\s*=\s*)?-?\d\s*\)|\b(?:lengths?|lens|seq_lens?|seq_lengths?|src_lengths?)\b")
COUNTS_LIST = lazy_regex.compile(r"[ \t]*(?:=|:|->)?\s{0,4}(?:tensor\(|array\()?\[(?P<values>[\d,\s]{1,4000})\]")


# ... or says every sequence holds a token: "at least 3 real tokens", "min length 3", "no empty sequences", a [CLS] that is
# never masked -- the check done, in words
NONE_EMPTY_SAID = lazy_regex.compile(r"(?i)\bat least (?:\d+|one|two|three) (?:real |non-?pad\w* |actual )?(?:tokens?|"
                                     r"words?)\b|\bmin(?:imum)?[ _-]?(?:length|len)\s*(?:of\s*|=\s*|:\s*|is\s*)?[1-9]|"
                                     r"\bno (?:empty|zero-length) (?:sequences?|rows?|texts?|inputs?|titles?|sentences?)\b|"
                                     r"\b(?:cls|bos|\[cls\])\b[^.\n]{0,40}\bnever (?:masked|padded)\b")


NONE_EMPTY_DOUBTED = lazy_regex.compile(r"(?i)\b(?:" + UNDONE + r"|not sure|no guarantee|don'?t|do not|doesn'?t|may|might|whether|"
                                        r"if|unless|hope\w*|maybe|perhaps|some|assum\w*|expect\w*|suppos\w*|think)\b|'ll\b")


def _none_empty_said(prose: str) -> bool:
    """Do the words say every sequence holds a token (NONE_EMPTY_SAID), not doubting it in the words before?"""
    return any(not NONE_EMPTY_DOUBTED.search(prose, max(0, m.start() - 40), m.start())
               for m in itertools.islice(NONE_EMPTY_SAID.finditer(prose), 5))


def token_counts(prose: str) -> tuple[str, bool]:
    """The count of unpadded tokens the paste prints with a 0 among its values (TOKENS_COUNTED), or ""; and whether
    it printed such a count at all."""
    printed = False
    for m in itertools.islice(TOKENS_COUNTED.finditer(prose), 20):
        listed = COUNTS_LIST.match(prose, m.end())
        if listed and "0" in listed.group("values").replace(",", " ").split():
            return m.group(0), True
        printed = printed or bool(listed)
    return "", printed


# A row of a mask printed at a prompt (`>>> mask[3, 0]`, or `>>> print(mask[3, 0])`, then `tensor([False, ...])`, its
# values on one line or wrapped over several): the keys one query may attend to
MASK_ROW_PRINTED = lazy_regex.compile(r"(?m)^>>>[ \t]*(?:print\()?(?P<expr>(?P<base>[A-Za-z_][\w.]*)\[[^\]\n]{0,40}\])\)?"
                                      r"[ \t]*\n[ \t]*tensor\(\[(?P<values>[^\]]{0,2000})\]")
# The condition a -inf fill masks where it holds, and whether it holds where the mask is False: `masked_fill(~mask,`,
# `masked_fill(mask == 0,`, `logical_not`, and `where(mask, s, -inf)` (which keeps s where the mask holds)
FILL_CONDITION = lazy_regex.compile(r"\b(?:masked_fill_?|where)\(\s*(?P<cond>[^,\n]{1,80}),|\[(?P<index>[^\]\n]{1,40})\]\s*=")
INVERTED = lazy_regex.compile(r"~|\blogical_not\b|\bnot\b|==\s*(?:0|False)\b|!=\s*(?:1|True)\b")


def mask_row_printed(prose: str) -> str:
    """The printed row of the mask the paste's -inf fill reads (the same name, subscripted), two values or more, with no
    key left to attend to -- every value False or 0 where the fill masks where the mask is False (`~mask`, `mask == 0`,
    `torch.where(mask, s, -inf)`), every value True or 1 where it masks where the mask is True
    (`masked_fill(key_padding_mask, -inf)`) -- as written, or ""."""
    fill = MASKED_INF.search(code_of(prose))
    cond = FILL_CONDITION.search(fill.group(0)) if fill else None
    if cond is None:
        return ""
    condition = cond.group("cond") or cond.group("index")
    names = set(re.findall(r"[A-Za-z_]\w*", condition))
    # (where() keeps its second argument where the condition holds: -inf where it does not)
    masked_when_false = bool(INVERTED.search(condition)) != fill.group(0).startswith("where")
    full = ("False", "0", "0.", "0.0") if masked_when_false else ("True", "1", "1.", "1.0")
    for m in itertools.islice(MASK_ROW_PRINTED.finditer(prose), 20):
        if m.group("base").split(".")[-1] not in names:
            continue
        values = [v.strip() for v in m.group("values").replace("\n", " ").split(",") if v.strip()]
        if len(values) >= 2 and all(v in full for v in values):
            return " ".join(m.group("expr").split())
    return ""


def _xlogx_guarded(m: re.Match, code: str) -> bool:
    """Is a term-times-its-log kept off 0: the term a masked selection (`t[nz]`), clamped or floored where it was made,
    under a condition on its line or the line before (`if p > 0`, `for p in q if p > 0`), or the line a question?"""
    term = m.group("a")
    line_start = code.rfind("\n", 0, m.start()) + 1
    line_end = code.find("\n", m.end())
    line = code[line_start:line_end if line_end >= 0 else len(code)]
    previous = code[code.rfind("\n", 0, max(line_start - 1, 0)) + 1:max(line_start - 1, 0)]
    name = NAME_ARG.match(term)
    bare = re.escape(term.split("[")[0])
    # (a condition on the term itself -- `if p > 0`, `for p in q if p > 0` -- not `if self.training:`; a selection by a
    # boolean mask, `t[nz]`, not an index or a slice, `out[:, 1]`)
    tested = re.compile(r"\bif\b[^:\n]*\b" + bare + r"\b\s*(?:>|!=|>=)")
    masked = re.search(r"\[\s*[A-Za-z_]\w*\s*\]$", term) is not None
    return masked or bool(tested.search(line)) or previous.rstrip().endswith(":") and bool(tested.search(previous)) \
        or line.rstrip().endswith("?") or bool(name and _guarded_before(name.group("name"), code))


# A loss said to be written by hand with a log ("the losses are written by hand ... with tf.math.log", "I implemented
# the cross-entropy myself with torch.log"), beside a sigmoid or a softmax the paste names, and nothing said that keeps
# the log off 0 (WR-030's construct, in words)
LOG_BY_HAND = lazy_regex.compile(r"(?i)\b(?:wrote|written|write|implemented|implement|coded|hand-?written|by hand)\b[^.;\n]{0,80}?"
                                 r"(?:\b(?:tf\.math\.log|tf\.log|torch\.log|np\.log|jnp\.log|(?:keras\.)?ops\.log|K\.log|log\(|"
                                 r"the log of)\b)")
# (said of the log: in its sentence, or a loss on logits anywhere -- not an lr of 1e-4, a gradient clipping, nor the
# logits a sigmoid is taken of)
LOG_KEPT_OFF_ZERO = lazy_regex.compile(r"(?i)\beps\w*\b|\bclip\w*|\bclamp\w*|\b1e-\d|\blog_?softmax\b|\blogsigmoid\b")
LOSS_ON_LOGITS = lazy_regex.compile(r"(?i)\bfrom_logits\s*=\s*true\b|\bwith_logits\b|\bon\s+(?:the\s+)?logits\b")


def log_by_hand_said(prose: str) -> str:
    """The words that say the loss takes a log by hand beside a sigmoid, a softmax or a cross-entropy (which takes the
    log of a probability), with nothing said to keep the log off 0; or ""."""
    m = LOG_BY_HAND.search(prose)
    # (a loss's log: the sentence names a loss, not "a log parser")
    start, end = sentence_around(prose, m.start(), m.end()) if m else (0, 0)
    if m is None or not re.search(r"(?i)\b(?:loss\w*|cost|objective|cross-?entropy|bce|likelihood|nll)\b", prose[start:end]) \
            or not re.search(r"(?i)\b(?:sigmoid|softmax|(?:binary\s+)?cross[- ]?entropy|bce)\b", prose) \
            or LOG_KEPT_OFF_ZERO.search(prose, start, end) \
            or LOSS_ON_LOGITS.search(prose) \
            or denied_before(prose, m.start(), 30):
        return ""
    return " ".join(m.group(0).split())


def masked_past_half(prose: str) -> bool:
    """Is the paste's masked-row construct a constant past float16's range (MASKED_PAST_FP16, mask_added_past_fp16), not
    a -inf, which is -inf in any dtype?"""
    code = code_of(prose)
    return not MASKED_INF.search(code) and bool(MASKED_PAST_FP16.search(code) or mask_added_past_fp16(code))


@functools.lru_cache(maxsize=4)      # (asked by the printed facts and by the overflow a printed logit shows; read only)
def breaking_construct(prose: str) -> dict[str, str]:
    """The constructs of pasted code that break at one value (see MASKED_INF, LOG_CALL, EXP_OF, SQRT_CALL), as facts."""
    out, code = {}, code_of(prose)
    m = next(MASKED_INF.finditer(code), None)
    if m:
        out["masked-inf"] = (f"the pasted code fills masked scores with -inf (`{' '.join(prose[m.start():m.end()].split())}`):"
                             " a row whose every position is masked is all -inf, and its softmax is exp(-inf - (-inf)) "
                             "= nan")
    elif (huge := next(MASKED_PAST_FP16.finditer(code), None) or mask_added_past_fp16(code)) \
            and (half := half_precision_shown(prose, tokens(prose))):
        _start, line = _line_of(prose, huge)
        how = ("fills masked scores with a constant past float16's range" if MASKED_PAST_FP16.made(huge) else
               "adds a mask made in the scores' own dtype and scaled by a constant past float16's range")
        out["masked-inf"] = (f"the pasted code {how} "
                             f"(`{' '.join(line.split())[:120]}`) in a run the report shows in float16 "
                             f"(`{half}`): float16's largest magnitude is 65504, so the fill is -inf there, a "
                             "row whose every position is masked is all -inf, and its softmax is exp(-inf - (-inf)) = nan")
        if left := _left_padded_causal(prose):
            out["masked-row-every-batch"] = (f"and it pads on the left under a causal mask (\"{left}\"): the first "
                                             "query of a left-padded row may see only padding, so such a row is there "
                                             "in every batch that holds a left-padded sequence")
    elif (first := _first_query_masked(prose)):
        out["masked-inf"] = (f"the paste lets each position attend only to positions strictly before it (\"{first}\"): "
                             "the first position has none, so its every key is masked, and the softmax of an all -inf "
                             "row is nan -- in every sequence")
        out["masked-row-every-batch"] = ("so the fully masked row is the first position of every sequence, not a "
                                         "rare empty one")
    elif (said := MASKED_INF_SAID.search(prose)) and re.search(r"(?i)\bsoftmax\b", prose):
        out["masked-inf"] = (f"the report fills masked scores with -inf before a softmax (\"{' '.join(said.group(0).split())}"
                             "\"): a row whose every position is masked is all -inf, and its softmax is "
                             "exp(-inf - (-inf)) = nan")
    elif thresholded := threshold_attention_mask(code):
        shown = " ".join(prose[thresholded.start():thresholded.end("rhs")].split())
        out["masked-inf"] = (f"the pasted code makes an attention mask by thresholding a prediction (`{shown}`) and hands "
                             "it to attention with nothing that un-masks a row masked whole: a query whose prediction is "
                             "empty has every key masked, and nn.MultiheadAttention, with its default need_weights=True, "
                             "gives its row a nan (Mask2Former's decoder sets such rows back to False before each layer)")
    elif (kept := ATTEND_SELECTED.search(prose)) and not denied_before(prose, kept.start(), 40):
        out["masked-inf"] = (f"the report keeps attention to the positions a condition selects (\"{' '.join(kept.group(0).split())}"
                             "\"): a sequence in which it selects none has every key masked, and the softmax of an all "
                             "-inf row is nan -- in the batches that hold such a sequence")
    elif (mask := PADDING_MASK.search(prose)) and (left := _left_padded_causal(prose)):
        out["masked-inf"] = (f"the paste masks padding keys (`{mask.group(0)}`) and pads its sequences on the left under a "
                             f"causal mask (\"{left}\"): the first query of a left-padded row may look only at itself and "
                             "the positions before it, all padding, so every key it may see is masked -- in "
                             "every batch that holds such a row -- and nn.MultiheadAttention gives it a nan output")
        out["masked-row-every-batch"] = ("so the fully masked row is there in every batch that holds a left-padded "
                                         "sequence, not only in a rare one with an empty sequence")
    elif (mask := PADDING_MASK.search(prose)) and ((empty := next(
            (m for m in itertools.islice(ALL_PADDING.finditer(prose), 10) if not denied_before(prose, m.start(), 20)),
            None))                             # (not a denial, "so no row is all padding": code_review_s70b 7)
                                                   or (counts := token_counts(prose))[0]
                                                   or not counts[1] and not _none_empty_said(prose)):
        # (said or printed that a sequence is all padding; or not: the mask alone is the construct, as a fill with -inf
        # is -- the row it breaks on is one the paste need not show; but not where it prints each sequence's count of
        # tokens and none is 0: the check, done)
        printed = "" if empty else counts[0]
        said = (f"says a sequence can be all padding (\"{' '.join(empty.group(0).split())}\")" if empty else
                f"prints a sequence with no token that is not padding (`{printed}` holds a 0)" if printed else
                f"does not show that every sequence holds a token (a count of each one's unpadded tokens would: "
                f"`{mask.group(0)}.all(dim=1).any()` must be False)")
        out["masked-inf"] = (f"the paste hands attention a key_padding_mask and {said}: a query whose keys are all masked has nothing "
                             "to attend to, and nn.MultiheadAttention gives it a nan output (with need_weights=True, its "
                             "default; with need_weights=False, 0 from PyTorch 2.5 on, except on its inference fast path)")
    # (a log on a where's branch is the where's trap, its gradient: SQRT_CALL's; each argument judged once, however
    # often the paste logs it: each judgement searches the whole paste)
    judged: dict[tuple[str, bool], bool] = {}

    def unguarded(m: re.Match) -> bool:
        arg = m.group("arg").strip()
        key = (arg, _weighted(code, m))
        if key not in judged:
            name = NAME_ARG.match(arg)
            judged[key] = _probability_named(arg, code, key[1]) and not GUARDED.search(arg) \
                and not (name and _guarded_before(name.group("name"), code))
        return judged[key]

    def on_a_where(m: re.Match) -> bool:      # (the line before the call, at most 200 characters of it)
        lo = max(0, m.start() - 200)
        return "where(" in code[code.rfind("\n", lo, m.start()) + 1 or lo:m.start()]

    m = next((m for m in LOG_CALL.finditer(code) if not on_a_where(m) and unguarded(m)), None)
    if m:
        out["log-unguarded"] = (f"the pasted code takes the log of a probability with nothing to keep it off 0 "
                                f"(`{' '.join(prose[m.start():m.end()].split())}`): a probability that rounds to 0 makes "
                                "it -inf")
    # (or of the targets themselves, a log-space error written by hand, `torch.log(target)`: data hold exact zeros --
    # a dry cell, a count of none, a price of 0 -- and a target of 0 makes it -inf at the first batch that holds one;
    # Keras' mean squared logarithmic error is defined on log(y + 1) and keeps y off 0 as well. A name by what targets
    # are called, and made by no model, layer or squashing function in the paste -- `y = model(x)` is a prediction --
    # nor kept off 0 before the log)
    m = next((m for m in itertools.islice(LOG_CALL.finditer(code), EXP_CALLS_READ)
              if re.fullmatch(TARGET_NAME, target := m.group("arg").strip()) and not GUARDED.search(m.group("arg"))
              and not on_a_where(m) and not _guarded_before(target, code[:m.start()])
              and not _made_by_a_model(target, code)), None) \
        if "log-unguarded" not in out else None
    if m:
        out["log-unguarded"] = (f"the pasted code takes the log of the targets as they are "
                                f"(`{' '.join(prose[m.start():m.end()].split())}`): a target of exactly 0 makes it -inf, "
                                "and a negative one nan (log(1 + y), log1p, keeps a target of 0 finite)")
    m = next((m for m in itertools.islice(LOG_CALL.finditer(code), EXP_CALLS_READ)
              if not GUARDED.search(m.group("arg")) and _learned_as_is(m.group("arg"), code)), None) \
        if "log-unguarded" not in out else None
    if m:
        out["log-unguarded"] = (f"the pasted code takes the log of a parameter it learns as it is "
                                f"(`{' '.join(prose[m.start():m.end()].split())}`, the parameter made with nothing that "
                                "keeps it positive): an update can carry it to 0 or below, and the log of 0 is -inf, of "
                                "a negative number nan (learning its log instead, and taking the exp of that where the "
                                "value itself is needed, keeps it positive)")
    sliced = sliced_from_y_pred(code) if "log-unguarded" not in out else {}
    m = next((m for m in itertools.islice(LOG_CALL.finditer(code), EXP_CALLS_READ) if not GUARDED.search(m.group("arg"))
              and raw_output_logged(code, m, sliced)), None) if sliced else None
    if m:
        # (what keeps it positive depends on what it is: a probability a cross-entropy takes, `1 - y_pred` or times the
        # labels, wants a sigmoid or a softmax; a scale or a rate, a softplus)
        probability = re.search(r"\b1\.?0*\s*-\s*y_pred\b|\by_true\s*\*\s*(?:[\w.]+\.)?log\(", code) is not None
        keep = ("a sigmoid or a softmax on the output, or a loss on logits, keeps it a probability" if probability else
                "a softplus, plus a small floor, keeps it positive")
        out["log-raw-output"] = (f"the pasted loss takes the log of the model's raw output "
                                f"(`{' '.join(prose[m.start():m.end()].split())}`, y_pred or a slice of it, and the last "
                                "Dense has no activation): a linear layer's output is negative for some inputs from the "
                                f"first forward pass, and the log of a negative number is nan ({keep})")
    m = log_of_layer_piece(code) if "log-unguarded" not in out and "log-raw-output" not in out else None
    if m:
        out["log-raw-output"] = (f"the pasted code takes the log of a piece of a layer's raw output "
                                 f"(`{' '.join(prose[m.start():m.end()].split())}`, made by a slice, a chunk or a sum "
                                 "of the layer's output with nothing that keeps it positive): a linear layer's output is "
                                 "negative or 0 for some inputs from the first forward pass, and the log of it nan or "
                                 "-inf (a softplus, plus a small floor, keeps it positive)")
    m = next((m for m in XLOGX.finditer(code) if not on_a_where(m) and not _xlogx_guarded(m, code)), None) \
        if "log-unguarded" not in out and "log-raw-output" not in out else None
    if m:
        out["log-unguarded"] = (f"the pasted code takes a term times the log of itself by hand "
                                f"(`{' '.join(prose[m.start():m.end()].split())}...`), as a KL divergence or an entropy "
                                "does: where that term is exactly 0, log(0) is -inf and 0 * -inf is nan, though the "
                                "term's limit is 0 (torch.xlogy(t, t) - t * log_softmax(z), or F.kl_div on log-probabilities, takes "
                                "0 * log 0 as 0, value and gradient)")
    # (or said in words, with no code shown: "the losses are written by hand from the formulas in the GAN paper with
    # tf.math.log, and the discriminator ends in a sigmoid")
    if "log-unguarded" not in out and "log-raw-output" not in out and (said := log_by_hand_said(prose)):
        out["log-unguarded"] = (f"the report says its loss takes a log by hand (\"{said}\") of a sigmoid's or a softmax's "
                                "output, and names nothing that keeps it off 0 (an epsilon, a clip, a loss on logits): "
                                "a probability that rounds to 0 -- a float32 sigmoid of about -88 or less, or 1 - p for p "
                                "that rounds to 1 -- makes it -inf")
    # (a shift the code makes counts where it feeds the exp, its input or the name made for it: a log_softmax of the
    # student's logits says nothing of a teacher's softmax written by hand beside it -- _exp_in_a_ratio)
    m = _exp_in_a_ratio(code) if not STABLE_WORDS.search(code) else None
    if m:
        out["exp-unshifted"] = (f"the pasted code sums (or averages) exps into a ratio or a log with nothing subtracted "
                                f"from their "
                                f"input (`{' '.join(prose[m.start():m.end()].split())}`): an input past about 88.7 in "
                                "float32 (709.8 in float64) makes exp inf, and inf / inf is nan; inputs all below about "
                                "-104 (-745; -87 where subnormals are flushed) make every exp 0, and the log of their "
                                "sum -inf")
    m = softplus_by_hand(code) if "exp-unshifted" not in out else None
    if m:
        out["exp-unshifted"] = (f"the pasted code writes a softplus by hand, a log of an exp with a constant added "
                                f"(`{' '.join(prose[m.start():m.end()].split())}`): an input past about 88.7 in float32 "
                                "(709.8 in float64) makes exp inf and the log of it inf, and the backward pass multiplies "
                                "the log's slope there, 0, by exp's, inf: nan (the library's softplus, F.softplus or "
                                "logaddexp(0, x), stays finite: PyTorch's returns its input unchanged above a "
                                "threshold of 20; a torch.where around the hand-written form still gives nan "
                                "gradients, since the branch not taken is differentiated too)")
    said = EXP_RATIO_SAID.search(prose) if "exp-unshifted" not in out and not STABLE_SAID.search(prose) \
        and not SHIFT_SAID.search(prose) else None
    if said:
        out["exp-unshifted"] = (f"the report says it divides exps by their sum by hand (\"{' '.join(said.group(0).split())}"
                                "\") and names nothing subtracted from their inputs (the largest, or a logsumexp): an "
                                "input past about 88.7 in float32 (709.8 in float64) makes exp inf, and inf / inf is nan")
    # (the code's own shifts feed other exps: only the words that say the shift is done hide these -- STABLE_WORDS)
    m = EXP_PRODUCT.search(code) if "exp-unshifted" not in out and not STABLE_WORDS.search(code) else None
    if m:
        out["exp-unshifted"] = (f"the pasted code multiplies exps into a running product "
                                f"(`{' '.join(prose[m.start():m.end()].split())}...`): each step multiplies in another "
                                "exponential, so the product grows or shrinks exponentially with the sequence's length "
                                "and leaves float32's range on the longest ones (a forward algorithm in log space, with "
                                "logsumexp, stays finite)")
    m = (next((e for e in EXP_OF_OUTPUT.finditer(code) if not _divides(code, e)), None) or exp_of_layer_piece(code)) \
        if "exp-unshifted" not in out \
        and not STABLE_WORDS.search(code) else None
    if m:
        # (its negation, `exp(-log_var)`: an output below about -88.7)
        negated = NEGATED_NAME.match(m.groupdict().get("arg", "").strip())
        # (its negation times or over a factor, `exp(-log_var * 0.5)`: where that product passes the limit)
        past = ("past about 88.7 in float32 (709.8" if not negated else
                "whose negation, scaled as the call scales it, passes about 88.7 in float32 (709.8"
                if re.search(r"[/*]", negated.group(0)) else "below about -88.7 in float32 (-709.8")
        out["exp-unshifted"] = (f"the pasted code puts a layer's raw output through exp "
                                f"(`{' '.join(prose[m.start():m.end()].split())}`): nothing bounds a layer's "
                                f"output, and one {past} in float64) makes exp inf, and the loss inf, then nan")
        # (a precision from a log-variance, in a Gaussian NLL's own shape: the fall to nan is its face --
        # weighing.FACE_WHERE; not an exponential loss's `exp(-margin)`, which a falling loss takes toward 0)
        if negated and _gaussian_nll_shape(code, m, negated.group("name")):
            out[EXP_NEGATED] = "the exp takes a layer's output negated, as a Gaussian NLL's precision"
    m = next((m for m in SQRT_CALL.finditer(code) if (
              m.group("where") and not (m.group("inner") and re.search(r"(?<![\w.])" + re.escape(m.group("inner"))
                                                                          + r"\s*=[^=\n][^\n]{0,120}?where\(", code)))
              or m.group("norm") or (m.group("arg") is not None and DIFFERENCE.search(m.group("arg"))
                                     and not GUARDED.search(ZERO_CLIP.sub("", m.group("arg"))))
              or m.group("arg") is not None and _named_difference(code, m.group("arg"), m.start())), None)
    method = None if m else next((s for s in itertools.islice(SQRT_METHOD.finditer(code), 50)
                                  if DIFFERENCE.search(s.group("line")) and not GUARDED.search(ZERO_CLIP.sub("", s.group("line")))
                                  and not ADDED.search(s.group("line"))), None)
    if not m and not method and (arc := arc_at_its_ends(code)):
        shown = " ".join(prose[arc.start():arc.end()].split())
        made = _assigned_from(code, prose, arc)
        ends = ("at a perfect match its slope, -1/sqrt(1 - x^2), is -inf" if "co" in arc.group("fn") else
                "where its argument reaches 1 or -1 its slope, 1/sqrt(1 - x^2), is inf")
        out["sqrt-at-zero"] = (f"the pasted code takes an {arc.group('fn')} of what a clamp holds to exactly [-1, 1] "
                               f"(`{shown}`{made}): {ends}, the clamp passes it at its own bounds, and the infinite "
                               "slopes it sends back meet in the backward pass as inf - inf, or inf * 0: nan")
    elif not m and not method and (divided := where_division(code)):
        out["sqrt-at-zero"] = (f"the pasted code picks a division on one branch of a where whose condition tests the "
                               f"divisor (`{divided}`): the branch not taken is still differentiated, and where the "
                               "divisor is 0 its slope, 1 over it, is inf, and inf * 0 is nan")
    if method:
        shown = " ".join(prose[method.start("line"):method.end()].split()).split("=", 1)[-1].strip()
        out["sqrt-at-zero"] = (f"the pasted code takes a square root that can meet 0 (`{shown}`): its slope there is "
                               "1 / (2 sqrt(0)) = inf, and inf * 0 in the backward pass is nan")
    if m:
        shown = " ".join(prose[m.start():m.end()].split())
        out["sqrt-at-zero"] = (
            f"the pasted code picks a log or a square root on one branch of a where (`{shown}`): the branch not taken "
            "is still differentiated, and at 0 its slope is inf, and inf * 0 is nan" if m.group("where") else
            f"the pasted code takes a norm that can meet a zero vector (`{shown}`): its gradient there is x / ||x|| "
            "= 0/0, nan, as JAX and TensorFlow compute it (PyTorch's vector norm returns 0 there)" if m.group("norm")
            else
            f"the pasted code takes a square root that can meet 0 (`{shown}`{_assigned_from(code, prose, m)}): its slope "
            "there is 1 / (2 sqrt(0)) = inf, and inf * 0 in the backward pass is nan")
    return out
