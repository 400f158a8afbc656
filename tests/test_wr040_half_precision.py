"""WR-040: float16's limits, what they do to a forward pass, a backward pass, an update and
Adam -- and that the fix (bfloat16, loss scaling, float32 master weights and state) removes it."""
import warnings
from fractions import Fraction

import numpy as np
import pytest

from conftest import assert_entry_says, load_snippet

wr040 = load_snippet("wr040_half_precision")
F16 = np.finfo(np.float16)


@pytest.fixture(scope="module")
def micro_batch():
    """The micro-batch's first-layer gradients: float32, float16, and float16 with the loss scaled by 2**16."""
    return {"float32": wr040.micro_batch_gradient(wr040.float32),
            "float16": wr040.micro_batch_gradient(wr040.half),
            "scaled": wr040.micro_batch_gradient(wr040.half, scale=2.0 ** 16)}


@pytest.fixture(scope="module")
def report():
    return wr040.underflow_report()


@pytest.fixture(scope="module")
def step():
    return wr040.sgd_step_in_float16()


@pytest.fixture(scope="module")
def dead_end():
    with np.errstate(over="ignore", invalid="ignore"):
        return wr040.finetune_outlier_in_float16()


@pytest.fixture(scope="module")
def bf16_run():
    return warning_texts(wr040.finetune_outlier_in_bfloat16)


def warning_texts(fn, *args, **kwargs):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = fn(*args, **kwargs)
    return result, [str(w.message) for w in caught if w.category is RuntimeWarning]


# --- the format -------------------------------------------------------------------------------

def test_float16_limits_are_the_ones_the_entry_states():
    assert F16.max == 65504 and F16.tiny == 2.0 ** -14 and F16.smallest_subnormal == 2.0 ** -24
    assert F16.nmant == 10 and F16.nexp == 5


def test_overflow_and_flush_thresholds_of_the_cast():
    with np.errstate(over="ignore"):
        assert wr040.half(65519.99) == 65504 and np.isinf(wr040.half(65520.0))
    assert wr040.half(2.0 ** -25) == 0                        # the tie rounds to even: 0
    assert wr040.half(2.0 ** -25 * (1 + 2.0 ** -20)) == 2.0 ** -24
    assert wr040.half(1e-8) == 0 and np.float16(1e-8) == 0     # Adam's eps
    one = np.float16(1.0)
    assert np.spacing(one) == 2.0 ** -10
    assert one + np.float16(1e-4) == one
    assert one + np.float16(2.0 ** -11 * 1.01) > one          # just over half the spacing survives


def test_numpy_names_the_cast_in_both_warnings():
    _, over = warning_texts(wr040.half, 7e4)
    assert over == ["overflow encountered in cast"]
    with np.errstate(under="warn"):
        _, under = warning_texts(lambda: np.float32([1e-9]).astype(np.float16))
    assert under == ["underflow encountered in cast"]
    _, texts = warning_texts(wr040.see_the_underflow)
    assert texts == ["underflow encountered in cast"]
    _, silent = warning_texts(lambda: np.float32([1e-9]).astype(np.float16))
    assert silent == []                                       # NumPy's default for underflow is to ignore it


# --- bfloat16 ---------------------------------------------------------------------------------

def reference_bfloat16(x: np.float32) -> float:
    """Nearest float32 whose low 16 bits are zero, ties to the one with an even bit 16, by exact arithmetic."""
    bits = int(np.float32(x).view(np.uint32))
    low = bits & 0xFFFF0000
    candidates = [low, low + 0x10000]
    values = [np.uint32(c).view(np.float32) for c in candidates]
    if not np.isfinite(values[0]):
        return float(values[0])
    exact = Fraction(float(x))
    if not np.isfinite(values[1]):           # rounding up overflows: to inf past the midpoint
        magnitude = abs(Fraction(float(values[0])))
        midpoint = magnitude + Fraction(2) ** (int(np.floor(np.log2(float(magnitude)))) - 8)
        return float(values[1]) if abs(exact) >= midpoint else float(values[0])
    d0, d1 = abs(exact - Fraction(float(values[0]))), abs(exact - Fraction(float(values[1])))
    if d0 != d1:
        return float(values[0] if d0 < d1 else values[1])
    return float(values[0] if (candidates[0] >> 16) % 2 == 0 else values[1])


