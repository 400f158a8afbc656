"""From the evidence in a log or a report to the entries that explain it.

Four kinds of evidence are weighed for each entry: the shape of the loss curve
against the entry's declared signature, the messages found against the ones it
declares, the report's plain words against what the entry says about itself
(wording.py), and when the failure showed (from the first value, after the
first updates, after a while) against when the entry's signature shows it.
An entry is named only when the evidence is specific and no other entry comes
close; otherwise the answer is "cannot tell yet", with the candidates and the
one thing to paste that would decide between them.
"""
from __future__ import annotations

import decimal
import functools
import math
import re
import statistics
import sys
from dataclasses import dataclass, field, replace

from .catalog import Catalog
from .ceilings import ceiling_fact
from .entry import TRACES, Entry, template_pattern
from .logscan import KEEP, Evidence, MessageFinder, dialects
from .logscan.messages import WARNING
from .logscan.evidence import only, without_first
from .logscan.hidden import with_hidden
from .logscan.layout import validation_rows
from .logscan.numbers import to_float
from .logscan.positions import counted_on, epoch_number, epoch_on, last_epoch, named_step, starts_again, step_number
from .logscan.scale_zero import MESSAGE, SAME_AS, WHY, scale_zero_key, without_scale_zero
from .logscan.stops import COMPANIONS, stop_of, with_stop, without_stops
from .plural import counted
from .watch_rule import WATCH_RULE, sustained_climb   # the loss watch's rule, one definition
from .wording import (BENIGN_OVERFLOW, EARLY_STEPS, FIELDS, NORMALS, RESTARTED, STUCK, Library, Normal,
                      half_precision_denied, half_precision_shown, loss_kind, lr_tried, normals_asked, says_failure, score_out_of_range, section,
                      timing_of, tokens, tokens_many, when)

# Shape of the curve just before a blow-up: it counts as a climb after this many
# rises, or after one rise of at least this factor.
SHAPE_RISES, SHAPE_RATIO = 2, 1.5
# A first value this many times the values right after it (the median of the next ENORMOUS_NEXT) is
# "enormous from the start": an outlandish first loss, not a run that trained well and fell 100x before
# it broke (a loss that learns falls that far over many values, not in its first step).
ENORMOUS, ENORMOUS_NEXT = 100.0, 3
# A heuristic, not a bound: a fresh classifier's mean cross-entropy starts near ln K (under 10 for
# any usual K), so a first loss of 1e4 takes a loss summed over many examples (or multiplied by a
# loss scale), logits thousands apart, or a squared error on targets in their raw units. Only the
# last two are failures, and the numbers cannot tell them from a sum: the enormous start is one more
# fact for the entries broken from the start (weighed as their curve's part, W_PART), never a reason
# to read a climb or a descent as something else -- and not at all once the loss has fallen to
# half its first value (a run that learnt was not broken from the start).
ENORMOUS_START = 1e4
# An early spike: within the first SPIKE_WINDOW values, SPIKE_RATIO times the first one.
SPIKE_WINDOW, SPIKE_RATIO = 10, 3.0
# ... and in a run said to have no warmup ("no warmup", "warmup_steps=0"), a jump to twice the first value
NO_WARMUP_JUMP = 2.0
NO_WARMUP = re.compile(r"\b(?:no|without|w/o|zero)\s+(?:lr\s+|learning[ -]rate\s+)?warm-?up\b|"
                       r"\bwarm-?up(?:_steps|_ratio|_iters?|_epochs)?\s*[=:]\s*0(?:\.0+)?(?!\.?\d)", re.I)
# ... unless the paste sets a warmup of its own ("warmup_steps=500", "1000 warmup steps"): the words of no warmup are
# another run's
WARMUP_SET = re.compile(r"\bwarm-?up(?:_steps|_ratio|_iters?|_epochs)?\s*[=:]\s*(?:0*[1-9]\d*|0?\.0*[1-9])|"
                        r"\b\d[\d,]* warm-?up steps|\bwarm-?up (?:over|of) (?:the first )?\d", re.I)
# ... and not when the loss jumps to that height SWINGS times or more: a saw-tooth, not a spike (an optimiser
# without warmup may spike twice before it settles)
SWINGS = 3
# A climb to non-finite comes "after a descent" when the lowest loss before it was
# reached no earlier than the DESCENT_MIN-th value and is DESCENT_FALL or more below
# the first value: the run learned for a while before the steps went wrong.
DESCENT_MIN, DESCENT_FALL = 5, 0.2
# Curves with no non-finite value are judged only with at least SHAPE_MIN values
# from a log that starts at the run's beginning.
SHAPE_MIN = 10
# A plateau: over the whole run the loss never fell PLATEAU_FALL below its first
# value (a slow healthy run falls further than that over SHAPE_MIN values).
PLATEAU_FALL = 0.1
# A stall: the loss first fell PLATEAU_FALL or more, then its last values -- at
# least half the run, or KEEP of them on a long run -- stay within FLAT of each
# other (relative), at STALL_LEVEL or more of the first value; a run that
# converges goes lower and keeps creeping down.
FLAT, STALL_LEVEL = 0.01, 0.4
# A loss that the watch saw climb (a sustained rise: WATCH_RULE), that ends above its first value,
# STAYED times its lowest or more (the factor the watch asks of a climb within one epoch) and still
# within NEAR_PEAK of its highest has not come back down: a failure even with no nan (a loss that
# clamps its log stops at a ceiling instead of turning inf), never a healthy run. It is judged
# against the run's own best, not its first value alone: the first value is set by the task (ln K
# for K classes), the level a broken run climbs to by the failure. A step up that then falls again
# (augmentation or dropout switched on, a warm restart, a curriculum stage) is not one.
STAYED, NEAR_PEAK = 3.0, 0.9
# A bump the watch saw is called recovered only once the loss is back within this factor of its lowest.
RECOVERED = 1.5
# Shapes that show a failure without a non-finite value or a signature of their own.
UNFINISHED = ("climbing", "climbed-and-stayed", "stuck-at-ceiling")
# A climb to non-finite that the watch never flagged and that did not even double is
# weak evidence of the climb's cause: the entry gets part credit only.
WEAK_CLIMB = 2.0
# Signatures that are a special or early case of another: entries declaring the
# general one get part credit (a climb still finite may be WR-220 caught early;
# a climb after a long descent is still a climb).
PART_OF = {"climb-despite-clipping": "climb-then-nonfinite", "climbing": "climb-then-nonfinite",
           "climbed-and-stayed": "climb-then-nonfinite", "stuck-at-ceiling": "climb-then-nonfinite",
           "descent-then-climb": "climb-then-nonfinite"}
# When each signature shows the failure: before any update, right after the first
# updates, or after the run has trained a while.
WHEN_OF_TRACE = {"nonfinite-from-start": {"start"}, "plateau-from-start": {"start"},
                 "spike-then-recover": {"early"}, "climb-then-nonfinite": {"early", "later"},
                 "climb-despite-clipping": {"early", "later"}, "descent-then-nonfinite": {"later"},
                 "descent-then-climb": {"later"}, "stall-after-drop": {"later"}}
# Signatures defined by when the loss breaks rather than by a shape: an entry whose Symptom
# says it can break then too is compatible with them.
TIMED = {"nonfinite-from-start"}
# A first value that the log locates by its epoch alone stands for a whole epoch of steps: the
# epoch's mean (Keras's bar shows the running mean; most loops print the mean over the epoch) or its
# last batch. Either is non-finite once any step of the epoch was, so a nan there says the run broke
# somewhere in its first epoch -- at its first step or after it had trained a while. The failures
# broken from the start always show so and keep their curve; the other failures that turn the loss
# non-finite may (their own shape would be hidden inside the epoch's value), so they get the part a
# general entry gets for a special case of its shape (W_GENERAL), and the timing counts for no one.
NONFINITE_TRACES = {"nonfinite-from-start", "climb-then-nonfinite", "descent-then-nonfinite",
                    "climb-despite-clipping", "descent-then-climb"}
# Weights of the evidence. The ones in Weights were tuned on the development set and checked
# by cross-validation (bench/diagnose_devset.py --cross-validate; docs/diagnose.md gives the
# held-out figures); the rest are fixed by the argument beside each.
@dataclass(frozen=True)
class Weights:
    words: float = 1.5       # a report that is mostly words: the best-matching entry's share
    when: float = 0.5        # it broke when the entry's failure does (or did not: minus this)
    prior: float = 0.75      # the first suspect for what little the report says (FIRST_SUSPECTS)
    message: float = 2.0     # one declared message found, shared among the entries that declare it
    prose: float = 0.0       # weight of the Symptom and Where sections' words in an entry's document
    bm_full: float = 6.0     # BM25 score at which a report's words count in full
    fade: float = 0.5        # how much the prior gives way as the words match an entry (0: not at all, 1: fully)


WEIGHTS = Weights()
W_CURVE, W_PART, W_TEXT_WITH_CURVE = 3.0, 1.5, 0.5
# The general entry when the curve shows a special case of its signature (a climb despite
# clipping, a climb not yet non-finite, a climb after a long descent): it stays a candidate,
# but the special case is the stronger evidence.
W_GENERAL = 0.5
# A failure whose messages are always printed where the log could show them (NumPy warns
# on every overflow and log of zero by default): their absence moves it one step down.
W_MISSING = 1.0
# A report this small was pasted by a person: its words count for more next to its curve.
PASTED = 1 << 15
# The first suspects when a report says little more than that the loss went nan or inf, by
# when it says it happened (no word of when counts as "later": a run that trained at all).
# After training has run a while, the update step that overshoots comes first -- the
# learning rate is where CS231n's notes on babysitting training and Karpathy's recipe start --
# and its signature is the climb. From the first value there is no update to blame: the
# entries that can break then are all suspects alike, and "when" already singles them out.
RATE = "climb-then-nonfinite"
FIRST_SUSPECTS = {"later": (RATE,), "early": (RATE, "spike-then-recover")}
# Next, with half the weight, the failures that strike a run that was learning: an output that
# rounds to 0 or 1 under a log, a nan gradient, a broken batch -- the jump to nan after a descent.
SECOND_SUSPECTS = {"later": ("descent-then-nonfinite",)}
# With words of half precision (fp16, amp, a loss scaler) the first suspect is the precision
# itself: the entry whose title names it.
# A remedy that was tried: a lower rate that did not help is evidence against the rate (and
# for the entries whose failure does not move with it); one that helped is evidence for it.
W_TRIED = 1.0
# A loss below zero that the loss function cannot produce (cross-entropy, BCE, 1 - Dice with
# valid targets), or an overlap score outside [0, 1]: the entries that say they explain a
# negative loss (the word in their phrases) get this much.
W_NEGATIVE = 2.0
# Facts the log prints beside the loss that one failure produces, worth as much as a declared
# message: every gradient norm exactly 0 (no gradient reaches the weights: the entries whose own
# phrases say the gradients are exactly zero), and an accuracy that rises while the loss stays flat
# (the model learns and the loss cannot show it: the entries whose phrases say accuracy improves).
# Half as much for the model's output said to be 0.5 (sigmoid(0): a last layer whose weights and bias
# are all zero is handed 0 whatever the example), which is weaker: a model stuck at one output prints
# about 0.5 on balanced classes too, and a two-way softmax prints it whenever its logits are equal.
W_PRINTED = 2.0
W_SAID_HALF = W_PRINTED / 2
ZERO_GRADIENT_WORDS, ACCURACY_WORDS = {"gradient", "exactly", "zero"}, {"accuracy", "improve"}
SIGMOID_ZERO_WORDS = {"sigmoidzero"}
# A learning rate printed beside the loss that rose (a warmup, a warm restart, a range test) through the climb,
# from where the loss was lowest to the climb's end: half a printed fact for the entries whose phrases say a raised
# rate diverges, and half against the special cases of the rate's curve (PART_OF), whose own causes grow the
# steps at a fixed rate -- a rate the log shows rising is the plain reading of steps that grow.
RATE_RAISED_WORDS = {"lr", "rais"}
# The entries whose phrases say the gradients were never cleared (`optimizer.zero_grad()` forgotten): a log printed
# by a tool whose trainer clears them each step (Dialect.clears_gradients) counts as much as a declared message
# against them.
UNCLEARED_WORDS = {"zero", "grad", "optimizer"}
# ... and those whose phrases say a lower rate only delays their failure (WR-260), for a report that says so
PUT_OFF_WORDS = {"lr", "delay"}
# The entries whose phrases say a lower rate does not move the step where the loss breaks (a bad batch breaks where
# it is met, whatever the rate): a lower rate that did not help is evidence for them, one that put the failure off
# evidence against.
RATE_PROOF_WORDS = {"lower", "lr", "move", "step"}
# ... and a pasted PyTorch loop that calls backward() and then step() within a few lines and clears the gradients
# nowhere in the paste (no zero_grad, no `.grad = None`, no `.zero_()`), beside a run that went wrong: half a printed
# fact for them (a paste may leave out the line that clears them: a fact, not a verdict).
BACKWARD_STEP = re.compile(r"\.backward\(\)[^\n]*\n(?:[^\n]*\n){0,6}?[^\n]*\.step\(\)")
CLEARED = re.compile(r"zero_grad|\.grad\s*=\s*None|\.zero_\(\)|set_to_none|clear_grad|cleargrads")
# ... and a loop body that clears them every step: the clearing call and backward() at one indentation inside a
# block, a few lines apart (a zero_grad() before the loop, at a lesser indentation, clears them once: WR-260's bug)
# (each part bounded: a line of thousands of spaces must not make the search quadratic)
CLEARED_EACH_STEP = re.compile(r"(?m)^(?P<indent>[ \t]{1,40})(?![ \t#])[^\n]{0,200}?(?:zero_grad\(|\.grad\s*=\s*None)[^\n]*\n"
                               r"(?:[^\n]*\n){0,6}?(?P=indent)(?![ \t])[^\n]{0,200}?\.backward\(|"
                               r"^(?P<indent2>[ \t]{1,40})(?![ \t])[^\n]{0,200}?\.backward\([^\n]*\n"
                               r"(?:[^\n]*\n){0,6}?(?P=indent2)(?![ \t#])[^\n]{0,200}?(?:zero_grad\(|\.grad\s*=\s*None)")
# The entries whose phrases are about regression targets: a report of a classifier (a softmax or a cross-entropy
# named, an accuracy printed beside the loss) and of no regression counts as much as a declared message against them
# -- a classifier has no targets in raw units to leave unscaled.
REGRESSION_WORDS = {"regression", "label"}
# ... and those whose phrases say a softmax's output reaches a cross-entropy (WR-130): no regression's failure
PROBABILITY_LOSS_WORDS = {"softmax", "cross", "entropy"}
# What a report says was scaled already ("I standardised both X and y", "X is divided by 255"): the fix of the entries
# whose phrases say it was forgotten, done -- half a printed fact against them; and what it says was not ("X is not
# scaled", "I did not normalize the targets", "X but not y", "all features except the target"): half a fact for them.
FORGOT_INPUTS, FORGOT_TARGETS = {"forgot", "normalise", "input"}, {"forgot", "normalise", "label"}
_SCALED = r"(?:standardi[sz]ed|normali[sz]ed|rescaled|scaled|z-?scored|divided)"
SCALED = re.compile(r"\b" + _SCALED + r"\s+(?:both\s+|all\s+)?(?:the\s+|my\s+|our\s+)?(?P<what>[^.;:\n]{1,40})"
                    r"|\b(?P<passive>x|y|inputs?|features?|targets?|labels?|images?|pixels?|prices?|outputs?)\s+(?:is|are|was|"
                    r"were|have been|has been|got)\s+(?P<neg>not\s+|n't\s+|never\s+)?(?:already\s+|all\s+)?" + _SCALED, re.I)
# ... and what the words describe first, then say was not scaled: "target is yearly salary in dollars (30,000 to
# 250,000), not scaled"
# (the subject nearest before it, in the same clause of the sentence)
UNSCALED_AFTER = re.compile(r",\s*(?:not\s+|never\s+|un)" + _SCALED + r"\b", re.I)
SUBJECT_IS = re.compile(r"\b(?P<what>x|y|inputs?|features?|targets?|labels?|prices?|outputs?)\s+(?:is|are|was|were)\b", re.I)
# ... and said not done with the verb itself ("I didn't scale the features", "no scaling on the inputs", "I did not
# standardize anything"), or the values called raw ("the features are raw")
UNSCALED_SAID = re.compile(r"\b(?:did(?:n't| not)|do(?:n't| not)|never|without|forgot(?:ten)? to|no)\s+(?:\w+\s+)?"
                           r"(?:scal|normali[sz]|standardi[sz]|rescal)\w*\s+(?:of\s+|on\s+|for\s+)?(?:the\s+|my\s+|our\s+|any\s+)?"
                           r"(?P<what>\w+)|\b(?P<subject>x|inputs?|features?|pixels?|images?|targets?|labels?|y|prices?)\s+"
                           r"(?:are|is|were|was)\s+(?:still\s+|all\s+)?raw\b", re.I)
SCALED_TARGETS = re.compile(r"\b(?:y|targets?|labels?|outputs?|prices?)\b", re.I)
SCALED_INPUTS = re.compile(r"\b(?:x|inputs?|features?|images?|pixels?|data)\b", re.I)
# a verb that a negation governs ("did not normalize", "haven't standardised", "forgot to scale" -- the last two
# words before it)
NEGATED = re.compile(r"(?:\bnot|\b\w+n't|\bnever|\bwithout|\bforgot(?:ten)?(?: to)?)\s+(?:\w+\s+)?$", re.I)
# ... and the part of an object that is left out ("X but not y", "all features except the target")
EXCEPT = re.compile(r"\b(?:but not|except(?: for)?|apart from|other than|not)\b", re.I)
# (not the word "accuracy": a regression compiled with metrics=['accuracy'] prints one, at 0)
CLASSIFIER = re.compile(r"\b(?:softmax|log_?softmax|cross[ _-]?entropy\w*|crossentropy\w*|nll_?loss|classifier|"
                        r"top-?[15]|mnist|cifar-?\d*|imagenet)\b", re.I)
# ... a regression: its words, or one output unit (`Dense(1)`, `Linear(64, 1)`: a classifier has one per class, or
# one sigmoid for two)
REGRESSOR = re.compile(r"\b(?:(?<!logistic )(?<!logistic-)regress\w*|mse\w*|mean[ _-]squared|squared[ _-]error|l[12][ _-]?loss|mae|targets? in)\b|"
                       r"price|predicting (?!(?:the |an? |which )?(?:class|label|categor|digit|whether|one of))\w+|\bDense\(\s*1\s*[,)]|"
                       r"\bLinear\([^()\n]{0,40},\s*1\s*\)|out_features\s*=\s*1\b", re.I)
