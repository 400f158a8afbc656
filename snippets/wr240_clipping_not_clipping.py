"""WR-240: gradient clipping that does not clip.

WR-220's network at learning rate 10, now with gradient clipping -- and it
still explodes, exactly as before. The threshold (100) is far above the
gradient norms the run ever sees (about 1), so no step is ever clipped until
it is too late. Clipping each element instead of the global norm fails too.
Logging the gradient norm and the share of clipped steps shows it; a
threshold near the typical norm (its 90th percentile over a healthy stretch)
keeps the same run finite.

Run it: python snippets/wr240_clipping_not_clipping.py
"""
# --8<-- [start:reproduce]
import numpy as np

SEED = 34


def make_data(seed=SEED, n=400):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n).astype(float)[:, None]
    X = rng.normal(scale=0.9, size=(n, 2)) + np.where(y == 1, 0.9, -0.9)
    return X, y


def init_params(seed=SEED + 1, hidden=64):
    rng = np.random.default_rng(seed)
    return {"W1": rng.normal(size=(2, hidden)) * 0.5, "b1": np.zeros(hidden),
            "W2": rng.normal(size=(hidden, 1)) * 0.01, "b2": np.zeros(1)}


def loss_and_grads(p, X, y):
    sign = np.where(y == 1, 1.0, -1.0)
    h_pre = X @ p["W1"] + p["b1"]
    h = np.maximum(h_pre, 0.0)
    z = h @ p["W2"] + p["b2"]
    p_true = 1.0 / (1.0 + np.exp(-sign * z))
    loss = float(-np.mean(np.log(p_true)))
    dz = (-1.0 / p_true / len(X)) * (sign * p_true * (1.0 - p_true))   # the chain rule, as in WR-220
    dh = (dz @ p["W2"].T) * (h_pre > 0)
    return loss, {"W1": X.T @ dh, "b1": dh.sum(0), "W2": h.T @ dz, "b2": dz.sum(0)}


def train(lr=10.0, epochs=30, clip=100.0, mode="global", verbose=False):
    """mode 'global' scales the whole gradient to norm <= clip; 'element' clips each entry to [-clip, clip]."""
    X, y = make_data()
    params = init_params()
    history = {"loss": [], "grad_norm": [], "clipped": []}
    for epoch in range(epochs):
        loss, grads = loss_and_grads(params, X, y)
        norm = float(np.sqrt(sum(np.sum(g * g) for g in grads.values())))
        if mode == "global":
            clipped = norm > clip
            if clipped:
                grads = {k: g * (clip / norm) for k, g in grads.items()}
        else:
            clipped = any(np.any(np.abs(g) > clip) for g in grads.values())
            grads = {k: np.clip(g, -clip, clip) for k, g in grads.items()}
        history["loss"].append(loss)
        history["grad_norm"].append(norm)
        history["clipped"].append(bool(clipped))
        if verbose:
            print(f"epoch {epoch:2d}  loss {loss:10.4f}  grad_norm {norm:9.4g}  clip_at {clip:g}  "
                  f"clipped {'yes' if clipped else 'no'}")
        params = {k: params[k] - lr * grads[k] for k in params}
    return history
# --8<-- [end:reproduce]


# --8<-- [start:fix]
def threshold_from_healthy_stretch(lr=1.0, epochs=50, percentile=90):
    """Run a short stretch at a rate known to be safe and clip near its typical gradient norm."""
    healthy = train(lr=lr, epochs=epochs, clip=np.inf)
    return float(np.percentile(healthy["grad_norm"], percentile))


def clipped_share(history):
    """The share of steps that were actually clipped: near 0 means the clipping is decoration."""
    return sum(history["clipped"]) / len(history["clipped"])
# --8<-- [end:fix]


def first_nonfinite(values):
    return next((i for i, v in enumerate(values) if not np.isfinite(v)), None)


def figure_data():
    with np.errstate(all="ignore"):
        loose = train(epochs=12)
        element = train(epochs=12, clip=1.0, mode="element")
    clip = threshold_from_healthy_stretch()
    tight = train(epochs=300, clip=clip)
    t = first_nonfinite(loose["loss"])
    epochs = list(range(12))
    return {
        "alt": (f"Two panels for learning rate 10. Left, loss per epoch on a log scale: clipping at 100 and "
                f"clipping each element at 1 both climb and turn non-finite (from epoch {t}), while clipping the "
                f"global norm at {clip:.3g} keeps falling. Right, the gradient norm per epoch against the "
                f"threshold of 100: the norm stays between {min(loose['grad_norm'][:t]):.2f} and "
                f"{max(loose['grad_norm'][:t]):.1f}, far below it."),
        "caption": "A clipping threshold the gradient never reaches does nothing.",
        "panels": [
            {"title": "Loss per epoch", "xlabel": "epoch", "ylabel": "loss (log scale)", "yscale": "log",
             "series": [{"label": "global norm, clip at 100", "x": epochs, "y": loose["loss"], "width": 4.0},
                        {"label": "each element, clip at 1", "x": epochs, "y": element["loss"]},
                        {"label": f"global norm, clip at {clip:.3g}", "x": epochs, "y": tight["loss"][:12]}]},
            {"title": "Gradient norm per epoch", "xlabel": "epoch", "ylabel": "norm (log scale)", "yscale": "log",
             "series": [{"label": "gradient norm, clip at 100", "x": epochs, "y": loose["grad_norm"]},
                        {"label": "threshold 100", "style": "dashed", "x": epochs, "y": [100.0] * 12}]},
        ],
        "sparkline": {"label": "loss per epoch with clip at 100", "values": loose["loss"]},
    }


def main():
    print("Learning rate 10, global-norm clipping at 100:")
    loose = train(epochs=12, verbose=True)
    t = first_nonfinite(loose["loss"])
    print(f"\nSteps clipped before the blow-up at epoch {t}: {sum(loose['clipped'][:t])} of {t}")
    with np.errstate(all="ignore"):
        element = train(epochs=12, clip=1.0, mode="element")
    print(f"Element-wise clipping at 1: loss non-finite from epoch {first_nonfinite(element['loss'])}")
    clip = threshold_from_healthy_stretch()
    tight = train(epochs=300, clip=clip)
    print(f"\nThreshold from a healthy stretch (90th percentile of the gradient norm at lr 1): {clip:.4f}")
    print(f"Clipping at it, lr 10: loss {tight['loss'][0]:.4f} -> {tight['loss'][-1]:.4f}, "
          f"all finite: {bool(np.all(np.isfinite(tight['loss'])))}, clipped share {clipped_share(tight):.2f}")


if __name__ == "__main__":
    main()
