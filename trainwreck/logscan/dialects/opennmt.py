"""OpenNMT-py's training log (onmt/utils/statistics.py, `Statistics.output`, at v3.5.1):
`[<date> <time> INFO] Step 300/50000; acc: 9.4; ppl: 812.5; xent: 6.7; lr: 0.00070; sents:    4410; bsz: 1750/1880/110;
9800/10400 tok/s;     52 sec;` every report interval
(https://github.com/OpenNMT/OpenNMT-py/blob/v3.5.1/onmt/utils/statistics.py#L111-L149).

`xent` is the loss: the training criterion summed over the target tokens that are not padding and divided by their
number, in nats -- a cross-entropy, label-smoothed where `label_smoothing` is set (as the recipes for the Transformer
set it, 0.1), plus any alignment, coverage or LM-prior term the model adds (onmt/utils/loss.py at v3.5.1); `ppl` is e to
the power of it (capped at e^100). `acc` is a percentage, printed with no % sign. `Validation perplexity: ...` lines
print no xent and are not read.

The trainer zeroes the gradients before each accumulation of batches, or before each batch when it accumulates none
(`Trainer._gradient_accumulation`, https://github.com/OpenNMT/OpenNMT-py/blob/v3.5.1/onmt/trainer.py#L461-L496).
"""
import re

from . import Dialect

DIALECT = Dialect("OpenNMT-py", re.compile(rb"\bStep \s*\d+(?:/\s*\d+)?; acc: "), keys=(b"xent",), framework="pytorch",
                  clears_gradients="zeroes the gradients before each accumulation of batches",
                  mean_loss="OpenNMT-py", accuracy_percent=True)
