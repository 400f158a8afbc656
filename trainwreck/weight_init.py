"""How the paste sets its weights before training: to one value (every unit of a layer starts equal and stays a copy
of the others), too wide (a std of 1, or a fixed std past He's scale for wide layers), from memory never filled, or
through a JAX update whose result is thrown away.
"""
from __future__ import annotations

import functools
import itertools
import math
import re

from .brackets import arguments
from .code_blocks import block_under, indent
from .sentences import denied_before
from . import lazy_regex
from .lazy_regex import PatternLike

# Weights set to zero (or one constant) in pasted code: Keras's kernel_initializer="zeros", PyTorch's nn.init.zeros_ or
# constant_ or a weight's fill_(c) / zero_(), or two or more NumPy weight matrices made with np.zeros (W1 and W2: a
# hidden layer whose units start equal; one zero matrix alone is a linear model, which trains from zeros). Half a
# printed fact for the entries whose phrases say the weights were initialised to zero.
ZERO_INIT_WORDS = {"weight", "init", "zero"}
ZERO_INIT = lazy_regex.compile(r"kernel_initializer\s*=\s*['\"](?:zeros|ones)['\"]|\binitializers\.Zeros\(\)|"
                               # (any one constant as a kernel's initialiser: Keras's Constant(0.01) starts every unit equal too;
                               # a BatchNorm's gamma at 1 is no kernel)
                               r"kernel_initializer\s*=\s*(?:(?:tf\.)?keras\.)?(?:initializers\.)?(?:Constant|Ones)\(|"
                               r"kernel_initializer\s*=\s*(?:tf\.)?constant_initializer\(|"
                               r"\bnn\.init\.zeros_\(\s*[\w.\[\]]{0,40}weight\s*\)|"
                               # (any one value, not only 0: `nn.init.constant_(m.weight, 0.01)`, `m.weight.data.fill_(0.5)`; but not
                               # 1, a BatchNorm's scale as ResNet-style init loops set it: `nn.init.constant_(m.weight, 1)`)
                               r"\bnn\.init\.constant_\(\s*[\w.\[\]]{0,40}weight\s*,\s*(?:val\s*=\s*)?(?!1(?:\.0*)?\s*\))"
                               r"-?(?:\d+(?:\.\d*)?|\.\d+)(?:e-?\d+)?\s*\)|"
                               r"\.weight(?:\.data)?\.(?:fill_\(\s*(?!1(?:\.0*)?\s*\))-?(?:\d+(?:\.\d*)?|\.\d+)(?:e-?\d+)?\s*\)|zero_\(\))|"
                               # (MXNet Gluon's initialize() sets every weight that has no initialiser of its own with the one
                               # it is given -- biases, gamma and beta keep theirs: `net.initialize(init.Constant(0.01))`;
                               # Paddle's weight_attr names a weight's own, `weight_attr=paddle.ParamAttr(initializer=
                               # nn.initializer.Constant(0.0))` -- not 1, a norm layer's scale)
                               r"\.initialize\(\s*(?:init\s*=\s*)?(?:mx\.)?init(?:ializer)?\.(?:Constant|One|Zero)\(|"
                               r"\bweight_attr\s*=\s*[^\n]{0,60}?\binitializer\.(?:Constant\((?!\s*(?:value\s*=\s*)?1(?:\.0*)?\s*\))|Zeros\()|"
                               # (Flax's and Haiku's: `kernel_init=nn.initializers.zeros_init()`, `w_init=hk.initializers.Constant(0)`)
                               r"[(,]\s*(?:kernel|w)_init\s*=\s*(?:[\w.]{0,30}\.)?(?:initializers\.)?(?:zeros(?:_init)?\(?|ones(?:_init)?\(?|"
                               r"constant(?:_init)?\(|Constant\()")
# ... or named first and handed to a kernel by its name (`init = keras.initializers.Constant(0.01)`, then
# `Dense(128, kernel_initializer=init)`)
# (or as Keras's string for it: `init = "zeros"`)
NAMED_CONSTANT_INIT = lazy_regex.compile(r"\b(?P<name>[A-Za-z_]\w{0,30})\s*=\s*(?:(?:(?:tf\.)?keras\.)?initializers\."
                                         r"(?:Constant|Ones|Zeros)\(|['\"](?:zeros|ones)['\"](?![\w.]))")
