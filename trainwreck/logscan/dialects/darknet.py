"""Darknet's training log (YOLO v2-v4; AlexeyAB's fork prints `avg loss`, pjreddie's `avg`):

     9: 495.896484, 496.732147 avg loss, 0.000000 rate, 6.057290 seconds, 576 images

The iteration (named so in the evidence: "iteration 9"), that iteration's loss, then the running
average, `avg`, which is read: the fork's
README says a nan there means training went wrong, while a nan in the other lines (the `Region ...
Avg IOU: -nan` lines, for a scale with no object in the batch) does not
(https://github.com/AlexeyAB/darknet/blob/61307b664f3c19e001699b80ed21c0817cbb67a3/README.md).
"""
import re

from . import Dialect
from ..numbers import NUMBER

LINE = re.compile(rb"(?m)^[ \t]*\d+: " + NUMBER + rb", (" + NUMBER + rb") avg\b")
DIALECT = Dialect("Darknet training log", LINE, pattern=LINE,
                  numbering=(re.compile(rb"[ \t]*(\d+): "), "iteration"))
