"""Opt-in: the framework behaviour and messages that WR-020, WR-120 and WR-310 quote, checked
by running the real frameworks. Set TRAINWRECK_FRAMEWORK_TESTS=1 to run them; the
interpreters default to the scratch environments and can be moved with
TRAINWRECK_TORCH_PYTHON, TRAINWRECK_TF_PYTHON and TRAINWRECK_JAX_PYTHON."""
import json
import os
import subprocess
import textwrap
from pathlib import Path

import pytest

from conftest import ROOT, assert_entry_says, entry_prose
from trainwreck.catalog import load

ENABLED = os.environ.get("TRAINWRECK_FRAMEWORK_TESTS") == "1"
PYTHONS = {
    "torch": os.environ.get("TRAINWRECK_TORCH_PYTHON", "/work/scratch/torch/bin/python"),
    "tf": os.environ.get("TRAINWRECK_TF_PYTHON", "/work/scratch/tf/bin/python"),
    "jax": os.environ.get("TRAINWRECK_JAX_PYTHON", "/work/scratch/jax/bin/python"),
}
pytestmark = pytest.mark.skipif(not ENABLED, reason="framework tests are opt-in: set TRAINWRECK_FRAMEWORK_TESTS=1 "
                                                    "(they run PyTorch, TensorFlow and JAX in their own interpreters)")
CATALOG = load(ROOT / "catalog")


def run(framework: str, script: str, **env: str) -> dict:
    """Run a script in the framework's interpreter; it prints one JSON object last."""
    python = PYTHONS[framework]
    if not Path(python).exists():
        pytest.skip(f"no {framework} interpreter at {python} (set TRAINWRECK_{framework.upper()}_PYTHON)")
    result = subprocess.run([python, "-c", textwrap.dedent(script)], capture_output=True, text=True, timeout=600,
                            env={**os.environ, "TF_CPP_MIN_LOG_LEVEL": "3", "OMP_NUM_THREADS": "1", **env})
    assert result.returncode == 0, result.stderr[-3000:]
    return json.loads(result.stdout.strip().splitlines()[-1])


def declared(entry_id: str, text: str) -> None:
    """The message a framework printed is one the entry declares (template or example)."""
    messages = CATALOG.entries[entry_id].messages
    assert any(m.matches(text) for m in messages), (entry_id, text)


# --- PyTorch ---------------------------------------------------------------------------------

