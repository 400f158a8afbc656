"""Opt-in: PyTorch refuses a Python number past a tensor's dtype where it fills or clamps the tensor with it (WR-040's
float16 mask constant, WR-020's exp taken in float64), and the message it raises is the one each entry declares."""
from framework_runner import OPT_IN, declared, run

pytestmark = OPT_IN


def test_a_float32_mask_constant_in_float16_scores_is_refused():
    """WR-040's page: masked_fill with -1e9 on scores autocast made float16 raises the declared message; the dtype's own
    minimum, -65504, fills them; an additive mask, a cast or torch.where gives -inf instead."""
    out = run("torch", """
        import json, torch
        with torch.autocast("cpu", dtype=torch.float16):
            scores = torch.randn(2, 3) @ torch.randn(3, 3)
        mask = torch.tensor([[True, True, False], [True, False, False]])
        try:
            scores.masked_fill(~mask, -1e9)
            error = None
        except RuntimeError as e:
            error = str(e)
        try:
            scores.clamp(min=-1e9)
            clamp = None
        except RuntimeError as e:
            clamp = str(e)
        filled = scores.masked_fill(~mask, torch.finfo(scores.dtype).min)
        # (an additive mask, a cast, torch.where: -inf, no error -- WR-070's nan row)
        others = [str((scores + (~mask).half() * -1e9)[1, 2].item()), str(torch.tensor(-1e9).half().item()),
                  str(torch.where(mask, scores, torch.tensor(-1e9).half())[1, 2].item())]
        print(json.dumps({"dtype": str(scores.dtype), "error": error, "clamp": clamp, "fill": filled[1, 2].item(),
                          "others": others}))
    """)
    (message,) = [m for m in declared("WR-040", "pytorch") if "converted" in m.text]
    assert out["dtype"] == "torch.float16"
    assert out["others"] == ["-inf"] * 3
    assert out["error"] == message.example and out["clamp"] == message.example
    assert out["fill"] == -65504.0


def test_an_exp_taken_in_float64_is_refused_by_a_float32_tensor_and_torch_exp_is_inf():
    """WR-020's page: math.exp(100), 2.7e+43, handed to a float32 tensor's fill_, masked_fill, clamp or torch.full
    raises the declared message; in arithmetic or in torch.tensor the same number is inf, as torch.exp of 100 is."""
    out = run("torch", """
        import json, math, torch
        x = torch.zeros(3)
        errors = []
        for call in (lambda: x.clone().fill_(math.exp(100)), lambda: x.masked_fill(x == 0, math.exp(100)),
                     lambda: x.clamp(max=math.exp(100)), lambda: torch.full((3,), math.exp(100))):
            try:
                call()
                errors.append(None)
            except RuntimeError as e:
                errors.append(str(e))
        silent = [str((x + math.exp(100))[0].item()), str(torch.tensor([math.exp(100)])[0].item()),
                  str(torch.exp(torch.tensor(100.0)).item())]
        print(json.dumps({"errors": errors, "silent": silent}))
    """)
    (message,) = [m for m in declared("WR-020", "pytorch") if "converted" in m.text]
    assert out["errors"] == [message.text] * 4
    assert out["silent"] == ["inf"] * 3
