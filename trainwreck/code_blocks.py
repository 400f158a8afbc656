"""Pasted Python read by its indentation: a line's depth, and the block of lines under a header (a `def`, a `for`)."""
from __future__ import annotations


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
