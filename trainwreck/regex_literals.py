"""The literals that every match of a pattern holds, so that a text holding none of them is known to have no match
without running the pattern.

A report is read by about a thousand patterns, and most of them find nothing in it; Python's `re` tries such a pattern
at every position of the text (a pattern that opens with `\\b` gets none of its fast skipping), where `str.__contains__`
looks for a word at memchr's speed. RE2 and Rust's regex crate put the same prefilter in front of their automata
(the "required literals" of a pattern). It only ever skips a search that would have found nothing: where the
analysis is unsure (a character class, a backreference, a case-insensitive literal beside text that is not ASCII),
there is no prefilter and the pattern runs.
"""
from __future__ import annotations

import re

try:                                        # Python 3.11 and later
    from re import _constants as _c
    from re import _parser as _p
except ImportError:                         # pragma: no cover (Python 3.10)
    import sre_constants as _c              # type: ignore[no-redef]
    import sre_parse as _p                  # type: ignore[no-redef]

_REPEATS = tuple(getattr(_c, name) for name in ("MAX_REPEAT", "MIN_REPEAT", "POSSESSIVE_REPEAT") if hasattr(_c, name))
_ATOMIC = getattr(_c, "ATOMIC_GROUP", None)

# A need: one of these (literal, case-insensitive) pairs stands in every match.
Need = frozenset
# What required() gives: (literals, lower-cased case-insensitive literals)
Literals = tuple[tuple[str, ...], tuple[str, ...]]


def _better(a: Need | None, b: Need | None) -> Need | None:
    """Of two needs that both hold, the one that rules out more texts: its shortest literal longer, then fewer
    literals."""
    if a is None or b is None:
        return a or b
    key = lambda need: (min(len(lit) for lit, _ in need), -len(need))      # noqa: E731
    return a if key(a) >= key(b) else b


def _need(items, icase: bool) -> Need | None:
    """What every match of a sequence of parsed items holds: the best need of any one item, since each item of a
    sequence matches (runs of literals read as one literal)."""
    best: Need | None = None
    run: list[str] = []
    for op, av in items:
        if op is _c.LITERAL:
            run.append(chr(av))
            continue
        if run:
            best = _better(best, Need({("".join(run), icase)}))
            run = []
        need: Need | None = None
        if op is _c.SUBPATTERN:
            _group, add, remove, sub = av
            need = _need(sub, (icase or bool(add & _c.SRE_FLAG_IGNORECASE)) and not remove & _c.SRE_FLAG_IGNORECASE)
        elif op in _REPEATS:
            low, _high, sub = av
            need = _need(sub, icase) if low >= 1 else None
        elif op is _c.BRANCH:
            alternatives = [_need(sub, icase) for sub in av[1]]
            need = None if any(a is None for a in alternatives) else Need().union(*alternatives)
        elif op is _ATOMIC:
            need = _need(av, icase)
        elif op is _c.ASSERT:          # a lookahead or lookbehind that must hold reads text of the string too
            need = _need(av[1], icase)
        best = _better(best, need)
    if run:
        best = _better(best, Need({("".join(run), icase)}))
    return best


def required(pattern: str | bytes, flags: int = 0) -> Literals | None:
    """(literals, lower-cased case-insensitive literals): every match of the pattern holds one of them; None where
    no such set is known. Case-insensitive literals are kept only where each is ASCII, whose case is the only one an
    ASCII text can meet (a Kelvin sign matches k under re.IGNORECASE)."""
    if not isinstance(pattern, str) or flags & re.LOCALE:
        return None
    parsed = _p.parse(pattern, flags)
    need = _need(parsed, bool(parsed.state.flags & re.IGNORECASE))
    if not need or any(not lit for lit, _ in need):
        return None
    exact = tuple(sorted(lit for lit, icase in need if not icase))
    folded = tuple(sorted({lit.lower() for lit, icase in need if icase}))
    if any(not lit.isascii() for lit in folded):
        return None
    return exact, folded


# The last text lower-cased for the case-insensitive literals, or None where it is not ASCII: the patterns that read a
# report are asked of one text after another
_lowered: tuple[str, str | None] = ("", "")


def absent(need: Literals, text: str) -> bool:
    """Does the text hold none of the need's literals (so that the pattern cannot match it)?"""
    global _lowered
    exact, folded = need
    for literal in exact:
        if literal in text:
            return False
    if folded:
        seen, lower = _lowered
        if seen is not text:
            lower = text.lower() if text.isascii() else None
            _lowered = (text, lower)
        if lower is None:
            return False
        for literal in folded:
            if literal in lower:
                return False
    return True
