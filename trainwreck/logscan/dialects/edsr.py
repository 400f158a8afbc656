"""The training log of EDSR-PyTorch (and RCAN, SAN, HAN and the other super-resolution models built on its code): an
`[Epoch 14]	Learning rate: 1.00e-4` line, then every `print_every` batches `[1600/16000]	[L1: 4.3712]	31.5+0.6s` (the
examples seen in the epoch over its size, each loss of `--loss` as `[{type}: {:.4f}]`, then `[Total: ...]` where
there are two or more), written by src/trainer.py and src/loss/__init__.py's `display_loss` (sanghyun-son/EDSR-PyTorch
at 70e1bca). Each value is the epoch's running mean so far, weighted as `--loss` weighs it; `Total` is their sum, the
loss trained on. The loss is computed on pixels in 0..rgb_range (255 by default), not 0..1.

The trainer zeroes the gradients before every forward pass (src/trainer.py, `self.optimizer.zero_grad()`).
"""
import re

from . import Dialect

DIALECT = Dialect("EDSR-PyTorch", re.compile(rb"(?m)^\[\d+/\d+\]\t\[[\w*.+-]{1,20}: -?(?:\d|nan|inf)"),
                  keys=(rb"\[Total", rb"\[L1", rb"\[MSE"), framework="pytorch",
                  clears_gradients="zeroes the gradients before every forward pass")
