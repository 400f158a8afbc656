"""The loss printed after `loss is:` as PaddlePaddle's tutorials print it, and the many loops copied from them: the
Boston housing regression of its course prints `print("epoch: {}, iter: {}, loss is: {}".format(epoch_id, iter_id,
avg_loss.numpy()))`, so each line reads `epoch: 0, iter: 20, loss is: [0.1830121]` -- a one-element array, in its
brackets (`[nan]` when it went wrong; the numpy-only version of the same lesson prints the bare number). The count
is the log's own, epoch and iteration as printed.
"""
import re

from . import Dialect
from ..numbers import NUMBER

# `loss is:` then the value, bare or in the brackets of an array's repr (`[0.18]`, `[[0.18]]`)
LINE = re.compile(rb"(?<![A-Za-z])(?:[Ll]oss|LOSS) is: *\[*(" + NUMBER + rb")(?![\w.])")
DIALECT = Dialect("lines of `loss is:` values (PaddlePaddle's tutorials)", LINE, pattern=LINE)
