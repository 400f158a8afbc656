"""Issue 16 (points 2, 4, 5, 9, 10, 11, 18) and issue 15 (6, 9): the command line under hostile input.

Each case: the input, the command (run in-process through trainwreck.cli.main),
and the one line it must print or the answer it must give.
"""
from __future__ import annotations

import ast
import json
import shutil
from pathlib import Path

import pytest
import yaml

from conftest import ROOT
from hostile_project import run_cli
from trainwreck.includes import IncludeRefused
from trainwreck.snippet_sections import expand_includes

ESC = "\x1b"


@pytest.fixture
def project(tmp_path, monkeypatch):
    for name in ("catalog", "snippets"):
        shutil.copytree(ROOT / name, tmp_path / name)
    (tmp_path / "tests").mkdir()
    monkeypatch.chdir(tmp_path)
    return tmp_path


# --- issue 15.9: a bare command prints its help

def test_bare_command_prints_help_and_succeeds(capsys):
    code, out, err = run_cli(capsys)
    assert (code, err) == (0, "")
    assert out.startswith("usage: trainwreck ") and "show" in out and "diagnose" in out


# --- issue 15.6: answers only when asked, never in the student edition

@pytest.fixture
def real(monkeypatch):
    monkeypatch.chdir(ROOT)
    monkeypatch.delenv("TRAINWRECK_EDITION", raising=False)


def test_show_hides_the_answers_unless_asked(real, capsys):
    code, out, err = run_cli(capsys, "show", "WR-220", "--no-run")
    assert (code, err) == (0, "")
    assert "## Interview question" in out and "### Strong answer" not in out and "### Bonus point" not in out
    assert out.rstrip().endswith("(The strong answer and the bonus point are hidden: add --answers to show them.)")
    code, out, err = run_cli(capsys, "show", "WR-220", "--no-run", "--answers")
    assert (code, err) == (0, "")
    assert "### Strong answer" in out and "### Bonus point" in out and "add --answers" not in out


def test_student_edition_never_shows_the_answers(real, capsys, monkeypatch):
    monkeypatch.setenv("TRAINWRECK_EDITION", "student")
    code, out, err = run_cli(capsys, "show", "WR-220", "--no-run", "--answers")
    assert code == 0
    assert err == "trainwreck: TRAINWRECK_EDITION=student: the strong answer and the bonus point are left out\n"
    assert "### Strong answer" not in out and "--answers" not in out


def test_unknown_edition_is_one_line(real, capsys, monkeypatch):
    monkeypatch.setenv("TRAINWRECK_EDITION", "teacher")
    code, out, err = run_cli(capsys, "show", "WR-220", "--no-run")
    assert (code, out) == (1, "")
    assert err == "trainwreck: TRAINWRECK_EDITION: 'teacher' is not one of full, student\n"


# --- 4: nothing printed carries an escape sequence

def test_show_strips_escapes_from_what_a_snippet_prints(project, capsys):
    snippet = project / "snippets" / "wr030_log_of_zero.py"
    text = snippet.read_text()
    assert "# --8<-- [end:fix]" in text, "fixture drift"
    snippet.write_text(text.replace("# --8<-- [end:fix]", f'if __name__ == "__main__":\n'
                                    f'    print("{ESC}[2J{ESC}]0;PWNED\\a after")\n# --8<-- [end:fix]'))
    code, out, err = run_cli(capsys, "show", "WR-030")
    assert (code, err) == (0, "")
    assert ESC not in out and "\a" not in out and "PWNED" not in out
    assert "\n after\n" in out


def test_an_unknown_id_with_escapes_is_shown_without_them(real, capsys):
    code, out, err = run_cli(capsys, "show", f"WR-9{ESC}]0;PWNED\a")
    assert code == 1 and ESC not in err and "\a" not in err
    assert err.startswith("trainwreck: unknown entry WR-9; known: WR-020")


# --- 2: show expands includes under the one rule

@pytest.mark.parametrize("line, message", [
    ('--8<-- "../../../../../../../../../../../../etc/passwd"', "'../../../../../../../../../../../../etc/passwd' leads outside the project's snippets/ folder "
                                        "(it resolves to /etc/passwd)"),
    ('--8<-- "snippets/notes.txt"', "'snippets/notes.txt' leads outside the project's snippets/ folder "
                                    "(it resolves to /etc/passwd)"),
    ('--8<-- "/etc/passwd"', "'/etc/passwd' is an absolute path: name a file in snippets/ relative to the project"),
])
def test_expand_includes_refuses_what_check_refuses(project, line, message):
    (project / "snippets" / "notes.txt").symlink_to("/etc/passwd")
    with pytest.raises(IncludeRefused) as refused:
        expand_includes(f"before\n{line}\nafter", project)
    assert str(refused.value) == message


def test_expand_includes_keeps_a_good_include(project):
    text = expand_includes('```python\n    --8<-- "snippets/wr030_log_of_zero.py:fix"\n```', project)
    assert "def " in text and "--8<--" not in text


# --- 5: export --base-url