# ... or said in a sentence: "it sets every Linear weight to 0.05", "I initialise all the weights to zero" (not a bias
# alone, nor a weight decay or a weight of the loss)
CONSTANT_INIT_SAID = lazy_regex.compile(r"\b(?:sets?|setting|initiali[sz](?:e|es|ed|ing)|init(?:s|ed)?|fill(?:s|ed)?)\s+"
                                        r"(?:every|all|each)\s+(?:of\s+)?(?:the\s+|my\s+)?(?:\w+\s+)?weights?\s+(?:matri(?:x|ces)\s+)?"
                                        r"(?:to|with|=|at)\s+(?:the\s+same\s+value|(?:0?\.\d+|\d+(?:\.\d+)?|zeros?|ones?)\b)", re.I)


# ... or two embedding tables started at zero whose vectors the paste multiplies together (a dot product, an element-wise
# product: matrix factorisation's user and item factors, `embeddings_initializer="zeros"`, Flax's `embedding_init=
# zeros_init()`): the gradient of each factor of a product is the other factor, 0, so neither ever moves. The two
# tables' names (or names made from them) must be the product's operands, on one line: tables started at zero and
# added (a position table beside a token table) take the upstream gradient and train, and so does one zero table
# multiplied by a random one -- or one zero parameter beside random ones (ViT's class token starts at zero).
ZERO_TABLE = lazy_regex.compile(r"\bembeddings?_init(?:ializer)?\s*=\s*(?:['\"]zeros['\"]|(?:[\w.]{0,30}\.)?(?:Zeros\(|zeros(?:_init)?\b))")
# (a product's call, whose arguments are its operands -- a Keras layer's in the call after it -- or a binary `*` or `@`,
# whose operands are the names beside it)
PRODUCT_CALL = lazy_regex.compile(r"(?i)\b(?:Multiply|Dot)\(|(?:\.dot|\btensordot|\beinsum|\bmatmul|\bbmm|\.mul)\s*\(")
PRODUCT_OP = lazy_regex.compile(r"(?<![\w.])(?P<left>[\w.]{1,60}(?:\([^()\n]{0,60}\))?(?:\[[^\[\]\n]{0,30}\])?)\s*[*@]\s*"
                                r"(?P<right>[\w.]{1,60}(?:\([^()\n]{0,60}\))?)")
ASSIGNED = lazy_regex.compile(r"(?m)^[ \t]*(?P<name>[A-Za-z_][\w.]{0,40})\s*=\s*(?P<rhs>[^\n]{1,400})")


def _named(name: str, text: str) -> bool:
    return re.search(r"(?<![\w.])" + re.escape(name) + r"(?!\w)", text) is not None


def zero_tables_multiplied(prose: str) -> re.Match | None:
    """The second embedding table the paste starts at zero (ZERO_TABLE), where a line multiplies (PRODUCT_CALL, PRODUCT_OP)
    operands made from two such tables; or None."""
    assigned = list(itertools.islice(ASSIGNED.finditer(prose), 400))
    tables = {m.group("name"): (m.group("name"), z) for m in assigned if (z := ZERO_TABLE.search(m.group("rhs")))}
    if len(tables) < 2:
        return None
    for m in assigned:           # (one step of names made from them: `u = self.user(users)`)
        made_from = {t for n, t in tables.items() if n != m.group("name") and _named(n, m.group("rhs"))}
        if m.group("name") not in tables and len(made_from) == 1 and len(tables) < 40:
            tables[m.group("name")] = made_from.pop()
    for line in itertools.islice(prose.splitlines(), 5000):
        for operands in _products(line):
            found = {t for n, t in tables.items() if _named(n, operands)}
            if len({name for name, _z in found}) >= 2:
                return sorted(found, key=lambda t: t[1].start())[-1][1]
    return None


def _products(line: str):
    """The operands of each product on the line, as text: a product call's arguments (a Keras layer's, in the call
    after it), or the two names beside a `*` or `@`."""
    for m in itertools.islice(PRODUCT_CALL.finditer(line), 10):
        args = arguments(line, m.end() - 1)
        if args is not None and m.group(0).lstrip(".")[:1].isupper():      # (Dot(axes=1)([a, b]): the layer's call)
            args = arguments(line, m.end() + len(",".join(args)) + 1)
        if args:
            yield ",".join(args)
    for m in itertools.islice(PRODUCT_OP.finditer(line), 10):
        yield f"{m.group('left')} {m.group('right')}"


