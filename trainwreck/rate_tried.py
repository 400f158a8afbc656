"""A lower learning rate the report says it tried, and what came of it: no help ("failed": the same, or at the same
place), the failure only put off ("delayed", WR-260's tell), or cured ("helped") -- said in English or in the other
languages reports come in, in a list under "what I tried:", as two rates compared, or as an optimizer's default that
worked; and a rate of 0 said to fail the same way, which no update can explain.
"""
from __future__ import annotations

import functools
import itertools
import re
from dataclasses import dataclass

from .sentences import sentence_around, sentences_and_ends, told
from .thesaurus import OPTIMIZER_NAMES, fold_text
from . import lazy_regex

# (an optimizer's name, one list for every reading here: thesaurus.OPTIMIZER_NAMES, Adam's family by its stem --
# adamw, adamax, adam8bit)
_OPTIMIZER = r"(?:adam\w*|" + "|".join(n for n in OPTIMIZER_NAMES if not n.startswith("adam")) + ")"


# A remedy the reporter already tried: lowering the learning rate did not help (evidence against a
# rate that is too high), or did (evidence for it). Read on folded text, where "lr" stands for
# every spelling of the learning rate.
_NO_EFFECT = (r"(?:n'?t|not|never|no longer) (?:help|work|chang|solve|fix|matter)\w*|no matter|\bstill\b|\bsame\b|"
              r"\bchang\w*\s+nothing\b|\b(?:did|does|do)\s+nothing\b|\bnothing\s+changed\b|"
              r"\b(?:made|makes|make)\s+no\s+difference\b|\bno\s+(?:difference|effect)\b|"
              # ("always the same spot", which folding has made "stuck spot")
              r"\bstuck\s+(?:step|epoch|iteration|iter|batch|place|point|spot)\b|"
              # (the place it broke, named again: "it's always batch 118", "again at step ~1450")
              r"\b(?:always|again)\s+(?:at\s+)?(?:the\s+)?(?:step|epoch|iteration|iter|batch)\s+~?\d")
# The verbs of a rate made lower ("lowered", "halving", "dividing the lr by 10"), after a word's start: not
# "individual learning rates"
_LOWERED_VERB = r"\b(?:chang|reduc|lower|decreas|smaller|halv|divid|dropp?(?=ed|ing|\b)|cut|shr[iu]nk)\w*"
# (the rate said made smaller after it too: "I made the learning rate smaller and that fixed it")
_MADE_SMALLER = (r"\b(?:make|made|making|set|setting)\s+(?:the\s+|my\s+)?lr\s+(?:a\s+(?:bit|lot)\s+|much\s+|even\s+|"
                 r"\d+(?:\.\d+)?\s*x\s+|\w+\s+times\s+|an?\s+order\s+of\s+magnitude\s+)?(?:smaller|lower)\b")
# ... and the failure a rate only put off, after "before", "to" or "until": "before it goes nan", "to blow up" (not "to
# converge": a slower cure)
_FAILURE_AFTER = (r"(?:before|to|until)\s+(?:it\s+|the\s+(?:loss\s+|run\s+)?)?(?:goes\s+|turns\s+|becomes\s+|go\s+|turn\s+)?"
                  r"(?:nan|inf|diverge|blows?\s+up|blow\s+up|explod\w*|breaks?|crash\w*|wrong|fall\s+apart|falls\s+apart)\b")
# ... or only put it off: "only delays it", "just makes it blow up later", "takes longer to explode" (WR-260's tell)
_PUT_OFF = (r"\b(?:only|just|merely) (?:delay|postpone)\w*|\b(?:only|just|merely)\s+stretched\s+out\b|\b(?:only|just|merely) makes? it [\w ]{0,30}?(?:later|more "
            r"slowly|slower)\b|"
            # "it only takes more epochs before it blows up", "just takes a few more steps to go nan"
            r"\btakes?\s+(?:a\s+few\s+|many\s+|a\s+lot\s+|a\s+couple(?:\s+of)?\s+|several\s+|some\s+|\d+\s+|two\s+|three\s+)?"
            r"more\s+(?:epoch|step|iteration|iter|batch|update)s?\s+" + _FAILURE_AFTER + r"|"
            # "it takes longer but ends the same way" (the failure said as the same, after the time the run took; not
            # "each epoch takes longer")
            # (not a slower cure: "takes longer but reaches the same result")
            r"\b(?:it|that)\s+(?:just\s+|only\s+)?takes?\s+longer\b(?:(?!\b(?:reach\w*|gets?\s+to|converg\w*|accuracy|f1|"
            r"result|score)\b)[^.;\n]){0,40}?\bsame\s+(?:way|thing|story)\b|"
            # (folded text: a token's spaces doubled)
            r"takes? longer\s+" + _FAILURE_AFTER + r"|\b(?:only|just|merely)\s+takes?\s+longer\b|"
            # "with 0.01 it gets further before it goes up", "it takes longer before it blows up"
            r"\b(?:gets?|got|goes|went|runs?|ran|lasts?|lasted|takes?|took)\s+(?:a\s+bit\s+|a\s+little\s+|much\s+|a\s+lot\s+)?"
            r"(?:further|farther|longer)\s+before\b|"
            # "with lr=3e-5 it gets further, nan at epoch 31" (the failure said after it, in its clause's sentence)
            r"\b(?:gets?|got|goes|went|runs?|ran|lasts?|lasted)\s+(?:a\s+bit\s+|a\s+little\s+|much\s+|a\s+lot\s+)?"
            r"(?:further|farther|longer)\b(?!\s+(?:down|lower))(?=(?:(?!\b(?:no|not|never|without|any)\b|n't\b)[^.;\n]){0,40}?"
            r"\b(?:nan|inf|diverg\w*|explod\w*|blows?\s+up|blew\s+up)\b)|"
            r"\bdelay(?:s|ed)?\s+(?:it|the\s+(?:nan|inf|blow-?up|explosion|divergence|problem))\b|"
            # "it takes longer but goes nan at epoch 23" (not "each epoch takes longer": the failure follows)
            r"takes? longer\b[^.;\n]{0,30}?\b(?:nan|inf|diverg\w*|blows?\s+up|explod\w*)\b|"
            # "just moves the nan to epoch 14", "shifts the blow-up later"
            r"\b(?:moves?|moved|shifts?|shifted|pushe[sd]|push)\s+(?:it|the\s+(?:nan|inf|blow-?up|explosion|divergence|"
            r"problem|(?:breaking|turning|failure|tipping)\s+point|turn))\s+(?:to\s+(?:a\s+)?later|later|back|(?:to\s+)?when_later|to\s+(?:epoch|step|iteration|batch))\b|"
            # "only pushes it a few epochs later", "just moves it 2k steps later" (the count of steps folded or not)
            r"\b(?:moves?|moved|shifts?|shifted|pushe[sd]|push)\s+it\s+(?:\w+\s+){0,3}?(?:later|back)\b")
