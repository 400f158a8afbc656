"""Issue 16: a hostile or careless catalogue gets one clear line per problem from `trainwreck check`.

Each case is a fixture: the bad input (written into a fresh copy of the project),
the command (`trainwreck check`, run in-process), and the lines it must print.
Every case also holds the general promise: exit 1, nothing but `file[:line]: field:
message` lines and the count, no traceback, no escape character, bounded output.
"""
from __future__ import annotations

import os
import re
import shutil
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

import pytest

from conftest import ROOT
from hostile_project import run_cli

# A small catalogue of its own, so the expected lines do not move when the real entries are edited.
SOURCE = "https://github.com/numpy/numpy/blob/v2.4.6/numpy/_core/src/umath/extobj.c#L400"
BODY = """
## Symptom

The printed loss turns nan.

## Where it shows up

In a hand-written cross-entropy.

## Why it happens

The log of zero is minus infinity.

## Confirm it

Print the smallest probability.

## Fix

Compute the loss from the logits.

## Prevent it

Use a stable loss.

## In PyTorch, Keras/TensorFlow and JAX

### PyTorch

**What you see:** a nan loss.

**Confirm it:** print the loss.

**The fix:** use the logits.

### Keras / TensorFlow

**What you see:** a nan loss.

**Confirm it:** print the loss.

**The fix:** use the logits.

### JAX

**What you see:** a nan loss.

**Confirm it:** print the loss.

**The fix:** use the logits.

## Interview question

Why does the loss turn nan?

### Strong answer

A probability rounds to exactly 1.

### Bonus point

Float32 rounds sooner.
"""


def entry_text(entry_id: str, slug: str, related: str, messages: str) -> str:
    return f"""---
id: {entry_id}
title: "Entry {entry_id}"
summary: "One line about {entry_id}."
status: stable
modules: ["0.7", "2.2"]
related:{related}
symptoms:
  messages:{messages}
  trace: descent-then-nonfinite
snippet: snippets/wr{entry_id[3:]}_{slug}.py
---
{BODY}"""


SNIPPET = """\"\"\"A snippet.\"\"\"
# --8<-- [start:setup]
import numpy as np
# --8<-- [end:setup]
# --8<-- [start:reproduce]
if __name__ == "__main__":
    print(np.log(0.0))
# --8<-- [end:reproduce]
# --8<-- [start:fix]
if __name__ == "__main__":
    print(np.log(1.0))
# --8<-- [end:fix]
"""
FIXTURE = {
    # the victim: every case breaks this file (its front matter's lines are what the cases expect)
    "catalog/WR-030.md": entry_text("WR-030", "log_of_zero", """
  - {id: WR-020, nature: cousin}
  - {id: WR-220, nature: see-also}""", f"""
    - {{text: "divide by zero encountered in log", from: numpy, source: "{SOURCE}"}}
    - {{text: "invalid value encountered in multiply", from: numpy, source: "{SOURCE}"}}"""),
    "catalog/WR-020.md": entry_text("WR-020", "float_overflow", " []", " []"),
    "catalog/WR-220.md": entry_text("WR-220", "lr_explosion", "\n  - {id: WR-030, nature: cousin}", " []"),
    "catalog/modules.yml": '# The course map.\n# Quote the ids.\n"0.7": "Numbers in a computer"\n"2.2": "Training by hand"\n',
    "catalog/planned.yml": "WR-900: {title: Later, summary: One line.}\n",
    "snippets/wr030_log_of_zero.py": SNIPPET,
    "snippets/wr020_float_overflow.py": SNIPPET,
    "snippets/wr220_lr_explosion.py": SNIPPET,
}
VICTIM = "catalog/WR-030.md"
BODY_LINE = 20                        # the line where insert_body puts its text
PROBLEM_LINE = re.compile(r"^[^:\n]+(?::[0-9]+)?: [^:\n]+: .+$")


