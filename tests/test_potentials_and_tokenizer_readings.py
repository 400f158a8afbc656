"""Readings of reports from machine-learned interatomic potentials and vector-quantised tokenizers: a loss weighed in
pasted code read as no value, a softplus written by hand, the log of a variance head's raw output, raw energies as
targets under Adam, rates listed with one breaking step, and the behaviours that are normal there (a growing gap
between training and validation loss, a GAN's `disc_loss` near its balance, a fear said with no subject). Each
changes the answer on a realistic report and stays quiet on a nearby one."""
from conftest import diagnosis
from trainwreck.breaking_constructs import breaking_construct, log_of_layer_piece, softplus_by_hand
from trainwreck.diagnose import _reported
from trainwreck.logscan import scan_text
from trainwreck.rate_tried import lr_tried, lr_tried_same_place, rates_at_one_place
from trainwreck.thesaurus import fold_text


def first(text: str) -> str:
    return diagnosis(text).matches[0].entry.id


def parts(text: str, entry_id: str) -> dict:
    return next((m.parts for m in diagnosis(text).matches if m.entry.id == entry_id), {})


# ---- a number that weighs a loss in pasted code is no value --------------------------------------------------------

SAWTOOTH = """The loss falls at the start of each epoch and rises until the epoch ends.

epoch 0 step    0 loss 3.104
epoch 0 step  100 loss 0.822
epoch 0 step  200 loss 1.904
epoch 0 step  300 loss 4.117
epoch 1 step    0 loss 1.377
epoch 1 step  100 loss 0.713
epoch 1 step  200 loss 2.650
epoch 1 step  300 loss 7.902

    for epoch in range(epochs):
        opt.zero_grad()
        for i, batch in enumerate(loader):
            energy, forces = model(batch)
            loss = 0.02 * mse(energy, batch.energy) + 0.98 * mse(forces, batch.forces)
            loss.backward()
            opt.step()
"""


def test_a_loss_weighed_in_pasted_code_is_not_read_as_a_logged_value():
    ev = scan_text(SAWTOOTH)
    assert ev.count == 8 and ev.last == 7.902
    # (Markdown's bold still holds a value, and a factor of digits was never one)
    assert scan_text("The loss goes 0.69, then **0.52** and then **0.41** by epoch 3.").count == 3
    assert scan_text("epoch 1 loss = 0.5*x\nepoch 2 loss = 0.4 * (a + b)\n").count == 0
    # (code_review_s63b N1: weighted sums, powers and products of names are code too)
    for code in ("loss = 0.5 * recon_loss + 0.5 * kl_loss", "loss = 0.5 * (y_pred - y)**2", "loss = 0.5 * -x",
                 "loss = 0.1 * F.l1_loss(x, y) + kl*beta", "loss = 0.5 * mse(a, b) + 2*reg"):
        assert scan_text("epoch 1 loss 0.9\nepoch 2 loss 0.8\n    " + code + "\n").last == 0.8, code
    assert scan_text("The loss goes **0.69**, then **0.52** (-25%), then **0.41** (-21%) and then nan.").count == 4
    assert scan_text("epoch 1 loss 0.9\nepoch 2 loss 0.8\n    loss = 1 - dice(pred, y)\n").last == 0.8
    # (code_review_s63 1: a nan before Markdown's emphasis is still a nan, and a note in brackets no code)
    noted = scan_text("epoch 1 loss 2.103\nepoch 2 loss 1.874\nepoch 3 loss 1.652\nepoch 4 loss nan *(and it stays nan)*\n")
    assert noted.count == 4 and noted.first_nonfinite == 3
    assert scan_text("My loss went 2.31, 1.95, 1.42 *and then* nan at epoch 4.").count == 4
    assert scan_text("The loss goes 0.69, 0.52, 0.41 *(see plot)* and then nan.").count == 4
    assert scan_text("epoch 1: loss 0.91\nepoch 2: loss 0.74 **(best)**\nepoch 3: loss 0.8\n").count == 3


def test_the_code_s_weight_no_longer_hides_a_climb_within_each_epoch():
    """Read as a last value of 0.02, the run looked healthy; read without it, the loss climbs through each epoch and
    the gradients are cleared only before the inner loop: WR-260."""
    d = diagnosis(SAWTOOTH)
    assert d.verdict == "failure" and d.matches[0].entry.id == "WR-260"
    assert any("to 7.902 at the end (epoch 1, step 300)" in e for e in d.matches[0].evidence)
    assert parts(SAWTOOTH, "WR-260")["cleared-outside"] > 0


