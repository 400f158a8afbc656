"""Pasted Python read by its indentation: a line's depth, and the block of lines under a header (a `def`, a `for`)."""
from __future__ import annotations

import re

from . import lazy_regex


def indent(line: str) -> int:
    """How far the line is indented: its leading spaces and tabs."""
    return len(line) - len(line.lstrip(" \t"))


def block_under(text: str, start: int, depth: int, most: int) -> list[str]:
    """The lines of the block that begins at `start` (the first line after its header) under a header indented `depth`:
    up to `most` of them, to the first line that is not blank and is indented no deeper than the header."""
    lines = []
    for line in text[start:].split("\n")[:most]:
        if line.strip() and indent(line) <= depth:
            break
        lines.append(line)
    return lines


# A def line of pasted Python code, and the def whose body holds a line
DEF_LINE = lazy_regex.compile(r"(?m)^(?P<indent>[ \t]*)def[ \t]+(?P<name>[A-Za-z_]\w{0,60})[ \t]*\(")


def enclosing_def(prose: str, at: int, defs: list[re.Match]) -> re.Match | None:
    """The def whose body holds the line at `at`: the last one before it, indented less than that line."""
    line_start = prose.rfind("\n", 0, at) + 1
    line_end = prose.find("\n", line_start)
    line = prose[line_start:line_end if line_end >= 0 else None]
    indent = len(line) - len(line.lstrip(" \t"))
    return next((d for d in reversed(defs) if d.start() < at and len(d.group("indent")) < indent), None)
