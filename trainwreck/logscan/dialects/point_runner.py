"""The training runner of Point-MAE, Point-BERT and the point-cloud projects built on their code (the PoinTr
family), which prints every 20th batch (PoinTr's every 100th), and each epoch's mean over all its batches, as a list of
quoted numbers:

    [Epoch 0/300][Batch 1/820] BatchTime = 1.204 (s) DataTime = 0.611 (s) Losses = ['172.4511'] lr = 0.001000
    [Training] EPOCH: 0 EpochTime = 201.773 (s) Losses = ['94.1206'] lr = 0.001000

(Point-MAE's pretraining, tools/runner_pretrain.py, `print_log(... 'Losses = %s lr = %.6f' % (..., ['%.4f' % l for l in
losses.val()], ...))`, its one loss recorded times 1000:
https://github.com/Pang-Yatian/Point-MAE/blob/336d42f562d7165e1cecbe6c89a129be0db16d52/tools/runner_pretrain.py).
The batch lines are read; the `[Training] EPOCH:` lines are summaries, and are not. The list's first number is read:
Point-MAE's loss, and the first of the parts that Point-BERT's runners (two losses) and the PoinTr family's (sparse
and dense) print and add to the loss they optimise -- so a nan or inf in any number of a line's list is read as that
line's loss (the total it is part of is nan too). The other numbers are not added -- a fine-tuning runner prints an
accuracy beside its loss -- so a climb in a part after the first is not seen until it turns nan or inf.
"""
import re

from . import Dialect
from ..numbers import NUMBER

# (`[^\n\[]`: nothing in a batch line between its `[Batch ...]` and its list opens a bracket, and a line of repeated
# `[Batch` with no list is not rescanned from each one)
BATCH_LIST = rb"\[Batch \d+/\d+\][^\n\[]*?\bLosses = \['"
LINE = re.compile(BATCH_LIST + rb"(" + NUMBER + rb")'")
LIST = re.compile(rb"(" + BATCH_LIST + rb")([^'\n]{1,40})('(?:, '[^'\n]{1,40}'){1,8}\])")
NONFINITE = re.compile(rb"'-?(?:nan|inf)'", re.I)


def _nonfinite_part(text: bytes, _ev, _line0: int) -> bytes:
    """The block with each batch line whose list holds a nan or an inf read as nan: the total those parts add up to."""
    return LIST.sub(lambda m: m.group(1) + b"nan" + m.group(3) if NONFINITE.search(m.group(3)) else m.group(0), text)


DIALECT = Dialect("Point-MAE / Point-BERT runner", re.compile(rb"\[Batch \d+/\d+\] BatchTime = "), pattern=LINE,
                  framework="pytorch", rewrite=_nonfinite_part)
