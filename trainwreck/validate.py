"""Cross-checks of a loaded catalogue: everything an entry names must exist."""
from __future__ import annotations

import re
from pathlib import Path

from .catalog import Catalog, Problem, load
from .entry import (ANSWER_HEADINGS, FRAMEWORK_LABELS, FRAMEWORK_PARTS, FRAMEWORK_SECTION, ID_PATTERN, NATURES,
                    SECTIONS, STATUSES, TRACES)
from .framework_part import framework_parts, quoted_in, seen_quotes
from .scaffold import PLACEHOLDER
from .snippet_sections import includes_in, sections_of

SNIPPET_NAME = re.compile(r"^wr(\d{3})_[a-z0-9_]+\.py$")
REQUIRED_REGIONS = ("reproduce", "fix")
# Origins whose messages the entry's own snippet prints (and its tests pin);
# every other declared message is a framework's and must be quoted in the framework section.
SNIPPET_ORIGINS = ("numpy", "python")
# Until every entry has its framework section, an entry without one is not
# refused; an entry that has one is held to its full shape.
FRAMEWORK_SECTION_REQUIRED = False


def check(folder: Path | str) -> tuple[Catalog, list[Problem]]:
    """Load and validate; return the catalogue and every problem found."""
    catalog = load(folder)
    problems = list(catalog.problems)
    for key in catalog.planned:
        where = str(catalog.folder / "planned.yml")
        if not ID_PATTERN.match(key):
            problems.append(Problem(where, key, "not an ID of the form WR-NNN"))
        elif key in catalog.entries:
            problems.append(Problem(where, key, "the entry exists now; remove it from planned.yml"))
    claimed: dict[str, str] = {}
    regions = _Regions(catalog.root)
    for entry in catalog.sorted_entries():
        problems += _check_entry(entry, catalog, claimed, regions)
    if not catalog.problems:  # an entry that failed to load would leave its snippet looking orphaned
        problems += _unclaimed_snippets(catalog, claimed)
    return catalog, problems


class _Regions:
    """Each snippet's text and marked regions, read once however many entries include it."""

    def __init__(self, root: Path):
        self.root, self._text, self._regions = root, {}, {}

    def text(self, path: str) -> str | None:
        if path not in self._text:
            target = self.root / path
            self._text[path] = target.read_text(encoding="utf-8", errors="replace") if target.is_file() else None
        return self._text[path]

    def of(self, path: str) -> dict[str, str] | None:
        if path not in self._regions:
            text = self.text(path)
            self._regions[path] = sections_of(text) if text is not None else None
        return self._regions[path]


def _check_entry(entry, catalog: Catalog, claimed: dict[str, str], regions: _Regions) -> list[Problem]:
    where = str(entry.path)
    out: list[Problem] = []

    def bad(field: str, message: str) -> None:
        out.append(Problem(where, field, message))

    if not ID_PATTERN.match(entry.id):
        bad("id", f"{entry.id!r} is not of the form WR-NNN")
    elif entry.path.stem != entry.id:
        bad("id", f"{entry.id} does not match the file name {entry.path.name}")
    if entry.status not in STATUSES:
        bad("status", f"{entry.status!r} is not one of {', '.join(STATUSES)}")
    if not entry.modules:
        bad("modules", "at least one module is required")
    for module in entry.modules:
        if module not in catalog.modules:
            bad("modules", f"unknown module {module!r} (not in modules.yml)")
    for link in entry.related:
        if link.nature not in NATURES:
            bad("related", f"{link.id}: unknown nature {link.nature!r} (one of {', '.join(NATURES)})")
        if link.id == entry.id:
            bad("related", f"{link.id}: an entry cannot relate to itself")
        elif link.id not in catalog.entries and link.id not in catalog.planned:
            bad("related", f"{link.id} does not exist and is not declared in planned.yml")
    if entry.trace not in TRACES:
        bad("symptoms.trace", f"unknown signature {entry.trace!r} (one of {', '.join(TRACES)})")

    _check_snippet(entry, catalog, claimed, regions, bad)
    _check_sections(entry, bad)
    _check_framework_part(entry, bad)
    return out


