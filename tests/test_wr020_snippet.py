"""WR-020: where an overflow gives a wrong number and where it only warns; the
log-space fix; and which np.errstate settings stop at which error."""
import math
import sys
import traceback
from decimal import Decimal, localcontext

import numpy as np
import pytest

from conftest import assert_entry_says, load_snippet

wr020 = load_snippet("wr020_float_overflow")
EXTREME = [-1000.0, -745.5, -700.0, -300.0, -20.0, 0.0, 20.0, 36.0, 40.0, 300.0, 700.0, 1000.0]
BOTH_WAYS = {"over": "raise", "divide": "raise", "invalid": "raise"}


def dec_exp(x: float) -> Decimal:
    return Decimal(x).exp()


def ref_sigmoid(z: float) -> float:
    with localcontext() as ctx:
        ctx.prec = 60
        return float(1 / (1 + dec_exp(-z)))


def ref_softplus(z: float) -> float:
    """log(1 + exp(z)) to 60 digits."""
    with localcontext() as ctx:
        ctx.prec = 60
        return float((1 + dec_exp(z)).ln())


def ref_softmax(z):
    with localcontext() as ctx:
        ctx.prec = 60
        e = [dec_exp(v) for v in z]
        total = sum(e)
        return [float(v / total) for v in e], [float((v / total).ln()) for v in e]


def shown(fn, *args):
    return wr020.warnings_shown(fn, *args)


def underflow_point() -> float:
    """The x below which np.exp(x) is exactly 0.0 in float64, by bisection."""
    lo, hi = -800.0, -700.0                   # exp(lo) == 0.0 < exp(hi)
    while np.nextafter(lo, 0.0) < hi:
        mid = (lo + hi) / 2
        if mid in (lo, hi):
            break
        lo, hi = (mid, hi) if np.exp(mid) == 0.0 else (lo, mid)
    return hi


# --- the overflow and where it does and does not give a wrong number -------------------

@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
def test_threshold_from_finfo(dtype):
    x = wr020.overflow_threshold(dtype)
    assert type(x) is dtype
    with np.errstate(over="ignore"):
        assert np.isfinite(np.exp(x))
        assert np.isinf(np.exp(np.nextafter(x, dtype(np.inf))))
    assert abs(float(x) - math.log(float(np.finfo(dtype).max))) < 0.01


def test_float64_threshold_is_the_python_float_limit():
    assert float(wr020.overflow_threshold(np.float64)) == pytest.approx(math.log(sys.float_info.max), abs=1e-12)


def test_naive_sigmoid_warns_but_returns_the_correctly_rounded_zero():
    out, texts = shown(wr020.naive_sigmoid, np.array([-1000.0]))
    assert texts == ["overflow encountered in exp"]
    assert out[0] == 0.0
    with localcontext() as ctx:
        ctx.prec = 60
        true = 1 / (1 + Decimal(1000).exp())
    smallest = Decimal(float(np.nextafter(0.0, 1.0)))
    assert true < smallest / 2                # so 0.0 is the nearest float: the right answer


def test_naive_and_stable_sigmoid_print_identical_arrays():
    naive, w_naive = shown(wr020.naive_sigmoid, wr020.LOGITS)
    stable, w_stable = shown(wr020.stable_sigmoid, wr020.LOGITS)
    assert w_naive == ["overflow encountered in exp"] and w_stable == []
    assert str(naive) == str(stable)                    # what the reader sees
    np.testing.assert_allclose(naive, stable, rtol=2 * np.finfo(np.float64).eps, atol=0)   # a bit or two apart


def test_naive_sigmoid_is_right_to_rounding_except_in_the_subnormal_sliver():
    """Right to within a few ulp wherever the true value is a normal float; 0.0 where
    the true value is a subnormal between -745.13 and -709.78; 0.0 below, correctly."""
    limit = float(wr020.overflow_threshold(np.float64))
    z = np.concatenate([np.linspace(-708.0, 800.0, 3001), [-1000.0, -746.0]])
    with np.errstate(over="ignore"):
        naive = wr020.naive_sigmoid(z)
    ref = np.array([ref_sigmoid(v) for v in z])
    normal = ref >= np.finfo(np.float64).tiny
    np.testing.assert_allclose(naive[normal], ref[normal], rtol=4e-16 * 8, atol=0)
    assert np.all(naive[~normal] == ref[~normal])     # both exactly 0.0 below -745.13
    sliver = np.array([-709.8, -720.0, -745.0])
    assert np.all(sliver < -limit)
    with np.errstate(over="ignore"):
        assert np.all(wr020.naive_sigmoid(sliver) == 0.0)
    truth = np.array([ref_sigmoid(v) for v in sliver])
    assert np.all((truth > 0) & (truth < 1e-308))
    assert np.all(wr020.stable_sigmoid(sliver) == truth)   # the stable form keeps the subnormal


