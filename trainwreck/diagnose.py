"""From the evidence in a log or a report to the entries that explain it.

Four kinds of evidence are weighed for each entry: the shape of the loss curve
against the entry's declared signature, the messages found against the ones it
declares, the report's plain words against what the entry says about itself
(entry_documents.py), and when the failure showed (from the first value, after the
first updates, after a while) against when the entry's signature shows it.
An entry is named only when the evidence is specific and no other entry comes
close; otherwise the answer is "cannot tell yet", with the candidates and the
one thing to paste that would decide between them.
"""
from __future__ import annotations

import itertools
import math
import re
from dataclasses import dataclass, field, replace

from .breaking_constructs import breaking_construct
from .catalog import Catalog
from .clip_unused import clip_never_applied
from .curve_shape import (FLAT, LOW_RUN, PLATEAU_FALL, RECOVERED, SHAPE_MIN, SWINGS, UNFINISHED, Signature, at_run_start, did_not_fall,
                          fmt, lowest_mean, recurring_swings, signature_of)
from .entry import TRACES, Entry
from .fix_steps import SENTENCE_END, first_fix_parts, first_fix_step, fix_item, unemphasised
from . import validation_curve
from .logscan import KEEP, Evidence
from .logscan.evidence import only, with_values, without_first
from .logscan.dialects.prose_values import DIALECT as SENTENCE_VALUES
from .logscan.hidden import with_hidden
from .logscan.layout import validation_rows
from .logscan.cleaning import WORKER_PREFIX
from .logscan.messages import WARNING
from .logscan.numbers import to_float
from .logscan.positions import at_its_start, counted_on, epoch_on, last_epoch, named_step, starts_again, step_number
from .logscan.scale_zero import MESSAGE, SAME_AS, WHY, scale_zero_key, without_scale_zero
from .logscan.stops import COMPANIONS, stop_of, with_stop, without_stops
from .data_order import (flip_swaps_classes, frame_sampled_alone, listed_files_zipped_apart, loaders_shuffled_apart,
                         shuffled_alone, shuffled_apart, unshuffled_loader)
from .frozen_said import one_output_said
from .gradient_clearing import accumulation_fix, summed_prints
from .loss_inputs import GAN_NAMED, HANDED_FIX, NEGATIVE
from .optimizer_setup import (RATE_CLIMB, RATE_CLIMBS, RATE_VANISHED, decay_pulls_to_zero,
                              module_replaced_after_optimizer, module_unfrozen_by_attribute,
                              scheduler_stepped_per_batch)
from .run_kind import shown_frameworks
from .sequence_losses import copying_language_model, ctc_inf
from .split_gap import new_data_gap
from .start_loss import pretrained_at_uniform, uniform_start
from .weighing import (CODE_CONSTRUCTS, HANDED_BELOW_ZERO, PASTED, W_NEGATIVE, W_PRINTED, W_TRIED, WEIGHTS, Context, Weigher, Weights, bare_op,
                       context_of, message_finder, op_named, weigh, weigher)
from .normals import (BENIGN_WARNINGS, NATS_BITS, Normal, RESTARTED, UNIFORM_START, gan_failure_said, nats_as_bits,
                      normals_asked)
from .precision_said import precision_face
from .rate_tried import lr_tried, rate_zero_failed
from .run_said import (STUCK, loss_climb_said, says_failure, says_not_learning, short_of_a_trivial_reference,
                       short_of_reference_said,
                       untrained_output_nonfinite)
from .schedule_said import restarts_said
from .sentences import YES_NO, mostly_prose
from .thesaurus import tokens
from .timing_words import timing_of
from . import lazy_regex
from .lazy_regex import PatternLike

# What a caller of the engine needs comes from here: the finder the scan takes, the diagnosis, the curve's signature.
__all__ = ["Diagnosis", "Match", "diagnose", "message_finder", "signature_of", "weigher"]

# Naming an entry takes a score of CONFIDENT and a lead of MARGIN over the next one.
CONFIDENT, MARGIN = 2.5, 1.0
# Candidates whose scores are within EVEN of the first's are about even: a quarter of half a printed fact, the
# difference a word more or less of the entry's own phrasing makes -- the report says the evidence does not order them.
EVEN = 0.25
CANDIDATES = 3
# The parts of a score that are evidence of the entry's own (not words alone, nor timing, nor a prior):
# beside a named entry and its runners-up, the others are listed only with one of them.
# A fact of the paste that is one face of its entries, and the label of that face's item in their Fix section
FACT_FIX = {"one-class-iou": "Masks scaled like the images", "mask-scaled": "Masks scaled like the images"}
# Facts of the paste that make an entry a candidate on their own, beside a curve that shows another's signature.
SAID_FACTS = ("softmax-floor", "unscaled-inputs", "unscaled-targets", "minus-one-labels", "ctc-blank-label", "mask-255", "one-class-iou", "mask-scaled", "clip-after-step", "raw-pixels",
              "never-cleared", "accumulated-undivided", "cleared-outside", "pairing", "exp-overflow", "exp-overflow-printed", "masked-row-printed", "raw-targets", "constant-feature", "zero-items", "zero-init", "large-init",
              "flushed", "scale-collapse", "precision",
              "full-precision", "masked-inf", "log-unguarded", "log-raw-output", "exp-unshifted", "sqrt-at-zero", "same-batch",
              "first-layers", "activations-grow", "feature-scales", "nll-of-probabilities", "ctc-not-log-probabilities", "sigmoid-twice-printed",
              "clip-unengaged",
              "adaptive-rate-high", "std-unguarded", "std-nan-printed", "one-output", "weights-frozen", "rounded-away", "start-high", "accuracy-rose-said",
              "early-jump", "no-warmup", "loop-unscaled", "update-discarded", "raw-targets-said", "target-size", "input-stats-nonfinite", "input-range", "own-data-only", "classes-counted", "classes-short", "labels-past-outputs", "labels-past-classes",
              "masked-row-every-batch", "untrained-output-enormous", "width-no-effect", "inverse-unguarded",
              "dead-units", "dead-units-printed", "units-alike", "item-std-unguarded", "norm-unguarded", "relu-norm-unguarded", "faster-start",
              "froze-after-jumps")
# ... of which these hold the paste's own printed numbers to an entry's mechanism, or are its own check done: beside
# words alone, evidence specific enough to name an entry (diagnose._decide)
PRINTED_PROOF = tuple(fact for fact in SAID_FACTS if fact.endswith("-printed")) + ("full-precision",)
# ... of which these show or say a cause, one entry's (no warmup, raw inputs, weights set to zero, gradients never
# cleared), where the others are symptoms several entries share (dead units, one output for every input): a curve's
# shape alone names no entry beside a runner-up that holds one (_decide)
CAUSES_SHOWN = ("no-warmup", "unscaled-inputs", "unscaled-targets", "raw-pixels", "raw-targets", "raw-targets-said", "target-size", "input-stats-nonfinite", "input-range",
                "zero-init", "large-init", "never-cleared", "accumulated-undivided", "cleared-outside", "pairing",
                "minus-one-labels", "ctc-blank-label", "mask-255", "mask-scaled", "labels-past-outputs", "labels-past-classes",
                "clip-after-step", "clip-unengaged", "adaptive-rate-high", "constant-feature", "zero-items", "feature-scales")
SPECIFIC = ("curve", "messages", "start", "negative", "zero-gradient", "accuracy-rose", "sigmoid-zero", "rate-rose",
            "softmax-floor")
# ... of which these are shared by every entry of the curve's shape: past the first three, they list no one
SHARED = ("curve", "start")
# The parts of a score that the words' overlap with an entry and the report's timing give, and nothing else
WORDS_ONLY = frozenset({"words", "prior", "when"})


@dataclass
class Match:
    entry: Entry
    score: float
    evidence: list[str]
    against: list[str]
    fix: str
    parts: dict[str, float] = field(default_factory=dict)   # the score, by kind of evidence
    # the fix as a terminal lists it, where it is the Fix section's opening and the items of its list: the opening,
    # then each item (`fix` joins them into one sentence)
    fix_lines: tuple[str, ...] = ()
    # the fact of the paste whose face the curve was counted as (weighing.FACT_FACES), or ""
    face: str = ""


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
    trend: str = ""                # beside a normal verdict about overfitting or a gap: the validation loss's course
    warnings_unweighed: int = 0    # of the unweighed, Python warnings (said, but they stop nothing: no "not covered")
    even: int = 0                  # of an uncertain verdict's candidates, how many from the first are about even (EVEN)
    fell_said: bool = False        # the words say the loss fell and then broke (Context.fell_said)


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
    lazy_regex.compile(r"(?i)['\"]?(?<![a-z0-9_])(?<!best )(?<!min )(?<!lowest )" + VALIDATION_TAG + r"[ _/-]?loss"
                       + KEY_TO_VALUE + NONFINITE_VALUE),
    # a tag that opens the line as a tool prints one, `[eval]`, `(val)`, `Validation:`, `Eval |`, `Test set:` (PyTorch's
    # MNIST example: `Test set: Average loss: nan`), not a sentence's first word
    lazy_regex.compile(r"(?im)^[ \t]{0,8}(?:[\[(]" + VALIDATION_TAG + r"[\])]|" + VALIDATION_TAG
                       + r"(?:[ \t]set)?[ \t]{0,8}[:|])"
                       r"[^\n]{0,200}?(?<![a-z0-9_])loss(?![a-z0-9_])" + KEY_TO_VALUE + NONFINITE_VALUE),
]


