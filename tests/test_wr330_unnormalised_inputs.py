"""WR-330: unnormalised inputs -- the x255 pre-activations, the saturated and frozen first layer, the
loss at the class-frequency value, the curvature along the mean image, uint8 arithmetic under NEP 50,
and the standardisation with training-split statistics that fixes it."""
import math
import warnings

import numpy as np
import pytest

from conftest import ROOT, assert_entry_says, load_snippet, tab_program_run

wr330 = load_snippet("wr330_unnormalised_inputs")


@pytest.fixture(scope="module")
def images():
    X, y = wr330.load_images()
    return wr330.split(X, y)


@pytest.fixture(scope="module")
def inputs():
    return wr330.training_inputs()


@pytest.fixture(scope="module")
def runs():
    return wr330.runs()


@pytest.fixture(scope="module")
def sweep():
    return wr330.rate_sweep()


# --- uint8 arithmetic under NumPy 2 (NEP 50) -------------------------------------------------------------

def test_array_arithmetic_with_a_python_int_stays_uint8_and_wraps_silently():
    x = np.array([0, 81, 127, 128, 255], dtype=np.uint8)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        shifted = x - 128
        doubled = x * 2
    assert shifted.dtype == np.uint8 and shifted.tolist() == [128, 209, 255, 0, 127]
    assert np.array_equal(shifted, (x.astype(int) - 128) % 256)
    assert doubled.tolist() == [0, 162, 254, 0, 254]


def test_a_uint8_scalar_wraps_with_the_declared_warning_and_300_does_not_fit():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = np.uint8(200) + 100
    assert type(result) is np.uint8 and int(result) == 44
    assert [str(w.message) for w in caught] == ["overflow encountered in scalar add"]
    with pytest.raises(OverflowError, match="Python integer 300 out of bounds for uint8"):
        np.array([1], dtype=np.uint8) + 300


def test_in_place_division_is_refused_with_the_declared_message_and_division_gives_float64():
    from trainwreck.catalog import load

    x = np.array([0, 128, 255], dtype=np.uint8)
    with pytest.raises(TypeError) as caught:
        x /= 255
    text = str(caught.value)
    assert text == ("Cannot cast ufunc 'divide' output from dtype('float64') to dtype('uint8') "
                    "with casting rule 'same_kind'")
    declared = [m for m in load(ROOT / "catalog").entries["WR-330"].messages if m.text.startswith("Cannot cast")]
    assert declared and declared[0].matches(text) and declared[0].example == text
    assert (x / 255).dtype == np.float64 and x.tolist() == [0, 128, 255]      # the array is left as it was


# --- the first layer: x255 pre-activations, saturation, exact zero slopes ------------------------------

def test_pre_activations_scale_with_the_inputs_and_the_bias_stays_behind(inputs):
    """first_layer (bias included) on raw and on [0, 1] pixels: the weighted sum grows 255 times, the bias
    does not, so the spread grows a little less than 255 times."""
    _, data = inputs
    params = wr330.init_params(data["raw 0..255"].shape[1])
    raw, unit = (wr330.first_layer(params, data[k])["std"] for k in ("raw 0..255", "scaled to [0, 1]"))
    assert 0.9 * 255 < raw / unit < 255
    no_bias = {**params, "b1": np.zeros_like(params["b1"])}
    bare = [wr330.first_layer(no_bias, data[k])["std"] for k in ("raw 0..255", "scaled to [0, 1]")]
    assert bare[0] / bare[1] == pytest.approx(255.0, rel=1e-12)
    assert np.abs(params["b1"]).max() <= 1 / 8
    assert_entry_says("WR-330", [f"the spread goes from {unit:.2f} on pixels in [0, 1] to {raw:.1f} on raw ones, "
                                 f"{raw / unit:.0f} times"])


def test_the_spread_of_the_pre_activations_follows_the_mean_square_not_the_spread_of_the_inputs(inputs):
    """Var(z) = fan_in Var(w) E[x^2] with Var(w) = 1/(3 fan_in) for nn.Linear's uniform bound."""
    _, data = inputs
    X = data["raw 0..255"]
    fan_in = X.shape[1]
    W = np.random.default_rng(0).uniform(-1, 1, (fan_in, 20000)) / np.sqrt(fan_in)   # many units: the expectation
    mean_square = float(np.mean(X ** 2))
    predicted = math.sqrt(mean_square / 3)
    assert (X @ W).std() == pytest.approx(predicted, rel=0.02)
    measured = wr330.first_layer(wr330.init_params(fan_in), X)["std"]
    assert measured == pytest.approx(predicted, rel=0.1)                   # 16 units: close to it
    centred = X - X.mean()
    assert (centred @ W).std() < 0.5 * predicted                           # the mean, not the spread, makes it large
    assert X.mean() ** 2 / mean_square > 0.8
    assert_entry_says("WR-330", [
        f"the raw pixels have a mean of {X.mean():.1f} and a spread of only {X.std():.1f}, and the mean makes "
        f"{X.mean() ** 2 / mean_square:.0%} of E[x²]. The formula predicts a spread of {predicted:.1f}; "
        f"the snippet measures {measured:.1f}",
    ])


def test_the_saturation_threshold_is_where_the_slope_drops_below_1_percent():
    s = wr330.sigmoid(wr330.SATURATED)
    assert s * (1 - s) < 0.01 * 0.25 < (lambda v: v * (1 - v))(wr330.sigmoid(wr330.SATURATED - 0.1))


def test_raw_pixels_saturate_the_first_layer_and_standardised_ones_do_not(inputs):
    _, data = inputs
    raw = wr330.first_layer(wr330.init_params(64), data["raw 0..255"])
    std = wr330.first_layer(wr330.init_params(64), data["standardised"])
    assert raw["std"] > 50 and raw["saturated"] > 0.9
    assert std["std"] < 1 and std["saturated"] == 0


