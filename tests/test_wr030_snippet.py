"""WR-030: a falling loss turns nan because one confident output rounds to 1.0."""
import math
import warnings

import numpy as np
import pytest

from conftest import ROOT, assert_entry_says, entry_prose, load_snippet, tab_program_run

wr030 = load_snippet("wr030_log_of_zero")
SNIPPET = "snippets/wr030_log_of_zero.py"
DTYPES = (np.float64, np.float32, np.float16)


@pytest.fixture(scope="module")
def raw():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        run = wr030.train()
    run["warnings"] = {str(w.message) for w in caught}
    return run


@pytest.fixture(scope="module")
def single():
    with np.errstate(all="ignore"):
        return wr030.train(dtype=np.float32)


def first_nonfinite(values):
    return next(i for i, v in enumerate(values) if not math.isfinite(v))


def test_loss_falls_every_epoch_then_turns_nan_with_no_climb(raw):
    t = first_nonfinite(raw["loss"])
    assert t == 14
    assert abs(raw["loss"][0] - math.log(2)) < 1e-9
    assert np.all(np.diff(raw["loss"][:t]) < 0)          # a descent, not a climb
    assert all(math.isnan(v) for v in raw["loss"][t:])


def test_the_weights_and_accuracy_are_fine_when_the_loss_is_nan(raw):
    t = first_nonfinite(raw["loss"])
    assert all(math.isfinite(w) for w in raw["w"])
    assert raw["accuracy"][t] == 0.98
    assert raw["ones"][t - 1] == 0 and raw["ones"][t] == 2


def test_the_documented_warnings(raw):
    assert {"divide by zero encountered in log", "invalid value encountered in multiply"} <= raw["warnings"]
    assert not any("overflow" in w for w in raw["warnings"])   # no overflow: nothing blew up


def test_the_reproduce_tab_prints_only_declared_numpy_messages():
    """Every NumPy message the entry declares is printed by its Reproduce tab, but the log of a negative
    number's, which the tab's loss cannot reach (its probabilities come from a sigmoid) and the test
    below shows instead."""
    from trainwreck.catalog import load

    output = tab_program_run(SNIPPET, "reproduce").stdout
    printed = {line.split("RuntimeWarning: ")[1] for line in output.splitlines() if "RuntimeWarning: " in line}
    declared = {m.text for m in load(ROOT / "catalog").entries["WR-030"].messages if m.origin == "numpy"}
    assert printed <= declared
    assert declared - printed == {"invalid value encountered in log"}


@pytest.mark.parametrize("dtype, bits", [(np.float64, 53), (np.float32, 24), (np.float16, 11)])
def test_saturation_point_is_where_one_plus_exp_rounds_to_one(dtype, bits):
    z = wr030.saturation_point(dtype)
    assert z.dtype == dtype
    assert wr030.sigmoid(z) == 1 and wr030.sigmoid(np.nextafter(z, dtype(0))) < 1
    # exp(-z) is at most half the gap above 1 (2**-bits), so 1 + exp(-z) rounds back to 1
    assert float(z) == pytest.approx(bits * math.log(2), abs=2 * float(np.spacing(z)))


def test_float32_turns_nan_after_the_first_step(single):
    t = first_nonfinite(single["loss"])
    assert t == 1 and single["ones"][t] == 2
    x, _ = wr030.make_data()
    assert single["w"][1] * x.max() > float(wr030.saturation_point(np.float32))


def test_chain_rule_gradient_poisons_the_weights():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        chained = wr030.train(chain_rule=True)
    assert "invalid value encountered in divide" in {str(w.message) for w in caught}   # 0/0 in (1 - y)/(1 - p)
    bad = first_nonfinite(chained["w"])
    assert bad == 15
    assert all(math.isnan(w) for w in chained["w"][bad:])


def test_loss_from_logits_matches_where_finite_and_stays_finite(raw):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        fixed = wr030.train(loss_fn=wr030.bce_from_logits)
    t = first_nonfinite(raw["loss"])
    np.testing.assert_allclose(fixed["loss"][:t], raw["loss"][:t], rtol=1e-9)
    assert fixed["w"] == raw["w"]                          # same gradient, same training
    assert all(math.isfinite(v) for v in fixed["loss"]) and fixed["loss"][-1] < fixed["loss"][t - 1]


def test_errstate_divide_raise_stops_at_the_log(raw):
    t = first_nonfinite(raw["loss"])
    x, y = wr030.make_data()
    z = raw["w"][t] * x + raw["b"][t]
    with np.errstate(divide="raise"), pytest.raises(FloatingPointError, match="divide by zero encountered in log"):
        wr030.textbook_bce(z, y)


