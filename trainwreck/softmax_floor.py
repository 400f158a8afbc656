"""The arithmetic of a softmax applied twice (WR-130): a cross-entropy on outputs that already went through a softmax
cannot go below log(1 + (C - 1)/e) for C classes, so a loss that ends just above that floor while the accuracy is
high is that failure's fingerprint, printed or said; and an accuracy said to climb while the loss barely moves is the
same failure in words.
"""
from __future__ import annotations

import functools
import itertools
import math
import re

from .class_count import classes_named
from .curve_shape import fmt
from .logscan import Evidence
from .sentences import rounding_of, sentences_and_ends, told
from . import lazy_regex

# A cross-entropy computed on outputs that already went through a softmax cannot go below log(1 + (C - 1)/e) for C
# classes (WR-130: 1.4612 for ten): a loss that ends within FLOOR_NEAR above that floor, never below it, while the
# accuracy printed beside it reaches FLOOR_ACCURACY, is that failure's fingerprint -- a printed fact for the entries
# whose phrases say the loss will not go below it. C is the class count whose floor is nearest below the loss (3 or
# more: two classes' floor, 0.3133, is an ordinary loss at that accuracy).
FLOOR_WORDS = {"class", "below"}
FLOOR_NEAR, FLOOR_ACCURACY, FLOOR_CLASSES, FLOOR_TAIL = 0.02, 0.9, range(3, 1001), 3
FLOOR_ACCURACY_SURE = 0.95
# (the class count the paste names, class_count; with none named, the count whose floor lies nearest below the loss
# counts only when the first loss sat near its ln C -- a fresh classifier's loss, and where a softmax applied twice
# starts -- above the floor's half-way)
# words of a loss with more in it than a cross-entropy, which sits above its floor by design
FLOOR_HIDDEN = lazy_regex.compile(r"label[ _-]?smooth\w*|distill\w*|\bkd\b|mixup|cutmix|regulari[sz]\w*|\bl2\(|weight[ _]decay "
                                  r"in the loss|auxiliary loss|\+ *(?:(?:\d+(?:\.\d*)?|\.\d*) *)?\* *\w+[ _]loss", re.I)


def _floor_of(classes: int) -> float:
    """The lowest a cross-entropy reaches over C classes on outputs already softmaxed: log(1 + (C - 1)/e)."""
    return math.log(1 + (classes - 1) / math.e)


def _wrong_floor_of(classes: int) -> float:
    """The lowest it reaches on an example the model gets wrong: a softmaxed output p whose largest entry is not the
    true class's costs log(sum exp p) - p_true, least at a tie, p_true = p_other = 1/2 (the loss falls as the tie
    grows, and spreading mass to the other classes only raises it): log(2 sqrt(e) + C - 2) - 1/2."""
    return math.log(2 * math.sqrt(math.e) + classes - 2) - 0.5


def _floor_at(classes: int, share: float) -> float:
    """The lowest mean loss over examples of which this share is classified right."""
    return share * _floor_of(classes) + (1 - share) * _wrong_floor_of(classes)


# (not one asked about or denied: "Is label smoothing on by default somewhere? I never set it.", "there is no label
# smoothing", `label_smoothing=0.0`)
FLOOR_NOT_HIDDEN = lazy_regex.compile(r"(?i)\b(?:no|not|never|without)\b|n't\b|label_smoothing\s*=\s*0(?:\.0*)?(?![\d.])")


def _floor_hidden(prose: str) -> bool:
    """Does the paste add to its loss a term that lifts it off the floor (FLOOR_HIDDEN), said as done? (A denial just
    before the term, or a smoothing of 0, takes it back; one elsewhere in the sentence -- "the loss won't go below" --
    does not.)"""
    return any(end != "?" and any(not FLOOR_NOT_HIDDEN.search(sentence[max(0, m.start() - 30):m.end() + 12])
                                  for m in itertools.islice(FLOOR_HIDDEN.finditer(sentence), 5))
               for sentence, end in sentences_and_ends(prose))


