"""Statistics a paste prints of its own tensors, read as the run's numbers: the targets' size (WR-360), an input
batch's min and max printed nan (WR-310), the largest logit rising toward exp's limit (WR-020); and gradients cleared
once after the batch loop (WR-260). Each reading was missed on a blind set (s246, s247) of reports its author wrote
without seeing the code."""
from __future__ import annotations

import math

from conftest import diagnosis, weighed_parts

# A standardised-input Keras regression whose target is a temperature in kelvin: the epoch's mean hides the enormous
# start (2871 after 2290 steps), so only the targets' printed size shows it
KELVIN = """Target is the daily mean 2 m temperature. Inputs are standardised.
model.compile(optimizer=keras.optimizers.SGD(learning_rate=1e-3, momentum=0.9), loss="mse")
Epoch 1/100
2290/2290 [==============================] - 6s 2ms/step - loss: 2871.5413 - val_loss: 96.2184
Epoch 2/100
2290/2290 [==============================] - 5s 2ms/step - loss: 418.7706 - val_loss: 6104.9307
Epoch 3/100
2290/2290 [==============================] - 5s 2ms/step - loss: 39127618.0000 - val_loss: 1556104331264.0000
Epoch 4/100
2290/2290 [==============================] - 5s 2ms/step - loss: nan - val_loss: nan
print(y_train.min(), y_train.max(), y_train.mean()) -> 251.35 306.95 283.71
"""


def test_targets_printed_in_their_raw_units_name_the_unscaled_targets():
    from trainwreck.printed_sizes import RAW_SIZE, target_size_printed

    # the threshold is the enormous start's: targets just under it make no fact, just over it one (99 ** 2 < 1e4 <= 101 ** 2)
    assert RAW_SIZE == 100.0
    assert target_size_printed("target stats: mean 99, std 1") == ""
    assert target_size_printed("target stats: mean 101, std 1")
    d = diagnosis(KELVIN)
    assert [m.entry.id for m in d.matches][:2] == ["WR-360", "WR-220"]
    assert d.matches[0].parts["target-size"] == 2.0
    assert "targets of about 283.7 in size, so a squared error starts near their mean square, about 8.049e+04" \
        in d.matches[0].evidence[0]
    # the rate's climb counts half, and says why
    assert any("printed targets are in their raw units" in a for a in d.matches[1].against)
    # the size is the root of the mean square where a mean and a deviation are given: sqrt(412.3² + 803.6²)
    said = target_size_printed("target stats on train: mean 412.3, std 803.6, p50 96, max 10800")
    assert f"about {math.sqrt(412.3 ** 2 + 803.6 ** 2):.4g} in size" in said
    # targets of unit scale, a prediction's statistics, an input's, or too few statistics to size them: no fact
    for other in ("print(y.min(), y.max(), y.mean())\n0.0 1.0 0.42", "print(y_pred.mean(), y_pred.std())\n300 20",
                  "x_train stats mean 300 std 10", "print(y.max())\n5000", "target stats: mean 12, std 5",
                  "print(y_train.min(), y_train.max(), y_train.mean()) -> 251.35 306.95"):
        assert target_size_printed(other) == "", other
    # targets the words say were standardised, or a classifier: not the fact
    assert "target-size" not in weighed_parts(KELVIN.replace("Inputs are standardised", "Targets are standardised"),
                                              "WR-360")
    assert "target-size" not in weighed_parts(KELVIN.replace('loss="mse"', 'loss="categorical_crossentropy"')
                                              .replace("Target is the daily mean 2 m temperature.",
                                                       "A softmax classifier."), "WR-360")


def test_a_written_out_squared_error_shows_a_regression():
    from trainwreck.run_kind import REGRESSION_SAID

    for said in ("return jnp.mean((pred - batch['y']) ** 2)", "loss = torch.mean((outputs - y) ** 2)",
                 "loss = ((pred - y) ** 2).mean()", "(preds - targets).pow(2).mean()", "jnp.mean(jnp.square(pred - y))",
                 "tf.reduce_mean(tf.square(y_pred - y_true))", "jnp.mean((model(x) - y) ** 2)"):
        assert REGRESSION_SAID.search(said), said
    # (a variance's, a consistency term's or a distillation's: not a prediction's error against a target)
    for other in ("var = jnp.mean((x - mu) ** 2)", "jnp.mean((pred - y))", "torch.mean((outputs - ema_outputs) ** 2)",
                  "torch.mean((out - teacher_logits) ** 2)"):
        assert not REGRESSION_SAID.search(other), other


DLRM = "".join(f"it {39800 + 200 * i} | loss {v} | ne 0.84\n" for i, v in enumerate(
    ["0.13121", "0.13096", "0.13133", "0.13089", "0.13117", "nan", "nan"]))


def test_an_input_batch_printed_nan_names_the_bad_batch():
    from trainwreck.data_values import input_stats_nonfinite

    words = "I printed dense.min()/dense.max() for that batch and got nan/nan.\n"
    d = diagnosis(words + DLRM)
    assert d.matches[0].entry.id == "WR-310" and d.matches[0].parts["input-stats-nonfinite"] == 2.0
    assert "(`dense.min()/dense.max()` gave nan/nan)" in d.matches[0].evidence[1]
    assert input_stats_nonfinite("x.max() -> nan")
    # denied, finite, or a tensor of the model's: no fact
    for other in ("x.max() never gave nan", "dense.min() gave 0.0", "the weights.max() gave nan", "logits.max() -> inf",
                  "I never saw x.max() return nan"):
        assert input_stats_nonfinite(other) == "", other


def test_a_check_of_the_weights_is_no_check_of_the_data():
    from trainwreck.data_checked import data_said_finite

    assert data_said_finite("torch.isfinite on all dense params and all EBC weights is True") == ""
    assert data_said_finite("torch.isfinite on every batch of the data is True")


TWO_TOWER = ("logits = (u @ v.T) / 0.05\nexp = torch.exp(logits)\nloss = -torch.log(exp.diag() / exp.sum(dim=1)).mean()\n"
             + "".join(f"step {s} loss {l} max_logit {m}\n" for s, l, m in [
                 (2300, "3.4688", "78.87"), (2400, "3.4413", "81.20"), (2500, "3.4026", "86.52"), (2600, "nan", "nan"),
                 (2700, "nan", "nan")]))


def test_a_logit_column_on_pace_to_pass_exps_limit_before_the_nan_is_the_overflow():
    d = diagnosis("fp32, no amp.\n" + TWO_TOWER)
    assert d.matches[0].entry.id == "WR-020" and d.matches[0].parts["exp-overflow-printed"] == 2.0
    assert ("`max_logit` beside the loss, rising: 81.2 at step 2400, 86.52 at step 2500, then non-finite with the loss "
            "at step 2600 -- at that pace it passed 88.72") in d.matches[0].evidence[0]
    # a pace that would not reach the limit by the next row (81.2, 82.0, then nan), or a column that is not the logits':
    # no printed overflow
    # (nor a mean logit's, which an exp(-x) may take: `real_logit`)
    for other in (TWO_TOWER.replace("81.20", "85.70"), TWO_TOWER.replace("max_logit", "max_score"),
                  TWO_TOWER.replace("max_logit", "real_logit")):
        assert "exp-overflow-printed" not in weighed_parts("fp32, no amp.\n" + other, "WR-020"), other


