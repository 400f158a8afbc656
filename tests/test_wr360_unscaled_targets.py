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
            "zero": wr360.sharpness(X, 0 * y), "double": wr360.sharpness(X, 2 * y),
            "bias at mean": wr360.sharpness(X, y, wr360.bias_at_mean(y))}


NEAR_LIMIT = (3e-4, 4e-4, 5e-4)      # between the sweep's 3e-4 (finite) and 1e-3 (diverges)


@pytest.fixture(scope="module")
def near_limit(data):
    X, y, _ = data
    return {lr: np.array(wr360.quiet_train(X, y, lr)["loss"]) / y.var() for lr in NEAR_LIMIT}


BIAS_RATES = (1e-4, 3e-4, 1e-3, wr360.LR)


@pytest.fixture(scope="module")
def bias_runs(data):
    X, y, _ = data
    return {lr: wr360.descend(wr360.bias_at_mean(y), X, y, lr) for lr in BIAS_RATES}


@pytest.fixture(scope="module")
def adam(data):
    X, y, scaled = data
    return {"raw": wr360.descend(wr360.init_params(), X, y, 1e-3, adam=True),
            "raw, loss / var": wr360.descend(wr360.init_params(), X, y, 1e-3, adam=True, loss_scale=1 / y.var()),
            "standardised": wr360.descend(wr360.init_params(), X, scaled, 1e-3, adam=True)}


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


def test_gradients_is_the_gradient_of_the_loss_by_central_differences(data):
    """hessian() differentiates gradients(), so the curvature argument stands on this."""
    X, y, scaled = data
    theta = wr360.flat(wr360.init_params())
    loss = lambda t, target: float(np.mean((wr360.predict(wr360.unflat(t), X)[0] - target) ** 2))
    for target in (y, scaled):
        eps = 1e-5
        numeric = np.array([(loss(theta + eps * e, target) - loss(theta - eps * e, target)) / (2 * eps)
                            for e in np.eye(theta.size)])
        exact = wr360.flat(wr360.gradients(wr360.unflat(theta), X, target)[1])
        assert np.abs(numeric - exact).max() < 1e-6 * np.abs(exact).max()


def test_a_model_linear_in_its_parameters_converges_on_the_same_raw_targets_at_the_same_rate(data):
    X, y, _ = data
    lin = wr360.linear_fit(X, y)
    assert wr360.LR < 2 / lin["lambda_max"]
    assert all(np.isfinite(lin["loss"])) and lin["loss"][-1] == pytest.approx(lin["least_squares"], rel=1e-6)
    assert lin["loss"][0] == pytest.approx(np.mean(y ** 2))                # it starts as far away as the net
    # its Hessian, by central differences of its gradient, is the same for any targets
    A = np.c_[X, np.ones(len(X))]
    grad = lambda t, target: 2 * A.T @ (A @ t - target) / len(y)
    hess = lambda target: np.array([(grad(e * 1e-3, target) - grad(-e * 1e-3, target)) / 2e-3 for e in np.eye(5)])
    assert np.allclose(hess(y), hess(0 * y), rtol=1e-9) and np.allclose(hess(y), hess(2 * y), rtol=1e-9)
    assert float(np.linalg.eigvalsh(hess(y))[-1]) == pytest.approx(lin["lambda_max"], rel=1e-9)
    assert_entry_says("WR-360", [
        f"its largest eigenvalue is {lin['lambda_max']:.3f} for any y, and plain gradient descent at the same rate "
        f"{wr360.LR:g} on the same raw targets converges, to {lin['loss'][-1] / y.var():.4f} of their variance after "
        f"{len(lin['loss'])} epochs, the least-squares optimum of a linear model",
    ])


