"""The train_log.txt of SpeechBrain's recipes (ASR, TTS, enhancement, separation), one line per epoch:
`epoch: 3, lr: 1.00e+00 - train loss: 9.97e-01 - valid loss: 1.02, valid CER: 22.80`, written by
`FileTrainLogger.log_stats` (speechbrain/utils/train_logger.py at v1.1.0: the epoch's own stats joined by `, `, then
` - ` and each stage's stats as `train <key>: <value>`, `valid <key>: <value>`, joined by `, `; a float strictly between
1 and 100 printed `.2f`, any other float `.2e`, an int or a string as it is). The recipes' epoch stats start with the
epoch and the rate (`stats_meta={"epoch": epoch, "lr": old_lr}`, `"Epoch"` in some; `lr_model`, `lr_wav2vec` where two
optimisers train), and the logger may print the line after its own name (`speechbrain.utils.train_logger - epoch: 3, ...`).
A hand-written `epoch: 3 - train loss: ...` is not read so: no rate printed as the logger prints a float.

The value read is the first train stat, the one the line gives after ` - train `: each recipe puts the stage's loss
there (`stage_stats = {"loss": stage_loss}`, or `{"si-snr": stage_loss}` in the separation recipes and DNS
enhancement, whose loss is the negative SI-SNR, so it falls below zero as the model improves). The valid stats after
it are validation.

`Brain.optimizers_step` sets each optimizer's gradients to None after its step (speechbrain/core.py at v1.1.0,
`opt.zero_grad(set_to_none=True)`), where the paste shows no step of its own: no recipe's `fit_batch` (the separation
recipes write their own, which zeroes them too) and no backward() call of a loop written by hand.
"""
import re

from . import Dialect
from ..numbers import NUMBER

# (anchored at the line's start, or after the logger's name: the epoch, then a rate as the logger prints a float --
# `.2e` below 1 -- then, on the same line, the first ` - train ` stat: one value a line)
_EPOCH = rb"(?m)^(?:[\w.]{1,60} - )?[Ee]poch: \d+, lr\w{0,20}: -?\d\.\d{2}e[-+]\d{2}\b[^\n]{0,300}? - train [^:,\n]{1,40}: "
LINE = re.compile(_EPOCH + rb"(" + NUMBER + rb")(?![\w.])")
DIALECT = Dialect("SpeechBrain train_log", re.compile(_EPOCH), pattern=LINE, framework="pytorch",
                  clears_gradients="sets the gradients to None after each optimizer step",
                  clears_unless=re.compile(r"\bdef (?:fit_batch|optimizers_step)\b|\.backward\("))
