"""Pictures and console output on the pages come from real snippet runs."""
import os
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET

import pytest
from bs4 import BeautifulSoup

from conftest import ROOT, failing_build, load_snippet
from trainwreck.snippet_run import run_snippet
from trainwreck.sparkline import sparkline
from trainwreck.validate import check

CATALOG, _ = check(ROOT / "catalog")


def student_run(snippet: str) -> str:
    """`python snippets/x.py` in a terminal: stdout and stderr interleaved as they happen.

    Python prints the script's absolute path in warnings; pages show it relative
    to the project root, so the root is taken off here too.
    """
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    env.pop("PYTHONWARNINGS", None)
    result = subprocess.run([sys.executable, snippet], cwd=ROOT, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True, env=env)
    assert result.returncode == 0
    return result.stdout.replace(f"{ROOT}/", "")


@pytest.mark.parametrize("entry_id", sorted(CATALOG.entries))
def test_page_output_block_is_what_a_student_sees(site, entry_id):
    entry = CATALOG.entries[entry_id]
    page = BeautifulSoup((site / entry_id / "index.html").read_text(), "html.parser")
    intro = next(p for p in page.find_all("p") if p.get_text().startswith(f"What python {entry.snippet} prints"))
    shown = intro.find_next("pre").get_text()
    assert shown.rstrip("\n") == student_run(entry.snippet).rstrip("\n")


@pytest.mark.parametrize("entry_id", sorted(CATALOG.entries))
def test_page_has_light_and_dark_pictures_with_alt_text(site, entry_id):
    entry = CATALOG.entries[entry_id]
    page = BeautifulSoup((site / entry_id / "index.html").read_text(), "html.parser")
    figure = load_snippet(entry.snippet[len("snippets/"):-3]).figure_data()
    images = {img["src"].split("#")[1]: img for img in page.select("img.tw-figure")}
    assert set(images) == {"only-light", "only-dark"}
    for variant, img in images.items():
        assert img["alt"] == figure["alt"] and len(img["alt"]) > 80
        svg = site / entry_id / img["src"].split("#")[0]
        root = ET.parse(svg).getroot()
        assert root.tag.endswith("svg")
        text = svg.read_text()
        assert ("#1f1f1f" in text) == (variant == "only-light")
        assert ("#e6e6e6" in text) == (variant == "only-dark")
        for panel in figure["panels"]:
            assert panel["title"] in text  # text is kept as text, so it is searchable and crisp


def test_figure_data_matches_the_runs():
    wr220 = load_snippet("wr220_lr_explosion")
    data = wr220.figure_data()
    best, runs = wr220.pick_rate()
    series = {s["label"]: s["y"] for s in data["panels"][0]["series"]}
    assert series["lr 1"] == runs[1.0]["loss"]
    assert "inf at epoch 6" in data["panels"][0]["vlines"][0]["label"]
    wr020 = load_snippet("wr020_float_overflow")
    lines = [v["x"] for v in wr020.figure_data()["panels"][0]["vlines"]]
    assert lines == [float(wr020.overflow_threshold(d)) for d in wr020.DTYPES]
    wr120 = load_snippet("wr120_bad_init")
    X, _ = wr120.make_data()
    spread = wr120.figure_data()["panels"][0]["series"][0]["y"]
    assert spread == wr120.layer_spread(wr120.init_params("std1"), X).tolist()


def test_results_are_cached_by_snippet_content(tmp_path):
    shutil.copytree(ROOT / "snippets", tmp_path / "snippets")
    snippet = "snippets/wr020_float_overflow.py"
    first = run_snippet(tmp_path, snippet)
    second = run_snippet(tmp_path, snippet)
    assert (first.cached, second.cached) == (False, True)
    assert second.output == first.output and second.figure == first.figure
    path = tmp_path / snippet
    path.write_text(path.read_text().replace('print("Overflow threshold', 'print("The overflow threshold'))
    third = run_snippet(tmp_path, snippet)
    assert third.cached is False and third.output.startswith("The overflow threshold")
    assert len(list((tmp_path / ".trainwreck-cache").glob("wr020_float_overflow-*.json"))) == 1


def test_a_crashing_snippet_stops_the_build_in_one_line(tmp_path):
    stderr, _ = failing_build(tmp_path, "snippets/wr020_float_overflow.py", "def main():\n", "def main():\n    1 / 0\n")
    assert "snippets/wr020_float_overflow.py: running it failed: ZeroDivisionError: division by zero" in stderr


def test_show_prints_the_real_output_and_a_sparkline():
    result = subprocess.run([sys.executable, "-m", "trainwreck", "show", "WR-220"], cwd=ROOT,
                            capture_output=True, text=True)
    assert result.returncode == 0
    assert student_run("snippets/wr220_lr_explosion.py").rstrip("\n") in result.stdout
    wr220 = load_snippet("wr220_lr_explosion")
    import numpy as np
    with np.errstate(all="ignore"):
        loss = wr220.train(10.0, epochs=12)["loss"]
    assert f"loss per epoch at lr 10: {sparkline(loss)}\n" in result.stdout
    no_run = subprocess.run([sys.executable, "-m", "trainwreck", "show", "WR-220", "--no-run"], cwd=ROOT,
                            capture_output=True, text=True)
    assert "prints — captured" not in no_run.stdout


def test_sparkline_shapes():
    assert sparkline([1, 2, 3, 4, 5, 6, 7, 8]) == "▁▂▃▄▅▆▇█"
    assert sparkline([0.7, 1.0, 1.8, 4.9, 14.9, 41.9, float("inf"), float("nan")]) == "▁▂▃▄▆█↑·"
    assert sparkline([]) == ""
    assert sparkline([2.0, 2.0]) == "▁▁"


def test_a_figure_that_cannot_be_drawn_stops_the_build_in_one_line(tmp_path):
    stderr, _ = failing_build(tmp_path, "snippets/wr020_float_overflow.py",
                              '"series": series, "vlines": vlines,', '"vlines": vlines,')
    assert "snippets/wr020_float_overflow.py: figure_data() could not be drawn: KeyError: 'series'" in stderr
