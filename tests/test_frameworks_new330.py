"""Opt-in: what WR-330 says about PyTorch, Keras/TensorFlow and JAX, checked against the real libraries.

Runs only with TRAINWRECK_FRAMEWORK_TESTS=1, in the scratch interpreters (/work/scratch/<name>/bin/python, or
TRAINWRECK_<NAME>_PYTHON). Each check is a small program whose printed JSON the test reads.
"""
import textwrap

import numpy as np
import pytest

from trainwreck.catalog import load

from conftest import ROOT, assert_entry_says, load_snippet
from framework_runner import OPT_IN, check_cited_line, keras, run

pytestmark = OPT_IN

wr330 = load_snippet("wr330_unnormalised_inputs")


@pytest.fixture(scope="module")
def images(tmp_path_factory) -> str:
    """The snippet's training images and labels, saved for the framework programs."""
    X, y = wr330.load_images()
    (X_train, y_train), _ = wr330.split(X, y)
    path = tmp_path_factory.mktemp("wr330") / "images.npz"
    np.savez(path, X=X_train, y=y_train)
    return str(path)


# --- WR-330 ---------------------------------------------------------------------------------------

def with_images(images: str, body: str) -> str:
    """A program that starts by loading the snippet's training images (raw and standardised)."""
    return textwrap.dedent(IMAGES_LOADED).replace("IMAGES", repr(images)) + textwrap.dedent(body)


IMAGES_LOADED = """
    import json, numpy as np
    data = np.load(IMAGES)
    X, y = data["X"], data["y"]
    freq = np.bincount(y, minlength=4) / len(y)
    guess = float(-(freq * np.log(freq)).sum())
    standardised = ((X - X.mean(0)) / X.std(0)).astype("float32")
"""


def test_pytorch_refuses_uint8_wraps_it_and_freezes_on_raw_pixels(images):
    out = run("torch", with_images(images, """
        import torch
        raw_u8 = torch.from_numpy(X)
        try:
            torch.nn.Linear(64, 16)(raw_u8)
            refused = False
        except RuntimeError:
            refused = True
        wrapped = (raw_u8[0, :3] - 128).tolist()
        result = {}
        for name, inputs in (("raw", raw_u8.float()), ("standardised", torch.from_numpy(standardised))):
            torch.manual_seed(0)
            net = torch.nn.Sequential(torch.nn.Linear(64, 16), torch.nn.Sigmoid(), torch.nn.Linear(16, 4))
            opt = torch.optim.SGD(net.parameters(), lr=0.5)
            target = torch.from_numpy(y).long()
            for epoch in range(60):
                loss = torch.nn.functional.cross_entropy(net(inputs), target)
                opt.zero_grad(); loss.backward(); opt.step()
            hidden = torch.sigmoid(net[0](inputs))
            result[name] = {"loss": loss.item(), "constant": int((hidden.std(0) < 1e-3).sum())}
        print(json.dumps({"refused": refused, "wrapped": wrapped, "first": X[0, :3].tolist(), "guess": guess, **result}))
    """))
    assert out["refused"]
    assert out["wrapped"] == [(v - 128) % 256 for v in out["first"]]
    assert abs(out["raw"]["loss"] - out["guess"]) < 0.01 and out["raw"]["constant"] >= 14
    assert out["standardised"]["loss"] < 0.1


@pytest.mark.parametrize("backend", ["jax", "tensorflow"])
def test_keras_takes_uint8_silently_and_freezes_on_raw_pixels(images, backend):
    out = keras(backend, with_images(images, """
        import keras
        result = {}
        for name, inputs in (("raw", X), ("standardised", standardised)):
            keras.utils.set_random_seed(0)
            model = keras.Sequential([keras.Input((64,)), keras.layers.Dense(16, activation="sigmoid"),
                                      keras.layers.Dense(4)])
            model.compile(optimizer=keras.optimizers.SGD(0.5),
                          loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True))
            history = model.fit(inputs, y, batch_size=len(y), epochs=60, verbose=0)
            result[name] = history.history["loss"][-1]
        print(json.dumps({"dtype": str(X.dtype), "guess": guess, **result}))
    """))
    assert out["dtype"] == "uint8"
    assert abs(out["raw"] - out["guess"]) < 0.01 and out["standardised"] < 0.1


def test_jax_promotes_uint8_silently_wraps_it_and_standardize_takes_the_statistics():
    out = run("jax", """
        import inspect, json, numpy as np, jax, jax.numpy as jnp
        x = jnp.asarray(np.array([[0, 81, 127, 255]], dtype=np.uint8))
        shifted = x - 128
        product = x @ jnp.ones((4, 2), jnp.float32)
        params = inspect.signature(jax.nn.standardize).parameters
        print(json.dumps({"shifted": np.asarray(shifted).tolist(), "shifted_dtype": str(shifted.dtype),
                          "product_dtype": str(product.dtype), "params": list(params)}))
    """)
    assert out["shifted"] == [[128, 209, 255, 127]] and out["shifted_dtype"] == "uint8"
    assert out["product_dtype"] == "float32"
    assert {"mean", "variance", "axis"} <= set(out["params"])


