"""WR-220: learning rate too high -- the update step explodes.

A two-layer network (ReLU hidden layer, sigmoid output, cross-entropy loss,
gradients written out by the chain rule) of the kind written by hand in
module 2.2. At learning rate 10 every step overshoots; the loss climbs, turns
inf, then nan for good. The fix half trains the same seed at three rates,
shows a clipped display loss, and caps the gradient norm.

Run it: python snippets/wr220_lr_explosion.py
"""
# --8<-- [start:reproduce]
import numpy as np

SEED = 34
HIDDEN = 64


def make_data(seed=SEED, n=400):
    """Two overlapping Gaussian blobs in 2-D, labels 0 and 1."""
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n).astype(float)[:, None]
    X = rng.normal(scale=0.9, size=(n, 2)) + np.where(y == 1, 0.9, -0.9)
    return X, y


def init_params(seed=SEED + 1, hidden=HIDDEN):
    rng = np.random.default_rng(seed)
    W1 = rng.normal(size=(2, hidden)) * 0.5
    W2 = rng.normal(size=(hidden, 1)) * 0.01
    return {"W1": W1, "b1": np.zeros(hidden), "W2": W2, "b2": np.zeros(1)}


def sigmoid(z):
    return 1.0 / (1.0 + np.exp(-z))


def train(lr, epochs=30, seed=SEED, clip_norm=None, verbose=False):
    """Full-batch gradient descent; returns the per-epoch history."""
    X, y = make_data(seed)
    params = init_params(seed + 1)
    W1, b1, W2, b2 = params["W1"], params["b1"], params["W2"], params["b2"]
    n = len(X)
    sign = np.where(y == 1, 1.0, -1.0)  # +1 for label 1, -1 for label 0
    history = {"loss": [], "accuracy": [], "max_abs_W1": [], "grad_norm": []}
    for epoch in range(epochs):
        # forward pass
        h_pre = X @ W1 + b1
        h = np.maximum(h_pre, 0.0)
        z = h @ W2 + b2
        p_true = sigmoid(sign * z)           # probability given to the true label
        loss = -np.mean(np.log(p_true))      # cross-entropy, no clipping
        history["loss"].append(float(loss))
        history["accuracy"].append(float(np.mean((z > 0) == (y == 1))))
        history["max_abs_W1"].append(float(np.abs(W1).max()))
        if verbose:  # print as you go: the climb shows before the first inf
            print(f"epoch {epoch:2d}  loss {loss:10.4f}  accuracy {history['accuracy'][-1]:.3f}  "
                  f"max|W1| {history['max_abs_W1'][-1]:9.3g}")

        # backward pass, one chain-rule factor at a time
        dL_dp = -1.0 / p_true / n
        dp_dz = sign * p_true * (1.0 - p_true)
        dz = dL_dp * dp_dz
        grads = {"W2": h.T @ dz, "b2": dz.sum(axis=0)}
        dh_pre = (dz @ W2.T) * (h_pre > 0)
        grads["W1"] = X.T @ dh_pre
        grads["b1"] = dh_pre.sum(axis=0)

        norm = float(np.sqrt(sum(np.sum(g * g) for g in grads.values())))
        history["grad_norm"].append(norm)
        if clip_norm is not None and norm > clip_norm:
            grads = {k: g * (clip_norm / norm) for k, g in grads.items()}

        W1 -= lr * grads["W1"]
        b1 -= lr * grads["b1"]
        W2 -= lr * grads["W2"]
        b2 -= lr * grads["b2"]
    history["final_params"] = {"W1": W1, "b1": b1, "W2": W2, "b2": b2}
    return history
# --8<-- [end:reproduce]


# --8<-- [start:fix]
TRIPTYCH_RATES = (0.01, 1.0, 10.0)


def pick_rate(rates=TRIPTYCH_RATES, epochs=300, seed=SEED):
    """The triptych: same seed, three rates two orders of magnitude apart.

    Keep the rates whose loss stays finite and ends lower than it started,
    then take the one that ends lowest.
    """
    with np.errstate(all="ignore"):  # the rate-10 run is expected to blow up
        runs = {lr: train(lr, epochs, seed) for lr in rates}
    stable = [
        lr for lr, run in runs.items()
        if np.all(np.isfinite(run["loss"])) and run["loss"][-1] < run["loss"][0]
    ]
    best = min(stable, key=lambda lr: runs[lr]["loss"][-1])
    return best, runs


