"""Gradient norms printed or said: layer by layer, orders of magnitude smaller at the first layer than at the last
(the first layers get next to no gradient); exactly zero; or all below the clipping threshold the paste sets (the
clip never shortened an update).
"""
from __future__ import annotations

import itertools
import math
import re

from .curve_shape import fmt
from .logscan import Evidence
from .sentences import sentence_around
from . import lazy_regex

# Gradient norms printed layer by layer (`layer 0  3.1e-10` ... `layer 11  1.2e-02`, under words that say they are
# gradients), DEPTH_DECADES orders of magnitude smaller at the first layer than at the last: the backward pass shrinks
# through every layer it crosses (a sigmoid's slope is at most 1/4), and the first layers get next to no gradient. A
# printed fact for the entries whose phrases say the first layers get no gradient.
FIRST_LAYERS_WORDS = {"layer", "gradient", "deep"}
LAYER_ROW = lazy_regex.compile(r"(?im)^[ \t]*(?:layer|block|layers?\.|blocks?\.)[ \t]*\[?(\d{1,3})\]?[^\n\d]{0,40}?"
                               r"(\d+(?:\.\d+)?(?:e[-+]?\d+)?)[ \t]*\r?$")
GRADIENT_SAID = lazy_regex.compile(r"(?i)\bgrad(?:ient)?s?\b|\.grad\b")
DEPTH_DECADES, LAYER_ROWS = 4, 3
# ... or the two ends said in a sentence of gradients: "3.1e-09 for the first Dense and 0.27 for the last one", "the
# first layer's gradient norm is 1e-8, the last layer's 0.3"
_NUMBER = r"(\d+(?:\.\d+)?(?:e[-+]?\d+)?)(?![\w.])"
_END = r"(first|earliest|lowest|bottom|input|last|final|top|output)"
VALUE_FOR_END = lazy_regex.compile(r"(?i)" + _NUMBER + r"\s+(?:for|in|at|on|of)\s+(?:the\s+)?" + _END + r"\b")
END_HAS_VALUE = lazy_regex.compile(r"(?i)\b" + _END + r"\b(?:\s+[\w']+){0,4}?\s*(?:is|was|are|were|:|=|gets?|got|has|had|of)"
                                   r"\s*(?:about\s+|around\s+|~\s*)?" + _NUMBER)
# (nor another quantity set per layer -- learning rates, dropout, a clip's norm, weight decay -- nor a supposition: "if
# the first layer's gradient were 1e-9 ...")
OTHER_PER_LAYER = lazy_regex.compile(r"(?i)\b(?:learning[ -]rates?|lrs?|dropout|clip\w*|max[ _]norm|weight[ _]decay|rates?)\b")
SUPPOSED = lazy_regex.compile(r"(?i)\b(?:if|were|would|could|should|expect\w*|suppos\w*)\b")
# ("of the last one 0.27": the end's noun, then its value)
END_NOUN_VALUE = lazy_regex.compile(r"(?i)\b" + _END + r"\s+(?:one|layer(?:'s)?|dense|conv\w*|block|linear)\s+(?:about\s+|~\s*)?"
                                    + _NUMBER)
INPUT_END = {"first", "earliest", "lowest", "bottom", "input"}
# (of layers: not the first and the last epochs or steps of the run)
LAYERS_NAMED = lazy_regex.compile(r"(?i)\b(?:layers?|dense|conv\w*|blocks?|linear)\b")
ENDS_IN_TIME = lazy_regex.compile(r"(?i)\b(?:first|last|final)\s+(?:few\s+|\d+\s+)?(?:epochs?|steps?|iterations?|iters?|batch(?:es)?|"
                                  r"updates?|runs?)\b")


