"""What a validation loss printed beside the training loss says of overfitting: its values, and whether it is still
falling or turned and rose. Said beside the normal verdicts about a train/validation gap and overfitting, where the
question is exactly that."""
from __future__ import annotations

import math
import re

from .curve_shape import fmt
from .logscan.layout import csv_column, csv_values
from .logscan.numbers import NUMBER, to_float

# a validation loss under its own key: Keras's `val_loss: 0.5534`, `'eval_loss': 0.61`, `val_loss=0.58`, a table's
# `val_loss 0.6914` (not `best_val_loss`, a running best, nor `val_loss_std`)
VALIDATION_LOSS = re.compile(rb"(?i)(?<![\w])(?:val(?:idation)?|valid|eval)[_ ]loss['\"]?[ \t]*[:=]?[ \t]*(" + NUMBER
                             + rb")(?![\w.])")
VALIDATION_COLUMNS = (b"val_loss", b"validation_loss", b"valid_loss", b"eval_loss")
MIN_VALUES = 3
# a validation loss this far above its lowest, at its last value, has turned: rose, not a wobble at its floor
ROSE = 1.05
# ... and one that more than doubled from its first value, its lowest, learned nothing that carries to new rows
NOTHING_CARRIED = 2.0


def values(text: str) -> list[float]:
    """The validation losses the text prints, in order (finite ones only): under their key on each line, or in a CSV
    file's `val_loss` column (Keras's CSVLogger)."""
    data = text.encode("utf-8", "replace")
    column = csv_column(data, VALIDATION_COLUMNS)
    printed = (csv_values(data, column, True) if column is not None else
               [m.group(1) for m in VALIDATION_LOSS.finditer(data)])
    out = []
    for number in printed:
        v = to_float(number)
        if v is not None and math.isfinite(v):
            out.append(v)
    return out


def trend(text: str, rose_only: bool = False) -> str:
    """A sentence on the validation loss's course, or "" where it prints fewer than MIN_VALUES (with rose_only, only
    where it rose from its lowest)."""
    seen = values(text)
    if len(seen) < MIN_VALUES:
        return ""
    n, low = len(seen), min(seen)
    at = max(k for k, v in enumerate(seen) if v == low) + 1
    if at == n and not rose_only:
        fell = ("fell at every value" if all(b <= a for a, b in zip(seen, seen[1:])) else "ends at its lowest")
        return (f"the validation loss the log prints {fell}, from {fmt(seen[0])} to {fmt(seen[-1])} (value {n} of "
                f"{n}): the model still does better on rows it did not train on; overfitting shows as a validation loss "
                "that turns and rises while the training loss falls")
    if at == 1 and seen[-1] > NOTHING_CARRIED * low:
        return (f"the validation loss the log prints was lowest at its first value ({fmt(low)}) and rose since, to "
                f"{fmt(seen[-1])} (value {n} of {n}): what the model learned carries nothing to rows it did not train "
                "on -- what a model does that sees only a few rows, over and over, or rows unlike the validation ones")
    if at < n and seen[-1] > ROSE * low:
        return (f"the validation loss the log prints was lowest at value {at} of {n} ({fmt(low)}) and rose since, "
                f"to {fmt(seen[-1])}: that is overfitting; the weights of its lowest point are the ones to keep")
    return ""
