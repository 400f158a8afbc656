"""WR-250: Adam without warmup spikes in the first steps; a linear warmup removes the spike."""
import math
import warnings

import numpy as np
import pytest

from conftest import assert_entry_says, load_snippet

wr250 = load_snippet("wr250_no_warmup")


@pytest.fixture(scope="module")
def runs():
    with warnings.catch_warnings():
        warnings.simplefilter("error")          # no warning anywhere: the spike is silent
        return wr250.train_adam(), wr250.train_adam(warmup=wr250.WARMUP_STEPS)


def test_early_spike_then_recovery(runs):
    plain, _ = runs
    loss = plain["loss"]
    peak = int(np.argmax(loss))
    assert peak <= 3                                         # in the first steps
    assert loss[peak] > 5 * loss[0]
    assert loss[peak + 1] < loss[0]                          # back below the start at once
    assert all(math.isfinite(v) for v in loss)
    assert loss[-1] < 0.1 * loss[0]


def test_the_same_rate_is_stable_after_the_start(runs):
    plain, _ = runs
    late = plain["loss"][50:]
    assert max(late) < plain["loss"][0]
    assert all(r == 0.05 for r in plain["rate"])


def test_warmup_removes_the_spike_and_trains_as_well(runs):
    plain, warm = runs
    assert max(warm["loss"]) == warm["loss"][0]
    assert warm["loss"][-1] < 0.1 * warm["loss"][0]
    assert warm["rate"][:3] == pytest.approx([0.001, 0.002, 0.003])
    assert warm["rate"][49:] == [0.05] * (len(warm["rate"]) - 49)
    assert wr250.warmup_rate(25, 0.05) == pytest.approx(0.025)


def test_first_adam_step_is_the_full_rate_for_every_weight():
    sizes = wr250.first_step_size()
    assert sizes["adam_median"] == pytest.approx(0.05, rel=1e-4)
    assert sizes["sgd_median"] < sizes["adam_median"] / 50


def test_numbers_in_the_entry_match_the_snippet(runs):
    plain, warm = runs
    loss = plain["loss"]
    sizes = wr250.first_step_size()
    assert_entry_says("WR-250", [
        f"starts at {loss[0]:.4f}, reaches {loss[1]:.4f} at step 1, leaps to {loss[2]:.4f} at step 2, and is back "
        f"at {loss[3]:.4f} at step 3; after {len(loss)} steps the loss is {loss[-1]:.4f}",
        f"the snippet's network has {wr250.DEPTH} hidden layers",
        f"the median weight moves by {sizes['adam_median']:.4f} on the first step",
        f"would move it by {sizes['sgd_median']:.6f}",
        f"the snippet uses {wr250.WARMUP_STEPS}",
        f"never rises above its first value, {warm['loss'][0]:.4f}, and ends at {warm['loss'][-1]:.4f} after the "
        f"same {len(warm['loss'])} steps",
    ])
