"""From the evidence in a log to the entries that explain it."""
from __future__ import annotations

import math
import re
from dataclasses import dataclass, field

from .catalog import Catalog
from .entry import TRACES, Entry
from .logscan import KEEP, Evidence
from .watch_rule import WATCH_RULE, sustained_climb   # the loss watch's rule, one definition

# Shape of the curve just before a blow-up: it counts as a climb after this many
# rises, or after one rise of at least this factor.
SHAPE_RISES, SHAPE_RATIO = 2, 1.5
# A first value this many times the lowest later one is "enormous from the start".
ENORMOUS = 100.0
# An early spike: within the first SPIKE_WINDOW values, SPIKE_RATIO times the first one.
SPIKE_WINDOW, SPIKE_RATIO = 10, 3.0
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
# Signatures that are a special or early case of another: entries declaring the
# general one get part credit (a climb still finite may be WR-220 caught early;
# a climb after a long descent is still a climb).
PART_OF = {"climb-despite-clipping": "climb-then-nonfinite", "climbing": "climb-then-nonfinite",
           "descent-then-climb": "climb-then-nonfinite"}


@dataclass
class Signature:
    name: str                      # a TRACES key, or healthy | climbing | no-loss
    facts: list[str] = field(default_factory=list)
    climb_warning: int | None = None   # epoch at which the loss watch would have warned


@dataclass
class Match:
    entry: Entry
    score: float
    evidence: list[str]
    against: list[str]
    fix: str


@dataclass
class Diagnosis:
    evidence: Evidence
    signature: Signature
    matches: list[Match]
    unweighed: list[str]

    @property
    def verdict(self) -> str:
        if self.matches:
            return "failure"
        if self.signature.name in TRACES or self.signature.name == "climbing" or self.unweighed:
            return "unexplained"
        return "healthy" if self.signature.name == "healthy" else "no-evidence"


def _rises_before(values: list[float]) -> int:
    n = 0
    while n + 1 < len(values) and values[-1 - n] > values[-2 - n]:
        n += 1
    return n


def _fmt(v: float) -> str:
    return f"{v:.4g}"


def signature_of(ev: Evidence) -> Signature:
    if ev.count == 0:
        return Signature("no-loss", ["no loss values found (looked for `loss: 0.7`, `loss=0.7`, `'loss': 0.7`, "
                                     "Keras progress lines, a CSV loss column, one number per line)"])
    t = ev.first_nonfinite
    warn = sustained_climb(ev.before)
    warn_epoch = ev.epoch(ev.before_start + warn) if warn is not None else None
    if t is not None:
        kind = "nan" if math.isnan(ev.first_nonfinite_value) else "inf"
        tail = (f"non-finite to the end (epoch {ev.epoch(ev.count - 1)})" if ev.finite_after == 0
                else f"followed by {ev.finite_after} finite value(s) later")
        nan_note = (f", nan from epoch {ev.epoch(ev.first_nan)}" if ev.first_nan is not None and ev.first_nan != t
                    else "")
        ending = f"first {kind} at epoch {ev.epoch(t)}{nan_note}, {tail}"
        finite = [v for v in ev.before if math.isfinite(v)]
        if t == 0:
            return Signature("nonfinite-from-start", [f"the very first loss value is {kind}: there was no healthy "
                                                      f"start; {ending}"])
        if ev.before_start == 0 and len(finite) > 1 and finite[0] >= ENORMOUS * min(finite[1:]):
            return Signature("nonfinite-from-start", [f"the first loss ({_fmt(finite[0])}) is over {ENORMOUS:g}x "
                                                      f"the lowest later one ({_fmt(min(finite[1:]))}): no healthy "
                                                      f"start; {ending}"])
        rises = _rises_before(ev.before)
        if rises >= SHAPE_RISES or (rises == 1 and ev.before[-1] >= SHAPE_RATIO * ev.before[-2]):
            start = len(ev.before) - 1 - rises
            a, b = ev.before[start], ev.before[-1]
            growth = (b / a) ** (1 / rises) if a > 0 else math.inf
            facts = [f"loss rose {rises} epoch(s) in a row from epoch {ev.epoch(ev.before_start + start)}, "
                     f"about x{growth:.2g} per epoch ({_fmt(a)} -> {_fmt(b)}); {ending}"]
            descent = _descent_before_climb(ev)
            if descent:
                facts.insert(0, descent)
            if warn_epoch is not None:
                facts.append(f"a loss watch ({WATCH_RULE}) would have "
                             f"warned at epoch {warn_epoch}, {ev.epoch(t) - warn_epoch} epoch(s) before")
            if ev.clip_at is not None and ev.grad_paired and ev.grad_max_before is not None \
                    and ev.grad_max_before <= ev.clip_at:
                facts.append(f"gradient clipping at {ev.clip_at:g} never engaged: the largest gradient norm "
                             f"before the blow-up was {_fmt(ev.grad_max_before)}")
                return Signature("climb-despite-clipping", facts, warn_epoch)
            return Signature("descent-then-climb" if descent else "climb-then-nonfinite", facts, warn_epoch)
        return Signature("descent-then-nonfinite",
                         [f"the loss was not climbing ({_fmt(ev.before[0])} at epoch {ev.epoch(ev.before_start)}, "
                          f"{_fmt(ev.before[-1])} at epoch {ev.epoch(t - 1)}) and jumped straight to {kind}: "
                          f"{ending}"])
    early = ev.head[:SPIKE_WINDOW]
    peak = max(range(len(early)), key=early.__getitem__) if early else 0
    if early and early[peak] >= SPIKE_RATIO * early[0] and ev.last < early[0]:
        return Signature("spike-then-recover",
                         [f"the loss jumped from {_fmt(early[0])} to {_fmt(early[peak])} at epoch {ev.epoch(peak)} "
                          f"(x{early[peak] / early[0]:.2g}), then recovered and ended at {_fmt(ev.last)}, "
                          "below where it started"], warn_epoch)
    end_rises = _rises_before(ev.before)
    if end_rises and sustained_climb(ev.before[-1 - end_rises:]) is not None:   # the alarm is for the climb still going
        return Signature("climbing", [f"no non-finite value yet, but the loss has risen {end_rises} epochs in a row "
                                      f"to {_fmt(ev.before[-1])} at the end (epoch {ev.epoch(ev.count - 1)})"],
                         warn_epoch)
    flat = _plateau(ev) or _stall(ev)
    if flat:
        return Signature(*flat)
    first, last = ev.head[0], ev.last
    trend = "fell" if last < first else "did not fall"
    return Signature("healthy", [f"{ev.count} loss values, all finite: the loss {trend} from {_fmt(first)} to "
                                 f"{_fmt(last)}" + (f"; it climbed for a while around epoch {warn_epoch} and recovered"
                                                     if warn_epoch is not None else "")], warn_epoch)


