"""Constructs of pasted code that explain a run gone wrong, read beside the words that say it went wrong: a clip after
the optimizer's step beside a spike the run never recovered from, gradients cleared once per epoch beside a loss said to
climb back within each epoch, exps summed inside a log a few lines after they were made, and a division by the norm of
a vector a ReLU made."""
import numpy as np
import pytest

from conftest import diagnosis, weighed, weighed_parts
from framework_runner import OPT_IN, run
from trainwreck.breaking_constructs import breaking_construct, norm_of_relu_output
from trainwreck.run_said import loss_climb_said, never_recovered_said


def test_a_spike_that_never_recovered_is_the_loss_not_recovering_and_one_that_never_came_back_is_not():
    """"One spike never recovered" says the loss did not come back from the spike; "the spikes never came back" says
    the spikes stayed away."""
    assert never_recovered_said("Most of the time it trains fine, but one spike never recovered.") == "never recovered"
    assert never_recovered_said("After lowering the rate the spikes never came back.") == ""
    # (a loss that never came back down, or back below where it was, did not recover either)
    assert never_recovered_said("The loss never went back below 0.9 after that.") == "never went back"
    assert never_recovered_said("One spike never came back down.") == "never came back"
    assert never_recovered_said("After I switched to bf16 the nans never came back under any seed.") == ""


LATE_CLIP = ("Loss spikes even with grad clipping at 1.0, and one spike never recovered (near step 600).\n\n"
             "```python\nfor it, batch in enumerate(loader):\n    loss = model(**batch).loss\n    loss.backward()\n"
             "    optimizer.step()\n    gnorm = torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)\n"
             "    optimizer.zero_grad()\n```\n\n"
             + "".join(f"step {s} loss {v} gnorm {g}\n" for s, v, g in [
                 (500, "1.0104", "0.44"), (550, "0.9932", "0.41"), (590, "0.9521", "0.40"), (597, "2.8010", "121.3"),
                 (598, "3.9133", "64.0"), (600, "3.5120", "20.9"), (650, "3.0121", "2.31"), (700, "2.7113", "1.80"),
                 (750, "2.5702", "1.62"), (800, "2.5151", "1.55")]))


def test_a_clip_after_the_step_beside_a_spike_the_run_never_recovered_from_names_wr240():
    d = diagnosis(LATE_CLIP)
    assert d.verdict == "failure" and d.matches[0].entry.id == "WR-240"
    assert any("clips after the optimizer's step()" in e for e in d.matches[0].evidence)
    assert any("the report says it \"never recovered\"" in e for e in d.matches[0].evidence)
    # (the same log with no word that it never came back is a spike the numbers show only partly undone: no failure)
    calm = diagnosis(LATE_CLIP.replace(", and one spike never recovered (near step 600)", ""))
    assert calm.verdict == "healthy"


def test_a_loss_said_to_fall_then_climb_back_within_each_epoch_is_a_climb_said():
    """The words' subject and verb may stand more than 40 characters apart: "loss drops at the start of every epoch,
    then climbs back up"."""
    assert loss_climb_said("SimCLR: loss drops at the start of every epoch, then climbs back up")
    assert not loss_climb_said("SimCLR: loss drops at the start of every epoch, then climbs back up, then it comes back "
                               "down")
    # (a decimal point in the gap is no sentence's end)
    assert loss_climb_said("The loss sits at about 2.30 for the first three hundred steps, then climbs back up")
    # (another subject's verb in the gap is not the loss's, nor a verb with an object of its own after ", then")
    assert not loss_climb_said("The validation loss plateaued for many epochs in a row, then increased patience to 20")
    assert not loss_climb_said("The training loss goes down steadily, but the validation accuracy increases")
    assert not loss_climb_said("The loss went down smoothly over ten epochs while the batch size grows each stage")
    # (or it "gets worse", or "drifts back up", after its fall: the loss's own verbs for a climb)
    assert loss_climb_said("Loss improves at the start of every epoch, then gets worse until the epoch ends")
    assert loss_climb_said("The first hundred steps look great, then the loss drifts back up")
    assert not loss_climb_said("The loss improves at first, then the accuracy gets worse")
    assert not loss_climb_said("The loss never drifts back up")
    # (code_review_s76 11: another subject's worse, and a run the words change)
    assert not loss_climb_said("Loss decreased, then got worse results when I evaluated on the test set.")
    assert not loss_climb_said("The loss looks fine for 10 epochs, then gets worse once I turn on augmentation.")
    # (mends_review_s76 3: what may follow the loss's own "worse" is a preposition, an adverb or a conjunction -- only
    # a noun after it makes it another thing's)
    for tail in ("around epoch 40", "later", "for no reason", "rapidly", "very fast", "before it plateaus",
                 "near the end", "within a few epochs", "past epoch 10", "suddenly"):
        assert loss_climb_said(f"The loss decreases at first, then gets worse {tail}."), tail
    for tail in ("results when I evaluated", "generalization", "val numbers"):
        assert not loss_climb_said(f"The loss decreases at first, then gets worse {tail}."), tail


def test_gradients_cleared_once_per_epoch_beside_a_loss_said_to_climb_back_names_wr260():
    text = ("Title: loss drops at the start of every epoch, then climbs back up\n\n"
            "```python\nfor epoch in range(epochs):\n    optimizer.zero_grad()\n    for it, (x, y) in enumerate(loader):\n"
            "        loss = criterion(model(x), y) / accum\n        loss.backward()\n"
            "        if (it + 1) % accum == 0:\n            optimizer.step()\n```\n\n"
            + "".join(f"[ep {e} | it {i}/200] loss {v}\n" for e, i, v in [
                (4, 40, "4.91"), (4, 80, "4.80"), (4, 120, "5.12"), (4, 160, "5.40"), (4, 200, "5.51"),
                (5, 40, "5.02"), (5, 80, "4.85"), (5, 120, "5.20"), (5, 160, "5.44"), (5, 200, "5.52")]))
    d = diagnosis(text)
    assert d.matches and d.matches[0].entry.id == "WR-260"
    assert "clears the gradients only before" in d.matches[0].evidence[0]


NT_XENT = ("```python\ndef nt_xent(z1, z2, temperature):\n    z = jnp.concatenate([z1, z2], axis=0)\n"
           "    z = z / jnp.linalg.norm(z, axis=-1, keepdims=True)\n    sim = z @ z.T / temperature\n"
           "    exp_sim = jnp.exp(sim) * (1.0 - jnp.eye(z.shape[0]))\n"
           "    return jnp.mean(-pos + jnp.log(jnp.sum(exp_sim, axis=-1)))\n```\n")


