"""What course homework and small projects paste: the deeplearning.ai course's weights set in a loop over the layers
(zeros, or drawn at a standard deviation of 1), a table read with pandas with no missing value handled, one sigmoid
output (a binary classifier, no regression), a model's weights loaded as zeros, an LR finder's sweep (fastai's and
Lightning's), a held-out accuracy that levels off while the training one climbs, a perplexity in the thousands; and
SpeechBrain's train_log; and a loss with a name of its own printed beside the plain loss (a part of it)."""
import math

import pytest

from conftest import context_of, diagnosis
from trainwreck.curve_shape import at_run_start
from trainwreck.data_values import table_read_missing_unhandled
from trainwreck.normals import normals_asked
from trainwreck.run_said import loss_kind
from trainwreck.weight_init import ALL_PARAMS_ZERO, LARGE_INIT, zeros_loaded

COST = "".join(f"Cost after iteration {k * 100}: {c}\n" for k, c in enumerate((0.6931, 0.6912, 0.6889, 0.6871)))


def facts(text: str) -> dict:
    return context_of(text).printed


# --- weights set in a loop over the layers, each named from the loop's count ---

@pytest.mark.parametrize("line", [
    "    parameters['W' + str(l)] = np.zeros((layers_dims[l], layers_dims[l-1]))",
    '    params["W" + str(i)] = np.zeros((sizes[i], sizes[i - 1]))',
    '    params[f"W{l}"] = np.zeros((dims[l], dims[l-1]))',
])
def test_every_layers_weights_zeroed_in_a_loop_is_a_zero_init(line):
    text = ("My 3-layer numpy net: the cost barely moves and it predicts 0 for every image. Init:\n"
            "for l in range(1, L):\n" + line
            + "\n    parameters['b' + str(l)] = np.zeros((layers_dims[l], 1))\n" + COST)
    assert ALL_PARAMS_ZERO.search(text)
    assert "zero-init" in facts(text)
    assert diagnosis(text).matches[0].entry.id == "WR-110"


@pytest.mark.parametrize("joined", ["; ", "\n"])
def test_zeroed_weights_are_quoted_as_written(joined):
    """The second zeroed matrix is quoted as its statement, without the `;` that ends the one before it on its line."""
    flat = "".join(f"epoch {k * 50} loss 1.0986 acc 0.333\n" for k in range(5))
    text = f"W1 = np.zeros((2,16)){joined}W2 = np.zeros((16,3))\n" + flat
    assert "sets weights to one value (`W2 = np.zeros((16,3))`)" in facts(text)["zero-init"]


def test_only_the_biases_zeroed_in_the_loop_is_no_zero_init():
    text = ("for l in range(1, L):\n    parameters['W' + str(l)] = np.random.randn(dims[l], dims[l-1]) * 0.01\n"
            "    parameters['b' + str(l)] = np.zeros((dims[l], 1))\n" + COST)
    assert not ALL_PARAMS_ZERO.search(text)
    assert "zero-init" not in facts(text)


@pytest.mark.parametrize("line, wide", [
    ("    parameters['W' + str(l)] = np.random.randn(layer_dims[l], layer_dims[l-1])", True),
    ('    params[f"W{l}"] = np.random.randn(dims[l], dims[l - 1])', True),
    # (scaled down: the course's own He initialisation, and its 0.01)
    ("    parameters['W' + str(l)] = np.random.randn(layer_dims[l], layer_dims[l-1]) * np.sqrt(2 / layer_dims[l-1])",
     False),
    ("    parameters['W' + str(l)] = np.random.randn(layer_dims[l], layer_dims[l-1]) * 0.01", False),
])
def test_each_layers_weights_drawn_at_std_1_in_a_loop_are_read_as_too_wide(line, wide):
    assert bool(LARGE_INIT.search("for l in range(1, L):\n" + line + "\n")) is wide


# --- a table read with pandas, and no missing value handled ---

TITANIC_LIKE = """df = pd.read_csv("passengers.csv")
X = df[["pclass", "age", "fare", "siblings"]].values
y = df["survived"].values
model.fit(X, y, epochs=10)
Epoch 1/10
28/28 [==============================] - 1s 4ms/step - loss: nan - accuracy: 0.6162
Epoch 2/10
28/28 [==============================] - 0s 2ms/step - loss: nan - accuracy: 0.6162
"""