# --- the loud outcome: the building table with two features in the thousands ------------------------------

@pytest.fixture(scope="module")
def table(tmp_path_factory) -> str:
    """The snippet's building table, raw and standardised, and its standardised target."""
    y, inputs = wr330.table_inputs()
    path = tmp_path_factory.mktemp("wr330") / "table.npz"
    np.savez(path, raw=inputs["raw units"], standardised=inputs["standardised"], y=y)
    return str(path)


def with_table(table: str, body: str) -> str:
    return textwrap.dedent(TABLE_LOADED).replace("TABLE", repr(table)) + textwrap.dedent(body)


TABLE_LOADED = """
    import json, math, numpy as np
    data = np.load(TABLE)
    def first(losses, test):
        return next((i for i, v in enumerate(losses) if test(v)), None)
"""


def test_pytorch_linear_goes_inf_then_nan_silently_and_a_relu_net_dies(table):
    out = run("torch", with_table(table, """
        import torch, warnings
        warnings.simplefilter("error")                        # a warning would fail the program
        y = torch.tensor(data["y"], dtype=torch.float32)[:, None]
        result = {}
        for kind, make in (("linear", lambda: torch.nn.Linear(4, 1)),
                           ("relu", lambda: torch.nn.Sequential(torch.nn.Linear(4, 16), torch.nn.ReLU(),
                                                                torch.nn.Linear(16, 1)))):
            for name in ("raw", "standardised"):
                x = torch.tensor(data[name], dtype=torch.float32)
                torch.manual_seed(0)
                net = make()
                opt = torch.optim.SGD(net.parameters(), lr=0.1)
                losses = []
                for epoch in range(60):
                    loss = torch.nn.functional.mse_loss(net(x), y)
                    losses.append(loss.item())
                    opt.zero_grad(); loss.backward(); opt.step()
                entry = {"inf": first(losses, math.isinf), "nan": first(losses, math.isnan), "last": losses[-1],
                         "jump": losses[1] / losses[0]}
                if kind == "relu":
                    entry["dead"] = int(((net[0](x) > 0).sum(0) == 0).sum())
                result[f"{kind} {name}"] = entry
        print(json.dumps(result))
    """))
    assert out["linear raw"]["inf"] == 3 and out["linear raw"]["nan"] == 8
    assert out["linear standardised"]["inf"] is None and out["linear standardised"]["last"] < 0.05
    relu = out["relu raw"]
    assert relu["inf"] is None and relu["nan"] is None and relu["jump"] > 1e15 and relu["dead"] == 16
    assert out["relu standardised"]["last"] < 0.1 and out["relu standardised"]["dead"] < 16


@pytest.mark.parametrize("backend, nan_epoch", [("jax", 8), ("tensorflow", 9)])
def test_keras_progress_line_shows_inf_then_nan_and_terminate_on_nan_stops_at_the_inf(table, backend, nan_epoch):
    out = keras(backend, with_table(table, """
        import contextlib, io, keras
        def model():
            keras.utils.set_random_seed(0)
            m = keras.Sequential([keras.Input((4,)), keras.layers.Dense(1)])
            m.compile(optimizer=keras.optimizers.SGD(0.1), loss="mse")
            return m
        y = data["y"].astype("float32")
        printed = io.StringIO()
        with contextlib.redirect_stdout(printed):
            raw = model().fit(data["raw"].astype("float32"), y, batch_size=len(y), epochs=10, verbose=2)
        lines = printed.getvalue().splitlines()
        losses = raw.history["loss"]
        said = io.StringIO()
        with contextlib.redirect_stdout(said):
            stopped = model().fit(data["raw"].astype("float32"), y, batch_size=len(y), epochs=10, verbose=0,
                                  callbacks=[keras.callbacks.TerminateOnNaN()])
        fixed = model().fit(data["standardised"].astype("float32"), y, batch_size=len(y), epochs=60, verbose=0)
        print(json.dumps({"inf": first(losses, math.isinf), "nan": first(losses, math.isnan),
                          "lines": [l for l in lines if "loss:" in l], "other": [l for l in lines if "loss:" not in l
                                                                                 and not l.startswith("Epoch ")],
                          "stopped": len(stopped.history["loss"]), "said": said.getvalue().splitlines(),
                          "fixed": fixed.history["loss"][-1]}))
    """))
    assert out["inf"] == 3 and out["nan"] == nan_epoch - 1                  # history counts from 0, Keras from 1
    assert out["lines"][3].endswith("loss: inf") and out["lines"][nan_epoch - 1].endswith("loss: nan")
    assert out["other"] == []                                             # nothing but the epochs' lines
    assert out["stopped"] == 4 and out["fixed"] < 0.05
    # the callback's one line, word for word as the entry quotes and declares it
    assert out["said"] == ["Batch 0: Invalid loss, terminating training"]
    declared = [m for m in load(ROOT / "catalog").entries["WR-330"].messages if m.text.startswith("Batch")]
    assert declared and declared[0].matches(out["said"][0]) and declared[0].example == out["said"][0]


