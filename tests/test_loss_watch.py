"""The loss watch: warns on a climb while the loss is finite, stops before a non-finite update, rolls back.

Per epoch (LossWatch) and per step (StepWatch), each the same rule as trainwreck/watch_rule.py, and the
benchmark page that measures them (bench/watch_bench.py)."""
import io
import math
import os
import subprocess
import sys

import numpy as np
import pytest

from conftest import ROOT, assert_entry_says, built_page, load_module, load_snippet, terminal_output
from trainwreck.diagnose import diagnose
from trainwreck.logscan import scan
from trainwreck.validate import check
from trainwreck.watch_rule import (CLIMB_JUMP, CLIMB_LONG, CLIMB_STEEP, CLIMB_STEP, STEP_FACTOR, STEP_FLOOR,
                                   STEP_HOLD, STEP_RISE, STEP_RULE, STEP_SLOW, STEP_SMOOTHING, step_alarm,
                                   sustained_climb)

watch_snippet = load_snippet("loss_watch")
wr220 = load_snippet("wr220_lr_explosion")
LossWatch = watch_snippet.LossWatch
StepWatch = watch_snippet.StepWatch


def feed(losses, watch=LossWatch, **kwargs):
    """Index of the first non-'ok' answer, that answer, and the watch."""
    w = watch(verbose=False, **kwargs)
    for i, loss in enumerate(losses):
        state = w.check(i, loss, params={"at": i})
        if state != "ok":
            return i, state, w
    return None, "ok", w


def feed_steps(losses, **kwargs):
    return feed(losses, StepWatch, **kwargs)


@pytest.fixture(scope="module")
def blowup():
    with np.errstate(all="ignore"):
        return wr220.train(10.0, epochs=12)["loss"]


def test_warns_on_wr220s_climb_while_the_loss_is_finite(blowup):
    epoch, state, w = feed(blowup)
    assert (epoch, state) == (3, "warn")
    assert math.isfinite(blowup[epoch])
    first_inf = next(i for i, v in enumerate(blowup) if not math.isfinite(v))
    assert first_inf - epoch == 3
    assert w.restore() == (0, {"at": 0})   # the climb began at epoch 0: 0.69 -> 1.02 is already x1.49


def test_stops_at_the_first_non_finite_value():
    epoch, state, _ = feed([0.7, 0.6, 0.5, float("nan"), 0.4])
    assert (epoch, state) == (3, "stop")
    assert feed([0.7, 0.6], )[1] == "ok"
    w = LossWatch(verbose=False)
    assert w.check(0, 0.7, {}, grad_norm=float("inf")) == "stop"


def test_no_absolute_threshold_scale_does_not_matter(blowup):
    finite = [v for v in blowup if math.isfinite(v)]
    for scale in (1e-6, 1.0, 1e6):
        assert feed([v * scale for v in finite])[0] == 3


def test_quiet_on_a_healthy_run_and_on_bumps():
    healthy = wr220.train(1.0, epochs=300)["loss"]
    assert feed(healthy)[1] == "ok"
    assert feed([1.0, 1.09, 1.18, 1.28, 1.39, 1.51, 1.64])[1] == "ok"   # creeping up by under 10% an epoch
    assert feed([1.0, 1.9, 3.7, 1.0, 1.9, 3.7, 1.0])[1] == "ok"         # x3.7 bumps that fall back
    assert feed([1.0, 2.9, 1.0, 2.9, 1.0])[1] == "ok"                   # one-epoch jumps just under x3


@pytest.mark.parametrize("losses, epoch", [
    ([1.0, 0.9, 2.8], 2),                  # a jump: x3.1 in one epoch
    ([1.0, 1.9, 4.1], 2),                  # steep: x4.1 since the climb began, neither step x3
    ([1.0, 1.15, 1.3, 1.45, 1.6], 4),      # long: 4 rises in a row, each x1.1 or more
    ([0.5, 0.5, 0.56, 0.62, 0.69, 0.77], 5),   # the climb begins after the flat stretch
])
def test_each_way_a_climb_sets_off_the_alarm(losses, epoch):
    assert feed(losses)[:2] == (epoch, "warn")
    assert sustained_climb(losses) == epoch


def test_a_slow_climb_is_caught_long_before_the_inf():
    """The shape in the issue: x1.3 per epoch from epoch 1, inf at 17 -- a rule of big rises never fires on it."""
    losses = [0.7 * 1.3 ** t for t in range(17)] + [math.inf]
    assert feed(losses)[:2] == (4, "warn")
    assert sustained_climb(losses[:17]) == 4


