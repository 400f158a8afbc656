"""Opt-in: review 4's corrections to WR-130 and WR-140, checked in the real frameworks.

Runs only with TRAINWRECK_FRAMEWORK_TESTS=1, through tests/framework_runner.py (each framework in its own
interpreter; a missing one skips with the path it looked for). WR-130: the TensorFlow backend's repair of a
softmax before a from_logits=True loss holds for every Keras softmax but only while the softmax's own tensor
reaches the loss (mixed precision casts it away); the from_logits=False loss is a different function of the
logits on JAX and on TensorFlow. WR-140: Keras's leaky_relu activation and layer have different defaults.
"""
import math

import numpy as np
import pytest

from conftest import assert_entry_says, load_snippet
from framework_runner import OPT_IN, keras, declared, source_line

pytestmark = OPT_IN
wr130 = load_snippet("wr130_softmax_before_logits_loss")

KERAS = """
import sys, json, warnings, numpy as np, keras
sys.path.insert(0, 'snippets')
import wr130_softmax_before_logits_loss as w130
out = {"backend": keras.backend.backend()}
X, y = w130.make_data()
X = X.astype("float32")

def fit(policy, head):
    keras.config.set_dtype_policy(policy)
    keras.utils.set_random_seed(0)
    model = keras.Sequential([keras.Input((20,))] + head())
    model.compile(optimizer=keras.optimizers.SGD(0.1),
                  loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        history = model.fit(X, y, batch_size=len(X), epochs=30, verbose=0)
    keras.config.set_dtype_policy("float32")
    return {"loss": history.history["loss"],
            "warnings": [str(w.message) for w in caught if "from_logits" in str(w.message)]}

if out["backend"] == "tensorflow":
    out["float32_activation"] = fit("float32", lambda: [keras.layers.Dense(10, activation="softmax")])
    out["float32_correct"] = fit("float32", lambda: [keras.layers.Dense(10)])
    out["float32_layer"] = fit("float32", lambda: [keras.layers.Dense(10), keras.layers.Softmax()])
    out["mixed_activation"] = fit("mixed_float16", lambda: [keras.layers.Dense(10, activation="softmax")])
    out["mixed_correct"] = fit("mixed_float16", lambda: [keras.layers.Dense(10)])
    out["mixed_float32_softmax"] = fit("mixed_float16", lambda: [keras.layers.Dense(10),
                                                                 keras.layers.Activation("softmax", dtype="float32")])
    z = keras.ops.convert_to_tensor(np.random.default_rng(0).normal(size=(8, 10)).astype("float32"))
    probs = keras.ops.softmax(z)
    out["ops_softmax_keeps_logits"] = hasattr(probs, "_keras_logits")
    with warnings.catch_warnings(record=True):
        warnings.simplefilter("always")
        out["ops_softmax_loss"] = keras.ops.convert_to_numpy(
            keras.losses.sparse_categorical_crossentropy(y[:8], probs, from_logits=True)).tolist()
    out["logits_loss"] = keras.ops.convert_to_numpy(
        keras.losses.sparse_categorical_crossentropy(y[:8], z, from_logits=True)).tolist()

# the mirror: logits handed to the default from_logits=False loss, one fixed logit matrix
Z = (X @ np.random.default_rng(5).uniform(-0.45, 0.45, size=(20, 10))).astype("float32")
out["mirror"] = keras.ops.convert_to_numpy(
    keras.losses.sparse_categorical_crossentropy(y, Z, from_logits=False)).astype(float).tolist()
out["mirror_logits"] = Z.astype(float).tolist()

# WR-140: the activation function's default slope, and what activation="leaky_relu" gets
out["leaky_activation_default"] = __import__("inspect").signature(
    keras.activations.leaky_relu).parameters["negative_slope"].default
dense = keras.layers.Dense(1, activation="leaky_relu", kernel_initializer="ones", bias_initializer="zeros")
out["dense_leaky_slope"] = float(keras.ops.convert_to_numpy(dense(np.array([[-1.0]], dtype="float32")))[0, 0]) / -1.0
out["leaky_layer_default"] = keras.layers.LeakyReLU().negative_slope
print(json.dumps(out))
"""


@pytest.fixture(scope="module")
def keras_tf():
    return keras("tensorflow", KERAS)


@pytest.fixture(scope="module")
def keras_jax():
    return keras("jax", KERAS)


def arrow(losses):
    return f"{losses[0]:.4f} → {losses[-1]:.4f}"


def plateau(losses):
    return all(abs(v / losses[0] - 1) < 0.1 for v in losses)


