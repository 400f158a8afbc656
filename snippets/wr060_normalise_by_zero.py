"""WR-060: division by zero in a normalisation.

Three normalisations that divide by a spread or a length that is exactly 0:

1. Standardising each pixel of a set of scans with (x - mean) / std. The
   scanner's frame is blank in every scan, so those pixels have std 0 and
   (0 - 0) / 0 is nan in every row; the first loss is nan.
2. Batch normalisation over a batch of one: the mean is the example itself, the
   variance is 0, and (x - mean) / sqrt(var) is 0 / 0 = nan. With eps added the
   output is a finite beta for every input, and no gradient gets through: the
   layer passes no signal at all.
3. Scaling a zero vector to unit length: 0 / ||0|| = 0 / 0 = nan.

The fix: eps in the denominator (inside the sqrt for a variance) with a value
the dtype can hold, no statistics from a batch of one, and no standardising of
a feature that never varies in the training split.

Run it: python snippets/wr060_normalise_by_zero.py
"""
# --8<-- [start:setup]
import numpy as np

SEED = 60
SIDE = 6                       # scans are SIDE x SIDE pixels; the outer ring is the scanner's frame


def make_scans(seed=SEED, n=200):
    """Scans of a horizontal (label 0) or a vertical (label 1) stroke inside the frame, with noise.
    The frame pixels are 0 in every scan."""
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    inner = np.zeros((n, SIDE - 2, SIDE - 2))
    inner[y == 0, 1, :] = 1.0
    inner[y == 1, :, 2] = 1.0
    inner = np.clip(inner + 0.4 * rng.normal(size=inner.shape), 0.0, None)
    X = np.zeros((n, SIDE, SIDE))
    X[:, 1:-1, 1:-1] = inner
    return X.reshape(n, SIDE * SIDE), y.astype(float)


def split(X, y, train=160):
    return (X[:train], y[:train]), (X[train:], y[train:])


def logistic_loss(z, y):
    """Cross-entropy from the logits: log(1 + e^z) - y z, written so that nothing overflows."""
    return float(np.mean(np.maximum(z, 0.0) + np.log1p(np.exp(-np.abs(z))) - y * z))


def train(X, y, steps=60, lr=0.5, log_every=10, verbose=True):
    """Logistic regression by gradient descent on the whole training split; prints the loss."""
    w, b = np.zeros(X.shape[1]), 0.0
    losses = []
    for step in range(steps):
        z = X @ w + b
        losses.append(logistic_loss(z, y))
        if verbose and (step % log_every == 0 or step == steps - 1):
            print(f"step {step:2d}  loss {losses[-1]:.4f}")
        p = 0.5 * (1.0 + np.tanh(z / 2))                         # sigmoid without overflow
        w, b = w - lr * X.T @ (p - y) / len(y), b - lr * np.mean(p - y)
    return {"loss": losses, "w": w, "b": b}


def batch_norm(Z, gamma, beta, eps):
    """Batch normalisation in training mode: each column standardised with the batch's own mean and
    variance. Returns the output and what the backward pass needs."""
    mean = Z.mean(axis=0)
    var = Z.var(axis=0)
    Zhat = (Z - mean) / np.sqrt(var + eps)
    return gamma * Zhat + beta, (Zhat, var, gamma, eps)


def batch_norm_backward(dout, cache):
    """The gradient that reaches the layer below: (gamma / sqrt(var + eps)) times the upstream gradient
    minus its batch mean and minus its projection on Zhat."""
    Zhat, var, gamma, eps = cache
    mean_d, mean_dz = dout.mean(axis=0), (dout * Zhat).mean(axis=0)
    return gamma / np.sqrt(var + eps) * (dout - mean_d - Zhat * mean_dz)
# --8<-- [end:setup]


# --8<-- [start:reproduce]
def standardise(X):
    """Each column to mean 0 and std 1, with the textbook formula."""
    return (X - X.mean(axis=0)) / X.std(axis=0)