def test_guarded_training_resumes_from_before_the_climb():
    result = watch_snippet.guarded_training(verbose=False)
    assert result["events"] == [(3, "warn", 0, 1.0)]
    assert all(math.isfinite(v) for v in result["loss"])
    assert result["loss"][-1] < 0.25
    # it resumed from epoch 0's parameters, so epoch 4 repeats epoch 0's loss
    assert result["loss"][4] == result["loss"][0]


def test_prints_every_epoch_and_the_warning(blowup):
    out = terminal_output(lambda: feed_verbose(blowup))
    assert out.splitlines()[0] == "epoch   0  loss 0.686529"
    assert ("WARNING: the loss climbed from 0.6865 at epoch 0 to 4.892 (x7.13 in 3 epochs) "
            "-- the learning rate is probably too high") in out


def feed_verbose(losses):
    w = LossWatch()
    for epoch, loss in enumerate(losses):
        if w.check(epoch, loss, params=None) == "stop":
            break


def test_watch_and_diagnose_use_the_same_rule():
    w = LossWatch(verbose=False)
    assert (w.step, w.jump, w.steep, w.long) == (CLIMB_STEP, CLIMB_JUMP, CLIMB_STEEP, CLIMB_LONG)


def test_wr220_describes_the_rule_the_watch_uses():
    w = LossWatch(verbose=False)
    times = {3: "tripling", 4: "four times"}
    count = {4: "four"}
    assert_entry_says("WR-220", [f"{times[w.jump]} in one epoch", f"reaching {times[w.steep]} where the climb began",
                                 f"rising by {round((w.step - 1) * 100)}% or more {count[w.long]} epochs in a row"])


def test_watch_and_diagnose_agree_on_the_benchmark_traces():
    catalog, _ = check(ROOT / "catalog")
    agreements = 0
    with np.errstate(all="ignore"):
        for lr in (3.16, 6.81, 10.0, 14.68, 21.54, 46.42):
            for seed in range(10, 16):
                losses = wr220.train(lr, epochs=40, seed=seed)["loss"]
                epoch, state, _ = feed(losses)
                watch_warned = epoch if state == "warn" else None
                assert sustained_climb([v for v in losses]) == watch_warned, (lr, seed)
                log = "".join(f"epoch {i} loss {v}\n" for i, v in enumerate(losses))
                d = diagnose(scan(io.BytesIO(log.encode()), "log"), catalog)
                assert d.signature.climb_warning == watch_warned, (lr, seed)   # warned at the same epoch, or neither
                agreements += watch_warned is not None
    assert agreements > 3


# --- per step -----------------------------------------------------------------
def test_step_watch_uses_the_rule_diagnose_reads():
    w = StepWatch(verbose=False)
    assert (w.smoothing, w.factor, w.slow, w.rise, w.floor, w.hold) == \
        (STEP_SMOOTHING, STEP_FACTOR, STEP_SLOW, STEP_RISE, STEP_FLOOR, STEP_HOLD)
    assert STEP_RULE == ("the loss averaged over about 6 steps reaches x2.2 the first loss, or, averaged over about "
                         "66 steps, stays at x3.5 its lowest or more and x0.5 the first loss or more for 10 steps in a "
                         "row (moving averages of its log)")


def test_step_watch_warns_once_the_fast_average_is_above_the_first_loss():
    # the fast average of the logs moves 0.3 of the way to each new one: after n losses of 8 = 2^3 it is
    # 3 ln 2 (1 - 0.7^n), which first reaches ln 2.2 at n = 2 (n = 1 gives 0.62, under ln 2.2 = 0.79)
    assert feed_steps([1.0, 8.0, 8.0, 8.0])[:2] == (2, "warn")
    assert feed_steps([1.0, 3.0] * 100)[:2] == (None, "ok")           # x3 spikes that fall back: it settles at 0.65
    assert feed_steps([1.0, 0.1, 0.5, 0.9, 1.9, 1.9])[:2] == (None, "ok")    # x19 its low, but under x2.2 the start
    assert feed_steps([1.0] + [2.1] * 300)[:2] == (None, "ok")              # settles just under x2.2
    assert step_alarm([1.0, 8.0, 8.0, 8.0]) == 2


