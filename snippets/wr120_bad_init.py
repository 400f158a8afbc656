"""WR-120: bad initialisation -- the network is broken before the first update.

A 10-layer, 128-wide ReLU network whose weights are drawn with
rng.normal(size=...) -- standard deviation 1 -- multiplies the RMS of its
pre-activations by about sqrt(128 / 2) = 8 per layer, so the output logit is
in the hundreds of millions and the first loss is inf. With tanh the same
weights saturate the units and the backward signal grows layer after layer;
with sigmoid units even fan-in scaled weights make it shrink fourfold per
layer. Scaling the weights for the activation (He for ReLU, Glorot for tanh)
keeps both passes near 1 per layer, and the same network trains.

Run it: python snippets/wr120_bad_init.py
"""
# --8<-- [start:setup]
import numpy as np

SEED = 1
DEPTH, WIDTH = 10, 128          # hidden layers, units per hidden layer
SIZES = [2] + [WIDTH] * DEPTH + [1]


def make_data(seed=SEED, n=128):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n).astype(float)[:, None]
    X = rng.normal(size=(n, 2)) + np.where(y == 1, 1.0, -1.0)
    return X, y


def sigmoid(z):
    return 1.0 / (1.0 + np.exp(-z))


# Each activation with its slope, written in terms of z and h = f(z).
ACTIVATIONS = {
    "relu": (lambda z: np.maximum(z, 0.0), lambda z, h: (z > 0).astype(float)),
    "tanh": (np.tanh, lambda z, h: 1.0 - h ** 2),
    "sigmoid": (sigmoid, lambda z, h: h * (1.0 - h)),       # at most 0.25, at z = 0
}

# Standard deviation of a layer's weights, from its fan-in and fan-out.
SCALES = {
    "std1": lambda fan_in, fan_out: 1.0,                                 # rng.normal(size=...)
    "lecun": lambda fan_in, fan_out: np.sqrt(1.0 / fan_in),              # LeCun et al. 1998
    "glorot": lambda fan_in, fan_out: np.sqrt(2.0 / (fan_in + fan_out)),  # Glorot & Bengio 2010
    "he": lambda fan_in, fan_out: np.sqrt(2.0 / fan_in),                 # He et al. 2015, for ReLU
}


def init_params(scheme, sizes=SIZES, seed=SEED):
    """One (W, b) per layer; every scheme scales the same standard normal draws."""
    rng = np.random.default_rng(seed)
    return [(rng.normal(size=(fan_in, fan_out)) * SCALES[scheme](fan_in, fan_out), np.zeros(fan_out))
            for fan_in, fan_out in zip(sizes[:-1], sizes[1:])]


def forward(params, X, act="relu"):
    """Pre-activations of every layer, and the activations feeding each one."""
    f, _ = ACTIVATIONS[act]
    zs, hs = [], [X]
    for i, (W, b) in enumerate(params):
        zs.append(hs[-1] @ W + b)
        if i < len(params) - 1:
            hs.append(f(zs[-1]))
    return zs, hs


def layer_spread(params, X, act="relu"):
    """Root-mean-square size of each hidden layer's pre-activations."""
    zs, _ = forward(params, X, act)
    return np.array([np.sqrt(np.mean(z ** 2)) for z in zs[:-1]])


def loss_and_grads(params, X, y, act="relu"):
    """Cross-entropy, the gradient of every (W, b), and dL/dz of every layer."""
    _, slope = ACTIVATIONS[act]
    zs, hs = forward(params, X, act)
    sign = np.where(y == 1, 1.0, -1.0)
    p_true = sigmoid(sign * zs[-1])              # probability of the true label
    loss = -np.mean(np.log(p_true))
    dz = -(1.0 - p_true) * sign / len(X)
    grads, deltas = [None] * len(params), [None] * len(params)
    for i in reversed(range(len(params))):
        deltas[i] = dz
        grads[i] = (hs[i].T @ dz, dz.sum(axis=0))
        if i > 0:
            dz = (dz @ params[i][0].T) * slope(zs[i - 1], hs[i])
    return float(loss), grads, deltas


