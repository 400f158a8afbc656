"""WR-250: no warmup -- Adam's first steps are the largest it will take.

Adam, written by hand, trains a network with two hidden layers of 128 ReLU
units on 256 examples in 10 classes (full batch, so every run is
deterministic). At a constant rate of 0.1 the very first update moves every
weight by exactly the rate; the loss jumps from ln 10 to several times that,
units die, and the run recovers only partly. A linear warmup over the first 4
of 40 steps (10%) lets the same peak rate through. A sweep of constant rates
against warmed-up ones shows what warmup buys: range, not magic.

Run it: python snippets/wr250_no_warmup.py
"""
# --8<-- [start:setup]
import numpy as np

SEED = 0
FEATURES, WIDTH, CLASSES, EXAMPLES = 20, 128, 10, 256
STEPS = 40
BETA1, BETA2, EPS = 0.9, 0.999, 1e-8


def make_data(seed=SEED):
    """Features from a normal distribution; labels from a fixed random network, with noise."""
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(EXAMPLES, FEATURES))
    teacher_in = rng.normal(size=(FEATURES, 32)) / np.sqrt(FEATURES)
    teacher_out = rng.normal(size=(32, CLASSES)) * 3 / np.sqrt(32)
    y = np.argmax(np.tanh(X @ teacher_in) @ teacher_out + rng.normal(size=(EXAMPLES, CLASSES)), axis=1)
    return X, y


def init_params(seed=SEED + 1):
    """He-scaled hidden layers; the output layer scaled down so the first loss is ln(CLASSES)."""
    rng = np.random.default_rng(seed)
    sizes = [FEATURES, WIDTH, WIDTH, CLASSES]
    params = []
    for i, (a, b) in enumerate(zip(sizes[:-1], sizes[1:])):
        scale = np.sqrt(2.0 / a) if i < len(sizes) - 2 else 0.01 * np.sqrt(1.0 / a)
        params += [rng.normal(size=(a, b)) * scale, np.zeros(b)]
    return params


def forward_backward(params, X, y):
    """Softmax cross-entropy computed from the logits; returns the loss, the gradients and
    the hidden pre-activations."""
    hidden, pre = [X], []
    layers = len(params) // 2
    for i in range(layers):
        z = hidden[-1] @ params[2 * i] + params[2 * i + 1]
        pre.append(z)
        if i < layers - 1:
            hidden.append(np.maximum(z, 0.0))
    logits = pre[-1] - pre[-1].max(axis=1, keepdims=True)
    log_norm = np.log(np.exp(logits).sum(axis=1))
    loss = float(np.mean(log_norm - logits[np.arange(len(y)), y]))
    delta = np.exp(logits - log_norm[:, None])
    delta[np.arange(len(y)), y] -= 1.0
    delta /= len(y)
    grads = [None] * len(params)
    for i in reversed(range(layers)):
        grads[2 * i], grads[2 * i + 1] = hidden[i].T @ delta, delta.sum(axis=0)
        if i > 0:
            delta = (delta @ params[2 * i].T) * (pre[i - 1] > 0)
    return loss, grads, pre[:-1]


def dead_units(params, X, y):
    """Hidden units whose pre-activation is at most zero for every example: silent, and their
    incoming weights get no gradient."""
    _, _, pre = forward_backward(params, X, y)
    return [int(np.sum(np.all(z <= 0, axis=0))) for z in pre]


def train(rate_at, steps=STEPS, bias_correction=True):
    """Full-batch Adam. rate_at(t) gives the learning rate of update t (t = 1, 2, ...).
    Step t's loss is measured after t updates, so step 0 is the untrained network."""
    X, y = make_data()
    params = init_params()
    m = [np.zeros_like(p) for p in params]
    v = [np.zeros_like(p) for p in params]
    history = {"loss": [], "rate": [], "step_per_rate": []}
    for t in range(1, steps + 1):
        loss, grads, _ = forward_backward(params, X, y)
        history["loss"].append(loss)
        rate = rate_at(t)
        history["rate"].append(rate)
        moved = []
        for k, g in enumerate(grads):
            m[k] = BETA1 * m[k] + (1 - BETA1) * g
            v[k] = BETA2 * v[k] + (1 - BETA2) * g * g
            m_hat, v_hat = (m[k] / (1 - BETA1 ** t), v[k] / (1 - BETA2 ** t)) if bias_correction else (m[k], v[k])
            update = m_hat / (np.sqrt(v_hat) + EPS)
            params[k] = params[k] - rate * update
            moved.append(update.ravel())
        history["step_per_rate"].append(float(np.sqrt(np.mean(np.concatenate(moved) ** 2))))
    history["loss"].append(forward_backward(params, X, y)[0])
    history["dead"] = dead_units(params, X, y)
    return history


def show(history, every=5, dense=10):
    """The loss at every step of the first `dense`, then every `every` steps, with the rate
    of the update that led to it."""
    for t, loss in enumerate(history["loss"]):
        if t <= dense or t % every == 0:
            rate = f"  rate {history['rate'][t - 1]:.3f}" if t else ""
            print(f"step {t:2d}  loss {loss:.4g}{rate}")
