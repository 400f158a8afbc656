"""When a report says its failure showed: the timing words ("from the start", "after a while", "at step 0",
"always nan") that the thesaurus folds into `when_start`, `when_early` or `when_later` before any of its other
patterns, and the timing read back from a text's tokens (timing_of).
"""
from __future__ import annotations

import re
from . import lazy_regex


# "always nan", "always shows nan": a verb of being or printing between. Not one of change ("always becomes
# nan" says nothing of when), nor of a result ("I always get nan" says every run fails; "log(0) always
# gives -inf" is a rule of arithmetic).
_SHOWS = r"(?:is|are|was|were|shows?|showed|showing|outputs?|outputting|prints?|printed|printing|reads?)"
_NONFINITE_AHEAD = r"-?(?:nan|inf|infinite|infinity)s?\b"
# A step counted from 0 up to this is right after the first updates (the words' "within the first ten steps", a
# check's stop at iteration 3); past it, the run trained a while.
EARLY_STEPS = 10


def _step_timing(m: re.Match) -> str:
    """The timing a step number in words gives: "at batch 0" the start, "around step 5" right after the first
    updates, "around batch 1300", "around step 3k" or "fine for 1200 batches" after a while. (Numbers of at most 12
    digits, or five groups of three: a longer run of digits is no step, and Python refuses to read one of 4,300.)"""
    count = (m.group(1) or m.group(2)).replace(",", "")
    n = int(count[:-1]) * 1000 if count.endswith("k") else int(count)
    return " when_start " if n == 0 else " when_early " if n <= EARLY_STEPS else " when_later "


# A step the words say was fine ("the loss at iteration 0 is fine but ...") is not when the failure showed.
_FINE_THERE = r"(?![^.,;\n]{0,12}\b(?:is|was|looks|seems|looked|seemed) (?:\w+ )?(?:fine|ok|okay|normal|finite|good|healthy)\b)"

# A step named after a finite value quoted at it ("it was decreasing nicely: 1.92 at step 0") places that value, not
# the failure (a nan or inf named there does: "nan at step 0"; so does an enormous one, "3.7e+21 at step 0", and a
# count is no value: "in epoch 3 at step 4500")
_NO_VALUE_BEFORE = "".join(rf"(?<!\d\.\d{{{k}}} )" for k in range(1, 7))


def _no_value_before(words: str) -> str:
    """_NO_VALUE_BEFORE ahead of one of `words` (an alternation): the words are looked for first, as six lookbehinds
    tried at every position of a report cost most of the time its words took to fold."""
    return rf"(?=(?:{words}) ){_NO_VALUE_BEFORE}(?:{words}) "

