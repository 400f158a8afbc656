"""WR-050: a nan gradient from a finite forward pass.

Two losses whose forward value is right and finite, and whose gradient is nan.

1. A contrastive embedding measures the distance between two images as
   sqrt(sum of squared differences). Two blank images land on the same point:
   their distance is a fine 0.0, but the slope of sqrt at 0 is 1 / (2 * 0) = inf,
   the chain rule multiplies that inf by 0, and 0 * inf is nan. One update later
   every weight is nan.
2. A relative error (MAPE) skips the zero targets with
   np.where(y != 0, |pred - y| / |y|, 0). The value is right, but the backward
   pass multiplies the skipped branch's infinite slope by the 0 that np.where
   sends it, and gets nan again.

The backward passes are written out by hand, one local derivative at a time, so
the inf and the nan can be seen where they are made. The fix: eps inside the
sqrt, or a second np.where that keeps the unused branch away from its singular
point.

Run it: python snippets/wr050_nan_gradient.py
"""
# --8<-- [start:setup]
import numpy as np

SEED = 50
MARGIN = 2.0          # the contrastive loss pushes different classes at least this far apart
SHUFFLE_SEED = 3      # the order of the mini-batches


def make_images(seed=SEED, n=150, blank=(17, 60, 103)):
    """4x4 images of three patterns (a row, a column, the diagonal) with noise; the images at `blank`
    are empty scans, all zeros, that kept the label of their sheet."""
    rng = np.random.default_rng(seed)
    patterns = np.zeros((3, 4, 4))
    patterns[0, 1, :] = patterns[1, :, 2] = 1.0
    patterns[2][np.eye(4, dtype=bool)] = 1.0
    y = rng.integers(0, 3, n)
    X = np.clip(patterns[y].reshape(n, 16) + 0.3 * rng.normal(size=(n, 16)), 0.0, None)
    X[list(blank)] = 0.0
    return X, y


def contrastive_forward(E, y, sqrt_fn):
    """Mean over the pairs i < j of d**2 (same class) or max(MARGIN - d, 0)**2 (different classes),
    with the distance d = sqrt_fn(s) of the sum of squared differences s. Returns the loss and what the
    backward pass needs."""
    i, j = np.triu_indices(len(E), k=1)
    diff = E[i] - E[j]
    s = np.sum(diff ** 2, axis=1)
    d = sqrt_fn(s)
    same = y[i] == y[j]
    hinge = np.maximum(MARGIN - d, 0.0)
    loss = float(np.mean(np.where(same, d ** 2, hinge ** 2)))
    return loss, (i, j, diff, s, d, same, hinge)


def contrastive_backward(E, cache, slope_fn):
    """The chain rule, one local derivative at a time: dL/dd, times dd/ds = slope_fn(s), times
    ds/ddiff = 2 * diff."""
    i, j, diff, s, d, same, hinge = cache
    dL_dd = np.where(same, 2 * d, -2 * hinge) / len(d)
    dL_ds = dL_dd * slope_fn(s)
    dL_ddiff = dL_ds[:, None] * (2 * diff)
    dE = np.zeros_like(E)
    np.add.at(dE, i, dL_ddiff)
    np.add.at(dE, j, -dL_ddiff)
    return dE


def train_embedding(sqrt_fn, slope_fn, epochs=12, batch=10, lr=0.2, seed=SHUFFLE_SEED, verbose=True):
    """A linear embedding E = X @ W into the plane, trained on shuffled mini-batches; after each epoch
    the loss over every pair of the data set is printed. Returns the history and, if the weights turned
    non-finite, the step that did it: its batch, its (finite) loss and the weights it started from.
    The weights after each epoch are kept too."""
    X, y = make_images()
    rng = np.random.default_rng(seed)
    W = 0.3 * rng.normal(size=(16, 2))
    losses, weights, first_bad, step = [], [], None, 0
    for epoch in range(1, epochs + 1):
        for idx in np.array_split(rng.permutation(len(X)), len(X) // batch):
            E = X[idx] @ W
            batch_loss, cache = contrastive_forward(E, y[idx], sqrt_fn)
            W_next = W - lr * X[idx].T @ contrastive_backward(E, cache, slope_fn)
            if first_bad is None and not np.isfinite(W_next).all():
                first_bad = {"step": step, "epoch": epoch, "batch": idx, "loss": batch_loss, "W": W}
            W, step = W_next, step + 1
        losses.append(contrastive_forward(X @ W, y, sqrt_fn)[0])
        weights.append(W)
        if verbose:
            print(f"epoch {epoch:2d}  loss {losses[-1]:.4f}")
    return {"loss": losses, "W": W, "weights": weights, "first_bad": first_bad, "steps": step}


def make_sales(seed=SEED, n=200):
    """Daily sales from three features, rounded to whole items; on some days nothing sold."""
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 3))
    y = np.round(np.maximum(X @ np.array([3.0, -2.0, 1.0]) + 4.0 + rng.normal(size=n), 0.0))
    return X, y


