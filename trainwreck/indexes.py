"""Markdown for the pages that list entries: home table, modules, symptoms."""
from __future__ import annotations

from .catalog import Catalog
from .entry import STAGES, TRACES, stage_of
from .md_escape import md_code, md_text, page_title
from .pages import entry_path, handout_path, module_handout_path, module_path

ENTRY_INDEX_MARK = "<!-- trainwreck:entry-index -->"


def entry_index(catalog: Catalog, prefix: str = "") -> str:
    rows = ["| ID | Title | Modules | Status |", "|---|---|---|---|"]
    for e in catalog.sorted_entries():
        modules = ", ".join(f"[{m}]({prefix}{module_path(m)})" for m in e.modules)
        rows.append(f"| [{e.id}]({prefix}{entry_path(e.id)}) | {md_text(e.title)} | {modules} | {e.status} |")
    return "\n".join(rows)


def entries_in_module(catalog: Catalog, module_id: str):
    return [e for e in catalog.sorted_entries() if module_id in e.modules]


def modules_index(catalog: Catalog) -> str:
    lines = ["# Modules", "",
             "The course map from `catalog/modules.yml`. Each module page lists the entries it assigns.", "",
             "| Module | Title | Entries |", "|---|---|---|"]
    for mid, title in catalog.modules.items():
        lines.append(f"| [{mid}]({mid}.md) | {md_text(title)} | {len(entries_in_module(catalog, mid))} |")
    return "\n".join(lines)


def module_page(catalog: Catalog, module_id: str) -> str:
    title = f"Module {module_id}: {catalog.modules[module_id]}"
    lines = ["---", page_title(title), "---", "", f"# Module {module_id}: {md_text(catalog.modules[module_id])}", ""]
    entries = entries_in_module(catalog, module_id)
    if not entries:
        lines.append("No entry is assigned to this module yet.")
    else:
        lines += [f"[Printable handout for the whole module](../{module_handout_path(module_id)})"
                  "{ .tw-handout-link }", ""]
    for e in entries:
        lines += [f"- [**{e.id}**: {md_text(e.title)}](../{entry_path(e.id)}) — {md_text(e.summary)}"
                  f" ([handout](../{handout_path(e.id)}))"]
    return "\n".join(lines)


def message_template(text: str) -> str:
    """A declared message as the symptom index lists it: with each value the run fills in shown as "…", so that one
    message is one line whatever number each entry's own run printed in it (`Batch …: Invalid loss, terminating
    training`, not a line each for batch 0, 1, 2 and 5)."""
    return text.replace("{}", "…")


def symptom_index(catalog: Catalog) -> str:
    lines = ["# Symptom index", "",
             "Every warning text and loss-curve shape the catalogue knows, and the entries that explain it. "
             "Search for the exact text your run printed, or find it below; … stands for the number or name your "
             "run printed there.", "",
             "## Messages", ""]
    by_message: dict[str, list[str]] = {}
    for e in catalog.sorted_entries():
        for m in e.messages:
            by_message.setdefault(message_template(m.text), []).append(e.id)
    for message in sorted(by_message):
        links = ", ".join(f"[{i}]({entry_path(i)} \"{md_text(catalog.title_of(i))}\")" for i in by_message[message])
        lines.append(f"- {md_code(message)} — {links}")
    lines += ["", "## Loss-curve signatures", ""]
    for trace, description in TRACES.items():
        ids = [e.id for e in catalog.sorted_entries() if trace in e.traces]
        if trace == "none" or not ids:
            continue
        links = ", ".join(f"[{i}]({entry_path(i)} \"{md_text(catalog.title_of(i))}\")" for i in ids)
        lines.append(f"- **{trace}**: {description} — {links}")
    return "\n".join(lines)


def roadmap_page(catalog: Catalog) -> str:
    """The entries named but not written yet, by stage: what a course can expect next."""
    lines = ["# Roadmap: entries not written yet", "",
             "!!! note \"Planned, not written\"",
             "    These failures are on the list but have no page, no snippet and no tests yet. "
             "Their IDs are reserved; `catalog/planned.yml` holds this list.", ""]
    if not catalog.planned:
        return "\n".join(lines + ["Nothing is planned right now."])
    for digit, stage in STAGES.items():
        ids = sorted(i for i in catalog.planned if stage_of(i) == stage)
        if not ids:
            continue
        lines += [f"## WR-{digit}xx: {stage}", "", "| ID | Planned entry | What it will cover |", "|---|---|---|"]
        lines += [f"| {i} | {md_text(catalog.planned[i])} | {md_text(catalog.planned_summaries.get(i, ''))} |"
                  for i in ids]
        lines.append("")
    return "\n".join(lines)
