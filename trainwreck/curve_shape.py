"""What the loss values show: the shape of the curve (a climb, a spike, a plateau, a stall, a
non-finite value from the start...), as the signature an entry declares, with the facts that make it.

Only the numbers are read here, and where the log located them; what the paste's words and code say is
paste_facts.py's (and the modules it gathers from), and weighing it against each entry is weighing.py's.
"""
from __future__ import annotations

import decimal
import itertools
import math
import re
import statistics
from dataclasses import dataclass, field, replace

from .ceilings import ceiling_fact
from .class_count import UNIFORM_NEAR, at_uniform, classes_named, classes_or_vocabulary, vocabulary_named
from .clip_unused import clip_never_applied
from .entry import TRACES
from .logscan import KEEP, Evidence
from .logscan.dialects import caffe, loss_unit, named as dialect_named
from .logscan.reader import PROSE
from .logscan.cleaning import WORKER_PREFIX
from .logscan.positions import count_number, epoch_number, step_number
from .plural import counted
from .run_said import BATCH_SIZE, RL_ALGORITHMS, never_recovered_said, nonfinite_said_of_this_run, reward_rose
from .schedule_said import ADAPTIVE, COSINE_SAID, PLAIN_SGD, WARMUP_NAMED, WARMUP_SET, no_warmup_said
from .sentences import said_unnegated, sentence_around, sentences_only, told
from .watch_rule import STEP_FLOOR, WATCH_RULE, sustained_climb   # the loss watch's rule, one definition
from . import lazy_regex

# A clip of each element (Keras's clipvalue=, PyTorch's clip_grad_value_(params, v)) beside the largest gradient
# element the paste prints or says ("max |grad| = 0.0388", "the largest gradient value is 0.7"): every one below the
# value, the clip never touched an element -- WR-240's element-wise form.
_CLIP_NUMBER = r"(\d+(?:\.\d+)?(?:e[-+]?\d+)?)(?![\w.])"
CLIP_VALUE = lazy_regex.compile(r"\bclipvalue\s*=\s*" + _CLIP_NUMBER + r"|\bclip_grad_value_\((?:[^,()\n]|\([^()\n]*\)){1,80},\s*(?:clip_value\s*=\s*)?"
                                + _CLIP_NUMBER)
ELEMENT_MAX = lazy_regex.compile(r"(?i)\b(?:max(?:imum)?|largest)\s*(?:\|\s*grad(?:ient)?s?\s*\||abs(?:olute)?\s+grad(?:ient)?s?|"
                                 r"grad(?:ient)?\s+(?:element|value|entry)s?)\s*(?:(?:=|:|is|was|of)\s*)?" + _CLIP_NUMBER)


def values_below_clip(prose: str) -> str:
    """The fact, where the paste clips each gradient element at a value and the largest elements it prints or says
    (two or more) are all below it; else ""."""
    clip = CLIP_VALUE.search(prose)
    if clip is None:
        return ""
    at = float(clip.group(1) or clip.group(2))
    seen = [float(m.group(1)) for m in itertools.islice(ELEMENT_MAX.finditer(prose), 200)]
    if at <= 0 or len(seen) < 2 or max(seen) >= at:
        return ""
    return (f"clipping each gradient element at {fmt(at)} (`{' '.join(clip.group(0).split())}`) never engaged: the "
            f"largest element the paste prints is {fmt(max(seen))} at most ({len(seen)} values)")


# Shape of the curve just before a blow-up: it counts as a climb after this many
# rises, or after one rise of at least this factor.
SHAPE_RISES, SHAPE_RATIO = 2, 1.5
# A batch size the paste sets (run_said.BATCH_SIZE) of up to NOISY_BATCH examples: a batch's mean loss swings by
# several times from one batch to the next in a healthy run
NOISY_BATCH = 16
# ... times what each printed value averages over besides one batch: micro-batches accumulated into a step, and a Hugging
# Face Trainer's steps between logs (its TrainingArguments' logging_steps, 500 by default)
ACCUMULATION_STEPS = lazy_regex.compile(r"(?i)accum\w*[_ ]steps\b['\"]?(?:\s*[=:]\s*|\s+)(\d{1,5})\b")
LOGGING_STEPS = lazy_regex.compile(r"(?i)\blogging_steps\b['\"]?(?:\s*[=:]\s*|\s+)(\d{1,6})\b")
HF_LOGGING_STEPS = 500
# Where such a run started: the highest of its first NOISY_START values (its first value is one batch's, as noisy as
# the rest)
NOISY_START = 3
# Rises whose largest is this many times their smallest are told as a range around their mean, not "each time".
UNEVEN_RISES = 3.0
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
# ... and ENORMOUS_MEAN_CE for a classifier (an accuracy printed beside the loss) whose log prints the mean over its
# examples by construction (Dialect.mean_loss): ten times ln K for any K under 22,000 classes, a label's logit about
# that far below the largest -- outputs broken from the start, or thrown that far by the first updates. Not where the
# paste makes the printed loss something else than that mean (NOT_A_MEAN: a custom loss that returns a sum, which
# Keras prints as it is, reduction="sum", add_loss, a regularizer's terms: keras/src/losses/loss.py at v3.8.0,
# reduce_values).
ENORMOUS_MEAN_CE = 100.0
# ... and, where the paste names its classes, ENORMOUS_PER_CLASS times ln K itself
ENORMOUS_PER_CLASS = 10.0
CROSS_ENTROPY = lazy_regex.compile(r"(?i)cross[ _-]?entropy|crossentropy|\bnll_?loss\b|\bF\.nll_loss\b")
BINARY_CE = lazy_regex.compile(r"\bBCE(?:WithLogits)?Loss\b|\bbinary_cross_entropy(?:_with_logits)?\b|\bsigmoid_binary_cross_entropy\b|"
                               # (Keras's, as a name or a class)
                               r"\bbinary_crossentropy\b|\bBinaryCrossentropy\b")
KERAS_BCE_COMPILED = lazy_regex.compile(r"\bloss\s*=\s*(?:['\"]binary_crossentropy['\"]|(?:tf\.)?(?:keras\.)?(?:losses\.)?"
                                        r"BinaryCrossentropy\()")
# (and Keras's Reduction.SUM, which TensorFlow Recommenders' Retrieval task takes by default: its loss is
# `CategoricalCrossentropy(from_logits=True, reduction=tf.keras.losses.Reduction.SUM)` unless given one,
# tensorflow_recommenders/tasks/retrieval.py -- a Retrieval built with no `loss=` of its own)
SUM_REDUCED = (r"reduction\s*=\s*(?:tf\.keras\.losses\.|keras\.losses\.)?Reduction\.SUM\b(?!_)|"
               r"\btfrs\.tasks\.Retrieval\b(?!\((?:[^()\n]|\([^()\n]{0,80}\)){0,200}?\bloss\s*=)")
NOT_A_MEAN = lazy_regex.compile(r"reduce_sum|\.sum\(|reduction\s*=\s*['\"]sum['\"]|\badd_loss\b|regularizer|" + SUM_REDUCED, re.I)
# ... and where the loss itself is set to sum over the batch, ENORMOUS_SUMMED is the bound: a cross-entropy near ln K
# summed over a batch of thousands is tens of thousands at the start (an in-batch softmax over 4,096 candidates: 4096 x
# ln 4096, about 34,000), large by construction
LOSS_SUMMED = lazy_regex.compile(r"reduction\s*=\s*['\"]sum['\"]|size_average\s*=\s*False|" + SUM_REDUCED, re.I)
ENORMOUS_SUMMED = 1e7
# The entries that say, in a phrase of their own, that their first loss is far above ln K (WR-330's raw inputs) share
# the enormous start with those broken from the start
ENORMOUS_FIRST_WORDS = {"loss", "far", "above", "ln"}
# An early spike: within the first SPIKE_WINDOW values, SPIKE_RATIO times the first one.
SPIKE_WINDOW, SPIKE_RATIO = 10, 3.0
# ... and in a run said to have no warmup ("no warmup", "warmup_steps=0"), a jump to 1.5 times the first value: a
# fresh model's first loss is the highest a healthy run prints (ln V for a language model), so any sizeable rise above
# it in the first steps is the updates' doing (review_session37_blind q08: x1.98; review_session36_blind q35: x1.65)
NO_WARMUP_JUMP = 1.5
# ... or, from a uniform start (ln C), this many nats above it: a model a factor e worse than guessing on the true class
UNIFORM_JUMP = 1.0
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
# A loss that grows in a healthy RL run, beside a printed reward that rose, is excused its climb only below this many times
# its lowest (run_said.reward_rose)
REWARDED_RISE = 100.0
# Shapes that show a failure without a non-finite value or a signature of their own.
UNFINISHED = ("climbing", "climbed-and-stayed", "stuck-at-ceiling")
# A climb to non-finite that the watch never flagged and that did not even double is
# weak evidence of the climb's cause: the entry gets part credit only.
WEAK_CLIMB = 2.0
ACCURACY_RISE = 0.2            # a rise of 20 points of accuracy is a model that learns, not noise
ACCURACY_MOVED = 0.05          # ... and one of 5 points, a model that is not "never learned"


@dataclass
class Signature:
    name: str                      # a TRACES key, or healthy | climbing | no-loss | few-values
    facts: list[str] = field(default_factory=list)
    climb_warning: int | None = None   # index of the value at which the loss watch would have warned
    climb_warning_at: str = ""         # ... as the log numbers it
    weak: bool = False                 # the shape fits, but too faintly to name an entry on it alone
    enormous_start: str = ""           # the fact, when the first loss is ENORMOUS_START or more (see there)
    start_updated: bool = False        # ... and that first value is a mean over steps that updated the weights
    first_epoch: bool = False          # non-finite from a first value that stands for a whole epoch (see NONFINITE_TRACES)
    jumped: bool = False               # a loss that stayed up got there in one step (JUMP_TO_PEAK): a batch's face too
    short_descent: bool = False        # a climb after a fall of DESCENT_FALL over fewer than DESCENT_MIN values
    fix: str = ""                      # the first step of the fix its own facts name, for the entries of its name



def recurring_swings(ev: Evidence) -> int:
    """How many times the loss jumped SPIKE_RATIO above its low to half its highest or more, in its first values
    (_excursions): SWINGS or more is a swing that returns again and again."""
    return len(_excursions(ev.head, ev.high / 2)) if ev.high is not None and ev.high > 0 else 0


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


# A jump of BATCH_JUMP times the value printed before it, in one interval, at the same batch of two epochs: the same
# examples break the loss each time they come round (a data loader that does not shuffle, or shuffles with one seed),
# the bad batch's face -- a spike of the optimiser's own would not keep an address. The loss must come back down
# between them (a climb through the epochs jumps at every batch it prints).
BATCH_JUMP = 10.0


def same_batch_jumps(ev: Evidence) -> str:
    """The fact, when the loss jumped BATCH_JUMP times or more at the same batch (step) of two epochs, else ""."""
    seen: dict[int, tuple[str, int]] = {}
    kept = ev.head                      # (at most KEEP values: the check is bounded)
    for i in range(1, len(kept)):
        a, b, pos = kept[i - 1], kept[i], ev.at(i)
        if pos is None or not (math.isfinite(a) and math.isfinite(b) and a > 0 and b >= BATCH_JUMP * a):
            continue
        step, epoch = step_number(pos), epoch_number(pos)
        if step is None or epoch is None:
            continue
        # (back down between them, to a tenth of the first jump's height: two jumps, not one climb through the epochs)
        if step in seen and seen[step][0] != epoch and a * BATCH_JUMP <= kept[seen[step][1]]:
            j = seen[step][1]
            return (f"the loss jumped at the same batch of two epochs: x{kept[j] / kept[j - 1]:.3g} at {ev.where(j)} "
                    f"and x{b / a:.3g} at {ev.where(i)} -- the same examples, each time they come round, as a batch "
                    "that holds broken values does where the data is not shuffled")
        seen.setdefault(step, (epoch, i))
    return ""


def _whole_epochs(ev: Evidence, n: int) -> bool:
    """Is each of the first n values an epoch's, numbered by its epoch alone?"""
    return all((p := ev.at(i)) is not None and p.step is None and p.epoch is not None
               and re.fullmatch(r"epoch \d+(?:/\d+)?", p.epoch) for i in range(n))


def _below_step_floor(ev: Evidence) -> bool:
    """Is the last value, in a log of steps from the run's start, below STEP_FLOOR times the highest of its first
    NOISY_START values, and the one before it near zero, NEAR_ZERO times that or less -- each value the mean of
    FEW_EXAMPLES examples or fewer, where the paste says how many?"""
    start = ev.head[:NOISY_START]
    return (len(ev.before) > NOISY_START and not _whole_epochs(ev, len(start)) and at_run_start(ev)
            and ev.before[-1] < STEP_FLOOR * max(start) and ev.before[-2] <= NEAR_ZERO * max(start)
            and _examples_averaged(ev.prose)[1] <= FEW_EXAMPLES)


# (a loss this share of its start or less is near zero; and one value the mean of this many examples or fewer is one
# that a single confidently wrong example moves by a tenth or more of a nat: 10 nats over 100)
NEAR_ZERO, FEW_EXAMPLES = 0.05, 100


def _small_batch(prose: str) -> int:
    """The batch size the paste sets, where the examples each printed value averages are NOISY_BATCH or fewer; else 0."""
    size, averaged = _examples_averaged(prose)
    return size if 0 < size <= NOISY_BATCH and averaged <= NOISY_BATCH else 0


def _examples_averaged(prose: str) -> tuple[int, int]:
    """(the batch size the paste sets, the examples each printed value averages), or (0, 0) where it sets none. A value
    averages the batch times the micro-batches accumulated into one step (`gradient_accumulation_steps`), and, in a
    Hugging Face Trainer's log, times the steps between logs (`logging_steps`, 500 where its arguments are shown without
    it: the Trainer logs the mean loss since its last log)."""
    said = BATCH_SIZE.search(prose)
    if not said or (size := int(said.group("size"))) <= 0:
        return 0, 0
    accumulated = ACCUMULATION_STEPS.search(prose)
    logged = LOGGING_STEPS.search(prose)
    return size, size * (int(accumulated.group(1)) if accumulated else 1) * (
        int(logged.group(1)) if logged else HF_LOGGING_STEPS if said.group("trainer") else 1)


# A Hugging Face model made for classification, whose loss is the cross-entropy over its labels
CLASSIFICATION_MODEL = lazy_regex.compile(r"\b\w+For(?:Image|Sequence|Audio|Token)?Classification\b")


