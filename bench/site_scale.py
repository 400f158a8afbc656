"""How the site build scales: a synthetic catalogue against plain MkDocs-Material.

Builds a synthetic catalogue of N entries (default 1,000) twice:

- trainwreck: the real hook (entry pages, handouts, module pages, symptom
  index, each snippet run once and cached), entries kept out of the
  navigation; built cold (every snippet run) and again warm (from the cache);
- baseline: the same entry pages written out as ordinary Markdown files and
  built by plain MkDocs-Material with its default navigation, which lists every
  page on every page.

Prints wall time and site size for both, their ratio, the size per entry, and
the trainwreck build at N/4 entries to show the time per entry stays flat.

    python bench/site_scale.py [--entries 1000]
"""
from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from trainwreck.pages import entry_page  # noqa: E402
from trainwreck.validate import check  # noqa: E402

SNIPPET = '''# --8<-- [start:setup]
import numpy as np


def values(seed={n}):
    return np.random.default_rng(seed).normal(size=3)
# --8<-- [end:setup]


# --8<-- [start:reproduce]
if __name__ == "__main__":
    print("reproduce", values())
# --8<-- [end:reproduce]


# --8<-- [start:fix]
if __name__ == "__main__":
    print("fix", np.zeros(3))
# --8<-- [end:fix]
'''


def synthetic_project(folder: Path, n: int) -> None:
    """n entries modelled on WR-220, each with its own snippet and two related links."""
    shutil.copytree(ROOT / "docs", folder / "docs")
    shutil.copytree(ROOT / "trainwreck", folder / "trainwreck", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "mkdocs.yml", folder)
    (folder / "catalog").mkdir()
    (folder / "snippets").mkdir()
    shutil.copy(ROOT / "snippets" / "loss_watch.py", folder / "snippets")   # WR-220's prose includes it
    shutil.copy(ROOT / "catalog" / "modules.yml", folder / "catalog")
    (folder / "catalog" / "planned.yml").write_text("{}\n")
    template = (ROOT / "catalog" / "WR-220.md").read_text()
    head, body = template.split("\n---\n", 1)
    meta = yaml.safe_load(head.lstrip("-\n"))
    for i in range(n):
        entry_id = f"WR-{i:03d}"
        snippet = f"snippets/wr{i:03d}_synthetic.py"
        (folder / snippet).write_text(SNIPPET.format(n=i))
        meta.update(id=entry_id, title=f"Synthetic failure number {i}", snippet=snippet,
                    related=[{"id": f"WR-{(i + 1) % n:03d}", "nature": "cousin"},
                             {"id": f"WR-{(i + 7) % n:03d}", "nature": "leads-to"}])
        text = body.replace("snippets/wr220_lr_explosion.py", snippet)
        (folder / "catalog" / f"{entry_id}.md").write_text("---\n" + yaml.safe_dump(meta) + "---\n" + text)


def plain_project(source: Path, folder: Path) -> None:
    """The same entry pages as ordinary files, built by MkDocs-Material alone."""
    catalog, problems = check(source / "catalog")
    assert not problems, problems[:3]
    docs = folder / "docs"
    docs.mkdir(parents=True)
    shutil.copytree(source / "snippets", folder / "snippets")
    (docs / "index.md").write_text("# Home\n")
    for entry in catalog.sorted_entries():
        (docs / f"{entry.id}.md").write_text(entry_page(entry, catalog))
    config = yaml.safe_load((source / "mkdocs.yml").read_text().replace("!ENV [TRAINWRECK_OFFLINE, false]", "false"))
    for key in ("hooks", "nav", "extra_css"):
        config.pop(key, None)
    config["validation"] = {"links": {"not_found": "ignore", "unrecognized_links": "ignore"}}
    config["strict"] = False
    for ext in config["markdown_extensions"]:
        if isinstance(ext, dict) and "pymdownx.snippets" in ext:
            ext["pymdownx.snippets"]["base_path"] = [str(folder)]
    (folder / "mkdocs.yml").write_text(yaml.safe_dump(config))


def build(folder: Path) -> tuple[float, int]:
    out = folder / "site"
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    start = time.perf_counter()
    result = subprocess.run([sys.executable, "-m", "mkdocs", "build", "-q", "-d", str(out)], cwd=folder, env=env,
                            capture_output=True, text=True)
    if result.returncode:
        sys.exit(f"build of {folder.name} failed:\n{result.stderr[-2000:]}")
    seconds = time.perf_counter() - start
    size = sum(p.stat().st_size for p in out.rglob("*") if p.is_file())
    return seconds, size


def snippets_own_time(folder: Path) -> float:
    """What the synthetic snippets themselves cost: each one's Reproduce and Fix programs run one
    after another in this process (no interpreter start, no fork: the build's part of the work
    that no build can avoid)."""
    import contextlib
    import io

    from trainwreck.snippet_sections import TABS, tab_program

    start = time.perf_counter()
    for path in sorted((folder / "snippets").glob("wr*_synthetic.py")):
        text = path.read_text()
        for _, region in TABS:
            with contextlib.redirect_stdout(io.StringIO()):
                exec(compile(tab_program(text, region), str(path), "exec"), {"__name__": "__main__"})
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--entries", type=int, default=1000)
    n = parser.parse_args().entries
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        results = {}
        for label, count in ((f"trainwreck, {n // 4} entries", n // 4), (f"trainwreck, {n} entries", n)):
            synthetic_project(tmp / label, count)
            cold = build(tmp / label)           # runs every snippet once
            results[label + ", cold"] = (count, *cold)
            results[label] = (count, *build(tmp / label))   # snippet results from the cache
            own = snippets_own_time(tmp / label)
        plain_project(tmp / f"trainwreck, {n} entries", tmp / "plain")
        results[f"plain Material, {n} entries"] = (n, *build(tmp / "plain"))

    print(f"{'build':38s} {'seconds':>8s} {'ms/entry':>9s} {'site MB':>8s} {'KB/entry':>9s}")
    for label, (count, seconds, size) in results.items():
        print(f"{label:38s} {seconds:8.1f} {1000 * seconds / count:9.1f} {size / 1e6:8.1f} {size / 1e3 / count:9.1f}")
    ours = results[f"trainwreck, {n} entries"]
    plain = results[f"plain Material, {n} entries"]
    small = results[f"trainwreck, {n // 4} entries"]
    print(f"\ntime ratio trainwreck / plain Material at {n} entries: {ours[1] / plain[1]:.2f}")
    print(f"size ratio trainwreck / plain Material at {n} entries: {ours[2] / plain[2]:.2f} "
          f"(trainwreck also writes a handout per entry, module pages and the symptom index)")
    print(f"time per entry, {n} vs {n // 4} entries: {(ours[1] / n) / (small[1] / (n // 4)):.2f}x "
          "(1.0 = linear)")
    cold = results[f"trainwreck, {n} entries, cold"][1]
    print(f"cold build at {n} entries / (warm build + the snippets' own run time, {own:.1f} s): "
          f"{cold / (ours[1] + own):.2f} (target <= 1.5)")


if __name__ == "__main__":
    main()
