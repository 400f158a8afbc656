"""Load a catalogue folder into entries, modules and planned IDs.

Loading never raises on bad content: every defect becomes a Problem naming the
file and the field, so a contributor sees all of them in one run.
"""
from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field
from pathlib import Path

import yaml

from .entry import (NATURES, ORIGINS, PLACEHOLDER_MARK, REQUIRED_FIELDS, Entry, Message, Related, is_pinned,
                    template_pattern)

FRONT_MATTER = re.compile(r"\A---[ \t]*\n(.*?)\n---[ \t]*\n(.*)\Z", re.S)
HEADING = re.compile(r"^## (.+?)\s*$", re.M)


@dataclass(frozen=True)
class Problem:
    path: str
    field: str
    message: str

    def __str__(self) -> str:
        return f"{self.path}: {self.field}: {self.message}"


@dataclass
class Catalog:
    root: Path          # the project folder: snippet paths are relative to it
    folder: Path        # the catalogue folder, as the user named it
    entries: dict[str, Entry] = field(default_factory=dict)
    modules: dict[str, str] = field(default_factory=dict)
    planned: dict[str, str] = field(default_factory=dict)              # ID -> working title
    planned_summaries: dict[str, str] = field(default_factory=dict)    # ID -> one line on what it will cover
    problems: list[Problem] = field(default_factory=list)

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

    @functools.cached_property
    def _inbound(self) -> dict[str, list[tuple[str, str]]]:
        """Target ID -> (declaring ID, nature), built once so a page costs no scan of the catalogue."""
        inbound: dict[str, list[tuple[str, str]]] = {}
        for other in self.sorted_entries():
            for link in other.related:
                inbound.setdefault(link.id, []).append((other.id, link.nature))
        return inbound


def load(folder: Path | str) -> Catalog:
    folder = Path(folder)
    catalog = Catalog(root=folder.parent, folder=folder)
    if not folder.is_dir():
        catalog.problems.append(Problem(str(folder), "catalogue", "no such folder"))
        return catalog
    catalog.modules = _load_mapping(folder / "modules.yml", catalog.problems, required=True)
    catalog.planned, catalog.planned_summaries = _load_planned(folder / "planned.yml", catalog.problems)
    seen: dict[str, Path] = {}
    for path in sorted(folder.glob("*.md")):
        entry = _load_entry(path, catalog.problems)
        if entry is None:
            continue
        if entry.id in seen:
            catalog.problems.append(
                Problem(str(path), "id", f"duplicate ID {entry.id}, also used by {seen[entry.id]}")
            )
            continue
        seen[entry.id] = path
        catalog.entries[entry.id] = entry
    return catalog


def _read_yaml(path: Path, problems: list[Problem]):
    try:
        return yaml.safe_load(path.read_text(encoding="utf-8"))
    except UnicodeDecodeError:
        problems.append(Problem(str(path), "file", "not UTF-8 text"))
    except yaml.YAMLError as exc:
        problems.append(Problem(str(path), "yaml", _yaml_reason(exc)))
    return None


def _yaml_reason(exc: yaml.YAMLError) -> str:
    mark = getattr(exc, "problem_mark", None)
    reason = getattr(exc, "problem", None) or str(exc).splitlines()[0]
    where = f" (line {mark.line + 1}, column {mark.column + 1})" if mark else ""
    return f"not valid YAML: {reason}{where}"


def _load_mapping(path: Path, problems: list[Problem], required: bool) -> dict[str, str]:
    if not path.exists():
        if required:
            problems.append(Problem(str(path), "file", "missing"))
        return {}
    data = _read_yaml(path, problems)
    if data is None:
        return {}
    if not isinstance(data, dict):
        problems.append(Problem(str(path), "file", "must be a mapping of ID to title"))
        return {}
    result = {}
    for key, title in data.items():
        if not isinstance(key, str) or not isinstance(title, str) or not title.strip():
            problems.append(
                Problem(str(path), str(key), "key and title must both be text (quote ids like \"2.2\")")
            )
            continue
        result[key] = title.strip()
    return result


def _load_planned(path: Path, problems: list[Problem]) -> tuple[dict[str, str], dict[str, str]]:
    """planned.yml: ID -> {title, summary}."""
    if not path.exists():
        return {}, {}
    data = _read_yaml(path, problems)
    if data is None:
        return {}, {}
    if not isinstance(data, dict):
        problems.append(Problem(str(path), "file", "must be a mapping of ID to {title, summary}"))
        return {}, {}
    titles, summaries = {}, {}
    for key, item in data.items():
        if not (isinstance(key, str) and isinstance(item, dict) and set(item) == {"title", "summary"}
                and all(isinstance(v, str) and v.strip() for v in item.values())):
            problems.append(Problem(str(path), str(key)[:40], "must be WR-NNN: {title: ..., summary: ...}"))
            continue
        titles[key], summaries[key] = item["title"].strip(), item["summary"].strip()
    return titles, summaries