def test_naive_softmax_turns_inf_into_nan_in_float64_and_float32():
    out, texts = shown(wr020.naive_softmax, wr020.BIG)
    assert texts == ["overflow encountered in exp", "invalid value encountered in divide"]
    assert np.all(np.isnan(out))
    # float32 overflows past 88.72: logits of about a hundred are enough
    small = np.float32([100, 99, 98])
    assert float(small.max()) > float(wr020.overflow_threshold(np.float32))
    out32, texts32 = shown(wr020.naive_softmax, small)
    assert np.all(np.isnan(out32)) and "overflow encountered in exp" in texts32
    assert np.all(np.isfinite(wr020.naive_softmax(small.astype(np.float64))))


def test_textbook_loss_is_inf_where_the_true_loss_is_finite():
    loss, texts = shown(wr020.naive_bce, np.array(-1000.0), 1.0)
    assert loss == math.inf and "divide by zero encountered in log" in texts
    assert ref_softplus(1000.0) == 1000.0
    # no overflow at all: sigmoid(40) rounds to exactly 1.0 in float64, log(1 - 1) = -inf
    loss40, texts40 = shown(wr020.naive_bce, np.array(40.0), 0.0)
    assert wr020.naive_sigmoid(np.array(40.0)) == 1.0
    assert loss40 == math.inf and texts40 == ["divide by zero encountered in log"]
    assert ref_softplus(40.0) == pytest.approx(40.0, abs=1e-15)


def test_a_stable_sigmoid_does_not_fix_the_loss():
    """Feeding the stable sigmoid's probabilities to the textbook loss gives the same inf."""
    for z, y in ((-1000.0, 1.0), (40.0, 0.0)):
        p = wr020.stable_sigmoid(np.array(z))
        with np.errstate(divide="ignore"):
            assert -(y * np.log(p) + (1 - y) * np.log(1 - p)) == math.inf


def test_naive_log_sum_exp_is_inf():
    with np.errstate(over="ignore"):
        assert np.log(np.exp(1000.0) + np.exp(0.0)) == math.inf
    assert np.logaddexp(1000.0, 0.0) == 1000.0


# --- the fix is right and quiet ------------------------------------------------------------

def test_stable_sigmoid_against_a_60_digit_reference():
    z = np.array(EXTREME)
    stable, texts = shown(wr020.stable_sigmoid, z)
    assert texts == []
    np.testing.assert_allclose(stable, [ref_sigmoid(v) for v in EXTREME], rtol=1e-14, atol=0)


def test_stable_sigmoid_exp_lies_between_0_and_1_and_underflows_past_745():
    e = np.exp(-np.abs(np.array(EXTREME)))
    assert np.all((e >= 0.0) & (e <= 1.0)) and e[EXTREME.index(0.0)] == 1.0
    assert e[EXTREME.index(-1000.0)] == 0.0          # underflowed, and the sigmoid is still right
    point = underflow_point()
    assert np.exp(point) > 0.0 and np.exp(np.nextafter(point, -np.inf)) == 0.0
    assert f"{-point:.2f}" == "745.13"


def test_stable_softmax_and_log_softmax_against_a_60_digit_reference():
    for logits in ([1000.0, 999.0, 998.0], [1000.0, 0.0, -1000.0], [-800.0, -801.0, -805.0]):
        z = np.array(logits)
        (soft, soft_w), (logsoft, log_w) = shown(wr020.stable_softmax, z), shown(wr020.log_softmax, z)
        assert soft_w == [] and log_w == []
        ref, ref_log = ref_softmax(logits)
        np.testing.assert_allclose(soft, ref, rtol=1e-14, atol=1e-300)
        np.testing.assert_allclose(logsoft, ref_log, rtol=1e-14)


def test_stable_softmax_agrees_with_naive_on_ordinary_logits():
    z = np.random.default_rng(0).normal(scale=5.0, size=(50, 10))
    naive = np.array([wr020.naive_softmax(row) for row in z])
    np.testing.assert_allclose(wr020.stable_softmax(z), naive, rtol=1e-12)


def test_bce_from_logits_against_reference():
    for z in EXTREME:
        loss1, w1 = shown(wr020.bce_from_logits, np.array(z), 1.0)
        loss0, w0 = shown(wr020.bce_from_logits, np.array(z), 0.0)
        assert w1 == [] and w0 == []
        assert float(loss1) == pytest.approx(ref_softplus(-z), rel=1e-14)
        assert float(loss0) == pytest.approx(ref_softplus(z), rel=1e-14)
    # the same as the textbook loss where the textbook loss is finite; the textbook
    # form takes log(p) with p near 1 and so is only good to ~1e-16 absolute
    z = np.linspace(-30, 30, 601)
    np.testing.assert_allclose(wr020.bce_from_logits(z, 1.0), wr020.naive_bce(z, 1.0), rtol=1e-12, atol=1e-15)


