"""Megatron-LM's training log: ` iteration      100/  500000 | consumed samples: ... | lm loss: 7.123456E+00 |
loss scale: 65536.0 | grad norm: 2.345 | number of skipped iterations:   0 | number of nan iterations:   0 |`.

`loss scale` is the mixed-precision scaler, not a loss, and `validation loss at iteration 1000 |
lm loss value: ...` lines are validation.
"""
import re

from . import Dialect

DIALECT = Dialect("Megatron-LM", re.compile(rb"iteration\s+\d+/\s*\d+ \|"), keys=(b"lm loss", b"loss"),
                  framework="megatron")
