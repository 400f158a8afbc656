"""The real MkDocs build: strict, generated pages, editions, nothing fetched from elsewhere."""
import functools
import html
import json
import re
import subprocess
import sys
from pathlib import Path

import yaml
from selectolax.lexbor import LexborHTMLParser

from conftest import ROOT, build_output, build_site, built_page, failing_build, real_catalog
from trainwreck.catalog import split_sections
from trainwreck.export import catalog_data
from trainwreck.indexes import message_template
from trainwreck.pages import strip_answers
from trainwreck.snippet_run import run_snippet
from trainwreck.snippet_sections import tab_program

EXTERNAL = re.compile(r"^(?:[a-z][a-z0-9+.-]*:)?//", re.I)
CATALOG = real_catalog()


def words_of(node) -> str:
    """Its text, each piece stripped, empty ones left out, joined by spaces."""
    return node.text(separator=" ", strip=True, skip_empty=True)


def stripped(node) -> str:
    """Its text, each piece stripped, empty ones left out, joined as they are."""
    return node.text(strip=True, skip_empty=True)


def page_text(path: Path) -> str:
    return words_of(built_page(path))


def test_every_entry_has_a_page_and_a_handout_at_its_id(site):
    for entry_id in CATALOG.entries:
        shown = built_page(site / entry_id / "index.html").css_first("h1:not([hidden])")   # the hidden one: search
        assert shown.text().startswith(f"{entry_id}: ")
        assert built_page(site / "handouts" / entry_id / "index.html").css_first("h1").text().startswith(f"{entry_id}: ")


def test_reproduce_and_fix_tabs_hold_whole_programs_reproduce_open_first(site):
    for entry in CATALOG.sorted_entries():
        page = built_page(site / entry.id / "index.html")
        text = (ROOT / entry.snippet).read_text()
        [tabbed] = [t for t in page.css(".tabbed-set")
                    if [stripped(lab) for lab in t.css(".tabbed-labels label")] == ["Reproduce", "Fix"]]
        inputs = tabbed.css("input")
        assert "checked" in inputs[0].attributes and "checked" not in inputs[1].attributes, entry.id
        blocks = [block.css_first("pre code").text() for block in tabbed.css(".tabbed-block")]
        assert blocks == [tab_program(text, "reproduce"), tab_program(text, "fix")], entry.id
        assert "--8<--" not in page.text()


def test_copy_buttons_and_both_themes_are_configured(site):
    page = built_page(site / "WR-220" / "index.html")
    assert '"content.code.copy"' in page.css_first("#__config").text()
    schemes = {i.attributes.get("data-md-color-scheme") for i in page.css("form[data-md-component=palette] input")}
    assert schemes == {"default", "slate"}


def test_strong_answer_is_collapsed(site):
    for entry_id in CATALOG.entries:
        page = built_page(site / entry_id / "index.html")
        details = {stripped(d.css_first("summary")): d for d in page.css("details")}
        assert set(details) >= {"Strong answer", "Bonus point"}
        assert not any("open" in d.attributes for d in details.values())


def test_home_page_index_table(site):
    page = built_page(site / "index.html")
    rows = [[" ".join(words_of(c).replace(" ,", ",").split()) for c in tr.css("td")]
            for tr in page.css("table tr")[1:]]
    assert rows == [[e.id, e.title, ", ".join(e.modules), e.status] for e in CATALOG.sorted_entries()]
    for e in CATALOG.sorted_entries():
        assert page.css_first(f'table a[href="{e.id}/"]')
    assert "Start here if your loss printed nan" in page.text()


def test_entry_pages_show_status_modules_and_related_both_ways(site):
    for entry in CATALOG.sorted_entries():
        page = built_page(site / entry.id / "index.html")
        text = words_of(page)
        assert f"Status: {entry.status}" in text
        for module in entry.modules:
            assert page.css_first(f'a[href="../modules/{module}/"]'), (entry.id, module)
        for rid, nature in CATALOG.related(entry):
            if rid in CATALOG.planned:          # not written yet: named as planned, not linked
                assert not page.css_first(f'a[href="../{rid}/"]'), (entry.id, rid)
                assert f"{rid} (planned: {CATALOG.planned[rid]}) ({nature.replace('-', ' ')})" in text, (entry.id, rid)
                continue
            assert page.css_first(f'a[href="../{rid}/"]'), (entry.id, rid)
            assert f"{rid} ({nature.replace('-', ' ')})" in text
    # declared once on WR-220, shown on both pages
    assert "WR-220 (follows from)" in page_text(site / "WR-020" / "index.html")
    assert "WR-220 (cousin)" in page_text(site / "WR-120" / "index.html")


