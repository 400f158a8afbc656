"""Opt-in: what WR-040 and WR-070 say about PyTorch, Keras and JAX, checked against the real frameworks.

Runs only with TRAINWRECK_FRAMEWORK_TESTS=1, in the scratch interpreters (/work/scratch/<name>/bin/python,
or TRAINWRECK_<NAME>_PYTHON); each check is a small program whose printed JSON the test reads.
"""
import numpy as np
import pytest

from conftest import load_snippet
from framework_runner import OPT_IN, keras, run, declared as declared_messages

pytestmark = OPT_IN

wr040 = load_snippet("wr040_half_precision")
wr070 = load_snippet("wr070_masked_softmax")


# --- WR-040 ---------------------------------------------------------------------------------------

def test_pytorch_grad_scaler_defaults_and_no_floor():
    out = run("torch", """
        import inspect, json, torch
        sig = inspect.signature(torch.amp.GradScaler.__init__).parameters
        w = torch.nn.Parameter(torch.ones(2))
        opt = torch.optim.SGD([w], lr=0.1)
        scaler = torch.amp.GradScaler("cpu")
        steps = 0
        while scaler.get_scale() > 0 and steps < 400:
            opt.zero_grad()
            scaler.scale((w * float("inf")).sum()).backward()
            scaler.step(opt); scaler.update(); steps += 1
        print(json.dumps({k: sig[k].default for k in ("init_scale", "growth_factor", "backoff_factor",
                                                       "growth_interval")} | {"steps_to_zero": steps}))
    """)
    ours = wr040.LossScaler()
    assert (out["init_scale"], out["growth_factor"], out["backoff_factor"], out["growth_interval"]) == (
        ours.scale, ours.growth_factor, ours.backoff_factor, ours.growth_interval)
    assert out["steps_to_zero"] == 166


def test_pytorch_scheduler_warns_when_the_scaler_skips_the_first_step():
    out = run("torch", """
        import json, warnings, torch
        w = torch.nn.Parameter(torch.ones(2))
        opt = torch.optim.SGD([w], lr=0.1)
        sched = torch.optim.lr_scheduler.StepLR(opt, 10)
        scaler = torch.amp.GradScaler("cpu")
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            scaler.scale((w * 1e36).sum()).backward()      # 1e36 * 65536 is inf in float32: skipped
            scaler.step(opt); scaler.update(); sched.step()
        print(json.dumps({"warnings": [str(c.message) for c in caught], "scale": scaler.get_scale()}))
    """)
    (declared,) = [m for m in declared_messages("WR-040", "pytorch") if "lr_scheduler.step()" in m.text]
    assert out["scale"] == 2.0 ** 15
    assert any(text.startswith(declared.text) for text in out["warnings"])


def test_pytorch_adam_on_float16_parameters_matches_the_snippet():
    out = run("torch", """
        import json, torch
        w = torch.nn.Parameter(torch.ones(4, dtype=torch.float16))
        opt = torch.optim.Adam([w], lr=1e-3)
        w.grad = torch.tensor([1e-3, 1e-2, 0.0, 1.0], dtype=torch.float16)
        opt.step()
        print(json.dumps({"w": [str(v) for v in w.detach().float().tolist()],
                          "v": opt.state[w]["exp_avg_sq"].float().tolist()}))
    """)
    adam = wr040.Adam([wr040.half(np.ones(4))], 1e-3, wr040.half)
    with np.errstate(divide="ignore", invalid="ignore"):
        (ours,) = adam.step([wr040.half(np.ones(4))], [wr040.half([1e-3, 1e-2, 0.0, 1.0])])
    assert out["w"] == [str(float(v)) for v in ours]
    assert out["v"] == [float(v) for v in adam.v[0]]


def test_pytorch_bfloat16_rounding_matches_the_snippet():
    xs = np.random.default_rng(0).normal(size=2000).astype(np.float32) * np.float32(10.0) ** np.random.default_rng(
        1).integers(-20, 20, 2000).astype(np.float32)
    xs = np.concatenate([xs, np.float32([1 + 2 ** -8, 1 + 3 * 2 ** -8, 70000.0])])
    out = run("torch", f"""
        import json, torch
        xs = torch.tensor({xs.tolist()!r}, dtype=torch.float32)
        print(json.dumps(xs.bfloat16().float().tolist()))
    """)
    assert np.array_equal(np.float32(out), wr040.bfloat16(xs))


