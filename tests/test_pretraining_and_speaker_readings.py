"""Readings of reports from language-model pretraining and speaker verification: loops that clear or clip at the wrong
time, a start far above a vocabulary's uniform guess, a warmup switched off, and the behaviours of those fields that
are normal (a first loss of ln V, a log-likelihood that climbs toward 0, a margin that is ramped up, a per-batch loss
that jumps around). Each changes the answer on a realistic report and stays quiet on a nearby one."""
from conftest import diagnosis
from trainwreck.gradient_clearing import cleared_only_when
from trainwreck.run_said import loss_climb_said
from trainwreck.schedule_said import no_warmup_said
from trainwreck.start_loss import early_jump_seen, start_far_above_uniform, uniform_start
from trainwreck.logscan import scan_text


def first(text: str) -> str:
    return diagnosis(text).matches[0].entry.id


def parts(text: str, entry_id: str) -> dict:
    return next((m.parts for m in diagnosis(text).matches if m.entry.id == entry_id), {})


# ---- gradients cleared only when an evaluation runs ---------------------------------------------------------------

EVAL_CLEARS = """The loss has a sawtooth with the period of my eval interval: it drops after each eval, then creeps up
until the next one.

```python
model.train()
optimizer.zero_grad(set_to_none=True)
for step in range(max_steps):
    if step % eval_every == 0:
        val_loss = evaluate(model, val_loader)
        optimizer.zero_grad(set_to_none=True)
        model.train()
    x, y = next(train_iter)
    _, loss = model(x, y)
    loss.backward()
    torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
    optimizer.step()
```

step 251 | loss 5.88 | norm 0.91
step 300 | loss 5.62 | norm 9.84
step 400 | loss 5.99 | norm 33.0
step 499 | loss 6.41 | norm 56.3
step 501 | loss 6.21 | norm 1.10
"""


def test_gradients_cleared_only_under_an_if_that_takes_no_step_pile_up_between():
    """zero_grad() only under `if step % eval_every == 0:` (and once before the loop): every other step carries the
    gradients of all the steps since the last evaluation -- WR-260, beside words of a loss that creeps up."""
    assert cleared_only_when(EVAL_CLEARS) == "if step % eval_every == 0:"
    assert loss_climb_said("It drops after each eval, then creeps up until the next one.")
    assert parts(EVAL_CLEARS, "WR-260")["cleared-outside"] > 0
    assert first(EVAL_CLEARS) == "WR-260"


def test_a_clearing_on_every_pass_or_under_the_step_s_own_if_is_no_such_loop():
    every_pass = EVAL_CLEARS.replace("    x, y = next(train_iter)\n",
                                     "    optimizer.zero_grad(set_to_none=True)\n    x, y = next(train_iter)\n")
    assert cleared_only_when(every_pass) == ""
    # (gradient accumulation's own form: the clearing under the same if as the step)
    accumulation = """for i, (x, y) in enumerate(loader):
    loss = model(x, y) / accum
    loss.backward()
    if (i + 1) % accum == 0:
        optimizer.step()
        optimizer.zero_grad()
"""
    assert cleared_only_when(accumulation) == ""


# ---- a clip after the step, in a run said to be as unclipped --------------------------------------------------------

LATE_CLIP = """Gradient clipping doesn't prevent loss spikes at all? With clipping removed the spike looks exactly the same.

step 17310 | loss 2.6612 | grad_norm 0.284
step 17330 | loss 2.6897 | grad_norm 2.917
step 17350 | loss 3.5531 | grad_norm 38.71
step 17370 | loss 2.9416 | grad_norm 1.873
step 18000 | loss 2.7012 | grad_norm 0.322

```python
loss.backward()
optimizer.step()
grad_norm = model.clip_grad_norm_(max_norm=1.0)
optimizer.zero_grad(set_to_none=True)
```"""


