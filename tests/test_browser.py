"""The built site in a real headless Chromium, over localhost and from file://."""
import functools
import http.server
import os
import shutil
import threading
from pathlib import Path

import pytest

from conftest import ROOT
from trainwreck.snippet_sections import sections_of
from trainwreck.validate import check

CATALOG, _ = check(ROOT / "catalog")


def find_chromium():
    for candidate in (os.environ.get("TRAINWRECK_CHROMIUM"), "/usr/bin/chromium",
                      shutil.which("chromium"), shutil.which("google-chrome")):
        if candidate and Path(candidate).is_file():
            return candidate
    return None


CHROMIUM = find_chromium()
try:
    from playwright.sync_api import sync_playwright
except ImportError:  # pragma: no cover - the test extras install it
    sync_playwright = None

pytestmark = [
    pytest.mark.skipif(CHROMIUM is None, reason="no Chromium: install Debian's chromium package (.ci/run does)"),
    pytest.mark.skipif(sync_playwright is None, reason="playwright is not installed (pip install '.[test]')"),
]

# Chromium's own background traffic would otherwise try to leave the machine.
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-sync",
        "--disable-background-networking", "--disable-component-update"]


@pytest.fixture(scope="module")
def browser():
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


@pytest.fixture(scope="module")
def served(site):
    handler = functools.partial(QuietHandler, directory=str(site))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/"
    server.shutdown()


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


class Visit:
    """A page plus every request it made, failed, or got an error for."""

    def __init__(self, browser, origin: str):
        self.context = browser.new_context()
        if origin.startswith("http"):
            self.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=origin.rstrip("/"))
        self.page = self.context.new_page()
        self.requests, self.failures = [], []
        self.page.on("request", lambda r: self.requests.append(r.url))
        self.page.on("requestfailed", lambda r: self.failures.append(f"{r.url}: {r.failure}"))
        self.page.on("response", lambda r: r.status >= 400 and self.failures.append(f"{r.url}: {r.status}"))

    def close(self):
        self.context.close()


@pytest.fixture
def visit(browser):
    opened = []

    def open_(origin):
        v = Visit(browser, origin)
        opened.append(v)
        return v

    yield open_
    for v in opened:
        v.close()


def search(page, query: str) -> list[str]:
    """Type the query and return the result links once they stop changing
    (results for a half-typed query appear first)."""
    page.click("input.md-search__input")
    page.keyboard.type(query)
    page.wait_for_selector(".md-search-result__item", timeout=10_000)
    links = page.locator(".md-search-result__item > a.md-search-result__link")
    previous = None
    for _ in range(50):
        current = [links.nth(i).get_attribute("href") for i in range(links.count())]
        if current == previous and current:
            return current
        previous = current
        page.wait_for_timeout(200)
    return previous


def entry_of(href: str) -> str:
    for entry_id in CATALOG.entries:
        if f"/{entry_id}/" in href or f"/{entry_id}.html" in href:
            return entry_id
    return href


@pytest.mark.parametrize("path", ["", "WR-220/", "symptoms/", "modules/2.2/", "handouts/WR-120/"])
def test_page_loads_with_no_failed_or_outside_request(visit, served, path):
    v = visit(served)
    v.page.goto(served + path, wait_until="networkidle")
    assert v.failures == []
    outside = [u for u in v.requests if not u.startswith(served) and not u.startswith(("data:", "blob:"))]
    assert outside == []
    assert len(v.requests) > 3  # stylesheets and scripts really were loaded


@pytest.mark.parametrize("message", ["overflow encountered in exp", "divide by zero encountered in log",
                                     "invalid value encountered in multiply"])
def test_search_for_a_warning_text_ranks_the_declaring_entries_first(visit, served, message):
    v = visit(served)
    v.page.goto(served)
    declaring = {e.id for e in CATALOG.entries.values() if message in [m.shown for m in e.messages]}
    found = list(dict.fromkeys(entry_of(h) for h in search(v.page, message)))   # one per page, in order
    assert set(found[: len(declaring)]) == declaring, found


