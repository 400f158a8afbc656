"""Hugging Face `Trainer`: one dict per logging step, `{'loss': 0.6931, 'grad_norm': 1.52,
'learning_rate': 4.9e-05, 'epoch': 0.04}`, between updates of a tqdm bar.

`eval_loss` is the validation loss, and the closing summary's `train_loss` (the mean over the
run) is not a step: only the quoted `'loss'` key is read. The fractional `epoch` is the position.
A `'loss': 0.0` beside a nan gradient norm is the nan the Trainer's filter hides (hidden.py).

The Trainer zeroes the gradients after every optimizer step
(https://github.com/huggingface/transformers/blob/v4.57.1/src/transformers/trainer.py#L2740-L2752) and divides
an accumulated loss by the number of micro-batches (same file, L4060-L4071).
"""
import re

from .. import hidden
from . import Dialect

DIALECT = Dialect("Hugging Face Trainer", re.compile(rb"\{'loss': |'learning_rate': "), keys=(b"'loss'",),
                  framework="transformers", rewrite=hidden.unhide,
                  clears_gradients="zeroes the gradients after every optimizer step",
                  # (TrainingArguments.optim defaults to "adamw_torch", "adamw_torch_fused" from torch 2.8:
                  # https://github.com/huggingface/transformers/blob/00349ae87eddc872ffa21a8a54f264375a0056a8/src/transformers/training_args.py)
                  adaptive_default="AdamW, the Trainer's default optimizer (TrainingArguments.optim)")
