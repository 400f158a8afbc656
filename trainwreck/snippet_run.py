"""Run a snippet as a student would, and keep what it printed and its figure data.

The console output is captured from a fresh `python snippets/x.py` run from
the project root, so warnings appear exactly as a student sees them. Results
are cached by the snippet's content: an unchanged snippet is not re-run.
"""
from __future__ import annotations

import functools
import hashlib
import json
import os
import subprocess
import sys
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path

CACHE_VERSION = "1"
CACHE_DIR = ".trainwreck-cache"

# Runs inside the child: main() with stdout and stderr merged in order, then
# figure_data() with its own warnings silenced (they were shown by main()).
_RUNNER = r"""
import contextlib, io, json, runpy, sys, warnings
path = sys.argv[1]
buffer = io.StringIO()
with contextlib.redirect_stdout(buffer), contextlib.redirect_stderr(buffer):
    namespace = runpy.run_path(path, run_name="__main__")
with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    figure = namespace["figure_data"]() if "figure_data" in namespace else None
json.dump({"output": buffer.getvalue(), "figure": figure}, sys.stdout)
"""


class SnippetRunError(Exception):
    pass


@dataclass
class SnippetRun:
    output: str
    figure: dict | None
    cached: bool


@functools.lru_cache(maxsize=1)
def _runtime() -> str:
    try:
        numpy_version = metadata.version("numpy")
    except metadata.PackageNotFoundError:
        numpy_version = "none"
    return "\0".join([CACHE_VERSION, _RUNNER, sys.version, numpy_version])


def cache_key(root: Path, snippet: str, *extra: str) -> str:
    """Changes when the snippet, the way it is run, Python or NumPy change."""
    parts = [_runtime(), snippet, *extra]
    digest = hashlib.sha256("\0".join(parts).encode())
    digest.update((root / snippet).read_bytes())
    return digest.hexdigest()[:20]


def run_snippet(root: Path, snippet: str, use_cache: bool = True) -> SnippetRun:
    key = cache_key(root, snippet)
    cache_file = root / CACHE_DIR / f"{Path(snippet).stem}-{key}.json"
    if use_cache and cache_file.is_file():
        data = json.loads(cache_file.read_text(encoding="utf-8"))
        return SnippetRun(data["output"], data["figure"], cached=True)
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHONWARNINGS")}
    result = subprocess.run([sys.executable, "-c", _RUNNER, snippet], cwd=root, capture_output=True,
                            text=True, env=env, timeout=120)
    if result.returncode != 0:
        last = (result.stderr.strip().splitlines() or ["no output"])[-1]
        raise SnippetRunError(f"{snippet}: running it failed: {last}")
    data = json.loads(result.stdout)
    if use_cache:
        try:
            cache_file.parent.mkdir(exist_ok=True)
            for old in cache_file.parent.glob(f"{Path(snippet).stem}-*.json"):
                old.unlink()
            cache_file.write_text(json.dumps(data), encoding="utf-8")
        except OSError:
            pass  # a read-only checkout still builds, only slower
    return SnippetRun(data["output"], data["figure"], cached=False)
