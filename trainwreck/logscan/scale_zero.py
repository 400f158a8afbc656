"""A loss scale halved to zero: the ZeroDivisionError that NVIDIA Apex's amp raises.

Apex's dynamic loss scaler keeps its scale as a Python float. Each step whose gradients hold an inf
or a nan is skipped and the scale is halved (`update_scale`); it is doubled again only after 2000
clean steps in a row, and it has no floor unless `min_loss_scale` is set. Unscaling the gradients divides by the scale (`1./scale`, or
`out_scale/grads_have_scale`), so once the scale has become 0.0 the division raises
`ZeroDivisionError: float division by zero` ("division by zero" from Python 3.14 on). From the
default 65536 (2**16) that takes 1,091 halvings with never 2000 clean steps in a row between them: the 1,090th gives 2**-1074, the smallest
float, and halving that rounds to 0.0. (Apex 25.05, apex/amp/scaler.py L38-L47, L117, L176 and
L197-L207; amp was removed in 25.07, NVIDIA/apex#1896.)

So the error says that the gradients were inf or nan at 1,091 steps, none far from the next. After the
294th halving (a scale of 2**-278) any finite float32 loss times the scale is 0 in float32 (Apex
scales `loss.float()`, handle.py L113), so at the last 797 of those steps a finite loss gives zero
gradients and no overflow: the loss itself was inf or nan, or the backward pass made a nan out of a
zero gradient (0 times an inf the forward pass held, or times a slope that is infinite where it is
taken). It names no cause, and its words are not the reporter's: like a check's stop (stops.py) it is
read as a non-finite value at its line, and its text is taken out of the words matched against the
entries. It is read so only in a report that shows Apex's amp; any other division by zero is the
reporter's own.
"""
from __future__ import annotations

import re

from .evidence import Evidence
from .positions import Position
from .stops import _appended, without_message

SOURCE = "https://github.com/NVIDIA/apex/blob/25.05/apex/amp/scaler.py#L197-L207"
INIT_SCALE = 2.0 ** 16          # LossScaler's init_scale
HALVINGS = 1091                 # from INIT_SCALE to 0.0 (a test recomputes both)
ZEROED = 294                    # ... to a scale at which every finite float32 loss scales to 0.0
MESSAGE = re.compile(r"(?:float )?division by zero")
# The report shows Apex's amp: its import, its calls, or a traceback frame in its files.
APEX = re.compile(r"\bfrom apex import amp\b|\bapex\.amp\b|\bamp\.(?:initialize|scale_loss)\b|apex[/\\]amp[/\\]")


def scale_zero_of(example: str, prose: str) -> bool:
    """Is this message Apex's division by a loss scale halved to zero?"""
    return bool(MESSAGE.fullmatch(example.strip())) and bool(APEX.search(prose))


def with_scale_zero(ev: Evidence) -> Evidence:
    """The evidence with a non-finite value at the line of Apex's ZeroDivisionError (see the module's
    docstring), or as it was."""
    if ev.first_nonfinite is not None:
        return ev
    last_line = ev.last_at.line if ev.last_at is not None else 0
    for key, (_count, first, text, _origin) in ev.messages.items():
        line = ev.message_last.get(key, first)
        if line <= last_line or not scale_zero_of(text, ev.prose):
            continue
        note = (f"`ZeroDivisionError: {text}` (line {line}) with Apex's amp is its loss scaler dividing by a scale "
                f"halved to 0.0: from {INIT_SCALE:g} that takes {HALVINGS:,} skipped steps, each with an inf or nan "
                f"gradient and never 2000 clean steps in a row between them ({SOURCE}); at the last {HALVINGS - ZEROED} of them any finite loss times the scale "
                "was 0, so the loss itself was not finite, or its backward pass made a nan out of a zero gradient; "
                "it is read as a non-finite value there")
        return _appended(ev, float("nan"), Position(line), "inf or nan", note)
    return ev


def without_scale_zero(ev: Evidence) -> str:
    """The report's text without that message: the words are Python's, not a description."""
    prose = ev.prose
    for _count, _line, text, _origin in ev.messages.values():
        if scale_zero_of(text, prose):
            prose = without_message(prose, text)
    return prose
