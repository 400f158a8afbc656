"""What a validation loss printed beside the training loss says of overfitting: its values, and whether it is still
falling or turned and rose. Said beside the normal verdicts about a train/validation gap and overfitting, where the
question is exactly that."""
from __future__ import annotations

import math
import re

from .class_count import at_uniform, classes_named
from .curve_shape import fmt
from .logscan.layout import csv_column, csv_values
from .logscan.numbers import NUMBER, to_float
from . import lazy_regex


def _validation_key(quantity: bytes) -> re.Pattern:
    """A validation quantity under its own key: Keras's `val_loss: 0.5534`, `'eval_loss': 0.61`, `val_loss=0.58`, a
    table's `val_loss 0.6914` (not `best_val_loss`, a running best, nor `val_loss_std`)."""
    return re.compile(rb"(?i)(?<![\w])(?:val(?:idation)?|valid|eval)[_ ]" + quantity + rb"['\"]?[ \t]*(?:[:=][ \t]*)?("
                      + NUMBER + rb")(?![\w.])")


VALIDATION_LOSS = _validation_key(rb"loss")
VALIDATION_COLUMNS = (b"val_loss", b"validation_loss", b"valid_loss", b"eval_loss")
# ... and its accuracy (Keras's `val_accuracy: 0.0991`, `val_acc=0.10`)
VALIDATION_ACCURACY = _validation_key(rb"acc(?:uracy)?")
VALIDATION_ACCURACY_COLUMNS = (b"val_accuracy", b"val_acc", b"valid_accuracy", b"eval_accuracy")
# A validation accuracy that stays within this share of 1/K at every value is a uniform guess over K classes, when the
# validation loss's lowest is ln K too (class_count.at_uniform): it never beat that guess (K from the accuracy alone is
# no count of classes: 1/0.107 rounds to 9 for a 10-class run at 10.7%)
CHANCE_SPREAD = 0.1
MIN_VALUES = 3
# a validation loss this far above its lowest, at its last value, has turned: rose, not a wobble at its floor
ROSE = 1.05
# ... and one that more than doubled from its first value, its lowest, learned nothing that carries to new rows
NOTHING_CARRIED = 2.0


def values(text: str, key: re.Pattern = VALIDATION_LOSS, columns: tuple[bytes, ...] = VALIDATION_COLUMNS) -> list[float]:
    """The validation losses the text prints, in order (finite ones only): under their key on each line, or in a CSV
    file's `val_loss` column (Keras's CSVLogger). (`key`, `columns`: another validation quantity's)"""
    data = text.encode("utf-8", "replace")
    column = csv_column(data, columns)
    printed = (csv_values(data, column, True) if column is not None else
               [m.group(1) for m in key.finditer(data)])
    out = []
    for number in printed:
        v = to_float(number)
        if v is not None and math.isfinite(v):
            out.append(v)
    return out


def trend(text: str, rose_only: bool = False, train_fell: bool = False, train_rose: bool = False) -> str:
    """A sentence on the validation loss's course, or "" where it prints fewer than MIN_VALUES (with rose_only, only
    where it rose from its lowest; train_fell: the training loss beside it fell; train_rose: it climbed back from its
    lowest, so a validation loss that rose beside it is no overfitting, and is not called that)."""
    seen = values(text)
    if len(seen) < MIN_VALUES:
        return ""
    n, low = len(seen), min(seen)
    if chance := _never_beat_chance(text, low, train_fell):
        return chance
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
    if at < n and seen[-1] > ROSE * low and not train_rose:
        return (f"the validation loss the log prints was lowest at value {at} of {n} ({fmt(low)}) and rose since, "
                f"to {fmt(seen[-1])}: that is overfitting; the weights of its lowest point are the ones to keep")
    return ""