WEIGHED_IN_A_SENTENCE = """Forces come out nan on the first batch; the energy is fine.

    step 0  energy_loss 2.1044  force_loss nan
    step 1  energy_loss nan     force_loss nan

    r = pos[:, None, :] - pos[None, :, :]
    d = torch.sqrt((r ** 2).sum(-1))
    loss = 0.1 * (E - E_ref) ** 2 + 0.9 * ((F - F_ref) ** 2).mean()
"""


def test_a_weighted_sum_of_losses_in_code_is_no_sentence_of_values():
    ev = scan_text(WEIGHED_IN_A_SENTENCE)
    assert ev.dialect != "loss values given in a sentence"
    assert first(WEIGHED_IN_A_SENTENCE) == "WR-050"


# ---- a softplus written by hand -------------------------------------------------------------------------------------

SOFTPLUS = """Loss goes inf then nan after 30 epochs of training a small message-passing net.

epoch 29 | train loss 0.0311
epoch 30 | train loss 0.0307
epoch 31 | train loss inf
epoch 32 | train loss nan

    def act(x):
        return torch.log(1 + torch.exp(x))
"""


def test_a_softplus_written_by_hand_is_exp_overflow():
    """log(1 + exp(x)): exp(x) is inf past about 88.7 in float32, the log of it inf, and its gradient 0 * inf = nan."""
    import numpy as np

    with np.errstate(over="ignore", invalid="ignore"):
        x = np.float32(89.0)
        assert np.isinf(np.exp(x)) and np.isinf(np.log(np.float32(1) + np.exp(x)))
        # (the backward pass: the log's slope, 1 / inf = 0, times exp's, inf)
        assert np.isnan(np.float32(1) / (np.float32(1) + np.exp(x)) * np.exp(x))
    assert softplus_by_hand("y = torch.log(0.5 * torch.exp(x) + 0.5)").group(0) == "torch.log(0.5 * torch.exp(x) + 0.5)"
    assert softplus_by_hand("y = np.log1p(np.exp(z))")
    assert "exp-unshifted" in breaking_construct(SOFTPLUS)
    assert first(SOFTPLUS) == "WR-020"


def test_the_stable_softplus_and_a_log_of_a_bare_exp_are_not_it():
    assert softplus_by_hand("y = torch.log1p(torch.exp(-torch.abs(x))) + torch.clamp(x, min=0)") is None
    assert softplus_by_hand("y = torch.log(1 + torch.exp(x - x.max()))") is None
    assert softplus_by_hand("y = np.log(2 * np.exp(x))") is None                       # (no constant added)
    assert softplus_by_hand("y = torch.log(1 + torch.exp(torch.sigmoid(x)))") is None   # (its input bounded)
    assert softplus_by_hand("y = F.softplus(x)") is None
    # (code_review_s63 6, 11: a formula said in a sentence, an input bounded by a square or a clamp where it is made)
    assert softplus_by_hand("the variance goes through nn.Softplus(), i.e. log(1 + exp(x)), plus 1e-6") is None
    assert softplus_by_hand("I replaced log(1 + exp(x)) with F.softplus(x) and it still goes nan.") is None
    assert softplus_by_hand("y = torch.log(1 + torch.exp(-dist ** 2))") is None
    assert softplus_by_hand("x = x.clamp(max=20)\ny = torch.log(1 + torch.exp(x))") is None
    assert softplus_by_hand("y = torch.log(1 + x.exp())") and softplus_by_hand("y = torch.log1p(x.exp())")
    # (code_review_s63b N8: a hand-written one named softplus is still hand-written; x_max is no shift)
    assert softplus_by_hand("def shifted_softplus(x): return torch.log(0.5 * torch.exp(x) + 0.5)")
    assert softplus_by_hand("ratio = x / x_max\ny = torch.log(1 + torch.exp(ratio))")


# ---- the log of a piece of a layer's raw output ----------------------------------------------------------------------

VARIANCE_HEAD = """nan from the first iteration once I predict a variance as well

    out = self.head(h)                 # last layer is nn.Linear(128, 2)
    mu, var = out[:, 0], out[:, 1]
    var_mol = scatter(var, batch, dim=0, reduce="sum")
    loss = (torch.log(var_mol) + (y - mu_mol) ** 2 / var_mol).mean()

it 0: loss nan
it 1: loss nan
"""


