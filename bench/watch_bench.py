"""The loss watch against the usual divergence guards, on the WR-220 model.

Sweeps learning rates and seeds, trains the WR-220 network at each, and asks
every rule when it would have fired. Reports, side by side in one run:

- the median number of epochs of warning before the first non-finite loss,
  over the runs that go non-finite;
- the false-alarm rate: the share of runs at healthy rates (rates at which no
  seed goes non-finite) on which the rule fires at all.

The watch's parameters were chosen on seeds 0-9; this benchmark reports seeds
10-29 so the numbers are not the ones it was tuned on.

    python bench/watch_bench.py            # print the table
    python bench/watch_bench.py --write    # also rewrite docs/watch-benchmark.md
"""
from __future__ import annotations

import argparse
import importlib.util
import math
import sys
from pathlib import Path

import numpy as np

from trainwreck.watch_rule import WATCH_RULE

ROOT = Path(__file__).resolve().parent.parent
PAGE = ROOT / "docs" / "watch-benchmark.md"
RATES = [round(float(r), 2) for r in np.geomspace(1, 100, 13)]
SEEDS = range(10, 30)
TUNING_SEEDS = range(0, 10)       # the seeds the watch's parameters were chosen on
SLOW_CLIMB = 1.15                 # a steady climb the watch was also required to catch
EPOCHS = 60
WATCH = f"trainwreck loss watch ({WATCH_RULE})"