def test_module_pages_list_their_entries(site):
    index = built_page(site / "modules" / "index.html")
    for module_id, title in CATALOG.modules.items():
        assert index.css_first(f'a[href="{module_id}/"]')
        page = built_page(site / "modules" / module_id / "index.html")
        assert stripped(page.css_first("h1")).startswith(f"Module {module_id}: {title}")
        listed = [a.attributes["href"] for a in page.css("article li a") if "handouts" not in a.attributes["href"]]
        expected = [f"../../{e.id}/" for e in CATALOG.sorted_entries() if module_id in e.modules]
        assert listed == expected, module_id
        for e in CATALOG.sorted_entries():
            if module_id in e.modules:
                assert e.summary in words_of(page)


def test_symptom_index_lists_every_message_and_signature(site):
    page = built_page(site / "symptoms" / "index.html")
    items = {li.css_first("code").text(): li for li in page.css("li") if li.css_first("code")}
    for entry in CATALOG.sorted_entries():
        for message in entry.messages:
            shown = message_template(message.text)
            assert items[shown].css_first(f'a[href="../{entry.id}/"]'), (shown, entry.id)
        if entry.trace != "none":
            li = next(li for li in page.css("li") if li.css_first("strong") and li.css_first("strong").text() == entry.trace)
            assert li.css_first(f'a[href="../{entry.id}/"]')
    # one line per message, whatever number each entry's run printed in it
    assert not any(key.startswith("Batch ") and key[6].isdigit() for key in items)
    keras = items["Batch …: Invalid loss, terminating training"]
    assert len(keras.css("a")) >= 5, keras.text()


def test_site_publishes_the_export(site):
    published = json.loads((site / "catalog.json").read_text())
    assert published == catalog_data(CATALOG)
    cli = subprocess.run([sys.executable, "-m", "trainwreck", "export"], cwd=ROOT, capture_output=True, text=True)
    assert json.loads(cli.stdout) == published
    for e in published["entries"]:
        assert (site / e["url"] / "index.html").is_file()
        assert (site / e["handout_url"] / "index.html").is_file()


def test_handout_has_symptom_picture_program_output_exercise_and_no_answer(site):
    for entry in CATALOG.sorted_entries():
        page = built_page(site / "handouts" / entry.id / "index.html")
        headings = [stripped(h).rstrip("¶") for h in page.css("article h2")]
        assert headings == ["Symptom", "Reproduce it", "Exercise"]
        code = page.css_first("pre code").text()
        assert code == tab_program((ROOT / entry.snippet).read_text(), "reproduce")
        assert page.css(".tw-figures img"), entry.id
        assert page.css_first(".tw-answer-space")
        assert not answer_shingles(entry) & shingles(page.text(separator=" "))
        assert "Strong answer" not in page.text()


def test_module_handout_holds_each_entry_with_picture_output_and_exercise(site):
    for module_id in CATALOG.modules:
        entries = [e for e in CATALOG.sorted_entries() if module_id in e.modules]
        module_page = built_page(site / "modules" / module_id / "index.html")
        if not entries:
            assert not (site / "handouts" / f"module-{module_id}").exists()
            continue
        assert module_page.css_first(f'a[href="../../handouts/module-{module_id}/"]'), module_id
        page = built_page(site / "handouts" / f"module-{module_id}" / "index.html")
        sheets = page.css("article h2.tw-handout-entry")
        assert [stripped(h).rstrip("¶") for h in sheets] == [f"{e.id}: {e.title}" for e in entries]
        text = page.text(separator=" ")
        for entry in entries:
            assert page.css_first(f'img[src*="figures/{entry.id}-1-light.svg"]'), (module_id, entry.id)
            assert not answer_shingles(entry) & shingles(text), (module_id, entry.id)
        assert len(page.css(".tw-answer-space")) == len(entries)
        assert "Strong answer" not in page.text()


