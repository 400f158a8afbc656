"""WR-070: a fully masked softmax row -- every score is -inf, and the softmax returns nan.

An attention-pooling classifier over padded sequences, written by hand. One
sequence in the batch is empty: every key of its row is padding, so every score
is masked. The stable softmax subtracts the row's maximum, which is -inf, and
-inf - (-inf) is nan. The nan reaches the loss and, through the gradient,
every weight. Masking with -1e9 instead does not help in float16, where -1e9 is
-inf; masking with the dtype's finite minimum gives a finite but meaningless
average of the padding. The fix: a finite mask and a guard for rows that have
no key at all.

Run it: python snippets/wr070_masked_softmax.py
"""
# --8<-- [start:setup]
import numpy as np

SEED = 70
DIM = 4


def softmax(scores):
    """WR-020's stable softmax over the last axis: subtract the row's largest score first."""
    shifted = scores - scores.max(axis=-1, keepdims=True)
    e = np.exp(shifted)
    return e / e.sum(axis=-1, keepdims=True)


def make_batch(seed=SEED, n=32, length=6, empty=3):
    """Padded sequences of token vectors; sequence `empty` has no tokens at all. Padding positions hold
    the pad token's embedding, as an embedding layer gives them. The label says whether the tokens'
    first feature is positive on average."""
    rng = np.random.default_rng(seed)
    lengths = rng.integers(1, length + 1, n)
    lengths[empty] = 0
    allowed = np.arange(length) < lengths[:, None]                 # (n, length): True for real tokens
    X = rng.normal(size=(n, length, DIM))
    X[~allowed] = rng.normal(size=DIM)                             # the pad embedding
    first = np.where(allowed, X[:, :, 0], 0.0).sum(axis=1)
    y = (first > 0).astype(float)
    return X, y, allowed


def init_params(seed=SEED + 1):
    rng = np.random.default_rng(seed)
    return {"q": rng.normal(size=DIM), "Wv": rng.normal(size=(DIM, DIM)) / 2, "w": rng.normal(size=DIM) / 2,
            "b": 0.0}


def softplus(x):
    return np.maximum(x, 0.0) + np.log1p(np.exp(-np.abs(x)))       # log(1 + exp(x)), no overflow


def forward_backward(params, X, y, allowed, weights_of, in_loss=None):
    """Attention pooling: one learned query attends over each sequence's tokens; the pooled vector gives
    a logit. `weights_of(scores, allowed)` masks the scores (with np.where) and returns the attention
    weights. Returns the mean logistic loss over the sequences in `in_loss` (all, by default), its
    gradients, and the weights."""
    in_loss = np.ones(len(y), bool) if in_loss is None else in_loss
    scores = X @ params["q"] / np.sqrt(DIM)                        # (n, length)
    p = weights_of(scores, allowed)                               # (n, length)
    V = X @ params["Wv"]                                          # (n, length, DIM)
    pooled = np.einsum("nt,ntd->nd", p, V)
    z = pooled @ params["w"] + params["b"]
    sign = np.where(y == 1, 1.0, -1.0)
    per_example = softplus(-sign * z)
    loss = float(per_example[in_loss].mean())
    dz = np.where(in_loss, 0.5 * (1 + np.tanh(z / 2)) - y, 0.0) / in_loss.sum()
    dpooled = np.outer(dz, params["w"])
    dV = p[:, :, None] * dpooled[:, None, :]                       # a row of weights times its gradient
    dp = np.einsum("ntd,nd->nt", V, dpooled)
    dscores = p * (dp - (p * dp).sum(axis=1, keepdims=True))       # the softmax's backward pass
    dscores = np.where(allowed, dscores, 0.0)                      # np.where's: a masked score gets none
    grads = {"q": np.einsum("nt,ntd->d", dscores, X) / np.sqrt(DIM), "Wv": np.einsum("ntd,nte->de", X, dV),
             "w": pooled.T @ dz, "b": float(dz.sum())}
    return loss, grads, p


