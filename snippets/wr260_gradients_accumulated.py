"""WR-260: gradients accumulated by mistake -- the gradient buffer is never cleared.

PyTorch's backward() adds each new gradient to what .grad already holds, so a
loop must empty the buffers (optimizer.zero_grad()) before every backward().
Here the buffers work the same way: backward() adds into `grads`, zero_grad()
empties them. A small network (ReLU hidden layer, sigmoid output,
cross-entropy written by hand) is trained by full-batch SGD at rate 0.1 with
momentum 0.9, as many recipes do. Without zero_grad() the step is the momentum
of the sum of every gradient so far: the loss falls over six steps, to epoch 6, faster
than a correct loop's, then climbs in wider and wider swings and turns inf. The second mistake: gradients accumulated on
purpose over k micro-batches, the loss not divided by k, so every step is k
times too large.

The Fix tab clears the buffers before every backward(), and accumulates
micro-batches with each loss divided by k.

Run it: python snippets/wr260_gradients_accumulated.py
"""
# --8<-- [start:setup]
import numpy as np

SEED = 34
HIDDEN = 16


def make_data(seed=SEED, n=400):
    """Two overlapping Gaussian blobs in 2-D, labels 0 and 1."""
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n).astype(float)[:, None]
    X = rng.normal(scale=0.9, size=(n, 2)) + np.where(y == 1, 0.9, -0.9)
    return X, y


def init_params(seed=SEED + 1, hidden=HIDDEN):
    rng = np.random.default_rng(seed)
    return {"W1": rng.normal(size=(2, hidden)) * 0.5, "b1": np.zeros(hidden),
            "W2": rng.normal(size=(hidden, 1)) * 0.01, "b2": np.zeros(1)}


def zero_grad(grads):
    """optimizer.zero_grad(): empty every gradient buffer."""
    for g in grads.values():
        g.fill(0.0)


def backward(params, grads, X, y, scale=1.0):
    """The loss, and its gradient ADDED to what `grads` already holds, as
    loss.backward() adds to each parameter's .grad. `scale` multiplies the
    loss and so its gradient (1/k for one of k micro-batches). The loss is
    -log(sigmoid) of the true label, its gradient taken through that log by the
    chain rule, as written by hand."""
    sign = np.where(y == 1, 1.0, -1.0)
    pre = X @ params["W1"] + params["b1"]
    h = np.maximum(pre, 0.0)
    z = h @ params["W2"] + params["b2"]
    p_true = 1.0 / (1.0 + np.exp(-sign * z))            # probability given to the true label
    loss = -np.mean(np.log(p_true))
    dz = scale * (-1.0 / p_true / len(X)) * (sign * p_true * (1.0 - p_true))
    dh = (dz @ params["W2"].T) * (pre > 0)
    grads["W1"] += X.T @ dh
    grads["b1"] += dh.sum(axis=0)
    grads["W2"] += h.T @ dz
    grads["b2"] += dz.sum(axis=0)
    return float(loss)


class SGD:
    """torch.optim.SGD without weight decay: the momentum buffer is b = momentum * b + grad
    (b = grad on the first step), and each weight moves by -lr * b."""

    def __init__(self, params, lr, momentum=0.0):
        self.params, self.lr, self.momentum = params, lr, momentum
        self.buffers = {k: np.zeros_like(w) for k, w in params.items()}

    def step(self, grads):
        """Update the weights in place; return the length of the step taken."""
        squared = 0.0
        for k, w in self.params.items():
            b = self.buffers[k]
            b *= self.momentum
            b += grads[k]
            w -= self.lr * b
            squared += float(np.vdot(b, b))
        return self.lr * squared ** 0.5


def norm(arrays):
    return float(np.sqrt(sum(np.vdot(a, a) for a in arrays.values())))


def train(lr, epochs, momentum=0.9, clear=True, micro_batches=1, divide=True, verbose=False, optimizer=None):
    """Full-batch SGD, one step per epoch. clear=False leaves out zero_grad().
    micro_batches=k splits the batch into k equal parts whose gradients are summed
    into the buffers before the step; divide=True divides each part's loss by k.
    optimizer: another class to step with, built as optimizer(params, lr).
    Stops at the first non-finite loss."""
    X, y = make_data()
    params = init_params()
    grads = {k: np.zeros_like(w) for k, w in params.items()}
    opt = SGD(params, lr, momentum) if optimizer is None else optimizer(params, lr)
    parts = list(zip(np.array_split(X, micro_batches), np.array_split(y, micro_batches)))
    scale = 1.0 / micro_batches if divide else 1.0
    history = {"loss": [], "step": [], "grad": []}
    for epoch in range(epochs):
        if clear:
            zero_grad(grads)
        loss = float(np.mean([backward(params, grads, Xi, yi, scale) for Xi, yi in parts]))
        history["loss"].append(loss)
        if not np.isfinite(loss):
            if verbose:
                print(f"epoch {epoch:3d}  loss {loss:8.4f}")
            break
        history["grad"].append(norm(grads))
        history["step"].append(opt.step(grads))
        if verbose:
            print(f"epoch {epoch:3d}  loss {loss:8.4f}  step {history['step'][-1]:.3g}")
    history["final_params"] = params
    return history
