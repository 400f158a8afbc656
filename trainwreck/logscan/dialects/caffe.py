"""Caffe's solver log (src/caffe/solver.cpp): `Iteration 200 (10 iter/s, 10s/100 iters), loss = 0.6931`
(older versions: `Iteration 200, loss = 0.6931`), the loss smoothed over the solver's `average_loss`
iterations, followed by each output of the net, `Train net output #0: loss = 0.6929 (* 1 = 0.6929
loss)`. Only the iteration lines are read: the output lines repeat the same step's loss, and
`Test net output` lines are the test net's.
"""
import re

from . import Dialect

DIALECT = Dialect("Caffe solver log", re.compile(rb"\] Iteration \d+[^\n]*, loss = "), keys=(b", loss",))
