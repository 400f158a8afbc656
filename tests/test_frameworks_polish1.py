"""Opt-in: the framework facts the correction pass on WR-020, 030, 040, 120, 220 and 310 added, checked
against the real frameworks and their installed binaries.

Runs only with TRAINWRECK_FRAMEWORK_TESTS=1, in the scratch interpreters (tests/framework_runner.py).
"""
import math
from pathlib import Path

import pytest

from conftest import assert_entry_says
from framework_runner import OPT_IN, declared, keras, run, source_line

pytestmark = OPT_IN


def site_packages(name: str) -> Path:
    """The site-packages folder of a framework's interpreter."""
    return Path(run(name, 'import json, sysconfig; print(json.dumps(sysconfig.get_paths()["purelib"]))'))


# --- JAX: what nan and inf debugging print (WR-020, WR-030) ---------------------------------------------

def test_jax_prints_the_deoptimized_notice_for_an_eager_call_and_says_nan_for_an_inf():
    out = run("jax", """
        import contextlib, io, json, jax, jax.numpy as jnp
        jax.config.update("jax_debug_infs", True)
        printed = io.StringIO()
        with contextlib.redirect_stdout(printed):
            try:
                jnp.exp(jnp.float32(89.0))             # eager: no jit of our own
                error = None
            except FloatingPointError as exc:
                error = str(exc)
        print(json.dumps({"printed": printed.getvalue().splitlines(), "error": error}))
    """)
    notice = next(m.text for m in declared("WR-020", "jax") if m.text.startswith("Invalid nan value"))
    assert out["printed"] == [notice]                                  # "nan", though it was an inf
    assert out["error"] == "invalid value (inf) encountered in exp"


def test_jax_debug_nans_inside_a_compiled_step_depends_on_what_the_weights_are():
    """WR-030's Confirm it: evaluated eagerly, the loss names the multiply; WR-220's jitted value_and_grad
    step, already run on finite weights, returns nan silently for JAX arrays and raises for NumPy arrays."""
    out = run("jax", """
        import sys; sys.path.insert(0, "snippets")
        import jax
        jax.config.update("jax_debug_nans", True)
        import json, numpy as np, jax.numpy as jnp
        import wr030_log_of_zero as w030
        out = {}
        x, t = (jnp.asarray(a, jnp.float32) for a in w030.make_data())
        with np.errstate(all="ignore"):
            w1 = jnp.float32(w030.train(epochs=2, dtype=np.float32)["w"][1])
        try:
            q = jax.nn.sigmoid(w1 * x)
            -jnp.mean(t * jnp.log(q) + (1 - t) * jnp.log(1 - q))
        except FloatingPointError as exc:
            out["eager"] = str(exc)
        sys.path.insert(0, "tests")
        from jax_wr220 import hand_written_step
        _, step, _, p1 = hand_written_step(10.0)
        for name, weights in (("jax", p1), ("numpy", {k: np.asarray(v) for k, v in p1.items()})):
            try:
                out[name] = str(float(step(weights)[0]))
            except FloatingPointError as exc:
                out[name] = "raised: " + str(exc)
        print(json.dumps(out))
    """)
    assert out["eager"] == "invalid value (nan) encountered in mul"
    assert out["jax"] == "nan"
    assert out["numpy"].startswith("raised: invalid value (nan) encountered in ")
    assert_entry_says("WR-030", ["returned nan without a word when it was called with the next weights as JAX arrays "
                                 "(given NumPy arrays, the same call raised)"])


# --- PyTorch ----------------------------------------------------------------------------------------------

def test_pytorch_anomaly_mode_names_the_loss_node_when_the_nan_is_in_the_input():
    """WR-310: the nan is in the batch, so the logits are nan in the forward pass; anomaly mode, which checks
    what backward functions return, names the loss's node; torch.isfinite on the batch finds it."""
    out = run("torch", """
        import json, warnings, torch, torch.nn.functional as F
        torch.manual_seed(0)
        xb = torch.randn(16, 2); yb = (xb[:, :1] > 0).float(); xb[8, 1] = float("nan")
        lin = torch.nn.Linear(2, 1)
        logits = lin(xb)
        out = {"input_finite": bool(torch.isfinite(xb).all()), "logits_nan": bool(torch.isnan(logits).any())}
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            with torch.autograd.set_detect_anomaly(True):
                try:
                    F.binary_cross_entropy_with_logits(logits, yb).backward()
                except RuntimeError as exc:
                    out["anomaly"] = str(exc).splitlines()[0]
        print(json.dumps(out))
    """)
    assert out["input_finite"] is False and out["logits_nan"] is True
    assert out["anomaly"] == "Function 'BinaryCrossEntropyWithLogitsBackward0' returned nan values in its 0th output."
    assert any(m.matches(out["anomaly"]) for m in declared("WR-310", "pytorch"))


