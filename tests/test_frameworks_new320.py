"""Opt-in: what WR-320 and WR-330 say about PyTorch, Keras/TensorFlow, JAX and CUDA, checked against the real
libraries.

Runs only with TRAINWRECK_FRAMEWORK_TESTS=1, in the scratch interpreters (/work/scratch/<name>/bin/python, or
TRAINWRECK_<NAME>_PYTHON). The CUDA check needs no GPU, only the CUDA runtime library: point
TRAINWRECK_CUDART at a libcudart.so (the nvidia-cuda-runtime-cu12 wheel holds one). Each check is a small
program whose printed JSON the test reads.
"""
import ctypes
import json
import math
import os
import subprocess
import textwrap
from pathlib import Path

import numpy as np
import pytest

from conftest import ROOT, load_snippet

ENABLED = os.environ.get("TRAINWRECK_FRAMEWORK_TESTS") == "1"
pytestmark = pytest.mark.skipif(not ENABLED, reason="framework checks are opt-in: set TRAINWRECK_FRAMEWORK_TESTS=1")

wr330 = load_snippet("wr330_unnormalised_inputs")


def interpreter(name: str) -> str:
    path = os.environ.get(f"TRAINWRECK_{name.upper()}_PYTHON", f"/work/scratch/{name}/bin/python")
    if not Path(path).is_file():
        pytest.skip(f"no {name} interpreter at {path} (set TRAINWRECK_{name.upper()}_PYTHON)")
    return path


def run(name: str, program: str, **env: str) -> dict:
    """Run the program in the framework's interpreter; it prints one JSON object on its last line."""
    result = subprocess.run([interpreter(name), "-c", textwrap.dedent(program)], capture_output=True, text=True,
                            timeout=300, env={**os.environ, "PYTHONWARNINGS": "", "TF_CPP_MIN_LOG_LEVEL": "2",
                                              **env}, cwd=ROOT)
    assert result.returncode == 0, result.stderr[-3000:]
    return json.loads(result.stdout.strip().splitlines()[-1])


def declared(entry_id: str, origin: str):
    from trainwreck.catalog import load

    found = [m for m in load(ROOT / "catalog").entries[entry_id].messages if m.origin == origin]
    assert found, f"{entry_id} declares no {origin} message"
    return found[0]


@pytest.fixture(scope="module")
def images(tmp_path_factory) -> str:
    """The snippet's training images and labels, saved for the framework programs."""
    X, y = wr330.load_images()
    (X_train, y_train), _ = wr330.split(X, y)
    path = tmp_path_factory.mktemp("wr330") / "images.npz"
    np.savez(path, X=X_train, y=y_train)
    return str(path)


# --- WR-320 ---------------------------------------------------------------------------------------

def test_pytorch_cpu_loss_names_the_target_and_skips_only_minus_100():
    out = run("torch", """
        import json, torch, torch.nn.functional as F
        z = torch.zeros(4, 10)
        said = {}
        for t in (10, -1, 255):
            try:
                F.cross_entropy(z, torch.tensor([0, 3, t, 2]))
            except IndexError as e:
                said[t] = str(e)
        skipped = F.cross_entropy(z, torch.tensor([0, 3, -100, 2])).item()
        bce = F.binary_cross_entropy_with_logits(torch.tensor([3.0]), torch.tensor([255.0])).item()
        refused = {}
        for name, call in (("bce", lambda: F.binary_cross_entropy(torch.tensor([0.5]), torch.tensor([255.0]))),
                           ("one_hot_10", lambda: F.one_hot(torch.tensor([10]), 10)),
                           ("one_hot_-1", lambda: F.one_hot(torch.tensor([-1]), 10))):
            try:
                call()
            except RuntimeError as e:
                refused[name] = type(e).__name__
        print(json.dumps({"said": said, "skipped": skipped, "ignore_index": torch.nn.CrossEntropyLoss().ignore_index,
                          "bce": bce, "refused": refused,
                          "accelerator_is_runtime": issubclass(torch.AcceleratorError, RuntimeError)}))
    """)
    message = declared("WR-320", "pytorch")
    assert out["said"]["10"] == message.example and message.matches(out["said"]["-1"])
    assert out["said"]["255"] == "Target 255 is out of bounds."
    assert out["skipped"] == pytest.approx(math.log(10)) and out["ignore_index"] == -100
    assert out["bce"] < 0                                      # softplus(3) - 255 * 3
    assert out["bce"] == pytest.approx(math.log1p(math.exp(3.0)) - 255 * 3.0, rel=1e-6)
    assert set(out["refused"]) == {"bce", "one_hot_10", "one_hot_-1"} and out["accelerator_is_runtime"]


def test_pytorch_bce_with_logits_number_in_the_prose():
    out = run("torch", """
        import json, torch, torch.nn.functional as F
        print(json.dumps({"loss": F.binary_cross_entropy_with_logits(torch.tensor([3.0]), torch.tensor([255.0])).item()}))
    """)
    from conftest import assert_entry_says
    assert_entry_says("WR-320", [f"returns a negative loss (−{-out['loss']:.2f} for a logit of 3 and a target of 255"])


def test_tensorflow_names_the_label_and_range_in_eager_and_in_fit():
    out = run("tf", """
        import json, numpy as np, tensorflow as tf, keras
        logits = np.zeros((4, 10), "float32")
        said = []
        try:
            keras.losses.sparse_categorical_crossentropy(np.array([0, 3, 10, 2]), logits, from_logits=True)
        except tf.errors.InvalidArgumentError as e:
            said.append(str(e))
        model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(10)])
        model.compile("sgd", keras.losses.SparseCategoricalCrossentropy(from_logits=True))
        try:
            model.fit(np.zeros((4, 3), "float32"), np.array([0, 3, 10, 2]), verbose=0)
        except tf.errors.InvalidArgumentError as e:
            said.append(str(e))
        print(json.dumps({"said": said}))
    """, KERAS_BACKEND="tensorflow")
    example = declared("WR-320", "tensorflow").example
    assert len(out["said"]) == 2 and all(example in text for text in out["said"])


