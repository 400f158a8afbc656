"""Load a catalogue folder into entries, modules and planned IDs.

Loading never raises on bad content: every defect becomes a Problem naming the
file and the field, so a contributor sees all of them in one run.
"""
from __future__ import annotations

import functools
import os
import re
from dataclasses import dataclass, field
from pathlib import Path

from . import strict_yaml
from .entry import (NATURES, ORIGINS, PLACEHOLDER_MARK, REQUIRED_FIELDS, Entry, Message, Related, is_pinned,
                    template_pattern)
from .files import FileRefused, read_text
from .includes import SNIPPETS
from .safe_text import CONTROL, control_characters, shown
from . import lazy_regex

HEADING = lazy_regex.compile(r"^## (.+?)[ \t]*$", re.M)
# Module IDs become file names and URLs (modules/2.2.md): ASCII letters and digits, joined by . _ or -.
MODULE_ID = lazy_regex.compile(r"[0-9A-Za-z]+(?:[._-][0-9A-Za-z]+)*")
MODULE_ID_MAX = 16
# the last step of a field path: "[3]", ".text", or the whole top-level name
ENCLOSING = lazy_regex.compile(r"(?:\[[0-9]+\]|\.[^.\[]*|^[^.\[]*)\Z")
FRONT_MATTER_LINE = 2      # the front matter's YAML starts on the file's second line, after ---


@dataclass(frozen=True)
class Problem:
    path: str
    field: str
    message: str
    line: int | None = None     # the line of the file, when the problem has one

    def __str__(self) -> str:
        where = f"{self.path}:{self.line}" if self.line else self.path
        return f"{where}: {self.field}: {self.message}"


@dataclass
class Lines:
    """Where an entry's fields and body sit in its file, so later checks can name the line."""
    fields: dict[str, int]      # "related[0].id" -> file line
    body_start: int             # the file line of the body's first line

    def of(self, field_path: str) -> int | None:
        """The line of a field, or of the nearest enclosing field the file has."""
        while field_path:
            if field_path in self.fields:
                return self.fields[field_path]
            parent = ENCLOSING.sub("", field_path)
            if parent == field_path:
                break
            field_path = parent
        return None

    def in_body(self, body: str, offset: int) -> int:
        """The file line of position `offset` in the body."""
        return self.body_start + body.count("\n", 0, offset)


@dataclass
class Catalog:
    root: Path          # the project folder: snippet paths are relative to it
    folder: Path        # the catalogue folder, as the user named it
    entries: dict[str, Entry] = field(default_factory=dict)
    modules: dict[str, str] = field(default_factory=dict)
    planned: dict[str, str] = field(default_factory=dict)              # ID -> working title
    planned_summaries: dict[str, str] = field(default_factory=dict)    # ID -> one line on what it will cover
    planned_lines: dict[str, int] = field(default_factory=dict)        # ID -> its line in planned.yml
    problems: list[Problem] = field(default_factory=list)
    lines: dict[Path, Lines] = field(default_factory=dict)             # entry file -> where its parts are
    # IDs named by a file that could not be loaded (or whose ID differs from its name): the file's
    # problems are reported once, and a link to the ID does not add a misleading "does not exist".
    unloaded: set[str] = field(default_factory=set)
    # modules.yml could not be read: its problem is reported, and the entries' modules are not each called unknown
    modules_unread: bool = False

    def sorted_entries(self) -> list[Entry]:
        return [self.entries[k] for k in sorted(self.entries)]

    def title_of(self, entry_id: str) -> str:
        if entry_id in self.entries:
            return self.entries[entry_id].title
        return self.planned.get(entry_id, "")

    def related(self, entry: Entry) -> list[tuple[str, str]]:
        """Links this entry declares, then links declared towards it by others, seen from this side."""
        pairs = [(link.id, link.nature) for link in entry.related]
        seen = {rid for rid, _ in pairs}
        for other_id, nature in self._inbound.get(entry.id, []):
            if other_id not in seen:
                pairs.append((other_id, NATURES.get(nature, nature)))
                seen.add(other_id)
        return pairs

    def problem(self, entry: Entry, field_name: str, message: str, at: str | None = None,
                body_offset: int | None = None) -> Problem:
        """A problem with an entry, on the line of field `at` (default: the field named) or of a body position."""
        lines = self.lines.get(entry.path)
        line = None
        if lines is not None:
            line = lines.in_body(entry.body, body_offset) if body_offset is not None else lines.of(at or field_name)
        return Problem(str(entry.path), field_name, message, line)

    @functools.cached_property
    def _inbound(self) -> dict[str, list[tuple[str, str]]]:
        """Target ID -> (declaring ID, nature), built once so a page costs no scan of the catalogue."""
        inbound: dict[str, list[tuple[str, str]]] = {}
        for other in self.sorted_entries():
            for link in other.related:
                inbound.setdefault(link.id, []).append((other.id, link.nature))
        return inbound


