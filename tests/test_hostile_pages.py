"""Issue 16, points 1 and 8: every generated page shows hostile fields as text, rendered in-process
with the site's own Markdown extensions (tests/test_hostile_site.py does one real build)."""
from __future__ import annotations

import re

import markdown
import pytest
import yaml
from bs4 import BeautifulSoup
from mkdocs.utils.meta import get_data
from selectolax.lexbor import LexborHTMLParser

import hostile_project as hostile
from conftest import ROOT
from trainwreck import body_policy
from trainwreck.indexes import entry_index, module_page, modules_index, roadmap_page, symptom_index
from trainwreck.md_escape import md_code, md_text, md_url
from trainwreck.pages import entry_page, handout_page, module_handout_page, tool_page
from trainwreck.snippet_run import SnippetRun
from trainwreck.site_search import UNINDEXED
from trainwreck.snippet_sections import tab_file
from trainwreck.validate import check


class _Config(yaml.SafeLoader):
    pass


_Config.add_constructor("!ENV", lambda loader, node: None)     # mkdocs.yml reads environment variables
MKDOCS = yaml.load((ROOT / "mkdocs.yml").read_text(), Loader=_Config)


def site_markdown(project) -> markdown.Markdown:
    """Python-Markdown configured as mkdocs.yml configures it, includes from `project`."""
    names, configs = [], {}
    for item in MKDOCS["markdown_extensions"]:
        name, config = next(iter(item.items())) if isinstance(item, dict) else (item, None)
        names.append(name)
        configs[name] = dict(config or {})
    configs["pymdownx.snippets"]["base_path"] = [str(project)]
    return markdown.Markdown(extensions=names, extension_configs=configs)


# A <template>'s content is not part of the tree an HTML5 parser builds (a script could run once copied
# out of it), so the element itself counts.
SCRIPT_LIKE = frozenset({"script", "iframe", "object", "embed", "svg", "style", "form", "base", "meta", "link",
                         "template"})
SCRIPT_URL = re.compile(r"\s*(javascript|data|vbscript):", re.I)


def executable(html: str | LexborHTMLParser) -> list[str]:
    """Everything in `html` (text, or a page already parsed) a browser would run or fetch:
    script-like elements, event handlers, script URLs. Parsed by lexbor, an HTML5 parser, so the
    tree is the one a browser builds from the same bytes (and 20x faster than html.parser)."""
    tree = html if isinstance(html, LexborHTMLParser) else LexborHTMLParser(html)
    found = []
    for node in tree.root.traverse():
        if node.tag in SCRIPT_LIKE:
            found.append(node.html[:80])
        for name, value in node.attributes.items():
            if name.startswith("on") or name in ("srcdoc", "formaction"):
                found.append(f"<{node.tag} {name}=...>")
            if name in ("href", "src", "action") and SCRIPT_URL.match(value or ""):
                found.append(f"<{node.tag} {name}={(value or '')[:40]}>")
    return found


@pytest.fixture(scope="module")
def project(tmp_path_factory):
    folder = hostile.make(tmp_path_factory.mktemp("hostile"))
    catalog, problems = check(folder / "catalog")
    assert problems == [], "\n".join(map(str, problems))
    return folder, catalog


def rendered(project, text: str) -> BeautifulSoup:
    """The page's HTML, its front matter read off first as MkDocs does."""
    folder, _ = project
    text, meta = get_data(text)
    assert "<" not in str(meta.get("title", "")), meta     # MkDocs places a front matter title unescaped
    html = site_markdown(folder).convert(text)
    assert executable(html) == []
    soup = BeautifulSoup(html, "html.parser")
    for permalink in soup.select("a.headerlink"):       # toc's ¶ after each heading
        permalink.decompose()
    return soup


def fake_run(snippet: str, output: str) -> SnippetRun:
    """A run whose Reproduce program printed `output` and whose figure's text is hostile."""
    return SnippetRun(outputs={tab_file(snippet, "reproduce"): output},
                      figure={"alt": hostile.TITLE, "caption": hostile.SUMMARY,
                              "panels": [{"title": "one"}, {"title": hostile.MODULE_TITLE}]},
                      cached=True, svgs={"one": "<svg/>"})


def test_entry_page(project):
    folder, catalog = project
    entry = catalog.entries[hostile.ENTRY]
    page = rendered(project, entry_page(entry, catalog, run=fake_run(entry.snippet, hostile.OUTPUT_BREAKOUT)))
    assert page.select_one("h1:not([hidden])").get_text() == f"{hostile.ENTRY}: {hostile.TITLE}"
    # the hidden first heading that Material's search indexes for the page (pages.search_card_heading)
    assert page.select_one("h1[hidden]").get_text() == f"{hostile.ENTRY}{UNINDEXED}: {hostile.TITLE}{UNINDEXED}"
    text = page.get_text()
    for shown in (hostile.SUMMARY, f"0.7 {hostile.MODULE_TITLE}", hostile.MESSAGE_EXAMPLE, hostile.OUTPUT_BREAKOUT,
                  "x = '</code></pre><script>alert(9)</script>'", "<script>alert(12)</script>", "<script>"):
        assert shown in text, shown
    assert {img["alt"] for img in page.find_all("img")} == {   # the figure's panels, each in two themes
        hostile.TITLE, f"Panel 2 of the figure described above: {hostile.MODULE_TITLE}"}
    assert page.find("em", string=hostile.SUMMARY.strip())
    assert any(a.get("href") == "https://github.com/numpy/numpy/blob/v2.4.6/x.c%22%29%3Cimg/src=x/onerror=alert%288%29%3E"
               for a in page.find_all("a"))
    # the snippet's ``` line stays inside the Reproduce tab's code block
    assert any('</code></pre><script>alert(10)</script>' in code.get_text() for code in page.find_all("code"))


