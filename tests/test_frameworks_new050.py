"""Opt-in: what WR-050 and WR-060 say about PyTorch, Keras/TensorFlow and JAX, checked against the real
frameworks -- every quoted message, every behaviour the framework sections claim, and the cited source lines.

Runs only with TRAINWRECK_FRAMEWORK_TESTS=1, in the scratch interpreters (/work/scratch/<name>/bin/python,
or TRAINWRECK_<NAME>_PYTHON). Each check is a small program that prints one JSON object on its last line.
"""
import math

import numpy as np
import pytest

from conftest import assert_entry_says, entry_prose, load_snippet
from framework_runner import OPT_IN, keras, declared, run, source_line

pytestmark = OPT_IN
wr050 = load_snippet("wr050_nan_gradient")
wr060 = load_snippet("wr060_normalise_by_zero")


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
    assert list(message.also) == out["messages"][1:]     # the further instances the catalogue declares are these
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
        # F.pairwise_distance moves the zero to x1 - x2 = -eps: the distance is 0 there, its gradient 0
        x1 = torch.zeros(1, 3, requires_grad=True)
        moved = F.pairwise_distance(x1, torch.full((1, 3), 1e-6))
        moved.sum().backward()
        print(json.dumps({"norm": norm_grad, "cdist": E.grad.tolist(), "pairwise": d.tolist(),
                          "pairwise_grad_finite": bool(torch.isfinite(a.grad).all()),
                          "moved": moved.tolist(), "moved_grad": x1.grad.tolist()}))
    """)
    assert out["norm"] == [[0.0] * 3] * 2 and out["cdist"] == [[0.0] * 2] * 3
    np.testing.assert_allclose(out["pairwise"], np.sqrt(2) * 1e-6, rtol=1e-3)   # eps 1e-6 on each of 2 dims
    assert out["pairwise_grad_finite"]
    assert out["moved"] == [0.0] and out["moved_grad"] == [[0.0] * 3]


def test_pytorch_unit_vector_with_eps_outside_the_norm():
    """x / (norm(x) + eps) at x = 0: finite with PyTorch's norms (their backward gives 0 at 0), nan with a
    hand-written sqrt."""
    out = run("torch", """
        import json, torch
        grads = {}
        for name, norm in (("vector_norm", torch.linalg.vector_norm), ("linalg.norm", torch.linalg.norm),
                           ("Tensor.norm", lambda x: x.norm()), ("sqrt", lambda x: x.pow(2).sum().sqrt())):
            x = torch.zeros(3, requires_grad=True)
            (x / (norm(x) + 1e-12)).sum().backward()
            grads[name] = x.grad.tolist()
        print(json.dumps(grads))
    """)
    for name in ("vector_norm", "linalg.norm", "Tensor.norm"):
        assert out[name] == [float(np.float32(1e12))] * 3
    assert all(math.isnan(g) for g in out["sqrt"])


def test_pytorch_eps_inside_the_sqrt_must_survive_the_dtype():
    """sqrt(s + 1e-12) at s = 0: the gradient of d**2 is nan in float16, where 1e-12 is 0, and 0 in bfloat16
    and float32; in float16 an eps of 2**-24 (the smallest positive float16) is enough."""
    out = run("torch", """
        import json, torch
        grads = {}
        for name, dtype, eps in (("float16", torch.half, 1e-12), ("bfloat16", torch.bfloat16, 1e-12),
                                 ("float32", torch.float32, 1e-12), ("float16 2**-24", torch.half, 2.0 ** -24)):
            E = torch.zeros(2, 2, dtype=dtype, requires_grad=True)
            (((E[0] - E[1]) ** 2).sum().add(eps).sqrt() ** 2).backward()
            grads[name] = E.grad.float().tolist()
        print(json.dumps(grads))
    """)
    assert all(math.isnan(g) for row in out["float16"] for g in row)
    for name in ("bfloat16", "float32", "float16 2**-24"):
        assert out[name] == [[0.0, 0.0], [0.0, 0.0]], name


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
    on_jax = keras("jax", keras_pair_model("d ** 2"))
    assert message.example in on_jax["printed"] and not on_jax["finite"]
    on_tf = keras("tensorflow", keras_pair_model("d ** 2"))
    assert on_tf["printed"] == "" and on_tf["finite"]                # TensorFlow's sqrt gradient: 0 for 0 in
    hinge = keras("tensorflow", keras_pair_model("ops.relu(2.0 - d) ** 2"))
    assert message.example in hinge["printed"] and not hinge["finite"]


def test_tensorflow_check_numerics_and_the_zero_vector_gradients():
    out = keras("tensorflow", """
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
    """)
    assert all(math.isnan(g) for g in out["grads"]["tf.norm"] + out["grads"]["ops.norm"])
    assert out["grads"]["l2_normalize"] == [1e6] * 3                   # finite, but 1/sqrt(1e-12) per component
    assert_entry_says("WR-050", [f"finite but large, {out['grads']['l2_normalize'][0]:.0e} per component"
                                 .replace("e+0", "e")])
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
    out = keras("jax", """
        import json, jax, jax.numpy as jnp, keras
        from keras import ops
        z = jnp.zeros((1, 3))
        print(json.dumps({"normalize": jax.grad(lambda v: jnp.sum(ops.normalize(v)))(z).ravel().tolist(),
                          "norm": jax.grad(lambda v: jnp.sum(ops.norm(v)))(z[0]).tolist()}))
    """)
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


SAFE_AT_ZERO = ("torch.linalg.vector_norm", "torch.cdist", "optax.safe_norm")
NAN_AT_ZERO = ("jnp.linalg.norm", "keras.ops.norm")


def test_the_strong_answer_recommends_only_norms_whose_gradient_at_zero_is_finite():
    prose = entry_prose("WR-050")
    strong = prose[prose.index("### Strong answer"):prose.index("### Bonus point")]
    recommended, _, warned_off = strong.partition("— not ")
    assert all(name in recommended for name in SAFE_AT_ZERO)
    assert not any(name in recommended for name in NAN_AT_ZERO)     # named only as the ones not to use
    torch = run("torch", """
        import json, torch
        grads = {}
        x = torch.zeros(3, requires_grad=True); torch.linalg.vector_norm(x).backward(); grads["vector_norm"] = x.grad.tolist()
        E = torch.zeros(2, 3, requires_grad=True); torch.cdist(E, E).sum().backward(); grads["cdist"] = E.grad.flatten().tolist()
        print(json.dumps(grads))
    """)
    jax = keras("jax", """
        import json, jax, jax.numpy as jnp, optax, keras
        z = jnp.zeros(3)
        print(json.dumps({"safe_norm": jax.grad(lambda x: optax.safe_norm(x, 0.0))(z).tolist(),
                          "jnp": jax.grad(jnp.linalg.norm)(z).tolist(),
                          "ops": jax.grad(lambda x: keras.ops.norm(x))(z).tolist()}))
    """)
    assert all(g == 0.0 for g in torch["vector_norm"] + torch["cdist"] + jax["safe_norm"])
    assert all(math.isnan(g) for g in jax["jnp"] + jax["ops"])


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
        pixels = torch.randn(1, 3, 4, 4, requires_grad=True)
        image = torch.nn.BatchNorm2d(3)(pixels)
        (image * torch.randn(1, 3, 4, 4)).sum().backward()
        bn.eval()
        eval_one = bn(torch.randn(1, 8))
        z = torch.zeros(1, 3, requires_grad=True)
        unit = F.normalize(z, dim=1)
        unit.sum().backward()
        x = torch.tensor([[0., 1.], [0., 2.], [0., 3.]])
        by_hand = (x - x.mean(0)) / x.std(0)
        per_channel = image.detach().transpose(0, 1).reshape(3, -1)
        print(json.dumps({"errors": errors, "eps": bn.eps, "image_finite": bool(torch.isfinite(image).all()),
                          "image_mean": per_channel.mean(1).tolist(), "image_var": per_channel.var(1, unbiased=False).tolist(),
                          "image_grad_zero": bool((pixels.grad == 0).all()),
                          "eval_finite": bool(torch.isfinite(eval_one).all()), "unit": unit.tolist(),
                          "unit_grad": z.grad.tolist(), "by_hand_nan": torch.isnan(by_hand).all(0).tolist()}))
    """)
    one, eps = (m for m in declared("WR-060", "pytorch") if "per channel" in m.text or "eps must be" in m.text)
    assert out["errors"] == [one.example, eps.example]
    assert out["eps"] == 1e-5 and out["image_finite"] and out["eval_finite"]
    # one image of 4x4 positions: each channel standardised over its 16 positions, and a gradient gets through
    np.testing.assert_allclose(out["image_mean"], 0.0, atol=1e-6)
    np.testing.assert_allclose(out["image_var"], 1.0, atol=1e-3)
    assert not out["image_grad_zero"]
    assert out["unit"] == [[0.0] * 3] and out["unit_grad"] == [[float(np.float32(1e12))] * 3]   # 1 / eps
    assert out["by_hand_nan"] == [True, False]


