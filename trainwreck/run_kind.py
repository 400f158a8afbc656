"""What kind of run a report shows: the frameworks it ran on (named, or shown by code only their API writes), and
whether it trains a classifier or a regression, with the regression's model (linear or layered) and its loss (a
squared or an absolute error, a sum).

Other readings hang on these: a classifier has no targets in raw units to leave unscaled, a summed loss is enormous
whatever its targets, and a float32 framework moves the point where exp overflows.
"""
from __future__ import annotations

import functools
import re

from .class_count import as_task
from .curve_shape import LOSS_SUMMED
from .logscan import Evidence
from .run_said import losses_built
from .sentences import told
from .weight_init import LAYERS_BUILT
from . import lazy_regex

# The entries whose phrases are about regression targets: a report of a classifier (a softmax or a cross-entropy
# named, an accuracy printed beside the loss) and of no regression counts as much as a declared message against them
# -- a classifier has no targets in raw units to leave unscaled.
REGRESSION_WORDS = {"regression", "label"}
# (not the word "accuracy": a regression compiled with metrics=['accuracy'] prints one, at 0)
# (a dataset as the task, not as its statistics or its weights, which any backbone's inputs or start may borrow:
# "normalized with the ImageNet mean/std", "ImageNet-pretrained", `weights="imagenet"`)
CLASSIFIER = lazy_regex.compile(r"\b(?:softmax|log_?softmax|cross[ _-]?entropy\w*|(?:binary_|categorical_)?crossentropy\w*|nll_?loss|classifier|"
                                r"top-?[15])\b|" + as_task(r"mnist|cifar-?\d*|imagenet"), re.I)
# ... a regression: its words, or one output unit (`Dense(1)`, `Linear(64, 1)`: a classifier has one per class, or
# one sigmoid for two -- not a `Dense(1, activation='sigmoid')`, that one sigmoid, on its line before any comment)
REGRESSOR = lazy_regex.compile(r"\b(?:(?<!logistic )(?<!logistic-)regress\w*|mse\w*|mean[ _-]squared|squared[ _-]error|l[12][ _-]?loss|mae|targets? in)\b|"
                               r"price|predicting (?!(?:the |an? |which )?(?:class|label|categor|digit|whether|one of))\w+|\bDense\(\s*1\s*(?:\)|,(?![^\n#]{0,120}?\bsigmoid\b))|"
                               r"\bLinear\([^()\n]{0,40},\s*1\s*\)|out_features\s*=\s*1\b", re.I)
# ... a regression said in words, with no word of a classifier's or of a sigmoid's: what no entry about a loss handed
# probabilities can explain (one output unit alone is no regression here: a binary classifier has one too)
# a loss of the error's size, not its square (MAE, L1, Huber and smooth L1 far from 0), named as the loss -- not a
# metric column beside it (Keras's `mae: 1.8e5` beside an MSE)
ABSOLUTE_LOSS = lazy_regex.compile(r"\bloss\s*=\s*['\"](?:mae|mean_absolute_error|huber\w*)['\"]|\bnn\.(?:L1Loss|SmoothL1Loss|HuberLoss)\("
                                   r"|\bF\.(?:l1_loss|smooth_l1_loss|huber_loss)\(|\blosses\.(?:MeanAbsoluteError|Huber)\("
                                   r"|\b(?:mae|l1|mean absolute error|huber) loss\b|\bloss (?:is|was) (?:the |an? )?(?:mae|l1|mean absolute "
                                   r"error|huber)\b", re.I)
# a loss summed over the examples (or the pixels) instead of averaged: enormous whatever the targets' units -- set so in
# the code (curve_shape.LOSS_SUMMED) or said
SUMMED = lazy_regex.compile(LOSS_SUMMED.pattern + r"|\bsum(?:med)? (?:of|over) (?:the |all )?"
                            r"(?:per[- ]\w+ )?(?:\w+ )?(?:losses|errors|examples|samples|pixels|cross-?entropies)|\b(?:the )?sum,? not "
                            r"the mean|\bsummed\b|np\.sum\(|tf\.reduce_sum\(", re.I)
# A model with no hidden layer (with schedule_said.ADAPTIVE, the optimisers whose step does not grow with the gradient:
# printed_facts' raw targets that climbed)
LINEAR_MODEL = lazy_regex.compile(r"\blinear[ _-]?regression\b|\bLinearRegression\b|\bSGDRegressor\b", re.I)
SQUARED_BUILT = lazy_regex.compile(r"(?i)mse|mean_?squared")
ABSOLUTE_BUILT = lazy_regex.compile(r"(?i)(?:smooth_?)?l1\w*|huber\w*|mae\b|mean_?absolute_?error")


