"""The validator: passes the real catalogue, names every defect of a broken copy."""
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import ROOT
from trainwreck.validate import check

ENTRY = "catalog/WR-220.md"


# file:line -> file: these tests say which problems a broken copy of the real catalogue has; where
# they are is held to a catalogue that does not change, in test_hostile_catalog
LINE_NUMBER = re.compile(r"^([^:\n]+):[0-9]+:", re.M)


def run_check(project: Path, *args):
    """`trainwreck check` run from the project folder, in this process (the command line itself,
    in a process of its own, is test_cli_check_passes_on_the_real_catalogue's)."""
    import contextlib
    import io

    from trainwreck.cli import main

    out, err, here = io.StringIO(), io.StringIO(), os.getcwd()
    try:
        os.chdir(project)
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main(["check", *args])
    finally:
        os.chdir(here)
    return subprocess.CompletedProcess(["trainwreck", "check", *args], code, out.getvalue(),
                                       LINE_NUMBER.sub(r"\1:", err.getvalue()))


@pytest.fixture
def project(tmp_path):
    """A throwaway copy of the catalogue and its snippets to break."""
    for name in ("catalog", "snippets"):
        shutil.copytree(ROOT / name, tmp_path / name)
    return tmp_path


def edit(path: Path, old: str, new: str, count: int = 1):
    text = path.read_text()
    assert old in text, f"fixture drift: {old!r} not in {path}"
    path.write_text(text.replace(old, new, count))


def test_real_catalogue_passes():
    catalog, problems = check(ROOT / "catalog")
    assert problems == []
    assert "WR-220" in catalog.entries