def test_exps_made_into_a_name_and_summed_inside_a_log_later_are_a_log_sum_exp_by_hand():
    assert "jnp.exp(sim)" in breaking_construct(NT_XENT)["exp-unshifted"]
    # (the same with the largest subtracted first is the stable form)
    shifted = NT_XENT.replace("sim = z @ z.T / temperature\n",
                              "sim = z @ z.T / temperature\n    sim = sim - jnp.max(sim, axis=-1, keepdims=True)\n")
    assert "exp-unshifted" not in breaking_construct(shifted)
    # (an exp of a log is a positive quantity, a variance or a scale: its sum is no log-sum-exp of scores)
    for scale in ("var = torch.exp(self.log_var)\nx = torch.log(var.sum())\n",
                  "std = torch.exp(0.5 * logvar)\nx = torch.log(std.mean())\n"):
        assert "exp-unshifted" not in breaking_construct(f"```python\n{scale}```\n")
    # (the mechanism: unit vectors at a temperature of 0.01 give a similarity of 100 on the diagonal, past float32's
    # exp limit, ln(float32 max) = 88.72)
    assert np.log(np.finfo(np.float32).max) == pytest.approx(88.72, abs=0.01)
    with np.errstate(over="ignore"):
        assert np.isinf(np.exp(np.float32(1.0) / np.float32(0.01)))


def test_an_nt_xent_by_hand_nan_from_step_zero_names_wr020_first():
    text = ("Some sweep runs are nan from step 0, at temperature 0.01 only.\n" + NT_XENT
            + "step=0 loss=nan lr=0.000000\nstep=100 loss=nan lr=0.01\nstep=200 loss=nan lr=0.02\n")
    d = diagnosis(text)
    assert d.matches[0].entry.id == "WR-020"


RELU_HEAD = ("```python\nself.proj = nn.Sequential(\n    nn.Linear(1536, 512),\n    nn.ReLU(),\n    nn.Linear(512, 256),\n"
             "    nn.ReLU(),\n)\n\ndef forward(self, x):\n    z = self.proj(self.backbone(x))\n"
             "    z = z / z.norm(dim=1, keepdim=True)\n    return z\n```\n")


@pytest.mark.parametrize("code, read", [
    (RELU_HEAD, True),
    ("```python\nz = F.relu(self.fc(x))\nz = z / z.norm(dim=1, keepdim=True)\n```\n", True),
    # (a head that ends in a linear layer: its output is the zero vector only by chance)
    (RELU_HEAD.replace("    nn.Linear(512, 256),\n    nn.ReLU(),\n)", "    nn.Linear(512, 256),\n)"), False),
    # (an eps in the divisor)
    (RELU_HEAD.replace("z / z.norm(dim=1, keepdim=True)", "z / (z.norm(dim=1, keepdim=True) + 1e-8)"), False),
    ("```python\nz = self.fc(x)\nz = z / z.norm(dim=1, keepdim=True)\nh = F.relu(h)\n```\n", False),
    # (a ReLU module called by its own name, one set on the class, a Keras list, a Dropout after it, a method at the end)
    ("```python\nself.relu = nn.ReLU()\nz = self.relu(self.fc(x))\nz = z / z.norm(dim=1, keepdim=True)\n```\n", True),
    ("```python\nself.act = nn.ReLU(inplace=True)\nz = self.act(h)\nz /= z.norm(dim=1, keepdim=True)\n```\n", True),
    ("```python\nhead = keras.Sequential([layers.Dense(256), layers.ReLU()])\nz = head(x)\n"
     "z = z / tf.norm(z, axis=1, keepdims=True)\n```\n", True),
    ("```python\nself.proj = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Dropout(0.1))\nz = self.proj(x)\n"
     "z = z / z.norm(dim=1, keepdim=True)\n```\n", True),
    ("```python\nz = self.fc(x).relu()\nz = z / z.norm(dim=1, keepdim=True)\n```\n", True),
    # (something after the ReLU: a matmul, a constant added -- no zero vector; and a ReLU assigned only after the division)
    ("```python\nz = torch.relu(h) @ self.W\nz = z / z.norm(dim=1, keepdim=True)\n```\n", False),
    ("```python\nz = F.relu(h) + 1.0\nz = z / z.norm(dim=1, keepdim=True)\n```\n", False),
    ("```python\nz = self.linear(h)\nz = z / z.norm(dim=1, keepdim=True)\nz = F.relu(self.fc(x))\n```\n", False),
    # (a ReLU's output divided by the norm of something else: 0 / ||z|| is 0, no nan)
    ("```python\nh = F.relu(self.fc(x))\nz = self.lin(x)\nh = h / z.norm(dim=1, keepdim=True)\n```\n", False),
    # (a bias-free Linear after the ReLU maps 0 to 0; the functional call spelled out; inplace given by position)
    ("```python\nself.proj = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 4, bias=False))\nz = self.proj(x)\n"
     "z = z / z.norm(dim=1, keepdim=True)\n```\n", True),
    ("```python\nz = torch.nn.functional.relu(self.fc(x))\nz = z / torch.norm(z, dim=1, keepdim=True)\n```\n", True),
    ("```python\nself.proj = nn.Sequential(nn.Linear(3, 4), nn.ReLU(True))\nz = self.proj(x)\n"
     "z = z / z.norm(dim=1, keepdim=True)\n```\n", True),
])
def test_a_division_by_the_norm_of_a_vector_a_relu_made(code, read):
    assert bool(norm_of_relu_output(code)) is read


def test_a_relu_zero_row_has_norm_zero_and_its_division_is_nan():
    """The mechanism: a row whose pre-activations are all below 0 leaves the ReLU as the zero vector, and 0 / 0 is nan
    in that row only."""
    pre = np.array([[0.3, -1.2, 0.8], [-0.5, -0.1, -2.0]], dtype=np.float32)
    z = np.maximum(pre, 0)
    with np.errstate(invalid="ignore"):
        normed = z / np.linalg.norm(z, axis=1, keepdims=True)
    assert np.isfinite(normed[0]).all() and np.isnan(normed[1]).all()


