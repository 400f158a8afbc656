"""WR-240: gradient clipping that does not clip.

WR-220's hand-written network at learning rate 10, now with its gradient norm
clipped at 100 -- and it explodes exactly as before. Every gradient norm the
run produces is far below 100, so not one step is clipped; the nan at the end
is not clipped either. Logging the norm and the share of clipped steps shows
it. The fix is not a tighter threshold on the same run (that clips nearly
every step: a rate cut in disguise) but a rate that trains, with the threshold
set from that run's own gradient norms, so that clipping catches only the
rare large batch.

Run it: python snippets/wr240_clipping_not_clipping.py
"""
# --8<-- [start:setup]
import numpy as np

SEED = 34


def make_data(seed=SEED, n=400):
    """Two overlapping Gaussian blobs in 2-D, labels 0 and 1 (WR-220's data)."""
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n).astype(float)[:, None]
    X = rng.normal(scale=0.9, size=(n, 2)) + np.where(y == 1, 0.9, -0.9)
    return X, y


def init_params(seed=SEED + 1, hidden=64):
    rng = np.random.default_rng(seed)
    return {"W1": rng.normal(size=(2, hidden)) * 0.5, "b1": np.zeros(hidden),
            "W2": rng.normal(size=(hidden, 1)) * 0.01, "b2": np.zeros(1)}


def loss_and_grads(p, X, y):
    """The loss and its gradient written out by the chain rule, as in WR-220."""
    sign = np.where(y == 1, 1.0, -1.0)
    h_pre = X @ p["W1"] + p["b1"]
    h = np.maximum(h_pre, 0.0)
    z = h @ p["W2"] + p["b2"]
    p_true = 1.0 / (1.0 + np.exp(-sign * z))
    loss = float(-np.mean(np.log(p_true)))
    dz = (-1.0 / p_true / len(X)) * (sign * p_true * (1.0 - p_true))
    dh = (dz @ p["W2"].T) * (h_pre > 0)
    return loss, {"W1": X.T @ dh, "b1": dh.sum(0), "W2": h.T @ dz, "b2": dz.sum(0)}


def clip_by_global_norm(grads, max_norm):
    """Scale all gradients together so that their joint norm is at most max_norm.
    Returns the clipped gradients, the norm before clipping, and whether it clipped."""
    norm = float(np.sqrt(sum(np.sum(g * g) for g in grads.values())))
    if norm > max_norm:                 # False for a nan norm: a nan goes through untouched
        return {k: g * (max_norm / norm) for k, g in grads.items()}, norm, True
    return grads, norm, False


def train(lr, epochs, max_norm=np.inf, batch=None, seed=SEED, verbose=False, every=1):
    """Gradient descent on the full batch (batch=None) or on shuffled mini-batches. Each epoch
    logs what a training loop prints: the mean of its steps' losses, the largest gradient
    norm among its steps, and how many of them were clipped."""
    X, y = make_data()
    params = init_params()
    order_rng = np.random.default_rng(seed + 2)
    history = {"loss": [], "grad_norm": [], "clipped": []}
    for epoch in range(epochs):
        order = order_rng.permutation(len(X)) if batch else np.arange(len(X))
        size = batch or len(X)
        losses, norms, clipped = [], [], []
        for start in range(0, len(X), size):
            rows = order[start:start + size]
            loss, grads = loss_and_grads(params, X[rows], y[rows])
            grads, norm, was_clipped = clip_by_global_norm(grads, max_norm)
            losses.append(loss)
            norms.append(norm)
            clipped.append(was_clipped)
            params = {k: params[k] - lr * grads[k] for k in params}
        history["loss"].append(float(np.mean(losses)))
        history["grad_norm"] += norms
        history["clipped"] += clipped
        if verbose and (epoch < 10 or epoch % every == 0 or epoch == epochs - 1):
            print(f"epoch {epoch:2d}  loss {history['loss'][-1]:9.4f}  grad_norm {max(norms):8.4g}  "
                  f"clip_at {max_norm:.4g}  clipped {sum(clipped)}/{len(clipped)}")
    return history
# --8<-- [end:setup]


# --8<-- [start:reproduce]
def first_nonfinite(values):
    return next((i for i, v in enumerate(values) if not np.isfinite(v)), None)