ACCUMULATING = """model = UNet().to(dev)
opt = torch.optim.Adam(model.parameters(), lr=1e-4)
for epoch in range(n_epochs):
    for i, (x, y) in enumerate(train_dl):
        pred = model(x)
        loss = F.mse_loss(pred, y) / accum
        loss.backward()
        if (i + 1) % accum == 0:
            opt.step()
    opt.zero_grad()
    validate(model, val_dl, epoch)
""" + "".join(f"epoch 0 it {100 * i} loss {v}\n" for i, v in enumerate(
    ["0.041", "0.009", "0.005", "0.007", "0.014", "0.033", "0.078", "0.160", "0.299", "0.724", "1.963", "4.402"]))


def test_gradients_cleared_once_after_the_batch_loop_are_the_accumulating_entry():
    from trainwreck.gradient_clearing import cleared_after

    d = diagnosis(ACCUMULATING)
    assert d.matches[0].entry.id == "WR-260" and d.matches[0].parts["cleared-outside"] > 0
    assert "clears the gradients only after `for i, (x, y) in enumerate(train_dl):`" in d.matches[0].evidence[0]
    # cleared inside the loop as well, or the clearing a statement of another loop: no fact
    inside = ACCUMULATING.replace("            opt.step()\n", "            opt.step()\n            opt.zero_grad()\n")
    assert cleared_after(inside) == ""
    assert cleared_after(ACCUMULATING.replace("    opt.zero_grad()\n", "    for p in params:\n        p.zero_grad()\n")) == ""
    # many indented lines after a loop and no clearing: one way to read each line, so this returns (eight spaces read
    # as `[ \t]+` then the rest, eight ways a line, ran for 8**40 ways)
    # (the text holds `zero_grad(`, so the literals' prefilter lets the pattern run; deeper than the loop, it cannot end a
    # match)
    assert cleared_after("for x in y:\n" + "        a = 1\n" * 40 + "zzz\n" * 3 + "        q.zero_grad()\n") == ""


def test_a_restart_that_broke_elsewhere_with_a_new_shuffle_moved_the_place():
    """(s246/11) "it went nan again but at 44,870 this time instead of 41,2xx (the reader shuffles with a new seed on
    restart)": a "but" with no comma before it still starts a clause of its own, and "at N instead" needs no unit."""
    from trainwreck.run_said import order_moved_it

    said = ("I restarted from the 40k checkpoint and it went nan again but at 44,870 this time instead of 41,2xx "
            "(the reader shuffles with a new seed on restart).")
    assert order_moved_it(said) == "at 44,870 this time instead of 41,2xx (the reader shuffles with a new seed on restart)"
    # the same place again, or a place that moved with no change of order: not the order's doing
    for other in ("With shuffle on, it went nan again at step 500, the same step.", "I reshuffled and it broke at 820 again.",
                  "It went nan again but at 44,870 this time instead of 41,200."):
        assert order_moved_it(other) == "", other


def test_one_class_for_everything_said_without_its_verb():
    """(s250/01) "Confusion matrix shows everything predicted as idle": a note leaves out the "is"."""
    from trainwreck.frozen_said import one_output_said

    assert one_output_said("Confusion matrix shows everything predicted as idle.") == "everything predicted as idle"
    assert one_output_said("all the images classified as cat.") == "all the images classified as cat"
    # a task's classes, or what was expected: not one output
    for other in ("all samples predicted as positive or negative.", "every image predicted as expected."):
        assert one_output_said(other) == "", other


SPECTROGRAMS = """Accuracy stuck at 11% from epoch 2 on.
    layers.Dense(10, activation="softmax"),
model.compile(optimizer=keras.optimizers.Adam(1e-3), loss="sparse_categorical_crossentropy", metrics=["accuracy"])
>>> X_train.shape, X_train.dtype, X_train.min(), X_train.max()
((6985, 128, 173, 1), dtype('float32'), 0.0, 8934.207)
""" + "".join(f"Epoch {i + 1}/50\n219/219 [==============================] - 18s 82ms/step - loss: {v} - accuracy: {a}\n"
              for i, (v, a) in enumerate([("61.8327", "0.1041"), ("2.2703", "0.1107"), ("2.2619", "0.1124"),
                                          ("2.2597", "0.1130"), ("2.2591", "0.1137"), ("2.2588", "0.1140")]))


def test_an_input_range_printed_in_raw_units_names_the_unnormalised_inputs():
    """(s251/09) An interpreter's tuple: each expression's value read beside it, NumPy 2's `np.float32(...)` too."""
    from trainwreck.printed_sizes import input_range_printed

    d = diagnosis(SPECTROGRAMS)
    assert d.matches[0].entry.id == "WR-330" and d.matches[0].parts["input-range"] == 2.0
    assert any("values up to 8934 in size" in e for e in d.matches[0].evidence)
    assert "up to 8934 in size" in input_range_printed(SPECTROGRAMS.replace("8934.207)", "np.float32(8934.207))"))
    assert "up to 1200 in size" in input_range_printed("print(X.min(), X.max())  # -1200.0 3.5")
    # inputs of unit scale, a tuple whose values do not line up with its expressions, a target's range, or inputs the
    # paste scales: no fact
    for other in (SPECTROGRAMS.replace("8934.207", "1.0"), SPECTROGRAMS.replace("0.0, 8934.207)", "8934.207)"),
                  "print(y.min(), y.max())\n0 5000"):
        assert input_range_printed(other) == "", other
    assert "input-range" not in weighed_parts(SPECTROGRAMS + "X_train = X_train / X_train.max()\n", "WR-330")


def test_the_same_output_vector_for_every_input_is_one_output():
    from trainwreck.frozen_said import one_output_said

    said = "model.predict on the val set gives the same probability vector for every clip."
    assert one_output_said(said) == "same probability vector for every clip"


def test_targets_scaled_alone_leave_the_inputs_raw():
    """(s255/05) A scaler fit on the targets only, and the inputs handed to fit as cut from the raw array."""
    from trainwreck.input_scaling import scaled_said

    code = ("raw = np.load('data.npz')['data'][..., 0].astype('float32')\nX, y = make_windows(raw)\n"
            "y_scaler = MinMaxScaler()\ny_tr = y_scaler.fit_transform(y[:n_tr])\n"
            "model.compile(optimizer=keras.optimizers.Adam(1e-3), loss='mse')\n"
            "model.fit(X_tr, y_tr, validation_data=(X_va, y_va), epochs=50)\n")
    said = scaled_said(code)
    assert said["unscaled"]["inputs"] == said["code"]["inputs"] == (
        "`y_tr = y_scaler.fit_transform(y[:n_tr])` scales the targets; `.fit(X_tr, ...)` is handed the inputs unscaled")
    words = "The prediction is a straight horizontal line, no daily pattern at all.\n"
    d = diagnosis(words + code)
    assert d.matches[0].entry.id == "WR-330" and d.matches[0].parts["unscaled-inputs"] > 0
    # the inputs scaled too, in any of the ways code writes it: no fact
    for scaled in ("X_tr = x_scaler.fit_transform(X_tr)\n", "X_tr = (X_tr - mu) / sd\n", "X_tr /= 1000.0\n",
                   "norm = keras.layers.Normalization()\n"):
        assert "inputs" not in scaled_said(scaled + code)["unscaled"], scaled


