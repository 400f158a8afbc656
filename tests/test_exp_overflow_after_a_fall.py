"""WR-020: training can carry exp's input to its limit with no overshoot -- a log-variance pulled down on points fit
exactly, with the loss falling right up to the nan -- and a softmax's common level, which its loss does not hold, fails
an unshifted softmax at either end. The readings of the code that show them: a log-variance sliced from a layer made and
called at once, a softmax by hand beside a log_softmax of something else, a logistic loss written by hand."""
import re

import numpy as np

from conftest import ROOT, diagnosis, weighed_parts
from trainwreck.breaking_constructs import breaking_construct

PAGE = (ROOT / "catalog" / "WR-020.md").read_text(encoding="utf-8")
LIMIT = float(np.log(np.finfo(np.float32).max))       # 88.72: float32's exp is inf past it


def test_a_log_variance_on_a_point_fit_exactly_falls_with_the_loss_until_its_exp_is_inf():
    """0.5 * (exp(-s) r^2 + s) has slope 0.5 in s where r = 0: plain gradient descent lowers s by 0.5 * lr at every
    step, the loss falls at every step, and the first nan comes at the first step whose s is below -88.72."""
    lr = np.float32(0.1)
    s, r = np.float32(0.0), np.float32(0.0)
    losses = []
    with np.errstate(over="ignore", invalid="ignore"):
        for _ in range(3000):
            precision = np.exp(-s)
            losses.append(np.float32(0.5) * (precision * r * r + s))
            if not np.isfinite(losses[-1]):
                break
            s = s - lr * np.float32(0.5) * (np.float32(1.0) - precision * r * r)
    first = next(k for k, v in enumerate(losses) if not np.isfinite(v))
    assert np.isnan(losses[first])                     # inf * 0
    assert all(b < a for a, b in zip(losses[:first - 1], losses[1:first]))
    # (the step where s, falling by 0.05 a step, first passes the limit: float32's own sum, not the exact one)
    assert -(0.5 * 0.1) * first < -LIMIT < -(0.5 * 0.1) * (first - 2)
    assert "has slope 0.5 in `log_var`\nwherever the residual `r` is exactly 0" in PAGE
    assert "Once `-log_var` passes 88.72, `exp(-log_var)` is inf in float32, and\ninf × `r**2`, inf × 0, is nan" in PAGE
    # (any other residual stops the fall at log r^2: gradient descent from 0 settles there -- code_review_s75 10)
    s, r = np.float32(0.0), np.float32(1e-3)
    for _ in range(3000):
        s = s - np.float32(0.05) * np.float32(0.5) * (np.float32(1.0) - np.exp(-s) * r * r)
    assert abs(float(s) - np.log(1e-6)) < 0.01
    assert f"`log_var = log r²`, {np.log(1e-6):.1f}".replace("-", "−") + " for r = 0.001" in PAGE
    # (above about 1e-19: below 5.4e-20, log r^2 is already past -88.72, and exp(-log_var) is inf first -- reread_s75 9)
    assert 2 * np.log(1e-19) > -LIMIT > 2 * np.log(5.4e-20)
    assert "Any other residual above about 1e-19 stops the fall" in PAGE
    # (the fix's library form: GaussianNLLLoss clamps the variance at eps = 1e-6, so a log-variance of -89 gives
    # 0.5 * log(1e-6); checked on PyTorch 2.13.0 in the opt-in tier)
    assert f"gives it a finite loss, {0.5 * np.log(1e-6):.2f}".replace("-", "−") in PAGE


def test_a_softmaxs_loss_does_not_hold_the_logits_common_level_and_an_unshifted_exp_overflows_as_it_drifts():
    """The loss is the same at z and z + c, its slope along the common level is 0, and a softmax by hand overflows in
    float32 once the largest logit passes 88.72 -- while the shifted one gives the same, finite, probabilities."""
    z = np.array([0.0, -1.0, -2.0], np.float32)

    def stable(v):
        e = np.exp(v - v.max())
        return e / e.sum()

    def by_hand(v):
        e = np.exp(v)
        return e / e.sum()

    assert abs(-np.log(stable(z)[0]) + np.log(stable(z + np.float32(50))[0])) < 1e-6
    assert abs(float((stable(z) - np.eye(3, dtype=np.float32)[0]).sum())) < 1e-6   # no slope along the level
    assert np.allclose(by_hand(z + np.float32(88)), stable(z), atol=1e-6)
    with np.errstate(over="ignore", invalid="ignore"):
        assert np.isnan(by_hand(z + np.float32(89))).any()
        # (and below about -104 every exp is 0: 0/0)
        assert np.exp(np.float32(-103)) > 0 and np.exp(np.float32(-105)) == 0
        assert np.isnan(by_hand(z - np.float32(105))).all()
    for shift in (89, -105):
        assert np.allclose(stable(z + np.float32(shift)), stable(z), atol=1e-6)
    assert "above 88.72 `exp` is inf,\nand with every logit below about −104 (about −87 where subnormal numbers\n" in PAGE
    # (flushed subnormals: the smallest normal float32 is e^-87.3 -- code_review_s75 11)
    assert round(float(np.log(np.finfo(np.float32).tiny))) == -87
    # (the page's temperature: dividing by 0.04 multiplies by 25, and the logit whose quotient passes the limit)
    assert f"(by {1 / 0.04:.0f} at 0.04), so the limit falls to a logit of\n88.72 × 0.04 = {LIMIT * 0.04:.2f}" in PAGE
    for cited in ("https://arxiv.org/abs/2204.02311", "https://arxiv.org/abs/2309.14322"):
        assert cited in PAGE


