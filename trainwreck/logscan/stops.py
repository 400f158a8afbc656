"""The checks that stop a run when its loss is not finite, and print a line instead of the loss.

Most of these check the loss at every step but the loop prints it only every so many steps
(Detectron2's trainer, torchvision's detection reference and the scripts that copied its check,
TensorFlow's NanTensorHook); MMDetection's hook checks every `interval` iterations (50 by default),
Lightning's EarlyStopping once per epoch or validation run. When the loss turns nan or inf, the check
stops the run with a message, and the non-finite loss itself is often not in the loss lines: the
log's values end finite, and without the message it would read as healthy. So such a message is read
as one more loss value, the last, at its own line: non-finite (the kind it prints, or "inf or nan"
when it does not say), numbered by the step it names. It is read so only when no non-finite value
was read and the message's last appearance comes after the last value read (or only a line or two
after it, at the step it names or before: a logger's last flush on the way out, as Detectron2's
writer prints); otherwise it repeats what the values show. None of these checks names a cause, and
their words are not the reporter's: they are taken out of the text that is matched against the
entries (`without_stops`).

Each message is quoted from its source at a pinned version. A message quoted inside prose (after a
quote mark on its line) is not a check's: messages.py does not file it.
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass, replace

from .evidence import KEEP, Evidence, only
from .positions import Position, step_number


@dataclass(frozen=True)
class Stop:
    who: str                 # the code that prints it, as the report names it
    source: str              # where it is printed
    anchor: bytes            # a literal every instance holds (the message scan's prefilter)
    pattern: re.Pattern      # groups: "value" (the loss as printed), "step" (its number), "name" (the metric)
    origin: str              # the framework the log then shows
    kind: str = ""           # what the message says the loss was, when it prints no value
    step: str = ""           # how the log numbers the step the message names ("iteration {}")
    per_epoch: bool = False  # the step counts from 0 within its epoch (the start only in the first epoch)
    what: str = "a loss"     # what the check found not finite (fairseq's checks the gradients' norm)
    # the message is a declared message's evidence too: a loss scaler at its floor, which half precision's failure
    # prints (the curve before it, now ending at it, says whether a climb led there)
    evidence: bool = False

    def value(self, m: re.Match) -> tuple[float, str]:
        """The loss the message reports, and its kind as the report says it."""
        printed = (m.groupdict().get("value") or b"").lower()
        if b"nan" in printed:
            return math.nan, "nan"
        if b"inf" in printed:
            return (-math.inf, "-inf") if printed.startswith(b"-") else (math.inf, "inf")
        return math.nan, self.kind


def _stop(who: str, source: str, anchor: bytes, pattern: bytes, origin: str, kind: str = "", step: str = "",
          per_epoch: bool = False, what: str = "a loss", evidence: bool = False) -> Stop:
    return Stop(who, source, anchor, re.compile(pattern), origin, kind, step, per_epoch, what, evidence)


STOPS = (
    _stop("Detectron2's trainer", "https://github.com/facebookresearch/detectron2/blob/v0.6/detectron2/engine/"
          "train_loop.py#L337-L341", b"Loss became infinite or NaN at iteration",
          rb"Loss became infinite or NaN at iteration=(?P<step>\d+)!?", "pytorch", "inf or nan", "iteration {}"),
    _stop("torchvision's detection reference script (or DETR, DeiT, MAE and the many scripts that copied its check)",
          "https://github.com/pytorch/vision/blob/08eb80315bc838623d908c6e81bd119d98057bd7/references/detection/"
          "engine.py#L40-L43", b", stopping training",
          rb"Loss is (?P<value>-?(?:nan|inf)), stopping training", "pytorch"),
    _stop("MMDetection's CheckInvalidLossHook",
          "https://github.com/open-mmlab/mmdetection/blob/19bceba56284d440278e80cfde1d95460330ccbb/mmdet/engine/"
          "hooks/checkloss_hook.py#L40-L42", b"loss become infinite or NaN!", rb"loss become infinite or NaN!",
          "pytorch", "inf or nan"),
    # NanTensorHook tests np.isnan only: an inf loss passes it
    _stop("TensorFlow's NanTensorHook (or a loop that copied its words)",
          "https://github.com/tensorflow/tensorflow/blob/0f4829a13fc9669ac67c4fc69668f67a24e9692d/tensorflow/python/"
          "training/basic_session_run_hooks.py", b"Model diverged with loss = NaN",
          rb"Model diverged with loss = NaN\.?", "tensorflow", "nan"),
    # printed only with verbose=True; the metric it watches is named, and only a training loss is read as one
    # (most watch a validation metric); a 0-d tensor formats as its number
    _stop("Lightning's EarlyStopping", "https://github.com/Lightning-AI/pytorch-lightning/blob/2.6.5/src/lightning/"
          "pytorch/callbacks/early_stopping.py#L253-L254", b"is not finite. Previous best value was",
          rb"Monitored metric (?P<name>\S+) = (?P<value>\S+) is not finite\. Previous best value was "
          rb"\S+\. Signaling Trainer to stop\.", "pytorch"),
    # jax_debug_nans: printed for any nan a jitted function returns, before the function runs again op by op to
    # raise the FloatingPointError that names the primitive (which is the evidence; this line names no cause). The
    # same words are printed under jax_debug_infs for an inf (the check is one for both): "nan" only where the
    # FloatingPointError says so.
    _stop("JAX's debug_nans (or debug_infs) check",
          "https://github.com/jax-ml/jax/blob/jax-v0.10.2/jax/_src/api_util.py#L770",
          b"value encountered in the output of a jax.jit function",
          rb"Invalid nan value encountered in the output of a jax\.jit function\.(?: Calling the de-optimized "
          rb"version\.)?", "jax", "nan or inf"),
    # ... as JAX 0.4's C++ jit printed it, from its post-hook (`_nan_check_posthook`)
    _stop("JAX's debug_nans (or debug_infs) check (JAX 0.4's C++ jit)", "https://github.com/jax-ml/jax/blob/"
          "1efca331874c1ed0295532c7de33e380ba8fd59c/jax/_src/api.py", b"value encountered in the output of a C++-jit",
          rb"Invalid nan value encountered in the output of a C\+\+-jit/pmap function\.(?: Calling the de-optimized "
          rb"version\.)?", "jax", "nan or inf"),
    # Keras checks for nan and inf both; the batch it names counts from 0 within the epoch
    _stop("Keras's TerminateOnNaN", "https://github.com/keras-team/keras/blob/v3.15.1/keras/src/callbacks/"
          "terminate_on_nan.py#L67", b"Invalid loss, terminating training",
          rb"Batch (?P<step>\d+): Invalid loss, terminating training", "keras", "inf or nan", "batch {}", True),
    # ... and with raise_error=True, the RuntimeError it raises instead, with the loss
    _stop("Keras's TerminateOnNaN (raise_error=True)", "https://github.com/keras-team/keras/blob/v3.15.1/keras/src/"
          "callbacks/terminate_on_nan.py#L61-L64", b"Inf loss encountered at batch",
          rb"NaN or Inf loss encountered at batch (?P<step>\d+)\. Loss value: (?P<value>-?(?:nan|inf))\. "
          rb"Terminating training immediately\.", "keras", "inf or nan", "batch {}", True),
    # fairseq's trainer checks the gradients' norm after clipping and raises when it is not finite (under --amp it
    # retries the batch, twice by default, then skips it; under --fp16 the loss scaler's overflow is caught first;
    # both raise a FloatingPointError of their own once the scale is at its minimum): the run stops at that update,
    # whose loss the log has not printed
    _stop("fairseq's trainer", "https://github.com/facebookresearch/fairseq/blob/v0.12.3/fairseq/trainer.py#L940-L947",
          b"gradients are Nan/Inf", rb"gradients are Nan/Inf", "pytorch", "inf or nan", what="gradients"),
    # ... and the loss scaler's own, at its floor: an overflow (the gradients' norm inf or nan) when one more halving
    # would take the scale to its minimum or below -- the gradients overflowed float16 however far the scale had come
    # down, at the update the log has not printed (the number it prints is the configured minimum, not the scale)
    _stop("fairseq's loss scaler", "https://github.com/facebookresearch/fairseq/blob/v0.12.3/fairseq/optim/"
          "dynamic_loss_scaler.py#L57-L67", b"Minimum loss scale reached",
          rb"Minimum loss scale reached \([^)\n]{1,20}\)\. Your loss is probably exploding\. Try lowering the "
          rb"learning rate, using gradient clipping or increasing the batch size\.", "pytorch", "inf or nan",
          what="gradients", evidence=True),
    # DeepSpeed's, the same at its min_loss_scale (raised by the ZeRO optimizers; without ZeRO its fp16 optimizer holds
    # the scale there and goes on skipping steps)
    _stop("DeepSpeed's loss scaler", "https://github.com/deepspeedai/DeepSpeed/blob/v0.19.5/deepspeed/runtime/fp16/"
          "loss_scaler.py#L271", b"Current loss scale already at minimum",
          rb"Current loss scale already at minimum - cannot decrease scale anymore\. Exiting run\.", "deepspeed",
          "inf or nan", what="gradients", evidence=True),
)
# JAX's FloatingPointError: "invalid value (nan) encountered in log", "invalid value (inf) encountered in exp"
JAX_RAISED = re.compile(r"invalid value \((nan|inf)\) encountered in")
TRAINING_LOSS = re.compile(r"(?i)^(?:train(?:ing)?[_/ ]?)?loss(?:[_/ ]?(?:epoch|step))?$")
# Lines printed with a check's stop, saying no more than it: the exception TensorFlow raises after
# NanTensorHook's message, and the empty AssertionError MMDetection's hook raises.
COMPANIONS = re.compile(r"NaN loss during training\.|None")


def stop_of(text: str) -> tuple[Stop, re.Match] | None:
    """The stop check that printed this message, if one did."""
    raw = text.encode("utf-8", "replace")
    for stop in STOPS:
        if stop.anchor in raw and (m := stop.pattern.search(raw)):
            return stop, m
    return None


def names_no_cause(text: str) -> bool:
    """Is this message a stop's that is no evidence of its own (every stop's but a loss scaler's floor)?"""
    found = stop_of(text)
    return found is not None and not found[0].evidence