def _printed(pattern: PatternLike, prose: str) -> re.Match | None:
    """The first match of the pattern on a line the log printed, before one in a sentence of the report's: "Loss is 0.0
    from the first log line and grad_norm is nan, eval_loss nan" says what the Trainer printed further down, where
    its place is (review_session41 i26 had placed it at line 1, before the training loss broke)."""
    said = None
    for m in itertools.islice(pattern.finditer(prose), 50):
        start = prose.rfind("\n", 0, m.start()) + 1
        end = prose.find("\n", m.end())
        if not mostly_prose(prose[start:end if end >= 0 else len(prose)]):
            return m
        said = said or m
    return said


def _validation_nonfinite(ev: Evidence) -> tuple[str, int]:
    """Where the report first shows a non-finite validation loss (in its start, as pasted), and its line; or ("", 0)."""
    found = [(m.start(), m.group(1), m.group(0).strip()) for pattern in VALIDATION_NAN if (m := _printed(pattern, ev.prose))]
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
NAN_WORD = lazy_regex.compile(r"\bnan\b|\binf\b|infinit|non-finite|not finite", re.I)
# A fresh run of the same model starts near where the first one did: within this factor (another model's
# loss printed after the first one's, thousands of times larger, is no restart of it).
RESTART_NEAR = 10.0


def _loss_starts_again(run: list[float], value: float) -> bool:
    """Is the value back near where the run before it started (within RESTART_NEAR of its first value), and
    nearer that than where it left off (if it left off finite)? A run that starts non-finite after one that ended finite (a change of
    precision, broken from its first step) starts again too; and so does one that starts finite after a run with no
    finite value at all (non-finite from its first step: the weights it left were nan, and a finite loss after the count
    started again is another start -- the same model back in full precision)."""
    finite = [v for v in run if math.isfinite(v)]
    if not finite:
        return math.isfinite(value)
    if not math.isfinite(value):
        return math.isfinite(run[-1])
    first, last = finite[0], finite[-1]
    if min(first, value) <= 0:
        return False
    near = abs(math.log(value / first))
    # (a run that left off non-finite left off nowhere: back near its start, the loss starts again)
    return near < math.log(RESTART_NEAR) and (last <= 0 or not math.isfinite(run[-1]) or near < abs(math.log(value / last)))


# A line that opens with a run's own label: "run B:", "Run 2 -", "seed 3:", "launch #2:", "attempt 2)" -- its name and
# its id, a capital letter or a number (not "Runs:")
RUN_LABEL = lazy_regex.compile(r"(?i)^[ \t]*(?P<label>(?:run|launch|seed|trial|attempt)(?:[ \t]*#[ \t]*|[ \t]+)(?:(?-i:[A-Z])|\d{1,4}))"
                               r"[ \t]*[:)\-\u2013]")


def _label_of(lines: list[str], line: int) -> str:
    """The run's label that opens this line of the paste (lowercased, spaces and # dropped), or ""."""
    m = RUN_LABEL.match(lines[line - 1]) if 0 < line <= len(lines) else None
    return re.sub(r"[\s#]", "", m.group("label").lower()) if m else ""


def _one_run(ev: Evidence) -> Evidence:
    """Several runs pasted one after another (a restart, k folds) are not one curve: the first run whose
    loss turned non-finite is read -- the one asked about -- or, if none did, the last."""
    at = ev.head_at
    if not 2 <= ev.count <= KEEP or not len(ev.head) == len(at) == ev.count:
        return ev
    # a run goes on after its start (a summary line that quotes an earlier epoch is no run), and a fresh run's
    # loss starts again too (_loss_starts_again: an evaluation loop numbered like the training, or another
    # model's loss, is no new run)
    # (or a run the paste labels as one, "run B: step 0 loss ...", "seed 2:", where its count starts again and the label
    # is not the one before it: a launch whose weights broke from its first step starts far from the last one, and is
    # no less a run of its own -- while one trial's log, `Trial 3: step 0 ...` on every line, is one run)
    lines = ev.prose.split("\n")
    starts = [0]
    # (a labelled run of one value, "run C: step 0 loss nan", is one too)
    for i in range(1, ev.count):
        if not starts_again(at[i - 1], at[i]):
            continue
        label = _label_of(lines, at[i].line)
        # (or a last value alone, non-finite at its run's first step after a run that ended finite: "now the very
        # first loss is inf", pasted after the run before the change)
        alone = i == ev.count - 1 and not math.isfinite(ev.head[i]) and at_its_start(at[i])
        if label and label != _label_of(lines, at[i - 1].line) or (
                (i < ev.count - 1 and counted_on(at[i], at[i + 1]) or alone)
                and _loss_starts_again(ev.head[starts[-1]:i], ev.head[i])):
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


# A first print that holds one batch where the next holds n of them: the next is about n times it, within this factor
# either way (the loss moves a little over n batches, not by a factor of 3)
SUM_RATIO = 3.0


def _as_means(ev: Evidence) -> tuple[Evidence, str]:
    """The evidence read as means, where the pasted loop prints a running loss as a sum of the n batches since its last
    print (gradient_clearing.summed_prints), with the sentence that says so; else the evidence as it is and ''. Only when its
    own numbers agree: a first print of one batch alone (`i % n == 0` prints after batch 0) must come out about n times
    smaller than the next."""
    found = summed_prints(ev.prose) if ev.count <= KEEP and ev.count >= 2 and ev.first_nonfinite is None else None
    if found is None or ev.before_start or not all(v > 0 for v in ev.head):
        return ev, ""
    name, n, first_alone = found
    v0, v1 = ev.head[0], ev.head[1]
    if first_alone and not n / SUM_RATIO <= v1 / v0 <= n * SUM_RATIO:
        return ev, ""
    # (each epoch's first print, at its batch 0, holds one batch alone where the log numbers it so; else the first)
    alone = ({0} | {i for i, pos in enumerate(ev.head_at[:ev.count]) if pos is not None and step_number(pos) == 0}
             if first_alone else set())
    means = [v if i in alone else v / n for i, v in enumerate(ev.head)]
    first = (f" (its first print, after batch 0, holds that one batch alone: the next, {fmt(v1)}, holds the {n} after it "
             f"and is {v1 / v0:.3g}x it)" if first_alone else "")
    note = (f"the printed loss is a sum, not a mean: the pasted loop adds each batch's loss to `{name}` and prints it "
            f"every {n} batches without dividing by {n}{first}; read as means, each sum divided by {n}")
    return with_values(ev, means, ev.head_at[:ev.count]), note


