"""How a log writes a number, and the pattern of a number written after a key."""
from __future__ import annotations

import math
import re

# 0.69, .5, 1e-3, 1,234.5 (thousands), nan / NaN / -nan, inf / Infinity / INF.
NUMBER = (rb"[-+]?(?:\d{1,3}(?:,\d{3})+(?:\.\d*)?(?:[eE][-+]?\d+)?|\d+\.?\d*(?:[eE][-+]?\d+)?|\.\d+(?:[eE][-+]?\d+)?"
          rb"|[nN]a[nN]|[iI]nf(?:inity)?|INF(?:INITY)?)")
# What may stand between a key and its number: quotes, `:` or `=`, and a framework's
# wrapper -- PyTorch's `tensor(0.69, grad_fn=...)`, NumPy's `array(0.69)`.
_BETWEEN = rb"['\"]?[ \t]*[:=]?[ \t]*['\"]?(?:(?:tensor|array)\(\[?)?"
# Not a value: the number runs on into a word or a decimal, or it is the start of a
# summary that reports a change (`loss 0.69 -> 0.19`).
_AFTER = rb"(?![\w.])(?![ \t]*(?:->|\xe2\x86\x92))"


def keyed(key: bytes) -> re.Pattern:
    """`key: 1.5`, `key=1.5`, `'key': 1.5`, `key 1.5`, `key=tensor(1.5)`: the number after a key.

    The pattern starts with the key's literal, so the regex engine jumps between
    candidates at C speed; keys to leave out (`val_loss`) are masked beforehand
    rather than excluded by a look-behind, which would make every position a candidate.
    """
    return re.compile(key + _BETWEEN + rb"(" + NUMBER + rb")" + _AFTER)


def to_float(text: bytes) -> float | None:
    """A matched number as a float (1e309 and a 400-digit number are inf, as Python reads them)."""
    try:
        return float(text.strip().strip(b"\"'").replace(b",", b""))
    except ValueError:
        return None


def plain_floats(raw: list[bytes]) -> list[float] | None:
    """The values, if they are all plain finite numbers; None if one is nan, inf, overflows or has a comma.

    `float` does the work in C; every spelling of nan and inf has an n or N.
    """
    joined = b"".join(raw)
    if not raw:
        return []
    if b"n" in joined or b"N" in joined or b"," in joined:
        return None
    values = list(map(float, raw))
    if max(values) == math.inf or min(values) == -math.inf:
        return None
    return values


def all_floats(raw: list[bytes]) -> list[float]:
    return [v if (v := to_float(r)) is not None else math.nan for r in raw]
