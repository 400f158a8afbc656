"""Opt-in: what WR-050 and WR-060 say about PyTorch, Keras/TensorFlow and JAX, checked against the real
frameworks -- every quoted message, every behaviour the framework sections claim, and the cited source lines.

Runs only with TRAINWRECK_FRAMEWORK_TESTS=1, in the scratch interpreters (/work/scratch/<name>/bin/python,
or TRAINWRECK_<NAME>_PYTHON). Each check is a small program that prints one JSON object on its last line.
"""
import math

import numpy as np
import pytest

from conftest import load_snippet
from framework_runner import OPT_IN, declared, run, source_line

pytestmark = OPT_IN
wr050 = load_snippet("wr050_nan_gradient")


# --- WR-050 ---------------------------------------------------------------------------------------

def test_pytorch_anomaly_mode_names_the_function_for_each_case():
    out = run("torch", """
        import json, warnings, torch
        warnings.simplefilter("ignore")
        def pair_loss(E, same):
            d = (E[0] - E[1]).pow(2).sum().sqrt()
            return d ** 2 if same else torch.clamp(2.0 - d, min=0) ** 2
        messages, finite = [], []
        for same in (True, False):
            E = torch.zeros(2, 2, requires_grad=True)
            finite.append(bool(torch.isfinite(pair_loss(E, same))))
            with torch.autograd.set_detect_anomaly(True):
                try:
                    pair_loss(E, same).backward(); messages.append(None)
                except RuntimeError as e:
                    messages.append(str(e))
        pred, y = torch.tensor([1.0, 2.0], requires_grad=True), torch.tensor([0.0, 3.0])
        with torch.autograd.set_detect_anomaly(True):
            try:
                torch.where(y != 0, (pred - y).abs() / y.abs(), 0.0).sum().backward(); messages.append(None)
            except RuntimeError as e:
                messages.append(str(e))
        E = torch.zeros(2, 2, requires_grad=True)
        pair_loss(E, True).backward()
        print(json.dumps({"messages": messages, "forward_finite": finite,
                          "grad_nan": bool(torch.isnan(E.grad).all())}))
    """)
    (message,) = declared("WR-050", "pytorch")
    assert out["messages"][0] == message.example
    assert [message.matches(m) for m in out["messages"]] == [True, True, True]
    assert out["messages"][1:] == ["Function 'PowBackward0' returned nan values in its 0th output.",
                                   "Function 'DivBackward0' returned nan values in its 0th output."]
    assert out["forward_finite"] == [True, True] and out["grad_nan"]


def test_pytorch_library_distances_at_a_zero_difference():
    out = run("torch", """
        import json, torch, torch.nn.functional as F
        E = torch.zeros(2, 3, requires_grad=True)
        torch.linalg.vector_norm(E[0] - E[1]).backward()
        norm_grad = E.grad.tolist()
        E = torch.zeros(3, 2, requires_grad=True)
        torch.cdist(E, E).sum().backward()
        a = torch.randn(4, 2, requires_grad=True)
        d = F.pairwise_distance(a, a)
        d.sum().backward()
        print(json.dumps({"norm": norm_grad, "cdist": E.grad.tolist(), "pairwise": d.tolist(),
                          "pairwise_grad_finite": bool(torch.isfinite(a.grad).all())}))
    """)
    assert out["norm"] == [[0.0] * 3] * 2 and out["cdist"] == [[0.0] * 2] * 3
    np.testing.assert_allclose(out["pairwise"], np.sqrt(2) * 1e-6, rtol=1e-3)   # eps 1e-6 on each of 2 dims
    assert out["pairwise_grad_finite"]


def test_pytorch_gradient_matches_the_hand_written_backward():
    """The snippet's failing batch run through torch autograd: nan with the plain sqrt, and the same
    finite gradient as the snippet's chain rule with eps inside the sqrt."""
    with np.errstate(all="ignore"):
        bad = wr050.train_embedding(wr050.sqrt_plain, wr050.sqrt_plain_slope, verbose=False)["first_bad"]
    X, y = wr050.make_images()
    E = X[bad["batch"]] @ bad["W"]
    _, cache = wr050.contrastive_forward(E, y[bad["batch"]], wr050.sqrt_eps)
    ours = wr050.contrastive_backward(E, cache, wr050.sqrt_eps_slope)
    out = run("torch", f"""
        import json, torch
        E0 = torch.tensor({E.tolist()!r}, dtype=torch.float64)
        y = torch.tensor({y[bad["batch"]].tolist()!r})
        i, j = torch.triu_indices(len(E0), len(E0), 1)
        grads = []
        for eps in (0.0, {wr050.EPS!r}):
            E = E0.clone().requires_grad_()
            d = ((E[i] - E[j]) ** 2).sum(1).add(eps).sqrt()
            same = y[i] == y[j]
            loss = torch.where(same, d ** 2, torch.clamp({wr050.MARGIN!r} - d, min=0) ** 2).mean()
            loss.backward()
            grads.append(E.grad.tolist())
        print(json.dumps({{"grads": grads}}))
    """)
    plain, with_eps = (np.array(g) for g in out["grads"])
    assert np.isnan(plain).any()
    np.testing.assert_allclose(with_eps, ours, rtol=1e-10, atol=1e-15)