def _no_warmup_jump(ev: Evidence, first: float) -> tuple[float, int, bool]:
    """The rise over the first value that makes a jump in a run without warmup: NO_WARMUP_JUMP times it, or, where the
    first value is ln C for the classes or the vocabulary the paste names (a uniform guess: a cross-entropy at its
    start), UNIFORM_JUMP nats above it if that is less. The two agree at C = e^2, about 7.4; at ln 10 the nat is
    already a little less (1.43 times), at a 32k vocabulary's 10.37 far less: a jump to
    13.9 is 1.34 times the start, and 3.5 nats: the model 33 times worse than a uniform guess on the true token.
    A first value already below ln C (a log that prints after its first updates), or a little above it, takes a rise to
    UNIFORM_JUMP nats above the uniform guess, not above itself -- read only beside words or a printed rate that say the run had no
    warmup: a model that has learned the tokens' frequencies gives a rare one far less than 1/C, so a batch of them
    alone scores above ln C + 1 with no update at all (a bad batch's face).
    (With the class count where that made the lower one, and whether the first value was the uniform guess itself.)"""
    named = classes_or_vocabulary(ev.prose)
    # (in nats, whatever unit the log prints: a ratio is the same in any; fairseq's bits are ln 2 nats each)
    first *= loss_unit(ev.dialect).per_unit
    if named is None or not first > 0:
        return NO_WARMUP_JUMP, 0, False
    start = at_uniform(first, named[0])
    # (or a first value a little above it, within half the jump: a mean over the first logging window -- Hugging Face's
    # first `{'loss': ...}` averages its first logging_steps -- that the first steps already raised; the bar is the
    # same, UNIFORM_JUMP nats above the uniform guess)
    # (only for a cross-entropy over those classes: not a detector's sum of losses, whose total is no uniform guess)
    window = math.log(named[0]) + (UNIFORM_JUMP / 2 if CROSS_ENTROPY.search(ev.prose) or CLASSIFICATION_MODEL.search(ev.prose)
                                   else 0.0)
    below = not start and 0 < first < window
    ratio = (first + UNIFORM_JUMP) / first if start else (math.log(named[0]) + UNIFORM_JUMP) / first if below else 0
    if not ratio or ratio >= NO_WARMUP_JUMP:
        return NO_WARMUP_JUMP, 0, False
    return ratio, named[0], start


def _settled_spike(values: list[float], height: float, ratio: float = SPIKE_RATIO) -> bool:
    """One excursion, or fewer than SWINGS that then stopped: the values after the last one outnumber those between
    the first and the last (a warmup-less optimiser may spike twice and settle; a loss that keeps swinging to the
    end of the paste has not settled)."""
    starts = _excursions(values, height, ratio)
    return len(starts) == 1 or (1 < len(starts) < SWINGS and len(values) - 1 - starts[-1] >= starts[-1] - starts[0])


def _jumped(a: float, b: float, earlier: list[float]) -> bool:
    """Is one rise from a to b a jump: SHAPE_RATIO times a, or, from a value at or below zero, a difference of
    SHAPE_RATIO - 1 times the larger of |a| and the spread of the values before it?"""
    if a > 0:
        return b >= SHAPE_RATIO * a
    scale = max(abs(a), (max(earlier) - min(earlier)) if earlier else 0.0)
    return scale > 0 and b - a >= (SHAPE_RATIO - 1) * scale


def _rises_before(values: list[float]) -> int:
    n = 0
    while n + 1 < len(values) and values[-1 - n] > values[-2 - n]:
        n += 1
    return n


def fmt(v: float) -> str:
    return f"{v:.4g}"