def test_search_by_id_and_title_words(visit, served):
    v = visit(served)
    v.page.goto(served)
    assert entry_of(search(v.page, "WR-120")[0]) == "WR-120"
    v.page.goto(served)
    assert entry_of(search(v.page, "learning rate too high")[0]) == "WR-220"


def test_copy_button_copies_exactly_the_region(visit, served):
    v = visit(served)
    v.page.goto(served + "WR-220/")
    regions = sections_of((ROOT / "snippets" / "wr220_lr_explosion.py").read_text())
    tabbed = v.page.locator(".tabbed-set").first
    for label in ("Reproduce", "Fix"):
        tabbed.locator("label", has_text=label).click()
        block = tabbed.locator(".tabbed-block").nth(0 if label == "Reproduce" else 1)
        block.locator("button.md-code__button").click()
        copied = v.page.evaluate("navigator.clipboard.readText()")
        assert copied.rstrip("\n") == regions[label.lower()], label


def test_strong_answer_hidden_until_opened(visit, served):
    v = visit(served)
    v.page.goto(served + "WR-220/")
    answer = v.page.locator("details", has_text="Strong answer")
    text = answer.locator("p").first
    assert not text.is_visible()
    answer.locator("summary").click()
    assert text.is_visible()
    assert "overshoots" in text.inner_text()


def test_module_page_lists_its_entries(visit, served):
    v = visit(served)
    v.page.goto(served + "modules/2.2/")
    links = v.page.locator("article li a strong")
    listed = [links.nth(i).inner_text() for i in range(links.count())]
    assert listed == [e.id for e in CATALOG.sorted_entries() if "2.2" in e.modules]
    v.page.locator("article li a", has_text="WR-220").first.click()
    v.page.wait_for_url("**/WR-220/")


def test_dark_theme_toggle(visit, served):
    v = visit(served)
    v.page.goto(served + "WR-220/")
    before = v.page.get_attribute("body", "data-md-color-scheme")
    v.page.locator("label.md-header__button[title^='Switch to']").first.click()
    after = v.page.get_attribute("body", "data-md-color-scheme")
    assert {before, after} == {"default", "slate"}


def test_offline_build_from_file_url_with_search(visit, offline_site):
    v = visit("file://")
    home = (offline_site / "index.html").as_uri()
    v.page.goto(home, wait_until="load")
    v.page.locator("table a", has_text="WR-020").click()
    v.page.wait_for_url("**/WR-020.html")
    found = [entry_of(h) for h in search(v.page, "invalid value encountered in divide")]
    assert found[0] == "WR-020"
    outside = [u for u in v.requests if not u.startswith("file://") and not u.startswith(("data:", "blob:"))]
    assert outside == [] and v.failures == []


def test_handout_prints_without_navigation(visit, served):
    v = visit(served)
    v.page.goto(served + "handouts/WR-220/")
    v.page.emulate_media(media="print")
    for selector in (".md-header", ".md-sidebar--primary", ".md-footer", "button.md-code__button"):
        loc = v.page.locator(selector)
        assert all(not loc.nth(i).is_visible() for i in range(loc.count())), selector
    assert v.page.locator("h2", has_text="Interview question").is_visible()
    pdf = v.page.pdf()
    from io import BytesIO

    from pypdf import PdfReader
    text = " ".join(page.extract_text() for page in PdfReader(BytesIO(pdf)).pages)
    assert "Interview question" in text and "Strong answer" not in text
    assert "Search" not in text.split("Symptom")[0]  # no header chrome above the content


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_each_theme_shows_its_own_picture(browser, served, scheme):
    context = browser.new_context(color_scheme=scheme)
    page = context.new_page()
    page.goto(served + "WR-220/", wait_until="networkidle")
    light = page.locator("img[src*='WR-220-light.svg']")
    dark = page.locator("img[src*='WR-220-dark.svg']")
    assert light.is_visible() == (scheme == "light")
    assert dark.is_visible() == (scheme == "dark")
    shown = light if scheme == "light" else dark
    assert page.evaluate("img => img.naturalWidth", shown.element_handle()) > 300  # it really loaded
    context.close()
