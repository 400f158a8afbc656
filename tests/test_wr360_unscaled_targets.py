"""WR-360: regression targets left unscaled -- the first loss is the targets' mean square, the gradient and the
curvature grow with the targets, a unit-scale rate diverges with the overflow warnings, a stable rate barely
learns, and standardising the targets (inverted on the predictions) fixes it where a rate cut or a loss scale
does not."""
import numpy as np
import pytest

from conftest import assert_entry_says, load_snippet, tab_program_run

wr360 = load_snippet("wr360_unscaled_targets")
SNIPPET = "snippets/wr360_unscaled_targets.py"


@pytest.fixture(scope="module")
def data():
    X, y = wr360.training_split()
    return X, y, wr360.to_scaled(y, wr360.fit_target_scaler(y))


@pytest.fixture(scope="module")
def blowup(data):
    X, y, _ = data
    with np.errstate(over="ignore", invalid="ignore"):
        return wr360.train(X, y, epochs=12)


@pytest.fixture(scope="module")
def fixed(data):
    X, _, scaled = data
    return wr360.train(X, scaled)


@pytest.fixture(scope="module")
def sweep():
    return wr360.rate_sweep()


@pytest.fixture(scope="module")
def sharp(data):
    X, y, scaled = data
    return {"raw": wr360.sharpness(X, y), "standardised": wr360.sharpness(X, scaled),
            "zero": wr360.sharpness(X, 0 * y), "double": wr360.sharpness(X, 2 * y)}


@pytest.fixture(scope="module")
def reproduce():
    return tab_program_run(SNIPPET, "reproduce")


@pytest.fixture(scope="module")
def fix():
    return tab_program_run(SNIPPET, "fix")


# --- the mechanism --------------------------------------------------------------------------------------

def test_the_first_loss_is_the_targets_mean_square_because_the_fresh_output_is_near_zero(data, blowup):
    X, y, _ = data
    out = wr360.predict(wr360.init_params(), X)[0]
    assert np.abs(out).max() < 1                                           # outputs of order 1, targets ~3000
    assert blowup["loss"][0] == pytest.approx(np.mean(y ** 2), rel=1e-3)
    assert np.mean(y ** 2) == pytest.approx(y.mean() ** 2 + y.var(), rel=1e-12)
    assert y.mean() ** 2 / np.mean(y ** 2) > 0.9                            # nearly all of it the mean
    assert_entry_says("WR-360", [
        f"(at most {np.abs(out).max():.2f} in size here)",
        f"with a mean of {y.mean():.1f} and a standard deviation of {y.std():.1f} the snippet's first loss is about "
        f"{y.mean() ** 2 + y.var():.4g}",
        f"mean² + variance ({y.mean() ** 2 + y.var():.4g} here)",
    ])


def test_the_gradient_is_affine_in_the_targets_and_near_zero_output_makes_it_proportional(data):
    X, y, _ = data
    params = wr360.init_params()
    g0, g1, g2 = (wr360.flat(wr360.gradients(params, X, t)[1]) for t in (0 * y, y, 2 * y))
    assert np.allclose(g2 - g0, 2 * (g1 - g0), rtol=1e-12, atol=1e-8)     # exactly linear in y
    assert np.linalg.norm(g0) < 1e-3 * np.linalg.norm(g1)                   # the y-free part is negligible


