"""Opt-in: what WR-110 says about PyTorch, Keras/TensorFlow and JAX, checked against the real libraries.

Runs only with TRAINWRECK_FRAMEWORK_TESTS=1, in the scratch interpreters (/work/scratch/<name>/bin/python, or
TRAINWRECK_<NAME>_PYTHON). Each check is a small program whose printed JSON the test reads.
"""
import math
import textwrap

import numpy as np
import pytest

from conftest import load_snippet
from framework_runner import OPT_IN, check_cited_line, keras, run

pytestmark = OPT_IN

wr110 = load_snippet("wr110_zero_init")


@pytest.fixture(scope="module")
def points(tmp_path_factory) -> str:
    """The snippet's points and labels, saved for the framework programs."""
    X, y = wr110.make_data()
    path = tmp_path_factory.mktemp("wr110") / "points.npz"
    np.savez(path, X=X, y=y)
    return str(path)


def with_points(points: str, body: str) -> str:
    return textwrap.dedent(f"""
        import json, numpy as np
        data = np.load({points!r})
        X, y = data["X"].astype("float32"), data["y"]
        freq = np.bincount(y) / len(y)
        floor = float(-(freq * np.log(freq)).sum())
    """) + textwrap.dedent(body)


def test_pytorch_zero_weights_get_exactly_zero_gradients_only_the_output_bias_learns(points):
    out = run("torch", with_points(points, """
        import torch
        result = {"floor": floor}
        for act in ("tanh", "relu"):
            net = torch.nn.Sequential(torch.nn.Linear(2, 16), torch.nn.Tanh() if act == "tanh" else torch.nn.ReLU(),
                                      torch.nn.Linear(16, 3))
            for p in net.parameters():
                torch.nn.init.zeros_(p)
            opt = torch.optim.SGD(net.parameters(), lr=0.5)
            x, t = torch.from_numpy(X), torch.from_numpy(y).long()
            losses, grads = [], []
            for epoch in range(300):
                loss = torch.nn.functional.cross_entropy(net(x), t)
                opt.zero_grad(); loss.backward()
                grads.append([p.grad.norm().item() for p in net.parameters()])
                losses.append(loss.item()); opt.step()
            result[act] = {"first": losses[0], "last": losses[-1], "grads": grads}
        print(json.dumps(result))
    """))
    for act in ("tanh", "relu"):
        r = out[act]
        assert r["first"] == pytest.approx(math.log(3), abs=1e-6)
        assert abs(r["last"] - out["floor"]) < 1e-4
        assert all(g[:3] == [0.0, 0.0, 0.0] for g in r["grads"])             # W1, b1, W2: exactly zero throughout
        assert r["grads"][0][3] > 0                                           # the output bias learns


def test_pytorch_one_zero_layer_relu_slope_and_linear_default_scale(points):
    """A zero output layer over nn.Linear's own first layer trains; ReLU's slope at 0 is 0; nn.Linear's default
    weight lies in +-1/sqrt(fan_in) with the variance of that uniform, 1/(3 fan_in), not He's 2/fan_in."""
    out = run("torch", with_points(points, """
        import torch
        torch.manual_seed(0)
        net = torch.nn.Sequential(torch.nn.Linear(2, 16), torch.nn.Tanh(), torch.nn.Linear(16, 3))
        torch.nn.init.zeros_(net[2].weight); torch.nn.init.zeros_(net[2].bias)
        opt = torch.optim.SGD(net.parameters(), lr=0.5)
        x, t = torch.from_numpy(X), torch.from_numpy(y).long()
        losses, first = [], []
        for epoch in range(300):
            loss = torch.nn.functional.cross_entropy(net(x), t)
            opt.zero_grad(); loss.backward()
            first.append(net[0].weight.grad.norm().item()); losses.append(loss.item()); opt.step()
        z = torch.zeros(3, requires_grad=True)
        torch.relu(z).sum().backward()
        wide = torch.nn.Linear(1000, 1000).weight.detach()
        print(json.dumps({"first_loss": losses[0], "last": losses[-1], "floor": floor, "grad0": first[0],
                          "grad1": first[1], "relu_slope": z.grad.tolist(), "bound": wide.abs().max().item(),
                          "var": wide.var().item()}))
    """))
    assert out["first_loss"] == pytest.approx(math.log(3), abs=1e-6)
    assert out["grad0"] == 0.0 and out["grad1"] > 0 and out["last"] < out["floor"] / 4
    assert out["relu_slope"] == [0.0, 0.0, 0.0]
    assert out["bound"] <= 1 / math.sqrt(1000) and out["bound"] > 0.99 / math.sqrt(1000)
    assert out["var"] == pytest.approx(1 / (3 * 1000), rel=0.02) and out["var"] < (2 / 1000) / 5


