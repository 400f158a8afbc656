"""A count and its number, then the training loss named only by its split, `train`, and the validation one after it,
as a hand-written loop prints them when the word "loss" is in its header or its code but not on its lines:

    epoch  1  train 0.0912  val 0.0851
    ep  3 train 0.3957 val 0.5531
    Epoch 2 | train: 0.5120 | valid: 0.6010
    epoch 3  train=0.4801  val=0.5902

Three such lines in a row make the format; the count is quoted as printed ("epoch 3"), and the value after `train` is
the loss. A split's name says nothing of what its number measures, so the paste must name a loss (MSELoss, "the
loss", a cross-entropy) and must not say that what it printed is something else (an accuracy: count_value's check).
"""
import re

from . import Dialect
from .count_value import VALUE, _not_a_loss

# (the count's word as loops write it, a hand-written loop's short `ep` too: `ep  3 train 0.3957 val 0.5531`)
_TRAIN = (rb"^[ \t]*(?:[Ee]poch|EPOCH|[Ee]p|EP|[Ss]tep|STEP|[Ii]ter(?:ation)?)s?[ \t]*#?\d+(?:/\d+)?[ \t]*(?:[:|,][ \t]*)?"
          rb"[Tt]rain(?:ing)?[ \t]*(?:[:=][ \t]*)?")
# (the scan reads the lines with their validation part cut away: the value after `train` is all it needs)
LINE = re.compile(rb"(?m)" + _TRAIN + rb"(" + VALUE + rb")(?![\w.])")
DETECT = re.compile(rb"(?m)(?:" + _TRAIN + rb"(?:" + VALUE + rb")[ \t|,]+[Vv]al(?:id(?:ation)?)?\b[^\n]*\n){3}")
LOSS_NAMED = re.compile(rb"(?i)loss|\bmse\b|cross-?entropy|\bnll\b|\bcost\b")


def _refused(first: bytes) -> bool:
    return not LOSS_NAMED.search(first) or _not_a_loss(first)


DIALECT = Dialect("lines of a count, a train and a val value", DETECT, pattern=LINE, refused_by=_refused)
