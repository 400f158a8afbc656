"""WR-130: a loss that applies log-softmax is handed softmax probabilities. The mechanism (the floor
log(1 + (C - 1)/e), the 1/C gradient through the softmax Jacobian, the vanishing push on confident
mistakes), the documented plateau, and the fix."""
import inspect
import math
import warnings

import numpy as np
import pytest

from conftest import assert_entry_says, load_snippet

wr130 = load_snippet("wr130_softmax_before_logits_loss")
C = wr130.CLASSES


def quietly(fn, *args, **kwargs):
    """Run fn with every warning an error: the failure must be silent."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        return fn(*args, **kwargs)


@pytest.fixture(scope="module")
def bad():
    return quietly(wr130.train, softmax_first=True)


@pytest.fixture(scope="module")
def good():
    return quietly(wr130.train, softmax_first=False)


@pytest.fixture(scope="module")
def long():
    return wr130.long_runs()


@pytest.fixture(scope="module")
def overfit():
    return {kind: wr130.overfit_one_batch(kind) for kind in (False, True)}


# --- the mechanism -----------------------------------------------------------------------------

@pytest.mark.parametrize("classes", [2, 3, 10, 100, 1000])
def test_a_softmax_of_probabilities_never_gives_the_label_more_than_e_over_e_plus_c_minus_1(classes):
    rng = np.random.default_rng(classes)
    p = rng.dirichlet(np.full(classes, 0.3), size=2000)          # points of the simplex, many near a corner
    p[:classes] = np.eye(classes)                                # and the corners themselves
    best = np.e / (np.e + classes - 1)
    top = wr130.softmax(p).max(axis=1)
    assert np.all(top <= best * (1 + 1e-12))
    np.testing.assert_allclose(top[:classes], best, rtol=1e-12)   # reached exactly at one-hot
    assert wr130.floor(classes) == pytest.approx(-math.log(best), rel=1e-12)


def test_the_loss_can_fall_less_than_one_nat_for_every_number_of_classes():
    ranges = [math.log(c) - wr130.floor(c) for c in (2, 10, 100, 1000, 10 ** 6)]
    assert all(0 < r < 1 for r in ranges) and ranges == sorted(ranges)
    assert ranges[-1] > 0.99999                                  # tends to 1 nat, never reaches it


def test_the_softmax_backward_is_the_jacobian_of_the_softmax():
    rng = np.random.default_rng(1)
    z, g = rng.normal(size=(4, C)), rng.normal(size=(4, C))
    eps = 1e-6
    numeric = np.zeros_like(z)
    for i in range(4):
        for k in range(C):
            dz = np.zeros_like(z)
            dz[i, k] = eps
            numeric[i, k] = np.sum(g * (wr130.softmax(z + dz) - wr130.softmax(z - dz))) / (2 * eps)
    np.testing.assert_allclose(wr130.softmax_backward(wr130.softmax(z), g), numeric, atol=1e-8)


def test_at_a_uniform_output_the_gradient_is_exactly_one_cth_of_p_minus_y():
    X, y = wr130.make_data()
    z = np.zeros((len(y), C))                                    # a uniform softmax output
    p = wr130.softmax(z)
    _, healthy = wr130.cross_entropy(z, y)
    _, grad_p = wr130.cross_entropy(p, y)
    np.testing.assert_allclose(wr130.softmax_backward(p, grad_p), healthy / C, atol=1e-15)


def test_the_first_step_gradient_is_a_tenth(bad, good):
    ratio = bad["grad_norm"][0] / good["grad_norm"][0]
    assert abs(ratio - 1 / C) < 0.001


def confident(margin, wrong):
    z = np.zeros((1, C))
    z[0, 3 if wrong else 0] = margin
    y = np.array([0])
    _, healthy = wr130.cross_entropy(z, y)
    p = wr130.softmax(z)
    _, grad_p = wr130.cross_entropy(p, y)
    return np.linalg.norm(healthy), np.linalg.norm(wr130.softmax_backward(p, grad_p))


def test_a_confident_mistake_gets_almost_no_gradient_through_the_softmax():
    healthy, through = confident(10.0, wrong=True)
    assert healthy > 1.41 and through < 1.2e-4                   # the logits get sqrt(2), the bug 1/10000 of it
    assert confident(20.0, wrong=True)[1] < through              # and less the surer the mistake


def test_a_log_softmax_before_the_loss_is_not_this_bug():
    """Log-softmax is idempotent: its output's exps already sum to 1, so the loss's own log-softmax changes
    nothing -- unlike a softmax, whose output the loss treats as logits."""
    _, y = wr130.make_data(n=50)
    z = 3 * np.random.default_rng(2).normal(size=(50, C))
    z[np.arange(50), y] += 10.0                                  # a model that has learned
    log_p = z - np.log(np.exp(z).sum(axis=1, keepdims=True))
    np.testing.assert_allclose(np.exp(log_p).sum(axis=1), 1.0)
    assert wr130.cross_entropy(log_p, y)[0] == pytest.approx(wr130.cross_entropy(z, y)[0], rel=1e-12)
    assert wr130.cross_entropy(wr130.softmax(z), y)[0] > wr130.floor() > wr130.cross_entropy(z, y)[0]


def first_loss_bounds(classes=C):
    """Through a second softmax the loss of one example lies between log(1 + (C-1)/e) (one-hot on the
    label) and log(e + C - 1) (one-hot elsewhere), whatever the logits."""
    return wr130.floor(classes), math.log(np.e + classes - 1)


def test_through_a_second_softmax_no_initialisation_moves_the_first_loss_far_from_ln_c():
    low, high = first_loss_bounds()
    _, y = wr130.make_data()
    for scale in (0.01, 1.0, 10.0, 1000.0):
        p = wr130.softmax(scale * np.random.default_rng(3).normal(size=(len(y), C)))
        losses = [wr130.cross_entropy(p[i:i + 1], y[i:i + 1])[0] for i in range(len(y))]
        assert low <= min(losses) and max(losses) <= high + 1e-12
    worst = wr130.cross_entropy(np.eye(C)[(y + 1) % C], y)[0]     # every example one-hot on a wrong class
    assert worst == pytest.approx(high, rel=1e-12) and high - math.log(C) < 0.16


def test_the_first_gradient_is_one_cth_only_while_the_first_outputs_are_near_uniform():
    ratios = []
    for scale in (0.001, 0.01, 0.3, 1.0):
        b, g = wr130.train(True, epochs=1, init_scale=scale), wr130.train(False, epochs=1, init_scale=scale)
        ratios.append(b["grad_norm"][0] / g["grad_norm"][0])
    assert abs(ratios[0] - 1 / C) < 1e-4 and abs(ratios[1] - 1 / C) < 1e-3
    assert ratios == sorted(ratios, reverse=True) and ratios[-1] < 0.5 / C  # a spread-out start: smaller still


def test_adams_step_ignores_a_constant_gradient_scale_not_the_per_example_factor():
    """Kingma & Ba section 2.1: the step is invariant to rescaling the gradient by a constant c. The
    softmax's Jacobian is no constant: it differs per example, so the direction changes too."""
    steps = []
    for c in (1.0, 0.1):
        params, grads = {"W": np.zeros((2, 2))}, {"W": c * np.array([[1.0, -2.0], [0.5, 3.0]])}
        wr130.adam(0.01, eps=0.0)(params, grads, 0)
        steps.append(params["W"])
    np.testing.assert_allclose(steps[0], steps[1], rtol=1e-12)
    X, y = wr130.make_data()
    z = X @ np.random.default_rng(1).normal(scale=0.5, size=(X.shape[1], C))
    p = wr130.softmax(z)
    through = wr130.softmax_backward(p, wr130.cross_entropy(p, y)[1])
    direct = wr130.cross_entropy(z, y)[1]
    factor = np.linalg.norm(through, axis=1) / np.linalg.norm(direct, axis=1)
    assert factor.max() > 3 * factor.min()                       # a different factor for each example