def test_the_first_step_moves_each_unit_alike_for_every_image_only_when_inputs_are_all_positive(inputs):
    y, data = inputs
    raw = wr330.first_update_shift(data["raw 0..255"], y)
    unit = wr330.first_update_shift(data["scaled to [0, 1]"], y)
    std = wr330.first_update_shift(data["standardised"], y)
    assert np.median(raw["spread_over_mean"]) < 0.1 and np.median(unit["spread_over_mean"]) < 0.2
    assert np.median(std["spread_over_mean"]) > 10
    assert raw["flat_slopes"] > 0.5 and std["flat_slopes"] == 0
    spread = wr330.first_layer(wr330.init_params(64), data["raw 0..255"])["std"]
    assert np.median(raw["size"]) > spread                                  # a step moves a unit past its spread
    # not a matter of sign alone: a few pixels are 0, but the shared mean image dominates every x_i . x_j
    X = data["raw 0..255"]
    gram, mean = X @ X.T, X.mean(axis=0)
    assert X.min() == 0 and 0 < np.mean(X == 0) < 0.01
    assert 0.5 < gram.min() / (mean @ mean) and gram.max() / (mean @ mean) < 2


# --- the symptom: hidden units freeze, the loss sits at the class-frequency loss ------------------------

def test_raw_run_is_a_plateau_at_the_class_frequency_loss(runs, inputs):
    y, _ = inputs
    loss = runs["raw 0..255"]["loss"]
    guess = wr330.frequency_loss(y)
    assert min(loss) >= 0.9 * loss[0] and max(loss) <= 1.1 * loss[0]       # the engine's plateau band
    assert abs(loss[-1] - guess) < 1e-4
    assert runs["raw 0..255"]["constant"][-1] == wr330.HIDDEN


@pytest.mark.parametrize("seed", range(5))
def test_the_freeze_does_not_depend_on_the_initialisation(images, seed):
    (X_train, y_train), _ = images
    run = wr330.train(X_train.astype(np.float64), y_train, seed=seed)
    assert abs(run["loss"][-1] - wr330.frequency_loss(y_train)) < 0.01
    assert run["constant"][-1] >= wr330.HIDDEN - 2


def test_the_curvature_has_one_huge_eigenvalue_along_the_mean_until_the_mean_is_removed(inputs):
    _, data = inputs
    raw, unit, std = (wr330.input_curvature(data[k]) for k in ("raw 0..255", "scaled to [0, 1]", "standardised"))
    assert raw["largest"] / unit["largest"] == pytest.approx(255.0 ** 2, rel=1e-9)
    assert raw["condition"] == pytest.approx(unit["condition"], rel=1e-6)    # scaling alone keeps the valley
    assert raw["along_mean"] > 0.999 and std["along_mean"] < 0.5
    assert std["condition"] < raw["condition"] / 20


def test_with_the_bias_column_dividing_by_255_lowers_the_condition_number_and_keeps_the_outlier(inputs):
    """The bonus answer's matrix, 2A^T A/n with a 1 appended to each input for the bias: the bias column is not divided
    by 255, so the full matrix's condition number falls by orders of magnitude (the pixels' own block keeps its ratio,
    test above), yet the top eigenvector still points along the mean input (the mean image with its 1); only centring
    turns it away."""
    _, data = inputs

    def full(X):
        A = np.hstack([X, np.ones((len(X), 1))])
        values, vectors = np.linalg.eigh(A.T @ A / len(A))
        mean_input = np.append(X.mean(axis=0), 1.0)         # (the mean image with its appended 1)
        return values[-1] / values[0], abs(vectors[:, -1] @ mean_input) / np.linalg.norm(mean_input)

    (raw_c, raw_along), (unit_c, unit_along), (_, std_along) = (full(data[k]) for k in (
        "raw 0..255", "scaled to [0, 1]", "standardised"))
    assert unit_c < raw_c / 1000
    assert raw_along > 0.999 and unit_along > 0.999 and std_along < 0.5
    assert_entry_says("WR-330", ["With the bias column, which is not divided, the full matrix's condition number even "
                                 "falls, by orders of magnitude on the snippet's images, yet its top eigenvector still "
                                 "points along the mean input, the mean image with its appended 1. Only subtracting the "
                                 "mean removes that outlier."])


def test_no_learning_rate_trains_raw_pixels_as_well_as_standardised_ones(sweep):
    assert min(sweep["raw"]) > 5 * sweep["standardised"][wr330.RATES.index(0.5)]
    assert wr330.standardised_wins_from(sweep) <= 0.1


def test_conditioning_is_not_why_raw_pixels_fail(sweep, inputs):
    """[0, 1] pixels have exactly the raw pixels' condition number, yet at their best rate they train far below
    the best raw run: the raw failure is the saturation, not the valley."""
    _, data = inputs
    raw_c, unit_c = (wr330.input_curvature(data[k])["condition"] for k in ("raw 0..255", "scaled to [0, 1]"))
    assert raw_c == pytest.approx(unit_c, rel=1e-9)
    (raw_best, raw_rate), (unit_best, unit_rate) = wr330.best_of(sweep, "raw"), wr330.best_of(sweep, "scaled")
    std_best, std_rate = wr330.best_of(sweep, "standardised")
    assert unit_best < raw_best / 3
    assert std_best < unit_best / 10                                        # ...but centring still pays
    assert_entry_says("WR-330", [
        f"pixels scaled to [0, 1] at best reach {unit_best:.4f} (rate {unit_rate:g}), standardised ones "
        f"{std_best:.4f} (rate {std_rate:g})",
        f"scaled to [0, 1] they have the same ratio, {unit_c:.0f}, and train",
        f"The best raw run ends at {raw_best:.4f} (rate {raw_rate:g})",
        f"at its best rate in the sweep, {unit_rate:g}, it reaches {unit_best:.4f}, against {std_best:.4f} for "
        f"standardised pixels at theirs, {std_rate:g}",
        f"pixels scaled to [0, 1] end at {unit_best:.4f}, standardised ones at {std_best:.4f}",
    ])