def test_a_clip_after_the_step_beside_words_that_clipping_changed_nothing():
    """The curve recovers, so nothing went wrong by its shape; the words say clipping made no difference, and the
    code clips after step(): WR-240."""
    assert parts(LATE_CLIP, "WR-240")["clip-after-step"] > 0
    assert first(LATE_CLIP) == "WR-240"
    # (without those words a spike that recovers is no failure of the clip's)
    quiet = LATE_CLIP.replace("Gradient clipping doesn't prevent loss spikes at all? With clipping removed the spike "
                              "looks exactly the same.", "Occasional spikes, then it recovers.")
    assert "clip-after-step" not in parts(quiet, "WR-240")


# ---- a start far above a vocabulary's uniform guess, from the log ---------------------------------------------------

BIG_START = """GPT-2 small shape, vocab 50304, from scratch. Initial loss ~120 and training crawls:

iter 0: loss 119.6019
iter 100: loss 71.3352
iter 500: loss 14.8811
iter 1000: loss 9.2034
iter 4000: loss 6.9452

```python
def _init_weights(self, module):
    if isinstance(module, nn.Linear):
        torch.nn.init.normal_(module.weight, mean=0.0)
```"""


def test_a_first_value_far_above_ln_v_and_weights_drawn_at_std_one():
    """119.6 at iteration 0 is 11 times ln 50304 = 10.83: the untrained model is confidently wrong; and
    `normal_(w, mean=0.0)` draws at PyTorch's default std of 1.0 -- WR-120."""
    ev = scan_text(BIG_START)
    assert "11 times ln 50304" in start_far_above_uniform(BIG_START, 119.6019)
    assert parts(BIG_START, "WR-120")["large-init"] > 0
    assert first(BIG_START) == "WR-120"
    assert ev.head[0] == 119.6019


def test_a_sum_over_a_named_sequence_or_a_classifier_s_log_is_no_such_start():
    # (min-char-rnn prints the sum over its 25 positions: 25 ln 71 = 106.57)
    assert start_far_above_uniform("Vocab is 71 chars, seq_length 25. iter 0, loss: 106.566997", 106.566997) == ""
    # (a classifier's log may print a sum over its batch: only a vocabulary's tokens are read so)
    assert start_far_above_uniform("MNIST, 10 classes, cross-entropy. epoch 0 loss 4130.2", 4130.2) == ""


def test_a_first_loss_of_ln_v_said_at_step_0_is_where_a_fresh_model_starts():
    text = ("First pretraining run, 50k vocab, random init: the loss at step 0 is 10.98. Everything I read says a "
            "language model's loss is 2-3, so is it broken before training starts?")
    d = diagnosis(text)
    assert d.verdict == "normal" and d.normal[0].name == "a first loss of ln C"
    assert uniform_start(scan_text(text)).startswith("the first loss the report gives, 10.98")


# ---- warmup switched off, and the jump it leaves ------------------------------------------------------------------

def test_a_warmup_turned_off_and_a_jump_in_the_first_handful_of_steps():
    text = ("Moved from cosine to WSD and turned warmup off. In the first handful of steps the loss shoots way above "
            "where it started, then comes back down and looks normal, but thousands of steps later it is still "
            "behind and not catching up.")
    assert no_warmup_said(text)
    assert early_jump_seen(text) is not None
    assert first(text) == "WR-250"
    # (a negation before the fall still denies it)
    assert early_jump_seen(text.replace("the loss shoots", "the loss never shoots")) is None


# ---- normal in these fields --------------------------------------------------------------------------------------

def test_a_log_likelihood_that_climbs_toward_zero_is_learning():
    text = ("x-vector training: the log-likelihood is negative and getting bigger every iteration, is it diverging?\n"
            "It goes -8.39, -5.77, -3.21, -1.97, -1.40 per frame, increasing towards zero.")
    d = diagnosis(text)
    assert d.verdict == "normal" and d.normal[0].name == "a log-likelihood below zero, the log of a probability"
    # (a loss said to climb beside it is no log-likelihood's rise)
    assert diagnosis(text + " The training loss climbs too.").verdict != "normal"


