"""WR-030: log of zero in a hand-written loss.

A logistic regression that is doing well: the loss falls every epoch and 98%
of the examples are right. Then one very confident, correct prediction
rounds to exactly 1.0, the textbook cross-entropy takes log(1 - 1.0) = log(0),
and the printed loss is nan -- with nothing wrong with the weights. Taking the
gradient through that log (the chain rule written out) then puts nan into the
weights as well. The fix computes the loss from the logits.

Run it: python snippets/wr030_log_of_zero.py
"""
# --8<-- [start:reproduce]
import numpy as np

SEED = 3


def make_data(seed=SEED, n=200, scale=10.0):
    """One unscaled feature; a few examples sit far from the boundary (x = +-80)."""
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n).astype(float)
    x = (np.where(y == 1, 1.0, -1.0) + 0.5 * rng.normal(size=n)) * scale
    x[:6] = np.where(y[:6] == 1, 8.0, -8.0) * scale
    return x, y


def sigmoid(z):
    return 1.0 / (1.0 + np.exp(-z))


def textbook_bce(z, y):
    p = sigmoid(z)
    return float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)))


def train(lr=0.05, epochs=30, loss_fn=textbook_bce, chain_rule=False, verbose=False):
    x, y = make_data()
    w = b = 0.0
    n = len(x)
    history = {"loss": [], "accuracy": [], "w": [], "b": [], "ones": []}
    for epoch in range(epochs):
        z = w * x + b
        p = sigmoid(z)
        loss = loss_fn(z, y)
        history["loss"].append(loss)
        history["accuracy"].append(float(np.mean((z > 0) == (y == 1))))
        history["w"].append(float(w))
        history["b"].append(float(b))
        history["ones"].append(int(np.sum(p == 1.0)))      # outputs that rounded to exactly 1.0
        if verbose:
            print(f"epoch {epoch:2d}  loss {loss:.4f}  accuracy {history['accuracy'][-1]:.2f}  w {w:.3f}")
        if chain_rule:       # dL/dp * dp/dz, written out: divides by 1 - p
            dz = (-(y / p) + (1 - y) / (1 - p)) / n * p * (1 - p)
        else:                # the simplified p - y
            dz = (p - y) / n
        w -= lr * np.sum(dz * x)
        b -= lr * np.sum(dz)
    return history
# --8<-- [end:reproduce]


# --8<-- [start:fix]
def clipped_bce(z, y, eps=1e-12):
    """Fine for printing: a saturated output costs at most -log(eps)."""
    p = np.clip(sigmoid(z), eps, 1 - eps)
    return float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)))


def bce_from_logits(z, y):
    """The same cross-entropy written in z: log(1 + e^z) - y*z, with no log of a probability."""
    return float(np.mean(np.logaddexp(0.0, z) - y * z))
# --8<-- [end:fix]


def saturation_point():
    """The smallest float64 z whose sigmoid rounds to exactly 1.0 (found, not typed in)."""
    lo, hi = 1.0, 100.0
    for _ in range(200):
        mid = (lo + hi) / 2
        if sigmoid(mid) == 1.0:
            hi = mid
        else:
            lo = mid
    return hi


def figure_data():
    with np.errstate(all="ignore"):
        raw = train()
    fixed = train(loss_fn=bce_from_logits)
    first_nan = next(i for i, v in enumerate(raw["loss"]) if not np.isfinite(v))
    x, _ = make_data()
    epochs = list(range(len(raw["loss"])))
    largest = [w * float(np.max(x)) for w in raw["w"]]
    return {
        "alt": (f"Two panels. Left: the loss per epoch on a log scale. The textbook loss falls from "
                f"{raw['loss'][0]:.3f} to {raw['loss'][first_nan - 1]:.4f} and is nan from epoch {first_nan}; "
                f"the loss computed from the logits follows the same curve and keeps falling, to "
                f"{fixed['loss'][-1]:.4f}. Right: the largest logit grows steadily and crosses "
                f"{saturation_point():.2f}, where the sigmoid rounds to exactly 1.0, at epoch {first_nan}."),
        "caption": "Nothing blows up: a correct, confident output rounds to 1.0 and the log does the rest.",
        "panels": [
            {"title": "Loss per epoch", "xlabel": "epoch", "ylabel": "loss (log scale)", "yscale": "log",
             "series": [{"label": "textbook loss (log of p)", "x": epochs, "y": raw["loss"], "width": 4.0},
                        {"label": "loss from logits", "x": epochs, "y": fixed["loss"]}],
             "vlines": [{"x": first_nan, "label": f"textbook loss nan from epoch {first_nan}"}]},
            {"title": "Largest logit", "xlabel": "epoch", "ylabel": "w * max(x)",
             "series": [{"label": "largest logit", "x": epochs, "y": largest},
                        {"label": f"sigmoid rounds to 1.0 past {saturation_point():.2f}", "style": "dashed",
                         "x": epochs, "y": [saturation_point()] * len(epochs)}]},
        ],
        "sparkline": {"label": "textbook loss per epoch", "values": raw["loss"]},
    }


def main():
    print("Textbook cross-entropy, printed every epoch:")
    raw = train(verbose=True)
    first_nan = next(i for i, v in enumerate(raw["loss"]) if not np.isfinite(v))
    print(f"\nAt epoch {first_nan}: {raw['ones'][first_nan]} outputs are exactly 1.0, "
          f"accuracy {raw['accuracy'][first_nan]:.2f}, w {raw['w'][first_nan]:.3f} -- the weights are fine.")
    print(f"The sigmoid rounds to exactly 1.0 for z above {saturation_point():.4f}.")

    chained = train(chain_rule=True)
    bad_w = next(i for i, v in enumerate(chained["w"]) if not np.isfinite(v))
    print(f"\nWith the gradient taken through the log (chain rule written out): w is nan from epoch {bad_w}.")

    fixed = train(loss_fn=bce_from_logits)
    print(f"\nLoss from logits: {fixed['loss'][0]:.4f} -> {fixed['loss'][-1]:.4f}, all finite: "
          f"{bool(np.all(np.isfinite(fixed['loss'])))}")
    x, y = make_data()
    z = raw["w"][first_nan] * x + raw["b"][first_nan]
    print(f"Clipped loss at epoch {first_nan}: {clipped_bce(z, y):.4f}; from logits: {bce_from_logits(z, y):.4f}")


if __name__ == "__main__":
    main()
