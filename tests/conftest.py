import functools
import gc
import importlib.util
import os
import shutil
import sys
from pathlib import Path

import pytest

from trainwreck import numeric_env
from trainwreck.snippet_run import CACHE_DIR

# Tests run side by side (one process per core): each gets one BLAS thread, set before NumPy is
# first imported, or small matrix products fight over the cores; and the kernels the numbers the
# pages show were computed with (numeric_env.py), whatever the shell had set.
numeric_env.apply()

ROOT = Path(__file__).resolve().parent.parent

# The tests start many Python processes (site builds, the reader's programs, the CLI); where
# PYTHONDONTWRITEBYTECODE is set, each would compile NumPy, Matplotlib and MkDocs from source
# again (5-8 s of a fresh clone's run). Python's default, writing the bytecode caches, changes
# nothing a test checks; the caches are git-ignored.
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)


# Collecting on a clean clone, pytest rewrites the asserts of every test module, building hundreds of thousands of
# syntax-tree nodes (the largest module has 2,000 asserts); each worker does it all again. Every so many allocations
# the cyclic garbage collector walks the young objects and, now and then, all the live ones: some 3,400 passes that
# cost about 2.5 s of a cold collection's 7.5 s per worker, to free about 37,000 objects that one pass at the end
# frees as well (0.15 s). So it is paused while the tests are collected, runs once after, and what collection built
# and kept (the modules, the test items, which live to the end of the run) is frozen out of its later walks.
@pytest.hookimpl(wrapper=True)
def pytest_collection(session):
    gc.disable()
    try:
        _import_from_own_place(session)
        return (yield)
    finally:
        gc.enable()
        gc.collect()
        gc.freeze()


# On a clean clone every worker rewrites the asserts of every test module (about 4 s of CPU each, the whole of a
# cold collection's extra cost), each writing the same cached result, because every worker collects the modules in
# the same order at the same time. Worker k of n instead imports them starting k/n of the way along the list: each
# rewrites its own stretch and, past it, finds the modules another worker has already cached, so the work is done
# about once. The modules are the ones collection then takes as imported; a module that fails to import is left to
# collection, which imports it again and reports the failure as it would have.
def _import_from_own_place(session) -> None:
    worker, count = os.environ.get("PYTEST_XDIST_WORKER", ""), int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "1"))
    option = session.config.option
    if (not worker.startswith("gw") or count < 2 or session.config.args_source != pytest.Config.ArgsSource.TESTPATHS
            or option.ignore or option.ignore_glob or getattr(option, "lf", False)):     # (some modules not collected)
        return
    modules = sorted(Path(__file__).parent.glob("test_*.py"))
    start = int(worker[2:]) * len(modules) // count
    for path in modules[start:] + modules[:start]:
        try:
            importlib.import_module(path.stem)
        except BaseException as exc:          # (pytest's skip of a whole module is not an Exception)
            if isinstance(exc, (KeyboardInterrupt, SystemExit)):
                raise
            sys.modules.pop(path.stem, None)


def load_module(path: Path, name: str):
    """Import a script that is not part of a package (a snippet, a benchmark) as a module."""
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def load_snippet(name: str):
    """Import snippets/<name>.py as a module, the file a student would run."""
    return load_module(ROOT / "snippets" / f"{name}.py", f"snippet_{name}")


@pytest.fixture(scope="session")
def root() -> Path:
    return ROOT


def entry_prose(entry_id: str) -> str:
    """The entry's body with line wrapping folded, so claims match across lines."""
    from trainwreck.catalog import load

    return " ".join(load(ROOT / "catalog").entries[entry_id].body.split())


@functools.lru_cache(maxsize=1)
def real_catalog():
    """The real catalogue, checked once per test process (the tests read it and never change it;
    test_catalog.py holds it to no problems)."""
    from trainwreck.validate import check

    return check(ROOT / "catalog")[0]


@functools.lru_cache(maxsize=1)
def _real_messages():
    from trainwreck.diagnose import message_finder

    return message_finder(real_catalog())


def diagnosis(text: str):
    """What diagnose makes of a report pasted as text, against the real catalogue and the messages it declares."""
    import io

    from trainwreck.diagnose import diagnose
    from trainwreck.logscan import scan

    return diagnose(scan(io.BytesIO(text.encode()), "report", _real_messages()), real_catalog())


