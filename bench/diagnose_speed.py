"""Throughput of `trainwreck diagnose` against `grep -c loss` on the same large log.

Writes a Keras-style log of the given size (default 500 MB) to a temporary
folder, then times both commands on it in this one run, best of three each
(the file is in the page cache after the first read).

    python bench/diagnose_speed.py [--mb 500]
"""
from __future__ import annotations

import argparse
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


def best_of(command: list[str], runs: int = 3) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        # a pipe, not /dev/null: GNU grep stops at the first match when it sees /dev/null
        subprocess.run(command, stdout=subprocess.PIPE, check=False)
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--mb", type=int, default=500)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        log = Path(tmp) / "train.log"
        size = write_log(log, args.mb)
        grep = best_of(["grep", "-c", "loss", str(log)])
        ours = best_of([sys.executable, "-m", "trainwreck", "diagnose", str(log)])
    mb = size / 1e6
    print(f"log: {mb:.0f} MB")
    print(f"grep -c loss          {grep:6.2f} s  {mb / grep:7.0f} MB/s")
    print(f"trainwreck diagnose   {ours:6.2f} s  {mb / ours:7.0f} MB/s")
    print(f"diagnose / grep: {ours / grep:.2f}x (target: within 5x)")


if __name__ == "__main__":
    main()
