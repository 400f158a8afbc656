"""Opt-in: what WR-260 says about PyTorch, Keras and JAX, checked against the real frameworks.

Runs only with TRAINWRECK_FRAMEWORK_TESTS=1, in the scratch interpreters (/work/scratch/<name>/bin/python,
or TRAINWRECK_<NAME>_PYTHON); each check is a small program whose printed JSON the test reads. The
programs build the snippet's network, data and initial weights from the snippet itself.
"""
import textwrap

import numpy as np
import pytest

import framework_runner
from conftest import ROOT, assert_entry_says, load_snippet
from framework_runner import OPT_IN

pytestmark = OPT_IN

wr260 = load_snippet("wr260_gradients_accumulated")

# Loads the snippet in the framework's interpreter: its data, its initial weights, its constants.
PRELUDE = f"""
import json, sys, warnings
import numpy as np
sys.path.insert(0, {str(ROOT / "snippets")!r})
import wr260_gradients_accumulated as s
X, y = s.make_data()
P0 = s.init_params()
"""


def run(name: str, program: str, setup: str = "") -> dict:
    """The snippet's prelude, the framework's setup and the program, run in the framework's interpreter."""
    return framework_runner.run(name, "".join(textwrap.dedent(part) for part in (PRELUDE, setup, program)))


def snippet_losses(epochs=300, clear=False):
    with np.errstate(all="ignore"):
        return wr260.train(wr260.RATE, epochs, wr260.MOMENTUM, clear=clear)["loss"]


# --- PyTorch --------------------------------------------------------------------------------------

TORCH_MODEL = """
import torch

def model(dtype=torch.float32):
    m = torch.nn.Sequential(torch.nn.Linear(2, s.HIDDEN), torch.nn.ReLU(), torch.nn.Linear(s.HIDDEN, 1)).to(dtype)
    with torch.no_grad():
        m[0].weight.copy_(torch.tensor(P0["W1"].T)); m[0].bias.zero_()
        m[2].weight.copy_(torch.tensor(P0["W2"].T)); m[2].bias.zero_()
    return m

def train(zero, momentum, epochs, loss_kind, dtype=torch.float32, lr=s.RATE):
    m = model(dtype)
    Xt, yt = torch.tensor(X, dtype=dtype), torch.tensor(y, dtype=dtype)
    opt = torch.optim.SGD(m.parameters(), lr=lr, momentum=momentum)
    losses = []
    for epoch in range(epochs):
        if zero:
            opt.zero_grad()
        z = m(Xt)
        if loss_kind == "by hand":       # -log(sigmoid) of the true label, as the snippet writes it
            loss = -torch.log(torch.sigmoid((2 * yt - 1) * z)).mean()
        else:
            loss = torch.nn.functional.binary_cross_entropy_with_logits(z, yt)
        losses.append(loss.item())
        if not np.isfinite(losses[-1]):
            break
        loss.backward()
        opt.step()
    return m, losses
"""


def test_pytorch_documents_that_backward_accumulates_at_the_cited_lines():
    out = run("torch", """
        import inspect, torch
        root = Path = __import__("pathlib").Path(torch.__file__).parent
        line = lambda f, n: (root / f).read_text().splitlines()[n - 1]
        sig = inspect.signature(torch.optim.Optimizer.zero_grad).parameters
        print(json.dumps({
            "version": torch.__version__,
            "tensor": line("_tensor.py", 577), "autograd": line("autograd/__init__.py", 274),
            "tensor_doc": torch.Tensor.backward.__doc__, "autograd_doc": torch.autograd.backward.__doc__,
            "zero_grad_line": line("optim/optimizer.py", 1024),
            "zero_grad_doc": " ".join(torch.optim.Optimizer.zero_grad.__doc__.split()),
            "set_to_none": sig["set_to_none"].default,
            "module_default": inspect.signature(torch.nn.Module.zero_grad).parameters["set_to_none"].default,
        }))
    """)
    assert out["version"].startswith("2.13.0")
    quoted = "This function accumulates gradients in the leaves - you might need to zero"
    assert quoted in out["tensor"] and quoted in out["autograd"]
    for doc in (out["tensor_doc"], out["autograd_doc"]):
        assert "accumulates gradients in the leaves - you might need to zero\n" in doc
        assert "``.grad`` attributes or set them to ``None`` before calling it." in doc
    assert "def zero_grad(self, set_to_none: bool = True)" in out["zero_grad_line"]
    assert out["set_to_none"] is True and out["module_default"] is True
    assert "in one case it does the step with a gradient of 0 and in the other it skips the step altogether" \
        in out["zero_grad_doc"]
    assert_entry_says("WR-260", ["This function accumulates gradients in the leaves - you might need to zero "
                                 "``.grad`` attributes or set them to ``None`` before calling it"])


