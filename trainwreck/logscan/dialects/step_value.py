"""A counter word, its number, a colon and the loss, as a hand-written loop prints them when it names no key:

    step 0: 4.1802
    step 10: 3.2977
    epoch 3: 0.5213 (acc 0.81)

Three such lines in a row make the format; the count is quoted as printed ("step 20"). As with a count and a
value (count_value.py), a paste that says the numbers it printed are not the loss (an accuracy, a time) is not
read so, nor rows under a line that introduces something else ("here is my lr schedule:").
"""
import re

from . import Dialect
from .count_value import LOSS_WORDS, VALUE, _not_a_loss

# (maybe as the items of a Markdown list, "- epoch 1: 6.95"; the value after a colon, an equals sign, a dash,
# "эпоха 3 — 0,5541", or spaces alone, "step 500      6.41")
COUNTER = (rb"^[ \t]*(?:[-*][ \t]+)?(?:[Ss]tep|STEP|[Ee]poch|EPOCH|[Ii]ter(?:ation)?|[Ii]t|[Bb]atch|[Uu]pdate)s?"
           rb"[ \t]*#?\d+(?:/\d+)?(?:[ \t]*(?:[:=]|\xe2\x80\x94|\xe2\x80\x93|-(?=[ \t]))[ \t]*|[ \t]+)")
# (and maybe another number in brackets after it, said of the same epoch: "Epoche 3: 0,2105 (Acc 0,95)")
_AFTER = rb"[ \t]*(?:\([^()\n]{0,60}\)[ \t]*)?\r?"
LINE = re.compile(rb"(?m)" + COUNTER + rb"(" + VALUE + rb")" + _AFTER + rb"$")
DETECT = re.compile(rb"(?m)(?:" + COUNTER + rb"(?:" + VALUE + rb")" + _AFTER + rb"\n){3}")
# The line right above the rows, when it introduces them and names another series ("here is my lr schedule:",
# "accuracy per epoch:"): the rows name no key of their own. A series by its name, not "lr" or "warmup" alone, which
# a settings line names ("SGD, lr=10 on a small MLP:", "AdamW lr=2e-3, no warmup:").
NOT_LOSS_ABOVE = re.compile(rb"(?i)\b(?:schedule|acc(?:uracy)?|f1|auc|time|seconds|throughput|memory|"
                            rb"grad(?:ient)?[ _]?norms?)\b")


def _refused(first: bytes) -> bool:
    rows = DETECT.search(first)
    if rows is not None:
        said = re.split(rb"[.!?](?:\s|$)", first[:rows.start()].rstrip().rsplit(b"\n", 1)[-1])[-1]   # its last sentence
        # (the line that introduces the rows, ending in a colon; a settings line above them says nothing of them)
        if said.rstrip().endswith(b":") and NOT_LOSS_ABOVE.search(said) and not LOSS_WORDS.search(said):
            return True
    # (an accuracy in brackets beside a row's value is that row's, and says nothing of the value itself)
    return _not_a_loss(LINE.sub(lambda m: m.group(0)[:m.end(1) - m.start()], first))


DIALECT = Dialect("lines of a step and a value", DETECT, pattern=LINE, refused_by=_refused)