def signature_of(ev: Evidence) -> Signature:
    out = _signature(ev)
    first = ev.head[0] if ev.head else None
    mean_ce = ev.mean_loss and _accuracy_printed(ev) and not NOT_A_MEAN.search(ev.prose)
    stuck = accuracy_stuck(ev)
    halved = first is not None and ev.low is not None and ev.low <= first / 2
    one_then_broken = out.name == "few-values" and ev.count >= 2 and ev.first_nonfinite == 1
    limit = ENORMOUS_MEAN_CE if mean_ce else ENORMOUS_SUMMED if LOSS_SUMMED.search(ev.prose) else ENORMOUS_START
    # (ten times ln K for the K classes the paste names, where it prints an accuracy beside a mean cross-entropy it
    # says it computes: the bound ENORMOUS_MEAN_CE takes for any K, at this K -- 23.0 for ten)
    named = classes_named(ev.prose) if _accuracy_printed(ev) and CROSS_ENTROPY.search(ev.prose) \
        and not NOT_A_MEAN.search(ev.prose) else None
    # (or a binary cross-entropy the paste compiles, printed as a tool's mean over the examples, Keras's: two classes, ln 2)
    # (the loss compiled, itself: not one a custom loss scales, a VAE's `original_dim * binary_crossentropy(...)`)
    if named is None and ev.mean_loss and KERAS_BCE_COMPILED.search(ev.prose) and not NOT_A_MEAN.search(ev.prose) \
            and not LOSS_SUMMED.search(ev.prose):
        named = (2, "the paste names a binary cross-entropy")
    if named and named[0] >= 2 and ENORMOUS_PER_CLASS * math.log(named[0]) < limit:
        limit = ENORMOUS_PER_CLASS * math.log(named[0])
    else:
        named = None
    # (fallen to half its first value; for a classifier, an accuracy printed beside its loss, out of the enormous range
    # too: a cross-entropy that fell from 8e9 to 2e8 is still broken, where a squared error on prices in dollars may
    # fall from 2e5 to 1e5 as it learns)
    # (not a loss the paste sums, reduction="sum": large by construction, and the docs' harmless large start)
    # (or, with no accuracy printed, a cross-entropy the paste names beside the classes it names: a classifier too)
    # (a binary cross-entropy on logits or on probabilities is a classifier's by its name: a mean of it starts near ln 2)
    classifier = _accuracy_printed(ev) or bool((CROSS_ENTROPY.search(ev.prose) and classes_named(ev.prose)
                                                or BINARY_CE.search(ev.prose)) and not NOT_A_MEAN.search(ev.prose))
    fell = halved and (ev.low < limit or not classifier or bool(NOT_A_MEAN.search(ev.prose)))
    # (a few values will do for such a classifier's loss that never left the enormous range: no shape is needed to
    # see a cross-entropy of 1e11)
    enormous_throughout = classifier and ev.count >= 2 and ev.low is not None and ev.low >= limit
    if ((out.name not in ("no-loss", "few-values", "nonfinite-from-start", "nonfinite-throughout") or one_then_broken
         or (out.name == "few-values" and enormous_throughout))
            and first is not None and math.isfinite(first)
            and first >= limit
            and at_run_start(ev) and (stuck or not fell or (ev.first_nonfinite is not None and ev.low_at < DESCENT_MIN))):
        # (a loss that fell from there beside an accuracy that never moved did not learn: it was no sum; nor is one
        # that fell for a value or two and went on to inf or nan a high start that a healthy run fell from -- a
        # descent of DESCENT_MIN values or more before it broke is one)
        out.enormous_start = (
            f"the first loss ({fmt(first)}) is already enormous: " + (
                f"{ev.mean_loss} prints a mean over the examples and the accuracy beside it says this is a classifier, "
                "whose mean cross-entropy starts near ln of the number of classes (2.3 for ten); this takes the "
                "label's logit about that far below the largest, outputs broken from the start or thrown that far by "
                "the first updates" if mean_ce else
                f"a fresh classifier's mean cross-entropy starts near ln of the number of classes, ln {named[0]} = "
                f"{math.log(named[0]):.3g} here ({named[1]}), and this is {first / math.log(named[0]):.3g} times that: "
                "the label's logit far below the largest, outputs broken from the start" if named else
                "a fresh classifier's mean cross-entropy starts near ln of the number of classes; a loss this large "
                "is an error (squared or absolute) on targets in their raw units, outputs broken from the start, or "
                "a sum over many examples")
            + (f"; the accuracy printed beside it stayed within {ACCURACY_MOVED * 100:g} points ("
               f"between {fmt(min(ev.accuracy_head + ev.accuracy_tail))} and {fmt(max(ev.accuracy_head + ev.accuracy_tail))}"
               "), so the fall that followed was no learning"
               if stuck and halved else ""))
        out.facts.append(out.enormous_start)
        out.start_updated = bool(mean_ce and _once_an_epoch(ev))
        # (what followed it was no learning, the accuracy at chance throughout: the shape read from those values --
        # "fell, then jumped to nan", or any other -- is the shape of a run that never learned, too faint to name the
        # entries that shape names in a run that learned)
        if stuck and halved and out.name in TRACES:
            out.weak = True
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
                                                       and at_run_start(ev))
    if ev.count == 1 and not (t == 0 and at_start):
        kind = fmt(ev.head[0]) if math.isfinite(ev.head[0]) else _nonfinite_kind(ev)
        return Signature("few-values", [f"one loss value ({kind} at {at(0)}): not a curve"] + _hidden_note(ev))
    warn = sustained_climb(ev.before)
    warn_index = ev.before_start + warn if warn is not None else None
    warn_at = at(warn_index) if warn_index is not None else ""

    def sig(name: str, facts: list[str]) -> Signature:
        return Signature(name, facts + _hidden_note(ev), warn_index, warn_at)

    def despite_clipping(facts: list[str], during: str = "before the blow-up") -> Signature | None:
        """A climb beside a clip that never shortened a step: a clip the pasted code does that no update uses (after
        the optimizer's step, or over no gradients: its printed norms say nothing then), or a threshold the printed
        norms never reached."""
        late = clip_never_applied(ev.prose)
        if late:
            out = sig("climb-despite-clipping", facts + [late[0]])
            out.fix = late[1]
            return out
        if ev.clip_at is not None and ev.grad_paired and ev.grad_max_before is not None \
                and ev.grad_max_before < ev.clip_at:       # (a norm at the threshold is one the clip held there)
            return sig("climb-despite-clipping", facts + [
                f"gradient clipping at {ev.clip_at:g} never engaged: the largest gradient norm {during} "
                f"was {fmt(ev.grad_max_before)}"])
        if never := values_below_clip(ev.prose):
            return sig("climb-despite-clipping", facts + [never])
        # (or Caffe's solver, which logs each step it clips: a whole log of its that shows none, `clip_gradients` set)
        if ev.clip_at is not None and ev.clip_at > 0 and ev.dialect == caffe.DIALECT.name and ev.size <= PROSE \
                and caffe.clip_never_logged(ev.prose):
            return sig("climb-despite-clipping", facts + [
                f"gradient clipping at {ev.clip_at:g} never engaged: Caffe's solver logs `{caffe.CLIPPED}` on every "
                f"iteration it clips, and the log shows none from {at(0)} to {at(ev.count - 1)}"])
        return None

    if t is not None:
        kind = _nonfinite_kind(ev)
        tail = (f"non-finite to the end ({at(ev.count - 1)})" if ev.finite_after == 0
                else f"followed by {counted(ev.finite_after, 'finite value')} later")
        nan_note = f", nan from {at(ev.first_nan)}" if ev.first_nan is not None and ev.first_nan != t else ""
        ending = f"first {kind} at {at(t)}{nan_note}, {tail}"
        finite = [v for v in ev.before if math.isfinite(v)]
        if t == 0 and not at_run_start(ev):
            return sig("nonfinite-throughout", [f"every loss value from {at(0)}, where the log starts, is "
                                                f"non-finite: when it first went {kind} is not in the log"])
        if t == 0 and (_once_an_epoch(ev) or _unprinted_before(ev)):
            many = ("the log calls it an average, so it stands for the steps it averages" if ev.at(0).averaged else
                    "a value printed with no step number stands for many steps -- an epoch's mean or its last "
                    "batch's loss, or a logger's mean over its interval --")
            why = ("the loop prints every few steps and printed none of the steps before it, so the run broke at "
                   "its first step or at one of those" if _unprinted_before(ev) and not _once_an_epoch(ev) else
                   f"{many} and is non-finite once any of them was: the run broke within them, at the first step "
                   f"or later")
            out = sig("nonfinite-from-start", [
                f"the first loss value, for {at(0)}, is already {kind}: {why}, the log cannot tell; {ending}"])
            out.first_epoch = True
            return out
        if t == 0:
            return sig("nonfinite-from-start", [f"the very first loss value is {kind}: there was no healthy start; "
                                                f"{ending}"])
        # (the first non-finite value printed for the very step the log starts at, beside the finite ones printed for
        # it by the other processes of a distributed run, each line marked with its own: no update came between them,
        # so one process's loss was non-finite before any step, as a first value is -- not a loop that labels each
        # batch's line with its epoch alone, nor lines of one process)
        if (first := ev.at(0)) is not None and step_number(first) is not None and at(t) == at(0) \
                and at_run_start(ev) and _processes_apart(ev, t) and len({ev.at(k).line for k in range(t + 1)}) == t + 1:
            return sig("nonfinite-from-start", [
                f"the loss is already {kind} on one of the {t + 1} lines printed for {at(0)}, the step the log starts "
                f"at (each process of a distributed run prints its own): no update came before it, so there was no "
                f"healthy start; {ending}"])
        after = statistics.median(finite[1:1 + ENORMOUS_NEXT]) if len(finite) > 1 else 0.0
        if ev.before_start == 0 and after > 0 and finite[0] >= ENORMOUS * after:
            shown = f"the next one ({fmt(after)})" if len(finite) == 2 else \
                f"the values right after it (their median, {fmt(after)})"
            return sig("nonfinite-from-start", [f"the first loss ({fmt(finite[0])}) is over {ENORMOUS:g}x "
                                                f"{shown}: no healthy start; {ending}"])
        rises = _rises_before(ev.before)
        # (one rise is a jump by a ratio; from a loss at or below zero -- a critic's, a likelihood's -- by a difference
        # that size against the loss's own scale: -1.77 to -1.71 is no jump, -1.80 to 5e6 is one)
        if rises >= SHAPE_RISES or (rises == 1 and _jumped(ev.before[-2], ev.before[-1], ev.before[:-1])):
            start = len(ev.before) - 1 - rises
            a, b = ev.before[start], ev.before[-1]
            growth = (b / a) ** (1 / rises) if a > 0 else math.inf
            rate = (f"by {fmt(b - a)} in all" if a <= 0 else
                    f"about x{growth:.3g} each time" if rises > 1 else f"x{growth:.3g}")
            # (rises that differ -- x1.2 then x3.5e9 -- have no size "each time": their mean, and how far they range)
            steps_up = [y / x for x, y in zip(ev.before[start:-1], ev.before[start + 1:]) if x > 0]
            if a > 0 and steps_up and max(steps_up) > UNEVEN_RISES * min(steps_up):
                rate = (f"x{steps_up[0]:.3g} then x{steps_up[1]:.3g}" if len(steps_up) == 2 else
                        f"x{growth:.3g} a time on average, from x{min(steps_up):.3g} to x{max(steps_up):.3g}")
            # (steps left out of the paste between the values, `...`: each printed rise is not one interval; the rate
            # per step the log counts)
            counts = [step_number(p) if (p := ev.at(i)) is not None else None for i in range(ev.before_start + start, t)]
            gaps = {b2 - a2 for a2, b2 in zip(counts, counts[1:])} if None not in counts else set()
            if a > 0 and len(gaps) > 1 and min(gaps) > 0:
                steps = counts[-1] - counts[0]
                per_step = (b / a) ** (1 / steps)
                # (a rise of a fraction of a percent a step is said in percent: "x1" would say it did not rise)
                each = (f"x{per_step:.3g}" if per_step >= 1.01 else f"+{100 * (per_step - 1):.2g}%"
                        if per_step >= 1.0001 else "under +0.01%")
                rate = f"about {each} a step over {steps} steps, some of them not in the paste"
            times = "once" if rises == 1 else f"{rises} times in a row"
            facts = [f"the loss rose {times}, from {fmt(a)} at {at(ev.before_start + start)} "
                     f"to {fmt(b)} at {at(t - 1)}, {rate}; {ending}"]
            descent = _descent_before_climb(ev)
            if descent:
                facts.insert(0, descent)
            if warn_index is not None:
                facts.append(f"a loss watch ({WATCH_RULE}) would have warned at {warn_at}, "
                             f"{counted(t - warn_index, 'value')} before the first {kind}")
            if clipped := despite_clipping(facts):
                return clipped
            short_descent = not descent and _fell_first(ev)
            if short_descent:
                facts.insert(0, f"the loss fell first, from {fmt(ev.head[0])} at {ev.where(0)} to {fmt(ev.low)} at "
                                f"{ev.where(ev.low_at)}, then turned and climbed")
            out = sig("descent-then-climb" if descent else "climb-then-nonfinite", facts)
            out.short_descent = short_descent
            if warn_index is None and (b < WEAK_CLIMB * a if a > 0 else b - a < (WEAK_CLIMB - 1) * abs(a)):
                out.weak = True
                facts.append(f"a mild climb ({f'x{b / a:.2g}' if a > 0 else f'by {fmt(b - a)}'} in all) that a loss "
                             "watch would not have flagged")
            return out
        if t == 1:
            return sig("few-values", [f"one finite loss value ({fmt(ev.before[-1])} at {at(0)}), then {ending}: "
                                      "too little to tell a climb from a jump"])
        # (a climb that levelled off at its top for a few values before it broke: 3.36, ..., 7.38, 7.61, 7.59, 7.60,
        # nan -- its last rise is no longer the last value, but the values before the nan are still the climb's)
        window = ev.before[-CLIMB_WINDOW:]
        lo = min(range(len(window)), key=window.__getitem__)
        hi = max(range(len(window)), key=window.__getitem__)
        if len(window) >= 4 and lo < hi and window[lo] > 0 and window[hi] >= DOUBLED * window[lo] \
                and window[-1] >= NEAR_PEAK * window[hi] and hi - lo >= 2:
            base = ev.before_start + len(ev.before) - len(window)
            facts = [f"the loss climbed from {fmt(window[lo])} at {at(base + lo)} to {fmt(window[hi])} at "
                     f"{at(base + hi)} (x{window[hi] / window[lo]:.3g}) and stayed near its top, at {fmt(window[-1])} "
                     f"by {at(t - 1)}; {ending}"]
            descent = _descent_before_climb(ev)
            if descent:
                facts.insert(0, descent)
            # (beside a clip that never shortened a step, as a climb of rises in a row is)
            if clipped := despite_clipping(facts):
                return clipped
            return sig("descent-then-climb" if descent else "climb-then-nonfinite", facts)
        # (a loss that never went below its first value, and rose to twice it or more, did not fall before it broke,
        # however it swung on the way: 0.7247, 4.3799, 1.9667, 2.449, inf -- the steps overshot from the first)
        if ev.before_start == 0 and len(finite) == t and finite[0] > 0 and min(finite[1:]) >= finite[0] \
                and max(finite) >= DOUBLED * finite[0] and at_run_start(ev):
            top = max(range(t), key=finite.__getitem__)
            return sig("climb-then-nonfinite", [
                f"the loss never went below its first value, {fmt(finite[0])} ({at(0)}): it rose to {fmt(finite[top])} "
                f"at {at(top)}, {finite[top] / finite[0]:.3g}x where it started, and stayed above it; {ending}"])
        # a value the log did not print as such (a check's stop, a logger's filter) may hide a climb before it
        then = f"; then the loss was {kind}" if ev.hidden_note else f" and jumped straight to {kind}"
        # the last two values say what happened just before (an earlier climb and fall is no climb into it)
        last_two = f"{fmt(ev.before[-2])} at {at(t - 2)}, then {fmt(ev.before[-1])} at {at(t - 1)}"
        if at(t - 2) == at(t - 1) and ev.at(t - 2) is not None and ev.at(t - 2).numbered:
            # one step printed twice (each process of a distributed run prints its own): no order between them
            last_two = f"{fmt(ev.before[-2])} and {fmt(ev.before[-1])}, both at {at(t - 1)}"
            moved = f"was printed twice for its last step before the nan ({last_two})"
        else:
            by = (f"x{ev.before[-1] / ev.before[-2]:.3g}" if ev.before[-2] > 0 else
                  f"{fmt(ev.before[-1] - ev.before[-2])}")     # (a ratio of values below zero says nothing)
            moved = (f"rose only once at the end, by {by} ({last_two})" if rises
                     # (fell, not "was still falling": the values before may have climbed, and a note may say the
                     # steps after the last printed one were not printed)
                     else f"fell at its last printed step ({last_two})" if ev.before[-1] < ev.before[-2]
                     and not ev.hidden_note
                     else f"was not rising at the end ({last_two})")
        return sig("descent-then-nonfinite", [f"the loss {moved}{then}: {ending}"])
    stall = _stall(ev)
    frozen = (_frozen(ev) or _frozen_said(ev)) if stall is None else None
    if frozen:
        return sig(*frozen)
    if stall is None and (early_frozen := _frozen_early(ev)):
        return replace(sig(*early_frozen), weak=True)    # a few values: the shape, too faintly to name an entry alone
    # (a loss back at the uniform guess after it had learned: no spike it recovered from, however it got there)
    if (collapsed := _back_at_uniform(ev)) and not grows_when_healthy(f"{ev.loss_named[0]} {ev.prose}"):
        return sig("climbed-and-stayed", [collapsed])
    early = ev.head[:SPIKE_WINDOW]
    peak = max(range(len(early)), key=early.__getitem__) if early else 0
    # A spike: SPIKE_RATIO times the first value; or, in a run the words say had no warmup (and that names no warmup of
    # its own), NO_WARMUP_JUMP times it -- a warmup-less Adam's first step moves every parameter by about the full rate,
    # however small its gradient: the entry's own face, said by the report (without those words a jump this small may
    # be a small batch's noise). Not the second in rows
    # that are each a whole epoch: an epoch's mean has averaged such a spike away, and its rise is something else
    # (augmentation switched on, a new loss term).
    # (from the run's start, as far as the log numbers it: a jump in the middle of epoch 3 is no first step's)
    if early and early[0] > 0 and ev.last <= early[0] and at_run_start(ev):
        # (said in words, where the paste sets no warmup of its own; or printed: the log's own rate, the same from
        # its first step, beside an adaptive optimizer -- what the log shows outranks words of another run's settings)
        no_warmup = (no_warmup_said(ev.prose) if not WARMUP_SET.search(ev.prose) else "") or _one_rate_from_start(ev)
        jump, uniform, from_uniform = _no_warmup_jump(ev, early[0])
        # (or, from a uniform start under an adaptive optimizer, with no words of it: a model that outputs a uniform
        # guess scores ln C on every batch, whatever it holds, so a nat above it in the first steps is no batch's
        # noise but the updates' own doing -- unless the paste sets a warmup, which would have kept them small)
        built = ADAPTIVE_BUILT.search(ev.prose) if uniform and from_uniform and not no_warmup else None
        if built and not WARMUP_SET.search(ev.prose) and not _small_batch(ev.prose):
            no_warmup = (f" under {_optimizer_named(built)}, where a uniform guess scores {loss_unit(ev.dialect).log} {uniform} "
                         "on every batch and only the updates can raise it")
        for ratio, said in ((SPIKE_RATIO, ""), (jump, no_warmup)):
            if ratio != SPIKE_RATIO and not (said and not _whole_epochs(ev, len(early))):
                break
            if ratio == jump and uniform:
                per_unit, unit, log = loss_unit(ev.dialect)
                said = (f", {early[peak] - early[0]:.2g} {unit} above a start at {log} {uniform} = "
                        f"{math.log(uniform) / per_unit:.4g}, a uniform guess,{said}" if from_uniform else
                        f", {early[peak] - math.log(uniform) / per_unit:.2g} {unit} above a uniform guess over {uniform} "
                        f"({log} {uniform} = {math.log(uniform) / per_unit:.4g}),{said}")
            if early[peak] >= ratio * early[0] and _settled_spike(ev.head, early[peak] / 2, ratio):
                froze = _frozen_after_jump(ev, peak)
                if froze:
                    return sig(*froze)
                return sig("spike-then-recover",
                           [f"the loss jumped from {fmt(early[0])} at {at(0)} to {fmt(early[peak])} at {at(peak)} "
                            f"(x{early[peak] / early[0]:.2g}){said}, then recovered and ended at {fmt(ev.last)}, "
                            + ("below where it started" if ev.last < early[0] else "where it started")])
    end_rises = _rises_before(ev.before)
    swings = recurring_swings(ev)
    # (not the last of a saw-tooth's jumps, no higher than the ones it came back down from: a swing, not a climb)
    swung = swings >= SWINGS and len(ev.before) > 2 and ev.before[-1] <= max(ev.before[:-1])
    # (nor one last rise, to no higher than the loss has been in the run's second half, in a run of small batches: the
    # mean loss of 8 examples moves 20-fold from one batch to the next; a tqdm bar's `loss=` is its last batch's)
    # (unless its last values have settled, far above its lowest: a batch's noise moves the loss value to value, and
    # does not hold it within a few percent for several values -- 4.66, ..., 7.65, 7.41, 7.30, 7.46, 7.39 climbed there)
    # (nor back above where the run started, the highest of its first NOISY_START values: noise moves around the level
    # the loss has learned, and only a run in trouble returns above an untrained model's loss -- the loss watch's own
    # reading; 1.58, 1.39, 1.45, 2.93, 6.29, 7.86, 7.15, 6.99, 6.97 on batches of 4 climbed)
    noisy = (_small_batch(ev.prose) and len(ev.before) > 3 and not _settled_above_low(ev.before)
             and ev.before[-1] <= max(ev.head[:NOISY_START]))
    swung = swung or (noisy and end_rises == 1 and ev.before[-1] <= max(ev.before[len(ev.before) // 2:-1]))
    # (nor, in such a run, a last value that is no new high after a fall: 0.31, 1.74, 0.52, 1.12, 0.08, 1.93, 0.64 is
    # the swing of 8 examples' mean, not a climb back that stayed)
    swung = swung or (noisy and end_rises == 0 and ev.before[-1] <= max(ev.before[:-1]))
    # (nor, per step, one jump from near zero back to no higher than the loss had been and come down from in the run's
    # second half, still below STEP_FLOOR times where the run started, the loss watch's floor: near zero a mean of a
    # few dozen examples is ruled by its one hard example, so the ratio of two steps says little -- 0.0051 to 0.1377
    # after a 0.1804, from a start at 0.6512; not 0.15 to 0.85 from a start at 2.30, a jump)
    swung = swung or (end_rises == 1 and _below_step_floor(ev)
                      and ev.before[-1] <= max(ev.before[len(ev.before) // 2:-1]))
    # (not a loss that grows in a healthy run beside a printed mean reward that rose: an RL agent improving, its value
    # or TD loss following returns that grow)
    # (within bounds: a loss that grew REWARDED_RISE times or more from its lowest is a divergence, whatever the reward
    # did -- a value loss grows about as the square of the returns' scale, not by orders of magnitude)
    grows = grows_when_healthy(f"{ev.loss_named[0]} {ev.prose}")
    # (read only where a climb is in question: the printed reward is read from the whole paste)
    rose = reward_rose(ev.prose) if (end_rises or warn_index is not None) and grows and ev.low is not None \
        and ev.low > 0 and ev.high is not None and ev.high < REWARDED_RISE * ev.low else ""
    rewarded = bool(rose)
    if end_rises and not swung and not rewarded and sustained_climb(ev.before[-1 - end_rises:]) is not None:
        # (the climb still going)
        # (one rise of JUMP_TO_PEAK or more to the last value is a jump, not a climb of several steps: a batch that
        # broke it, or a step that overshot -- a bad batch's face as much as the rate's)
        if end_rises == 1 and ev.before[-2] > 0 and ev.before[-1] >= JUMP_TO_PEAK * ev.before[-2]:
            out = sig("climbing", [f"no non-finite value yet, but the loss jumped in one step from "
                                   f"{fmt(ev.before[-2])} ({at(ev.count - 2)}) to {fmt(ev.before[-1])} at the end "
                                   f"({at(ev.count - 1)}), x{ev.before[-1] / ev.before[-2]:.3g}: a jump, not a climb "
                                   "of several steps"])
            out.jumped = True
            return out
        facts = [f"no non-finite value yet, but the loss has risen {'once' if end_rises == 1 else f'{end_rises} times in a row'} "
                 f"to {fmt(ev.before[-1])} at the end ({at(ev.count - 1)})"]
        # (a climb of several steps, not yet non-finite, beside a clip that never engaged is the clip's face too)
        return despite_clipping(facts, "printed") or sig("climbing", facts)
    low = ev.low if ev.low is not None else ev.head[0]
    slow = _slow_climb(ev) if warn_index is None and not grows else None
    held = _held_above_start(ev) if warn_index is None and slow is None and not grows else 0
    if ((warn_index is not None or slow or held) and not swung and not rewarded and low > 0 and ev.last > ev.head[0]
            and ev.last >= (DOUBLED if held else STAYED) * low and ev.high is not None
            and ev.last >= NEAR_PEAK * ev.high):
        seen = (f"a loss watch ({WATCH_RULE}) would have warned at {warn_at}" if warn_index is not None else
                f"it rose at {slow[0]} of the {slow[1]} values after its lowest, each rise too small for a loss watch "
                f"({WATCH_RULE}) to flag" if slow else
                f"its last {counted(held, 'value')} all stayed at {DOUBLED:g}x its first or more")
        return sig("climbed-and-stayed", [
            f"the loss climbed and did not come back down: it ends at {fmt(ev.last)} ({at(ev.count - 1)}), above "
            f"its first value {fmt(ev.head[0])} ({at(0)}) and {ev.last / low:.3g}x its lowest, {fmt(low)} "
            f"({ev.where(ev.low_at)}), with no nan or inf to stop it; {seen} {GROWS_NOTE}"])
    # (nor a slow climb from its lowest, back above RECOVERED times it, that ends near its peak though still below the
    # first value: 2.21, ..., 1.25, 1.40, 1.68, 1.94, 1.81, 2.10, 1.97 -- a loss that learned, then lost it again)
    # (climbed by degrees, not a jump off one low batch onto a plateau: 1.3, 0.62, 0.95, 0.97, 1.01, 1.04; nor where the
    # words say the values are a validation loss, or overfitting, or that the training loss keeps falling)
    back = slow or (_slow_climb(ev) if not grows else None)
    since = _since_lowest(ev) if back else []
    if (back and not swung and low > 0 and ev.last >= RECOVERED * low and ev.last >= NEAR_PEAK * max(since)
            and since[1] - low < GRADUAL_SHARE * (ev.last - low) and _a_training_run_from_its_start(ev)):
        return sig("climbed-and-stayed", [
            f"the loss fell to {fmt(low)} ({ev.where(ev.low_at)}), then climbed back: it rose at {back[0]} of the "
            f"{back[1]} values after its lowest and ends at {fmt(ev.last)} ({at(ev.count - 1)}), {ev.last / low:.3g}x "
            f"its lowest and near its highest since, with no nan or inf to stop it {GROWS_NOTE}"])
    # (not where the words say the run went nan or inf: values a sentence chose, "~4.3, then 5, 7, 12...", may stop
    # short of it)
    if (not grows and not swung and ev.count >= NEVER_BELOW_MIN and not ev.before_start and ev.head[0] > 0
            and ev.low is not None and ev.low >= ev.head[0] and _held_above_start(ev) and at_run_start(ev)
            and not words_say_nonfinite(ev)):
        return sig("climbed-and-stayed", [
            f"the loss never went below its first value, {fmt(ev.head[0])} ({at(0)}): it rose as high as "
            f"{fmt(ev.high)} and ends at {fmt(ev.last)} ({at(ev.count - 1)}), {ev.last / ev.head[0]:.3g}x where it "
            f"started, with no nan or inf to stop it {GROWS_NOTE}"])
    # (nor one that fell, climbed back and ends at twice its first value and three times its lowest, however far below
    # its peak: 1.57, ..., 0.84, ..., 8.08, ..., 3.44 -- a swing that grows, not a bump it recovered from; in a log longer
    # than the values kept before its end too: its first, lowest, highest and last are the whole run's)
    if (not grows and not swung and ev.count >= NEVER_BELOW_MIN and ev.head[0] > 0
            and low > 0 and ev.last >= DOUBLED * ev.head[0] and ev.last >= STAYED * low and at_run_start(ev)
            and not words_say_nonfinite(ev)):
        jump = _jump_to_peak(ev)
        out = sig("climbed-and-stayed", [
            f"the loss fell to {fmt(low)} ({ev.where(ev.low_at)}), " + (jump or f"climbed back as high as {fmt(ev.high)}, ")
            + f"and ends at {fmt(ev.last)} ({at(ev.count - 1)}): {ev.last / ev.head[0]:.3g}x its first "
            f"value, {fmt(ev.head[0])} ({at(0)}), and {ev.last / low:.3g}x its lowest, with no nan or inf to stop it "
            + GROWS_NOTE])
        out.jumped = bool(jump)
        return out
    settled = _settled_above(ev) if warn_index is not None else None
    if settled:
        return sig(*settled)
    # (nor one that learned, then in one step at least doubled to well above its first value, the untrained model's
    # loss, and stayed there to the end: 0.69, ..., 0.50, then 1.34, 1.33, ..., 1.25 -- the weights thrown off)
    thrown = None if grows or swung or not at_run_start(ev) else _jumped_above_start(ev)
    if thrown:
        out = sig("climbed-and-stayed", [thrown])
        out.jumped = True
        return out
    flat = _plateau(ev) or stall
    if flat:
        return sig(*flat)
    first, last = ev.head[0], ev.last
    trend = "fell" if last < first else "rose"
    bump = ""
    if warn_index is not None:
        back = ev.low is not None and last <= RECOVERED * ev.low
        stayed = ev.high is not None and last >= NEAR_PEAK * ev.high
        # (came only partly back down, not back within RECOVERED times its lowest -- the lowest mean of LOW_RUN values
        # in a row, which one lucky batch cannot make -- beside words that it never came back: the reporter saw the
        # rest of the run, which the paste leaves out -- a jump it did not recover from)
        if not back and not stayed and ev.low and ev.before and last >= RECOVERED * lowest_mean(ev.before)[0] \
                and (never := never_recovered_said(ev.prose)):
            jump = _jump_to_peak(ev)
            out = sig("climbed-and-stayed", [
                f"the loss was at its lowest, {fmt(ev.low)}, at {ev.where(ev.low_at)}, then "
                + (jump or f"climbed to {fmt(ev.high)}, ")
                + f"and came down only to {fmt(last)} ({at(ev.count - 1)}), {last / ev.low:.3g}x its lowest, and the "
                f"report says it \"{never}\": a jump the run did not recover from"])
            out.jumped = bool(jump)
            return out
        # (nor, from the run's start, one whose last LOW_RUN values all lie RECOVERED times where it started or more --
        # its first value, or the median of its first NOISY_START where that is higher, so that one lucky first batch sets
        # no start -- after that climb: a run that ends worse than the model it started from, a pretrained one's loss
        # thrown up in its first steps and only partly back, 3.22, 3.19, ..., 7.92, ..., 6.49, 6.32, 4.87; not a loss that
        # grows when healthy (GROWS_WHEN_HEALTHY: a GAN's, an RL run's, a contrastive queue's), nor a harder task set on
        # purpose)
        started = max(ev.head[0], statistics.median(ev.head[:NOISY_START]))
        tail = ev.before[-LOW_RUN:] if ev.before else [last]
        ended = sum(tail) / len(tail)
        if not back and not stayed and not grows and not swung and started > 0 \
                and min(tail) >= RECOVERED * started and _a_training_run_from_its_start(ev) \
                and not HARDER_BY_CHOICE.search(ev.prose):
            jump = _jump_to_peak(ev)
            out = sig("climbed-and-stayed", [
                f"the loss started at {fmt(ev.head[0])} ({at(0)}), "
                + (jump or f"climbed to {fmt(ev.high)}, ")
                + f"and its last {len(tail)} values average {fmt(ended)} ({at(ev.count - 1)} the last), each "
                f"{RECOVERED:g}x where it started or more: it has not come back to where it started -- the run so far "
                "made the model worse than it began"])
            out.jumped = bool(jump)
            return out
        # (back near its lowest, it recovered; back only within RECOVERED of it, the numbers say how far: a loss that
        # settled at chance above its best did not recover)
        bump = f"; it rose at the end ({warn_at}), to no higher than it had been and come down from" \
            if warn_index == ev.count - 1 else f"; it climbed for a while around {warn_at} and " + (
            "recovered" if back and last <= (1 + PLATEAU_FALL) * ev.low else
            f"came back down to {fmt(last)}, above its lowest ({fmt(ev.low)})" if back else
            (f"stayed near its peak, as a value or TD loss does while the returns it regresses grow "
             f"({rose})" if rewarded else "stayed near its peak, below where it started") if stayed else
            "came partly back down")
    # (nor, with no climb the watch would flag, a loss that rose from its lowest to RECOVERED times it or more and is
    # still near its peak at the end, beside words that it never came back: 4.61, 5.34, 6.99, 7.40, 7.36, 7.58, 7.39 --
    # each rise too small for the watch, the whole a jump the run did not recover from)
    # (with the sibling reading's guards: from the run's start, no nan or inf said, the values a training loss's, and
    # no harder task set on purpose -- mixup, label smoothing, augmentation switched on)
    after_low = _since_lowest(ev) if (warn_index is None and not grows and not swung and _a_training_run_from_its_start(ev)
                                      and not HARDER_BY_CHOICE.search(ev.prose)) else []
    stayed_up = (len(after_low) > NOISY_START and after_low[0] > 0 and last >= RECOVERED * after_low[0]
                 and last >= NEAR_PEAK * max(after_low))
    if stayed_up and (never := never_recovered_said(ev.prose)):
        return sig("climbed-and-stayed", [
            f"the loss was at its lowest, {fmt(ev.low)}, at {ev.where(ev.low_at)}, then climbed to {fmt(max(after_low))} and "
            f"ends at {fmt(last)} ({at(ev.count - 1)}), {last / ev.low:.3g}x its lowest and near its peak, and the "
            f"report says it \"{never}\": a climb the run did not recover from"])
    if swings >= SWINGS:                # (a jump that keeps coming back is no bump: see _excursions)
        size = _small_batch(ev.prose)
        why = (f"as the mean loss of a batch of {size} examples does, one batch to the next (a few hard examples "
               "move it that far), or as when each batch holds one class (a dataset sorted by class and not shuffled)"
               if size else
               "as when each batch holds one class (a dataset sorted by class and not shuffled)")
        bump = (f"; it jumped to {SPIKE_RATIO:g}x its low or more {counted(swings, 'time')} in its first "
                f"{len(ev.head)} values (up to {fmt(ev.high)}): a swing that returns again and again, {why}")
        trend = f"swung between {fmt(ev.low)} and {fmt(ev.high)}, going" if ev.low is not None else trend
    unjudged = "" if _shape_judged(ev) else (
        f"; too few values to judge a plateau or a stall ({SHAPE_MIN} are needed)" if ev.count < SHAPE_MIN else
        "; a loss that reaches 0 or below is not judged for a plateau or a stall" if not (ev.low and ev.low > 0) else
        "; the values do not start at the run's start, so a plateau or a stall cannot be judged")
    moved = (f"the loss {trend} from {fmt(first)} to {fmt(last)}" if fmt(first) != fmt(last) else
             f"the loss ended where it started, at {fmt(last)} (lowest {fmt(ev.low)}, highest {fmt(ev.high)})")
    fell = accuracy_fell(ev)
    return sig("healthy", [f"{ev.count} loss values, all finite: {moved}" + bump + unjudged + (f"; {fell}" if fell else "")])


# (said beside a climb that stayed: the losses GROWS_WHEN_HEALTHY names)
GROWS_NOTE = ("(some logged losses grow in a healthy run: a GAN's generator loss, a value loss regressing returns that "
              "grow)")
# (a climb back that rose by degrees: the first value after the lowest holds less than this share of the whole rise)
GRADUAL_SHARE = 0.5
# (values the words call a validation or test loss -- "these are the validation losses", "here is my val loss" -- or
# beside words of the run's overfitting, not of the check that a model can overfit one batch ("I can't even overfit a
# single batch", "overfitting one batch works"), or of a training loss that keeps falling: a validation curve's U is no
# failure)
OVERFITTING_SAID = lazy_regex.compile(r"(?i)(?<!try to )(?<!trying to )(?<!tried to )(?<!able to )(?<!even )(?<!can't )(?<!cannot )"
                                      r"(?<!not )\boverfit(?:s|ted|ting)?\b(?!\s+(?:on\s+|to\s+)?(?:a|one|the|this|\d+)\s+(?:single\s+|"
                                      r"small\s+|tiny\s+|few\s+|handful\s+of\s+|couple\s+of\s+)?(?:batch|sample|example|subset|image|imgs?)\w*)")
TRAIN_STILL_FALLING = lazy_regex.compile(r"(?i)\btrain\w*\s+loss\w*\b[^.\n]{0,40}?\b(?:keeps?|kept|is|still)\s+(?:on\s+)?"
                                         r"(?:falling|decreasing|going\s+down|dropping)")
NOT_TRAINING = lazy_regex.compile(r"(?i)\b(?:these|those|here\s+(?:is|are)|this\s+is|below\s+(?:is|are))"
                                  r"\s+(?:are\s+)?(?:the\s+|my\s+)?(?:val\w*|validation|test|eval\w*|held-?out)[ _-]?loss|^\s*(?:val|eval|test)")
# (what a question takes as given is said after a conjunction: "... goes up while the training loss keeps falling?")
GIVEN = lazy_regex.compile(r"(?i)\b(?:while|whereas|given(?:\s+that)?|since|although|though|but)\s+(?:the\s+|my\s+|our\s+)?$")


def _training_still_falling(prose: str) -> bool:
    """Do the words say the training loss keeps falling (TRAIN_STILL_FALLING): told, or given in a question's clause
    after a conjunction -- not asked ("is my training loss still falling?"), not denied ("why isn't the training loss
    still decreasing"), not said of a time that ended ("kept going down until epoch 5")?"""
    for m in itertools.islice(TRAIN_STILL_FALLING.finditer(prose), 10):
        if re.search(r"n't\b|\bnot\b|\bnever\b|\bno longer\b", m.group(0), re.I) or re.match(r"\s+until\b", prose[m.end():]):
            continue
        start, end = sentence_around(prose, m.start(), m.end(), stops=".;\n?!")
        if prose[end:end + 1] == "?" and not GIVEN.search(prose, start, m.start()):
            continue
        return True
    return False


def not_training(ev: Evidence) -> bool:
    """Do the loss's name or the words say the values are not a training loss (NOT_TRAINING), or that the training loss
    keeps falling (_training_still_falling), or that the run overfits (OVERFITTING_SAID)? Overfitting asked about is
    left out -- "is it overfitting already?" is the reporter's guess about a loss that climbs -- but what a question
    takes as given is not: "is it normal that the validation loss goes up while the training loss keeps falling?" says
    which curve the values are."""
    return bool(NOT_TRAINING.search(f"{ev.loss_named[0]} {ev.prose}") or _training_still_falling(ev.prose)
                or OVERFITTING_SAID.search(told(ev.prose)))


# Losses that grow in a healthy run: a GAN's generator, a value loss regressing returns that grow, a VAE's loss
# while its KL weight (beta) is annealed up from 0, a term whose weight is ramped up (a consistency loss, a domain-
# adversarial lambda), a curriculum or scheduled sampling that makes the task harder. A slow climb, or one that only
# doubled, is not read as one in a run that names them (a fast climb, which the watch sees, still is).
# (an RL return named as one -- "the returns grow", "episode return" -- not a function's `return` statement nor "it
# returns nan"; and a GAN's generator, not a data or batch generator, a Python generator or torch.Generator's seed)
GROWS_WHEN_HEALTHY = lazy_regex.compile(r"\b(?:gan|dcgan|wgan|(?<!data )(?<!batch )(?<!python )(?<!\.)generator(?!\s*=|\(\))|discriminator|"
                                        r"g_loss|loss_?g|d_loss|loss_?d|g loss|d loss|rewards?|"
                                        r"(?:episodes?|episodic|discounted|mean|average|expected|cumulative|total)[ _-]?returns?|"
                                        r"\breturns\s+(?:go\s+up|grow\w*|increas\w*|ris\w*|keep\s+(?:growing|rising|increasing))|"
                                        r"value[ _]loss|policy[ _]loss|q[ _-]?values?|critic|actor|td[ _-]?error|"
                                        r"kl[ _-]?(?:anneal\w*|warm-?up|weight|beta)|beta[ _-]?(?:anneal\w*|warm-?up|schedule)|"
                                        r"anneal\w* (?:the )?(?:kl|beta)|curriculum|scheduled sampling|domain[ -]adversarial|dann|"
                                        r"gradient reversal|consistency (?:weight|loss)|"
                                        # (the RL algorithms run_said.RL_RUN names; and a contrastive loss over a queue or
                                        # a memory bank of negatives, which rises while the queue fills with real
                                        # features in place of the first random ones -- K. He on MoCo,
                                        # facebookresearch/moco issue 9: "the task is getting harder"; and a sequence
                                        # length warmed up)
                                        + RL_ALGORITHMS + r"|moco|memory[ -]bank|queue of negatives|"
                                        r"negative queue|sequence[ -]length warm-?up)\b", re.I)
# A ramp up is of a weight or a rate ("the consistency weight is ramped up", "the lr ramps up linearly"); where the
# nearest thing named before it is the loss itself ("the loss ramps up after epoch 3") it is the failure, not a schedule.
RAMP_UP = lazy_regex.compile(r"(?i)\bramp(?:ed|s|ing)?\s+(?:it\s+)?up\b")
_RAMP_SUBJECT = lazy_regex.compile(r"(?i)\b(?:(?P<loss>loss(?:es)?|error(?:\s+rate)?|perplexity|ppl|nans?)|lr|rate|weight|lambda|"
                                   r"beta|alpha|coefficient|warm-?up|schedul\w*)\b")
_PRONOUN = lazy_regex.compile(r"(?i)\b(?:it|this|that)\b")


def ramped_up(prose: str) -> re.Match | None:
    """The first ramp up (RAMP_UP) of something other than the loss, named last within the 60 characters of its
    sentence before it -- or, where the sentence names nothing but a pronoun ("Then it ramps up"), named first in the
    sentence before; or None."""
    for m in itertools.islice(RAMP_UP.finditer(prose), 10):
        start = max(0, prose.rfind("\n", 0, m.start()), prose.rfind(". ", 0, m.start()), m.start() - 60)
        subjects = list(_RAMP_SUBJECT.finditer(prose, start, m.start()))
        if not subjects and _PRONOUN.search(prose, start, m.start()):
            # (the sentence before's subject, the first thing it names: "The loss is fine at a constant lr. Then it
            # ramps up" is the loss's)
            before = max(0, prose.rfind("\n", 0, max(0, start - 1)), prose.rfind(". ", 0, max(0, start - 2)), start - 200)
            subjects = list(itertools.islice(_RAMP_SUBJECT.finditer(prose, before, start), 1))
        if not subjects or not subjects[-1].group("loss"):
            return m
    return None


# A harder task set on purpose during training, which raises the loss for good: mixup or cutmix, label smoothing,
# augmentation, dropout or a regulariser switched on or added
_HARDER = r"(?:mix-?up|cut-?mix|label[\s_]+smoothing|augment\w*|dropout|regulari[sz]\w*)"
HARDER_BY_CHOICE = lazy_regex.compile(r"(?i)(?<!not )(?<!n't )\b(?:switch\w*|turn\w*)\s+(?:\w+\s+){0,3}?on\b[^.\n]{0,40}?\b"
                                      + _HARDER + r"|(?<!not )(?<!n't )\b(?:switch\w*|turn\w*)\s+" + _HARDER + r"\s+on\b|"
                                      r"(?<!not )(?<!n't )\b(?:add\w*|enabl\w*|introduc\w*|start\w*\s+using|increas\w*|rais\w*)\s+"
                                      r"(?:\w+\s+){0,2}?"
                                      + _HARDER + r"|\blabel_smoothing\s*=\s*0?\.\d*[1-9]")


def grows_when_healthy(text: str) -> bool:
    """Does the text name a loss that grows in a healthy run (GROWS_WHEN_HEALTHY), or a weight ramped up?"""
    return bool(GROWS_WHEN_HEALTHY.search(text) or ramped_up(text))
# A climb too slow for the watch (rises of a few percent a print): it still counts as a climb that stayed when
# it runs over SLOW_VALUES values or more after the lowest and most of them (SLOW_SHARE) are rises.
SLOW_VALUES, SLOW_SHARE = 5, 2 / 3


# A loss whose last HELD_MIN values or more all stand at DOUBLED times its first value or more (and its lowest), near
# its peak, climbed and stayed however few values the paste holds or however the watch would have seen the rise: a
# healthy run's loss does not end at twice where it started (the losses that grow in one, GROWS_WHEN_HEALTHY, aside).
DOUBLED, HELD_MIN = 2.0, 2
# The values before a first non-finite one read for a climb that levelled off at its top before it broke
CLIMB_WINDOW = 10
# Nor does one that never went below its first value and whose last HELD_MIN values stand at DOUBLED times it, however
# it swung between (9.84, 31.27, 18.55, 64.02, 22.9; not one jump at the end, 2.91, 3.1, 3.0, 7.7): this many values
# at least, so that the first is not alone in being low.
NEVER_BELOW_MIN = 4


def _held_above_start(ev: Evidence) -> int:
    """How many values at the end stand at DOUBLED times the first or more, when at least HELD_MIN do (else 0)."""
    first = ev.head[0] if ev.head else 0
    if ev.first_nonfinite is not None or ev.before_start or not first > 0:
        return 0
    held = 0
    while held < len(ev.before) and ev.before[-1 - held] >= DOUBLED * first:
        held += 1
    return held if HELD_MIN <= held < len(ev.before) else 0


# Values that have settled: the last LEVEL_MIN of them within LEVEL_SPREAD of their lowest (relative), all at
# RECOVERED times the run's lowest or more.
LEVEL_MIN, LEVEL_SPREAD = 4, 0.1


def _settled_above_low(values: list[float]) -> bool:
    """Whether the last LEVEL_MIN values hold one level, RECOVERED times the lowest before them or more (the lowest
    mean of a few values in a row: one lucky batch of a small batch's noise is no low)."""
    last = values[-LEVEL_MIN:]
    earlier = values[:-LEVEL_MIN]
    if len(last) < LEVEL_MIN or not earlier or min(earlier) <= 0:
        return False
    return max(last) <= (1 + LEVEL_SPREAD) * min(last) and min(last) >= RECOVERED * lowest_mean(earlier)[0]


def _slow_climb(ev: Evidence) -> tuple[int, int] | None:
    """(rises, values) after the lowest value, when the loss rose at most of them: a slow, sustained climb."""
    after = _since_lowest(ev)
    if not after:
        return None
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


def _fell_from_first(ev: Evidence) -> bool:
    """Did the loss fall DESCENT_FALL or more below its first value before the climb?"""
    return ev.low is not None and ev.head[0] > 0 and ev.low <= (1 - DESCENT_FALL) * ev.head[0]


def _descent_before_climb(ev: Evidence) -> str | None:
    """The fact that the run fell for a good while before the climb, if it did."""
    first = ev.head[0]
    if ev.low_at < DESCENT_MIN or not _fell_from_first(ev):
        return None
    return (f"the loss first fell for {ev.low_at} values, from {fmt(first)} at {ev.where(0)} to "
            f"{fmt(ev.low)} at {ev.where(ev.low_at)}, then turned and climbed, as a loss does when the "
            "steps grow as training goes on")


def _fell_first(ev: Evidence) -> bool:
    """Did the loss fall by DESCENT_FALL before it climbed, in fewer values than a descent takes (DESCENT_MIN)?"""
    return 2 <= ev.low_at < DESCENT_MIN and _fell_from_first(ev)


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


def words_say_nonfinite(ev: Evidence) -> bool:
    """Do the report's sentences say the run went nan or inf (not its code: `clip_grad_norm_(..., float("inf"))`)?"""
    return said_unnegated(sentences_only(ev.prose), {"nan", "inf"})


def nonfinite_past_the_log(ev: Evidence, sig: Signature) -> bool:
    """A log whose values are all finite and look healthy, beside sentences that say the run went nan or inf: the nan
    came after what the log shows (printed every 25 epochs, or pasted up to its last finite line), so the words carry
    the failure, as in a report of words, and the curve is the run's shape on the way to it."""
    # (a log's values: not values a reporter chose to give in sentences, "it was ~4.3, then 5, 7, 12...", which stop
    # where the reporter had numbers to give -- weighed beside their words already)
    dialect = dialect_named(ev.dialect)
    return sig.name == "healthy" and ev.first_nonfinite is None and ev.count >= 3 \
        and not (dialect is not None and dialect.chosen) and bool(nonfinite_said_of_this_run(ev.prose))


def at_run_start(ev: Evidence) -> bool:
    """Is the first value the run's first, as far as the log's numbering says (unnumbered: assume so)? Numbered 0
    or 1; or, in the first epoch, the first print of a loop that prints every k steps: at step k (or k - 1, a count
    from 0 printed when it reaches k - 1), with the next print at 2k (`Epoch [1/5], Step [100/600]`, then 200); or
    the first print of the examples seen (_examples_seen_from_start)."""
    pos = ev.at(0)
    if pos is None or not pos.numbered:
        return True
    if all(n <= 1 for n in _numbers_of(f"{pos.epoch or ''} {pos.step or ''}")):
        return True
    if _examples_seen_from_start(ev):
        return True
    step, nxt = step_number(pos), step_number(ev.at(1)) if ev.count > 1 else None
    first_epoch = all(n <= 1 for n in _numbers_of(epoch_number(pos)))
    # (printed once an epoch at the same count, `[1, 12000]` then `[2, 12000]` from a tutorial loop changed to print at
    # an epoch's end, or at the steps counted since the run's start, `epoch: 1, steps: 1785` then `epoch: 2, steps:
    # 3570` in SpeechBrain's train_log: the first is the first epoch's)
    if step is not None and nxt in (step, 2 * step) and first_epoch and epoch_number(pos) is not None and \
            epoch_number(ev.at(1)) == str(int(float(epoch_number(pos))) + 1):
        return True
    if step is None or nxt is None or epoch_number(ev.at(1)) != epoch_number(pos) or not first_epoch:
        return False
    every = nxt - step
    return every > 1 and step in (every, every - 1)


def _examples_seen_from_start(ev: Evidence) -> bool:
    """Is the first value the first print of a loop that counts the examples seen, in an epoch numbered 0, and prints
    after its first batch and then every k batches (open_clip's `Train Epoch: 0 [2048/4096000 (0%)]`, then 12288,
    22528; every batch, k = 1: 2048, 4096)? A first print at or below the interval between prints, which is a whole
    number of it, had no earlier print at that interval before it; where a third print is pasted, at the same interval (200, 4000, 4400 are prints picked
    out). (In epoch 0 only: a loop that counts from 1, or prints at its count 0 as PyTorch's MNIST example does, is
    read by its first print's own count.)"""
    if ev.count < 2 or ev.at(1) is None or epoch_number(ev.at(0)) != "0" or epoch_number(ev.at(1)) != "0":
        return False
    step, nxt = count_number(ev.at(0)), count_number(ev.at(1))
    if step is None or nxt is None:
        return False
    every = nxt - step
    third = count_number(ev.at(2)) if ev.count > 2 and ev.at(2) is not None else None
    return 0 < step <= every and every % step == 0 and (third is None or third - nxt == every)


def _unprinted_before(ev: Evidence) -> bool:
    """Is the first value the first print of a loop that printed nothing for the steps before it (step 100 of a
    loop that prints every 100)?"""
    step = step_number(ev.at(0)) if ev.count else None
    return step is not None and step > 1 and at_run_start(ev)


def _numbers_of(text: str | None) -> list[float]:
    """The counts a position prints, not their totals (`epoch 1/10`: 1)."""
    return [float(n) for n in re.findall(r"(?<![/.\d])(\d+(?:\.\d+)?)(?![.\d])", text or "")]


def _shape_judged(ev: Evidence) -> bool:
    """Enough finite, positive values from the run's start to judge a plateau or a stall."""
    return ev.count >= SHAPE_MIN and ev.low is not None and ev.low > 0 and at_run_start(ev)


def _accuracy_printed(ev: Evidence) -> bool:
    """Is an accuracy printed beside the loss, above 0 somewhere (a regression compiled with metrics=['accuracy']
    prints 0 on every line)?"""
    return bool(ev.accuracy_head and ev.accuracy_tail and max(ev.accuracy_head + ev.accuracy_tail) > 0)


def accuracy_stuck(ev: Evidence) -> bool:
    """Did the accuracy printed beside the loss stay within ACCURACY_MOVED of where it was, first print to last?"""
    if not _accuracy_printed(ev):
        return False
    seen = ev.accuracy_head + ev.accuracy_tail
    return max(seen) - min(seen) < ACCURACY_MOVED * accuracy_scale(ev)


def accuracy_scale(ev: Evidence) -> int:
    """100 where the accuracy is printed as a percentage (a % sign, or every value above 1), else 1."""
    return 100 if ev.accuracy_percent or min(ev.accuracy_head + ev.accuracy_tail) > 1 else 1


def _accuracy_rose(ev: Evidence, by: float = ACCURACY_RISE) -> bool:
    """Did the accuracy printed beside the loss rise by this share or more, first print to last?"""
    if not (ev.accuracy_head and ev.accuracy_tail):
        return False
    scale = accuracy_scale(ev)
    return ev.accuracy_tail[-1] - ev.accuracy_head[0] >= by * scale


def accuracy_fell(ev: Evidence) -> str:
    """The training accuracy printed beside the loss, if no later print read (the first and last ACCURACY_ENDS) is
    above its first and the last is ACCURACY_MOVED or more below it: what a run that learns does not print, whatever
    its loss did (a first epoch's mean loss falls out of an enormous start however badly the run goes on). A sentence
    of the fall, or "". (A learning run's noisy accuracy climbs above its first print somewhere.)"""
    if not _accuracy_printed(ev) or len(ev.accuracy_head) < 2:
        return ""
    first, last = ev.accuracy_head[0], ev.accuracy_tail[-1]
    if max(ev.accuracy_head[1:] + ev.accuracy_tail) > first or last > first - ACCURACY_MOVED * accuracy_scale(ev):
        return ""
    pct = "%" if ev.accuracy_percent else ""
    return (f"the training accuracy printed beside it fell from {fmt(first)}{pct} to {fmt(last)}{pct}, and none of the "
            "prints read after the first was above it: a run that learns raises it")


def _epochs_between(a, b) -> float | None:
    """How many epochs of the log's own numbering lie from position `a` to position `b` (epoch_number), or None where
    either is not numbered so."""
    first, last = (epoch_number(p) if p is not None else None for p in (a, b))
    return float(last) - float(first) if first is not None and last is not None else None


def _epochs_spanned(ev: Evidence, start: int = 0) -> bool:
    """Do a few values, from `start` to the last, span SHAPE_MIN epochs or more of the log's own numbering (`Epoch
    1/30`, `Epoch 2/30`, `...`, `Epoch 30/30`: a paste that left the middle out)? Their ends then say where the run
    went. (From the start, the values must start at the run's start.)"""
    if ev.count - start < FROZEN_FEW - 1 or not (ev.low and ev.low > 0) or (start == 0 and not at_run_start(ev)):
        return False
    spanned = _epochs_between(ev.at(start), ev.at(ev.count - 1))
    return spanned is not None and spanned >= SHAPE_MIN - 1


def _most_epochs(ev: Evidence, start: int) -> bool:
    """Do the values from `start` to the last, FROZEN_FEW or more of them, span most of the run in the log's own
    epoch numbering -- half its epochs or more, and SHAPE_MIN or more (a paste that left the middle of a long flat
    stretch out, `Epoch 12/100`, `...`, `Epoch 99/100`, prints few of its values but says how long it lasted)?"""
    if ev.count - start < FROZEN_FEW or not at_run_start(ev):
        return False
    spanned, run = _epochs_between(ev.at(start), ev.at(ev.count - 1)), _epochs_between(ev.at(0), ev.at(ev.count - 1))
    return spanned is not None and run is not None and spanned >= SHAPE_MIN - 1 and spanned >= run / 2


def _plateau(ev: Evidence) -> tuple[str, list[str]] | None:
    first = ev.head[0]
    if not (_shape_judged(ev) or _epochs_spanned(ev)) or ev.low < (1 - PLATEAU_FALL) * first \
            or ev.high > (1 + PLATEAU_FALL) * first:
        return None
    # (beside an accuracy that rose, the model learned what the loss cannot show: said by the printed fact)
    pct = "%" if ev.accuracy_percent else ""
    verdict = (f"the loss barely moved while the accuracy printed beside it rose, from {fmt(ev.accuracy_head[0])}{pct} "
               f"to {fmt(ev.accuracy_tail[-1])}{pct}" if _accuracy_rose(ev, ACCURACY_MOVED) else "it never learned")
    return ("plateau-from-start",
            [f"over {ev.count} values ({ev.where(0)} to {ev.where(ev.count - 1)}) the loss stayed within "
             f"{PLATEAU_FALL:.0%} of its first value {fmt(first)} (lowest {fmt(ev.low)}, highest "
             f"{fmt(ev.high)}): {verdict}"])


# A model with no hidden layer (a logistic or linear regression, a perceptron), in words that name no ReLU: with its
# matching loss (squared error, cross-entropy, Poisson's, the perceptron's) its loss is convex in its weights, so a
# fall that levels off is the minimum or slow progress towards it (badly scaled inputs, a small rate, separable classes),
# never a local minimum or units that died.
CONVEX_MODEL = lazy_regex.compile(r"\b(?:logistic|linear|softmax|ridge|lasso|poisson)[ _-]regression\b|\bLogisticRegression\b|"
                                  r"\bLinearRegression\b|\bSGD(?:Classifier|Regressor)\b|\bperceptron\b", re.I)
RELU_NAMED = lazy_regex.compile(r"relu|hidden|mlp|layers?\b|conv", re.I)


def _stall(ev: Evidence) -> tuple[str, list[str]] | None:
    first = ev.head[0]
    if not _shape_judged(ev) or ev.low > (1 - PLATEAU_FALL) * first:
        return None
    if CONVEX_MODEL.search(ev.prose) and not RELU_NAMED.search(ev.prose):
        return None
    tail = ev.before
    n = 1
    while n < len(tail) and _within(tail[-1 - n:], FLAT):
        n += 1
    level = tail[-1]
    start = ev.before_start + len(tail) - n
    if (n < min(KEEP, (ev.count + 1) // 2) and not _most_epochs(ev, start)) or level < STALL_LEVEL * first:
        return None
    # (a level well above the lowest was reached by going back up: said, not passed over)
    then = "then stopped" if level <= (1 + PLATEAU_FALL) * ev.low else "then went back up and stopped"
    return ("stall-after-drop",
            [f"the loss fell from {fmt(first)} at {ev.where(0)} to {fmt(ev.low)} at {ev.where(ev.low_at)}, "
             f"{then}: the last {n} values ({ev.where(start)} to {ev.where(ev.count - 1)}) stay within "
             f"{FLAT:.0%} of {fmt(level)}, {level / first:.0%} of where it started"])


# A loss that moved (by PLATEAU_FALL or more) and then printed the very same value FROZEN_MIN times or more, for half
# the run or more, at STALL_LEVEL or more of its first value: its outputs stopped changing (a network whose units all
# died prints one loss for ever) -- a stall, whatever the curve did before it (a spike that killed the units, or a
# fall).
FROZEN_MIN = 5
# Fewer values than SHAPE_MIN are judged only when they froze: the last FROZEN_FEW or more (all but the first two at
# most) print the very same value, with FROZEN_DIGITS significant digits or more, so that no movement can hide in
# the rounding ("loss: 2.3013" four epochs running; not "0.69" or "0.0000").
FROZEN_FEW, FROZEN_DIGITS = 4, 4
FROZEN_RELATIVE = 1e-6


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
        # (nor a change of a millionth of the value, however many digits the log prints: scikit-learn's eight show a
        # bias settling by 1e-8 a step as a flicker of ten units)
        finer = max(finer, FROZEN_RELATIVE * abs(level)) if finer > 0 else finer
        if abs(tail[-1 - n] - level) > finer * (1 + 1e-9):
            break
        unit, n = finer, n + 1
    exact = all(v == level for v in tail[len(tail) - n:])
    return level, n, "the same to every printed digit" if exact else f"the same to within {unit:.3g}"


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
    if n < FROZEN_MIN or not (n >= (ev.count + 1) // 2 or _half_the_steps(ev, ev.count - n)) \
            or not _moved(ev, level) or level < STALL_LEVEL * first:
        return None
    start = ev.count - n
    return ("stall-after-drop",
            [f"the loss froze: its last {n} values ({ev.where(start)} to {ev.where(ev.count - 1)}) are all "
             f"{fmt(level)}, {same}, after it had moved (from {fmt(first)} at {ev.where(0)}, "
             f"lowest {fmt(ev.low)}, highest {fmt(ev.high)}): the outputs no longer change, as when every unit of a "
             "layer has died"])


PROCESS_MARK = lazy_regex.compile(WORKER_PREFIX + r"|(?i:\b(?:rank|gpu|device|local_rank)(?:[ \t]*[:=])?[ \t]*\d+\b)|\bpid=\d+")


def _processes_apart(ev: Evidence, t: int) -> bool:
    """Do the lines of the first t + 1 values each carry a process's mark (a launcher's prefix, a rank, a pid), and more
    than one mark among them?"""
    lines = ev.prose.split("\n")
    marks = [PROCESS_MARK.search(lines[p.line - 1]) if p is not None and 0 < p.line <= len(lines) else None
             for p in (ev.at(k) for k in range(t + 1))]
    return all(marks) and len({m.group(0) for m in marks}) > 1


def _half_the_steps(ev: Evidence, start: int) -> bool:
    """Do the values from `start` on span half the run or more in the log's own step numbering (a paste that left
    out the rows of a frozen tail, "(... same value on every row ...)", shows few of them over many steps)?"""
    first, begin, last = (step_number(p) if (p := ev.at(i)) is not None else None for i in (0, start, ev.count - 1))
    return None not in (first, begin, last) and last > first and (last - begin) >= (last - first) / 2


# A value the words say the run printed at every epoch from some point on, or that it froze at ("from epoch 24 to 500
# it prints 0.6803 at every single epoch", "Loss frozen at 0.6803 for 500 epochs"): the frozen tail a paste leaves out.
FROZEN_SAID = lazy_regex.compile(r"(?i)(?<![\w.])(?P<v>\d+\.\d+)[ \t]*(?:,[ \t]*)?(?:(?:at|on|in)[ \t]+)?(?:every|each)[ \t]+"
                                 r"(?:single[ \t]+)?(?:epoch|step|iteration|batch)\b|\b(?:frozen|stuck|fixed)[ \t]+at[ \t]+"
                                 r"(?:exactly[ \t]+)?(?P<v2>\d+\.\d+)[ \t]+(?:for|from|through|over)\b")


# A quantity other than the loss named last before a number said frozen, in its clause: that number is its own.
# (a gradient's norm too, "the global grad norm is ~0.9 every step": not a batch norm or a clipping named in passing)
OTHER_SUBJECT = lazy_regex.compile(r"(?i)\b(?:acc(?:uracy)?|iou|mean_io_u|miou|dice|f1|auc|map|precision|recall|score|metric|"
                                   r"perplexity|ppl|lr|learning rate|grad(?:ient)?s?[ _-]?norms?|total[ _]norm|gnorm|global[ _]norm|"
                                   r"weight[ _]norm|(?:grad(?:ient)?s|weights?)(?=(?:\s+of\s+[\w ]{1,30}?)?\s+(?:is|are|=|:)\s))\b"
                                   r"(?![^\n]{0,60}?\bloss\b)[^\n]{0,60}$")


def _frozen_said(ev: Evidence) -> tuple[str, list[str]] | None:
    """A loss that moved and then, the words say, printed its last value again and again (FROZEN_SAID): the stall a
    frozen tail shows, told in words where the paste gives the value once."""
    if ev.first_nonfinite is not None or ev.count < 3 or ev.last is None or not ev.head or not ev.head[0] > 0:
        return None
    for m in itertools.islice(FROZEN_SAID.finditer(ev.prose), 20):
        # (another quantity's, its name the subject of the clause: "Accuracy is stuck at 0.7784 from epoch 2 on")
        clause = re.split(r"[.!?;\n]", ev.prose[max(0, m.start() - 60):m.start()])[-1]
        if OTHER_SUBJECT.search(clause):
            continue
        level = float(m.group("v") or m.group("v2"))
        # (the last value read, or one the sentences' values left out: a value said again and again far from the
        # others, "... and since about epoch 30 it prints 0.6109 every single epoch", is where the run ended)
        ended = level == ev.last or (level not in ev.head and level not in ev.before)
        if ended and _moved(ev, level) and level >= STALL_LEVEL * ev.head[0]:
            said = " ".join(m.group(0)[:m.end("v2") - m.start() if m.group("v2") else None].split())
            return ("stall-after-drop",
                    [f"the loss froze: the report says it printed {fmt(level)} again and again (\"{said}\"), after it "
                     f"had moved (from {fmt(ev.head[0])} at {ev.where(0)}, lowest {fmt(ev.low)}, highest "
                     f"{fmt(ev.high)}): the outputs no longer change, as when every unit of a layer has died"])
    return None


def _frozen_after_jump(ev: Evidence, peak: int) -> tuple[str, list[str]] | None:
    """A loss that jumped, came straight down to one value and then printed it FROZEN_FEW times or more to its last,
    the same to every printed digit (FROZEN_DIGITS or more of them): the outputs no longer change. A layer whose every
    unit died leaves one output for every input; the biases after it still train, and carry the loss to the best
    constant's (ln C on C balanced classes), so it freezes like this when they settle within one print (often they
    creep, and then this rule is silent). A guard, not the mechanism: the value was reached from PLATEAU_FALL or more
    above it, or within two prints of the peak, not by ever smaller steps, as a run that converges reaches its floor
    (0.5118, 0.5103, 0.5101, 0.5101).
    Fewer values than _frozen asks for: a paste that elides the middle of a long run (`...`) shows only a few of the
    frozen ones, FROZEN_FEW of them, or one fewer where they span SHAPE_MIN epochs."""
    if ev.first_nonfinite is not None or ev.count != len(ev.before) + ev.before_start:
        return None
    level, n, same = _frozen_tail(ev)
    start = ev.count - n
    exact = all(v == level for v in ev.before[len(ev.before) - n:])
    # (three that span ten epochs or more, the paste eliding the rest, are as many as the run printed)
    # (the digits the log prints, from any of those values: 0.6590 reads back as 0.659, beside a 0.6591)
    if (n < FROZEN_FEW and not (n >= FROZEN_FEW - 1 and _epochs_spanned(ev, start))) or start <= peak \
            or all(_last_digit_unit(v) == 0 for v in ev.before[len(ev.before) - n:]) \
            or level < STALL_LEVEL * ev.head[0] or n >= len(ev.before):
        return None
    # (reached by ever smaller steps, as a converging run reaches its floor -- or frozen only to within one unit of its
    # last digit, 0.6591 then 0.6590 to the end: only beside one output for every input)
    converged = ev.before[-1 - n] < (1 + PLATEAU_FALL) * level and start - peak > 2
    constant = _constant_output(ev.prose, level) if converged or not exact else ""
    if (converged or not exact) and not constant:
        return None
    came = "" if start - 1 == peak else f" later, from {fmt(ev.before[-1 - n])} ({ev.where(start - 1)}),"
    return ("stall-after-drop",
            [f"the loss jumped to {fmt(ev.head[peak])} at {ev.where(peak)}, came{came}{'' if constant else ' straight'} "
             f"down to {fmt(level)} "
             f"and stopped dead: its last {n} values ({ev.where(start)} to {ev.where(ev.count - 1)}) are all "
             f"{fmt(level)}, {same}: the outputs no longer change, as when a jump kills every unit of a layer and "
             "leaves one output for every input (its loss is then the best constant's: the labels' entropy for a "
             "classifier, ln C on C balanced classes; the targets' variance for a squared error)" + constant])


# One probability the words give for every input ("torch.sigmoid(model(X)) is 0.2700 for every single row"): a frozen
# loss at its binary entropy, -q ln q - (1 - q) ln(1 - q), is the loss of that constant prediction on labels whose
# positive share is q -- the best a model can do that no longer sees its input; the values reaching it by ever smaller
# steps are its bias settling, not a model converging
CONSTANT_SAID = lazy_regex.compile(r"(?i)(?<![\d.])(0?\.\d{1,6})\s+for\s+(?:every|all|each)\s+(?:single\s+)?(?:row|input|sample|example|"
                                   r"image|observation|instance)s?\b")
ENTROPY_NEAR = 0.005


# ... or a share of the labels the words give ("about 25% of the samples are label 1", in any language): a frozen loss
# at its binary entropy is the loss of predicting that base rate for every input, the best constant
SHARE_SAID = lazy_regex.compile(r"(?<![\d.])(\d{1,2}(?:\.\d{1,3})?)\s?%")
# (in a sentence about the labels or a class -- in the languages reports come in -- not about a split or a rate)
SHARE_OF_LABELS = lazy_regex.compile(r"(?i)label|class|positive|negative|target|minority|majority|churn|\by\s*==?\s*1|nhãn|"
                                     r"标签|類|类|ラベル|클래스|레이블|метк|класс|etiqueta|clase|classe|klasse|etichett")
SHARE_NOT = lazy_regex.compile(r"(?i)valid|held[ -]out|test|split|dropout|\blr\b|learning rate|accuracy|acc\b|recall|precision")


def _entropy(q: float) -> float:
    return -q * math.log(q) - (1 - q) * math.log(1 - q) if 0 < q < 1 else math.inf


def _constant_output(prose: str, level: float) -> str:
    """A sentence where the words give one output for every input, or a share of the labels, whose binary entropy is
    the frozen loss; else ""."""
    for m in itertools.islice(CONSTANT_SAID.finditer(prose), 10):
        q = float(m.group(1))
        entropy = _entropy(q)
        if abs(entropy - level) <= ENTROPY_NEAR * level:
            return (f"; the report gives one output for every input (\"{' '.join(m.group(0).split())}\"), and "
                    f"-q ln q - (1 - q) ln(1 - q) = {entropy:.4f} for q = {m.group(1)}: the loss of that constant "
                    "prediction, where the model no longer sees its input")
    for m in itertools.islice(SHARE_SAID.finditer(prose), 20):
        start = max(prose.rfind(c, 0, m.start()) for c in ".\n!?") + 1
        stop = min((i for i in (prose.find(c, m.end()) for c in ".\n!?") if i >= 0), default=len(prose))
        if not SHARE_OF_LABELS.search(prose[start:stop]) or SHARE_NOT.search(prose[start:stop]):
            continue
        q = float(m.group(1)) / 100
        entropy = _entropy(q)
        if abs(entropy - level) <= ENTROPY_NEAR * level:
            return (f"; the report gives a share of {m.group(0)}, and -q ln q - (1 - q) ln(1 - q) = {entropy:.4f} for "
                    f"q = {q:g}: the loss of predicting that share for every input, the base rate, where the model no "
                    "longer sees its input")
    return ""


# A loss that jumped after it had learned, came down, and stopped at DOUBLED its lowest before the jump or more: its last
# SETTLED_MIN values or more within SETTLED_SPREAD of one another, to the end.
SETTLED_MIN, SETTLED_SPREAD = 3, 0.002


# A loss that reached its peak in one step of this many times the value before it jumped there (a batch that broke it,
# or a step that overshot), rather than climbing
JUMP_TO_PEAK = 5.0


def _jump_to_peak(ev: Evidence) -> str:
    """How the loss reached its highest value, where it jumped there in one step (JUMP_TO_PEAK), else ''."""
    values = ev.head if ev.high in ev.head else ev.before
    offset = 0 if values is ev.head else ev.before_start
    if ev.high not in values:
        return ""
    peak = values.index(ev.high)
    if peak == 0 or not values[peak - 1] > 0 or ev.high < JUMP_TO_PEAK * values[peak - 1]:
        return ""
    return (f"jumped in one step from {fmt(values[peak - 1])} ({ev.where(peak - 1 + offset)}) to {fmt(ev.high)} "
            f"({ev.where(peak + offset)}), ")


# A loss back above its first value by this factor at every value to the end did not recover from its jump: a
# recovered run comes back near where it started at worst (0.6924, ..., 0.5417, 1.882, ..., 0.6931)
ABOVE_START = 1.5


def _jumped_above_start(ev: Evidence) -> str:
    """A loss that fell by DESCENT_FALL or more, then in one step rose to DOUBLED the value before it, and stayed at
    ABOVE_START times its first value or more for NEVER_BELOW_MIN values or more, to the end; else ''."""
    vals, first = ev.before, ev.head[0] if ev.head else 0.0
    if ev.first_nonfinite is not None or ev.before_start or ev.count != len(vals) or not first > 0:
        return ""
    for i in range(1, len(vals) - NEVER_BELOW_MIN + 1):
        before, low = vals[i - 1], min(vals[:i])
        # (and did not come a third of the way back down since: not a loss recovering from it)
        if (0 < before and vals[i] >= DOUBLED * before and low <= (1 - DESCENT_FALL) * first
                and all(v >= ABOVE_START * first for v in vals[i:]) and vals[-1] >= 2 / 3 * max(vals[i:])):
            return (f"the loss fell from {fmt(first)} ({ev.where(0)}) to {fmt(low)}, then jumped in one step from "
                    f"{fmt(before)} ({ev.where(i - 1)}) to {fmt(vals[i])} ({ev.where(i)}), x{vals[i] / before:.3g}, "
                    f"and stayed at {ABOVE_START:g}x where it started or more to the end ({fmt(ev.last)}, "
                    f"{ev.where(ev.count - 1)}): a healthy run does not go back above its untrained loss for good")
    return ""


# A loss back at the uniform guess after it had learned and then diverged: LOW_RUN values in a row whose mean is this
# share below it or more (a mean cross-entropy of 0.9 ln C is no guess; one value that low may be a lucky batch), then a
# climb to EXCURSION times the guess or more (a divergence: a small batch's noise around ln C swings by tens of
# percent, not by half), then its last AT_UNIFORM_LAST values or more at the guess
LEARNED_BELOW_UNIFORM, LOW_RUN, EXCURSION = 0.1, 3, 1.5
AT_UNIFORM_LAST = 2
# ... or, with no such climb, a loss pinned to the guess: LEVEL_MIN values or more within PINNED of ln C (a unit gone
# dead sends it straight there and holds it; a small batch's noise around ln C moves by tens of percent)
PINNED = 0.005
# Only a mean cross-entropy over the classes the paste names sits at ln C for this reason: the paste shows a
# classifier's loss or its accuracy, and no regression, no summed loss (a detector's total of its heads' losses). (Not
# run_kind's CLASSIFIER and REGRESSOR: that module reads this one's constants, and they ask other things -- a Dense(1),
# a "price".)
_CLASSIFIER_RUN = lazy_regex.compile(r"(?i)classif\w*|cross[ _-]?entropy|crossentropy|nll_?loss|softmax|\baccuracy\b|\bacc\b|"
                                     r"top-?[15]\b|error_rate")
_NOT_ONE_CROSS_ENTROPY = lazy_regex.compile(r"(?i)(?<!logistic )regress\w*|\bmse\b|mean[ _-]squared|squared[ _-]error|"
                                            r"\bl[12][ _-]?loss\b|\bmae\b|\btotal[ _]loss\b|\brpn\b|\broi\b|\bbbox\b|"
                                            r"\bbox[ _]loss\b|\bsum of\b")


def lowest_mean(values: list[float], k: int = LOW_RUN) -> tuple[float, int]:
    """The lowest mean of k values in a row, and where its run starts: a low that one lucky batch cannot make."""
    if len(values) < k:
        return (sum(values) / len(values), 0) if values else (math.inf, 0)
    run = sum(values[:k])
    best, at = run, 0
    for i in range(k, len(values)):
        run += values[i] - values[i - k]
        if run < best:
            best, at = run, i - k + 1
    return best / k, at


def _uniform_guess(ev: Evidence) -> tuple[tuple[int, str], float, str, str] | None:
    """The uniform guess the run's loss is read against: (the classes or the vocabulary the paste names, and how it
    names them; ln C in the log's own unit; the log's name; what they are, for the words), where the run is one
    cross-entropy's over them, a mean -- a language model's (its vocabulary named), or a classifier's (said, or an
    accuracy printed); else None."""
    named = classes_or_vocabulary(ev.prose)
    if named is None:
        return None
    vocabulary = vocabulary_named(ev.prose) is not None
    if not (vocabulary or _CLASSIFIER_RUN.search(ev.prose) or _accuracy_printed(ev)) \
            or _NOT_ONE_CROSS_ENTROPY.search(ev.prose) or NOT_A_MEAN.search(ev.prose) or LOSS_SUMMED.search(ev.prose):
        return None
    per_unit, _unit, log = loss_unit(ev.dialect)
    over = f"over the vocabulary's {named[0]} tokens" if vocabulary else f"over the {named[0]} classes"
    return named, math.log(named[0]) / per_unit, log, over


def pinned_at_uniform(ev: Evidence) -> str:
    """A classifier's or a language model's loss (_uniform_guess), SHAPE_MIN values or more, that never went
    LEARNED_BELOW_UNIFORM or more below ln C and whose last LEVEL_MIN values or more sit within PINNED of it: a uniform
    guess, the loss of a model that has learned nothing of its input -- whatever its first value was (a logger's first
    window that held a start above it); or ""."""
    vals = ev.before
    # (SHAPE_MIN values or more: a healthy run's first few prints sit at ln C too)
    if ev.first_nonfinite is not None or len(vals) < SHAPE_MIN or (uniform := _uniform_guess(ev)) is None:
        return ""
    named, guess, log, over = uniform
    n = 0
    while n < len(vals) and abs(vals[-1 - n] - guess) <= PINNED * guess:
        n += 1
    if n < LEVEL_MIN or min(vals) < (1 - LEARNED_BELOW_UNIFORM) * guess:
        return ""
    return (f"the loss sits at {log} {named[0]} = {fmt(guess)}, the loss of a uniform guess {over} "
            f"({named[1]}), within {PINNED:.1%} in its last {counted(n, 'value')} ({ev.where(ev.before_start + len(vals) - n)} "
            f"to {ev.where(ev.count - 1)}), and was never {LEARNED_BELOW_UNIFORM:.0%} or more below it: a model that has "
            "learned nothing of its input")


def _back_at_uniform(ev: Evidence) -> str:
    """A classifier's loss that learned (LOW_RUN values in a row LEARNED_BELOW_UNIFORM or more below ln C, the
    cross-entropy of a uniform guess over the C classes or the vocabulary the paste names), climbed to EXCURSION times
    ln C or more, and came back down only to ln C, where its last AT_UNIFORM_LAST values or more sit -- or, with no such
    climb, went straight back to ln C and is pinned there (LEVEL_MIN values within PINNED of it): what a run does
    once a step too large has thrown its weights off, or killed the units before its output -- the output's bias, all it
    has left, scores about ln C on balanced classes. (A uniform output scores ln C; the converse need not hold, so this
    says only that the loss is the guess's.) '' otherwise, and for a loss still coming down to ln C from above, where a
    healthy run starts."""
    vals = ev.before
    if ev.first_nonfinite is not None or len(vals) < LOW_RUN + AT_UNIFORM_LAST + 1 \
            or (uniform := _uniform_guess(ev)) is None:
        return ""
    named, guess, log, over = uniform
    per_unit = loss_unit(ev.dialect).per_unit
    n = AT_UNIFORM_LAST
    if not all(at_uniform(v * per_unit, named[0]) for v in vals[-n:]):
        return ""
    while n < len(vals) - 1 and at_uniform(vals[-n - 1] * per_unit, named[0]):
        n += 1
    earlier = vals[:-n]
    low, low_at = lowest_mean(earlier)
    peak = max(earlier[low_at:], default=0.0)
    pinned = n >= LEVEL_MIN and all(abs(v - guess) <= PINNED * guess for v in vals[-n:])
    if not (0 < low <= (1 - LEARNED_BELOW_UNIFORM) * guess and (peak >= EXCURSION * guess or pinned)):
        return ""
    where = ev.before_start
    return (f"the loss fell to a mean of {fmt(low)} over {LOW_RUN} values ({ev.where(where + low_at)} to "
            f"{ev.where(where + low_at + LOW_RUN - 1)}), below {fmt(guess)} -- {log} {named[0]}, the loss of a uniform "
            f"guess {over} ({named[1]}) -- then "
            + (f"climbed to {fmt(peak)} and came back down only to that guess" if peak >= EXCURSION * guess else
               "went back to that guess") + ": its last "
            f"{counted(n, 'value')} ({ev.where(where + len(vals) - n)} to {ev.where(ev.count - 1)}) sit at it, within "
            f"{UNIFORM_NEAR:.0%}. Its loss is what a uniform guess scores, as if it had learned nothing of the input: "
            "what it learned is lost, as when a step too large throws the weights off or kills the units before the "
            "output -- a collapse, not a recovery")


def _a_training_run_from_its_start(ev: Evidence) -> bool:
    """Are the values a training loss's from the run's start, with no nan or inf said: where a climb back from the
    lowest is the run's own (not a validation loss's, an overfitting's, nor a cut short blow-up's)?"""
    return at_run_start(ev) and not words_say_nonfinite(ev) and not not_training(ev)


def _since_lowest(ev: Evidence) -> list[float]:
    """The values from the lowest to the end, in a run with no non-finite value whose lowest the kept values hold; else
    []."""
    if ev.low_at is None or ev.first_nonfinite is not None or ev.low_at < ev.before_start:
        return []
    return ev.before[ev.low_at - ev.before_start:]


# Rises in a row up to a peak that make it a climb, not a jump: three prints each above the one before
CLIMB_RISES = 3


def _settled_above(ev: Evidence) -> tuple[str, list[str]] | None:
    """A run that lost what it had learned in one jump and no longer moves: the loss came down from its peak only to a
    level at least DOUBLED its lowest before the peak, and its last values hold that level (to SETTLED_SPREAD), as the
    best constant's loss does once a jump has killed every unit of a layer and left one output for every input
    (_frozen_after_jump asks the same of a loss that froze to every printed digit; this one may still flicker in its last
    digit). Not a loss still coming down, nor one that came back near its lowest."""
    vals = ev.before
    if ev.first_nonfinite is not None or ev.count != len(vals) + ev.before_start or len(vals) < SETTLED_MIN + 2:
        return None
    peak = max(range(len(vals)), key=vals.__getitem__)
    tail = vals[peak + 1:]
    if peak == 0 or len(tail) < SETTLED_MIN:
        return None
    level, low = vals[-1], min(vals[:peak])
    n, top, bottom = 1, level, level          # (the spread of the last n, kept as it grows: one pass)
    while n < len(tail) and max(top, tail[-n - 1]) - min(bottom, tail[-n - 1]) <= SETTLED_SPREAD * level:
        top, bottom, n = max(top, tail[-n - 1]), min(bottom, tail[-n - 1]), n + 1
    if n < SETTLED_MIN or not (low > 0 and min(tail) >= DOUBLED * low) or vals[peak] < (1 + PLATEAU_FALL) * max(tail):
        return None
    # (a jump: not a climb that rose print after print up to the peak, the overshoot's own face -- a rate raised by a
    # warmup past what the run can take climbs so)
    if _rises_before(vals[:peak + 1]) >= CLIMB_RISES:
        return None
    start, low_at = ev.count - n, vals.index(low) + ev.before_start
    return ("stall-after-drop",
            [f"the loss jumped to {fmt(vals[peak])} at {ev.where(peak + ev.before_start)} and came down only to "
             f"{fmt(level)}, {level / low:.3g}x its lowest before the jump ({fmt(low)} at {ev.where(low_at)}), where it "
             f"stayed: its last {n} values ({ev.where(start)} to {ev.where(ev.count - 1)}) are within "
             f"{SETTLED_SPREAD:.1%} of one another. The run lost what it had learned and no longer moves, as when a "
             "jump kills every unit of a layer and leaves one output for every input (its loss is then the best "
             "constant's: the labels' entropy for a classifier, ln C on C balanced classes; the targets' variance for a "
             "squared error)"])


def _frozen_early(ev: Evidence) -> tuple[str, list[str]] | None:
    """A short run whose loss froze from its first prints: a plateau when it froze near its first value, else a
    stall after the drop its first values made."""
    if not (FROZEN_FEW < ev.count < SHAPE_MIN) or ev.first_nonfinite is not None or ev.low is None or ev.low <= 0 \
            or ev.count != len(ev.before) + ev.before_start or not at_run_start(ev):
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
                                       f"value {fmt(first)} ({ev.where(0)}), and {same}: it never learned"])
    return ("stall-after-drop", [f"the loss froze: {same}, after its first values moved (from {fmt(first)} at "
                                 f"{ev.where(0)}): the outputs no longer change, as when every unit of a layer has "
                                 "died or the model predicts one distribution for every input"])


# A pasted loop (backward() and step()) of an adaptive optimizer built in it, with no scheduler and no warmup anywhere
# in the paste: the rate it was built with is the rate of its first step (WR-250's own setting, shown by the code)
ADAPTIVE_BUILT = lazy_regex.compile(r"\b(?:optim\.|optimizers\.|optax\.)?(?:Adam\w*|adam\w*|RMSprop|rmsprop|Adagrad|Adafactor|Lion|"
                                    r"LAMB|Lamb)\s*\(")
SCHEDULED = lazy_regex.compile(r"(?i)sched|warm-?up|lr_lambda|lambdalr|onecycle|linearlr|cosine|get_\w*schedule|param_groups|"
                               r"set_lr|\.lr\s*=|learning_rate\s*=\s*[a-z_]\w*\s*\(")


def _loop_without_schedule(prose: str) -> str:
    """" in a pasted loop ..." where the paste steps an adaptive optimizer it builds, with no scheduler or warmup
    anywhere in it; or ""."""
    built = ADAPTIVE_BUILT.search(prose)
    if not built or ".backward(" not in prose or not re.search(r"\.step\(", prose) or SCHEDULED.search(prose):
        return ""
    return f" in a pasted loop that steps {_optimizer_named(built)} with no scheduler or warmup anywhere in the paste"


# ... or said in words, with its rate ("Adam with lr 1e-3", "AdamW 3e-4"), where nothing in the paste names a schedule or
# a warmup: a rate given as one number is the run's from its first step
# (the rate right after the name, or after "lr"/"learning rate" -- not another setting's number: "weight decay 0.01",
# "betas 0.9, 0.999", "dropout 0.1")
ADAPTIVE_RATE_SAID = lazy_regex.compile(r"(?i)\b(" + ADAPTIVE.pattern.removeprefix(r"\b(?:").removesuffix(r")\b") + r")\b"
                                        r"(?:\s*\(\s*|\s+with\s+(?:an?\s+)?|\s*,\s*|\s+at\s+|\s+)"
                                        r"(?:(?:lr|learning[ _]rate)(?:\s*[=:]\s*|\s+(?:of|at)\s+|\s+))?"
                                        r"(?<![\w.])(\d(?:\.\d+)?e-\d{1,2}|0\.0*[1-9]\d*)(?![\w.])")
# (a decay of the rate said in words: a schedule too)
# (not weight decay: "lr 3e-4, weight decay 0.05" names no schedule)
RATE_DECAY_SAID = lazy_regex.compile(r"(?i)\b(?:lr|learning[ _]rate)\b[^.\n]{0,30}?(?<!weight )(?<!weight_)(?<!weight-)\bdecay|"
                                     r"(?<!weight )(?<!weight_)(?<!weight-)\bdecay(?:ed|s)?\s+(?:by|every)\b|"
                                     r"\b(?:steplr|multisteplr|exponentiallr|reducelronplateau)\b")


def _rate_said_without_schedule(prose: str) -> str:
    """" under Adam at 0.001 ..." where the words give an adaptive optimizer's rate as one number and the paste names
    no scheduler or warmup anywhere, nor a batch of a few examples; or ""."""
    said = ADAPTIVE_RATE_SAID.search(prose)
    # (nor beside a batch of a few examples, whose mean loss jumps that much from one batch to the next)
    if not said or SCHEDULED.search(prose) or RATE_DECAY_SAID.search(prose) or _small_batch(prose):
        return ""
    return f" under {said.group(1)} at a rate of {said.group(2)}, with no schedule or warmup named anywhere in the paste"


# (schedules that raise the rate first whatever their words: OneCycleLR from max_lr / div_factor over pct_start of the
# run, a ramp up of the rate said in other words (ramped_up), timm's train.py, whose --warmup-epochs is on by default)
RISES_FIRST = lazy_regex.compile(r"(?i)one-?cycle|linear(?:ly)?\s+(?:ramp|increas)|\btimm\b[^.\n]{0,40}?\btrain\.py\b|"
                                 r"\btrain\.py\b[^.\n]{0,40}?\btimm\b|cosine\s+(?:similarity|distance|embedding|loss)")


def _rate_rises_first(ev: Evidence) -> bool:
    """Does the log print a learning rate that rises over its first values (a warmup the log shows)?"""
    rates = [p.rate for p in ev.head_at[:SPIKE_WINDOW] if p.rate is not None]
    return any(later > earlier for earlier, later in zip(rates, rates[1:]))


# ... or a decaying schedule named beside an adaptive optimizer, in a paste that names no warmup anywhere: "AdamW,
# cosine decay from 1e-4 to 0". A cosine or step decay without a warmup of its own takes its first step at its top rate
# (CosineAnnealingLR, optax.cosine_decay_schedule, Keras's CosineDecay with its warmup_steps left at 0): the no-warmup
# setting, said with the schedule
def _decay_from_the_top(ev: Evidence) -> str:
    """" under AdamW, whose cosine schedule ..." where the words name an adaptive optimizer and a decaying schedule, and
    nothing in the paste names a warmup, a schedule that raises the rate first (RISES_FIRST) or a batch of a few
    examples, and the log prints no rate that rises over its first values; or ""."""
    prose = ev.prose
    named = ADAPTIVE.search(prose)
    decay = COSINE_SAID.search(prose) or RATE_DECAY_SAID.search(prose)
    if not named or not decay or WARMUP_NAMED.search(prose) or RISES_FIRST.search(prose) or ramped_up(prose) or _small_batch(prose) \
            or " similarity" in decay.group(0).lower() or _rate_rises_first(ev):
        return ""
    return (f" under {named.group(0)}, with a decaying schedule (\"{' '.join(decay.group(0).split())}\") that starts at "
            "its top rate and no warmup named anywhere in the paste")


def _one_rate_from_start(ev: Evidence) -> str:
    """" in a run whose ..." where the run took one rate from its first step, as the log prints it (flat or falling
    from the first value), a pasted loop with no scheduler shows it, the words give it as one number, or a decay
    starts at its top; or ""."""
    return (_rate_flat_from_start(ev) or _loop_without_schedule(ev.prose) or _rate_said_without_schedule(ev.prose)
            or _decay_from_the_top(ev))


def _optimizer_named(built: re.Match) -> str:
    """The optimizer's name as ADAPTIVE_BUILT found it built: `torch.optim.AdamW(` is AdamW."""
    return built.group(0).rstrip("( ").split(".")[-1]


def _adaptive(ev: Evidence) -> bool:
    """Does the run step with an adaptive optimizer: one the paste names, or its tool's default where it names no plain
    one?"""
    if ADAPTIVE.search(ev.prose):
        return True
    dialect = dialect_named(ev.dialect)
    return bool(dialect and dialect.adaptive_default) and not PLAIN_SGD.search(ev.prose)


def _rate_flat_from_start(ev: Evidence) -> str:
    """" in a run whose log prints ..." where the rate printed beside each of the first values, from the run's first
    step, is one and the same, or falls and never rises (a decay from step 0: Hugging Face's linear schedule with
    warmup_steps=0) -- no warmup, which raises it -- beside an adaptive optimizer; or ""."""
    rates = [p.rate for p in ev.head_at[:SPIKE_WINDOW]]
    if len(rates) < 3 or None in rates or not rates[0] > 0 or not at_run_start(ev) or not _adaptive(ev) \
            or any(later > earlier for earlier, later in zip(rates, rates[1:])):
        return ""
    if len(set(rates)) == 1:
        return f" in a run whose log prints the same learning rate, {rates[0]:g}, from its first step (no warmup)"
    # (a decay from the first value printed is no warmup only where the paste sets none: one shorter than the logging
    # interval, `warmup_steps=50` beside `logging_steps=100`, is over before the first print)
    if WARMUP_SET.search(ev.prose):
        return ""
    return (f" in a run whose log prints the learning rate at its highest, {rates[0]:g}, at its first value and "
            f"falling from there ({rates[-1]:g} after {len(rates)} values): no warmup")


# The same rate, printed from a first value at the run's very first steps, beside a loss that rose above its first value
# within its first prints: the full rate's first steps, where they show (a run that fell from its start and broke
# later kept one rate from its start, as many healthy runs do). The first print must come within the first
# WARMUP_PRINTED_BY steps (by its step number), or within the first EARLY_EPOCH of an epoch (by a fraction of an epoch,
# as Hugging Face's Trainer prints it: rounded to two decimals, `'epoch': 0.0`, by `round(self.state.epoch, 2)` in
# Trainer.log at v4.16.2, and whole at v4.51.0, `logs["epoch"] = self.state.epoch`) where the paste sets a logging
# interval of WARMUP_PRINTED_BY steps or fewer: a warmup of a few hundred steps is over by a first print at step 500,
# the Trainer's default interval (HF_LOGGING_STEPS).
WARMUP_PRINTED_BY, EARLY_EPOCH, EARLY_PRINTS = 50, 0.005, 3
# ... a rise of 3% or more: not the noise of a loss that sits where it started (2.3026, 2.3031, 2.3019)
EARLY_RISE = 1.03


def rate_at_top_as_the_loss_rose(ev: Evidence) -> str:
    """"the loss rose from ... in a run whose log prints ...: no warmup" (_rate_flat_from_start), where the first print
    is at the run's first steps and the loss rose above its first value within EARLY_PRINTS prints; or ""."""
    flat = _rate_flat_from_start(ev)
    first = ev.at(0)
    # (a warmup the paste sets refuses the constant rate here too, which _rate_flat_from_start reads whatever is set:
    # beside a spike it is read with the words' own refusal)
    if not flat or first is None or WARMUP_SET.search(ev.prose):
        return ""
    step, epoch = step_number(first), epoch_number(first) or ""
    # (by a fraction of an epoch, the Trainer's numbering, only with the logging interval the paste sets: its default,
    # HF_LOGGING_STEPS, is 'epoch': 0.0 too on an epoch of 100,000 steps)
    every = LOGGING_STEPS.search(ev.prose)
    if not (step <= WARMUP_PRINTED_BY if step is not None else "." in epoch and float(epoch) < EARLY_EPOCH
            and every is not None and int(every.group(1)) <= WARMUP_PRINTED_BY):
        return ""
    rise = next((i for i in range(1, min(EARLY_PRINTS, len(ev.head))) if ev.head[i] >= EARLY_RISE * ev.head[0]), None)
    if rise is None:
        return ""
    return f"the loss rose from {fmt(ev.head[0])} at {ev.where(0)} to {fmt(ev.head[rise])} at {ev.where(rise)}{flat}"


# A run that broke -- its loss turned non-finite, or a climb the loss watch flags began -- by this step of the log's own
# numbering, from a first print at the run's start, at the rate it started with: the warmup-less first steps are a
# suspect beside the rate itself. WR-250's page puts such a break in "its first few hundred steps"; the bound is where
# Adam's second moment, an average with weight beta2 = 0.999 on the past (its default), first holds its steady-state
# number of gradients, 1 / (1 - beta2) = 1000 -- before that its scale rests on fewer, the regime Liu et al. 2020 trace
# the early instability to (its variance is unbounded only for the first few steps, and falls after)
EARLY_BREAK_STEPS = 1000


def broke_early_without_warmup(ev: Evidence, sig: Signature) -> str:
    """"the loss broke at ..., within the first EARLY_BREAK_STEPS steps, in a run whose log prints ..." where nothing sets
    a warmup and the rate is one from the start (printed the same or falling from the first step, a pasted loop with no
    scheduler, a rate said as one number, a decay from the top) under an adaptive optimizer; or ""."""
    if WARMUP_SET.search(ev.prose) or not at_run_start(ev) or not _adaptive(ev):
        return ""
    at = ev.first_nonfinite if ev.first_nonfinite is not None else sig.climb_warning
    pos = ev.at(at) if at is not None else None
    step = step_number(pos) if pos is not None else None
    # (a step counted within its epoch is the run's own only in the epoch the log starts in: where an earlier epoch's
    # print counted as far or further, the count restarted, and `epoch 4 step 500/1000` is past 3000)
    epoch = epoch_number(pos) if pos is not None else None
    restarted = epoch is not None and any(
        (e := epoch_number(p)) is not None and e != epoch and (n := step_number(p)) is not None and n >= step
        for p in ev.head_at[:at] if p is not None) if step is not None else False
    if step is None or step > EARLY_BREAK_STEPS or restarted:
        return ""
    flat = _one_rate_from_start(ev)
    if not flat:
        return ""
    how = "turned non-finite" if at == ev.first_nonfinite else "began to climb"
    return f"the loss {how} at {ev.where(at)}, within the first {EARLY_BREAK_STEPS} steps,{flat}"


def did_not_fall(ev: Evidence) -> bool:
    """Does the loss end no more than PLATEAU_FALL below its first value (three values or more, all finite)?"""
    return ev.count >= 3 and ev.first_nonfinite is None and ev.last > (1 - PLATEAU_FALL) * ev.head[0]


# A sparse log's last values stand for the epochs between them: three values at least (two printed epochs apart say no
# more than where the log was cut) that its own epoch numbers say span FLAT_EPOCHS epochs or more -- as many as the
# tail of a log printed every epoch (SHAPE_MIN // 2 values) stands for
FLAT_NUMBERED_MIN, FLAT_EPOCHS = 3, SHAPE_MIN // 2


def flat_tail(ev: Evidence) -> bool:
    """Do the last SHAPE_MIN // 2 values (all above zero) lie within PLATEAU_FALL of their lowest: a loss that has
    stopped moving, wherever it stopped? Or, in a log printed sparsely or cut short ("..." between epoch 8 and epoch
    39), the last FLAT_NUMBERED_MIN values or more that do, and that the log's own epoch numbers say span FLAT_EPOCHS
    epochs or more?"""
    tail = ev.before[-(SHAPE_MIN // 2):]
    if len(tail) == SHAPE_MIN // 2 and min(tail) > 0 and _within(tail, PLATEAU_FALL):
        return True
    places = ev.before_at[-len(ev.before):] if len(ev.before_at) >= len(ev.before) else []
    k = next((k for k in range(min(len(places), SHAPE_MIN // 2), FLAT_NUMBERED_MIN - 1, -1)
              if min(ev.before[-k:]) > 0 and _within(ev.before[-k:], PLATEAU_FALL)), 0)
    if not k:
        return False
    spanned = _epochs_between(places[-k], places[-1])
    return spanned is not None and spanned >= FLAT_EPOCHS


def _within(values: list[float], tolerance: float) -> bool:
    low, high = min(values), max(values)
    return high - low <= tolerance * low