def without_stops(ev: Evidence) -> str:
    """The log's text without the checks' messages: their words are a framework's, not a description."""
    prose = ev.prose
    for _count, _line, text, _origin in ev.messages.values():
        if stop_of(text):
            prose = without_message(prose, text)
    return prose


# The exception a message was raised as is the framework's word too ("FloatingPointError: Loss became
# infinite or NaN at iteration=460!"): its "Float" is no float overflow.
_RAISED_AS = r"(?:\b[A-Z]\w*(?:Error|Exception|Warning): *)?"


def without_message(prose: str, text: str) -> str:
    """The text without one message, and the exception's name it was printed after."""
    return re.sub(_RAISED_AS + re.escape(text), " ", prose)


def with_stop(ev: Evidence) -> Evidence:
    """The evidence with the loss value a stop message reports appended (see the module's docstring),
    or as it was."""
    if ev.first_nonfinite is not None:
        return ev
    last_line = ev.last_at.line if ev.last_at is not None else 0
    for key, (_count, _first, text, _origin) in ev.messages.items():
        found = stop_of(text)
        line = ev.message_last.get(key, _first)
        if found is None:
            continue
        stop, m = found
        name = m.groupdict().get("name")
        if name is not None and not TRAINING_LOSS.match(name.decode("utf-8", "replace")):
            continue
        if line <= last_line:
            flushed = _flushed_after(ev, line, m.groupdict().get("step"))
            if flushed is None:
                continue
            ev = flushed
        value, kind = stop.value(m)
        if stop.origin == "jax":        # the FloatingPointError raised after it says which of the two it was
            raised = next((f.group(1) for _c, _l, example, _o in ev.messages.values()
                           if (f := JAX_RAISED.search(example))), None)
            value, kind = (math.inf, "inf") if raised == "inf" else (math.nan, "nan") if raised == "nan" else (value, kind)
        step = m.groupdict().get("step")
        # a batch counted within its epoch is in the epoch the log was in when it stopped
        epoch = (ev.epoch_out or (ev.last_at.epoch if ev.last_at is not None else None)) if stop.per_epoch else None
        pos = Position(line, epoch=epoch, step=stop.step.format(step.decode()) if step is not None else None)
        where = f"{pos}, " if pos.numbered else ""
        # a loop that prints every N steps: a climb within the unprinted ones is not seen
        unseen = ("; the steps between the last loss printed and this one were not printed, so a climb within "
                  "them would not show") if ev.count else ""
        were = "was" if stop.what == "a loss" else "were"
        out = _appended(ev, value, pos, kind, f"{stop.who} printed `{text}` ({where}line {line}) and stopped the "
                        f"run there, at {stop.what} that {were} {kind or 'not finite'}: it is read as the loss's value "
                        f"there{unseen}")
        out.hidden_start = not ev.count and _counted_from_zero_at_start(stop, step, epoch)
        return out
    return ev