@pytest.mark.parametrize("x, expected", [
    (1 + 2.0 ** -8, 1.0),                    # halfway: ties to even
    (1 + 3 * 2.0 ** -8, 1 + 2.0 ** -6),      # halfway the other way: up to the even neighbour
    (1 + 2.0 ** -8 + 2.0 ** -20, 1 + 2.0 ** -7),
    (1 + 2.0 ** -9, 1.0),                    # an update of 1/512 is lost on a weight of 1
    (70000.0, 70144.0),                      # float16 cannot hold it; bfloat16 rounds to 8 bits
    (-70000.0, -70144.0),
])
def test_bfloat16_rounding_on_known_values(x, expected):
    assert wr040.bfloat16(np.float32(x)) == expected


def test_bfloat16_rounding_matches_exact_arithmetic():
    rng = np.random.default_rng(0)
    xs = np.concatenate([rng.normal(size=400) * 10.0 ** rng.integers(-30, 30, 400),
                         np.float32([3.3895e38, -3.39e38, 1e-40, 0.0, -0.0])]).astype(np.float32)
    got = wr040.bfloat16(xs)
    assert all(g == reference_bfloat16(x) or (np.isinf(g) and np.isinf(reference_bfloat16(x)))
               for g, x in zip(got, xs))
    assert np.isnan(wr040.bfloat16(np.float32("nan")))
    assert np.isinf(wr040.bfloat16(np.float32(3.4e38)))           # past bfloat16's largest value


def test_bfloat16_keeps_the_range_the_overflow_needed():
    X, _, W1, _ = wr040.outlier_net()
    largest = np.abs(X @ W1).max()
    assert largest > F16.max
    assert np.isfinite(wr040.bfloat16(largest)) and abs(wr040.bfloat16(largest) / largest - 1) < 2 ** -8


# --- the loss scaler --------------------------------------------------------------------------

def test_scaler_defaults_are_pytorchs():
    s = wr040.LossScaler()
    assert (s.scale, s.growth_factor, s.backoff_factor, s.growth_interval, s.min_scale) == (2.0 ** 16, 2.0, 0.5,
                                                                                             2000, 0.0)


def test_scaler_halves_and_skips_on_overflow_then_doubles_after_2000_good_steps():
    s = wr040.LossScaler()
    took = [s.update(False) for _ in range(3)]
    assert took == [False] * 3 and s.scale == 8192
    for step in range(1999):
        assert s.update(True)
    assert s.scale == 8192                                  # not yet: 1999 good steps
    assert s.update(True) and s.scale == 16384              # the 2000th doubles it
    s.update(True)
    assert not s.update(False) and s.scale == 8192 and s.good_steps == 0   # an overflow resets the count


def test_scaler_floor():
    s = wr040.LossScaler(min_scale=1e-4)
    steps = 0
    while not s.at_floor:
        s.update(False)
        steps += 1
    assert steps == 30 and s.scale == 2.0 ** -14            # 65536 / 2**30 is the first scale <= 1e-4
    assert s.scale < 1e-4 < 2 * s.scale                      # it falls below the floor; it never sits on it


# --- reproduce 1: overflow in the forward pass, the scaler's dead end --------------------------

def test_forward_overflow_makes_every_step_a_skip():
    (log, params), texts = warning_texts(wr040.finetune_outlier_in_float16)
    assert "overflow encountered in cast" in texts
    assert len(log) == 30 and not any(row["stepped"] for row in log)
    assert all(np.isnan(row["loss"]) for row in log)
    assert [row["scale"] for row in log] == [2.0 ** (16 - k) for k in range(30)]
    X, y, W1, w2 = wr040.outlier_net()
    assert np.array_equal(params[0], wr040.half(W1)) and np.array_equal(params[1], wr040.half(w2))


def test_no_loss_scale_reaches_a_forward_overflow():
    X, y, W1, w2 = wr040.outlier_net()
    with np.errstate(all="ignore"):
        for scale in (2.0 ** 16, 1.0, 2.0 ** -20):
            loss, gW1, gw2 = wr040.norm_net(wr040.half(W1), wr040.half(w2), X, y, wr040.half, scale)
            assert np.isnan(loss) and not np.isfinite(gW1).all()
    loss32, g32, _ = wr040.norm_net(W1, w2, X, y, wr040.float32)
    assert np.isfinite(loss32) and np.isfinite(g32).all()     # the same net is fine in float32


# --- reproduce 2: underflow in the backward pass and lost updates ------------------------------