# ... or said in words: where the loss stays ("stuck around 1.47", "never goes below ~1.47") beside an accuracy said
# high ("train accuracy gets to 99.2%") and the classes named, the loss within FLOOR_NEAR above their floor
LOSS_STAYS = lazy_regex.compile(r"(?i)\b\w*loss\b[^.\n\d]{0,60}?\b(?:never (?:goes|gets|drops?|falls?) (?:below|under)|stuck (?:at|around|near)|"
                                r"stays? (?:at|around|near)|plateaus? (?:at|around)|sits? (?:at|around)|won'?t go below|"
                                r"flattens? (?:out )?(?:at|around|near))"
                                # (a value said roughly: "sits at about 0.6")
                                r"(?:\s+(?:about|roughly|approximately))?\s*(?:~\s*)?"
                                r"(\d+\.\d+)")
ACCURACY_SAID = lazy_regex.compile(r"(?i)\bacc(?:uracy)?\b[^.\n\d]{0,30}?(?:(\d{2}(?:\.\d+)?)\s*%|\b(0\.\d+)\b)")
# Below FLOOR_ACCURACY, the floor is the lowest mean loss at the accuracy said (_floor_at: the examples it gets wrong
# each cost at least a tie's loss), down to FLOOR_SHARE_MIN; a loss said within FLOOR_AT_NEAR above it
FLOOR_SHARE_MIN, FLOOR_AT_NEAR = 0.7, 0.05
# (a training loss beside a training accuracy: a validation loss of a model that overfits sits above any floor)
HELD_OUT = lazy_regex.compile(r"(?i)\b(?:val\w*|valid\w*|validation|test\w*|eval\w*|held[- ]?out|dev)\b[^.\n]{0,15}$")


def softmax_floor_said(prose: str) -> str:
    """The fact, where the words put the loss just above a softmax-twice floor for the classes they name, beside an
    accuracy they say is high; or ""."""
    stays, accuracy, named = LOSS_STAYS.search(prose), ACCURACY_SAID.search(prose), classes_named(prose)
    if not (stays and accuracy and named) or _floor_hidden(prose):
        return ""
    share = float(accuracy.group(1)) / 100 if accuracy.group(1) else float(accuracy.group(2))
    classes, why = named
    floor, level = _floor_of(classes), float(stays.group(1))
    # (a value in words is rounded, "~0.95": beside an accuracy of FLOOR_ACCURACY_SURE or more, at which a cross-entropy
    # on logits is far below any such floor, three times the margin; and it stands for any value it rounds from, "0.6"
    # for 0.55 to 0.65)
    near = FLOOR_NEAR * (3 if share >= FLOOR_ACCURACY_SURE else 1)
    rounding = rounding_of(stays.group(1))
    said = (f"the report says the loss stays at {stays.group(1)} (\"{' '.join(stays.group(0).split())}\") beside an "
            f"accuracy of {accuracy.group(1) or accuracy.group(2)}{'%' if accuracy.group(1) else ''}")
    if share < FLOOR_ACCURACY and FLOOR_SHARE_MIN <= share and classes >= FLOOR_CLASSES.start:
        # (at a lower accuracy, the floor at that accuracy: the wrong examples' share of it is higher -- a training
        # loss beside a training accuracy only)
        if any(HELD_OUT.search(prose[max(0, m.start() - 40):m.start()]) for m in (stays, accuracy)):
            return ""
        at = _floor_at(classes, share)
        if at <= level + rounding and level - rounding <= (1 + FLOOR_AT_NEAR) * at:
            return (f"{said}, just above {at:.4f}, the lowest mean cross-entropy at that accuracy over C = {classes} "
                    f"classes ({why}) on outputs that already went through a softmax (each right example costs at "
                    f"least log(1 + (C - 1)/e) = {floor:.4f}, each wrong one at least a tie's "
                    f"{_wrong_floor_of(classes):.4f})")
        return ""
    if share < FLOOR_ACCURACY or classes < FLOOR_CLASSES.start \
            or not floor <= level + rounding or not level - rounding <= (1 + near) * floor:
        return ""
    where = "just above" if level >= floor else f"which, written to {rounding:g} either way, reaches"
    return (f"{said}, {where} log(1 + (C - 1)/e) = {floor:.4f} for C = {classes} classes ({why}): the lowest a "
            "cross-entropy can go on outputs that already went through a softmax")


