"""WR-070: where the nan of a fully masked softmax row comes from, how it spreads, why -1e9 and
the finite minimum are not enough, and that the guard fixes it."""
import warnings

import numpy as np
import pytest

from conftest import ROOT, assert_entry_says, load_snippet

wr070 = load_snippet("wr070_masked_softmax")


def warning_texts(fn, *args, **kwargs):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = fn(*args, **kwargs)
    return result, [str(w.message) for w in caught if w.category is RuntimeWarning]


@pytest.fixture(scope="module")
def batch():
    return wr070.make_batch()


# --- where the nan comes from -------------------------------------------------------------------

def test_the_nan_is_made_by_subtracting_the_rows_max():
    row = np.full((1, 6), -np.inf)
    assert row.max() == -np.inf
    (shifted), texts = warning_texts(lambda: row - row.max(axis=-1, keepdims=True))
    assert np.isnan(shifted).all() and texts == ["invalid value encountered in subtract"]
    p, texts = warning_texts(wr070.softmax, row)
    assert np.isnan(p).all() and texts == ["invalid value encountered in subtract"]   # nothing after it warns


def test_without_the_shift_it_is_zero_over_zero():
    row = np.full(6, -np.inf)
    e = np.exp(row)
    assert (e == 0).all() and e.sum() == 0
    p, texts = warning_texts(lambda: e / e.sum())
    assert np.isnan(p).all() and texts == ["invalid value encountered in divide"]


def test_one_allowed_key_is_enough():
    scores = np.array([[0.3, -np.inf, -np.inf]])
    p, texts = warning_texts(wr070.softmax, scores)
    assert texts == [] and p.tolist() == [[1.0, 0.0, 0.0]]


def test_the_batch_has_exactly_one_empty_sequence(batch):
    X, y, allowed = batch
    assert allowed.shape == (32, 6)
    assert np.flatnonzero(~allowed.any(axis=1)).tolist() == [3]


# --- how it spreads ------------------------------------------------------------------------------

def test_minus_inf_mask_makes_the_loss_nan_from_step_0():
    (losses, params), texts = warning_texts(wr070.train, wr070.minus_inf_mask, verbose=False)
    assert set(texts) == {"invalid value encountered in subtract"} and len(texts) == len(losses)
    assert np.isnan(losses).all()
    assert all(np.isnan(v).all() for v in params.values())          # after 60 steps every weight is nan


def test_a_run_learns_until_the_first_batch_with_an_empty_sequence_and_is_nan_from_it():
    """The nan comes with the first batch that holds a row with nothing to attend to, whenever that is: before it
    the run learns as any other (the entry's second trace, a fall then a jump straight to nan)."""
    with np.errstate(invalid="ignore"):
        late, _ = wr070.train(wr070.minus_inf_mask, empty_from=30, verbose=False)
    assert np.isfinite(late[:30]).all() and np.isnan(late[30:]).all()
    assert late[29] < 0.2 * late[0] and all(b < a for a, b in zip(late[:29], late[1:30]))
    from trainwreck.catalog import load
    assert load(ROOT / "catalog").entries["WR-070"].also_trace == "descent-then-nonfinite"
    assert_entry_says("WR-070", [f"the loss falls from {late[0]:.4f} at step 0 to {late[29]:.4f} at step 29, and is "
                                 "nan from step 30, the first step whose batch holds the empty sequence"])


def test_the_nan_reaches_the_query_one_update_after_the_other_weights():
    """The first update's gradient of q is finite (np.where's backward selects); by the second step the values
    Wv x are nan for every sequence, so the scores' gradients, and q's, are nan too."""
    with np.errstate(invalid="ignore"):
        after = [wr070.train(wr070.minus_inf_mask, steps=s, verbose=False)[1] for s in (1, 2)]
    poisoned = [sorted(k for k, v in params.items() if np.isnan(v).any()) for params in after]
    assert poisoned == [["Wv", "b", "w"], ["Wv", "b", "q", "w"]]
    assert np.isfinite(after[0]["q"]).all() and np.isnan(after[1]["q"]).all()


def test_leaving_the_row_out_of_the_loss_still_poisons_the_gradient(batch):
    X, y, allowed = batch
    with np.errstate(invalid="ignore"):
        loss, grads, p = wr070.forward_backward(wr070.init_params(), X, y, allowed, wr070.minus_inf_mask,
                                                in_loss=allowed.any(axis=1))
    assert np.isfinite(loss)
    assert np.isnan(p[3]).all() and np.isfinite(np.delete(p, 3, axis=0)).all()
    poisoned = sorted(name for name, g in grads.items() if not np.isfinite(g).all())
    assert poisoned == ["Wv", "w"]                                   # nan * 0 in the products
    assert np.isfinite(grads["q"]).all() and np.isfinite(grads["b"])  # np.where's backward selects, never multiplies
    assert np.isnan(np.nan * 0.0)


def test_backward_pass_matches_finite_differences(batch):
    X, y, allowed = batch
    params = wr070.init_params()
    _, grads, _ = wr070.forward_backward(params, X, y, allowed, wr070.guarded_mask)
    rng = np.random.default_rng(0)
    for name in ("q", "Wv", "w"):
        direction = rng.normal(size=np.shape(params[name]))
        h = 1e-6
        up = {**params, name: params[name] + h * direction}
        down = {**params, name: params[name] - h * direction}
        numeric = (wr070.forward_backward(up, X, y, allowed, wr070.guarded_mask)[0]
                   - wr070.forward_backward(down, X, y, allowed, wr070.guarded_mask)[0]) / (2 * h)
        assert numeric == pytest.approx(float(np.sum(grads[name] * direction)), rel=1e-5, abs=1e-9)


