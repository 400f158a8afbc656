"""WR-260: a gradient buffer that is never cleared makes every step the sum of all gradients so far;
with momentum that sum is summed again and grows at any rate; k undivided micro-batches are a rate k
times too high."""
import math
import warnings

import numpy as np
import pytest

from conftest import ROOT, assert_entry_says, load_snippet
from runtime_warnings import recorded

wr260 = load_snippet("wr260_gradients_accumulated")

RATE, MOMENTUM = wr260.RATE, wr260.MOMENTUM


def run(*args, **kwargs):
    with np.errstate(all="ignore"):     # the broken runs overflow on purpose
        return wr260.train(*args, **kwargs)


@pytest.fixture(scope="module")
def broken():
    return run(RATE, 300, MOMENTUM, clear=False)


@pytest.fixture(scope="module")
def correct():
    with warnings.catch_warnings():
        warnings.simplefilter("error")            # a correct loop warns about nothing
        return wr260.train(RATE, 300, MOMENTUM)


def flat(arrays):
    return np.concatenate([np.ravel(arrays[k]) for k in ("W1", "b1", "W2", "b2")])


def fresh_gradient_of(params, X, y):
    """The gradient of one loss alone: backward() into empty buffers."""
    grads = {k: np.zeros_like(w) for k, w in params.items()}
    wr260.backward(params, grads, X, y)
    return grads


def fresh_gradient(params):
    return fresh_gradient_of(params, *wr260.make_data())


def broken_steps(steps, momentum, lr=RATE):
    """The broken loop step by step: the buffer it steps with, the fresh gradients, the weight changes."""
    X, y = wr260.make_data()
    params = wr260.init_params()
    grads = {k: np.zeros_like(w) for k, w in params.items()}
    opt = wr260.SGD(params, lr, momentum)
    buffers, fresh, moves = [], [], []
    for _ in range(steps):
        fresh.append(flat(fresh_gradient(params)))
        wr260.backward(params, grads, X, y)          # no zero_grad(): adds to what is there
        buffers.append(flat(grads))
        before = flat(params)
        opt.step(grads)
        moves.append(flat(params) - before)
    return np.array(buffers), np.array(fresh), np.array(moves)


# ---- the buffer ---------------------------------------------------------------------------------

def test_backward_adds_to_the_buffer_and_zero_grad_empties_it():
    X, y = wr260.make_data()
    params = wr260.init_params()
    grads = {k: np.zeros_like(w) for k, w in params.items()}
    wr260.backward(params, grads, X, y)
    once = flat(grads)
    wr260.backward(params, grads, X, y)
    assert np.array_equal(flat(grads), 2 * once)       # the same gradient, added twice
    wr260.zero_grad(grads)
    assert not flat(grads).any()


def test_plain_sgd_without_zero_grad_steps_by_the_rate_times_the_sum_of_all_gradients():
    buffers, fresh, moves = broken_steps(30, momentum=0.0)
    np.testing.assert_allclose(buffers, np.cumsum(fresh, axis=0), rtol=1e-10, atol=1e-14)
    np.testing.assert_allclose(moves, -RATE * buffers, rtol=1e-8, atol=1e-14)
    # ...and the correct loop steps by the rate times this step's gradient alone
    params = wr260.init_params()
    g = flat(fresh_gradient(params))
    start = flat(params)
    np.testing.assert_allclose(flat(wr260.train(RATE, 1, momentum=0.0)["final_params"]) - start, -RATE * g)


def test_without_momentum_the_missing_zero_grad_is_momentum_one():
    """The bonus point: plain SGD without zero_grad() and SGD(momentum=1) with it compute the same
    sums in the same order, so their weights agree bit for bit."""
    no_clear = wr260.train(RATE, 60, momentum=0.0, clear=False)["final_params"]
    momentum_one = wr260.train(RATE, 60, momentum=1.0, clear=True)["final_params"]
    assert all(np.array_equal(no_clear[k], momentum_one[k]) for k in no_clear)