# --- np.errstate: which kinds stop at which error ----------------------------------------

def test_over_and_invalid_alone_let_log_of_zero_through():
    stop = {"over": "raise", "invalid": "raise"}
    with pytest.warns(RuntimeWarning, match="divide by zero encountered in log"):   # only a warning
        assert wr020.first_bad_line(wr020.naive_bce, np.array(40.0), 0.0, stop=stop) is None
    with np.errstate(**stop, divide="ignore"):
        assert wr020.naive_bce(np.array(40.0), 0.0) == math.inf


def test_adding_divide_stops_at_the_log():
    found = wr020.first_bad_line(wr020.naive_bce, np.array(40.0), 0.0)
    assert found.startswith("divide by zero encountered in log") and found.endswith("in naive_bce)")
    with pytest.raises(FloatingPointError, match="divide by zero encountered in log"):
        with np.errstate(**BOTH_WAYS):
            np.log(np.array([0.0]))


def test_errstate_raise_points_at_the_exp_line():
    with pytest.raises(FloatingPointError, match="overflow encountered in exp") as info:
        with np.errstate(**wr020.STOP):
            wr020.naive_bce(np.array(-1000.0), 1.0)
    last = traceback.extract_tb(info.value.__traceback__)[-1]
    assert last.name == "naive_sigmoid"
    assert "np.exp(-z)" in last.line
    assert wr020.first_bad_line(wr020.naive_bce, np.array(-1000.0), 1.0).endswith("in naive_sigmoid)")


def test_under_raise_trips_from_the_first_subnormal_result():
    """all="raise" would stop the stable sigmoid well before exp(-|z|) is 0.0: from the first subnormal."""
    start = -math.log(np.finfo(np.float64).tiny)                 # exp(-z) < smallest normal from here on
    below, above = np.nextafter(start, 0.0), np.nextafter(start, np.inf)
    with np.errstate(under="raise"):
        assert np.exp(-below) >= np.finfo(np.float64).tiny       # still normal: no error
        with pytest.raises(FloatingPointError, match="underflow encountered in exp"):
            np.exp(-above)
    assert start < -underflow_point()                            # long before the result is 0.0
    assert_entry_says("WR-020", [f"from |z| ≈ {start:.2f}, and which is 0.0 past {-underflow_point():.2f}"])


def test_all_raise_would_stop_the_correct_program_on_underflow():
    assert wr020.STOP == BOTH_WAYS                      # the recommendation does not include under
    with pytest.raises(FloatingPointError, match="underflow encountered in exp"):
        with np.errstate(all="raise"):
            wr020.stable_sigmoid(np.array([-1000.0]))
    z = np.array(EXTREME)
    with np.errstate(**BOTH_WAYS):                      # the fixed functions never trip the three
        wr020.stable_sigmoid(z)
        wr020.stable_softmax(z)
        wr020.log_softmax(z)
        wr020.bce_from_logits(z, 1.0)
        wr020.bce_from_logits(z, 0.0)


def test_warning_is_shown_once_per_location():
    _, once = wr020.warnings_shown(wr020.naive_sigmoid, wr020.LOGITS, repeat=5)
    assert once == ["overflow encountered in exp"]
    import warnings
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for _ in range(5):
            wr020.naive_sigmoid(wr020.LOGITS)
    assert len(caught) == 5


# --- the prose states what the snippet computes ---------------------------------------------

def test_numbers_in_the_entry_match_the_snippet():
    claims = []
    for dtype in (np.float16, np.float32, np.float64):
        x = float(wr020.overflow_threshold(dtype))
        biggest = float(np.finfo(dtype).max)
        big = f"{biggest:.0f}" if biggest < 1e6 else f"{biggest:.2e}"
        verb = "overflows for x above" if dtype is np.float16 else "above"
        claims.append(f"{dtype.__name__} (largest value {big}) {verb} {x:.2f}")
    assert np.all(np.isnan(shown(wr020.naive_softmax, wr020.BIG)[0]))
    claims.append("[1000, 999, 998] written the naive way returns [nan, nan, nan]")
    claims.append("the logits [100, 99, 98] are already enough")
    with localcontext() as ctx:
        ctx.prec = 30
        claims.append(f"the true value, about {1 / (1 + Decimal(1000).exp()):.1e}")
    _, once = wr020.warnings_shown(wr020.naive_sigmoid, wr020.LOGITS, repeat=5)
    claims.append(f"the same overflow happens five times and {['no', 'one'][len(once)]} warning is shown")
    limit = float(wr020.overflow_threshold(np.float64))
    claims.append(f"between −{-underflow_point():.2f} and −{limit:.2f} does it return 0.0")
    claims.append(f"float64 sigmoid(40) is {wr020.naive_sigmoid(np.array(40.0)):.1f}")
    fixed = [float(wr020.bce_from_logits(np.array(-1000.0), 1.0)), float(wr020.bce_from_logits(np.array(40.0), 0.0))]
    claims.append(f"their true values, {fixed[0]:.1f} and {fixed[1]:.1f}")
    claims.append("The nan becomes [" + ", ".join(f"{v:.3f}" for v in wr020.stable_softmax(wr020.BIG)) + "]")
    claims.append(f"is 0.0 past {-underflow_point():.2f}")
    claims.append(f"exp overflows past {limit:.2f} in float64 and {float(wr020.overflow_threshold(np.float32)):.2f}")
    claims.append("is 16.12 (−ln 1e-7)")
    assert f"{-math.log(1e-7):.2f}" == "16.12"
    claims.append("exp(0) = 1")
    assert_entry_says("WR-020", claims)