def test_pytorch_buffers_add_up_and_zero_grad_sets_none_or_drops_the_step():
    out = run("torch", """
        m = model()
        loss_fn = lambda: torch.nn.functional.binary_cross_entropy_with_logits(m(torch.tensor(X, dtype=torch.float32)),
                                                                             torch.tensor(y, dtype=torch.float32))
        loss_fn().backward(); once = m[2].weight.grad.clone()
        loss_fn().backward(); twice = m[2].weight.grad.clone()
        opt = torch.optim.SGD(m.parameters(), lr=0.03, momentum=0.9)
        opt.zero_grad()
        none_after = all(p.grad is None for p in m.parameters())
        # zero_grad() between backward() and step(): the step has nothing to apply
        before = [p.detach().clone() for p in m.parameters()]
        loss_fn().backward(); opt.zero_grad(); opt.step()
        unchanged = all(torch.equal(a, b) for a, b in zip(before, m.parameters()))
        # no zero_grad() at all is SGD with momentum 1, bit for bit
        a, _ = train(False, 0.0, 60, "logits")
        b, _ = train(True, 1.0, 60, "logits")
        print(json.dumps({"doubles": torch.equal(twice, 2 * once), "none_after": none_after, "unchanged": unchanged,
                          "momentum_one": all(torch.equal(p, q) for p, q in zip(a.parameters(), b.parameters()))}))
    """, TORCH_MODEL)
    assert out == {"doubles": True, "none_after": True, "unchanged": True, "momentum_one": True}


def test_pytorch_runs_of_the_snippets_network_without_zero_grad():
    out = run("torch", """
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            _, by_hand64 = train(False, 0.9, 300, "by hand", torch.float64)
            _, by_hand32 = train(False, 0.9, 300, "by hand", torch.float32)
            _, logits = train(False, 0.9, 300, "logits", torch.float32)
            _, fixed = train(True, 0.9, 300, "logits", torch.float32)
        edge = next(x for x in np.arange(80.0, 120.0, 0.5)
                    if torch.sigmoid(torch.tensor(-x, dtype=torch.float32)).item() == 0.0)
        print(json.dumps({"by_hand64": by_hand64, "by_hand32": by_hand32, "logits": logits, "fixed": fixed,
                          "edge32": edge, "warnings": [str(w.message) for w in caught]}))
    """, TORCH_MODEL)
    ours = snippet_losses()
    assert out["warnings"] == []                                          # PyTorch prints nothing
    t = wr260.first_nonfinite(ours)
    assert len(out["by_hand64"]) == t + 1 and out["by_hand64"][t] == float("inf")
    assert [f"{v:.4f}" for v in out["by_hand64"][:t]] == [f"{v:.4f}" for v in ours[:t]]
    assert len(out["by_hand32"]) == 24 and out["by_hand32"][23] == float("inf")
    assert out["edge32"] < np.log(np.finfo(float).max)                   # 0.0 at a smaller logit than float64's
    logits = out["logits"]
    assert len(logits) == 300 and all(np.isfinite(logits))
    np.testing.assert_allclose(logits[:t], ours[:t], rtol=1e-3)
    assert int(np.argmin(logits)) == int(np.argmin(ours[:t]))
    assert max(logits) > 1000 and logits[-1] < max(logits) / 10        # far up, and back down
    assert all(np.isfinite(out["fixed"])) and out["fixed"][-1] < 0.2
    assert_entry_says("WR-260", [
        f"is inf at epoch {t}; in float32",
        f"the loss is inf at epoch {len(out['by_hand32']) - 1}",
        # (the peak of a divergence moves with the processor's rounding: 33600 on one machine, 33200 on another -- its
        # order is the claim)
        f"it falls to {min(logits):.4f} at epoch {int(np.argmin(logits))} like the snippet, then swings up to more "
        f"than {int(max(logits)) // 10000 * 10000} within 300 epochs and back down",
    ])


# --- Keras / TensorFlow ---------------------------------------------------------------------------

KERAS_MODEL = """
import os
os.environ.setdefault("KERAS_BACKEND", "tensorflow")
import keras, tensorflow as tf
Xf, yf = X.astype("float32"), y.astype("float32")
loss_fn = keras.losses.BinaryCrossentropy(from_logits=True)

def model():
    m = keras.Sequential([keras.Input((2,)), keras.layers.Dense(s.HIDDEN, activation="relu"), keras.layers.Dense(1)])
    m.layers[0].set_weights([P0["W1"].astype("float32"), np.zeros(s.HIDDEN, "float32")])
    m.layers[1].set_weights([P0["W2"].astype("float32"), np.zeros(1, "float32")])
    return m
"""


