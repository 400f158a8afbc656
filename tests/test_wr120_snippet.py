"""WR-120: the forward pass grows by the second-moment factor; the backward pass grows or
shrinks by sqrt(sigma_w^2 * fan_out * E[f'(z)^2]) whatever the saturation; He and Glorot
hold both near 1 and the network trains."""
import math
import warnings

import numpy as np
import pytest

from conftest import assert_entry_says, load_snippet, tab_program_run

wr120 = load_snippet("wr120_bad_init")
SNIPPET = "snippets/wr120_bad_init.py"
RELU_VAR_SHARE = 0.5 - 1 / (2 * math.pi)        # Var relu(z) / Var z for a centred Gaussian z


@pytest.fixture(scope="module")
def data():
    return wr120.make_data()


@pytest.fixture(scope="module")
def spreads(data):
    X, _ = data
    return {s: wr120.layer_spread(wr120.init_params(s), X) for s in ("std1", "he")}


@pytest.fixture(scope="module")
def runs(data):
    """The three training runs the entry talks about, each run once."""
    X, y = data
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        lr0 = wr120.train(wr120.init_params("std1"), X, y, lr=0.0, epochs=3)
    with np.errstate(all="ignore"):
        wander = wr120.train(wr120.init_params("std1"), X, y, lr=0.01, epochs=12, act="tanh")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        healthy = wr120.train(wr120.init_params("he"), X, y, lr=0.05, epochs=15)
    return {"lr0": lr0, "lr0_warnings": {str(w.message) for w in caught}, "wander": wander, "healthy": healthy}


@pytest.fixture(scope="module")
def regimes(data):
    """Backward gains per layer, measured and predicted, and the gradient norms."""
    X, y = data
    out = {}
    for act, scheme in (("tanh", "std1"), ("sigmoid", "lecun"), ("tanh", "glorot"), ("relu", "he")):
        params = wr120.init_params(scheme)
        gains, first, last = wr120.backward_gain(params, X, y, act)
        out[act, scheme] = {"gains": gains, "predicted": wr120.predicted_gain(params, X, act),
                            "first": first, "last": last, "saturated": wr120.saturated(params, X, act),
                            "params": params}
    return out


def test_network_shape_and_the_schemes_are_the_documented_ones():
    assert (wr120.DEPTH, wr120.WIDTH) == (10, 128)
    assert [W.shape for W, _ in wr120.init_params("std1")][:2] == [(2, 128), (128, 128)]
    std1 = wr120.init_params("std1")
    for scheme, scale in (("lecun", lambda i, o: math.sqrt(1 / i)), ("glorot", lambda i, o: math.sqrt(2 / (i + o))),
                          ("he", lambda i, o: math.sqrt(2 / i))):
        for (W, _), (W1, _) in zip(wr120.init_params(scheme), std1):
            np.testing.assert_allclose(W, W1 * scale(*W.shape), rtol=1e-15)   # same draws, scaled
    first_glorot = wr120.init_params("glorot")[0][0]
    first_lecun = wr120.init_params("lecun")[0][0]
    assert np.std(first_glorot) < 0.25 * np.std(first_lecun)    # they differ where fan_in != fan_out


# --- forward: the second moment, not the variance ------------------------------------------------

def test_relu_halves_the_second_moment_not_the_variance():
    z = np.random.default_rng(0).normal(scale=3.0, size=2_000_000)
    h = np.maximum(z, 0.0)
    assert np.mean(h ** 2) / np.mean(z ** 2) == pytest.approx(0.5, abs=0.003)
    assert np.var(h) / np.var(z) == pytest.approx(RELU_VAR_SHARE, abs=0.003)
    assert f"{RELU_VAR_SHARE:.2f}" == "0.34"


def test_std1_spread_grows_at_the_second_moment_rate(data, spreads):
    X, _ = data
    spread = spreads["std1"]
    assert np.all(np.diff(spread) > 0)
    growth = wr120.growth_per_layer(spread)
    second_moment, variance = math.sqrt(128 / 2), math.sqrt(128 * RELU_VAR_SHARE)
    assert growth == pytest.approx(second_moment, rel=0.1)
    assert abs(growth - second_moment) < abs(growth - variance) / 2      # the variance rule is wrong
    # layer by layer, the RMS ratio is what the realised weights and the realised E[h^2] give
    zs, hs = wr120.forward(wr120.init_params("std1"), X)
    params = wr120.init_params("std1")
    for i in range(1, wr120.DEPTH):
        W = params[i][0]
        expected = math.sqrt(W.shape[0] * np.mean(W ** 2) * np.mean(hs[i] ** 2) / np.mean(zs[i - 1] ** 2))
        assert spread[i] / spread[i - 1] == pytest.approx(expected, rel=0.25)
    assert spread[-1] > 1e7


