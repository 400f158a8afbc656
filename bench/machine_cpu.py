"""The CPU time the whole machine has spent, for benchmarks whose work runs in processes they do not wait for
themselves (Chromium's renderers, the test command's workers): read from /proc/stat, so Linux only."""
from __future__ import annotations

import os
import sys
from pathlib import Path

STAT = Path("/proc/stat")


def busy_seconds() -> float:
    """CPU-seconds every process of the machine has spent so far (user, nice, system, irq, softirq)."""
    with STAT.open(encoding="ascii") as stat:
        fields = [int(x) for x in stat.readline().split()[1:8]]
    return (sum(fields) - fields[3] - fields[4]) / os.sysconf("SC_CLK_TCK")


def require(program: str) -> None:
    """Exit in one line where the machine has no /proc/stat to read."""
    if not STAT.is_file():
        sys.exit(f"{program} reads the machine's CPU time from /proc/stat (Linux only)")
