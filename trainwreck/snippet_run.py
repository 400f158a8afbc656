"""Run a snippet's programs as a reader would, and keep what they print, its figure data and its pictures.

A snippet with Reproduce and Fix tabs is two programs (setup + reproduce,
setup + fix); any other snippet file (a tool such as the loss watch) is one
program, the file itself. All of a snippet's programs, its figure_data() and
its pictures come from one child process (trainwreck/snippet_child.py), which
reports over a pipe of its own, never over the program's stdout. Children come
from a fork server that has imported NumPy (and Matplotlib) once, run with one
BLAS thread each, and are limited in CPU time, output and file size; the
parallelism comes from running several snippets side by side.

Results are cached by content: the snippet's text and everything that runs and
draws it. A cache entry is written to a temporary file and renamed into place,
so a build stopped mid-write leaves no half entry, and an entry that cannot be
read is a miss.
"""
from __future__ import annotations

import functools
import hashlib
import json
import multiprocessing
import os
import signal
import sys
import tempfile
import threading
import types
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path

from .numeric_env import DROPPED, NUMERIC_ENV
from .snippet_sections import Program, programs_of

CACHE_VERSION = "4"
CACHE_DIR = ".trainwreck-cache"
CACHE_ENV = "TRAINWRECK_CACHE"        # another folder for the cache (tests share one between project copies)
KEEP_PER_SNIPPET = 3                  # cache entries kept per snippet, newest first
PACKAGE = Path(__file__).resolve().parent


@dataclass(frozen=True)
class Limits:
    """What one snippet may use. Each snippet runs in well under a second of CPU; drawing adds about one."""
    cpu_seconds: int = 30
    wall_seconds: float = 300.0       # only for a snippet that sleeps or waits: a busy machine slows the wall clock
    output_bytes: int = 64_000        # per program: what a page can reasonably show
    file_bytes: int = 16_000_000      # any file it writes, the capture of its output included


LIMITS = Limits()


class SnippetRunError(Exception):
    pass


@dataclass
class SnippetRun:
    outputs: dict[str, str]            # program file name -> what running it printed
    figure: dict | None
    cached: bool
    svgs: dict[str, str] = field(default_factory=dict)   # charts.picture_name -> SVG text

    def output_of(self, program: Program) -> str | None:
        return self.outputs.get(program.filename)


@functools.lru_cache(maxsize=1)
def _runtime() -> str:
    versions = []
    for package in ("numpy", "matplotlib"):
        try:
            versions.append(metadata.version(package))
        except metadata.PackageNotFoundError:
            versions.append("none")
    code = [(PACKAGE / name).read_text(encoding="utf-8") for name in ("snippet_child.py", "charts.py")]
    return "\0".join([CACHE_VERSION, *code, sys.version, *versions])


def cache_key(snippet: str, text: str) -> str:
    """Changes when the snippet, the way it is run or drawn, Python, NumPy or Matplotlib change."""
    return hashlib.sha256("\0".join([_runtime(), snippet, text]).encode()).hexdigest()[:20]


def cache_folder(root: Path) -> Path:
    return Path(os.environ.get(CACHE_ENV) or root / CACHE_DIR)


def run_snippet(root: Path, snippet: str, use_cache: bool = True, draw: bool = False,
                limits: Limits = LIMITS) -> SnippetRun:
    text = (root / snippet).read_text(encoding="utf-8")
    stem = Path(snippet).stem
    cache_file = cache_folder(root) / f"{stem}-{cache_key(snippet, text)}.json"
    if use_cache:
        data = _read_cache(cache_file)
        if data is not None and (data["drawn"] or not draw):
            return SnippetRun(data["outputs"], data["figure"], True, data["svgs"])
    data = _run_child(root, snippet, programs_of(snippet, text), draw, limits)
    if use_cache:
        _write_cache(cache_file, data)
    return SnippetRun(data["outputs"], data["figure"], False, data["svgs"])


def _read_cache(path: Path) -> dict | None:
    """A cache entry, or None if there is none or it cannot be read (then the snippet runs again)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not (isinstance(data, dict) and {"outputs", "figure", "svgs", "drawn"} <= set(data)):
        return None
    return data


def _write_cache(path: Path, data: dict) -> None:
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile("w", encoding="utf-8", dir=path.parent, prefix=".writing-",
                                         suffix=".json", delete=False) as f:
            json.dump(data, f)
        os.replace(f.name, path)
        older = sorted((p for p in path.parent.glob(f"{path.name.rsplit('-', 1)[0]}-*.json") if p != path),
                       key=lambda p: p.stat().st_mtime, reverse=True)
        for old in older[KEEP_PER_SNIPPET - 1:]:
            old.unlink(missing_ok=True)
    except OSError:
        pass  # a read-only checkout still builds, only slower


def _run_child(root: Path, snippet: str, programs: list[Program], draw: bool, limits: Limits) -> dict:
    """Run the snippet's programs and figure in one child; one clear line if anything goes wrong."""
    # The child works in a folder this process makes and removes: a child stopped at a limit, or
    # killed once its last message is read, has no chance to remove a folder of its own.
    with tempfile.TemporaryDirectory(prefix="trainwreck-", ignore_cleanup_errors=True) as scratch:
        return _run_child_in(scratch, root, snippet, programs, draw, limits)


