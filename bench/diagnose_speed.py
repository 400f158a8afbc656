"""Throughput of `trainwreck diagnose` against `grep -c loss` on the same large log.

Writes a Keras-style log of the given size (default 500 MB) to a temporary
folder, then times both commands on it in this one run, alternating, best of
three each (the file is in the page cache after the first read). Wall time is
what a user waits; CPU time (user + system, all processes) is steadier on a
shared machine, and diagnose spends it on several cores for a large file.

    python bench/diagnose_speed.py [--mb 500] [--baseline /work/main]

With --baseline, the `diagnose` of another checkout (say main, before a change) is timed in the
same rounds, so a change's cost is a ratio measured side by side rather than two runs compared
across a shared machine's changing load.
"""
from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np


def write_log(path: Path, megabytes: int) -> int:
    rng = np.random.default_rng(0)
    epochs = 20_000
    loss = 0.7 * np.exp(-np.arange(epochs) / 5000) + 0.01 * rng.random(epochs)
    block = "".join(
        f"Epoch {e + 1}/{epochs}\n32/32 [==============================] - 0s 2ms/step - loss: {v:.4f} "
        f"- accuracy: 0.{5000 + e % 4999:04d} - val_loss: {v * 1.1:.4f} - val_accuracy: 0.5000\n"
        for e, v in enumerate(loss)).encode()
    written = 0
    with path.open("wb") as f:
        while written < megabytes * 1_000_000:
            f.write(block)
            written += len(block)
    return written


def timed(command: list[str], cwd: str | None = None) -> tuple[float, float]:
    """Wall and CPU seconds of one run."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    # a pipe, not /dev/null: GNU grep stops at the first match when it sees /dev/null
    subprocess.run(command, stdout=subprocess.PIPE, check=False, cwd=cwd,
                   env={**os.environ, "PYTHONPATH": cwd} if cwd else None)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--mb", type=int, default=500)
    parser.add_argument("--baseline", type=Path, help="another checkout whose diagnose is timed alongside")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        log = Path(tmp) / "train.log"
        size = write_log(log, args.mb)
        commands = {"grep": ["grep", "-c", "loss", str(log)],
                    "diagnose": [sys.executable, "-m", "trainwreck", "diagnose", str(log)]}
        # this checkout's package, whatever the folder the bench is started from
        where = {"grep": None, "diagnose": str(Path(__file__).resolve().parent.parent)}
        if args.baseline:
            commands["baseline"] = commands["diagnose"]
            where["baseline"] = str(args.baseline.resolve())
        runs = {name: [] for name in commands}
        load_before = os.getloadavg()[0]
        for _ in range(3):
            for name, command in commands.items():
                runs[name].append(timed(command, where[name]))
    best = {name: (min(w for w, _ in r), min(c for _, c in r)) for name, r in runs.items()}
    (grep_wall, grep_cpu), (ours_wall, ours_cpu) = best["grep"], best["diagnose"]
    mb = size / 1e6
    # other work on the machine takes cores from both commands, from diagnose's parallel readers most
    print(f"log: {mb:.0f} MB, {os.cpu_count()} core(s), load average {load_before:.1f} before the runs, "
          f"{os.getloadavg()[0]:.1f} after")
    print(f"grep -c loss          {grep_wall:6.2f} s wall  {grep_cpu:6.2f} s CPU  {mb / grep_wall:7.0f} MB/s")
    print(f"trainwreck diagnose   {ours_wall:6.2f} s wall  {ours_cpu:6.2f} s CPU  {mb / ours_wall:7.0f} MB/s")
    print(f"diagnose / grep: {ours_wall / grep_wall:.2f}x wall (target: within 5x), {ours_cpu / grep_cpu:.2f}x CPU")
    if args.baseline:
        base_wall, base_cpu = best["baseline"]
        print(f"baseline ({args.baseline})  {base_wall:6.2f} s wall  {base_cpu:6.2f} s CPU")
        print(f"diagnose / baseline: {ours_wall / base_wall:.3f}x wall, {ours_cpu / base_cpu:.3f}x CPU")


if __name__ == "__main__":
    main()