if __name__ == "__main__":
    print("Learning rate 10, full batch, global-norm clipping at 100:")
    run = train(lr=10.0, epochs=10, max_norm=100.0, verbose=True)
    t = first_nonfinite(run["loss"])
    before = run["grad_norm"][:t]
    print(f"\nsteps clipped before the loss turned non-finite (epoch {t}): {sum(run['clipped'][:t])} of {t}; "
          f"gradient norms {min(before):.3g} to {max(before):.4g}, threshold 100")
# --8<-- [end:reproduce]


# --8<-- [start:fix]
RATE, BATCH = 1.0, 20


def threshold_from(norms, percentile=90):
    """Clip just above the typical gradient norm of a healthy stretch of this run."""
    return float(np.percentile(norms, percentile))


if __name__ == "__main__":
    print(f"Rate 10 diverges whatever the threshold (WR-220). At rate {RATE}, in mini-batches of {BATCH}, the "
          "threshold comes from this run's own gradient norms:")
    healthy = train(lr=RATE, epochs=5, batch=BATCH)
    max_norm = threshold_from(healthy["grad_norm"])
    print(f"90th percentile of the gradient norm over the first 5 epochs: {max_norm:.3g}; clipping there:")
    run = train(lr=RATE, epochs=60, max_norm=max_norm, batch=BATCH, verbose=True, every=10)
    unclipped = train(lr=RATE, epochs=60, batch=BATCH)
    print(f"\nclipped {sum(run['clipped'])} of {len(run['clipped'])} steps "
          f"({sum(run['clipped']) / len(run['clipped']):.1%}); the same run without clipping ends at "
          f"{unclipped['loss'][-1]:.4f}, with it at {run['loss'][-1]:.4f}")
# --8<-- [end:fix]


def element_clipped_run(lr=10.0, epochs=10, clip_value=1.0):
    """Each gradient element clipped to [-clip_value, clip_value] (Keras `clipvalue`): the loss at
    the start of each epoch, as train() logs it, and the epochs at which that clip did anything."""
    X, y = make_data()
    params = init_params()
    losses, engaged = [], []
    for epoch in range(epochs):
        loss, grads = loss_and_grads(params, X, y)
        losses.append(loss)
        if any(np.any(np.abs(g) > clip_value) for g in grads.values()):
            engaged.append(epoch)
        params = {k: params[k] - lr * np.clip(g, -clip_value, clip_value) for k, g in grads.items()}
    return {"loss": losses, "engaged": engaged}


def figure_data():
    with np.errstate(all="ignore"):
        loose = train(lr=10.0, epochs=10, max_norm=100.0)
    healthy = train(lr=RATE, epochs=5, batch=BATCH)
    max_norm = threshold_from(healthy["grad_norm"])
    guarded = train(lr=RATE, epochs=60, max_norm=max_norm, batch=BATCH)
    t = first_nonfinite(loose["loss"])
    steps = list(range(len(guarded["grad_norm"])))
    return {
        "alt": (f"Two panels. Left: loss per epoch at learning rate 10 with clipping at 100, log scale; it climbs from "
                f"{loose['loss'][0]:.2f} to {loose['loss'][t - 1]:.1f} and is non-finite from epoch {t}, while "
                f"every gradient norm stays between {min(loose['grad_norm'][:t]):.2f} and "
                f"{max(loose['grad_norm'][:t]):.1f}, far below 100. Right: the gradient norm of every step at rate "
                f"{RATE} in mini-batches, against the threshold {max_norm:.2f} taken from its first 5 epochs; "
                f"{sum(guarded['clipped'])} of {len(steps)} steps reach it."),
        "caption": "A threshold above every gradient norm never acts; one set from the run's own norms acts rarely.",
        "panels": [
            {"title": "Rate 10, clip at 100", "xlabel": "epoch", "ylabel": "(log scale)", "yscale": "log",
             "series": [{"label": "loss", "x": list(range(10)), "y": loose["loss"]},
                        {"label": "gradient norm", "x": list(range(10)), "y": loose["grad_norm"]},
                        {"label": "threshold 100", "style": "dashed", "x": [0, 9], "y": [100.0, 100.0]}]},
            {"title": f"Rate {RATE}, mini-batches: gradient norm per step", "xlabel": "step",
             "ylabel": "norm (log scale)", "yscale": "log",
             "series": [{"label": "gradient norm", "x": steps, "y": guarded["grad_norm"], "width": 0.8},
                        {"label": f"threshold {max_norm:.2f}", "style": "dashed", "x": [0, steps[-1]],
                         "y": [max_norm, max_norm]}]},
        ],
        "sparkline": {"label": "loss per epoch, rate 10, clip at 100", "values": loose["loss"]},
    }
