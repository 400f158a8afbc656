"""WR-050: a finite forward pass, a nan gradient -- the infinite slope of sqrt at 0 times a 0, the
unused branch of a where times the 0 the where sends it, and the fixes that keep the slope finite."""
import math

import numpy as np
import pytest

from conftest import assert_entry_says, load_snippet
from runtime_warnings import recorded

wr050 = load_snippet("wr050_nan_gradient")
BLANK = [17, 60, 103]


@pytest.fixture(scope="module")
def plain():
    run, texts = recorded(wr050.train_embedding, wr050.sqrt_plain, wr050.sqrt_plain_slope, verbose=False)
    run["warnings"] = texts
    return run


@pytest.fixture(scope="module")
def fixed():
    return recorded(wr050.train_embedding, wr050.sqrt_eps, wr050.sqrt_eps_slope, verbose=False)


@pytest.fixture(scope="module")
def safe():
    return recorded(wr050.train_embedding, wr050.sqrt_safe, wr050.sqrt_safe_slope, verbose=False)


def first_nonfinite(values):
    return next(i for i, v in enumerate(values) if not math.isfinite(v))


# --- the mechanism ---------------------------------------------------------------------------------

def test_sqrt_is_finite_at_zero_but_its_slope_is_inf():
    s = np.array([0.0, 0.25])
    d, texts = recorded(wr050.sqrt_plain, s)
    assert d.tolist() == [0.0, 0.5] and texts == []
    slope, texts = recorded(wr050.sqrt_plain_slope, s)
    assert slope.tolist() == [math.inf, 1.0] and texts == ["divide by zero encountered in divide"]


def test_the_blank_images_embed_at_exactly_zero_for_any_weights():
    X, y = wr050.make_images()
    assert np.flatnonzero(~X.any(axis=1)).tolist() == BLANK
    W = np.random.default_rng(0).normal(size=(16, 2))
    E = X[BLANK] @ W
    assert (E == 0).all()                                # rows of zeros: no rounding can make them differ
    assert y[17] == y[60] != y[103]


@pytest.mark.parametrize("labels, nan_at", [((1, 1), "dL/ds"), ((0, 1), "dL/ddiff")])
def test_both_kinds_of_pair_make_nan_one_way_or_the_other(labels, nan_at):
    """Same class: dL/dd = 2d = 0 meets the inf slope. Different classes: dL/ds = -inf meets 2 * diff = 0."""
    E = np.zeros((2, 2))
    (loss, cache), _ = recorded(wr050.contrastive_forward, E, np.array(labels), wr050.sqrt_plain)
    i, j, diff, s, d, same, hinge = cache
    assert math.isfinite(loss) and s.tolist() == [0.0] and d.tolist() == [0.0]
    dL_dd = np.where(same, 2 * d, -2 * hinge) / len(d)
    with np.errstate(all="ignore"):
        dL_ds = dL_dd * wr050.sqrt_plain_slope(s)
    if nan_at == "dL/ds":
        assert dL_dd.tolist() == [0.0] and np.isnan(dL_ds).all()
    else:
        assert dL_dd[0] < 0 and dL_ds.tolist() == [-math.inf]
        with np.errstate(invalid="ignore"):
            assert np.isnan(dL_ds[:, None] * (2 * diff)).all()
    dE, texts = recorded(wr050.contrastive_backward, E, cache, wr050.sqrt_plain_slope)
    assert np.isnan(dE).all()
    assert texts == ["divide by zero encountered in divide", "invalid value encountered in multiply"]


def one_pair_loss(labels, offset, sqrt_fn=wr050.sqrt_plain):
    """The loss of two embeddings that sit `offset` apart (the second moved from the first)."""
    E = np.zeros((2, 2))
    E[1] = offset
    return wr050.contrastive_forward(E, np.array(labels), sqrt_fn)[0]


def test_the_same_class_pair_has_a_derivative_and_it_is_zero():
    """d**2 = s is smooth: every difference quotient at the coincident point tends to 0."""
    for direction in (np.array([1.0, 0.0]), np.array([0.6, -0.8])):
        for h in (1e-4, 1e-6):
            assert abs(one_pair_loss((1, 1), h * direction) / h) <= 2 * h