def train_forecast(branch_fn, slope_fn, steps=40, lr=0.5, seed=SEED, verbose=True, show=range(40)):
    """A linear forecast trained on the mean relative error over the days that sold something:
    np.where(y != 0, branch, 0) summed and divided by the number of such days. `branch_fn` gives the
    branch |pred - y| / |y| (the forward pass), `slope_fn` its derivative in pred (the backward pass)."""
    X, y = make_sales()
    rng = np.random.default_rng(seed)
    w, b = 0.1 * rng.normal(size=3), 1.0
    sold = y != 0
    history = []
    for step in range(steps):
        pred = X @ w + b
        branch = branch_fn(pred, y, sold)
        mape = float(np.sum(np.where(sold, branch, 0.0)) / np.sum(sold))
        history.append(mape)
        if verbose and step in show:
            print(f"step {step:2d}  MAPE {mape:.4f}")
        dL_dbranch = np.where(sold, 1.0, 0.0) / np.sum(sold)     # np.where's backward: 0 to the unused branch
        dL_dpred = dL_dbranch * slope_fn(pred, y, sold)
        w, b = w - lr * X.T @ dL_dpred, b - lr * np.sum(dL_dpred)
    return {"mape": history, "w": w, "b": b}
# --8<-- [end:setup]


# --8<-- [start:reproduce]
def sqrt_plain(s):
    return np.sqrt(s)


def sqrt_plain_slope(s):
    """d sqrt(s) / ds = 1 / (2 sqrt(s)): inf at s = 0."""
    return 1 / (2 * np.sqrt(s))


def relative_error(pred, y, sold):
    """|pred - y| / |y| on every day; np.where picks it only where y != 0."""
    return np.abs(pred - y) / np.abs(y)


def relative_error_slope(pred, y, sold):
    """Its derivative in pred, sign(pred - y) / |y|: +-inf where y == 0."""
    return np.sign(pred - y) / np.abs(y)


if __name__ == "__main__":
    X, y = make_images()
    blank = np.flatnonzero(~X.any(axis=1))
    print(f"1. A contrastive embedding of {len(X)} images, {len(blank)} of them blank (images "
          f"{', '.join(map(str, blank))}); the loss over all pairs after each epoch:")
    run = train_embedding(sqrt_plain, sqrt_plain_slope)
    bad = run["first_bad"]
    a, b = (int(k) for k in bad["batch"] if k in blank)
    print(f"\nStep {bad['step']} (epoch {bad['epoch']}) put blank images {a} and {b} in one batch. Its loss was "
          f"{bad['loss']:.4f}, finite; after its update every weight is nan.")
    _, (_, _, diff, s, d, same, hinge) = contrastive_forward(X[[a, b]] @ bad["W"], y[[a, b]], sqrt_plain)
    dL_dd, dd_ds = float(np.where(same, 2 * d, -2 * hinge)[0]), float(sqrt_plain_slope(s)[0])
    print(f"  forward:  both embed at {X[a] @ bad['W']}, so s = {s[0]} and d = sqrt(s) = {d[0]}")
    print(f"  backward: dL/dd = 2 * d = {dL_dd}, dd/ds = 1/(2*sqrt(s)) = {dd_ds}, and the chain rule's "
          f"dL/ds = {dL_dd} * {dd_ds} = {dL_dd * dd_ds}")

    print("\n2. A forecast trained on the relative error over the days that sold something:")
    train_forecast(relative_error, relative_error_slope, steps=3)
    X, y = make_sales()
    print(f"  {np.sum(y == 0)} of {len(y)} days sold nothing: there the unused branch is |pred| / 0 = inf, its "
          f"slope is +-inf, and np.where's 0 times it is {0.0 * float('inf')}")
# --8<-- [end:reproduce]


# --8<-- [start:fix]
EPS = 1e-12


def sqrt_eps(s, eps=EPS):
    """eps inside the sqrt: the distance is never below sqrt(EPS) = 1e-6 ...
    (eps takes the dtype of s: in float16, 1e-12 is 0 and the fix is gone.)"""
    return np.sqrt(s + eps)


def sqrt_eps_slope(s, eps=EPS):
    """... and its slope is at most 1 / (2 sqrt(EPS)) = 5e5: finite."""
    return 1 / (2 * np.sqrt(s + eps))


