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

from . import regex_literals, regex_needs


WARM = 2          # a pattern's calls before its literals are read (LazyPattern) ...
LONG_TEXT = 20_000  # ... unless it is asked of a text this long


class LazyPattern:
    """Stands for `re.compile(pattern, flags)`: the same methods, and the pattern compiled by the first of them
    called. `pattern` and `flags` are the arguments given (re.compile's own `flags` adds re.UNICODE to a str pattern's),
    so a larger pattern can be built from this one's text without compiling it. Not a re.Pattern: hand
    `PATTERN.compiled()` to what needs one, and ask `PATTERN.made(match)` what `match.re is PATTERN` would ask.

    A text that holds none of the literals every match of the pattern holds (regex_literals) is answered without
    running the pattern, or compiling it: most of the patterns that read a report find nothing in it. The package's
    own patterns have their literals read ahead of time (regex_needs). For any other, the literals are read from a
    parse of the pattern as long as re.compile's own, so only for a pattern asked more than WARM times, or asked of a
    LONG_TEXT: one `trainwreck diagnose` of a short report asks most of its patterns once or twice, and a parse would
    cost more than the searches it saves; a process that reads many reports (the tests, the benchmarks) asks them
    thousands of times, and one long paste makes each search long."""

    __slots__ = ("pattern", "flags", "_compiled", "_need", "_asked")

    def __init__(self, pattern: str, flags: int = 0) -> None:
        self.pattern, self.flags, self._compiled = pattern, flags, None
        self._need: tuple | bool | None = None         # the literals; False where none are known; None: not read yet
        self._asked = 0

    def compiled(self) -> re.Pattern:
        if self._compiled is None:
            self._compiled = re.compile(self.pattern, self.flags)
        return self._compiled

    def _cannot_match(self, string: Any) -> bool:
        if type(string) is not str:            # (a bytes text holds no str literal)
            return False
        need = self._need
        if need is None and not self._asked:
            need = self._need = regex_needs.stored(self.pattern, self.flags)
        if need is None:
            self._asked += 1
            # (a long text's search costs more than the parse: read the literals for it at once)
            if self._asked <= WARM and len(string) < LONG_TEXT:
                return False
            # (compiled first, as every method once did: a pattern that parses and does not compile, `(?<=a+)`, still
            # raises on its first text -- code_review_s70 5; the package's own are compiled before their table is
            # written)
            self.compiled()
            need = self._need = regex_literals.required(self.pattern, self.flags) or False
        return need is not False and regex_literals.absent(need, string)

    def search(self, string: Any, *args: Any, **kwargs: Any) -> re.Match | None:
        if self._cannot_match(string):
            return None
        return (self._compiled or self.compiled()).search(string, *args, **kwargs)

    def match(self, string: Any, *args: Any, **kwargs: Any) -> re.Match | None:
        if self._cannot_match(string):
            return None
        return (self._compiled or self.compiled()).match(string, *args, **kwargs)

    def fullmatch(self, string: Any, *args: Any, **kwargs: Any) -> re.Match | None:
        if self._cannot_match(string):
            return None
        return (self._compiled or self.compiled()).fullmatch(string, *args, **kwargs)

    def finditer(self, string: Any, *args: Any, **kwargs: Any) -> Any:
        if self._cannot_match(string):
            return iter(())
        return (self._compiled or self.compiled()).finditer(string, *args, **kwargs)

    def findall(self, string: Any, *args: Any, **kwargs: Any) -> list:
        if self._cannot_match(string):
            return []
        return (self._compiled or self.compiled()).findall(string, *args, **kwargs)

    def sub(self, repl: Any, string: Any, *args: Any, **kwargs: Any) -> str:
        if self._cannot_match(string):
            _check_template(self, repl)
            return string
        return (self._compiled or self.compiled()).sub(repl, string, *args, **kwargs)

    def subn(self, repl: Any, string: Any, *args: Any, **kwargs: Any) -> tuple[str, int]:
        if self._cannot_match(string):
            _check_template(self, repl)
            return string, 0
        return (self._compiled or self.compiled()).subn(repl, string, *args, **kwargs)

    def split(self, string: Any, *args: Any, **kwargs: Any) -> list:
        if self._cannot_match(string):
            return [string]
        return (self._compiled or self.compiled()).split(string, *args, **kwargs)

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


def _check_template(pattern: LazyPattern, repl: Any) -> None:
    """Raise as re does for a broken replacement template (`\\1` of a pattern with no group), where the text was
    skipped: such a bug then shows on every text, not only on those that hold the pattern's literal. (Only a
    template that refers to something compiles the pattern.)"""
    if type(repl) is str and "\\" in repl:
        pattern.compiled().sub(repl, "")


# A pattern the readings hold: compiled now, or on first use
PatternLike = Union[re.Pattern, LazyPattern]
# Every pattern made here, wherever it is kept (a module's name, a tuple of folds, a Normal's field): the tests compile
# each and check its shape, as importing its module once did for the ones compiled then
MADE: list[LazyPattern] = []


def compile(pattern: str, flags: int = 0) -> LazyPattern:  # noqa: A001 (read as re.compile is read)
    made = LazyPattern(pattern, flags)
    MADE.append(made)
    return made
