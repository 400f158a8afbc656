"""A log-space error written by hand takes the log of the targets as they are: a target of exactly 0 makes it -inf."""
from conftest import diagnosis
from trainwreck.breaking_constructs import breaking_construct

SNOW = ("Snow depth regression in PyTorch, I compare in log space since depths are skewed. The loss is inf from the "
        "first batch, nan after it.\n\n```python\ndef log_error(pred, target):\n"
        "    return torch.mean((torch.log(pred) - torch.log(target)) ** 2)\n\n"
        "pred = F.softplus(net(x))\nloss = log_error(pred, y)\n```\n\n"
        "```\nepoch 1 batch 0 loss inf\nepoch 1 batch 1 loss nan\nepoch 1 batch 2 loss nan\n```\n")


def test_a_log_of_the_targets_as_they_are_is_a_log_that_a_target_of_zero_breaks():
    assert "`torch.log(target)`" in breaking_construct(SNOW)["log-unguarded"]
    for name in ("y", "y_true", "targets", "y_train"):
        assert "log of the targets" in breaking_construct(SNOW.replace("torch.log(target)", f"torch.log({name})"))[
            "log-unguarded"], name
    # (guarded, or of the predictions: not this reading)
    for guarded in ("torch.log(target + 1)", "torch.log(target + 1e-6)", "torch.log1p(target)",
                    "torch.log(target.clamp(min=1e-6))"):
        assert "log of the targets" not in breaking_construct(SNOW.replace("torch.log(target)", guarded)).get(
            "log-unguarded", ""), guarded
    assert "log of the targets" not in breaking_construct(SNOW.replace("torch.log(target)", "torch.log(y_pred)")).get(
        "log-unguarded", "")
    # (a name made by the model, a layer or a squashing function is a prediction; a target kept off 0 before the log
    # is guarded -- code_review_s75 3)
    for made in ("y = model(x)\nlog_pred = torch.log(y)\n", "y = F.softplus(net(x))\nd = torch.log(y) - torch.log1p(t)\n",
                 "target = target.clamp(min=1e-3)\nloss = (torch.log(pred) - torch.log(target)).pow(2).mean()\n",
                 # (or one step further back: a piece, a field or an affine of the model's output -- reread_s75 2)
                 "out = model(x)\ny = out[:, 0]\nd = torch.log(y)\n", "outputs = model(x)\ny = outputs.logits\nd = torch.log(y)\n",
                 "pred = model(x)\ny = pred * std + mean\nd = torch.log(y)\n"):
        assert "log of the targets" not in breaking_construct(made).get("log-unguarded", ""), made
    d = diagnosis(SNOW)
    assert "WR-030" in [m.entry.id for m in d.matches[:3]] and d.matches[
        [m.entry.id for m in d.matches].index("WR-030")].parts["log-unguarded"] > 0