def test_the_log_of_a_variance_sliced_from_a_linear_output_is_a_log_of_a_negative():
    assert log_of_layer_piece(VARIANCE_HEAD).group(0) == "torch.log(var_mol)"
    assert "log-raw-output" in breaking_construct(VARIANCE_HEAD)
    assert first(VARIANCE_HEAD) == "WR-030"


def test_a_piece_kept_positive_or_a_whole_output_is_not_read_so():
    assert log_of_layer_piece(VARIANCE_HEAD.replace("    var_mol = scatter(",
                                                    "    var = F.softplus(var) + 1e-6\n    var_mol = scatter(")) is None
    # (a whole output logged is more often a probability its own last layer made)
    assert log_of_layer_piece("p = model(x)\nloss = -torch.log(p).mean()") is None
    assert log_of_layer_piece("h = self.fc(x)\ns = h.sum(1)\nl = torch.log(s)") is None
    assert log_of_layer_piece("mu, sigma = self.enc(x).chunk(2, dim=-1)\nkl = -torch.log(sigma)")
    # (code_review_s63 3-5: a library's split is a piece; a probability picked by an action, a softmax shown, a
    # variance or an in-place clamp are not raw; and a name reassigned from itself is read once)
    assert log_of_layer_piece("out = self.head(h)\nmu, var = torch.split(out, 1, -1)\nloss = torch.log(var)")
    assert log_of_layer_piece("out = self.head(h)\nmu, var = tf.split(out, 2, axis=-1)\nloss = tf.math.log(var)")
    assert log_of_layer_piece("h = self.expert(x)\nv = h[:, 1]\nl = torch.log(v)")
    # (code_review_s63b N6, N7: a name made from a piece of itself, a piece summed inline, a layer named var_head or
    # clip_model, a sigmoid elsewhere in the paste)
    assert log_of_layer_piece("var = self.var_head(h)\nvar = var[:, 0]\nl = torch.log(var)")
    assert log_of_layer_piece("out = self.head(h)\ns = out[:, 1].sum()\nl = torch.log(s)")
    assert log_of_layer_piece("out = self.head(h)\ns = scatter(out[:, 1], batch, dim=0)\nl = torch.log(s)")
    assert log_of_layer_piece("h = self.clip_model(x)\nv = h[:, 1]\nl = torch.log(v)")
    assert log_of_layer_piece("gate = torch.sigmoid(self.g(h))\nout = self.head(h)\nvar = out[:, 1]\nl = torch.log(var)")
    for kept in ("probs = self.actor(state)\nprob = probs[action]\nl = -torch.log(prob)",
                 "self.net = nn.Sequential(nn.Linear(4, 4), nn.Softmax(-1))\nout = self.net(x)\nq = out[:, 1]\nl = torch.log(q)",
                 "out = self.head(h)\nvar = out[:, 1].var()\nloss = torch.log(var)",
                 "out = self.head(h)\nvar = out[:, 1]\nvar.clamp_(min=1e-6)\nloss = torch.log(var)"):
        assert log_of_layer_piece(kept) is None, kept
    import time

    looped = "a = b[0]\n" * 10 + "b = a[0]\n" * 10 + "l = torch.log(a)\n" * 50
    start = time.perf_counter()
    assert log_of_layer_piece(looped) is None
    assert time.perf_counter() - start < 0.5


# ---- raw energies as targets under Adam ---------------------------------------------------------------------------

RAW_ENERGIES = """Energy model does not learn, MSE stuck around 2e11

Adam lr 1e-3, MSELoss on the total energies straight from the npz file (kcal/mol).

Epoch: 001, Loss: 204113920000.0000
Epoch: 002, Loss: 204111560000.0000
Epoch: 005, Loss: 204104730000.0000
Epoch: 020, Loss: 204070160000.0000
"""


def test_a_regression_loss_sitting_at_its_enormous_start_is_raw_targets_second_face():
    """WR-360 declares plateau-from-start as its second trace (Adam's steps, about the rate each, move outputs near 0
    toward targets in the hundreds of thousands only slowly): counted where the regression's raw targets are shown."""
    assert parts(RAW_ENERGIES, "WR-360")["curve"] > 0
    assert first(RAW_ENERGIES) == "WR-360"
    # (with no regression shown, the plateau stays the entries' whose own signature it is)
    assert "curve" not in parts(RAW_ENERGIES.replace("MSELoss", "a loss").replace("MSE stuck", "stuck"), "WR-360")


