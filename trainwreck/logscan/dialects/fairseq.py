"""fairseq's simple progress log (fairseq/logging/progress_bar.py at v0.12.2):
`... | INFO | train_inner | epoch 001:    100 / 1000 loss=9.876, nll_loss=9.5, ..., gnorm=1.2, loss_scale=128, ...`
every log interval, `| train | epoch 001 | loss 9.5 | ...` at the end of an epoch and
`| valid | epoch 001 | valid on 'valid' subset | loss 9.1 | ...` after validation.

The `train_inner` lines are the steps; the epoch summaries repeat them and are left out when
there are steps to read.

`Trainer.train_step` zeroes the gradients first
(https://github.com/facebookresearch/fairseq/blob/v0.12.2/fairseq/trainer.py#L780-L785); `--update-freq`
sums micro-batches on purpose and rescales the sum by the sample size.
"""
import re

from . import Dialect

DIALECT = Dialect("fairseq", re.compile(rb"\| (?:train_inner|train|valid) \| epoch \d+"), keys=(b" loss=", rb"\| loss"),
                  framework="fairseq", clears_gradients="zeroes the gradients at the start of every step")