def test_a_forecast_said_to_be_a_flat_line_is_one_output():
    from trainwreck.frozen_said import one_output_said

    assert one_output_said("The prediction is a straight horizontal line.") == "prediction is a straight horizontal line"
    assert one_output_said("It only predicts a flat line.") == "predicts a flat line"
    # a straight line alone is a linear fit's, and a flat line denied is none
    for other in ("The prediction is a straight line through the points.", "The predictions are not a flat line now."):
        assert one_output_said(other) == "", other


def test_an_exp_of_minus_a_distance_cannot_overflow():
    """(s255/09) A kernel of distances, `jnp.exp(-dist / self.tau)` after `dist = jnp.sqrt(...)`: at most exp(0) = 1,
    so no overflow -- the square root at a zero distance is the suspect."""
    from trainwreck.breaking_constructs import breaking_construct

    code = ("        diff = e[:, None, :] - e[None, :, :]\n        dist = jnp.sqrt(jnp.sum(diff ** 2, axis=-1))\n"
            "        adj = jnp.exp(-dist / self.tau)\n        return adj / adj.sum(axis=-1, keepdims=True)\n")
    found = breaking_construct(code)
    assert "exp-unshifted" not in found and "sqrt-at-zero" in found
    # minus a score the code does not make nonnegative, or the distance itself: the exp's input is unbounded above
    for other in (code.replace("dist = jnp.sqrt(jnp.sum(diff ** 2, axis=-1))", "dist = e @ e.T"),
                  code.replace("jnp.exp(-dist / self.tau)", "jnp.exp(dist / self.tau)")):
        assert "exp-unshifted" in breaking_construct(other), other


def test_the_target_reading_refuses_what_is_not_the_targets_raw_size():
    """code_review_s71 1-9: a printed 1e160, a next line that is no print's output, another subject's statistics, the
    model's output named y, statistics around a scaling, a range alone, a first loss far below the claimed start, and an
    absolute loss."""
    from trainwreck.printed_sizes import target_size_printed

    for other in ("print(y_train.mean(), y_train.std()) -> 3.1e+160 2.0",
                  "print(y_train.mean(), y_train.std())\nEpoch 1/100\n",
                  "print(y.min(), y.max(), y.mean())\nmodel = make_mlp(512, 256, 128)",
                  "I think y is fine. The loss has mean 412 and std 803 over the last epoch.",
                  "x_train shape (1000, 8), y_train shape (1000,); x mean 300 std 50",
                  "y-axis range: min 0, max 2000", "predicted y: mean 300.2 std 20.1",
                  "y = model(x)\nprint(y.mean(), y.std())\n412.3 803.6\n",
                  "target stats (raw): mean 412.3, std 803.6; after StandardScaler: mean 0.0, std 1.0",
                  "print(y.min(), y.max())\n0.0 15000.0"):
        assert target_size_printed(other) == "", other
    # (a long run of digits reads in linear time: the digits have one way to split)
    assert target_size_printed("print(y_train.mean()) -> " + "1" * 20000 + "x") == ""
    kelvin = "print(y_train.min(), y_train.max(), y_train.mean()) -> 251.35 306.95 283.71"
    # a first loss of 0.98 is 8e4 times below 283.7 squared: the targets reaching the loss were scaled; Keras's epoch
    # mean of 2871 is 28 times below, as an epoch's mean pulls it
    assert target_size_printed(kelvin, 0.98) == "" and target_size_printed(kelvin, 2871.0)
    assert "target-size" not in weighed_parts(KELVIN.replace('loss="mse"', 'loss="mae"'), "WR-360")
    assert target_size_printed("y_train mean is 283.7, std is 12.1")


def test_the_input_nan_reading_refuses_another_subjects_nan():
    """code_review_s71 11-13: the loss's nan in the same sentence, an activation inside forward, a reconstruction, a
    std of one example, a question."""
    from trainwreck.data_values import input_stats_nonfinite

    for other in ("Inputs look fine, x.mean() is fine but loss is nan from step 500.",
                  "images.max() is 255 and then loss is nan at step 500",
                  "I added prints inside forward(): x.mean() is nan after the third block, the input itself is fine.",
                  "x_hat.max() -> nan", "x.std() is nan because the last batch has a single example.",
                  "x.max() is nan? no, it's finite"):
        assert input_stats_nonfinite(other) == "", other


def test_a_split_or_a_series_read_through_its_values_accessor_is_an_input():
    """(s266/09) A Darts series scaled and printed: "`train_s.values().min()` also prints nan" -- the training split by
    its own name, read through the accessor that hands its values over. Not a loss or a prediction of that split."""
    from trainwreck.data_values import input_stats_nonfinite

    assert "(`train_s.values().min()` gave nan)" in input_stats_nonfinite("`train_s.values().min()` also prints nan")
    assert input_stats_nonfinite("series.to_numpy().max() -> nan")
    for other in ("train_loss.min() is nan", "train_pred.max() -> nan", "train_s.values().min() gave 0.0"):
        assert input_stats_nonfinite(other) == "", other


def test_the_logit_pace_needs_the_logits_exp_and_counts_steps():
    """code_review_s71 14-15: an exp of a scale parameter, and a nan row ten steps after the last, not a hundred."""
    base = "fp32, no amp.\n" + TWO_TOWER
    assert weighed_parts(base, "WR-020")["exp-overflow-printed"] == 2.0
    clip = base.replace("exp = torch.exp(logits)", "scale = torch.exp(model.logit_scale).clamp(max=100)\nexp = logits")
    soon = base.replace("step 2600 loss nan max_logit nan", "step 2510 loss nan max_logit nan")
    for other in (clip, soon):
        assert "exp-overflow-printed" not in weighed_parts(other, "WR-020")


def test_clearing_after_a_loop_needs_an_optimizers_step_and_a_statement():
    """code_review_s71 16-18: an environment's step, a sentence that mentions zero_grad, MXNet's overwritten gradients."""
    from trainwreck.gradient_clearing import cleared_after

    episodes = ("for episode in range(n):\n    obs = env.reset()\n    for t in range(max_t):\n"
                "        obs, r, done, _ = env.step(action)\n        (-logp * r).backward()\n    opt.step()\n"
                "    opt.zero_grad()\n")
    prose = ("for x, y in loader:\n    loss = F.mse_loss(model(x), y)\n    loss.backward()\n    opt.step()\n\n"
             "I trimmed the paste: opt.zero_grad() is the first line of that loop body.\n")
    gluon = ("for epoch in range(10):\n    for data, label in train_data:\n        with autograd.record():\n"
             "            loss = loss_fn(net(data), label)\n        loss.backward()\n        trainer.step(batch_size)\n"
             "    net.collect_params().zero_grad()\n")
    for other in (episodes, prose, gluon):
        assert cleared_after(other) == "", other
    assert cleared_after("grad_req='add'\n" + gluon) == "for data, label in train_data:"


def test_the_moved_place_is_not_a_hope_nor_a_setting():
    """code_review_s71 19-20."""
    from trainwreck.run_said import order_moved_it

    for other in ("I hoped reshuffling would move it to a different step but it did not move at all: step 900 every time.",
                  "I turned off shuffling and ran with num_workers at 0 instead of 8 and it dies at step 900 every time.",
                  "With shuffle=False and the batch size at 32 instead of 64 the loss goes nan at step 900.",
                  "I reshuffled but it didn't move."):
        assert order_moved_it(other) == "", other


