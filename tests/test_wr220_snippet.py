"""WR-220: a learning rate that is too high, both faces, the 2/lambda_max criterion, and the fixes."""
import math
import re
import warnings

import numpy as np
import pytest

from conftest import ROOT, assert_entry_says, entry_prose, load_snippet, tab_program_run

wr220 = load_snippet("wr220_lr_explosion")
wr030 = load_snippet("wr030_log_of_zero")
SNIPPET = "snippets/wr220_lr_explosion.py"
X, Y = wr220.make_data()
KEYS = ("W1", "b1", "W2", "b2")


def first_nonfinite(values):
    return next((i for i, v in enumerate(values) if not math.isfinite(v)), None)


def rising_epochs(loss):
    return [e for e in range(1, len(loss)) if loss[e] > loss[e - 1]]


def flat(d):
    return np.concatenate([np.ravel(d[k]) for k in KEYS])


def unflat(vector, like):
    out, i = {}, 0
    for k in KEYS:
        size = np.size(like[k])
        out[k] = vector[i:i + size].reshape(np.shape(like[k]))
        i += size
    return out


def full_hessian(params):
    """The exact Hessian of the mean cross-entropy, written out independently of the snippet:
    J^T diag(p(1 - p)/n) J, plus the second derivatives of z (only W2_k with W1_jk and b1_k are
    non-zero for a ReLU layer) weighted by (p - y)/n. Parameters in the order W1, b1, W2, b2."""
    h, z = wr220.forward(params, X)
    on = (h > 0).astype(float)
    p = wr220.stable_sigmoid(z)[:, 0]
    n, hidden = len(X), h.shape[1]
    w2 = params["W2"][:, 0]
    J = np.hstack([(X[:, :, None] * (on * w2)[:, None, :]).reshape(n, -1), on * w2, h, np.ones((n, 1))])
    H = J.T @ (J * (p * (1 - p) / n)[:, None])
    r = (p - Y[:, 0]) / n
    W1, b1, W2 = slice(0, 2 * hidden), slice(2 * hidden, 3 * hidden), slice(3 * hidden, 4 * hidden)
    cross_w1 = np.einsum("i,ij,ik->jk", r, X, on)                # d2L / dW1_jk dW2_k
    cross_b1 = r @ on                                            # d2L / db1_k dW2_k
    block = np.zeros((4 * hidden + 1, 4 * hidden + 1))
    rows = np.arange(hidden)
    for j in range(2):
        block[W1.start + j * hidden + rows, W2.start + rows] = cross_w1[j]
    block[b1.start + rows, W2.start + rows] = cross_b1
    return H + block + block.T


def gradient(params):
    h, z = wr220.forward(params, X)
    return wr220.backprop(params, X, h, (wr220.stable_sigmoid(z) - Y) / len(X))


def weights_at(lr, epoch, **kw):
    with np.errstate(all="ignore"):
        return wr220.train(lr, epochs=epoch, **kw)["final_params"]


@pytest.fixture(scope="module")
def blowup():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        run = wr220.train(10.0, epochs=30)
    run["warnings"] = {str(w.message) for w in caught if w.category is RuntimeWarning}
    return run


@pytest.fixture(scope="module")
def logits():
    with warnings.catch_warnings():
        warnings.simplefilter("error")           # the loss from the logits warns about nothing
        return wr220.train(10.0, epochs=300, from_logits=True)


@pytest.fixture(scope="module")
def sweeps():
    return wr220.sweep(wr220.TRIPTYCH_RATES), wr220.sweep(wr220.FINER_RATES)


@pytest.fixture(scope="module")
def lam0():
    return wr220.sharpness(wr220.init_params(), X, Y)[0]


# --- the first face: a hand-written loss through log(sigmoid) -------------------------------

def test_loss_starts_near_ln2_and_climbs_by_growing_rises(blowup):
    loss = blowup["loss"]
    t = first_nonfinite(loss)
    assert abs(loss[0] - math.log(2)) < 0.01
    rises = np.diff(loss[:t])
    assert len(rises) >= 5 and np.all(rises > 0) and np.all(np.diff(rises) > 0), loss[:t]


