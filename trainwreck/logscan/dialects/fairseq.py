"""fairseq's simple progress log (fairseq/logging/progress_bar.py at v0.12.2):
`... | INFO | train_inner | epoch 001:    100 / 1000 loss=9.876, nll_loss=9.5, ..., gnorm=1.2, loss_scale=128, ...`
every log interval, `| train | epoch 001 | loss 9.5 | ...` at the end of an epoch and
`| valid | epoch 001 | valid on 'valid' subset | loss 9.1 | ...` after validation.

The `train_inner` lines are the steps; the epoch summaries repeat them and are left out when
there are steps to read.
"""
import re

from . import Dialect

DIALECT = Dialect("fairseq", re.compile(rb"\| (?:train_inner|train|valid) \| epoch \d+"), keys=(b" loss=", rb"\| loss"),
                  framework="fairseq")
