"""WR-130: the loss is handed probabilities instead of logits.

A linear classifier for ten classes, trained by full-batch gradient descent.
Its last step is a softmax, and its output goes to a cross-entropy that applies
log-softmax itself -- what nn.CrossEntropyLoss, Keras's from_logits=True and
optax.softmax_cross_entropy_with_integer_labels all do. Nothing is printed and
nothing turns nan: the loss starts at ln 10 as it should and then barely moves,
while accuracy climbs. A softmax of numbers in [0, 1] is never far from
uniform, so the loss has a floor it can never pass, and its gradient reaches
the logits shrunk by the softmax's Jacobian. The fix hands the loss the logits.

Run it: python snippets/wr130_softmax_before_logits_loss.py
"""
# --8<-- [start:setup]
import numpy as np

CLASSES = 10
SEED = 0


def make_data(seed=SEED, n=500, dim=20):
    """Ten Gaussian classes in 20 dimensions, one centre per class."""
    rng = np.random.default_rng(seed)
    centres = rng.normal(size=(CLASSES, dim))
    y = rng.integers(0, CLASSES, n)
    return centres[y] + rng.normal(size=(n, dim)), y


def softmax(z):
    e = np.exp(z - z.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


def cross_entropy(logits, y):
    """The loss frameworks call cross-entropy: log-softmax of its input, then the mean
    of -log p[label]. Returns the loss and its gradient with respect to its input."""
    shifted = logits - logits.max(axis=1, keepdims=True)
    log_p = shifted - np.log(np.exp(shifted).sum(axis=1, keepdims=True))
    rows = np.arange(len(y))
    grad = np.exp(log_p)
    grad[rows, y] -= 1.0
    return float(-log_p[rows, y].mean()), grad / len(y)


def softmax_backward(p, grad_p):
    """The gradient through p = softmax(z): the Jacobian diag(p) - p p^T times grad_p."""
    return p * (grad_p - (p * grad_p).sum(axis=1, keepdims=True))


def gradient_descent(lr):
    def step(params, grads, epoch):
        for k in params:
            params[k] -= lr * grads[k]
    return step


def train(softmax_first, lr=0.1, epochs=30, seed=SEED, n=500, update=None, verbose=False, init_scale=0.01):
    """Full-batch training of z = X W + b on n examples. softmax_first=True is the bug:
    the loss is handed softmax(z), and applies log-softmax to it again."""
    X, y = make_data(seed, n)
    rng = np.random.default_rng(seed + 1)
    params = {"W": rng.normal(scale=init_scale, size=(X.shape[1], CLASSES)), "b": np.zeros(CLASSES)}
    update = update or gradient_descent(lr)
    history = {"loss": [], "accuracy": [], "grad_norm": []}
    for epoch in range(epochs):
        z = X @ params["W"] + params["b"]
        if softmax_first:
            p = softmax(z)
            loss, grad_p = cross_entropy(p, y)
            dz = softmax_backward(p, grad_p)
        else:
            loss, dz = cross_entropy(z, y)
        grads = {"W": X.T @ dz, "b": dz.sum(axis=0)}
        history["loss"].append(loss)
        history["accuracy"].append(float(np.mean(z.argmax(axis=1) == y)))
        history["grad_norm"].append(float(np.sqrt(sum(np.vdot(g, g) for g in grads.values()))))
        if verbose:
            print(f"epoch {epoch:2d}  loss {loss:.4f}  accuracy {history['accuracy'][-1]:.3f}")
        update(params, grads, epoch)
    history["params"] = params
    return history


def softplus(x):
    return np.logaddexp(0.0, x)
# --8<-- [end:setup]


# --8<-- [start:reproduce]
def floor(classes=CLASSES):
    """The least the loss can be when it is handed probabilities: the best a softmax
    output can be is one-hot, and log-softmax of a one-hot vector still gives the
    label only e / (e + C - 1)."""
    return float(np.log(1.0 + (classes - 1) / np.e))


if __name__ == "__main__":
    print("The model ends in a softmax; the loss applies log-softmax to that again:")
    bad = train(softmax_first=True, verbose=True)
    good = train(softmax_first=False, epochs=1)
    X, y = make_data()
    one_hot = np.eye(CLASSES)[y]
    drop = 1 - bad["loss"][-1] / bad["loss"][0]

    print(f"\nFirst value {bad['loss'][0]:.4f}, ln {CLASSES} = {np.log(CLASSES):.4f}: the first-loss check passes.")
    print(f"Accuracy rose from {bad['accuracy'][0]:.3f} to {bad['accuracy'][-1]:.3f}, yet the value fell by "
          f"only {drop:.1%} in {len(bad['loss'])} epochs.")
    print(f"Gradient norm at the first step: {bad['grad_norm'][0]:.4f}; with the logits handed to the loss "
          f"it would be {good['grad_norm'][0]:.4f} (ratio {bad['grad_norm'][0] / good['grad_norm'][0]:.3f}, "
          f"1/{CLASSES} = {1 / CLASSES:.3f}).")
    print(f"Handed the best output a softmax can give -- each one-hot label itself -- it still costs "
          f"{cross_entropy(one_hot, y)[0]:.4f}; log(1 + {CLASSES - 1}/e) = {floor():.4f}: no run can go lower.")
    print(f"The binary form, a sigmoid before a with-logits BCE: label 0 can never cost less than "
          f"ln 2 = {softplus(0.0):.4f}, label 1 never less than {softplus(-1.0):.4f}.")
# --8<-- [end:reproduce]


# --8<-- [start:fix]
def predict_proba(params, X):
    """Probabilities for reading or reporting -- applied after the loss, never fed to it."""
    return softmax(X @ params["W"] + params["b"])


if __name__ == "__main__":
    print("The model hands its logits to the loss; softmax only turns them into probabilities to read:")
    run = train(softmax_first=False, verbose=True)
    X, y = make_data()
    confident = 20.0 * np.eye(CLASSES)[y]
    p = predict_proba(run["params"], X)

    print(f"\nGradient norm at the first step: {run['grad_norm'][0]:.4f}, from p - y at the logits.")
    print(f"A confident right answer (logit 20 on the label) costs {cross_entropy(confident, y)[0]:.2e}: "
          "no floor above zero.")
    print(f"Mean probability given to the right class after {len(run['loss'])} epochs: "
          f"{p[np.arange(len(y)), y].mean():.3f}.")
# --8<-- [end:fix]


def adam(lr, beta1=0.9, beta2=0.999, eps=1e-8):
    """Adam (Kingma & Ba 2015), for the figure and the tests: it divides the gradient's
    size away, so the bug shows as a loss that drops fast and stops at the floor."""
    state = {}

    def step(params, grads, epoch):
        t = epoch + 1
        for k, g in grads.items():
            m, v = state.get(k, (0.0, 0.0))
            m = beta1 * m + (1 - beta1) * g
            v = beta2 * v + (1 - beta2) * g * g
            state[k] = (m, v)
            params[k] -= lr * (m / (1 - beta1 ** t)) / (np.sqrt(v / (1 - beta2 ** t)) + eps)
    return step


LONG = 300        # epochs in the figure
ADAM_LR = 0.01


def long_runs():
    return {"logits": train(False, epochs=LONG), "probs": train(True, epochs=LONG),
            "probs_adam": train(True, epochs=LONG, update=adam(ADAM_LR))}


def overfit_one_batch(softmax_first, n=10, steps=500, lr=0.05):
    """Karpathy's check: a model that cannot drive the loss of ten examples to near zero
    has a bug. Handed probabilities, this one stops above the floor."""
    return train(softmax_first, epochs=steps, n=n, update=adam(lr))


def sigmoid(z):
    return np.exp(-np.logaddexp(0.0, -z))


def train_binary(sigmoid_first, lr=0.1, epochs=30, seed=SEED, n=500):
    """The binary form, for the tests: label 1 for the upper five classes, a single logit z = X w + b,
    and a loss that applies its own sigmoid (BCEWithLogitsLoss, from_logits=True):
    softplus(u) - t u of its input u. sigmoid_first=True hands it u = sigmoid(z)."""
    X, classes = make_data(seed, n)
    t = (classes >= CLASSES // 2).astype(float)
    rng = np.random.default_rng(seed + 1)
    params = {"w": rng.normal(scale=0.01, size=X.shape[1]), "b": np.zeros(1)}
    history = {"loss": [], "accuracy": [], "labels": t}
    for epoch in range(epochs):
        z = X @ params["w"] + params["b"]
        u = sigmoid(z) if sigmoid_first else z
        history["loss"].append(float(np.mean(softplus(u) - t * u)))
        history["accuracy"].append(float(np.mean((z > 0) == (t == 1))))
        du = (sigmoid(u) - t) / n
        dz = du * sigmoid(z) * (1 - sigmoid(z)) if sigmoid_first else du
        if epoch == 0:
            history["first"] = {"z": z, "du": du, "dz": dz}
        params["w"] -= lr * X.T @ dz
        params["b"] -= lr * dz.sum(keepdims=True)
    return history


def figure_data():
    runs = long_runs()
    epochs = list(range(LONG))
    low = floor()
    return {
        "alt": (f"Two panels. Left: the loss per epoch over {LONG} epochs for ten classes. Handed the logits it "
                f"falls from {runs['logits']['loss'][0]:.2f} to {runs['logits']['loss'][-1]:.3f}. Handed softmax "
                f"probabilities it creeps from {runs['probs']['loss'][0]:.2f} to {runs['probs']['loss'][-1]:.2f} "
                f"with gradient descent, and with Adam drops to {runs['probs_adam']['loss'][-1]:.3f}, just above "
                f"the floor log(1 + 9/e) = {low:.4f} that it can never pass. Right: the gradient norm per epoch, "
                f"log scale: handed probabilities it starts at {runs['probs']['grad_norm'][0]:.3f}, about a tenth "
                f"of the {runs['logits']['grad_norm'][0]:.3f} it has from the logits; it grows while the outputs "
                f"move away from uniform, and is larger than the healthy run's only once that run has learned."),
        "caption": "A second softmax leaves the loss less than one nat to fall, and starts it with a tenth of the gradient.",
        "panels": [
            {"title": "Loss per epoch, ten classes", "xlabel": "epoch", "ylabel": "loss",
             "series": [{"label": "logits to the loss", "x": epochs, "y": runs["logits"]["loss"]},
                        {"label": "probabilities to the loss (gradient descent)", "x": epochs,
                         "y": runs["probs"]["loss"], "width": 3.0},
                        {"label": f"probabilities to the loss (Adam, rate {ADAM_LR:g})", "x": epochs,
                         "y": runs["probs_adam"]["loss"]},
                        {"label": f"floor log(1 + 9/e) = {low:.4f}", "style": "dashed", "x": [0, LONG - 1],
                         "y": [low, low]}]},
            {"title": "Gradient norm per epoch", "xlabel": "epoch", "ylabel": "gradient norm (log scale)",
             "yscale": "log",
             "series": [{"label": "logits to the loss", "x": epochs, "y": runs["logits"]["grad_norm"]},
                        {"label": "probabilities to the loss (gradient descent)", "x": epochs,
                         "y": runs["probs"]["grad_norm"], "width": 3.0}]},
        ],
        "sparkline": {"label": "loss per epoch, probabilities to the loss",
                      "values": runs["probs"]["loss"][:30]},
    }
