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

import yaml

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
SNIPPET_SLUG = "log_of_zero"
PLANNED = "WR-390"


def run_cli(capsys, *args: str) -> tuple[int, str, str]:
    """`trainwreck *args` in-process: its exit code, standard output and standard error."""
    from trainwreck import cli

    code = cli.main(list(args))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def _front_matter(path: Path, change) -> None:
    """Rewrite an entry's front matter through the YAML library: `change` edits the mapping."""
    head, body = path.read_text(encoding="utf-8")[len("---\n"):].split("\n---\n", 1)
    meta = yaml.safe_load(head)
    change(meta)
    path.write_text("---\n" + yaml.safe_dump(meta, sort_keys=False, allow_unicode=True, width=float("inf"))
                    + "---\n" + body, encoding="utf-8")


def _before_line(path: Path, line: str, text: str) -> None:
    """Insert `text` before the first line that is exactly `line` (a heading or a region marker:
    what the contract fixes, not what an entry's author may reword)."""
    lines = path.read_text(encoding="utf-8").split("\n")
    at = lines.index(line)
    path.write_text("\n".join(lines[:at] + text.split("\n") + lines[at:]), encoding="utf-8")


def make(folder: Path, with_site: bool = False) -> Path:
    """The hostile project in `folder`: catalogue and snippets, and the site's files if asked."""
    if with_site:
        site_project(folder)        # conftest.build_site shares the project's snippet cache with the copy
    else:
        for name in ("catalog", "snippets"):
            shutil.copytree(ROOT / name, folder / name)
    entry = folder / "catalog" / f"{ENTRY}.md"

    def hostile_fields(meta: dict) -> None:
        meta["title"], meta["summary"] = TITLE, SUMMARY
        meta["symptoms"]["messages"].append({"text": MESSAGE, "example": MESSAGE_EXAMPLE, "from": "numpy",
                                             "source": SOURCE})

    _front_matter(entry, hostile_fields)
    _before_line(entry, "## Where it shows up", f"{CODE_BLOCK}\n\nIn prose: `<script>alert(12)</script>` and "
                                                "&lt;script&gt; stay text.\n")
    modules = folder / "catalog" / "modules.yml"
    titles = yaml.safe_load(modules.read_text(encoding="utf-8"))
    titles["0.7"] = MODULE_TITLE
    modules.write_text(yaml.safe_dump(titles, sort_keys=False, allow_unicode=True), encoding="utf-8")
    planned = folder / "catalog" / "planned.yml"
    roadmap = yaml.safe_load(planned.read_text(encoding="utf-8")) or {}
    roadmap[PLANNED] = {"title": PLANNED_TITLE, "summary": PLANNED_SUMMARY}
    planned.write_text(yaml.safe_dump(roadmap, sort_keys=False, allow_unicode=True), encoding="utf-8")
    snippet = folder / "snippets" / f"wr{ENTRY[3:]}_{SNIPPET_SLUG}.py"
    text = snippet.read_text(encoding="utf-8")
    start = "# --8<-- [start:reproduce]"
    snippet.write_text(text.replace(start, f"{start}\n{SNIPPET_BREAKOUT}", 1), encoding="utf-8")
    # the Reproduce tab prints the breakout too, so the page shows it among its output
    _before_line(snippet, "# --8<-- [end:reproduce]", f'if __name__ == "__main__":\n    print({OUTPUT_BREAKOUT!r})')
    return folder
