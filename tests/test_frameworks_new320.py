"""Opt-in: what WR-320 says about PyTorch, Keras/TensorFlow, JAX and CUDA, checked against the real libraries
(WR-330's checks are in test_frameworks_new330.py).

Runs only with TRAINWRECK_FRAMEWORK_TESTS=1, in the scratch interpreters (/work/scratch/<name>/bin/python, or
TRAINWRECK_<NAME>_PYTHON). The CUDA check needs no GPU, only the CUDA runtime library: point
TRAINWRECK_CUDART at a libcudart.so (the nvidia-cuda-runtime-cu12 wheel holds one). Each check is a small
program whose printed JSON the test reads.
"""
import ctypes
import math
import os
from pathlib import Path

import pytest

from conftest import assert_entry_says
from framework_runner import OPT_IN, check_cited_line, keras, declared, run

pytestmark = OPT_IN


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
    message = declared("WR-320", "pytorch")[0]
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
    assert_entry_says("WR-320", [f"returns a negative loss (−{-out['loss']:.2f} for a logit of 3 and a target of 255"])


def test_tensorflow_names_the_label_and_range_in_eager_and_in_fit():
    out = keras("tensorflow", """
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
    """)
    example = declared("WR-320", "tensorflow")[0].example
    assert len(out["said"]) == 2 and all(example in text for text in out["said"])


def test_keras_on_jax_gives_bad_labels_a_loss_of_zero_and_ignore_class_leaves_them_out():
    out = keras("jax", """
        import json, numpy as np, keras
        logits = np.random.default_rng(0).normal(size=(4, 10)).astype("float32")
        per_row = keras.losses.sparse_categorical_crossentropy(np.array([10, 255, -1, 2]), logits, from_logits=True)
        ignored = keras.losses.SparseCategoricalCrossentropy(from_logits=True, ignore_class=255)(
            np.array([0, 3, 255, 2]), logits)
        kept = keras.losses.SparseCategoricalCrossentropy(from_logits=True)(np.array([0, 3, 2]), logits[[0, 1, 3]])
        print(json.dumps({"rows": np.asarray(per_row).tolist(), "ignored": float(ignored), "kept": float(kept)}))
    """)
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
    assert lib.cudaGetErrorString(710).decode() == declared("WR-320", "cuda")[0].text


# --- the cited lines of installed packages say what the entries quote them for --------------------------

CITED = [
    # (entry, interpreter, file in site-packages, line, text the line holds, URL the entry cites)
    ("WR-320", "torch", "torch/nn/modules/loss.py", 1389, "ignore_index: int = -100",
     "https://github.com/pytorch/pytorch/blob/v2.13.0/torch/nn/modules/loss.py#L1389"),
    ("WR-320", "tf", "tensorflow/python/ops/nn_ops.py", 4450, "exception when this op is run on CPU, and return `NaN`",
     "https://github.com/tensorflow/tensorflow/blob/v2.21.0/tensorflow/python/ops/nn_ops.py#L4448-L4451"),
    ("WR-320", "jax", "keras/src/backend/jax/nn.py", 1013, "target = jnn.one_hot(target, output.shape[axis], axis=axis)",
     "https://github.com/keras-team/keras/blob/v3.15.1/keras/src/backend/jax/nn.py#L1013"),
    ("WR-320", "jax", "keras/src/losses/losses.py", 1245, "ignore_class=None,",
     "https://github.com/keras-team/keras/blob/v3.15.1/keras/src/losses/losses.py#L1245"),
    ("WR-320", "jax", "jax/_src/numpy/indexing.py", 786, 'default ``mode="fill"`` returns invalid values',
     "https://github.com/jax-ml/jax/blob/jax-v0.10.2/jax/_src/numpy/indexing.py#L785-L786"),
    ("WR-320", "jax", "optax/losses/_classification.py", 400, "label_logits = jnp.take_along_axis(",
     "https://github.com/google-deepmind/optax/blob/v0.2.8/optax/losses/_classification.py#L400-L402"),
    ("WR-320", "jax", "jax/_src/nn/functions.py", 753, "will be encoded as zeros",
     "https://github.com/jax-ml/jax/blob/jax-v0.10.2/jax/_src/nn/functions.py#L753"),
]


@pytest.mark.parametrize("entry_id, name, relative, line, text, url", CITED, ids=[c[2] for c in CITED])
def test_cited_line_of_the_installed_package(entry_id, name, relative, line, text, url):
    check_cited_line(entry_id, name, relative, line, text, url)
