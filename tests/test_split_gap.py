"""A model that scores well on its own held-out split and badly on new data is no training failure: diagnose says it
is not covered, says why (a split that leaks, new data unlike the split, a pipeline that differs), and names no entry --
but only where nothing says the training itself went wrong."""

import pytest

from conftest import diagnosis
from trainwreck.split_gap import new_data_gap


def gap_said(d) -> str | None:
    return next((u for u in d.unweighed if "held-out split" in u), None)


REPORT = ("Pneumonia classifier on chest X-rays, DenseNet-121 fine-tuned for 20 epochs with Adam. I split the 31k "
          "images 80/10/10 at random. Validation accuracy 96.4%, test 96.1%, and the loss fell smoothly.\n"
          "On new X-rays from a second hospital it gets 58%. Is the model overfitting? Should I add augmentation?\n")
LOG = "".join(f"epoch {e}: loss {v:.3f} val_loss {v + 0.02:.3f} val_acc {a:.3f}\n"
              for e, (v, a) in enumerate([(0.61, 0.71), (0.38, 0.84), (0.22, 0.91), (0.14, 0.95), (0.11, 0.964)], 1))


@pytest.mark.parametrize("text", [REPORT, REPORT + LOG], ids=["words", "words-and-log"])
def test_a_split_that_scores_high_and_new_data_that_score_low_are_not_covered(text):
    d = diagnosis(text)
    assert d.verdict == "unexplained" and d.matches == []
    said = gap_said(d)
    assert '("Validation accuracy 96.4%")' in said and '("On new X-rays from a second hospital it gets 58%")' in said
    assert "no entry covers that" in said and "the split may leak" in said
    assert "send the held-out split through the pipeline the new data go through" in said


@pytest.mark.parametrize("broken", [
    REPORT.replace("the loss fell smoothly", "the loss went nan twice and I restarted"),
    REPORT + "".join(f"epoch {e}: loss {v}\n" for e, v in enumerate((0.61, 0.42, 0.39, 0.87, 2.9, 11.4), 1)),
    # the same, told in words alone
    REPORT.replace("the loss fell smoothly", "then the loss kept climbing until it blew up"),
    REPORT.replace("the loss fell smoothly", "after that the loss is stuck at 0.41 and does not move"),
    REPORT.replace("the loss fell smoothly", "the gradients exploded in epoch 3"),
    REPORT + "Traceback (most recent call last):\n  File \"infer.py\", line 12\nRuntimeError: CUDA error: an illegal memory "
             "access was encountered\n",
], ids=["nan-said", "climb-printed", "climb-said", "stuck-said", "exploded-said", "error-shown"])
def test_a_report_whose_training_went_wrong_is_weighed_as_before(broken):
    """A nan, or a loss that climbs or does not learn, printed or said, is what the entries are about, whatever is said
    of new data."""
    d = diagnosis(broken)
    assert gap_said(d) is None and d.matches


def test_a_reading_of_the_pasted_code_or_of_inference_comes_before_the_story_of_new_data():
    flip = ("Arrow direction classifier, classes: left, right, up, down.\n"
            "train_tf = transforms.Compose([transforms.RandomHorizontalFlip(), transforms.ToTensor()])\n"
            "Validation accuracy 93%, but on new photos it is poor for left and right.\n")
    d = diagnosis(flip)
    assert d.verdict == "unexplained" and gap_said(d) is None
    assert any("flips its training images horizontally" in u for u in d.unweighed)
    inference = ("Fine-tuned a ResNet, the training loss looked fine and validation accuracy was 96%. In my inference "
                 "script on new images it gets 58%.\n")
    d = diagnosis(inference)
    assert gap_said(d) is None and any("fails at inference" in u for u in d.unweighed)


@pytest.mark.parametrize("text, high, new", [
    ("eval mIoU 0.92 but the masks on fresh scans are terrible", "eval mIoU 0.92",
     "eval mIoU 0.92 but the masks on fresh scans are terrible"),
    ("accuracy on the test set: 96%. On real-world photos it does badly.", "accuracy on the test set: 96%",
     "On real-world photos it does badly"),
    ("holdout accuracy 97%, and in production it is useless", "holdout accuracy 97%",
     "holdout accuracy 97%, and in production it is useless"),
    ("Test errors look too good to be true. On an independent trajectory the model falls apart.",
     "Test errors look too good to be true", "On an independent trajectory the model falls apart"),
    # a question that states a result, a sentence wrapped across lines, a perfect split score
    ("Why does it get only 58% on new X-rays when validation accuracy is 96%?", "validation accuracy is 96%",
     "Why does it get only 58% on new X-rays when validation accuracy is 96%"),
    ("Validation accuracy 96.4%, but on new X-rays\nfrom a second hospital it gets 58%.", "Validation accuracy 96.4%",
     "Validation accuracy 96.4%, but on new X-rays from a second hospital it gets 58%"),
    ("val acc 1.00 after epoch 4; on new patients it scores 0.55", "val acc 1.00", "on new patients it scores 0.55"),
])
def test_a_gap_is_read_in_words_or_in_a_score_ten_points_lower(text, high, new):
    assert new_data_gap(text) == (high, new)


@pytest.mark.parametrize("text", [
    # the new data score about as well as the split
    "Validation accuracy 96.4%. On new X-rays from a second hospital it also gets 95%, but training is slow.",
    # numbers that are no score: a learning rate, a loss, an error rate
    "Test accuracy 95%. On new images, with a rate of 0.0002, it reaches 94.8%.",
    "val acc 0.94, and on new samples the loss is 0.41.",
    "test accuracy 96%. On new scans the error rate is 5%.",
    # the bad word denied
    "Validation accuracy 93%. On fresh recordings it is not bad at all: 93%.",
    "Validation accuracy 93%. It does no worse on unseen patients.",
    # another model, not new data
    "Validation accuracy 95%. The new model trained on the same data is worse than the old one.",
    # the high share is the training set's, and the validation score is low: overfitting, not this
    "train acc 99% val acc 61%. On new patients it's bad too.",
    "Train accuracy 99.1%. On new X-rays from a second hospital it gets 58%.",
    # a question with no result in it
    "Validation accuracy 97%. How do I make sure it won't fail on new users?",
    # a difference, or a figure near the split's beside a word of it
    "Validation accuracy 96%. On new clinic data the accuracy drops by only 4%.",
    "Validation accuracy 96%. On new users it is slightly worse, 94.5%.",
    # supposed, asked with a modal verb, or trained on
    "Validation accuracy 96%. On new users it would fail, I think.",
    "Validation accuracy 96%. Will it get 62% on new patients?",
    "Validation accuracy 96%. When I fine-tuned it on new scans the accuracy fell to 40%.",
    # "too good to be true" of the training loss, beside the name of an evaluation script
    "eval script says val acc 0.97. The training loss at 0.0001 seemed too good to be true. New data: bad.",
    "The training loss dropping to 0.001 seemed too good to be true. On new data it fails.",
    # new data named, nothing said of how the model did there
    "The model reaches 93% test accuracy. We will deploy it to production next week.",
])
def test_no_gap_is_read_without_a_high_held_out_score_and_a_bad_result_on_new_data(text):
    assert new_data_gap(text) is None


@pytest.mark.parametrize("new, read", [("0.85", True), ("0.86", False), ("85%", True), ("85.5%", False)])
def test_ten_points_below_the_split_is_the_threshold(new, read):
    assert bool(new_data_gap(f"val accuracy 0.95, and on new users it scores {new}")) is read