def test_units_saturated_at_initialisation_stay_frozen_at_every_rate(images):
    """The layer is saturated before the first step: the same units are constant at epoch 0 whatever the rate,
    their slopes are next to zero, and no rate of the sweep moves them off the flat end."""
    (X_train, y_train), _ = images
    X = X_train.astype(np.float64)
    params = wr330.init_params(X.shape[1])
    h = wr330.sigmoid(X @ params["W1"] + params["b1"])
    frozen = h.std(axis=0) < 1e-3
    assert frozen.sum() == 5 and (h * (1 - h))[:, frozen].max() < 3e-11
    ends = {}
    for lr in wr330.RATES:
        run = wr330.train(X, y_train, lr=lr)
        assert run["constant"][0] == frozen.sum()
        end = wr330.sigmoid(X @ run["params"]["W1"] + run["params"]["b1"])
        assert np.all(end[:, frozen].std(axis=0) < 1e-3)                  # still constant after 60 epochs
        assert np.abs(run["params"]["W1"][:, frozen] - params["W1"][:, frozen]).max() < 1e-9
        ends[lr] = run["constant"][-1]
    assert ends[1e-4] == frozen.sum() and ends[0.5] == wr330.HIDDEN       # a big rate freezes the rest
    best = min(wr330.RATES, key=lambda lr: wr330.train(X, y_train, lr=lr)["loss"][-1])
    assert_entry_says("WR-330", [
        f"the {frozen.sum()} units constant at initialisation have slopes below 3e-11",
        f"with {ends[best]} of {wr330.HIDDEN} units constant",
    ])


# --- the fix --------------------------------------------------------------------------------------------

def test_statistics_come_from_the_training_split_only(images):
    (X_train, _), (X_val, _) = images
    mean, std = wr330.fit_standardiser(X_train)
    assert np.allclose(mean, X_train.mean(axis=0)) and not np.allclose(mean, np.vstack([X_train, X_val]).mean(axis=0))
    assert np.allclose(wr330.standardise(X_train, (mean, std)).mean(axis=0), 0)
    flat = X_train.copy()
    flat[:, 0] = 7                                                            # a pixel that never varies
    assert wr330.fit_standardiser(flat)[1][0] == 1.0


def test_standardised_inputs_train_and_generalise(runs, images):
    (X_train, y_train), (X_val, y_val) = images
    fixed = runs["standardised"]
    assert fixed["loss"][-1] < 0.1 and all(b < a for a, b in zip(fixed["loss"], fixed["loss"][1:]))
    assert fixed["constant"][-1] == 0
    assert runs["scaled to [0, 1]"]["loss"][-1] > 5 * fixed["loss"][-1]      # scaling without centring lags


def test_tabs_print_their_story_and_exit_cleanly():
    reproduce = tab_program_run("snippets/wr330_unnormalised_inputs.py", "reproduce")
    fix = tab_program_run("snippets/wr330_unnormalised_inputs.py", "fix")
    assert reproduce.returncode == 0 and fix.returncode == 0
    assert ("  numpy._core._exceptions._UFuncOutputCastingError: Cannot cast ufunc 'divide' output from "
            "dtype('float64') to dtype('uint8') with casting rule 'same_kind'") in reproduce.stdout.splitlines()
    assert "Traceback" not in reproduce.stdout + fix.stdout and "Warning" not in fix.stdout
    # the image half prints no warning; the table half shows NumPy's, and the loss turning inf, then nan
    images, _, table = reproduce.stdout.partition("A linear model on four features")
    assert "Warning" not in images
    warned = [line.split("RuntimeWarning: ")[1] for line in table.splitlines() if "RuntimeWarning: " in line]
    assert warned == ["overflow encountered in reduce", "overflow encountered in square",
                      "overflow encountered in matmul", "invalid value encountered in matmul",
                      "invalid value encountered in subtract"]
    losses = wr330.table_runs()
    inf_at, nan_at = wr330.first_nonfinite(losses["raw units"]), len(losses["raw units"]) - 1
    assert f"epoch {inf_at}  loss inf" in table and table.rstrip().endswith(f"epoch {nan_at}  loss nan")
    assert fix.stdout.rstrip().endswith(f"epoch {len(losses['standardised']) - 1}  loss {losses['standardised'][-1]:.4g}")


def test_the_warnings_do_not_tell_unscaled_inputs_from_unscaled_targets():
    """WR-360's Reproduce tab (standardised inputs, raw targets) prints the same kinds of warning as this entry's
    table half: they belong to a squared error that overflows, not to which side is unscaled. What differs is the
    first loss against the variance of the standardised targets."""
    ours = tab_program_run("snippets/wr330_unnormalised_inputs.py", "reproduce").stdout
    theirs = tab_program_run("snippets/wr360_unscaled_targets.py", "reproduce").stdout
    said = [[line.split("RuntimeWarning: ")[1] for line in out.splitlines() if "RuntimeWarning: " in line]
            for out in (ours, theirs)]
    shared = {"overflow encountered in square", "overflow encountered in matmul", "invalid value encountered in matmul"}
    assert shared <= set(said[0]) and shared <= set(said[1])
    assert {"overflow encountered in multiply", "invalid value encountered in multiply"} <= set(said[1])
    assert said[1][0] == "overflow encountered in square" and said[0][0] == "overflow encountered in reduce"
    y, inputs = wr330.table_inputs()
    with np.errstate(over="ignore", invalid="ignore"):
        first = wr330.fit_linear(inputs["raw units"], y, epochs=1)[0]
    assert_entry_says("WR-330", [
        "prints `overflow encountered in square` and `overflow encountered in matmul` too, then overflow and "
        "invalid-value warnings in multiply and `invalid value encountered in matmul`",
        f"a first loss far above their variance ({first:.5g} against {np.var(y):.0f} here)",
    ])


# --- the other outcome: a path to the output that stays linear, features in the thousands -----------------

@pytest.fixture(scope="module")
def table():
    y, inputs = wr330.table_inputs()
    curvature = {name: wr330.linear_curvature(X) for name, X in inputs.items()}
    return {"y": y, "inputs": inputs, "curvature": curvature, "runs": wr330.table_runs()}


