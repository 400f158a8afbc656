"""The highest loss some frameworks can print, because they clamp the probability inside the log.

A loss that sits at such a ceiling is not a flat, healthy run: every example's loss hit the clamp
(or, when the log prints an accuracy, every example the model gets wrong did, the others costing
almost nothing). A clamped loss can never go above its ceiling, so a log that does is not one.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from .logscan.evidence import Evidence
from . import lazy_regex
from .lazy_regex import PatternLike

DIGITS = 5e-5          # relative: a value printed to six significant digits or fewer
FRACTION_DIGITS = 2e-3  # relative, for (share wrong) x ceiling: the accuracy is printed to 3-4 digits
# A share of the ceiling is read as saturation only where most examples are wrong and the loss sits
# there (its last three values): a converging model can pass through such a level by chance.
MOSTLY_WRONG = 0.5


@dataclass(frozen=True)
class Ceiling:
    value: float
    tool: str
    why: str                        # the clamp, with its source
    meaning: str                    # what sitting there says about the run
    framework: str | None = None    # shown only when the log shows this framework (ORIGINS key) ...
    named: PatternLike | None = None  # ... or names the loss (with no framework: only where it names it)


CEILINGS = (
    Ceiling(87.3365, "Caffe's SoftmaxWithLoss",
            "it takes -log(max(p, FLT_MIN)), and -ln(1.175e-38) = 87.3365; on the GPU CUDA's max returns FLT_MIN "
            "for a nan p (https://github.com/BVLC/caffe/blob/004fa69e401f208c7f63483911384d1dfa15e81a/src/caffe/"
            "layers/softmax_loss_layer.cu#L25-L26), where the CPU path prints nan "
            "(https://github.com/BVLC/caffe/blob/004fa69e401f208c7f63483911384d1dfa15e81a/src/caffe/layers/"
            "softmax_loss_layer.cpp#L71-L72)",
            "most often the network's outputs are nan -- the run diverged and the clamp hides it -- or its "
            "probability for the true class is below float32's smallest normal number"),
    Ceiling(16.1181, "Keras's cross-entropies on probabilities",
            "they clip p to [1e-7, 1 - 1e-7] before the log, and -ln(1e-7) = 16.1181: always on the JAX and "
            "PyTorch backends, on TensorFlow when the probabilities reach the loss without their layer's logits "
            "(https://github.com/keras-team/keras/blob/v3.15.1/keras/src/backend/tensorflow/nn.py#L1375-L1377; "
            "Keras 2 on TensorFlow 1 clipped the same way)",
            "the model gives the true class a probability at the clip: its outputs are pushed to the extremes, "
            "confidently wrong"),
    Ceiling(15.9424, "Keras's binary cross-entropy on probabilities",
            "it clips p to [1e-7, 1 - 1e-7] before the log, and in float32 1 - 1e-7 is 1 - 1.19e-7, so a "
            "confident 1 for a target of 0 costs -ln(1.19e-7) = 15.9424 "
            "(https://github.com/keras-team/keras/blob/v3.15.1/keras/src/backend/tensorflow/nn.py#L1484-L1488)",
            "the model gives the true class a probability at the clip: its outputs are pushed to the extremes, "
            "confidently wrong"),
    Ceiling(15.4249, "tf.keras 2's binary cross-entropy on probabilities",
            "after the clip it adds 1e-7 inside the log, so a confident 0 for a target of 1 costs -ln(2e-7) = "
            "15.4249 (https://github.com/tensorflow/tensorflow/blob/v2.21.0/tensorflow/python/keras/backend.py"
            "#L4920-L4925)",
            "the model gives the true class a probability at the clip: its outputs are pushed to the extremes, "
            "confidently wrong"),
    Ceiling(100.0, "PyTorch's BCELoss",
            "it clamps each log at -100 (https://github.com/pytorch/pytorch/blob/v2.13.0/torch/nn/modules/"
            "loss.py#L668)",
            "the model gives the true class a probability of exactly 0 in float32: its outputs are pushed to the "
            "extremes, confidently wrong",
            framework="pytorch", named=lazy_regex.compile(r"\bBCE ?Loss\b|binary_cross_entropy\b|BinaryCrossEntropyBackward", re.I)),
    Ceiling(80.0, "Asteroid's negative SI-SDR",
            "it returns -10 log10(SDR + 1e-8), and the SDR is 0 for an estimate that is silent or constant (the "
            "zero-mean step turns a constant into silence): the projection on the target and the residual are both 0, "
            "so the ratio is 0 and the loss -10 log10(1e-8) = 80; its gradient there is 0 too, the ratio growing only as the "
            "square of the estimate "
            "(https://github.com/asteroid-team/asteroid/blob/0850a80c65396b439a613e72b471175c9e08b2d4/asteroid/losses/"
            "sdr.py, PairwiseNegSDR and its EPS of 1e-8)",
            "the model outputs silence (or a constant): a mask whose units all output 0 -- a ReLU mask pushed below "
            "zero for every input -- or outputs that went to 0",
            named=lazy_regex.compile(r"\basteroid\b|PairwiseNegSDR|\b(?:pairwise|nosrc|singlesrc|nonpit)_neg_s[di]sdr\b", re.I)),
)


# ... and a loss that reached the ceiling CEILING_HITS times or more, never above it, even where it came back down in
# between: each of those values is a batch whose every example hit the clamp -- an inf, printed as the clamp -- which
# no healthy run prints even once (a GAN's discriminator swinging between 0 and BCELoss's 100: its outputs pushed to
# the extremes, first one way, then the other)
CEILING_HITS = 2


def ceiling_fact(ev: Evidence) -> str:
    """The fact, when the loss sits at a ceiling at the end of the run (its last two values, never above it), or reached
    it CEILING_HITS times, or ""."""
    tail = [v for v in ev.before if v == v and abs(v) != float("inf")]
    if len(tail) < 2 or ev.last is None or ev.high is None:
        return ""
    wrong = _share_wrong(ev)
    for c in CEILINGS:
        if ev.high > c.value * (1 + DIGITS):
            continue                                    # a clamped loss never goes above its ceiling
        # (shown only where the log shows its framework or names the loss; with no framework, only where named)
        if c.named is not None and not c.named.search(ev.prose) and (c.framework is None
                                                                    or c.framework not in ev.frameworks):
            continue
        if all(_near(v, c.value, DIGITS) for v in tail[-2:]):
            return (f"the loss sits at {c.value:g}, the most {c.tool} can print: {c.why}; {c.meaning}")
        hits = sum(_near(v, c.value, DIGITS) for v in tail)
        if hits >= CEILING_HITS:
            return (f"the loss reached {c.value:g}, the most {c.tool} can print, at {hits} of its {len(tail)} values: "
                    f"{c.why}; each time, on every example the value averages, {c.meaning}")
        if wrong is not None and MOSTLY_WRONG <= wrong < 1:
            level = wrong * c.value
            if _near(ev.last, level, FRACTION_DIGITS) and sum(_near(v, level, FRACTION_DIGITS) for v in tail[-3:]) == 3:
                return (f"the loss sits at {ev.last:.6g} = {wrong:.4g} x {c.value:g} with {wrong:.1%} of the examples "
                        f"wrong: every prediction is saturated at the clip, a wrong one costing the most {c.tool} "
                        f"can print and a right one almost nothing; with most examples wrong, most often one "
                        f"class for everything ({c.why})")
    return ""


def _share_wrong(ev: Evidence) -> float | None:
    """1 - the last training accuracy printed beside the loss, as a fraction (or None)."""
    if not ev.accuracy_tail:
        return None
    last = ev.accuracy_tail[-1]
    return 1 - (last / 100 if ev.accuracy_percent or last > 1 else last)


def _near(v: float, target: float, rel: float) -> bool:
    return abs(v - target) <= rel * target