def test_pytorch_scheduler_warning_only_begins_with_the_declared_sentence():
    """WR-040 quotes the first sentence of a longer warning, and says so ("a warning that begins")."""
    out = run("torch", """
        import json, warnings, torch
        w = torch.nn.Parameter(torch.ones(2))
        opt = torch.optim.SGD([w], lr=0.1)
        sched = torch.optim.lr_scheduler.StepLR(opt, 10)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            sched.step()
        print(json.dumps([str(c.message) for c in caught]))
    """)
    (quoted,) = [m for m in declared("WR-040", "pytorch") if m.text.startswith("Detected call")]
    (text,) = [t for t in out if t.startswith(quoted.text)]
    assert len(text) > len(quoted.text) + 50
    assert_entry_says("WR-040", ["prints a warning that begins"])


def test_gradscaler_refuses_float16_parameters_with_the_message_wr040_declares_at_the_line_it_cites():
    """WR-040 says a GradScaler refuses parameters that are themselves float16: its step raises the ValueError it
    declares, from grad_scaler.py line 275 at v2.13.0; float32 parameters under the same scaler step."""
    out = run("torch", """
        import json, torch
        def step(dtype):
            layer = torch.nn.Linear(4, 1).to(dtype)
            opt = torch.optim.SGD(layer.parameters(), lr=0.1)
            scaler = torch.amp.GradScaler("cpu")
            scaler.scale(layer(torch.ones(8, 4, dtype=dtype)).float().pow(2).mean()).backward()
            try:
                scaler.step(opt)
                return None
            except ValueError as e:
                return str(e)
        print(json.dumps({"half": step(torch.float16), "float": step(torch.float32)}))
    """)
    (quoted,) = [m for m in declared("WR-040", "pytorch") if "unscale" in m.text]
    assert out == {"half": quoted.text, "float": None}
    assert quoted.source.endswith("/v2.13.0/torch/amp/grad_scaler.py#L275")
    assert source_line("torch", "torch/amp/grad_scaler.py", 275).strip() == f'raise ValueError("{quoted.text}")'


def test_keras_compile_wraps_the_optimizer_in_a_loss_scale_only_under_mixed_float16_at_the_lines_wr040_cites():
    """WR-040 says the LossScaleOptimizer is compile's own (auto_scale_loss, trainer.py#L178-L186 at v3.15.1), so a
    GradientTape loop's optimizer has none: the installed Keras has the test and the wrap at those lines."""
    lines = [source_line("tf", "keras/src/trainers/trainer.py", n).strip() for n in (179, 180, 184)]
    assert lines == ["auto_scale_loss", 'and self.dtype_policy.name == "mixed_float16"',
                     "self.optimizer = LossScaleOptimizer("]


def test_a_hand_written_kl_is_nan_at_a_zero_target_and_xlogy_and_kl_div_are_not():
    """WR-030 says t * log(t / p) is nan, loss and gradient, where t is exactly 0; that torch.xlogy on the ratio mends
    only the value; and that the log split, xlogy(t, t) - t * log_softmax(z), and F.kl_div on log-probabilities give a
    finite loss and gradient there (PyTorch 2.13.0, CPU)."""
    out = run("torch", """
        import json, math, torch, torch.nn.functional as F
        t = torch.tensor([[0.0, 0.5, 0.5]])
        def grads(loss_of):
            z = torch.tensor([[1.0, 2.0, 3.0]], requires_grad=True)
            loss = loss_of(z)
            loss.backward()
            return [loss.item(), all(math.isfinite(g) for g in z.grad.flatten().tolist())]
        print(json.dumps({
            "hand": grads(lambda z: (t * torch.log(t / torch.softmax(z, 1))).sum(1).mean()),
            "xlogy_ratio": grads(lambda z: torch.xlogy(t, t / torch.softmax(z, 1)).sum(1).mean()),
            "xlogy": grads(lambda z: (torch.xlogy(t, t) - t * torch.log_softmax(z, 1)).sum(1).mean()),
            "kl_div": grads(lambda z: F.kl_div(torch.log_softmax(z, 1), t, reduction="batchmean"))}))
    """)
    assert math.isnan(out["hand"][0]) and out["hand"][1] is False
    # (xlogy on the ratio mends the value and not the slope: 0 / 0 with respect to p)
    assert math.isfinite(out["xlogy_ratio"][0]) and out["xlogy_ratio"][1] is False
    assert math.isfinite(out["xlogy"][0]) and out["xlogy"][1] and math.isfinite(out["kl_div"][0]) and out["kl_div"][1]
    assert abs(out["xlogy"][0] - out["kl_div"][0]) < 1e-6
    assert_entry_says("WR-030", ["`t * torch.log(t / p)` is nan wherever the target t is exactly 0",
                                 "only mends the value", "(checked on PyTorch 2.13.0, CPU)"])