def test_lambda_max_grows_with_the_mean_square_of_the_large_features(table):
    """The Hessian of the linear model's mean squared error is 2 A^T A / n: its top eigenvalue is set by the two
    features in the thousands (about twice the sum of their mean squares, mean included) and scales with their
    square. Dividing by the spread without centring leaves the pressure's mean, and 0.1 still diverges."""
    X = table["inputs"]["raw units"]
    raw, std = table["curvature"]["raw units"], table["curvature"]["standardised"]
    mean_squares = np.mean(X ** 2, axis=0)
    assert raw["largest"] == pytest.approx(2 * (mean_squares[2] + mean_squares[3]), rel=0.02)
    for c in (0.1, 10.0):                                   # the large columns in other units: c^2 follows
        rescaled = X * np.array([1, 1, c, c])
        assert wr330.linear_curvature(rescaled)["largest"] / raw["largest"] == pytest.approx(c * c, rel=0.01)
    assert raw["largest"] / std["largest"] > 1e6 and std["largest"] < 3
    assert raw["condition"] > 1e10 and std["condition"] < 2
    # the Hessian is 2 A^T A / n: a finite-difference second derivative of the loss agrees
    y, A = table["y"], np.column_stack([X, np.ones(len(X))])
    mse = lambda theta: float(np.mean((A @ theta - y) ** 2))
    theta, e = np.zeros(5), np.eye(5)
    for i in range(5):
        h = 1e-3 * e[i] / max(1.0, np.sqrt(np.mean(A[:, i] ** 2)))
        second = (mse(theta + h) - 2 * mse(theta) + mse(theta - h)) / (h @ h)
        assert second == pytest.approx(2 * np.mean(A[:, i] ** 2), rel=1e-6)
    # scaling without centring: the mean square stays large because the mean does
    pressure = X[:, 3]
    assert pressure.mean() / pressure.std() > 100
    spread_only = X / X.std(axis=0)
    unc = wr330.linear_curvature(spread_only)
    assert unc["largest"] > 5e3 * std["largest"] and wr330.TABLE_LR > 100 * unc["limit"]
    assert unc["largest"] == pytest.approx(2 * np.sum(np.mean(spread_only ** 2, axis=0)[2:]), rel=0.05)
    with np.errstate(over="ignore", invalid="ignore"):
        unc_run = wr330.fit_linear(spread_only, y)
    unc_inf = wr330.first_nonfinite(unc_run)
    assert unc_inf is not None and all(np.isfinite(unc_run[:unc_inf]))
    assert_entry_says("WR-330", [
        f"the pressure varies by only {pressure.std():.1f} hPa around {pressure.mean():.0f}, and divided by their "
        f"standard deviations without centring the features still give λ_max = {unc['largest']:.3g}, a limit of "
        f"{unc['limit']:.1g}, and at the rate {wr330.TABLE_LR:g} the loss is inf at epoch {unc_inf}",
        f"the table's features still put {wr330.TABLE_LR:g} past their limit of {unc['limit']:.1g}",
        f"the pressure, whose mean is {pressure.mean() / pressure.std():.0f} times its spread",
    ])
    assert_entry_says("WR-330", [
        f"mean squares of {mean_squares[2]:.3g} and {mean_squares[3]:.3g}",
        f"its largest eigenvalue is {raw['largest']:.4g}, against {std['largest']:.3f} after standardising, "
        f"{raw['largest'] / std['largest']:.2g} times",
        f"2/λ_max is {raw['limit']:.2g} for the raw features and {std['limit']:.2f} for the standardised ones",
        f"ratio of the largest to the smallest eigenvalue is {raw['condition']:.1e} raw and "
        f"{std['condition']:.2f} standardised",
        f"ratio of largest to smallest eigenvalue from {raw['condition']:.1e} to {std['condition']:.2f}",
        f"The raw features are stable below {raw['limit']:.2g}, but their smallest eigenvalue is "
        f"{raw['condition']:.1e} times smaller than the largest",
        f"Here it is {raw['limit']:.2g} for the raw features and {std['limit']:.2f} for the standardised ones",
    ])


def test_the_stability_limit_brackets_what_the_raw_run_does(table):
    """Along the top eigenvector the error is multiplied by (1 - lr lambda_max) each step, so the loss by its
    square: a rate 2% below 2/lambda_max falls, 2% above grows by (2 * 1.02 - 1)^2 per epoch."""
    y, X, raw = table["y"], table["inputs"]["raw units"], table["curvature"]["raw units"]
    below = wr330.fit_linear(X, y, lr=0.98 * raw["limit"], epochs=300)
    with np.errstate(over="ignore", invalid="ignore"):
        above = wr330.fit_linear(X, y, lr=1.02 * raw["limit"], epochs=300)
    assert all(np.isfinite(below)) and below[-1] < below[0] / 1e4 and below[-1] <= below[-2]
    assert above[-1] > above[0] * 1e6
    assert above[-1] / above[-2] == pytest.approx((2 * 1.02 - 1) ** 2, rel=1e-6)
    assert_entry_says("WR-330", [
        f"at {0.98 * raw['limit']:.3g} (2% below the limit) the loss falls; at {1.02 * raw['limit']:.3g} "
        f"(2% above) it grows by a factor of {(2 * 1.02 - 1) ** 2:.4f} every epoch",
    ])


