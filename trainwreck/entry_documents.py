"""The entries as documents, for matching a report's words: each entry's document is made of its title, summary,
phrases, declared messages and Symptom and Where-it-shows-up sections, each part weighted (FIELDS), and the report is
scored against each with Okapi BM25 (Robertson and Zaragoza, 2009). The catalogue is tens of documents, so the
formula is computed here directly (see docs/how-diagnose-decides.md for the comparison with rank_bm25 that chose this). And the
report's own words for the terms it shares with an entry (words_for).
"""
from __future__ import annotations

import math
import re
from collections import Counter

from .entry import Entry
from .thesaurus import tokens_many
from .timing_words import TIMING
from . import lazy_regex


# How much each part of an entry counts in its document: the phrases are written as the words
# people use for the failure; the title and summary name it; the sections explain it, and their
# incidental words (a snippet's numbers, the names of other entries' failures) pull the match
# around, so they count for less.
FIELDS = {"title": 2.0, "summary": 2.0, "phrases": 3.0, "messages": 1.0, "Symptom": 1.0, "Where it shows up": 1.0}


_WRAP = lazy_regex.compile(r"(?<!\n)\n(?!\n)")


def section(entry: Entry, name: str) -> str:
    """A section of an entry as prose: the lines a paragraph is wrapped at joined (a phrase such as "during
    training" can be cut by the wrap; a line break in a log is a clause's end, one in Markdown is not)."""
    return _WRAP.sub(" ", entry.sections.get(name, ""))


def _field(entry: Entry, name: str) -> str:
    if name == "title":
        return entry.title
    if name == "summary":
        return entry.summary
    if name == "phrases":
        return " . ".join(entry.phrases)
    if name == "messages":
        return " . ".join(m.shown for m in entry.messages)
    return section(entry, name)


def documents(entries: list[Entry], fields: dict[str, float] | None = None) -> dict[str, Counter]:
    """Each entry's words, each counted with the weight of the part it is in."""
    weighted = [(name, weight) for name, weight in (fields or FIELDS).items() if weight]
    texts = [_field(e, name) for e in entries for name, _ in weighted]
    folded = iter(tokens_many(texts))
    out: dict[str, Counter] = {}
    for e in entries:
        counts = out[e.id] = Counter()
        for name, weight in weighted:
            for token in next(folded):
                # a message's words say what the framework printed, not when the failure shows: PyTorch's
                # "batch_norm eps must be positive during training" is no sign of a failure that comes later
                if not (name == "messages" and token.startswith(TIMING)):
                    counts[token] += weight
    return out


class Library:
    """BM25 over the entries' documents (term frequencies may be weighted)."""

    K1, B = 1.2, 0.75

    def __init__(self, docs: dict[str, Counter]):
        self.ids = list(docs)
        self.tf = {i: Counter(d) for i, d in docs.items()}
        self.length = {i: sum(d.values()) for i, d in self.tf.items()}
        self.mean = sum(self.length.values()) / max(len(docs), 1)
        df = Counter(t for d in self.tf.values() for t in d)
        n = len(docs)
        self.idf = {t: math.log(1 + (n - f + 0.5) / (f + 0.5)) for t, f in df.items()}
        # (the idf of a term a third of the documents hold: a term at or below it tells no entry from the others)
        self.common = math.log(1 + (n - n / 3 + 0.5) / (n / 3 + 0.5))

    @classmethod
    def of(cls, entries: list[Entry], fields: dict[str, float] | None = None) -> Library:
        return cls(documents(entries, fields))

    def scores(self, query: list[str]) -> dict[str, float]:
        terms = [t for t in set(query) if t in self.idf]
        out = {}
        for i in self.ids:
            tf, norm = self.tf[i], self.K1 * (1 - self.B + self.B * self.length[i] / self.mean)
            out[i] = sum(self.idf[t] * tf[t] * (self.K1 + 1) / (tf[t] + norm) for t in terms if tf[t])
        return out

    def shared(self, query: list[str], entry_id: str) -> list[str]:
        """The query's terms that the entry's document holds, the ones that add most to its score first -- not a term
        that a third of the entries or more hold ("loss", "nan", "epoch"): it tells this entry from no other."""
        tf, norm = self.tf[entry_id], self.K1 * (1 - self.B + self.B * self.length[entry_id] / self.mean)
        terms = [t for t in set(query) if t in self.idf and tf[t] and self.idf[t] > self.common]
        return sorted(terms, key=lambda t: (-self.idf[t] * tf[t] / (tf[t] + norm), t))


# A word of the report, for a term it folds to (a term is a word's stem: "padd" for "padded"): the first word that
# starts with it. Terms the thesaurus made from other words ("diverge" from "blows up") have none, and are not shown.
REPORT_WORD = lazy_regex.compile(r"[A-Za-z][A-Za-z0-9_-]{1,40}")


# A dot after a word that another part of a dotted name follows
DOTTED = lazy_regex.compile(r"\.\w")
# Words of any report of a training run, which say nothing of which failure it was (shown as no entry's match): the
# loss and its values, the loop's counters, and "mean" (as often "what does it mean" as an average)
EVERY_REPORT = frozenset("loss losses nan nans inf epoch epochs step steps iteration iterations iter batch batches "
                         "training train trained model value values mean error errors".split())


# Python's keywords: never the report's own word for a term (words_for)
KEYWORDS = frozenset("return def class import from lambda self none true false with as for while if else elif in not "
                     "and or print".split())


def words_for(terms: list[str], sentences: str, most: int = 4) -> list[str]:
    """The report's own words for these terms (as written, lower-cased), in the terms' order, at most `most`: from its
    sentences (sentences_only: not its code), and never a keyword of Python's."""
    found: dict[str, str] = {}
    wanted = [t for t in terms if t.isalpha() and len(t) >= 3 and t not in KEYWORDS]
    for m in REPORT_WORD.finditer(sentences):
        # (not a part of a path or of a dotted name before its last, `tensorflow/python/framework/errors_impl.py`,
        # `tensorflow.python.framework.errors_impl.InvalidArgumentError`: no word of the report's -- the last part of a
        # dotted name, `F.softmax`, `nn.CrossEntropyLoss`, is the API the report names; nor a word every report has)
        if sentences[m.end():m.end() + 1] in ("/", "\\") or DOTTED.match(sentences, m.end()) \
                or sentences[m.start() - 1:m.start()] in ("/", "\\") and "/" in sentences[m.end():m.end() + 40]:
            continue
        word = m.group(0).lower()
        if word in EVERY_REPORT:
            continue
        for t in wanted:
            if t not in found and word.startswith(t):
                found[t] = word
        if len(found) == len(wanted):
            break
    return [found[t] for t in wanted if t in found][:most]
