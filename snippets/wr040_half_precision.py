"""WR-040: half precision -- overflow to inf, gradients flushed to zero, dynamic loss scaling.

float16 keeps 5 exponent bits: nothing above 65504, nothing below 6e-08. Three
small NumPy programs that store every tensor in float16 (and compute in
float32 in between, as a GPU's tensor cores do) show what breaks:

- a network with one large activation overflows to inf in the forward pass;
  a dynamic loss scaler skips every step and halves its scale to the floor;
- a freshly initialised network's gradients land below float16's range and
  flush to zero, and the small updates that survive are rounded away;
- Adam's eps (1e-8) and its second moment both round to 0, so the update is
  m / 0 = inf, or 0 / 0 = nan.

The fix runs the same programs with a float32 master copy of the weights, a
loss scale, bfloat16 (float32's range in 16 bits) where float16's range is too
small, and Adam's state in float32.

Run it: python snippets/wr040_half_precision.py
"""
# --8<-- [start:setup]
import numpy as np

F16 = np.finfo(np.float16)   # largest 65504, smallest normal 6.1e-05, smallest subnormal 6e-08


def half(x):
    """Store in float16, go on computing in float32 (float16 inputs, float32 sums: a tensor core)."""
    return np.asarray(x, dtype=np.float32).astype(np.float16).astype(np.float32)


def bfloat16(x):
    """Round float32 to the nearest bfloat16 (ties to even): float32's 8 exponent bits, 8 significant bits."""
    x = np.asarray(x, dtype=np.float32)
    bits = x.view(np.uint32).astype(np.uint64)          # 64 bits: the carry below cannot wrap around
    kept = (bits + 0x7FFF + ((bits >> 16) & 1)) >> 16 << 16
    return np.where(np.isnan(x), x, kept.astype(np.uint32).view(np.float32))


def float32(x):
    return np.asarray(x, dtype=np.float32)


class LossScaler:
    """Dynamic loss scaling with torch.amp.GradScaler's defaults, and an optional floor (fairseq's is 1e-4)."""

    def __init__(self, init_scale=2.0 ** 16, growth_factor=2.0, backoff_factor=0.5, growth_interval=2000,
                 min_scale=0.0):
        self.scale = init_scale
        self.growth_factor, self.backoff_factor = growth_factor, backoff_factor
        self.growth_interval, self.min_scale = growth_interval, min_scale
        self.good_steps = 0

    def update(self, grads_finite):
        """Called after each backward pass; says whether the optimizer may take the step."""
        if not grads_finite:
            self.scale *= self.backoff_factor           # skip the step, try a smaller scale
            self.good_steps = 0
            return False
        self.good_steps += 1
        if self.good_steps == self.growth_interval:     # a long run without overflow: try a larger one
            self.scale *= self.growth_factor
            self.good_steps = 0
        return True

    @property
    def at_floor(self):
        return self.scale <= self.min_scale


def sigmoid(z):
    return 0.5 * (1.0 + np.tanh(0.5 * z))               # finite for z = +-inf, no overflow


def softplus(x):
    """log(1 + exp(x)) without overflow: the logistic loss from the logits."""
    return np.maximum(x, 0.0) + np.log1p(np.exp(-np.abs(x)))


def two_layer(W1, w2, X, y, store, scale=1.0):
    """Loss and gradients of relu(X W1) w2 with a logistic loss, every tensor kept as `store` rounds it.
    The loss itself is computed from the logits in float32, as autocast does."""
    pre = store(X @ W1)
    h = np.maximum(pre, 0.0)
    z = store(h @ w2)
    sign = np.where(y == 1, 1.0, -1.0)
    loss = float(np.mean(softplus(-sign * z)))
    dz = store((sigmoid(z) - y) * (scale / len(y)))
    dpre = store(np.outer(dz, w2) * (pre > 0))           # the gradient the first layer receives
    return loss, store(X.T @ dpre), store(h.T @ dz), dpre


