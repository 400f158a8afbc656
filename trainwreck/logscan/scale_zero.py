"""A loss scale halved to zero: the ZeroDivisionError that NVIDIA Apex's amp raises.

Apex's dynamic loss scaler keeps its scale as a Python float, 65536 (2**16) at the start. Each step
whose gradients hold an inf or a nan is skipped and the scale is halved; each 2000 clean steps in a
row double it; there is no floor unless `min_loss_scale` is set (`update_scale`). Unscaling divides
by the scale (`1./scale`, or `out_scale/grads_have_scale`), so a scale of 0.0 raises
`ZeroDivisionError: float division by zero`. That takes 1,091 more halvings than doublings: the
1,090th gives 2**-1074, the smallest float, and halving that rounds to 0.0. (Apex 25.05,
apex/amp/scaler.py L38-L47, L117, L176 and L197-L215; amp was removed in 25.07, NVIDIA/apex#1896.)

What the error shows is the first 144 of those net halvings. Below a scale of 1 a gradient that float16
can hold no longer overflows when scaled, and down to 2**-128 the halvings go on only while the
gradients hold an inf or nan that scaling the loss down does not remove: an overflow in the forward
pass, which the scale does not reach, or a loss that was not finite. From 2**-128 on, `1./scale` is
inf in float32, and Apex checks only the incoming gradients, not the unscaled ones: the first step
whose gradients are finite is unscaled into inf or nan without being skipped, the weights take it,
and the rest of the fall follows by itself. So the scaler ran out of range, the failure DeepSpeed
reports as `Current loss scale already at minimum` (SAME_AS): it is weighed as that message.

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
UNSCALE_INF = 144               # ... to 2**-128, where 1/scale is inf in float32
# The declared message that says the same: the scaler at the end of its range
SAME_AS = "Current loss scale already at minimum - cannot decrease scale anymore. Exiting run."
MESSAGE = "float division by zero"       # Apex divides floats; Apex's amp was gone before Python 3.14 reworded it
APEX = re.compile(r"\bfrom apex import [\w, ]*\bamp\b|\bapex\.amp\b|\bamp\.initiali[sz]e\(|"
                  r"\b(?:amp|fp16|half_precision)_backend\W{1,3}apex\b|apex[/\\](?:amp|optimizers)[/\\]")
FRAME = re.compile(r'File "([^"\n]+)", line \d+')
WHY = (f"Apex's loss scaler divides by its scale, which is 0.0 only after {HALVINGS:,} more halvings than "
       f"doublings from {INIT_SCALE:g}; the first {UNSCALE_INF} of them, down to 2**-128, were steps whose "
       "gradients held an inf or nan that scaling the loss down did not remove (below that, its own unscaling "
       f"makes them): the scaler ran out of range ({SOURCE})")


def scale_zero_of(example: str, prose: str) -> bool:
    """Is this message Apex's division by a loss scale halved to zero?"""
    if example.strip() != MESSAGE or not APEX.search(prose):
        return False
    at = prose.find(MESSAGE)
    frames = FRAME.findall(prose, 0, at if at >= 0 else len(prose))
    return not frames or bool(re.search(r"apex[/\\](?:amp|optimizers)[/\\]", frames[-1]))


def scale_zero_key(ev: Evidence) -> str | None:
    """The key of the message that is Apex's division by a scale of zero, if the report holds one."""
    return next((k for k, (_c, _l, text, _o) in ev.messages.items() if scale_zero_of(text, ev.prose)), None)


def without_scale_zero(ev: Evidence) -> str:
    """The report's text without that message: the words are Python's, not a description."""
    key = scale_zero_key(ev)
    return without_message(ev.prose, ev.messages[key][2]) if key is not None else ev.prose