def project_root(folder: Path) -> Path | None:
    """The project a catalogue folder belongs to: the folder holding it, which must hold snippets/ too.
    Resolved first, so `check .` run inside catalog/ finds the same project as `check catalog`."""
    root = folder.resolve().parent
    return root if (root / SNIPPETS).is_dir() else None


def load(folder: Path | str) -> Catalog:
    folder = Path(folder)
    catalog = Catalog(root=folder.parent, folder=folder)
    if not folder.is_dir():
        catalog.problems.append(Problem(str(folder), "catalogue", "no such folder"))
        return catalog
    root = project_root(folder)
    if root is None:
        catalog.problems.append(Problem(str(folder), "catalogue", (
            f"not inside a project: {folder.resolve().parent / SNIPPETS} does not exist "
            "(a catalogue folder sits beside snippets/; name it, e.g. `trainwreck check catalog`)")))
        return catalog
    catalog.root = root
    catalog.modules, readable = _load_modules(folder / "modules.yml", catalog.problems)
    catalog.modules_unread = not readable
    catalog.planned, catalog.planned_summaries, catalog.planned_lines = _load_planned(folder / "planned.yml",
                                                                                      catalog.problems)
    loaded = [entry for path in sorted(folder.glob("*.md")) if (entry := _load_entry(path, catalog)) is not None]
    by_id: dict[str, list[Entry]] = {}
    for entry in loaded:
        by_id.setdefault(entry.id, []).append(entry)
    catalog.unloaded.update(e.path.stem for e in loaded if e.path.stem != e.id)   # reported by validate
    for entry_id, same in by_id.items():
        # The original is the file named after the ID; failing that, the first by name. Every other is a copy.
        original = next((e for e in same if e.path.stem == entry_id), same[0])
        catalog.entries[entry_id] = original
        for copy in same:
            if copy is not original:
                catalog.problems.append(catalog.problem(copy, "id", f"duplicate ID {entry_id}, also used by "
                                                                    f"{original.path}"))
    return catalog


def _read(path: Path, problems: list[Problem]) -> str | None:
    try:
        return read_text(path)
    except FileRefused as exc:
        problems.append(Problem(str(path), "file", str(exc)))
        return None


def _read_yaml(path: Path, problems: list[Problem]) -> tuple[object, dict[str, int]]:
    text = _read(path, problems)
    if text is None:
        return None, {}
    if text.startswith(BOM):
        problems.append(Problem(str(path), "file", BOM_MESSAGE, 1))
        return None, {}
    try:
        data, lines = strict_yaml.load(text)
    except strict_yaml.YamlRefused as exc:
        problems.append(Problem(str(path), "yaml", exc.message, exc.line))
        return None, {}
    _refuse_controls(data, "", lines, str(path), problems)
    return data, lines


def _exists(path: Path) -> bool:
    return path.exists() or path.is_symlink()     # a dangling link is there, and is reported as one


