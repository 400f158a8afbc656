"""WR-120: the forward pass explodes from bad initialisation.

A 10-layer, 128-wide ReLU network whose weights are drawn with
rng.normal(size=...) -- standard deviation 1 -- is broken before the first
update: each layer multiplies the activation scale by about sqrt(128 / 2) = 8,
and the output logit is in the hundreds of millions. Scaling the weights by
fan-in (He for ReLU, Xavier/Glorot for tanh and sigmoid) keeps every layer's
spread near 1, and the same network trains.

Run it: python snippets/wr120_bad_init.py
"""
# --8<-- [start:reproduce]
import numpy as np

SEED = 1
DEPTH, WIDTH = 10, 128          # hidden layers, units per hidden layer
SIZES = [2] + [WIDTH] * DEPTH + [1]


def make_data(seed=SEED, n=256):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n).astype(float)[:, None]
    X = rng.normal(size=(n, 2)) + np.where(y == 1, 1.0, -1.0)
    return X, y


def sigmoid(z):
    return 1.0 / (1.0 + np.exp(-z))


def init_params(scheme, sizes=SIZES, seed=SEED):
    """One (W, b) per layer. 'std1' is what rng.normal(size=...) gives you."""
    rng = np.random.default_rng(seed)
    params = []
    for fan_in, fan_out in zip(sizes[:-1], sizes[1:]):
        W = rng.normal(size=(fan_in, fan_out))                  # std 1
        if scheme == "he":
            W *= np.sqrt(2.0 / fan_in)                          # for ReLU
        elif scheme == "xavier":
            W *= np.sqrt(1.0 / fan_in)                          # for tanh, sigmoid
        params.append((W, np.zeros(fan_out)))
    return params


def forward(params, X, act=lambda z: np.maximum(z, 0.0)):
    """Pre-activations of every layer and the activations feeding each one."""
    zs, hs = [], [X]
    for i, (W, b) in enumerate(params):
        zs.append(hs[-1] @ W + b)
        if i < len(params) - 1:
            hs.append(act(zs[-1]))
    return zs, hs


def layer_spread(params, X, act=lambda z: np.maximum(z, 0.0)):
    """Root-mean-square size of each hidden layer's pre-activations."""
    zs, _ = forward(params, X, act)
    return np.array([np.sqrt(np.mean(z ** 2)) for z in zs[:-1]])


def loss_and_grads(params, X, y, act="relu"):
    f, df = ((lambda z: np.maximum(z, 0.0), lambda z, h: (z > 0).astype(float))
             if act == "relu" else (np.tanh, lambda z, h: 1.0 - h ** 2))
    zs, hs = forward(params, X, f)
    sign = np.where(y == 1, 1.0, -1.0)
    p_true = sigmoid(sign * zs[-1])              # probability of the true label
    loss = -np.mean(np.log(p_true))
    dz = -(1.0 - p_true) * sign / len(X)
    grads = [None] * len(params)
    for i in reversed(range(len(params))):
        grads[i] = (hs[i].T @ dz, dz.sum(axis=0))
        if i > 0:
            dz = (dz @ params[i][0].T) * df(zs[i - 1], hs[i])
    return float(loss), grads


def train(params, X, y, lr, epochs, act="relu", verbose=False):
    losses = []
    for epoch in range(epochs):
        loss, grads = loss_and_grads(params, X, y, act)
        losses.append(loss)
        if verbose:
            print(f"epoch {epoch:2d}  loss {loss:.4f}")
        params = [(W - lr * gW, b - lr * gb) for (W, b), (gW, gb) in zip(params, grads)]
    return losses
# --8<-- [end:reproduce]


# --8<-- [start:fix]
SPREAD_BAND = (0.5, 2.0)        # what "near 1" means for the check below


def spread_is_healthy(params, X, act=lambda z: np.maximum(z, 0.0), band=SPREAD_BAND):
    """Check at initialisation, before training: every layer inside the band."""
    spread = layer_spread(params, X, act)
    return bool(np.all((spread >= band[0]) & (spread <= band[1]))), spread
# --8<-- [end:fix]


def growth_per_layer(spread):
    """Geometric mean of the layer-to-layer ratio (the first layer has fan-in 2)."""
    ratios = spread[2:] / spread[1:-1]
    return float(np.exp(np.mean(np.log(ratios))))


def predicted_growth(fan_in=WIDTH, std=1.0, relu=True):
    return float(np.sqrt(fan_in / 2 if relu else fan_in) * std)


def saturation(params, X, limit=0.99):
    """Share of tanh units pinned near +-1, per hidden layer."""
    _, hs = forward(params, X, np.tanh)
    return np.array([np.mean(np.abs(h) > limit) for h in hs[1:]])


