"""Words that say the network no longer responds: one output for every input, weights that never change
(trainwreck/frozen_said.py). Each names the entries whose failure looks so, and only where it is told, not asked,
denied, or said of something else."""

import pytest

from conftest import diagnosis, weighed_parts
from trainwreck.frozen_said import dead_units_said, one_output_said, weights_frozen_said, weights_half
from trainwreck.input_scaling import scaled_said


def ids(text: str) -> list[str]:
    return [m.entry.id for m in diagnosis(text).matches]


@pytest.mark.parametrize("text, said", [
    ("The classifier gives the same prediction for all the images in the test set.", "same prediction for all the images"),
    ("model.predict(X) is 0.3127 for every single row.", "model.predict(x) is 0.3127 for every single row"),
    ("Every forecast is identical, a flat line at the mean.", "every forecast is identical"),
    ("It predicts the same class for everything I feed it.", "predicts the same class for everything"),
    ("model.predict gives practically the same value for every flow.",
     "predict gives practically the same value for every flow"),
    ("Now every photo comes out as cloudy.", "every photo comes out as cloudy"),
    ("All the test images are classified as cat.", "all the test images are classified as cat"),
    ("predict() now returns the same band gap for every compound.",
     "predict() now returns the same band gap for every compound"),
    ("The actor outputs exactly the same joint velocities whatever the observation is.",
     "actor outputs exactly the same joint velocities whatever"),
    ("Own GCN: loss flat after 30 epochs, every user predicted as the same country",
     "every user predicted as the same"),
])
def test_one_output_for_every_input_is_read(text, said):
    assert one_output_said(text) == said


@pytest.mark.parametrize("text", [
    "Does it give the same prediction for every input at the start?",      # asked
    "The model does not predict the same class for every image any more.",  # denied
    "Column 7 has the same value for every row.",                          # a constant feature, not an output
    "All predictions are the same as the labels on the training set.",     # a comparison
    "df.isna().sum() is 0 for every column of the frame.",                 # a count of the data, not an output
    "It doesn't predict the same class for every input anymore.",          # denied, in a contraction
    "A dead network would return the same value for all inputs, but mine doesn't.",   # a hypothetical
    "My dummy baseline predicts 0.3 for every row.",                       # a baseline's
    "The model returns one value for each sample, shape (N, 1).",          # a shape
    "The labels are 0 for every background pixel.",                        # the labels, not an output
    "The timestamp column gives the same value for every row.",            # a column, not the model
    "Every prediction comes out as a tiny number close to zero.",          # an output's value, not one class
    "Nearly every old crop is predicted as one of the new classes.",       # several classes
    "Every epoch comes out as 0.69.",                                      # a loss, not an input's class
    "All images are labelled as positive in the csv.",                     # the data's labels
    "It gives the same results regardless of the learning rate.",          # a setting, not an input
    "It gives the same loss no matter what I try.",                        # a run's number
    "The generator gives the same picture for every noise vector.",        # a GAN's mode collapse, not covered
    "I tune with Optuna, and it picks the same learning rate for every trial.",   # a search's trials, not inputs
    "Each review is classified as positive or negative.",                   # the task, not an output
    "Every tweet is classified as positive, negative or neutral.",
    "Every image is classified as the correct class.",
    "Once it is nan every knee is predicted as grade 0.",                   # a nan's argmax, not a network's one output
])
def test_one_output_is_not_read_where_it_is_not_told(text):
    assert one_output_said(text) == ""


@pytest.mark.parametrize("text, said", [
    ("I saved the weights at epoch 20 and epoch 80 and they are bit-identical.",
     "weights at epoch 20 and epoch 80 and they are bit-identical"),
    ("The parameters never change after the second epoch.", "parameters never change"),
    ("After epoch 20 the kernel weights remain unchanged whatever I do.", "kernel weights remain unchanged"),
])
def test_weights_that_never_change_are_read(text, said):
    assert weights_frozen_said(text) == said