def test_the_sum_grows_while_the_gradients_agree():
    buffers, fresh, _ = broken_steps(4, momentum=MOMENTUM)
    first = fresh[0]
    cosines = [float(g @ first / np.linalg.norm(g) / np.linalg.norm(first)) for g in fresh]
    assert min(cosines[1:3]) > 0.98 and cosines[3] < 0.95
    ratio = np.linalg.norm(buffers[2]) / np.linalg.norm(first)
    assert 2.5 < ratio < 3.0                          # close to 3: three gradients pointing nearly one way
    shrunk = np.linalg.norm(fresh[2]) / np.linalg.norm(first)
    assert shrunk < 0.8
    assert_entry_says("WR-260", [
        f"the second and third make cosines of {cosines[1]:.3f} and {cosines[2]:.3f} with the first), so after three "
        f"steps the buffer is {ratio:.2f} times the first gradient, while the fresh gradient has shrunk to "
        f"{shrunk:.2f} of it"])


def test_momentum_sums_the_sum_again():
    """With one constant gradient g, plain SGD without zero_grad() steps t * lr * g at step t; with
    momentum the step is lr * g * sum_s s * mu**(t - s), which tends to t / (1 - mu) times lr * g."""
    g = 0.5
    for momentum in (0.0, MOMENTUM):
        params = {"w": np.zeros(1)}
        grads = {"w": np.zeros(1)}
        opt = wr260.SGD(params, RATE, momentum)
        for t in range(1, 41):
            grads["w"] += g                            # backward() of a loss with constant slope g
            step = opt.step(grads)
            expected = RATE * g * sum(s * momentum ** (t - s) for s in range(1, t + 1))
            assert step == pytest.approx(expected, rel=1e-12)
    plain = RATE * g * 40
    closed_form = 40 / (1 - MOMENTUM) - MOMENTUM * (1 - MOMENTUM ** 40) / (1 - MOMENTUM) ** 2
    assert expected / plain == pytest.approx(closed_form / 40, rel=1e-12)
    assert expected / plain > 7.5                      # 7.8 times at t = 40, tending to 1 / (1 - 0.9) = 10


def test_the_quadratic_analysis():
    """Roots of the loops' characteristic polynomials, checked against the snippet's own loop."""
    for momentum in (0.5, 0.9, 0.99):
        for a in np.geomspace(1e-6, 100, 200):
            assert wr260.growth_per_step(a, momentum, clear=False) > 1       # unstable at every rate
        for a in np.linspace(1e-3, 2 * (1 + momentum) - 1e-3, 200):
            assert wr260.growth_per_step(a, momentum, clear=True) < 1        # the correct loop converges
    for a in np.linspace(1e-3, 4 - 1e-3, 200):
        assert wr260.growth_per_step(a, 0.0, clear=False) == pytest.approx(1.0, abs=1e-9)   # never decays
        assert wr260.growth_per_step(a / 2, 0.0, clear=True) == pytest.approx(abs(1 - a / 2), abs=1e-12)  # |1 - a|
    assert wr260.growth_per_step(4.1, 0.0, clear=False) > 1.3
    low, high = (1 - math.sqrt(MOMENTUM)) ** 2, (1 + math.sqrt(MOMENTUM)) ** 2    # complex roots: |z| = sqrt(mu)
    assert high - low > 0.9 * 2 * (1 + MOMENTUM)                                   # "most of that range"
    for a in np.linspace(low + 1e-6, high - 1e-6, 50):
        assert wr260.growth_per_step(a, MOMENTUM, clear=True) == pytest.approx(math.sqrt(MOMENTUM), rel=1e-6)
    # the snippet's loop on a quadratic grows (or not) by exactly those factors
    for momentum, a in ((0.9, 0.01), (0.9, 0.1), (0.0, 0.5), (0.0, 3.0)):
        d = wr260.quadratic_distances(lr=a, curvature=1.0, momentum=momentum, clear=False, steps=600)
        envelope = (max(d[500:]) / max(d[200:300])) ** (1 / 300)
        assert envelope == pytest.approx(wr260.growth_per_step(a, momentum, clear=False), rel=2e-3)
    d = wr260.quadratic_distances(lr=0.01, curvature=1.0, momentum=0.9, clear=True, steps=600)
    assert max(d[500:]) < 1e-3 * max(d[:100])
    growth = {a: wr260.growth_per_step(a, MOMENTUM, clear=False) for a in (0.001, 0.01, 0.1)}
    assert_entry_says("WR-260", [
        f"it grows by a factor of {growth[0.001]:.4f} per step at ηλ = 0.001, {growth[0.01]:.4f} at 0.01 and "
        f"{growth[0.1]:.4f} at 0.1",
        f"shrinks by {math.sqrt(MOMENTUM):.4f} = √0.9 per step",
    ])


