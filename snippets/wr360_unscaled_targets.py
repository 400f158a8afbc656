"""WR-360: regression targets left unscaled -- prices in the thousands make the first loss millions and the curvature huge.

A one-hidden-layer ReLU network, initialised the way nn.Linear does, fits a price from four features by
full-batch gradient descent on the mean squared error. The features are already standardised; only the
targets are left in their own units (a mean near 2900, a spread near 720). At initialisation the network
outputs about 0, so the residual is about minus the target and the first loss is the targets' mean square,
about 9e6. The network's output is a product of its two layers, so the curvature of the loss along their
joint directions grows with the residual: a rate that suits unit-scale targets (0.05) is far past the
stability limit, the output grows roughly as its own cube each epoch, and the loss reaches inf, then nan.
(A model linear in its parameters would converge at that rate on the same targets.) The fix: standardise
the targets with the mean and the standard deviation of the training split, train on those, and invert the
transform on the predictions.

Run it: python snippets/wr360_unscaled_targets.py
"""
# --8<-- [start:setup]
import numpy as np

SEED = 360
FEATURES = 4
HIDDEN = 16
LR = 0.05          # a rate that suits targets of unit scale


def load_prices(seed=SEED, n=300):
    """Four standardised features and a price in its own units: about 2900 on average, spread about 720."""
    rng = np.random.default_rng(seed)
    X = rng.normal(0, 1, (n, FEATURES))
    signal = np.sin(X[:, 0]) + 0.5 * X[:, 1] * X[:, 2] + 0.3 * X[:, 3] + 0.1 * rng.normal(0, 1, n)
    return X, 3000 + 800 * signal


def split(X, y, n_train=200):
    return (X[:n_train], y[:n_train]), (X[n_train:], y[n_train:])


def init_params(seed=SEED + 1):
    """nn.Linear's default: weights and biases uniform in +-1/sqrt(fan_in)."""
    rng = np.random.default_rng(seed)
    a, b = 1 / np.sqrt(FEATURES), 1 / np.sqrt(HIDDEN)
    return {"W1": rng.uniform(-a, a, (FEATURES, HIDDEN)), "b1": rng.uniform(-a, a, HIDDEN),
            "W2": rng.uniform(-b, b, HIDDEN), "b2": rng.uniform(-b, b, 1)}


def predict(params, X):
    z = X @ params["W1"] + params["b1"]
    return np.maximum(z, 0) @ params["W2"] + params["b2"][0], z


def gradients(params, X, y):
    """The mean squared error and its gradient: d loss / d output = 2 (output - y) / n, passed back
    through the output weights to the hidden layer."""
    out, z = predict(params, X)
    loss = float(np.mean((out - y) ** 2))
    h = np.maximum(z, 0)
    g = 2 * (out - y) / len(y)
    gh = g[:, None] * params["W2"] * (z > 0)
    grads = {"W1": X.T @ gh, "b1": gh.sum(axis=0), "W2": h.T @ g, "b2": np.array([g.sum()])}
    return loss, grads


def train(X, y, lr=LR, epochs=300, log_every=0, stop_at_nan=True):
    """Full-batch gradient descent. Returns the loss before each update (epoch 0 = the initial weights)
    and the output bias after each epoch."""
    params = init_params()
    losses, bias = [], []
    for epoch in range(epochs):
        loss, grads = gradients(params, X, y)
        losses.append(loss)
        if log_every and (epoch % log_every == 0 or epoch == epochs - 1 or not np.isfinite(loss)):
            print(f"epoch {epoch:3d}  loss {loss:.6g}")
        if stop_at_nan and np.isnan(loss):
            break
        for name, grad in grads.items():
            params[name] -= lr * grad
        bias.append(float(params["b2"][0]))
    return {"loss": losses, "bias": bias, "params": params}
# --8<-- [end:setup]


# --8<-- [start:reproduce]
if __name__ == "__main__":
    X, y = load_prices()
    (X_train, y_train), _ = split(X, y)
    print(f"Features standardised; targets (prices) left as they are: mean {y_train.mean():.1f}, "
          f"std {y_train.std():.1f}.\nA fresh network outputs about 0, so the first loss is about "
          f"mean^2 + var = {y_train.mean() ** 2 + y_train.var():.4g}.")
    norm = np.sqrt(sum(float(np.sum(g ** 2)) for g in gradients(init_params(), X_train, y_train)[1].values()))
    print(f"The gradient at the initial weights has norm {norm:.4g}.\n"
          f"Gradient descent at lr {LR:g}, mean squared error on the raw targets:")
    run = train(X_train, y_train, epochs=12, log_every=1)
# --8<-- [end:reproduce]