def norm_net(W1, w2, X, y, store, scale=1.0, eps=1e-6):
    """Loss and gradients of rmsnorm(X W1) w2 with a logistic loss. X W1 is the residual stream and is
    stored as `store` rounds it; the norm is computed in float32, as T5's layer norm does."""
    r = store(X @ W1)
    rms = np.sqrt(np.mean(r * r, axis=1, keepdims=True) + eps)
    n = store(r / rms)
    z = store(n @ w2)
    sign = np.where(y == 1, 1.0, -1.0)
    loss = float(np.mean(softplus(-sign * z)))
    dz = store((sigmoid(z) - y) * (scale / len(y)))
    dn = store(np.outer(dz, w2))
    dr = store((dn - n * np.mean(dn * n, axis=1, keepdims=True)) / rms)
    return loss, store(X.T @ dr), store(n.T @ dz)


def outlier_net(seed=43, n=256, d=8, width=16, rare=0.05, noise=0.1):
    """A trained net (float32) with one large feature in its residual stream: input 0 is a rare one
    (zero on most examples) and the feature that reads it is 50,000 times larger than the rest, so on a
    few examples it passes 65504. The norm after it makes that harmless in float32. The labels come
    from a different head, and a tenth of them are flipped."""
    rng = np.random.default_rng(seed)
    X = float32(rng.normal(size=(n, d)))
    X[:, 0] *= rng.random(n) < rare
    W1 = float32(rng.normal(size=(d, width)) / np.sqrt(d))
    W1[0, 0] = 5e4
    w2 = float32(rng.normal(size=width))
    teacher = float32(2 * rng.normal(size=width))
    r = X @ W1
    y = rng.random(n) < sigmoid((r / np.sqrt(np.mean(r * r, axis=1, keepdims=True))) @ teacher)
    y ^= rng.random(n) < noise
    return X, float32(y), W1, w2


def fresh_net(seed=41, tokens=16384, d=16, hidden=32):
    """A freshly initialised net over one micro-batch of 16,384 tokens; its last layer starts at std 0.02,
    GPT-2's initializer_range. The loss is the mean over the tokens."""
    rng = np.random.default_rng(seed)
    X = float32(rng.normal(size=(tokens, d)))
    y = float32(rng.random(tokens) < sigmoid(X @ rng.normal(size=d)))
    W1 = float32(rng.normal(size=(d, hidden)) / np.sqrt(d))
    w2 = float32(rng.normal(size=hidden) * 0.02)
    return X, y, W1, w2


ACCUMULATE = 16      # micro-batches of 16,384 tokens accumulated into a step, each loss divided by 16


class Adam:
    """Adam (Kingma & Ba 2015, Algorithm 1) in the order torch.optim.Adam computes it, with its moments
    and the weights it updates kept as `store` rounds them."""

    def __init__(self, params, lr, store, beta1=0.9, beta2=0.999, eps=1e-8):
        self.lr, self.store, self.beta1, self.beta2, self.eps = lr, store, beta1, beta2, eps
        self.m = [store(np.zeros_like(p)) for p in params]
        self.v = [store(np.zeros_like(p)) for p in params]
        self.t = 0

    def step(self, params, grads):
        s, b1, b2 = self.store, self.beta1, self.beta2
        self.t += 1
        out = []
        for i, (p, g) in enumerate(zip(params, grads)):
            self.m[i] = s(self.m[i] + (1 - b1) * (g - self.m[i]))
            self.v[i] = s(b2 * self.v[i] + (1 - b2) * g * g)
            denom = s(s(s(np.sqrt(self.v[i])) / np.sqrt(1 - b2 ** self.t)) + self.eps)
            out.append(s(p - self.lr / (1 - b1 ** self.t) * self.m[i] / denom))
        return out
def micro_batch_gradient(store, scale=1.0):
    """The first layer's gradient from one micro-batch: its loss is divided by ACCUMULATE
    (and multiplied by the loss scale, if any) before the backward pass."""
    X, y, W1, w2 = fresh_net()
    _, gW1, _, dpre = two_layer(W1, w2, X, y, store, scale / ACCUMULATE)
    return gW1 / scale, dpre
