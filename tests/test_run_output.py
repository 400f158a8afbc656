"""The snippet runner: pictures and printed output on the pages come from real runs, and a snippet
that misbehaves (exits, writes to the descriptors, loops, floods, breaks its figure) gets one clear
line naming it, never a traceback or a corrupted page."""
import json
import subprocess
import sys
import tempfile
import textwrap
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from conftest import ROOT, built_page, failing_build, load_snippet, program_run, real_catalog
from trainwreck.charts import THEMES, picture_name
from trainwreck.snippet_run import CACHE_DIR, Limits, SnippetRunError, run_snippet
from trainwreck.snippet_sections import tab_program
from trainwreck.sparkline import sparkline

CATALOG = real_catalog()

FIGURE = '''
def figure_data():
    return {"alt": "A line that rises from 1 to 3 over three steps, drawn for the runner's tests.",
            "caption": "A test figure.",
            "panels": [{"title": "rise", "xlabel": "step", "ylabel": "value",
                        "series": [{"label": "value", "x": [0, 1, 2], "y": [1.0, 2.0, 3.0]}]}]}
'''


def snippet(tmp_path, reproduce: str, fix: str = 'print("fixed")', extra: str = FIGURE, setup: str = "import sys"):
    """A small snippet in the contract's shape, written into a project folder of its own."""
    def region(name, body):
        main = "" if name == "setup" else 'if __name__ == "__main__":\n'
        code = textwrap.indent(textwrap.dedent(body).strip("\n"), "    " if main else "")
        return f"# --8<-- [start:{name}]\n{main}{code}\n# --8<-- [end:{name}]\n\n\n"

    (tmp_path / "snippets").mkdir(exist_ok=True)
    path = tmp_path / "snippets" / "wr999_test.py"
    path.write_text(region("setup", setup) + region("reproduce", reproduce) + region("fix", fix) + extra)
    return "snippets/wr999_test.py"


def run(tmp_path, reproduce, limits=Limits(), **kwargs):
    return run_snippet(tmp_path, snippet(tmp_path, reproduce, **kwargs), use_cache=False, draw=False, limits=limits)


def failure(tmp_path, reproduce, **kwargs) -> str:
    with pytest.raises(SnippetRunError) as caught:
        run(tmp_path, reproduce, **kwargs)
    message = str(caught.value)
    assert "\n" not in message and "Traceback" not in message
    assert message.startswith("snippets/wr999_test.py: ")
    return message


def test_each_program_prints_what_running_it_alone_prints(tmp_path):
    result = run(tmp_path, """
        import os, warnings
        print("one")
        warnings.warn("a warning a reader sees", RuntimeWarning)
        sys.stdout.flush()
        os.write(1, b"straight to descriptor 1\\n")
        print("two")
    """)
    shown = result.outputs["wr999_test_reproduce.py"]
    assert shown == (
        "one\nwr999_test_reproduce.py:7: RuntimeWarning: a warning a reader sees\n"
        '  warnings.warn("a warning a reader sees", RuntimeWarning)\n'
        "straight to descriptor 1\ntwo\n")
    text = (tmp_path / "snippets" / "wr999_test.py").read_text()
    assert shown == program_run(tab_program(text, "reproduce"), "wr999_test_reproduce.py").stdout
    assert result.outputs["wr999_test_fix.py"] == "fixed\n"


def test_sys_exit_zero_at_the_end_of_a_program_keeps_its_output(tmp_path):
    result = run(tmp_path, 'print("done")\nsys.exit(0)', fix='print("fixed")\nsys.exit()')
    assert result.outputs == {"wr999_test_reproduce.py": "done\n", "wr999_test_fix.py": "fixed\n"}


def test_a_nonzero_exit_is_reported_with_the_program_and_status(tmp_path):
    message = failure(tmp_path, 'print("about to give up")\nsys.exit(3)')
    assert message == ("snippets/wr999_test.py: the Reproduce program (wr999_test_reproduce.py) exited with "
                       "status 3; its last line: about to give up")