# When the failure shows: before any update, right after the first ones, or after a while.
WHEN = [
    (r"\b(?:from the (?:very )?(?:start|beginning|first \w+)|at the (?:very )?(?:start|beginning)|first forward pass"
     r"|(?:at|on|in) the (?:very )?first (?:batch|step|iteration|epoch|forward|backward)|from (?:step|epoch|iteration)[ =:]+0\b"
     # (or an enormous number: "the very first printed loss is 193847216504832.0000")
     r"|the (?:very )?first (?:printed |logged |reported )?loss (?:value )?(?:is|was) +(?:already +)?"
     r"(?=-?(?:nan|inf)\b|\d{7}|\d(?:\.\d+)?e\+?0?(?:[6-9]|[1-9]\d))"
     r"|" + _no_value_before("at|in") + r"(?:step|epoch|iteration)[ =]+0\b" + _FINE_THERE +
     r"|right away|immediately|before (?:any|the first|a single) (?:update|step)|when (?:the )?training starts"
     # (the first step said to break: "first step already blows up", "the very first batch is already nan")
     r"|(?:the )?(?:very )?first (?:batch|step|iteration|update|forward(?: pass)?) +(?:already +|immediately +)?"
     r"(?=blows? up|explodes?|diverges?|(?:is|gives?|returns?|goes|turns) +(?:already +)?(?:nan|inf)\b)"
     # ... and in the other languages reports come in: "desde la iteración 0", "dès le début", "von Anfang an",
     # "desde o início", "fin dall'inizio", "с самого начала", "从第一轮", "一开始就", "最初から", "처음부터"
     r"|desde (?:el |la |o |a )?(?:principio|inicio|início|comienzo|começo|primer\w*|iteraci[oó]n 0|paso 0|"
     r"itera[cç][aã]o 0|[eé]poca 0)|d[eè]s (?:le |la )?(?:d[eé]but|d[eé]part|premi[eè]re?)|depuis le d[eé]but"
     r"|von (?:anfang|beginn) an|gleich (?:am|zu) (?:anfang|beginn)|ab (?:dem )?(?:ersten|schritt 0|iteration 0)"
     r"|(?:fin )?dall'inizio|dal prim\w*|с самого начала|с первой|с нулевой)\b"
     r"|从第一|一开始|从一开始|最初から|처음부터"
     # ("第一个 batch 的 loss 就是 nan": the first batch, step or iteration)
     r"|第一个\s*(?:batch|step|iteration|iter|批次?)|第一(?:步|批|次迭代)",
     " when_start "),
    # a step's number said in words: its size says when (_step_timing)
    (r"\b" + _no_value_before("at|around|about|near|from") + r"(?:step|iteration|iter|batch|update)[ =:]*(\d{1,3}(?:,\d{3}){1,4}|\d{1,12}k?)\b"
     r"(?![,.]\d)"
     r"(?! of)" + _FINE_THERE + r"|\b(?:fine|ok|okay|well|normally|good|great|nicely|smoothly|perfectly|healthy) for (?:the first )?(?:about |around |roughly )?"
     r"(\d{1,3}(?:,\d{3}){1,4}k?|\d{1,12}k?) (?:steps?|iterations?|iters?|batches|updates)\b", _step_timing),
    (r"\b(?:after (?:the )?(?:first|1st|one|a single) (?:\w+ )?(?:step|update|iteration|batch)|within the first"
     r"|(?:in|after|during) the (?:very )?first (?:few |couple of |~?\d{1,3} )?(?:steps|iterations|batches|updates)"
     r"|first (?:few|ten) (?:steps|iterations|batches))\b", " when_early "),
    (r"\b(?:after (?:about |around |roughly |~ ?)?(?:\d[\d,.]*k?|some|several|a few|a number of|many|a couple of"
     r"|a while|hours|two|three|\w+ (?:thousand|hundred)) ?(?:training )?(?:steps?|iterations?|iters?|epochs?"
     r"|batches|updates|hours|minutes|of training)?|after a while|suddenly"
     r"|(?:at|around|about|near) epoch[ =:]*(?:[2-9]|[1-9]\d+)\b"
     r"|(?:fine|ok|okay|well|normally|good|great|nicely|smoothly|perfectly|healthy) for (?:the first )?(?:about |around |roughly )?[1-9][\d,.]*k? "
     r"epochs?"
     r"|(?:epoch|step|iteration)\s*>\s*\d+|later in training|during training|in the middle of training"
     r"|(?:around|about) (?:the )?\d+(?:st|nd|rd|th)? (?:epoch|step|iteration)"
     r"|(?:after|since) (?:the )?(?:epoch|step|iteration)[ =:#]*[1-9]\d*|from (?:epoch|step|iteration)[ =:#]*"
     r"(?:[2-9]|[1-9]\d+)|(?:after|in|during|since) the (?:\d+(?:st|nd|rd|th)|second|third|fourth|fifth|tenth)"
     r" (?:epoch|step|iteration))\b",
     " when_later "),
    # "always nan", "constantly infinite": every value the reader saw, so from the start -- unless the
    # text says when it began or what came first (thesaurus.tokens_of_folded lets SEQUENCE win), or "not always"
    # (NOT_ALWAYS)
    (r"\b(?:always|constantly)(?= +(?:" + _SHOWS + r" +)?" + _NONFINITE_AHEAD + ")", " when_every "),
]
# Words that put the nan after something else ("fine for 20 epochs, then always nan", "since epoch 3"):
# with one of them "always" no longer means from the first value.
SEQUENCE = lazy_regex.compile(r"\b(?:then|after|since|later|until|once|for\s+\d+\s+(?:epochs?|steps?|iterations?))\b")
TIMING = "when_"                 # the tokens WHEN folds to
ALWAYS_TOKEN = WHEN[-1][1].strip()
# "not always nan", "isn't always NaN": some values were finite. Folded before the timing, into the mark
# of a failure that comes and goes, so that neither the timing nor the negation takes the nan away.
NOT_ALWAYS = (r"(?:\bnot|\b\w+n['’´`]t|\b(?:is|was|are|were|do|does|did|has|have|had|ca|wo|could|would|should)nt)"
              r"\b +always +(?:" + _SHOWS + r" +)?(?=" + _NONFINITE_AHEAD + ")", " intermittent ")


def timing_of(words: list[str]) -> set[str]:
    """start / early / later, from a text's tokens."""
    return {w[len(TIMING):] for w in words if w.startswith(TIMING)}
