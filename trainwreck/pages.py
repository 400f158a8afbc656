"""Markdown for each generated entry page and its printable handout."""
from __future__ import annotations

import re

from .catalog import Catalog
from .entry import ANSWER_HEADINGS, FRAMEWORK_SECTION, ORIGINS, TRACES, Entry
from .framework_part import CODE_SPAN
from .snippet_sections import TABS, sections_of, tab_program_regions

ID_MENTION = re.compile(r"(?<![\w/-])(WR-\d{3})(?![\w-])")
FENCE = re.compile(r"^\s*(```|~~~)", re.M)
ANSWER = re.compile(rf"^### (?P<head>{'|'.join(map(re.escape, ANSWER_HEADINGS))})\s*\n(?P<text>.*?)(?=^### |^## |\Z)",
                    re.S | re.M)
EDITIONS = ("full", "student")


def entry_path(entry_id: str) -> str:
    return f"{entry_id}.md"


def handout_path(entry_id: str) -> str:
    return f"handouts/{entry_id}.md"


def module_path(module_id: str) -> str:
    return f"modules/{module_id}.md"


def figure_path(entry_id: str, theme: str) -> str:
    return f"figures/{entry_id}-{theme}.svg"


def page_url(path: str, directory_urls: bool = True) -> str:
    """The URL MkDocs gives the page at `path` (relative to the site root)."""
    stem = path[:-len(".md")]
    return f"{stem}/" if directory_urls else f"{stem}.html"


def entry_page(entry: Entry, catalog: Catalog, edition: str = "full", run=None) -> str:
    """The entry's page; `run` (a SnippetRun) adds its picture and console output."""
    modules = ", ".join(f"[{m} {catalog.modules.get(m, '')}]({module_path(m)})" for m in entry.modules)
    lines = [
        "---",
        "search:",
        "  boost: 2",       # an entry outranks the prose pages that mention the same words
        "---",
        f"# {entry.id}: {entry.title}",
        "",
        f"*{entry.summary}*",
        "",
        f"**Status:** {entry.status} · **Modules:** {modules}",
        "",
    ]
    related = catalog.related(entry)
    if related:
        lines += ["**Related:** " + " · ".join(
            f"{link_to(rid, catalog, entry.id)} ({nature.replace('-', ' ')})" for rid, nature in related), ""]
    if entry.messages:
        # one small heading per message: a search for the exact text then
        # matches a section title of this page, which outranks body text
        lines += ["**Messages this failure prints:**", ""]
        for m in entry.messages:
            lines += [f"### {m.shown} {{ .tw-message }}", "", f"{ORIGINS[m.origin]} · [source]({m.source})", ""]
    if entry.trace != "none":
        lines += [f"**Loss curve:** {TRACES[entry.trace]}", ""]
    lines += [f"[Printable handout]({handout_path(entry.id)}){{ .tw-handout-link }}", ""]
    body = add_tabs(entry.body, entry, catalog.root)
    body = cite_messages(body, entry)
    body = link_ids(body, catalog, entry.id)
    body = strip_answers(body) if edition == "student" else collapse_answers(body)
    if run is not None:
        body = add_run(body, entry, run)
    lines.append(body)
    return "\n".join(lines)


def tabs_markdown(entry: Entry, root) -> str:
    """Reproduce and Fix tabs, Reproduce open first; each holds a whole program made of includes."""
    regions = sections_of((root / entry.snippet).read_text(encoding="utf-8"))
    out = []
    for label, region in TABS:
        includes = [f'    --8<-- "{entry.snippet}:{name}"' for name in tab_program_regions(regions, region)]
        out += [f'=== "{label}"', "", "    ```python", *includes, "    ```", ""]
    return "\n".join(out)


def add_tabs(body: str, entry: Entry, root) -> str:
    """The tabs close the Fix section, after its prose."""
    return insert_before_heading(body, "Prevent it", tabs_markdown(entry, root))