def test_jax_linear_goes_inf_then_nan_silently(table):
    out = run("jax", with_table(table, """
        import warnings, jax, jax.numpy as jnp
        warnings.simplefilter("error")
        y = jnp.asarray(data["y"], jnp.float32)
        result = {}
        for name in ("raw", "standardised"):
            x = jnp.asarray(data[name], jnp.float32)
            k1, k2 = jax.random.split(jax.random.key(0))
            params = {"w": jax.random.uniform(k1, (4,), minval=-0.5, maxval=0.5),
                      "b": jax.random.uniform(k2, (), minval=-0.5, maxval=0.5)}
            def loss(p):
                return jnp.mean((x @ p["w"] + p["b"] - y) ** 2)
            @jax.jit
            def step(p):
                value, grad = jax.value_and_grad(loss)(p)
                return value, jax.tree.map(lambda a, g: a - 0.1 * g, p, grad)
            losses = []
            for _ in range(60):
                value, params = step(params)
                losses.append(float(value))
            result[name] = {"inf": first(losses, math.isinf), "nan": first(losses, math.isnan), "last": losses[-1]}
        print(json.dumps(result))
    """))
    assert out["raw"]["inf"] == 3 and out["raw"]["nan"] == 8
    assert out["standardised"]["inf"] is None and out["standardised"]["last"] < 0.05


# --- the cited lines of installed packages say what the entry quotes them for ---------------------------

CITED = [
    # (entry, interpreter, file in site-packages, line, text the line holds, URL the entry cites)
    ("WR-330", "jax", "keras/src/layers/preprocessing/normalization.py", 251, "def adapt(self, data):",
     "https://github.com/keras-team/keras/blob/v3.15.1/keras/src/layers/preprocessing/normalization.py#L251"),
    ("WR-330", "jax", "keras/src/layers/preprocessing/rescaling.py", 8, "class Rescaling(",
     "https://github.com/keras-team/keras/blob/v3.15.1/keras/src/layers/preprocessing/rescaling.py#L8"),
    ("WR-330", "jax", "jax/_src/nn/functions.py", 649, "def standardize(",
     "https://github.com/jax-ml/jax/blob/jax-v0.10.2/jax/_src/nn/functions.py#L649"),
    # TerminateOnNaN: the check that takes inf as well as nan, and the line it prints
    ("WR-330", "jax", "keras/src/callbacks/terminate_on_nan.py", 59, "if np.isnan(loss) or np.isinf(loss):",
     "https://github.com/keras-team/keras/blob/v3.15.1/keras/src/callbacks/terminate_on_nan.py#L59-L67"),
    ("WR-330", "jax", "keras/src/callbacks/terminate_on_nan.py", 67,
     'f"Batch {batch}: Invalid loss, terminating training"',
     "https://github.com/keras-team/keras/blob/v3.15.1/keras/src/callbacks/terminate_on_nan.py#L59-L67"),
]


@pytest.mark.parametrize("entry_id, name, relative, line, text, url", CITED,
                         ids=[f"{c[2]}:{c[3]}" for c in CITED])
def test_cited_line_of_the_installed_package(entry_id, name, relative, line, text, url):
    check_cited_line(entry_id, name, relative, line, text, url)


def test_albumentations_to_tensor_v2_keeps_the_pixels_and_normalize_divides_by_255():
    """WR-330's PyTorch section: albumentations' ToTensorV2 moves the channels first and keeps an 8-bit picture's values
    as they were; A.Normalize, with its max_pixel_value of 255, scales them."""
    out = run("torch", """
        import json
        try:
            import albumentations as A
            from albumentations.pytorch import ToTensorV2
        except ImportError:
            print(json.dumps({"missing": True}))
            raise SystemExit
        import numpy as np
        img = np.full((4, 5, 3), 200, np.uint8)
        raw = A.Compose([ToTensorV2()])(image=img)["image"]
        scaled = A.Compose([A.Normalize(mean=0.0, std=1.0), ToTensorV2()])(image=img)["image"]
        to_float = A.Compose([A.ToFloat(), ToTensorV2()])(image=img)["image"]
        print(json.dumps({"missing": False, "version": A.__version__, "shape": list(raw.shape), "dtype": str(raw.dtype),
                          "max": float(raw.max()), "scaled": float(scaled.max()), "to_float": float(to_float.max())}))
    """)
    if out["missing"]:
        pytest.skip("albumentations is not installed in the torch interpreter (pip install albumentations there)")
    assert out["shape"] == [3, 4, 5] and out["dtype"] == "torch.uint8" and out["max"] == 200.0
    assert abs(out["scaled"] - 200 / 255) < 1e-6 and abs(out["to_float"] - 200 / 255) < 1e-6
    assert_entry_says("WR-330", ["neither does albumentations' `ToTensorV2`, which only moves the channels first",
                                 "whose `max_pixel_value` of 255 divides them",
                                 "`A.ToFloat`, which divides them by its `max_value` (by default the largest value of "
                                 "the image's dtype, 255 for uint8)"])
