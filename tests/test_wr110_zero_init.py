"""WR-110: weights initialised to zero -- exact zero weight gradients with tanh and ReLU, units that stay
copies of one another with sigmoid units or a constant, the loss at the entropy of the class frequencies,
one zero layer (harmless beside a random one, except a ReLU layer), the saddle that a little randomness
leaves, and the random initialisation that fixes it."""
import functools
import math
import operator

import numpy as np
import pytest

from conftest import assert_entry_says, load_snippet, tab_program_run

wr110 = load_snippet("wr110_zero_init")
SNIPPET = "snippets/wr110_zero_init.py"


@pytest.fixture(scope="module")
def data():
    return wr110.make_data()


@pytest.fixture(scope="module")
def runs():
    return wr110.runs()


@pytest.fixture(scope="module")
def perturbed(data):
    """All-zero weights plus normal noise of a given standard deviation: how long the run stays on the plateau."""
    X, y = data
    out = {}
    for std in (1e-6, 1e-3):
        rng = np.random.default_rng(0)
        params = {k: v + std * rng.standard_normal(v.shape) for k, v in wr110.constant_params(0.0).items()}
        out[std] = wr110.train(params, X, y)
    return out


@pytest.fixture(scope="module")
def one_zero_layer(data):
    """Glorot weights with one layer zeroed: the output layer (tanh), or the first layer's weights and biases
    (tanh and ReLU)."""
    X, y = data
    glorot = wr110.glorot_params()
    zero_head = dict(glorot, W2=np.zeros_like(glorot["W2"]))
    zero_first = dict(glorot, W1=np.zeros_like(glorot["W1"]), b1=np.zeros_like(glorot["b1"]))
    return {"head": wr110.train(zero_head, X, y), "first, tanh": wr110.train(zero_first, X, y),
            "first, relu": wr110.train(zero_first, X, y, act="relu")}


@pytest.fixture(scope="module")
def constant(data):
    X, y = data
    return wr110.train(wr110.constant_params(0.1), X, y)