def test_a_check_of_the_parameters_in_code_is_no_check_of_the_data_but_the_model_inputs_are():
    """code_review_s71 21-22."""
    from trainwreck.data_checked import data_said_finite

    assert data_said_finite("torch.isfinite on the model inputs is True for every batch")
    assert data_said_finite("isfinite on the weights and the inputs is True")
    for other in ("torch.isfinite(p).all() is True for every p in model.parameters()",
                  "torch.isfinite(model.fc.weight).all() is True"):
        assert data_said_finite(other) == "", other


FLOWERS = """train_ds = tf.keras.utils.image_dataset_from_directory("flower_photos", image_size=(160, 160), batch_size=32)
base_model = tf.keras.applications.MobileNetV2(input_shape=(160, 160, 3), include_top=False, weights="imagenet")
base_model.trainable = False
model.compile(optimizer=tf.keras.optimizers.Adam(learning_rate=1e-3),
              loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True), metrics=["accuracy"])
I'm barely above guessing with 5 classes and the loss hardly moves.
""" + "".join(f"Epoch {i + 1}/10\n92/92 [==============================] - 10s 108ms/step - loss: {v} - accuracy: {a}\n"
              for i, (v, a) in enumerate([("1.6817", "0.2258"), ("1.5962", "0.2636"), ("1.5834", "0.2759"),
                                          ("1.5741", "0.2868"), ("1.5690", "0.2946"), ("1.5637", "0.2990"),
                                          ("1.5601", "0.3031"), ("1.5569", "0.3065"), ("1.5548", "0.3089"),
                                          ("1.5521", "0.3120")]))


def test_a_keras_application_that_builds_no_scaling_takes_raw_pixels_from_the_directory_loader():
    """(s254/12) image_dataset_from_directory gives floats from 0 to 255; MobileNetV2 takes [-1, 1] through its
    preprocess_input, which the paste never calls. Not for a model that scales itself (EfficientNet), one whose caffe
    mode takes 0 to 255 less the mean (ResNet50), nor where preprocess_input is called."""
    from trainwreck.data_values import keras_directory_unscaled

    d = diagnosis(FLOWERS)
    assert d.matches[0].entry.id == "WR-330" and d.matches[0].parts["raw-pixels"] > 0
    assert any("MobileNetV2 builds no scaling of its own; its preprocess_input does that" in e
               for e in d.matches[0].evidence)
    assert keras_directory_unscaled(FLOWERS) == "MobileNetV2"
    for other in (FLOWERS.replace("MobileNetV2", "EfficientNetB0"), FLOWERS.replace("MobileNetV2", "ResNet50"),
                  FLOWERS + "x = tf.keras.applications.mobilenet_v2.preprocess_input(inputs)\n"):
        assert keras_directory_unscaled(other) == "", other


JAX_ACCUMULATOR = """acc_grads = jax.tree_util.tree_map(jnp.zeros_like, params)
ACCUM = 4
for i, batch in enumerate(train_iter):
    loss, grads = grad_step(params, batch)
    acc_grads = jax.tree_util.tree_map(lambda a, g: a + g, acc_grads, grads)
    if (i + 1) % ACCUM == 0:
        mean_grads = jax.tree_util.tree_map(lambda a: a / ACCUM, acc_grads)
        params, opt_state = apply_step(params, opt_state, mean_grads)
""" + "".join(f"step {25 * (i + 1)} | loss {v}\n" for i, v in enumerate(
    ["3.1872", "1.6235", "1.1904", "1.0418", "0.9872", "1.0620", "1.3315", "1.9943", "3.4120", "6.7205", "14.8817",
     "41.6093", "87.3350", "nan"]))


def test_a_jax_accumulator_never_set_back_inside_the_loop_is_never_cleared():
    """(s254/10) `acc = tree_map(lambda a, g: a + g, acc, grads)`, stepped with through a name made from it, and set
    to zeros only before the loop."""
    from trainwreck.gradient_clearing import jax_accumulator_never_reset

    assert jax_accumulator_never_reset(JAX_ACCUMULATOR) == \
        "acc_grads = jax.tree_util.tree_map(lambda a, g: a + g, acc_grads, grads)"
    d = diagnosis(JAX_ACCUMULATOR)
    assert d.matches[0].entry.id == "WR-260" and d.matches[0].parts["never-cleared"] > 0
    # set back after the step, or never handed to a step: no fact
    reset = JAX_ACCUMULATOR.replace("mean_grads)\n", "mean_grads)\n        acc_grads = jax.tree_util.tree_map("
                                                     "jnp.zeros_like, acc_grads)\n", 1)
    unused = JAX_ACCUMULATOR.replace("apply_step(params, opt_state, mean_grads)", "apply_step(params, opt_state, grads)")
    for other in (reset, unused):
        assert jax_accumulator_never_reset(other) == "", other


def test_a_nan_only_on_the_reporters_own_data_points_at_the_data():
    """(s254/05) "Using torchgeo's EuroSAT I don't get this, only with my own tiles": the code ran elsewhere."""
    from trainwreck.run_said import own_data_only

    said = "Using torchgeo's EuroSAT I don't get this, only with my own tiles."
    assert own_data_only(said) == "only with my own tiles"
    curve = "".join(f"step {10 * i} train_loss={v}\n" for i, v in enumerate(
        ["1.980", "1.140", "0.713", "0.586", "0.624", "nan", "nan", "nan"]))
    assert weighed_parts(said + "\n" + curve, "WR-310")["own-data-only"] > 0
    # beside a run that never went non-finite, denied, or asked: no fact
    assert "own-data-only" not in weighed_parts(said + "\n" + curve.replace("nan", "0.5"), "WR-310")
    for other in ("It does not happen not only with my own data.", "Does it only happen with my own data?"):
        assert own_data_only(other) == "", other


FRAUD = """config.yaml:
learning_rate: 0.3
tx = optax.adam(cfg.learning_rate)
I counted how many hidden units ever fire: layer 1 all 128 are alive, but only 4 of the 64 units in layer 2 output anything non-zero.
""" + "".join(f"step {10 * (i + 1)}  loss(avg10)={v}  max={m}\n" for i, (v, m) in enumerate([
    ("8.9591", "78.566"), ("0.7346", "1.439"), ("0.2764", "0.422"), ("0.2794", "1.217"), ("0.1690", "0.425"),
    ("0.1173", "0.327"), ("0.1510", "0.603"), ("0.1210", "0.219"), ("0.1077", "0.319"), ("0.0796", "0.111")]))


def test_a_rate_set_in_a_yaml_config_and_a_layer_said_mostly_dead_are_a_run_gone_wrong():
    """(s249/10) `loss(avg10)=8.96` is a loss with a qualifier; `learning_rate: 0.3` in the YAML beside
    `optax.adam(cfg.learning_rate)` is Adam at 0.3; "only 4 of the 64 units ... output anything non-zero" is a layer
    mostly dead, which no normal run has, whatever its curve did."""
    from trainwreck.frozen_said import dead_units_said
    from trainwreck.logscan import scan
    import io

    assert scan(io.BytesIO(FRAUD.encode()), "x.txt").count == 10
    # (a validation's qualifier, or a call's arguments, is no training loss)
    assert scan(io.BytesIO(b"loss(val)=0.5\nloss(val)=0.4\nloss(val)=0.3\n"), "x.txt").count == 0
    d = diagnosis(FRAUD)
    assert d.verdict != "normal" and d.matches[0].entry.id == "WR-220"
    assert "Adam with a learning rate of 0.3" in d.matches[0].evidence[0]
    assert dead_units_said(FRAUD) == "only 4 of the 64 units in layer 2 output anything non-zero"
    # more than a quarter alive is no dead layer
    assert dead_units_said("only 40 of the 64 units fire") == ""


