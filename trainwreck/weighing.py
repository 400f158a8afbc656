"""Weighing the evidence for each entry: the curve against its signature, the messages found against the
ones it declares, the words against what it says of itself, when the failure showed, and the paste's facts --
a score in parts (Weights holds the tuned weights) with the sentences that say why.
"""
from __future__ import annotations

import functools
import itertools
import math
import re
from dataclasses import dataclass, field

from .catalog import Catalog
from .curve_shape import (ENORMOUS_FIRST_WORDS, PLATEAU_FALL, SHAPE_MIN, UNFINISHED, Signature, accuracy_fell,
                          accuracy_scale, accuracy_stuck, flat_tail, grows_when_healthy, nonfinite_past_the_log,
                          not_training)
from .entry import TRACES, Entry, template_pattern
from .logscan import Evidence, MessageFinder
from .logscan.scale_zero import MESSAGE, SAME_AS, WHY
from .logscan.stops import names_no_cause
from .breaking_constructs import (EXP_NEGATED, LOG_OF_ZERO_WORDS, MASKED_SOFTMAX_WORDS, PAIRWISE, SINGULAR_SLOPE_WORDS,
                                 code_of, logs_kept_off_zero, masked_past_half)
from .data_checked import inputs_only
from .data_values import (INPUT_NAN_WORDS, MASK_255_WORDS, MASK_SCALED_WORDS, ONE_CLASS_IOU_WORDS, RAW_PIXEL_WORDS,
                          UNLABELLED_WORDS)
from .exp_limits import EXP_OVERFLOW_WORDS
from .class_count import classes_named
from .gradient_clearing import (UNCLEARED_WORDS, cleared_each_step, gradients_fresh, optimizer_never_cleared, trainer_clears,
                                whole_loop_steps)
from .gradient_norms import (ACTIVATIONS_GROW_WORDS, CLIP_LATE_WORDS, CLIP_UNENGAGED_WORDS, FIRST_LAYERS_WORDS,
                             grads_said_zero)
from .hidden_activation import no_zero_side
from .input_scaling import CONSTANT_FEATURE_WORDS, FORGOT_INPUTS, FORGOT_TARGETS, SCALES_WORDS, scaled_said
from .loss_inputs import (DENSE, FROM_LOGITS, own_normaliser, KERAS_CROSSENTROPY, KERAS_CTC, CTC_BATCH_COST, KERAS_NAMED,
                          KERAS_OUTPUT, KERAS_PAIRING_SAID,
                          tf_op_on_model_output,
                          OTHER_BACKEND, PROBABILITY_LOSS_WORDS, TF_BACKEND, TORCH_LOGITS_LOSS, impossible_negative,
                          MODEL_ENDS_SAID, PROBABILITY_NAMED, distribution_on_probabilities,
                          model_ends_said, model_output, output_of_generator, negative_shown, probabilities_handed, mixed_from, handed_itself, box_predictor_probabilities,
                          tfjs_pairing)
from .loss_scale import scale_recovered
from .optimizer_setup import HIGH_ADAPTIVE_WORDS, RATE_CLIMBS, RATE_RAISED_WORDS
from .paste_facts import (ACCURACY_WORDS, DEAD_UNITS_WORDS, FASTER_START_WORDS, JUMP_FROZEN_WORDS, NO_WARMUP_WORDS, ONE_BATCH_WORDS, ONE_OUTPUT_WORDS,
                          ORDER_BOUND_WORDS, PUT_OFF_WORDS, RATE_PROOF_WORDS, RATE_ZERO_WORDS, SIGMOID_ZERO_WORDS, UNTRAINED_OUTPUT_WORDS,
                          ZERO_GRADIENT_WORDS, printed_facts, values_chosen)
from .run_kind import REGRESSION_WORDS, classifier_shown, regressor_shown, shown_frameworks
from .softmax_floor import FLOOR_WORDS, accuracy_rose_said
from .schedule_said import plain_sgd_only
from .start_loss import START_HIGH_WORDS, early_jump_seen, start_high
from .weight_init import LARGE_INIT_WORDS, ZERO_FILLED, ZERO_INIT_WORDS
from .frozen_said import dead_units_said, one_output_untrained, weights_frozen_said, weights_half
from .safe_text import shown
from .entry_documents import FIELDS, Library, section, words_for
from .normals import ONE_VALUE_SPREAD, normal_ruled_out
from .precision_said import HALF_SHOWN, bf16_only, half_precision_denied, half_precision_shown, precision_tried
from .rate_tried import lr_tried, lr_tried_same_place, lr_tried_unmoved, rate_zero_failed
from .run_said import (BEFORE_TRAINING_NONFINITE, fell_then_broke, loss_climb_said, loss_kind, says_failure,
                       says_not_learning, untrained_output_nonfinite, weights_nonfinite_said)
from .sentences import said_unnegated, sentences_only, told
from .thesaurus import tokens, tokens_many, when
from .timing_words import EARLY_STEPS, timing_of
from . import lazy_regex

# A short log that ends this many times its first value has risen, for words that say it climbs
SAID_CLIMB_RISE = 1.3

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
# The facts that a standard deviation of 0 is met wherever the data brings it, not at the first step: each item standardised
# by its own, NumPy's warning printed at such a division (or a range's), and inputs said to be all zeros; and a norm of
# 0, of a row a ReLU zeroed
STD_MET_ANY_STEP = ("item-std-unguarded", "std-nan-printed", "relu-norm-unguarded", "zero-items")


def _std_met_any_step(c) -> bool:
    """Does the paste show a division by a spread (or a norm) met wherever the data brought one that is 0 or not a
    number? (Or PyTorch's warning that a std or a variance was taken over one value, ONE_VALUE_SPREAD: a minibatch of
    one, met at whichever step the data first made one -- a rollout whose length leaves 1 over.)"""
    return any(fact in c.printed for fact in STD_MET_ANY_STEP) or any(ONE_VALUE_SPREAD in k for k in c.ev.messages)
# The facts that are constructs of the pasted code (breaking_constructs.breaking_construct): suspects, which order the
# candidates but never name one on their own (diagnose._decide: unless a warning the run printed was raised at their
# line), nor count beside a message another entry declares
CODE_CONSTRUCTS = ("masked-inf", "log-unguarded", "log-raw-output", "exp-unshifted", "sqrt-at-zero", "std-unguarded", "inverse-unguarded",
                   "item-std-unguarded", "norm-unguarded", "relu-norm-unguarded")
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
# ... and the ones whose face is the nan or the inf itself, not a climb that may end in one
NONFINITE_FACES = {"nonfinite-from-start", "descent-then-nonfinite"}
# A loss scaler's messages: the overflows it skipped and the floor it reached
SCALER = lazy_regex.compile(r"(?i)overflow|loss scale")
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
# Facts of the paste that a loss below zero was handed what it does not take (paste_facts): that, not the targets, takes
# it below zero
HANDED_BELOW_ZERO = frozenset({"nll-of-probabilities", "ctc-not-log-probabilities"})
# Facts the log prints beside the loss that one failure produces, worth as much as a declared
# message: every gradient norm exactly 0 (no gradient reaches the weights: the entries whose own
# phrases say the gradients are exactly zero), and an accuracy that rises while the loss stays flat
# (the model learns and the loss cannot show it: the entries whose phrases say accuracy improves).
# Half as much for the model's output said to be 0.5 (sigmoid(0): a last layer whose weights and bias
# are all zero is handed 0 whatever the example), which is weaker: a model stuck at one output prints
# about 0.5 on balanced classes too, and a two-way softmax prints it whenever its logits are equal.
W_PRINTED = 2.0
W_SAID_HALF = W_PRINTED / 2
# Apex's loss scale at zero is the scaler out of range, as the floor message it is weighed as (see
# scale_zero.py), but half as much: the inf or nan that no scale removes may as well be a loss that was
# not finite, or an infinite slope, which other entries explain.
SCALE_ZERO = 0.5
# CUDA's error at any failed kernel assertion, and the assertions themselves as PyTorch's kernels print them
DEVICE_ASSERT = "device-side assert triggered"
KERNEL_ASSERTION = lazy_regex.compile(r"Assertion `([^`\n]{1,200})` failed")
# Keras's warning at a cross-entropy told from_logits=True whose input an activation produced (its logits recovered)
KERAS_REPAIRED = "and thus does not represent logits"



# Facts of the paste that make a curve's shape the entry's own face, as its page shows: k undivided micro-batches step
# like k times the rate, and gradients cleared once per epoch make every step carry all the ones before it, so a climb
# is those constructs' face (not gradients cleared nowhere in the paste: a paste may leave that line out, where these
# two are shown); and a loss that fell and stopped at the floor a softmax's outputs set, beside the accuracy that says
# no lower loss was left to reach, stalled where probabilities handed over as logits must.
FACT_FACES = {"accumulated-undivided": RATE_CLIMBS, "cleared-outside": RATE_CLIMBS,
              "softmax-floor": frozenset({"stall-after-drop"}),
              # (a model whose output is already a probability, handed to a loss that applies its own: with Adam the loss
              # comes down to the floor it cannot pass and stops there, WR-130's second signature)
              "pairing": frozenset({"stall-after-drop"}),
              # (and weights set to zero, with an activation that is 0 at 0 -- ReLU, tanh, an LSTM's or a GRU's state: no
              # gradient reaches any weight -- each layer's is the next one's weights, 0, times its input, 0 -- so only
              # the output's bias learns, and the loss falls to the loss of the classes' base rate, the unigram entropy
              # of a language model, and stops there; an epoch's average already holds that fall. Only a zero fill
              # (FACE_WHERE's marker): a constant c != 0 leaves every unit learning, alike, and the loss can pass the base rate)
              "zero-init": frozenset({"stall-after-drop"}),
              # (and the exp of a layer's raw output negated, a precision from a log-variance, `exp(-log_var)`: what
              # takes its input up is the training itself -- a Gaussian NLL, 0.5 (exp(-s) r^2 + s), falls as s falls on
              # the points already fit, without bound where a residual r is 0 -- so the loss falls until -s passes
              # exp's limit (s below -88.7 in float32) and the next value is nan or inf (WR-020's page). Read only where
              # the paste's exp is such a precision, in a Gaussian NLL's shape (FACE_WHERE's marker): a scale taken as
              # `exp(log_sigma)` and raised to -2 or divided into the residual overflows too, earlier (sigma ** -2
              # passes float32 at log sigma below -44.4), but through a power or a division this reading does not
              # follow; and nothing holds a softmax's logits from growing or shrinking, but nothing shown makes a
              # falling loss take them to exp's limits -- the drift seen in training (Wortsman et al. 2023) comes with
              # a loss that diverges)
              "exp-unshifted": frozenset({"descent-then-nonfinite"}),
              # (and weights that take no update, float16's rounding them away, leave the loss where it started)
              "rounded-away": frozenset({"plateau-from-start"}),
              # (and a clip after the step leaves the run unclipped: an overshoot it was there to shorten, a jump or a
              # climb, is its own face -- not a nan a clip would not have stopped, a log of zero's or a bad batch's)
              "clip-after-step": RATE_CLIMBS | {"spike-then-recover"}}
