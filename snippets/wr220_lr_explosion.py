"""WR-220: learning rate too high -- every step overshoots.

A two-layer network (ReLU hidden layer, sigmoid output, cross-entropy) trained
by full-batch gradient descent, as written by hand in module 2.2. At learning
rate 10 every step overshoots, and the run shows one of two faces. With the
loss written as -log(sigmoid(z)) and its gradient taken through that log by the
chain rule, the loss climbs, turns inf and then nan for good. With the loss
computed from the logits (gradient p - y, what BCEWithLogitsLoss does) it never
turns nan: it spikes again and again and a third of the hidden units die.

The Fix tab finds the rate: a coarse sweep over orders of magnitude, then a
finer one; it keeps a clipped loss for printing, and shows that capping the
gradient norm just under the large first steps lets rate 10 train.

Run it: python snippets/wr220_lr_explosion.py
"""
# --8<-- [start:setup]
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


def stable_sigmoid(z):
    return np.exp(-np.logaddexp(0.0, -z))     # never overflows


def forward(params, X):
    """Hidden activations and logits. The bias and the ReLU are applied in place:
    fewer 400 x 64 temporaries are most of what keeps this loop fast."""
    h = X @ params["W1"]
    h += params["b1"]
    np.maximum(h, 0.0, out=h)
    return h, h @ params["W2"] + params["b2"]


def backprop(params, X, h, dz):
    """The gradient of every parameter from dL/dz (one value per example)."""
    grads = {"W2": h.T @ dz, "b2": dz.sum(axis=0)}
    dh = dz * params["W2"].T         # dL/dh: one column of dz for each unit's outgoing weight
    dh *= h > 0                      # a ReLU passes the gradient only where it fired
    grads["W1"] = X.T @ dh
    grads["b1"] = dh.sum(axis=0)
    return grads


def train(lr, epochs=30, seed=SEED, from_logits=False, clip_norm=None, verbose=False, stop_if_nonfinite=False):
    """Full-batch gradient descent; returns the per-epoch history.

    from_logits=False: the loss is -log(sigmoid(z)) of the true label and its
    gradient goes through that log by the chain rule, as written by hand.
    from_logits=True: the loss is log(1 + e^z) - y z and its gradient p - y.
    clip_norm: scale the gradient down to this global norm when it is larger.
    """
    X, y = make_data(seed)
    params = init_params(seed + 1)
    n = len(X)
    sign = np.where(y == 1, 1.0, -1.0)  # +1 for label 1, -1 for label 0
    positive = y == 1
    history = {"loss": [], "accuracy": [], "max_abs_W1": [], "grad_norm": []}
    for epoch in range(epochs):
        h, z = forward(params, X)
        if from_logits:
            loss = np.mean(np.logaddexp(0.0, z) - y * z)
            dz = (stable_sigmoid(z) - y) / n
        else:
            p_true = sigmoid(sign * z)            # probability given to the true label
            loss = -np.mean(np.log(p_true))       # cross-entropy, no clipping
            dL_dp = -1.0 / p_true / n             # the chain rule, one factor at a time
            dp_dz = sign * p_true * (1.0 - p_true)
            dz = dL_dp * dp_dz
        history["loss"].append(float(loss))
        history["accuracy"].append(np.count_nonzero((z > 0) == positive) / n)
        history["max_abs_W1"].append(float(np.abs(params["W1"]).max()))
        if verbose:  # print as you go: the climb shows before the first inf
            print(f"epoch {epoch:2d}  loss {loss:10.4f}  accuracy {history['accuracy'][-1]:.3f}  "
                  f"max|W1| {history['max_abs_W1'][-1]:9.3g}")
        if stop_if_nonfinite and not np.isfinite(loss):
            break
        grads = backprop(params, X, h, dz)
        norm = float(np.sqrt(sum(np.vdot(g, g) for g in grads.values())))
        history["grad_norm"].append(norm)
        if clip_norm is not None and norm > clip_norm:
            grads = {k: g * (clip_norm / norm) for k, g in grads.items()}
        for k in params:
            params[k] -= lr * grads[k]
    history["final_params"] = params
    return history


def dead_units(params, seed=SEED):
    """Hidden units that are off (pre-activation <= 0) for every training example."""
    X, _ = make_data(seed)
    return int(np.sum(np.all(X @ params["W1"] + params["b1"] <= 0, axis=0)))


