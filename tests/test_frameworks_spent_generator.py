"""Opt-in: WR-240's clip handed a spent generator, checked in the real PyTorch (2.13.0 here).

`params = model.parameters()` given to an optimizer and then to clip_grad_norm_: the optimizer's constructor listed
the generator, so the clip finds no tensors, warns once with the message WR-240 declares, returns 0 and leaves the
gradients as they were; clip_grad_value_ raises instead. The cited lines are the installed package's.
Runs only with TRAINWRECK_FRAMEWORK_TESTS=1, in the scratch interpreters (tests/framework_runner.py).
"""
from conftest import assert_entry_says
from framework_runner import OPT_IN, declared, run, source_line

pytestmark = OPT_IN


def test_a_clip_handed_the_generator_an_optimizer_used_up_clips_nothing_and_warns_once():
    out = run("torch", """
        import json, warnings, torch
        torch.manual_seed(0)
        model = torch.nn.Linear(3, 1)
        params = model.parameters()
        opt = torch.optim.SGD(params, lr=0.1)
        norms, unchanged = [], []
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("default")
            for step in range(3):
                opt.zero_grad()
                (100 * model(torch.randn(4, 3))).pow(2).mean().backward()
                before = model.weight.grad.clone()
                norms.append(float(torch.nn.utils.clip_grad_norm_(params, max_norm=1.0)))
                unchanged.append(bool(torch.equal(before, model.weight.grad)) and float(before.norm()) > 1.0)
                opt.step()
        try:
            torch.nn.utils.clip_grad_value_(params, 0.1)
            value = None
        except RuntimeError as e:
            value = type(e).__name__
        print(json.dumps({"warned": [(c.category.__name__, str(c.message)) for c in caught], "norms": norms,
                          "unchanged": unchanged, "value": value}))
    """)
    (quoted,) = [m for m in declared("WR-240", "pytorch") if "empty generator" in m.text]
    assert out["warned"] == [["UserWarning", quoted.text]]            # once, for the line that calls it
    assert out["norms"] == [0.0, 0.0, 0.0] and out["unchanged"] == [True, True, True]
    assert out["value"] == "RuntimeError"
    assert quoted.source.endswith("/v2.13.0/torch/nn/utils/clip_grad.py#L226")
    assert source_line("torch", "torch/nn/utils/clip_grad.py", 226).strip() == f'"{quoted.text}",'
    assert source_line("torch", "torch/nn/utils/clip_grad.py", 82).strip() == "return torch.tensor(0.0)"
    assert source_line("torch", "torch/optim/optimizer.py", 398).strip() == "param_groups = list(params)"
    assert_entry_says("WR-240", ["returns a norm of 0 at every step", "warns, once for the line that calls it",
                                 "clip_grad_value_ handed the same spent generator raises a RuntimeError instead."])