def test_pytorch_eps_and_the_dtype():
    """F.normalize's eps of 1e-12 is 0 in float16 (a zero vector gives nan, in the output and the gradient),
    not in bfloat16; an eps of 6.1e-5 works in float16; x.float() gives the right output but an inf gradient.
    The normalisation layers keep eps out of float16: eps = 1e-8 on a constant float16 row gives 0."""
    out = run("torch", """
        import json, torch, torch.nn.functional as F
        result = {}
        for name, dtype, kw, upcast in (("float16", torch.half, {}, False), ("bfloat16", torch.bfloat16, {}, False),
                                        ("float16 eps", torch.half, {"eps": 6.1e-5}, False),
                                        ("float16 via float32", torch.half, {}, True)):
            z = torch.zeros(1, 3, dtype=dtype, requires_grad=True)
            u = F.normalize(z.float(), dim=1).to(dtype) if upcast else F.normalize(z, dim=1, **kw)
            u.sum().backward()
            result[name] = [u.float().tolist()[0], z.grad.float().tolist()[0]]
        row = torch.full((2, 4), 3.0, dtype=torch.half)
        result["layer_norm"] = F.layer_norm(row, (4,), eps=1e-8).float().tolist()
        result["group_norm"] = F.group_norm(row.view(2, 4, 1), 2, eps=1e-8).float().flatten().tolist()
        result["layer_norm eps 0"] = F.layer_norm(row, (4,), eps=0.0).float().tolist()
        result["batch_norm"] = F.batch_norm(row.t().contiguous(), None, None, training=True, eps=1e-8).float().flatten().tolist()
        print(json.dumps(result))
    """)
    value, grad = out["float16"]
    assert all(math.isnan(v) for v in value + grad)
    assert out["bfloat16"][0] == [0.0] * 3 and all(math.isfinite(g) for g in out["bfloat16"][1])
    value, grad = out["float16 eps"]
    assert value == [0.0] * 3 and all(math.isfinite(g) and 16000 < g < 16500 for g in grad)    # about 1/6.1e-5
    assert_entry_says("WR-060", [f"its gradient at 0 is then about {grad[0]:.0f}"])
    value, grad = out["float16 via float32"]
    assert value == [0.0] * 3 and grad == [math.inf] * 3                                     # 1e12 overflows float16
    assert out["layer_norm"] == [[0.0] * 4] * 2 and set(out["group_norm"]) == {0.0} == set(out["batch_norm"])
    assert all(math.isnan(v) for row in out["layer_norm eps 0"] for v in row)


