"""The built site in a real headless Chromium, over localhost and from file://."""
import functools
import http.server
import os
import shutil
import threading
import time
from urllib.parse import urlsplit

import pytest

import material_search
from conftest import ROOT, real_catalog
from trainwreck.snippet_sections import tab_program

CATALOG = real_catalog()


def find_chromium() -> tuple[str | None, str]:
    """(the Chromium to drive, or None; why none). TRAINWRECK_CHROMIUM if set (a path or a program's name), else
    Chromium's headless shell, else the full browser. The shell is Chromium's own build for automation, of the same
    source and version (Debian's chromium-headless-shell package; Playwright's own headless runs use such a shell):
    the same Blink and V8 lay out, run and print the pages, without the browser's UI and its services. It ran these
    tests in 28.1 CPU-seconds where the full browser took 43.5, side by side (bench/browser_binary.py), on a machine
    whose every CPU-second the test command needs. One difference a test would see: the shell fetches no favicon,
    so test_site.py checks the icon's link instead. TRAINWRECK_CHROMIUM=chromium runs the tests in the full browser."""
    chosen = os.environ.get("TRAINWRECK_CHROMIUM")
    if chosen:
        found = shutil.which(chosen)
        return (found, "") if found else (None, f"TRAINWRECK_CHROMIUM={chosen} is not a program this machine has")
    for candidate in ("chromium-headless-shell", "chromium", "google-chrome"):
        if found := shutil.which(candidate):
            return found, ""
    return None, "no Chromium: install Debian's chromium-headless-shell package (.ci/run does), or chromium"


CHROMIUM, NO_CHROMIUM = find_chromium()
try:
    from playwright.sync_api import sync_playwright
except ImportError:  # pragma: no cover - the test extras install it
    sync_playwright = None

