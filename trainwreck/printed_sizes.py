"""What a paste prints of its targets' and its inputs' size: an array's min, max, mean or std as the run printed them.

Four forms are read, each naming the array:
- a print of calls and what it printed: `print(y.min(), y.max(), y.mean())` -> `251.35 306.95 283.71`, after an
  arrow or a comment on its line, or alone on the next;
- a print of its shape or dtype beside its statistics, and the line of the run's output that is exactly what that
  print writes, wherever it is: `print(X.shape, X.dtype, X.min(), X.max())` ...
  `(200, 256, 256, 1) float32 96.0 4095.0`;
- an interpreter's line and its tuple: `>>> X.shape, X.dtype, X.min(), X.max()` over
  `((6985, 128, 173, 1), dtype('float32'), 0.0, 8934.207)`;
- a line of statistics: "target stats on train: mean 412.3, std 803.6".

Targets (target_size_printed): a fresh network's outputs are of order 1 whatever the targets are, so a squared error
starts at about the targets' mean square, mean² + std² (WR-360's Why). (The caller leaves out an absolute error, whose
start is the targets' mean size and whose bounded gradient makes no such divergence.) Targets whose typical size is
RAW_SIZE or more make that start ENORMOUS_START or more -- the line the enormous first loss draws, read from the targets
instead of from a first loss that an epoch's mean (Keras's bar averages the steps of its epoch) has already pulled
down.

Inputs (input_range_printed): an input whose largest size is RAW_SIZE or more, fed as printed, makes the first layer's
pre-activations about that many times a unit-scale input's (WR-330's Why).
"""
from __future__ import annotations

import functools
import itertools
import math
import re

from .brackets import arguments
from .curve_shape import ENORMOUS_START, fmt
from . import lazy_regex

RAW_SIZE = math.sqrt(ENORMOUS_START)

# A name a paste gives its targets: y, y_train, Y_val, ytr, targets, train_targets, labels (a regression's run only: the
# caller asks this of a regression) -- not predictions (y_pred, y_hat).
TARGET_NAME = (r"(?:[yY](?:_?(?:train|tr|val|valid|test|all|true|data))?|[A-Za-z_]{0,12}targets?(?:_[A-Za-z]{1,8})?|"
               r"labels?(?:_[A-Za-z]{1,8})?)")
# ... and its inputs: X, X_train, x_val, inputs, features, images, data
INPUT_NAME = r"(?:[xX](?:_?(?:train|tr|val|valid|test|all|data))?|inputs?|features?|feats|images?|imgs|data)"
STAT = r"(?:min|max|mean|std|median)"
# (one way to read each number: `\d+\.?\d*` split a run of digits every way, and backtracked over each -- code_review_s71 2)
NUMBER = r"[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?"
_CALL = (r"(?:(?P<n{i}>{name})\.(?P<s{i}>" + STAT + r")\(\)(?:\.item\(\))?|"
         r"(?:np|numpy|jnp|torch)\.(?P<f{i}>" + STAT + r")\((?P<m{i}>{name})\))")


def _call(name: str, i: str) -> str:
    return _CALL.replace("{i}", i).replace("{name}", name)


def _printed_calls_pattern(name: str) -> lazy_regex.LazyPattern:
    return lazy_regex.compile(
        r"(?m)print\(\s*" + _call(name, "0") + r"(?:\s*,\s*" + _call(name, "1").replace("?P<", "?P<x") + r"){0,4}\s*\)"
        r"[ \t]*(?:(?:->|=>|→|#|:)[ \t]*(?P<same>[^\n]{0,200})|\n[ \t]*(?P<next>[^\n]{0,200}))")


_PRINTED = {"targets": _printed_calls_pattern(TARGET_NAME), "inputs": _printed_calls_pattern(INPUT_NAME)}
_ONE_CALL = {"targets": lazy_regex.compile(_call(TARGET_NAME, "0")), "inputs": lazy_regex.compile(_call(INPUT_NAME, "0"))}
# An interpreter's line of several expressions, and the tuple it printed under it
REPL = lazy_regex.compile(r"(?m)^[ \t]*(?:>>>|In \[\d+\]:)[ \t]*(?P<expr>[^\n]{1,200}?)[ \t]*\n[ \t]*(?:Out\[\d+\]:[ \t]*)?"
                          r"(?P<out>\([^\n]{1,300}\))[ \t]*$")
