"""A pandas DataFrame as Python prints it: a notebook's `pd.DataFrame(history.history)` (Keras's History of a
`fit`), or a logger's CSV file read back with `pd.read_csv("metrics.csv")`, pasted as the notebook showed it:

           loss  accuracy  val_loss  val_accuracy
    0  2.302500    0.1100  2.301000        0.1135
    1  2.301900    0.1120  2.300800        0.1135

The index comes first on each row and has no name over it; the column names are right-aligned above their
columns. An index with a name prints it on a line of its own under the names (`epoch`). A long frame is cut at
its middle by a row of `...` and ends with `[100 rows x 4 columns]`. Those lines are not rows. Each row is the
index and one value a column. The loss read is the frame's training loss column (`loss`, `train_loss`),
numbered by an `epoch` or `step` column (a logger's file keeps them), else by the index where the index has a
name; an unnamed index is a row count, and the rows are placed by their lines.

A frame is read only where every column is one a training history holds (a loss, a metric, the rate, the epoch,
the step, the time): a frame of a sweep's trials, of a data set whose target is called `loss`, or of per-example
losses is no curve (code_review_s70b 3). A frame too wide for the notebook, wrapped or cut in its columns, is not
read.

A logger that writes its training and validation metrics on rows of their own (Lightning's CSVLogger) leaves the
other columns empty, and pandas prints an empty cell as `NaN`: where the rows interleave so, a training loss's `NaN`
is such a cell, not a loss that turned nan (code_review_s70b 1).
"""
from __future__ import annotations

import functools
import re

from . import Dialect
from ..numbers import to_float

# A header: names only, after the blank the index's column leaves (the names right-aligned over their columns)
HEADER = re.compile(rb"(?m)^[ \t]+(?P<names>[A-Za-z_][\w/.]*(?:[ \t]+[A-Za-z_][\w/.]*)*)[ \t]*$")
INDEX_NAME = re.compile(rb"[A-Za-z_]\w*")
# The columns a training history holds: a loss (plain, a part of one, a split's), a metric, the rate, the count
HISTORY_COLUMN = re.compile(rb"(?:(?:train|training|val|valid|validation|test|eval)[_/])?"
                            rb"(?:\w*loss\w*|acc\w*|\w*accuracy|auc|precision|recall|f1\w*|mae|mse|rmse|mape|iou|miou|dice|"
                            rb"perplexity|ppl|top_?\d\w*|lr|learning_rate|epoch|step|iteration|time|\w*_time|grad_norm)")
NUMBERING = (b"epoch", b"step", b"iteration")
ROWS = 3               # rows under the header, one value a name after the index, that make it a frame
WINDOW = 1 << 18       # where a header is looked for: a paste's first lines
NEAR = 4096            # bytes after a header where its first rows are looked for
NAN = re.compile(rb"(?<![\w.])NaN(?![\w.])")


@functools.lru_cache(maxsize=2)        # (asked by the layout and by the formats that give way to a table)
def frame_column(first: bytes) -> tuple | None:
    """The column tuple of table mode (layout.table_column's, with an eighth field True: the rows print an index the
    header does not name) for the first frame in the block whose columns are a training history's and name a
    training loss, or None."""
    from ..layout import COUNT, TABLE_TOTALS, TRAIN_KEY_TOTAL      # (the layout module imports the dialects)

    window = first[:WINDOW]
    for m in HEADER.finditer(window):
        names = m.group("names").lower().split()
        loss = next((k for k, name in enumerate(names) if name in TABLE_TOTALS or TRAIN_KEY_TOTAL.fullmatch(name)),
                    None)
        if loss is None or not all(HISTORY_COLUMN.fullmatch(name) for name in names):
            continue
        lines = window[m.end() + 1:m.end() + 1 + NEAR].split(b"\n", ROWS + 2)[:ROWS + 2]
        index_name = ""
        if lines and INDEX_NAME.fullmatch(lines[0].strip()):
            index_name = lines[0].strip().decode()
            lines = lines[1:]
        rows = [line.split() for line in lines[:ROWS]]
        if len(rows) == ROWS and all(len(f) == len(names) + 1 and COUNT.fullmatch(f[0])
                                     and to_float(f[loss + 1]) is not None for f in rows):
            header = sum(1 for line in window[:m.start()].split(b"\n") if line.strip())
            numbering = next((k for k, name in enumerate(names) if name in NUMBERING), None)
            if numbering is not None:          # (a logger's own count, kept as a column)
                return None, loss + 1, header, numbering + 1, names[numbering].decode(), "", -1, True
            return None, loss + 1, header, 0, index_name, "", -1, True
    return None


def empty_cells(block: bytes, evidence, line0: int) -> bytes:
    """The block with each `NaN` of a frame whose rows interleave (a row with a number where another row has `NaN`,
    and the other way round, in two columns) written as an empty cell: a column a logger left empty on that row."""
    column = frame_column(block) if line0 == 0 else None
    if column is None or b"NaN" not in block:
        return block
    lines = block.split(b"\n")
    start = column[2] + 1
    rows = [(i, line.split()) for i, line in enumerate(lines[start:], start) if line.split()]
    width = max((len(f) for _, f in rows), default=0)
    rows = [(i, f) for i, f in rows if len(f) == width]
    finite_over_nan, nan_over_finite = set(), set()
    for _, fields in rows:
        nans = {k for k, f in enumerate(fields) if f == b"NaN"}
        numbers = {k for k, f in enumerate(fields) if k and f != b"NaN" and to_float(f) is not None}
        finite_over_nan |= {(a, b) for a in numbers for b in nans}
        nan_over_finite |= {(a, b) for a in nans for b in numbers}
    if not finite_over_nan & nan_over_finite:
        return block
    for i, _ in rows:
        lines[i] = NAN.sub(b"--", lines[i])     # (a cell row_value reads as no number: the row gives no loss)
    return b"\n".join(lines)


DIALECT = Dialect("a pandas DataFrame as Python prints it", None, mode="table", column=frame_column,
                  rewrite=empty_cells)