# --- the -1e9 mask and the finite minimum --------------------------------------------------------

def test_minus_1e9_is_minus_inf_in_float16(batch):
    X, y, allowed = batch
    scores = X @ wr070.init_params()["q"] / np.sqrt(wr070.DIM)
    p16, texts = warning_texts(wr070.additive_mask, scores, allowed, np.float16)
    assert texts == ["overflow encountered in cast", "invalid value encountered in subtract"]
    assert np.isnan(p16[3]).all() and np.isfinite(np.delete(p16, 3, axis=0)).all()
    with np.errstate(over="ignore"):
        assert np.float32([-1e9]).astype(np.float16)[0] == -np.inf


def test_minus_1e9_swallows_the_scores_in_float32(batch):
    assert np.spacing(np.float32(1e9)) == 64
    for s in (-31.9, 0.0, 31.9):
        assert np.float32(s) + np.float32(-1e9) == np.float32(-1e9)
    X, y, allowed = batch
    scores = X @ wr070.init_params()["q"] / np.sqrt(wr070.DIM)
    p32, texts = warning_texts(wr070.additive_mask, scores, allowed, np.float32)
    assert texts == [] and np.array_equal(p32[3], np.full(6, 1 / 6, np.float32).astype(float))


def test_adding_the_float16_minimum_can_overflow_replacing_it_cannot():
    low = np.finfo(np.float16).min
    assert low == -65504
    with np.errstate(over="ignore"):
        assert np.float16(low) + np.float16(-15.9) == low          # rounds back to the minimum
        assert np.isinf(np.float16(low) + np.float16(-16))          # -65520 rounds to -inf
    scores = np.float16([-100.0, 3.0])
    assert np.isfinite(np.where([False, True], scores, low)).all()


def test_finite_minimum_alone_averages_the_padding(batch):
    X, y, allowed = batch
    params = wr070.init_params()
    scores = X @ params["q"] / np.sqrt(wr070.DIM)
    for dtype in (np.float32, np.float16):
        p, texts = warning_texts(wr070.finite_minimum_mask, scores.astype(dtype), allowed)
        assert texts == [] and np.allclose(p[3], 1 / 6, rtol=1e-3)
    pooled = np.einsum("nt,ntd->nd", wr070.finite_minimum_mask(scores, allowed), X @ params["Wv"])
    assert np.allclose(pooled[3], X[3].mean(axis=0) @ params["Wv"])   # the empty sequence sees its padding


# --- the fix --------------------------------------------------------------------------------------

def test_guard_gives_an_empty_row_zero_weights_and_leaves_the_others_alone(batch):
    X, y, allowed = batch
    scores = X @ wr070.init_params()["q"] / np.sqrt(wr070.DIM)
    guarded, texts = warning_texts(wr070.guarded_mask, scores, allowed)
    assert texts == []
    assert (guarded[3] == 0).all()
    others = np.delete(np.arange(32), 3)
    with np.errstate(invalid="ignore"):
        plain = wr070.minus_inf_mask(scores, allowed)
    np.testing.assert_allclose(guarded[others], plain[others], rtol=0, atol=1e-15)
    np.testing.assert_allclose(guarded[others].sum(axis=1), 1.0)


def test_guarded_training_is_finite_and_learns():
    (losses, params), texts = warning_texts(wr070.train, wr070.guarded_mask, verbose=False)
    assert texts == [] and np.isfinite(losses).all()
    assert losses[-1] < 0.1 < 0.7 < losses[0]
    X, y, allowed = wr070.make_batch()
    _, grads, _ = wr070.forward_backward(params, X, y, allowed, wr070.guarded_mask)
    assert all(np.isfinite(g).all() for g in grads.values())


def test_numbers_in_the_entry_match_the_snippet(batch):
    X, y, allowed = batch
    with np.errstate(invalid="ignore"):
        loss_without, _, _ = wr070.forward_backward(wr070.init_params(), X, y, allowed, wr070.minus_inf_mask,
                                                    in_loss=allowed.any(axis=1))
    guarded, _ = wr070.train(wr070.guarded_mask, verbose=False)
    finite_only, _ = wr070.train(wr070.finite_minimum_mask, verbose=False)
    assert finite_only[-1] < guarded[-1]
    assert_entry_says("WR-070", [
        f"{len(y)} sequences padded to length {allowed.shape[1]}",
        f"sequence {int(np.flatnonzero(~allowed.any(axis=1))[0])} is empty",
        f"the mean over the other {int(allowed.any(axis=1).sum())} sequences is a finite {loss_without:.4f}",
        "an even 1/6 over its six padding positions",
        f"−{abs(np.finfo(np.float32).min):.4g} in float32, −{abs(np.finfo(np.float16).min):.0f} in float16",
        f"trains from {guarded[0]:.4f} to {guarded[-1]:.4f} in {len(guarded)} steps",
        f"({finite_only[-1]:.4f} against {guarded[-1]:.4f})",
        "the spacing of float32 near 1e9 is 64",
    ])


def test_figure_data_is_plain_numbers_from_the_runs():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        figure = wr070.figure_data()
    weights, losses = figure["panels"]
    empty16 = next(s for s in weights["series"] if s["label"] == "no key allowed (float16)")
    finite = [x for x, v in zip(empty16["x"], empty16["y"]) if np.isfinite(v)]
    assert max(finite) < 65504 < min(x for x, v in zip(empty16["x"], empty16["y"]) if not np.isfinite(v))
    assert all(abs(v - 1 / 6) < 1e-3 for v in empty16["y"] if np.isfinite(v))
    nan_run = losses["series"][0]
    assert "nan from step 0" in nan_run["label"] and all(np.isnan(nan_run["y"]))