# "target stats on train: mean 412.3, std 803.6, max 10800", "y_train: min=251.3 max=306.9 mean=283.7", "target
# value mean is 283.7": a line that names the targets, then, a few words on, its statistics, each a key and its number
STATS_LINE = lazy_regex.compile(r"(?im)^(?P<lead>[^\n]{0,40}?)(?<![\w-])(?:" + TARGET_NAME + r"|target\s+(?:values?|variable|column))"
                                r"(?![\w-])(?P<between>[^\n]{0,30}?)\b(?P<rest>" + STAT + r"\b[^\n]{0,160})$")
# (the statistics of something else on the line -- the loss's, the predictions', the inputs', an axis's -- or a line
# that scales them or compares before and after: not the raw targets' own)
NOT_THE_TARGETS = lazy_regex.compile(r"(?i)\b(?:loss\w*|pred\w*|outputs?|x|inputs?|features?|axis|shape|after|before|"
                                     r"normali[sz]\w*|standardi[sz]\w*|scal\w*|z-?scor\w*|predicted|estimated)\b")
KEYED = lazy_regex.compile(r"\b(?P<key>" + STAT + r"|avg|average|stdev|sd)\b\s*(?:(?:[:=≈~]|is|was|of)\s*)?(?P<value>" + NUMBER
                           + r")(?![\w.])", re.I)
_NUMBERS = lazy_regex.compile(r"(?<![\w.])" + NUMBER + r"(?![\w.])")
# (NumPy 2 prints a scalar as its type around it: np.float32(8934.207); PyTorch a 0-d tensor, with its device or dtype
# where they are not the defaults, and its grad_fn where autograd made it: tensor(-1024.), tensor(1883., device='cuda:0'),
# tensor(-1024., grad_fn=<MinBackward1>))
_SCALAR = lazy_regex.compile(r"^\s*(?:(?:np|numpy)\.\w+\(|tensor\()?\s*(" + NUMBER + r")\s*"
                             r"(?:,\s*(?:device|dtype|grad_fn|requires_grad)\s*=\s*[^()]*)?\)?\s*$")
# (a line of numbers, as print writes them: bare, in a tuple or a list, or in NumPy's and PyTorch's wrappers)
ONLY_NUMBERS = lazy_regex.compile(r"(?:(?:tensor|array|np\.\w+|numpy\.\w+)?[(\[]|[)\],]|\s|" + NUMBER + r")+")
_ALIAS = {"avg": "mean", "average": "mean", "stdev": "std", "sd": "std"}


def _printed_calls(prose: str, kind: str) -> tuple[dict[str, float], str] | None:
    for m in _PRINTED[kind].finditer(prose):
        asked = list(_ONE_CALL[kind].finditer(m.group(0).split("\n")[0]))
        names = {c.group("n0") or c.group("m0") for c in asked}
        stats = [c.group("s0") or c.group("f0") for c in asked]
        shown = m.group("same") if m.group("same") is not None else m.group("next") or ""
        # (the next line is the print's output only where it holds numbers and nothing else: not "Epoch 1/100", not
        # the code that follows)
        if m.group("same") is None and not ONLY_NUMBERS.fullmatch(shown.strip()):
            continue
        printed = _NUMBERS.findall(shown)
        # (one name, each statistic once, and exactly as many numbers printed as asked for)
        if len(names) == 1 and len(set(stats)) == len(stats) and len(printed) == len(stats):
            return dict(zip(stats, map(float, printed))), " ".join(m.group(0).split())
    return None


