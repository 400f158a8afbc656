"""A count and a value on each line and nothing else, as `print(epoch, loss)` or `print(i, cost)` writes them:

    0 0.6931471805599453
    1 0.4112087702353161

Three such lines in a row make the format; the count opens each line, and as the log names it no
further, the evidence calls it the count ("first nan at count 23").
"""
import re

from . import Dialect
from ..numbers import NUMBER

ROW = rb"^[ \t]*\d+[ \t]+(" + NUMBER + rb")[ \t]*\r?$"
LINE = re.compile(rb"(?m)" + ROW)
DIALECT = Dialect("lines of a count and a value", re.compile(rb"(?m)(?:" + ROW.replace(b"(", b"(?:", 1) + rb"\n){3}"),
                  pattern=LINE, numbering=(re.compile(rb"[ \t]*(\d+)[ \t]"), "count"))