# --8<-- [start:fix]
def fit_target_scaler(y_train):
    """The targets' mean and standard deviation, from the training split only."""
    return float(y_train.mean()), float(y_train.std())


def to_scaled(y, scaler):
    mean, std = scaler
    return (y - mean) / std


def to_units(y_scaled, scaler):
    """Invert the transform: a prediction in standardised units back to the targets' own units."""
    mean, std = scaler
    return y_scaled * std + mean


if __name__ == "__main__":
    X, y = load_prices()
    (X_train, y_train), (X_val, y_val) = split(X, y)
    scaler = fit_target_scaler(y_train)
    print(f"Targets standardised by the training rows' mean {scaler[0]:.1f} and std {scaler[1]:.1f}; "
          f"the same lr {LR:g}:")
    run = train(X_train, to_scaled(y_train, scaler), log_every=30)
    predicted = to_units(predict(run["params"], X_val)[0], scaler)
    rmse = np.sqrt(np.mean((predicted - y_val) ** 2))
    print(f"Predictions turned back into prices: validation RMSE {rmse:.1f} on {len(y_val)} rows,\n"
          f"against {np.sqrt(np.mean((y_val - scaler[0]) ** 2)):.1f} for always predicting the training mean.")
# --8<-- [end:fix]


RATES = (1e-7, 3e-7, 1e-6, 3e-6, 1e-5, 3e-5, 1e-4, 3e-4, 1e-3, 1e-2, 5e-2, 0.1, 0.3)


def training_split():
    X, y = load_prices()
    return split(X, y)[0]


def quiet_train(X, y, lr, epochs=300):
    """train() with NumPy's overflow warnings silenced: a sweep visits rates that diverge on purpose."""
    with np.errstate(over="ignore", invalid="ignore"):
        return train(X, y, lr=lr, epochs=epochs)


def relative(run, y):
    """The last loss as a share of the targets' variance (1 = no better than predicting the mean)."""
    return run["loss"][-1] / float(np.var(y))


def rate_sweep():
    """The last loss after 300 epochs, as a share of the targets' variance, at each rate:
    raw targets and standardised ones (the same network, initialisation and number of steps)."""
    X, y = training_split()
    scaled = to_scaled(y, fit_target_scaler(y))
    return {"raw": [relative(quiet_train(X, y, lr), y) for lr in RATES],
            "standardised": [relative(quiet_train(X, scaled, lr), scaled) for lr in RATES]}


def best_of(sweep, name):
    """The lowest finite last loss of one target scaling over the sweep, and its rate."""
    finite = [(v, lr) for v, lr in zip(sweep[name], RATES) if np.isfinite(v)]
    return min(finite)


def flat(grads):
    return np.concatenate([grads[k].ravel() for k in ("W1", "b1", "W2", "b2")])


def unflat(vector):
    params, i = {}, 0
    for name, like in init_params().items():
        params[name] = vector[i:i + like.size].reshape(like.shape)
        i += like.size
    return params


def hessian(params, X, y, eps=1e-5):
    """The Hessian of the loss in all 97 parameters, by central differences of the exact gradient."""
    theta = flat(params)
    columns = []
    for i in range(theta.size):
        step = np.zeros_like(theta)
        step[i] = eps
        plus, minus = gradients(unflat(theta + step), X, y)[1], gradients(unflat(theta - step), X, y)[1]
        columns.append((flat(plus) - flat(minus)) / (2 * eps))
    H = np.array(columns)
    return (H + H.T) / 2


def sharpness(X, y, params=None):
    """The extreme eigenvalues of the Hessian at the starting weights (init_params() unless given), and the
    rate 2 / lambda_max: the limit of gradient descent on the quadratic model of the loss at the start."""
    ev = np.linalg.eigvalsh(hessian(init_params() if params is None else params, X, y))
    return {"lambda_max": float(ev[-1]), "lambda_min": float(ev[0]), "limit": 2 / float(ev[-1])}


def bias_at_mean(y):
    """init_params() with the output bias set to the training targets' mean ("init well", Karpathy 2019)."""
    params = init_params()
    params["b2"] = np.array([float(np.mean(y))])
    return params


def descend(params, X, y, lr, epochs=300, adam=False, loss_scale=1.0):
    """Full-batch plain gradient descent, or Adam (Kingma & Ba 2015, Algorithm 1: beta1 0.9, beta2 0.999,
    eps 1e-8), from the given parameters on loss_scale times the mean squared error. Records the unscaled
    loss before each update and stops at the first non-finite one."""
    params = {k: v.copy() for k, v in params.items()}
    m = {k: np.zeros_like(v) for k, v in params.items()}
    v2 = {k: np.zeros_like(v) for k, v in params.items()}
    losses = []
    with np.errstate(over="ignore", invalid="ignore"):
        for t in range(1, epochs + 1):
            loss, grads = gradients(params, X, y)
            losses.append(loss)
            if not np.isfinite(loss):
                break
            for k, g in grads.items():
                g = loss_scale * g
                if adam:
                    m[k] = 0.9 * m[k] + 0.1 * g
                    v2[k] = 0.999 * v2[k] + 0.001 * g ** 2
                    params[k] -= lr * (m[k] / (1 - 0.9 ** t)) / (np.sqrt(v2[k] / (1 - 0.999 ** t)) + 1e-8)
                else:
                    params[k] -= lr * g
    return {"loss": losses, "params": params}