def test_one_epochs_batch_deviations_cancel_at_fixed_weights(correct):
    """The batches of one permutation split the data, so at fixed weights their deviations from the whole
    batch's gradient sum to exactly zero; batches drawn with replacement leave a sum that does not vanish."""
    X, y = wr260.make_data()
    params = correct["final_params"]
    whole = flat(fresh_gradient(params))
    rng = np.random.default_rng(7)
    order = rng.permutation(len(X))
    split = sum(flat(fresh_gradient_of(params, X[order[i:i + 20]], y[order[i:i + 20]])) - whole
                for i in range(0, len(X), 20))
    drawn = sum(flat(fresh_gradient_of(params, X[rows], y[rows])) - whole
                for rows in rng.integers(0, len(X), size=(20, 20)))
    one_batch = np.linalg.norm(flat(fresh_gradient_of(params, X[order[:20]], y[order[:20]])) - whole)
    assert np.linalg.norm(split) < 1e-9 * one_batch
    assert np.linalg.norm(drawn) > 0.5 * one_batch


def test_with_replacement_the_noise_would_be_a_random_walk(correct):
    """The page's aside: batches drawn independently (with replacement) at fixed weights add noise as a random
    walk, whose size grows like sqrt(t) -- sqrt(t) times one batch's noise. The snippet does not sample this way."""
    X, y = wr260.make_data()
    params = correct["final_params"]
    per_example = np.array([flat(fresh_gradient_of(params, X[i:i + 1], y[i:i + 1])) for i in range(len(X))])
    mean = per_example.mean(axis=0)
    np.testing.assert_allclose(mean, flat(fresh_gradient(params)), rtol=1e-9, atol=1e-15)
    batch = 20
    one_batch = np.sqrt(np.mean(np.sum((per_example - mean) ** 2, axis=1)) / batch)   # size of one batch's noise
    rows = np.random.default_rng(7).integers(0, len(X), size=(200, 100, batch))        # 200 walks of 100 batches
    walks = np.cumsum(per_example[rows].mean(axis=2) - mean, axis=1)
    size = {t: float(np.sqrt(np.mean(np.sum(walks[:, t - 1] ** 2, axis=1)))) for t in (25, 100)}
    assert size[100] / size[25] == pytest.approx(2.0, rel=0.1)                         # sqrt(100 / 25)
    assert size[100] == pytest.approx(10 * one_batch, rel=0.1)                         # sqrt(100) batches' worth


