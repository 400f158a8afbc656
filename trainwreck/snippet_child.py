"""The child side of the snippet runner: runs in a process of its own, one per snippet.

Each program is written into an empty folder under the name a reader saves it
as, and run there as `python <name>` would run it: as `__main__`, with
Python's default warning filters, its own argv, and file descriptors 1 and 2
pointing at one capture file, so prints, warnings, tracebacks and writes
straight to the descriptors land in the order a terminal shows them. Nothing
the program does reaches the runner except through that file: the runner's
channel is a separate pipe carrying JSON.

The runner's parent process imports nothing from here; a fork server imports it
once (with NumPy, and Matplotlib when pictures are drawn), so each snippet's
process starts with those already loaded.
"""
from __future__ import annotations

import io
import json
import os
import runpy
import sys
import traceback
import warnings
from pathlib import Path

try:  # loaded once in the fork server, so no snippet process pays for the import
    import numpy
except ImportError:  # pragma: no cover - the site extras install it
    numpy = None

# Python's own filters when no -W option or PYTHONWARNINGS is given (the
# "Default Warning Filter" list of the warnings module's documentation): the
# warnings a reader sees running the program in a terminal.
DEFAULT_FILTERS = (("default", DeprecationWarning, "__main__"), ("ignore", DeprecationWarning, None),
                   ("ignore", PendingDeprecationWarning, None), ("ignore", ImportWarning, None),
                   ("ignore", ResourceWarning, None))
FIGURE_KEYS = ("alt", "caption", "panels")
PANEL_KEYS = ("title", "xlabel", "ylabel", "series")


def main(snippet: str, programs: list[dict], draw: bool, channel, limits: dict, scratch: str) -> None:
    """Run each program, then the figure, in the empty folder scratch (the runner makes and removes
    it); report each step on the channel as one JSON message."""
    _apply_limits(limits)

    def say(kind: str, **fields) -> None:
        channel.send_bytes(json.dumps({"kind": kind, **fields}).encode())

    scratch = Path(scratch)
    for i, program in enumerate(programs):
        say("start", program=program["filename"])
        folder = scratch / f"program{i}"
        folder.mkdir()
        output, status, error = run_program(folder / program["filename"], program["code"],
                                            scratch / f"program{i}.out", limits["output_bytes"])
        say("program", program=program["filename"], output=output, status=status, error=error)
        if status != 0:
            return
    say("start", program="figure_data()")
    figure, problem = figure_of(snippet, scratch)
    svgs = {}
    if figure is not None and problem is None and draw:
        svgs, problem = _drawn(figure)
    say("figure", figure=figure, svgs=svgs, problem=problem)


def run_program(path: Path, code: str, capture: Path, cap: int) -> tuple[str, int, str]:
    """Run one program as `python <path>` in its folder; return what it printed, its exit status
    and, if it failed, the one line that says why."""
    path.write_text(code, encoding="utf-8")
    status, error = 0, ""
    with _captured(capture), _as_a_fresh_run(path):
        try:
            runpy.run_path(str(path), run_name="__main__")
        except SystemExit as exc:
            status = _exit_status(exc)
            if status:
                error = f"exited with status {status}"
        except BaseException as exc:  # the program's own failure, shown as Python shows it
            _print_traceback(exc, str(path))
            status = 1
            error = traceback.format_exception_only(type(exc), exc)[-1].strip()
    output, too_long = _read_capped(capture, cap)
    if too_long:
        return output, 1, f"printed more than the {cap // 1000} kB a page shows"
    return output.replace(f"{path.parent}{os.sep}", ""), status, error


def figure_of(snippet: str, scratch: Path) -> tuple[dict | None, str | None]:
    """The snippet file's figure_data(), with its warnings silenced (the programs showed them)."""
    with _captured(scratch / "figure.out"), _as_a_fresh_run(scratch / "figure.py"):
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                namespace = runpy.run_path(snippet, run_name="trainwreck_figure")
                if "figure_data" not in namespace:
                    return None, None
                figure = namespace["figure_data"]()
        except SystemExit as exc:
            return None, f"exited with status {_exit_status(exc)} while making the figure"
        except Exception as exc:
            return None, f"figure_data() failed: {traceback.format_exception_only(type(exc), exc)[-1].strip()}"
    problem = figure_problem(figure)
    if problem is None:
        try:
            json.dumps(figure)
        except (TypeError, ValueError) as exc:
            problem = f"figure_data() must return plain numbers, text, lists and dicts: {exc}"
    return (figure if problem is None else None), problem


