"""WR-310: a bad batch turns a healthy descent into nan at one step, silently; a value in
the wrong units makes the loss jump through one enormous update; the batch check finds
both; the fix (load-time check, training-split scaling, a batch guard) trains."""
import math
import warnings

import numpy as np
import pytest

from conftest import assert_entry_says, load_snippet, tab_program_run

wr310 = load_snippet("wr310_bad_batch")
SNIPPET = "snippets/wr310_bad_batch.py"


def scaled(glitch):
    X, y = wr310.load_data(glitch)
    return X / wr310.SCALE - 1.0, y


def run_recording_warnings(Xs, y, **kwargs):
    """train() with every warning recorded, and the step at which each one was raised."""
    steps = []
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")

        def note(step, rows, batch):
            steps.append((step, len(caught)))

        losses = wr310.train(Xs, y, guard=note, **kwargs)
    # a warning raised during step s is recorded after the guard of step s ran
    at = [max(s for s, n in steps if n <= i) for i in range(len(caught))]
    return losses, [str(w.message) for w in caught], at


@pytest.fixture(scope="module")
def missing():
    return run_recording_warnings(*scaled("missing"))


@pytest.fixture(scope="module")
def units():
    return run_recording_warnings(*scaled("units"))


# --- the nan row ---------------------------------------------------------------------------

def test_descent_then_nan_at_one_step_with_no_climb_and_no_warning(missing):
    losses, texts, _ = missing
    t = wr310.first_nonfinite(losses)
    assert t == 12
    assert losses[t - 1] < losses[0]                           # it was falling
    assert max(losses[:t]) == losses[0]                        # never above where it started
    assert all(math.isnan(v) for v in losses[t:])
    assert texts == []                                         # nan arithmetic is silent


def test_the_update_writes_nan_into_every_weight():
    Xs, y = scaled("missing")
    visits, losses = wr310.replay(Xs, y, 300)
    np.testing.assert_array_equal(losses, wr310.train(Xs, y))   # the replay is train()'s loop (nan == nan here)
    first = visits[0]
    assert first["step"] == 12 and math.isnan(first["logit"])
    assert np.all(np.isfinite(first["w_before"])) and np.all(np.isnan(first["w_after"]))


def test_the_clip_in_the_loss_does_not_catch_a_nan_and_is_float64_only():
    assert math.isnan(np.clip(np.nan, 1e-12, 1 - 1e-12))
    # float64: 1 - 1e-12 is below 1, so log(1 - q) stays finite
    assert np.log(1 - np.clip(np.float64(1.0), 1e-12, 1 - 1e-12)) > -28
    # float32 (PyTorch's default): 1 - 1e-12 rounds to 1.0 and the clip does nothing at the top
    p32 = np.float32([1.0])
    q32 = np.clip(p32, 1e-12, 1 - 1e-12)
    assert q32.dtype == np.float32 and q32[0] == 1.0
    with np.errstate(divide="ignore"):
        assert np.log(1 - q32)[0] == -np.inf
    # the margin has to exceed the type's resolution just below 1 (2**-24); Keras's 1e-7 does
    assert np.float32(1.0) - np.float32(1e-7) < 1.0
    assert np.spacing(np.float32(1.0)) / 2 < 1e-7 and 1e-12 < np.spacing(np.float32(1.0)) / 2


def test_the_step_does_not_depend_on_the_rate():
    Xs, y = scaled("missing")
    steps = {lr: wr310.first_nonfinite(wr310.train(Xs, y, lr=lr)) for lr in (0.5, 0.05, 0.005)}
    assert set(steps.values()) == {12}


def test_data_statistics_with_a_nan_break_the_first_step_at_any_rate():
    X, y = wr310.load_data("missing")
    assert math.isnan(X.mean(axis=0)[1])
    own = (X - X.mean(axis=0)) / X.std(axis=0)
    assert np.all(np.isnan(own[:, 1])) and np.all(np.isfinite(own[:, 0]))
    for lr in (0.5, 0.05):
        assert wr310.first_nonfinite(wr310.train(own, y, lr=lr)) == 0


# --- the unscaled value --------------------------------------------------------------------

def test_unscaled_value_makes_the_loss_jump_and_stay_high(units):
    losses, texts, at = units
    assert all(math.isfinite(v) for v in losses)
    t = 7
    assert losses[t] - losses[t - 1] == max(b - a for a, b in zip(losses, losses[1:]))
    assert losses[t] > 2 * losses[t - 1]
    assert min(losses[t:]) > max(losses[:t])                   # never back down to where it was
    assert texts == ["overflow encountered in exp"] and at == [24]   # the warning comes later


def test_the_mechanism_of_the_jump_is_one_huge_update():
    Xs, y = scaled("units")
    visits, losses = wr310.replay(Xs, y, 10)
    with pytest.warns(RuntimeWarning, match="overflow encountered in exp"):
        assert losses == wr310.train(Xs, y)                     # the replay is train()'s loop
    first, second = visits
    assert (first["step"], second["step"]) == (7, 24)
    assert y[10] == 0.0 and first["logit"] > 36.74             # sigmoid rounds to 1.0: wrong and sure
    assert wr310.sigmoid(first["logit"]) == 1.0
    share = -math.log(1e-12) / wr310.BATCH                      # that row's clipped loss, in the mean
    assert losses[7] - losses[6] == pytest.approx(share, abs=0.05)
    step = first["w_after"][1] - first["w_before"][1]
    assert step == pytest.approx(-0.5 * Xs[10, 1] / wr310.BATCH, rel=0.01)   # lr x feature / batch
    assert abs(step) > 50 * abs(first["w_before"][1])
    assert second["logit"] < -float(np.log(np.finfo(np.float64).max))        # the overflow
    assert np.allclose(second["w_after"], second["w_before"], atol=0.1)       # no kick the second time


