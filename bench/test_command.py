"""The README's test command from a clean clone, as CI runs it, optionally side by side with another commit.

Each run clones the repository at a commit into a new folder and runs `bash .ci/run` there (which runs exactly the
README's test command: a new virtual environment, the package installed with uv, then pytest), with uv's and pip's
caches empty and Python's bytecode caches allowed, as on a fresh machine. Chromium must already be installed (.ci/run
installs it when run as root; that step is not timed here). It prints each run's wall time, the time pytest reports
for the tests alone, the CPU time the whole machine spent meanwhile (from /proc/stat), and the test counts. With
--baseline the two commits run alternately, so that a machine whose speed drifts within the hour weighs on both: the
ratio of their wall times is the figure that compares across machines. The target is under 90 s on a 2-core machine.

Only committed code is measured (a clone holds no uncommitted change).

    python bench/test_command.py [--commit HEAD] [--baseline COMMIT] [--rounds 1]
"""
from __future__ import annotations

import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from machine_cpu import busy_seconds, require  # (bench/ is the script's own folder)

ROOT = Path(__file__).resolve().parent.parent
SUMMARY = re.compile(r"=+ (.*?) in ([\d.]+)s")


def resolve(commit: str) -> str:
    run = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", commit], capture_output=True, text=True)
    if run.returncode:
        sys.exit(f"test_command.py: {commit!r} is not a commit of {ROOT}")
    return run.stdout.strip()


def run_once(commit: str) -> dict:
    with tempfile.TemporaryDirectory(prefix="tw-test-command-") as scratch:
        clone = Path(scratch) / "clone"
        subprocess.run(["git", "clone", "-q", str(ROOT), str(clone)], check=True)
        subprocess.run(["git", "-C", str(clone), "checkout", "-q", commit], check=True)
        env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        env.update(UV_CACHE_DIR=str(Path(scratch) / "uv-cache"), PIP_CACHE_DIR=str(Path(scratch) / "pip-cache"))
        wall, busy = time.perf_counter(), busy_seconds()
        run = subprocess.run(["bash", ".ci/run"], cwd=clone, env=env, capture_output=True, text=True)
        wall, busy = time.perf_counter() - wall, busy_seconds() - busy
    summary = SUMMARY.findall(run.stdout)
    if run.returncode or not summary:
        sys.exit(f"test_command.py: .ci/run failed on {commit} (exit {run.returncode}):\n"
                 f"{(run.stdout + run.stderr)[-3000:]}")
    counts, tests = summary[-1]
    return {"commit": commit, "wall": wall, "tests": float(tests), "busy": busy, "counts": counts}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--commit", default="HEAD")
    parser.add_argument("--baseline")
    parser.add_argument("--rounds", type=int, default=1)
    args = parser.parse_args()
    require("test_command.py")
    if not (shutil.which("chromium-headless-shell") or shutil.which("chromium")):
        sys.exit("test_command.py: install Chromium first (apt-get install chromium-headless-shell): the browser "
                 "tests would be skipped and the figure would not be the test command's")
    commits = [resolve(args.commit)] + ([resolve(args.baseline)] if args.baseline else [])
    runs: dict[str, list[dict]] = {commit: [] for commit in commits}
    for _ in range(args.rounds):
        for commit in commits:
            result = run_once(commit)
            runs[commit].append(result)
            print(f"{commit}  {result['wall']:6.1f} s  (tests {result['tests']:5.1f} s, machine CPU "
                  f"{result['busy']:6.1f} s)  {result['counts']}", flush=True)
    if args.baseline:
        new, old = (statistics.median(r["wall"] for r in runs[commit]) for commit in commits)
        print(f"median wall: {commits[0]} {new:.1f} s, {commits[1]} {old:.1f} s: {new / old:.3f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
