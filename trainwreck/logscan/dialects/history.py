"""A history printed whole: Keras's `History.history` dict, `{'loss': [0.69, 0.52, nan], 'accuracy':
[...], 'val_loss': [...]}` (one value per epoch, appended at each epoch's end: keras/src/callbacks/
history.py at v3.15.1, `on_epoch_end`), a loop's own list, `losses = [0.69, 0.52, nan]`, or the same
list printed by NumPy, `losses = [0.69 0.52 ... nan]` (spaces between the items, `...` where NumPy
left the middle out).

The values sit in a list after the key, and the log prints no epoch or step beside them: a value is
located as the item of its list it is ("value 3 of 'loss'", "value 2 from the end of 'loss'" after
NumPy's `...`), never as an epoch the log did not print; a list of one value is located by its line.
Only the training loss's list is read (`loss`, `train_loss`, `losses`, `loss_history`); `val_loss`
and the other lists are not. Not a history: a list of pairs (`[(1, 2.3), ...]`) or of anything but
numbers, a list in a configuration (its line gives another key a single value: `'lr': 0.1`), a
source line that a traceback quotes. A list printed again as it grows is read for its new values, and
one printed again unchanged is not read twice.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from . import Dialect
from ..numbers import BOX, NUMBER

KEY = rb"""(?<![\w'"])(['"]?)((?:train(?:ing)?_)?loss(?:es)?(?:_history)?)\1[ \t]*[:=][ \t]*\["""
# The key (quoted or not), `:` or `=`, and the list up to its closing bracket (a pretty-printed
# history wraps its lists over several lines).
LIST = re.compile(KEY + rb"([^\[\]]*)\]")
OPENED = re.compile(KEY + rb"([^\[\]]{0,4096})")
UNCLOSED = re.compile(KEY + rb"([^\[\]]*)\Z")
# One item: a number, bare or in NumPy's or PyTorch's box (`array(0.69)`, `tensor(0.69)`), never
# the digits of a dtype (`float32`) or of a device (`cuda:0`).
ITEM = re.compile(rb"(?<![\w.:])(" + NUMBER + rb")(?![\w.])")
BOXED = re.compile(BOX + rb"\s*")
# Items split at the commas between them (a box's own commas kept inside its parentheses, and its `shape=()`, or
# angle brackets), or, in a list printed by NumPy, at the spaces.
COMMA_PART = re.compile(rb"(?:[^,(<]|\((?:[^()]|\(\))*\)|<[^<>]*>|[(<])+")
SPACE_PART = re.compile(rb"\S+")
# A configuration gives some other key one value on the same line (`'lr': 0.1`, `'model': 'resnet'`);
# a history's line holds lists, and maybe the epoch it was printed at.
SCALAR_KEY = re.compile(rb"""['"](?!epoch|step|iter)\w+['"][ \t]*:[ \t]*[^\[\s{]""")
# ... or a loop's own line of them with no brackets, `train loss per epoch: 1.412, 0.803, 0.642` (three or more,
# commas between, nothing else on the line): group 1 (the key's quote) is empty, as for an unquoted key
BARE = re.compile(rb"(?im:^[ \t]*()((?:train(?:ing)?[ _])?loss(?:es)?(?:[ _]history| per epoch| curve| values)?)[ \t]*"
                  rb"[:=][ \t]*(" + NUMBER + rb"(?:[ \t]*,[ \t]*" + NUMBER + rb"){2,})[ \t]*\r?$)")
# ... or a Python prompt's echo of the list's name (or a slice of it, `>>> losses[::400]`; an attribute's, printed,
# `>>> print(svi_result.losses[::2000])`), the list on the lines below it: `>>> losses` then `[np.float64(0.69), ...]`
# (group 1, the key's quote, is empty). Not a model's or a layer's `losses`: Keras keeps its add_loss and regularisation
# terms there, one per layer, no curve (nor any list of TensorFlow's or Keras's boxed tensors, whatever holds it).
REPL = re.compile(rb"(?m:^)>>>[ \t]*(?:print\([ \t]*)?(?!(?:model|self|layer|net|encoder|decoder)\w{0,20}\.)"
                  rb"(?:[A-Za-z_]\w{0,30}\.){0,3}()"
                  rb"((?:train(?:ing)?_)?loss(?:es)?(?:_history)?(?:\[[-\d:]{1,20}\])?)[ \t]*(?:\)[ \t]*)?\r?\n[ \t]*"
                  rb"\[(?![ \t]*<(?:tf\.Tensor|KerasTensor|KerasVariable))([^\[\]]*)\]")
FRAME = re.compile(rb'File "[^"\n]*", line \d+')
MIN_VALUES = 3          # a history to detect holds this many values at least (one list per epoch: in all)



@dataclass(frozen=True)
class Item:
    offset: int
    number: bytes
    label: str | None          # "value 3 of 'loss'"; None: located by its line's own numbering
    epoch: str | None = None   # the epoch printed right beside it ("epoch 30 2.3010"), which locates it instead


def items(data: bytes) -> list[Item]:
    """The values of the training-loss lists in data, in order."""
    out: list[Item] = []
    previous: list[bytes] = []
    for m in _lists(data):
        found = _read(data, m)[0]
        if found is None:
            continue
        numbers = [n for _, n, _ in found]
        if numbers == previous:
            continue                           # the same history printed again
        skip = len(previous) if len(numbers) > len(previous) > 0 and numbers[:len(previous)] == previous else 0
        previous = numbers
        key = m.group(2).decode()
        for k, (offset, number, after) in enumerate(found[skip:], start=skip + 1):
            if len(found) == 1:
                label = None
            elif after:
                label = f"value {len(found) - k + 1} from the end of '{key}'"
            else:
                label = f"value {k} of '{key}'"
            out.append(Item(offset, number, label))
    return out


DIALECT = Dialect("a history list (Keras History.history)", re.compile(OPENED.pattern + rb"|" + BARE.pattern + rb"|"
                                                                      + REPL.pattern),
                  mode="list", items=items)


def _lists(data: bytes):
    """The loss-keyed lists in data, and a last one left open where the text ends (a paste cut short)."""
    end = 0
    for m in sorted([*LIST.finditer(data), *BARE.finditer(data), *REPL.finditer(data)], key=re.Match.start):
        end = max(end, m.end())
        yield m
    tail = UNCLOSED.search(data, end)
    if tail is not None:
        yield tail


def detected(first: bytes, dialect: Dialect = DIALECT) -> bool:
    """Does the start of a log hold a history: MIN_VALUES values in its lists, the last of which may be
    open where the start ends (a long list closes past it)? (Or in the lists of another dialect of lists.)"""
    return len(dialect.items(first)) >= min(MIN_VALUES, dialect.fewest)


def refused(data: bytes, most: int = 3) -> list[str]:
    """Why the loss-keyed lists in data that are not read were refused, as a reader would be told:
    "the list under `losses` on line 1 holds pairs"."""
    out = []
    for m in LIST.finditer(data):
        found, why = _read(data, m)
        if found is None and why:
            line = data.count(b"\n", 0, m.start()) + 1
            out.append(f"the list under `{m.group(2).decode()}` on line {line} {why}")
            if len(out) == most:
                break
    return out


def _read(data: bytes, m: re.Match) -> tuple[list[tuple[int, bytes, bool]] | None, str]:
    """(offset, number, after NumPy's `...`) of each item of the list matched, or None and why it is not
    a list of loss values."""
    start = data.rfind(b"\n", 0, m.start()) + 1
    end = data.find(b"\n", m.start())
    line = data[start:end if end >= 0 else len(data)]
    if SCALAR_KEY.search(line):
        return None, "sits in a configuration (its line gives another key a single value)"
    if FRAME.search(data, data.rfind(b"\n", 0, max(start - 1, 0)) + 1, start):
        return None, "is source code a traceback quotes"
    return list_items(m.group(3), m.start(3))


def list_items(body: bytes, base: int) -> tuple[list[tuple[int, bytes, bool]] | None, str]:
    """(offset, number, after NumPy's `...`) of each item of a list's body (what its brackets hold) that starts at
    offset base, or None and why it is not a list of loss values."""
    parts = COMMA_PART if b"," in body else SPACE_PART
    out, after = [], False
    for part in parts.finditer(body):
        text = BOXED.sub(lambda b: b" " * len(b.group(0)), part.group(0), count=1)
        stripped = text.strip()
        if not stripped:
            continue
        if stripped == b"...":
            after = True
            continue
        if stripped[:1] in (b"(", b"["):
            return None, "holds pairs or lists, not one loss per item"
        if stripped[:1] in (b"'", b'"'):
            return None, "holds strings"
        number = ITEM.search(text)
        if number is None:
            return None, "holds something other than numbers"
        out.append((base + part.start() + number.start(1), number.group(1), after))
    return (out or None), ""
