"""Opt-in: what WR-220 and WR-030 say about PyTorch, Keras/TensorFlow and JAX, checked by running them.

Runs only with TRAINWRECK_FRAMEWORK_TESTS=1. Each framework runs in its own interpreter (the
snippets' network, data and seeds, loaded from snippets/), found at TRAINWRECK_TORCH_PYTHON,
TRAINWRECK_JAX_PYTHON and TRAINWRECK_TF_PYTHON, or in /work/scratch/{torch,jax,tf}/bin/python.
A missing interpreter skips its tests with the reason printed.
"""
import json
import os
import subprocess
import textwrap
from pathlib import Path

import numpy as np
import pytest

from conftest import ROOT, load_snippet

ENABLED = os.environ.get("TRAINWRECK_FRAMEWORK_TESTS") == "1"
pytestmark = pytest.mark.skipif(not ENABLED, reason="framework tests are opt-in: set TRAINWRECK_FRAMEWORK_TESTS=1")

wr220 = load_snippet("wr220_lr_explosion")
ENTRIES = None


def declared(entry_id):
    """The examples of the messages an entry declares, by origin."""
    from trainwreck.catalog import load

    global ENTRIES
    ENTRIES = ENTRIES or load(ROOT / "catalog").entries
    out = {}
    for m in ENTRIES[entry_id].messages:
        out.setdefault(m.origin, []).append(m.example or m.text)
    return out


def interpreter(name):
    path = Path(os.environ.get(f"TRAINWRECK_{name.upper()}_PYTHON", f"/work/scratch/{name}/bin/python"))
    if not path.is_file():
        pytest.skip(f"no {name} interpreter at {path} (set TRAINWRECK_{name.upper()}_PYTHON)")
    return path


def run(name, script, **env):
    """Run the script in the framework's interpreter; it prints one JSON object on its last line."""
    prelude = (f"import sys, json\nsys.path.insert(0, {str(ROOT / 'snippets')!r})\n"
               f"sys.path.insert(0, {str(ROOT / 'tests')!r})\n")
    result = subprocess.run([str(interpreter(name)), "-c", prelude + textwrap.dedent(script)],
                            capture_output=True, text=True, timeout=600,
                            env={**os.environ, "TF_CPP_MIN_LOG_LEVEL": "2", **env})
    assert result.returncode == 0, result.stderr[-3000:]
    return json.loads(result.stdout.strip().splitlines()[-1]), result.stdout


