"""A history printed whole: Keras's `History.history` dict, `{'loss': [0.69, 0.52, nan], 'accuracy':
[...], 'val_loss': [...]}` (one value per epoch, appended at each epoch's end: keras/src/callbacks/
history.py at v3.15.1, `on_epoch_end`), or a loop's own list, `losses = [0.69, 0.52, nan]`.

The values sit in a list after the key, not one per line, and the log prints no epoch or step
beside them: a value is located as the item of its list it is ("value 3 of 'loss'"), never as an
epoch the log did not print. Only the training loss's list is read (`loss`, `train_loss`,
`losses`, `loss_history`); `val_loss` and the other lists are not.
"""
import re

from . import Dialect

# The key (quoted or not), `:` or `=`, the opening bracket; the list runs to its closing bracket
# (a pretty-printed history wraps its lists over several lines).
LIST = re.compile(rb"""(?<![\w'"])(['"]?)((?:train(?:ing)?_)?loss(?:es)?(?:_history)?)\1[ \t]*[:=][ \t]*\[([^\[\]]*)\]""")
# One item: a number, bare or in NumPy's or PyTorch's box (`array(0.69)`, `tensor(0.69)`), never
# the digits of a dtype (`float32`) or of a device (`cuda:0`).
ITEM = re.compile(rb"(?<![\w.:])([-+]?(?:\d+\.?\d*(?:[eE][-+]?\d+)?|\.\d+(?:[eE][-+]?\d+)?|[nN]a[nN]|[iI]nf(?:inity)?))(?![\w.])")
BOXED = re.compile(rb"(?:array|tensor)\(\s*")

DIALECT = Dialect("a history list (Keras History.history)", LIST, mode="list")


def items(data: bytes) -> list[tuple[int, bytes, int, bytes]]:
    """(offset, number, its place in its list counted from 1, the list's key) of each value of the
    training-loss lists in data."""
    out = []
    for m in LIST.finditer(data):
        body, start, k = m.group(3), m.start(3), 0
        for part in _parts(body):
            offset, text = part
            found = ITEM.search(text)
            if found is None:
                continue
            k += 1
            out.append((start + offset + found.start(1), found.group(1), k, m.group(2)))
    return out


# One item of a list: text up to the next comma, a box's own commas (`tensor(0.7, grad_fn=<...>)`)
# kept inside their parentheses or angle brackets.
PART = re.compile(rb"(?:[^,(<]|\([^()]*\)|<[^<>]*>|[(<])+")


def _parts(body: bytes):
    """The list's items, each with its offset in the list (split by a regular expression, so a long
    list costs no Python step per character)."""
    for m in PART.finditer(body):
        yield m.start(), _unboxed(m.group(0))


def _unboxed(text: bytes) -> bytes:
    return BOXED.sub(lambda m: b" " * len(m.group(0)), text, count=1)