def _snippet(name: str):
    spec = importlib.util.spec_from_file_location(name, ROOT / "snippets" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _first(losses, fires) -> int | None:
    """First epoch at which fires(history, loss) is true, counting a non-finite loss as firing."""
    seen = []
    for epoch, loss in enumerate(losses):
        if not math.isfinite(loss) or fires(seen, loss):
            return epoch
        seen.append(loss)
    return None


def rules():
    watch_module = _snippet("loss_watch")

    def watch(losses):
        w = watch_module.LossWatch(verbose=False)
        for epoch, loss in enumerate(losses):
            if w.check(epoch, loss, params=None) != "ok":
                return epoch
        return None

    return {
        WATCH: watch,
        "stop at first non-finite (Keras TerminateOnNaN, Lightning check_finite)":
            lambda L: _first(L, lambda seen, v: False),
        "loss > 4x best so far (fastai / Lightning LR finder)":
            lambda L: _first(L, lambda seen, v: bool(seen) and v > 4 * min(seen)),
        "loss > 10x largest so far (Megatron spiky loss)":
            lambda L: _first(L, lambda seen, v: bool(seen) and v > 10 * max(seen)),
        "loss >= 1e3 (AUTOTRAINER)":
            lambda L: _first(L, lambda seen, v: v >= 1e3),
    }


def traces(seeds, wr220):
    out = {}
    with np.errstate(all="ignore"):
        for lr in RATES:
            for seed in seeds:
                out[(lr, seed)] = wr220.train(lr, epochs=EPOCHS, seed=seed)["loss"]
    return out


def split(runs):
    """The runs that go non-finite, the healthy rates (no seed does) and the runs at those rates."""
    healthy_rates = [lr for lr in RATES if all(all(map(math.isfinite, L)) for k, L in runs.items() if k[0] == lr)]
    exploding = {k: L for k, L in runs.items() if not all(map(math.isfinite, L))}
    healthy = {k: L for k, L in runs.items() if k[0] in healthy_rates}
    return exploding, healthy_rates, healthy


def results():
    wr220 = _snippet("wr220_lr_explosion")
    exploding, healthy_rates, healthy = split(traces(SEEDS, wr220))
    first_bad = {k: next(i for i, v in enumerate(L) if not math.isfinite(v)) for k, L in exploding.items()}
    every = rules()
    warnings = {name: {k: first_bad[k] - rule(L) for k, L in exploding.items()} for name, rule in every.items()}
    rows = [{"rule": name, "median": float(np.median(list(w.values()))), "mean": float(np.mean(list(w.values()))),
             "warned": sum(v > 0 for v in w.values()),
             "false_alarms": sum(every[name](L) is not None for L in healthy.values())}
            for name, w in warnings.items()]
    watch = warnings[WATCH]
    _, _, tuning_healthy = split(traces(TUNING_SEEDS, wr220))
    slow = [0.7 * SLOW_CLIMB ** t for t in range(EPOCHS)]
    # A rule compares losses, so it cannot warn before epoch 1: this is the most any rule could give.
    bound = [first_bad[k] - 1 for k in exploding]
    per_rate = [{"lr": lr, "runs": len(ks), "first_bad": float(np.median([first_bad[k] for k in ks])),
                 "watch": float(np.median([watch[k] for k in ks]))}
                for lr in RATES if (ks := [k for k in exploding if k[0] == lr])]
    return {"rows": rows, "exploding": len(exploding), "healthy": len(healthy),
            "healthy_rates": healthy_rates, "first_bad": sorted(first_bad.values()),
            "bound_median": float(np.median(bound)), "bound_mean": float(np.mean(bound)), "per_rate": per_rate,
            "tuning_false_alarms": sum(every[WATCH](L) is not None for L in tuning_healthy.values()),
            "tuning_healthy": len(tuning_healthy), "slow_climb_warning": every[WATCH](slow)}


def markdown(r) -> str:
    lines = [
        "# Loss watch benchmark",
        "",
        "<!-- generated by `python bench/watch_bench.py --write`; a test reruns it and fails if this page "
        "is out of date -->",
        "",
        f"The WR-220 network trained at {len(RATES)} learning rates from {RATES[0]:g} to {RATES[-1]:g} "
        f"(log-spaced) with seeds {SEEDS.start}-{SEEDS.stop - 1}, {EPOCHS} epochs each. "
        f"{r['exploding']} runs go non-finite; the {r['healthy']} runs at the rates where no seed does "
        f"({', '.join(f'{x:g}' for x in r['healthy_rates'])}) are the healthy ones.",
        "",
        "| Rule | Median epochs of warning | Mean | Runs warned before the first non-finite loss "
        "| False alarms on healthy runs |",
        "|---|---|---|---|---|",
    ]
    for row in r["rows"]:
        lines.append(f"| {row['rule']} | {row['median']:g} | {row['mean']:.2f} | "
                     f"{row['warned']} of {r['exploding']} | {row['false_alarms']} of {r['healthy']} |")
    counts = np.bincount(r["first_bad"])
    spread = ", ".join(f"epoch {i}: {c}" for i, c in enumerate(counts) if c)
    watch = next(row for row in r["rows"] if row["rule"] == WATCH)
    best = max(r["rows"], key=lambda row: (row["mean"], -row["false_alarms"]))
    lines += [
        "",
        f"When the runs that blow up first go non-finite: {spread}. A rule that reads only the loss cannot "
        "warn more epochs ahead than there are finite epochs before the blow-up, and it needs two losses to "
        f"compare, so it cannot warn before epoch 1: the most warning any such rule could give these runs is "
        f"{r['bound_median']:g} epoch(s) in the median, {r['bound_mean']:.2f} on average.",
        "",
        "By learning rate (the runs that blow up):",
        "",
        "| Learning rate | Runs that blow up | Median epoch of the first non-finite loss "
        "| Median epochs of warning from the watch |",
        "|---|---|---|---|",
        *(f"| {x['lr']:g} | {x['runs']} | {x['first_bad']:g} | {x['watch']:g} |" for x in r["per_rate"]),
        "",
        ("The watch gives the most warning on average" if best is watch else
         f"Most warning on average: {best['rule']} ({best['mean']:.2f} epochs, {best['false_alarms']} false "
         f"alarm(s)); the watch gives less") + f": {watch['mean']:.2f} epochs, {watch['false_alarms']} false alarm(s).",
        "",
        f"The watch's parameters were chosen on seeds {TUNING_SEEDS.start}-{TUNING_SEEDS.stop - 1}, not on "
        f"these, so that it raised no false alarm there ({r['tuning_false_alarms']} of {r['tuning_healthy']} "
        f"healthy runs) and still caught a steady x{SLOW_CLIMB:g} climb (it warns at epoch "
        f"{r['slow_climb_warning']}).",
    ]
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--write", action="store_true", help=f"rewrite {PAGE.relative_to(ROOT)}")
    args = parser.parse_args()
    text = markdown(results())
    print(text)
    if args.write:
        PAGE.write_text(text)
        print(f"wrote {PAGE.relative_to(ROOT)}", file=sys.stderr)


if __name__ == "__main__":
    main()