@pytest.mark.parametrize("text", [
    "The weights are the same on both GPUs, as DDP should keep them.",   # an equality the reporter set up
    "I load the same weights for the fine-tuning run.",
    "The weights are not identical between the two runs.",
    "Are the weights bit-identical after an epoch?",
    "The frozen backbone's weights are unchanged after 10 epochs, as intended.",      # frozen on purpose
    "After loading the checkpoint, the weights are identical to the saved ones.",     # a load, not training
    "The loss weights stay unchanged at 1.0 for all epochs.",                         # not the model's weights
    "The weights don't change much after epoch 50, which I guess is convergence.",    # small changes
])
def test_weights_frozen_is_not_read_where_it_is_not_told(text):
    assert weights_frozen_said(text) == ""


# A report of words only, written the way people describe a network that answers the same for everyone: before, it
# named nothing ("no known failure found")
CONSTANT = ("Fraud model outputs the same probability for every transaction\n\n"
            "Keras MLP 30 -> 64 -> 32 -> 1, relu, sigmoid output, binary_crossentropy, Adam, batch 512, about 2% "
            "fraud. The inputs are standardised. Loss is 0.0980 after the first epoch and still 0.0980 after 60. "
            "model.predict gives 0.0201 for every transaction in the test set.")


def test_one_output_said_names_the_dead_and_the_symmetric_network():
    d = diagnosis(CONSTANT)
    assert d.verdict == "uncertain"
    assert {"WR-110", "WR-140"} <= set(ids(CONSTANT)[:3])
    named = next(m for m in d.matches if m.entry.id == "WR-140")
    assert named.parts["one-output"] > 0
    assert any("one output for every input" in e for e in named.evidence)


def test_one_output_is_raw_inputs_face_too_unless_the_inputs_were_scaled():
    raw = CONSTANT.replace("The inputs are standardised.", "The amounts and timestamps go in as they are.")
    assert weighed_parts(raw, "WR-330")["one-output"] > 0 and "WR-330" in ids(raw)[:3]
    scaled = weighed_parts(CONSTANT, "WR-330")
    assert scaled["one-output"] > 0 and scaled["scaled-inputs"] < 0


# float16 weights that stop moving: the update is under half the spacing between float16 values at the weight
HALF = ("Training stalls in float16\n\n"
        "My NumPy MLP keeps weights and gradients in np.float16 because the target chip has no float32. SGD lr 2e-4, "
        "batch 64. The loss drops from 2.30 to 1.12 and then sits at 1.12 for 300 epochs; I compared the weights at "
        "epoch 100 and epoch 250 and they are bit-identical.")


def test_weights_frozen_in_half_precision_name_wr040_first():
    d = diagnosis(HALF)
    assert d.verdict == "uncertain" and d.matches[0].entry.id == "WR-040"
    assert d.matches[0].parts["rounded-away"] > 0
    assert any("half the gap to the next float16 value in its direction" in e for e in d.matches[0].evidence)
    # (not under autocast or AMP, whose weights stay float32: no update is rounded away there)
    amp = HALF.replace("in np.float16 because the target chip has no float32", "in float32 under torch.autocast with a "
                       "GradScaler")
    assert "rounded-away" not in weighed_parts(amp, "WR-040")


@pytest.mark.parametrize("held", [
    "model = AutoModelForSequenceClassification.from_pretrained(name, torch_dtype=torch.float16)",
    'model = AutoModelForCausalLM.from_pretrained(name, torch_dtype="float16")',
    'keras.config.set_floatx("float16")',
    "model = AutoModel.from_pretrained(name, torch_dtype=torch.half)",
    "keras.config.set_dtype_policy('float16')",
    "tf.keras.backend.set_floatx('float16')",
])
def test_float16_weights_from_a_loaders_dtype_or_kerass_default_float_type_are_float16_weights(held):
    """Hugging Face's from_pretrained given torch_dtype loads the weights in that dtype, and Keras's set_floatx sets the
    dtype of every layer's weights (not mixed precision): updates below half the gap are rounded away in both."""
    text = ("Fine-tuning stalls\n\n" + held + "\nSGD lr 1e-4. The loss sits at 0.6931 from step 200 on; I compared "
            "the weights at step 200 and step 900 and they are bit-identical.")
    assert weights_half(text) is not None
    assert weighed_parts(text, "WR-040")["rounded-away"] > 0
    # (the dtype of mixed precision is no float16 weight: Keras's mixed_float16 policy keeps its variables float32)
    mixed = text.replace(held, 'keras.mixed_precision.set_global_policy("mixed_float16")')
    assert weights_half(mixed) is None and "rounded-away" not in weighed_parts(mixed, "WR-040")