# --- WR-130: the TensorFlow repair ---------------------------------------------------------------

def test_every_keras_softmax_is_repaired_on_tensorflow_while_its_tensor_reaches_the_loss(keras_tf):
    k = keras_tf
    assert k["backend"] == "tensorflow"
    correct = k["float32_correct"]["loss"]
    for case in ("float32_activation", "float32_layer"):
        assert k[case]["loss"] == pytest.approx(correct, abs=1e-5), case
        assert k[case]["warnings"] == declared_keras_warning(), case          # once, word for word
    assert k["ops_softmax_keeps_logits"]
    assert k["ops_softmax_loss"] == pytest.approx(k["logits_loss"], abs=1e-5)


def declared_keras_warning():
    return [m.shown for m in declared("WR-130", "keras")]


def test_mixed_precision_casts_the_softmax_output_and_the_repair_is_gone(keras_tf):
    k = keras_tf
    bad, good = k["mixed_activation"], k["mixed_correct"]
    assert bad["warnings"] == [] and plateau(bad["loss"])                       # as silent as JAX
    assert abs(bad["loss"][0] - math.log(10)) < 0.01                            # and it passes the ln C check
    assert good["loss"][-1] < 0.25 * good["loss"][0]
    float32_head = k["mixed_float32_softmax"]                                    # the guide's float32 softmax
    assert float32_head["loss"] == pytest.approx(good["loss"], abs=2e-3) and float32_head["warnings"]
    assert_entry_says("WR-130", [f"{arrow(bad['loss'])} in 30 epochs, no warning, against {arrow(good['loss'])} "
                                 "written correctly"])


# --- WR-130: the mirror, per backend -------------------------------------------------------------

def divide_then_clip(z, y, eps=1e-7):
    p = np.clip(z / z.sum(axis=1, keepdims=True), eps, 1 - eps)
    return -np.log(p[np.arange(len(y)), y])


def clip_then_renormalise(z, y, eps=1e-7):
    c = np.clip(z, eps, 1 - eps)
    return -np.log(c[np.arange(len(y)), y] / c.sum(axis=1))


@pytest.mark.parametrize("backend, formula, other", [("keras_jax", divide_then_clip, clip_then_renormalise),
                                                      ("keras_tf", clip_then_renormalise, divide_then_clip)])
def test_the_from_logits_false_loss_is_a_different_function_on_each_backend(backend, formula, other, request):
    k = request.getfixturevalue(backend)
    z = np.array(k["mirror_logits"], dtype=np.float32)
    _, y = wr130.make_data()
    got = np.array(k["mirror"])
    np.testing.assert_allclose(got, formula(z, y), rtol=2e-3, atol=2e-3)
    assert abs(got.mean() - other(z, y).mean()) > 1.0


# --- WR-140: Keras's two leaky ReLU defaults -----------------------------------------------------

@pytest.mark.parametrize("backend", ["keras_jax", "keras_tf"])
def test_the_leaky_relu_activation_defaults_to_0_2_the_layer_to_0_3(backend, request):
    k = request.getfixturevalue(backend)
    assert k["leaky_activation_default"] == 0.2 and k["leaky_layer_default"] == 0.3
    assert k["dense_leaky_slope"] == pytest.approx(0.2)
    assert_entry_says("WR-140", ['`Dense(…, activation="leaky_relu")` gets the activation function\'s 0.2'])


# --- the cited lines ----------------------------------------------------------------------------

@pytest.mark.parametrize("relative, line, holds", [
    ("keras/src/backend/tensorflow/nn.py", 172, "output._keras_logits = logits"),
    ("keras/src/backend/tensorflow/nn.py", 1267, 'has_keras_logits = hasattr(output, "_keras_logits")'),
    ("keras/src/backend/tensorflow/nn.py", 1275, "and output.op.type == op_type"),
    ("keras/src/backend/tensorflow/nn.py", 1432, "if not from_logits:"),
    ("keras/src/backend/tensorflow/nn.py", 1433, "output = tf.clip_by_value("),
    ("keras/src/backend/tensorflow/nn.py", 1436, "output = tf.math.log(output)"),
    ("keras/src/backend/tensorflow/nn.py", 1438, "result = tf.nn.sparse_softmax_cross_entropy_with_logits("),
    ("keras/src/losses/loss.py", 61, "lambda x: ops.convert_to_tensor(x, dtype=self.dtype), y_pred"),
    ("keras/src/activations/activations.py", 112, "def leaky_relu(x, negative_slope=0.2):"),
])
def test_the_cited_line_holds_what_the_entry_says(relative, line, holds):
    assert holds in source_line("jax", relative, line)