def test_flushed_gradients_are_the_ones_at_or_below_half_the_smallest_subnormal(report, micro_batch):
    u = report
    _, d32 = micro_batch["float32"]
    alive = np.abs(d32[d32 != 0])
    assert u["subnormal"] == 1.0                            # every one is below 2**-14
    below = float(np.mean(alive <= 2.0 ** -25))
    assert abs(u["flushed"] - below) < 0.01                 # the ones that vanish are the ones below 2**-25
    assert 0.3 < u["flushed"] < 0.5 and u["grad_error"] > 0.3


def test_loss_scaling_brings_the_gradients_back(micro_batch):
    g16, d16 = micro_batch["scaled"]
    g32, d32 = micro_batch["float32"]
    assert np.mean(d16[d32 != 0] == 0) == 0
    assert np.linalg.norm(g16 - g32) / np.linalg.norm(g32) < 1e-3


def test_updates_smaller_than_half_the_spacing_are_lost(step):
    w, update = step["w"], step["update"]
    upd16 = wr040.half(update)
    half_gap = np.spacing(np.abs(w).astype(np.float16)).astype(np.float32) / 2
    assert not np.any(np.abs(upd16) == half_gap)             # no exact ties to reason about
    assert step["moved"] == int(np.sum(np.abs(upd16) > half_gap))
    assert np.array_equal(step["new"] != w, np.abs(upd16) > half_gap)
    ratio = step["ratio"]
    assert np.all(step["new"][ratio < 2.0 ** -12] == w[ratio < 2.0 ** -12])   # always lost below 2**-12
    assert np.all(step["new"][ratio > 2.0 ** -11] != w[ratio > 2.0 ** -11])   # never lost above 2**-11


def test_a_float32_master_copy_keeps_every_update():
    X, y, W1, w2 = wr040.fresh_net()
    _, gW1, _, _ = wr040.two_layer(W1, w2, X, y, wr040.float32)
    assert np.all(W1 - 0.1 * gW1 != W1)


# --- reproduce 3: Adam in float16 ----------------------------------------------------------------

def adam_first_step(store):
    grads = store(np.float32([1e-3, 1e-2, 0.0, 1.0]))
    adam = wr040.Adam([store(np.ones(4))], 1e-3, store)
    with np.errstate(divide="ignore", invalid="ignore"):
        (weights,) = adam.step([store(np.ones(4))], [grads])
    return weights, adam.v[0]


def test_adam_in_float16_divides_by_zero():
    weights, v = adam_first_step(wr040.half)
    assert np.float16(1e-8) == 0
    assert v[0] == 0 and v[2] == 0 and v[1] == 2 * 2.0 ** -24
    assert weights[0] == -np.inf and np.isnan(weights[2])
    assert weights[1] == weights[3] == np.float16(1 - 2.0 ** -10)
    # the infinity takes the sign opposite to the gradient's (the Symptom: "±inf, -inf for a positive gradient")
    adam = wr040.Adam([wr040.half(np.ones(2))], 1e-3, wr040.half)
    with np.errstate(divide="ignore", invalid="ignore"):
        (flipped,) = adam.step([wr040.half(np.ones(2))], [wr040.half([1e-3, -1e-3])])
    assert flipped[0] == -np.inf and flipped[1] == np.inf


def test_second_moment_underflows_below_a_gradient_of_about_5_5e_3():
    threshold = np.sqrt(2.0 ** -25 / (1 - 0.999))
    assert 5.4e-3 < threshold < 5.5e-3
    for g, zero in ((0.9 * threshold, True), (1.1 * threshold, False)):
        adam = wr040.Adam([wr040.half(np.ones(1))], 1e-3, wr040.half)
        with np.errstate(divide="ignore", invalid="ignore"):
            adam.step([wr040.half(np.ones(1))], [wr040.half([g])])
        assert (adam.v[0][0] == 0) == zero


def test_adam_with_float32_state_is_finite():
    weights, v = adam_first_step(wr040.float32)
    assert np.isfinite(weights).all() and weights[2] == 1.0
    assert np.allclose(weights[[0, 1, 3]], 0.999)


# --- the fix --------------------------------------------------------------------------------------

def test_bfloat16_fine_tuning_trains(bf16_run):
    (log, params), texts = bf16_run
    assert texts == []
    losses = [row["loss"] for row in log]
    assert np.isfinite(losses).all() and losses[-1] < 0.2 * losses[0]
    X, y, W1, w2 = wr040.outlier_net()
    float32_run = wr040.Adam([W1, w2], 3e-2, wr040.float32)
    p = [W1, w2]
    for _ in range(60):
        loss, g1, g2 = wr040.norm_net(*p, X, y, wr040.float32)
        p = float32_run.step(p, [g1, g2])
    assert abs(loss - losses[-1]) < 0.01                   # as good as float32


