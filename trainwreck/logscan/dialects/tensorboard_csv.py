"""TensorBoard's scalar export: the "Download CSV" link under a chart (and `tensorboard dev`'s export)
writes one scalar tag as `Wall time,Step,Value`, one row per logged step.

The file does not name the tag it holds; pasted into a question about a loss, it is the loss. The
`Value` column is read, numbered by `Step`; the report says which column it read.
"""
import re

from . import Dialect

DIALECT = Dialect("TensorBoard's scalar CSV export (its Value column)",
                  re.compile(rb"(?im)^[ \t]*\"?wall time\"?,\"?step\"?,\"?value\"?[ \t]*\r?$"), keys=(b"value",), mode="csv")
