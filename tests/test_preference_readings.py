"""Preference tuning and semi-supervised training, as their logs and loops print them: DPO's summed log-probabilities
and implicit rewards, a PPO run whose printed reward falls, a consistency loss under a ramped weight, a second
optimizer never cleared, Accelerate's backward(), a loss tag after a training prefix (`train/loss_x`), and a loss named
only in a general claim the report asks about."""
import pytest

from conftest import context_of, diagnosis
from trainwreck.gradient_clearing import optimizer_never_cleared
from trainwreck.normals import normals_asked
from trainwreck.run_said import loss_kind

DPO = "DPO's logged log-probabilities and rewards, summed over a response and free to fall together"
RAMP = "a consistency loss whose weight ramps up, as Mean Teacher's and Temporal Ensembling's do"
RL = "a reinforcement-learning loss, which says nothing of progress"


def names(text: str) -> list[str]:
    return [n.name for n in normals_asked(text)]


# --- DPO's numbers ---

@pytest.mark.parametrize("text, asked", [
    ("DPOTrainer prints logps/chosen around -410 every step. Aren't log probs between 0 and 1?", True),
    ("With DPO, rewards/chosen keeps going down while rewards/margins grows. Is the model unlearning the good answers?",
     True),
    # (the log's own numbers, asked nothing about them)
    ("DPO run: {'loss': 0.41, 'rewards/chosen': 0.92, 'logps/chosen': -188.2}. Why did training take 9 hours?", False),
    # (the margin said to fall, or the model said to have got worse: no reading of the numbers answers that)
    ("DPO: rewards/chosen is going down and the margins are decreasing too. Is that expected?", False),
    ("DPO: logps/chosen keeps falling and the model got worse in our blind eval. Is that expected?", False),
])
def test_dpos_summed_log_probabilities_and_falling_chosen_reward_are_answered(text, asked):
    assert (DPO in names(text)) is asked


# --- a PPO run whose printed mean reward falls ---

def test_the_rl_answer_steps_aside_for_a_printed_reward_that_fell_or_outputs_that_degenerated():
    rows = "".join(f"step {k}: env/reward_mean {r} ppo/loss/policy {p}\n"
                   for k, (r, p) in enumerate((("3.10", "0.012"), ("2.71", "-0.020"), ("1.93", "0.051"),
                                                ("0.88", "0.094"))))
    ask = "My PPO policy loss goes negative, is the policy loss broken?\n"
    assert RL not in names(ask + rows)
    assert RL in names(ask + rows.replace("1.93", "3.30").replace("0.88", "3.52"))
    assert RL not in names(ask + "The samples are now gibberish.")


# --- a consistency loss under a ramped weight ---

@pytest.mark.parametrize("text, asked", [
    ("Temporal ensembling with consistency_rampup=80: the consistency loss has gone up every epoch while the class "
     "loss fell and accuracy rose. Diverging?", True),
    ("The unsupervised weight ramps up over 50 epochs and the unsupervised loss keeps increasing. Bug?", True),
    # (the supervised side said to get worse)
    ("consistency_rampup=80, and the consistency cost went up, but the accuracy dropped from 70% to 40%. Bug?", False),
    ("The consistency loss went up. Bug?", False),           # (no ramp-up named)
])
def test_a_consistency_term_rising_under_its_ramp_up_is_answered(text, asked):
    assert (RAMP in names(text)) is asked


# --- gradients never cleared ---

def test_accelerates_backward_with_no_zero_grad_anywhere_is_a_loop_that_never_clears():
    loop = ("for step, batch in enumerate(dl):\n    loss = model(**batch).loss\n    accelerator.backward(loss)\n"
            "    optimizer.step()\n    scheduler.step()\n")
    curve = "".join(f"step {k * 10} loss {v}\n" for k, v in enumerate((2.1, 1.4, 1.2, 1.9, 3.3, 6.0)))
    assert "never-cleared" in context_of("The loss falls fast and then climbs.\n" + loop + curve).printed
    cleared = loop.replace("    optimizer.step()\n", "    optimizer.step()\n    optimizer.zero_grad()\n")
    assert "never-cleared" not in context_of("The loss falls fast and then climbs.\n" + cleared + curve).printed


def test_a_second_optimizer_stepped_and_never_cleared_is_found():
    gan = ("opt_g.zero_grad()\n(g_loss + d_loss).backward()\nopt_g.step()\nopt_d.step()\n")
    assert optimizer_never_cleared(gan) == ("opt_d", "opt_g")
    assert optimizer_never_cleared(gan.replace("opt_g.zero_grad()", "opt_g.zero_grad()\nopt_d.zero_grad()")) is None
    # (a module's own zero_grad clears its parameters, whichever optimizer steps them; a scheduler is no optimizer)
    assert optimizer_never_cleared(gan + "disc.zero_grad()\n") is None
    assert optimizer_never_cleared("opt.zero_grad()\nloss.backward()\nopt.step()\nsched_opt.step()\n") is None


# --- a loss tag after a training prefix ---

@pytest.mark.parametrize("key, read", [("train/loss_x", True), ("train_loss_x", True), ("val/loss_x", False)])
def test_a_loss_tag_after_a_training_prefix_is_read(key, read):
    bar = "".join(f"Epoch {e}: 100%|##########| 500/500 [01:00<00:00, 8.3it/s, v_num=3, {key}={v}, train/mask=0.1]\n"
                  for e, v in enumerate(("2.210", "1.480", "0.912")))
    assert (context_of(bar).ev.count == 3) is read


# --- a loss named only in a general claim ---

@pytest.mark.parametrize("text, kind", [
    ("A cross-entropy can't be negative, right? So where does the minus come from?", ""),
    ("Isn't it true that BCE is never negative?", ""),
    ("My BCE loss is negative, is that possible?", "bounded"),
    ("My cross-entropy loss can't be negative, can it?", "bounded"),
    ("I train with nn.CrossEntropyLoss and the loss is -0.3.", "bounded"),
])
def test_a_loss_named_in_a_general_claim_asked_about_is_not_the_runs(text, kind):
    assert loss_kind(text) == kind