# ... or a print of several things about one array, its shape and dtype beside its statistics (`print(X.shape,
# X.dtype, X.min(), X.max())`), and the line it printed wherever the paste shows the run's output: a later line that is
# exactly what print() writes for those arguments, each in its own form, one space between (`(200, 256, 256, 1) float32
# 96.0 4095.0`). Prints of the same layout (a code block's print of Y, then of X, its output block below) take such
# lines one to one, in order, and only where the paste shows as many such lines as prints: a print whose line the paste
# left out would take the next array's, and a print in a loop's body writes several lines.
PRINT_CALL = lazy_regex.compile(r"(?m)^[ \t]*print(?=\()")
_SHAPE = (r"(?:\((?:\d+,[ \t]*)*\d*,?\)|torch\.Size\(\[[\d, \t]*\]\)|\(?TensorShape\(\[[\w, \t]*\]\)\)?)")
_DTYPE = r"(?:torch\.|<dtype:[ \t]*')?(?:u?int|float|bfloat|complex|bool)\d*'?>?"
# (_SCALAR's forms as one field of a line: no whitespace at its ends, which the `[ \t]+` joining the fields owns)
_FIELD_SCALAR = (r"(?:(?:np|numpy)\.\w+\(|tensor\()?(" + NUMBER + r")(?:,[ \t]*(?:device|dtype|grad_fn|requires_grad)"
                 r"[ \t]*=[ \t]*[^()\n]*)?\)?")
_ANY_CALL = lazy_regex.compile(_call(r"[A-Za-z_]\w{0,30}", "0"))
OUTPUT_REACH = 4000


@functools.lru_cache(maxsize=4)
def _prints_apart(prose: str) -> tuple[tuple[str, dict[str, float], str], ...]:
    """(the array's name, its statistics, the print and its line quoted) for each print of one array's shape or dtype
    beside its statistics whose output line the paste shows (see above), in the prints' order."""
    prints = []
    for p in itertools.islice(PRINT_CALL.finditer(prose), 50):
        fields, stats, names = [], [], set()
        for arg in (a.strip() for a in (arguments(prose, p.end()) or [])):
            call, named = _ANY_CALL.fullmatch(arg), re.fullmatch(r"(\w+)\.(shape|dtype)", arg)
            if call:
                names.add(call.group("n0") or call.group("m0"))
                stats.append(call.group("s0") or call.group("f0"))
                fields.append(_FIELD_SCALAR)
            elif named:
                names.add(named.group(1))
                fields.append(_SHAPE if named.group(2) == "shape" else _DTYPE)
            else:
                break
        else:
            # (one array, asked for its statistics each once, beside one thing more: two bare numbers are
            # _printed_calls')
            if len(names) == 1 and stats and len(set(stats)) == len(stats) and len(fields) > len(stats):
                prints.append((p, names.pop(), stats, r"[ \t]+".join(fields)))
    found = []
    for layout in dict.fromkeys(layout for *_, layout in prints):
        alike = [p for p in prints if p[3] == layout]
        line = re.compile(r"(?m)^[ \t]*" + layout + r"[ \t]*\r?$")
        start = prose.find("\n", alike[0][0].end()) + 1
        lines = list(itertools.islice(line.finditer(prose, start, alike[-1][0].end() + OUTPUT_REACH), len(alike) + 1))
        if len(lines) != len(alike):
            continue
        for (p, name, stats, _), out in zip(alike, lines):
            printed = " ".join(prose[p.start():prose.find("\n", p.end())].split())
            quoted = f"{printed} -> {' '.join(out.group(0).split())}"
            found.append((p.start(), name, dict(zip(stats, (float(v) for v in out.groups()))), quoted))
    return tuple((name, stats, quoted) for _, name, stats, quoted in sorted(found))


_NAMED = {"targets": lazy_regex.compile(TARGET_NAME), "inputs": lazy_regex.compile(INPUT_NAME)}


def _printed_apart(prose: str, kind: str) -> tuple[dict[str, float], str] | None:
    """The statistics and the quote of the first print apart (_prints_apart) of an array of that kind, or None."""
    return next(((stats, quoted) for name, stats, quoted in _prints_apart(prose) if _NAMED[kind].fullmatch(name)), None)


def _repl_tuple(prose: str, kind: str) -> tuple[dict[str, float], str] | None:
    for m in REPL.finditer(prose):
        exprs = arguments("(" + m.group("expr") + ")", 0)
        values = arguments(m.group("out"), 0)
        if not exprs or not values or len(exprs) != len(values):
            continue
        stats: dict[str, float] = {}
        names = set()
        for expr, value in zip(exprs, values):
            call = _ONE_CALL[kind].fullmatch(expr.strip())
            number = _SCALAR.match(value)
            if call and number:
                names.add(call.group("n0") or call.group("m0"))
                stats.setdefault(call.group("s0") or call.group("f0"), float(number.group(1)))
        if len(names) == 1 and stats:
            return stats, " ".join(m.group("expr").split()) + " -> " + " ".join(m.group("out").split())
    return None