def figure_problem(figure) -> str | None:
    """What is missing from figure_data()'s result, in one line, or None."""
    if not isinstance(figure, dict):
        return f"figure_data() must return a dict, not {type(figure).__name__}"
    for key in FIGURE_KEYS:
        if key not in figure:
            return f"figure_data() has no {key!r} (it needs {', '.join(map(repr, FIGURE_KEYS))})"
    if not (isinstance(figure["alt"], str) and figure["alt"].strip()):
        return "figure_data()['alt'] must be text describing the picture for a reader who cannot see it"
    panels = figure["panels"]
    if not (isinstance(panels, list) and panels):
        return "figure_data()['panels'] must be a non-empty list"
    for i, panel in enumerate(panels):
        missing = [k for k in PANEL_KEYS if not isinstance(panel, dict) or k not in panel]
        if missing:
            return f"figure_data()['panels'][{i}] has no {missing[0]!r} (it needs {', '.join(map(repr, PANEL_KEYS))})"
    return None


def _drawn(figure: dict) -> tuple[dict, str | None]:
    from trainwreck.charts import render_panels

    try:
        return render_panels(figure), None
    except Exception as exc:
        return {}, f"figure_data() could not be drawn: {type(exc).__name__}: {exc}"


class _captured:
    """Point descriptors 1 and 2 (and sys.stdout/stderr) at one file, line-buffered as in a terminal."""

    def __init__(self, path: Path):
        self.path = path

    def __enter__(self):
        for stream in (sys.stdout, sys.stderr):
            stream.flush()
        self.saved = os.dup(1), os.dup(2)
        self.streams = sys.stdout, sys.stderr
        fd = os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        os.dup2(fd, 1)
        os.dup2(fd, 2)
        os.close(fd)
        sys.stdout = io.TextIOWrapper(io.FileIO(1, "w", closefd=False), encoding="utf-8", line_buffering=True)
        sys.stderr = io.TextIOWrapper(io.FileIO(2, "w", closefd=False), encoding="utf-8",
                                      errors="backslashreplace", line_buffering=True)
        return self

    def __exit__(self, *exc):
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except (OSError, ValueError):
                pass  # a program may close its own stdout; what it wrote is in the file
        sys.stdout, sys.stderr = self.streams
        for fd, saved in zip((1, 2), self.saved):
            os.dup2(saved, fd)
            os.close(saved)
        return False


class _as_a_fresh_run:
    """What `python path` starts from: its folder as the working directory and first import path,
    Python's default warning filters, and NumPy's default error handling and print options."""

    def __init__(self, path: Path):
        self.path = path

    def __enter__(self):
        self.cwd, self.sys_path, self.argv = os.getcwd(), list(sys.path), list(sys.argv)
        os.chdir(self.path.parent)
        sys.path.insert(0, str(self.path.parent))
        sys.argv = [str(self.path)]
        self.warnings = warnings.catch_warnings()
        self.warnings.__enter__()
        warnings.resetwarnings()
        for action, category, module in reversed(DEFAULT_FILTERS):
            warnings.filterwarnings(action, category=category, module=module or "")
        if numpy is not None:
            self.numpy_state = numpy.geterr(), numpy.get_printoptions()
        return self

    def __exit__(self, *exc):
        if numpy is not None:
            numpy.seterr(**self.numpy_state[0])
            numpy.set_printoptions(**self.numpy_state[1])
        self.warnings.__exit__(*exc)
        os.chdir(self.cwd)
        sys.path[:], sys.argv = self.sys_path, self.argv
        return False


def _exit_status(exc: SystemExit) -> int:
    """The status `python` exits with for this SystemExit; a text code is printed, as Python does."""
    code = exc.code
    if code is None:
        return 0
    if isinstance(code, int):
        return code
    print(code, file=sys.stderr)
    return 1


def _print_traceback(exc: BaseException, filename: str) -> None:
    """The traceback Python prints for an uncaught exception, starting at the program's own frame."""
    tb = exc.__traceback__
    while tb is not None and tb.tb_frame.f_code.co_filename != filename:
        tb = tb.tb_next
    traceback.print_exception(type(exc), exc, tb or exc.__traceback__, file=sys.stderr)


def _read_capped(path: Path, cap: int) -> tuple[str, bool]:
    with open(path, "rb") as f:
        data = f.read(cap + 1)
    return data[:cap].decode("utf-8", errors="replace"), len(data) > cap


def _apply_limits(limits: dict) -> None:
    """CPU seconds (so a busy machine does not count against a snippet) and the largest file it may write."""
    try:
        import resource
    except ImportError:  # pragma: no cover - not on Windows
        return
    cpu = limits["cpu_seconds"]
    resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu + 5))
    size = limits["file_bytes"]
    resource.setrlimit(resource.RLIMIT_FSIZE, (size, size))