def sqrt_safe(s):
    """The double where: the sqrt is fed a harmless 1 where s == 0, and the outer where picks 0 there.
    Where s > 0 it is exactly np.sqrt."""
    return np.where(s > 0, np.sqrt(np.where(s > 0, s, 1.0)), 0.0)


def sqrt_safe_slope(s):
    return np.where(s > 0, 1 / (2 * np.sqrt(np.where(s > 0, s, 1.0))), 0.0)


def relative_error_safe(pred, y, sold):
    """The inner where: the unused branch divides by 1 instead of 0 ..."""
    return np.abs(pred - y) / np.abs(np.where(sold, y, 1.0))


def relative_error_safe_slope(pred, y, sold):
    """... so its slope is finite and the outer np.where's 0 times it is 0."""
    return np.sign(pred - y) / np.abs(np.where(sold, y, 1.0))


if __name__ == "__main__":
    print("1. The same embedding with eps inside the sqrt:")
    run = train_embedding(sqrt_eps, sqrt_eps_slope)
    print(f"   every weight finite after {run['steps']} steps: {bool(np.isfinite(run['W']).all())}")
    safe = train_embedding(sqrt_safe, sqrt_safe_slope, verbose=False)
    print(f"   with the double where instead: final loss {safe['loss'][-1]:.4f}")
    X, y = make_images()
    blank = np.flatnonzero(~X.any(axis=1))
    a, c = blank[0], next(k for k in blank if y[k] != y[blank[0]])
    E, labels = X[[a, c]] @ run["W"], y[[a, c]]
    pair_loss = contrastive_forward(E, labels, sqrt_eps)[0]
    largest = max(float(np.abs(contrastive_backward(E, contrastive_forward(E, labels, f)[1], g)).max())
                  for f, g in ((sqrt_eps, sqrt_eps_slope), (sqrt_safe, sqrt_safe_slope)))
    print(f"   blank images {a} and {c}, of different classes, still embed at one point, and their pair costs "
          f"{pair_loss:.4f}: the gradient either fix gives them is {largest}, and no weights can part two "
          f"identical inputs")

    print("\n2. The forecast with a second np.where inside the unused branch:")
    train_forecast(relative_error_safe, relative_error_safe_slope, show=(*range(0, 40, 5), 39))
# --8<-- [end:fix]


def figure_data():
    """Plain numbers for the page's picture: the slope of the distance near s = 0 with and without eps,
    and the loss per epoch of the plain and the fixed run."""
    s = np.geomspace(1e-18, 1.0, 145)
    with np.errstate(all="ignore"):
        plain = train_embedding(sqrt_plain, sqrt_plain_slope, verbose=False)
    fixed = train_embedding(sqrt_eps, sqrt_eps_slope, verbose=False)
    epochs = list(range(1, len(plain["loss"]) + 1))
    bad = plain["first_bad"]["epoch"]
    return {
        "alt": (f"Left: on log scales, the slope dd/ds of the distance d = sqrt(s) against s from 1e-18 to 1. "
                f"Without eps it is 1/(2 sqrt(s)) and grows without bound as s falls (at s = 0 it is inf); with "
                f"eps = {EPS:g} inside the sqrt it levels off at {sqrt_eps_slope(0.0):.0f}. Right: the loss over "
                f"all pairs after each epoch. The plain run falls from {plain['loss'][0]:.4f} to "
                f"{plain['loss'][bad - 2]:.4f} at epoch {bad - 1} and is nan from epoch {bad}, the epoch whose "
                f"batch held two blank images; with eps the run follows the same curve and ends at "
                f"{fixed['loss'][-1]:.4f}."),
        "caption": "The distance is fine at 0; its slope is not. eps inside the sqrt caps the slope, and the "
                   "run goes on.",
        "panels": [
            {"title": "Slope of sqrt near 0", "xlabel": "s (sum of squared differences)", "ylabel": "dd/ds",
             "xscale": "log", "yscale": "log",
             "series": [{"label": "1/(2 sqrt(s)): inf at s = 0", "x": s.tolist(), "y": sqrt_plain_slope(s).tolist(),
                         "width": 4.0},
                        {"label": f"1/(2 sqrt(s + {EPS:g}))", "x": s.tolist(), "y": sqrt_eps_slope(s).tolist()}]},
            {"title": "Loss per epoch", "xlabel": "epoch", "ylabel": "loss over all pairs",
             "series": [{"label": "plain sqrt", "x": epochs, "y": plain["loss"], "width": 4.0, "end_marker": True},
                        {"label": "eps inside the sqrt", "x": epochs, "y": fixed["loss"]}],
             "vlines": [{"x": bad, "label": f"nan from epoch {bad}"}]},
        ],
        "sparkline": {"label": "loss per epoch, plain sqrt", "values": plain["loss"]},
    }
