"""What people paste: framework messages, plain words, things that are normal -- and the fix line."""
import dataclasses
import io
import math

import pytest

from conftest import ROOT, context_of, real_catalog, weighed_parts
from trainwreck.catalog import Catalog
from trainwreck import diagnose_report
from trainwreck.diagnose import diagnose, first_fix_step, message_finder
from trainwreck.entry import Message
from trainwreck.logscan import scan
from trainwreck.normals import normals_asked

CATALOG = real_catalog()


def answered(text: str, start: str) -> bool:
    """Is a normal whose name starts with `start` given for the text (normals_asked, as diagnose asks it)?"""
    return any(n.name.startswith(start) for n in normals_asked(text))
ANOMALY = Message("Function '{}' returned nan values in its {}th output.", "pytorch",
                  "https://github.com/pytorch/pytorch/blob/v2.5.1/torch/csrc/autograd/engine.cpp",
                  "Function 'LogSoftmaxBackward0' returned nan values in its 0th output.")
INDEX = Message("index {} is out of bounds for axis {} with size {}", "numpy",
                "https://github.com/numpy/numpy/blob/v2.4.6/numpy/_core/src/multiarray/mapping.c",
                "index 10 is out of bounds for axis 1 with size 10")


def with_entry(**fields) -> Catalog:
    """A catalogue of one made-up entry (WR-999) with these fields, so that no other entry
    declares the messages a test is about."""
    entry = dataclasses.replace(CATALOG.entries["WR-250"], id="WR-999", **fields)
    return Catalog(root=ROOT, folder=ROOT / "catalog", entries={"WR-999": entry}, modules=CATALOG.modules)


def diagnosis(text: str, catalog=CATALOG):
    return diagnose(scan(io.BytesIO(text.encode()), "report", message_finder(catalog)), catalog)


# ---- framework messages are read as the catalogue declares them ------------------------------

TRACEBACK = """Traceback (most recent call last):
  File "train.py", line 88, in <module>
    loss.backward()
  File "/usr/lib/python3/site-packages/torch/_tensor.py", line 521, in backward
    torch.autograd.backward(
RuntimeError: Function 'ExpBackward0' returned nan values in its 0th output.
"""


def test_a_declared_template_matches_the_filled_in_message():
    catalog = with_entry(messages=[ANOMALY], trace="none", summary="a made-up entry for the test", phrases=[])
    d = diagnosis(TRACEBACK, catalog)
    assert d.matches[0].entry.id == "WR-999"
    assert 'message "Function \'ExpBackward0\' returned nan values in its 0th output." (line 6)' \
        in d.matches[0].evidence
    assert "pytorch" in d.evidence.frameworks
    assert d.unweighed == []


def test_a_value_that_ends_a_message_is_quoted_whole():
    """A lazy placeholder at the end of a template matched one character: the log's numbers must come back
    as the log printed them."""
    text = ("Gradient overflow.  Skipping step, loss scaler 0 reducing loss scale to 32768.0\n"
            "invalid value (inf) encountered in mul\n")
    evidence = [e for m in diagnosis(text).matches for e in m.evidence]
    assert any('reducing loss scale to 32768.0" (line 1)' in e for e in evidence)
    assert any('message "invalid value (inf) encountered in mul" (line 2)' in e for e in evidence)
    assert Message("a {} b {}", "numpy", "https://example.org", "a 1 b 2 3").matches("a 1 b 2 3")


def test_an_undeclared_framework_message_is_reported_not_dropped():
    d = diagnosis(TRACEBACK, with_entry(messages=[INDEX], trace="none", phrases=[]))
    assert any("returned nan values in its 0th output" in u and "not declared by any entry" in u
               for u in d.unweighed)


def test_numpys_older_and_scalar_names_of_the_division_are_the_declared_division():
    """NumPy before 1.23 named the division ufunc `true_divide` in its warnings, and two NumPy scalars divide as
    `scalar divide`: each is the declared "... encountered in divide" (review_session27_words K7), quoted as
    printed; another op's name is not."""
    for printed in ("invalid value encountered in true_divide", "invalid value encountered in scalar divide",
                    "divide by zero encountered in true_divide"):
        ev = scan(io.BytesIO(f"norm.py:12: RuntimeWarning: {printed}\n".encode()), "w", message_finder(CATALOG))
        declared = printed.replace("true_divide", "divide").replace("scalar divide", "divide")
        assert ev.messages[declared][2] == printed, printed
    ev = scan(io.BytesIO(b"RuntimeWarning: invalid value encountered in divide_by_count\n"), "w", message_finder(CATALOG))
    assert "invalid value encountered in divide" not in ev.messages


def test_a_numpy_traceback_line_matches_a_declared_numpy_message():
    catalog = with_entry(messages=[INDEX], trace="none", summary="a made-up entry for the test", phrases=[])
    text = "Traceback (most recent call last):\n  File \"t.py\", line 3\nIndexError: index 10 is out of bounds " \
           "for axis 1 with size 10\n"
    assert diagnosis(text, catalog).matches[0].entry.id == "WR-999"
    # a scan that did not know the catalogue still files the line; the entry's template matches it
    ev = scan(io.BytesIO(text.encode()), "report")
    assert diagnose(ev, catalog).matches[0].entry.id == "WR-999"


def test_a_message_from_another_framework_is_not_evidence_against():
    """An entry that declares only NumPy's warnings: a PyTorch log cannot print them, so their absence says nothing."""
    numpy_only = [m for m in CATALOG.entries["WR-030"].messages if m.origin == "numpy"]
    catalog = with_entry(messages=numpy_only, trace="descent-then-nonfinite", phrases=[])
    log = "".join(f"epoch {i} loss {v}\n" for i, v in enumerate([0.9, 0.7, 0.55, 0.46, 0.41, float("nan")]))
    numpy_quiet = diagnosis(log, catalog)
    pytorch = diagnosis(log + TRACEBACK, catalog)
    against = "none of the messages this failure prints are in the log"
    assert against in numpy_quiet.matches[0].against
    assert against not in pytorch.matches[0].against


# ---- plain words ----------------------------------------------------------------------------

def test_nan_from_the_first_batch_points_at_the_from_the_start_entries():
    from trainwreck.diagnose import weigher

    d = diagnosis("My loss is nan from the very first batch, before anything is learned.")
    timing = weigher(CATALOG).timing
    assert len(d.matches) >= 2 and d.verdict == "uncertain"
    for m in d.matches:                      # every candidate is one that can break from the first value
        assert "start" in timing[m.entry.id], m.entry.id
        assert any("from the first values" in fact for fact in m.evidence)


@pytest.mark.parametrize("report", ["logit 378.09, exp() gives inf and then the inf turns into a nan in the softmax",
                                    "logit 378.09, exp() inf … this infinity bubbles through to a nan"])
def test_exp_overflowing_points_at_the_overflow_entry(report):
    # the second is the issue's own wording: its "through" matched the entries whose text says "through"
    # (WR-220 among them) until prepositions became stop words
    d = diagnosis(report)
    assert d.matches[0].entry.id == "WR-020"


def test_a_report_that_cannot_decide_says_so_and_asks_for_the_deciding_thing():
    d = diagnosis("The loss becomes nan after a few epochs. What could be the cause?")
    assert d.verdict == "uncertain"
    assert d.matches[0].entry.id == "WR-220"         # the first suspect, not a certainty
    assert 2 <= len(d.matches) <= 3
    assert d.ask.startswith("the loss values from the start of the run")
    from trainwreck.diagnose_report import report
    text = report(d)
    assert "Cannot tell yet." in text and "To decide, paste the loss values" in text
    assert "before the first nan or inf" in d.ask


FELL_THEN_NAN = "".join(f"epoch {e} loss {v}\n" for e, v in enumerate(["0.91", "0.62", "0.48", "0.41", "0.37", "nan"], 1))


def test_the_deciding_question_asks_for_what_the_papers_framework_prints():
    """A PyTorch, TensorFlow or JAX run prints no NumPy warning: the ask is for what its own check prints, and how
    to switch it on (review_session27_logs K3, review_session27_words K1). With no framework shown, NumPy's."""
    from trainwreck.diagnose import shown_frameworks

    plain = diagnosis(FELL_THEN_NAN)
    assert plain.verdict == "uncertain" and "encountered in" in plain.ask and shown_frameworks(plain.evidence) == set()
    for words, framework, switch in (
            ("I train with PyTorch.", "pytorch", "torch.autograd.set_detect_anomaly(True)"),
            ("model.compile(...) in Keras, then model.fit", "tensorflow", "tf.debugging.enable_check_numerics()"),
            ("My jax training loop with optax:", "jax", 'jax.config.update("jax_debug_nans", True)')):
        d = diagnosis(words + "\n" + FELL_THEN_NAN)
        assert framework in shown_frameworks(d.evidence)
        assert d.verdict == "uncertain" and switch in d.ask and "encountered in divide" not in d.ask, framework
    # a framework named to deny it is not shown; a JAX program that loads its data with tfds is asked for JAX's
    # check, with JAX's messages (review_session27_commits item 3)
    numpy_only = diagnosis("A two-layer net written from scratch in NumPy (no PyTorch or TensorFlow).\n" + FELL_THEN_NAN)
    assert shown_frameworks(numpy_only.evidence) == set() and "encountered in" in numpy_only.ask
    # ... but a negator that denies something else does not deny the framework ("no warmup in PyTorch 2.1")
    assert "pytorch" in shown_frameworks(diagnosis("Trained with no warmup in PyTorch 2.1.\n" + FELL_THEN_NAN).evidence)
    flax = diagnosis("Flax ResNet, data from tensorflow_datasets (tfds.load), optax adam.\n" + FELL_THEN_NAN)
    assert 'jax.config.update("jax_debug_nans", True)' in flax.ask and "check_numerics" not in flax.ask
    # a Lightning bar is PyTorch's
    bar = "".join(f"Epoch {e}: 100%|##########| 100/100 [00:10<00:00, v_num=3, train_loss={v}]\n"
                  for e, v in enumerate(["0.910", "0.620", "0.480", "0.410", "0.370", "nan.0"]))
    assert "pytorch" in shown_frameworks(diagnosis(bar).evidence)


def test_pytorch_code_in_the_paste_shows_pytorch_and_the_ask_quotes_only_ops_the_entries_name():
    """`F.softmax(`, `.masked_fill(`, `loss.backward()` are PyTorch's though the word torch is absent: the paste
    was asked for NumPy warnings PyTorch never prints, with "none of the messages this failure prints are in the
    log" held against WR-070 (review_session29_broad 11, 24). Anomaly mode is opt-in: its absence is no evidence.
    And a check's example op is its snippet's: WR-070's and WR-310's BinaryCrossEntropyWithLogitsBackward0 is
    not what a user with another loss sees, so only ops the entries' own words name are quoted (items 04, 05)."""
    from trainwreck.diagnose import shown_frameworks

    code = "attn = F.softmax(scores, dim=-1)\nSome documents have zero tokens after filtering.\n"
    d = diagnosis(code + "".join(f"Epoch 1 Batch {b} Loss nan\n" for b in range(0, 40, 10)))
    assert shown_frameworks(d.evidence) == {"pytorch"} and "set_detect_anomaly(True)" in d.ask
    # (with the -inf fill that breaks such a row pasted too, the masked softmax comes first -- a construct of the
    # code orders the candidates and names none on its own: session 31)
    filled = diagnosis("scores = scores.masked_fill(mask == 0, float('-inf'))\n" + code
                       + "".join(f"Epoch 1 Batch {b} Loss nan\n" for b in range(0, 40, 10)))
    assert filled.verdict == "uncertain" and filled.matches[0].entry.id == "WR-070"
    assert "encountered in" not in d.ask and "BinaryCrossEntropyWithLogitsBackward0" not in d.ask
    assert not any("none of the messages" in a for m in d.matches for a in m.against)
    for loop in ("loss.backward()\noptimizer.step()\n", "criterion = nn.CrossEntropyLoss()\n"):
        assert shown_frameworks(diagnosis(loop + FELL_THEN_NAN).evidence) == {"pytorch"}, loop
    # scikit-learn's and Flax's look-alikes are not PyTorch's or Keras's
    for other in ("model = LinearRegression(); model.fit(X, y)\n", "class MLP(nn.Module):\n    nn.Dense(10)\n"):
        assert "pytorch" not in shown_frameworks(diagnosis(other + FELL_THEN_NAN).evidence), other
        assert "tensorflow" not in shown_frameworks(diagnosis(other + FELL_THEN_NAN).evidence), other


def test_a_report_that_says_when_it_went_nan_is_not_asked_for_the_values_that_would_say_it():
    """"nan at the very first iteration", "the very first printed loss is already nan": the report said what the
    first values would show (review_session27_words K8); it is asked what tells the candidates apart by cause."""
    from trainwreck.thesaurus import tokens
    from trainwreck.timing_words import timing_of

    setup = (" I initialise all Linear layers of a 50-layer ReLU network with nn.init.normal_(m.weight, std=1.0). "
             "With the default init it trains.")
    for said in ("Deep MLP: loss is nan at the very first iteration.", "The very first printed loss is already nan."):
        assert timing_of(tokens(said)) == {"start"}, said
        d = diagnosis(said + setup)
        assert d.verdict == "uncertain" and not d.ask.startswith("the loss values from the start"), d.ask
    # (the first backward comes before any update too: "the grads come back nan on the very first backward",
    # ux_review_s65 9)
    assert timing_of(tokens("forward is fine but the grads come back nan on the very first backward")) == {"start"}
    # a nan later on: the values before it (a climb, or a jump) still tell the candidates apart
    later = diagnosis("The loss becomes nan after a few epochs." + setup)
    assert later.ask.startswith("the loss values from the start")


def test_a_loss_that_does_not_learn_is_asked_about_without_a_nan_it_never_had():
    d = diagnosis("My loss stays the same from epoch to epoch, it does not go down.")
    assert d.verdict == "uncertain" and d.ask.startswith("the loss values from the start of the run")
    assert "nan" not in d.ask and "never moved from its first value" in d.ask


def test_a_division_by_zero_in_the_cost_is_asked_about_up_to_its_first_inf():
    # the issue's words: a log of zero makes the cost inf, so the values before it are what decides
    d = diagnosis("divide by zero in my cost from np.log")
    assert d.matches[0].entry.id == "WR-030" and "before the first nan or inf" in d.ask
    # Python's exception says it too, split at its capitals before the words are folded
    from trainwreck.thesaurus import tokens
    assert tokens("ZeroDivisionError") == ["divzero"]


def test_nothing_to_go_on_asks_for_the_loss_values():
    d = diagnosis("It does not work.")
    assert d.verdict in ("no-evidence", "uncertain") and d.ask


# ---- healthy stays healthy; unknown stays unknown -----------------------------------------

@pytest.mark.parametrize("report, name", [
    ("My loss went negative during training, is this expected?", "negative loss"),
    ("I keep seeing Gradient overflow.  Skipping step, loss scaler 0 reducing loss scale to 16384.0 -- normal?",
     "skipped steps under dynamic loss scaling"),
    ("Why is the val_loss of fit() much higher than the loss of evaluate()?",
     "a gap between training and validation loss"),
    ("Train accuracy is 100% by step 800, but validation accuracy stays at 4%. Is the split wrong?",
     "a gap between training and validation loss"),
    ("Is my CNN just memorising the training set?", "a gap between training and validation loss"),
    ("MLPClassifier(max_iter=200) ends with: ConvergenceWarning: Stochastic Optimizer: Maximum iterations (200) "
     "reached and the optimization hasn't converged yet. Test accuracy is 0.96. Does the warning mean it is broken?",
     "an optimizer stopped at its iteration limit"),
    ("MLPRegressor.loss_ is half of the MSE I compute myself with mean_squared_error. Which one is right?",
     "scikit-learn's squared-error loss_, which is half the mean squared error"),
    ("Every run starts with: UserWarning: The given NumPy array is not writable, and PyTorch does not support "
     "non-writable tensors. The loss falls from 1.39 to 0.5. Are my samples garbage?",
     "PyTorch's warning on a read-only NumPy array"),
    ("Tuner(trainer).lr_find(model) prints `LR finder stopped early after 87 steps due to diverging loss.` Is my model "
     "unstable?", "a learning-rate finder's sweep, which ends in divergence by design"),
    ("Train accuracy is 1.0 from step 600 on. Validation accuracy stays near 0.01. Is my eval broken?",
     "a gap between training and validation loss"),
    ("Region 82 Avg IOU: -nan, Class: -nan, Obj: -nan, No Obj: 0.513887, .5R: -nan, .75R: -nan,  count: 0\n"
     "why is there nan during training?", "nan in a Darknet Region line with no objects"),
    ("Region Avg IOU: -nan, Class: -nan, Obj: -nan, No Obj: 0.003210, Avg Recall: -nan,  count: 0\n"
     "is this nan a problem?", "nan in a Darknet Region line with no objects"),
    (" Average Precision  (AP) @[ IoU=0.50:0.95 | area= small | maxDets=100 ] = -1.000\n"
     " Average Precision  (AP) @[ IoU=0.50:0.95 | area=medium | maxDets=100 ] = 0.402\n"
     "My satellite ship detector gets -1 for small objects. Is the evaluation broken?",
     "COCO evaluation's -1 (detectron2's nan) for an area range with no objects"),
    ("| AP | AP50 | APs |\n| 61.2 | 88.0 | nan |\nSome metrics cannot be computed and is shown as NaN.\n"
     "Did my training go wrong?", "COCO evaluation's -1 (detectron2's nan) for an area range with no objects"),
    ("coco/bbox_mAP: 0.5530  coco/bbox_mAP_s: -1.0000  coco/bbox_mAP_m: 0.4100\nwhy is AP_s negative?",
     "COCO evaluation's -1 (detectron2's nan) for an area range with no objects"),
    ("Validation: 12/40 [00:30<01:10]WARNING ⚠️ NMS time limit 2.400s exceeded\nThe warning is on most batches of epoch 1. "
     "Is training broken?", "YOLO's \"NMS time limit exceeded\" while an untrained detector is validated"),
    ("Dense(64, kernel_regularizer=regularizers.l2(1e-3)). evaluate() gives 0.71 but log_loss on predict() is 0.22. "
     "Which is right?", "Keras's reported loss, which includes the weight penalties"),
    ("I added class_weight={0: 0.5, 1: 40} and now the training loss is much higher than before. Did I break it?",
     "a training loss that rose once class weights were added"),
    ("model.summary() ends with Non-trainable params: 512 (2.00 KB) but I never froze anything. Is a layer not learning?",
     "Keras's non-trainable parameters, which are BatchNormalization's moving statistics"),
    ("DDPM on 64x64 flowers with diffusers: the loss is flat around 0.05 after the first hour and jumps between 0.01 "
     "and 0.2 on every step, but samples improve. Is it learning?",
     "a diffusion model's per-step loss, which is mostly the noise level it drew"),
    ("transformer.py:385: UserWarning: enable_nested_tensor is True, but self.use_nested_tensor is False because "
     "encoder_layer.norm_first was True\n  warnings.warn(\nIs my src_key_padding_mask ignored now?",
     "PyTorch's \"enable_nested_tensor is True, but self.use_nested_tensor is False\" warning"),
    ("epoch 2 | val_cer 0.691 | val_wer 1.173\nHow can the WER be 117%? Is jiwer broken?", "a word error rate above 100%"),
    ("My Dice is about 0.80 but my IoU only about 0.67 on the same predictions. Is one metric broken?",
     "a Dice score and an IoU that differ, for the same predictions"),
    ("PPO from CleanRL on CartPole-v1: the return climbs at first, then every episode returns exactly 500.0 and it "
     "never goes higher. Is the agent stuck in a local optimum?", "CartPole-v1's return of 500, the most an episode can give"),
    ("LSTM forecaster, everything standardised, the target included. The validation MSE is 0.03, but converted back to "
     "degrees the MAE is about 1 degree. Is something wrong with my training?",
     "a loss on standardised targets, which is in units of their variance"),
    ("nnUNetv2_train 102 3d_fullres 0\n2024-11-18 09:43:47.118204: train_loss -0.6904\n"
     "2024-11-18 09:43:47.118917: val_loss -0.6521\nMy Dice loss used to stay between 0 and 1. Why is the nnU-Net "
     "loss negative, are my labels broken?", "nnU-Net's loss, the cross-entropy plus minus the soft Dice, which goes below zero"),
    ("LSTM forecasting hourly PV output; the forecasts follow the measured curves closely and the MAE is small, but the "
     "MAPE on the test set is 3400%. What is broken?", "a MAPE of hundreds or thousands of percent beside small errors"),
    ("Push model, only about 2% of notifications get opened. The log loss goes from 0.10 to 0.09 and then hardly "
     "changes, it learned almost nothing? The validation AUC is higher than our logistic regression's.",
     "a log loss on rare positives, which sits near the base rate's entropy and has little room to fall"),
    ("ULMFiT with fastai and fit_one_cycle. When I plot the schedule, the learning rate goes up during the first part "
     "of training instead of down. Validation accuracy is 91%. Did I set something up backwards?",
     "fastai's fit_one_cycle, whose rate rises before it falls"),
    ("BiLSTM POS tagger, 95% token accuracy on the test set, but only around half of the sentences have every tag "
     "right. Is something broken?", "a sentence accuracy far below the token accuracy"),
    ("_utils.py:223: UserWarning: Arguments other than a weight enum or `None` for 'weights' are deprecated since 0.13 "
     "and may be removed in the future. The current behavior is equivalent to passing "
     "`weights=ResNet50_Weights.IMAGENET1K_V1`. You can also use `weights=ResNet50_Weights.DEFAULT` to get the most "
     "up-to-date weights.\nAre the ImageNet weights actually loaded?",
     "torchvision's `pretrained` deprecation warning, which names the weights it loads"),
    ("SB3 PPO with target_kl=0.01 on my drone env prints \"Early stopping at step 2 due to reaching max kl: 0.02\" "
     "after most rollouts, while ep_rew_mean climbs from -300 to 150. Is training being stopped?",
     "Stable-Baselines3 PPO's early stop on the KL, which ends one update's epochs, not training"),
    ("My SAC on a 7-joint arm logs log_prob of the sampled actions around +6, and the entropy is negative. How can "
     "a log probability be positive? The arm does reach the targets.",
     "a positive log-probability of a continuous action, which is a log-density"),
    ("StyleGAN2-ADA on 1,500 photos of teapots: the augment value in the log keeps increasing, 0.31 now. Are my images "
     "bad? The FID goes down every snapshot.",
     "StyleGAN2-ADA's augmentation probability, which rises while the discriminator overfits"),
    ("SAC for a gripper that has to reach a cup; an episode ends when the gripper reaches the cup or after 500 steps. "
     "The mean episode length keeps going down while the return keeps going up. Is the agent dying early?",
     "episodes that get shorter as the return rises, where reaching the goal ends an episode"),
    ("Same seed (torch.manual_seed(0)), same data, two runs on one A100: the losses agree for a few hundred steps, then "
     "differ in the 4th decimal, and the final accuracies are 91.2% and 91.5%. Where is the hidden randomness?",
     "runs with the same seed that differ a little on a GPU"),
])
def test_normal_behaviour_is_answered_as_normal(report, name):
    d = diagnosis(report)
    assert d.verdict == "normal" and d.normal[0].name == name
    assert d.ask


def test_a_dice_and_an_iou_are_answered_only_where_the_iou_is_the_one_the_dice_allows():
    """IoU = Dice / (2 - Dice) for one mask, and averaged over images the mean IoU lies between the mean Dice put through
    it and the mean Dice (the formula is convex): 0.80 allows 0.667 up to 0.80, each read with the rounding it was
    written with. An IoU outside that range is no pair of the same predictions' scores."""
    from trainwreck.normals import _dice_iou_apart
    assert _dice_iou_apart("Dice 0.80, IoU 0.67") == "" and _dice_iou_apart("dice 80%, mIoU 75%") == ""
    assert _dice_iou_apart("Dice 0.80, IoU 0.60") and _dice_iou_apart("Dice 0.80, IoU 0.85")
    answer = "a Dice score and an IoU that differ, for the same predictions"

    assert answered("My Dice is about 0.80 but my IoU only about 0.67 on the same predictions. Is one metric broken?", answer)
    assert not answered("My Dice is about 0.80 but my IoU only about 0.50 on the same predictions. Is one metric broken?", answer)
    # (no numbers; a Dice loss, one minus the score; a run that does not improve, whose question is the run)
    assert not answered("I train a U-Net with Dice loss and track IoU. How many epochs should I train?", answer)
    assert not answered("My Dice loss is 0.80 but my IoU is 0.67, is that consistent?", answer)
    assert not answered("Validation Dice 0.31 and IoU 0.19 but it does not improve at all after epoch 2. What is wrong?", answer)


def test_a_wer_is_answered_above_100_percent_not_at_it():
    """Exactly 100% is every word deleted -- a CTC model that outputs only blanks -- and a fall from 100% is progress:
    neither is the insertions' WER above 100%."""
    from trainwreck.normals import normals_asked
    answer = "a word error rate above 100%"
    assert any(n.name == answer for n in normals_asked("how can the wer be 117%? is jiwer broken?"))
    for text in ("The WER is stuck at 100% for the whole run and the model outputs only blanks. Any idea?",
                 "WER went from 100% to 38% in ten epochs. Is it overfitting?"):
        assert not any(n.name == answer for n in normals_asked(text.lower())), text


def test_a_coco_minus_one_beside_a_loss_that_went_nan_is_no_answer():
    """The -1 of an empty area range explains the -1, not a training loss that went nan beside it."""
    d = diagnosis(" Average Precision  (AP) @[ IoU=0.50:0.95 | area= small | maxDets=100 ] = -1.000\n"
                  "iter 100 loss 1.21\niter 200 loss 5.83\niter 300 loss nan\niter 400 loss nan\n"
                  "And after the third epoch the loss is nan. Is -1 a problem too?")
    assert d.verdict != "normal" and d.matches
    # (the same -1 asked about alone is answered: it is the nan beside it that takes the answer away)
    alone = diagnosis(" Average Precision  (AP) @[ IoU=0.50:0.95 | area= small | maxDets=100 ] = -1.000\n"
                      "Is -1 a problem?")
    assert alone.verdict == "normal" and alone.normal[0].name.startswith("COCO evaluation")


def test_the_tool_answers_stay_in_their_place():
    """Lightning's summary table and a model frozen on purpose are no Keras BatchNorm count; a regularizer with no
    hand-computed loss beside it asks nothing; a diffusion run whose loss went nan is broken; a rate lowered is no class
    weight."""
    lightning = "11.2 M    Non-trainable params\nI unfreeze the backbone at epoch 5 but nothing changes."
    assert all(not n.name.startswith("Keras's non-trainable") for n in diagnosis(lightning).normal)
    frozen = "Non-trainable params: 11,200,000 after I froze the backbone. Unfreezing later changes nothing."
    assert all(not n.name.startswith("Keras's non-trainable") for n in diagnosis(frozen).normal)
    nan = ("DDPM with diffusers: the loss is flat at 0.05 and then nan from step 3000.\n"
           + "".join(f"step {s} loss {v}\n" for s, v in ((1000, 0.05), (2000, 0.06), (3000, "nan"), (4000, "nan"))))
    assert diagnosis(nan).verdict != "normal"
    assert all(not n.name.startswith("a training loss that rose once class")
               for n in diagnosis("I lowered the lr and now the training loss is higher.").normal)


def test_an_ap_or_map_with_its_threshold_is_no_loss_value():
    ev = scan(io.BytesIO(b"The training losses go down, and mAP50 goes 0.013 -> 0.21 -> 0.47 -> 0.55.\n"), "r",
              message_finder(CATALOG))
    assert ev.count == 0


def test_a_training_run_at_the_rate_a_finder_suggested_is_no_finders_sweep():
    d = diagnosis("I used lr_find's suggestion, 1.1e-3, and the training loss diverges after 3 epochs, then nan.")
    assert not any(n.name.startswith("a learning-rate finder's sweep") for n in d.normal) and d.verdict != "normal"


@pytest.mark.parametrize("report", [
    "To debug I tried to overfit a single batch of 8 images: the model cannot even memorise it, the loss stays at 2.30.",
    "Sanity check: can it memorize 10 samples? No, the loss stays at 2.30 after 500 steps.",
])
def test_a_model_that_cannot_memorise_a_batch_is_no_train_validation_gap(report):
    """(code_review_s47 H2) the overfit-one-batch check that failed is a failure to learn, not the gap's question."""
    assert not any(n.name == "a gap between training and validation loss" for n in diagnosis(report).normal)


@pytest.mark.parametrize("report", [
    "My loss is huge from the first epoch and then becomes nan after 3 epochs.",
    "The loss has big spikes and after the third spike it is nan for good.",
    "The loss is high at the start, then it keeps increasing until it diverges.",
])
def test_a_normal_asked_about_beside_words_of_a_broken_run_is_not_the_answer(report):
    """A question about something normal (a large start, spikes) does not overrule a nan or a climb the same
    report states (review_session27_words W1): with the normal's words taken out, the rest still says it broke."""
    d = diagnosis(report)
    assert d.normal and d.verdict != "normal" and d.matches


