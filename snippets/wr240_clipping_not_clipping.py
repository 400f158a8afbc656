"""WR-240: gradient clipping that does not clip.

WR-220's hand-written network at learning rate 10, now with its gradient norm
clipped at 100 -- and it explodes exactly as before. Every gradient norm the
run produces is far below 100, so not one step is clipped; the nan at the end
is not clipped either. Logging the norm and the share of clipped steps shows
it. The Fix tab sweeps the threshold over the same run: above every norm it
never acts; a few times the norm of a step once the run is under way, it
shortens only the large first steps and rate 10 trains; far below the norms,
it clips nearly every step -- a rate cut in disguise.

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
    """The loss and its gradient written out by the chain rule, as in WR-220. The bias, the ReLU
    and its mask are applied in place: fewer 400 x 64 temporaries keep the loop fast."""
    sign = np.where(y == 1, 1.0, -1.0)
    h = X @ p["W1"]
    h += p["b1"]
    np.maximum(h, 0.0, out=h)
    z = h @ p["W2"] + p["b2"]
    p_true = 1.0 / (1.0 + np.exp(-sign * z))
    loss = float(-np.mean(np.log(p_true)))
    dz = (-1.0 / p_true / len(X)) * (sign * p_true * (1.0 - p_true))
    dh = dz * p["W2"].T
    dh *= h > 0
    return loss, {"W1": X.T @ dh, "b1": dh.sum(0), "W2": h.T @ dz, "b2": dz.sum(0)}


def clip_by_global_norm(grads, max_norm):
    """Scale all gradients together so that their joint norm is at most max_norm.
    Returns the clipped gradients, the norm before clipping, and whether it clipped."""
    norm = float(np.sqrt(sum(np.sum(g * g) for g in grads.values())))
    if norm > max_norm:                 # False for a nan norm: a nan goes through untouched
        return {k: g * (max_norm / norm) for k, g in grads.items()}, norm, True
    return grads, norm, False


def train(lr, epochs, max_norm=np.inf, verbose=False, stop_if_nonfinite=False):
    """Full-batch gradient descent, one step per epoch. Each epoch logs what a training loop
    prints: the loss, the gradient norm before clipping, and whether the step was clipped."""
    X, y = make_data()
    params = init_params()
    history = {"loss": [], "grad_norm": [], "clipped": []}
    for epoch in range(epochs):
        loss, grads = loss_and_grads(params, X, y)
        history["loss"].append(loss)
        if stop_if_nonfinite and not np.isfinite(loss):
            break                       # no step is taken from here: loss holds one value more than the rest
        grads, norm, was_clipped = clip_by_global_norm(grads, max_norm)
        history["grad_norm"].append(norm)
        history["clipped"].append(was_clipped)
        if verbose:
            print(f"epoch {epoch:2d}  loss {loss:9.4f}  grad_norm {norm:8.4g}  "
                  f"clip_at {max_norm:.4g}  clipped {int(was_clipped)}/1")
        for k in params:
            params[k] -= lr * grads[k]
    return history


def first_nonfinite(values):
    return next((i for i, v in enumerate(values) if not np.isfinite(v)), None)
# --8<-- [end:setup]


# --8<-- [start:reproduce]
if __name__ == "__main__":
    print("Learning rate 10, full batch, global-norm clipping at 100:")
    run = train(lr=10.0, epochs=10, max_norm=100.0, verbose=True)
    t = first_nonfinite(run["loss"])
    before = run["grad_norm"][:t]
    print(f"\nsteps clipped before the loss turned non-finite (epoch {t}): {sum(run['clipped'][:t])} of {t}; "
          f"gradient norms {min(before):.3g} to {max(before):.4g}, threshold 100")
# --8<-- [end:reproduce]


# --8<-- [start:fix]
RATE, EPOCHS = 10.0, 300
THRESHOLDS = (100.0, 5.0, 2.0, 1.0, 0.5, 0.0241)   # 0.0241: the 90th percentile of a run at rate 1


def sweep(thresholds=THRESHOLDS):
    """The same run at rate 10, clipped at each threshold; a run stops at its first non-finite loss."""
    with np.errstate(all="ignore"):   # the thresholds that never act let the blow-up happen; the table reports it
        return {c: train(RATE, EPOCHS, max_norm=c, stop_if_nonfinite=True) for c in thresholds}


def report(runs):
    for c, run in runs.items():
        steps, clipped = len(run["clipped"]), np.flatnonzero(run["clipped"])
        t = first_nonfinite(run["loss"])
        end = (f"non-finite at epoch {t}, stopped" if t is not None
               else f"peak {max(run['loss']):.4g}, final {run['loss'][-1]:.4f}")
        which = f"step{'s' * (len(clipped) > 1)} {', '.join(map(str, clipped))}" if 0 < len(clipped) <= 3 else ""
        print(f"  threshold {c:<7g} clipped {len(clipped):3d} of {steps:3d} steps ({len(clipped) / steps:5.1%})  "
              f"{which:<14s} {end}")


if __name__ == "__main__":
    print(f"Rate {RATE:g}, full batch, {EPOCHS} epochs, the global gradient norm clipped at each threshold:")
    print("  (peak: the highest loss of the run; final: its loss at the last epoch)")
    runs = sweep()
    report(runs)

    guard = runs[0.5]
    norms = np.array(guard["grad_norm"])
    print(f"\nClipped at 0.5: the first step's norm, {norms[0]:.3g}, is the only one above it; once under way the "
          f"norms are {np.median(norms[1:]):.2g} (median), {norms[1:].max():.3g} at most.")
    print(f"Its log every 50 epochs ({int(np.sum(guard['clipped']))} of {len(norms)} steps clipped):")
    for epoch in (*range(0, EPOCHS, 50), EPOCHS - 1):
        print(f"epoch {epoch:3d}  loss {guard['loss'][epoch]:9.4f}  grad_norm {norms[epoch]:8.4g}  clip_at 0.5  "
              f"clipped {int(guard['clipped'][epoch])}/1")
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


def clipped_after_the_step_run(lr=10.0, epochs=10, max_norm=0.5):
    """The loop with its lines in the wrong order, as in a PyTorch loop that calls clip_grad_norm_
    after optimizer.step(): the update uses the gradients as they are, then they are clipped, and the
    next epoch's gradients (after zero_grad) replace them. Returns the loss and whether each clip acted."""
    X, y = make_data()
    params = init_params()
    history = {"loss": [], "clipped": []}
    for epoch in range(epochs):
        loss, grads = loss_and_grads(params, X, y)
        history["loss"].append(loss)
        for k in params:
            params[k] -= lr * grads[k]
        grads, _, was_clipped = clip_by_global_norm(grads, max_norm)
        history["clipped"].append(was_clipped)
    return history