def test_gradscaler_refusing_float16_parameters_names_wr040_with_its_fix_for_float16_weights():
    text = ("model = AutoModelForSequenceClassification.from_pretrained('roberta-base', torch_dtype=torch.float16)\n"
            "trainer = Trainer(model=model, args=TrainingArguments(output_dir='out', fp16=True), train_dataset=ds)\n"
            "trainer.train()\n"
            "Traceback (most recent call last):\n"
            '  File "/usr/lib/python3.11/site-packages/torch/amp/grad_scaler.py", line 275, in _unscale_grads_\n'
            '    raise ValueError("Attempting to unscale FP16 gradients.")\n'
            "ValueError: Attempting to unscale FP16 gradients.\n")
    d = diagnosis(text)
    first = d.matches[0]
    assert first.entry.id == "WR-040" and first.parts["messages"] > 0
    assert first.fix.startswith("Float16 weights: build or load the model in float32"), first.fix


def test_the_spacing_the_evidence_quotes_is_float16s():
    np = pytest.importorskip("numpy")
    one = np.float16(1.0)
    assert np.spacing(one) == np.float16(2.0 ** -10)
    # an update below half the gap rounds back to the weight; one above it does not -- and below 1.0 the gap is half
    assert one + np.float16(2.0 ** -12) == one
    assert one + np.float16(2.0 ** -11 + 2.0 ** -13) != one
    assert one - np.float16(2.0 ** -13) == one and one - np.float16(1.5 * 2.0 ** -12) != one


def test_without_half_precision_frozen_weights_point_at_zero_gradients():
    text = HALF.replace("in np.float16 because the target chip has no float32", "in float64")
    text = text.replace("Training stalls in float16", "Training stalls")
    first3 = ids(text)[:3]
    assert "WR-040" not in first3 and {"WR-110", "WR-140"} <= set(first3)


def test_channels_said_standardised_are_scaled_inputs():
    assert scaled_said("1-second windows (256 samples, each channel standardised)")["scaled"] == {
        "inputs": "channel standardised"}
    assert scaled_said("the channels are not standardised")["unscaled"] == {"inputs": "channels are not standardised"}


def test_flaxs_zeros_init_and_one_output_beside_a_short_falling_curve_name_the_zero_start():
    """A short curve that falls (the output's bias finding the base rate) beside words that every row gets one output
    is read, and Flax's `zeros_init()` handed to a kernel is a zero start, as Keras's and PyTorch's are."""
    text = ("Flax MLP stuck, always predicts the same class\n\n```python\nDense = partial(nn.Dense, "
            "kernel_init=nn.initializers.zeros_init())\nx = nn.relu(Dense(256)(x))\nx = nn.relu(Dense(128)(x))\n"
            "return Dense(7)(x)\n```\n"
            "step 0 | loss 1.9459\nstep 100 | loss 1.7702\nstep 200 | loss 1.6285\nstep 400 | loss 1.4603\n"
            "Every row gets the same softmax output, so it always predicts class 1.")
    d = diagnosis(text)
    assert d.matches[0].entry.id == "WR-110"
    assert d.matches[0].parts["zero-init"] > 0 and d.matches[0].parts["one-output"] > 0


