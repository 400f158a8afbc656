"""WR-330: unnormalised inputs -- raw 0..255 pixels saturate the first layer and the loss never moves;
features in the thousands put a linear model past its stability limit and the loss goes to inf.

The two tabs: a one-hidden-layer network with sigmoid units, initialised the way nn.Linear
does (weights for inputs of unit scale), trained by gradient descent on 8x8
grey images. Fed the pixels as the loader hands them over -- uint8, 0..255,
all positive -- the first pre-activations are about a hundred times too large,
nearly every unit sits on a flat end of its sigmoid, and every update moves a
unit's pre-activation by about the same amount for every image. Within a few
epochs all hidden units give one output whatever the image, and the loss stays
at the value of guessing by class frequency. On the way, uint8 arithmetic bites:
dividing in place is refused, and `X - 128` wraps around. The fix: convert to
float, then standardise with the training split's mean and standard deviation.

Below the tabs, the loud outcome, which needs three things: a path to the output that stays linear, a
loss whose gradient grows with the error (the squared error) and a step that is not normalised (plain
gradient descent). Here that is a linear regression on a table with an area and a pressure in their units.
The Hessian of its mean squared error, 2 A^T A / n, has a largest eigenvalue set by those features' mean
squares, so a rate that trains standardised features is far past 2 / lambda_max and the loss grows to inf,
then nan. A softmax regression on the raw pixels stays finite (its cross-entropy's gradient in the logits
is bounded), and so does the linear regression under Adam (its step is about the rate, whatever the
gradient); both are below the tabs too. A ReLU network on the raw table, or on the raw pixels, ends quiet:
its units die, because the rows share a large offset; centred but not scaled, the same table sends the
same network to nan.

Run it: python snippets/wr330_unnormalised_inputs.py
"""
# --8<-- [start:setup]
import numpy as np

SEED = 330
CLASSES = 4
SIDE = 8
HIDDEN = 16
SATURATED = 6.0     # |z| past which the sigmoid's slope is below 1% of its slope at 0


def load_images(seed=SEED, n=500):
    """8x8 grey images as an image loader returns them: uint8, 0..255. Class k has a bright band:
    across the top, down the left, across the bottom or down the right."""
    rng = np.random.default_rng(seed)
    y = rng.integers(0, CLASSES, n)
    band = np.zeros((CLASSES, SIDE, SIDE))
    band[0, 2:5, :], band[1, :, 2:5], band[2, 5:, :], band[3, :, 5:] = 1, 1, 1, 1
    images = 100 + 60 * band[y] + rng.normal(0, 40, (n, SIDE, SIDE))
    return np.clip(np.rint(images), 0, 255).astype(np.uint8).reshape(n, -1), y


def split(X, y, n_train=400):
    return (X[:n_train], y[:n_train]), (X[n_train:], y[n_train:])


def init_params(inputs, seed=SEED + 1):
    """nn.Linear's default: weights and biases uniform in +-1/sqrt(fan_in), a scale meant for inputs of size ~1."""
    rng = np.random.default_rng(seed)
    a, b = 1 / np.sqrt(inputs), 1 / np.sqrt(HIDDEN)
    return {"W1": rng.uniform(-a, a, (inputs, HIDDEN)), "b1": rng.uniform(-a, a, HIDDEN),
            "W2": rng.uniform(-b, b, (HIDDEN, CLASSES)), "b2": rng.uniform(-b, b, CLASSES)}


def sigmoid(z):
    return 0.5 * (1.0 + np.tanh(z / 2.0))          # the same function as 1/(1+exp(-z)), without overflow


def log_softmax(z):
    z = z - z.max(axis=1, keepdims=True)
    return z - np.log(np.exp(z).sum(axis=1, keepdims=True))


def first_layer(params, X):
    """The first pre-activations at initialisation: their spread, and the share that saturate the sigmoid."""
    z1 = X @ params["W1"] + params["b1"]
    return {"std": float(z1.std()), "saturated": float(np.mean(np.abs(z1) > SATURATED))}