def test_first_loss_is_non_finite_with_learning_rate_zero(data, runs):
    X, _ = data
    assert runs["lr0"] == [math.inf] * 3
    assert runs["lr0_warnings"] == {"overflow encountered in exp", "divide by zero encountered in log"}
    zs, _ = wr120.forward(wr120.init_params("std1"), X)
    assert np.abs(zs[-1]).max() > 1e8                   # far past exp's 709.78


# --- backward: the regime is decided by sigma_w^2 * fan_out * E[f'^2] ---------------------------

def test_measured_backward_gain_matches_the_mean_field_prediction(regimes):
    for key, r in regimes.items():
        assert len(r["gains"]) == len(r["predicted"]) == wr120.DEPTH - 1
        np.testing.assert_allclose(r["gains"], r["predicted"], rtol=0.2, err_msg=str(key))
        assert wr120.per_layer(r["gains"]) == pytest.approx(wr120.per_layer(r["predicted"]), rel=0.05)


def test_saturated_tanh_with_std1_weights_explodes(regimes):
    r = regimes["tanh", "std1"]
    sigma2_fan = [np.mean(W ** 2) * W.shape[0] for W, _ in r["params"][1:-1]]
    assert np.mean(sigma2_fan) == pytest.approx(128, rel=0.03)      # the chaotic configuration
    assert r["saturated"] > 0.5                                       # most units pinned ...
    assert np.all(r["gains"] > 1.0) and wr120.per_layer(r["gains"]) > 2    # ... and still it grows
    assert r["first"] > 1000 * r["last"]


def test_sigmoid_with_fan_in_weights_vanishes_through_its_slope(regimes):
    r = regimes["sigmoid", "lecun"]
    _, slope = wr120.ACTIVATIONS["sigmoid"]
    h0 = wr120.sigmoid(0.0)
    assert slope(0.0, h0) == 0.25                                     # the largest slope it has
    z = np.linspace(-20, 20, 4001)
    assert slope(z, wr120.sigmoid(z)).max() == 0.25
    assert r["saturated"] < 0.01                                      # nothing pinned ...
    for gain, (W, _) in zip(r["gains"], r["params"][1:-1]):
        assert gain < 0.25 * math.sqrt(np.mean(W ** 2) * W.shape[1]) * 1.15   # ... the slope bounds it
    assert wr120.per_layer(r["gains"]) < 0.3
    assert r["first"] < 1e-5 * r["last"]


def test_he_and_glorot_hold_the_backward_signal_near_one(regimes):
    for key in (("relu", "he"), ("tanh", "glorot")):
        assert 0.9 < wr120.per_layer(regimes[key]["gains"]) < 1.1, key
    assert regimes["tanh", "glorot"]["saturated"] < 0.01


def test_tanh_std1_does_not_learn_in_12_epochs(runs):
    losses = runs["wander"]
    assert min(losses) > math.log(2)                                  # never better than guessing
    assert sum(b > a for a, b in zip(losses, losses[1:])) >= 3        # it jumps about
    assert max(losses) > losses[0]


# --- the fix ------------------------------------------------------------------------------------

def test_he_spread_stays_in_the_band_and_the_network_trains(data, spreads, runs):
    X, _ = data
    lo, hi = wr120.SPREAD_BAND
    assert np.all((spreads["he"] >= lo) & (spreads["he"] <= hi)), spreads["he"]
    assert wr120.spread_is_healthy(wr120.init_params("he"), X)[0] is True
    assert wr120.spread_is_healthy(wr120.init_params("std1"), X)[0] is False
    losses = runs["healthy"]                                          # trained with warnings as errors
    assert abs(losses[0] - math.log(2)) < 0.1                         # a healthy start
    assert all(b < a for a, b in zip(losses, losses[1:]))             # falls every epoch
    assert losses[-1] < 0.3 * losses[0]


# --- the prose and the tabs ------------------------------------------------------------------------

