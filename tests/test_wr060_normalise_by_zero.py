"""WR-060: normalisations that divide by a spread or length of exactly 0 -- which entries are nan, why a
batch of one passes no signal even with eps, which eps a dtype can hold -- and that the fixes work."""
import math

import numpy as np
import pytest

from conftest import assert_entry_says, load_snippet
from runtime_warnings import recorded

wr060 = load_snippet("wr060_normalise_by_zero")


@pytest.fixture(scope="module")
def train_split():
    X, y = wr060.make_scans()
    return wr060.split(X, y)[0]


def frame_columns():
    frame = np.ones((wr060.SIDE, wr060.SIDE), bool)
    frame[1:-1, 1:-1] = False
    return np.flatnonzero(frame.ravel())


# --- a feature that never varies -------------------------------------------------------------------

def test_exactly_the_frame_pixels_have_std_zero(train_split):
    X_train, _ = train_split
    assert np.flatnonzero(X_train.std(axis=0) == 0).tolist() == frame_columns().tolist()
    assert len(frame_columns()) == 20 and len(X_train) == 160


def test_standardising_makes_those_columns_nan_in_every_row_and_nothing_else(train_split):
    X_train, _ = train_split
    Xs, texts = recorded(wr060.standardise, X_train)
    assert texts == ["invalid value encountered in divide"]
    nan_columns = np.flatnonzero(np.isnan(Xs).any(axis=0))
    assert nan_columns.tolist() == frame_columns().tolist()
    assert np.isnan(Xs[:, nan_columns]).all() and int(np.isnan(Xs).sum()) == 160 * 20
    assert np.isfinite(np.delete(Xs, nan_columns, axis=1)).all()


def test_the_loss_is_nan_from_step_0_although_the_weights_start_at_zero(train_split):
    X_train, y_train = train_split
    with np.errstate(invalid="ignore"):
        Xs = wr060.standardise(X_train)
    assert np.isnan(Xs @ np.zeros(Xs.shape[1])).all()             # nan * 0 is nan
    run, texts = recorded(wr060.train, Xs, y_train, verbose=False)
    assert all(math.isnan(v) for v in run["loss"]) and texts == []   # the loss adds no warning of its own


def test_a_constant_need_not_have_std_zero():
    for c in (0.0, 1.0, 3.0, 255.0):                                   # small integers: an exact mean
        assert np.full(160, c).mean() == c and np.full(160, c).std() == 0.0
    column = np.full(160, 0.1)
    assert column.mean() != 0.1
    assert f"{column.std():.3g}" == "1.39e-17"
    assert (((column - column.mean()) / column.std()) == 1.0).all()    # rounding error over rounding error
    keep, _, _ = wr060.fit_scaler(column[:, None])
    assert keep.tolist() == [False]                                   # the rounding-aware test drops it
    assert column.std() > 0                                           # where std > 0 would have kept it


def test_fit_scaler_keeps_a_feature_that_does_vary():
    X = np.column_stack([np.full(160, 0.1), np.linspace(0.0, 1.0, 160), 1e6 + np.arange(160.0)])
    keep, mean, std = wr060.fit_scaler(X)
    assert keep.tolist() == [False, True, True] and np.all(std > 0)


# --- a batch of one --------------------------------------------------------------------------------

def test_batch_of_one_without_eps_is_zero_over_zero():
    Z = np.random.default_rng(0).normal(size=(1, 4))
    assert Z.var(axis=0).tolist() == [0.0] * 4 and np.array_equal(Z.mean(axis=0), Z[0])
    (out, _), texts = recorded(wr060.batch_norm, Z, np.ones(4), np.full(4, 0.1), 0.0)
    assert np.isnan(out).all() and texts == ["invalid value encountered in divide"]


def test_batch_of_one_with_eps_outputs_beta_and_passes_no_gradient():
    rng = np.random.default_rng(1)
    beta = np.full(4, 0.1)
    for scale in (1.0, 10.0, 1000.0):
        Z = scale * rng.normal(size=(1, 4))
        out, cache = wr060.batch_norm(Z, rng.normal(size=4), beta, 1e-5)
        assert np.array_equal(out[0], beta)
        upstream = rng.normal(size=(1, 4))
        assert (wr060.batch_norm_backward(upstream, cache) == 0).all()
        assert ((upstream * cache[0]).sum(axis=0) == 0).all()             # nor to gamma: only beta learns