@dataclass
class Case:
    id: str
    point: str                        # the numbered point of issue 16 it covers
    setup: Callable[[Path], None]
    expected: list[str]               # lines that must be printed, in any order
    absent: list[str] = field(default_factory=list)    # substrings no line may hold
    args: tuple[str, ...] = ("check",)


def edit(rel: str, old: str, new: str):
    def apply(project: Path) -> None:
        path = project / rel
        text = path.read_text(encoding="utf-8")
        assert old in text, f"fixture drift: {old!r} not in {rel}"
        path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return apply


def write(rel: str, content: str | bytes):
    def apply(project: Path) -> None:
        path = project / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8")
    return apply


def symlink(rel: str, target: str):
    def apply(project: Path) -> None:
        (project / rel).symlink_to(target)
    return apply


def both(*steps):
    def apply(project: Path) -> None:
        for step in steps:
            step(project)
    return apply


def insert_body(text: str):
    """Put `text` at the start of WR-030's Symptom section, on file line BODY_LINE."""
    return edit(VICTIM, "## Symptom\n\n", f"## Symptom\n\n{text}\n\n")


def title(value: str):
    return edit(VICTIM, 'title: "Entry WR-030"', f"title: {value}")


def front_matter(yaml_text: str):
    """WR-030 with its front matter replaced: `yaml_text` starts on file line 2."""
    def apply(project: Path) -> None:
        path = project / VICTIM
        body = path.read_text(encoding="utf-8").split("\n---\n", 1)[1]
        path.write_text(f"---\n{yaml_text}\n---\n{body}", encoding="utf-8")
    return apply


ORIGINAL_META = FIXTURE[VICTIM].split("\n---\n", 1)[0][len("---\n"):]
ALIAS_BOMB = "\n".join(["a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]"]
                       + [f"a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 9)}]" for i in range(1, 9)])
ESC = "\x1b"
W = VICTIM
WHERE_BODY = f"{W}:{BODY_LINE}"

