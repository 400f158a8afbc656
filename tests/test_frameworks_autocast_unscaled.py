"""Opt-in: WR-040's autocast to float16 with no GradScaler, checked in the real PyTorch (2.13.0 here).

A Linear layer whose float32 weight gradients all lie below 2^-24 gets a weight gradient of exactly 0 under
torch.autocast(dtype=torch.float16): the matmul's backward runs in float16 and flushes them, and nothing is printed.
The same loss scaled by a GradScaler's 2^16 before backward() keeps them. Runs only with TRAINWRECK_FRAMEWORK_TESTS=1,
in the scratch interpreters (tests/framework_runner.py).
"""
from conftest import assert_entry_says
from framework_runner import OPT_IN, run

pytestmark = OPT_IN


def test_autocast_to_float16_flushes_small_weight_gradients_to_zero_and_a_scaled_loss_keeps_them():
    out = run("torch", """
        import json, warnings, torch
        torch.manual_seed(0)
        layer = torch.nn.Linear(64, 64)
        x = torch.randn(32, 64)
        grads = {}
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            for name, cast, scale in (("float32", False, 1.0), ("autocast", True, 1.0), ("scaled", True, 2.0 ** 16)):
                layer.zero_grad()
                with torch.autocast("cpu", dtype=torch.float16, enabled=cast):
                    loss = layer(x).float().pow(2).mean() * 1e-6
                (loss * scale).backward()
                g = layer.weight.grad / scale
                grads[name] = {"zero": float((g == 0).float().mean()), "max": float(g.abs().max()),
                               "dtype": str(layer.weight.grad.dtype)}
        print(json.dumps({"grads": grads, "warned": len(caught)}))
    """)
    g = out["grads"]
    assert 0 < g["float32"]["max"] < 2.0 ** -24 and g["float32"]["zero"] == 0.0       # (all below float16's least)
    assert g["autocast"]["zero"] == 1.0 and g["autocast"]["dtype"] == "torch.float32"   # (flushed, then cast back)
    assert g["scaled"]["zero"] < 0.01 and out["warned"] == 0                            # (kept by the scale; silent)
    assert_entry_says("WR-040", ["Under torch.autocast with dtype=torch.float16 and no GradScaler, nothing is printed",
                                 "gets a weight gradient of exactly 0 under autocast (checked on PyTorch 2.13.0, CPU)"])