def display_loss(p, y, clip=True):
    """The usual two-term cross-entropy for printing; clipped keeps it finite."""
    if clip:
        p = np.clip(p, 1e-12, 1 - 1e-12)
    return float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)))
# --8<-- [end:fix]


def outputs_at(params, seed=SEED):
    """Sigmoid outputs of the network for the training inputs."""
    X, y = make_data(seed)
    h = np.maximum(X @ params["W1"] + params["b1"], 0.0)
    return sigmoid(h @ params["W2"] + params["b2"]), y


def figure_data():
    """Plain numbers for the page's picture: the triptych and the weights."""
    best, runs = pick_rate()
    with np.errstate(all="ignore"):
        blowup = train(10.0, epochs=12)
    loss10 = blowup["loss"]
    first_inf = next(i for i, v in enumerate(loss10) if not np.isfinite(v))
    epochs = list(range(1, 301))
    return {
        "alt": (f"Loss against epoch on log scales for learning rates 0.01, 1 and 10 on the same seed. "
                f"Rates 0.01 and 1 fall steadily (to {runs[0.01]['loss'][-1]:.2f} and "
                f"{runs[1.0]['loss'][-1]:.2f} after 300 epochs); rate 10 climbs from "
                f"{loss10[0]:.2f} to {loss10[first_inf - 1]:.1f} and is inf at epoch {first_inf}, nan after. "
                f"A second panel shows max |W1| at rate 10 growing from {blowup['max_abs_W1'][0]:.2f} "
                f"to {blowup['max_abs_W1'][first_inf]:.1f} by epoch {first_inf}, while rate 1 stays flat."),
        "caption": f"The triptych: three rates, same seed. Rate {best:g} is the one to keep.",
        "panels": [
            {
                "title": "Loss per epoch",
                "xlabel": "epoch (log scale)", "ylabel": "loss (log scale)",
                "xscale": "log", "yscale": "log",
                "series": [{"label": f"lr {lr:g}", "x": epochs, "y": runs[lr]["loss"]} for lr in TRIPTYCH_RATES],
                "vlines": [{"x": first_inf + 1, "label": f"lr 10: inf at epoch {first_inf}, nan after"}],
            },
            {
                "title": "max |W1| per epoch",
                "xlabel": "epoch", "ylabel": "max |W1| (log scale)", "yscale": "log",
                "series": [
                    {"label": "lr 10", "x": list(range(first_inf + 1)),
                     "y": blowup["max_abs_W1"][: first_inf + 1]},
                    {"label": "lr 1", "x": list(range(first_inf + 1)),
                     "y": runs[1.0]["max_abs_W1"][: first_inf + 1]},
                ],
            },
        ],
        "sparkline": {"label": "loss per epoch at lr 10", "values": loss10},
    }


def main():
    print("Learning rate 10, printing every epoch:")
    run = train(10.0, epochs=12, verbose=True)

    print("\nThe triptych, 300 epochs each:")
    best, runs = pick_rate()
    for lr, r in runs.items():
        print(f"lr {lr:5g}: loss {r['loss'][0]:.4f} -> {r['loss'][-1]:.4f}")
    print(f"stable rate picked: {best:g}")

    first_inf = next(i for i, v in enumerate(run["loss"]) if not np.isfinite(v))
    with np.errstate(all="ignore"):
        weights = train(10.0, epochs=first_inf)["final_params"]  # as they were at that epoch
        p, y = outputs_at(weights)
    print(f"\nDisplay loss on the saturated outputs of epoch {first_inf}:")
    print(f"raw     {display_loss(p, y, clip=False)}")
    print(f"clipped {display_loss(p, y, clip=True):.4f}")

    clipped = train(10.0, epochs=300, clip_norm=1.0)
    print(f"\nlr 10 with the gradient norm capped at 1.0: loss {clipped['loss'][0]:.4f} "
          f"-> {clipped['loss'][-1]:.4f}, all finite: {bool(np.all(np.isfinite(clipped['loss'])))}")


if __name__ == "__main__":
    main()