def test_jax_debug_infs_and_the_numpy_cast_warning():
    out = run("jax", """
        import json, warnings, jax, jax.numpy as jnp
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            jnp.asarray(7e4, jnp.float16)
        jax.config.update("jax_debug_infs", True)
        try:
            jnp.array([300.0, 1.0], dtype=jnp.float16) * jnp.array([300.0, 1.0], dtype=jnp.float16)
            error = None
        except FloatingPointError as e:
            error = str(e)
        print(json.dumps({"warnings": [str(c.message) for c in caught], "error": error}))
    """, JAX_PLATFORMS="cpu")
    assert "overflow encountered in cast" in out["warnings"]
    (declared,) = declared_messages("WR-040", "jax")
    assert declared.matches(out["error"]) and out["error"] == declared.example


def test_keras_loss_scale_optimizer_and_terminate_on_nan():
    out = keras("jax", """
        import contextlib, inspect, io, json, keras
        sig = inspect.signature(keras.optimizers.LossScaleOptimizer.__init__).parameters
        model = keras.Sequential([keras.Input((1,)), keras.layers.Dense(1)])
        callback = keras.callbacks.TerminateOnNaN()
        callback.set_model(model)
        buffer = io.StringIO()
        with contextlib.redirect_stdout(buffer):
            callback.on_batch_end(0, {"loss": float("nan")})
        keras.mixed_precision.set_global_policy("mixed_float16")
        m16 = keras.Sequential([keras.Input((1,)), keras.layers.Dense(1)])
        m16.compile(optimizer="sgd", loss="mse")
        print(json.dumps({"initial_scale": sig["initial_scale"].default,
                          "growth_steps": sig["dynamic_growth_steps"].default, "printed": buffer.getvalue(),
                          "wrapped": type(m16.optimizer).__name__}))
    """, JAX_PLATFORMS="cpu")
    assert (out["initial_scale"], out["growth_steps"]) == (2.0 ** 15, 2000)
    assert out["wrapped"] == "LossScaleOptimizer"
    (declared,) = declared_messages("WR-040", "keras")
    assert declared.example in out["printed"]


# --- WR-070 ---------------------------------------------------------------------------------------

def test_pytorch_on_an_empty_row():
    out = run("torch", """
        import json, warnings, torch, torch.nn.functional as F
        warnings.simplefilter("ignore")
        torch.manual_seed(0)
        q, k, v = torch.randn(1, 1, 3, 4), torch.randn(1, 1, 5, 4), torch.randn(1, 1, 5, 4)
        allowed = torch.ones(3, 5, dtype=torch.bool); allowed[1] = False
        softmax_row = torch.softmax(torch.full((5,), float("-inf")), -1)
        qq, vv = q.clone().requires_grad_(), v.clone().requires_grad_()
        sdpa = F.scaled_dot_product_attention(qq, k, vv, attn_mask=allowed)
        sdpa.sum().backward()
        mha = torch.nn.MultiheadAttention(4, 1, batch_first=True)
        x = torch.randn(2, 5, 4)
        padding = torch.zeros(2, 5, dtype=torch.bool); padding[1] = True
        with_weights, _ = mha(x, x, x, key_padding_mask=padding)
        without, _ = mha(x, x, x, key_padding_mask=padding, need_weights=False)
        # attention pooling, the empty sequence left out of the loss
        X = torch.randn(4, 3, 4)
        keep = torch.ones(4, 3, dtype=torch.bool); keep[1] = False
        qp, Wv, w = (torch.randn(4, requires_grad=True), torch.randn(4, 4, requires_grad=True),
                     torch.randn(4, requires_grad=True))
        p = torch.softmax((X @ qp / 2).masked_fill(~keep, float("-inf")), -1)
        z = torch.einsum("nt,ntd->nd", p, X @ Wv) @ w
        rows = keep.any(1)
        F.binary_cross_entropy_with_logits(z[rows], torch.ones(int(rows.sum()))).backward()
        anomaly = None
        with torch.autograd.set_detect_anomaly(True):
            p = torch.softmax((X @ qp / 2).masked_fill(~keep, float("-inf")), -1)
            z = torch.einsum("nt,ntd->nd", p, X @ Wv) @ w
            try:
                F.binary_cross_entropy_with_logits(z, torch.ones(4)).backward()
            except RuntimeError as e:
                anomaly = str(e)
        print(json.dumps({
            "softmax_nan": bool(torch.isnan(softmax_row).all()),
            "sdpa_row": sdpa[0, 0, 1].tolist(), "sdpa_grads_finite": bool(torch.isfinite(qq.grad).all()
                                                                           and torch.isfinite(vv.grad).all()),
            "mha_weights_nan": bool(torch.isnan(with_weights[1]).all()),
            "mha_sdpa_row": without[1].tolist(),
            "grads_finite": {"q": bool(torch.isfinite(qp.grad).all()), "Wv": bool(torch.isfinite(Wv.grad).all()),
                             "w": bool(torch.isfinite(w.grad).all())},
            "anomaly": anomaly}))
    """)
    assert out["softmax_nan"] and out["mha_weights_nan"]
    assert out["sdpa_row"] == [0.0] * 4 and out["sdpa_grads_finite"]
    assert out["mha_sdpa_row"] == [[0.0] * 4] * 5
    assert out["grads_finite"] == {"q": True, "Wv": False, "w": False}      # as the snippet's backward pass
    (declared,) = declared_messages("WR-070", "pytorch")
    assert out["anomaly"] == declared.example