EPD = """class EPDNet(nn.Module):
    def __init__(self, d_in):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(d_in, 64), nn.ReLU(), nn.Linear(64, 1), nn.Sigmoid())
criterion = nn.BCEWithLogitsLoss(pos_weight=torch.tensor([14.3]))
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
""" + "".join(f"ep {i:02d} | train {v} | val 1.12\n" for i, v in zip([*range(1, 11), 28, 29, 30], [
    "1.2527", "1.1435", "1.1342", "1.1310", "1.1285", "1.1270", "1.1256", "1.1242", "1.1232", "1.1220", "1.1125",
    "1.1124", "1.1121"]))


def test_a_sigmoid_before_a_logits_loss_makes_a_stall_its_own_face():
    """(s249/07) With Adam the loss comes down to the floor it cannot pass and stops: the stall after a drop is WR-130's
    second signature where the paste shows the pairing, a whole curve's part, above the dead units' own stall."""
    d = diagnosis(EPD)
    assert d.signature.name == "stall-after-drop"
    assert d.matches[0].entry.id == "WR-130" and d.matches[0].parts["curve"] == 3.0
    assert not any(a.startswith("the loss curve does not look like this entry's") for a in d.matches[0].against)
    # without the pairing, the stall is the dead units' signature
    assert diagnosis(EPD.replace(", nn.Sigmoid()", "")).matches[0].entry.id != "WR-130"


SCORECARD = """features = ["loan_amnt", "annual_inc", "fico_range_low", "int_rate", "dti", "revol_bal",
            "revol_util", "open_acc", "total_acc", "emp_length_yrs", "inq_last_6mths", "term_months"]
X_train = train[features].values.astype("float32")
model = keras.Sequential([layers.Input(shape=(12,)), layers.Dense(64, activation="relu"),
                          layers.Dense(1, activation="sigmoid")])
model.compile(optimizer=keras.optimizers.Adam(1e-3), loss="binary_crossentropy", metrics=[keras.metrics.AUC(name="auc")])
""" + "".join(f"Epoch {i + 1}/40\n375/375 [==============================] - 1s 3ms/step - loss: {v} - auc: 0.54\n"
              for i, v in enumerate(["113.9183", "40.6354", "42.6483", "42.4939", "40.1151", "34.2752", "34.7198",
                                     "37.7611", "14.3808", "13.7436", "13.2613", "12.9728"]))


def test_keras_binary_crossentropy_starting_far_above_ln2_is_enormous_and_a_listed_money_column_is_raw():
    """(s249/06) A Keras mean binary cross-entropy of 113.9 is 164 times ln 2: enormous for two classes; the columns
    listed under a name, then selected with it, hold a loan amount fed as it is."""
    from trainwreck.input_scaling import money_columns_fed

    d = diagnosis(SCORECARD)
    assert "ln 2 = 0.693 here (the paste names a binary cross-entropy), and this is 164 times that" in (
        d.signature.enormous_start)
    assert d.verdict != "normal" and d.matches[0].entry.id == "WR-330"
    assert money_columns_fed(SCORECARD).startswith('`X_train = train[features].values.astype("float32")`, loan_amnt')
    # scaled, or summed: no such reading
    assert money_columns_fed(SCORECARD + "X_train = StandardScaler().fit_transform(X_train)\n") == ""
    summed = SCORECARD.replace('loss="binary_crossentropy"', 'loss=keras.losses.BinaryCrossentropy(reduction="sum")')
    assert "ln 2 = 0.693" not in diagnosis(summed).signature.enormous_start


JETSON = """    model = model.half().cuda()
    opt = torch.optim.SGD(model.parameters(), lr=1e-4, momentum=0.9)
I compared the head before and after: 99.6% of the weights are bit-identical after 3 epochs.
""" + "".join(f"[ep {i // 5}] it {50 * (i % 5)}/212 loss {v}\n" for i, v in enumerate(
    ["1.7725", "1.8086", "1.7402", "1.7900", "1.7539", "1.7959", "1.7461", "1.8027", "1.7617", "1.7852", "1.7725",
     "1.7539"]))


def test_float16_weights_that_do_not_change_make_a_flat_loss_their_face():
    """(s250/03) Weights held in float16 and said not to change: updates below half the gap to the next float16 value
    round back to the weight, and a network that takes no update leaves its loss where it started -- the plateau is
    that face, a whole curve's part."""
    d = diagnosis(JETSON)
    assert d.signature.name == "plateau-from-start"
    assert d.matches[0].entry.id == "WR-040" and d.matches[0].parts["curve"] == 3.0
    # float32 weights said not to change are another story
    assert diagnosis(JETSON.replace("model.half().cuda()", "model.cuda()")).matches[0].entry.id != "WR-040"


def test_review_s71b_misreadings_stay_fixed():
    """code_review_s71b: own data said in a belief, a config, a log or with no failure (7); the common phrasings (8);
    a dev or one batch's qualified loss (9); a few units that output 0 or NaN, a sparse layer by design, a hypothetical,
    a denial, a state left (10, 11); a tuple that resets a JAX accumulator and its other spellings (5, 6); a VAE's
    scaled binary cross-entropy (13); a list of the targets' columns (14); a stall well above the softmax floor (12)."""
    import io

    from trainwreck.frozen_said import dead_units_said
    from trainwreck.gradient_clearing import jax_accumulator_never_reset
    from trainwreck.input_scaling import money_columns_fed
    from trainwreck.logscan import scan
    from trainwreck.run_said import own_data_only

    for other in ("At first I thought it was only with my own data, but it happens on CIFAR-10 too.",
                  "The learning rate is set only in my config file, nowhere else.",
                  "The nan shows only in my logs; TensorBoard's curve is fine.",
                  "I trained only on my own images, about 2000 of them."):
        assert own_data_only(other) == "", other
    for said in ("It works on CIFAR-10 but gives nan on my own dataset.", "The problem only occurs with my own data.",
                 "It only fails on my dataset."):
        assert own_data_only(said), said
    dev = b"".join(b"epoch %d loss(train)=%.3f loss(dev)=%.3f\n" % (i, 2.3 / i, 1.5 + 0.1 * i) for i in range(1, 6))
    assert scan(io.BytesIO(dev), "x.txt").head[:3] == [2.3, 1.15, 0.767]
    two = b"".join(b"iter %d | loss(batch)=%.3f | loss(avg100)=%.3f\n" % (100 * i, 4.0 + i % 2, 5.0 - 0.1 * i)
                   for i in range(1, 6))
    assert scan(io.BytesIO(two), "x.txt").head[:3] == [4.9, 4.8, 4.7]
    for other in ("only 3 of the 128 neurons output exactly 0 on every input, the rest are fine.",
                  "only 2 of the 64 channels output NaN after the first epoch",
                  "Only 5 of the 512 units fire for any given image, which is normal for a sparse autoencoder.",
                  "If only 4 of the 64 units fire, the layer has almost no capacity.",
                  "Before adding BatchNorm only 4 of the 64 units output anything non-zero; now all 64 are active."):
        assert dead_units_said(other) == "", other
    line = "acc_grads = jax.tree_util.tree_map(lambda a, g: a + g, acc_grads, grads)"
    for spelled in ("acc_grads = jax.tree_map(lambda a, g: a + g, acc_grads, grads)",
                    "acc_grads = tree_map(jnp.add, acc_grads, grads)", "acc_grads = optax.tree_utils.tree_add(acc_grads, grads)"):
        assert jax_accumulator_never_reset(JAX_ACCUMULATOR.replace(line, spelled)), spelled
    tuple_reset = JAX_ACCUMULATOR.replace("params, opt_state = apply_step(", "params, opt_state, acc_grads = apply_step(")
    assert jax_accumulator_never_reset(tuple_reset) == ""
    vae = SCORECARD.replace('loss="binary_crossentropy"', "loss=vae_loss") + \
        "xent_loss = original_dim * keras.losses.binary_crossentropy(x, x_decoded_mean)\n"
    assert "ln 2 = 0.693" not in diagnosis(vae).signature.enormous_start
    targets = SCORECARD.replace("features = [", "targets = [").replace("train[features]", "train[targets]")
    assert money_columns_fed(targets) == ""
    # a softmax over ten classes stalling at 1.95, 33% above its floor 1.4612: not the pairing's face; at 1.47, its face
    softmax = EPD.replace("nn.Sigmoid()", "nn.Softmax(dim=1)").replace(
        "BCEWithLogitsLoss(pos_weight=torch.tensor([14.3]))", "CrossEntropyLoss()  # 10 classes")
    def stalled_at(level):
        return softmax.split("ep 01")[0] + "".join(f"ep {i:02d} | train {v:.4f} | val 2.0\n" for i, v in zip(
            [*range(1, 11), 28, 29, 30], [2.30, 2.10, 2.00, 1.98] + [level * (1 + 0.001 * k) for k in range(8, -1, -1)]))
    assert diagnosis(stalled_at(1.95)).signature.name == diagnosis(stalled_at(1.47)).signature.name == "stall-after-drop"
    assert weighed_parts(stalled_at(1.95), "WR-130").get("curve", 0) < 3.0
    assert weighed_parts(stalled_at(1.47), "WR-130")["curve"] == 3.0