def test_inf_at_epoch_6_then_nan_for_ever(blowup):
    loss = blowup["loss"]
    t = first_nonfinite(loss)
    assert t == 6 and loss[t] == math.inf
    assert all(math.isnan(v) for v in loss[t + 1:]) and len(loss[t + 1:]) >= 20


def test_the_numpy_warnings_are_the_documented_and_declared_ones(blowup):
    from trainwreck.catalog import load

    expected = {"overflow encountered in exp", "divide by zero encountered in log",
                "divide by zero encountered in divide", "invalid value encountered in multiply"}
    assert blowup["warnings"] == expected
    declared = {m.text for m in load(ROOT / "catalog").entries["WR-220"].messages if m.origin == "numpy"}
    # -1/p's divide warning is left undeclared for now: WR-240's run prints it too (its snippet reuses this
    # gradient) without declaring it, and diagnose would rank WR-220 first there on that one message
    assert declared == expected - {"divide by zero encountered in divide"}


def test_accuracy_frozen_once_loss_is_nan(blowup):
    t = first_nonfinite(blowup["loss"])
    frozen = blowup["accuracy"][t + 1:]
    assert len(set(frozen)) == 1
    assert frozen[0] == pytest.approx(float(np.mean(Y == 0)))   # a nan logit is never > 0: all class 0


def margins_at(params):
    h, z = wr220.forward(params, X)
    return np.where(Y == 1, 1.0, -1.0) * z


def test_the_inf_is_a_wrong_side_logit_past_the_overflow_of_exp():
    m = margins_at(weights_at(10.0, 6))
    limit = -np.log(np.finfo(float).max)                        # -709.78: exp(-z) overflows below it
    with np.errstate(over="ignore"):
        p_true = wr220.sigmoid(m)
    assert np.array_equal(p_true == 0.0, m < limit)             # exactly those round to a probability of 0.0
    assert int(np.sum(m < limit)) == 7
    assert np.any(p_true == 1.0)                                # the right side rounds to 1.0 as well ...
    assert np.all(-np.log(p_true[p_true == 1.0]) == 0.0)        # ... and costs nothing: log 1 = 0
    assert m.min() < limit


def test_the_nan_comes_from_the_chain_rule_through_one_over_p():
    params = weights_at(10.0, 6)
    m = margins_at(params)
    with np.errstate(all="ignore"):
        p_true = wr220.sigmoid(m)
        dL_dp = -1.0 / p_true / len(X)
        dz = dL_dp * np.where(Y == 1, 1.0, -1.0) * p_true * (1.0 - p_true)
    bad = np.isnan(dz)
    assert np.array_equal(bad, p_true == 0.0) and bad.sum() == 7
    assert np.all(np.isneginf(dL_dp[bad]))                      # -1/0
    # the gradient from the logits at the same weights is finite and bounded by 1/n per example
    _, z = wr220.forward(params, X)
    simple = (wr220.stable_sigmoid(z) - Y) / len(X)
    assert np.all(np.isfinite(simple)) and np.all(np.abs(simple) <= 1 / len(X))
    # one update with the chain-rule gradient writes nan into every weight
    after = weights_at(10.0, 7)
    assert all(np.all(np.isnan(after[k])) for k in KEYS)


def test_the_weights_grow_in_jumps_not_geometrically(blowup):
    t = first_nonfinite(blowup["loss"])
    w = np.array(blowup["max_abs_W1"][: t + 1])
    ratios = w[1:] / w[:-1]
    assert ratios.max() / ratios.min() > 10          # a geometric climb would have one ratio
    assert "geometric" not in entry_prose("WR-220").replace("not geometrically", "")


# --- the second face: the loss from the logits --------------------------------------------------

def test_from_the_logits_it_spikes_but_never_turns_nonfinite(blowup, logits):
    loss = logits["loss"]
    t = first_nonfinite(blowup["loss"])
    assert first_nonfinite(loss) is None
    np.testing.assert_allclose(loss[:t], blowup["loss"][:t], rtol=1e-9)   # the same climb until the inf
    assert max(loss) > 100 * loss[0]                                      # a spike, not a slow drift
    late = max(e for e in range(1, 300) if loss[e] >= 1.1 * loss[e - 1])
    assert late >= 250                                                    # it still spikes late
    assert loss[-1] < loss[0]