def test_sklearns_convergence_warning_is_the_one_the_iteration_limit_normal_quotes_at_its_cited_line():
    """The normal answer for scikit-learn's ConvergenceWarning quotes it and cites _multilayer_perceptron.py#L786-L787 at
    1.9.1: fit() on a problem still improving at max_iter warns exactly that, and the installed 1.9.1 has it there."""
    from trainwreck.normals import NORMALS
    normal = next(n for n in NORMALS if n.name == "an optimizer stopped at its iteration limit")
    out = run("sklearn", """
        import json, warnings, sklearn
        from sklearn.neural_network import MLPClassifier
        from sklearn.datasets import make_moons
        X, y = make_moons(200, noise=0.1, random_state=0)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            MLPClassifier(hidden_layer_sizes=(8,), max_iter=5, random_state=0).fit(X, y)
        print(json.dumps({"version": sklearn.__version__, "said": [str(c.message) for c in caught]}))
    """)
    assert out["version"] == "1.9.1"
    said = "Stochastic Optimizer: Maximum iterations (5) reached and the optimization hasn't converged yet."
    assert out["said"] == [said] and normal.asked.search(said.lower())
    lines = [source_line("sklearn", "sklearn/neural_network/_multilayer_perceptron.py", n).strip() for n in (786, 787)]
    assert lines == ['"Stochastic Optimizer: Maximum iterations (%d) "',
                     '"reached and the optimization hasn\'t converged yet."']
    assert "_multilayer_perceptron.py#L786-L787" in normal.explanation


def test_sklearns_regressor_loss_is_half_the_mse_plus_its_penalty_at_the_lines_the_normal_cites():
    """The normal answer says MLPRegressor's loss_ is 0.5 * MSE (_base.py#L187-L189 at 1.9.1) plus 0.5 * alpha * sum(w^2)
    / n (_multilayer_perceptron.py#L361): with alpha=0, 2 * loss_ of a last iterate equals the MSE of that model."""
    from trainwreck.normals import NORMALS
    normal = next(n for n in NORMALS if n.name.startswith("scikit-learn's squared-error loss_"))
    out = run("sklearn", """
        import json, numpy as np
        from sklearn.neural_network import MLPRegressor
        from sklearn.metrics import mean_squared_error
        rng = np.random.default_rng(0)
        X = rng.normal(size=(200, 3)); y = X @ np.array([1.0, -2.0, 0.5]) + 0.1 * rng.normal(size=200)
        reg = MLPRegressor(hidden_layer_sizes=(8,), alpha=0.0, solver="lbfgs", max_iter=50, random_state=0).fit(X, y)
        print(json.dumps({"loss": float(reg.loss_), "mse": float(mean_squared_error(y, reg.predict(X)))}))
    """)
    assert abs(2 * out["loss"] - out["mse"]) <= 1e-6 * max(1.0, out["mse"])
    assert source_line("sklearn", "sklearn/neural_network/_base.py", 188).strip().startswith(
        "0.5 * np.average((y_true - y_pred) ** 2")
    assert source_line("sklearn", "sklearn/neural_network/_multilayer_perceptron.py", 361).strip() == \
        "loss += (0.5 * self.alpha) * values / sw_sum"
    assert "_base.py#L187-L189" in normal.explanation and "_multilayer_perceptron.py#L361" in normal.explanation


def test_pytorchs_read_only_array_warning_is_the_one_the_normal_quotes_at_its_cited_line():
    from trainwreck.normals import NORMALS
    normal = next(n for n in NORMALS if n.name == "PyTorch's warning on a read-only NumPy array")
    out = run("torch", """
        import json, warnings, numpy as np, torch
        a = np.zeros(3); a.setflags(write=False)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            torch.from_numpy(a)
        print(json.dumps([str(c.message) for c in caught]))
    """)
    (said,) = out
    assert said.startswith("The given NumPy array is not writable, and PyTorch does not support non-writable tensors.")
    assert said.endswith("torch/csrc/utils/tensor_numpy.cpp:213.)") and "tensor_numpy.cpp#L213" in normal.explanation
    assert normal.asked.search(said.lower())