# ---- rates listed with one breaking step ----------------------------------------------------------------------------

RATES_LISTED = """nan at exactly the same step on every run

With seed 3 the loss goes nan at step 9120. lr 2e-4: 9120. lr 5e-5: 9120. With seed 11 it is step 30417 instead.
"""


def test_rates_listed_with_one_step_are_a_lower_rate_that_broke_at_the_same_place():
    assert rates_at_one_place(RATES_LISTED)
    assert lr_tried(RATES_LISTED) == "failed" and lr_tried_same_place(RATES_LISTED)
    assert parts(RATES_LISTED, "WR-310")["tried"] > 0
    assert parts(RATES_LISTED, "WR-220").get("tried", 0) <= 0
    assert first(RATES_LISTED) == "WR-310"


def test_rates_with_different_steps_or_with_counts_are_not_one_place():
    broke = " The run goes nan."
    assert not rates_at_one_place("lr 2e-4: 9120. lr 5e-5: 20000." + broke)
    assert not rates_at_one_place("lr 0.1: 5. lr 0.01: 5." + broke)                # (too few to be a step's count)
    assert rates_at_one_place("lr 1e-3 -> nan at step 700, lr 1e-4 -> nan at step 700")
    # (code_review_s63 2: counts after the rate, of any unit, and a run said to have gone well)
    for counts in ("lr 0.001: 2000 epochs. lr 0.01: 2000 epochs.", "lr 1e-3: 500 updates. lr 1e-4: 500 updates.",
                   "lr 3e-4: 2000 it, lr 1e-4: 2000 it", "lr 1e-3: 100k steps, lr 1e-4: 100k steps",
                   "lr 1e-3: batch 64, lr 1e-4: batch 64"):
        assert not rates_at_one_place(counts + broke), counts
    assert not rates_at_one_place("lr 3e-4: 18431. lr 1e-4: 18431.")             # (nothing said to break)
    # (code_review_s63b N4: one rate a line, or a bullet, and other words of a run that broke)
    assert rates_at_one_place("Both diverge at the same iteration:\nlr 3e-4: 18431\nlr 1e-4: 18431\n")
    assert rates_at_one_place("Both diverge:\n- lr 3e-4: 18431 (same seed)\n- lr 1e-4: 18431\n")
    assert rates_at_one_place("Both runs crash. lr 3e-4: 18431. lr 1e-4: 18431.")
    budget = "Each run had the same budget. lr 1e-3: 5000 steps, diverged. lr 1e-4: 5000 steps, converged fine."
    assert not rates_at_one_place(budget) and lr_tried(budget) == "helped"


# ---- normal: a fear with no subject, a growing gap, a GAN's disc_loss ----------------------------------------------

def test_a_fear_with_its_subject_left_out_is_no_report():
    assert "blow" not in _reported("Worried something is about to blow up / go nan.")
    assert "nan" in _reported("Worried, the loss is nan at step 3.")          # (a clause after the comma reports)
    assert "blow" not in _reported("- Worried it is about to blow up")             # (a bullet's)
    # (code_review_s63 12: the fear ends at a dash, after which the report goes on)
    assert "400" in _reported("I'm worried the loss is about to hit nan again -- it hit nan at step 400 twice.")
    negative = ("My total loss is negative and keeps going down: -3.8 at 10k steps, -8.1 now. It is a negative SI-SDR "
                "term plus a mel loss. Worried something is about to blow up.")
    assert diagnosis(negative).verdict == "normal"


def test_a_gap_that_grows_is_no_climb_of_the_loss():
    assert "climb" not in fold_text("the gap keeps growing")
    for grows in ("the gap is increasing", "the gap between them keeps increasing",
                  "the gap between the two curves keeps growing", "the gap to the training loss keeps increasing",
                  "the gap between train loss and val loss keeps growing"):
        assert "climb" not in fold_text(grows), grows
    assert "climb" not in fold_text("the difference between train and val loss increases")
    assert "climb" in fold_text("the difference is small but the loss increases")
    # (code_review_s63 8: another subject after the gap, or a gap between a prediction and its target, still climbs)
    assert "climb" in fold_text("the gap is small and val loss increases")
    assert "climb" in fold_text("the difference between predicted and true energies increases every epoch")
    # (code_review_s63 7: "below" said of a number is no gap)
    flat = ("The validation loss never goes below 0.693, and the training loss sits at 0.693 too, from the first "
            "epoch to the 50th. Accuracy is 50%.")
    assert "a gap between training and validation loss" not in [n.name for n in diagnosis(flat).normal]
    gap = ("The validation loss is far above the training loss, and the gap keeps growing: 0.038 against 0.017 at "
           "epoch 10, 0.0121 against 0.0026 now, while the validation force MAE still improves. Overfitting?")
    d = diagnosis(gap)
    assert d.verdict == "normal" and [n.name for n in d.normal] == ["a gap between training and validation loss"]