def test_scaler_sequence_finds_the_ceiling_of_the_gradients():
    (scales, skipped), texts = warning_texts(wr040.scaler_sequence)
    assert texts == []
    assert skipped == [30, 41, 52] and max(scales) == 2.0 ** 19
    X, y, W1, w2 = wr040.fresh_net(tokens=256)
    with np.errstate(over="ignore", invalid="ignore"):
        for scale, finite in ((2.0 ** 18, True), (2.0 ** 19, False)):
            _, g1, g2, _ = wr040.two_layer(W1, w2, X, y, wr040.half, scale)
            assert (np.isfinite(g1).all() and np.isfinite(g2).all()) == finite


# --- the page -------------------------------------------------------------------------------------

def test_numbers_in_the_entry_match_the_snippet(dead_end, report, step, bf16_run, micro_batch):
    X, _, W1, _ = wr040.outlier_net()
    log, _ = dead_end
    u = report
    (bf16, _), _ = bf16_run
    g16, d16 = micro_batch["scaled"]
    g32, d32 = micro_batch["float32"]
    scaled_error = np.linalg.norm(g16 - g32) / np.linalg.norm(g32)
    assert_entry_says("WR-040", [
        f"largest activation is {np.abs(X @ W1).max():.3g}",
        f"{len(log)} of {len(log)} steps skipped, until the scale falls below a floor of 1e-4 (to "
        f"{log[-1]['new_scale']:.2g})",
        f"{u['flushed']:.1%} of the gradients a fresh network's first layer receives are 0 in float16",
        f"weight gradient is off by {u['grad_error']:.0%}",
        f"changes only {step['moved']} of its {step['weights']} weights",
        f"median size of {u['median']:.2g}: {u['subnormal']:.0%} of them below float16's smallest normal, "
        f"{u['flushed']:.1%} exactly 0",
        f"{u['weight_grad_zero']:.1%} of its entries 0 and is off by {u['grad_error']:.0%}",
        f"the median ratio is {np.median(step['ratio']):.2g}",
        f"changes {step['moved']} of {step['weights']}: the other {step['weights'] - step['moved']} updates",
        f"have {np.mean(d16[d32 != 0] == 0):.1%} zeros and the weight gradient is off by {scaled_error:.2%}",
        f"fine-tunes from {bf16[0]['loss']:.4f} to {bf16[-1]['loss']:.4f} in {len(bf16)} steps",
        f"largest {F16.max:.0f}, smallest normal {F16.tiny:.2g}",
        f"smallest subnormal {F16.smallest_subnormal:.3g}",
        f"The spacing at 1.0 is 2⁻¹⁰ ({np.spacing(np.float16(1.0))})",
        "1.0 + 0.0001 = 1.0",
        "after 166 halvings",
    ])


def test_pytorchs_scale_reaches_zero_after_166_halvings_in_float32():
    scale, halvings = np.float32(2.0 ** 16), 0
    while scale > 0:
        scale = np.float32(scale * np.float32(0.5))
        halvings += 1
    assert halvings == 166                                  # the entry's count, float32 arithmetic


def test_figure_data_is_plain_numbers_from_the_runs():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        figure = wr040.figure_data()
    left, right = figure["panels"]
    for series in left["series"]:
        assert abs(sum(series["y"]) - 1) < 1e-9
    dead = right["series"][0]["y"]
    assert dead == [16 - k for k in range(30)]
    assert "30 steps" in figure["alt"] and "30, 41, 52" in figure["alt"]


def test_the_epsilon_float16_keeps():
    """The fix item for constants written for float32: 1e-8 is below half float16's smallest positive value (2^-25)
    and rounds to 0; its smallest normal value is 6.1e-05; 1e-4 keeps all its bits."""
    import numpy as np
    smallest, tiny = float(np.finfo(np.float16).smallest_subnormal), float(np.finfo(np.float16).tiny)
    assert smallest == 2.0 ** -24 and 1e-8 < smallest / 2 and float(np.float16(1e-8)) == 0.0
    assert float(np.float16(4e-8)) == smallest            # (below the smallest value, but not below half of it)
    assert f"{tiny:.2g}" == "6.1e-05" and 1e-4 > tiny
    assert_entry_says("WR-040", ["1e-8 is below half its smallest positive value (2⁻²⁵, about 3e-08)",
                                 "`torch.finfo(torch.float16).tiny` = 6.1e-05"])