def test_keras_accumulates_only_when_asked_and_then_averages():
    out = run("tf", """
        from pathlib import Path
        src = Path(keras.__file__).parent / "src"
        line = lambda f, n: (src / f).read_text().splitlines()[n - 1]
        whole = model(); whole.compile(optimizer=keras.optimizers.SGD(3.0), loss=loss_fn)
        whole.fit(Xf, yf, batch_size=400, epochs=1, shuffle=False, verbose=0)
        parts = model(); parts.compile(optimizer=keras.optimizers.SGD(3.0, gradient_accumulation_steps=8), loss=loss_fn)
        parts.fit(Xf, yf, batch_size=50, epochs=1, shuffle=False, verbose=0)
        fitted = model(); fitted.compile(optimizer=keras.optimizers.SGD(s.RATE, momentum=s.MOMENTUM), loss=loss_fn)
        history = fitted.fit(Xf, yf, batch_size=400, epochs=60, shuffle=False, verbose=0).history["loss"]
        print(json.dumps({
            "version": keras.__version__,
            "gap": max(float(np.abs(a - b).max()) for a, b in zip(whole.get_weights(), parts.get_weights())),
            "moved": max(float(np.abs(a - b).max()) for a, b in zip(whole.get_weights(), model().get_weights())),
            "fit": history,
            "tape_line": line("backend/tensorflow/trainer.py", 57),
            "doc_line": line("optimizers/base_optimizer.py", 1168),
            "doc": " ".join((src / "optimizers/base_optimizer.py").read_text().split()),
        }))
    """, KERAS_MODEL)
    assert out["version"] == "3.15.1"
    assert out["gap"] < 1e-6 < out["moved"]           # 8 averaged batches of 50 = one step on all 400
    correct = wr260.train(wr260.RATE, 60, wr260.MOMENTUM)["loss"]
    np.testing.assert_allclose(out["fit"], correct, rtol=1e-4)          # fit: fresh gradients every step
    assert "tf.GradientTape()" in out["tape_line"]
    assert "gradient_accumulation_steps: Int or `None`" in out["doc_line"]
    assert "using the average value of the gradients since the last update" in out["doc"]


def test_keras_custom_loop_with_an_accumulator_never_reset():
    out = run("tf", """
        def custom(reset, epochs):
            m = model(); opt = keras.optimizers.SGD(s.RATE, momentum=s.MOMENTUM)
            acc = [tf.Variable(tf.zeros_like(v)) for v in m.trainable_variables]
            losses = []
            for epoch in range(epochs):
                with tf.GradientTape() as tape:
                    loss = loss_fn(yf, m(Xf))
                for a, g in zip(acc, tape.gradient(loss, m.trainable_variables)):
                    a.assign_add(g)
                opt.apply_gradients(zip([tf.identity(a) for a in acc], m.trainable_variables))
                if reset:
                    for a in acc:
                        a.assign(tf.zeros_like(a))
                losses.append(float(loss))
            return losses
        print(json.dumps({"broken": custom(False, 28), "fixed": custom(True, 300)}))
    """, KERAS_MODEL)
    ours = snippet_losses()
    np.testing.assert_allclose(out["broken"], ours[:28], rtol=1e-3)
    assert out["fixed"][-1] == pytest.approx(wr260.train(wr260.RATE, 300, wr260.MOMENTUM)["loss"][-1], rel=1e-3)
    assert_entry_says("WR-260", [f"losses follow the snippet's ({out['broken'][6]:.4f} at epoch 6, "
                                 f"{out['broken'][27]:.2f} at epoch 27)"])


# --- JAX ------------------------------------------------------------------------------------------

JAX_MODEL = """
import jax, jax.numpy as jnp, optax
Xj, yj = jnp.asarray(X, jnp.float32), jnp.asarray(y, jnp.float32)
p0 = {k: jnp.asarray(v, jnp.float32) for k, v in P0.items()}

def loss_fn(p, X, y):
    z = jnp.maximum(X @ p["W1"] + p["b1"], 0) @ p["W2"] + p["b2"]
    return optax.sigmoid_binary_cross_entropy(z, y).mean()
"""