def _descent_before_climb(ev: Evidence) -> str | None:
    """The fact that the run fell for a good while before the climb, if it did."""
    first = ev.head[0]
    if ev.low is None or not first > 0 or ev.low_at < DESCENT_MIN or ev.low > (1 - DESCENT_FALL) * first:
        return None
    return (f"the loss first fell for {ev.low_at} values, from {_fmt(first)} at epoch {ev.epoch(0)} to "
            f"{_fmt(ev.low)} at epoch {ev.epoch(ev.low_at)}, then turned and climbed: the steps grew as "
            "training went on")


def _shape_judged(ev: Evidence) -> bool:
    """Enough finite, positive values from the run's start to judge a plateau or a stall."""
    return (ev.count >= SHAPE_MIN and ev.low is not None and ev.low > 0
            and ev.epoch_of_first in (None, 0, 1))


def _plateau(ev: Evidence) -> tuple[str, list[str]] | None:
    first = ev.head[0]
    if not _shape_judged(ev) or ev.low < (1 - PLATEAU_FALL) * first or ev.high > (1 + PLATEAU_FALL) * first:
        return None
    return ("plateau-from-start",
            [f"over {ev.count} values (epochs {ev.epoch(0)} to {ev.epoch(ev.count - 1)}) the loss stayed within "
             f"{PLATEAU_FALL:.0%} of its first value {_fmt(first)} (lowest {_fmt(ev.low)}, highest "
             f"{_fmt(ev.high)}): it never learned"])


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
    return ("stall-after-drop",
            [f"the loss fell from {_fmt(first)} at epoch {ev.epoch(0)} to {_fmt(ev.low)} at epoch "
             f"{ev.epoch(ev.low_at)}, then stopped: the last {n} values (epochs {ev.epoch(start)} to "
             f"{ev.epoch(ev.count - 1)}) stay within {FLAT:.0%} of {_fmt(level)}, "
             f"{level / first:.0%} of where it started"])


def _within(values: list[float], tolerance: float) -> bool:
    low, high = min(values), max(values)
    return high - low <= tolerance * low


def first_fix_step(entry: Entry) -> str:
    text = entry.sections.get("Fix", "").split("\n\n")[0]
    sentence = re.split(r"(?<=[.!?])\s", " ".join(text.split()), maxsplit=1)[0]
    return sentence