def test_the_noise_left_in_the_buffer_grows_until_a_step_overflows():
    """minibatch_train's own run: the noise its steps add up (batch minus whole-batch gradient at each step's
    weights) grows, and stays in the buffer of the loop without zero_grad() until the loss is non-finite. The
    broken loop's weights move far more between batches, so its batches cancel far less than the correct
    loop's; and the same loop on the whole batch, with no noise, stays finite over more steps."""
    with np.errstate(all="ignore"):
        broken = wr260.minibatch_train(0.3, 200, batch=20, clear=False, noise=True)
        whole = wr260.train(0.3, 3000, momentum=0.0, clear=False)
    correct = wr260.minibatch_train(0.3, 1, batch=20, noise=True)
    t = wr260.first_nonfinite(broken["loss"])
    noise = broken["noise"]
    assert t == 32 and not math.isfinite(noise[t - 1])
    assert noise[15] > 2 * noise[0] and noise[7] > noise[0]
    assert noise[0] > 3 * correct["noise"][0]                     # moving weights: the epoch no longer cancels
    assert wr260.first_nonfinite(whole["loss"]) is None and len(whole["loss"]) > (t + 1) * 20
    assert_entry_says("WR-260", [
        f"has size {noise[0]:.2f} after the first epoch and {noise[15]:.2f} after epoch 15, and the loss is "
        f"non-finite at epoch {t}",
        f"at rate 0.3 it stays finite for {len(whole['loss'])} steps",
    ])


# ---- the run ------------------------------------------------------------------------------------

def test_the_broken_run_falls_fast_then_climbs_to_inf(broken, correct):
    loss = broken["loss"]
    t = wr260.first_nonfinite(loss)
    assert t == 28 and loss[t] == math.inf and len(loss) == t + 1
    low = int(np.argmin(loss[:t]))
    assert low == 6
    assert loss[low] < correct["loss"][low]                               # ahead of the correct loop...
    caught_up = next(i for i, v in enumerate(correct["loss"]) if v <= loss[low])
    assert caught_up == 11
    assert max(loss[low:t]) > 50 * loss[low]                               # ...then far above it
    assert all(math.isfinite(v) for v in correct["loss"])
    assert correct["loss"][-1] < loss[low]


def test_the_step_grows_while_the_rate_stays_fixed(broken, correct):
    buffers, _, _ = broken_steps(6, momentum=MOMENTUM)
    sizes = np.linalg.norm(buffers, axis=1)
    assert all(b > a for a, b in zip(sizes, sizes[1:]))                      # the buffer grows...
    assert all(b < a for a, b in zip(broken["loss"][:7], broken["loss"][1:7]))    # ...while the loss falls
    steps = broken["step"]
    assert all(b > a for a, b in zip(steps, steps[1:]))                      # every step longer, to the inf
    assert steps[-1] / steps[0] > 100
    assert max(correct["step"]) < 0.25 and correct["step"][-1] < correct["step"][0] / 10


def test_the_broken_run_prints_numpys_warnings():
    _, texts = recorded(wr260.train, RATE, 300, MOMENTUM, clear=False)
    assert set(texts) == {"overflow encountered in exp", "divide by zero encountered in log",
                          "divide by zero encountered in divide", "invalid value encountered in multiply"}
    from trainwreck.catalog import load

    declared = {m.text for m in load(ROOT / "catalog").entries["WR-260"].messages if m.origin == "numpy"}
    assert declared == set(texts)


def test_the_inf_comes_from_the_log_of_an_underflowed_probability(broken):
    """WR-220's mechanism: at the weights of epoch 28 some margin is past -709.78."""
    params = run(RATE, 28, MOMENTUM, clear=False)["final_params"]
    X, y = wr260.make_data()
    z = np.maximum(X @ params["W1"] + params["b1"], 0) @ params["W2"] + params["b2"]
    margin = np.where(y == 1, 1.0, -1.0) * z
    assert margin.min() < -np.log(np.finfo(float).max)
    computed_from_logits = float(np.mean(np.logaddexp(0.0, -margin)))
    assert math.isfinite(computed_from_logits) and computed_from_logits > 10