@pytest.mark.parametrize("dtype", DTYPES)
def test_a_clip_works_only_above_half_the_gap_below_one(dtype):
    """1 - eps rounds back to 1.0 unless eps is more than half the spacing of the floats just below 1."""
    half = float(np.finfo(dtype).epsneg) / 2
    assert dtype(1 - half) == 1                           # the tie rounds to even: 1.0
    assert dtype(1 - 1.01 * half) < 1
    assert (dtype(1 - 1e-12) < 1) == (dtype is np.float64)
    assert (dtype(1 - 1e-7) < 1) == (dtype is not np.float16)


def test_the_clip_fixes_the_print_in_float64_but_not_in_float32(raw):
    t = first_nonfinite(raw["loss"])
    x, y = wr030.make_data()
    z = raw["w"][t] * x + raw["b"][t]
    assert wr030.clipped_bce(z, y) == pytest.approx(wr030.bce_from_logits(z, y), abs=1e-4)
    z32, y32 = z.astype(np.float32), y.astype(np.float32)
    assert np.any(wr030.sigmoid(z32) == 1)
    with np.errstate(divide="ignore", invalid="ignore"):
        assert math.isnan(wr030.clipped_bce(z32, y32))        # 1 - 1e-12 is 1.0 in float32
    assert wr030.clipped_bce(z32, y32, eps=1e-7) == pytest.approx(wr030.bce_from_logits(z32, y32), abs=1e-4)


def best_fit(scale):
    """The maximum-likelihood weights, by Newton's method on the exact cross-entropy."""
    x, y = wr030.make_data(scale=scale)
    A = np.stack([x, np.ones_like(x)], axis=1)
    theta = np.zeros(2)
    for _ in range(50):
        p = 1 / (1 + np.exp(-(A @ theta)))
        theta -= np.linalg.solve(A.T @ (A * (p * (1 - p))[:, None]), A.T @ (p - y))
    return theta, A @ theta, y


def test_the_best_fit_itself_puts_the_far_out_examples_past_the_rounding_point():
    """Not separable, so the fitted weights are finite; yet at them the outliers' logits pass 36.74."""
    (w, b), z, y = best_fit(10.0)
    accuracy = float(np.mean((z > 0) == (y == 1)))
    assert accuracy < 1                                              # the classes overlap: a finite optimum
    x, _ = wr030.make_data()
    outliers = np.abs(x) == 80
    assert outliers.sum() == 6 and np.abs(x[~outliers]).max() < 23
    assert np.abs(z[outliers]).min() > float(wr030.saturation_point())   # every one of them rounds to 1.0
    # scaling the input rescales the weight and leaves the fitted logits where they were
    (w1, b1), z1, _ = best_fit(1.0)
    assert w1 == pytest.approx(10 * w, rel=1e-9) and b1 == pytest.approx(b, rel=1e-9)
    np.testing.assert_allclose(z1, z, rtol=1e-9)
    assert_entry_says("WR-030", [
        f"where every other input lies within ±{np.abs(x[~outliers]).max():.1f}",
        f"(the best fit gets {accuracy:.1%} right)",
        f"w = {w:.3f} and b = {b:.3f}".replace("-", "−"),
        f"logits of ±{np.abs(z).max():.1f}",
        f"the best weight is {w1:.2f}, ten times larger, and the far-out examples' logits are the same "
        f"±{np.abs(z1).max():.1f}",
    ])


def test_scaled_inputs_postpone_the_rounding_but_do_not_remove_it(raw):
    with np.errstate(all="ignore"):
        scaled = wr030.train(epochs=2000, scale=1.0)
    first = next(i for i, n in enumerate(scaled["ones"]) if n)
    assert first > 100 * raw["ones"].index(2)


def test_the_fix_tab_is_silent_and_healthy():
    output = tab_program_run(SNIPPET, "fix").stdout
    assert "RuntimeWarning" not in output
    assert "In float32, 1 - 1e-12 rounds to 1.0: True." in output


def test_figure_numbers_epochs_from_zero_like_the_console():
    data = wr030.figure_data()
    printed = [int(line.split()[1]) for line in tab_program_run(SNIPPET, "reproduce").stdout.splitlines()
               if line.startswith("epoch ")]
    assert data["panels"][0]["series"][0]["x"] == printed
    first_nan = next(int(line.split()[1]) for line in tab_program_run(SNIPPET, "reproduce").stdout.splitlines()
                     if line.startswith("epoch ") and line.split()[3] == "nan")
    assert data["panels"][0]["vlines"][0]["x"] == first_nan