# ... a regression said in words, with no word of a classifier's or of a sigmoid's: what no entry about a loss handed
# probabilities can explain (one output unit alone is no regression here: a binary classifier has one too)
# a loss of the error's size, not its square (MAE, L1, Huber and smooth L1 far from 0), named as the loss -- not a
# metric column beside it (Keras's `mae: 1.8e5` beside an MSE)
ABSOLUTE_LOSS = re.compile(r"\bloss\s*=\s*['\"](?:mae|mean_absolute_error|huber\w*)['\"]|\bnn\.(?:L1Loss|SmoothL1Loss|HuberLoss)\("
                           r"|\bF\.(?:l1_loss|smooth_l1_loss|huber_loss)\(|\blosses\.(?:MeanAbsoluteError|Huber)\("
                           r"|\b(?:mae|l1|mean absolute error|huber) loss\b|\bloss (?:is|was) (?:the |an? )?(?:mae|l1|mean absolute "
                           r"error|huber)\b", re.I)
# a loss summed over the examples (or the pixels) instead of averaged: enormous whatever the targets' units
SUMMED = re.compile(r"reduction\s*=\s*['\"]sum['\"]|size_average\s*=\s*False|\bsum(?:med)? (?:of|over) (?:the |all )?"
                    r"(?:per[- ]\w+ )?(?:\w+ )?(?:losses|errors|examples|samples|pixels|cross-?entropies)|\b(?:the )?sum,? not "
                    r"the mean|\bsummed\b|np\.sum\(|tf\.reduce_sum\(", re.I)
REGRESSION_SAID = re.compile(r"(?<!logistic )(?<!logistic-)regress\w*|\b(?:mse\w*|mean[ _-]squared|squared[ _-]error|mae|prices?)\b", re.I)
PROBABILITY_WORDS = re.compile(r"\b(?:sigmoid|bce\w*|binary|logits?|probabilit\w*)\b", re.I)
# A pasted Keras model that ends in a softmax and a cross-entropy: probabilities are what that loss takes unless it is
# told from_logits=True (keras.losses, from_logits=False by default), so the pairing is Keras's own -- or, told so,
# the loss is handed probabilities as logits (WR-130).
# (the model's last Dense layer is its output, softmax when it says so; from_logits on a line of code that builds or
# compiles the loss, not in a sentence about something tried)
DENSE = re.compile(r"\bDense\((?:[^()\n]|\([^()\n]*\))*\)")
KERAS_SOFTMAX = re.compile(r"activation\s*=\s*['\"]softmax['\"]")
KERAS_CROSSENTROPY = re.compile(r"(?:sparse_)?categorical_crossentropy|(?:Sparse)?CategoricalCrossentropy")
FROM_LOGITS = re.compile(r"(?m)^[ \t]*(?:[\w.]+\.compile\(|\w+\s*=)[^\n]*(?:categorical_crossentropy|CategoricalCrossentropy)"
                         r"[^\n]{0,80}?from_logits\s*=\s*True")
# ... and a pasted PyTorch model whose output is a sigmoid's or a softmax's (`return torch.sigmoid(...)`, a Sequential
# that ends in nn.Sigmoid()), beside a loss that applies its own (BCEWithLogitsLoss, CrossEntropyLoss): probabilities
# handed over as logits. (Not a softmax inside the model, as attention's: only what forward() returns, or what the
# Sequential ends in; with several forward()s pasted, the last one's -- a model's own comes after its parts', and a
# gate's or a helper's may return one.)
TORCH_PROBABILITY_OUT = re.compile(r"\breturn\s+(?:torch\.|F\.|nn\.functional\.|self\.)?(?:sigmoid|softmax)\("
                                   r"(?:[^()\n]|\((?:[^()\n]|\([^()\n]*\))*\))*\)"
                                   # (a shape's methods after it change no value: `.squeeze(-1)`, `.view(-1)`)
                                   r"(?:\.(?:squeeze|unsqueeze|view|reshape|flatten)\([^()\n]*\))*\s*$|"
                                   r"\b(\w+)\s*=\s*(?:torch\.|F\.|self\.)?(?:sigmoid|softmax)\([^\n]{0,120}\n[ \t]*return\s+\1\s*$|"
                                   r"\bnn\.(?:Sigmoid|Softmax)\([^()\n]{0,20}\)\s*,?\s*\)", re.M)
TORCH_LOGITS_LOSS = re.compile(r"\b(?:nn\.)?(?:BCEWithLogitsLoss|CrossEntropyLoss)\(|\bF\.(?:cross_entropy|"
                               r"binary_cross_entropy_with_logits)\(")
RATE_CLIMB = 1.25              # the rate at the climb's end this many times the one at the loss's lowest,
RATE_NEAR_PEAK = 0.9           # ... and this near the highest it reached in the climb
RATE_CLIMBS = {"climb-then-nonfinite", "descent-then-climb", "climb-despite-clipping", "climbing",
               "climbed-and-stayed"}
ACCURACY_RISE = 0.2            # a rise of 20 points of accuracy is a model that learns, not noise
ACCURACY_MOVED = 0.05          # ... and one of 5 points, a model that is not "never learned"
# A cross-entropy computed on outputs that already went through a softmax cannot go below log(1 + (C - 1)/e) for C
# classes (WR-130: 1.4612 for ten): a loss that ends within FLOOR_NEAR above that floor, never below it, while the
# accuracy printed beside it reaches FLOOR_ACCURACY, is that failure's fingerprint -- a printed fact for the entries
# whose phrases say the loss will not go below it. C is the class count whose floor is nearest below the loss (3 or
# more: two classes' floor, 0.3133, is an ordinary loss at that accuracy).
# What a paste shows of its data: labels set to -1 ("unlabelled rows set to y = -1"; not an `ignore_index=-1` the loss
# is told about, nor rows filtered out with `!= -1`, nor the -1/+1 labels of a hinge loss), and, beside a run that
# went wrong, an input whose largest value prints as 255 (`X_train.max()` -> 255, raw 8-bit pixels; not a mask's or a
# target's, nor in a paste that scales the pixels) -- half a printed fact for the entries whose phrases say so.
# A number handed to exp, or to a softmax written by hand, past what exp can return: exp(x) overflows above
# log(largest float), 709.78 in float64 (NumPy's default) and 88.72 in float32 (PyTorch's, TensorFlow's and JAX's).
# A library's softmax (torch.softmax, F.softmax, tf.nn.softmax, scipy's) subtracts the largest input first and
# does not overflow: only a bare `softmax(` is taken for a hand-written one. Half a printed fact for the entries
# whose phrases say exp overflows.
EXP_OVERFLOW_WORDS = {"exp", "overflow"}
EXP_CALL = re.compile(r"(?<![\w.])(?:(?P<lib>np|numpy|math|torch|jnp|tf\.math|tf)\.)?(?P<fn>exp|(?<![\w.])softmax)\s*"
                      r"\((?P<args>[^()\n]{0,160}(?:\([^()\n]{0,160}\)[^()\n]{0,160})?)\)")
# ... handed as literal numbers: one, or a list or an array of them (not `-step / 2000`, an expression)
LITERAL_ARGS = re.compile(r"\s*(?:(?:np|numpy|torch|jnp|tf)\.(?:array|tensor|asarray|constant)\(\s*)?\[?\s*"
                          r"-?(?:\d+\.?\d*|\.\d+)(?:e[-+]?\d+)?(?:\s*,\s*-?(?:\d+\.?\d*|\.\d+)(?:e[-+]?\d+)?)*\s*,?\s*\]?\s*"
                          r"(?:,\s*dtype\s*=\s*[\w.]+\s*)?\)?\s*", re.I)
EXP_NUMBER = re.compile(r"(?<![\w.])-?\d+(?:\.\d*)?(?:e[-+]?\d+)?(?![\w.])", re.I)
STABLE_SAID = re.compile(r"\b(?:logsumexp|log_softmax|log-sum-exp|subtract(?:ing|s)? the max\w*|max subtraction|"
                         r"stable softmax)\b", re.I)
FLOAT32_SAID = re.compile(r"\b(?:float32|fp32)\b", re.I)
EXP_LIMITS = {"float64": math.log(sys.float_info.max), "float32": math.log((2 - 2 ** -23) * 2.0 ** 127)}
# A paste that divides by a standard deviation it computes (`/ X.std()`, `/ std`) and says a column holds one value
# for every row: that column's standard deviation is 0 (or a rounding error's size), and (x - mean) / std is 0/0, nan
# for every row, where the mean comes out exact (a whole-number constant: 3.0 every row), else the same +-1 on every
# row -- a column that carries nothing either way. A printed fact
# for the entries whose phrases say a constant feature has zero standard deviation. (scikit-learn's StandardScaler
# divides such a column by 1 instead: only a division the paste writes.)
CONSTANT_FEATURE_WORDS = {"constant", "deviation", "zero"}
DIVIDES_BY_STD = re.compile(r"/\s*\(?\s*[\w.\[\]\"']{0,40}\.std\([^()\n]{0,20}\)(?!\s*\+)|/\s*(?:std|sigma|stdev|stds|sd)\b(?!\s*\+)")
CONSTANT_FEATURE = re.compile(r"\b(?:(?:the )?same (?:value )?(?:for|in|across|on) (?:every|all|each) (?:rows?|samples?|examples?"
                              r"|records?)|constant (?:columns?|features?)|(?:columns?|features?) (?:that|which) (?:are|is) "
                              r"constant|zero variance|(?:std|standard deviation) (?:is|of|=|==) ?0(?![.\d]))\b", re.I)
# Weights set to zero (or one constant) in pasted code: Keras's kernel_initializer="zeros", PyTorch's nn.init.zeros_ or
# constant_ or a weight's fill_(c) / zero_(), or two or more NumPy weight matrices made with np.zeros (W1 and W2: a
# hidden layer whose units start equal; one zero matrix alone is a linear model, which trains from zeros). Half a
# printed fact for the entries whose phrases say the weights were initialised to zero.
ZERO_INIT_WORDS = {"weight", "init", "zero"}
ZERO_INIT = re.compile(r"kernel_initializer\s*=\s*['\"]zeros['\"]|\binitializers\.Zeros\(\)|"
                       r"\bnn\.init\.zeros_\(\s*[\w.\[\]]{0,40}weight\s*\)|"
                       r"\bnn\.init\.constant_\(\s*[\w.\[\]]{0,40}weight\s*,\s*0(?:\.0*)?\s*\)|"
                       r"\.weight(?:\.data)?\.(?:fill_\(\s*0(?:\.0*)?\s*\)|zero_\(\))")
# (a weight matrix's own name -- W1, W_hidden, weights2 -- not a buffer named after it: W1_vel, mW1)
NUMPY_ZERO_WEIGHTS = re.compile(r"(?m)^[ \t]*(?:self\.)?(?:W|w|weights?)(?:\d|_?(?:in|out|hidden|h|o|ih|hh|xh|hy)\d?)?"
                                r"\s*=\s*np\.zeros\([^\n]{0,60}\)")
# layers the paste builds: zeros for the only one is a linear model, which trains from zeros
LAYERS_BUILT = re.compile(r"\b(?:layers\.)?(?:Dense|Conv[123]D)\(|\bnn\.(?:Linear|Conv[123]d)\(")
UNLABELLED_WORDS, RAW_PIXEL_WORDS = {"unlabell", "mark"}, {"raw", "pixel"}
MINUS_ONE_LABELS = re.compile(r"\b(?:y|labels?|targets?)\s*(?:\[[^\]\n]{0,30}\]\s*)?=\s*-1\b(?!\s*(?:and|or|,|/)\s*\+?1\b)|"
                              r"\bset (?:the |their |its |those |these )?(?:y|labels?|targets?) (?:to|as) -1\b", re.I)
MINUS_ONE_HANDLED = re.compile(r"ignore_index\s*=\s*-1|!=\s*-1|>=\s*0\b|-1\s*(?:and|or|,|/)\s*\+?1\b|\{-1,\s*\+?1\}|"
                               r"hinge", re.I)
MAX_255 = re.compile(r"(?P<name>\b[A-Za-z_][\w\[\]'\".]{0,40})\.max\(\)[^\n]{0,80}?(?:\n[^\n]{0,80}?)?(?<![\d.])255"
                     r"(?:\.0*)?(?![\d.]|\.\d)")
INPUT_NAME = re.compile(r"(?i)\bx\b|x_|_x\b|inputs?|images?|imgs?|pixels?|features?|data")
NOT_INPUT_NAME = re.compile(r"(?i)mask|label|target|seg|gt|\by\b|\by_")
DIVIDED_255 = re.compile(r"/=?\s*(?:255|127\.5)\b|ToTensor|convert_image_dtype|Rescaling|rescale|normali[sz]")
FLOOR_WORDS = {"class", "below"}
FLOOR_NEAR, FLOOR_ACCURACY, FLOOR_CLASSES = 0.02, 0.9, range(3, 1001)
# The class count a paste names (a dataset, `num_classes=100`, "10 classes", `Dense(100, activation='softmax')`,
# "binary"); with none named, the count whose floor lies nearest below the loss counts only when the first loss sat
# near its ln C (a fresh classifier's loss, and where a softmax applied twice starts), above the floor's half-way.
CLASSES_NAMED = [(re.compile(r"\bcifar-?100\b", re.I), 100), (re.compile(r"\b(?:cifar-?10|mnist|svhn|fashion-?mnist|stl-?10)\b",
                  re.I), 10), (re.compile(r"\bimagenet\b(?![ -]?(?:pre-?trained|backbone|weights))", re.I), 1000),
                 (re.compile(r"\bbinary\b|\bsigmoid\b", re.I), 2)]
CLASS_COUNT = re.compile(r"\b(\d{1,4})[ -](?:classes|categories|way)\b|num_classes\s*=\s*(\d{1,4})|"
                         r"Dense\(\s*(\d{1,4})\s*,\s*activation\s*=\s*['\"]softmax['\"]\)?", re.I)
# words of a loss with more in it than a cross-entropy, which sits above its floor by design
FLOOR_HIDDEN = re.compile(r"label[ _-]?smooth\w*|distill\w*|\bkd\b|mixup|cutmix|regulari[sz]\w*|\bl2\(|weight[ _]decay "
                          r"in the loss|auxiliary loss|\+ *\d*\.?\d* *\* *\w+[ _]loss", re.I)
# Naming an entry takes a score of CONFIDENT and a lead of MARGIN over the next one.
CONFIDENT, MARGIN = 2.5, 1.0
# Candidates whose scores are within EVEN of the first's are about even: a quarter of half a printed fact, the
# difference a word more or less of the entry's own phrasing makes -- the report says the evidence does not order them.
EVEN = 0.25
CANDIDATES = 3
# The parts of a score that are evidence of the entry's own (not words alone, nor timing, nor a prior):
# beside a named entry and its runners-up, the others are listed only with one of them.
# Facts of the paste that make an entry a candidate on their own, beside a curve that shows another's signature.
SAID_FACTS = ("softmax-floor", "unscaled-inputs", "unscaled-targets", "minus-one-labels", "raw-pixels",
              "never-cleared", "pairing", "exp-overflow", "raw-targets", "constant-feature", "zero-init", "flushed")
SPECIFIC = ("curve", "messages", "start", "negative", "zero-gradient", "accuracy-rose", "sigmoid-zero", "rate-rose",
            "softmax-floor")
# ... of which these are shared by every entry of the curve's shape: past the first three, they list no one
SHARED = ("curve", "start")
# Apex's loss scale at zero is the scaler out of range, as the floor message it is weighed as (see
# scale_zero.py), but half as much: the inf or nan that no scale removes may as well be a loss that was
# not finite, or an infinite slope, which other entries explain.
SCALE_ZERO = 0.5


@dataclass
class Signature:
    name: str                      # a TRACES key, or healthy | climbing | no-loss | few-values
    facts: list[str] = field(default_factory=list)
    climb_warning: int | None = None   # index of the value at which the loss watch would have warned
    climb_warning_at: str = ""         # ... as the log numbers it
    weak: bool = False                 # the shape fits, but too faintly to name an entry on it alone
    enormous_start: str = ""           # the fact, when the first loss is ENORMOUS_START or more (see there)
    first_epoch: bool = False          # non-finite from a first value that stands for a whole epoch (see NONFINITE_TRACES)


@dataclass
class Match:
    entry: Entry
    score: float
    evidence: list[str]
    against: list[str]
    fix: str
    parts: dict[str, float] = field(default_factory=dict)   # the score, by kind of evidence


@dataclass
class Diagnosis:
    evidence: Evidence
    signature: Signature
    matches: list[Match]           # ranked candidates (the first is named when the verdict is "failure")
    unweighed: list[str]
    verdict: str = "no-evidence"   # failure | uncertain | normal | healthy | unexplained | no-evidence
    ask: str = ""                  # the one thing to paste that would decide
    normal: list[Normal] = field(default_factory=list)
    # how a message was read, said even when no entry shown carries it: (what an entry's evidence would hold, the note)
    read: list[tuple[str, str]] = field(default_factory=list)
    validation: str = ""           # a non-finite validation loss the report shows (not diagnosed: see VALIDATION_NAN)
    warnings_unweighed: int = 0    # of the unweighed, Python warnings (said, but they stop nothing: no "not covered")
    even: int = 0                  # of an uncertain verdict's candidates, how many from the first are about even (EVEN)


# ---- the curve ------------------------------------------------------------------------------

def _excursions(values: list[float], height: float, ratio: float = SPIKE_RATIO) -> list[int]:
    """Where the loss jumped `ratio` times above the lowest it had been since the last jump came back down, to
    `height` or more: the index each jump reached it (one early spike is one excursion; a saw-tooth that returns to
    it again and again is an oscillation, not a spike -- smaller jumps near a low loss are noise and not counted)."""
    starts, low, peak = [], values[0], None
    for i, v in enumerate(values[1:], 1):
        if not math.isfinite(v):
            break
        if peak is None:
            if v >= ratio * low and v >= height:
                starts.append(i)
                peak = v
            low = min(low, v)
        elif v <= peak / ratio:                 # back down: the next jump is measured from here
            peak, low = None, v
        else:
            peak = max(peak, v)
    return starts


def _whole_epochs(ev: Evidence, n: int) -> bool:
    """Is each of the first n values an epoch's, numbered by its epoch alone?"""
    return all((p := ev.at(i)) is not None and p.step is None and p.epoch is not None
               and re.fullmatch(r"epoch \d+(?:/\d+)?", p.epoch) for i in range(n))


def _settled_spike(values: list[float], height: float, ratio: float = SPIKE_RATIO) -> bool:
    """One excursion, or fewer than SWINGS that then stopped: the values after the last one outnumber those between
    the first and the last (a warmup-less optimiser may spike twice and settle; a loss that keeps swinging to the
    end of the paste has not settled)."""
    starts = _excursions(values, height, ratio)
    return len(starts) == 1 or (1 < len(starts) < SWINGS and len(values) - 1 - starts[-1] >= starts[-1] - starts[0])


def _rises_before(values: list[float]) -> int:
    n = 0
    while n + 1 < len(values) and values[-1 - n] > values[-2 - n]:
        n += 1
    return n