def train(X, y, lr=0.5, epochs=60, log_every=0, seed=SEED + 1):
    """Full-batch gradient descent on the cross-entropy. Returns the loss before each update and, for
    each epoch, how many hidden units gave the same output (to 1e-3) for every image."""
    params = init_params(X.shape[1], seed)
    onehot = np.eye(CLASSES)[y]
    losses, constant = [], []
    for epoch in range(epochs):
        h = sigmoid(X @ params["W1"] + params["b1"])
        logp = log_softmax(h @ params["W2"] + params["b2"])
        losses.append(float(-(onehot * logp).sum(axis=1).mean()))
        constant.append(int(np.sum(h.std(axis=0) < 1e-3)))
        if log_every and (epoch % log_every == 0 or epoch == epochs - 1):
            print(f"epoch {epoch:2d}  loss {losses[-1]:.4f}")
        g2 = (np.exp(logp) - onehot) / len(y)
        g1 = (g2 @ params["W2"].T) * h * (1 - h)
        params["W2"] -= lr * h.T @ g2
        params["b2"] -= lr * g2.sum(axis=0)
        params["W1"] -= lr * X.T @ g1
        params["b1"] -= lr * g1.sum(axis=0)
    return {"loss": losses, "constant": constant, "params": params}


def frequency_loss(y):
    """The loss of a model that ignores the image and predicts the class frequencies."""
    freq = np.bincount(y, minlength=CLASSES) / len(y)
    return float(-(freq * np.log(freq)).sum())


# --- The other outcome: a path to the output that stays linear, features in the thousands ---------------
# A linear model has nothing to saturate or switch off, and its mean squared error is exactly quadratic in
# the weights, with a Hessian 2 A^T A / n (A = the inputs with a column of ones): the stability limit
# 2/lambda_max is then exact, not a local approximation, so this is the cleanest place to watch input
# scale set it.

TABLE_LR = 0.1          # a rate that trains the standardised table comfortably (its limit is 0.88)
TABLE_EPOCHS = 60


def load_table(seed=SEED, n=200):
    """Four features of a building as a sensor log records them: a share in 0..1 and a score near 0,
    next to a floor area (about 1500 m^2) and an air pressure (about 1013 hPa); the target, already
    standardised, depends on all four."""
    rng = np.random.default_rng(seed + 1000)
    share, score = rng.uniform(0.1, 0.9, n), rng.normal(0, 1, n)
    area, pressure = rng.normal(1500, 400, n), rng.normal(1013, 10, n)
    X = np.column_stack([share, score, area, pressure])
    target = 2 * share + 0.5 * score + (area - 1500) / 400 - 0.3 * (pressure - 1013) / 10 + 0.2 * rng.normal(0, 1, n)
    return X, (target - target.mean()) / target.std()


def fit_linear(X, y, lr=TABLE_LR, epochs=TABLE_EPOCHS, log_every=0, seed=SEED + 2):
    """Full-batch gradient descent on the mean squared error of y = Xw + b, initialised as nn.Linear
    initialises a layer. Returns the loss before each update (epoch 0 = the initial weights); stops
    at the first nan. Prints every log_every-th loss and the first inf and the first nan."""
    rng = np.random.default_rng(seed)
    a = 1 / np.sqrt(X.shape[1])
    w, b = rng.uniform(-a, a, X.shape[1]), rng.uniform(-a, a)
    losses = []
    for epoch in range(epochs):
        residual = X @ w + b - y
        # the mean squared error as np.mean computes it -- the sum of the squares, then a division -- written
        # out so that NumPy's overflow warning names this line rather than a file inside NumPy
        losses.append(float(np.add.reduce(residual ** 2) / len(y)))
        first_of_its_kind = np.isnan(losses[-1]) or (np.isinf(losses[-1]) and (epoch == 0 or np.isfinite(losses[-2])))
        if log_every and (epoch % log_every == 0 or epoch == epochs - 1 or first_of_its_kind):
            print(f"epoch {epoch:2d}  loss {losses[-1]:.4g}")
        if np.isnan(losses[-1]):
            break
        grad = 2 * residual / len(y)
        w, b = w - lr * (X.T @ grad), b - lr * grad.sum()
    return losses


def linear_curvature(X):
    """The Hessian of the mean squared error of a linear model in (w, b): 2 A^T A / n with A = [X, 1],
    twice the second-moment matrix of the inputs with a constant 1 appended. Its largest and smallest
    eigenvalues, their ratio, and the rate 2 / lambda_max past which gradient descent diverges."""
    A = np.column_stack([X, np.ones(len(X))])
    values = np.linalg.eigvalsh(2 * A.T @ A / len(A))
    return {"largest": float(values[-1]), "smallest": float(values[0]),
            "condition": float(values[-1] / values[0]), "limit": float(2 / values[-1])}
# --8<-- [end:setup]


# --8<-- [start:reproduce]
def last_line(error):
    """The last line of the traceback the error would print."""
    return f"{type(error).__module__}.{type(error).__qualname__}: {error}"


