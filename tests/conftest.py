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
