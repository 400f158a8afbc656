"""A CSV (or tab- or semicolon-separated) file with a `loss` column, such as Keras's `CSVLogger`
or a metrics file a loop writes: `epoch,loss,val_loss`."""
from . import Dialect

DIALECT = Dialect("a CSV file with a loss column", None, keys=(b"loss", b"train_loss", b"training_loss"), mode="csv")
