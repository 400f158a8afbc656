"""Read the marked regions of snippet files and expand `--8<--` includes.

The markers follow pymdownx.snippets, which renders the same includes on the
site: `# --8<-- [start:name]` ... `# --8<-- [end:name]`.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from .includes import IncludeRefused, directives, problem_with, read_include
from . import lazy_regex

MARKER = lazy_regex.compile(r"--8<--\s*\[\s*(start|end)\s*:\s*([a-z][-_0-9a-z]*)\s*\]")


def sections_of(text: str) -> dict[str, str]:
    """Map each complete section name to its text (markers removed, dedented)."""
    found: dict[str, list[str]] = {}
    open_names: list[str] = []
    complete: set[str] = set()
    for line in text.splitlines():
        m = MARKER.search(line)
        if m:
            kind, name = m.groups()
            if kind == "start":
                open_names.append(name)
                found.setdefault(name, [])
            elif name in open_names:
                open_names.remove(name)
                complete.add(name)
            continue
        for name in open_names:
            found[name].append(line)
    return {name: _dedent(found[name]) for name in complete}


def _dedent(lines: list[str]) -> str:
    widths = [len(l) - len(l.lstrip()) for l in lines if l.strip()]
    cut = min(widths, default=0)
    return "\n".join(l[cut:] for l in lines).strip("\n")


def includes_in(markdown: str) -> list[tuple[str, str | None]]:
    """Every (path, section) that the Markdown includes in the accepted form."""
    return [(inc.path, inc.section) for inc in directives(markdown) if inc.path is not None]


def include_problems(markdown: str, root: Path, read=read_include) -> list[tuple[int, str]]:
    """(line, why) for each include in `markdown` that the include rule refuses or that names a
    missing region. `read` reads an included file (read_include, or a caching wrapper of it)."""
    problems = []
    for include in directives(markdown):
        problem = problem_with(include)
        if problem is None:
            try:
                text = read(root, include.path)
            except IncludeRefused as exc:
                problem = str(exc)
            else:
                if include.section and include.section not in sections_of(text):
                    problem = (f"{include.path} has no section [start:{include.section}] ... "
                               f"[end:{include.section}]")
        if problem:
            problems.append((include.line, problem))
    return problems


def expand_includes(markdown: str, root: Path) -> str:
    """Replace include lines by the text they name, as the site build does, under the one
    include rule (trainwreck.includes); an include it refuses raises IncludeRefused."""
    return expand_includes_traced(markdown, root)[0]


def expand_includes_traced(markdown: str, root: Path) -> tuple[str, list[tuple[int, str | None]]]:
    """expand_includes, and for each line of the result: (the line of `markdown` it comes from,
    the file it was included from, or None for the text's own lines)."""
    lines = markdown.split("\n")
    origins: list[tuple[int, str | None]] = [(n, None) for n in range(1, len(lines) + 1)]
    for include in reversed(directives(markdown)):
        if include.path is None:
            raise IncludeRefused(problem_with(include))
        text = read_include(root, include.path)
        if include.section:
            regions = sections_of(text)
            if include.section not in regions:
                raise IncludeRefused(f"{include.path} has no section [start:{include.section}]")
            text = regions[include.section]
        added = [include.indent + l if l else l for l in text.splitlines()]
        lines[include.line - 1:include.line] = added
        origins[include.line - 1:include.line] = [(include.line, include.path)] * len(added)
    return "\n".join(lines), origins


# The page's two tabs, Reproduce first. Each is a whole program a reader can
# copy and run: the snippet's `setup` region (when it has one) followed by the
# tab's own region.
TABS = (("Reproduce", "reproduce"), ("Fix", "fix"))
SETUP = "setup"
MAIN_BLOCK = lazy_regex.compile(r"""^if __name__ == ["']__main__["']\s*:""", re.M)


def tab_program_regions(regions: dict[str, str], region: str) -> list[str]:
    """The regions, in order, that make up the program of one tab."""
    return ([SETUP] if SETUP in regions else []) + [region]


def tab_program(text: str, region: str) -> str:
    """The program a reader copies from a tab: setup (if any) then the region."""
    return _program(sections_of(text), region)


def _program(regions: dict[str, str], region: str) -> str:
    return "\n\n\n".join(regions[name] for name in tab_program_regions(regions, region)) + "\n"


@dataclass(frozen=True)
class Program:
    """One program a page shows and runs: what a reader saves, under which name."""
    label: str      # the tab it sits in ("Reproduce", "Fix"), or "Program" for a whole file
    filename: str   # the name it is saved and run under, so its warnings name that file
    code: str


def programs_of(snippet: str, text: str) -> list[Program]:
    """The programs of a snippet file: one per tab when it has the tab regions, else the file itself.

    A tab region without a `__main__` block only defines things: there is no
    program to run. `trainwreck check` refuses such a region, so only an
    unchecked catalogue gets here with one.
    """
    path = PurePosixPath(snippet)
    regions = sections_of(text)
    if not all(region in regions for _, region in TABS):
        return [Program("Program", path.name, text)] if MAIN_BLOCK.search(text) else []
    return [Program(label, tab_file(snippet, region), _program(regions, region))
            for label, region in TABS if MAIN_BLOCK.search(regions[region])]


def tab_file(snippet: str, region: str) -> str:
    """The file name of one tab's program."""
    return f"{PurePosixPath(snippet).stem}_{region}.py"