def _load_entry(path: Path, problems: list[Problem]) -> Entry | None:
    where = str(path)
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        problems.append(Problem(where, "file", "not UTF-8 text"))
        return None
    m = FRONT_MATTER.match(text.replace("\r\n", "\n"))
    if not m:
        problems.append(Problem(where, "front matter", "missing: the file must start with a --- YAML block ---"))
        return None
    try:
        meta = yaml.safe_load(m.group(1))
    except yaml.YAMLError as exc:
        problems.append(Problem(where, "yaml", _yaml_reason(exc)))
        return None
    if not isinstance(meta, dict):
        problems.append(Problem(where, "front matter", "must be a YAML mapping"))
        return None
    bad = False
    for name in REQUIRED_FIELDS:
        if name not in meta:
            problems.append(Problem(where, name, "required field missing"))
            bad = True
    for name in meta:
        if name not in REQUIRED_FIELDS:
            problems.append(Problem(where, str(name), "unknown field"))
    for name in ("id", "title", "summary", "status", "snippet"):
        if name in meta and not (isinstance(meta[name], str) and meta[name].strip()):
            problems.append(Problem(where, name, "must be non-empty text"))
            bad = True
    modules = meta.get("modules", [])
    if not (isinstance(modules, list) and all(isinstance(x, str) for x in modules)):
        problems.append(Problem(where, "modules", 'must be a list of module ids as text, e.g. ["2.2"]'))
        modules, bad = [], True
    related = _related(meta.get("related", []), where, problems)
    messages, trace, phrases = _symptoms(meta.get("symptoms", {}), where, problems)
    if bad:
        return None
    body = m.group(2)
    return Entry(
        path=path,
        id=meta["id"].strip(),
        title=meta["title"].strip(),
        summary=meta["summary"].strip(),
        status=meta["status"].strip(),
        modules=modules,
        related=related,
        messages=messages,
        trace=trace,
        snippet=meta["snippet"].strip(),
        body=body,
        sections=split_sections(body),
        phrases=phrases,
    )


def _related(raw, where: str, problems: list[Problem]) -> list[Related]:
    if raw is None:
        return []
    if not isinstance(raw, list):
        problems.append(Problem(where, "related", "must be a list of {id, nature}"))
        return []
    result = []
    for item in raw:
        if not (isinstance(item, dict) and set(item) == {"id", "nature"}
                and all(isinstance(v, str) for v in item.values())):
            problems.append(Problem(where, "related", f"each item must be {{id: WR-NNN, nature: ...}}, got {item!r}"))
            continue
        result.append(Related(item["id"].strip(), item["nature"].strip()))
    return result


SYMPTOM_KEYS = {"messages", "trace", "phrases"}
MESSAGE_KEYS = {"text", "from", "source", "example"}


def _symptoms(raw, where: str, problems: list[Problem]) -> tuple[list[Message], str, list[str]]:
    if not isinstance(raw, dict) or set(raw) - SYMPTOM_KEYS:
        problems.append(Problem(where, "symptoms", "must be a mapping with 'messages', 'trace' and optional 'phrases'"))
        return [], "", []
    messages = raw.get("messages", [])
    if not isinstance(messages, list):
        problems.append(Problem(where, "symptoms.messages", "must be a list of {text, from, source}"))
        messages = []
    parsed = [m for i, item in enumerate(messages) if (m := _message(item, i, where, problems)) is not None]
    trace = raw.get("trace")
    if not isinstance(trace, str):
        problems.append(Problem(where, "symptoms.trace", "required: a loss-curve signature name"))
        trace = ""
    phrases = raw.get("phrases", [])
    if not (isinstance(phrases, list) and all(isinstance(x, str) and x.strip() for x in phrases)):
        problems.append(Problem(where, "symptoms.phrases", "must be a list of short texts"))
        phrases = []
    return parsed, trace, [p.strip() for p in phrases]


def _message(item, index: int, where: str, problems: list[Problem]) -> Message | None:
    """One declared message: its exact text, who prints it, and the pinned source that shows the wording."""
    field_name = f"symptoms.messages[{index}]"
    if not (isinstance(item, dict) and {"text", "from", "source"} <= set(item) <= MESSAGE_KEYS
            and all(isinstance(v, str) and v.strip() for v in item.values())):
        problems.append(Problem(where, field_name, "must be {text: ..., from: ..., source: <pinned URL>} "
                                "with an optional example: ..., all non-empty text"))
        return None
    message = Message(item["text"].strip(), item["from"].strip(), item["source"].strip(),
                      item.get("example", "").strip())
    bad = False
    if message.origin not in ORIGINS:
        problems.append(Problem(where, field_name, f"from: unknown origin (one of {', '.join(ORIGINS)})"))
        bad = True
    if not is_pinned(message.source):
        problems.append(Problem(where, field_name, "source: must be a URL pinned to a release or a commit "
                                "(a GitHub file at a tag, or a versioned documentation page), not a moving branch"))
        bad = True
    if PLACEHOLDER_MARK in message.text and not message.example:
        problems.append(Problem(where, field_name, "a text with {} needs an example: as a user sees it"))
        bad = True
    elif message.example and not template_pattern(message.text).fullmatch(message.example):
        problems.append(Problem(where, field_name, "example: does not match the text (each {} stands for one value)"))
        bad = True
    return None if bad else message


def split_sections(body: str) -> dict[str, str]:
    """Map each `## ` heading of the body to its text, in order."""
    parts = HEADING.split(body)
    return {parts[i].strip(): parts[i + 1].strip() for i in range(1, len(parts) - 1, 2)}