def diagnose(ev: Evidence, catalog: Catalog, weights: Weights = WEIGHTS) -> Diagnosis:
    w = weigher(catalog, weights.prose)
    # a check's stop is read within the run read (a second run, with a framework's nan check on, stopped by it)
    ev = with_stop(_run_values(with_hidden(ev)))
    zero = scale_zero_key(ev)                         # decided once, on the words as written
    if (prose := without_stops(ev)) != ev.prose:      # a framework's words are not the report's
        ev = replace(ev, prose=prose)
    if (prose := without_scale_zero(ev, zero)) != ev.prose:
        ev = replace(ev, prose=prose)
    ev, summed = _as_means(ev)
    sig = signature_of(ev)
    if summed:
        sig.facts[0] = f"{summed}: {sig.facts[0]}"
    c = context_of(ev, w, sig, weights, zero)
    # a question about normal behaviour is answered beside a curve too, when the curve shows no failure
    # (beside a curve, by their own words: a bare "is it normal?" asks about something the curve does not show)
    # (and beside any finite curve, an answer that one step's loss is noise, or, beside the values a sentence gives for
    # a finder's plot, that the loss is made to climb: what it explains is that curve)
    normals = (normals_asked(ev.prose) if c.words_count else
               normals_asked(BARE_ASK.sub(" ", ev.prose)) if sig.name == "healthy" and ev.size <= PASTED else
               [n for n in normals_asked(ev.prose)
                if n.explains_noise or n.explains_climb and _sweep_values(ev)
                or n.explains_plateau and sig.name == "plateau-from-start"]
               if ev.first_nonfinite is None and ev.size <= PASTED else [])
    # the values themselves go below zero: their sign is answered -- not where the words say the run does not learn or
    # its loss climbs, which a loss below zero does not explain (a negative SI-SNR that got worse is a failure still)
    if ev.low is not None and ev.low < 0 and not any(n.name == NEGATIVE.name for n in normals) \
            and not says_not_learning(ev.prose) and not loss_climb_said(ev.prose):
        normals.insert(0, NEGATIVE)
    # a loss below zero that this loss cannot reach is not normal: with these targets, or with what it was handed
    if c.impossible_negative or HANDED_BELOW_ZERO & c.printed.keys():
        normals = [n for n in normals if n.name != NEGATIVE.name]
    if did_not_fall(ev):
        normals = [n for n in normals if not n.falls]   # an answer that the loss falls, beside one that did not
    elif ev.count < 3 and any(n.falls for n in normals) and rate_zero_failed(ev.prose):
        # (... or beside words that a rate of 0 gives the same: a start no update made, and none unmakes)
        normals = [n for n in normals if not n.falls]
    if benign := _benign_warning(ev, sig):
        normals.insert(0, benign)
    # a first loss the words give that is ln C, in a report that asks: the uniform guess a healthy run starts from
    uniform = uniform_start(ev) if c.words_count and "?" in ev.prose else ""
    if uniform:
        normals.insert(0, UNIFORM_START)
    restarts = _restart_rises(ev) if sig.name == "healthy" else ""
    # (or said: a cosine schedule's restarts at the epochs the words give for the jumps it recovered from)
    said_restarts = restarts_said(c.sentences) if c.words_count and not restarts else ""
    if said_restarts:
        restarts = (f"the report names a cosine schedule and says the loss jumped and recovered at {said_restarts}: the "
                    "second at two or three times the first, counted from the start, where a warm restart with a "
                    "period that stays or doubles puts the rate back at its top")
    if restarts:
        normals.insert(0, RESTARTED)
        sig.facts.append(restarts)
    failure_shown = ev.first_nonfinite is not None or sig.name in TRACES or sig.name in UNFINISHED
    declared_found = {text for hits in c.hits.values() for text, _ in hits}
    matches = []
    for entry in w.entries:
        parts, evidence, against = weigh(entry, c, w, weights)
        score = sum(parts.values())
        # (beside a curve too short to judge, words that it does not learn name no candidate on their own: a fact of
        # the paste's must, or words of a nan, a climb or a rate tried)
        worded = (c.words_count or (c.unjudged and (any(parts.get(k, 0) > 0 for k in SAID_FACTS)
                                                    or c.said_nonfinite or c.lr_tried))) \
            and c.bm[entry.id] > 0 and c.said_failure
        # (a rate tried that says which way the failure moves names a candidate where a failure is shown or said: a
        # lower rate that only put it off names the entries it is the face of beside any curve; one that helped, the
        # rate's entries where the curve names none of its own)
        # (and one that failed at the same place names the entries that do not move with the rate, as put off does)
        tried = parts.get("tried", 0) >= W_TRIED and (c.lr_tried in ("delayed", "failed") or not failure_shown) and (
            failure_shown or bool(sig.enormous_start) or c.said_failure)
        if score > 0 and (parts.get("curve", 0) > 0 or parts.get("messages", 0) > 0 or worded or parts.get("negative")
                          or parts.get("start") or parts.get("prior") or tried
                          or any(parts.get(k, 0) > 0 for k in SAID_FACTS)):
            fix = sig.fix if sig.fix and entry.trace == sig.name else first_fix_step(entry)
            # (a message the log printed that shows one face of the entry: the Fix section's item for that face)
            printed = next((m.fix for m in entry.messages if m.fix and any(t == m.text for t, _ in c.hits[entry.id])), "")
            if printed and parts.get("messages", 0) > 0:
                fix = fix_item(entry, printed) or fix
            # (a fact of the paste that shows one face of the entry: the Fix section's item for that face)
            face = next((label for fact, label in FACT_FIX.items() if parts.get(fact, 0) > 0), "")
            if face:
                fix = fix_item(entry, face) or fix
            # (half precision already in use: the item for the face the paste shows, where no message chose one)
            if entry.id in w.precision and not face and not (printed and parts.get("messages", 0) > 0) \
                    and (step := precision_face(parts, ev.prose, c.half_shown,
                                                ev.first_nonfinite is not None or bool({"nan", "inf"} & set(c.words)))):
                fix = fix_item(entry, step) or fix
            if parts.get("clip-after-step", 0) > 0:     # (the fix the curve's reading of the same loop gives)
                fix = clip_never_applied(ev.prose)[1]
            if parts.get("accumulated-undivided", 0) > 0:       # (the entry's second fix: accumulation on purpose)
                fix = accumulation_fix(ev.prose)
            # (a loss that takes log-probabilities handed something else: its own first step, not the logits')
            fix = next((HANDED_FIX[k] for k in HANDED_FIX if parts.get(k, 0) > 0), fix)
            opening, items = first_fix_parts(entry)
            matches.append(Match(entry, round(score, 3), evidence, against, fix,
                                 {k: round(v, 3) for k, v in parts.items()},
                                 (opening, *items) if items and fix == first_fix_step(entry) else (),
                                 c.faces.get(entry.id, "")))
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
    if _hang_only(ev, c.words, declared_found, sig, c.sentences):
        matches = []                     # a run that hangs, with no loss gone wrong: not covered
        unweighed.append("the report describes a run that hangs or makes no progress, and no loss gone wrong (nan or "
                         "inf, a climb, a loss that does not learn): every entry is about one of those")
    at_inference = _inference_only(ev, c.words, declared_found, sig)
    if at_inference:
        matches = []                     # a model that trained well, failing at inference: not covered
        unweighed.append("the report says the model trained well and fails at inference, with no nan or inf: the "
                         "entries are about training that goes wrong; a model that trained well and fails at inference "
                         "points at a difference between the two: in the pipeline (the tokenizer or the "
                         "preprocessing loaded at inference, the model left in training mode, another checkpoint or "
                         "weights not loaded, another label order) or in the data (inputs unlike the ones it was "
                         "validated on; with no validation, overfitting)")
    if _another_error(ev, c, declared_found):
        matches = []                     # an error no entry declares, and nothing said of the loss: not covered
        unweighed.append("the report shows an error that no entry declares and says nothing of a loss gone wrong "
                         "(nan or inf, a climb, a loss that does not learn): every entry is about one of those")
    # a GAN (named: a family, a discriminator) said or printed to have broken (its discriminator won, its samples broke, a
    # loss grew past any bound) beside
    # no candidate: the game's failure, which no entry covers -- not a healthy run, whatever the loss read did
    if not matches and not declared_found and ev.first_nonfinite is None and GAN_NAMED.search(ev.prose) \
            and (broke := gan_failure_said(ev.prose)):
        unweighed.append(f"the report says or prints that the GAN broke (\"{' '.join(broke.split())[:80]}\"): a "
                         "discriminator that wins, a generator that collapses to one output, are failures of the game "
                         "between the two networks, which no entry covers; the loss read is one of the two")
    own = _self_explained(ev, c, declared_found, at_inference)
    if own:
        matches = []                     # a framework's warning that names a failure no entry covers: not covered
        unweighed = [own[1]] + [u for u in unweighed if own[0] not in u]
        normals = []                     # (its mechanism accounts for the curve: a saw-tooth is no noise beside it)
    if ev.more_messages:
        unweighed.append(f"{ev.more_messages} more message line(s) of other kinds were seen and not kept")
    if sig.name in TRACES and not any(e.trace == sig.name for e in w.entries):
        unweighed.append(f"loss curve: {TRACES[sig.name]} -- no entry declares this signature yet")
    read = [(ev.hidden_note, ev.hidden_note)] if ev.hidden_note else []
    read += [("", note) for note in notices.values()]       # carried by no entry: said whatever the verdict
    if uniform:
        read.append(("", uniform))
    if any(n.name == NATS_BITS for n in normals):
        read.append(("", f"a number the report gives is its figure in bits times ln 2: {nats_as_bits(ev.prose)}"))
    # (a healthy-looking curve beside words that the run falls far short of its reference: why the paste's constructs
    # were read as a run gone wrong)
    if sig.name == "healthy" and matches and (short := short_of_reference_said(ev.prose)):
        read.append(("", f"the report says this run does worse than a constant prediction or a linear fit "
                         f"(\"{short}\"), a reference a working network should at least match: so the paste was "
                         "read for what this run does wrong, though its own loss falls"
                     if short_of_a_trivial_reference(ev.prose) else
                     f"the report says this run falls far short of the one it is compared with (\"{short}\"): the "
                     "same setup does better there, so the paste was read for what this run does differently, "
                     "though its own loss falls"))
    if zero is not None and w.declarers.get(SAME_AS):
        read.append((WHY, f'message "{MESSAGE}" (line {ev.messages[zero][1]}): {WHY}; weighed for '
                          f"{', '.join(w.declarers[SAME_AS])}, whose failure that is"))
    # a validation nan beside a training loss that went non-finite too, at or after it, is no separate question
    # (said before the training loss broke, it is a question of its own)
    validation, line = _validation_nonfinite(ev)
    if ev.first_nonfinite_at is not None and line >= ev.first_nonfinite_at.line:
        validation = ""
    d = Diagnosis(ev, sig, matches, unweighed, normal=normals, read=read, validation=validation,
                  warnings_unweighed=warnings_unweighed, fell_said=c.fell_said)
    # Apex's scale at zero is never the normal skipping of a step: the scaler ran out of range -- but it does not say
    # which failure ran it out (its inf or nan may as well be a loss that was not finite, or an infinite slope), so on
    # its own it is no evidence specific enough to name an entry
    zero_alone = zero is not None and not any(key == SAME_AS for key in ev.messages if key != zero)
    _decide(d, w, failure_shown, _unexplained_by_normal(normals, ev, declared_found) or zero is not None,
            c.words_count, c.unjudged,
            names=_unexplained_by_normal(normals, ev, declared_found - {SAME_AS} if zero_alone else declared_found))
    return d


# A curve that fell by this share of its first value or more has moved (a plateau a normal answer explains must have).
PLATEAU_MOVED = 0.02


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
        said.append(f"at {ev.where(b)} ({fmt(before)} to {fmt(after)}, the rate {at_a.rate:g} to {at_b.rate:g})")
    where = said[0] if len(said) == 1 else f"{', '.join(said[:-1])} and {said[-1]}"
    return (f"the loss rose {where}, each time as the learning rate printed beside it jumped back up, and came back "
            "below where it was each time")


def _benign_warning(ev: Evidence, sig: Signature) -> Normal | None:
    """The warning of BENIGN_WARNINGS that is the log's only message (exp overflowed, a spread taken over one value),
    printed beside a curve that stayed finite and fell; or None."""
    texts = [example for _count, _line, example, _origin in ev.messages.values()]
    if not (sig.name == "healthy" and ev.count > 1 and ev.first_nonfinite is None and texts):
        return None
    return next((n for n in BENIGN_WARNINGS if all(n.asked.fullmatch(text) for text in texts)), None)


