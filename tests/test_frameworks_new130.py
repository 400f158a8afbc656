"""Opt-in: what WR-130 and WR-140 say about PyTorch, Keras/TensorFlow and JAX, checked by running them.

Runs only with TRAINWRECK_FRAMEWORK_TESTS=1, through tests/framework_runner.py: each framework in its own
interpreter, on the snippets' data. Keras runs on the JAX backend in the JAX interpreter and on the
TensorFlow backend in the TensorFlow one. A missing interpreter skips its tests with the reason printed.
Every number and message the entries state about a framework is computed here and looked up in the
entry, and every line the entries cite is read from the installed package.
"""
import math

import pytest

from conftest import assert_entry_says
from framework_runner import OPT_IN, keras, declared, run, source_line

pytestmark = OPT_IN
SNIPPETS = "import sys, json\nsys.path.insert(0, 'snippets')\n"     # the runner starts in the project folder


def shown(entry_id, origin):
    return [m.shown for m in declared(entry_id, origin)]


TORCH = SNIPPETS + """
import math, warnings, numpy as np, torch
import wr130_softmax_before_logits_loss as w130, wr140_dead_relus as w140
F = torch.nn.functional
out = {}

# WR-130: the snippet's data, torch's own initialisation, SGD at 0.1, full batch
X, y = w130.make_data()
X, y = torch.tensor(X, dtype=torch.float32), torch.tensor(y)
def run130(kind):
    torch.manual_seed(0)
    model = torch.nn.Linear(20, 10)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    losses, norm = [], None
    for epoch in range(30):
        z = model(X)
        if kind == "softmax":
            loss = torch.nn.CrossEntropyLoss()(torch.softmax(z, dim=1), y)
        elif kind == "logits":
            loss = torch.nn.CrossEntropyLoss()(z, y)
        else:
            loss = torch.nn.NLLLoss()(torch.softmax(z, dim=1), y)
        opt.zero_grad()
        loss.backward()
        norm = norm if norm is not None else model.weight.grad.norm().item()
        opt.step()
        losses.append(loss.item())
    return {"loss": losses, "grad_norm": norm}
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    for kind in ("softmax", "logits", "nll"):
        out[kind] = run130(kind)
    yb = (y % 2).float()
    zb = torch.zeros(len(yb))
    torch.nn.BCEWithLogitsLoss()(torch.sigmoid(zb), yb)
out["warnings_130"] = [str(w.message) for w in caught]
out["floor"] = torch.nn.CrossEntropyLoss()(F.one_hot(y, 10).float(), y).item()
try:
    torch.nn.BCELoss()(torch.tensor([2.0, -1.0]), torch.tensor([1.0, 0.0]))
    out["bce_error"] = None
except RuntimeError as e:
    out["bce_error"] = str(e)

# WR-140: the snippet's network, data and initial weights in float32, SGD at rate 5
X, y = (torch.tensor(a, dtype=torch.float32) for a in w140.make_data())
p0 = w140.init_params()
model = torch.nn.Sequential(torch.nn.Linear(2, 16), torch.nn.ReLU(), torch.nn.Linear(16, 16), torch.nn.ReLU(),
                            torch.nn.Linear(16, 1))
with torch.no_grad():
    for layer, (w, b) in zip(model[0::2], (("W1", "b1"), ("W2", "b2"), ("W3", "b3"))):
        layer.weight.copy_(torch.tensor(p0[w].T))
        layer.bias.copy_(torch.tensor(p0[b]))
fired = {}
def hook(name):
    def record(module, inputs, output):
        fired[name] = fired.get(name, torch.zeros(output.shape[1], dtype=torch.bool)) | (output > 0).any(dim=0)
    return record
model[0].register_forward_hook(hook("relu1"))     # the nn.Linear that feeds each ReLU, as the entry says:
model[2].register_forward_hook(hook("relu2"))     # a model calling F.relu has no ReLU module to hook
opt = torch.optim.SGD(model.parameters(), lr=5.0)
for epoch in range(300):
    fired.clear()
    loss = torch.nn.BCEWithLogitsLoss()(model(X), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
out["relu_loss"] = loss.item()
out["relu_dead"] = [int((~fired["relu1"]).sum()), int((~fired["relu2"]).sum())]
out["dead_rows_zero"] = bool((model[2].weight.grad[~fired["relu2"]] == 0).all()
                             and (model[0].weight.grad[~fired["relu1"]] == 0).all())
out["relu_grad_at_0"] = torch.func.grad(torch.relu)(torch.tensor(0.0)).item()
out["leaky_default"] = torch.nn.LeakyReLU().negative_slope
out["prelu_start"] = torch.nn.PReLU().weight.item()
torch.manual_seed(0)
w = torch.nn.Linear(4000, 500).weight
out["linear_std_times_sqrt_3_fan_in"] = (w.std() * math.sqrt(3 * 4000)).item()
he = torch.empty(500, 4000)
torch.nn.init.kaiming_normal_(he)
out["kaiming_default_std_times_sqrt_fan_in_over_2"] = (he.std() * math.sqrt(4000 / 2)).item()
print(json.dumps(out))
"""