if __name__ == "__main__":
    X, y = load_images()
    (X_train, y_train), _ = split(X, y)
    print(f"Images as loaded: {X.dtype}, {X.shape[1]} pixels each, values {X.min()}..{X.max()}, "
          f"mean {X.mean():.1f}")
    try:
        scaled = X_train.copy()
        scaled /= 255
    except TypeError as error:                        # NumPy's casting error is a TypeError
        print(f"Scaling in place, X /= 255:\n  {last_line(error)}")
    print(f"Centring with X - 128 keeps uint8 and wraps around:\n  {X_train[0, :6]} -> {(X_train - 128)[0, :6]}")

    raw = X_train.astype(np.float64)
    start = first_layer(init_params(raw.shape[1]), raw)
    print(f"\nConverted to float64 but not scaled: the first pre-activations have std {start['std']:.1f},\n"
          f"and {start['saturated']:.0%} of them saturate the sigmoid (|z| > {SATURATED:g}).")
    run = train(raw, y_train, log_every=6)
    print(f"{run['constant'][-1]} of {HIDDEN} hidden units now give one output for every image.\n"
          f"The loss of guessing by class frequency: {frequency_loss(y_train):.4f}")

    table, target = load_table()
    limit = linear_curvature(table)["limit"]
    print(f"\nA linear model on four features of a building, two of them in the thousands (area, pressure),\n"
          f"left in their units: 2/lambda_max = {limit:.2g}, so the rate {TABLE_LR:g} is {TABLE_LR / limit:.2g} times "
          f"the stability limit.")
    fit_linear(table, target, log_every=6)
# --8<-- [end:reproduce]


# --8<-- [start:fix]
def fit_standardiser(X_train):
    """Mean and standard deviation per pixel, from the training split only, in float64.
    A pixel that never varies keeps a scale of 1 instead of a division by zero (WR-060)."""
    X_train = X_train.astype(np.float64)
    std = X_train.std(axis=0)
    return X_train.mean(axis=0), np.where(std > 0, std, 1.0)


def standardise(X, stats):
    mean, std = stats
    return (X.astype(np.float64) - mean) / std


if __name__ == "__main__":
    X, y = load_images()
    (X_train, y_train), (X_val, y_val) = split(X, y)
    print(f"Centring after converting to float:\n  {X_train[0, :6]} -> {X_train[0, :6].astype(np.float64) - 128}")
    stats = fit_standardiser(X_train)
    train_std, val_std = standardise(X_train, stats), standardise(X_val, stats)
    start = first_layer(init_params(train_std.shape[1]), train_std)
    print(f"Standardised with the mean and std of the {len(X_train)} training images\n"
          f"(pixel means {stats[0].min():.0f}..{stats[0].max():.0f}): the first pre-activations have std "
          f"{start['std']:.2f}, {start['saturated']:.0%} saturate.")
    run = train(train_std, y_train, log_every=6)
    params = run["params"]
    hidden = sigmoid(val_std @ params["W1"] + params["b1"])
    accuracy = np.mean((hidden @ params["W2"] + params["b2"]).argmax(axis=1) == y_val)
    print(f"{len(X_val)} validation images, scaled with the training statistics: {accuracy:.0%} correct.\n"
          f"Hidden units stuck at one output: {run['constant'][-1]}")
    unit = train(X_train / 255.0, y_train)
    print(f"Scaled to [0, 1] without centring, the same run ends at {unit['loss'][-1]:.4f}\n"
          f"after {len(unit['loss'])} epochs.")

    table, target = load_table()
    table_std = standardise(table, fit_standardiser(table))
    print(f"\nThe building table standardised the same way: 2/lambda_max = {linear_curvature(table_std)['limit']:.2f}, "
          f"and the rate {TABLE_LR:g} trains the linear model:")
    fit_linear(table_std, target, log_every=6)
# --8<-- [end:fix]


RATES = (1e-4, 3e-4, 1e-3, 3e-3, 1e-2, 3e-2, 0.1, 0.3, 0.5, 1.0, 3.0)


def training_inputs():
    """The training images three ways: as loaded (converted to float64), scaled to [0, 1], standardised."""
    X, y = load_images()
    (X_train, y_train), _ = split(X, y)
    return y_train, {"raw 0..255": X_train.astype(np.float64), "scaled to [0, 1]": X_train / 255.0,
                     "standardised": standardise(X_train, fit_standardiser(X_train))}