def test_a_table_read_with_nothing_for_its_missing_values_weighs_for_the_bad_batch_beside_a_nan():
    assert table_read_missing_unhandled(TITANIC_LIKE) == "pd.read_csv"
    said = facts(TITANIC_LIKE)["table-nan-unhandled"]
    assert "pd.read_csv()" in said and "nan" in said
    d = diagnosis(TITANIC_LIKE)
    assert d.matches[0].entry.id == "WR-310"
    assert any("pd.read_csv()" in e for e in d.matches[0].evidence)


@pytest.mark.parametrize("handled", ['df = df.dropna()\n', 'df["age"] = df["age"].fillna(df["age"].median())\n',
                                     "X = SimpleImputer().fit_transform(X)\n", "print(df.isna().sum())\n"])
def test_missing_values_filled_dropped_or_looked_for_are_handled(handled):
    text = TITANIC_LIKE.replace("y = df", handled + "y = df", 1)
    assert table_read_missing_unhandled(text) == ""
    assert "table-nan-unhandled" not in facts(text)


def test_a_table_of_file_names_beside_images_read_from_disk_is_not_the_features():
    text = ('df = pd.read_csv("labels.txt", sep=" ", names=["file", "label"])\n'
            "ds = tf.data.Dataset.from_tensor_slices((df.file.values, df.label.values)).map(load_image)\n"
            + TITANIC_LIKE.split("model.fit", 1)[1])
    assert table_read_missing_unhandled(text) == ""


def test_the_table_is_no_suspect_of_a_run_that_did_not_go_nan():
    text = TITANIC_LIKE.replace("loss: nan", "loss: 0.5123")
    assert "table-nan-unhandled" not in facts(text)


# --- one output unit: a regression's, unless it is one sigmoid ---

def test_one_sigmoid_output_is_a_binary_classifier_and_no_regression():
    sigmoid = "model.add(layers.Dense(1, activation='sigmoid'))\nmodel.compile(loss='binary_crossentropy')\n"
    linear = "model.add(layers.Dense(1))\nmodel.compile(loss='mse')\n"
    log = TITANIC_LIKE.split("model.fit", 1)[1]       # (an accuracy printed beside the loss: a classifier's, unless...)
    assert context_of(sigmoid + log).classifier
    assert not context_of(linear + log).classifier    # (... one linear output unit says a regression)


# --- a model's weights loaded as zeros ---

@pytest.mark.parametrize("code", [
    "zeros = [np.zeros_like(w) for w in model.get_weights()]\nmodel.set_weights(zeros)\n",
    "start = [np.zeros(p.shape) for p in net.parameters()]\n"
    "strategy = FedAvg(initial_parameters=ndarrays_to_parameters(start))\n",
])
def test_a_list_of_zeros_loaded_as_the_models_weights_is_a_zero_init(code):
    text = "The global model stays at 10% accuracy and loss 2.30 for 40 rounds.\n" + code
    assert zeros_loaded(text)
    assert "zero-init" in facts(text)


def test_zeros_kept_beside_the_weights_and_never_loaded_are_no_init():
    text = ("The loss stays at 2.30 for 40 epochs.\n"
            "grad_sums = [np.zeros_like(w) for w in model.get_weights()]\nmodel.set_weights(new_weights)\n")
    assert zeros_loaded(text) is None


# --- a learning-rate finder's sweep ---

FINDER = "a learning-rate finder's sweep, which ends in divergence by design"
# (fastai v1's table while its finder runs: the smoothed training loss, `#na#` for the validation loss it skips, and no
# metric -- Recorder.format_stats zips the names with [epoch, smooth_loss, None])
FASTAI_FINDER = """learn.lr_find()
epoch\ttrain_loss\tvalid_loss\taccuracy\ttime
0\t3.402117\t#na#\t00:31
LR Finder is complete, type {learner_name}.recorder.plot() to see the graph.
"""


