"""Cross-checks of a loaded catalogue: everything an entry names must exist."""
from __future__ import annotations

import ast
import re
from pathlib import Path

from .body_policy import unsafe_markup
from .catalog import Catalog, Problem, load, section_offsets
from .fix_steps import fix_item
from .entry import (ANSWER_HEADINGS, FRAMEWORK_LABELS, FRAMEWORK_PARTS, FRAMEWORK_SECTION, ID_PATTERN, NATURES,
                    SECTIONS, STATUSES, TRACES)
from .framework_part import code_spans, framework_parts, quoted_in, seen_quotes
from .pages import tool_doc, tools_of
from .includes import IncludeRefused, read_include
from .safe_text import shown
from .scaffold import PLACEHOLDER
from .snippet_sections import MAIN_BLOCK, expand_includes_traced, include_problems, sections_of
from . import lazy_regex

SNIPPET_NAME = lazy_regex.compile(r"wr([0-9]{3})_[a-z0-9_]+\.py")
REQUIRED_REGIONS = ("reproduce", "fix")
# Origins whose messages the entry's own snippet prints (and its tests pin);
# every other declared message is a framework's and must be quoted in the framework section.
SNIPPET_ORIGINS = ("numpy", "python")
MAX_PER_FILE = 20


def check(folder: Path | str, markup: bool = True) -> tuple[Catalog, list[Problem]]:
    """Load and validate; return the catalogue and every problem found.

    `markup=False` leaves out what only matters for the published site (bodies and tools' docstrings
    rendered and held to body_policy): `list`, `show`, `diagnose` and `export` write no HTML, and
    need not import Markdown on every run."""
    catalog = load(folder)
    problems = list(catalog.problems)
    for key in catalog.planned:
        where, line = str(catalog.folder / "planned.yml"), catalog.planned_lines.get(key)
        if not ID_PATTERN.fullmatch(key):
            problems.append(Problem(where, shown(key, 40, quote=False), "not an ID of the form WR-NNN", line))
        elif key in catalog.entries:
            problems.append(Problem(where, key, "the entry exists now; remove it from planned.yml", line))
    claimed: dict[str, str] = {}
    snippets = _Snippets(catalog.root)
    for entry in catalog.sorted_entries():
        problems += _check_entry(entry, catalog, claimed, snippets, markup)
    if markup and not problems:     # the tools are found through the entries' includes, once those are sound
        problems += _check_tools(catalog, snippets)
    if not catalog.problems:  # an entry that failed to load would leave its snippet looking orphaned
        problems += _unclaimed_snippets(catalog, claimed)
    return catalog, _capped(problems)


def _capped(problems: list[Problem]) -> list[Problem]:
    """At most MAX_PER_FILE problems of one file, then one line saying how many more there are:
    a file with thousands of defects needs its first ones fixed, not a screenful of the same line."""
    shown: dict[str, int] = {}
    out: list[Problem] = []
    for problem in problems:
        shown[problem.path] = shown.get(problem.path, 0) + 1
        if shown[problem.path] <= MAX_PER_FILE:
            out.append(problem)
    for path, count in shown.items():
        if count > MAX_PER_FILE:
            out.append(Problem(path, "problems", f"{count - MAX_PER_FILE} more in this file, not shown"))
    return out


class _Snippets:
    """Each included file's text and marked regions, read once (through the include rule)
    however many entries include it."""

    def __init__(self, root: Path):
        self.root = root
        self._read: dict[str, str | IncludeRefused] = {}
        self._regions: dict[str, dict[str, str]] = {}

    def read(self, root: Path, path: str) -> str:
        """read_include, remembered; raises IncludeRefused as it does."""
        if path not in self._read:
            try:
                self._read[path] = read_include(root, path)
            except IncludeRefused as exc:
                self._read[path] = exc
        found = self._read[path]
        if isinstance(found, IncludeRefused):
            raise found
        return found

    def regions(self, path: str) -> dict[str, str]:
        if path not in self._regions:
            self._regions[path] = sections_of(self.read(self.root, path))
        return self._regions[path]