CASES = [
    # --- 1: HTML in bodies is refused, judged by the site's own Markdown parser
    Case("body-script-tag", "1", insert_body("<script>alert(1)</script>"),
         [f"{WHERE_BODY}: body: raw HTML is not allowed in an entry body: '<script>alert(1)</script>' "
          "(write Markdown; to show a tag as text, put it in `code` or write &lt;)"]),
    Case("body-img-onerror", "1", insert_body("A picture <img src=x onerror=alert(1)> here."),
         [f"{WHERE_BODY}: body: raw HTML is not allowed in an entry body: '<img src=x onerror=alert(1)>' "
          "(write Markdown; to show a tag as text, put it in `code` or write &lt;)"]),
    Case("body-html-comment", "1", insert_body("<!-- hidden from the page -->"),
         [f"{WHERE_BODY}: body: raw HTML is not allowed in an entry body: '<!-- hidden from the page -->' "
          "(write Markdown; to show a tag as text, put it in `code` or write &lt;)"]),
    Case("body-javascript-link", "1", insert_body("[click](javascript:alert(1))"),
         [f"{WHERE_BODY}: body: the link 'javascript:alert(1)' is not allowed: a link is http(s), mailto or "
          "a relative path"]),
    Case("body-entity-javascript-link", "1", insert_body("[click](jav&#x61;script:alert(1))"),
         [f"{WHERE_BODY}: body: the link 'javascript:alert(1)' is not allowed: a link is http(s), mailto or "
          "a relative path"]),
    Case("body-data-link", "1", insert_body("[x]( data:text/html,<b>x</b> )"),
         [f"{WHERE_BODY}: body: the link 'data:text/html,<b>x</b>' is not allowed: a link is http(s), mailto or "
          "a relative path"]),
    Case("body-attribute-list-onclick", "1", insert_body('A paragraph.\n{: onclick="alert(1)" }'),
         [f"{W}:{BODY_LINE + 1}: body: the attribute onclick= is not allowed (an attribute list {{ }} may only set "
          "classes and ids)"]),
    Case("body-remote-image", "1", insert_body("![tracker](https://evil.example/pixel.png)"),
         [f"{WHERE_BODY}: body: the image 'https://evil.example/pixel.png' is not allowed: an image is a file "
          "of the site (a relative path), so the page makes no request elsewhere"]),
    Case("body-admonition-title-html", "1", insert_body('!!! note "<img src=x onerror=alert(1)>"\n    text'),
         [f"{WHERE_BODY}: body: raw HTML is not allowed in an entry body: '<img src=x onerror=alert(1)>' "
          "(write Markdown; to show a tag as text, put it in `code` or write &lt;)"]),
    Case("body-include-breaks-out-of-its-fence", "1", both(
        write("snippets/notes.py", "# --8<-- [start:x]\n```\n<script>alert(1)</script>\n# --8<-- [end:x]\n"),
        insert_body('```python\n--8<-- "snippets/notes.py:x"\n```')),
         [f"{W}:{BODY_LINE + 1}: body: raw HTML is not allowed in an entry body: '<script>alert(1)</script>' "
          "(write Markdown; to show a tag as text, put it in `code` or write &lt;), in the text included from "
          "snippets/notes.py"]),

    # --- 2: includes resolve, symbolic links followed, to a regular file inside snippets/
    Case("include-symlink-to-etc-passwd", "2", both(
        symlink("snippets/notes.txt", "/etc/passwd"), insert_body('--8<-- "snippets/notes.txt"')),
         [f"{WHERE_BODY}: include: 'snippets/notes.txt' leads outside the project's snippets/ folder "
          "(it resolves to /etc/passwd)"]),
    # twelve levels up: out of any temporary folder pytest makes, to the root, where ../ stops
    Case("include-dot-dot", "2", insert_body('--8<-- "../../../../../../../../../../../../etc/passwd"'),
         [f"{WHERE_BODY}: include: '../../../../../../../../../../../../etc/passwd' leads outside the project's snippets/ folder "
          "(it resolves to /etc/passwd)"]),
    Case("include-absolute", "2", insert_body('--8<-- "/etc/passwd"'),
         [f"{WHERE_BODY}: include: '/etc/passwd' is an absolute path: name a file in snippets/ relative to "
          "the project"]),
    Case("include-outside-snippets-inside-project", "2", insert_body('--8<-- "catalog/modules.yml"'),
         [f"{WHERE_BODY}: include: 'catalog/modules.yml' leads outside the project's snippets/ folder "
          "(it resolves to catalog/modules.yml)"]),
    Case("include-dangling-symlink", "2", both(
        symlink("snippets/gone.py", "/nowhere/at/all.py"), insert_body('--8<-- "snippets/gone.py"')),
         [f"{WHERE_BODY}: include: 'snippets/gone.py' is a symbolic link to a file that does not exist"]),
    Case("include-a-folder", "2", both(write("snippets/folder/x.py", "x = 1\n"),
                                       insert_body('--8<-- "snippets/folder"')),
         [f"{WHERE_BODY}: include: snippets/folder is a folder, not a regular file"]),
    Case("include-block-form", "2", insert_body("--8<--\n/etc/passwd\n--8<--"),
         [f"{WHERE_BODY}: include: '--8<--' is not an include this project allows: write "
          '--8<-- "snippets/<file>.py:<region>" on a line of its own']),
    Case("include-line-range-form", "2", insert_body('--8<-- "snippets/wr030_log_of_zero.py:1:5"'),
         [f"{WHERE_BODY}: include: '--8<-- \"snippets/wr030_log_of_zero.py:1:5\"' is not an include this "
          'project allows: write --8<-- "snippets/<file>.py:<region>" on a line of its own']),
    Case("include-nested-in-a-snippet", "2", both(
        write("snippets/notes.py", '"""\n--8<-- "/etc/passwd"\n"""\n'), insert_body('--8<-- "snippets/notes.py"')),
         [f"{WHERE_BODY}: include: snippets/notes.py line 2: an included file may not include others "
          "(escape the line with a leading ; if it is meant as text)"]),
    Case("entry-snippet-symlinked-outside", "2", both(
        lambda p: (p / "snippets/wr030_log_of_zero.py").unlink(),
        symlink("snippets/wr030_log_of_zero.py", "/etc/passwd")),
         [f"{W}:15: snippet: 'snippets/wr030_log_of_zero.py' leads outside the project's snippets/ folder "
          "(it resolves to /etc/passwd)"]),

    # --- 3: YAML aliases, and no unbounded repr in a message
    Case("alias-bomb", "3", front_matter(ALIAS_BOMB + "\n" + re.sub(r"related:\n(  - .*\n)+", "related: *a8\n",
                                                                    ORIGINAL_META)),
         [f"{W}:2: yaml: anchor &a0 is not allowed: write each value out where it is used"]),
    Case("alias-without-anchor-line", "3", front_matter(ORIGINAL_META + "\nextra: *nothing"),
         [f"{W}:16: yaml: alias *nothing is not allowed: write the value out"]),
    Case("alias-in-modules-yml", "3", write("catalog/modules.yml", '"0.7": &t Numbers\n"2.2": *t\n'),
         ["catalog/modules.yml:1: yaml: anchor &t is not allowed: write each value out where it is used"]),
    Case("alias-in-planned-yml", "3", write("catalog/planned.yml", "WR-900: &p {title: a, summary: b}\n"),
         ["catalog/planned.yml:1: yaml: anchor &p is not allowed: write each value out where it is used"]),
    Case("huge-value-in-a-message", "3", edit(VICTIM, "status: stable", "status: " + "x" * 100_000),
         [f"{W}:5: status: '{'x' * 37}.… is not one of draft, stable, retired"]),
    Case("huge-related-item", "3", edit(VICTIM, "  - {id: WR-220, nature: see-also}",
                                        "  - " + "[" * 15 + ", ".join(["x" * 50] * 500) + "]" * 15),
         [f"{W}:9: related: each item must be {{id: WR-NNN, nature: ...}}, got [[[[...]]]]"]),

    # --- 4: control characters in catalogue fields
    Case("title-with-terminal-escapes", "4", title(f'"{ESC}[2J{ESC}]0;PWNED\a Log of zero"'),
         [f"{W}:3: yaml: contains the control character U+001B: catalogue fields are one line of plain text "
          "(no escape sequences or invisible characters)"]),
    Case("title-with-yaml-escaped-escapes", "4", title('"\\e[2J\\e]0;PWNED\\a Log of zero"'),
         [f"{W}:3: title: contains the control characters U+001B, U+0007: catalogue fields are one line of "
          "plain text (no escape sequences, tabs or line breaks)"]),
    Case("title-with-bidi-override", "4", title('"Log of \u202ezero"'),
         [f"{W}:3: yaml: contains the control character U+202E: catalogue fields are one line of plain text "
          "(no escape sequences or invisible characters)"]),
    Case("summary-with-line-break", "4", edit(VICTIM, 'summary: "One line', 'summary: "Two\\nlines. One line'),
         [f"{W}:4: summary: contains the control character U+000A: catalogue fields are one line of plain text "
          "(no escape sequences, tabs or line breaks)"]),
    Case("message-text-with-escape", "4", edit(VICTIM, 'text: "divide by zero encountered in log"',
                                               'text: "divide by zero\\e[31m encountered in log"'),
         [f"{W}:12: symptoms.messages[0].text: contains the control character U+001B: catalogue fields are one "
          "line of plain text (no escape sequences, tabs or line breaks)"]),
    Case("module-title-with-escape", "4", edit("catalog/modules.yml", '"Numbers in', '"\\e[2JNumbers in'),
         ["catalog/modules.yml:3: 0.7: contains the control character U+001B: catalogue fields are one line of "
          "plain text (no escape sequences, tabs or line breaks)"]),
    Case("body-with-escape", "4", insert_body(f"Loss {ESC}[2J printed."),
         [f"{WHERE_BODY}: body: contains the control character U+001B: remove it (escape sequences and "
          "invisible characters are not allowed)"]),
    Case("file-name-with-escape", "4", write(f"catalog/WR-{ESC}[2J.md", "no front matter\n"),
         ["catalog/WR-\\x1b[2J.md:1: front matter: missing: the file must start with a --- YAML block ---"]),

    # --- 10: IDs are three ASCII digits, matched whole
    Case("id-arabic-indic-digits", "10", both(edit(VICTIM, "id: WR-030", "id: WR-\u0660\u0663\u0660")),
         [f"{W}:2: id: 'WR-\u0660\u0663\u0660' is not of the form WR-NNN"]),
    Case("planned-id-arabic-indic", "10", write("catalog/planned.yml",
                                               "WR-\u0669\u0669\u0669: {title: a, summary: b}\n"),
         ["catalog/planned.yml:1: WR-\u0669\u0669\u0669: not an ID of the form WR-NNN"]),
    Case("snippet-name-unicode-digits", "10", edit(VICTIM, "snippet: snippets/wr030_log_of_zero.py",
                                                   "snippet: snippets/wr\u0660\u0663\u0660_log_of_zero.py"),
         [f"{W}:15: snippet: 'snippets/wr\u0660\u0663\u0660_log_of_zero.py' must be snippets/wrNNN_<slug>.py"]),

    # --- 12: files that are not files
    Case("entry-is-a-folder", "12", write("catalog/WR-999.md/inside.txt", "x"),
         ["catalog/WR-999.md: file: is a folder, not a regular file"]),
    Case("entry-is-a-dangling-symlink", "12", symlink("catalog/WR-998.md", "/nowhere/WR-998.md"),
         ["catalog/WR-998.md: file: a symbolic link to /nowhere/WR-998.md, which does not exist"]),
    # (modules.yml unread: its one problem, not one "unknown module" for every module of every entry besides --
    # ux_review_s65 14, where an unclosed bracket gave 1 problem and 38 that followed from it)
    Case("modules-yml-is-a-folder", "12", both(lambda p: (p / "catalog/modules.yml").unlink(),
                                             write("catalog/modules.yml/x", "")),
         ["catalog/modules.yml: file: is a folder, not a regular file"], absent=["unknown module"]),
    Case("modules-yml-empty", "12", write("catalog/modules.yml", "# nothing yet\n"),
         ["catalog/modules.yml:1: file: is empty: a mapping of module ID to title is expected"], absent=["unknown module"]),
    Case("modules-yml-not-yaml", "12", edit("catalog/modules.yml", '"2.2": "Training by hand"\n',
                                           '"2.2": "Training by hand"\n[\n'),
         ["catalog/modules.yml:6: yaml: not valid YAML: could not find expected ':' (column 1)"],
         absent=["unknown module"]),
    Case("planned-yml-is-a-folder", "12", both(lambda p: (p / "catalog/planned.yml").unlink(),
                                             write("catalog/planned.yml/x", "")),
         ["catalog/planned.yml: file: is a folder, not a regular file"]),
    Case("entry-not-utf8", "12", write("catalog/WR-500.md", b"---\nid: WR-500\ntitle: caf\xe9\n---\n"),
         ["catalog/WR-500.md: file: is not UTF-8 text (byte 0xe9 on line 3)"]),

    # --- 13: deep nesting
    Case("five-thousand-brackets", "13", front_matter(ORIGINAL_META + "\nextra: " + "[" * 5000),
         [f"{W}:16: yaml: nested more than 20 levels deep"]),

    # --- 19: files that never end
    Case("entry-symlink-to-dev-zero", "19", symlink("catalog/WR-997.md", "/dev/zero"),
         ["catalog/WR-997.md: file: is a device, not a regular file"]),
    Case("entry-named-pipe", "19", lambda p: os.mkfifo(p / "catalog/WR-996.md"),
         ["catalog/WR-996.md: file: is a named pipe, not a regular file"]),
    Case("entry-too-large", "19", write("catalog/WR-995.md", "---\nid: WR-995\n---\n" + "x" * 2_000_000),
         ["catalog/WR-995.md: file: is 2,000,019 bytes, over the limit of 262,144"]),
    Case("thousands-of-problems-in-one-file", "19", edit(VICTIM, "### PyTorch\n\n**What you see:** a nan loss.",
         "### PyTorch\n\n**What you see:** " + " ".join(f"`m{i}`" for i in range(5000))),
         [f"{W}: problems: 4980 more in this file, not shown"]),

    # --- 26: line numbers are lines of the file
    Case("tab-on-line-9", "26", edit(VICTIM, "  - {id: WR-220, nature: see-also}", "\t- {id: WR-220, nature: see-also}"),
         [f"{W}:9: yaml: not valid YAML: found character '\\t' that cannot start any token (column 1)"]),
    Case("unknown-module-names-its-line", "26", edit(VICTIM, 'modules: ["0.7", "2.2"]', 'modules:\n  - "0.7"\n  - "9.9"'),
         [f"{W}:8: modules: unknown module '9.9' (not in modules.yml)"]),
    Case("empty-section-names-its-heading", "26", edit(VICTIM, "## Prevent it\n", "## Prevent it\n\n## Prevent it too\n"),
         [f"{W}:38: sections: Prevent it is empty", f"{W}:40: sections: unexpected: Prevent it too"]),

    # --- 27: each problem told apart and reported once, where it is
    Case("byte-order-mark", "27", lambda p: (p / VICTIM).write_bytes(b"\xef\xbb\xbf" + (p / VICTIM).read_bytes()),
         [f"{W}:1: file: starts with a byte-order mark (U+FEFF): save the file as UTF-8 without one"]),
    Case("unterminated-front-matter", "27", edit(VICTIM, "snippet: snippets/wr030_log_of_zero.py\n---\n",
                                                 "snippet: snippets/wr030_log_of_zero.py\n"),
         [f"{W}:1: front matter: the --- block opened on line 1 is never closed: end it with a line holding "
          "only ---"]),
    Case("second-front-matter-block", "27", edit(VICTIM, "---\n\n## Symptom", "---\n\n---\nstatus: draft\n---\n\n## Symptom"),
         [f"{W}:18: front matter: a second --- block starts on line 18: an entry has one front matter block "
          "(its fields would be ignored); move them into the first"]),
    Case("duplicate-yaml-key", "27", edit(VICTIM, "status: stable\n", "status: stable\nstatus: draft\n"),
         [f"{W}:6: yaml: key 'status' appears twice (first on line 5): the second would silently replace the "
          "first"]),
    Case("bad-modules-list-names-the-bad-module", "27", edit(VICTIM, 'modules: ["0.7", "2.2"]', 'modules: [0.7, "9.9"]'),
         [f"{W}:6: modules: 0.7 is not text: quote module ids, e.g. [\"2.2\"]",
          f"{W}:6: modules: unknown module '9.9' (not in modules.yml)"],
         absent=["does not exist"]),
    Case("broken-entry-is-not-called-missing-elsewhere", "27", edit(VICTIM, "status: stable\n", "status: [stable\n"),
         [f"{W}:6: yaml: not valid YAML: expected ',' or ']', but got ':' (column 8)"],
         absent=["does not exist"]),
    Case("duplicate-id-reports-the-copy", "27", lambda p: shutil.copy(p / VICTIM, p / "catalog/WR-001.md"),
         ["catalog/WR-001.md:2: id: duplicate ID WR-030, also used by catalog/WR-030.md"],
         absent=["catalog/WR-030.md:2: id: duplicate"]),
    Case("module-id-with-dot-dot", "27", write("catalog/modules.yml",
                                              '"0.7": a\n"2.2": b\n"../../evil": c\n'),
         ["catalog/modules.yml:3: ../../evil: not a module ID: ASCII letters and digits joined by . _ or -, at "
          "most 16 characters (it becomes a file name and a URL)"]),

    # --- 11: the project around the catalogue
    Case("catalogue-outside-a-project", "11", lambda p: shutil.rmtree(p / "snippets"),
         ["catalog: catalogue: not inside a project: {root}/snippets does not exist (a catalogue folder sits "
          "beside snippets/; name it, e.g. `trainwreck check catalog`)"]),
]


