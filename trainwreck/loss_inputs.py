"""What a loss is handed that it does not take: probabilities where it wants logits (a Keras softmax or sigmoid
output beside a cross-entropy, a PyTorch model that returns a sigmoid's or a softmax's output beside a loss that
applies its own, an NLL loss handed a softmax's probabilities, a CTC loss handed what are not log-probabilities), or
binary targets of 0 and 255; and, from these, why a loss below zero cannot be normal (impossible_negative).

They are WR-130's and WR-320's faces in the code: a loss handed the wrong thing still runs, and only its values show
it (a loss below zero here; a floor it cannot go below, softmax_floor).
"""
from __future__ import annotations

import functools
import itertools
import math
import re

from .brackets import arguments, sequential_layers
from .code_blocks import block_under, indent
from .curve_shape import fmt
from .logscan import Evidence
from .normals import GAN_FAMILY, NORMALS, negative_said
from .plural import counted
from .run_said import MINUS_SCORE, loss_kind, score_out_of_range
from .sentences import denied_before, sentence_around, sentences_and_ends, told
from .sequence_losses import CTC_NAMED
from . import lazy_regex

# The entries whose phrases say a softmax's output reaches a cross-entropy (WR-130): no regression's failure
PROBABILITY_LOSS_WORDS = {"softmax", "cross", "entropy"}
# A pasted Keras model that ends in a softmax and a cross-entropy: probabilities are what that loss takes unless it is
# told from_logits=True (keras.losses, from_logits=False by default), so the pairing is Keras's own -- or, told so,
# the loss is handed probabilities as logits (WR-130).
# (the model's last Dense layer is its output, softmax when it says so; from_logits on a line of code that builds or
# compiles the loss, not in a sentence about something tried)
# (and the two-class pairing the same way: a sigmoid output and a binary cross-entropy, whose from_logits is False too
# unless set)
# (on Keras's TensorFlow backend the softmax keeps its logits on the tensor it returns and the cross-entropies use them,
# with a warning, when told from_logits=True: repaired there -- unless mixed precision converts the output first; on
# the JAX and PyTorch backends nothing repairs it: keras/src/backend/tensorflow/nn.py, _get_logits, at v3.15.1)
# (two levels of brackets inside it: the keras.io OCR examples' `Dense(len(char_to_num.get_vocabulary()) + 1, ...)`)
DENSE = lazy_regex.compile(r"\bDense\((?:[^()\n]|\((?:[^()\n]|\([^()\n]*\))*\))*\)")
TF_BACKEND = lazy_regex.compile(r"(?i)\btf\.keras\b|\bimport tensorflow\b|\bfrom tensorflow\b|KERAS_BACKEND\W{1,6}tensorflow|"
                                r"\b(?:tensorflow|tf) backend\b")
OTHER_BACKEND = lazy_regex.compile(r"(?i)KERAS_BACKEND\W{1,6}(?:jax|torch)|\b(?:jax|torch|pytorch) backend\b|mixed_float16")
KERAS_OUTPUT = lazy_regex.compile(r"activation\s*=\s*['\"](?P<act>softmax|sigmoid)['\"]")
# ... or said in words, in a report that names Keras: "softmax output, sparse_categorical_crossentropy", "a sigmoid
# output and binary_crossentropy" -- the output's activation and Keras's cross-entropy in one sentence
KERAS_NAMED = lazy_regex.compile(r"(?i)\bkeras\b|\btf\.keras\b|\btensorflow\b|\btf \d")
KERAS_PAIRING_SAID = lazy_regex.compile(r"(?i)(?<!no )(?<!without )(?<!removed the )(?<!remove the )\b(?P<act>softmax|sigmoid)\b"
                                        r"[^.;\n]{0,20}?\b(?:output|last layer|final layer|head)\b[^.\n]{0,60}?\b(?P<loss>(?:sparse_)?categorical_crossentropy|"
                                        r"binary_crossentropy)\b|\b(?:output|last layer|final layer)\b(?:(?!\b(?:no|without|linear)\b)"
                                        r"[^.;\n]){0,20}?\b(?P<act2>softmax|sigmoid)\b[^.\n]{0,60}?\b(?P<loss2>(?:sparse_)?categorical_crossentropy|"
                                        r"binary_crossentropy)\b")
# ... or TensorFlow's own ops that take logits and apply their softmax or sigmoid (`tf.nn.sparse_softmax_cross_entropy_
# with_logits`), handed a Keras model's output: no Keras loss reads the logits the activation kept, so nothing repairs it.
# tf.nn.ctc_loss is one (its `logits=` go through log_softmax: `ilabel_log_probs = nn_ops.log_softmax(logits)`,
# https://github.com/tensorflow/tensorflow/blob/v2.21.0/tensorflow/python/ops/ctc_ops.py#L705
# ctc_loss_and_grad, checked on 2.21.0; with sparse labels the CTCLoss op, whose docstring says "This class performs the softmax operation
# for you"), where Keras's own ctc_batch_cost takes the probabilities a softmax gives (not read: it is the pairing)
TF_LOGITS_OP = lazy_regex.compile(r"\btf\.(?:compat\.v1\.)?nn\.(?:(?P<kind>sparse_softmax|softmax|sigmoid)_cross_entropy_with_logits"
                                  r"(?:_v2)?|ctc_loss(?:_v2)?)\b")
# (its logits the model's own output: `logits=out` where `out = model(x, training=True)`, or `logits=model(x)`, or the
# y_pred a Keras loss or loss layer is handed, `def call(self, y_true, y_pred)` -- not a student's logits beside a
# teacher that ends in a softmax, whose probabilities are the labels)
TF_OP_LOGITS = lazy_regex.compile(r"\blogits\s*=\s*(?P<arg>[A-Za-z_][\w.]{0,40})(?P<call>\()?")
MODEL_CALLED = r"(?:self\.)?(?:model|net|keras_model|classifier|clf)\("
KERAS_LOSS_PARAMETERS = r"\bdef\s+\w+\(\s*(?:self\s*,\s*)?y_true\s*,\s*{arg}\s*[,)]"


# TensorFlow.js: a model whose last `tf.layers.dense({..., activation: 'softmax'})` (or 'sigmoid') feeds the predictions
# to `tf.losses.softmaxCrossEntropy(labels, preds)` (or sigmoidCrossEntropy), which takes logits and applies its own
# softmax (tfjs-core/src/ops/losses/softmax_cross_entropy.ts: "@param logits The predicted outputs."): the predictions
# being `model.predict(...)` itself or a name made from it
TFJS_DENSE_OUTPUT = lazy_regex.compile(r"\btf\.layers\.dense\(\s*\{[^{}\n]{0,160}?\bactivation\s*:\s*['\"](?P<act>softmax|sigmoid|"
                                       r"linear|relu|tanh)['\"]")
TFJS_LOGITS_LOSS = lazy_regex.compile(r"\btf\.losses\.(?P<kind>softmax|sigmoid)CrossEntropy\(\s*[\w.]{1,40}\s*,\s*"
                                      r"(?P<arg>(?:model|net)\.(?:predict|apply)\([^()\n]{0,40}\)|[A-Za-z_$][\w$]{0,30})")


def tfjs_pairing(prose: str) -> re.Match | None:
    """TensorFlow.js's logits loss handed the predictions of a model whose last dense layer applies the same
    normaliser (TFJS_LOGITS_LOSS), or None."""
    layers = list(itertools.islice(TFJS_DENSE_OUTPUT.finditer(prose), 50))
    if not layers or layers[-1].group("act") not in ("softmax", "sigmoid"):
        return None
    for loss in itertools.islice(TFJS_LOGITS_LOSS.finditer(prose), 5):
        arg = loss.group("arg")
        made = "(" in arg or re.search(r"\b(?:const|let|var)?\s*" + re.escape(arg) + r"\s*=\s*(?:model|net)\.(?:predict|apply)\(",
                                       prose)
        if made and loss.group("kind") == layers[-1].group("act"):
            return loss
    return None


