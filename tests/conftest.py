import importlib.util
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def load_snippet(name: str):
    """Import snippets/<name>.py as a module, the file a student would run."""
    path = ROOT / "snippets" / f"{name}.py"
    spec = importlib.util.spec_from_file_location(f"snippet_{name}", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


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