def test_a_text_generator_s_gen_loss_is_no_gan_s():
    text = ("Training a T5 summariser with an auxiliary copy head. gen_loss has sat between 2.29 and 2.31 for 40k "
            "steps and copy_loss too; it does not move at all.")
    assert "a GAN's losses, which do not fall" not in [n.name for n in diagnosis(text).normal]


def test_a_named_gan_s_gen_loss_is_a_gan_s():
    d = diagnosis("DCGAN on CelebA. gen_loss oscillates between 1.5 and 3.2 and never goes down, is that normal?")
    assert [n.name for n in d.normal] == ["a GAN's losses, which do not fall"]


def test_a_vqgan_s_disc_loss_near_its_balance_is_a_gan_s_loss():
    text = ("disc_loss has sat between 0.97 and 1.03 since the discriminator switched on at 30k steps, with hinge "
            "loss; logits_real and logits_fake both near 0. Is the discriminator learning anything?")
    d = diagnosis(text)
    assert d.verdict == "normal" and [n.name for n in d.normal] == ["a GAN's losses, which do not fall"]


# ---- normal: a loss whose weights changed --------------------------------------------------------------------------

STAGE_TWO = """Loss went up 40% at epoch 200 and stays above where it was. Did the run break?

2025-01-10 10:02:11.201 INFO: Epoch 196: head: Default, loss=0.08412210, RMSE_E_per_atom=   6.10 meV, RMSE_F=  41.20 meV / A
2025-01-10 10:14:40.883 INFO: Epoch 198: head: Default, loss=0.08375120, RMSE_E_per_atom=   6.05 meV, RMSE_F=  41.02 meV / A
2025-01-10 10:20:01.004 INFO: Changing loss based on Stage Two Weights
2025-01-10 10:27:09.911 INFO: Epoch 200: head: Default, loss=0.11803370, RMSE_E_per_atom=   4.90 meV, RMSE_F=  41.10 meV / A
2025-01-10 10:39:31.050 INFO: Epoch 202: head: Default, loss=0.11044710, RMSE_E_per_atom=   3.80 meV, RMSE_F=  40.95 meV / A
"""


def test_a_jump_where_the_loss_s_weights_change_is_answered_as_normal():
    """MACE's Stage Two raises the energy weight (1 to 1000 by default) at --start_swa: the total measures another
    function from then on, and the per-quantity errors are what to compare."""
    d = diagnosis(STAGE_TWO)
    assert d.verdict == "normal" and [n.name for n in d.normal] == ["a loss whose terms' weights were changed during the run"]
    said = diagnosis("I raised the energy weight from 1 to 100 at epoch 50 and the loss jumped from 0.02 to 0.9. Diverging?")
    assert [n.name for n in said.normal] == ["a loss whose terms' weights were changed during the run"]


def test_a_weight_change_beside_a_nan_or_a_weight_decay_is_not_that_answer():
    asked = ("MACE run, lr 0.01. The loss climbs from 0.05 to 3.8 over 30 epochs and the RMSE_F doubles. Should I "
             "increase the energy weight?")
    assert diagnosis(asked).normal == []          # (code_review_s63b N10: a question or a plan changed nothing)
    d = diagnosis(STAGE_TWO + "2025-01-10 10:51:55.310 INFO: Epoch 204: head: Default, loss=nan, RMSE_E_per_atom=nan meV\n")
    assert "a loss whose terms' weights were changed during the run" not in [n.name for n in d.normal]
    assert "a loss whose terms' weights were changed during the run" not in [
        n.name for n in diagnosis("I changed the weight decay and the loss went up from 0.3 to 0.5. Why?").normal]


# ---- low precision: a full-precision run said to go badly, fine-tuning, skipped steps ------------------------------