def input_curvature(X):
    """The spectrum of the inputs' second-moment matrix X^T X / n -- the curvature a first-layer weight
    vector sees (for a linear unit under squared error it is the Hessian): its largest and smallest
    eigenvalues, their ratio, and how closely the top eigenvector points along the mean input."""
    values, vectors = np.linalg.eigh(X.T @ X / len(X))
    mean = X.mean(axis=0)
    norm = np.linalg.norm(mean)
    along = float(abs(vectors[:, -1] @ mean) / norm) if norm > 0 else 0.0
    return {"largest": float(values[-1]), "smallest": float(values[0]),
            "condition": float(values[-1] / values[0]), "along_mean": along}


def first_update_shift(X, y, lr=0.5):
    """How the first gradient step moves each hidden unit's pre-activation, image by image: for each unit
    that gets any gradient, the mean size of the move and its spread over the images divided by that size.
    A small ratio means the step moves the unit by the same amount for every image."""
    params = init_params(X.shape[1])
    h = sigmoid(X @ params["W1"] + params["b1"])
    logp = log_softmax(h @ params["W2"] + params["b2"])
    g1 = ((np.exp(logp) - np.eye(CLASSES)[y]) / len(y) @ params["W2"].T) * h * (1 - h)
    live = np.abs(g1).sum(axis=0) > 0
    move = -lr * (X @ (X.T @ g1[:, live]) + g1[:, live].sum(axis=0))
    return {"units": int(live.sum()), "spread_over_mean": move.std(axis=0) / np.abs(move.mean(axis=0)),
            "size": np.abs(move.mean(axis=0)), "flat_slopes": float(np.mean(h * (1 - h) == 0))}


SWEPT = (("raw", "raw 0..255"), ("scaled", "scaled to [0, 1]"), ("standardised", "standardised"))


def rate_sweep():
    """The last loss after 60 epochs at each rate, for the raw, the [0, 1] and the standardised training images."""
    y, inputs = training_inputs()
    return {name: [train(inputs[key], y, lr=lr)["loss"][-1] for lr in RATES] for name, key in SWEPT}


def best_of(sweep, name):
    """The lowest last loss of one input scaling over the sweep, and the rate that reached it."""
    i = int(np.argmin(sweep[name]))
    return sweep[name][i], RATES[i]


def runs():
    y, inputs = training_inputs()
    return {name: train(data, y) for name, data in inputs.items()}


def standardised_wins_from(sweep):
    """The smallest rate from which the standardised inputs end lower than the raw ones at every rate."""
    wins = [s < r for s, r in zip(sweep["standardised"], sweep["raw"])]
    first = next(i for i in range(len(RATES)) if all(wins[i:]))
    return RATES[first]


def fit_relu_net(X, y, lr=TABLE_LR, epochs=TABLE_EPOCHS, seed=SEED + 3):
    """The same table through one hidden layer of 16 ReLUs (nn.Linear's initialisation), the same loss
    and rate. Returns, before each update (epoch 0 = the initial weights): the loss, how many hidden units
    are dead (zero for every row), each unit's share of rows on which it is active, the mean residual,
    the output weights, and each unit's change of pre-activation from that update, row by row."""
    rng = np.random.default_rng(seed)
    a, c = 1 / np.sqrt(X.shape[1]), 1 / np.sqrt(HIDDEN)
    W1, b1 = rng.uniform(-a, a, (X.shape[1], HIDDEN)), rng.uniform(-a, a, HIDDEN)
    w2, b2 = rng.uniform(-c, c, HIDDEN), rng.uniform(-c, c)
    run = {"loss": [], "dead": [], "active": [], "mean_residual": [], "w2": [], "shift": []}
    for _ in range(epochs):
        z = X @ W1 + b1
        h = np.maximum(z, 0)
        residual = h @ w2 + b2 - y
        active = (z > 0).mean(axis=0)
        for key, value in (("loss", float(np.mean(residual ** 2))), ("dead", int(np.sum(active == 0))),
                           ("active", active), ("mean_residual", float(residual.mean())), ("w2", w2)):
            run[key].append(value)
        if np.isnan(run["loss"][-1]):
            break
        grad = 2 * residual / len(y)
        back = grad[:, None] * w2 * (z > 0)
        W1, b1, w2, b2 = W1 - lr * (X.T @ back), b1 - lr * back.sum(axis=0), w2 - lr * (h.T @ grad), b2 - lr * grad.sum()
        run["shift"].append(X @ W1 + b1 - z)
    return run


