"""A counter word, its number, a colon and the loss, as a hand-written loop prints them when it names no key:

    step 0: 4.1802
    step 10: 3.2977
    epoch 3: 0.5213

Three such lines in a row make the format; the count is quoted as printed ("step 20"). As with a count and a
value (count_value.py), a paste that says the numbers it printed are not the loss (an accuracy, a time) is not
read so.
"""
import re

from . import Dialect
from .count_value import VALUE, _not_a_loss

COUNTER = rb"^[ \t]*(?:[Ss]tep|STEP|[Ee]poch|EPOCH|[Ii]ter(?:ation)?|[Ii]t|[Bb]atch|[Uu]pdate)s?[ \t]*#?\d+(?:/\d+)?[ \t]*[:=][ \t]*"
LINE = re.compile(rb"(?m)" + COUNTER + rb"(" + VALUE + rb")[ \t]*\r?$")
DIALECT = Dialect("lines of a step and a value",
                  re.compile(rb"(?m)(?:" + COUNTER + rb"(?:" + VALUE + rb")[ \t]*\r?\n){3}"),
                  pattern=LINE, refused_by=_not_a_loss)
