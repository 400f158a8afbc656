"""WR-250: Adam's first steps are its largest; a short warmup lets the same peak rate through."""
import math
import warnings

import numpy as np
import pytest

from conftest import assert_entry_says, load_snippet

wr250 = load_snippet("wr250_no_warmup")
PEAK, WARMUP = 0.1, 4


@pytest.fixture(scope="module")
def runs():
    with warnings.catch_warnings():
        warnings.simplefilter("error")          # no warning anywhere: the jump is silent
        return wr250.train(lambda t: PEAK), wr250.train(lambda t: PEAK * min(1.0, t / WARMUP))


@pytest.fixture(scope="module")
def table():
    return wr250.sweep()


def test_the_start_is_right_and_the_first_update_makes_the_loss_jump(runs):
    plain, _ = runs
    loss = plain["loss"]
    assert loss[0] == pytest.approx(math.log(wr250.CLASSES), abs=0.01)      # the output layer is scaled right
    assert int(np.argmax(loss)) == 1 and loss[1] > 5 * loss[0]              # after the very first update
    back = next(t for t, v in enumerate(loss) if t > 1 and v < loss[0])
    assert back == 6
    assert loss[-1] < loss[0] and loss[-1] > 0.9 * loss[0]                  # recovered, but barely trained
    assert all(math.isfinite(v) for v in loss)
    assert plain["dead"][1] >= 0.9 * wr250.WIDTH and plain["dead"][0] == 0


def test_a_warmup_tells_a_fragile_start_from_a_rate_too_high():
    """The curve's shape does not separate them (WR-220's rate 10 climbs to inf, or spikes again and again
    from the logits, yet is a start-of-training failure); a rerun with a short warmup does: it rescues
    WR-220's rate 10 and does not rescue this network at 0.2. The Confirm section says exactly this."""
    wr220 = load_snippet("wr220_lr_explosion")
    plain, warmed = wr220.warmed_up(10.0, 0)["loss"], wr220.warmed_up(10.0, 3)["loss"]
    assert not math.isfinite(plain[-1]) and all(math.isfinite(v) for v in warmed) and warmed[-1] < warmed[0] / 3
    too_high = wr250.train(lambda t: 0.2 * min(1.0, t / WARMUP))["loss"]
    at_peak = wr250.train(lambda t: PEAK * min(1.0, t / WARMUP))["loss"]
    assert too_high[-1] > 0.3 and too_high[-1] > 1000 * at_peak[-1]       # warmed up, 0.2 still fails; 0.1 trains
    assert_entry_says("WR-250", [
        f"(WR-220's rate 10 is non-finite at epoch {len(plain) - 1} without warmup and ends at {warmed[-1]:.4f} "
        f"with 3 warmup epochs); if it still fails, the rate is too high (here 0.2, warmed up over {WARMUP} "
        f"steps, still ends at {too_high[-1]:.3g})",
        "a run hurt only by its first steps can climb to inf or spike again and again as well"])


def test_first_update_is_the_rate_for_every_weight_and_bias_correction_shrinks_it():
    sizes = wr250.first_update_sizes(PEAK)
    g_big = sizes["sgd"] / PEAK > 1e-4            # gradients for which eps = 1e-8 is negligible even after √(1−β2)
    assert np.allclose(sizes["corrected"][g_big], PEAK, rtol=1e-2)
    # Without bias correction: m_1 / sqrt(v_1) = (1 - b1) / sqrt(1 - b2) * sign(g), 3.16 times larger.
    ratio = sizes["raw"][g_big] / sizes["corrected"][g_big]
    assert np.allclose(ratio, (1 - wr250.BETA1) / math.sqrt(1 - wr250.BETA2), rtol=1e-2)
    assert (1 - wr250.BETA1) / math.sqrt(1 - wr250.BETA2) == pytest.approx(3.162, abs=1e-3)
    assert np.median(sizes["sgd"]) < np.median(sizes["corrected"]) / 1000


def test_the_loop_without_bias_correction_takes_a_first_step_3_16_times_larger():
    """The x3.16 from the optimiser itself: train() with the correction off, against the closed form per weight."""
    X, y = wr250.make_data()
    _, grads, _ = wr250.forward_backward(wr250.init_params(), X, y)
    g = np.abs(np.concatenate([x.ravel() for x in grads]))
    b1, b2, eps = wr250.BETA1, wr250.BETA2, wr250.EPS
    expected = {True: np.sqrt(np.mean((g / (g + eps)) ** 2)),                                # m_hat / sqrt(v_hat)
                False: np.sqrt(np.mean(((1 - b1) * g / (np.sqrt(1 - b2) * g + eps)) ** 2))}    # m_1 / sqrt(v_1)
    runs = {on: wr250.train(lambda t: PEAK, steps=1, bias_correction=on) for on in (True, False)}
    for on, run in runs.items():
        assert run["step_per_rate"][0] == pytest.approx(expected[on], rel=1e-12), on
    ratio = runs[False]["step_per_rate"][0] / runs[True]["step_per_rate"][0]
    assert 3.0 < ratio < (1 - b1) / math.sqrt(1 - b2)                 # 3.16 where |g| >> eps, a little less overall
    assert runs[False]["loss"][1] > 10 * runs[True]["loss"][1]          # and the jump is that much worse
    assert_entry_says("WR-250", [
        f"the root mean square of its first update over all weights is {runs[False]['step_per_rate'][0]:.2f} times "
        f"the rate, against {runs[True]['step_per_rate'][0]:.2f} with it, and the loss jumps to "
        f"{runs[False]['loss'][1]:.1f} instead of {runs[True]['loss'][1]:.2f}",
    ])


