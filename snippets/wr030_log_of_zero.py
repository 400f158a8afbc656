"""WR-030: log of zero in a hand-written loss.

A logistic regression that is doing well: the loss falls every epoch and 98%
of the examples are right. Then one very confident, correct prediction
rounds to exactly 1.0, the textbook cross-entropy takes log(1 - 1.0) = log(0),
and the printed loss is nan -- with nothing wrong with the weights. Taking the
gradient through that log (the chain rule written out) then puts nan into the
weights as well. In float32 the rounding comes much sooner. The fix computes
the loss from the logits.

Run it: python snippets/wr030_log_of_zero.py
"""
# --8<-- [start:setup]
import numpy as np

SEED = 3


def make_data(seed=SEED, n=200, scale=10.0):
    """One feature; six examples sit far out (x = +-80), where the rest lie within about +-23."""
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


def train(lr=0.05, epochs=30, loss_fn=textbook_bce, chain_rule=False, dtype=np.float64, scale=10.0, verbose=False):
    """Gradient descent on w and b, in the given float type."""
    x, y = (a.astype(dtype) for a in make_data(scale=scale))
    w = b = dtype(0)
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
        history["ones"].append(int(np.sum(p == 1)))      # outputs that rounded to exactly 1.0
        if verbose:
            print(f"epoch {epoch:2d}  loss {loss:.4f}  accuracy {history['accuracy'][-1]:.2f}  w {w:.3f}")
        if chain_rule:       # dL/dp * dp/dz, written out: divides by 1 - p
            dz = (-(y / p) + (1 - y) / (1 - p)) / n * p * (1 - p)
        else:                # the simplified p - y
            dz = (p - y) / n
        w -= lr * np.sum(dz * x)
        b -= lr * np.sum(dz)
    return history
# --8<-- [end:setup]


# --8<-- [start:reproduce]
def saturation_point(dtype=np.float64):
    """The smallest z of this float type whose sigmoid rounds to exactly 1.0 (found, not typed in)."""
    lo, hi = dtype(1), dtype(100)
    while np.nextafter(lo, hi) != hi:        # bisect over the floats between lo and hi
        mid = dtype((float(lo) + float(hi)) / 2)
        if mid in (lo, hi):
            mid = np.nextafter(lo, hi)
        if sigmoid(mid) == 1:
            hi = mid
        else:
            lo = mid
    return hi


if __name__ == "__main__":
    print("Textbook cross-entropy, printed every epoch:")
    raw = train(verbose=True)
    t = next(i for i, v in enumerate(raw["loss"]) if not np.isfinite(v))
    print(f"\nAt epoch {t}: {raw['ones'][t]} outputs are exactly 1.0, accuracy {raw['accuracy'][t]:.2f}, "
          f"w {raw['w'][t]:.3f} -- the weights are fine.")
    print("The sigmoid rounds to exactly 1.0 for z above "
          + ", ".join(f"{float(saturation_point(d)):.4f} in {d.__name__}" for d in (np.float64, np.float32, np.float16)))

    chained = train(chain_rule=True)
    bad_w = next(i for i, v in enumerate(chained["w"]) if not np.isfinite(v))
    print(f"\nWith the gradient taken through the log (chain rule written out): w is nan from epoch {bad_w}.")

    single = train(dtype=np.float32)
    t32 = next(i for i, v in enumerate(single["loss"]) if not np.isfinite(v))
    print(f"In float32 the same run's loss is nan from epoch {t32}: {single['ones'][t32]} outputs are already 1.0.")
# --8<-- [end:reproduce]


# --8<-- [start:fix]
def bce_from_logits(z, y):
    """The same cross-entropy written in z: log(1 + e^z) - y*z, with no log of a probability."""
    return float(np.mean(np.logaddexp(0, z) - y * z))


def clipped_bce(z, y, eps=1e-12):
    """Fine for printing, if 1 - eps does not round back to 1.0 in z's float
    type: 1e-12 works in float64, not in float32."""
    p = np.clip(sigmoid(z), eps, 1 - eps)
    return float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)))


if __name__ == "__main__":
    fixed = train(loss_fn=bce_from_logits)
    print("Loss computed from the logits, every 5 epochs:")
    for epoch in (*range(0, 30, 5), 29):
        print(f"epoch {epoch:2d}  loss {fixed['loss'][epoch]:.4f}  accuracy {fixed['accuracy'][epoch]:.2f}")

    x, y = make_data()
    z = fixed["w"][14] * x + fixed["b"][14]          # the weights of epoch 14
    print(f"\nAt epoch 14, clipped loss {clipped_bce(z, y):.4f}; from logits {bce_from_logits(z, y):.4f}")

    z32, y32 = z.astype(np.float32), y.astype(np.float32)
    print(f"In float32, 1 - 1e-12 rounds to 1.0: {np.float32(1) - np.float32(1e-12) == 1}.")
    with np.errstate(divide="ignore", invalid="ignore"):   # the clip at 1e-12 fails here, on purpose
        print(f"  clipped at 1e-12: {clipped_bce(z32, y32)}; clipped at 1e-7 (Keras's epsilon): "
              f"{clipped_bce(z32, y32, eps=1e-7):.4f}; from logits: {bce_from_logits(z32, y32):.4f}")
# --8<-- [end:fix]


def figure_data():
    with np.errstate(all="ignore"):
        raw = train()
    fixed = train(loss_fn=bce_from_logits)
    first_nan = next(i for i, v in enumerate(raw["loss"]) if not np.isfinite(v))
    x, _ = make_data()
    epochs = list(range(len(raw["loss"])))
    largest = [w * float(np.max(x)) for w in raw["w"]]
    limits = {d.__name__: float(saturation_point(d)) for d in (np.float64, np.float32)}
    return {
        "alt": (f"Two panels. Left: the loss per epoch on a log scale. The textbook loss falls from "
                f"{raw['loss'][0]:.3f} to {raw['loss'][first_nan - 1]:.4f} and is nan from epoch {first_nan}; "
                f"the loss computed from the logits follows the same curve and keeps falling, to "
                f"{fixed['loss'][-1]:.4f}. Right: the largest logit grows steadily; it crosses "
                f"{limits['float64']:.2f}, where the float64 sigmoid rounds to exactly 1.0, at epoch {first_nan}, "
                f"and was past {limits['float32']:.2f}, the float32 point, from epoch "
                f"{next(i for i, v in enumerate(largest) if v > limits['float32'])}."),
        "caption": "Nothing blows up: a correct, confident output rounds to 1.0 and the log does the rest.",
        "panels": [
            {"title": "Loss per epoch", "xlabel": "epoch", "ylabel": "loss (log scale)", "yscale": "log",
             "series": [{"label": "textbook loss (log of p)", "x": epochs, "y": raw["loss"], "width": 4.0},
                        {"label": "loss from logits", "x": epochs, "y": fixed["loss"]}],
             "vlines": [{"x": first_nan, "label": f"textbook loss nan from epoch {first_nan}"}]},
            {"title": "Largest logit", "xlabel": "epoch", "ylabel": "w * max(x)",
             "series": [{"label": "largest logit", "x": epochs, "y": largest}]
             + [{"label": f"{name} sigmoid rounds to 1.0 past {limit:.2f}", "style": "dashed",
                 "x": epochs, "y": [limit] * len(epochs)} for name, limit in limits.items()]},
        ],
        "sparkline": {"label": "textbook loss per epoch", "values": raw["loss"]},
    }