def test_jax_multisteps_averages_and_a_carried_accumulator_reproduces_the_mistake():
    out = run("jax", """
        from pathlib import Path
        grad = jax.jit(jax.grad(loss_fn))
        whole = jax.tree.map(lambda g: -3.0 * g, grad(p0, Xj, yj))
        ratios = {}
        for mean in (True, False):
            opt = optax.MultiSteps(optax.sgd(3.0), every_k_schedule=8, use_grad_mean=mean)
            state, p = opt.init(p0), p0
            for Xi, yi in zip(jnp.split(Xj, 8), jnp.split(yj, 8)):
                updates, state = opt.update(grad(p, Xi, yi), state, p)
                p = optax.apply_updates(p, updates)
            moved = jax.tree.map(lambda a, b: a - b, p, p0)
            ratios[str(mean)] = float(optax.global_norm(moved) / optax.global_norm(whole))
            after = float(optax.global_norm(state.acc_grads))
        def carried(reset, epochs):
            opt = optax.sgd(s.RATE, momentum=s.MOMENTUM)
            state, p, acc, losses = opt.init(p0), p0, jax.tree.map(jnp.zeros_like, p0), []
            for epoch in range(epochs):
                loss, g = jax.value_and_grad(loss_fn)(p, Xj, yj)
                acc = jax.tree.map(jnp.add, acc, g)
                updates, state = opt.update(acc, state, p)
                p = optax.apply_updates(p, updates)
                if reset:
                    acc = jax.tree.map(jnp.zeros_like, acc)
                losses.append(float(loss))
            return losses
        jax_root = Path(jax.__file__).parent
        optax_root = Path(optax.__file__).parent
        print(json.dumps({"versions": [jax.__version__, optax.__version__], "ratios": ratios, "acc_after": after,
                          "broken": carried(False, 28), "fixed": carried(True, 300),
                          "grad_line": (jax_root / "_src/api.py").read_text().splitlines()[413],
                          "multisteps_line": (optax_root / "transforms/_accumulation.py").read_text().splitlines()[242]}))
    """, JAX_MODEL)
    assert out["versions"] == ["0.10.2", "0.2.8"]
    assert out["ratios"]["True"] == pytest.approx(1.0, rel=1e-5)
    assert out["ratios"]["False"] == pytest.approx(8.0, rel=1e-5)
    assert out["acc_after"] == 0.0                                 # reset after the update
    np.testing.assert_allclose(out["broken"], snippet_losses()[:28], rtol=1e-3)
    assert out["fixed"][-1] == pytest.approx(wr260.train(wr260.RATE, 300, wr260.MOMENTUM)["loss"][-1], rel=1e-3)
    assert out["grad_line"].startswith("def grad(")
    assert out["multisteps_line"] == "class MultiSteps:"


def test_pytorch_a_generator_s_backward_through_the_discriminator_fills_its_gradients_and_d_s_step_adds_them():
    """The page: cleared once at the top of a GAN's iteration, the discriminator's buffers hold the generator's loss's
    gradient when its own backward() adds to them, and that part pulls it toward calling the fakes real."""
    out = framework_runner.run("torch", textwrap.dedent("""
        import json, torch
        torch.manual_seed(0)
        G, D = torch.nn.Linear(2, 2), torch.nn.Sequential(torch.nn.Linear(2, 1))
        bce = torch.nn.BCEWithLogitsLoss()
        z, real = torch.randn(8, 2), torch.randn(8, 2) + 3
        ones, zeros = torch.ones(8, 1), torch.zeros(8, 1)
        G.zero_grad(); D.zero_grad()
        loss_G = bce(D(G(z)), ones)
        loss_G.backward()
        from_g = D[0].weight.grad.clone()
        fake = G(z).detach()
        loss_D = bce(D(real), ones) + bce(D(fake), zeros)
        own = torch.autograd.grad(loss_D, D[0].weight, retain_graph=True)[0]
        loss_D.backward()
        summed = D[0].weight.grad.clone()
        # one plain step down the generator's part alone: does D then call the fakes more real?
        before = torch.sigmoid(D(fake)).mean().item()
        with torch.no_grad():
            D[0].weight -= 0.5 * from_g
        after = torch.sigmoid(D(fake)).mean().item()
        print(json.dumps({"from_g": from_g.abs().sum().item(), "sum_ok": bool(torch.allclose(summed, from_g + own)),
                          "before": before, "after": after}))
    """))
    assert out["from_g"] > 0 and out["sum_ok"]
    assert out["after"] > out["before"]
    critic = framework_runner.run("torch", textwrap.dedent("""
        import json, torch
        torch.manual_seed(0)
        actor, critic = torch.nn.Linear(3, 1), torch.nn.Linear(4, 1)
        s = torch.randn(16, 3)
        actor.zero_grad(); critic.zero_grad()
        actor_loss = -critic(torch.cat([s, actor(s)], 1)).mean()
        actor_loss.backward()
        carried = critic.weight.grad.clone()
        before = critic(torch.cat([s, actor(s)], 1)).mean().item()
        with torch.no_grad():
            critic.weight -= 0.1 * carried
        after = critic(torch.cat([s, actor(s)], 1)).mean().item()
        print(json.dumps({"carried": carried.abs().sum().item(), "before": before, "after": after}))
    """))
    assert critic["carried"] > 0 and critic["after"] > critic["before"]
    assert_entry_says("WR-260", ["which pulls it toward valuing the actor's actions higher"])
    assert_entry_says("WR-260", ["its `backward()` fills the discriminator's buffers too",
                                 "The generator's part pulls it toward calling the fakes real"])
