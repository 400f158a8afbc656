"""How a log writes a number, and the pattern of a number written after a key."""
from __future__ import annotations

import math
import re

# 0.69, .5, 1e-3, nan / NaN / -nan, inf / Infinity / INF; with `thousands`, 1,234.5 too. An optional
# group is written `(?:...|)`, which matches the same way as `(?:...)?` but costs the regex engine
# less (a branch, not a repeat): 7% of the time of the loss pattern's findall.
_NUMBER = rb"[-+]?(?:\d+{thousands}\.?\d*(?:[eE][-+]?\d+|)|\.\d+(?:[eE][-+]?\d+|)|[nN]a[nN]|[iI]nf(?:inity|)|INF(?:INITY|))"
NUMBER = _NUMBER.replace(b"{thousands}", b"")
THOUSANDS = re.compile(rb"\d,\d{3}(?![\d,])")
# What may stand between a key and its number: quotes, `:` or `=`; with `wrappers`, a
# framework's box around it too -- PyTorch's `tensor(0.69, grad_fn=...)`, NumPy's `array(0.69)`.
_BETWEEN = rb"['\"]?[ \t]*[:=]?[ \t]*['\"]?"
WRAPPERS = (b"tensor(", b"array(")
# Not a value: the number runs on into a word or a decimal; with `arrows`, the start of a
# summary that reports a change (`loss 0.69 -> 0.19`).
ARROWS = (b"->", "\u2192".encode())


def keyed(key: bytes, wrappers: bool = False, thousands: bool = False, arrows: bool = False) -> re.Pattern:
    """`key: 1.5`, `key=1.5`, `'key': 1.5`, `key 1.5`, `key=tensor(1.5)`: the number after a key.

    The pattern starts with the key's literal, so the regex engine jumps between
    candidates at C speed; keys to leave out (`val_loss`) are masked beforehand
    rather than excluded by a look-behind, which would make every position a
    candidate. Each optional spelling costs time at every match, so it is switched
    on only for a log whose first block uses it (`features`).
    """
    between = _BETWEEN + (rb"(?:(?:tensor|array)\(\[?)?" if wrappers else b"")
    number = _NUMBER.replace(b"{thousands}", rb"(?:,\d{3})*" if thousands else b"")
    after = rb"(?![\w.]|[ \t]*(?:->|\xe2\x86\x92))" if arrows else rb"(?![\w.])"
    # a key that ends in a letter must end there: `loss1: 0.84` is another loss, not a loss of 1
    whole = rb"(?![A-Za-z0-9])" if key[-1:].isalnum() else b""
    return re.compile(key + whole + between + rb"(" + number + rb")" + after)


def features(first: bytes) -> dict[str, bool]:
    """The optional spellings a log's first block uses."""
    return {"wrappers": any(w in first for w in WRAPPERS), "thousands": THOUSANDS.search(first) is not None,
            "arrows": any(a in first for a in ARROWS)}


def to_float(text: bytes) -> float | None:
    """A matched number as a float (1e309 and a 400-digit number are inf, as Python reads them)."""
    try:
        return float(text.strip().strip(b"\"'").replace(b",", b""))
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
