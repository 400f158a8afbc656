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


def test_a_held_out_scan_that_differs_on_a_zero_spread_column_is_inf(train_split):
    """The inf face: with the training statistics, (SMUDGE - 0) / 0 = inf in the smudged frame pixels, and
    0 / 0 = nan in the rest of the frame."""
    X_train, _ = train_split
    X, y = wr060.make_scans()
    _, (X_test, _) = wr060.split(X, y)
    Xs, texts = recorded(wr060.standardise, wr060.smudged(X_test), reference=X_train)
    assert sorted(set(texts)) == ["divide by zero encountered in divide", "invalid value encountered in divide"]
    top = np.arange(wr060.SIDE)
    assert (Xs[:, top] == np.inf).all() and wr060.SMUDGE > 0
    rest = np.setdiff1d(frame_columns(), top)
    assert np.isnan(Xs[:, rest]).all() and len(rest) == 14
    assert np.isfinite(np.delete(Xs, frame_columns(), axis=1)).all()


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


def test_a_range_of_an_item_of_equal_values_is_exactly_zero_whatever_the_value():
    """The page: min-max scaling by an item's own range is 0/0 for every constant item, not only an exactly
    representable one -- min and max are elements of the item, so neither x - min nor max - min rounds (unlike the
    0.1 column's std above, 1.39e-17)."""
    for c in (0.0, 0.1, 1 / 3, 4095.0):
        item = np.full(64, c)
        lo, hi = np.percentile(item, (1, 99.8))
        assert hi - lo == 0.0 and item.max() - item.min() == 0.0
        with np.errstate(invalid="ignore"):
            assert np.isnan((item - lo) / (hi - lo)).all()
    # (a hand-written (1 - t)·a + t·b rounds 0.7 off by one unit in float32: the range is still 0, the rest ±inf)
    item = np.full(100, 0.7, np.float32)
    lo, hi = (np.float32(1 - t) * item[0] + np.float32(t) * item[0] for t in (0.01, 0.99))
    assert lo == hi != item[0]
    with np.errstate(divide="ignore"):
        assert np.isinf((item - lo) / (hi - lo)).all()
    # (a tile all but blank: its 1st and 99th percentiles are both 0 -- nan where it is blank, inf where it is not)
    tile = np.zeros((64, 64))
    tile.flat[:10] = 200.0
    lo, hi = np.percentile(tile, (1, 99))
    with np.errstate(invalid="ignore", divide="ignore"):
        scaled = (tile - lo) / (hi - lo)
    assert lo == hi == 0 and np.isnan(scaled).sum() == 4086 and np.isinf(scaled).sum() == 10
    assert_entry_says("WR-060", ["the same item has a range of 0", "there the 0/0 is exact for any value",
                                 "min and max are values of the item itself", "in `np.percentile` and `torch.quantile`",
                                 "give ±inf instead", "so is the blank part of a tile that is all but blank"])


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
    (outputs, gradients), _ = recorded(wr060.batch_of_one, eps=0.0)
    assert np.isnan(outputs).all() and np.isnan(gradients).all()


def test_the_snippets_batch_of_one_outputs_beta_for_three_different_inputs():
    outputs, gradients = wr060.batch_of_one(eps=wr060.EPS)
    assert len(outputs) == 3 and wr060.BETA != 0
    assert all(np.array_equal(out, np.full(4, wr060.BETA)) for out in outputs)
    assert all((g == 0).all() for g in gradients)
    rng = np.random.default_rng(wr060.SEED)                  # the inputs really are different
    first = rng.normal(size=(1, 4))
    assert not np.allclose(first, 10 * first) and not np.allclose(first, rng.normal(size=(1, 4)))


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


def test_one_image_of_a_convolutional_layer_is_not_a_batch_of_one():
    """Convolutional batch norm takes each channel's statistics over the batch and every position: one image
    of 4x4 positions gives 16 values per channel -- a spread, an output that is not beta, a gradient."""
    feature_map = np.random.default_rng(4).normal(size=(1, 4, 4, 3))         # one image, 3 channels
    rows = feature_map.reshape(-1, 3)                                           # every position a row
    out, cache = wr060.batch_norm(rows, np.ones(3), np.full(3, wr060.BETA), wr060.EPS)
    np.testing.assert_allclose(out.mean(axis=0), wr060.BETA, atol=1e-12)
    np.testing.assert_allclose(out.std(axis=0), np.sqrt(cache[1] / (cache[1] + wr060.EPS)), rtol=1e-12)
    assert out.std(axis=0).min() > 0.99
    upstream = np.random.default_rng(5).normal(size=rows.shape)
    assert np.abs(wr060.batch_norm_backward(upstream, cache)).min() > 0


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
    V = np.array([[0.0, 0.0, 0.0], [3.0, 0.0, 4.0]])
    unit, texts = recorded(wr060.unit_length_plain, V)
    assert np.isnan(unit[0]).all() and texts == ["invalid value encountered in divide"]
    assert unit[1].tolist() == [0.6, 0.0, 0.8]


