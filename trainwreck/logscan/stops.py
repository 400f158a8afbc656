"""The checks that stop a run when its loss is not finite, and print a line instead of the loss.

Trainers check the loss at every step but print it only every so many steps. When it turns
nan or inf, the check stops the run with a message, and the non-finite loss itself is never in
the loss lines: the log's values end finite, and without the message it would read as healthy.
So such a message is read as one more loss value, the last, at its own line: non-finite (the
kind it prints, or "inf or nan" when it does not say), numbered by the step it names. It is
read so only when no non-finite value was read and the message comes after the last value
read; otherwise it repeats what the values show. None of these checks names a cause.

Each message is quoted from its source at a pinned version.
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass, replace

from .evidence import KEEP, Evidence
from .positions import Position


@dataclass(frozen=True)
class Stop:
    who: str                 # the code that prints it, as the report names it
    source: str              # where it is printed
    anchor: bytes            # a literal every instance holds (the message scan's prefilter)
    pattern: re.Pattern      # groups: "value" (the loss as printed), "step" (its number), "name" (the metric)
    origin: str              # the framework the log then shows
    kind: str = ""           # what the message says the loss was, when it prints no value
    step: str = ""           # how the log numbers the step the message names ("iteration {}")

    def value(self, m: re.Match) -> tuple[float, str]:
        """The loss the message reports, and its kind as the report says it."""
        printed = (m.groupdict().get("value") or b"").lower()
        if b"nan" in printed:
            return math.nan, "nan"
        if b"inf" in printed:
            return math.inf, "inf"
        return math.nan, self.kind


def _stop(who: str, source: str, anchor: bytes, pattern: bytes, origin: str, kind: str = "", step: str = "") -> Stop:
    return Stop(who, source, anchor, re.compile(pattern), origin, kind, step)


STOPS = (
    _stop("Detectron2's trainer", "https://github.com/facebookresearch/detectron2/blob/v0.6/detectron2/engine/"
          "train_loop.py#L337-L341", b"Loss became infinite or NaN at iteration",
          rb"Loss became infinite or NaN at iteration=(?P<step>\d+)!?", "pytorch", "inf or nan", "iteration {}"),
    # torchvision's reference scripts; DETR, DeiT, MAE and many more copied the check with its words
    _stop("torchvision's reference training scripts",
          "https://github.com/pytorch/vision/blob/08eb80315bc838623d908c6e81bd119d98057bd7/references/detection/"
          "engine.py#L40-L43", b", stopping training",
          rb"Loss is (?P<value>-?(?:nan|inf)), stopping training", "pytorch"),
    _stop("MMDetection's CheckInvalidLossHook",
          "https://github.com/open-mmlab/mmdetection/blob/19bceba56284d440278e80cfde1d95460330ccbb/mmdet/engine/"
          "hooks/checkloss_hook.py#L40-L42", b"loss become infinite or NaN!", rb"loss become infinite or NaN!",
          "pytorch", "inf or nan"),
    # NanTensorHook tests np.isnan only: an inf loss passes it
    _stop("TensorFlow's NanTensorHook",
          "https://github.com/tensorflow/tensorflow/blob/0f4829a13fc9669ac67c4fc69668f67a24e9692d/tensorflow/python/"
          "training/basic_session_run_hooks.py", b"Model diverged with loss = NaN",
          rb"Model diverged with loss = NaN\.?", "tensorflow", "nan"),
    # the metric it watches is named; only a training loss is read as one (most watch a validation metric)
    _stop("Lightning's EarlyStopping", "https://github.com/Lightning-AI/pytorch-lightning/blob/2.6.5/src/lightning/"
          "pytorch/callbacks/early_stopping.py#L253-L254", b"is not finite. Previous best value was",
          rb"Monitored metric (?P<name>\S+) = (?P<value>\S+(?:\s*\S+)?) is not finite\. Previous best value was "
          rb"\S+\. Signaling Trainer to stop\.", "pytorch"),
    # Keras checks for nan and inf both; the batch it names counts from 0 within the epoch
    _stop("Keras's TerminateOnNaN", "https://github.com/keras-team/keras/blob/v3.15.1/keras/src/callbacks/"
          "terminate_on_nan.py#L67", b"Invalid loss, terminating training",
          rb"Batch (?P<step>\d+): Invalid loss, terminating training", "keras", "inf or nan", "batch {}"),
)
TRAINING_LOSS = re.compile(r"(?i)^(?:train(?:ing)?[_/ ]?)?loss(?:[_/ ]?(?:epoch|step))?$")


def stop_of(text: str) -> tuple[Stop, re.Match] | None:
    """The stop check that printed this message, if one did."""
    raw = text.encode("utf-8", "replace")
    for stop in STOPS:
        if stop.anchor in raw and (m := stop.pattern.search(raw)):
            return stop, m
    return None


def with_stop(ev: Evidence) -> Evidence:
    """The evidence with the loss value a stop message reports appended (see the module's docstring),
    or as it was."""
    if ev.first_nonfinite is not None:
        return ev
    last_line = ev.last_at.line if ev.last_at is not None else 0
    for _count, line, text, _origin in ev.messages.values():
        found = stop_of(text)
        if found is None or line <= last_line:
            continue
        stop, m = found
        name = m.groupdict().get("name")
        if name is not None and not TRAINING_LOSS.match(name.decode("utf-8", "replace")):
            continue
        value, kind = stop.value(m)
        step = m.groupdict().get("step")
        # a batch counted within its epoch is in the epoch the log was in when it stopped
        epoch = (ev.epoch_out or (ev.last_at.epoch if ev.last_at is not None else None)) if step is not None else None
        pos = Position(line, epoch=epoch, step=stop.step.format(step.decode()) if step is not None else None)
        where = f"{pos}, " if pos.numbered else ""
        # a trainer that prints every N steps checks every step: a climb within the unprinted ones is not seen
        unseen = ("; the steps between the last loss printed and this one were not printed, so a climb within "
                  "them would not show") if ev.count else ""
        return _appended(ev, value, pos, kind, f"{stop.who} printed `{text}` ({where}line {line}) and stopped the "
                         f"run there, at a loss that was {kind or 'not finite'}: it is read as the loss's last "
                         f"value{unseen}")
    return ev


def _appended(ev: Evidence, value: float, pos: Position, kind: str, note: str) -> Evidence:
    n = ev.count
    out = replace(ev, count=n + 1, first_nonfinite=n, first_nonfinite_value=value, first_nonfinite_at=pos,
                  finite_after=0, last=value, last_at=pos, hidden_kind=kind, hidden_note=note)
    if n < KEEP:
        out.head, out.head_at = ev.head + [value], ev.head_at + [pos]
    if math.isnan(value):
        out.first_nan, out.first_nan_at = n, pos
    return out