# (a run again at a rate it names: "I re-ran with lr 1e-4 instead of 1e-3 and it's the same"; not "re-ran with the
# same lr and another seed")
_TRIED = (r"(?:(?<!nothing )(?<!nothing else )(?:" + _LOWERED_VERB + r"|\b(?:tried|trying|even with)\b)"
          r"[^.;\n]{0,25}?\blr\b|"     # (not "nothing else changed (same lr 3e-4)": a rate kept, not one tried)
          r"(?:re-?ran|re-?run|ran it again|retri|retrain)\w*[^.;\n]{0,25}?(?:(?<!same )\blr\b\s*(?:(?:=|:|of|to|at)\s*)?\.?\d|"
          # (folded: a token's spaces are doubled)
          r"\b(?:half|a\s+(?:tenth|third|quarter)\s+of|(?:a\s+)?lower|(?:a\s+)?smaller|reduced|\d+x\s+(?:smaller|lower))"
          r"\s+(?:the\s+)?lr\b)|"
          # (the comparison after the rate: "with a lr ten times smaller", "at an lr 10x lower"; "if I make the lr
          # smaller")
          + _MADE_SMALLER + r"|"
          r"\b(?:with|at|using)\s+(?:an?\s+|the\s+)?lr\s+(?:\d+(?:\.\d+)?\s*x|(?:\d+|two|three|four|five|ten|a\s+hundred|"
          r"hundred)\s+times|an?\s+order\s+of\s+magnitude|by\s+a\s+factor\s+of\s+\d+)\s+(?:smaller|lower)\b|"
          # (or rates below 1 an optimizer was tried with: "I tried Adam with 1e-3, 1e-4 and 1e-5")
          # (or straight after its name: "I tried Adam 1e-4 and 1e-5")
          r"\b(?:tried|trying|re-?ran|ran)\s+(?:it\s+)?(?:" + _OPTIMIZER + r"\s+)?"
          r"(?:with|at)\s+(?:an?\s+)?(?=\d(?:\.\d+)?e-\d|0?\.\d)|"
          r"\b(?:tried|trying)\s+" + _OPTIMIZER + r"\s+(?=\d(?:\.\d+)?e-\d|0?\.0*\d))"
          # (up to what it did, past the rate it replaced: "with lr 1e-3 instead of 3e-3: the jump is in exactly the same
          # place")
          # (each run of spaces after a token it needs: one split of a long run, not every one)
          r"(?:(?:\s+(?:[\w.-]{1,8}\s+)?|[\w.-]{1,8}\s+)instead\s+of\s+\.?\d[\w.-]{0,8})?(?:[^.;\n]|\.\d){0,40}?")
# (not a belief about the rate: "the lr shouldn't matter that much?")
# ... or, further on in the same sentence, "still" and the failure itself ("I lowered the lr from 1e-3 to 1e-4 and added
# clip_grad_norm_(model.parameters(), 1.0) -- still nan at exactly 1,247": a dotted name is no sentence's end)
_STILL_BROKE = (r"(?:(?<!nothing )(?<!nothing else )(?:" + _LOWERED_VERB + r"|\b(?:tried|trying|even with)\b)"
                r"[^.;\n]{0,25}?\blr\b)(?:[^.;\n]|\.(?=\w)){0,120}?\bstill\s+(?:nan|inf|diverge|climb)\b")
# ... or a run at another rate that the words say did the same: "With lr 1e-4 it is exactly the same step, 713", "at lr
# 1e-5 same thing" (the same story, not "the same seed")
_SAME_AT = (r"\b(?:with|at|using)\s+(?:an?\s+|the\s+same\s+(?:seed|data|batch\s+size)\s+and\s+|"
            + _OPTIMIZER + r"\s+)?lr\b\s*(?:(?:=|:|of)\s*)?\.?\d(?:[^.;\n]|\.\d){0,50}?(?:\bit(?:'s|\s+is|\s+was|\s+looks|\s+looked)?\s+"
            r"(?:exactly\s+|just\s+|precisely\s+)?the\s+same\b(?:\s+(?:step|epoch|iteration|iter|batch|place|point)\b)?|\bsame\s+(?:thing|result|story|behaviou?r|step|epoch|"
            r"iteration|curve|place|point)\b|\bidentical\b|"
            # (a batch or an iteration only as the place it broke: numbered, "the same batch (412)", or after a nan in
            # the clause -- not "on the same batch of data it trains fine")
            r"\b(?:nan|inf|break\w*|broke|dies|died|jumps?|jumped|stops?|stopped|terminat\w*|crash\w*|fails?|failed)\b"
            r"[^.;\n]{0,30}?\bsame\s+(?:batch|iter)\b|"
            r"\bsame\s+(?:batch|iter)\b\s*(?:\(\s*)?~?\d|"
            r"\bagain\s+at\s+(?:the\s+)?(?:step|epoch|iteration|iter|batch)\s+~?\d|"
            # ("the nan is still at 7412": the place it broke, numbered, again)
            r"\b(?:nan|inf)\b[^.;\n]{0,20}?\bstill\s+at\s+(?:(?:the\s+)?(?:step|epoch|iteration|iter|batch)\s+)?~?\d|"
            # ("with lr 3e-5 and seed 7 it is still step 812")
            r"\bit(?:'s|\s+is|\s+was)?\s+still\s+(?:at\s+)?(?:the\s+)?(?:step|epoch|iteration|iter|batch)\s+~?\d)")
# ... or the sameness said first: "same with lr 1e-7", "the same thing at lr=1e-5" (not "the same lr", a rate kept)
_SAME_FIRST = (r"\bsame\s+(?:thing\s+|story\s+|result\s+|behaviou?r\s+|again\s+)?(?:with|at|using|for)\s+(?:an?\s+)?"
               r"lr\b\s*(?:(?:=|:|of)\s*)?\.?\d")
SAME_FIRST = lazy_regex.compile(_SAME_FIRST)
TRIED_LR = lazy_regex.compile(_STILL_BROKE + r"|" + _SAME_AT + r"|" + _TRIED + r"(?:" + _NO_EFFECT + r")|"
                              r"\blr\b[^.;\n]{0,15}?(?<!should)(?<!would)(?<!could)(?<!must)"
                              r"(?<!might)(?:no matter|(?:n'?t|not|never) (?:help|matter))|"
                              # (the rate said not to matter before it is named: "nan at the same batch every run, no matter
                              # the learning rate", "regardless of the lr")
                              r"\b(?:no matter|regardless of|irrespective of|independent(?:ly)? of|whatever)\s+"
                              r"(?:(?:what|which|the|my|of)\s+){0,2}lr\b(?!\s*\?)"
                              # (the rate, not its finder, its schedule or its warmup: "whatever the lr finder suggested")
                              r"(?!\s*(?:finder|range|schedul\w*|warm-?up|decay|policy|test)\b)")
