"""Markdown for each generated entry page and its printable handout."""
from __future__ import annotations

import ast
import html
import re
from pathlib import PurePosixPath

from .catalog import Catalog
from .entry import ANSWER_HEADINGS, FRAMEWORK_SECTION, ORIGINS, TRACES, Entry
from .framework_part import CODE_SPAN
from .includes import directives, read_include
from .md_escape import md_code, md_text, md_url, page_title
from .plural import counted
from .site_search import ENTRY_SEARCH_BOOST, UNINDEXED
from .snippet_sections import TABS, Program, includes_in, tab_file, tab_program
from . import lazy_regex

ID_MENTION = lazy_regex.compile(r"(?<![\w/-])(WR-[0-9]{3})(?![\w-])")
FENCE = lazy_regex.compile(r"^\s*(```|~~~)", re.M)
ANSWER = lazy_regex.compile(rf"^### (?P<head>{'|'.join(map(re.escape, ANSWER_HEADINGS))})\s*\n(?P<text>.*?)(?=^### |^## |\Z)",
                            re.S | re.M)
EDITIONS = ("full", "student")


def entry_path(entry_id: str) -> str:
    return f"{entry_id}.md"


def handout_path(entry_id: str) -> str:
    return f"handouts/{entry_id}.md"


def module_path(module_id: str) -> str:
    return f"modules/{module_id}.md"


def figure_path(entry_id: str, picture: str) -> str:
    """One picture of an entry's figure (charts.picture_name: panel and theme)."""
    return f"figures/{entry_id}-{picture}.svg"


def download_path(filename: str) -> str:
    """Where the site carries a program or a snippet file for a reader to download."""
    return f"snippets/{filename}"


def module_handout_path(module_id: str) -> str:
    return f"handouts/module-{module_id}.md"


def tool_path(snippet: str) -> str:
    """The page of a snippet file that entries include but that is no entry's own (the loss watch)."""
    return f"tools/{PurePosixPath(snippet).stem}.md"


def tools_of(catalog: Catalog) -> dict[str, list[Entry]]:
    """Snippet files that entries include but that are no entry's own, and the entries that include them."""
    own = {e.snippet for e in catalog.entries.values()}
    tools: dict[str, list[Entry]] = {}
    for entry in catalog.sorted_entries():
        for path, _ in includes_in(entry.body):
            if path not in own and entry not in tools.setdefault(path, []):
                tools[path].append(entry)
    return tools


def page_url(path: str, directory_urls: bool = True) -> str:
    """The URL MkDocs gives the page at `path` (relative to the site root)."""
    stem = path[:-len(".md")]
    return f"{stem}/" if directory_urls else f"{stem}.html"


def entry_page(entry: Entry, catalog: Catalog, edition: str = "full", run=None) -> str:
    """The entry's page; `run` (a SnippetRun) adds its picture and console output."""
    modules = ", ".join(f"[{md_text(m + ' ' + catalog.modules.get(m, ''))}]({module_path(m)})"
                        for m in entry.modules)
    lines = [
        "---",
        "search:",
        f"  boost: {ENTRY_SEARCH_BOOST}",
        page_title(f"{entry.id}: {entry.title}"),
        "---",
        search_card_heading(entry),
        "",
        f"# {entry.id}: {md_text(entry.title)}",
        "",
        f"*{md_text(entry.summary)}*",
        "",
        f"**Status:** {entry.status} · **Modules:** {modules}",
        "",
    ]
    related = catalog.related(entry)
    if related:
        lines += ["**Related:** " + " · ".join(
            f"{link_to(rid, catalog, entry.id)} ({nature.replace('-', ' ')})" for rid, nature in related), ""]
    if entry.trace != "none":
        also = f"; or, {TRACES.get(entry.also_trace, entry.also_trace)}" if entry.also_trace else ""
        lines += [f"**Loss curve:** {TRACES[entry.trace]}{also}", ""]
    lines += [f"[Printable handout]({handout_path(entry.id)}){{ .tw-handout-link }}", ""]
    if entry.messages:
        lines += message_headings(entry)
    body = add_tabs(entry.body, entry, catalog.root, run)
    body = link_tools(body, entry, catalog)
    body = cite_messages(body, entry)
    body = link_ids(body, catalog, entry.id)
    body = strip_answers(body) if edition == "student" else collapse_answers(body)
    if run is not None and run.svgs:
        body = insert_before_heading(body, "Where it shows up", figure_markdown(entry.id, run))
    lines.append(body)
    return "\n".join(lines)