def test_the_snippets_bfloat16_rounds_as_pytorch_does():
    values = np.concatenate([np.random.default_rng(0).normal(size=200) * 10.0 ** np.arange(-20, 20, 0.2),
                             [1e-8, 1e-5, 1e-3, 1 + 2.0 ** -8, 1 + 3 * 2.0 ** -8, 2.0 ** -134, 2.0 ** -133]]).astype(np.float32)
    out = run("torch", f"""
        import json, torch
        x = torch.tensor({values.tolist()!r}, dtype=torch.float32)
        print(json.dumps({{"rounded": x.to(torch.bfloat16).float().tolist()}}))
    """)
    assert wr060.bfloat16(values).tolist() == out["rounded"]


def test_pytorch_cited_lines_for_batch_norm():
    assert "Expected more than 1 value per channel when training" in source_line("torch", "torch/nn/functional.py", 2855)
    assert "batch_norm eps must be positive during training" in source_line("torch", "torch/nn/functional.py", 2893)
    assert source_line("torch", "torch/nn/modules/batchnorm.py", 41).strip() == "eps: float = 1e-5,"


@pytest.mark.parametrize("backend", ["jax", "tensorflow"])
def test_keras_batch_norm_and_normalization(backend):
    out = keras(backend, """
        import json, numpy as np, keras
        bn = keras.layers.BatchNormalization()
        outputs = [np.asarray(bn(np.array([row], "float32"), training=True)).tolist()
                   for row in ([1.5, -2.0, 3.0], [70.0, 0.1, -9.0])]
        moving = keras.layers.BatchNormalization()
        for _ in range(3):
            moving(np.array([[1.5, -2.0, 3.0]], "float32"), training=True)
        norm = keras.layers.Normalization()
        data = np.array([[0.0, 1.0], [0.0, 2.0], [0.0, 3.0]], "float32")
        norm.adapt(data)
        tenth = keras.layers.Normalization()
        tenth_data = np.column_stack([np.full(160, 0.1), np.linspace(0, 1, 160)]).astype("float32")
        tenth.adapt(tenth_data)
        given = keras.layers.Normalization(mean=[0.0, 2.0], variance=[1.0, 2.0 / 3.0])    # zero spread set to 1
        unit16 = keras.layers.UnitNormalization(dtype="float16")(np.zeros((1, 3), "float32"))
        print(json.dumps({"outputs": outputs, "epsilon": bn.epsilon, "momentum": bn.momentum,
                          "moving_variance": np.asarray(moving.moving_variance).tolist(),
                          "constant": np.asarray(norm(data))[:, 0].tolist(), "backend_eps": keras.config.epsilon(),
                          "later": float(np.asarray(norm(np.array([[0.5, 2.0]], "float32")))[0, 0]),
                          "tenth_variance": float(np.asarray(tenth.variance).ravel()[0]),
                          "tenth": sorted(set(np.asarray(tenth(tenth_data))[:, 0].tolist())),
                          "given": np.asarray(given(np.array([[0.5, 2.0]], "float32"))).tolist(),
                          "unit16": np.asarray(unit16, "float32").tolist()}))
    """)
    assert out["outputs"] == [[[0.0, 0.0, 0.0]]] * 2                 # beta, whatever the input
    assert (out["epsilon"], out["momentum"], out["backend_eps"]) == (1e-3, 0.99, 1e-7)
    np.testing.assert_allclose(out["moving_variance"], 0.99 ** 3, rtol=1e-6)   # pulled toward 0 each step
    assert out["constant"] == [0.0, 0.0, 0.0]                         # an exactly zero variance
    assert out["later"] == pytest.approx(0.5 / 1e-7, rel=1e-6)        # a later difference over 1e-7
    assert f"{out['tenth_variance']:.3g}" == "2.45e-14" and out["tenth"] == [-1.0]   # rounding over rounding
    assert out["given"] == [[0.5, 0.0]]
    assert_entry_says("WR-060", [
        f"after three steps it is {out['moving_variance'][0]:.3f}",
        f"adapts to a variance of {out['tenth_variance']:.3g} and every row to "
        f"{'−' if out['tenth'][0] < 0 else ''}{abs(out['tenth'][0])}",
        f"a test value 0.5 above the training constant becomes {out['later']:,.0f}",
    ])
    assert all(math.isnan(v) for v in out["unit16"][0])


