"""Generated page Markdown: links, derived relations, folded answers."""
import shutil

from conftest import ROOT
from trainwreck.pages import collapse_answers, entry_page, link_ids
from trainwreck.validate import check


def test_planned_link_is_text_and_written_link_is_a_link(tmp_path):
    for name in ("catalog", "snippets"):
        shutil.copytree(ROOT / name, tmp_path / name)
    entry = tmp_path / "catalog" / "WR-220.md"
    entry.write_text(entry.read_text().replace("{id: WR-120, nature: cousin}", "{id: WR-999, nature: cousin}"))
    planned = tmp_path / "catalog" / "planned.yml"
    planned.write_text(planned.read_text() + 'WR-999: {title: "Not written yet", summary: "one line"}\n')
    catalog, problems = check(tmp_path / "catalog")
    assert problems == []
    page = entry_page(catalog.entries["WR-220"], catalog)
    related = next(line for line in page.splitlines() if line.startswith("**Related:**"))
    assert "WR-999 *(planned: Not written yet)* (cousin)" in related
    assert '[WR-020](WR-020.md "Float overflow: exp returns inf, and the inf becomes nan") (leads to)' in related


def test_ids_are_linked_in_prose_but_not_in_code_or_for_itself():
    catalog, _ = check(ROOT / "catalog")
    text = "See WR-020 and WR-220.\n\n```python\n# WR-020 in code\n```\nWR-7777 is not an ID."
    out = link_ids(text, catalog, "WR-220")
    assert out.startswith('See [WR-020](WR-020.md "Float overflow: exp returns inf, and the inf becomes nan") and WR-220.')
    assert "# WR-020 in code" in out and "WR-7777" in out


def test_answers_fold_into_closed_details():
    body = "## Interview question\n\nQ?\n\n### Strong answer\n\nA.\nMore.\n\n### Bonus point\n\nB.\n"
    out = collapse_answers(body)
    assert '??? success "Strong answer"\n\n    A.\n    More.\n\n' in out
    assert '??? success "Bonus point"\n\n    B.\n' in out