TORCH = """
import numpy as np, torch
import wr220_lr_explosion as w220, wr030_log_of_zero as w030
F = torch.nn.functional
X, y = (torch.tensor(a, dtype=torch.float32) for a in w220.make_data())
p0 = w220.init_params()
out = {}

def train_220(kind, epochs, anomaly=False, clip=None):
    ps = {k: torch.tensor(v, dtype=torch.float32, requires_grad=True) for k, v in p0.items()}
    losses = []
    for e in range(epochs):
        z = torch.relu(X @ ps["W1"] + ps["b1"]) @ ps["W2"] + ps["b2"]
        if kind == "hand":
            p = torch.sigmoid(z)
            loss = -(y * torch.log(p) + (1 - y) * torch.log(1 - p)).mean()
        elif kind == "bce":
            loss = F.binary_cross_entropy(torch.sigmoid(z), y)
        else:
            loss = F.binary_cross_entropy_with_logits(z, y)
        losses.append(loss.item())
        for v in ps.values():
            v.grad = None
        try:
            with torch.autograd.set_detect_anomaly(anomaly):
                loss.backward()
        except RuntimeError as ex:
            return losses, ps, str(ex)
        with torch.no_grad():
            for v in ps.values():
                v -= 10.0 * v.grad
    return losses, ps, None

for kind in ("hand", "bce", "logits"):
    losses, ps, _ = train_220(kind, 300)
    dead = int((torch.relu(X @ ps["W1"] + ps["b1"]) > 0).any(dim=0).logical_not().sum())
    out[kind] = {"loss": [v if np.isfinite(v) else str(v) for v in losses], "dead": dead}
out["anomaly_220"] = train_220("hand", 5, anomaly=True)[2]

x, t = (torch.tensor(a, dtype=torch.float32) for a in w030.make_data())
def train_030(kind, anomaly=False):
    wt, b = torch.zeros((), requires_grad=True), torch.zeros((), requires_grad=True)
    losses = []
    for e in range(30):
        z = wt * x + b
        p = torch.sigmoid(z)
        loss = (-(t * torch.log(p) + (1 - t) * torch.log(1 - p)).mean() if kind == "hand"
                else F.binary_cross_entropy(p, t))
        losses.append(loss.item())
        wt.grad = b.grad = None
        try:
            with torch.autograd.set_detect_anomaly(anomaly):
                loss.backward()
        except RuntimeError as ex:
            return losses, str(ex)
        with torch.no_grad():
            wt -= 0.05 * wt.grad
            b -= 0.05 * b.grad
    return losses, None
out["hand_030"] = [v if np.isfinite(v) else str(v) for v in train_030("hand")[0]]
out["bce_030"] = train_030("bce")[0]
out["anomaly_030"] = train_030("hand", anomaly=True)[1]

# BCELoss: a wrong output of exactly 1.0 costs 100 and passes no gradient back through the sigmoid
z = torch.tensor([30.0], requires_grad=True)
loss = F.binary_cross_entropy(torch.sigmoid(z), torch.tensor([0.0]))
loss.backward()
out["bce_wrong_saturated"] = [loss.item(), z.grad.item()]

# clip_grad_norm_: returns the norm; nan scales everything by nan, inf zeroes the finite entries
w = torch.nn.Parameter(torch.ones(3))
w.grad = torch.tensor([3.0, 4.0, 0.0])
out["clip_returns"] = torch.nn.utils.clip_grad_norm_([w], 1.0).item()
for bad in ("nan", "inf"):
    w.grad = torch.tensor([1.0, float(bad), 2.0])
    torch.nn.utils.clip_grad_norm_([w], 1.0)
    out[f"clip_{bad}"] = [str(v) for v in w.grad.tolist()]
w.grad = torch.tensor([1.0, float("nan"), 2.0])
try:
    torch.nn.utils.clip_grad_norm_([w], 1.0, error_if_nonfinite=True)
except RuntimeError as ex:
    out["clip_error"] = str(ex)

def saturation(dtype):
    zs = torch.arange(0, 60, 1 / 4096, dtype=torch.float64).to(dtype)
    return zs[torch.sigmoid(zs) == 1][0].item()
out["saturation"] = {"float32": saturation(torch.float32), "float16": saturation(torch.float16)}
print(json.dumps(out))
"""


@pytest.fixture(scope="module")
def torch_run():
    return run("torch", TORCH)[0]


def test_torch_logits_loss_shows_the_snippets_spikes_and_dead_units(torch_run):
    face2 = wr220.train(10.0, epochs=11, from_logits=True)["loss"]
    losses = torch_run["logits"]["loss"]
    assert all(isinstance(v, float) for v in losses)                      # never non-finite
    assert losses[:11] == pytest.approx(face2, rel=1e-3)
    assert 0.17 < losses[-1] < 0.21 and 20 <= torch_run["logits"]["dead"] <= 24


def test_torch_hand_written_loss_is_nan_after_one_step_and_anomaly_names_the_log(torch_run):
    assert torch_run["hand"]["loss"][1] == "nan"
    assert torch_run["anomaly_220"] == torch_run["anomaly_030"]
    assert torch_run["anomaly_220"] in declared("WR-220")["pytorch"]
    assert torch_run["anomaly_220"] in declared("WR-030")["pytorch"]


def test_torch_bce_loss_clamps_and_spikes_less(torch_run):
    losses = torch_run["bce"]["loss"]
    assert all(isinstance(v, float) for v in losses)
    assert max(losses) == pytest.approx(5.86, abs=0.005) and losses.index(max(losses)) == 4
    assert torch_run["bce_wrong_saturated"] == [100.0, 0.0]