def test_a_third_of_the_relus_die_from_the_logits(logits):
    dead = wr220.dead_units(logits["final_params"])
    assert 0.3 < dead / wr220.HIDDEN < 0.37
    # a dead unit gets no gradient, so no later step can revive it
    h, _ = wr220.forward(logits["final_params"], X)
    grads = gradient(logits["final_params"])
    off = ~np.any(h > 0, axis=0)
    assert off.sum() == dead and np.all(grads["W1"][:, off] == 0) and np.all(grads["b1"][off] == 0)
    assert wr220.dead_units(wr220.run_at(1.0)["final_params"]) == 0


# --- the criterion: 2 / lambda_max --------------------------------------------------------------

def test_the_hessian_vector_product_is_exact():
    params = weights_at(1.0, 10, from_logits=True)
    H = full_hessian(params)
    v = np.random.default_rng(1).normal(size=H.shape[0])
    hv = flat(wr220.hessian_at(params, X, Y)(unflat(v, params)))
    np.testing.assert_allclose(hv, H @ v, rtol=1e-10, atol=1e-14)     # the snippet's H v, the written-out H
    eps = 1e-6                                                          # and the gradient's own change along v
    plus = flat(gradient(unflat(flat(params) + eps * v, params)))
    minus = flat(gradient(unflat(flat(params) - eps * v, params)))
    np.testing.assert_allclose((plus - minus) / (2 * eps), hv, rtol=1e-5, atol=1e-9)


def test_power_iteration_finds_the_largest_eigenvalue(lam0):
    top = np.linalg.eigvalsh(full_hessian(wr220.init_params()))
    assert lam0 == pytest.approx(top[-1], rel=1e-6)
    assert top[-1] > abs(top[0])                                 # the largest in size is the positive one


def test_one_step_multiplies_an_error_along_lambda_by_one_minus_eta_lambda(lam0):
    """The linearised gradient-descent map is I - eta H: along the top eigenvector an error is
    multiplied by 1 - eta lambda, which leaves [-1, 1] exactly when eta passes 2 / lambda."""
    params = wr220.init_params()
    _, v = wr220.sharpness(params, X, Y)
    v = flat(v) / np.linalg.norm(flat(v))
    eps = 1e-6
    base, nudged = flat(params), flat(params) + eps * v
    factors = {}
    for eta in (0.98 * 2 / lam0, 1.02 * 2 / lam0, 1.0, 10.0):
        step = lambda theta: theta - eta * flat(gradient(unflat(theta, params)))
        factors[eta] = float(v @ (step(nudged) - step(base))) / eps
        assert factors[eta] == pytest.approx(1 - eta * lam0, abs=1e-4)
    below, above = 0.98 * 2 / lam0, 1.02 * 2 / lam0
    assert abs(factors[below]) < 1 < abs(factors[above])


def test_rate_one_is_past_the_limit_at_the_start_yet_trains(lam0):
    run = wr220.run_at(1.0)
    lam = wr220.sharpness_along(1.0)
    assert 1.0 * lam0 > 2                                       # past 2 / lambda_max at initialisation
    assert lam[1] * 1.0 < 2 and lam[1] < lam0 / 8               # one step later, far inside it
    assert all(lam[e] * 1.0 < 2 for e in wr220.SHARPNESS_EPOCHS)
    assert rising_epochs(run["loss"]) == []                     # the loss falls on every epoch
    top = np.linalg.eigvalsh(full_hessian(weights_at(1.0, 1, from_logits=True)))[-1]
    assert lam[1] == pytest.approx(top, rel=1e-4)               # the printed value is the real top eigenvalue


def loss_along(params, direction, eta):
    """The mean cross-entropy (from the logits) at params - eta * direction."""
    _, z = wr220.forward({k: params[k] - eta * direction[k] for k in KEYS}, X)
    return float(np.mean(np.logaddexp(0.0, z) - Y * z))


