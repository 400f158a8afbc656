"""The cost printed every so many iterations the way the deeplearning.ai courses' notebooks print it,
and many a hand-written NumPy loop after them: `Cost after iteration 100: 0.693147` (or `Cost after epoch
5: ...`, `Loss after iteration ...`). The count is the iteration's, quoted as printed ("iteration 100").
"""
import re

from . import Dialect
from ..numbers import NUMBER

# the count whole, then `:` or `=`, then the value -- bare or in the array brackets NumPy prints around a cost it
# did not squeeze (`[[0.69314718]]`, `[nan]`); never a digit of the count itself
LINE = re.compile(rb"(?<![A-Za-z])(?:[Cc]ost|COST|[Ll]oss|LOSS) after (?:iteration|iter|epoch|step)s? *#?\d+(?!\d) *[:=] *"
                  rb"\[*(" + NUMBER + rb")(?![\w.])")
DIALECT = Dialect("lines of the cost after each iteration", LINE, pattern=LINE)
