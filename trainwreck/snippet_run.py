"""Run a snippet as a student would, and keep what it printed, its figure data and its pictures.

The console output is captured from a fresh `python snippets/x.py` run from
the project root, so warnings appear exactly as a student sees them. The
pictures are drawn in the same child process, so several snippets run and draw
in parallel. Results are cached by the snippet's content (and by the code that
runs and draws it): an unchanged snippet is not re-run.
"""
from __future__ import annotations

import functools
import hashlib
import json
import os
import subprocess
import sys
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path

CACHE_VERSION = "2"
CACHE_DIR = ".trainwreck-cache"

# Runs inside the child: main() with stdout and stderr merged in order, then
# figure_data() with its own warnings silenced (they were shown by main()),
# then, if asked, the light and dark pictures.
_RUNNER = r"""
import contextlib, io, json, runpy, sys, warnings
path, draw = sys.argv[1], sys.argv[2] == "draw"
buffer = io.StringIO()
with contextlib.redirect_stdout(buffer), contextlib.redirect_stderr(buffer):
    namespace = runpy.run_path(path, run_name="__main__")
with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    figure = namespace["figure_data"]() if "figure_data" in namespace else None
svgs, problem = {}, None
if draw and figure:
    from trainwreck.charts import THEMES, render_svg
    try:
        svgs = {theme: render_svg(figure, theme) for theme in THEMES}
    except Exception as exc:
        problem = f"{type(exc).__name__}: {exc}"
json.dump({"output": buffer.getvalue(), "figure": figure, "svgs": svgs, "figure_error": problem}, sys.stdout)
"""


class SnippetRunError(Exception):
    pass


@dataclass
class SnippetRun:
    output: str
    figure: dict | None
    cached: bool
    svgs: dict[str, str] = field(default_factory=dict)


@functools.lru_cache(maxsize=1)
def _runtime() -> str:
    try:
        numpy_version = metadata.version("numpy")
    except metadata.PackageNotFoundError:
        numpy_version = "none"
    charts = (Path(__file__).resolve().parent / "charts.py").read_text(encoding="utf-8")
    return "\0".join([CACHE_VERSION, _RUNNER, charts, sys.version, numpy_version])


def cache_key(root: Path, snippet: str, *extra: str) -> str:
    """Changes when the snippet, the way it is run or drawn, Python or NumPy change."""
    digest = hashlib.sha256("\0".join([_runtime(), snippet, *extra]).encode())
    digest.update((root / snippet).read_bytes())
    return digest.hexdigest()[:20]


def run_snippet(root: Path, snippet: str, use_cache: bool = True, draw: bool = False) -> SnippetRun:
    mode = "draw" if draw else "run"
    key = cache_key(root, snippet, mode)
    stem = f"{Path(snippet).stem}-{mode}"
    cache_file = root / CACHE_DIR / f"{stem}-{key}.json"
    if use_cache and cache_file.is_file():
        data = json.loads(cache_file.read_text(encoding="utf-8"))
        return SnippetRun(data["output"], data["figure"], True, data["svgs"])
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHONWARNINGS")}
    # the child imports trainwreck.charts from wherever this package is
    env["PYTHONPATH"] = os.pathsep.join([str(Path(__file__).resolve().parent.parent), env.get("PYTHONPATH", "")])
    result = subprocess.run([sys.executable, "-c", _RUNNER, snippet, mode], cwd=root, capture_output=True,
                            text=True, env=env, timeout=300)
    if result.returncode != 0:
        last = (result.stderr.strip().splitlines() or ["no output"])[-1]
        raise SnippetRunError(f"{snippet}: running it failed: {last}")
    data = json.loads(result.stdout)
    if data["figure_error"]:
        raise SnippetRunError(f"{snippet}: figure_data() could not be drawn: {data['figure_error']}")
    if use_cache:
        try:
            cache_file.parent.mkdir(exist_ok=True)
            for old in cache_file.parent.glob(f"{stem}-*.json"):
                old.unlink()
            cache_file.write_text(json.dumps(data), encoding="utf-8")
        except OSError:
            pass  # a read-only checkout still builds, only slower
    return SnippetRun(data["output"], data["figure"], False, data["svgs"])