def constant_kernel_init(prose: str) -> re.Match | None:
    """Where the paste sets a kernel's weights to one value (ZERO_INIT), or names such an initialiser and hands it to a
    kernel (NAMED_CONSTANT_INIT), or sets every parameter a loop over the model's parameters gives it (PARAMETER_LOOP)."""
    return ZERO_INIT.search(prose) or next(
        (m for m in NAMED_CONSTANT_INIT.finditer(prose)
         if re.search(r"kernel_initializer\s*=\s*" + re.escape(m.group("name")) + r"\b", prose)), None) \
        or parameters_zeroed_in_loop(prose)


# ... or each parameter a loop over the model's own parameters gives, weights among them: `for name, p in
# self.named_parameters(): ... nn.init.zeros_(p)` (or constant_(p, c), p.data.zero_()) -- not a submodule's
# (`self.lora_B.parameters()`, `self.head.parameters()`: a LoRA B or a head starts at zero and trains), and not where the
# body picks which (`if 'bias' in name`, `if p.dim() == 1`, a norm layer's, any `if` or `else` before the call: a norm's
# scale may start at a constant) -- code_review_s68b H3
PARAMETER_LOOP = lazy_regex.compile(r"(?m)^(?P<indent>[ \t]*)for[ \t]+(?:\w+[ \t]*,[ \t]*)?(?P<p>\w+)[ \t]+in[ \t]+"
                                    r"(?:[A-Za-z_]\w{0,30}\.)?(?:named_)?parameters\(\)[ \t]*:[ \t]*\n")
PARAMETER_PICKED = lazy_regex.compile(r"(?i)bias|\b(?:dim|ndim)\b|\bndimension\b|norm|\.shape\b|len\(|\bif\b|\belse\b")
LOOP_BODY_LINES = 8


# (a recurrent layer named in words, not denied: its hidden units, started equal with equal recurrent weights, stay copies
# too; or a depth written "2-layer")
RECURRENT_SAID = lazy_regex.compile(r"(?i)\b(?:LSTM|GRU|RNN)s?\b|\bseq2seq\b|\bencoder[- ]decoder\b")
INSTEAD_OF = lazy_regex.compile(r"(?i)\b(?:instead\s+of|rather\s+than|without)\s+(?:an?\s+|the\s+)?$")
# (the depth as an adjective, which DEPTH_SAID's "2 layers" does not read: "a 2-layer MLP", "2 layer", "2-layered")
LAYERS_HYPHENATED = lazy_regex.compile(r"(?i)\b(\d{1,3})\s*[- ]\s*layer(?:ed)?\b")


def network_of_layers(prose: str) -> bool:
    """Does the paste build two layers or more (LAYERS_BUILT), or say a depth of two or more (DEPTH_SAID,
    LAYERS_HYPHENATED) or a recurrent network (RECURRENT_SAID)? A model of one layer trains from zeros: only a
    network's units can start as copies."""
    return len(LAYERS_BUILT.findall(prose)) >= 2 \
        or any(int(n) >= 2 for n in DEPTH_SAID.findall(prose) + LAYERS_HYPHENATED.findall(prose)) \
        or any(not denied_before(prose, m.start()) and not INSTEAD_OF.search(prose, max(0, m.start() - 20), m.start())
               for m in itertools.islice(RECURRENT_SAID.finditer(prose), 20))


# A weight set to zero, not to another constant (`zeros_`, `zero_()`, `constant_(w, 0)`, `fill_(0)`, Keras's "zeros",
# NumPy's zeros): with an activation that is 0 at 0 no gradient reaches any weight, where a constant c != 0 leaves every
# unit learning, alike
ZERO_FILLED = "zero-filled"     # (the marker set beside zero-init where that is so)
ZERO_FILL = lazy_regex.compile(r"(?i)zeros|(?<!non-)(?<!non )\bzero\b|\bto\s+0(?:\.0*)?(?![\d.])|\bzero_\(\)|,\s*(?:val\s*=\s*)?0(?:\.0*)?\s*\)|fill_\(\s*0(?:\.0*)?\s*\)|Zeros\(")


