"""What a report says of its optimizer's step and its schedule: an adaptive optimizer (Adam and its kin), a run
with no warmup or one constant rate from its start (and a warmup the paste sets after all), and a cosine schedule
whose warm restarts fall where the loss is said to jump and recover.
"""
from __future__ import annotations

import itertools
import re

from .run_said import STUCK
from .sentences import said_unnegated, told
from . import lazy_regex


# The optimisers whose step does not grow with the gradient (Adam and its kin divide each gradient by its own running
# size): paste_facts' facts of raw targets and of accumulated gradients, start_loss's early jump, and curve_shape's
# warmup-less first steps
ADAPTIVE = lazy_regex.compile(r"\b(?:adam\w*|rmsprop|adagrad|adadelta|adafactor|lamb|lion)\b", re.I)
# ... and plain SGD named (`optim="sgd"`, `torch.optim.SGD(`, "gradient descent"), whose step grows with the gradient
PLAIN_SGD = lazy_regex.compile(r"\bsgd\b|\bgradient descent\b", re.I)



def plain_sgd_only(prose: str) -> bool:
    """Does the paste name plain SGD and no adaptive optimizer? SGD's first step is as large as its gradient makes it:
    not Adam's, about the full rate whatever the gradient (WR-250)."""
    return bool(PLAIN_SGD.search(prose)) and not ADAPTIVE.search(prose)

# A run said to have no warmup ("no warmup", "warmup_steps=0")
# ... or its warmup said taken out ("dropped `--lr-warmup-fraction .01`", "I removed the warmup", "commented out the
# warmup scheduler"), or a flag's warmup set to 0 with a space ("--warmup-steps 0")
NO_WARMUP = lazy_regex.compile(r"\b(?:no|without|w/o|zero)\s+(?:lr\s+|learning[ -]rate\s+)?warm-?up\b|"
                               r"\bwarm-?up(?:_steps|_ratio|_iters?|_epochs)?\s*[=:]\s*0(?:\.0+)?(?!\.?\d)|"
                               r"\b(?:dropped|removed|disabled|deleted|commented\s+out|turned\s+off|switched\s+off|took\s+out|"
                               r"got\s+rid\s+of)\s+(?:the\s+|my\s+|our\s+|any\s+|all\s+)?(?:lr\s+|learning[ -]rate\s+)?[`'\"]?(?:--?)?"
                               # (a schedule's name before it, a word or two: "removed the LinearLR warmup", "the linear LR
                               # warmup" -- not a preposition, "the loss dropped after warmup")
                               r"(?:(?!(?:after|before|during|post|until|past|since|at|in|on|to|by|with|from|of|and|or|but|so|as|while|"
                               r"once|when|then|still|is|was|the)\b)[\w.-]{1,20}?"
                               r"\s?){0,2}?warm-?up\b|"
                               r"--[\w-]{0,20}?warm-?up[\w-]{0,30}\s+0(?:\.0+)?(?![.\d])|"
                               # (the verb's particle after it: "turned warmup off", "switched the LR warmup off")
                               r"(?<!not )(?<!n't )(?<!never )\b(?:turned|switched)\s+(?:the\s+|my\s+|our\s+)?(?:lr\s+|"
                               r"learning[ -]rate\s+)?warm-?up(?:\s+phase)?\s+off\b", re.I)
# ... or a rate said to be constant from the start, or the schedule said dropped ("constant AdamW lr=5e-4", "I removed
# the LR scheduler"), in a paste that does not name a warmup at all
CONSTANT_RATE = lazy_regex.compile(r"\bconstant\s+(?:[\w-]{1,20}\s+){0,2}?(?:lr|learning[ -]rate)\b|"
                                   r"\b(?:lr|learning[ -]rate)\s+(?:is\s+|was\s+|stays\s+|kept\s+)?constant\b|"
                                   # (and in the languages that write the word after the rate: "lr costante 1e-3", "lr
                                   # constante", "lr konstant")
                                   r"\blr\s+(?:costante|constante|konstant|konstante[nr]?|stał[ay]|sabit)\b|"
                                   # (Chinese and Japanese: "lr 一直是常数", "没有用学习率调度器", "学習率は一定")
                                   # (一定 only in Japanese, after は and not before a negation: in Chinese it is "must")
                                   r"(?:lr|学习率)\s*(?:(?:一直|始终)\s*)?(?:(?:是|为)\s*)?(?:常数|固定|不变)|"
                                   r"学習率は\s*(?:一定|固定)(?!\s*(?:では|じゃ)(?:ない|ありません))|"
                                   r"(?:没有|没用|未使用|不用)(?:用)?\s*(?:学习率\s*)?(?:调度器|scheduler)|"
                                   # (Russian: "оставил постоянный lr", "выкинул шедулер")
                                   r"постоянн\w*\s+(?:lr|learning[ -]rate|скорост\w*\s+обучения)\b|"
                                   r"(?:выкинул|убрал|удалил|отключил|без)\w*\s+(?:\w+\s+)?(?:шедулер|scheduler|планировщик)\w*|"
                                   r"\b(?:dropped|removed|without|no)\s+(?:the\s+|any\s+)?(?:lr\s+|learning[ -]rate\s+)?"
                                   r"(?:scheduler|schedule)\b", re.I)