def smoothed_floor(eps, classes=C):
    """The least cross-entropy against a one-hot target smoothed by eps: that target's own entropy."""
    t = np.full(classes, eps / classes)
    t[0] += 1 - eps
    return float(-(t * np.log(t)).sum())


def smoothing_that_reaches_the_floor():
    return [e / 100 for e in range(1, 100) if smoothed_floor(e / 100) >= wr130.floor()][0]


def test_label_smoothing_has_a_floor_too_but_its_outputs_do_not_sum_to_one():
    """Another loss that stops above 0 at full accuracy: the cross-entropy against targets smoothed by eps
    has the smoothed target's entropy as its floor. It reaches 1.46 only at an unusual eps, and its model's
    outputs are logits: rows that do not sum to 1."""
    assert smoothed_floor(0.1) == pytest.approx(0.5003, abs=5e-5)
    eps = smoothing_that_reaches_the_floor()
    assert 0.35 < eps < 0.45                                     # a smoothing far beyond the usual 0.1
    t = np.full((1, C), 0.01)
    t[0, 0] = 0.91
    logits = np.log(t)                                           # the smoothed loss's best output
    assert not np.allclose(logits.sum(axis=1), 1.0)


def test_the_binary_form_is_one_sided():
    """The loss's logit is sigmoid(z), in (0, 1): label 0 can never be pushed below ln 2, label 1 stops
    at log(1 + e^-1). A two-class softmax of probabilities (p, 1 - p) would see a logit difference
    2p - 1 in (-1, 1), symmetric, with the same floor for both labels."""
    p = np.linspace(0.0, 1.0, 1001)
    two_class = np.stack([p, 1 - p], axis=1)
    floors = [min(wr130.cross_entropy(two_class[i:i + 1], np.array([k]))[0] for i in range(len(p)))
              for k in (0, 1)]
    assert floors == pytest.approx([wr130.softplus(-1.0)] * 2, rel=1e-12)
    assert wr130.softplus(0.0) > wr130.softplus(-1.0) and math.log(2) - wr130.softplus(-1.0) > 0.37