def backward_gain(params, X, y, act):
    """How much the backward signal (the RMS of dL/dz) grows from each hidden layer to
    the one below it -- above 1 it explodes towards the input, below 1 it vanishes --
    and the norms of the first and the output layer's weight gradients."""
    with np.errstate(over="ignore", divide="ignore"):
        _, grads, deltas = loss_and_grads(params, X, y, act)
    rms = np.array([np.sqrt(np.mean(d ** 2)) for d in deltas[:-1]])
    return rms[:-1] / rms[1:], float(np.linalg.norm(grads[0][0])), float(np.linalg.norm(grads[-1][0]))


def predicted_gain(params, X, act):
    """The same gain from the weights and the slopes alone (mean-field: Poole et al. 2016):
    sqrt(sigma_w^2 * fan_out * E[f'(z)^2]), layer by layer."""
    _, slope = ACTIVATIONS[act]
    zs, hs = forward(params, X, act)
    return np.array([np.sqrt(np.mean(params[i][0] ** 2) * params[i][0].shape[1]
                             * np.mean(slope(zs[i - 1], hs[i]) ** 2)) for i in range(1, len(params) - 1)])


def saturated(params, X, act, limit=0.99):
    """Share of hidden units within 1% of the ends of their range: (-1, 1) for tanh, (0, 1) for sigmoid."""
    _, hs = forward(params, X, act)
    low = -1.0 if act == "tanh" else 0.0
    return float(np.mean([np.mean((h > limit) | (h < low + (1 - limit))) for h in hs[1:]]))


def train(params, X, y, lr, epochs, act="relu", verbose=False):
    losses = []
    for epoch in range(epochs):
        loss, grads, _ = loss_and_grads(params, X, y, act)
        losses.append(loss)
        if verbose:
            print(f"epoch {epoch:2d}  loss {loss:.4f}")
        params = [(W - lr * gW, b - lr * gb) for (W, b), (gW, gb) in zip(params, grads)]
    return losses


def per_layer(gains):
    """The typical (geometric mean) factor per layer."""
    return float(np.exp(np.mean(np.log(gains))))


def show_backward(X, y, act, scheme):
    params = init_params(scheme)
    gains, first, last = backward_gain(params, X, y, act)
    pinned = "" if act == "relu" else f", {saturated(params, X, act):.0%} of units saturated"
    print(f"  {act} units, {scheme} weights: x{per_layer(gains):.2f} per layer "
          f"(predicted x{per_layer(predicted_gain(params, X, act)):.2f}){pinned}; "
          f"gradient norm {first:.3g} at the first layer, {last:.3g} at the output")
# --8<-- [end:setup]


# --8<-- [start:reproduce]
def growth_per_layer(spread):
    """Typical layer-to-layer ratio of the RMS (the first layer has fan-in 2, so skip it)."""
    return per_layer(spread[2:] / spread[1:-1])


if __name__ == "__main__":
    X, y = make_data()
    bad = init_params("std1")
    spread = layer_spread(bad, X)
    print(f"{DEPTH} ReLU layers of {WIDTH} units, weights from rng.normal(size=...) (std 1).")
    print("RMS pre-activation per layer at initialisation:", " ".join(f"{s:.3g}" for s in spread))
    print(f"growth x{growth_per_layer(spread):.2f} per layer; predicted sqrt({WIDTH} x 1 / 2) = "
          f"{np.sqrt(WIDTH / 2):.2f} (a ReLU keeps half of E[z^2])")
    print("\nLearning rate 0 -- no update at all -- and the loss is already broken:")
    train(bad, X, y, lr=0.0, epochs=3, verbose=True)     # NumPy warns: exp overflows, log(0)

    print("\nThe backward signal, from the output down to the first layer:")
    show_backward(X, y, "tanh", "std1")      # exploding: weights too big for tanh
    show_backward(X, y, "sigmoid", "lecun")  # vanishing: sigmoid's slope is at most 0.25
    wander = train(init_params("std1"), X, y, lr=0.01, epochs=12, act="tanh")
    print(f"tanh with std-1 weights, {len(wander)} epochs at lr 0.01: the loss went from {wander[0]:.2f} "
          f"to {wander[-1]:.2f} (guessing gives {np.log(2):.2f})")