FALL = "".join(f"step {k * 100:5d} | loss {v}\n" for k, v in enumerate(
    ("6.92", "6.51", "6.20", "5.94", "5.73", "5.55", "5.41", "5.30", "5.22", "nan", "nan"), 1))

TEACHER = ("Self-distillation in JAX: the loss comes down steadily for hours, then one step is nan, and every one "
           "after it.\n\n```python\ndef distill_loss(student_logits, teacher_logits, center):\n"
           "    log_q = jax.nn.log_softmax(student_logits / 0.1, axis=-1)\n"
           "    w = jnp.exp((teacher_logits - center) / 0.04)\n"
           "    w = w / jnp.sum(w, axis=-1, keepdims=True)\n"
           "    return -jnp.mean(jnp.sum(jax.lax.stop_gradient(w) * log_q, axis=-1))\n```\n\n" + FALL)


def test_a_softmax_by_hand_is_read_beside_a_log_softmax_of_something_else():
    """The student's log_softmax shifts the student's logits, not the teacher's: the teacher's exp, divided by its own
    sum, is a softmax by hand, a suspect among the first three -- with no face of its own: nothing shown makes a falling
    loss take a softmax's logits to exp's limits."""
    assert "`jnp.exp((teacher_logits - center) / 0.04)`" in breaking_construct(TEACHER)["exp-unshifted"]
    d = diagnosis(TEACHER)
    first = [m.entry.id for m in d.matches[:3]]
    assert "WR-020" in first and "curve" not in d.matches[first.index("WR-020")].parts and d.verdict == "uncertain"
    # (an exp of the log_softmax's own output is a softmax, bounded: no construct)
    bounded = TEACHER.replace("jnp.exp((teacher_logits - center) / 0.04)", "jnp.exp(log_q)")
    assert "exp-unshifted" not in breaking_construct(bounded)
    # (nor an exp whose input has its largest taken away)
    shifted = TEACHER.replace("(teacher_logits - center) / 0.04",
                              "(teacher_logits - teacher_logits.max(-1, keepdims=True)) / 0.04")
    assert "exp-unshifted" not in breaking_construct(shifted)
    # (nor one less a name a shift's call made, now that a log_softmax elsewhere no longer hides every exp --
    # code_review_s75 4)
    for made in ("log_norm = torch.logsumexp(logits, -1, keepdim=True)\nprobs = torch.exp(logits - log_norm)\n"
                 "probs = probs / probs.sum(-1, keepdim=True)\n",
                 "m = scores.max(-1, keepdim=True).values\nw = torch.exp((scores - m) / tau)\nw = w / w.sum(-1, keepdim=True)\n",
                 # (indexed or through a method -- reread_s75 3)
                 "lse = torch.logsumexp(logits, -1)\np = torch.exp(logits - lse[:, None])\np = p / p.sum(-1, keepdim=True)\n",
                 "m = logits.max(-1).values\np = torch.exp(logits - m.detach().unsqueeze(-1))\np = p / p.sum(-1)\n"):
        assert "exp-unshifted" not in breaking_construct(made), made


MARGIN = ("My binary classifier with labels in {-1, +1}: the training loss falls for a long time, then it is inf, "
          "then nan.\n\n```python\ndef logistic_loss(scores, y):\n"
          "    return torch.log(1 + torch.exp(-y * scores)).mean()\n```\n\n" + FALL.replace("| loss nan\n", "| loss inf\n", 1))


