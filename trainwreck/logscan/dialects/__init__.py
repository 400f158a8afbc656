"""The log formats diagnose knows, one module each, with sample logs beside it in
tests/logs/<module>/ (each sample names the entry it must lead to).

A dialect says how to recognise its format in the first block of a log, which
key holds the training loss (in order of preference), and which framework the
format implies. To teach diagnose a new tool's format, add a module here and
its samples there; `ORDER` tries the most specific formats first and falls
back to plain `key: value` lines, a CSV column, and one number per line.
"""
from __future__ import annotations

import math
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, NamedTuple


@dataclass(frozen=True)
class Dialect:
    name: str                              # as the report names the format
    detect: re.Pattern | None              # searched in the first block; None: always a candidate
    keys: tuple[bytes, ...] = (b"loss", b"Loss", b"LOSS")   # the training loss's key, preferred first
    framework: str | None = None           # an ORIGINS key the format implies
    mode: str = "key"                      # key | list | table | csv | column
    pattern: re.Pattern | None = None      # key mode: the loss pattern itself, for a format whose number comes first
    numbering: tuple[re.Pattern, str] | None = None   # a step count printed with no word (matched at a line's start)
    # key mode: a format whose logger writes a non-finite loss as something else (Hugging Face's 0.0):
    # rewrite(block, evidence, lines before it) gives the block as the values really were, counting what it changed
    rewrite: Callable[[bytes, Any, int], bytes] | None = None
    # how the tool's trainer gives each optimizer step fresh gradients, with its source: a log it printed did
    # not come from a hand-written loop that can leave PyTorch's gradients to pile up ("" when it may have)
    clears_gradients: str = ""
    # ... said only when the paste shows this (the tool's own bar: a bare `Epoch 3/12` line is printed by hand-written
    # loops too), and not when it shows that (the user's own step: Lightning's manual optimization)
    clears_shown_by: re.Pattern | None = None
    clears_unless: re.Pattern | None = None
    # a format recognised by its look whose numbers may be something else: refused when the first block says so
    refused_by: Callable[[bytes], bool] | None = None
    # the loss it prints is a mean over the examples by construction (the tool's own reduction, with its source):
    # a classifier's then starts near ln K, never at a sum's hundreds
    mean_loss: str = ""
    # list mode: the values of the lists in a block, in order (history.Item: offset, number, label)
    items: Callable[[bytes], list] | None = None
    # list mode: detected in the block as it is read, validation text and all (its items tell that apart themselves:
    # a sentence cut where its validation words were joins clauses that were apart)
    whole_text: bool = False
    # its values are the few a reporter chose to give (a sentence's), not all the run printed: words that say the run
    # went nan or does not learn say what they leave out
    chosen: bool = False
    # the optimizer the tool's trainer builds when the paste names none, where it is an adaptive one (its step set by
    # the rate, not the gradient's size), with its source ("" when the tool has no default or it is plain SGD)
    adaptive_default: str = ""
    # list mode: the fewest values that make the format detected (a sentence's own reading decides which two are a run:
    # "went from 1.79 to 1.09")
    fewest: int = 3
    # the base of the logarithm its loss is printed in: a cross-entropy in nats (e) unless the tool says otherwise
    loss_base: float = math.e
    # its accuracy is a percentage with no % sign (OpenNMT-py's `acc: 3.1`): 0.9 there is under one percent
    accuracy_percent: bool = False
    # table mode: the table's columns found in the first block (layout.table_column's tuple, which this is by default:
    # a table under an Epoch or Step header), or None
    column: Callable[[bytes], tuple | None] | None = None


def named(name: str) -> Dialect | None:
    """The dialect a report names (Evidence.dialect)."""
    return next((d for d in ORDER if d.name == name), None)


class LossUnit(NamedTuple):
    per_unit: float        # nats in one unit of the printed loss
    unit: str              # "nats", "bits"
    log: str               # the log a uniform guess is written with: "ln", "log2"


def loss_unit(name: str) -> LossUnit:
    """How the loss of the dialect a report names is counted: ln and nats unless the dialect prints bits (fairseq),
    log2 and bits. A uniform guess over V classes scores ln V nats, log2 V bits: the same guess, 1/ln 2 = 1.44 times
    the number."""
    dialect = named(name)
    if dialect is None or dialect.loss_base == math.e:
        return LossUnit(1.0, "nats", "ln")
    base = dialect.loss_base
    return LossUnit(math.log(base), "bits" if base == 2 else f"base-{base:g} units", "log2" if base == 2 else f"log{base:g}")


from . import (basicsr, caffe, column, cost_after, count_value, csv_table, cyclegan, darknet, deepxde, edsr, fairseq,  # noqa: E402
               hf_trainer, history, keras, keyed, lightning, loss_is, loss_table, megatron, openmmlab, opennmt, pandas_frame,
               point_runner, prose_values, sb3_table,
               speechbrain, step_value, tensorboard_csv, tqdm_bar, train_val, wandb_summary)

ORDER: tuple[Dialect, ...] = (keras.DIALECT, lightning.DIALECT, hf_trainer.DIALECT, wandb_summary.DIALECT,
                              fairseq.DIALECT, megatron.DIALECT, openmmlab.DIALECT, basicsr.DIALECT, edsr.DIALECT, cyclegan.DIALECT, speechbrain.DIALECT,
                              opennmt.DIALECT, point_runner.DIALECT, sb3_table.DIALECT,
                              caffe.DIALECT, darknet.DIALECT, deepxde.DIALECT, tqdm_bar.DIALECT, cost_after.DIALECT, loss_is.DIALECT,
                              step_value.DIALECT, train_val.DIALECT, keyed.DIALECT, history.DIALECT,
                              prose_values.DIALECT, pandas_frame.DIALECT, loss_table.DIALECT, tensorboard_csv.DIALECT, csv_table.DIALECT, count_value.DIALECT, column.DIALECT)
