"""Weights that turn nan under a loss that stays finite (s266/10): the nan is not in the curve -- the run's own check
stopped it at the first nan weight -- so a short finite log beside those words is no healthy run; and a square root
of a name the code assigns from a sum of squares (`torch.sqrt(mse_per_sku)`) meets 0 as the same sum written inline
does, its slope there inf, WR-050's construct."""
import pytest

from conftest import diagnosis
from trainwreck.breaking_constructs import breaking_construct
from trainwreck.run_said import weights_nonfinite_said

CODE = """```python
def masked_rmse(pred, target, mask):
    se = ((pred - target) * mask) ** 2
    mse_per_sku = se.sum(dim=1) / mask.sum(dim=1).clamp(min=1)
    return torch.sqrt(mse_per_sku).mean()
```
"""
LOG = """```
step 0: loss=1.4262
step 100: loss=0.9137
step 200: loss=0.8419
step 300: loss=0.8150
step 400: loss=0.7962
step 437: loss=0.7818, non-finite params: ['gru.weight_ih_l0', 'decoder.weight', 'decoder.bias']
```
"""


@pytest.mark.parametrize("words, said", [
    ("Weights turn into NaN after optimizer.step() even though the loss is finite", "weights turn into nan"),
    ("after the step every parameter is NaN", "parameter is nan"),
    ("I get NaN gradients from the second batch", "nan gradients"),
    ("the grads are not nan, I checked", ""),
    ("no NaN gradients at all", ""),
    ("the loss is nan but the weights are fine", ""),
    ("are the gradients nan?", ""),
])
def test_words_that_the_weights_or_gradients_turned_nonfinite(words, said):
    assert weights_nonfinite_said(words) == said


def test_a_square_root_of_a_name_assigned_from_a_sum_of_squares_can_meet_zero():
    said = breaking_construct(CODE)["sqrt-at-zero"]
    assert "(`torch.sqrt(mse_per_sku)`, where `mse_per_sku = se.sum(dim=1) / mask.sum(dim=1).clamp(min=1)`)" in said
    # (an eps added to what the name holds keeps it off 0; a size is never 0 in a way that matters; the clamp on the
    # divisor guards the division, not the quotient)
    assert "sqrt-at-zero" not in breaking_construct(CODE.replace(".clamp(min=1)\n", ".clamp(min=1) + 1e-8\n"))
    assert "sqrt-at-zero" not in breaking_construct(CODE.replace("mse_per_sku = se.sum(dim=1) /",
                                                                 "mse_per_sku = se.sum(dim=1) + 1e-8 /"))
    assert "sqrt-at-zero" not in breaking_construct("n = x.shape[0]\nscale = torch.sqrt(n)\n")


# (the same log without its own line of non-finite parameters: only the words can say the weights broke)
PLAIN_LOG = LOG.replace(", non-finite params: ['gru.weight_ih_l0', 'decoder.weight', 'decoder.bias']", "")
WORDS = "Weights turn into NaN after optimizer.step() even though the loss is finite"


def test_a_finite_short_log_beside_nan_weights_names_the_singular_slope():
    d = diagnosis(WORDS + "\n" + CODE + LOG)
    assert d.verdict != "healthy" and d.matches[0].entry.id == "WR-050"
    # (the words alone make the finite log no healthy run; without them, code and log are judged by the values alone)
    assert diagnosis(WORDS + "\n" + PLAIN_LOG).verdict == "uncertain"
    assert diagnosis(CODE + PLAIN_LOG).verdict == "healthy"
    assert diagnosis(WORDS + "\n" + CODE + PLAIN_LOG).matches[0].entry.id == "WR-050"


@pytest.mark.parametrize("words, said", [
    ("WARNING non-finite loss at ep 3 it 2731, skipping (sample ids: 18 of 128)", "non-finite loss at ep 3 it 2731, skipping"),
    ("skipping batch 412: loss is nan", "skipping batch 412: loss is nan"),
    ("I have a guard that skips the step when the loss is non-finite", "skips the step when the loss is non-finite"),
    ("no nan loss was skipped", ""),
    ("we skip nothing, the loss is fine", ""),
])
def test_a_nonfinite_loss_that_a_guard_skipped(words, said):
    from trainwreck.run_said import nonfinite_skipped
    assert nonfinite_skipped(words) == said