def test_torch_clip_grad_norm(torch_run):
    assert torch_run["clip_returns"] == 5.0
    assert torch_run["clip_nan"] == ["nan", "nan", "nan"]
    assert torch_run["clip_inf"] == ["0.0", "nan", "0.0"]
    assert torch_run["clip_error"] in declared("WR-220")["pytorch"]


def test_torch_wr030_hand_nan_at_epoch_one_and_bce_healthy(torch_run):
    wr030 = load_snippet("wr030_log_of_zero")
    assert torch_run["hand_030"][1] == "nan"
    assert torch_run["bce_030"] == pytest.approx(wr030.train(loss_fn=wr030.bce_from_logits)["loss"], rel=1e-3)


def test_torch_sigmoid_rounds_to_one_at_16_64_in_float32_and_8_32_in_float16(torch_run):
    assert torch_run["saturation"]["float32"] == pytest.approx(16.6355, abs=1e-3)
    assert torch_run["saturation"]["float16"] == pytest.approx(8.32, abs=0.005)


KERAS = """
import os
import numpy as np, keras
import wr220_lr_explosion as w220, wr030_log_of_zero as w030
X, y = w220.make_data()
p0 = w220.init_params()
out = {"backend": keras.backend.backend()}

def model(sigmoid=True):
    m = keras.Sequential([keras.Input((2,)), keras.layers.Dense(64, activation="relu"),
                          keras.layers.Dense(1, activation="sigmoid" if sigmoid else None)])
    m.layers[0].set_weights([p0["W1"], p0["b1"]])
    m.layers[1].set_weights([p0["W2"], p0["b2"]])
    return m

def hand(t, p):
    return -keras.ops.mean(t * keras.ops.log(p) + (1 - t) * keras.ops.log(1 - p))

m = model()
m.compile(optimizer=keras.optimizers.SGD(10.0), loss=keras.losses.BinaryCrossentropy())
out["builtin"] = m.fit(X, y, batch_size=400, epochs=12, verbose=0).history["loss"]
m = model()
m.compile(optimizer=keras.optimizers.SGD(10.0), loss=hand)
print("--- fit output follows")
out["hand"] = [str(v) for v in m.fit(X, y, batch_size=400, epochs=5, verbose=0,
                                     callbacks=[keras.callbacks.TerminateOnNaN()]).history["loss"]]
x, t = w030.make_data()
for name, loss in (("builtin_030", keras.losses.BinaryCrossentropy()), ("hand_030", hand)):
    m = keras.Sequential([keras.Input((1,)), keras.layers.Dense(1, activation="sigmoid", kernel_initializer="zeros")])
    m.compile(optimizer=keras.optimizers.SGD(0.05), loss=loss)
    out[name] = [v if np.isfinite(v) else str(v) for v in
                 m.fit(x[:, None], t[:, None], batch_size=200, epochs=30, verbose=0).history["loss"]]
if out["backend"] == "tensorflow":
    import tensorflow as tf
    tf.debugging.enable_check_numerics()
    try:
        tf.math.log(1 - tf.sigmoid(tf.constant([20.0, -3.0])))
    except tf.errors.InvalidArgumentError as ex:
        out["eager"] = [line.strip() for line in str(ex).splitlines() if "!!!" in line]
    m = model()
    m.compile(optimizer=keras.optimizers.SGD(10.0), loss=hand)
    try:
        m.fit(X, y, batch_size=400, epochs=3, verbose=0)
    except tf.errors.InvalidArgumentError as ex:
        out["graph"] = [line.strip() for line in str(ex).splitlines() if "!!!" in line]
print(json.dumps(out))
"""


@pytest.fixture(scope="module")
def keras_tf():
    return run("tf", KERAS, KERAS_BACKEND="tensorflow")


@pytest.fixture(scope="module")
def keras_jax():
    return run("jax", KERAS, KERAS_BACKEND="jax")


def test_keras_terminate_on_nan_prints_the_declared_line(keras_tf, keras_jax):
    for result, printed in (keras_tf, keras_jax):
        assert result["hand"][1] == "nan" and len(result["hand"]) == 2     # fit stopped at the nan
        line = printed.split("--- fit output follows")[1].strip().splitlines()[0]
        assert line in declared("WR-220")["keras"] and line in declared("WR-030")["keras"]


