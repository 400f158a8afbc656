"""Caffe's solver log (src/caffe/solver.cpp): `Iteration 200 (10 iter/s, 10s/100 iters), loss = 0.6931`
(older versions: `Iteration 200, loss = 0.6931`), the loss smoothed over the solver's `average_loss`
iterations, followed by each output of the net, `Train net output #0: loss = 0.6929 (* 1 = 0.6929
loss)`. Only the iteration lines are read: the output lines repeat the same step's loss, and
`Test net output` lines are the test net's.
"""
import re

from . import Dialect

DIALECT = Dialect("Caffe solver log", re.compile(rb"\] Iteration \d+[^\n]*, loss = "), keys=(b", loss",))

# The SGD solver logs the rate on each display iteration, `sgd_solver.cpp:105] Iteration 20, lr = 0.1`, and then, at
# INFO on every iteration whose gradient's L2 norm is above the solver's clip_gradients, `Gradient clipping: scaling
# down gradients (L2 norm 1503.2 > 1000) by scale factor 0.665` (SGDSolver::ApplyUpdate and ClipGradients,
# https://github.com/BVLC/caffe/blob/1.0/src/caffe/solvers/sgd_solver.cpp#L81-L108). A log that shows the solver's
# rate lines and not one clipping line shows a threshold no step reached (a nan norm is not above it either) -- where
# the log is whole: it keeps the lines of the net's outputs (`Train net output #0: loss = ...`), which a paste filtered
# with `grep Iteration` drops along with the clipping lines; and where the threshold is set, on a line of the solver's
# own (its prototxt, or the parameters the solver prints when it starts), not commented out (code_review_s68 H2).
RATE_LINE = re.compile(r"\] Iteration \d+, lr = ")
CLIPPED = "Gradient clipping: scaling down gradients"
RATE_LINES_MIN = 2
WHOLE = re.compile(r"\] +(?:Train|Test) net output #\d+: ")
CLIP_SET = re.compile(r"(?m)^[ \t]*clip_gradients[ \t]*:[ \t]*\d")


def clip_never_logged(text: str) -> bool:
    """Does the text, a whole Caffe log at INFO beside the solver's own clip_gradients setting, show the SGD solver's
    rate lines and no clipping line?"""
    return CLIPPED not in text and len(RATE_LINE.findall(text)) >= RATE_LINES_MIN and bool(WHOLE.search(text)) \
        and bool(CLIP_SET.search(text))
