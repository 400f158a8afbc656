"""DeepXDE's training display (deepxde/display.py), a table under the header `Step  Train loss  Test loss  Test
metric`, one row per display step:

    1000      [1.63e+02, 6.27e-01]    [1.61e+02, 6.27e-01]    [8.91e-01]

The train loss is printed as a list, one weighted term per part of the problem (a PDE residual, each boundary or
initial condition, the data), each `{:.2e}`; the model minimises their sum, which DeepXDE itself reports as the train
loss of its best step (`np.sum(self.loss_train)`, deepxde/model.py's TrainState):
https://github.com/lululxvi/deepxde/blob/36566da1b65f5de9ea60b895ad323775db48fb25/deepxde/display.py. Each row is
read as that sum (nan or inf where a term is), numbered by its step; the test loss and metric are not read.
"""
import math
import re

from . import Dialect
from ..numbers import NUMBER

ROW = re.compile(rb"(?m)^([ \t]*\d+[ \t]+)\[([^\]\n]{1,400})\]")
LINE = re.compile(rb"(?m)^[ \t]*\d+[ \t]+\[(" + NUMBER + rb")[,\]]")


def _total(terms: bytes) -> bytes:
    """The sum of a row's printed terms, as a number the pattern reads (nan where a term is nan)."""
    try:
        values = [float(t) for t in terms.split(b",")]
    except ValueError:
        return terms
    total = math.fsum(values) if all(map(math.isfinite, values)) else sum(values)
    return repr(total).encode()


def _summed(text: bytes, _ev, _line0: int) -> bytes:
    """The block with each row's train-loss list made its sum."""
    return ROW.sub(lambda m: m.group(1) + b"[" + _total(m.group(2)) + b"]", text)


DIALECT = Dialect("DeepXDE training display", re.compile(rb"(?m)^Step[ \t]+Train loss[ \t]+Test loss[ \t]+Test metric"),
                  pattern=LINE, numbering=(re.compile(rb"[ \t]*(\d+)[ \t]"), "step"), rewrite=_summed)
