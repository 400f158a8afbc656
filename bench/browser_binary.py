"""The browser tests in Chromium's headless shell against the full browser, side by side.

tests/test_browser.py drives whichever Chromium it finds first (find_chromium): Debian's chromium-headless-shell
where it is installed (.ci/run installs it), else the full `chromium`. Both are built from the same source at the
same version; the shell is Chromium's own build for automation, without the browser's UI and services. This runs
the browser tests in each, alternately, and prints each run's wall time and the CPU time it cost the machine (all
its processes, Chromium's renderers among them, read from /proc/stat: the test command is bound by the machine's
two cores, so CPU time is what one browser or the other takes from the rest of the tests).

Each run builds the site and its offline edition as the tests do, so both figures carry the same builds.

    python bench/browser_binary.py [--rounds 2]
"""
from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

from machine_cpu import busy_seconds, require  # (bench/ is the script's own folder)

ROOT = Path(__file__).resolve().parent.parent
BINARIES = {"headless shell": "chromium-headless-shell", "full browser": "chromium"}


def run_tests(binary: str) -> tuple[float, float]:
    env = {**os.environ, "TRAINWRECK_CHROMIUM": binary}
    wall, busy = time.perf_counter(), busy_seconds()
    result = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:xdist",
                             "-o", "addopts=", "tests/test_browser.py"], cwd=ROOT, env=env, capture_output=True,
                            text=True)
    wall, busy = time.perf_counter() - wall, busy_seconds() - busy
    if result.returncode or " passed" not in result.stdout or "skipped" in result.stdout:
        sys.exit(f"the browser tests did not all pass in {binary}:\n{result.stdout[-2000:]}")
    return wall, busy


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args()
    require("browser_binary.py")
    found = {name: shutil.which(program) for name, program in BINARIES.items()}
    if not all(found.values()):
        sys.exit("install both Debian packages: apt-get install chromium-headless-shell chromium")
    figures: dict[str, list[tuple[float, float]]] = {name: [] for name in found}
    for _ in range(args.rounds):
        for name, binary in found.items():
            figures[name].append(run_tests(binary))
            print(f"{name:15} wall {figures[name][-1][0]:5.1f} s   CPU {figures[name][-1][1]:5.1f} s", flush=True)
    shell, full = (statistics.median(b for _, b in figures[name]) for name in BINARIES)
    print(f"median CPU: headless shell {shell:.1f} s, full browser {full:.1f} s: the shell takes {shell / full:.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