# Words of a broken run that no normal behaviour accounts for (a loss that won't go down is what "a large loss at
# the start" asks about, and stays with it).
BROKEN_WORDS = frozenset({"nan", "inf", "diverge", "climb", "overflow", "divzero"})
# What a report says of a failure an entry covers, in words: a loss that went wrong (a nan or an inf, a climb, a
# loss that does not learn, one below zero), or labels the loss cannot take (an error on them is WR-320's even
# when no entry declares its wording).
LOSS_WORDS = BROKEN_WORDS | {"stuck", "underflow", "negative", "intermittent", "sigmoidzero", "numclasses"}
# ... the labels' values, not only their name (`KeyError: 'label'`, a "label" column): "labels go from 1 to 10",
# "classes start at 1", "labels are 1..10", "masks of 0 and 255", "a label out of range".
LABEL_VALUES = lazy_regex.compile(r"\b(?:labels?|classes|class ids?|targets?|masks?)\b[^.\n]{0,60}?(?:\bfrom\b|\bstarts?\b|"
                                  r"\brange\b|\bout of\b|\boutside\b|\bbetween\b|\d+ *(?:\.\.|-|to) *\d+|\b255\b)", re.I)


# A run that hangs or makes no progress (a DataLoader's workers deadlocked, a collective waiting): no loss printed to
# go wrong
# (of them, the words that say the process itself stopped moving: HUNG)
_HUNG = r"hangs?|hanging|hung|deadlock\w*|(?:training|run|script|job|process|it) (?:just )?(?:freez\w*|froze\w*)"
HANG = lazy_regex.compile(r"\b(?:" + _HUNG + r"|0 ?% (?:gpu )?util\w*|(?:gpu )?util\w* (?:is |at |of )?0 ?%|"
                          r"nothing happens|no progress|prints nothing|never starts?)", re.I)
HUNG = lazy_regex.compile(r"\b(?:" + _HUNG + r")", re.I)
# ... and its words of the loss, or of being stuck, that say nothing went wrong with a loss: the loss said never to
# have been printed (the one word of the loss such a report has), and the reporter "stuck on this for two days", who
# is, where the loss is not
NO_LOSS_GONE_WRONG = lazy_regex.compile(r"\b(?:the )?loss (?:(?:is|was)(?:n't| not| never)|never(?: gets?)?) (?:even |once )?"
                                        r"(?:printed|shown|logged|computed|reached)\b|\bno loss (?:is |was )?(?:ever )?"
                                        r"(?:printed|shown|logged)\b|\bnever prints? (?:a|the|any) loss\b|"
                                        r"\bstuck (?:on|with) (?:this|it|that)\b", re.I)


def _hang_only(ev: Evidence, words: list[str], declared_found: set[str], sig: Signature, sentences: str) -> bool:
    """Does the report say only that the run hangs: no message an entry declares, no loss values or only a few that
    show no failure, and no word of the loss at all (a loss "shooting through the roof" before the run froze is a loss
    gone wrong in words the thesaurus may not know) but that it was never printed? (`words`: the report's tokens;
    `sentences`: its own sentences, whose words are the ones read beside loss values -- a progress bar's `loss=0.284`
    before the run stopped moving is the log's word, not the reporter's)"""
    if declared_found or not HANG.search(ev.prose):
        return False
    if ev.count:
        # (values that stayed finite and show nothing gone wrong, too few to judge: a run that stopped moving -- said
        # stopped, not "no progress", which beside loss values may be the loss's)
        if ev.first_nonfinite is not None or sig.name not in ("healthy", "few-values") or ev.count >= SHAPE_MIN \
                or not HUNG.search(ev.prose):
            return False
        words = tokens(sentences)
    if NO_LOSS_GONE_WRONG.search(ev.prose):
        words = tokens(NO_LOSS_GONE_WRONG.sub(" ", sentences if ev.count else ev.prose))
    return not (LOSS_WORDS | {"loss"}) & set(words)


# A model that trained well and fails at inference: the failure placed at inference, serving or export, and the
# training said to have gone well ("training loss looked fine", "the loss went 2.1 -> 0.08")
AT_INFERENCE = lazy_regex.compile(r"\b(?:at|during|in (?:my|the|our)) inference\b|\binference[ -](?:script|time|code|pipeline)\b|"
                                  r"\bat (?:test|prediction|serving) time\b|\bin production\b|\bafter (?:exporting|loading the "
                                  r"(?:checkpoint|model))\b", re.I)
TRAINED_WELL = lazy_regex.compile(r"\btrain\w*(?: loss)?[^.\n]{0,30}?\b(?:looked|looks|was|is|seemed|seems|went|goes)\s+"
                                  r"(?:fine|ok|okay|good|great|normal|well)\b|\b(?:training|train) loss (?:went|goes|dropped|fell)"
                                  r"\s+(?:from\s+)?\d", re.I)


# (the new-data reading's own words of a bad result, which say nothing else went wrong -- and "negative", a sentiment's
# class more often than a loss's sign where a model's scores are given; and an error a paste shows)
GAP_WORDS = frozenset("garbage bad badly poor poorly terrible awful worse useless fail fails failing collapse collapses "
                      "chance apart error errors negative".split())
ERROR_SHOWN = lazy_regex.compile(r"Traceback \(most recent call last\)|\b[A-Z]\w*(?:Error|Exception)\b|(?i:\bout of memory\b)")


def _inference_only(ev: Evidence, words: list[str], declared_found: set[str], sig) -> bool:
    """Does the report say the model trained well and fails at inference: no nan or inf in its values or words, no
    message an entry declares, no curve gone wrong? The entries are about training that goes wrong."""
    return (not declared_found and ev.first_nonfinite is None and not {"nan", "inf"} & set(words)
            and sig.name not in TRACES and sig.name not in UNFINISHED
            and bool(AT_INFERENCE.search(ev.prose)) and bool(TRAINED_WELL.search(ev.prose)))


# (or what prints it, `torch.cuda.memory_allocated() in the validation loop and it keeps going up`)
MEMORY_RISE = lazy_regex.compile(r"\b(?:memory|vram|ram)(?:_(?:allocated|reserved|usage))?\b(?: usage| use| footprint)?"
                                 r"(?:(?!\b(?:loss|but|while)\b|\band\b(?! it\b)(?! that\b))[^.\n]){0,50}?"
                                 r"\b(?:climb\w*|grow\w*|increas\w*|ris(?:es|ing|e)|goes up|going up|keeps? going up)|"
                                 r"\b(?:climbing|growing|increasing|"
                                 r"rising)\s+(?:gpu\s+|cuda\s+)?(?:memory|vram|ram)\b", re.I)


def _another_error(ev: Evidence, c: Context, declared_found: set[str]) -> bool:
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
    # (memory that climbs until the error is the error's story, not a loss's)
    words = MEMORY_RISE.sub(" ", ev.prose)
    for text in errors:
        words = words.replace(text, " ")
    return (bool(errors) and not LOSS_WORDS & set(tokens(words)) and not STUCK.search(words.lower())
            and not LABEL_VALUES.search(words))


# Framework warnings that name their own failure, one no entry covers. PyTorch's losses warn so when the target's shape
# differs from the output's (`mse_loss` in torch/nn/functional.py, word for word, at
# https://github.com/pytorch/pytorch/blob/v2.13.0/torch/nn/functional.py#L4283-L4289, factcheck_session35): an
# output of (N, 1) against targets of (N,) broadcasts to (N, N), every output against every target, and the mean over
# all pairs is smallest when every output is the targets' mean -- a loss stuck at about the targets' variance,
# predictions nearly alike.
SELF_EXPLAINING = ((lazy_regex.compile(r"Using a target size \(torch\.Size\(\[[\d, ]*\]\)\) that is different to the input size "
                                       r"\(torch\.Size\(\[[\d, ]*\]\)\)"),
                    "PyTorch warns that the loss was handed targets of another shape than the outputs: it broadcasts "
                    "them, and an output of shape (N, 1) against targets of shape (N,) is compared with every target of "
                    "the batch, not just its own; the mean over all those N x N pairs is smallest when each output is "
                    "the targets' mean (a network, which sees only its own row, keeps just 1/N of its real prediction's "
                    "distance from it), so the loss sits at about the targets' variance and the predictions are all "
                    "nearly alike. No "
                    "entry covers this shape bug: give the loss outputs and targets of one shape (`output.squeeze(-1)`, "
                    "or `target.view(-1, 1)`)"),)


# What labels paired with the wrong inputs leave a classifier at, whatever mispaired them.
AT_CHANCE = ("the loss stays at the uniform guess (ln C for C balanced classes) and the accuracy at the largest class's "
             "share")