TORCH = """
import json, math, warnings
import numpy as np, torch, torch.nn.functional as F
out = {}
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    z = torch.tensor([1000.0, 999.0, 998.0], requires_grad=True)
    e = torch.exp(z); p = e / e.sum()
    out["naive_softmax_nan"] = bool(torch.isnan(p).all())
    out["exp89"] = torch.exp(torch.tensor(89.0)).item()
out["warnings_at_overflow"] = [str(w.message) for w in caught]
with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    with torch.autograd.set_detect_anomaly(True):
        z = torch.tensor([1000.0, 999.0, 998.0], requires_grad=True)
        e = torch.exp(z); loss = -torch.log((e / e.sum())[0])
        try:
            loss.backward()
        except RuntimeError as exc:
            out["anomaly_softmax"] = str(exc).splitlines()[0]
# ... and an overflow inside the model: a hand-written attention's exp makes the logits nan in the forward pass, and
# the loss's own backward node is the first to meet it
for name, loss_of in [("bce", lambda z: F.binary_cross_entropy_with_logits(z, torch.ones_like(z))),
                      ("ce", lambda z: F.cross_entropy(torch.cat([z, torch.zeros_like(z)], 1), torch.tensor([0])))]:
    scores = torch.tensor([[[50.0, 10.0, 0.0]]], requires_grad=True)
    values = torch.tensor([[[1.0, 2.0, 3.0]]], requires_grad=True)
    w = torch.exp(scores / 0.5)
    logit = torch.sum(w / w.sum(dim=-1, keepdim=True) * values, dim=2)
    out[f"attention_{name}_logit_nan"] = bool(torch.isnan(logit).all())
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with torch.autograd.set_detect_anomaly(True):
            try:
                loss_of(logit).backward()
            except RuntimeError as exc:
                out[f"anomaly_attention_{name}"] = str(exc).splitlines()[0]
zz, one = torch.tensor([-1000.0]), torch.ones(1)
out["bce_clamped"] = F.binary_cross_entropy(torch.sigmoid(zz), one).item()
out["bce_logits"] = F.binary_cross_entropy_with_logits(zz, one).item()
out["sigmoid_ends"] = torch.sigmoid(torch.tensor([-1000.0, 1000.0])).tolist()
big = torch.tensor([1000.0, 999.0, 998.0])
out["stable"] = [torch.softmax(big, 0).tolist(), torch.log_softmax(big, 0).tolist(), torch.logsumexp(big, 0).item(),
                 F.cross_entropy(big[None], torch.tensor([2])).item()]

# WR-120: three initialisations of a 10-layer, 128-wide ReLU stack
def stack(init):
    sizes = [2] + [128] * 10 + [1]
    layers = []
    for i, (a, b) in enumerate(zip(sizes[:-1], sizes[1:])):
        lin = torch.nn.Linear(a, b, dtype=torch.float64)
        if init:
            init(lin.weight); torch.nn.init.zeros_(lin.bias)
        layers += [lin] + ([torch.nn.ReLU()] if i < 10 else [])
    return torch.nn.Sequential(*layers)
torch.manual_seed(0)
X = torch.randn(128, 2, dtype=torch.float64) + torch.where(torch.rand(128, 1) > 0.5, 1.0, -1.0).double()
y = (X.sum(1, keepdim=True) > 0).double()
for name, init in [("default", None), ("std1", torch.nn.init.normal_),
                   ("he", lambda w: torch.nn.init.kaiming_normal_(w, nonlinearity="relu"))]:
    torch.manual_seed(1)
    model, rms = stack(init), []
    for m in model:
        if isinstance(m, torch.nn.Linear):
            m.register_forward_hook(lambda m, i, o: rms.append(o.pow(2).mean().sqrt().item()))
    with torch.no_grad():
        logits = model(X)
    out[name] = {"rms": rms, "bce_logits": F.binary_cross_entropy_with_logits(logits, y).item(),
                 "bce": F.binary_cross_entropy(torch.sigmoid(logits), y).item()}
out["gains"] = {k: torch.nn.init.calculate_gain(k) for k in ("relu", "tanh", "sigmoid")}
out["gain_leaky0"] = torch.nn.init.calculate_gain("leaky_relu", 0)
out["normal_default_std"] = torch.nn.init.normal_(torch.empty(200000)).std().item()

# WR-310: a nan in one batch
torch.manual_seed(0)
Xb = torch.randn(64, 2); yb = (Xb[:, 0] > 0).float()[:, None]; Xb[40, 1] = float("nan")
lin = torch.nn.Linear(2, 1)
loss = F.binary_cross_entropy_with_logits(lin(Xb[32:48]), yb[32:48])
with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    with torch.autograd.set_detect_anomaly(True):
        try:
            loss.backward()
        except RuntimeError as exc:
            out["anomaly_batch"] = str(exc).splitlines()[0]
lin.zero_grad(); F.binary_cross_entropy_with_logits(lin(Xb[32:48]), yb[32:48]).backward()
out["clip_norm"] = torch.nn.utils.clip_grad_norm_(lin.parameters(), 1.0).item()
try:
    torch.nn.utils.clip_grad_norm_(lin.parameters(), 1.0, error_if_nonfinite=True)
except RuntimeError as exc:
    out["clip_error"] = str(exc)
print(json.dumps(out))
"""


@pytest.fixture(scope="module")
def torch_run():
    return run("torch", TORCH)