def test_skipped_nan_batches_beside_a_window_standardised_by_its_own_std_name_the_division():
    """(s274/12) The printed curve is finite because a guard dropped the batches that were not: a run gone wrong there,
    and each window divided by its own unguarded std is where a window of equal values (a car standing still) breaks."""
    code = ("```python\ndef norm_window(w):\n    # we normalise per window\n    mu = w.mean(dim=0, keepdim=True)\n"
            "    sd = w.std(dim=0, keepdim=True)\n    return (w - mu) / sd\n```\n")
    log = ("ep 3 it 2600 loss 0.2143\nep 3 it 2700 loss 0.2087\n"
           "WARNING non-finite loss at ep 3 it 2731, skipping\nep 3 it 2800 loss 0.2119\nep 3 it 2900 loss 0.2175\n")
    words = "Random NaN batches since we added the city drives.\n"
    d = diagnosis(words + code + log)
    assert d.verdict != "healthy" and d.matches[0].entry.id == "WR-060"
    assert d.matches[0].parts["item-std-unguarded"] > 0
    assert diagnosis(words + code + log.replace("WARNING non-finite loss at ep 3 it 2731, skipping\n", "")).verdict == "healthy"


@pytest.mark.parametrize("words", [
    "I clip the gradients to avoid inf gradients", "I added a check for NaN gradients",
    "I registered a hook that catches NaN gradients; it never fired", "the params are nan-free",
    "how do I check if the gradients are nan",
])
def test_a_nan_looked_for_or_kept_away_is_none_seen(words):
    """code_review_s72 11: a check's object, a thing avoided, a question of how to look, or "nan-free"."""
    assert weights_nonfinite_said(words) == ""


def test_a_skip_line_is_read_within_its_own_field_and_not_from_code():
    """code_review_s72 1 and 13: Megatron's `number of skipped iterations: 0 | number of nan iterations: 0` says none was
    skipped (every sample log of the dialect); a guard's print template in the pasted code is no line the run printed;
    "loss is not finite, skipping" is a skip."""
    from pathlib import Path
    from trainwreck.run_said import nonfinite_skipped
    samples = sorted((Path(__file__).parent / "logs" / "megatron").glob("*.log"))
    assert samples and all(nonfinite_skipped(s.read_text()) == "" for s in samples)
    assert nonfinite_skipped('    if not torch.isfinite(loss):\n        print(f"non-finite loss at it {it}, skipping")\n') == ""
    assert nonfinite_skipped("WARNING loss is not finite at ep 3 it 2731, skipping") \
        == "loss is not finite at ep 3 it 2731, skipping"


def test_the_square_roots_guard_may_come_on_a_later_line_or_after_the_division():
    """code_review_s72 6 and 7: the name's last assignment before the call is the one read (a clamp on its own line, or
    in place, guards it); an eps added after the divisor guards the quotient; the divisor alone does not."""
    pairwise = "d2 = ((x[:, None] - y[None]) ** 2).sum(-1)\n"
    assert "sqrt-at-zero" in breaking_construct(pairwise + "out = torch.sqrt(d2)\n")
    assert "sqrt-at-zero" not in breaking_construct(pairwise + "d2 = d2.clamp(min=1e-12)\nout = torch.sqrt(d2)\n")
    assert "sqrt-at-zero" not in breaking_construct(pairwise + "d2.clamp_(min=1e-12)\nout = torch.sqrt(d2)\n")
    divided = "d2 = ((x[:, None] - y[None]) ** 2).sum(-1) / x.shape[-1]"
    assert "sqrt-at-zero" in breaking_construct(divided + "\nout = torch.sqrt(d2)\n")
    assert "sqrt-at-zero" not in breaking_construct(divided + " + 1e-8\nout = torch.sqrt(d2)\n")