PUT_OFF_LR = lazy_regex.compile(_TRIED + r"(?:" + _PUT_OFF + r")")
PUT_OFF = lazy_regex.compile(_PUT_OFF)
LOWER_LR_HELPS = lazy_regex.compile(r"(?:" + _LOWERED_VERB + r"[^.;\n]{0,25}?\blr\b|" + _MADE_SMALLER + r")(?:[^.;\n]|\.\d){0,20}?"
                                    r"(?<!n't )(?<!not )(?:help|fix|solv|work)\w*|" + _LOWERED_VERB + r"[^.;\n]{0,25}?\blr\b"
                                    r"(?:[^.;\n]|\.\d){0,20}?(?<!n't )(?<!not )\b(?:trains?\s+(?:fine|well|normally)|is\s+fine|goes\s+away"
                                    r"|disappears?|converges?)\b")
# Two rates the report compares: "nan after 2 epochs with lr 0.1. With lr 0.01 it trains fine". A sentence that
# names one rate and says the run broke, another that names a lower one and says it ran well: a lower rate helped
# (and a lower rate that broke beside a higher that ran well: it did not).
RATE_NAMED = lazy_regex.compile(r"\blr\b\s*(?:(?:=|:|of|to|at|is|was)\s*)?((?:\d+(?:\.\d*)?|\.\d+)(?:e-?\d+)?)(?![\w.])")
SENTENCE = lazy_regex.compile(r"\.(?!\d)|[;\n!?]|\bbut\b|\bwhile\b|\bwhereas\b")
# (not the fine of "fine-tune", "fine tuning")
RAN_WELL = lazy_regex.compile(r"\b(?:fine(?![- ]?tun)|works?|worked|stable|converges?|converged|trains? (?:well|normally|ok)|no nan|"
                              r"learns?|goes down|decreases)\b|"
                              # ("the same loop trains (2.30 -> 0.4)": trains, said of the run, with nothing after it)
                              r"\btrains?(?= *(?:$|\(|[.,;!]))")
RAN_BADLY = lazy_regex.compile(r"\b(?:nan|inf|diverg\w*|explod\w*|blows? up|climb\w*)\b")


def _later_rate_lowest(later: list[str], folded: str) -> bool:
    """Is a rate named in a sentence that says the run broke later no higher than every rate said to break?"""
    said = [float(m.group(1)) for s in later for m in RATE_NAMED.finditer(s)]
    badly = [float(m.group(1)) for sentence in SENTENCE.split(folded) if RAN_BADLY.search(sentence)
             and not RAN_WELL.search(sentence) for m in RATE_NAMED.finditer(sentence)]
    return bool(said) and bool(badly) and min(said) <= min(badly)


def _rates_compared(folded: str) -> str:
    """"helped" / "failed" / "" from rates named in sentences that say how the run went."""
    well, badly = [], []
    for sentence in SENTENCE.split(folded):
        rates = [float(m.group(1)) for m in RATE_NAMED.finditer(sentence)]
        if len(rates) != 1 or rates[0] <= 0:
            continue
        bad, good = bool(RAN_BADLY.search(sentence)), bool(RAN_WELL.search(sentence))
        if bad != good:
            (badly if bad else well).append(rates[0])
    if well and badly:
        if max(well) < min(badly):
            return "helped"
        if min(well) > max(badly):
            return "failed"
    return ""


# ... or a sentence that names a rate and says the run broke the same way, only later: "lr=0.001 does the exact same
# thing, just later" -- a failure or "the same" said in it, nothing said to go well, and no plan or notice of the
# reporter's ("I'll tune it only later", "I only noticed later that the lr was 10"); read after a lower rate said to
# help, which says more (bounded: a line of many "just"s must not make the search quadratic)
LATER = lazy_regex.compile(r"\b(?:just|only|merely|simply)\s+(?:[\w-]{1,20}\s+){0,4}?later\b|"
                           # ("then does the same thing later")
                           r"\bsame\s+(?:(?:thing|pattern|blow-?up|explosion)\s*)?later\b|"
                           # ("lr=1e-6: same, nan a few batches later": the failure, some steps later -- folded, batches are
                           # steps)
                           r"\b(?:nan|inf|diverge)\s+(?:a\s+(?:few|couple(?:\s+of)?)\s+|\d{1,6}\s+)?(?:more\s+)?"
                           r"(?:step|epoch|iteration)s?\s+later\b")
# ... or "also blows up, just in epoch 11 instead": the later place named, the earlier left to the sentence before --
# with the failure said in it ("the same final loss, it just reaches it at epoch 40 instead" is a slower success)
LATER_INSTEAD = lazy_regex.compile(r"\b(?:just|only|merely|simply)\s+(?:[\w-]{1,20}\s+){0,4}?instead\b(?!\s+of)")
# ... or names the later place: "it falls apart at epoch 19 instead of 8", "after 40 steps instead of 10"
_COUNTER = r"(?:epoch|step|iteration|iter|batch)"
INSTEAD = lazy_regex.compile(r"\b" + _COUNTER + r"\s*(?:~\s*)?(\d+)\s+instead\s+of\s+(?:" + _COUNTER + r"\s*)?~?(\d+)\b|"
                             r"\b(\d+)\s+" + _COUNTER + r"s?\s+instead\s+of\s+(\d+)\b")
# (a rate named as the one tried, beside the lr's name but not after it: "lr was too high so I tried 1e-3"; a rate
# is below 1, and a number after another setting, "weight decay 0.05", is none)
RATE_TRIED = lazy_regex.compile(r"\b(?:tried|trying|try|with|using|to|at)\s+(?:an?\s+|the\s+)?(?:lr\s+(?:of\s+)?)?"
                                r"(?:\d(?:\.\d+)?e-\d+|0?\.\d+)(?![\w.])", re.I)
# a failure in words the folded ones do not hold; a question or a plan
BROKE = lazy_regex.compile(r"\b(?:falls?|fell)\s+apart\b|\b(?:dies|died|dying|breaks?|broke|collapses?|collapsed|crash\w*)\b",
                           re.I)
# ("it's the same pattern", "the same thing happens": the failure said again, in the words of the sentence that moved it)
SAME_AS_BEFORE = lazy_regex.compile(r"\bsame\s+(?:pattern|thing|story|behaviou?r|curve|problem)\b")
PLANNED = lazy_regex.compile(r"\?|\b(?:should|could|would|might|maybe|perhaps|if i|wonder\w*)\b", re.I)
# (or said to happen still: "it still happens, just later")
SAME_FAILURE = lazy_regex.compile(r"\bsame\b|\bstill\s+(?:happens|occurs|comes|shows\s+up)\b|" + RAN_BADLY.pattern)
REPORTERS_OWN = lazy_regex.compile(r"\bi(?:'ll| will| would| noticed| realized| realised| found| added| tune)\b|\bfor now\b|\btune\b")


def _said_later(sentence: str) -> bool:
    # (or put off in other words: "with learning rate 0.01 it gets further before it goes up")
    return bool(RATE_NAMED.search(sentence) and (LATER.search(sentence) and SAME_FAILURE.search(sentence)
                                                 or LATER_INSTEAD.search(sentence) and RAN_BADLY.search(sentence)
                                                 or PUT_OFF.search(sentence) and RAN_BADLY.search(sentence))
                and not RAN_WELL.search(sentence) and not REPORTERS_OWN.search(sentence))


