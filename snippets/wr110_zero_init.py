"""WR-110: weights initialised to zero -- every hidden unit is the same unit, and it never changes.

A network with one hidden layer of 16 tanh units and a softmax output, trained by full-batch gradient
descent on three classes of 2-D points (a blob inside two rings: no single direction separates them).
With every weight and bias set to zero, each hidden unit outputs tanh(0) = 0 for every point, so the
gradients of both weight matrices are exactly zero at every step: only the output biases learn, and
the loss can only fall to the entropy of the class frequencies. With sigmoid hidden units (which output
0.5 at zero) the weights do move, but all 16 units receive the same gradient and stay copies of one
another: the network is one unit wide. Random weights scaled for the activation break the symmetry.

Run it: python snippets/wr110_zero_init.py
"""
# --8<-- [start:setup]
import numpy as np

SEED = 110
COUNTS = (120, 100, 80)          # points per class: the class frequencies are 0.4, 0.33, 0.27
CLASSES, HIDDEN = len(COUNTS), 16


def make_data(seed=SEED):
    """Class 0 is a blob at the origin, classes 1 and 2 are rings of radius 1.5 and 3 around it."""
    rng = np.random.default_rng(seed)
    X, y = [], []
    for k, n in enumerate(COUNTS):
        angle = rng.uniform(0, 2 * np.pi, n)
        radius = 1.5 * k + rng.normal(0, 0.3, n)
        X.append(np.column_stack([radius * np.cos(angle), radius * np.sin(angle)]))
        y.append(np.full(n, k))
    return np.vstack(X), np.concatenate(y)


def sigmoid(z):
    return 0.5 * (1.0 + np.tanh(z / 2.0))          # the same function as 1/(1+exp(-z)), without overflow


# Each hidden activation with its slope, written in terms of h = f(z).
ACTIVATIONS = {
    "tanh": (np.tanh, lambda h: 1.0 - h ** 2),
    "relu": (lambda z: np.maximum(z, 0.0), lambda h: (h > 0).astype(float)),
    "sigmoid": (sigmoid, lambda h: h * (1.0 - h)),
}


def constant_params(value=0.0, inputs=2):
    """Every weight and every bias set to one value: np.zeros for value 0."""
    return {"W1": np.full((inputs, HIDDEN), value), "b1": np.full(HIDDEN, value),
            "W2": np.full((HIDDEN, CLASSES), value), "b2": np.full(CLASSES, value)}


def log_softmax(z):
    z = z - z.max(axis=1, keepdims=True)
    return z - np.log(np.exp(z).sum(axis=1, keepdims=True))


def loss_and_grads(params, X, y, act="tanh"):
    """Cross-entropy, the gradient of every parameter, and the hidden activations."""
    f, slope = ACTIVATIONS[act]
    h = f(X @ params["W1"] + params["b1"])
    logp = log_softmax(h @ params["W2"] + params["b2"])
    onehot = np.eye(CLASSES)[y]
    g2 = (np.exp(logp) - onehot) / len(y)
    g1 = (g2 @ params["W2"].T) * slope(h)
    grads = {"W1": X.T @ g1, "b1": g1.sum(axis=0), "W2": h.T @ g2, "b2": g2.sum(axis=0)}
    return float(-(onehot * logp).sum(axis=1).mean()), grads, h


def train(params, X, y, act="tanh", lr=0.5, epochs=300, log_every=0):
    """Full-batch gradient descent. Per epoch: the loss and the weight-gradient norms before the update,
    how far apart the hidden units are (the largest gap between two units' outputs on one point), and how many
    units are distinct (no other unit gives exactly the same output on every point)."""
    params = {k: v.copy() for k, v in params.items()}
    history = {"loss": [], "grad_W1": [], "grad_W2": [], "unit_gap": [], "distinct": []}
    for epoch in range(epochs):
        loss, grads, h = loss_and_grads(params, X, y, act)
        history["loss"].append(loss)
        history["grad_W1"].append(float(np.linalg.norm(grads["W1"])))
        history["grad_W2"].append(float(np.linalg.norm(grads["W2"])))
        history["unit_gap"].append(float((h.max(axis=1) - h.min(axis=1)).max()))
        # units whose outputs are equal bit for bit count once
        history["distinct"].append(len({unit.tobytes() for unit in np.ascontiguousarray(h.T)}))
        if log_every and (epoch % log_every == 0 or epoch == epochs - 1):
            print(f"epoch {epoch:3d}  loss {loss:.4f}  grad_norm(W1) {history['grad_W1'][-1]:.3e}  "
                  f"grad_norm(W2) {history['grad_W2'][-1]:.3e}")
        for key in params:
            params[key] -= lr * grads[key]
    history["params"] = params
    return history


def accuracy(params, X, y, act="tanh"):
    f, _ = ACTIVATIONS[act]
    return float(np.mean((f(X @ params["W1"] + params["b1"]) @ params["W2"] + params["b2"]).argmax(axis=1) == y))


def frequency_entropy(y):
    """The loss of a model that ignores its input and predicts the class frequencies."""
    freq = np.bincount(y, minlength=CLASSES) / len(y)
    return float(-(freq * np.log(freq)).sum())
