"""Megatron-LM's training log: ` iteration      100/  500000 | consumed samples: ... | lm loss: 7.123456E+00 |
loss scale: 65536.0 | grad norm: 2.345 | number of skipped iterations:   0 | number of nan iterations:   0 |`.

`loss scale` is the mixed-precision scaler, not a loss, and `validation loss at iteration 1000 |
lm loss value: ...` lines are validation. A line that counts nan iterations had a non-finite loss that
its mean leaves out: that mean is read as nan (hidden.py).

`train_step` zeroes the gradient buffers before each forward-backward pass
(https://github.com/NVIDIA/Megatron-LM/blob/core_v0.15.0/megatron/training/training.py#L1245-L1249).
"""
import re

from . import Dialect
from .. import hidden

DIALECT = Dialect("Megatron-LM", re.compile(rb"iteration\s+\d+/\s*\d+ \|"), keys=(b"lm loss", b"loss"),
                  framework="megatron", rewrite=hidden.unhide_megatron,
                  clears_gradients="zeroes the gradient buffers at the start of every step")