def test_pytorch_overflow_is_silent_and_anomaly_mode_names_the_node(torch_run):
    assert torch_run["warnings_at_overflow"] == [] and torch_run["naive_softmax_nan"]
    assert torch_run["exp89"] == float("inf")                  # float32 by default
    assert torch_run["anomaly_softmax"] == "Function 'LogBackward0' returned nan values in its 0th output."
    declared("WR-020", torch_run["anomaly_softmax"])


def test_pytorch_overflow_inside_the_model_stops_at_the_losss_node(torch_run):
    """WR-020's PyTorch section: an exp that overflows in a hand-written attention makes the logits nan in the forward
    pass, so anomaly mode names the loss's node, BCEWithLogits's as WR-020 declares it (a further instance beside
    WR-310's and WR-070's own example) and LogSoftmax's under cross_entropy."""
    assert torch_run["attention_bce_logit_nan"] and torch_run["attention_ce_logit_nan"]
    assert torch_run["anomaly_attention_bce"] == \
        "Function 'BinaryCrossEntropyWithLogitsBackward0' returned nan values in its 0th output."
    (message,) = [m for m in CATALOG.entries["WR-020"].messages if m.origin == "pytorch" and "returned nan" in m.text]
    assert list(message.also) == [torch_run["anomaly_attention_bce"]]
    assert torch_run["anomaly_attention_ce"] == "Function 'LogSoftmaxBackward0' returned nan values in its 0th output."
    assert "`LogSoftmaxBackward0` under F.cross_entropy" in entry_prose("WR-020")


SOFTMAX = [0.66524096, 0.24472847, 0.09003057]          # of [1000, 999, 998]
LOG_SOFTMAX = [-0.40760596, -1.40760596, -2.40760596]
LOGSUMEXP = 1000.40760596


def assert_stable(values):
    soft, logsoft, lse = values[:3]
    assert soft == pytest.approx(SOFTMAX, rel=1e-5) and logsoft == pytest.approx(LOG_SOFTMAX, rel=1e-5)
    assert lse == pytest.approx(LOGSUMEXP, rel=1e-6)


def test_pytorch_bce_clamps_at_100_and_the_logits_loss_is_right(torch_run):
    assert torch_run["bce_clamped"] == 100.0 and torch_run["bce_logits"] == 1000.0
    assert torch_run["sigmoid_ends"] == [0.0, 1.0]
    assert_stable(torch_run["stable"])
    assert torch_run["stable"][3] == pytest.approx(-LOG_SOFTMAX[2], rel=1e-5)


def test_pytorch_initialisations(torch_run):
    import math

    def growth(rms):
        return math.exp(sum(math.log(b / a) for a, b in zip(rms[1:9], rms[2:10])) / 8)

    std1, he, default = torch_run["std1"], torch_run["he"], torch_run["default"]
    assert 7 < growth(std1["rms"]) < 9 and 0.9 < growth(he["rms"]) < 1.1
    assert 1e7 < std1["bce_logits"] < 1e10                      # enormous but finite
    assert abs(std1["bce"] / 100 * 128 - round(std1["bce"] / 100 * 128)) < 1e-6   # 100 per wrong example
    rms = default["rms"]
    assert 0.3 < rms[1] / rms[0] < 0.5 and rms[3] < 0.1 * rms[0]   # x0.41-ish per layer at first ...
    assert 0.03 < min(rms[4:10]) and max(rms[4:10]) < 0.08         # ... then the biases hold it
    assert abs(default["bce"] - 0.69) < 0.02
    assert f"{rms[0]:.2f} to {rms[3]:.3f}" == "0.89 to 0.085"
    assert torch_run["gains"] == {"relu": math.sqrt(2), "tanh": 5 / 3, "sigmoid": 1}
    assert torch_run["gain_leaky0"] == math.sqrt(2)
    assert abs(torch_run["normal_default_std"] - 1) < 0.01
    assert_entry_says("WR-120", [f"({std1['bce_logits']:.1e} in a run of the", f"{std1['bce']:.1f} for",
                                 "the RMS falls from 0.89 to 0.085 over the first four layers",
                                 f"reads a reassuring {default['bce']:.2f}"])


