"""The loss watch's rule: when a loss curve should set off the alarm, while it is still finite.

One definition, read by `trainwreck diagnose` and by the watch benchmark;
snippets/loss_watch.py applies the same rule in a form a reader can copy
(tests/test_loss_watch.py holds the two together). A non-finite loss is not
the rule's business: it stops the watch before any rule is asked.

Per epoch, each loss is already an average over the whole data, so a rise is a
rise: the alarm is a climb. Per step, a mini-batch loss jumps by several times
from one batch to the next in a healthy run, and a run that recovers climbs
from its low as far as one that diverges; what only the runs in trouble do is
go back above where training started, or stay up, well above their low, for
long. bench/watch_bench.py measures both.
"""
from __future__ import annotations

import math

# Per epoch: a climb is a run of rises of at least CLIMB_STEP each; it sets off
# the alarm once one epoch multiplies the loss by CLIMB_JUMP, the whole climb
# by CLIMB_STEEP, or once it lasts CLIMB_LONG epochs.
CLIMB_STEP, CLIMB_JUMP, CLIMB_STEEP, CLIMB_LONG = 1.1, 3.0, 4.0, 4
WATCH_RULE = (f"rises of x{CLIMB_STEP:g} or more in a row that reach x{CLIMB_JUMP:g} in one epoch, "
              f"x{CLIMB_STEEP:g} in all, or last {CLIMB_LONG} epochs")

# Per step, two moving averages of the log of the loss, either of which sets
# off the alarm:
# - a fast one (weight STEP_SMOOTHING on each new step) that reaches
#   STEP_FACTOR times the first loss: the run is back above where it started;
# - a slow one (weight STEP_SLOW) that has stood at STEP_RISE times its own
#   lowest or more, and at STEP_FLOOR times the first loss or more, for
#   STEP_HOLD steps in a row: a climb that lasts, where a recovering run's
#   bump falls back sooner, and not a bounce from a low far below the start.
# A loss of zero (a batch fitted exactly, in float32) is left out, so the first
# loss is the first one above zero; the averages then hold their values.
STEP_SMOOTHING, STEP_FACTOR = 0.3, 2.2
STEP_SLOW, STEP_RISE, STEP_FLOOR, STEP_HOLD = 0.03, 3.5, 0.5, 10


def step_rule_text(smoothing, factor, slow, rise, floor, hold) -> str:
    """The per-step rule in words, for these parameters."""
    return (f"the loss averaged over about {round(2 / smoothing - 1)} steps reaches x{factor:g} the first loss, "
            f"or, averaged over about {round(2 / slow - 1)} steps, stays at x{rise:g} its lowest or more and "
            f"x{floor:g} the first loss or more for {hold} steps in a row (moving averages of its log)")


STEP_RULE = step_rule_text(STEP_SMOOTHING, STEP_FACTOR, STEP_SLOW, STEP_RISE, STEP_FLOOR, STEP_HOLD)


def sustained_climb(values: list[float]) -> int | None:
    """Index of the first per-epoch value at which the alarm goes off (see WATCH_RULE)."""
    start = 0
    for i in range(1, len(values)):
        a, b = values[i - 1], values[i]
        if not (math.isfinite(a) and math.isfinite(b)):
            return None
        if not (a > 0 and b >= CLIMB_STEP * a):
            start = i
        elif b >= CLIMB_JUMP * a or b >= CLIMB_STEEP * values[start] or i - start >= CLIMB_LONG:
            return i
    return None


def step_alarm(values: list[float], smoothing: float = STEP_SMOOTHING, factor: float = STEP_FACTOR,
               slow_weight: float = STEP_SLOW, rise: float = STEP_RISE, floor: float = STEP_FLOOR,
               hold: int = STEP_HOLD) -> int | None:
    """Index of the first per-step value at which the alarm goes off (see STEP_RULE).

    The parameters default to the rule's; bench/watch_search.py passes others to check its grid against
    this definition."""
    first = fast = slow = None
    lowest, held = math.inf, 0
    for i, v in enumerate(values):
        if not math.isfinite(v):
            return None
        if v > 0:             # a batch fitted exactly says nothing about a climb
            x = math.log(v)
            if first is None:
                first = fast = slow = x
            fast += smoothing * (x - fast)
            slow += slow_weight * (x - slow)
            lowest = min(lowest, slow)
        if first is None:
            continue
        if fast >= first + math.log(factor):
            return i
        up = slow >= lowest + math.log(rise) and slow >= first + math.log(floor)
        held = held + 1 if up else 0
        if held >= hold:
            return i
    return None