def test_pytorch_cited_derivative_lines():
    assert source_line("torch", "torchgen/packaged/autograd/derivatives.yaml", 1637) == "- name: sqrt(Tensor self) -> Tensor"
    assert source_line("torch", "torchgen/packaged/autograd/derivatives.yaml", 1638) == "  self: grad / (2 * result.conj())"
    assert source_line("torch", "torchgen/packaged/autograd/derivatives.yaml", 1955).startswith(
        "- name: where.self(Tensor condition, Tensor self, Tensor other)")
    assert source_line("torch", "torchgen/packaged/autograd/derivatives.yaml", 1957) == "  self: where(condition, grad, 0)"


def keras_pair_model(loss: str) -> str:
    """A Dense embedding of two blank inputs in the first batch, trained with TerminateOnNaN."""
    return f"""
        import json, numpy as np, keras
        from keras import ops
        keras.utils.set_random_seed(0)
        def pair_loss(y_true, y_pred):
            d = ops.sqrt(ops.sum(ops.square(y_pred[0] - y_pred[1])))
            return ({loss}) + 0.0 * ops.mean(y_pred)
        model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(2)])
        model.compile(optimizer="sgd", loss=pair_loss)
        X = np.random.default_rng(0).normal(size=(8, 3)).astype("float32")
        X[0] = X[1] = 0.0
        import contextlib, io
        printed = io.StringIO()
        with contextlib.redirect_stdout(printed):
            model.fit(X, np.zeros((8, 2), "float32"), batch_size=4, epochs=1, shuffle=False, verbose=0,
                      callbacks=[keras.callbacks.TerminateOnNaN()])
        print(json.dumps({{"printed": printed.getvalue(),
                           "finite": all(bool(np.isfinite(w).all()) for w in model.get_weights())}}))
    """


def test_keras_same_class_pair_on_each_backend():
    (message,) = declared("WR-050", "keras")
    on_jax = run("jax", keras_pair_model("d ** 2"), KERAS_BACKEND="jax")
    assert message.example in on_jax["printed"] and not on_jax["finite"]
    on_tf = run("tf", keras_pair_model("d ** 2"), KERAS_BACKEND="tensorflow")
    assert on_tf["printed"] == "" and on_tf["finite"]                # TensorFlow's sqrt gradient: 0 for 0 in
    hinge = run("tf", keras_pair_model("ops.relu(2.0 - d) ** 2"), KERAS_BACKEND="tensorflow")
    assert message.example in hinge["printed"] and not hinge["finite"]


def test_tensorflow_check_numerics_and_the_zero_vector_gradients():
    out = run("tf", """
        import json, tensorflow as tf, keras
        from keras import ops
        def grad(fn):
            v = tf.zeros((1, 3))
            with tf.GradientTape() as tape:
                tape.watch(v); y = tf.reduce_sum(fn(v))
            return tape.gradient(y, v).numpy().ravel().tolist()
        grads = {"tf.norm": grad(tf.norm), "ops.norm": grad(ops.norm),
                 "l2_normalize": grad(lambda v: tf.math.l2_normalize(v, axis=-1)),
                 "square_of_sqrt": grad(lambda v: tf.sqrt(tf.reduce_sum(v * v)) ** 2)}
        tf.debugging.enable_check_numerics()
        errors = []
        for fn in (tf.norm, lambda v: tf.where(v > 0, 1.0 / v, 0.0)):
            try:
                grad(fn); errors.append(None)
            except Exception as e:
                errors.append(next(l for l in str(e).splitlines() if "Detected" in l).strip())
        print(json.dumps({"grads": grads, "errors": errors}))
    """, KERAS_BACKEND="tensorflow")
    assert all(math.isnan(g) for g in out["grads"]["tf.norm"] + out["grads"]["ops.norm"])
    assert all(math.isfinite(g) for g in out["grads"]["l2_normalize"])
    assert out["grads"]["square_of_sqrt"] == [0.0, 0.0, 0.0]
    (message,) = declared("WR-050", "tensorflow")
    assert out["errors"][0] == message.example
    assert out["errors"][1] == '!!! Detected Infinity or NaN in output 0 of eagerly-executing op "RealDiv" (# of outputs: 1) !!!'