def test_unit_length_with_eps_maps_zero_to_zero_and_barely_moves_the_rest():
    V = np.vstack([np.zeros(3), np.random.default_rng(3).normal(size=(50, 3))])
    U, texts = recorded(wr060.unit_length, V)
    assert texts == [] and (U[0] == 0).all()
    exact = V[1:] / np.linalg.norm(V[1:], axis=1, keepdims=True)
    relative = np.abs(U[1:] - exact).max(axis=1) / np.abs(exact).max(axis=1)
    assert np.all(relative <= 1e-12 / np.sum(V[1:] ** 2, axis=1) + 4e-16)


# --- eps and the dtype -----------------------------------------------------------------------------

def test_batch_norm_in_float16_with_a_float32_eps_is_zero_over_zero():
    """The snippet's batch_norm on float16 data: NumPy stores the Python-float eps in the array's dtype, so
    1e-8 is 0 and a column that never varies is 0/0; an eps that float16 holds gives 0."""
    Z = np.column_stack([np.full(8, 3.0), np.arange(8.0)]).astype(np.float16)
    (out, _), texts = recorded(wr060.batch_norm, Z, np.ones(2, np.float16), np.zeros(2, np.float16),
                               wr060.EPS_FLOAT32_HABIT)
    assert out.dtype == np.float16 and np.isnan(out[:, 0]).all() and np.isfinite(out[:, 1]).all()
    assert texts == ["invalid value encountered in divide"]
    (out, _), texts = recorded(wr060.batch_norm, Z, np.ones(2, np.float16), np.zeros(2, np.float16), 1e-3)
    assert (out[:, 0] == 0).all() and texts == []


def test_the_bfloat16_rounding_keeps_the_top_16_bits_to_nearest_even():
    for x in (1.0, 3.140625, 1e-3, 2.0 ** -126, 2.0 ** -133):
        b = float(wr060.bfloat16(x)[0])
        assert np.float32(b).view(np.uint32) & 0xFFFF == 0                    # 7 stored mantissa bits
    assert float(wr060.bfloat16(1 + 2.0 ** -8)[0]) == 1.0                     # a tie: to the even neighbour
    assert float(wr060.bfloat16(1 + 3 * 2.0 ** -8)[0]) == 1 + 2.0 ** -6       # a tie: up to the even one
    assert float(wr060.bfloat16(np.nextafter(np.float32(1 + 2.0 ** -8), np.float32(2)))[0]) == 1 + 2.0 ** -7


@pytest.mark.parametrize("dtype", ["float32", "bfloat16", "float16"])
def test_each_dtypes_limits_are_where_it_rounds(dtype):
    """The three limits of the table, checked by rounding through the dtype (the snippet's bfloat16 for
    bfloat16): half the smallest positive value rounds to 0 and the next float above it does not; the
    smallest normal value is normal and half of it is subnormal; 1 + half the gap is 1, 1 + the gap is not."""
    smallest, normal, gap = wr060.LIMITS[dtype]
    stored = lambda x: float(np.asarray(wr060.ROUND[dtype](x)).ravel()[0])
    up = np.nextafter(np.float32(smallest / 2), np.float32(1)) if dtype == "bfloat16" else np.nextafter(smallest / 2, 1)
    assert stored(smallest / 2) == 0.0 and stored(up) == smallest
    assert stored(normal) == normal and 0 < stored(normal / 2) < normal
    assert stored(1 + gap / 2) == 1.0 and stored(1 + gap) == 1 + gap
    if dtype != "bfloat16":
        info = np.finfo(dtype)
        assert (float(info.smallest_subnormal), float(info.tiny), float(info.eps)) == (smallest, normal, gap)


