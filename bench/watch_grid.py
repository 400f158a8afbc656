"""The per-step watch rule (trainwreck/watch_rule.py, `step_alarm`) for many runs and many parameters at once.

`step_alarm` reads one loss at a time in pure Python; a grid search would call it hundreds of thousands of
times per run. Here the same rule is worked out on a (steps x runs) matrix with NumPy, one moving average
per weight and one comparison per threshold, and gives the same index `step_alarm` gives, bit for bit:
the logs are taken by math.log and the averages updated in the same order of operations, so every
comparison sees the same floats. bench/watch_search.py checks that on every run it searches, and
tests/test_watch_search.py on traces made to hit the rule's corners.

An alarm index of `Traces.steps` (the length of the traces) means the rule never fired.
"""
from __future__ import annotations

import math

import numpy as np


class Traces:
    """Losses (runs x steps) laid out time-major, with what every average needs from them."""

    def __init__(self, losses):
        values = np.asarray(losses, dtype=np.float64).T          # float32 losses are read as Python floats are
        self.steps, self.runs = values.shape
        self.time = np.arange(self.steps)[:, None]
        bad = ~np.isfinite(values)
        # step_alarm returns at the first non-finite value: nothing at or after it counts
        self.stop = np.where(bad.any(0), bad.argmax(0), self.steps)
        self.live = self.time < self.stop
        # a loss of 0 is left out and the averages hold; the first loss is the first one above 0
        self.positive = self.live & (values > 0)
        self.logs = np.zeros_like(values)
        self.logs[self.positive] = [math.log(v) for v in values[self.positive]]
        self.start = first_true(self.positive)
        self.first = self.logs[np.minimum(self.start, self.steps - 1), np.arange(self.runs)]
        self.started = self.live & (self.time >= self.start)

    def average(self, weight: float) -> np.ndarray:
        """The moving average of the log-loss after each step; before the first loss, the first loss."""
        out = np.empty_like(self.logs)
        avg = self.first.copy()
        for t in range(self.steps):
            # step_alarm's update: avg += weight * (x - avg)
            avg = np.where(self.positive[t], avg + weight * (self.logs[t] - avg), avg)
            out[t] = avg
        return out


def first_true(mask: np.ndarray) -> np.ndarray:
    """Per column, the first row where mask holds; the number of rows where it never does."""
    return np.where(mask.any(0), mask.argmax(0), len(mask))


def fast_alarms(traces: Traces, weight: float, factors) -> np.ndarray:
    """(factors x runs): where the average of weight `weight` first reaches each factor times the first loss."""
    avg = np.where(traces.started, traces.average(weight), -np.inf)
    top = np.maximum.accumulate(avg, axis=0)          # reaching a level first = the running top reaching it
    return np.stack([first_true(top >= traces.first + math.log(f)) for f in factors])


def slow_alarms(traces: Traces, weight: float, rises, floors, holds) -> np.ndarray:
    """(rises x floors x holds x runs): where the average of weight `weight` has first stood at `rise` times
    its lowest or more, and at `floor` times the first loss or more, for `hold` steps in a row."""
    avg = traces.average(weight)
    lowest = np.minimum.accumulate(avg, axis=0)      # before the first loss the average is the first loss
    out = np.empty((len(rises), len(floors), len(holds), traces.runs), np.int64)
    for i, rise in enumerate(rises):
        risen = traces.started & (avg >= lowest + math.log(rise))
        for j, floor in enumerate(floors):
            up = risen & (avg >= traces.first + math.log(floor))
            # steps in a row it has been up: the distance to the last step it was not
            last_down = np.maximum.accumulate(np.where(up, -1, traces.time), axis=0)
            held = traces.time - last_down
            for k, hold in enumerate(holds):
                out[i, j, k] = first_true(held >= hold)
    return out


def alarm(traces: Traces, smoothing, factor, slow_weight, rise, floor, hold) -> np.ndarray:
    """(runs,): step_alarm's index for one setting, `traces.steps` where it is None."""
    # both are computed only on the steps before a run's first non-finite value (Traces.started), so
    # neither fires at or after it, where step_alarm has stopped
    return np.minimum(fast_alarms(traces, smoothing, [factor])[0],
                      slow_alarms(traces, slow_weight, [rise], [floor], [hold])[0, 0, 0])
