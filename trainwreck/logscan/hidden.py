"""A non-finite loss that a logger did not print as one: Hugging Face's Trainer turns it into 0.0, Megatron-LM
leaves it out of the average and counts it.

With `logging_nan_inf_filter` (on by default), the Trainer does not add a step's loss that is nan or
inf to the interval's running total `tr_loss`; it adds the total's own mean instead, so one bad step
leaves the logged mean as it was. The total starts at 0 and is reset to 0 after each log, so when
*every* step of a logging interval was nan or inf it stays 0, and the log prints `'loss': 0.0`, while
the gradient norm printed right after it, which no filter touches, is nan or inf. (transformers
v4.48.0: trainer.py L2533-L2545 adds, L3045-L3067 logs, rounded to 4 places, and resets; the
argument's help text, training_args.py L340-L349, says it only affects logging: the bad steps still
run backward.) Every version that logs `grad_norm` (4.38 on) prints it right after the loss.

So, in a Trainer log, a `'loss': 0.0` followed by a nan or inf `'grad_norm'` is read as a non-finite
loss at that line, and the report says why. One risk is left: a loss under 0.00005 rounds to 0.0,
and under fp16 a step the loss scaler skips has an inf norm; an interval whose real loss was that low
and whose last step was skipped would be read as non-finite too.

Megatron-LM prints, per logging interval, the mean `lm loss` of the iterations that were not skipped and the
`number of nan iterations`: skipped iterations (the loss scaler found inf or nan gradients, under fp16 or a set
`--loss-scale`) whose loss itself was nan or inf, left out of the mean; both reset after each line (core_v0.15.0
training.py L1405-L1416 counts, L1630-L1651 averages, prints and resets). So a line whose count is 1 or more
had a non-finite loss within its interval, and its `lm loss` is read as that nan -- when no clean line follows it
in the block: nan iterations the run went on from were skipped steps, as the scaler means them to be.
"""
from __future__ import annotations

import re
from dataclasses import replace

from .evidence import Evidence

SOURCE = "https://github.com/huggingface/transformers/blob/v4.48.0/src/transformers/trainer.py#L2533-L2545"
HIDDEN = re.compile(rb"'loss': 0\.0(?=, 'grad_norm': -?(?:nan|inf)\b)")


def unhide(text: bytes, ev: Evidence, line0: int) -> bytes:
    """The block with each zero the filter logged for non-finite losses written as the nan it stands for,
    counted in the evidence (with the line of the first)."""
    if b"'loss': 0.0, 'grad_norm': " not in text:      # the usual block: one search in C, no regex
        return text
    out, n = HIDDEN.subn(b"'loss': nan", text)
    if n:
        _counted(ev, n, line0 + text.count(b"\n", 0, HIDDEN.search(text).start()) + 1)
    return out


def _counted(ev: Evidence, n: int, line: int) -> None:
    """n zeros read as the nan they hide, the first at this line (unless an earlier block had one)."""
    if ev.hidden_line is None:
        ev.hidden_line = line
    ev.hidden_zeros += n


# The same pair in Weights & Biases' closing run summary of a Trainer run (`wandb:  train/grad_norm nan`, then
# `wandb:  train/loss 0.0`: the last value each metric logged, the keys sorted).
SUMMARY_GRAD = re.compile(rb"(?m)^wandb:[ \t]+train/grad_norm[ \t]+-?(?:nan|inf)[ \t]*\r?$")
SUMMARY_ZERO = re.compile(rb"(?m)^(wandb:[ \t]+train/loss[ \t]+)0\.0[ \t]*(?=\r?$)")


def unhide_summary(text: bytes, ev: Evidence, line0: int) -> bytes:
    """unhide() for a W&B run summary: its last logged loss of 0.0 beside a non-finite last gradient norm."""
    if b"train/grad_norm" not in text or not SUMMARY_GRAD.search(text):
        return text
    zero = SUMMARY_ZERO.search(text)
    if zero is None:
        return text
    _counted(ev, 1, line0 + text.count(b"\n", 0, zero.start()) + 1)
    return text[:zero.start()] + zero.group(1) + b"nan" + text[zero.end():]


MEGATRON_SOURCE = ("https://github.com/NVIDIA/Megatron-LM/blob/core_v0.15.0/megatron/training/training.py"
                   "#L1405-L1416")
MEGATRON_NAN = re.compile(rb"(lm loss: )[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?(?= \|[^\n]*? number of nan iterations: *[1-9])")
MEGATRON_CLEAN = re.compile(rb"number of nan iterations: *0 *\|")


def unhide_megatron(text: bytes, ev: Evidence, line0: int) -> bytes:
    """The block with the mean `lm loss` of each interval that counted a nan iteration written as that nan -- those
    the block ends on: an interval or two of nan iterations that the loss scaler skipped, followed by clean ones, is
    a run that went on (a skipped step is what the scaler is for), not one that broke."""
    if b"number of nan iterations" not in text:
        return text
    last_clean = max((m.end() for m in MEGATRON_CLEAN.finditer(text)), default=None)
    start = 0 if last_clean is None else text.find(b"\n", last_clean) + 1
    first = MEGATRON_NAN.search(text, start) if last_clean is None or start else None   # (a clean last line: none)
    if first is None:
        return text
    out, n = MEGATRON_NAN.subn(rb"\1nan", text[start:])
    _counted(ev, n, line0 + text.count(b"\n", 0, first.start()) + 1)
    return text[:start] + out


def with_hidden(ev: Evidence) -> Evidence:
    """The evidence with the report's words for the values read as nan, or as it was."""
    if not ev.hidden_zeros:
        return ev
    if ev.dialect == "Megatron-LM":
        note = (f"Megatron-LM counted nan iterations on {ev.hidden_zeros} line(s), the first on line "
                f"{ev.hidden_line}: an iteration whose loss was nan or inf, skipped and left out of the mean `lm loss` "
                f"printed beside the count, so each such line is read as a non-finite loss ({MEGATRON_SOURCE})")
    else:
        note = (f"the Trainer logged a loss of exactly 0.0 beside a nan or inf gradient norm on {ev.hidden_zeros} "
                f"line(s), the first on line {ev.hidden_line}: its default nan/inf filter (logging_nan_inf_filter) "
                "logs 0.0 for an interval in which every step's loss was nan or inf, so each is read as a non-finite "
                f"loss ({SOURCE})")
    first_is_hidden = ev.first_nonfinite_at is not None and ev.first_nonfinite_at.line == ev.hidden_line
    return replace(ev, hidden_note=note, hidden_kind="inf or nan" if first_is_hidden else ev.hidden_kind)