def test_pytorch_nan_batch_messages(torch_run):
    assert torch_run["anomaly_batch"] == ("Function 'BinaryCrossEntropyWithLogitsBackward0' returned nan values "
                                          "in its 0th output.")
    declared("WR-310", torch_run["anomaly_batch"])
    assert torch_run["clip_norm"] != torch_run["clip_norm"]          # nan
    assert torch_run["clip_error"].startswith("The total norm of order 2.0 for gradients from `parameters` is "
                                              "non-finite, so it cannot be clipped.")


# --- TensorFlow and Keras on TensorFlow ------------------------------------------------------------

TF = """
import json, numpy as np, tensorflow as tf, keras
out = {"backend": keras.backend.backend()}
z = np.array([[-1000.0]], dtype="float32"); y1 = np.array([[1.0]], dtype="float32")
out["bce_prob"] = float(keras.losses.BinaryCrossentropy()(y1, keras.ops.sigmoid(z)))
out["exp89"] = float(tf.exp(tf.constant(89.0)))
try:
    tf.debugging.check_numerics(tf.constant([1.0, np.nan]), "features")
except tf.errors.InvalidArgumentError as exc:
    out["check_numerics"] = exc.message
rng = np.random.default_rng(0)
X = rng.normal(size=(64, 2)).astype("float32"); y = (X[:, 0] > 0).astype("float32"); X[40, 1] = np.nan
ds = tf.data.Dataset.from_tensor_slices((X, y)).batch(16).map(lambda x, t: (tf.debugging.check_numerics(x, "features"), t))
try:
    for _ in ds:
        pass
except tf.errors.InvalidArgumentError as exc:
    out["pipeline"] = exc.message
out["filtered_rows"] = sum(1 for _ in tf.data.Dataset.from_tensor_slices((X, y)).filter(
    lambda x, t: tf.reduce_all(tf.math.is_finite(x))))
tf.debugging.enable_check_numerics()
try:
    tf.exp(tf.constant([1000.0, 1.0]))
except tf.errors.InvalidArgumentError as exc:
    out["enable_check_numerics"] = [l for l in exc.message.splitlines() if "Detected" in l][0]
print(json.dumps(out))
"""

KERAS = """
import json, sys, numpy as np, keras
out = {"backend": keras.backend.backend(), "epsilon": keras.config.epsilon()}
z = np.array([[-1000.0]], dtype="float32"); y1 = np.array([[1.0]], dtype="float32")
out["bce_prob"] = float(keras.losses.BinaryCrossentropy()(y1, keras.ops.sigmoid(z)))
out["bce_logits"] = float(keras.losses.BinaryCrossentropy(from_logits=True)(y1, z))
big = np.array([1000.0, 999.0, 998.0], dtype="float32")
out["stable"] = [np.asarray(keras.ops.softmax(big)).tolist(), np.asarray(keras.ops.log_softmax(big)).tolist(),
                 float(keras.ops.logsumexp(big))]
rng = np.random.default_rng(0)
X = rng.normal(size=(64, 2)).astype("float32"); y = (X[:, 0] > 0).astype("float32"); X[40, 1] = np.nan
keras.utils.set_random_seed(0)
model = keras.Sequential([keras.Input((2,)), keras.layers.Dense(1)])
model.compile(optimizer=keras.optimizers.SGD(0.5), loss=keras.losses.BinaryCrossentropy(from_logits=True))
import io, contextlib
buffer = io.StringIO()
with contextlib.redirect_stdout(buffer):
    model.fit(X, y, batch_size=16, epochs=2, shuffle=False, verbose=0, callbacks=[keras.callbacks.TerminateOnNaN()])
out["terminate"] = [l for l in buffer.getvalue().splitlines() if "Invalid loss" in l]
norm = keras.layers.Normalization(); norm.adapt(X)
out["adapt_mean"] = np.asarray(norm.mean).ravel().tolist()
# WR-120: initialisers in a 10-layer ReLU stack
Xi = np.random.default_rng(1).normal(size=(128, 2)).astype("float32")
for name, init in [("glorot_uniform", "glorot_uniform"), ("he_normal", "he_normal"),
                   ("std1", keras.initializers.RandomNormal(stddev=1.0))]:
    keras.utils.set_random_seed(1)
    m = keras.Sequential([keras.Input((2,))] + [keras.layers.Dense(128, activation="relu", kernel_initializer=init)
                                                for _ in range(10)] + [keras.layers.Dense(1, kernel_initializer=init)])
    h, rms = Xi, []
    for layer in m.layers:
        w, b = layer.get_weights(); zz = h @ w + b; rms.append(float(np.sqrt(np.mean(zz ** 2)))); h = np.maximum(zz, 0)
    out[name] = rms
out["random_normal_default"] = keras.initializers.RandomNormal().stddev
w = np.asarray(keras.initializers.HeNormal(seed=0)((4096, 256)))
out["he_std"], out["he_max"] = float(w.std()), float(np.abs(w).max())
print(json.dumps(out))
"""


