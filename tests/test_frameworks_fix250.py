"""Opt-in: what WR-240 and WR-250 say about PyTorch, Keras and JAX, checked against the real frameworks.

Runs only with TRAINWRECK_FRAMEWORK_TESTS=1, each framework in its own interpreter (the scratch
environments, or the ones named by TRAINWRECK_TORCH_PYTHON / _KERAS_PYTHON / _JAX_PYTHON); every
other run skips with the reason printed by `pytest -rs`.
"""
import json
import os
import subprocess
import textwrap
from pathlib import Path

import pytest

from trainwreck.catalog import load

ROOT = Path(__file__).resolve().parent.parent
ENABLED = os.environ.get("TRAINWRECK_FRAMEWORK_TESTS") == "1"
pytestmark = pytest.mark.skipif(not ENABLED, reason="framework tests are opt-in: set TRAINWRECK_FRAMEWORK_TESTS=1")

PYTHONS = {
    "torch": os.environ.get("TRAINWRECK_TORCH_PYTHON", "/work/scratch/torch/bin/python"),
    "keras": os.environ.get("TRAINWRECK_KERAS_PYTHON", "/work/scratch/tf/bin/python"),
    "jax": os.environ.get("TRAINWRECK_JAX_PYTHON", "/work/scratch/jax/bin/python"),
}