def parameters_zeroed_in_loop(prose: str) -> re.Match | None:
    """The call that sets each parameter of such a loop to one value, every one the loop gives (see PARAMETER_LOOP)."""
    for loop in itertools.islice(PARAMETER_LOOP.finditer(prose), 10):
        body = block_under(prose, loop.end(), indent(loop.group("indent")), LOOP_BODY_LINES)
        # (the call on the body's own level, not under an `if` or an `else`; a condition before it that only skips
        # some, `if name.startswith('embedding'): continue`, leaves it every other parameter)
        kept = re.sub(r"\bif\b[^\n]*:[ \t]*(?:\n[ \t]*)?continue\b", "", "\n".join(body)).split("\n")
        level = min((indent(line) for line in kept if line.strip()), default=0)
        text = "\n".join(line if indent(line) == level else "" for line in kept)
        p = re.escape(loop.group("p"))
        # (the parameter itself or its tensor, `nn.init.constant_(param.data, 0)`)
        call = re.search(rf"\bnn\.init\.(?:zeros_\(\s*{p}(?:\.data)?\s*\)|constant_\(\s*{p}(?:\.data)?\s*,\s*(?:val\s*=\s*)?"
                         rf"-?(?:\d+(?:\.\d*)?|\.\d+)\s*\))|\b{p}(?:\.data)?\.(?:zero_\(\)|fill_\(\s*-?[\d.]+\s*\))", text)
        if call and not PARAMETER_PICKED.search(text[:call.start()]):
            return call
    return None


# Weights drawn with a standard deviation of 1 or more: `nn.init.normal_(m.weight, std=1.0)`, Keras's
# `RandomNormal(stddev=1)`, or a matrix drawn by randn with no scale after it (`W1 = np.random.randn(784, 128)`, a list
# of them, `W = [np.random.randn(a, b) for ...]`, `nn.Parameter(torch.randn(512, 512))`). He's scale, sqrt(2 / fan_in), is below 1 for any layer with more than two
# inputs, and with ReLU each layer of n inputs at std 1 multiplies the activations' spread by about sqrt(n / 2) (the
# variance of its output is n * Var(w) * E[x^2], and a ReLU's E[x^2] is half its input's variance): half a
# printed fact, beside a run that went wrong, for the entries whose phrases say the weights' std is too large.
# A layer's weight matrix in a dict, named from a loop's count as the deeplearning.ai course names them:
# `parameters['W' + str(l)]`, `parameters["W" + str(l + 1)]`, `params[f"W{l}"]`
_LAYER_W_KEY = (r"\b(?:params|parameters)\w{0,10}\[\s*(?:['\"]W['\"]\s*\+\s*str\(\s*\w+(?:\s*[-+]\s*1)?\s*\)|"
                r"f['\"]W\{\w+(?:\s*[-+]\s*1)?\}['\"])\s*\]")