def tf_op_on_model_output(prose: str) -> re.Match | None:
    """The first TensorFlow logits op (TF_LOGITS_OP) whose `logits=` is the Keras model's output, called there or
    assigned from its call, or the y_pred a Keras loss is handed."""
    for op in itertools.islice(TF_LOGITS_OP.finditer(prose), 5):
        handed = TF_OP_LOGITS.search(prose, op.end(), op.end() + 200)
        if handed is None:
            continue
        arg = handed.group("arg")
        if handed.group("call") and re.fullmatch(r"(?:self\.)?(?:model|net|keras_model|classifier|clf)", arg):
            return op
        if re.search(r"(?m)^[ \t]*" + re.escape(arg) + r"\s*(?:,[^=\n]{0,40})?=\s*" + MODEL_CALLED, prose[:op.start()]):
            return op
        # (the function the op is in, the nearest def before it, takes y_pred from Keras, and does not make it
        # something else first: `y_pred = tf.math.log(...)`, ctc_batch_cost's own body -- code_review_s70b 6)
        nearest = prose.rfind("def ", 0, op.start())
        if arg == "y_pred" and nearest >= 0 and re.match(KERAS_LOSS_PARAMETERS.format(arg=arg), prose[nearest:]) \
                and not re.search(r"(?m)^[ \t]*y_pred\s*=(?!=)", prose[nearest:op.start()]):
            return op
    return None


# ... or Keras 3's own CTC loss compiled for it, whose y_pred are "logits (the output of your model). They should *not*
# be normalized via softmax." (keras/src/losses/losses.py at v3.15.1, `ctc`); Keras 2's ctc_batch_cost, which takes the
# softmax's probabilities, is another function
# (only as the loss a code line sets or compiles, `loss=keras.losses.CTC()`, `loss="ctc"`, `loss_fn = CTC()` -- not a
# sentence that tried it, nor a line commented out, which the caller blanks (code_of); and not beside Keras 2's
# ctc_batch_cost, the loss in use then, which takes probabilities -- code_review_s70c 5)
KERAS_CTC = lazy_regex.compile(r"(?m)^[^\n]*?\bloss(?:_fn|_object)?\s*=\s*(?P<ctc>(?:(?:keras\.|tf\.keras\.)?losses\.)?"
                               r"(?:CTC\(|ctc\b)|['\"](?:ctc|CTC)['\"])")
CTC_BATCH_COST = lazy_regex.compile(r"\bctc_batch_cost\b")


KERAS_CROSSENTROPY = lazy_regex.compile(r"(?:sparse_)?categorical_crossentropy|(?:Sparse)?CategoricalCrossentropy|"
                                        r"binary_crossentropy|BinaryCrossentropy")
_KERAS_CE = r"(?:categorical_crossentropy|CategoricalCrossentropy|binary_crossentropy|BinaryCrossentropy)"
FROM_LOGITS = lazy_regex.compile(r"(?m)^[ \t]*(?:[\w.]+\.compile\(|\w+\s*=)[^\n]*" + _KERAS_CE +
                                 r"[^\n]{0,80}?from_logits\s*=\s*True|"
                                 # (or the loss built with it in a sentence's code: "the loss is
                                 # `keras.losses.SparseCategoricalCrossentropy(from_logits=True)`")
                                 # (in backticks, as code the words quote: not a sentence of a run tried, "I already tried
                                 # loss=CategoricalCrossentropy(from_logits=True), same thing")
                                 r"`[\w.]{0,40}" + _KERAS_CE + r"\([^()\n`]{0,80}?"
                                 r"from_logits\s*=\s*True[^`\n]{0,20}`")
# ... and a pasted PyTorch model whose output is a sigmoid's or a softmax's (`return torch.sigmoid(...)`, a Sequential
# that ends in nn.Sigmoid()), beside a loss that applies its own (BCEWithLogitsLoss, CrossEntropyLoss): probabilities
# handed over as logits. (Not a softmax inside the model, as attention's: only what forward() returns, or what the
# Sequential ends in; with several forward()s pasted, the last one's -- a model's own comes after its parts', and a
# gate's or a helper's may return one.)
# A sigmoid's or a softmax's call, its brackets whole (two levels deep inside)
# (Flax's and JAX's functions too: `nn.softmax(x)`, `jax.nn.sigmoid(...)`)
# (a recurrent model's state after its output in the returned tuple: `, h`, `, hidden`, `, (h, c)`, `, state`)
_STATE = r"[ \t]*,[ \t]*(?:h\w{0,10}|hidden\w{0,10}|state\w{0,10}|\(\s*h\w{0,5}\s*,\s*c\w{0,5}\s*\))"
_HIDDEN_STATE_AFTER = r"(?:" + _STATE + r")?"
_PROBABILITY_CALL = (r"(?:torch\.|F\.|(?:torch\.)?nn\.functional\.|self\.|jax\.nn\.|jnn\.|nn\.(?=[a-z]))?(?:sigmoid|softmax)\("
                     r"(?:[^()\n]|\((?:[^()\n]|\([^()\n]*\))*\))*\)")
TORCH_PROBABILITY_OUT = lazy_regex.compile(r"\breturn\s+" + _PROBABILITY_CALL +
                                           # (a shape's methods after it change no value: `.squeeze(-1)`, `.view(-1)`)
                                           # (or quoted in a sentence, `return self.softmax(self.fc(x))`, its backtick ending it)
                                           # (and a comment after it: `return torch.sigmoid(self.head(x))  # probabilities`)
                                           # (and a recurrent model's state returned beside it: `return self.softmax(
                                           # self.fc(out)), h` -- HIDDEN_STATE_AFTER; not logits beside probabilities)
                                           r"(?:\.(?:squeeze|unsqueeze|view|reshape|flatten)\([^()\n]*\))*" + _HIDDEN_STATE_AFTER +
                                           r"(?:[ \t]*(?:#[^\n]*)?$|`)|"
                                           r"\b(\w+)\s*=\s*(?:torch\.|F\.|self\.)?(?:sigmoid|softmax)\([^\n]{0,120}\n[ \t]*return\s+\1\s*$|"
                                           # (a Sequential's last module, a comment after it or not, `nn.Softmax(dim=1),  #
                                           # as in my numpy code`; or the module alone in a sentence's backticks, "the model
                                           # ends with `nn.Softmax(dim=1)`")
                                           r"\bnn\.(?:Sigmoid|Softmax)\([^()\n]{0,20}\)\s*(?:,[ \t]*)?(?:#[^\n]*(?=\n))?\s*\)|"
                                           r"(?<=`)nn\.(?:Sigmoid|Softmax)\([^()\n`]{0,20}\)(?=`)|"
                                           # (or the last of the layers a sentence's backticks list, "ends with `nn.Linear(256,
                                           # 10), nn.Softmax(dim=1)`")
                                           r"(?<=, )nn\.(?:Sigmoid|Softmax)\([^()\n`]{0,20}\)(?=`)|"
                                           # (or in a sentence's plain words, "at the model's end I put nn.Softmax(dim=1)": not
                                           # in a Sequential's middle, nor assigned to a name, which may be a hidden layer's)
                                           r"(?<![\w.(,=])(?<![(,=] )nn\.(?:Sigmoid|Softmax)\([^()\n]{0,20}\)(?![ \t]*,)(?![ \t]*\n[ \t]*nn\.)|"
                                           # (or the last of the layers a sentence chains with arrows, "Linear(128,10) → Softmax")
                                           r"(?:→|->|=>)[ \t]*(?:nn\.)?(?:Sigmoid|Softmax)\b(?:\([^()\n]{0,20}\))?(?![ \t]*(?:→|->|=>))|"
                                           # (or a Julia Flux Chain whose last layer is the function: `Chain(Dense(32 => 6),
                                           # softmax)`, `Chain(..., σ)`)
                                           r"\bChain\((?:[^()\n]|\((?:[^()\n]|\([^()\n]*\))*\))*,[ \t]*(?:NNlib\.|Flux\.)?"
                                           r"(?:softmax|sigmoid|σ)[ \t]*\)",
                                           re.M)