# --8<-- [end:setup]


# --8<-- [start:reproduce]
RATE, MOMENTUM = 0.1, 0.9
K, K_RATE = 8, 3.0          # micro-batches; a rate that trains on the whole batch


def first_nonfinite(values):
    return next((i for i, v in enumerate(values) if not np.isfinite(v)), None)


if __name__ == "__main__":
    print(f"SGD at rate {RATE}, momentum {MOMENTUM}, the whole batch each epoch, and no zero_grad():")
    run = train(RATE, 300, MOMENTUM, clear=False, verbose=True)
    t = first_nonfinite(run["loss"])
    good = train(RATE, 300, MOMENTUM)
    print(f"\nThe step grew {run['step'][t - 1] / run['step'][0]:.0f} times at a fixed rate. With zero_grad() "
          f"the same loop never\nturns non-finite: {good['loss'][-1]:.4f} after 300 epochs.")

    whole = train(K_RATE, 1, momentum=0.0)
    summed = train(K_RATE, 300, momentum=0.0, micro_batches=K, divide=False)
    print(f"\nGradient accumulation, {K} micro-batches, each loss not divided by {K}:\n"
          f"the summed gradient is {summed['grad'][0] / whole['grad'][0]:.3f} times the whole batch's, "
          f"so plain SGD at {K_RATE:g},\nfine on the whole batch, steps like rate {K * K_RATE:g}: "
          f"non-finite at epoch {first_nonfinite(summed['loss'])}.")
# --8<-- [end:reproduce]


# --8<-- [start:fix]
RATE, MOMENTUM = 0.1, 0.9
K, K_RATE = 8, 3.0

if __name__ == "__main__":
    print(f"SGD at rate {RATE}, momentum {MOMENTUM}, zero_grad() before every backward():")
    run = train(RATE, 300, MOMENTUM)
    for epoch in [*range(0, 300, 25), 299]:
        print(f"epoch {epoch:3d}  loss {run['loss'][epoch]:8.4f}  step {run['step'][epoch]:.3g}")

    whole = train(K_RATE, 300, momentum=0.0)
    parts = train(K_RATE, 300, momentum=0.0, micro_batches=K, divide=True)
    gap = max(abs(a - b) for a, b in zip(whole["loss"], parts["loss"]))
    print(f"\nGradient accumulation, {K} micro-batches, each loss divided by {K}, buffers emptied\n"
          f"after each step: the summed gradient is {parts['grad'][0] / whole['grad'][0]:.3f} times the whole "
          f"batch's, and plain\nSGD at {K_RATE:g} trains as on the whole batch: {parts['loss'][-1]:.4f} after "
          f"300 epochs, every loss within\n{gap:.1e} of the whole-batch run's.")
# --8<-- [end:fix]


class Adam:
    """torch.optim.Adam with its defaults (betas 0.9 and 0.999, eps 1e-8): each weight's step is
    lr * m_hat / (sqrt(v_hat) + eps), whatever the size of the gradient it is handed."""

    def __init__(self, params, lr, betas=(0.9, 0.999), eps=1e-8):
        self.params, self.lr, self.betas, self.eps, self.t = params, lr, betas, eps, 0
        self.m = {k: np.zeros_like(w) for k, w in params.items()}
        self.v = {k: np.zeros_like(w) for k, w in params.items()}

    def step(self, grads):
        self.t += 1
        b1, b2 = self.betas
        squared = 0.0
        for k, w in self.params.items():
            self.m[k] = b1 * self.m[k] + (1 - b1) * grads[k]
            self.v[k] = b2 * self.v[k] + (1 - b2) * grads[k] ** 2
            update = self.lr * (self.m[k] / (1 - b1 ** self.t)) / (np.sqrt(self.v[k] / (1 - b2 ** self.t)) + self.eps)
            w -= update
            squared += float(np.vdot(update, update))
        return squared ** 0.5


