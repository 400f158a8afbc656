"""The share of a ReLU layer's outputs above 0, computed and printed by the paste at exactly 0: every unit of that layer
gave 0 for every input of the batch -- dead units, WR-140."""
from conftest import diagnosis
from trainwreck.frozen_said import dead_layer_printed

FASHION = ("Fashion-MNIST MLP, 784-256-128-10 with ReLU, SGD lr 0.5. It learned for a moment and then the loss sat at "
           "2.302 and the accuracy at 10% for every epoch after.\n\n"
           "```\nepoch 1 loss 1.0412 acc 0.6630\nepoch 2 loss 2.3026 acc 0.1000\nepoch 3 loss 2.3026 acc 0.1000\n"
           "epoch 4 loss 2.3026 acc 0.1000\nepoch 5 loss 2.3026 acc 0.1000\n```\n\n"
           "I checked the hidden layers on one batch:\n\n```python\nz1 = torch.relu(net.l1(xb))\n"
           "z2 = torch.relu(net.l2(z1))\nprint((z1 > 0).float().mean().item(), (z2 > 0).float().mean().item())\n"
           "SHARES\n```\n")


def test_a_relu_layers_share_of_outputs_above_zero_printed_at_zero_is_a_dead_layer():
    said = dead_layer_printed(FASHION.replace("SHARES", "0.0 0.0"))
    assert "`z1`'s outputs above 0 as 0.0" in said
    assert "`z2`" in dead_layer_printed(FASHION.replace("SHARES", "0.41 0.0"))
    # (a share above 0, however small, is units alive; a layer made by no ReLU is not read; an output count apart)
    for printed in ("0.41 0.37", "0.0012 0.0009", "0.0"):
        assert dead_layer_printed(FASHION.replace("SHARES", printed)) == "", printed
    # (a print that formats or rounds the share prints 0.00 for 0.004 too -- code_review_s75 6)
    shares = "(z1 > 0).float().mean().item(), (z2 > 0).float().mean().item()"
    for call, printed in (('f"{(z1 > 0).float().mean():.2f} {(z2 > 0).float().mean():.2f}"', "0.00 0.41"),
                          (f'"%.3f %.3f" % ({shares})', "0.000 0.412"),
                          ("round((z1 > 0).float().mean().item(), 2), (z2 > 0).float().mean().item()", "0.0 0.38"),
                          # (any other form or cast of it too -- reread_s75 5)
                          ('f"{(z1 > 0).float().mean():4.1f} {(z2 > 0).float().mean():4.1f}"', "0.0 0.4"),
                          ("np.around((z1 > 0).float().mean().item(), 1), (z2 > 0).float().mean().item()", "0.0 0.41"),
                          ("(z1 > 0).float().mean().half().item(), (z2 > 0).float().mean().item()", "0.0 0.41")):
        formatted = FASHION.replace(shares, call).replace("SHARES", printed)
        assert dead_layer_printed(formatted) == "", call
    # (the share at 0 printed as exactly 1.0 says the same; a comment after the print or its output is no matter)
    at_zero = FASHION.replace(shares, "(z1 == 0).float().mean().item(), (z2 == 0).float().mean().item()")
    assert "`z1`'s outputs at 0 as 1.0" in dead_layer_printed(at_zero.replace("SHARES", "1.0 0.62"))
    commented = FASHION.replace(f"{shares})", f"{shares})  # share alive").replace("SHARES", "0.0 0.0  # both dead?")
    assert "`z1`" in dead_layer_printed(commented)
    assert dead_layer_printed(FASHION.replace("SHARES", "0.0 0.0").replace("torch.relu", "torch.tanh")) == ""
    # (a ReLU module applied by name is a ReLU's output; a Linear layer fed a ReLU's output is not -- final_review_s75 2)
    module = FASHION.replace("z1 = torch.relu(net.l1(xb))", "act = nn.ReLU()\nz1 = act(net.l1(xb))")
    assert "`z1`" in dead_layer_printed(module.replace("SHARES", "0.0 0.41"))
    linear = FASHION.replace("z1 = torch.relu(net.l1(xb))", "z1 = net.l1(torch.relu(xb))")
    assert dead_layer_printed(linear.replace("SHARES", "0.0 0.41")) == ""
    d = diagnosis(FASHION.replace("SHARES", "0.0 0.0"))
    assert d.matches[0].entry.id == "WR-140" and d.matches[0].parts["dead-units-printed"] > 0