def test_tensorflow_cited_lines():
    line = source_line("tf", "tensorflow/python/ops/array_ops.py", 4587)
    assert "Note that if the gradient of either branch of the `tf.where` generates" in line
    header = source_line("tf", "tensorflow/include/tensorflow/core/kernels/cwise_ops_gradients.h", 100)
    assert header == "struct scalar_sqrt_gradient_op {"


def test_keras_normalize_gradient_at_zero_on_the_jax_backend():
    out = run("jax", """
        import json, jax, jax.numpy as jnp, keras
        from keras import ops
        z = jnp.zeros((1, 3))
        print(json.dumps({"normalize": jax.grad(lambda v: jnp.sum(ops.normalize(v)))(z).ravel().tolist(),
                          "norm": jax.grad(lambda v: jnp.sum(ops.norm(v)))(z[0]).tolist()}))
    """, KERAS_BACKEND="jax")
    assert all(math.isnan(g) for g in out["normalize"] + out["norm"])


def test_jax_debug_nans_and_the_safe_norm():
    out = run("jax", """
        import json, jax, jax.numpy as jnp, optax
        z = jnp.zeros(3)
        plain = jax.grad(lambda x: jnp.linalg.norm(x))(z).tolist()
        safe = jax.grad(lambda x: optax.safe_norm(x, 0.0))(z).tolist()
        faq = jax.grad(lambda x: jnp.where(x > 0., jnp.log(jnp.where(x > 0., x, 1.)), 0.))(0.0)
        jax.config.update("jax_debug_nans", True)
        errors = []
        pred, y = jnp.array([1.0, 2.0]), jnp.array([0.0, 3.0])
        for f, x in ((lambda x: jnp.linalg.norm(x), z),
                     (lambda p: jnp.sum(jnp.where(y != 0, jnp.abs(p - y) / jnp.abs(y), 0.0)), pred)):
            try:
                jax.grad(f)(x); errors.append(None)
            except FloatingPointError as e:
                errors.append(str(e).splitlines()[0])
        print(json.dumps({"plain": plain, "safe": safe, "faq": float(faq), "errors": errors}))
    """)
    assert all(math.isnan(g) for g in out["plain"]) and out["safe"] == [0.0] * 3 and out["faq"] == 0.0
    (message,) = declared("WR-050", "jax")
    assert out["errors"][0] == message.example
    assert out["errors"][1] == "invalid value (nan) encountered in div" and message.matches(out["errors"][1])


def test_jax_cited_lines():
    assert source_line("jax", "jax/_src/lax/lax.py", 4721).startswith("ad.defjvp2(sqrt_p, lambda g, ans, x")
    assert source_line("jax", "optax/_src/numerics.py", 48) == "def safe_norm("


# --- WR-060 ---------------------------------------------------------------------------------------

def test_pytorch_batch_norm_on_a_batch_of_one():
    out = run("torch", """
        import json, torch, torch.nn.functional as F
        errors = []
        for call in (lambda: torch.nn.BatchNorm1d(8)(torch.randn(1, 8)),
                     lambda: F.batch_norm(torch.randn(4, 3), None, None, training=True, eps=0.0)):
            try:
                call(); errors.append(None)
            except ValueError as e:
                errors.append(str(e))
        bn = torch.nn.BatchNorm1d(8)
        image = torch.nn.BatchNorm2d(3)(torch.randn(1, 3, 4, 4))
        bn.eval()
        eval_one = bn(torch.randn(1, 8))
        z = torch.zeros(1, 3, requires_grad=True)
        unit = F.normalize(z, dim=1)
        unit.sum().backward()
        x = torch.tensor([[0., 1.], [0., 2.], [0., 3.]])
        by_hand = (x - x.mean(0)) / x.std(0)
        print(json.dumps({"errors": errors, "eps": bn.eps, "image_finite": bool(torch.isfinite(image).all()),
                          "eval_finite": bool(torch.isfinite(eval_one).all()), "unit": unit.tolist(),
                          "unit_grad": z.grad.tolist(), "by_hand_nan": torch.isnan(by_hand).all(0).tolist()}))
    """)
    one, eps = declared("WR-060", "pytorch")
    assert out["errors"] == [one.example, eps.example]
    assert out["eps"] == 1e-5 and out["image_finite"] and out["eval_finite"]
    assert out["unit"] == [[0.0] * 3] and out["unit_grad"] == [[float(np.float32(1e12))] * 3]   # 1 / eps
    assert out["by_hand_nan"] == [True, False]