def test_keras_tensorflow_backend_uses_the_logits_behind_the_sigmoid(keras_tf):
    result, _ = keras_tf
    assert result["backend"] == "tensorflow"
    assert result["builtin"][:11] == pytest.approx(wr220.train(10.0, epochs=11, from_logits=True)["loss"], rel=1e-3)


def test_keras_jax_backend_clips_and_spikes_less(keras_jax):
    result, _ = keras_jax
    assert result["backend"] == "jax"
    assert max(result["builtin"]) == pytest.approx(1.57, abs=0.005) and result["builtin"].index(max(result["builtin"])) == 4


def test_keras_builtin_loss_is_healthy_on_wr030_and_a_hand_written_one_is_not(keras_tf, keras_jax):
    wr030 = load_snippet("wr030_log_of_zero")
    healthy = wr030.train(loss_fn=wr030.bce_from_logits)["loss"]
    for result, _ in (keras_tf, keras_jax):
        assert result["builtin_030"] == pytest.approx(healthy, rel=1e-3)
        assert result["hand_030"][1] == "nan"


def test_tensorflow_check_numerics_messages(keras_tf):
    result, _ = keras_tf
    assert result["eager"][0] in declared("WR-030")["tensorflow"]
    assert result["graph"][0] in declared("WR-220")["tensorflow"]


JAX = """
import numpy as np, jax, jax.numpy as jnp, optax
from jax.experimental import checkify
import wr220_lr_explosion as w220, wr030_log_of_zero as w030
out = {}
X, y = (jnp.asarray(a, jnp.float32) for a in w220.make_data())
p0 = {k: jnp.asarray(v, jnp.float32) for k, v in w220.init_params().items()}
def logits(p):
    return jax.nn.relu(X @ p["W1"] + p["b1"]) @ p["W2"] + p["b2"]
def hand(p):
    q = jax.nn.sigmoid(logits(p))
    return -jnp.mean(y * jnp.log(q) + (1 - y) * jnp.log(1 - q))
def stable(p):
    return jnp.mean(optax.sigmoid_binary_cross_entropy(logits(p), y))
def train(loss, epochs, opt):
    p, s, losses = p0, opt.init(p0), []
    step = jax.jit(jax.value_and_grad(loss))
    for _ in range(epochs):
        l, g = step(p)
        losses.append(float(l))
        u, s = opt.update(g, s, p)
        p = optax.apply_updates(p, u)
    return losses, p
out["stable"] = train(stable, 300, optax.sgd(10.0))[0]
x, t = (jnp.asarray(a, jnp.float32) for a in w030.make_data())
def wr030_run(loss):
    wb, opt = (jnp.float32(0.0), jnp.float32(0.0)), optax.sgd(0.05)
    state, losses = opt.init(wb), []
    for _ in range(30):
        l, g = jax.value_and_grad(loss)(wb)
        losses.append(float(l) if np.isfinite(float(l)) else str(float(l)))
        u, state = opt.update(g, state, wb)
        wb = optax.apply_updates(wb, u)
    return losses
def hand_030(wb):
    q = jax.nn.sigmoid(wb[0] * x + wb[1])
    return -jnp.mean(t * jnp.log(q) + (1 - t) * jnp.log(1 - q))
out["hand_030"] = wr030_run(hand_030)
out["optax_030"] = wr030_run(lambda wb: jnp.mean(optax.sigmoid_binary_cross_entropy(wb[0] * x + wb[1], t)))
out["clipped"] = train(stable, 12, optax.chain(optax.clip_by_global_norm(1.0), optax.sgd(10.0)))[0]
hand_losses, _ = train(hand, 3, optax.sgd(10.0))
out["hand"] = [str(v) for v in hand_losses]
p1 = jax.tree_util.tree_map(lambda a, g: a - 10.0 * g, p0, jax.grad(hand)(p0))
checked = jax.jit(checkify.checkify(jax.value_and_grad(hand), errors=checkify.float_checks))
err, _ = checked(p1)
out["checkify"] = err.get().splitlines()[0]
zs = jnp.arange(0, 60, 1 / 4096, dtype=jnp.float32)
out["saturation"] = float(zs[jax.nn.sigmoid(zs) == 1][0])

# switched on late, after training: the check names a later primitive than the multiply that made the nan
x, t = (jnp.asarray(a, jnp.float32) for a in w030.make_data())
with np.errstate(all="ignore"):
    w1 = jnp.float32(w030.train(epochs=2, dtype=np.float32)["w"][1])
jax.config.update("jax_debug_nans", True)
try:
    q = jax.nn.sigmoid(w1 * x)
    -jnp.mean(t * jnp.log(q) + (1 - t) * jnp.log(1 - q))
except FloatingPointError as ex:
    out["debug_nans_late"] = str(ex)

print(json.dumps(out))
"""


