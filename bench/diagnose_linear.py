"""`trainwreck diagnose` stays linear and bounded on logs full of distinct messages.

Writes two logs in which every other line is a message no other line repeats
(a warning naming a different layer each time) and the rest are loss lines:
100k lines (50k distinct messages) and 1M lines (500k distinct messages). Runs
`diagnose` on each in this one run, best of three, and reports CPU time and
peak memory: a linear scan takes about 10x the time on 10x the lines, and a bounded
one about the same memory.

    python bench/diagnose_linear.py
"""
from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path

# CPU time (user + system) rather than wall time: the machine may be shared, and CPU time
# is what the scan itself costs.
PROBE = ("import resource, subprocess, sys; "
         "subprocess.run([sys.executable, '-m', 'trainwreck', 'diagnose', sys.argv[1]], stdout=subprocess.DEVNULL, "
         "check=True); r = resource.getrusage(resource.RUSAGE_CHILDREN); print(r.ru_utime + r.ru_stime, r.ru_maxrss)")


def name(i: int) -> str:
    """A different word for each i: base 26."""
    out = ""
    while True:
        i, r = divmod(i, 26)
        out += chr(97 + r)
        if not i:
            return out


def write_log(path: Path, lines: int) -> None:
    with path.open("w") as f:
        for i in range(lines // 2):
            f.write(f"step {i} loss {0.7 * 0.99999 ** i:.5f}\n")
            f.write(f"UserWarning: layer {name(i)} has no initialiser, using the default\n")


def measure(path: Path, runs: int = 3) -> tuple[float, int]:
    best_time, peak = float("inf"), 0
    for _ in range(runs):
        out = subprocess.run([sys.executable, "-c", PROBE, str(path)], capture_output=True, text=True, check=True)
        seconds, rss = out.stdout.split()
        best_time, peak = min(best_time, float(seconds)), max(peak, int(rss))
    return best_time, peak


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        rows = []
        for lines in (2, 100_000, 1_000_000):
            path = Path(tmp) / f"{lines}.log"
            write_log(path, lines)
            rows.append((lines, path.stat().st_size, *measure(path)))
    (_, _, start, _), (n0, s0, t0, m0), (n1, s1, t1, m1) = rows
    print(f"startup (a two-line log): {start:.2f} s CPU")
    for n, size, t, m in rows[1:]:
        print(f"{n:>9,} lines ({n // 2:,} distinct messages, {size / 1e6:5.1f} MB): {t:6.2f} s CPU, "
              f"peak {m / 1024:6.1f} MB")
    print(f"10x the lines: {t1 / t0:.1f}x the time in all, {(t1 - start) / (t0 - start):.1f}x the time past startup "
          f"(linear: about 10); {m1 / m0:.2f}x the peak memory (bounded: about 1)")


if __name__ == "__main__":
    main()
