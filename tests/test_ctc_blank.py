"""A character numbered as CTC's blank (s268/04): nn.CTCLoss keeps class 0 for its blank unless told otherwise, its
documentation says a target cannot be blank, and nothing checks it -- a character table numbered from 0 gives its first
character the blank's index, the loss reads it as the blank with no error, and the greedy decoder drops it from every
output (a space first in the table: words joined). WR-320's PyTorch part, read from the pasted code."""
import pytest

from conftest import assert_entry_says, diagnosis
from framework_runner import OPT_IN, run
from trainwreck.sequence_losses import ctc_blank_label

CODE = """    CHARS = " abcdefghijklmnopqrstuvwxyz'"
    char2idx = {c: i for i, c in enumerate(CHARS)}
    criterion = nn.CTCLoss(blank=0, zero_infinity=True)
"""


def test_the_blank_is_zero_by_default_by_keyword_with_spaces_and_by_place():
    for loss in ("nn.CTCLoss()", "nn.CTCLoss(blank = 0)", "F.ctc_loss(lp, tg, il, tl)", "F.ctc_loss(lp, tg, il, tl, 0)"):
        assert ctc_blank_label(CODE.replace("nn.CTCLoss(blank=0, zero_infinity=True)", loss)), loss


def test_a_table_from_zero_beside_a_blank_of_zero_is_the_blank_label():
    said = ctc_blank_label(CODE)
    assert "(`char2idx = {c: i for i, c in enumerate(CHARS)}`)" in said and "(`nn.CTCLoss(blank=0, zero_infinity=True)`)" in said
    d = diagnosis("CTC model: the words come out glued together, never a space. The loss goes down fine.\n" + CODE)
    assert d.matches[0].entry.id == "WR-320" and d.matches[0].parts["ctc-blank-label"] > 0
    assert_entry_says("WR-320", ['a target "cannot be blank"', "`enumerate(chars, start=1)`"])


@pytest.mark.parametrize("code", [
    CODE.replace("enumerate(CHARS)", "enumerate(CHARS, start=1)"),            # numbered from 1
    CODE.replace("{c: i for", "{c: i + 1 for"),                                # shifted by one
    CODE.replace("blank=0", "blank=len(CHARS)"),                               # the blank last
    CODE.replace("nn.CTCLoss(blank=0, zero_infinity=True)", "nn.CrossEntropyLoss()"),   # no CTC
    # (final_review_s72 2: a blank given by name or by place, and TensorFlow's loss, whose blank is its own)
    CODE.replace("blank=0, zero_infinity=True", "BLANK"),
    CODE.replace("nn.CTCLoss(blank=0, zero_infinity=True)", "tf.nn.ctc_loss(labels, logits, ll, gl, blank_index=-1)"),
    CODE.replace("nn.CTCLoss(blank=0, zero_infinity=True)", "F.ctc_loss(lp, tg, il, tl, BLANK)"),
])
def test_a_table_that_keeps_clear_of_the_blank_is_not_read(code):
    assert ctc_blank_label(code) == ""


@OPT_IN
def test_pytorch_takes_a_target_that_holds_the_blank_without_a_word():
    """The page's claim on PyTorch itself: finite loss and gradients, no error, for targets holding the blank; and the
    documentation's sentence at the line the page links."""
    got = run("torch", """
        import json, torch, torch.nn as nn
        import torch.nn.modules.loss as L
        torch.manual_seed(0)
        lp = torch.randn(30, 2, 5).log_softmax(2).requires_grad_()
        targets = torch.tensor([[1, 0, 2, 0, 3, 1], [2, 2, 0, 1, 3, 4]])
        loss = nn.CTCLoss(blank=0)(lp, targets, torch.full((2,), 30), torch.full((2,), 6))
        loss.backward()
        print(json.dumps({"loss": loss.item(), "finite": bool(torch.isfinite(lp.grad).all()),
                          "line": open(L.__file__).read().splitlines()[2183], "version": torch.__version__}))
    """)
    assert got["version"].startswith("2.13.0") and got["finite"] and 0 < got["loss"] < 1e3
    assert "And the target index cannot be blank (default=0)." in got["line"]
