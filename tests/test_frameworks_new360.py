"""Opt-in: what WR-360 says about PyTorch, Keras/TensorFlow and JAX, checked against the real libraries.

Runs only with TRAINWRECK_FRAMEWORK_TESTS=1, in the scratch interpreters (/work/scratch/<name>/bin/python, or
TRAINWRECK_<NAME>_PYTHON). Each check trains the snippet's network shape (4 -> 16 ReLU -> 1) on the snippet's
training split with plain SGD at rate 0.05, full batch, float32, and prints JSON the test reads.
"""
import re
import textwrap

import numpy as np
import pytest

from conftest import assert_entry_says, load_snippet
from framework_runner import OPT_IN, check_cited_line, declared, keras, run, source_line

pytestmark = OPT_IN

wr360 = load_snippet("wr360_unscaled_targets")
FIRST_INF, FIRST_NAN = 3, 5     # epochs (counted from 0, as the snippet counts) the entry gives for PyTorch and JAX


@pytest.fixture(scope="module")
def prices(tmp_path_factory) -> str:
    X, y = wr360.load_prices()
    (X_train, y_train), (X_val, y_val) = wr360.split(X, y)
    path = tmp_path_factory.mktemp("wr360") / "prices.npz"
    np.savez(path, X=X_train.astype("float32"), y=y_train.astype("float32"),
             X_val=X_val.astype("float32"), y_val=y_val.astype("float32"))
    return str(path)


def with_prices(prices: str, body: str) -> str:
    head = """
        import json, math, warnings, numpy as np
        warnings.simplefilter("always")
        data = np.load(PRICES)
        X, y, X_val, y_val = data["X"], data["y"], data["X_val"], data["y_val"]
        mean, std = float(y.mean()), float(y.std())
        def clean(values):
            return [v if math.isfinite(v) else str(v) for v in values]
    """
    return textwrap.dedent(head).replace("PRICES", repr(prices)) + textwrap.dedent(body)


def first(values, test):
    return next(i for i, v in enumerate(values) if isinstance(v, str) and test(v))


def check_blowup(losses, y_mean_square):
    assert losses[0] == pytest.approx(y_mean_square, rel=0.01)
    assert all(b > a for a, b in zip(losses[:FIRST_INF - 1], losses[1:FIRST_INF]))


def test_pytorch_mse_climbs_to_inf_and_nan_without_a_word_and_standardised_targets_train(prices):
    out = run("torch", with_prices(prices, """
        import io, contextlib, torch
        def net():
            torch.manual_seed(0)
            return torch.nn.Sequential(torch.nn.Linear(4, 16), torch.nn.ReLU(), torch.nn.Linear(16, 1))
        Xt, yt = torch.from_numpy(X), torch.from_numpy(y)[:, None]
        printed = io.StringIO()
        with warnings.catch_warnings(record=True) as caught, contextlib.redirect_stdout(printed), \\
                contextlib.redirect_stderr(printed):
            model = net()
            opt = torch.optim.SGD(model.parameters(), lr=0.05)
            raw = []
            for epoch in range(8):
                loss = torch.nn.MSELoss()(model(Xt), yt)
                raw.append(loss.item()); opt.zero_grad(); loss.backward(); opt.step()
        model = net()
        opt = torch.optim.Adam(model.parameters(), lr=1e-3)
        adam = []
        for epoch in range(300):
            loss = torch.nn.MSELoss()(model(Xt), yt)
            adam.append(loss.item()); opt.zero_grad(); loss.backward(); opt.step()
        model = net()
        opt = torch.optim.SGD(model.parameters(), lr=0.05)
        scaled = (yt - mean) / std
        for epoch in range(300):
            loss = torch.nn.MSELoss()(model(Xt), scaled)
            opt.zero_grad(); loss.backward(); opt.step()
        with torch.no_grad():
            pred = model(torch.from_numpy(X_val))[:, 0].numpy() * std + mean
        rmse = float(np.sqrt(np.mean((pred - y_val) ** 2)))
        print(json.dumps({"raw": clean(raw), "adam": clean(adam), "printed": printed.getvalue(), "warnings": [str(w.message) for w in caught],
                          "scaled_end": loss.item(), "rmse": rmse, "baseline": float(np.sqrt(np.mean((y_val - mean) ** 2))),
                          "mean_square": float(np.mean(y.astype(np.float64) ** 2))}))
    """))
    raw = out["raw"]
    check_blowup(raw, out["mean_square"])
    assert first(raw, lambda v: v == "inf") == FIRST_INF and first(raw, lambda v: v == "nan") == FIRST_NAN
    assert out["printed"] == "" and out["warnings"] == []
    assert out["scaled_end"] < 0.1 and out["rmse"] < 0.4 * out["baseline"]
    adam = out["adam"]
    assert all(isinstance(v, float) for v in adam)                         # Adam: no inf, no nan
    assert adam[-1] > 0.99 * adam[0] > 1e6                                  # the loss stays in the millions
    assert_entry_says("WR-360", [f"inf from epoch {FIRST_INF} and nan from epoch {FIRST_NAN}",
                                 "With torch.optim.Adam instead the loss stays in the millions"])