def test_tensorflow_js_softmax_into_its_logits_loss_and_a_hidden_sigmoid_beside_a_price():
    """(s258/03, s258/05) TensorFlow.js: a last dense layer with activation 'softmax' whose predictions go to
    tf.losses.softmaxCrossEntropy, which takes logits; and a regression on prices (meanSquaredError) whose hidden
    layers are sigmoid -- no probability the model outputs."""
    from trainwreck.loss_inputs import tfjs_pairing
    from trainwreck.run_kind import REGRESSION_SAID

    js = ("model.add(tf.layers.dense({ units: 10, activation: 'softmax' }));\n"
          "const lossVal = optimizer.minimize(() => {\n  const preds = model.predict(xs);\n"
          "  return tf.losses.softmaxCrossEntropy(labels, preds);\n}, true);\n")
    assert tfjs_pairing(js).group("kind") == "softmax"
    assert diagnosis(js + "step 0 loss 2.3024\nstep 100 loss 2.1468\nstep 200 loss 1.9127\n").matches[0].entry.id == "WR-130"
    # a last layer with no softmax, or logits handed over: no pairing
    assert tfjs_pairing(js.replace("activation: 'softmax'", "activation: 'linear'")) is None
    assert REGRESSION_SAID.search("loss: 'meanSquaredError'")
    houses = ("Price is in dollars.\nmodel.add(tf.layers.dense({ inputShape: [9], units: 50, activation: 'sigmoid' }));\n"
              "model.add(tf.layers.dense({ units: 1 }));\n"
              "model.compile({ optimizer: tf.train.sgd(0.01), loss: 'meanSquaredError' });\n"
              "Epoch 1: loss = 41297035264\nEpoch 2: loss = 4889061097472\nEpoch 3: loss = 6.08e+22\nEpoch 4: loss = Infinity\n")
    assert weighed_parts(houses, "WR-360")["raw-targets"] > 0


def test_a_regressions_enormous_first_loss_that_fell_still_gives_the_targets_size_in_a_run_gone_wrong():
    """(s274/04) Waypoints in BEV pixels: the first epoch's MSE 18734 (the targets' mean square, the outputs still near
    0), then a plateau at 3851 with one trajectory for every input. The fall does not make those targets small; beside a
    run gone wrong the first loss names WR-360. A falling regression with no such words is a run learning in its units."""
    code = ('```python\nmodel.compile(optimizer=tf.keras.optimizers.Adam(1e-3), loss="mse", metrics=["mae"])\n```\n')
    log = "".join(f"Epoch {k + 1}/50\n1250/1250 [==============================] - 131s 105ms/step - loss: {v} - "
                  f"mae: 46.5 - val_loss: 3890.1\n" for k, v in enumerate(
                      ["18734.2207", "3962.1475", "3871.5532", "3869.0918", "3866.8801", "3867.3120", "3866.9529"]))
    gone = diagnosis("The waypoint model outputs the same trajectory for every input.\n" + code + log)
    assert gone.matches[0].entry.id == "WR-360"
    assert "its first loss (1.873e+04) is enormous, though it fell to 3867" in gone.matches[0].evidence[-1]
    learning = diagnosis("My waypoint regression, first epochs:\n" + code + log)
    assert not any("is enormous, though it fell" in e for m in learning.matches for e in m.evidence)


def test_a_splits_model_outputs_and_metrics_are_not_its_inputs():
    """code_review_s72 3: `train_logits`, `train_mse`, `train_acc` are of the model or the metric, not the data."""
    from trainwreck.data_values import input_stats_nonfinite
    for other in ("train_logits.max() is nan", "train_mse.mean() is nan", "train_acc.mean() -> nan",
                  "train_probs.max() gave nan"):
        assert input_stats_nonfinite(other) == "", other
    assert input_stats_nonfinite("train_x.max() -> nan")


def test_pytorch_zero_dimensional_tensors_printed_by_the_interpreter_are_read_as_numbers():
    """(s262/04) `>>> x.min(), x.max()` prints `(tensor(-1024.), tensor(1883.))`: PyTorch writes a 0-d tensor as its
    value inside `tensor(...)`, with its device where it is not the CPU. Read as the numbers they hold."""
    from trainwreck.printed_sizes import input_range_printed

    for out in ("(tensor(-1024.), tensor(1883.), tensor(-497.3120))",
                "(tensor(-1024., device='cuda:0'), tensor(1883., device='cuda:0'), tensor(-497.31, device='cuda:0'))",
                "(tensor(-1024., grad_fn=<MinBackward1>), tensor(1883., grad_fn=<MaxBackward1>), tensor(-497.3))"):
        fact = input_range_printed(f">>> x.min(), x.max(), x.mean()\n{out}\n")
        assert "values up to 1883 in size" in fact
    assert input_range_printed(">>> x.min(), x.max()\n(tensor(-1.), tensor(1.))\n") == ""


CT_SLICES = ("2d unet on CT slices, BCEWithLogitsLoss, Adam 1e-3. I removed the BatchNorm because my batch is only 8.\n"
             ">>> x.min(), x.max(), x.mean()\n(tensor(-1024.), tensor(1883.), tensor(-497.3120))\n"
             "epoch 1 iter 0     loss 0.7012\nepoch 1 iter 50    loss 0.3821\nepoch 1 iter 100   loss 41.2706\n"
             "epoch 1 iter 150   loss 0.1502\nepoch 1 iter 200   loss 0.1367\n")