LARGE_INIT_WORDS = {"weight", "init", "large"}
# (the std's number ends where no digit, letter or point follows: `1e-3` and `1.5e-2` are no std of one, and a lookahead
# that scanned the digits again at each backtrack was quadratic in a long run of them)
LARGE_INIT = lazy_regex.compile(r"\bnormal_?\(\s*[\w.\[\]]{0,40}weight[^)\n]{0,40}?\bstd\s*=\s*[1-9]\d*(?:\.\d*)?(?![\w.])\s*\)?"
                                # (PyTorch's nn.init.normal_ with no std draws at its default, std=1.0: `nn.init.normal_(w)`)
                                r"|\binit\.normal_\(\s*(?![\w.\[\]]{0,40}(?:bias|emb))[\w.\[\]]{1,40}weight[\w.\[\]]{0,20}\s*"
                                # (a mean given and no std: `nn.init.normal_(m.weight, mean=0.0)`, still std=1.0)
                                r"(?:,\s*(?:mean\s*=\s*)?-?\d+(?:\.\d*)?\s*)?\)"
                                # (PyTorch's order, tensor, mean, std: `nn.init.normal_(w, 0.0, 1.0)`; not a bias's, nor an
                                # embedding's, which nn.Embedding itself draws at std 1)
                                r"|\bnormal_\(\s*(?![\w.\[\]]{0,40}(?:bias|emb))[\w.\[\]]{1,40}\s*,\s*(?:mean\s*=\s*)?-?\d+(?:\.\d*)?\s*,\s*"
                                r"(?:std\s*=\s*)?[1-9]\d*(?:\.\d*)?(?![\w.])\s*\)"
                                r"|\bRandomNormal\([^)\n]{0,40}?\bstddev\s*=\s*[1-9]\d*(?:\.\d*)?(?![\w.])\s*\)?"
                                # (or said in words: "weights from np.random.randn(n_in, n_out), biases zero")
                                # (or each layer's in a loop, in a dict, as the deeplearning.ai course names them:
                                # `parameters['W' + str(l)] = np.random.randn(layer_dims[l], layer_dims[l-1])`)
                                r"|(?:\b[Ww](?:eights?)?_?\w{0,10}\s*=\s*(?:\[\s*)?|nn\.Parameter\(\s*|\b[Ww]eights?\s+(?:(?:are|were)\s+)?"
                                r"(?:from|drawn\s+(?:from|with|by)|initiali[sz]ed\s+(?:with|from|by)|made\s+(?:with|by))\s+`?|"
                                + _LAYER_W_KEY + r"\s*=\s*)"
                                r"(?:np\.random\.randn|torch\.randn)"
                                # (shapes given by names or by a list's items, `layer_dims[l - 1]`; not scaled down after --
                                # `* 0.01`, `* np.sqrt(2 / n)`, `/ 10` -- but `* 10`, the course's own too-large init, is wider still)
                                r"\(\s*(?:\w+|\w+\[\w+(?:\s*[-+]\s*1)?\])\s*,\s*(?:\w+|\w+\[\w+(?:\s*[-+]\s*1)?\])\s*\)"
                                r"(?!`?[ \t]*(?:/|\*(?![ \t]*[1-9]\d*(?:\.\d+)?(?![\w.]))))(?![^.\n]{0,30}?(?<!no )(?<!without )(?<!any )\bscal\w*)"
                                # (JAX's: `jax.random.normal(k, (din, dout))` unscaled, a weight matrix's shape; not `* scale`)
                                r"|\bjax\.random\.normal\(\s*\w+\s*,\s*\(\s*\w+\s*,\s*\w+\s*\)\s*\)(?![ \t]*[*/])"
                                # (TensorFlow's, with no stddev, which is 1.0 by default: `tf.Variable(tf.random_normal([5, 5, 1,
                                # 32]))`, a shape of two dimensions or more -- a weight's, not a bias's)
                                r"|\btf\.Variable\(\s*tf\.(?:compat\.v1\.)?(?:random_normal|random\.normal|truncated_normal|"
                                r"random\.truncated_normal)\(\s*\[[^\]\n,]{1,30},[^\]\n]{1,60}\]\s*\)\s*[,)]")
# (a weight matrix's own name -- W1, W_hidden, weights2 -- not a buffer named after it: W1_vel, mW1; at a line's start,
# or a sentence's code: "I initialise `W1 = np.zeros((784, 100)); W2 = np.zeros((100, 10))`")
# (or a TensorFlow 1 variable of zeros of two dimensions or more: `W1 = tf.Variable(tf.zeros([784, 1024]))`)
NUMPY_ZERO_WEIGHTS = lazy_regex.compile(r"(?m)(?:^|[`;])[ \t]*(?:self\.)?(?:W|w|weights?)(?:\d|_?(?:in|out|hidden|h|o|ih|hh|xh|hy)\d?)?"
                                        r"\s*=\s*(?:np\.zeros\([^\n;`]{0,60}\)|tf\.Variable\(\s*tf\.zeros\(\s*\[[^\]\n,]{1,30},[^\]\n]{1,60}\]"
                                        r"[^\n;`]{0,30}\))")
# ... or every parameter at once, by a comprehension: `params = {k: np.zeros(s) for k, s in shapes.items()}`; or every
# layer's weight matrix in a loop over the layers, each named from the loop's count, as the deeplearning.ai course's
# `initialize_parameters_zeros` builds them: `parameters['W' + str(l)] = np.zeros((layers_dims[l], layers_dims[l-1]))`
ALL_PARAMS_ZERO = lazy_regex.compile(r"(?m)^[ \t]*(?:self\.)?(?:params|parameters|weights|theta)\w{0,10}\s*=\s*[\[{][^\n\]}]{0,40}?"
                                     r"np\.zeros(?:_like)?\([^\n]{0,60}?\bfor\b[^\n]{0,80}[\]}]|"
                                     r"^[ \t]*" + _LAYER_W_KEY + r"\s*=\s*np\.zeros\(")
