"""A model that scores well on its own held-out split and badly on new data is no training failure: diagnose says it
is not covered, says why (leakage across the split, or new data unlike the split), and names no entry."""
import io

import pytest

from conftest import real_catalog
from trainwreck.diagnose import diagnose, message_finder
from trainwreck.logscan import scan
from trainwreck.split_gap import GAP, new_data_gap

CATALOG = real_catalog()


def diagnosis(text: str):
    return diagnose(scan(io.BytesIO(text.encode()), "report", message_finder(CATALOG)), CATALOG)


REPORT = ("Pneumonia classifier on chest X-rays, DenseNet-121 fine-tuned for 20 epochs with Adam. I split the 31k "
          "images 80/10/10 at random. Validation accuracy 96.4%, test 96.1%, and the loss fell smoothly.\n"
          "On new X-rays from a second hospital it gets 58%. Is the model overfitting? Should I add augmentation?\n")
LOG = "".join(f"epoch {e}: loss {v:.3f} val_loss {v + 0.02:.3f} val_acc {a:.3f}\n"
              for e, (v, a) in enumerate([(0.61, 0.71), (0.38, 0.84), (0.22, 0.91), (0.14, 0.95), (0.11, 0.964)], 1))


@pytest.mark.parametrize("text", [REPORT, REPORT + LOG], ids=["words", "words-and-log"])
def test_a_split_that_scores_high_and_new_data_that_score_low_are_not_covered(text):
    d = diagnosis(text)
    assert d.verdict == "unexplained" and d.matches == []
    said = next(u for u in d.unweighed if "held-out split" in u)
    assert '("Validation accuracy 96.4%")' in said and '("On new X-rays from a second hospital it gets 58%")' in said
    assert "leakage" in said and "No entry covers this" in said


def test_the_same_report_with_a_nan_or_a_climbing_loss_is_weighed_as_before():
    """The reading speaks only where nothing went wrong in the training: a nan, or a loss that climbs, is a failure the
    entries are about, whatever is said of new data."""
    nan = REPORT.replace("the loss fell smoothly", "the loss went nan twice and I restarted")
    climbing = REPORT + "".join(f"epoch {e}: loss {v}\n" for e, v in enumerate((0.61, 0.42, 0.39, 0.87, 2.9, 11.4), 1))
    for text in (nan, climbing):
        d = diagnosis(text)
        assert not any("held-out split" in u for u in d.unweighed)
        assert d.matches, text


@pytest.mark.parametrize("text", [
    # the new data score as well as the split (a drop under GAP)
    "Validation accuracy 96.4%. On new X-rays from a second hospital it also gets 95%, but training is slow.",
    # a question of what the model will do, with no result
    "Test accuracy is 97.2%. Will it hold up on unseen customers?",
    # new data named, nothing said of how the model did there
    "The model reaches 93% test accuracy. We will deploy it to production next week.",
    # no high score on the split: the loss is no score where higher is better
    "Val loss 0.12. On new recordings the predictions are garbage.",
    # a score that is high, but not the held-out split's
    "Train accuracy 99.1%. On new X-rays from a second hospital it gets 58%.",
])
def test_no_gap_is_read_without_a_high_held_out_score_and_a_bad_result_on_new_data(text):
    assert new_data_gap(text) is None


@pytest.mark.parametrize("text, high", [
    ("eval mIoU 0.92 but the masks on fresh scans are terrible", "eval mIoU 0.92"),
    ("94.1% on the validation set, yet on real-world photos it is useless", "94.1% on the validation set"),
    ("val acc 0.95; on the external cohort the AUC is 0.71", "val acc 0.95"),
    ("Test errors look too good to be true. On an independent trajectory the model falls apart.", "too good to be true"),
])
def test_a_gap_is_read_in_words_or_in_a_score_ten_points_lower(text, high):
    assert new_data_gap(text)[0] == high


def test_ten_points_below_the_split_is_the_threshold():
    """A share GAP (0.1) or more below the split's is a bad result; less is not."""
    assert GAP == 0.1
    assert new_data_gap("val accuracy 0.95, and on new users it scores 0.85")           # exactly 10 points
    assert new_data_gap("val accuracy 0.95, and on new users it scores 0.86") is None
