"""The loss watch: warns on a sustained climb, stops before a non-finite update, rolls back."""
import io
import math

import numpy as np
import pytest

from conftest import ROOT, assert_entry_says, load_module, load_snippet, terminal_output
from trainwreck.diagnose import diagnose
from trainwreck.logscan import scan
from trainwreck.validate import check
from trainwreck.watch_rule import CLIMB_JUMP, CLIMB_LONG, CLIMB_STEEP, CLIMB_STEP, sustained_climb

watch_snippet = load_snippet("loss_watch")
wr220 = load_snippet("wr220_lr_explosion")
LossWatch = watch_snippet.LossWatch


def feed(losses, **kwargs):
    """Epoch of the first non-'ok' answer and that answer."""
    w = LossWatch(verbose=False, **kwargs)
    for epoch, loss in enumerate(losses):
        state = w.check(epoch, loss, params={"epoch": epoch})
        if state != "ok":
            return epoch, state, w
    return None, "ok", w


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
    assert w.restore() == (0, {"epoch": 0})   # the climb began at epoch 0: 0.69 -> 1.02 is already x1.49


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
    assert ("WARNING: the loss climbed from 0.6865 at epoch 0 to 4.892 (x7.13 in 3 epoch(s)) "
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


@pytest.fixture(scope="module")
def bench():
    module = load_module(ROOT / "bench" / "watch_bench.py", "watch_bench")
    return module, module.results()


def test_benchmark_page_is_up_to_date(bench):
    module, results = bench
    page = (ROOT / "docs" / "watch-benchmark.md").read_text()
    assert page == module.markdown(results), "rerun: python bench/watch_bench.py --write"


def test_on_the_benchmark_the_watch_warns_most_with_no_false_alarm(bench):
    watch, *baselines = bench[1]["rows"]
    assert watch["rule"].startswith("trainwreck loss watch")
    assert watch["false_alarms"] == 0
    for other in baselines:
        assert watch["mean"] > other["mean"] and watch["median"] >= other["median"], other["rule"]
    # the median is already the most any loss-reading rule could give on these runs
    assert watch["median"] == bench[1]["bound_median"]
    # and the page's account of how the parameters were chosen holds
    assert bench[1]["tuning_false_alarms"] == 0 and bench[1]["tuning_healthy"] > 0
    assert bench[1]["slow_climb_warning"] == 4
