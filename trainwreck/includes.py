"""The one rule for `--8<--` includes, shared by `check`, `show` and the site build.

pymdownx.snippets (which expands includes on the site) confines them by the
text of the path, so a symbolic link in snippets/ can still bring /etc/passwd
into a page. Here an include is resolved as the operating system will open it
(symbolic links followed) and must land on a regular file inside the project's
snippets/ folder. `directives` finds every line pymdownx.snippets acts on (it
works on raw lines, inside code blocks too), so nothing it would expand escapes
the rule.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from .files import FileRefused, read_text
from .safe_text import shown
from . import lazy_regex

SNIPPETS = "snippets"
# Every line pymdownx.snippets treats as notation: an inline include with a
# quoted target, or a bare marker opening or closing a block of paths. A line
# starting with `;` is escaped: pymdownx prints it as text.
DIRECTIVE = lazy_regex.compile(
    r"""^(?P<indent>[ \t]*)(?P<escape>;*)-+8<-+"""
    r"""(?:[ \t]+(?P<target>"(?:\\"|[^"\n\r])+?"|'(?:\\'|[^'\n\r])+?'))?\r?$""")
# The one form the catalogue uses: --8<-- "snippets/file.py" or "snippets/file.py:region".
ACCEPTED = lazy_regex.compile(r'--8<-- "(?P<path>[^"\\:]+)(?::(?P<section>[a-z][-_0-9a-z]*))?"')


class IncludeRefused(Exception):
    pass


@dataclass(frozen=True)
class Include:
    line: int                 # 1-based line in the text it was found in
    indent: str
    path: str | None          # None when the line is notation but not the accepted form
    section: str | None
    text: str                 # the line as written


def directives(text: str) -> list[Include]:
    """Every line of `text` that pymdownx.snippets would act on, escaped lines excepted."""
    found = []
    for number, line in enumerate(text.split("\n"), 1):
        if "8<-" not in line:       # cheap test first: nearly no line has it
            continue
        m = DIRECTIVE.match(line)
        if not m or m["escape"]:
            continue
        accepted = ACCEPTED.fullmatch(line[len(m["indent"]):].rstrip("\r"))
        found.append(Include(number, m["indent"], accepted["path"] if accepted else None,
                             accepted["section"] if accepted else None, line))
    return found


def problem_with(include: Include) -> str | None:
    """Why the directive itself is not allowed, before looking at the file it names."""
    if include.path is None:
        return (f"{shown(include.text.strip(), 60)} is not an include this project allows: "
                'write --8<-- "snippets/<file>.py:<region>" on a line of its own')
    return None


def resolve(root: Path, target: str) -> Path:
    """The file an include names, symbolic links followed; it must be inside root/snippets."""
    if target.startswith(("/", "\\")) or re.match(r"[A-Za-z]:", target):
        raise IncludeRefused(f"{shown(target)} is an absolute path: name a file in {SNIPPETS}/ "
                             "relative to the project")
    folder = (root / SNIPPETS).resolve()
    candidate = root / target
    try:
        path = candidate.resolve(strict=True)
    except FileNotFoundError:
        if candidate.is_symlink():
            raise IncludeRefused(f"{shown(target)} is a symbolic link to a file that does not exist") from None
        raise IncludeRefused(f"{shown(target)} does not exist") from None
    except (OSError, RuntimeError) as exc:   # a loop of symbolic links, a name too long
        raise IncludeRefused(f"{shown(target)} cannot be resolved ({type(exc).__name__})") from None
    if not path.is_relative_to(folder):
        project = root.resolve()
        landing = path.relative_to(project) if path.is_relative_to(project) else path
        raise IncludeRefused(f"{shown(target)} leads outside the project's {SNIPPETS}/ folder "
                             f"(it resolves to {shown(str(landing), 80, quote=False)})")
    return path


def read_include(root: Path, target: str) -> str:
    """The text of an included file, once it has passed `resolve` and the file size and type checks.
    An included file may not include others: pymdownx would expand them too."""
    path = resolve(root, target)
    try:
        text = read_text(path)
    except FileRefused as exc:
        raise IncludeRefused(f"{target} {exc}") from None
    nested = directives(text)
    if nested:
        raise IncludeRefused(f"{target} line {nested[0].line}: an included file may not include others "
                             "(escape the line with a leading ; if it is meant as text)")
    return text