def first_step_line():
    """The loss along the first gradient step from initialisation, the quadratic model's prediction
    of it, and where each has its lowest point."""
    params = wr220.init_params()
    g = gradient(params)
    gg = float(flat(g) @ flat(g))
    gHg = float(flat(g) @ full_hessian(params) @ flat(g))      # the written-out Hessian, not the snippet's
    start = loss_along(params, g, 0.0)
    etas = np.round(np.arange(0.0, 3.0001, 0.01), 2)
    real = np.array([loss_along(params, g, eta) for eta in etas])
    return {"start": start, "model_best": gg / gHg, "model_at_1": start - gg + gHg / 2,
            "real": dict(zip(etas.tolist(), real.tolist())), "real_best": float(etas[int(np.argmin(real))])}


def test_the_quadratic_model_at_initialisation_fails_within_the_first_step(lam0):
    """Why rate 1, past 2/lambda_max, does not overshoot: the quadratic model predicts a rise along the
    very first step; the real loss keeps falling to about eta = 1, because the curvature fades."""
    line = first_step_line()
    real = line["real"]
    assert line["model_best"] < 2 / lam0 < 1.0                        # the model puts the bottom well before 1
    assert line["model_at_1"] > line["start"]                          # ... and predicts a rise at eta = 1
    assert real[1.0] < real[0.58] and real[1.0] < real[2.0]             # the real loss is still falling at 1
    assert 0.9 <= line["real_best"] <= 1.1
    assert all(b < a for a, b in zip(list(real.values())[:100], list(real.values())[1:101]))   # down all the way to 1
    assert_entry_says("WR-220", [
        f"bottom out at a step of η = {line['model_best']:.3f} and to be back up at {line['model_at_1']:.2f} for η = 1",
        f"the real loss keeps falling, to {real[1.0]:.4f} at η = 1",
        f"(at η ≈ {line['real_best']:.2f})",
    ])


def test_the_curvature_falls_at_a_rate_below_the_limit_too(lam0):
    """The drop in lambda_max is ordinary fitting, not something a large rate does."""
    assert 0.3 < 2 / lam0
    lam = wr220.sharpness_along(0.3, (1, 39))
    assert lam[1] < 0.6 * lam0 and lam[39] < lam0 / 5
    with np.errstate(all="raise"):
        run = wr220.train(0.3, epochs=300)
    assert rising_epochs(run["loss"]) == []
    assert_entry_says("WR-220", [f"to {lam[1]:.3g} after one step and {lam[39]:.3f} at epoch 39"])


def output_layer_curvature(params, confidence=None):
    """Top eigenvalue of the output weights' block, mean of p(1 - p) h h^T; optionally with p(1 - p) frozen."""
    h, z = wr220.forward(params, X)
    p = wr220.stable_sigmoid(z)
    weight = p * (1 - p) if confidence is None else confidence
    return float(np.linalg.eigvalsh((h * weight).T @ h / len(X))[-1]), float(np.mean(p * (1 - p)))


def test_the_curvature_falls_because_the_outputs_grow_confident():
    start, one = wr220.init_params(), weights_at(1.0, 1, from_logits=True)
    frozen, _ = output_layer_curvature(one, confidence=0.25)       # the features as they are, p(1 - p) as at the start
    actual, mean = output_layer_curvature(one)
    assert frozen > 0.9 * output_layer_curvature(start)[0]           # the hidden features hardly moved
    assert actual < frozen / 8 and mean < 0.25 / 3                   # the confidence did it
    assert_entry_says("WR-220", [f"would still be {frozen:.2f}", f"(the mean p(1 − p) is {mean:.3f})"])


def test_rate_five_sits_at_the_edge_of_stability():
    run = wr220.run_at(5.0)
    scaled = [5.0 * wr220.sharpness_along(5.0)[e] for e in wr220.SHARPNESS_EPOCHS[1:]]
    assert all(1.5 < s < 3.0 for s in scaled), scaled           # eta * lambda_max hovers around 2
    assert min(scaled) < 2 < max(scaled)
    rises = rising_epochs(run["loss"])
    assert len(rises) > 100 and rises[0] < 10                   # the loss falls, but not on every step


def test_rate_ten_never_gets_below_its_limit_before_the_inf():
    lams = [wr220.sharpness(weights_at(10.0, e), X, Y)[0] for e in range(1, 6)]
    assert all(lam > 2 / 10.0 for lam in lams), lams