def softmax_floor(ev: Evidence, accuracy: float | None) -> str:
    """The fact that the loss ended just above a softmax-twice floor while the accuracy was high, or ""."""
    if accuracy is None or ev.first_nonfinite is not None or ev.low is None or ev.count < 3:
        return ""
    share = accuracy / 100 if ev.accuracy_percent or accuracy > 1 else accuracy
    if share < FLOOR_ACCURACY or _floor_hidden(ev.prose):
        return ""
    named = classes_named(ev.prose)
    if named is not None:
        classes, why = named
        floor = _floor_of(classes)
        if classes < FLOOR_CLASSES.start or floor > ev.low:
            return ""
    else:
        below = [(c, f) for c in FLOOR_CLASSES if (f := _floor_of(c)) <= ev.low]
        if not below:
            return ""
        classes, floor = below[-1]
        start = math.log(classes)
        if not floor + (start - floor) / 2 <= ev.head[0] <= (1 + FLOOR_NEAR) * start:
            return ""
        why = (f"the count whose floor lies nearest below the loss, and near whose ln C, {start:.4f}, the loss "
               f"started ({fmt(ev.head[0])})")
    shown = ev.accuracy_tail[-1]      # the accuracy beside the last loss: the share its mean is over
    bound = _floor_at(classes, min(1.0, shown / 100 if ev.accuracy_percent or shown > 1 else shown))
    if ev.last > (1 + FLOOR_NEAR) * bound:
        return ""
    at = (f"; at that accuracy no lower than {bound:.4f}, as each example it gets wrong costs at least "
          f"log(2√e + C - 2) - 1/2 = {_wrong_floor_of(classes):.4f}" if bound - floor >= 0.0005 else "")
    return (f"the loss ends at {fmt(ev.last)} ({ev.where(ev.count - 1)}), never below log(1 + (C - 1)/e) = "
            f"{floor:.4f} for C = {classes} classes ({why}), beside an accuracy of {fmt(shown)}"
            f"{'%' if ev.accuracy_percent else ''}: the lowest a cross-entropy can go on outputs that already went "
            f"through a softmax{at}")


# An accuracy said to climb beside a loss said to barely move ("validation accuracy climbs normally to 71% ... the
# training loss ... hardly changes", "accuracy goes up but the loss barely goes down"): the model learns and the loss
# cannot show it -- half a printed fact for the entries whose phrases say so (a softmax's probabilities handed to a
# loss that applies its own: WR-130), as the printed accuracy's rise is a whole one
# (or a ranking's or an overlap's score: "validation AUC climbs to 0.93", "mIoU keeps climbing"; or the accuracy reached,
# "it reaches 94% accuracy")
ACCURACY_CLIMBS_SAID = lazy_regex.compile(r"(?i)\b(?:acc(?:uracy)?|auc|auroc|roc[ -]auc|m?iou|f1)\b(?:[^.;\n?]|\.\d){0,40}?\b(?:climbs?|"
                                          r"climbing|goes up|went up|going up|"
                                          r"improves?|improving|improved|rises?|rising|rose|increases?|increasing|increased|"
                                          r"reaches|reached|gets? to|got to)\b|"
                                          # (a high one, not chance: "gets 10% accuracy" is no model that learns)
                                          r"\b(?:gets?|got|reach(?:es|ed)?|hits?)\s+(?:about\s+|around\s+|over\s+)?(?:[89]\d|100)(?:\.\d+)?\s*%\s+"
                                          r"(?:accuracy|acc)\b")
