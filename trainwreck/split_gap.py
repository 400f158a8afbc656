"""A model that scores well on its own validation or test split and badly on new data.

The split's score did not carry over to the new data: no entry covers that (every entry is about training that goes
wrong), and diagnose.py says so in place of an entry.
"""
from __future__ import annotations

import re

from .run_said import WRAPPED
from .sentences import sentences_and_ends
from . import lazy_regex

# The split's own score said high: a share of 90% or more (or 0.9 or more) of a metric where higher is better, named
# with its split -- "test accuracy 98.7%", "eval mIoU 0.93", "accuracy on the test set: 96%", "97.9% validation
# accuracy" -- or held-out figures said to be too good to be true. (A share written first must be a percentage and
# the last number before the next clause: in "train acc 99% val acc 61%" the 99% is the training set's.)
_SPLIT = (r"(?:val(?:idation)?|test|eval(?:uation)?|held[- ]?out|hold[- ]?out|dev)"
          r"(?:[ _-]?(?:set|split|data))?")
_METRIC = (r"(?:(?:top-?1[ _])?acc(?:uracy)?|oa|overall[ _]accuracy|m?iou|mean[ _]iou|dice|f1(?:[ _-]?score)?|auc|"
           r"auroc|roc[ _-]?auc|map(?:@[\d.]+)?|r2|kappa)")
# (what a split's figures are called where they are said to be too good: not "the eval script")
_FIGURES = rf"(?:{_METRIC}|errors?|scores?|results?|numbers|figures|metrics?|mae|rmse)"
_PERCENT_HIGH = r"(?<![\d.,])(?:9\d(?:\.\d+)?[ \t]?(?:%|percent\b)|100(?:\.0+)?[ \t]?%)"
_HIGH = rf"(?:{_PERCENT_HIGH}|(?<![\d.,])(?:0?\.9\d*|1\.0+)(?![\d%]))"
SPLIT_SCORES_HIGH = lazy_regex.compile(
    rf"(?i)\b{_SPLIT}[ _]{_METRIC}\b['\"]?[^.\n\d]{{0,20}}?{_HIGH}"
    rf"|\b{_METRIC}\b[ \t]+on[ \t]+(?:(?:the|its|our|my)[ \t]+)?{_SPLIT}\b[^.\n\d]{{0,6}}?{_HIGH}"
    rf"|{_PERCENT_HIGH}[ \t]+(?:on[ \t]+(?:(?:the|its|our|my)[ \t]+)?)?{_SPLIT}\b(?:[ _]{_METRIC}\b)?(?![^.;\n\d]{{0,20}}\d)"
    rf"|\b{_SPLIT}[ _]{_FIGURES}\b[^.\n]{{0,60}}?\btoo good to be true\b"
    rf"|\btoo good to be true\b[^.\n]{{0,60}}?\b{_SPLIT}[ _]{_FIGURES}\b")

# New data, named as such: an adjective of newness and a noun of data ("on new X-rays", "from a second, independent
# recording", "on real-world photos", "on last week's tweets"), data that came later, or the model in production.
_NEW = (r"(?:new|unseen|fresh|real[- ]world|real|independent|external|ood|out[- ]of[- ]distribution|incoming|live|"
        r"other|another|different|second|later|recent|last (?:week|month|year)'s)")
_DATA = (r"(?:data(?:set)?|images?|photos?|pictures?|samples?|examples?|patients?|users?|customers?|scans?|x-rays?|"
         r"recordings?|cohorts?|sites?|hospitals?|clinics?|scenes?|tiles?|videos?|frames?|texts?|documents?|tweets?|"
         r"sentences?|speakers?|subjects?|traffic|inputs?|slides?|cases?|trajector(?:y|ies)|sessions?|domains?|"
         r"cameras?|devices?|records?|transactions?|molecules?|proteins?|cities|regions?|stations?|batch of data)")
NEW_DATA = lazy_regex.compile(rf"(?i)\b(?:on|from|for|with|to|in)[ \t]+(?:[\w',-]+[ \t]+){{0,3}}?{_NEW}[ \t]+"
                              rf"(?:[\w'-]+[ \t]+){{0,2}}?{_DATA}\b|\b{_DATA}[ \t]+(?:that|which|who)[ \t]+came[ \t]+in[ \t]+later\b"
                              r"|\bin production\b")
