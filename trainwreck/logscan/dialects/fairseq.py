"""fairseq's simple progress log (fairseq/logging/progress_bar.py at v0.12.2):
`... | INFO | train_inner | epoch 001:    100 / 1000 loss=9.876, nll_loss=9.5, ..., gnorm=1.2, loss_scale=128, ...`
every log interval, `| train | epoch 001 | loss 9.5 | ...` at the end of an epoch and
`| valid | epoch 001 | valid on 'valid' subset | loss 9.1 | ...` after validation.

The `train_inner` lines are the steps; the epoch summaries repeat them and are left out when
there are steps to read.

`Trainer.train_step` zeroes the gradients first
(https://github.com/facebookresearch/fairseq/blob/v0.12.2/fairseq/trainer.py#L780-L785); `--update-freq`
sums micro-batches on purpose and rescales the sum by the sample size.

Its criterions log the loss in bits, not nats: the cross-entropy's sum over the tokens is divided by the sample size
and by ln 2 (`loss_sum / sample_size / math.log(2)` in `reduce_metrics`,
https://github.com/facebookresearch/fairseq/blob/v0.12.2/fairseq/criterions/cross_entropy.py), and the `ppl` beside it
is 2 to the power of its nll_loss (of the loss itself without label smoothing). A fresh model over a 10k vocabulary starts at log2 10000 = 13.29, not ln 10000 = 9.21.
"""
import re

from . import Dialect

# (the mark of its lines; normals reads fairseq's figures in bits on the lines it marks)
LINE_MARK = r"\| (?:train_inner|train|valid) \| epoch \d+"
DIALECT = Dialect("fairseq", re.compile(LINE_MARK.encode()), keys=(b" loss=", rb"\| loss"),
                  framework="fairseq", clears_gradients="zeroes the gradients at the start of every step",
                  loss_base=2)