def hessian_at(params, X, y):
    """A function v -> H v, the Hessian of the mean cross-entropy at params times
    v, exactly: the gradient differentiated once more along v, with each ReLU's
    on/off pattern held fixed (its second derivative is zero wherever defined)."""
    h, z = forward(params, X)
    on = h > 0
    p = stable_sigmoid(z)
    dz = (p - y) / len(X)
    curvature = p * (1 - p) / len(X)                       # d(dL/dz)/dz for each example

    def times(v):
        dh = X @ v["W1"]                                   # how h moves along v
        dh += v["b1"]
        dh *= on
        ddz = curvature * (dh @ params["W2"] + h @ v["W2"] + v["b2"])   # how dL/dz moves along v
        ddh = ddz * params["W2"].T
        ddh += dz * v["W2"].T
        ddh *= on
        return {"W1": X.T @ ddh, "b1": ddh.sum(axis=0), "W2": dh.T @ dz + h.T @ ddz, "b2": ddz.sum(axis=0)}
    return times


def power_iteration(times, v, iterations):
    """The eigenvalue of largest size of the linear map `times`, and its direction."""
    for _ in range(iterations):
        norm = np.sqrt(sum(np.sum(u * u) for u in v.values()))
        v = {k: u / norm for k, u in v.items()}
        tv = times(v)
        lam = sum(float(np.sum(v[k] * tv[k])) for k in v)
        v = tv
    return lam, v


def sharpness(params, X, y, start=None, iterations=20):
    """lambda_max, the largest curvature of the loss, by power iteration on H v.
    Returns it with its direction; passing that direction as `start` to the next
    measurement lets it converge in fewer iterations."""
    if start is None:
        rng = np.random.default_rng(0)
        start = {k: rng.normal(size=np.shape(w)) for k, w in params.items()}
        iterations *= 2
    times = hessian_at(params, X, y)
    lam, v = power_iteration(times, start, iterations)
    if lam < 0:  # the largest curvature in size is negative: shift by it, so the largest positive one wins
        top, v = power_iteration(lambda u: {k: hu - lam * u[k] for k, hu in times(u).items()}, start, 2 * iterations)
        lam += top
    return lam, v
# --8<-- [end:setup]


# --8<-- [start:reproduce]
def first_nonfinite(values):
    return next((i for i, v in enumerate(values) if not np.isfinite(v)), None)


if __name__ == "__main__":
    print("Learning rate 10; the loss is -log(sigmoid) and its gradient goes through that log:")
    run = train(10.0, epochs=12, verbose=True)
    t = first_nonfinite(run["loss"])

    X, y = make_data()
    weights = train(10.0, epochs=t)["final_params"]          # the weights used at epoch t
    margin = np.where(y == 1, 1.0, -1.0) * (np.maximum(X @ weights["W1"] + weights["b1"], 0) @ weights["W2"]
                                            + weights["b2"])
    print(f"\nAt epoch {t}, {int(np.sum(margin < -np.log(np.finfo(float).max)))} examples have a logit past "
          f"{-np.log(np.finfo(float).max):.2f} on the wrong side (the worst: {margin.min():.0f}): exp overflows, "
          f"the probability of the true label is exactly 0.0 and -log(0) = inf.")
    print("The chain rule then multiplies -1/0 = -inf by p(1 - p) = 0: nan, and the update writes it "
          "into every weight.")

    lam0, _ = sharpness(init_params(), X, y)
    print(f"\nSharpness at initialisation: lambda_max = {lam0:.2f}. Gradient descent overshoots along that "
          f"direction once lr > 2 / lambda_max = {2 / lam0:.3f}; lr 10 is {10 * lam0 / 2:.0f} times past it.")

    logits = train(10.0, epochs=300, from_logits=True)
    shown = " ".join(f"{v:.2f}" for v in logits["loss"][:12])
    print("\nThe same seed and rate with the loss computed from the logits (gradient p - y, "
          "as BCEWithLogitsLoss does):")
    print(f"  epochs 0-11: {shown}")
    print(f"  never non-finite: {bool(np.all(np.isfinite(logits['loss'])))}; after 300 epochs "
          f"{logits['loss'][-1]:.4f}; {dead_units(logits['final_params'])} of {HIDDEN} hidden units dead "
          f"(off for every example)")
# --8<-- [end:reproduce]


# --8<-- [start:fix]
import functools

