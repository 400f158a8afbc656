"""WR-020: float overflow -- exp returns inf, and the inf becomes nan.

The naive sigmoid, softmax and cross-entropy that every course writes first,
fed the logits a real loop produces once weights have grown (a few hundred to
a thousand). The naive sigmoid only warns: its values are right. The softmax
and the loss give wrong numbers (nan, inf). The fix works in log space, from
the logits.

Run it: python snippets/wr020_float_overflow.py
"""
# --8<-- [start:setup]
import warnings

import numpy as np

LOGITS = np.array([-1000.0, -300.0, -20.0, 0.0, 20.0, 300.0, 1000.0])
BIG = np.array([1000.0, 999.0, 998.0])              # logits of a model whose weights have grown


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


def warnings_shown(fn, *args, repeat=1):
    """Run fn `repeat` times under Python's default filter; return the result and
    the warnings a terminal would have shown (once per line of code)."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("default")
        for _ in range(repeat):
            result = fn(*args)
    return result, [str(w.message) for w in caught]
# --8<-- [end:setup]


# --8<-- [start:reproduce]
def naive_sigmoid(z):
    return 1.0 / (1.0 + np.exp(-z))          # exp(1000) overflows for z = -1000


def naive_softmax(z):
    e = np.exp(z)                             # inf for any logit above ~709.78
    return e / e.sum()                        # inf / inf is nan


def naive_bce(z, y):
    """Cross-entropy of a sigmoid output, written the textbook way."""
    p = naive_sigmoid(z)
    return -(y * np.log(p) + (1 - y) * np.log(1 - p))


# --8<-- [start:confirm]
STOP = {"over": "raise", "divide": "raise", "invalid": "raise"}   # not "all": see Confirm it


def first_bad_line(fn, *args, stop=STOP):
    """Run fn with floating-point errors raised; name the error and the line, or None."""
    try:
        with np.errstate(**stop):
            fn(*args)
    except FloatingPointError as exc:
        frame = exc.__traceback__
        while frame.tb_next:                  # the innermost frame is the line that failed
            frame = frame.tb_next
        return f"{exc} (line {frame.tb_lineno}, in {frame.tb_frame.f_code.co_name})"
    return None
# --8<-- [end:confirm]


if __name__ == "__main__":
    print("exp(x) is inf past these x (from np.finfo):")
    for dtype in (np.float16, np.float32, np.float64):
        print(f"  {dtype.__name__:8s} {float(overflow_threshold(dtype)):.2f}")

    print("\nNaive sigmoid of", LOGITS.tolist())
    print(" ", naive_sigmoid(LOGITS))
    print("  (it warns, but every value is right: sigmoid(-1000) is below the smallest float)")

    print("\nWrong numbers:")
    print("  naive softmax of", BIG.tolist(), "->", naive_softmax(BIG))
    print("  in float32, logits [100, 99, 98] are enough:", naive_softmax(np.float32([100, 99, 98])))
    print("  textbook cross-entropy, label 1, logit -1000:", naive_bce(np.array(-1000.0), 1.0))
    print("  textbook cross-entropy, label 0, logit 40:   ", naive_bce(np.array(40.0), 0.0))
    print("  log(exp(1000) + exp(0)):", np.log(np.exp(1000.0) + np.exp(0.0)))

    _, shown = warnings_shown(naive_sigmoid, LOGITS, repeat=5)
    print(f"\nThe same overflow five times (five epochs): {len(shown)} warning shown")

    print("\nStopping at the first bad operation instead of carrying it on:")
    print("  over and invalid only, logit 40:",
          first_bad_line(naive_bce, np.array(40.0), 0.0, stop={"over": "raise", "invalid": "raise"})
          or "nothing raised, the loss is inf (log(0) counts as 'divide')")
    print("  over, divide and invalid, logit 40:", first_bad_line(naive_bce, np.array(40.0), 0.0))
    print("  over, divide and invalid, logit -1000:", first_bad_line(naive_bce, np.array(-1000.0), 1.0))
# --8<-- [end:reproduce]


# --8<-- [start:fix]
def stable_sigmoid(z):
    """Only ever computes exp of a number <= 0, so exp cannot overflow."""
    e = np.exp(-np.abs(z))                    # between 0 and 1; 0.0 past |z| ~ 745.13
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


if __name__ == "__main__":
    with np.errstate(over="raise", divide="raise", invalid="raise"):   # any overflow would stop here
        print("Stable softmax of", BIG.tolist(), "->", stable_softmax(BIG))
        print("  in float32, [100, 99, 98] ->", stable_softmax(np.float32([100, 99, 98])))
        print("Log-softmax of", BIG.tolist(), "->", log_softmax(BIG))
        print("Cross-entropy from the logit, label 1, logit -1000:", bce_from_logits(np.array(-1000.0), 1.0))
        print("Cross-entropy from the logit, label 0, logit 40:   ", bce_from_logits(np.array(40.0), 0.0))
        print("np.logaddexp(1000, 0):", np.logaddexp(1000.0, 0.0))
        print("Stable sigmoid of", LOGITS.tolist())
        print(" ", stable_sigmoid(LOGITS))
        print("  (it prints the same values as the naive one, without the warning)")
    print("All of it ran under np.errstate(over, divide and invalid = 'raise'): nothing overflowed.")
# --8<-- [end:fix]


DTYPES = (np.float16, np.float32, np.float64)


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