def linear_fit(X, y, lr=LR, epochs=300):
    """The contrast: plain gradient descent at the same rate on a model linear in its parameters,
    y ~ X w + c, from zero. Its Hessian, 2 A^T A / n with A = [X, 1], does not contain y."""
    A = np.c_[X, np.ones(len(X))]
    theta, losses = np.zeros(A.shape[1]), []
    for _ in range(epochs):
        residual = A @ theta - y
        losses.append(float(np.mean(residual ** 2)))
        theta = theta - lr * 2 * A.T @ residual / len(y)
    best = np.linalg.lstsq(A, y, rcond=None)[0]
    return {"loss": losses, "theta": theta, "least_squares": float(np.mean((A @ best - y) ** 2)),
            "lambda_max": float(np.linalg.eigvalsh(2 * A.T @ A / len(y))[-1])}


def layer_gradients(params, X, y):
    """The gradient's norm in each layer's weights and biases."""
    return {name: float(np.linalg.norm(g)) for name, g in gradients(params, X, y)[1].items()}


def figure_data():
    """Plain numbers for the page's picture: the raw run's loss per epoch at lr 0.05 until it turns
    non-finite, the loss relative to the targets' variance over 300 epochs for the standardised run and
    the best raw run, and the last relative loss of a rate sweep."""
    X, y = training_split()
    scaled = to_scaled(y, fit_target_scaler(y))
    with np.errstate(over="ignore", invalid="ignore"):
        blowup = train(X, y, epochs=12)
    sweep = rate_sweep()
    raw_best, raw_rate = best_of(sweep, "raw")
    std_best, std_rate = best_of(sweep, "standardised")
    good = quiet_train(X, y, raw_rate)
    fixed = train(X, scaled)
    shown = [v if np.isfinite(v) else None for v in blowup["loss"]]
    last = max(i for i, v in enumerate(shown) if v is not None)
    epochs = list(range(len(fixed["loss"])))
    return {
        "alt": (f"Left: loss per epoch with raw targets at learning rate {LR:g}, log scale: "
                f"{blowup['loss'][0]:.3g} at epoch 0, {blowup['loss'][last]:.3g} at epoch {last}, then inf and nan. "
                f"Middle: loss as a share of the targets' variance over {len(epochs)} epochs: standardised targets at "
                f"rate {LR:g} end at {fixed['loss'][-1] / np.var(scaled):.4f}; the best raw run (rate {raw_rate:g}) "
                f"ends at {raw_best:.4f}. Right: that share after {len(epochs)} epochs against the rate, log scales: "
                f"raw targets never get below {raw_best:.4f} and diverge from rate "
                f"{min(lr for lr, v in zip(RATES, sweep['raw']) if not np.isfinite(v)):g}; standardised targets reach "
                f"{std_best:.4f} at rate {std_rate:g}."),
        "caption": "Raw targets: the first loss is the targets' mean square, a rate that suits unit-scale "
                   "targets diverges in a few epochs, and from the default initialisation no rate of the sweep "
                   "trains raw targets as well as standardised ones.",
        "panels": [
            {"title": f"Raw targets, lr {LR:g}", "xlabel": "epoch", "ylabel": "loss", "yscale": "log",
             "series": [{"label": "raw targets", "x": list(range(len(shown))), "y": shown, "end_marker": True}]},
            {"title": "Loss / variance of the targets", "xlabel": "epoch", "ylabel": "share of the variance",
             "yscale": "log",
             "series": [{"label": f"standardised, lr {LR:g}", "x": epochs, "y": list(np.array(fixed["loss"]) / np.var(scaled))},
                        {"label": f"raw, lr {raw_rate:g}", "x": epochs, "y": list(np.array(good["loss"]) / np.var(y))}]},
            {"title": "After 300 epochs", "xlabel": "learning rate", "ylabel": "share of the variance",
             "xscale": "log", "yscale": "log",
             "series": [{"label": name, "x": list(RATES), "y": [v if np.isfinite(v) else None for v in sweep[name]],
                         "end_marker": True}
                        for name in ("raw", "standardised")]},
        ],
        "sparkline": {"label": "loss per epoch, raw targets", "values": shown},
    }