def context_of(text: str):
    """What diagnose reads in a report before it weighs any entry (its printed facts among them)."""
    import io

    from trainwreck import diagnose as engine
    from trainwreck.logscan import scan

    catalog = real_catalog()
    ev = engine._one_run(scan(io.BytesIO(text.encode()), "report", engine.message_finder(catalog)))
    return engine.context_of(ev, engine.weigher(catalog), engine.signature_of(ev), engine.WEIGHTS)


def weighed(text: str, entry_id: str):
    """One entry's parts, evidence and lines against it for a report, weighed as diagnose weighs it, whether or not the
    entry is among the candidates shown (an assertion on a part must not pass because the entry was left out)."""
    from trainwreck import diagnose as engine

    catalog = real_catalog()
    return engine.weigh(catalog.entries[entry_id], context_of(text), engine.weigher(catalog), engine.WEIGHTS)


def weighed_parts(text: str, entry_id: str) -> dict[str, float]:
    """The parts of one entry's score for a report (see weighed)."""
    return weighed(text, entry_id)[0]


@functools.lru_cache(maxsize=64)
def built_page(path: Path):
    """A built page as a browser's HTML5 parser reads it (lexbor), parsed once per test process:
    the tests only read it (never change the tree)."""
    from selectolax.lexbor import LexborHTMLParser

    return LexborHTMLParser(path.read_text(encoding="utf-8"))


def assert_entry_says(entry_id: str, claims: list[str]) -> None:
    """Each claim, computed from a snippet run, must appear word for word in the entry."""
    body = entry_prose(entry_id)
    missing = [claim for claim in claims if claim not in body]
    assert not missing, f"{entry_id} should say: {missing}"


def build_site(project: Path, out: Path, quiet: bool = True, **env: str):
    """The real `mkdocs build --strict`, as a user runs it, into out. Snippet results come from the
    project's own cache, so a copy of the project does not run unchanged snippets again."""
    import os
    import subprocess

    full_env = {"PATH": str(Path(sys.executable).parent) + os.pathsep + os.environ.get("PATH", ""),
                "TRAINWRECK_CACHE": str(ROOT / CACHE_DIR), **env}
    return subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", *(["-q"] if quiet else []), "-d", str(out)],
        cwd=project, capture_output=True, text=True, env=full_env,
    )


def _shared_folder(tmp_path_factory) -> Path:
    """A folder every test process of this run sees: with xdist, the one the workers' own temp folders sit in."""
    shared = tmp_path_factory.getbasetemp()
    return shared.parent if os.environ.get("PYTEST_XDIST_WORKER") else shared


def _built(tmp_path_factory, name: str, **env: str) -> Path:
    """One build of the real project per test run, however many test processes ask for it: the first
    builds it (behind a lock shared by every process), the others read it. Tests only read it.
    It runs as the README's command does (not quiet, no MkDocs 2 switch), and what it printed is
    kept beside it (`build_output`)."""
    from filelock import FileLock

    shared = _shared_folder(tmp_path_factory)
    out = shared / f"built-{name}"
    if name != "site":
        # the full build runs every snippet; built first, it leaves their results in the cache, so
        # the other editions (each behind its own lock, side by side) only read them
        _built(tmp_path_factory, "site")
    with FileLock(str(shared / f"site-build-{name}.lock")):
        if not (out / "index.html").is_file():
            scratch = shared / f"building-{name}"
            shutil.rmtree(scratch, ignore_errors=True)
            result = build_site(ROOT, scratch, quiet=False, **{"NO_MKDOCS_2_WARNING": "", **env})
            assert result.returncode == 0, result.stderr
            scratch.rename(out)
            _output_of(out).write_text(result.stdout + result.stderr, encoding="utf-8")
    return out


def _output_of(built: Path) -> Path:
    return built.with_name(built.name + ".out")


def build_output(built: Path) -> str:
    """What the build of a shared site printed."""
    return _output_of(built).read_text(encoding="utf-8")


@pytest.fixture(scope="session")
def site(tmp_path_factory) -> Path:
    return _built(tmp_path_factory, "site")