def _check_entry(entry, catalog: Catalog, claimed: dict[str, str], snippets: _Snippets,
                 markup: bool = True) -> list[Problem]:
    out: list[Problem] = []

    def bad(field: str, message: str, at: str | None = None, offset: int | None = None) -> None:
        out.append(catalog.problem(entry, field, message, at, offset))

    if not ID_PATTERN.fullmatch(entry.id):
        bad("id", f"{shown(entry.id, 40)} is not of the form WR-NNN")
    elif entry.path.stem != entry.id:
        bad("id", f"{entry.id} does not match the file name {entry.path.name}")
    if entry.status not in STATUSES:
        bad("status", f"{shown(entry.status, 40)} is not one of {', '.join(STATUSES)}")
    if not entry.modules:
        bad("modules", "at least one module is required")
    for i, module in enumerate(entry.modules):
        if module not in catalog.modules and not catalog.modules_unread:
            bad("modules", f"unknown module {shown(module, 40)} (not in modules.yml)", f"modules[{i}]")
    for i, link in enumerate(entry.related):
        at = f"related[{i}]"
        if link.nature not in NATURES:
            bad("related", f"{shown(link.id, 20, quote=False)}: unknown nature {shown(link.nature, 40)} "
                           f"(one of {', '.join(NATURES)})", at)
        if link.id == entry.id:
            bad("related", f"{link.id}: an entry cannot relate to itself", at)
        elif link.id not in catalog.entries and link.id not in catalog.planned and link.id not in catalog.unloaded:
            bad("related", f"{shown(link.id, 20, quote=False)} does not exist and is not declared in planned.yml", at)
    if entry.trace not in TRACES:
        bad("symptoms.trace", f"unknown signature {shown(entry.trace, 40)} (one of {', '.join(TRACES)})")
    if entry.also_trace and (entry.also_trace not in TRACES or entry.also_trace in ("none", entry.trace)):
        bad("symptoms.also_trace", f"{shown(entry.also_trace, 40)} is not a second signature: one of "
                                   f"{', '.join(t for t in TRACES if t not in ('none', entry.trace))}")

    _check_snippet(entry, catalog, claimed, snippets, bad)
    includes_ok = _check_includes(entry, catalog, snippets, bad)
    _check_sections(entry, bad)
    for i, message in enumerate(entry.messages):
        if message.fix and not fix_item(entry, message.fix):
            bad("symptoms.messages", f"fix: {shown(message.fix, 40)} names no item of the Fix section (an item that "
                                     f"opens with **{shown(message.fix, 40, quote=False)}:**)",
                f"symptoms.messages[{i}].fix")
    _check_framework_part(entry, bad)
    if markup:      # (the published pages' consistency, as the markup's: `check` and the build, not every command)
        _check_module_mentions(entry, bad)
    if includes_ok and markup:
        _check_markup(entry, catalog, bad)
    return out


def _check_snippet(entry, catalog: Catalog, claimed: dict[str, str], snippets: _Snippets, bad) -> None:
    m = SNIPPET_NAME.fullmatch(Path(entry.snippet).name)
    if not entry.snippet.startswith("snippets/") or "/" in entry.snippet[len("snippets/"):] or not m:
        bad("snippet", f"{shown(entry.snippet, 60)} must be snippets/wrNNN_<slug>.py")
        return
    if m.group(1) != entry.id[3:]:
        bad("snippet", f"{entry.snippet} is numbered for WR-{m.group(1)}, not {entry.id}")
    try:
        text = snippets.read(catalog.root, entry.snippet)
    except IncludeRefused as exc:
        bad("snippet", str(exc))
        return
    if entry.snippet in claimed:
        bad("snippet", f"{entry.snippet} is already the snippet of {claimed[entry.snippet]}")
        return
    claimed[entry.snippet] = entry.id
    if PLACEHOLDER in text:
        bad("snippet", f"{entry.snippet} still holds the scaffold's {PLACEHOLDER} placeholder")
    own = snippets.regions(entry.snippet)
    for region in REQUIRED_REGIONS:
        if region not in own:
            bad("snippet", f"{entry.snippet} has no region [start:{region}] ... [end:{region}] "
                           f"(the page's {region.title()} tab)")
        elif not MAIN_BLOCK.search(own[region]):
            bad("snippet", f"{entry.snippet}: the {region} region prints nothing when run: end it in an "
                           f"`if __name__ == \"__main__\":` block that prints its story (the page's "
                           f"{region.title()} tab is a whole program)")