def fit_relu_classifier(X, y, lr, epochs=60, seed=SEED + 1):
    """The image network with ReLU instead of sigmoid hidden units (same initialisation, loss and
    full-batch descent). Returns the loss before each update and the hidden units dead at the start and
    at the end (zero for every image)."""
    params = init_params(X.shape[1], seed)
    onehot = np.eye(CLASSES)[y]
    losses, dead = [], []
    for _ in range(epochs + 1):
        z = X @ params["W1"] + params["b1"]
        h = np.maximum(z, 0)
        dead.append(int(np.sum((z > 0).sum(axis=0) == 0)))
        logp = log_softmax(h @ params["W2"] + params["b2"])
        losses.append(float(-(onehot * logp).sum(axis=1).mean()))
        g2 = (np.exp(logp) - onehot) / len(y)
        g1 = (g2 @ params["W2"].T) * (z > 0)
        params["W2"] -= lr * h.T @ g2
        params["b2"] -= lr * g2.sum(axis=0)
        params["W1"] -= lr * X.T @ g1
        params["b1"] -= lr * g1.sum(axis=0)
    return {"loss": losses[:epochs], "dead_at_start": dead[0], "dead_at_end": dead[epochs]}


def fit_softmax_regression(X, y, lr, epochs=60, stable=True, seed=SEED + 1):
    """A path that stays linear under another loss: one linear layer (nn.Linear's initialisation) on the
    images, full-batch descent on the cross-entropy. Returns the loss before each update and each update's
    size, the norm of the change of the weights and biases. stable=False writes the softmax as
    exp(z) / sum exp(z), without shifting by the largest logit (WR-020)."""
    rng = np.random.default_rng(seed)
    a = 1 / np.sqrt(X.shape[1])
    W, b = rng.uniform(-a, a, (X.shape[1], CLASSES)), rng.uniform(-a, a, CLASSES)
    onehot = np.eye(CLASSES)[y]
    losses, steps = [], []
    for _ in range(epochs):
        z = X @ W + b
        if stable:
            logp = log_softmax(z)
        else:
            logp = np.log(np.exp(z) / np.exp(z).sum(axis=1, keepdims=True))
        losses.append(float(-(onehot * logp).sum(axis=1).mean()))
        g = (np.exp(logp) - onehot) / len(y)                 # p - y: each row's norm is at most sqrt(2)
        dW, db = lr * X.T @ g, lr * g.sum(axis=0)
        W, b = W - dW, b - db
        steps.append(float(np.sqrt(np.sum(dW ** 2) + np.sum(db ** 2))))
    return {"loss": losses, "step": steps}


ADAM_BETAS = (0.9, 0.999)


def fit_linear_adam(X, y, lr=TABLE_LR, epochs=300, seed=SEED + 2, eps=1e-8):
    """fit_linear's model, initialisation and loss under Adam (Kingma & Ba 2015, Algorithm 1) instead of
    plain gradient descent. Returns the loss before each update and the largest change of any one
    parameter in any update."""
    rng = np.random.default_rng(seed)
    a = 1 / np.sqrt(X.shape[1])
    theta = np.r_[rng.uniform(-a, a, X.shape[1]), rng.uniform(-a, a)]
    A = np.column_stack([X, np.ones(len(X))])
    (beta1, beta2), m, v = ADAM_BETAS, np.zeros_like(theta), np.zeros_like(theta)
    losses, largest = [], 0.0
    for t in range(1, epochs + 1):
        residual = A @ theta - y
        losses.append(float(np.mean(residual ** 2)))
        grad = A.T @ (2 * residual / len(y))
        m, v = beta1 * m + (1 - beta1) * grad, beta2 * v + (1 - beta2) * grad ** 2
        step = lr * (m / (1 - beta1 ** t)) / (np.sqrt(v / (1 - beta2 ** t)) + eps)
        theta, largest = theta - step, max(largest, float(np.abs(step).max()))
    return {"loss": losses, "largest_step": largest}


def first_nonfinite(losses):
    """The epoch of the first inf or nan loss, or None."""
    return next((i for i, v in enumerate(losses) if not np.isfinite(v)), None)


def table_inputs():
    """The table as recorded and standardised with its own (training) statistics, and the target."""
    X, y = load_table()
    return y, {"raw units": X, "standardised": standardise(X, fit_standardiser(X))}