def test_loss_watch_has_a_page_with_its_file_a_loop_that_uses_it_its_output_and_a_download(site):
    page = built_page(site / "tools" / "loss_watch" / "index.html")
    source = (ROOT / "snippets" / "loss_watch.py").read_text()
    code, output = [pre.text() for pre in page.css("pre")][:2]
    assert code == source
    assert "def guarded_training" in code and "watch.check(" in code
    assert output.rstrip("\n") == run_snippet(ROOT, "snippets/loss_watch.py").outputs["loss_watch.py"].rstrip("\n")
    link = page.css_first('a[download="loss_watch.py"]')
    assert (site / "tools" / "loss_watch" / link.attributes["href"]).resolve().read_text() == source
    # an entry that shows part of it points to the whole
    assert built_page(site / "WR-220" / "index.html").css_first('a[href="../tools/loss_watch/"]')


def test_a_clean_build_prints_nothing_but_mkdocs_own_progress_lines(site):
    lines = [line for line in build_output(site).splitlines() if line.strip()]
    assert any(line.startswith("INFO    -  Documentation built in ") for line in lines), lines   # the whole output
    progress = ("INFO    -  Cleaning site directory", "INFO    -  Building documentation to directory: ",
                "INFO    -  Documentation built in ")
    assert [line for line in lines if not line.startswith(progress)] == []


def words(text: str) -> list[str]:
    return re.findall(r"[a-z0-9]+", html.unescape(text).lower())


def shingles(text: str, n: int = 6) -> set[tuple[str, ...]]:
    w = words(text)
    return {tuple(w[i:i + n]) for i in range(len(w) - n + 1)}


def answer_shingles(entry) -> set[tuple[str, ...]]:
    """Six-word runs found in the strong answer or the bonus point and nowhere
    else in the catalogue's prose (an answer may repeat a phrase of its page)."""
    question = split_sections(entry.body)["Interview question"]
    parts = re.split(r"^### .*$", question, flags=re.M)[1:]
    return set().union(*(shingles(part) for part in parts)) - prose_shingles()


@functools.lru_cache(maxsize=1)
def prose_shingles() -> frozenset:
    """Six-word runs of the catalogue's prose outside the answers, and of the hand-written pages."""
    return frozenset().union(
        *(shingles(strip_answers(e.body) + " " + e.summary) for e in CATALOG.entries.values()),
        *(shingles(p.read_text()) for p in (ROOT / "docs").glob("*.md")))


def _strings(value):
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for v in value.values():
            yield from _strings(v)
    elif isinstance(value, list):
        for v in value:
            yield from _strings(v)


TAG = re.compile(r"<[^>]*>")


def all_text(site: Path) -> str:
    """The words of every file of a build, tags taken out. Script and style contents stay in:
    more text than a reader sees, so an answer hidden in them is found too."""
    chunks = []
    for path in site.rglob("*"):
        if not path.is_file() or path.suffix not in {".html", ".json", ".js", ".xml", ".txt"}:
            continue
        text = path.read_text(encoding="utf-8", errors="replace")
        if path.suffix == ".json":
            text = " ".join(_strings(json.loads(text)))
        chunks.append(TAG.sub(" ", text))
    return " ".join(chunks)


def test_student_edition_has_no_answer_text_in_any_file(site, student_site):
    full, student = shingles(all_text(site)), shingles(all_text(student_site))
    for entry in CATALOG.sorted_entries():
        answer = answer_shingles(entry)
        assert len(answer) > 20
        assert answer <= full, f"{entry.id}: the full edition should carry the answer (else this test proves nothing)"
        assert not answer & student, f"{entry.id}: answer text found in the student edition"
    page = built_page(student_site / "WR-220" / "index.html")
    assert "Interview question" in page.text() and not page.css_first("details")


def test_unknown_edition_is_refused_in_one_line(tmp_path):
    result = build_site(ROOT, tmp_path / "out", TRAINWRECK_EDITION="teacher")
    assert result.returncode == 1
    assert "TRAINWRECK_EDITION: 'teacher' is not one of full, student" in result.stderr
    assert "Traceback" not in result.stderr


def test_offline_build_uses_file_urls(site, offline_site):
    # a page per file, linked by file name: what a browser can open from file://
    assert (offline_site / "WR-220.html").is_file() and not (offline_site / "WR-220").exists()
    assert (site / "WR-220" / "index.html").is_file() and not (site / "WR-220.html").exists()
    home = built_page(offline_site / "index.html")
    assert home.css_first('table a[href="WR-220.html"]')
    published = json.loads((offline_site / "catalog.json").read_text())
    for e in published["entries"]:
        assert (offline_site / e["url"]).is_file(), e["url"]


FETCHING = ", ".join(f"{tag}[src]" for tag in ("script", "img", "iframe", "source", "video", "audio", "embed"))