def test_the_output_layer_gets_the_large_gradient_first_and_the_hidden_layer_through_the_output_weights(data):
    X, y, scaled = data
    params = wr360.init_params()
    first = wr360.layer_gradients(params, X, y)
    out = wr360.predict(params, X)[0]
    assert first["b2"] == pytest.approx(2 * abs(np.mean(out - y)), rel=1e-12)
    assert min(first["W2"], first["b2"]) > 5 * first["W1"]
    grads = wr360.gradients(params, X, y)[1]
    stepped = {k: params[k] - wr360.LR * grads[k] for k in params}
    growth = np.linalg.norm(stepped["W2"]) / np.linalg.norm(params["W2"])
    second = wr360.layer_gradients(stepped, X, y)
    assert growth > 100 and second["W1"] > 100 * first["W1"]
    assert second["b2"] < 3 * first["b2"]                                   # the bias's own gradient barely grows
    norm = lambda g: float(np.sqrt(sum(v ** 2 for v in g.values())))
    raw, std = norm(first), norm(wr360.layer_gradients(params, X, scaled))
    assert raw > 1000 * std
    assert_entry_says("WR-360", [
        f"its norm at the initial weights is {raw:.0f}, against {std:.4f} for the same network on standardised targets",
        f"the output layer's weights and bias get gradients of {first['W2']:.0f} and {first['b2']:.0f}",
        f"while the hidden layer's weights get {first['W1']:.0f}",
        f"still small (norm {np.linalg.norm(params['W2']):.3f})",
        f"multiplies those output weights by {growth:.0f}, to a norm of {np.linalg.norm(stepped['W2']):.0f}",
        f"the next gradient of the hidden weights is {second['W1']:.3g}",
        f"({raw:.0f} against {std:.4f} here)",
    ])


def test_the_largest_curvature_grows_with_the_targets_and_sets_the_stable_rate(sharp, sweep):
    raw, std, zero, double = (sharp[k]["lambda_max"] for k in ("raw", "standardised", "zero", "double"))
    assert double == pytest.approx(2 * raw, rel=0.01)                      # the residual term dominates
    assert zero < 10 and std < 10 and raw > 500 * std
    limit = sharp["raw"]["limit"]
    diverged = [lr for lr, v in zip(wr360.RATES, sweep["raw"]) if not np.isfinite(v)]
    assert min(diverged) > limit and all(lr > limit for lr in diverged)
    assert all(np.isfinite(v) for lr, v in zip(wr360.RATES, sweep["raw"]) if lr < limit)
    assert_entry_says("WR-360", [
        f"the largest eigenvalue is {raw:.0f} with raw targets, {std:.3f} with standardised ones ({zero:.3f} with "
        f"all targets 0, and twice {raw:.0f} with doubled targets)",
        f"raw targets need a rate below {limit:.2g} where standardised ones tolerate up to "
        f"{sharp['standardised']['limit']:.2f}",
        f"The rate {wr360.LR:g} is {wr360.LR / limit:.0f} times past the raw limit",
        f"diverges from {min(diverged):g} up, {min(diverged) / limit:.1f} times that limit",
        f"({raw:.0f} raw, {std:.3f} standardised in the snippet)",
    ])


# --- the symptom ------------------------------------------------------------------------------------------

def test_a_unit_scale_rate_climbs_to_inf_then_nan(blowup):
    loss = blowup["loss"]
    first_inf = next(i for i, v in enumerate(loss) if np.isinf(v))
    first_nan = next(i for i, v in enumerate(loss) if np.isnan(v))
    finite = loss[:first_inf]
    assert all(b > a for a, b in zip(finite, finite[1:]))
    ratios = [b / a for a, b in zip(finite, finite[1:])]
    assert all(b > a for a, b in zip(ratios, ratios[1:]))                   # each epoch faster than the last
    assert len(loss) == first_nan + 1                                       # train() stops at the first nan
    assert_entry_says("WR-360", [
        f"mean squared error of {loss[0]:.6g}",
        ", ".join(f"{v:.6g}" for v in finite) + f", inf at epoch {first_inf} and nan from epoch {first_nan}",
    ])


def test_the_declared_numpy_texts_are_what_numpy_writes_for_an_overflowing_square_and_product():
    import warnings

    from conftest import ROOT
    from trainwreck.catalog import load

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        np.array([1e200]) ** 2
        np.array([[1e200]]) @ np.array([[1e200]])
    declared = [m.text for m in load(ROOT / "catalog").entries["WR-360"].messages if m.origin == "numpy"]
    assert [str(w.message) for w in caught] == declared


