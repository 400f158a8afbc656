"""A pandas DataFrame as Python prints it: a notebook's `pd.DataFrame(history.history)` (Keras's History of a
`fit`), or a logger's CSV file read back with `pd.read_csv("metrics.csv")`, pasted as the notebook showed it:

           loss  accuracy  val_loss  val_accuracy
    0  2.302500    0.1100  2.301000        0.1135
    1  2.301900    0.1120  2.300800        0.1135

The index comes first on each row and has no name over it; the column names are right-aligned above their
columns. An index with a name prints it on a line of its own under the names (`epoch`). A long frame is cut at
its middle by a row of `...` and ends with `[100 rows x 4 columns]`. Those lines are not rows. Each row is the
index and one value a column. The loss read is the frame's training loss column (`loss`, `train_loss`),
numbered by the index where the index has a name (an unnamed one is a row count: the rows are placed by their
lines).
"""
from __future__ import annotations

import re

from . import Dialect
from ..numbers import to_float

# A header: names only, after the blank the index's column leaves (the names right-aligned over their columns)
HEADER = re.compile(rb"(?m)^[ \t]+(?P<names>[A-Za-z_][\w/.]*(?:[ \t]+[A-Za-z_][\w/.]*)*)[ \t]*$")
INDEX_NAME = re.compile(rb"[A-Za-z_]\w*")
INTEGER = re.compile(rb"-?\d+")
ROWS = 3               # rows under the header, one value a name after the index, that make it a frame
WINDOW = 1 << 18       # where a header is looked for: a paste's first lines


def frame_column(first: bytes) -> tuple | None:
    """The column tuple of table mode (layout.table_column's, with an eighth field True: the rows print an index the
    header does not name) for the first frame in the block whose columns name a training loss, or None."""
    from ..layout import TABLE_TOTALS, TRAIN_KEY_TOTAL      # (the layout module imports the dialects)

    window = first[:WINDOW]
    for m in HEADER.finditer(window):
        names = m.group("names").lower().split()
        loss = next((k for k, name in enumerate(names) if name in TABLE_TOTALS or TRAIN_KEY_TOTAL.fullmatch(name)),
                    None)
        if loss is None:
            continue
        lines = window[m.end() + 1:].split(b"\n", ROWS + 2)[:ROWS + 2]
        index_name = ""
        if lines and INDEX_NAME.fullmatch(lines[0].strip()) and len(lines[0].split()) == 1:
            index_name = lines[0].strip().decode()
            lines = lines[1:]
        rows = [line.split() for line in lines[:ROWS]]
        if all(len(f) == len(names) + 1 and INTEGER.fullmatch(f[0]) and to_float(f[loss + 1]) is not None
               for f in rows) and len(rows) == ROWS:
            header = sum(1 for line in window[:m.start()].split(b"\n") if line.strip())
            return None, loss + 1, header, 0, index_name, "", -1, True
    return None


DIALECT = Dialect("a pandas DataFrame as Python prints it", None, mode="table", column=frame_column)


def pasted(start: bytes) -> bool:
    """Is such a frame in the block? Its rows are the curve, as a table's are (loss_table.pasted)."""
    return frame_column(start) is not None