def test_jax_on_an_empty_row():
    out = run("jax", """
        import json, numpy as np, jax, jax.numpy as jnp
        x = jnp.array([[1.0, 2.0, 3.0], [1.0, 2.0, 3.0]])
        where = jnp.array([[True, True, False], [False, False, False]])
        plain = jax.nn.softmax(jnp.where(where, x, -jnp.inf))
        masked = jax.nn.softmax(x, where=where)
        grad = jax.grad(lambda x: (jax.nn.softmax(x, where=where) * jnp.arange(3.0)).sum())(x)
        rng = np.random.default_rng(0)
        q, k, v = (jnp.array(rng.normal(size=s), jnp.float32) for s in ((1, 3, 1, 2), (1, 4, 1, 2), (1, 4, 1, 2)))
        mask = np.ones((1, 1, 3, 4), bool); mask[0, 0, 1] = False
        out = jax.nn.dot_product_attention(q, k, v, mask=jnp.array(mask))
        print(json.dumps({"plain_nan": bool(jnp.isnan(plain[1]).all()), "where_row": masked[1].tolist(),
                          "grad_finite": bool(jnp.isfinite(grad).all()),
                          "dpa_is_mean": bool(jnp.allclose(out[0, 1, 0], v[0, :, 0].mean(0)))}))
    """, JAX_PLATFORMS="cpu")
    assert out["plain_nan"] and out["where_row"] == [0.0, 0.0, 0.0] and out["grad_finite"]
    assert out["dpa_is_mean"]
    # jax_debug_nans set when the program starts, as one sets it to hunt a nan
    errors = run("jax", """
        import json, jax, jax.numpy as jnp
        x = jnp.array([[1.0, 2.0, 3.0], [1.0, 2.0, 3.0]])
        where = jnp.array([[True, True, False], [False, False, False]])
        errors = []
        for f in (lambda: jax.nn.softmax(jnp.where(where, x, -jnp.inf)), lambda: jax.nn.softmax(x, where=where)):
            try:
                f(); errors.append(None)
            except FloatingPointError as e:
                errors.append(str(e))
        print(json.dumps({"errors": errors}))
    """, JAX_PLATFORMS="cpu", JAX_DEBUG_NANS="True")["errors"]
    (declared,) = declared_messages("WR-070", "jax")
    assert errors == [declared.example, declared.example]


@pytest.mark.parametrize("backend", ["jax", "tensorflow"])
def test_keras_multi_head_attention_on_an_empty_row(backend):
    out = keras(backend, """
        import json, numpy as np, keras
        rng = np.random.default_rng(0)
        x = rng.normal(size=(1, 3, 4)).astype("float32")
        mask = np.ones((1, 3, 3), bool); mask[0, 1] = False
        mha = keras.layers.MultiHeadAttention(num_heads=1, key_dim=4)
        default = np.asarray(mha(x, x, attention_mask=mask))
        scored, weights = mha(x, x, attention_mask=mask, return_attention_scores=True)
        uniform = mha._output_dense(keras.ops.mean(mha._value_dense(x), axis=1, keepdims=True))
        print(json.dumps({"default_is_uniform": bool(np.allclose(default[0, 1], np.asarray(uniform)[0, 0])),
                          "scored_row": np.asarray(scored)[0, 1].tolist(),
                          "weights_row": np.asarray(weights)[0, 0, 1].tolist()}))
    """, JAX_PLATFORMS="cpu", TF_CPP_MIN_LOG_LEVEL="3")
    assert out["default_is_uniform"]
    assert out["scored_row"] == [0.0] * 4 and out["weights_row"] == [0.0] * 3