pytestmark = [
    pytest.mark.skipif(CHROMIUM is None, reason=NO_CHROMIUM),
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
        self.requests, self.failures, self.in_flight, self.last_event = [], [], set(), time.monotonic()
        self.page.on("request", self._started)
        self.page.on("requestfinished", self._finished)
        self.page.on("requestfailed", self._failed)
        self.page.on("response", lambda r: r.status >= 400 and self.failures.append(f"{r.url}: {r.status}"))

    def _started(self, request) -> None:
        self.requests.append(request.url)
        self.in_flight.add(request)
        self.last_event = time.monotonic()

    def _finished(self, request) -> None:
        self.in_flight.discard(request)
        self.last_event = time.monotonic()

    def _failed(self, request) -> None:
        self._finished(request)
        self.failures.append(f"{request.url}: {request.failure}")

    def wait_until_quiet(self, quiet: float = 0.5, timeout: float = 30.0) -> None:
        """Wait for the load event, then until no request of the page has started, finished or been in flight for
        `quiet` seconds: what Playwright's "networkidle" promises, counted here from the page's own request events.
        Playwright's count can lose the idle state when requests finish before DOMContentLoaded and then wait out
        its whole timeout with nothing in flight (microsoft/playwright#42598): this fixture met that in 2 of about
        10 full runs."""
        self.page.wait_for_load_state("load")
        deadline = time.monotonic() + timeout
        while self.in_flight or time.monotonic() - self.last_event < quiet:
            assert time.monotonic() < deadline, \
                f"requests in flight after {timeout:.0f} s: {[r.url for r in self.in_flight]}"
            self.page.wait_for_timeout(50)

    @classmethod
    def of(cls, browser, served: str, path: str) -> "Visit":
        """A visit to one page of the served site, once it has loaded (its pictures too: none is lazy)."""
        v = cls(browser, served)
        v.page.goto(served + path, wait_until="load")
        return v

    def outside(self, origin: str) -> list[str]:
        """The requests to anywhere but `origin` (inline data and blobs reach no host)."""
        return [u for u in self.requests if not u.startswith((origin, "data:", "blob:"))]

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
    """Paste the query into the search box and return the result links once they stop changing.
    Material searches on keyup, so a key is pressed after the text is in. The results of an
    earlier query are emptied away first, so they cannot be read as this query's."""
    box = "input.md-search__input"
    page.click(box)
    if page.locator(".md-search-result__item").count():
        page.fill(box, "")
        page.press(box, "End")
        page.wait_for_selector(".md-search-result__item", state="detached", timeout=10_000)
    page.fill(box, query)
    page.press(box, "End")
    page.wait_for_selector(".md-search-result__item", timeout=10_000)
    previous = None
    for _ in range(50):
        # read every link in one step: the list is re-rendered while results for longer prefixes arrive
        current = page.eval_on_selector_all(".md-search-result__item > a.md-search-result__link",
                                            "links => links.map(a => a.getAttribute('href'))")
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


PAGES = ["", "WR-220/", "symptoms/", "modules/2.2/", "handouts/WR-220/"]


@pytest.fixture(scope="module")
def loaded(browser, served):
    """Each page of PAGES opened in its own context and read once its network has been quiet for 500 ms
    (Visit.wait_until_quiet), so what it fetches after the load event (the search index, fonts) is seen
    too: {path: (the visit, its requests and failures by then)}. The pages are opened side by side, so their
    quiet periods overlap instead of adding up. The later tests use these pages rather than loading them
    again (each load costs Chromium about a second of CPU); the requests they make come after the copies."""
    visits = {path: Visit(browser, served) for path in PAGES}
    for path, v in visits.items():
        v.page.goto(served + path, wait_until="commit")
    for v in visits.values():
        v.wait_until_quiet()
    yield {path: (v, list(v.requests), list(v.failures)) for path, v in visits.items()}
    for v in visits.values():
        v.close()


@pytest.mark.parametrize("path", PAGES)
def test_pages_load_with_no_failed_or_outside_request(loaded, served, path):
    _, requests, failures = loaded[path]
    assert failures == []
    assert [u for u in requests if not u.startswith((served, "data:", "blob:"))] == []
    assert len(requests) > 3  # stylesheets and scripts really were loaded


def main_entry_of(message: str) -> str:
    """The first entry (by ID) whose main message this is."""
    return next(e.id for e in CATALOG.sorted_entries() if e.messages and e.messages[0].shown == message)


def declared_by(message: str) -> int:
    return sum(message in [m.shown for m in e.messages] for e in CATALOG.entries.values())


# A few real searches end to end; tests/test_search_ranking.py checks every declared message with the same
# scoring run outside the browser: here the search box must list the pages in the order that scoring gives.
# The messages with the most entries behind them, and the longest (punctuation, quotes, a hyphenated word).
ALL_MESSAGES = sorted({m.shown for e in CATALOG.entries.values() for m in e.messages})
UI_MESSAGES = sorted(ALL_MESSAGES, key=lambda t: (-declared_by(t), t))[:2] + [max(ALL_MESSAGES, key=len)]


@pytest.fixture(scope="module")
def scored(site):
    if material_search.node() is None:
        pytest.skip("no Node.js to run Material's search worker: install nodejs, or playwright (pip install '.[test]')")
    return dict(zip(UI_MESSAGES, material_search.search(site, UI_MESSAGES)))


@pytest.fixture(scope="module")
def home(loaded):
    """The home page, loaded once: the search tests type one query after another into its box."""
    return loaded[""][0].page


@pytest.mark.parametrize("message", UI_MESSAGES)
def test_the_search_box_lists_a_message_as_the_search_worker_scores_it(home, scored, message):
    shown = list(dict.fromkeys(urlsplit(href).path.lstrip("/") for href in search(home, message)))  # per page
    expected = scored[message].pages[:10]              # the box shows ten results before it is scrolled
    assert shown[:len(expected)] == expected
    top = home.locator(".md-search-result__item").first
    assert top.locator(".md-search-result__terms:visible").count() == 0, top.inner_text()   # no "Missing: ..."


def test_search_by_id_and_title_words(home):
    assert entry_of(search(home, "WR-120")[0]) == "WR-120"
    assert entry_of(search(home, "learning rate too high")[0]) == "WR-220"


@pytest.fixture(scope="module")
def wr220(loaded):
    """WR-220's page, loaded once for the tests that each use a different part of it (its tabs, its
    answer, its figure) and change nothing another of them reads."""
    return loaded["WR-220/"][0]


def test_copy_button_copies_each_whole_program(wr220):
    page = wr220.page
    text = (ROOT / "snippets" / "wr220_lr_explosion.py").read_text()
    tabbed = page.locator(".tabbed-set", has=page.locator("label", has_text="Reproduce")).first
    for label in ("Reproduce", "Fix"):
        tabbed.locator("label", has_text=label).click()
        block = tabbed.locator(".tabbed-block").nth(0 if label == "Reproduce" else 1)
        block.locator("button.md-code__button").first.click()
        copied = page.evaluate("navigator.clipboard.readText()")
        assert copied.rstrip("\n") == tab_program(text, label.lower()).rstrip("\n"), label


def test_strong_answer_hidden_until_opened(wr220):
    answer = wr220.page.locator("details", has_text="Strong answer")
    text = answer.locator("p").first
    assert not text.is_visible()
    answer.locator("summary").click()
    assert text.is_visible()
    assert "overshoots" in text.inner_text()


def test_module_page_lists_its_entries(loaded):
    page = loaded["modules/2.2/"][0].page          # no other test reads this page: it may leave it
    links = page.locator("article li a strong")
    listed = [links.nth(i).inner_text() for i in range(links.count())]
    assert listed == [e.id for e in CATALOG.sorted_entries() if "2.2" in e.modules]
    page.locator("article li a", has_text="WR-220").first.click()
    page.wait_for_url("**/WR-220/")


def test_offline_build_from_file_url_with_search(visit, offline_site):
    v = visit("file://")
    home = (offline_site / "index.html").as_uri()
    v.page.goto(home, wait_until="load")
    v.page.locator("table a", has_text="WR-020").click()
    v.page.wait_for_url("**/WR-020.html")
    message = next(m for m in ALL_MESSAGES if declared_by(m) > 1 and any(
        e.messages and e.messages[0].shown == m for e in CATALOG.entries.values()))   # main for one, printed by others
    found = [entry_of(h) for h in search(v.page, message)]
    assert found[0] == main_entry_of(message)
    assert v.outside("file://") == [] and v.failures == []


@pytest.fixture(scope="module")
def printed(browser, served, loaded):
    """A handout opened in print media and printed to A4, once per path: (its page, the text of each sheet).
    A handout among the loaded pages is printed from there (no other test reads it)."""
    opened, own = {}, []

    def get(path: str):
        if path not in opened:
            if path in loaded:
                v = loaded[path][0]
            else:
                v = Visit.of(browser, served, path)
                own.append(v)
            opened[path] = (v, print_pdf(v.page))
        v, sheets = opened[path]
        return v.page, sheets

    yield get
    for v in own:
        v.close()


def test_handout_prints_without_navigation(printed):
    page, sheets = printed("handouts/WR-220/")
    for selector in (".md-header", ".md-sidebar--primary", ".md-footer", "button.md-code__button"):
        loc = page.locator(selector)
        assert all(not loc.nth(i).is_visible() for i in range(loc.count())), selector
    assert page.locator("h2", has_text="Exercise").is_visible()
    text = " ".join(sheets)
    assert "Exercise" in text and "Strong answer" not in text
    assert "Search" not in text.split("Symptom")[0]  # no header chrome above the content


def without_search(context):
    """The context, its pages' search worker not loaded: for the tests of what a page shows that no search changes
    (the pictures and their labels). The worker reads the whole search index on every page, about a third of a CPU-
    second in the headless shell (0.35 per page over 6 loads of WR-330 with and without it)."""
    context.route("**/workers/search*", lambda route: route.abort())
    return context


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_each_theme_shows_its_own_picture_and_the_toggle_swaps_them(browser, served, scheme):
    """The reader's own theme (the system's preference) picks the picture; the header's toggle switches
    the page's palette and the picture with it."""
    context = without_search(browser.new_context(color_scheme=scheme))
    try:
        page = context.new_page()
        page.goto(served + "WR-220/", wait_until="load")       # the pictures are not lazy: loaded by then
        pictures = {theme: page.locator(f"img[src*='WR-220-1-{theme}.svg']") for theme in ("light", "dark")}
        other = "light" if scheme == "dark" else "dark"
        assert pictures[scheme].is_visible(), f"the {scheme} picture is hidden under the {scheme} preference"
        assert not pictures[other].is_visible(), f"the {other} picture shows under the {scheme} preference"
        assert page.evaluate("img => img.naturalWidth", pictures[scheme].element_handle()) > 300  # it really loaded
        before = page.get_attribute("body", "data-md-color-scheme")
        page.locator("label.md-header__button[title^='Switch to']:visible").first.click()
        after = page.get_attribute("body", "data-md-color-scheme")
        assert {before, after} == {"default", "slate"}, (before, after)
        assert pictures[other].is_visible(), f"after the toggle, the {other} picture is hidden"
        assert not pictures[scheme].is_visible(), f"after the toggle, the {scheme} picture still shows"
    finally:
        context.close()


def test_a_figure_opens_full_size_without_leaving_the_site(wr220, served):
    page = wr220.page
    shown = page.locator(".tw-figures a.glightbox:visible").first
    shown.click()
    big = page.locator(".gslide-image img").first
    big.wait_for(state="visible", timeout=10_000)
    # the opening animation grows the picture: wait until it is 1.3x the page's copy (or time out)
    page.wait_for_function("([img, small]) => img.getBoundingClientRect().width > 1.3 * small",
                           arg=[big.element_handle(), shown.bounding_box()["width"]], timeout=10_000)
    assert wr220.outside(served) == [] and wr220.failures == []
    page.keyboard.press("Escape")          # closed again: the page is as the other tests expect it


def test_figure_labels_stay_readable_at_phone_and_desktop_width(browser, served, site):
    """Each panel is drawn with 10 pt text on a sheet of its natural width (pt = 4/3 px): shown at its
    rendered width, that text must come out at 8 px or more, on a phone (390 px) and a desktop (1280 px).
    Every panel is drawn on the same sheet, so the layout of a page's figure depends only on how many
    panels it has: one page per panel count is measured. Each is loaded once and resized (the layout
    follows the viewport without a reload)."""
    by_count: dict[int, str] = {}
    for entry_id in sorted(CATALOG.entries):
        by_count.setdefault(len(list((site / "figures").glob(f"{entry_id}-*-light.svg"))), entry_id)
    assert 0 not in by_count, by_count
    context = without_search(browser.new_context(viewport={"width": 390, "height": 900}))
    page = context.new_page()
    for entry_id in sorted(by_count.values()):
        page.goto(served + f"{entry_id}/", wait_until="load")     # the pictures are not lazy: loaded by then
        for width in (390, 1280):
            page.set_viewport_size({"width": width, "height": 900})
            text_px = page.evaluate("""() => [...document.querySelectorAll('.tw-figures img')]
                .filter(img => img.getBoundingClientRect().width > 0)     // the other theme's copy is hidden
                .map(img => 10 * img.getBoundingClientRect().width / (img.naturalWidth * 0.75))""")
            assert text_px, (entry_id, width, "no picture shown")
            assert min(text_px) >= 8, (entry_id, width, text_px)
    context.close()


def print_pdf(page) -> list[str]:
    """The text of each A4 sheet the page prints to, read back by PDFium (the engine Chromium
    itself reads PDFs with; ligatures such as "fl" come back as their letters)."""
    import pypdfium2

    page.emulate_media(media="print")
    document = pypdfium2.PdfDocument(page.pdf(format="A4"))
    try:
        return [sheet.get_textpage().get_text_range() for sheet in document]
    finally:
        document.close()


def squeeze(text: str) -> str:
    return "".join(text.split())


def on_paper(line: str, printed: str) -> bool:
    """A line is on paper whole, or wrapped in two pieces (the text of a PDF need not keep them together)."""
    return line in printed or any(line[:i] in printed and line[i:] in printed for i in range(1, len(line)))


@pytest.mark.parametrize("path, listing_sheets_allowed", [("handouts/WR-220/", True), ("handouts/module-2.2/", False)])
def test_handout_prints_whole_code_and_no_sheet_is_only_a_listing(printed, path, listing_sheets_allowed):
    """The module handout holds no program, so no sheet of it may be a bare listing. An entry handout
    prints its whole Reproduce program, which runs past a sheet for the longer ones (not solved yet)."""
    page, pages = printed(path)
    cut = page.evaluate("""() => [...document.querySelectorAll('article pre')]
                               .filter(p => p.scrollWidth > p.clientWidth + 1).length""")
    assert cut == 0, "a code block is wider than the sheet"
    listing_lines = page.evaluate("""() => [...document.querySelectorAll('article pre')]
                                       .flatMap(p => p.innerText.split('\\n')).filter(l => l.trim())""")
    printed = squeeze(" ".join(pages))
    missing = [line for line in listing_lines if not on_paper(squeeze(line), printed)]
    assert missing == [], f"lines of code or output not on paper: {missing[:3]}"
    whole = {squeeze(line) for line in listing_lines}
    for number, text in enumerate(pages, 1):
        prose = [line for line in text.splitlines()
                 if squeeze(line) and not any(squeeze(line) in l for l in whole)]
        if not listing_sheets_allowed:
            assert len(" ".join(prose).split()) >= 5, f"sheet {number} of {path} is only a code listing"
    assert all("Strong answer" not in text for text in pages)
