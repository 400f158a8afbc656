"""WR-030: a falling loss turns nan because one confident output rounds to 1.0."""
import math
import warnings

import numpy as np
import pytest

from conftest import assert_entry_says, load_snippet

wr030 = load_snippet("wr030_log_of_zero")


@pytest.fixture(scope="module")
def raw():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        run = wr030.train()
    run["warnings"] = {str(w.message) for w in caught}
    return run


def first_nonfinite(values):
    return next(i for i, v in enumerate(values) if not math.isfinite(v))


def test_loss_falls_every_epoch_then_turns_nan_with_no_climb(raw):
    t = first_nonfinite(raw["loss"])
    assert t == 14
    assert abs(raw["loss"][0] - math.log(2)) < 1e-9
    assert np.all(np.diff(raw["loss"][:t]) < 0)          # a descent, not a climb
    assert math.isnan(raw["loss"][t]) and all(math.isnan(v) for v in raw["loss"][t:])


def test_the_weights_and_accuracy_are_fine_when_the_loss_is_nan(raw):
    t = first_nonfinite(raw["loss"])
    assert all(math.isfinite(w) for w in raw["w"])
    assert raw["accuracy"][t] == 0.98
    assert raw["ones"][t - 1] == 0 and raw["ones"][t] == 2


def test_the_documented_warnings(raw):
    assert {"divide by zero encountered in log", "invalid value encountered in multiply"} <= raw["warnings"]
    assert not any("overflow" in w for w in raw["warnings"])   # no overflow: nothing blew up


def test_saturation_point_is_where_sigmoid_rounds_to_one():
    z = wr030.saturation_point()
    assert wr030.sigmoid(z) == 1.0 and wr030.sigmoid(np.nextafter(z, 0)) < 1.0
    assert z == pytest.approx(53 * math.log(2), abs=1e-6)    # exp(-z) below 2**-53


def test_chain_rule_gradient_poisons_the_weights():
    with np.errstate(all="ignore"):
        chained = wr030.train(chain_rule=True)
    bad = first_nonfinite(chained["w"])
    assert bad == 15
    assert all(math.isnan(w) for w in chained["w"][bad:])


def test_loss_from_logits_matches_where_finite_and_stays_finite(raw):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        fixed = wr030.train(loss_fn=wr030.bce_from_logits)
    t = first_nonfinite(raw["loss"])
    np.testing.assert_allclose(fixed["loss"][:t], raw["loss"][:t], rtol=1e-9)
    assert fixed["w"] == raw["w"]                          # same gradient, same training
    assert all(math.isfinite(v) for v in fixed["loss"]) and fixed["loss"][-1] < fixed["loss"][t - 1]


def test_numbers_in_the_entry_match_the_snippet(raw):
    t = first_nonfinite(raw["loss"])
    fixed = wr030.train(loss_fn=wr030.bce_from_logits)
    with np.errstate(all="ignore"):
        chained = wr030.train(chain_rule=True)
    x, y = wr030.make_data()
    z = raw["w"][t] * x + raw["b"][t]
    assert f"{wr030.clipped_bce(z, y):.4f}" == f"{wr030.bce_from_logits(z, y):.4f}"
    assert_entry_says("WR-030", [
        f"the loss goes {raw['loss'][0]:.4f}, {raw['loss'][1]:.4f}, {raw['loss'][2]:.4f}, … down to "
        f"{raw['loss'][t - 1]:.4f} at epoch {t - 1}, and is nan from epoch {t}",
        f"accuracy stays at {raw['accuracy'][t]:.2f} and the weight is a modest {raw['w'][t]:.3f}",
        f"the weight itself is nan from epoch {first_nonfinite(chained['w'])}",
        f"once z is above {wr030.saturation_point():.2f}",
        f"In the snippet {raw['ones'][t]} outputs are exactly 1.0 at epoch {t}",
        f"keeps falling, to {fixed['loss'][-1]:.4f} at epoch {len(fixed['loss']) - 1}",
        f"at epoch {t} the clipped loss and the loss from logits both print {wr030.clipped_bce(z, y):.4f}",
    ])