def test_pytorch_deterministic_mode_fills_a_forgotten_empty_parameter_with_nan_only_if_set_first():
    """The NaN fill happens inside torch.empty: a module built before the switch keeps its memory; warn_only
    still fills; the switch makes an op with only a nondeterministic implementation raise."""
    out = run("torch", """
        import json, torch
        class Forgotten(torch.nn.Module):
            def __init__(self):
                super().__init__()
                self.weight = torch.nn.Parameter(torch.empty(3, 4))    # no reset_parameters()
            def forward(self, x):
                return x @ self.weight.T
        default = torch.utils.deterministic.fill_uninitialized_memory
        before = Forgotten()
        torch.use_deterministic_algorithms(True)
        layer = Forgotten()
        out = layer(torch.ones(2, 4))
        torch.use_deterministic_algorithms(True, warn_only=True)
        warned = Forgotten()
        print(json.dumps({"default": default, "before_nan": bool(torch.isnan(before.weight).any()),
                          "all_nan": bool(torch.isnan(layer.weight).all()),
                          "output_nan": bool(torch.isnan(out).all()),
                          "warn_only_nan": bool(torch.isnan(warned.weight).all())}))
    """)
    assert out == {"default": True, "before_nan": False, "all_nan": True, "output_nan": True,
                   "warn_only_nan": True}


@pytest.mark.parametrize("backend", ["jax", "tensorflow"])
def test_keras_zero_kernels_add_weight_defaults_and_ops_empty(points, backend):
    """Zero kernels on every Dense layer sit at the class frequencies; a zero kernel on the first layer only
    trains with tanh and stays there with ReLU; add_weight with no initializer is glorot_uniform; keras.ops.empty
    is zeros on these two backends."""
    out = keras(backend, with_points(points, """
        import keras
        def fit(activation, zero_head):
            keras.utils.set_random_seed(0)
            model = keras.Sequential([keras.Input((2,)),
                                      keras.layers.Dense(16, activation=activation, kernel_initializer="zeros"),
                                      keras.layers.Dense(3, kernel_initializer="zeros" if zero_head
                                                         else "glorot_uniform")])
            model.compile(optimizer=keras.optimizers.SGD(0.5),
                          loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True))
            history = model.fit(X, y, batch_size=len(y), epochs=300, verbose=0).history["loss"]
            kernels = [np.asarray(w) for w in model.get_weights()]
            return {"first": history[0], "last": history[-1], "zero_kernels": [not kernels[0].any(),
                                                                                not kernels[2].any()]}

        class Custom(keras.layers.Layer):
            def build(self, shape):
                self.w = self.add_weight(shape=(shape[-1], 16))        # no initializer named
        layer = Custom()
        layer.build((None, 2))
        w = np.asarray(layer.w)
        print(json.dumps({"every": fit("tanh", True), "first_tanh": fit("tanh", False),
                          "first_relu": fit("relu", False), "floor": floor,
                          "custom_std": float(w.std()), "custom_bound": float(np.abs(w).max()),
                          "ops_empty_zero": not np.asarray(keras.ops.empty((64, 64))).any()}))
    """))
    every, tanh, relu = out["every"], out["first_tanh"], out["first_relu"]
    assert every["first"] == pytest.approx(math.log(3), abs=1e-5)
    assert abs(every["last"] - out["floor"]) < 1e-4 and every["zero_kernels"] == [True, True]
    assert tanh["last"] < out["floor"] / 2 and tanh["zero_kernels"] == [False, False]       # it trains
    assert abs(relu["last"] - out["floor"]) < 1e-4 and relu["zero_kernels"] == [True, False]   # dead ReLU layer
    assert out["custom_std"] > 0.1 and out["custom_bound"] <= math.sqrt(6 / (2 + 16)) + 1e-6   # glorot_uniform
    assert out["ops_empty_zero"]                        # tf.zeros / jnp.empty; torch and numpy back ends differ


