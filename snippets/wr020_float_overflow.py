"""WR-020: float overflow -- exp returns inf, and the inf becomes nan.

The naive sigmoid and softmax that every course writes first, fed the logits
a real loop produces once weights have grown (a few hundred to a thousand),
next to stable versions that never exponentiate a large positive number.

Run it: python snippets/wr020_float_overflow.py
"""
import warnings

# --8<-- [start:reproduce]
import numpy as np


def naive_sigmoid(z):
    return 1.0 / (1.0 + np.exp(-z))          # exp(1000) overflows for z = -1000


def naive_softmax(z):
    e = np.exp(z)                             # inf for any logit above ~709.78
    return e / e.sum()                        # inf / inf is nan


def naive_bce(z, y):
    """Cross-entropy of a sigmoid output, written the textbook way."""
    p = naive_sigmoid(z)
    return -(y * np.log(p) + (1 - y) * np.log(1 - p))
# --8<-- [end:reproduce]

DTYPES = (np.float16, np.float32, np.float64)
LOGITS = np.array([-1000.0, -300.0, -20.0, 0.0, 20.0, 300.0, 1000.0])


# --8<-- [start:thresholds]
def overflow_threshold(dtype):
    """Largest x of this dtype with a finite exp(x), found from np.finfo."""
    dtype = np.dtype(dtype).type
    x = dtype(np.log(np.finfo(dtype).max))    # about the right place, then step down
    with np.errstate(over="ignore"):
        while not np.isfinite(np.exp(x)):
            x = np.nextafter(x, dtype(-np.inf))
    return x
# --8<-- [end:thresholds]


# --8<-- [start:confirm]
def find_the_overflow(z):
    """Stop at the line that overflows instead of carrying an inf onwards."""
    with np.errstate(over="raise", invalid="raise"):
        return naive_sigmoid(z)               # raises FloatingPointError here
# --8<-- [end:confirm]


# --8<-- [start:fix]
def stable_sigmoid(z):
    """Only ever computes exp of a non-positive number."""
    e = np.exp(-np.abs(z))                    # in (0, 1]: cannot overflow
    return np.where(z >= 0, 1.0 / (1.0 + e), e / (1.0 + e))


def stable_softmax(z, axis=-1):
    shifted = z - np.max(z, axis=axis, keepdims=True)   # largest logit becomes 0
    e = np.exp(shifted)
    return e / e.sum(axis=axis, keepdims=True)


def log_softmax(z, axis=-1):
    """log(softmax(z)) computed in log space (the log-sum-exp trick)."""
    shifted = z - np.max(z, axis=axis, keepdims=True)
    return shifted - np.log(np.sum(np.exp(shifted), axis=axis, keepdims=True))


def bce_from_logits(z, y):
    """-log(sigmoid(z)) for y=1 and -log(1 - sigmoid(z)) for y=0, without the sigmoid.

    log(1 + exp(-z)) is a log of a sum of exps: np.logaddexp(0, -z).
    """
    return y * np.logaddexp(0.0, -z) + (1 - y) * np.logaddexp(0.0, z)
# --8<-- [end:fix]


def caught_warnings(fn, *args, repeat=1, action="always"):
    """Run fn and return the texts of the RuntimeWarnings it raised."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter(action)
        for _ in range(repeat):
            result = fn(*args)
    return result, [str(w.message) for w in caught if w.category is RuntimeWarning]


def figure_data():
    """Plain numbers for the page's picture: exp in each dtype, up to where it breaks."""
    series, vlines = [], []
    for width, dtype in zip((7.0, 4.0, 1.6), DTYPES):
        limit = float(overflow_threshold(dtype))
        x = np.geomspace(0.5, min(limit * 1.15, 760.0), 300).astype(dtype)
        with np.errstate(over="ignore"):
            y = np.exp(x).astype(np.float64)
        # log10 of the value, so float64's 1e308 fits on the axis; inf leaves a gap
        exponent = np.where(np.isfinite(y), np.log10(np.where(np.isfinite(y), y, 1.0)), np.nan)
        # drawn widest first so the lines stay visible where they coincide
        series.append({"label": f"exp in {dtype.__name__}", "x": x.astype(float).tolist(),
                       "y": exponent.tolist(), "width": width, "end_marker": True})
        vlines.append({"x": limit, "label": f"{dtype.__name__}: inf past {limit:.2f}"})
    limits = ", ".join(v["label"] for v in vlines)
    return {
        "alt": (f"The size of exp(x), as a power of ten, against x (log scale), computed in float16, float32 "
                f"and float64. The three lines lie on top of each other until each type's largest value, "
                f"where the line stops: {limits}."),
        "caption": "Where exp overflows: each line ends at its type's largest finite value.",
        "panels": [{
            "title": "exp(x) by float type",
            "xlabel": "x (log scale)", "ylabel": "exp(x) as a power of ten", "xscale": "log",
            "series": series, "vlines": vlines,
        }],
        "sparkline": {"label": "exp(x) for x = 1, 2, 4, ... 1024 in float64",
                      "values": [float(np.exp(np.float64(2.0 ** k))) if 2.0 ** k < 709 else float("inf")
                                 for k in range(11)]},
    }


def main():
    print("Overflow threshold of exp, from np.finfo:")
    for dtype in DTYPES:
        x = overflow_threshold(dtype)
        above = np.nextafter(x, dtype(np.inf))
        with np.errstate(over="ignore"):
            print(f"  {dtype.__name__:8s} max {np.finfo(dtype).max:.6g}: exp({x}) = {np.exp(x)}, "
                  f"exp({above}) = {np.exp(above)}")

    print("\nNaive sigmoid on logits", LOGITS.tolist())
    print(" ", naive_sigmoid(LOGITS))
    print("Stable sigmoid:")
    print(" ", stable_sigmoid(LOGITS))

    logits = np.array([1000.0, 999.0, 998.0])
    print("\nNaive softmax of", logits.tolist(), "->", naive_softmax(logits))
    print("Stable softmax ->", stable_softmax(logits))

    print("\nTextbook cross-entropy, label 1, logit -1000:", naive_bce(np.array(-1000.0), 1.0))
    print("From logits with logaddexp:                  ", bce_from_logits(np.array(-1000.0), 1.0))

    print("\nThe same overflow five times, default warning filter:")
    _, texts = caught_warnings(naive_sigmoid, LOGITS, repeat=5, action="default")
    print(f"  {len(texts)} warning printed: {texts}")

    try:
        find_the_overflow(LOGITS)
    except FloatingPointError as exc:
        print(f"\nWith np.errstate(over='raise'): FloatingPointError: {exc}")


if __name__ == "__main__":
    main()