def test_the_first_step_inflates_every_layer_and_overshoots_only_through_the_product(data):
    X, y, scaled = data
    params = wr360.init_params()
    first = wr360.layer_gradients(params, X, y)
    out = wr360.predict(params, X)[0]
    assert first["b2"] == pytest.approx(2 * abs(np.mean(out - y)), rel=1e-12)
    grads = wr360.gradients(params, X, y)[1]
    step = lambda names: {k: params[k] - wr360.LR * grads[k] if k in names else params[k] for k in params}
    growth = {k: np.linalg.norm(step([k])[k]) / np.linalg.norm(params[k]) for k in params}
    assert all(g > 20 for g in growth.values())                             # every layer, not only the output
    loss = lambda p: float(np.mean((wr360.predict(p, X)[0] - y) ** 2))
    start, output_only, hidden_only, both = (loss(step(names)) for names in
                                             ((), ("W2", "b2"), ("W1", "b1"), tuple(params)))
    assert output_only < start and hidden_only < start < both               # each layer alone descends
    norm = lambda g: float(np.sqrt(sum(v ** 2 for v in g.values())))
    raw, std = norm(first), norm(wr360.layer_gradients(params, X, scaled))
    assert raw > 1000 * std
    n = lambda p, k: float(np.linalg.norm(p[k]))
    assert_entry_says("WR-360", [
        f"in norm the hidden weights grow {growth['W1']:.0f} times ({n(params, 'W1'):.2f} to {n(step(['W1']), 'W1'):.1f}), "
        f"the hidden biases {growth['b1']:.0f} times, the output weights {growth['W2']:.0f} times "
        f"({n(params, 'W2'):.3f} to {n(step(['W2']), 'W2'):.0f}) and the output bias {growth['b2']:.0f} times",
        f"alone lowers the loss from {start:.4g} to {output_only:.4g}, applied to the hidden layer alone to "
        f"{hidden_only:.4g}, and applied to both raises it to {both:.4g}",
        f"({raw:.0f} against {std:.4f} here)",
        f"the output layer's weights and bias get {first['W2']:.0f} and {first['b2']:.0f}",
        f"the hidden layer's weights and biases {first['W1']:.0f} and {first['b1']:.0f}",
    ])


def test_the_largest_curvature_grows_with_the_targets_and_has_a_mirror_eigenvalue(sharp):
    raw, std, zero, double = (sharp[k]["lambda_max"] for k in ("raw", "standardised", "zero", "double"))
    assert double == pytest.approx(2 * raw, rel=0.01)                      # the residual term dominates
    assert zero < 10 and std < 10 and raw > 500 * std
    assert sharp["raw"]["lambda_min"] == pytest.approx(-raw, rel=1e-3)    # the cross block's +- pair
    assert sharp["standardised"]["lambda_min"] > -std                      # no mirror when the residual is small
    limit = sharp["raw"]["limit"]
    assert_entry_says("WR-360", [
        f"the largest eigenvalue is {raw:.0f} with raw targets, {std:.3f} with standardised ones ({zero:.3f} with "
        f"all targets 0, and twice {raw:.0f} with doubled targets)",
        f"the smallest eigenvalue is {sharp['raw']['lambda_min']:.0f}".replace("-", "\N{MINUS SIGN}"),
        f"explains): {limit:.2g} for raw targets, {sharp['standardised']['limit']:.2f} for standardised ones",
        f"The rate {wr360.LR:g} is {wr360.LR / limit:.0f} times past the raw limit",
        f"({raw:.0f} raw, {std:.3f} standardised in the snippet)",
    ])


def test_the_divergence_threshold_lies_just_above_2_over_lambda_max_and_finite_runs_near_it_swing(sharp, sweep,
                                                                                                     near_limit):
    limit = sharp["raw"]["limit"]
    diverged = [lr for lr, v in zip(wr360.RATES, sweep["raw"]) if not np.isfinite(v)]
    assert all(lr > 2 * limit for lr in diverged)                           # the sweep's own grid
    low, high = 4e-4, 5e-4
    assert np.all(np.isfinite(near_limit[low])) and not np.isfinite(near_limit[high][-1])
    assert 1 <= low / limit and high / limit <= 1.5                         # the threshold sits in [1, 1.5] x 2/lambda
    swing = near_limit[3e-4]
    dip = int(np.argmin(swing[:60]))
    peak = dip + int(np.argmax(swing[dip:dip + 10]))
    assert swing[dip] < 0.05 * swing[0] and swing[peak] > swing[0]          # down below the variance, back above the start
    assert near_limit[3e-4][-1] > 10 and near_limit[low][-1] > 10
    assert near_limit[3e-4][-1] == pytest.approx(sweep["raw"][wr360.RATES.index(3e-4)])
    assert_entry_says("WR-360", [
        f"A rate of {low:g} ({low / limit:.1f} times 2/λ_max) stays finite and {high:g} ({high / limit:.1f} times) "
        f"diverges",
        f"at {3e-4:g} the loss falls to {swing[dip]:.3f} of the variance by epoch {dip} and is back at "
        f"{swing[peak]:.2f} by epoch {peak}",
        f"{3e-4:g} and {low:g} end at {near_limit[3e-4][-1]:.2f} and {near_limit[low][-1]:.2f} times the variance",
    ])