def test_jax_empty_is_zeros_and_zero_weights_get_zero_gradients_and_lax_empty_exists(points):
    out = run("jax", with_points(points, """
        import jax, jax.numpy as jnp
        params = {"W1": jnp.empty((2, 16)), "b1": jnp.empty(16), "W2": jnp.empty((16, 3)), "b2": jnp.empty(3)}
        def loss(p, x, t):
            h = jnp.tanh(x @ p["W1"] + p["b1"])
            return -jnp.mean(jax.nn.log_softmax(h @ p["W2"] + p["b2"])[jnp.arange(len(t)), t])
        value, grads = jax.value_and_grad(loss)(params, jnp.asarray(X), jnp.asarray(y))
        norms = jax.tree_util.tree_map(lambda g: float(jnp.linalg.norm(g)), grads)
        glorot = jax.nn.initializers.glorot_uniform()(jax.random.key(0), (2, 16))
        print(json.dumps({"empty_is_zero": not any(bool(v.any()) for v in params.values()), "loss": float(value),
                          "norms": norms, "distinct": int(jnp.unique(glorot, axis=1).shape[1]),
                          "lax_empty_zero_on_cpu": not bool(jax.lax.empty((64, 64), jnp.float32).any()),
                          "relu_slope": float(jax.grad(jax.nn.relu)(0.0))}))
    """))
    assert out["empty_is_zero"]
    assert out["loss"] == pytest.approx(math.log(3), abs=1e-6)
    assert out["norms"]["W1"] == 0.0 and out["norms"]["W2"] == 0.0 and out["norms"]["b1"] == 0.0
    assert out["norms"]["b2"] > 0
    assert out["distinct"] == 16
    assert out["lax_empty_zero_on_cpu"] and out["relu_slope"] == 0.0


# --- the cited lines of installed packages say what the entry quotes them for ---------------------------