def minibatch_train(lr, epochs, batch=20, clear=True, momentum=0.0, seed=SEED, noise=False):
    """SGD on mini-batches of a fresh permutation each epoch, one step per batch; the loss logged per
    epoch is the mean of its batches' losses. Stops at the first non-finite epoch.
    noise=True also records, at the end of each epoch, the size of the noise the steps have added up:
    the sum over every step so far of (batch gradient - whole-batch gradient), both at that step's weights."""
    X, y = make_data()
    params = init_params()
    grads = {k: np.zeros_like(w) for k, w in params.items()}
    summed = {k: np.zeros_like(w) for k, w in params.items()}
    opt = SGD(params, lr, momentum)
    order_rng = np.random.default_rng(seed + 2)
    losses, noise_sizes = [], []
    for epoch in range(epochs):
        order = order_rng.permutation(len(X))
        batch_losses = []
        for start in range(0, len(X), batch):
            rows = order[start:start + batch]
            if clear:
                zero_grad(grads)
            if noise:
                whole = {k: np.zeros_like(w) for k, w in params.items()}
                part = {k: np.zeros_like(w) for k, w in params.items()}
                backward(params, whole, X, y)
                backward(params, part, X[rows], y[rows])
                for k in summed:
                    summed[k] += part[k] - whole[k]
            batch_losses.append(backward(params, grads, X[rows], y[rows]))
            opt.step(grads)
        losses.append(float(np.mean(batch_losses)))
        noise_sizes.append(norm(summed))
        if not np.isfinite(losses[-1]):
            break
    return {"loss": losses, "final_params": params, "noise": noise_sizes if noise else None}


def growth_per_step(lr_curvature, momentum, clear):
    """On a quadratic of curvature lam, with a = lr * lam, the distance to the bottom is multiplied
    per step, in the long run, by the largest root in size of the loop's characteristic polynomial:
    (z - 1)(z - momentum) + a z when the buffer is cleared every step, and
    (z - 1)^2 (z - momentum) + a z^2 when it is not (the buffer adds one more sum)."""
    a, m = lr_curvature, momentum
    coefficients = [1.0, -(1.0 + m - a), m] if clear else [1.0, -(2.0 + m - a), 1.0 + 2.0 * m, -m]
    return float(max(abs(np.roots(coefficients))))


def quadratic_distances(lr, curvature, momentum, clear, steps, start=1.0):
    """The snippet's own loop (backward adds, zero_grad empties, SGD steps) on the loss
    curvature * x**2 / 2: |x| after each step."""
    params = {"x": np.array([start])}
    grads = {"x": np.zeros(1)}
    opt = SGD(params, lr, momentum)
    out = []
    for _ in range(steps):
        if clear:
            zero_grad(grads)
        grads["x"] += curvature * params["x"]
        opt.step(grads)
        out.append(abs(float(params["x"][0])))
    return out


def figure_data():
    with np.errstate(all="ignore"):
        bad = train(RATE, 300, MOMENTUM, clear=False)
    good = train(RATE, 300, MOMENTUM)
    t = len(bad["loss"]) - 1                     # the first non-finite epoch
    low = int(np.argmin(bad["loss"][:t]))
    shown = 60
    epochs = list(range(shown))
    return {
        "alt": (f"Two panels, log scale, epochs 0 to {shown - 1}. Left: the loss of SGD with momentum {MOMENTUM} at rate {RATE} "
                f"without zero_grad falls from {bad['loss'][0]:.3f} to {bad['loss'][low]:.3f} at epoch {low}, faster "
                f"than the correct loop's, then climbs to {bad['loss'][t - 1]:.1f} at epoch {t - 1} and is infinite "
                f"at epoch {t}; the correct loop goes on falling to {good['loss'][shown - 1]:.3f}. Right: the step "
                f"length of the broken loop grows from {bad['step'][0]:.3g} to {bad['step'][t - 1]:.3g}, while the "
                f"correct loop's shrinks to {good['step'][shown - 1]:.2g}."),
        "caption": ("Without zero_grad() every step carries all the gradients before it: the steps grow, and the loss "
                    "turns back up after its best epoch."),
        "panels": [
            {"title": "Loss per epoch", "xlabel": "epoch", "ylabel": "loss (log scale)", "yscale": "log",
             "series": [{"label": "no zero_grad()", "x": list(range(t)), "y": bad["loss"][:t]},
                        {"label": "zero_grad() each step", "x": epochs, "y": good["loss"][:shown]}]},
            {"title": "Step length per epoch", "xlabel": "epoch", "ylabel": "step length (log scale)",
             "yscale": "log",
             "series": [{"label": "no zero_grad()", "x": list(range(t)), "y": bad["step"][:t]},
                        {"label": "zero_grad() each step", "x": epochs, "y": good["step"][:shown]}]},
        ],
        "sparkline": {"label": "loss per epoch without zero_grad()", "values": bad["loss"][:t + 1]},
    }