def test_an_exception_is_reported_in_one_line(tmp_path):
    message = failure(tmp_path, "1 / 0")
    assert message == ("snippets/wr999_test.py: the Reproduce program (wr999_test_reproduce.py) "
                       "ZeroDivisionError: division by zero")


def test_a_program_that_ends_the_process_is_reported(tmp_path):
    message = failure(tmp_path, "import os\nos._exit(4)")
    assert "the Reproduce program (wr999_test_reproduce.py) ended the process with status 4" in message


def test_a_program_that_loops_is_stopped_at_its_cpu_limit(tmp_path):
    message = failure(tmp_path, "while True:\n    pass", limits=Limits(cpu_seconds=1))
    assert message == ("snippets/wr999_test.py: the Reproduce program (wr999_test_reproduce.py) ran past the "
                       "limit of 1 s of CPU time and was stopped (a snippet runs in under a second)")


def test_a_program_that_waits_is_stopped_at_its_wall_limit(tmp_path):
    message = failure(tmp_path, "import time\ntime.sleep(60)", limits=Limits(wall_seconds=0.5))
    assert "the Reproduce program (wr999_test_reproduce.py) ran past the limit of 0.5 s and was stopped" in message


def test_output_past_the_cap_fails_in_one_line_without_reading_it_all(tmp_path):
    message = failure(tmp_path, 'for _ in range(10_000):\n    print("x" * 99)', limits=Limits(output_bytes=50_000))
    assert message == ("snippets/wr999_test.py: the Reproduce program (wr999_test_reproduce.py) printed more "
                       "than the 50 kB a page shows")


@pytest.fixture(autouse=True)
def scratch_root(tmp_path, monkeypatch):
    """Every run of this module's tests, finished, failed or stopped at a limit, must leave the temp folder as it found
    it: a child stopped at a limit, or killed once the runner has read its last message, cannot clean up after itself
    (every finished build used to leave a folder per snippet in the temp folder)."""
    import multiprocessing.util

    multiprocessing.util.get_temp_dir()       # (multiprocessing's own folder, for the fork server's socket: kept where it is)
    root = tmp_path / "tmp"
    root.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(root))
    yield root
    assert list(root.iterdir()) == []


def test_a_program_runs_in_a_scratch_folder_the_runner_makes(tmp_path, scratch_root):
    where = tmp_path / "cwd.txt"
    run(tmp_path, f"import os\nopen({str(where)!r}, 'w').write(os.getcwd())")
    assert Path(where.read_text()).is_relative_to(scratch_root)


@pytest.mark.parametrize("figure, problem", [
    ('def figure_data():\n    return {"caption": "c", "panels": []}',
     "figure_data() has no 'alt' (it needs 'alt', 'caption', 'panels')"),
    ('def figure_data():\n    return {"alt": "a", "caption": "c", "panels": [{"title": "t"}]}',
     "figure_data()['panels'][0] has no 'xlabel' (it needs 'title', 'xlabel', 'ylabel', 'series')"),
    ('def figure_data():\n    return [1, 2]', "figure_data() must return a dict, not list"),
    ('def figure_data():\n    return {}["alt"]', "figure_data() failed: KeyError: 'alt'"),
])
def test_a_figure_without_what_it_needs_is_one_clear_line(tmp_path, figure, problem):
    assert failure(tmp_path, 'print("ok")', extra=figure) == f"snippets/wr999_test.py: {problem}"


def test_results_are_cached_by_content_and_an_unreadable_entry_is_a_miss(tmp_path):
    path = snippet(tmp_path, 'print("first")')
    first = run_snippet(tmp_path, path)
    second = run_snippet(tmp_path, path)
    assert (first.cached, second.cached) == (False, True)
    assert second.outputs == first.outputs and second.figure == first.figure
    cache = tmp_path / CACHE_DIR
    [entry] = cache.glob("wr999_test-*.json")
    assert not list(cache.glob(".writing-*")), "the temporary file of an atomic write was left behind"
    entry.write_text(entry.read_text()[:40])          # a build killed mid-write, before writes were atomic
    third = run_snippet(tmp_path, path)
    assert third.cached is False and third.outputs == first.outputs
    assert json.loads(entry.read_text())["outputs"] == first.outputs   # rewritten whole
    snippet(tmp_path, 'print("second")')
    changed = run_snippet(tmp_path, path)
    assert changed.cached is False and changed.outputs["wr999_test_reproduce.py"] == "second\n"