@pytest.fixture
def project(tmp_path, monkeypatch):
    for rel, text in FIXTURE.items():
        write(rel, text)(tmp_path)
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.mark.parametrize("case", CASES, ids=[f"{c.point}-{c.id}" for c in CASES])
def test_hostile_catalogue(case, project, capsys):
    case.setup(project)
    code, out, err = run_cli(capsys, *case.args)
    lines = err.splitlines()
    assert code == 1, err
    assert out == ""
    assert "Traceback" not in err and ESC not in err and "\a" not in err
    assert len(err) < 6000, f"{len(err)} characters of messages"     # at most 20 lines a file
    assert lines[-1] == f"{len(lines) - 1} problem(s) in catalog"
    for line in lines[:-1]:
        assert PROBLEM_LINE.match(line), line
    for line in case.expected:
        assert line.replace("{root}", str(project.resolve())) in lines, f"missing:\n{line}\nin:\n{err}"
    for text in case.absent:
        assert not any(text in line for line in lines), err


def test_diagnose_asked_for_json_prints_json_when_the_catalogue_is_broken(project, capsys):
    """ux_review_s65 14: `diagnose --json` beside a catalogue with a problem printed the problems and nothing on
    standard output, where an unreadable log gives a JSON error: a script that asked for JSON gets it either way."""
    import json

    next(c for c in CASES if c.id == "modules-yml-not-yaml").setup(project)
    (project / "run.log").write_text("epoch 1 loss 0.7\n", encoding="utf-8")
    code, out, err = run_cli(capsys, "diagnose", "--json", "--catalog", "catalog", "run.log")
    assert code == 1 and "modules.yml:6: yaml: not valid YAML" in err
    assert json.loads(out) == {"source": "run.log", "verdict": "error",
                               "error": "catalog: 1 problem(s) in the catalogue (listed on standard error)"}
    # (without --json, standard output stays empty)
    assert run_cli(capsys, "diagnose", "--catalog", "catalog", "run.log")[:2] == (1, "")


