"""WR-310: a bad batch -- one row of broken data wrecks the run at one step.

Mini-batch gradient descent on a logistic regression. One row of the file is
broken: a missing value read as nan (an empty CSV cell), or in the other
version of the file, a value recorded in the wrong units (x1000). The loss
falls normally until the step whose batch holds that row; then it is nan for
good (silently), or it jumps and stays high. Checking the data when it is
loaded, scaling with statistics from the clean training split, and guarding
each batch fixes it.

Run it: python snippets/wr310_bad_batch.py
"""
# --8<-- [start:setup]
import numpy as np

SEED = 7
BATCH = 32
SCALE = np.array([5.0, 8000.0])   # typical size of each feature, known in advance


def load_data(glitch="missing", seed=SEED, n=512):
    """Hours of sleep and steps walked, and a label; one row broken the way `glitch` says:
    "missing": row 300's step count is an empty cell, read as nan;
    "units":   row 10's step count was recorded x1000 (wrong units);
    None:      no broken row."""
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n).astype(float)
    hours = rng.normal(np.where(y == 1, 6.0, 4.0), 1.0)          # a few units
    steps = rng.normal(np.where(y == 1, 9000.0, 7000.0), 1500.0)  # thousands
    X = np.stack([hours, steps], axis=1)
    if glitch == "missing":
        X[300, 1] = np.nan
    elif glitch == "units":
        X[10, 1] *= 1000
    return X, y


def sigmoid(z):
    return 1.0 / (1.0 + np.exp(-z))


def train(Xs, y, lr=0.5, epochs=2, batch=BATCH, seed=SEED, verbose=False, guard=None):
    """Mini-batch SGD on already scaled features; the loss of every step, in order.
    `guard(step, rows, batch_of_X)` is called on each batch before it is used."""
    rng = np.random.default_rng(seed)
    w, b = np.zeros(Xs.shape[1]), 0.0
    losses = []
    for epoch in range(epochs):
        order = rng.permutation(len(Xs))
        for start in range(0, len(Xs), batch):
            idx = order[start:start + batch]
            if guard is not None:
                guard(len(losses), idx, Xs[idx])
            p = sigmoid(Xs[idx] @ w + b)
            # A careful loss: the clip keeps log() away from 0 in float64. It does nothing
            # for a nan, and in float32 1 - 1e-12 rounds to 1.0: eps must exceed the
            # dtype's resolution there (Keras uses 1e-7).
            q = np.clip(p, 1e-12, 1 - 1e-12)
            loss = float(-np.mean(y[idx] * np.log(q) + (1 - y[idx]) * np.log(1 - q)))
            losses.append(loss)
            if verbose:
                print(f"step {len(losses) - 1:3d}  loss {loss:.4f}")
            w = w - lr * Xs[idx].T @ (p - y[idx]) / len(idx)
            b = b - lr * float(np.mean(p - y[idx]))
    return losses


def first_nonfinite(values):
    return next((i for i, v in enumerate(values) if not np.isfinite(v)), None)
# --8<-- [end:setup]


# --8<-- [start:reproduce]
# --8<-- [start:confirm]
def bad_batches(X, batch=BATCH, seed=SEED, epochs=2, limit=10.0):
    """Replay the loader's shuffled order and check every batch. Returns (step, rows)
    for each batch that holds a value that is not finite, or a value more than `limit`
    robust standard deviations (1.4826 x the median absolute deviation) from its
    column's median."""
    median = np.nanmedian(X, axis=0)
    robust_std = 1.4826 * np.nanmedian(np.abs(X - median), axis=0)
    broken = ~np.isfinite(X).all(axis=1) | np.any(np.abs(X - median) > limit * robust_std, axis=1)
    rng = np.random.default_rng(seed)            # the same order train() draws
    found, step = [], 0
    for epoch in range(epochs):
        order = rng.permutation(len(X))
        for start in range(0, len(X), batch):
            rows = order[start:start + batch]
            if broken[rows].any():
                found.append((step, sorted(rows[broken[rows]].tolist())))
            step += 1
    return found
# --8<-- [end:confirm]


if __name__ == "__main__":
    X, y = load_data("missing")
    print("The data as loaded (one empty cell, read as nan), scaled by typical sizes; loss per step:")
    losses = train(X / SCALE - 1.0, y, verbose=True)
    t = first_nonfinite(losses)
    print(f"\nThe loss is nan from step {t}; no warning was printed.")
    for lr in (0.5, 0.05):
        print(f"  at lr {lr:g}: nan from step {first_nonfinite(train(X / SCALE - 1.0, y, lr=lr))}")
    own = (X - X.mean(axis=0)) / X.std(axis=0)    # the column's own mean and std are nan
    print(f"Standardised with the data's own mean and std: nan from step {first_nonfinite(train(own, y))}")
    print("Which batches hold a broken row (step, rows):", bad_batches(X))

    X, y = load_data("units")
    print("\nThe other file: row 10's step count in the wrong units (x1000), no nan anywhere.")
    losses = train(X / SCALE - 1.0, y)
    t = max(range(1, len(losses)), key=lambda i: losses[i] - losses[i - 1])
    print(f"The loss jumps from {losses[t - 1]:.3f} to {losses[t]:.3f} at step {t} and stays between "
          f"{min(losses[t:]):.3f} and {max(losses[t:]):.3f} to the end (step {len(losses) - 1}).")
    print("Which batches hold a broken row (step, rows):", bad_batches(X))
# --8<-- [end:reproduce]


