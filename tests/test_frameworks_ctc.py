"""Opt-in: what WR-130 and WR-320 say about CTC losses in TensorFlow and Keras 3, checked against the real frameworks
-- that tf.nn.ctc_loss and keras.losses.ctc put their predictions through a log-softmax of their own (so a softmax
before them is a second one), and TensorFlow's message for a label at the blank's index, word for word.

Runs only with TRAINWRECK_FRAMEWORK_TESTS=1, in the scratch interpreter /work/scratch/tf/bin/python (or
TRAINWRECK_TF_PYTHON); checked on TensorFlow 2.21.0 and Keras 3.15.1 on 2026-12-06.
"""
import pytest

from conftest import assert_entry_says
from framework_runner import OPT_IN, check_cited_line, declared, run

pytestmark = OPT_IN

CTC_PROGRAM = """
    import json, numpy as np, tensorflow as tf, keras
    rng = np.random.default_rng(0)
    B, T, C = 2, 12, 6
    z = tf.constant(rng.normal(size=(B, T, C)) * 3, tf.float32)
    labels = tf.constant([[1, 2, 3, 0], [2, 2, 4, 1]], tf.int32)
    def tf_ctc(logits):
        return tf.nn.ctc_loss(labels=labels, logits=logits, label_length=tf.constant([3, 4]),
                              logit_length=tf.constant([T, T]), logits_time_major=False, blank_index=-1).numpy().tolist()
    def keras_ctc(y_pred):
        return keras.losses.ctc(labels, y_pred).numpy().tolist()
    out = {}
    for name, f in (("tf", tf_ctc), ("keras", keras_ctc)):
        out[name] = {"logits": f(z), "shifted": f(z + 5.0), "log_softmax": f(tf.nn.log_softmax(z)),
                     "softmax": f(tf.nn.softmax(z))}
    import inspect
    out["keras_doc"] = "They should *not* be normalized via softmax." in inspect.getsource(keras.losses.ctc)
    print(json.dumps(out))
"""


def test_tensorflows_and_keras_ctc_losses_apply_their_own_log_softmax():
    # (the mechanism WR-130 states: adding a constant to a frame's logits, or taking their log-softmax first, leaves the
    # loss as it is -- the op normalises them itself; a softmax's output, handed over as logits, gives another loss)
    out = run("tf", CTC_PROGRAM)
    for name in ("tf", "keras"):
        got = out[name]
        for same in ("shifted", "log_softmax"):
            assert all(abs(a - b) < 1e-3 for a, b in zip(got["logits"], got[same])), (name, same, got)
        assert all(abs(a - b) > 1.0 for a, b in zip(got["logits"], got["softmax"])), (name, got)
    assert out["keras_doc"]
    assert_entry_says("WR-130", ["They should *not* be normalized via softmax.", "nn_ops.log_softmax(logits)"])


def test_tensorflows_ctc_error_for_a_label_after_the_blank_is_the_one_wr320_declares():
    out = run("tf", """
        import json, tensorflow as tf
        labels = tf.sparse.from_dense(tf.constant([[71, 61, 78, 57]], tf.int32))
        try:
            tf.compat.v1.nn.ctc_loss(labels=labels, inputs=tf.zeros((32, 1, 79)), sequence_length=[32])
            print(json.dumps({"message": None}))
        except tf.errors.InvalidArgumentError as e:
            print(json.dumps({"message": str(e)}))
    """)
    message = declared("WR-320", "tensorflow")[-1]
    assert message.text.startswith("Saw a non-null label (index >= num_classes - 1) following a null label")
    assert message.example.replace("batch: 7", "batch: 0") + " labels seen so far: 71,61" in out["message"]
    # (num_classes - 1 = 78 is the blank: the last character's index, in a layer with one unit per character)
    assert "num_classes: 79 labels: 71,61,78,57" in out["message"]


TF = "https://github.com/tensorflow/tensorflow/blob/v2.21.0/tensorflow/"


@pytest.mark.parametrize("entry, relative, line, holds, url", [
    ("WR-130", "tensorflow/python/ops/nn_ops.py", 4020, "**WARNING:** This op expects unscaled logits",
     TF + "python/ops/nn_ops.py#L4020-L4022"),
    ("WR-130", "tensorflow/python/ops/ctc_ops.py", 705, "ilabel_log_probs = nn_ops.log_softmax(logits)",
     TF + "python/ops/ctc_ops.py#L705"),
    ("WR-320", "tensorflow/python/ops/ctc_ops.py", 101, "the largest value `(num_classes - 1)` is reserved for the blank label",
     TF + "python/ops/ctc_ops.py#L101"),
    ("WR-320", "tensorflow/include/tensorflow/core/util/ctc/ctc_loss_calculator.h", 332,
     '"Saw a non-null label (index >= num_classes - 1) "', TF + "core/util/ctc/ctc_loss_calculator.h#L332"),
])
def test_the_cited_line_holds_what_the_entry_says(entry, relative, line, holds, url):
    # (the wheel's files, as the tag's: the header under tensorflow/include)
    check_cited_line(entry, "tf", relative, line, holds, url)