def first_layer_grad_norm(params, X, y, act):
    with np.errstate(all="ignore"):
        _, grads = loss_and_grads(params, X, y, act)
    return float(np.linalg.norm(grads[0][0]))


def tanh_face(lr=0.01, epochs=20, seed=SEED):
    """Std-1 against Xavier weights in the same network with tanh units."""
    X, y = make_data(seed)
    result = {}
    for scheme in ("std1", "xavier"):
        params = init_params(scheme, seed=seed)
        with np.errstate(all="ignore"):
            losses = train(params, X, y, lr, epochs, act="tanh")
        result[scheme] = {
            "saturated": saturation(params, X),
            "grad_norm": first_layer_grad_norm(params, X, y, "tanh"),
            "loss": losses,
        }
    return result


def figure_data():
    """Plain numbers for the page's picture: spread per layer, and tanh saturation."""
    X, _ = make_data()
    layers = list(range(1, DEPTH + 1))
    bad, good = layer_spread(init_params("std1"), X), layer_spread(init_params("he"), X)
    face = tanh_face()
    return {
        "alt": (f"RMS pre-activation per layer at initialisation, log scale, for a {DEPTH}-layer ReLU network "
                f"{WIDTH} units wide. With std-1 weights it climbs in a straight line from {bad[0]:.2f} to "
                f"{bad[-1]:.2e}; with He weights it stays between {good.min():.2f} and {good.max():.2f}. "
                f"A second panel shows the share of tanh units pinned beyond 0.99 per layer: about "
                f"{face['std1']['saturated'][1:].mean():.0%} with std-1 weights, under "
                f"{max(face['xavier']['saturated'][1:].max(), 0.01):.0%} with Xavier weights."),
        "caption": "Activation spread at initialisation, before any update: std-1 weights against fan-in scaling.",
        "panels": [
            {
                "title": "ReLU: RMS pre-activation per layer",
                "xlabel": "layer", "ylabel": "RMS (log scale)", "yscale": "log",
                "series": [
                    {"label": "std-1 weights", "x": layers, "y": bad.tolist()},
                    {"label": "He weights", "x": layers, "y": good.tolist()},
                    {"label": f"predicted x{predicted_growth():.0f} per layer", "style": "dashed",
                     "x": layers, "y": [bad[1] * predicted_growth() ** (l - 2) for l in layers]},
                ],
            },
            {
                "title": "tanh: share of units pinned",
                "xlabel": "layer", "ylabel": "share with |h| > 0.99",
                "series": [
                    {"label": "std-1 weights", "x": layers, "y": face["std1"]["saturated"].tolist()},
                    {"label": "Xavier weights", "x": layers, "y": face["xavier"]["saturated"].tolist()},
                ],
            },
        ],
        "sparkline": {"label": "RMS pre-activation per layer, std-1 weights", "values": bad.tolist()},
    }


def main():
    X, y = make_data()
    bad, good = init_params("std1"), init_params("he")
    bad_spread = layer_spread(bad, X)
    print(f"{DEPTH} ReLU layers of {WIDTH} units, RMS pre-activation per layer at initialisation:")
    print("  std-1 weights:", " ".join(f"{s:.3g}" for s in bad_spread))
    print("  He weights:   ", " ".join(f"{s:.3g}" for s in layer_spread(good, X)))
    print(f"  growth per layer with std-1 weights: x{growth_per_layer(bad_spread):.2f} "
          f"(predicted sqrt({WIDTH}/2) = {predicted_growth():.2f})")

    lr0 = train(bad, X, y, lr=0.0, epochs=3)   # NumPy warns here: exp overflows, log(0)
    print(f"\nLearning rate 0 (no update at all), std-1 weights: loss {lr0}")
    healthy = train(good, X, y, lr=0.1, epochs=30)
    print(f"He weights, learning rate 0.1: loss {healthy[0]:.4f} -> {healthy[-1]:.4f} in 30 epochs")
    ok, _ = spread_is_healthy(good, X)
    print(f"spread_is_healthy(He) = {ok}, spread_is_healthy(std-1) = {spread_is_healthy(bad, X)[0]}")

    print("\nThe tanh face (same shapes, learning rate 0.01, 20 epochs):")
    for scheme, r in tanh_face().items():
        print(f"  {scheme:6s}: {r['saturated'].mean():.0%} of units pinned beyond |h| > 0.99, "
              f"first-layer gradient norm {r['grad_norm']:.3g}, "
              f"loss {r['loss'][0]:.2f} -> {r['loss'][-1]:.2f}")


if __name__ == "__main__":
    main()