def test_the_real_catalogue_passes(capsys, monkeypatch):
    monkeypatch.chdir(ROOT)
    code, out, err = run_cli(capsys, "check")
    assert (code, err) == (0, ""), err
    assert out.endswith(" planned: OK\n")


def test_check_dot_from_inside_the_catalogue_finds_the_project(project, capsys, monkeypatch):
    """Point 11: `check .` in catalog/ is `check catalog` one folder up."""
    monkeypatch.chdir(project / "catalog")
    code, out, err = run_cli(capsys, "check", ".")
    assert (code, err) == (0, ""), err
    assert out.startswith(".: ") and out.endswith(" planned: OK\n")


def test_a_broken_entry_keeps_the_others_checked(project, capsys):
    """Point 27: an entry that cannot load is reported once; its neighbours are still checked in full."""
    edit(VICTIM, "status: stable\n", "status: [stable\n")(project)
    edit("catalog/WR-220.md", "status: stable", "status: shiny")(project)
    code, _, err = run_cli(capsys, "check")
    assert "catalog/WR-220.md:5: status: 'shiny' is not one of draft, stable, retired" in err.splitlines()
    assert sum(VICTIM in line for line in err.splitlines()) == 1, err


def test_the_original_of_a_duplicate_is_the_file_named_after_its_id(project, capsys):
    """Point 27, whichever file name sorts first; with no file named after the ID, the first by name."""
    shutil.copy(project / VICTIM, project / "catalog/WR-999.md")
    (project / "catalog/WR-000.md").write_text((project / VICTIM).read_text())
    (project / VICTIM).unlink()
    code, _, err = run_cli(capsys, "check")
    assert "catalog/WR-999.md:2: id: duplicate ID WR-030, also used by catalog/WR-000.md" in err.splitlines(), err