TRIPTYCH_RATES = (0.01, 1.0, 10.0)      # the same seed, three orders of magnitude
FINER_RATES = (0.3, 1.0, 3.0, 5.0)      # half-decade steps around the pick, and 5, between 3 and 10
CAPS = (1.0, 0.5)                       # gradient-norm caps for rate 10, just under its first steps' norms


@functools.cache  # the two sweeps share lr 1, and figure_data() draws the same runs
def run_at(lr, epochs=300):
    """300 epochs at this rate on the same seed, stopped at the first non-finite loss."""
    with np.errstate(all="ignore"):  # a rate that blows up is expected here; the sweep reports it
        return train(lr, epochs, stop_if_nonfinite=True)


def sweep(rates):
    return {lr: run_at(lr) for lr in rates}


def pick_rate(runs):
    """The rate whose run stayed finite, fell, and ended lowest."""
    kept = [lr for lr, run in runs.items() if np.all(np.isfinite(run["loss"])) and run["loss"][-1] < run["loss"][0]]
    return min(kept, key=lambda lr: runs[lr]["loss"][-1])


def report(runs, label):
    for lr, run in runs.items():
        end = (f"{run['loss'][-1]:.4f}" if np.isfinite(run["loss"][-1])
               else f"non-finite at epoch {len(run['loss']) - 1}, stopped")
        print(f"  lr {lr:<5g} {run['loss'][0]:.4f} -> {end}")
    print(f"  {label}: {pick_rate(runs):g}")


def display_loss(p, y, clip=True, eps=1e-12):
    """The two-term cross-entropy, for printing. The clip works only if 1 - eps
    is still below 1 in p's float type: 1e-12 is in float64 (here), but in
    float32 1 - 1e-12 rounds back to 1.0."""
    if clip:
        p = np.clip(p, eps, 1 - eps)
    return float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)))


if __name__ == "__main__":
    print("The triptych: the same seed at 0.01, 1 and 10, 300 epochs each:")
    triptych = sweep(TRIPTYCH_RATES)
    report(triptych, "fastest rate that stays finite and falls")

    print("\nA finer sweep around it, 300 epochs each:")
    finer = sweep(FINER_RATES)
    report(finer, "lowest loss after 300 epochs")
    rises = ", ".join(f"lr {lr:g}: {int(np.sum(np.diff(run['loss']) > 0))}" for lr, run in finer.items())
    print(f"  epochs on which the loss rose: {rises}")

    best = pick_rate(finer)
    print(f"\nTraining at lr {best:g}, the loss every 50 epochs:")
    for epoch in (*range(0, 300, 50), 299):
        print(f"epoch {epoch:3d}  loss {finer[best]['loss'][epoch]:.4f}")

    X, y = make_data()
    t = len(triptych[10.0]["loss"]) - 1                   # lr 10's first non-finite epoch
    with np.errstate(all="ignore"):
        weights = train(10.0, epochs=t)["final_params"]    # the weights it had then
        p = sigmoid(np.maximum(X @ weights["W1"] + weights["b1"], 0.0) @ weights["W2"] + weights["b2"])
        raw = display_loss(p, y, clip=False)
    print(f"\nThe two-term loss printed on lr 10's weights at epoch {t}: clipped {display_loss(p, y):.4f}, "
          f"unclipped {raw}")

    print("\nlr 10 with the gradient norm capped under its first steps' norms, 30 epochs:")
    for cap in CAPS:
        capped = train(10.0, epochs=30, clip_norm=cap)
        steps = np.flatnonzero(np.array(capped["grad_norm"]) > cap).tolist()
        print(f"  cap {cap:g}: clipped on steps {steps} only (the first norm is {capped['grad_norm'][0]:.3g}), "
              f"highest {max(capped['loss']):.4f} at epoch {int(np.argmax(capped['loss']))}, "
              f"{capped['loss'][0]:.4f} -> {capped['loss'][-1]:.4f}")
# --8<-- [end:fix]


SHARPNESS_EPOCHS = (1, 10, 100, 299)


@functools.cache
def sharpness_along(lr, epochs=SHARPNESS_EPOCHS, clip_norm=None):
    """lambda_max at the weights a run at this rate reaches after each of these epochs (for the
    page's picture and the tests), each measurement starting from the last one's direction."""
    X, y = make_data()
    found, direction = {}, None
    for epoch in epochs:
        params = train(lr, epochs=epoch, clip_norm=clip_norm)["final_params"]
        found[epoch], direction = sharpness(params, X, y, start=direction)
    return found