def _self_explained(ev: Evidence, c: Context, declared_found: set[str], at_inference: bool) -> tuple[str, str] | None:
    """(the message, why) when the paste holds a warning of SELF_EXPLAINING, or code that explains the run by itself
    (an optimizer built before the module it trains was replaced), no message an entry declares, and no nan or inf in
    its values or words: that is the explanation, and it is not the catalogue's. (`at_inference`: the report places
    its failure at inference, _inference_only, which its own reading explains.)"""
    # (before the gate below: the -inf of its causal mask's code is no inf of the run)
    copying = copying_language_model(ev) if not declared_found and "nan" not in c.words else ""
    if copying:
        return copying, (f"the paste's language model reached a training loss near 0 while its generations do not work "
                         f"(\"{copying}\"): no model gets near 0 on text it has not seen (the best reach about two thirds "
                         "of a nat per character, more per word or subword token); a model that memorised a small "
                         "training set does on that set, but its validation loss stays high, and none is given high "
                         "here. A "
                         "cross-entropy near 0 then means each position sees the token it is asked to predict -- "
                         "targets equal to the "
                         "inputs with no shift by one, or an attention mask that lets a position look ahead -- and the "
                         "model learns to copy it, which it cannot do when it generates one token at a time. No entry "
                         "covers this: make the targets the inputs shifted by one (`x = tokens[:-1]`, `y = "
                         "tokens[1:]`), and check the mask hides every later position")
    ctc = ctc_inf(ev) if not declared_found else ""
    if ctc:
        return ctc, (f"the paste's loss is a CTC loss (`{ctc}`) and it is inf: CTC sums over the alignments of the "
                     "target to the frames the model outputs, and needs a frame for each target label plus one for "
                     "the blank between two adjacent repeated labels; where the input, after the model's downsampling, is "
                     "shorter than that, no alignment exists, the target's probability is 0 and its negative log is "
                     "inf (\"Infinite losses mainly occur when the inputs are too short to be aligned to the "
                     "targets\", PyTorch's CTCLoss documentation), which makes the batch's mean loss inf too. No "
                     "entry covers this: pass input_lengths after the downsampling, drop or trim the examples whose "
                     "targets are too long for their frames, and set zero_infinity=True to skip the ones left")
    if declared_found or ev.first_nonfinite is not None or {"nan", "inf"} & set(c.words):
        return None
    for _count, line, example, _origin in ev.messages.values():
        for pattern, why in SELF_EXPLAINING:
            if pattern.search(example):
                return example, f'message "{example[:160]}" (line {line}): {why}'
    replaced = module_replaced_after_optimizer(ev.prose)
    if replaced:
        lines, alone = replaced
        then = ("built on the replaced module alone, the optimizer trains nothing, frozen or not, and the loss stays "
                "where the untrained layer puts it (near ln C for C classes when the features reaching it are of "
                "order 1)" if alone else
                "the rest of the model still trains unless it is frozen, and can lower the loss through a layer that "
                "never learns; frozen, nothing trains and the loss stays where the untrained layer puts it")
        return lines, (f"the paste builds the optimizer on a module's parameters and then replaces that module "
                       f"({lines}): the optimizer holds the tensors that existed when it was built (it makes a list of "
                       "parameters() then), so the new module's weights are in no parameter group and step() never "
                       f"changes them -- they keep their initial values; {then}. No entry covers this wiring bug: "
                       "build the optimizer once the model is complete")
    apart = shuffled_apart(ev.prose)
    if apart:
        return apart, (f"the paste shuffles its arrays by separate calls (`{apart}`): each call draws a permutation of "
                       "its own, so the rows and their labels no longer match: each label is another row's and says nothing "
                       "of its row, so nothing the model learns generalises -- the validation accuracy stays near the "
                       "largest class's share, and the training loss falls only as fast as a model can memorise random "
                       "labels (slowly, and only a large one). No entry covers this data bug: shuffle "
                       "them together, with one permutation (`idx = np.random.permutation(len(X)); X, y = X[idx], "
                       "y[idx]`)")
    alone = shuffled_alone(ev.prose)
    if alone:
        return alone, (f"the paste takes two arrays row by row together and then shuffles one of them alone, in place "
                       f"(`{alone}`): its rows move and the other's stay, so each row is paired with another row's "
                       f"label, which says nothing of it -- {AT_CHANCE}, whatever the model. No entry covers this data "
                       "bug: shuffle the pair with one permutation (`idx = np.random.permutation(len(a)); a, b = a[idx], "
                       "b[idx]`), or shuffle before taking them apart")
    sampled = frame_sampled_alone(ev.prose)
    if sampled:
        return sampled, (f"the paste shuffles the frame of its inputs and takes its labels from the table in the "
                         f"table's own order (`{sampled}`): the inputs' rows move and the labels' do not, so each row "
                         f"is paired with another row's label, which says nothing of it -- {AT_CHANCE}; a training "
                         "accuracy that still climbs is the model memorising those pairings. No entry covers this data "
                         "bug: shuffle the whole table once, before taking the inputs and the labels from it "
                         "(`train = train.sample(frac=1, random_state=SEED)`)")
    # (the settings below explain a run that does not learn, shown or said: not one whose loss fell beside an accuracy
    # that rose -- its zipped loaders paired their rows, its weight decay left it room)
    not_learning = c.sig.name != "healthy" or says_not_learning(ev.prose)
    apart = loaders_shuffled_apart(ev.prose) if not_learning else ""
    if apart:
        return apart, (f"the paste iterates two shuffled DataLoaders together, one of its inputs and one of its labels "
                       f"(`{apart}`): each loader's sampler draws its own permutation every epoch, so each batch of "
                       f"inputs is paired with the labels of other rows, which say nothing of them -- {AT_CHANCE}, "
                       "whatever the rate or the initialisation. No entry covers this data bug: put inputs "
                       "and labels in one dataset (`TensorDataset(X, y)`) and one shuffled loader")
    listed = listed_files_zipped_apart(ev.prose) if not_learning else ""
    if listed:
        return listed, (f"the paste zips tf.data's list of files with a dataset of its labels (`{listed}`): "
                        "Dataset.list_files shuffles the file names unless given shuffle=False (a seed only makes the "
                        "order repeatable), so each image is paired with the label of another file, which says "
                        f"nothing of it -- {AT_CHANCE}, whatever the model. No entry covers this data bug: "
                        "take each label from its own file's path inside the map, or list the files with "
                        "shuffle=False and build the labels from that same list")
    unfrozen = module_unfrozen_by_attribute(ev.prose) if not_learning else ""
    if unfrozen:
        return unfrozen, (f"the paste freezes every parameter and then sets requires_grad on a module (`{unfrozen}`): "
                          "requires_grad is a tensor's flag, and a module has none -- the assignment makes a new Python "
                          "attribute on the module and changes none of its parameters, which stay frozen, so that "
                          "module never trains and the loss moves only as far as what really was unfrozen can move "
                          "it. No entry covers this: unfreeze the module with its method, "
                          f"`{unfrozen.split('.requires_grad')[0]}.requires_grad_(True)`, and count the trainable "
                          "parameters again")
    decay = decay_pulls_to_zero(ev.prose) if not_learning else ""
    if decay:
        return decay, (f"the paste builds its optimizer with a weight decay that pulls every weight toward zero by "
                       f"the rate times the decay of itself each step (`{decay}`), twenty times SGD's usual pull or "
                       "more (momentum multiplies it): the weights shrink to near zero whatever the gradient does, "
                       "and a classifier's loss settles where a model of zero weights puts it (ln C for C balanced "
                       "classes, every output alike). No entry covers this setting: a weight decay of 1e-4 to 5e-4 "
                       "for SGD, about 0.01 to 0.1 for AdamW")
    # (a rate the schedule drove to nothing explains a loss that stopped moving, not one that climbs)
    stopped = not_learning and c.sig.name not in {*RATE_CLIMBS, *UNFINISHED, "spike-then-recover"}
    per_batch, done = scheduler_stepped_per_batch(ev.prose) if stopped else ("", "")
    if per_batch:
        return per_batch, (f"the paste steps its learning-rate schedule once per batch (`{per_batch}`), inside the loop "
                           "over the loader, and the schedule counts its lengths in calls of step(): written for "
                           f"epochs, it runs through them once per batch -- {done}. The rate is down to that within the "
                           "first few hundred batches, and the loss stops where it got to. No entry covers this wiring "
                           "bug: call scheduler.step() once per epoch, after the batch loop (or give the schedule its "
                           "lengths in batches)")
    flipped = flip_swaps_classes(ev.prose)
    if flipped:
        return flipped[0], (f"the paste flips its training images horizontally (`{flipped[0]}`) and its classes tell "
                            f"left from right ({flipped[1]}): a flipped picture of one is a picture of the other, "
                            "still under the first one's label, so the flips teach each of the two the other's "
                            "pictures -- the pair stays confused, near half and half, while the other classes learn, "
                            "whatever the rate or the number of epochs. No entry covers this data bug: no horizontal "
                            "flip for classes that differ by direction (or swap the label with the flip)")
    unshuffled = unshuffled_loader(ev.prose)
    if unshuffled and recurring_swings(ev) >= SWINGS:
        return unshuffled, (f"the paste builds its training DataLoader without shuffle=True (`{unshuffled}`), and "
                            "PyTorch's DataLoader keeps the dataset's order unless told to shuffle: the batches come in "
                            "the order the dataset lists its examples, every epoch. Listed class by class (a folder per "
                            "class), each run of batches holds one class: the model learns to predict the class of the "
                            "moment, the loss jumps at the first batch of each new class and falls within its run (the "
                            "swing that returns again and again in the log), and on mixed data it predicts the class it "
                            "saw last, the accuracy near one class's share. No entry covers this data-order bug: "
                            "shuffle=True for the training loader")
    untaught = pretrained_at_uniform(ev)
    if untaught:
        return untaught
    # (after the readings of the pasted code, which are more specific than a story of new data; and only where no word
    # says anything went wrong but the new data's result -- a loss that climbed or does not learn, a divergence, an
    # error -- nor that the failure is at inference, which its own reading explains)
    gap = new_data_gap(ev.prose) if (c.sig.name not in TRACES and c.sig.name not in UNFINISHED
                                     and not loss_climb_said(ev.prose) and not says_not_learning(ev.prose)
                                     and not says_failure(ev.prose, GAP_WORDS) and not ERROR_SHOWN.search(ev.prose)
                                     and not at_inference) else None
    if gap:
        high, new = gap
        return new, (f"the report says the model scores well on its own held-out split (\"{high}\") and badly on new "
                     f"data (\"{new}\"), and nothing else went wrong that it says or prints (no nan or inf, no loss "
                     "that climbed or does not learn, no error): the split's score did not carry over, and no entry "
                     "covers that (each is about training that goes wrong). First check: send the held-out split "
                     "through the pipeline the new data go through; if its score drops there too, that pipeline "
                     "differs (another normalisation, resize or tokenizer, the model not in eval mode, weights not "
                     "all loaded). If it does not, the split may leak (near-copies, overlapping tiles or crops, frames "
                     "of one recording or slices of one patient on both sides of it, features derived from the label "
                     "or from the future), or the new data differ from all it holds (another site, time, device, "
                     "population or class balance), where the model may lean on cues that hold only in the split's "
                     "data. Split by the unit the new data come in (patient, recording, site, period), and keep a test "
                     "set drawn the way the new data are")
    vanished = RATE_VANISHED.search(ev.prose)
    if vanished and (says_not_learning(ev.prose) or c.sig.name in ("plateau-from-start", "stall-after-drop")):
        said = " ".join(vanished.group(0).split())
        return said, (f"the paste says the learning rate fell to {vanished.group('rate')} (\"{said}\"): a step then "
                      "moves a weight by that rate times its gradient (in float32 a weight w does not change at all "
                      "while that product is under about 6e-8 times |w|, half its last digit), and the loss stays wherever it was when the "
                      "rate vanished. The schedule stopped the training, not the model: most often a scheduler that "
                      "counts epochs and decays without a floor (StepLR, ExponentialLR) stepped once per batch, which "
                      "advances the schedule as many times faster as there are batches in an epoch. No entry covers a schedule "
                      "yet: step such a scheduler once per epoch, and print the rate beside the loss")
    return None