def test_a_question_about_normal_behaviour_is_answered_beside_a_healthy_curve():
    """A few skipped steps under Apex's loss scaling beside a falling loss, or a validation loss above the
    training loss, asked about with the curve pasted (review_session27_words W4, K5): normal, and the report
    says what the curve showed. A curve that broke keeps its verdict."""
    from trainwreck.diagnose_report import report

    apex = ("model, optimizer = amp.initialize(model, optimizer, opt_level=\"O1\")\n"
            + "".join(f"Gradient overflow.  Skipping step, loss scaler 0 reducing loss scale to {s}\n"
                      for s in ("32768.0", "16384.0", "8192.0", "4096.0"))
            + "".join(f"step {100 * i} loss {v}\n" for i, v in enumerate(["5.88", "5.10", "4.61", "4.20", "3.81", "3.52"]))
            + "Should I worry about these messages?\n")
    d = diagnosis(apex)
    assert d.verdict == "normal" and d.normal[0].name == "skipped steps under dynamic loss scaling"
    assert "The training loss shows no known failure: 6 loss values, all finite: the loss fell from 5.88 to 3.52" \
        in report(d)
    gap = ("".join(f"Epoch {e}/10 - loss: {t} - val_loss: {v}\n" for e, t, v in
                   [(1, "0.9123", "0.9870"), (2, "0.6410", "0.7355"), (3, "0.5133", "0.6421"), (4, "0.4378", "0.6017")])
           + "My val loss is always higher than the train loss. Did I do something wrong?\n")
    assert diagnosis(gap).normal[0].name == "a gap between training and validation loss"
    assert diagnosis(gap).verdict == "normal"
    # a bare "Is it normal?" about something else beside a healthy curve is no question about a large start
    # (review_session27_commits item 14)
    other = gap.replace("My val loss is always higher than the train loss. Did I do something wrong?",
                        "Every prediction is the same class. Is it normal?")
    # (and the words it does say, one output for every input, beside a curve too short to judge, are a failure said)
    answered = diagnosis(other)
    assert answered.verdict != "normal" and (answered.verdict == "healthy"
                                             or {"WR-110", "WR-140"} <= {m.entry.id for m in answered.matches})
    high = "".join(f"epoch {e} loss {6240 * 0.6 ** e:.1f}\n" for e in range(8)) + "Is it normal that it starts this high?\n"
    assert diagnosis(high).normal[0].name == "a large loss at the start" and diagnosis(high).verdict == "normal"
    broke = apex.replace("step 500 loss 3.52", "step 500 loss nan")
    assert diagnosis(broke).verdict != "normal"
    # asked whether it is broken, in DeepSpeed's words (review_session27_logs W3): a yes/no question, and the
    # overflow the normal explains itself, do not turn the question into a failure
    deepspeed = "".join(f"[deepspeed] OVERFLOW! Rank 0 Skipping step. Attempted loss scale: {s}, reducing to {s // 2}\n"
                        for s in (65536, 32768, 16384)) + "".join(
        f"{{'loss': {v}, 'learning_rate': 2e-05, 'epoch': {0.1 * i:.1f}}}\n" for i, v in enumerate([2.42, 2.1, 1.8, 1.5]))
    for question in ("Are these OVERFLOW messages a problem?", "Is fp16 broken, should I switch to bf16?"):
        assert diagnosis(deepspeed + question + "\n").verdict == "normal", question
    assert diagnosis(deepspeed + "After these the loss is nan for good.\n").verdict != "normal"
    # a nan or an inf loss said in a question, or beside the skipped steps, is still said (review_session27_commits
    # items 5, 6)
    for said in ("Is it normal that fp16 training prints these and then the loss goes to nan a few hundred steps later?",
                 "From then on the printed training loss is inf on every iteration."):
        assert diagnosis(deepspeed.split("{'loss'")[0] + said + "\n").verdict != "normal", said
    assert diagnosis("Is it normal that my loss becomes nan after 5 epochs?").verdict != "normal"


def test_a_negative_nll_log_is_not_a_failure_and_says_when_it_would_be():
    d = diagnosis("".join(f"epoch {i} loss {0.8 - 0.15 * i:.3f}\n" for i in range(12)))
    assert d.verdict == "normal" and d.normal[0].name == "negative loss"
    assert "impossible for cross-entropy or BCE" in d.normal[0].explanation
    assert d.ask.startswith("the loss function you use and the range of your targets")


def test_a_failure_the_catalogue_does_not_cover_is_not_forced():
    d = diagnosis("RuntimeError: CUDA out of memory. Tried to allocate 2.00 GiB\n")
    assert d.verdict != "failure"
    assert any("CUDA out of memory" in u for u in d.unweighed)


@pytest.mark.parametrize("report", [
    "I increase the batch size to 64 and the first forward pass fails:\n"
    "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 392.00 MiB.\n",
    "My data loader feeds 224x224 images to the model.\n"
    "RuntimeError: mat1 and mat2 shapes cannot be multiplied (64x12544 and 9216x128)\n",
    "Trying to start training with mixed precision.\nModuleNotFoundError: No module named 'apex'\n",
    # a label column's name is no word of the labels' values (review_session27_fixes item 2)
    "My dataset has a \"label\" column with values 0/1.\nKeyError: 'label'\n",
])
def test_an_error_no_entry_declares_with_no_word_of_the_loss_is_not_covered(report):
    """An out-of-memory error, a shape mismatch, a missing module: no entry is about them, and the words that
    happen to match an entry ("data", "input", "start", "precision") are no evidence (review_session27_words W5,
    K9). With a word of a loss gone wrong beside the same error, the candidates come back."""
    d = diagnosis(report)
    assert d.verdict == "unexplained" and d.matches == [], [m.entry.id for m in d.matches]
    assert "every entry is about one of those" in d.unweighed[-1]
    assert diagnosis(report + "Before that, with batch size 32, the loss was nan after 3 epochs.\n").matches


FINITE_THEN = "".join(f"epoch 3 step {s} loss {v}\n" for s, v in ((1150, "1.834"), (1200, "1.812"), (1250, "1.796")))


@pytest.mark.parametrize("crash", [
    "RuntimeError: DataLoader worker (pid 48213) is killed by signal: Killed.\n",
    "terminate called after throwing an instance of 'c10::DistBackendError'\n  what():  Watchdog caught collective "
    "operation timeout\n",
])
def test_a_run_whose_loss_stayed_finite_until_an_undeclared_error_ended_it_is_not_covered(crash):
    """A DataLoader worker killed, an NCCL watchdog's C++ exception: the loss was fine, the run died of something no
    entry covers. One or three finite values before it used to bring candidates matched on words, or "No known
    failure found" (review_session28_healthy items 6, 7)."""
    d = diagnosis(FINITE_THEN + crash)
    assert d.verdict == "unexplained" and d.matches == [], [m.entry.id for m in d.matches]
    assert any("every entry is about one of those" in u for u in d.unweighed)
    carried_on = diagnosis(crash + FINITE_THEN)                               # an error the run carried on after
    assert not any("every entry is about one of those" in u for u in carried_on.unweighed)
    assert diagnosis(FINITE_THEN + "epoch 3 step 1300 loss nan\n" + crash).matches      # a nan before it


def test_an_undeclared_error_about_labels_keeps_the_labels_entry():
    """WR-320 covers labels the loss cannot take, whatever wording the error has (review_session27_commits item 9)."""
    d = diagnosis("The labels in my CSV go from 1 to 10.\nRuntimeError: Class values must be smaller than num_classes.\n")
    assert d.matches and d.matches[0].entry.id == "WR-320"


# ---- the first step of the fix is whole --------------------------------------------------

def test_a_fix_step_that_introduces_a_list_brings_the_list():
    """WR-120's Fix opens with a sentence ending in a colon, then a list (issue 15.9: the line stopped at 'depth:')."""
    fix = CATALOG.entries["WR-120"].sections["Fix"]
    intro = " ".join(fix.split("\n\n")[0].split())
    assert intro.endswith(":")
    step = first_fix_step(CATALOG.entries["WR-120"])
    assert step.startswith(intro + " He for ReLU")
    assert "Glorot" in step and step.endswith(".") and "**" not in step


def test_a_step_that_opens_a_list_is_shown_one_item_a_line():
    """ux_review_s64 8: WR-310's and WR-120's first steps were one line of about 600 characters, their list's items
    joined by semicolons that the items hold too. The terminal shows the opening, then each item on its own line; the
    JSON keeps the one sentence."""
    from trainwreck.diagnose_report import as_json, report
    from trainwreck.fix_steps import first_fix_parts

    opening, items = first_fix_parts(CATALOG.entries["WR-310"])
    assert opening.endswith(":") and len(items) == 3 and items[0].startswith("At load time: drop rows")
    assert first_fix_step(CATALOG.entries["WR-310"]) == f"{opening} {'; '.join(items)}."
    d = diagnosis("epoch 1 loss 0.69\nepoch 2 loss 0.52\nepoch 3 loss 0.41\nepoch 4 loss nan\nepoch 5 loss nan\n"
                  "the loss goes nan after a few epochs, I think a batch has nan inputs\n")
    bad_batch = next(m for m in d.matches if m.entry.id == "WR-310")
    lines = report(d).splitlines()
    at = lines.index(f"   first step of the fix: {opening}")
    assert lines[at + 1:at + 4] == [f"      - {item}" for item in items]
    assert lines[at + 4] == "   more: trainwreck show WR-310"
    assert next(m["fix"] for m in as_json(d)["matches"] if m["id"] == "WR-310") == bad_batch.fix \
        == first_fix_step(CATALOG.entries["WR-310"])
    # a step of one sentence stays one line
    assert all(not m.fix_lines for m in d.matches if m.entry.id == "WR-220")


def test_the_check_asked_for_is_plain_words_and_says_what_to_look_for():
    """ux_review_s64 7: WR-130's ask was "Look at what reaches the loss", which says where to look and not what for; and
    an item's bold lead reached the terminal as Markdown ("**Overflow:** run one batch ...")."""
    from trainwreck.diagnose import _confirm_question

    asks = {entry_id: _confirm_question(entry) for entry_id, entry in CATALOG.entries.items()}
    assert not [a for a in asks.values() if "**" in a or "__" in a]
    assert "`np.allclose(out.sum(axis=1), 1)`" in asks["WR-130"] and "already applied the softmax" in asks["WR-130"]
    assert asks["WR-040"].startswith("the result of this check for WR-040: Overflow: run one batch in float32")


@pytest.mark.parametrize("entry_id", sorted(CATALOG.entries))
def test_every_fix_step_ends_a_sentence(entry_id):
    step = first_fix_step(CATALOG.entries[entry_id])
    assert step and step[-1] in ".!?)" and not step.endswith(":"), step


def test_a_made_up_fix_section_with_a_numbered_list():
    entry = dataclasses.replace(CATALOG.entries["WR-250"], sections={
        "Fix": "Do two things:\n\n1. lower the rate;\n2. add a warmup of 50 steps.\n\nThen rerun."})
    assert first_fix_step(entry) == "Do two things: lower the rate; add a warmup of 50 steps."


def test_a_whole_snippet_run_with_its_summary_lines_names_its_entry():
    """Reproduction and fix in one output: summary lines (`loss 0.6865 -> 0.1872`) are not steps."""
    import subprocess
    import sys

    out = subprocess.run([sys.executable, "snippets/wr240_clipping_not_clipping.py"], cwd=ROOT, text=True,
                         stdout=subprocess.PIPE, stderr=subprocess.STDOUT,     # as `python x.py 2>&1` shows it
                         env={"OPENBLAS_NUM_THREADS": "1", "PATH": ""}).stdout
    d = diagnosis(out)
    assert d.verdict == "failure" and d.matches[0].entry.id == "WR-240"


def test_a_nan_in_darknets_no_obj_field_is_not_answered_as_normal():
    """`No Obj` averages over every anchor, never 0/0: a nan there is a nan output, with objects counted."""
    d = diagnose(scan(io.BytesIO(b"Region 94 Avg IOU: 0.301, Class: 0.41, Obj: 0.30, No Obj: -nan, .5R: 0.1, .75R: 0.0,  "
                                 b"count: 5\nwhy is No Obj -nan in my darknet log?\n"), "report"), CATALOG)
    assert not any(n.name.startswith("nan in a Darknet") for n in d.normal) and d.verdict != "normal"


def test_a_gpu_label_assertion_names_the_labels_entry_and_is_read_as_the_kernel_prints_it():
    # CUDA's device assert prints the file, line, kernel, block and thread before the stringified
    # condition; the catalogue declares the condition as PyTorch's NLL kernels write it
    text = ("/pytorch/aten/src/ATen/native/cuda/Loss.cu:242: nll_loss_forward_reduce_cuda_kernel_2d: block: [0,0,0], "
            "thread: [3,0,0] Assertion `t >= 0 && t < n_classes` failed.\n"
            "Traceback (most recent call last):\n  File \"train.py\", line 40, in <module>\n"
            "    loss.item()\nRuntimeError: CUDA error: device-side assert triggered\n")
    d = diagnosis(text)
    assert d.matches[0].entry.id == "WR-320"
    assert any("Assertion `t >= 0 && t < n_classes` failed." in e for e in d.matches[0].evidence)


def test_beside_a_named_entry_only_the_runners_up_and_entries_with_evidence_of_their_own_are_listed():
    """A named failure used to list every entry with any score at all: 18 of them for a CUDA assert."""
    assert_text = ("RuntimeError: CUDA error: device-side assert triggered\n"
                   "../aten/src/ATen/native/cuda/Loss.cu:240: nll_loss_forward_reduce_cuda_kernel_2d: block: [0,0,0], "
                   "thread: [5,0,0] Assertion `t >= 0 && t < n_classes` failed.\n")
    d = diagnosis(assert_text)
    # (and the runners-up only with evidence to show: review_session30_broad's "padding", entries listed with none)
    assert d.verdict == "failure" and d.matches[0].entry.id == "WR-320" and len(d.matches) <= 3
    assert all(m.evidence for m in d.matches)
    overflow = diagnosis("/home/me/net.py:41: RuntimeWarning: overflow encountered in exp\n"
                         "  return 1 / (1 + np.exp(-z))\n")
    # (past the first three, not the other entries that declare the same message: the named one shows it already --
    # ux_review_s65 11, eight entries listed for one warning)
    assert overflow.verdict == "failure" and len(overflow.matches) <= 3


def test_the_absence_of_the_others_messages_alone_names_no_entry():
    """A fall and then a nan fits a bad batch, a log of zero and a nan gradient alike. In a log that shows no
    framework the last two lose a point for the NumPy warnings they would print, and that point alone used to
    open the lead that named WR-310: a paste of loss lines often leaves the warnings out. It still orders them."""
    d = diagnosis("".join(f"step {100 * i} loss {v}\n" for i, v in enumerate(["0.69", "0.52", "0.44", "0.41", "0.39",
                                                                             "nan", "nan"])))
    assert d.verdict == "uncertain" and d.matches[0].entry.id == "WR-310"
    assert d.matches[0].score - d.matches[1].score >= 1.0 and d.matches[1].parts["messages"] == -1.0


def test_the_op_a_message_names_goes_to_the_entries_whose_own_example_names_it():
    """PyTorch's anomaly mode, TensorFlow's check_numerics and JAX's debug_nans name the operation where the
    nan appeared. The entries whose own example names the same op share the message; with an op no example
    names, every declarer shares it. PyTorch before 1.8 printed ExpBackward, without the 0."""
    def quoting(text):
        d = diagnosis(text)
        return d, {m.entry.id: m.parts.get("messages", 0) for m in d.matches
                   if any(e.startswith("message ") for e in m.evidence)}

    d, quoted = quoting("RuntimeError: Function 'SqrtBackward0' returned nan values in its 0th output.\n")
    assert d.matches[0].entry.id == "WR-050" and quoted == {"WR-050": 2.0}
    _, quoted = quoting("RuntimeError: Function 'SqrtBackward' returned nan values in its 0th output.\n")
    assert quoted == {"WR-050": 2.0}
    _, quoted = quoting('!!! Detected Infinity or NaN in output 0 of eagerly-executing op "Exp" (# of outputs: 1) !!!\n')
    assert quoted == {"WR-020": 2.0 + 1.0}        # and, with no loss values, all of a messages-only entry's signature
    # an op no example names, and no entry's own message: all six declarers share it, and the entry whose
    # own (first) message it is, WR-310, counts twice
    mul = "RuntimeError: Function 'MulBackward0' returned nan values in its 0th output.\n"
    d, quoted = quoting(mul)
    # (weighed whether or not it is among the three candidates: its words decide that, not its share)
    assert abs(weighed_parts(mul, "WR-310")["messages"] - 2 * 2.0 / 7) < 1e-3
    assert all(abs(v - 2.0 / 7) < 1e-3 for i, v in quoted.items() if i != "WR-310")
    # an op no example of this message names, but whose own message names it (NumPy's "overflow encountered
    # in exp" is WR-020's and WR-220's first): they share it; quoted without its full stop, as people do
    d, quoted = quoting("Function 'ExpBackward' returned nan values in its 0th output\n")
    assert quoted == {"WR-020": 1.0, "WR-220": 1.0} and d.matches[0].entry.id == "WR-020"


def test_a_message_counts_most_for_the_entry_it_is_about():
    """The entry whose own (first) message it is counts twice in its share: NumPy's log-of-zero warning is
    WR-030's, which WR-020 and others print only as a consequence; and the warning's class (RuntimeWarning) is
    Python's word, not the reporter's (WR-020's page says a sigmoid's overflow only warns)."""
    from trainwreck.thesaurus import tokens

    d = diagnosis("train.py:41: RuntimeWarning: divide by zero encountered in log\n")
    assert tokens(d.evidence.prose) == ["py", "divzero", "encounter", "log"]
    declarers = [e.id for e in CATALOG.sorted_entries() if any(m.text == "divide by zero encountered in log"
                                                                 for m in e.messages)]
    assert CATALOG.entries["WR-030"].messages[0].text == "divide by zero encountered in log"
    assert d.matches[0].entry.id == "WR-030"
    assert abs(d.matches[0].parts["messages"] - 2 * 2.0 / (len(declarers) + 1)) < 1e-3
    bce = diagnosis("I implemented binary cross entropy myself: loss = -np.mean(y*np.log(p) + (1-y)*np.log(1-p))\n"
                    "after 30 epochs I get RuntimeWarning: divide by zero encountered in log and then the loss is nan\n")
    assert bce.matches[0].entry.id == "WR-030"


def test_a_messages_only_entry_is_not_given_all_of_a_message_that_names_another_op():
    """With no loss values, a messages-only entry (no curve) gets a bonus for its message: all of its signature
    is in the log. A nan JAX found in log is not exp's overflow, whose example names exp."""
    d = diagnosis("FloatingPointError: invalid value (nan) encountered in log\n")
    wr020 = [m for m in d.matches if m.entry.id == "WR-020"]
    assert not wr020 or wr020[0].parts.get("messages", 0) < 1.0
    exp = diagnosis("FloatingPointError: invalid value (inf) encountered in exp\n").matches[0]
    assert exp.entry.id == "WR-020" and exp.parts["messages"] == 2.0 + 1.0


def test_a_message_that_names_no_op_is_not_all_of_an_entry_whose_example_names_one():
    """JAX names the jitted function when the de-optimised one did not reproduce the nan: no op, so not all
    of WR-020's signature (its example names exp), and no bonus for it."""
    d = diagnosis("FloatingPointError: invalid value (nan) encountered in jit(train_step). Because "
                  "jax_config.debug_nans.value and/or config.jax_debug_infs is set, the de-optimized function was "
                  "called in an attempt to get a more precise error message.\n"
                  "The loss went from 2.30 to 0.41 in the first epoch, nan in the second.\n")
    wr020 = [m for m in d.matches if m.entry.id == "WR-020"]
    assert d.verdict != "failure" and (not wr020 or wr020[0].parts.get("messages", 0) < 1.0)


SIGMOID_WARNING = "/home/me/net.py:41: RuntimeWarning: overflow encountered in exp\n  return 1 / (1 + np.exp(-z))\n"


def test_an_overflow_warning_beside_a_loss_that_stayed_finite_and_fell_is_normal():
    """A naive sigmoid warns at a very negative z and returns the correctly rounded 0.0 (WR-020's bonus point): the
    warning beside a falling, finite loss is no failure. Beside a nan, or beside another warning, it is evidence."""
    curve = "".join(f"epoch {100 * i} cost {v}\n" for i, v in enumerate(["0.6931", "0.4127", "0.3311", "0.2946"]))
    d = diagnosis(curve[:40] + SIGMOID_WARNING + curve[40:])
    assert d.verdict == "normal" and d.normal[0].name == "an overflow warning beside a finite loss"
    assert "1/inf = 0.0" in d.normal[0].explanation and "fell from 0.6931 to 0.2946" in diagnose_report.report(d)
    assert diagnosis(SIGMOID_WARNING + curve + "epoch 400 cost nan\n").verdict != "normal"
    log_warning = "/home/me/net.py:44: RuntimeWarning: divide by zero encountered in log\n  c = np.log(a)\n"
    assert diagnosis(SIGMOID_WARNING + log_warning + curve).verdict != "normal"


def test_the_source_line_python_echoes_under_a_warning_is_no_loss_value():
    """`  loss = -1/m * np.sum(...)` under a RuntimeWarning is the line that warned, not a loss of -1."""
    text = ("iteration 0: loss 0.693147\n"
            "/tmp/ipykernel_1/1873162452.py:9: RuntimeWarning: divide by zero encountered in log\n"
            "  loss = -1/m * np.sum(Y * np.log(A) + (1 - Y) * np.log(1 - A))\n"
            "iteration 100: loss nan\niteration 200: loss nan\n")
    ev = scan(io.BytesIO(text.encode()), "report", message_finder(CATALOG))
    assert ev.count == 3 and ev.low == 0.693147 and str(ev.first_nonfinite_at) == "iteration 100"


def test_anomaly_modes_own_warning_names_no_failure_and_is_said_beside_a_healthy_verdict():
    """detect_anomaly() warns each time it is created (torch/autograd/anomaly_mode.py); left unweighed it made a
    healthy run "not covered"."""
    text = ("/home/dev/train.py:41: UserWarning: Anomaly Detection has been enabled. This mode will increase the "
            "runtime and should only be enabled for debugging.\n  with torch.autograd.detect_anomaly():\n"
            + "".join(f"epoch {i} loss {2.4 * 0.85 ** i:.4f}\n" for i in range(12)))
    d = diagnosis(text)
    assert d.verdict == "healthy" and d.unweighed == []
    shown = diagnose_report.report(d)
    assert "Read: message \"Anomaly Detection has been enabled." in shown and "PyTorch's anomaly mode is on" in shown


def test_a_paste_with_anomaly_modes_output_is_not_asked_to_switch_it_on():
    text = ("import torch\n/home/dev/train.py:41: UserWarning: Anomaly Detection has been enabled. This mode will "
            "increase the runtime and should only be enabled for debugging.\n"
            + "".join(f"step {100 * i} loss {v}\n" for i, v in enumerate(["0.69", "0.52", "0.44", "0.41", "nan"])))
    d = diagnosis(text)
    assert d.verdict == "uncertain" and "set_detect_anomaly" not in d.ask
    plain = diagnosis(text.replace("Anomaly Detection has been enabled", "Something else happened"))
    assert "set_detect_anomaly" in plain.ask                 # without it, anomaly mode is what decides


APEX_START = ("".join(f"Gradient overflow.  Skipping step, loss scaler 0 reducing loss scale to {s}\n"
                      for s in ("32768.0", "16384.0", "8192.0"))
              + "".join(f"Epoch: [0][{k:4d}/5005]  Loss {v}\n" for k, v in ((10, "6.9102"), (100, "6.8477"),
                                                                          (200, "6.7410"), (300, "6.5981"))))


def test_a_worried_yes_no_question_asks_and_reports_no_divergence():
    """"..., is my model diverging?" beside a few skipped steps and a falling loss asks a judgement; it named
    WR-040 (review_session28_healthy item 4). Said as a statement, the divergence is reported."""
    d = diagnosis("I get these overflow messages when training starts, is my model diverging?\n" + APEX_START)
    assert d.verdict == "normal" and d.normal[0].name == "skipped steps under dynamic loss scaling"
    stated = diagnosis("I get these overflow messages when training starts, and my model is diverging.\n" + APEX_START)
    assert stated.verdict != "normal"
    # a title's question after a dash or a colon asks as well (review_session37_final f28)
    for title in ("'gradient overflow detected' lines - is my training broken?\n",
                  "Overflow messages at the start: is my training broken?\n"):
        assert diagnosis(title + APEX_START).verdict == "normal", title


def test_keras_3s_evaluate_bar_after_fit_is_not_an_epochs_loss():
    bar = "\u2501" * 20
    fit = "".join(f"Epoch {i + 1}/6\n1875/1875 {bar} 4s 2ms/step - accuracy: 0.9{i} - loss: {v}\n"
                  for i, v in enumerate(["0.2603", "0.1121", "0.0774", "0.0572", "0.0431", "0.0335"]))
    d = diagnosis(fit + f"313/313 {bar} 1s 2ms/step - accuracy: 0.9776 - loss: 0.0824\n")
    assert d.evidence.count == 6 and d.evidence.last == 0.0335 and d.verdict == "healthy"
    # a bar over the same number of steps with no Epoch line is the same epoch's, and read
    assert diagnosis(fit + f"1875/1875 {bar} 4s 2ms/step - accuracy: 0.9776 - loss: 0.0824\n").evidence.count == 7


def test_rises_that_come_with_a_jump_of_the_printed_rate_and_recover_are_the_schedule():
    """A cosine schedule with warm restarts: the loss rises when the rate jumps back up, and recovers. It was told
    "spikes ... are mini-batch noise" (review_session28_healthy item 3). A rise with no jump of the rate, or one that
    does not recover, is not explained so."""
    rates = [0.05 * (1 + math.cos(math.pi * (e % 10) / 10)) / 2 + 1e-4 for e in range(30)]
    losses = [2.0 * 0.93 ** e + (0.25 if e % 10 == 0 and e else 0.0) for e in range(30)]
    text = "".join(f"epoch {e:3d} | lr {r:.5f} | train loss {v:.4f}\n" for e, (r, v) in enumerate(zip(rates, losses)))
    d = diagnosis("Every few epochs the loss jumps up, is the training unstable?\n" + text)
    assert d.verdict == "normal" and d.normal[0].name == "a rise each time the learning rate jumps back up"
    assert "the loss rose at epoch 10 (1.041 to 1.218, the rate 0.00132 to 0.0501) and at epoch 20" in d.signature.facts[1]
    steady = text.replace("lr 0.05010", "lr 0.00030")      # the rate does not jump at the restarts
    assert all(n.name != d.normal[0].name for n in diagnosis("Every few epochs the loss jumps up.\n" + steady).normal)


# ---- review_session28_reading and _weighing: what the new readings must not read ---------------------------------

@pytest.mark.parametrize("text, count, last", [
    # the cost NumPy prints unsqueezed: the array's number, never a digit of the iteration count (`[nan]` was 0)
    ("".join(f"Cost after iteration {i}: [[{v}]]\n" for i, v in ((0, 0.693), (100, 0.61), (200, "nan"))), 3, "nan"),
    # val_cost, val_mse, rmse, test_nll are not the training cost
    ("".join(f"epoch {e} cost: {c} val_cost: {c + 0.3}\n" for e, c in enumerate((0.64, 0.41, 0.29))), 3, 0.29),
    ("".join(f"epoch {e} train_mse={c} val_mse={c * 3}\n" for e, c in enumerate((0.23, 0.12, 0.08))), 3, 0.08),
    ("".join(f"step {e} mse {c} rmse {c ** 0.5:.4f}\n" for e, c in enumerate((0.82, 0.41, 0.26))), 3, 0.26),
])
def test_the_new_keys_read_the_training_value_only(text, count, last):
    ev = scan(io.BytesIO(text.encode()), "report", message_finder(CATALOG))
    if last == "nan":
        assert ev.count == count and ev.head[:2] == [0.693, 0.61] and str(ev.first_nonfinite_at) == "iteration 200"
    else:
        assert ev.count == count and ev.last == last


def test_prose_and_arguments_are_no_cost_and_no_j():
    assert scan(io.BytesIO(b"Every attempt cost 40 GPU hours before it blew up.\n"), "r").count == 0
    assert scan(io.BytesIO(b"Namespace(J=2, L=8, batch_size=64)\nRuntimeError: CUDA out of memory.\n"), "r").count == 0


def test_a_total_is_the_loss_only_with_decimals_and_only_without_a_loss_key():
    """A loss printed in parts is read from its total; a counter named total in pasted code is not a loss, and a log
    that prints a plain loss keeps it."""
    parts = "".join(f"step {s} | total {t} | mel {t / 4:.4f} | dur {t / 3:.4f}\n" for s, t in ((0, 4.3817), (10, 3.1204),
                                                                                            (20, 8.9461)))
    ev = scan(io.BytesIO(parts.encode()), "r", message_finder(CATALOG))
    assert ev.count == 3 and ev.head[:3] == [4.3817, 3.1204, 8.9461] and str(ev.last_at) == "step 20"
    code = b"    total = 0\n    for x, y in loader:\n        total += criterion(model(x), y)\n    return total / len(loader)\n"
    assert scan(io.BytesIO(code), "r").count == 0
    both = "".join(f"step {s} total {t} loss {t / 2}\n" for s, t in ((0, 4.5), (1, 3.5), (2, 2.5)))
    assert scan(io.BytesIO(both.encode()), "r").head[:3] == [2.25, 1.75, 1.25]


def test_a_warning_python_has_no_source_for_echoes_nothing():
    """`<stdin>` has no source line to echo: the indented line after its warning is the program's (it lost the first
    nan, epoch 41)."""
    text = ("  epoch  40  loss 0.2931\n<stdin>:23: RuntimeWarning: invalid value encountered in divide\n"
            "  epoch  41  loss nan\n  epoch  42  loss nan\n")
    ev = scan(io.BytesIO(text.encode()), "report", message_finder(CATALOG))
    assert str(ev.first_nonfinite_at) == "epoch 41"


def test_tqdms_count_with_no_total_is_no_it_step():
    text = "".join(f"{k}it [01:{k // 50:02d}, 49.87it/s, loss={v}]\n" for k, v in ((2500, 2.27), (3000, 2.25),
                                                                                   (3500, "nan")))
    ev = scan(io.BytesIO(text.encode()), "report", message_finder(CATALOG))
    assert ev.count == 3 and ev.first_nonfinite == 2
    assert ev.at(0).step is None and ev.first_nonfinite_at.step is None        # it read `it [01` as "it 1"


@pytest.mark.parametrize("text", [
    "Test accuracy after each epoch (print(epoch, acc)):\n" + "".join(f"{e} 0.{89 + e}\n" for e in range(5)),
    "Seconds per epoch, print(epoch, time.time() - t0):\n" + "".join(f"{e} {41.27 + e:.2f}\n" for e in range(5)),
    "df.label.value_counts()\n" + "".join(f"{k}     {13861 - 100 * k}\n" for k in range(1, 6)),
])
def test_a_count_and_a_value_that_are_not_the_loss_are_not_read(text):
    assert scan(io.BytesIO(text.encode()), "report", message_finder(CATALOG)).count == 0


def test_a_warning_after_a_run_that_learned_stops_nothing_and_one_beside_a_flat_loss_may():
    """A FutureWarning printed after a healthy run made it "not covered" and "an error that no entry declares"
    (review_session28_weighing items 1, 2); beside a loss that did not move, a warning may be the failure."""
    fell = "".join(f"epoch {e} loss {1.9 * 0.85 ** e:.4f}\n" for e in range(12))
    warning = "/usr/lib/python3/site-packages/torch/serialization.py:1189: FutureWarning: You are using `torch.load` " \
              "with `weights_only=False`.\n"
    d = diagnosis(fell + warning)
    assert d.verdict == "healthy" and any("weights_only" in u for u in d.unweighed)
    assert not any("every entry is about one of those" in u for u in d.unweighed)
    flat = "".join(f"epoch {e} loss {1.93 + 0.001 * (e % 2):.4f}\n" for e in range(6))
    assert diagnosis(flat + "train.py:6: UserWarning: None of the inputs have requires_grad=True. Gradients will be "
                     "None\n").verdict == "unexplained"