def test_the_hinge_pair_has_no_derivative_at_zero_and_both_fixes_choose_zero():
    """(m - d)**2 is a peak at d = 0: slope -2m moving apart in any direction, +2m coming back, a central
    difference of 0 -- no derivative. The fixed backward passes return 0 there, a choice."""
    h = 1e-7
    for direction in (np.array([1.0, 0.0]), np.array([0.6, -0.8]), np.array([-1.0, 0.0])):
        one_sided = (one_pair_loss((0, 1), h * direction) - one_pair_loss((0, 1), 0 * direction)) / h
        assert one_sided == pytest.approx(-2 * wr050.MARGIN, rel=1e-6)
        central = (one_pair_loss((0, 1), h * direction) - one_pair_loss((0, 1), -h * direction)) / (2 * h)
        assert central == 0.0
    E = np.zeros((2, 2))
    for sqrt_fn, slope_fn in ((wr050.sqrt_eps, wr050.sqrt_eps_slope), (wr050.sqrt_safe, wr050.sqrt_safe_slope)):
        (_, cache), texts = recorded(wr050.contrastive_forward, E, np.array([0, 1]), sqrt_fn)
        assert (wr050.contrastive_backward(E, cache, slope_fn) == 0).all() and texts == []


def test_identical_inputs_of_different_classes_stay_at_one_point_after_the_fix(fixed):
    """The blank images embed at (0, 0) under any weights: after the fixed run the different-class pair
    still costs about MARGIN**2, and the gradient either fix gives it is exactly 0."""
    run, _ = fixed
    X, y = wr050.make_images()
    a, c = 17, 103
    assert y[a] != y[c]
    E = X[[a, c]] @ run["W"]
    loss, cache = wr050.contrastive_forward(E, y[[a, c]], wr050.sqrt_eps)
    assert (E == 0).all() and loss == pytest.approx(wr050.MARGIN ** 2, rel=1e-6)
    assert (wr050.contrastive_backward(E, cache, wr050.sqrt_eps_slope) == 0).all()


def test_backward_matches_finite_differences_away_from_zero():
    X, y = wr050.make_images()
    idx = np.arange(20, 30)                                  # no blank image: every distance is positive
    W = 0.3 * np.random.default_rng(1).normal(size=(16, 2))
    E = X[idx] @ W
    _, cache = wr050.contrastive_forward(E, y[idx], wr050.sqrt_plain)
    dE = wr050.contrastive_backward(E, cache, wr050.sqrt_plain_slope)
    direction = np.random.default_rng(2).normal(size=E.shape)
    h = 1e-6
    numeric = (wr050.contrastive_forward(E + h * direction, y[idx], wr050.sqrt_plain)[0]
               - wr050.contrastive_forward(E - h * direction, y[idx], wr050.sqrt_plain)[0]) / (2 * h)
    assert numeric == pytest.approx(float(np.sum(dE * direction)), rel=1e-6)


# --- the documented run ----------------------------------------------------------------------------

def test_the_loss_falls_then_is_nan_with_no_climb(plain):
    t = first_nonfinite(plain["loss"])
    assert t + 1 == 9                                        # epochs are numbered from 1
    assert np.all(np.diff(plain["loss"][:t]) < 0)
    assert all(math.isnan(v) for v in plain["loss"][t:])


def test_the_step_that_writes_nan_had_a_finite_loss_and_a_zero_distance(plain):
    bad = plain["first_bad"]
    assert (bad["step"], bad["epoch"]) == (126, 9)
    assert sorted(set(bad["batch"].tolist()) & set(BLANK)) == [17, 60]
    assert math.isfinite(bad["loss"]) and np.isfinite(bad["W"]).all()
    X, y = wr050.make_images()
    _, cache = wr050.contrastive_forward(X[bad["batch"]] @ bad["W"], y[bad["batch"]], wr050.sqrt_plain)
    s = cache[3]
    assert s.min() == 0.0 and np.sum(s == 0.0) == 1        # exactly one pair at distance 0
    with np.errstate(all="ignore"):
        dE = wr050.contrastive_backward(X[bad["batch"]] @ bad["W"], cache, wr050.sqrt_plain_slope)
    rows = np.flatnonzero(np.isnan(dE).any(axis=1))
    assert sorted(bad["batch"][rows].tolist()) == [17, 60] and np.isnan(dE[rows]).all()
    assert np.isnan(plain["weights"][bad["epoch"] - 1]).all()   # one nan row reaches every weight