KERAS_PROGRAM = """
    import io, contextlib, keras
    def model():
        keras.utils.set_random_seed(0)
        m = keras.Sequential([keras.Input((4,)), keras.layers.Dense(16, activation="relu"), keras.layers.Dense(1)])
        m.compile(optimizer=keras.optimizers.SGD(0.05), loss=keras.losses.MeanSquaredError())
        return m
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):          # the default verbosity: the progress bar a user sees
        plain = model().fit(X, y, batch_size=len(y), epochs=8).history["loss"]
    shown = printed.getvalue()
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        stopped = model().fit(X, y, batch_size=len(y), epochs=8, verbose=0,
                              callbacks=[keras.callbacks.TerminateOnNaN()]).history["loss"]
    to_scaled = keras.layers.Normalization(axis=None)
    to_scaled.adapt(y)
    to_units = keras.layers.Normalization(axis=None, mean=mean, variance=std ** 2, invert=True)
    scaled = np.asarray(to_scaled(y))
    m = model()
    history = m.fit(X, scaled, batch_size=len(y), epochs=300, verbose=0).history["loss"]
    pred = np.asarray(to_units(m.predict(X_val, verbose=0)))[:, 0]
    print(json.dumps({"plain": clean(plain), "shown": shown, "stopped": clean(stopped),
                      "message": printed.getvalue().strip(), "scaled_mean": float(scaled.mean()),
                      "scaled_std": float(scaled.std()), "scaled_end": history[-1],
                      "rmse": float(np.sqrt(np.mean((pred - y_val) ** 2))),
                      "baseline": float(np.sqrt(np.mean((y_val - mean) ** 2))),
                      "mean_square": float(np.mean(y.astype(np.float64) ** 2))}))
"""


@pytest.mark.parametrize("backend", ["jax", "tensorflow"])
def test_keras_mse_goes_inf_silently_terminate_on_nan_stops_and_normalization_inverts(prices, backend):
    out = keras(backend, with_prices(prices, KERAS_PROGRAM))
    plain = out["plain"]
    check_blowup(plain, out["mean_square"])
    assert first(plain, lambda v: v == "inf") == FIRST_INF
    assert all(v == "nan" for v in plain[first(plain, lambda v: v == "nan"):])
    # the progress bar, numbering epochs from 1, ends each epoch's line with the loss it reached
    shown = re.split(r"Epoch (\d+)/8\n", out["shown"])
    assert shown[0] == "" and [int(n) for n in shown[1::2]] == list(range(1, 9))
    bar = [re.findall(r"loss: (\S+)", text)[-1] for text in shown[2::2]]
    assert float(bar[0]) == pytest.approx(out["mean_square"], rel=0.01)
    assert bar[FIRST_INF] == "inf" and "inf" not in bar[:FIRST_INF]          # Epoch 4/8
    assert all(v == "nan" for v in bar[first(plain, lambda v: v == "nan"):])
    assert "Warning" not in out["shown"] and "Error" not in out["shown"]
    assert_entry_says("WR-360", [f"then loss: inf at Epoch {FIRST_INF + 1}/8 (Keras numbers epochs from 1: the "
                                 f"snippet's epoch {FIRST_INF}) and loss: nan after it"])
    assert out["stopped"][-1] == "inf" and len(out["stopped"]) == FIRST_INF + 1    # stops on the first inf
    message = declared("WR-360", "keras")[0]
    assert out["message"] == message.example and message.matches(out["message"])
    assert abs(out["scaled_mean"]) < 1e-3 and out["scaled_std"] == pytest.approx(1, rel=1e-3)
    assert out["scaled_end"] < 0.1 and out["rmse"] < 0.4 * out["baseline"]