def test_the_finders_closing_line_asks_nothing_by_itself_and_its_plot_said_to_explode_does():
    assert FINDER not in [n.name for n in normals_asked(FASTAI_FINDER + "Is #na# a nan? Is my data broken?")]
    assert FINDER in [n.name for n in normals_asked(FASTAI_FINDER + "lr_find shows the loss exploding at the end. OK?")]


CLIMBING_FIT = "learn.fit_one_cycle(4, 1e-2)\n" + "".join(
    f"{e}\t{t}\t{v}\t0.5{e}\t00:40\n" for e, (t, v) in enumerate((("0.612", "0.58"), ("1.904", "2.1"),
                                                                  ("7.315", "8.0"), ("24.08", "26.3"))))
FLAT_AFTER_LIGHTNING = "LR finder stopped early after 61 steps due to diverging loss.\n" + "".join(
    f"Epoch {e}: 100%|##########| 469/469 [00:09<00:00, train_loss=2.3026]\n" for e in range(7))


def test_a_training_log_after_the_finder_is_not_the_sweep():
    # (the fit's climb is the rate's, named with confidence; a flat fit after Lightning's line is a stall's question)
    climbing = diagnosis(FASTAI_FINDER + "lr_find shows the loss exploding at the end. OK?\n" + CLIMBING_FIT)
    assert climbing.verdict == "failure" and climbing.matches[0].entry.id == "WR-220" and not climbing.normal
    flat = diagnosis(FLAT_AFTER_LIGHTNING)
    assert flat.signature.name == "plateau-from-start" and flat.verdict == "uncertain" and not flat.normal


def test_a_sweep_whose_plot_climbs_is_answered_as_the_sweep_even_with_the_climb_read_as_values():
    text = (FASTAI_FINDER + "lr_find shows the loss exploding: the plot is flat at 2.4, then falls to 1.1, then climbs "
            "to 3.5, 6.2 and 9.8 at the right end. Is that a problem?")
    d = diagnosis(text)
    assert d.signature.name != "healthy"       # (the values read climb: the sweep's own end)
    assert d.verdict == "normal" and d.normal[0].name == FINDER
    assert "#na#" in d.normal[0].explanation and "skip_validate" in d.normal[0].explanation


def test_a_training_run_said_to_break_after_the_finder_is_not_the_sweep():
    text = (FASTAI_FINDER + "Why does lr_find show the loss exploding? I then trained at the suggested rate and "
            "the training loss went to nan in epoch 2.")
    assert FINDER not in [n.name for n in diagnosis(text).normal]


# --- a held-out accuracy that levels off while the training accuracy climbs ---

GAP = "a gap between training and validation loss"


@pytest.mark.parametrize("text, gap", [
    ("Test accuracy reaches 91% by epoch 6 and stays there, while training accuracy keeps climbing to 99%. Is my "
     "test loader wrong?", True),
    ("Validation accuracy is flat around 0.72 while the train accuracy rises every epoch. Bug?", True),
    # (both said to level off: no gap said)
    ("Test accuracy stays at 91% and so does training accuracy. Bug?", False),
])
def test_a_held_out_accuracy_that_levels_off_while_the_training_one_climbs_is_the_gap(text, gap):
    assert (GAP in [n.name for n in normals_asked(text)]) is gap


# --- a loss on standardised targets, not beside a loss below zero ---

def test_the_scaled_target_answer_is_not_given_for_a_loss_said_to_go_negative():
    asked = ("My targets are standardised, and I convert predictions back with inverse_transform: RMSE 12.4 in the "
             "original units. Is the loss {} right?")
    scaled = "a loss on standardised targets, which is in units of their variance"
    assert scaled in [n.name for n in normals_asked(asked.format("of 0.031"))]
    assert scaled not in [n.name for n in normals_asked(asked.format("going negative, -0.42,"))]


# --- a perplexity in the thousands ---

PERPLEXITY = "a perplexity, the exponential of the loss, in the thousands at the start"


