"""The real MkDocs build: strict, generated entry pages, nothing fetched from elsewhere."""
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from bs4 import BeautifulSoup

from conftest import ROOT
from trainwreck.snippet_sections import sections_of
from trainwreck.validate import check

EXTERNAL = re.compile(r"^(?:[a-z][a-z0-9+.-]*:)?//", re.I)


def build(project: Path, site: Path):
    return subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-q", "-d", str(site)],
        cwd=project, capture_output=True, text=True,
        env={"NO_MKDOCS_2_WARNING": "1", "PATH": str(Path(sys.executable).parent)},
    )


@pytest.fixture(scope="session")
def site(tmp_path_factory):
    out = tmp_path_factory.mktemp("site")
    result = build(ROOT, out)
    assert result.returncode == 0, result.stderr
    return out


def soup(path: Path) -> BeautifulSoup:
    return BeautifulSoup(path.read_text(encoding="utf-8"), "html.parser")


def test_every_entry_has_a_page_at_its_id(site):
    catalog, _ = check(ROOT / "catalog")
    for entry_id in catalog.entries:
        page = site / entry_id / "index.html"
        assert page.is_file(), entry_id
        assert soup(page).h1.get_text().startswith(f"{entry_id}: ")


def test_entry_code_comes_from_the_snippet_regions(site):
    page = soup(site / "WR-220" / "index.html")
    code_text = "\n".join(block.get_text() for block in page.select("pre code"))
    snippet = (ROOT / "snippets" / "wr220_lr_explosion.py").read_text()
    for region in ("model", "reproduce", "fix"):
        for line in sections_of(snippet)[region].splitlines():
            assert line in code_text, f"{region}: {line!r}"
    assert "--8<--" not in page.get_text()


def test_copy_button_is_enabled(site):
    # Material adds the buttons in the browser when this feature is on
    config = soup(site / "WR-220" / "index.html").find(id="__config")
    assert '"content.code.copy"' in config.get_text()


def test_strong_answer_is_collapsed(site):
    page = soup(site / "WR-220" / "index.html")
    details = {d.summary.get_text(strip=True): d for d in page.find_all("details")}
    assert set(details) >= {"Strong answer", "Bonus point"}
    assert not details["Strong answer"].has_attr("open")
    assert "overshoots" in details["Strong answer"].get_text()


def test_home_page_index_table(site):
    page = soup(site / "index.html")
    rows = [[c.get_text(strip=True) for c in tr.find_all("td")] for tr in page.select("table tr")[1:]]
    catalog, _ = check(ROOT / "catalog")
    assert rows == [[e.id, e.title, ", ".join(e.modules), e.status] for e in catalog.sorted_entries()]
    assert page.select_one('table a[href="WR-220/"]')
    assert "Start here if your loss printed nan" in page.get_text()


def test_related_links_written_planned_and_derived(site):
    catalog, _ = check(ROOT / "catalog")
    for entry in catalog.sorted_entries():
        page = soup(site / entry.id / "index.html")
        related = next(p for p in page.find_all("p") if p.get_text().startswith("Related:")) \
            if any(l.id for l in entry.related) else None
        for link in entry.related:
            linked = related.select(f'a[href="../{link.id}/"]')
            if link.id in catalog.entries:
                assert linked, f"{entry.id}: {link.id} should be a link"
            else:
                assert not linked
                assert f"{link.id} (planned: {catalog.planned[link.id]})" in related.get_text(" ", strip=True)
    # declared once on WR-220, shown on both pages
    wr020 = soup(site / "WR-020" / "index.html").get_text(" ", strip=True)
    assert re.search(r"Related: [^.]*WR-220 \(follows from\)", wr020)


def test_no_request_to_another_host(site):
    offenders = []
    for html in site.rglob("*.html"):
        page = soup(html)
        for tag in page.find_all(["script", "img", "iframe", "source", "video", "audio", "embed"], src=True):
            if EXTERNAL.match(tag["src"]):
                offenders.append(f"{html.name}: {tag.name} {tag['src']}")
        for tag in page.find_all("link", href=True):
            if EXTERNAL.match(tag["href"]) and tag.get("rel") != ["canonical"]:
                offenders.append(f"{html.name}: link {tag['href']}")
    for css in site.rglob("*.css"):
        for url in re.findall(r"url\(\s*['\"]?([^)'\"]+)", css.read_text(encoding="utf-8")):
            if EXTERNAL.match(url):
                offenders.append(f"{css.name}: {url}")
        if re.search(r"@import\s+(url\()?['\"]?(https?:)?//", css.read_text(encoding="utf-8")):
            offenders.append(f"{css.name}: @import")
    assert offenders == []


def test_broken_catalogue_stops_the_build_with_one_line_per_problem(tmp_path):
    for name in ("catalog", "snippets", "docs", "trainwreck"):
        shutil.copytree(ROOT / name, tmp_path / name)
    shutil.copy(ROOT / "mkdocs.yml", tmp_path)
    entry = tmp_path / "catalog" / "WR-220.md"
    entry.write_text(entry.read_text().replace("status: stable", "status: shiny"))
    result = build(tmp_path, tmp_path / "out")
    assert result.returncode == 1
    assert f"{entry}: status: 'shiny' is not one of draft, stable, retired" in result.stderr
    assert "Traceback" not in result.stderr