@pytest.fixture(scope="module")
def tf_run():
    return run("tf", TF)


def test_tensorflow_check_numerics_messages(tf_run):
    assert tf_run["exp89"] == float("inf")
    assert tf_run["enable_check_numerics"] == (
        '!!! Detected Infinity or NaN in output 0 of eagerly-executing op "Exp" (# of outputs: 1) !!!')
    declared("WR-020", tf_run["enable_check_numerics"])
    assert " features : Tensor had NaN values [Op:CheckNumerics]" in tf_run["check_numerics"]
    declared("WR-310", "features : Tensor had NaN values")
    assert "features : Tensor had NaN values" in tf_run["pipeline"]
    assert tf_run["filtered_rows"] == 63


@pytest.mark.parametrize("framework,backend", [("tf", "tensorflow"), ("jax", "jax")])
def test_keras_on_each_backend(framework, backend):
    import math

    k = run(framework, KERAS, KERAS_BACKEND=backend)
    assert k["backend"] == backend and k["epsilon"] == 1e-7
    assert k["bce_logits"] == 1000.0
    assert_stable(k["stable"])
    # probabilities are clipped to [1e-7, 1 - 1e-7] on the JAX backend; TensorFlow finds the logits
    expected = 1000.0 if backend == "tensorflow" else -math.log(1e-7)
    assert k["bce_prob"] == pytest.approx(expected, rel=1e-5)
    assert k["terminate"] == ["Batch 2: Invalid loss, terminating training"]
    declared("WR-310", k["terminate"][0])
    assert math.isnan(k["adapt_mean"][1]) and not math.isnan(k["adapt_mean"][0])

    def growth(rms):
        return math.exp(sum(math.log(b / a) for a, b in zip(rms[1:9], rms[2:10])) / 8)

    assert 0.65 < growth(k["glorot_uniform"]) < 0.77              # half of He's variance: x0.71
    assert 0.9 < growth(k["he_normal"]) < 1.1
    assert 7 < growth(k["std1"]) < 9.5
    assert k["random_normal_default"] == 0.05
    target = math.sqrt(2 / 4096)
    assert k["he_std"] == pytest.approx(target, rel=0.01)       # the std after truncation is the target
    assert k["he_max"] <= 2 * target / 0.87962566103423978 * (1 + 1e-5)


# --- JAX ---------------------------------------------------------------------------------------