# --8<-- [start:fix]
def suspect_rows(X, limit=10.0):
    """At load time: rows with a value that is not finite, and rows with a value more than
    `limit` robust standard deviations from its column's median. Look at the second kind
    by hand: a real outlier, or a unit mistake to repair."""
    median = np.nanmedian(X, axis=0)
    robust_std = 1.4826 * np.nanmedian(np.abs(X - median), axis=0)
    finite = np.isfinite(X).all(axis=1)
    far = np.any(np.abs(X - median) > limit * robust_std, axis=1) & finite
    return {"not_finite": np.flatnonzero(~finite).tolist(), "far_out": np.flatnonzero(far).tolist()}


def stop_on_bad_batch(step, rows, batch):
    """Inside the loop: refuse a batch that is not finite, naming the step and its rows,
    before it can write nan into the weights."""
    bad = ~np.isfinite(batch).all(axis=1)
    if bad.any():
        raise ValueError(f"step {step}: rows {rows[bad].tolist()} hold values that are not finite")


if __name__ == "__main__":
    X, y = load_data("missing")
    try:
        train(X / SCALE - 1.0, y, guard=stop_on_bad_batch)
    except ValueError as exc:
        print("The batch guard on the data as loaded stops the run:", exc)

    print("Load-time check of this file:     ", suspect_rows(X))
    print("Load-time check of the other file:", suspect_rows(load_data("units")[0]))
    keep = np.isfinite(X).all(axis=1)
    print(f"Dropped {int((~keep).sum())} row(s) that are not finite: {np.flatnonzero(~keep).tolist()}")
    X, y = X[keep], y[keep]

    split = int(0.8 * len(X))                          # the last fifth is held out for validation
    mean, std = X[:split].mean(axis=0), X[:split].std(axis=0)   # from the training split only
    Xs = (X - mean) / std
    print(f"Scaling fitted on the {split} training rows; loss per step:")
    losses = train(Xs[:split], y[:split], verbose=True, guard=stop_on_bad_batch)
    print(f"Every step finite: {bool(np.all(np.isfinite(losses)))}")
# --8<-- [end:fix]


def replay(Xs, y, row, lr=0.5, epochs=2, batch=BATCH, seed=SEED):
    """train()'s loop again, recording each visit of one row: (step, its logit, the weights
    before and after that step's update), and the loss per step so a test can check that
    this replay and train() agree."""
    rng = np.random.default_rng(seed)
    w, b = np.zeros(Xs.shape[1]), 0.0
    visits, losses = [], []
    for epoch in range(epochs):
        order = rng.permutation(len(Xs))
        for start in range(0, len(Xs), batch):
            idx = order[start:start + batch]
            z = Xs[idx] @ w + b
            with np.errstate(over="ignore"):
                p = sigmoid(z)
            q = np.clip(p, 1e-12, 1 - 1e-12)
            losses.append(float(-np.mean(y[idx] * np.log(q) + (1 - y[idx]) * np.log(1 - q))))
            before = w.copy()
            w = w - lr * Xs[idx].T @ (p - y[idx]) / len(idx)
            b = b - lr * float(np.mean(p - y[idx]))
            if row in idx:
                visits.append({"step": len(losses) - 1, "logit": float(z[list(idx).index(row)]),
                               "w_before": before, "w_after": w.copy()})
    return visits, losses


def clean_split_scaled(X, y, share=0.8):
    """What the Fix tab trains on: finite rows, scaled with the training split's statistics."""
    keep = np.isfinite(X).all(axis=1)
    X, y = X[keep], y[keep]
    split = int(share * len(X))
    mean, std = X[:split].mean(axis=0), X[:split].std(axis=0)
    return (X - mean) / std, y, split


def raw_run(glitch="missing", **kwargs):
    """The Reproduce tab's run: the file as loaded, scaled by typical sizes."""
    X, y = load_data(glitch)
    return train(X / SCALE - 1.0, y, **kwargs)


def fixed_run(**kwargs):
    """The Fix tab's run: cleaned, and scaled on the training split."""
    Xs, y, split = clean_split_scaled(*load_data("missing"))
    return train(Xs[:split], y[:split], **kwargs)


def figure_data():
    bad, good = raw_run(), fixed_run()
    with np.errstate(over="ignore"):
        units = raw_run("units")
    t = first_nonfinite(bad)
    return {
        "alt": (f"Loss per mini-batch step, log scale. With the raw data the loss falls from "
                f"{bad[0]:.3f} to {bad[t - 1]:.3f} and is nan from step {t} onwards, with no rise "
                f"before it. With one value in the wrong units instead, it jumps from {units[6]:.3f} to "
                f"{units[7]:.3f} at step 7 and stays high. Cleaned and scaled on the training split, the run "
                f"keeps falling, to {good[-1]:.3f}."),
        "caption": "A bad batch: a normal descent, then nan (or a jump) at one step. Nothing climbs first.",
        "panels": [{
            "title": "Loss per step", "xlabel": "step (32 rows each)", "ylabel": "loss (log scale)",
            "yscale": "log",
            "series": [{"label": "raw data (one nan cell)", "x": list(range(len(bad))), "y": bad, "width": 3.0},
                       {"label": "one value x1000", "x": list(range(len(units))), "y": units},
                       {"label": "cleaned, scaled on the training split", "x": list(range(len(good))),
                        "y": good}],
            "vlines": [{"x": t, "label": f"nan from step {t}"}],
        }],
        "sparkline": {"label": "loss per step, raw data", "values": bad},
    }
