"""A table aligned with spaces under a header that starts with its numbering column and names its
losses -- Ultralytics YOLO's training lines (ultralytics/engine/trainer.py at commit 00016300105e:
`progress_string()` above each epoch, then a bar whose description is `f"{epoch + 1}/{self.epochs}"`,
the memory and `self.tloss`, the running mean of each loss part over the epoch's batches; YOLOv5's
train.py prints the same shape):

          Epoch    GPU_mem   box_loss   cls_loss   dfl_loss  Instances       Size
          1/100      2.61G      1.213      1.569      1.236         42        640: 100%|████| 8/8 [...]

Each row is a progress bar (only its last update counts). The loss read is the table's total if it
prints one (`loss`, fastai's `train_loss`, YOLOv5's `total`), else the sum of the loss parts it
prints (`box_loss + cls_loss + dfl_loss`): the trainer backpropagates `loss.sum()`, the criterion's
gain-weighted parts times the batch size, and shows their running means (`self.tloss`) in the bar. The header may come after a banner, the
settings and a model summary; lines between the rows -- the header repeated each epoch, the
validation summary (`all  128  929  0.641 ...`) -- are not rows: a row's first field is a count
(`1/100`). fastai's `fit` table (`epoch train_loss valid_loss accuracy time`) has the same shape.
"""
from . import Dialect

DIALECT = Dialect("a table of loss columns under an Epoch or Step header", None, mode="table")


def pasted(start: bytes) -> bool:
    """Is such a table (or a pandas frame, pandas_frame.py) in the block? Its rows are the curve: a key of a loss on
    another line (a W&B run summary's `train/loss 2.64`) is one value of it, and the formats tried before this one
    refuse the block for it."""
    from ..layout import table_column      # (the layout module imports the dialects)
    from .pandas_frame import frame_column

    return table_column(start, prints=False) is not None or frame_column(start) is not None
