"""A project whose catalogue passes `trainwreck check` but whose every text field is hostile.

Issue 16, point 1: what a student can legitimately put in a title, a summary, a
module title, a planned entry, a message, a code block or a snippet must show
on the site as the characters typed, never as markup. Used by
test_hostile_pages (the generated Markdown, rendered in-process) and
test_hostile_site (one real build).
"""
from __future__ import annotations

import shutil
from pathlib import Path

from conftest import ROOT, site_project

# Each holds HTML, Markdown and attribute breakers; none holds a control character (check refuses those).
TITLE = ('</title><script>alert("title")</script> | *x* `y` [z](javascript:alert(1)) "><img src=x onerror=alert(1)> ")'
         " &lt;/title&gt;&lt;script&gt;alert(0)&lt;/script&gt;")
SUMMARY = "</em><img src=x onerror=alert(2)> {: onclick=alert(3) } &amp; \\ # done | cell"
MODULE_TITLE = '<script>alert("module")</script> | "><svg onload=alert(4)>'
PLANNED_TITLE = "<img src=x onerror=alert(5)> | split"
PLANNED_SUMMARY = '"><script>alert(6)</script> | `tick` {: onclick=x }'
MESSAGE = "`` ` `` </code><script>alert(7)</script> {} [m](javascript:x)"
MESSAGE_EXAMPLE = "`` ` `` </code><script>alert(7)</script> 42 [m](javascript:x)"
SOURCE = 'https://github.com/numpy/numpy/blob/v2.4.6/x.c")<img/src=x/onerror=alert(8)>'
CODE_BLOCK = "```python\nx = '</code></pre><script>alert(9)</script>'\n```"
SNIPPET_BREAKOUT = 'HOSTILE = """\n```\n</code></pre><script>alert(10)</script>\n"""\n'
OUTPUT_BREAKOUT = "```\n</code></pre><script>alert(11)</script>"
# every string above, as a reader must see it somewhere on the site
SHOWN = [TITLE, SUMMARY, MODULE_TITLE, PLANNED_TITLE, PLANNED_SUMMARY, MESSAGE_EXAMPLE]
ENTRY = "WR-030"
PLANNED = "WR-390"


def run_cli(capsys, *args: str) -> tuple[int, str, str]:
    """`trainwreck *args` in-process: its exit code, standard output and standard error."""
    from trainwreck import cli

    code = cli.main(list(args))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def _quoted(text: str) -> str:
    """A YAML double-quoted scalar."""
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, f"fixture drift: {old!r} not in {path}"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def make(folder: Path, with_site: bool = False) -> Path:
    """The hostile project in `folder`: catalogue and snippets, and the site's files if asked."""
    if with_site:
        site_project(folder)        # conftest.build_site shares the project's snippet cache with the copy
    else:
        for name in ("catalog", "snippets"):
            shutil.copytree(ROOT / name, folder / name)
    entry = folder / "catalog" / f"{ENTRY}.md"
    _edit(entry, 'title: "Log of zero in a hand-written loss"', f"title: {_quoted(TITLE)}")
    _edit(entry, 'summary: "The loss is falling', f'summary: {_quoted(SUMMARY)}\n# was: "The loss is falling')
    _edit(entry, "  trace: descent-then-nonfinite",
          f"    - {{text: {_quoted(MESSAGE)}, example: {_quoted(MESSAGE_EXAMPLE)}, from: numpy, "
          f"source: {_quoted(SOURCE)}}}\n  trace: descent-then-nonfinite")
    _edit(entry, "## Where it shows up\n", f"{CODE_BLOCK}\n\nIn prose: `<script>alert(12)</script>` and "
                                          "&lt;script&gt; stay text.\n\n## Where it shows up\n")
    modules = folder / "catalog" / "modules.yml"
    _edit(modules, '"0.7": "Numbers in a computer: floating point, overflow and nan"',
          f'"0.7": {_quoted(MODULE_TITLE)}')
    planned = folder / "catalog" / "planned.yml"
    planned.write_text(planned.read_text(encoding="utf-8")
                       + f"{PLANNED}: {{title: {_quoted(PLANNED_TITLE)}, summary: {_quoted(PLANNED_SUMMARY)}}}\n",
                       encoding="utf-8")
    snippet = folder / "snippets" / "wr030_log_of_zero.py"
    _edit(snippet, "SEED = 3\n", f"SEED = 3\n{SNIPPET_BREAKOUT}")
    # the Reproduce tab becomes a program that prints the breakout, so the page shows its output
    _edit(snippet, "# --8<-- [end:reproduce]",
          f'if __name__ == "__main__":\n    print({OUTPUT_BREAKOUT!r})\n# --8<-- [end:reproduce]')
    return folder
