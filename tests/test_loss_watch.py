"""The loss watch: warns on a sustained climb, stops before a non-finite update, rolls back."""
import importlib.util
import io
import math

import numpy as np
import pytest

from conftest import ROOT, load_snippet, terminal_output
from trainwreck.diagnose import CLIMB_RATIO, CLIMB_RISES, diagnose, sustained_climb
from trainwreck.logscan import scan
from trainwreck.validate import check

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
    assert w.restore() == (1, {"epoch": 1})   # the parameters from before the climb


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


def test_quiet_on_a_healthy_run_and_on_noise_below_the_ratio():
    healthy = wr220.train(1.0, epochs=300)["loss"]
    assert feed(healthy)[1] == "ok"
    assert feed([1.0, 1.4, 1.9, 2.6, 3.5])[1] == "ok"        # rises of x1.4: not the geometric climb


def test_guarded_training_resumes_from_before_the_climb():
    result = watch_snippet.guarded_training(verbose=False)
    assert result["events"] == [(3, "warn", 1, 1.0)]
    assert all(math.isfinite(v) for v in result["loss"])
    assert result["loss"][-1] < 0.25
    # it resumed from epoch 1's parameters, so epoch 4 repeats epoch 1's loss
    assert result["loss"][4] == pytest.approx(result["loss"][1])


def test_prints_every_epoch_and_the_warning(blowup):
    out = terminal_output(lambda: feed_verbose(blowup))
    assert out.splitlines()[0] == "epoch   0  loss 0.686529"
    assert "WARNING: the loss rose 2 epochs in a row, x1.5 or more each time" in out


def feed_verbose(losses):
    w = LossWatch()
    for epoch, loss in enumerate(losses):
        if w.check(epoch, loss, params=None) == "stop":
            break


def test_watch_and_diagnose_use_the_same_rule():
    w = LossWatch(verbose=False)
    assert (w.rises, w.ratio) == (CLIMB_RISES, CLIMB_RATIO)


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


def test_benchmark_page_is_up_to_date():
    spec = importlib.util.spec_from_file_location("watch_bench", ROOT / "bench" / "watch_bench.py")
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    page = (ROOT / "docs" / "watch-benchmark.md").read_text()
    assert page == bench.markdown(bench.results()), "rerun: python bench/watch_bench.py --write"
