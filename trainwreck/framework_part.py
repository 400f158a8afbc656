"""Reading an entry's framework section: its parts and the messages it quotes.

The section has one `### ` part per framework. Inside a part, the paragraph
that starts `**What you see:**` quotes messages as inline code; those quotes
are what a reader will search for and what the page cites, so each must be a
declared message.
"""
from __future__ import annotations

import functools
import re

from .entry import FRAMEWORK_LABELS, Message
from . import lazy_regex

PART = lazy_regex.compile(r"^### (.+?)\s*$", re.M)
CODE_SPAN = lazy_regex.compile(r"(?<!`)(`+)(?!`)(.+?)(?<!`)\1(?!`)", re.S)
SEEN_LABEL = f"**{FRAMEWORK_LABELS[0]}**"


def framework_parts(section: str) -> dict[str, str]:
    """Each `### ` part's heading and text, in order."""
    pieces = PART.split(section)
    return {pieces[i].strip(): pieces[i + 1] for i in range(1, len(pieces) - 1, 2)}


def seen_paragraphs(section: str) -> list[str]:
    """The "What you see:" paragraphs: from the label to the next blank line or bold label."""
    out = []
    for m in re.finditer(re.escape(SEEN_LABEL), section):
        rest = section[m.end():]
        end = re.search(r"\n[ \t]*\n|\n[ \t]*(?:[-*] )?\*\*[^*\n]+:\*\*", rest)
        out.append(rest[:end.start()] if end else rest)
    return out


# (a check reads the same section once per message it declares: the section's spans are found once)
@functools.lru_cache(maxsize=256)
def code_spans(markdown: str) -> tuple[str, ...]:
    return tuple(" ".join(m.group(2).split()) for m in CODE_SPAN.finditer(markdown))


def seen_quotes(section: str) -> list[str]:
    """Every inline-code quote in the "What you see:" paragraphs."""
    return [quote for paragraph in seen_paragraphs(section) for quote in code_spans(paragraph)]


def quoted_in(section: str, message: Message) -> bool:
    return any(message.matches(quote) for quote in code_spans(section))