def diagnose(ev: Evidence, catalog: Catalog) -> Diagnosis:
    sig = signature_of(ev)
    declarers: dict[str, list[str]] = {}
    for e in catalog.entries.values():
        for m in e.messages:
            declarers.setdefault(m.shown.lower(), []).append(e.id)
    found = {text.lower(): (text, count, line) for text, (count, line) in ev.messages.items()}
    matches = []
    for entry in catalog.sorted_entries():
        if entry.status == "retired":
            continue
        score, evidence, against = 0.0, [], []
        curve = 3.0 if sig.name == entry.trace else 1.5 if PART_OF.get(sig.name) == entry.trace else 0.0
        if curve:
            score += curve
            evidence += sig.facts
        elif sig.name in TRACES and entry.trace != "none" and PART_OF.get(entry.trace) != sig.name:
            against.append(f"the loss curve does not look like this entry's ({TRACES[entry.trace]})")
        hits = [m.shown for m in entry.messages if m.shown.lower() in found]
        for m in hits:
            score += 1 / len(declarers[m.lower()])
            text, count, line = found[m.lower()]
            evidence.append(f'message "{text}" (line {line}' + (f", {count} times)" if count > 1 else ")"))
        if hits and ev.count == 0 and entry.trace == "none":
            score += 0.5      # a messages-only entry fully explains a log with no loss values
        if entry.messages and not hits and sig.name == entry.trace:
            score -= 0.5      # the curve fits, but none of the warnings this failure prints are there
            against.append("none of the messages this failure prints are in the log")
        if score > 0 and (curve or hits):
            matches.append(Match(entry, score, evidence, against, first_fix_step(entry)))
    matches.sort(key=lambda m: (-m.score, m.entry.id))
    unweighed = [f'message "{text}" (line {line}) is not declared by any entry'
                 for key, (text, count, line) in found.items() if key not in declarers]
    if sig.name in TRACES and not any(e.trace == sig.name for e in catalog.entries.values()):
        unweighed.append(f"loss curve: {TRACES[sig.name]} -- no entry declares this signature yet")
    return Diagnosis(ev, sig, matches, unweighed)


def report(d: Diagnosis) -> str:
    ev = d.evidence
    numbering = "as numbered in the log" if ev.epoch_of_first is not None else "counting loss values from 1"
    lines = [f"{ev.source}: {ev.lines} line(s), {ev.count} loss value(s) (epochs {numbering}), "
             f"{sum(c for c, _ in ev.messages.values())} known message(s)", ""]
    if d.matches:
        for i, m in enumerate(d.matches, 1):
            lines.append(f"{i}. {m.entry.id}  {m.entry.title}")
            lines += [f"   evidence: {fact}" for fact in m.evidence]
            lines += [f"   against:  {fact}" for fact in m.against]
            lines.append(f"   first step of the fix: {m.fix}")
            lines.append(f"   more: trainwreck show {m.entry.id}")
            lines.append("")
    elif d.verdict == "healthy":
        lines += [f"No known failure found. {d.signature.facts[0]}.",
                  "Checked: non-finite loss values, a sustained climb, an enormous first value, "
                  "and the known warning messages.", ""]
    elif d.verdict == "no-evidence":
        lines += ["No known failure found, but there was little to go on: " + "; ".join(d.signature.facts)
                  + ", and no known warning message.", ""]
    else:
        lines += ["No entry of the catalogue explains this log. What was found:"] + \
                 [f"   {fact}" for fact in d.signature.facts] + [""]
    if d.unweighed:
        lines.append("Not weighed:")
        lines += [f"   {u}" for u in d.unweighed]
        lines.append("")
    if ev.long_lines:
        lines.append(f"note: {ev.long_lines} very long line(s) were read in pieces")
    return "\n".join(lines).rstrip() + "\n"


def as_json(d: Diagnosis) -> dict:
    ev = d.evidence
    return {
        "source": ev.source,
        "verdict": d.verdict,
        "lines": ev.lines,
        "loss_values": ev.count,
        "signature": {"name": d.signature.name, "facts": d.signature.facts,
                      "watch_warning_epoch": d.signature.climb_warning},
        "first_nonfinite_epoch": ev.epoch(ev.first_nonfinite) if ev.first_nonfinite is not None else None,
        "messages": [{"text": t, "count": c, "first_line": line} for t, (c, line) in ev.messages.items()],
        "matches": [{"id": m.entry.id, "title": m.entry.title, "score": round(m.score, 3),
                     "evidence": m.evidence, "against": m.against, "fix": m.fix} for m in d.matches],
        "unweighed": d.unweighed,
    }