# ... only where the paste's facts mark the face's own case, beside the fact: a zero fill (not another constant), an exp
# of a layer's output negated as a Gaussian NLL's precision (not another unbounded exp, nor an exponential loss's
# `exp(-margin)`, which a falling loss takes toward 0)
FACE_WHERE = {"zero-init": ZERO_FILLED, "exp-unshifted": EXP_NEGATED}
# Facts of the paste that count a printed fact's whole weight beside a curve they make by themselves: weights drawn too
# wide, beside a loss non-finite from its first value -- before any update only the forward pass from the initial
# weights made it so, which is what such weights break.
WHOLE_BESIDE = {"large-init": frozenset({"nonfinite-from-start"})}
# Anomaly mode's message naming the loss's own backward (`Function 'CtcLossBackward0' returned nan values`,
# MseLossBackward0, BinaryCrossEntropyWithLogitsBackward0, HuberLossBackward0) or, under cross_entropy and nll_loss of
# a log_softmax, LogSoftmaxBackward0 (NllLossBackward0's gradient does not depend on its input, so the nan first shows
# one step on): the first backward function whose gradient a nan already in the loss's input reaches is the loss's
# own, so a nan from the data, a normalisation's 0/0 or an overflow upstream is reported there (checked on PyTorch
# 2.13.0: a row's 0/0 ahead of a Linear layer is named MseLossBackward0). It says the loss was broken, not where the
# nan was born: no more than the curve, it does not outrank a construct of the pasted code that makes one.
LOSS_BACKWARD = lazy_regex.compile(r"Function '\w*(?:Loss|CrossEntropy\w*|Ctc\w*|LogSoftmax)Backward\d*'")
CURVE_AGAINST = "the loss curve does not look like this entry's"
MISSING_SAID = "none of the messages this failure prints are in the log"


class Weigher:
    """What diagnosis needs from a catalogue, built once: message patterns, documents, declarers, and when each
    failure shows (its signature's timing, and any its Symptom section names outside its snippet's paragraph)."""

    def __init__(self, catalog: Catalog, prose: float = WEIGHTS.prose):
        self.catalog, self.prose = catalog, prose
        self.entries = [e for e in catalog.sorted_entries() if e.status != "retired"]
        self.library = Library.of(self.entries, {**FIELDS, "Symptom": prose, "Where it shows up": prose})
        # (its own paragraphs, not the one that reports its snippet's run: "after 40 steps it is still 2.218" is a
        # measurement of the snippet, not a time the failure shows at)
        self.told_when = {e.id: when("\n\n".join(p for p in section(e, "Symptom").split("\n\n")
                                                 if not p.lstrip().startswith("In the snippet")))
                          for e in self.entries}
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
        # template -> entry ID -> the ops of the further instances its page shows (its other faces)
        self.faces: dict[str, dict[str, set[str]]] = {}
        self.main_of: dict[str, str] = {}              # a message -> the entry whose own (first) message it is
        self.main_op: dict[str, str] = {}              # entry ID -> the op its own message names (NumPy's "in exp")
        for e in self.entries:
            if e.messages:
                self.main_of.setdefault(e.messages[0].text, e.id)
                main = e.messages[0]
                named = op_named(main.text, main.example) or (m.group(1) if (m := _NUMPY_OP.search(main.text)) else "")
                if named:
                    self.main_op[e.id] = bare_op(named)
        for e in self.entries:
            for m in self.weighed[e.id]:
                self.declarers.setdefault(m.text, []).append(e.id)
                if op := op_named(m.text, m.example):
                    self.ops.setdefault(m.text, {})[e.id] = op
                for instance in m.also:
                    if op := op_named(m.text, instance):
                        self.faces.setdefault(m.text, {}).setdefault(e.id, set()).add(op)
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
        self.masked_softmax = self._saying(MASKED_SOFTMAX_WORDS)
        self.log_of_zero = self._saying(LOG_OF_ZERO_WORDS)
        self.singular_slope = self._saying(SINGULAR_SLOPE_WORDS)
        self.constant_feature = self._saying(CONSTANT_FEATURE_WORDS)
        self.zero_init = self._saying(ZERO_INIT_WORDS)
        self.one_output = self._saying(ONE_OUTPUT_WORDS)
        self.dead_units = self._saying(DEAD_UNITS_WORDS)
        self.sigmoid_zero = self._saying(SIGMOID_ZERO_WORDS)
        self.rate_raised = self._saying(RATE_RAISED_WORDS)
        self.uncleared = self._saying(UNCLEARED_WORDS)
        self.untrained_output = self._saying(UNTRAINED_OUTPUT_WORDS)
        self.input_nan = self._saying(INPUT_NAN_WORDS)
        self.mask_255 = self._saying(MASK_255_WORDS)
        self.one_class_iou = self._saying(ONE_CLASS_IOU_WORDS)
        self.mask_scaled = self._saying(MASK_SCALED_WORDS)
        self.clip_late = self._saying(CLIP_LATE_WORDS)
        self.large_init = self._saying(LARGE_INIT_WORDS)
        self.no_warmup = self._saying(NO_WARMUP_WORDS)
        self.rate_zero = self._saying(RATE_ZERO_WORDS)
        self.put_off = self._saying(PUT_OFF_WORDS)
        self.faster_start = self._saying(FASTER_START_WORDS)
        self.jump_frozen = self._saying(JUMP_FROZEN_WORDS)
        self.rate_proof = self._saying(RATE_PROOF_WORDS)
        self.order_bound = self._saying(ORDER_BOUND_WORDS)
        self.regression = self._saying(REGRESSION_WORDS)
        self.probabilities = self._saying(PROBABILITY_LOSS_WORDS)
        self.enormous_first = self._saying(ENORMOUS_FIRST_WORDS)
        self.one_batch = self._saying(ONE_BATCH_WORDS)
        # (a classifier's start far above ln C: not a regression's entry, whose huge first loss is a squared error)
        self.start_high = (self._saying(START_HIGH_WORDS) | self.enormous_first) - self.regression
        self.first_layers = self._saying(FIRST_LAYERS_WORDS)
        self.activations_grow = self._saying(ACTIVATIONS_GROW_WORDS)
        self.feature_scales = self._saying(SCALES_WORDS)
        self.clip_unengaged = self._saying(CLIP_UNENGAGED_WORDS)
        self.high_adaptive = self._saying(HIGH_ADAPTIVE_WORDS)
        self.from_start = {e.id for e in self.entries if e.trace == "nonfinite-from-start"}
        self.forgot_scaling = {"inputs": self._saying(FORGOT_INPUTS), "targets": self._saying(FORGOT_TARGETS)}
        # (an untrained forward pass said to be enormous: weights drawn too wide, or inputs left raw)
        self.enormous_output = self.large_init | self.forgot_scaling["inputs"]
        # the entries whose title names half precision
        self.precision = {e.id for e, title in zip(self.entries, tokens_many([e.title for e in self.entries]))
                          if "fp16" in title}
        # the stop checks are left to their own family (stops.py), which knows a quoted one is the reporter's
        self.finder = message_finder(catalog)


    def _saying(self, words: set[str]) -> set[str]:
        """The entries with a phrase that holds all these words (as tokens)."""
        return {i for i, said in self.phrase_tokens.items() if any(words <= p for p in said)}


_WEIGHERS: dict[tuple[int, float], Weigher] = {}


def weigher(catalog: Catalog, prose: float = WEIGHTS.prose) -> Weigher:
    key = (id(catalog), prose)
    if key not in _WEIGHERS or _WEIGHERS[key].catalog is not catalog:
        _WEIGHERS[key] = Weigher(catalog, prose)
    return _WEIGHERS[key]


_FINDERS: dict[int, tuple[Catalog, MessageFinder]] = {}


def message_finder(catalog: Catalog) -> MessageFinder:
    """The patterns of every message the catalogue declares that is evidence, for a scan. Built on its own, not with
    the rest of the weigher, so that a large log's scan can start while the weigher is built beside it."""
    kept = _FINDERS.get(id(catalog))
    if kept is None or kept[0] is not catalog:
        entries = [e for e in catalog.sorted_entries() if e.status != "retired"]
        kept = _FINDERS[id(catalog)] = (catalog, MessageFinder([(m.text, m.origin) for e in entries
                                                               for m in weighed(e)]))
    return kept[1]


def weighed(entry: Entry) -> list:
    """The entry's declared messages that are evidence: a check that stops a run at any non-finite loss
    (stops.py; Keras's TerminateOnNaN, which entries declare because their failure makes Keras print it)
    names no cause, and is read as a loss value instead."""
    return [m for m in entry.messages if not names_no_cause(m.shown)]


# NumPy's floating-point warnings name the ufunc they come from: "overflow encountered in exp"
_NUMPY_OP = lazy_regex.compile(r" encountered in (\w+)$")
# NumPy's floating-point error classes (numpy/_core/src/umath/extobj.c), for float results: "overflow" and "divide
# by zero" say an inf was made from finite numbers; "invalid value" says a nan was made, from finite numbers (0 / 0) or
# from an inf already there (inf / inf).
NUMPY_INF = lazy_regex.compile(r"(?:overflow|divide by zero) encountered in \w+$")
NUMPY_NAN = lazy_regex.compile(r"invalid value encountered in \w+$")
# A value filled into a message that names an operation: a word, not a number, nor what the value was.
_OP = lazy_regex.compile(r"[A-Za-z_][\w.]*")
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


def bare_op(op: str) -> str:
    """An op as the failure's own words name it: ExpBackward and TensorFlow's SqrtGrad are exp and sqrt."""
    return re.sub(r"(?:Backward|Grad)$", "", op).lower()


# A stall counts as a softmax taken twice only near its floor, log(1 + (C - 1)/e), where the paste names C classes
# (1.4612 for ten): one well above it has more to fall, a cause of its own
FLOOR_NEAR = 0.15