def test_a_nan_that_evaluate_printed_after_training_is_said_beside_the_verdict():
    """The evaluate() bar is left out of the training loss; a nan in it is said, as a validation nan is (it was
    dropped, and "Checked: non-finite loss values" printed beside it: review_session28_weighing item 3)."""
    fit = "".join(f"Epoch {e + 1}/6\n625/625 [==============================] - 2s 3ms/step - loss: {v}\n"
                  for e, v in enumerate(["0.5521", "0.41", "0.33", "0.29", "0.27", "0.2557"]))
    d = diagnosis(fit + "79/79 [==============================] - 0s 2ms/step - loss: nan\n")
    assert d.evidence.last == 0.2557 and d.verdict == "healthy"
    assert d.validation.startswith("the loss evaluate() printed after training was nan at line 13")


def test_a_question_whether_a_reported_divergence_is_normal_still_reports_it():
    """"Is it normal that the loss starts diverging after epoch 5?" states the divergence (review_session28_weighing
    item 14); "is my model diverging?" asks."""
    steps = ("Gradient overflow.  Skipping step, loss scaler 0 reducing loss scale to 32768.0\n"
             + "".join(f"epoch {e} loss {2.3 * 0.9 ** e:.4f}\n" for e in range(4)))
    assert diagnosis("Is it normal that the loss starts diverging after epoch 5 with fp16?\n" + steps).verdict != "normal"
    assert diagnosis("I get these overflow messages at the start, is my model diverging?\n" + steps).verdict == "normal"


def test_the_deciding_question_does_not_ask_for_a_message_the_paste_holds():
    """"Paste the warnings ... (WR-020 prints `overflow encountered in exp`)" beside that very warning (review_session28
    numpy item 19)."""
    text = ("".join(f"iteration {1000 * i}: loss {v}\n" for i, v in enumerate(["1.09", "0.61", "0.42", "0.35"]))
            + "/home/s/spiral.py:14: RuntimeWarning: overflow encountered in exp\n  e = np.exp(z)\n"
            + "iteration 5000: loss nan\niteration 6000: loss nan\n")
    d = diagnosis(text)
    assert d.verdict == "uncertain" and "`overflow encountered in exp`" not in d.ask


def test_cannot_tell_with_one_candidate_does_not_say_the_evidence_fits_more_than_one():
    """(review_session28_last: the header listed "more than one entry" above a single candidate.)"""
    d = diagnosis("".join(f"epoch {e} loss {v}\n" for e, v in enumerate(["0.65", "0.40", "0.34", "0.50", "0.92",
                                                                          "1.88", "4.22", "11.7", "35.1", "nan"])))
    shown = diagnose_report.report(d)
    if d.verdict == "uncertain" and len(d.matches) == 1:
        assert "One entry fits, but the evidence is too thin to name it:" in shown
    one = dataclasses.replace(d, verdict="uncertain", matches=d.matches[:1], ask="the loss values")
    assert "more than one entry" not in diagnose_report.report(one)
    assert "One entry fits, but the evidence is too thin to name it:" in diagnose_report.report(one)


def test_a_message_printed_only_when_asked_for_is_not_missed_by_its_absence():
    """clip_grad_norm_ raises on a non-finite norm only with error_if_nonfinite=True (catalogue: opt_in): a PyTorch
    paste without it held "none of the messages this failure prints are in the log" against WR-220 (a climb to nan,
    `loss.backward()` in the code). The page says when it is printed."""
    from trainwreck.pages import message_headings

    clip = next(m for m in CATALOG.entries["WR-220"].messages if m.text.startswith("The total norm"))
    assert clip.opt_in == "clip_grad_norm_(..., error_if_nonfinite=True)"
    assert any("printed only with: `clip_grad_norm_(..., error_if_nonfinite=True)`" in line
               for line in message_headings(CATALOG.entries["WR-220"]))
    d = diagnosis("for x, y in loader:\n    optimizer.zero_grad()\n    loss = crit(model(x), y)\n    loss.backward()\n"
                  "    optimizer.step()\n"
                  + "".join(f"epoch {e} loss {v}\n" for e, v in enumerate(["0.5", "0.9", "3.1", "40.2", "nan"], 1)))
    assert d.matches[0].entry.id == "WR-220" and d.matches[0].against == []


def test_a_validation_loss_that_rises_while_training_falls_is_answered_as_overfitting():
    """"val_loss starts increasing after epoch 6 while training loss keeps going down" got "no known failure" and
    nothing about the question (review_session29_broad item 30): it is overfitting, said with its remedies, not a
    failure of this catalogue; a validation loss that rises and then turns nan is still a nan."""
    epochs = "".join(f"Epoch {e}/25\n75/75 [====] - 17s 226ms/step - loss: {t} - accuracy: 0.9 - val_loss: {v}\n"
                     for e, (t, v) in enumerate([("1.0412", "0.7720"), ("0.6118", "0.5531"), ("0.4207", "0.4712"),
                                                 ("0.2981", "0.4385"), ("0.2104", "0.4211"), ("0.1457", "0.4190"),
                                                 ("0.0988", "0.4402"), ("0.0672", "0.4781"), ("0.0453", "0.5236"),
                                                 ("0.0311", "0.5802"), ("0.0214", "0.6410")], 1))
    d = diagnosis("val_loss starts increasing after epoch 6 while training loss keeps going down.\n" + epochs)
    assert d.verdict == "normal" and d.normal[0].name.startswith("overfitting")
    assert "EarlyStopping(restore_best_weights=True)" in d.normal[0].explanation
    nan = diagnosis("My validation loss keeps increasing and then the loss becomes nan.\n" + epochs.replace(
        "loss: 0.0214", "loss: nan"))
    assert nan.verdict != "normal"
    # in words alone, "crept up", "bottomed at", and a validation accuracy below the training one (review_session36_blind
    # q09: WR-310 was put first)
    words = ("Is my model broken? val accuracy way lower than train. After 30 epochs: train acc 0.994, train loss "
             "0.021, val acc 0.884, val loss 0.41. Val loss bottomed at 0.33 around epoch 12 and has crept up slowly "
             "since. No nans.\n")
    d = diagnosis(words)
    assert d.verdict == "normal" and d.normal[0].name.startswith("overfitting")
    assert any(n.name.startswith("a gap") for n in d.normal)
    from trainwreck.normals import normals_asked
    for other in ("with the default Adam() it gets 87% val accuracy. Why would a bigger lr be worse?",
                  "at epoch 14 train loss and val acc got much worse, and two epochs later it's back (better than before)"):
        assert not any(n.name.startswith("a gap") for n in normals_asked(other)), other


def test_a_declared_message_quoted_without_its_full_stop_is_still_that_message():
    """review_session30_broad c20, p38: a title quoting `Target 10 is out of bounds` (PyTorch writes a full stop
    after it) was "not declared by any entry" beside the traceback's own line, which WR-320 declares."""
    text = "IndexError: Target 10 is out of bounds\n\nTraceback...\nIndexError: Target 10 is out of bounds.\n"
    d = diagnosis(text)
    assert d.matches[0].entry.id == "WR-320"
    assert not any("not declared" in u for u in d.unweighed)
    assert any('"Target 10 is out of bounds" (line 1, 2 times)' in e for e in d.matches[0].evidence)


def test_anomaly_modes_warning_of_where_the_op_was_made_is_read_not_left_unweighed():
    """review_session30_broad c07: "Error detected in PowBackward0. Traceback of forward call that caused the error:"
    (python_anomaly_mode.cpp's _format_stack, warned before the error) was "not declared by any entry"."""
    text = ("/usr/lib/python3/site-packages/torch/autograd/graph.py:825: UserWarning: Error detected in PowBackward0. "
            "Traceback of forward call that caused the error:\n  File \"train.py\", line 31, in <module>\n"
            "RuntimeError: Function 'PowBackward0' returned nan values in its 0th output.\n")
    d = diagnosis(text)
    assert not any("Error detected in" in u for u in d.unweighed)
    assert any("says where the backward operation that failed was made" in note for _c, note in d.read)


def test_a_message_written_as_the_string_a_call_raises_is_the_code_not_the_message():
    """A traceback echoes the source line that raised (`raise ValueError(f"Expected more than 1 value ...{size}")`)
    above the error itself: that line is code, and the message is quoted from the line that printed it, once
    (review_session41 i06 had quoted the f-string's `{size}")` as the value, "2 times")."""
    text = ('  File "/venv/lib/python3.11/site-packages/torch/nn/functional.py", line 2776, in _verify_batch_size\n'
            '    raise ValueError(f"Expected more than 1 value per channel when training, got input size {size}")\n'
            "ValueError: Expected more than 1 value per channel when training, got input size torch.Size([1, 256])\n")
    evidence = [e for e in diagnosis(text).matches[0].evidence if e.startswith("message")]
    assert evidence == ['message "Expected more than 1 value per channel when training, got input size '
                        'torch.Size([1, 256])" (line 3)']
    # ... and PyTorch 2.5's, whose raise spans three lines, the f-string on its own (Python 3.13 shows all three)
    split = text.replace('    raise ValueError(f"Expected more than 1 value per channel when training, got input size {size}")\n',
                         '    raise ValueError(\n        f"Expected more than 1 value per channel when training, got input size '
                         '{size}"\n    )\n')
    assert [e for e in diagnosis(split).matches[0].evidence if e.startswith("message")] == [
        'message "Expected more than 1 value per channel when training, got input size torch.Size([1, 256])" (line 5)']
    # code pasted on its own, a warn() or a print() of a message, is no message printed either
    code = 'warnings.warn("overflow encountered in exp")\nprint(\'loss is nan\')\n'
    assert scan(io.BytesIO(code.encode()), "c", message_finder(CATALOG)).messages == {}
    # ... while the message quoted in a sentence is the person's report of what was printed
    said = 'I keep getting "Expected more than 1 value per channel when training, got input size torch.Size([1, 8])"\n'
    assert scan(io.BytesIO(said.encode()), "s", message_finder(CATALOG)).messages != {}


def test_a_csv_numbered_by_epoch_and_step_is_quoted_by_both_and_a_rate_that_broke_at_the_same_place_is_read():
    """Lightning's metrics.csv numbers each row by epoch and step: the evidence quotes both, as the log does, not
    "epoch 0" for every row of the epoch (review_session41 i36). And "re-running with lr 1e-3 instead of 3e-3: the jump
    is in exactly the same place" is a lower rate that broke at the same place: the rate named, then what it replaced,
    then what it did."""
    from trainwreck.rate_tried import lr_tried, lr_tried_same_place

    rows = [(0, 49, "0.6712"), (0, 99, "0.5934"), (0, 149, "0.5121"), (0, 199, "0.4488"), (0, 249, "0.4102"),
            (0, 299, "0.3826"), (0, 349, "0.3618"), (0, 399, "0.3497"), (0, 449, "0.3380"), (0, 499, "0.3291"),
            (0, 549, "0.3244"), (0, 599, "0.3187"), (0, 649, "0.3139"), (0, 699, "0.3102"), (0, 749, "2.4471"),
            (0, 799, "2.1836"), (0, 849, "1.9920"), (1, 949, "1.8818"), (1, 999, "2.2304"), (1, 1049, "1.7152")]
    said = ("Tried re-running with lr 1e-3 instead of 3e-3: the jump is in exactly the same place (a bit smaller, to "
            "~1.6). Same seed both times. No nan anywhere.\n\n")
    text = said + "epoch,step,train_loss,val_loss\n" + "".join(f"{e},{s},{v},\n" for e, s, v in rows)
    d = diagnosis(text)
    assert d.matches[0].entry.id == "WR-310"
    assert "jumped in one step from 0.3102 (epoch 0, step 699) to 2.447 (epoch 0, step 749)" in d.matches[0].evidence[0]
    assert lr_tried(said) == "failed" and lr_tried_same_place(said)
    # (a CSV numbered by its epoch alone is quoted by it)
    alone = "epoch,train_loss\n" + "".join(f"{i},{v}\n" for i, (_, _, v) in enumerate(rows))
    assert "(epoch 13) to 2.447 (epoch 14)" in diagnosis(alone).matches[0].evidence[0]


def test_a_table_of_step_losses_above_a_run_summary_is_the_curve():
    """(review_session41b i31) A `step   loss` table copied from W&B above its `wandb: Run summary:` lines: the table's
    rows are the curve; the summary's `train/loss 2.64119`, one value of it, had been read alone ("one loss value")."""
    rows = [(0, "1.1207"), (100, "0.4410"), (200, "0.3307"), (300, "0.2981"), (400, "0.2850"), (412, "0.2791"),
            (413, "41832.6172"), (414, "18.7402"), (420, "9.3310"), (600, "3.9870"), (2000, "2.6950"), (4000, "2.6304")]
    text = ("train/loss per step with smoothing 0:\n\nstep   loss\n" + "".join(f"{s:<6} {v}\n" for s, v in rows)
            + "\nwandb: Run summary:\nwandb:     epoch 19\nwandb:  train/loss 2.64119\nwandb:    val/loss 2.88134\n")
    d = diagnosis(text)
    assert d.evidence.count == len(rows) and d.evidence.head[6] == 41832.6172
    assert "WR-310" in [m.entry.id for m in d.matches[:3]]
    assert "jumped in one step from 0.2791 (step 412) to 4.183e+04 (step 413)" in d.matches[0].evidence[0]
    # (a summary alone is still read as its one value)
    assert diagnosis(text.split("\n\n", 2)[2]).evidence.count == 1


@pytest.mark.parametrize("op", ["PowBackward0", "DivBackward0"])
def test_an_op_the_entrys_page_shows_counts_twice_for_it_but_rules_no_other_out(op):
    """WR-050's page shows anomaly mode stopping in PowBackward0 (the hinge's -inf slope) and DivBackward0 (the
    where-guarded 0/0) besides its example's SqrtBackward0 (`also:`): a lone such message counts twice for it, as its
    own; but a nan already in the forward pass (a parameter never initialised, used as a divisor) stops there too, so
    the verdict stays open, where SqrtBackward0 names it."""
    d = diagnosis(f"RuntimeError: Function '{op}' returned nan values in its 0th output.\n")
    assert d.verdict == "uncertain"
    (mine,) = [m for m in d.matches[:2] if m.entry.id == "WR-050"]
    others = [m for m in d.matches if m.entry.id != "WR-050" and "messages" in m.parts]
    assert others and all(mine.parts["messages"] == pytest.approx(2 * m.parts["messages"], abs=0.002) for m in others)
    assert any(e.endswith(f"making the nan in {op[:-1]}, so it counts twice here") for e in mine.evidence)
    sqrt = diagnosis("RuntimeError: Function 'SqrtBackward0' returned nan values in its 0th output.\n")
    assert sqrt.verdict == "failure" and sqrt.matches[0].entry.id == "WR-050"
    assert not any("counts twice" in e for e in sqrt.matches[0].evidence)


def test_a_count_of_epochs_after_up_to_is_no_loss_value_and_a_nan_denied_in_another_language_is_none():
    """"0.4127 at every epoch up to 300": 300 is the epochs' count, not a loss of 300 (a jump of x727 that was
    never printed); "ni nan", "sin nan", "kein nan", "没有nan" deny the nan as "no nan" does."""
    said = "The loss went 0.69, 0.52, then jumped to 1.7, then it was 0.4127 at every epoch up to 300. No errors.\n"
    d = diagnosis(said)
    assert d.evidence.count == 4 and d.evidence.last == 0.4127
    for denied in ("no hay ningún error ni nan", "ningún nan", "sin nan", "kein nan", "без nan", "нет nan", "没有nan",
                   "nor nan"):
        text = f"La loss baja de 1.9 a 0.7 y luego 0.21, {denied}.\n"
        assert diagnosis(text).evidence.first_nonfinite is None, denied
    assert diagnosis("La loss baja de 1.9 a 0.7 y luego 0.21, y luego nan.\n").evidence.first_nonfinite == 3
    # (code_review_s43 M1: a word of another language a few words before the nan denies nothing, nor English's sin or
    # SEM; and a climb "up to" its values is no count)
    for said in ("dann ohne Vorwarnung nan", "sem aviso nan", "then the sin output is nan", "on my SEM images then nan"):
        assert diagnosis(f"The loss went 1.9, 0.7, 0.21, {said}.\n").evidence.first_nonfinite == 3, said
    assert diagnosis("The loss climbs up to 45, then up to 3000, then nan.\n").evidence.head[:2] == [45.0, 3000.0]
    from trainwreck.sentences import said_unnegated
    assert not said_unnegated("no hay ningun error ni nan", {"nan"}) and said_unnegated("y luego nan", {"nan"})


def test_a_loss_named_for_an_overlap_score_is_no_score():
    """Darknet prints `iou_loss = 1.239811` (a CIoU loss reaches 2 and more); a Dice loss is 1 minus the score: neither
    is an overlap score outside [0, 1], which the labels entry takes as targets out of range. `IoU: 1.3` still is."""
    from trainwreck.run_said import SCORE
    assert not SCORE.search("class_loss = 0.413207, iou_loss = 1.239811, total_loss = 1.653018")
    assert not SCORE.search("dice_coef_loss: 1.07") and not SCORE.search("dice loss 1.2")
    assert SCORE.search("mean IoU: 1.3") and SCORE.search("dice score 1.2")


def test_words_that_the_run_stopped_learning_beside_a_flat_tail_are_more_than_a_large_start():
    """A large first loss is normal when it falls; "and then it's 2.3013 every epoch, it doesn't learn at all" beside
    printed values that stopped (the last three equal to within 1%) reports a run that never learned: no normal answer.
    "won't go down for a few iterations" beside one value is the large start itself."""
    lines = ["Epoch 1/10 - loss: 31.8820 - accuracy: 0.0987", "Epoch 2/10 - loss: 2.3026 - accuracy: 0.0991",
             "Epoch 3/10 - loss: 2.3026 - accuracy: 0.0991", "Epoch 4/10 - loss: 2.3025 - accuracy: 0.0991"]
    log = "\n".join(lines) + "\n"
    said = "The first epoch loss is huge, and then it stays at 2.3026: the model doesn't learn at all.\n"
    # (four values are too few to judge the plateau: no normal answer, and a request for more values)
    assert diagnosis(said + log).verdict == "no-evidence"
    from trainwreck.diagnose import _stopped_learning
    asked = "The first epoch loss is huge, is that normal?\n"
    assert _stopped_learning(diagnosis(said + log)) and not _stopped_learning(diagnosis(asked + log))
    one = "The first loss is huge and won't go down for a few iterations.\n 9: 495.896484, 496.732147 avg loss\n"
    assert diagnosis(one).verdict == "normal"


def test_a_whole_number_one_word_before_its_unit_is_a_count():
    """"for the first ~200 optimizer steps (0.69 -> 0.21)": 200 counts steps, and is no first loss of 200."""
    d = diagnosis("The loss fell for the first ~200 optimizer steps, 0.69, 0.45, 0.21, then 0.35, 0.9, 2.7 and nan.\n")
    assert d.evidence.head[0] == 0.69 and 200.0 not in d.evidence.head


# ---- twenty-second session ---------------------------------------------------------------------------------------

STOPPED_IN_EPOCH_ONE = """Training dies in the first epoch
Epoch 1/20
 903/1800 [=============>...............] - ETA: 4s - loss: 0.0410Batch 903: Invalid loss, terminating training
1800/1800 [==============================] - 4s 2ms/step - loss: nan
"""


def test_terminate_on_nans_line_glued_to_a_pasted_bar_leaves_its_loss_and_the_run_had_trained():
    """A paste copied from the terminal has no carriage returns left, but TerminateOnNaN's line is still glued to the
    bar's last update (`loss: 0.0410Batch 903: ...`): the update's loss is read, and the nan that closes the epoch's
    bar came after 903 finite batches -- "in the first epoch" is not from the first values."""
    d = diagnosis(STOPPED_IN_EPOCH_ONE)
    assert d.evidence.head[:1] == [0.041] and d.evidence.first_nonfinite == 1
    assert str(d.evidence.at(0)) == "epoch 1/20 [903/1800]"
    timing = [e for m in d.matches for e in m.evidence if e.startswith("it showed")]
    assert timing and all(e.startswith("it showed after training for a while") for e in timing)


def test_words_that_the_loss_fell_and_then_broke_make_the_jump_the_first_suspect_not_the_climb():
    """"Decreased steadily for 8 epochs and then it became nan" tells the shape: a fall, then the break. The rate
    breaks a run by a climb; the failures that jump to nan after a descent (a bad batch, a log of zero, a nan
    gradient) are the first suspects on timing alone, the rate the second. Not where the fall is what a changed run
    did ("if I remove the augmentation it trains fine")."""
    d = diagnosis("Loss decreased steadily for 8 epochs and then in epoch 9 it became nan.\n")
    assert d.verdict == "uncertain" and d.matches[0].entry.trace == "descent-then-nonfinite"
    first = [m for m in d.matches if "prior" in m.parts]
    rate = next(m for m in first if m.entry.id == "WR-220")
    jump = next(m for m in first if m.entry.trace == "descent-then-nonfinite")
    assert jump.parts["prior"] == pytest.approx(2 * rate.parts["prior"], abs=0.002)   # (parts are rounded to 3 places)
    assert any("the first suspect for a loss that fell and then turned nan" in e for e in jump.evidence)
    from trainwreck.thesaurus import tokens
    from trainwreck.run_said import fell_then_broke
    changed = "The loss turns nan after a few epochs. If I remove the augmentation it trains fine."
    assert not fell_then_broke(changed, tokens(changed))
    # (code_review_s45 M1: a changed run, another quantity's fall, a blow-up)
    for said in ("I decreased the batch size to 8 and now after 3 epochs the loss becomes nan.",
                 "When I remove the augmentation it trains fine. The loss is nan after 3 epochs.",
                 "With lr 1e-4 it trains fine, with 1e-3 nan after 2 epochs.",
                 "The accuracy goes down and after 5 epochs the loss is nan.",
                 "The loss goes down for 5 epochs, then explodes to 1e8 and becomes nan."):
        assert not fell_then_broke(said, tokens(said)), said
    kept = "Not sure if this is relevant, but the loss decreased nicely for 10 epochs, then it became nan."
    assert fell_then_broke(kept, tokens(kept))
    # (code_review_s45b M2: "after warmup", "at first", "with Adam" are this run; "in fp32 it trains fine" another)
    for said in ("After warmup the loss goes down nicely, then at step 4000 it is nan.",
                 "At first the loss decreases as expected, but at epoch 7 it becomes nan.",
                 "Training with lr 1e-3: the loss goes down for 3 epochs, then nan."):
        assert fell_then_broke(said, tokens(said)), said
    for said in ("In fp32 it trains fine, in fp16 the loss is nan.", "The loss goes down and then spikes to 1e6 and nan."):
        assert not fell_then_broke(said, tokens(said)), said
    assert diagnosis(changed + "\n").matches[0].entry.id == "WR-220"


def test_code_the_reporter_wrote_is_hand_written():
    """"My own implementation of the cross entropy", "I implemented the CRF layer myself", "a custom loss" meet the
    catalogue's "hand-written" (WR-030's title, WR-020's softmax written by hand); "trained from scratch" does not,
    and a focal loss is a cross-entropy."""
    from trainwreck.thesaurus import tokens
    assert tokens("my own implementation of the cross entropy")[0] == "handwritten"
    assert tokens("I implemented the CRF layer myself") == ["handwritten", "crf", "layer"]
    # (code_review_s45b M5: a data loader written by oneself is no loss; a focal loss with its gamma in brackets is)
    assert "handwritten" not in tokens("I wrote the data loader myself")
    assert "cross" in tokens("a focal loss (gamma = 2) that I wrote")
    assert tokens("a custom loss function") == ["handwritten", "loss", "function"]
    assert tokens("a hand-written softmax") == tokens("a softmax written by hand")[::-1] == ["handwritten", "softmax"]
    assert "handwritten" not in tokens("the model is trained from scratch")
    assert tokens("focal loss") == ["focal", "cross", "entropy", "loss"]
    # (code_review_s45 M5: MNIST's handwritten digits, a library's focal loss, a custom lossless codec, a dataset's loss)
    assert "handwritten" not in tokens("a CNN on the MNIST handwritten digits")
    assert "cross" not in tokens("focal loss (torchvision sigmoid_focal_loss)")
    assert "handwritten" not in tokens("custom lossless compression") + tokens("my own dataset loss curve")
    d = diagnosis("I wrote my own implementation of the cross entropy and the loss turns nan after a few epochs.\n")
    assert d.matches[0].entry.id == "WR-030"


def test_a_jump_the_loss_never_comes_back_from_is_a_failure():
    """"Jumps to 900 at step 3000 and never goes back down", "never recovers": something went wrong, though no nan
    and no value the scan reads say so -- not 'nothing found'."""
    from trainwreck.run_said import says_failure
    for said in ("the loss jumps to 900 at step 3000 and never goes back down", "it spikes and never recovers",
                 "the loss doesn't come back down after the jump"):
        assert says_failure(said), said
    assert not says_failure("the loss goes back down after the spike")
    # (code_review_s45 M3: a loss that stayed low, and no loss at all)
    for calm in ("after the warmup spike the loss comes down quickly and does not go back up",
                 "the loss never goes back to the initial value", "I did not get back to this project for a month",
                 "I didn't go back to the old learning rate"):
        assert not says_failure(calm), calm
    # (code_review_s45b H4: a bare "never comes back" is the jump it never came back from)
    for said in ("the loss jumps to 900 and never comes back", "it jumped to 7.5 and never came back",
                 "the loss never gets back down"):
        assert says_failure(said), said
    d = diagnosis("The loss jumps to 900 at step 3000 and never goes back down, at the same step in every run.\n")
    assert d.verdict == "uncertain" and d.matches[0].entry.id == "WR-310"


def test_a_range_given_roughly_is_not_two_values_in_turn():
    """"A normal loss around 8-15" is where the loss sits, not 8 and then 15 (a climb of x1.9 nobody printed)."""
    d = diagnosis("Most batches give a loss around 8-15, but some batches give inf and after that everything is nan.\n")
    assert d.evidence.count == 0
    assert diagnosis("The loss went 8-15-40 and then nan.\n").evidence.head[:3] == [8.0, 15.0, 40.0]
    # (code_review_s45 H1: a fall "from about 2.3 to 0.4" is two values in turn, not a range)
    fell = diagnosis("The loss drops from about 2.3 to 0.4 over 10 epochs and then becomes nan.\n").evidence.head
    assert fell[:2] == [2.3, 0.4] and math.isnan(fell[2])
    # (code_review_s45b M6: "from around 8-15 to nan" starts at a range, not at a climb from 8 to 15)
    assert diagnosis("The loss went from around 8-15 to nan after a few hundred steps.\n").signature.name \
        != "climb-then-nonfinite"
    assert diagnosis("Training loss went from around 2.30 to 0.05, then suddenly nan at epoch 12.\n").evidence.head[:2] \
        == [2.3, 0.05]


def test_a_forward_algorithm_written_over_exp_is_wr020s():
    """WR-020's page says where a sum over paths of exponentials overflows with the sequence's length (a CRF's or an
    HMM's forward algorithm written by hand), and a report of an inf only on the longest sequences meets it."""
    assert "forward algorithm of a CRF or an HMM" in " ".join(CATALOG.entries["WR-020"].sections["Where it shows up"].split())
    d = diagnosis("I wrote the CRF's partition function myself for my POS tagger. Short sentences train fine, but a "
                  "batch with a 150-token sentence gives an inf loss, and then everything is nan.\n")
    assert d.matches[0].entry.id == "WR-020"
    # (code_review_s45 L1: CTC's inf is an impossible alignment, no overflow: not covered, said with why)
    ctc = diagnosis("Speech recognizer with nn.CTCLoss: the loss is inf only on the batches with the longest "
                    "transcripts.\n")
    assert ctc.verdict == "unexplained" and not ctc.matches
    assert any("no alignment exists" in u and "zero_infinity=True" in u for u in ctc.unweighed)
    # (code_review_s45b H1: not with zero_infinity on, nor for a gradient's or half precision's inf)
    for other in ("ASR with nn.CTCLoss(blank=0, zero_infinity=True). The loss decreases for 3 epochs and then becomes nan.\n",
                  "ASR model with CTC loss, fp16 autocast. After 5 epochs the gradients are inf and the loss becomes nan.\n",
                  "Speech model with CTC loss. Before the loss goes nan, the gradient norm grows to inf at step 3000.\n"):
        assert not any("no alignment exists" in u for u in diagnosis(other).unweighed), other


def test_a_fall_from_an_enormous_start_beside_an_accuracy_at_chance_is_too_faint_a_shape_to_name_by():
    """A 10-class classifier's first loss of 4e9, then values that halve and wobble and turn nan, beside an accuracy
    that never leaves chance: the fall was no learning, so the shape it makes ("fell, then jumped to nan") is read
    weakly, and the enormous start -- with the failure there at a learning rate of 0 -- comes first."""
    rows = [(0, "4.0127e+09", 0.101), (100, "1.2231e+09", 0.098), (200, "1.9302e+09", 0.102),
            (300, "7.4410e+08", 0.099), (400, "9.1062e+08", 0.100), (500, "nan", 0.100), (600, "nan", 0.100)]
    log = "".join(f"step {s:5d} | loss {v} | acc {a:.3f}\n" for s, v, a in rows)
    said = "A 6-layer ReLU MLP on 10 classes. The first loss is in the billions, even with learning rate 0.\n"
    d = diagnosis(said + log)
    assert d.signature.name == "descent-then-nonfinite" and d.signature.weak
    assert d.signature.enormous_start.endswith("so the fall that followed was no learning")
    assert [m.entry.id for m in d.matches[:2]] == ["WR-120", "WR-310"]
    assert d.matches[1].parts["curve"] == pytest.approx(1.5 / 3 ** 0.5, abs=0.002)   # W_PART, shared by three
    # (the same shape from a start that is not enormous keeps its full weight)
    low = "".join(f"step {s:5d} | loss {v} | acc {a:.3f}\n" for s, v, a in
                  [(0, "2.3021", 0.101), (100, "1.9120", 0.31), (200, "1.6110", 0.42), (300, "1.4023", 0.49),
                   (400, "1.3011", 0.52), (500, "nan", 0.100), (600, "nan", 0.100)])
    assert not diagnosis(said.split(".")[0] + ".\n" + low).signature.weak


