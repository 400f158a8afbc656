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
EPS = 1e-5                     # PyTorch's eps for batch normalisation
EPS_FLOAT32_HABIT = 1e-8       # an eps written for float32 code
BETA = 0.1                     # batch normalisation's shift in the batch-of-one example
SMUDGE = 0.5                   # dust on the top edge of the frame of a test scan


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


def smudged(X, value=SMUDGE):
    """A copy of the scans with dust on the top edge of the frame (the first SIDE pixels)."""
    X = X.copy()
    X[:, :SIDE] = value
    return X


def split(X, y, train=160):
    return (X[:train], y[:train]), (X[train:], y[train:])


def logistic_loss(z, y):
    """Cross-entropy from the logits: log(1 + e^z) - y z, written so that nothing overflows."""
    return float(np.mean(np.maximum(z, 0.0) + np.log1p(np.exp(-np.abs(z))) - y * z))


def train(X, y, steps=60, lr=0.5, log_every=10, verbose=True, w0=None):
    """Logistic regression by gradient descent on the whole training split, from the weights w0 (zeros by
    default); prints the loss."""
    w, b = (np.zeros(X.shape[1]) if w0 is None else w0.copy()), 0.0
    losses = []
    for step in range(steps):
        z = X @ w + b
        losses.append(logistic_loss(z, y))
        if verbose and (step % log_every == 0 or step == steps - 1):
            print(f"step {step:2d}  loss {losses[-1]:.4f}")
        p = 0.5 * (1.0 + np.tanh(z / 2))                         # sigmoid without overflow
        w, b = w - lr * X.T @ (p - y) / len(y), b - lr * np.mean(p - y)
    return {"loss": losses, "w": w, "b": b}


def accuracy(z, y):
    return float(np.mean((z > 0) == (y == 1)))


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
def standardise(X, reference=None):
    """Each column to mean 0 and std 1 with the textbook formula, using the statistics of `reference`
    (the training split; X itself by default)."""
    reference = X if reference is None else reference
    return (X - reference.mean(axis=0)) / reference.std(axis=0)


def batch_of_one(eps, seed=SEED):
    """Batch normalisation (gamma 1, beta BETA) of three batches that each hold one example of four
    pre-activations, and the gradient that reaches each example from a random upstream gradient."""
    rng = np.random.default_rng(seed)
    Z = rng.normal(size=(1, 4))
    outputs, gradients = [], []
    for Zk in (Z, 10 * Z, rng.normal(size=(1, 4))):
        out, cache = batch_norm(Zk, np.ones(4), np.full(4, BETA), eps)
        outputs.append(out[0])
        gradients.append(batch_norm_backward(rng.normal(size=(1, 4)), cache)[0])
    return outputs, gradients


def unit_length_plain(V):
    """Each row divided by its length."""
    return V / np.sqrt(np.sum(V ** 2, axis=-1, keepdims=True))


if __name__ == "__main__":
    X, y = make_scans()
    (X_train, y_train), (X_test, _) = split(X, y)
    print(f"1. {len(X_train)} training scans of {SIDE}x{SIDE} pixels, each pixel standardised:")
    Xs = standardise(X_train)
    dead = np.flatnonzero(X_train.std(axis=0) == 0)
    print(f"   {dead.size} pixels have std 0; nan entries: {int(np.isnan(Xs).sum())} "
          f"= {len(Xs)} rows x {dead.size} pixels")
    train(Xs, y_train, steps=21)
    test = standardise(smudged(X_test[:1]), reference=X_train)[0]
    print(f"   a test scan with a smudge of {SMUDGE} on the frame's top edge, standardised with the training "
          f"statistics: ({SMUDGE} - 0) / 0 = {test[0]} in its {int(np.isinf(test).sum())} smudged pixels, "
          f"0 / 0 = {test[SIDE]} in the other {int(np.isnan(test).sum())} frame pixels")

    print(f"\n2. Batch normalisation over a batch of one: mean = the example, var = 0 in every column")
    print(f"   without eps: {batch_of_one(eps=0.0)[0][0]}")
    for k, (out, grad) in enumerate(zip(*batch_of_one(eps=EPS))):
        print(f"   with eps {EPS:g}, input {k}: output {out} (= beta), gradient to the input {grad}")

    print(f"\n3. A zero vector scaled to unit length: {unit_length_plain(np.zeros((1, 3)))[0]}")

    centred, var16, eps16 = np.zeros(1, np.float16), np.zeros(1, np.float16), np.float16(EPS_FLOAT32_HABIT)
    print(f"\n4. eps = {EPS_FLOAT32_HABIT:g} in float16 is {eps16}: for a constant column var + eps = "
          f"{(var16 + eps16)[0]}, and (x - mean) / sqrt(var + eps) = 0 / 0 = {(centred / np.sqrt(var16 + eps16))[0]}")
# --8<-- [end:reproduce]


# --8<-- [start:fix]
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


def fit_scaler_eps(X_train, eps=EPS):
    """The other way, as a normalisation layer does it: every pixel kept, eps under the sqrt."""
    return np.ones(X_train.shape[1], bool), X_train.mean(axis=0), np.sqrt(X_train.var(axis=0) + eps)


