"""How long the real catalogue takes to build cold, against what it cannot do without.

Measured side by side in one run, so a busy machine weighs on every figure alike:

- snippets, one after another: `python snippets/x.py` for every entry's snippet, one at a
  time, pinned to one core, one BLAS thread (what the build must at least do, without
  parallelism);
- warm build: `mkdocs build` with every snippet result in the cache;
- cold build: `mkdocs build` with an empty cache (every snippet run and drawn);
- serve: `mkdocs serve` with an empty cache, until the home page answers.

The target is cold <= 1.5 x (snippets one after another + warm build), and serve < 15 s.

    python bench/site_build.py [--rounds 2]
"""
from __future__ import annotations

import argparse
import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def snippets() -> list[str]:
    sys.path.insert(0, str(ROOT))
    from trainwreck.validate import check

    catalog, _ = check(ROOT / "catalog")
    return [e.snippet for e in catalog.sorted_entries()]


def one_after_another(paths: list[str]) -> float:
    sys.path.insert(0, str(ROOT))
    from trainwreck import numeric_env

    env = numeric_env.environ()
    core = min(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else None
    pin = (lambda: os.sched_setaffinity(0, {core})) if core is not None else None
    start = time.perf_counter()
    for path in paths:
        subprocess.run([sys.executable, path], cwd=ROOT, env=env, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL, check=True, preexec_fn=pin)
    return time.perf_counter() - start


def build(cache: Path, out: Path) -> float:
    env = {**os.environ, "TRAINWRECK_CACHE": str(cache)}
    start = time.perf_counter()
    result = subprocess.run([sys.executable, "-m", "mkdocs", "build", "-q", "-d", str(out)], cwd=ROOT, env=env,
                            capture_output=True, text=True)
    if result.returncode:
        sys.exit(f"build failed:\n{result.stderr[-2000:]}")
    return time.perf_counter() - start


def serve_until_it_answers(cache: Path) -> float:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    env = {**os.environ, "TRAINWRECK_CACHE": str(cache)}
    start = time.perf_counter()
    server = subprocess.Popen([sys.executable, "-m", "mkdocs", "serve", "-a", f"127.0.0.1:{port}"], cwd=ROOT, env=env,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        while time.perf_counter() - start < 300:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=1) as reply:
                    if reply.status == 200:
                        return time.perf_counter() - start
            except OSError:
                time.sleep(0.1)
        sys.exit("mkdocs serve did not answer within 300 s")
    finally:
        server.terminate()
        server.wait(10)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=2, help="rounds; each figure is the best of them")
    rounds = parser.parse_args().rounds
    paths = snippets()
    best: dict[str, float] = {}
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        for r in range(rounds):
            cache = tmp / f"cache{r}"
            figures = {
                "cold build": build(cache, tmp / "site"),
                "warm build": build(cache, tmp / "site"),
                "snippets one after another": one_after_another(paths),
                "serve, first answer (cold)": serve_until_it_answers(tmp / f"serve-cache{r}"),
            }
            for name, seconds in figures.items():
                best[name] = min(best.get(name, seconds), seconds)
    print(f"{len(paths)} entries, {os.cpu_count()} cores, best of {rounds} round(s)")
    for name, seconds in best.items():
        print(f"{name:30s} {seconds:6.2f} s")
    floor = best["snippets one after another"] + best["warm build"]
    print(f"\ncold build / (snippets one after another + warm build): {best['cold build'] / floor:.2f} (target <= 1.5)")
    print(f"serve answers after {best['serve, first answer (cold)']:.1f} s (target < 15)")


if __name__ == "__main__":
    main()
