"""Opt-in: WR-020's fix for a predicted log-variance -- PyTorch's GaussianNLLLoss clamps the variance at eps, so where a
hand-written `exp(-log_var)` is inf and the loss nan, the library's loss stays finite."""
import math

from framework_runner import OPT_IN, run

pytestmark = OPT_IN


def test_gaussian_nll_loss_clamps_the_variance_that_exp_of_a_log_variance_would_overflow():
    out = run("torch", """
        import json, torch
        import torch.nn.functional as F
        r = torch.zeros(1)
        log_var = torch.tensor([-89.0])
        by_hand = 0.5 * (torch.exp(-log_var) * r ** 2 + log_var)
        library = F.gaussian_nll_loss(r, r, torch.exp(log_var))
        print(json.dumps({"by_hand": str(by_hand.item()), "library": library.item(),
                          "module": torch.nn.GaussianNLLLoss()(r, r, torch.exp(log_var)).item()}))
    """)
    assert out["by_hand"] == "nan"
    assert math.isclose(out["library"], 0.5 * math.log(1e-6), rel_tol=1e-6) and out["module"] == out["library"]