def test_batch_norm_backward_matches_finite_differences():
    rng = np.random.default_rng(2)
    Z, gamma, beta, upstream = rng.normal(size=(16, 3)), rng.normal(size=3), rng.normal(size=3), rng.normal(size=(16, 3))
    _, cache = wr060.batch_norm(Z, gamma, beta, 1e-5)
    grad = wr060.batch_norm_backward(upstream, cache)
    direction = rng.normal(size=Z.shape)
    h = 1e-6
    numeric = (np.sum(upstream * wr060.batch_norm(Z + h * direction, gamma, beta, 1e-5)[0])
               - np.sum(upstream * wr060.batch_norm(Z - h * direction, gamma, beta, 1e-5)[0])) / (2 * h)
    assert numeric == pytest.approx(float(np.sum(grad * direction)), rel=1e-6)


def test_a_batch_of_two_says_only_which_is_larger():
    for gap in (0.5, 3.0, 40.0):
        out, cache = wr060.batch_norm(np.array([[0.0], [gap]]), np.ones(1), np.zeros(1), 1e-5)
        var = cache[1][0]
        np.testing.assert_allclose(np.abs(out[:, 0]), math.sqrt(var / (var + 1e-5)), rtol=1e-12)
        assert out[0, 0] < -0.999 and out[1, 0] > 0.999
    outputs, slopes = wr060.response(2, (-2.0, 0.0, 2.0))
    assert np.allclose(np.abs(outputs), 1.0, atol=1e-4) and max(slopes) < 1e-4


def test_slopes_by_batch_size():
    slopes = {size: wr060.response(size, (-2.0, 0.0, 2.0))[1][1] for size in (1, 2, 16)}
    assert slopes[1] == 0.0
    assert 0 < slopes[2] < 1e-4 < 0.5 < slopes[16]
    outputs16 = wr060.response(16, (-2.0, 0.0, 2.0))[0]
    assert outputs16[0] < outputs16[1] < outputs16[2]


# --- a zero vector ---------------------------------------------------------------------------------

def test_a_zero_vector_has_no_direction():
    v = np.zeros(3)
    unit, texts = recorded(lambda: v / np.sqrt(np.sum(v ** 2)))
    assert np.isnan(unit).all() and texts == ["invalid value encountered in divide"]


def test_unit_length_with_eps_maps_zero_to_zero_and_barely_moves_the_rest():
    V = np.vstack([np.zeros(3), np.random.default_rng(3).normal(size=(50, 3))])
    U, texts = recorded(wr060.unit_length, V)
    assert texts == [] and (U[0] == 0).all()
    exact = V[1:] / np.linalg.norm(V[1:], axis=1, keepdims=True)
    relative = np.abs(U[1:] - exact).max(axis=1) / np.abs(exact).max(axis=1)
    assert np.all(relative <= 1e-12 / np.sum(V[1:] ** 2, axis=1) + 4e-16)


# --- eps and the dtype -----------------------------------------------------------------------------

def test_an_eps_below_half_the_smallest_float16_flushes_to_zero():
    tiny = float(np.finfo(np.float16).smallest_subnormal)
    assert tiny == 2.0 ** -24 and f"{tiny:.3g}" == "5.96e-08"
    assert np.float16(2.0 ** -25) == 0 and np.float16(np.nextafter(2.0 ** -25, 1)) == 2.0 ** -24
    assert np.float16(1e-8) == 0.0
    var16 = np.zeros(1, np.float16)
    ratio, texts = recorded(lambda: var16 / np.sqrt(var16 + np.float16(1e-8)))
    assert np.isnan(ratio).all() and texts == ["invalid value encountered in divide"]


def test_an_eps_that_rounds_away_against_a_typical_variance_still_guards_zero():
    assert f"{float(np.float16(1e-5)):.5g}" == "1.0014e-05"
    assert np.float16(1) + np.float16(1e-5) == np.float16(1)              # rounds away: harmless
    assert np.float16(0) + np.float16(1e-5) > 0                            # still there where it is needed
    var16 = np.zeros(1, np.float16)
    assert (var16 / np.sqrt(var16 + np.float16(1e-5)) == 0).all()
    # the same distinction in float32, with 1e-8
    assert np.float32(1) + np.float32(1e-8) == np.float32(1) and np.float32(0) + np.float32(1e-8) > 0


def test_eps_caps_the_gain():
    for eps, cap in ((1e-5, "316"), (1e-3, "31.6")):
        gains = 1 / np.sqrt(np.geomspace(1e-9, 1.0, 50) ** 2 + eps)
        assert gains.max() < 1 / math.sqrt(eps) and f"{1 / math.sqrt(eps):.3g}" == cap