def test_one_output_for_every_input_or_frozen_weights_are_never_answered_normal():
    """"The loss jumps up twice" asks about spikes, which a falling curve has; a model said to give one output for
    every row, or weights said not to change over training, is what no normal run does: the candidates are named."""
    text = ("MLP with ReLU, BCEWithLogitsLoss, SGD(lr=0.3, momentum=0.9). The first epochs look fine, then the loss "
            "jumps up twice, and since epoch 7 it prints 0.6866 every epoch. ")
    assert diagnosis(text).verdict == "normal"
    for said in ("model(x) gives 0.2288 for every single row.",
                 "I compared the weights at epoch 8 and epoch 30: bit-identical."):
        d = diagnosis(text + said)
        assert d.verdict == "uncertain" and "WR-140" in [m.entry.id for m in d.matches], said
    # (code_review_s47 M1, M2: asked, planned, or of a network not yet trained, they block nothing)
    for said in ("Weights before/after an optimizer step at epoch 8: identical?",
                 "I will compare the weights at epoch 8 and epoch 30: identical would mean a bug.",
                 "With an untrained model, the network gives the same output for every input, of course."):
        assert diagnosis(text + said).verdict == "normal", said


def test_an_argmax_said_to_be_one_value_for_every_input_is_one_output():
    from trainwreck.frozen_said import one_output_said

    for said in ("argmax is Other_Faults for every plate.", "The argmax of the logits is 3 for all samples."):
        assert one_output_said(said), said
    for not_it in ("Is the argmax correct for every sample?", "The argmax is not 3 for every sample.",
                   "The argmax differs for every sample."):
        assert not one_output_said(not_it), not_it


def test_a_wider_network_said_to_give_the_same_result_is_read():
    from trainwreck.frozen_said import width_changes_nothing_said

    for said in ("Changing the hidden size or the learning rate doesn't change anything.",
                 "Making the layers 256 wide or adding a third hidden layer gives the same numbers to two decimals."):
        assert width_changes_nothing_said(said), said
    for not_it in ("Changing the learning rate doesn't change anything.", "Does changing the hidden size change anything?",
                   "Increasing the hidden size helped a lot.", "A wider net would not change anything, I think."):
        assert not width_changes_nothing_said(not_it), not_it


@pytest.mark.parametrize("text, said", [
    ("My relus are dead.", "relus are dead"),
    ("When I looked at the hidden layers, nearly all units output zero no matter which comment goes in.",
     "all units output zero no matter"),
    ("80% of the neurons output 0 for every input.", "80% of the neurons output 0 for every"),
    ("The activations after the second ReLU are all zero.", "activations after the second relu are all zero"),
    ("Most of the hidden units are always zero for every image.", "most of the hidden units are always zero for every"),
])
def test_dead_units_are_read(text, said):
    assert dead_units_said(text) == said


@pytest.mark.parametrize("text", [
    "I suspect dying relus.",                                   # a guess
    "Could it be dead relus?",                                  # asked
    "Are most of my ReLU neurons dead?",                        # asked
    "I used a leaky relu to avoid dead units.",                 # kept away
    "There are no dead relus, I checked.",                      # counted absent
    "All the outputs are zero.",                                # the output, not the hidden units
    "More than half of the activations after each ReLU are exactly zero.",   # a sparse layer: zero for some inputs
    "I checked for dead neurons and found none.",               # looked for, not seen
    "None of the units are dead.",
    "Dead relus are not the problem here.",                     # the noun alone, not an observation
    "We switched to leaky relu because dead relus were a problem before.",
    "The dying ReLU problem is well known, but here the loss is nan.",
    "I fixed the dead units issue by lowering the lr.",
])
def test_dead_units_are_not_read_where_they_are_not_told(text):
    assert dead_units_said(text) == ""


# Words only: a ReLU network seen dead. Before, it named nothing ("no known failure found"): no sentence said that the
# run failed in words the scanner knew, "flattened out and hasn't changed" and "units output zero" among them.
# (words of when it went wrong are left out: "in the first epoch" would weigh for the entries that break at the start)
DEAD = ("Two-layer ReLU classifier on frozen sentence embeddings, plain SGD at 1.0. The loss jumped a few times, then "
        "it flattened out and hasn't changed in the last 40 epochs. Every comment gets the same "
        "class now. Looking at the hidden layers, nearly all units output zero no matter which comment goes in.")


