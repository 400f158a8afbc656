"""Issue 16, points 1, 2, 6 and 17, with the real MkDocs build.

One build of a catalogue whose every field is hostile (tests/hostile_project.py)
must publish no executable markup, in any page or in the search index; one
build whose entry includes /etc/passwd through a symbolic link must stop with
one line, before pymdownx.snippets runs.
"""
from __future__ import annotations

import html
import json
import re
from pathlib import Path
from types import SimpleNamespace

import pytest
import yaml
from bs4 import BeautifulSoup
from mkdocs.exceptions import PluginError
from selectolax.lexbor import LexborHTMLParser

import hostile_project as hostile
from conftest import ROOT, build_site, site_project
from test_hostile_pages import executable
from trainwreck import site_hook

PASSWD_LINE = re.compile(r"^root:.*:0:0:", re.M)


@pytest.fixture(scope="session")
def hostile_site(tmp_path_factory, site) -> Path:
    # after the real site's build (which the suite makes anyway), so its snippet cache is there to copy
    project = hostile.make(tmp_path_factory.mktemp("hostile-site"), with_site=True)
    result = build_site(project, project / "site")
    assert result.returncode == 0, result.stderr
    return project / "site"


def hostile_markup(html: str | LexborHTMLParser) -> list[str]:
    """Executable markup that came from the catalogue: every hostile string calls alert()."""
    return [found for found in executable(html) if "alert" in found or " on" in found or "javascript:" in found]


def test_no_page_holds_executable_markup(hostile_site):
    pages = sorted(hostile_site.rglob("*.html"))
    assert len(pages) > 20
    for page in pages:
        html = page.read_text(encoding="utf-8")
        tree = LexborHTMLParser(html)
        assert hostile_markup(tree) == [], page
        assert not [s for s in tree.css("script") if "alert" in s.text()], page
        assert not PASSWD_LINE.search(html), page


def test_the_entry_page_shows_every_hostile_field_as_typed(hostile_site):
    html_text = (hostile_site / hostile.ENTRY / "index.html").read_text(encoding="utf-8")
    # <title> holds text only (a browser ends it at the first </title>), decoded it is the title as typed
    title = re.search(r"<title>([^<]*)</title>", html_text)
    assert title and html.unescape(title[1]).startswith(f"{hostile.ENTRY}: {hostile.TITLE} - ")
    soup = BeautifulSoup(html_text, "html.parser")
    text = soup.get_text()
    for shown in (hostile.TITLE, hostile.SUMMARY, hostile.MODULE_TITLE, hostile.MESSAGE_EXAMPLE,
                  "</code></pre><script>alert(10)</script>", "</code></pre><script>alert(11)</script>"):
        assert shown in text, shown
    roadmap = BeautifulSoup((hostile_site / "roadmap" / "index.html").read_text(encoding="utf-8"), "html.parser")
    assert hostile.PLANNED_TITLE in roadmap.get_text() and hostile.PLANNED_SUMMARY in roadmap.get_text()


def test_the_search_index_holds_no_markup_from_the_catalogue(hostile_site):
    """Material renders search results as HTML: each text and title must be inert there too."""
    docs = json.loads((hostile_site / "search" / "search_index.json").read_text(encoding="utf-8"))["docs"]
    mine = [d for d in docs if d["location"].startswith(f"{hostile.ENTRY}/")]
    assert mine and any("alert(7)" in d["title"] + d["text"] for d in mine)   # the message heading is indexed
    for doc in docs:
        for part in (doc["title"], doc["text"]):
            assert hostile_markup(part) == [], (doc["location"], part[:200])
        assert not PASSWD_LINE.search(doc["text"])


def test_the_export_round_trips_hostile_fields(hostile_site):
    data = json.loads((hostile_site / "catalog.json").read_text(encoding="utf-8"))
    entry = next(e for e in data["entries"] if e["id"] == hostile.ENTRY)
    assert (entry["title"], entry["summary"]) == (hostile.TITLE, hostile.SUMMARY)


def test_an_include_through_a_symlink_stops_the_build_in_one_line(tmp_path):
    """Points 2 and 17: once, pymdownx put /etc/passwd in the page (through a symlink) or failed with
    a traceback saying a file that exists "could not be found"."""
    project = site_project(tmp_path)
    (project / "snippets" / "notes.txt").symlink_to("/etc/passwd")
    entry = project / "catalog" / "WR-030.md"
    entry.write_text(entry.read_text().replace("## Where it shows up\n",
                                               '```text\n--8<-- "snippets/notes.txt"\n```\n\n## Where it shows up\n'))
    result = build_site(project, project / "out")
    assert result.returncode == 1
    assert "Traceback" not in result.stderr and not PASSWD_LINE.search(result.stderr)
    line = next(n for n, text in enumerate(entry.read_text().splitlines(), 1) if "notes.txt" in text)
    assert (f"{project / 'catalog' / 'WR-030.md'}:{line}: include: 'snippets/notes.txt' leads outside the "
            "project's snippets/ folder (it resolves to /etc/passwd)") in result.stderr
    assert not (project / "out" / "WR-030").exists()


def test_the_hook_holds_hand_written_pages_to_the_same_rule(tmp_path):
    """A docs/ page is not catalogue, but pymdownx expands its includes too."""
    (tmp_path / "snippets").mkdir()
    (tmp_path / "snippets" / "notes.txt").symlink_to("/etc/passwd")
    config = SimpleNamespace(config_file_path=str(tmp_path / "mkdocs.yml"))
    page = SimpleNamespace(file=SimpleNamespace(abs_src_path=str(tmp_path / "docs" / "notes.md"), src_uri="notes.md"))
    with pytest.raises(PluginError) as refused:
        site_hook.on_page_markdown('# Notes\n\n--8<-- "snippets/notes.txt"\n', page, config, None)
    assert str(refused.value) == (f"{tmp_path / 'docs' / 'notes.md'}:3: include: 'snippets/notes.txt' leads "
                                  "outside the project's snippets/ folder (it resolves to /etc/passwd)")


def test_the_job_that_runs_contributed_code_cannot_publish():
    """Point 6: the test job runs every snippet of a pull request; only deploy may write to Pages."""
    workflow = yaml.safe_load((ROOT / ".github" / "workflows" / "pages.yml").read_text())
    assert workflow["permissions"] == {"contents": "read"}
    jobs = workflow["jobs"]
    runs_code = [name for name, job in jobs.items() if any("run" in step for step in job["steps"])]
    assert runs_code == ["test"]
    assert jobs["test"]["permissions"] == {"contents": "read"}
    assert jobs["deploy"]["permissions"] == {"pages": "write", "id-token": "write"}
    assert all("uses" in step and "run" not in step for step in jobs["deploy"]["steps"])


def test_contributing_says_building_runs_snippet_code():
    text = " ".join((ROOT / "docs" / "contributing.md").read_text().split())
    assert "Building the site runs every snippet's code" in text
    assert "read a contributed snippet before you build" in text