@pytest.fixture(scope="module")
def binary():
    return {kind: quietly(wr130.train_binary, kind) for kind in (False, True)}


def test_a_sigmoid_before_a_with_logits_loss_plateaus_above_its_floor(binary):
    bad, good = binary[True], binary[False]
    t = bad["labels"]
    q = t.mean()
    first = bad["first"]
    assert np.abs(first["z"]).max() < 0.2
    at_zero = q * wr130.softplus(-0.5) + (1 - q) * wr130.softplus(0.5)     # the loss's input is sigmoid(0)
    assert bad["loss"][0] == pytest.approx(at_zero, abs=0.005) and bad["loss"][0] > math.log(2)
    s = wr130.sigmoid(first["z"])
    np.testing.assert_allclose(first["dz"], first["du"] * s * (1 - s), rtol=1e-12)
    assert np.all(np.abs(s * (1 - s) - 0.25) < 0.01)               # sigma'(0) = 1/4 at the start
    mean_floor = q * wr130.softplus(-1.0) + (1 - q) * math.log(2)
    long = wr130.train_binary(True, epochs=300)
    assert min(long["loss"]) > mean_floor
    assert 1 - bad["loss"][-1] / bad["loss"][0] < 0.1 < 1 - good["loss"][-1] / good["loss"][0]


def test_the_binary_form_has_floors_at_ln2_and_softplus_minus_one():
    sig = 1 / (1 + np.exp(-np.linspace(-40, 40, 2001)))          # every sigmoid output
    assert np.all(wr130.softplus(sig) >= math.log(2)) and np.all(wr130.softplus(-sig) >= wr130.softplus(-1.0))
    second = 1 / (1 + np.exp(-sig))                              # the loss's own sigmoid on top
    assert second.min() >= 0.5 and second.max() <= 1 / (1 + math.exp(-1)) < 0.7311
    assert (wr130.softplus(-0.5) + wr130.softplus(0.5)) / 2 == pytest.approx(0.724077, abs=1e-6)


# --- the symptom -------------------------------------------------------------------------------

def test_the_loss_starts_at_ln_c_and_stays_within_a_tenth_of_it(bad, good):
    loss = bad["loss"]
    assert abs(loss[0] - math.log(C)) < 5e-4                     # the first-loss check passes
    assert all(abs(v / loss[0] - 1) < 0.1 for v in loss)         # diagnose's plateau
    assert np.all(np.diff(loss) < 0)                             # it falls, slowly
    assert bad["accuracy"][-1] > 0.9 and good["loss"][-1] < 0.25 * good["loss"][0]


def test_no_run_goes_below_the_floor_and_adam_sits_on_it(long, overfit):
    low = wr130.floor()
    for kind in ("probs", "probs_adam"):
        assert min(long[kind]["loss"]) > low
    assert long["probs_adam"]["loss"][-1] - low < 0.02           # Adam: fast down, then the floor
    assert long["probs"]["loss"][-1] > long["probs_adam"]["loss"][-1]
    assert overfit[True]["loss"][-1] - low < 1e-4 and overfit[True]["loss"][-1] > low
    assert overfit[False]["loss"][-1] < 1e-4


def test_the_one_hot_labels_cost_the_floor():
    _, y = wr130.make_data()
    assert wr130.cross_entropy(np.eye(C)[y], y)[0] == pytest.approx(wr130.floor(), rel=1e-12)


# --- the fix -----------------------------------------------------------------------------------