def test_keras_cited_lines():
    assert source_line("jax", "keras/src/layers/normalization/batch_normalization.py", 164).strip() == "epsilon=1e-3,"
    assert "BN is prone to overflow with float16/bfloat16 inputs" in source_line(
        "jax", "keras/src/layers/normalization/batch_normalization.py", 346)
    assert source_line("jax", "keras/src/layers/preprocessing/normalization.py", 440).strip() == \
        "self.backend.numpy.maximum("
    assert "Invalid loss, terminating training" in source_line("jax", "keras/src/callbacks/terminate_on_nan.py", 67)


def test_tensorflow_l2_normalize_and_the_dtype():
    out = run("tf", """
        import json, tensorflow as tf
        result = {}
        for name, dtype, kw in (("float16", "float16", {}), ("bfloat16", "bfloat16", {}),
                                ("float16 eps", "float16", {"epsilon": 6.1e-5})):
            z = tf.zeros((1, 3), dtype)
            with tf.GradientTape() as tape:
                tape.watch(z); u = tf.math.l2_normalize(z, axis=-1, **kw); s = tf.reduce_sum(u)
            result[name] = [tf.cast(u, "float32").numpy().ravel().tolist(),
                            tf.cast(tape.gradient(s, z), "float32").numpy().ravel().tolist()]
        print(json.dumps(result))
    """)
    assert all(math.isnan(v) for v in out["float16"][0])
    assert out["bfloat16"][0] == [0.0] * 3
    value, grad = out["float16 eps"]
    assert value == [0.0] * 3 and all(math.isfinite(g) for g in grad)


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


