"""Text that is safe to print on a terminal.

Anything that came from a file or a pipe (a catalogue field, a log line) can
hold escape sequences that clear the screen, retitle the window, move the
cursor over earlier lines or hide text. `printable` removes them before the
text reaches a terminal; `control_characters` names them, so `trainwreck check`
can refuse them in the catalogue instead of printing a cleaned copy.
"""
from __future__ import annotations

import re
import reprlib
from . import lazy_regex

# ECMA-48 sequences, 7-bit (ESC + letter) and 8-bit (C1 byte) forms:
#   CSI  ESC [ or U+009B, parameter bytes, intermediate bytes, one final byte
#   OSC, DCS, SOS, PM, APC  ESC ] P X ^ _ (or U+009D U+0090 U+0098 U+009E U+009F),
#        a string, ended by BEL or ST (ESC \ or U+009C); unterminated runs to the end
#   any other escape: ESC, intermediate bytes, one final byte
ESCAPE_SEQUENCE = lazy_regex.compile(
    r"(?:\x1b\[|\x9b)[\x30-\x3f]*[\x20-\x2f]*[\x40-\x7e]?"
    r"|(?:\x1b[\]PX^_]|[\x9d\x90\x98\x9e\x9f])[^\x07\x1b\x9c]*(?:\x07|\x1b\\|\x9c)?"
    r"|\x1b[\x20-\x2f]*[\x30-\x7e]?"
)
# What is left once whole sequences are gone: C0 controls, DEL, C1 controls,
# and the Unicode bidirectional controls that reorder what a reader sees
# (the "Trojan Source" characters).
_BIDI = "\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069"
CONTROL = lazy_regex.compile(rf"[\x00-\x1f\x7f-\x9f{_BIDI}]")


def printable(text: str, keep: str = "\n\t") -> str:
    """`text` without escape sequences and control characters, except those in `keep`."""
    text = ESCAPE_SEQUENCE.sub("", text)
    return CONTROL.sub(lambda m: m[0] if m[0] in keep else "", text)


def visible(text: str) -> str:
    """`text` with each control character written as an escape (\\x1b, \\u202e), so a file
    name or a value that holds one is shown as it is, without acting on the terminal."""
    return CONTROL.sub(lambda m: m[0] if m[0] in "\n" else m[0].encode("unicode_escape").decode("ascii"), text)


def control_characters(text: str, allowed: str = "") -> list[str]:
    """The distinct control characters in `text` (outside `allowed`), each named as U+XXXX, in order."""
    seen: list[str] = []
    for m in CONTROL.finditer(text):
        name = f"U+{ord(m[0]):04X}"
        if m[0] not in allowed and name not in seen:
            seen.append(name)
    return seen


_REPR = reprlib.Repr()
_REPR.maxstring, _REPR.maxother, _REPR.maxlevel = 80, 80, 3
_REPR.maxlist = _REPR.maxdict = _REPR.maxtuple = _REPR.maxset = 4


def shown(value: object, limit: int = 60, quote: bool = True) -> str:
    """A value for an error message: quoted like repr (so control characters show as escapes),
    never longer than `limit`, however large or deeply nested the value is."""
    text = _REPR.repr(value) if quote else printable(str(value)[:limit + 1], keep="")
    return text if len(text) <= limit else text[:limit - 1] + "…"
