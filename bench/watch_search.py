"""The search that chooses the per-step watch's parameters, on the tuning seeds only.

    python bench/watch_search.py            # search, check, print the best settings
    python bench/watch_search.py --write    # the same, and store the result in bench/watch_search.json

The family is the one docs/watch-benchmark.md describes: a fast moving average of the log-loss (weight
`smoothing`) at `factor` times the first loss, OR a slow one (weight `slow`) that stays at `rise` times its
lowest and `floor` times the first loss for `hold` steps in a row (trainwreck/watch_rule.py). Every setting
of GRID is scored on the mini-batch sweep's tuning seeds, trained as bench/watch_bench.py trains them, and
classed and scored with its definitions (watch_runs.outcome, LEAD, SUSTAINED; watch_bench.score_steps).

Selection: keep the settings that fire on no healthy run and on under 5% (strictly) of the recovered ones;
take the one that warns on the most slow climbs at least LEAD steps ahead; ties go to more divergences
warned, then fewer recovered runs fired on, then the setting closest to EARLIER (the sum over the six
parameters of |log(value / earlier value)|), then the smaller parameters in GRID's order. The scoring
seeds are never read.

The rule is evaluated on the whole (steps x runs) matrix at once (bench/watch_grid.py); before it reports,
the script checks that this gives step_alarm's index on every tuning run for the chosen setting, the
stored constants and EARLIER.
"""
from __future__ import annotations

import argparse
import json
import math
import sys
import time
from pathlib import Path

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH))

import watch_bench as bench  # noqa: E402  (applies the numeric environment before NumPy loads)
import watch_grid  # noqa: E402

import numpy as np  # noqa: E402

from trainwreck import watch_rule  # noqa: E402

runs = bench.runs
RESULT = BENCH / "watch_search.json"
NAMES = ("smoothing", "factor", "slow", "rise", "floor", "hold")
# Written out value by value so that each is the literal a constant would hold (0.3, not 0.1 * 3).
GRID = {
    "smoothing": [0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.4, 0.5],
    "factor": [1.2, 1.4, 1.6, 1.8, 2.0, 2.2, 2.4, 2.6, 2.8, 3.0],
    "slow": [0.02, 0.03, 0.05, 0.07, 0.1],
    "rise": [1.5, 2.0, 2.5, 3.0, 3.5, 4.0],
    "floor": [0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8],
    "hold": [1, 10, 20, 30, 40, 50, 60, 70, 80, 90, 100, 110, 120],
}
# What the earlier search, whose scripts were not kept, chose: the anchor of the last tie-break.
EARLIER = tuple(runs.EARLIER_STEP[name] for name in NAMES)
TOP = 10
FIGURES = ("warned_slow", "warned", "fired_healthy", "fired_recovered", "fired_stuck")


def stored_constants() -> tuple:
    return (watch_rule.STEP_SMOOTHING, watch_rule.STEP_FACTOR, watch_rule.STEP_SLOW, watch_rule.STEP_RISE,
            watch_rule.STEP_FLOOR, watch_rule.STEP_HOLD)


# --- the selection -----------------------------------------------------------
def passes(figures: dict, recovered: int) -> bool:
    """No false alarm on a healthy run, and under 5% of the recovered runs fired on (in integers: 5% of
    280 is 14, and 14 is not under it)."""
    return figures["fired_healthy"] == 0 and 20 * figures["fired_recovered"] < recovered


def distance(params) -> float:
    return sum(abs(math.log(p / q)) for p, q in zip(params, EARLIER))


def rank(setting: dict) -> tuple:
    """Sort key: the first setting in this order, among those that pass, is the choice."""
    return (-setting["warned_slow"], -setting["warned"], setting["fired_recovered"],
            distance(setting["params"]), tuple(setting["params"]))


def choose(settings: list[dict], recovered: int) -> list[dict]:
    """The settings that pass, best first."""
    return sorted((s for s in settings if passes(s, recovered)), key=rank)


# --- the runs ------------------------------------------------------------------
def tuning_runs() -> list:
    return [(task, s, seed) for task in runs.TASKS for s in runs.STEP_SIZES for seed in runs.TUNING_SEEDS]


