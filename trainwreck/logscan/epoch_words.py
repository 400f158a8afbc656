"""The word epoch in other languages, as a loop written by a reporter who does not write in English prints it:
"época 5: 1,51" (Spanish, Portuguese), "Epoche 3: 4,95" (German), "époque 2" (French), "epoca 7" (Italian, whose
plural is "epoche"), "epoka 4" (Polish), "эпоха 10" (Russian, Ukrainian "епоха"), "에폭 2" (Korean),
"エポック 2" (Japanese).

Read as the word epoch, padded with spaces to the same length (every offset stays), so that each log format and the
position of each value reads them as it reads English ones, and quotes the log's own numbers. A word shorter than
"epoch" in bytes is left as it is.
"""
from __future__ import annotations

import re

_LATIN = (rb"(?:[Ee]poche[n]?|[Ee]poca|[Ee]poka|[Ee]poki|[Ee]poce|[Ee]pocha|[Ee]pochy|"
          rb"(?:\xc3\xa9|\xc3\x89)poque|(?:\xc3\xa9|\xc3\x89)pocas?)s?")
# (эпох-/епох- and an ending)
_CYRILLIC = rb"(?:\xd1\x8d|\xd0\xad|\xd0\xb5|\xd0\x95)\xd0\xbf\xd0\xbe\xd1\x85(?:\xd0[\xb0-\xbf]|\xd1[\x80-\x8f])?"
# (에폭, 에포크, エポック)
_CJK = (rb"\xec\x97\x90\xed\x8f\xad|\xec\x97\x90\xed\x8f\xac\xed\x81\xac|"
        rb"\xe3\x82\xa8\xe3\x83\x9d\xe3\x83\x83\xe3\x82\xaf")
FOREIGN_EPOCH = re.compile(rb"(?<![A-Za-z\x80-\xff])(?:" + _LATIN + rb"|" + _CYRILLIC + rb"|" + _CJK
                           + rb")(?![A-Za-z])(?=[ \t]*(?:[#\[(][ \t]*)?\d)")


def _epoch(m: re.Match) -> bytes:
    word = m.group(0)
    return b"epoch".ljust(len(word)) if len(word) >= 5 else word


def writes_foreign_epochs(data: bytes) -> bool:
    return FOREIGN_EPOCH.search(data) is not None


def with_english_epochs(data: bytes) -> bytes:
    """The text with each epoch word of another language, before its number, written as "epoch" (same length)."""
    return FOREIGN_EPOCH.sub(_epoch, data)