def test_a_lower_rate_only_delays_it():
    epochs = {lr: wr260.first_nonfinite(run(lr, 300, MOMENTUM, clear=False)["loss"]) for lr in (RATE, 0.03, 0.01)}
    assert epochs == {RATE: 28, 0.03: 45, 0.01: 76}
    for lr in (0.03, 0.01):
        assert all(math.isfinite(v) for v in wr260.train(lr, 300, MOMENTUM)["loss"])
    assert_entry_says("WR-260", [f"at 0.03 the loss is inf at epoch {epochs[0.03]}, at 0.01 at epoch {epochs[0.01]}",
                                 f"at 0.03 instead of {RATE:g}, epoch {epochs[0.03]} instead of {epochs[RATE]}"])


def test_without_momentum_it_never_settles():
    plain = wr260.train(RATE, 300, momentum=0.0, clear=False)
    fixed = wr260.train(RATE, 300, momentum=0.0)
    assert all(math.isfinite(v) for v in plain["loss"])
    tail = plain["loss"][200:]
    assert all(b < a for a, b in zip(fixed["loss"], fixed["loss"][1:]))      # the correct loop settles...
    for start in (100, 200):                                                   # ...this one swings on and on
        window = plain["loss"][start:start + 100]
        assert sum(b > a for a, b in zip(window, window[1:])) >= 30
        assert max(window) - min(window) > 0.05
    assert_entry_says("WR-260", [
        f"its loss swings between {min(tail):.3f} and {max(tail):.3f} over the last 100 of 300 epochs, while the "
        f"correct loop without momentum falls on every epoch to {fixed['loss'][-1]:.4f}"])


def test_mini_batches_blow_up_without_momentum():
    with np.errstate(all="ignore"):
        broken = wr260.minibatch_train(0.3, 200, batch=20, clear=False)
    fixed = wr260.minibatch_train(0.3, 200, batch=20)
    t = wr260.first_nonfinite(broken["loss"])
    assert t == 32
    assert all(math.isfinite(v) for v in fixed["loss"])
    assert_entry_says("WR-260", [f"plain SGD without `zero_grad()` is non-finite at epoch {t} while the correct loop "
                                 f"ends at {fixed['loss'][-1]:.4f} after 200 epochs"])


def test_adam_keeps_its_step_but_does_not_settle():
    broken_adam = wr260.train(0.01, 300, clear=False, optimizer=wr260.Adam)
    fixed_adam = wr260.train(0.01, 300, optimizer=wr260.Adam)
    assert all(math.isfinite(v) for v in broken_adam["loss"])
    longest = max(broken_adam["step"]) / max(fixed_adam["step"])
    assert longest < 2                                                      # the step stays about the same...
    sgd = run(RATE, 300, MOMENTUM, clear=False)["step"]
    assert_entry_says("WR-260", [f"the broken Adam run's longest step is {longest:.1f} times the correct run's, where "
                                 f"SGD's grew {sgd[-1] / sgd[0]:.0f} times"])
    low = int(np.argmin(broken_adam["loss"]))
    assert broken_adam["loss"][-1] > 1.3 * broken_adam["loss"][low]        # ...the loss climbs back anyway
    assert_entry_says("WR-260", [
        f"at rate 0.01 the loss falls to {broken_adam['loss'][low]:.4f} at epoch {low} and then creeps back up to "
        f"{broken_adam['loss'][-1]:.4f} after 300 epochs, where the correct loop reaches "
        f"{fixed_adam['loss'][-1]:.4f}"])


# ---- gradient accumulation ----------------------------------------------------------------------

def accumulated(params, parts, scales):
    grads = {k: np.zeros_like(w) for k, w in params.items()}
    for (Xi, yi), scale in zip(parts, scales):
        wr260.backward(params, grads, Xi, yi, scale)
    return flat(grads)