def run_in(framework: str, code: str) -> dict:
    """Run code in the framework's interpreter; it prints one JSON object on its last line."""
    python = PYTHONS[framework]
    if not Path(python).exists():
        pytest.skip(f"no {framework} interpreter at {python}")
    env = {**os.environ, "KERAS_BACKEND": "tensorflow", "TF_CPP_MIN_LOG_LEVEL": "3", "CUDA_VISIBLE_DEVICES": ""}
    done = subprocess.run([python, "-c", textwrap.dedent(code)], capture_output=True, text=True, env=env, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def declared(entry_id: str, origin: str):
    entry = load(ROOT / "catalog").entries[entry_id]
    return [m for m in entry.messages if m.origin == origin]


def test_torch_clip_grad_norm_returns_the_norm_spreads_nan_and_raises_the_quoted_error():
    out = run_in("torch", """
        import json, torch
        w = torch.nn.Parameter(torch.zeros(2)); v = torch.nn.Parameter(torch.zeros(1))
        w.grad = torch.tensor([3.0, 4.0]); v.grad = torch.tensor([0.0])
        total = float(torch.nn.utils.clip_grad_norm_([w, v], max_norm=1.0))
        clipped = w.grad.tolist()
        w.grad = torch.tensor([float("nan"), 4.0]); v.grad = torch.tensor([2.0])
        torch.nn.utils.clip_grad_norm_([w, v], max_norm=1.0)
        spread = [str(x) for x in w.grad.tolist() + v.grad.tolist()]
        w.grad = torch.tensor([float("nan"), 4.0])
        try:
            torch.nn.utils.clip_grad_norm_([w, v], max_norm=1.0, error_if_nonfinite=True)
            error = None
        except RuntimeError as e:
            error = str(e)
        print(json.dumps({"total": total, "clipped": clipped, "spread": spread, "error": error}))
    """)
    assert out["total"] == 5.0 and out["clipped"] == pytest.approx([0.6, 0.8], rel=1e-5)
    assert out["spread"] == ["nan", "nan", "nan"]
    (message,) = [m for m in declared("WR-240", "pytorch") if m.text.startswith("The total norm")]
    assert out["error"] == message.example and message.matches(out["error"])


def test_torch_adam_first_step_is_the_rate_and_warmup_schedulers_ramp():
    out = run_in("torch", """
        import json, torch
        p = torch.nn.Parameter(torch.zeros(3))
        opt = torch.optim.Adam([p], lr=0.1)
        p.grad = torch.tensor([3e-5, -2.0, 50.0]); opt.step()
        first = p.detach().tolist()
        lam = torch.optim.Adam([torch.nn.Parameter(torch.zeros(1))], lr=0.1)
        s1 = torch.optim.lr_scheduler.LambdaLR(lam, lambda k: min(1.0, (k + 1) / 4))
        lin = torch.optim.Adam([torch.nn.Parameter(torch.zeros(1))], lr=0.1)
        s2 = torch.optim.lr_scheduler.LinearLR(lin, start_factor=1 / 4, total_iters=3)
        rates = [[], []]
        for _ in range(6):
            rates[0].append(lam.param_groups[0]["lr"]); rates[1].append(lin.param_groups[0]["lr"])
            lam.step(); lin.step(); s1.step(); s2.step()
        print(json.dumps({"first": first, "rates": rates}))
    """)
    assert out["first"] == pytest.approx([-0.1, 0.1, -0.1], rel=1e-3)
    for rates in out["rates"]:
        assert rates == pytest.approx([0.025, 0.05, 0.075, 0.1, 0.1, 0.1])


def test_keras_clipping_terminate_on_nan_and_running_mean_batch_logs():
    out = run_in("keras", """
        import io, json, contextlib, numpy as np, keras
        a = keras.Variable(np.zeros(2, "float32")); b = keras.Variable(np.zeros(1, "float32"))
        opt = keras.optimizers.SGD(learning_rate=1.0, global_clipnorm=1.0)
        a.assign(np.zeros(2, "float32")); b.assign(np.zeros(1, "float32"))
        opt.apply_gradients([(np.array([np.nan, 4.0], "float32"), a), (np.array([2.0], "float32"), b)])
        nan_spread = [str(x) for x in a.numpy().tolist() + b.numpy().tolist()]
        x = np.random.default_rng(0).normal(size=(64, 3)).astype("float32"); y = x[:, :1] * 3
        model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(1)])
        model.compile(optimizer=keras.optimizers.SGD(0.0), loss="mse")
        seen = []
        class Record(keras.callbacks.Callback):
            def on_train_batch_end(self, batch, logs=None):
                seen.append(float(logs["loss"]))
        model.fit(x, y, batch_size=16, epochs=1, verbose=0, shuffle=False, callbacks=[Record()])
        per = [float(np.mean((model.predict(x[i:i + 16], verbose=0) - y[i:i + 16]) ** 2)) for i in range(0, 64, 16)]
        bad = keras.Sequential([keras.Input((3,)), keras.layers.Dense(1)])
        bad.compile(optimizer=keras.optimizers.SGD(1e6), loss="mse")
        printed = io.StringIO()
        with contextlib.redirect_stdout(printed):
            bad.fit(x * 1e3, y, batch_size=16, epochs=3, verbose=0, callbacks=[keras.callbacks.TerminateOnNaN()])
        schedule = keras.optimizers.schedules.CosineDecay(0.0, 20, warmup_target=0.1, warmup_steps=4)
        print(json.dumps({"nan_spread": nan_spread, "seen": seen,
                          "per": per, "printed": printed.getvalue(),
                          "warmup": [float(schedule(i)) for i in range(6)], "version": keras.__version__}))
    """)
    assert out["version"] == "3.15.1"
    assert out["nan_spread"] == ["nan", "nan", "nan"]
    running = [sum(out["per"][:k + 1]) / (k + 1) for k in range(4)]
    assert out["seen"] == pytest.approx(running, rel=1e-4) and out["seen"] != pytest.approx(out["per"], rel=1e-3)
    (message,) = declared("WR-240", "keras")
    lines = [line for line in out["printed"].splitlines() if "Invalid loss" in line]
    assert lines and message.matches(lines[0])
    assert out["warmup"][:5] == pytest.approx([0.0, 0.025, 0.05, 0.075, 0.1], rel=1e-5)


def test_keras_clipnorm_is_per_tensor_and_global_clipnorm_is_joint():
    out = run_in("keras", """
        import json, numpy as np, keras
        result = {}
        for name in ("global_clipnorm", "clipnorm"):
            a = keras.Variable(np.zeros(2, "float32")); b = keras.Variable(np.zeros(1, "float32"))
            keras.optimizers.SGD(learning_rate=1.0, **{name: 1.0}).apply_gradients(
                [(np.array([3.0, 4.0], "float32"), a), (np.array([2.0], "float32"), b)])
            result[name] = float(np.sqrt(np.sum(a.numpy() ** 2) + np.sum(b.numpy() ** 2)))
        print(json.dumps(result))
    """)
    assert out["global_clipnorm"] == pytest.approx(1.0, rel=1e-5)
    assert out["clipnorm"] == pytest.approx(2 ** 0.5, rel=1e-5)


def test_jax_clip_by_global_norm_nan_debug_message_adam_first_step_and_warmup():
    out = run_in("jax", """
        import io, json, contextlib, jax, jax.numpy as jnp, optax
        tx = optax.clip_by_global_norm(1.0)
        nan_updates, _ = tx.update({"w": jnp.array([jnp.nan, 4.0])}, tx.init({"w": jnp.zeros(2)}))
        adam = optax.adam(0.1)
        g = {"w": jnp.array([3e-5, -2.0, 50.0])}
        first, _ = adam.update(g, adam.init(g))
        schedule = optax.warmup_constant_schedule(0.0, 0.1, 4)
        found = {"nan": [str(float(x)) for x in nan_updates["w"]], "first": [float(x) for x in first["w"]],
                 "warmup": [float(schedule(i)) for i in range(6)]}
        jax.config.update("jax_debug_nans", True)
        @jax.jit
        def step(g):
            return tx.update(g, tx.init(g))[0]
        try:
            with contextlib.redirect_stdout(io.StringIO()):
                step({"w": jnp.array([jnp.inf, 1.0])})
            error = None
        except FloatingPointError as e:
            error = str(e).splitlines()[0]
        print(json.dumps({**found, "error": error}))
    """)
    assert out["nan"] == ["nan", "nan"]
    assert out["first"] == pytest.approx([-0.1, 0.1, -0.1], rel=1e-3)
    assert out["warmup"] == pytest.approx([0.0, 0.025, 0.05, 0.075, 0.1, 0.1], rel=1e-5)
    (message,) = declared("WR-240", "jax")
    assert out["error"] == message.example and message.matches(out["error"])