# --8<-- [end:setup]


# --8<-- [start:reproduce]
def finetune_outlier_in_float16(steps=40, lr=3e-2, min_scale=1e-4):
    """The outlier net fine-tuned with Adam in pure float16 under a dynamic loss scaler."""
    X, y, W1, w2 = outlier_net()
    params = [half(W1), half(w2)]        # pure float16: no float32 copy of the weights
    adam, scaler = Adam(params, lr, half), LossScaler(min_scale=min_scale)
    log = []
    for step in range(steps):
        scale = scaler.scale
        loss, gW1, gw2 = norm_net(*params, X, y, half, scale)
        stepped = scaler.update(bool(np.isfinite(gW1).all() and np.isfinite(gw2).all()))
        if stepped:
            params = adam.step(params, [gW1 / scale, gw2 / scale])
        log.append({"step": step, "loss": loss, "scale": scale, "new_scale": scaler.scale, "stepped": stepped})
        if scaler.at_floor:
            break
    return log, params


def underflow_report():
    g32, dpre32 = micro_batch_gradient(float32)
    g16, dpre16 = micro_batch_gradient(half)
    alive = dpre32 != 0                                     # entries the ReLU did not zero already
    return {"median": float(np.median(np.abs(dpre32[alive]))),
            "subnormal": float(np.mean(np.abs(dpre32[alive]) < F16.tiny)),
            "flushed": float(np.mean(dpre16[alive] == 0)),
            "weight_grad_zero": float(np.mean(g16 == 0)),
            "grad_error": float(np.linalg.norm(g16 - g32) / np.linalg.norm(g32))}


def sgd_step_in_float16(lr=0.1):
    """One SGD step on the fresh net's full float32 gradient, applied to float16 weights."""
    X, y, W1, w2 = fresh_net()
    _, gW1, _, _ = two_layer(W1, w2, X, y, float32)
    w, update = half(W1), lr * gW1
    new = half(w - half(update))
    return {"moved": int(np.sum(new != w)), "weights": w.size,
            "ratio": np.abs(update) / np.abs(w), "update": update, "w": w, "new": new}


def see_the_underflow():
    """NumPy reports underflow only when asked (its default for it is "ignore")."""
    _, dpre = micro_batch_gradient(float32)
    with np.errstate(under="warn"):
        return dpre.astype(np.float16)


if __name__ == "__main__":
    print(f"float16: largest {F16.max:.0f}, smallest normal {F16.tiny:.3g}, "
          f"smallest subnormal {F16.smallest_subnormal:.3g}")

    X, _, W1, _ = outlier_net()
    print(f"\n1. Overflow. A trained net whose largest activation is {np.abs(X @ W1).max():.3g} (in float32),")
    print("   fine-tuned with Adam in float16 under a dynamic loss scaler")
    print("   (torch.amp.GradScaler's defaults; a floor of 1e-4, as in fairseq):")
    log, params = finetune_outlier_in_float16()
    for row in log[:3] + [None] + log[-2:]:
        if row is None:
            print("   ...")
            continue
        print(f"step {row['step']:3d}  loss {row['loss']:.4f}  scale {row['scale']:.4g} -> {row['new_scale']:.4g}"
              f"  ({'step taken' if row['stepped'] else 'gradients not finite: step skipped'})")
    skipped = sum(not row["stepped"] for row in log)
    print(f"   {skipped} of {len(log)} steps skipped: the scale fell below its floor, to {log[-1]['new_scale']:.2g}, "
          "and no weight ever changed.")
    print("   The inf is made in the forward pass, before any loss scale is applied.")

    print(f"\n2. Underflow. A fresh net; one of {ACCUMULATE} micro-batches of 16,384 tokens accumulated into a step,")
    print(f"   so its loss is divided by {ACCUMULATE}. The gradients its first-layer units receive:")
    u = underflow_report()
    print(f"   median size {u['median']:.2g}; {u['subnormal']:.0%} below float16's smallest normal; "
          f"{u['flushed']:.1%} exactly 0 in float16")
    print(f"   the first layer's weight gradient: {u['weight_grad_zero']:.1%} of its entries 0, "
          f"off by {u['grad_error']:.0%} from float32")
    see_the_underflow()
    step = sgd_step_in_float16()
    lost = step["weights"] - step["moved"]
    print(f"   one SGD step (lr 0.1, the whole gradient) on float16 weights changes {step['moved']} of "
          f"{step['weights']} of them;")
    print(f"   the other {lost} updates are less than half the float16 spacing at their weight "
          f"(median update/weight {np.median(step['ratio']):.2g}):")
    print(f"   1.0 + 0.0001 = {np.float16(1.0) + np.float16(1e-4)} in float16, where the spacing at 1.0 is "
          f"{np.spacing(np.float16(1.0))}")

    print("\n3. Adam in float16, first step, lr 1e-3, eps 1e-8 (which is "
          f"{np.float16(1e-8)} in float16), every weight 1.0:")
    grads = half([1e-3, 1e-2, 0.0, 1.0])
    adam = Adam([half(np.ones(4))], 1e-3, half)
    with np.errstate(divide="ignore", invalid="ignore"):    # frameworks divide silently; the values tell
        (weights,) = adam.step([half(np.ones(4))], [grads])
    for g, v, w in zip(grads, adam.v[0], weights):
        print(f"   gradient {g:<9.3g} second moment {v:<10.3g} weight after the step {w}")