def test_a_normalisation_layer_said_taken_out_scales_nothing():
    """A BatchNorm in the network adapts to the inputs' scale, so the inputs' printed range is no fact beside one; a
    BatchNorm said removed is not in the network."""
    assert weighed_parts(CT_SLICES, "WR-330")["input-range"] > 0
    kept = CT_SLICES.replace("I removed the BatchNorm because my batch is only 8.", "The UNet has BatchNorm after each conv.")
    assert "input-range" not in weighed_parts(kept, "WR-330")
    for kept_in in ("I did not remove the BatchNorm, even though my batch is only 8.", "The UNet keeps its BatchNorm."):
        assert "input-range" not in weighed_parts(CT_SLICES.replace("I removed the BatchNorm because my batch is only 8.",
                                                                    kept_in), "WR-330"), kept_in
    for taken_out in ("I removed all the BatchNorm layers.", "w/o BatchNorm.", "I don't use BatchNorm.",
                      "BatchNorm removed since the batch is 8.", "I left BatchNorm out for now.",
                      "I commented out the BatchNorm layers.", "I got rid of nn.BatchNorm2d."):
        assert weighed_parts(CT_SLICES.replace("I removed the BatchNorm because my batch is only 8.", taken_out),
                             "WR-330")["input-range"] > 0, taken_out
    assert "WR-330" in [m.entry.id for m in diagnosis(CT_SLICES).matches[:3]]


def test_a_regressions_enormous_first_loss_beside_words_that_it_does_not_learn_and_a_metric_summed():
    """(s265/01) A molecule's energy in eV as the target, F.mse_loss, first epoch 2.7e7, then a slow fall; the words
    say the error is stuck. The test loop sums absolute errors for its MAE: that `.sum()` is the metric's, and the loss
    the code builds is a mean. Words that it does not learn make the run one gone wrong, as an output stuck on one
    value does."""
    code = ("```python\nloss = F.mse_loss(model(data), data.y)\n...\nerror += (model(data) - data.y).abs().sum().item()"
            "  # MAE\n```\n")
    log = "".join(f"Epoch: {k:03d}, Loss: {v}, Val MAE: {m}\n" for k, v, m in [
        (1, "27416093.88", "471.3"), (2, "301227.55", "318.7"), (3, "128901.33", "229.0"), (4, "71804.22", "163.5"),
        (5, "50662.91", "181.9"), (6, "38317.48", "131.6"), (7, "30950.27", "140.4"), (8, "25631.80", "112.0"),
        (9, "12107.41", "74.6"), (10, "7413.90", "63.2")])
    stuck = diagnosis("The MAE is stuck around 60, nowhere near the papers.\n" + code + log)
    assert stuck.matches[0].entry.id == "WR-360"
    assert "its first loss (2.742e+07) is enormous, though it fell to 7414" in stuck.matches[0].evidence[0]
    learning = diagnosis("My energy regression, first epochs:\n" + code + log)
    assert not any("is enormous, though it fell" in e for m in learning.matches for e in m.evidence)
    # (a loss summed on its own line is a sum, large by construction: no targets' size read from it)
    summed = code.replace("loss = F.mse_loss(model(data), data.y)", "loss = F.mse_loss(model(data), data.y, reduction='none').sum()")
    stuck_sum = diagnosis("The MAE is stuck around 60, nowhere near the papers.\n" + summed + log)
    assert not any("is enormous, though it fell" in e for m in stuck_sum.matches for e in m.evidence)
    # (nor one built with reduction='none' and summed under another name)
    elements = code.replace("loss = F.mse_loss(model(data), data.y)",
                            "criterion = nn.MSELoss(reduction='none')\nl = criterion(model(data), data.y).sum()")
    stuck_elements = diagnosis("The MAE is stuck around 60, nowhere near the papers.\n" + elements + log)
    assert not any("is enormous, though it fell" in e for m in stuck_elements.matches for e in m.evidence)


def test_a_normalisation_layer_said_taken_out_is_none_for_every_reading_of_scaled_inputs():
    """One home for "a norm layer taken out" (weight_init.without_unused_norm_layers): the targets scaled alone beside
    raw inputs, and the layers the network has for its init, read it as the words' scaling does."""
    from trainwreck.input_scaling import targets_alone_scaled
    from trainwreck.weight_init import NORMALISED_LAYERS, without_unused_norm_layers

    code = "y_tr = y_scaler.fit_transform(y_tr)\nmodel.fit(X_tr, y_tr, epochs=20)\n"
    scaling = "y_tr = y_scaler.fit_transform(y_tr)"
    assert targets_alone_scaled("I removed BatchNorm, batch is 8.\n" + code, scaling)
    assert targets_alone_scaled("The net has BatchNorm after each layer.\n" + code, scaling) == ""
    assert not NORMALISED_LAYERS.search(without_unused_norm_layers("a model without nn.BatchNorm1d(64)"))
    assert NORMALISED_LAYERS.search(without_unused_norm_layers("x = nn.BatchNorm1d(64)(x)"))
    # (and the init reading: a wide draw over a ReLU stack said to be without its BatchNorm is too wide; with the
    # BatchNorm built, the spread is reset after each layer -- final_review_s75 5)
    from trainwreck.weight_init import init_too_wide
    stack = ("net = nn.Sequential(nn.Linear(64, 512), nn.ReLU(), nn.Linear(512, 512), nn.ReLU(), nn.Linear(512, 512),\n"
             "                    nn.ReLU(), nn.Linear(512, 10))\n"
             "for m in net.modules():\n    if isinstance(m, nn.Linear):\n        nn.init.normal_(m.weight, std=0.5)\n")
    assert init_too_wide("I took out nn.BatchNorm1d(512) between the layers.\n" + stack)
    assert init_too_wide(stack.replace("nn.ReLU(), nn.Linear(512, 512), nn.ReLU(), nn.Linear(512, 512)",
                                       "nn.BatchNorm1d(512), nn.ReLU(), nn.Linear(512, 512), nn.BatchNorm1d(512), "
                                       "nn.ReLU(), nn.Linear(512, 512)")) == ""


def test_a_random_place_with_the_data_shuffled_is_the_order_moving_it():
    """"With shuffle=True it goes nan at a random iteration": the place it broke moved with the data's order; a random
    seed tried, or a setting, is no place."""
    from trainwreck.run_said import order_moved_it
    said = order_moved_it("- with shuffle=True it goes nan at a random iteration, sometimes in epoch 1, sometimes later")
    assert said.startswith("with shuffle=True it goes nan at a random iteration")
    assert order_moved_it("With shuffle=True I tried a random seed and it still breaks at step 400.") == ""
    assert order_moved_it("I shuffle the data and use a random crop of each image.") == ""
    # (code_review_s74 10: a random batch sampled is no place; a word that starts with a conjunction keeps its letters)
    assert order_moved_it("With shuffle=True I sample a random batch for each step, and it still goes nan at step 1200 "
                          "every time.") == ""
    assert order_moved_it("Andrej reshuffled the data and it now goes nan at a different step.").startswith("Andrej")
    # (reread_s74 10: what it trains or evaluates on, at random, is no place)
    assert order_moved_it("With shuffle=True it trains on a random batch each step, and it still goes nan at step 1200 "
                          "every time.") == ""