# ... or at a place the sentence names with "instead" and no earlier one, later than every place of that unit the rest
# of the text names (the log's): "lr 0.001: same shape, it explodes around batch 800 instead", beside a log that stops
# at batch 550
PLACE_INSTEAD = lazy_regex.compile(r"\b(?:at|around|near|by)\s+(?:the\s+)?(step|epoch|iteration|iter|batch)\s+~?(\d[\d,]*)"
                                   r"\s+instead\b(?!\s+of)", re.I)


PLACE_NAMED = lazy_regex.compile(r"(?i)\b(step|epoch|iteration|iter|batch)\s+~?(\d[\d,]{0,12})")


def _sentence_spans(text: str) -> list[tuple[str, str, int, int]]:
    """Each sentence of sentences_and_ends with the mark that ends it, and where it starts and ends in the text."""
    out, at = [], 0
    for sentence, end in sentences_and_ends(text):
        out.append((sentence, end, at, at + len(sentence)))
        at += len(sentence) + len(end)
    return out


@dataclass(frozen=True)
class _Places:
    """The places a text names ("step 1830", "batch 550"), computed once per text: by unit, largest number first, with
    where each is; and for each unit and number, the first and last place it is named."""
    largest: dict[str, list[tuple[int, int]]]
    span: dict[tuple[str, int], tuple[int, int]]

    def largest_outside(self, unit: str, start: int, end: int) -> int | None:
        """The largest number of this unit named outside [start, end)."""
        return next((n for n, pos in self.largest.get(unit, []) if not start <= pos < end), None)

    def named_outside(self, unit: str, n: int, start: int, end: int) -> bool:
        first, last = self.span.get((unit, n), (start, start))
        return first < start or last >= end


def _places(text: str) -> _Places:
    largest: dict[str, list[tuple[int, int]]] = {}
    span: dict[tuple[str, int], tuple[int, int]] = {}
    for m in PLACE_NAMED.finditer(text):
        unit, n = m.group(1).lower(), int(m.group(2).replace(",", "") or 0)
        largest.setdefault(unit, []).append((n, m.start()))
        first, _last = span.get((unit, n), (m.start(), m.start()))
        span[(unit, n)] = (first, m.start())
    return _Places({u: sorted(v, reverse=True) for u, v in largest.items()}, span)


def _later_instead(raw: str, start: int, places: _Places) -> bool:
    """Does a sentence (raw, at start in the text) that names a rate and a failure say it came at a later place
    "instead" (PLACE_INSTEAD) than every place of that unit the rest of the text names?"""
    if "instead" not in raw.lower():
        return False
    folded = fold_text(raw)
    if not (re.search(r"\blr\b", folded) and (RAN_BADLY.search(folded) or BROKE.search(raw))) or PLANNED.search(raw):
        return False
    for m in PLACE_INSTEAD.finditer(raw):
        unit, n = m.group(1).lower(), int(m.group(2).replace(",", ""))
        other = places.largest_outside(unit, start, start + len(raw))
        if other is not None and n > other:
            return True
    return False


# A place a sentence names for its failure, beside "the same" it says of a rate it tried: "with lr 0.0005 the same thing
# happens, just around iteration 3000", "the same thing happens, only in epoch 8" (not "still nan after step 2000":
# where it stayed, not where it broke)
PLACE_OF_SAME = lazy_regex.compile(r"(?<!still )(?<!still nan )\b(?:at|around|near|by|about|in)\s+(?:the\s+)?(?:~\s?)?"
                                   r"(step|epoch|iteration|iter|batch)\s+~?(\d[\d,]{0,12})\b", re.I)


def _same_later(text: str) -> bool:
    """Does a told sentence that names a rate lower than another one the text names, and says the same happened at
    it, name for that a place later than every place of that unit the rest of the text names? ("nan by iteration ~400
    at lr 0.005 ... With lr 0.0005 the same thing happens, just around iteration 3000": put off.) Not a question, a
    plan, or "not the same"."""
    folded_text = fold_text(text)
    rates = [float(r.group(1)) for r in itertools.islice(RATE_NAMED.finditer(folded_text), 20)]
    places = None
    for raw, end, start, _stop in _sentence_spans(text):
        folded = fold_text(raw)
        named = RATE_NAMED.search(folded)
        if end == "?" or PLANNED.search(raw) or not named or not re.search(r"(?<!not )(?<!not the )\bsame\b", raw, re.I):
            continue
        if not any(float(named.group(1)) < other for other in rates):
            continue
        places = _places(text) if places is None else places
        for m in itertools.islice(PLACE_OF_SAME.finditer(raw), 5):
            unit, n = m.group(1).lower(), int(m.group(2).replace(",", ""))
            other = places.largest_outside(unit, start, start + len(raw))
            if other is not None and n > other:
                return True
    return False


# (a run the reporter means to make: "I'll try the same with lr 1e-5 tomorrow", "going to try")
REPORTERS_PLAN = lazy_regex.compile(r"(?i)\b(?:i'll|i will|we'll|we will|going to|plan to|want to|tomorrow|next (?:i|we|time))\b")


def _same_first(text: str, folded_text: str) -> bool:
    """Does a told sentence say the same happened at a rate it names, sameness first ("same with lr 1e-7")? Not a
    question, a plan, or "not the same"."""
    if not SAME_FIRST.search(folded_text):
        return False
    for raw, end in sentences_and_ends(text):
        if "same" not in raw.lower():
            continue
        folded = fold_text(raw)
        m = SAME_FIRST.search(folded)
        if m and end != "?" and not PLANNED.search(raw) and not REPORTERS_PLAN.search(raw) \
                and not re.search(r"\bnot\s+(?:the\s+)?$", folded[:m.start()]):
            return True
    return False


def _said_instead(raw: str) -> bool:
    """Does a sentence (as written: folding turns "at epoch 19" into a timing token) say the run broke at a later
    epoch or step "instead of" an earlier one, at a rate it names as tried ("lr=1e-4", "I tried 1e-3")? A failure
    said in it ("the same final loss ... at epoch 40 instead of 12" is a slower success), and no question or plan
    ("should I try lr 1e-4 so the nan shows up at epoch 30 instead of 5?")."""
    later = any(int(now) > int(before) for now, before in
                ((m.group(1), m.group(2)) if m.group(1) else (m.group(3), m.group(4)) for m in INSTEAD.finditer(raw)))
    if not later or PLANNED.search(raw):
        return False
    folded = fold_text(raw)
    rate = RATE_NAMED.search(folded) or (re.search(r"\blr\b", folded) and RATE_TRIED.search(raw))
    return bool(rate and (RAN_BADLY.search(folded) or BROKE.search(raw) or SAME_AS_BEFORE.search(folded))
                and not RAN_WELL.search(folded)
                and not REPORTERS_OWN.search(folded))


