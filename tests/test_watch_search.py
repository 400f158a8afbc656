"""The search behind the step watch's parameters (bench/watch_search.py): its vectorised rule is step_alarm,
and the constants the watch holds are the ones its selection picks from the results it stored."""
import json
import math

import numpy as np
import pytest

from conftest import ROOT, load_module
from trainwreck import watch_rule
from trainwreck.watch_rule import step_alarm

grid = load_module(ROOT / "bench" / "watch_grid.py", "watch_grid")

STEPS = 300
FAST = {"weights": [0.1, 0.3], "factors": [1.4, 2.2, 3.0]}
SLOW = {"weights": [0.03, 0.05], "rises": [1.5, 3.0], "floors": [0.2, 0.5], "holds": [1, 10, 80]}


def corner_traces(n=48, seed=0):
    """Noisy climbs and falls in the log, with what step_alarm treats apart: exact zeros (runs of them,
    leading ones, a trace of nothing else), an inf or a nan, some before and some after the rule would
    fire, negative values, and long plateaus that hold the slow average up for many steps."""
    rng = np.random.default_rng(seed)
    traces = []
    for k in range(n):
        low, back = rng.uniform(-3, -0.5), rng.uniform(0, 3)
        level = np.interp(np.arange(STEPS), [0, STEPS / 4, STEPS / 2, STEPS], [0, low, low + back, low + back])
        values = np.exp(level + rng.normal(0, 0.4 if k % 2 else 0.05, STEPS)).astype(np.float32)
        values[rng.random(STEPS) < (0.3 if k % 5 == 0 else 0.05)] = 0.0
        if k % 3 == 0:
            values[:int(rng.integers(1, 40))] = 0.0
        if k % 4 == 1:
            values[int(rng.integers(5, STEPS))] = np.nan if k % 8 == 1 else np.inf
        if k % 7 == 2:
            values[int(rng.integers(0, STEPS))] = -0.5
        traces.append(values)
    traces.append(np.zeros(STEPS, np.float32))
    traces.append(np.full(STEPS, 0.7, np.float32))
    traces.append(np.array([1.0] + [0.1] * 100 + [0.6] * 199, np.float32))     # the slow rule's plateau
    traces.append(np.array([np.nan] + [5.0] * (STEPS - 1), np.float32))
    return np.stack(traces)


@pytest.fixture(scope="module")
def traces():
    return corner_traces()


def test_the_grid_gives_step_alarms_index_for_every_setting(traces):
    prepared = grid.Traces(traces)
    values = [[float(v) for v in trace] for trace in traces]
    seen = {"none": 0, "fast": 0, "slow": 0}
    for a, weight in enumerate(FAST["weights"]):
        fast = grid.fast_alarms(prepared, weight, FAST["factors"])
        for b, slow_weight in enumerate(SLOW["weights"]):
            slow = grid.slow_alarms(prepared, slow_weight, SLOW["rises"], SLOW["floors"], SLOW["holds"])
            for f, r, lo, h in [(0, 0, 0, 0), (1, 1, 1, 2), (2, 0, 1, 1), (1, 1, 0, 0), (2, 1, 1, 2)]:
                params = (weight, FAST["factors"][f], slow_weight, SLOW["rises"][r], SLOW["floors"][lo],
                          SLOW["holds"][h])
                mine = np.minimum(fast[f], slow[r, lo, h])
                theirs = [step_alarm(v, *params) for v in values]
                assert [None if i == STEPS else int(i) for i in mine] == theirs, params
                for i, j in zip(mine, fast[f]):
                    seen["none" if i == STEPS else "fast" if i == j else "slow"] += 1
    assert min(seen.values()) > 30        # each way to fire, and not firing, is exercised


def test_the_grid_stops_where_step_alarm_stops(traces):
    prepared = grid.Traces(traces)
    bad = [i for i, t in enumerate(traces) if not np.isfinite(t).all()]
    assert len(bad) > 10
    for i in bad:
        assert prepared.stop[i] == int(np.argmax(~np.isfinite(traces[i])))
    # nothing starts in a trace of zeros, and a first value of nan ends a trace before anything starts
    for i in (-4, -1):
        assert not prepared.started[:, i].any()
    alarms = grid.alarm(prepared, *watch_rule_params())
    assert [None if a == STEPS else int(a) for a in alarms] == [step_alarm([float(v) for v in t]) for t in traces]