def _run_child_in(scratch: str, root: Path, snippet: str, programs: list[Program], draw: bool,
                  limits: Limits) -> dict:
    context = _context(draw)
    receive, send = context.Pipe(duplex=False)
    from . import snippet_child

    child = context.Process(
        target=snippet_child.main, daemon=True,
        args=(str((root / snippet).resolve()), [vars(p) for p in programs], draw, send,
              {"cpu_seconds": limits.cpu_seconds, "output_bytes": limits.output_bytes,
               "file_bytes": limits.file_bytes}, scratch))
    _start(child)
    send.close()
    outputs, figure, svgs = {}, None, {}
    step, done = "the snippet", False
    labels = {p.filename: f"the {p.label} program ({p.filename})" for p in programs}
    try:
        while not done:
            if not receive.poll(limits.wall_seconds):
                raise SnippetRunError(f"{snippet}: {step} ran past the limit of {limits.wall_seconds:g} s "
                                      "and was stopped (a snippet runs in under a second)")
            try:
                message = json.loads(receive.recv_bytes(maxlength=limits.file_bytes * 4))
            except EOFError:
                raise SnippetRunError(f"{snippet}: {step} {_how_it_ended(child, limits)}") from None
            except (OSError, ValueError):
                raise SnippetRunError(f"{snippet}: {step} garbled the runner's channel") from None
            kind = message.get("kind")
            if kind == "start":
                step = labels.get(message["program"], message["program"])
            elif kind == "program":
                if message["status"] != 0:
                    exited = message["error"].startswith("exited")   # a traceback's last line is the error
                    raise SnippetRunError(f"{snippet}: {step} {message['error']}"
                                          + (_last_words(message["output"]) if exited else ""))
                outputs[message["program"]] = message["output"]
            elif kind == "figure":
                if message["problem"]:
                    raise SnippetRunError(f"{snippet}: {message['problem']}")
                figure, svgs, done = message["figure"], message["svgs"], True
    finally:
        receive.close()
        if child.is_alive():
            child.kill()
        child.join(5)
    return {"outputs": outputs, "figure": figure, "svgs": svgs, "drawn": draw}


def _how_it_ended(child, limits: Limits) -> str:
    child.join(5)
    code = child.exitcode
    if code == -getattr(signal, "SIGXCPU", -1) or code == -signal.SIGKILL:
        return f"ran past the limit of {limits.cpu_seconds} s of CPU time and was stopped (a snippet runs in under a second)"
    if code is not None and code < 0:
        return f"was killed by signal {signal.Signals(-code).name}"
    return f"ended the process with status {code} before it finished (os._exit?)"


def _last_words(output: str) -> str:
    lines = [line.strip() for line in output.splitlines() if line.strip()]
    return f"; its last line: {lines[-1][:200]}" if lines else ""


_start_lock = threading.Lock()
_started = False
_NO_MAIN = types.ModuleType("__main__")


def _start(child) -> None:
    """Start a snippet process: from a fork server that has NumPy (and Matplotlib, to draw) imported,
    or a fresh interpreter where there is no fork; either way with one BLAS thread and Python's
    default warnings. The variables are set only while a process starts: this process keeps its own."""
    global _started
    with _start_lock, _environment({**NUMERIC_ENV, "MPLBACKEND": "Agg"}, drop=("PYTHONWARNINGS", *DROPPED)):
        # multiprocessing would otherwise import this process's main script again in the child (and
        # fail for a notebook or a script without a __main__ guard); the child needs only trainwreck.
        main = sys.modules.get("__main__")
        sys.modules["__main__"] = _NO_MAIN
        try:
            child.start()
        finally:
            sys.modules["__main__"] = main
        _started = True


def _context(draw: bool):
    if "forkserver" not in multiprocessing.get_all_start_methods():
        return multiprocessing.get_context("spawn")
    context = multiprocessing.get_context("forkserver")
    with _start_lock:
        if not _started:   # the server imports these once, before it forks the first child
            context.set_forkserver_preload(
                ["trainwreck.snippet_child"] + (["matplotlib.pyplot", "trainwreck.charts"] if draw else []))
    return context


class _environment:
    """Set (and drop) environment variables for the duration of a with block."""
    def __init__(self, values: dict[str, str], drop: tuple[str, ...]):
        self.values, self.drop = values, drop

    def __enter__(self):
        self.saved = {k: os.environ.get(k) for k in [*self.values, *self.drop]}
        os.environ.update(self.values)
        for k in self.drop:
            os.environ.pop(k, None)

    def __exit__(self, *exc):
        for k, v in self.saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