# ... or torch for R's (read in code, comments left out: code_review_s68 H5): the last expression of the module's
# `forward = function(...) { ... }`, a softmax or a sigmoid as the pipe's last step (`x %>% self$fc2() %>%
# nnf_softmax(dim = 2)`) or called on it; or the last module of an `nn_sequential(...)` of layers (not a wrapper around
# a trained model, `nn_sequential(model, nn_softmax(dim = 2))`)
R_FORWARD = lazy_regex.compile(r"\bforward\s*=\s*function\s*\([^()\n]{0,80}\)\s*\{")
R_LAST_PROBABILITY = lazy_regex.compile(r"\bnnf_(?:softmax|sigmoid)\([^\n]{0,60}\)\s*$")
R_SEQUENTIAL_OUT = lazy_regex.compile(r"\bnn_sequential\(\s*nn_(?:[^()]|\([^()]{0,60}\)){0,600}?,\s*"
                                      r"(?P<out>nn_(?:softmax|sigmoid)\([^()\n]{0,20}\))\s*\)")


def r_model_output(prose: str) -> re.Match | None:
    """The softmax or sigmoid a torch for R model outputs (see above), as the call itself; or None."""
    from .breaking_constructs import code_of     # (breaking_constructs imports this module: read late)

    code = code_of(prose)
    for start in itertools.islice(R_FORWARD.finditer(code), 5):
        depth, end = 1, start.end()
        while depth and end < len(code):
            depth += {"{": 1, "}": -1}.get(code[end], 0)
            end += 1
        lines = [line for line in code[start.end():end - 1].split("\n") if line.strip()]
        if lines and (last := R_LAST_PROBABILITY.search(lines[-1])):
            offset = code.rfind(lines[-1], start.end(), end) + last.start()
            return re.compile(re.escape(last.group(0).rstrip())).match(prose, offset)
    sequential = R_SEQUENTIAL_OUT.search(code)
    return re.compile(re.escape(sequential.group("out"))).match(prose, sequential.start("out")) if sequential else None
ARROW = ("→", "->", "=>")
# (named in a sentence too: "training uses nn.CrossEntropyLoss")
TORCH_LOGITS_LOSS = lazy_regex.compile(r"\b(?:nn\.)?(?:BCEWithLogitsLoss|CrossEntropyLoss)\b|\bF\.(?:cross_entropy|"
                                       r"binary_cross_entropy_with_logits)\(|"
                                       # (optax's losses take logits too)
                                       r"\boptax\.(?:losses\.)?(?:softmax_cross_entropy(?:_with_integer_labels)?|"
                                       r"sigmoid_binary_cross_entropy)\b|"
                                       # (and Flux's, whose logit versions apply their own softmax or sigmoid)
                                       r"\blogit(?:binary)?crossentropy\(|"
                                       # (and a GAN's vanilla loss in BasicSR, whose GANLoss builds nn.BCEWithLogitsLoss for
                                       # it -- basicsr/losses/gan_loss.py at v1.4.2 -- as the GANLoss classes copied from it do)
                                       r"\bgan_type\s*[:=]\s*['\"]?vanilla\b|"
                                       # (and torch for R's, which combine log_softmax and nll_loss, or a sigmoid and the
                                       # BCE, as PyTorch's do: https://torch.mlverse.org/docs/reference/nnf_cross_entropy)
                                       r"\bnnf?_(?:cross_entropy(?:_loss)?|bce_with_logits_loss|"
                                       r"binary_cross_entropy_with_logits)\(")


# ... or a distribution built on probabilities given as its logits (`dist.Categorical(logits=F.softmax(z, -1))`, or a
# name the paste assigns from a softmax or a sigmoid): torch.distributions, Pyro, NumPyro and TFP take `logits` as
# unnormalised log-probabilities and normalise them with their own log-softmax (log-sigmoid for a Bernoulli), so
# probabilities in [0, 1] come out nearly uniform -- the likelihood sits near ln C while the argmax, and the accuracy,
# can still be right
DIST_ON_LOGITS = lazy_regex.compile(r"\b(?:Categorical|OneHotCategorical|Bernoulli|Binomial|Multinomial)\w{0,20}\([^()\n]{0,60}?"
                                    r"\blogits[ \t]*=[ \t]*(?P<arg>" + _PROBABILITY_CALL + r"|[A-Za-z_]\w{0,30}\b)")


def distribution_on_probabilities(prose: str) -> str:
    """The distribution's construction, quoted in backticks (and the line that makes its logits a softmax's or a
    sigmoid's), where the paste hands a distribution probabilities as its logits; ''."""
    for m in itertools.islice(DIST_ON_LOGITS.finditer(prose), 10):
        arg, built = m.group("arg"), f"`{' '.join(m.group(0).split())})`"
        if "(" in arg:
            return built
        made = re.search(r"(?m)^[ \t]*(" + re.escape(arg) + r"[ \t]*=[ \t]*[^\n]{0,80}?\b(?:sigmoid|softmax)\([^\n]{0,80})$",
                         prose)
        if made:
            return f"{built}, where `{' '.join(made.group(1).split())}`"
        # (or the output of a module of the paste's own whose Sequential ends in a softmax or a sigmoid: `logits =
        # self.actor(x)` beside `self.actor = nn.Sequential(..., nn.Softmax(dim=-1))`)
        # (the name's last assignment before the distribution, and nothing assigned to it between: not `logits =
        # torch.log(logits)`, a log-probability, which a distribution takes as its logits)
        before = prose[:m.start()]
        assigned = list(re.finditer(r"(?m)^[ \t]*" + re.escape(arg) + r"[ \t]*=(?!=)[^\n]*", before))
        called = re.fullmatch(r"[ \t]*" + re.escape(arg) + r"[ \t]*=[ \t]*self\.(\w{1,40})\([^()\n]{0,60}\)[ \t]*(?:#[^\n]*)?",
                              assigned[-1].group(0)) if assigned else None
        last = _sequential_end(before[:assigned[-1].start()], called.group(1)) if called else ""
        if last:
            return (f"{built}, where `{' '.join(called.group(0).split())}` and `self.{called.group(1)}` ends in "
                    f"`{last}`")
    return ""


def _sequential_end(prose: str, attribute: str) -> str:
    """The last module of the last `self.<attribute> = nn.Sequential(...)` in the text where it is a softmax or a
    sigmoid; ''."""
    built = None
    for built in re.finditer(r"\bself\." + re.escape(attribute) + r"[ \t]*=[ \t]*(?:torch\.)?nn\.Sequential(\()", prose):
        pass
    modules = arguments(prose, built.start(1), reach=2000, across_lines=True) if built else None
    # (a comment after a module is no part of it: `nn.Softmax(dim=-1),  # probabilities`)
    modules = [re.sub(r"#[^\n]*", "", m).strip() for m in modules or []]
    modules = [m for m in modules if m]
    last = modules[-1] if modules else ""
    return last if re.fullmatch(r"(?:torch\.)?nn\.(?:Softmax|Sigmoid)\([^()]{0,40}\)", last) else ""