def bump(height, steps, low=0.1, before=300, after=300):
    """From 1.0 down to `low` for `before` steps, up to `height` for `steps`, back to `low`."""
    return [1.0] + [low] * before + [height] * steps + [low] * after


def test_step_watch_warns_once_the_slow_average_stays_up_for_long():
    # After 300 steps at 0.1 the slow average's lowest is ln 0.1 + ln 10 * 0.97^300 = ln 0.1 + 2.5e-4. At 0.6 (6x the
    # low, 0.6 the first loss) it is ln 0.6 - d * 0.97^n after n steps, d = ln 6 - 2.5e-4: at x3.5 its lowest from
    # n = 40 (0.97^n <= 1 - ln 3.5 / d), at x0.5 the first loss from n = 76 (0.97^n <= ln 1.2 / d). Both hold from
    # step 300 + 76; the 10th step in a row is 300 + 85.
    assert feed_steps(bump(0.6, 300))[:2] == (385, "warn")
    assert step_alarm(bump(0.6, 300)) == step_alarm(bump(0.6, 85)) == 385
    # 84 steps at 0.6 keep it up for 9 steps: the first step back at 0.1 takes it under half the first loss
    assert feed_steps(bump(0.6, 84))[:2] == (None, "ok")
    # at 0.4 it is x4 its lowest for as long as it stays, but never at half the first loss: a run that learnt
    # far below where it started is left alone
    assert feed_steps(bump(0.4, 600))[:2] == (None, "ok")
    assert step_alarm(bump(0.4, 600)) is None


def test_step_watch_needs_no_scale_and_skips_exact_zeros():
    for scale in (1e-6, 1.0, 1e6):
        assert feed_steps([scale * v for v in (1.0, 8.0, 8.0, 8.0)])[0] == 2
    # a batch fitted exactly (loss 0) is left out; the first loss above zero is where training started
    assert feed_steps([0.0, 0.0, 1.0, 0.0, 8.0, 8.0, 8.0])[:2] == (5, "warn")
    assert step_alarm([0.0, 0.0, 1.0, 0.0, 8.0, 8.0, 8.0]) == 5


def test_step_watch_stops_at_the_first_non_finite_value():
    assert feed_steps([1.0, 0.9, float("inf"), 0.8])[:2] == (2, "stop")
    assert StepWatch(verbose=False).check(0, 1.0, {}, grad_norm=float("nan")) == "stop"


def test_step_watch_holds_its_first_step_then_lower_copies():
    w = StepWatch(verbose=False, keep_every=2)
    for step, loss in zip(range(7, 12), [1.0, 0.5, 0.25, 4.0, 0.25]):
        assert w.check(step, loss, params={"at": step}) == "ok"
    # held at its first step (7), replaced at step 8 (lower), kept at 10 (the 4.0 lifted the fast average)
    assert w.restore() == (8, {"at": 8})
    w.check(12, 0.2, params={"at": 12})
    assert w.restore() == (12, {"at": 12})


def test_step_watch_and_step_alarm_agree_on_random_sequences():
    rng = np.random.default_rng(0)
    warned = {"fast": 0, "slow": 0}
    for _ in range(300):
        n = int(rng.integers(1, 500))
        # noise around a level that falls from 0 to a low, then climbs part or all of the way back or beyond:
        # some warn on the fast average, some only on the slow one, some not at all
        low, back = rng.uniform(-3, -1), rng.uniform(0, 4)
        level = np.interp(np.arange(n), [0, n / 4, n / 2], [0, low, low + back])
        values = np.exp(level + rng.normal(0, 0.5, n))
        values[rng.random(n) < 0.1] = 0.0
        step, state, w = feed_steps(list(values))
        expected = step if state == "warn" else None
        assert step_alarm(list(values)) == expected
        if expected is not None:
            warned["slow" if w.held >= w.hold else "fast"] += 1
    assert min(warned.values()) > 10 and sum(warned.values()) < 270      # every way is exercised


@pytest.fixture(scope="module")
def story(summary):
    """What the per-step program the benchmark page shows printed, run as a reader runs it."""
    return summary["story"]


def test_the_per_step_program_tells_its_story(story):
    lines = story.splitlines()
    assert lines[0] == "SGD with momentum 0.9 on batches of 16 at learning rate 0.464, no watch:"
    assert "step  185  loss inf" in lines and "first non-finite loss at step 185" in lines
    assert ("WARNING: at step 21 the loss averages 4.42, x2.44 the first loss (1.813) "
            "-- the learning rate is probably too high") in lines
    assert "  -> back to the parameters kept at step 0, learning rate now 0.0464" in lines
    assert lines[-1].startswith("600 steps, every loss finite: True; mean loss over the last 50 steps 0.0")