def train(weights_of, steps=60, lr=0.5, in_loss=None, log_every=10, verbose=True, empty_from=0):
    """Train on the batch; before step `empty_from` its empty sequence holds one token (the batches before it
    hold no empty sequence), from then on none."""
    X, y, allowed = make_batch()
    before = allowed.copy()
    before[~allowed.any(axis=1), 0] = True
    params = init_params()
    losses = []
    for step in range(steps):
        mask = before if step < empty_from else allowed
        loss, grads, _ = forward_backward(params, X, y, mask, weights_of, in_loss)
        losses.append(loss)
        if verbose and (step % log_every == 0 or step == steps - 1):
            print(f"step {step:3d}  loss {loss:.4f}")
        params = {k: params[k] - lr * grads[k] for k in params}
    return losses, params
# --8<-- [end:setup]


# --8<-- [start:reproduce]
def minus_inf_mask(scores, allowed):
    """The textbook mask: a key that may not be attended to gets the score -inf."""
    return softmax(np.where(allowed, scores, -np.inf))


def additive_mask(scores, allowed, dtype, big=1e9):
    """The other textbook mask: add -1e9 to the masked scores, in the model's dtype."""
    mask = np.where(allowed, 0.0, -big).astype(dtype)              # in float16, -1e9 is -inf
    return softmax(scores.astype(dtype) + mask).astype(float)


if __name__ == "__main__":
    X, y, allowed = make_batch()
    print(f"{len(y)} sequences padded to {allowed.shape[1]}; sequence 3 has {allowed[3].sum()} tokens\n")

    print("1. Masking with -inf; the mean loss over all sequences:")
    train(minus_inf_mask)
    row = np.full(allowed.shape[1], -np.inf)
    print(f"   the empty row's scores: {row}; their max: {row.max()}; "
          f"score - max: {row - row.max()}")

    params = init_params()
    loss, grads, p = forward_backward(params, X, y, allowed, minus_inf_mask, in_loss=allowed.any(axis=1))
    poisoned = [name for name, g in grads.items() if not np.isfinite(g).all()]
    print("\n2. Leaving the empty sequence out of the loss:")
    print(f"   the mean over the other {allowed.any(axis=1).sum()} sequences is {loss:.4f}, "
          f"but the gradients of {' and '.join(poisoned)} hold nan:")
    print(f"   the backward pass multiplies the empty row's nan weights by its zero gradient, and nan * 0 = "
          f"{np.nan * 0.0}")

    print("\n3. The same -inf mask when the empty sequence first arrives at step 30 (before it, sequence 3 holds "
          "one token):")
    late, _ = train(minus_inf_mask, empty_from=30, verbose=False)
    for step in (0, 10, 20, 29, 30, 31):
        print(f"   step {step:3d}  loss {late[step]:.4f}")

    print("\n4. Masking by adding -1e9 to the scores:")
    p16 = additive_mask(X @ params["q"] / np.sqrt(DIM), allowed, np.float16)
    print(f"   float16: the mask -1e9 is stored as -inf, and the empty row is {p16[3]}")
    p32 = additive_mask(X @ params["q"] / np.sqrt(DIM), allowed, np.float32)
    print(f"   float32: the empty row is {p32[3].round(4)}: an even average over its padding")
# --8<-- [end:reproduce]


# --8<-- [start:fix]
def guarded_mask(scores, allowed):
    """Mask with the dtype's finite minimum, and give a row with no allowed key all-zero weights.
    No score is ever -inf, so no nan is made, in the forward pass or the backward."""
    low = np.finfo(scores.dtype).min
    p = softmax(np.where(allowed, scores, low))
    return np.where(allowed.any(axis=-1, keepdims=True), p, 0.0)


def finite_minimum_mask(scores, allowed):
    """Only the first half of the fix: finite, but an empty row averages its padding."""
    return softmax(np.where(allowed, scores, np.finfo(scores.dtype).min))