RETURNS_OWN_MODULE = lazy_regex.compile(r"(?m)\breturn\s+self\.(\w+)\((?:[^()\n]|\((?:[^()\n]|\([^()\n]*\))*\))*\)"
                                        r"(?=" + _HIDDEN_STATE_AFTER + r"[ \t]*(?:#[^\n]*)?$)")


# ... or said in words: "my classifier ends with nn.Softmax(dim=1)", "the network ends with a sigmoid",
# segmentation_models_pytorch's `activation="softmax2d"` (applied in its forward)
# (the model's end, not a softmax somewhere in it: "ends with nn.Softmax in attention"; its call's brackets are taken
# whole, or the match stops short of them and the lookahead sees the bracket -- an atomic group needs Python 3.11)
MODEL_ENDS_SAID = lazy_regex.compile(r"(?i)\b(?:model|network|net|mlp|cnn|head|classifier|unet|decoder|it|that|which)\s+"
                                     r"(?:(?!(?:not|never|no)\b)\w+\s+){0,2}?"
                                     r"(?:ends?|ending)\s+(?:in|with)\s+(?:an?\s+)?`?(?:torch\.)?(?:nn\.)?(?:sigmoid|softmax)"
                                     r"(?:2d)?\b(?:\([^()\n]{0,60}\))?(?!\(|`?\s+(?:in|inside|within)\b)|"
                                     # (the output's activation: smp's `activation` argument, or one said to be the last)
                                     r"\bactivation\s*(?:=|set\s+to)\s*['\"]?softmax2d\b|"
                                     r"\b(?:final|last|output)\s+activation\s*(?:=|is|set\s+to)\s*['\"]?(?:softmax2d|softmax|sigmoid)\b|"
                                     # (or the model said to return probabilities: "the model returns class probabilities" --
                                     # not log-probabilities, which a cross-entropy takes as it takes logits)
                                     r"\b(?:model|network|net|classifier|forward(?:\(\))?)\s+(?:(?!(?:not|never|no)\b)\w+\s+){0,3}?"
                                     r"(?:returns?|outputs?|produces?)\s+(?:the\s+)?(?:class\s+|softmax\s+|predicted\s+)?"
                                     r"probabilit(?:y|ies)\b|"
                                     # (or the loss said to be computed on them: "BCEWithLogitsLoss on the output of a
                                     # sigmoid", "CrossEntropyLoss on the softmax outputs" -- a loss named before it, not a
                                     # metric or a threshold on them; the loss the paste names is the one read with it)
                                     r"\b(?:\w*loss\w*|criterion|bce\w*|\w*cross_?entropy\w*)\b[^.;\n]{0,40}?"
                                     r"\bon\s+(?:the\s+)?(?:outputs?\s+of\s+(?:an?\s+|the\s+|my\s+)?`?(?:torch\.)?(?:nn\.)?"
                                     r"(?:sigmoid|softmax)\b|(?:sigmoid|softmax)(?:ed)?\s+(?:outputs?|probabilit(?:y|ies))\b)|"
                                     # (or said to return a sigmoid's or a softmax's call, whose result is not used further:
                                     # "the net outputs F.softmax(self.fc(h), dim=1) for the loss" -- the model's, not
                                     # an attention's or a gate's, which NOT_FORWARDS turns away in its sentence)
                                     r"(?P<call>\b(?:model|network|net|classifier|forward(?:\(\))?)\s+(?:(?!(?:not|never|no)\b)\w+\s+){0,2}?"
                                     # (nor weights it hands on: "returns softmax(u) as weights over the inputs")
                                     r"(?:returns?|outputs?)\s+`?" + _PROBABILITY_CALL + r"(?!\s*[@*/+-])(?![^.;\n]{0,20}\b(?:as|over)\b))")


# (the model as trained, not at inference or in serving: "at inference the model returns probabilities"; nor where the
# words say the loss gets the logits)
NOT_TRAINED_OUTPUT = lazy_regex.compile(r"(?i)\b(?:infer\w*|predict\w*|eval\w*|serv\w*|export\w*|deploy\w*|test\s+time)\b")
LOSS_ON_LOGITS = lazy_regex.compile(r"(?i)\bon\s+the\s+(?:raw\s+)?logits\b|from_logits\s*=\s*true")


def model_ends_said(prose: str) -> re.Match | None:
    """The words that say the model ends in a sigmoid or a softmax (MODEL_ENDS_SAID), told and not denied, not of
    inference nor beside words that the loss takes the logits; or None."""
    text = told(prose)
    if LOSS_ON_LOGITS.search(text):
        return None
    for m in itertools.islice(MODEL_ENDS_SAID.finditer(text), 10):
        sentence = sentence_around(text, m.start(), m.end())
        # (a call said returned is an attention's, a gate's or a helper's where its sentence names one)
        if not (denied_before(text, m.start(), reach=30) or NOT_TRAINED_OUTPUT.search(text, *sentence)
                or m.group("call") and NOT_FORWARDS.search(text, *sentence)):
            return m
    return None


# (the line that opens a block of code names forward and ends in a colon: "the last lines of my forward:", "forward():"; not a
# helper's, an attention's or a gate's that forward calls)
FORWARD_HEADER = lazy_regex.compile(r"(?i)\b(?:forward|__call__)\b(?:\(\s*\))?[^.\n]{0,40}?:\s*$")
NOT_FORWARDS = lazy_regex.compile(r"(?i)\b(?:helper|attention|gate|gating|router|routing|experts?|moe|mixture|pointer|calls?|"
                                  r"called)\b")
FORWARD_SAID_LINES = 12
FENCE = lazy_regex.compile(r"[ \t]*(?:```|~~~)")


def _block_said_forward(prose: str, at: int) -> bool:
    """Is the block of code that holds `at` -- its indented lines, or the lines of the Markdown fence it is in -- opened
    by a line that says it is forward's (FORWARD_HEADER), with no `def` of another function between them?"""
    above = prose[:prose.rfind("\n", 0, at) + 1].split("\n")[:-1]
    fenced = sum(1 for line in above if FENCE.match(line)) % 2 == 1      # (the return inside a fence)
    for line in reversed(above[-FORWARD_SAID_LINES:]):
        if not line.strip():
            continue
        if FENCE.match(line):
            fenced = False              # (the fence's opening line: the header is the line above it)
            continue
        if fenced or line[:1] in " \t":
            if re.match(r"\s*(?:async\s+)?def\s", line):
                return False
            continue
        return bool(FORWARD_HEADER.search(line)) and not NOT_FORWARDS.search(line)
    return False


# ... or a segmentation_models_pytorch model built with an output activation (`smp.Unet(..., activation="sigmoid")`):
# its segmentation head applies it in forward() (since smp 0.1; before, only predict() did), so the model returns
# probabilities. Not "logsoftmax", whose log-probabilities a cross-entropy takes as it takes logits (a log-softmax of
# them is unchanged), nor an activation inside `aux_params=dict(...)`, the classification head's
SMP_BUILT = lazy_regex.compile(r"\bsmp\.\w+\(")
SMP_ACTIVATION = lazy_regex.compile(r"\bactivation\s*=\s*['\"](?:sigmoid|softmax2d|softmax)['\"]")
SMP_CALL_REACH = 600


def _smp_activation(prose: str) -> re.Match | None:
    """The output activation an smp model's constructor is given, within its call; or None."""
    for built in itertools.islice(SMP_BUILT.finditer(prose), 5):
        start = built.end()
        # (the constructor's own arguments, not a nested call's: `aux_params=dict(activation=...)`)
        for arg in arguments(prose, built.end() - 1, SMP_CALL_REACH, across_lines=True) or []:
            if (found := SMP_ACTIVATION.match(prose, start + len(arg) - len(arg.lstrip()))) is not None:
                return found
            start += len(arg) + 1
    return None