@pytest.fixture(scope="session")
def offline_site(tmp_path_factory) -> Path:
    return _built(tmp_path_factory, "offline", TRAINWRECK_OFFLINE="true")


@pytest.fixture(scope="session")
def student_site(tmp_path_factory) -> Path:
    return _built(tmp_path_factory, "student", TRAINWRECK_EDITION="student")


def terminal_output(fn, *args, **kwargs) -> str:
    """What a terminal shows while fn runs: prints and warnings, interleaved as they happen,
    each warning location shown once as Python's default filter does."""
    import contextlib
    import io
    import warnings

    def show(message, category, filename, lineno, file=None, line=None):
        buffer.write(warnings.formatwarning(message, category, filename, lineno, line))

    buffer = io.StringIO()
    with contextlib.redirect_stdout(buffer), contextlib.redirect_stderr(buffer), warnings.catch_warnings():
        warnings.simplefilter("default")
        warnings.showwarning = show      # pytest records warnings instead of printing them
        fn(*args, **kwargs)
    return buffer.getvalue().replace(f"{ROOT}/", "")


def site_project(folder: Path) -> Path:
    """A copy of everything the site build reads, to break on purpose."""
    import shutil

    for name in ("catalog", "snippets", "docs", "trainwreck"):
        shutil.copytree(ROOT / name, folder / name, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "mkdocs.yml", folder)
    return folder


def failing_build(folder: Path, relative: str, old: str, new: str) -> tuple[str, Path]:
    """Copy the project, change one file, build: the build must fail cleanly.
    Returns the build's stderr and the changed file, for the test to check the line it expects."""
    site_project(folder)
    path = folder / relative
    text = path.read_text()
    assert old in text, f"fixture drift: {old!r} not in {relative}"
    path.write_text(text.replace(old, new))
    result = build_site(folder, folder / "out")
    assert result.returncode == 1
    assert "Traceback" not in result.stderr
    return result.stderr, path


_program_runs: dict[tuple[str, str], "subprocess.CompletedProcess"] = {}
_program_runs_folder: list[Path] = []       # where every test process of this run keeps its runs


@pytest.fixture(scope="session", autouse=True)
def _shared_program_runs(tmp_path_factory):
    folder = _shared_folder(tmp_path_factory) / "program-runs"
    folder.mkdir(exist_ok=True)
    _program_runs_folder[:] = [folder]


def program_run(code: str, filename: str):
    """Run a program as a reader does: saved as `filename` in an empty folder and run there as
    `python filename`, stdout and stderr interleaved as a terminal shows them, the folder's path
    taken out of what it prints. Each distinct program runs once per test run, however many test
    processes ask for it (the programs are deterministic)."""
    import hashlib
    import json
    import subprocess

    from filelock import FileLock

    key = (filename, code)
    if key in _program_runs:
        return _program_runs[key]
    kept = _program_runs_folder[0] / (hashlib.sha256(f"{filename}\0{code}".encode()).hexdigest() + ".json")
    with FileLock(str(kept) + ".lock"):
        if kept.is_file():
            saved = json.loads(kept.read_text(encoding="utf-8"))
            run = subprocess.CompletedProcess(saved["args"], saved["returncode"], saved["stdout"])
        else:
            run = _run_program(code, filename)
            kept.write_text(json.dumps({"args": run.args, "returncode": run.returncode, "stdout": run.stdout}),
                            encoding="utf-8")
    _program_runs[key] = run
    return run


def _run_program(code: str, filename: str):
    import subprocess
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        Path(folder, filename).write_text(code, encoding="utf-8")
        env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHONWARNINGS")}
        run = subprocess.run(
            [sys.executable, filename], cwd=folder, env={**numeric_env.environ(env), "PYTHONUNBUFFERED": "1"},
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=120)
        run.stdout = run.stdout.replace(f"{Path(folder).resolve()}{os.sep}", "").replace(f"{folder}{os.sep}", "")
    return run


def tab_program_run(snippet: str, region: str):
    """Run the program of one tab (setup + region), as its own file in an empty folder."""
    from trainwreck.snippet_sections import tab_file, tab_program

    return program_run(tab_program((ROOT / snippet).read_text(encoding="utf-8"), region), tab_file(snippet, region))