def test_the_raw_run_grows_by_the_predicted_factor_and_turns_non_finite_at_the_predicted_epoch(table):
    y, raw = table["y"], table["curvature"]["raw units"]
    loss = table["runs"]["raw units"]
    factor = (wr330.TABLE_LR * raw["largest"] - 1) ** 2
    assert all(loss[t + 1] / loss[t] == pytest.approx(factor, rel=1e-3) for t in range(1, 24))
    assert loss[0] > 1e4 * np.var(y) and np.var(y) == pytest.approx(1.0)
    inf_at, nan_at = wr330.first_nonfinite(loss), next(i for i, v in enumerate(loss) if np.isnan(v))
    assert all(np.isfinite(loss[:inf_at])) and all(v == np.inf for v in loss[inf_at:nan_at])
    # predicted from the first step's loss and the factor: the epoch at which the sum of the n squared
    # residuals, which np.mean takes before dividing, passes the largest float64 (hence "overflow ... in reduce")
    n, biggest = len(y), np.finfo(np.float64).max
    predicted = 1 + math.ceil((math.log(biggest) - math.log(n * loss[1])) / math.log(factor))
    assert inf_at == predicted and loss[inf_at - 1] < biggest / n < loss[inf_at - 1] * factor
    # ...while the mean itself is still finite at that epoch and would overflow only at the next
    assert loss[inf_at - 1] * factor < biggest < loss[inf_at - 1] * factor ** 2
    with np.errstate(over="raise"):
        with pytest.raises(FloatingPointError):
            np.mean(np.full(n, np.sqrt(loss[inf_at - 1] * factor)) ** 2)       # n equal squares: the sum overflows
    with warnings.catch_warnings(record=True) as caught:                     # np.mean warns the same, from NumPy
        warnings.simplefilter("always")
        assert np.mean(np.full(n, np.sqrt(loss[inf_at - 1] * factor)) ** 2) == np.inf
    assert [str(w.message) for w in caught] == ["overflow encountered in reduce"]
    assert caught[0].filename.endswith("_methods.py")
    assert_entry_says("WR-330", [
        f"`RuntimeWarning: overflow encountered in reduce` at epoch {inf_at}: the loss, computed as np.mean "
        f"computes it, adds the {n} squared residuals before it divides, and their sum passes the largest float64 "
        "one epoch before their mean would (np.mean itself gives the same warning from NumPy's `_methods.py`)",
    ])
    assert_entry_says("WR-330", [
        f"starts at {loss[0]:.5g}, and after the first step every epoch multiplies it by {factor:.3g}, (η λ_max − 1)²",
        f"{loss[0]:.5g} against a target variance of {np.var(y):.0f}",
        f"inf at epoch {inf_at}",
        f"nan from epoch {nan_at}",
        f"the rate {wr330.TABLE_LR:g} is {wr330.TABLE_LR / raw['limit']:.2g} times the raw limit",
        f"a rate {wr330.TABLE_LR / raw['limit']:.2g} times past the limit",
        f"({wr330.TABLE_LR / raw['limit']:.2g} times for the snippet's building table, whose linear model is inf at "
        f"epoch {inf_at})",
    ])
    # frameworks train in float32: the same growth passes its largest value within three epochs
    biggest32 = float(np.finfo(np.float32).max)
    assert loss[2] < biggest32 < loss[3]
    assert_entry_says("WR-330", ["the same growth passes the largest float32 by epoch 3"])


def test_the_raw_run_prints_numpys_overflow_warnings_word_for_word(table):
    y, X = table["y"], table["inputs"]["raw units"]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("default")                    # Python's own filter: each place warns once
        wr330.fit_linear(X, y)
    assert {w.category for w in caught} == {RuntimeWarning}
    texts = [str(w.message) for w in caught]
    assert texts == ["overflow encountered in reduce", "overflow encountered in square",
                     "overflow encountered in matmul", "invalid value encountered in matmul",
                     "invalid value encountered in subtract"]
    # the sum inside np.mean overflows first; the matmul that overflows is the gradient's, X^T (2 r / n)
    source = (ROOT / "snippets" / "wr330_unnormalised_inputs.py").read_text(encoding="utf-8").splitlines()
    assert all(w.filename.endswith("wr330_unnormalised_inputs.py") for w in caught)
    assert "np.add.reduce(residual ** 2) / len(y)" in source[caught[0].lineno - 1]     # the sum of the squares
    assert caught[1].lineno == caught[0].lineno                                          # then a square itself
    assert all("X.T @ grad" in source[w.lineno - 1] for w in caught[2:])
    assert_entry_says("WR-330", [f"`RuntimeWarning: {texts[0]}`", f"`RuntimeWarning: {texts[1]}`",
                                 *(f"`{t}`" for t in texts[2:])])


def test_standardised_features_train_at_the_same_rate_and_a_safe_raw_rate_stops_at_a_plateau(table):
    """Below the limit the raw run does not crawl on: it stops where the error left lies along eigenvectors
    whose eta * lambda is below 1e-6 -- exactly what the eigen-decomposition predicts -- far above the
    least-squares loss, and it is the same after 300 and after 3000 epochs."""
    y, X, raw = table["y"], table["inputs"]["raw units"], table["curvature"]["raw units"]
    fixed, slow = table["runs"]["standardised"], table["runs"]["raw, rate below the limit"]
    assert all(b < a for a, b in zip(fixed, fixed[1:])) and fixed[-1] < 0.05
    assert all(np.isfinite(slow)) and slow[-1] > 100 * fixed[-1]
    lr = 0.98 * raw["limit"]
    longer = wr330.fit_linear(X, y, lr=lr, epochs=3000)
    at300, at3000 = longer[299], longer[-1]
    A = np.column_stack([X, np.ones(len(X))])
    solution = np.linalg.lstsq(A, y, rcond=None)[0]
    least = float(np.mean((A @ solution - y) ** 2))
    assert fixed[-1] == pytest.approx(least, rel=1e-3)                     # the standardised run gets there
    assert at3000 == pytest.approx(at300, rel=0.01) and at3000 > 10 * least  # a plateau, not a descent
    # the plateau is the part of the initial error along the flat directions, which the rate cannot move
    values, vectors = np.linalg.eigh(2 * A.T @ A / len(A))
    rng = np.random.default_rng(wr330.SEED + 2)                             # fit_linear's initial weights
    a = 1 / np.sqrt(X.shape[1])
    start = np.r_[rng.uniform(-a, a, X.shape[1]), rng.uniform(-a, a)]
    along = vectors.T @ (start - solution)
    assert least + 0.5 * np.sum(values * along ** 2) == pytest.approx(longer[0], rel=1e-9)
    flat = lr * values < 1e-6
    assert flat.sum() == 3 and lr * values[~flat].min() > 1e-2
    assert at3000 == pytest.approx(least + 0.5 * np.sum((values * along ** 2)[flat]), rel=0.01)
    assert abs(vectors[0, 1]) > 0.9999                                     # eigenvalue 0.0966: the share's weight
    assert vectors[4, 0] ** 2 > 0.9999                                     # the smallest: mostly the bias...
    assert -vectors[3, 0] / vectors[4, 0] == pytest.approx(1 / X[:, 3].mean(), rel=0.01)   # ...less 1/mean pressure
    assert_entry_says("WR-330", [
        f"falls from {fixed[0]:.4f} to {fixed[-1]:.4f} in {len(fixed)} epochs",
        f"raw run is at {slow[-1]:.1f} after {len(slow)} epochs and {at300:.4f} after 300, and still {at3000:.4f} "
        f"after 3000, where the least-squares fit reaches {least:.4f}",
        f"the three smallest eigenvalues, {values[2]:.3g}, {values[1]:.3g} and {values[0]:.3g}, have "
        "η·λ below 1e-6",
        f"1/{X[:, 3].mean():.0f} of that",
    ])
    centred = wr330.linear_curvature(X - X.mean(axis=0))["smallest"]
    spread_only = wr330.linear_curvature(X / X.std(axis=0))["smallest"]
    assert centred > 100 * values[0] and spread_only == pytest.approx(values[0], rel=0.01)
    assert_entry_says("WR-330", [f"centred but not scaled, the smallest eigenvalue is {centred:.3g}; divided by the "
                                 f"spread alone, it stays at {spread_only:.3g}"])