def test_a_logistic_loss_by_hand_or_an_exponential_loss_is_a_suspect_with_no_face_of_its_own():
    """Their exps overflow at a margin past 88.72, a suspect; the fall before the inf is no face the page gives them.
    An exponential loss's `exp(-margin)` is a negated output too, but no Gaussian NLL's precision: a falling loss takes
    it toward 0 (code_review_s75 8; on 487960b its fall to nan was read as the face)."""
    assert "softplus by hand" in breaking_construct(MARGIN)["exp-unshifted"]
    d = diagnosis(MARGIN)
    first = [m.entry.id for m in d.matches[:3]]
    assert "WR-020" in first and "curve" not in d.matches[first.index("WR-020")].parts
    exponential = MARGIN.replace("def logistic_loss(scores, y):\n    return torch.log(1 + torch.exp(-y * scores)).mean()",
                                 "scores = model(x)\nmargin = scores[:, 0] * y\nloss = torch.exp(-margin).mean()")
    assert "`torch.exp(-margin)`" in breaking_construct(exponential)["exp-unshifted"]
    assert "curve" not in weighed_parts(exponential, "WR-020")


HEAD = ("Flax model with a mean and a log-variance output, Gaussian NLL. The NLL goes negative and keeps falling, then "
        "nan.\n\n```python\nclass Head(nn.Module):\n    @nn.compact\n    def __call__(self, h):\n"
        "        out = nn.Conv(2, (1, 1))(h)\n        return out[..., 0], out[..., 1]\n\n"
        "def nll(h, y):\n    out = nn.Conv(2, (1, 1))(h)\n    mean = out[..., 0]\n    log_var = out[..., 1]\n"
        "    return 0.5 * jnp.mean(jnp.exp(-log_var) * (y - mean) ** 2 + log_var)\n```\n\n"
        + "".join(f"step {k * 500:5d} loss {v}\n" for k, v in enumerate(
            ("0.41", "-1.83", "-5.02", "-9.77", "-14.6", "-19.1", "nan"), 1)))


def test_a_log_variance_sliced_from_a_layer_made_and_called_at_once_is_a_layers_output():
    """Flax's compact `nn.Conv(2, (1, 1))(h)` and Keras' functional `layers.Dense(2)(h)` are layers' outputs, and an
    index slice of one, alone, is a piece of it: exp(-log_var) is unbounded, and the fall to nan its face."""
    assert "`jnp.exp(-log_var)`" in breaking_construct(HEAD)["exp-unshifted"]
    assert diagnosis(HEAD).matches[0].entry.id == "WR-020"
    # (the NLL's split forms are its shape too: the log-variance summed apart, the square made on a line of its own --
    # reread_s75 6)
    from trainwreck.breaking_constructs import EXP_NEGATED
    for nll in ("    return (jnp.exp(-log_var) * (y - mean) ** 2).sum() + 0.5 * log_var.sum()",
                "    se = (y - mean) ** 2\n    return 0.5 * jnp.mean(jnp.exp(-log_var) * se + log_var)",
                "    d = y - mean\n    return 0.5 * jnp.mean(jnp.exp(-log_var) * d * d + log_var)"):
        split = HEAD.replace("    return 0.5 * jnp.mean(jnp.exp(-log_var) * (y - mean) ** 2 + log_var)", nll)
        assert EXP_NEGATED in breaking_construct(split), nll
    # (a log_softmax of something else in the paste hides no exp of a layer's output -- reread_s75 4)
    beside = HEAD.replace("def nll(h, y):", "def cls_loss(logits, c):\n    return -jnp.mean(jax.nn.log_softmax(logits)[c])\n\n"
                                            "def nll(h, y):")
    assert "`jnp.exp(-log_var)`" in breaking_construct(beside)["exp-unshifted"]
    keras = HEAD.replace("nn.Conv(2, (1, 1))(h)", "layers.Dense(2)(h)")
    assert "`jnp.exp(-log_var)`" in breaking_construct(keras)["exp-unshifted"]
    # (an affine of the slice is as unbounded, and a tuple's own part is read -- code_review_s75 9; a slice of the data
    # is no layer's output, nor is a slice a squashing function bounds)
    for made in ("log_var = out[..., 1] * 0.5 - 3", "mean, log_var = out[..., 0], out[..., 1]"):
        assert "`jnp.exp(-log_var)`" in breaking_construct(HEAD.replace("log_var = out[..., 1]", made))["exp-unshifted"]
    for made in ("log_var = y[..., 1]", "log_var = jnp.tanh(out[..., 1]) * 5"):
        other = HEAD.replace("log_var = out[..., 1]", made)
        assert not re.search(r"`jnp\.exp\(-log_var\)`.*layer", breaking_construct(other).get("exp-unshifted", "")), made


def test_the_face_a_construct_lends_the_curve_names_no_entry_either():
    """A construct of the pasted code orders the candidates and names none; the curve that counts for it only as the
    construct's face (the fall to nan, beside exp(-log_var)) is the construct's evidence too: first, but not named."""
    d = diagnosis(HEAD)
    assert d.matches[0].entry.id == "WR-020" and d.matches[0].parts["curve"] > 0 and d.verdict == "uncertain"