def test_a_run_out_of_float16_said_to_learn_slowly_or_babble_did_not_go_well():
    from trainwreck.precision_said import precision_tried

    # ("fine-tune" is no run that went fine; a loss that decreases very slowly and gibberish are no good run)
    assert precision_tried("Full fine-tune of a 7B model on 8 GPUs, bf16 mixed precision, flash-attention 2.") == ("", "")
    assert precision_tried("In bf16 the loss decreases very slowly, output is gibberish.")[0] != "helped"
    assert precision_tried("In fp32 the loss goes down fine, in fp16 it is nan.")[0] == "helped"
    # (code_review_s63b N9: a slow wall clock, or a run no longer stuck, went well)
    assert precision_tried("fp32 works, it's just too slow for us; fp16 goes nan at step 2000.")[0] == "helped"
    assert precision_tried("In fp32 it trains fine and is no longer stuck, fp16 gives nan.")[0] == "helped"


def test_inf_in_the_grads_and_a_quoted_grad_norm_are_a_skipped_step_s():
    from trainwreck.normals import NORMALS

    skipped = next(n for n in NORMALS if n.name == "skipped steps under dynamic loss scaling")
    assert skipped.accounts_said.search("iter 0: found inf in grads, scale 65536.0")
    assert skipped.accounts_said.search("{'loss': 9.83, 'grad_norm': nan, 'learning_rate': 4e-07}")
    assert not skipped.accounts_said.search("the loss is nan from step 3 on")


def test_a_nan_not_yet_fixed_is_still_a_nan():
    from trainwreck.thesaurus import tokens

    # (code_review_s63b N11: "haven't", "hasn't" and "cannot" negate a remedy more often than the symptom)
    assert "nan" in tokens("we haven't fixed the nan yet") and "nan" in tokens("cannot avoid nan at step 300")


# ---- NumPy's warning at a division by a standard deviation ---------------------------------------------------------

WINDOW_STD = """Loss turns nan at a different epoch on each run (LSTM on 2-D trajectories, each window normalised).

Epoch 7/100
50/50 [==============================] - 1s 20ms/step - loss: 1.0212
Epoch 8/100
50/50 [==============================] - 1s 20ms/step - loss: 0.9874
Epoch 9/100
12/50 [======>.......................] - ETA: 0s - loss: 0.9790/home/me/seq.py:41: RuntimeWarning: invalid value encountered in divide
  xs.append((win - win.mean(0)) / win.std(0))
50/50 [==============================] - 1s 20ms/step - loss: nan
Epoch 10/100
50/50 [==============================] - 1s 20ms/step - loss: nan
"""


def test_numpy_s_warning_at_a_division_by_a_std_is_a_std_of_zero_met():
    """'invalid value encountered in divide' is NumPy's 0/0 (or inf/inf): at a line dividing by a std with nothing
    added, a window whose values are all equal was met -- WR-060, at whatever step the data brought it."""
    import numpy as np

    from trainwreck.input_scaling import std_division_warned

    with np.errstate(invalid="raise"):
        try:
            (np.zeros(3) - 0.0) / np.zeros(3).std()
        except FloatingPointError as exc:
            assert "invalid value encountered in divide" in str(exc)
        else:
            raise AssertionError("0/0 raised nothing")
    assert std_division_warned(WINDOW_STD) == ("invalid value encountered in divide", "xs.append((win - win.mean(0)) / win.std(0))")
    d = diagnosis(WINDOW_STD)
    assert d.matches[0].entry.id == "WR-060" and d.matches[0].parts["std-nan-printed"] > 0


def test_numpy_s_warning_at_another_division_or_a_guarded_std_is_not_it():
    from trainwreck.input_scaling import std_division_warned

    assert std_division_warned(WINDOW_STD.replace("/ win.std(0))", "/ n)")) is None
    assert std_division_warned(WINDOW_STD.replace("/ win.std(0))", "/ (win.std(0) + 1e-8))")) is None