def test_one_nan_row_reaches_every_weight_even_through_a_zero_input_row(plain):
    """At step 126 only the blank images' rows of dE are nan, and their rows of X are 0 -- yet the weight
    gradient X_b.T @ dE is nan in every entry, because 0 * nan is nan."""
    bad = plain["first_bad"]
    X, y = wr050.make_images()
    X_b = X[bad["batch"]]
    with np.errstate(all="ignore"):
        _, cache = wr050.contrastive_forward(X_b @ bad["W"], y[bad["batch"]], wr050.sqrt_plain)
        dE = wr050.contrastive_backward(X_b @ bad["W"], cache, wr050.sqrt_plain_slope)
        weight_gradient = X_b.T @ dE
    nan_rows = np.isnan(dE).any(axis=1)
    assert (X_b[nan_rows] == 0).all() and np.isfinite(dE[~nan_rows]).all()
    assert np.isnan(weight_gradient).all()


def test_the_warnings_are_exactly_the_two_documented(plain):
    assert set(plain["warnings"]) == {"divide by zero encountered in divide", "invalid value encountered in multiply"}


def test_raise_on_divide_stops_at_the_slope_of_sqrt_in_the_backward_pass():
    with np.errstate(divide="raise"), pytest.raises(FloatingPointError) as caught:
        wr050.train_embedding(wr050.sqrt_plain, wr050.sqrt_plain_slope, verbose=False)
    assert caught.traceback[-1].name == "sqrt_plain_slope"
    assert "contrastive_backward" in [entry.name for entry in caught.traceback]


def test_raise_on_divide_stops_the_guarded_division_already_in_the_forward_pass():
    with np.errstate(divide="raise"), pytest.raises(FloatingPointError) as caught:
        wr050.train_forecast(wr050.relative_error, wr050.relative_error_slope, steps=1, verbose=False)
    assert caught.traceback[-1].name == "relative_error"                # the branch's value, not its slope


def test_the_loss_over_all_pairs_includes_the_blank_pairs_and_is_finite():
    X, y = wr050.make_images()
    W = 0.3 * np.random.default_rng(0).normal(size=(16, 2))
    (loss, cache), texts = recorded(wr050.contrastive_forward, X @ W, y, wr050.sqrt_plain)
    assert math.isfinite(loss) and texts == [] and np.sum(cache[3] == 0.0) == 3   # the forward never sees it


def test_a_full_distance_matrix_is_nan_from_its_diagonal_even_when_masked():
    E = np.random.default_rng(3).normal(size=(4, 2))
    diff = E[:, None] - E[None]
    s = np.sum(diff ** 2, axis=-1)
    d = wr050.sqrt_plain(s)
    off_diagonal = ~np.eye(4, dtype=bool)
    loss = np.sum(np.where(off_diagonal, d ** 2, 0.0))         # the diagonal masked out of the loss
    assert math.isfinite(loss)
    with np.errstate(all="ignore"):
        dL_ds = np.where(off_diagonal, 2 * d, 0.0) * wr050.sqrt_plain_slope(s)
    assert np.isnan(np.diag(dL_ds)).all() and np.isfinite(dL_ds[off_diagonal]).all()


def test_eps_outside_the_sqrt_is_nan_from_the_same_step(plain):
    """sqrt(s) + eps keeps sqrt's slope: the run with eps outside the sqrt writes nan at the same step."""
    outside, _ = recorded(wr050.train_embedding, lambda s: wr050.sqrt_plain(s) + wr050.EPS,
                          wr050.sqrt_plain_slope, verbose=False)
    assert outside["first_bad"]["step"] == plain["first_bad"]["step"]
    assert outside["loss"][:8] == pytest.approx(plain["loss"][:8], rel=1e-9)