def test_sharpness_finds_the_top_curvature_when_a_negative_one_is_as_large():
    spectrum = np.linalg.eigvalsh(full_hessian(weights_at(10.0, 4)))   # rate 10, epoch 4
    assert -spectrum[0] > 0.99 * spectrum[-1]                           # plain power iteration would find -0.77
    assert wr220.sharpness(weights_at(10.0, 4), X, Y)[0] == pytest.approx(spectrum[-1], rel=0.01)


def test_a_wider_layer_raises_the_curvature_and_lowers_the_limit(lam0):
    wide = wr220.sharpness(wr220.init_params(hidden=256), X, Y)[0]
    assert wide > 3 * lam0
    # ... a limit of the quadratic model, not the largest rate that trains: the wide net trains at 5 x 2/lambda
    params, losses = wr220.init_params(hidden=256), []
    for _ in range(300):
        h, z = wr220.forward(params, X)
        losses.append(float(np.mean(np.logaddexp(0.0, z) - Y * z)))
        grads = wr220.backprop(params, X, h, (wr220.stable_sigmoid(z) - Y) / len(X))
        params = {k: params[k] - 1.0 * grads[k] for k in KEYS}
    assert 1.0 > 5 * (2 / wide)
    assert rising_epochs(losses) == [] and losses[-1] < losses[0] / 3


# --- the fixes -----------------------------------------------------------------------------------

def test_triptych_spans_three_orders_of_magnitude_and_picks_the_stable_rate(sweeps):
    triptych, _ = sweeps
    rates = sorted(triptych)
    assert rates[-1] / rates[0] == pytest.approx(1000)
    assert wr220.pick_rate(triptych) == 1.0
    assert first_nonfinite(triptych[10.0]["loss"]) == 6
    assert "two orders of magnitude" not in entry_prose("WR-220")


def test_the_finer_sweep_is_in_half_decades_and_finds_a_better_rate(sweeps):
    _, finer = sweeps
    half = [0.3, 1.0, 3.0]
    assert all(abs(math.log10(b / a) - 0.5) < 0.03 for a, b in zip(half, half[1:]))
    end = {lr: run["loss"][-1] for lr, run in finer.items()}
    assert end[3.0] < end[1.0] and end[5.0] < end[1.0]          # 1.0, the triptych's pick, is not the best
    assert wr220.pick_rate(finer) == 3.0
    assert len(rising_epochs(finer[3.0]["loss"])) < len(rising_epochs(finer[5.0]["loss"]))


def capped_run(cap):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        return wr220.train(10.0, epochs=300, clip_norm=cap)


def test_a_cap_just_under_the_first_steps_lets_rate_10_train():
    """Rate 10's trouble is its first steps: cap them and the same rate trains (the Playbook's use of
    clipping against early instability)."""
    for cap, expected in ((1.0, [0, 2, 3]), (0.5, [0])):
        run = capped_run(cap)
        assert np.flatnonzero(np.array(run["grad_norm"]) > cap).tolist() == expected     # the first steps only
        assert all(math.isfinite(v) for v in run["loss"]) and run["loss"][-1] < run["loss"][0] / 3
        assert run["loss"][-1] > wr220.run_at(3.0)["loss"][-1]                            # rate 3 still does better
    assert max(capped_run(1.0)["loss"]) > 3 * capped_run(1.0)["loss"][0]                 # the spike it lets through
    assert max(capped_run(0.5)["loss"][1:]) < capped_run(0.5)["loss"][0]                 # never above its start


def test_capped_at_half_rate_10_then_sits_at_the_edge_of_stability():
    lam = wr220.sharpness_along(10.0, clip_norm=0.5)
    scaled = [10.0 * lam[e] for e in wr220.SHARPNESS_EPOCHS[1:]]
    assert all(1.5 < s < 2.5 for s in scaled) and min(scaled) < 2 < max(scaled), scaled
    assert len(rising_epochs(capped_run(0.5)["loss"])) > 100