# A model that gives back pictures (an autoencoder, a learned codec, a denoiser, a super-resolution or inpainting
# network): its squared error is taken against images, the very pixels it reads (or a cleaner copy of them), so the
# targets' scale is the inputs' -- said by the task's names
IMAGE_TO_IMAGE = lazy_regex.compile(r"(?i)\bauto-?encoders?\b|\bvae\b|\bvariational auto|\b(?:image|video|learned|neural) "
                                    r"(?:compression|codecs?)\b|\bcompressai\b|\bhyperprior\b|\bdenois(?:ing|ers?)\b|"
                                    r"\bsuper-?resolution\b|\binpaint\w*|\bdeblur\w*|\bimage[- ]to[- ]image\b|\bpix2pix\b|"
                                    r"\breconstruct(?:s|ing)?\s+the\s+(?:clean\s+|original\s+)?(?:input|image|frame|picture)s?\b|"
                                    r"\breconstructions?\s+(?:come|look|are)\b")
# ... unless the paste gives it a target of another kind: a regression head, something it predicts, a depth map
OTHER_TARGET = lazy_regex.compile(r"(?i)\bregression\s+head\b|\bpredict(?:s|ing)?\s+(?:the\s+)?(?:sale\s+)?(?:price|age|depth|count|"
                                  r"score|rating|value|label)s?\b|(?<!bit )(?<!bit-)(?<!color )(?<!colour )\bdepth\s+(?:maps?|heads?|targets?|"
                                  r"values?)\b")


def absolute_loss(prose: str) -> bool:
    """Is the regression's loss an absolute error (L1, MAE, Huber's tails)? The loss the code trains on decides (a
    `compile(loss="mse")` beside a question about Huber is a squared error); else the words."""
    built = losses_built(prose)
    if built:
        return any(ABSOLUTE_BUILT.match(n) for n in built) and not any(SQUARED_BUILT.search(n) for n in built)
    return bool(ABSOLUTE_LOSS.search(prose))


# A network of hidden layers said in words: "a Flax MLP 90 -> 256 -> 128 -> 1", "two hidden layers"
LAYERED_SAID = lazy_regex.compile(r"(?i)(?<!no )(?<!without )(?<!zero )(?<!0 )\bhidden layers?\b|"
                                  r"(?<!try )(?<!trying )(?<!tried )(?<!not )(?<!n't )(?<!would )\b(?:my|our|the|a|an)\s+(?:[\w-]+\s+){0,2}MLP\b|"
                                  r"\b\d+\s*(?:->|→)\s*\d+\s*(?:->|→)\s*\d+")


def linear_model(prose: str) -> bool:
    """Is the model a linear one: named so, in a paste that builds no network of two layers or more, in code or in
    words (a linear regression named as the baseline beside an MLP is not the model)?"""
    return bool(LINEAR_MODEL.search(prose)) and len(LAYERS_BUILT.findall(prose)) < 2 \
        and not LAYERED_SAID.search(told(prose))


# (and a squared error written out between a prediction and a target, in its common spellings: `mean((pred - y) **
# 2)`, `((pred - y) ** 2).mean()`, `(preds - targets).pow(2).mean()`, `jnp.square(pred - y)` -- not between two
# outputs, a consistency or a distillation term: `(outputs - ema_outputs) ** 2`)
_PRED = r"(?:[\w.]*pred\w*|y_?hat|outputs?|out|model\([^()\n]{0,30}\))"
_TARGET = r"(?:y(?:_(?:true|train|batch|b|target))?|targets?|labels?|gt|batch\[[^\]\n]{1,30}\])"
_DIFFERENCE = r"(?:" + _PRED + r"\s*-\s*" + _TARGET + r"|" + _TARGET + r"\s*-\s*" + _PRED + r")"
REGRESSION_SAID = lazy_regex.compile(r"(?<!logistic )(?<!logistic-)regress\w*|\b(?:mse\w*|mean[ _-]?squared\w*|squared[ _-]error|mae|prices?)\b|"
                                     r"\(\s*" + _DIFFERENCE + r"\s*\)\s*(?:\*\*\s*2\b|\.pow\(\s*2\s*\))|"
                                     r"\bsquare\(\s*" + _DIFFERENCE + r"\s*\)", re.I)
PROBABILITY_WORDS = lazy_regex.compile(r"\b(?:sigmoid|bce\w*|binary|logits?|probabilit\w*)\b", re.I)


def classifier_shown(ev: Evidence) -> str:
    """What shows a classifier's run (an accuracy printed beside the loss, or a softmax, a cross-entropy, a
    classification dataset named), when nothing names a regression; else ""."""
    if REGRESSOR.search(ev.prose):
        return ""
    if ev.accuracy_head and max(ev.accuracy_head + ev.accuracy_tail) > 0:
        # (an accuracy of 0 on every line is a regression's, compiled with metrics=['accuracy'])
        return "the log prints an accuracy beside the loss"
    named = CLASSIFIER.search(ev.prose)
    return f"the report names `{named.group(0)}`" if named else ""


# A sigmoid (or tanh) of a hidden layer, a layer another one follows in the code: `dense({units: 50, activation:
# 'sigmoid'})` before the last layer is no probability the model outputs
HIDDEN_SIGMOID = lazy_regex.compile(r"(?i)activation\s*[:=]\s*['\"]sigmoid['\"](?=[^\n]*\n(?:[^\n]*\n){0,6}?[^\n]*"
                                    r"\b(?:layers\.dense|Dense|nn\.Linear|layers\.Dense)\s*\()")


