"""A report's sentences, and what they deny: where a sentence begins and ends, the text with its yes/no questions
left out (what it tells, not what it asks), the lines that are the reporter's sentences rather than code or a log's,
and a word denied by a negator just before it ("no nan", "to avoid NaN/inf", "I do not use grad_req='add'").
"""
from __future__ import annotations

import functools
import re

from .thesaurus import fold_text
from . import lazy_regex


# A sentence's end, kept by a split: a full stop (not a decimal point, nor the last of "i.e." or "e.g.", which go on with
# the sentence), a semicolon, a line's end, "!" or "?"
SENTENCE_ENDS = lazy_regex.compile(r"((?<!\b[iI]\.e)(?<!\b[eE]\.g)\.(?![\w(])|[;\n!?])")   # (a dot between words is a name's: `x.half()`)


@functools.lru_cache(maxsize=8)
def _stop_pattern(stops: str) -> re.Pattern:
    return re.compile("[" + re.escape(stops.replace(".", "")) + "]" + (r"|\.(?!\w)" if "." in stops else ""))


# The words of a thing not done but planned, advised or denied ("I should check", "I will normalize", "I haven't
# checked"), which the readings of a check or a step the report says it made leave out (each adds its own doubts)
UNDONE = r"should|will|going to|plan\w*|want to|haven'?t|have not|didn'?t|did not"


# A negation in the words just before a place, within its sentence (a dot between words, `tf.GradientTape`, ends none):
# "no nan", "I do not use grad_req='add'", "I don't use a custom loop with tf.GradientTape"
# (a dot right before the place is a name's too: the window ends there, so its lookahead cannot see the letter after)
NEGATION_BEFORE = lazy_regex.compile(r"(?i)(?:\b(?:no|not|never|without|nor)\b|n't\b)(?:[^.!?;\n]|\.(?=\w))*\.?$")


def denied_before(text: str, at: int, reach: int = 30) -> bool:
    """Is what stands at text[at:] denied by a negation within `reach` characters before it, in its sentence?"""
    return NEGATION_BEFORE.search(text, max(0, at - reach), at) is not None


def sentence_around(text: str, start: int, end: int, reach: int = 300, stops: str = ".;\n") -> tuple[int, int]:
    """Where the sentence that holds text[start:end] begins and ends, looked for within `reach` characters of it (a
    text with no sentence end must not make each match read all of it): the stops are its ends -- a full stop only
    where no digit or letter follows it ("lr 0.1", `df.isna` end nothing)."""
    low, high = max(0, start - reach), min(len(text), end + reach)
    stop = _stop_pattern(stops)
    begin = max((m.end() for m in stop.finditer(text, low, start)), default=low)
    after = stop.search(text, end, high)
    return begin, after.start() if after else high


def sentences_and_ends(text: str) -> list[tuple[str, str]]:
    """The text's sentences, each with the mark that ends it ("?" for a question; "" for the last)."""
    parts = SENTENCE_ENDS.split(text)
    return list(zip(parts[::2], parts[1::2] + [""]))


NEGATORS = frozenset("no not nothing none never without nor".split())


# ... and the verbs that keep a thing away ("GradScaler is there to avoid NaN/inf")
KEPT_AWAY = NEGATORS | {"avoid", "avoids", "avoiding", "prevent", "prevents", "preventing"}


def negated(words: list[str], i: int, negators: frozenset = NEGATORS) -> bool:
    """Is the i-th word denied by a negator among the three words before it?"""
    return bool(negators & set(words[max(0, i - 3):i]))


def said_unnegated(text: str, wanted: set[str]) -> bool:
    """Does the text say one of these words (folded) with no negator among the three words before it ("no NaNs", "I
    never get any NaN", "to avoid NaN/inf")?"""
    words = re.findall(r"[a-z_']+", fold_text(text))
    return any(word in wanted and not negated(words, i, KEPT_AWAY) for i, word in enumerate(words))


