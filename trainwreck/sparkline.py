"""A loss curve in one line of text, for the terminal."""
from __future__ import annotations

import math

BARS = "▁▂▃▄▅▆▇█"


def sparkline(values, log: bool | None = None) -> str:
    """One character per value; inf is shown as ↑ and nan as ·.

    The scale is logarithmic when the finite values span more than a factor of
    ten (and are all positive), so a geometric climb reads as a ramp.
    """
    finite = [v for v in values if isinstance(v, (int, float)) and math.isfinite(v)]
    if log is None:
        log = bool(finite) and min(finite) > 0 and max(finite) / min(finite) > 10
    scaled = [math.log10(v) if log else v for v in finite]
    lo, hi = (min(scaled), max(scaled)) if scaled else (0.0, 0.0)
    out = []
    for v in values:
        if v is None or (isinstance(v, float) and math.isnan(v)):
            out.append("·")
        elif math.isinf(v):
            out.append("↑" if v > 0 else "↓")
        else:
            s = math.log10(v) if log else v
            level = 0 if hi == lo else round((s - lo) / (hi - lo) * (len(BARS) - 1))
            out.append(BARS[level])
    return "".join(out)