# --8<-- [end:setup]


# --8<-- [start:reproduce]
RATE = 0.1


def constant(rate):
    return lambda t: rate


if __name__ == "__main__":
    print(f"Adam at a constant rate of {RATE}, no warmup ({STEPS} full-batch steps):")
    plain = train(constant(RATE))
    show(plain)
    print(f"update size / rate, root mean square over all weights: step 1 {plain['step_per_rate'][0]:.2f}, "
          f"step 10 {plain['step_per_rate'][9]:.2f}, step {STEPS} {plain['step_per_rate'][-1]:.2f}")
    print(f"hidden units silent on every example: {plain['dead'][0]} and {plain['dead'][1]} of {WIDTH}")
# --8<-- [end:reproduce]


# --8<-- [start:fix]
PEAK_RATE, WARMUP_STEPS = 0.1, 4


def linear_warmup(peak, warmup_steps):
    """Update t uses peak * t / warmup_steps until t reaches warmup_steps, then peak."""
    return lambda t: peak * min(1.0, t / warmup_steps)


if __name__ == "__main__":
    print(f"Adam warmed up linearly to {PEAK_RATE} over the first {WARMUP_STEPS} of {STEPS} steps:")
    warm = train(linear_warmup(PEAK_RATE, WARMUP_STEPS))
    show(warm)
    print(f"hidden units silent on every example: {warm['dead'][0]} and {warm['dead'][1]} of {WIDTH}")
# --8<-- [end:fix]


RATES = (0.005, 0.01, 0.02, 0.03, 0.05, 0.1, 0.2)


def sweep(rates=RATES, warmup_steps=4):
    """Final loss after STEPS steps for each rate: constant, and warmed up to it."""
    return {"constant": [train(lambda t, r=r: r)["loss"][-1] for r in rates],
            "warmup": [train(lambda t, r=r: r * min(1.0, t / warmup_steps))["loss"][-1] for r in rates]}


def first_update_sizes(rate=0.1):
    """How far Adam's first update moves each weight, with and without bias correction."""
    X, y = make_data()
    _, grads, _ = forward_backward(init_params(), X, y)
    g = np.concatenate([x.ravel() for x in grads])
    g = g[g != 0]
    corrected = rate * np.abs(g) / (np.abs(g) + EPS)                                # m_hat / sqrt(v_hat) = sign(g)
    raw = rate * (1 - BETA1) * np.abs(g) / (np.sqrt(1 - BETA2) * np.abs(g) + EPS)    # m_1 / sqrt(v_1)
    return {"corrected": corrected, "raw": raw, "sgd": rate * np.abs(g)}


def first_update_shift(rate=0.1):
    """What Adam's first update (m_hat / sqrt(v_hat) = g / (|g| + eps)) does to each hidden layer's
    inputs: the mean shift per unit, averaged over units, against their spread at the start,
    and the units it pushes below zero for every example."""
    X, y = make_data()
    params = init_params()
    _, grads, before = forward_backward(params, X, y)
    moved = [p - rate * g / (np.abs(g) + EPS) for p, g in zip(params, grads)]
    _, _, after = forward_backward(moved, X, y)
    return [{"shift": float(np.mean(np.abs((a - b).mean(axis=0)))), "spread": float(np.mean(b.std(axis=0))),
             "dead": int(np.sum(np.all(a <= 0, axis=0)))} for b, a in zip(before, after)]


def figure_data():
    plain = train(lambda t: 0.1)
    warm = train(lambda t: 0.1 * min(1.0, t / 4))
    table = sweep()
    steps = list(range(STEPS + 1))
    return {
        "alt": (f"Two panels. Left: loss per step, log scale, for Adam at rate 0.1. Without warmup the loss jumps "
                f"from {plain['loss'][0]:.2f} to {max(plain['loss'][:10]):.2f} after the first update and ends at "
                f"{plain['loss'][-1]:.3g}; with a 4-step linear warmup it ends at {warm['loss'][-1]:.3g}. Right: final "
                f"loss after {STEPS} steps against the rate, for constant rates and for the same rates reached by "
                f"warmup."),
        "caption": "Warmup lets a rate that the first steps cannot take through; it does not rescue any rate.",
        "panels": [
            {"title": "Loss per step at rate 0.1", "xlabel": "step", "ylabel": "loss (log scale)", "yscale": "log",
             "series": [{"label": "constant", "x": steps, "y": plain["loss"]},
                        {"label": "4-step warmup", "x": steps, "y": warm["loss"]}],
             "vlines": [{"x": 4, "label": "end of warmup"}]},
            {"title": f"Final loss after {STEPS} steps", "xlabel": "rate (peak rate with warmup)",
             "ylabel": "final loss (log scale)", "xscale": "log", "yscale": "log",
             "series": [{"label": "constant", "x": list(RATES), "y": table["constant"]},
                        {"label": "4-step warmup", "x": list(RATES), "y": table["warmup"]}]},
        ],
        "sparkline": {"label": "loss per step at rate 0.1, no warmup", "values": plain["loss"]},
    }
