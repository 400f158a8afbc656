"""Weights & Biases' closing lines: `wandb: Run history:` (a sparkline per metric, no numbers) and `wandb: Run
summary:`, the last value each metric logged, one per line, keys sorted (`wandb:  train/loss 0.0`).

A summary is one value per metric, not a curve: the training loss's last value (`train/loss`, as the Hugging
Face Trainer's W&B callback names it) is read. In a Trainer run, a last `train/loss` of 0.0 beside a last
`train/grad_norm` of nan or inf is the loss the Trainer's nan/inf filter hid (hidden.py), and is read as nan.
The run's mean, `train_loss`, is not a step.
"""
import re

from .. import hidden
from . import Dialect, loss_table

DIALECT = Dialect("Weights & Biases run summary", re.compile(rb"(?m)^wandb: Run summary:"), keys=(b"train/loss",),
                  framework="transformers", rewrite=hidden.unhide_summary, refused_by=loss_table.pasted)