def test_eps_must_survive_the_dtype():
    """In float16 the eps of 1e-12 rounds to 0 (NumPy keeps the array's dtype for a Python float): the
    slope at 0 is inf again. An eps of 2**-24, float16's smallest positive value, caps it at 2048."""
    s16 = np.zeros(1, np.float16)
    slope, texts = recorded(wr050.sqrt_eps_slope, s16)
    assert slope.dtype == np.float16 and slope.tolist() == [math.inf]
    assert texts == ["divide by zero encountered in divide"]
    capped, texts = recorded(wr050.sqrt_eps_slope, s16, eps=2.0 ** -24)
    assert capped.tolist() == [2048.0] and texts == []
    assert wr050.sqrt_eps(s16, eps=2.0 ** -24).tolist() == [2.0 ** -12]


# --- the where -------------------------------------------------------------------------------------

def test_the_unused_branch_is_inf_its_slope_is_inf_and_where_sends_it_zero():
    X, y = wr050.make_sales()
    sold = y != 0
    assert int(np.sum(~sold)) == 30 and len(y) == 200
    pred = np.full(len(y), 2.0)
    (branch, slope), texts = recorded(lambda: (wr050.relative_error(pred, y, sold),
                                               wr050.relative_error_slope(pred, y, sold)))
    assert np.isinf(branch[~sold]).all() and np.isinf(slope[~sold]).all()
    assert texts == ["divide by zero encountered in divide", "divide by zero encountered in divide"]
    assert math.isfinite(float(np.sum(np.where(sold, branch, 0.0))))     # the forward value is right
    dL_dbranch = np.where(sold, 1.0, 0.0)
    product, texts = recorded(lambda: dL_dbranch * slope)
    assert np.isnan(product[~sold]).all() and np.isfinite(product[sold]).all()
    assert texts == ["invalid value encountered in multiply"]


def test_the_forecast_is_finite_at_step_0_and_nan_from_step_1():
    run, texts = recorded(wr050.train_forecast, wr050.relative_error, wr050.relative_error_slope, steps=3,
                          verbose=False)
    assert math.isfinite(run["mape"][0]) and all(math.isnan(v) for v in run["mape"][1:])
    assert set(texts) == {"divide by zero encountered in divide", "invalid value encountered in multiply"}


def test_the_inner_where_gives_the_true_slope_where_it_is_defined_and_zero_elsewhere():
    X, y = wr050.make_sales()
    sold = y != 0
    pred = np.random.default_rng(4).normal(size=len(y)) + 3
    with np.errstate(divide="ignore"):
        branch, slope = wr050.relative_error(pred, y, sold), wr050.relative_error_slope(pred, y, sold)
    (safe_branch, safe_slope), texts = recorded(lambda: (wr050.relative_error_safe(pred, y, sold),
                                                         wr050.relative_error_safe_slope(pred, y, sold)))
    assert texts == []
    assert np.array_equal(safe_branch[sold], branch[sold]) and np.array_equal(safe_slope[sold], slope[sold])
    assert np.isfinite(safe_slope).all()
    assert (np.where(sold, 1.0, 0.0) * safe_slope)[~sold].tolist() == [0.0] * 30


def test_the_forecast_gradient_with_the_inner_where_matches_finite_differences():
    X, y = wr050.make_sales()
    sold = y != 0
    w, b = np.array([0.3, -0.2, 0.1]), 1.0

    def mape(w):
        branch = wr050.relative_error_safe(X @ w + b, y, sold)
        return float(np.sum(np.where(sold, branch, 0.0)) / np.sum(sold))

    slope = wr050.relative_error_safe_slope(X @ w + b, y, sold)
    grad = X.T @ (np.where(sold, 1.0, 0.0) / np.sum(sold) * slope)
    h = 1e-7
    numeric = [(mape(w + h * e) - mape(w - h * e)) / (2 * h) for e in np.eye(3)]
    np.testing.assert_allclose(numeric, grad, rtol=1e-5)


# --- the fixes -------------------------------------------------------------------------------------

def test_eps_inside_caps_the_slope_and_biases_the_distance_by_at_most_sqrt_eps():
    assert wr050.sqrt_eps_slope(0.0) == 1 / (2 * math.sqrt(wr050.EPS)) == 500000.0
    assert wr050.sqrt_eps(0.0) == pytest.approx(1e-6, rel=1e-12)
    s = np.geomspace(1e-20, 10, 200)
    assert np.all(wr050.sqrt_eps(s) - np.sqrt(s) <= math.sqrt(wr050.EPS))