def test_images_stacked_straight_from_imread_with_no_division_are_raw_pixels():
    """`X = np.stack([cv2.imread(p, 0).flatten() for p in paths]).astype(np.float32)`, divided nowhere: raw 8-bit
    pixels reach the first layer; with `X /= 255.` they do not."""
    code = ("    X = np.stack([cv2.imread(p, cv2.IMREAD_GRAYSCALE).flatten() for p in paths]).astype(np.float32)\n"
            "    W1 = np.random.randn(4096, 64) * 0.01\n")
    said = ("NumPy MLP on 4 kinds of flowers: the loss goes 1.52, 1.41, 1.39 and then doesn't move at all for 100 "
            "epochs, and the accuracy is stuck at 25%.\n")
    d = diagnosis(said + code)
    assert d.matches[0].entry.id == "WR-330"
    assert any(e.startswith("the paste reads images with cv2.imread (8-bit pixels, 0 to 255) and builds its inputs "
                            "from them with no division by 255 (`X = np.stack([cv2.imread(") for e in d.matches[0].evidence)
    scaled = diagnosis(said + code + "    X /= 255.\n")
    assert not any("no division by 255" in e for m in scaled.matches for e in m.evidence)
    # (code_review_s45 M2: a division at the end of the stack's own line; masks, which hold classes)
    from trainwreck.data_values import image_tensor_unscaled
    assert not image_tensor_unscaled("X = np.stack([cv2.imread(p, cv2.IMREAD_GRAYSCALE).flatten() for p in "
                                     "sorted(train_paths)]).astype(np.float32) / 255.0\n")
    assert not image_tensor_unscaled("masks = np.stack([np.array(Image.open(p)) for p in mask_paths])\n")


def test_a_keras_normalization_adapted_on_merged_tables_that_is_nan_before_training_is_a_nan_in_the_data():
    """Keras's Normalization divides by the larger of the standard deviation and 1e-7 (WR-060's page), so a run nan from
    its first step behind `norm.adapt(...)` has a nan in the data it adapted on -- WR-310's Keras face, and tables
    merged with pandas are where such a nan comes from; an output said nan before any training is no target's doing."""
    said = ("Forecasting hourly demand with a small Keras MLP. I joined the meter table and the holiday table in "
            "pandas, took the 17 numeric columns, and used norm = keras.layers.Normalization(); "
            "norm.adapt(X_train.to_numpy()) as the first layer. The loss is nan from the very first batch, and "
            "model.predict(X_train[:3]) before training already returns nan.\n")
    d = diagnosis(said)
    assert d.matches[0].entry.id == "WR-310"
    parts = {m.entry.id: m.parts for m in d.matches}
    assert parts["WR-310"]["adapted-nan"] > 0 and parts["WR-310"]["frames-merged"] > 0
    from trainwreck.run_said import untrained_output_nonfinite
    assert untrained_output_nonfinite(said) == "predict(X_train[:3]) before training already returns nan"
    assert not untrained_output_nonfinite("Before training the outputs are not nan, after one step they are nan.")
    # (code_review_s45 H3: a nan after training started is no untrained output's)
    for later in ("Before the first epoch finishes, the outputs turn nan.",
                  "Before fitting I standardize the data, and the model outputs become nan after epoch 2.",
                  "Predictions before training are fine but later nan.",
                  "The outputs before the first update are finite, and after it they are inf."):
        assert not untrained_output_nonfinite(later), later
    assert untrained_output_nonfinite("Before training, model.predict returns nan.")
    # (code_review_s45b M3: still nan after it, or even after standardising, is still nan before it)
    assert untrained_output_nonfinite("Before training the predictions are all nan, then after the first epoch still nan.")
    assert untrained_output_nonfinite("Before training, predict gives nan even after I standardize the inputs.")
    # (each fact from its own words: without the join, no merge; without the layer, no adapted statistics)
    def parts_of(text):
        return {k for m in diagnosis(text).matches for k in m.parts}
    no_join = said.replace("I joined the meter table and the holiday table in pandas, took", "I took")
    assert "adapted-nan" in parts_of(no_join) and "frames-merged" not in parts_of(no_join)
    no_layer = said.replace("used norm = keras.layers.Normalization(); norm.adapt(X_train.to_numpy()) as the first "
                            "layer", "fed them as they are")
    assert "frames-merged" in parts_of(no_layer) and "adapted-nan" not in parts_of(no_layer)
    # (code_review_s45b M4: the TF 2.3 tutorial's layers.experimental.preprocessing.Normalization too)
    from trainwreck.data_values import KERAS_NORMALIZATION
    assert KERAS_NORMALIZATION.search("normalizer = preprocessing.Normalization(axis=-1)")
    # (the same words without the layer and the merge: neither fact)
    plain = diagnosis("A small Keras MLP. The loss is nan from the very first batch.\n")
    assert not any(k in m.parts for m in plain.matches for k in ("adapted-nan", "frames-merged"))
    # (code_review_s45 M4: a branch or a model's weights merged are no tables)
    from trainwreck.data_values import MERGED
    assert MERGED.search('df = sales.merge(weather, on="date", how="left")')
    for other in ("I merged the upstream branch into my fork and copied the new config files over",
                  "After merging the LoRA weights into the base model files", "The embedding tables are joined by the model",
                  "model.merge(other)"):
        assert not MERGED.search(other), other


def test_against_a_zero_variance_and_raw_targets_when_keras_normalization_is_nan_before_training():
    """The same report weighed for the entries it rules out: Keras's Normalization cannot divide by zero (WR-060), and
    an output nan before any update is no regression target's (WR-360)."""
    from trainwreck.weighing import WEIGHTS, context_of, weigh
    from trainwreck.diagnose import signature_of, weigher
    said = ("Predicting store sales with a Keras MLP: norm = keras.layers.Normalization(); norm.adapt(X_train) first. "
            "The loss is nan from the very first batch, and model.predict(X_train[:5]) before training returns nan.\n")
    d = diagnosis(said)
    w = weigher(CATALOG)
    c = context_of(d.evidence, w, signature_of(d.evidence), WEIGHTS)
    zero_var, _e, against_060 = weigh(CATALOG.entries["WR-060"], c, w, WEIGHTS)
    raw, _e, against_360 = weigh(CATALOG.entries["WR-360"], c, w, WEIGHTS)
    assert zero_var["adapted-nan"] < 0 and any("a column that never varies comes out 0, not nan" in a for a in against_060)
    assert raw["untrained-output"] < 0 and any("the targets enter only the loss" in a for a in against_360)


def test_a_lower_rate_that_broke_at_the_same_batch_is_said_with_the_batch():
    """"With lr 1e-4 it turns nan at exactly the same batch (412)": a lower rate tried, and the same place -- read
    through the folded text, whose tokens are spaced apart."""
    from trainwreck.rate_tried import lr_tried, lr_tried_same_place
    said = "The loss is nan at batch 412. With lr 1e-4 it turns nan at exactly the same batch (412)."
    assert lr_tried(said) == "failed" and lr_tried_same_place(said)
    # (code_review_s45 H2: a lower rate that fixed the run, on the same batch of data, did not fail)
    fixed = "The loss is nan at step 300. With lr 1e-4 on the same batch of data it trains fine."
    assert lr_tried(fixed) != "failed" and not lr_tried_same_place(fixed)


def test_weights_said_to_come_from_an_unscaled_randn_are_a_large_init():
    """"weights from np.random.randn(n_in, n_out), biases zero" in a sentence: a standard deviation of 1 at every
    layer, as `W1 = np.random.randn(784, 512)` is in code; not with a scale after it."""
    from trainwreck.weight_init import LARGE_INIT
    assert LARGE_INIT.search("ReLU, weights from np.random.randn(n_in, n_out), biases zero")
    assert LARGE_INIT.search("the weights are initialized with np.random.randn(a, b)")
    assert not LARGE_INIT.search("weights from np.random.randn(n_in, n_out) * np.sqrt(2 / n_in)")
    # (code_review_s45 L3: a scale after a quoted call, or said)
    assert not LARGE_INIT.search("weights from `np.random.randn(n_in, n_out)` * 0.01")
    assert not LARGE_INIT.search("weights from np.random.randn(n_in, n_out), scaled by sqrt(2/n_in)")
    assert LARGE_INIT.search("W1 = np.random.randn(784, 128)  # no scaling")


def test_tf_datas_shuffled_file_list_zipped_with_labels_is_not_covered():
    """`Dataset.list_files` shuffles the names unless shuffle=False; zipped with labels listed in another order, each
    image gets another file's label: not covered, said with why -- and not with shuffle=False."""
    code = ('files = tf.data.Dataset.list_files("imgs/*/*.png")\n'
            'labels = tf.data.Dataset.from_tensor_slices([names.index(p.split("/")[-2]) for p in sorted(paths)])\n'
            'ds = tf.data.Dataset.zip((files.map(read_image), labels)).batch(64)\n')
    said = "4 classes. The loss stays at 1.386 and the accuracy at 0.25 for 20 epochs, train and validation.\n"
    d = diagnosis(said + code)
    assert d.verdict == "unexplained" and not d.matches
    assert any("Dataset.list_files shuffles the file names unless given shuffle=False" in u for u in d.unweighed)
    fixed = diagnosis(said + code.replace('list_files("imgs/*/*.png")', 'list_files("imgs/*/*.png", shuffle=False)'))
    assert not any("list_files" in u for u in fixed.unweighed)


def test_an_averaged_score_is_another_quantity_not_a_loss():
    """"The loss goes 0.41 -> 0.09 and micro-F1 reaches 0.87": 0.87 is the F1's, not a climb of the loss."""
    d = diagnosis("The loss goes 0.41 -> 0.2 -> 0.09 and micro-F1 reaches 0.87 by epoch 5.\n")
    assert d.evidence.head == [0.41, 0.2, 0.09]
    assert diagnosis("The loss goes 0.41 -> 0.2 -> 0.09 and macro_f1 0.87, mIoU 0.61.\n").evidence.head == [0.41, 0.2, 0.09]


def test_a_language_models_loss_near_zero_beside_generations_that_repeat_is_not_covered():
    """A GPT's loss at 0.01 while its samples repeat one token: no model gets near 0 on text it has not memorised, so
    each position sees the token it predicts (targets not shifted by one, or a mask that looks ahead) -- not covered,
    said with why. Not for a classifier's low loss, nor for a language model whose loss is 2.1."""
    said = ("Char-level GPT on song lyrics: train and val loss both drop to about 0.01 in one epoch, but sampling just "
            "repeats the last character of the prompt. The causal mask is torch.triu with -inf above the diagonal.\n")
    d = diagnosis(said)
    assert d.verdict == "unexplained" and not d.matches
    assert any("targets equal to the inputs with no shift by one" in u for u in d.unweighed)
    high = diagnosis(said.replace("about 0.01", "about 2.1"))
    assert not any("no shift by one" in u for u in high.unweighed)
    other = diagnosis("ResNet on CIFAR-10: the train loss drops to about 0.01, and the predictions on new photos are "
                      "garbage, it repeats the same class.\n")
    assert not any("no shift by one" in u for u in other.unweighed)
    # (code_review_s45 H4: a rate is no loss; and a model that memorised its training text keeps a high validation loss)
    # (code_review_s45b L1/L2: a validation loss "after epoch 3 is 0.02" is near 0 too; another word between the loss and
    # its number is no other quantity)
    assert any("no shift by one" in u for u in diagnosis(
        "GPT: train loss 0.01 and val loss after epoch 3 is 0.02; samples repeat the same token.\n").unweighed)
    assert any("no shift by one" in u for u in diagnosis(
        "My GPT's loss after warmup is 0.02 and the samples repeat the same token.\n").unweighed)
    for said in ("My char-level GPT's loss with lr 0.001 stays at 3.4 forever and the generated text is gibberish.\n",
                 "Small GPT on 1 MB of text: after 20k steps the train loss is 0.02 and val loss 6.5; samples repeat "
                 "the same line over and over.\n"):
        assert not any("no shift by one" in u for u in diagnosis(said).unweighed), said


SPIKED_THEN_FROZEN = [(0, 0.6911), (1, 0.6305), (2, 0.5702), (3, 2.2590), (4, 0.7544), (5, 0.6810), (6, 0.6731),
                      (7, 0.6730), (40, 0.6730)]


def test_a_loss_frozen_to_within_one_digit_after_a_spike_at_a_constant_outputs_entropy_is_a_dead_layer():
    """After a spike, 0.6731 then 0.6730 to epoch 40, above the low before the spike, beside words that the model gives
    0.4000 for every row: -0.4 ln 0.4 - 0.6 ln 0.6 = 0.6730 is that constant prediction's loss, so the spike killed
    what the model had learned (WR-140's face), not a spike it recovered from. Without those words the one-digit
    flicker leaves it a recovery."""
    log = "".join(f"epoch {e:3d} | train {v:.4f} | val {v + 0.01:.4f}\n" for e, v in SPIKED_THEN_FROZEN)
    said = "Fraud model, BCEWithLogitsLoss, ReLU MLP. Then torch.sigmoid(model(x)) is 0.4000 for every single row.\n"
    d = diagnosis(said + log)
    assert d.verdict == "failure" and d.signature.name == "stall-after-drop" and d.matches[0].entry.id == "WR-140"
    assert any("= 0.6730 for q = 0.4000" in f for f in d.signature.facts)
    assert diagnosis("Fraud model, BCEWithLogitsLoss, ReLU MLP.\n" + log).signature.name == "spike-then-recover"


def test_a_climb_said_in_words_beside_three_values_from_a_sentence_is_not_healthy():
    """Three values a sentence chose to give (10.4, 16, 17), beside words that the loss explodes: too few to judge, and
    the words say it went wrong -- the candidates, not 'no known failure'."""
    d = diagnosis("The loss starts at 10.4, shoots up to 16 and then 17 within the first steps, then slowly comes back "
                  "down. It explodes every time, why?\n")
    assert d.verdict == "uncertain" and d.matches[0].entry.id == "WR-250"
    # (code_review_s45b H3: a climb denied, or asked about, is none)
    for calm in ("My loss goes 2.31, then 1.85, then 1.20 and 0.95 after four epochs. No NaNs, nothing diverges. "
                 "Is this training well?\n",
                 "The loss is 0.9, 0.7, 0.5 after three epochs. I'm using GradScaler to avoid nan/inf in fp16.\n",
                 "Loss: 4.2, then 3.1, then 2.5. Should I worry it will explode later?\n"):
        assert diagnosis(calm).verdict == "healthy", calm


def test_a_rate_tried_instead_of_another_with_the_nan_still_at_the_same_iteration_did_not_move_it():
    """"I tried lr 1e-4 instead of 1e-3 and the nan is still at 7412", beside "at iteration 7412": a lower rate tried,
    the failure where it was -- the failures that break where they are met come first."""
    from trainwreck.rate_tried import lr_tried, lr_tried_same_place
    said = ("Crowd counting, MSE on density maps. The loss goes down fine, then at iteration 7412 it is nan and stays "
            "nan, with a fixed seed always at 7412. I tried lr 1e-4 instead of 1e-3 and the nan is still at 7412.")
    assert lr_tried(said) == "failed" and lr_tried_same_place(said)
    assert diagnosis(said + "\n").matches[0].entry.id == "WR-310"
    # (a place said "still" that the text names nowhere else is no same place)
    assert not lr_tried_same_place("With lr 1e-4 the loss is still at 0.7.")


def test_a_lower_rate_after_which_it_still_happens_just_later_is_put_off():
    """review s75/01: "If I lower the learning rate it still happens, just later" was read as a lower rate that failed
    (its "still"), which weighs for the entries the rate does not move; it only put the failure off, WR-260's tell. And
    "with learning rate 0.01 it gets further before it goes up" (s76/06) is the same said otherwise."""
    from trainwreck.rate_tried import lr_tried
    assert lr_tried("If I lower the learning rate it still happens, just later.") == "delayed"
    assert lr_tried("With learning rate 0.01 it gets further before it goes up, but it still goes up.") == "delayed"
    assert lr_tried("I lowered the lr and it still happens.") == "failed"
    assert lr_tried("I lowered the lr and it still happens, I will look at it later.") == "failed"
    assert lr_tried("With lr 0.01 the loss still goes nan at the same step.") == "failed"


def test_a_lower_rate_that_only_pushed_the_nan_later_is_put_off():
    """"Lowering the lr only pushes it a few epochs later": the rate puts the failure off, the face of a log of zero
    that a confident model reaches sooner or later."""
    from trainwreck.rate_tried import lr_tried
    assert lr_tried("Lowering the lr only pushes it a few epochs later.") == "delayed"
    assert lr_tried("I push it to the cluster later with a lower lr.") != "delayed"
    d = diagnosis("U-Net for road cracks with my own weighted BCE plus dice loss. Dice 0.91 at epoch 20 and the loss "
                  "still falling, then at epoch 21 the loss is nan. Lowering the lr only pushes it a few epochs later.\n")
    assert d.matches[0].entry.id == "WR-030"
    assert any("only put the failure off" in e for e in d.matches[0].evidence)


def test_a_lower_rate_put_off_in_other_words():
    """The comparison said after the rate ("with a learning rate five times lower"), the delay as more epochs before the
    failure, as a turning point pushed later, as a run that took longer and ended the same way, or as a few more words
    between "only makes it" and "later": each a lower rate that only put the failure off."""
    from trainwreck.rate_tried import lr_tried
    for said in ("With a learning rate five times lower it is exactly the same, only later.",
                 "At an lr 10x lower the curve does the same thing, just later.",
                 "When I make the learning rate smaller it only takes a few more steps before it goes nan.",
                 "A lower learning rate just pushes the turning point later.",
                 "With a 4x smaller learning rate it takes longer but ends the same way.",
                 "Dividing the learning rate by ten only makes it go wrong some more epochs later."):
        assert lr_tried(said) == "delayed", said
    # (a lower rate that cured it, a rate made larger, a time per epoch, and a point moved that is no failure)
    assert lr_tried("With a learning rate ten times smaller it trains fine.") != "delayed"
    assert lr_tried("When I make the learning rate larger it only takes a few more steps before it goes nan.") != "delayed"
    assert lr_tried("With a lower learning rate each epoch takes longer but the loss is the same thing.") != "delayed"
    assert lr_tried("With a lower learning rate I moved the checkpoint later.") != "delayed"
    d = diagnosis("My own PyTorch loop for a 1D CNN on vibration data: the loss falls fast at first, then swings up and "
                  "down more and more and is nan in epoch 4. With a learning rate ten times smaller it does the same "
                  "thing, only later.\n")
    assert d.matches[0].entry.id == "WR-260"
    assert any("only put the failure off" in e for e in d.matches[0].evidence)


def test_jumps_that_recover_where_a_cosine_schedules_warm_restarts_fall_are_the_schedule():
    """A cosine schedule named, and the loss said to jump and recover at epochs 11 and 31: counted from 1, 31 - 1 is
    three times 11 - 1, where SGDR's restarts fall for a first period of 10 that doubles -- the schedule at work, not a
    failure. Epochs that fit no restart (11 and 26) are not read so; nor is a nan."""
    from trainwreck.schedule_said import restarts_said
    said = ("Fine-tuning a ViT with AdamW and a cosine schedule copied from a forked notebook. At epoch 11 the train and "
            "val loss suddenly jump up, then it recovers within a few epochs. Exactly the same happens again at epoch "
            "31, and again it recovers. I'm worried it will blow up at some point.\n")
    assert restarts_said(said) == "epochs 11 and 31"
    d = diagnosis(said)
    assert d.verdict == "normal" and d.normal[0].name == "a rise each time the learning rate jumps back up"
    assert restarts_said(said.replace("epoch 31", "epoch 26")) == ""
    assert restarts_said(said.replace("it recovers within", "it is nan within")) == ""
    # (code_review_s45b H2: no recovery, no restarts, a cosine similarity, another quantity's drop)
    for not_restarts in (said.replace("it recovers within", "it never recovers within"),
                         said.replace("a cosine schedule", "a cosine decay schedule (no restarts)"),
                         said.replace("AdamW and a cosine schedule", "AdamW and a cosine similarity loss"),
                         "Step decay, cosine lr. The accuracy drops at epoch 30 and again at 60 and recovers."):
        assert restarts_said(not_restarts) == "", not_restarts
    assert restarts_said("With a cosine schedule the loss jumps at epoch 10 and again at 20, then recovers.") \
        == "epochs 10 and 20"


def test_a_failure_feared_to_come_is_no_report():
    """"I'm worried it will blow up at some point" fears a blow-up; it reports none (where "I'm worried because it
    blew up" does)."""
    from trainwreck.diagnose import WORRY
    assert "blow" not in WORRY.sub(" ", "i'm worried it will blow up at some point.")
    assert "blew" in WORRY.sub(" ", "i'm worried because it blew up at epoch 3.")
    # (code_review_s45b M1: the nan before the modal was reported)
    assert "nan" in WORRY.sub(" ", "i'm worried the nan i got at step 4000 yesterday will come back.")


def test_a_loss_said_to_stay_just_above_the_softmax_twice_floor_beside_a_high_accuracy_is_wr130():
    """"Stuck around 1.47" for 10 kinds of defects at 99% accuracy: log(1 + 9/e) = 1.4612 is the lowest a
    cross-entropy reaches on outputs that already went through a softmax -- said in words as the log shows it. Not at a
    loss of 0.35, nor at an accuracy of 40%."""
    from trainwreck.softmax_floor import softmax_floor_said
    said = ("Loss stuck around 1.47 but accuracy is 99%\nClassifying 10 types of fabric defects with a small CNN and "
            "nn.CrossEntropyLoss; it was 2.30 at the start.\n")
    fact = softmax_floor_said(said)
    assert "log(1 + (C - 1)/e) = 1.4612 for C = 10 classes" in fact
    d = diagnosis(said)
    assert d.matches[0].entry.id == "WR-130" and d.matches[0].parts["softmax-floor"] > 0
    assert not softmax_floor_said(said.replace("1.47", "0.35")) and not softmax_floor_said(said.replace("99%", "40%"))
    from trainwreck.class_count import classes_named
    assert classes_named("We are classifying 7 kinds of birds")[0] == 7 and classes_named("7 kinds of people") is None


def test_a_count_under_two_is_no_class_count():
    """timm's `num_classes=0` takes a model's head off (a feature extractor): it counts no classes, and a log beside it
    is read as any other (a uniform guess over 0 classes once raised a math domain error). A count of 2 or more later
    in the paste is the one read; `num_classes=1` is one logit, not one class."""
    from trainwreck.class_count import classes_named, classes_or_vocabulary
    said = ('backbone = timm.create_model("efficientnet_b0", pretrained=True, num_classes=0)\n'
            "head = nn.Linear(backbone.num_features, 5)\n" + "".join(f"step {50 * k} loss {v}\n" for k, v in
                                                                   enumerate((1.61, 1.42, 1.20, 1.05))))
    assert classes_or_vocabulary(said) is None
    assert diagnosis(said).signature.facts[0].startswith("4 loss values, all finite: the loss fell from 1.61 to 1.05")
    assert classes_named("num_classes=0, then a 12-class head")[0] == 12
    assert classes_named("num_classes=1 with BCEWithLogitsLoss") is None
    assert classes_or_vocabulary("vocab_size=0 (set later)") is None
    assert classes_or_vocabulary("config.vocab_size = 0  # filled in later\nconfig.vocab_size = 32000\n")[0] == 32000


def test_a_layer_written_by_me_is_hand_written():
    from trainwreck.thesaurus import tokens
    assert tokens("The CRF layer is written by me following a tutorial")[:3] == ["crf", "layer", "handwritten"]


def test_two_numbers_joined_by_a_dash_and_rising_are_a_range_unless_a_climb_reaches_them():
    """"The loss is fine (0.3-0.7)" is where it sits, not 0.3 and then 0.7 -- a climb of x2.3 nobody printed, which
    had named the rate with confidence; "0.6931-0.6929" (falling) and "8-15-40" (a chain) are values in turn, and so
    is "climbs to 6-7"."""
    assert diagnosis("For a few hundred episodes the loss is fine (0.3-0.7), then nan, and nan, and nan.\n"
                     ).evidence.count == 0
    assert diagnosis("The loss went 0.6931-0.6929-0.6925 and then nan.\n").evidence.head[:3] == [0.6931, 0.6929, 0.6925]
    assert diagnosis("The loss: 0.6931-0.6929, 0.61, 0.52.\n").evidence.head == [0.6931, 0.6929, 0.61, 0.52]
    climbed = diagnosis("The loss starts around 2.5, climbs to 6-7 by the end of epoch 1, and is nan in epoch 2.\n")
    assert climbed.evidence.head[:3] == [2.5, 6.0, 7.0]


def test_exps_multiplied_into_a_running_product_beside_an_inf_are_wr020s():
    """A forward algorithm written over exp, `alpha = (alpha @ np.exp(trans)) * np.exp(emissions[t])`, beside a loss
    that went inf: the product grows with the sequence's length past float32's range (WR-020's page). Not a product
    with no exp in it, nor one in a report with no nan or inf."""
    from trainwreck.breaking_constructs import EXP_PRODUCT
    code = "    for t in range(1, T):\n        alpha = (alpha @ np.exp(trans)) * np.exp(emissions[t])\n"
    said = "My HMM tagger's loss is 31.2, 27.9, 24.4 and then inf on a batch of long sentences, then nan.\n"
    d = diagnosis(said + code)
    assert d.matches[0].entry.id == "WR-020" and d.matches[0].parts["exp-unshifted"] > 0
    assert EXP_PRODUCT.search("    alpha *= np.exp(scores[t])\n")
    assert not EXP_PRODUCT.search("    alpha = (alpha @ trans) * emissions[t]\n")
    calm = diagnosis(said.replace("then inf", "then 21.0").replace(", then nan", "") + code)
    from trainwreck.diagnose import signature_of, weigher
    from trainwreck.weighing import WEIGHTS, context_of, weigh
    w = weigher(CATALOG)
    context = context_of(calm.evidence, w, signature_of(calm.evidence), WEIGHTS)
    assert "exp-unshifted" not in context.printed
    assert "exp-unshifted" not in weigh(CATALOG.entries["WR-020"], context, w, WEIGHTS)[0]


def test_a_place_written_with_thousands_still_names_the_place():
    """"The nan is still at 7,412" beside "at iteration 7,412": the same place, read as written (folding makes
    "7,412" a word of thousands)."""
    from trainwreck.rate_tried import lr_tried_same_place
    assert lr_tried_same_place("The nan is at iteration 7,412. I tried lr 1e-4 instead of 1e-3 and the nan is still "
                               "at 7,412.")


def test_features_said_scaled_in_an_aside_are_scaled_inputs():
    """"12 features (size, occupants, ..., all standardised with StandardScaler)": the inputs were scaled, so the entry
    about unnormalised inputs counts against itself; "(…, not scaled)" says nothing of the kind."""
    from trainwreck.input_scaling import scaled_said
    said = ("Predicting yearly gas use in kWh (2,000 to 30,000) from 9 features (floor area, occupants, insulation "
            "class, all standardised with StandardScaler), 3-layer MLP, MSE. The first epoch loss is about 2e8 and "
            "it does not learn.\n")
    assert "inputs" in scaled_said(said)["scaled"]
    assert "inputs" not in scaled_said("9 features (floor area, occupants, not scaled)")["scaled"]
    d = diagnosis(said)
    assert d.matches[0].entry.id == "WR-360" and "WR-330" not in [m.entry.id for m in d.matches]
    from trainwreck.diagnose import signature_of, weigher
    from trainwreck.weighing import WEIGHTS, context_of, weigh
    w = weigher(CATALOG)
    parts, _evidence, against = weigh(CATALOG.entries["WR-330"], context_of(d.evidence, w, signature_of(d.evidence),
                                                                           WEIGHTS), w, WEIGHTS)
    assert parts["scaled-inputs"] < 0 and against[0].startswith("the report says the inputs were scaled already")


@pytest.mark.parametrize("said, kind", [
    ("The features are already in [0, 1].", "inputs"),
    ("All 30 features already -1/0/1 (categorical answers).", "inputs"),
    ("inputs are in the range 0-1", "inputs"),
    ("targets between -2 and 2 after the log transform", "targets"),
    # (s261/04: the values named with the kind of number they are)
    ("linear output with MSE loss (since the targets are 0/1 numbers anyway)", "targets"),
])
def test_values_said_to_lie_in_a_small_range_were_scaled(said, kind):
    """Values said to lie within a few units of 0 are what a scaling makes them: the fix of the unscaled entries is
    done. Raw pixels (0-255), a question, a denial, or one value are not."""
    from trainwreck.input_scaling import scaled_said
    assert kind in scaled_said(said)["scaled"], said
    for text in ("pixels in 0-255", "Are the inputs in [0, 1]?", "The features are not in [0, 1].", "x is 3",
                 "images are 224 x 224", "30 features, 2 classes",
                 # (code_review_s47 H1: numbers of something else, a range for some columns only, an assumption, a
                 # state that is gone)
                 "The features are 2 to 4 orders of magnitude apart.", "The bad columns are 3 and 4.",
                 "The inputs are 0 to 1 for some columns and 0 to 50000 for others.",
                 "I assumed the inputs are in [0, 1], but the prices are in the hundreds of thousands.",
                 "x is 2 to 3 times larger than y", "Images are 3 to 4 per batch",
                 "the inputs are 1.5, 2.3 and 4.1 kilograms", "features are 4.5 and 3.2 million on average",
                 "The features were in [0, 1] before, now they are raw.", "my masks are 0/255 values"):
        assert scaled_said(text)["scaled"] == {}, text
    for text in ("My data is in [0, 1].", "inputs range from 0 to 1."):
        assert scaled_said(text)["scaled"] == {"inputs": text.rstrip(".").split(" ", 1)[1] if text.startswith("My")
                                               else text.rstrip(".")}, text


def test_inputs_said_to_be_in_a_small_range_count_against_the_unnormalised_inputs_entry():
    text = ("MLP 20-64-64-1 with ReLU, BCEWithLogitsLoss, SGD(lr=0.5, momentum=0.9), batch 128; the features are "
            "already -1/0/1. After two jumps in the first epochs the loss stays at 0.6931 and model(x) gives 0.4977 "
            "for every single row.")
    assert weighed_parts(text, "WR-330").get("scaled-inputs", 0) < 0
    ids = [m.entry.id for m in diagnosis(text).matches]
    assert ids.index("WR-140") < ids.index("WR-330") if "WR-330" in ids else "WR-140" in ids


