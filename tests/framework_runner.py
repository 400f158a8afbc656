"""Running a small program in a real framework's interpreter, for the opt-in framework tier.

The scratch interpreters live at /work/scratch/<name>/bin/python (torch, tf, jax, sklearn); TRAINWRECK_<NAME>_PYTHON
moves one. A test that needs a missing interpreter is skipped with the path it looked for.
"""
import json
import os
import subprocess
import textwrap
from pathlib import Path

import pytest

from conftest import ROOT

ENABLED = os.environ.get("TRAINWRECK_FRAMEWORK_TESTS") == "1"
OPT_IN = pytest.mark.skipif(not ENABLED, reason="framework checks are opt-in: set TRAINWRECK_FRAMEWORK_TESTS=1")
QUIET = {"JAX_PLATFORMS": "cpu", "TF_CPP_MIN_LOG_LEVEL": "3", "PYTHONWARNINGS": ""}


def interpreter(name: str) -> str:
    path = os.environ.get(f"TRAINWRECK_{name.upper()}_PYTHON", f"/work/scratch/{name}/bin/python")
    if not Path(path).is_file():
        pytest.skip(f"no {name} interpreter at {path} (set TRAINWRECK_{name.upper()}_PYTHON)")
    return path


def run(name: str, program: str, **env: str) -> dict:
    """Run the program in the framework's interpreter; it prints one JSON object on its last line."""
    result = subprocess.run([interpreter(name), "-c", textwrap.dedent(program)], capture_output=True, text=True,
                            timeout=300, env={**os.environ, **QUIET, **env}, cwd=ROOT)
    assert result.returncode == 0, result.stderr[-3000:]
    return json.loads(result.stdout.strip().splitlines()[-1])


# Keras 3 runs on either backend; each lives in its own scratch interpreter.
KERAS_INTERPRETER = {"tensorflow": "tf", "jax": "jax"}


def keras(backend: str, program: str, **env: str) -> dict:
    """Run a Keras 3 program on `backend` ("tensorflow" or "jax"), in the interpreter that has it."""
    return run(KERAS_INTERPRETER[backend], program, KERAS_BACKEND=backend, **env)


def declared(entry_id: str, origin: str):
    """The messages an entry declares as printed by one origin (pytorch, keras, ...), in order."""
    from trainwreck.catalog import load

    found = [m for m in load(ROOT / "catalog").entries[entry_id].messages if m.origin == origin]
    assert found, f"{entry_id} declares no {origin} message"
    return found


def source_line(name: str, relative: str, line: int) -> str:
    """One line of a file of the installed package, whose line numbers are those of the tag it cites."""
    return run(name, f"""
        import json, sysconfig
        path = sysconfig.get_paths()["purelib"] + "/" + {relative!r}
        print(json.dumps({{"line": open(path, encoding="utf-8").read().splitlines()[{line - 1}]}}))
    """)["line"]


def check_cited_line(entry_id: str, name: str, relative: str, line: int, text: str, url: str) -> None:
    """The line an entry cites holds, in the installed package, the text it is cited for, and the
    entry's page gives that citation."""
    from conftest import assert_entry_says

    assert text in source_line(name, relative, line)
    assert_entry_says(entry_id, [url])
