"""`trainwreck new`: three files that fail clearly until they are filled in."""
import re
import shutil
import subprocess
import sys

import pytest

from trainwreck.catalog import load
from trainwreck.entry import SECTIONS

from conftest import ROOT


def run(*args, cwd):
    return subprocess.run([sys.executable, "-m", "trainwreck", *args], cwd=cwd, capture_output=True, text=True)


@pytest.fixture
def project(tmp_path):
    for name in ("catalog", "snippets", "tests"):
        shutil.copytree(ROOT / name, tmp_path / name, ignore=shutil.ignore_patterns("__pycache__"))
    return tmp_path


def test_new_writes_entry_snippet_and_test(project):
    result = run("new", "WR-390", "spare_case", "--title", "A bad batch", "--module", "2.2", cwd=project)
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[:3] == [
        "wrote catalog/WR-390.md", "wrote snippets/wr390_spare_case.py", "wrote tests/test_wr390_spare_case.py"]


def test_scaffold_fails_check_until_filled_in(project):
    run("new", "WR-390", "spare_case", "--title", "A bad batch", cwd=project)
    result = run("check", cwd=project)
    assert result.returncode == 1
    # line numbers are checked in test_hostile_catalog; here, which problems
    lines = [re.sub(r"^([^:]+):[0-9]+:", r"\1:", line) for line in result.stderr.splitlines()]
    for section in SECTIONS:
        assert f"catalog/WR-390.md: sections: {section} still holds the scaffold's TODO(scaffold) placeholder" in lines
    assert "catalog/WR-390.md: summary: still the scaffold's TODO(scaffold) placeholder" in lines
    assert ("catalog/WR-390.md: snippet: snippets/wr390_spare_case.py still holds the scaffold's "
            "TODO(scaffold) placeholder") in lines
    # nothing else is wrong with it: the structure is valid
    assert len(lines) == len(SECTIONS) + 3, result.stderr


def test_scaffold_test_fails_with_a_message_saying_what_to_pin(project):
    run("new", "WR-390", "spare_case", "--title", "A bad batch", cwd=project)
    result = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                             "tests/test_wr390_spare_case.py"], cwd=project, capture_output=True, text=True)
    assert result.returncode == 1
    assert "3 failed" in result.stdout
    assert "WR-390: pin the symptom" in result.stdout


def test_scaffolded_snippet_runs_and_says_it_is_unfinished(project):
    run("new", "WR-390", "spare_case", "--title", "A bad batch", cwd=project)
    result = subprocess.run([sys.executable, "snippets/wr390_spare_case.py"], cwd=project,
                            capture_output=True, text=True)
    assert result.returncode == 1
    assert "NotImplementedError: TODO(scaffold): reproduce the symptom" in result.stderr


@pytest.mark.parametrize("args, message", [
    (["WR-220", "again"], "trainwreck: WR-220 exists already"),
    (["WR-31", "x"], "trainwreck: 'WR-31' is not an ID of the form WR-NNN"),
    (["WR-311", "Bad-Slug"], "trainwreck: 'Bad-Slug' is not a slug: lower-case letters, digits and _"),
    (["WR-311", "x", "--module", "9.9"], "trainwreck: unknown module '9.9'; known: " + ", ".join(load(ROOT / "catalog").modules)),
])
def test_new_refuses_in_one_line(project, args, message):
    result = run("new", *args, "--title", "T", cwd=project)
    assert result.returncode == 1
    assert result.stderr == message + "\n"


def test_new_does_not_overwrite(project):
    (project / "snippets" / "wr311_x.py").write_text("# mine\n")
    result = run("new", "WR-311", "x", "--title", "T", cwd=project)
    assert result.returncode == 1
    assert result.stderr.startswith("trainwreck: already exists: ")
    assert (project / "snippets" / "wr311_x.py").read_text() == "# mine\n"
    assert not (project / "catalog" / "WR-311.md").exists()
