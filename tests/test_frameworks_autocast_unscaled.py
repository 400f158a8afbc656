"""Opt-in: WR-040's autocast to float16 with no GradScaler, checked in the real PyTorch (2.13.0 here).

A one-weight Linear layer, its input chosen so that the float32 weight gradient g * a takes a value in each band of
float16's bottom end, with the gradient of the output (2^-10) and the input both plain float16 numbers: under
torch.autocast(dtype=torch.float16) the weight gradient is computed in float16, so one below 2^-25 comes out as exactly
0, one between 2^-25 and 2^-24 as 2^-24 (the smallest subnormal), one above as itself -- with nothing printed. The same
loss scaled by 2^16 before backward() keeps the smallest. Runs only with TRAINWRECK_FRAMEWORK_TESTS=1, in the scratch
interpreters (tests/framework_runner.py).
"""
from conftest import assert_entry_says
from framework_runner import OPT_IN, run

pytestmark = OPT_IN


def test_autocast_to_float16_rounds_weight_gradients_under_2_to_the_minus_25_to_zero():
    out = run("torch", """
        import json, warnings, torch
        rows = []
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            for exponent in (-26.0, -24.5, -20.0):
                for scale in (1.0, 2.0 ** 16):
                    layer = torch.nn.Linear(1, 1, bias=False)
                    g = 2.0 ** -10
                    with torch.autocast("cpu", dtype=torch.float16):
                        out = layer(torch.tensor([[2.0 ** exponent / g]]))
                    ((out.float() * g).sum() * scale).backward()
                    rows.append([exponent, scale, str(out.dtype), layer.weight.grad.item() / scale])
        print(json.dumps({"rows": rows, "warned": len(caught)}))
    """)
    got = {(e, s): (dtype, grad) for e, s, dtype, grad in out["rows"]}
    assert all(dtype == "torch.float16" for dtype, _ in got.values()) and out["warned"] == 0
    assert got[(-26.0, 1.0)][1] == 0.0                        # (under 2^-25: 0)
    assert got[(-24.5, 1.0)][1] == 2.0 ** -24                 # (between: the smallest subnormal)
    assert got[(-20.0, 1.0)][1] == 2.0 ** -20                 # (above: itself)
    assert got[(-26.0, 2.0 ** 16)][1] == 2.0 ** -26           # (a scaled loss keeps it)
    assert_entry_says("WR-040", ["Under torch.autocast with dtype=torch.float16 and no GradScaler, nothing is printed",
                                 "gets a weight gradient of exactly 0 where its float32 gradient is below 2⁻²⁵ (about "
                                 "3e-08), and 2⁻²⁴ where it is between the two (checked on PyTorch 2.13.0, CPU)."])