def test_numpy_s_warning_at_a_min_max_scaling_is_a_range_of_zero_met():
    """A min-max scaling divides by a range, the other spread an item of equal values has none of: NumPy's warning at
    `(x - lo) / (hi - lo)` (the numerator takes away what the denominator does), at `/ (x.max() - x.min())` or at
    `/ np.ptp(x)` is that range met at 0 -- WR-060 too, ahead of the entries whose nan comes later in a run."""
    from trainwreck.input_scaling import std_division_warned

    for line in ("xs.append((win - lo) / (hi - lo))", "xs.append((win - win.min(0)) / (win.max(0) - win.min(0)))",
                 "xs.append(win / np.ptp(win))", "xs.append((win - p1[k]) / (p99[k] - p1[k]))"):
        text = WINDOW_STD.replace("xs.append((win - win.mean(0)) / win.std(0))", line)
        assert std_division_warned(text) == ("invalid value encountered in divide", line), line
        d = diagnosis(text)
        assert d.matches[0].entry.id == "WR-060" and d.matches[0].parts["std-nan-printed"] > 0, line
    # (a difference that is not the numerator's own offset is no range: a time step, a learning-rate gap)
    for line in ("xs.append((win - lo) / (t1 - t0))", "xs.append(win / (hi - lo + 1e-8))", "xs.append(win / (a - b))",
                 # (code_review_s76 7: a schedule's, a clock's or a score's interpolation, and a bandwidth)
                 "frac = (step - warmup_start) / (warmup_end - warmup_start)", "alpha = (t - t0) / (t1 - t0)",
                 "lr = base / (self.max_iters - self.min_iters)",
                 "score = (raw - random_score) / (human_score - random_score)", "kernel = np.exp(-d2 / self.sigma)",
                 "r = (seq_len - min_len) / (max_len - min_len)", "frac = (it - lo_it) / (hi_it - lo_it)"):
        assert std_division_warned(WINDOW_STD.replace("xs.append((win - win.mean(0)) / win.std(0))", line)) is None, line
    for line in ("x = (x - mn) / (mx - mn)", "x = (img - img_min) / (img_max - img_min)", "x = win / win.ptp()",
                 # (final_review_s76 10: names that only hold the letters of a schedule's word are data's)
                 "trend = (trend - trend.min()) / (trend.max() - trend.min())",
                 "img = (render - render.min()) / (render.max() - render.min())", "temp = (T - T_min) / (T_max - T_min)"):
        assert std_division_warned(WINDOW_STD.replace("xs.append((win - win.mean(0)) / win.std(0))", line)), line


def test_numpy_s_warning_printed_by_a_worker_keeps_its_launcher_s_prefix_on_the_echoed_line():
    """Ray puts `(ClientAppActor pid=48214) ` before each line a worker prints, torchrun `[rank0]: `: the source line
    Python echoes under the warning carries it too, and is still that warning's line."""
    from trainwreck.input_scaling import std_division_warned

    for prefix in ("(ClientAppActor pid=48214) ", "(pid=123, ip=10.0.0.2) ", "[rank0]: "):
        warned = (f"{prefix}/home/me/task.py:41: RuntimeWarning: invalid value encountered in divide\n"
                  f"{prefix}  X = (X - X.mean(axis=0)) / X.std(axis=0)\n")
        assert std_division_warned(warned) == ("invalid value encountered in divide",
                                               "X = (X - X.mean(axis=0)) / X.std(axis=0)"), prefix
    # (the scanner blanks the echoed line under its prefix too, so `loss = -1/m * ...` is no loss of -1; and a
    # construct whose line the warning was raised at is read as where the nan was born -- code_review_s76 12, 13)
    from trainwreck.diagnose import _warned_at
    from trainwreck.logscan.cleaning import without_warning_echoes

    echoed = (b"(pid=1) a.py:3: RuntimeWarning: overflow encountered in exp\n(pid=1)   loss = -1/m * np.sum(z)\n"
              b"(pid=1) epoch 1 loss 0.5\n")
    assert without_warning_echoes(echoed).split(b"\n")[1] == b""
    raised = ("probs = np.exp(z) / np.sum(np.exp(z))\n"
              "(RayTrainWorker pid=9) t.py:7: RuntimeWarning: overflow encountered in exp\n"
              "(RayTrainWorker pid=9)   probs = np.exp(z) / np.sum(np.exp(z))\n")
    assert _warned_at("exp-unshifted", raised)
    assert not _warned_at("exp-unshifted", raised.replace("(RayTrainWorker pid=9)   probs", "(RayTrainWorker pid=9) other"))
    # (a line of another process, or of the program, is not the echo: it has no indent after the prefix)
    assert std_division_warned("(pid=1) task.py:41: RuntimeWarning: invalid value encountered in divide\n"
                               "(pid=2) X = (X - X.mean(axis=0)) / X.std(axis=0)\n") is None