def softmax(z):
    """Softmax over the last axis."""
    e = np.exp(z - z.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


# --- all zeros with tanh or ReLU: the weights never get a gradient ----------------------------------------

@pytest.mark.parametrize("act", ["tanh", "relu"])
def test_all_zero_weights_get_exactly_zero_gradients_at_every_epoch(data, runs, act):
    X, y = data
    run = runs["zeros, tanh"] if act == "tanh" else wr110.train(wr110.constant_params(0.0), X, y, act=act)
    assert set(run["grad_W1"]) == {0.0} and set(run["grad_W2"]) == {0.0}
    params = run["params"]
    assert not params["W1"].any() and not params["b1"].any() and not params["W2"].any()
    assert np.abs(params["b2"]).max() > 0.1                                 # the output biases alone learned


def test_the_zero_point_is_stationary_for_any_batch_and_for_adam(data):
    """The zero gradient does not depend on the data: any mini-batch, any inputs. Adam on mini-batches of the
    snippet's points, with the snippet's gradients, leaves every weight at exactly zero and moves the output bias."""
    X, y = data
    rng = np.random.default_rng(1)
    for _ in range(5):
        batch = rng.choice(len(y), 32, replace=False)
        _, grads, h = wr110.loss_and_grads(wr110.constant_params(0.0), 100 * rng.standard_normal((32, 2)), y[batch])
        assert not grads["W1"].any() and not grads["b1"].any() and not grads["W2"].any() and not h.any()
    params = wr110.constant_params(0.0)
    m = {k: np.zeros_like(v) for k, v in params.items()}
    v = {k: np.zeros_like(p) for k, p in params.items()}
    for t in range(1, 21):
        batch = rng.choice(len(y), 32, replace=False)
        _, grads, _ = wr110.loss_and_grads(params, X[batch], y[batch])
        for k in params:
            m[k] = 0.9 * m[k] + 0.1 * grads[k]
            v[k] = 0.999 * v[k] + 0.001 * grads[k] ** 2
            params[k] -= 0.01 * (m[k] / (1 - 0.9 ** t)) / (np.sqrt(v[k] / (1 - 0.999 ** t)) + 1e-8)
    assert not params["W1"].any() and not params["b1"].any() and not params["W2"].any()
    assert np.abs(params["b2"]).max() > 0.05                                 # the same steps moved the output bias


def test_the_hand_written_gradients_match_central_differences(data):
    """The exact zeros above are statements about the true gradient: the snippet's gradients of all four
    parameters agree with central differences of its loss, at a random point, for every activation."""
    X, y = data
    rng = np.random.default_rng(3)
    for act in wr110.ACTIVATIONS:
        params = {k: rng.normal(0, 0.5, v.shape) for k, v in wr110.constant_params(0.0).items()}
        _, grads, _ = wr110.loss_and_grads(params, X, y, act)
        for key, value in params.items():
            numeric = np.zeros_like(value)
            for i in np.ndindex(value.shape):
                up, down = {k: p.copy() for k, p in params.items()}, {k: p.copy() for k, p in params.items()}
                up[key][i] += 1e-6
                down[key][i] -= 1e-6
                numeric[i] = (wr110.loss_and_grads(up, X, y, act)[0]
                              - wr110.loss_and_grads(down, X, y, act)[0]) / 2e-6
            assert np.allclose(grads[key], numeric, rtol=1e-6, atol=1e-8), (act, key)
            assert np.abs(grads[key]).max() > 1e-3                           # a real gradient, not a zero one


def test_only_the_output_biases_learn_and_they_learn_the_class_frequencies(data, runs):
    X, y = data
    run = runs["zeros, tanh"]
    freq = np.bincount(y) / len(y)
    assert np.allclose(softmax(run["params"]["b2"]), freq, atol=1e-9)
    floor = wr110.frequency_entropy(y)
    assert run["loss"][0] == pytest.approx(math.log(3), abs=1e-15)
    assert abs(run["loss"][-1] - floor) < 1e-9
    assert all(b <= a + 1e-15 for a, b in zip(run["loss"], run["loss"][1:]))   # it only falls, to the floor
    assert wr110.accuracy(run["params"], X, y) == freq.max()


def test_with_balanced_classes_the_first_loss_is_the_last(data):
    X, y = data
    keep = np.concatenate([np.flatnonzero(y == k)[:80] for k in range(wr110.CLASSES)])
    run = wr110.train(wr110.constant_params(0.0), X[keep], y[keep], epochs=20)
    assert max(run["loss"]) - min(run["loss"]) < 1e-12 and run["loss"][0] == pytest.approx(math.log(3), abs=1e-15)
    assert np.abs(run["params"]["b2"]).max() < 1e-12                        # rounding, no more


def test_a_binary_classifier_on_zero_weights_outputs_one_half_for_every_input(data, monkeypatch):
    """The snippet's own network with two classes: on zero weights both logits are 0 for every input, so the
    softmax gives 0.5, which is also the sigmoid of the logit difference, and the first loss is ln 2."""
    X, y = data
    monkeypatch.setattr(wr110, "CLASSES", 2)
    keep = y < 2
    params = wr110.constant_params(0.0)
    assert params["W2"].shape == (wr110.HIDDEN, 2)
    loss, grads, h = wr110.loss_and_grads(params, X[keep], y[keep])
    logits = h @ params["W2"] + params["b2"]
    p = np.exp(wr110.log_softmax(logits))
    assert set(p.ravel()) == {0.5}
    assert set(wr110.sigmoid(logits[:, 1] - logits[:, 0])) == {0.5}
    assert np.allclose(grads["b2"], 0.5 - np.bincount(y[keep]) / keep.sum(), rtol=0, atol=1e-15)   # 0.5 - freq
    assert loss == pytest.approx(math.log(2), abs=1e-15)
    assert_entry_says("WR-110", [f"gives 0.5 for every input, a first loss of ln 2 = {loss:.4f}"])


# --- sigmoid units or a constant: the weights move, the units stay copies --------------------------------

def test_sigmoid_units_move_but_stay_identical_to_the_last_bit(data, runs):
    X, y = data
    run = runs["zeros, sigmoid"]
    W1, b1, W2 = run["params"]["W1"], run["params"]["b1"], run["params"]["W2"]
    assert set(run["unit_gap"]) == {0.0} and set(run["distinct"]) == {1}
    assert np.array_equal(W1, np.repeat(W1[:, :1], wr110.HIDDEN, axis=1)) and np.all(b1 == b1[0])
    assert np.array_equal(W2, np.repeat(W2[:1], wr110.HIDDEN, axis=0))
    assert run["grad_W1"][0] == 0.0 and all(g > 0 for g in run["grad_W1"][1:])   # W2 = 0 only at the first step
    assert np.abs(W1).max() > 0.01                                           # the weights did move
    one_unit = wr110.sigmoid(X @ W1[:, :1] + b1[0]) @ (wr110.HIDDEN * W2[:1]) + run["params"]["b2"]
    full = wr110.sigmoid(X @ W1 + b1) @ W2 + run["params"]["b2"]
    assert np.allclose(one_unit, full, rtol=1e-12, atol=1e-12)              # as wide as one unit


def test_a_constant_other_than_zero_also_keeps_the_units_identical(constant, data):
    _, y = data
    assert set(constant["unit_gap"]) == {0.0} and set(constant["distinct"]) == {1}
    assert constant["loss"][-1] < wr110.frequency_entropy(y) - 0.05        # it learns a little, as one unit


def test_dropout_breaks_the_tie_of_sigmoid_units_but_not_the_zero_tanh_point(data):
    """One step with a separate dropout mask per unit: equal sigmoid units get different output-weight gradients;
    zero tanh units still get none, because the masked activations are 0."""
    X, y = data
    mask = np.random.default_rng(2).random((len(y), wr110.HIDDEN)) < 0.5
    onehot = np.eye(wr110.CLASSES)[y]
    for act, splits in (("sigmoid", True), ("tanh", False)):
        f, _ = wr110.ACTIVATIONS[act]
        h = f(X @ np.zeros((2, wr110.HIDDEN))) * mask / 0.5
        g2 = (softmax(h @ np.zeros((wr110.HIDDEN, wr110.CLASSES))) - onehot) / len(y)
        dW2 = h.T @ g2
        assert (not np.allclose(dW2, dW2[:1])) == splits
        assert dW2.any() == splits


# --- one zero layer: harmless beside a random one, except a ReLU layer --------------------------------------

def test_a_zero_output_layer_over_random_hidden_weights_trains(data, one_zero_layer):
    """Zero heads, Fixup, LoRA's B = 0: the first loss is exactly ln C and the first layer's gradient is exactly
    zero at the first step only; the hidden units differ, so the zero layer's gradient differs per unit."""
    X, y = data
    run = one_zero_layer["head"]
    assert run["loss"][0] == pytest.approx(math.log(3), abs=1e-15)
    assert run["grad_W1"][0] == 0.0 and min(run["grad_W1"][1:]) > 0 and run["grad_W2"][0] > 0
    assert set(run["distinct"]) == {wr110.HIDDEN}
    assert run["loss"][-1] < wr110.frequency_entropy(y) / 5
    acc = wr110.accuracy(run["params"], X, y)
    assert acc > 0.9
    assert_entry_says("WR-110", [
        f"start at exactly {run['loss'][0]:.4f} (ln 3), and the first layer's weight gradient is exactly 0 at "
        f"epoch 0, because it comes back through the zero output weights; at epoch 1 its norm is "
        f"{run['grad_W1'][1]:.1e}, and the run ends at {run['loss'][-1]:.4f}, {acc:.0%} correct, with all "
        f"{min(run['distinct'])} units distinct",
    ])


def test_a_zero_first_layer_trains_with_tanh_and_is_dead_with_relu(data, one_zero_layer):
    X, y = data
    tanh, relu = one_zero_layer["first, tanh"], one_zero_layer["first, relu"]
    floor = wr110.frequency_entropy(y)
    # tanh: outputs 0, slope 1; the random output weights send each unit its own error
    assert tanh["grad_W1"][0] > 0 and tanh["distinct"][0] == 1 and tanh["distinct"][-1] == wr110.HIDDEN
    assert tanh["loss"][-1] < floor / 4
    # ReLU: outputs 0, slope 0 at 0: no gradient reaches either weight matrix, ever
    assert set(relu["grad_W1"]) == {0.0} and set(relu["grad_W2"]) == {0.0} and set(relu["distinct"]) == {1}
    assert abs(relu["loss"][-1] - floor) < 1e-9
    assert wr110.ACTIVATIONS["relu"][1](np.zeros(1))[0] == 0.0
    assert_entry_says("WR-110", [
        f"the run trains, to {tanh['loss'][-1]:.4f} and {wr110.accuracy(tanh['params'], X, y):.0%} correct",
        f"the loss stays at {relu['loss'][-1]:.4f}, {wr110.accuracy(relu['params'], X, y, 'relu'):.0%} correct, "
        f"{relu['distinct'][-1]} distinct unit",
    ])


def weight_matrices_symmetric(params, act):
    """The entry's check before training: both weight matrices constant (here the two layers are adjacent), or
    a ReLU layer with zero weights and biases."""
    constant = [np.all(params[k] == params[k].flat[0]) for k in ("W1", "W2")]
    dead_relu = act == "relu" and not params["W1"].any() and not params["b1"].any()
    return all(constant) or dead_relu


def gradient_stays_zero(run):
    """The entry's first run-time check: a weight gradient exactly 0 at every step, not only the first."""
    return set(run["grad_W1"]) == {0.0} or set(run["grad_W2"]) == {0.0}


def units_identical_after_training(run):
    """The entry's second run-time check: one distinct hidden unit after training."""
    return run["distinct"][-1] == 1


def test_the_confirm_rules_flag_the_failures_and_not_a_zero_output_layer(data, runs, constant, one_zero_layer):
    _, y = data
    glorot = wr110.glorot_params()
    cases = {  # name: (initial parameters, activation, run, flagged by the gradient check, by the unit check)
        "zero head": (dict(glorot, W2=np.zeros_like(glorot["W2"])), "tanh", one_zero_layer["head"], False, False),
        "zero first, tanh": (dict(glorot, W1=0 * glorot["W1"], b1=0 * glorot["b1"]), "tanh",
                             one_zero_layer["first, tanh"], False, False),
        "zero first, relu": (dict(glorot, W1=0 * glorot["W1"], b1=0 * glorot["b1"]), "relu",
                             one_zero_layer["first, relu"], True, True),
        "Glorot": (glorot, "tanh", runs["Glorot, tanh"], False, False),
        "zeros, tanh": (wr110.constant_params(0.0), "tanh", runs["zeros, tanh"], True, True),
        "zeros, sigmoid": (wr110.constant_params(0.0), "sigmoid", runs["zeros, sigmoid"], False, True),
        "0.1, tanh": (wr110.constant_params(0.1), "tanh", constant, False, True),
    }
    for name, (params, act, run, zero_gradient, identical) in cases.items():
        stuck = zero_gradient or identical
        assert weight_matrices_symmetric(params, act) == stuck, name
        assert gradient_stays_zero(run) == zero_gradient, name
        assert units_identical_after_training(run) == identical, name
        assert (run["loss"][-1] > wr110.frequency_entropy(y) - 0.1) == stuck, name     # the rules match the runs
    head = one_zero_layer["head"]
    assert head["grad_W1"][0] == 0.0 and head["loss"][0] == pytest.approx(math.log(3), abs=1e-15)  # first-step
    assert_entry_says("WR-110", [                                            # signs alone would flag it
        f"the run with a zero output layer passes both run-time checks (a non-zero first-layer gradient from "
        f"epoch {next(i for i, g in enumerate(head['grad_W1']) if g > 0)} on, {head['distinct'][-1]} distinct "
        f"units); the all-zero tanh run fails both, and the all-zero sigmoid run and the run at 0.1 fail the "
        f"second, with {runs['zeros, sigmoid']['distinct'][-1]} distinct unit",
    ])


def test_summing_in_another_order_moves_the_last_bits(data):
    """Why exact copies are not guaranteed in large layers: floating-point addition depends on the order, and
    the same 300 terms of a first-step gradient summed forwards and backwards differ by about 1e-16 of the sum."""
    _, y = data
    X, _ = data
    g2 = (1 / wr110.CLASSES - np.eye(wr110.CLASSES)[y]) / len(y)
    gaps = []
    for k in range(wr110.CLASSES):
        terms = (X[:, 0] * g2[:, k]).tolist()
        forward, backward = functools.reduce(operator.add, terms), functools.reduce(operator.add, terms[::-1])
        gaps.append(abs(forward - backward) / abs(math.fsum(terms)))
    assert all(0 < gap < 1e-15 for gap in gaps)
    assert_entry_says("WR-110", ["a rounding error, around 1e-16 of their size"])


# --- a saddle, not a minimum ------------------------------------------------------------------------------

def test_a_little_randomness_leaves_the_plateau_after_a_delay(perturbed, data):
    _, y = data
    floor = wr110.frequency_entropy(y)
    tiny, small = perturbed[1e-6], perturbed[1e-3]
    assert all(abs(v - floor) < 1e-4 for v in tiny["loss"][16:200])       # on the plateau for 200 epochs
    assert tiny["loss"][-1] < floor - 0.01 and small["loss"][-1] < tiny["loss"][-1] - 0.3   # below it: a saddle
    assert tiny["unit_gap"][-1] > 0.5
    assert_entry_says("WR-110", [
        f"weights drawn with a standard deviation of 1e-6 hold the loss within 0.0001 of the plateau for 200 epochs "
        f"and reach {tiny['loss'][-1]:.4f} at epoch {len(tiny['loss']) - 1}; with 1e-3 the run reaches "
        f"{small['loss'][-1]:.4f} by then",
    ])


def test_the_delay_grows_like_the_log_of_one_over_the_noise(perturbed, data):
    """Near zero the tanh net is a two-layer linear net: a difference of size eps grows like eps * exp(lr * s1 * t),
    s1 the largest singular value of X^T (Y - P) / n at the plateau, so each factor of 10 less noise adds
    ln 10 / (lr * s1) epochs."""
    X, y = data
    floor = wr110.frequency_entropy(y)
    freq = np.bincount(y) / len(y)
    s1, s2 = np.linalg.svd(X.T @ (np.eye(wr110.CLASSES)[y] - freq) / len(y), compute_uv=False)
    lr = 0.5                                                                   # train()'s default
    per_decade = math.log(10) / (lr * s1)
    delay = {std: next(i for i, v in enumerate(run["loss"]) if v < floor - 0.01) for std, run in perturbed.items()}
    measured = (delay[1e-6] - delay[1e-3]) / 3
    assert measured == pytest.approx(per_decade, rel=0.05)
    assert delay[1e-6] / delay[1e-3] == pytest.approx(math.log(1e6) / math.log(1e3), rel=0.1)   # not 1e3 / 1
    assert s2 < s1 / 50                                                        # one direction carries the escape
    assert_entry_says("WR-110", [
        f"Here σ₁ is {s1:.4f}",
        f"so a factor of 10 should cost {per_decade:.0f} epochs: the loss first falls 0.01 below the plateau at "
        f"epoch {delay[1e-6]} with 1e-6 and at epoch {delay[1e-3]} with 1e-3, {measured:.0f} epochs per factor of 10",
    ])


# --- the fix ----------------------------------------------------------------------------------------------

def test_glorot_weights_break_the_symmetry_and_the_network_learns(data, runs):
    X, y = data
    fixed = runs["Glorot, tanh"]
    assert min(fixed["grad_W1"]) > 0 and min(fixed["grad_W2"]) > 0
    assert min(fixed["unit_gap"]) > 0.1 and set(fixed["distinct"]) == {wr110.HIDDEN}
    assert fixed["loss"][-1] < wr110.frequency_entropy(y) / 5 and wr110.accuracy(fixed["params"], X, y) > 0.9
    params = wr110.glorot_params()
    assert not params["b1"].any() and not params["b2"].any()                   # biases at zero
    assert len(np.unique(params["W1"].T, axis=0)) == wr110.HIDDEN
    assert np.abs(params["W1"]).max() <= math.sqrt(6 / (2 + wr110.HIDDEN))


def test_an_output_bias_at_the_log_frequencies_starts_at_the_floor(data):
    """Goodfellow's softmax(b) = c: the point the all-zero run walks to, stationary for every parameter, with the
    first loss at the entropy of the class frequencies instead of ln C."""
    X, y = data
    freq = np.bincount(y) / len(y)
    params = dict(wr110.constant_params(0.0), b2=np.log(freq))
    loss, grads, _ = wr110.loss_and_grads(params, X, y)
    assert loss == pytest.approx(wr110.frequency_entropy(y), abs=1e-15) and loss < math.log(3) - 0.01
    assert all(np.abs(g).max() < 1e-15 for g in grads.values())
    assert_entry_says("WR-110", [f"the first loss is the entropy of the class frequencies, {loss:.4f} here, "
                                 "instead of ln C"])


def test_nn_linear_default_is_a_sixth_of_he_variance():
    """torch.nn.init.kaiming_uniform_ draws U(+-gain * sqrt(3 / fan_in)) with gain sqrt(2 / (1 + a^2)); nn.Linear
    passes a = sqrt(5), which gives the bound 1 / sqrt(fan_in) its comment states. He's variance is 2 / fan_in."""
    fan_in = 16
    gain = math.sqrt(2 / (1 + math.sqrt(5) ** 2))
    bound = gain * math.sqrt(3 / fan_in)
    assert bound == pytest.approx(1 / math.sqrt(fan_in), rel=1e-15)
    variance = bound ** 2 / 3
    assert variance == pytest.approx(1 / (3 * fan_in), rel=1e-15)
    assert variance / (2 / fan_in) == pytest.approx(1 / 6, rel=1e-15)
    assert_entry_says("WR-110", ["its variance, 1/(3·fan_in), is a sixth of He's",
                                 "the same as uniform(−1/√fan_in, 1/√fan_in)"])


def test_the_wr330_plateau_has_non_zero_first_gradients():
    wr330 = load_snippet("wr330_unnormalised_inputs")
    X, y = wr330.load_images()
    (X_train, y_train), _ = wr330.split(X, y)
    shift = wr330.first_update_shift(X_train.astype(np.float64), y_train)
    assert_entry_says("WR-110", [f"{shift['units']} of its {wr330.HIDDEN} first-layer units get one"])


def test_numpy_documents_empty_as_uninitialised():
    doc = " ".join(np.empty.__doc__.split())
    assert "Return a new array of given shape and type, without initializing entries." in doc
    assert "the values stored in the newly allocated array are arbitrary" in doc
    assert_entry_says("WR-110", ['"a new array of given shape and type, without initializing entries"',
                                 'the values "are arbitrary"'])


# --- the tabs and the page --------------------------------------------------------------------------------

def test_tabs_print_their_story_and_exit_cleanly():
    reproduce = tab_program_run(SNIPPET, "reproduce")
    fix = tab_program_run(SNIPPET, "fix")
    assert reproduce.returncode == 0 and fix.returncode == 0
    lines = [line for line in reproduce.stdout.splitlines() if line.startswith("epoch")]
    assert len(lines) == 13 and all(line.endswith("grad_norm(W1) 0.000e+00  grad_norm(W2) 0.000e+00")
                                    for line in lines)
    assert "0.000e+00" not in fix.stdout
    assert "Traceback" not in reproduce.stdout + fix.stdout and "Warning" not in reproduce.stdout + fix.stdout


def test_figure_data_draws_the_same_runs(runs, data):
    _, y = data
    figure = wr110.figure_data()
    loss = figure["panels"][0]["series"]
    assert [s["y"] for s in loss[:3]] == [run["loss"] for run in runs.values()]
    assert loss[3]["y"] == [wr110.frequency_entropy(y)] * 2
    assert figure["sparkline"]["values"] == runs["zeros, tanh"]["loss"]
    assert f"{runs['Glorot, tanh']['loss'][-1]:.4f}" in figure["alt"]


def test_numbers_in_the_entry_match_the_snippet(data, runs, constant):
    X, y = data
    zero, sig, fixed = runs["zeros, tanh"], runs["zeros, sigmoid"], runs["Glorot, tanh"]
    floor = wr110.frequency_entropy(y)
    settled = next(i for i, v in enumerate(zero["loss"]) if round(v, 4) == round(floor, 4))
    freq = np.bincount(y) / len(y)
    assert_entry_says("WR-110", [
        f"a network with {wr110.HIDDEN} tanh hidden units, every weight and bias set to zero, starts at "
        f"{zero['loss'][0]:.4f} (ln 3) on three classes and reaches {floor:.4f} at epoch {settled}, where it stays "
        f"to the last of {len(zero['loss'])} epochs",
        f"the {wr110.HIDDEN} hidden units never differ by anything ({max(zero['unit_gap']):g}), and the accuracy, "
        f"{wr110.accuracy(zero['params'], X, y):.0%}, is the share of the most frequent class",
        f"the run ends at {sig['loss'][-1]:.4f}, {wr110.accuracy(sig['params'], X, y, 'sigmoid'):.0%} correct",
        f"with every parameter at 0.1 and tanh units the loss ends at {constant['loss'][-1]:.4f}",
        f"{freq[0]:.1f}, {freq[1]:.2f} and {freq[2]:.2f} in the snippet",
        f"a loss equal to their entropy, {floor:.4f} here; the first loss, with b = 0, is ln 3 = {math.log(3):.4f}",
        f"falls from {fixed['loss'][0]:.4f} to {fixed['loss'][-1]:.4f} in {len(fixed['loss'])} epochs and classifies "
        f"{wr110.accuracy(fixed['params'], X, y):.0%} of the points correctly; all {min(fixed['distinct'])} of its "
        f"hidden units are distinct at every epoch, where the all-zero runs have "
        f"{max(zero['distinct'] + sig['distinct'])}",
        f"The loss went from {math.log(3):.4f} to {floor:.4f} in the first few epochs",
        f"{math.log(3):.4f} is ln 3",
        "a standard deviation of 1e-6 sits on the plateau for 200 epochs",
    ])
