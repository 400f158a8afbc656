"""Patterns compiled when first used, not when their module is imported.

The readings of a report's words hold about a thousand patterns at module level. Compiling them all took 0.27 s
of the 0.36 s that `import trainwreck.diagnose` took, and every `trainwreck diagnose` paid it, although a log with
a few lines of words beside it uses about a third of them. Bazaar's `lazy_regex` module did the same for the
same reason. The scanner's own patterns (trainwreck/logscan) stay compiled at import: it uses them on every line
of a log, so a deferral would be paid once per line and save nothing.
"""
from __future__ import annotations

import re
from typing import Any, Union


class LazyPattern:
    """Stands for `re.compile(pattern, flags)`: the same methods, and the pattern compiled by the first of them
    called. `pattern` and `flags` are the arguments given (re.compile's own `flags` adds re.UNICODE to a str pattern's),
    so a larger pattern can be built from this one's text without compiling it. Not a re.Pattern: hand
    `PATTERN.compiled()` to what needs one, and ask `PATTERN.made(match)` what `match.re is PATTERN` would ask."""

    __slots__ = ("pattern", "flags", "_compiled")

    def __init__(self, pattern: str, flags: int = 0) -> None:
        self.pattern, self.flags, self._compiled = pattern, flags, None

    def compiled(self) -> re.Pattern:
        if self._compiled is None:
            self._compiled = re.compile(self.pattern, self.flags)
        return self._compiled

    def search(self, *args: Any, **kwargs: Any) -> re.Match | None:
        return (self._compiled or self.compiled()).search(*args, **kwargs)

    def match(self, *args: Any, **kwargs: Any) -> re.Match | None:
        return (self._compiled or self.compiled()).match(*args, **kwargs)

    def fullmatch(self, *args: Any, **kwargs: Any) -> re.Match | None:
        return (self._compiled or self.compiled()).fullmatch(*args, **kwargs)

    def finditer(self, *args: Any, **kwargs: Any) -> Any:
        return (self._compiled or self.compiled()).finditer(*args, **kwargs)

    def findall(self, *args: Any, **kwargs: Any) -> list:
        return (self._compiled or self.compiled()).findall(*args, **kwargs)

    def sub(self, *args: Any, **kwargs: Any) -> str:
        return (self._compiled or self.compiled()).sub(*args, **kwargs)

    def subn(self, *args: Any, **kwargs: Any) -> tuple[str, int]:
        return (self._compiled or self.compiled()).subn(*args, **kwargs)

    def split(self, *args: Any, **kwargs: Any) -> list:
        return (self._compiled or self.compiled()).split(*args, **kwargs)

    def made(self, match: re.Match) -> bool:
        """Whether `match` was found by this pattern: what `match.re is PATTERN` asks of a compiled one, which a
        LazyPattern, never itself a match's `re`, would always answer no."""
        return self._compiled is not None and match.re is self._compiled

    @property
    def groupindex(self) -> Any:
        return self.compiled().groupindex

    @property
    def groups(self) -> int:
        return self.compiled().groups

    def __repr__(self) -> str:
        return f"lazy_regex.compile({self.pattern!r}, {self.flags!r})"


# A pattern the readings hold: compiled now, or on first use
PatternLike = Union[re.Pattern, LazyPattern]
# Every pattern made here, wherever it is kept (a module's name, a tuple of folds, a Normal's field): the tests compile
# each and check its shape, as importing its module once did for the ones compiled then
MADE: list[LazyPattern] = []


def compile(pattern: str, flags: int = 0) -> LazyPattern:  # noqa: A001 (read as re.compile is read)
    made = LazyPattern(pattern, flags)
    MADE.append(made)
    return made