KERAS = SNIPPETS + """
import warnings, numpy as np, keras
import wr130_softmax_before_logits_loss as w130, wr140_dead_relus as w140
out = {"backend": keras.backend.backend()}
X, y = w130.make_data()
X = X.astype("float32")
def run130(activation, from_logits):
    keras.utils.set_random_seed(0)
    model = keras.Sequential([keras.Input((20,)), keras.layers.Dense(10, activation=activation)])
    model.compile(optimizer=keras.optimizers.SGD(0.1),
                  loss=keras.losses.SparseCategoricalCrossentropy(from_logits=from_logits))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        history = model.fit(X, y, batch_size=len(X), epochs=30, verbose=0)
    return {"loss": history.history["loss"], "warnings": [str(w.message) for w in caught]}
out["softmax_from_logits"] = run130("softmax", True)
out["correct"] = run130(None, True)
out["mirror"] = run130(None, False)
out["floor"] = float(np.mean(keras.ops.convert_to_numpy(
    keras.losses.sparse_categorical_crossentropy(y, keras.ops.one_hot(y, 10), from_logits=True))))

# WR-140: defaults, and the probe model on the snippet's network trained at rate 5
out["leaky_default"] = keras.layers.LeakyReLU().negative_slope
prelu = keras.layers.PReLU()
prelu.build((None, 4))
out["prelu_start"] = float(np.max(np.abs(keras.ops.convert_to_numpy(prelu.alpha))))
dense = keras.layers.Dense(4)
out["dense_initializer"] = type(dense.kernel_initializer).__name__
Xr, yr = w140.make_data()
Xr, yr = Xr.astype("float32"), yr.astype("float32")
p0 = w140.init_params()
model = keras.Sequential([keras.Input((2,)), keras.layers.Dense(16, activation="relu"),
                          keras.layers.Dense(16, activation="relu"), keras.layers.Dense(1)])
for layer, (w, b) in zip(model.layers, (("W1", "b1"), ("W2", "b2"), ("W3", "b3"))):
    layer.set_weights([p0[w].astype("float32"), p0[b].astype("float32")])
model.compile(optimizer=keras.optimizers.SGD(5.0), loss=keras.losses.BinaryCrossentropy(from_logits=True))
model.fit(Xr, yr, batch_size=len(Xr), epochs=300, verbose=0)
probe = keras.Model(model.inputs, [layer.output for layer in model.layers[:-1]])
acts = probe.predict(Xr, verbose=0)
out["probe_dead"] = [int((~(a > 0).any(axis=0)).sum()) for a in acts]
W = [layer.get_weights() for layer in model.layers]
z1 = Xr @ W[0][0] + W[0][1]
z2 = np.maximum(z1, 0) @ W[1][0] + W[1][1]
out["numpy_dead"] = [int(np.all(z1 <= 0, axis=0).sum()), int(np.all(z2 <= 0, axis=0).sum())]
print(json.dumps(out))
"""

JAX = SNIPPETS + """
import inspect, numpy as np, jax, jax.numpy as jnp, optax
import wr130_softmax_before_logits_loss as w130, wr140_dead_relus as w140
out = {}
X, y = w130.make_data()
X, y = jnp.asarray(X, jnp.float32), jnp.asarray(y)
def run130(softmax_first):
    params = {"W": jax.random.normal(jax.random.PRNGKey(0), (20, 10)) * 0.01, "b": jnp.zeros(10)}
    def loss(p):
        z = X @ p["W"] + p["b"]
        return optax.softmax_cross_entropy_with_integer_labels(jax.nn.softmax(z) if softmax_first else z, y).mean()
    opt = optax.sgd(0.1)
    state = opt.init(params)
    losses, norm = [], None
    for step in range(30):
        value, grads = jax.value_and_grad(loss)(params)
        norm = norm if norm is not None else float(optax.global_norm(grads))
        updates, state = opt.update(grads, state)
        params = optax.apply_updates(params, updates)
        losses.append(float(value))
    return {"loss": losses, "grad_norm": norm}
out["softmax"] = run130(True)
out["logits"] = run130(False)
out["floor"] = float(optax.softmax_cross_entropy_with_integer_labels(jax.nn.one_hot(y, 10), y).mean())
out["relu_grad"] = [float(jax.grad(jax.nn.relu)(v)) for v in (-1.0, 0.0, 1.0)]
out["leaky_default"] = inspect.signature(jax.nn.leaky_relu).parameters["negative_slope"].default
out["leaky_grad"] = float(jax.grad(jax.nn.leaky_relu)(-1.0))

# WR-140: the snippet's network in float32; rows of the gradient of dead units
Xr, yr = (jnp.asarray(a, jnp.float32) for a in w140.make_data())
params = {k: jnp.asarray(v, jnp.float32) for k, v in w140.init_params().items()}
def forward(p):
    z1 = Xr @ p["W1"] + p["b1"]
    z2 = jax.nn.relu(z1) @ p["W2"] + p["b2"]
    return z1, z2, jax.nn.relu(z2) @ p["W3"] + p["b3"]
def loss(p):
    return optax.sigmoid_binary_cross_entropy(forward(p)[2], yr).mean()
step = jax.jit(lambda p: jax.tree_util.tree_map(lambda w, g: w - 5.0 * g, p, jax.grad(loss)(p)))
for epoch in range(300):
    params = step(params)
z1, z2, _ = forward(params)
dead1, dead2 = jnp.all(z1 <= 0, axis=0), jnp.all(z2 <= 0, axis=0)
grads = jax.grad(loss)(params)
out["relu_loss"] = float(loss(params))
out["relu_dead"] = [int(dead1.sum()), int(dead2.sum())]
out["dead_rows_zero"] = bool(jnp.all(grads["W2"][:, dead2] == 0) and jnp.all(grads["W1"][:, dead1] == 0))
print(json.dumps(out))
"""


