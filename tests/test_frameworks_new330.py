"""Opt-in: what WR-330 says about PyTorch, Keras/TensorFlow and JAX, checked against the real libraries.

Runs only with TRAINWRECK_FRAMEWORK_TESTS=1, in the scratch interpreters (/work/scratch/<name>/bin/python, or
TRAINWRECK_<NAME>_PYTHON). Each check is a small program whose printed JSON the test reads.
"""
import textwrap

import numpy as np
import pytest

from conftest import load_snippet
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


# --- the cited lines of installed packages say what the entry quotes them for ---------------------------

CITED = [
    # (entry, interpreter, file in site-packages, line, text the line holds, URL the entry cites)
    ("WR-330", "jax", "keras/src/layers/preprocessing/normalization.py", 251, "def adapt(self, data):",
     "https://github.com/keras-team/keras/blob/v3.15.1/keras/src/layers/preprocessing/normalization.py#L251"),
    ("WR-330", "jax", "keras/src/layers/preprocessing/rescaling.py", 8, "class Rescaling(",
     "https://github.com/keras-team/keras/blob/v3.15.1/keras/src/layers/preprocessing/rescaling.py#L8"),
    ("WR-330", "jax", "jax/_src/nn/functions.py", 649, "def standardize(",
     "https://github.com/jax-ml/jax/blob/jax-v0.10.2/jax/_src/nn/functions.py#L649"),
]


@pytest.mark.parametrize("entry_id, name, relative, line, text, url", CITED, ids=[c[2] for c in CITED])
def test_cited_line_of_the_installed_package(entry_id, name, relative, line, text, url):
    check_cited_line(entry_id, name, relative, line, text, url)