def _check_includes(entry, catalog: Catalog, snippets: _Snippets, bad) -> bool:
    """Every line the site would expand names a region of a file inside snippets/. True if all do."""
    problems = include_problems(entry.body, catalog.root, snippets.read)
    for line, problem in problems:
        bad("include", problem, offset=_line_offset(entry.body, line))
    return not problems


def _check_markup(entry, catalog: Catalog, bad) -> None:
    """The body, its includes expanded, renders to Markdown's own HTML only (see body_policy)."""
    expanded, origins = expand_includes_traced(entry.body, catalog.root)
    for line, reason in unsafe_markup(expanded):
        if line is None:
            bad("body", reason)
            continue
        source_line, included_from = origins[line - 1]
        bad("body", reason + (f", in the text included from {included_from}" if included_from else ""),
            offset=_line_offset(entry.body, source_line))


def _check_tools(catalog: Catalog, snippets: _Snippets) -> list[Problem]:
    """A tool (a snippet file entries include that is no entry's own) gets a page made from its
    docstring: the file must parse, and the docstring's Markdown follows the body rules."""
    out = []
    for path in tools_of(catalog):
        text = snippets.read(catalog.root, path)
        try:
            tree = ast.parse(text)
            _, intro = tool_doc(Path(path).name, text)
        except SyntaxError as exc:
            out.append(Problem(path, "snippet", f"is not valid Python ({shown(exc.msg, 60, quote=False)}); "
                                                "its docstring makes the page of this tool", exc.lineno))
            continue
        first = tree.body[0].lineno if tree.body and isinstance(tree.body[0], ast.Expr) else 1
        doc = ast.get_docstring(tree) or ""
        before_intro = doc[:doc.find(intro)].count("\n") if intro and intro in doc else 0
        for line, reason in unsafe_markup(intro, "a tool's docstring"):
            out.append(Problem(path, "docstring", reason, None if line is None else first + before_intro + line - 1))
    return out


def _line_offset(text: str, line: int) -> int:
    offset = 0
    for _ in range(line - 1):
        offset = text.find("\n", offset) + 1
    return offset


def _check_sections(entry, bad) -> None:
    found = list(entry.sections)
    where = section_offsets(entry.body)
    expected = list(SECTIONS)
    if found != expected:
        missing = [s for s in expected if s not in found]
        extra = [s for s in found if s not in SECTIONS]
        if missing:
            bad("sections", f"missing: {', '.join(missing)}")
        for name in extra:
            bad("sections", f"unexpected: {shown(name, 60, quote=False)}", offset=where.get(name))
        if not missing and not extra:
            bad("sections", f"out of order: expected {' / '.join(expected)}")
    for name in SECTIONS:
        if name in entry.sections and not entry.sections[name]:
            bad("sections", f"{name} is empty", offset=where.get(name))
    for name, text in entry.sections.items():
        if PLACEHOLDER in text:
            at = entry.body.find(PLACEHOLDER, where.get(name, 0))
            bad("sections", f"{shown(name, 60, quote=False)} still holds the scaffold's {PLACEHOLDER} placeholder",
                offset=at if at >= 0 else None)
    if PLACEHOLDER in entry.summary:
        bad("summary", f"still the scaffold's {PLACEHOLDER} placeholder")
    question = entry.sections.get("Interview question", "")
    for heading in ANSWER_HEADINGS:
        if question and not re.search(rf"^### {heading}[ \t]*\n+\S", question, re.M):
            bad("sections", f"Interview question needs a non-empty '### {heading}'",
                offset=where.get("Interview question"))