@pytest.fixture(scope="module")
def torch_run():
    return run("torch", TORCH)


@pytest.fixture(scope="module")
def keras_jax():
    return keras("jax", KERAS)


@pytest.fixture(scope="module")
def keras_tf():
    return keras("tensorflow", KERAS)


@pytest.fixture(scope="module")
def jax_run():
    return run("jax", JAX)


def arrow(losses):
    return f"{losses[0]:.4f} → {losses[-1]:.4f}"


# --- WR-130 ------------------------------------------------------------------------------------

def test_pytorch_is_silent_and_plateaus_the_mirrors_are_loud(torch_run):
    t = torch_run
    assert t["warnings_130"] == []
    assert all(abs(v / t["softmax"]["loss"][0] - 1) < 0.1 for v in t["softmax"]["loss"])
    assert t["logits"]["loss"][-1] < 0.25 * t["logits"]["loss"][0]
    assert all(v < 0 for v in t["nll"]["loss"]) and t["nll"]["loss"][-1] < t["nll"]["loss"][0]
    assert t["bce_error"] in shown("WR-130", "pytorch")
    assert t["softmax"]["grad_norm"] / t["logits"]["grad_norm"] < 0.095      # not 1/C: the start is not uniform
    assert t["floor"] == pytest.approx(math.log(1 + 9 / math.e), abs=1e-6)
    assert_entry_says("WR-130", [
        f"the loss goes {arrow(t['softmax']['loss'])} in 30 epochs, against {arrow(t['logits']['loss'])} from the "
        "logits", f"prints a negative loss ({t['nll']['loss'][0]:.4f} at epoch 0".replace("-", "−"),
        f"({t['softmax']['grad_norm']:.4f} through the softmax, {t['logits']['grad_norm']:.4f} from the logits)",
        f"{t['softmax']['grad_norm'] / t['logits']['grad_norm']:.4f} with nn.Linear's default initialisation",
        f"`nn.CrossEntropyLoss()(F.one_hot(y, 10).float(), y)` returns {t['floor']:.4f}",
        f"`{t['bce_error']}`",
    ])


def test_keras_on_tensorflow_repairs_the_double_softmax_and_warns_once(keras_tf):
    k = keras_tf
    assert k["backend"] == "tensorflow"
    assert k["softmax_from_logits"]["warnings"] == shown("WR-130", "keras")      # once, word for word
    assert k["softmax_from_logits"]["loss"] == pytest.approx(k["correct"]["loss"], abs=1e-5)
    assert k["correct"]["warnings"] == [] and k["mirror"]["warnings"] == []
    assert_entry_says("WR-130", [f"its first loss is 7.5606 on JAX and {k['mirror']['loss'][0]:.4f} on TensorFlow"])


def test_keras_on_jax_is_silent_and_plateaus(keras_jax):
    k = keras_jax
    assert k["backend"] == "jax"
    assert k["softmax_from_logits"]["warnings"] == [] and k["mirror"]["warnings"] == []
    assert all(abs(v / k["softmax_from_logits"]["loss"][0] - 1) < 0.1 for v in k["softmax_from_logits"]["loss"])
    assert abs(k["mirror"]["loss"][0] - math.log(10)) > 2
    assert_entry_says("WR-130", [
        f"the loss goes {arrow(k['softmax_from_logits']['loss'])} in 30 epochs, against "
        f"{arrow(k['correct']['loss'])} written correctly",
        f"its first loss is {k['mirror']['loss'][0]:.4f} on JAX",
        f"gives {k['floor']:.4f} per example, the floor",
    ])