# ... or the optimizer's default rate said to work, in a paste that sets a rate above every optimizer's default (0.01:
# Keras's SGD and PyTorch's RMSprop; 1e-3 for Adam and most others): "with RMSprop's default 0.001 the same model gets
# 91%", "with the default Adam() it reached 0.87" -- a lower rate helped. Not a default of something else ("the
# default glorot_uniform"), nor one that broke too, nor a question or a plan.
DEFAULT_RATE = lazy_regex.compile(r"\bdefault\s+(?:[\w'()]{1,20}\s+){0,2}?(?:lr|rate|optimi[sz]er|" + _OPTIMIZER
                                  + r"(?:\(\))?(?!\w))|\b" + _OPTIMIZER + r"'s\s+default\b")
WENT_WELL = lazy_regex.compile(RAN_WELL.pattern + r"|\b(?:gets?|got|reach\w*|hits?)\s+(?:to\s+)?(?:\d+(?:\.\d+)?\s*%|0?\.\d+)")
ABOVE_EVERY_DEFAULT = 0.01


def _default_rate_worked(folded: str) -> bool:
    if not any(float(m.group(1)) > ABOVE_EVERY_DEFAULT for m in RATE_NAMED.finditer(folded)):
        return False
    return any(DEFAULT_RATE.search(sentence) and WENT_WELL.search(sentence) and not RAN_BADLY.search(sentence)
               and not PLANNED.search(sentence) for sentence in SENTENCE.split(folded))


# A learning rate of 0 said to fail the same way ("With lr = 0.0 the output is exactly the same (nan at epoch 0)",
# "with lr=0 the first loss is the same 20869.67", "setting the learning rate to zero gives exactly the same first
# loss"): no update moved the weights, so the forward pass from the
# initial weights, or the data, made the failure -- the lowest rate tried, and it did not help.
# (and both of an actor-critic's, or all of them: "with both learning rates set to 0 the first loss is still 3e8" --
# not one group's, "the backbone learning rates were set to 0", which leaves the head's)
RATE_ZERO = lazy_regex.compile(r"(?:\b(?:lr|learning[ _-]?rate)|\b(?:both|all)\s+(?:the\s+|my\s+)?(?:lrs|learning[ _-]?rates))\s*"
                               r"(?:(?:=|:|of|to|at|is|are|(?:were\s+|are\s+)?set\s+(?:to|at))\s*)?"
                               r"(?:0(?:\.0*)?(?![\d.]|e-|,\d)|zero\b)"
                               # (or said to be there before any update: "with lr=0 it prints 12.6 too, so it's there before any
                               # update" -- not a rate of 0 used to look at the start, "lr=0 to see the loss before any update")
                               r"(?:[^.;\n]|\.\d){0,80}?(?:\b(?:same|still|also|too|even|again|nan|inf)\b|"
                               r"\b(?:it\s+is|it's|is|was)\s+(?:already\s+|still\s+)?there\s+before\s+(?:any|the\s+first)\s+update\b)|"
                               # ("even with lr=0 it prints 1.9e14 on every step": what follows is what it still did)
                               r"\beven\s+(?:with|at|using)\s+(?:an?\s+)?(?:lr|learning[ _-]?rate)\s*(?:(?:=|:|of)\s*)?0(?:\.0*)?"
                               r"(?![\d.]|e-|,\d)|"
                               # (and an optimizer built with a rate of 0: "I ran it with `optax.adam(0.0)` and the step-0 loss is
                               # the same")
                               r"\b(?:optax\.|optim\.|optimizers\.)?" + _OPTIMIZER + r"\((?:[^()\n]{0,40},\s*)?"
                               r"(?:lr\s*=\s*|learning_rate\s*=\s*)?0(?:\.0*)?\s*\)(?:[^.;\n]|\.\d){0,80}?"
                               r"\b(?:same|still|also|too|even|again|nan|inf)\b|"
                               # (and in Chinese: "学习率设成 0 也是一样", "lr=0 也还是 nan")
                               r"(?:学习率|\blr\b)\s*(?:(?:设成|设为|设置为|改成|调成|=|为)\s*)?0(?:\.0*)?(?![\d.]|e-)"
                               r"[^。！？!?\n]{0,12}?(?:也是一样|也一样|还是一样|一样|也是\s*nan|还是\s*nan|也\s*nan)", re.I)


# ... or a command the paste ran with a rate of 0 (`$ python mlp.py --lr 0.0 --epochs 3`), and a loss printed nan or
# inf below it: the run it shows failed with no update
ZERO_RATE_COMMAND = lazy_regex.compile(r"(?m)^[ \t]*(?:[$%>#][ \t]*)?(?:python3?|torchrun|accelerate[ \t]+launch|deepspeed)\b"
                                       r"[^\n]{0,300}?(?P<flag>--(?:lr|learning[-_]rate)(?:[ \t]+|=)0(?:\.0*)?)(?![\d.]|e-)")
NONFINITE_LOSS_BELOW = lazy_regex.compile(r"(?i)\b(?:loss|cost)\b[^\n]{0,20}?(?<![\w.])[-+]?(?:nan|inf)\b")


# One parameter group's rate: "the backbone lr is 0", "the encoder's learning rate to 0", "lr=0 for the embedding
# layer", "0 for the backbone, 1e-3 for the head"
ONE_GROUP = lazy_regex.compile(r"(?i)\b(?:backbone|encoder|embedding|frozen|first \w+|\w+ layers?|\w+'s)\s+(?:lr|learning[ _-]?rate)\b|"
                               r"\b(?:lr|learning[ _-]?rate)s?\b[^.;\n]{0,20}?\bfor\s+(?:the\s+)?(?:backbone|encoder|embedding|"
                               r"frozen|\w+\s+layers?|first\s+\w+)\b|\bbut the \w+\b")


def rate_zero_failed(text: str) -> str:
    """The words that say the run fails the same way at a learning rate of 0 (RATE_ZERO), or the command it ran with a
    rate of 0 above a loss printed nan or inf (ZERO_RATE_COMMAND), or ""."""
    ran = ZERO_RATE_COMMAND.search(text)
    if ran and NONFINITE_LOSS_BELOW.search(text, ran.end()):
        return ran.group("flag")
    m = RATE_ZERO.search(text)
    if m is None:
        return ""
    # (in a question or a plan it is a check not yet run: "should I try lr=0 to see if it is the same?"; nor one
    # group's rate, "the backbone lr is 0 to freeze it", which leaves the others')
    # (its bounds at any dot, a decimal one too: "even with lr=0 it prints 1.9e14 ..., so it can't be the optimizer??"
    # reports a run, and the question after the number asks something else)
    start = max(text.rfind(c, 0, m.start()) for c in ".?!\n") + 1
    ends = [i for i in (text.find(c, m.end()) for c in ".?!\n") if i >= 0]
    sentence = text[start:min(ends) + 1 if ends else len(text)]
    return "" if PLANNED.search(sentence) or ONE_GROUP.search(sentence) else " ".join(m.group(0).replace("`", "").split())