# --- finding it and fixing it ----------------------------------------------------------------

def test_bad_batches_replays_the_loader_and_names_steps_and_rows():
    X, _ = wr310.load_data("missing")
    assert wr310.bad_batches(X) == [(12, [300]), (20, [300])]
    Xu, _ = wr310.load_data("units")
    assert wr310.bad_batches(Xu) == [(7, [10]), (24, [10])]
    assert wr310.bad_batches(wr310.load_data(None)[0]) == []
    # it really checks batches: another batch size gives other steps
    assert [s for s, _ in wr310.bad_batches(X, batch=64)] == [6, 10]
    order = np.random.default_rng(wr310.SEED).permutation(len(X))
    assert 300 in order[6 * 64:7 * 64]


def test_suspect_rows_at_load_time():
    assert wr310.suspect_rows(wr310.load_data("missing")[0]) == {"not_finite": [300], "far_out": []}
    assert wr310.suspect_rows(wr310.load_data("units")[0]) == {"not_finite": [], "far_out": [10]}
    assert wr310.suspect_rows(wr310.load_data(None)[0]) == {"not_finite": [], "far_out": []}


def test_the_batch_guard_stops_before_the_weights_turn_nan():
    Xs, y = scaled("missing")
    with pytest.raises(ValueError, match=r"^step 12: rows \[300\] hold values that are not finite$"):
        wr310.train(Xs, y, guard=wr310.stop_on_bad_batch)


def test_cleaned_data_scaled_on_the_training_split_trains():
    X, y = wr310.load_data("missing")
    Xs, ys, split = wr310.clean_split_scaled(X, y)
    assert len(Xs) == len(X) - 1 and split == 408
    train = Xs[:split]
    np.testing.assert_allclose(train.mean(axis=0), 0, atol=1e-12)   # standardised on these rows ...
    assert abs(Xs[split:].mean(axis=0)).max() > 1e-3                 # ... not on the held-out ones
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        losses = wr310.train(train, ys[:split], guard=wr310.stop_on_bad_batch)
    assert all(math.isfinite(v) for v in losses) and len(losses) == 26
    assert losses[-1] < 0.4 * losses[0]


# --- the prose and the tabs -------------------------------------------------------------------

def test_numbers_in_the_entry_match_the_snippet(missing, units):
    losses, _, _ = missing
    t = wr310.first_nonfinite(losses)
    jump, _, at = units
    Xs, y = scaled("units")
    first, second = wr310.replay(Xs, y, 10)[0]
    fixed = wr310.fixed_run()
    assert_entry_says("WR-310", [
        f"the loss falls from {losses[0]:.4f} to {losses[t - 1]:.4f} over steps 0 to {t - 1} and is nan from step {t}",
        f"the nan arrives at step {t} at rates 0.5 and 0.05 alike",
        "the loss is nan from step 0",
        f"the loss jumps from {jump[6]:.3f} to {jump[7]:.3f} at step 7 and stays between {min(jump[7:]):.3f} "
        f"and {max(jump[7:]):.3f} to the end (step {len(jump) - 1})",
        f"at step {at[0]}, when that row comes round again",
        f"becomes {Xs[10, 1]:.2f}",
        f"At step 7 its logit is {first['logit']:.0f}",
        f"−ln(1e-12) = {-math.log(1e-12):.2f}, adds {-math.log(1e-12) / wr310.BATCH:.2f} to the batch mean",
        f"moves from {first['w_before'][1]:.2f} to {first['w_after'][1]:.2f} in one step".replace("-", "−"),
        f"at step {second['step']} its logit is {second['logit']:.0f}".replace("-", "−"),
        "row 300 in the batches of steps 12 and 20",
        "row 10 in those of steps 7 and 24",
        "stops at step 12, rows [300]",
        f"the snippet's limit is {wr310.suspect_rows.__defaults__[0]:g}",
        f"trains from {fixed[0]:.4f} to {fixed[-1]:.4f} in {len(fixed)} steps, every step finite",
        f"where the others have a standard deviation of {np.delete(Xs[:, 1], 10).std():.2f}",
    ])


def test_reproduce_tab_prints_the_story():
    out = tab_program_run(SNIPPET, "reproduce").stdout
    missing = [text for text in [
        "step  11  loss 0.6563\nstep  12  loss nan",
        "The loss is nan from step 12; no warning was printed.",
        "Standardised with the data's own mean and std: nan from step 0",
        "Which batches hold a broken row (step, rows): [(12, [300]), (20, [300])]",
        "RuntimeWarning: overflow encountered in exp",
        "The loss jumps from 0.649 to 1.495 at step 7",
    ] if text not in out]
    assert not missing, missing
    assert out.index("RuntimeWarning") > out.index("The other file")       # the warning is the units run's


def test_fix_tab_prints_the_fix_working():
    out = tab_program_run(SNIPPET, "fix").stdout
    missing = [text for text in [
        "stops the run: step 12: rows [300] hold values that are not finite",
        "{'not_finite': [300], 'far_out': []}",
        "{'not_finite': [], 'far_out': [10]}",
        "Scaling fitted on the 408 training rows",
        "Every step finite: True",
    ] if text not in out]
    assert not missing, missing
    assert "nan" not in out.replace("not_finite", "") and "Warning" not in out