def _fmt(v: float) -> str:
    return f"{v:.4g}"


def signature_of(ev: Evidence) -> Signature:
    out = _signature(ev)
    first = ev.head[0] if ev.head else None
    if (out.name not in ("no-loss", "few-values", "nonfinite-from-start", "nonfinite-throughout")
            and first is not None and math.isfinite(first) and first >= ENORMOUS_START
            and _at_run_start(ev) and not (ev.low is not None and ev.low <= first / 2)):
        out.enormous_start = (f"the first loss ({_fmt(first)}) is already enormous: a fresh classifier's mean "
                              "cross-entropy starts near ln of the number of classes; a loss this large is an "
                              "error (squared or absolute) on targets in their raw units, outputs broken from the "
                              "start, or a sum over many examples")
        out.facts.append(out.enormous_start)
    ceiling = ceiling_fact(ev)
    if ceiling:
        if out.name == "healthy":
            out.name, out.facts = "stuck-at-ceiling", [ceiling]
        else:
            out.facts.append(ceiling)
    return out


def _signature(ev: Evidence) -> Signature:
    if ev.count == 0:
        refused = f"; not read: {'; '.join(ev.refused)}" if ev.refused else ""
        return Signature("no-loss", ["no loss values found (looked for `loss: 0.7`, `loss=0.7`, `'loss': 0.7`, "
                                     "progress bars, a printed list of losses, a table under an Epoch header, a "
                                     f"CSV loss column, one number per line){refused}"])
    at = ev.where
    t = ev.first_nonfinite
    # one value, non-finite, at the run's first step: the from-start signature (a stop check's step counts
    # from 0, and says so itself: hidden_start)
    at_start = ev.hidden_start if ev.hidden_note else (ev.at(0) is not None and ev.at(0).numbered
                                                       and _at_run_start(ev))
    if ev.count == 1 and not (t == 0 and at_start):
        kind = _fmt(ev.head[0]) if math.isfinite(ev.head[0]) else _nonfinite_kind(ev)
        return Signature("few-values", [f"one loss value ({kind} at {at(0)}): not a curve"] + _hidden_note(ev))
    warn = sustained_climb(ev.before)
    warn_index = ev.before_start + warn if warn is not None else None
    warn_at = at(warn_index) if warn_index is not None else ""

    def sig(name: str, facts: list[str]) -> Signature:
        return Signature(name, facts + _hidden_note(ev), warn_index, warn_at)

    if t is not None:
        kind = _nonfinite_kind(ev)
        tail = (f"non-finite to the end ({at(ev.count - 1)})" if ev.finite_after == 0
                else f"followed by {counted(ev.finite_after, 'finite value')} later")
        nan_note = f", nan from {at(ev.first_nan)}" if ev.first_nan is not None and ev.first_nan != t else ""
        ending = f"first {kind} at {at(t)}{nan_note}, {tail}"
        finite = [v for v in ev.before if math.isfinite(v)]
        if t == 0 and not _at_run_start(ev):
            return sig("nonfinite-throughout", [f"every loss value from {at(0)}, where the log starts, is "
                                                f"non-finite: when it first went {kind} is not in the log"])
        if t == 0 and (_once_an_epoch(ev) or _unprinted_before(ev)):
            many = ("the log calls it an average, so it stands for the steps it averages" if ev.at(0).averaged else
                    "a value printed with no step number stands for many steps -- an epoch's mean or its last "
                    "batch's loss, or a logger's mean over its interval --")
            why = (f"the loop prints every few steps and printed none of the steps before it, so the run broke at "
                   f"its first step or at one of those" if _unprinted_before(ev) and not _once_an_epoch(ev) else
                   f"{many} and is non-finite once any of them was: the run broke within them, at the first step "
                   f"or later")
            out = sig("nonfinite-from-start", [
                f"the first loss value, for {at(0)}, is already {kind}: {why}, the log cannot tell; {ending}"])
            out.first_epoch = True
            return out
        if t == 0:
            return sig("nonfinite-from-start", [f"the very first loss value is {kind}: there was no healthy start; "
                                                f"{ending}"])
        after = statistics.median(finite[1:1 + ENORMOUS_NEXT]) if len(finite) > 1 else 0.0
        if ev.before_start == 0 and after > 0 and finite[0] >= ENORMOUS * after:
            told = f"the next one ({_fmt(after)})" if len(finite) == 2 else \
                f"the values right after it (their median, {_fmt(after)})"
            return sig("nonfinite-from-start", [f"the first loss ({_fmt(finite[0])}) is over {ENORMOUS:g}x "
                                                f"{told}: no healthy start; {ending}"])
        rises = _rises_before(ev.before)
        if rises >= SHAPE_RISES or (rises == 1 and ev.before[-1] >= SHAPE_RATIO * ev.before[-2]):
            start = len(ev.before) - 1 - rises
            a, b = ev.before[start], ev.before[-1]
            growth = (b / a) ** (1 / rises) if a > 0 else math.inf
            rate = f"about x{growth:.3g} each time"
            # (steps left out of the paste between the values, `...`: each printed rise is not one interval; the rate
            # per step the log counts)
            counts = [step_number(p) if (p := ev.at(i)) is not None else None for i in range(ev.before_start + start, t)]
            gaps = {b2 - a2 for a2, b2 in zip(counts, counts[1:])} if None not in counts else set()
            if a > 0 and len(gaps) > 1 and min(gaps) > 0:
                steps = counts[-1] - counts[0]
                rate = f"about x{(b / a) ** (1 / steps):.3g} a step over {steps} steps, some of them not in the paste"
            times = "once" if rises == 1 else f"{rises} times in a row"
            facts = [f"the loss rose {times}, from {_fmt(a)} at {at(ev.before_start + start)} "
                     f"to {_fmt(b)} at {at(t - 1)}, {rate}; {ending}"]
            descent = _descent_before_climb(ev)
            if descent:
                facts.insert(0, descent)
            if warn_index is not None:
                facts.append(f"a loss watch ({WATCH_RULE}) would have warned at {warn_at}, "
                             f"{counted(t - warn_index, 'value')} before")
            if ev.clip_at is not None and ev.grad_paired and ev.grad_max_before is not None \
                    and ev.grad_max_before <= ev.clip_at:
                facts.append(f"gradient clipping at {ev.clip_at:g} never engaged: the largest gradient norm "
                             f"before the blow-up was {_fmt(ev.grad_max_before)}")
                return sig("climb-despite-clipping", facts)
            out = sig("descent-then-climb" if descent else "climb-then-nonfinite", facts)
            if warn_index is None and b < WEAK_CLIMB * a:
                out.weak = True
                facts.append(f"a mild climb (x{b / a:.2g} in all) that a loss watch would not have flagged")
            return out
        if t == 1:
            return sig("few-values", [f"one finite loss value ({_fmt(ev.before[-1])} at {at(0)}), then {ending}: "
                                      "too little to tell a climb from a jump"])
        # a value the log did not print as such (a check's stop, a logger's filter) may hide a climb before it
        then = f"; then the loss was {kind}" if ev.hidden_note else f" and jumped straight to {kind}"
        # the last two values say what happened just before (an earlier climb and fall is no climb into it)
        last_two = f"{_fmt(ev.before[-2])} at {at(t - 2)}, then {_fmt(ev.before[-1])} at {at(t - 1)}"
        if at(t - 2) == at(t - 1) and ev.at(t - 2) is not None and ev.at(t - 2).numbered:
            # one step printed twice (each process of a distributed run prints its own): no order between them
            last_two = f"{_fmt(ev.before[-2])} and {_fmt(ev.before[-1])}, both at {at(t - 1)}"
            moved = f"was printed twice for its last step before the nan ({last_two})"
        else:
            moved = (f"rose only once at the end, by x{ev.before[-1] / ev.before[-2]:.3g} ({last_two})" if rises
                     else f"was not rising at the end ({last_two})")
        return sig("descent-then-nonfinite", [f"the loss {moved}{then}: {ending}"])
    stall = _stall(ev)
    frozen = _frozen(ev) if stall is None else None
    if frozen:
        return sig(*frozen)
    if stall is None and (early_frozen := _frozen_early(ev)):
        return replace(sig(*early_frozen), weak=True)    # a few values: the shape, too faintly to name an entry alone
    early = ev.head[:SPIKE_WINDOW]
    peak = max(range(len(early)), key=early.__getitem__) if early else 0
    # A spike: SPIKE_RATIO times the first value; or, in a run the words say had no warmup (and that names no warmup of
    # its own), NO_WARMUP_JUMP times it -- a warmup-less optimiser's first steps are its largest, the entry's own face,
    # said by the report (without those words a jump this small may be a small batch's noise). Not the second in rows
    # that are each a whole epoch: an epoch's mean has averaged such a spike away, and its rise is something else
    # (augmentation switched on, a new loss term).
    if early and early[0] > 0 and ev.last < early[0]:
        for ratio, said in ((SPIKE_RATIO, ""), (NO_WARMUP_JUMP, " in a run the report says had no warmup")):
            if ratio == NO_WARMUP_JUMP and not (NO_WARMUP.search(ev.prose) and not WARMUP_SET.search(ev.prose)
                                                and not _whole_epochs(ev, len(early))):
                break
            if early[peak] >= ratio * early[0] and _settled_spike(ev.head, early[peak] / 2, ratio):
                return sig("spike-then-recover",
                           [f"the loss jumped from {_fmt(early[0])} at {at(0)} to {_fmt(early[peak])} at {at(peak)} "
                            f"(x{early[peak] / early[0]:.2g}){said}, then recovered and ended at {_fmt(ev.last)}, "
                            "below where it started"])
    end_rises = _rises_before(ev.before)
    if end_rises and sustained_climb(ev.before[-1 - end_rises:]) is not None:   # the alarm is for the climb still going
        return sig("climbing", [f"no non-finite value yet, but the loss has risen {end_rises} times in a row "
                                f"to {_fmt(ev.before[-1])} at the end ({at(ev.count - 1)})"])
    low = ev.low if ev.low is not None else ev.head[0]
    slow = _slow_climb(ev) if warn_index is None and not GROWS_WHEN_HEALTHY.search(
        f"{ev.loss_named[0]} {ev.prose}") else None
    if ((warn_index is not None or slow) and low > 0 and ev.last > ev.head[0] and ev.last >= STAYED * low
            and ev.high is not None and ev.last >= NEAR_PEAK * ev.high):
        seen = (f"a loss watch ({WATCH_RULE}) would have warned at {warn_at}" if slow is None else
                f"it rose at {slow[0]} of the {slow[1]} values after its lowest, each rise too small for a loss watch "
                f"({WATCH_RULE}) to flag")
        return sig("climbed-and-stayed", [
            f"the loss climbed and did not come back down: it ends at {_fmt(ev.last)} ({at(ev.count - 1)}), above "
            f"its first value {_fmt(ev.head[0])} ({at(0)}) and {ev.last / low:.3g}x its lowest, {_fmt(low)} "
            f"({ev.where(ev.low_at)}), with no nan or inf to stop it; {seen} (some logged losses grow in a healthy "
            "run: a GAN's generator loss, a value loss regressing returns that grow)"])
    flat = _plateau(ev) or stall
    if flat:
        return sig(*flat)
    first, last = ev.head[0], ev.last
    trend = "fell" if last < first else "did not fall"
    bump = ""
    if warn_index is not None:
        back = ev.low is not None and last <= RECOVERED * ev.low
        stayed = ev.high is not None and last >= NEAR_PEAK * ev.high
        # (back near its lowest, it recovered; back only within RECOVERED of it, the numbers say how far: a loss that
        # settled at chance above its best did not recover)
        bump = f"; it climbed for a while around {warn_at} and " + (
            "recovered" if back and last <= (1 + PLATEAU_FALL) * ev.low else
            f"came back down to {_fmt(last)}, above its lowest ({_fmt(ev.low)})" if back else
            "stayed near its peak, below where it started" if stayed else "came partly back down")
    swings = len(_excursions(ev.head, ev.high / 2)) if ev.high is not None and ev.high > 0 else 0
    if swings >= SWINGS:                # (a jump that keeps coming back is no bump: see _excursions)
        bump = (f"; it jumped to {SPIKE_RATIO:g}x its low or more {counted(swings, 'time')} in its first "
                f"{len(ev.head)} values (up to {_fmt(ev.high)}): a swing that returns again and again, as when each "
                "batch holds one class (a dataset sorted by class and not shuffled)")
    unjudged = "" if _shape_judged(ev) else (
        f"; too few values to judge a plateau or a stall ({SHAPE_MIN} are needed)" if ev.count < SHAPE_MIN else
        "; a loss that reaches 0 or below is not judged for a plateau or a stall" if not (ev.low and ev.low > 0) else
        "; the values do not start at the run's start, so a plateau or a stall cannot be judged")
    moved = (f"the loss {trend} from {_fmt(first)} to {_fmt(last)}" if _fmt(first) != _fmt(last) else
             f"the loss ended where it started, at {_fmt(last)} (lowest {_fmt(ev.low)}, highest {_fmt(ev.high)})")
    return sig("healthy", [f"{ev.count} loss values, all finite: {moved}" + bump + unjudged])


# Losses that grow slowly in a healthy run: a GAN's generator, a value loss regressing returns that grow. A slow climb
# is not read as one in a run that names them (a fast climb, which the watch sees, still is).
GROWS_WHEN_HEALTHY = re.compile(r"\b(?:gan|dcgan|wgan|generator|discriminator|g_loss|loss_?g|d_loss|loss_?d|g loss|"
                                r"d loss|reward|returns?|q[ _-]?values?|dqn|ppo|critic|actor|td[ _-]?error)\b", re.I)
# A climb too slow for the watch (rises of a few percent a print): it still counts as a climb that stayed when
# it runs over SLOW_VALUES values or more after the lowest and most of them (SLOW_SHARE) are rises.
SLOW_VALUES, SLOW_SHARE = 5, 2 / 3


def _slow_climb(ev: Evidence) -> tuple[int, int] | None:
    """(rises, values) after the lowest value, when the loss rose at most of them: a slow, sustained climb."""
    if ev.low_at is None or ev.first_nonfinite is not None or ev.low_at < ev.before_start:
        return None
    after = ev.before[ev.low_at - ev.before_start:]
    n = len(after) - 1
    rises = sum(b > a for a, b in zip(after, after[1:]))
    return (rises, n) if n >= SLOW_VALUES and rises >= SLOW_SHARE * n else None


def _nonfinite_kind(ev: Evidence) -> str:
    """The first non-finite value's kind, as the log says it (a stop check may say only "inf or nan")."""
    if ev.hidden_kind:         # set only when the first non-finite value is the one the log did not print as such
        return ev.hidden_kind
    return "nan" if math.isnan(ev.first_nonfinite_value) else "inf"


def _hidden_note(ev: Evidence) -> list[str]:
    return [ev.hidden_note] if ev.hidden_note else []


def _descent_before_climb(ev: Evidence) -> str | None:
    """The fact that the run fell for a good while before the climb, if it did."""
    first = ev.head[0]
    if ev.low is None or not first > 0 or ev.low_at < DESCENT_MIN or ev.low > (1 - DESCENT_FALL) * first:
        return None
    return (f"the loss first fell for {ev.low_at} values, from {_fmt(first)} at {ev.where(0)} to "
            f"{_fmt(ev.low)} at {ev.where(ev.low_at)}, then turned and climbed, as a loss does when the "
            "steps grow as training goes on")


def _once_an_epoch(ev: Evidence) -> bool:
    """Does the first value stand for many steps: located by no step number, and either called an average
    by its line, or located by its epoch alone with the next value (if any) in another epoch -- one value
    printed per epoch, not a step the scanner could not number?"""
    first = ev.at(0)
    if first is None or first.step:
        return False
    if first.averaged:
        return True
    if not first.epoch:
        return False
    second = ev.at(1) if ev.count > 1 else None
    return second is None or second.epoch != first.epoch


def _at_run_start(ev: Evidence) -> bool:
    """Is the first value the run's first, as far as the log's numbering says (unnumbered: assume so)? Numbered 0
    or 1; or, in the first epoch, the first print of a loop that prints every k steps: at step k (or k - 1, a count
    from 0 printed when it reaches k - 1), with the next print at 2k (`Epoch [1/5], Step [100/600]`, then 200)."""
    pos = ev.at(0)
    if pos is None or not pos.numbered:
        return True
    if all(n <= 1 for n in _numbers_of(f"{pos.epoch or ''} {pos.step or ''}")):
        return True
    step, nxt = step_number(pos), step_number(ev.at(1)) if ev.count > 1 else None
    first_epoch = all(n <= 1 for n in _numbers_of(epoch_number(pos)))
    # (printed once an epoch at the same count, `[1, 12000]` then `[2, 12000]` from a tutorial loop changed to print at
    # an epoch's end: the first is the first epoch's)
    if step is not None and step == nxt and first_epoch and epoch_number(pos) is not None and \
            epoch_number(ev.at(1)) == str(int(float(epoch_number(pos))) + 1):
        return True
    if step is None or nxt is None or epoch_number(ev.at(1)) != epoch_number(pos) or not first_epoch:
        return False
    every = nxt - step
    return every > 1 and step in (every, every - 1)


def _unprinted_before(ev: Evidence) -> bool:
    """Is the first value the first print of a loop that printed nothing for the steps before it (step 100 of a
    loop that prints every 100)?"""
    step = step_number(ev.at(0)) if ev.count else None
    return step is not None and step > 1 and _at_run_start(ev)


def _numbers_of(text: str | None) -> list[float]:
    """The counts a position prints, not their totals (`epoch 1/10`: 1)."""
    return [float(n) for n in re.findall(r"(?<![/.\d])(\d+(?:\.\d+)?)(?![.\d])", text or "")]


def _shape_judged(ev: Evidence) -> bool:
    """Enough finite, positive values from the run's start to judge a plateau or a stall."""
    return ev.count >= SHAPE_MIN and ev.low is not None and ev.low > 0 and _at_run_start(ev)


def _accuracy_rose(ev: Evidence, by: float = ACCURACY_RISE) -> bool:
    """Did the accuracy printed beside the loss rise by this share or more, first print to last?"""
    if not (ev.accuracy_head and ev.accuracy_tail):
        return False
    scale = 100 if ev.accuracy_percent or min(ev.accuracy_head + ev.accuracy_tail) > 1 else 1
    return ev.accuracy_tail[-1] - ev.accuracy_head[0] >= by * scale


def _plateau(ev: Evidence) -> tuple[str, list[str]] | None:
    first = ev.head[0]
    if not _shape_judged(ev) or ev.low < (1 - PLATEAU_FALL) * first or ev.high > (1 + PLATEAU_FALL) * first:
        return None
    # (beside an accuracy that rose, the model learned what the loss cannot show: said by the printed fact)
    pct = "%" if ev.accuracy_percent else ""
    verdict = (f"the loss barely moved while the accuracy printed beside it rose, from {_fmt(ev.accuracy_head[0])}{pct} "
               f"to {_fmt(ev.accuracy_tail[-1])}{pct}" if _accuracy_rose(ev, ACCURACY_MOVED) else "it never learned")
    return ("plateau-from-start",
            [f"over {ev.count} values ({ev.where(0)} to {ev.where(ev.count - 1)}) the loss stayed within "
             f"{PLATEAU_FALL:.0%} of its first value {_fmt(first)} (lowest {_fmt(ev.low)}, highest "
             f"{_fmt(ev.high)}): {verdict}"])


