"""The tuning table's fingerprint (bench/diagnose_tuning.py) hashes the engine's source, so that a change to any module
the engine runs makes the table out of date. Runs without the development set."""
import subprocess
import sys
from pathlib import Path

from conftest import ROOT, load_module


def test_the_tuning_fingerprint_covers_every_module_diagnosing_imports():
    """Every module of the package that importing the engine loads (in a process of its own, so the test's other
    imports do not count) must be among the fingerprint's files."""
    tuning = load_module(ROOT / "bench" / "diagnose_tuning.py", "diagnose_tuning")
    loaded = subprocess.run(
        [sys.executable, "-c", "import sys, trainwreck.diagnose; print('\\n'.join(m.__file__ for n, m in sys.modules.items() "
                               "if n.startswith('trainwreck') and getattr(m, '__file__', None)))"],
        cwd=ROOT, capture_output=True, text=True, check=True).stdout.split()
    files = set(tuning.engine_files())
    missing = [f for f in loaded if str(Path(f).resolve().relative_to(ROOT)) not in files]
    assert len(loaded) > 40 and "trainwreck/split_gap.py" in files and missing == []