def _gradients_shrink_said(prose: str) -> tuple[float, float, str] | None:
    """The first and the last layer's gradient norms, said in one sentence of gradients, and the sentence's words."""
    for m in itertools.islice(GRADIENT_SAID.finditer(prose), 20):
        start, end = sentence_around(prose, m.start(), m.end(), stops=".;\n")
        sentence = prose[start:end]
        if not LAYERS_NAMED.search(sentence) or ENDS_IN_TIME.search(sentence) or OTHER_PER_LAYER.search(sentence) \
                or sentence.rstrip().endswith("?") or SUPPOSED.search(sentence):
            continue
        ends: dict[bool, float] = {}
        for v in itertools.chain(((x.group(2), x.group(1)) for x in VALUE_FOR_END.finditer(sentence)),
                                 ((x.group(1), x.group(2)) for x in END_HAS_VALUE.finditer(sentence)),
                                 ((x.group(1), x.group(2)) for x in END_NOUN_VALUE.finditer(sentence))):
            ends.setdefault(v[0].lower() in INPUT_END, float(v[1]))
        if len(ends) == 2:
            return ends[True], ends[False], " ".join(sentence.split())[:160]
    return None


# ... or on one line of gradients, layer by layer (`grad norm layer1: 3.2e-09  layer10: 0.041`, `grads layer_0=1e-10
# layer_5=2e-3`): two layers or more, each once, in order
LAYER_PAIR = lazy_regex.compile(r"(?i)\b(?:layer|block)[ _]?\[?(\d{1,3})\]?\s*[:=]\s*" + _NUMBER)


def _norms_on_a_line(prose: str) -> list[tuple[int, float, int]]:
    """The layers' gradient norms printed on one line that says they are gradients, as (layer, norm, where)."""
    for m in itertools.islice(GRADIENT_SAID.finditer(prose), 20):
        start, end = prose.rfind("\n", 0, m.start()) + 1, prose.find("\n", m.end())
        line = prose[start:end if end >= 0 else len(prose)]
        pairs = [(int(p.group(1)), float(p.group(2)), start + p.start()) for p in LAYER_PAIR.finditer(line)]
        if len(pairs) >= 2 and not OTHER_PER_LAYER.search(line):
            return pairs
    return []


def _ends_apart(rows: list[tuple], decades: int) -> str:
    """Rows (layer, value, ...) printed in order, each layer once -- one block, not two runs' rows -- whose last value
    is `decades` orders of magnitude or more above the first, said as "first at layer a and last at layer b: N orders of
    magnitude"; else ""."""
    layers = [row[0] for row in rows]
    first, last = rows[0][1], rows[-1][1]
    if layers != sorted(set(layers)) or not (first > 0 and last >= 10 ** decades * first):
        return ""
    return (f"{fmt(first)} at layer {layers[0]} and {fmt(last)} at layer {layers[-1]}: "
            f"{math.log10(last / first):.3g} orders of magnitude")


def gradients_shrink_to_the_input(prose: str) -> str:
    """The fact, when the paste prints LAYER_ROWS or more gradient norms by layer (one block of rows under words of
    gradients, or two or more on one line of gradients), or says the first and the last layer's, and the first
    layer's is DEPTH_DECADES orders of magnitude below the last's, else ""."""
    rows = [(int(m.group(1)), float(m.group(2)), m.start()) for m in itertools.islice(LAYER_ROW.finditer(prose), 200)]
    if len(rows) < LAYER_ROWS or not GRADIENT_SAID.search(prose[max(0, rows[0][2] - 300):rows[0][2]]):
        rows = _norms_on_a_line(prose)
    if not rows:
        said = _gradients_shrink_said(prose)
        if said and 0 < said[0] and 10 ** DEPTH_DECADES * said[0] <= said[1]:
            return (f"the report gives the first layer's gradient as {fmt(said[0])} and the last layer's as "
                    f"{fmt(said[1])} (\"{said[2]}\"): {math.log10(said[1] / said[0]):.3g} orders of magnitude smaller "
                    "at the first layer, which gets next to no gradient (the backward pass shrinks through each layer "
                    "it crosses, as through sigmoids, whose slope is at most 1/4)")
        return ""
    ends = _ends_apart(rows, DEPTH_DECADES)
    return (f"the paste prints gradient norms layer by layer, {ends} smaller at the first layer, which gets next to no "
            "gradient (the backward pass shrinks through each layer it crosses, as through sigmoids, whose slope is at "
            "most 1/4)") if ends else ""