def test_the_features_taken_as_the_columns_a_list_names_are_a_tables():
    """`X = df[feature_cols].values` after pd.read_csv, with nothing that fills or drops a missing value: the read is
    one whose nan reaches the features."""
    from trainwreck.data_values import table_read_missing_unhandled
    code = ("df = pd.read_csv('stays.csv')\nfeature_cols = [c for c in df.columns if c != 'died']\n"
            "X = df[feature_cols].values\ny = df['died'].values\n")
    assert table_read_missing_unhandled(code) == "pd.read_csv"
    assert table_read_missing_unhandled(code.replace(".values\ny", ".fillna(0).values\ny")) == ""
    # (a single target column is no features)
    assert table_read_missing_unhandled("df = pd.read_csv('a.csv')\ny = df[target].values\n") == ""
    # (an image array indexed by a count, beside a CSV of labels: no table's features)
    assert table_read_missing_unhandled('labels = pd.read_csv("labels.csv")\nfor i in range(n):\n'
                                        '    x = images[i].astype(np.float32) / 255.0\n') == ""
    assert table_read_missing_unhandled("df_train = pd.read_csv('a.csv')\nX = df_train[cols].to_numpy()\n") == \
        "pd.read_csv"


MITO_UNET = """My first U-Net predicts black masks, accuracy stuck at 0.9102.

```python
X = np.stack([tifffile.imread(f) for f in img_files]).astype("float32")[..., None]
Y = np.stack([tifffile.imread(f) for f in mask_files]).astype("float32")[..., None]
print(X.shape, X.dtype, X.min(), X.max())
print(Y.shape, np.unique(Y))
model.compile(optimizer=Adam(learning_rate=1e-3), loss="binary_crossentropy", metrics=["accuracy"])
```

Output:

```
(200, 256, 256, 1) float32 96.0 4095.0
(200, 256, 256, 1) [0. 1.]
Epoch 1/50
12/12 [==============================] - 19s 612ms/step - loss: 1.4083 - accuracy: 0.8876 - val_loss: 0.3012 - val_accuracy: 0.9102
Epoch 2/50
12/12 [==============================] - 4s 331ms/step - loss: 0.3119 - accuracy: 0.9097 - val_loss: 0.3009 - val_accuracy: 0.9102
Epoch 3/50
12/12 [==============================] - 4s 331ms/step - loss: 0.3047 - accuracy: 0.9098 - val_loss: 0.3010 - val_accuracy: 0.9102
Epoch 4/50
12/12 [==============================] - 4s 330ms/step - loss: 0.3046 - accuracy: 0.9098 - val_loss: 0.3009 - val_accuracy: 0.9102
```

val_accuracy is the same number for all 50 epochs, and every pixel of the prediction is about 0.09.
"""


def test_a_print_of_shape_dtype_and_range_is_read_from_the_line_it_printed_further_down():
    """A print of an array's shape and dtype beside its min and max, and its output in the run's output block further
    down: the line that is exactly what print() writes for those arguments (a tuple, a dtype, two numbers, one space
    apart) gives the range -- not a line of another shape, nor the targets' print beside it."""
    from trainwreck.printed_sizes import input_range_printed

    fact = input_range_printed(MITO_UNET)
    assert "values up to 4095 in size" in fact and "-> (200, 256, 256, 1) float32 96.0 4095.0" in fact
    d = diagnosis(MITO_UNET)
    assert d.matches[0].entry.id == "WR-330" and d.matches[0].parts["input-range"] > 0
    # PyTorch's forms of the same print
    torch_form = MITO_UNET.replace("(200, 256, 256, 1) float32 96.0 4095.0",
                                   "torch.Size([200, 1, 256, 256]) torch.float32 tensor(96.) tensor(4095.)")
    assert "values up to 4095 in size" in input_range_printed(torch_form)
    # a line that is not that print's output (a field too few, or another kind of field), or a range of unit scale
    for other in (MITO_UNET.replace("float32 96.0 4095.0", "96.0 4095.0"),
                  MITO_UNET.replace("float32 96.0 4095.0", "float32 ok 4095.0"),
                  MITO_UNET.replace("96.0 4095.0", "0.0 1.0"),
                  MITO_UNET.replace("print(X.shape, X.dtype, X.min(), X.max())", "print(X.shape, X.dtype, y.min(), X.max())")):
        assert input_range_printed(other) == "", other
    # (code_review_s76 1: two prints of one layout take their lines in order -- the masks' 0..255 first, the scaled
    # inputs' 0..1 second -- not the first line for both)
    two = MITO_UNET.replace("print(X.shape, X.dtype, X.min(), X.max())\nprint(Y.shape, np.unique(Y))",
                            "print(Y.shape, Y.dtype, Y.min(), Y.max())\nprint(X.shape, X.dtype, X.min(), X.max())") \
        .replace("(200, 256, 256, 1) float32 96.0 4095.0\n(200, 256, 256, 1) [0. 1.]",
                 "(200, 256, 256, 1) float32 0.0 255.0\n(200, 256, 256, 1) float32 0.0 1.0")
    assert "print(X.shape" in two and "0.0 255.0" in two
    assert input_range_printed(two) == ""
    # (final_review_s76 2: a print in a loop writes several lines, and a print whose line the paste left out would take
    # the next array's: the lines must be as many as the prints)
    looped = ("```python\nfor arr in (X_tr_raw, X_va_raw):\n    print(arr.shape, arr.dtype, arr.min(), arr.max())\n"
              "print(X_train.shape, X_train.dtype, X_train.min(), X_train.max())\n```\n"
              "(800, 64, 64, 3) uint8 0 255\n(200, 64, 64, 3) uint8 0 255\n(800, 64, 64, 3) float32 0.0 1.0\n")
    assert input_range_printed(looped) == ""
    # (mends_review_s76 2: a print indented in a function, or a whole paste indented as a forum's code block, is read)
    in_main = MITO_UNET.replace("\nX = np.stack", "\ndef main():\n    X = np.stack").replace(
        "\nY = np.stack", "\n    Y = np.stack").replace("\nprint(", "\n    print(")
    indented = "\n".join("    " + line for line in MITO_UNET.split("\n"))
    for kept in (in_main, indented):
        assert "values up to 4095 in size" in input_range_printed(kept), kept
    from trainwreck.printed_sizes import target_size_printed

    unshown = ("```python\nprint(y.shape, y.dtype, y.mean(), y.std())\nprint(X.shape, X.dtype, X.mean(), X.std())\n```\n"
               "(506, 13) float32 70.1 145.3\n")
    assert target_size_printed(unshown) == ""
    assert "targets of about" in target_size_printed(unshown.replace("(506, 13) float32 70.1 145.3\n",
                                                                     "(506,) float32 270.1 345.3\n(506, 13) float32 0.1 1.2\n"))
    # (a statistic asked twice is no print this reading pairs: which number is which is not its to say)
    twice = MITO_UNET.replace("print(X.shape, X.dtype, X.min(), X.max())", "print(X.shape, X.max(), X.max())") \
        .replace("(200, 256, 256, 1) float32 96.0 4095.0", "(200, 256, 256, 1) 4095.0 4095.0")
    assert input_range_printed(twice) == ""
    assert "values up to 255" in input_range_printed(two.replace("float32 0.0 1.0", "float32 0.0 255.0"))