def table_runs():
    """The linear model at TABLE_LR on raw and standardised features, and on raw features at a rate just
    below their limit 2 / lambda_max. NumPy's overflow warnings are silenced: a test records them."""
    y, inputs = table_inputs()
    limit = linear_curvature(inputs["raw units"])["limit"]
    with np.errstate(over="ignore", invalid="ignore"):
        return {"raw units": fit_linear(inputs["raw units"], y), "standardised": fit_linear(inputs["standardised"], y),
                "raw, rate below the limit": fit_linear(inputs["raw units"], y, lr=0.98 * limit)}


def figure_data():
    """Plain numbers for the page's picture, four panels: the loss per epoch for the three input scalings
    of the images at lr 0.5, the hidden units that became constant, the last loss of a rate sweep, and the
    loss of the linear model on the building table (raw at TABLE_LR, standardised, raw just below its limit)."""
    curves, sweep, table = runs(), rate_sweep(), table_runs()
    X, y = load_images()
    guess = frequency_loss(split(X, y)[0][1])
    epochs = list(range(len(curves["raw 0..255"]["loss"])))
    (raw_best, raw_rate), (unit_best, unit_rate) = best_of(sweep, "raw"), best_of(sweep, "scaled")
    return {
        "alt": (f"Left: loss per epoch at learning rate 0.5. Raw pixels start at "
                f"{curves['raw 0..255']['loss'][0]:.4f} and end at {curves['raw 0..255']['loss'][-1]:.4f}, the loss "
                f"of guessing by class frequency ({guess:.4f}); pixels scaled to [0, 1] end at "
                f"{curves['scaled to [0, 1]']['loss'][-1]:.4f}; standardised pixels at "
                f"{curves['standardised']['loss'][-1]:.4f}. Middle: hidden units whose output is the same for "
                f"every image: with raw pixels {curves['raw 0..255']['constant'][0]} of {HIDDEN} at epoch 0 and "
                f"{curves['raw 0..255']['constant'][-1]} at the end; with standardised pixels "
                f"{curves['standardised']['constant'][-1]}. Right: last loss after 60 epochs against the learning "
                f"rate, log scales: the best raw run ends at {raw_best:.4f} (rate {raw_rate:g}), the best run on pixels "
                f"scaled to [0, 1] at {unit_best:.4f} (rate {unit_rate:g}); standardised pixels end lower than raw "
                f"ones at every rate from {standardised_wins_from(sweep):g} up. Fourth: a linear model on a table "
                f"with two features in the thousands, learning rate {TABLE_LR:g}: on raw features the loss starts at "
                f"{table['raw units'][0]:.5g}, grows every epoch and is inf at epoch {first_nonfinite(table['raw units'])}; "
                f"on standardised features it falls to {table['standardised'][-1]:.4f}; on raw features at a rate just "
                f"below the stability limit it ends at {table['raw, rate below the limit'][-1]:.1f}."),
        "caption": "Raw pixels: the first layer starts out saturated, its units freeze into constants, and "
                   "no rate trains the network; scaled to [0, 1] it trains, standardised best. A linear regression "
                   "trained by plain gradient descent, with nothing to go flat, fails loudly instead: features in "
                   "the thousands put the rate past 2/λ_max and the loss goes to inf, while a rate below the limit "
                   "stops at a plateau.",
        "panels": [
            {"title": "Loss per epoch, lr 0.5", "xlabel": "epoch", "ylabel": "loss", "yscale": "log",
             "series": [{"label": name, "x": epochs, "y": run["loss"], "width": 3.0 if name.startswith("raw") else 1.6}
                        for name, run in curves.items()]},
            {"title": "Hidden units frozen", "xlabel": "epoch", "ylabel": f"units of {HIDDEN} with one output",
             "series": [{"label": name, "x": epochs, "y": run["constant"]} for name, run in curves.items()]},
            {"title": "Last loss after 60 epochs", "xlabel": "learning rate", "ylabel": "loss",
             "xscale": "log", "yscale": "log",
             "series": [{"label": label, "x": list(RATES), "y": sweep[name], "end_marker": True}
                        for name, label in SWEPT]},
            {"title": f"Features in the thousands, linear model, lr {TABLE_LR:g}", "xlabel": "epoch",
             "ylabel": "loss", "yscale": "log",
             "series": [{"label": name, "x": list(range(len(loss))), "y": loss,
                         "style": "dashed" if "below" in name else "solid"}
                        for name, loss in table.items()]},
        ],
        "sparkline": {"label": "loss per epoch, raw pixels", "values": curves["raw 0..255"]["loss"]},
    }