def test_pytorch_autocast_lists_the_ops_where_wr040_says():
    """WR-040 cites two lists of autocast_mode.h at v2.13.0: L855 (float32) and L916 (float32 through the
    dtype argument). The installed 2.13.0 header has them at those lines."""
    packages = site_packages("torch")
    version = (packages / "torch" / "version.py").read_text()
    assert "__version__ = '2.13.0" in version
    lines = (packages / "torch" / "include" / "ATen" / "autocast_mode.h").read_text().splitlines()
    assert lines[854].startswith("#define AT_FORALL_FP32(_)")
    assert lines[915].startswith("#define AT_FORALL_FP32_SET_OPT_DTYPE(_)")
    first = "\n".join(lines[855:915])
    second = "\n".join(lines[916:928])
    assert all(f"_({op}" in first for op in ("layer_norm", "pow", "nll_loss", "binary_cross_entropy_with_logits"))
    assert all(f"_({op}" in second for op in ("softmax", "sum"))
    assert "_(softmax" not in first and "_(sum)" not in first


def test_the_cited_message_sources_are_in_the_installed_binaries():
    """The anomaly-mode message is cited to engine.cpp at v2.13.0 and check_numerics's to check_numerics_op.cc
    at v2.21.0: the installed builds of those versions carry the message next to those files' other strings."""
    torch_lib = site_packages("torch") / "torch" / "lib" / "libtorch_cpu.so"
    data = torch_lib.read_bytes()
    assert b"' returned nan values in its " in data and b"torch/csrc/autograd/engine.cpp" in data
    near = data[data.index(b"' returned nan values in its ") - 400:data.index(b"' returned nan values in its ") + 400]
    assert b"evaluate_function" in near                                # engine.cpp's function that raises it
    assert run("tf", "import json, tensorflow as tf; print(json.dumps(tf.__version__))") == "2.21.0"
    cc = (site_packages("tf") / "tensorflow" / "libtensorflow_cc.so.2").read_bytes()
    assert b" : Tensor had " in cc and b"tensorflow/core/kernels/check_numerics_op.cc" in cc
    near = cc[cc.index(b" : Tensor had ") - 200:cc.index(b" : Tensor had ") + 200]
    assert b"CheckNumerics" in near


def test_default_layer_initialisers_are_fan_in_in_pytorch_and_fan_average_in_keras():
    """WR-120: nn.Linear draws from uniform(+-1/sqrt(fan_in)); a Keras Dense layer's default is Glorot uniform."""
    torch_out = run("torch", """
        import json, torch
        torch.manual_seed(0)
        w = torch.nn.Linear(400, 100).weight
        print(json.dumps({"bound": float(w.abs().max()) * 400 ** 0.5, "var": float(w.var()) * 3 * 400}))
    """)
    assert 0.99 < torch_out["bound"] <= 1.0 and torch_out["var"] == pytest.approx(1.0, rel=0.05)
    keras_out = keras("jax", """
        import json, keras
        layer = keras.layers.Dense(4)
        print(json.dumps({"init": type(layer.kernel_initializer).__name__, "mode": layer.kernel_initializer.mode}))
    """)
    assert keras_out == {"init": "GlorotUniform", "mode": "fan_avg"}


def test_sklearns_mape_divides_by_the_true_value_at_the_lines_the_normal_cites():
    """The MAPE normal cites _regression.py#L496 (the division by max(|y_true|, eps)) and its docstring's warning at
    #L463-L464, at 1.9.1: a target of 0.001 with an error of 0.05 makes a MAPE of 25 (2500%) for two points whose
    absolute errors are both 0.05."""
    from trainwreck.normals import NORMALS
    normal = next(n for n in NORMALS if n.name.startswith("a MAPE of hundreds"))
    out = run("sklearn", """
        import json
        from sklearn.metrics import mean_absolute_percentage_error, mean_absolute_error
        y, p = [10.0, 0.001], [10.05, 0.051]
        print(json.dumps({"mape": mean_absolute_percentage_error(y, p), "mae": mean_absolute_error(y, p)}))
    """)
    assert round(out["mape"], 4) == 25.0025 and round(out["mae"], 6) == 0.05
    assert source_line("sklearn", "sklearn/metrics/_regression.py", 496).strip() == \
        "mape = xp.abs(y_pred - y_true) / xp.maximum(y_true_abs, epsilon)"
    warned = " ".join(source_line("sklearn", "sklearn/metrics/_regression.py", n).strip() for n in (463, 464))
    assert "especially if some `y_true` values are very close to zero" in warned
    assert "bad predictions can lead to arbitrarily large MAPE values, especially if some `y_true` values are very close" \
        in normal.explanation
    assert "_regression.py#L496" in normal.explanation and "#L463-L464" in normal.explanation
