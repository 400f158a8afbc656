"""The installed `trainwreck` command, run the way a user runs it."""
import re
import shutil
import subprocess
import sys
from pathlib import Path


from conftest import ROOT
from trainwreck.snippet_sections import sections_of
from trainwreck.cli import main
from trainwreck.validate import check

EXE = shutil.which("trainwreck", path=str(Path(sys.executable).parent))


def trainwreck(*args, cwd):
    assert EXE, "the trainwreck script is not installed next to this Python"
    return subprocess.run([EXE, *args], cwd=cwd, capture_output=True, text=True)


def test_show_outside_a_checkout_uses_the_installed_catalogue(tmp_path):
    result = trainwreck("show", "WR-220", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert out.startswith("WR-220: Learning rate too high: the update step explodes\n")
    assert "Related: WR-120 (cousin) Bad initialisation: the network is broken before the first update" in out
    for heading in ("## Symptom", "## Fix", "## Interview question"):
        assert heading in out
    assert "### Strong answer" not in out      # the answers only with --answers (test_hostile_cli)
    # the includes are expanded to the snippet's code, as on the site
    snippet = (ROOT / "snippets" / "wr220_lr_explosion.py").read_text()
    regions = sections_of(snippet)
    reproduce, fix = out.split("--- Reproduce ---\n\n```python\n")[1].split("--- Fix ---\n\n```python\n")
    # each tab is a whole program: the setup, then its own region
    assert regions["setup"] in reproduce and regions["reproduce"] in reproduce
    assert regions["setup"] in fix and regions["fix"] in fix
    assert "--8<--" not in out
    # the snippet's path is one the reader can run from where they are: the installed copy, not ./snippets
    path = Path(re.search(r"^Snippet: (.+)$", out, re.M)[1])
    # (asked of the installed trainwreck, from the reader's folder: this process imports the checkout's)
    home = subprocess.run([sys.executable, "-c", "from trainwreck.locate import default_catalog; "
                           "print(default_catalog().resolve().parent)"], cwd=tmp_path, capture_output=True, text=True)
    assert path == Path(home.stdout.strip()) / "snippets" / "wr220_lr_explosion.py" and path.read_text() == snippet


def test_show_accepts_lower_case_and_bare_number(tmp_path):
    a = trainwreck("show", "wr-220", cwd=tmp_path)
    b = trainwreck("show", "220", cwd=tmp_path)
    assert a.returncode == b.returncode == 0
    assert a.stdout == b.stdout
    for typed in ("WR220", "wr 220", "WR_220", "0220", "WR-0220"):
        assert main(["show", typed, "--no-run"]) == 0, typed


def test_show_in_a_terminal_has_no_site_markup(capsys):
    assert main(["show", "WR-220", "--no-run"]) == 0
    out = capsys.readouterr().out
    # the site's download links and their attribute lists mean nothing in a terminal
    assert "{:" not in out and "{ download=" not in out and "Download this program" not in out
    assert "--- Reproduce ---" in out and "--- Fix ---" in out


def test_diagnose_in_a_terminal_says_it_waits_for_a_paste(monkeypatch, capsys):
    import io

    class Terminal(io.StringIO):
        def isatty(self):
            return True

    monkeypatch.setattr(sys, "stdin", Terminal("epoch 1 loss 0.69\n"))
    monkeypatch.setattr(sys.stdin, "buffer", io.BytesIO(b"epoch 1 loss 0.69\n"), raising=False)
    assert main(["diagnose"]) == 0
    assert capsys.readouterr().err == ("trainwreck: reading the log from standard input: paste it, then press "
                                       "Enter and Ctrl-D (Ctrl-Z then Enter on Windows)\n")


def test_show_unknown_id_is_one_line_with_the_known_ids(tmp_path):
    result = trainwreck("show", "WR-999", cwd=tmp_path)
    assert result.returncode == 1
    assert result.stdout == ""
    catalog, _ = check(ROOT / "catalog")
    assert result.stderr == f"trainwreck: unknown entry WR-999; known: {', '.join(sorted(catalog.entries))}\n"


def test_show_planned_id_says_it_is_planned(tmp_path):
    fork_with_status(tmp_path, "stable")
    planned = tmp_path / "catalog" / "planned.yml"
    planned.write_text(planned.read_text() + "WR-999: {title: A failure still to be written up, summary: one line}\n")
    result = trainwreck("show", "WR-999", cwd=tmp_path)
    assert result.returncode == 1
    assert result.stderr.startswith(
        "trainwreck: unknown entry WR-999 (planned, not written yet: A failure still to be written up); known: ")


def test_list(tmp_path):
    result = trainwreck("list", cwd=tmp_path)
    assert result.returncode == 0
    catalog, _ = check(ROOT / "catalog")
    header, *lines = result.stdout.splitlines()
    assert header.split() == ["ID", "Title", "Status", "Modules"]
    assert header.index("Status") == lines[0].index("stable") and header.index("Modules") == lines[0].index("0.7")
    assert [line.split()[0] for line in lines] == sorted(catalog.entries)
    wr220 = next(line for line in lines if line.startswith("WR-220"))
    assert wr220.split() [-4:] == ["stable", "2.2,", "2.3,", "2.4"]


def fork_with_status(tmp_path, status):
    """A course's copy of the catalogue in tmp_path, with WR-220's status changed."""
    shutil.copytree(ROOT / "catalog", tmp_path / "catalog")
    shutil.copytree(ROOT / "snippets", tmp_path / "snippets")
    entry = tmp_path / "catalog" / "WR-220.md"
    entry.write_text(entry.read_text().replace("status: stable", f"status: {status}"))


def test_list_and_show_read_a_local_fork_first(tmp_path):
    fork_with_status(tmp_path, "draft")
    result = trainwreck("list", cwd=tmp_path)
    assert "draft" in result.stdout


def test_list_refuses_a_broken_catalogue_with_the_problem_lines(tmp_path):
    fork_with_status(tmp_path, "shiny")
    result = trainwreck("list", cwd=tmp_path)
    assert result.returncode == 1
    assert result.stderr == "catalog/WR-220.md:5: status: 'shiny' is not one of draft, stable, retired\n"


def test_usage_error_has_no_traceback(tmp_path):
    result = trainwreck("explain", cwd=tmp_path)
    assert result.returncode == 2
    assert "Traceback" not in result.stderr and "invalid choice" in result.stderr


def test_show_into_a_closed_pipe(tmp_path):
    result = subprocess.run(f"'{EXE}' show WR-220 | head -1", shell=True, cwd=tmp_path,
                            capture_output=True, text=True)
    assert result.stdout == "WR-220: Learning rate too high: the update step explodes\n"
    assert "Traceback" not in result.stderr


def test_the_readme_names_every_verdict_diagnose_gives_and_its_exit_status():
    """The README's list of `--json` verdicts is the list the engine assigns (ux_review_s65 18: no exit status nor
    verdict list was documented); one run of each exit status holds to it."""
    import re

    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    said = re.search(r"`--json`'s `\"verdict\"`\s+field \(([^)]*)\)", readme)
    assert said, "README.md no longer lists the verdicts"
    listed = set(re.findall(r"`([a-z-]+)`", said.group(1)))
    source = (ROOT / "trainwreck" / "diagnose.py").read_text(encoding="utf-8")
    assigned = set(re.findall(r"d\.verdict(?:, d\.ask)? = \"([a-z-]+)\"", source))
    assert listed == assigned, (listed, assigned)
    assert "`\"verdict\"` is `error`" in " ".join(readme.split())


def test_show_one_section_by_a_word_of_its_heading(capsys):
    """`show WR-220 --section fix` prints the entry's header and its Fix section alone (ux_review_s66: the whole entry
    is hundreds of lines with no way to show one part); a word of any heading names it, in any case; a word that names
    none or several is one line on standard error listing the words that would, and exit 1."""
    from trainwreck.entry import SECTIONS

    assert main(["show", "WR-220", "--no-run"]) == 0
    whole = capsys.readouterr().out
    for word, heading in (("fix", "Fix"), ("Why", "Why it happens"), ("confirm", "Confirm it"),
                          ("jax", "In PyTorch, Keras/TensorFlow and JAX"), ("interview", "Interview question")):
        assert main(["show", "WR-220", "--no-run", "--section", word]) == 0
        out = capsys.readouterr().out
        assert out.startswith("WR-220: Learning rate too high: the update step explodes\n\nEvery step overshoots")
        headings = [h for h in SECTIONS if f"\n## {h}\n" in out]
        assert headings == [heading], (word, headings)
        start = whole.index(f"\n## {heading}\n")
        end = whole.find("\n## ", start + 1)
        assert whole[start + 1:end if end >= 0 else None].rstrip() in out
    for word, said in (("s", "names more than one section (Symptom, Where it shows up)"), ("zzz", "names no section")):
        assert main(["show", "WR-220", "--no-run", "--section", word]) == 1
        captured = capsys.readouterr()
        assert captured.out == "" and captured.err.count("\n") == 1 and said in captured.err
        assert "use one of: symptom, where, why, confirm, fix, prevent, pytorch, keras, jax, interview" in captured.err


def test_one_section_is_found_under_a_heading_with_trailing_spaces():
    """A heading written `## Fix  ` passes `check`; `--section fix` finds it (code_review_s66b 5)."""
    from trainwreck.terminal import one_section

    text = "WR-999: t\n\nsummary\n\n## Confirm it\n\nlook\n\n## Fix  \n\ndo this\n\n## Prevent it\n\nlater\n"
    assert one_section(text, "Fix") == "WR-999: t\n\nsummary\n\n## Fix  \n\ndo this\n"
