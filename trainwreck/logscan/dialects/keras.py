"""Keras `fit()` in a terminal: an `Epoch 3/12` line, then one progress bar per epoch.

Keras 2 draws `32/32 [==============================] - 1s 5ms/step - loss: 0.6931 - accuracy: 0.5000`,
Keras 3 `32/32 ━━━━━━━━━━━━━━━━━━━━ 1s 5ms/step - accuracy: 0.5000 - loss: 0.6931` in colour
(keras/utils/generic_utils.py at v2.15.0, keras/src/utils/progbar.py at v3.8.0). Each update
backspaces over the line and starts again after a carriage return, so a captured log holds every
update of the epoch's running average; the last one is the epoch's loss. `val_loss` on the last
update is the validation loss.

`fit()` computes each step's gradients afresh: a new `tf.GradientTape` per step in Keras 3's TensorFlow backend
(https://github.com/keras-team/keras/blob/v3.8.0/keras/src/backend/tensorflow/trainer.py#L55-L80) and in Keras 2
(https://github.com/keras-team/keras/blob/v2.15.0/keras/engine/training.py#L1149-L1154); the torch backend zeroes
them before each backward (keras/src/backend/torch/trainer.py at v3.8.0, `train_step`). The optimizer's own
`gradient_accumulation_steps` averages its buffer and resets it.
"""
import math
import re

from . import Dialect
from ..numbers import NUMBER, to_float

# `model.evaluate()` (and `predict()`) after `fit()` draws the same bar with no `Epoch k/N` line before it, over the
# test set's number of steps: `313/313 [=====] - 0s 1ms/step - loss: 0.0824 - accuracy: 0.9776` is the test loss.
# After the block's last Epoch line, a bar with no Epoch line since the last bar, over another number of steps than
# that one, is such a line, and is left out (a nan or inf in it is said beside the verdict, as a validation
# loss's is). Only that end of the block is read so (a reverse search and a short
# loop, not a pass over every bar of a long log): an evaluate() between two fit() calls is read as a loss.
HEADER_OR_BAR = re.compile(rb"(?m)^(?:Epoch \d+/\d+[ \t]*\r?$|[ \t]*\d+/(\d+)[ \t]+(?:\[|\xe2\x94\x81|-[ \t])[^\n]*)")
LOSS = re.compile(rb"(?<![\w])loss: (" + NUMBER + rb")")


def without_evaluate(text: bytes, ev, line0: int) -> bytes:
    """The block with the bars of evaluate() and predict() after its last Epoch line emptied (newlines kept)."""
    start = text.rfind(b"Epoch ")
    if start < 0:
        return text
    start = text.rfind(b"\n", 0, start) + 1
    parts, pos, total, header = [], start, None, False
    for m in HEADER_OR_BAR.finditer(text, start):
        if m.group(1) is None:
            header = True
            continue
        if total is not None and not header and m.group(1) != total:
            parts.append(text[pos:m.start()])
            pos = m.end()
            loss = LOSS.search(m.group(0))
            if ev is not None and ev.evaluated is None and loss and not math.isfinite(to_float(loss.group(1))):
                ev.evaluated = (line0 + text.count(b"\n", 0, m.start()) + 1, loss.group(0).decode().strip(" -"))
        else:
            total = m.group(1)
        header = False
    return text[:start] + b"".join(parts) + text[pos:] if parts else text


DIALECT = Dialect("Keras progress bar", re.compile(rb"(?m)^Epoch \d+/\d+[ \t]*\r?$"), framework="keras",
                  rewrite=without_evaluate,
                  clears_gradients="computes each step's gradients afresh",
                  # PyTorch's transfer-learning tutorial prints `Epoch 0/24` on its own line too: only Keras's bar
                  # (`32/32 [====`, or Keras 3's `━`) says fit() ran the steps; a custom train_step runs them itself
                  clears_shown_by=re.compile(r"\d+/\d+ \[=|\u2501"), clears_unless=re.compile(r"\btrain_step\b"),
                  # a Keras loss reduces "sum_over_batch_size" unless told otherwise (keras/src/losses/loss.py at
                  # v3.8.0, Loss.__init__; Keras 2's ReductionV2.AUTO means the same in fit()), and the bar shows the
                  # running mean of those over the epoch's batches
                  mean_loss="Keras")