# --8<-- [end:setup]


# --8<-- [start:reproduce]
if __name__ == "__main__":
    X, y = make_data()
    print(f"{len(y)} points, {CLASSES} classes, {HIDDEN} tanh hidden units; every weight and bias set to 0.")
    run = train(constant_params(0.0), X, y, log_every=25)
    print(f"Distinct hidden units: {run['distinct'][-1]} of {HIDDEN} (largest gap between two units' outputs: "
          f"{run['unit_gap'][-1]:g}); accuracy {accuracy(run['params'], X, y):.0%}.\n"
          f"Only the output biases learned: the loss of predicting the class frequencies is "
          f"{frequency_entropy(y):.4f} (ln {CLASSES} = {np.log(CLASSES):.4f}).")
    stuck = train(constant_params(0.0), X, y, act="sigmoid")
    print(f"\nWith sigmoid hidden units, all zero: grad_norm(W1) at the last epoch {stuck['grad_W1'][-1]:.3e}, "
          f"distinct units {stuck['distinct'][-1]} of {HIDDEN};\n"
          f"the loss ends at {stuck['loss'][-1]:.4f}, accuracy {accuracy(stuck['params'], X, y, 'sigmoid'):.0%}.")
# --8<-- [end:reproduce]


# --8<-- [start:fix]
def glorot_params(inputs=2, seed=SEED):
    """Glorot & Bengio's uniform weights, +-sqrt(6 / (fan_in + fan_out)), for tanh; biases at zero.
    The random draw breaks the symmetry; the scale is WR-120's subject."""
    rng = np.random.default_rng(seed)
    a1, a2 = np.sqrt(6 / (inputs + HIDDEN)), np.sqrt(6 / (HIDDEN + CLASSES))
    return {"W1": rng.uniform(-a1, a1, (inputs, HIDDEN)), "b1": np.zeros(HIDDEN),
            "W2": rng.uniform(-a2, a2, (HIDDEN, CLASSES)), "b2": np.zeros(CLASSES)}


if __name__ == "__main__":
    X, y = make_data()
    print(f"{len(y)} points, {CLASSES} classes, {HIDDEN} tanh hidden units; "
          f"Glorot-uniform weights, biases at 0.")
    run = train(glorot_params(), X, y, log_every=25)
    print(f"Distinct hidden units: {run['distinct'][-1]} of {HIDDEN}; accuracy {accuracy(run['params'], X, y):.0%}.")
# --8<-- [end:fix]


RUNS = (("zeros, tanh", "tanh", None), ("zeros, sigmoid", "sigmoid", None), ("Glorot, tanh", "tanh", "glorot"))


def runs():
    """The three runs the page shows: all-zero weights with tanh and with sigmoid units, and Glorot weights."""
    X, y = make_data()
    return {name: train(glorot_params() if init else constant_params(0.0), X, y, act=act)
            for name, act, init in RUNS}


def figure_data():
    """Plain numbers for the page's picture: the loss per epoch of the three runs against the entropy of the
    class frequencies, and how many of the hidden units are distinct."""
    curves = runs()
    _, y = make_data()
    floor = frequency_entropy(y)
    epochs = list(range(len(curves["Glorot, tanh"]["loss"])))
    zero, sig, fixed = curves["zeros, tanh"], curves["zeros, sigmoid"], curves["Glorot, tanh"]
    return {
        "alt": (f"Left: loss per epoch. All-zero weights with tanh units start at {zero['loss'][0]:.4f} (ln 3) and "
                f"settle at {zero['loss'][-1]:.4f}, the entropy of the class frequencies ({floor:.4f}); with sigmoid "
                f"units they end at {sig['loss'][-1]:.4f}; Glorot weights fall from {fixed['loss'][0]:.4f} to "
                f"{fixed['loss'][-1]:.4f}. Right: distinct hidden units, of {HIDDEN}: "
                f"{max(zero['distinct'] + sig['distinct'])} at every epoch for both all-zero runs, "
                f"{min(fixed['distinct'])} at every epoch for Glorot weights."),
        "caption": "All-zero weights: the hidden units are copies of one another at every epoch, and the loss stays "
                   "at the entropy of the class frequencies; random weights break the symmetry and the loss falls.",
        "panels": [
            {"title": "Loss per epoch", "xlabel": "epoch", "ylabel": "loss",
             "series": [{"label": name, "x": epochs, "y": run["loss"],
                         "width": 3.0 if name.startswith("zeros") else 1.6} for name, run in curves.items()]
                       + [{"label": "class-frequency entropy", "x": [epochs[0], epochs[-1]], "y": [floor, floor],
                           "style": "dashed"}]},
            {"title": "Distinct hidden units", "xlabel": "epoch", "ylabel": f"distinct units of {HIDDEN}",
             "series": [{"label": name, "x": epochs, "y": run["distinct"],
                         "width": 3.0 if name == "zeros, tanh" else 1.6} for name, run in curves.items()]},
        ],
        "sparkline": {"label": "loss per epoch, all-zero weights", "values": zero["loss"]},
    }