def test_a_nan_later_in_training_beside_a_relu_vector_divided_by_its_norm_counts_for_wr060():
    text = ("trains fine for a while then loss goes nan, only a few rows of z are nan\n" + RELU_HEAD
            + "step 1700  loss 3.9127\nstep 1750  loss 3.8840\nstep 1800  loss 3.9015\nstep 1821  loss nan\n")
    parts = weighed_parts(text, "WR-060")
    assert parts["relu-norm-unguarded"] > 0
    assert "WR-060" in [m.entry.id for m in diagnosis(text).matches[:3]]
    # (a finite plateau beside the same head is no 0/0: the fact is not read there)
    flat = ("The loss is stuck at 2.30 and does not learn.\n" + RELU_HEAD
            + "".join(f"step {k * 100} loss {v}\n" for k, v in enumerate(["2.3031", "2.3029", "2.3027", "2.3026", "2.3025"])))
    assert "relu-norm-unguarded" not in weighed_parts(flat, "WR-060")
    checked = flat.replace("does not learn.", "does not learn. I checked for nan in the inputs.")
    assert "relu-norm-unguarded" not in weighed_parts(checked, "WR-060")


WAVEFORMS = ("Raw-waveform CNN on 10 classes: loss in the thousands, accuracy ~20%. I thought cross-entropy for 10 classes "
             "should start around 2.3?\n\n```python\nsr, x = wavfile.read(path)\n```\n(I left out BatchNorm for now.)\n"
             + "".join(f"epoch 1 step {s}  loss {v}  acc {a}\n" for s, v, a in [
                 (0, "1873.2141", "0.1094"), (20, "412.6620", "0.1406"), (40, "95.1877", "0.2031"),
                 (60, "211.9034", "0.1250"), (80, "38.5514", "0.2344"), (100, "67.0295", "0.1719")]))


def test_the_start_the_words_say_a_loss_should_have_is_the_start_they_expected():
    """"Cross-entropy for 10 classes should start around 2.3" beside a first loss of 1873: a start 800 times the fresh
    model's; and a BatchNorm said left out scales nothing, so the file's raw int16 samples are the inputs."""
    from trainwreck.start_loss import start_above_expected

    fact = start_above_expected(WAVEFORMS, 1873.2141)
    assert "8.1e+02 times the 2.3 it expected (\"cross-entropy for 10 classes should start around 2.3\")" in fact
    assert start_above_expected(WAVEFORMS, 2.31) == ""
    # (the start of something else -- a rate's warmup -- is no loss's)
    assert start_above_expected("With warmup, the learning rate should start at 0.0001 and reach 0.001.", 2.31) == ""
    assert start_above_expected("The loss is nan; the learning rate should start at 0.0001 and reach 0.001.", 2.31) == ""
    d = diagnosis(WAVEFORMS)
    assert d.matches[0].entry.id == "WR-330"
    assert any("wavfile.read" in e for e in d.matches[0].evidence)


def test_words_that_it_does_not_learn_beside_a_curve_that_did_not_fall_read_the_code():
    """A run said not to learn, whose printed loss ends no lower than it started or whose last values stopped moving:
    the words are the run's verdict, and the code's constructs are read (gradients cleared once per epoch; a NumPy
    network's weights all zeros). A falling curve with no such words, or one still falling, is read as it was."""
    loop = ("```python\nfor epoch in range(30):\n    opt.zero_grad()\n    for xb in train_loader:\n"
            "        loss = crit(model(xb), xb)\n        loss.backward()\n        opt.step()\n```\n")
    rose = "".join(f"epoch {k:02d}  train {v}  val 0.9{k}11\n" for k, v in enumerate(
        ["0.7343", "0.8461", "0.8019", "0.8827", "0.8390", "0.9102", "0.8675", "0.9246"], 1))
    d = diagnosis("It's clearly going nowhere, not really learning anything.\n" + loop + rose)
    assert d.matches and d.matches[0].entry.id == "WR-260"
    assert not diagnosis("Here is my loop and its log.\n" + loop + rose).matches
    numpy = ("```python\nW1 = np.zeros((n_in, n_hid)); b1 = np.zeros(n_hid)\nW2 = np.zeros((n_hid, n_in)); b2 = np.zeros(n_in)\n"
             "```\n")
    stalled = "".join(f"{k * 1000} {v}\n" for k, v in enumerate(
        ["0.2777", "0.0213", "0.0196", "0.011", "0.0097", "0.0097", "0.0096", "0.0096", "0.0096", "0.0096"]))
    d = diagnosis("my loss gets stuck at 0.0096 and never goes lower.\n" + numpy + stalled)
    assert d.matches and d.matches[0].entry.id == "WR-110"
    falling = "".join(f"{k * 1000} {v}\n" for k, v in enumerate(
        ["0.2777", "0.1213", "0.0696", "0.041", "0.0257", "0.0161", "0.0102", "0.0066", "0.0041", "0.0026"]))
    assert not diagnosis("my loss gets stuck and never goes lower.\n" + numpy + falling).matches
    # (a curve that levelled off where the words give no value of its own: the words may be of something else)
    assert not diagnosis("my model doesn't learn the minority class at all.\n" + numpy + stalled).matches
    # (nor a schedule said to stop: "I stop learning rate decay at epoch 10", "I stopped learning rate decay"; nor the past)
    for words in ("I stop learning rate decay at epoch 10.", "I stopped learning rate decay at epoch 10.",
                  "At first it wasn't learning, but after I fixed the labels it trains fine."):
        assert not diagnosis(words + "\n" + loop + rose).matches, words
    # (the level said at a sentence's end, "stuck at 0.0096.", is the level; a setting's number in a sentence of no
    # stall, "with lr 0.01 and adam.", and a log line with words in it are not)
    assert diagnosis("my loss gets stuck at 0.0096.\n" + numpy + stalled).matches[0].entry.id == "WR-110"
    worded = "".join(f"epoch {line.split()[0]} | train loss {line.split()[1]}\n" for line in stalled.splitlines())
    assert not diagnosis("my model doesn't learn the minority class at all.\n" + numpy + worded).matches


def test_a_custom_loop_under_mixed_float16_said_to_stop_learning_reads_the_missing_loss_scale():
    """"Mixed precision makes my autoencoder stop learning" beside a loss that stopped moving: a run gone wrong, so
    the custom loop's missing LossScaleOptimizer is read (WR-040)."""
    text = ("Mixed precision makes my LSTM autoencoder stop learning (custom training loop)\n"
            "```python\nmixed_precision.set_global_policy(\"mixed_float16\")\nopt = keras.optimizers.Adam(1e-3)\n"
            "@tf.function\ndef train_step(x):\n    with tf.GradientTape() as tape:\n"
            "        loss = tf.reduce_mean(tf.square(model(x, training=True) - x))\n"
            "    grads = tape.gradient(loss, model.trainable_variables)\n"
            "    opt.apply_gradients(zip(grads, model.trainable_variables))\n```\n"
            + "".join(f"epoch {k}   loss {v}\n" for k, v in enumerate(
                ["0.7417", "0.4120", "0.3538", "0.3391", "0.3342", "0.3309", "0.3311"], 1)))
    d = diagnosis(text)
    assert d.matches and d.matches[0].entry.id == "WR-040"
    assert any("no LossScaleOptimizer" in e for e in d.matches[0].evidence)


