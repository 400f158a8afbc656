"""WR-060's spread of one value: an unbiased standard deviation divides by n - 1, which is 0/0 for one value, so
`(a - a.mean()) / (a.std() + eps)` is nan whatever the eps. PyTorch warns that the degrees of freedom are <= 0; the
page declares that warning, and diagnose reads it (s260/01: a PPO rollout of 2113 steps in minibatches of 64 leaves
one of a single step). Printed beside a loss that stayed finite and fell, the warning says the nan went nowhere the
loss reaches (a one-frame segment's pooled statistic): a normal answer, as an exp's overflow is there."""
import warnings

import numpy as np
import pytest

from conftest import assert_entry_says, diagnosis, real_catalog
from framework_runner import OPT_IN, run
from trainwreck.entry import template_pattern

WARNING = ("std(): degrees of freedom is <= 0. Correction should be strictly less than the reduction factor "
           "(input numel divided by output numel).")
TRACE = ("UserWarning: " + WARNING + " (Triggered internally at ../aten/src/ATen/native/ReduceOps.cpp:1807.)\n"
         "  adv = (adv - adv.mean()) / (adv.std() + 1e-8)\n")


def test_one_value_has_an_unbiased_spread_of_nan_and_eps_does_not_mend_it():
    """The mechanism the page gives, in NumPy: ddof=1 over one value is 0/0 with NumPy's own warning, and nan + eps
    is nan; ddof=0 (NumPy's default) is 0, and the same line gives 0."""
    a = np.array([0.7])
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        unbiased = np.std(a, ddof=1)
    assert np.isnan(unbiased) and np.isnan((a - a.mean()) / (unbiased + 1e-8)).all()
    assert "Degrees of freedom <= 0 for slice" in [str(w.message) for w in caught]
    assert np.std(a) == 0.0 and ((a - a.mean()) / (np.std(a) + 1e-8) == 0.0).all()
    assert_entry_says("WR-060", ["Bessel's correction", "nan + 1e-8 is nan", "Degrees of freedom <= 0 for slice",
                                 "2113 steps cut into", "correction=1"])


def test_the_warning_is_declared_and_its_value_is_the_function_not_the_line_before_it():
    """A template whose first value is glued to its text takes one word there: searched in a warning's line, the
    general value would have run back to the file and the category."""
    declared = [m for m in real_catalog().entries["WR-060"].messages if "degrees of freedom" in m.text]
    assert declared and declared[0].matches(WARNING) and declared[0].matches(WARNING.replace("std()", "var()"))
    line = "/home/jk/rl/ppo.py:137: UserWarning: " + WARNING
    assert template_pattern(declared[0].text).search(line).group(0) == WARNING
    # (a first value followed by a space keeps the general value: a check_numerics message of several words)
    assert template_pattern("{} : Tensor had {} values").search("bad input : Tensor had NaN values").group(0) \
        == "bad input : Tensor had NaN values"


def test_the_warning_beside_nan_logits_names_the_normalisation():
    d = diagnosis("PPO crashes with nan logits at a random update\n"
                  "update  36 | pi_loss -0.0094 | v_loss  571.90\n/home/u/ppo.py:137: " + TRACE +
                  "ValueError: Expected parameter logits (Tensor of shape (64, 4)) of distribution Categorical(logits: "
                  "torch.Size([64, 4])) to satisfy the constraint IndependentConstraint(Real(), 1), but found invalid "
                  "values:\ntensor([[nan, nan, nan, nan]])\n")
    assert d.matches[0].entry.id == "WR-060"
    assert any("std(): degrees of freedom is <= 0" in e for e in d.matches[0].evidence)
    assert d.matches[0].fix.startswith("A spread of one value:")


@pytest.mark.parametrize("losses, verdict", [
    ([0.9, 0.7, 0.55, 0.45, 0.4, 0.36, 0.33, 0.31, 0.3, 0.29, 0.28], "normal"),     # finite and falling: harmless
    # (printed right before the loss turned nan: the nan reached it)
    ([0.9, 0.7, 0.55, 0.45, 0.4, 0.36, 0.33, 0.31, float("nan"), float("nan"), float("nan")], None),
])
def test_beside_a_finite_falling_loss_the_warning_is_harmless(losses, verdict):
    log = "".join(f"epoch {i + 1} loss {v}\n" + ("/x/pooling.py:104: " + TRACE if i == 7 else "")
                  for i, v in enumerate(losses))
    d = diagnosis(log)
    if verdict:
        assert d.verdict == verdict and d.normal[0].name == "a spread of one value beside a finite loss"
    else:
        assert d.verdict != "normal" and "WR-060" in [m.entry.id for m in d.matches[:3]]


@OPT_IN
def test_pytorch_warns_and_gives_nan_for_one_value_and_zero_without_the_correction():
    """The page's PyTorch claims, on PyTorch itself: the warning word for word (std and var), nan with eps added, and
    0 from correction=0 and from unbiased=False."""
    got = run("torch", """
        import json, warnings, torch
        a = torch.tensor([0.7])
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            s, v = a.std(), a.var()
        print(json.dumps({"warnings": [str(w.message) for w in caught], "std": str(s.item()),
                          "safe": str(((a - a.mean()) / (a.std() + 1e-8)).item()),
                          "pop": a.std(correction=0).item(), "old": a.std(unbiased=False).item(),
                          "version": torch.__version__}))
    """)
    assert got["version"].startswith("2.13.0")
    assert got["std"] == "nan" and got["safe"] == "nan" and got["pop"] == 0.0 and got["old"] == 0.0
    declared = [m for m in real_catalog().entries["WR-060"].messages if "degrees of freedom" in m.text][0]
    assert [w.split(" (Triggered internally")[0] for w in got["warnings"]] == [WARNING, WARNING.replace("std()", "var()")]
    assert all(declared.matches(w.split(" (Triggered internally")[0]) for w in got["warnings"])
    # (the line the source link cites is the one the warning names as where it was raised)
    assert all("ReduceOps.cpp:1861" in w for w in got["warnings"])