def test_the_capped_runs_are_the_ones_wr240_sweeps():
    """WR-220 and WR-240 tell the same story about the same network: their capped runs agree."""
    wr240 = load_snippet("wr240_clipping_not_clipping")
    runs = wr240.sweep((1.0, 0.5))
    for cap in (1.0, 0.5):
        np.testing.assert_allclose(runs[cap]["loss"], capped_run(cap)["loss"], rtol=1e-9)
        assert runs[cap]["clipped"] == (np.array(capped_run(cap)["grad_norm"]) > cap).tolist()


def test_clipped_display_loss_is_finite_where_raw_is_nan():
    params = weights_at(10.0, 6)
    h, z = wr220.forward(params, X)
    with np.errstate(all="ignore"):
        p = wr220.sigmoid(z)
        raw = wr220.display_loss(p, Y, clip=False)
    assert np.any((p == 0.0) | (p == 1.0))
    assert math.isnan(raw)
    clipped = wr220.display_loss(p, Y)
    assert 3 * math.log(2) < clipped <= -math.log(1e-12)


def test_the_display_clip_does_nothing_in_float32():
    assert np.float32(1.0 - 1e-12) == 1.0                       # the upper bound rounds back to 1
    p = np.array([[1.0], [0.5]], dtype=np.float32)
    y = np.array([[0.0], [1.0]], dtype=np.float32)
    with np.errstate(divide="ignore"):
        assert wr220.display_loss(p, y) == math.inf             # log(1 - 1.0) is still there
    assert math.isfinite(wr220.display_loss(p, y, eps=1e-7))    # Keras's epsilon is representable


def test_restart_advice_agrees_across_pages():
    index = " ".join((ROOT / "docs" / "index.md").read_text().split())
    entry = entry_prose("WR-220")
    for text in (index, entry):
        assert "last checkpoint" in text and "fresh initialisation" in text
    assert "restart from a fresh initialisation." not in index
    assert "instead of restarting" not in entry                 # what the watch hands back is a restart point
    watch = load_snippet("loss_watch").LossWatch
    assert callable(getattr(watch, "restore", None))           # the watch keeps the last healthy parameters


def test_the_home_pages_uniform_guess_losses_are_ln_of_the_class_count():
    """The home page's first triage step tells a climb from ln C, with the values for two and ten classes."""
    index = " ".join((ROOT / "docs" / "index.md").read_text().split())
    said = re.search(r"near ln C, a uniform guess's loss over C classes \(([\d.]+) for two, ([\d.]+) for ten\)", index)
    assert said, "the triage step no longer gives ln C's values"
    assert [float(v) for v in said.groups()] == [round(math.log(2), 2), round(math.log(10), 2)]


# --- the page -------------------------------------------------------------------------------------

def test_figure_counts_epochs_as_the_console_does():
    run = tab_program_run(SNIPPET, "reproduce")
    printed = [line.split() for line in run.stdout.splitlines() if line.startswith("epoch ")]
    epochs = [int(words[1]) for words in printed]
    first_inf = next(int(words[1]) for words in printed if words[3] == "inf")
    panel = wr220.figure_data()["panels"][0]
    assert panel["series"][0]["x"][: len(epochs)] == epochs     # the same numbering, from 0
    assert panel["vlines"][0]["x"] == first_inf
    assert f"inf at epoch {first_inf}" in panel["vlines"][0]["label"]


def test_the_tabs_print_their_stories():
    reproduce = tab_program_run(SNIPPET, "reproduce").stdout
    assert "epoch  6  loss        inf" in reproduce and "epoch  7  loss        nan" in reproduce
    assert "never non-finite: True" in reproduce
    fix = tab_program_run(SNIPPET, "fix").stdout
    assert "fastest rate that stays finite and falls: 1" in fix
    assert "lowest loss after 300 epochs: 3" in fix
    assert "cap 1: clipped on steps [0, 2, 3] only" in fix and "cap 0.5: clipped on steps [0] only" in fix
    assert "RuntimeWarning" not in fix                          # the fix prints no warning


def test_deterministic():
    with np.errstate(all="ignore"):
        a, b = (wr220.train(10.0, epochs=10)["loss"] for _ in range(2))
    np.testing.assert_array_equal(a, b)