def test_a_relu_network_on_the_raw_table_jumps_once_and_dies_instead_of_going_nan(table):
    """The same rate through 16 ReLUs: 5 units are dead before any step; the first step moves every live unit
    one way on all rows, killing 8 and leaving 3 active on every row; it overshoots (the mean residual flips
    sign while the survivors' output weights keep theirs), so the second step pushes the 3 down on every row
    (WR-140). Then only the output bias learns: the loss's excess over the targets' variance shrinks by
    (1 - 2 lr)^2 per epoch. No inf, no nan, no warning."""
    y, inputs = table["y"], table["inputs"]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        raw = wr330.fit_relu_net(inputs["raw units"], y)
    fixed = wr330.fit_relu_net(inputs["standardised"], y)
    loss, dead, active = raw["loss"], raw["dead"], raw["active"]
    assert all(np.isfinite(loss)) and len(loss) == wr330.TABLE_EPOCHS
    assert dead[:3] == [5, 13, wr330.HIDDEN] and set(dead[2:]) == {wr330.HIDDEN}
    # dead at initialisation: below zero on every row before any update, not killed by a step
    X = inputs["raw units"]
    rng = np.random.default_rng(wr330.SEED + 3)
    a = 1 / np.sqrt(X.shape[1])
    z0 = X @ rng.uniform(-a, a, (X.shape[1], wr330.HIDDEN)) + rng.uniform(-a, a, wr330.HIDDEN)
    assert np.array_equal(active[0] == 0, (z0 <= 0).all(axis=0))
    # the first step moves each live unit the same way on every row
    live = active[0] > 0
    assert np.all(np.abs(np.sign(raw["shift"][0][:, live]).sum(axis=0)) == len(y))
    survivors = active[1] > 0
    assert survivors.sum() == 3 and np.all(active[1][survivors] == 1.0)        # on for every row
    # the overshoot: the mean residual flips sign, the survivors' output weights do not
    assert raw["mean_residual"][0] > 0 > raw["mean_residual"][1]
    assert np.all(np.sign(raw["w2"][0][survivors]) == np.sign(raw["w2"][1][survivors]))
    assert np.all(raw["shift"][1][:, survivors] < 0) and np.all(active[2] == 0)  # pushed off on every row
    assert loss[1] / loss[0] > 1e15
    excess = [v - np.var(y) for v in loss]
    assert excess[-1] / excess[-2] == pytest.approx((1 - 2 * wr330.TABLE_LR) ** 2, rel=1e-9)
    assert loss[-1] > 1e6 * np.var(y)
    assert fixed["loss"][-1] < 0.1 and fixed["dead"][-1] == 0
    longer = wr330.fit_relu_net(inputs["raw units"], y, epochs=200)["loss"]
    assert longer[-1] == pytest.approx(np.var(y), rel=1e-9)                # the loss of predicting the mean
    settled = next(i for i in range(len(longer)) if all(round(v, 4) == round(np.var(y), 4) for v in longer[i:]))
    assert_entry_says("WR-330", [
        f"Trained on, the raw run's loss reaches {np.var(y):.4f} at epoch {settled} and stays there: the targets' "
        "variance",
        f"{dead[0]} of the {wr330.HIDDEN} units are dead before any step",
        f"the first step takes the loss from {loss[0]:.4g} to {loss[1]:.3g} and kills {dead[1] - dead[0]} more, "
        f"and the next kills the last {dead[2] - dead[1]}",
        f"the loss is still {loss[-1]:.2g} after {len(loss)} epochs",
        f"(1 − 2η)² = {(1 - 2 * wr330.TABLE_LR) ** 2:.2f} each epoch",
        f"the standardised features train the same network to {fixed['loss'][-1]:.4f}",
        f"moves each of the {int(live.sum())} live units one way on all {len(y)} rows: {dead[1] - dead[0]} are "
        f"pushed below zero on every row, and the {int(survivors.sum())} pushed up are active on every row",
        f"the mean residual goes from {raw['mean_residual'][0]:.0f} to {raw['mean_residual'][1]:.3g} while the "
        f"output weights of those {int(survivors.sum())} keep their sign",
    ])


RELU_SEEDS = (wr330.SEED + 3, 0, 1, 2, 3)