# nan debugging switched on at the top of a fresh process, as the entries tell the reader to
JAX_DEBUG = """
import jax
jax.config.update("jax_debug_nans", True)
import numpy as np, jax.numpy as jnp
import wr220_lr_explosion as w220, wr030_log_of_zero as w030
out = {}
x, t = (jnp.asarray(a, jnp.float32) for a in w030.make_data())
def loss_030(w, b):
    q = jax.nn.sigmoid(w * x + b)
    return -jnp.mean(t * jnp.log(q) + (1 - t) * jnp.log(1 - q))
with np.errstate(all="ignore"):
    w1 = jnp.float32(w030.train(epochs=2, dtype=np.float32)["w"][1])     # the weight after the first step
try:
    loss_030(w1, jnp.float32(0.0))
except FloatingPointError as ex:
    out["debug_nans"] = str(ex)
jax.config.update("jax_debug_infs", True)
try:
    loss_030(w1, jnp.float32(0.0))
except FloatingPointError as ex:
    out["debug_infs"] = str(ex)
jax.config.update("jax_debug_infs", False)

from jax_wr220 import hand_written_step
hand, step, loss0, p1 = hand_written_step(10.0)
try:
    out["jit_step_after_finite"] = str(float(step(p1)[0]))
except FloatingPointError as ex:
    out["jit_step_after_finite"] = str(ex)
print(json.dumps(out))
"""


@pytest.fixture(scope="module")
def jax_run():
    return {**run("jax", JAX)[0], **run("jax", JAX_DEBUG)[0]}


def test_jax_optax_loss_shows_the_spikes_and_clipping_tames_them(jax_run):
    assert jax_run["stable"][:11] == pytest.approx(wr220.train(10.0, epochs=11, from_logits=True)["loss"], rel=1e-3)
    assert all(np.isfinite(jax_run["stable"]))
    capped = wr220.train(10.0, epochs=12, clip_norm=1.0)["loss"]
    assert jax_run["clipped"] == pytest.approx(capped, rel=1e-3)
    assert jax_run["hand"][1] == "nan"


def test_jax_wr030_hand_nan_at_step_one_and_optax_healthy(jax_run):
    wr030 = load_snippet("wr030_log_of_zero")
    assert jax_run["hand_030"][1] == "nan"
    assert jax_run["optax_030"] == pytest.approx(wr030.train(loss_fn=wr030.bce_from_logits)["loss"], rel=1e-3)


def test_jax_checkify_names_the_multiply(jax_run):
    assert jax_run["checkify"] in declared("WR-220")["jax"]


def test_jax_debug_nans_names_the_multiply_when_the_loss_is_called(jax_run):
    assert jax_run["debug_nans"] in declared("WR-030")["jax"]
    assert jax_run["debug_nans_late"] == "invalid value (nan) encountered in add"   # WR-030's caveat
    assert jax_run["debug_infs"] == "invalid value (inf) encountered in log"


def test_jax_debug_nans_does_not_stop_a_jitted_step_compiled_on_finite_weights(jax_run):
    """WR-220 says not to rely on it inside the training loop; this fails when JAX changes that."""
    assert jax_run["jit_step_after_finite"] == "nan"


def test_jax_sigmoid_rounds_to_one_at_16_64_in_float32(jax_run):
    assert jax_run["saturation"] == pytest.approx(16.6355, abs=1e-3)