JAX = """
import json, numpy as np, jax, jax.numpy as jnp, optax
out = {"dtype": str(jnp.array(1.0).dtype), "exp89": float(jnp.exp(89.0))}
out["log_sigmoid"] = float(jax.nn.log_sigmoid(-1000.0))
big = jnp.array([1000.0, 999.0, 998.0])
out["stable"] = [jax.nn.softmax(big).tolist(), jax.nn.log_softmax(big).tolist(),
                 float(jax.scipy.special.logsumexp(big))]
key = jax.random.PRNGKey(0)
for name, target in [("he_normal", np.sqrt(2 / 4096)), ("glorot_normal", np.sqrt(2 / (4096 + 256))),
                     ("lecun_normal", np.sqrt(1 / 4096))]:
    w = getattr(jax.nn.initializers, name)()(key, (4096, 256))
    out[name] = [float(w.std()) / target, float(jnp.abs(w).max()) / target * 0.87962566103423978]
out["normal_std"] = float(jax.random.normal(key, (4096, 256)).std())
# optax.apply_if_finite skips a nan update
rng = np.random.default_rng(0)
X = rng.normal(size=(64, 2)).astype("float32"); y = (X[:, 0] > 0).astype("float32"); X[40, 1] = np.nan
def loss_fn(p, xb, yb):
    return optax.sigmoid_binary_cross_entropy(xb @ p["w"] + p["b"], yb).mean()
opt = optax.apply_if_finite(optax.sgd(0.5), max_consecutive_errors=5)
params = {"w": jnp.zeros(2), "b": jnp.zeros(())}; state = opt.init(params); history = []
for i in range(4):
    g = jax.grad(loss_fn)(params, X[16 * i:16 * i + 16], y[16 * i:16 * i + 16])
    upd, state = opt.update(g, state, params); params = optax.apply_updates(params, upd)
    history.append(np.asarray(params["w"]).tolist())
out["history"], out["notfinite"] = history, int(state.total_notfinite)
jax.config.update("jax_debug_nans", True)
def naive_softmax(z):
    e = jnp.exp(z); return e / e.sum()
for name, fn in [("softmax", lambda: naive_softmax(jnp.array([1000.0, 999.0, 998.0]))),
                 ("batch", lambda: loss_fn({"w": jnp.ones(2), "b": jnp.zeros(())}, X[32:48], y[32:48]))]:
    try:
        fn()
    except FloatingPointError as exc:
        out[name] = str(exc).splitlines()[0]
jax.config.update("jax_debug_nans", False)
jax.config.update("jax_debug_infs", True)
try:
    jnp.exp(jnp.array([1000.0]))
except FloatingPointError as exc:
    out["infs"] = str(exc).splitlines()[0]
jax.config.update("jax_debug_infs", False)
jax.config.update("jax_enable_x64", True)
out["x64"] = [float(v) for v in jnp.exp(jnp.array([709.7, 709.8]))]
print(json.dumps(out))
"""


@pytest.fixture(scope="module")
def jax_run():
    return run("jax", JAX)


def test_jax_float32_overflow_and_debug_messages(jax_run):
    assert jax_run["dtype"] == "float32" and jax_run["exp89"] == float("inf")
    assert jax_run["softmax"] == "invalid value (nan) encountered in div"
    assert jax_run["infs"] == "invalid value (inf) encountered in exp"
    declared("WR-020", jax_run["softmax"])
    declared("WR-020", jax_run["infs"])
    assert jax_run["x64"][0] < float("inf") and jax_run["x64"][1] == float("inf")
    assert jax_run["log_sigmoid"] == -1000.0
    assert_stable(jax_run["stable"])


def test_jax_nan_batch_and_apply_if_finite(jax_run):
    assert jax_run["batch"] == "invalid value (nan) encountered in convert_element_type"
    declared("WR-310", jax_run["batch"])
    history = jax_run["history"]
    assert history[2] == history[1] and history[3] != history[2]    # the nan step was skipped
    assert jax_run["notfinite"] == 1


def test_jax_initialisers_have_the_target_std_after_truncation(jax_run):
    for name in ("he_normal", "glorot_normal", "lecun_normal"):
        ratio, top = jax_run[name]
        assert ratio == pytest.approx(1.0, abs=0.01) and top <= 2.0 + 1e-5, name
    assert jax_run["normal_std"] == pytest.approx(1.0, abs=0.01)