def _at_the_floor(c: Context) -> bool:
    """Does the run's last loss sit within FLOOR_NEAR of a softmax-twice floor for the classes the paste names (or is
    no such floor to check: a sigmoid's depends on the labels' balance, and an unnamed C on nothing printed)?"""
    named = classes_named(c.ev.prose)
    if not named or named[0] < 3 or "softmax" not in c.ev.prose.lower():
        return True
    floor = math.log(1 + (named[0] - 1) / math.e)
    return abs(c.ev.last - floor) <= FLOOR_NEAR * floor


def _shared_as_a_face(text: str, seen, entry: Entry, w: Weigher) -> bool:
    """Does the entry take its share of this message only as a further instance of its op (its page's `also`), beside
    entries whose own example names that op?"""
    op = op_named(text, seen[2]) if text in w.faces else ""
    return bool(op) and op in w.faces[text].get(entry.id, ()) and w.ops.get(text, {}).get(entry.id) != op \
        and any(o == op for i, o in w.ops.get(text, {}).items() if i != entry.id)


def _curve_as_face(parts: dict[str, float], against: list[str], evidence: list[str], facts: list[str]) -> None:
    """The curve counted as the face of a fact of the paste (FACT_FACES): a whole curve's part, after the fact, with
    nothing said against the curve."""
    # (the fact first, the curve it makes a face of after it, though the curve counted a part before)
    parts.pop("curve", None)
    parts["curve"] = W_CURVE
    against[:] = [a for a in against if not a.startswith(CURVE_AGAINST)]
    evidence[:] = [f for f in evidence if f not in facts] + facts


def _message_weight(text: str, seen, entry: Entry, w: Weigher, weights: Weights, infs: tuple, constructs: bool) -> float:
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
        same = [i for i in declarers if w.main_op.get(i) == bare_op(found)]
    # (an op one of the further instances an entry's page shows: that entry counts twice, as for its own message; the
    # op is no other's to rule out, since a nan already in the forward pass meets the backward first at whichever op
    # uses it -- a division by a nan parameter stops in DivBackward0 as the where-guarded 0/0 does)
    faced = [i for i, ops in w.faces.get(text, {}).items() if found in ops] if found else []
    if same:
        # (and an entry whose page shows the op as a further instance owns it beside them: the loss's own backward node,
        # which a nan made anywhere in the forward pass meets first -- WR-020's overflow inside the model as much as
        # WR-310's nan in the data)
        # (only beside a construct of the pasted code that breaks the forward pass, `constructs`: the node alone does not
        # tell an overflow inside the model from a nan in the data -- code_review_s71b 16)
        owners = same + [i for i in faced if i not in same and constructs]
        share = (1.0 if entry.id in owners else 0.0) / len(owners)
    elif faced:
        share = (2.0 if entry.id in faced else 1.0) / (len(declarers) + len(faced))
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
class Context:
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
    precision_tried: tuple         # ("helped" / "failed", the sentence): the run was tried in full precision
    unjudged: bool                 # a curve too short to judge, beside words that say the run does not learn
    impossible_negative: str       # why a loss below zero here is a failure, or ""
    negative: bool                 # a loss below zero that is not said to be a likelihood
    precision: bool                # the words name half precision
    printed: dict[str, str]        # "zero-gradient" / "accuracy-rose" -> the fact, as the log shows it
    trainer_clears: str            # the log's tool clears the gradients every step, and how (Dialect.clears_gradients)
    cleared_each_step: bool        # the pasted loop clears the gradients beside backward() (CLEARED_EACH_STEP)
    fresh_gradients: str           # the paste's own code computes them anew at each step, and how (gradients_fresh)
    classifier: str                # what shows the run is a classifier's and no regression's, or ""
    regressor: str                 # what shows the run is a regression's and no classifier's, or ""
    half_denied: bool              # the words name half precision only to say it is not used
    half_shown: str                # what shows half precision switched on, as written (HALF_SHOWN), or ""
    scaled: dict[str, dict[str, str]]   # "scaled" / "unscaled" -> "inputs" / "targets" -> the words that say so
    infs: tuple                    # (line, key) of NumPy's reports of an inf made (overflow, division by zero)
    words: list[str]               # the report's tokens
    sentences: str                 # the report's own sentences, not its code or its log (sentences_only)
    fell_said: bool                # the words (a report mostly of words) say the loss fell and then broke
    scale_recovered: str           # the printed loss scale rose again after its lowest, beside a finite loss, and how
    # the kernel assertions the log prints (`Assertion `t >= 0 && t < n_classes` failed.`), as messages are declared
    assertions: tuple[str, ...] = ()
    no_zero_side: str = ""         # the setting that gives the hidden units no zero side to die on (hidden_activation)
    logs_off_zero: str = ""        # the pasted code's logs, each of a constant plus an exp (logs_kept_off_zero)
    # the fact of the paste whose face each entry's curve was counted as (FACT_FACES), as weigh chose it: entry id -> fact
    faces: dict = field(default_factory=dict)