@pytest.mark.parametrize("words, read", [
    ("the reconstruction is basically a flat line for\nevery window no matter what the input looks like.", True),
    ("the predicted values for every window in a batch are identical to like 4 decimals.", True),
    ("The predictions for every sample are identical.", True),
    ("the outputs for all images are the same size as the input.", False),
    ("The predictions for every sample are identical to the inputs.", False),
    ("predictions for every window are nearly identical", True),
    ("the output is a flat line regardless of input", True),
    # (alike across devices, runs or models, or in their form: no one output)
    ("the outputs for every image are the same on CPU and GPU", False),
    ("the outputs for each input are identical across runs", False),
    ("outputs for all ranks are the same", False),
    ("the predictions for all inputs are the same length", False),
    ("the outputs for every image are the same on the GPU and the CPU", False),
    ("the outputs for every image are the same before and after quantization", False),
    ("the outputs for every image are identical in PyTorch and ONNX", False),
])
def test_one_output_for_every_input_said_of_a_flat_line_or_identical_predictions(words, read):
    from trainwreck.frozen_said import one_output_said

    assert bool(one_output_said(words)) is read


def test_an_autoencoders_raw_targets_are_its_raw_inputs():
    """An autoencoder reconstructs its inputs, so a squared error still enormous after 50 epochs says its inputs are in
    their raw units: WR-330's cause (scaling the inputs scales the targets), not a regression's targets apart."""
    text = ("LSTM autoencoder reconstructs a flat line, huge loss (Keras). The loss is enormous and decreases very slowly, "
            "and the reconstruction is basically a flat line for every window.\n"
            "```python\nmodel.compile(optimizer=\"adam\", loss=\"mse\")\nmodel.fit(X_train, X_train, epochs=50)\n```\n"
            + "".join(f"Epoch {k}/50\n612/612 [==============================] - 15s 25ms/step - loss: {v}\n"
                      for k, v in [(1, "3035712.2500"), (2, "2987401.0000"), (3, "2930318.7500"), (48, "912455.8750"),
                                   (49, "899021.3125"), (50, "885873.6250")]))
    d = diagnosis(text)
    assert d.matches[0].entry.id == "WR-330"
    assert any("the model reconstructs its inputs (\"autoencoder\"), so its targets are its inputs" in e
               for e in d.matches[0].evidence)
    assert "raw-targets" not in weighed_parts(text, "WR-360")
    # (a model fed an autoencoder's features and fitted to other targets is no reconstruction; nor inputs said scaled)
    forecaster = text.replace("model.fit(X_train, X_train, epochs=50)", "model.fit(X_train, y_train, epochs=50)")
    assert "input-range" not in weighed_parts(forecaster, "WR-330")
    # (trained on its inputs by keyword, or by a loss of its output and its input)
    for trained in ("model.fit(x=X_train, y=X_train, epochs=50)", "recon = model(xb)\nloss = criterion(recon, xb)"):
        assert weighed_parts(text.replace("model.fit(X_train, X_train, epochs=50)", trained), "WR-330")["input-range"] > 0
    # (a call that only prints its input beside it is no training on it)
    printed = text.replace("model.fit(X_train, X_train, epochs=50)", "print(len(X_train), X_train)")
    assert "input-range" not in weighed_parts(printed, "WR-330")
    scaled = text.replace("LSTM autoencoder reconstructs", "Inputs standardised with StandardScaler. LSTM autoencoder reconstructs")
    assert not any("so its targets are its inputs" in e for e in weighed(scaled, "WR-330")[1])


def encoder_log(every: int = 50) -> str:
    """A climb to nan over the first eight prints, one print every `every` steps, the rate printed at its top."""
    return ("Small encoder trained from scratch diverges (Flax/optax), adamw with a cosine schedule.\n"
            + "".join(f"step {every * k:6d}  loss {v}  lr {r}\n" for k, (v, r) in enumerate([
                ("2.4127", "5.000e-04"), ("2.2310", "5.000e-04"), ("2.1642", "4.999e-04"), ("2.3088", "4.999e-04"),
                ("3.9461", "4.998e-04"), ("9.7718", "4.998e-04"), ("28.5530", "4.997e-04"), ("nan", "4.996e-04")], 1)))


ENCODER = encoder_log()