MARGIN_RAMP = """ResNet34 speaker model: the loss went down for 20 epochs and since then it is going up every epoch, and the
accuracy drops. Columns are Epoch | Lr | Margin | Loss | Acc, and the margin column went from 0 to 0.055 since epoch
20. Should I restart with a lower lr?"""


def test_a_margin_ramped_up_raises_the_loss_by_design():
    """cos(theta + m) lowers the target's logit as m grows: WeSpeaker's recipes raise m from 0 to 0.2 between epochs
    20 and 40."""
    d = diagnosis(MARGIN_RAMP)
    assert d.verdict == "normal" and d.normal[0].name == "a margin softmax whose margin is ramped up"
    d = diagnosis(MARGIN_RAMP + " Now the loss is nan.")
    assert d.verdict == "uncertain" and not d.normal and d.matches
    # (no margin that moves, no such answer)
    plain = MARGIN_RAMP.replace("Columns are Epoch | Lr | Margin | Loss | Acc, and the margin column went from 0 to "
                                "0.055 since epoch\n20.", "Columns are Epoch | Lr | Loss | Acc.")
    assert all(n.name != "a margin softmax whose margin is ramped up" for n in diagnosis(plain).normal)


def test_a_per_batch_loss_that_jumps_between_two_levels_is_noise():
    text = ("My per-batch training loss jumps between roughly 6 and 11 from one step to the next (random speakers, "
            "noise augmentation on the fly). Is this unstable training? Should I lower the lr?")
    d = diagnosis(text)
    assert d.verdict == "normal" and d.normal[0].name == "spikes in a falling curve"
    assert all(n.name != "spikes in a falling curve" for n in diagnosis("We train on noisy labels; is this a problem?").normal)


# ---- a question that states what it saw ---------------------------------------------------------------------------

def test_a_title_asked_as_a_question_still_says_the_accuracy_climbs_while_the_loss_barely_moves():
    """"Loss barely moves but accuracy goes up?" states both, and asks why: WR-130's face (a loss handed
    probabilities sits near its floor while the argmax learns). A yes/no question only asks."""
    from trainwreck.softmax_floor import accuracy_rose_said
    assert accuracy_rose_said("Event-level transformer: loss barely moves but accuracy goes up?")
    assert accuracy_rose_said("Why does the accuracy keep improving while the loss barely moves?")
    assert not accuracy_rose_said("Is it possible that the accuracy goes up while the loss barely moves?")


# ---- code_review_s62: where the new readings must stay quiet -------------------------------------------------------

def test_accumulation_that_clears_at_the_start_of_each_window_is_no_conditional_clearing():
    loop = """for i, (x, y) in enumerate(loader):
    if i % accum == 0:
        optimizer.zero_grad()
    loss = criterion(model(x), y) / accum
    loss.backward()
    if (i + 1) % accum == 0:
        optimizer.step()
"""
    assert cleared_only_when(loop) == ""


def test_a_logged_loss_that_is_a_multiple_of_ln_v_is_no_broken_start():
    """A sum over a named sequence length, or the Trainer's loss summed over gradient_accumulation_steps
    (transformers issue 35204): n ln V, not a broken model."""
    said = "Small Llama from scratch, vocab 32000, gradient_accumulation_steps=8. {'loss': 83.0412}"
    assert start_far_above_uniform(said, 83.0412) == ""
    assert start_far_above_uniform("Word-level LSTM language model, vocab 33278, sequences of 35 tokens.", 365.10) == ""


def test_a_margin_ramp_answer_not_after_the_ramp_nor_for_a_triplet_margin_nor_beside_a_worse_eer():
    for text in (MARGIN_RAMP + " The ramp finished at epoch 40, but the loss keeps going up.",
                 MARGIN_RAMP + " The EER went from 1.1% to 4.6%.",
                 "Triplet network, TripletMarginLoss. I added a margin schedule and now the loss is rising every "
                 "epoch."):
        assert all(n.name != "a margin softmax whose margin is ramped up" for n in diagnosis(text).normal), text


