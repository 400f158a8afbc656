"""A mean IoU over two classes that sits at 0.5: labels that, as loaded, hold one class.

Mean IoU averages each class's intersection over union. A model that calls every pixel background, scored against
labels with a foreground share f, has a background IoU of 1 - f and a foreground IoU of 0: the mean is (1 - f)/2,
and exactly 0.5 only where f is 0 and the metric scores a class in neither mask 0 (a per-class intersection /
(union + eps) written by hand, torchmetrics before 1.0; Keras's MeanIoU and torchmetrics from 1.0 leave that class
out and report 1.0 -- factcheck_s42 item 4). To print as 0.50, f is under 1%. So a two-class mean IoU said to stay
at 0.5 says every pixel is called one class and the labels the loader gives hold (almost) none of the other: a 0/1
mask scaled like the images (divided by 255, WR-320's fourth face), or a foreground that rare. Read from the words
("the iou always equals 0.5", "mIoU stuck at 0.50", "mIoU bleibt exakt bei 0.5000") or printed at 0.5 at every epoch, but
not from a printed Keras `mean_io_u`: stuck near 0.5 there, it is more often the metric given probabilities, which
MeanIoU casts to class 0. Not an IoU threshold ("AP at
IoU=0.50", "iou_thres 0.5"): a setting, not a score.
"""
from __future__ import annotations

import re

from .class_count import classes_named
from .sentences import sentences_and_ends
from . import lazy_regex

# (a word of its own or an identifier's part: `val_mean_io_u`, `miou`, `IoU_score`)
IOU_NAME = (r"(?:m(?:ean)?[ _-]?io[ _-]?u|io[ _-]?u(?:[ _-]?score)?|jaccard(?:[ _-](?:index|score|coef\w*))?|"
            r"intersection[ -]over[ -]union)")
ANY_IOU = lazy_regex.compile(rf"(?i){IOU_NAME}")
HALF = r"(?<![\d.])(?:0?\.50*|50(?:\.0+)? ?%)(?![\d.]*\d)"
# A threshold or a detector's average precision names an IoU of 0.5 that is a setting
# (anywhere in the sentence or line: "For NMS I use an IoU that stays at 0.5", "my matcher: IoU always 0.5")
SETTING = lazy_regex.compile(r"(?i)thres|\bap\d*\b|\bmap\d*\b|@|nms|\bmatch\w*|\banchors?\b|positive|overlap thr|cutoff|"
                             r"criterion|\bassign\w*|\bbox(?:es)?\b")
# Not a bound ("stays above 0.5"), nor a value it left ("stuck at 0.5 for two epochs, then 0.81")
NOT_AT = lazy_regex.compile(r"(?i)\b(?:above|below|over|under|more than|less than|at least|at most)\b|[<>]")
LEFT_IT = lazy_regex.compile(r"(?i)\b(?:then|until|before|after that|later)\b[^.;!?\n]{0,30}?(?<![\d.])0?\.\d")
# "the iou always equals to 0.5", "mIoU stuck at 0.50", "IoU stays at 50%" -- and "IoU is 0.5 at every epoch"
SAID = lazy_regex.compile(rf"(?i)(?<![a-z])(?:{IOU_NAME})(?![a-z])[^.;!?\n]{{0,40}}?\b(?:always|stuck|stays?|stayed|remains?|"
                          rf"remained|constant(?:ly)?|never\s+(?:changes?|moves?)|fixed|frozen|bleibt|immer|reste|toujours|resta|sempre|"
                          rf"fica|sigue|siempre|остаётся|остается|всегда)\b[^.;!?\n\d]{{0,25}}?{HALF}|"
                          rf"(?<![a-z])(?:{IOU_NAME})(?![a-z])[^.;!?\n\d]{{0,20}}?{HALF}[^.;!?\n]{{0,30}}?"
                          rf"\b(?:every|each|all\s+the\s+time|throughout|whatever|no\s+matter)\b")


# `val_mIoU 0.5000`, `miou=0.500` printed at every epoch by a metric of the paste's own -- not Keras's `mean_io_u`,
# which reports 1.0 for such labels and near 0.5 more often means MeanIoU was given probabilities
# (with a colon or spaces: `iou=0.5` is a setting, as a YOLO command passes it; not an `iou_loss`)
PRINTED = lazy_regex.compile(rf"(?i)(?<![a-z])(?:val_?|train_?)?(?:{IOU_NAME})(?!\w{{0,20}}loss)\w{{0,20}}[ \t]*(?::[ \t]*)?"
                             r"((?:0?\.\d+|[01](?:\.\d+)?))(?![\d.])")
KERAS = lazy_regex.compile(r"(?i)mean_io_u")
PRINTED_MIN = 3           # printed this many times, every one at 0.5: not one epoch's value
NEAR = 0.005              # printed to two places or more, 0.50


def one_class_iou(text: str) -> str:
    """The fact, as the evidence says it, when the report's mean IoU sits at 0.5; else "". Not in a question, nor in a
    report that names more than two classes (over K classes the same labels give 1/K)."""
    if not ANY_IOU.search(text):
        return ""
    named = classes_named(text)
    if named and named[0] > 2:
        return ""
    for sentence, end in sentences_and_ends(text):
        m = SAID.search(sentence) if end != "?" else None
        if m and not SETTING.search(sentence) and not NOT_AT.search(m.group(0)) \
                and not LEFT_IT.search(sentence[m.end():]):
            return (f"the report's mean IoU sits at 0.5 (\"{' '.join(m.group(0).split())}\"): over two classes that is "
                    "one class scored 1 and the other 0 -- every pixel called one class, against labels that, as "
                    "loaded, hold (almost) none of the other; a model that calls every pixel background scores "
                    "(1 - f)/2 against a foreground share f, so 0.5 where the labels lost their foreground (under a "
                    "metric that scores a class in neither mask 0; Keras's MeanIoU reports 1.0 for it)")
    values = [float(m.group(1)) for line in text.splitlines() if not SETTING.search(line) and not KERAS.search(line)
              for m in PRINTED.finditer(line)]
    if len(values) >= PRINTED_MIN and all(abs(v - 0.5) < NEAR for v in values):
        return (f"the report's mean IoU is printed {len(values)} times, each 0.5: over two classes that is one class "
                "scored 1 and the other 0 -- every pixel called one class, against labels that, as loaded, hold "
                "(almost) none of the other (a model that calls every pixel background scores (1 - f)/2 against a "
                "foreground share f, and 0.5 where a metric that scores a class in neither mask 0 meets labels that "
                "lost their foreground)")
    return ""