def _load_modules(path: Path, problems: list[Problem]) -> tuple[dict[str, str], bool]:
    """modules.yml: module ID -> title, and whether the file could be read as such a mapping at all (where it could
    not, its problem is reported once, and no entry's module is called unknown for it)."""
    if not _exists(path):
        problems.append(Problem(str(path), "file", "missing"))
        return {}, False
    before = len(problems)
    data, lines = _read_yaml(path, problems)
    if data is None:
        if len(problems) == before:         # (an empty document, or one of comments only)
            problems.append(Problem(str(path), "file", "is empty: a mapping of module ID to title is expected", 1))
        return {}, False
    if not isinstance(data, dict):
        problems.append(Problem(str(path), "file", "must be a mapping of module ID to title", 1))
        return {}, False
    result = {}
    for key, title in data.items():
        line = lines.get(str(key))
        if not isinstance(key, str) or not isinstance(title, str) or not title.strip():
            problems.append(Problem(str(path), shown(key, 40, quote=False),
                                    "key and title must both be text (quote ids like \"2.2\")", line))
        elif len(key) > MODULE_ID_MAX or not MODULE_ID.fullmatch(key):
            problems.append(Problem(str(path), shown(key, 40, quote=False), (
                f"not a module ID: ASCII letters and digits joined by . _ or -, at most {MODULE_ID_MAX} "
                "characters (it becomes a file name and a URL)"), line))
        else:
            result[key] = title.strip()
    return result, True


def _load_planned(path: Path, problems: list[Problem]) -> tuple[dict[str, str], dict[str, str], dict[str, int]]:
    """planned.yml: ID -> {title, summary}; and the line of each ID."""
    if not _exists(path):
        return {}, {}, {}
    data, lines = _read_yaml(path, problems)
    if data is None:
        return {}, {}, {}
    if not isinstance(data, dict):
        problems.append(Problem(str(path), "file", "must be a mapping of ID to {title, summary}", 1))
        return {}, {}, {}
    titles, summaries = {}, {}
    for key, item in data.items():
        if not (isinstance(key, str) and isinstance(item, dict) and set(item) == {"title", "summary"}
                and all(isinstance(v, str) and v.strip() for v in item.values())):
            problems.append(Problem(str(path), shown(key, 40, quote=False),
                                    "must be WR-NNN: {title: ..., summary: ...}", lines.get(str(key))))
            continue
        titles[key], summaries[key] = item["title"].strip(), item["summary"].strip()
    return titles, summaries, {key: lines[key] for key in titles if key in lines}


BOM = "\ufeff"
BOM_MESSAGE = "starts with a byte-order mark (U+FEFF): save the file as UTF-8 without one"
DELIMITER = lazy_regex.compile(r"---[ \t]*")


def _front_matter(text: str, where: str, problems: list[Problem]) -> tuple[str, str, int] | None:
    """The front matter's YAML, the body, and the body's first file line."""
    if text.startswith(BOM):
        problems.append(Problem(where, "file", BOM_MESSAGE, 1))
        return None
    lines = text.split("\n")
    if not DELIMITER.fullmatch(lines[0]):
        problems.append(Problem(where, "front matter", "missing: the file must start with a --- YAML block ---", 1))
        return None
    close = next((i for i in range(1, len(lines)) if DELIMITER.fullmatch(lines[i])), None)
    if close is None:
        problems.append(Problem(where, "front matter", "the --- block opened on line 1 is never closed: "
                                                       "end it with a line holding only ---", 1))
        return None
    body = "\n".join(lines[close + 1:])
    following = next((i for i in range(close + 1, len(lines)) if lines[i].strip()), None)
    if following is not None and DELIMITER.fullmatch(lines[following]):
        problems.append(Problem(where, "front matter", (
            f"a second --- block starts on line {following + 1}: an entry has one front matter block "
            "(its fields would be ignored); move them into the first"), following + 1))
        return None
    return "\n".join(lines[1:close]), body, close + 2


def _refuse_controls(value, path: str, lines: dict[str, int], where: str, problems: list[Problem]) -> None:
    """Catalogue fields are one line of text: no control characters, no escape sequences, no line breaks.
    They reach terminals, page titles and link attributes; a line break would also break a table row."""
    if isinstance(value, str):
        found = control_characters(value.strip())
        if found:
            problems.append(Problem(where, path or "?", (
                f"contains the control character{'s' if len(found) > 1 else ''} {', '.join(found[:4])}: "
                "catalogue fields are one line of plain text (no escape sequences, tabs or line breaks)"),
                Lines(lines, 0).of(path)))
    elif isinstance(value, dict):
        for key, item in value.items():
            here = f"{path}.{key}" if path else str(key)
            _refuse_controls(key, here, lines, where, problems)
            _refuse_controls(item, here, lines, where, problems)
    elif isinstance(value, list):
        for i, item in enumerate(value):
            _refuse_controls(item, f"{path}[{i}]", lines, where, problems)