def base_rows(traces: dict) -> list[dict]:
    """Each run as watch_bench scores it, with every rule silent: a setting's alarms go in 'watch'."""
    rows = []
    for (task, s, seed), trace in traces.items():
        kind, bad, climb, peak = runs.outcome(trace)
        rows.append({"activation": task.activation, "momentum": task.momentum, "batch": task.batch,
                     "step_size": s, "seed": seed, "class": kind, "first_nonfinite": bad, "climb": climb,
                     "peak": peak, **dict.fromkeys(bench.STEP_RULES)})
    return rows


def bench_figures(rows: list[dict], alarms: np.ndarray, steps: int) -> dict:
    """watch_bench's own scoring of one setting's alarms."""
    scored = [{**row, "watch": None if a == steps else int(a)} for row, a in zip(rows, alarms)]
    return bench.score_steps(scored)["rules"]["watch"]


# --- the grid -------------------------------------------------------------------
class Grid:
    """Every setting's alarms on the tuning runs: the fast rules' and the slow rules' apart, met on demand."""

    def __init__(self, traces: watch_grid.Traces):
        self.traces = traces
        self.fast = np.stack([watch_grid.fast_alarms(traces, w, GRID["factor"]) for w in GRID["smoothing"]])
        self.slow = np.stack([watch_grid.slow_alarms(traces, w, GRID["rise"], GRID["floor"], GRID["hold"])
                              for w in GRID["slow"]])

    def alarms(self, params) -> np.ndarray:
        if not all(p in GRID[name] for name, p in zip(NAMES, params)):
            return watch_grid.alarm(self.traces, *params)
        a, f, b, r, lo, h = (GRID[name].index(p) for name, p in zip(NAMES, params))
        return np.minimum(self.fast[a, f], self.slow[b, r, lo, h])

    def score(self, rows: list[dict]) -> dict[str, np.ndarray]:
        """Each figure for every setting, shaped like the grid (smoothing x factor x slow x ... x hold)."""
        kind = np.array([r["class"] for r in rows])
        bad = np.array([-1 if r["first_nonfinite"] is None else r["first_nonfinite"] for r in rows])
        diverged = kind == "diverged"
        slow = diverged & (np.array([r["climb"] for r in rows]) >= runs.SUSTAINED)
        groups = {"healthy": kind == "healthy", "recovered": kind == "recovered", "stuck": kind == "stuck"}
        slow_rules = self.slow.reshape(-1, self.traces.runs)
        out = {name: np.empty(self.fast.shape[:2] + (len(slow_rules),), np.int64) for name in FIGURES}
        for a, f in np.ndindex(*self.fast.shape[:2]):
            alarms = np.minimum(self.fast[a, f], slow_rules)
            warned = (bad - alarms >= runs.LEAD) & diverged     # watch_bench.lead(run) >= LEAD
            out["warned"][a, f] = warned.sum(1)
            out["warned_slow"][a, f] = (warned & slow).sum(1)
            for name, group in groups.items():
                out[f"fired_{name}"][a, f] = (alarms[:, group] < self.traces.steps).sum(1)
        return {name: v.reshape(tuple(len(GRID[n]) for n in NAMES)) for name, v in out.items()}


def settings_of(figures: dict[str, np.ndarray]) -> list[dict]:
    return [{"params": [GRID[name][i] for name, i in zip(NAMES, index)],
             **{name: int(figures[name][index]) for name in FIGURES}}
            for index in np.ndindex(*figures["warned"].shape)]


# --- the checks ----------------------------------------------------------------
def check_against_step_alarm(grid: Grid, traces: dict, settings) -> None:
    values = [[float(v) for v in trace] for trace in traces.values()]
    for params in settings:
        mine = grid.alarms(params)
        theirs = [watch_rule.step_alarm(v, *params) for v in values]
        wrong = [i for i, (a, b) in enumerate(zip(mine, theirs)) if (None if a == grid.traces.steps else a) != b]
        assert not wrong, f"{params}: the grid and step_alarm differ on {len(wrong)} runs, the first {wrong[0]}"