def test_reaching_a_threshold_exactly_counts():
    """At factor, rise and floor 1 a flat loss sits exactly on every threshold: step_alarm compares with >=."""
    flat = [np.full(STEPS, 0.7, np.float32), np.r_[0.0, np.full(STEPS - 1, 2.0)].astype(np.float32)]
    prepared = grid.Traces(np.stack(flat))
    for params, expected in (((0.3, 1.0, 0.05, 3.0, 0.5, 80), [0, 1]), ((0.3, 3.0, 0.05, 1.0, 1.0, 5), [4, 5])):
        assert [step_alarm(list(map(float, v)), *params) for v in flat] == expected
        assert grid.alarm(prepared, *params).tolist() == expected


def test_the_averages_are_step_alarms_to_the_bit(traces):
    """A last bit off would move an alarm only now and then; here every average is compared whole."""
    prepared = grid.Traces(traces)
    for weight in (0.05, 0.3):
        averages = prepared.average(weight)
        for i, trace in enumerate(traces[:12]):
            avg, expected = None, []
            for v in map(float, trace[:prepared.stop[i]]):
                if v > 0:
                    x = math.log(v)
                    avg = x if avg is None else avg
                    avg += weight * (x - avg)
                expected.append(avg)
            started = [a for a in expected if a is not None]
            assert averages[prepared.start[i]:prepared.stop[i], i].tolist() == started


def watch_rule_params():
    return (watch_rule.STEP_SMOOTHING, watch_rule.STEP_FACTOR, watch_rule.STEP_SLOW, watch_rule.STEP_RISE,
            watch_rule.STEP_FLOOR, watch_rule.STEP_HOLD)


# --- what the search stored ------------------------------------------------------
@pytest.fixture(scope="module")
def search():
    return load_module(ROOT / "bench" / "watch_search.py", "watch_search")


@pytest.fixture(scope="module")
def result(search):
    return json.loads(search.RESULT.read_text())


def test_the_watch_holds_the_searchs_choice(search, result):
    """Change the grid, the selection or the constants without running the search again, and this fails."""
    assert result["grid"] == search.GRID
    assert result["settings"] == math.prod(len(v) for v in search.GRID.values())
    recovered = result["counts"]["recovered"]
    top = result["top"]
    assert search.choose(top, recovered) == top and len(top) == min(search.TOP, result["passed"])
    assert top[0] == result["chosen"] and tuple(result["chosen"]["params"]) == watch_rule_params()
    assert result["earlier"]["params"] == list(search.EARLIER)
    assert result["earlier"]["passes"] == search.passes(result["earlier"], recovered)


def test_the_selection_keeps_the_filter_strict_and_breaks_ties_the_documented_way(search):
    def setting(params, slow=30, warned=30, recovered=0, healthy=0):
        return {"params": list(params), "warned_slow": slow, "warned": warned, "fired_healthy": healthy,
                "fired_recovered": recovered, "fired_stuck": 0}

    near, far = search.EARLIER, (0.25, 2.2, 0.05, 3.0, 0.5, 80)
    # 14 of 280 is 5.0%, not under 5%; one false alarm on a healthy run is one too many
    assert search.choose([setting(near, recovered=14), setting(far, healthy=1)], 280) == []
    picks = search.choose([setting(far, slow=31), setting(near), setting(near, warned=31)], 280)
    assert [p["warned_slow"] for p in picks] == [31, 30, 30] and picks[1]["warned"] == 31
    assert search.choose([setting(far), setting(near, recovered=13)], 280)[0]["params"] == list(far)
    assert search.choose([setting(far), setting(near)], 280)[0]["params"] == list(near)
    # more divergences warned comes before fewer recovered runs fired on
    assert search.choose([setting(near, recovered=0), setting(far, warned=31, recovered=13)], 280)[0]["params"] \
        == list(far)


def test_the_search_scored_the_runs_the_bench_stores(result):
    """The search's figures for the chosen rule and the earlier one are the bench's on the tuning seeds."""
    bench = load_module(ROOT / "bench" / "watch_bench.py", "watch_bench")
    tuning = bench.step_summary(bench.load())["tuning"]
    assert (tuning["counts"], tuning["slow"], tuning["diverged"]) == \
        (result["counts"], result["slow"], result["diverged"])
    for name, rule in (("chosen", "watch"), ("earlier", "earlier")):
        mine = result[name]
        assert {k: mine[k] for k in ("warned_slow", "warned", "fired_healthy", "fired_recovered", "fired_stuck")} \
            == {k: tuning["rules"][rule][k] for k in
                ("warned_slow", "warned", "fired_healthy", "fired_recovered", "fired_stuck")}, name
