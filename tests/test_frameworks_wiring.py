"""Wiring bugs diagnose reports as not covered, checked in PyTorch itself: what its explanation says happens.

Runs only with TRAINWRECK_FRAMEWORK_TESTS=1, in the scratch interpreter (/work/scratch/torch/bin/python, or
TRAINWRECK_TORCH_PYTHON). The program prints one JSON object on its last line.
"""
from framework_runner import OPT_IN, run


@OPT_IN
def test_an_optimizer_built_before_its_layer_was_replaced_never_updates_the_new_layer():
    """diagnose says: the optimizer holds the tensors that existed when it was built, so the new module's weights are
    in no parameter group and step() never changes them; built on the replaced module alone, it trains nothing, and
    the loss stays where the untrained layer puts it, near ln C when the features reaching it are of order 1."""
    out = run("torch", """
        import json, math, torch
        torch.manual_seed(0)
        backbone = torch.nn.Sequential(torch.nn.Linear(32, 64), torch.nn.ReLU())
        model = torch.nn.Sequential(backbone, torch.nn.Linear(64, 10))
        for p in model.parameters():
            p.requires_grad = False
        optimizer = torch.optim.Adam(model[1].parameters(), lr=1e-2)
        model[1] = torch.nn.Linear(64, 5)                  # the new head, after the optimizer was built
        before = model[1].weight.detach().clone()
        x, y = torch.randn(256, 32), torch.randint(0, 5, (256,))
        losses = []
        for step in range(50):
            optimizer.zero_grad()
            loss = torch.nn.functional.cross_entropy(model(x), y)
            loss.backward()
            optimizer.step()
            losses.append(loss.item())
        held = {id(p) for g in optimizer.param_groups for p in g["params"]}
        print(json.dumps({"unchanged": bool(torch.equal(model[1].weight, before)),
                          "has_grad": model[1].weight.grad is not None,
                          "held": any(id(p) in held for p in model[1].parameters()),
                          "first": losses[0], "last": losses[-1], "ln5": math.log(5)}))
    """)
    assert out["has_grad"] and out["unchanged"] and not out["held"]
    assert out["first"] == out["last"]                             # nothing learns: the same loss every step
    assert abs(out["last"] - out["ln5"]) < 0.1 * out["ln5"]        # about ln C for C = 5