def test_what_each_dtype_does_with_an_eps():
    fates = {dtype: [wr060.fate(eps, dtype) for eps in (wr060.EPS_FLOAT32_HABIT, wr060.EPS, 1e-3)]
             for dtype in wr060.LIMITS}
    assert fates == {"float32": ["absorbed", "kept", "kept"], "bfloat16": ["absorbed"] * 3,
                     "float16": ["0", "subnormal", "kept"]}
    # the same verdicts from NumPy's own float16, without the snippet's table
    assert np.float16(wr060.EPS_FLOAT32_HABIT) == 0
    assert 0 < np.float16(wr060.EPS) < np.finfo(np.float16).tiny
    assert np.float16(1) + np.float16(1e-3) > 1


# --- the fix ---------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def fixed(train_split):
    X_train, y_train = train_split
    scaler = wr060.fit_scaler(X_train)
    return recorded(wr060.train, wr060.apply_scaler(X_train, scaler), y_train, verbose=False), scaler


def test_the_scaler_leaves_out_exactly_the_frame(fixed):
    (_, _), (keep, mean, std) = fixed
    assert np.flatnonzero(~keep).tolist() == frame_columns().tolist() and np.all(std > 0)


def test_the_fixed_run_learns_with_no_warning_and_ignores_the_smudge(fixed):
    (run, texts), scaler = fixed
    assert texts == [] and all(math.isfinite(v) for v in run["loss"])
    assert abs(run["loss"][0] - math.log(2)) < 1e-12 and run["loss"][-1] < 0.05
    assert np.all(np.diff(run["loss"]) < 0)
    X, y = wr060.make_scans()
    _, (X_test, y_test) = wr060.split(X, y)
    for scans in (X_test, wr060.smudged(X_test)):
        assert wr060.accuracy(wr060.apply_scaler(scans, scaler) @ run["w"] + run["b"], y_test) == 1.0


@pytest.fixture(scope="module")
def with_eps(train_split):
    """eps under the sqrt for input features, from zero weights and from PyTorch's default init."""
    X_train, y_train = train_split
    scaler = wr060.fit_scaler_eps(X_train)
    Xe, texts = recorded(wr060.apply_scaler, X_train, scaler)
    w0 = wr060.default_init(X_train.shape[1])
    return {"scaler": scaler, "Xe": Xe, "texts": texts, "w0": w0,
            "zero": wr060.train(Xe, y_train, verbose=False), "default": wr060.train(Xe, y_train, verbose=False, w0=w0)}


def test_eps_under_the_sqrt_makes_the_frame_exactly_zero_and_its_weights_never_move(with_eps, fixed):
    assert with_eps["texts"] == [] and (with_eps["Xe"][:, frame_columns()] == 0).all()
    assert f"{with_eps['zero']['loss'][-1]:.4f}" == f"{fixed[0][0]['loss'][-1]:.4f}"
    frame = frame_columns()
    assert (with_eps["zero"]["w"][frame] == 0).all()
    w0, w = with_eps["w0"], with_eps["default"]["w"]
    assert np.array_equal(w[frame], w0[frame]) and np.abs(w0[frame]).min() > 0     # kept, not learned
    inner = np.setdiff1d(np.arange(w.size), frame)
    assert np.abs(w[inner] - w0[inner]).min() > 0                                     # the rest did learn
    assert np.abs(w0).max() <= 1 / math.sqrt(w.size)


def test_a_smudge_on_the_frame_moves_the_logit_by_the_amplified_smudge_times_the_kept_weights(with_eps):
    X, y = wr060.make_scans()
    _, (X_test, y_test) = wr060.split(X, y)
    run, scaler, w0 = with_eps["default"], with_eps["scaler"], with_eps["w0"]
    clean = wr060.apply_scaler(X_test, scaler)
    dirty = wr060.apply_scaler(wr060.smudged(X_test), scaler)
    top = np.arange(wr060.SIDE)
    assert (dirty[:, top] == wr060.SMUDGE / math.sqrt(wr060.EPS)).all()               # through the training stats
    shift = (dirty - clean) @ run["w"]
    np.testing.assert_allclose(shift, wr060.SMUDGE / math.sqrt(wr060.EPS) * w0[top].sum(), rtol=1e-9)
    assert wr060.accuracy(clean @ run["w"] + run["b"], y_test) == 1.0
    dirty_accuracy = wr060.accuracy(dirty @ run["w"] + run["b"], y_test)
    assert dirty_accuracy <= max(np.mean(y_test == 1), np.mean(y_test == 0))       # no better than one class


def table_row(dtype):
    smallest, normal, gap = wr060.LIMITS[dtype]
    fates = " | ".join(wr060.fate(eps, dtype) for eps in (wr060.EPS_FLOAT32_HABIT, wr060.EPS, 1e-3))
    return f"| {dtype} | {smallest / 2:.3g} | {normal:.3g} | {gap / 2:.3g} | {fates} |"


