"""Plain-text views of the catalogue for a terminal."""
from __future__ import annotations

import re

from .catalog import Catalog
from .entry import SECTIONS, Entry
from .files import from_here
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
    # (where the file is from the reader's folder: the copy installed with trainwreck is not under ./snippets)
    lines.append(f"Snippet: {from_here(catalog.root / entry.snippet)}")
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


def section_named(name: str) -> tuple[str | None, str]:
    """The entry section a word names ("fix", "Why", "pytorch"), matched against the start of its heading's words; and,
    when no heading or more than one matches, the one line that says so and lists the words that would."""
    key = name.strip().lower()
    words = {heading: [w.strip(",/") for w in heading.lower().replace("/", " ").split()] for heading in SECTIONS}
    found = [h for h, ws in words.items() if key and any(w.startswith(key) for w in ws if w not in ("in", "it", "and"))]
    if len(found) == 1:
        return found[0], ""
    choices = "symptom, where, why, confirm, fix, prevent, pytorch, keras, jax, interview"
    said = " ".join(name.split())[:30]
    return None, (f"--section {said!r} names more than one section ({', '.join(found)}); use one of: {choices}"
                  if found else f"--section {said!r} names no section; use one of: {choices}")


def one_section(text: str, heading: str) -> str:
    """The entry's text cut to its header (ID, title, summary) and the one `## heading` section."""
    header = text.split("\n\n", 2)
    found = re.search(rf"\n## {re.escape(heading)}[ \t]*\n", text)
    start = found.start() if found else -1
    end = text.find("\n## ", start + 1) if start >= 0 else -1
    part = text[start + 1:end if end >= 0 else len(text)].rstrip() if start >= 0 else f"## {heading}\n\n(none)"
    return "\n\n".join(header[:2]) + "\n\n" + part + "\n"


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