def test_k_undivided_micro_batches_give_k_times_the_gradient():
    X, y = wr260.make_data()
    params = wr260.init_params()
    whole = flat(fresh_gradient(params))
    parts = list(zip(np.array_split(X, wr260.K), np.array_split(y, wr260.K)))
    np.testing.assert_allclose(accumulated(params, parts, [1.0] * wr260.K), wr260.K * whole, rtol=1e-10, atol=1e-15)
    np.testing.assert_allclose(accumulated(params, parts, [1 / wr260.K] * wr260.K), whole, rtol=1e-10, atol=1e-15)


def test_unequal_micro_batches_need_their_share_not_one_over_k():
    X, y = wr260.make_data()
    params = wr260.init_params()
    whole = flat(fresh_gradient(params))
    parts = [(X[i:i + 64], y[i:i + 64]) for i in range(0, len(X), 64)]
    assert [len(p[0]) for p in parts][-1] == 16
    by_k = accumulated(params, parts, [1 / len(parts)] * len(parts))
    by_share = accumulated(params, parts, [len(p[0]) / len(X) for p in parts])
    off = np.linalg.norm(by_k - whole) / np.linalg.norm(whole)
    assert off > 0.01
    np.testing.assert_allclose(by_share, whole, rtol=1e-10, atol=1e-15)
    assert_entry_says("WR-260", [f"{off:.1%} off the whole batch's gradient in the snippet"])


def test_undivided_accumulation_is_rate_k_times_k():
    undivided = run(wr260.K_RATE, 300, momentum=0.0, micro_batches=wr260.K, divide=False)
    rate_k = run(wr260.K * wr260.K_RATE, 300, momentum=0.0)
    t = wr260.first_nonfinite(undivided["loss"])
    assert t == 3 and wr260.first_nonfinite(rate_k["loss"]) == t
    np.testing.assert_allclose(undivided["loss"][:t], rate_k["loss"][:t], rtol=1e-14)
    whole = wr260.train(wr260.K_RATE, 300, momentum=0.0)
    assert all(math.isfinite(v) for v in whole["loss"])
    assert_entry_says("WR-260", [
        f"{undivided['grad'][0] / whole['grad'][0]:.3f} times with 8 micro-batches",
        "steps like rate 24 and is non-finite at epoch 3",
        ", ".join(f"{v:.4f}" for v in undivided["loss"][:t]) + ", then inf",
    ])


def test_divided_accumulation_is_the_whole_batch():
    whole = wr260.train(wr260.K_RATE, 300, momentum=0.0)
    parts = wr260.train(wr260.K_RATE, 300, momentum=0.0, micro_batches=wr260.K, divide=True)
    gap = max(abs(a - b) for a, b in zip(whole["loss"], parts["loss"]))
    assert gap < 1e-14
    assert_entry_says("WR-260", [f"differ by at most {gap:.1e} over 300 epochs and end at {parts['loss'][-1]:.4f}"])


def test_adam_hides_a_missing_division():
    divided = wr260.train(0.01, 300, optimizer=wr260.Adam, micro_batches=wr260.K, divide=True)
    undivided = wr260.train(0.01, 300, optimizer=wr260.Adam, micro_batches=wr260.K, divide=False)
    gap = max(abs(a - b) for a, b in zip(divided["loss"], undivided["loss"]))
    assert 0 < gap < 1e-5          # not zero: eps is not scaled with the gradient
    sgd_gap = abs(run(wr260.K_RATE, 3, momentum=0.0, micro_batches=wr260.K, divide=False)["loss"][2]
                  - wr260.train(wr260.K_RATE, 3, momentum=0.0)["loss"][2])
    assert sgd_gap > 10            # while for SGD the factor is the whole story


# ---- what the page states -----------------------------------------------------------------------

def test_the_loss_watch_warns_long_before_the_inf(broken):
    watch = load_snippet("loss_watch").LossWatch(verbose=False)
    for epoch, loss in enumerate(broken["loss"]):
        if watch.check(epoch, loss, {}) == "stop":
            break
    t = wr260.first_nonfinite(broken["loss"])
    assert watch.warned_at == 10
    assert_entry_says("WR-260", [f"warns at epoch {watch.warned_at}, {t - watch.warned_at} epochs before the first inf"])


