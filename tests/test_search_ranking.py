"""Search on the built site, scored by Material's own search worker under Node.js (tests/material_search.py),
for every message the catalogue declares: the entries that print it come first, those whose main message
it is ahead of the others, each group in ID order, and the first card strikes out no word. An entry's ID
and its title find the entry first. trainwreck/site_search.py explains how the site earns this order."""
import html
import json

import pytest

from conftest import real_catalog
from material_search import node, search
from trainwreck.pages import MAIN_MESSAGE_LABEL, entry_path, page_url
from trainwreck.site_search import UNINDEXED

CATALOG = real_catalog()
ENTRIES = CATALOG.sorted_entries()
MESSAGES = sorted({m.shown for e in ENTRIES for m in e.messages})

pytestmark = pytest.mark.skipif(node() is None, reason="no Node.js to run Material's search worker: install "
                                                       "nodejs, or playwright (pip install '.[test]') which ships one")


def page_of(entry_id: str) -> str:
    return page_url(entry_path(entry_id))


@pytest.fixture(scope="module")
def results(site):
    queries = list(dict.fromkeys(MESSAGES + [e.id for e in ENTRIES] + [e.title for e in ENTRIES]))
    return dict(zip(queries, search(site, queries)))


def printing(results, message: str) -> tuple[list[str], list[str]]:
    """The entries whose main message this is, and the others that declare it, each in ID order. Texts that
    the search box reads as the same words are one message to it: Material drops a word followed by ":" as
    a field name, so "Batch 0: Invalid loss, ..." and "Batch 1: Invalid loss, ..." cannot be told apart."""
    words = results[message].words
    main = [e.id for e in ENTRIES if e.messages and results[e.messages[0].shown].words == words]
    also = [e.id for e in ENTRIES if e.id not in main and any(results[m.shown].words == words for m in e.messages)]
    return main, also


@pytest.mark.parametrize("message", MESSAGES)
def test_a_message_lists_the_entries_that_print_it_first_main_ones_first(results, message):
    result = results[message]
    assert result.words, "the search box keeps no word of this message"
    main, also = printing(results, message)
    expected = [page_of(entry_id) for entry_id in main + also]
    assert result.pages[:len(expected)] == expected, (
        f"expected {main} (main message) then {also}, the search box lists:\n{result.describe()}")
    assert result.missing_on_top_card() == [], result.describe(1)


@pytest.mark.parametrize("entry", ENTRIES, ids=[e.id for e in ENTRIES])
def test_an_entry_is_found_first_by_its_id_and_by_its_title(results, entry):
    for query in (entry.id, entry.title):
        assert results[query].pages[:1] == [page_of(entry.id)], f"{query!r}:\n{results[query].describe()}"
        assert results[query].missing_on_top_card() == [], f"{query!r}:\n{results[query].describe(1)}"


def test_each_entry_page_indexes_its_id_first_and_each_message_as_a_section_title(site):
    """The parts of the page that site_search's rule stands on, read from the index itself."""
    docs = json.loads((site / "search" / "search_index.json").read_text(encoding="utf-8"))["docs"]
    for entry in ENTRIES:
        page = page_of(entry.id)
        own = [d for d in docs if d["location"].split("#")[0] == page]
        first = own[0]
        assert first["location"] == page and first["text"] == ""
        assert first["title"] == f"{entry.id}{UNINDEXED}: {html.escape(entry.title, quote=False)}{UNINDEXED}"
        sections = {html.unescape(d["title"]): d["text"] for d in own[1:]}
        for number, message in enumerate(entry.messages):
            repeated = f"{MAIN_MESSAGE_LABEL} {html.escape(message.shown, quote=False)}</p>" in sections[message.shown]
            assert repeated == (number == 0), (entry.id, message.shown)   # the main message's text only


def test_the_built_search_worker_keeps_numbers_apart_that_lunr_runs_together(site):
    """lunr 2.3's key for a state of its dictionary is its final flag, then each edge's character and the id of the
    state it leads to: along a number's digits, {"1" -> #234} and {"1" -> #2, "3" -> #4} both give "01234", and the
    two states are merged, so a word drops out (site_search.unambiguous_token_keys). The worker as Material ships it
    runs them together; the built site's worker, mended by the build, keeps them apart -- and finds "65536", which
    the site's numbers had made it lose."""
    import subprocess
    from pathlib import Path

    from material_search import worker

    def keys(worker_js: Path) -> list[str]:
        script = Path(__file__).with_name("token_keys.js")
        run = subprocess.run([node(), str(script), str(worker_js)], capture_output=True, text=True, timeout=60, check=True)
        return json.loads(run.stdout)

    shipped, built = keys(worker()), keys(worker(site))
    assert shipped == ["01234", "01234"]
    assert built == ["01234,", "012,34,"]
    # (a dirty build keeps the mended worker: mending it again changes nothing)
    from trainwreck.site_search import unambiguous_token_keys
    mended = worker(site).read_text(encoding="utf-8")
    assert unambiguous_token_keys(mended) == mended
    assert search(site, ["65536"])[0].pages[:1] == [page_of("WR-040")]