def figure_data():
    """Plain numbers for the page's picture: lr 10's two faces, and lr x sharpness against 2."""
    with np.errstate(all="ignore"):
        hand = train(10.0, epochs=40)["loss"]
    logits = train(10.0, epochs=40, from_logits=True)["loss"]
    t = first_nonfinite(hand)
    epochs = list(range(len(hand)))
    X, y = make_data()
    lam0, _ = sharpness(init_params(), X, y)
    measured = (0, *SHARPNESS_EPOCHS)
    scaled = {lr: [lr * lam0] + [lr * sharpness_along(lr)[e] for e in SHARPNESS_EPOCHS] for lr in (1.0, 5.0)}
    peak = int(np.argmax(logits))
    return {
        "alt": (f"Two panels. Left: the loss per epoch at learning rate 10, epochs 0 to {epochs[-1]}, on a log "
                f"scale. Written as minus the log of the sigmoid it climbs from {hand[0]:.2f} to "
                f"{hand[t - 1]:.1f} at epoch {t - 1}, is inf at epoch {t} and nan after. Computed from the "
                f"logits it follows the same climb, spikes to {logits[peak]:.0f} at epoch {peak}, falls and "
                f"spikes again, and stays finite. Right: the learning rate times the sharpness, against 2, "
                f"above which an overshoot grows: for lr 1 it is {scaled[1.0][0]:.2f} at initialisation, "
                f"{scaled[1.0][1]:.2f} after one step and {scaled[1.0][-1]:.2f} at epoch 299; for lr 5 "
                f"{scaled[5.0][0]:.1f}, {scaled[5.0][1]:.2f} and {scaled[5.0][-1]:.2f}."),
        "caption": "Learning rate 10 two ways; and rates 1 and 5, past the limit at the start, land after one "
                   "step where the curvature is low enough.",
        "panels": [
            {
                "title": "Loss per epoch at lr 10",
                "xlabel": "epoch", "ylabel": "loss (log scale)", "yscale": "log",
                "series": [{"label": "loss written as -log(sigmoid)", "x": epochs, "y": hand, "width": 3.0,
                            "end_marker": True},
                           {"label": "loss from the logits", "x": epochs, "y": logits}],
                "vlines": [{"x": t, "label": f"-log(sigmoid): inf at epoch {t}, nan after"}],
            },
            {
                "title": "Learning rate x sharpness",
                "xlabel": "epoch (symmetric log scale)", "ylabel": "lr x lambda_max (log scale)",
                "xscale": "symlog", "yscale": "log",
                "series": [{"label": f"lr {lr:g}", "x": list(measured), "y": values}
                           for lr, values in scaled.items()]
                + [{"label": "2: above it an overshoot grows", "style": "dashed",
                    "x": [0, measured[-1]], "y": [2.0, 2.0]}],
            },
        ],
        "sparkline": {"label": "loss per epoch at lr 10", "values": hand[:12]},
    }


@functools.cache
def warmed_up(lr, warmup_epochs, epochs=300, from_logits=False):
    """For the page and the tests: the Reproduce tab's loss and step, with the rate raised linearly to lr
    over the first warmup_epochs epochs (lr * (e + 1) / warmup_epochs), then held; stopped at the first
    non-finite loss."""
    X, y = make_data()
    params = init_params()
    n = len(X)
    sign = np.where(y == 1, 1.0, -1.0)
    losses = []
    for epoch in range(epochs):
        h, z = forward(params, X)
        with np.errstate(all="ignore"):  # warmup 0 is the Reproduce run: inf, then nan, is expected
            if from_logits:
                loss = np.mean(np.logaddexp(0.0, z) - y * z)
                dz = (stable_sigmoid(z) - y) / n
            else:
                p_true = sigmoid(sign * z)
                loss = -np.mean(np.log(p_true))
                dz = (-1.0 / p_true / n) * sign * p_true * (1.0 - p_true)
        losses.append(float(loss))
        if not np.isfinite(loss):
            break
        grads = backprop(params, X, h, dz)
        rate = lr * min(1.0, (epoch + 1) / warmup_epochs) if warmup_epochs else lr
        for k in params:
            params[k] -= rate * grads[k]
    return {"loss": losses, "final_params": params}