def figure_data():
    with np.errstate(all="ignore"):
        loose = train(lr=10.0, epochs=10, max_norm=100.0)
    guard = train(RATE, EPOCHS, max_norm=0.5)
    t = first_nonfinite(loose["loss"])
    epochs = list(range(EPOCHS))
    norms = guard["grad_norm"]
    return {
        "alt": (f"Two panels. Left: loss per epoch at learning rate 10 with clipping at 100, log scale; it climbs from "
                f"{loose['loss'][0]:.2f} to {loose['loss'][t - 1]:.1f} and is non-finite from epoch {t}, while "
                f"every gradient norm stays between {min(loose['grad_norm'][:t]):.2f} and "
                f"{max(loose['grad_norm'][:t]):.1f}, far below 100. Right: the same rate clipped at 0.5, over "
                f"{EPOCHS} epochs: the first step's gradient norm, {norms[0]:.2f}, is above the threshold and is "
                f"shortened; every later norm stays below it (at most {max(norms[1:]):.2f}), and the loss falls "
                f"from {guard['loss'][0]:.2f} to {guard['loss'][-1]:.3f}, clipped on {sum(guard['clipped'])} of "
                f"{EPOCHS} steps."),
        "caption": "A threshold above every gradient norm never acts; one just under the large first steps acts "
                   "once, and the same rate trains.",
        "panels": [
            {"title": "Rate 10, clip at 100", "xlabel": "epoch", "ylabel": "(log scale)", "yscale": "log",
             "series": [{"label": "loss", "x": list(range(10)), "y": loose["loss"]},
                        {"label": "gradient norm", "x": list(range(10)), "y": loose["grad_norm"]},
                        {"label": "threshold 100", "style": "dashed", "x": [0, 9], "y": [100.0, 100.0]}]},
            {"title": "Rate 10, clip at 0.5", "xlabel": "epoch", "ylabel": "(log scale)", "yscale": "log",
             "series": [{"label": "loss", "x": epochs, "y": guard["loss"]},
                        {"label": "gradient norm", "x": epochs, "y": norms, "width": 0.8},
                        {"label": "threshold 0.5", "style": "dashed", "x": [0, epochs[-1]], "y": [0.5, 0.5]}]},
        ],
        "sparkline": {"label": "loss per epoch, rate 10, clip at 100", "values": loose["loss"]},
    }
