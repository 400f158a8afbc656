"""PyTorch Lightning's progress bar: `Epoch 3:  50%|█████     | 50/100 [00:01<00:01, 40.00it/s, v_num=0,
train_loss=4.210]`.

What follows the rate is what the module logged with `prog_bar=True`: `train_loss` (Lightning 2),
`loss` (the running loss of Lightning 1), and `train_loss_step` / `train_loss_epoch` when a loss is
logged both per step and per epoch -- the per-step value is preferred. A metric logged under a
TensorBoard-style tag (`loss/train`) is printed under that name and read as a loss of its own
(layout.py). `val_loss` and `loss/val` are validation losses; the `Validation DataLoader` bars are left
out with them.

Under automatic optimization the trainer zeroes the gradients at the first batch of every accumulation window
(https://github.com/Lightning-AI/pytorch-lightning/blob/2.5.0/src/lightning/pytorch/loops/optimization/automatic.py#L211-L228)
and divides the loss by `accumulate_grad_batches` (same file, L80-L83); manual optimization leaves both to the user.
"""
import re

from . import Dialect
from .keyed import bpd_key, nll_key

# A hand-made tqdm loop can print the same `Epoch 3: 50%|`; Lightning's bar also shows the logger's version.
DIALECT = Dialect("PyTorch Lightning progress bar", re.compile(rb"Epoch \d+:\s+\d+%\|[^\n\r]*v_num="),
                  # (or, with no loss logged, a density model's own: `train_bpd`, `train_nll`)
                  keys=(b"loss_step", b"loss", b"Loss", bpd_key(per_step=True), nll_key(per_step=True)),
                  framework="lightning",
                  clears_gradients="zeroes the gradients every step under automatic optimization",
                  clears_unless=re.compile(r"automatic_optimization\s*=\s*False|manual[ _]optimi[sz]ation|manual_backward",
                                           re.I))