def test_optax_is_silent_and_plateaus(jax_run):
    j = jax_run
    assert all(abs(v / j["softmax"]["loss"][0] - 1) < 0.1 for v in j["softmax"]["loss"])
    assert j["softmax"]["grad_norm"] / j["logits"]["grad_norm"] == pytest.approx(0.1, abs=0.002)
    assert_entry_says("WR-130", [
        f"goes {arrow(j['softmax']['loss'])} in 30 steps of optax.sgd(0.1), against {arrow(j['logits']['loss'])} "
        "from the logits",
        f"({j['softmax']['grad_norm']:.4f} through the softmax, {j['logits']['grad_norm']:.4f} from the logits)",
        f"the loss of the one-hot labels themselves ({j['floor']:.4f})",
    ])


# --- WR-140 ------------------------------------------------------------------------------------

def test_pytorch_reproduces_the_dead_network_and_its_defaults(torch_run):
    t = torch_run
    assert t["dead_rows_zero"] and t["relu_grad_at_0"] == 0.0
    assert t["leaky_default"] == 0.01 and t["prelu_start"] == 0.25
    assert t["linear_std_times_sqrt_3_fan_in"] == pytest.approx(1.0, abs=0.01)            # std 1/sqrt(3 fan_in)
    assert t["kaiming_default_std_times_sqrt_fan_in_over_2"] == pytest.approx(1.0, abs=0.01)  # He's gain by default
    assert_entry_says("WR-140", [
        f"the network reproduces the snippet: {t['relu_loss']:.4f} at epoch 299, with {t['relu_dead'][0]} and "
        f"{t['relu_dead'][1]} units dead",
        f"about {1 / math.sqrt(6):.2f} of He's",
    ])


@pytest.mark.parametrize("backend", ["keras_jax", "keras_tf"])
def test_keras_probe_counts_the_dead_units_and_its_defaults(backend, request):
    k = request.getfixturevalue(backend)
    assert k["probe_dead"] == k["numpy_dead"] and k["probe_dead"][1] > 0
    assert k["leaky_default"] == 0.3 and k["prelu_start"] == 0.0 and k["dense_initializer"] == "GlorotUniform"


def test_jax_relu_has_zero_slope_at_and_below_zero(jax_run):
    j = jax_run
    assert j["relu_grad"] == [0.0, 0.0, 1.0]
    assert j["leaky_default"] == 0.01 and j["leaky_grad"] == pytest.approx(0.01)
    assert j["dead_rows_zero"] and j["relu_dead"][1] > 0


# --- the cited lines ----------------------------------------------------------------------------

@pytest.mark.parametrize("name, relative, line, holds", [
    ("torch", "torch/nn/modules/loss.py", 1209, "expected to contain the unnormalized logits"),
    ("torch", "torch/nn/modules/loss.py", 144, "given through a forward call is expected to contain"),
    ("torch", "torch/nn/modules/linear.py", 124, "init.kaiming_uniform_(self.weight, a=math.sqrt(5))"),
    ("torch", "torch/nn/modules/activation.py", 913, "negative_slope: float = 1e-2"),
    ("jax", "optax/losses/_classification.py", 321, "logits: Unnormalized log probabilities"),
    ("jax", "keras/src/backend/tensorflow/nn.py", 1262, "def _get_logits(output, from_logits, op_type, fn_name):"),
    ("jax", "keras/src/backend/tensorflow/nn.py", 1288, "warnings.warn("),
    ("jax", "keras/src/backend/tensorflow/nn.py", 1289, 'f\'"`{fn_name}` received `from_logits=True`, but \''),
    ("jax", "keras/src/activations/activations.py", 161, "output._keras_logits = x"),
    ("jax", "keras/src/backend/jax/nn.py", 1010, "output = output / jnp.sum(output, axis, keepdims=True)"),
    ("jax", "keras/src/backend/jax/nn.py", 1011, "output = jnp.clip(output, backend.epsilon(), 1.0 - backend.epsilon())"),
    ("jax", "keras/src/layers/core/dense.py", 89, 'kernel_initializer="glorot_uniform",'),
    ("jax", "keras/src/layers/activations/leaky_relu.py", 38, "def __init__(self, negative_slope=0.3, **kwargs):"),
    ("jax", "keras/src/callbacks/tensorboard.py", 574, "def _log_weights(self, epoch):"),
    ("jax", "jax/_src/nn/functions.py", 106, "relu.defjvps(lambda g, ans, x: lax.select(x > 0, g, lax.full_like(g, 0)))"),
])
def test_the_cited_line_holds_what_the_entry_says(name, relative, line, holds):
    assert holds in source_line(name, relative, line)