if __name__ == "__main__":
    X, y = make_scans()
    (X_train, y_train), _ = split(X, y)
    print(f"1. {len(X_train)} training scans of {SIDE}x{SIDE} pixels, each pixel standardised:")
    Xs = standardise(X_train)
    dead = np.flatnonzero(X_train.std(axis=0) == 0)
    print(f"   {dead.size} pixels have std 0; nan entries: {int(np.isnan(Xs).sum())} "
          f"= {len(Xs)} rows x {dead.size} pixels")
    train(Xs, y_train, steps=21)

    rng = np.random.default_rng(SEED)
    Z = rng.normal(size=(1, 4))                      # one example's four pre-activations
    gamma, beta = np.ones(4), np.full(4, 0.1)
    out, _ = batch_norm(Z, gamma, beta, eps=0.0)
    print(f"\n2. Batch normalisation over a batch of one: mean = the example, var = {Z.var(axis=0)}")
    print(f"   without eps: {out[0]}")
    for k, Zk in enumerate((Z, 10 * Z, rng.normal(size=(1, 4)))):
        out, cache = batch_norm(Zk, gamma, beta, eps=1e-5)
        grad = batch_norm_backward(rng.normal(size=(1, 4)), cache)
        print(f"   with eps 1e-5, input {k}: output {out[0]} (= beta), gradient to the input {grad[0]}")

    v = np.zeros(3)
    print(f"\n3. A zero vector scaled to unit length: {v / np.sqrt(np.sum(v ** 2))}")

    centred, var16, eps16 = np.zeros(1, np.float16), np.zeros(1, np.float16), np.float16(1e-8)
    print(f"\n4. eps = 1e-8 in float16 is {eps16}: for a constant column var + eps = {(var16 + eps16)[0]}, "
          f"and (x - mean) / sqrt(var + eps) = 0 / 0 = {(centred / np.sqrt(var16 + eps16))[0]}")
# --8<-- [end:reproduce]


# --8<-- [start:fix]
EPS = 1e-5


def fit_scaler(X_train):
    """Statistics from the training split only. A pixel that does not vary there is left out: it carries
    no information, and dividing by its std (0) or by a tiny eps would blow up the first test scan where
    it differs.
    "Does not vary" allows for rounding: a variance within the error bound of its own computation
    (scikit-learn's test) counts as 0, because a column of 0.1s can come out with a std of 1e-17."""
    n, eps = len(X_train), np.finfo(X_train.dtype).eps
    mean, var = X_train.mean(axis=0), X_train.var(axis=0)
    keep = var > n * eps * var + (n * mean * eps) ** 2
    return keep, mean[keep], np.sqrt(var[keep])


def apply_scaler(X, scaler):
    keep, mean, std = scaler
    return (X[:, keep] - mean) / std


def standardise_eps(X, eps=EPS):
    """Inside a model, where no column can be dropped: eps under the sqrt makes a constant column 0."""
    return (X - X.mean(axis=0)) / np.sqrt(X.var(axis=0) + eps)


def response(batch, inputs, eps=EPS, seed=SEED):
    """Batch normalisation's output for example 0 as its own input takes each value in `inputs`, the
    rest of the batch held fixed, and the slope of that output in the input."""
    others = np.random.default_rng(seed).normal(size=(batch - 1, 1))
    outputs, slopes = [], []
    for x in inputs:
        out, cache = batch_norm(np.vstack([[[x]], others]), np.ones(1), np.zeros(1), eps)
        upstream = np.zeros((batch, 1))
        upstream[0] = 1.0
        outputs.append(float(out[0, 0]))
        slopes.append(float(batch_norm_backward(upstream, cache)[0, 0]))
    return outputs, slopes


def unit_length(V, eps=1e-12):
    """eps under the sqrt: a zero vector stays 0, any other row moves by a relative 1e-12 / ||v||^2 or less."""
    return V / np.sqrt(np.sum(V ** 2, axis=-1, keepdims=True) + eps)


