import importlib.util
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


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


def assert_entry_says(entry_id: str, claims: list[str]) -> None:
    """Each claim, computed from a snippet run, must appear word for word in the entry."""
    body = entry_prose(entry_id)
    missing = [claim for claim in claims if claim not in body]
    assert not missing, f"{entry_id} should say: {missing}"


def build_site(project: Path, out: Path, **env: str):
    """The real `mkdocs build --strict`, as a user runs it, into out."""
    import os
    import subprocess

    full_env = {"PATH": str(Path(sys.executable).parent) + os.pathsep + os.environ.get("PATH", ""),
                "NO_MKDOCS_2_WARNING": "1", **env}
    return subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-q", "-d", str(out)],
        cwd=project, capture_output=True, text=True, env=full_env,
    )


def _built(tmp_path_factory, name: str, **env: str) -> Path:
    out = tmp_path_factory.mktemp(name)
    result = build_site(ROOT, out, **env)
    assert result.returncode == 0, result.stderr
    return out


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


ONE_THREAD = {"OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}
_program_runs: dict[tuple[str, str], "subprocess.CompletedProcess"] = {}


def tab_program_run(snippet: str, region: str):
    """Run the program a reader copies from a tab (setup + region) as its own file in an empty
    folder, as `python prog.py` with stdout and stderr interleaved. Runs once per session."""
    import os
    import subprocess
    import tempfile

    from trainwreck.snippet_sections import tab_program

    key = (snippet, region)
    if key not in _program_runs:
        code = tab_program((ROOT / snippet).read_text(encoding="utf-8"), region)
        with tempfile.TemporaryDirectory() as folder:
            Path(folder, f"{region}.py").write_text(code, encoding="utf-8")
            env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHONWARNINGS")}
            _program_runs[key] = subprocess.run(
                [sys.executable, f"{region}.py"], cwd=folder, env={**env, **ONE_THREAD},
                stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=60)
    return _program_runs[key]


def is_tab_program(snippet: str, region: str) -> bool:
    """Has the snippet's region been written as a program that runs (it ends in a __main__ block)?"""
    from trainwreck.snippet_sections import sections_of

    regions = sections_of((ROOT / snippet).read_text(encoding="utf-8"))
    return 'if __name__ == "__main__":' in regions.get(region, "")