def test_numbers_in_the_entry_match_the_snippet(blowup, logits, sweeps, lam0):
    """Every number WR-220's prose states about a run, recomputed here."""
    loss = blowup["loss"]
    t = first_nonfinite(loss)
    w = blowup["max_abs_W1"]
    m = margins_at(weights_at(10.0, t))
    limit = -np.log(np.finfo(float).max)
    face2 = logits["loss"]
    triptych, finer = sweeps
    lam1, lam5, lam10 = (wr220.sharpness_along(1.0), wr220.sharpness_along(5.0),
                         wr220.sharpness_along(10.0, clip_norm=0.5))
    wide = wr220.sharpness(wr220.init_params(hidden=256), X, Y)[0]
    rises3, rises5 = rising_epochs(finer[3.0]["loss"]), rising_epochs(finer[5.0]["loss"])
    capped, half = capped_run(1.0), capped_run(0.5)
    peak = int(np.argmax(capped["loss"]))
    with np.errstate(all="ignore"):
        h, z = wr220.forward(weights_at(10.0, t), X)
        clipped = wr220.display_loss(wr220.sigmoid(z), Y)
    late = max(e for e in range(1, 300) if face2[e] >= 1.1 * face2[e - 1])
    claims = [
        # Symptom
        ", ".join(f"{v:.2f}" for v in loss[:t]) + f", then inf at epoch {t} and nan from epoch {t + 1}",
        f"stuck at one value ({blowup['accuracy'][t + 1]:.3f} in the snippet",
        "spikes: " + ", ".join(f"{v:.2f}" for v in face2[t - 1:t + 5]),
        f"in one epoch at epoch {late}",
        f"After 300 epochs it ends at {face2[-1]:.4f} with {wr220.dead_units(logits['final_params'])} of the "
        f"{wr220.HIDDEN} hidden ReLUs dead",
        # Where it shows up
        f"from {lam0:.2f} to {wide:.2f}",
        f"the limit 2/λ_max at initialisation falls from {2 / lam0:.2f} to {2 / wide:.2f}",
        # Why it happens
        f"{lam0:.2f} at initialisation, so the limit is 2/λ_max = {2 / lam0:.3f}, and learning rate 10 is "
        f"{10 * lam0 / 2:.0f} times past it",
        f"After that step λ_max is {lam1[1]:.3f}, {'nine' if round(lam0 / lam1[1]) == 9 else '?'} times lower",
        f"(λ_max is {lam1[299]:.3f} at epoch 299)",
        f"λ_max is {lam5[1]:.3f} after one step, {lam5[10]:.3f} at epoch 10, {lam5[100]:.3f} at epoch 100 and "
        f"{lam5[299]:.3f} at epoch 299",
        f"its loss rises on {len(rises5)} of its 299 epochs",
        "max |W1| goes " + ", ".join(f"{v:.3g}" for v in w[: t + 1]),
        "that is " + ", ".join(f"×{b / a:.3g}" if b / a >= 1.1 else f"×{b / a:.2f}" for a, b in zip(w, w[1:t + 1]))
        + " per epoch",
        "loss rises by " + ", ".join(f"×{b / a:.2f}" for a, b in zip(loss, loss[1:t])),
        f"At epoch {t} {'seven' if int(np.sum(m < limit)) == 7 else '?'} examples have a logit beyond "
        f"{limit:.2f}".replace("-", "−"),
        f"(the worst at {m.min():.0f})".replace("-", "−"),
        f"exactly 1.0 from z = {float(wr030.saturation_point()):.2f} on",
        # Fix
        f"rate 0.01 falls slowly to {triptych[0.01]['loss'][-1]:.4f}, rate 1 falls to "
        f"{triptych[1.0]['loss'][-1]:.4f}, and rate 10 is non-finite at epoch {len(triptych[10.0]['loss']) - 1}",
        f"so the triptych picks {wr220.pick_rate(triptych):g}",
        f"Here rate 0.3 ends at {finer[0.3]['loss'][-1]:.4f}, rate 3 at {finer[3.0]['loss'][-1]:.4f} and rate 5 "
        f"at {finer[5.0]['loss'][-1]:.4f}",
        f"and {wr220.pick_rate(finer):g} is the best of the sweep",
        f"(its loss rises on {len(rises5)} of 299 epochs, from epoch {rises5[0]}; rate 3's on {len(rises3)}, none "
        f"before epoch {rises3[0]})",
        f"the gradient norm is {capped['grad_norm'][0]:.3g} at the first step, against "
        f"{np.median(half['grad_norm'][1:]):.2g} (median) once a capped run is under way",
        "the cap acts on steps " + ", ".join(map(str, np.flatnonzero(np.array(capped["grad_norm"]) > 1.0)[:-1]))
        + f" and {np.flatnonzero(np.array(capped['grad_norm']) > 1.0)[-1]} only",
        f"the loss still spikes to {capped['loss'][peak]:.2f} at epoch {peak}",
        f"ends at {capped['loss'][-1]:.4f} after 300 epochs, just below rate 1's {triptych[1.0]['loss'][-1]:.4f}",
        f"the run ends at {half['loss'][-1]:.4f}, sitting at the edge of stability",
        f"λ_max is {lam10[10]:.2g} at epoch 10, {lam10[100]:.3g} at epoch 100 and {lam10[299]:.3g} at epoch 299",
        f"the loss rises on {len(rising_epochs(half['loss']))} of its 299 epochs",
        f"Neither beats rate 3 without a cap ({finer[3.0]['loss'][-1]:.4f})",
        f"the clipped one prints {clipped:.2f}",
        f"the float16 one from {float(wr030.saturation_point(np.float16)):.3f}",
        f"z = {float(wr030.saturation_point(np.float32)):.2f} on",
        # Interview: the data branch of "nan at epoch 18" (WR-310 holds that its step does not move with the rate)
        "a nan that arrives at the same step whatever the rate points to a broken batch, WR-310",
        # Bonus point
        f"λ_max {lam0:.2f}, then {lam1[1]:.3f} after one step",
    ]
    assert_entry_says("WR-220", claims)


