"""WR-050's arccos at its ends (s278/07): the slope of arccos x is -1/sqrt(1 - x^2), inf at x = 1, and a clamp to exactly
[-1, 1] passes the gradient at its own bounds, so an angle loss at a perfect match has an inf gradient that the next
multiplication by 0 makes nan. The page says so; a margin keeps arccos off its ends."""
import warnings

import numpy as np
import pytest

from conftest import assert_entry_says, diagnosis
from framework_runner import OPT_IN, run
from trainwreck.breaking_constructs import arc_at_its_ends


def test_the_margin_keeps_arccos_off_its_end_in_float32_and_rounds_away_in_float16():
    """The page's dtype caveat, held to the rounding: 1 - 1e-7 is below 1 in float32 and is 1 in float16; float16's gap
    below 1, 2**-11, is kept. The slope -1/sqrt(1 - x^2) is finite at the float32 margin and -inf at 1."""
    assert np.float32(1 - 1e-7) < 1 and np.float16(1 - 1e-7) == 1 and np.float16(1 - 2 ** -11) < 1
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert -1.0 / np.sqrt(1.0 - np.float64(1.0) ** 2) == -np.inf
        assert np.isfinite(-1.0 / np.sqrt(1.0 - np.float64(np.float32(1 - 1e-7)) ** 2))
    assert np.float32(1 - 2 ** -11) < 1 and float(np.float32(1 - 2 ** -8)) < 1
    assert_entry_says("WR-050", ["−1/√(1 − x²), which is −inf at x = ±1", "min ≤ x ≤ max, the bounds included",
                                 "inf − inf, is nan", "[-1 + 1e-7, 1 - 1e-7]", "2⁻¹¹ in float16", "2⁻⁸ in bfloat16"])


@pytest.mark.parametrize("code, read", [
    ("cos = torch.clamp(dot / denom, -1.0, 1.0)\nreturn torch.acos(cos).mean()\n", True),
    ("angle = torch.acos(torch.clamp(c, -1, 1))\n", True),
    ("cos = torch.clamp(dot / denom, -1 + 1e-7, 1 - 1e-7)\nreturn torch.acos(cos).mean()\n", False),   # a margin
    # (code_review_s72b: NumPy's and math's, which nothing differentiates; a clamp scaled after it; and the spellings:
    # a tensor's own clamp, a nested denominator, TensorFlow's clip_by_value)
    ("theta = math.acos(np.clip(c, -1, 1))\n", False),
    ("theta = np.arccos(np.clip(c, -1.0, 1.0))\n", False),
    ("angle = torch.acos(torch.clamp(cos, -1.0, 1.0) * 0.999999)\n", False),
    ("cos = (dot / denom).clamp(-1.0, 1.0)\nangle = torch.acos(cos)\n", True),
    ("angle = torch.acos(torch.clamp(dot / (p.norm(dim=1) * t.norm(dim=1)), -1.0, 1.0))\n", True),
    ("angle = tf.math.acos(tf.clip_by_value(cos, -1.0, 1.0))\n", True),
])
def test_an_arccos_of_an_exact_unit_clamp_is_read(code, read):
    assert (arc_at_its_ends(code) is not None) == read


def test_an_angle_loss_that_went_nan_names_the_singular_slope():
    code = ("```python\ndef sam_loss(pred, target, eps=1e-8):\n    dot = (pred * target).sum(dim=1)\n"
            "    denom = pred.norm(dim=1) * target.norm(dim=1) + eps\n    cos = torch.clamp(dot / denom, -1.0, 1.0)\n"
            "    return torch.acos(cos).mean()\n```\n")
    log = "".join(f"epoch {k} loss {v}\n" for k, v in enumerate(["0.412", "0.211", "0.104", "0.061", "nan", "nan"], 1))
    d = diagnosis("SAM loss goes nan once the predictions get close, I already clamp the cosine.\n" + code + log)
    assert d.matches[0].entry.id == "WR-050" and d.matches[0].parts["sqrt-at-zero"] > 0


@OPT_IN
def test_pytorch_passes_the_gradient_at_the_clamps_bounds():
    got = run("torch", """
        import json, torch
        x = torch.tensor([1.0], requires_grad=True)
        torch.acos(torch.clamp(x, -1.0, 1.0)).sum().backward()
        y = torch.tensor([1.0], requires_grad=True)
        torch.acos(torch.clamp(y, -1 + 1e-7, 1 - 1e-7)).sum().backward()
        # (a prediction equal to its target: the -inf reaches it through the dot product and the norms, and meets)
        p = torch.ones(1, 4, requires_grad=True)
        c = torch.clamp((p * torch.ones(1, 4)).sum(1) / (p.norm(dim=1) * 2.0 + 1e-8), -1.0, 1.0)
        torch.acos(c).mean().backward()
        half = torch.clamp(torch.tensor([1.0], dtype=torch.float16), -1 + 1e-7, 1 - 1e-7).item()
        # (bfloat16 keeps 8 bits: 1 - 2**-11 is 1 there, 1 - 2**-8 is not)
        bf = [torch.tensor(1 - 2.0 ** -k, dtype=torch.bfloat16).item() for k in (11, 8)]
        print(json.dumps({"exact": str(x.grad.item()), "margin": y.grad.item(), "match": str(p.grad[0, 0].item()),
                          "half": half, "bf": bf, "version": torch.__version__}))
    """)
    assert got["version"].startswith("2.13.0") and got["exact"] == "-inf" and got["margin"] == 0.0
    assert got["match"] == "nan" and got["half"] == 1.0 and got["bf"][0] == 1.0 and got["bf"][1] < 1.0