# A GAN's paste: its loss is applied to the discriminator's output, not to the generator's image (which ends in a sigmoid
# or a tanh to be an image), so only a discriminator's sigmoid pairs with it
# (a GAN by its own words: not a "generator" alone, which names a seq2seq model's output layer in OpenNMT, nor a word
# that ends in "gan", "began", "organ")
GAN_NAMED = lazy_regex.compile(r"(?i)\bgan_type\b|\bGANLoss\b|\bdiscriminator\b|\bnet_?D\b|\b(?:" + GAN_FAMILY + r")\b")
DISCRIMINATOR_NAME = lazy_regex.compile(r"(?i)disc|critic|^net_?d$|^d$|^D_")
GENERATOR_NAME = lazy_regex.compile(r"(?i)^(?:net_?g|g|gen|generator)$|generator|^gen_|_gen$")
# (not PyTorch's random-number Generator, `generator=torch.Generator()`)
NETWORK_WORD = lazy_regex.compile(r"(?i)(?<!torch\.)(?<!\.)\b(?:(?P<d>discriminator|critic|net_?D)|generator|net_?G)\b(?!\s*=)")


def output_of_generator(prose: str, shown: str) -> bool:
    """In a GAN's paste, is the output `shown` (as model_output found it) the generator's wherever the paste writes it:
    the class it ends, or the name it is built under, names the generator; or, naming neither network, the nearest
    network the text names before it is the generator? (A discriminator that ends the same way is one written so.)"""
    if not GAN_NAMED.search(prose):
        return False
    places = [m.start() for m in re.finditer(re.escape(shown), prose)] or [0]
    return all(_generator_at(prose[:at]) for at in places)


def _generator_at(before: str) -> bool:
    """Is the network whose code ends where `before` ends the generator (see output_of_generator)?"""
    owner = None
    for owner in re.finditer(r"(?m)^[ \t]*class\s+(\w+)|^[ \t]*(?:self\.)?(\w+)\s*=\s*(?:torch\.)?nn\.Sequential\(",
                             before):
        pass
    name = (owner.group(1) or owner.group(2)) if owner else ""
    if DISCRIMINATOR_NAME.search(name):
        return False
    if GENERATOR_NAME.search(name):
        return True
    nearest = None
    for nearest in NETWORK_WORD.finditer(before):
        pass
    return nearest is not None and nearest.group("d") is None


RECURRENT = lazy_regex.compile(r"\b(?:nn\.)?(?:RNN|LSTM|GRU)(?:Cell)?\(|\bself\.(?i:lstm|gru|rnn)\w{0,10}\(")


STATE_AFTER = lazy_regex.compile(_STATE + r"[ \t]*(?:#[^\n]*)?$")


def _state_unshown(found: re.Match, prose: str, text: str) -> bool:
    """Does the return carry a state after its probabilities (`, h`) in a paste that builds no recurrent layer, whose
    state it would be? (Then the second may be the logits, `return F.softmax(h, dim=1), h`.)"""
    end = text.find("\n", found.end())
    line = found.group(0).rstrip("`") + text[found.end():end if end >= 0 else len(text)]
    return bool(STATE_AFTER.search(line)) and not RECURRENT.search(prose)


def model_output(prose: str) -> re.Match | None:
    """The pasted model's probabilities as its output: a Sequential that ends in nn.Sigmoid() or nn.Softmax(), or what
    the last forward() pasted returns (its block: to the next `def` or `class` at its indentation or less), or, with no
    forward() pasted, the return a sentence about the forward quotes."""
    last = None
    for last in re.finditer(r"(?m)^([ \t]*)def forward\(", prose):
        pass
    if last is None:
        # (Flax's modules compute in __call__: one of a class built on nn.Module, not a predictor's or a helper's)
        for called in re.finditer(r"(?m)^([ \t]*)def __call__\(", prose):
            header = list(re.finditer(r"(?m)^[ \t]*class\s+\w+\s*(?:\(([^)\n]*)\))?\s*:", prose[:called.start()]))
            if header and "Module" in (header[-1].group(1) or ""):
                last = called
    if last is not None:
        end = re.compile(r"(?m)^[ \t]{0,%d}(?:def|class)\b" % len(last.group(1))).search(prose, last.end())
        block = prose[last.start():end.start() if end else len(prose)]
        found = TORCH_PROBABILITY_OUT.search(block)
        if found and not found.group(0).startswith("nn.") and not _state_unshown(found, prose, block):
            return found
        # (or a module the paste built as a softmax or a sigmoid under a name of its own: `self.head =
        # nn.Softmax(dim=1)`, and forward() returns `self.head(self.net(x))`)
        called = RETURNS_OWN_MODULE.search(block)
        if called and not _state_unshown(called, prose, block) and re.search(r"\bself\.%s\s*=\s*(?:torch\.)?nn\.(?:Softmax|Sigmoid)\(" % re.escape(called.group(1)),
                                prose):
            return called
    else:       # no forward() pasted: one a sentence quotes ("the model's forward ends with `return self.softmax(...)`")
        # (or one whose block the line just above it says is forward's: "the last lines of my forward:", then those lines)
        for found in TORCH_PROBABILITY_OUT.finditer(prose):
            if found.group(0).startswith("return") and (re.search(r"forward|__call__", prose[
                    prose.rfind("\n", 0, found.start()) + 1:found.start()]) or _block_said_forward(prose, found.start())):
                return found
    # (not a module on a line commented out, `# nn.Softmax(dim=1),  # removed: CrossEntropyLoss applies it`)
    return r_model_output(prose) or next((m for m in TORCH_PROBABILITY_OUT.finditer(prose) if m.group(0).startswith(("nn.", "Chain(", *ARROW))
                 and not prose[prose.rfind("\n", 0, m.start()) + 1:m.start()].lstrip().startswith("#")),
                None) or _smp_activation(prose)


# ... or the name the paste sets to a softmax's or a sigmoid's output, handed first to a loss that applies its own:
# `prob = torch.softmax(logits, dim=1)` in the model, `loss = F.cross_entropy(prob, bin_idx)` in the step (a name's flow
# through the code, not its types). The loss called is one of those by name, or a name the code sets to one
# (`criterion = nn.CrossEntropyLoss()`); a sentence's "should I switch to BCEWithLogitsLoss?" calls nothing.
PROBABILITY_NAMED = lazy_regex.compile(r"(?m)^[ \t]*(?P<name>[A-Za-z_]\w{0,30})\s*=\s*" + _PROBABILITY_CALL)
_LOGITS_CLASS = r"(?:(?:torch\.)?nn\.)?(?:CrossEntropyLoss|BCEWithLogitsLoss)"
LOGITS_LOSS_SET = lazy_regex.compile(r"(?m)^[ \t]*(?P<name>(?:self\.)?[A-Za-z_]\w{0,30})\s*=\s*" + _LOGITS_CLASS + r"\(")


@functools.lru_cache(maxsize=4)      # (asked once for each entry whose phrases say probabilities reach the loss)
def probabilities_handed(prose: str) -> re.Match | None:
    """The assignment of a softmax's or a sigmoid's output to a name that a logits loss is then handed first
    (PROBABILITY_NAMED; the loss by name or a name set to it, LOGITS_LOSS_SET); or None."""
    return next((m for m in itertools.islice(PROBABILITY_NAMED.finditer(prose), 20)
                 if logits_loss_handed(prose, m)), None)


@functools.lru_cache(maxsize=4)
def _logits_losses(code: str) -> str:
    """The pattern of a logits loss's call in this code: the functional ones, a class called as it is built, or a name
    the code sets to one."""
    named = sorted({m.group("name") for m in itertools.islice(LOGITS_LOSS_SET.finditer(code), 20)})
    return (r"(?:F|(?:torch\.)?nn\.functional)\.(?:cross_entropy|binary_cross_entropy_with_logits)|" + _LOGITS_CLASS
            + r"\([^()\n]*\)" + "".join("|" + re.escape(n) for n in named))