def test_a_run_that_breaks_in_its_first_steps_at_the_rate_it_started_with_makes_the_warmupless_start_a_suspect():
    """WR-250's page: taking a transformer recipe's warmup out is a common way for a run to turn nan in its first few
    hundred steps. A climb to nan by step 400, the printed rate at its top from the first print, an adaptive
    optimizer, no warmup set: WR-250 beside WR-220, and neither named with confidence."""
    from trainwreck.curve_shape import EARLY_BREAK_STEPS

    d = diagnosis(ENCODER)
    ranked = [m.entry.id for m in d.matches]
    assert d.verdict == "uncertain" and ranked[:2] == ["WR-220", "WR-250"]
    assert any("turned non-finite at step 400, within the first 1000 steps" in e for e in d.matches[1].evidence)
    # (a warmup set, a lower rate that failed all the same, a break past EARLY_BREAK_STEPS: no such suspect)
    for other in (ENCODER.replace("cosine schedule", "cosine schedule, warmup_steps=500"),
                  ENCODER.replace("(Flax/optax)", "(Flax/optax); lr 1e-5 still nan at step 400,")):
        assert "no-warmup" not in weighed_parts(other, "WR-250"), other[:80]
    # (a rate printed the same from the first print, with a warmup set in the paste: the warmup is the paste's own,
    # over before the first print, and only the guard on it refuses the suspect)
    flat = ENCODER.replace("4.999e-04", "5.000e-04").replace("4.998e-04", "5.000e-04").replace("4.997e-04", "5.000e-04") \
        .replace("4.996e-04", "5.000e-04")
    assert weighed_parts(flat, "WR-250")["no-warmup"] > 0
    assert "no-warmup" not in weighed_parts(flat.replace("cosine schedule", "constant rate, warmup_steps=40"), "WR-250")
    # (a step counted within its epoch is the run's own only in the epoch the log starts in: two prints an epoch, the
    # count restarting, puts the nan in epoch 4 at its own step 400 -- about step 1600; a count that runs on across
    # epochs is the run's own)
    lines = ENCODER.splitlines()
    restarting = lines[0] + "\n" + "".join(f"epoch {k // 2 + 1} " + line.replace(f"{50 * (k + 1):6d}", f"{200 * (k % 2 + 1):6d}")
                                           + "\n" for k, line in enumerate(lines[1:]))
    assert "no-warmup" not in weighed_parts(restarting, "WR-250")
    running = lines[0] + "\n" + "".join(f"epoch {k // 2 + 1} {line}\n" for k, line in enumerate(lines[1:]))
    assert weighed_parts(running, "WR-250")["no-warmup"] > 0
    # (a print every 125 steps puts the nan at step 1000, EARLY_BREAK_STEPS; every 200, at step 1600, past it)
    assert weighed_parts(encoder_log(every=EARLY_BREAK_STEPS // 8), "WR-250")["no-warmup"] > 0
    assert "no-warmup" not in weighed_parts(encoder_log(every=EARLY_BREAK_STEPS // 5), "WR-250")


CROPS = ("my recognizer goes nan at a random point in the first epoch, never at the same step.\n"
         "```python\nimg = img.astype(np.float32)\nimg = (img - img.mean()) / img.std()   # per-image standardization\n```\n"
         "ep 1 step 1400  loss 1.8125\nep 1 step 1500  loss 1.7214\nep 1 step 1600  loss 1.6530\n"
         "ep 1 step 1700  loss 1.6902\nep 1 step 1800  loss nan\nep 1 step 1900  loss nan\n"
         "set_detect_anomaly said: RuntimeError: Function 'CtcLossBackward0' returned nan values in its 0th output.\n")


def test_anomaly_modes_message_at_the_losss_own_backward_does_not_outrank_a_construct():
    """Anomaly mode names the first backward function whose output is nan, and the first run is the loss's: a nan
    already in the loss's input is reported at CtcLossBackward0 as surely as one the loss makes. Beside such a message
    the per-image division by an unguarded std still counts for WR-060; beside one naming another op (LogBackward0,
    where the nan was born) it does not."""
    assert weighed_parts(CROPS, "WR-060")["item-std-unguarded"] > 0
    assert "WR-060" in [m.entry.id for m in diagnosis(CROPS).matches[:3]]
    born = CROPS.replace("CtcLossBackward0", "LogBackward0")
    assert "item-std-unguarded" not in weighed_parts(born, "WR-060")


INSTANCE_NORM = ("Loss goes nan within the first epoch, at a different iteration each run.\n"
                 "ep 0 | it  100 | loss 1.2734\nep 0 | it  200 | loss 0.9981\nep 0 | it  237 | loss nan\n"
                 "ep 0 | it  300 | loss nan\n\nclass RevIN(nn.Module):\n    def forward(self, x):\n"
                 "        self.mean = x.mean(dim=1, keepdim=True).detach()\n"
                 "        self.stdev = x.std(dim=1, keepdim=True, unbiased=False).detach()\n"
                 "        x = (x - self.mean) / self.stdev\n        return x\n")


def test_a_module_s_own_std_divided_by_is_read_as_the_std_it_keeps():
    """A normalisation written as a module keeps its statistics on itself (RevIN's `self.stdev`): the division by
    `self.stdev` is a division by a std, and the line that sets `self.stdev` says over which axes -- the time axis,
    one std per window, so a window of equal values is 0/0 at whatever batch holds it (WR-060). With eps added where it
    is made, it is guarded."""
    parts = weighed_parts(INSTANCE_NORM, "WR-060")
    assert parts["item-std-unguarded"] > 0
    assert diagnosis(INSTANCE_NORM).matches[0].entry.id == "WR-060"
    guarded = INSTANCE_NORM.replace("unbiased=False).detach()", "unbiased=False).detach() + 1e-5")
    assert "item-std-unguarded" not in weighed_parts(guarded, "WR-060")
    over_batch = INSTANCE_NORM.replace("x.std(dim=1,", "x.std(dim=0,")
    assert "item-std-unguarded" not in weighed_parts(over_batch, "WR-060")


ADAIN = ("AdaIN training: nan at random iterations.\n"
         + "".join(f"iter {i} | loss {v}\n" for i, v in [(3320, "6.842"), (3330, "6.731"), (3340, "6.690"),
                                                          (3350, "6.655"), (3360, "6.596"), (3370, "6.876"),
                                                          (3380, "nan"), (3390, "nan")]) +
         "def calc_mean_std(feat):\n    f = feat.view(N, C, -1)\n    return f.mean(dim=2), f.std(dim=2)\n"
         "c_mean, c_std = calc_mean_std(content_feat)\nnormalized = (content_feat - c_mean) / c_std\n"
         "The content frames in that batch were ordinary shots except one that is a black frame.\n")


def test_a_std_named_with_an_affix_beside_an_input_said_all_black_is_a_zero_std_met_at_its_batch():
    """A std kept under a name of its own (`c_std`, `std_x`) is divided by like `std`; a black frame is all zeros, so
    what is made from it value by value has a std of 0 -- at the batch that holds it, not from the first step (WR-060,
    its timing as for an item's own std). Black-and-white pictures, or a black background, are no such input."""
    from trainwreck.input_scaling import ALL_ZERO_INPUT, divides_by_a_named_std

    for made, division in (("x_std = x.std(0)", "/ x_std"), ("std_x = np.sqrt(x.var(0))", "/ std_x"),
                           ("def stats(f):\n    return f.mean(2), f.std(2)\nc_mean, c_std = stats(feat)", "/ c_std")):
        assert divides_by_a_named_std(made + "\ny = (x - m) " + division + "\n"), division
    # (final_review_s76 10: a std the code is given, a guarded one, and a name that only holds the letters)
    for other in ("noise_std = 0.1\ny = x / noise_std\n", "self.prior_std = cfg.prior_std\nz = x / self.prior_std\n",
                  "x_std = x.std(0)\ny = (x - m) / (x_std + 1e-5)\n", "y = x / usd_rate\n"):
        assert divides_by_a_named_std(other) is None, other
    for said in ("one that is a black frame", "a few all-black images"):
        assert ALL_ZERO_INPUT.search(said), said
    for other in ("black-and-white images", "a black background in most images", "black border frames",
                  "black spots in some images", "a black cat in most images"):
        assert not ALL_ZERO_INPUT.search(other), other
    # (final_review_s76 8: black said of what the model gives is no input of zeros)
    from trainwreck.input_scaling import zero_inputs_said
    for output in ("the decoder outputs black images, and then the loss is nan", "the predictions are black images"):
        assert zero_inputs_said(output) is None, output
    # (mends_review_s76 7: the data's own sources are no model's output)
    for source in ("My dataloader returns black frames when a video fails to decode, and then the loss is nan.",
                   "The camera outputs black frames at night, which are in the training set.",
                   "I get black images from the simulator for some seeds and the loss becomes nan.",
                   "Some samples are silent clips (the recorder produced silent audio), and the loss is nan."):
        assert zero_inputs_said(source), source
    parts = weighed_parts(ADAIN, "WR-060")
    assert parts["zero-items"] > 0
    assert diagnosis(ADAIN).matches[0].entry.id == "WR-060"
    # (final_review_s76 9: timed as an item's own std -- met at whichever batch holds one -- the curve's jump to nan
    # counts for it, as it does not for a constant column, which is in every batch from the first)
    assert weighed_parts(ADAIN, "WR-060")["curve"] > 0
    column = ADAIN.replace("except one that is a black frame", "and column 7 is a constant column")
    assert weighed_parts(column, "WR-060").get("curve", 0) <= 0


def test_grpo_s_group_relative_advantage_divided_by_the_group_s_std_is_one_std_per_group():
    """GRPO normalises each prompt's rewards by the group's own mean and std: a group whose completions all score the
    same (all 0 or all 1) has a std of 0 -- at the step that draws one (WR-060). Said by the name or by "group-relative";
    the same division with eps added is guarded."""
    loop = ("step  21 | reward_mean 0.750 | loss   0.0032\nstep  22 | reward_mean 0.625 | loss   0.0117\n"
            "step  23 | reward_mean 1.000 | loss      nan\nstep  24 | reward_mean 0.000 | loss      nan\n"
            "    adv = (rewards - rewards.mean()) / rewards.std()   # group-relative advantage\n")
    assert weighed_parts(loop, "WR-060")["item-std-unguarded"] > 0
    assert weighed_parts(loop.replace("# group-relative advantage", "# GRPO"), "WR-060")["item-std-unguarded"] > 0
    guarded = loop.replace("/ rewards.std()", "/ (rewards.std() + 1e-4)")
    assert "item-std-unguarded" not in weighed_parts(guarded, "WR-060")
    assert "item-std-unguarded" not in weighed_parts(loop.replace("# group-relative advantage", ""), "WR-060")


LOGISTIC_BY_HAND = ("A loss going from 0.07 to inf in one epoch seems like a bug. Lowering the lr just delays it.\n"
                    "def logistic_loss(logits, y):\n    return torch.log(1 + torch.exp(-y * logits)).mean()\n"
                    + "".join(f"epoch {e:3d}  train loss {v}\n" for e, v in [
                        (1, "0.5127"), (2, "0.3981"), (3, "0.3560"), (20, "0.1394"), (25, "0.1027"), (30, "0.0818"),
                        (33, "0.0752"), (34, "0.0733"), (35, "inf"), (36, "nan"), (37, "nan")]))


def test_a_loss_whose_only_log_is_of_one_plus_an_exp_holds_no_log_of_zero():
    """log(1 + exp(u)) is at least log 1 = 0 whatever u is: its inf is the exp's overflow (WR-020), never a log of 0.
    Where every log the paste calls is of that form, and nothing else in it takes a log, WR-030 is held against, its
    curve's face with it. A log of a probability, a method's .log() or a library cross-entropy beside it keeps WR-030."""
    from trainwreck.breaking_constructs import logs_kept_off_zero

    assert logs_kept_off_zero(LOGISTIC_BY_HAND) == "torch.log(1 + torch.exp(-y * logits))"
    from trainwreck.weighing import W_SAID_HALF

    parts = weighed_parts(LOGISTIC_BY_HAND, "WR-030")
    assert parts["curve"] > 0 and abs(parts["log-floor"] + parts["curve"] + W_SAID_HALF) < 1e-9
    assert sum(parts.values()) < sum(weighed_parts(LOGISTIC_BY_HAND, "WR-020").values())
    assert diagnosis(LOGISTIC_BY_HAND).matches[0].entry.id == "WR-020"
    for other in ("    p = torch.sigmoid(z)\n    extra = -torch.log(p).mean()\n", "    extra = probs.log().mean()\n",
                  "    extra = F.binary_cross_entropy(torch.sigmoid(z), t)\n",
                  # (mends_review_s76 5: a log nested deeper than LOG_CALL reads, log1p, a KL; a log printed at 0)
                  "    aux = -torch.log(torch.sigmoid(model(x))).mean()\n", "    aux = torch.log1p(-p).mean()\n",
                  "    aux = F.kl_div(q, p)\n", "a.py:3: RuntimeWarning: divide by zero encountered in log\n"):
        assert logs_kept_off_zero(LOGISTIC_BY_HAND + other) == "", other
    # (a softplus that is not the loss -- a count model's rate, handed to a loss the paste does not show -- says nothing
    # of that loss's logs)
    rate = ("rate = torch.log(1 + torch.exp(h))\nloss = criterion(rate, counts)\n"
            + LOGISTIC_BY_HAND.split("def logistic_loss")[0])
    assert logs_kept_off_zero(rate) == ""


@OPT_IN
def test_pytorch_reports_a_forward_nan_at_the_losss_own_backward():
    got = run("torch", """
        import json, torch
        torch.manual_seed(0)
        x = torch.randn(4, 3)
        x[1] = 0.0
        x = (x - x.mean(1, keepdim=True)) / x.std(1, keepdim=True)      # row 1: 0/0, nan before the model
        lin = torch.nn.Linear(3, 4)

        def said(loss):
            with torch.autograd.detect_anomaly():
                try:
                    loss(lin(x)).backward()
                    return ""
                except RuntimeError as e:
                    return str(e).splitlines()[0]

        print(json.dumps({"mse": said(lambda z: torch.nn.functional.mse_loss(z, torch.zeros(4, 4))),
                          "ce": said(lambda z: torch.nn.functional.cross_entropy(z, torch.tensor([0, 1, 2, 3]))),
                          "version": torch.__version__}))
    """)
    assert got["version"].startswith("2.13.0")
    assert got["mse"] == "Function 'MseLossBackward0' returned nan values in its 0th output."
    # (under cross_entropy the nan first shows at its log_softmax: NllLossBackward0's gradient does not read its input)
    assert got["ce"] == "Function 'LogSoftmaxBackward0' returned nan values in its 0th output."


@pytest.mark.parametrize("line, read", [
    ('imgs = np.stack([np.asarray(Image.open(p).convert("L").resize((128, 32)), dtype=np.float32) for p in paths])', True),
    ("x = np.array(cv2.imread(f)).astype(np.float32)", True),
    ('x = np.asarray(Image.open(p).convert("L"), dtype=np.float32) / 255.0', False),
    ('m = np.asarray(Image.open(mask_path), dtype=np.float32)', False),
    ('mask = np.asarray(Image.open(p), dtype=np.float32)', False),
    ('target = np.asarray(Image.open(tp), dtype=np.float32)', False),
    ('img = np.asarray(Image.open(p), dtype=np.float32)\nx = self.transform(img)', False),
    ('img = np.asarray(Image.open(p), dtype=np.float32)\nimg = (img - img.mean()) / img.std()', False),
    ('x = np.array(Image.open(p), np.float32)', True),
    ('depth = cv2.imread(p)\nd = depth.astype(np.float32)', False),
    ('self.img = np.asarray(Image.open(p), dtype=np.float32)\nx = self.transform(self.img)', False),
    ('x = np.asarray(Image.open(os.path.join(root, str(i))), dtype=np.float32)', True),
])
def test_an_image_read_and_made_float_in_one_expression_is_raw_pixels(line, read):
    from trainwreck.data_values import read_and_made_float

    assert bool(read_and_made_float(f"```python\n{line}\n```\n")) is read


def test_a_run_that_climbed_and_ends_above_where_it_started_made_the_model_worse():
    """From the run's start, a climb the loss watch flags, then only partly back: its last LOW_RUN values all RECOVERED
    times where it started or more (its first value, or the median of its first NOISY_START where higher), the run made
    the model worse than it began -- a failure, not a bump it recovered from. The loss first fell far below its start,
    so only that bound tells the two ends apart; one value of the last under it, a lucky first batch, a contrastive run
    whose queue fills, an RL run, or dropout raised on purpose is no such case."""
    from trainwreck.curve_shape import RECOVERED

    head = [2.1043, 1.5512, 1.2007, 1.0206, 1.2514, 1.6120, 2.2215, 3.1127, 4.4127, 5.3214]
    bound = RECOVERED * 2.1043

    def log(tail: list[float], words: str = "fine-tuning from a checkpoint, my own loop:", first: float = 2.1043) -> str:
        values = [first] + head[1:] + [4.6112, 4.0915] + tail
        return words + "\n" + "".join(f"step {k:5d} | loss {v:.4f}\n" for k, v in enumerate(values, 1))

    above = [bound * 1.12, bound * 1.03, bound * 1.07]
    worse = diagnosis(log(above))
    assert worse.verdict in ("uncertain", "failure") and worse.signature.name == "climbed-and-stayed"
    assert "it has not come back to where it started -- the run so far made the model worse" in worse.signature.facts[0]
    assert diagnosis(log([bound * 1.12, bound * 0.97, bound * 1.07])).signature.name == "healthy"
    # (a lucky first batch sets no start: after a first value of 0.7 the median of the first three, 1.2007, is where it
    # started, and a tail at 1.35x that is no failure, though it is 2.3x the first value)
    lucky = diagnosis(log([1.62, 1.60, 1.65], first=0.7).replace("1.0206", "0.6206")).signature.facts
    assert not any("made the model worse" in fact for fact in lucky)
    for words in ("MoCo v2 with a queue of 65536 negatives:", "DDPG agent:", "I increased dropout to 0.5:"):
        assert diagnosis(log(above, words)).signature.name == "healthy", words


def test_an_rl_run_or_a_contrastive_queue_is_a_loss_that_grows_when_healthy_for_every_climb_reading():
    """The refusal sits in GROWS_WHEN_HEALTHY, so every climb reading takes it: a slow climb back from the lowest reads
    as one that stayed in a plain run, and as no failure beside a MoCo queue or a DDPG agent."""
    values = [2.21, 1.95, 1.70, 1.52, 1.38, 1.25, 1.40, 1.68, 1.94, 1.81, 2.10, 1.97]
    log = "".join(f"epoch {k}: loss {v}\n" for k, v in enumerate(values, 1))
    assert diagnosis("my run:\n" + log).signature.name == "climbed-and-stayed"
    for words in ("MoCo v2 with a queue of negatives:", "DDPG agent:"):
        assert diagnosis(words + "\n" + log).signature.name == "healthy", words


HETEROSCEDASTIC = ("My PyTorch heteroscedastic regressor's loss goes below zero and keeps falling, then it is nan.\n\n"
                   "```python\nclass Net(nn.Module):\n    def forward(self, x):\n        h = self.body(x)\n"
                   "        return self.mean(h), self.logvar(h)\n\n"
                   "mu, s = model.forward(xb)\nloss = 0.5 * (torch.exp(-s) * (yb - mu) ** 2 + s).mean()\n```\n\n"
                   + "".join(f"epoch {e} loss {v}\n" for e, v in enumerate(
                       ("0.912", "0.233", "-0.81", "-2.94", "-6.07", "-9.88", "-14.1", "-18.9", "-23.6", "-28.0",
                        "nan", "nan"), 1)))


def test_an_exp_of_a_negated_layer_output_is_unbounded_and_a_fall_to_nan_is_its_face():
    """A precision from a log-variance, `exp(-s)`, overflows once the output falls below about -88.7 in float32; what
    takes it there is the training itself, the Gaussian NLL falling on the points already fit, so a fall that ends in
    nan is that exp's face: WR-020 comes first. Not a sigmoid's `1 + exp(-z)`, whose inf gives 0.0."""
    construct = breaking_construct(HETEROSCEDASTIC)["exp-unshifted"]
    assert "`torch.exp(-s)`" in construct and "below about -88.7 in float32" in construct
    d = diagnosis(HETEROSCEDASTIC)
    assert d.matches[0].entry.id == "WR-020"
    assert d.matches[0].parts["curve"] > 0 and d.matches[0].parts["exp-unshifted"] > 0
    # (a scale taken as the exp of the output and raised to -2: it overflows too, earlier, but through a power this
    # reading does not follow, so no face is claimed there -- code_review_s74 8)
    scale = HETEROSCEDASTIC.replace("loss = 0.5 * (torch.exp(-s) * (yb - mu) ** 2 + s).mean()",
                                    "sigma = torch.exp(s)\nloss = (0.5 * (yb - mu) ** 2 * sigma ** -2 + s).mean()")
    assert "`torch.exp(s)`" in breaking_construct(scale)["exp-unshifted"]
    assert "curve" not in weighed_parts(scale, "WR-020")
    sigmoid = HETEROSCEDASTIC.replace("torch.exp(-s) * (yb - mu) ** 2", "(yb - 1 / (1 + torch.exp(-s))) ** 2")
    assert "exp-unshifted" not in breaking_construct(sigmoid)
    # (Flax's `model.apply(params, x)` is the model's output too)
    flax = "mu, log_var = model.apply(params, x)\nloss = jnp.mean(jnp.exp(-log_var) * (y - mu) ** 2 + log_var)\n"
    assert "`jnp.exp(-log_var)`" in breaking_construct(flax)["exp-unshifted"]
    assert "exp-unshifted" not in breaking_construct(flax.replace("model.apply(params, x)", "jnp.split(z, 2)"))


COX = ("Survival net: loss goes down nicely for hundreds of epochs and then suddenly nan, everything after is nan.\n\n"
       "```python\ndef cox_loss(risk, time, event):\n    order = torch.argsort(time, descending=True)\n"
       "    risk, event = risk[order], event[order]\n    hr = torch.exp(risk)\n"
       "    log_risk = torch.log(torch.cumsum(hr, dim=0))\n    return -torch.sum((risk - log_risk) * event) / event.sum()\n```\n\n"
       + "".join(f"epoch {e:4d} | loss {v}\n" for e, v in [
           (0, "5.902"), (50, "4.611"), (100, "3.988"), (150, "3.452"), (200, "2.941"), (250, "2.470"), (300, "2.052"),
           (350, "1.713"), (400, "1.448"), (450, "1.262"), (500, "1.139")]))


def test_a_running_sum_of_exps_inside_a_log_is_a_log_sum_exp_by_hand():
    """A Cox partial likelihood's risk set written as log(cumsum(exp(risk))): the exps are summed inside a log, with
    nothing subtracted from their input."""
    assert "`torch.exp(risk)`" in breaking_construct(COX)["exp-unshifted"]
    assert "exp-unshifted" not in breaking_construct(COX.replace("torch.log(torch.cumsum(hr, dim=0))",
                                                                 "torch.logcumsumexp(risk, dim=0)"))
    # (a log under a module's module, TensorFlow's `tf.math.log`, on the exps' own line)
    keras = "risk = tf.reshape(y_pred, [-1])\nlog_risk_set = tf.math.log(tf.cumsum(tf.exp(risk)))\n"
    assert "`tf.exp(risk)`" in breaking_construct(keras)["exp-unshifted"]
    # (a logger's log is no math's: perplexity logged, `self.logger.experiment.log(...)` -- reread_s74 6)
    for logger in ("self.logger.experiment.log({'ppl': torch.exp(losses).mean()})\n",
                   "wandb.log({'ppl': torch.exp(losses).mean()})\n", "self.log('ppl', torch.exp(losses).mean())\n"):
        assert "exp-unshifted" not in breaking_construct("loss = criterion(out, y)\n" + logger), logger


def test_a_finite_log_beside_words_that_it_went_nan_is_read_as_the_run_before_the_nan():
    """The log is printed every 50 epochs and pasted up to its last finite line; the words say the loss turned nan
    after it. The words carry the failure, the log's fall is the fall before it, and the paste's constructs are read:
    WR-020 first. Without the words the same log is a healthy run."""
    from trainwreck.curve_shape import nonfinite_past_the_log
    d = diagnosis(COX)
    assert d.verdict == "uncertain" and d.matches[0].entry.id == "WR-020"
    assert d.matches[0].parts["exp-unshifted"] > 0
    assert any("a loss that fell and then turned nan or inf" in e for m in d.matches for e in m.evidence)
    assert nonfinite_past_the_log(d.evidence, d.signature)
    quiet = diagnosis(COX.split("\n", 1)[1])
    assert quiet.verdict == "healthy" and not nonfinite_past_the_log(quiet.evidence, quiet.signature)
    # (a nan denied is none)
    denied = diagnosis(COX.replace("and then suddenly nan, everything after is nan", "and never goes nan"))
    assert denied.verdict == "healthy"


def test_a_nan_said_of_this_runs_training_and_not_of_another_thing():
    from trainwreck.run_said import nonfinite_said_of_this_run as said
    assert said("The loss goes down for a long time and then suddenly nan.")
    assert said("deepsurv loss becomes nan after ~350 epochs, was working fine before")
    assert not said("The validation loss goes nan after epoch 3 but training is fine.")
    assert not said("The two-term loss printed on the other run's weights: clipped 2.5606, unclipped nan")
    assert not said("It never goes nan, the loss just stays high.")
    assert not said("Does it go nan later on?")
    assert not said('I never see "Loss became infinite or NaN at iteration=87!", it just stays flat.')
    assert said("On the training set the loss goes nan after epoch 40.")
    # (code_review_s74 1: the data's nan, a guard, a setting, and a run the sentence sets apart)
    for other in ("I dropped the rows with NaN values before training, and the loss goes down nicely.",
                  "I replaced NaN values in the CSV with the column mean before training.",
                  "I added a check that stops training if the loss is nan.",
                  "I set patience to inf in the early stopping callback.",
                  "I use torch.nan_to_num so nan values become 0 in my features.",
                  "Before I fixed the mask, the loss went nan after a few hundred steps.",
                  "My old run went nan at epoch 300.",
                  "With lr 1e-3 the loss went to nan at epoch 300, so I lowered it and now it trains fine.",
                  # (reread_s74 1: another's run, a run said to train well after it, a guess, a word made with nan)
                  "The loss went nan on my colleague's machine but never on mine.",
                  "In the notebook the loss went nan after 10 epochs; mine trains well.",
                  "My loss went nan, then I added clipping, and the loss now falls smoothly.",
                  "I think the loss would go nan if I raised the lr.",
                  "The loss is nan-free with bf16 and goes down smoothly."):
        assert not said(other), other
    # (a loss that drops, or stops falling, before it goes nan is this run's nan all the same)
    for fell in ("The loss drops nicely for 300 epochs and then suddenly goes nan.",
                 "The loss keeps dropping until epoch 350, then it is nan.",
                 "The loss stops falling after epoch 20 and then goes nan."):
        assert said(fell), fell
    assert not said("0       0    99      1.0986       NaN\n1       0    99         NaN    0.9012")
