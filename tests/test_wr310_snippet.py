"""WR-310: a bad batch turns a healthy descent into nan at one step, silently."""
import math
import warnings

import numpy as np
import pytest

from conftest import assert_entry_says, load_snippet

wr310 = load_snippet("wr310_bad_batch")


@pytest.fixture(scope="module")
def data():
    return wr310.load_data()


@pytest.fixture(scope="module")
def raw(data):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        run = wr310.train(*data)
    run["warnings"] = [str(w.message) for w in caught]
    return run


def test_descent_then_nan_at_one_step_with_no_climb_and_no_warning(raw):
    loss = raw["loss"]
    t = wr310.first_nonfinite(loss)
    assert t == 12
    assert loss[t - 1] < loss[0]                              # it was falling
    assert loss[t - 1] < 1.5 * loss[t - 2]                    # no sharp rise before the nan
    assert all(math.isnan(v) for v in loss[t:])
    assert np.all(np.isnan(raw["w"]))
    assert raw["warnings"] == []                              # nan arithmetic is silent


def test_the_step_does_not_depend_on_the_rate(data):
    steps = {lr: wr310.first_nonfinite(wr310.train(*data, lr=lr)["loss"]) for lr in (0.5, 0.05, 0.005)}
    assert set(steps.values()) == {12}


def test_data_statistics_with_a_nan_break_the_first_step_at_any_rate(data):
    for lr in (0.5, 0.05):
        assert wr310.first_nonfinite(wr310.train(*data, lr=lr, scale=None)["loss"]) == 0


def test_the_bad_batch_holds_the_bad_row(data):
    X, y = data
    order = np.random.default_rng(wr310.SEED).permutation(len(X))
    assert wr310.BAD_ROW in order[12 * 32:13 * 32].tolist()
    assert wr310.BAD_ROW not in order[:12 * 32].tolist()


def test_check_batches_finds_nan_rows_and_unscaled_values(data):
    X, _ = data
    assert wr310.check_batches(X) == {"non_finite": [300], "extreme": [], "bad_rows": [300]}
    unscaled = X.copy()
    unscaled[10, 1] *= 1000                                   # one row in the wrong units
    found = wr310.check_batches(unscaled)
    assert found["extreme"] == [10] and found["bad_rows"] == [10, 300]


def test_cleaning_at_load_time_fixes_it(data, capsys):
    Xc, yc = wr310.clean(*data)
    assert capsys.readouterr().out == "dropped 1 row(s) with missing values: [300]\n"
    assert len(Xc) == len(data[0]) - 1
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        fixed = wr310.train(Xc, yc)
    assert all(math.isfinite(v) for v in fixed["loss"])
    assert fixed["loss"][-1] < 0.8 * fixed["loss"][0]


def test_numbers_in_the_entry_match_the_snippet(data, raw):
    t = wr310.first_nonfinite(raw["loss"])
    fixed = wr310.train(*wr310._quiet_clean(*data))
    assert_entry_says("WR-310", [
        f"the loss falls from {raw['loss'][0]:.4f} to {raw['loss'][t - 1]:.4f} over steps 0 to {t - 1} "
        f"and is nan from step {t}",
        "at step 0 for rates 0.5 and 0.05 alike",
        f"the bad batch arrives at step {t} at either rate",
        f"the check names row {wr310.check_batches(data[0])['bad_rows'][0]}",
        f"train to a loss of {fixed['loss'][-1]:.4f}, every step finite",
    ])
