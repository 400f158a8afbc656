"""How a log writes a number, and the pattern of a number written after a key."""
from __future__ import annotations

import math
import itertools
import re

# 0.69, .5, 1e-3, nan / NaN / -nan, inf / Infinity / INF; with `thousands`, 1,234.5 too; `nan.0` and `inf.0`, as
# Lightning's progress bar pads every number to five characters (Tqdm.format_num in
# src/lightning/pytorch/callbacks/progress/tqdm_progress.py at 2.5.0: `nan` -> `nan.` -> `nan.0`). An optional
# group is written `(?:...|)`, which matches the same way as `(?:...)?` but costs the regex engine
# less (a branch, not a repeat): 7% of the time of the loss pattern's findall. The digits after a point follow
# the point only (`\d+(?:\.\d*|)`, not `\d+\.?\d*`): a run of digits then splits one way, and a long one that
# is no number (`111...1x`) is refused in linear time, not tried at every split.
_NUMBER = rb"[-+]?(?:\d+{thousands}(?:\.\d*|)(?:[eE][-+]?\d+|)|\.\d+(?:[eE][-+]?\d+|)|[nN]a[nN](?:\.0|)|[iI]nf(?:inity|\.0|)|INF(?:INITY|))"
NUMBER = _NUMBER.replace(b"{thousands}", b"")
THOUSANDS = re.compile(rb"\d,\d{3}(?![\d,])")
# What may stand between a key and its number: quotes, `:` or `=`; with `wrappers`, a
# framework's box around it too (BOX).
# (one run of spaces, then maybe `:` or `=` and another: two runs side by side with nothing between them split a long
# run of spaces every way -- `loss` and 16 kB of spaces took 13.7 s)
_BETWEEN = rb"['\"]?[ \t]*(?:[:=][ \t]*)?['\"]?"
# A framework's box around a scalar, up to its number, as the scalar's repr writes it: PyTorch's `tensor(0.69,
# grad_fn=...)`, NumPy's `array(0.69)` and, from NumPy 2.0, a scalar's `np.float64(0.69)` (NEP 51: a dict or a list of
# them prints so); JAX's `Array(0.69, dtype=float32)` (`DeviceArray(` before 0.4.1); TensorFlow's str
# `tf.Tensor(0.69, shape=(), dtype=float32)` and repr `<tf.Tensor: shape=(), dtype=float32, numpy=0.69>`.
BOX = (rb"(?:(?:tensor|array|Array|DeviceArray|tf\.Tensor|np\.float(?:16|32|64)|numpy\.float(?:16|32|64))\("
       rb"|<tf\.Tensor: shape=\(\), dtype=\w+, numpy=)")
WRAPPERS = (b"tensor(", b"array(", b"Array(", b"tf.Tensor", b"np.float", b"numpy.float")
# ... and the framework a box shows (an ORIGINS key), with a number in it: not NumPy's, which holds the numbers of any
# framework's loop (`np.mean(losses)` of PyTorch's floats is an np.float64)
_BOX_ORIGINS = ((b"tensor(", rb"tensor\(", "pytorch"), (b"Array(", rb"Array\(", "jax"),
                (b"tf.Tensor", rb"tf\.Tensor(?:\(|: shape=\(\), dtype=\w+, numpy=)", "tensorflow"))
_BOXED = [(literal, re.compile(box + rb"[ \t]*" + NUMBER), origin) for literal, box, origin in _BOX_ORIGINS]
# Not a value: the number runs on into a word or a decimal (a version's `1.2.3`); with `arrows`, the start of a
# summary that reports a change (`loss 0.69 -> 0.19`).
ARROWS = (b"->", "\u2192".encode())


