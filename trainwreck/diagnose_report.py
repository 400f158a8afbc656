"""A diagnosis as a person reads it, and as a script reads it.

Everything that came from the log (message texts, the file name) is passed
through safe_text.printable first: a log may hold escape sequences that would
otherwise reach the terminal.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from .plural import counted
from .safe_text import printable

if TYPE_CHECKING:
    from .diagnose import Diagnosis


def _size(n: int) -> str:
    for unit, scale in (("GB", 1e9), ("MB", 1e6), ("kB", 1e3)):
        if n >= scale:
            return f"{n / scale:.1f} {unit}"
    return f"{n} bytes"


# Why the loss read is not the plain `loss` (layout.Layout.named)
NAMED_BECAUSE = {"named": "the first of the losses each line names",
                 "broke": "the first of the losses each line names to turn non-finite",
                 "own": "the first loss of its own the log prints",
                 "total": "a total of its parts"}


def header(d: Diagnosis) -> str:
    ev = d.evidence
    numbering = "numbered as in the log" if ev.numbered else "placed by line"
    what = f"{counted(ev.count, 'loss value')} ({numbering})" if ev.count else "no loss values"
    if not ev.count and ev.refused:
        what += f" ({'; '.join(ev.refused)}: not read)"
    if ev.runs:
        what += f"; {ev.runs}"
    # (a format whose key was seen but gave no value is not how the text was read)
    fmt = f", read as {ev.dialect}" if ev.dialect and ev.count else ""
    if not ev.count:
        pass                       # a loss named only in the words (`nn.CrossEntropyLoss`) is no loss the log prints
    elif ev.loss_key:
        fmt += f" (the loss read is `{ev.loss_key}`: the log prints the parts, not their total)"
    elif ev.loss_named[0]:
        fmt += f" (the loss read is `{ev.loss_named[0]}`, {NAMED_BECAUSE[ev.loss_named[1]]})"
    return (f"{ev.source}: {ev.lines} line(s), {_size(ev.size)}{fmt}; {what}, "
            f"{sum(c for c, *_ in ev.messages.values()) + ev.more_messages} warning or error message(s)")


def capitalised(sentence: str) -> str:
    """A fact, written to follow "evidence:", opening a sentence of its own."""
    return sentence[:1].upper() + sentence[1:]


def report(d: Diagnosis) -> str:
    ev = d.evidence
    lines = [header(d), ""]
    for carried, note in d.read:      # how a message was read: said even when no entry shown carries it
        if not carried or d.matches and not any(carried in e for m in d.matches for e in m.evidence):
            lines += [f"Read: {note}.", ""]
    if d.verdict == "failure":
        lines += _candidates(d)
    elif d.verdict == "uncertain":
        even = ("" if d.even < 2 else " (the first two are about even: the evidence here does not order them)"
                if d.even == 2 else f" (the first {d.even} are about even: the evidence here does not order them)")
        lines += [f"Cannot tell yet. The evidence fits more than one entry; the candidates, best first{even}:"
                  if len(d.matches) > 1 else "Cannot tell yet. One entry fits, but the evidence is too thin to name it:",
                  ""]
        if d.signature.name == "healthy":          # the evidence is the paste's words or code: the curve is said too
            lines += [f"(The loss values alone show no known failure: {'; '.join(d.signature.facts)}.)", ""]
        lines += _candidates(d)
        lines += [f"To decide, paste {d.ask}.", ""]
    elif d.verdict == "normal":
        lines.append(f"This looks normal ({d.normal[0].name}): {d.normal[0].explanation}.")
        if d.trend:
            lines.append(f"Here, {d.trend}.")
        if d.signature.name == "healthy":          # the curve pasted beside the question
            lines.append(f"The training loss shows no known failure: {'; '.join(d.signature.facts)}.")
        lines += [f"To be sure, check {d.ask}.", ""] if d.ask else [""]
        if d.matches:
            lines.append("If it is a failure after all, the closest entries: "
                         + ", ".join(f"{m.entry.id} ({m.entry.title})" for m in d.matches) + ".")
            lines.append("")
    elif d.verdict == "healthy":
        shapes = " a plateau, a stall," if "plateau or a stall" not in d.signature.facts[0] else ""
        lines += [f"No known failure found{' in the training loss' if d.validation else ''}. {capitalised(d.signature.facts[0])}.",
                  f"Checked: non-finite loss values, a sustained climb, an enormous first value,{shapes} "
                  "and the known warning messages.", ""]
        if d.trend:
            lines += [f"But {d.trend}.", ""]
        lines += _validation_note(d)
    elif d.verdict == "no-evidence":
        lines += ["No known failure found, but there was little to go on: " + "; ".join(d.signature.facts)
                  + ", and no known warning message.", f"To decide, paste {d.ask}.", ""]
        if d.trend:
            lines += [f"But {d.trend}.", ""]
        lines += _validation_note(d)
    else:
        lines += ["No entry of the catalogue explains this log: it is not covered. What was found:"] + \
                 [f"   {fact}" for fact in d.signature.facts] + [""]
    if d.verdict not in ("healthy", "no-evidence"):
        lines += _validation_note(d, "Note:")
    if d.unweighed:
        lines.append("Not weighed:")
        lines += [f"   {u}" for u in d.unweighed]
        lines.append("")
    if ev.long_lines:
        lines.append(f"note: {ev.long_lines} line(s) longer than 4 MB were read in pieces")
    return printable("\n".join(lines).rstrip() + "\n")


def _validation_note(d: Diagnosis, lead: str = "But") -> list[str]:
    if not d.validation:
        return []
    return [f"{lead} {d.validation}: only the training loss is diagnosed. A loss that is not finite in validation "
            "alone comes from what only validation sees: its data, the model in evaluation mode (BatchNorm's "
            "running statistics instead of the batch's), or a batch with nothing to average (empty, or every "
            "target ignored: a mean over no elements is nan).", ""]


def _candidates(d: Diagnosis) -> list[str]:
    lines = []
    for i, m in enumerate(d.matches, 1):
        lines.append(f"{i}. {m.entry.id}  {m.entry.title}")
        lines += [f"   evidence: {fact}" for fact in m.evidence]
        lines += [f"   against:  {fact}" for fact in m.against]
        if m.fix_lines:         # (a step that opens a list: one item a line, not a paragraph on one line)
            lines.append(f"   first step of the fix: {m.fix_lines[0]}")
            lines += [f"      - {item}" for item in m.fix_lines[1:]]
        else:
            lines.append(f"   first step of the fix: {m.fix}")
        lines.append(f"   more: trainwreck show {m.entry.id}")
        lines.append("")
    return lines


def as_json(d: Diagnosis) -> dict:
    ev = d.evidence

    def clean(value):
        if isinstance(value, str):
            return printable(value, keep="")
        if isinstance(value, list):
            return [clean(v) for v in value]
        if isinstance(value, dict):
            return {k: clean(v) for k, v in value.items()}
        return value

    return clean({
        "source": ev.source,
        "verdict": d.verdict,
        "lines": ev.lines,
        "bytes": ev.size,
        "format": ev.dialect,
        "loss_read": (ev.loss_key or None) if ev.count else None,
        "loss_named": (ev.loss_named[0] or None) if ev.count else None,
        "frameworks": ev.frameworks,
        "loss_values": ev.count,
        "signature": {"name": d.signature.name, "facts": d.signature.facts,
                      "watch_warning": d.signature.climb_warning_at or None},
        "first_nonfinite": ev.where(ev.first_nonfinite) if ev.first_nonfinite is not None else None,
        "messages": [{"text": text, "count": c, "first_line": line, "from": origin}
                     for c, line, text, origin in ev.messages.values()],
        "more_messages": ev.more_messages,
        "even": d.even,
        "matches": [{"id": m.entry.id, "title": m.entry.title, "score": m.score,
                     "evidence": m.evidence, "against": m.against, "fix": m.fix} for m in d.matches],
        "ask": d.ask or None,
        "normal": [{"name": n.name, "explanation": n.explanation} for n in d.normal] if d.verdict == "normal" else [],
        "unweighed": d.unweighed,
        "read": [note for _carried, note in d.read],
        "validation_nonfinite": d.validation or None,
    })


def error_json(source: str, message: str) -> dict:
    """The JSON answer when the input could not be read: the same one-line message, and no diagnosis."""
    return {"source": printable(source, keep=""), "verdict": "error", "error": printable(message, keep="")}
