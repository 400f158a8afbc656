"""OpenNMT-py's training log (onmt/utils/statistics.py, `Statistics.output`, at v3.5.1):
`[2023-11-02 14:20:31,118 INFO] Step 50/200000; acc: 3.1; ppl: 24343.1; xent: 10.1; lr: 0.00100; sents:    6122;
bsz: 1921/2047/122; 10212/10879 tok/s;     19 sec;` every report interval
(https://github.com/OpenNMT/OpenNMT-py/blob/v3.5.1/onmt/utils/statistics.py#L111-L149).

`xent` is the loss: the summed cross-entropy divided by the target words, in nats, and `ppl` is e to the power of it
(capped at e^100). `Validation perplexity: ...` lines print no xent and are not read.

The trainer zeroes the gradients before each accumulation of batches, or before each batch when it accumulates none
(`Trainer._gradient_accumulation`, https://github.com/OpenNMT/OpenNMT-py/blob/v3.5.1/onmt/trainer.py#L461-L496).
"""
import re

from . import Dialect

DIALECT = Dialect("OpenNMT-py", re.compile(rb"\bStep \s*\d+(?:/\s*\d+)?; acc: "), keys=(b"xent",), framework="pytorch",
                  clears_gradients="zeroes the gradients before each accumulation of batches",
                  mean_loss="OpenNMT-py")
