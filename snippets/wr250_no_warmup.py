"""WR-250: no warmup -- Adam's first steps are too large and the loss spikes.

Adam, written by hand as in module 2.3, on a 5-layer ReLU network. At learning
rate 0.05 the loss jumps up on the very first steps, then recovers and trains
well: the rate is fine for the run, just not for its first steps. Adam's first
update moves every weight by about the full learning rate, whatever the size
of its gradient. A linear warmup over the first 50 steps removes the spike.

Run it: python snippets/wr250_no_warmup.py
"""
# --8<-- [start:reproduce]
import numpy as np

SEED = 34
DEPTH, WIDTH = 5, 32


def make_data(seed=SEED, n=200):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n).astype(float)[:, None]
    X = rng.normal(scale=0.9, size=(n, 2)) + np.where(y == 1, 0.9, -0.9)
    return X, y


def init_params(seed=SEED + 1):
    """He-initialised layers: the start is healthy."""
    rng = np.random.default_rng(seed)
    sizes = [2] + [WIDTH] * DEPTH + [1]
    return [[rng.normal(size=(a, b)) * np.sqrt(2.0 / a), np.zeros(b)] for a, b in zip(sizes[:-1], sizes[1:])]


def loss_and_grads(params, X, y):
    zs, hs = [], [X]
    for i, (W, b) in enumerate(params):
        zs.append(hs[-1] @ W + b)
        if i < len(params) - 1:
            hs.append(np.maximum(zs[-1], 0.0))
    sign = np.where(y == 1, 1.0, -1.0)
    z = zs[-1]
    loss = float(np.mean(np.logaddexp(0.0, -sign * z)))     # cross-entropy from the logits
    dz = -sign * 0.5 * (1.0 - np.tanh(sign * z / 2)) / len(X)   # -sign * sigmoid(-sign * z), no overflow
    grads = [None] * len(params)
    for i in reversed(range(len(params))):
        grads[i] = [hs[i].T @ dz, dz.sum(axis=0)]
        if i > 0:
            dz = (dz @ params[i][0].T) * (zs[i - 1] > 0)
    return loss, grads


def train_adam(lr=0.05, steps=120, warmup=0, beta1=0.9, beta2=0.999, eps=1e-8, verbose=False):
    X, y = make_data()
    params = init_params()
    m = [[np.zeros_like(p) for p in layer] for layer in params]
    v = [[np.zeros_like(p) for p in layer] for layer in params]
    losses, rates = [], []
    for t in range(1, steps + 1):
        loss, grads = loss_and_grads(params, X, y)
        losses.append(loss)
        rate = lr * min(1.0, t / warmup) if warmup else lr
        rates.append(rate)
        if verbose:
            print(f"step {t - 1:3d}  loss {loss:.4f}  rate {rate:.4f}")
        for layer, g_layer, m_layer, v_layer in zip(params, grads, m, v):
            for k in range(2):
                m_layer[k] = beta1 * m_layer[k] + (1 - beta1) * g_layer[k]
                v_layer[k] = beta2 * v_layer[k] + (1 - beta2) * g_layer[k] ** 2
                m_hat = m_layer[k] / (1 - beta1 ** t)
                v_hat = v_layer[k] / (1 - beta2 ** t)
                layer[k] = layer[k] - rate * m_hat / (np.sqrt(v_hat) + eps)
    return {"loss": losses, "rate": rates}
# --8<-- [end:reproduce]


# --8<-- [start:fix]
WARMUP_STEPS = 50


def warmup_rate(t, lr, warmup=WARMUP_STEPS):
    """Linear warmup: step t (from 1) uses lr * t / warmup until t reaches warmup."""
    return lr * min(1.0, t / warmup)
# `train_adam(lr, warmup=WARMUP_STEPS)` applies it inside the loop.
# --8<-- [end:fix]


def first_step_size(lr=0.05):
    """How far Adam's very first update moves each weight, against plain gradient descent."""
    X, y = make_data()
    params = init_params()
    _, grads = loss_and_grads(params, X, y)
    g = np.concatenate([p.ravel() for layer in grads for p in layer])
    adam = np.abs(lr * g / (np.sqrt(g ** 2) + 1e-8))        # m_hat / sqrt(v_hat) at t = 1
    return {"adam_median": float(np.median(adam)), "sgd_median": float(np.median(np.abs(lr * g)))}


def figure_data():
    plain, warm = train_adam(), train_adam(warmup=WARMUP_STEPS)
    steps = list(range(len(plain["loss"])))
    peak = int(np.argmax(plain["loss"]))
    return {
        "alt": (f"Loss per step, log scale, for Adam at learning rate 0.05 on a {DEPTH}-layer network. Without "
                f"warmup the loss starts at {plain['loss'][0]:.2f}, jumps to {plain['loss'][peak]:.2f} at step "
                f"{peak}, then recovers and ends at {plain['loss'][-1]:.3f}. With a {WARMUP_STEPS}-step linear "
                f"warmup it never rises above its start and ends at {warm['loss'][-1]:.3f}."),
        "caption": "Same rate, same seed: the spike is in the first steps only, and warmup removes it.",
        "panels": [{
            "title": "Loss per step", "xlabel": "step", "ylabel": "loss (log scale)", "yscale": "log",
            "series": [{"label": "no warmup", "x": steps, "y": plain["loss"]},
                       {"label": f"{WARMUP_STEPS}-step warmup", "x": steps, "y": warm["loss"]}],
            "vlines": [{"x": WARMUP_STEPS, "label": "end of warmup"}],
        }],
        "sparkline": {"label": "loss, first 40 steps without warmup", "values": plain["loss"][:40]},
    }


def main():
    print("Adam at learning rate 0.05, no warmup:")
    plain = train_adam(verbose=True, steps=12)
    full = train_adam()
    print(f"... step {len(full['loss']) - 1}: loss {full['loss'][-1]:.4f}")
    sizes = first_step_size()
    print(f"\nFirst update, median change per weight: Adam {sizes['adam_median']:.4f}, "
          f"plain gradient descent {sizes['sgd_median']:.6f}")
    warm = train_adam(warmup=WARMUP_STEPS)
    print(f"\nWith a {WARMUP_STEPS}-step linear warmup: highest loss {max(warm['loss']):.4f} "
          f"(the first one), final {warm['loss'][-1]:.4f}")
    del plain


if __name__ == "__main__":
    main()