def check_against_stored(rows: list[dict], alarms: np.ndarray, steps: int) -> str:
    """The stored tuning rows, where they come from the code as it is, must be these runs."""
    stored = bench.load()
    if "steps" in bench.stale(stored):
        return "the stored runs are out of date: not compared"
    keys = ("class", "first_nonfinite", "climb", "peak")
    by_run = {tuple(r[k] for k in ("activation", "momentum", "batch", "step_size", "seed")): r
              for r in bench.records(stored, "steps")}
    for row, a in zip(rows, alarms):
        old = by_run[(row["activation"], row["momentum"], row["batch"], row["step_size"], row["seed"])]
        assert all(old[k] == row[k] for k in keys), (row, old)
        assert old["watch"] == (None if a == steps else int(a)), (row, old)
    return f"the {len(rows)} stored tuning rows agree"


# --- the report -------------------------------------------------------------------
def line(label: str, s: dict, totals: dict) -> str:
    params = " ".join(f"{p:g}" for p in s["params"])
    c = totals["counts"]
    return (f"{label:9} {params:28} slow {s['warned_slow']:2}/{totals['slow']}  "
            f"diverged {s['warned']:3}/{totals['diverged']}  healthy {s['fired_healthy']:3}/{c['healthy']}  "
            f"recovered {s['fired_recovered']:3}/{c['recovered']}  stuck {s['fired_stuck']:2}/{c['stuck']}")


def search() -> dict:
    started = time.perf_counter()
    traces = runs.step_traces(tuning_runs())
    trained = time.perf_counter()
    rows = base_rows(traces)
    matrix = watch_grid.Traces(np.stack(list(traces.values())))
    grid = Grid(matrix)
    settings = settings_of(grid.score(rows))
    totals = bench.score_steps(rows)
    recovered = totals["counts"]["recovered"]
    ranked = choose(settings, recovered)
    by_params = {tuple(s["params"]): s for s in settings}
    chosen = ranked[0] if ranked else None
    named = {"chosen": chosen, "stored": by_params.get(stored_constants()), "earlier": by_params[EARLIER]}
    checked = [tuple(s["params"]) for s in named.values() if s is not None]
    check_against_step_alarm(grid, traces, dict.fromkeys(checked))
    for s in [*named.values(), *ranked[:TOP]]:
        if s is not None:       # the grid's counts are watch_bench's figures
            theirs = bench_figures(rows, grid.alarms(s["params"]), matrix.steps)
            assert {k: theirs[k] for k in FIGURES} == {k: s[k] for k in FIGURES}, s
    stored_note = check_against_stored(rows, grid.alarms(stored_constants()), matrix.steps)
    result = {
        "seeds": [runs.TUNING_SEEDS.start, runs.TUNING_SEEDS.stop - 1],
        "runs": totals["runs"], "counts": totals["counts"], "diverged": totals["diverged"], "slow": totals["slow"],
        "grid": GRID, "settings": len(settings), "passed": len(ranked),
        "tied": sum(rank(s)[:3] == rank(chosen)[:3] for s in ranked) if chosen else 0,
        "chosen": chosen, "earlier": {**by_params[EARLIER], "passes": passes(by_params[EARLIER], recovered)},
        "top": ranked[:TOP],
    }
    print(f"{len(settings)} settings on {totals['runs']} tuning runs (seeds {result['seeds'][0]}-"
          f"{result['seeds'][1]}); {len(ranked)} pass the filter, {result['tied']} tie with the best on the "
          f"three figures; {stored_note}")
    for i, s in enumerate(ranked[:5]):
        print(line(f"#{i + 1}", s, totals))
    for label, s in named.items():
        if s is not None:
            print(line(label, s, totals) + ("" if passes(s, recovered) else "  (fails the filter)"))
    print(f"training {trained - started:.0f} s, the rest {time.perf_counter() - trained:.0f} s", file=sys.stderr)
    return result


def save(result: dict) -> None:
    """One setting per line, so a rerun's diff shows what moved."""
    lines = ["{"]
    items = list(result.items())
    for i, (key, value) in enumerate(items):
        end = "," if i < len(items) - 1 else ""
        if key == "top":
            lines.append('"top": [\n' + ",\n".join(json.dumps(s) for s in value) + "\n]" + end)
        else:
            lines.append(f"{json.dumps(key)}: {json.dumps(value)}{end}")
    lines.append("}")
    RESULT.write_text("\n".join(lines) + "\n")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true", help=f"store the result in {RESULT.name}")
    args = parser.parse_args()
    result = search()
    if args.write:
        save(result)
        print(f"wrote {RESULT.relative_to(BENCH.parent)}", file=sys.stderr)


if __name__ == "__main__":
    main()