MAIN_MESSAGE_LABEL = "The message this entry is filed under:"   # on the result card, before the text


def search_card_heading(entry: Entry) -> str:
    """The page's first section for Material's search (site_search, rule 3): a hidden heading with the
    entry's ID, which a search for the ID matches, and its title, shown on the result card, unindexed."""
    title = html.escape(entry.title.replace(UNINDEXED, ""))
    return f'<h1 id="search-card" hidden>{entry.id}{UNINDEXED}: {title}{UNINDEXED}</h1>'


def message_headings(entry: Entry) -> list[str]:
    """One small heading per declared message, so that a search for its exact text matches a whole
    section title of this page, and the main message (the first) again in its section's text, hidden
    (site_search, rules 1 and 5). They come last before the body, so no other text falls into their
    sections."""
    lines = ["**Messages this failure prints:**", ""]
    for number, m in enumerate(entry.messages):
        lines += [f"### {md_text(m.shown)} {{ .tw-message }}", "",
                  f"{ORIGINS[m.origin]} · [source]({md_url(m.source)})"
                  + (f" · printed only with: {md_code(m.opt_in)}" if m.opt_in else ""), ""]
        if number == 0:
            lines += [f'<p class="tw-main-message" hidden>{MAIN_MESSAGE_LABEL} {html.escape(m.shown)}</p>', ""]
    return lines


def tabs_markdown(entry: Entry, root, run=None, downloads: bool = True) -> str:
    """Reproduce and Fix tabs, Reproduce open first. Each holds a whole program (the text that was run),
    what running it printed, and the program to download; then the whole snippet file to download
    (the links only where there is a site to download from: not in a terminal)."""
    text = read_include(root, entry.snippet)
    out = []
    for label, region in TABS:
        program = Program(label, tab_file(entry.snippet, region), tab_program(text, region))
        out += [f'=== "{label}"', "", indent(program_markdown(program, run, downloads=downloads))]
    name = PurePosixPath(entry.snippet).name
    if downloads:
        out += [f"Both programs in one file, as the tests run it: {download_link(name)}", "{: .tw-download }", ""]
    return "\n".join(out)


def program_markdown(program: Program, run=None, prefix: str = "", downloads: bool = True) -> str:
    """A program's code, what it printed when it ran (if it was run), and a link to download it."""
    lines = [fenced(program.code, "python"), ""]
    output = run.output_of(program) if run is not None else None
    if output is not None:
        lines += [f"What `python {program.filename}` prints — captured from a real run, not pasted:", "",
                  fenced(output.rstrip("\n") or "(nothing)", "text"), ""]
    if downloads:
        lines += [f"Download this program: {download_link(program.filename, prefix)}", "{: .tw-download }", ""]
    return "\n".join(lines)


def download_link(filename: str, prefix: str = "") -> str:
    return f'[{filename}]({prefix}{download_path(filename)}){{ download="{filename}" }}'


def fenced(text: str, language: str) -> str:
    """A fenced block holding text as it is: the fence is longer than any backtick run inside, and
    lines that look like a snippet include are escaped so the site does not include anything."""
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    fence = "`" * max(3, longest + 1)
    text = INCLUDE_LIKE.sub(lambda m: f"{m['indent']};{m['marker']}" if m["marker"] else f"{m['pre']};{m['section']}",
                            text)
    return f"{fence}{language}\n{text.rstrip(chr(10))}\n{fence}"


