"""A loss that a logger turned into 0.0: Hugging Face's Trainer hides non-finite losses.

With `logging_nan_inf_filter` (on by default), the Trainer does not add a step's loss that is nan or
inf to the interval's running total; it adds the total's own mean instead, so one bad step leaves the
logged mean as it was. When *every* step of a logging interval was nan or inf, the total stays at the
0 it was reset to, and the log prints `'loss': 0.0`, while the gradient norm beside it, which no filter
touches, prints nan. (transformers' Trainer._inner_training_loop; the filter's help text says it only
affects logging: the bad steps still run backward and update the weights.)

So a Hugging Face log whose loss drops from a positive value to exactly 0 and stays there to the end,
with a nan or inf gradient norm beside those zeros, is read as a loss that went nan where the zeros
start. A loss that really is 0 has a finite gradient norm (0, for a loss that cannot go lower).
"""
from __future__ import annotations

import math
from dataclasses import replace

from .evidence import Evidence

SOURCE = ("https://github.com/huggingface/transformers/blob/2cda12cbf6e476183e68ec476551fa7e3717394a/src/"
          "transformers/trainer.py")
TRAINER = "Hugging Face Trainer"


def with_hidden(ev: Evidence) -> Evidence:
    """The evidence with the zeros the Trainer logged for non-finite losses read as nan, or as it was."""
    if ev.dialect != TRAINER or ev.first_nonfinite is not None or not ev.grad_nonfinite_last or not ev.before:
        return ev
    values = ev.before
    j = len(values)
    while j and values[j - 1] == 0.0:
        j -= 1
    first = ev.before_start + j
    if j == 0 or j == len(values) or not values[j - 1] > 0 or ev.grad_nonfinite_from is None \
            or ev.grad_nonfinite_from > first:
        return ev
    zeros, pos = len(values) - j, ev.before_at[j]
    kept = values[:j]
    out = replace(ev, first_nonfinite=first, first_nonfinite_value=math.nan, first_nonfinite_at=pos,
                  first_nan=first, first_nan_at=pos, finite_after=0, last=math.nan,
                  before=kept, before_at=ev.before_at[:j], hidden_kind="nan",
                  low=min(v for v in kept + ev.head[:max(0, first)] if math.isfinite(v)),
                  high=max(v for v in kept + ev.head[:max(0, first)] if math.isfinite(v)),
                  hidden_note=(f"the Trainer logged a loss of exactly 0.0 from {pos} ({zeros} value(s), to the end) "
                             "with a nan or inf gradient norm beside it: its default nan/inf filter "
                             "(logging_nan_inf_filter) logs 0.0 for an interval in which every step's loss was nan "
                             "or inf, so those zeros are read as nan"))
    out.head = [math.nan if i >= first else v for i, v in enumerate(ev.head)]
    return out