def big_rises(loss):
    """Epochs on which the loss rose by 10% or more over the epoch before."""
    return [e for e in range(1, len(loss)) if loss[e] >= 1.1 * loss[e - 1]]


def test_a_warmup_rescues_rate_10_so_its_trouble_is_the_start():
    """Rate 10 is a start-of-training failure: warmed up over a few epochs, the same rate trains with the
    hand-written loss; and the logits run's late spikes are the aftermath of its first steps (the runs
    whose first steps are capped or warmed up have no 10% rise after epoch 5)."""
    plain = wr220.warmed_up(10.0, 0)["loss"]
    assert len(plain) - 1 == 6 and not math.isfinite(plain[-1])             # the Reproduce run, unchanged
    np.testing.assert_allclose(plain[:6], wr220.train(10.0, epochs=6)["loss"], rtol=1e-12)
    three, two = wr220.warmed_up(10.0, 3), wr220.warmed_up(10.0, 2)
    for run in (three, two):
        assert len(run["loss"]) == 300 and all(math.isfinite(v) for v in run["loss"])
        assert run["loss"][-1] < run["loss"][0] / 3
    assert max(three["loss"]) == three["loss"][0]                          # never above its start
    assert wr220.dead_units(three["final_params"]) == 0
    cured = [capped_run(1.0)["loss"], capped_run(0.5)["loss"], three["loss"], two["loss"]]
    assert max(max(big_rises(loss)) for loss in cured) == 5
    logits = big_rises(wr220.train(10.0, epochs=300, from_logits=True)["loss"])
    assert len(logits) > 30 and logits[-1] > 200
    assert_entry_says("WR-220", [
        f"the run never rises above its start ({three['loss'][0]:.4f}), ends at {three['loss'][-1]:.4f} "
        f"after 300 epochs with {wr220.dead_units(three['final_params'])} dead units, and never turns inf or nan; "
        f"over 2 epochs it ends at {two['loss'][-1]:.4f}",
        f"while the unclipped run from the logits does so on {len(logits)} epochs, the last at epoch {logits[-1]}",
        "trains and its loss never again rises by 10% in an epoch after epoch 5 (Fix).",
        "(rate 10 here trains with either)",
    ])