def _unweighed(ev: Evidence, key: str, example: str, line: int, w: Weigher, zero: str | None = None) -> str:
    """Why a message found is not weighed, or "" when it is (or was read as a loss value)."""
    found = stop_of(example)
    if found and found[0].evidence:
        return ""                                           # a loss scaler's floor: weighed as a declared message
    if found:
        if ev.hidden_note and ev.last_at is not None and ev.last_at.line == ev.message_last.get(key, line):
            return ""                                       # read as the loss's value there
        name = found[1].groupdict().get("name")
        watched = (f"the metric it watches (`{name.decode('utf-8', 'replace')}`) is" if name else
                   "the loss is" if found[0].what == "a loss" else f"the {found[0].what} are")
        return (f'message "{example}" (line {line}) comes from {found[0].who}, a check that stops the run when '
                f"{watched} not finite: it names no cause")
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
NOTICES = ((lazy_regex.compile(r"Anomaly Detection has been enabled\b"),
            f"PyTorch's anomaly mode is on (torch.autograd.detect_anomaly() warns so each time it is created: "
            f"{ANOMALY_SOURCE}); it names no failure, and once a backward pass makes a nan it raises an error naming "
            "the operation"),
           # (and where the failing backward op was made: _format_stack's words, warned by PyAnomalyMetadata::print_stack
           # before the error in releases through 2.13; later source appends them to the error's message)
           (lazy_regex.compile(r"Error detected in \w+\. Traceback of forward call that caused the error"),
            f"PyTorch's anomaly mode says where the backward operation that failed was made in the forward pass "
            f"(the traceback after it: {ANOMALY_CPP_SOURCE}); it names no cause itself"))