@functools.lru_cache(maxsize=2)
def parsed_pages(root: Path) -> tuple:
    """Every page of a build, parsed (lexbor): (its path, its tree). The tests that read each page of the site and
    of its offline edition share one reading."""
    return tuple((page, LexborHTMLParser(page.read_text(encoding="utf-8"))) for page in sorted(root.rglob("*.html")))


def test_each_page_links_an_icon_the_site_holds(site, offline_site):
    """A browser's own UI fetches the icon a page links to; the headless shell the browser tests drive has no UI
    and fetches none (tests/test_browser.py, find_chromium), so the link is checked here: to a file of the build."""
    checked = 0
    for root in (site, offline_site):
        for page, doc in parsed_pages(root):
            for link in doc.css("link[rel~=icon]"):
                href = link.attributes.get("href") or ""
                path = href.split("#")[0].split("?")[0]
                # (the 404 page links from the site's root: it is served at any depth)
                target = (root / path.lstrip("/") if path.startswith("/") else page.parent / path).resolve()
                assert not EXTERNAL.match(href) and target.is_file() and root.resolve() in target.parents, (page, href)
                checked += 1
    assert checked > 100, checked        # every page of both builds links one


def test_no_request_to_another_host(site, offline_site):
    offenders, fetching, pages = [], 0, 0
    for root in (site, offline_site):
        for page, doc in parsed_pages(root):
            pages += 1
            for tag in doc.css(FETCHING):
                fetching += 1
                if EXTERNAL.match(tag.attributes["src"] or ""):
                    offenders.append(f"{page.name}: {tag.tag} {tag.attributes['src']}")
            for tag in doc.css("link[href]"):
                if EXTERNAL.match(tag.attributes["href"] or "") and tag.attributes.get("rel") != "canonical":
                    offenders.append(f"{page.name}: link {tag.attributes['href']}")
        for css in root.rglob("*.css"):
            text = css.read_text(encoding="utf-8")
            offenders += [f"{css.name}: {u}" for u in re.findall(r"url\(\s*['\"]?([^)'\"]+)", text) if EXTERNAL.match(u)]
            if re.search(r"@import\s+(url\()?['\"]?(https?:)?//", text):
                offenders.append(f"{css.name}: @import")
    # every page loads Material's scripts: fewer fetching tags than pages and this test proves nothing
    assert fetching > pages > 50, (fetching, pages)
    assert offenders == []


def test_broken_catalogue_stops_the_build_with_one_line_per_problem(tmp_path):
    stderr, entry = failing_build(tmp_path, "catalog/WR-220.md", "status: stable", "status: shiny")
    assert f"{entry}:5: status: 'shiny' is not one of draft, stable, retired" in stderr


def test_pages_workflow_tests_then_publishes():
    workflow = yaml.safe_load((ROOT / ".github" / "workflows" / "pages.yml").read_text())
    steps = [s for job in workflow["jobs"].values() for s in job["steps"]]
    runs = " ".join(s.get("run", "") for s in steps)
    uses = [s.get("uses", "") for s in steps]
    assert "bash .ci/run" in runs and "mkdocs build --strict" in runs
    assert any(u.startswith("actions/deploy-pages") for u in uses)
    assert any(u.startswith("actions/upload-pages-artifact") for u in uses)


def test_roadmap_lists_every_planned_entry_marked_as_not_written(site):
    page = built_page(site / "roadmap" / "index.html")
    text = words_of(page)
    assert "Planned, not written" in text
    rows = {stripped(tr.css_first("td")): tr for tr in page.css("tr") if tr.css_first("td")}
    assert set(rows) == set(CATALOG.planned)
    for entry_id, title in CATALOG.planned.items():
        assert title in words_of(rows[entry_id])
        assert not rows[entry_id].css("a")      # nothing to link to yet


def test_an_entry_with_a_second_signature_names_both_and_the_symptom_index_lists_it_under_both(site):
    page = (site / "WR-330" / "index.html").read_text(encoding="utf-8")
    assert "barely moves from its first value and stays high: no nan, no learning; or, starts finite, climbs for " \
           "several epochs, then turns inf / nan" in page
    index = (site / "symptoms" / "index.html").read_text(encoding="utf-8")
    climb = index.split("climb-then-nonfinite", 1)[1].split("</li>", 1)[0]
    assert "WR-220" in climb and "WR-330" in climb