# --8<-- [end:reproduce]


# --8<-- [start:fix]
def finetune_outlier_in_bfloat16(steps=60, lr=3e-2):
    """The same fine-tuning with every tensor in bfloat16, and the weights and Adam's state in float32."""
    X, y, W1, w2 = outlier_net()
    params, adam = [W1, w2], Adam([W1, w2], lr, float32)
    log = []
    for step in range(steps):
        loss, gW1, gw2 = norm_net(*map(bfloat16, params), X, y, bfloat16)
        params = adam.step(params, [gW1, gw2])
        log.append({"step": step, "loss": loss})
    return log, params


def scaler_sequence(steps=60, growth_interval=10):
    """A dynamic loss scaler on one float16 backward pass of the fresh net (256 tokens), repeated:
    only the scale changes from step to step, so its sequence shows the rule alone."""
    X, y, W1, w2 = fresh_net(tokens=256)
    scaler = LossScaler(growth_interval=growth_interval)
    scales, skipped = [], []
    for step in range(steps):
        scales.append(scaler.scale)
        with np.errstate(over="ignore", invalid="ignore"):  # overflow is what the scaler probes for
            _, gW1, gw2, _ = two_layer(W1, w2, X, y, half, scaler.scale)
        if not scaler.update(bool(np.isfinite(gW1).all() and np.isfinite(gw2).all())):
            skipped.append(step)
    return scales, skipped


if __name__ == "__main__":
    print("1. The outlier net in bfloat16 (float32's range, 8 significant bits),")
    print("   with the weights and Adam's state in float32:")
    log, _ = finetune_outlier_in_bfloat16()
    for row in log:
        if row["step"] % 10 == 0 or row["step"] == len(log) - 1:
            print(f"step {row['step']:3d}  loss {row['loss']:.4f}")
    print(f"   9e4 in bfloat16 is {bfloat16(9e4)}; but 1 + 2**-8 is {bfloat16(1 + 2 ** -8)}: "
          "bfloat16 needs the float32 weights even more than float16")

    print(f"\n2. The same micro-batch with its loss multiplied by 2**16 before the backward pass:")
    g16, dpre16 = micro_batch_gradient(half, scale=2.0 ** 16)
    g32, dpre32 = micro_batch_gradient(float32)
    alive = dpre32 != 0
    print(f"   {np.mean(dpre16[alive] == 0):.1%} of the first layer's gradients are 0; its weight gradient, "
          f"unscaled in float32, is off by {np.linalg.norm(g16 - g32) / np.linalg.norm(g32):.2%}")
    X, y, W1, w2 = fresh_net()
    _, gW1, _, _ = two_layer(W1, w2, X, y, float32)
    master = W1 - 0.1 * gW1                                 # the step lands on a float32 copy
    print(f"   the SGD step on a float32 copy of the weights changes {np.sum(master != W1)} of {W1.size}; "
          f"1.0 + 0.0001 = {np.float32(1.0) + np.float32(1e-4):.4f} in float32")
    scales, skipped = scaler_sequence()
    print(f"   a dynamic scaler (here growing after 10 good steps) skips steps {skipped}: each time it has")
    print(f"   doubled to {max(scales):g}; it then halves back to {max(scales) / 2:g}")

    print("\n3. Adam's first step with its state in float32:")
    grads = float32([1e-3, 1e-2, 0.0, 1.0])
    adam = Adam([np.ones(4, np.float32)], 1e-3, float32)
    (weights,) = adam.step([np.ones(4, np.float32)], [grads])
    for g, v, w in zip(grads, adam.v[0], weights):
        print(f"   gradient {g:<9.3g} second moment {v:<10.3g} weight after the step {w:.6f}")