if __name__ == "__main__":
    X, y = make_scans()
    (X_train, y_train), (X_test, y_test) = split(X, y)
    scaler = fit_scaler(X_train)
    print(f"1. Statistics of the training split, the {int(np.sum(~scaler[0]))} pixels that never vary left out:")
    run = train(apply_scaler(X_train, scaler), y_train)
    z_test = apply_scaler(X_test, scaler) @ run["w"] + run["b"]
    print(f"   test accuracy {np.mean((z_test > 0) == (y_test == 1)):.2f}")
    same = train(standardise_eps(X_train), y_train, verbose=False)
    print(f"   with eps {EPS:g} under the sqrt instead, the frame pixels become exactly 0 and the run ends at "
          f"{same['loss'][-1]:.4f}")
    smudge = 0.5
    print(f"   but a test scan with a smudge of {smudge} on the frame would get (0.5 - 0) / sqrt(0 + eps) = "
          f"{smudge / np.sqrt(EPS):.1f} in that pixel; left out, the smudge is ignored")

    print("\n2. Batch normalisation needs a real batch: drop a last batch that holds one example. "
          "One example's output as its input goes -2, 0, 2 (the rest of the batch fixed):")
    for size in (1, 2, 16):
        outputs, slopes = response(size, (-2.0, 0.0, 2.0))
        print(f"   batch of {size:2d}: outputs {np.round(outputs, 3).tolist()}, slope at 0: {slopes[1]:.3g}")

    V = np.array([[0.0, 0.0, 0.0], [3.0, 0.0, 4.0]])
    print(f"\n3. Unit length with eps under the sqrt: {V.tolist()} -> {unit_length(V).round(6).tolist()}")

    print(f"\n4. eps in float16: {EPS:g} is stored as {float(np.float16(EPS)):.5g} (float16 rounds anything up to "
          f"2**-25 = {2.0 ** -25:.3g} to 0), so var + eps > 0 for a constant column; against a variance of 1 "
          f"it rounds away (1 + eps = {np.float16(1) + np.float16(EPS)}), which changes nothing.")
# --8<-- [end:fix]


def figure_data():
    """Plain numbers for the page's picture: batch normalisation's response to one input by batch size,
    and how much a standardisation can amplify a feature of a given spread, by eps."""
    inputs = np.linspace(-3.0, 3.0, 121)
    sizes = (1, 2, 16)
    curves = {size: response(size, inputs)[0] for size in sizes}
    spreads = np.geomspace(1e-6, 10.0, 141)
    epsilons = {"eps = 0": 0.0, "eps = 1e-5 (PyTorch)": 1e-5, "eps = 1e-3 (Keras)": 1e-3}
    with np.errstate(divide="ignore"):
        gains = {label: (1.0 / np.sqrt(spreads ** 2 + eps)).tolist() for label, eps in epsilons.items()}
    X, y = make_scans()
    (X_train, y_train), _ = split(X, y)
    fixed = train(apply_scaler(X_train, fit_scaler(X_train)), y_train, verbose=False)["loss"]
    rise = curves[2]
    return {
        "alt": (f"Left: the output of batch normalisation for one example as its input goes from -3 to 3, the rest "
                f"of its batch held fixed. In a batch of 1 the output is 0 (beta) whatever the input; in a batch of "
                f"2 it is {rise[0]:.0f} below the other example and {rise[-1]:.0f} above it, a step; in a batch of 16 "
                f"it rises steadily from {curves[16][0]:.2f} to {curves[16][-1]:.2f}. Right: on log scales, the "
                f"factor 1/sqrt(std^2 + eps) that standardisation multiplies a feature by, against the feature's "
                f"std from 1e-6 to 10. With eps = 0 it grows without bound as the std falls; eps = 1e-5 caps it at "
                f"{1 / np.sqrt(1e-5):.0f} and eps = 1e-3 at {1 / np.sqrt(1e-3):.1f}."),
        "caption": "A batch of one carries no signal and a batch of two carries one bit; eps caps the "
                   "amplification of a feature that barely varies.",
        "panels": [
            {"title": "Batch norm: one example's output", "xlabel": "its input", "ylabel": "output (gamma 1, beta 0)",
             "series": [{"label": f"batch of {size}", "x": inputs.tolist(), "y": curves[size],
                         "width": 4.0 if size == 1 else 1.6} for size in sizes]},
            {"title": "Gain of (x - mean) / sqrt(var + eps)", "xlabel": "std of the feature", "ylabel": "gain",
             "xscale": "log", "yscale": "log",
             "series": [{"label": label, "x": spreads.tolist(), "y": gain} for label, gain in gains.items()]},
        ],
        "sparkline": {"label": "loss per step, constant pixels left out", "values": fixed},
    }