# A name set, after the probabilities', to a sum or a mean of them (a volume renderer's `sem_map =
# torch.sum(weights[..., None] * sem, -2)`, an ensemble's `probs.mean(0)`): a mix of probability vectors, still no
# logits (a renderer's weights, at most 1 in all, or a mean, keep its entries in [0, 1]). Not a log, an exp or an argmax of them: CrossEntropyLoss of
# a log_softmax is right, as log_softmax is idempotent. Nor the softmax used as the weights over something else --
# attention over values, an attention pooling of instances' scores or logits, `torch.sum(a * inst_scores, dim=0)` --
# whose average of scores is scores: reduced along the very axis the softmax normalised (a mix of probability vectors
# is reduced along another), or, where an axis is not written, a product with a logit's or a value's name, or a matmul.
MIXES = lazy_regex.compile(r"\b(?:torch|np|jnp|tf)\.(?:sum|mean)\(|\.(?:sum|mean)\(|\breduce_(?:sum|mean)\(")
NOT_A_MIX = lazy_regex.compile(r"\b(?:log|exp|log1p|logsumexp|log_softmax|argmax|softmax|sigmoid|matmul|bmm|einsum)\s*\(|"
                               r"\.(?:log|exp)\(|\b(?:values?|v)\b|logit|log_?prob|@")
_AXIS = lazy_regex.compile(r"^\s*(?:dim|axis)\s*=\s*(-?\d+)\s*$|^\s*(-?\d+)\s*$")


def _axis(call: str, at: int, method: bool) -> str | None:
    """The axis a softmax or a reduction written at `at` (its bracket) names: `dim=`/`axis=`, or its positional place
    (a method's first argument, a function's second)."""
    args = arguments(call, at) or []
    named = next((m.group(1) for a in args if (m := _AXIS.match(a)) and m.group(1)), None)
    place = 0 if method else 1
    plain = _AXIS.match(args[place]) if len(args) > place else None
    return named or (plain.group(2) if plain else None)


def _reduced_along_its_softmax(set_at: re.Match, mix: re.Match) -> bool:
    """Is the mix a reduction along the axis the softmax normalised (the softmax as weights, not probabilities mixed)?"""
    line = set_at.group(0)
    soft = re.search(r"softmax\(", line)
    reduce = MIXES.search(mix.group("rhs"))
    if not soft or not reduce:
        return False
    mine = _axis(line, soft.end() - 1, False)
    theirs = _axis(mix.group("rhs"), reduce.end() - 1, reduce.group(0).startswith("."))
    return mine is not None and mine == theirs


def mixed_from(code: str, set_at: re.Match) -> re.Match | None:
    """The first later assignment that sets a name to a sum or a mean over the name `set_at` sets (MIXES), not one that
    uses the softmax as weights (NOT_A_MIX, _reduced_along_its_softmax); or None."""
    name = re.compile(r"(?<![\w.])" + re.escape(set_at.group("name")) + r"\b")
    from .weight_init import ASSIGNED       # (weight_init reads layers through modules that read this one)

    return next((m for m in itertools.islice(ASSIGNED.finditer(code, set_at.end()), 200)
                 if m.group("name") != set_at.group("name") and name.search(m.group("rhs"))
                 and MIXES.search(m.group("rhs")) and not NOT_A_MIX.search(m.group("rhs"))
                 and not _reduced_along_its_softmax(set_at, m)), None)


def handed_itself(code: str, set_at: re.Match) -> str:
    """The loss that applies its own softmax or sigmoid that the code hands the name `set_at` sets, after it, as it is
    called, or ""."""
    called = re.compile(r"(?<![\w.])(?P<loss>" + _logits_losses(code) + r")\(\s*" + re.escape(set_at.group("name"))
                        + r"\b").search(code, set_at.end())
    return called.group("loss") if called else ""


def logits_loss_handed(code: str, set_at: re.Match) -> str:
    """handed_itself, for the name `set_at` sets or else for a sum or a mean of it (mixed_from); or ""."""
    return handed_itself(code, set_at) or ((mixed := mixed_from(code, set_at)) is not None and handed_itself(code, mixed)
                                           or "")


# ... or a box predictor of torchvision's detection models (`model.roi_heads.box_predictor = MyPredictor(...)`) whose
# forward returns a softmax's output as its class scores: RoIHeads hands the predictor's first output to fastrcnn_loss,
# whose `F.cross_entropy(class_logits, labels)` applies its own log-softmax to it (https://github.com/pytorch/vision/
# blob/00d6550aeadbaf7d4e65b65589f19c16d5402c7f/torchvision/models/detection/roi_heads.py). The class is read from the
# paste: its forward's first `return`, the softmax called there or a name its block sets to one.
BOX_PREDICTOR_SET = lazy_regex.compile(r"(?m)^[^#\n]*?\b(?P<set>roi_heads\.box_predictor\s*=\s*(?P<cls>[A-Za-z_]\w{0,40}))\(")


def box_predictor_probabilities(prose: str) -> tuple[str, str] | None:
    """(the assignment of the box predictor, the code that makes its class scores a softmax's output) where the paste
    sets torchvision's box predictor to a class of its own whose forward returns probabilities first; or None. Read in
    the class's own block, at the forward's own level: not a softmax under an `if` (`if not self.training:`), nor one
    that a later line at that level replaces."""
    if not (chosen := BOX_PREDICTOR_SET.search(prose)):
        return None
    header = re.search(r"(?m)^([ \t]*)class[ \t]+%s\b[^\n]*:[ \t]*$" % re.escape(chosen.group("cls")), prose)
    if header is None:
        return None
    block = block_under(prose, header.end() + 1, len(header.group(1)), 200)
    at = next((k for k, line in enumerate(block) if re.match(r"[ \t]*def forward\(", line)), None)
    if at is None:
        return None
    body = [line for line in block_under("\n".join(block), len("\n".join(block[:at + 1])) + 1, indent(block[at]), 60)
            if line.strip() and not line.lstrip().startswith("#")]
    level = indent(body[0]) if body else 0
    returned = next((k for k, line in enumerate(body) if indent(line) == level and re.match(r"[ \t]*return\b", line)),
                    None)
    if returned is None:
        return None
    first = _first_of(body[returned].strip()[len("return"):])
    assigned = chosen.group("set")
    if re.fullmatch(_PROBABILITY_CALL, first):
        return assigned, body[returned].strip()
    # (the last line at the forward's own level that sets the name, before the return; none under a deeper block)
    sets = [line for line in body[:returned] if re.match(r"[ \t]*%s\s*=(?!=)" % re.escape(first), line)]
    if not sets or indent(sets[-1]) != level or any(indent(line) > level for line in sets):
        return None
    made = PROBABILITY_NAMED.match(sets[-1])
    if made and made.group("name") == first:
        return assigned, sets[-1].strip()
    # (or set by a module of the class's own that ends in a softmax or a sigmoid: `scores = self.cls_score(x)`, where
    # `self.cls_score = nn.Sequential(..., nn.Linear(512, num_classes), nn.Softmax(dim=1))`)
    called = re.match(r"[ \t]*%s\s*=\s*self\.(\w+)\(" % re.escape(first), sets[-1])
    ends = _module_ends_in_probabilities("\n".join(block), called.group(1)) if called else ""
    return (assigned, f"{sets[-1].strip()}, where self.{called.group(1)} ends in {ends}") if ends else None