# A finite number in an expression of code: `loss = 0.01 * mse(e, e_ref) + 0.99 * mse(f, f_ref)` or `loss = 0.5 *
# recon + 0.5 * kl` in a pasted loop weighs losses, `loss = 0.5*x` scales one, and `loss = 1 - dice(p, y)` is a Dice
# loss -- none prints a loss of 0.01, 0.5 or 1. A `*` with space on both sides is multiplication, whatever follows; one
# against the digits and a name or a bracket is too, unless an emphasis closes against a word within the next 80
# characters of its line (Markdown's `**0.31**`, `0.74 **(best)**`: emphasis never opens or closes against a space, and
# `**0.52** (-25%)` closes right after the digits). An operator before a call: `- dice(`, `+ reg(`, `/ n(`. Not a nan or
# an inf, which no code weighs a loss by, nor Keras's ` - accuracy:` separator (no call after it). Every form needs a
# `(` or a `*` later on the number's line: alike() reads only such lines with the regex (CODE_MARK).
CODE_AFTER = (rb"(?<=\d)(?:[ \t]+\*{1,2}[ \t]+[^\s*]|\*{1,2}(?=[A-Za-z_(])(?![^*\n]{1,80}?[^\s*]\*)|"
              rb"[ \t]*[-+/][ \t]*[A-Za-z_][\w.]*\()")
CODE_AFTER_AT = re.compile(CODE_AFTER)
CODE_MARK = re.compile(rb"[(*]")
# (the most `(` and `*` a block may hold for alike() to check their lines one by one; past it, the regex reads the block)
MAX_CODE_MARKS = 4096


def keyed(key: bytes, wrappers: bool = False, thousands: bool = False, arrows: bool = False) -> re.Pattern:
    """`key: 1.5`, `key=1.5`, `'key': 1.5`, `key 1.5`, `key=tensor(1.5)`, `'key': np.float64(1.5)`: the number
    after a key.

    The pattern starts with the key's literal, so the regex engine jumps between
    candidates at C speed; keys to leave out (`val_loss`) are masked beforehand
    rather than excluded by a look-behind, which would make every position a
    candidate. Each optional spelling costs time at every match, so it is switched
    on only for a log whose first block uses it (`features`).
    """
    between = _BETWEEN + (rb"(?:" + BOX + rb"\[?)?" if wrappers else b"")
    number = _NUMBER.replace(b"{thousands}", rb"(?:,\d{3})*" if thousands else b"")
    # (a point that ends a sentence after digits is no decimal: "epoch 200 loss 3.91e10." -- one before a digit or a
    # letter is; after a word, `loss = NaN.` is a message's, as TensorFlow's "Model diverged with loss = NaN." is)
    # (nor a number in an expression of code: CODE_AFTER)
    stop = rb"\w|\.\w|(?<![0-9])\.|" + CODE_AFTER
    after = rb"(?!" + stop + rb"|[ \t]*(?:->|\xe2\x86\x92))" if arrows else rb"(?!" + stop + rb")"
    # a key that ends in a letter must end there: `loss1: 0.84` is another loss, not a loss of 1
    whole = rb"(?![A-Za-z0-9])" if key[-1:].isalnum() else b""
    # (a qualifier in brackets after the key that says it is the training loss or its running summary: `loss(avg10)=8.96`,
    # `loss (ema): 0.51`, `loss(train)=2.31` -- not a validation's, `loss(dev)`, nor one batch's beside its running mean,
    # `loss(batch)`, nor a call's arguments, `loss(pred, y)`)
    qualified = rb"(?:[ \t]?\((?:avg|average|mean|ema|smooth\w{0,4}|running|train\w{0,3}|total)\d{0,6}\))?"
    return re.compile(key + whole + qualified + between + rb"(" + number + rb")" + after)


def features(first: bytes) -> dict[str, bool]:
    """The optional spellings a log's first block uses."""
    return {"wrappers": any(w in first for w in WRAPPERS), "thousands": THOUSANDS.search(first) is not None,
            "arrows": any(a in first for a in ARROWS)}


def box_frameworks(first: bytes) -> list[str]:
    """The frameworks whose boxes around a number (BOX) the start of a log shows: JAX's `Array(0.69, ...)` is a JAX
    run's, whatever else the log prints."""
    return list(dict.fromkeys(origin for literal, boxed, origin in _BOXED if literal in first and boxed.search(first)))