def test_dead_units_said_name_wr140_first():
    d = diagnosis(DEAD)
    assert d.verdict == "uncertain" and ids(DEAD)[0] == "WR-140"
    assert weighed_parts(DEAD, "WR-140")["dead-units"] > 0
    assert any("hidden units are dead or give 0 for every input" in e for e in d.matches[0].evidence)
    # the same words of a sparse layer that works name nothing dead
    sparse = DEAD.replace("nearly all units output zero no matter which comment goes in",
                          "about half of the activations are zero")
    assert weighed_parts(sparse, "WR-140").get("dead-units", 0) == 0


def test_hidden_units_said_to_be_copies_of_each_other_are_the_symmetric_start():
    """review s75/18: "all the hidden units give exactly the same number as each other" in a NumPy net that does not
    learn: units that start equal stay equal, WR-110's face (it came second, behind WR-330)."""
    from trainwreck.frozen_said import units_alike_said
    said = ("Variable star classifier in plain numpy doesn't learn. The loss drops a tiny bit in the first epochs and "
            "then just sits there. When I printed the hidden layer activations, all the hidden units give exactly the "
            "same number as each other.")
    assert units_alike_said(said) and weighed_parts(said, "WR-110")["units-alike"] > 0
    assert ids(said)[0] == "WR-110"
    assert units_alike_said("The hidden units are different from each other.") == ""
    assert units_alike_said("I checked whether the hidden neurons are identical to each other and they aren't.") == ""
    assert units_alike_said("The hidden units do not have the same value as each other.") == ""
    assert units_alike_said("The inputs are the same as each other.") == ""


def test_one_class_said_for_every_input_or_printed_as_the_argmax_unique_values():
    """"Every sample gets the same class", or the argmax's unique values printed as one class
    (`preds.argmax(-1).unique()` is `tensor([4])`): one output for every input. A label the data gives is not the
    model's, and several classes printed are not one."""
    from trainwreck.frozen_said import one_output_said

    assert one_output_said("After epoch 5 every sample gets the same class.")
    assert one_output_said("preds.argmax(-1).unique() is tensor([4])") == "argmax(-1).unique() is tensor([4])"
    assert not one_output_said("Every image in that folder gets the same label when I load it.")
    assert not one_output_said("preds.argmax(-1).unique() gives tensor([0, 3, 4])")


def test_the_share_of_units_on_printed_as_zero_is_dead_units_said():
    """A new user's review (ux_review_s64, 3): "I printed (h1 > 0).mean() and it is 0.0 for the first hidden layer" is
    WR-140's own check, done, and was not read (the answer was "no known failure", three values being too few)."""

    for said in ("I printed (h1 > 0).mean() and it is 0.0 for the first hidden layer.", "np.mean(a1 > 0) -> 0",
                 "(relu_out > 0).float().mean().item() = 0.0"):
        assert dead_units_said(said), said
    # not a share above 0, nor the inputs', labels' or gradients' share
    for said in ("(h1 > 0).mean() is 0.45", "(h > 0).mean() is 0.0123", "(h > 0).mean() is 0.5", "(x > 0).mean() is 0.0",
                 "(grad > 0).mean() is 0.0",
                 # a mask's, a gradient's, the inputs' or a prediction's share (code_review_s64b 4)
                 "(mask > 0).float().mean() is 0.0", "(p.grad > 0).mean() is 0.0", "(x_train > 0).mean() -> 0",
                 "(images > 0).mean() is 0", "(y_pred > 0).mean() -> 0"):
        assert not dead_units_said(said), said
    report = ("After a few hundred steps with lr=0.1 my relu net's accuracy is stuck at 10% and the loss is constant "
              "2.3026.\nI printed (h1 > 0).mean() and it is 0.0 for the first hidden layer.\n"
              "step 300 loss 2.3026 acc 0.098\nstep 400 loss 2.3026 acc 0.098\nstep 500 loss 2.3026 acc 0.098\n")
    d = diagnosis(report)
    assert d.matches and d.matches[0].entry.id == "WR-140", (d.verdict, [m.entry.id for m in d.matches])
    assert any('"(h1 > 0).mean() and it is 0.0"' in e for e in d.matches[0].evidence)