@pytest.mark.parametrize("body", ["[" * 120_000, "\n".join("  " * i + "- x" for i in range(400))],
                         ids=["unclosed-brackets", "list-nested-400-deep"])
def test_a_body_the_parser_cannot_render_in_bounded_time_is_refused(project, capsys, monkeypatch, body):
    """Point 19: Python-Markdown is quadratic on these (30,000 "[" took minutes up to 3.11.3, in check and in the
    site build alike; 3.11.4 renders them in about 0.1 s, and 120,000 in about 0.9 s: still past the deadline below);
    check stops at its deadline with one line. The deadline is cut here to keep the test short."""
    from trainwreck import body_policy

    monkeypatch.setattr(body_policy, "RENDER_SECONDS", 0.3)
    insert_body(body)(project)
    code, _, err = run_cli(capsys, "check")
    assert code == 1
    assert err.splitlines() == [
        f"{W}: body: the body takes more than 0.3 s to render (Python-Markdown slows down on thousands of "
        "unclosed [ or on lists nested hundreds deep); the site build would too, so simplify it",
        "1 problem(s) in catalog"]
    # a refusal for time is this attempt's verdict (the machine may only have been busy): it is not kept
    for _ in range(2):
        hits = body_policy._unsafe_markup.cache_info().hits
        assert body_policy.unsafe_markup(body)[0][0] is None     # refused each time by rendering again
        assert body_policy._unsafe_markup.cache_info().hits == hits
    # the parser is usable again afterwards (rendered now, not answered from the cache of results)
    body_policy._unsafe_markup.cache_clear()
    assert body_policy.unsafe_markup("[fine](WR-020.md)") == []
    assert body_policy.unsafe_markup("<b>x</b>")       # and still finds what it must


