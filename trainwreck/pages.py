"""Markdown for the generated site pages, built from a loaded catalogue."""
from __future__ import annotations

import re

from .catalog import Catalog
from .entry import NATURES, Entry

ENTRY_INDEX_MARK = "<!-- trainwreck:entry-index -->"
ID_MENTION = re.compile(r"(?<![\w/-])(WR-\d{3})(?![\w-])")
FENCE = re.compile(r"^(```|~~~)", re.M)


def entry_page(entry: Entry, catalog: Catalog) -> str:
    modules = ", ".join(f"{m} {catalog.modules.get(m, '')}".strip() for m in entry.modules)
    lines = [
        f"# {entry.id}: {entry.title}",
        "",
        f"*{entry.summary}*",
        "",
        f"**Status:** {entry.status} · **Modules:** {modules}",
        "",
    ]
    related = related_of(entry, catalog)
    if related:
        lines.append("**Related:** " + " · ".join(
            f"{_link(rid, catalog, entry.id)} ({nature.replace('-', ' ')})" for rid, nature in related))
        lines.append("")
    body = link_ids(entry.body, catalog, entry.id)
    lines.append(collapse_answers(body))
    return "\n".join(lines)


def related_of(entry: Entry, catalog: Catalog) -> list[tuple[str, str]]:
    """Links declared by this entry, then links declared towards it by others."""
    pairs = [(link.id, link.nature) for link in entry.related]
    seen = {rid for rid, _ in pairs}
    for other in catalog.sorted_entries():
        for link in other.related:
            if link.id == entry.id and other.id not in seen:
                pairs.append((other.id, NATURES.get(link.nature, link.nature)))
                seen.add(other.id)
    return pairs


def _link(entry_id: str, catalog: Catalog, self_id: str) -> str:
    title = catalog.title_of(entry_id)
    if entry_id in catalog.entries and entry_id != self_id:
        return f"[{entry_id}]({entry_id}.md \"{title}\")"
    if entry_id in catalog.planned:
        return f"{entry_id} *(planned: {title})*"
    return entry_id


def link_ids(markdown: str, catalog: Catalog, self_id: str) -> str:
    """Turn bare mentions of existing entry IDs into links, outside code blocks."""
    parts = FENCE.split(markdown)
    out, in_code = [], False
    for part in parts:
        if FENCE.fullmatch(part):
            in_code = not in_code
            out.append(part)
            continue
        if in_code:
            out.append(part)
        else:
            out.append(ID_MENTION.sub(
                lambda m: _link(m[1], catalog, self_id) if m[1] in catalog.entries and m[1] != self_id else m[1],
                part))
    return "".join(out)


def collapse_answers(body: str) -> str:
    """Fold each answer subsection into a closed details block the reader opens."""
    def fold(m: re.Match) -> str:
        text = "\n".join(("    " + l) if l.strip() else "" for l in m["text"].strip("\n").splitlines())
        return f'??? success "{m["head"]}"\n\n{text}\n\n'

    return re.sub(r"^### (?P<head>Strong answer|Bonus point)\s*\n(?P<text>.*?)(?=^### |^## |\Z)",
                  fold, body, flags=re.S | re.M)


def entry_index(catalog: Catalog) -> str:
    rows = ["| ID | Title | Modules | Status |", "|---|---|---|---|"]
    for e in catalog.sorted_entries():
        rows.append(f"| [{e.id}]({e.id}.md) | {e.title} | {', '.join(e.modules)} | {e.status} |")
    return "\n".join(rows)