def test_numbers_in_the_entry_match_the_snippet(raw, single):
    t = first_nonfinite(raw["loss"])
    fixed = wr030.train(loss_fn=wr030.bce_from_logits)
    with np.errstate(all="ignore"):
        chained = wr030.train(chain_rule=True)
        scaled = wr030.train(epochs=2000, scale=1.0)
    x, y = wr030.make_data()
    z = raw["w"][t] * x + raw["b"][t]
    z32, y32 = z.astype(np.float32), y.astype(np.float32)
    points = {d: float(wr030.saturation_point(d)) for d in DTYPES}
    halves = {d: f"{float(np.finfo(d).epsneg) / 2:.1e}".replace("e-0", "e-") for d in DTYPES}
    assert f"{wr030.clipped_bce(z, y):.4f}" == f"{wr030.bce_from_logits(z, y):.4f}"
    assert_entry_says("WR-030", [
        f"the loss goes {raw['loss'][0]:.4f}, {raw['loss'][1]:.4f}, {raw['loss'][2]:.4f}, … down to "
        f"{raw['loss'][t - 1]:.4f} at epoch {t - 1}, and is nan from epoch {t}",
        f"accuracy stays at {raw['accuracy'][t]:.2f} and the weight is a modest {raw['w'][t]:.3f}",
        f"the weight itself is nan from epoch {first_nonfinite(chained['w'])}",
        f"the same run is nan from epoch {first_nonfinite(single['loss'])}",
        f"once z reaches 53·ln 2 ≈ {points[np.float64]:.2f}",
        f"the point comes at 24·ln 2 ≈ {points[np.float32]:.2f} (2^-24); in float16, computed the same way, at "
        f"{points[np.float16]:.3f}, the first float16 past 11·ln 2",
        f"so {single['ones'][1]} outputs are exactly 1.0 at epoch 1",
        "(36.74, 16.64, 7.625)" if (round(points[np.float64], 2), round(points[np.float32], 2),
                                     points[np.float16]) == (36.74, 16.64, 7.625) else "?",
        f"In the snippet {raw['ones'][t]} outputs are exactly 1.0 at epoch {t}",
        f"keeps falling, to {fixed['loss'][-1]:.4f} at epoch {len(fixed['loss']) - 1}",
        f"at epoch {t} the clipped loss and the loss from logits both print {wr030.clipped_bce(z, y):.4f}",
        f"that clip prints {wr030.clipped_bce(z32, y32, eps=1e-7):.4f} as well",
        f"2^-54 ≈ {halves[np.float64]} in float64, 2^-25 ≈ {halves[np.float32]} in float32, "
        f"2^-12 ≈ {halves[np.float16]} in float16",
        f"the first output rounds to 1.0 at epoch {next(i for i, n in enumerate(scaled['ones']) if n)} instead "
        f"of {t}",
    ])
    assert "7.63" not in entry_prose("WR-030")                  # the float16 point is exactly 7.625


def test_a_log_of_a_negative_number_is_nan_and_warns_in_its_own_words():
    """Where it shows up: a log of a negative output (or of -inf) is nan, not -inf, with a different
    warning than log(0)."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        negative = float(np.log(np.float64(-0.01)))
        zero = float(np.log(np.float64(0.0)))
    assert math.isnan(negative) and zero == -math.inf
    assert [str(w.message) for w in caught] == ["invalid value encountered in log",
                                                "divide by zero encountered in log"]
    assert_entry_says("WR-030", ["`np.log(-0.01)` is nan with `invalid value encountered in log`",
                                 "`np.log(0.0)` is −inf with `divide by zero encountered in log`"])


def test_a_loss_on_a_raw_output_is_not_finite_from_the_first_forward_pass():
    """Symptom: a textbook loss handed a layer's raw output, which falls outside (0, 1), prints nan from the
    first forward pass (a log of a negative number), or +inf where an output is exactly 0 under -log."""
    x, y = wr030.make_data()
    rng = np.random.default_rng(0)
    w, b = rng.uniform(-1, 1, 2)               # a zero-centred initialisation of a one-input linear layer
    out = w * x + b
    assert (out <= 0).any() and (out >= 1).any()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        loss = -np.mean(y * np.log(out) + (1 - y) * np.log(1 - out))
        picked = -np.log(np.array([0.0, 0.5])).mean()
    assert math.isnan(loss) and picked == math.inf
    assert "invalid value encountered in log" in [str(c.message) for c in caught]
    assert_entry_says("WR-030", ["which can fall outside (0, 1)) prints nan, or +inf, from the first forward pass"])