def test_a_negation_just_before_a_place_in_its_sentence_denies_it():
    """One reading of "denied just before", shared by the data check, the loop, the finder and the iteration limit."""
    from trainwreck.sentences import denied_before
    text = "I don't use a custom loop with tf.GradientTape. No nan. The loss diverges."
    assert denied_before(text, text.index("GradientTape"), reach=80)          # (a dot between names ends nothing)
    assert not denied_before(text, text.index("diverges"))                    # (a sentence's end does)
    assert denied_before("the loss is not nan", len("the loss is not "))
    assert not denied_before("not at all: x is fine, and the nan is there", len("not at all: x is fine, and the "))


def test_inputs_listed_in_two_units_of_measure_are_unscaled_unless_said_scaled():
    """review s74/02: "features I extract myself for each clip: mean pitch in Hz, speaking rate, the longest pause in
    milliseconds" -- raw quantities, each on its unit's scale -- beside sigmoid hidden units and one output for every
    clip, named WR-110 before WR-330. One unit, or units said of the run rather than of the inputs, say nothing; a
    scaling said elsewhere leaves the words undecided."""
    from trainwreck.input_scaling import scaled_said
    said = ("Stutter detection from features I extract myself for each clip: mean pitch in Hz, speaking rate, the "
            "longest pause in milliseconds, energy. Two sigmoid hidden layers in Keras. From the first epoch the "
            "accuracy stays at the share of the bigger class and every clip gets the same predicted probability.")
    assert scaled_said(said)["unscaled"]["inputs"] == ("features I extract myself for each clip: mean pitch in Hz, "
                                                       "speaking rate, the longest pause in milliseconds")
    assert weighed_parts(said, "WR-330")["unscaled-inputs"] > 0 and diagnosis(said).matches[0].entry.id == "WR-330"
    assert "inputs" not in scaled_said(said.replace(" in milliseconds", ""))["unscaled"]
    assert "inputs" not in scaled_said("Training took 3 hours in total, 20 minutes in days of GPU time.")["unscaled"]
    both = said + " All features are standardised with a StandardScaler."
    assert "inputs" not in scaled_said(both)["unscaled"] and "inputs" in scaled_said(both)["scaled"]
    # (a scaling said in the same sentence, in words the scaling patterns may not hold; units of the run, not inputs)
    assert "inputs" not in scaled_said("The features (age in years, income in dollars, tenure in days) are z-scored "
                                       "before training.")["unscaled"]
    assert "inputs" not in scaled_said("I log the step time in ms and the GPU memory in MB for each input batch.")["unscaled"]


def test_autocast_switched_off_that_trains_to_the_end_is_full_precision_helping():
    """review s76/18: "The same script with autocast switched off trains to the end without any problem" said nothing
    (not "switched off" after the precision's name, nor "to the end without any problem" as running well); it says the
    float32 run is fine, WR-040's tell."""
    from trainwreck.precision_said import precision_tried
    said = "The same script with autocast switched off trains to the end without any problem."
    assert precision_tried(said)[0] == "helped"
    assert precision_tried("With autocast turned off it still goes nan.")[0] == "failed"
    report = ("Transformer on telemetry, torch.autocast with float16 and a GradScaler. From around step 1,500 the loss "
              "prints nan and never comes back. " + said)
    assert diagnosis(report).matches[0].entry.id == "WR-040"


def test_a_mean_and_std_named_as_a_pair_is_no_division_and_one_nan_said_late_is_not_the_start():
    """review s75/08: "standardised with the training mean/std" was read as code dividing by a std with nothing added,
    and the one nan the words give ("then in epoch 31 the printed loss is nan", after a smooth fall) as a loss broken
    from the first step -- a fact that said so, against the report's own words."""
    from trainwreck.input_scaling import DIVIDES_BY_STD
    assert not DIVIDES_BY_STD.search("64 features, standardised with the training mean/std, ~310k events")
    assert DIVIDES_BY_STD.search("x = (x - mean) / std") and DIVIDES_BY_STD.search("z = x / sd")
    # (the root of a variance with nothing added inside it, a weight standardisation's written by hand; not with its eps)
    assert DIVIDES_BY_STD.search("w = (w - mean) / torch.sqrt(var)") and DIVIDES_BY_STD.search("y = x * torch.rsqrt(var)")
    assert not DIVIDES_BY_STD.search("w = (w - mean) / torch.sqrt(var + 1e-5)")
    assert not DIVIDES_BY_STD.search("y = x * torch.rsqrt(var + self.eps)")
    report = ("Loss nan after ~30 epochs\n\nPlain JAX MLP, 64 features standardised with the training mean/std. The loss "
              "goes down smoothly (1.38 at the start, 0.21 by epoch 25), then in epoch 31 the printed loss is nan and "
              "stays nan.")
    assert "std-unguarded" not in weighed_parts(report, "WR-060")
    by_hand = report.replace("standardised with the training mean/std", "which I standardise myself")
    assert "std-unguarded" not in weighed_parts(by_hand, "WR-060")
    assert "std-unguarded" in weighed_parts(by_hand.replace("Loss nan after ~30 epochs", "Loss nan at once").replace(
        "goes down smoothly (1.38 at the start, 0.21 by epoch 25), then in epoch 31 the", "is nan from the very first "
        "batch: the"), "WR-060")


def test_raw_quantities_named_by_what_they_count_are_units_and_an_agent_that_picks_the_same_gives_one_output():
    """review s75/16 and s76/22: "four accelerometer channels (the logger gives them as ADC counts) plus the spindle
    speed in rpm", "the observation is ... CO2 in ppm, ... the current time as a Unix timestamp": raw quantities on
    their own scales; and "the agent picks practically the same setpoints whatever the state is" is one output."""
    from trainwreck.frozen_said import one_output_said
    from trainwreck.input_scaling import scaled_said
    logger = ("Keras MLP with tanh layers on the readings from our milling machine's logger: four accelerometer channels "
              "(the logger gives them as ADC counts) plus the spindle speed in rpm, five classes.")
    assert "inputs" in scaled_said(logger)["unscaled"]
    hvac = ("PPO on our HVAC simulator. The observation is the zone temperatures, CO2 in ppm, the electricity price and "
            "the current time as a Unix timestamp. After 2 million steps the reward is the same as at the start, and the "
            "agent picks practically the same setpoints whatever the state is.")
    assert "inputs" in scaled_said(hvac)["unscaled"]
    assert one_output_said(hvac) == "agent picks practically the same setpoints whatever"
    assert diagnosis(hvac).matches[0].entry.id == "WR-330"
    assert "inputs" not in scaled_said(logger.replace(" plus the spindle speed in rpm", ""))["unscaled"]


def test_a_cox_loss_that_barely_falls_and_grows_with_the_batch_is_answered_beside_its_curve():
    """review s75/11: DeepSurv's negative Cox partial log-likelihood, computed per mini-batch, about ln 8 = 2.08 higher at
    batch 512 than at 64, and falling 5% over 60 epochs while the C-index rose: the curve read "never learned"
    (plateau from the start) and named three entries. A Cox loss sums over the batch's risk set: it grows with the
    batch and stays far from 0. Not where the loss went nan."""
    log = ("DeepSurv: the loss is much higher with a bigger batch. The loss is the negative Cox partial log-likelihood "
           "computed within each mini-batch.\nbatch_size=512\n" + "".join(
               f"epoch {e:>2}  train_loss {v}  val_cindex {c}\n" for e, v, c in
               [(1, 5.2261, 0.652), (10, 5.0112, 0.721), (30, 4.9706, 0.734), (60, 4.9571, 0.735)]))
    d = diagnosis(log)
    assert d.signature.name == "plateau-from-start"
    assert d.verdict == "normal" and d.normal[0].name.startswith("a Cox partial likelihood")
    broken = log.replace("4.9571", "nan")
    assert diagnosis(broken).verdict != "normal"


def test_the_cartpole_cox_and_standardised_target_answers_are_not_given_to_runs_that_broke():
    """review s49b H1-H3: each answer was given to reports of broken runs -- a CartPole return stuck at 10 "after 500
    episodes", a Cox loss flat at a C-index of 0.5, a target "never normalized" with a huge MSE."""

    cartpole = "CartPole-v1's return of 500"
    assert answered("PPO on CartPole-v1: every episode returns exactly 500.0 and it never goes higher. Why?", cartpole)
    for broken in ("DQN on CartPole-v1: after 500 episodes the reward is stuck around 10 and never goes above 20.",
                   "PPO on CartPole-v1 reaches a return of 500, then the return collapses to about 10 and never recovers.",
                   "DQN on CartPole with batch size 500, rewards stuck at 9.4 and it never improves.",
                   "CartPole-v0: the reward never goes above 200, even with a return of 500 elsewhere."):
        assert not answered(broken, cartpole), broken
    cox = "a Cox partial likelihood"
    two = "DeepSurv, negative Cox partial log-likelihood: with batch_size=512 the loss is higher than with batch_size=64."
    assert answered(two, cox)
    assert not answered("DeepSurv: the loss is higher with a big batch, batch_size=512.", cox)      # one size: no comparison
    assert not answered(two + " The C-index stays at 0.50 the whole time.", cox)
    scaled = "a loss on standardised targets"
    ok = ("Everything standardised, the target included. Validation MSE 0.03, but converted back to degrees the MAE is "
          "about 1 degree. Why?")
    assert answered(ok, scaled)
    assert not answered(ok.replace("MSE 0.03", "MSE 0.98"), scaled)
    assert not answered("The targets y were never normalized. The MSE is huge, 250000. How do I convert the error back "
                        "to the original units?", scaled)


def test_a_cox_loss_that_did_not_move_at_all_is_not_the_plateau_it_explains():
    """A plateau the Cox answer explains fell a little (2% or more); a loss flat to the fourth decimal did not learn."""
    log = ("DeepSurv: with batch_size=512 the loss is much higher than with batch_size=64. The loss is the negative Cox "
           "partial log-likelihood computed within each mini-batch.\n" + "".join(
               f"epoch {e:>2}  train_loss {v}\n" for e, v in [(1, 5.2261), (10, 5.2260), (30, 5.2259), (60, 5.2261)]))
    assert diagnosis(log).verdict != "normal"


def test_units_of_the_runs_own_measurements_are_not_the_inputs_and_finished_runs_do_not_cancel_put_off():
    """review s49b M1, M3: "I log the time per epoch in minutes and the GPU memory in GB" beside "the input is ..." is
    no list of raw inputs; and "it runs without problems for 20 epochs, then the same nan, just later" only put the
    failure off (the words of a run that went well had been taken from the full-precision reading)."""
    from trainwreck.input_scaling import scaled_said
    from trainwreck.rate_tried import lr_tried
    assert "inputs" not in scaled_said("ResNet-50 on chest X-rays. The input is one 512x512 crop per study, and I log "
                                       "the time per epoch in minutes and the GPU memory in GB.")["unscaled"]
    assert lr_tried("With lr=0.001 it runs without problems for 20 epochs, then the same nan, just later.") == "delayed"


def test_nnunets_negative_loss_is_its_minus_dice_and_not_labels_the_loss_cannot_take():
    """(s79/19) nnU-Net's loss is the cross-entropy plus minus the soft Dice, below zero by design: a Dice loss said
    elsewhere to stay in [0, 1] no longer makes its negative values labels the loss cannot take (WR-320 was named with
    confidence). Not the answer beside a nan, and a Dice loss below zero with no nnU-Net is still impossible."""
    from trainwreck.run_said import loss_kind
    said = "My previous Dice loss always stayed between 0 and 1, but the nnU-Net train_loss is negative."
    assert loss_kind(said) == "" and loss_kind(said.replace("the nnU-Net train_loss", "my loss")) == "bounded"
    d = diagnosis("nnU-Net v2: train_loss -0.69, val_loss -0.65, pseudo dice 0.88. " + said + " What is wrong?")
    assert d.verdict == "normal" and d.normal[0].name.startswith("nnU-Net's loss")
    assert diagnosis("nnU-Net v2: the train_loss went negative and then became nan at epoch 12. What is wrong?"
                     ).verdict != "normal"


def test_a_huge_mape_is_answered_only_beside_errors_said_small():
    """(s81/16) A MAPE in the thousands of percent is the near-zero targets' doing where the errors are said small or
    the forecasts said to follow the truth; a MAPE of 12%, or a huge one beside a model said not to learn, is not."""
    answer = "a MAPE of hundreds or thousands of percent beside small errors"

    assert answered("The forecasts track the truth closely, yet the MAPE comes out at several thousand percent.", answer)
    assert not answered("The forecasts track the truth closely and the MAPE is 12%. Can it go lower?", answer)
    assert not answered("The MAPE is 3400% and the MAE is large too: the forecasts are flat lines.", answer)
    assert diagnosis("The MAE is small but the MAPE is 3400%, and the loss is stuck from the first epoch. Why?"
                     ).verdict != "normal"


def test_a_rare_positives_log_loss_that_barely_falls_is_answered_beside_a_ranking_measure_that_rises():
    """(s82/16) A log loss on rare positives starts near the base rate's entropy (0.098 at 2%) and has little room to
    fall; answered where the positives are said rare, the loss said to barely move and a ranking measure said to rise.
    Not beside an AUC at chance, nor for a balanced problem, nor with no ranking measure."""
    import math
    assert round(-0.02 * math.log(0.02) - 0.98 * math.log(0.98), 3) == 0.098
    answer = "a log loss on rare positives"
    said = ("Only a small share of users click. The BCE loss barely moves from 0.10, but the AUC is higher than the "
            "baseline's.")
    assert answered(said, answer)
    assert not answered(said.replace("the AUC is higher than the baseline's", "the AUC is 0.50"), answer)
    assert not answered(said.replace("Only a small share of users click.", "Half the users click."), answer)
    assert not answered(said.replace(", but the AUC is higher than the baseline's", ""), answer)
    # (code_review_s50b item 13: a rate of one digit's percent said so; a PR-AUC of 0.5 is no chance level)
    assert answered("The positive rate is 2%. The BCE loss barely falls, from 0.099 to 0.097, while the validation AUC "
                    "improves from 0.71 to 0.79.", answer)
    assert answered("Click-through rate is 0.8%. The log loss barely moves from 0.047, but the AUC beats the baseline; "
                    "PR-AUC is 0.5.", answer)


def test_a_one_cycle_rate_that_rises_is_answered_but_not_beside_a_nan_or_without_the_schedule_named():
    """(s79/20) fit_one_cycle raises the rate for its first pct_start of the steps (the 1cycle policy): a rate said to
    go up is that warmup. Not where the run went nan, nor where no one-cycle schedule is named."""
    from trainwreck.normals import normals_asked
    answer = "fastai's fit_one_cycle"
    said = "fastai, fit_one_cycle: the learning rate goes up during the first part of training. Is that backwards?"
    assert any(n.name.startswith(answer) for n in normals_asked(said.lower()))
    assert not any(n.name.startswith(answer) for n in normals_asked(said.replace("fastai, fit_one_cycle", "My own "
                                                                                 "scheduler").lower()))
    assert diagnosis(said + " The loss is nan from epoch 2.").verdict != "normal"


def test_a_sentence_accuracy_is_about_the_token_accuracy_to_the_power_of_the_length():
    """(s80/17) Independent errors leave a^n of the sentences right (0.95^12 = 0.54); errors gathered in some sentences
    leave more right, never fewer (Jensen: the mean of (1 - e)^n is at least (1 - mean e)^n). Answered where a token
    accuracy and a lower sentence share are given; not for a token accuracy alone."""
    import numpy as np
    from trainwreck.normals import normals_asked
    assert round(0.95 ** 12, 2) == 0.54 and round(0.95 ** 20, 2) == 0.36
    rng = np.random.default_rng(0)
    gathered = rng.choice([0.0, 0.1], size=100_000)          # (mean error rate 0.05, held by half the sentences)
    assert np.mean((1 - gathered) ** 12) > 0.95 ** 12
    answer = "a sentence accuracy far below the token accuracy"
    said = "NER tagger: 97% token accuracy, but the exact match over sentences is only 61%. Why?"
    assert any(n.name == answer for n in normals_asked(said.lower()))
    assert not any(n.name == answer for n in normals_asked("NER tagger: 97% token accuracy. Can it go higher?"))


def test_code_review_s50b_normals_stay_where_they_belong():
    """(code_review_s50b, items 1-10) Each late normal and reading, quiet where the second review showed a real failure
    answered as normal or a reading out of place, and still answered where it is told."""
    from trainwreck.normals import normals_asked
    from trainwreck.input_scaling import DIVIDES_BY_STD, per_item

    def names(text: str) -> list[str]:
        return [n.name for n in normals_asked(text.lower())]
    # 1: a loss far above any rare class's entropy is no base rate's
    assert not any(n.startswith("a log loss on rare") for n in names(
        "Fraud model, only 1% of transactions are fraud. The BCE loss hardly changes, it stays around 0.70 from epoch 1 "
        "to 30, but the validation AUC rises to 0.80."))
    # 2, 15: a loss that climbs with the one-cycle rate; fastai's schedule replaced
    assert not any(n.startswith("fastai") for n in names(
        "fit_one_cycle(20, lr_max=1): the learning rate goes up in the first 5 epochs and the loss goes from 0.6 to 8.2."))
    assert not any(n.startswith("fastai") for n in names(
        "I replaced fit_one_cycle with fit_flat_cos, and now the learning rate still goes up."))
    assert any(n.startswith("fastai") for n in names(
        "fit_one_cycle: the learning rate goes up in the first epochs and the loss goes from 2.3 to 0.4. Backwards?"))
    # 3, 14: a sentence share too low for any plausible length; no sentence share at all
    assert not any(n.startswith("a sentence accuracy") for n in names(
        "My NER model reports 99% token accuracy but only 5% of sentences are fully correct, and the sentences are about "
        "10 tokens long."))
    assert not any(n.startswith("a sentence accuracy") for n in names(
        "Word accuracy 94% on the validation set; the model was trained on sequences of 512 only. Is 94% good?"))
    # 4, 6, 7: a MAPE of exactly 100% beside zero predictions; a year; targets said far from zero
    for text in ("MAPE 100% on the validation set, MAE looks fine at 0.02. The predictions are all zero.",
                 "My MAPE on the 2024 test set is 35%, much worse than the 8% in the paper, although the MAE is low.",
                 "Sales forecasting, MAPE 3000%, targets are all in the thousands, none near zero. The MAE is small."):
        assert not any(n.startswith("a MAPE") for n in names(text)), text
    assert any(n.startswith("a MAPE") for n in names(
        "loss: 0.0213 - mean_absolute_percentage_error: 3412.5. The MAE is small and the forecasts follow the measured "
        "curve closely."))
    # 5: nnU-Net's loss not used
    for text in ("Instead of the nnU-Net loss I wrote my own BCE, and the loss goes below zero.",
                 "I am not using the nnU-Net loss, and the loss goes below zero."):
        assert not any(n.startswith("nnU-Net") for n in names(text)), text
    # 8: the per-item words near the division, not any __getitem__
    code = "class D(Dataset):\n    def __getitem__(self, i):\n        x = self.x[i]\n" + "        pass\n" * 80 + \
           "X = (X - X.mean(axis=0)) / X.std(axis=0)\n"
    assert per_item(code, DIVIDES_BY_STD.search(code)) is None
    said = "Each sequence is z-scored with its mean and std:\nx = (x - x.mean()) / x.std()\n"
    assert per_item(said, DIVIDES_BY_STD.search(said))


def test_torchvisions_pretrained_warning_is_answered_only_where_it_names_weights():
    """(s79/10) The warning's last sentence names what handle_legacy_interface loaded: a weights enum is the pretrained
    weights; `weights=None` (pretrained=False) is none, and no answer."""
    from trainwreck.normals import normals_asked
    answer = "torchvision's `pretrained` deprecation warning"
    said = ("UserWarning: Arguments other than a weight enum or `None` for 'weights' are deprecated since 0.13 and may "
            "be removed in the future. The current behavior is equivalent to passing `weights=%s`. Is it loaded?")
    assert any(n.name.startswith(answer) for n in normals_asked((said % "ResNet18_Weights.IMAGENET1K_V1").lower()))
    assert not any(n.name.startswith(answer) for n in normals_asked((said % "None").lower()))


def test_runs_that_differ_a_little_on_a_gpu_are_answered_only_where_neither_broke():
    """A seed fixes the random numbers, not the order in which a GPU's parallel additions land; float addition is not
    associative, so the same numbers added in another order differ in their last bits -- the mechanism, checked here
    in float32 -- and training carries the difference on. Not the answer where a run broke, or the two ended far
    apart."""
    import numpy as np
    values = np.random.default_rng(0).standard_normal(4096).astype(np.float32)
    forward = np.float32(0)
    for v in values:
        forward += v
    backward = np.float32(0)
    for v in values[::-1]:
        backward += v
    assert forward != backward and abs(forward - backward) < 1e-4 * np.abs(values).sum()
    gpu = "runs with the same seed that differ a little on a GPU"
    said = "Fixed seed, JAX on a V100 with jax.random.PRNGKey(0): two runs differ after step 100. Is my code wrong?"
    assert answered(said, gpu)
    assert not answered(said.replace("V100", "laptop CPU"), gpu)                   # (no GPU)
    assert not answered("Two runs on a GPU differ after step 100. Is my code wrong?", gpu)       # (no seed said)
    assert not answered(said + " One run diverges to nan at step 900.", gpu)
    assert not answered("Same seed on a GPU, but the two runs give completely different accuracies. Bug?", gpu)
    # (review s51 item 7: a paper's number is no second run; scores far apart; one run said, not two; other seed forms)
    assert not answered("Fixed seed, on an RTX 3090: my accuracy differs from the paper's by 5 points. Why?", gpu)
    assert not answered("Same seed on a V100, but the two runs differ a lot: 92% vs 61% accuracy.", gpu)
    assert not answered("I set the seed to 42 and train on a T4, but my validation loss is different from my training "
                        "loss.", gpu)
    assert answered("With seed 42 on an A100 two runs differ after step 500. Why?", gpu)
    assert answered("np.random.seed(0) and torch.cuda.manual_seed_all(0), on a T4, yet two runs differ in the 4th "
                    "decimal.", gpu)


def test_a_failure_at_a_learning_rate_of_zero_counts_twice_against_the_rate():
    """"Both learning rates set to 0" (an actor's and a critic's) is a rate of 0 too; at a rate of 0 no update ran, so
    what broke there no rate made -- twice the weight of a lower rate that did not help."""
    from trainwreck.rate_tried import rate_zero_failed
    said = "TD3 from scratch. With both learning rates set to 0 the first critic loss is still about 3e8."
    assert rate_zero_failed(said).startswith("both learning rates set to 0")
    log = "".join(f"upd {n} critic_loss {v}\n" for n, v in ((1, "3.1e+08"), (100, "2.9e+08"), (1000, "4.4e+10"),
                                                           (5000, "7.2e+13"), (9000, "inf"), (9100, "nan")))
    from trainwreck.weighing import W_TRIED
    assert weighed_parts(log + said, "WR-220")["tried"] == -2 * W_TRIED
    assert weighed_parts(log + "TD3 from scratch. Lowering the learning rate did not help.", "WR-220")["tried"] == -W_TRIED
    # (one group's rate at 0 leaves the others': no run at a rate of 0)
    frozen = "The backbone learning rates were set to 0 to freeze it, but the head still diverges to nan."
    assert not rate_zero_failed(frozen) and "rate-zero" not in weighed_parts(log + frozen, "WR-220")
    assert diagnosis(log + said).matches[0].entry.id == "WR-120"


def test_a_regression_start_in_number_words_reads_tens_and_hundreds_of_millions():
    """"Starts in the tens of millions and is still in the millions": ten million at the least, and still enormous --
    a regression loss in its targets' units, not a start that then fell."""
    from trainwreck.start_loss import regression_start_said
    assert regression_start_said("The MSE starts in the tens of millions and is still in the millions at the end.") \
        == (1e7, "mse starts in the tens of millions")
    assert regression_start_said("The loss starts in the hundreds of billions, still a billion after 40 epochs.")[0] \
        == 1e11
    assert regression_start_said("The loss starts in the tens of millions and then drops to 0.3.") is None


def test_one_output_read_with_a_word_for_what_the_outputs_are_of():
    from trainwreck.frozen_said import one_output_said
    assert one_output_said("The agent gives exactly the same action probabilities in every state I try.")
    assert one_output_said("The value head prints the same number for every state.")
    for other in ("the same class in every batch", "the same loss in every epoch", "it prints the same loss for "
                  "every epoch", "the model gives the same results in every run"):
        assert not one_output_said(other), other


def test_a_policy_trained_towards_a_search_is_no_policy_gradient_loss():
    """AlphaZero's policy loss is a cross-entropy against MCTS's visit counts, which measures agreement with the
    search: the policy-gradient answer (a surrogate near 0 by construction) is not its."""
    rl = "a reinforcement-learning loss"
    assert answered("PPO on Atari: the policy loss hovers around 0 and goes negative. Is it learning?", rl)
    assert not answered("AlphaZero-style self-play for Othello: the policy loss only falls from 2.1 to 1.9 though the "
                        "network's moves match MCTS more and more. Why so little?", rl)


def test_a_run_without_the_scaling_that_did_not_fail_is_no_unscaled_input():
    """"Trained on the unstandardised inputs it does not give nan" tells of a second run, fine without the scaling; the
    run in question is standardised -- by hand, "the mean and std of each column, computed and standardised with" --
    which a constant column turns into 0/0."""
    from trainwreck.input_scaling import scaled_said, standardised_by_hand
    assert scaled_said("The same net trained on the unstandardised inputs does not give nan.")["unscaled"] == {}
    assert scaled_said("The net is trained on unstandardised inputs and the loss is huge.")["unscaled"]
    assert standardised_by_hand("I compute the mean and std of every feature on the train split and standardise "
                                "with them.")
    assert not standardised_by_hand("I compute the mean and std of every feature to print them.")
    bar = "".join(f"Epoch 0:  {p}%| {n}/500 [00:0{k}<00:40, 10.1it/s, v_num=3, train_loss=nan]\n"
                  for k, (p, n) in enumerate(((4, 20), (40, 200), (80, 400))))
    text = ("Lightning, MSE on 30 sensor columns. I compute the mean and std of every column on the training frames "
            "and standardise with them. train_loss is nan from the first step:\n" + bar +
            "The same model on the unstandardised columns does not give nan.")
    assert "std-unguarded" in weighed_parts(text, "WR-060")
    assert diagnosis(text).matches[0].entry.id == "WR-060"


def test_each_item_standardised_on_its_own_and_one_loss_value_at_every_epoch():
    """"Standardises each window on its own" is each item by its own statistics (a flat window's std is 0, at whichever
    batch draws one); "the loss prints 2.302585 at every epoch" is a loss that never moves -- not a change "by 0.01
    each epoch", nor a count of prints."""
    from trainwreck.input_scaling import PER_ITEM
    from trainwreck.run_said import says_not_learning
    assert PER_ITEM.search("the Dataset normalizes every clip separately") and PER_ITEM.search(
        "__getitem__ standardises each window on its own")
    assert not PER_ITEM.search("the Dataset returns each window on its own")
    assert says_not_learning("The loss prints 2.302585 at every single epoch.")
    assert says_not_learning("the loss is 0.6931 every epoch")
    assert not says_not_learning("the loss drops by 0.01 each epoch")
    assert not says_not_learning("I print the loss 10 times each epoch")


def test_a_positive_log_probability_is_answered_only_for_a_continuous_policy_that_learns():
    """A density above 1 has a positive log: a Gaussian narrower than 1/sqrt(2 pi) is above 1 at its mean (checked
    here), and SAC aims the entropy at minus the number of action dimensions. Not for a discrete policy's
    log-probability, which is at most 0, nor where the return fell or a value went nan."""
    import numpy as np
    sigma = np.array([0.39, 0.41])
    peak = 1 / (sigma * np.sqrt(2 * np.pi))
    assert peak[0] > 1 > peak[1]
    density = "a positive log-probability of a continuous action"
    said = "SAC with a tanh-squashed Gaussian: the logged log_prob is positive, about +5. Is it broken?"
    assert answered(said, density)
    assert not answered("DQN on Atari with a softmax over 18 actions: the log_prob is positive. Bug?", density)
    assert not answered(said + " Also the return collapses after 200k steps.", density)
    assert not answered(said + " Then the critic loss goes nan.", density)


def test_an_accuracy_that_climbs_beside_a_loss_that_creeps_is_read_across_two_sentences():
    """"The cross-entropy is still above 4.9 and only creeping down. The accuracy keeps going up though." -- the
    cross-entropy by its name, "creeping down" as barely moving, and the two told side by side; not across a
    question, nor beside an accuracy that does not climb."""
    from trainwreck.softmax_floor import accuracy_rose_said
    assert accuracy_rose_said("The cross-entropy is still above 4.9 and only creeping down. The accuracy keeps going "
                              "up though.")
    assert accuracy_rose_said("Accuracy goes up. The loss barely moves.")
    assert not accuracy_rose_said("Accuracy goes up. Why? The loss barely moves.")
    assert not accuracy_rose_said("The loss barely moves. The accuracy is stuck at 10%.")
    assert not accuracy_rose_said("Does the accuracy go up? The loss barely moves.")


def test_a_failure_said_to_come_before_any_update_is_no_rates():
    """"No update has happened yet at that point, so the weights are still the initial ones": no rate has acted, as at
    a rate of 0 -- twice against the rate entries, and the forward pass from the initial weights or the data the
    suspects. Not asked, nor planned."""
    from trainwreck.rate_tried import broke_before_update, lr_tried
    said = ("My A2C crashes with a ValueError from Categorical after 40 env steps. No update has happened yet at that "
            "point, so the weights are still the initial ones.")
    assert broke_before_update(said) == "No update has happened yet"
    assert lr_tried(said) == "failed"
    from trainwreck.weighing import W_TRIED
    assert weighed_parts(said, "WR-220")["tried"] == -2 * W_TRIED
    assert "before-update" in weighed_parts(said, "WR-120")
    assert broke_before_update("It is nan before the first optimizer step.")
    assert not broke_before_update("Has no update happened yet at that point?")
    assert not broke_before_update("Maybe no update has happened yet, I should check.")


def test_a_lower_rate_that_broke_at_the_same_numbered_step_is_read():
    """"With lr 1e-4 and seed 42 it is still step 1356": a run at another rate that broke at the same place -- the rate
    left it where it was, so a batch of the data is the suspect."""
    from trainwreck.rate_tried import lr_tried, lr_tried_same_place
    said = ("Adam 1e-3: with seed 42 the first nan is at step 1356. With lr 1e-4 and seed 42 it is still step 1356.")
    assert lr_tried(said) == "failed" and lr_tried_same_place(said)
    assert lr_tried("Adam 1e-3: the first nan is at step 1356. With lr 1e-4 it trains fine.") != "failed"