def test_adam_steps_shrink_relative_to_the_rate_as_gradients_stop_agreeing(runs):
    ratio = runs[0]["step_per_rate"]
    assert ratio[0] > 0.99                                   # m_hat / sqrt(v_hat) = sign(g) at step 1
    assert ratio[9] < 0.3 * ratio[0] and ratio[-1] < 0.05
    assert all(b <= a + 1e-9 for a, b in zip(ratio[:10], ratio[1:11]))   # falls step after step at the start
    assert ratio[1] < 0.8                                    # from the second update on, not "near the full rate"
    assert_entry_says("WR-250", [f"still {ratio[1]:.2f} of the rate at the second update and {ratio[4]:.2f} at the fifth"])


def test_v_hat_rests_on_about_t_samples_radam_rho():
    """Liu et al. 2020: rho_t = rho_inf - 2 t b2^t / (1 - b2^t); the adaptive rate's variance is
    intractable while rho_t <= 4 (PyTorch's RAdam switches it on only above 5)."""
    b2 = wr250.BETA2
    rho_inf = 2 / (1 - b2) - 1
    rho = [rho_inf - 2 * t * b2 ** t / (1 - b2 ** t) for t in range(1, 8)]
    assert rho == pytest.approx(list(range(1, 8)), abs=0.01)
    assert next(t for t, r in enumerate(rho, 1) if r > 4) == 5
    assert next(t for t, r in enumerate(rho, 1) if r > 5) == 6


def test_positive_inputs_make_the_first_step_shift_whole_units():
    first, second = wr250.first_update_shift(PEAK)
    assert first["shift"] == pytest.approx(PEAK, rel=0.1)             # inputs of both signs: steps cancel
    assert second["shift"] > 20 * PEAK                                # ReLU outputs are >= 0: they add up
    assert second["shift"] > 3 * second["spread"]
    assert second["dead"] > 10 and first["dead"] == 0


def test_warmup_lets_the_same_peak_rate_through(runs):
    plain, warm = runs
    assert warm["rate"][:WARMUP] == pytest.approx([PEAK * t / WARMUP for t in range(1, WARMUP + 1)])
    assert warm["rate"][WARMUP:] == [PEAK] * (wr250.STEPS - WARMUP)
    assert max(warm["loss"]) < 1.1 * warm["loss"][0] < plain["loss"][1]
    assert warm["loss"][-1] < 1e-3 * plain["loss"][-1]
    assert warm["dead"][1] < plain["dead"][1]


def test_warmup_buys_range_not_magic(table):
    rates, const, warm = list(wr250.RATES), table["constant"], table["warmup"]
    best_const = int(np.argmin(const))
    assert rates[best_const] == 0.02
    trains = lambda losses: [r for r, v in zip(rates, losses) if v < 0.01]
    assert max(trains(const)) == 0.05 and max(trains(warm)) == 0.1     # the usable range doubles
    assert min(warm) < min(const)                                      # and its best run beats every constant one
    assert warm[rates.index(0.2)] > 0.5                                # but 0.2 fails either way
    # A warmup does not help rates the start could take anyway: it only costs their first steps.
    assert all(w > c for w, c in zip(warm[:3], const[:3]))


def test_numbers_in_the_entry_match_the_snippet(runs, table):
    plain, warm = runs
    loss = plain["loss"]
    sizes = wr250.first_update_sizes(PEAK)
    first, second = wr250.first_update_shift(PEAK)
    const_dead = {r: wr250.train(lambda t, r=r: r)["dead"][1] for r in (0.03, 0.05)}
    row = lambda values: " | ".join(f"{v:.3g}" for v in values)
    assert_entry_says("WR-250", [
        f"loss starts at {loss[0]:.3f} (ln 10",
        f"jumps to {loss[1]:.2f} after the first update, and is back below the start only at step 6; after "
        f"{wr250.STEPS} steps it is still {loss[-1]:.3f}",
        f"By then {plain['dead'][1]} of the second layer's {wr250.WIDTH} units are silent on every example",
        f"the median gradient at step 1 is {np.median(sizes['sgd']) / PEAK:.1e}",
        f"would move the median weight by {np.median(sizes['sgd']):.1e}; Adam moves it by "
        f"{np.median(sizes['corrected']):.4f}",
        f"(1−β1)/√(1−β2) = {(1 - wr250.BETA1) / math.sqrt(1 - wr250.BETA2):.2f} times the rate",
        f"is {plain['step_per_rate'][0]:.2f} at step 1, {plain['step_per_rate'][9]:.2f} at step 10 and "
        f"{plain['step_per_rate'][-1]:.2f} at step 40",
        f"moved by {second['shift']:.2f} on average — {second['shift'] / PEAK:.0f} times the rate, against "
        f"{first['shift'] / PEAK:.2f} times in the first layer",
        f"was {second['spread']:.2f}. {second['dead']} units are pushed below zero",
        f"| constant | {row(table['constant'])} |",
        f"| warmed up to it over 4 steps | {row(table['warmup'])} |",
        f"({const_dead[0.03]} of the second layer's 128 at 0.03, {const_dead[0.05]} at 0.05)",
        f"the loss never rises above {max(warm['loss']):.3f}, ends at {warm['loss'][-1]:.3g} after the same 40 "
        f"steps, and {wr250.WIDTH - warm['dead'][1]} units of the second layer still fire ({warm['dead'][1]} of "
        f"128 are silent, against {plain['dead'][1]} without warmup)",
        f"fits the data too ({min(table['constant']):.3g})",
        f"warmed up to 0.2, the run still fails ({table['warmup'][-1]:.3g})",
    ])