# ... and what shows that anomaly mode is on: its warning, or what it prints at a nan
ANOMALY_ON = lazy_regex.compile(r"Anomaly Detection has been enabled|returned nan values in its \w+ output|Error detected in "
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



# What the reporter read or was told, not what the run did: "I read that overflow means the loss is exploding"
HEARSAY = lazy_regex.compile(r"\b(?:i(?:'ve| have)? (?:read|heard|saw)|(?:someone|people|they|others) (?:said|says|say|told)|"
                             r"according to)\b[^.!?\n]*")


# A fear, not a report: "I'm worried the model is broken in fp16", "I wonder if it diverges" (a yes/no question in
# other words), to the end of its sentence, to a reason given ("I'm worried because the loss is nan" reports one) or
# to a nan, an inf or a climb it names, which a run printed ("I'm worried that the loss shows nan"), or to a comma,
# a colon or a dash, after which another clause reports ("I am worried, the loss diverges after epoch 3").
# (not "I'm afraid", which as often says politely that it did: "I'm afraid the loss is nan after epoch 3"; nor "I
# wonder why", which asks why it did)
_FEARED = (r"(?:(?!\b(?:because|since|as|nan|inf|infinity|diverg\w*|explod\w*|blow\w*|blew|climb\w*|overflow\w*)\b|--)"
           r"[^.!?\n,:;\u2013\u2014])*")
# (a failure feared to come is no report either, whatever it names: "I'm worried it will blow up at some point")
# (the words before the modal stop where _FEARED's do: "I'm worried the nan I got at step 4000 will come back" reports
# that nan)
_FEARED_TO_COME = (r"(?:(?!\b(?:because|since|as|nan|inf|infinity|diverg\w*|explod\w*|blow\w*|blew|climb\w*|overflow\w*)\b|--)"
                   r"[^.!?\n,:;\u2013\u2014]){0,40}?\b(?:will|might|could|may|would|(?:is|are) (?:going|about) to)\s"
                   r"(?:(?!--)[^.!?\n,:;\u2013\u2014])*")
# (the subject left out, at a sentence's or a line's start, a bullet's too: "Worried something is about to blow up")
WORRY = lazy_regex.compile(r"(?:\b(?:i'?m|i am|we'?re|we are|i was|we were)\s+|(?<![^\n])[ \t]*(?:[-*>][ \t]+)?|(?<=[.!?])[ \t]+)"
                           r"(?:(?:a bit|a little|really|very|quite|so|getting)\s+)?"
                           r"(?:worried|concerned|scared|nervous)\b(?:" + _FEARED_TO_COME + "|" + _FEARED + r")"
                           r"|\bi (?:wonder|fear)\s+(?:if|whether)\b" + _FEARED)


def _reported(prose: str) -> str:
    """The words, lowercased, without what the reporter only read or heard, and without fears."""
    return WORRY.sub(" ", HEARSAY.sub(" ", prose.lower()))


# A score whose rise is progress, said to rise: "the validation PSNR keeps going up", "AUC improves every epoch", "the
# win rate did go up", "shouldn't the chosen answers' probability go up?" -- no climb of a failure (not a likelihood or a
# log-probability: a negative log-likelihood going up is a loss's climb, a rejected answer's log-probability no score)
# (a score's own clause: no loss or "it" between the score and the rise, not "mixed precision" or "returns nan", and
# mAP as it is written)
SCORE_RISES = lazy_regex.compile(r"(?i)\b(?:acc\w*|psnr|ssim|auc|m?iou|dice|bleu|rouge\w*|f1|(?-i:m?AP)|recall|"
                                 r"(?<!mixed )(?<!half )(?<!full )(?<!single )(?<!double )precision|rewards?|returns?(?!\s+(?:nan|inf|none))|"
                                 r"r2|hit\s*rate|win\s*rates?|margins?|ndcg\w*|(?<!log-)(?<!log )probabilit\w*(?![^.;,\n]{0,30}?\brejected\b))"
                                 r"\b(?:(?!\b(?:loss\w*|it)\b)[^.;,\n]){0,30}?"
                                 r"\b(?:keeps?\s+|is\s+|are\s+|still\s+|steadily\s+|did\s+|does\s+)*"
                                 r"(?:going\s+up|goes\s+up|go\s+up|went\s+up|ris(?:es|ing|e)|rose|climb\w*|increas\w*|improv\w*|"
                                 r"grow\w*)\b")


def _rest_of(normals: list[Normal], prose: str, keep_questions: bool = True) -> str:
    """The words with what the normal behaviours asked about taken out (and the yes/no questions, unless kept, and
    what the reporter only read or heard, or fears, and a score said to rise)."""
    # (what a normal behaviour's mechanism accounts for first, whole: a fear of it is cut at the inf it names)
    rest = SCORE_RISES.sub(" ", _reported(_accounted_out(normals, prose)))
    rest = rest if keep_questions else YES_NO.sub(" ", rest)
    for n in normals:
        rest = n.asked.sub(" ", rest)
    return rest


def _accounted_out(normals: list[Normal], prose: str) -> str:
    """The words without what the normal behaviours' mechanisms account for (Normal.accounts_said)."""
    for n in normals:
        if n.accounts_said is not None:
            prose = n.accounts_said.sub(" ", prose)
    return prose


def _stopped_learning(d: Diagnosis) -> bool:
    """Do the words say, outside a question, that the run does not learn, and do its last three values agree, equal
    to within FLAT? "The first epoch loss is big and then it's 2.3013 every epoch -- my network doesn't learn at
    all" asks about a large start and reports a run that stopped; "won't go down for several iterations" beside one
    value is the large start itself."""
    ev = d.evidence
    tail = ev.before[-3:] if ev.first_nonfinite is None else []
    return len(tail) == 3 and min(tail) > 0 and max(tail) <= (1 + FLAT) * min(tail) \
        and says_not_learning(_rest_of(d.normal, ev.prose, keep_questions=False))


def _sweep_values(ev: Evidence) -> bool:
    """Are the loss values a sentence's about a finder's sweep -- its plot, its curve -- and not a log's, nor a sentence's
    about a training run ("so I trained at 1e-2: the loss was 0.65, 1.9, 7.3")?"""
    if ev.dialect != SENTENCE_VALUES.name or not ev.count or (first := ev.at(0)) is None:
        return False
    lines = ev.prose.split("\n")
    line = lines[first.line - 1] if 0 < first.line <= len(lines) else ""
    return bool(SWEEP_WORDS.search(line)) and not TRAINING_WORDS.search(line)


SWEEP_WORDS = lazy_regex.compile(r"(?i)\b(?:lr[ _]?find\w*|finder|range test|plot|curve|sweep)\b")
TRAINING_WORDS = lazy_regex.compile(r"(?i)\b(?:trained|training|train(?:s|ing)? (?:at|with)|fit(?:_one_cycle)?\(|fit_one_cycle|"
                                    r"epochs?)\b")


# A failure asked of what is to come, as the future verb's own complement: "going to nan", "about to diverge", "will it
# blow up", "will the loss go to nan" -- between "will" and the failure only its subject (a pronoun, or a determiner
# and a noun) and "go", "turn" or "become": not "will bf16 fix the nan", whose nan is an object, printed
FUTURE_FAILURE = lazy_regex.compile(r"\b(?:going\s+to|gonna|about\s+to|will(?:\s+(?:it|this|that|training|(?:the|my|our|this)"
                                    r"\s+\w+))?)\s+(?:(?:go|turn|become)\s+(?:to\s+|into\s+)?)?"
                                    r"(?:nan|inf|diverg\w*|blow\s+up|explod\w*)\b")


def _says_more_than(normals: list[Normal], prose: str) -> bool:
    """Do the words, the normal behaviours asked about taken out, still say the run broke? "My loss is huge from
    the first epoch and then becomes nan" asks about a large start, and reports a nan; so does "Is it normal that
    it then goes to nan?" (a nan said in a question is still a nan the run printed)."""
    accounted = frozenset().union(*(n.accounts for n in normals))
    broken = BROKEN_WORDS - accounted
    # (a failure a question asks of what is to come names none printed: "is my run going to nan?", "will it diverge?"
    # -- only that failure, the verb's own: "will lowering the lr fix the nan I get at step 900?" reports its nan)
    rest = YES_NO.sub(lambda q: FUTURE_FAILURE.sub(" ", q.group(0)), _rest_of(normals, prose))
    if broken & set(tokens(rest)) - ASKED_ONLY:
        return True
    # "Is my model diverging?" asks a judgement of what it printed, and reports none; "is it normal that it starts
    # diverging after epoch 5?" reports it, and asks only whether that is normal
    kept = YES_NO.sub(lambda q: q.group(0) if NORMAL_THAT.search(q.group(0)) else " ",
                      _reported(_accounted_out(normals, prose)))
    for n in normals:
        kept = n.asked.sub(" ", kept)
    return bool(broken & ASKED_ONLY & set(tokens(kept)))


# The yes/no question that states its content and asks only whether it is normal.
# (and its negative form, which presupposes what it states: "isn't it strange that it diverges after step 3000?")
NORMAL_THAT = lazy_regex.compile(r"\b(?:is|are)(?:n['\u2019]t)?\s+(?:it|this|that)\s+(?:normal|expected|ok|okay|common|usual|fine|"
                                 r"strange|weird|odd)\s+(?:that|for|when|if)\b")


# The normal verdicts whose question is overfitting: the validation loss's course answers it (validation_curve)
GAP_NORMALS = ("overfitting: a validation loss that rises while the training loss falls",
               "a gap between training and validation loss")
# Words of a judgement rather than of a value printed: in a yes/no question they ask, and report nothing ("is my model
# diverging?", "did something overflow in the all-reduce?").
ASKED_ONLY = frozenset({"diverge", "overflow"})


# A RuntimeWarning and the source line Python prints under it: the line where the warning was raised
WARNING_AT = lazy_regex.compile(r"RuntimeWarning: [^\n]*\n" + WORKER_PREFIX + r"?[ \t]+(?P<line>[^\n]+)")
CODE_SPAN = lazy_regex.compile(r"\(`([^`\n]+)`\)")


def _warned_at(part: str, prose: str) -> bool:
    """Was a construct of the pasted code (`part`) the very line a RuntimeWarning the run printed was raised at? Python's
    warnings print that line under the warning: the construct is then where the inf or nan was born, not a suspect."""
    said = breaking_construct(prose).get(part, "") if part in CODE_CONSTRUCTS else ""
    code = CODE_SPAN.search(said)
    return bool(code) and any(code.group(1) in m.group("line")
                              for m in itertools.islice(WARNING_AT.finditer(prose), 50))


def _curve_lent(top: Match, d: Diagnosis) -> float:
    """The curve's part a construct of the pasted code lent the entry as its face (Match.face, as weigh chose it), which
    names no more than the construct does -- unless the run's warning was raised at the construct's line (_warned_at)."""
    lent = top.face in CODE_CONSTRUCTS and not _warned_at(top.face, d.evidence.prose)
    return max(0.0, top.parts.get("curve", 0.0)) if lent else 0.0


def _decide(d: Diagnosis, w: Weigher, failure_shown: bool, declared: bool, text_counts: bool,
            unjudged: bool = False, *, names: bool) -> None:
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
    # (or a loss floored at the bound a softmax taken twice puts it at, beside the accuracy printed with it: the log's
    # own numbers, held to arithmetic, show a failure no normal behaviour makes)
    floored = top is not None and top.parts.get("softmax-floor", 0) > 0
    # (and an enormous start, which no normal behaviour makes: a high start that falls has fallen out of it)
    shown = (d.signature.name in TRACES and not faint) or impossible or floored or bool(d.signature.enormous_start)
    specific = shown or declared
    # (`names`: the messages that are evidence of a failure among the entries, where `declared` also holds one that
    # says only that something failed)
    # (or a fact that holds the paste's own printed numbers to the entry's mechanism -- a mask row printed with every key
    # masked, a logit printed past exp's limit -- or the entry's own check, done: the same run gone well in float32)
    names_one = shown or names or (top is not None and any(top.parts.get(k, 0.0) >= W_PRINTED for k in PRINTED_PROOF))
    # (nor normal where the words give what no normal run does -- the untrained model's loss far above a uniform guess,
    # an accuracy that climbs on a loss that barely moves, one output for every input, weights that never change, a
    # layer's units said dead --
    # though words alone name no entry with confidence)
    # (one output for every input beside a training accuracy of 90% or more weighs for no entry, but no normal run
    # gives it either; nor does a pasted model whose sigmoid or softmax output goes to a loss that applies its own)
    unlike_normal = any(m.parts.get(k, 0) > 0 for m in d.matches
                        for k in ("start-high", "accuracy-rose-said", "one-output", "weights-frozen", "early-jump",
                                  "faster-start", "froze-after-jumps", "pairing", "sigmoid-twice-printed", "dead-units",
                                  "dead-units-printed")) \
        or bool(one_output_said(d.evidence.prose))
    # (a normal whose answer is that one step's loss is noise accounts for a rise among finite values)
    # (not a curve that ends at its highest: a climb that kept going is no noise)
    # (either only beside finite values that nothing declared, impossible, floored or enormous at the start marks)
    finite_plain = bool(d.normal) and d.evidence.first_nonfinite is None and not declared and not impossible \
        and not floored and not d.signature.enormous_start and d.evidence.high is not None
    noise = finite_plain and d.normal[0].explains_noise and d.evidence.last < d.evidence.high
    # (a normal whose answer is that its loss stays high while the model learns accounts for a curve that barely fell)
    # (a curve that fell, if by little: one that did not move at all is no model learning)
    plateau = bool(d.normal) and d.normal[0].explains_plateau and d.signature.name == "plateau-from-start" \
        and d.evidence.first_nonfinite is None and not declared and d.evidence.last < (1 - PLATEAU_MOVED) * d.evidence.head[0]
    # (a normal whose answer is that the loss is made to climb -- a learning-rate finder's sweep -- accounts for a climb
    # among finite values that ends at its highest, where the values are a sentence's about that sweep: a log's are a
    # training run's, whatever finder ran before it)
    climb = finite_plain and d.normal[0].explains_climb and _sweep_values(d.evidence) \
        and d.evidence.last >= d.evidence.high
    if d.normal and (noise or plateau or climb or not failure_shown and not specific) and not unlike_normal \
            and not _says_more_than(d.normal, d.evidence.prose) \
            and not _stopped_learning(d):
        d.verdict, d.ask = "normal", d.normal[0].decide
        # (a check of the loss values that the log already gave, SHAPE_MIN or more of them, is the one just made)
        if d.ask.startswith("the loss values") and d.evidence.count >= SHAPE_MIN:
            d.ask = ""
        # (beside a normal answer, only an entry with evidence beyond the words' overlap and the timing is a closest
        # entry: the words that asked about a normal behaviour overlap some entry's description whatever it is; nor
        # beyond what the answer accounts for itself -- the declared messages, which a normal answer is given beside
        # only when it asked about every one (_unexplained_by_normal), and the parts its mechanism explains, a GAN's,
        # an RL run's or DPO's numbers below zero; a negative loss the words ask about without naming the loss keeps
        # a negative cross-entropy's targets out of range closest)
        accounted = WORDS_ONLY | {"messages"} | d.normal[0].explains_parts
        d.matches = [m for m in d.matches if any(v > 0 for k, v in m.parts.items() if k not in accounted)][:CANDIDATES]
        if d.normal[0].name in GAP_NORMALS:
            d.trend = validation_curve.trend(d.evidence.prose)
        return
    # (a construct of the pasted code orders the candidates, and names none: the score without it must name it -- unless
    # the run's own warning was raised at its line; nor does a setting, half precision switched on, the first thing to
    # switch off)
    named = top.score - sum(max(0.0, top.parts.get(k, 0.0)) for k in (*CODE_CONSTRUCTS, "precision")
                            if not _warned_at(k, d.evidence.prose)) - _curve_lent(top, d) if top is not None else 0.0
    # (nor a curve's shape, where the first holds no message that names it and no fact of its own, beside a runner-up
    # that holds a cause the report shows or says: the shape is shared by several entries, and that cause is the
    # report's own pointer elsewhere, "no warmup" beside a stall -- not a symptom several entries share, dead units,
    # one output for every input, nor a construct of pasted code, a suspect that names nothing itself)
    contested = top is not None and d.signature.name in TRACES and not (names or impossible or floored
                                                                       or d.signature.enormous_start) \
        and not any(top.parts.get(k, 0.0) > 0 for k in SAID_FACTS if k != "precision") \
        and any(m.parts.get(k, 0.0) > 0 for m in d.matches[1:CANDIDATES] for k in CAUSES_SHOWN)
    if top is not None and named >= CONFIDENT and named - second >= MARGIN and (names_one or not text_counts) \
            and not faint and not contested:
        d.verdict = "failure"          # the named entry, the runners-up, and any other with evidence of its own
        # (beyond the first three, only one with evidence of its own: the curve every entry of its shape shares, or
        # an enormous start, repeated under ten entries, says nothing the first three do not; nor does a message the
        # named entry shows as well, which every entry that declares it would repeat)
        d.matches = d.matches[:CANDIDATES] + [m for m in d.matches[CANDIDATES:]
                                              if any(m.parts.get(k, 0) > 0 for k in SPECIFIC if k not in SHARED)
                                              and any(e not in top.evidence for e in m.evidence)]
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
    elif d.signature.name == "healthy" and not unjudged:
        d.verdict = "healthy"
        # (a training loss that fell beside a validation loss that rose from its lowest: said, though it is no failure
        # of the catalogue's)
        ev = d.evidence
        d.trend = validation_curve.accuracy_impossible(ev.prose) or validation_curve.trend(
            ev.prose, rose_only=True, train_fell=ev.count >= 2 and ev.head[0] > 0 and ev.last < (1 - PLATEAU_FALL) * ev.head[0],
            train_rose=_climbed_back(ev.before))
    elif unjudged:                     # too few values to judge, beside words that the run does not learn
        d.verdict = "no-evidence"
        d.ask = (f"at least {SHAPE_MIN} loss values from the start of the run (with the accuracy, if it prints one), "
                 "and any warning or error above them") if d.evidence.count < SHAPE_MIN else (
            "the loss values as the run printed them, line by line (a sentence gives the few it chooses; the words "
            "say more went wrong than they show), with the accuracy if it prints one, and any warning or error above "
            "them")
    else:
        d.verdict = "no-evidence"
        d.ask = ("the loss values the run printed (from the first to the first nan, or the last ones) and "
                 "any warning or error above them")
        d.trend = validation_curve.accuracy_impossible(d.evidence.prose)


def _climbed_back(values: list[float]) -> bool:
    """Did the training loss climb back from its lowest: its last few values' mean RECOVERED times the lowest mean of as
    many in a row, or more? (Means, not single values: a small batch's loss moves several-fold from one batch to the
    next, while its trend falls.)"""
    low = lowest_mean(values)[0]
    return len(values) > LOW_RUN and low > 0 and sum(values[-LOW_RUN:]) / LOW_RUN >= RECOVERED * low


# A question that names no behaviour ("is it normal?", "is it an error?").
BARE_ASK = lazy_regex.compile(r"\bis (?:it|this|that) (?:an error|normal)\b", re.I)
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


def _quoted(messages: list[tuple[str, str]], verb: str = "prints") -> str:
    """`WR-030 prints `a`, `b`; WR-050 prints `c``: the messages by the entry that prints them."""
    by_entry: dict[str, list[str]] = {}
    for i, text in messages:
        by_entry.setdefault(i, []).append(f"`{text}`")
    return "; ".join(" ".join(filter(None, (i, verb, ", ".join(texts)))) for i, texts in by_entry.items())


def _said_printed(messages: list[tuple[str, str, str, str]]) -> str:
    """What the candidates print, said as what it is: a framework's message is what the failure prints there; NumPy's
    warnings name the op that broke in an entry's own snippet, with its hand-written loss -- a failure that prints
    nothing of its own (a rate too high, gradients left uncleared) shows there what its blow-up broke first."""
    own = [(i, text) for i, text, origin, _ in messages if origin != "numpy"]
    snippets = [(i, text) for i, text, origin, _ in messages if origin == "numpy"]
    parts = [_quoted(own)] if own else []
    if snippets:
        several = len({i for i, _ in snippets}) > 1
        parts.append(f"where {'their NumPy snippets break' if several else 'its NumPy snippet breaks'}, "
                     + _quoted([(f"{i}'s", text) for i, text in snippets]))
    return "; ".join(parts)


def _own_op(w: Weigher, entry_id: str, shown: str) -> bool:
    """Does the entry's title or one of its phrases name the op its example of a check's message names?"""
    entry = w.catalog.entries[entry_id]
    message = next((m for m in w.weighed[entry_id] if m.shown == shown), None)
    op = op_named(message.text, message.example) if message else ""
    return not op or bare_op(op) in set(tokens(entry.title)).union(*w.phrase_tokens[entry_id])


def _deciding_question(d: Diagnosis, w: Weigher) -> str:
    entries = [m.entry for m in d.matches]
    ev = d.evidence
    words = tokens(ev.prose)
    # the values tell the shapes apart; a report that already says its loss was nan or inf from the first value has
    # said what they would show, and is asked for what tells its candidates apart by cause
    if not ev.count and untrained_output_nonfinite(ev.prose):
        # an untrained model's forward pass: no loss to paste; what it reads decides
        return ("whether every parameter and the input batch are finite before the forward pass, and the largest "
                "absolute activation after each layer: a parameter that is nan before any update was never "
                "initialised, an input that is not finite is the data, and activations that grow layer by layer "
                "are the initial scale")
    said_start = ev.count < 3 and {"nan", "inf"} & set(words) and timing_of(words) == {"start"}
    # ... and one that says it fell and then went nan after a while ("goes down nicely for about 1,200 iterations and
    # then it's nan") has told the shape the values would show
    said_fell = ev.count < 3 and timing_of(words) == {"later"} and d.fell_said
    if ev.count < 3 and len({e.trace for e in entries}) > 1 and not said_start and not said_fell:
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
    if ev.first_nonfinite is None and not {"nan", "inf", "overflow", "divzero"} & set(words) \
            and not any(key in w.declarers for key in ev.messages):
        # nothing went nan or inf: no check that names the op of a nan decides, what the first candidate's does may
        # (a message no entry declares -- PyTorch's warning that a target's size differs from the input's -- is no
        # nan either: asking for anomaly mode's report "at the first nan" of a run with none asks for nothing)
        return _confirm_question(entries[0], ev)
    if rate_zero_failed(ev.prose):
        # a rate of 0 broke it: no update did, so no backward op's name decides; what the first candidate's own check
        # reads before any update does (each layer's spread at initialisation, the data)
        return _confirm_question(entries[0], ev)
    if entries[0].id in w.rate_proof and lr_tried(ev.prose) == "failed":
        # a lower rate did not move the failure, and the first candidate is one that breaks where it is met (a bad
        # batch): its own check, on the data, decides; an op's name would not
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
        return f"the warnings or errors printed {where} ({_said_printed(distinct[:3])})"
    return _confirm_question(entries[0], ev)


# An aside that gives the snippet's own numbers ("(9.055e+06 here)", "(20 in the snippet)"): not the user's
SNIPPET_ASIDE = lazy_regex.compile(r"\s*\([^()]*\b(?:here|in the snippet|the snippet's)\)")


# A check that asks for the run's first loss, which a paste whose values start at the run's start has printed
ASKS_FIRST_LOSS = lazy_regex.compile(r"print the first loss\b", re.I)


def _confirm_question(entry: Entry, ev: Evidence | None = None) -> str:
    """The first step of the entry's own check (its Confirm it section); past a first item that asks for the first
    loss, when the paste's values start at the run's start."""
    confirm = entry.sections.get("Confirm it", "").strip().split("\n\n")[0]
    if re.match(r"(?:[-*+]|\d+\.)\s", confirm):                  # a section that opens with a list: its first item
        items = [item.split(None, 1)[1] for item in re.split(r"\n(?=(?:[-*+]|\d+\.)\s)", confirm)]
        answered = ev is not None and ev.count and at_run_start(ev) and ASKS_FIRST_LOSS.match(items[0])
        confirm = items[1] if answered and len(items) > 1 else items[0]
    confirm = SNIPPET_ASIDE.sub("", " ".join(confirm.split()))
    step = SENTENCE_END.split(confirm, maxsplit=1)[0] if confirm else ""
    # (a terminal line: an item's bold lead, "**Overflow:**", as plain words)
    step = unemphasised(step)
    return f"the result of this check for {entry.id}: {step.rstrip('.')}" if step else "the full log of the run"



