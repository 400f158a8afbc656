"""A CSV (or tab- or semicolon-separated) file with a `loss` column, such as Keras's `CSVLogger`
or a metrics file a loop writes: `epoch,loss,val_loss`."""
from . import Dialect

# (Lightning's metrics.csv names a loss logged on_step and on_epoch twice, `train_loss_step` and `train_loss_epoch`:
# the epoch's mean is read, one row per epoch; a W&B export's `train/loss`; a loop's own smoothed or running loss, the
# only training loss its file holds, in the order of this list; and Ultralytics' results.csv, which holds the
# training loss as its parts, `train/box_loss`, `train/cls_loss` and `train/dfl_loss` (YOLOv5's `train/obj_loss`): the
# box loss, the first, is read: a nan or a climb in another part alone is not seen; with no loss column, a regression's
# or an image model's training `mse` or `l1`, as lines with a loss key read them)
DIALECT = Dialect("a CSV file with a loss column", None,
                  keys=(b"loss", b"train_loss", b"training_loss", b"train_loss_epoch", b"train/loss",
                        b"train_loss_smoothed", b"smoothed_loss", b"running_loss", b"train_loss_avg", b"avg_loss",
                        b"train/box_loss", b"train_mse", b"mse", b"train_l1", b"l1"),
                  mode="csv")
