"""The train_log.txt of SpeechBrain's recipes (ASR, TTS, enhancement, separation), one line per epoch:
`epoch: 3, lr: 1.00e+00 - train loss: 9.97e-01 - valid loss: 1.02, valid CER: 22.80`, written by
`FileTrainLogger.log_stats` (speechbrain/utils/train_logger.py at v1.1.0: the epoch's own stats joined by `, `, then
` - ` and each stage's stats as `train <key>: <value>`, `valid <key>: <value>`; a float between 1 and 100 printed
`.2f`, any other `.2e`).

The value read is the first train stat, the one the line gives after ` - train `: each recipe puts the stage's loss
there (`stage_stats = {"loss": stage_loss}`, or `{"si-snr": stage_loss}` in the separation recipes, whose loss is the
negative SI-SNR, so it falls below zero as the model improves). The valid stats after it are validation.

`Brain.optimizers_step` sets each optimizer's gradients to None after its step (speechbrain/core.py at v1.1.0,
`opt.zero_grad(set_to_none=True)`), where the paste shows no recipe's own `fit_batch` (the separation recipes write
their own, which zeroes them too).
"""
import re

from . import Dialect
from ..numbers import NUMBER

# (the literal ` - train ` first, so the engine jumps between candidates; a stat's name holds no `:` or `,`)
LINE = re.compile(rb" - train [^:,\n]{1,40}: (" + NUMBER + rb")(?![\w.])")
DIALECT = Dialect("SpeechBrain train_log", re.compile(rb"\bepoch: \d+(?:, [^\n]*?)? - train [^:,\n]{1,40}: "),
                  pattern=LINE, framework="pytorch",
                  clears_gradients="sets the gradients to None after each optimizer step",
                  clears_unless=re.compile(r"\bdef (?:fit_batch|optimizers_step)\b"))