def _never_beat_chance(text: str, low: float, train_fell: bool) -> str:
    """A sentence where the validation accuracy stayed at 1/K at every value (K classes, from its values) and the
    validation loss never fell below ln K, the loss of a uniform guess over them; else "". Nothing the model learned
    carried to the validation rows, from the start: no overfitting, which starts from a validation loss that fell."""
    accuracies = values(text, VALIDATION_ACCURACY, VALIDATION_ACCURACY_COLUMNS)
    if len(accuracies) < MIN_VALUES or not 0 < sum(accuracies) / len(accuracies) <= 0.5:
        return ""
    named = classes_named(text)
    classes = named[0] if named else round(len(accuracies) / sum(accuracies))
    if not at_uniform(low, classes) or any(abs(a * classes - 1) > CHANCE_SPREAD for a in accuracies):
        return ""
    span = (f"at {fmt(low_acc)}" if (low_acc := min(accuracies)) == max(accuracies) else
            f"from {fmt(low_acc)} to {fmt(max(accuracies))}")
    return (f"the validation loss the log prints never fell below {fmt(low)} (ln {classes} = {math.log(classes):.4g}, "
            f"the loss of a uniform guess over {classes} classes), and its validation accuracy stayed near 1/{classes}, "
            f"{span}: nothing the model learned carried over to rows it "
            "did not train on, from the first epoch -- not overfitting, which starts from a validation loss that fell "
            "first" + (". The training loss that falls beside it is learned by heart: check that each input still goes "
                       "with its own label (inputs and labels shuffled or sorted apart), and that the validation rows are "
                       "prepared as the training ones are" if train_fell else ""))


# A mean cross-entropy bounds the accuracy beside it from below: an example the model gets wrong has some other class
# at least as likely as the true one, so the true class holds at most half the probability and costs at least ln 2; a
# mean loss L against the labels the accuracy counts then leaves at most L / ln 2 of the examples wrong. (It holds under
# uniform label smoothing too, but not against other soft targets -- mixup's, a teacher's -- whose loss can sit below
# ln 2 on an example counted wrong: not read where the paste names them.) Read where the paste shows a cross-entropy,
# on lines that print a validation loss and a validation accuracy side by side.
# The bound needs one label per example, each example's loss counted once, and a top-1 accuracy over the same
# examples: not a multi-label or per-token loss beside an exact-match accuracy, a class-weighted or focal loss.
CROSS_ENTROPY_SHOWN = lazy_regex.compile(r"(?i)(?<!binary_)(?<!binary )cross[_ ]?entropy|\bnll_?loss|\blog_softmax|\bce[_ ]loss\b")
SOFT_TARGETS = lazy_regex.compile(r"(?i)mixup|cutmix|soft[ _-]?(?:targets?|labels?)|distill\w*|\bkd\b|teacher|multi-?label|"
                                  r"\bbce|binary|sigmoid|focal|\bweight\s*=|class_weight|pos_weight|per[ -]token|exact[ _-]?match|"
                                  r"\btokens?\b")
BOUND_SLACK = 1.05          # (printed values are rounded)


def accuracy_impossible(text: str) -> str:
    """A sentence where a validation accuracy printed beside a validation cross-entropy is below what that loss allows
    (the line where it falls furthest below); else ""."""
    if not CROSS_ENTROPY_SHOWN.search(text) or SOFT_TARGETS.search(text):
        return ""
    worst = None
    for line in text.encode("utf-8", "replace").split(b"\n")[:2000]:
        loss, accuracy = VALIDATION_LOSS.search(line), VALIDATION_ACCURACY.search(line)
        if loss is None or accuracy is None:
            continue
        value, shown = to_float(loss.group(1)), to_float(accuracy.group(1))
        if value is None or shown is None or not (math.isfinite(value) and math.isfinite(shown)) or value < 0 \
                or not 0 <= shown <= 100:
            continue
        share = shown / 100 if shown > 1 else shown
        least = 1 - BOUND_SLACK * value / math.log(2)
        if share < least and (worst is None or least - share > worst[0]):
            worst = (least - share, value, shown, max(0.0, 1 - value / math.log(2)), line)
    if worst is None:
        return ""
    _gap, value, shown, least, line = worst
    quoted = " ".join(line.decode("utf-8", "replace").split())
    return (f"the accuracy printed beside the validation loss cannot be: a mean cross-entropy of {fmt(value)} leaves at "
            f"least {least:.0%} of the examples right (each one the model gets wrong costs at least ln 2 = 0.6931, its "
            f"true class holding at most half the probability), and the log prints {fmt(shown)} beside it (`{quoted}`): "
            "the accuracy is computed wrong, not learned wrong -- check that its count of right answers and its count "
            "of examples count the same things (a batch's mean accuracy summed, then divided by the number of examples, "
            "is the batch size times too small)")