def _stats_line(prose: str) -> tuple[dict[str, float], str] | None:
    for m in STATS_LINE.finditer(prose):
        if NOT_THE_TARGETS.search(m.group(0)):
            continue
        stats: dict[str, float] = {}
        for k in KEYED.finditer(m.group("rest")):
            key = k.group("key").lower()
            stats.setdefault(_ALIAS.get(key, key), float(k.group("value")))
        if _typical(stats):
            return stats, " ".join(m.group(0).split())
    return None


def _typical(stats: dict[str, float]) -> float:
    """An array's typical size, the root of its mean square: hypot(mean, std) where the deviation is printed, else the
    mean's size (or the median's). A range alone says nothing of it (counts and prices are skewed): 0."""
    centre = stats.get("mean", stats.get("median"))
    return 0.0 if centre is None else math.hypot(centre, stats.get("std", 0.0))


# A first printed loss this many times below the targets' mean square: the targets that reach the loss were scaled
# somewhere the paste does not show (an epoch's mean pulls its first value down, but not so far: Keras's first epoch of
# a kelvin target printed 2871 against a mean square of 8e4)
START_FAR_BELOW = 1000.0
# A target's name the code assigns from the model's output: `y = model(x)` is the prediction, not the targets
MODEL_CALL = r"(?:self\.)?\w*(?:model|net|forward|predict|head|decoder|layer|mlp)\w*[ \t]*\("
MADE_BY_THE_MODEL = r"(?m)^[ \t]*{name}[ \t]*=[ \t]*" + MODEL_CALL


def _the_models(prose: str, quoted: str) -> bool:
    """Does the code assign a name the quoted statistics read from the model's output?"""
    return any(re.search(MADE_BY_THE_MODEL.format(name=re.escape(n)), prose)
               for n in set(re.findall(r"[A-Za-z_]\w*(?=\.(?:min|max|mean|std|median)\(\))", quoted)))


def target_size_printed(prose: str, first_loss: float | None = None) -> str:
    """The fact, when the paste prints its targets' statistics and their typical size is RAW_SIZE or more, else "".
    Not where the first loss printed (`first_loss`) is START_FAR_BELOW times or more below their mean square."""
    found = (_printed_calls(prose, "targets") or _repl_tuple(prose, "targets") or _printed_apart(prose, "targets")
             or _stats_line(prose))
    if found is None or _the_models(prose, found[1]):
        return ""
    stats, quoted = found
    size = _typical(stats)
    square = size * size                    # (inf, not OverflowError, for a printed 1e160)
    if not (math.isfinite(square) and size >= RAW_SIZE) \
            or first_loss is not None and math.isfinite(first_loss) and first_loss * START_FAR_BELOW < square:
        return ""
    return (f"the paste prints its targets' statistics (\"{quoted[:120]}\"): targets of about {fmt(size)} in size, "
            f"so a squared error starts near their mean square, about {fmt(square)}, while the outputs are still "
            "of order 1 -- targets in their raw units")


def input_range_printed(prose: str) -> str:
    """The fact, when the paste prints an input's largest (or smallest) value and its size is RAW_SIZE or more, else
    ""."""
    found = _printed_calls(prose, "inputs") or _repl_tuple(prose, "inputs") or _printed_apart(prose, "inputs")
    if found is None or _the_models(prose, found[1]):
        return ""
    stats, quoted = found
    largest = max((abs(stats[k]) for k in ("min", "max") if k in stats), default=0.0)
    if not (math.isfinite(largest) and largest >= RAW_SIZE):
        return ""
    return (f"the paste prints its inputs' range (\"{quoted[:120]}\"): values up to {fmt(largest)} in size, fed as "
            "printed, make the first layer's sums about that many times a standardised input's -- inputs in their raw "
            "units")