def test_keras_on_jax_gives_bad_labels_a_loss_of_zero_and_ignore_class_leaves_them_out():
    out = run("jax", """
        import json, numpy as np, keras
        logits = np.random.default_rng(0).normal(size=(4, 10)).astype("float32")
        per_row = keras.losses.sparse_categorical_crossentropy(np.array([10, 255, -1, 2]), logits, from_logits=True)
        ignored = keras.losses.SparseCategoricalCrossentropy(from_logits=True, ignore_class=255)(
            np.array([0, 3, 255, 2]), logits)
        kept = keras.losses.SparseCategoricalCrossentropy(from_logits=True)(np.array([0, 3, 2]), logits[[0, 1, 3]])
        print(json.dumps({"rows": np.asarray(per_row).tolist(), "ignored": float(ignored), "kept": float(kept)}))
    """, KERAS_BACKEND="jax")
    assert out["rows"][:3] == [0.0, 0.0, 0.0] and out["rows"][3] > 0
    assert out["ignored"] == pytest.approx(out["kept"], rel=1e-6)


def test_jax_clamps_fills_wraps_and_zeroes_and_checkify_catches_only_past_the_end():
    out = run("jax", """
        import json, numpy as np, jax, jax.numpy as jnp, optax
        from jax.experimental import checkify
        logits = jnp.asarray(np.random.default_rng(0).normal(size=(4, 10)).astype("float32"))
        logp = jax.nn.log_softmax(logits)
        rows = jnp.arange(4)
        y_bad, y_neg = jnp.array([0, 3, 10, 2]), jnp.array([0, 3, -1, 2])
        optax_bad = optax.softmax_cross_entropy_with_integer_labels(logits, y_bad)
        optax_neg = optax.softmax_cross_entropy_with_integer_labels(logits, y_neg)
        def loss(lg, y):
            return -jax.nn.log_softmax(lg)[jnp.arange(4), y].mean()
        check = checkify.checkify(loss, errors=checkify.index_checks)
        err_bad, _ = check(logits, y_bad)
        err_neg, _ = check(logits, y_neg)
        jax.config.update("jax_debug_nans", True)
        try:
            jax.jit(lambda lg, y: optax.softmax_cross_entropy_with_integer_labels(lg, y).mean())(logits, y_bad)
            nan_said = None
        except FloatingPointError as e:
            nan_said = str(e).splitlines()[0]
        keep = jnp.array([True, True, False, True])
        y_void = jnp.array([0, 3, 255, 2])
        masked = lambda lg: optax.softmax_cross_entropy_with_integer_labels(lg, y_void, where=keep).sum() / keep.sum()
        jax.config.update("jax_debug_nans", False)
        where_loss = float(masked(logits))
        where_grad_finite = bool(jnp.isfinite(jax.grad(masked)(logits)).all())
        kept_loss = float(optax.softmax_cross_entropy_with_integer_labels(logits[keep], y_void[keep]).mean())
        print(json.dumps({
            "where_loss": where_loss, "where_grad_finite": where_grad_finite, "kept_loss": kept_loss,
            "gather": float(logp[2, 9]), "clamped": float(logp[rows, jnp.array([0, 3, 10, 2])][2]),
            "clamped_255": float(logp[rows, jnp.array([0, 3, 255, 2])][2]),
            "optax_bad": [None if np.isnan(v) else float(v) for v in np.asarray(optax_bad)],
            "optax_neg_row": float(optax_neg[2]), "class9_loss": float(-logp[2, 9]),
            "one_hot": np.asarray(jax.nn.one_hot(jnp.array([10, -1, 255]), 10)).tolist(),
            "checkify_bad": err_bad.get(), "checkify_neg": err_neg.get(), "nan_said": nan_said}))
    """)
    assert out["clamped"] == out["gather"] == out["clamped_255"]
    assert out["optax_bad"][2] is None and all(v is not None for i, v in enumerate(out["optax_bad"]) if i != 2)
    assert out["optax_neg_row"] == pytest.approx(out["class9_loss"], rel=1e-6)
    assert out["one_hot"] == [[0.0] * 10] * 3
    assert "index 10 is out of bounds for axis 1 with size 10" in out["checkify_bad"] and out["checkify_neg"] is None
    assert out["nan_said"] == "invalid value (nan) encountered in gather"
    assert out["where_loss"] == pytest.approx(out["kept_loss"], rel=1e-6) and out["where_grad_finite"]


def test_cuda_runtime_names_error_710_as_declared():
    path = os.environ.get("TRAINWRECK_CUDART")
    if not path or not Path(path).is_file():
        pytest.skip("no CUDA runtime library: set TRAINWRECK_CUDART to a libcudart.so "
                    "(pip download nvidia-cuda-runtime-cu12 and unzip it)")
    lib = ctypes.CDLL(path)
    lib.cudaGetErrorString.restype = ctypes.c_char_p
    lib.cudaGetErrorName.restype = ctypes.c_char_p
    assert lib.cudaGetErrorName(710) == b"cudaErrorAssert"
    assert lib.cudaGetErrorString(710).decode() == declared("WR-320", "cuda").text


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
    out = run("jax" if backend == "jax" else "tf", with_images(images, """
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
    """), KERAS_BACKEND=backend)
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