def _module_ends_in_probabilities(block: str, name: str) -> str:
    """The softmax or the sigmoid, as written, that the class's block sets `self.<name>` to, or that ends the Sequential
    it sets it to; or ""."""
    for made in itertools.islice(re.finditer(r"\bself\.%s\s*=\s*(?:torch\.)?(?:nn\.)?(?P<what>Sequential|Softmax|Sigmoid)\("
                                              % re.escape(name), block), 3):
        if made.group("what") != "Sequential":
            return " ".join(block[made.start("what") - (3 if block[:made.start("what")].endswith("nn.") else 0):
                                  block.find(")", made.end()) + 1].split())
        args = sequential_layers(block, made.end() - 1, reach=2000)
        if args and (last := re.match(r"(?:torch\.)?(?:nn\.)?(?:Softmax|Sigmoid)\([^()]*\)", args[-1])):
            return last.group(0)
    return ""


def _first_of(returned: str) -> str:
    """The first of the values a return gives (`scores, deltas` -> `scores`; `(F.softmax(z, dim=-1), d)` ->
    `F.softmax(z, dim=-1)`): its first argument read as a call's, a tuple's brackets opened first."""
    values = arguments(f"({returned.strip()})", 0) or [returned]
    if len(values) == 1 and values[0].strip().startswith("("):
        values = arguments(values[0].strip(), 0) or values
    return values[0].strip()


# PyTorch's NLL loss takes log-probabilities and returns minus the label's (nn.NLLLoss, F.nll_loss); handed a
# softmax's probabilities it returns minus the label's probability, between -1 and 0, whatever the labels: a negative
# loss that falls towards -1 as the model learns (WR-130's page, its snippet's -0.0960 at epoch 0).
NLL_LOSS = lazy_regex.compile(r"(?<![\w.])(?:nn\.NLLLoss\(|(?:F\.|functional\.)?nll_loss\()")


def nll_of_probabilities(ev: Evidence) -> str:
    """The fact, when the loss goes below zero, no lower than -1, beside a PyTorch NLL loss and a pasted model that
    outputs a softmax (model_output), else ""."""
    out = model_output(ev.prose) if ev.low is not None and -1.0 <= ev.low < 0 else None
    loss = NLL_LOSS.search(ev.prose) if out is not None and "softmax" in out.group(0).lower() else None
    if loss is None:
        return ""
    return (f"the loss goes below zero, to {fmt(ev.low)}, beside `{loss.group(0).rstrip('(')}` and a model that outputs "
            f"a softmax (`{' '.join(out.group(0).split())}`): the NLL loss takes log-probabilities and returns minus the "
            "label's, so handed probabilities it returns minus the label's probability, between -1 and 0")


# The PyTorch DCGAN example's line, which its tutorial and many GANs copy: `Loss_D: 1.0116 Loss_G: 0.6903 D(x): 0.9941
# D(G(z)): 0.0062 / 0.0060` (pytorch/examples dcgan/main.py). The number after the slash is the mean of the
# discriminator's outputs on the batch the generator's loss was computed on, against the real label. A BCE of those
# outputs, handed as probabilities, is at least -log of their mean (Jensen: -log is convex), above ln 2 once that mean
# is below 0.5; a loss that applies its own sigmoid to them (BCEWithLogitsLoss) gives log(1 + e^-p) instead, at least
# log(1 + e^-mean) (Jensen again) and never above ln 2 whatever the discriminator says. A Loss_G in that window on
# every line whose D(G(z)) is SIGMOID_TWICE_BELOW or less -- SIGMOID_TWICE_LINES of them at least -- is consistent with
# the pairing only: the window is where it lands, not proof. So it is refused where anything else explains it:
# - a D(x) or D(G(z)) below 0 or above 1 on any line: the outputs printed are logits, and BCEWithLogitsLoss on logits
#   is the right pairing (its loss near ln 2 at a mean logit near 0);
# - another loss or no sigmoid named: an LSGAN's MSELoss, a hinge loss, "logits", a sigmoid said removed;
# - a D(G(z)) above 0.15, where an MSE against 1, (1 - z)^2, is itself below ln 2 and would land there too;
# - a D(x) below SIGMOID_TWICE_SURE on a line counted: the failure's discriminator saturates, its D(x) near 1 while its
#   D(G(z)) nears 0 -- a logits discriminator near its balance prints small means on both, in the same window.
_SIGNED = r"-?\d+(?:\.\d+)?"
DCGAN_LINE = lazy_regex.compile(r"Loss_G:\s*(?P<g>" + _SIGNED + r")\s+D\(x\):\s*(?P<x>" + _SIGNED + r")\s+D\(G\(z\)\):\s*"
                                r"(?P<z1>" + _SIGNED + r")\s*/\s*(?P<z>" + _SIGNED + r")")
SIGMOID_TWICE_BELOW, SIGMOID_TWICE_LINES, SIGMOID_TWICE_SURE = 0.15, 3, 0.8
PRINTED_HALF_PLACE = 5e-5       # half the last place of a number printed with %.4f
OTHER_GAN_LOSS = lazy_regex.compile(r"(?i)\bMSELoss\b|\bmse_loss\b|\blsgan\b|least[ -]squares|\bhinge\b|\blogits?\b|"
                                    r"(?:remov\w*|dropp\w*|without|no)\s+(?:the\s+)?(?:final\s+|last\s+)?(?:nn\.)?sigmoid")


def sigmoid_twice_printed(prose: str) -> str:
    """The fact, where DCGAN's lines print a generator's loss that no BCE of the printed outputs can give and a BCE
    with its own sigmoid does (DCGAN_LINE), and nothing else explains it, else ""."""
    lines = list(itertools.islice(DCGAN_LINE.finditer(prose), 5000))
    if any(not 0 <= float(m.group(k)) <= 1 for m in lines for k in ("x", "z1", "z")) or OTHER_GAN_LOSS.search(prose):
        return ""
    sure = [(float(m.group("g")), float(m.group("z"))) for m in lines if 0 < float(m.group("z")) <= SIGMOID_TWICE_BELOW
            and float(m.group("x")) >= SIGMOID_TWICE_SURE]
    counted_lines = sum(0 < float(m.group("z")) <= SIGMOID_TWICE_BELOW for m in lines)
    # (every line counted saturated, in the window, and enough of them)
    if len(sure) < max(SIGMOID_TWICE_LINES, counted_lines) or not all(
            math.log1p(math.exp(-z)) - PRINTED_HALF_PLACE <= g <= math.log(2) + PRINTED_HALF_PLACE for g, z in sure):
        return ""
    g, z = sure[-1]
    return (f"the DCGAN lines print Loss_G {g:.4f} beside D(G(z)) {z:.4f}: a BCE of the discriminator's probabilities "
            f"against the real label is at least -log {z:.4f} = {-math.log(z):.3g} (-log of their mean: Jensen), and "
            f"on all {counted(len(sure), 'line')} whose D(G(z)) is {SIGMOID_TWICE_BELOW:g} or less the loss sits "
            f"between log(1 + e^-D(G(z))) ({math.log1p(math.exp(-z)):.4f} here) and ln 2, where a loss that applies its "
            "own sigmoid to probabilities puts it: consistent with a discriminator that ends in a sigmoid, handed to "
            "BCEWithLogitsLoss")