def test_the_double_where_is_the_plain_sqrt_wherever_s_is_positive():
    s = np.random.default_rng(5).random(1000) * 10.0 ** np.random.default_rng(6).integers(-30, 3, 1000)
    assert np.array_equal(wr050.sqrt_safe(s), np.sqrt(s))
    assert np.array_equal(wr050.sqrt_safe_slope(s), wr050.sqrt_plain_slope(s))
    (value, slope), texts = recorded(lambda: (wr050.sqrt_safe(np.zeros(1)), wr050.sqrt_safe_slope(np.zeros(1))))
    assert value.tolist() == [0.0] and slope.tolist() == [0.0] and texts == []


def test_the_double_where_run_is_bitwise_the_plain_run_until_the_zero(plain, safe, monkeypatch):
    run, _ = safe
    for epoch in range(plain["first_bad"]["epoch"] - 1):
        assert np.array_equal(run["weights"][epoch], plain["weights"][epoch])
    # step by step: the same start and the same gradients for steps 0..125 give the same weights
    gradients = {}
    backward = wr050.contrastive_backward

    def recording(E, cache, slope_fn):
        dE = backward(E, cache, slope_fn)
        gradients.setdefault(slope_fn.__name__, []).append(dE)
        return dE

    monkeypatch.setattr(wr050, "contrastive_backward", recording)
    with np.errstate(all="ignore"):
        for sqrt_fn, slope_fn in ((wr050.sqrt_plain, wr050.sqrt_plain_slope), (wr050.sqrt_safe, wr050.sqrt_safe_slope)):
            wr050.train_embedding(sqrt_fn, slope_fn, epochs=9, verbose=False)
    step = plain["first_bad"]["step"]
    plain_steps, safe_steps = gradients["sqrt_plain_slope"], gradients["sqrt_safe_slope"]
    assert all(np.array_equal(a, b) for a, b in zip(plain_steps[:step], safe_steps[:step]))
    assert np.isnan(plain_steps[step]).any() and np.isfinite(safe_steps[step]).all()


def test_the_safe_gradient_at_the_failing_step_is_the_true_one(plain):
    bad = plain["first_bad"]
    X, y = wr050.make_images()
    E, labels = X[bad["batch"]] @ bad["W"], y[bad["batch"]]
    _, cache = wr050.contrastive_forward(E, labels, wr050.sqrt_safe)
    dE = wr050.contrastive_backward(E, cache, wr050.sqrt_safe_slope)
    assert np.isfinite(dE).all()
    direction = np.random.default_rng(7).normal(size=E.shape)
    h = 1e-7
    numeric = (wr050.contrastive_forward(E + h * direction, labels, wr050.sqrt_plain)[0]
               - wr050.contrastive_forward(E - h * direction, labels, wr050.sqrt_plain)[0]) / (2 * h)
    assert numeric == pytest.approx(float(np.sum(dE * direction)), rel=1e-5)


def test_both_fixes_train_through_every_step(fixed, safe):
    for run, texts in (fixed, safe):
        assert texts == []
        assert run["first_bad"] is None and np.isfinite(run["W"]).all() and run["steps"] == 180
        assert all(math.isfinite(v) for v in run["loss"])
    assert f"{fixed[0]['loss'][-1]:.4f}" == f"{safe[0]['loss'][-1]:.4f}"
    assert fixed[0]["loss"][-1] < 0.65 * fixed[0]["loss"][0]


def test_clipping_cannot_rescue_a_nan_gradient(plain):
    """The project's global-norm clip (WR-240's snippet) on the gradient of step 126: the norm is nan, and
    the gradient that comes out is as nan as the one that went in -- whether it scales or passes it on."""
    clip = load_snippet("wr240_clipping_not_clipping").clip_by_global_norm
    bad = plain["first_bad"]
    X, y = wr050.make_images()
    X_b = X[bad["batch"]]
    with np.errstate(all="ignore"):
        _, cache = wr050.contrastive_forward(X_b @ bad["W"], y[bad["batch"]], wr050.sqrt_plain)
        grads = {"W": X_b.T @ wr050.contrastive_backward(X_b @ bad["W"], cache, wr050.sqrt_plain_slope)}
        for max_norm in (1e-3, 1.0, 1e3):
            clipped, norm, _ = clip(grads, max_norm)
            assert math.isnan(norm) and np.isnan(clipped["W"]).all()
            scaled = grads["W"] * np.minimum(1.0, max_norm / norm)          # a clip that always scales
            assert np.isnan(scaled).all()