def test_reproduce_tab_prints_the_overflow_of_the_square_first_then_the_matmul(reproduce, blowup):
    assert reproduce.returncode == 0
    lines = reproduce.stdout.splitlines()
    warnings = [line.split("RuntimeWarning: ", 1)[1] for line in lines if "RuntimeWarning: " in line]
    assert warnings[:2] == ["overflow encountered in square", "overflow encountered in matmul"]
    assert any(w.startswith("invalid value encountered in") for w in warnings)
    epochs = [line for line in lines if line.startswith("epoch")]
    assert epochs[0] == f"epoch   0  loss {blowup['loss'][0]:.6g}" and epochs[-1].endswith("loss nan")
    assert "Traceback" not in reproduce.stdout


def test_a_stable_rate_learns_little_and_not_through_the_output_bias(data, sweep, fixed):
    X, y, _ = data
    best, rate = wr360.best_of(sweep, "raw")
    run = wr360.quiet_train(X, y, rate)
    p, start = run["params"], wr360.init_params()
    mean = float(np.mean(wr360.predict(p, X)[0]))
    assert abs(mean - y.mean()) < 0.01 * y.std()
    assert run["bias"][-1] < 0.01 * y.mean()
    through_units = float(np.maximum(X @ p["W1"] + p["b1"], 0).mean(axis=0) @ p["W2"])
    assert abs(through_units - y.mean()) < 0.01 * y.mean()                 # the ReLU units carry the mean
    norm = lambda params, k: float(np.linalg.norm(params[k]))
    assert norm(p, "W2") > 10 * norm(fixed["params"], "W2")
    assert norm(p, "W1") > 10 * norm(start, "W1") and norm(fixed["params"], "W1") < 1.5 * norm(start, "W1")
    std_best = sweep["standardised"][wr360.RATES.index(wr360.LR)]
    assert best > 3 * std_best
    assert_entry_says("WR-360", [
        f"the best rate of a sweep, {rate:g}, ends at {best:.4f} of the targets' variance after 300",
        f"where the standardised targets reach {std_best:.4f} at rate {wr360.LR:g}",
        f"at the best rate, {rate:g}, the output's mean reaches the targets' mean ({mean:.1f} against {y.mean():.1f}",
        f"which only moves from {start['b2'][0]:.2f} to {run['bias'][-1]:.1f}",
        f"the weights' norms go from {norm(start, 'W1'):.2f} to {norm(p, 'W1'):.1f} in the hidden layer and from "
        f"{norm(start, 'W2'):.2f} to {norm(p, 'W2'):.1f} at the output, against {norm(fixed['params'], 'W1'):.2f} and "
        f"{norm(fixed['params'], 'W2'):.2f} after the standardised run",
        f"learned at a rate {wr360.LR / rate:.0f} times smaller than the {wr360.LR:g} that standardised targets train with",
        f"the loss is still {best:.4f} of the variance",
        f"The sweep over rates from {wr360.RATES[0]:g} to {wr360.RATES[-1]:g}",
    ])


# --- the fix -------------------------------------------------------------------------------------------

def test_the_scaler_uses_the_training_split_and_its_inverse_restores_the_units(data):
    X_all, y_all = wr360.load_prices()
    _, y, scaled = data
    mean, std = wr360.fit_target_scaler(y)
    assert mean == pytest.approx(y.mean()) and mean != pytest.approx(y_all.mean(), abs=1e-6)
    assert scaled.mean() == pytest.approx(0, abs=1e-12) and scaled.std() == pytest.approx(1)
    assert np.allclose(wr360.to_units(scaled, (mean, std)), y, rtol=0, atol=1e-9)