# --- the symptom ------------------------------------------------------------------------------------------

def test_a_unit_scale_rate_climbs_to_inf_then_nan(blowup):
    loss = blowup["loss"]
    first_inf = next(i for i, v in enumerate(loss) if np.isinf(v))
    first_nan = next(i for i, v in enumerate(loss) if np.isnan(v))
    finite = loss[:first_inf]
    assert all(b > a for a, b in zip(finite, finite[1:]))
    logs = np.log(finite)
    log_ratios = logs[1:] / logs[:-1]
    assert all(b > a for a, b in zip(log_ratios, log_ratios[1:]))           # each epoch faster than the last
    assert 2.5 < log_ratios[-1] < 3.2                                       # the output grows as its own cube
    assert len(loss) == first_nan + 1                                       # train() stops at the first nan
    top32 = float(np.finfo(np.float32).max)
    assert finite[3] > top32 > finite[2]                                    # float32 is already inf at epoch 3
    assert_entry_says("WR-360", [
        f"mean squared error of {loss[0]:.6g}",
        ", ".join(f"{v:.6g}" for v in finite) + f", inf at epoch {first_inf} and nan from epoch {first_nan}",
        "the logarithm of the loss is multiplied by " + ", ".join(f"{r:.2f}" for r in log_ratios[:-1])
        + f" and {log_ratios[-1]:.2f} from one epoch to the next",
        f"the snippet's loss at epoch 3, {finite[3]:.6g}, is already beyond float32's largest value, {top32:.4g}",
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
    later = warnings[2:]
    assert later and all(w.split(" encountered in ")[0] in ("overflow", "invalid value") for w in later)
    assert any(w.startswith("invalid value encountered in") for w in later)
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
    assert best == min(v for v in sweep["raw"] if np.isfinite(v))
    assert all(np.isfinite(v) for lr, v in zip(wr360.RATES, sweep["raw"]) if lr <= rate)
    assert all(b <= a for a, b in zip(run["loss"], run["loss"][1:]))       # steadily: it never climbs
    assert_entry_says("WR-360", [
        f"the best rate of a sweep, {rate:g}, ends at {best:.4f} of the targets' variance after 300",
        f"where the standardised targets reach {std_best:.4f} at rate {wr360.LR:g}",
        f"Only rates of {rate:g} and below train steadily, and the best of them learns little: the output's mean "
        f"reaches the targets' mean "
        f"({mean:.1f} against {y.mean():.1f}",
        f"which only moves from {start['b2'][0]:.2f} to {run['bias'][-1]:.1f}",
        f"the weights' norms go from {norm(start, 'W1'):.2f} to {norm(p, 'W1'):.1f} in the hidden layer and from "
        f"{norm(start, 'W2'):.2f} to {norm(p, 'W2'):.1f} at the output, against {norm(fixed['params'], 'W1'):.2f} and "
        f"{norm(fixed['params'], 'W2'):.2f} after the standardised run",
        f"learned at a rate {wr360.LR / rate:.0f} times smaller than the {wr360.LR:g} that standardised targets train with",
        f"the loss is still {best:.4f} of the variance",
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
        f"no rate in the sweep trains raw targets below {wr360.best_of(sweep, 'raw')[0]:.4f} of their variance",
    ])


def test_an_output_bias_at_the_targets_mean_removes_the_offset_but_not_the_scale(data, sharp, bias_runs, fixed, sweep):
    X, y, _ = data
    share = {lr: run["loss"][-1] / y.var() for lr, run in bias_runs.items()}
    first = bias_runs[1e-4]["loss"][0]
    assert first == pytest.approx(np.mean((wr360.predict(wr360.bias_at_mean(y), X)[0] - y) ** 2))
    assert first == pytest.approx(y.var(), rel=0.01)                        # the offset is gone from the first loss
    before, after = sharp["raw"]["lambda_max"], sharp["bias at mean"]["lambda_max"]
    assert before > 4 * after
    trains = [lr for lr in BIAS_RATES if lr < wr360.LR]
    assert all(share[lr] < 0.2 for lr in trains)                            # every small rate trains
    assert min(share[lr] for lr in trains) < fixed["loss"][-1]              # better than the standardised run
    assert all(max(bias_runs[lr]["loss"]) == bias_runs[lr]["loss"][0] for lr in trains)
    assert all(np.isfinite(bias_runs[lr]["loss"]).all() and len(bias_runs[lr]["loss"]) == 300 for lr in trains)
    blown = bias_runs[wr360.LR]["loss"]
    assert not np.isfinite(blown[-1])                                       # the spread still sets the rate
    assert_entry_says("WR-360", [
        f"with the output bias set to {y.mean():.1f} and nothing else changed, the first loss is the variance "
        f"({first:.4g}), λ_max at the start falls from {before:.0f} to {after:.0f}",
        f"to {share[1e-4]:.4f} of the variance after 300 epochs at rate {1e-4:g}, {share[3e-4]:.4f} at {3e-4:g} and "
        f"{share[1e-3]:.4f} at {1e-3:g}, as well as the standardised run ({fixed['loss'][-1]:.4f} at rate {wr360.LR:g})",
        f"the rates that train are {wr360.LR / max(trains):.0f} to {wr360.LR / min(trains):.0f} times below the "
        f"{wr360.LR:g} that standardised targets take, which diverges here too (non-finite by epoch {len(blown) - 1})",
    ])


def test_under_adam_raw_targets_give_a_stuck_loss_not_nan_and_loss_scaling_changes_almost_nothing(data, adam):
    X, y, scaled = data
    raw, scaled_loss, std = adam["raw"]["loss"], adam["raw, loss / var"]["loss"], adam["standardised"]["loss"]
    assert len(raw) == 300 and np.all(np.isfinite(raw))                     # no inf, no nan
    assert raw[-1] > 0.99 * raw[0] and raw[-1] / y.var() > 17               # stuck in the millions
    moved = float(adam["raw"]["params"]["b2"][0] - wr360.init_params()["b2"][0])
    assert 0.5 * 300 * 1e-3 < moved <= 300 * 1e-3 * 1.01                    # about the rate per step
    assert std[-1] / scaled.var() < 0.2
    assert scaled_loss[-1] == pytest.approx(raw[-1], rel=1e-6)              # Adam is blind to the loss's scale
    gd = wr360.descend(wr360.init_params(), X, y, 1e-3, epochs=5, loss_scale=1 / y.var())
    assert gd["loss"][-1] == pytest.approx(wr360.descend(wr360.init_params(), X, y, 1e-3 / y.var(), epochs=5)["loss"][-1],
                                           rel=1e-12)                      # plain descent is not: a rate cut
    assert_entry_says("WR-360", [
        f"takes the snippet's loss from {raw[0]:.4g} to {raw[-1]:.4g} in {len(raw)} steps, still "
        f"{raw[-1] / y.var():.2f} times the targets' variance",
        f"the output bias has moved {moved:.2f} towards a mean of {y.mean():.1f}",
        f"({raw[-1] / y.var():.2f} times the variance after 300 steps at rate {1e-3:g} in the snippet, where "
        f"standardised targets reach {std[-1] / scaled.var():.4f} at that rate)",
        f"at rate {1e-3:g} the loss after 300 steps is {raw[-1] / y.var():.2f} times the variance with or without "
        f"the division",
    ])


def affine_output_gradients(params, X, y, mean, std):
    """The gradient of the raw-unit loss mean((std * f + mean - y)^2) for the network f, written out."""
    out, z = wr360.predict(params, X)
    h = np.maximum(z, 0)
    g = 2 * (std * out + mean - y) / len(y) * std
    gh = np.outer(g, params["W2"]) * (z > 0)
    return {"W1": X.T @ gh, "b1": gh.sum(axis=0), "W2": h.T @ g, "b2": np.array([g.sum()])}


def test_standardising_is_an_affine_output_trained_with_a_smaller_rate(data):
    """Training f on (y - mean)/std at rate lr takes the same steps as training std*f + mean on y at
    rate lr/std^2 (the gradient written out here against gradients(), itself checked by central differences)."""
    X, y, scaled = data
    mean, std = wr360.fit_target_scaler(y)
    params = wr360.init_params()
    for _ in range(5):
        step_std = wr360.gradients(params, X, scaled)[1]
        step_affine = affine_output_gradients(params, X, y, mean, std)
        for k in params:
            assert np.allclose((wr360.LR / std ** 2) * step_affine[k], wr360.LR * step_std[k], rtol=1e-9, atol=1e-14)
            params[k] = params[k] - wr360.LR * step_std[k]


def test_a_rate_of_lr_over_var_learns_nothing_in_300_epochs(data):
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
