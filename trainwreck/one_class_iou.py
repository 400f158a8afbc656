"""A mean IoU over two classes that sits at 0.5: labels that, as loaded, hold one class.

Mean IoU averages each class's intersection over union. A model that calls every pixel background, scored
against labels with a foreground share f, has a background IoU of 1 - f and a foreground IoU of 0: the mean is
(1 - f)/2, and exactly 0.5 only where f is 0 -- the foreground class in neither mask, which the common
intersection / (union + eps) scores 0. To print as 0.50, f is under 1%. So a two-class mean IoU that stays at 0.5
says every pixel is called one class and the labels the loader gives hold (almost) none of the other: a 0/1 mask
scaled like the images (divided by 255, WR-320's fourth face), or a foreground that rare. The report says so in
words ("the iou always equals 0.5", "mIoU stuck at 0.50"), or prints it at every epoch (Keras names its MeanIoU
metric `mean_io_u`). Not an IoU threshold ("AP at IoU=0.50", "iou_thres 0.5"): a setting, not a score.
"""
from __future__ import annotations

import re

# (a word of its own or an identifier's part: `val_mean_io_u`, `miou`, `IoU_score`)
IOU_NAME = (r"(?:m(?:ean)?[ _-]?io[ _-]?u|io[ _-]?u(?:[ _-]?score)?|jaccard(?:[ _-](?:index|score|coef\w*))?|"
            r"intersection[ -]over[ -]union)")
HALF = r"(?<![\d.])(?:0?\.50*|50(?:\.0+)? ?%)(?![\d.]*\d)"
# A threshold or a detector's average precision names an IoU of 0.5 that is a setting
SETTING = re.compile(r"(?i)thres|\bap\d*\b|\bmap\d*\b|@|nms|\bmatch\w*|\banchors?\b|positive|overlap thr")
# "the iou always equals to 0.5", "mIoU stuck at 0.50", "IoU stays at 50%" -- and "IoU is 0.5 at every epoch"
SAID = re.compile(rf"(?i)(?<![a-z])(?:{IOU_NAME})(?![a-z])[^.;!?\n]{{0,40}}?\b(?:always|stuck|stays?|stayed|remains?|"
                  rf"remained|constant(?:ly)?|never\s+(?:changes?|moves?)|fixed|frozen)\b[^.;!?\n\d]{{0,25}}?{HALF}|"
                  rf"(?<![a-z])(?:{IOU_NAME})(?![a-z])[^.;!?\n\d]{{0,20}}?{HALF}[^.;!?\n]{{0,30}}?"
                  rf"\b(?:every|each|all\s+the\s+time|throughout|whatever|no\s+matter)\b")
# `val_mean_io_u: 0.5000`, `miou=0.500`: the value a log prints beside the metric's name
PRINTED = re.compile(rf"(?i)(?<![a-z])(?:val_?|train_?)?(?:{IOU_NAME})\w*\s*[:=]\s*((?:0?\.\d+|[01](?:\.\d+)?))(?![\d.])")
PRINTED_MIN = 3           # printed this many times, every one at 0.5: not one epoch's value
NEAR = 0.005              # printed to two places or more, 0.50


def one_class_iou(text: str) -> str:
    """The fact, as the evidence says it, when the report's mean IoU sits at 0.5; else ""."""
    for m in SAID.finditer(text):
        if not SETTING.search(m.group(0)):
            return _fact(f"\"{' '.join(m.group(0).split())}\"")
    values = [float(m.group(1)) for line in text.splitlines() if not SETTING.search(line)
              for m in PRINTED.finditer(line)]
    if len(values) >= PRINTED_MIN and all(abs(v - 0.5) < NEAR for v in values):
        return _fact(f"printed {len(values)} times, each 0.5")
    return ""


def _fact(said: str) -> str:
    return (f"the report's mean IoU sits at 0.5 ({said}): over two classes that is one class scored 1 and the other 0 "
            "-- every pixel called one class, against labels that, as loaded, hold (almost) none of the other; "
            "a model that calls every pixel background scores (1 - f)/2 against a foreground share f, so exactly "
            "0.5 only where the labels lost their foreground")