def regressor_shown(ev: Evidence) -> str:
    """What shows a regression's run (its words: MSE, MLPRegressor, prices), with nothing of a classifier's; else ""."""
    probabilities = PROBABILITY_WORDS.search(HIDDEN_SIGMOID.sub(" ", ev.prose)) if PROBABILITY_WORDS.search(ev.prose) else None
    if classifier_shown(ev) or CLASSIFIER.search(ev.prose) or probabilities or (
            ev.accuracy_head and max(ev.accuracy_head + ev.accuracy_tail) > 0):
        return ""
    said = REGRESSION_SAID.search(ev.prose)
    if not said:
        return ""
    # the whole word it ends (the pattern has no leading \w*, which backtracks: MLPRegressor, not Regressor)
    start = said.start()
    while start > 0 and said.start() - start < 40 and (ev.prose[start - 1].isalnum() or ev.prose[start - 1] == "_"):
        start -= 1
    return f"the report names `{ev.prose[start:said.end()]}`"


# The frameworks a tool implies (a Lightning bar is PyTorch's), and the ones a report's words name.
PARENT = {"lightning": "pytorch", "transformers": "pytorch", "fairseq": "pytorch", "megatron": "pytorch",
          "deepspeed": "pytorch", "apex": "pytorch", "keras": "tensorflow"}
# Named, or shown by code only its API writes: PyTorch's `nn.Linear`, `nn.CrossEntropyLoss()`, `loss.backward()`,
# `optimizer.zero_grad()`, `F.softmax(`, `.masked_fill(`, `.cuda()`, as PyTorch spells them (Flax's `nn.relu`, `nn.Dense`
# and `nn.Module`, TensorFlow's `tf.nn.softmax`, are not PyTorch's); Keras's `layers.Dense(` (not `model.fit(`: scikit-learn's too); JAX's `optax.`.
NAMED_FRAMEWORK = [(lazy_regex.compile(r"(?i:\b(?:py)?torch\b|\bfastai\b|\blightning\b)|(?<![\w.])nn\.(?:init\.\w+|Parameter|"
                                       r"Linear|Conv[123]d|LSTM|GRU|"
                                       r"Embedding|BatchNorm[123]d|LayerNorm|Dropout|ReLU|Softmax|LogSoftmax|\w+Loss)\b|"
                                       r"\.(?:backward|zero_grad|cuda)\(\)|(?<![\w.])F\.(?:relu|softmax|log_softmax|cross_entropy|"
                                       r"mse_loss|nll_loss|binary_cross_entropy\w*)\(|\.masked_fill_?\(|"
                                       r"\bclip_grad_(?:norm|value)_\b|\bTensorDataset\b|\.parameters\(\)"), "pytorch"),
                   (lazy_regex.compile(r"\btensorflow\b|\btf\.|\bkeras\b|\blayers\.Dense\(", re.I), "tensorflow"),
                   (lazy_regex.compile(r"\bjax\b|\bjnp\.|\bflax\b|\boptax\.", re.I), "jax"),
                   # (and frameworks the catalogue declares no message of: shown, they say NumPy's warnings were never
                   # going to be printed -- Julia's Flux, MXNet, PaddlePaddle)
                   (lazy_regex.compile(r"(?i:\bjulia\b)|\busing Flux\b|\bFlux(?:\.|\s+v?\d)"), "julia"),
                   (lazy_regex.compile(r"(?i:\bmxnet\b|\bgluon\b)|\bmx\.(?:nd|np|gluon|init|autograd)\b|\bautograd\.record\("),
                    "mxnet"),
                   (lazy_regex.compile(r"\bPaddle(?:Paddle|NLP|Detection|Seg|Speech|OCR)\b|\b(?:import paddle|paddle\.\w)|\bpaddle\s+v?\d+\.\d|(?i:\bpaddlepaddle\b)"), "paddle")]


# A framework named to say it is not used: "no PyTorch or TensorFlow", "without Keras", "instead of torch".
DENIED_BEFORE = lazy_regex.compile(r"\b(?:no|not|without|never|instead of|rather than)\s+(?:using\s+|use\s+|with\s+)?"
                                   r"(?:[\w.]+\s+(?:or|and|nor)\s+)?$", re.I)


def shown_frameworks(ev: Evidence) -> set[str]:
    """The frameworks the report shows: in its messages and its log's format, or named in its words (not named to
    deny it); a framework implies the one it runs on."""
    shown = set(ev.frameworks) | named_frameworks(ev.prose)
    return shown | {PARENT[f] for f in shown if f in PARENT}


@functools.lru_cache(maxsize=4)
def named_frameworks(prose: str) -> frozenset[str]:
    # asked once for each entry weighed: 7 ms each time on 32 kB of a log's start
    return frozenset(name for pattern, name in NAMED_FRAMEWORK for m in pattern.finditer(prose)
                     if not DENIED_BEFORE.search(prose, max(0, m.start() - 40), m.start()))
