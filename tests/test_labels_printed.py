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
    fact, in_code = labels_past_outputs(MODEL + printed)
    assert "run from 1 to 4, and the model has 4 outputs (`Dense(4, activation='softmax')`): they start at 1" in fact
    assert "0 to 3, so a label of 4 or more is past the last one" in fact and "`Target 4 is out of bounds.`" in fact
    assert in_code


def test_labels_that_fit_or_are_shifted_or_are_not_labels_are_not_read():
    for text in (MODEL + NUMPY.replace("1, 2, 3, 4", "0, 1, 2, 3"), MODEL.replace("Dense(4", "Dense(5") + NUMPY,
                 MODEL + NUMPY.replace("y_train", "image_ids"),
                 # (shifted or mapped onto 0..C-1 anywhere in the paste)
                 MODEL + NUMPY + "y_train = y_train - 1\n", MODEL + NUMPY + "    return self.x[i], self.labels[i] - 1\n",
                 MODEL + PANDAS_1 + "label = int(row['label']) - 1\n",
                 MODEL + PANDAS_1 + "df['label'] = df['label'].map({1: 0, 2: 1, 3: 2, 4: 3})\n",
                 MODEL + NUMPY + "y = [class_to_idx[c] for c in names]\n",
                 MODEL + NUMPY + "label = int(row['label']) - 1\n",
                 # (pandas 2's counts of a column it does not name, and pandas 1's of one that is no label)
                 MODEL + PANDAS_2.replace("label\n1", "1"), MODEL + PANDAS_1.replace("Name: label", "Name: age"),
                 # (a count or a size of labels, or a coordinate, is no label)
                 MODEL + ">>> np.unique(target_lengths)\n[5 7 9]\n", MODEL + "Counter(label_lengths)\nCounter({4: 10, 6: 2})\n",
                 MODEL + ">>> np.unique(y_center)\narray([12, 40, 77])\n",
                 # (two output counts in the code: no one number of outputs)
                 MODEL + "num_classes = 5\n" + NUMPY):
        assert labels_past_outputs(text) == ("", False), text


def test_a_negative_index_or_a_shapes_minus_one_is_no_shift_of_the_labels():
    for line in ("loss = criterion(out.view(-1, 4), labels.view(-1))", "X, y = data[:, :-1], data[:, -1]",
                 "labels = torch.tensor(labels).unsqueeze(-1)"):
        assert labels_past_outputs(MODEL + NUMPY + line + "\n")[0], line


def test_a_label_past_the_outputs_anywhere_in_the_set_is_read_and_named_in_the_error():
    fact, _ = labels_past_outputs("num_classes = 4\n" + ">>> np.unique(y)\narray([0, 1, 2, 5])\n")
    assert "are 0, 1, 2, 5, and the model has 4 outputs (`num_classes = 4`) -- the loss takes" in fact
    assert "PyTorch's cross-entropy raises `Target 5 is out of bounds.`" in fact


def test_a_label_the_loss_ignores_is_not_past_the_last_logit():
    """Pascal VOC marks object borders 255 and trains with ignore_index=255: PyTorch skips that label before its bounds
    check. The other labels are held to the outputs as before."""
    voc = "criterion = nn.CrossEntropyLoss(ignore_index=255)\nmodel = deeplabv3_resnet50(num_classes=21)\n"
    assert labels_past_outputs(voc + ">>> np.unique(label)\narray([  0,   1,  15, 255], dtype=uint8)\n") == ("", False)
    fact, _ = labels_past_outputs(voc + ">>> np.unique(label)\narray([  0,   1,  21, 255], dtype=uint8)\n")
    assert "are 0, 1, 21, and the model has 21 outputs" in fact


def test_a_count_the_words_give_is_said_as_theirs_and_a_head_that_takes_every_label_wins():
    """With no head count in the code, the words' "4 classes" is the count held to the labels -- said as the words',
    and weighed as words (False); a head the code builds with room for every printed label is the model's."""
    fact, in_code = labels_past_outputs("I have 4 classes.\n" + NUMPY)
    assert "and the paste gives 4 classes (`4 classes`): they start at 1" in fact and not in_code
    assert labels_past_outputs("I have 4 classes.\nhead = nn.Sequential(nn.Dropout(0.2), nn.Linear(512, 5))\n"
                               + NUMPY) == ("", False)
    # (the last layer built is the head: a hidden layer before it, wider than the labels, is not; review s56b, 17)
    assert labels_past_outputs("I have 4 classes.\nself.fc1 = nn.Linear(784, 128)\nself.fc2 = nn.Linear(128, n_cls)\n"
                               + NUMPY)[0]
    # (with no count set, the last linear layer's size is the outputs', a number in the code: review s56c, 8b)
    seq = "model = nn.Sequential(nn.Linear(784, 128), nn.ReLU(), nn.Linear(128, 4))\n"
    fact, in_code = labels_past_outputs(seq + NUMPY)
    assert in_code and "the model has 4 outputs (`Linear(128, 4)`)" in fact
    assert labels_past_outputs(seq.replace("nn.Linear(128, 4))", "nn.Linear(128, n_out))") + NUMPY) == ("", False)
    # (labels under any name of y's that is no coordinate or prediction: y_encoded, Keras tutorials' Y_train)
    for name in ("y_encoded", "Y_train"):
        assert labels_past_outputs(MODEL + NUMPY.replace("y_train", name))[0], name
    # (timm's num_classes=0 takes a head off: no count of outputs beside the head built after it)
    timm = 'backbone = timm.create_model("resnet50", pretrained=True, num_classes=0)\nhead = nn.Linear(2048, 4)\n'
    assert labels_past_outputs(timm + "num_classes = 4\n" + NUMPY)[1]


def test_the_fact_names_the_labels_entry_first_beside_a_nan_from_the_start():
    epochs = "".join(f"Epoch {k}/10\n50/50 [==============================] - 9s - loss: nan - accuracy: 0.0000\n"
                     for k in (1, 2, 3))
    report = "Accuracy is 0 and the loss is nan from the first epoch.\n" + MODEL + PANDAS_1 + epochs
    d = diagnose(scan(io.BytesIO(report.encode()), "report", None), CATALOG)
    assert d.matches[0].entry.id == "WR-320"
    assert d.matches[0].parts["labels-past-outputs"] > 0
    # (beside a class count the code sets short of the words', the label past the last logit is said once: from
    # the printed labels)
    short = ("I have 5 categories.\nnum_classes = 4\nmodel.add(Dense(num_classes, activation='softmax'))\n"
             ">>> np.unique(y_train)\narray([0, 1, 2, 3, 4])\n" + epochs)
    d = diagnose(scan(io.BytesIO(short.encode()), "report", None), CATALOG)
    assert d.matches[0].entry.id == "WR-320"
    assert "labels-past-outputs" in d.matches[0].parts and "classes-short" not in d.matches[0].parts