def test_numbers_in_the_entry_match_the_snippet(spreads, regimes, runs):
    lr0, wander, healthy = runs["lr0"], runs["wander"], runs["healthy"]
    tanh, sig, glorot, he = (regimes[k] for k in (("tanh", "std1"), ("sigmoid", "lecun"), ("tanh", "glorot"),
                                                  ("relu", "he")))
    claims = [
        f"the loss is [{', '.join(str(v) for v in lr0)}] at learning rate 0",
        f"({tanh['saturated']:.0%} of them in the snippet)",
        f"after {len(wander)} epochs it is {wander[-1]:.2f}, still worse than the {math.log(2):.2f} of guessing",
        f"the first layer's gradient norm is {sig['first']:.3g} against {sig['last']:.2g} at the output",
        f"√(128 / 2) = {math.sqrt(64):.2f}; measured, the RMS grows by ×{wr120.growth_per_layer(spreads['std1']):.2f} "
        f"per layer and reaches {spreads['std1'][-1]:.2e} at the last hidden layer",
        f"√(128 × 0.34) = {math.sqrt(128 * RELU_VAR_SHARE):.2f}",
        f"about {RELU_VAR_SHARE:.2f} of the variance of z",
        f"{tanh['saturated']:.0%} of the units sit near ±1",
        f"*grows* ×{wr120.per_layer(tanh['gains']):.2f} per layer (the formula predicts "
        f"×{wr120.per_layer(tanh['predicted']):.2f})",
        f"The first layer's gradient norm is {tanh['first']:.2g}, the output layer's {tanh['last']:.3g}",
        f"the gradient of the first layer is about {round(tanh['first'] / tanh['last'], -2):,.0f} times the output "
        "layer's",
        f"shrinks ×{wr120.per_layer(sig['gains']):.2f} per layer (predicted ×{wr120.per_layer(sig['predicted']):.2f})",
        f"{sig['first']:.3g} at the first layer against {sig['last']:.2g} at the output",
        f"stays between {spreads['he'].min():.2f} and {spreads['he'].max():.2f}",
        f"the backward signal changes ×{wr120.per_layer(he['gains']):.2f} per layer",
        f"the loss falls from {healthy[0]:.4f} to {healthy[-1]:.4f} in {len(healthy)} epochs",
        f"tanh network's backward signal changes ×{wr120.per_layer(glorot['gains']):.2f} per layer, "
        f"with {glorot['saturated']:.0%} of its units saturated",
        f"the snippet uses {wr120.SPREAD_BAND[0]} to {wr120.SPREAD_BAND[1]:g}",
    ]
    assert_entry_says("WR-120", claims)


def test_pytorch_tanh_gain_is_on_the_exploding_side(data):
    """The prose says calculate_gain('tanh') = 5/3 makes this tanh network's backward signal
    grow x1.30 per layer: the same weights, scaled the way xavier_normal_ scales them."""
    X, y = data
    std1 = wr120.init_params("std1")
    params = [(W * 5 / 3 * math.sqrt(2 / sum(W.shape)), b) for W, b in std1]
    gains, _, _ = wr120.backward_gain(params, X, y, "tanh")
    assert f"{wr120.per_layer(gains):.2f}" == "1.30"
    assert_entry_says("WR-120", [f"grow ×{wr120.per_layer(gains):.2f} per layer"])


def test_reproduce_tab_prints_the_story():
    out = tab_program_run(SNIPPET, "reproduce").stdout
    missing = [text for text in [
        "epoch  0  loss inf\nepoch  1  loss inf\nepoch  2  loss inf",
        "RuntimeWarning: overflow encountered in exp",
        "RuntimeWarning: divide by zero encountered in log",
        "tanh units, std1 weights: x2.86 per layer (predicted x2.88), 73% of units saturated",
        "sigmoid units, lecun weights: x0.23 per layer",
    ] if text not in out]
    assert not missing, missing


def test_fix_tab_prints_the_fix_working():
    out = tab_program_run(SNIPPET, "fix").stdout
    missing = [text for text in [
        "inside 0.5-2 at every layer: True",
        "relu units, he weights: x0.97 per layer",
        "epoch  0  loss 0.6300",
        "epoch 14  loss 0.1514",
    ] if text not in out]
    assert not missing, missing
    assert "Warning" not in out and "inf" not in out and "nan" not in out
