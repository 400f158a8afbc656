"""Opt-in: the jax_debug_nans sentence WR-030, WR-220 and WR-240 share, checked in the real JAX.

In one JAX (0.10.2 here) the flag raises for one jitted step and stays silent for another, each called
first on finite values and then on the bad ones, so the pages tell the reader to check jnp.isfinite of
what the step returns inside the loop and keep the flag for an eager re-evaluation.
Runs only with TRAINWRECK_FRAMEWORK_TESTS=1, in the scratch interpreters (tests/framework_runner.py).
"""
from conftest import assert_entry_says
from framework_runner import OPT_IN, declared, run

pytestmark = OPT_IN

SHARED = ("In JAX 0.10.2 the flag raised for some jitted steps and stayed silent for others, so inside a "
          "training loop check `jnp.isfinite` of the returned loss and gradient norm, or use checkify, and "
          "keep the flag for an eager re-evaluation at the bad weights, which stops at an operation that made a nan.")


def test_jax_debug_nans_raises_for_one_jitted_step_and_not_another_and_isfinite_catches_both():
    out = run("jax", """
        import sys; sys.path.insert(0, "snippets")
        import jax
        jax.config.update("jax_debug_nans", True)
        import contextlib, io, json, numpy as np, jax.numpy as jnp, optax

        def attempt(f, *args):
            try:
                with contextlib.redirect_stdout(io.StringIO()):
                    return "returned", f(*args)
            except FloatingPointError as exc:
                return "raised: " + str(exc).splitlines()[0], None

        out = {"version": jax.__version__}
        tx = optax.clip_by_global_norm(1.0)
        clip = jax.jit(lambda g: tx.update(g, tx.init(g))[0])
        out["clip_finite"] = attempt(clip, {"w": jnp.array([0.5, 1.0])})[0]
        out["clip_inf_after_finite"] = attempt(clip, {"w": jnp.array([jnp.inf, 1.0])})[0]

        sys.path.insert(0, "tests")
        from jax_wr220 import hand_written_step
        hand, step, loss0, p1 = hand_written_step(10.0)
        what, result = attempt(step, p1)
        out["step_after_finite"] = what
        loss1, g1 = result
        out["eager"] = attempt(hand, p1)[0]            # no jit: the flag names the primitive
        jax.config.update("jax_debug_nans", False)     # training with the flag off, the check the pages recommend
        out["isfinite_loss"] = [bool(jnp.isfinite(loss0)), bool(jnp.isfinite(loss1))]
        out["isfinite_norm"] = bool(jnp.isfinite(optax.global_norm(g1)))
        print(json.dumps(out))
    """)
    assert out["version"] == "0.10.2"
    (message,) = declared("WR-240", "jax")
    assert out["clip_finite"] == "returned"
    assert out["clip_inf_after_finite"] == "raised: " + message.example      # this jitted step: raises
    assert out["step_after_finite"] == "returned"                             # this one: nan, silently
    assert out["isfinite_loss"] == [True, False] and out["isfinite_norm"] is False
    assert out["eager"].startswith("raised: invalid value (nan) encountered in ")   # eager: it stops
    for entry in ("WR-030", "WR-220", "WR-240"):
        assert_entry_says(entry, [SHARED])
    assert_entry_says("WR-240", ["on its first call and after a call on a finite gradient alike, and named that "
                                 "division: `invalid value (nan) encountered in div`"])
