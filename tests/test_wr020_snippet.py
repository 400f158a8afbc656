"""WR-020: the naive versions overflow as documented; the stable ones are right."""
import math
import sys
import traceback
from decimal import Decimal, localcontext

import numpy as np
import pytest

from conftest import assert_entry_says, load_snippet

wr020 = load_snippet("wr020_float_overflow")
EXTREME = [-1000.0, -745.5, -700.0, -300.0, -20.0, 0.0, 20.0, 300.0, 700.0, 1000.0]


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


def test_naive_sigmoid_overflows_with_the_exact_warning():
    out, texts = wr020.caught_warnings(wr020.naive_sigmoid, np.array(EXTREME))
    assert texts == ["overflow encountered in exp"]
    assert out[0] == 0.0  # exp(1000) is inf and 1 / (1 + inf) is exactly 0


def test_naive_softmax_turns_inf_into_nan():
    out, texts = wr020.caught_warnings(wr020.naive_softmax, np.array([1000.0, 999.0, 998.0]))
    assert texts == ["overflow encountered in exp", "invalid value encountered in divide"]
    assert np.all(np.isnan(out))


def test_naive_loss_is_inf_from_log_of_zero():
    out, texts = wr020.caught_warnings(wr020.naive_bce, np.array(-1000.0), 1.0)
    assert out == math.inf
    assert "divide by zero encountered in log" in texts


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


def test_stable_sigmoid_agrees_with_naive_where_naive_is_finite():
    z = np.linspace(-700, 700, 2801)
    naive, texts = wr020.caught_warnings(wr020.naive_sigmoid, z)
    assert texts == []
    np.testing.assert_allclose(wr020.stable_sigmoid(z), naive, rtol=1e-12, atol=0)


def test_stable_sigmoid_is_right_where_naive_is_not():
    z = np.array(EXTREME)
    stable, texts = wr020.caught_warnings(wr020.stable_sigmoid, z)
    assert texts == []
    np.testing.assert_allclose(stable, [ref_sigmoid(v) for v in EXTREME], rtol=1e-14, atol=0)


def test_stable_softmax_and_log_softmax_against_a_60_digit_reference():
    for logits in ([1000.0, 999.0, 998.0], [1000.0, 0.0, -1000.0], [-800.0, -801.0, -805.0]):
        z = np.array(logits)
        (soft, soft_w), (logsoft, log_w) = (wr020.caught_warnings(wr020.stable_softmax, z),
                                            wr020.caught_warnings(wr020.log_softmax, z))
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
        loss1, w1 = wr020.caught_warnings(wr020.bce_from_logits, np.array(z), 1.0)
        loss0, w0 = wr020.caught_warnings(wr020.bce_from_logits, np.array(z), 0.0)
        assert w1 == [] and w0 == []
        assert float(loss1) == pytest.approx(ref_softplus(-z), rel=1e-14)
        assert float(loss0) == pytest.approx(ref_softplus(z), rel=1e-14)
    # and the same as the textbook loss where the textbook loss is finite; the
    # textbook form takes log(p) with p near 1 and so is only good to ~1e-16
    # absolute, which is why the comparison is absolute
    z = np.linspace(-30, 30, 601)
    np.testing.assert_allclose(wr020.bce_from_logits(z, 1.0), wr020.naive_bce(z, 1.0), rtol=1e-12, atol=1e-15)


def test_errstate_raise_points_at_the_exp_line():
    with pytest.raises(FloatingPointError, match="overflow encountered in exp") as info:
        wr020.find_the_overflow(np.array(EXTREME))
    last = traceback.extract_tb(info.value.__traceback__)[-1]
    assert last.name == "naive_sigmoid"
    assert "np.exp(-z)" in last.line


def test_warning_is_printed_once_per_location():
    _, default = wr020.caught_warnings(wr020.naive_sigmoid, np.array(EXTREME), repeat=5, action="default")
    _, always = wr020.caught_warnings(wr020.naive_sigmoid, np.array(EXTREME), repeat=5, action="always")
    assert len(default) == 1
    assert len(always) == 5


def test_numbers_in_the_entry_match_the_snippet():
    claims = []
    for dtype in (np.float16, np.float32, np.float64):
        x = float(wr020.overflow_threshold(dtype))
        biggest = float(np.finfo(dtype).max)
        shown = f"{biggest:.0f}" if biggest < 1e6 else f"{biggest:.2e}"
        verb = "overflows for x above" if dtype is np.float16 else "above"
        claims.append(f"{dtype.__name__} (largest value {shown}) {verb} {x:.2f}")
    softmax = wr020.caught_warnings(wr020.naive_softmax, np.array([1000.0, 999.0, 998.0]))[0]
    assert np.all(np.isnan(softmax))
    claims.append("[1000, 999, 998] written the naive way returns [nan, nan, nan]")
    _, once = wr020.caught_warnings(wr020.naive_sigmoid, np.array(EXTREME), repeat=5, action="default")
    assert len(once) == 1
    claims.append("happens five times and one warning is printed")
    claims.append("exp(0) = 1")
    assert_entry_says("WR-020", claims)


def test_main_prints_the_story(capsys):
    with pytest.warns(RuntimeWarning):
        wr020.main()
    out = capsys.readouterr().out
    assert "Naive softmax of [1000.0, 999.0, 998.0] -> [nan nan nan]" in out
    assert "1 warning printed: ['overflow encountered in exp']" in out
    assert "FloatingPointError: overflow encountered in exp" in out
