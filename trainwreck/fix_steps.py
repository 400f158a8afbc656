"""What a diagnosis says to do first: the opening of an entry's Fix section, or of the item of it for the face the
evidence shows."""
from __future__ import annotations

import functools
import re

from .entry import Entry
from . import lazy_regex

SENTENCE_END = lazy_regex.compile(r"(?<=[.!?])\s+(?=[A-Z`*(\[])")
EMPHASIS = lazy_regex.compile(r"\*\*(.+?)\*\*|__(.+?)__")
LINK = lazy_regex.compile(r"\[([^\]\n]+)\]\([^()\s]+\)")


def first_fix_step(entry: Entry) -> str:
    """The Fix section's first step: its first sentence, and the first sentence of each item of the list it introduces if
    it ends in a colon; without its asides in brackets, and a link's text without its address."""
    opening, items = first_fix_parts(entry)
    return f"{opening} {'; '.join(items)}." if items else opening


def first_fix_parts(entry: Entry) -> tuple[str, tuple[str, ...]]:
    """The first step as its parts: the opening sentence (ending in a colon where a list follows) and the first
    sentence of each item of that list, each without its closing punctuation -- a terminal shows the items one a
    line, where first_fix_step joins them into one sentence."""
    return _parts_of_fix(entry.sections.get("Fix", ""))


@functools.lru_cache(maxsize=256)       # (asked for every candidate of every diagnosis: the same few sections)
def _parts_of_fix(fix: str) -> tuple[str, tuple[str, ...]]:
    blocks = [b.strip() for b in fix.split("\n\n") if b.strip()]
    if not blocks:
        return "", ()
    lines = blocks[0].split("\n")
    intro = " ".join(" ".join(line for line in lines if not line.lstrip().startswith(("- ", "* "))).split())
    sentence = SENTENCE_END.split(intro, maxsplit=1)[0] if intro else ""
    items: list[str] = []
    if sentence.endswith(":"):
        rest = [line for line in lines if line.lstrip().startswith(("- ", "* ", "  "))] or \
               (blocks[1].split("\n") if len(blocks) > 1 else [])
        # (each item's first sentence: what to do; the rest of an item says what the entry's snippet found, which a
        # reader of their own run would take for a statement about it)
        items = [_opening(item).rstrip(";.,") for item in _list_items(rest)]
        if not items:
            sentence = sentence[:-1] + "."
    return unemphasised(_one_line(sentence)), tuple(unemphasised(_one_line(item)) for item in items)


def unemphasised(text: str) -> str:
    """The text with its bold and its emphasis as plain words (`**Overflow:**` as "Overflow:"): a terminal's line."""
    return EMPHASIS.sub(lambda m: m.group(1) or m.group(2), text)


def _one_line(text: str) -> str:
    """A step of the fix as a terminal shows it: a link's text without its address, and no asides in brackets."""
    return without_asides(LINK.sub(r"\1", text))


def without_asides(text: str) -> str:
    """The text without its asides in brackets after a word (a citation, a pointer to another entry, the snippet's own
    figure): the page keeps them, the one line of a first step does not. Brackets inside brackets go with the outer
    ones, and a formula's, `√(2 / (fan_in + fan_out))`, which follow no space at the outer level, stay, as do those of a
    code span."""
    out, depth, start, code = [], 0, 0, False
    for i, ch in enumerate(text):
        if ch == "`":                               # (inside a code span a bracket is code: `x / (n + eps)`)
            code = not code
        if code:
            continue
        if ch == "(":
            if depth == 0 and i > 0 and text[i - 1] == " ":
                out.append(text[start:i - 1])
                start = -1                          # inside an aside: dropped up to its closing bracket
            depth += 1
        elif ch == ")" and depth:
            depth -= 1
            if depth == 0 and start == -1:
                start = i + 1
    if start == -1:                                 # an aside never closed: the text is left as it was
        return text
    out.append(text[start:])
    return "".join(out)


# An item's opening: its first sentence, or as many as reach this length (a first sentence such as "Sigmoid hidden
# units: do not." is no advice without the next)
OPENING = 60


def _opening(item: str) -> str:
    sentences = SENTENCE_END.split(item)
    out = sentences[0]
    for sentence in sentences[1:]:
        if len(out) >= OPENING:
            break
        out += " " + sentence
    return out


def _list_items(lines: list[str]) -> list[str]:
    items: list[str] = []
    for line in lines:
        stripped = line.strip()
        if stripped.startswith(("- ", "* ")) or re.match(r"\d+\. ", stripped):
            items.append(stripped.split(" ", 1)[1])
        elif items and stripped:
            items[-1] += " " + stripped
    return [item.rstrip(";.,") for item in items]


def fix_item(entry: Entry, label: str) -> str:
    """The opening of the Fix section's item that starts with **label:** (its first sentence, as first_fix_step gives
    an item), or "" where there is none."""
    lines = entry.sections.get("Fix", "").split("\n")
    for item in _list_items(lines):
        m = re.match(r"\*\*(.+?):?\*\*:?\s*(.*)", item)
        if m and m.group(1).rstrip(":").strip().lower() == label.strip().lower():
            step = _opening(_one_line(m.group(2))).rstrip(";.,")
            return unemphasised(f"{m.group(1).rstrip(':').strip()}: {step}.")
    return ""