# ... or the failure said to come before any update was made ("No PPO update has happened yet at that point, so the
# weights are still the initial ones", "it is nan before the first optimizer step"): no rate has acted yet either
NO_UPDATE_YET = lazy_regex.compile(r"(?i)\bno (?:\w+ )?(?:updates?|optimi[sz]er steps?|gradient steps?|training steps?) "
                                   r"(?:has|had|have) (?:happened|been (?:done|made|taken|run)|run)(?: yet)?\b|"
                                   r"\b(?:weights|parameters) (?:are|were) still the initial ones\b|"
                                   r"\b(?:happens|breaks|fails|crashes|is nan|are nan|goes nan)\s+(?:already\s+)?before "
                                   r"(?:any|the first) (?:\w+ )?(?:updates?|optimi[sz]er steps?|gradient steps?)\b")


# (not of a part kept still on purpose: "the frozen encoder's weights are still the initial ones")
PART_KEPT = lazy_regex.compile(r"(?i)\b(?:frozen|freez\w*|requires_grad|backbone|encoder|embeddings?|pretrained|of the \w+)\b")


def broke_before_update(text: str) -> str:
    """The words that say the failure came before any update (NO_UPDATE_YET), not in a question or a plan, nor of a
    part kept still; or ""."""
    for m in itertools.islice(NO_UPDATE_YET.finditer(text), 5):
        start, end = sentence_around(text, m.start(), m.end(), stops=".?!\n")
        if not (text[end:end + 1] == "?" or PLANNED.search(text[start:end]) or PART_KEPT.search(text[start:end])):
            return " ".join(m.group(0).split())
    return ""


# ... and in the other languages reports come in (many on PaddlePaddle's and OpenMMLab's trackers in Chinese: "减小学习率
# 也不行", lowering the rate does not help either), the rate lowered and what it did, in one sentence: "Уменьшил lr в 5
# раз (0.01) — то же самое, только позже" (the same, only later: put off), "mit kleinerer Lernrate passiert dasselbe"
# (the same: no help), "j'ai baissé le lr, ça ne change rien", "bajé el learning rate y sigue igual", "降低学习率后只是
# 推迟了" (only put off). The rate's word and a verb or adjective of lowering, either first.
_LR_WORD = (r"(?:\blr\b|learning[ _-]?rate|学习率|скорост\w*\s+обучения|\blernrate\w*|taux\s+d['’]apprentissage|"
            r"tasa\s+de\s+aprendizaje|taxa\s+de\s+aprendizado)")
_LOWERED = (r"(?:уменьш\w*|сниз\w*|сниж\w*|пониз\w*|понижа\w*|verringer\w*|reduzier\w*|gesenkt|senk\w*|verkleiner\w*|"
            r"kleiner\w*|niedriger\w*|baiss\w*|rédui\w*|diminu\w*|plus\s+petit\w*|plus\s+faible|baj\w*|reduj\w*|"
            r"reduc\w*|disminu\w*|menor|reduz\w*|baix\w*|减小|降低|调小|减少|调低|改小|下调)")
LOWER_LR_FOREIGN = lazy_regex.compile(r"(?:" + _LOWERED + r"[^.!?。！？\n]{0,25}?" + _LR_WORD + r"|" + _LR_WORD
                                      + r"[^.!?。！？\n]{0,25}?" + _LOWERED + r")(?P<rest>(?:[^.!?。！？\n]|\.\d){0,120})", re.I)
_LATER_FOREIGN = lazy_regex.compile(r"позже|отсроч\w*|später|plus\s+tard|más\s+tarde|mais\s+tarde|更晚|推迟|延后|晚一些|晚了", re.I)
# ... or at a later place instead of the earlier one: "pasa lo mismo, solo que en la época 7 en vez de la 3" (a number,
# the word, a smaller number; the word alone, "the same step instead of the usual one", is not)
_INSTEAD_FOREIGN = lazy_regex.compile(r"(\d{1,7})\D{0,20}?(?:вместо|(?:an)?statt\b|au\s+lieu\s+d\w*|en\s+(?:vez|lugar)\s+de|"
                                      r"em\s+vez\s+de|而不是)\D{0,12}?(\d{1,7})", re.I)
_SAME_FOREIGN = lazy_regex.compile(r"то\s+же\s+самое|тоже\s+самое|не\s+помог\w*|без\s+изменений|вс[её]\s+равно|"
                                   r"(?:hilft|half|hat)\s+nicht|nicht\s+geholfen|dasselbe|das\s+gleiche|trotzdem|"
                                   r"n['’](?:aide|a\s+pas\s+aidé|y\s+fait)|ne\s+change\s+rien|rien\s+ne\s+change|pareil|la\s+même\s+chose|"
                                   r"no\s+ayud\w*|lo\s+mismo|sigue\s+igual|não\s+ajud\w*|o\s+mesmo|mesma\s+coisa|"
                                   r"也不行|不行|没用|没有用|无效|不管用|还是|依然|仍然|依旧", re.I)


def _lower_rate_foreign(text: str) -> str:
    """"delayed" or "failed" for a lower rate tried in words of another language (LOWER_LR_FOREIGN), else ""."""
    for m in itertools.islice(LOWER_LR_FOREIGN.finditer(text), 20):
        instead = _INSTEAD_FOREIGN.search(m.group(0))
        if _LATER_FOREIGN.search(m.group(0)) or (instead and int(instead.group(1)) > int(instead.group(2))):
            return "delayed"
        if _SAME_FOREIGN.search(m.group(0)):
            return "failed"
    return ""


# A list under a header that says it holds what was tried ("What I tried:", "Things I've tried so far:", "I tried:"):
# each item is a thing tried, though it does not say so ("- lr 0.05 -> still jumps at step 1830")
# (on a line of its own, or ending a line after a sentence: "... has nan weights. What I tried:")
TRIED_HEADER = lazy_regex.compile(r"(?im)(?:^[ \t]*|(?<=[.!?])[ \t]+)(?:(?:what|things?)[ \t]+)?(?:(?:i|we)(?:'ve|[ \t]+have)?[ \t]+)?"
                                  r"(?:already[ \t]+)?tried(?:[ \t]+so[ \t]+far)?[ \t]*:[ \t]*$")
LIST_ITEM = lazy_regex.compile(r"(?m)^([ \t]*(?:[-*•]|\d{1,2}[.)])[ \t]+)")


def _tried_items(text: str) -> str:
    """The text with each item of a list under a "what I tried:" header said to be tried (TRIED_HEADER)."""
    header = TRIED_HEADER.search(text)
    if not header:
        return text
    rest = text[header.end():]
    end = re.search(r"\n[ \t]*\n(?![ \t]*(?:[-*•]|\d{1,2}[.)])[ \t])", rest)    # (the list ends at a paragraph)
    items, after = (rest[:end.start()], rest[end.start():]) if end else (rest, "")
    return text[:header.end()] + LIST_ITEM.sub(r"\1I tried ", items) + after


_MODAL = lazy_regex.compile(r"(?i)\b(?:would|will|might|could|may|can|should)\b|\bnot sure\b|\b(?:helps|fixes|solves|works)\s*$")