if __name__ == "__main__":
    X, y, allowed = make_batch()
    params = init_params()
    scores = X @ params["q"] / np.sqrt(DIM)
    print("1. Masked with the dtype's finite minimum "
          f"(float32: {np.finfo(np.float32).min:.4g}, float16: {np.finfo(np.float16).min:.0f}):")
    print(f"   the empty row is {finite_minimum_mask(scores, allowed)[3].round(4)}: finite, but an average of "
          "padding")
    print(f"   in float16 too: {finite_minimum_mask(scores.astype(np.float16), allowed)[3]}")

    print("\n2. ...and rows with no allowed key set to zero weights:")
    print(f"   the empty row is {guarded_mask(scores, allowed)[3]}; the mean loss over all sequences:")
    losses, params = train(guarded_mask)
    _, grads, _ = forward_backward(params, X, y, allowed, guarded_mask)
    print(f"   every gradient finite: {all(np.isfinite(g).all() for g in grads.values())}")
# --8<-- [end:fix]


def masked_key_weight(mask_value, dtype, empty):
    """The weight one masked key gets in a row of 6 keys whose masked scores are -mask_value (stored in
    dtype): with one allowed key scoring 0, or with none allowed."""
    allowed = np.zeros(6, bool) if empty else np.arange(6) == 0
    with np.errstate(over="ignore", invalid="ignore"):
        low = np.asarray(-mask_value).astype(dtype)
        p = softmax(np.where(allowed, np.zeros(6, dtype), low).astype(dtype))
    return float(p[-1])


def figure_data():
    """Plain numbers for the page's picture: what a masked key's weight is as the mask constant grows,
    and the loss of the three runs."""
    constants = np.geomspace(1.0, 1e10, 121)
    series = [{"label": "one key allowed (float32)", "x": constants.tolist(),
               "y": [masked_key_weight(c, np.float32, False) for c in constants], "width": 4.0}]
    for dtype in (np.float32, np.float16):
        series.append({"label": f"no key allowed ({dtype.__name__})", "x": constants.tolist(),
                       "y": [masked_key_weight(c, dtype, True) for c in constants], "end_marker": True})
    with np.errstate(invalid="ignore"):
        runs = {"-inf mask": train(minus_inf_mask, verbose=False)[0],
                "finite minimum only": train(finite_minimum_mask, verbose=False)[0],
                "finite minimum and guard": train(guarded_mask, verbose=False)[0]}
    last16 = max(c for c in constants if np.isfinite(masked_key_weight(c, np.float16, True)))
    return {
        "alt": (f"Left: the weight a masked key gets, against the size of the mask constant (log scale, 1 to 1e10). "
                f"With one key allowed it falls towards 0 as the constant grows. With no key allowed it stays at "
                f"1/6 whatever the constant, until the constant no longer fits the dtype: in float16 the line "
                f"stops after {last16:.3g} (the constant becomes -inf and the weight nan); in float32 it runs to "
                f"1e10. Right: the loss per step. With the -inf mask it is nan from step 0 and not drawn; with the "
                f"finite minimum only it falls from {runs['finite minimum only'][0]:.4f} to "
                f"{runs['finite minimum only'][-1]:.4f}; with the guard from {runs['finite minimum and guard'][0]:.4f} "
                f"to {runs['finite minimum and guard'][-1]:.4f}."),
        "caption": "An empty row's softmax is 1/n for any finite mask and nan once the mask is -inf; "
                   "only a guard makes it what you mean.",
        "panels": [
            {"title": "Weight of a masked key", "xlabel": "mask constant (subtracted)", "ylabel": "weight",
             "xscale": "log", "series": series,
             "vlines": [{"x": float(np.finfo(np.float16).max), "label": "float16's largest, 65504"}]},
            {"title": "Loss per step", "xlabel": "step", "ylabel": "mean loss",
             "series": [{"label": f"{name} (nan from step 0)" if not np.isfinite(losses).any() else name,
                         "x": list(range(len(losses))), "y": losses} for name, losses in runs.items()]},
        ],
        "sparkline": {"label": "loss per step, finite minimum and guard",
                      "values": runs["finite minimum and guard"]},
    }