def test_standardised_targets_train_at_the_same_rate_and_predict_in_the_targets_units(data, fixed, fix, sweep):
    X_all, y_all = wr360.load_prices()
    (_, y_train), (X_val, y_val) = wr360.split(X_all, y_all)
    scaler = wr360.fit_target_scaler(y_train)
    loss = fixed["loss"]
    assert all(b < a for a, b in zip(loss, loss[1:]))
    predicted = wr360.to_units(wr360.predict(fixed["params"], X_val)[0], scaler)
    rmse = float(np.sqrt(np.mean((predicted - y_val) ** 2)))
    baseline = float(np.sqrt(np.mean((y_val - scaler[0]) ** 2)))
    assert rmse < 0.4 * baseline
    assert fix.returncode == 0 and "Warning" not in fix.stdout
    assert f"validation RMSE {rmse:.1f} on {len(y_val)} rows," in fix.stdout
    best, rate = wr360.best_of(sweep, "standardised")
    assert_entry_says("WR-360", [
        f"then start at {loss[0]:.4f} and fall to {loss[-1]:.4f} in {len(loss)} epochs",
        f"validation RMSE of {rmse:.1f} on {len(y_val)} rows, against {baseline:.1f} for always predicting the "
        f"training mean",
        f"standardised targets reach {loss[-1]:.4f} at rate {wr360.LR:g} and {best:.4f} at rate {rate:g}",
        f"No rate in the sweep trains raw targets below {wr360.best_of(sweep, 'raw')[0]:.4f} of their variance",
    ])


def affine_output_gradients(params, X, y, mean, std):
    """The gradient of the raw-unit loss mean((std * f + mean - y)^2) for the network f, written out."""
    out, z = wr360.predict(params, X)
    h = np.maximum(z, 0)
    g = 2 * (std * out + mean - y) / len(y) * std
    gh = np.outer(g, params["W2"]) * (z > 0)
    return {"W1": X.T @ gh, "b1": gh.sum(axis=0), "W2": h.T @ g, "b2": np.array([g.sum()])}


def test_standardising_is_an_affine_output_with_a_smaller_rate_and_no_raw_rate_matches_it(data, fixed, sweep):
    """Training f on (y - mean)/std at rate lr takes the same steps as training std*f + mean on y at
    rate lr/std^2; plain f on raw y at any rate of the sweep ends far above it."""
    X, y, scaled = data
    mean, std = wr360.fit_target_scaler(y)
    params = wr360.init_params()
    for _ in range(5):
        step_std = wr360.gradients(params, X, scaled)[1]
        step_affine = affine_output_gradients(params, X, y, mean, std)
        for k in params:
            assert np.allclose((wr360.LR / std ** 2) * step_affine[k], wr360.LR * step_std[k], rtol=1e-9, atol=1e-14)
            params[k] = params[k] - wr360.LR * step_std[k]
    assert min(v for v in sweep["raw"] if np.isfinite(v)) > 3 * fixed["loss"][-1]


def test_scaling_the_loss_by_the_variance_is_a_rate_cut_that_learns_nothing(data):
    """Dividing the loss by var(y) divides every gradient by it: plain gradient descent at lr on the scaled
    loss is gradient descent at lr / var(y) on the loss."""
    X, y, _ = data
    var = float(y.var())
    run = wr360.quiet_train(X, y, wr360.LR / var)
    share = run["loss"][-1] / var
    assert share > 0.95 * run["loss"][0] / var
    assert_entry_says("WR-360", [
        f"exactly a rate of {wr360.LR:g} / {var:.4g} = {wr360.LR / var:.2g}",
        f"the loss is still {share:.2f} times the variance",
    ])


# --- the page's picture ------------------------------------------------------------------------------

def test_figure_data_matches_the_runs(blowup, fixed, sweep):
    fig = wr360.figure_data()
    assert fig["panels"][0]["series"][0]["y"][0] == blowup["loss"][0]
    assert fig["panels"][1]["series"][0]["y"][-1] == pytest.approx(fixed["loss"][-1])
    assert fig["panels"][2]["series"][0]["y"] == [v if np.isfinite(v) else None for v in sweep["raw"]]
    assert f"{wr360.best_of(sweep, 'raw')[0]:.4f}" in fig["alt"]