# (new data the model is trained on -- "fine-tuned on new scans", "retrained with fresh data" -- are a training run of
# their own, which the entries are about)
TRAINED_ON_NEW = lazy_regex.compile(rf"(?i)\b(?:fine-?tun\w*|re-?train\w*|train\w*|continu\w* training)\s+(?:it\s+|the model\s+)?"
                                    rf"(?:on|with)\s+(?:[\w',-]+\s+){{0,3}}?{_NEW}\b")
# ... said to go badly there: with a score GAP or more below the split's, or, where no score is given, in words that are
# not denied nor only supposed ("not bad", "no worse", "doesn't fail", "would fail", "used to be bad" say no such
# thing). Ten points is far beyond the sampling error of a held-out score (about 1.7 points for 90% on 300 examples),
# and a gap that size is what the new data's user meets.
WENT_BADLY = lazy_regex.compile(r"(?i)\b(?:garbage|bad(?:ly)?|poor(?:ly)?|terrible|awful|worse|useless|fails?|failing|"
                                r"falls? apart|collapses?|(?:at|around|near) chance)\b")
# (a share is a score only after a metric's name or a verb of scoring: not a learning rate, a loss, an error rate or
# a time: "lr 0.0001", "the loss is 0.35", "0.5 s per image")
_SHARE = r"(?<![\d.,])(?:(?P<percent>\d{1,3}(?:\.\d+)?)[ \t]?(?:%|percent\b)|(?P<fraction>0?\.\d+|1\.0+)(?![\d%]))"
SHARE = lazy_regex.compile(_SHARE)
# (nor a difference: "drops by 4%", "3 points lower")
SCORE = lazy_regex.compile(rf"(?i)\b(?:{_METRIC}|gets?|got|getting|scores?|scored|scoring|reach(?:es|ed)?|drops? to|dropped to|"
                           rf"falls? to|fell to)\b(?:(?!\bby\b)[^.\n\d]){{0,15}}?{_SHARE}"
                           r"(?![ \t]*(?:lower|higher|more|less|points?|pp|worse|better)\b)")
# (sentences.denied_before's negators, and those it leaves out that deny a result -- "hardly", "nothing", "far from" --
# and the words that only suppose one, within the few words before it)
NOT_SO = lazy_regex.compile(r"(?i)(?:\b(?:not|no|never|nothing|hardly|neither|nor|without|far from|would|could|might|may|"
                            r"used to)\b|n't\b)[^.;,\n]{0,12}$")
MODAL = lazy_regex.compile(r"(?i)\b(?:will|would|could|can|should|might|may)\b|\bwon't\b")
GAP = 0.1


def _share(m: re.Match) -> float:
    return float(m.group("percent")) / 100 if m.group("percent") else float(m.group("fraction"))


def _badly(said: str) -> bool:
    return any(not NOT_SO.search(said[:m.start()]) for m in WENT_BADLY.finditer(said))


def new_data_gap(prose: str) -> tuple[str, str] | None:
    """(the split's high score, the sentence about new data), both quoted as the report says them, where the report says
    its model scores high on its own held-out split and badly on new data; None otherwise. A question counts only
    with a score in it and no modal verb ("why does it get 58% on new X-rays?"): "will it fail on new data?", "will it
    get 62% on new patients?" tell no result."""
    high = SPLIT_SCORES_HIGH.search(prose)
    if not high:
        return None
    top = max((_share(m) for m in SHARE.finditer(high.group(0))), default=None)
    for said, end in sentences_and_ends(WRAPPED.sub(" ", prose)):
        if not NEW_DATA.search(said) or TRAINED_ON_NEW.search(said) or (end == "?" and MODAL.search(said)):
            continue
        own = SPLIT_SCORES_HIGH.sub(" ", said)      # (the new data's figures: not the split's, set beside them)
        scores = [_share(m) for m in SCORE.finditer(own)]
        # (a score given decides; words decide only where no figure near the split's says the drop was small:
        # "slightly worse, 94.5%" beside 96% is no gap)
        if scores:
            worse = top is not None and any(round(top - score, 9) >= GAP for score in scores)
        else:
            near = top is not None and any(0 <= round(top - _share(m), 9) < GAP for m in SHARE.finditer(own))
            worse = end != "?" and _badly(said) and not near
        if worse:
            return " ".join(high.group(0).split()), " ".join(said.split())[:160]
    return None