# --- the fix ---------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def fixed(train_split):
    X_train, y_train = train_split
    scaler = wr060.fit_scaler(X_train)
    return recorded(wr060.train, wr060.apply_scaler(X_train, scaler), y_train, verbose=False), scaler


def test_the_scaler_leaves_out_exactly_the_frame(fixed):
    (_, _), (keep, mean, std) = fixed
    assert np.flatnonzero(~keep).tolist() == frame_columns().tolist() and np.all(std > 0)


def test_the_fixed_run_learns_with_no_warning(fixed):
    (run, texts), scaler = fixed
    assert texts == [] and all(math.isfinite(v) for v in run["loss"])
    assert abs(run["loss"][0] - math.log(2)) < 1e-12 and run["loss"][-1] < 0.05
    assert np.all(np.diff(run["loss"]) < 0)
    X, y = wr060.make_scans()
    _, (X_test, y_test) = wr060.split(X, y)
    z = wr060.apply_scaler(X_test, scaler) @ run["w"] + run["b"]
    assert np.mean((z > 0) == (y_test == 1)) == 1.0


def test_eps_under_the_sqrt_makes_the_frame_exactly_zero(train_split, fixed):
    X_train, y_train = train_split
    Xe, texts = recorded(wr060.standardise_eps, X_train)
    assert texts == [] and (Xe[:, frame_columns()] == 0).all()
    run = wr060.train(Xe, y_train, verbose=False)
    assert f"{run['loss'][-1]:.4f}" == f"{fixed[0][0]['loss'][-1]:.4f}"
    assert f"{0.5 / math.sqrt(wr060.EPS):.1f}" == "158.1"


def test_numbers_in_the_entry_match_the_snippet(train_split, fixed):
    X_train, _ = train_split
    (run, _), _ = fixed
    slopes = {size: wr060.response(size, (-2.0, 0.0, 2.0))[1][1] for size in (1, 2, 16)}
    column = np.full(160, 0.1)
    X, y = wr060.make_scans()
    _, (X_test, y_test) = wr060.split(X, y)
    z = wr060.apply_scaler(X_test, fixed[1]) @ run["w"] + run["b"]
    assert_entry_says("WR-060", [
        f"In the snippet, {len(X_train)} training scans of {wr060.SIDE}×{wr060.SIDE} pixels",
        f"{len(frame_columns())} pixels have std 0, the standardised data holds {len(X_train) * 20} nan entries "
        f"({len(X_train)} rows × 20 pixels), and the loss is nan from step 0",
        f"a column holding 0.1 in all 160 rows has a computed std of {column.std():.3g}",
        "in the snippet 0.1 for three different inputs",
        f"is 0 in a batch of 1, {slopes[2]:.3g} in a batch of 2, and {slopes[16]:.3g} in a batch of 16",
        f"float16's smallest positive value is 2⁻²⁴ ≈ {2.0 ** -24:.3g}",
        f"anything up to 2⁻²⁵ ≈ {2.0 ** -25:.3g} rounds to 0",
        f"1e-5 is stored as {float(np.float16(1e-5)):.5g}",
        f"at 1/√ε ({1 / math.sqrt(1e-5):.0f} for 1e-5)",
        f"the loss falls from {run['loss'][0]:.4f} to {run['loss'][-1]:.4f} in {len(run['loss'])} steps and the "
        f"test accuracy is {np.mean((z > 0) == (y_test == 1)):.2f}",
        f"eps under the sqrt gives the same run, ending at {run['loss'][-1]:.4f}",
        f"gets 0.5/√1e-5 = {0.5 / math.sqrt(wr060.EPS):.1f} in that pixel",
        "(20 in the snippet)",
    ])


def test_figure_data_is_plain_numbers_from_the_runs():
    figure = wr060.figure_data()
    response, gain = figure["panels"]
    curves = {s["label"]: s["y"] for s in response["series"]}
    assert set(curves["batch of 1"]) == {0.0}
    two = np.array(curves["batch of 2"])
    assert np.sum(np.abs(two) < 0.99) <= 1 and np.sum(np.diff(np.sign(two)) != 0) == 1   # a step
    assert np.all(np.diff(curves["batch of 16"]) > 0)
    gains = {s["label"]: s["y"] for s in gain["series"]}
    assert max(gains["eps = 1e-5 (PyTorch)"]) < 1 / math.sqrt(1e-5) and max(gains["eps = 1e-3 (Keras)"]) < 31.7
    assert "caps it at 316" in figure["alt"] and "at 31.6" in figure["alt"]