def test_logits_to_the_loss_train_and_have_no_floor(good):
    _, y = wr130.make_data()
    assert good["loss"][-1] < 0.6 and good["accuracy"][-1] > 0.98
    assert wr130.cross_entropy(20.0 * np.eye(C)[y], y)[0] < 1e-7
    p = wr130.predict_proba(good["params"], wr130.make_data()[0])
    np.testing.assert_allclose(p.sum(axis=1), 1.0)


# --- the page ----------------------------------------------------------------------------------

def test_numbers_in_the_entry_match_the_snippet(bad, good, long, overfit, binary):
    _, y = wr130.make_data()
    b, g, adam = bad["loss"], good["loss"], long["probs_adam"]
    healthy_z, through_z = confident(10.0, wrong=True)
    batch = {k: v.default for k, v in inspect.signature(wr130.overfit_one_batch).parameters.items() if k != "softmax_first"}
    numbers = {10: "ten"}
    drop = 1 - b[-1] / b[0]
    assert_entry_says("WR-130", [
        f"The loss goes {b[0]:.4f}, {b[1]:.4f}, {b[2]:.4f}, … {b[-1]:.4f} at epoch {len(b) - 1}: {drop:.1%} lower "
        f"after {len(b)} epochs, while accuracy rises from {bad['accuracy'][0]:.3f} to {bad['accuracy'][-1]:.3f}",
        f"goes from {g[0]:.4f} to {g[-1]:.4f} in the same {len(g)} epochs",
        f"which is {wr130.floor():.4f} for ten classes",
        f"With Adam at rate {wr130.ADAM_LR:g} the snippet reads {adam['loss'][-1]:.4f} after {wr130.LONG} epochs "
        f"at {adam['accuracy'][-1]:.3f} accuracy",
        f"({wr130.floor(1000):.4f} for a thousand)",
        f"At logit 0 it is {(wr130.softplus(-0.5) + wr130.softplus(0.5)) / 2:.4f} on balanced labels",
        f"ln 2 = {math.log(2):.4f}",
        f"e/(e + C − 1) = {np.e / (np.e + C - 1):.4f} for ten classes",
        f"log(1 + (C − 1)/e) = {wr130.floor():.4f}",
        f"{math.log(C) - wr130.floor():.4f} for ten classes, {math.log(1000) - wr130.floor(1000):.4f} for a thousand",
        f"norm {bad['grad_norm'][0]:.4f} against {good['grad_norm'][0]:.4f} from the logits, a ratio of "
        f"{bad['grad_norm'][0] / good['grad_norm'][0]:.4f}",
        f"(norm {healthy_z:.2f})", f"almost none ({through_z:.5f})",
        f"at least log(1 + e^(−1)) = {wr130.softplus(-1.0):.4f}",
        f"{b[0]:.4f} against ln 10 = {math.log(10):.4f}",
        f"{bad['grad_norm'][0]:.4f} against {good['grad_norm'][0]:.4f} in the snippet",
        f"this one gives {wr130.cross_entropy(np.eye(C)[y], y)[0]:.4f}",
        f"With Adam at rate {batch['lr']:g} for {batch['steps']} steps on {numbers[batch['n']]} examples the loss from "
        f"the logits goes to {overfit[False]['loss'][-1]:.1e}",
        f"it stops at {overfit[True]['loss'][-1]:.4f}, on the floor",
        f"fall from {g[0]:.4f} to {g[-1]:.4f} in {len(g)} epochs",
        f"logit 20 on the label costs {wr130.cross_entropy(20.0 * np.eye(C)[y], y)[0]:.2e}",
        f"the floor for your C ({wr130.floor():.4f} for ten)",
        f"the loss goes {binary[True]['loss'][0]:.4f} → {binary[True]['loss'][-1]:.4f} in {len(binary[True]['loss'])} "
        f"epochs of rate 0.1, against {binary[False]['loss'][0]:.4f} → {binary[False]['loss'][-1]:.4f} handed the logit",
        "lies between log(1 + (C − 1)/e) and log(e + C − 1), {:.4f} and {:.4f} for ten classes".format(*first_loss_bounds()),
        f"more than {first_loss_bounds()[1] - math.log(C):.2f} nats above ln C",
        f"a ratio of {bad['grad_norm'][0] / good['grad_norm'][0]:.4f}; ",
        f"{smoothed_floor(0.1):.4f} for ε = 0.1 and ten classes",
        f"only ε ≈ {smoothing_that_reaches_the_floor():.2f} would put it at 1.46",
    ])