# The spread of each layer's activations printed layer by layer (`layer 1: pre-act mean -0.02 std 8.346` ... `layer 6:
# ... std 1.355e+06`), under words of activations, GROWTH_DECADES orders of magnitude larger at the last layer than at
# the first: the forward pass multiplies the spread at every layer, as weights too wide for their fan-in do (with ReLU
# and a std of 1, by about sqrt(fan_in / 2) a layer). A printed fact for the entries whose phrases say the activations
# explode layer by layer.
ACTIVATIONS_GROW_WORDS = {"activation", "diverge", "layer"}
ACTIVATION_ROW = lazy_regex.compile(r"(?im)^[ \t]*(?:layer|block)[ \t_]*\[?(\d{1,3})\]?[^\n]{0,60}?\b(?:std|stdev|std_dev|"
                                    r"standard deviation|scale|rms)[ \t]*(?:[:=][ \t]*)?(\d+(?:\.\d+)?(?:e[-+]?\d+)?)(?![\w.])")
ACTIVATIONS_SAID = lazy_regex.compile(r"(?i)\b(?:activations?|pre-?act\w*|logits)\b")
# ... printed at the start, where too wide an initialisation shows: on the first batch, before training, at
# initialisation (activations that grew late in a run are another story, the rate's or the data's)
AT_START_SAID = lazy_regex.compile(r"(?i)\bfirst\s+(?:batch|step|forward|iteration|pass)|\binitiali[sz]\w*|\bat\s+init\b|"
                                   r"\bbefore\s+(?:any\s+)?(?:training|update)|\bstep\s+0\b|\bfresh(?:ly)?\b")
GROWTH_DECADES = 3


def activations_grow_with_depth(prose: str) -> str:
    """The fact, when the paste prints LAYER_ROWS or more layers' activation spreads, in order, each layer once, on
    lines or under words of activations, and the last is GROWTH_DECADES orders of magnitude above the first; else ""."""
    rows = [(int(m.group(1)), float(m.group(2)), m) for m in itertools.islice(ACTIVATION_ROW.finditer(prose), 200)]
    if len(rows) < LAYER_ROWS:
        return ""
    first_row = rows[0][2]
    # (of activations, at the start: not the rows of a gradient's spread, whose growth toward the output is the other
    # end's story, nor a weight table's)
    # (said in the two lines that introduce the rows, the rows' own heading)
    above = prose.rfind("\n", 0, max(0, prose.rfind("\n", 0, first_row.start() - 1)))
    window = (max(above + 1, first_row.start() - 300), first_row.end())
    if not ACTIVATIONS_SAID.search(prose, *window) or GRADIENT_SAID.search(prose, *window) \
            or not AT_START_SAID.search(prose, *window):
        return ""
    ends = _ends_apart(rows, GROWTH_DECADES)
    return (f"the paste prints the spread of each layer's activations, {ends} larger at the last layer -- the forward "
            "pass multiplies it at every layer, as weights too wide for their fan-in do (with ReLU and a standard "
            "deviation of 1, by about the square root of half the fan-in a layer)") if ends else ""


# Gradients said to be exactly zero ("the grads are exactly 0.0", "gradients = 0", "grad norm is zero", "I printed grad
# norms per layer: exactly 0.0")
# (after a colon, only the norms themselves, with at most "per layer" or "for every layer" between: "gradients: 0 NaNs",
# "Gradient clipping: 0", "gradient accumulation steps: 0" are counts and settings; nor a count of something, "0 nan")
GRADS_ZERO_SAID = lazy_regex.compile(r"\bgrad(?:ient)?s?\b(?:[ \t]+norms?)?(?:[^.\n]{0,60}?\b(?:are|is|were|was|=|==|equal(?:s| to)?|"
                                     r"print(?:s|ed)?(?: as)?)|[ \t]+norms?(?:[ \t]+(?:per|for|of)[ \t]+(?:every[ \t]+|each[ \t]+)?"
                                     r"(?:layer|parameter|param)s?)?[ \t]*:)[ \t]+(?:all[ \t]+)?(?:exactly[ \t]+)?(?:0(?:\.0+)?|zero)"
                                     r"(?!\.?\d)(?![ \t]*(?:nan|inf|none|%)\w*)", re.I)
