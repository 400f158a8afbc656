"""WR-120: std-1 weights break the forward pass; fan-in scaling repairs it."""
import math
import warnings

import numpy as np
import pytest

from conftest import assert_entry_says, load_snippet

wr120 = load_snippet("wr120_bad_init")


@pytest.fixture(scope="module")
def data():
    return wr120.make_data()


@pytest.fixture(scope="module")
def spreads(data):
    X, _ = data
    return {s: wr120.layer_spread(wr120.init_params(s), X) for s in ("std1", "he")}


@pytest.fixture(scope="module")
def tanh_face():
    return wr120.tanh_face()


def test_network_shape_is_the_documented_one():
    assert (wr120.DEPTH, wr120.WIDTH) == (10, 128)
    assert [W.shape for W, _ in wr120.init_params("std1")][:2] == [(2, 128), (128, 128)]


def test_std1_spread_grows_geometrically_at_the_predicted_rate(spreads):
    spread = spreads["std1"]
    assert np.all(np.diff(spread) > 0)
    ratios = spread[2:] / spread[1:-1]
    predicted = wr120.predicted_growth()
    assert predicted == pytest.approx(8.0)
    assert wr120.growth_per_layer(spread) == pytest.approx(predicted, rel=0.1)
    assert np.all((ratios > 0.8 * predicted) & (ratios < 1.2 * predicted)), ratios
    assert spread[-1] > 1e7


def test_first_loss_is_non_finite_with_learning_rate_zero(data):
    X, y = data
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        losses = wr120.train(wr120.init_params("std1"), X, y, lr=0.0, epochs=3)
    assert losses == [math.inf] * 3
    texts = {str(w.message) for w in caught}
    assert {"overflow encountered in exp", "divide by zero encountered in log"} <= texts


def test_he_spread_stays_in_the_band_and_the_network_trains(data, spreads):
    X, y = data
    lo, hi = wr120.SPREAD_BAND
    assert np.all((spreads["he"] >= lo) & (spreads["he"] <= hi)), spreads["he"]
    assert wr120.spread_is_healthy(wr120.init_params("he"), X)[0] is True
    assert wr120.spread_is_healthy(wr120.init_params("std1"), X)[0] is False
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        losses = wr120.train(wr120.init_params("he"), X, y, lr=0.1, epochs=30)
    assert abs(losses[0] - math.log(2)) < 0.1  # a healthy start
    assert losses[-1] < 0.3 * losses[0]


def test_tanh_face_saturation_and_first_layer_gradient(tanh_face):
    bad, good = tanh_face["std1"], tanh_face["xavier"]
    assert bad["saturated"][1:].min() > 0.5     # most units pinned beyond the first layer
    assert good["saturated"][1:].max() < 0.01 and good["saturated"].mean() < 0.05
    # measured, the gradient is not small: the big weights amplify it
    assert bad["grad_norm"] > 1000 * good["grad_norm"]
    assert min(bad["loss"]) > math.log(2)      # never better than guessing in 20 epochs
    assert good["loss"][-1] < 0.5 * good["loss"][0]


def test_numbers_in_the_entry_match_the_snippet(data, spreads, tanh_face):
    X, y = data
    with np.errstate(all="ignore"):
        lr0 = wr120.train(wr120.init_params("std1"), X, y, lr=0.0, epochs=3)
    healthy = wr120.train(wr120.init_params("he"), X, y, lr=0.1, epochs=30)
    bad, good = tanh_face["std1"], tanh_face["xavier"]
    he = spreads["he"]
    claims = [
        f"the loss is [{', '.join(str(v) for v in lr0)}] at learning rate 0",
        f"({bad['saturated'].mean():.0%} of the tanh units in the snippet)",
        f"after 20 epochs it is still {bad['loss'][-1]:.2f}",
        f"sqrt(128/2) = {wr120.predicted_growth():.2f} per layer",
        f"grows by x{wr120.growth_per_layer(spreads['std1']):.2f} per layer",
        f"reaches {spreads['std1'][-1]:.2e} at the last hidden layer",
        f"gradient norm with std-1 tanh weights is {bad['grad_norm']:.2e}, against {good['grad_norm']:.3g} with Xavier",
        f"stays between {he.min():.2f} and {he.max():.2f}",
        f"loss falls from {healthy[0]:.4f} to {healthy[-1]:.4f} in 30 epochs",
        f"has {good['saturated'].mean():.0%} of its units pinned",
        f"loss falls from {good['loss'][0]:.2f} to {good['loss'][-1]:.2f} in 20 epochs",
        f"The snippet uses {wr120.SPREAD_BAND[0]} to {wr120.SPREAD_BAND[1]:g}",
    ]
    assert_entry_says("WR-120", claims)