# A CTC loss is minus the log of the summed probability of the target's alignments to the frames, so it is at or
# above zero whenever it is handed what it takes: log-probabilities for PyTorch's CTCLoss (its docstring's Shape,
# Log_probs: "The logarithmized probabilities of the outputs (e.g. obtained with
# :func:`torch.nn.functional.log_softmax`).", torch/nn/modules/loss.py). Below zero, the frames' values were not
# log-probabilities (raw logits, or probabilities, whose exps sum past 1): the loss was handed what it does not take,
# as an NLL loss handed probabilities is (WR-130's page).
# (PyTorch's CTC only, by its own name whatever else the paste names, or a bare "CTC": Keras's ctc_batch_cost takes a
# softmax's probabilities, logs them and hands them to TensorFlow's ctc_loss, which applies its own softmax, so neither
# goes below zero whatever it is handed -- a negative total there is a term added to it; nor where the paste shows the
# log_softmax over the classes that makes the frames log-probabilities)
TORCH_CTC = lazy_regex.compile(r"\b(?:nn\.)?CTCLoss\b|\b(?:F|functional|torch)\.ctc_loss\b")
TF_CTC = lazy_regex.compile(r"(?i)\bctc_batch_cost\b|\btf\.(?:compat\.v1\.)?nn\.ctc_loss\b|\bkeras\.(?:ops|losses)\.ctc\w*")
# (a log_softmax over the classes, the last axis of PyTorch's (T, N, C): the frames are log-probabilities then)
LOG_SOFTMAX_OVER_CLASSES = lazy_regex.compile(r"\blog_softmax\([^()\n]{0,80}?(?:dim\s*=\s*(?:-1|2)|,\s*(?:-1|2)\s*)\)|"
                                              r"\bLogSoftmax\(\s*(?:dim\s*=\s*)?(?:-1|2)\s*\)")
def ctc_below_zero(ev: Evidence) -> str:
    """The fact, when a PyTorch CTC loss named in the paste goes below zero (printed, or said), else ""."""
    named = TORCH_CTC.search(ev.prose) or (CTC_NAMED.search(ev.prose) if not TF_CTC.search(ev.prose) else None)
    if named is None or LOG_SOFTMAX_OVER_CLASSES.search(ev.prose):
        return ""
    if not (ev.low is not None and ev.low < 0) and negative_said(ev.prose) is None:
        return ""
    low = f", to {fmt(ev.low)}," if ev.low is not None and ev.low < 0 else ""
    return (f"the loss goes below zero{low} beside a CTC loss (`{named.group(0)}`): CTC is minus the log of the summed "
            "probability of the target's alignments, never below zero when it is handed log-probabilities (a "
            "log_softmax over the classes at each frame, as PyTorch's CTCLoss takes them); below zero, what reached it "
            "were not log-probabilities (raw logits, or probabilities), whose exps can sum past 1")


# The first step of the fix for what the loss was handed, where it is not WR-130's usual one (hand the loss the logits):
# the NLL loss and the CTC loss take log-probabilities
HANDED_FIX = {
    "nll-of-probabilities": "Make the model end in a log_softmax instead of a softmax (`F.log_softmax(x, dim=1)`), "
                            "which is what nn.NLLLoss takes, or drop the softmax and train on the logits with "
                            "nn.CrossEntropyLoss.",
    "ctc-not-log-probabilities": "Put a log_softmax over the classes between the model's output and the CTC loss "
                                 "(`log_probs = F.log_softmax(logits, dim=-1)`): nn.CTCLoss takes log-probabilities "
                                 "and uses them as they are.",
}


NEGATIVE = next(n for n in NORMALS if n.name == "negative loss")


# Binary targets printed outside [0, 1] beside a binary cross-entropy: a mask's unique values `array([  0, 255])`
# (np.unique, torch.unique), or the words "the masks are 0 and 255" -- in a sentence about the masks, labels or targets.
# BCE's -(y log p + (1 - y) log(1 - p)) with y = 255 goes below zero as p nears 1 (254 log(1 - p) has no floor), the
# negative loss WR-320's targets make; a cross-entropy over class indices takes 255 as a class, and is not read so.
BINARY_LOSS = lazy_regex.compile(r"binary_cross_?entropy\w*|\bBCE\w*Loss\b|\bBCE\b", re.I)
TARGETS_0_255 = lazy_regex.compile(r"(?:array|tensor)\(\[\s*0\.?\s*,\s*255\.?\s*\]|\[\s*0\.?\s+255\.?\s*\]|"
                                   r"\b0\s*(?:and|or|/)\s*255\b")
TARGET_WORDS = lazy_regex.compile(r"\b(?:masks?|labels?|targets?|ground[ -]?truth|gt|y)\b", re.I)
# ... not where the paste brings them to 0/1 (divided by 255, thresholded), nor beside a loss written as minus an
# overlap score (run_said.MINUS_SCORE), which goes below zero whatever the targets
TARGETS_MADE_BINARY = lazy_regex.compile(r"/=?\s*255\b|>=?\s*\d+|\bthreshold\w*|\bbinari[sz]\w*", re.I)


def _targets_0_255(prose: str) -> str:
    """The words that print or say binary targets of 0 and 255 beside a binary cross-entropy, or ""."""
    if not BINARY_LOSS.search(prose) or TARGETS_MADE_BINARY.search(prose) or MINUS_SCORE.search(prose):
        return ""
    return next((" ".join(m.group(0).split()) for sentence, _ in sentences_and_ends(prose)
                 if TARGET_WORDS.search(sentence) for m in TARGETS_0_255.finditer(sentence)), "")


def impossible_negative(ev: Evidence, words: list[str], handed: bool = False) -> str:
    """Why a loss below zero in this report cannot be normal, or "" when it can (or none is reported). (`handed`: the
    paste's facts show the loss was handed what it does not take -- nll_of_probabilities, ctc_below_zero -- which, not
    the targets, takes it below zero)"""
    if handed:
        return ""
    out_of_range = score_out_of_range(ev.prose)
    if out_of_range:
        return f"an overlap score outside [0, 1] (`{out_of_range}`): the targets are not in [0, 1]"
    negative = negative_shown(ev, words)
    targets = _targets_0_255(ev.prose) if negative else ""
    if targets:
        return (f"the loss goes below zero beside a binary cross-entropy whose targets the paste shows as 0 and 255 "
                f"(`{targets}`): with a target above 1 its -(y log p + (1 - y) log(1 - p)) has no floor")
    # (not where the loss read is a policy's, an actor's, in a paste that computes it as policy gradients do: minus
    # the log-probability of the actions taken times their advantages, below zero whenever the advantages are, whatever
    # squared error the critic beside it takes -- not an actor trained by behaviour cloning's cross-entropy)
    if negative and loss_kind(ev.prose) == "bounded" \
            and not (POLICY_LOSS.search(ev.loss_named[0]) and POLICY_GRADIENT.search(ev.prose)):
        return ("the loss goes below zero, and the loss named here (cross-entropy, BCE, 1 - Dice, a squared "
                "error) cannot with valid targets")
    return ""


# (a word of the name: `actor_loss`, `loss_pg`, `train/policy_loss`; not `factor_loss`, `epg_loss`)
POLICY_LOSS = lazy_regex.compile(r"(?i)(?<![a-z])(?:actor|policy|pi|pg)(?![a-z])")
POLICY_GRADIENT = lazy_regex.compile(r"\blog_probs?\b|\.log_prob\(|\badvantages?\b|\badvs?\b|\bratio\b")


def negative_shown(ev: Evidence, words: list[str]) -> bool:
    """Do the values, or the words (not denied), say the loss went below zero?"""
    return (ev.low is not None and ev.low < 0) or negative_said(ev.prose) is not None


def own_normaliser(loss: str) -> str:
    """What a loss that takes logits (TORCH_LOGITS_LOSS, as the paste writes it) applies to them itself: a binary one
    log-sigmoid, a categorical one log-softmax (a GAN's "vanilla" loss is BasicSR's BCEWithLogitsLoss)."""
    low = loss.lower()
    if "binary" in low or "bce" in low or "sigmoid" in low or "vanilla" in low:
        return "log-sigmoid"
    return "log-softmax" if "entropy" in low else "log-sigmoid or log-softmax"