def test_exps_divided_by_their_sum_and_a_cross_entropy_logged_by_hand_are_read_in_words():
    """Words of a construct, with no code shown: "weights exp(-E/kT) divided by their sum" is a softmax by hand with
    nothing subtracted (exp-unshifted, WR-020's); "a binary cross-entropy I wrote out myself with ops.log" takes the
    log of a probability by hand (log-unguarded, WR-030's) -- Keras 3's ops.log, and a cross-entropy's own words, as
    much as a sigmoid's. Not where the words subtract the max or name a logsumexp."""
    from trainwreck.breaking_constructs import breaking_construct, log_by_hand_said
    boltzmann = "The prediction is the Boltzmann average of the pose energies (weights exp(-E/kT) divided by their sum)."
    assert "exp-unshifted" in breaking_construct(boltzmann)
    assert "exp-unshifted" not in breaking_construct(boltzmann + " I subtract the max first.")
    assert "exp-unshifted" in breaking_construct("I take the exp of each score divided by the sum of the exps.")
    assert log_by_hand_said("The stop-token loss is a binary cross-entropy I wrote out myself with ops.log.")
    assert not log_by_hand_said("The stop-token loss is a binary cross-entropy I wrote out myself with ops.log and an "
                                "epsilon of 1e-7.")


def test_a_scale_printed_per_network_is_a_loss_scale():
    """A GAN with a GradScaler per network prints `d_scale` and `g_scale`: each a loss scale, and one halved at every
    step is every step overflowing. Not a CLIP model's `logit_scale`, nor an init's."""
    from trainwreck.loss_scale import scales_printed
    log = "".join(f"iter {i} | d nan | g nan | d_scale {2.0 ** (15 - i)} | g_scale {2.0 ** (15 - i)}\n" for i in range(31))
    assert scales_printed(log)[:4] == (32768.0, 32768.0, 16384.0, 16384.0) and len(scales_printed(log)) == 62
    assert scales_printed("step 10 logit_scale 100.0 init_scale 2.0") == ()
    assert "scale-collapse" in weighed_parts("autocast float16 with a GradScaler per network.\n" + log, "WR-040")


def test_adas_rising_augment_is_answered_only_while_the_fid_improves():
    ada = "StyleGAN2-ADA's augmentation probability"
    said = "StyleGAN2-ADA on 2k watch photos: augment keeps climbing, now 0.6. Is something wrong?"
    assert answered(said, ada)
    assert not answered(said + " The FID got worse over the last snapshots.", ada)
    assert not answered("Keras ImageDataGenerator: the augment step is slow and the loss keeps climbing.", ada)


def test_shorter_episodes_are_answered_only_where_success_ends_them_and_the_return_rises():
    short = "episodes that get shorter as the return rises"
    said = ("PPO on a maze; an episode ends when the agent reaches the exit. Episode length decreases and the reward "
            "increases. Why?")
    assert answered(said, short)
    assert not answered(said.replace("the reward increases", "the reward decreases"), short)
    assert not answered(said.replace("an episode ends when the agent reaches the exit", "episodes last 1000 steps"),
                        short)
    assert not answered(said + " Later the return collapses to -200.", short)


def test_the_s51_reviews_paraphrases_are_not_read_as_the_new_readings():
    """code_review_s51 items 2-4: a failed unscaled run is still an unscaled one; a feature, a column or a channel
    scaled on its own is scaled over the dataset, no item by its own statistics; a loss that moves by a step each
    epoch is no constant loss."""
    from trainwreck.input_scaling import PER_ITEM, scaled_said
    from trainwreck.run_said import says_not_learning
    for failed in ("I train on the raw features and it doesn't work: the loss is nan after 3 steps.",
                   "On the raw features it works for MNIST but gives nan on my data.",
                   "On the raw features training works at first, then explodes."):
        assert scaled_said(failed)["unscaled"] == {"inputs": "raw features"}, failed
    for dataset_wide in ("I standardize each feature independently with StandardScaler",
                         "I normalize each channel separately with the ImageNet mean and std",
                         "z-score every column separately using the training-set statistics"):
        assert not PER_ITEM.search(dataset_wide), dataset_wide
    for moving in ("the loss drops 0.01 every epoch", "the loss decreases about 0.05 each epoch",
                   "the loss changes by about 0.01 each epoch"):
        assert not says_not_learning(moving), moving


def test_a_warmup_named_after_a_preposition_is_none_removed_and_a_resumed_run_is_no_start():
    """review s51 items 10-11: "the loss dropped after warmup" removes no warmup; and a nan printed first at epoch 41,
    after a resume, is not from the start because the words say "at the start" of something else."""
    from trainwreck.schedule_said import NO_WARMUP
    assert NO_WARMUP.search("I removed the linear LR warmup") and NO_WARMUP.search("I removed the LinearLR warmup")
    assert not NO_WARMUP.search("The loss dropped after warmup") and not NO_WARMUP.search(
        "I dropped the learning rate after warmup")
    bar = "".join(f"Epoch {{e}}:  {p}%| {n}/500 [00:0{k}<00:40, 10.1it/s, v_num=3, train_loss=nan]\n"
                  for k, (p, n) in enumerate(((4, 20), (40, 200), (80, 400))))
    words = ("Lightning, MSE on 30 sensor columns. I compute the mean and std of every column on the training frames "
             "and standardise with them. ")
    resumed = words + "The run was fine at the start; after resuming from the epoch 40 checkpoint the loss is nan:\n"
    assert "std-unguarded" not in weighed_parts(resumed + bar.format(e=41), "WR-060")
    assert "std-unguarded" in weighed_parts(words + "train_loss is nan from the first step:\n" + bar.format(e=0),
                                            "WR-060")


def test_the_s51_reviews_minor_readings_hold():
    """review s51 items 12-14: one run's values set against each other by epoch are its curve; "still a million rows"
    is no loss; MCTS named as a plan leaves a PPO loss its answer; the same shape for every input is no one output."""
    from trainwreck.frozen_said import one_output_said
    from trainwreck.logscan import scan_text
    from trainwreck.start_loss import regression_start_said
    assert scan_text("the training loss is 0.69 at epoch 1 vs 0.45 at epoch 5 vs 0.31 at epoch 10").head == \
        [0.69, 0.45, 0.31]
    assert regression_start_said("The MSE starts in the tens of millions and falls to 12.5 by epoch 30, still a million "
                                 "rows to go through though.") is None
    assert answered("PPO on Atari: the policy loss hovers around 0 and goes negative. (Next I want to try MCTS.) Is it "
                    "learning?", "a reinforcement-learning loss")
    assert not one_output_said("the model prints the same shape for every input")


def test_a_failure_only_asked_about_is_no_failure_said():
    """"Is my data broken?" asks; it says nothing went wrong. A report whose only failure words are in yes/no questions,
    beside a run said to go well, is left alone -- not "cannot tell yet" with candidates its words barely match."""
    asked = ("Hundreds of parser warnings while building my graphs: is my data broken? Training afterwards looks "
             "normal to me: train loss 0.63 -> 0.29 over 60 epochs, val ROC-AUC 0.86. Should I worry?")
    assert diagnosis(asked).verdict not in ("failure", "uncertain")
    told = asked.replace("is my data broken?", "my data is broken.")
    assert diagnosis(told).verdict in ("failure", "uncertain")


def test_the_s51b_reviews_paraphrases_are_not_read_as_the_new_readings():
    """code_review_s51b: each reading of this session held to the paraphrases that over-read it."""
    import time
    from trainwreck.breaking_constructs import breaking_construct
    from trainwreck.curve_shape import ADAPTIVE_RATE_SAID
    from trainwreck.input_scaling import per_item, scaled_said
    from trainwreck.logscan import scan_text
    from trainwreck.loss_scale import keras_loop_unscaled, torch_autocast_unscaled
    from trainwreck.rate_tried import broke_before_update, rate_zero_failed
    from trainwreck.schedule_said import NO_WARMUP
    from trainwreck.softmax_floor import accuracy_rose_said
    import re
    # 1: a discrete policy's log-probability above 0 is a bug, and "never positive" is no question of it
    assert not answered("PPO on Atari Breakout, Categorical policy over 4 actions. The log_prob of the taken actions is "
                        "positive, about +0.7. Is that a bug?", "a positive log-probability")
    # 2-3: a part kept still, and one group's rate of 0, are no run without updates
    assert broke_before_update("I checked that the frozen backbone weights are still the initial ones.") == ""
    for group in ("The backbone lr is 0 to freeze it, but the head still diverges to nan",
                  "With lr=0 for the embedding layer the loss is still nan",
                  "learning rate 0 for the backbone, 1e-3 for the head: still nan"):
        assert rate_zero_failed(group) == "", group
    # 4: a train_step said not overridden
    assert keras_loop_unscaled("DCGAN with keras.mixed_precision.set_global_policy(\"mixed_float16\"). I did not "
                               "override train_step: the GAN is compiled and trained with train_on_batch.") == ""
    # 5: several runs' final losses set side by side are no curve
    assert scan_text("The final training loss is 0.8731 vs 1.2914 vs 2.9020 for Adam, SGD and RMSprop.").count == 0
    # 7: a conjunction is no schedule's name
    assert not NO_WARMUP.search("I turned off AMP and warmup still runs")
    # 8: a FID said to rise in numbers; an episode ended by a step limit; two seeds
    assert not answered("StyleGAN2-ADA on 2k photos: augment keeps climbing, and the FID went from 40 to 75. Wrong?",
                        "StyleGAN2-ADA's augmentation")
    assert not answered("Walker: an episode ends when it falls or reaches the 1600-step limit. Episode length decreases "
                        "and the reward increases.", "episodes that get shorter")
    assert not answered("On an A100, one run with seed=0 and one with seed=1: the two runs differ, 91.2% and 91.9%.",
                        "runs with the same seed")
    assert not answered("SB3 PPO prints \"Early stopping at step 0 due to reaching max kl: 0.09\" after every rollout "
                        "and the agent is not learning at all.", "Stable-Baselines3 PPO's early stop")
    # 9: the bare-autocast import is found once (linear), and AMP switched off over lines is off
    start = time.perf_counter()
    torch_autocast_unscaled("from torch.cuda.amp import " * 2000 + "\nloss.backward()")
    assert time.perf_counter() - start < 0.5
    assert torch_autocast_unscaled("with torch.autocast('cuda', dtype=torch.float16,\n        enabled=False):\n"
                                   "    loss = f(x)\nloss.backward()") == ""
    # 10-11: an item scaled with the dataset's statistics; a run fine only for a while
    said = "I normalize each image separately with the dataset mean and std. x = (x - m) / s"
    assert per_item(said, re.search(r"/ s", said)) is None
    assert scaled_said("On raw features it trains fine for the first 3 epochs, and at epoch 4 the loss is nan")[
        "unscaled"]
    # 12: another setting's number is no rate
    assert ADAPTIVE_RATE_SAID.search("Adam (betas 0.9, 0.999)") is None
    assert ADAPTIVE_RATE_SAID.search("AdamW with dropout 0.1") is None
    # 13: a plateau that then ended
    assert accuracy_rose_said("For 5 epochs the cross-entropy barely moves. From epoch 6 on it drops to 0.9 and the "
                              "accuracy goes up to 72%.") == ""
    # (and a search only planned, in the policy's sentence)
    assert answered("PPO on Atari: the policy loss hovers around 0 and goes negative. (Next I want to try MCTS to "
                    "improve the policy.) Is it learning?", "a reinforcement-learning loss")
    # 14: a shift said in other words, or a library's softmax
    assert "exp-unshifted" not in breaking_construct("weights exp(-E/kT) divided by their sum, after subtracting the "
                                                     "minimum energy")
    assert "exp-unshifted" in breaking_construct("attention weights exp(q.k/sqrt(d)) divided by their sum")


def test_a_loss_said_to_fall_faster_than_its_reference_and_then_turn_is_the_summed_gradients_start():
    """A loss that outran the run it copies and then turned back up, into swings or to nan: an update built from every
    gradient since the last clearing pushes further than a correct one's, WR-260's own start (half a printed fact).
    Not a speed, a question, a validation curve, a run changed on purpose, nor a fast fall that never turned."""
    from trainwreck.run_said import faster_start_said
    for said in ("My port to Flax learns faster than the original Keras model for two epochs. Then the loss climbs "
                 "back and is nan by epoch 5.",
                 "The loss goes down more quickly than in the paper's curves, then it oscillates harder and harder.",
                 "Accuracy reaches 90% quicker than my labmate's copy of the notebook, but after that the loss turns "
                 "around and creeps back up.",
                 # (the same model elsewhere is a run of reference too: a port's twin)
                 "At first the loss drops much faster than the same model did in TensorFlow, then it swings harder "
                 "until nan."):
        assert faster_start_said(said), said
    for said in ("Each epoch runs faster than before and the loss is nan at epoch 3.",
                 "Why does the loss fall faster than the reference and then go up?",
                 "The loss falls faster than the baseline and ends at 0.12. The validation loss climbs after epoch 9.",
                 "With a higher learning rate it drops faster than the reference, then diverges.",
                 "The loss falls faster than in the reference run and keeps falling to 0.08.",
                 "The loss falls faster than with the same model at batch 16, and then diverges.",
                 "At lr 1e-2 the loss drops faster than the same model at lr 1e-3, then it swings up to nan.",
                 "The loss falls faster than the same network trained with SGD, then diverges."):
        assert not faster_start_said(said), said
    d = diagnosis("Seq2seq chemistry model in my own loop: the loss drops faster than the reference implementation "
                  "for the first thousand steps, then drifts back up and wanders.\n")
    assert d.matches[0].entry.id == "WR-260"
    assert any("fell faster than the run it is compared with" in e for e in d.matches[0].evidence)


def test_autocast_to_float16_said_in_words_with_no_scaler_named_is_the_unscaled_loop():
    """"I wrapped the forward pass in torch.autocast with float16", in a report that names no GradScaler, no loss scale
    and no bfloat16: float16 gradients unscaled, half a printed fact for the half-precision entry, as the same loop
    pasted as code is. Not where a scaler or bfloat16 is named, nor where the words deny it."""
    from trainwreck.loss_scale import autocast_unscaled_said
    assert autocast_unscaled_said("To save memory I run the forward pass and the loss under torch.autocast with "
                                  "float16.") == "torch.autocast with float16"
    assert autocast_unscaled_said('I added `torch.autocast("cuda", dtype=torch.float16)` around the model call.') \
        == 'torch.autocast("cuda", dtype=torch.float16)'
    assert autocast_unscaled_said("Since I switched to fp16 autocast the loss stops falling.") == "fp16 autocast"
    for said in ("I use torch.autocast with float16 and a GradScaler.",
                 "torch.autocast with float16; the scaler's scale is printed each epoch.",
                 "The forward pass runs under autocast with bfloat16 (not fp16).",
                 "Without torch.autocast to float16 the run was fine, so I left it out.",
                 "Should I use torch.autocast with float16?"):
        assert autocast_unscaled_said(said) == "", said
    d = diagnosis("3D U-Net for dose maps. I put the forward pass and the MSE loss inside torch.autocast with float16 "
                  "to fit the volumes, and now the loss stops going down after two epochs, four times higher than in "
                  "float32. No nan, no warning.\n")
    assert d.matches[0].entry.id == "WR-040"
    assert any("names no GradScaler" in e and "round to 0" in e for e in d.matches[0].evidence)


def test_each_item_scaled_by_its_own_statistics_said_in_words():
    """"Each frame is scaled to 0..1 using its own minimum and maximum", "every snapshot is normalised on its own", with
    no code to show the division, beside a nan: an item whose values are all equal has a range and a standard deviation
    of 0, so 0/0 at whichever batch first holds one (half a printed fact for WR-060). Not the dataset's statistics, not
    denied, and not after a whole epoch of finite losses, which every item has passed through once."""
    from trainwreck.input_scaling import per_item_said
    assert per_item_said("Each frame is scaled to 0..1 using its own minimum and maximum.")
    assert per_item_said("Every snapshot is normalised on its own before the model sees it.")
    assert per_item_said("Each clip gets standardized separately.")
    assert not per_item_said("Each frame is normalised with the dataset mean and std, not its own mean and std.")
    assert not per_item_said("I do not normalise each image separately.")
    # (the code shows the division, guarded: what it does is read from the code, not the words)
    assert not per_item_said("Each clip gets standardized separately:\nx = (x - x.mean()) / (x.std() + 1e-6)\n")
    said = ("Seismic picking CNN: every trace is normalised on its own, and the loss is nan from the second batch on. "
            "The files have no nan.\n")
    d = diagnosis(said)
    assert d.matches[0].entry.id == "WR-060"
    assert any("scaled by its own statistics" in e and "range (max - min) of 0" in e for e in d.matches[0].evidence)
    later = said + "".join(f"Epoch {e}/10 - loss: {v}\n" for e, v in ((1, 0.91), (2, 0.74), (3, "nan")))
    assert not any("scaled by its own statistics" in e for m in diagnosis(later).matches for e in m.evidence)


def test_a_loss_said_to_jump_and_then_freeze_at_one_value_is_the_dead_units_stall():
    """"The loss spikes twice, and since then it is 0.4121 at every single epoch": a step that threw the loss up can push
    ReLU units below zero for every input, and a layer of dead units gives one output whatever the input (half a printed
    fact for WR-140). The jump said before the freeze; not asked, not a freeze before the jump, nor a jump alone."""
    from trainwreck.frozen_said import froze_after_jumps_said
    for said in ("The loss spikes twice, and since then it is 0.4121 at every single epoch.",
                 "There were a few jumps early on. Since then the loss has not changed at all.",
                 "It shot up at epoch 3 and now prints exactly the same value every epoch, to the last digit."):
        assert froze_after_jumps_said(said), said
    for said in ("The loss jumps around a lot and does not go down.",
                 "The loss was frozen at 0.69 for ten epochs, then it jumped and trained normally.",
                 "Why does the loss jump and then stay at the same value every epoch?"):
        assert not froze_after_jumps_said(said), said
    d = diagnosis("Gesture classifier, small MLP with ReLU layers, plain SGD. The loss went down for two epochs with a "
                  "couple of jumps, and after that it shows the exact same number every epoch. Every sample gets the "
                  "same class.\n")
    assert d.matches[0].entry.id == "WR-140"
    assert any("jumped and then froze at one value" in e for e in d.matches[0].evidence)


def test_a_score_that_climbs_beside_a_loss_floor_and_a_model_said_to_end_in_probabilities():
    """"Validation AUC climbs to 0.9 but the loss won't go below 0.69", "it gets 97% accuracy, but the loss never goes
    below about 0.6": a score that climbs beside a loss stopped at a floor, the face of probabilities handed to a loss
    that applies its own sigmoid or softmax (half a printed fact for WR-130). And the model said to end in one ("an MLP
    that ends in nn.Sigmoid()", segmentation_models_pytorch's activation set to softmax2d) beside a loss that takes
    logits: the pairing, as a pasted model's. Not denied, not the validation loss, nor a Keras pairing."""
    from trainwreck.softmax_floor import accuracy_rose_said
    from trainwreck.loss_inputs import model_ends_said
    assert accuracy_rose_said("Validation AUC climbs to 0.9 but the loss won't go below 0.69.")
    assert accuracy_rose_said("It gets 97% accuracy on the test set, but the training loss never goes below about 0.6.")
    assert accuracy_rose_said("mIoU keeps climbing, the loss flattens out around 1.0 and never goes lower.")
    assert not accuracy_rose_said("The accuracy climbs and the validation loss never goes below 0.4.")
    assert not accuracy_rose_said("The accuracy doesn't improve and the loss never goes below 2.3.")
    assert model_ends_said("A small MLP that ends in nn.Sigmoid(), trained with BCEWithLogitsLoss.")
    assert model_ends_said("Unet with activation set to softmax2d.")
    assert not model_ends_said("The model does not end with a softmax.")
    d = diagnosis("Spam filter: bag of words into an MLP that ends in nn.Sigmoid(), trained with nn.BCEWithLogitsLoss. "
                  "Test accuracy is 97%, but the training loss never goes below about 0.62.\n")
    assert d.matches[0].entry.id == "WR-130"
    assert any('the report says the model ends in probabilities ("mlp that ends in nn.sigmoid()")' in e
               and "`nn.BCEWithLogitsLoss`" in e for e in d.matches[0].evidence)
    keras = diagnosis("Keras model whose last Dense layer has activation='softmax', loss categorical_crossentropy. "
                      "Accuracy climbs to 90% but the loss never goes below 0.9.\n")
    assert not any("ends in probabilities" in e for m in keras.matches for e in m.evidence)


def test_inputs_read_in_the_files_raw_units_with_no_scaling_said():
    """scipy's wavfile.read gives 16-bit PCM as int16 (-32768 to 32767), a 16-bit image holds up to 65535, rasterio
    gives a raster's stored numbers: read so, with nothing anywhere said of scaling them, beside a run that went wrong,
    they are inputs of that size fed as they are (half a printed fact for WR-330). Not where any scaling is said, nor
    where features are computed from the samples."""
    from trainwreck.data_values import raw_units_read
    assert raw_units_read("I load the 16-bit PNG depth frames with OpenCV and make float tensors.")[1] \
        .startswith("a 16-bit image's values, up to 65535 where it is read at its own depth")
    assert "int16" in raw_units_read("Read with scipy.io.wavfile.read, padded to 1 s, fed to a Conv1D.")[1]
    assert raw_units_read("The bands come from rasterio, stacked into a float32 array.")
    assert raw_units_read("Read with scipy.io.wavfile.read and divided by 32768.") is None
    assert raw_units_read("rasterio reads the bands and I normalise each band with its mean and std.") is None
    assert raw_units_read("I read the wav with wavfile.read and compute MFCCs from it.") is None
    d = diagnosis("Box segmentation from a top-down depth camera: 16-bit PNGs in millimetres, loaded with OpenCV into "
                  "float tensors. From the first epoch the loss sits at one value and every pixel is background.\n")
    assert d.matches[0].entry.id == "WR-330"
    assert any("as the file stores them (a 16-bit image's values, up to 65535" in e for e in d.matches[0].evidence)


def test_one_class_said_in_quotes_and_a_model_that_learned_its_training_data():
    """"every single sample is predicted "none"", "predicts "no break" for everything": one output for every input, the
    class quoted. Beside a training accuracy said to be 90% or more it weighs for no entry: a network that learned its
    training data passes its input on, so one class at test time is no dead or symmetric network's face -- though no
    normal run gives it either."""
    from trainwreck.frozen_said import one_output_said, one_output_untrained
    assert one_output_said('On validation every single sample is predicted "none".')
    assert one_output_said('The model predicts "no fault" for everything.')
    assert not one_output_said('All images are predicted "cat" or "dog" at random.')
    high = ('Training accuracy is 0.97, but on the test set it predicts "urban" for all images.',
            'The batch accuracy in the training loop is 98%; at test time every image is predicted as "forest".')
    for said in high:
        assert one_output_said(said) and not one_output_untrained(said), said
    assert one_output_untrained('Training accuracy stays at 0.31 and it predicts "urban" for all images.')
    d = diagnosis("TF 1.15 CNN on land-use tiles. " + high[0] + "\n")
    assert d.verdict != "normal" and not any(m.parts.get("one-output") for m in d.matches)


def test_code_review_s52_readings_stay_where_they_belong():
    """(code_review_s52) Each reading of this session, quiet on what the review showed it misread -- a slower cure, a
    question, another setting compared, a denied turn, a scaler denied or added by a tool, a length cut to -- and still
    read where it is told."""
    import time
    from trainwreck.rate_tried import lr_tried
    from trainwreck.run_said import faster_start_said
    from trainwreck.loss_scale import autocast_unscaled_said
    from trainwreck.start_loss import early_jump_back_said
    from trainwreck.class_count import vocabulary_named
    # 1-5: a slower cure, a point that is no failure's, another word's "divid", a question: not put off
    for said in ("With a learning rate ten times smaller it takes more epochs to converge, but it never goes nan.",
                 "I reduced the learning rate to 1e-4 and it takes longer but reaches the same result, 0.93 F1.",
                 "With the lr 10x lower it takes longer to train but ends in the same place as the paper.",
                 "I lowered the lr and pushed the decay point later, and now it trains fine.",
                 "Would making the learning rate smaller only delay it?"):
        assert lr_tried(said) != "delayed", said
    assert lr_tried("Using individual learning rates per layer the loss is still nan.") == ""
    assert lr_tried("Dividing the learning rate by 10 fixes it.") == "helped"
    assert lr_tried("I made the learning rate smaller and that fixed it.") == "helped"
    # 6: more counts, a multiplier, an order of magnitude
    for said in ("I lowered the lr to 1e-4 and it takes 3 more epochs before it blows up.",
                 "I made the learning rate 10x smaller and it only takes a few more epochs before it goes nan.",
                 "With a learning rate an order of magnitude lower it does the same thing, only later."):
        assert lr_tried(said) == "delayed", said
    # 7: linear on a long run of spaces after the rate (0.15 s here on one free core; a quadratic scan takes minutes, so
    # the bound leaves room for a machine loaded by the other test process)
    start = time.perf_counter()
    lr_tried("dividing lr" + " " * 20000)
    assert time.perf_counter() - start < 1.5
    # 8-9: a run of reference, a turn not denied, of the training loss
    for said in ("With Adam the loss drops faster than with SGD, then it oscillates a bit.",
                 "Training loss decreases faster than the val loss. After epoch 10 the gap gets worse.",
                 "The loss falls faster than the reference and keeps falling to 0.08. I never see it go back up.",
                 "My port learns faster than the original and I see no nan or inf anywhere.",
                 "The loss falls faster than the reference and ends lower, but the final accuracy is worse.",
                 "The loss falls faster than the reference, and inference is faster too."):
        assert not faster_start_said(said), said
    for said in ("The loss decreases faster than in the reference implementation, then it increases again.",
                 "My loss drops way faster than the tutorial's for 3 epochs, then it shoots up.",
                 "The loss falls faster than the original per epoch for the first 5 epochs, then it climbs back up."):
        assert faster_start_said(said), said
    log = "".join(f"Epoch {n}/300 - loss: {2.0 - n / 200:.4f}\n" for n in range(1, 261))
    assert faster_start_said(log + "It fell faster than the tutorial's run, then it climbed back up.")
    # 14: a scaler denied is the fact; a tool that scales on its own, a run taken out or another's, are not
    assert autocast_unscaled_said("Forward pass under torch.autocast with float16, no GradScaler, no loss scaling.")
    assert autocast_unscaled_said("I wrapped the model call in torch.cuda.amp.autocast() to save memory.") \
        == "cuda.amp.autocast()"
    for said in ("I fine-tune with the HF Trainer and fp16=True, so the forward runs under autocast in fp16.",
                 'Lightning Trainer with precision="16-mixed", i.e. autocast to float16.',
                 "Keras model with the mixed_float16 policy; its layers autocast their inputs to float16.",
                 "I removed torch.autocast with float16 and it still fails the same way.",
                 "The original repo trains with torch.autocast and fp16; I train in float32.",
                 "Since I enabled torch.autocast the epoch time was cut in half, but the loss stalls."):
        assert autocast_unscaled_said(said) == "", said
    # 15-16: each epoch's start is no run's start; a jump from one number to another, said with other verbs
    assert not early_jump_back_said("At the start of every epoch the loss doubles and then comes back down. AdamW.")
    # (code_review_s52b #20: a word may qualify the epoch)
    assert not early_jump_back_said("At the start of each training epoch the loss doubles, then comes back down.")
    assert early_jump_back_said("In the first 1k steps the loss jumps from 2.3 to 9, then comes back down.")
    assert early_jump_back_said("In the first couple dozen steps the loss goes from .5 to 1.4, then it recovers.")
    # 17: a length the tokenizer cuts to is no vocabulary
    for said in ("I call the tokenizer with a max length of 128 tokens.", "we run the tokenizer with 512 tokens per "
                 "sequence", "the tokenizer truncates each sequence of 512 tokens",
                 # (code_review_s52b #21)
                 "the tokenizer (64 tokens max) pads every caption", "the tokenizer with 77 tokens at most"):
        assert vocabulary_named(said) is None, said
    assert vocabulary_named("the GPT-2 tokenizer (50257 tokens)")[0] == 50257
    # (code_review_s52b) a spike at each epoch's start, a value logged at every step, a rate frozen; a chance accuracy
    # and a bound; a rise said of the accuracy, the reporter's own setting; a hidden layer's activation; a guarded
    # division shown; a function that returns something
    from trainwreck.frozen_said import TRAINING_ACCURACY_HIGH, froze_after_jumps_said
    from trainwreck.loss_inputs import model_ends_said
    from trainwreck.input_scaling import per_item_said
    from trainwreck.curve_shape import GROWS_WHEN_HEALTHY
    for said in ("The loss spikes at every epoch boundary.", "The training loss is spiky. I log it at every step.",
                 "There is a big spike around step 4000. The learning rate is frozen at 1e-5 after that.",
                 "No spikes, it just sits frozen at 0.69.",
                 "It jumps between 0.01 and 0.2 on every step."):
        assert not froze_after_jumps_said(said), said
    for said in ("Training accuracy is stuck at 10.9%.", "training accuracy never goes above 0.9"):
        assert not TRAINING_ACCURACY_HIGH.search(said), said
    assert not faster_start_said("The loss falls faster than the reference, then the accuracy increases.")
    assert not faster_start_said("The loss falls faster than my SGD run, then it climbs.")
    assert not model_ends_said("Hidden layers: activation is sigmoid, BCEWithLogitsLoss.")
    assert not model_ends_said("The attention ends with a softmax over the keys.")
    assert not per_item_said("Each clip gets standardized separately:\n    x /= x.std() + 1e-6\n")
    assert not GROWS_WHEN_HEALTHY.search("My model returns logits")
    start = time.perf_counter()
    per_item_said("The loss is nan. Each frame is scaled on its own.\n" + ("=" * 200 + "/" * 280 + "\n") * 200)
    assert time.perf_counter() - start < 0.5


def test_spikes_in_a_curve_said_not_to_fall_are_not_the_normal_noise():
    """"The loss doesn't go down, it jumps up and down from batch to batch": the normal answer for spikes is a curve that
    trends down, which the words deny; asked beside a curve said to fall, it is still given."""
    assert not answered("Keras LSTM on tweets, Adam. The loss doesn't go down, it jumps up and down from batch to batch "
                        "and some epochs end higher than the first one.", "spikes in a falling")
    assert answered("Keras LSTM on tweets, Adam. The loss goes down overall but jumps up now and then from batch to "
                    "batch; is that a problem?", "spikes in a falling")