def context_of(ev: Evidence, w: Weigher, sig: Signature, weights: Weights, zero: str | None = None) -> Context:
    words, sentences = tokens(ev.prose), sentences_only(ev.prose)
    if _not_english(ev.prose):         # (German's article "die" is no unit dying, Spanish's "red" no colour)
        words = [word for word in words if word not in FOREIGN_HOMOGRAPHS]
    # a curve too short to judge (fewer than SHAPE_MIN values, all finite) shows neither a failure nor a healthy run:
    # beside words that say the run does not learn (says_not_learning), in values that ended no lower than their
    # middle one, the words and the paste's facts are the evidence too (a nan said in words is not of these values:
    # it would be in the curve)
    # (or a finite log beside words that say it went nan: the nan is past the log, and the words carry it)
    past_the_log = nonfinite_past_the_log(ev, sig)
    words_count = ev.count < 3 or sig.name in ("no-loss", "few-values", "nonfinite-throughout") or past_the_log
    bm = w.library.scores(words)
    top = max(bm.values(), default=0.0)
    # a loss that keeps growing, said in words, is the climb's signature said in words
    said_nonfinite = ev.first_nonfinite is not None or bool({"nan", "inf", "diverge", "climb"} & set(words))
    # (a nan said not to happen is none: "no NaNs", "I never get any NaN", "GradScaler is there to avoid NaN/inf")
    said_nonfinite_value = ev.first_nonfinite is not None or bool(
        {"nan", "inf"} & set(words) and said_unnegated(ev.prose, {"nan", "inf"}))
    # ... and the same short curve beside words that say the run went nan or inf when these values are all finite:
    # values a report gives in its sentences stop where it had numbers to give ("it was ~4.3, then 5, 7, 12..."),
    # and its nan is said in another sentence ("it still goes nan at the same step") -- a log would print it
    # (values from sentences, however many, are the ones the reporter chose to give: words that say the run is stuck
    # or went nan say what they leave out -- "from epoch 24 on it prints 0.6687 every single epoch")
    said = values_chosen(ev)
    # (a network said to respond no more: one output for every input, weights that never change, units dead)
    unresponsive = one_output_untrained(ev.prose) or weights_frozen_said(ev.prose) or dead_units_said(ev.prose)
    unjudged = sig.name == "healthy" and ev.count >= 2 and (
        ev.count < SHAPE_MIN and says_not_learning(ev.prose)
        and ev.last >= (1 - PLATEAU_FALL) * ev.head[min(len(ev.head) - 1, ev.count // 2)]
        # (a climb or a blow-up said in words, "it explodes in the first steps", is such a failure too -- not one
        # denied, "nothing diverges", nor asked about, "will it explode later?")
        or said and ((said_nonfinite_value or said_unnegated(told(ev.prose), {"diverge", "climb"}))
                     and ev.count < SHAPE_MIN or says_not_learning(ev.prose)
                     # (or words in another script, which were not read for what went wrong)
                     or ev.count < SHAPE_MIN and _other_script(ev.prose))
        # (or words of a network that no longer responds -- one output for every input, weights that never change --
        # beside a short curve: a fall in its first values is the output's bias finding the base rate; or beside a
        # longer one whose end has stopped moving, however far it fell: one that only found the base rate fell from
        # ln C to the entropy of the classes' shares, 1.10 to 1.05 for shares of 0.48, 0.30 and 0.22, and from ln 2
        # to 0.098 for a 2% minority class)
        or bool(unresponsive) and (ev.count < SHAPE_MIN or flat_tail(ev))
        # (or a short log that ends well above where it started, beside words that say the loss climbs: too few values
        # for a shape, but the words and the values agree)
        # (not a loss that grows in a healthy run, nor a validation curve)
        or ev.count < SHAPE_MIN and ev.head[0] > 0 and ev.last >= SAID_CLIMB_RISE * ev.head[0]
        and loss_climb_said(ev.prose)
        and not grows_when_healthy(f"{ev.loss_named[0]} {ev.prose}") and not not_training(ev)
        # (or a short log beside a training accuracy that fell and stayed down: printed, what words of a run that does
        # not learn would say; or a longer one whose loss ended no lower than it started -- a class-weighted loss may
        # lower the accuracy while the model learns the rare classes, but then its loss falls)
        or bool(accuracy_fell(ev)) and (ev.count < SHAPE_MIN or ev.last >= ev.head[0])
        # (or a short log beside words that the weights or the gradients turned nan or inf: that nan is not of these
        # values -- a check that stops the loop at the first nan weight prints no nan loss)
        or ev.count < SHAPE_MIN and bool(weights_nonfinite_said(ev.prose)))
    hits = {e.id: _declared_hits(w.weighed[e.id], ev.messages) for e in w.entries}
    if zero is not None:                               # Apex's scale at zero: the scaler out of range
        for i in w.declarers.get(SAME_AS, []):
            if not any(t == SAME_AS for t, _ in hits[i]):
                hits[i].append((SAME_AS, ev.messages[zero]))
    regressor, scaled = regressor_shown(ev), scaled_said(ev.prose)
    printed = printed_facts(ev, sig, words, regressor, scaled, unjudged, sentences)
    impossible = impossible_negative(ev, words, handed=bool(HANDED_BELOW_ZERO & printed.keys()))
    said_failure = (said_nonfinite or sig.name in TRACES or sig.name in UNFINISHED or bool(ev.messages)
                    or says_failure(told(ev.prose)) or bool(impossible) or normal_ruled_out(ev.prose)
                    # (or the network said to no longer respond: one output for every input, weights that never change,
                    # units dead)
                    or bool(unresponsive)
                    or bool(start_high(ev))
                    or bool(accuracy_rose_said(ev.prose))
                    or early_jump_seen(ev.prose) is not None
                    # (or a failure to learn said in words, or the same failure at a learning rate of 0)
                    or says_not_learning(ev.prose) or bool(rate_zero_failed(ev.prose))
                    # (or gradients said to be exactly 0, not of layers frozen on purpose: nothing they reach learns)
                    or grads_said_zero(ev.prose) is not None)
    said_when = timing_of(words) if words_count else set()
    # (words of a start, "it turns nan somewhere in epoch 0", beside a log whose loss was still finite at a step it
    # numbers past the first updates, `1187/2890`, name the epoch, not the first steps: the log says when)
    if "start" in said_when and (finite_to := _finite_through(ev)) is not None and finite_to > EARLY_STEPS:
        said_when = (said_when - {"start"}) or {"later"}
    stopped = ev.first_nonfinite_at.step if ev.hidden_note and ev.first_nonfinite_at is not None else None
    said_at = ""
    if words_count and not said_when and stopped:      # a check's stop names its step: "at iteration 460" says when
        said_when = _when_stopped(ev.first_nonfinite_at)
        said_at = f"at {stopped} (the step the check named), " if said_when else ""
    if words_count and not said_when and not ev.count and (output := untrained_output_nonfinite(ev.prose)):
        said_when, said_at = {"start"}, (f"in a forward pass before any update (\"{output}\"), "
                                         if BEFORE_TRAINING_NONFINITE.search(output) else
                                         f"in a forward pass of a model the report never trains (\"{output}\"), ")
    # (half precision named only as hearsay beside words that the run is in float32 -- every naming of it found, none
    # shown -- names none)
    half_shown = half_precision_shown(ev.prose, words)
    return Context(ev, sig, words_count, said_when, said_at, bm,
                    min(1.0, top / weights.bm_full), said_nonfinite, said_nonfinite_value, said_failure, hits,
                    lr_tried(ev.prose), precision_tried(ev.prose), unjudged, impossible,
                    bool(impossible) or (negative_shown(ev, words) and loss_kind(ev.prose) != "likelihood"),
                    "fp16" in words and not bf16_only(ev.prose) and bool(half_shown or not HALF_SHOWN.search(ev.prose)),
                    printed, trainer_clears(ev), cleared_each_step(ev.prose), gradients_fresh(ev.prose),
                    classifier_shown(ev), regressor, half_precision_denied(ev.prose, words), half_shown,
                    scaled,
                    tuple((seen[1], key) for key, seen in ev.messages.items() if NUMPY_INF.match(seen[2])), words, sentences,
                    # (a log that fell before the nan said past it shows the fall the words would have said)
                    words_count and (fell_then_broke(sentences, words) or past_the_log and ev.last < ev.head[0]),
                    scale_recovered(ev.prose) if ev.first_nonfinite is None else "",
                    tuple(dict.fromkeys(f"Assertion `{m.group(1)}` failed."
                                        for m in itertools.islice(KERNEL_ASSERTION.finditer(ev.prose), 20))),
                   no_zero_side(ev.prose), logs_kept_off_zero(code_of(ev.prose)))


def _finite_through(ev: Evidence) -> int | None:
    """The step the log numbers its first non-finite loss at -- or, where that value closes an epoch's bar
    (`2210/2210 ... loss: nan`, no step of its own), the step of the finite update just before it in the same epoch
    (`737/2210 ... loss: 0.0213`): the loss was still finite that far in."""
    if not ev.first_nonfinite or ev.first_nonfinite_at is None:
        return None
    at = ev.first_nonfinite_at
    if at.step is None and at.finished and (before := ev.at(ev.first_nonfinite - 1)) is not None \
            and before.epoch == at.epoch:
        at = before
    count = re.search(r"\d+", at.step or "")
    return int(count.group(0)) if count else None


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


def _timing(c: Context) -> tuple[set[str], str]:
    """When the report says or shows the run broke, and which of "start", "early" or "later" that makes it (later
    where nothing says: a run that trained at all is assumed)."""
    # the words, or else what the values show (not a first value that stands for a whole epoch: see
    # NONFINITE_TRACES)
    said = c.said_when or (WHEN_OF_TRACE.get(c.sig.name, set()) if not c.sig.first_epoch else set())
    return said, "start" if "start" in said else ("early" if said == {"early"} else "later")


def _suspect(entry: Entry, c: Context, w: Weigher) -> tuple[float, str]:
    """How much of the prior this entry gets as a first suspect (1, a half for a second one, or 0), and why."""
    if c.precision:                    # half-precision words: the entry that names the precision first
        return (1.0, "the report names half precision, and this entry is the one about it") \
            if entry.id in w.precision else (0.0, "")
    said, timing = _timing(c)
    # (words that tell the shape, a fall and then the break, swap the first suspects for the second: the rate
    # breaks a run by a climb, and these words say there was none)
    fell = timing == "later" and c.fell_said
    first, second = (SECOND_SUSPECTS, FIRST_SUSPECTS) if fell else (FIRST_SUSPECTS, SECOND_SUSPECTS)
    broke = ("a loss that fell and then turned nan or inf " if fell else
             "a loss that turned nan or inf " if c.said_nonfinite_value else "a loss that climbed ") + \
        ({"start": "from the first values", "early": "right after the first updates"}.get(timing)
         or "after training had run")
    if not said:
        broke += (" (the report's words in another script were not read for when, and its English ones do not say "
                  "it, so a run that trained at all is assumed)" if _other_script(c.ev.prose) else
                  " (the report's words, not in English, were not read for when, so a run that trained at all is "
                  "assumed)" if _not_english(c.ev.prose) else
                  " (the loss is non-finite from the first value the log shows, and the steps before that value are "
                  "not in it, so a run that trained at all is assumed)" if c.ev.count and c.ev.first_nonfinite == 0
                  else " (the log shows one finite value before it, and no more, so a run that trained at all is "
                  "assumed)" if c.ev.count >= 2 and c.ev.first_nonfinite == 1
                  else " (the report does not say when, so a run that trained at all is assumed)")
    if c.lr_tried == "failed":         # the step size is ruled out: the failures that do not move with it come first
        return (1.0, f"a lower learning rate did not help: with the step size ruled out, a first suspect for {broke}") \
            if entry.trace in SECOND_SUSPECTS.get(timing, ()) else (0.0, "")
    # ("on timing alone": a prior from when it broke, which other evidence may outweigh -- a first suspect can be listed
    # third)
    if entry.trace in first.get(timing, ()):
        return 1.0, f"on timing alone, the first suspect for {broke}"
    if entry.trace in second.get(timing, ()):
        return 0.5, f"on timing alone, a second suspect for {broke}"
    return 0.0, ""


# Words are read in English only: a report with this many letters of another script (Cyrillic, Chinese,
# ...; not Greek, whose letters are symbols in a formula) may say when in words that were not read.
OTHER_SCRIPT_LETTERS = 8


# ... or words in a language written in Latin letters that is not English (French, Spanish, German, Indonesian...): a
# report's sentences whose words are almost none of English's commonest
ENGLISH_COMMON = frozenset("the a an is are was were and or but to of in on at it my i this that with for from not "
                           "after before then when have has had be been does do did".split())
# ... and many of another's (French, Spanish, Portuguese, Italian, German, Dutch, Polish, Indonesian, Turkish,
# Vietnamese, Hindi in Latin letters): a log's lines are neither
OTHER_COMMON = frozenset("le la les un une des et est du dans pour avec sur pas que qui el los las y es en del por con "
                         "para una o os da do não com uma il di che per della non ed der die das und ist ein eine nicht "
                         "mit auf ich het een van en niet ik je jest nie się na za ale yang dan ada untuk dengan tidak "
                         "saya ini itu bir ve bu için ile çok và của có không là được mein hai ka ki ke se nahi hoon "
                         "aur".split())
ENGLISH_SHARE, ENGLISH_WORDS, PROSE_LINE_WORDS = 0.08, 20, 6
# Words of those languages spelled as English words that mean something else, left out of a report in one of them:
# German die (the), will (wants), also (so), war (was), hat (has); Spanish red (network), sale (comes out), once
# (eleven); French pour (for), son (its)
FOREIGN_HOMOGRAPHS = frozenset("die will also war hat red sale once pour son".split())


@functools.lru_cache(maxsize=4)
def _not_english(prose: str) -> bool:
    # (the words of the lines that read as sentences, six words or more: a log's lines are names and numbers)
    words = [w for line in sentences_only(prose).lower().split("\n")
             if len(found := re.findall(r"[^\W\d_]{2,}", line)) >= PROSE_LINE_WORDS for w in found]
    return (len(words) >= ENGLISH_WORDS and sum(w in ENGLISH_COMMON for w in words) < ENGLISH_SHARE * len(words)
            and sum(w in OTHER_COMMON for w in words) >= ENGLISH_SHARE * len(words))


@functools.lru_cache(maxsize=4)         # asked once per entry of one report
def _other_script(prose: str) -> bool:
    # the letters of other scripts (Cyrillic to Thai and Georgian; kana, CJK, Hangul), not Latin's or Greek's (β, μ,
    # σ are a formula's symbols in an English report), nor phonetic subscripts or mathematical letters (ᵢ, 𝐿)
    return sum(1 for ch in prose if ch.isalpha() and (0x400 <= ord(ch) < 0x1100 or 0x3040 <= ord(ch) <= 0xD7AF)) \
        >= OTHER_SCRIPT_LETTERS


def weigh(entry: Entry, c: Context, w: Weigher, weights: Weights) -> tuple[dict[str, float], list[str], list[str]]:
    """The parts of an entry's score, the evidence for it and the evidence against it."""
    sig, ev = c.sig, c.ev
    parts: dict[str, float] = {}
    # (half precision's late face, a fall then a nan, is its own only where the report shows half precision switched on
    # and does not say the run fails in full precision too)
    late_face = entry.id in w.precision and bool(c.half_shown) and c.precision_tried[0] != "failed"
    evidence: list[str] = []
    against: list[str] = []
    shown_when = WHEN_OF_TRACE.get(sig.name, set())
    if sig.name == entry.trace == "spike-then-recover" and plain_sgd_only(ev.prose):
        # (a spike that recovered is no missing warmup's under plain SGD, whose first steps are as large as their
        # gradients make them and no larger: not the Adam steps WR-250 explains)
        curve = 0.0
        against.append("the paste trains with plain SGD: the jump is not an adaptive optimizer's first steps taken at "
                       "the full rate")
    elif sig.name == "spike-then-recover" and entry.trace == RATE and plain_sgd_only(ev.prose):
        # (... and under plain SGD a jump after the first updates that comes back down is a step too large for the
        # curvature at the start, which the climb out of it then lowers: the catapult phase of a rate above 2 over the
        # largest curvature, short of the one where it diverges (Lewkowycz et al. 2020, arXiv:2003.02218). A suspect
        # only, at half a part: the paper finds such runs often train best -- the rate is at fault where the run
        # ends worse than one at a smaller rate, which a second run shows)
        curve = W_PART / 2
    elif sig.name == entry.trace:      # several entries with one signature share what it says
        curve = (W_PART if sig.weak else W_CURVE) / math.sqrt(w.trace_count.get(entry.trace, 1))
    elif PART_OF.get(sig.name) == entry.trace:
        curve = W_GENERAL if w.trace_count.get(sig.name) else W_PART
    elif sig.short_descent and entry.trace == "descent-then-climb" and not c.trainer_clears \
            and not c.cleared_each_step and not c.fresh_gradients:
        # (a fall over a few values before the climb: too short to call the descent the entry's face is, but a buffer
        # never cleared falls fast before it climbs -- a suspect beside the rate, whose steps can overshoot after a
        # first fall as well; not where the paste shows the gradients cleared or computed anew at each step)
        curve = W_PART / 2
    elif sig.name in TIMED and shown_when <= w.told_when[entry.id] and entry.trace != "none":
        curve = W_PART / 2           # not its signature, but its Symptom says it can show then too
    elif c.regressor and sig.name == entry.also_trace == "climb-then-nonfinite" and "inputs" not in c.scaled["scaled"]:
        # (a regression's climb is raw features' second face, which their page shows on a linear model: the squared
        # error's curvature grows with the features' mean square, and a rate fit for standardised ones overshoots --
        # not where the words say the inputs were scaled)
        curve = W_PART
    elif sig.name == entry.also_trace == "descent-then-nonfinite" and late_face:
        # (... and a loss that fell and then turned non-finite is half precision's late face, an activation that first
        # passes float16's largest value after some training, which its page reports -- where the report shows half
        # precision switched on; half a part, since the setting itself already counts as the "precision" part below)
        curve = W_PART / 2
    elif sig.name == entry.also_trace == "plateau-from-start" and {"raw-targets", "target-size"} & c.printed.keys():
        # (... and a regression's loss that sits at its enormous first value is raw targets' second face, which their
        # page shows under Adam: its steps, about the rate each, carry outputs near 0 toward targets in the thousands
        # only slowly -- where the paste's own numbers show a regression's targets in their raw units)
        curve = W_PART
    else:
        curve = 0.0
    # (an epoch's mean holds the steps after the first updates: a rate that threw the outputs out within them too)
    # (raw inputs' share, not where the words say the inputs were scaled)
    raw_inputs = entry.id in w.enormous_first and "inputs" not in c.scaled["scaled"]
    if sig.enormous_start and (entry.trace == "nonfinite-from-start" or raw_inputs
                               or sig.start_updated and entry.trace == RATE):
        sharing = (w.trace_count.get("nonfinite-from-start", 1) + len(w.enormous_first - w.from_start)
                   + (w.trace_count.get(RATE, 1) if sig.start_updated else 0))
        parts["start"] = W_PART / math.sqrt(sharing)
        evidence.append(sig.enormous_start)
    if sig.first_epoch and entry.trace in NONFINITE_TRACES and entry.trace != sig.name:
        curve = max(curve, W_GENERAL)
    # (a loss that jumped in one step and never came back is the face of the entries whose phrases say so: a bad batch)
    if sig.jumped and entry.id in w.one_batch:
        curve = max(curve, W_PART)
        against[:] = [a for a in against if not a.startswith(CURVE_AGAINST)]
    # (each item standardised by its own std, unguarded: the nan comes at whichever batch first holds an item of equal
    # values -- a finite curve that turns non-finite is that face, WR-060's page's "Statistics of one item")
    # (and NumPy's own warning printed at a division by a std: it met one of 0 there, at whatever step it did)
    if _std_met_any_step(c) and entry.id in w.constant_feature and sig.name in NONFINITE_TRACES:
        curve = max(curve, W_PART / 2)
    # (a climb from a first loss already enormous, on a regression whose targets the words leave in their raw units: a
    # rate too high alone starts from an ordinary loss, and a rate that suits unit-scale targets diverges on raw ones --
    # the climb is the raw targets' second face, so the rate's own reading of it counts half)
    # (or from targets whose printed size makes that start, where an epoch's mean hid it)
    enormous = "raw-targets" in c.printed and bool(sig.enormous_start)
    if curve and entry.trace == RATE and (enormous or "target-size" in c.printed):
        curve /= 2
        against.append("the climb starts from a first loss already enormous, on a regression whose targets are in their "
                       "raw units: a rate too high alone starts from an ordinary loss, so the climb counts half here"
                       if enormous else
                       "the climb is a regression's whose printed targets are in their raw units, where a rate that "
                       "suits unit-scale targets diverges: the climb counts half here")
    # (a loss flat from the start beside a printed accuracy that never moved either: the face of the entries whose
    # phrases say the accuracy improves while the loss stays flat -- a softmax taken twice, inside whose band the model
    # still learns -- is the accuracy rising; one that stays where it began is a network that learns nothing at all)
    # (stuck below half the examples right: an accuracy that starts high and stays there is a model that learnt in its
    # first epoch, which this failure allows)
    if curve and sig.name == "plateau-from-start" and entry.id in w.accuracy_rises and accuracy_stuck(ev) \
            and max(ev.accuracy_head + ev.accuracy_tail) < 0.5 * accuracy_scale(ev):
        curve = 0.0
        against.append("the accuracy printed beside the flat loss never moved either, below half the examples right: "
                       "this failure leaves the model learning, its accuracy rising while the loss barely moves")
    if curve:
        parts["curve"] = curve
        evidence += [f for f in sig.facts if f != sig.enormous_start]
    # (an enormous first value is this entry's curve at its start: what the curve does next does not contradict it;
    # nor is its second face, which its page and snippet show in a narrower setting, held against it -- nor counted
    # for it: the signature's own entries keep their lead)
    # (half precision's second face only where it is its own: late_face)
    # (and a regression's climb, beside targets whose printed size is raw: their page's divergence under plain gradient
    # descent, not held against them)
    elif sig.name == RATE and entry.id in w.regression and "target-size" in c.printed:
        pass
    elif (sig.name in TRACES and entry.trace != "none" and PART_OF.get(entry.trace) != sig.name and "start" not in parts
          and sig.name not in (traces := entry.traces if entry.id not in w.precision or late_face else (entry.trace,))
          and PART_OF.get(sig.name) not in traces):
        parts["curve"] = -weights.when
        against.append(f"{CURVE_AGAINST} ({TRACES[entry.trace]})")
    # a message whose op the log names is another entry's (see _message_weight) is no evidence for this one
    constructs = any(f in c.printed for f in CODE_CONSTRUCTS)
    shares = [(text, seen, _message_weight(text, seen, entry, w, weights, c.infs, constructs))
              for text, seen in c.hits[entry.id]]
    # A loss scaler's overflows after a loss that climbed: a loss that explodes overflows float16 as well (fairseq's
    # floor says so itself, "Your loss is probably exploding"), so they count half for half precision there
    if entry.id in w.precision and c.sig.name in RATE_CLIMBS and any(SCALER.search(t) for t, _s, _w in shares):
        shares = [(t, seen, share / 2 if SCALER.search(t) else share) for t, seen, share in shares]
        against.append("the loss climbed before the loss scaler's overflows: a loss that explodes overflows float16 "
                       "too, so they count half here")
    # ... and none where the paste's loss stayed finite and its printed scale rose again after its skips: the scaler
    # calibrated, and found a scale that holds
    if entry.id in w.precision and c.scale_recovered and any(SCALER.search(t) for t, _s, _w in shares):
        rose = c.scale_recovered
        shares = [(t, seen, 0.0 if SCALER.search(t) else share) for t, seen, share in shares]
        against.append(f"{rose}, and the loss stayed finite: a scaler doubles its scale only after a run of steps "
                       "with no overflow, so the steps it skipped were its calibration, and its overflow messages are "
                       "no evidence of a failure")
    # ... and CUDA's device-side assert error, where the log prints the kernel assertion it follows and this entry
    # declares none of the assertions printed: the error is the consequence of whichever check failed, and the
    # assertion, declared by another entry or by none, names the check
    if any(text == DEVICE_ASSERT for text, _seen, _share in shares) and (asserted := c.assertions) \
            and not set(asserted) & {m.text for m in w.weighed[entry.id]}:
        shares = [(t, seen, 0.0 if t == DEVICE_ASSERT else share) for t, seen, share in shares]
        against.append(f"CUDA's device-side assert error follows a kernel assertion this entry does not declare "
                       f"({asserted[0]}): the error is that check's consequence, not this entry's evidence")
    # ... and Keras's warning that a cross-entropy told from_logits=True was handed an activation's output: raised
    # exactly where the TensorFlow backend found the logits the activation kept and computed the loss from them, it
    # shows the loss was right (the normal answer that reads it says so)
    if any(KERAS_REPAIRED in text for text, _seen, _share in shares):
        shares = [(t, seen, 0.0 if KERAS_REPAIRED in t else share) for t, seen, share in shares]
        against.append("Keras's warning that the output does not represent logits is raised where Keras found the "
                       "logits the activation kept and computed the loss from them: that loss was right")
    hits = [(text, seen) for text, seen, share in shares if share > 0]
    if hits:
        parts["messages"] = sum(share for _text, _seen, share in shares)
        whole = any(_whole_signature(text, seen, entry, w) for text, seen in hits)
        if entry.trace == "none" and whole and (ev.count == 0 or _unexplained_birth(entry, hits, ev, sig, w)):
            parts["messages"] += W_MISSING
        for text, (count, line, example, _origin) in hits:
            why = f": {WHY}" if _apex_zero(text, (count, line, example, _origin)) else ""
            if text in w.faces and (op := op_named(text, example)) in w.faces[text].get(entry.id, ()) \
                    and op != w.ops.get(text, {}).get(entry.id):
                # (beside entries whose own example names the op, it shares it with them evenly: _message_weight)
                why = (f": this entry's page shows its failure making the nan in {op}"
                       + (", which it shares with the entries whose own example names it"
                          if _shared_as_a_face(text, (count, line, example, _origin), entry, w) else
                          ", so it counts twice here"))
            evidence.append(f'message "{example}" (line {line}' + (f", {count} times)" if count > 1 else ")") + why)
    missing = _missing_messages([m for m in w.weighed[entry.id] if not m.opt_in], c.hits[entry.id], ev)
    # (NumPy's overflow in another op than the entry's is the same story, values grown past float's range: a loss that
    # climbs overflows in whatever op its values first outgrow -- a squared error's square or sum as well as an exp)
    if missing and any(key.startswith("overflow") for _line, key in c.infs) \
            and any(m.text.startswith("overflow encountered") for m in w.weighed[entry.id]):
        missing = ""
    if missing and sig.name == entry.trace:
        parts["messages"] = parts.get("messages", 0.0) - W_MISSING
        against.append(missing)
    top = max(c.bm.values(), default=0.0)
    if top > 0 and c.bm[entry.id] > 0:
        share = c.bm[entry.id] / top
        weight = weights.words if c.words_count else W_TEXT_WITH_CURVE * (2 if ev.size <= PASTED else 1)
        parts["words"] = weight * share * c.strength
        if share > 0.6 and (c.words_count or c.unjudged) and c.strength > 0.5:
            # (shown with the report's own distinctive words, or not at all: a match on words every report holds, or
            # on what the thesaurus made of them, has none to show)
            if said := ", ".join(f'"{word}"' for word in words_for(w.library.shared(c.words, entry.id), c.sentences)):
                evidence.append(f"the report's words match how this entry describes the failure ({said})")
    # A special case of another entry's signature (clipping that does not clip, gradients that
    # pile up) is told apart by its own evidence -- its curve, its words -- never by timing alone.
    special = entry.trace in PART_OF
    entry_when = w.timing[entry.id]
    if "sqrt-at-zero" in c.printed and entry.id in w.singular_slope and PAIRWISE.search(ev.prose):
        entry_when = entry_when | {"start"}      # (a pairwise distance's zero diagonal: from the first step)
    if _std_met_any_step(c) and entry.id in w.constant_feature:
        entry_when = entry_when | {"early", "later"}     # (each item by its own std: wherever the first constant one is)
    # (in half precision, its late face, a nan: wherever an activation first leaves float16's range -- not beside a curve of
    # any other shape (a climb, a plateau, a stall, a spike) or a climb said in words, whose timing is that shape's, nor
    # where the run is said to fail in full precision too)
    if late_face and (sig.name not in TRACES or sig.name in entry.traces) and c.said_nonfinite_value \
            and not {"climb", "diverge"} & set(c.words):
        entry_when = entry_when | {"later"}
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
    # (a failure whose face is a nan or an inf is put off only where one came: a climb a lower rate delays is not it)
    put_off = entry.id in w.put_off and (entry.trace not in NONFINITE_FACES or c.said_nonfinite_value)
    if c.lr_tried == "failed" and rate_family and ("rate-zero" in c.printed or "before-update" in c.printed):
        # (twice: at a rate of 0, or before the first update, no update ran, so what broke there no rate made)
        parts["tried"] = -2 * W_TRIED
        against.append("the report says the failure is there at a learning rate of 0, with no update made"
                       if "rate-zero" in c.printed else "the report says it broke before any update was made")
    elif c.lr_tried == "failed" and rate_family:
        parts["tried"] = -W_TRIED
        against.append("the report says a lower learning rate did not help")
    elif c.lr_tried == "helped" and rate_family:
        parts["tried"] = W_TRIED
        evidence.append("the report says a lower learning rate helped")
    elif c.lr_tried == "delayed" and put_off:
        parts["tried"] = W_TRIED
        evidence.append("the report says a lower learning rate only put the failure off, as this entry's does")
    elif c.lr_tried == "delayed" and entry.trace == RATE:
        parts["tried"] = -W_TRIED
        against.append("the report says a lower learning rate only put the failure off: a rate too high is cured "
                       "by a lower one")
    bound = _example_bound(c, w)
    rate_proof = entry.id in w.rate_proof or entry.id in bound
    if c.lr_tried == "failed" and rate_proof and lr_tried_same_place(c.ev.prose):
        parts["tried"] = W_TRIED
        evidence.append("the report says a lower learning rate broke at the same place: this failure does not move "
                        "with the rate")
    elif c.lr_tried == "failed" and rate_proof:   # (half: "did not help" need not say it broke at the same step)
        parts["tried"] = W_TRIED / 2
        evidence.append("the report says a lower learning rate did not help: this failure does not move with the rate")
    elif (c.lr_tried == "failed" and put_off and not rate_family and _timing(c)[1] == "later"
          and not lr_tried_unmoved(c.ev.prose)):
        # (half: it may not have been put off; nothing where it is said to be the same, nor for a run that broke at
        # its start or its first updates, which a lower rate would not have moved far)
        parts["tried"] = W_TRIED / 2
        evidence.append("the report says a lower learning rate did not help: a lower rate only puts this failure off")
    elif c.lr_tried == "delayed" and rate_proof:
        parts["tried"] = -W_TRIED
        against.append("the report says a lower learning rate put the failure off: this one breaks where it is met, "
                       "whatever the rate")
    for fact, declarers, weight in (("zero-gradient", w.zero_gradient, W_PRINTED),
                                    ("one-output", w.one_output, W_SAID_HALF),
                                    ("dead-units", w.dead_units, W_SAID_HALF),
                                    ("dead-units-printed", w.dead_units, W_PRINTED),
                                    ("width-no-effect", w.zero_init, W_SAID_HALF),
                                    ("units-alike", w.zero_init, W_SAID_HALF),
                                    ("weights-frozen", w.zero_gradient, W_SAID_HALF),
                                    ("start-high", w.start_high, W_SAID_HALF),
                                    ("accuracy-rose-said", w.accuracy_rises, W_SAID_HALF),
                                    ("faster-start", w.faster_start, W_SAID_HALF),
                                    ("froze-after-jumps", w.jump_frozen, W_SAID_HALF),
                                    ("accuracy-rose", w.accuracy_rises, W_PRINTED),
                                    ("sigmoid-zero", w.sigmoid_zero, W_SAID_HALF),
                                    ("untrained-output", w.untrained_output, W_SAID_HALF),
                                    ("adapted-nan", w.input_nan, W_SAID_HALF),
                                    ("frames-merged", w.input_nan, W_SAID_HALF),
                                    ("input-stats-nonfinite", w.input_nan, W_PRINTED),
                                    ("own-data-only", w.input_nan, W_SAID_HALF),
                                    ("table-nan-unhandled", w.input_nan, W_SAID_HALF),
                                    ("softmax-floor", w.softmax_floor, W_PRINTED),
                                    ("minus-one-labels", w.unlabelled, W_SAID_HALF),
                                    ("ctc-blank-label", w.unlabelled, W_PRINTED),
                                    ("classes-counted", w.unlabelled, W_SAID_HALF),
                                    ("classes-short", w.unlabelled, W_SAID_HALF),
                                    ("labels-past-outputs", w.unlabelled, W_PRINTED),
                                    ("labels-past-classes", w.unlabelled, W_SAID_HALF),
                                    ("mask-255", w.mask_255, W_SAID_HALF),
                                    ("one-class-iou", w.one_class_iou, W_SAID_HALF),
                                    ("mask-scaled", w.mask_scaled, W_SAID_HALF),
                                    ("raw-pixels", w.raw_pixels, W_SAID_HALF),
                                    ("input-range", w.raw_pixels, W_PRINTED),
                                    ("exp-overflow", w.exp_overflow, W_SAID_HALF),
                                    ("exp-overflow-printed", w.exp_overflow, W_PRINTED),
                                    ("masked-inf", w.masked_softmax, W_SAID_HALF),
                                    ("masked-row-every-batch", w.masked_softmax, W_SAID_HALF),
                                    ("masked-row-printed", w.masked_softmax, W_PRINTED),
                                    ("log-unguarded", w.log_of_zero, W_SAID_HALF),
                                    # (a linear output is negative for some inputs at once: a log of it breaks at
                                    # the first batch, where a probability's rounds to 0 only at the extremes)
                                    ("log-raw-output", w.log_of_zero, W_PRINTED),
                                    ("exp-unshifted", w.exp_overflow, W_SAID_HALF),
                                    ("sqrt-at-zero", w.singular_slope, W_SAID_HALF),
                                    ("raw-targets", w.regression, W_PRINTED),
                                    ("raw-targets-said", w.regression, W_SAID_HALF),
                                    ("target-size", w.regression, W_PRINTED),
                                    ("constant-feature", w.constant_feature, W_PRINTED),
                                    ("zero-items", w.constant_feature, W_PRINTED),
                                    ("std-nan-printed", w.constant_feature, W_PRINTED),
                                    ("std-unguarded", w.constant_feature, W_SAID_HALF),
                                    ("item-std-unguarded", w.constant_feature, W_SAID_HALF),
                                    ("inverse-unguarded", w.constant_feature, W_SAID_HALF),
                                    ("norm-unguarded", w.constant_feature, W_SAID_HALF),
                                    ("relu-norm-unguarded", w.constant_feature, W_SAID_HALF),
                                    ("zero-init", w.zero_init, W_SAID_HALF),
                                    ("unfilled-init", w.zero_init, W_PRINTED),
                                    ("update-discarded", w.zero_init, W_PRINTED),
                                    ("large-init", w.large_init, W_SAID_HALF),
                                    ("untrained-output-enormous", w.enormous_output, W_SAID_HALF),
                                    ("no-warmup", w.no_warmup, W_SAID_HALF),
                                    ("early-jump", w.no_warmup, W_SAID_HALF),
                                    ("loop-unscaled", w.precision, W_SAID_HALF),
                                    ("rate-zero", w.rate_zero, W_SAID_HALF),
                                    ("before-update", w.rate_zero, W_SAID_HALF),
                                    ("scale-collapse", w.precision, W_PRINTED),
                                    ("never-cleared", w.uncleared, W_SAID_HALF),
                                    ("accumulated-undivided", w.uncleared, W_SAID_HALF),
                                    ("cleared-outside", w.uncleared, W_SAID_HALF),
                                    ("rate-rose", w.rate_raised, W_SAID_HALF),
                                    ("same-batch", w.one_batch, W_PRINTED),
                                    ("order-moved", w.order_bound | bound, W_SAID_HALF),
                                    ("first-layers", w.first_layers, W_PRINTED),
                                    ("activations-grow", w.activations_grow, W_PRINTED),
                                    ("feature-scales", w.feature_scales, W_PRINTED),
                                    ("nll-of-probabilities", w.probabilities, W_PRINTED),
                                    ("ctc-not-log-probabilities", w.probabilities, W_PRINTED),
                                    ("sigmoid-twice-printed", w.probabilities, W_PRINTED),
                                    ("clip-unengaged", w.clip_unengaged, W_PRINTED),
                                    ("clip-after-step", w.clip_late, W_PRINTED),
                                    ("adaptive-rate-high", w.high_adaptive, W_SAID_HALF)):
        # (a construct of the code is a suspect, and a message another entry declares, printed by the run, says more
        # -- not half precision's, where the run is said to fail in full precision too: its scaler skips a step for a
        # nan from anywhere)
        if fact not in c.printed or entry.id not in declarers:
            continue
        if fact in CODE_CONSTRUCTS and not c.hits[entry.id] and any(
                not LOSS_BACKWARD.search(hit[1][2]) for i, hits in c.hits.items()
                if not (i in w.precision and c.precision_tried[0] == "failed") for hit in hits):
            continue
        # (an entry that shows no curve of its own -- exp's overflow ends in a nan after any curve -- has its
        # construct and its messages to show, where the curve's entries have their shape as well: beside the
        # non-finite loss its construct stands where their curve's part stands, a printed fact's whole weight)
        # (so does one whose second face, shown by its page in a narrower setting, is the curve's shape: that
        # curve gives it no points of its own -- a masked row met mid-run, beside a fall then a nan)
        # (and a fact beside the curve it makes by itself, WHOLE_BESIDE, a whole weight too)
        parts[fact] = W_PRINTED if fact in CODE_CONSTRUCTS and (entry.trace == "none" or (
            c.sig.name == entry.also_trace and c.sig.name != entry.trace)) or \
            c.sig.name in WHOLE_BESIDE.get(fact, ()) else weight
        evidence.append(c.printed[fact])
    # (Keras's Normalization divides by at least 1e-7: a column that never varies cannot make it nan)
    if "adapted-nan" in c.printed and entry.id in w.constant_feature:
        parts["adapted-nan"] = -W_SAID_HALF
        against.append("the normalisation the paste shows is Keras's Normalization layer, which divides by the larger "
                       "of the standard deviation and 1e-7: a column that never varies comes out 0, not nan")
    # (the data said checked for nan and inf and found clean: the broken batch's first check, done -- half against it,
    # as a finite value can still be broken)
    # (a quarter where the check named the inputs alone: the targets were not said to be checked)
    if "data-finite" in c.printed and entry.id in w.input_nan:
        parts["data-finite"] = -W_SAID_HALF / (2 if inputs_only(c.ev.prose) else 1)
        against.append(c.printed["data-finite"])
    # (an untrained model's output is its forward pass alone: targets in their raw units enter only the loss, and cannot
    # make it nan)
    if "untrained-output" in c.printed and entry.id in w.regression:
        parts["untrained-output"] = -W_SAID_HALF
        against.append("the report says the model's output was nan or inf before any update: the targets enter only "
                       "the loss, so targets in their raw units cannot make the output so")
    tried, sentence = c.precision_tried
    # WR-040's own check, done: the same run in full precision -- in a paste that shows half precision in use
    if tried and entry.id in w.precision and (c.half_shown or c.precision) and not c.half_denied:
        said = shown(sentence, 100, quote=False)
        if tried == "helped":
            parts["full-precision"] = W_PRINTED
            evidence.append(f"the report says the run goes well out of float16 (\"{said}\"): the failure comes with "
                            "half precision")
        else:
            parts["full-precision"] = -W_TRIED
            against.append(f"the report says the run fails in full precision too (\"{said}\")")
    # ... and the float16 face of a masked softmax's: a mask constant past float16's range in the paste, in a run that
    # goes well out of float16, is that constant's -inf there (the same check, done)
    elif tried == "helped" and entry.id in w.masked_softmax and "masked-inf" in c.printed and not c.half_denied \
            and masked_past_half(ev.prose):
        parts["full-precision"] = W_PRINTED
        evidence.append(f"the report says the run goes well out of float16 (\"{shown(sentence, 100, quote=False)}\"): "
                        "the mask's constant is finite in float32 and -inf in float16")
    if c.half_denied and entry.id in w.precision:
        parts["precision"] = -W_SAID_HALF
        against.append("the report says the run does not compute in half precision")
    # beside a curve (its words are not the evidence then, and no prior is given): half precision switched on in a
    # run whose loss turned non-finite is a suspect whatever the curve's shape -- the first thing to switch off --
    # unless the log printed a message an entry declares, which says more than a setting
    elif (c.half_shown and not c.words_count and c.said_nonfinite_value and entry.id in w.precision
          and not any(c.hits.values()) and tried != "failed"):
        parts["precision"] = W_SAID_HALF
        # (the loss's own values, when they stayed finite, say the nan or inf was something else's: a gradient norm's)
        turned = "whose loss turned nan or inf" if ev.first_nonfinite is not None else "that printed nan or inf"
        evidence.append(f"the report shows half precision switched on (`{c.half_shown}`) in a run {turned}")
    # ... and its quiet face: gradients said to be exactly 0 in a run computing in half precision (float16 holds no
    # magnitude below about 6e-08, 2**-24: smaller ones underflow, and those under about 3e-08 round to 0), whatever
    # the curve
    # (as much as a printed zero where the paste's code shows float16 gradients with no loss scale: the flush is then
    # what its backward does, not only what half precision can do)
    # (either beside the nan said above: a run whose float16 weights stopped moving may have printed a nan before, as
    # one whose first steps overflowed and whose later ones vanished has)
    quiet = entry.id in w.precision and not c.half_denied
    if quiet and c.half_shown and (zero := grads_said_zero(ev.prose)):
        parts["flushed"] = W_PRINTED if "loop-unscaled" in c.printed else W_SAID_HALF
        evidence.append(f"the report shows half precision switched on (`{c.half_shown}`) and says the gradients are "
                        f"0 (\"{' '.join(zero.group(0).split())}\"): float16 holds no magnitude below about 6e-08, and "
                        "gradients under about 3e-08 round to 0")
    # ... or weights said not to change at all, in float16 weights: an update below half the gap to the next float16
    # value in its direction rounds back to the weight (WR-040's Why). (The entry's own phrase, "weights stop changing when training in half precision", said of a run whose weights
    # themselves are float16 -- not autocast or AMP's, which keep them in float32: a whole printed fact, where the same
    # words count half for the entries of gradients that are exactly 0)
    # (not where the loss is non-finite to its end: nan weights stay nan whatever the update -- code_review_s68b M2)
    elif quiet and (held := weights_half(ev.prose)) and (frozen := weights_frozen_said(ev.prose)) \
            and not (ev.first_nonfinite is not None and ev.finite_after == 0):
        parts["rounded-away"] = W_PRINTED
        evidence.append(f"the report keeps the weights themselves in float16 (`{' '.join(held.group(0).split())}`) and "
                        f"says they do not change (\"{frozen}\"): a float16 weight takes no update smaller than half the "
                        "gap to the next float16 value in its direction (at 1.0, 2**-11 for a step up, 2**-12 for a step "
                        "down: about 0.0005 and 0.00024): the sum rounds back to the weight")
    # (a pairing that nothing repairs, which makes the stall its face; Keras's own on TensorFlow may be repaired)
    unrepaired = False
    # (a PyTorch model of the paste's own that outputs probabilities, beside a loss that takes logits: words of a Keras
    # model's pairing say nothing of that code -- "the Keras notebook has the same Dense(104, activation='softmax') head")
    torch_shown = entry.id in w.probabilities and bool(model_output(ev.prose)) \
        and bool(TORCH_LOGITS_LOSS.search(code_of(ev.prose)))
    dense = DENSE.findall(ev.prose) if entry.id in w.probabilities and not torch_shown else []
    output = KERAS_OUTPUT.search(dense[-1]) if dense else None
    # (a softmax with a categorical cross-entropy, a sigmoid with a binary one: the pairings Keras expects)
    paired = output and any(("binary" in m.group(0).lower()) == (output.group("act") == "sigmoid")
                            for m in KERAS_CROSSENTROPY.finditer(ev.prose))
    if paired:
        # (the TensorFlow backend shown, or its own warning printed: only it reads the logits an activation kept)
        warned = any(KERAS_REPAIRED in text for _count, _line, text, _origin in ev.messages.values())
        if FROM_LOGITS.search(ev.prose) and (TF_BACKEND.search(ev.prose) or warned) and not OTHER_BACKEND.search(ev.prose):
            against.append(f"the pasted Keras model ends in a {output.group('act')} and its cross-entropy is told "
                           "from_logits=True, but on TensorFlow Keras hands the loss the logits its softmax kept (and "
                           "warns \"... does not represent logits. Was this intended?\"): repaired there")
        elif FROM_LOGITS.search(ev.prose):
            parts["pairing"] = W_SAID_HALF
            evidence.append(f"the pasted Keras model ends in a {output.group('act')} and its cross-entropy is told "
                            "from_logits=True: probabilities handed over as logits (on Keras's JAX and PyTorch backends, "
                            "or under mixed precision; on TensorFlow the logits the softmax kept are used, with a "
                            "warning)")
        else:
            parts["pairing"] = -W_SAID_HALF
            against.append(f"the pasted Keras model ends in a {output.group('act')} and its cross-entropy takes "
                           "probabilities (from_logits is False unless set): the pairing Keras expects")
    elif output and (op := tf_op_on_model_output(ev.prose)) \
            and (op.group("kind") == "sigmoid") == (output.group("act") == "sigmoid"):
        parts["pairing"] = W_SAID_HALF
        _not_held_against(parts, against)
        unrepaired = True
        evidence.append(f"the pasted Keras model ends in a {output.group('act')} and the paste hands a loss to "
                        f"`{op.group(0)}`, which applies its own {output.group('act')} to what it is given as logits: "
                        "probabilities handed over as logits (TensorFlow's own op: nothing reads the logits the "
                        "activation kept, as Keras's losses do)")
    elif output and output.group("act") == "softmax" and not CTC_BATCH_COST.search(ev.prose) \
            and (ctc := KERAS_CTC.search(code_of(ev.prose))):
        parts["pairing"] = W_SAID_HALF
        _not_held_against(parts, against)
        unrepaired = True
        evidence.append(f"the pasted Keras model ends in a softmax and its loss is Keras 3's CTC (`{ctc.group('ctc')}`), "
                        "whose predictions are logits (\"They should *not* be normalized via softmax.\"): its softmax is "
                        "applied to probabilities")
    elif entry.id in w.probabilities and KERAS_NAMED.search(ev.prose) and not FROM_LOGITS.search(ev.prose) \
            and not torch_shown and (said := KERAS_PAIRING_SAID.search(ev.prose)) \
            and ("binary" in (keras_loss := (said.group("loss") or said.group("loss2")).lower())) \
            == ((act := (said.group("act") or said.group("act2")).lower()) == "sigmoid"):
        parts["pairing"] = -W_SAID_HALF
        against.append(f"the report says its Keras model has a {act} output and {keras_loss} "
                       f"(\"{' '.join(said.group(0).split())}\"): the pairing Keras expects (its cross-entropy takes "
                       "probabilities unless told from_logits=True)")
    elif entry.id in w.probabilities and (out := model_output(ev.prose) or model_ends_said(ev.prose)
                                          or probabilities_handed(ev.prose)) \
            and (loss := TORCH_LOGITS_LOSS.search(ev.prose)) \
            and (MODEL_ENDS_SAID.made(out) or not output_of_generator(ev.prose, out.group(0))):
        parts["pairing"] = W_SAID_HALF
        # (handed to cross_entropy, probabilities raise nothing: the messages this entry declares are the other
        # pairing's, BCELoss's range check, so their absence says nothing here)
        _not_held_against(parts, against)
        # (the code's own pairing, not words that may say what it used to be -- code_review_s71b 12)
        unrepaired = not MODEL_ENDS_SAID.made(out)
        returned = " ".join(out.group(0).split()).strip("`")
        # (a Sequential's last module as itself, without the comment and the brackets that close the Sequential)
        returned = module.group(0) if (module := re.match(r"nn\.\w+\([^()\n]{0,20}\)", returned)) else returned
        # (said in words, quoted as the words are: lowercased)
        # (the loss handed that name, as the code calls it -- or a sum or a mean of it --; else the one the paste names)
        direct = handed_itself(ev.prose, out) if PROBABILITY_NAMED.made(out) else ""
        mixed = mixed_from(ev.prose, out) if PROBABILITY_NAMED.made(out) and not direct else None
        through = (f", then `{mixed.group('name')}` to a sum or a mean of them "
                   f"(`{' '.join(mixed.group(0).split('#')[0].split())}`): a mix of probabilities, not logits," if mixed else "")
        shown_as = (f"the report says the model ends in probabilities (\"{returned}\")" if MODEL_ENDS_SAID.made(out)
                    else f"the paste sets `{out.group('name')}` to a softmax's or a sigmoid's output (`{returned}`){through}"
                    if PROBABILITY_NAMED.made(out) else f"the pasted model outputs probabilities (`{returned}`)")
        name = direct or (mixed is not None and handed_itself(ev.prose, mixed)) or loss.group(0).rstrip("(")
        # (what it applies, by the loss the paste builds, not by the name it gives it)
        evidence.append(f"{shown_as} and its loss, `{name}`, applies its own {own_normaliser(loss.group(0))}: "
                        "probabilities handed over as logits")
    elif entry.id in w.probabilities and (tfjs := tfjs_pairing(ev.prose)):
        unrepaired = True
        parts["pairing"] = W_SAID_HALF
        _not_held_against(parts, against)
        evidence.append(f"the pasted TensorFlow.js model ends in a {tfjs.group('kind')} and its predictions go to "
                        f"`tf.losses.{tfjs.group('kind')}CrossEntropy`, which takes logits and applies its own "
                        f"{tfjs.group('kind')}: probabilities handed over as logits")
    elif entry.id in w.probabilities and (predictor := box_predictor_probabilities(ev.prose)):
        parts["pairing"] = W_SAID_HALF
        _not_held_against(parts, against)
        unrepaired = True
        evidence.append(f"the paste sets torchvision's box predictor to a module of its own (`{predictor[0]}`) whose "
                        f"class scores are a softmax's output (`{predictor[1]}`): torchvision's fastrcnn_loss hands them "
                        "to F.cross_entropy as class logits, which applies its own log-softmax: probabilities handed "
                        "over as logits")
    elif entry.id in w.probabilities and (handed := distribution_on_probabilities(ev.prose)):
        parts["pairing"] = W_SAID_HALF
        _not_held_against(parts, against)
        unrepaired = True
        evidence.append(f"the paste builds a distribution on probabilities given as its logits ({handed}): it "
                        "normalises its logits with its own log-softmax (log-sigmoid for a Bernoulli), so outputs in "
                        "[0, 1] come out nearly uniform and the likelihood stays near ln C, while the argmax, and the "
                        "accuracy, can still be right")
    # A fact of the paste that makes the curve's shape this entry's own face: the curve counts for it as for the
    # shape's own entries, with the fact on top of it (FACT_FACES) -- the pairing only where nothing repairs it and, for a
    # softmax over the classes the paste names, at its floor
    face = next((fact for fact, shapes in FACT_FACES.items() if parts.get(fact, 0) > 0 and c.sig.name in shapes
                 and (fact != "pairing" or unrepaired and _at_the_floor(c))
                 and (fact not in FACE_WHERE or FACE_WHERE[fact] in c.printed)), None)
    # (gradients cleared nowhere in the paste are that face too where the report says a lower rate only put the
    # failure off, WR-260's own tell, or where the paste shows the whole loop that steps, its `for` line and the block
    # under it: either way the loop the paste shows is the one that ran)
    # (or where the paste clears one optimizer and never the other it steps: the clearing shown, the other's left out is
    # no line the paste skipped)
    if face is None and parts.get("never-cleared", 0) > 0 and c.sig.name in RATE_CLIMBS and (
            c.lr_tried == "delayed" or whole_loop_steps(c.ev.prose) or optimizer_never_cleared(code_of(c.ev.prose))):
        face = "never-cleared"
    if face and parts.get("curve", 0) < W_CURVE:
        _curve_as_face(parts, against, evidence, c.sig.facts)
        c.faces[entry.id] = face
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
            # (or prints their statistics, pandas' describe(), far from a scaled target's; or the code feeds them raw)
            evidence.append(f"the paste prints the {kind} ({said}): {kind} in their own units, not scaled"
                            if kind in c.scaled["printed"] else
                            f"the pasted code feeds the {kind} to the network as they are ({said}), and nothing in the "
                            "paste scales them" if kind in c.scaled["code"] else
                            f"the report says the {kind} were not scaled (\"{said}\")")
    if c.no_zero_side and entry.id in w.dead_units:
        # (and the curve's shape, a fall that stopped, is this entry's only through units that died: it goes too)
        parts["units"] = -W_PRINTED - max(parts.get("curve", 0.0), 0.0)
        against.append(f"the paste sets its hidden units' activation ({c.no_zero_side}): this entry's units die on a "
                       "ReLU's zero side, where output and slope are 0 for every input, and these have no such side "
                       "(they saturate instead, far out on their ends: inputs or weights too large)")
    if c.logs_off_zero and entry.id in w.log_of_zero and not any(k in c.printed for k in ("log-unguarded", "log-raw-output")):
        # (and the curve's shape, a jump to inf or nan, is this entry's only through a log of 0: it goes too)
        parts["log-floor"] = -W_SAID_HALF - max(parts.get("curve", 0.0), 0.0)
        against.append(f"the pasted code's only log is of a constant plus an exp (`{c.logs_off_zero}`), at least that "
                       "constant whatever the exp gives: no log of 0 is in it (an exp that overflows makes it inf)")
    if not c.trainer_clears and entry.id in w.uncleared and c.cleared_each_step:
        parts["cleared"] = -W_SAID_HALF
        against.append("the pasted loop clears the gradients beside backward(), in the same block: every step")
    if c.trainer_clears and entry.id in w.uncleared:
        parts["trainer"] = -W_PRINTED
        against.append(f"{c.trainer_clears}: gradients pile up only in steps written by hand (a loop of your own, "
                       "Lightning's manual optimization, a custom train_step)")
    elif entry.id in w.uncleared and c.fresh_gradients:
        parts["trainer"] = -W_PRINTED
        against.append(f"{c.fresh_gradients}: gradients pile up only where an accumulator is carried by hand and never "
                       "reset")
    if "rate-rose" in c.printed and special and PART_OF[entry.trace] == RATE:
        parts["rate-rose"] = -W_SAID_HALF
        against.append("the learning rate the log prints rose through the climb: that alone grows the steps, with "
                       "no cause of this entry's")
    # (not where the paste shows what the loss was handed made it so: its targets are then no suspect of it)
    if c.negative and entry.id in w.negative and not HANDED_BELOW_ZERO & c.printed.keys():
        parts["negative"] = W_NEGATIVE if c.impossible_negative else W_NEGATIVE / 2
        evidence.append(c.impossible_negative or "the loss goes below zero: if it is cross-entropy, BCE or "
                        "1 - Dice, that is impossible with valid targets")
    # (a construct of the pasted code that breaks the way this entry says -- a degree raised to -0.5, a division by an
    # unguarded std -- is one face of it, and the messages of its other faces (BatchNorm's, for a normalisation) are
    # no evidence against that face: they would print only where that other face broke)
    if any(parts.get(k, 0) > 0 for k in CODE_CONSTRUCTS):
        _not_held_against(parts, against)
    return parts, evidence, against


def _not_held_against(parts: dict[str, float], against: list[str]) -> None:
    """Take back the absence of the entry's messages (MISSING_SAID), where what shows it is a face that prints none of
    them."""
    if MISSING_SAID in against:
        against.remove(MISSING_SAID)
        parts["messages"] = parts.get("messages", 0.0) + W_MISSING
        if not parts["messages"]:
            del parts["messages"]


def _when_words(which: set[str]) -> str:
    return " and ".join({"start": "from the first values", "early": "right after the first updates",
                         "later": "after training for a while"}[k] for k in sorted(which))


def _example_bound(c: Context, w: Weigher) -> set[str]:
    """The entries whose failure the paste shows coming with particular examples, beside the data's own (order_bound,
    rate_proof): where it fills masked scores with -inf, the masked softmax's -- a row with nothing to attend to is an
    example's (a sequence left empty), met wherever the data's order puts it and whatever the rate."""
    return w.masked_softmax if "masked-inf" in c.printed else set()


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
    return MISSING_SAID