def test_each_tab_prints_its_story():
    from conftest import tab_program_run

    reproduce = tab_program_run("snippets/wr020_float_overflow.py", "reproduce").stdout
    missing = [text for text in [
        "naive softmax of [1000.0, 999.0, 998.0] -> [nan nan nan]",
        "in float32, logits [100, 99, 98] are enough: [nan nan nan]",
        "textbook cross-entropy, label 1, logit -1000: inf",
        "five times (five epochs): 1 warning shown",
        "over and invalid only, logit 40: nothing raised",
        "over, divide and invalid, logit 40: divide by zero encountered in log",
        "RuntimeWarning: overflow encountered in exp",
    ] if text not in reproduce]
    assert not missing, missing
    fix = tab_program_run("snippets/wr020_float_overflow.py", "fix").stdout
    missing = [text for text in [
        "Cross-entropy from the logit, label 1, logit -1000: 1000.0",
        "Cross-entropy from the logit, label 0, logit 40:    40.0",
        "Stable softmax of [1000.0, 999.0, 998.0] -> [0.66524096 0.24472847 0.09003057]",
    ] if text not in fix]
    assert not missing, missing
    assert "Warning" not in fix and "nan" not in fix and "inf" not in fix


def test_when_it_shows_in_a_run_is_when_exps_argument_passes_its_limit():
    """The Symptom's account of when the overflow shows in training, on WR-330's example: raw pixels give
    a softmax regression a largest first logit between the float32 and the float64 limits, so float32
    overflows before any update while float64 stays finite and is nan right after the first update."""
    wr330 = load_snippet("wr330_unnormalised_inputs")
    y, data = wr330.training_inputs()
    X = data["raw 0..255"]
    # fit_softmax_regression's first pass, rebuilt here; its first loss checks the rebuild
    rng = np.random.default_rng(wr330.SEED + 1)
    a = 1 / np.sqrt(X.shape[1])
    W, b = rng.uniform(-a, a, (X.shape[1], wr330.CLASSES)), rng.uniform(-a, a, wr330.CLASSES)
    z = X @ W + b
    first = -(np.eye(wr330.CLASSES)[y] * wr330.log_softmax(z)).sum(axis=1).mean()
    assert first == pytest.approx(wr330.fit_softmax_regression(X, y, 0.5, epochs=1)["loss"][0], rel=1e-12)
    top = float(z.max())
    assert float(wr020.overflow_threshold(np.float32)) < top < float(wr020.overflow_threshold(np.float64))
    with np.errstate(over="ignore"):
        assert np.isinf(np.exp(z.astype(np.float32))).any()
    assert np.isfinite(np.exp(z)).all()
    # the first update, as fit_softmax_regression takes it at the rate of 0.5, throws the largest logit far out
    onehot = np.eye(wr330.CLASSES)[y]
    g = (np.exp(wr330.log_softmax(z)) - onehot) / len(y)
    after = X @ (W - 0.5 * X.T @ g) + (b - 0.5 * g.sum(axis=0))
    assert float(after.max()) > float(wr020.overflow_threshold(np.float64))
    with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
        naive = wr330.fit_softmax_regression(X, y, 0.5, stable=False)["loss"]
    assert math.isfinite(naive[0]) and math.isnan(naive[1])
    assert all(math.isfinite(v) for v in wr330.fit_softmax_regression(X, y, 0.5)["loss"])   # the max subtracted
    assert_entry_says("WR-020", [f"logits up to {top:.0f} before any update", "nan right after the first update",
                                 f"the largest logit to about {round(float(after.max()), -4):,.0f}",
                                 "with the largest logit subtracted first, the run stays finite"])
