"""WR-140: dead ReLUs.

A network with two hidden layers of 16 ReLU units learns whether a point lies
inside a circle, by full-batch gradient descent with the loss computed from
the logits. At rate 5 -- five times a rate that trains it well -- some steps
overshoot, and each large step pushes units below zero for every training
example. Such a unit outputs 0 and passes back a gradient of exactly 0, so
nothing can turn it on again from where it sits. When the whole second layer
has died the output no longer depends on the input: the loss stops at the
entropy of the labels, far above where a healthy run goes, and stays there.
The Fix tab lowers the rate; leaky ReLU and the initial scale are compared.

Run it: python snippets/wr140_dead_relus.py
"""
# --8<-- [start:setup]
import numpy as np

HIDDEN = 16
SEED = 0
SHOWN = 60        # epochs printed; every run trains for EPOCHS
EPOCHS = 300


def make_data(seed=SEED, n=256):
    """Points in the square [-1, 1]^2, label 1 inside the circle of radius sqrt(0.5)."""
    rng = np.random.default_rng(seed)
    X = rng.uniform(-1.0, 1.0, size=(n, 2))
    return X, (np.sum(X * X, axis=1) < 0.5).astype(float)[:, None]


def init_params(seed=SEED + 1, scale=1.0):
    """He initialisation (std sqrt(2 / fan_in)) for the ReLU layers, times `scale`;
    biases 0; the output layer std sqrt(1 / fan_in)."""
    rng = np.random.default_rng(seed)
    return {"W1": rng.normal(size=(2, HIDDEN)) * np.sqrt(2 / 2) * scale, "b1": np.zeros(HIDDEN),
            "W2": rng.normal(size=(HIDDEN, HIDDEN)) * np.sqrt(2 / HIDDEN) * scale, "b2": np.zeros(HIDDEN),
            "W3": rng.normal(size=(HIDDEN, 1)) * np.sqrt(1 / HIDDEN), "b3": np.zeros(1)}


def forward(params, X, slope=0.0):
    """Pre-activations of both hidden layers, their outputs, and the logits.
    slope 0 is ReLU; a small positive slope is leaky ReLU."""
    z1 = X @ params["W1"] + params["b1"]
    h1 = np.maximum(z1, slope * z1) if slope else np.maximum(z1, 0.0)
    z2 = h1 @ params["W2"] + params["b2"]
    h2 = np.maximum(z2, slope * z2) if slope else np.maximum(z2, 0.0)
    return z1, h1, z2, h2, h2 @ params["W3"] + params["b3"]


def dead(z):
    """Units whose pre-activation is <= 0 for every example: ReLU outputs 0 and passes back 0."""
    return z.max(axis=0) <= 0


def firing_rate(z):
    """Per unit, the share of examples on which its pre-activation is above 0. A dead unit's is exactly 0;
    a healthy ReLU unit's is rarely near 1, so most raw activations are 0 in a healthy layer too."""
    return np.mean(z > 0, axis=0)


def gradients(params, X, y, slope=0.0):
    """The loss, log(1 + e^z) - y z averaged over the examples, and its gradients."""
    z1, h1, z2, h2, z = forward(params, X, slope)
    n = len(X)
    softplus = np.logaddexp(0.0, z)                             # log(1 + e^z), without overflow
    loss = float(np.mean(softplus - y * z))
    dz = (np.exp(z - softplus) - y) / n                         # sigmoid(z) - y
    d2 = (dz @ params["W3"].T) * np.where(z2 > 0, 1.0, slope)    # the slope of the activation: 1 or `slope`
    d1 = (d2 @ params["W2"].T) * np.where(z1 > 0, 1.0, slope)
    grads = {"W3": h2.T @ dz, "b3": dz.sum(axis=0), "W2": h1.T @ d2, "b2": d2.sum(axis=0),
             "W1": X.T @ d1, "b1": d1.sum(axis=0)}
    return loss, grads, (z1, z2)


def train(lr, epochs=EPOCHS, seed=SEED, scale=1.0, slope=0.0, shown=0):
    """Full-batch gradient descent. Records per epoch the loss, the dead units of each
    layer and the size of the step taken, and prints the first `shown` epochs."""
    X, y = make_data(seed)
    params = init_params(seed + 1, scale)
    history = {"loss": [], "dead1": [], "dead2": [], "step": []}
    for epoch in range(epochs):
        loss, grads, (z1, z2) = gradients(params, X, y, slope)
        history["loss"].append(loss)
        history["dead1"].append(int(np.count_nonzero(dead(z1))))
        history["dead2"].append(int(np.count_nonzero(dead(z2))))
        history["step"].append(lr * float(np.sqrt(sum(np.vdot(g, g) for g in grads.values()))))
        if epoch < shown:
            print(f"epoch {epoch:2d}  loss {loss:.4f}  dead units: layer 1 {history['dead1'][-1]:2d}, "
                  f"layer 2 {history['dead2'][-1]:2d}")
        for k in params:
            params[k] -= lr * grads[k]
    history["params"] = params
    return history


def label_entropy(y):
    """The lowest loss a network whose output ignores its input can reach: predict the
    share of label 1 for every example."""
    q = float(y.mean())
    return -(q * np.log(q) + (1 - q) * np.log(1 - q))
# --8<-- [end:setup]


