"""The training runner of Point-BERT and Point-MAE (and the point-cloud projects built on their code), which prints
every 20th batch and each epoch's mean as a list of quoted numbers:

    [Epoch 0/300][Batch 1/820] BatchTime = 1.204 (s) DataTime = 0.611 (s) Losses = ['172.4511'] lr = 0.001000
    [Training] EPOCH: 0 EpochTime = 201.773 (s) Losses = ['94.1206'] lr = 0.001000

(tools/runner_pretrain.py, `print_log(... 'Losses = %s lr = %.6f' % (..., ['%.4f' % l for l in losses.val()], ...))`,
https://github.com/Pang-Yatian/Point-MAE/blob/336d42f562d7165e1cecbe6c89a129be0db16d52/tools/runner_pretrain.py).
The batch lines are read, the list's first number (Point-MAE's one loss, times 1000 as the runner records it); the
`[Training] EPOCH:` lines are each epoch's mean of them, a summary, and are not.
"""
import re

from . import Dialect
from ..numbers import NUMBER

LINE = re.compile(rb"\[Batch \d+/\d+\][^\n]*?\bLosses = \['(" + NUMBER + rb")'")
DIALECT = Dialect("Point-BERT / Point-MAE runner", re.compile(rb"\[Batch \d+/\d+\] BatchTime = "), pattern=LINE,
                  framework="pytorch")
