"""Plain-text views of the catalogue for a terminal."""
from __future__ import annotations

import re

from .catalog import Catalog
from .entry import Entry
from .pages import add_tabs, insert_before_heading, output_block, strip_answers
from .sparkline import sparkline
from .snippet_sections import expand_includes
from . import lazy_regex

TAB = lazy_regex.compile(r'^===[+!]? "(.+)"\s*$')


ANSWERS_HIDDEN = "(The strong answer and the bonus point are hidden: add --answers to show them.)"


def entry_text(entry: Entry, catalog: Catalog, run=None, answers: bool = False, hint: bool = True) -> str:
    """The entry for a terminal; `run` (a SnippetRun) adds its output and a sparkline.
    The answers to the interview question are left out unless `answers`; `hint` says how to show them."""
    lines = [f"{entry.id}: {entry.title}", "", entry.summary, "",
             f"Status:  {entry.status}",
             "Modules: " + ", ".join(f"{m} ({catalog.modules.get(m, '?')})" for m in entry.modules)]
    for rid, nature in catalog.related(entry):
        state = "" if rid in catalog.entries else ", planned"
        lines.append(f"Related: {rid} ({nature.replace('-', ' ')}{state}) {catalog.title_of(rid)}")
    lines.append(f"Snippet: {entry.snippet}")
    body = entry.body if answers else strip_answers(entry.body).rstrip() + ("\n\n" + ANSWERS_HIDDEN if hint else "")
    body = untab(expand_includes(add_tabs(body, entry, catalog.root, downloads=False), catalog.root))
    if run is not None:
        extra = output_block(entry, run)
        spark = (run.figure or {}).get("sparkline")
        if spark:
            extra += f"\n{spark['label']}: {sparkline(spark['values'])}\n"
        body = insert_before_heading(body, "Fix", extra)
    lines += ["", body.strip(), ""]
    return "\n".join(lines)


def untab(markdown: str) -> str:
    """Content tabs (`=== "Fix"` + indented block) as labelled, unindented blocks."""
    out, in_tab = [], False
    for line in markdown.split("\n"):
        m = TAB.match(line)
        if m:
            out.append(f"--- {m[1]} ---")
            in_tab = True
        elif in_tab and (line.startswith("    ") or not line.strip()):
            out.append(line[4:])
        else:
            in_tab = False
            out.append(line)
    return "\n".join(out)


def listing(catalog: Catalog) -> str:
    """A line per entry under a header naming the columns (the last is the course modules that teach it)."""
    width = max((len(e.title) for e in catalog.entries.values()), default=0)
    return "\n".join(
        [f"{'ID':<6}  {'Title':<{width}}  {'Status':<7} Modules"]
        + [f"{e.id}  {e.title:<{width}}  {e.status:<7} {', '.join(e.modules)}" for e in catalog.sorted_entries()]
    )