def add_run(body: str, entry: Entry, run) -> str:
    """The picture closes the Symptom section; the real output closes Confirm it."""
    if run.svgs:
        alt = run.figure["alt"].replace("]", ")").replace("[", "(")
        # Material shows an image whose URL ends in #only-light or #only-dark in that theme only
        images = [f"![{alt}]({figure_path(entry.id, theme)}#only-{theme}){{ .tw-figure }}" for theme in run.svgs]
        picture = "\n".join([*images, "", f"*{run.figure['caption']}*", ""])
        body = insert_before_heading(body, "Where it shows up", picture)
    return insert_before_heading(body, "Fix", output_block(entry, run))


def output_block(entry: Entry, run) -> str:
    return "\n".join([
        f"What `python {entry.snippet}` prints — captured from a real run, not pasted:",
        "",
        "```text",
        run.output.rstrip(),
        "```",
        "",
    ])


def cite_messages(body: str, entry: Entry) -> str:
    """In the framework section, follow each quoted declared message with a link to its pinned source."""
    m = re.search(rf"^## {re.escape(FRAMEWORK_SECTION)}\s*$", body, re.M)
    if not m:
        return body
    end = re.search(r"^## ", body[m.end():], re.M)
    stop = m.end() + end.start() if end else len(body)

    def cite(span: re.Match) -> str:
        quote = " ".join(span.group(2).split())
        found = next((msg for msg in entry.messages if msg.matches(quote)), None)
        return f"{span.group(0)} ([{ORIGINS[found.origin]} source]({found.source}))" if found else span.group(0)

    return body[:m.end()] + CODE_SPAN.sub(cite, body[m.end():stop]) + body[stop:]


def insert_before_heading(body: str, heading: str, text: str) -> str:
    m = re.search(rf"^## {re.escape(heading)}\s*$", body, re.M)
    return body[:m.start()] + text + "\n" + body[m.start():] if m else body + "\n\n" + text


def handout_page(entry: Entry, catalog: Catalog) -> str:
    """Symptom, the reproduction and the question: what a class gets on paper."""
    question = strip_answers(entry.sections["Interview question"]).strip()
    regions = sections_of((catalog.root / entry.snippet).read_text(encoding="utf-8"))
    includes = "\n".join(f'--8<-- "{entry.snippet}:{name}"' for name in tab_program_regions(regions, "reproduce"))
    reproduce = f"```python\n{includes}\n```"
    return "\n".join([
        "---",
        "search:",
        "  exclude: true",
        "hide: [navigation, toc]",
        "---",
        f"# {entry.id}: {entry.title} {{ .tw-handout-title }}",
        "",
        f"*{entry.summary}*",
        "",
        "## Symptom",
        "",
        link_ids(entry.sections["Symptom"], catalog, entry.id, prefix="../"),
        "",
        "## Reproduce it",
        "",
        f"Run `python {entry.snippet}`, or paste this into a file of your own:",
        "",
        reproduce,
        "",
        "## Interview question",
        "",
        question,
        "",
        '<p class="tw-handout-footer">trainwreck · answers are not part of this handout</p>',
    ])


def link_to(entry_id: str, catalog: Catalog, self_id: str, prefix: str = "") -> str:
    title = catalog.title_of(entry_id)
    if entry_id in catalog.entries and entry_id != self_id:
        return f"[{entry_id}]({prefix}{entry_path(entry_id)} \"{title}\")"
    if entry_id in catalog.planned:
        return f"{entry_id} *(planned: {title})*"
    return entry_id


def link_ids(markdown: str, catalog: Catalog, self_id: str, prefix: str = "") -> str:
    """Turn bare mentions of existing entry IDs into links, outside code blocks."""
    out, in_code = [], False
    for line in markdown.split("\n"):
        if FENCE.match(line):
            in_code = not in_code
        elif not in_code:
            line = ID_MENTION.sub(
                lambda m: link_to(m[1], catalog, self_id, prefix)
                if m[1] in catalog.entries and m[1] != self_id else m[1], line)
        out.append(line)
    return "\n".join(out)


def collapse_answers(body: str) -> str:
    """Fold each answer subsection into a closed details block the reader opens."""
    def fold(m: re.Match) -> str:
        text = "\n".join(("    " + l) if l.strip() else "" for l in m["text"].strip("\n").splitlines())
        return f'??? success "{m["head"]}"\n\n{text}\n\n'

    return ANSWER.sub(fold, body)


def strip_answers(body: str) -> str:
    """The student edition: the answers are not on the page at all."""
    return ANSWER.sub("", body)