# (the loss by its name or the cross-entropy's; "only creeping down" and "crawls down" barely move it too)
_LOSS_NAMED = r"\b(?:loss|cross[- ]?entropy|nll)\b"
LOSS_BARELY_SAID = lazy_regex.compile(r"(?i)" + _LOSS_NAMED + r"(?:[^.;\n?]|\.\d){0,80}?\b(?:barely|hardly|only slightly|almost not|"
                                      r"not really)\s+(?:moves?|moving|changes?|changing|goes down|going down|decreases?|decreasing|"
                                      r"falls?|drops?)\b|"
                                      + _LOSS_NAMED + r"(?:[^.;\n?]|\.\d){0,80}?\b(?:only\s+)?(?:creep\w*|crawl\w*)\s+down\b|"
                                      + _LOSS_NAMED + r"(?:[^.;\n?]|\.\d){0,60}?\bonly (?:at|down to) \d+(?:\.\d+)?\b|"
                                      # (a floor: "never gets below 0.72 or so", "won't go below roughly 1.2", "flattens out a
                                      # bit under 1 and never goes lower")
                                      + _LOSS_NAMED + r"(?:[^.;\n?]|\.\d){0,60}?\b(?:won'?t|doesn'?t|does not|do not|don'?t|never|"
                                      r"can'?t|cannot)\s+(?:go(?:es)?|gets?|falls?|drops?|comes?)\s+(?:down\s+)?(?:below|under|lower)\b")


# (a sentence of another run, a condition or a wish; a loss of the validation rows, which overfitting keeps flat)
ROSE_ELSEWHERE = lazy_regex.compile(r"(?i)\b(?:if|hope|want|would|old|before|previous\w*|used to|last time)\b|"
                                    r"\b(?:val\w*|validation|test|eval\w*)[ _-]?loss\b")


MOVED_ON = lazy_regex.compile(r"(?i)^\s*(?:then|after|afterwards|later|from\s+(?:epoch|step)|since)\b|\b(?:loss|cross[- ]?entropy)\b"
                              r"[^.;\n]{0,40}?\b(?:drops?|dropped|falls?|fell|decreas\w*|goes down|went down)\b")
ROSE_ONCE = lazy_regex.compile(r"(?i)\b(?:once|back (?:at|to)|again at)\b")


@functools.lru_cache(maxsize=4)      # (asked by the context and by the printed facts of the same text; read only)
def accuracy_rose_said(prose: str) -> str:
    """The words of one told sentence that say the accuracy climbs while the loss barely moves or stops at a floor,
    quoted; or "" (not denied, "the accuracy doesn't improve"; not of another run, a condition, a wish, or the validation
    loss)."""
    # (in one sentence, or in two side by side: "the NLL only crawls down. Top-1 accuracy improves every
    # epoch.")
    # (a question that states it counts -- "loss barely moves but accuracy goes up?", "why does the accuracy climb while
    # the loss barely moves?": told() has taken out the yes/no questions, which only ask)
    said = list(sentences_and_ends(told(prose)))
    for i, (sentence, end) in enumerate(said):
        # (not a second sentence that moves on -- "From epoch 6 on it drops to 0.9 and the accuracy goes up" tells a
        # plateau that ended -- nor an accuracy that rose once and came back)
        later = (said[i - 1][0] + " " + sentence,) if i and said[i - 1][1] != "?" and not MOVED_ON.search(sentence) else ()
        for pair in (sentence, *later):
            rose, barely = ACCURACY_CLIMBS_SAID.search(pair), LOSS_BARELY_SAID.search(pair)
            if not (rose and barely) or ROSE_ELSEWHERE.search(pair) or re.search(r"(?:n't|\bnot|\bnever)\b", rose.group(0)) \
                    or ROSE_ONCE.search(pair, rose.end()):
                continue
            return f"{' '.join(rose.group(0).split())} ... {' '.join(barely.group(0).split())}"
    return ""