def test_jax_standardize_recomputes_its_statistics_and_keeps_rounding():
    """By default jax.nn.standardize takes mean and variance from the array it is given; a constant that
    float32 cannot hold keeps a rounding-level variance; given the training statistics it uses them."""
    out = run("jax", """
        import json, jax, jax.numpy as jnp
        column = jnp.full((160, 1), 12345.6, jnp.float32)
        fast = float(jax.nn.standardize(column, axis=0)[0, 0])
        stable = float(jax.nn.standardize(column, axis=0, algorithm="stable")[0, 0])
        train = jnp.array([[0., 1.], [0., 2.], [0., 3.]])
        test = jnp.array([[0., 10.], [0., 12.]])
        mean, var = train.mean(0), train.var(0).at[0].set(1.0)      # the column with no spread set to 1
        given = jax.nn.standardize(test, axis=0, mean=mean, variance=var).tolist()
        own = jax.nn.standardize(test, axis=0).tolist()
        print(json.dumps({"fast": fast, "stable": stable, "given": given, "own": own,
                          "expected": ((test - mean) / jnp.sqrt(var + 1e-5)).tolist()}))
    """)
    assert_entry_says("WR-060", [f"comes out {out['fast']:.3f} with the default algorithm=\"fast\" and "
                                 f"{out['stable']:.3f} with \"stable\""])
    np.testing.assert_allclose(out["given"], out["expected"], rtol=1e-6)
    assert out["own"][0][1] < 0 < out["own"][1][1] and out["given"][0][1] > 5     # its own test statistics


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


def test_pytorch_quantile_between_equal_values_is_that_value_exactly():
    """WR-060's page: a percentile interpolated between two equal values is that value exactly in torch.quantile (as
    in np.percentile), so min-max scaling by percentiles is 0/0, nan, in every value of a constant item."""
    out = run("torch", """
        import json, torch
        bad = 0
        for dtype in (torch.float32, torch.float64):
            for value in (0.0, 0.1, 1 / 3, 0.7, 4095.0, 1e30):
                item = torch.full((257,), value, dtype=dtype)
                for how in ("linear", "lower", "higher", "midpoint", "nearest"):
                    lo, hi = torch.quantile(item, torch.tensor([0.01, 0.99], dtype=dtype), interpolation=how)
                    bad += int(not (bool(lo == item[0]) and bool(hi == item[0])
                                    and bool(torch.isnan((item - lo) / (hi - lo)).all())))
        print(json.dumps({"bad": bad}))
    """)
    assert out["bad"] == 0
    assert_entry_says("WR-060", ["in `np.percentile` and `torch.quantile`"])
