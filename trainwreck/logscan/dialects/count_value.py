"""A count and a value on each line and nothing else, as `print(epoch, loss)` or `print(i, cost)` writes them:

    0 0.6931471805599453
    1 0.4112087702353161

Three such lines in a row make the format; the count opens each line, and as the log names it no
further, the evidence calls it the count ("first nan at count 23"). The value has a decimal point or an
exponent (or is nan or inf): whole numbers after a count are counts (pandas' `value_counts()`). The same
shape holds anything else a loop prints per epoch, so a paste that says what it printed and it is not the
loss (`print(epoch, acc)`, `print(epoch, time.time() - t0)`, "test accuracy after each epoch", a pandas
Series named otherwise) is not read so.
"""
import re

from . import Dialect

VALUE = (rb"[-+]?(?:\d+\.\d*|\.\d+)(?:[eE][-+]?\d+)?|[-+]?\d+[eE][-+]?\d+|[-+]?[nN]a[nN]|[-+]?[iI]nf(?:inity)?")
ROW = rb"^[ \t]*\d+[ \t]+(" + VALUE + rb")[ \t]*\r?$"
LINE = re.compile(rb"(?m)" + ROW)
# what the paste says it printed, when that is not the loss
PRINTED = re.compile(rb"print\(\s*[\w.]+\s*,\s*(?P<what>[^)\n]{1,60})\)|(?P<said>\b(?:test |val(?:idation)? |train(?:ing)? )?"
                     rb"(?:acc(?:uracy)?|seconds|timings?|time per epoch|scores?|f1|auc)\b)|Name: (?P<series>\w+), dtype",
                     re.I)
LOSS_WORDS = re.compile(rb"loss|cost|nll|mse|err", re.I)


def _not_a_loss(first: bytes) -> bool:
    """Does the paste say the numbers it printed are not the loss? (A name printed is the loss where the paste adds
    the loss into it: `running += loss.item()` ... `print(step, round(running / 10, 4))`.)"""
    for m in PRINTED.finditer(first):
        what = m.group("what") or m.group("series")
        if what is not None:
            return not LOSS_WORDS.search(what) and not _holds_the_loss(first, what)
        if not LOSS_WORDS.search(first[max(0, m.start() - 60):m.end() + 60]):
            return True
    return False


def _holds_the_loss(first: bytes, what: bytes) -> bool:
    """Does a name in what the paste prints take the loss (`running += loss.item()`, `avg = loss.item()`)?"""
    for name in set(re.findall(rb"[A-Za-z_]\w{0,40}", what)):
        # (its right side is the loss itself, `+= loss.item()`, `= float(loss)` -- not a function of it, `ppl =
        # math.exp(loss.item())`, nor another statement on the line)
        if re.search(rb"(?m)^[ \t]*" + re.escape(name) + rb"[ \t]*\+?=[ \t]*(?:float\(|\()?[ \t]*loss\b(?:\.item\(\))?"
                     rb"[ \t)]*(?:[#;\n]|$)", first):
            return True
    return False


DIALECT = Dialect("lines of a count and a value", re.compile(rb"(?m)(?:" + ROW.replace(b"(", b"(?:", 1) + rb"\n){3}"),
                  pattern=LINE, numbering=(re.compile(rb"[ \t]*(\d+)[ \t]"), "count"), refused_by=_not_a_loss)