# ... or lowered, with no "lr" said and nothing else named as lowered, to a number only a rate is ("I tried lowering to
# 1e-4 and it works", "dropping to 0.001 fixed it"), where the rest of the sentence says it worked and nothing takes it
# back (not "never works", "works no better", "works for a few hundred steps, then nan", "only delays it")
LOWERED_TO_A_RATE = lazy_regex.compile(r"(?i)\b(?:lower|reduc|decreas|dropp?|cut|halv)\w*\s+to\s+"
                                       r"(?:\d(?:\.\d+)?e-\d+|0\.0\d*[1-9]\d*)(?![\d.])(?P<rest>[^.;\n]{0,60})")
RATE_WORKED = lazy_regex.compile(r"(?i)\b(?:it\s+)?(?:works?|worked|helps?|helped|fix(?:es|ed)?|solv(?:es|ed)|trains?\s+(?:fine|well))\b")
WORKED_TAKEN_BACK = lazy_regex.compile(r"(?i)\b(?:never|nothing|no better|not|but|then|only|again|delay\w*|later|"
                                       r"for a (?:few|while))\b|n't\b")


def _lowered_to_a_rate_helped(text: str) -> bool:
    """The words lower something unnamed to a rate's number and say it then worked (LOWERED_TO_A_RATE)."""
    for m in itertools.islice(LOWERED_TO_A_RATE.finditer(text), 5):
        worked = RATE_WORKED.search(m.group("rest"))
        # (what stands between the number and the word that it worked, and just after that word)
        if worked and not WORKED_TAKEN_BACK.search(m.group("rest")[:worked.end() + 20]):
            return True
    return False


@functools.lru_cache(maxsize=8)          # (asked by the context and by the curve's reading of the same text)
def lr_tried(text: str) -> str:
    """"failed" when the text says a lower learning rate did not help (a rate of 0 included), "delayed" when it only
    put the failure off, "helped" when it did, else ""."""
    text = _tried_items(text)
    if rate_zero_failed(text) or broke_before_update(text):
        return "failed"
    if foreign := _lower_rate_foreign(text):
        return foreign
    folded = fold_text(text)
    # (not a question nor a plan: "would a lower rate only delay it?", "I'll try a smaller lr to see if it only
    # delays it")
    told_folded = folded if "?" not in text else fold_text("".join(raw + end for raw, end in sentences_and_ends(text)
                                                                   if end != "?"))
    # (a lower rate asked about is no rate tried: "would lowering lr help?")
    # (nor a guess put as a question, "I guess lowering the lr would help?", "lowering the lr helps?": a question
    # with a modal, or in the present tense, only asks)
    stated = fold_text("".join(raw + end for raw, end in sentences_and_ends(told(text))
                               if not (end == "?" and _MODAL.search(raw)))) if "?" in text else folded
    put_off_said = PUT_OFF_LR.search(told_folded)
    if put_off_said and not REPORTERS_PLAN.search(told_folded, max(0, put_off_said.start() - 60), put_off_said.end()):
        # (a lower rate still that cured it says more: "3e-3 only puts the nan off, 3e-4 trains fine" is a rate too
        # high, which a low enough rate cures; gradients that pile up break at every rate)
        return "helped" if LOWER_LR_HELPS.search(stated) or _rates_compared(folded) == "helped" else "delayed"
    tried = TRIED_LR.search(folded) or (SAME_FIRST.search(folded) if _same_first(text, folded) else None)
    if tried:
        # (unless the same sentences say it broke later instead: "with lr=0.001 it's the same pattern, it just
        # starts going crazy around step 600 instead of 80" puts it off; or that it only took longer: "same with lr
        # 1e-4, it just takes longer")
        rest = re.split(r"\.(?!\d)|[;\n]", folded[tried.end():], maxsplit=1)[0]
        # (not "each epoch just takes longer": a time per epoch, not the failure put off)
        put_off = PUT_OFF.search(rest) and not re.search(r"\b(?:each|every|per)\s+(?:epoch|step|batch|iteration)\b", rest)
        # (the same only at first: "it looks the same for two epochs, then it trains fine and reaches 91%")
        if re.search(r"\bthen\b[^.;\n]{0,40}?\b(?:trains?\s+(?:fine|well|normally)|converges?|works|recovers|"
                     r"reach(?:es)?\s+\d{1,3}(?:\.\d+)?\s*%)", rest) \
                and not re.search(r"\b(?:nan|inf|diverg\w*|explod\w*|never|not|n't|either)\b", rest):
            return "helped"
        # (or "it still happens, just later": the match took the "still", the rest has the "later")
        later = LATER.search(rest) and SAME_FAILURE.search(tried.group(0) + rest)
        return "delayed" if _instead_said(text, folded) or put_off or later or _same_later(text) else "failed"
    if LOWER_LR_HELPS.search(stated) or _default_rate_worked(folded) or _lowered_to_a_rate_helped(told(text)):
        return "helped"
    # (a rate and "still" at the place it broke, the place named elsewhere too: "lr 1e-4 -> still epoch 3 batch 503")
    if _still_at_named_place(text):
        return "failed"
    compared = _rates_compared(folded)
    # (a lower rate that broke later is one that put the failure off, whatever a higher one did in another version:
    # "the per-sample version works fine at lr=0.01 ... I tried lr=0.001 and it just explodes later")
    later = [sentence for sentence in SENTENCE.split(told_folded) if _said_later(sentence)]
    # (and the rate that broke later the lowest of those that broke: a higher one that broke later says nothing of a
    # lower rate putting the failure off)
    later_said = bool(later) and (compared != "failed" or _later_rate_lowest(later, folded))
    if compared == "helped" or compared and not later_said:
        return compared
    # (or rates listed with one place: "lr 3e-4: 18431. lr 1e-4: 18431")
    if not later_said and rates_at_one_place(text, folded):
        return "failed"
    # (not a question: "is it normal that lr 0.01 goes nan a few steps later than lr 0.1?")
    if later_said:
        return "delayed"
    return "delayed" if _instead_said(text, folded) else ""


def _instead_said(text: str, folded: str) -> bool:
    if "instead" not in folded:
        return False
    places = _places(text)
    return any(_said_instead(raw + end) or _later_instead(raw, start, places)
               for raw, end, start, _stop in _sentence_spans(text))


def lr_tried_unmoved(text: str) -> bool:
    """Does the lower rate that did not help (TRIED_LR) say the failure stayed the same ("I re-ran with lr 1e-4 and
    it's the same")? Then it did not move: no sign of a failure that a lower rate only puts off."""
    m = TRIED_LR.search(fold_text(text))
    return bool(m and re.search(r"\b(?:same|identical)\b", m.group(0)))