def test_numbers_in_the_entry_match_the_snippet(train_split, fixed, with_eps):
    X_train, _ = train_split
    (run, _), _ = fixed
    slopes = {size: wr060.response(size, (-2.0, 0.0, 2.0))[1][1] for size in (1, 2, 16)}
    column = np.full(160, 0.1)
    X, y = wr060.make_scans()
    _, (X_test, y_test) = wr060.split(X, y)
    z = wr060.apply_scaler(X_test, fixed[1]) @ run["w"] + run["b"]
    z_dirty = wr060.apply_scaler(wr060.smudged(X_test), fixed[1]) @ run["w"] + run["b"]
    eps_run, eps_scaler = with_eps["default"], with_eps["scaler"]
    clean = wr060.accuracy(wr060.apply_scaler(X_test, eps_scaler) @ eps_run["w"] + eps_run["b"], y_test)
    dirty = wr060.accuracy(wr060.apply_scaler(wr060.smudged(X_test), eps_scaler) @ eps_run["w"] + eps_run["b"],
                           y_test)
    with np.errstate(all="ignore"):
        held_out = wr060.standardise(wr060.smudged(X_test[:1]), reference=X_train)[0]
    outputs, _ = wr060.batch_of_one(eps=wr060.EPS)
    words = {2: "two", 3: "three", 4: "four"}
    gains = {s["label"]: s["y"] for s in wr060.figure_data()["panels"][1]["series"]}
    assert_entry_says("WR-060", [
        f"In the snippet, {len(X_train)} training scans of {wr060.SIDE}×{wr060.SIDE} pixels",
        f"{len(frame_columns())} pixels have std 0, the standardised data holds {len(X_train) * 20} nan entries "
        f"({len(X_train)} rows × 20 pixels), and the loss is nan from step 0",
        f"a column holding 0.1 in all 160 rows has a computed std of {column.std():.3g}",
        f"in the snippet {wr060.BETA:g} for {words[len(outputs)]} different inputs",
        f"a smudge of {wr060.SMUDGE:g} on the frame, standardised with the training statistics, is "
        f"({wr060.SMUDGE:g} − 0)/0 = {held_out[0]} in its {int(np.isinf(held_out).sum())} smudged pixels and 0/0 = "
        f"{held_out[wr060.SIDE]} in the other {int(np.isnan(held_out).sum())}",
        f"in ±1/√{X_train.shape[1]} here",
        f"and the test accuracy falls from {clean:.2f} to {dirty:.2f}",
        f"and the test accuracy is {np.mean((z > 0) == (y_test == 1)):.2f}, and "
        f"{wr060.accuracy(z_dirty, y_test):.2f} again with a smudge of {wr060.SMUDGE:g} on the frame's top edge",
        f"from zero weights the run ends at {with_eps['zero']['loss'][-1]:.4f} as well",
        table_row("float32"), table_row("bfloat16"), table_row("float16"),
        f"1e-5 is stored in float16 as the subnormal {float(np.float16(wr060.EPS)):.5g}",
        f"In float16 that means at least {float(wr060.LIMITS['float16'][1]):.2g}",
        f"at 1/√ε ({max(gains['eps = 1e-5 (PyTorch)']):.0f} for 1e-5)",
        f"is 0 in a batch of 1, {slopes[2]:.3g} in a batch of 2, and {slopes[16]:.3g} in a batch of 16",
        f"the loss falls from {run['loss'][0]:.4f} to {run['loss'][-1]:.4f} in {len(run['loss'])} steps, and the "
        f"test accuracy is {np.mean((z > 0) == (y_test == 1)):.2f}",
        f"the smudge becomes {wr060.SMUDGE:g}/√1e-5 = {wr060.SMUDGE / math.sqrt(wr060.EPS):.1f} in each of its pixels",
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


def test_an_entry_that_teaches_eps_per_dtype_sits_in_the_lower_precision_module():
    from trainwreck.catalog import load
    from conftest import ROOT

    entry = load(ROOT / "catalog").entries["WR-060"]
    assert "float16" in entry.body and "2.5" in entry.modules


def test_every_declared_message_cites_a_line():
    from trainwreck.catalog import load
    from conftest import ROOT

    for message in load(ROOT / "catalog").entries["WR-060"].messages:
        assert "#L" in message.source, message.source