# What pymdownx.snippets acts on even inside a code block: an include at the start of a line, and a
# section marker anywhere. A `;` just before the marker is its escape: it prints the line as written.
INCLUDE_LIKE = lazy_regex.compile(r"""^(?P<indent>[ \t]*)(?P<marker>;*-+8<-+(?:[ \t]+["']|[ \t]*$))"""
                                  r"|^(?P<pre>.*?)(?P<section>;*-+8<-+[ \t]+\[[ \t]*(?:start|end)[ \t]*:)", re.M)


def indent(markdown: str) -> str:
    return "\n".join(("    " + line) if line.strip() else "" for line in markdown.split("\n"))


def add_tabs(body: str, entry: Entry, root, run=None, downloads: bool = True) -> str:
    """The tabs close the Fix section, after its prose."""
    return insert_before_heading(body, "Prevent it", tabs_markdown(entry, root, run, downloads))


def figure_markdown(entry_id: str, run, prefix: str = "", themes=("light", "dark")) -> str:
    """The figure's panels, each in the light and the dark theme (Material shows an image whose URL ends
    in #only-light or #only-dark in that theme only), side by side when there is room; then the caption.
    The first panel carries the description of the whole figure; the others say which panel they are."""
    from .charts import picture_name

    panels = run.figure["panels"]
    images = []
    for i, panel in enumerate(panels):
        alt = md_text(run.figure["alt"] if i == 0
                      else f"Panel {i + 1} of the figure described above: {panel['title']}")
        for theme in themes:
            images.append(f"![{alt}]({prefix}{figure_path(entry_id, picture_name(i, theme))}#only-{theme})"
                          "{ .tw-figure }")
    return "\n".join([" ".join(images), "{ .tw-figures }", "", f"*{md_text(run.figure['caption'])}*", ""])


def output_block(entry: Entry, run) -> str:
    """What each of the snippet's programs printed, for a terminal."""
    out = []
    for filename, output in run.outputs.items():
        out += [f"What `python {filename}` prints — captured from a real run, not pasted:", "",
                "```text", output.rstrip(), "```", ""]
    return "\n".join(out)


def link_tools(body: str, entry: Entry, catalog: Catalog) -> str:
    """After a code block that includes part of a tool (a snippet file that is no entry's own), link the
    tool's page: the whole file, a loop that uses it, what it prints, and the file to download."""
    own = {e.snippet for e in catalog.entries.values()}
    out, pending, fence = [], None, None
    for line in body.split("\n"):
        out.append(line)
        m = FENCE.match(line)
        if m and fence is None:
            fence = m.group(1)
        elif m and line.strip().startswith(fence):
            fence = None
            if pending:
                name = PurePosixPath(pending).name
                out += ["", f"The whole of `{name}`, a training loop that uses it, what it prints, and the "
                            f"file to download: [{name}]({tool_path(pending)})"]
                pending = None
        elif fence is not None:
            inc = next(iter(directives(line)), None)
            if inc and inc.path and inc.path not in own:
                pending = inc.path
    return "\n".join(out)


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
        return f"{span.group(0)} ([{ORIGINS[found.origin]} source]({md_url(found.source)}))" if found else span.group(0)

    return body[:m.end()] + CODE_SPAN.sub(cite, body[m.end():stop]) + body[stop:]


def insert_before_heading(body: str, heading: str, text: str) -> str:
    m = re.search(rf"^## {re.escape(heading)}\s*$", body, re.M)
    return body[:m.start()] + text + "\n" + body[m.start():] if m else body + "\n\n" + text


def handout_front(title: str) -> list[str]:
    return ["---", page_title(title), "search:", "  exclude: true", "hide: [navigation, toc]", "---"]


ANSWER_SPACE = '<div class="tw-answer-space" aria-hidden="true"></div>'
HANDOUT_FOOTER = '<p class="tw-handout-footer">trainwreck · answers are not part of this handout</p>'