def lr_tried_same_place(text: str) -> bool:
    """Does the lower rate that did not help say the run broke at the same place ("With lr 1e-4 it is exactly the same
    step, 713", "lowered the lr, same epoch")? A failure that does not move with the rate at all, not one put off.
    Or one that says it still broke at a place the text names elsewhere too ("at step 1830 bang" ... "lr 0.05 -> still
    jumps at step 1830")."""
    text = _tried_items(text)
    folded = fold_text(text)
    m = TRIED_LR.search(folded)
    # (a rate and "still" at the place it broke: a try, however worded; or rates listed with one place)
    if _still_at_named_place(text) or rates_at_one_place(text, folded):
        return True
    # (the match stops at its first "same"; the place is said after it, in the same sentence: "the jump is in exactly the
    # same place")
    # (or before it, in its own sentence: "nan at exactly the same batch every run, no matter the lr")
    begin = max((e.end() for e in re.finditer(r"\.(?!\d)|[;\n]", folded[:m.start()])), default=0) if m else 0
    said = folded[begin:m.end() + len(re.split(r"[.;\n]", folded[m.end():m.end() + 20], maxsplit=1)[0])] if m else ""
         # ("the nan is still at 7412", beside "at iteration 7412": the place the text names)
    return bool(m and re.search(r"\b(?:same|stuck)\s+(?:step|epoch|iteration|iter|batch|place|point|spot)\b|"
                                r"\b(?:always|again|still)\s+(?:at\s+)?(?:the\s+)?(?:step|epoch|iteration|iter|batch)\s+~?\d",
                                said))


# (the place said right after "still" or "again", in the same clause: "still jumps at step 1830"; not "loss at batch 150
# is 0.55", a value at a place)
# (or the number alone, "the nan is still at 7,412", where the text names that number as a place elsewhere)
# (or the place with no "at", its unit named, in a list's arrow or colon form: "lr 3e-5 -> still epoch 2, batch 118" --
# not "it is still in epoch 3, no nan so far", a run still going)
PLACE_AT = lazy_regex.compile(r"\b(?:still|again)\b[^.;,\n]{0,30}?\b(?:at|around|near)\s+(?:the\s+)?"
                              r"(?:(?P<unit>step|epoch|iteration|iter|batch)\s+)?~?(?P<n>\d{1,3}(?:,\d{3})+|\d+)(?![\d.,]\d)|"
                              r"(?:->|→|:)\s*still\s+(?P<named>step|epoch|iteration|iter|batch)\s+~?(?P<n2>\d{1,3}(?:,\d{3})+|\d+)"
                              r"(?![\d.,]\d)|"
                              # (or "again" after the place: "lr 2e-5 -> 5e-6: nan at iteration 2377 again")
                              r"\b(?:at|around|near)\s+(?:the\s+)?(?:(?P<unit3>step|epoch|iteration|iter|batch)\s+)?~?"
                              r"(?P<n3>\d{1,3}(?:,\d{3})+|\d+)(?![\d.,]\d)\s+again\b", re.I)
PLACE_UNITS = ("step", "epoch", "iteration", "iter", "batch")
PLACE_BARE_MIN = 50


# Rates listed each with the place the run broke, the place the same for all: "lr 3e-4: 18431. lr 1e-4: 18431", "lr
# 1e-3 -> nan at step 700, lr 1e-4 -> nan at step 700". A lower rate that broke where the higher one did: the failure does
# not move with the rate. Only a colon or an arrow between rate and place, and the place closing its clause, or a nan or
# an inf said at it; the place a step's count (PLACE_BARE_MIN or more) or an epoch; not a count of something after it
# ("lr 0.001: 2000 epochs", "lr 1e-3: batch 64"), nor in a text that says nothing broke, nor in a clause that says the
# run went well ("lr 1e-4: 5000 steps, converged fine").
_PLACE_NUMBER = r"(?:\d{1,3}(?:,\d{3})+|\d+)(?![\d.,]?\d)"
RATE_AT_PLACE = lazy_regex.compile(r"(?im)\b(?:lr|learning[ _]rate)\s*(?:[=:]\s*)?(?P<rate>\d+(?:\.\d+)?(?:e-?\d+)?|\.\d+)\s*"
                                   r"(?:(?::|->|→|=>)\s*(?:(?P<unit>step|iteration|iter|epoch)\s+)?(?P<n>" + _PLACE_NUMBER
                                   + r")(?=[ \t]*(?:[.;,()/]|$|\s(?:and|then|again|too)\b))|"
                                   r"(?:(?::|->|→|=>|,)\s*)?(?:it\s+)?(?:(?:goes|went|turns|is)\s+)?(?:nan|inf)\s+(?:at|@)\s+"
                                   r"(?:(?P<unit2>step|iteration|iter|epoch)\s*)?(?P<n2>" + _PLACE_NUMBER + r"))")


def rates_at_one_place(text: str, folded: str | None = None) -> bool:
    """Two rates or more, each listed with the place the run broke, and the place one (RATE_AT_PLACE). (`folded`: the
    text's fold_text, where the caller has it already.)"""
    # (or in BROKE's words: "both runs crash", "training dies", "it falls apart")
    if not (RAN_BADLY.search(fold_text(text) if folded is None else folded) or BROKE.search(text)):
        return False
    at: dict[str, set[float]] = {}
    for m in itertools.islice(RATE_AT_PLACE.finditer(text), 20):
        n, unit = (m.group("n"), m.group("unit")) if m.group("n") else (m.group("n2"), m.group("unit2"))
        clause = re.split(r"[.;\n]|\blr\b", text[m.end():m.end() + 80], maxsplit=1)[0]
        if RAN_WELL.search(fold_text(clause)):
            continue
        if (unit or "").lower() == "epoch" or int(n.replace(",", "")) >= PLACE_BARE_MIN:
            at.setdefault(n.replace(",", ""), set()).add(float(m.group("rate")))
    return any(len(rates) >= 2 for rates in at.values())


def _still_at_named_place(text: str) -> bool:
    """A sentence that names a rate and says the run still (or again) broke at a place -- step 1830 -- that the rest of
    the text names too, as the place it broke."""
    places = None
    for sentence, _end, start, stop in _sentence_spans(text):
        if not PLACE_AT.search(sentence) or not re.search(r"\blr\b", fold_text(sentence)) \
                or re.search(r"(?i)\bno\s+(?:nan|inf)\b|\bso\s+far\b|\byet\b|\bfine\b(?![- ]?tun)", sentence):
            continue
        places = _places(text) if places is None else places
        for m in PLACE_AT.finditer(sentence):
            n = int((m.group("n") or m.group("n2") or m.group("n3")).replace(",", ""))
            unit = m.group("unit") or m.group("named") or m.group("unit3")
            if any(places.named_outside(u, n, start, stop) for u in ((unit.lower(),) if unit else PLACE_UNITS)):
                return True
            # (or a bare count, PLACE_BARE_MIN or more, that the rest of the text gives too -- a progress bar's
            # `4180/30000`: "lr 1e-6: still nan at 4180", "nan at iteration 4180 again": a step's count, not an epoch's)
            # (a count as a count prints: not a size's side, `512x512`, nor a shape's)
            bare = r"(?<![\d.,x\u00d7])" + str(n) + r"(?![\d]|\.\d|\s*[x\u00d7]\s*\d)"
            if (not unit or unit.lower() != "epoch") and n >= PLACE_BARE_MIN and (re.search(bare, text[:start])
                                                                                 or re.search(bare, text[stop:])):
                return True
    return False