def test_cli_check_passes_on_the_real_catalogue():
    result = subprocess.run([sys.executable, "-m", "trainwreck", "check"], cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    catalog, _ = check(ROOT / "catalog")
    assert result.stdout == f"catalog: {len(catalog.entries)} entries, {len(catalog.planned)} planned: OK\n"


def test_broken_copy_reports_every_problem_once_each(project):
    entry = project / ENTRY
    # a duplicate ID under another file name
    shutil.copy(entry, project / "catalog" / "WR-221.md")
    # unknown module, dangling related ID, missing section, missing snippet section
    edit(entry, 'modules: ["2.2", "2.3", "2.4"]', 'modules: ["2.2", "2.3", "2.4", "9.9"]')
    edit(entry, "{id: WR-020, nature: leads-to}", "{id: WR-404, nature: leads-to}")
    edit(entry, "## Prevent it\n", "## Prevention\n")
    edit(entry, "loss_watch.py:watch", "loss_watch.py:watcher")
    edit(project / "snippets" / "wr220_lr_explosion.py", "[start:fix]", "[start:repair]")
    edit(project / "snippets" / "wr220_lr_explosion.py", "[end:fix]", "[end:repair]")
    # bad YAML in another entry
    (project / "catalog" / "WR-300.md").write_text("---\nid: WR-300\ntitle: [unclosed\n---\n\n## Symptom\n")

    result = run_check(project)
    lines = result.stderr.strip().splitlines()
    assert result.returncode == 1
    assert "Traceback" not in result.stderr
    expected = [
        "catalog/WR-220.md: modules: unknown module '9.9' (not in modules.yml)",
        "catalog/WR-220.md: related: WR-404 does not exist and is not declared in planned.yml",
        "catalog/WR-220.md: sections: missing: Prevent it",
        "catalog/WR-220.md: sections: unexpected: Prevention",
        "catalog/WR-220.md: include: snippets/loss_watch.py has no section [start:watcher] ... [end:watcher]",
        "catalog/WR-220.md: snippet: snippets/wr220_lr_explosion.py has no region [start:fix] ... [end:fix] "
        "(the page's Fix tab)",
        "catalog/WR-221.md: id: duplicate ID WR-220, also used by catalog/WR-220.md",
    ]
    for line in expected:
        assert line in lines, f"missing {line!r} in:\n{result.stderr}"
    yaml_lines = [l for l in lines if l.startswith("catalog/WR-300.md: yaml: not valid YAML")]
    assert len(yaml_lines) == 1, result.stderr
    assert lines[-1] == f"{len(lines) - 1} problem(s) in catalog"
    assert len(lines) - 1 == len(expected) + 1


@pytest.mark.parametrize(
    "old, new, line",
    [
        ("id: WR-220", "id: WR-22", "catalog/WR-220.md: id: 'WR-22' is not of the form WR-NNN"),
        ("id: WR-220", "id: WR-222", "catalog/WR-220.md: id: WR-222 does not match the file name WR-220.md"),
        ("status: stable", "status: done", "catalog/WR-220.md: status: 'done' is not one of draft, stable, retired"),
        ("status: stable\n", "", "catalog/WR-220.md: status: required field missing"),
        ("snippet: snippets/wr220_lr_explosion.py",
         "snippet: snippets/wr220_missing.py",
         "catalog/WR-220.md: snippet: 'snippets/wr220_missing.py' does not exist"),
        ("nature: cousin", "nature: sibling",
         "catalog/WR-220.md: related: WR-120: unknown nature 'sibling' (one of cousin, leads-to, follows-from, see-also)"),
        ("trace: climb-then-nonfinite", "trace: wobble",
         "catalog/WR-220.md: symptoms.trace: unknown signature 'wobble' "
         "(one of climb-then-nonfinite, nonfinite-from-start, descent-then-nonfinite, spike-then-recover, "
         "climb-despite-clipping, descent-then-climb, plateau-from-start, stall-after-drop, none)"),
        ("trace: climb-then-nonfinite", "trace: climb-then-nonfinite\n  also_trace: climb-then-nonfinite",
         "catalog/WR-220.md: symptoms.also_trace: 'climb-then-nonfinite' is not a second signature: one of "
         "nonfinite-from-start, descent-then-nonfinite, spike-then-recover, climb-despite-clipping, "
         "descent-then-climb, plateau-from-start, stall-after-drop"),
        ("### Bonus point\n", "",
         "catalog/WR-220.md: sections: Interview question needs a non-empty '### Bonus point'"),
        ("## Fix\n", "## Fix it\n", "catalog/WR-220.md: sections: missing: Fix"),
        ("symptoms:\n", "symptom:\n", "catalog/WR-220.md: symptom: unknown field"),
    ],
)
def test_single_defect_gives_one_clear_line(project, old, new, line):
    edit(project / ENTRY, old, new)
    result = run_check(project)
    assert result.returncode == 1
    assert line in result.stderr.splitlines(), result.stderr
    assert "Traceback" not in result.stderr


def test_sections_out_of_order(project):
    entry = project / ENTRY
    text = entry.read_text()
    fix_start, prevent_start = text.index("## Fix\n"), text.index("## Prevent it\n")
    question_start = text.index("## Interview question\n")
    fix, prevent = text[fix_start:prevent_start], text[prevent_start:question_start]
    entry.write_text(text[:fix_start] + prevent + fix + text[question_start:])
    result = run_check(project)
    assert "catalog/WR-220.md: sections: out of order: expected Symptom / Where it shows up / Why it happens / "\
           "Confirm it / Fix / Prevent it / In PyTorch, Keras/TensorFlow and JAX / Interview question" \
           in result.stderr.splitlines()


def test_planned_and_existing_are_told_apart(project):
    planned = project / "catalog" / "planned.yml"
    roadmap = planned.read_text()          # the real roadmap stays: entries may link to it
    edit(project / ENTRY, "{id: WR-120, nature: cousin}", "{id: WR-999, nature: cousin}")
    # a link to an unwritten entry is fine once it is declared planned
    planned.write_text(roadmap + "WR-999: {title: later, summary: one line}\n")
    assert run_check(project).returncode == 0
    # declaring a written entry as planned is a contradiction
    planned.write_text(roadmap + "WR-999: {title: later, summary: s}\nWR-220: {title: already here, summary: s}\n"
                       "WR-1: {title: x, summary: s}\n")
    result = run_check(project)
    assert {"catalog/planned.yml: WR-220: the entry exists now; remove it from planned.yml",
            "catalog/planned.yml: WR-1: not an ID of the form WR-NNN"} <= set(result.stderr.splitlines())
    # and without the declaration the same link dangles
    planned.write_text(roadmap)
    result = run_check(project)
    assert "catalog/WR-220.md: related: WR-999 does not exist and is not declared in planned.yml" in result.stderr


def test_unknown_module_file_and_orphan_snippet(project):
    (project / "catalog" / "modules.yml").unlink()
    (project / "snippets" / "wr999_orphan.py").write_text("print('hi')\n")
    result = run_check(project)
    assert "catalog/modules.yml: file: missing" in result.stderr
    shutil.copy(ROOT / "catalog" / "modules.yml", project / "catalog" / "modules.yml")
    result = run_check(project)
    assert result.stderr.splitlines()[0] == "snippets/wr999_orphan.py: snippet: not the snippet of any entry"


def test_missing_folder_and_missing_front_matter(project, tmp_path):
    result = run_check(project, "nowhere")
    assert result.returncode == 1
    assert result.stderr.splitlines()[0] == "nowhere: catalogue: no such folder"
    (project / ENTRY).write_text("# just a heading\n")
    result = run_check(project)
    assert "catalog/WR-220.md: front matter: missing: the file must start with a --- YAML block ---" in result.stderr


def test_binary_entry_file(project):
    (project / "catalog" / "WR-500.md").write_bytes(b"\xff\xfe\x00\x00garbage")
    result = run_check(project)
    assert "catalog/WR-500.md: file: is not UTF-8 text (byte 0xff on line 1)" in result.stderr.splitlines()
    assert "Traceback" not in result.stderr


def test_check_takes_another_catalogue_folder(project):
    shutil.move(project / "catalog", project / "course")
    result = run_check(project, "course")
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("course: ") and result.stdout.endswith("planned: OK\n")


NUMPY_SOURCE = "https://github.com/numpy/numpy/blob/v2.4.6/numpy/_core/src/umath/extobj.c#L400"


@pytest.mark.parametrize(
    "source, ok",
    [
        (NUMPY_SOURCE, True),
        ("https://github.com/pytorch/pytorch/blob/v2.5.1/torch/csrc/autograd/engine.cpp#L1", True),
        ("https://github.com/NVIDIA/apex/blob/" + "a" * 40 + "/apex/amp/scaler.py#L1", True),
        ("https://docs.nvidia.com/cuda/archive/12.4.0/cuda-runtime-api/group__CUDART__TYPES.html", True),
        ("https://github.com/numpy/numpy/blob/main/numpy/_core/src/umath/extobj.c#L400", False),
        ("https://github.com/keras-team/keras/blob/master/keras/src/callbacks/terminate_on_nan.py", False),
        ("https://pytorch.org/docs/stable/autograd.html", False),
        ("http://github.com/numpy/numpy/blob/v2.4.6/x.c", False),
    ],
)
def test_a_message_source_must_be_pinned(project, source, ok):
    edit(project / ENTRY, NUMPY_SOURCE, source)
    result = run_check(project)
    line = ("catalog/WR-220.md: symptoms.messages[0]: source: must be a URL pinned to a release or a commit "
            "(a GitHub file at a tag, or a versioned documentation page), not a moving branch")
    assert (line in result.stderr.splitlines()) is not ok, result.stderr


FRAMEWORK_PART = """
## In PyTorch, Keras/TensorFlow and JAX

### PyTorch

**What you see:** `Function 'LogBackward0' returned nan values in its 0th output.` once anomaly mode is on.

**Confirm it:** `torch.autograd.set_detect_anomaly(True)`.

**The fix:** `BCEWithLogitsLoss`.

### Keras / TensorFlow

**What you see:** nothing printed; the loss reads nan.

**Confirm it:** `tf.debugging.enable_check_numerics()`.

**The fix:** `from_logits=True`.

### JAX

**What you see:** `{quote}`

**Confirm it:** `jax.config.update("jax_debug_nans", True)`.

**The fix:** `optax.sigmoid_binary_cross_entropy`.

"""
ANOMALY = ('    - {text: "Function \'{}\' returned nan values in its {}th output.", '
           'example: "Function \'LogBackward0\' returned nan values in its 0th output.", from: pytorch, '
           'source: "https://github.com/pytorch/pytorch/blob/v2.5.1/torch/csrc/autograd/python_anomaly_mode.cpp#L1"}\n')


def without_framework_part(entry: Path) -> int:
    """Remove an entry's own framework section and the framework messages it declares (each a
    one-line mapping or a block of indented lines); returns how many messages are left."""
    import re

    text = entry.read_text()
    start, end = text.find("## In PyTorch, Keras/TensorFlow and JAX\n"), text.index("## Interview question\n")
    if start >= 0:
        text = text[:start] + text[end:]
    block = re.compile(r"^    - (?:\{[^\n]*\}|text:[^\n]*(?:\n      [^\n]*)*)\n", re.M)
    text = block.sub(lambda m: m[0] if "from: numpy" in m[0] else "", text)
    entry.write_text(text)
    return len(block.findall(text))


def add_framework_part(project, quote="FloatingPointError: invalid value (nan) encountered in log"):
    entry = project / ENTRY
    kept = without_framework_part(entry)
    edit(entry, "## Interview question\n", FRAMEWORK_PART.format(quote=quote).lstrip("\n") + "## Interview question\n")
    edit(entry, "  trace: climb-then-nonfinite", ANOMALY + "  trace: climb-then-nonfinite")
    return kept


def test_framework_part_quotes_only_declared_messages(project):
    add_framework_part(project)
    result = run_check(project)
    assert result.returncode == 1
    assert result.stderr.splitlines()[:-1] == [
        "catalog/WR-220.md: symptoms.messages: In PyTorch, Keras/TensorFlow and JAX quotes `FloatingPointError: "
        "invalid value (nan) encountered in log` after \"What you see:\" but does not declare it (declare it with "
        "its pinned source, or quote it elsewhere)"]


def test_a_declared_framework_message_is_cited_on_the_page_and_matched_by_its_template(project):
    add_framework_part(project, quote="Function 'MulBackward0' returned nan values in its 1th output.")
    assert run_check(project).returncode == 0
    from trainwreck.catalog import load
    from trainwreck.pages import cite_messages

    entry = load(project / "catalog").entries["WR-220"]
    page = cite_messages(entry.body, entry)
    cited = "([PyTorch source](https://github.com/pytorch/pytorch/blob/v2.5.1/torch/csrc/autograd/python_anomaly_mode.cpp#L1))"
    assert page.count(cited) == 2      # the example quote and the filled-in one, both in What you see
    assert "`torch.autograd.set_detect_anomaly(True)` (" not in page


@pytest.mark.parametrize(
    "old, new, line",
    [
        ("### Keras / TensorFlow", "### Keras", "catalog/WR-220.md: sections: In PyTorch, Keras/TensorFlow and JAX "
         "needs the ### parts PyTorch / Keras / TensorFlow / JAX, in that order (found: PyTorch / Keras / JAX)"),
        ("**The fix:** `from_logits=True`.", "Use `from_logits=True`.",
         "catalog/WR-220.md: sections: In PyTorch, Keras/TensorFlow and JAX, Keras / TensorFlow: needs a paragraph "
         "starting **The fix:**"),
        ("example: \"Function 'LogBackward0'", "example: \"Function LogBackward0",
         "catalog/WR-220.md: symptoms.messages[{kept}]: example: does not match the text (each {{}} stands for one "
         "value)"),
        ("`Function 'LogBackward0' returned nan values in its 0th output.`", "nan values",
         "catalog/WR-220.md: symptoms.messages: the pytorch message `Function 'LogBackward0' returned nan values in "
         "its 0th output.` is declared but not quoted in In PyTorch, Keras/TensorFlow and JAX"),
    ],
)
def test_framework_part_shape(project, old, new, line):
    kept = add_framework_part(project, quote="Function 'MulBackward0' returned nan values in its 1th output."
                              if "quoted" not in line else "FloatingPointError")
    edit(project / ENTRY, old, new)
    result = run_check(project)
    assert line.format(kept=kept) in result.stderr.splitlines(), result.stderr


def test_every_entry_needs_its_framework_part(project):
    without_framework_part(project / ENTRY)
    result = run_check(project)
    assert result.returncode == 1
    assert ("catalog/WR-220.md: sections: missing: In PyTorch, Keras/TensorFlow and JAX"
            in result.stderr.splitlines()), result.stderr


@pytest.mark.parametrize("region", ["reproduce", "fix"])
def test_a_tab_region_that_runs_nothing_is_refused(project, region):
    snippet = project / "snippets" / "wr220_lr_explosion.py"
    text = snippet.read_text()
    start, end = text.index(f"[start:{region}]"), text.index(f"[end:{region}]")
    body = text[start:end]
    assert 'if __name__ == "__main__":' in body, "fixture drift"
    snippet.write_text(text[:start] + body.replace('if __name__ == "__main__":', "if False:") + text[end:])
    result = run_check(project)
    assert result.returncode == 1
    assert (f"catalog/WR-220.md: snippet: snippets/wr220_lr_explosion.py: the {region} region prints nothing when "
            f'run: end it in an `if __name__ == "__main__":` block that prints its story (the page\'s '
            f"{region.title()} tab is a whole program)") in result.stderr.splitlines()


def test_a_message_fix_label_must_name_an_item_of_the_fix_section(project):
    """A declared message's `fix:` names the Fix item for the face it shows; one that names no item is refused in
    one line that says so."""
    edit(project / "catalog" / "WR-060.md", 'fix: "Batch normalisation"', 'fix: "Batch norm stuff"')
    result = run_check(project)
    assert result.returncode == 1
    assert result.stderr.splitlines()[:-1] == [
        "catalog/WR-060.md: symptoms.messages: fix: 'Batch norm stuff' names no item of the Fix section (an item "
        "that opens with **Batch norm stuff:**)"]


@pytest.mark.parametrize(
    "also, line",
    [
        ('["Function MulBackward0 nan"]', "catalog/WR-220.md: symptoms.messages[{kept}]: also: 'Function MulBackward0 "
         "nan' does not match the text (each {{}} stands for one value)"),
        ('["Function \'PowBackward0\' returned nan values in its 0th output."]', "catalog/WR-220.md: "
         "symptoms.messages: also: `Function 'PowBackward0' returned nan values in its 0th output.` is not quoted in "
         "In PyTorch, Keras/TensorFlow and JAX"),
        ('"Function \'MulBackward0\' returned nan values in its 1th output."', "catalog/WR-220.md: "
         "symptoms.messages[{kept}]: must be {{text: ..., from: ..., source: <pinned URL>}} with an optional "
         "example: ..., opt_in: ... and fix: ..., all non-empty text, and also: a list of further instances"),
        ('[]', "catalog/WR-220.md: symptoms.messages[{kept}]: must be {{text: ..., from: ..., source: <pinned URL>}} "
         "with an optional example: ..., opt_in: ... and fix: ..., all non-empty text, and also: a list of further "
         "instances"),
        ('["Function \'MulBackward0\' returned nan values in its 1th output."]', ""),
    ],
)
def test_further_instances_of_a_message_match_its_text_and_are_quoted_on_the_page(project, also, line):
    """`also:` lists further instances a page shows (another op of the same check): each fills the template and is
    quoted in the framework section, or the check says which and where."""
    kept = add_framework_part(project, quote="Function 'MulBackward0' returned nan values in its 1th output.")
    edit(project / ENTRY, "example: \"Function 'LogBackward0' returned nan values in its 0th output.\", ",
         f"example: \"Function 'LogBackward0' returned nan values in its 0th output.\", also: {also}, ")
    result = run_check(project)
    if not line:
        assert result.returncode == 0, result.stderr
        from trainwreck.catalog import load
        (message,) = [m for m in load(project / "catalog").entries["WR-220"].messages if m.also]
        assert message.also == ("Function 'MulBackward0' returned nan values in its 1th output.",)
        return
    assert result.returncode == 1
    assert line.format(kept=kept) in result.stderr.splitlines(), result.stderr


def test_a_module_the_text_names_must_be_among_the_entrys_modules(project):
    """An instructor moves WR-220 out of modules 2.3 and 2.4 (its `modules:` list): its "Where it shows up" still says
    "the optimisers of modules 2.3 and 2.4". `check` names each module the text names that the entry no longer lists,
    on the line of the sentence, until the text is reworded (ux_review_s66: module numbers written into the prose
    would contradict an edited course map without a word)."""
    edit(project / ENTRY, 'modules: ["2.2", "2.3", "2.4"]', 'modules: ["2.2"]')
    result = run_check(project)
    assert result.returncode == 1
    said = [f"catalog/WR-220.md: modules: the text names module {m} (\"modules 2.3 and 2.4\"), which is not among the "
            "entry's modules (2.2): add it there, or reword the text" for m in ("2.3", "2.4")]
    assert result.stderr.splitlines()[:2] == said
    # (on the line of the sentence)
    line = next(n for n, text in enumerate((project / ENTRY).read_text().split("\n"), 1) if "modules 2.3 and 2.4" in text)
    assert [p.line for p in check(project / "catalog")[1]] == [line, line]
    edit(project / ENTRY, "optimisers of modules 2.3 and 2.4 arrive", "optimisers of later modules arrive")
    assert run_check(project).returncode == 0


def test_module_mentions_with_asides_and_sub_numbers(project):
    """WR-070 writes "Modules 0.7 (...) and 2.5 (...)": an aside in brackets after each number still lists both
    (code_review_s66b 3); "module 2.5.1" is no module 2.5 (code_review_s66b 4)."""
    entry = project / "catalog" / "WR-070.md"
    text = entry.read_text()
    assert re.search(r"Modules 0\.7 \((?:[^()]|\([^()]*\))*\)\s+and\s+2\.5", text), "fixture drift: WR-070's modules sentence"
    edit(entry, 'modules: ["0.7", "2.5"]', 'modules: ["0.7"]')
    result = run_check(project)
    assert result.returncode == 1 and "the text names module 2.5" in result.stderr
    entry.write_text(text.replace(re.search(r"Modules 0\.7 \((?:[^()]|\([^()]*\))*\)\s+and\s+2\.5", text).group(0),
                                  "Modules 0.7 and 2.5.1"))
    edit(entry, 'modules: ["0.7", "2.5"]', 'modules: ["0.7"]')
    assert "module 2.5" not in run_check(project).stderr
