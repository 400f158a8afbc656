"""One loss value per line, as `print(loss)` in a loop writes it (a bare number, or a tensor as PyTorch prints one)."""
from . import Dialect

DIALECT = Dialect("one number per line", None, mode="column")
