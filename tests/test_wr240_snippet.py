"""WR-240: a threshold above every gradient norm never clips; a threshold that rescues a bad rate
clips almost every step; one set from a healthy run's norms clips rarely."""
import math
import warnings

import numpy as np
import pytest

from conftest import assert_entry_says, load_snippet

wr240 = load_snippet("wr240_clipping_not_clipping")


@pytest.fixture(scope="module")
def loose():
    with np.errstate(all="ignore"):
        return wr240.train(lr=10.0, epochs=10, max_norm=100.0)


@pytest.fixture(scope="module")
def guarded():
    """The fix tab's run: mini-batches at rate 1, threshold from the first 5 epochs' norms."""
    healthy = wr240.train(lr=wr240.RATE, epochs=5, batch=wr240.BATCH)
    max_norm = wr240.threshold_from(healthy["grad_norm"])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        run = wr240.train(lr=wr240.RATE, epochs=60, max_norm=max_norm, batch=wr240.BATCH)
        unclipped = wr240.train(lr=wr240.RATE, epochs=60, batch=wr240.BATCH)
    return max_norm, run, unclipped


@pytest.fixture(scope="module")
def healthy_full_batch():
    return wr240.train(lr=1.0, epochs=50)


def test_clipping_at_100_changes_nothing(loose):
    with np.errstate(all="ignore"):
        unclipped = wr240.train(lr=10.0, epochs=10)
    assert [repr(v) for v in loose["loss"]] == [repr(v) for v in unclipped["loss"]]   # nan for nan
    t = wr240.first_nonfinite(loose["loss"])
    assert t == 6 and loose["loss"][t] == math.inf and math.isnan(loose["loss"][t + 1])
    assert sum(loose["clipped"][:t]) == 0
    assert max(loose["grad_norm"][:t]) < 100 / 5                      # not near the threshold either


def test_the_nan_passes_through_clipping(loose):
    t = wr240.first_nonfinite(loose["loss"])
    assert math.isnan(loose["grad_norm"][t]) and loose["clipped"][t] is False
    grads = {"W": np.array([np.nan, 1.0])}
    out, norm, clipped = wr240.clip_by_global_norm(grads, 1.0)
    assert math.isnan(norm) and clipped is False and out is grads


def test_the_loss_turns_inf_while_the_gradient_stays_small(loose):
    """The inf comes from log(p) with p rounded to 0, not from a runaway gradient: the logistic
    loss's gradient with respect to the logit is bounded by 1."""
    t = wr240.first_nonfinite(loose["loss"])
    assert loose["loss"][t - 1] > 40 and max(loose["grad_norm"][:t]) < 20
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        wr240.train(lr=10.0, epochs=t + 1)
    texts = {str(w.message) for w in caught}
    assert {"overflow encountered in exp", "divide by zero encountered in log",
            "divide by zero encountered in divide", "invalid value encountered in multiply"} <= texts


def test_elementwise_clipping_at_one_engages_only_when_it_is_too_late():
    with np.errstate(all="ignore"):
        element = wr240.element_clipped_run()
    assert element["engaged"] == [4, 5]
    assert wr240.first_nonfinite(element["loss"]) == 6


def test_a_threshold_that_rescues_rate_10_clips_nearly_every_step(healthy_full_batch):
    cut = wr240.threshold_from(healthy_full_batch["grad_norm"])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        rescued = wr240.train(lr=10.0, epochs=300, max_norm=cut)
        lower_rate = wr240.train(lr=3.0, epochs=300)
    assert all(math.isfinite(v) for v in rescued["loss"])
    assert sum(rescued["clipped"]) / 300 > 0.95                       # the Playbook's "extremely aggressive" is > 50%
    assert lower_rate["loss"][-1] < rescued["loss"][-1]               # an honest rate does better


def test_a_threshold_from_a_healthy_run_clips_rarely_and_changes_little(guarded):
    max_norm, run, unclipped = guarded
    share = sum(run["clipped"]) / len(run["clipped"])
    assert 0 < share < 0.1
    assert run["clipped"][int(np.argmax(run["grad_norm"]))]           # the largest step is one it caught
    assert int(np.argmax(unclipped["grad_norm"])) < 20                # ...and the largest gradients come first
    assert sum(run["clipped"][100:]) / len(run["clipped"][100:]) < 0.05
    assert all(math.isfinite(v) for v in run["loss"])
    assert run["loss"][-1] == pytest.approx(unclipped["loss"][-1], rel=0.01)


def test_numbers_in_the_entry_match_the_snippet(loose, guarded, healthy_full_batch):
    t = wr240.first_nonfinite(loose["loss"])
    before = loose["grad_norm"][:t]
    norms = healthy_full_batch["grad_norm"]
    p90 = wr240.threshold_from(norms)
    rescued = wr240.train(lr=10.0, epochs=300, max_norm=p90)
    lower_rate = wr240.train(lr=3.0, epochs=300)
    max_norm, run, unclipped = guarded
    params = sum(p.size for p in wr240.init_params().values())
    assert_entry_says("WR-240", [
        ", ".join(f"{v:.2f}" for v in loose["loss"][:t]) + f", then inf at epoch {t} and nan from epoch {t + 1}",
        f"Not one step was clipped before the blow-up: {sum(loose['clipped'][:t])} of {t}",
        f"The gradient norm stayed between {min(before):.3g} and {max(before):.4g}",
        f"each of the snippet's {params} numbers",
        f"gradient norms of {np.median(norms):.3g} (median) to {p90:.3g} (90th percentile)",
        f"were already {min(before) / p90:.0f} to {max(before) / p90:.0f} times that 90th percentile",
        f"clipping rate 10 at {p90:.3g}",
        f"it clips {sum(rescued['clipped'])} of 300 steps",
        f"an unclipped rate of 3 ends lower ({lower_rate['loss'][-1]:.4f} after 300 epochs) than the clipped rate "
        f"10 ({rescued['loss'][-1]:.4f})",
        f"the 90th percentile is {max_norm:.3g}",
        f"touches {sum(run['clipped'])} of {len(run['clipped'])} steps "
        f"({sum(run['clipped']) / len(run['clipped']):.1%})",
        f"The run ends at {run['loss'][-1]:.4f}, against {unclipped['loss'][-1]:.4f} without clipping",
        "never passed 18",
    ])
    assert max(before) < 18