def _model_output(prose: str) -> re.Match | None:
    """The pasted model's probabilities as its output: a Sequential that ends in nn.Sigmoid() or nn.Softmax(), or what
    the last forward() pasted returns (its block: to the next `def` or `class` at its indentation or less)."""
    last = None
    for last in re.finditer(r"(?m)^([ \t]*)def forward\(", prose):
        pass
    if last is not None:
        end = re.compile(r"(?m)^[ \t]{0,%d}(?:def|class)\b" % len(last.group(1))).search(prose, last.end())
        block = prose[last.start():end.start() if end else len(prose)]
        found = TORCH_PROBABILITY_OUT.search(block)
        if found and not found.group(0).startswith("nn."):
            return found
    return next((m for m in TORCH_PROBABILITY_OUT.finditer(prose) if m.group(0).startswith("nn.")), None)


# Gradients said to be exactly zero ("the grads are exactly 0.0", "gradients = 0", "grad norm is zero")
GRADS_ZERO_SAID = re.compile(r"\bgrad(?:ient)?s?\b(?:[ \t]+norms?)?[^.\n]{0,60}?\b(?:are|is|were|was|=|==|equal(?:s| to)?|"
                             r"print(?:s|ed)?(?: as)?)[ \t]+(?:all[ \t]+)?(?:exactly[ \t]+)?(?:0(?:\.0+)?|zero)(?!\.?\d)", re.I)
# ... not where a share of them is said to be 0% ("0.0% of the first layer's gradients are 0": none)
NONE_OF_THEM = re.compile(r"(?:^|[\s(])0(?:\.0+)?\s*%[^.\n]*$")


def _grads_said_zero(prose: str) -> re.Match | None:
    return next((m for m in GRADS_ZERO_SAID.finditer(prose)
                 if not NONE_OF_THEM.search(prose, max(0, m.start() - 60), m.start())), None)


