"""WR-220: the snippet shows the documented explosion, and each fix removes it."""
import math
import warnings

import numpy as np
import pytest

from conftest import assert_entry_says, load_snippet

wr220 = load_snippet("wr220_lr_explosion")

EPOCHS = 30


def first_nonfinite(values):
    bad = [i for i, v in enumerate(values) if not math.isfinite(v)]
    return bad[0] if bad else None


@pytest.fixture(scope="module")
def blowup():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        run = wr220.train(10.0, epochs=EPOCHS)
    run["warnings"] = [(w.category, str(w.message)) for w in caught]
    return run


@pytest.fixture(scope="module")
def triptych():
    return wr220.pick_rate()


def test_loss_starts_near_ln2(blowup):
    assert abs(blowup["loss"][0] - math.log(2)) < 0.01


def test_loss_climbs_for_several_consecutive_epochs_before_inf(blowup):
    loss = blowup["loss"]
    t = first_nonfinite(loss)
    climb = np.diff(loss[:t])
    assert len(climb) >= 5 and np.all(climb > 0), loss[:t]
    # each rise is bigger than the previous one: the climb accelerates
    assert np.all(np.diff(climb) > 0), climb


def test_inf_then_nan_within_twenty_epochs_and_nan_for_ever(blowup):
    loss = blowup["loss"]
    t = first_nonfinite(loss)
    assert t is not None and 5 <= t <= 20
    assert loss[t] == math.inf
    assert all(math.isnan(v) for v in loss[t + 1:])
    assert len(loss[t + 1:]) >= 20  # long enough to see that nan never heals


def test_numpy_warnings_are_the_documented_ones(blowup):
    texts = {text for category, text in blowup["warnings"] if category is RuntimeWarning}
    assert "overflow encountered in exp" in texts
    assert "divide by zero encountered in log" in texts


def test_accuracy_frozen_once_loss_is_nan(blowup):
    t = first_nonfinite(blowup["loss"])
    frozen = blowup["accuracy"][t + 1:]
    assert len(set(frozen)) == 1
    # a nan logit is never > 0, so everything is called class 0
    X, y = wr220.make_data()
    assert frozen[0] == pytest.approx(float(np.mean(y == 0)))


def test_max_abs_w1_grows_geometrically(blowup):
    t = first_nonfinite(blowup["loss"])
    w = np.array(blowup["max_abs_W1"][: t + 1])
    assert np.all(np.diff(w) >= 0), w
    assert w[-1] / w[0] > 50  # more than x50 in a handful of epochs


def test_healthy_rate_shows_no_warning_and_falls():
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # any RuntimeWarning fails the test
        run = wr220.train(1.0, epochs=300)
    assert np.all(np.isfinite(run["loss"]))
    assert run["loss"][-1] < 0.5 * run["loss"][0]


def test_triptych_picks_the_stable_rate_whose_loss_falls(triptych):
    best, runs = triptych
    assert set(runs) == {0.01, 1.0, 10.0}
    assert best == 1.0
    assert not np.all(np.isfinite(runs[10.0]["loss"]))
    for lr in (0.01, 1.0):
        assert np.all(np.isfinite(runs[lr]["loss"]))
        assert runs[lr]["loss"][-1] < runs[lr]["loss"][0]
    assert runs[1.0]["loss"][-1] < runs[0.01]["loss"][-1]


def test_clipped_display_loss_is_large_and_finite_where_raw_is_nan(blowup):
    t = first_nonfinite(blowup["loss"])
    with np.errstate(all="ignore"):
        params = wr220.train(10.0, epochs=t)["final_params"]  # the weights used at epoch t
        p, y = wr220.outputs_at(params)
        raw = wr220.display_loss(p, y, clip=False)
    clipped = wr220.display_loss(p, y, clip=True)
    assert np.any((p == 0.0) | (p == 1.0))  # saturated outputs are the cause
    assert math.isnan(raw)
    assert math.isfinite(clipped)
    assert 3 * math.log(2) < clipped <= -math.log(1e-12)  # well above a healthy start, capped per example
    assert_entry_says("WR-220", [f"the clipped one prints {clipped:.2f}"])


def test_gradient_clipping_keeps_rate_ten_finite():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        run = wr220.train(10.0, epochs=300, clip_norm=1.0)
    assert np.all(np.isfinite(run["loss"]))
    assert run["loss"][-1] < 0.5 * run["loss"][0]
    assert max(run["grad_norm"]) > 1.0  # the cap really was hit


def test_deterministic():
    with np.errstate(all="ignore"):
        a = wr220.train(10.0, epochs=10)["loss"]
        b = wr220.train(10.0, epochs=10)["loss"]
    assert a == b or all((x == y) or (math.isnan(x) and math.isnan(y)) for x, y in zip(a, b))


def test_numbers_in_the_entry_match_the_snippet(blowup, triptych):
    """Every number WR-220's prose states about a run, recomputed here."""
    loss = blowup["loss"]
    t = first_nonfinite(loss)
    best, runs = triptych
    claims = [
        ", ".join(f"{v:.2f}" for v in loss[:t]),
        f"then inf at epoch {t} and nan from epoch {t + 1}",
        f"stuck at one value ({blowup['accuracy'][t + 1]:.3f} in the snippet",
        f"goes from {blowup['max_abs_W1'][0]:.3g} to {blowup['max_abs_W1'][t]:.3g} in {t} epochs",
        f"rate 0.01 falls slowly to {runs[0.01]['loss'][-1]:.4f}",
        f"rate 1.0 falls to {runs[1.0]['loss'][-1]:.4f}",
        f"so {best:.1f} is picked",
    ]
    assert_entry_says("WR-220", claims)


def test_main_prints_the_story(capsys):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        wr220.main()
    out = capsys.readouterr().out
    assert "epoch  6  loss        inf" in out
    assert "epoch  7  loss        nan" in out
    assert "stable rate picked: 1" in out
    assert "raw     nan" in out