def test_the_per_step_program_is_a_run_of_the_benchmark():
    runs = bench_module().runs
    activation, momentum, batch, size, seed = bench_module().STORY_RUN
    task = runs.Task(activation, momentum, batch)
    plain = watch_snippet.train(runs.rate(task, size), seed=seed, watched=False, print_every=None)["loss"]
    with np.errstate(all="ignore"):
        trace = runs.train_runs(task, [(runs.rate(task, size), seed)])[0]
    assert np.array_equal(np.array(plain, np.float32), trace[:len(plain)], equal_nan=True)
    assert runs.first_nonfinite(trace) == len(plain) - 1 == 185
    assert step_alarm([float(v) for v in trace]) == 21


# --- the benchmark page ---------------------------------------------------------
_bench = []


def bench_module():
    if not _bench:
        _bench.append(load_module(ROOT / "bench" / "watch_bench.py", "watch_bench"))
    return _bench[0]


@pytest.fixture(scope="module")
def stored():
    return bench_module().load()


@pytest.fixture(scope="module")
def summary(stored):
    return bench_module().summary(stored)


def test_stored_runs_come_from_the_code_as_it_is(stored):
    """The sweeps are not rerun here: the hash of the code behind each one must match the one stored with it."""
    stale = bench_module().stale(stored)
    assert not stale, f"the stored {stale} runs are out of date: run python bench/watch_bench.py --write"


def test_benchmark_page_is_up_to_date(summary):
    page = (ROOT / "docs" / "watch-benchmark.md").read_text()
    assert page == bench_module().markdown(summary), "run python bench/watch_bench.py --write"


# A few runs of each sweep, recomputed: the stored rows are what the code produces, not only what it hashes to.
STEP_SAMPLE = [("tanh", 0.9, 16, 4.64, 3), ("tanh", 0.0, 16, 2.15, 11), ("relu", 0.0, 16, 0.1, 10),
               ("relu", 0.9, 16, 1.0, 12)]
EPOCH_SAMPLE = [(10.0, 10), (14.68, 11), (46.42, 12), (1.0, 13)]


def test_a_sample_of_stored_runs_recomputes_exactly(stored):
    runs = bench_module().runs
    sample = [(runs.Task(a, m, b), s, seed) for a, m, b, s, seed in STEP_SAMPLE]
    rows = {tuple(r[:5]): r for r in stored["steps"]["rows"]}
    for row in runs.step_rows(sample):
        assert rows[tuple(row[:5])] == row
    rows = {tuple(r[:2]): r for r in stored["epochs"]["rows"]}
    for row in runs.epoch_rows(EPOCH_SAMPLE):
        assert rows[tuple(row[:2])] == row
    assert {r[5] for r in stored["steps"]["rows"]} == {"healthy", "recovered", "stuck", "diverged"}


def test_every_run_is_in_exactly_one_class(summary, stored):
    runs = bench_module().runs
    steps = summary["steps"]
    per_task = len(runs.STEP_SIZES) * len(runs.SCORING_SEEDS)
    assert steps["scoring"]["runs"] == len(runs.TASKS) * per_task == sum(steps["scoring"]["counts"].values())
    for task in steps["tasks"]:
        assert sum(task["counts"].values()) == per_task
    assert sum(sum(z["counts"].values()) for z in steps["sizes"]) == steps["scoring"]["runs"]
    epochs = summary["epochs"]
    assert epochs["diverged"] + epochs["healthy"] + epochs["other"] == epochs["runs"] == \
        len(runs.EPOCH_RATES) * len(runs.EPOCH_SCORING_SEEDS)


BASELINES = ("nonfinite", "above_1e3", "spiky", "smoothed_4x")


def test_per_step_the_watch_raises_no_false_alarm_and_spares_recovered_runs(summary):
    """The target is under 5% of recovered runs. The parameters bench/watch_search.py chose on the tuning seeds
    meet it here by one run (the earlier choice, recomputed with the AVX2 kernels, missed it by one): whichever
    way a rerun moves it, the page must say so, and a floor of 6% holds the rule from getting worse."""
    s = summary["steps"]["scoring"]
    watch, recovered = s["rules"]["watch"], s["counts"]["recovered"]
    assert watch["fired_healthy"] == 0
    assert watch["fired_recovered"] <= 0.06 * recovered
    met = "yes" if 20 * watch["fired_recovered"] < recovered else "**no**"
    page = (ROOT / "docs" / "watch-benchmark.md").read_text()
    assert f"| fires on under 5% of the runs that recover | {met} |" in page