@pytest.mark.parametrize("base_url, message", [
    ("javascript:alert(1)", "must be http or https with a host, not javascript:"),
    ("data:text/html,x", "must be http or https with a host, not data:"),
    ("https://example.org/a b", "must not contain spaces or control characters"),
    ("https://example.org/x\n", "must not contain spaces or control characters"),
    ("example.org/trainwreck", "looks like a host name without a scheme: write https://example.org/trainwreck "
                               "(or ./example.org/trainwreck for a relative path)"),
    ("//evil.example/x", "names a host without a scheme: write https://evil.example/x"),
    ("https://example.org/x?q#frag", "must not have a query (?) or a fragment (#)"),
    ("https://user:secret@example.org", "must not hold a user name or password"),
    ("https:///no-host", "must be http or https with a host, not https:"),
])
def test_export_refuses_a_bad_base_url_in_one_line(real, capsys, base_url, message):
    code, out, err = run_cli(capsys, "export", "--base-url", base_url)
    assert (code, out) == (1, "")
    assert err.count("\n") == 1 and err.startswith("trainwreck: --base-url ") and message in err, err


@pytest.mark.parametrize("base_url, url", [
    ("https://Example.org/trainwreck/", "https://example.org/trainwreck/WR-220/"),
    ("https://example.org", "https://example.org/WR-220/"),
    ("https://example.org/a/../b/./c//", "https://example.org/b/c/WR-220/"),
    ("/trainwreck/", "/trainwreck/WR-220/"),
    ("/", "/WR-220/"),
    ("course/site", "course/site/WR-220/"),
    ("", "WR-220/"),
])
def test_export_normalises_a_good_base_url(real, capsys, base_url, url):
    code, out, err = run_cli(capsys, "export", "--base-url", base_url)
    assert (code, err) == (0, "")
    entry = next(e for e in json.loads(out)["entries"] if e["id"] == "WR-220")
    assert entry["url"] == url


# --- 9, 10, 11, 18: trainwreck new

def front_matter(path: Path) -> dict:
    return yaml.safe_load(path.read_text().split("\n---\n")[0][len("---\n"):])


@pytest.mark.parametrize("title", ['He said "hi"', "back\\slash \\n not a newline", '"""', "'", "a: b # c",
                                   "{ [ * & ! | > %", "yes", "1.0"])
def test_new_writes_any_title_as_valid_yaml_and_python(project, capsys, title):
    code, out, err = run_cli(capsys, "new", "WR-321", "quoting", "--title", title, "--module", "2.2")
    assert (code, err) == (0, ""), err
    assert front_matter(project / "catalog" / "WR-321.md")["title"] == title
    docstring = ast.get_docstring(ast.parse((project / "snippets" / "wr321_quoting.py").read_text()))
    assert docstring.startswith(f"WR-321: {title}\n")
    # the scaffold fails check only for its placeholders, never for its YAML
    code, _, err = run_cli(capsys, "check")
    assert "yaml" not in err and "title" not in err, err


@pytest.mark.parametrize("args, message", [
    (["WR-998\n", "x"], "'WR-998\\n' is not an ID of the form WR-NNN"),
    (["WR-\u0663\u0662\u0660", "x"], "'WR-\u0663\u0662\u0660' is not an ID of the form WR-NNN"),
    (["WR-998", "x\n"], "'x\\n' is not a slug: lower-case letters, digits and _"),
    (["WR-998", "\u0663x"], "'\u0663x' is not a slug: lower-case letters, digits and _"),
    (["WR-998", "s" * 300], "the slug is 300 characters long; keep it to 40 (it names two files)"),
    (["WR-998", "ok", "--title", f"bad {ESC}[2J title"],
     "the title must be one line of 1 to 120 characters, without control characters"),
])
def test_new_refuses_in_one_line_and_writes_nothing(project, capsys, args, message):
    before = sorted(p for p in project.rglob("*"))
    if "--title" not in args:
        args = [*args, "--title", "T"]
    code, out, err = run_cli(capsys, "new", *args)
    assert (code, out) == (1, "")
    assert err == f"trainwreck: {message}\n"
    assert sorted(p for p in project.rglob("*")) == before


def test_new_from_inside_the_catalogue_writes_beside_it(project, capsys, monkeypatch):
    """Point 11: `--catalog .` run in catalog/ once made catalog/snippets/ and catalog/tests/."""
    monkeypatch.chdir(project / "catalog")
    code, out, err = run_cli(capsys, "new", "WR-322", "inside", "--title", "T", "--catalog", ".")
    assert (code, err) == (0, ""), err
    assert (project / "catalog" / "WR-322.md").is_file()
    assert (project / "snippets" / "wr322_inside.py").is_file()
    assert (project / "tests" / "test_wr322_inside.py").is_file()
    assert not (project / "catalog" / "snippets").exists() and not (project / "catalog" / "tests").exists()


def test_new_when_tests_is_a_file_writes_nothing(project, capsys):
    """Point 11: all three files or none."""
    (project / "tests").rmdir()
    (project / "tests").write_text("not a folder\n")
    code, out, err = run_cli(capsys, "new", "WR-323", "blocked", "--title", "T")
    assert (code, out) == (1, "")
    assert err == f"trainwreck: not a folder: {project.resolve() / 'tests'}\n"
    assert not (project / "catalog" / "WR-323.md").exists()
    assert not (project / "snippets" / "wr323_blocked.py").exists()


def test_new_outside_a_project_is_one_line(tmp_path, capsys, monkeypatch):
    (tmp_path / "catalog").mkdir()
    shutil.copy(ROOT / "catalog" / "modules.yml", tmp_path / "catalog")
    monkeypatch.chdir(tmp_path)
    code, out, err = run_cli(capsys, "new", "WR-324", "lonely", "--title", "T")
    assert (code, out) == (1, "")
    assert err.startswith("trainwreck: catalog: catalogue: not inside a project: ") and err.count("\n") == 1
    assert not (tmp_path / "catalog" / "WR-324.md").exists()
