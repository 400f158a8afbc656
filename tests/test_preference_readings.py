"""Preference tuning and semi-supervised training, as their logs and loops print them: DPO's summed log-probabilities
and implicit rewards, a PPO run whose printed reward falls, a consistency loss under a ramped weight, a second
optimizer never cleared, Accelerate's backward(), a loss tag after a training prefix (`train/loss_x`); and, beside them,
what each must leave alone."""
import pytest

from conftest import context_of, diagnosis
from trainwreck.gradient_clearing import optimizer_never_cleared
from trainwreck.normals import normals_asked

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
    # (a preference accuracy below chance, a margin flat at 0, a rejected answer rising, a win rate that dropped, an
    # objective that averages per token)
    ("DPOTrainer: rewards/chosen keeps going down and rewards/accuracies sits at 0.35. Is that ok?", False),
    ("DPOTrainer: rewards/chosen is going down and rewards/margins stays at 0 the whole run. Is that ok?", False),
    ("DPOTrainer: rewards/chosen falls while the rejected answers get higher log probs. Is that ok?", False),
    ("DPOTrainer: rewards/chosen falls and our win rate dropped by 5 points. Is that ok?", False),
    ("SimPO with TRL: logps/chosen is about -1.2 and falling. Is that ok?", False),
    # (DPO only planned: no run whose numbers are asked about)
    ("I plan to try DPO next; my SFT log probs are negative. Aren't log probs between 0 and 1?", False),
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
    # (a noisy fall too; and the answer that a negative loss is normal steps aside for it as well)
    noisy = rows.replace("1.93", "2.05")
    assert RL not in names(ask + noisy)
    assert "negative loss" not in names(ask + noisy + "step 4: env/reward_mean 0.71 ppo/loss/policy -0.040\n")


# --- a consistency loss under a ramped weight ---

@pytest.mark.parametrize("text, asked", [
    ("Temporal ensembling with consistency_rampup=80: the consistency loss has gone up every epoch while the class "
     "loss fell and accuracy rose. Diverging?", True),
    ("The unsupervised weight ramps up over 50 epochs and the unsupervised loss keeps increasing. Bug?", True),
    # (the supervised side said to get worse)
    ("consistency_rampup=80, and the consistency cost went up, but the accuracy dropped from 70% to 40%. Bug?", False),
    ("The consistency loss went up. Bug?", False),           # (no ramp-up named)
    # (a rise after the ramp-up ended, an accuracy that stays put, a loss that exploded, and no question at all)
    ("consistency_rampup=5. The ramp-up ended at epoch 5, but the consistency loss keeps increasing. Expected?", False),
    ("consistency ramp-up over 80 epochs: the consistency loss rises and the accuracy stays at 10%. Broken?", False),
    ("sigmoid_rampup of 80 epochs: the unsupervised loss went up and the total loss exploded to 1e5. Why?", False),
    ("consistency_rampup=80 and the consistency loss went up every epoch.", False),
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
    # (nor in a loop the paste marks as cut: the clearing may be what it left out)
    cut = loop.replace("    accelerator.backward(loss)\n", "    ...\n    accelerator.backward(loss)\n")
    assert "never-cleared" not in context_of("The loss falls fast and then climbs.\n" + cut + curve).printed


def test_a_second_optimizer_stepped_and_never_cleared_is_found():
    gan = ("opt_g.zero_grad()\n(g_loss + d_loss).backward()\nopt_g.step()\nopt_d.step()\n")
    assert optimizer_never_cleared(gan) == ("opt_d", "opt_g")
    assert optimizer_never_cleared(gan.replace("opt_g.zero_grad()", "opt_g.zero_grad()\nopt_d.zero_grad()")) is None
    # (a module's own zero_grad clears its parameters, whichever optimizer steps them; a scheduler is no optimizer)
    assert optimizer_never_cleared(gan + "disc.zero_grad()\n") is None
    assert optimizer_never_cleared("opt.zero_grad()\nloss.backward()\nopt.step()\nsched_opt.step()\n") is None
    # (an average of the weights with a step() of its own, MixMatch's WeightEMA, takes no gradient)
    assert optimizer_never_cleared("optimizer.zero_grad()\nloss.backward()\noptimizer.step()\nema_optimizer.step()\n") is None


# --- a loss tag after a training prefix ---

@pytest.mark.parametrize("key, read", [("train/loss_x", True), ("train_loss_x", True), ("val/loss_x", False)])
def test_a_loss_tag_after_a_training_prefix_is_read(key, read):
    bar = "".join(f"Epoch {e}: 100%|##########| 500/500 [01:00<00:00, 8.3it/s, v_num=3, {key}={v}, train/mask=0.1]\n"
                  for e, v in enumerate(("2.210", "1.480", "0.912")))
    assert (context_of(bar).ev.count == 3) is read


# --- a score said to rise, and a loss that is not one ---

def test_a_win_rate_or_a_probability_that_goes_up_is_no_climb_but_a_negative_log_likelihood_that_goes_up_is():
    from trainwreck.diagnose import SCORE_RISES

    assert SCORE_RISES.search("the win rate did go up 6 points")
    assert SCORE_RISES.search("shouldn't the probability of the chosen answers go up?")
    assert not SCORE_RISES.search("the negative log-likelihood keeps going up")
    assert not SCORE_RISES.search("the probability of the rejected answers goes up")


# --- a skipped step's nan gradient norm; nuScenes' nan cells ---

def test_a_skipped_steps_nan_gradient_norm_is_what_the_skip_normal_accounts_for():
    log = ("[INFO] [deepspeed] OVERFLOW! Rank 0 Skipping step. Attempted loss scale: 65536, reducing to 32768\n"
           "[INFO] [deepspeed] OVERFLOW! Rank 0 Skipping step. Attempted loss scale: 32768, reducing to 16384\n")
    ask = ("fp16 finetune: these lines at the start only, and the grad_norm panel shows nan for those two steps. "
           "Should I worry?\n")
    d = diagnosis(ask + log)
    assert d.verdict == "normal" and d.normal[0].name == "skipped steps under dynamic loss scaling"
    # (a nan of the loss itself is another matter: half precision's failure, named)
    loss_nan = diagnosis(ask.replace("the grad_norm panel shows nan", "the loss shows nan") + log)
    assert loss_nan.verdict == "failure" and loss_nan.matches[0].entry.id == "WR-040"


NUSCENES = ("mAP: 0.5912\nNDS: 0.6649\nObject Class\tAP\tATE\tASE\tAOE\tAVE\tAAE\n"
            "car\t0.845\t0.178\t0.151\t0.061\t0.264\t0.190\n"
            "traffic_cone\t0.690\t0.131\t0.313\tnan\tnan\tnan\nbarrier\t0.675\t0.195\t0.283\t0.067\tnan\tnan\n")


def test_nuscenes_nan_cells_for_cones_and_barriers_are_the_devkits_and_a_nan_elsewhere_is_not():
    name = "nuScenes detection evaluation's nan errors for traffic cones and barriers, by design"
    assert name in names("Is my model outputting nan?\n" + NUSCENES)
    assert name not in names("Is my model outputting nan?\n" + NUSCENES.replace("0.264\t0.190", "nan\t0.190"))
    assert name not in names("The train loss is nan since epoch 3.\n" + NUSCENES)
