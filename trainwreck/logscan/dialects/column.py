"""One loss value per line, as `print(loss)` in a loop writes it."""
from . import Dialect

DIALECT = Dialect("one number per line", None, mode="column")