# --8<-- [start:reproduce]
if __name__ == "__main__":
    print(f"Rate 5, two hidden layers of {HIDDEN} ReLUs; dead units (off for every example), of {HIDDEN} per layer:")
    run = train(5.0, shown=SHOWN)
    X, y = make_data()
    z1, _, z2, _, z = forward(run["params"], X)
    last = len(run["loss"]) - 1
    print(f"\nAt epoch {last}: layer 1 has {run['dead1'][-1]} of {HIDDEN} units dead "
          f"({run['dead1'][-1] / HIDDEN:.1%}), layer 2 {run['dead2'][-1]} of {HIDDEN} "
          f"({run['dead2'][-1] / HIDDEN:.1%}); the value is still {run['loss'][-1]:.4f}.")
    print(f"Every example now gets the same logit ({len(np.unique(z))} distinct value), p = "
          f"{1 / (1 + np.exp(-z[0, 0])):.3f}; the share of label 1 is {y.mean():.3f}, and the entropy of the "
          f"labels, the least a constant can cost, is {label_entropy(y):.4f}.")
    frozen = run["dead2"].index(HIDDEN)                   # the first epoch with all of layer 2 dead
    big = sorted(sorted(range(frozen), key=lambda t: run["step"][t])[-3:])
    total = [a + b for a, b in zip(run["dead1"], run["dead2"])]
    print(f"Layer 2 is all dead from epoch {frozen}. Before that the median step was "
          f"{np.median(run['step'][:frozen]):.2f}; each of the three largest switched units off:")
    for t in big:
        print(f"  the step of size {run['step'][t]:.2f} after epoch {t}: dead units {total[t]} -> {total[t + 1]}")
# --8<-- [end:reproduce]


# --8<-- [start:fix]
if __name__ == "__main__":
    print(f"Rate 1 instead of 5; dead units (off for every example), of {HIDDEN} per layer:")
    run = train(1.0, shown=SHOWN)
    print(f"\nAt epoch {len(run['loss']) - 1}: {run['loss'][-1]:.4f}; dead units: layer 1 {run['dead1'][-1]}, "
          f"layer 2 {run['dead2'][-1]}.")

    leaky = train(5.0, slope=0.01)
    print(f"Insurance, not a cure: leaky ReLU (slope 0.01) at rate 5 passes 1% of the gradient through a unit "
          f"that is off, and ends at {leaky['loss'][-1]:.4f}, not at the labels' entropy "
          f"{label_entropy(make_data()[1]):.4f} where ReLU stops.")

    print("The initial scale sets how large a rate the units survive (rate 3, same seed, at epoch "
          f"{EPOCHS - 1}):")
    for scale, name in ((1.0, "He init"), (0.1, "He init x 0.1"), (3.0, "He init x 3")):
        r = train(3.0, scale=scale)
        print(f"  {name:14s} ends at {r['loss'][-1]:.4f}, dead units: layer 1 {r['dead1'][-1]}, "
              f"layer 2 {r['dead2'][-1]}")
# --8<-- [end:fix]


def figure_data():
    relu = train(5.0)
    healthy = train(1.0)
    leaky = train(5.0, slope=0.01)
    epochs = list(range(EPOCHS))
    X, y = make_data()
    level = label_entropy(y)
    frozen = next(t for t, d in enumerate(relu["dead2"]) if d == HIDDEN)
    return {
        "alt": (f"Two panels. Left: the loss per epoch over {EPOCHS} epochs, log scale. At rate 5 with ReLU it "
                f"falls, spikes three times, and from epoch {frozen} sits at {relu['loss'][-1]:.4f}, the entropy "
                f"of the labels; at rate 1 it still spikes now and then, with no unit dying, and falls to "
                f"{healthy['loss'][-1]:.4f}; leaky ReLU at rate 5 keeps "
                f"falling, to {leaky['loss'][-1]:.4f}. Right: the dead units of each layer per epoch at rate 5, "
                f"rising in steps to {relu['dead1'][-1]} of {HIDDEN} in layer 1 and all {HIDDEN} in layer 2."),
        "caption": "Each overshooting step switches off units for good; once a whole layer is off, nothing learns.",
        "panels": [
            {"title": "Loss per epoch", "xlabel": "epoch", "ylabel": "loss (log scale)", "yscale": "log",
             "series": [{"label": "ReLU, rate 5", "x": epochs, "y": relu["loss"], "width": 3.0},
                        {"label": "ReLU, rate 1", "x": epochs, "y": healthy["loss"]},
                        {"label": "leaky ReLU (slope 0.01), rate 5", "x": epochs, "y": leaky["loss"]},
                        {"label": f"entropy of the labels, {level:.4f}", "style": "dashed",
                         "x": [0, EPOCHS - 1], "y": [level, level]}],
             "vlines": [{"x": frozen, "label": f"layer 2 all dead from epoch {frozen}"}]},
            {"title": "Dead units at rate 5", "xlabel": "epoch", "ylabel": f"dead units (of {HIDDEN})",
             "series": [{"label": "layer 1", "x": epochs[:SHOWN], "y": relu["dead1"][:SHOWN]},
                        {"label": "layer 2", "x": epochs[:SHOWN], "y": relu["dead2"][:SHOWN]}]},
        ],
        "sparkline": {"label": "loss per epoch at rate 5", "values": relu["loss"][:SHOWN]},
    }


def sweep(lr, scale=1.0, seeds=range(10)):
    """Ten seeds at one rate and initial scale: the final loss and the dead units of each run."""
    runs = [train(lr, seed=seed, scale=scale) for seed in seeds]
    return {"final": [r["loss"][-1] for r in runs], "dead": [r["dead1"][-1] + r["dead2"][-1] for r in runs],
            "layer2_dead": [r["dead2"][-1] == HIDDEN for r in runs]}