def test_the_rows_shared_offset_not_the_features_sign_or_size_decides_between_death_and_nan(table):
    """The table is not all-positive (the score has both signs); what the rows share is a large offset, so every
    x_i . x_j is large and positive. Remove the offset and keep the size (centre, do not scale): the same network
    at the same rate goes inf, then nan, with every unit active on part of the rows until then, and its loss
    grows faster every epoch (the product of two layers, not the linear model's constant factor). Keep the offset
    and remove the size (divide by the spread): the units die again. For every initialisation tried."""
    y, X = table["y"], table["inputs"]["raw units"]
    assert (X[:, 1] < 0).mean() > 0.3                                      # not every feature positive
    gram = X @ X.T
    assert gram.min() > 0.3 * gram.mean()
    centred, spread_only = X - X.mean(axis=0), X / X.std(axis=0)
    assert centred[:, 2].std() > 300                                       # still in the hundreds
    with np.errstate(over="ignore", invalid="ignore"):
        runs = {seed: wr330.fit_relu_net(centred, y, seed=seed) for seed in RELU_SEEDS}
        dying = {seed: wr330.fit_relu_net(spread_only, y, seed=seed) for seed in RELU_SEEDS}
    for seed, run in runs.items():
        loss = run["loss"]
        assert wr330.first_nonfinite(loss) == 4 and loss[4] == np.inf and np.isnan(loss[5]) and len(loss) == 6
        assert run["dead"][:5] == [0] * 5
        assert all(np.all((a > 0) & (a < 1)) for a in run["active"][:5])  # on part of the rows, every unit
        growth = np.diff(np.log(loss[:4]))
        assert np.all(np.diff(growth) > 0)                                  # faster every epoch
        assert all(np.isfinite(dying[seed]["loss"])) and dying[seed]["dead"][-1] == wr330.HIDDEN
    run = runs[wr330.SEED + 3]
    mixed = [np.abs(np.sign(shift).sum(axis=0)) < len(y) for shift in run["shift"][:4]]
    assert all(np.all(m) for m in mixed)                                  # no unit moved one way on every row
    shares = np.array(run["active"][:5])
    assert_entry_says("WR-330", [
        f"the smallest {gram.min() / gram.mean():.2f} of their mean",
        f"is inf at epoch 4 and nan from epoch 5, with no unit dead before it: each unit is active on "
        f"{shares.min():.0%} to {shares.max():.0%} of the rows",
        "(the loss is " + ", ".join(f"{v:.4g}" for v in run["loss"][:4]) + ", then inf), in "
        f"{len(RELU_SEEDS)} of {len(RELU_SEEDS)} initialisations",
    ])


def test_a_softmax_regression_on_raw_pixels_stays_finite_because_its_gradient_is_bounded(inputs):
    """The same linear path under a stable cross-entropy: the gradient in the logits, p - y, has norm at most
    sqrt(2), so a step moves the weights by at most lr sqrt(2) max|a| and the loss by at most twice the
    largest change of a logit -- linear growth at most, never a factor per epoch. A naive softmax overflows."""
    y, data = inputs
    X = data["raw 0..255"]
    biggest = np.linalg.norm(np.column_stack([X, np.ones(len(X))]), axis=1).max()
    for lr in (1e-3, 0.1, 0.5):
        run = wr330.fit_softmax_regression(X, y, lr)
        assert all(np.isfinite(run["loss"]))
        assert max(run["step"]) <= lr * math.sqrt(2) * biggest
        assert np.abs(np.diff(run["loss"])).max() <= 2 * math.sqrt(2) * lr * biggest ** 2
        with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
            naive = wr330.fit_softmax_regression(X, y, lr, stable=False)["loss"]
        assert wr330.first_nonfinite(naive) == 1 and np.isnan(naive[1])
    long = wr330.fit_softmax_regression(X, y, 0.5, epochs=3000)["loss"]
    assert all(np.isfinite(long))
    loss = long[:60]
    peak = int(np.argmax(loss))
    assert loss[peak] > 1000 * loss[0] and loss[59] == 0.0
    assert_entry_says("WR-330", [
        f"at a rate of 0.5, climbs from {loss[0]:.4g} to {loss[peak]:.4g} at epoch {peak}, then trains: its loss is "
        f"{abs(loss[59]):g} after 60 epochs and still finite after 3000",
        "exp(z)/Σexp(z), overflows, and gives nan from epoch 1 (WR-020)",
    ])


def test_under_adam_the_raw_table_is_slow_not_loud(table):
    """Adam's step is about its rate whatever the gradient (Kingma & Ba 2015, section 2.1: at most
    lr (1 - beta1) / sqrt(1 - beta2)), so lambda_max no longer sets it: finite throughout, and slow."""
    y, inputs = table["y"], table["inputs"]
    beta1, beta2 = wr330.ADAM_BETAS
    raw, fixed = wr330.fit_linear_adam(inputs["raw units"], y), wr330.fit_linear_adam(inputs["standardised"], y)
    usual = wr330.fit_linear_adam(inputs["raw units"], y, lr=1e-3)
    for run, lr in ((raw, wr330.TABLE_LR), (usual, 1e-3)):
        assert all(np.isfinite(run["loss"])) and max(run["loss"]) == run["loss"][0]
        assert run["largest_step"] <= lr * (1 - beta1) / math.sqrt(1 - beta2)
        assert run["largest_step"] <= lr * (1 + 1e-9)
    # plain gradient descent's first step from the same weights (fit_linear's) is the gradient times the rate
    X = inputs["raw units"]
    rng = np.random.default_rng(wr330.SEED + 2)
    a = 1 / np.sqrt(X.shape[1])
    w, b = rng.uniform(-a, a, X.shape[1]), rng.uniform(-a, a)
    gd_step = wr330.TABLE_LR * np.abs(X.T @ (2 * (X @ w + b - y) / len(y))).max()
    assert gd_step > 1e4 * raw["largest_step"]
    assert raw["loss"][-1] > 5 * fixed["loss"][-1] and usual["loss"][-1] > 1000 * np.var(y)
    assert_entry_says("WR-330", [
        f"Under Adam at the same rate, {wr330.TABLE_LR:g}, no parameter of the raw linear model moves by more than "
        f"{wr330.TABLE_LR:g} in a step",
        f"its first value, {raw['loss'][0]:.5g}, is its highest; it is {raw['loss'][59]:.4g} after 60 epochs and "
        f"{raw['loss'][-1]:.4g} after {len(raw['loss'])}, against {fixed['loss'][-1]:.4f} for the standardised "
        f"features",
        f"0.001, it is still {usual['loss'][-1]:.0f} after {len(usual['loss'])} epochs",
    ])


