"""The loss printed after `loss is:` as PaddlePaddle's tutorials print it, and the many loops copied from them: the
Boston housing regression of its course prints `print("epoch: {}, iter: {}, loss is: {}".format(epoch_id, iter_id,
avg_loss.numpy()))`, so each line reads `epoch: 0, iter: 20, loss is: [0.1830121]` -- a one-element array, in its
brackets (`[nan]` when it went wrong; the numpy-only version of the same lesson prints the bare number); other lessons
print `epoch: 0, batch_id: 100, loss is: ...` or `epoch_id: 0, batch_id: 100, ...`. The count is the log's own, epoch
and iteration as printed.
"""
import re

from . import Dialect
from ..numbers import NUMBER

# `loss is:` then the value, bare or in the brackets of an array's repr (`[0.18]`, `[[0.18]]`)
LINE = re.compile(rb"(?<![A-Za-z])(?:[Ll]oss|LOSS) is: *\[*(" + NUMBER + rb")(?![\w.])")
# Recognised by two such lines in a row, each after a count (`epoch: 0, iter: 20, loss is: ...`): one sentence of a
# report's, "my loss is: nan", above another tool's log is no log of this format (code_review_s69b F3)
# (each stretch bounded: a long line that holds a count word and no `loss is:` costs no more than its length)
_COUNTED = (rb"[^\n]{0,80}?(?<![A-Za-z])(?:[Ee]poch|[Ii]ter|[Bb]atch|[Ss]tep)\w{0,10}[ \t]*(?:[:=][ \t]*)?\d+[^\n]{0,120}?"
            + LINE.pattern + rb"[^\n]{0,200}")
DETECT = re.compile(rb"(?m)^" + _COUNTED + rb"\r?\n" + _COUNTED)
DIALECT = Dialect("lines of `loss is:` values (PaddlePaddle's tutorials)", DETECT, pattern=LINE)