def test_snippets_run_with_one_blas_thread(tmp_path):
    result = run(tmp_path, 'import os\nprint(os.environ.get("OPENBLAS_NUM_THREADS"), os.environ.get("OMP_NUM_THREADS"))')
    assert result.outputs["wr999_test_reproduce.py"] == "1 1\n"


def test_a_broken_snippet_stops_the_build_in_one_line(tmp_path, site):
    # after the shared build (`site`), whose cache holds every other snippet's results
    stderr, _ = failing_build(tmp_path, "snippets/wr020_float_overflow.py", "def figure_data():\n",
                              "def figure_data():\n    1 / 0\n")
    assert "snippets/wr020_float_overflow.py: figure_data() failed: ZeroDivisionError: division by zero" in stderr


@pytest.mark.parametrize("entry_id", sorted(CATALOG.entries))
def test_page_has_every_panel_in_light_and_dark_with_alt_text(site, entry_id):
    entry = CATALOG.entries[entry_id]
    page = built_page(site / entry_id / "index.html")
    # the figure data of the run the site build made (its cache is keyed by the snippet's content)
    figure = run_snippet(ROOT, entry.snippet, draw=True).figure
    images = {img.attributes["src"].split("/")[-1]: img.attributes for img in page.css(".tw-figures img.tw-figure")}
    expected = {f"{entry_id}-{picture_name(i, theme)}.svg#only-{theme}"
                for i in range(len(figure["panels"])) for theme in THEMES}
    assert set(images) == expected
    for name, img in images.items():
        panel = int(name.split("-")[2]) - 1
        assert img["alt"] == (figure["alt"] if panel == 0 else
                              f"Panel {panel + 1} of the figure described above: {figure['panels'][panel]['title']}")
        svg = site / entry_id / img["src"].split("#")[0]
        assert ET.parse(svg).getroot().tag.endswith("svg")
        text = svg.read_text()
        theme = name.split("#only-")[1]
        assert THEMES[theme]["fg"] in text and THEMES["dark" if theme == "light" else "light"]["fg"] not in text
        assert figure["panels"][panel]["title"] in text   # text stays text: searchable and crisp


def test_figure_data_matches_the_runs():
    wr220 = load_snippet("wr220_lr_explosion")
    data = wr220.figure_data()
    series = {s["label"]: s["y"] for s in data["panels"][0]["series"]}
    assert series["loss from the logits"] == wr220.train(10.0, epochs=40, from_logits=True)["loss"]
    assert "inf at epoch 6" in data["panels"][0]["vlines"][0]["label"]
    wr020 = load_snippet("wr020_float_overflow")
    lines = [v["x"] for v in wr020.figure_data()["panels"][0]["vlines"]]
    assert lines == [float(wr020.overflow_threshold(d)) for d in wr020.DTYPES]


def test_show_prints_each_program_output_and_a_sparkline():
    result = subprocess.run([sys.executable, "-m", "trainwreck", "show", "WR-220"], cwd=ROOT,
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    runs = run_snippet(ROOT, "snippets/wr220_lr_explosion.py")
    for output in runs.outputs.values():
        assert output.rstrip("\n") in result.stdout
    assert f"{runs.figure['sparkline']['label']}: {sparkline(runs.figure['sparkline']['values'])}\n" in result.stdout


def test_sparkline_shapes():
    assert sparkline([1, 2, 3, 4, 5, 6, 7, 8]) == "▁▂▃▄▅▆▇█"
    assert sparkline([0.7, 1.0, 1.8, 4.9, 14.9, 41.9, float("inf"), float("nan")]) == "▁▂▃▄▆█↑·"
    assert sparkline([]) == ""
    assert sparkline([2.0, 2.0]) == "▁▁"