# ... not where a share of them is said to be 0% ("0.0% of the first layer's gradients are 0": none), nor of layers
# frozen on purpose ("the frozen backbone's grads are 0, as expected")
NONE_OF_THEM = lazy_regex.compile(r"(?:^|[\s(])0(?:\.0+)?\s*%[^.\n]*$")
FROZEN_ON_PURPOSE = lazy_regex.compile(r"(?i)\b(?:frozen|froze)\s+(?:the\s+|my\s+|its\s+)?(?:backbone|encoder|decoder|layers?|"
                                       r"embeddings?|weights|base|body|stem|parts?|bert|vit|resnet)\b|\b(?:backbone|encoder|"
                                       r"decoder|layers?|embeddings?|weights|base|body|stem)\s+(?:is\s+|are\s+)?frozen\b|"
                                       r"\bfreez\w*|requires_grad\s*=\s*False|(?<!\bnot )\bas expected\b|"
                                       r"\bfrozen\s+(?:on\s+purpose|deliberately|by\s+design)\b|\bfroze\s+(?:it|them)\b|"
                                       r"\bfrozen\s+(?:\w+\s+){0,2}(?:tower|encoder|backbone|model)\b")


def grads_said_zero(prose: str) -> re.Match | None:
    return next((m for m in GRADS_ZERO_SAID.finditer(prose)
                 if not NONE_OF_THEM.search(prose, max(0, m.start() - 60), m.start())
                 and not FROZEN_ON_PURPOSE.search(prose, *sentence_around(prose, m.start(), m.end()))), None)


# Gradient norms the words give ("the total norm clip_grad_norm_ returns is between 3 and 40", "grad norm is about
# 12"), to set beside the clipping threshold the paste states (Evidence.clip_at): every one below it, the clip never
# shortened an update. A printed fact for the entries whose phrases say the norm never reaches the threshold.
CLIP_UNENGAGED_WORDS = {"gradnorm", "threshold"}
_NORM_NUMBER = r"(\d+(?:\.\d+)?(?:e[-+]?\d+)?)(?![\w.])"
NORMS_SAID = lazy_regex.compile(r"\b(?:grad(?:ient)?s?[ _]?norms?|total[ _]norms?|norms?)\b[^.\n]{0,80}?\b(?:between|from)[ \t]+"
                                + _NORM_NUMBER + r"[ \t]*(?:and|to|-|\u2013)[ \t]*" + _NORM_NUMBER + r"|"
                                r"\b(?:grad(?:ient)?s?[ _]?norms?|total[ _]norms?)\b[^.\n]{0,40}?\b(?:is|was|are|were|of|around|"
                                r"about|at most|below|under|never above)[ \t]+~?[ \t]?" + _NORM_NUMBER, re.I)


def norms_below_clip(ev: Evidence) -> str:
    """The clipping threshold the paste states and the gradient norms its words give, when every one is below it."""
    if ev.clip_at is None or ev.clip_at <= 0:
        return ""
    said = [(m, [float(g) for g in m.groups() if g is not None]) for m in NORMS_SAID.finditer(ev.prose)]
    said = [(m, values) for m, values in said if values]
    if not said or max(max(values) for _m, values in said) >= ev.clip_at:
        return ""
    m = said[0][0]
    return (f"the paste clips the gradient norm at {fmt(ev.clip_at)}, and its words give the norm as "
            f"\"{' '.join(m.group(0).split())}\": below the threshold, so the clip never shortened an update")


CLIP_LATE_WORDS = {"clip", "optimizer", "step"}       # (the entries whose phrases say a clip after the step)
