"""What a paste prints of its regression targets' own size: `print(y.min(), y.max(), y.mean())` with what it printed, or
a line of statistics of the targets ("target stats on train: mean 412.3, std 803.6").

A fresh network's outputs are of order 1 whatever the targets are, so a squared error starts at about the targets'
mean square, mean² + std² (WR-360's Why). Targets whose typical size is RAW_SIZE or more make that start
ENORMOUS_START or more: the same line the enormous first loss draws, read from the targets instead of from a first
loss that an epoch's mean (Keras's bar averages the steps of its epoch) has already pulled down.
"""
from __future__ import annotations

import math
import re

from .curve_shape import ENORMOUS_START, fmt
from . import lazy_regex

RAW_SIZE = math.sqrt(ENORMOUS_START)

# A name a paste gives its targets: y, y_train, Y_val, ytr, targets, train_targets, labels (a regression's run only: the
# caller asks this of a regression) -- not predictions (y_pred, y_hat).
_TARGET_NAME = (r"(?:[yY](?:_?(?:train|tr|val|valid|test|all|true|data))?|[A-Za-z_]{0,12}targets?(?:_[A-Za-z]{1,8})?|"
                r"labels?(?:_[A-Za-z]{1,8})?)")
STAT = r"(?:min|max|mean|std|median)"
# `print(y_train.min(), y_train.max(), y_train.mean())` (or np.min(y), y.mean().item()), and what it printed: after an
# arrow or a comment on the same line, or alone on the next line, as many numbers as it asked for
_CALL = (r"(?:(?P<n{i}>" + _TARGET_NAME + r")\." + r"(?P<s{i}>" + STAT + r")\(\)(?:\.item\(\))?|"
         r"(?:np|numpy|jnp|torch)\.(?P<f{i}>" + STAT + r")\((?P<m{i}>" + _TARGET_NAME + r")\))")
NUMBER = r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?"
PRINTED_CALLS = lazy_regex.compile(
    r"(?m)print\(\s*" + _CALL.replace("{i}", "0") + r"(?P<more>(?:\s*,\s*" + _CALL.replace("{i}", "1").replace("?P<", "?P<x") + r"){0,4})\s*\)"
    r"[ \t]*(?:(?:->|=>|→|#|:)[ \t]*(?P<same>[^\n]*)|\n[ \t]*(?:>>>[ \t]*)?(?P<next>[^\n]*))")
_ONE_CALL = lazy_regex.compile(_CALL.replace("{i}", "0"))
# "target stats on train: mean 412.3, std 803.6, max 10800", "y_train: min=251.3 max=306.9 mean=283.7", "labels mean
# 1.2e4 std 3e3": a line that names the targets, then its statistics, each a key and its number
STATS_LINE = lazy_regex.compile(r"(?im)^[^\n]{0,40}?\b(?:" + _TARGET_NAME + r"|target\s+(?:values?|variable|column))\b"
                                r"(?P<rest>[^\n]{0,40}?\b" + STAT + r"\b[^\n]{0,160})$")
KEYED = lazy_regex.compile(r"\b(?P<key>" + STAT + r"|avg|average|stdev|sd)\b\s*(?:[:=]\s*)?(?P<value>" + NUMBER + r")(?![\w.])", re.I)
_NUMBERS = lazy_regex.compile(r"(?<![\w.])" + NUMBER + r"(?![\w.])")
_ALIAS = {"avg": "mean", "average": "mean", "stdev": "std", "sd": "std"}


def _size(stats: dict[str, float]) -> float:
    """The targets' typical size: the root of their mean square where the mean and the deviation are printed, else the
    mean's (or the median's) size, else the middle of the sizes of the smallest and the largest."""
    if "mean" in stats:
        return math.sqrt(stats["mean"] ** 2 + stats.get("std", 0.0) ** 2)
    if "median" in stats:
        return abs(stats["median"])
    if "min" in stats and "max" in stats:
        return (abs(stats["min"]) + abs(stats["max"])) / 2
    return 0.0


def _printed_calls(prose: str) -> tuple[dict[str, float], str] | None:
    for m in PRINTED_CALLS.finditer(prose):
        asked = list(_ONE_CALL.finditer(m.group(0).split("\n")[0]))
        names = {c.group("n0") or c.group("m0") for c in asked}
        stats = [c.group("s0") or c.group("f0") for c in asked]
        printed = _NUMBERS.findall(m.group("same") if m.group("same") is not None else m.group("next") or "")
        # (one name, each statistic once, and exactly as many numbers printed as asked for)
        if len(names) == 1 and len(set(stats)) == len(stats) and len(printed) == len(stats):
            return dict(zip(stats, map(float, printed))), " ".join(m.group(0).split())
    return None


def target_size_printed(prose: str) -> str:
    """The fact, when the paste prints its targets' statistics and their typical size is RAW_SIZE or more, else ""."""
    found = _printed_calls(prose)
    if found is None:
        for m in STATS_LINE.finditer(prose):
            stats = {}
            for k in KEYED.finditer(m.group("rest")):
                key = k.group("key").lower()
                stats.setdefault(_ALIAS.get(key, key), float(k.group("value")))
            if _size(stats):
                found = stats, " ".join(m.group(0).split())
                break
    if found is None:
        return ""
    stats, quoted = found
    size = _size(stats)
    if not (math.isfinite(size) and size >= RAW_SIZE):
        return ""
    return (f"the paste prints its targets' statistics (\"{quoted[:120]}\"): targets of about {fmt(size)} in size, "
            f"so a squared error starts near their mean square, about {fmt(size ** 2)}, while the outputs are still "
            "of order 1 -- targets in their raw units")