@pytest.mark.parametrize("text, asked", [
    ("My LSTM language model's perplexity is 31,980 after the first epoch and 412 after ten. Why is the perplexity "
     "so huge?", True),
    ("val_ppl 2210.4 at step 500, 380.2 at step 5000. Is a ppl in the thousands broken?", True),
    # (a ppl printed by the log beside a question of something else)
    ("Is the loss scale warning a problem?\n| epoch 001 | loss 11.02 | ppl 2076.3 | loss_scale 64", False),
    # (said to rise, or beside a nan)
    ("The validation perplexity rises from 180 to 2400 after epoch 3. Is the perplexity overfitting?", False),
    ("Perplexity 5000 and then the loss is nan. Why is the perplexity so high?", False),
    ("Perplexity is 45. Is the perplexity ok?", False),
])
def test_a_perplexity_in_the_hundreds_or_thousands_asked_about_is_answered(text, asked):
    assert (PERPLEXITY in [n.name for n in normals_asked(text)]) is asked


def test_the_perplexity_answer_holds_its_arithmetic():
    explanation = next(n for n in __import__("trainwreck.normals", fromlist=["NORMALS"]).NORMALS
                       if n.name == PERPLEXITY).explanation
    # e^(ln V) = V: a uniform guess over 10,000 tokens is a loss of 9.21 nats; 0.1 nats lower is e^-0.1 = 0.905
    assert f"{math.log(10000):.2f} nats" in explanation
    assert f"{100 * (1 - math.exp(-0.1)):.1f}% lower" in explanation


# --- SpeechBrain's train_log ---

def speechbrain_log(values, key="loss"):
    return "".join(f"epoch: {e}, lr: 1.00e+00, steps: {412 * e}, optimizer: Adam - train {key}: {v} - valid {key}: {v}\n"
                   for e, v in enumerate(values, 1))


def test_an_epochs_summary_at_the_steps_counted_since_the_start_starts_at_the_runs_start():
    ev = context_of(speechbrain_log(["2.31", "1.64", "1.22", "9.91e-01"])).ev
    assert ev.dialect == "SpeechBrain train_log"
    assert ev.at(0).epoch == "epoch 1" and ev.at(0).step == "step 412"
    assert at_run_start(ev)
    # (a count that does not double between epoch 1 and epoch 2 is no count from the start)
    assert not at_run_start(context_of(speechbrain_log(["2.31", "1.64"]).replace("steps: 824", "steps: 900")).ev)


def test_the_separation_recipes_si_snr_is_their_loss_and_may_go_below_zero():
    text = speechbrain_log(["1.87", "-2.96e+00", "-6.13e+00", "-8.47e+00", "-9.93e+00"], key="si-snr")
    assert loss_kind(text) == "likelihood"
    d = diagnosis(text)
    assert d.verdict == "normal" and "WR-320" not in [m.entry.id for m in d.matches]
    assert loss_kind(speechbrain_log(["1.87", "-2.96e+00"])) == ""       # (a `loss` key says nothing of its sign)


def test_weights_drawn_at_std_1_weigh_whole_beside_a_loss_broken_from_its_first_value():
    from conftest import weighed_parts

    code = ("W1 = np.random.randn(3072, 256)\nW2 = np.random.randn(256, 10)\n")
    broken = code + "".join(f"Cost after iteration {k * 100}: nan\n" for k in range(5))
    later = code + "".join(f"Cost after iteration {k * 100}: {c}\n"
                           for k, c in enumerate(("2.3026", "2.1190", "1.9854", "1.8807", "nan")))
    assert weighed_parts(broken, "WR-120")["large-init"] == 2 * weighed_parts(later, "WR-120")["large-init"] > 0


# --- what the readings above must leave alone ---

def test_a_hand_written_epoch_line_is_no_speechbrain_log_and_keeps_its_loops_gradients_in_question():
    loop = ("for x, y in loader:\n    loss = crit(model(x), y)\n    loss.backward()\n    opt.step()\n")
    hand = "".join(f"epoch: {e} - train acc: 0.{30 + e} - train loss: {2.1 - 0.1 * e:.4f} - val loss: 2.2\n"
                   for e in range(1, 9))
    ev = context_of(loop + hand).ev
    assert ev.dialect != "SpeechBrain train_log"
    # (SpeechBrain's own shape, with a loop of the paste's own: that loop, not the Brain's, made the steps)
    brain = speechbrain_log(["2.31", "1.64", "1.22", "9.91e-01"])
    assert context_of(brain).trainer_clears
    assert not context_of(loop + brain).trainer_clears