def test_pytorch_cited_lines_for_batch_norm():
    assert "Expected more than 1 value per channel when training" in source_line("torch", "torch/nn/functional.py", 2855)
    assert "batch_norm eps must be positive during training" in source_line("torch", "torch/nn/functional.py", 2893)
    assert source_line("torch", "torch/nn/modules/batchnorm.py", 41).strip() == "eps: float = 1e-5,"


@pytest.mark.parametrize("backend, name", [("jax", "jax"), ("tensorflow", "tf")])
def test_keras_batch_norm_and_normalization(backend, name):
    out = run(name, """
        import json, numpy as np, keras
        bn = keras.layers.BatchNormalization()
        outputs = [np.asarray(bn(np.array([row], "float32"), training=True)).tolist()
                   for row in ([1.5, -2.0, 3.0], [70.0, 0.1, -9.0])]
        norm = keras.layers.Normalization()
        data = np.array([[0.0, 1.0], [0.0, 2.0], [0.0, 3.0]], "float32")
        norm.adapt(data)
        print(json.dumps({"outputs": outputs, "epsilon": bn.epsilon, "momentum": bn.momentum,
                          "constant": np.asarray(norm(data))[:, 0].tolist(), "backend_eps": keras.config.epsilon()}))
    """, KERAS_BACKEND=backend)
    assert out["outputs"] == [[[0.0, 0.0, 0.0]]] * 2                 # beta, whatever the input
    assert (out["epsilon"], out["momentum"], out["backend_eps"]) == (1e-3, 0.99, 1e-7)
    assert out["constant"] == [0.0, 0.0, 0.0]


def test_keras_cited_lines():
    assert source_line("jax", "keras/src/layers/normalization/batch_normalization.py", 164).strip() == "epsilon=1e-3,"
    assert "BN is prone to overflow with float16/bfloat16 inputs" in source_line(
        "jax", "keras/src/layers/normalization/batch_normalization.py", 346)
    assert source_line("jax", "keras/src/layers/preprocessing/normalization.py", 440).strip() == \
        "self.backend.numpy.maximum("
    assert "Invalid loss, terminating training" in source_line("jax", "keras/src/callbacks/terminate_on_nan.py", 67)


def test_tensorflow_check_numerics_on_a_standardisation():
    out = run("tf", """
        import json, tensorflow as tf
        tf.debugging.enable_check_numerics()
        x = tf.constant([[0., 1.], [0., 2.], [0., 3.]])
        try:
            (x - tf.reduce_mean(x, 0)) / tf.math.reduce_std(x, 0); error = None
        except Exception as e:
            error = next(l for l in str(e).splitlines() if "Detected" in l).strip()
        sizes = [int(b.shape[0]) for b in tf.data.Dataset.range(5).batch(2)]
        dropped = [int(b.shape[0]) for b in tf.data.Dataset.range(5).batch(2, drop_remainder=True)]
        print(json.dumps({"error": error, "sizes": sizes, "dropped": dropped}))
    """)
    (message,) = declared("WR-060", "tensorflow")
    assert out["error"] == message.example
    assert out["sizes"] == [2, 2, 1] and out["dropped"] == [2, 2]        # a short last batch unless told not to


def test_jax_standardisation():
    out = run("jax", """
        import json, jax, jax.numpy as jnp
        x = jnp.array([[0., 1.], [0., 2.], [0., 3.]])
        standardized = jax.nn.standardize(x, axis=0)[:, 0].tolist()
        jax.config.update("jax_debug_nans", True)
        try:
            (x - x.mean(0)) / x.std(0); error = None
        except FloatingPointError as e:
            error = str(e).splitlines()[0]
        print(json.dumps({"standardized": standardized, "error": error}))
    """)
    (message,) = declared("WR-060", "jax")
    assert out["error"] == message.example and out["standardized"] == [0.0, 0.0, 0.0]
    assert source_line("jax", "jax/_src/nn/functions.py", 653).strip() == "epsilon: ArrayLike = 1e-5,"