def _load_entry(path: Path, catalog: Catalog) -> Entry | None:
    """The entry in `path`, or None when a problem in it would make later checks misleading.
    A problem that leaves the rest meaningful (an unknown field, a control character, one bad
    module or related item) is reported and the entry kept, so its other problems are found too."""
    entry, fatal = _parse_entry(path, catalog)
    if entry is None or fatal:
        # reported already: keep its ID known so links to it do not add a misleading "does not exist"
        catalog.unloaded.add(entry.id if entry is not None else path.stem)
        return None
    return entry


def _parse_entry(path: Path, catalog: Catalog) -> tuple[Entry | None, bool]:
    problems, where = catalog.problems, str(path)
    text = _read(path, problems)
    if text is None:
        return None, True
    split = _front_matter(text, where, problems)
    if split is None:
        return None, True
    yaml_text, body, body_start = split
    try:
        meta, field_lines = strict_yaml.load(yaml_text, first_line=FRONT_MATTER_LINE)
    except strict_yaml.YamlRefused as exc:
        problems.append(Problem(where, "yaml", exc.message, exc.line))
        return None, True
    if not isinstance(meta, dict):
        problems.append(Problem(where, "front matter", "must be a YAML mapping", FRONT_MATTER_LINE))
        return None, True
    lines = Lines(field_lines, body_start)
    catalog.lines[path] = lines
    fatal = False

    def bad(name: str, message: str, at: str | None = None, *, drop: bool = True) -> None:
        nonlocal fatal
        problems.append(Problem(where, name, message, lines.of(at or name)))
        fatal = fatal or drop

    _refuse_controls(meta, "", field_lines, where, problems)
    _refuse_body_controls(body, lines, where, problems)
    for name in REQUIRED_FIELDS:
        if name not in meta:
            bad(name, "required field missing")
    for name in meta:
        if name not in REQUIRED_FIELDS:
            bad(shown(name, 40, quote=False), "unknown field", str(name), drop=False)
    for name in ("id", "title", "summary", "status", "snippet"):
        if name in meta and not (isinstance(meta[name], str) and meta[name].strip()):
            bad(name, "must be non-empty text")
    modules = meta.get("modules", [])
    if not isinstance(modules, list):
        bad("modules", 'must be a list of module ids as text, e.g. ["2.2"]')
        modules = []
    for i, module in enumerate(modules):
        if not isinstance(module, str):
            bad("modules", f"{shown(module, 20)} is not text: quote module ids, e.g. [\"2.2\"]", f"modules[{i}]",
                drop=False)
    related = _related(meta.get("related", []), bad)
    messages, trace, phrases, also_trace = _symptoms(meta.get("symptoms", {}), bad)
    if not (isinstance(meta.get("id"), str) and meta["id"].strip()):
        return None, True
    text_of = {name: meta[name].strip() if isinstance(meta.get(name), str) else "" for name in
               ("title", "summary", "status", "snippet")}
    entry = Entry(
        path=path,
        id=meta["id"].strip(),
        title=text_of["title"],
        summary=text_of["summary"],
        status=text_of["status"],
        modules=[m.strip() for m in modules if isinstance(m, str)],
        related=related,
        messages=messages,
        trace=trace,
        also_trace=also_trace,
        snippet=text_of["snippet"],
        body=body,
        sections=split_sections(body),
        phrases=phrases,
    )
    return entry, fatal


def _refuse_body_controls(body: str, lines: Lines, where: str, problems: list[Problem]) -> None:
    """The body may hold tabs and line breaks, nothing else invisible: no escape sequences, no bidi overrides."""
    reported: set[str] = set()
    for m in CONTROL.finditer(body):
        name = f"U+{ord(m[0]):04X}"
        if m[0] in "\n\t" or name in reported:
            continue
        reported.add(name)
        problems.append(Problem(where, "body", f"contains the control character {name}: remove it "
                                              "(escape sequences and invisible characters are not allowed)",
                                lines.in_body(body, m.start())))


def _related(raw, bad) -> list[Related]:
    if raw is None:
        return []
    if not isinstance(raw, list):
        bad("related", "must be a list of {id, nature}")
        return []
    result = []
    for i, item in enumerate(raw):
        if not (isinstance(item, dict) and set(item) == {"id", "nature"}
                and all(isinstance(v, str) for v in item.values())):
            bad("related", f"each item must be {{id: WR-NNN, nature: ...}}, got {shown(item)}", f"related[{i}]",
                drop=False)
            continue
        result.append(Related(item["id"].strip(), item["nature"].strip()))
    return result