# --8<-- [end:fix]


def figure_data():
    """Plain numbers for the page's picture: where the gradients sit against float16's range, and the
    loss scale step by step in the dead end and in a healthy run."""
    _, dpre = micro_batch_gradient(float32)
    magnitudes = np.abs(dpre[dpre != 0]).astype(np.float64)
    edges = np.arange(-32, 18)
    shares = {}
    for label, values in (("loss divided by 16", magnitudes), ("and multiplied by 2**16", magnitudes * 2.0 ** 16)):
        counts, _ = np.histogram(np.log2(values), bins=edges)
        shares[label] = (counts / counts.sum()).tolist()
    centres = (edges[:-1] + 0.5).tolist()
    log, _ = finetune_outlier_in_float16()
    dead = [float(np.log2(row["scale"])) for row in log]
    scales, skipped = scaler_sequence()
    healthy = [float(np.log2(s)) for s in scales]
    flushed = float(np.mean(np.abs(dpre[dpre != 0]) <= 2.0 ** -25))
    return {
        "alt": (f"Left: histogram of log2 of the gradients a fresh network's first layer receives. With the loss "
                f"divided by 16 they lie between 2^{int(np.floor(np.log2(magnitudes.min())))} and "
                f"2^{int(np.ceil(np.log2(magnitudes.max())))}, and {flushed:.0%} of them are at or below 2^-25, "
                f"where float16 rounds to zero; multiplied by 2^16 the same histogram moves 16 places right, "
                f"inside float16's normal range. Right: log2 of the loss scale per step. In the float16 run "
                f"whose forward pass overflows it falls by one every step, from 16 to {dead[-1]:.0f} in "
                f"{len(dead)} steps; in a healthy run it rises every 10 steps and drops back at steps "
                f"{', '.join(map(str, skipped))}."),
        "caption": "Loss scaling moves the gradients into float16's range, but cannot help when the forward "
                   "pass itself overflows.",
        "panels": [
            {"title": "First-layer gradients against float16's range", "xlabel": "log2 of the gradient's size",
             "ylabel": "share of the gradients",
             "series": [{"label": label, "x": centres, "y": ys} for label, ys in shares.items()],
             "vlines": [{"x": -25, "label": "2**-25: rounds to 0"},
                        {"x": -14, "label": "2**-14: smallest normal"},
                        {"x": 16, "label": "65504 is about 2**16"}]},
            {"title": "The loss scale, step by step", "xlabel": "step", "ylabel": "log2 of the loss scale",
             "series": [{"label": "forward overflows: every step skipped", "x": list(range(len(dead))),
                         "y": dead, "end_marker": True},
                        {"label": "healthy (growth every 10 steps)", "x": list(range(len(healthy))),
                         "y": healthy}]},
        ],
        "sparkline": {"label": "loss scale per step while the forward pass overflows",
                      "values": [row["scale"] for row in log]},
    }