TOOL_INCLUDE = '```python\n--8<-- "snippets/helper.py:part"\n```'


@pytest.mark.parametrize("docstring, line", [
    ('"""A helper.\n\nIt prints <script>alert(1)</script> here.\n"""', "snippets/helper.py:3: docstring: raw HTML is not "
     "allowed in a tool's docstring: '<script>' (write Markdown; to show a tag as text, put it in `code` "
     "or write &lt;)"),
    ('"""A helper.\n\nSee [this](javascript:alert(1)).\n"""', "snippets/helper.py:3: docstring: the link "
     "'javascript:alert(1)' is not allowed: a link is http(s), mailto or a relative path"),
    ('def broken(:\n', "snippets/helper.py:1: snippet: is not valid Python (invalid syntax); its docstring makes the "
     "page of this tool"),
])
def test_a_tools_docstring_follows_the_body_rules(project, capsys, docstring, line):
    """Point 1: a snippet file that entries include but that is no entry's own gets a page made from its
    docstring (the loss watch's page), so its Markdown is held to the same rules as a body."""
    write("snippets/helper.py", f"{docstring}\n# --8<-- [start:part]\nx = 1\n# --8<-- [end:part]\n")(project)
    insert_body(TOOL_INCLUDE)(project)
    code, _, err = run_cli(capsys, "check")
    assert code == 1 and line in err.splitlines(), err