# --8<-- [end:reproduce]


# --8<-- [start:fix]
SPREAD_BAND = (0.5, 2.0)        # what "near 1" means for the check below


def spread_is_healthy(params, X, act="relu", band=SPREAD_BAND):
    """Check at initialisation, before training: every layer's RMS inside the band."""
    spread = layer_spread(params, X, act)
    return bool(np.all((spread >= band[0]) & (spread <= band[1]))), spread


if __name__ == "__main__":
    X, y = make_data()
    he = init_params("he")                   # std sqrt(2 / fan_in) for ReLU
    ok, spread = spread_is_healthy(he, X)
    print(f"He weights, the same {DEPTH} ReLU layers; RMS pre-activation per layer:",
          " ".join(f"{s:.3g}" for s in spread))
    print(f"inside {SPREAD_BAND[0]}-{SPREAD_BAND[1]:g} at every layer: {ok}")
    print("\nThe backward signal, from the output down to the first layer:")
    show_backward(X, y, "relu", "he")
    show_backward(X, y, "tanh", "glorot")    # std sqrt(2 / (fan_in + fan_out)) for tanh
    print("\nHe weights, learning rate 0.05:")
    train(he, X, y, lr=0.05, epochs=15, verbose=True)
# --8<-- [end:fix]


def figure_data():
    """Plain numbers for the page's picture: the forward RMS per layer, and the backward gain."""
    X, y = make_data()
    layers = list(range(1, DEPTH + 1))
    bad, good = layer_spread(init_params("std1"), X), layer_spread(init_params("he"), X)
    backward = {}
    for act, scheme in (("tanh", "std1"), ("sigmoid", "lecun"), ("tanh", "glorot"), ("relu", "he")):
        with np.errstate(over="ignore", divide="ignore"):
            _, _, deltas = loss_and_grads(init_params(scheme), X, y, act)
        rms = [float(np.sqrt(np.mean(d ** 2))) for d in deltas[:-1]]
        backward[f"{act}, {scheme}"] = [r / rms[-1] for r in rms]
    ends = {k: v[0] for k, v in backward.items()}
    return {
        "alt": (f"Two panels. Left: RMS pre-activation per layer at initialisation, log scale, for a {DEPTH}-layer "
                f"ReLU network {WIDTH} units wide. With std-1 weights it climbs in a straight line from {bad[0]:.2f} "
                f"to {bad[-1]:.2e}; with He weights it stays between {good.min():.2f} and {good.max():.2f}. "
                f"Right: the backward signal per layer relative to the last hidden layer, log scale. At the first "
                f"layer it is {ends['tanh, std1']:.3g} times larger with tanh and std-1 weights, "
                f"{ends['sigmoid, lecun']:.2g} times with sigmoid and LeCun weights, and "
                f"{ends['tanh, glorot']:.2g} and {ends['relu, he']:.2g} with tanh and Glorot, ReLU and He."),
        "caption": "Before any update: the forward pass with std-1 weights against He, and the backward signal "
                   "exploding (tanh, std 1), vanishing (sigmoid) or held near 1 (Glorot, He).",
        "panels": [
            {
                "title": "ReLU: RMS pre-activation per layer",
                "xlabel": "layer", "ylabel": "RMS (log scale)", "yscale": "log",
                "series": [
                    {"label": "std-1 weights", "x": layers, "y": bad.tolist()},
                    {"label": "He weights", "x": layers, "y": good.tolist()},
                    {"label": f"predicted x{np.sqrt(WIDTH / 2):.0f} per layer", "style": "dashed",
                     "x": layers, "y": [bad[1] * np.sqrt(WIDTH / 2) ** (l - 2) for l in layers]},
                ],
            },
            {
                "title": "Backward signal per layer",
                "xlabel": "layer", "ylabel": "RMS of dL/dz, relative to layer 10 (log scale)", "yscale": "log",
                "series": [{"label": label, "x": layers, "y": values} for label, values in backward.items()],
            },
        ],
        "sparkline": {"label": "RMS pre-activation per layer, std-1 weights", "values": bad.tolist()},
    }