def _check_snippet(entry, catalog: Catalog, claimed: dict[str, str], regions: _Regions, bad) -> None:
    path = catalog.root / entry.snippet
    m = SNIPPET_NAME.match(Path(entry.snippet).name)
    if not entry.snippet.startswith("snippets/") or not m:
        bad("snippet", f"{entry.snippet!r} must be snippets/wrNNN_<slug>.py")
    elif m.group(1) != entry.id[3:]:
        bad("snippet", f"{entry.snippet} is numbered for WR-{m.group(1)}, not {entry.id}")
    if not path.is_file():
        bad("snippet", f"{entry.snippet} does not exist")
    elif entry.snippet in claimed:
        bad("snippet", f"{entry.snippet} is already the snippet of {claimed[entry.snippet]}")
    else:
        claimed[entry.snippet] = entry.id
        if PLACEHOLDER in regions.text(entry.snippet):
            bad("snippet", f"{entry.snippet} still holds the scaffold's {PLACEHOLDER} placeholder")
    own = regions.of(entry.snippet) if path.is_file() else None
    if own is not None:
        for region in REQUIRED_REGIONS:
            if region not in own:
                bad("snippet", f"{entry.snippet} has no region [start:{region}] ... [end:{region}] "
                               f"(the page's {region.title()} tab)")
    included = includes_in(entry.body)
    for inc_path, section in included:
        found = regions.of(inc_path)
        if found is None:
            bad("include", f"{inc_path} does not exist")
        elif section and section not in found:
            bad("include", f"{inc_path} has no section [start:{section}] ... [end:{section}]")


def _check_sections(entry, bad) -> None:
    found = list(entry.sections)
    expected = list(SECTIONS)
    if not FRAMEWORK_SECTION_REQUIRED and FRAMEWORK_SECTION not in found:
        expected.remove(FRAMEWORK_SECTION)
    if found != expected:
        missing = [s for s in expected if s not in found]
        extra = [s for s in found if s not in SECTIONS]
        if missing:
            bad("sections", f"missing: {', '.join(missing)}")
        if extra:
            bad("sections", f"unexpected: {', '.join(extra)}")
        if not missing and not extra:
            bad("sections", f"out of order: expected {' / '.join(expected)}")
    for name in SECTIONS:
        if name in entry.sections and not entry.sections[name]:
            bad("sections", f"{name} is empty")
    for name, text in entry.sections.items():
        if PLACEHOLDER in text:
            bad("sections", f"{name} still holds the scaffold's {PLACEHOLDER} placeholder")
    if PLACEHOLDER in entry.summary:
        bad("summary", f"still the scaffold's {PLACEHOLDER} placeholder")
    question = entry.sections.get("Interview question", "")
    for heading in ANSWER_HEADINGS:
        if question and not re.search(rf"^### {heading}\s*\n+\S", question, re.M):
            bad("sections", f"Interview question needs a non-empty '### {heading}'")


def _check_framework_part(entry, bad) -> None:
    """One part per framework, each saying what you see, how to confirm it and the fix;
    every message quoted under "What you see:" is declared (so the page can cite it),
    and every declared framework message is quoted."""
    text = entry.sections.get(FRAMEWORK_SECTION)
    if text is None:
        return
    where = "sections"
    parts = framework_parts(text)
    if list(parts) != list(FRAMEWORK_PARTS):
        bad(where, f"{FRAMEWORK_SECTION} needs the ### parts {' / '.join(FRAMEWORK_PARTS)}, in that order "
                   f"(found: {' / '.join(parts) or 'none'})")
    for name, body in parts.items():
        for label in FRAMEWORK_LABELS:
            if f"**{label}**" not in body:
                bad(where, f"{FRAMEWORK_SECTION}, {name}: needs a paragraph starting **{label}**")
    for quote in seen_quotes(text):
        if not any(m.matches(quote) for m in entry.messages):
            bad("symptoms.messages", f"{FRAMEWORK_SECTION} quotes `{_short(quote)}` after \"What you see:\" but "
                                     "does not declare it (declare it with its pinned source, or quote it elsewhere)")
    for message in entry.messages:
        if message.origin not in SNIPPET_ORIGINS and not quoted_in(text, message):
            bad("symptoms.messages", f"the {message.origin} message `{_short(message.shown)}` is declared but not "
                                     f"quoted in {FRAMEWORK_SECTION}")


def _short(text: str, limit: int = 80) -> str:
    return text if len(text) <= limit else text[:limit - 1] + "…"


def _unclaimed_snippets(catalog: Catalog, claimed: dict[str, str]) -> list[Problem]:
    folder = catalog.root / "snippets"
    if not folder.is_dir():
        return []
    return [
        Problem(str(path.relative_to(catalog.root)), "snippet", "not the snippet of any entry")
        for path in sorted(folder.glob("wr*.py"))
        if f"snippets/{path.name}" not in claimed
    ]