# ---- Megatron's GPT-2 BPE tokenizer names the vocabulary --------------------------------------------------------------

def _megatron(values: list[float], warmup: str = "") -> str:
    lines = "".join(f" iteration {10 * (k + 1):>8}/   50000 | consumed samples: {5120 * (k + 1):>12} | learning rate: "
                    f"{3e-4 - 1e-9 * k:.6E} | global batch size:   512 | lm loss: {v:.6E} | loss scale: 1.0 | "
                    "grad norm: 3.100 | number of skipped iterations:   0 | number of nan iterations:   0 |\n"
                    for k, v in enumerate(values))
    return ("GPT 760M with Megatron-LM: the loss goes up in the first iterations, then comes down.\n\n"
            "pretrain_gpt.py --num-layers 24 --hidden-size 1536 --lr 3e-4 --min-lr 3e-5 --lr-decay-style cosine "
            f"--adam-beta2 0.95 --tokenizer-type GPT2BPETokenizer {warmup}--seq-length 2048\n\n" + lines)


def test_megatron_s_gpt2_bpe_tokenizer_gives_the_uniform_start_a_rise_above_which_is_the_updates():
    """GPT2BPETokenizer reads GPT-2's 50,257-token BPE: a first loss at ln 50257 = 10.82 is the uniform guess, and
    two nats above it in the first iterations, at a rate printed at its peak from the first one, is no warmup's face."""
    from trainwreck.class_count import vocabulary_named

    assert vocabulary_named("--tokenizer-type GPT2BPETokenizer")[0] == 50257
    rising = _megatron([10.88, 12.2, 12.9, 11.6, 10.1, 8.4, 7.2, 6.9, 6.7])
    d = diagnosis(rising)
    assert d.matches[0].entry.id == "WR-250"
    assert any("above a start at ln 50257" in e for e in d.matches[0].evidence)


def test_an_exp_that_divides_is_a_scale_from_its_log_not_an_overflow_s_nan():
    """`(y - mu) / jnp.exp(log_sigma)`: an exp past float32's range makes the quotient 0, not inf, and it sums no exps
    into a ratio -- unlike a softmax's `exp(s) / exp(s).sum(-1)`, whose denominator is a sum of them."""
    import numpy as np

    with np.errstate(over="ignore"):
        assert np.float32(3.0) / np.exp(np.float32(100.0)) == 0.0
    gaussian = "l = jnp.mean(log_sigma + 0.5 * ((y - mu) / jnp.exp(log_sigma)) ** 2)\n"
    assert "exp-unshifted" not in breaking_construct(gaussian + "# loss nan\n")
    assert "exp-unshifted" not in breaking_construct("mu, ls = self.head(h).chunk(2, -1)\nz = (y - mu) / torch.exp(ls)\n# nan")
    assert "exp-unshifted" in breaking_construct("p = jnp.exp(s) / jnp.exp(s).sum(-1)  # nan\n")
    assert "exp-unshifted" in breaking_construct("h = self.net(x)\nrate = torch.exp(h)  # nan\n")


def test_numpy_s_fast_read_refuses_code_after_a_number_as_the_regex_does():
    """numbers.alike reads a large log's values with NumPy from the byte after each number; code after one (CODE_AFTER)
    needs a `(` or a `*` later on its line, and those lines are read with the regex (code_review_s63b N3)."""
    from trainwreck.logscan.numbers import alike, keyed

    lines = [f"step {k} loss = 0.{5000 + k:04d} lr 0.0003\n" for k in range(200)]
    lines[150] = "    loss = 0.0100 * mse(e, e_ref) + 0.99 * mse(f, f_ref)\n"
    lines[160] = "    loss = 1.0000 - dice(pred, y)\n"
    text = "".join(lines).encode()
    pattern = keyed(b"loss")
    fast = alike(text, b"loss", pattern)
    assert fast is not None and fast.n == len(pattern.findall(text)) == 198


def test_code_after_a_number_is_read_in_linear_time_on_one_long_line():
    """The emphasis window is bounded (80 characters to its line's next `*`): one 130 kB line of `loss 0.5 * (` took
    a minute when it ran to the line's end at every number."""
    import time

    from trainwreck.logscan.numbers import keyed

    start = time.perf_counter()
    keyed(b"loss").findall(b"loss 0.5 * (" * 10000)
    assert time.perf_counter() - start < 0.5
