"""A model that scores well on its own validation or test split and badly on new data.

The training did what it was asked; the split did not measure what the new data ask of the model. No entry covers
it (every entry is about training that goes wrong): diagnose.py says so in place of an entry.
"""
from __future__ import annotations

import re

# The split's own score said high: a share of 90% or more (or 0.9 or more) of a metric where higher is better, named
# with its split ("test accuracy 98.7%", "eval mIoU 0.93", "97.9% validation accuracy", "val_f1: 0.95"), or words
# that say the held-out figures are suspiciously good.
_SPLIT = r"(?:val(?:idation)?|test|eval(?:uation)?|held[- ]?out|dev)(?:[ _-]?(?:set|split|data))?"
_METRIC = (r"(?:acc(?:uracy)?|oa|overall[ _]accuracy|m?iou|mean[ _]iou|dice|f1(?:[ _-]?score)?|auc|auroc|roc[ _-]?auc|"
           r"map|r2|kappa|precision|recall)")
_HIGH = r"(?<![\d.])(?:9\d(?:\.\d+)?[ \t]?%|100(?:\.0+)?[ \t]?%|0?\.9\d*(?![\d%])|1\.0+(?![\d%]))"
SPLIT_SCORES_HIGH = re.compile(
    rf"(?i)\b{_SPLIT}[ _]{_METRIC}\b['\"]?[^.\n\d]{{0,20}}?{_HIGH}"
    rf"|{_HIGH}[ \t]+(?:on[ \t]+(?:the[ \t]+|its[ \t]+|our[ \t]+|my[ \t]+)?)?{_SPLIT}\b(?:[ _]{_METRIC}\b)?"
    r"|\btoo good to be true\b")

# New data, named as such ("on new tweets", "on 40 patients that came in later", "from a second, independent
# recording", "on real-world photos"), in a sentence that says it went badly there: in words, or with a score 10 points
# or more below the split's (a share, as 71% or 0.71).
_NEW = (r"(?:new|unseen|fresh|real[- ]world|independent|external|later|recent|incoming|out[- ]of[- ]distribution|"
        r"production|last (?:week|month|year)'s)")
NEW_DATA = re.compile(rf"(?i)\b(?:on|from|for|with|to)[ \t]+(?:[\w',-]+[ \t]+){{0,4}}?{_NEW}\b")
WENT_BADLY = re.compile(r"(?i)\b(?:garbage|bad|poor(?:ly)?|terrible|awful|worse|useless|fails?|failing|falls? apart|"
                        r"collapses?|(?:much|far) (?:lower|worse)|near chance)\b")
SHARE = re.compile(r"(?<![\d.])(?:(?P<percent>\d{1,3}(?:\.\d+)?)[ \t]?%|(?P<fraction>0?\.\d+)(?![\d%]))")
GAP = 0.1
SENTENCE = re.compile(r"[^.!?\n]+(?:\.\d[^.!?\n]*)*")
# (a question of what the model will do, with no result in it, says nothing went badly: "will it do well on new data?")
HYPOTHETICAL = re.compile(r"(?i)\b(?:will|would|could|can|should|might)\b")


def _share(m: re.Match) -> float:
    return float(m.group("percent")) / 100 if m.group("percent") else float(m.group("fraction"))


def new_data_gap(prose: str) -> tuple[str, str] | None:
    """(the split's high score, the sentence about new data), both quoted as the report says them, where the report says
    its model scores high on its own held-out split and badly on new data; None otherwise."""
    high = SPLIT_SCORES_HIGH.search(prose)
    if not high:
        return None
    top = max((_share(m) for m in SHARE.finditer(high.group(0))), default=None)
    for sentence in SENTENCE.finditer(prose):
        said = sentence.group(0)
        if not NEW_DATA.search(said):
            continue
        lower = top is not None and any(round(top - _share(m), 9) >= GAP for m in SHARE.finditer(said))
        asked = prose[sentence.end():sentence.end() + 1] == "?" and HYPOTHETICAL.search(said)
        if (WENT_BADLY.search(said) or lower) and not asked:
            return " ".join(high.group(0).split()), " ".join(said.split())[:160]
    return None