def test_optax_squared_error_goes_inf_then_nan_silently_and_l2_loss_is_half_of_it(prices):
    out = run("jax", with_prices(prices, """
        import io, contextlib, jax, jax.numpy as jnp, optax
        k1, k2 = jax.random.split(jax.random.key(0))
        params = {"W1": jax.random.uniform(k1, (4, 16), minval=-0.5, maxval=0.5), "b1": jnp.zeros(16),
                  "W2": jax.random.uniform(k2, (16,), minval=-0.25, maxval=0.25), "b2": jnp.zeros(())}
        def forward(p, x):
            return jax.nn.relu(x @ p["W1"] + p["b1"]) @ p["W2"] + p["b2"]
        def make_step(target):
            def loss(p):
                return optax.squared_error(forward(p, X), target).mean()
            @jax.jit
            def step(p, s):
                value, grads = jax.value_and_grad(loss)(p)
                updates, s = opt.update(grads, s)
                return optax.apply_updates(p, updates), s, value
            return step
        opt = optax.sgd(0.05)
        printed = io.StringIO()
        with warnings.catch_warnings(record=True) as caught, contextlib.redirect_stdout(printed), \\
                contextlib.redirect_stderr(printed):
            p, s, raw = params, opt.init(params), []
            step = make_step(y)
            for _ in range(8):
                p, s, value = step(p, s)
                raw.append(float(value))
        scaled = jax.nn.standardize(jnp.asarray(y), mean=mean, variance=std ** 2, epsilon=0)
        back = np.asarray(scaled) * std + mean
        default = np.asarray(jax.nn.standardize(jnp.asarray([0.0, 2e-3]), mean=1e-3, variance=1e-6))
        p, s = params, opt.init(params)
        step = make_step(scaled)
        for _ in range(300):
            p, s, value = step(p, s)
        pred = np.asarray(forward(p, X_val)) * std + mean
        a, b = jnp.asarray([1.0, 2.0]), jnp.asarray([4.0, -1.0])
        print(json.dumps({"raw": clean(raw), "printed": printed.getvalue(), "warnings": [str(w.message) for w in caught],
                          "scaled_end": float(value), "rmse": float(np.sqrt(np.mean((pred - y_val) ** 2))),
                          "baseline": float(np.sqrt(np.mean((y_val - mean) ** 2))),
                          "half": np.asarray(optax.l2_loss(a, b) / optax.squared_error(a, b)).tolist(),
                          "roundtrip": float(np.abs(back - y).max() / y.std()), "default": default.tolist(),
                          "mean_square": float(np.mean(y.astype(np.float64) ** 2))}))
    """))
    raw = out["raw"]
    check_blowup(raw, out["mean_square"])
    assert first(raw, lambda v: v == "inf") == FIRST_INF and first(raw, lambda v: v == "nan") == FIRST_NAN
    assert out["printed"] == "" and out["warnings"] == []
    assert out["half"] == [0.5, 0.5]
    assert out["roundtrip"] < 1e-5                                          # epsilon=0: the inverse is exact
    # with the default epsilon, 1e-5, targets of variance 1e-6 come out near +-0.30, not +-1
    assert out["default"] == pytest.approx([-1 / np.sqrt(11), 1 / np.sqrt(11)], rel=1e-3)
    assert out["scaled_end"] < 0.1 and out["rmse"] < 0.4 * out["baseline"]


# --- the cited lines of installed packages say what the entry quotes them for ---------------------------

CITED = [
    ("WR-360", "torch", "torch/nn/modules/loss.py", 567, "class MSELoss(_Loss):",
     "https://github.com/pytorch/pytorch/blob/v2.13.0/torch/nn/modules/loss.py#L567"),
    ("WR-360", "jax", "keras/src/layers/preprocessing/normalization.py", 61, "invert: If `True`",
     "https://github.com/keras-team/keras/blob/v3.15.1/keras/src/layers/preprocessing/normalization.py#L61"),
    ("WR-360", "jax", "keras/src/callbacks/terminate_on_nan.py", 59, "if np.isnan(loss) or np.isinf(loss):",
     "https://github.com/keras-team/keras/blob/v3.15.1/keras/src/callbacks/terminate_on_nan.py#L59"),
    ("WR-360", "jax", "optax/losses/_regression.py", 24, "def squared_error(",
     "https://github.com/google-deepmind/optax/blob/v0.2.8/optax/losses/_regression.py#L24"),
    ("WR-360", "jax", "jax/_src/nn/functions.py", 649, "def standardize(",
     "https://github.com/jax-ml/jax/blob/jax-v0.10.2/jax/_src/nn/functions.py#L649"),
    ("WR-360", "jax", "jax/_src/nn/functions.py", 711, "lax.rsqrt(variance + epsilon)",
     "https://github.com/jax-ml/jax/blob/jax-v0.10.2/jax/_src/nn/functions.py#L711"),
]


@pytest.mark.parametrize("entry_id, name, relative, line, text, url", CITED, ids=[f"{c[2]}:{c[3]}" for c in CITED])
def test_cited_line_of_the_installed_package(entry_id, name, relative, line, text, url):
    check_cited_line(entry_id, name, relative, line, text, url)


def test_the_declared_keras_message_is_written_at_its_cited_line():
    message = declared("WR-360", "keras")[0]
    assert message.source == "https://github.com/keras-team/keras/blob/v3.15.1/keras/src/callbacks/terminate_on_nan.py#L67"
    assert 'f"Batch {batch}: Invalid loss, terminating training"' in source_line(
        "jax", "keras/src/callbacks/terminate_on_nan.py", 67)