FLUSHED = 2              # loss lines a logger may print after the stop, on its way out


def _flushed_after(ev: Evidence, line: int, step: bytes | None) -> Evidence | None:
    """The evidence without the few values printed after a stop at the step it names or before: a logger's last
    flush on the way out (Detectron2's writer prints its window's medians once more, at the iteration that
    stopped, after the traceback). None when the values after it go on past that step: the run went on."""
    if step is None or ev.count > KEEP:
        return None
    after = [p for p in ev.head_at if p.line > line]
    numbers = [step_number(p) for p in after]
    if not after or len(after) > FLUSHED or len(after) == ev.count or not all(
            n is not None and n <= int(step) for n in numbers):
        return None
    return only(ev, 0, ev.count - len(after))


def _counted_from_zero_at_start(stop: Stop, step: bytes | None, epoch: str | None) -> bool:
    """Does the step the check names say the run had made no update yet? Its steps count from 0, so only
    step 0 is the start; a batch counted within its epoch only in an epoch known to be the first."""
    if step is None or int(step) != 0:
        return False
    if not stop.per_epoch:
        return True
    first = re.match(r"epoch (\d+)", epoch or "")
    return first is not None and int(first.group(1)) <= 1


def _appended(ev: Evidence, value: float, pos: Position, kind: str, note: str) -> Evidence:
    n = ev.count
    out = replace(ev, count=n + 1, first_nonfinite=n, first_nonfinite_value=value, first_nonfinite_at=pos,
                  finite_after=0, last=value, last_at=pos, hidden_kind=kind, hidden_note=note)
    if n < KEEP:
        out.head, out.head_at = ev.head + [value], ev.head_at + [pos]
    if math.isnan(value):
        out.first_nan, out.first_nan_at = n, pos
    return out
