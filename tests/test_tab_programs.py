"""Each tab of an entry page is a whole program, tested the way a reader uses it: the code is taken
from the built page, saved under the name the page gives it in an empty folder, and run; it prints
what the page shows under it, the Reproduce tab the symptom and the Fix tab the fix working -- and
`diagnose` closes the loop on both (the symptom names its entry first, the fix is healthy)."""
import io

import pytest

from conftest import ROOT, built_page, program_run, real_catalog, tab_program_run
from trainwreck.diagnose import diagnose, message_finder
from trainwreck.logscan import scan
from trainwreck.snippet_sections import TABS, tab_file, tab_program

CATALOG = real_catalog()
ENTRIES = CATALOG.sorted_entries()
REGIONS = [region for _, region in TABS]
FINDER = message_finder(CATALOG)     # the messages the catalogue declares, found as `trainwreck diagnose` finds them


def page_tab(site, entry, label: str) -> dict:
    """One tab of the built entry page: its code, the file name its download gives, and the output
    shown under it (None when the page shows none)."""
    tabs = {}
    for tabbed in built_page(site / entry.id / "index.html").css(".tabbed-set"):
        labels = [lab.text(strip=True) for lab in tabbed.css(".tabbed-labels label")]
        tabs.update(zip(labels, tabbed.css(".tabbed-block")))
    block = tabs[label]
    blocks = block.css("pre")
    link = block.css_first("a[download]")
    return {"code": blocks[0].text(), "output": blocks[1].text() if len(blocks) > 1 else None,
            "filename": link.attributes["download"], "href": link.attributes["href"]}


def program_output(entry, region):
    run = tab_program_run(entry.snippet, region)
    assert run.returncode == 0, run.stdout[-2000:]
    return run.stdout


@pytest.mark.parametrize("entry", ENTRIES, ids=lambda e: e.id)
@pytest.mark.parametrize("label, region", TABS)
def test_code_copied_from_the_page_prints_what_the_page_shows(site, entry, label, region):
    tab = page_tab(site, entry, label)
    text = (ROOT / entry.snippet).read_text(encoding="utf-8")
    # the tab holds the whole program, and its download is that same program under its own name
    assert tab["code"] == tab_program(text, region)
    assert tab["filename"] == tab_file(entry.snippet, region)
    assert (site / entry.id / tab["href"]).resolve().read_text(encoding="utf-8") == tab["code"]
    run = program_run(tab["code"], tab["filename"])
    assert run.returncode == 0, run.stdout[-2000:]
    assert tab["output"] is not None, f"{entry.id}: the {label} tab shows no output"
    assert tab["output"].rstrip("\n") == run.stdout.rstrip("\n")


@pytest.mark.parametrize("entry", ENTRIES, ids=lambda e: e.id)
def test_the_whole_snippet_file_can_be_downloaded_from_its_page(site, entry):
    name = entry.snippet.rsplit("/", 1)[-1]
    link = built_page(site / entry.id / "index.html").css_first(f'a[download="{name}"]')
    assert link is not None, f"{entry.id}: no download link for {name}"
    assert (site / entry.id / link.attributes["href"]).resolve().read_bytes() == (ROOT / entry.snippet).read_bytes()


@pytest.mark.parametrize("entry", ENTRIES, ids=lambda e: e.id)
@pytest.mark.parametrize("region", REGIONS)
def test_each_tab_is_a_program_that_prints_its_story(entry, region):
    output = program_output(entry, region)
    assert len(output.strip().splitlines()) >= 2, output


@pytest.mark.parametrize("entry", ENTRIES, ids=lambda e: e.id)
def test_reproduce_tab_output_names_its_entry_first(entry):
    d = diagnose(scan(io.BytesIO(program_output(entry, "reproduce").encode()), "reproduce.py", FINDER), CATALOG)
    assert d.verdict == "failure"
    assert d.matches[0].entry.id == entry.id, [m.entry.id for m in d.matches]


@pytest.mark.parametrize("entry", ENTRIES, ids=lambda e: e.id)
def test_fix_tab_output_is_healthy(entry):
    d = diagnose(scan(io.BytesIO(program_output(entry, "fix").encode()), "fix.py", FINDER), CATALOG)
    assert d.matches == [] and d.unweighed == [], (d.matches, d.unweighed)
    assert d.verdict in ("healthy", "no-evidence")