def test_a_table_with_missing_values_is_no_suspect_of_a_nan_after_finite_epochs_nor_where_none_are_said():
    late = TITANIC_LIKE.split("Epoch 1/10", 1)[0] + "".join(
        f"Epoch {e}/12\n28/28 [==============================] - 0s 2ms/step - loss: {v} - accuracy: 0.7{e % 10}\n"
        for e, v in enumerate(("0.6710", "0.5902", "0.5411", "0.5170", "0.5012", "0.4934", "nan", "nan"), 1))
    assert "table-nan-unhandled" not in facts(late)
    assert "table-nan-unhandled" not in facts(TITANIC_LIKE + "\nI checked the file: there are no missing values.")


def test_zeros_a_buffer_holds_and_an_update_adds_to_the_weights_are_no_init():
    momentum = ("velocity = [np.zeros_like(w) for w in model.get_weights()]\n"
                "model.set_weights([w + v for w, v in zip(model.get_weights(), velocity)])\n")
    assert zeros_loaded("The loss stays at 2.30.\n" + momentum) is None


def test_an_init_function_defined_beside_others_and_never_used_is_not_the_runs():
    code = ("def init_zeros(dims):\n    params = {}\n    for l in range(1, len(dims)):\n"
            "        params['W' + str(l)] = np.zeros((dims[l], dims[l - 1]))\n    return params\n\n"
            "def init_he(dims):\n    params = {}\n    for l in range(1, len(dims)):\n"
            "        params['W' + str(l)] = np.random.randn(dims[l], dims[l - 1]) * np.sqrt(2 / dims[l - 1])\n"
            "    return params\n\n")
    climbing = "".join(f"Cost after iteration {k * 100}: {c}\n" for k, c in enumerate(("0.69", "2.4", "11.8", "nan")))
    assert "zero-init" not in facts(code + "params = init_he(dims)\n" + climbing)
    assert "zero-init" in facts(code + "params = init_zeros(dims)\n" + climbing)
    # (one init function alone, shown without its call, is the run's)
    assert "zero-init" in facts(code.split("def init_he", 1)[0] + climbing)


@pytest.mark.parametrize("line, wide", [
    ("    parameters['W' + str(l)] = np.random.randn(layers_dims[l], layers_dims[l-1]) * 10", True),
    ('    parameters["W" + str(l + 1)] = np.random.randn(dims[l + 1], dims[l])', True),
    ("    parameters['W' + str(l)] = np.random.randn(layers_dims[l], layers_dims[l-1]) / 10", False),
])
def test_a_draw_scaled_up_is_still_too_wide_and_the_next_layers_key_is_read(line, wide):
    assert bool(LARGE_INIT.search("for l in range(L):\n" + line + "\n")) is wide


@pytest.mark.parametrize("text", [
    "Perplexity is now 30,000, up from 45 at epoch 3. Why is the perplexity this high?",
    "The ppl shot up to 4000 after I resumed. Is the perplexity broken?",
    "Perplexity at step 1000 is 35. Is the perplexity fine?",
    "A character model over a vocabulary of 65 characters: perplexity 180 after 10 epochs. Is that perplexity ok?",
    "I fine-tuned from_pretrained('gpt2') and its perplexity is 250. Why is the perplexity so high?",
])
def test_a_perplexity_that_rose_is_a_count_sits_above_the_vocabulary_or_belongs_to_a_fine_tune_is_not_answered(text):
    assert PERPLEXITY not in [n.name for n in normals_asked(text)]


def test_a_perplexity_answer_needs_a_loss_that_fell():
    asked = "Why is the ppl in the thousands?\n"
    rising = "".join(f"| epoch {e:03d} | loss {v} | ppl {2 ** float(v):.2f}\n" for e, v in
                     enumerate(("9.81", "10.6", "11.9", "13.2", "14.5"), 1))
    falling = "".join(f"| epoch {e:03d} | loss {v} | ppl {2 ** float(v):.2f}\n" for e, v in
                      enumerate(("13.2", "11.4", "10.1", "9.3", "8.8"), 1))
    assert PERPLEXITY not in [n.name for n in diagnosis(asked + rising).normal]
    assert diagnosis(asked + falling).normal[0].name == PERPLEXITY


