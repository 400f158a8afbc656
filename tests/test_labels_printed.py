"""Labels the paste prints (pandas, NumPy, PyTorch, a Counter) held to the number of outputs the model has."""
import io

import pytest

from conftest import real_catalog
from trainwreck.diagnose import diagnose
from trainwreck.labels_printed import labels_past_outputs
from trainwreck.logscan import scan

CATALOG = real_catalog()

MODEL = "model.add(Dense(4, activation='softmax'))\nmodel.compile(loss='sparse_categorical_crossentropy')\n"
PANDAS_1 = ">>> df['label'].value_counts().sort_index()\n1    250\n2    310\n3    198\n4     77\nName: label, dtype: int64\n"
PANDAS_2 = ">>> df['label'].value_counts().sort_index()\nlabel\n1    250\n2    310\n3    198\n4     77\nName: count, dtype: int64\n"
NUMPY = ">>> np.unique(y_train)\narray([1, 2, 3, 4])\n"
PRINTED = "print(np.unique(labels))\n[1 2 3 4]\n"
TORCH = "torch.unique(targets)\ntensor([1, 2, 3, 4])\n"
COUNTER = "Counter(labels)\nCounter({2: 310, 1: 250, 3: 198, 4: 77})\n"


@pytest.mark.parametrize("printed", [PANDAS_1, PANDAS_2, NUMPY, PRINTED, TORCH, COUNTER])
def test_labels_printed_one_to_c_for_c_outputs_are_past_the_last_logit(printed):
    fact = labels_past_outputs(MODEL + printed)
    assert "run from 1 to 4, and the model has 4 outputs (`Dense(4, activation='softmax')`): they start at 1" in fact
    assert "0 to 3, so a label of 4 is past the last one" in fact and "`Target 4 is out of bounds.`" in fact


def test_labels_that_fit_or_are_shifted_or_are_not_labels_are_not_read():
    assert labels_past_outputs(MODEL + NUMPY.replace("1, 2, 3, 4", "0, 1, 2, 3")) == ""
    assert labels_past_outputs(MODEL.replace("Dense(4", "Dense(5") + NUMPY) == ""
    assert labels_past_outputs(MODEL + NUMPY + "y_train = y_train - 1\n") == ""
    assert labels_past_outputs(MODEL + NUMPY.replace("y_train", "image_ids")) == ""
    # (pandas 2's counts of a column it does not name, and pandas 1's of one that is no label)
    assert labels_past_outputs(MODEL + PANDAS_2.replace("label\n1", "1")) == ""
    assert labels_past_outputs(MODEL + PANDAS_1.replace("Name: label", "Name: age")) == ""
    # (two output counts in the code: no one number of outputs)
    assert labels_past_outputs(MODEL + "num_classes = 5\n" + NUMPY) == ""


def test_a_label_past_the_outputs_anywhere_in_the_set_is_read():
    fact = labels_past_outputs("num_classes = 4\n" + ">>> np.unique(y)\narray([0, 1, 2, 5])\n")
    assert "are 0, 1, 2, 5, and the model has 4 outputs (`num_classes = 4`) -- the loss takes" in fact


def test_the_fact_names_the_labels_entry_first_beside_a_nan_from_the_start():
    report = ("Accuracy is 0 and the loss is nan from the first epoch.\n" + MODEL + PANDAS_1
              + "".join(f"Epoch {k}/10\n50/50 [==============================] - 9s - loss: nan - accuracy: 0.0000\n"
                        for k in (1, 2, 3)))
    d = diagnose(scan(io.BytesIO(report.encode()), "report", None), CATALOG)
    assert d.matches[0].entry.id == "WR-320"
    assert d.matches[0].parts["labels-past-outputs"] > 0