# A yes/no question ("Is fp16 broken?", "Are these messages a problem?", "..., is my model diverging?") asks
# whether something failed; it does not say it did (a "why" question does: "why is my loss nan?"), though a nan it
# names was printed.
# (also after a title's dash or colon: "'gradient overflow detected' NOTE lines - is my training broken?"; and after
# the conjunction that opens its clause: "it does fall, but is the model exploding at init?")
# (and its negative form, "isn't that exploding already?", "shouldn't ZeRO-2 keep it from diverging?" -- within its
# clause, and not the verbs and articles that open a statement with no subject, "Don't know why it diverges, any
# idea?", "Haven't changed the data", "Wasn't a problem in fp32, and now it diverges, any idea?")
_STATED_AFTER = r"(?:know|think|get|see|understand|care|matter|work|help|seem|mind|find|want|need|change\w*|touch\w*|a|an)"
# (after a conjunction only with its subject after the verb: "but is the model exploding?" asks, "but is exploding
# now after step 150, any idea?" reports, its subject left out)
CONJUNCTION = r"(?:but|and|so|or)"
_ASKED_AFTER_CONJUNCTION = (CONJUNCTION + r"[ \t]+(?=(?:is|are|was|were|do|does|did|should|could|would|has|have|can|will)"
                            r"[ \t]+(?:it|this|that|these|those|the|my|our|your|its|we|they|he|she|you|there|i|[a-z]+'s)\b)")
YES_NO = lazy_regex.compile(r"(?:^|(?<=[.!?\n,;:\-\u2013\u2014]))[ \t]*(?:" + _ASKED_AFTER_CONJUNCTION + r")?(?:(?:is|are|was|were|do|does|did|should|could|would|has|"
                            r"have|am|can|will|may|might)(?![\w'\u2019])[^.!?\n]{0,400}\?|(?:is|are|was|were|do|does|did|should|"
                            r"could|would|has|have|ca|wo)n['\u2019]t(?![ \t]+" + _STATED_AFTER + r"\b)[^.!?\n,;]{0,400}\?)")


@functools.lru_cache(maxsize=8)      # (asked of one report's text by many readings: computed once)
def told(text: str) -> str:
    """The text, lowercased, with its yes/no questions left out: what it tells, not what it asks."""
    return YES_NO.sub(" ", text.lower())


# A line of code or of a log rather than of the reporter's sentences: a call (a name right before its bracket), an
# assignment, brackets or braces, or an indented block (a sentence's "(as here)" or "; and" is prose)
_CODE_START = r"^(?:[ \t]{4}|\t|>>>|\$ )"          # indented, a prompt's
# (or a log's line of fields, a name and a number between bars, two or more: Megatron-LM's `| lm loss: 7.41E+00 |
# ... | number of nan iterations: 0 |`, whose "nan" names a field, a count of skipped iterations -- no sentence of the
# report's that says the run went nan)
CODE_LINE = lazy_regex.compile(r"\w\(|=|[{}\[\]]|(?:\|[^|\n]{0,60}?:[ \t]*-?\d[^|\n]{0,30}){2}\||"
                               # (or fairseq's, each a name and its value with no colon: `| loss 4.871 | nll_loss 3.102 |`)
                               r"(?:\|[ \t]*[A-Za-z_]\w{0,30}[ \t]+-?\d[\d.]*[ \t]*){2}\||" + _CODE_START)
CODE_START = lazy_regex.compile(_CODE_START)


# A line that holds a little code among many words is a sentence ("When I lowered the lr to 1e-4 the nan appears at
# epoch 31", "NaN with log(softmax) + nll_loss once the model gets good"): PROSE_WORDS words or more, PROSE_SHARE of
# its tokens or more. Words are letters only, not a name called or assigned (`log(`, `lr=`), nor a dotted one.
PROSE_WORDS, PROSE_SHARE = 8, 0.7
_TOKEN = lazy_regex.compile(r"\S+")
# (one run of letters, then maybe an apostrophe's: two runs that may split one word backtrack over every split, a
# 32 kB token took 18 s)
_PROSE_WORD = lazy_regex.compile(r"[A-Za-z][a-z]*(?:'[a-z]*)?[,.;:!?]?")


def mostly_prose(line: str) -> bool:
    """Is the line a sentence of the report's (most of its tokens words), not code or a log's line?"""
    if CODE_START.match(line):
        return False
    tokens = _TOKEN.findall(line)
    words = sum(1 for t in tokens if _PROSE_WORD.fullmatch(t))
    return words >= PROSE_WORDS and words >= PROSE_SHARE * len(tokens)


def sentences_only(text: str) -> str:
    """The lines of the text that are the reporter's sentences: not code, not a log's lines, not inside ``` fences."""
    out, fenced = [], False
    for line in text.split("\n"):
        if line.lstrip().startswith("```"):
            fenced = not fenced
            continue
        if not fenced and (not CODE_LINE.search(line) or mostly_prose(line)):
            out.append(line)
    return "\n".join(out)


def rounding_of(written: str) -> float:
    """Half the last place a number is written to: "0.6" stands for 0.55 to 0.65 (0.05), "0.60" for 0.595 to 0.605."""
    return 0.5 * 10 ** -len(written.strip().rstrip("%").strip().partition(".")[2])