def test_per_step_the_watch_warns_on_more_divergences_than_every_baseline(summary):
    s = summary["steps"]["scoring"]
    watch = s["rules"]["watch"]
    for baseline in BASELINES:
        other = s["rules"][baseline]
        assert watch["warned"] > other["warned"] and watch["warned_slow"] > other["warned_slow"], baseline
    # a lead is reported over the runs a rule warned of, never as a median pooled with runs it did not
    assert all(r["median_lead"] is None or r["median_lead"] >= 10 for r in s["rules"].values())
    assert s["rules"]["nonfinite"]["median_lead"] is None


def test_per_step_the_watch_meets_the_slow_climb_target(summary):
    """Scored on seeds the parameters were not chosen on (the page says what else those seeds had shown):
    65% of slow climbs warned at least 10 steps ahead, and more than the watch before warned."""
    s = summary["steps"]["scoring"]
    watch, before = s["rules"]["watch"], s["rules"]["previous"]
    assert watch["warned_slow"] >= 0.65 * s["slow"] and watch["warned_slow"] > before["warned_slow"]
    assert watch["warned"] >= before["warned"] and before["fired_healthy"] == 0
    page = (ROOT / "docs" / "watch-benchmark.md").read_text()
    assert "| warns ≥ 10 steps ahead on at least 65% of slow climbs | yes |" in page


def test_per_step_the_reasons_the_page_gives_for_unmet_targets_hold(summary):
    s = summary["steps"]["scoring"]
    page = (ROOT / "docs" / "watch-benchmark.md").read_text()
    # 30% of all divergences: above the ceiling, the share whose loss was up 10 steps before the blow-up
    assert s["slow"] < 0.3 * s["diverged"] and "The 30% target cannot be met on this sweep" in page
    # 65% of slow climbs: most of the ones missed stay near their first loss, where recovered runs go too
    if s["rules"]["watch"]["warned_slow"] < 0.65 * s["slow"]:
        assert "The slow-climb target is missed" in page
        missed = s["missed_slow"]
        assert missed["unseen"] > missed["runs"] / 2 and missed["peak"] < STEP_FACTOR
        assert missed["recovered_as_high"] > 0.1 * s["counts"]["recovered"]
        assert s["rules"]["relative_3x"]["fired_recovered"] > 0.5 * s["counts"]["recovered"]


def test_per_step_the_epoch_rule_is_no_step_rule(summary):
    s = summary["steps"]["scoring"]
    assert s["rules"]["epoch_rule"]["fired_healthy"] > 0.1 * s["counts"]["healthy"]


def test_per_epoch_the_watch_warns_most_with_no_false_alarm(summary):
    e = summary["epochs"]
    table = {row["rule"]: row for row in e["table"]}
    watch = table.pop("watch")
    assert watch["fired_healthy"] == 0
    for name, other in table.items():
        if name != "step_rule":
            assert watch["mean"] > other["mean"] and watch["median"] >= other["median"], name
    assert watch["median"] == e["bound_median"]          # the most any loss-reading rule could give
    assert e["tuning_false_alarms"] == 0 and e["tuning_healthy"] > 0
    assert e["slow_climb_warning"] == 4


def test_the_page_uses_plurals_and_no_placeholders():
    page = (ROOT / "docs" / "watch-benchmark.md").read_text()
    assert "(s)" not in page
    assert "1 epochs" not in page and " 1 runs" not in page


def test_the_watch_page_shows_a_program_that_prints_what_the_page_says(site, tmp_path):
    """Copied from the built page and run in an empty folder, the per-step program prints the output shown under it."""
    page = built_page(site / "watch-benchmark" / "index.html")
    program, shown = (pre.text() for pre in page.css("article pre")[:2])
    (tmp_path / "watch.py").write_text(program)
    done = subprocess.run([sys.executable, "watch.py"], cwd=tmp_path, text=True, timeout=120,
                          env={**os.environ, "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1"},
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    assert done.returncode == 0
    assert done.stdout == shown
    assert "WARNING: at step 21" in shown
