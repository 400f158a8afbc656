"""Keras `fit()` in a terminal: an `Epoch 3/12` line, then one progress bar per epoch.

Keras 2 draws `32/32 [==============================] - 1s 5ms/step - loss: 0.6931 - accuracy: 0.5000`,
Keras 3 `32/32 ━━━━━━━━━━━━━━━━━━━━ 1s 5ms/step - accuracy: 0.5000 - loss: 0.6931` in colour
(keras/utils/generic_utils.py at v2.15.0, keras/src/utils/progbar.py at v3.8.0). Each update
backspaces over the line and starts again after a carriage return, so a captured log holds every
update of the epoch's running average; the last one is the epoch's loss. `val_loss` on the last
update is the validation loss.
"""
import re

from . import Dialect

DIALECT = Dialect("Keras progress bar", re.compile(rb"(?m)^Epoch \d+/\d+[ \t]*\r?$"), framework="keras")