# ... or a list of zeros made in the shape of each of a model's weights and loaded into a model as its weights: Flower's
# `initial_parameters=ndarrays_to_parameters(zeros)`, Keras's `model.set_weights(zeros)`, PyTorch's `load_state_dict` --
# not zeros kept beside the weights (gradient sums, momentum buffers), which nothing loads
ZERO_LIST = lazy_regex.compile(r"(?m)^[ \t]*(?P<name>[A-Za-z_]\w{0,30})\s*=\s*\[\s*(?:np|numpy|torch|jnp)\.zeros(?:_like)?\("
                               r"[^\n]{0,80}?\bfor\b[^\n]{0,120}\]")
# (the list itself, the whole argument, or inside one call that converts it -- Flower's `ndarrays_to_parameters(zeros)`;
# not an expression made from it, `[w + v for w, v in zip(weights, velocity)]`, a buffer's update)
LOADS_WEIGHTS = (r"(?:\binitial_parameters\s*=|\.set_weights\(|\bset_parameters\((?:[^(),\n]{1,40},)?|\.load_state_dict\()"
                 r"\s*(?:[\w.]{1,40}\(\s*)?%s\s*(?:\)\s*)?[,)\n]")


def zeros_loaded(prose: str) -> re.Match | None:
    """The list of zeros the paste loads into a model as its weights (ZERO_LIST, LOADS_WEIGHTS); or None."""
    return next((m for m in itertools.islice(ZERO_LIST.finditer(prose), 20)
                 if re.search(LOADS_WEIGHTS % re.escape(m.group("name")), prose)), None)


# A function of the paste that sets the weights one way, beside another that sets them another way, and used nowhere
# (the deeplearning.ai course's Initialization notebook defines initialize_parameters_zeros, _random and _he side by
# side and calls one, `initialization = "he"`): the weights the run had are not that function's.
DEF_LINE = lazy_regex.compile(r"(?m)^(?P<indent>[ \t]*)def[ \t]+(?P<name>[A-Za-z_]\w{0,60})[ \t]*\(")
INIT_CHOSEN = lazy_regex.compile(r"""\binit(?:iali[sz]ation|_method|_mode)?\s*=\s*['"](?P<how>\w{1,30})['"]""")


def _enclosing_def(prose: str, at: int, defs: list[re.Match]) -> re.Match | None:
    """The def whose body holds the line at `at`: the last one before it, indented less than that line."""
    line_start = prose.rfind("\n", 0, at) + 1
    line_end = prose.find("\n", line_start)
    line = prose[line_start:line_end if line_end >= 0 else None]
    indent = len(line) - len(line.lstrip(" \t"))
    return next((d for d in reversed(defs) if d.start() < at and len(d.group("indent")) < indent), None)


def weights_set_by(pattern: PatternLike, prose: str) -> re.Match | None:
    """The first match of a weight-setting pattern that is not in an init function the paste defines beside another
    and never uses: its name written nowhere else, or another one chosen by name (INIT_CHOSEN)."""
    matches = list(itertools.islice(pattern.finditer(prose), 20))
    defs = list(itertools.islice(DEF_LINE.finditer(prose), 200)) if matches else []
    # (a module's own constructor, __init__, is no init function beside another)
    if sum("init" in d.group("name").lower() and d.group("name") != "__init__" for d in defs) < 2:
        return matches[0] if matches else None
    chosen = [m.group("how").lower() for m in INIT_CHOSEN.finditer(prose)]

    def unused(m: re.Match) -> bool:
        enclosing = _enclosing_def(prose, m.start(), defs)
        if enclosing is None or enclosing.group("name") == "__init__":     # (the constructor runs)
            return False
        name = enclosing.group("name").lower()
        if chosen:
            return not any(how in name for how in chosen)
        # (a method called on the module, `self.init_weights()` or `model.init_weights()`, or handed to apply, is used)
        return len(re.findall(r"(?:(?<![\w.])|(?<=[\w)]\.))" + re.escape(enclosing.group("name")) + r"(?!\w)", prose)) <= 1

    return next((m for m in matches if not unused(m)), None)