def test_a_resize_or_a_normalisation_layer_is_no_item_scaled_by_its_own_statistics():
    """(code_review_s52b #3) "scaled individually to 224x224" is a resize, and a LayerNorm or InstanceNorm scales each
    item by its own statistics by design: neither says the inputs were. Values scaled separately still are."""
    from trainwreck.input_scaling import per_item_said

    assert not per_item_said("Each image is scaled individually to 224x224 before batching.")
    assert not per_item_said("Each sample is normalized independently by a LayerNorm at the input.")
    assert not per_item_said("Every sequence is normalised separately by the InstanceNorm layer.")
    assert per_item_said("Each window is scaled separately to zero mean and unit variance.")
    assert per_item_said("Each image is scaled individually, to 0..1.")


def test_a_reader_of_raw_units_is_read_for_the_inputs_it_reads_as_they_are():
    """(code_review_s52b #12) rasterio reading the label rasters alone, or 16-bit files said to be converted to 8 bits or
    JPEG, say nothing of inputs fed in raw units. The bands, or 16-bit depth maps beside masks, still do."""
    from trainwreck.data_values import raw_units_read

    assert raw_units_read("The label rasters are read with rasterio and the loss is nan.") is None
    assert raw_units_read("The scans are 16-bit TIFFs converted to JPEG before training.") is None
    assert raw_units_read("The inputs are 16-bit PNGs, exported as uint8 first.") is None
    assert raw_units_read("I read the Sentinel bands and the label rasters with rasterio.")[0] == "rasterio"
    assert raw_units_read("The 16-bit depth maps and the masks are both read as they are.")[0] == "16-bit depth maps"
    # (review s53 #11: what the run writes is not what it reads; a DEM beside the labels is an input)
    assert raw_units_read("I read the bands with rasterio and save the predictions as JPEG.")[0] == "rasterio"
    assert raw_units_read("rasterio reads the label raster and the DEM.")[0] == "rasterio"
    assert raw_units_read("rasterio reads the single-channel label masks, 512 x 512 each.") is None


def test_the_uniform_guess_worked_out_names_the_class_count():
    """A report that works out the uniform guess's loss, "ln(500) = 6.2", names its 500 classes: the log's value beside
    it must be ln K, within 5%, so that no other logarithm reads as one. The benchmarks whose names carry their counts
    name them too."""
    from trainwreck.class_count import classes_named

    assert classes_named("The start should be near ln(500) = 6.2 for a fresh model.")[0] == 500
    assert classes_named("I expected -log(1/20) ≈ 3.0 at step 0.")[0] == 20
    assert classes_named("log(10) = 1 in base ten, as we all know.") is None
    assert classes_named("eps keeps it finite: np.log(1e-8) = -18.4") is None
    assert classes_named("PointNet++ on ModelNet40, 1024 points each.")[0] == 40
    assert classes_named("ResNet-18 on Tiny ImageNet at 64x64.")[0] == 200
    # (review s53 #8, #12: a logarithm worked out for something else, or a dataset a backbone borrows from, is none)
    assert classes_named("logit_scale is clamped at ln(100) = 4.605, as in the paper; the first loss is 19.7.") is None
    assert classes_named("The discriminator loss sits at log(4) = 1.386, the equilibrium.") is None
    # (review s53b #5, #10: a cross-entropy is no refused entropy, a value may end its sentence, trained on is the task)
    assert classes_named("With cross-entropy the first loss should be ln(10) = 2.30, but it starts at 14.")[0] == 10
    assert classes_named("I expected the first loss to be ln(20) = 3.00.")[0] == 20
    assert classes_named("A small CNN trained on CIFAR-10 with SGD.")[0] == 10
    for borrowed in ("ResNet-18 pretrained on Places365, fine-tuned on my room photos.", "Food-101 weights, then my dishes",
                     "Images are normalized with the ImageNet mean/std.", "ResNet50(weights='imagenet', include_top=False)"):
        assert classes_named(borrowed) is None, borrowed
    # the words' first loss far above it is read as outputs broken from the start: weights or inputs
    said = ("Dot-product retrieval with 200 candidates per query, cross entropy over them; I expected the first loss "
            "near ln(200) = 5.3, but the first loss is 640 before any update.\n")
    d = diagnosis(said)
    # (review s53b #15: the loss is the number the words give, not the one inside the logarithm beside it)
    assert any('the loss before any update as 640 ("first loss is 640")' in e for m in d.matches for e in m.evidence)
    shown = [m.entry.id for m in d.matches if any("ln 200 = 5.298" in e for e in m.evidence)]
    assert {"WR-120", "WR-330"} <= set(shown) and shown[0] == d.matches[0].entry.id
    assert not diagnosis(said.replace("ln(200) = 5.3", "a small number")).matches


def test_two_embedding_tables_started_at_zero_and_multiplied_never_move():
    """The gradient of each factor of a product is the other factor: two embedding tables started at zero and multiplied
    never move, however healthy the curve (the output layer's bias learns the base rate). One zero table alone, two
    that are added, or a zero table beside the product but not in it, train."""
    keras = ("u = layers.Embedding(n_users, 16, embeddings_initializer='zeros')(user)\n"
             "v = layers.Embedding(n_items, 16, embeddings_initializer='zeros')(item)\n"
             "score = layers.Dot(axes=1)([layers.Flatten()(u), layers.Flatten()(v)])\n"
             "out = layers.Dense(1, activation='sigmoid')(score)\n")
    curve = "".join(f"Epoch {e}/5\n100/100 - 1s - loss: {v:.4f}\n" for e, v in enumerate((0.69, 0.52, 0.51, 0.51), 1))
    d = diagnosis(keras + curve)
    assert d.matches and d.matches[0].entry.id == "WR-110"
    assert "two embedding tables at zero" in " ".join(d.matches[0].evidence)
    one = keras.replace("v = layers.Embedding(n_items, 16, embeddings_initializer='zeros')", "v = layers.Embedding(n_items, 16)")
    apart = keras.replace("layers.Dot(axes=1)", "layers.Concatenate()")
    added = ("tok = layers.Embedding(V, 64)(ids)\npos = layers.Embedding(512, 64, embeddings_initializer='zeros')(p)\n"
             "seg = layers.Embedding(2, 64, embeddings_initializer='zeros')(s)\nx = tok + pos + seg\n"
             "w = tf.matmul(q, k, transpose_b=True)\n")
    beside = ("    self.user = nn.Embed(nu, 32, embedding_init=nn.initializers.zeros)\n"
              "    self.bias = nn.Embed(nu, 1, embedding_init=nn.initializers.zeros)\n    self.item = nn.Embed(ni, 32)\n"
              "    return jnp.einsum('bd,bd->b', self.user(u), self.item(i)) + self.bias(u)[:, 0]\n")
    for text in (one, apart, added, beside):
        assert not any("embedding tables" in e for m in diagnosis(text + curve).matches for e in m.evidence), text
    both = beside.replace("self.item = nn.Embed(ni, 32)", "self.item = nn.Embed(ni, 32, embedding_init=nn.initializers.zeros)")
    assert any("embedding tables" in e for m in diagnosis(both + curve).matches for e in m.evidence)


def test_a_forward_said_just_above_its_last_lines_is_read_as_the_model_output():
    """"Last lines of my forward:" and then the lines: the model returns what they return, here a softmax handed to
    CrossEntropyLoss. A softmax returned by a helper the words do not call forward is not the model's."""
    from trainwreck.loss_inputs import model_output

    said = "Last lines of my forward:\n\n    h = self.drop(self.fc2(h))\n    return torch.softmax(self.fc3(h), dim=-1)\n"
    assert model_output(said).group(0).startswith("return torch.softmax")
    assert model_output("A helper for the attention:\n\n    return torch.softmax(scores, dim=-1)\n") is None
    # (review s53 #4: a helper forward calls, or a def between the words and the return, is not forward's end)
    assert model_output("My forward is long; this is the attention helper it calls:\n\n"
                        "    scores = q @ k.transpose(-2, -1)\n    return torch.softmax(scores, dim=-1)\n") is None
    assert model_output("In forward() I call this:\n\ndef pick(s):\n    return torch.softmax(s, dim=-1)\n") is None
    # (review s53b #9: in a Markdown fence, indented or not, the header is the line above the fence)
    for fenced in ("Last lines of my forward:\n```python\n        h = self.fc2(h)\n        return torch.softmax(h, dim=-1)\n```\n",
                   "Last lines of my forward:\n```\nh = self.fc2(h)\nreturn torch.softmax(h, dim=-1)\n```\n"):
        assert model_output(fenced) is not None, fenced
    assert model_output("The attention helper:\n```\nreturn torch.softmax(s, dim=-1)\n```\n") is None


def test_an_smp_model_built_with_an_output_activation_returns_probabilities():
    """segmentation_models_pytorch applies a constructor's `activation` in its head's forward: beside BCEWithLogitsLoss
    that is probabilities handed over as logits. An activation outside the constructor's call is not its."""
    from trainwreck.loss_inputs import model_output

    built = 'net = smp.FPN(encoder_name="efficientnet-b0", classes=3,\n              activation="softmax2d")\n'
    assert model_output(built).group(0) == 'activation="softmax2d"'
    assert model_output('net = smp.FPN(classes=1)\nhead = Head(activation="sigmoid")\n') is None
    # (review s53 #5: the classification head's activation, and a log-softmax a cross-entropy takes as logits)
    assert model_output('net = smp.Unet("resnet34", classes=1,\n    aux_params=dict(classes=1, activation="sigmoid"))\n') is None
    assert model_output('net = smp.Unet("resnet34", classes=5, activation="logsoftmax")\n') is None
    d = diagnosis(built.replace("softmax2d", "sigmoid").replace("classes=3", "classes=1")
                  + "loss_fn = nn.BCEWithLogitsLoss()\nThe loss stops at 0.66 while the IoU improves.\n")
    assert d.matches[0].entry.id == "WR-130"


def test_an_overlap_score_is_a_value_not_a_count_said_after_it():
    """"The Dice keeps improving for 25 more epochs" gives no Dice of 25; "Dice: 1.87" is one outside [0, 1]."""
    from trainwreck.run_said import score_out_of_range

    assert score_out_of_range("The Dice keeps improving for 25 more epochs.") == ""
    assert score_out_of_range("the IoU rises over 12+ epochs") == ""
    assert score_out_of_range("val Dice: 1.87") == "Dice: 1.87"


def test_imagenet_statistics_or_weights_do_not_make_a_regression_a_classifier():
    """A backbone's inputs normalised with ImageNet's statistics, or its weights, say nothing of the task: a network
    that regresses four numbers with an MSE is a regression's run."""
    from trainwreck.run_kind import CLASSIFIER

    assert not CLASSIFIER.search("Images are normalized with the ImageNet mean/std.")
    assert not CLASSIFIER.search("an ImageNet-pretrained ResNet-50 regressing age")
    assert CLASSIFIER.search("fine-tuning on ImageNet")


def test_a_list_of_tries_whose_header_ends_a_sentence_line_is_read_as_tried():
    """"... and it stays nan. Things I tried:" and a list: each item was tried, though the header does not start its
    line."""
    from trainwreck.rate_tried import lr_tried_same_place

    text = ("It is nan from step 5300 on, every time. Things I tried:\n- lr 3e-5 instead of 3e-4: nan at the same "
            "step\n- a smaller batch\n")
    assert lr_tried_same_place(text)
    assert not lr_tried_same_place(text.replace("Things I tried:", "Things I will try next:"))


def test_the_largest_value_of_what_the_code_hands_exp_printed_past_its_limit():
    """A paste whose code takes `jnp.exp(log_scale - 0.5)` and that prints "max(log_scale) = 90.2" hands exp 89.7, past
    float32's 88.72: an overflow the run's own numbers show. Below the limit once the shift is taken off, or a name
    the code does not exp, it is not."""
    from trainwreck.exp_limits import printed_exp_input

    code = "    scale = jnp.exp(log_scale - 0.5)\n"
    assert "exp(89.7) is past the largest float32" in printed_exp_input(code + "max(log_scale) = 90.2\n", "float32")
    assert printed_exp_input(code + "max(log_scale) = 89.0\n", "float32") == ""
    assert printed_exp_input(code + "max(offset) = 95.0\n", "float32") == ""
    assert printed_exp_input("    s = np.exp(z)\nz.max() = 712.5\n", "float64").startswith("the paste prints the largest z")
    # (the tensor's own method too)
    assert "exp(93.7) is past the largest float32" in printed_exp_input("    v = logvar.exp()\nlogvar.max() = 93.7\n", "float32")
    # (review s53 #1: a count after the name is no value of it; math.exp computes in float64 and raises instead)
    assert printed_exp_input(code + "I log the largest log_scale of 1000 batches: 12.3.\n", "float32") == ""
    assert printed_exp_input("    ppl = math.exp(loss)\nthe largest loss was 120\n", "float32") == ""
    # (and only beside a run that went non-finite, or words that say so)
    healthy = code + "max(log_scale) = 90.2, and the loss is fine:\nstep 1 loss 0.9\nstep 2 loss 0.8\nstep 3 loss 0.7\n"
    assert not any("largest log_scale" in e for m in diagnosis(healthy).matches for e in m.evidence)
    broken = healthy.replace("step 3 loss 0.7", "step 3 loss nan")
    assert any("largest log_scale" in e for m in diagnosis(broken).matches for e in m.evidence)


def test_a_division_on_a_where_branch_and_a_sqrt_of_a_clip_at_zero_break_the_backward_pass():
    """`where(n > 0, s / n, 0)` still differentiates s / n where n is 0 (slope 1 / 0); `sqrt(jnp.maximum(w, 0))` meets
    sqrt's infinite slope wherever the maximum clips, which JAX's JVP of max multiplies by 0 (as TensorFlow's ReluGrad
    does); and a clamp at exactly 0 keeps the gradient of an input of exactly 0, as a sum of squared differences is on a
    pairwise matrix's diagonal: nan each time. Elsewhere PyTorch's clamp and relu select, a divisor the condition does
    not test, a number, or one kept off 0 breaks nothing, nor does NumPy's where, and an inner where that made the
    divisor safe is WR-050's own fix."""
    from trainwreck.breaking_constructs import breaking_construct

    assert "division on one branch of a where" in breaking_construct(
        "    r = torch.where(n > 0, s / n, torch.zeros_like(s))\n")["sqrt-at-zero"]
    assert "division on one branch of a where" in breaking_construct(
        "    wet = obs > thr\n    rel = torch.where(wet, (pred - obs).abs() / obs, 0.0)\n")["sqrt-at-zero"]
    assert "square root that can meet 0" in breaking_construct(
        "    side = jnp.sqrt(jnp.maximum(raw_side, 0.0))\n")["sqrt-at-zero"]
    for read in ("    d = tf.sqrt(tf.nn.relu(v))\n", "    d = jnp.sqrt(jnp.clip(v, 0, 10))\n",
                 "    d = jnp.sqrt(jnp.maximum(0.0, d2))\n",
                 "    dist = torch.sqrt(torch.clamp(((a - b) ** 2).sum(-1), min=0))\n",
                 "    dist = tf.sqrt(tf.maximum(tf.reduce_sum(tf.square(a - b), -1), 0.0))\n"):
        assert "sqrt-at-zero" in breaking_construct(read), read
    for guarded in ("    side = torch.sqrt(torch.clamp(raw_side, min=0))\n", "    d = torch.sqrt(F.relu(v))\n",
                    "    d = jnp.sqrt(jnp.clip(v, 0.5, 10))\n", "    d = jnp.sqrt(jnp.clip(v, -10, 0))\n",
                    "    side = jnp.sqrt(jnp.maximum(raw_side, 1e-6))\n",
                    "    dist = torch.sqrt(torch.clamp(((a - b) ** 2).sum(-1), min=1e-12))\n",
                    "    safe = torch.where(n > 0, n, torch.ones_like(n))\n    r = torch.where(n > 0, s / safe, 0.0)\n",
                    "    img = torch.where(mask, img / 255.0, torch.zeros_like(img))\n",
                    "    lr = jnp.where(step < warmup, base_lr * step / warmup, base_lr)\n",
                    "    l = torch.where(diff < beta, 0.5 * diff ** 2 / beta, diff - 0.5 * beta)\n",
                    "    frac = np.where(total > 0, hits / total, 0.0)\n",
                    "    r = torch.where(n > 0, s / n.clamp(min=1), 0.0)\n",
                    "    out = torch.where(valid, pred, target) / scale\n"):
        assert "sqrt-at-zero" not in breaking_construct(guarded), guarded


def test_half_precision_named_as_hearsay_beside_a_run_in_float32_is_no_half_precision():
    """"I read that bf16 and AMP have problems here, but I'm training in float32" names no half precision of this run;
    "I read that AMP overflows; I train with AMP" does."""
    from trainwreck.precision_said import half_precision_shown
    from trainwreck.thesaurus import tokens

    said = "I read that AMP has problems with this layer, but I'm training in float32."
    assert half_precision_shown(said, tokens(said)) == ""
    other = "I read that AMP can overflow here; I train with AMP and a GradScaler."
    assert half_precision_shown(other, tokens(other)) == "AMP"
    d = diagnosis(said + "\nThe loss is nan after the first update.\n")
    assert not any("names half precision" in e for m in d.matches for e in m.evidence)


def test_a_group_scaled_by_its_own_statistics_is_read_as_one_item():
    """"z-score the readings per station", "divide by the patient's std": a group that holds one value, or equal ones,
    divides by a std of 0 (pandas' is nan for one value). Per feature or per channel is the whole dataset's scaling."""
    from trainwreck.input_scaling import per_item_said

    assert per_item_said("I z-score the readings per station before training.")
    assert per_item_said("For each visit we subtract the mean and divide by the patient's std.")
    assert per_item_said("Per-user normalization of the ratings, then the autoencoder.")
    assert not per_item_said("I standardise the inputs per feature with the training mean and std.")
    assert not per_item_said("Normalization per channel, as usual.")
    assert not per_item_said("Each column: subtract its mean and divide by the feature's standard deviation.")
    # (a group of samples standardised within itself, as group-relative advantages are: eight equal rewards have std 0)
    assert per_item_said("The rewards are z-scored within each group of sampled answers.")
    assert not per_item_said("Scores are normalized within each batch.")


def test_a_name_the_code_makes_with_an_exp_said_to_be_inf_is_exps_overflow():
    """`rate = torch.exp(raw[:, 0]) * base` and "rate.max() is inf": exp's own overflow, beside a run that went nan. Not
    denied ("rate is not inf"), nor an inf said of another name."""
    from trainwreck.exp_limits import exp_output_inf

    code = "    rate = torch.exp(raw[:, 0]) * base\n"
    assert "makes rate with an exp" in exp_output_inf(code + "In the saved batch rate.max() is inf.\n")
    assert "makes var with an exp" in exp_output_inf("    var = logvar.exp()\nvar is inf on that batch\n")
    assert exp_output_inf(code + "I checked whether rate is inf: it never is.\n") == ""
    # (review s53b #3: an exp's inverse is its underflow, and a perplexity's inf is the loss's doing)
    assert exp_output_inf("    precision = 1.0 / torch.exp(log_var)\nprecision is inf\n") == ""
    assert exp_output_inf("    ppl = torch.exp(eval_loss)\nppl is inf, then the loss is nan\n") == ""
    assert exp_output_inf(code + "the loss is inf\n") == ""
    d = diagnosis(code + "it 100 | loss 0.41\nit 200 | loss 0.39\nit 300 | loss nan\nrate.max() is inf for that batch.\n")
    assert d.matches[0].entry.id == "WR-020"


def test_an_attention_mask_thresholded_from_a_prediction_can_mask_a_whole_row():
    """A masked-attention decoder's mask, `mask_pred.sigmoid() < 0.5`, handed to attention: a query whose predicted mask
    is empty masks every key, and MultiheadAttention's row is nan. Not where the paste un-masks such rows, as
    Mask2Former's decoder does, nor a thresholded mask that attention is never handed."""
    from trainwreck.breaking_constructs import breaking_construct

    code = ("    keep = (m_pred.sigmoid().flatten(2)\n            .repeat(1, heads, 1, 1) < 0.5).detach()\n"
            "    out = self.xattn(q, mem, mem, attn_mask=keep)[0]\n")
    assert "thresholding a prediction" in breaking_construct(code)["masked-inf"]
    for guard in ("    keep[torch.where(keep.sum(-1) == keep.shape[-1])] = False\n",
                  "    keep[keep.sum(dim=-1) == keep.shape[-1]] = False\n", "    keep = keep & ~keep.all(-1, keepdim=True)\n"):
        assert "masked-inf" not in breaking_construct(code.replace("    out =", guard + "    out =")), guard
    assert "masked-inf" not in breaking_construct(code.replace("attn_mask=keep", "need_weights=False"))
    # (review s53b #2: a loss's confidence mask, a random mask, a finite bias, a distance, and SDPA's mask are none)
    for other in ("    mask = (max_probs > 0.95).float()\n    l = masked_ce(logits_u, targets_u, mask=mask)\n",
                  "    mask = torch.rand(B, N) < 0.75\n    z = self.encoder(x, attn_mask=mask)\n",
                  "    bias = (m_pred.sigmoid() < 0.5).float() * -1e4\n    o = attn(q, k, v, attn_mask=bias)\n",
                  "    near = dist > self.radius_thresh\n    o = attn(q, k, v, attn_mask=near)\n",
                  "    keep = m_pred.sigmoid() < 0.5\n    o = F.scaled_dot_product_attention(q, k, v, attn_mask=keep)\n"):
        assert "masked-inf" not in breaking_construct(other), other


def test_review_s53b_a_long_run_of_word_characters_and_a_softmax_with_long_arguments():
    """(review s53b #14) A product's operands are bounded from the start: a 40 kB line of letters beside two zero tables
    took a minute when each position ran to the line's end. (#13c) A softmax module given its arguments in full is
    still the model's end."""
    import time

    from trainwreck.loss_inputs import model_ends_said
    from trainwreck.weight_init import zero_tables_multiplied

    tables = ("u = layers.Embedding(9, 4, embeddings_initializer='zeros')(a)\n"
              "v = layers.Embedding(9, 4, embeddings_initializer='zeros')(b)\n")
    start = time.perf_counter()
    zero_tables_multiplied(tables + "x" * 40_000 + "\n")
    assert time.perf_counter() - start < 0.5
    assert model_ends_said("The network ends with nn.Softmax(dim=-1, dtype=torch.float32) and I use CrossEntropyLoss.")


def test_a_loss_said_to_stay_just_above_the_softmax_twice_floor_at_the_accuracy_said():
    """Below 90% accuracy the floor is the lowest mean loss at that accuracy: each right example costs at least
    log(1 + (C - 1)/e), each wrong one at least a tie's. 5 classes at 70%: 1.0354; "stays at about 1.06" is just above
    it. Below the floor, or far above it, is no such loss."""
    from trainwreck.softmax_floor import softmax_floor_said

    said = "A 5-class classifier with nn.CrossEntropyLoss: the loss stays at about {} while the accuracy is 0.70."
    assert "just above 1.0354" in softmax_floor_said(said.format("1.06"))
    for level in ("0.62", "1.30"):
        assert softmax_floor_said(said.format(level)) == "", level
    assert softmax_floor_said(said.format("1.06").replace("0.70", "0.40")) == ""


def test_a_start_said_far_above_the_one_expected_is_a_model_broken_before_any_update():
    """"The loss starts at 48 instead of ~2.3": the reporter gives the fresh model's start beside the one the run shows,
    20 times it -- outputs confidently wrong from the start. Not three times or less, not a regression's, not a sum."""
    from trainwreck.start_loss import start_above_expected

    assert "21 times the 2.3 it expected" in start_above_expected("My loss starts at 48 instead of ~2.3 after the refactor.")
    assert start_above_expected("The loss starts at 6.1 instead of ~2.3 after the refactor.") == ""
    assert start_above_expected("The MSE loss starts at 480 instead of 2.3.") == ""
    assert start_above_expected("With reduction='sum' the loss starts at 480 instead of 2.3.") == ""
    d = diagnosis("My loss starts at 48 instead of ~2.3 after the refactor.\nstep 0 loss 48.1\nstep 100 loss 9.2\n"
                  "step 200 loss 3.1\n")
    assert d.matches and d.matches[0].entry.id in ("WR-120", "WR-330")


def test_the_start_the_words_expected_beside_the_first_value_the_log_prints_at_the_runs_start():
    """"I expected about 104 at the start (25 * ln 65)" beside `iter 0, loss: 1391.72`: the reporter's own count of a
    fresh model's summed loss, and the log's first value 13 times it. Not a first value printed later in the run, nor
    three times or less, nor a summed loss whose expected start is not worked out as one."""
    from trainwreck.start_loss import start_above_expected

    said = "The loss is summed over 25 characters, vocab 65, so I expected about 104 at the start (25 * ln 65).\n"
    log = "".join(f"iter {i}, loss: {v}\n" for i, v in ((0, "1391.72"), (100, "1244.08"), (200, "1318.55")))
    assert "the log's first loss is 1392, 13 times the 104 it expected" in start_above_expected(said, 1391.72)
    assert start_above_expected(said, 290.0) == "" and start_above_expected(said) == ""
    assert start_above_expected(said.replace(" (25 * ln 65)", ""), 1391.72) == ""
    d = diagnosis(said + log)
    assert d.matches[0].entry.id in ("WR-120", "WR-330")      # (weights too large or inputs far from unit scale)
    assert any("the log's first loss is 1392" in e for e in d.matches[0].evidence)
    # (a first value that is nan is no start to set beside the expected one: nan from the start is its own reading)
    nan_start = log.replace("1391.72", "nan")
    assert not any("the log's first loss" in e for m in diagnosis(said + nan_start).matches for e in m.evidence)
    later = log.replace("iter 0,", "iter 3000,").replace("iter 100,", "iter 3100,").replace("iter 200,", "iter 3200,")
    assert not any("the log's first loss" in e for m in diagnosis(said + later).matches for e in m.evidence)


def test_words_that_the_model_returns_probabilities_beside_a_loss_that_takes_logits():
    """"The network outputs class probabilities" beside CrossEntropyLoss: probabilities handed over as logits. Not
    log-probabilities, which a cross-entropy takes as it takes logits, nor a denial. Cora's 7 classes are named by it."""
    from trainwreck.class_count import classes_named
    from trainwreck.loss_inputs import model_ends_said

    assert model_ends_said("The network outputs class probabilities, and I train with nn.CrossEntropyLoss().")
    assert not model_ends_said("The model returns log-probabilities from log_softmax.")
    assert not model_ends_said("The model does not return probabilities.")
    assert classes_named("GCN on Cora, two layers.")[0] == 7


def test_a_rate_of_zero_said_to_leave_the_failure_there_before_any_update():
    """"with lr=0 the first steps print 7.41, 7.40, 7.42, so it is there before any update": the failure needs no
    update, a rate of 0 that did not help."""
    from trainwreck.rate_tried import rate_zero_failed

    assert rate_zero_failed("As a check, with lr=0 the first steps print 7.41, 7.40, 7.42, so it is there before any update.")
    assert rate_zero_failed("With lr=0 the loss falls, so it is the updates.") == ""


def test_review_s53c_readings_stay_where_they_belong():
    """(code_review_s53c) A validation loss beside a validation accuracy is no softmax floor; a start compared with a
    resumed, loaded or reference run's, or one at ln C, is no broken start; a model said to return probabilities at
    inference, or beside a loss on the logits, is no pairing; a perplexity by any name is no exp's overflow; a
    schedule's where and NumPy's where differentiate nothing; Cora-Full and PubMed's abstracts name no citation graph."""
    from trainwreck.breaking_constructs import breaking_construct
    from trainwreck.class_count import classes_named
    from trainwreck.exp_limits import exp_output_inf
    from trainwreck.loss_inputs import model_ends_said
    from trainwreck.softmax_floor import softmax_floor_said
    from trainwreck.start_loss import start_above_expected

    assert softmax_floor_said("ResNet-18 on CIFAR-10 with nn.CrossEntropyLoss. The validation loss flattens at 1.62 "
                              "while validation accuracy is 72%.") == ""
    assert softmax_floor_said("Small CNN, 10 classes: the loss plateaus at 1.72 and accuracy is 52%.") == ""
    for said in ("When I resume from the checkpoint, the loss starts at 4.5 instead of 0.9 where it left off.",
                 "After loading the pretrained weights the loss starts at 2.3 instead of 0.3 like in the original repo.",
                 "On my 2-class task the loss starts at 0.7 instead of 0.05."):
        assert start_above_expected(said) == "", said
    assert model_ends_said("At inference the model returns probabilities through a softmax in predict().") is None
    assert model_ends_said("CrossEntropyLoss on the raw logits; the model returns class probabilities.") is None
    assert exp_output_inf("    val_ppl = torch.exp(loss)\nval_ppl is inf, then the loss is nan\n") == ""
    assert exp_output_inf("    ratio = torch.exp(logp_loss)\nratio is inf\n") == ""
    assert "sqrt-at-zero" not in breaking_construct(
        "    return jnp.where(step < warmup, peak * step / warmup, peak * jnp.sqrt(warmup / step))\n")
    assert "sqrt-at-zero" not in breaking_construct("    frac = np.where(x > 0, np.log(x), 0.0)\n")
    assert classes_named("GCN on Cora-Full with two layers.") is None
    assert classes_named("SciBERT fine-tuned on PubMed 20k RCT") is None
    assert classes_named("GCN on PubMed, two layers")[0] == 3


def test_a_model_said_to_return_a_sigmoids_call_ends_in_probabilities():
    """"The net outputs F.softmax(self.fc2(h), dim=1)" beside nn.CrossEntropyLoss: a model said in words to return a
    softmax's or a sigmoid's call hands the loss probabilities, the call quoted whole. Not an attention head's or a
    gate's softmax, nor a call whose result is used further, nor one said not to be returned."""
    from trainwreck.loss_inputs import model_ends_said

    said = model_ends_said("The net outputs F.softmax(self.fc2(h), dim=1); training uses nn.CrossEntropyLoss.")
    assert said is not None and said.group(0) == "net outputs f.softmax(self.fc2(h), dim=1)"
    assert model_ends_said("My forward returns self.sigmoid(self.proj(z)) and BCEWithLogitsLoss takes it.")
    for text in ("The model never returns torch.sigmoid(x) in training, only logits.",
                 "My self-attention layer returns softmax(qk / 8) @ v for each of its heads.",
                 "The gating network returns softmax(g(h)) to weight its four experts.",
                 "A pointer network returns softmax(e) as weights over the input positions."):
        assert model_ends_said(text) is None, text
    # (the attention's word turns away only a call said returned: a model said to end in a softmax still does)
    assert model_ends_said("The classifier ends with nn.Softmax(dim=1), after two attention blocks.") is not None