TORCH = "https://github.com/pytorch/pytorch/blob/v2.13.0/torch"
KERAS = "https://github.com/keras-team/keras/blob/v3.15.1/keras/src"
JAX = "https://github.com/jax-ml/jax/blob/jax-v0.10.2/jax/_src"
CITED = [
    # (entry, interpreter, file in site-packages, line, text the line holds, URL the entry cites)
    ("WR-110", "torch", "torch/_torch_docs.py", 12323, "Returns a tensor filled with uninitialized data.",
     f"{TORCH}/_torch_docs.py#L12323"),
    ("WR-110", "torch", "torch/_torch_docs.py", 12328, ":attr:`torch.utils.deterministic.fill_uninitialized_memory`",
     f"{TORCH}/_torch_docs.py#L12326-L12332"),
    ("WR-110", "torch", "torch/_torch_docs.py", 12331, "Floating point and complex tensors are filled with NaN",
     f"{TORCH}/_torch_docs.py#L12326-L12332"),
    ("WR-110", "torch", "torch/__init__.py", 1397, "and if only nondeterministic algorithms are available they",
     f"{TORCH}/__init__.py#L1393-L1398"),
    ("WR-110", "torch", "torch/__init__.py", 1398, ":class:`RuntimeError` when called.",
     f"{TORCH}/__init__.py#L1393-L1398"),
    ("WR-110", "torch", "torch/nn/modules/linear.py", 108, "self.weight = Parameter(",
     f"{TORCH}/nn/modules/linear.py#L108-L115"),
    ("WR-110", "torch", "torch/nn/modules/linear.py", 115, "self.reset_parameters()",
     f"{TORCH}/nn/modules/linear.py#L108-L115"),
    ("WR-110", "torch", "torch/nn/modules/linear.py", 121, "# Setting a=sqrt(5) in kaiming_uniform is the same as",
     f"{TORCH}/nn/modules/linear.py#L117-L128"),
    ("WR-110", "torch", "torch/nn/modules/linear.py", 122, "# uniform(-1/sqrt(in_features), 1/sqrt(in_features))",
     f"{TORCH}/nn/modules/linear.py#L117-L128"),
    ("WR-110", "torch", "torch/nn/modules/linear.py", 124, "init.kaiming_uniform_(self.weight, a=math.sqrt(5))",
     f"{TORCH}/nn/modules/linear.py#L117-L128"),
    ("WR-110", "jax", "keras/src/layers/layer.py", 615, "if initializer is None:",
     f"{KERAS}/layers/layer.py#L615-L619"),
    ("WR-110", "jax", "keras/src/layers/layer.py", 616, 'if "float" in dtype:', f"{KERAS}/layers/layer.py#L615-L619"),
    ("WR-110", "jax", "keras/src/layers/layer.py", 619, 'initializer = "zeros"', f"{KERAS}/layers/layer.py#L615-L619"),
    ("WR-110", "jax", "keras/src/ops/numpy.py", 3313, "filled with uninitialized data.",
     f"{KERAS}/ops/numpy.py#L3312-L3313"),
    ("WR-110", "jax", "keras/src/backend/torch/numpy.py", 792, "return torch.empty(size=shape,",
     f"{KERAS}/backend/torch/numpy.py#L790-L792"),
    ("WR-110", "jax", "keras/src/backend/numpy/numpy.py", 649, "return np.empty(shape, dtype=dtype)",
     f"{KERAS}/backend/numpy/numpy.py#L647-L649"),
    ("WR-110", "jax", "keras/src/backend/tensorflow/numpy.py", 1545, "return tf.zeros(shape, dtype=dtype)",
     f"{KERAS}/backend/tensorflow/numpy.py#L1543-L1545"),
    ("WR-110", "jax", "keras/src/layers/core/dense.py", 89, 'kernel_initializer="glorot_uniform",',
     f"{KERAS}/layers/core/dense.py#L89-L90"),
    ("WR-110", "jax", "jax/_src/numpy/array_creation.py", 157, "For historical reasons",
     f"{JAX}/numpy/array_creation.py#L155-L159"),
    ("WR-110", "jax", "jax/_src/numpy/array_creation.py", 158, "it returns a buffer initialized with zeros.",
     f"{JAX}/numpy/array_creation.py#L155-L159"),
    ("WR-110", "jax", "jax/_src/numpy/array_creation.py", 159,
     "To create a buffer of uninitialized values, please use :func:`jax.lax.empty`.",
     f"{JAX}/numpy/array_creation.py#L155-L159"),
    ("WR-110", "jax", "jax/_src/lax/lax.py", 9615, "Create an empty array of possibly uninitialized values.",
     f"{JAX}/lax/lax.py#L9614-L9617"),
    ("WR-110", "jax", "jax/_src/lax/lax.py", 9617, "This initialization is backend dependent.",
     f"{JAX}/lax/lax.py#L9614-L9617"),
    ("WR-110", "jax", "jax/_src/nn/initializers.py", 375, "def glorot_uniform(", f"{JAX}/nn/initializers.py#L375"),
]


@pytest.mark.parametrize("entry_id, name, relative, line, text, url", CITED, ids=[f"{c[2]}:{c[3]}" for c in CITED])
def test_cited_line_of_the_installed_package(entry_id, name, relative, line, text, url):
    check_cited_line(entry_id, name, relative, line, text, url)