# A parameter made with memory left as it was (torch.empty, torch.Tensor(n, m), np.empty for weights) and filled nowhere in
# the paste (no nn.init, reset_parameters, in-place fill): it holds whatever that memory held -- nan, inf, 1e30 or
# zeros, different from run to run (PyTorch's torch.empty: "Returns a tensor filled with uninitialized data")
UNFILLED = lazy_regex.compile(r"\bnn\.Parameter\(\s*torch\.(?:empty|Tensor|FloatTensor)\(\s*(?![\[(])[^()\n]{1,80}\)\)?|"
                              r"(?:^|\n)[ \t]*(?:self\.)?(?:W|w|weights?)\w{0,12}\s*=\s*np\.empty\(")
FILLED = lazy_regex.compile(r"\bnn\.init\.|\binit\.\w+_\(|reset_parameters|\.(?:uniform|normal|zero|fill|copy|"
                            r"kaiming_\w+|xavier_\w+|orthogonal|trunc_normal)_\(|\bload_state_dict\(")
# ... or a JAX array made with jnp.empty or jnp.zeros and "filled" by a statement that throws its result away: JAX arrays
# are immutable, and `W.at[...].set(...)` returns a new array, leaving W as it was
AT_DISCARDED = lazy_regex.compile(r"(?m)^[ \t]*(?P<n>[A-Za-z_]\w{0,30})\.at\[[^\]\n]{0,60}\]\.(?:set|add|multiply|mul|divide|power|"
                                  r"min|max|apply)\(")
# layers the paste builds: zeros for the only one is a linear model, which trains from zeros
LAYERS_BUILT = lazy_regex.compile(r"\b(?:layers\.)?(?:Dense|Conv[123]D|LSTM|GRU)\(|\bnn\.(?:Linear|Conv[123]d|LSTM|GRU|RNN)\(")


# A fixed std below 1 can still be too large for wide layers: `nn.init.normal_(m.weight, std=0.1)` beside layers of up to
# n inputs (`nn.Linear(512, 1024)`) is std·√(n / 2) times He's scale; with ReLU each layer multiplies the activations'
# spread by about that, and a stack of them by its power (He et al. 2015, Eq. 10)
FIXED_STD = lazy_regex.compile(r"\bnormal_?\(\s*(?![\w.\[\]]{0,40}emb)[\w.\[\]]{0,40}weight[^)\n]{0,40}?\bstd\s*=\s*(0?\.\d{1,6})(?![\w.])|"
                               r"\bnormal_\(\s*(?![\w.\[\]]{0,40}(?:bias|emb))[\w.\[\]]{1,40}\s*,\s*(?:mean\s*=\s*)?-?\d+(?:\.\d*)?\s*,\s*"
                               r"(?:std\s*=\s*)?(0?\.\d{1,6})(?![\w.])|"
                               # (the tensor's own method: `m.weight.data.normal_(0.0, 0.1)`)
                               r"\bweight(?:\.data)?\.normal_\(\s*(?:mean\s*=\s*)?-?\d+(?:\.\d*)?\s*,\s*(?:std\s*=\s*)?(0?\.\d{1,6})(?![\w.])")
LINEAR_SIZES = lazy_regex.compile(r"\b(?:nn\.)?Linear\(\s*(\d{1,6})\s*,\s*(\d{1,6})")
DEPTH_SAID = lazy_regex.compile(r"(?i)(?<!resnet )(?<!resnet-)(?<!resnet with )(?<!vgg with )\b(\d{1,3})\s+"
                                r"(?:residual\s+|hidden\s+|dense\s+|linear\s+)?(?:blocks|layers)\b")
# (a normalisation layer said taken out or not used is none in the network: "I removed all the BatchNorm layers", "w/o
# BatchNorm", "I don't use BatchNorm", "BatchNorm removed since the batch is 8", "I left BatchNorm out for now")
_NORM_LAYER = r"(?:nn\.)?(?:batch|layer|instance|group)[ _-]?norm\w*(?:\s+layers?)?"
# (the verb not denied: "I did not remove the BatchNorm" keeps it)
_NOT_DENIED = r"(?<!not )(?<!never )(?<!n't )"
NORM_LAYER_UNUSED = lazy_regex.compile(r"(?i)" + _NOT_DENIED + r"\b(?:remov\w*|dropp\w*|delet\w*|disabl\w*|(?:took|take|left|leave|"
                                       r"commented|comment)\s+out|(?:turned|switched)\s+off|got\s+rid\s+of|"
                                       r"without|w/o|no|don'?t\s+use|do\s+not\s+use|not\s+using)\s+"
                                       r"(?:(?:the|all|any|my|our|of|its)\s+){0,3}" + _NORM_LAYER + r"|"
                                       + _NORM_LAYER + r"\s+(?:(?:is|are|was|were)\s+)?(?:removed|disabled|dropped|taken\s+out|"
                                       r"commented\s+out|turned\s+off)\b|"
                                       + _NOT_DENIED + r"\b(?:left|took|take|commented|turned|switched)\s+(?:the\s+)?"
                                       + _NORM_LAYER + r"\s+(?:out|off)\b")