def test_numbers_in_the_entry_match_the_snippet(broken, correct):
    loss, step = broken["loss"], broken["step"]
    t = wr260.first_nonfinite(loss)
    low = int(np.argmin(loss[:t]))
    peaks = [i for i in range(1, t - 1) if loss[i - 1] < loss[i] > loss[i + 1]]
    assert peaks == [14, 18, 20]
    buffers, fresh, _ = broken_steps(low + 1, momentum=MOMENTUM)
    assert_entry_says("WR-260", [
        f"the loss falls from {loss[0]:.4f} to {loss[low]:.4f} by epoch {low}; the correct loop at the same rate is "
        f"still at {correct['loss'][low]:.4f} then and first gets that low at epoch 11",
        f"It climbs back to {loss[14]:.4f} at epoch 14, jumps to {loss[20]:.4f} at epoch 20, falls, climbs again to "
        f"{loss[t - 1]:.4f} at epoch {t - 1} and is inf at epoch {t}",
        f"ends at {correct['loss'][-1]:.4f} after 300 epochs",
        f"{step[0]:.3g} to begin with, {step[low]:.3g} at epoch {low} and {step[t - 1]:.2g} at epoch {t - 1}, "
        f"{step[t - 1] / step[0]:.0f} times the first, growing on every epoch",
        f"never longer than {max(correct['step']):.3g} and has shrunk to {correct['step'][-1]:.3g} by its last epoch",
        f"the buffer is {np.linalg.norm(buffers[low]) / np.linalg.norm(fresh[low]):.0f} times the fresh gradient at "
        f"epoch {low}",
        f"settles at {correct['loss'][-1]:.4f} after 300 epochs at the same rate and momentum, its step shrinking to "
        f"{correct['step'][-1]:.3g} by the last epoch",
        f"at epoch {t} some logit has gone past −709.78",
    ])


def test_figure_data_is_drawn_from_the_runs(broken, correct):
    fig = wr260.figure_data()
    loss_panel, step_panel = fig["panels"]
    bad_loss, good_loss = loss_panel["series"]
    t = wr260.first_nonfinite(broken["loss"])
    assert bad_loss["y"] == broken["loss"][:t] and good_loss["y"] == correct["loss"][:60]
    assert step_panel["series"][0]["y"] == broken["step"][:t]
    assert all(v > 0 for panel in fig["panels"] for s in panel["series"] for v in s["y"])   # log scale
    assert f"is infinite at epoch {t}" in fig["alt"] and f"{broken['step'][t - 1]:.3g}" in fig["alt"]
    assert fig["sparkline"]["values"][-1] == math.inf


def test_a_gan_s_carried_generator_gradient_balances_the_discriminator_at_one_over_one_plus_its_loss_weight():
    """The page: the discriminator's step follows the sum of its own loss on a fake, w·(−log(1 − p)), and the
    generator's, −log p, carried in its buffers. The sum is least at p = 1/(1 + w): 0.5 with equal weights (it never
    learns to call the fakes fake), 2/3 under pix2pix's halved discriminator loss (it calls them real)."""
    p = np.linspace(1e-6, 1 - 1e-6, 2_000_001)
    for weight, balance, said in ((1.0, 0.5, "the pulls balance where it gives the fakes 0.5"),
                                  (0.5, 2 / 3, "under pix2pix's halved discriminator loss they balance at 2/3")):
        summed = -weight * np.log1p(-p) - np.log(p)
        assert abs(p[np.argmin(summed)] - balance) < 1e-5
        assert abs(p[np.argmin(-weight * np.log1p(-p))] - 0.0) < 1e-5     # (its own loss alone: fakes called fake)
        assert_entry_says("WR-260", [said])