def test_related_links_carry_the_title_as_an_attribute_only(project):
    folder, catalog = project
    page = rendered(project, entry_page(catalog.entries["WR-220"], catalog))
    link = page.find("a", href="WR-030.md")
    assert link is not None and link["title"] == hostile.TITLE


def test_handout(project):
    folder, catalog = project
    page = rendered(project, handout_page(catalog.entries[hostile.ENTRY], catalog))
    assert page.h1.get_text() == f"{hostile.ENTRY}: {hostile.TITLE}"
    assert hostile.SUMMARY in page.get_text()


def test_module_handout(project):
    folder, catalog = project
    entry = catalog.entries[hostile.ENTRY]
    page = rendered(project, module_handout_page(catalog, "0.7", [entry], {}))
    assert page.h1.get_text() == f"Module 0.7: {hostile.MODULE_TITLE} — handout"
    assert page.h2.get_text() == f"{hostile.ENTRY}: {hostile.TITLE}"
    assert hostile.SUMMARY in page.get_text()


def test_tool_page_title_from_a_docstring(project):
    folder, catalog = project
    text = f'"""{hostile.TITLE}\n\nWhat it does.\n"""\nx = 1\n'
    page = rendered(project, tool_page("snippets/helper.py", text, None, [catalog.entries[hostile.ENTRY]]))
    assert page.h1.get_text() == hostile.TITLE.rstrip(".")


def test_home_table_keeps_its_columns_with_a_pipe_in_a_title(project):
    """Point 8: a | in a title once removed the Status column."""
    folder, catalog = project
    page = rendered(project, entry_index(catalog))
    rows = page.find_all("tr")[1:]
    assert len(rows) == len(catalog.entries)
    for row in rows:
        cells = row.find_all("td")
        assert len(cells) == 4 and cells[3].get_text() in ("draft", "stable", "retired")
    assert rows[1].find_all("td")[1].get_text() == hostile.TITLE


def test_module_pages(project):
    folder, catalog = project
    page = rendered(project, modules_index(catalog))
    assert [row.find_all("td")[1].get_text() for row in page.find_all("tr")[1:]][0] == hostile.MODULE_TITLE
    page = rendered(project, module_page(catalog, "0.7"))
    assert page.h1.get_text() == f"Module 0.7: {hostile.MODULE_TITLE}"
    item = next(li for li in page.find_all("li") if hostile.ENTRY in li.get_text())
    assert item.get_text().startswith(f"{hostile.ENTRY}: {hostile.TITLE} — {hostile.SUMMARY} (handout)")


def test_symptom_index(project):
    """Point 8: a ") in a title once garbled the links of the symptom index."""
    folder, catalog = project
    page = rendered(project, symptom_index(catalog))
    item = next(li for li in page.find_all("li") if li.code and li.code.get_text() == hostile.MESSAGE.replace("{}", "…"))
    assert [(a.get_text(), a["title"]) for a in item.find_all("a")] == [(hostile.ENTRY, hostile.TITLE)]


def test_roadmap(project):
    folder, catalog = project
    page = rendered(project, roadmap_page(catalog))
    row = next(tr for tr in page.find_all("tr") if tr.td and tr.td.get_text() == hostile.PLANNED)
    assert [td.get_text() for td in row.find_all("td")] == [hostile.PLANNED, hostile.PLANNED_TITLE,
                                                            hostile.PLANNED_SUMMARY]


@pytest.mark.parametrize("text", [hostile.TITLE, hostile.SUMMARY, hostile.MODULE_TITLE, "\\*not bold\\*",
                                  "trailing # hashes ##", "{ .class #id onclick=x }", "a\\", "&lt; &amp;",
                                  "1. not a list", "- not a list", "> not a quote", "[^1] [x]: y"])
def test_md_text_renders_as_exactly_its_characters(text, project):
    for placed in (f"# {md_text(text)}", f"*{md_text(text)}*", f"| a |\n|---|\n| {md_text(text)} |",
                   f'[link](x.md "{md_text(text)}")', f"- [**ID**: {md_text(text)}](x.md)"):
        page = rendered(project, placed)
        shown = page.find(["h1", "em", "td", "a"])
        assert (shown["title"] if shown.name == "a" and "title" in shown.attrs else shown.get_text()).endswith(text)


@pytest.mark.parametrize("text", ["`", "``x``", "a ` b", "</code><script>alert(1)</script>", "` edge `"])
def test_md_code_holds_any_backticks(text, project):
    assert rendered(project, f"- {md_code(text)} — after").code.get_text() == text


def test_md_url_cannot_end_the_link(project):
    url = 'https://e.org/a b")<img src=x onerror=alert(1)>(\\'
    link = rendered(project, f"[x]({md_url(url)})").a
    assert link.get_text() == "x" and link["href"].startswith("https://e.org/a%20b%22%29%3Cimg")


def test_body_policy_renders_with_the_site_extensions():
    """The check judges bodies with mkdocs.yml's extensions, less toc (ids only) and snippets
    (expanded by trainwreck.includes first): adding one to mkdocs.yml must update the check."""
    configured = [next(iter(item)) if isinstance(item, dict) else item for item in MKDOCS["markdown_extensions"]]
    assert sorted(set(configured) - {"toc", "pymdownx.snippets"}) == sorted(body_policy.EXTENSIONS)