def test_the_forecast_trains_with_the_inner_where():
    run, texts = recorded(wr050.train_forecast, wr050.relative_error_safe, wr050.relative_error_safe_slope,
                          verbose=False)
    assert texts == [] and all(math.isfinite(v) for v in run["mape"])
    assert np.all(np.diff(run["mape"]) < 0)


# --- the page --------------------------------------------------------------------------------------

def test_numbers_in_the_entry_match_the_snippet(plain, fixed, safe):
    t = first_nonfinite(plain["loss"])
    bad = plain["first_bad"]
    forecast, _ = recorded(wr050.train_forecast, wr050.relative_error, wr050.relative_error_slope, steps=2,
                           verbose=False)
    repaired, _ = recorded(wr050.train_forecast, wr050.relative_error_safe, wr050.relative_error_safe_slope,
                           verbose=False)
    X, y = wr050.make_sales()
    loss = plain["loss"]
    assert_entry_says("WR-050", [
        f"falls {loss[0]:.4f}, {loss[1]:.4f}, {loss[2]:.4f}, … to {loss[t - 1]:.4f} after epoch {t} and is nan "
        f"from epoch {t + 1}",
        f"The step that did it, step {bad['step']}, had a finite loss of {bad['loss']:.4f}",
        f"prints {forecast['mape'][0]:.4f} at step 0 and nan from step 1",
        "The snippet's blank images 17 and 60 both embed at (0, 0), so when step 126 puts them in one batch "
        "their s is exactly 0.0",
        f"In the snippet {int(np.sum(y == 0))} of {len(y)} days sold nothing",
        f"in the snippet at step {bad['step']}",
        f"Its slope is at most 1/(2√ε), {wr050.sqrt_eps_slope(0.0):.0f} for ε = {wr050.EPS:g}",
        f"biased by at most √ε = {math.sqrt(wr050.EPS):.0e}",
        f"the weights are bitwise the same as the plain run's for the first {bad['step']} steps",
        f"train through all {fixed[0]['steps']} steps and end at {fixed[0]['loss'][-1]:.4f}",
        f"falls from {repaired['mape'][0]:.4f} to {repaired['mape'][-1]:.4f} in {len(repaired['mape'])} steps",
        f"slope −2m (−{2 * wr050.MARGIN:g} for the snippet's margin m = {wr050.MARGIN:g})",
        f"in the snippet that run is nan from the same step {bad['step']}",
        f"at least 2⁻²⁴ ≈ {2.0 ** -24:.3g}, float16's smallest positive value (slope cap "
        f"{float(wr050.sqrt_eps_slope(np.zeros(1, np.float16), eps=2.0 ** -24)[0]):.0f})",
        f"or {float(np.finfo(np.float16).tiny):.2g}, its smallest normal value",
        f"their pair still costs m² = {wr050.MARGIN ** 2:g} at the end",
    ])


def test_every_declared_message_cites_a_line():
    """A reader (and a test) checks a quoted message against the line its source link points at."""
    from trainwreck.catalog import load
    from conftest import ROOT

    for message in load(ROOT / "catalog").entries["WR-050"].messages:
        assert "#L" in message.source, message.source


def test_figure_data_is_plain_numbers_from_the_runs(plain):
    figure = wr050.figure_data()
    slope_panel, loss_panel = figure["panels"]
    plain_slope = slope_panel["series"][0]["y"]
    assert np.all(np.diff(plain_slope) < 0)                     # grows without bound as s falls
    assert max(slope_panel["series"][1]["y"]) <= 500000.0
    curve = loss_panel["series"][0]["y"]
    assert curve[:8] == plain["loss"][:8] and all(math.isnan(v) for v in curve[8:])
    assert loss_panel["vlines"][0]["x"] == plain["first_bad"]["epoch"]
    assert "nan from epoch 9" in figure["alt"]