@functools.lru_cache(maxsize=4)      # (asked of the same paste by the scaling readings and the init's)
def without_unused_norm_layers(text: str) -> str:
    """The text with each normalisation layer said taken out or not used (NORM_LAYER_UNUSED) blanked: what is left
    names only the layers the network has."""
    return NORM_LAYER_UNUSED.sub(" ", text)


NORMALISED_LAYERS = lazy_regex.compile(r"(?i)\b(?:BatchNorm\w*|LayerNorm|GroupNorm|RMSNorm)\(")
WIDE_GAIN, WIDE_GROWTH = 1.5, 1e3


def init_too_wide(prose: str) -> str:
    """The fact, when the paste draws weights at a fixed std below 1 that is WIDE_GAIN times He's scale or more for
    its widest layer, over layers enough to grow the activations' spread WIDE_GROWTH times; else ""."""
    std = FIXED_STD.search(prose)
    sizes = [(int(a), int(b)) for a, b in itertools.islice(LINEAR_SIZES.findall(prose), 50)]
    if std is None or not sizes or not re.search(r"(?i)\brelu\b", prose):
        return ""
    if NORMALISED_LAYERS.search(without_unused_norm_layers(prose)):
        return ""                      # (a normalisation after the layers resets the spread each time)
    s = float(std.group(1) or std.group(2) or std.group(3))
    # (the hidden layers' inputs: the first layer's are the data's, and its width says nothing of the stack's)
    fan_in = max(a for a, _ in (sizes[1:] or sizes))
    gain = s * math.sqrt(fan_in / 2)
    said = [int(n) for n in DEPTH_SAID.findall(prose)]
    depth = max([len(sizes)] + said)
    if s <= 0 or gain < WIDE_GAIN or gain ** depth < WIDE_GROWTH:
        return ""
    return (f"the pasted code draws weights at a fixed std of {s:g} (`{' '.join(std.group(0).split())}`) for layers of "
            f"up to {fan_in} inputs: He's scale for ReLU there is √(2 / {fan_in}) = {math.sqrt(2 / fan_in):.3g}, so "
            f"each such layer multiplies the activations' spread by about {gain:.3g}, and {depth} layers by about "
            f"{gain ** depth:.3g}")


def update_discarded(prose: str) -> str:
    """The fact, where the paste makes a JAX array with jnp.empty or jnp.zeros and then throws away the array that
    `.at[...].set(...)` returned (AT_DISCARDED), else ""."""
    for m in itertools.islice(AT_DISCARDED.finditer(prose), 10):
        before = prose[:m.start()]
        # (a statement of its own: not a line that continues one opened above -- `W = (`, `return (`, `dict(W=`)
        previous = next((line.rstrip() for line in reversed(before.rstrip("\n").split("\n")[-5:]) if line.strip()), "")
        if previous.endswith(("(", "[", "{", ",", "=", "\\")):
            continue
        # (and the name as last made before it: not one made again since from anything else)
        assigned = list(re.finditer(rf"(?m)^[ \t]*{re.escape(m.group('n'))}[ \t]*=(?!=)([^\n]*)", before))
        made = re.search(r"\bjnp\.(empty|zeros)(?:_like)?\(", assigned[-1].group(1)) if assigned else None
        if made:
            line = " ".join(prose[m.start():prose.find("\n", m.start()) % (len(prose) + 1)].split())[:80]
            return (f"the pasted code makes `{m.group('n')}` with jnp.{made.group(1)}() and then calls `{line}` without "
                    f"keeping its result: JAX arrays are immutable, `.at[...].set()` returns a new array, so "
                    f"`{m.group('n')}` keeps what jnp.{made.group(1)}() gave it (zeros; from JAX 0.11.0 on, jnp.empty may "
                    "leave its memory uninitialised)")
    return ""