def to_float(text: bytes) -> float | None:
    """A matched number as a float (1e309 and a 400-digit number are inf, as Python reads them)."""
    number = text.strip().strip(b"\"'").replace(b",", b"")
    if number[-2:] == b".0" and number[-3:-2].isalpha():       # Lightning's padded `nan.0`, `inf.0`
        number = number[:-2]
    try:
        return float(number)
    except ValueError:
        return None


class Batch:
    """One block's loss values as matched text, converted only as far as diagnosis needs.

    In the usual block every value is a plain finite number written the same way
    (`0.6931`, `0.6928`, ...): then the lowest and highest are found by comparing the
    text itself, and only the values kept are converted. Otherwise every value is
    converted (in C: every spelling of nan and inf has an n or N, and 1e309 is inf).
    """

    def __init__(self, raw: list[bytes]):
        self.raw, self.n = raw, len(raw)
        joined = b"".join(raw)
        self.values: list[float] | None = None
        self.same_shape = False
        if b"n" in joined or b"N" in joined or b"," in joined:
            self.values = all_floats(raw)
        elif raw:
            width = len(raw[0])
            dot = raw[0].find(b".")
            # equal width, no sign or exponent, the point in the same column: text order is number order
            self.same_shape = (len(joined) == width * self.n and not any(c in joined for c in (b"e", b"E", b"-", b"+"))
                               and (joined.count(b".") == 0 if dot < 0 else joined[dot::width] == b"." * self.n))
            if not self.same_shape:
                self.values = list(map(float, raw))
        self.all_finite = self.values is None or all(map(math.isfinite, self.values))

    def floats(self, start: int = 0, stop: int | None = None) -> list[float]:
        if self.values is not None:
            return self.values[start:stop]
        return list(map(float, self.raw[start:stop]))

    def extremes(self, upto: int) -> tuple[float, int, float]:
        """Lowest value among the first `upto` (all finite), its first index, and the highest."""
        if self.values is None:
            part = self.raw[:upto]
            low = min(part)
            return float(low), part.index(low), float(max(part))
        part = self.values[:upto]
        low = min(part)
        return low, part.index(low), max(part)


def all_floats(raw: list[bytes]) -> list[float]:
    return [v if (v := to_float(r)) is not None else math.nan for r in raw]


