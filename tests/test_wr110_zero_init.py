"""WR-110: weights initialised to zero -- exact zero weight gradients with tanh and ReLU, units that stay
copies of one another with sigmoid units or a constant, the loss at the entropy of the class frequencies,
the saddle that a little randomness leaves, and the random initialisation that fixes it."""
import math

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
    """The zero gradient does not depend on the data: any mini-batch, any inputs; Adam's update is then 0 too."""
    X, y = data
    rng = np.random.default_rng(1)
    for _ in range(5):
        batch = rng.choice(len(y), 32, replace=False)
        _, grads, h = wr110.loss_and_grads(wr110.constant_params(0.0), 100 * rng.standard_normal((32, 2)), y[batch])
        assert not grads["W1"].any() and not grads["b1"].any() and not grads["W2"].any() and not h.any()
    m, v = (1 - 0.9) * grads["W1"], (1 - 0.999) * grads["W1"] ** 2
    assert not (1e-3 * (m / 0.1) / (np.sqrt(v / 0.001) + 1e-8)).any()


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


def test_a_sigmoid_output_on_zero_weights_is_one_half_for_every_input(data):
    X, _ = data
    p = wr110.sigmoid(np.tanh(X @ np.zeros((2, 4))) @ np.zeros((4, 1)) + 0.0)
    assert set(p.ravel()) == {0.5}
    assert_entry_says("WR-110", [f"a first loss of ln 2 = {-math.log(0.5):.4f}"])


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
        f"a standard deviation of 1e-6 sits on the plateau for 200 epochs",
    ])