def handout_page(entry: Entry, catalog: Catalog, run=None) -> str:
    """What a class gets on paper for one entry: the symptom and its picture, the Reproduce program
    and what it prints, and the exercise with room to answer. No answers."""
    reproduce = Program("Reproduce", tab_file(entry.snippet, "reproduce"),
                        tab_program(read_include(catalog.root, entry.snippet), "reproduce"))
    lines = [*handout_front(f"{entry.id}: {entry.title}"),
             f"# {entry.id}: {md_text(entry.title)} {{ .tw-handout-title }}", "", f"*{md_text(entry.summary)}*", "",
             "## Symptom", "", link_ids(entry.sections["Symptom"], catalog, entry.id, prefix="../"), ""]
    if run is not None and run.svgs:
        lines += [figure_markdown(entry.id, run, prefix="../"), ""]
    lines += ["## Reproduce it", "",
              f"Save this program as `{reproduce.filename}` (or download it below) and run it:", "",
              program_markdown(reproduce, run, prefix="../"),
              *exercise(entry), HANDOUT_FOOTER]
    return "\n".join(lines)


def exercise(entry: Entry, heading: str = "##") -> list[str]:
    """The interview question without its answers, and room to write one."""
    question = strip_answers(entry.sections["Interview question"]).strip()
    # one block, so that a printer never leaves the question on one sheet and the room to answer on the next
    return ['<div class="tw-exercise" markdown>', "", f"{heading} Exercise", "", question, "", ANSWER_SPACE, "",
            "</div>", ""]


def module_handout_page(catalog: Catalog, module_id: str, entries: list[Entry], runs: dict) -> str:
    """One handout for a module: each entry on its own sheet with its picture, what its Reproduce
    program prints (the program itself is on the entry's page and handout), and the exercise."""
    title = catalog.modules[module_id]
    lines = [*handout_front(f"Module {module_id}: {title} — handout"),
             f"# Module {module_id}: {md_text(title)} — handout {{ .tw-handout-title }}", "",
             f"{counted(len(entries), 'entry', 'entries')}, one per sheet. Each Reproduce program "
             "is on its entry's page, to copy or download; what it prints is below.", ""]
    for entry in entries:
        run = runs.get(entry.id)
        lines += [f"## {entry.id}: {md_text(entry.title)} {{ .tw-handout-entry }}", "", f"*{md_text(entry.summary)}*", ""]
        if run is not None and run.svgs:
            lines += [figure_markdown(entry.id, run, prefix="../"), ""]
        reproduce = tab_file(entry.snippet, "reproduce")
        output = run.outputs.get(reproduce) if run is not None else None
        if output is not None:
            lines += [f"### What `python {reproduce}` prints", "", fenced(output.rstrip("\n"), "text"), ""]
        lines += [f"The program: [{entry.id}, Reproduce tab](../{entry_path(entry.id)})", "",
                  *exercise(entry, "###")]
    lines.append(HANDOUT_FOOTER)
    return "\n".join(lines)


def tool_page(snippet: str, text: str, run, users: list[Entry]) -> str:
    """A tool's page: what its docstring says, the whole file, what running it prints, the download."""
    name = PurePosixPath(snippet).name
    title, intro = tool_doc(name, text)
    program = Program("Program", name, text)
    used_by = ", ".join(f"[{e.id}](../{entry_path(e.id)})" for e in users)
    return "\n".join(["---", page_title(title), "---", "", f"# {md_text(title)}", "", intro, "", f"Used in: {used_by}", "",
                      f"## `{name}`", "", program_markdown(program, run, prefix="../")])


def tool_doc(name: str, text: str) -> tuple[str, str]:
    """A tool's title (its docstring's first line) and introduction (the rest, Markdown: `check`
    holds it to the body rules). Raises SyntaxError if the file is not Python."""
    doc = (ast.get_docstring(ast.parse(text)) or name).strip()
    title, _, intro = doc.partition("\n")
    return title.rstrip("."), intro.strip()


def link_to(entry_id: str, catalog: Catalog, self_id: str, prefix: str = "") -> str:
    title = catalog.title_of(entry_id)
    if entry_id in catalog.entries and entry_id != self_id:
        return f"[{entry_id}]({prefix}{entry_path(entry_id)} \"{md_text(title)}\")"
    if entry_id in catalog.planned:
        return f"{entry_id} *(planned: {md_text(title)})*"
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
