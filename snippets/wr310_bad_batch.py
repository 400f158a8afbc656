"""WR-310: a bad batch -- one row of broken data turns the loss nan at one step.

Mini-batch gradient descent on a logistic regression. One row of the data
has a missing value that was read as nan (a sensor glitch, an empty CSV
cell). The loss falls normally, step after step, until the batch that holds
that row: its loss is nan, the update writes nan into the weights, and every
step after is nan. There is no climb first and NumPy prints no warning: nan
in the inputs spreads silently. Checking each batch finds the row; cleaning
and scaling the data when it is loaded fixes it.

Run it: python snippets/wr310_bad_batch.py
"""
# --8<-- [start:reproduce]
import numpy as np

SEED = 7
BAD_ROW = 300          # where the glitch sits in the file


def load_data(seed=SEED, n=512):
    """Two features on very different scales, and one row with a missing value."""
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n).astype(float)
    hours = rng.normal(np.where(y == 1, 6.0, 4.0), 1.0)          # a few units
    steps = rng.normal(np.where(y == 1, 9000.0, 7000.0), 1500.0)  # thousands
    X = np.stack([hours, steps], axis=1)
    X[BAD_ROW, 1] = np.nan                                        # the empty cell
    return X, y


def sigmoid(z):
    return 1.0 / (1.0 + np.exp(-z))


SCALE = np.array([5.0, 8000.0])   # typical size of each feature, known in advance


def train(X, y, lr=0.5, epochs=2, batch=32, seed=SEED, scale=SCALE, verbose=False):
    """Mini-batch SGD on features divided by a scale. scale=None uses the data's own
    mean and std -- which are nan as soon as one value is."""
    if scale is None:
        Xs = (X - X.mean(axis=0)) / X.std(axis=0)
    else:
        Xs = X / scale - 1.0
    rng = np.random.default_rng(seed)
    w, b = np.zeros(X.shape[1]), 0.0
    losses = []
    for epoch in range(epochs):
        order = rng.permutation(len(X))
        for start in range(0, len(X), batch):
            idx = order[start:start + batch]
            z = Xs[idx] @ w + b
            p = sigmoid(z)
            q = np.clip(p, 1e-12, 1 - 1e-12)               # a careful loss: no log(0)
            loss = float(-np.mean(y[idx] * np.log(q) + (1 - y[idx]) * np.log(1 - q)))
            losses.append(loss)
            if verbose:
                print(f"step {len(losses) - 1:3d}  loss {loss:.4f}")
            w = w - lr * Xs[idx].T @ (p - y[idx]) / len(idx)
            b = b - lr * float(np.mean(p - y[idx]))
    return {"loss": losses, "w": w, "b": b}
# --8<-- [end:reproduce]


# --8<-- [start:fix]
def check_batches(X, batch=32):
    """Which rows break which batch: non-finite values, or values far outside the rest."""
    finite = np.isfinite(X).all(axis=1)
    median = np.nanmedian(X, axis=0)
    spread = np.nanmedian(np.abs(X - median), axis=0) * 1.4826      # a robust std
    extreme = np.any(np.abs(X - median) > 10 * spread, axis=1) & finite
    bad = np.flatnonzero(~finite | extreme)
    return {"non_finite": np.flatnonzero(~finite).tolist(), "extreme": np.flatnonzero(extreme).tolist(),
            "bad_rows": bad.tolist()}


def clean(X, y):
    """At load time: drop rows that are not finite (or repair them), and say how many."""
    keep = np.isfinite(X).all(axis=1)
    print(f"dropped {int((~keep).sum())} row(s) with missing values: {np.flatnonzero(~keep).tolist()}")
    return X[keep], y[keep]
# --8<-- [end:fix]


def first_nonfinite(values):
    return next((i for i, v in enumerate(values) if not np.isfinite(v)), None)


def figure_data():
    X, y = load_data()
    bad = train(X, y)
    good = train(*_quiet_clean(X, y))
    steps = list(range(len(bad["loss"])))
    t = first_nonfinite(bad["loss"])
    return {
        "alt": (f"Loss per mini-batch step, log scale. With the raw data the loss falls from "
                f"{bad['loss'][0]:.3f} to {bad['loss'][t - 1]:.3f} and is nan from step {t} onwards, with no rise "
                f"before it. With the missing row dropped the same run keeps falling, to {good['loss'][-1]:.3f}."),
        "caption": "A bad batch: a normal descent, then nan at one step. Nothing climbs first.",
        "panels": [{
            "title": "Loss per step", "xlabel": "step (32 rows each)", "ylabel": "loss (log scale)",
            "yscale": "log",
            "series": [{"label": "raw data (one nan cell)", "x": steps, "y": bad["loss"], "width": 3.0},
                       {"label": "cleaned at load time", "x": list(range(len(good["loss"]))), "y": good["loss"]}],
            "vlines": [{"x": t, "label": f"nan from step {t}"}],
        }],
        "sparkline": {"label": "loss per step, raw data", "values": bad["loss"]},
    }


def _quiet_clean(X, y):
    keep = np.isfinite(X).all(axis=1)
    return X[keep], y[keep]


def main():
    X, y = load_data()
    print("Training on the data as loaded, loss per step:")
    run = train(X, y, verbose=True)
    t = first_nonfinite(run["loss"])
    print(f"\nThe loss is nan from step {t}; no warning was printed.")
    for lr in (0.5, 0.05):
        at_once = train(X, y, lr=lr, scale=None)
        print(f"Standardised with the data's own mean (nan): lr {lr:g} -> loss nan from step "
              f"{first_nonfinite(at_once['loss'])}")
    print("Checking the batches:", check_batches(X))
    print()
    Xc, yc = clean(X, y)
    fixed = train(Xc, yc)
    print(f"After cleaning: loss {fixed['loss'][0]:.4f} -> {fixed['loss'][-1]:.4f}, "
          f"all finite: {bool(np.all(np.isfinite(fixed['loss'])))}")


if __name__ == "__main__":
    main()