# The numbers numbers.alike reads: digits, with a point and digits after it or not.
PLAIN = re.compile(rb"\d+(?:\.\d+)?")
# Bytes the pattern's look-ahead refuses right after a number: a word character or a point.
NOT_AFTER = frozenset(b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_.")
MAX_DIGITS = 18      # read as one int64
MAX_ODD = 32         # occurrences of the key written otherwise, each tried with the regex (prose: `loss improved`)
PIECE = 1 << 18      # bytes compared at a time: NumPy's temporary arrays stay small, in the cache (2.5x faster)


class Alike:
    """A block's loss values when each is written as its first is; what Batch gives for them,
    kept as their offsets in the text and their digits as integers, not as one object per value."""

    values = None               # all finite: none is converted until kept
    all_finite = same_shape = True

    def __init__(self, text: bytes, starts, width: int, digits):
        self.text, self.starts, self.width, self.digits = text, starts, width, digits
        self.n = len(starts)

    def floats(self, start: int = 0, stop: int | None = None) -> list[float]:
        return [float(self.text[s:s + self.width]) for s in self.starts[start:stop].tolist()]

    def extremes(self, upto: int) -> tuple[float, int, float]:
        """As Batch.extremes: the values have one shape, so the digits' order is theirs."""
        part = self.digits[:upto]
        low, high = int(part.argmin()), int(part.argmax())     # the first of equal values, as list.index finds
        return self.floats(low, low + 1)[0], low, self.floats(high, high + 1)[0]


def alike(text: bytes, key: bytes, pattern: re.Pattern) -> Alike | None:
    """The values `pattern.findall(text)` returns, read with NumPy at every occurrence of `key` at once,
    when the pattern is keyed() of that text (layout's `literal`) and the occurrences are written as the
    first one the pattern matches: the same bytes up to the number, a number of the same shape (PLAIN:
    as many digits before and after the point) and a byte the pattern's look-ahead accepts. At most
    MAX_ODD are not, and the pattern matches none of those. Else None, for the regex.

    It is exact: the pattern starts with the key and looks at nothing before it, and, after a plain
    number, at nothing past the next byte but code after it (CODE_AFTER), which each occurrence with a
    `(` or a `*` later on its line is read for (_without_code_after); it does not tell one digit from
    another. So what it finds at that first match it finds at every occurrence written alike, and the
    occurrences are far enough apart that no match hides the next."""
    import numpy as np

    a = np.frombuffer(text, np.uint8)
    at = _occurrences(np, a, key)
    first = _template(text, at[:MAX_ODD + 1].tolist(), pattern)
    if first is None:
        return None
    start, end = first.span(1)
    reach = end + 1 - first.start()                  # key, what stands before the number, number, next byte
    if len(at) > 1 and int(np.diff(at).min()) < reach - 1:
        return None
    inside = at[:int(np.searchsorted(at, len(text) - reach, "right"))]
    same, digits = _written_alike(np, a, text, inside, first, len(key))
    same = _without_code_after(np, text, inside + (end - first.start()), same)
    if same is None:
        return None
    odd = np.concatenate((inside[~same], at[len(inside):])).tolist()
    if len(odd) > MAX_ODD or any(pattern.match(text, p) for p in odd):
        return None
    return Alike(text, inside[same] + (start - first.start()), end - start, digits[same])


def _without_code_after(np, text: bytes, ends, same):
    """`same` less the occurrences whose number (ending at `ends`) code follows on its line (CODE_AFTER): only those
    with a `(` or a `*` after the number on their line are read, one by one; None where the block holds more than
    MAX_CODE_MARKS of those characters (the regex then reads it)."""
    if b"(" not in text and b"*" not in text:
        return same
    marks = [m.start() for m in itertools.islice(CODE_MARK.finditer(text), MAX_CODE_MARKS + 1)]
    if len(marks) > MAX_CODE_MARKS:
        return None
    same = same.copy()
    before = np.searchsorted(ends, marks, "right") - 1        # the last number that ends before each mark
    for mark, k in zip(marks, before.tolist()):
        if k >= 0 and same[k] and text.find(b"\n", int(ends[k]), mark) < 0 and CODE_AFTER_AT.match(text, int(ends[k])):
            same[k] = False
    return same


def _template(text: bytes, at: list[int], pattern: re.Pattern) -> re.Match | None:
    """The pattern's match at the first of these occurrences it matches, if its number is plain."""
    for p in at:
        if m := pattern.match(text, p):
            return m if PLAIN.fullmatch(m.group(1)) and len(m.group(1)) <= MAX_DIGITS else None
    return None


def _written_alike(np, a, text: bytes, at, first: re.Match, skip: int):
    """Which occurrences are written as `first` is past the key's `skip` bytes, and their numbers'
    digits as integers. One column of bytes at a time: 1-D gathers are cheap."""
    same, digits = np.ones(len(at), bool), np.zeros(len(at), np.int64)
    start, end = first.span(1)
    refused = np.zeros(256, bool)
    refused[list(NOT_AFTER)] = True
    for here in range(first.start() + skip, end + 1):
        column, byte = a[at + (here - first.start())], text[here]
        if here == end:
            same &= ~refused[column]
        elif here < start or byte == ord("."):
            same &= column == byte
        else:
            column = column - ord("0")              # a byte below "0" wraps round to above 9
            same &= column < 10
            digits = digits * 10 + column
    return same, digits


def _occurrences(np, a, key: bytes):
    """Offsets of every occurrence of `key` in the array of bytes `a`."""
    last = len(a) - len(key) + 1
    parts = [np.empty(0, np.intp)]
    for low in range(0, last, PIECE):
        high = min(low + PIECE, last)
        found = a[low:high] == key[0]
        if len(key) > 1:          # two bytes compared over the whole block leave few candidates
            found &= a[low + 1:high + 1] == key[1]
        parts.append(np.flatnonzero(found) + low)
    at = np.concatenate(parts)
    for k in range(2, len(key)):
        at = at[a[at + k] == key[k]]
    return at