SYMPTOM_KEYS = {"messages", "trace", "also_trace", "phrases"}
MESSAGE_KEYS = {"text", "from", "source", "example", "opt_in", "fix", "also"}


def _symptoms(raw, bad) -> tuple[list[Message], str, list[str], str]:
    if not isinstance(raw, dict) or set(raw) - SYMPTOM_KEYS:
        bad("symptoms", "must be a mapping with 'messages', 'trace' and optional 'also_trace' and 'phrases'")
        return [], "", [], ""
    messages = raw.get("messages", [])
    if not isinstance(messages, list):
        bad("symptoms.messages", "must be a list of {text, from, source}")
        messages = []
    parsed = [m for i, item in enumerate(messages) if (m := _message(item, i, bad)) is not None]
    trace = raw.get("trace")
    if not isinstance(trace, str):
        bad("symptoms.trace", "required: a loss-curve signature name", "symptoms")
        trace = ""
    phrases = raw.get("phrases", [])
    if not (isinstance(phrases, list) and all(isinstance(x, str) and x.strip() for x in phrases)):
        bad("symptoms.phrases", "must be a list of short texts")
        phrases = []
    also = raw.get("also_trace", "")
    if not isinstance(also, str):
        bad("symptoms.also_trace", "must be a loss-curve signature name")
        also = ""
    return parsed, trace, [p.strip() for p in phrases], also


def _message(item, index: int, bad) -> Message | None:
    """One declared message: its exact text, who prints it, and the pinned source that shows the wording."""
    field_name = f"symptoms.messages[{index}]"
    also = item.get("also", []) if isinstance(item, dict) else []
    if not (isinstance(item, dict) and {"text", "from", "source"} <= set(item) <= MESSAGE_KEYS
            and all(isinstance(v, str) and v.strip() for k, v in item.items() if k != "also")
            and isinstance(also, list) and all(isinstance(v, str) and v.strip() for v in also)
            and (also or "also" not in item)):
        bad(field_name, "must be {text: ..., from: ..., source: <pinned URL>} with an optional example: ..., "
                        "opt_in: ... and fix: ..., all non-empty text, and also: a list of further instances")
        return None
    message = Message(item["text"].strip(), item["from"].strip(), item["source"].strip(),
                      item.get("example", "").strip(), item.get("opt_in", "").strip(), item.get("fix", "").strip(),
                      tuple(v.strip() for v in also))
    ok = True
    if message.origin not in ORIGINS:
        bad(field_name, f"from: unknown origin (one of {', '.join(ORIGINS)})", f"{field_name}.from")
        ok = False
    if not is_pinned(message.source):
        bad(field_name, "source: must be a URL pinned to a release or a commit "
                        "(a GitHub file at a tag, or a versioned documentation page), not a moving branch",
            f"{field_name}.source")
        ok = False
    if PLACEHOLDER_MARK in message.text and not message.example:
        bad(field_name, "a text with {} needs an example: as a user sees it")
        ok = False
    elif message.example and not template_pattern(message.text).fullmatch(message.example):
        bad(field_name, "example: does not match the text (each {} stands for one value)", f"{field_name}.example")
        ok = False
    for instance in message.also:
        if PLACEHOLDER_MARK not in message.text or not template_pattern(message.text).fullmatch(instance):
            bad(field_name, f"also: {shown(instance, 60)} does not match the text (each {{}} stands for one value)",
                f"{field_name}.also")
            ok = False
    return message if ok else None


def split_sections(body: str) -> dict[str, str]:
    """Map each `## ` heading of the body to its text, in order."""
    parts = HEADING.split(body)
    return {parts[i].strip(): parts[i + 1].strip() for i in range(1, len(parts) - 1, 2)}


def section_offsets(body: str) -> dict[str, int]:
    """Where each `## ` heading of the body starts (the first, if a heading is repeated)."""
    offsets: dict[str, int] = {}
    for m in HEADING.finditer(body):
        offsets.setdefault(m[1].strip(), m.start())
    return offsets