# A module the prose names ("Module 2.3, when Adam is written by hand", "modules 2.3 and 2.4"): one ID, or a list of
# them joined by commas, "and", "or", "/" or "&"
# (an aside in brackets may follow each, "Modules 0.7 (floating point) and 2.5 (attention)"; "2.3.1" is no module 2.3)
_ASIDE = r"\((?:[^()]|\([^()]{0,100}\)){0,200}\)"     # (one level of brackets inside: "(why -inf - (-inf) is nan)")
ASIDE = lazy_regex.compile(_ASIDE)
MODULE_NUMBER = lazy_regex.compile(r"(?<![\d.])\d+\.\d+(?![.\d])")
MODULES_NAMED = lazy_regex.compile(r"(?i)\bmodules?\s+(\d+\.\d+(?![.\d])(?:(?:\s*" + _ASIDE + r")?(?:,\s*(?:and\s+|or\s+)?|"
                                   r"\s+and\s+|\s+or\s+|\s*[/&]\s*)\d+\.\d+(?![.\d]))*)")


def _check_module_mentions(entry, bad) -> None:
    """Each module the entry's text names is one of its `modules`: an instructor who moves the entry to other
    modules (its front matter) would otherwise publish a page that names the old ones."""
    for m in MODULES_NAMED.finditer(entry.body):
        for module in MODULE_NUMBER.findall(ASIDE.sub(" ", m.group(1))):
            if module not in entry.modules:
                bad("modules", f"the text names module {module} (\"{' '.join(m.group(0).split())}\"), which is not "
                               f"among the entry's modules ({', '.join(entry.modules)}): add it there, or reword the "
                               "text", offset=m.start())


def _check_framework_part(entry, bad) -> None:
    """One part per framework, each saying what you see, how to confirm it and the fix;
    every message quoted under "What you see:" is declared (so the page can cite it),
    and every declared framework message is quoted."""
    text = entry.sections.get(FRAMEWORK_SECTION)
    if text is None:
        return
    start = section_offsets(entry.body).get(FRAMEWORK_SECTION)
    parts = framework_parts(text)
    if list(parts) != list(FRAMEWORK_PARTS):
        bad("sections", f"{FRAMEWORK_SECTION} needs the ### parts {' / '.join(FRAMEWORK_PARTS)}, in that order "
                        f"(found: {shown(' / '.join(parts), 100, quote=False) or 'none'})", offset=start)
    for name, body in parts.items():
        for label in FRAMEWORK_LABELS:
            if f"**{label}**" not in body:
                bad("sections", f"{FRAMEWORK_SECTION}, {shown(name, 40, quote=False)}: needs a paragraph "
                                f"starting **{label}**", offset=entry.body.find(f"### {name}", start))
    for quote in dict.fromkeys(seen_quotes(text)):
        if not any(m.matches(quote) for m in entry.messages):
            at = entry.body.find(quote, start)
            bad("symptoms.messages", f"{FRAMEWORK_SECTION} quotes `{_short(quote)}` after \"What you see:\" but "
                                     "does not declare it (declare it with its pinned source, or quote it elsewhere)",
                offset=at if at >= 0 else start)
    for i, message in enumerate(entry.messages):
        if message.origin not in SNIPPET_ORIGINS and not quoted_in(text, message):
            bad("symptoms.messages", f"the {message.origin} message `{_short(message.shown)}` is declared but not "
                                     f"quoted in {FRAMEWORK_SECTION}", at=f"symptoms.messages[{i}]")
        quotes = {" ".join(q.split()) for q in code_spans(text)}
        for instance in message.also:      # (a further instance is evidence only as the page explains it)
            if " ".join(instance.split()) not in quotes:
                bad("symptoms.messages", f"also: `{_short(instance)}` is not quoted in {FRAMEWORK_SECTION}",
                    at=f"symptoms.messages[{i}].also")


def _short(text: str, limit: int = 80) -> str:
    return shown(text, limit, quote=False)


def _unclaimed_snippets(catalog: Catalog, claimed: dict[str, str]) -> list[Problem]:
    folder = catalog.root / "snippets"
    if not folder.is_dir():
        return []
    return [
        Problem(f"snippets/{path.name}", "snippet", "not the snippet of any entry")
        for path in sorted(folder.glob("wr*.py"))
        if f"snippets/{path.name}" not in claimed
    ]