def _stall(ev: Evidence) -> tuple[str, list[str]] | None:
    first = ev.head[0]
    if not _shape_judged(ev) or ev.low > (1 - PLATEAU_FALL) * first:
        return None
    tail = ev.before
    n = 1
    while n < len(tail) and _within(tail[-1 - n:], FLAT):
        n += 1
    level = tail[-1]
    if n < min(KEEP, (ev.count + 1) // 2) or level < STALL_LEVEL * first:
        return None
    start = ev.before_start + len(tail) - n
    # (a level well above the lowest was reached by going back up: said, not passed over)
    then = "then stopped" if level <= (1 + PLATEAU_FALL) * ev.low else "then went back up and stopped"
    return ("stall-after-drop",
            [f"the loss fell from {_fmt(first)} at {ev.where(0)} to {_fmt(ev.low)} at {ev.where(ev.low_at)}, "
             f"{then}: the last {n} values ({ev.where(start)} to {ev.where(ev.count - 1)}) stay within "
             f"{FLAT:.0%} of {_fmt(level)}, {level / first:.0%} of where it started"])


# A loss that moved (by PLATEAU_FALL or more) and then printed the very same value FROZEN_MIN times or more, for half
# the run or more, at STALL_LEVEL or more of its first value: its outputs stopped changing (a network whose units all
# died prints one loss for ever) -- a stall, whatever the curve did before it (a spike that killed the units, or a
# fall).
FROZEN_MIN = 5
# Fewer values than SHAPE_MIN are judged only when they froze: the last FROZEN_FEW or more (all but the first two at
# most) print the very same value, with FROZEN_DIGITS significant digits or more, so that no movement can hide in
# the rounding ("loss: 2.3013" four epochs running; not "0.69" or "0.0000").
FROZEN_FEW, FROZEN_DIGITS = 4, 4


def _frozen_tail(ev: Evidence) -> tuple[float, int, str]:
    """The last value, how many of the last values print that very value, or one unit of its last printed digit
    off it (a frozen 0.5623 printed once as 0.5624 has not moved: a descent moves further from the last value with
    each step back), and how the same they are, in words."""
    tail, level = ev.before, ev.before[-1]
    # (the finest digit any of them prints: a value read back drops its trailing zeros, 2.1010 reads 2.101, and a
    # descent 2.1013, 2.1012, 2.1011, 2.1010 would be a flicker of 2.101's last digit)
    unit = _last_digit_unit(level)
    n = 1
    while n < len(tail):
        finer = min((u for u in (unit, _last_digit_unit(tail[-1 - n])) if u > 0), default=0.0)
        if abs(tail[-1 - n] - level) > finer * (1 + 1e-9):
            break
        unit, n = finer, n + 1
    exact = all(v == level for v in tail[len(tail) - n:])
    return level, n, "the same to every printed digit" if exact else f"the same to within {unit:g}"


def _last_digit_unit(value: float) -> float:
    """One unit of the last digit of the value as it reads (0.5623 -> 1e-4, 4.071e+10 -> 1e7), or 0 for a value of
    fewer than FROZEN_DIGITS significant digits, whose last digit is too coarse to call a flicker (2.0, 0.69)."""
    if not math.isfinite(value) or value == 0:
        return 0.0
    read = decimal.Decimal(repr(value)).normalize().as_tuple()
    return 10.0 ** read.exponent if len(read.digits) >= FROZEN_DIGITS else 0.0


def _moved(ev: Evidence, level: float) -> bool:
    """Did the loss go PLATEAU_FALL or more above or below the level it froze at, before it froze?"""
    return ev.high >= (1 + PLATEAU_FALL) * level or ev.low <= (1 - PLATEAU_FALL) * level


def _frozen(ev: Evidence) -> tuple[str, list[str]] | None:
    """A frozen loss (asked only of one the stall's own test does not catch: it went up before it froze)."""
    if not _shape_judged(ev) or ev.count != len(ev.before) + ev.before_start:
        return None
    level, n, same = _frozen_tail(ev)
    first = ev.head[0]
    if n < FROZEN_MIN or n < (ev.count + 1) // 2 or not _moved(ev, level) or level < STALL_LEVEL * first:
        return None
    start = ev.count - n
    return ("stall-after-drop",
            [f"the loss froze: its last {n} values ({ev.where(start)} to {ev.where(ev.count - 1)}) are all "
             f"{_fmt(level)}, {same}, after it had moved (from {_fmt(first)} at {ev.where(0)}, "
             f"lowest {_fmt(ev.low)}, highest {_fmt(ev.high)}): the outputs no longer change, as when every unit of a "
             "layer has died"])


def _frozen_early(ev: Evidence) -> tuple[str, list[str]] | None:
    """A short run whose loss froze from its first prints: a plateau when it froze near its first value, else a
    stall after the drop its first values made."""
    if not (FROZEN_FEW < ev.count < SHAPE_MIN) or ev.first_nonfinite is not None or ev.low is None or ev.low <= 0 \
            or ev.count != len(ev.before) + ev.before_start or not _at_run_start(ev):
        return None
    level, n, same = _frozen_tail(ev)
    digits = len(repr(level).split("e")[0].replace("-", "").replace(".", "").lstrip("0"))
    first, start = ev.head[0], ev.count - n
    if n < FROZEN_FEW or n < ev.count - 2 or digits < FROZEN_DIGITS or level < STALL_LEVEL * first:
        return None                     # (far below where it started: a loss that converged, and stays there)
    if _accuracy_rose(ev):
        return None                     # the accuracy printed beside it rose: the model learns, whatever the loss shows
    same = f"its last {n} values ({ev.where(start)} to {ev.where(ev.count - 1)}) are all {level!r}, {same}"
    if abs(first - level) <= PLATEAU_FALL * first and not _moved(ev, level):
        return ("plateau-from-start", [f"over {ev.count} values the loss stayed within {PLATEAU_FALL:.0%} of its first "
                                       f"value {_fmt(first)} ({ev.where(0)}), and {same}: it never learned"])
    return ("stall-after-drop", [f"the loss froze: {same}, after its first values moved (from {_fmt(first)} at "
                                 f"{ev.where(0)}): the outputs no longer change, as when every unit of a layer has "
                                 "died or the model predicts one distribution for every input"])


def _within(values: list[float], tolerance: float) -> bool:
    low, high = min(values), max(values)
    return high - low <= tolerance * low


NEGATIVE = next(n for n in NORMALS if n.name == "negative loss")


# ---- the fix --------------------------------------------------------------------------------

SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z`*(\[])")
EMPHASIS = re.compile(r"\*\*(.+?)\*\*|__(.+?)__")


def first_fix_step(entry: Entry) -> str:
    """The Fix section's first step, whole: its first sentence, and the list it introduces if it ends in a colon."""
    blocks = [b.strip() for b in entry.sections.get("Fix", "").split("\n\n") if b.strip()]
    if not blocks:
        return ""
    lines = blocks[0].split("\n")
    intro = " ".join(" ".join(l for l in lines if not l.lstrip().startswith(("- ", "* "))).split())
    sentence = SENTENCE_END.split(intro, maxsplit=1)[0] if intro else ""
    if sentence.endswith(":"):
        rest = [l for l in lines if l.lstrip().startswith(("- ", "* ", "  "))] or \
               (blocks[1].split("\n") if len(blocks) > 1 else [])
        items = _list_items(rest)
        if items:
            sentence = f"{sentence} {'; '.join(items)}."
        else:
            sentence = sentence[:-1] + "."
    return EMPHASIS.sub(lambda m: m.group(1) or m.group(2), sentence)


def _list_items(lines: list[str]) -> list[str]:
    items: list[str] = []
    for line in lines:
        stripped = line.strip()
        if stripped.startswith(("- ", "* ")) or re.match(r"\d+\. ", stripped):
            items.append(stripped.split(" ", 1)[1])
        elif items and stripped:
            items[-1] += " " + stripped
    return [item.rstrip(";.,") for item in items]


# ---- weighing -------------------------------------------------------------------------------

class Weigher:
    """What diagnosis needs from a catalogue, built once: message patterns, documents, declarers,
    and when each failure shows (its signature's timing, and any its Symptom section names)."""

    def __init__(self, catalog: Catalog, prose: float = WEIGHTS.prose):
        self.catalog, self.prose = catalog, prose
        self.entries = [e for e in catalog.sorted_entries() if e.status != "retired"]
        self.library = Library.of(self.entries, {**FIELDS, "Symptom": prose, "Where it shows up": prose})
        self.told_when = {e.id: when(section(e, "Symptom")) for e in self.entries}
        # (by its own signature: a second one, in a narrower setting, does not widen when the failure shows)
        self.timing = {e.id: WHEN_OF_TRACE.get(e.trace, set()) | self.told_when[e.id] for e in self.entries}
        self.trace_count: dict[str, int] = {}
        self.trace_of = {e.id: e.trace for e in self.entries}
        for e in self.entries:
            self.trace_count[e.trace] = self.trace_count.get(e.trace, 0) + 1
        # each entry's declared messages that are evidence, found once
        self.weighed = {e.id: weighed(e) for e in self.entries}
        self.declarers: dict[str, list[str]] = {}
        self.ops: dict[str, dict[str, str]] = {}      # template -> entry ID -> the op its own example names
        self.main_of: dict[str, str] = {}              # a message -> the entry whose own (first) message it is
        self.main_op: dict[str, str] = {}              # entry ID -> the op its own message names (NumPy's "in exp")
        for e in self.entries:
            if e.messages:
                self.main_of.setdefault(e.messages[0].text, e.id)
                main = e.messages[0]
                named = op_named(main.text, main.example) or (m.group(1) if (m := _NUMPY_OP.search(main.text)) else "")
                if named:
                    self.main_op[e.id] = _bare_op(named)
        for e in self.entries:
            for m in self.weighed[e.id]:
                self.declarers.setdefault(m.text, []).append(e.id)
                if op := op_named(m.text, m.example):
                    self.ops.setdefault(m.text, {})[e.id] = op
        # the entries that say, in one of their own phrases, that they explain a loss below zero, gradients
        # that are exactly zero, an accuracy that improves on a flat loss
        phrases = [p for e in self.entries for p in e.phrases]
        said = iter(map(set, tokens_many(phrases)))
        self.phrase_tokens = {e.id: [next(said) for _ in e.phrases] for e in self.entries}
        self.negative = self._saying({"negative", "loss"})
        self.zero_gradient = self._saying(ZERO_GRADIENT_WORDS)
        self.accuracy_rises = self._saying(ACCURACY_WORDS)
        self.softmax_floor = self._saying(FLOOR_WORDS)
        self.unlabelled = self._saying(UNLABELLED_WORDS)
        self.raw_pixels = self._saying(RAW_PIXEL_WORDS)
        self.exp_overflow = self._saying(EXP_OVERFLOW_WORDS)
        self.constant_feature = self._saying(CONSTANT_FEATURE_WORDS)
        self.zero_init = self._saying(ZERO_INIT_WORDS)
        self.sigmoid_zero = self._saying(SIGMOID_ZERO_WORDS)
        self.rate_raised = self._saying(RATE_RAISED_WORDS)
        self.uncleared = self._saying(UNCLEARED_WORDS)
        self.put_off = self._saying(PUT_OFF_WORDS)
        self.rate_proof = self._saying(RATE_PROOF_WORDS)
        self.regression = self._saying(REGRESSION_WORDS)
        self.probabilities = self._saying(PROBABILITY_LOSS_WORDS)
        self.forgot_scaling = {"inputs": self._saying(FORGOT_INPUTS), "targets": self._saying(FORGOT_TARGETS)}
        # the entries whose title names half precision
        self.precision = {e.id for e, title in zip(self.entries, tokens_many([e.title for e in self.entries]))
                          if "fp16" in title}
        # the stop checks are left to their own family (stops.py), which knows a quoted one is the reporter's
        self.finder = MessageFinder([(m.text, m.origin) for e in self.entries for m in self.weighed[e.id]])


    def _saying(self, words: set[str]) -> set[str]:
        """The entries with a phrase that holds all these words (as tokens)."""
        return {i for i, said in self.phrase_tokens.items() if any(words <= p for p in said)}


_WEIGHERS: dict[tuple[int, float], Weigher] = {}


def weigher(catalog: Catalog, prose: float = WEIGHTS.prose) -> Weigher:
    key = (id(catalog), prose)
    if key not in _WEIGHERS or _WEIGHERS[key].catalog is not catalog:
        _WEIGHERS[key] = Weigher(catalog, prose)
    return _WEIGHERS[key]


def message_finder(catalog: Catalog) -> MessageFinder:
    """The patterns of every message the catalogue declares, for a scan."""
    return weigher(catalog).finder


def weighed(entry: Entry) -> list:
    """The entry's declared messages that are evidence: a check that stops a run at any non-finite loss
    (stops.py; Keras's TerminateOnNaN, which entries declare because their failure makes Keras print it)
    names no cause, and is read as a loss value instead."""
    return [m for m in entry.messages if not stop_of(m.shown)]


# NumPy's floating-point warnings name the ufunc they come from: "overflow encountered in exp"
_NUMPY_OP = re.compile(r" encountered in (\w+)$")
# NumPy's floating-point error classes (numpy/_core/src/umath/extobj.c), for float results: "overflow" and "divide
# by zero" say an inf was made from finite numbers; "invalid value" says a nan was made, from finite numbers (0 / 0) or
# from an inf already there (inf / inf).
NUMPY_INF = re.compile(r"(?:overflow|divide by zero) encountered in \w+$")
NUMPY_NAN = re.compile(r"invalid value encountered in \w+$")
# A value filled into a message that names an operation: a word, not a number, nor what the value was.
_OP = re.compile(r"[A-Za-z_][\w.]*")
_NOT_OP = frozenset({"nan", "inf", "NaN", "Infinity", "graph"})


def op_named(text: str, printed: str) -> str:
    """The operation a printed instance of a declared message names (the backward function of PyTorch's
    anomaly mode, the op of TensorFlow's check_numerics, the primitive of JAX's debug_nans): its last
    filled-in value that is a word, or ""."""
    if "{}" not in text or not printed:
        return ""
    pattern = template_pattern(text, capture=True)
    printed = " ".join(printed.split())
    # a message quoted in a sentence often loses its final full stop (as _declared_hits allows)
    m = pattern.fullmatch(printed) or pattern.fullmatch(printed + ".")
    words = [v for v in (m.groups() if m else ()) if _OP.fullmatch(v) and v not in _NOT_OP]
    # PyTorch numbers its backward functions from 1.8 on (ExpBackward0); older ones print ExpBackward
    return re.sub(r"(?<=Backward)\d+$", "", words[-1]) if words else ""


def _bare_op(op: str) -> str:
    """An op as the failure's own words name it: ExpBackward and TensorFlow's SqrtGrad are exp and sqrt."""
    return re.sub(r"(?:Backward|Grad)$", "", op).lower()


def _message_weight(text: str, seen, entry: Entry, w: Weigher, weights: Weights, infs: tuple = ()) -> float:
    """An entry's share of a declared message found. When the log's instance names an operation and some
    declarers' own examples name that same one, they share it: a nan first seen in SqrtBackward0 is the
    singular slope's, whichever other entries also print the template with another op. A nan NumPy reports
    after it reported an inf (infs: the lines and keys of its reports of an inf made) is that inf's consequence
    (inf / inf, inf - inf): it is evidence only for the entries that print that inf too (WR-070's -inf - -inf
    after a cast overflowed), not for one whose nan is made from finite numbers (0 / 0 in a normalisation)."""
    declarers = w.declarers.get(text, [entry.id])
    if NUMPY_NAN.match(text):
        before = {key for line, key in infs if line < seen[1]}
        mine = {m.text for m in w.weighed[entry.id]}
        # (an overflow in one op of the entry's and in another of the log's are the same story: values too large)
        if before and not before & mine and not (any(k.startswith("overflow") for k in before)
                                                 and any(t.startswith("overflow encountered") for t in mine)):
            return 0.0
    found = op_named(text, seen[2]) if text in w.ops else ""
    same = [i for i, op in w.ops.get(text, {}).items() if op == found] if found else []
    if found and not same:     # no example of this message names the op: the entry whose own message does
        same = [i for i in declarers if w.main_op.get(i) == _bare_op(found)]
    if same:
        share = (1.0 if entry.id in same else 0.0) / len(same)
    else:     # the entry whose own (first) message it is counts twice: the others print it as a consequence
        main = w.main_of.get(text)
        share = (2.0 if entry.id == main else 1.0) / (len(declarers) + (main in declarers))
    return weights.message * (SCALE_ZERO if _apex_zero(text, seen) else 1.0) * share


def _whole_signature(text: str, seen, entry: Entry, w: Weigher) -> bool:
    """Is this message, found in a log with no loss values, all of a messages-only entry's signature? Not when
    it is another entry's own (its first, the one it is about), which this one prints only as a consequence,
    nor when it names an op other than the one this entry's own example names (a nan in log, not in exp)."""
    if w.main_of.get(text, entry.id) != entry.id:
        return False
    mine = w.ops.get(text, {}).get(entry.id)
    return not mine or op_named(text, seen[2]) == mine


def _unexplained_birth(entry: Entry, hits: list, ev: Evidence, sig: Signature, w: Weigher) -> bool:
    """Did the curve turn non-finite right after a messages-only entry's own message (printed after the last
    finite loss: a warning long before, a sigmoid's harmless overflow or a validation pass's, made no nan), which
    no entry of the curve's shape declares? The message names the operation where the non-finite value was born (exp overflowed);
    the shape's entries (a log of zero, a bad batch, a nan gradient) would print another. Where the shape's entry
    prints it too (an overshooting rate, a bad start overflow exp), the shape names the cause and keeps its lead."""
    if sig.name not in NONFINITE_TRACES or ev.first_nonfinite_at is None:
        return False
    since = ev.before_at[-1].line if ev.before and ev.before_at and ev.before_at[-1] is not None else 0
    shape = {i for i, trace in w.trace_of.items() if trace == sig.name or trace == PART_OF.get(sig.name)}
    return any(w.main_of.get(text) == entry.id and since < seen[1] <= ev.first_nonfinite_at.line
               and not shape & set(w.declarers.get(text, ())) for text, seen in hits)


def _apex_zero(text: str, seen) -> bool:
    """Is this hit Apex's division by a scale of zero, weighed as the floor message?"""
    return text == SAME_AS and seen[2] == MESSAGE


def _declared_hits(messages: list, found: dict[str, list]) -> list[tuple[str, list]]:
    """An entry's declared messages (those weighed) in the log: filed under their text by a catalogue-aware
    scan, or under a family's key with an instance that fills the template (a message quoted in a
    sentence often loses its final full stop)."""
    hits = []
    for m in messages:
        seen = found.get(m.text)
        if seen is None:
            seen = next((v for v in found.values() if m.matches(v[2]) or m.text == v[2]
                         or (m.text.endswith(".") and m.matches(v[2] + "."))), None)
        if seen is not None:
            hits.append((m.text, seen))
    return hits


@dataclass
class _Context:
    """What the whole report says, computed once before each entry is weighed."""
    ev: Evidence
    sig: Signature
    words_count: bool              # the report is mostly words: its text is evidence
    said_when: set[str]            # when the words say it failed
    said_at: str                   # ... or the step a check's stop named, as the log numbers it ("at iteration 460, ")
    bm: dict[str, float]           # BM25 of the words against each entry
    strength: float                # how much the words say at all, 0..1
    said_nonfinite: bool           # the words or values say the loss went nan or inf (or climbed, in words)
    said_nonfinite_value: bool     # ... nan or inf itself, not only a climb
    said_failure: bool             # anything at all says something went wrong
    hits: dict[str, list]          # entry ID -> its declared messages found
    lr_tried: str                  # "failed" / "helped": a lower learning rate was tried
    impossible_negative: str       # why a loss below zero here is a failure, or ""
    negative: bool                 # a loss below zero that is not said to be a likelihood
    precision: bool                # the words name half precision
    printed: dict[str, str]        # "zero-gradient" / "accuracy-rose" -> the fact, as the log shows it
    trainer_clears: str            # the log's tool clears the gradients every step, and how (Dialect.clears_gradients)
    classifier: str                # what shows the run is a classifier's and no regression's, or ""
    regressor: str                 # what shows the run is a regression's and no classifier's, or ""
    half_denied: bool              # the words name half precision only to say it is not used
    half_shown: str                # what shows half precision switched on, as written (HALF_SHOWN), or ""
    scaled: dict[str, dict[str, str]]   # "scaled" / "unscaled" -> "inputs" / "targets" -> the words that say so
    infs: tuple                    # (line, key) of NumPy's reports of an inf made (overflow, division by zero)


def _context(ev: Evidence, w: Weigher, sig: Signature, weights: Weights, zero: str | None = None) -> _Context:
    words_count = ev.count < 3 or sig.name in ("no-loss", "few-values", "nonfinite-throughout")
    words = tokens(ev.prose)
    bm = w.library.scores(words)
    top = max(bm.values(), default=0.0)
    # a loss that keeps growing, said in words, is the climb's signature said in words
    said_nonfinite = ev.first_nonfinite is not None or bool({"nan", "inf", "diverge", "climb"} & set(words))
    said_nonfinite_value = ev.first_nonfinite is not None or bool({"nan", "inf"} & set(words))
    hits = {e.id: _declared_hits(w.weighed[e.id], ev.messages) for e in w.entries}
    if zero is not None:                               # Apex's scale at zero: the scaler out of range
        for i in w.declarers.get(SAME_AS, []):
            if not any(t == SAME_AS for t, _ in hits[i]):
                hits[i].append((SAME_AS, ev.messages[zero]))
    impossible = _impossible_negative(ev, words)
    said_failure = (said_nonfinite or sig.name in TRACES or sig.name in UNFINISHED or bool(ev.messages)
                    or says_failure(ev.prose) or bool(impossible))
    said_when = timing_of(words) if words_count else set()
    regressor, scaled = _regressor(ev), _scaled(ev.prose)
    stopped = ev.first_nonfinite_at.step if ev.hidden_note and ev.first_nonfinite_at is not None else None
    said_at = ""
    if words_count and not said_when and stopped:      # a check's stop names its step: "at iteration 460" says when
        said_when = _when_stopped(ev.first_nonfinite_at)
        said_at = f"at {stopped} (the step the check named), " if said_when else ""
    return _Context(ev, sig, words_count, said_when, said_at, bm,
                    min(1.0, top / weights.bm_full), said_nonfinite, said_nonfinite_value, said_failure, hits,
                    lr_tried(ev.prose), impossible,
                    bool(impossible) or (_negative(ev, words) and loss_kind(ev.prose) != "likelihood"),
                    "fp16" in words, _printed_facts(ev, sig, words, regressor, scaled), _trainer_clears(ev), _classifier(ev),
                    regressor, half_precision_denied(ev.prose, words), half_precision_shown(ev.prose, words),
                    scaled,
                    tuple((seen[1], key) for key, seen in ev.messages.items() if NUMPY_INF.match(seen[2])))


def _scaled(prose: str) -> dict[str, dict[str, str]]:
    """What the words say was scaled already ("scaled") and what they say was not ("unscaled"): "inputs" and
    "targets", each with the words that say it."""
    out: dict[str, dict[str, str]] = {"scaled": {}, "unscaled": {}}
    for m in SCALED.finditer(prose):
        said = " ".join(m.group(0).split())
        if m.group("passive"):
            parts = {"unscaled" if m.group("neg") else "scaled": m.group("passive")}
        else:
            # what was scaled opens the object ("both X and y", "the price by ..."), not a word further on ("by zero
            # in my data"); a part after "but not", "except" is what was left out
            obj = " ".join(m.group("what").split()[:6])
            kept, *left = EXCEPT.split(obj, 1)
            window = prose[max(0, m.start() - 40):m.start()]
            negated = NEGATED.search(window)
            if negated:
                said = " ".join((window[negated.start():] + m.group(0)).split())
            parts = {"unscaled" if negated else "scaled": " ".join(kept.split()[:4])}
            if left and not negated:
                parts["unscaled"] = " ".join(left[0].split()[:4])
        for sense, what in parts.items():
            for kind, pattern in (("targets", SCALED_TARGETS), ("inputs", SCALED_INPUTS)):
                if what and pattern.search(what):
                    out[sense].setdefault(kind, said)
    for m in UNSCALED_AFTER.finditer(prose):
        before = prose[max(0, m.start() - 80):m.start()]
        before = re.split(r"[.;:\n]", before)[-1]
        subject = list(SUBJECT_IS.finditer(before))
        if not subject:
            continue
        for kind, pattern in (("targets", SCALED_TARGETS), ("inputs", SCALED_INPUTS)):
            if pattern.search(subject[-1].group("what")):
                out["unscaled"].setdefault(kind, " ".join((before[subject[-1].start():] + m.group(0)).split()))
    for m in UNSCALED_SAID.finditer(prose):
        what = m.group("what") or m.group("subject")
        what = "inputs" if re.fullmatch(r"(?i)anything|everything|data", what) else what
        for kind, pattern in (("targets", SCALED_TARGETS), ("inputs", SCALED_INPUTS)):
            if pattern.search(what):
                out["unscaled"].setdefault(kind, " ".join(m.group(0).split()))
    for kind in list(out["scaled"]):             # said both ways: the words do not decide
        if kind in out["unscaled"]:
            del out["scaled"][kind], out["unscaled"][kind]
    return out


def _classifier(ev: Evidence) -> str:
    """What shows a classifier's run (an accuracy printed beside the loss, or a softmax, a cross-entropy, a
    classification dataset named), when nothing names a regression; else ""."""
    if REGRESSOR.search(ev.prose):
        return ""
    if ev.accuracy_head and max(ev.accuracy_head + ev.accuracy_tail) > 0:
        # (an accuracy of 0 on every line is a regression's, compiled with metrics=['accuracy'])
        return "the log prints an accuracy beside the loss"
    named = CLASSIFIER.search(ev.prose)
    return f"the report names `{named.group(0)}`" if named else ""


def _regressor(ev: Evidence) -> str:
    """What shows a regression's run (its words: MSE, MLPRegressor, prices), with nothing of a classifier's; else ""."""
    if _classifier(ev) or CLASSIFIER.search(ev.prose) or PROBABILITY_WORDS.search(ev.prose) or (
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


def _when_stopped(pos) -> set[str]:
    """When a check's stop says the loss broke: its step counts from 0 (stops.py), so step 0 is before any
    update; a batch counted within a later epoch is after a while."""
    number = re.search(r"(\d+)\D*$", pos.step or "")
    epoch = re.match(r"epoch (\d+)", pos.epoch or "")
    if number is None or (epoch is None and (pos.step or "").startswith("batch")):
        return set()                  # a batch counted within an epoch the log does not name
    if epoch is not None and int(epoch.group(1)) > 1:
        return {"later"}
    n = int(number.group(1))
    return {"start"} if n == 0 else {"early"} if n <= EARLY_STEPS else {"later"}


def _printed_facts(ev: Evidence, sig: Signature, words: list[str], regressor: str,
                   scaled: dict[str, dict[str, str]]) -> dict[str, str]:
    """What the log prints beside the loss, or the words say was printed, that one failure produces
    (see W_PRINTED). (`regressor`: what shows a regression's run, _regressor; `scaled`: what the words say was
    scaled, _scaled)"""
    out = {}
    # A regression's squared error is about the targets' mean square while the outputs are still near 0: a first
    # loss of ENORMOUS_START or more that never fell to half of it takes errors of its root's size, targets in their
    # raw units (or outputs broken from the start: the entries of that shape have the enormous start's part). Only
    # a loss that never fell to half of it (the enormous start's own rule), that is no sum over many examples or
    # pixels (reduction='sum' makes any loss enormous), and whose targets the words do not say were scaled; not a
    # loss that climbed (the step overshoots then, whatever the targets' units).
    if regressor and sig.enormous_start and ev.high is not None and ev.high <= 2 * ev.head[0] \
            and not SUMMED.search(ev.prose) and "targets" not in scaled["scaled"]:
        first = ev.head[0]
        size = (f"an absolute error that large takes errors of about {_fmt(first)}" if ABSOLUTE_LOSS.search(ev.prose)
                else f"a squared error that large takes errors of about {_fmt(math.sqrt(first))} (its root)")
        out["raw-targets"] = (f"{regressor}, a regression's, and its first loss ({_fmt(first)}) is enormous and "
                              f"never fell to half of it: {size}, targets in their raw units")
    if SIGMOID_ZERO_WORDS <= set(words):
        out["sigmoid-zero"] = ("the report says the output is 0.5: a sigmoid gives exactly that for an input of 0, "
                               "which a last layer whose weights and bias are all zero gets for every example (a model "
                               "stuck at one output on balanced classes prints about 0.5 too)")
    if sig.name != "healthy" and BACKWARD_STEP.search(ev.prose) and not CLEARED.search(ev.prose):
        out["never-cleared"] = ("the pasted loop calls backward() and step() and clears the gradients nowhere in the "
                                "paste (no zero_grad(), no `.grad = None`)")
    if ev.grad_paired and ev.grad_zero_exact and ev.count >= 3:
        out["zero-gradient"] = ("every gradient norm printed beside the loss is exactly 0: no gradient reaches "
                                "those weights")
    rose = _rate_rose(ev, sig)
    if rose:
        out["rate-rose"] = rose
    first = statistics.median(ev.accuracy_head) if ev.accuracy_head else None
    last = statistics.median(ev.accuracy_tail) if ev.accuracy_tail else None
    floor = _softmax_floor(ev, last)
    if floor:
        out["softmax-floor"] = floor
    # (labels at -1 go wrong beside a falling loss too: NumPy's indexing trains those rows towards the last class)
    if (m := MINUS_ONE_LABELS.search(ev.prose)) and not MINUS_ONE_HANDLED.search(ev.prose):
        out["minus-one-labels"] = (f"the report sets labels to -1 (`{' '.join(m.group(0).split())}`): a label no "
                                   "loss can take -- an index of -1 is the last class to NumPy, and PyTorch's "
                                   "cross-entropy refuses it unless told to ignore it")
    if sig.name != "healthy":      # the pixels' range explains a run that went wrong, not a healthy curve
        # (one max printed: in a tuple of several, which value is whose is not read)
        pixels = next((m for m in MAX_255.finditer(ev.prose) if INPUT_NAME.search(m.group("name"))
                       and not NOT_INPUT_NAME.search(m.group("name")) and m.group(0).count(".max(") == 1), None)
        if pixels and not DIVIDED_255.search(ev.prose):
            out["raw-pixels"] = (f"the paste prints the largest value of `{pixels.group('name')}` as 255: raw 8-bit "
                                 "pixel values, fed as they are")
    overflow = _exp_overflow(ev)
    if overflow:
        out["exp-overflow"] = overflow
    numpy = list(NUMPY_ZERO_WEIGHTS.finditer(ev.prose))
    keras_torch = ZERO_INIT.search(ev.prose) if len(LAYERS_BUILT.findall(ev.prose)) >= 2 else None
    zeros = keras_torch or (numpy[1] if len(numpy) >= 2 else None)
    if zeros is not None and sig.name != "healthy":
        code = zeros.group(0)
        out["zero-init"] = (f"the pasted code sets weights to one value (`{' '.join(code.split())}`): units that start "
                            "equal get equal gradients and stay copies of each other")
    divides, constant = DIVIDES_BY_STD.search(ev.prose), CONSTANT_FEATURE.search(ev.prose)
    if divides and constant and sig.name != "healthy":
        out["constant-feature"] = (f"the paste divides by a standard deviation (`{' '.join(divides.group(0).split())}`) "
                                   f"and says a column is constant (\"{' '.join(constant.group(0).split())}\"): that "
                                   "column's standard deviation is 0, and (x - mean) / std is 0/0, nan for every row "
                                   "where the mean comes out exact, as for a whole-number constant (else the same "
                                   "+-1 on every row, from rounding)")
    if sig.name == "plateau-from-start" and first is not None and last is not None:
        # a percentage when printed with % or when both are above 1; both at most 1 without %, a
        # fraction; one of each cannot be read
        percent = ev.accuracy_percent or min(first, last) > 1
        scale = 100.0 if percent else 1.0
        if (percent or max(first, last) <= 1) and (last - first) / scale >= ACCURACY_RISE:
            out["accuracy-rose"] = (f"the accuracy rose from {_fmt(first)} to {_fmt(last)} (medians of the first "
                                    f"and the last {len(ev.accuracy_tail)} printed) while the loss barely "
                                    "moved: the model learns, and the loss does not show it")
    return out


def _exp_overflow(ev: Evidence) -> str:
    """The first call in the paste that hands exp (or a hand-written softmax) a number past what exp can return, as
    a fact, or "": past float64's limit always, past float32's only where the paste computes in float32 (a
    framework's exp, a framework shown, or float32 named)."""
    if STABLE_SAID.search(ev.prose):
        return ""                       # (the paste keeps exp in log space already: what it hands exp is guarded)
    wide = bool(FLOAT32_SAID.search(ev.prose) or {"pytorch", "tensorflow", "jax"} & shown_frameworks(ev))
    for m in EXP_CALL.finditer(ev.prose):
        line_start = ev.prose.rfind("\n", 0, m.start()) + 1
        if "#" in ev.prose[line_start:m.start()] or not LITERAL_ARGS.fullmatch(m.group("args")):
            continue                    # (a comment's, or an expression's numbers: not what exp was handed)
        x = max((float(n) for n in EXP_NUMBER.findall(m.group("args"))), default=-math.inf)
        call = f"the paste hands {m.group('fn')} an input of {_fmt(x)} (`{' '.join(m.group(0).split())}`): exp({_fmt(x)})"
        if x > EXP_LIMITS["float64"]:
            return (f"{call} is past the largest float64 (exp overflows above {EXP_LIMITS['float64']:.2f} in float64, "
                    f"{EXP_LIMITS['float32']:.2f} in float32)")
        # (float32 where the paste computes in it, unless the call itself asks for float64)
        if x > EXP_LIMITS["float32"] and (wide or m.group("lib") in ("torch", "jnp", "tf", "tf.math")) \
                and not re.search(r"float64|double", m.group("args")):
            return f"{call} is past the largest float32 (exp overflows above {EXP_LIMITS['float32']:.2f})"
    return ""


def _floor_of(classes: int) -> float:
    """The lowest a cross-entropy reaches over C classes on outputs already softmaxed: log(1 + (C - 1)/e)."""
    return math.log(1 + (classes - 1) / math.e)


def _wrong_floor_of(classes: int) -> float:
    """The lowest it reaches on an example the model gets wrong: a softmaxed output p whose largest entry is not the
    true class's costs log(sum exp p) - p_true, least at a tie, p_true = p_other = 1/2 (the loss falls as the tie
    grows, and spreading mass to the other classes only raises it): log(2 sqrt(e) + C - 2) - 1/2."""
    return math.log(2 * math.sqrt(math.e) + classes - 2) - 0.5


def _floor_at(classes: int, share: float) -> float:
    """The lowest mean loss over examples of which this share is classified right."""
    return share * _floor_of(classes) + (1 - share) * _wrong_floor_of(classes)


def _softmax_floor(ev: Evidence, accuracy: float | None) -> str:
    """The fact that the loss ended just above a softmax-twice floor while the accuracy was high, or ""."""
    if accuracy is None or ev.first_nonfinite is not None or ev.low is None or ev.count < 3:
        return ""
    share = accuracy / 100 if ev.accuracy_percent or accuracy > 1 else accuracy
    if share < FLOOR_ACCURACY or FLOOR_HIDDEN.search(ev.prose):
        return ""
    named = _classes_named(ev.prose)
    if named is not None:
        classes, why = named
        floor = _floor_of(classes)
        if classes < FLOOR_CLASSES.start or floor > ev.low:
            return ""
    else:
        below = [(c, f) for c in FLOOR_CLASSES if (f := _floor_of(c)) <= ev.low]
        if not below:
            return ""
        classes, floor = below[-1]
        start = math.log(classes)
        if not floor + (start - floor) / 2 <= ev.head[0] <= (1 + FLOOR_NEAR) * start:
            return ""
        why = (f"the count whose floor lies nearest below the loss, and near whose ln C, {start:.4f}, the loss "
               f"started ({_fmt(ev.head[0])})")
    shown = ev.accuracy_tail[-1]      # the accuracy beside the last loss: the share its mean is over
    bound = _floor_at(classes, min(1.0, shown / 100 if ev.accuracy_percent or shown > 1 else shown))
    if ev.last > (1 + FLOOR_NEAR) * bound:
        return ""
    at = (f"; at that accuracy no lower than {bound:.4f}, as each example it gets wrong costs at least "
          f"log(2√e + C - 2) - 1/2 = {_wrong_floor_of(classes):.4f}" if bound - floor >= 0.0005 else "")
    return (f"the loss ends at {_fmt(ev.last)} ({ev.where(ev.count - 1)}), never below log(1 + (C - 1)/e) = "
            f"{floor:.4f} for C = {classes} classes ({why}), beside an accuracy of {_fmt(shown)}"
            f"{'%' if ev.accuracy_percent else ''}: the lowest a cross-entropy can go on outputs that already went "
            f"through a softmax{at}")


def _classes_named(prose: str) -> tuple[int, str] | None:
    """The class count the paste names, and how it names it; or None."""
    counted = CLASS_COUNT.search(prose)
    if counted:
        return int(next(g for g in counted.groups() if g)), f"the paste says `{counted.group(0)}`"
    for pattern, classes in CLASSES_NAMED:
        if m := pattern.search(prose):
            return classes, f"the paste names {m.group(0)}"
    return None


def _trainer_clears(ev: Evidence) -> str:
    """How the tool that printed the log clears the gradients every step, when the paste shows that tool ran the
    steps (its own bar) and no step written by hand; or ""."""
    trainer = dialects.named(ev.dialect)
    if trainer is None or not trainer.clears_gradients or (
            trainer.clears_shown_by is not None and not trainer.clears_shown_by.search(ev.prose)) or (
            trainer.clears_unless is not None and trainer.clears_unless.search(ev.prose)):
        return ""
    return f"the log is printed by {trainer.name.removesuffix(' log')}, whose trainer {trainer.clears_gradients}"


def _rate_rose(ev: Evidence, sig: Signature) -> str:
    """The learning rate printed beside the loss, when it rose through the climb (from where the loss was lowest
    to the climb's end, and is still near the highest it reached); or ""."""
    if sig.name not in RATE_CLIMBS or ev.low_pos is None:
        return ""
    end = (ev.first_nonfinite if ev.first_nonfinite is not None else ev.count) - 1
    last, low = ev.at(end), ev.low_pos
    if last is None or last.rate is None or low.rate is None:
        return ""
    # a rate that had stopped rising before the loss turned (a warmup long over) says nothing of the climb, nor one
    # that peaked and fell back through it (a warmup, then a decay the loss climbed all along)
    during = [p.rate for p in ev.head_at + ev.before_at if low.line <= p.line <= last.line and p.rate is not None]
    if not (last.rate > 0 and last.rate >= RATE_CLIMB * low.rate and last.rate >= RATE_NEAR_PEAK * max(during)):
        return ""
    return (f"the learning rate printed beside the loss rose from {low.rate:g} ({ev.where(ev.low_at)}), where the "
            f"loss was lowest ({_fmt(ev.low)}), to {last.rate:g} ({ev.where(end)}): the loss climbed as the rate rose "
            "(a warmup, a restart or a range test raises the rate on purpose)")


def _impossible_negative(ev: Evidence, words: list[str]) -> str:
    """Why a loss below zero in this report cannot be normal, or "" when it can (or none is reported)."""
    out_of_range = score_out_of_range(ev.prose)
    if out_of_range:
        return f"an overlap score outside [0, 1] (`{out_of_range}`): the targets are not in [0, 1]"
    if _negative(ev, words) and loss_kind(ev.prose) == "bounded":
        return ("the loss goes below zero, and the loss named here (cross-entropy, BCE, 1 - Dice, a squared "
                "error) cannot with valid targets")
    return ""


def _suspect(entry: Entry, c: _Context, w: Weigher) -> tuple[float, str]:
    """How much of the prior this entry gets as a first suspect (1, a half for a second one, or 0), and why."""
    if c.precision:                    # half-precision words: the entry that names the precision first
        return (1.0, "the report names half precision, and this entry is the one about it") \
            if entry.id in w.precision else (0.0, "")
    # the words, or else what the values show (not a first value that stands for a whole epoch: see
    # NONFINITE_TRACES)
    said = c.said_when or (WHEN_OF_TRACE.get(c.sig.name, set()) if not c.sig.first_epoch else set())
    timing = "start" if "start" in said else ("early" if said == {"early"} else "later")
    broke = ("a loss that turned nan or inf " if c.said_nonfinite_value else "a loss that climbed ") + \
        ({"start": "from the first values", "early": "right after the first updates"}.get(timing)
         or "after training had run")
    if not said:
        broke += (" (the report's words in another script were not read, and its English ones do not say when, so "
                  "a run that trained at all is assumed)" if _other_script(c.ev.prose) else
                  " (the loss is non-finite from the first value the log shows, and the steps before that value are "
                  "not in it, so a run that trained at all is assumed)" if c.ev.count and c.ev.first_nonfinite == 0
                  else " (the report does not say when, so a run that trained at all is assumed)")
    if c.lr_tried == "failed":         # the step size is ruled out: the failures that do not move with it come first
        return (1.0, f"a lower learning rate did not help: with the step size ruled out, a first suspect for {broke}") \
            if entry.trace in SECOND_SUSPECTS.get(timing, ()) else (0.0, "")
    if entry.trace in FIRST_SUSPECTS.get(timing, ()):
        return 1.0, f"the first suspect for {broke}"
    if entry.trace in SECOND_SUSPECTS.get(timing, ()):
        return 0.5, f"a second suspect for {broke}"
    return 0.0, ""


# Words are read in English only: a report with this many letters of another script (Cyrillic, Chinese,
# ...; not Greek, whose letters are symbols in a formula) may say when in words that were not read.
OTHER_SCRIPT_LETTERS = 8


@functools.lru_cache(maxsize=4)         # asked once per entry of one report
def _other_script(prose: str) -> bool:
    # the letters of other scripts (Cyrillic to Thai and Georgian; kana, CJK, Hangul), not Latin's or Greek's (β, μ,
    # σ are a formula's symbols in an English report), nor phonetic subscripts or mathematical letters (ᵢ, 𝐿)
    return sum(1 for ch in prose if ch.isalpha() and (0x400 <= ord(ch) < 0x1100 or 0x3040 <= ord(ch) <= 0xD7AF)) \
        >= OTHER_SCRIPT_LETTERS


def _negative(ev: Evidence, words: list[str]) -> bool:
    """Do the values, or the words, say the loss went below zero?"""
    return (ev.low is not None and ev.low < 0) or bool(NEGATIVE.asked.search(ev.prose))


def _weigh(entry: Entry, c: _Context, w: Weigher, weights: Weights) -> tuple[dict[str, float], list[str], list[str]]:
    """The parts of an entry's score, the evidence for it and the evidence against it."""
    sig, ev = c.sig, c.ev
    parts: dict[str, float] = {}
    evidence: list[str] = []
    against: list[str] = []
    shown_when = WHEN_OF_TRACE.get(sig.name, set())
    if sig.name == entry.trace:      # several entries with one signature share what it says
        curve = (W_PART if sig.weak else W_CURVE) / math.sqrt(w.trace_count.get(entry.trace, 1))
    elif PART_OF.get(sig.name) == entry.trace:
        curve = W_GENERAL if w.trace_count.get(sig.name) else W_PART
    elif sig.name in TIMED and shown_when <= w.told_when[entry.id] and entry.trace != "none":
        curve = W_PART / 2           # not its signature, but its Symptom says it can show then too
    else:
        curve = 0.0
    if sig.enormous_start and entry.trace == "nonfinite-from-start":
        parts["start"] = W_PART / math.sqrt(w.trace_count.get(entry.trace, 1))
        evidence.append(sig.enormous_start)
    if sig.first_epoch and entry.trace in NONFINITE_TRACES and entry.trace != sig.name:
        curve = max(curve, W_GENERAL)
    if curve:
        parts["curve"] = curve
        evidence += [f for f in sig.facts if f != sig.enormous_start]
    # (an enormous first value is this entry's curve at its start: what the curve does next does not contradict it;
    # nor is its second face, which its page and snippet show in a narrower setting, held against it -- nor counted
    # for it: the signature's own entries keep their lead)
    elif (sig.name in TRACES and entry.trace != "none" and PART_OF.get(entry.trace) != sig.name and "start" not in parts
          and sig.name not in entry.traces and PART_OF.get(sig.name) not in entry.traces):
        parts["curve"] = -weights.when
        against.append(f"the loss curve does not look like this entry's ({TRACES[entry.trace]})")
    # a message whose op the log names is another entry's (see _message_weight) is no evidence for this one
    shares = [(text, seen, _message_weight(text, seen, entry, w, weights, c.infs)) for text, seen in c.hits[entry.id]]
    hits = [(text, seen) for text, seen, share in shares if share > 0]
    if hits:
        parts["messages"] = sum(share for _text, _seen, share in shares)
        whole = any(_whole_signature(text, seen, entry, w) for text, seen in hits)
        if entry.trace == "none" and whole and (ev.count == 0 or _unexplained_birth(entry, hits, ev, sig, w)):
            parts["messages"] += W_MISSING
        for text, (count, line, example, _origin) in hits:
            why = f": {WHY}" if _apex_zero(text, (count, line, example, _origin)) else ""
            evidence.append(f'message "{example}" (line {line}' + (f", {count} times)" if count > 1 else ")") + why)
    missing = _missing_messages([m for m in w.weighed[entry.id] if not m.opt_in], c.hits[entry.id], ev)
    if missing and sig.name == entry.trace:
        parts["messages"] = parts.get("messages", 0.0) - W_MISSING
        against.append(missing)
    top = max(c.bm.values(), default=0.0)
    if top > 0 and c.bm[entry.id] > 0:
        share = c.bm[entry.id] / top
        weight = weights.words if c.words_count else W_TEXT_WITH_CURVE * (2 if ev.size <= PASTED else 1)
        parts["words"] = weight * share * c.strength
        if share > 0.6 and c.words_count and c.strength > 0.5:
            evidence.append("the report's words match how this entry describes the failure")
    # A special case of another entry's signature (clipping that does not clip, gradients that
    # pile up) is told apart by its own evidence -- its curve, its words -- never by timing alone.
    special = entry.trace in PART_OF
    entry_when = w.timing[entry.id]
    told = c.said_when or (WHEN_OF_TRACE.get(sig.name, set()) if ev.count >= 2 and not sig.first_epoch else set())
    if told and entry_when and not special:
        if told & entry_when:
            parts["when"] = weights.when
            if c.said_when:
                evidence.append(f"it showed {c.said_at}{_when_words(c.said_when & entry_when)}, as this failure does")
        else:
            parts["when"] = -weights.when
    if c.words_count and c.said_nonfinite and not hits and not special:
        suspect, why = _suspect(entry, c, w)
        if suspect:
            parts["prior"] = weights.prior * suspect * (1 - weights.fade * c.strength)
            evidence.append(why)
    rate_family = entry.trace == RATE or PART_OF.get(entry.trace) == RATE
    if c.lr_tried == "failed" and rate_family:
        parts["tried"] = -W_TRIED
        against.append("the report says a lower learning rate did not help")
    elif c.lr_tried == "helped" and rate_family:
        parts["tried"] = W_TRIED
        evidence.append("the report says a lower learning rate helped")
    elif c.lr_tried == "delayed" and entry.id in w.put_off:
        parts["tried"] = W_TRIED
        evidence.append("the report says a lower learning rate only put the failure off, as this entry's does")
    elif c.lr_tried == "delayed" and entry.trace == RATE:
        parts["tried"] = -W_TRIED
        against.append("the report says a lower learning rate only put the failure off: a rate too high is cured "
                       "by a lower one")
    if c.lr_tried == "failed" and entry.id in w.rate_proof:     # (half: "did not help" need not say it broke at the same step)
        parts["tried"] = W_TRIED / 2
        evidence.append("the report says a lower learning rate did not help: this failure does not move with the rate")
    elif c.lr_tried == "delayed" and entry.id in w.rate_proof:
        parts["tried"] = -W_TRIED
        against.append("the report says a lower learning rate put the failure off: this one breaks where it is met, "
                       "whatever the rate")
    for fact, declarers, weight in (("zero-gradient", w.zero_gradient, W_PRINTED),
                                    ("accuracy-rose", w.accuracy_rises, W_PRINTED),
                                    ("sigmoid-zero", w.sigmoid_zero, W_SAID_HALF),
                                    ("softmax-floor", w.softmax_floor, W_PRINTED),
                                    ("minus-one-labels", w.unlabelled, W_SAID_HALF),
                                    ("raw-pixels", w.raw_pixels, W_SAID_HALF),
                                    ("exp-overflow", w.exp_overflow, W_SAID_HALF),
                                    ("raw-targets", w.regression, W_PRINTED),
                                    ("constant-feature", w.constant_feature, W_PRINTED),
                                    ("zero-init", w.zero_init, W_SAID_HALF),
                                    ("never-cleared", w.uncleared, W_SAID_HALF),
                                    ("rate-rose", w.rate_raised, W_SAID_HALF)):
        if fact in c.printed and entry.id in declarers:
            parts[fact] = weight
            evidence.append(c.printed[fact])
    if c.half_denied and entry.id in w.precision:
        parts["precision"] = -W_SAID_HALF
        against.append("the report says the run does not compute in half precision")
    # beside a curve (its words are not the evidence then, and no prior is given): half precision switched on in a
    # run whose loss turned non-finite is a suspect whatever the curve's shape -- the first thing to switch off --
    # unless the log printed a message an entry declares, which says more than a setting
    elif (c.half_shown and not c.words_count and c.said_nonfinite_value and entry.id in w.precision
          and not any(c.hits.values())):
        parts["precision"] = W_SAID_HALF
        evidence.append(f"the report shows half precision switched on (`{c.half_shown}`) in a run whose loss turned "
                        "nan or inf")
    # ... and its quiet face: gradients said to be exactly 0 in a run computing in half precision (float16 holds no
    # magnitude below about 6e-08, 2**-24: smaller ones underflow, and those under about 3e-08 round to 0), whatever
    # the curve
    elif c.half_shown and entry.id in w.precision and (zero := _grads_said_zero(ev.prose)):
        parts["flushed"] = W_SAID_HALF
        evidence.append(f"the report shows half precision switched on (`{c.half_shown}`) and says the gradients are "
                        f"0 (\"{' '.join(zero.group(0).split())}\"): float16 holds no magnitude below about 6e-08, and "
                        "gradients under about 3e-08 round to 0")
    dense = DENSE.findall(ev.prose) if entry.id in w.probabilities else []
    if dense and KERAS_SOFTMAX.search(dense[-1]) and KERAS_CROSSENTROPY.search(ev.prose):
        if FROM_LOGITS.search(ev.prose):
            parts["pairing"] = W_SAID_HALF
            evidence.append("the pasted Keras model ends in a softmax and its cross-entropy is told from_logits=True: "
                            "probabilities handed over as logits")
        else:
            parts["pairing"] = -W_SAID_HALF
            against.append("the pasted Keras model ends in a softmax and its cross-entropy takes probabilities "
                           "(from_logits is False unless set): the pairing Keras expects")
    elif entry.id in w.probabilities and (out := _model_output(ev.prose)) \
            and (loss := TORCH_LOGITS_LOSS.search(ev.prose)):
        parts["pairing"] = W_SAID_HALF
        evidence.append(f"the pasted PyTorch model outputs probabilities (`{' '.join(out.group(0).split())}`) and its "
                        f"loss, `{loss.group(0).rstrip('(')}`, applies its own sigmoid or softmax: probabilities handed "
                        "over as logits")
    if c.regressor and entry.id in w.probabilities:
        parts["task"] = -W_PRINTED
        against.append(f"{c.regressor}: a regression's run, and a regression hands its loss no probabilities")
    if c.classifier and entry.id in w.regression:
        parts["task"] = -W_PRINTED
        against.append(f"{c.classifier}: a classifier's run, and a classifier has no regression targets to leave "
                       "unscaled")
    for kind, said in c.scaled["scaled"].items():
        if entry.id in w.forgot_scaling[kind]:
            parts[f"scaled-{kind}"] = -W_SAID_HALF
            against.append(f"the report says the {kind} were scaled already (\"{said}\")")
    for kind, said in c.scaled["unscaled"].items():
        if entry.id in w.forgot_scaling[kind]:
            parts[f"unscaled-{kind}"] = W_SAID_HALF
            evidence.append(f"the report says the {kind} were not scaled (\"{said}\")")
    if not c.trainer_clears and entry.id in w.uncleared and CLEARED_EACH_STEP.search(ev.prose):
        parts["cleared"] = -W_SAID_HALF
        against.append("the pasted loop clears the gradients beside backward(), in the same block: every step")
    if c.trainer_clears and entry.id in w.uncleared:
        parts["trainer"] = -W_PRINTED
        against.append(f"{c.trainer_clears}: gradients pile up only in steps written by hand (a loop of your own, "
                       "Lightning's manual optimization, a custom train_step)")
    if "rate-rose" in c.printed and special and PART_OF[entry.trace] == RATE:
        parts["rate-rose"] = -W_SAID_HALF
        against.append("the learning rate the log prints rose through the climb: that alone grows the steps, with "
                       "no cause of this entry's")
    if c.negative and entry.id in w.negative:
        parts["negative"] = W_NEGATIVE if c.impossible_negative else W_NEGATIVE / 2
        evidence.append(c.impossible_negative or "the loss goes below zero: if it is cross-entropy, BCE or "
                        "1 - Dice, that is impossible with valid targets")
    return parts, evidence, against


# A validation loss printed non-finite: under its own key (`val_loss: nan`, `'eval_loss': nan`, `val_loss=nan.0`),
# or as the loss of a line a validation tag opens (`[eval] step 300 | loss nan`, `Validation: loss inf`).
# Validation values are not diagnosed (they are not the run's steps), but a report that says nothing of a
# nan the person asked about reads as if it was not seen: its place is said, beside the training verdict.
NONFINITE_VALUE = r"(?:tensor\(|array\()?(-?nan(?:\.0)?|[-+]?inf(?:inity)?)(?![a-z0-9])"
# the key and its value: at most a few spaces around one `:` or `=` (bounded: a run of spaces costs no more)
KEY_TO_VALUE = r"['\"]?[ \t]{0,8}(?:[:=][ \t]{0,8})?"
VALIDATION_TAG = r"(?:val|valid|validation|eval|evaluation|test|dev)"
VALIDATION_NAN = [
    # not a name that holds the key (`best_val_loss=inf`, `best val loss: inf`: a configuration's starting value)
    re.compile(r"(?i)['\"]?(?<![a-z0-9_])(?<!best )(?<!min )(?<!lowest )" + VALIDATION_TAG + r"[ _/-]?loss"
               + KEY_TO_VALUE + NONFINITE_VALUE),
    # a tag that opens the line as a tool prints one, `[eval]`, `(val)`, `Validation:`, `Eval |`, `Test set:` (PyTorch's
    # MNIST example: `Test set: Average loss: nan`), not a sentence's first word
    re.compile(r"(?im)^[ \t]{0,8}(?:[\[(]" + VALIDATION_TAG + r"[\])]|" + VALIDATION_TAG
               + r"(?:[ \t]set)?[ \t]{0,8}[:|])"
               r"[^\n]{0,200}?(?<![a-z0-9_])loss(?![a-z0-9_])" + KEY_TO_VALUE + NONFINITE_VALUE),
]


def _validation_nonfinite(ev: Evidence) -> tuple[str, int]:
    """Where the report first shows a non-finite validation loss (in its start, as pasted), and its line; or ("", 0)."""
    found = [(m.start(), m.group(1), m.group(0).strip()) for pattern in VALIDATION_NAN if (m := pattern.search(ev.prose))]
    # a table's validation column (fastai's `valid_loss`): offsets in bytes, as the table was read
    data = ev.prose.encode()
    row = next((r for r in validation_rows(data) if not math.isfinite(to_float(r[2]))), None)
    if row is not None:
        offset, name, value = row
        found.append((len(data[:offset].decode(errors="replace")), value.decode(), f"{name} {value.decode()}"))
    if not found and ev.evaluated is None:
        return "", 0
    start, value, quoted = min(found) if found else (0, "", "")
    line = ev.prose.count("\n", 0, start) + 1 if found else 0
    evaluated = ev.evaluated
    if evaluated is not None and (not found or evaluated[0] < line):
        return f"the loss evaluate() printed after training was {evaluated[1].split()[-1]} at line {evaluated[0]} " \
               f"(`{evaluated[1]}`)", evaluated[0]
    # where the log numbers it: the epoch or step printed on that line (or the last epoch printed above it)
    prose = ev.prose.encode()
    at = prose.rfind(b"\n", 0, len(ev.prose[:start].encode())) + 1
    text = prose[at:prose.find(b"\n", at) if prose.find(b"\n", at) >= 0 else len(prose)]
    # (a step it names: a bare `980/10000` on it may be an accuracy's count)
    where = ", ".join(p for p in (epoch_on(text) or last_epoch(prose, at), named_step(text)) if p)
    return (f"the validation loss was {value.lower().removesuffix('.0')} at "
            f"{f'{where} (line {line})' if where else f'line {line}'} (`{quoted}`)", line)


def _run_values(ev: Evidence) -> Evidence:
    """A pasted report often opens with a title that quotes a loss ("Loss nan after 2 epochs") above
    a numbered log: values before the log's numbering starts are not steps of the run. A finished bar
    (`100%|██████████| 782/782 [...] loss=2.3031]`) is the log's, though its count is no step to quote."""
    if not (2 <= ev.count <= KEEP):
        return ev
    if not (ev.head_at[0].numbered or ev.head_at[0].finished):
        k = next((i for i, p in enumerate(ev.head_at) if p.numbered or p.finished), None)
        ev = without_first(ev, k) if k else ev
    return _one_run(ev)


# The frameworks whose checks name a nan (anomaly mode, check_numerics, debug_nans, the trainers' stops).
NAN_CHECKERS = {"pytorch", "tensorflow", "keras", "jax", "lightning", "transformers"}
NAN_WORD = re.compile(r"\bnan\b|\binf\b|infinit|non-finite|not finite", re.I)
# A fresh run of the same model starts near where the first one did: within this factor (another model's
# loss printed after the first one's, thousands of times larger, is no restart of it).
RESTART_NEAR = 10.0


def _loss_starts_again(run: list[float], value: float) -> bool:
    """Is the value back near where the run before it started (within RESTART_NEAR of its first value), and
    nearer that than where it left off (if it left off finite)? A run that starts non-finite after one that ended finite (a change of
    precision, broken from its first step) starts again too."""
    finite = [v for v in run if math.isfinite(v)]
    if not finite:
        return False
    if not math.isfinite(value):
        return math.isfinite(run[-1])
    first, last = finite[0], finite[-1]
    if min(first, value) <= 0:
        return False
    near = abs(math.log(value / first))
    # (a run that left off non-finite left off nowhere: back near its start, the loss starts again)
    return near < math.log(RESTART_NEAR) and (last <= 0 or not math.isfinite(run[-1]) or near < abs(math.log(value / last)))


def _one_run(ev: Evidence) -> Evidence:
    """Several runs pasted one after another (a restart, k folds) are not one curve: the first run whose
    loss turned non-finite is read -- the one asked about -- or, if none did, the last."""
    at = ev.head_at
    if not 2 <= ev.count <= KEEP or not len(ev.head) == len(at) == ev.count:
        return ev
    # a run goes on after its start (a summary line that quotes an earlier epoch is no run), and a fresh run's
    # loss starts again too (_loss_starts_again: an evaluation loop numbered like the training, or another
    # model's loss, is no new run)
    starts = [0]
    for i in range(1, ev.count - 1):
        if starts_again(at[i - 1], at[i]) and counted_on(at[i], at[i + 1]) and \
                _loss_starts_again(ev.head[starts[-1]:i], ev.head[i]):
            starts.append(i)
    if len(starts) == 1:
        return ev
    bounds = list(zip(starts, starts[1:] + [ev.count]))

    def messages_of(a: int, b: int) -> dict:
        # the messages of the runs not read are not this run's, nor those printed between two runs (a crash that
        # ended one, or the start-up of the next: the log cannot tell which); the last run's go on to the end
        low = at[a].line if a else 0
        high = at[b - 1].line if b < ev.count else math.inf
        return {key: seen for key, seen in ev.messages.items()
                if seen[1] <= high and ev.message_last.get(key, seen[1]) >= low}

    def checked(a: int, b: int) -> bool:
        # a framework's nan check or the error it raised, in the run (a check's stop, anomaly mode's or JAX's error
        # naming a nan); not a NumPy warning or a loss scaler's skipped step, which a run that goes on prints too
        return any(seen[3] in NAN_CHECKERS and (stop_of(seen[2]) is not None or NAN_WORD.search(seen[2]))
                   for seen in messages_of(a, b).values())

    # a run broke when its loss turned non-finite, or (the last) when such a check followed its last value
    broke = [k for k, (a, b) in enumerate(bounds) if not all(math.isfinite(v) for v in ev.head[a:b])
             or (b == ev.count and checked(a, b) and any(ev.message_last.get(key, seen[1]) > at[b - 1].line
                                                         for key, seen in messages_of(a, b).items()))]
    # of those, the first with such a check (a run again with it switched on), else the first
    told = [k for k in broke if checked(*bounds[k])]
    k = told[0] if told else broke[0] if broke else len(bounds) - 1
    a, b = bounds[k]
    out = only(ev, a, b)
    out.messages = messages_of(a, b)
    which = ("the first stopped by a framework's nan check" if told and told[0] != broke[0] else
             "the first whose loss turned non-finite" if broke else "the last")
    out.runs = (f"{len(bounds)} runs one after another (the log's count starts again at "
                f"{', '.join(f'line {at[i].line}' for i in starts[1:])}): run {k + 1}, {which}, is read "
                f"(line {at[a].line} to line {at[b - 1].line})")
    return out


def diagnose(ev: Evidence, catalog: Catalog, weights: Weights = WEIGHTS) -> Diagnosis:
    w = weigher(catalog, weights.prose)
    # a check's stop is read within the run read (a second run, with a framework's nan check on, stopped by it)
    ev = with_stop(_run_values(with_hidden(ev)))
    zero = scale_zero_key(ev)                         # decided once, on the words as written
    if (prose := without_stops(ev)) != ev.prose:      # a framework's words are not the report's
        ev = replace(ev, prose=prose)
    if (prose := without_scale_zero(ev, zero)) != ev.prose:
        ev = replace(ev, prose=prose)
    sig = signature_of(ev)
    c = _context(ev, w, sig, weights, zero)
    # a question about normal behaviour is answered beside a curve too, when the curve shows no failure
    # (beside a curve, by their own words: a bare "is it normal?" asks about something the curve does not show)
    normals = (normals_asked(ev.prose) if c.words_count else
               normals_asked(BARE_ASK.sub(" ", ev.prose)) if sig.name == "healthy" and ev.size <= PASTED else [])
    if ev.low is not None and ev.low < 0 and not any(n.name == NEGATIVE.name for n in normals):
        normals.insert(0, NEGATIVE)      # the values themselves go below zero
    if c.impossible_negative:            # a loss below zero that this loss cannot reach is not normal
        normals = [n for n in normals if n.name != NEGATIVE.name]
    if ev.count >= 3 and ev.first_nonfinite is None and ev.last > (1 - PLATEAU_FALL) * ev.head[0]:
        normals = [n for n in normals if not n.falls]   # an answer that the loss falls, beside one that did not
    if _benign_overflow(ev, sig):
        normals.insert(0, BENIGN_OVERFLOW)
    restarts = _restart_rises(ev) if sig.name == "healthy" else ""
    if restarts:
        normals.insert(0, RESTARTED)
        sig.facts.append(restarts)
    failure_shown = ev.first_nonfinite is not None or sig.name in TRACES or sig.name in UNFINISHED
    declared_found = {text for hits in c.hits.values() for text, _ in hits}
    matches = []
    for entry in w.entries:
        parts, evidence, against = _weigh(entry, c, w, weights)
        score = sum(parts.values())
        worded = c.words_count and c.bm[entry.id] > 0 and c.said_failure
        if score > 0 and (parts.get("curve", 0) > 0 or parts.get("messages", 0) > 0 or worded or parts.get("negative")
                          or parts.get("start") or parts.get("prior") or any(parts.get(k, 0) > 0 for k in SAID_FACTS)):
            matches.append(Match(entry, round(score, 3), evidence, against, first_fix_step(entry),
                                 {k: round(v, 3) for k, v in parts.items()}))
    matches.sort(key=lambda m: (-m.score, m.entry.id))
    notices = {key: f'message "{example}" (line {line}): {why}' for key, (count, line, example, origin)
               in ev.messages.items() if key not in declared_found and (why := _notice(example))}
    unweighed_of = {key: u for key, (count, line, example, origin) in ev.messages.items()
                    if key not in declared_found and key not in notices and (u := _unweighed(ev, key, example, line, w, zero))}
    unweighed = list(unweighed_of.values())
    # a warning beside a loss that learned (fell by a tenth or more, and stayed finite) stopped nothing; beside one
    # that did not ("Gradients will be None" and a flat loss), it may be what is wrong
    learned = ev.count >= 2 and ev.first_nonfinite is None and 0 < ev.last <= (1 - PLATEAU_FALL) * ev.head[0]
    warnings_unweighed = sum(ev.messages[key][3] == WARNING for key in unweighed_of) if learned else 0
    if _another_error(ev, c, declared_found):
        matches = []                     # an error no entry declares, and nothing said of the loss: not covered
        unweighed.append("the report shows an error that no entry declares and says nothing of a loss gone wrong "
                         "(nan or inf, a climb, a loss that does not learn): every entry is about one of those")
    if ev.more_messages:
        unweighed.append(f"{ev.more_messages} more message line(s) of other kinds were seen and not kept")
    if sig.name in TRACES and not any(e.trace == sig.name for e in w.entries):
        unweighed.append(f"loss curve: {TRACES[sig.name]} -- no entry declares this signature yet")
    read = [(ev.hidden_note, ev.hidden_note)] if ev.hidden_note else []
    read += [("", note) for note in notices.values()]       # carried by no entry: said whatever the verdict
    if zero is not None and w.declarers.get(SAME_AS):
        read.append((WHY, f'message "{MESSAGE}" (line {ev.messages[zero][1]}): {WHY}; weighed for '
                          f"{', '.join(w.declarers[SAME_AS])}, whose failure that is"))
    # a validation nan beside a training loss that went non-finite too, at or after it, is no separate question
    # (said before the training loss broke, it is a question of its own)
    validation, line = _validation_nonfinite(ev)
    if ev.first_nonfinite_at is not None and line >= ev.first_nonfinite_at.line:
        validation = ""
    d = Diagnosis(ev, sig, matches, unweighed, normal=normals, read=read, validation=validation,
                  warnings_unweighed=warnings_unweighed)
    # Apex's scale at zero is never the normal skipping of a step: the scaler ran out of range
    _decide(d, w, failure_shown, _unexplained_by_normal(normals, ev, declared_found) or zero is not None,
            c.words_count)
    return d


# A rise of the loss this large from one printed value to the next is one to account for.
NOTABLE_RISE = 1.1


def _restart_rises(ev: Evidence) -> str:
    """The rises of the loss (x1.1 or more from one value to the next) when each came as the learning rate printed
    beside it jumped back up (x1.25 or more) and the loss later went below where it was before the rise; or ""."""
    seen = dict(zip(range(len(ev.head)), zip(ev.head, ev.head_at)))
    seen.update(zip(range(ev.before_start, ev.before_start + len(ev.before)), zip(ev.before, ev.before_at)))
    order = sorted(seen)
    rises = [(a, b) for a, b in zip(order, order[1:]) if b == a + 1 and seen[b][0] >= NOTABLE_RISE * seen[a][0] > 0]
    if not rises:
        return ""
    said = []
    for a, b in rises:
        (before, at_a), (after, at_b) = seen[a], seen[b]
        if at_a.rate is None or at_b.rate is None or not at_b.rate >= RATE_CLIMB * at_a.rate > 0:
            return ""
        if not any(seen[k][0] < before for k in order if k > b):
            return ""
        said.append(f"at {ev.where(b)} ({_fmt(before)} to {_fmt(after)}, the rate {at_a.rate:g} to {at_b.rate:g})")
    where = said[0] if len(said) == 1 else f"{', '.join(said[:-1])} and {said[-1]}"
    return (f"the loss rose {where}, each time as the learning rate printed beside it jumped back up, and came back "
            "below where it was each time")


def _benign_overflow(ev: Evidence, sig: Signature) -> bool:
    """Did exp overflow (NumPy's warning, and no other message) beside a curve that stayed finite and fell?"""
    texts = [example for _count, _line, example, _origin in ev.messages.values()]
    return (sig.name == "healthy" and ev.count > 1 and ev.first_nonfinite is None and bool(texts)
            and all(BENIGN_OVERFLOW.asked.fullmatch(text) for text in texts))


# Words of a broken run that no normal behaviour accounts for (a loss that won't go down is what "a large loss at
# the start" asks about, and stays with it).
BROKEN_WORDS = frozenset({"nan", "inf", "diverge", "climb", "overflow", "divzero"})
# What a report says of a failure an entry covers, in words: a loss that went wrong (a nan or an inf, a climb, a
# loss that does not learn, one below zero), or labels the loss cannot take (an error on them is WR-320's even
# when no entry declares its wording).
LOSS_WORDS = BROKEN_WORDS | {"stuck", "underflow", "negative", "intermittent", "sigmoidzero", "numclasses"}
# ... the labels' values, not only their name (`KeyError: 'label'`, a "label" column): "labels go from 1 to 10",
# "classes start at 1", "labels are 1..10", "masks of 0 and 255", "a label out of range".
LABEL_VALUES = re.compile(r"\b(?:labels?|classes|class ids?|targets?|masks?)\b[^.\n]{0,60}?(?:\bfrom\b|\bstarts?\b|"
                          r"\brange\b|\bout of\b|\boutside\b|\bbetween\b|\d+ *(?:\.\.|-|to) *\d+|\b255\b)", re.I)


def _another_error(ev: Evidence, c: _Context, declared_found: set[str]) -> bool:
    """Is the report an error that no entry declares (CUDA out of memory, a shape mismatch, a missing module), with
    no word of a loss gone wrong or of labels, and no loss values -- or only a loss that stayed finite and showed no
    failure until the error, printed after its last value, ended the run (a DataLoader worker killed, a collective
    that timed out)? Such a report is about something the catalogue does not cover, and words like "data", "input"
    or "start" in it match entries by chance."""
    if declared_found or not (c.words_count or ev.count):
        return False
    errors = [text for _count, _line, text, origin in ev.messages.values() if origin == "python"]
    if any({"nan", "inf"} & set(tokens(text)) for text in errors):
        return False                     # the error is the non-finite value itself (fairseq's "gradients are Nan/Inf")
    if ev.count:
        last = max((ev.message_last.get(key, line) for key, (_count, line, _text, origin) in ev.messages.items()
                    if origin == "python"), default=0)
        # (a loss that never moved, 5 values or more within 1% of each other, may be a plateau the log is too short
        # to judge: not "no failure")
        flat = ev.count >= 5 and ev.low is not None and ev.high is not None and ev.high <= (1 + FLAT) * ev.low
        if (ev.first_nonfinite is not None or c.sig.name not in ("healthy", "few-values") or ev.last_at is None
                or last <= ev.last_at.line or flat):
            return False
    # the reporter's words, not the error's own (`KeyError: 'label'` says nothing of the labels' values)
    words = ev.prose
    for text in errors:
        words = words.replace(text, " ")
    return (bool(errors) and not LOSS_WORDS & set(tokens(words)) and not STUCK.search(words.lower())
            and not LABEL_VALUES.search(words))


def _unweighed(ev: Evidence, key: str, example: str, line: int, w: Weigher, zero: str | None = None) -> str:
    """Why a message found is not weighed, or "" when it is (or was read as a loss value)."""
    found = stop_of(example)
    if found:
        if ev.hidden_note and ev.last_at is not None and ev.last_at.line == ev.message_last.get(key, line):
            return ""                                       # read as the loss's value there
        name = found[1].groupdict().get("name")
        watched = f"the metric it watches (`{name.decode('utf-8', 'replace')}`)" if name else "the loss"
        return (f'message "{example}" (line {line}) comes from {found[0].who}, a check that stops the run when '
                f"{watched} is not finite: it names no cause")
    if any(m.matches(example) for e in w.entries for m in e.messages):
        return ""
    if key == zero:
        if w.declarers.get(SAME_AS):
            return ""                                       # weighed as the scaler's floor (see scale_zero.py)
        return f'message "{example}" (line {line}): {WHY}; no entry declares that failure yet'
    if COMPANIONS.fullmatch(example) and any(stop_of(v[2]) for v in ev.messages.values()):
        return f'message "{example}" (line {line}) comes with that check\'s stop: it names no cause'
    return f'message "{example}" (line {line}) is not declared by any entry'


# Messages that say only that a check is on: they name no failure, and are said beside the verdict, not left
# unweighed (which would make a healthy run "not covered"). PyTorch's detect_anomaly() warns so each time it is
# constructed, in its __init__ (torch/autograd/anomaly_mode.py, pytorch/pytorch@024bc9f); set_detect_anomaly(True)
# does not warn.
ANOMALY_SOURCE = ("https://github.com/pytorch/pytorch/blob/024bc9faa91f9d50e3a73c3937ce94ddf0bde31e/torch/autograd/"
                  "anomaly_mode.py")
ANOMALY_CPP_SOURCE = "https://github.com/pytorch/pytorch/blob/v2.13.0/torch/csrc/autograd/python_anomaly_mode.cpp"
NOTICES = ((re.compile(r"Anomaly Detection has been enabled\b"),
            f"PyTorch's anomaly mode is on (torch.autograd.detect_anomaly() warns so each time it is created: "
            f"{ANOMALY_SOURCE}); it names no failure, and once a backward pass makes a nan it raises an error naming "
            "the operation"),
           # (and where the failing backward op was made: _format_stack's words, warned by PyAnomalyMetadata::print_stack
           # before the error in releases through 2.13; later source appends them to the error's message)
           (re.compile(r"Error detected in \w+\. Traceback of forward call that caused the error"),
            f"PyTorch's anomaly mode says where the backward operation that failed was made in the forward pass "
            f"(the traceback after it: {ANOMALY_CPP_SOURCE}); it names no cause itself"))
# ... and what shows that anomaly mode is on: its warning, or what it prints at a nan
ANOMALY_ON = re.compile(r"Anomaly Detection has been enabled|returned nan values in its \w+ output|Error detected in "
                        r"\w+Backward")


def _notice(example: str) -> str:
    return next((why for pattern, why in NOTICES if pattern.search(example)), "")


def _unexplained_by_normal(normals: list[Normal], ev: Evidence, declared_found: set[str]) -> bool:
    """Is there specific evidence of a failure beyond what the normal behaviour asked about accounts
    for? A skipped step under loss scaling is a declared message of the half-precision entry, and
    normal on its own; a nan loss or other words of failure beside it are not."""
    if not declared_found:
        return False
    if not normals:
        return True
    found = [v[2] for k, v in ev.messages.items() if k in declared_found or v[2] in declared_found]
    if any(not any(n.asked.search(text.lower()) for n in normals) for text in found):
        return True
    # a yes/no question's "broken", "a problem" asks; its nan, inf or climb reports (_says_more_than)
    return _says_more_than(normals, ev.prose) or says_failure(
        _rest_of(normals, ev.prose, keep_questions=False), ignore=frozenset().union(*(n.accounts for n in normals)))


# A yes/no question ("Is fp16 broken?", "Are these messages a problem?", "..., is my model diverging?") asks
# whether something failed; it does not say it did (a "why" question does: "why is my loss nan?"), though a nan it
# names was printed.
YES_NO = re.compile(r"(?:^|(?<=[.!?\n,;]))[ \t]*(?:is|are|am|was|were|do|does|did|should|could|can|will|would|has|have"
                    r"|may|might)\b[^.!?\n]{0,400}\?")


def _rest_of(normals: list[Normal], prose: str, keep_questions: bool = True) -> str:
    """The words with what the normal behaviours asked about taken out (and the yes/no questions, unless kept)."""
    rest = prose.lower() if keep_questions else YES_NO.sub(" ", prose.lower())
    for n in normals:
        rest = n.asked.sub(" ", rest)
    return rest


def _says_more_than(normals: list[Normal], prose: str) -> bool:
    """Do the words, the normal behaviours asked about taken out, still say the run broke? "My loss is huge from
    the first epoch and then becomes nan" asks about a large start, and reports a nan; so does "Is it normal that
    it then goes to nan?" (a nan said in a question is still a nan the run printed)."""
    accounted = frozenset().union(*(n.accounts for n in normals))
    broken = BROKEN_WORDS - accounted
    if broken & set(tokens(_rest_of(normals, prose))) - ASKED_ONLY:
        return True
    # "Is my model diverging?" asks a judgement of what it printed, and reports none; "is it normal that it starts
    # diverging after epoch 5?" reports it, and asks only whether that is normal
    kept = YES_NO.sub(lambda q: q.group(0) if NORMAL_THAT.search(q.group(0)) else " ", prose.lower())
    for n in normals:
        kept = n.asked.sub(" ", kept)
    return bool(broken & ASKED_ONLY & set(tokens(kept)))


# The yes/no question that states its content and asks only whether it is normal.
NORMAL_THAT = re.compile(r"\b(?:is|are)\s+(?:it|this|that)\s+(?:normal|expected|ok|okay|common|usual|fine)\s+(?:that|for|when|"
                         r"if)\b")


# Words of a judgement rather than of a value printed: in a yes/no question they ask, and report nothing.
ASKED_ONLY = frozenset({"diverge"})


def _when_words(which: set[str]) -> str:
    return " and ".join({"start": "from the first values", "early": "right after the first updates",
                         "later": "after training for a while"}[k] for k in sorted(which))


def _missing_messages(messages: list, hits: list, ev: Evidence) -> str:
    """Absence of an entry's weighed messages is evidence only for a framework the paste shows (in its log, its
    code or its words): a PyTorch log without NumPy's warnings says nothing against a NumPy entry, and a log that
    shows no framework could be NumPy's. The messages are those printed unasked: not one the catalogue marks
    opt_in (anomaly mode's, check_numerics', debug_nans'), which a run prints only when it was switched on."""
    if hits or not messages:
        return ""
    origins = {m.origin for m in messages}
    shown = shown_frameworks(ev)
    if shown and not (origins & shown):
        return ""
    if not shown and "numpy" not in origins:
        return ""
    return "none of the messages this failure prints are in the log"


def _decide(d: Diagnosis, w: Weigher, failure_shown: bool, declared: bool, text_counts: bool) -> None:
    top = d.matches[0] if d.matches else None
    # the lead that names an entry is over what the others have for them: the absence of their messages can
    # order the candidates, but it opens the lead only where the paste shows it kept such messages (one of
    # the same framework is in it): a paste of loss lines often leaves out the warnings printed above them
    kept = {origin for _, _, _, origin in d.evidence.messages.values()}

    def held(m: Match) -> float:
        missing = min(0.0, m.parts.get("messages", 0.0))
        return m.score if kept & {msg.origin for msg in w.weighed[m.entry.id]} else m.score - missing

    second = max((held(m) for m in d.matches[1:]), default=0.0)
    # evidence beyond words: a curve's signature, a declared message, or a loss the named loss cannot reach
    impossible = top is not None and top.parts.get("negative", 0) >= W_NEGATIVE
    # (not a faint shape with nothing broken in it: a few frozen values may be any of the shapes' entries)
    faint = d.signature.weak and d.evidence.first_nonfinite is None
    specific = (d.signature.name in TRACES and not faint) or declared or impossible
    if d.normal and not failure_shown and not specific and not _says_more_than(d.normal, d.evidence.prose):
        d.verdict, d.ask = "normal", d.normal[0].decide
        d.matches = d.matches[:CANDIDATES]
        return
    if top is not None and top.score >= CONFIDENT and top.score - second >= MARGIN and (specific or not text_counts) \
            and not faint:
        d.verdict = "failure"          # the named entry, the runners-up, and any other with evidence of its own
        # (beyond the first three, only one with evidence of its own: the curve every entry of its shape shares, or
        # an enormous start, repeated under ten entries, says nothing the first three do not)
        d.matches = d.matches[:CANDIDATES] + [m for m in d.matches[CANDIDATES:]
                                              if any(m.parts.get(k, 0) > 0 for k in SPECIFIC if k not in SHARED)]
        # (a runner-up with no evidence to show -- its score a timing that fits, the words of no phrase -- says nothing)
        d.matches = d.matches[:1] + [m for m in d.matches[1:] if m.evidence]
        return
    # a faint shape (a few frozen values) beside a message no entry declares: the message says more than the shape
    if top is not None and not (faint and not declared and len(d.unweighed) > d.warnings_unweighed):
        d.verdict = "uncertain"
        d.matches = d.matches[:CANDIDATES]
        d.even = sum(top.score - m.score < EVEN for m in d.matches)
        d.ask = _deciding_question(d, w)
        return
    d.matches = []
    if d.signature.name in TRACES or d.signature.name in UNFINISHED or len(d.unweighed) > d.warnings_unweighed:
        d.verdict = "unexplained"
    elif d.signature.name == "healthy":
        d.verdict = "healthy"
    else:
        d.verdict = "no-evidence"
        d.ask = ("the loss values the run printed (from the first to the first nan, or the last ones) and "
                 "any warning or error above them")


# A question that names no behaviour ("is it normal?", "is it an error?").
BARE_ASK = re.compile(r"\bis (?:it|this|that) (?:an error|normal)\b", re.I)
# The frameworks a tool implies (a Lightning bar is PyTorch's), and the ones a report's words name.
PARENT = {"lightning": "pytorch", "transformers": "pytorch", "fairseq": "pytorch", "megatron": "pytorch",
          "deepspeed": "pytorch", "apex": "pytorch", "keras": "tensorflow"}
# Named, or shown by code only its API writes: PyTorch's `nn.Linear`, `nn.CrossEntropyLoss()`, `loss.backward()`,
# `optimizer.zero_grad()`, `F.softmax(`, `.masked_fill(`, `.cuda()`, as PyTorch spells them (Flax's `nn.relu`, `nn.Dense`
# and `nn.Module`, TensorFlow's `tf.nn.softmax`, are not PyTorch's); Keras's `layers.Dense(` (not `model.fit(`: scikit-learn's too); JAX's `optax.`.
NAMED_FRAMEWORK = [(re.compile(r"(?i:\b(?:py)?torch\b|\bfastai\b|\blightning\b)|(?<![\w.])nn\.(?:Linear|Conv[123]d|LSTM|GRU|"
                               r"Embedding|BatchNorm[123]d|LayerNorm|Dropout|ReLU|Softmax|LogSoftmax|\w+Loss)\b|"
                               r"\.(?:backward|zero_grad|cuda)\(\)|(?<![\w.])F\.(?:relu|softmax|log_softmax|cross_entropy|"
                               r"mse_loss|nll_loss|binary_cross_entropy\w*)\(|\.masked_fill_?\("), "pytorch"),
                   (re.compile(r"\btensorflow\b|\btf\.|\bkeras\b|\blayers\.Dense\(", re.I), "tensorflow"),
                   (re.compile(r"\bjax\b|\bjnp\.|\bflax\b|\boptax\.", re.I), "jax")]
# What to switch on to make each framework name the op whose output or gradient went non-finite first (the
# candidates' messages then tell them apart: an op of log, of exp, of a division), and what it prints. In this
# order: a JAX or PyTorch program often loads its data or logs with TensorFlow (tfds, TensorBoard), never the
# other way round.
OP_NAMING = {
    "jax": ("what JAX raises at the first nan with `jax.config.update(\"jax_debug_nans\", True)`: a "
            "FloatingPointError that names the primitive that produced it", "`invalid value (nan) encountered in log`"),
    "pytorch": ("what PyTorch's anomaly mode prints at the first nan: run once with "
                "`torch.autograd.set_detect_anomaly(True)`; it names the operation whose gradient turned nan and the "
                "line of your forward pass that made it", "`Function 'LogBackward0' returned nan values in its 0th output.`"),
    "tensorflow": ("what TensorFlow prints at the first nan with `tf.debugging.enable_check_numerics()` switched on "
                   "before the model is built: it names the op whose output was not finite first and where it was "
                   "created", '`Detected Infinity or NaN in output 0 of ... op "Log"`'),
}


# ... and the words of the switch in the catalogue's opt_in of the messages that check prints
CHECK_SWITCH = {"jax": "jax_debug_", "pytorch": "set_detect_anomaly", "tensorflow": "enable_check_numerics"}


# A framework named to say it is not used: "no PyTorch or TensorFlow", "without Keras", "instead of torch".
DENIED_BEFORE = re.compile(r"\b(?:no|not|without|never|instead of|rather than)\s+(?:using\s+|use\s+|with\s+)?"
                           r"(?:[\w.]+\s+(?:or|and|nor)\s+)?$", re.I)


def shown_frameworks(ev: Evidence) -> set[str]:
    """The frameworks the report shows: in its messages and its log's format, or named in its words (not named to
    deny it); a framework implies the one it runs on."""
    named = {name for pattern, name in NAMED_FRAMEWORK for m in pattern.finditer(ev.prose)
             if not DENIED_BEFORE.search(ev.prose, max(0, m.start() - 40), m.start())}
    shown = set(ev.frameworks) | named
    return shown | {PARENT[f] for f in shown if f in PARENT}


def _quoted(messages: list[tuple[str, str]]) -> str:
    """`WR-030 prints `a`, `b`; WR-050 prints `c``: the messages by the entry that prints them."""
    by_entry: dict[str, list[str]] = {}
    for i, text in messages:
        by_entry.setdefault(i, []).append(f"`{text}`")
    return "; ".join(f"{i} prints {', '.join(texts)}" for i, texts in by_entry.items())


def _own_op(w: Weigher, entry_id: str, shown: str) -> bool:
    """Does the entry's title or one of its phrases name the op its example of a check's message names?"""
    entry = w.catalog.entries[entry_id]
    message = next((m for m in w.weighed[entry_id] if m.shown == shown), None)
    op = op_named(message.text, message.example) if message else ""
    return not op or _bare_op(op) in set(tokens(entry.title)).union(*w.phrase_tokens[entry_id])


def _deciding_question(d: Diagnosis, w: Weigher) -> str:
    entries = [m.entry for m in d.matches]
    ev = d.evidence
    words = tokens(ev.prose)
    # the values tell the shapes apart; a report that already says its loss was nan or inf from the first value has
    # said what they would show, and is asked for what tells its candidates apart by cause
    said_start = ev.count < 3 and {"nan", "inf"} & set(words) and timing_of(words) == {"start"}
    if ev.count < 3 and len({e.trace for e in entries}) > 1 and not said_start:
        if ev.first_nonfinite is None and not {"nan", "inf", "overflow", "diverge", "divzero"} & set(words):
            # nothing says the loss broke: a loss that does not learn, and the shapes of that
            return ("the loss values from the start of the run: the first ten, and the last few -- whether it "
                    "never moved from its first value, fell and then stopped, or climbed tells these apart")
        return ("the loss values from the start of the run: the first ten, and the last few before the first "
                "nan or inf -- whether it climbed, fell then jumped, or was broken from the first value tells "
                "these apart")
    if d.signature.first_epoch:
        return ("the loss of each step from the start, not only the value printed per epoch or per logging "
                "interval: a loss broken from the first step and one that climbed or jumped later tell these apart")
    if ev.first_nonfinite is None and not {"nan", "inf", "overflow", "divzero"} & set(words) and not ev.messages:
        # nothing went nan or inf: no check that names the op of a nan decides, what the first candidate's does may
        return _confirm_question(entries[0], ev)
    shown = shown_frameworks(ev)
    # (entry, message, framework) of the messages that one candidate alone prints
    # (not one the paste already holds: it has told what it can)
    distinct = [(e.id, m.shown, m.origin, m.opt_in) for e in entries for m in w.weighed[e.id]
                if m.origin in (shown or {"numpy"}) and m.text not in ev.messages
                and not any(m in o.messages for o in entries if o is not e)]
    # a framework's own check names the op that went non-finite (its messages then tell the candidates apart)
    framework = next((f for f in OP_NAMING if f in shown), None)
    if framework == "pytorch" and (ANOMALY_ON.search(ev.prose) or any(
            ANOMALY_ON.search(example) for _count, _line, example, _origin in ev.messages.values())):
        framework, distinct = None, []     # anomaly mode is on already: what it printed is in the paste
    if framework is not None:
        own = {framework, "keras"} if framework == "tensorflow" else {framework}
        # an example's op is its snippet's: quoted only where the entry's own words name it (WR-030's log, WR-050's
        # sqrt); a forward pass already nan (a masked row, a bad batch) makes the check name the user's loss instead
        # (only what that check prints: not a message the framework prints unasked, nor another check's)
        its = [(i, text) for i, text, origin, opt_in in distinct
               if origin in own and CHECK_SWITCH[framework] in opt_in and _own_op(w, i, text)]
        how, example = OP_NAMING[framework]
        return f"{how} ({_quoted(its[:3])})" if its else f"{how} (such as {example})"
    # (not when the paste holds that framework's messages from before the first nan: its warnings were pasted, and
    # the ones a candidate prints are not among them -- asking for them again asks for what is there)
    before = ev.first_nonfinite_at.line if ev.first_nonfinite_at is not None else math.inf
    pasted = {origin for _count, line, _example, origin in ev.messages.values() if line < before}
    if distinct and not pasted & {origin for _, _, origin, _ in distinct}:
        where = "above the first nan" if ev.first_nonfinite is not None else "while the loss went wrong"
        return f"the warnings or errors printed {where} ({_quoted([(i, text) for i, text, _, _ in distinct[:3]])})"
    return _confirm_question(entries[0], ev)


# An aside that gives the snippet's own numbers ("(9.055e+06 here)", "(20 in the snippet)"): not the user's
SNIPPET_ASIDE = re.compile(r"\s*\([^()]*\b(?:here|in the snippet|the snippet's)\)")


# A check that asks for the run's first loss, which a paste whose values start at the run's start has printed
ASKS_FIRST_LOSS = re.compile(r"print the first loss\b", re.I)


def _confirm_question(entry: Entry, ev: Evidence | None = None) -> str:
    """The first step of the entry's own check (its Confirm it section); past a first item that asks for the first
    loss, when the paste's values start at the run's start."""
    confirm = entry.sections.get("Confirm it", "").strip().split("\n\n")[0]
    if re.match(r"(?:[-*+]|\d+\.)\s", confirm):                  # a section that opens with a list: its first item
        items = [item.split(None, 1)[1] for item in re.split(r"\n(?=(?:[-*+]|\d+\.)\s)", confirm)]
        answered = ev is not None and ev.count and _at_run_start(ev) and ASKS_FIRST_LOSS.match(items[0])
        confirm = items[1] if answered and len(items) > 1 else items[0]
    confirm = SNIPPET_ASIDE.sub("", " ".join(confirm.split()))
    step = SENTENCE_END.split(confirm, maxsplit=1)[0] if confirm else ""
    return f"the result of this check for {entry.id}: {step.rstrip('.')}" if step else "the full log of the run"


from .diagnose_report import as_json, report  # noqa: E402  (the command line imports them from here)