WARMUP_NAMED = lazy_regex.compile(r"warm-?up", re.I)
# ... unless the paste sets a warmup of its own ("warmup_steps=500", "1000 warmup steps"): the words of no warmup are
# another run's
# (also inside a name: HF's `num_warmup_steps=1000`)
# (or a command line's flag, its value after a space: `--warmup_steps 100`, Megatron's `--lr-warmup-iters 500`, fairseq's
# `--warmup-updates 4000`)
WARMUP_SET = lazy_regex.compile(r"(?<![a-z])warm-?up(?:_steps|_ratio|_iters?|_epochs)?\s*[=:]\s*(?:0*[1-9]\d*|0?\.0*[1-9])|"
                                r"--[\w-]{0,20}?warm-?up[\w-]{0,30}[ \t]+(?:0*[1-9]\d*|0?\.0*[1-9])|"
                                r"\b\d[\d,]* warm-?up steps|\bwarm-?up (?:over|of) (?:the first )?\d", re.I)


def no_warmup_said(text: str) -> str:
    """How the words say the run had no warmup (" in a run the report says had no warmup"), or "" -- not asked ("should I
    have turned warmup off?")."""
    if NO_WARMUP.search(told(text)):
        return " in a run the report says had no warmup"
    if CONSTANT_RATE.search(text) and not WARMUP_NAMED.search(text):
        return " in a run the report says kept one rate from its start (no warmup)"
    return ""


# A rise each time the learning rate jumps back up (normals.RESTARTED), said in words: a cosine schedule with warm
# restarts named (SGDR, Loshchilov & Hutter 2017: the rate starts again at its top every T_i epochs,
# T_i = T_0 * T_mult^i), and the loss said to jump and recover at two epochs or more that fall where its restarts do --
# the second at 2x (T_mult = 1) or 3x (T_mult = 2) the first, counted from 0 or from 1 ("at epoch 11 ... and again
# at 31": T_0 = 10, T_mult = 2)
COSINE_SAID = lazy_regex.compile(r"(?i)\bcosine[ _-]?(?:anneal\w*|schedul\w*|lr|decay|with restarts)|cosineannealing\w*|"
                                 r"warm[ _-]?restarts?|\bsgdr\b|\bcosine\b(?=[^.\n]{0,60}\b(?:schedul\w*|lr|learning rate)\b)|"
                                 r"\b(?:schedul\w*|lr|learning rate)\b[^.\n]{0,60}\bcosine\b(?! similarity)")
NO_RESTARTS = lazy_regex.compile(r"(?i)\b(?:no|without)\s+(?:warm\s+)?restarts?\b|\bt_max\s*=")
RECOVERED_SAID = lazy_regex.compile(r"(?i)(?<!never )(?<!not )(?<!n't )(?<!partly )(?<!partially )(?<!fully )"
                                    r"\b(?:recover(?:s|ed|ing)?|comes? back down|came back down)\b")
_JUMP = r"(?:jump\w*|spike\w*|ris(?:es|ing)|shoots? up|goes up|went up)"
JUMP_AT = lazy_regex.compile(r"(?i)\bloss\w*\b[^.;\n]{0,40}?\b" + _JUMP + r"\b[^.;\n]{0,60}?\bepochs? (\d{1,4})\b|"
                             r"\bat epochs? (\d{1,4})\b[^.;\n]{0,60}?\bloss\w*\b[^.;\n]{0,30}?\b" + _JUMP + r"\b")
AGAIN_AT = lazy_regex.compile(r"(?i)\bagain at (?:epoch )?(\d{1,4})\b|\band (?:again )?at epoch (\d{1,4})\b")


def restarts_said(text: str) -> str:
    """The epochs, when the words name a cosine schedule (with warm restarts, or one whose restarts they do not deny)
    and say the loss jumped and recovered at epochs that fit its restarts; else ""."""
    if not COSINE_SAID.search(text) or NO_RESTARTS.search(text) or not RECOVERED_SAID.search(text) \
            or said_unnegated(text, {"nan", "inf"}) or STUCK.search(text.lower()):
        return ""
    epochs = sorted({int(g) for m in itertools.islice(JUMP_AT.finditer(text), 10) for g in m.groups() if g}
                    | {int(g) for m in itertools.islice(AGAIN_AT.finditer(text), 10) for g in m.groups() if g})
    for first, second in itertools.combinations(epochs, 2):
        for base in (0, 1):
            period = first - base
            if period >= 2 and second - base in (2 * period, 3 * period):
                return f"epochs {first} and {second}"
    return ""
