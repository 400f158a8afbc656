"""A loss scale halved to zero: the ZeroDivisionError that NVIDIA Apex's amp raises.

Apex's dynamic loss scaler keeps its scale as a Python float, 65536 (2**16) at the start. Each step
whose gradients hold an inf or a nan is skipped and the scale is halved; each 2000 clean steps in a
row double it; there is no floor unless `min_loss_scale` is set (`update_scale`). Unscaling divides
by the scale (`1./scale`, or `out_scale/grads_have_scale`), so a scale of 0.0 raises
`ZeroDivisionError: float division by zero`. That takes 1,091 more halvings than doublings: the
1,090th gives 2**-1074, the smallest float, and halving that rounds to 0.0. (Apex 25.05,
apex/amp/scaler.py L38-L47, L117, L176 and L197-L215; amp was removed in 25.07, NVIDIA/apex#1896.)

Only some of those halvings are the model's. After the 129th (a scale of 2**-113) no finite float32
gradient overflows float16 once scaled, so the 15 halvings that take the scale on to 2**-128 each came
from a value no scale brings into range: an overflow in the forward pass, which the scale does not
reach, a loss that was not finite, or a slope that is infinite at a finite point (sqrt or a norm at 0).
From the 144th on, `1./scale` is inf in float32, and Apex checks only the incoming gradients, not the
unscaled ones: the first step whose gradients are finite is unscaled into inf or nan without being
skipped, the weights take it, and the rest of the fall follows by itself. So the scaler ran out of
range, the failure DeepSpeed reports as `Current loss scale already at minimum` (SAME_AS): it is
weighed as that message.

It is read so only as Apex's: the report shows Apex (its import, `amp.initialize`, a backend set to
apex, or a traceback frame in its files), and when a traceback is shown, its last frame before the
error is in Apex's files. Any other division by zero is the reporter's own. (`amp.scale_loss` alone
is MXNet's API too.) Its words are Python's, not the reporter's: they are taken out of the text
matched against the entries.
"""
from __future__ import annotations

import re

from .evidence import Evidence
from .stops import without_message

SOURCE = "https://github.com/NVIDIA/apex/blob/25.05/apex/amp/scaler.py#L197-L215"
INIT_SCALE = 2.0 ** 16          # LossScaler's init_scale
HALVINGS = 1091                 # net halvings from INIT_SCALE to 0.0 (a test recomputes both)
FITS = 129                      # ... to 2**-113, where no finite float32 value overflows float16 once scaled
UNSCALE_INF = 144               # ... to 2**-128, where 1/scale is inf in float32
# The declared message that says the same: the scaler at the end of its range
SAME_AS = "Current loss scale already at minimum - cannot decrease scale anymore. Exiting run."
MESSAGE = "float division by zero"       # Apex divides floats; Apex's amp was gone before Python 3.14 reworded it
APEX_FILE = r"apex[/\\](?:amp|optimizers)[/\\]"   # where Apex's scaler divides (FusedSGD's too)
APEX = re.compile(r"\bfrom apex import [\w, ]*\bamp\b|\bapex\.amp\b|\bamp\.initiali[sz]e\(|"
                  r"\b(?:amp|fp16|half_precision)_backend\W{1,3}apex\b|" + APEX_FILE)
FRAME = re.compile(r'File "([^"\n]+)", line \d+')
WHY = (f"Apex's loss scaler divides by its scale, which is 0.0 only after {HALVINGS:,} more halvings than "
       f"doublings from {INIT_SCALE:g}; the {UNSCALE_INF - FITS} that take it from 2**-113 to 2**-128 can only come "
       "from an inf or nan that no scale removes (below that, its own unscaling makes them): the scaler ran out "
       f"of range ({SOURCE})")


def scale_zero_of(example: str, prose: str, line: int) -> bool:
    """Is this message, printed at this line of the report, Apex's division by a loss scale halved to zero?"""
    if example.strip() != MESSAGE or not APEX.search(prose):
        return False
    frames = FRAME.findall("\n".join(prose.splitlines()[:max(line - 1, 0)]))
    return not frames or bool(re.search(APEX_FILE, frames[-1]))


def scale_zero_key(ev: Evidence) -> str | None:
    """The key of the message that is Apex's division by a scale of zero, if the report holds one. Decided on
    the report as read, before any of its words are taken out; the message's last line is where it was raised."""
    return next((k for k, (_c, first, text, _o) in ev.messages.items()
                 if scale_zero_of(text, ev.prose, ev.message_last.get(k, first))), None)


def without_scale_zero(ev: Evidence, key: str | None) -> str:
    """The report's text without that message: the words are Python's, not a description."""
    return without_message(ev.prose, ev.messages[key][2]) if key is not None else ev.prose