def test_standardised_targets_said_to_hold_negative_values_keep_the_scaled_target_answer():
    text = ("My targets are standardised with StandardScaler, so they have negative values, and I convert back with "
            "inverse_transform: RMSE 11.9 in the original units. Is the loss of 0.031 right?")
    assert "a loss on standardised targets, which is in units of their variance" in [n.name for n in normals_asked(text)]


@pytest.mark.parametrize("text", [
    "The validation accuracy climbs nicely while the train accuracy rises too. Bug?",
    "Test accuracy stuck at 91%. Later, while the training accuracy keeps climbing, the loss goes nan. Bug?",
])
def test_both_accuracies_rising_or_a_level_off_in_another_sentence_is_no_gap(text):
    assert GAP not in [n.name for n in normals_asked(text)]


def test_one_sigmoid_unit_is_read_through_nested_calls_but_not_from_a_comment():
    from trainwreck.run_kind import REGRESSOR

    assert not REGRESSOR.search("layers.Dense(1, kernel_initializer=GlorotUniform(), activation='sigmoid')")
    assert REGRESSOR.search("layers.Dense(1, activation='linear')  # no sigmoid here")


# --- a loss with a name of its own beside the plain loss on one line ---

def test_a_named_loss_beside_the_plain_loss_on_its_line_is_a_part_not_a_second_value():
    from trainwreck.logscan.layout import named_parts

    assert named_parts(b"step 10 loss: 2.31, ce loss: 1.90, kl loss: 0.41\n") == [b"ce loss", b"kl loss"]
    # (not a column of a log before the plain loss, nor a name with no plain loss beside it: a GAN's pair)
    assert named_parts(b"Speed 4410.62 samples/sec   Loss 41.2093   LearningRate 0.0499\n") == []
    assert named_parts(b"[D loss: 0.61] [G loss: 0.93]\n") == []
    assert named_parts(b"loss: 2.31 (the train loss falls)\n") == []



def test_the_finders_answer_is_not_given_for_values_a_sentence_gives_of_a_training_run():
    text = ("The lr finder plot shows the loss exploding past 1e-1, so I trained at 1e-2: the loss was 0.65, 1.9, 7.3 "
            "and 24.1 over four epochs. Is that ok?")
    assert diagnosis(text).verdict != "normal"
    assert diagnosis("lr_find shows the loss exploding. Then with fit_one_cycle my training loss keeps going up every "
                     "epoch. Why?").verdict != "normal"


@pytest.mark.parametrize("text", [
    "A GPT from scratch, vocab 50257: eval perplexity is 3400 after 20 epochs and it is not going down. Is that ok?",
    "The perplexity on the test set is 1500 while the train perplexity is 20. Is the perplexity fine?",
    "Why is my valid ppl in the thousands?\n| epoch 001 | valid ppl 955.4\n| epoch 002 | valid ppl 2195.0\n"
    "| epoch 003 | valid ppl 6208.0",
])
def test_a_perplexity_that_stalls_stands_against_a_training_one_or_rises_by_its_lines_is_not_answered(text):
    assert PERPLEXITY not in [n.name for n in normals_asked(text)]


def test_words_that_run_a_sentence_on_or_a_total_are_no_part_of_the_loss_and_a_total_is_read_first():
    from trainwreck.logscan.layout import _first_own, named_parts

    assert named_parts(b"loss: 2.31 at step 100, then loss: 1.90 at step 200\n") == []
    assert named_parts(b"loss: 2.31, total loss: 2.5\n") == []
    assert _first_own(b"train/loss_cls=0.71, train/loss_total=1.94, train/loss_box=1.23") == b"loss_total"


def test_speechbrains_capitalised_epoch_is_its_log_too():
    log = speechbrain_log(["2.31", "1.64", "1.22"]).replace("epoch:", "Epoch:")
    assert context_of(log).ev.dialect == "SpeechBrain train_log"