def test_a_negative_log_likelihood_that_climbs_is_a_loss_that_climbs():
    text = ("The log-likelihood per frame is negative, around -1.4, is that OK? Also the training negative "
            "log-likelihood keeps increasing every epoch since epoch 10.")
    assert diagnosis(text).verdict != "normal"


def test_a_loss_at_epoch_1_is_no_first_loss_and_noisy_targets_are_no_noisy_loss():
    assert diagnosis("CIFAR-10, 10 classes, cross-entropy. The loss at epoch 1 is 2.3026 and the accuracy is 10%. "
                     "Is that expected?").verdict != "normal"
    assert all(n.name != "spikes in a falling curve" for n in diagnosis(
        "Noise2Noise denoiser: the L2 loss against the noisy targets went up from epoch 10 on. Why?").normal)
    assert all(n.name != "spikes in a falling curve" for n in diagnosis(
        "After epoch 3 my loss jumps between 2.1 and 7.9 from one epoch to the next. lr 0.1 SGD.").normal)


def test_a_warmup_not_turned_off_and_a_lower_rate_guessed_at():
    from trainwreck.rate_tried import lr_tried
    assert no_warmup_said("To be clear, I did not turn warmup off (it is 500 steps).") == ""
    assert lr_tried("Loss goes nan at step 3000. I guess lowering the lr would help?") == ""


# ---- code_review_s62b: the readings keep their own cases ----------------------------------------------------------

def test_conditional_clearing_beside_an_amp_branch_and_after_a_long_log():
    amp = EVAL_CLEARS.replace("    loss.backward()\n    torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)\n"
                              "    optimizer.step()\n",
                              "    if use_amp:\n        scaler.scale(loss).backward()\n        scaler.step(optimizer)\n"
                              "        scaler.update()\n    else:\n        loss.backward()\n        optimizer.step()\n")
    assert cleared_only_when(amp) == "if step % eval_every == 0:"
    log = "".join(f"step {k} | loss 2.0\n" for k in range(450))
    assert cleared_only_when(log + EVAL_CLEARS) == "if step % eval_every == 0:"


def test_the_margin_answer_keeps_a_falling_eer_and_a_rise_until_the_ramp_ends():
    for said in ("From epoch 20 the EER falls while the loss increases every epoch.",
                 "The loss keeps increasing until the ramp finished at epoch 40; the EER went from 1.4% to 1.0%."):
        text = ("ECAPA-TDNN with AAM-softmax and the WeSpeaker margin warmup (initial_margin 0.0, final_margin 0.2). "
                + said + " Is this a bug?")
        assert diagnosis(text).verdict == "normal", said


def test_a_loss_a_bit_noisy_and_jumps_within_epochs_are_noise():
    assert diagnosis("The loss is a bit noisy but trends down over the first 4 epochs. Is the noise a problem?"
                     ).verdict == "normal"
    assert diagnosis("The loss jumps between 0.3 and 1.1 from batch to batch. Over 3 epochs it still trends down. "
                     "Is that normal?").verdict == "normal"


def test_a_present_tense_question_and_a_warmup_question_and_a_loss_at_epoch_1_are_asked_not_said():
    from trainwreck.rate_tried import lr_tried
    assert lr_tried("Loss goes nan at step 3000. Lowering the learning rate helps?") == ""
    assert lr_tried("Loss goes nan at step 3000. Lowering the lr should help?") == ""
    assert lr_tried("Lowering the learning rate helps a lot.") == "helped"
    assert no_warmup_said("Should I have turned warmup off?") == ""
    assert diagnosis("CIFAR-10, 10 classes, cross-entropy. The loss is 2.3026 at epoch 1 and the accuracy is 10%. "
                     "Is that expected?").verdict != "normal"