def test_a_normalisation_said_per_item_after_its_verb_is_item_by_item():
    """"The loader z-scores per window" puts the item after the verb; a channel or a feature is no item (the whole
    dataset's statistics scale it), nor is a loss or a gradient normalised per item, nor a length. Beside `x / x.std()`
    and a nan, it is the item-by-item division by zero -- not where the words ask about it or deny it."""
    from conftest import context_of
    from trainwreck.input_scaling import PER_ITEM

    assert PER_ITEM.search("the loader z-scores per window") and PER_ITEM.search("it is normalized per image first")
    for said in ("the images are normalised per channel", "z-scored per feature", "normalised per column",
                 "the CTC loss is normalised per frame length"):
        assert not PER_ITEM.search(said), said
    code = "    w = np.load(path)\n    w = (w - w.mean()) / w.std()\n"
    log = "".join(f"iter {100 * i}  loss {v}\n" for i, v in enumerate(("1.61", "1.44", "1.39", "nan", "nan")))
    assert "item-std-unguarded" in context_of("My loader z-scores per window:\n" + code + log).printed
    for said in ("We don't standardise per window; the loader does this:\n",
                 "Should I z-score per window instead? The loader currently does:\n"):
        assert "item-std-unguarded" not in context_of(said + code.replace("w.mean()) / w.std()", "mean) / std") + log).printed


def test_frames_read_with_torchvision_io_and_never_scaled_are_raw_pixels():
    """torchvision.io's readers give an 8-bit file's pixels as uint8 (read_video's frames, read_image): made float
    and fed with no division by 255, they are raw pixel values, beside a network that gives one class for every
    input; divided by 255, or normalised, they are not."""
    from conftest import context_of

    loader = ("    vframes, aframes, info = torchvision.io.read_video(self.files[k], output_format='TCHW')\n"
              "    x = vframes[::4].float()\n    return x, self.targets[k]\n")
    log = "".join(f"epoch {e}  loss {v}\n" for e, v in enumerate(("27.4", "3.93", "3.91", "3.91"), 1))
    said = "It predicts the same class for every clip.\n"
    assert "raw-pixels" in context_of(loader + log + said).printed
    scaled = loader.replace(".float()", ".float() / 255.0")
    assert "raw-pixels" not in context_of(scaled + log + said).printed
    # (TensorFlow's decoders give uint8 too, and are named as TensorFlow's; tf.image.resize keeps 0 to 255, while
    # convert_image_dtype scales to [0, 1])
    tf_read = ("def load_image(path):\n    img = tf.io.decode_jpeg(tf.io.read_file(path), channels=3)\n"
               "    return tf.image.resize(img, (128, 128))\n")
    fact = context_of(tf_read + log + said).printed["raw-pixels"]
    assert fact.startswith("the paste reads its inputs with TensorFlow's tf.io.decode_jpeg") and "torchvision" not in fact
    converted = tf_read.replace("    return tf.image.resize(", "    img = tf.image.convert_image_dtype(img, tf.float32)\n"
                                                             "    return tf.image.resize(")
    assert "raw-pixels" not in context_of(converted + log + said).printed
    # (nor beside Keras's preprocess_input, nor a decoder told to give floats, which scales them to [0, 1))
    for scaled in (tf_read.replace("    return tf.image.resize(img, (128, 128))",
                                   "    return preprocess_input(tf.image.resize(img, (128, 128)))"),
                   tf_read.replace("tf.io.decode_jpeg(tf.io.read_file(path), channels=3)",
                                   "tf.io.decode_image(tf.io.read_file(path), channels=3, dtype=tf.float32)")):
        assert "raw-pixels" not in context_of(scaled + log + said).printed, scaled


def test_images_read_in_a_loop_and_made_floats_unscaled_are_raw_pixels():
    """Pictures read one by one with an image reader, appended, and made a float array with nothing scaling them
    anywhere in the paste are raw pixels; a division by 255, or a mask read the same way, is not."""
    from trainwreck.data_values import read_and_made_float
    from trainwreck.frozen_said import one_output_said

    code = ("imgs = []\nfor f in files:\n    im = cv2.imread(f)\n    imgs.append(cv2.resize(im, (64, 64)))\n"
            "imgs = np.asarray(imgs).astype('float32')\n")
    assert read_and_made_float(code) == "im = cv2.imread(f)"
    assert read_and_made_float(code.replace(".astype('float32')", ".astype('float32') / 255.0")) == ""
    assert read_and_made_float(code.replace("im = cv2.imread(f)", "mask = cv2.imread(f)").replace("(im,", "(mask,")) == ""
    # (an empty text for every input is one output too, as a recogniser gives it)
    assert one_output_said("The transcriptions are '' for every crop.") == "transcriptions are '' for every crop"


def test_a_term_times_a_bracket_that_opens_with_its_log_is_a_kl_by_hand():
    """`q * (torch.log(q) - logp)`, a KL divergence written by hand, is a term times its own log: where the target
    distribution holds an exact 0, 0 * -inf is nan. A term times another name's log is not."""
    from trainwreck.breaking_constructs import XLOGX

    assert XLOGX.search("kl = (q * (torch.log(q) - logp)).sum(-1)")
    assert XLOGX.search("ent = -(p * np.log(p)).sum()")
    assert XLOGX.search("kl = (t * (t.log() - s.log())).sum(1)")       # (PyTorch's method form)
    assert not XLOGX.search("kl = q * (torch.log(r) - logp)")


def test_an_error_column_is_a_loss_only_in_a_table_numbered_by_its_run():
    """A CSV with no loss column reads a regression's `mse` or an image model's `l1` as its loss where the rows are a
    run's, numbered by epoch or step; a table of each layer's `l1` and `l2` norms is no curve."""
    from trainwreck.logscan.layout import csv_column

    run = b"epoch,train_l1,val_l1\n0,0.091,0.095\n1,0.074,0.080\n2,0.069,0.072\n"
    layers = b"layer,l1,l2,max_abs\nconv1.weight,12.41,0.93,0.41\nfc.weight,inf,inf,inf\n"
    assert csv_column(run, (b"train_l1", b"l1"))[1] == 1
    assert csv_column(layers, (b"train_l1", b"l1")) is None
    for numbered in (b"iter,l1\n100,0.091\n200,0.074\n", b"global_step,mse\n1,0.91\n2,0.84\n"):
        assert csv_column(numbered, (b"train_l1", b"l1", b"mse")) is not None, numbered
    assert diagnosis(layers.decode()).evidence.count == 0


def test_a_log_line_of_fields_between_bars_is_no_sentence():
    """Megatron-LM prints `| number of nan iterations: 0 |` on every line: a count that says none went nan, on a log's
    line, not a sentence of the reporter's that says the run went nan. A sentence with a bar in it is still one."""
    from trainwreck.sentences import sentences_only

    line = " iteration 250/ 400000 | lm loss: 7.350000E+00 | grad norm: 1.900 | number of nan iterations:   0 |"
    assert sentences_only(line) == ""
    said = "The loss | as I print it | goes up after warmup: is that bad?"
    assert sentences_only(said) == said
    # (a sentence that quotes such fields among many words is still one)
    quoted = ("After warmup the loss line shows | lm loss: 7.4 | grad norm: 1.9 | and then it keeps going up and I "
              "really do not understand why this happens every single time")
    assert sentences_only(quoted) == quoted


def test_a_capacitys_overflow_is_no_floats():
    """Tokens that overflow an expert's capacity, a buffer's or a queue's overflow: no float overflowed, and the
    half-precision entry gets no word from it. A gradient overflow still is one."""
    from trainwreck.thesaurus import tokens

    for said in ("we log the fraction of tokens that overflowed expert capacity", "a capacity overflow of 1%",
                 "the replay buffer overflows"):
        assert "overflow" not in tokens(said), said
    assert "overflow" in tokens("Gradient overflow. Skipping step")
    # (tokens said to overflow are no float's either; a buffer of numbers that overflows is one)
    assert "overflow" not in tokens("the fraction of overflowed tokens goes 0.07, 0.04")
    assert "overflow" in tokens("the fp16 gradient buffer overflowed at step 3000")
    d = diagnosis("Top-1 MoE, capacity factor 1.25. drop_frac (tokens that overflowed expert capacity) goes 0.07, "
                  "0.04, 0.02, 0.01 over training and the loss looks fine. Isn't any dropped token a bug?")
    assert "WR-040" not in [m.entry.id for m in d.matches]


def test_an_exp_by_the_tensors_method_divided_by_a_scatter_sum_is_a_softmax_by_hand():
    """`alpha = alpha.exp()` then `alpha / scatter(alpha, index, ..., reduce='sum')[index]`: GAT's softmax over each node's
    edges written by hand, nothing subtracted first -- past 88.7 in float32 exp is inf and inf / inf nan. With the max
    taken off first, or torch_geometric's softmax, it is no such construct."""
    from trainwreck.breaking_constructs import breaking_construct

    code = ("```python\nalpha = (x_j * self.att_src).sum(-1) + (x_i * self.att_dst).sum(-1)\n"
            "alpha = F.leaky_relu(alpha, 0.2)\nalpha = alpha.exp()\n"
            "alpha = alpha / scatter(alpha, index, dim=0, dim_size=n, reduce='sum')[index]\n```\n"
            "The loss is nan from epoch 40 on, no warning. Why?")
    assert "`alpha = alpha.exp()`" in breaking_construct(code).get("exp-unshifted", "")
    shifted = code.replace("alpha = alpha.exp()", "alpha = alpha - alpha.max()\nalpha = alpha.exp()")
    assert "exp-unshifted" not in breaking_construct(shifted)
    top = diagnosis(code).matches[0]
    assert top.entry.id == "WR-020" and top.parts.get("exp-unshifted", 0) > 0
    # (not an exp that divides, a VAE's KL normalised per batch, nor one of a bounded name, nor one divided by a max)
    for bounded in ("kld = -0.5 * torch.sum(1 + logvar - mu.pow(2) - logvar.exp()) / x.size(0)",
                    "p = torch.sigmoid(z)\nq = p.exp()\nq = q / q.sum(-1, keepdim=True)",
                    code.replace("reduce='sum'", "reduce='max'")):
        assert "exp-unshifted" not in breaking_construct(f"```python\n{bounded}\n```"), bounded


def test_the_fields_of_one_log_line_between_bars_are_no_sentences_loss_values():
    """`| loss 4.871 | nll_loss 3.102 | ctc_loss 41.337 |` names three quantities, not one loss in turn: a bar ends a
    sentence's loss values (it had read 4.871, 3.102 and 41.34 as a loss that jumped x13), and a line of such fields is
    no sentence of the report's (sentences.CODE_LINE), as Megatron-LM's `| lm loss: 7.41E+00 |` is not."""
    from trainwreck.sentences import CODE_LINE

    line = "2024-03-11 14:02:37 | INFO | train | epoch 023 | loss 4.871 | nll_loss 3.102 | ctc_loss 41.337 | ppl 8.59"
    assert CODE_LINE.search(line) and not CODE_LINE.search("the loss went 4.871, then 3.102, then 41.337")
    d = diagnosis("Multitask speech model, after the last epoch:\nthe loss 4.871 | nll_loss 3.102 | ctc_loss 41.337 | ppl 8.59\n"
                  "Is the CTC term too big?")
    assert d.evidence.count < 3 and "jumped" not in " ".join(d.signature.facts)
    said = diagnosis("The loss went 4.871, then 3.102, then 41.337 at the last epoch. Why?")
    assert said.evidence.count == 3
    # (a bar between values, with no field's name after it, separates one loss's values)
    barred = diagnosis("loss by epoch: 2.31 | 2.29 | 4.88 | 19.7 | 311.2 | nan. What is happening?")
    assert barred.evidence.count == 6 and barred.signature.name == "climb-then-nonfinite"


def test_a_first_step_of_the_fix_keeps_no_aside_and_no_link_address():
    """A new user's review (ux_review_s64, 8 and 15): WR-110's first step printed a Markdown link's address in the
    terminal, and WR-120's ran to 869 characters of citations. Asides after a word go; a formula's brackets stay."""
    from trainwreck.fix_steps import first_fix_step, without_asides

    steps = {e.id: first_fix_step(e) for e in CATALOG.sorted_entries()}
    for entry_id, step in steps.items():
        assert "](" not in step and without_asides(step) == step and "et al." not in step, (entry_id, step)
    assert steps["WR-110"].startswith("Draw the weights at random, with a scale chosen for the activation — Glorot for "
                                      "tanh, He for ReLU — and leave the biases at zero")
    assert "standard deviation √(2 / (fan_in + fan_out))" in steps["WR-120"]
    # ... nor does the item a face of the evidence picks (code_review_s64 6)
    from trainwreck.fix_steps import fix_item

    items = [fix_item(e, label) for e in CATALOG.sorted_entries() for label in
             (m.fix for m in e.messages if m.fix)]
    assert items and all("](" not in item and without_asides(item) == item for item in items), items
    assert without_asides("a √(2 / (x + y)) b (c (d) e) f") == "a √(2 / (x + y)) b f"
    assert without_asides("an aside never closed (here") == "an aside never closed (here"
    assert without_asides("use `x / (n + eps)` instead (as the snippet does)") == "use `x / (n + eps)` instead"


def test_bce_losss_target_check_is_the_labels_entrys_and_its_input_twin_the_probabilities_entrys():
    """ux_review_s64 6: nn.BCELoss handed a 0/255 mask stops with its CPU kernel's target check, which no entry declared
    ("not declared by any entry", WR-360 first). The target's check is WR-320's (labels the loss cannot take); the
    input's, beside it in the same kernel, stays WR-130's (a loss handed what is not a probability)."""
    target = ("RuntimeError: all elements of target should be between 0 and 1\n"
              "my targets are 0/255 masks for segmentation with nn.BCELoss\n")
    d = diagnosis(target)
    assert d.verdict == "failure" and d.matches[0].entry.id == "WR-320"
    assert not any("not declared" in u for u in d.unweighed)
    assert any('message "all elements of target should be between 0 and 1" (line 1)' in e for e in d.matches[0].evidence)
    # ... and on a GPU, its kernel's assertion, with CUDA's error after it
    gpu = ("/pytorch/aten/src/ATen/native/cuda/Loss.cu:95: operator(): block: [0,0,0], thread: [3,0,0] Assertion "
           "`target_val >= zero && target_val <= one` failed.\n"
           "RuntimeError: CUDA error: device-side assert triggered\n")
    d = diagnosis(gpu)
    assert d.matches[0].entry.id == "WR-320"
    assert any("Assertion `target_val >= zero && target_val <= one` failed." in e for e in d.matches[0].evidence)
    d = diagnosis("RuntimeError: all elements of input should be between 0 and 1\n")
    assert d.matches[0].entry.id == "WR-130"
    # (review_s65_entries F1.4) the input's assertion on a GPU, with CUDA's error after it: the error follows whichever
    # check failed, and the check printed is WR-130's -- WR-320, which declares the CUDA error, was named
    d = diagnosis(gpu.replace("Loss.cu:95", "Loss.cu:92").replace("target_val", "input_val"))
    assert d.matches[0].entry.id == "WR-130"
    labels = next(m for m in d.matches if m.entry.id == "WR-320")
    assert "messages" not in labels.parts
    assert any(a.startswith("CUDA's device-side assert error follows a kernel assertion this entry does not declare "
                            "(Assertion `input_val >= zero && input_val <= one` failed.)") for a in labels.against)
    # ... and one no entry declares (an embedding's index past its table, code_review_s65 7): no evidence for WR-320
    d = diagnosis("/pytorch/aten/src/ATen/native/cuda/Indexing.cu:1289: indexSelectLargeIndex: block: [0,0,0], thread: "
                  "[0,0,0] Assertion `srcIndex < srcSelectDimSize` failed.\n"
                  "RuntimeError: CUDA error: device-side assert triggered\n")
    assert all("messages" not in m.parts for m in d.matches if m.entry.id == "WR-320") and d.verdict != "failure"
    assert not any("all elements of" in e for m in d.matches if m.entry.id == "WR-320" for e in m.evidence)


STUDENT_SOFTMAX = ("hw3 softmax regression from scratch, lr = 0.01, loss becomes nan after a few epochs??\n\n"
                   "def softmax(z):\n    e = np.exp(z)\n    return e / e.sum(axis=1, keepdims=True)\n\n"
                   "epoch 0 loss 2.4512\nepoch 1 loss 1.9873\nepoch 2 loss 1.7120\n"
                   "hw3.py:14: RuntimeWarning: overflow encountered in exp\n  e = np.exp(z)\n"
                   "hw3.py:15: RuntimeWarning: invalid value encountered in divide\n"
                   "  return e / e.sum(axis=1, keepdims=True)\n"
                   "epoch 3 loss nan\nepoch 4 loss nan\nepoch 5 loss nan\n")


def test_a_construct_at_the_line_the_warning_was_raised_at_names_its_entry():
    """ux_review_s65 3: an unshifted exp in a hand-written softmax, and NumPy's overflow warning printed at that very
    line (`e = np.exp(z)` under the warning) right before the first nan, got "Cannot tell yet": a construct of the code
    is a suspect, left out of the score that names. The warning raised at its line makes it where the nan was born."""
    d = diagnosis(STUDENT_SOFTMAX)
    assert d.verdict == "failure" and d.matches[0].entry.id == "WR-020"
    # ... not where the warning was raised at another line: the construct stays a suspect
    elsewhere = STUDENT_SOFTMAX.replace("hw3.py:14: RuntimeWarning: overflow encountered in exp\n  e = np.exp(z)\n",
                                        "hw3.py:40: RuntimeWarning: overflow encountered in exp\n  h = np.exp(a)\n")
    assert diagnosis(elsewhere).verdict == "uncertain"
    # (and past the first three, no entry whose only evidence is a message the named one shows too)
    assert len(d.matches) <= 3


def test_a_mask_row_printed_with_every_key_masked_beside_the_inf_fill_names_the_masked_softmax():
    """ux_review_s65 3: the -inf fill, and the row the paste printed from its mask with every key masked, beside the
    nan rows it printed: the printed row is the run's own fact, and names WR-070."""
    text = ("Some samples in the batch come out nan after the attention (left padding).\n\n"
            "    scores = scores.masked_fill(~mask, float('-inf'))\n    attn = torch.softmax(scores, dim=-1)\n\n"
            ">>> attn[3, 0]\ntensor([nan, nan, nan, nan])\n>>> mask[3, 0]\ntensor([False, False, False, False])\n")
    d = diagnosis(text)
    assert d.verdict == "failure" and d.matches[0].entry.id == "WR-070"
    assert any("with every key masked (`mask[3, 0]`)" in e for e in d.matches[0].evidence)
    assert diagnosis(text.replace("tensor([False, False, False, False])",
                                  "tensor([False, True, True, True])")).verdict == "uncertain"
    # (code_review_s65 2) the mask's polarity is the fill's: masked_fill(key_padding_mask, -inf) masks where it is True,
    # so a row of all False there masks nothing; and a count printed under another name is no row of the mask
    direct = text.replace("masked_fill(~mask,", "masked_fill(mask,")
    assert "masked-row-printed" not in context_of(direct).printed
    assert "masked-row-printed" in context_of(direct.replace("tensor([False, False, False, False])",
                                                             "tensor([True, True, True, True])")).printed
    counted = text.replace(">>> mask[3, 0]\ntensor([False, False, False, False])", ">>> mask_counts\ntensor([0, 0, 0, 0])")
    assert "masked-row-printed" not in context_of(counted).printed
    # (a row printed through print() and wrapped over two lines, as PyTorch wraps long ones)
    wrapped = text.replace(">>> mask[3, 0]\ntensor([False, False, False, False])",
                           ">>> print(mask[3, 0])\ntensor([False, False, False, False, False, False,\n        False, False])")
    assert "masked-row-printed" in context_of(wrapped).printed


def test_the_words_shown_as_evidence_are_the_reports_own_distinctive_ones():
    """ux_review_s65 8: "the report's words match" quoted "mean" (from "what does it mean"), "epoch", and the parts of a
    traceback's module path (`tensorflow.python.framework.errors_impl`) as evidence. Words every report of a run holds,
    and the parts of a path or a dotted name, are not the report's words for a failure; with none left, no line."""
    from trainwreck.entry_documents import words_for

    assert words_for(["mean", "epoch", "loss", "nan"], "what does it mean when the loss is nan at epoch 3?") == []
    assert words_for(["framework", "errors_impl"], "tensorflow.python.framework.errors_impl.InvalidArgumentError: x") == []
    assert words_for(["framework"], "File /usr/lib/tensorflow/framework/ops.py, line 3") == []
    assert words_for(["padd"], "the padded rows come out nan.") == ["padded"]
    d = diagnosis("what does it mean when the loss is nan?\n")
    assert not any("(\"mean\"" in e for m in d.matches for e in m.evidence)
    assert not any(e == "the report's words match how this entry describes the failure" for m in d.matches
                   for e in m.evidence)


def test_a_loss_said_to_hover_at_a_value_does_not_learn():
    # (s240/03, an opened blind set: "The loss drops in the first couple of epochs and then just hovers around 1.5-2
    # million" -- a regression's MSE in raw energy units, WR-360's, read as a run that never learnt once it is said)
    from conftest import diagnosis
    from trainwreck.run_said import says_not_learning

    for said in ("The loss drops at first and then just hovers around 1.5 million.", "My loss hovers at 0.69.",
                 "train loss is hovering near 2.3 since epoch 3"):
        assert says_not_learning(said), said
    for other in ("The accuracy hovers around 50%.", "Does the loss hover around 0.3 for you?",
                  "The val loss hovers around 0.4.", "I hovered over the loss curve in TensorBoard.",
                  # (code_review_s70b 5: another quantity's, denied, left behind, after converging)
                  "The loss falls steadily but accuracy hovers around 50%.",
                  "the loss keeps falling, and the gradient norm hovers around 1.0 with clipping at 1.0",
                  "The loss hovers around 2.3 for the first 5 epochs and then drops quickly to 0.1.",
                  "After the fix the loss no longer hovers around 2.3, it goes down to 0.1.",
                  "The loss converged nicely and now hovers around 0.02, which is what I expected."):
        assert not says_not_learning(other), other
    bar = "".join(f"Epoch {e}: 100%|██████████| 1719/1719 [01:06<00:00, 25.9it/s, v_num=3, train_loss={v}, val_mae={m}]\n"
                  for e, v, m in ((0, "3.12e+7", "3.9e+3"), (1, "7.84e+6", "1.71e+3"), (2, "2.9e+6", "1.16e+3"),
                                  (3, "1.96e+6", "977"), (4, "2.21e+6", "941"), (7, "1.63e+6", "902")))
    code = "        loss = F.mse_loss(pred, batch.y[:, self.target])\n"
    words = "SchNet on QM9: the loss drops in the first epochs and then just hovers around 1.5-2 million.\n"
    d = diagnosis(words + code + bar)
    assert d.matches[0].entry.id == "WR-360" and "in a run the words say does not learn" in d.matches[0].evidence[0]
    assert not diagnosis(words.replace("just hovers around", "keeps falling toward") + code + bar).matches


def test_a_run_pasted_for_comparison_after_the_reporters_own_is_not_read_as_its_curve():
    # (s244/12, an opened blind set: the reporter's climbing run, then "For comparison, a run with the default yaml that a
    # colleague did last month:" and that run's falling losses -- read together, a spike that recovered, WR-250 named
    # with confidence)
    from conftest import diagnosis
    from trainwreck.logscan.cleaning import without_a_compared_run

    own = "".join(f"epoch: {e}, lr: 1.50e-02 - train loss: {v} - valid loss: {v * 1.2:.3g}\n"
                  for e, v in enumerate((2.96, 6.71, 9.85, 8.04, 12.4), 1))
    theirs = "".join(f"epoch: {e}, lr: 1.50e-04 - train loss: {v}\n" for e, v in enumerate((-6.42, -10.3, -11.7), 1))
    intro = "For comparison, a run with the default yaml (lr 1.5e-4) that a colleague did last month:\n"
    paste = "It gets worse every epoch after I raised the rate:\n" + own + intro + theirs
    d = diagnosis(paste)
    assert d.evidence.count == 5 and d.matches[0].entry.id == "WR-220"
    # (the lines are kept, emptied: the places of the rest do not move; and the comparison ends at the next sentence)
    cut = without_a_compared_run((paste + "Is my copy of the data set broken, or is the rate the problem here?\n").encode())
    assert cut.count(b"\n") == paste.count("\n") + 1 and b"-6.42" not in cut and b"data set broken" in cut
    # (not a comparison said before any value of the reporter's own)
    first = intro + theirs + "Mine:\n" + own
    assert without_a_compared_run(first.encode()) == first.encode()
    # (code_review_s70c: a short intro, or one with a Windows line end, is one too; the block ends at a line that
    # introduces the next, and the reporter's lines after it stay)
    for short in ("As a reference, the original repo's log:\n", "For comparison, the baseline run:\r\n"):
        assert b"-6.42" not in without_a_compared_run((own + short + theirs).encode()), short
    more = own + intro + theirs + "Mine again, resumed:\n" + "epoch: 6, lr: 1.50e-02 - train loss: nan\n"
    assert b"train loss: nan" in without_a_compared_run(more.encode())
    # (not a block the line calls the reporter's own; not values before it that only sentences give, a paper's; not a
    # block that shows the nan the reporter's lines do not)
    mine = own + "For comparison, this is what I get with my own data set:\n" + theirs
    paper = "The paper reports loss 0.35 after 10 epochs on this data set.\n" + intro + own
    broke = own.replace("12.4", "11.9") + intro + theirs.replace("-11.7", "nan")
    for kept in (mine, paper, broke):
        assert without_a_compared_run(kept.encode()) == kept.encode(), kept[:60]


def test_a_tensor_of_a_picture_read_and_resized_is_raw_pixels_when_only_its_target_is_divided():
    """`lr` is made from the picture `cv2.imread` read, through a crop and two resizes, and turned into a tensor with no
    division; `hr`, the target, is divided by 255. The input's pixels are raw; a mask read the same way holds classes."""
    from trainwreck.data_values import image_tensor_unscaled
    code = ("hr = cv2.imread(self.files[i])\nhr = hr[y:y+33, x:x+33]\n"
            "lr = cv2.resize(hr, (11, 11), interpolation=cv2.INTER_CUBIC)\n"
            "lr = cv2.resize(lr, (33, 33), interpolation=cv2.INTER_CUBIC)\n"
            "hr = hr.astype(np.float32) / 255.0\n"
            "lr_t = torch.from_numpy(lr.transpose(2, 0, 1)).float()\nhr_t = torch.from_numpy(hr.transpose(2, 0, 1))\n")
    assert image_tensor_unscaled(code) == "lr_t = torch.from_numpy(lr.transpose(2, 0, 1)).float()"
    assert image_tensor_unscaled(code.replace("lr_t = torch.from_numpy(lr.transpose(2, 0, 1)).float()",
                                              "lr_t = torch.from_numpy(lr.transpose(2, 0, 1)).float() / 255")) == ""
    mask = "mask = cv2.imread(mpath, 0)\nmask_t = torch.from_numpy(mask).long()\n"
    assert image_tensor_unscaled(mask) == ""
    # (a name made from no picture is no pixels: a feature table)
    assert image_tensor_unscaled("feats = df[cols].values\nx = torch.from_numpy(feats).float()\n") == ""
    # (code_review_s74 3: a size read off the picture, a mean taken off, a division by its own max, a normalising call,
    # ToTensor -- the chain follows the last assignment, and stops at any of them)
    for scaled in ("img = cv2.imread(p)\nh = img.shape[0]\nscale = torch.tensor(h)\n",
                   "lr = cv2.imread(p).astype(np.float32)\nlr = (lr - MEAN) / STD\nlr_t = torch.from_numpy(lr)\n",
                   "lr = cv2.imread(p)\nlr = lr / lr.max()\nlr_t = torch.from_numpy(lr)\n",
                   "lr = cv2.imread(p)\nlr = cv2.normalize(lr, None, 0, 1, cv2.NORM_MINMAX)\nlr_t = torch.from_numpy(lr)\n",
                   "lr = cv2.imread(p)\nlr = T.ToTensor()(lr)\nlr_t = torch.tensor(lr)\n",
                   # (reread_s74 7: a class map read from a picture and made integers, under a name of its own)
                   "lbl = cv2.imread(path, cv2.IMREAD_GRAYSCALE)\ncmap = torch.from_numpy(lbl).long()\n"):
        assert image_tensor_unscaled(scaled) == "", scaled


def test_the_chain_back_to_a_picture_is_linear_in_the_pastes_assignments():
    """code_review_s74 2: twelve names each assigned ten times from all the others, a reader among them and ten tensor
    lines -- each step back reads one assignment, so the paste is read at once (it took a minute when every name on a
    right-hand side was followed)."""
    import time
    from trainwreck.data_values import image_tensor_unscaled
    names = [f"v{i}" for i in range(12)]
    code = "v0 = cv2.imread(p)\n" + "".join(f"{n} = {' + '.join(o for o in names if o != n)}\n"
                                               for _ in range(10) for n in names)
    code += "".join(f"t{i} = torch.tensor(v{i})\n" for i in range(10))
    start = time.perf_counter()
    assert image_tensor_unscaled(code) == ""
    assert time.perf_counter() - start < 1.0


def test_i_e_and_e_g_end_no_sentence():
    """"I get 37.18 dB in fp32, i.e. the model is fine" is one sentence: the full-precision run went well, in the same
    sentence that names it (what precision_tried reads)."""
    from trainwreck.precision_said import precision_tried
    from trainwreck.sentences import sentences_and_ends
    assert [s for s, _ in sentences_and_ends("In fp32 I get 37.18 dB, i.e. the model is fine. E.g. Set5. Done")] == [
        "In fp32 I get 37.18 dB, i.e. the model is fine", " E.g. Set5", " Done"]
    said = "Under fp16 autocast the output is nan. If I run that checkpoint in fp32 I get 37.18 dB, i.e. the model is fine."
    assert precision_tried(said)[0] == "helped"


def test_zero_nans_out_of_half_precision_is_a_run_that_went_well():
    """"Without .half() I get zero NaN rows, with .half() ~6k": the full-precision run went well, as "no NaNs" says."""
    from trainwreck.precision_said import precision_tried
    said = ("If I run the model without .half() on a 50k sample, I get zero NaN rows, and the same sample with .half() "
            "gives ~6k NaN rows.")
    assert precision_tried(said)[0] == "helped"
    # (and "zero" that is no count of nans leaves the clause as it was: nan rows in fp32 are a run that went badly)
    assert precision_tried("In fp32 I still get NaN rows, zero change.")[0] != "helped"