def test_the_relu_image_network_also_ends_dead_at_the_class_frequency_loss(images, sweep):
    """ReLU instead of sigmoid units on the raw pixels: a first loss far above ln 4, and at rates from 0.01 up
    every unit dead and the loss at the class-frequency loss; a lower rate partly trains it."""
    (X_train, y_train), _ = images
    X, guess = X_train.astype(np.float64), wr330.frequency_loss(y_train)
    ends = {lr: wr330.fit_relu_classifier(X, y_train, lr) for lr in (1e-3, 1e-2, 0.1, 0.5)}
    first = ends[0.1]["loss"][0]
    assert first > 10 * math.log(wr330.CLASSES)
    for lr in (1e-2, 0.1, 0.5):
        run = ends[lr]
        assert all(np.isfinite(run["loss"])) and run["dead_at_end"] == wr330.HIDDEN
        assert abs(run["loss"][-1] - guess) < 0.03
    low = ends[1e-3]
    assert low["loss"][-1] < 0.2 and low["dead_at_end"] < wr330.HIDDEN
    assert low["loss"][-1] < min(sweep["raw"]) / 5                       # a lower rate helps here, not there
    assert_entry_says("WR-330", [
        f"its first loss is {first:.2f}, far above ln 4 = {math.log(4):.3f}",
        f"{low['loss'][-1]:.4f} at 0.001, with {low['dead_at_end']} units dead, where the sigmoid network's best "
        f"raw run in the sweep ends at {min(sweep['raw']):.4f}",
        f"{first:.2f} for the image network with ReLUs",
    ])


# --- every number in the prose ---------------------------------------------------------------------------

def test_numbers_in_the_entry_match_the_snippet(images, inputs, runs, sweep):
    (X_train, y_train), (X_val, y_val) = images
    X, _ = wr330.load_images()
    y, data = inputs
    raw_run, fixed, unit = runs["raw 0..255"], runs["standardised"], runs["scaled to [0, 1]"]
    guess = wr330.frequency_loss(y)
    settled = next(i for i in range(len(raw_run["loss"]))
                   if all(round(v, 4) == round(guess, 4) for v in raw_run["loss"][i:]))
    frozen = raw_run["constant"].index(wr330.HIDDEN)
    raw1, std1 = (wr330.first_layer(wr330.init_params(64), data[k]) for k in ("raw 0..255", "standardised"))
    shift = wr330.first_update_shift(data["raw 0..255"], y)
    raw_c, std_c = wr330.input_curvature(data["raw 0..255"]), wr330.input_curvature(data["standardised"])
    params = fixed["params"]
    val = wr330.standardise(X_val, wr330.fit_standardiser(X_train))
    accuracy = np.mean((wr330.sigmoid(val @ params["W1"] + params["b1"]) @ params["W2"] + params["b2"])
                       .argmax(axis=1) == y_val)
    pixels = X_train[0, :6]
    frozen_params = raw_run["params"]
    guesses = (wr330.sigmoid(data["raw 0..255"] @ frozen_params["W1"] + frozen_params["b1"]) @ frozen_params["W2"]
               + frozen_params["b2"]).argmax(axis=1)
    raw_accuracy = np.mean(guesses == y)
    assert raw_accuracy == np.bincount(y).max() / len(y)                  # the most frequent class, no better
    assert_entry_says("WR-330", [
        f"starts at {raw_run['loss'][0]:.4f} and sits at {guess:.4f} from epoch {settled} to the end",
        f"{raw_run['constant'][-1]} of {wr330.HIDDEN} in the snippet",
        f"pixels {', '.join(str(v) for v in pixels)} become "
        f"{', '.join(str(v) for v in (pixels.astype(int) - 128) % 256)}",
        f"`np.uint8(200) + 100` is {(200 + 100) % 256}",
        f"have a standard deviation of {raw1['std']:.1f}, against {std1['std']:.2f} after standardising; "
        f"{raw1['saturated']:.0%} of them lie beyond |z| = {wr330.SATURATED:g}",
        f"and {shift['flat_slopes']:.0%} are so far out",
        f"the spread of that shift over the {len(y)} images is {np.median(shift['spread_over_mean']):.3f} of its "
        f"mean size (median over the {shift['units']} units that get any gradient), and the median shift is "
        f"{np.median(shift['size']):.0f} units of z",
        f"{raw_run['constant'][0]} of the 16 units are constant at initialisation, before any step; the first "
        f"updates throw the other {wr330.HIDDEN - raw_run['constant'][0]} to a flat end, and all 16 of 16 are "
        f"constant {['no', 'one', 'two', 'three', 'four', 'five'][frozen]} epochs later",
        f"hence a loss of exactly {guess:.4f}",
        f"the accuracy, {raw_accuracy:.0%}, is that of always guessing the most frequent class",
        f"second-moment matrix XᵀX/n (no bias column and no factor 2: only its ratios matter here) is "
        f"{raw_c['largest']:.4g} and points along the mean image (the cosine between "
        f"them is {raw_c['along_mean']:.4f}); the smallest is {raw_c['smallest']:.1f}, a ratio of "
        f"{raw_c['condition']:.0f}",
        f"after standardising the ratio is {std_c['condition']:.2f}",
        f"in a sweep of rates from {wr330.RATES[0]:g} to {wr330.RATES[-1]:g}",
        f"(about 1 is healthy; {raw1['std']:.1f} in the snippet)",
        f"share of saturated units ({raw1['saturated']:.0%} in the snippet)",
        f"the first loss is ordinary ({raw_run['loss'][0]:.4f} here, with ln 4 = {math.log(4):.3f})",
        f"start with pre-activations of standard deviation {std1['std']:.2f}, none saturated, and the loss falls "
        f"from {fixed['loss'][0]:.4f} to {fixed['loss'][-1]:.4f} in {len(fixed['loss'])} epochs; "
        f"{accuracy:.0%} of the {len(y_val)} validation images",
        f"at the snippet's rate of 0.5 the same run ends at {unit['loss'][-1]:.4f}",
    ])
    assert X.mean() > 100 and X.dtype == np.uint8