def apply_scaler(X, scaler):
    keep, mean, std = scaler
    return (X[:, keep] - mean) / std


def default_init(n_inputs, seed=SEED):
    """Weights drawn uniformly from +-1/sqrt(n_inputs), PyTorch's default for a linear layer."""
    bound = 1 / np.sqrt(n_inputs)
    return np.random.default_rng(seed).uniform(-bound, bound, n_inputs)


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


def bfloat16(x):
    """x rounded to bfloat16 (float32's 8 exponent bits, 7 stored mantissa bits), to nearest even; NumPy
    has no bfloat16, so the result is a float32 that holds the rounded value."""
    bits = np.atleast_1d(np.asarray(x, np.float32)).view(np.uint32)
    rounded = (bits + np.uint32(0x7FFF) + ((bits >> np.uint32(16)) & np.uint32(1))) & np.uint32(0xFFFF0000)
    return rounded.view(np.float32)


# the three limits of each dtype: smallest positive (subnormal) value, smallest normal value, gap above 1
LIMITS = {"float32": (2.0 ** -149, 2.0 ** -126, 2.0 ** -23),
          "bfloat16": (2.0 ** -133, 2.0 ** -126, 2.0 ** -7),
          "float16": (2.0 ** -24, 2.0 ** -14, 2.0 ** -10)}
ROUND = {"float32": np.float32, "bfloat16": bfloat16, "float16": np.float16}


def fate(eps, dtype):
    """What storing eps in the dtype does to it: "0" (rounds to zero), "subnormal" (kept, but below the
    smallest normal value, so lost where subnormals are flushed to zero), "absorbed" (kept, but 1 + eps
    rounds to 1) or "kept"."""
    r = ROUND[dtype]
    stored = float(np.asarray(r(eps)).ravel()[0])
    if stored == 0.0:
        return "0"
    if stored < LIMITS[dtype][1]:
        return "subnormal"
    one_plus = float(np.asarray(r(np.asarray(r(1.0), np.float32) + np.asarray(r(eps), np.float32))).ravel()[0])
    return "absorbed" if one_plus == 1.0 else "kept"


if __name__ == "__main__":
    X, y = make_scans()
    (X_train, y_train), (X_test, y_test) = split(X, y)
    scaler = fit_scaler(X_train)
    print(f"1. Statistics of the training split, the {int(np.sum(~scaler[0]))} pixels that never vary left out:")
    run = train(apply_scaler(X_train, scaler), y_train)
    print(f"   test accuracy {accuracy(apply_scaler(X_test, scaler) @ run['w'] + run['b'], y_test):.2f}, "
          f"and {accuracy(apply_scaler(smudged(X_test), scaler) @ run['w'] + run['b'], y_test):.2f} with a "
          f"smudge of {SMUDGE} on the frame's top edge: left out, the frame is ignored")
    scaler_eps = fit_scaler_eps(X_train)
    same = train(apply_scaler(X_train, scaler_eps), y_train, verbose=False)
    print(f"   with eps {EPS:g} under the sqrt instead, the frame pixels become exactly 0, their weights get a "
          f"gradient of exactly 0, and from zero weights the run ends at {same['loss'][-1]:.4f} as well")
    w0 = default_init(X_train.shape[1])
    frame = ~scaler[0]
    start = train(apply_scaler(X_train, scaler_eps), y_train, verbose=False, w0=w0)
    z_clean = apply_scaler(X_test, scaler_eps) @ start["w"] + start["b"]
    z_smudged = apply_scaler(smudged(X_test), scaler_eps) @ start["w"] + start["b"]
    print(f"   but from PyTorch's default init the frame weights keep their random values "
          f"(unchanged after 60 steps: {bool(np.array_equal(start['w'][frame], w0[frame]))}); the smudge becomes "
          f"({SMUDGE} - 0) / sqrt(0 + eps) = {SMUDGE / np.sqrt(EPS):.1f} in each of its pixels, and the test "
          f"accuracy falls from {accuracy(z_clean, y_test):.2f} to {accuracy(z_smudged, y_test):.2f}")

    print("\n2. Batch normalisation needs a real batch: drop a last batch that holds one example. "
          "One example's output as its input goes -2, 0, 2 (the rest of the batch fixed):")
    for size in (1, 2, 16):
        outputs, slopes = response(size, (-2.0, 0.0, 2.0))
        print(f"   batch of {size:2d}: outputs {np.round(outputs, 3).tolist()}, slope at 0: {slopes[1]:.3g}")

    V = np.array([[0.0, 0.0, 0.0], [3.0, 0.0, 4.0]])
    print(f"\n3. Unit length with eps under the sqrt: {V.tolist()} -> {unit_length(V).round(6).tolist()}")

    print("\n4. What each dtype does with an eps (\"absorbed\": 1 + eps rounds to 1, harmless; \"subnormal\": "
          "lost where subnormals are flushed to zero):")
    for dtype, (smallest, normal, gap) in LIMITS.items():
        fates = ", ".join(f"{eps:g} {fate(eps, dtype)}" for eps in (EPS_FLOAT32_HABIT, EPS, 1e-3))
        print(f"   {dtype:8s}  smallest normal {normal:.3g}, rounds to 0 at or below {smallest / 2:.3g}: {fates}")
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
