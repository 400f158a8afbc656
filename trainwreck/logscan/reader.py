"""Read a log block by block, in one process or, for a large file, one per core.

The common case -- a block of ordinary numbers -- is handled by C-level regular
expressions and byte operations, never a Python loop per line. NumPy is imported
only for a large log (NUMPY_FROM), so `diagnose` starts fast on a small one.
"""
from __future__ import annotations

import dataclasses
import functools
import itertools
import math
import os
import re
from typing import Callable

from .cleaning import (clean, cleaned, repeats_collapsed, uses_lone_cr, without_a_compared_run, without_questions,
                       without_sentences_beside_a_log,
                       without_title, without_warning_echoes)
from .decimals import with_decimal_points, writes_decimal_commas
from .epoch_words import with_english_epochs, writes_foreign_epochs
from .dialects import history
from .evidence import ACCURACY_ENDS, Evidence, Track, merge
from .layout import (ACCURACY, DETECT_WINDOW, SPELLINGS, Layout, column_values, csv_values, csv_values_and, layout_of, mask,
                     row_value)
from .messages import DEFAULT, MessageFinder
from .numbers import PIECE, Batch, alike, box_frameworks, to_float
from .positions import Locator, Position, last_epoch

CHUNK = 1 << 22          # bytes read at a time
MAX_CARRY = 1 << 22      # a "line" longer than this is cut rather than held in memory
PROSE = 1 << 15          # bytes of the log's start kept for matching plain descriptions
PARALLEL_MIN = 64 << 20  # files at least this big are read by one process per core
STRETCHES_PER_WORKER = 2  # ... split into this many stretches a process
# From this size on, a log pays for importing NumPy (0.1-0.3 s): its blocks' lines are counted, and their
# loss values read where numbers.alike can, a whole block at a time (3x faster than the regex). NumPy is
# not a dependency of the command line (the site's and the tests' extras have it): without it, the regex.
NUMPY_FROM = 16 << 20
# A file this big is a log a program wrote, not a paste: the words of its start are read with repeats collapsed
LARGE_FILE = 16 << 20
# A text longer than one block is a log a program wrote: its layout is read from its start, this long (a
# program's lines repeat; the layout's searches over a whole block were a tenth of the time on 500 MB), unless that
# start settles nothing (_layout)
LAYOUT_WINDOW = 1 << 20
SPELLING_WINDOW = 1 << 16    # bytes of the log's start that say how it writes its decimals and its epochs


@functools.lru_cache(maxsize=1)
def numpy_works() -> bool:
    """Can NumPy be imported here? (Installed is not enough: a broken install fails on import.)"""
    try:
        import numpy  # noqa: F401
    except ImportError:
        return False
    return True


class LogError(Exception):
    """The input cannot be read as a training log; the message is one line."""


def _not_text(source: str, offset: int) -> LogError:
    return LogError(f"{source}: not a text log (a NUL byte at offset {offset}); "
                    "if it is UTF-16, convert it first: iconv -f UTF-16 -t UTF-8")


class _Reader:
    """Feeds whole-line blocks of one stretch of a log into its evidence."""

    def __init__(self, ev: Evidence, layout: Layout, finder: MessageFinder, lone_cr: bool, offset: int = 0,
                 big: bool = False, columns: tuple[int | None, int | None] | None = None):
        self.ev, self.layout, self.finder, self.lone_cr = ev, layout, finder, lone_cr
        self.big = big                   # part of a log of NUMPY_FROM bytes or more
        self.track = Track(ev)
        self.offset = offset             # bytes of the file before this stretch, for error messages
        self.header = layout.mode == "csv" and offset == 0
        # a CSV file's training accuracy column (CSV_ACCURACY) and its gradient norm column (_csv_grad_column), if any:
        # read from the header, which only the file's first stretch holds: by this reader, or, for the stretches of a
        # parallel read, once before them and handed to each (_header_columns)
        self.columns_given = columns is not None
        self.accuracy_column, self.grad_column = columns or (None, None)

    def run(self, read, first_block: bytes = b"") -> Evidence:
        ev, carry = self.ev, b""
        block = first_block or read(CHUNK)
        while block:
            if b"\0" in block:
                raise _not_text(ev.source, self.offset + ev.size + len(carry) + block.index(b"\0"))
            if self.lone_cr:
                block = block.replace(b"\r", b"\n")
            cut = block.rfind(b"\n") + 1
            if cut == 0 and len(carry) + len(block) > MAX_CARRY:      # one enormous line: take it as it is
                cut = len(block)
                ev.long_lines += 1
            # one copy of the block at most: copies were most of the time spent outside the regexes
            if cut == 0:
                data, carry = b"", carry + block
            else:
                data = block if not carry and cut == len(block) else b"".join((carry, memoryview(block)[:cut]))
                carry = block[cut:]
            if data:
                self.feed(data)
            block = read(CHUNK)
        if carry:
            self.feed(carry)
        if ev.size and not self._ended:      # a last line without its newline is a line too
            ev.lines += 1
        self.track.finish()
        return ev

    def feed(self, raw: bytes) -> None:
        """One block of whole lines (the last may lack its newline)."""
        ev, layout = self.ev, self.layout
        line0 = ev.lines                     # newlines before the block: it starts on line line0 + 1
        ev.size += len(raw)
        vector = self._vector()
        ev.lines += _newlines(raw) if vector else raw.count(b"\n")
        self._ended = raw.endswith(b"\n")
        data, added = cleaned(raw)
        data = local_spelling(data, layout)
        ev.lines += added        # a progress line's updates kept before its nan are as many lines
        noted = _messages_noted(ev)
        spans = self.finder.scan(data, ev, line0)
        if layout.mode == "key":
            text = without_questions(without(data, spans))
            if line0 == 0:
                text = without_sentences_beside_a_log(without_a_compared_run(without_title(text)), layout.pattern)
            if _messages_noted(ev) != noted:           # a block with a warning line in it (or another message)
                text = without_warning_echoes(text)
            text = mask(text, layout.others)
            if layout.dialect.rewrite is not None:
                text = layout.dialect.rewrite(text, ev, line0)
            batch = alike(text, layout.literal, layout.pattern) if vector else None
            batch = batch or Batch(layout.pattern.findall(text))
            self.alike = batch.same_shape
            already, start = ev.first_nonfinite is not None, ev.count
            self._values(batch, text, line0, lambda offset: layout.pattern.finditer(text, offset),
                         lambda start, end: len(layout.pattern.findall(text, start, end)))
            if layout.grad is not None and not already:
                _track_grads(ev, layout, data, batch.n, start)
            if layout.accuracy:
                _track_accuracy(ev, text, layout.pattern)
        elif layout.mode == "csv":
            if layout.dialect.rewrite is not None:     # (a frame's empty cells, pandas_frame.empty_cells)
                data = layout.dialect.rewrite(data, ev, line0)
            header, self.header = self.header, False
            already, start = ev.first_nonfinite is not None, ev.count
            if header and not self.columns_given:
                self.accuracy_column = _csv_accuracy_column(data, layout.column)
                self.grad_column = _csv_grad_column(data, layout.column)
            # (the norms matter only beside a clipping threshold, curve_shape's clip that never engaged: read in the
            # same pass over the rows as the losses)
            grads = None
            if self.grad_column is not None and layout.clip_at is not None and not already:
                values, grads = csv_values_and(data, layout.column, header, self.grad_column)
            else:
                values = csv_values(data, layout.column, header)
            self._values(Batch(values), data, line0,
                         lambda start: _csv_rows(data, layout.column, header, start),
                         lambda start, end: len(csv_values(data[start:end], layout.column, header and not start)))
            if grads is not None:
                _track_csv_grads(ev, grads, start)
            if self.accuracy_column is not None:
                _track_csv_accuracy(ev, data, layout.column, self.accuracy_column)
        elif layout.mode == "column":
            self._values(Batch(column_values(data)), data, line0, lambda start: _column_rows(data, start),
                         lambda start, end: len(column_values(data[start:end])))
        elif layout.mode == "list":
            self._list_values(layout.dialect.items(data), data, line0)
        if layout.epochs:
            ev.epoch_out = last_epoch(data, len(data)) or ev.epoch_out

    _ended = True      # the text read so far ends with a newline
    alike = False      # the last block's loss values had one shape: the next is likely read by numbers.alike

    def _vector(self) -> bool:
        """Is this block read with NumPy? Only in a large log, and only after a block whose values
        numbers.alike could read: a log of numbers of varying width never imports it."""
        return (self.alike and self.layout.literal is not None and (self.big or self.ev.size >= NUMPY_FROM)
                and numpy_works())

    def _values(self, batch, text: bytes, line0: int, matches, count) -> None:
        epoch_in, epochs, newlines = self.ev.epoch_out, self.layout.epochs, self.ev.lines - line0
        n = batch.n        # the values themselves are not held: a block may be located after the next is read

        def locate(indices: list[int]) -> list[Position]:
            offsets = _offsets(matches, count, n, indices, text)
            where = Locator(text, line0, epoch_in, epochs, newlines, self.layout.dialect.numbering)
            if self.layout.mode == "csv" and self.layout.column[3] >= 0:
                return [_csv_numbered(where.at(o), text, o, self.layout.column) for o in offsets]
            return [where.at(o) for o in offsets]

        def pending(index: int):
            return lambda: locate([index])[0]

        self.track.add(batch, locate, pending)

    def _list_values(self, found: list, data: bytes, line0: int) -> None:
        """Values read from lists (the dialect's items: history's, a sentence's): each located as the item of its
        list it is, or, for a list of one value, by its line and whatever numbering the line prints."""
        epoch_in, epochs, newlines = self.ev.epoch_out, self.layout.epochs, self.ev.lines - line0

        def locate(indices: list[int]) -> list[Position]:
            where = Locator(data, line0, epoch_in, epochs, newlines, self.layout.dialect.numbering)
            out = []
            for i in indices:
                item = found[i]
                if item.label is None:         # the line's own numbering (a long line's search is not needed)
                    out.append(where.at(item.offset))
                else:
                    # (an epoch printed beside the value says where it is: its place in the list is then no news)
                    out.append(Position(line0 + data.count(b"\n", 0, item.offset) + 1, epoch=item.epoch,
                                        step=None if item.epoch else item.label))
            return out

        self.track.add(Batch([item.number for item in found]), locate, lambda i: lambda: locate([i])[0])


NEAR = 64     # matches walked one by one at most before a wanted one


def _offsets(matches, count, n: int, indices: list[int], text: bytes) -> list[int]:
    """Start offsets of the matches at these indices (increasing) among the block's n matches.

    Each is reached without a Python step per earlier match: the walk starts at a line
    near where the match should be, after counting the matches before that line in C
    (`count(start, end)`), and jumps again when the next wanted match is far ahead."""
    out: dict[int, int] = {}
    todo = sorted(set(indices))
    k = 0
    while k < len(todo):
        i = todo[k]
        start, before = 0, 0
        if i >= NEAR:
            guess = len(text) * (i - NEAR) // max(n, 1)
            while guess > 0:
                start = text.rfind(b"\n", 0, guess) + 1
                # count in C on the shorter side of the line
                before = count(0, start) if start < len(text) // 2 else n - count(start, len(text))
                if before <= i:
                    break
                guess //= 2
            else:
                start, before = 0, 0
        for j, m in enumerate(matches(start), before):
            if j == todo[k]:
                out[j] = m.start()
                k += 1
                if k == len(todo) or todo[k] - j > 2 * NEAR:
                    break
        else:             # fewer matches than counted: cannot happen for a pattern that stays on its line
            raise AssertionError(f"match {todo[k]} of {n} not found")
    return [out[i] for i in indices]


class _Row:
    __slots__ = ("offset",)

    def __init__(self, offset: int):
        self.offset = offset

    def start(self) -> int:
        return self.offset


def _rows(data: bytes, start: int):
    """(offset, line) of each line from `start`, moved back to a line start."""
    pos = data.rfind(b"\n", 0, start) + 1 if start else 0
    while pos < len(data):
        end = data.find(b"\n", pos)
        end = len(data) if end < 0 else end
        yield pos, data[pos:end]
        pos = end + 1


def _csv_rows(data: bytes, column: tuple, header: bool, start: int):
    sep, header_line = column[0], column[2]
    skip = header_line + 1 if header and start == 0 else 0
    for offset, line in _rows(data, start):
        if not line.strip():
            continue
        if skip:
            skip -= 1
            continue
        if row_value(line.split(sep), column) is not None:
            yield _Row(offset)


def _csv_numbered(pos: Position, text: bytes, offset: int, column: tuple) -> Position:
    """A CSV row's position, named by its epoch or step column."""
    sep, index, name = column[0], column[3], column[4]
    end = text.find(b"\n", offset)
    fields = text[offset:end if end >= 0 else len(text)].split(sep)
    if name and index < len(fields) and fields[index].strip():        # (an index with no name is a row count)
        number = fields[index].strip().strip(b"\"'").decode("utf-8", "replace")
        slot = "epoch" if name == "epoch" else "step"
        named = {slot: f"{name} {number}"}
        steps = column[6] if len(column) > 6 else -1
        if slot == "epoch" and 0 <= steps < len(fields) and fields[steps].strip():
            named["step"] = "step " + fields[steps].strip().strip(b"\"'").decode("utf-8", "replace")
        if slot == "epoch" and pos.step == f"[{number}]":     # the same count, read again as a bare fraction
            named["step"] = None
        if slot == "step" and pos.inherited:                  # a banner's epoch above the table is not this row's
            named.update(epoch=None, inherited=False)
        return dataclasses.replace(pos, **named)
    return pos


def _column_rows(data: bytes, start: int):
    from .layout import COLUMN

    pos = data.rfind(b"\n", 0, start) + 1 if start else 0
    return COLUMN.finditer(data, pos)


def _newlines(data: bytes) -> int:
    """data.count(b"\\n"), 2.5x faster: NumPy compares a piece at a time (numbers.PIECE)."""
    import numpy as np

    a = np.frombuffer(data, np.uint8)
    return sum(int(np.count_nonzero(a[low:low + PIECE] == 10)) for low in range(0, len(a), PIECE))


def _messages_noted(ev: Evidence) -> int:
    """How many message lines the evidence has noted so far (kept or only counted)."""
    return ev.more_messages + sum(count for count, *_ in ev.messages.values())


def without(data: bytes, spans: list[tuple[int, int]]) -> bytes:
    """The block without the validation text (the spans), lines kept."""
    if not spans:
        return data
    parts, pos = [], 0
    for start, end in spans:
        parts.append(data[pos:start])
        pos = end
    parts.append(data[pos:])
    return b"".join(parts)


# A gradient norm printed as exactly zero: an integer 0 or a zero in scientific notation. A fixed-point
# `0.000` (or `0.0`) may be any norm below its last digit.
EXACT_ZERO = re.compile(rb"[-+]?0+|[-+]?0+(?:\.0*)?[eE][-+]?\d+")


def _track_grads(ev: Evidence, layout: Layout, data: bytes, n_losses: int, start: int) -> None:
    """Largest gradient norm before the first non-finite loss, pairing line by line: every loss line
    prints the same number of norms (one, or one per parameter); whether every one printed is exactly 0."""
    pattern = layout.grad
    grads = pattern.findall(data)
    if not grads and not n_losses:
        return
    if not grads or not n_losses or len(grads) % n_losses or (
            (len(grads) > n_losses or layout.grad_twice.search(data))
            and not _same_per_line(pattern, data, len(grads) // n_losses, n_losses)):
        ev.grad_paired = False
        return
    per_line = len(grads) // n_losses
    upto = (ev.first_nonfinite - start) * per_line if ev.first_nonfinite is not None else len(grads)
    kept = grads[:upto]
    finite = [v for v in (to_float(g) for g in kept) if v is not None and v == v and abs(v) != float("inf")]
    if finite:
        ev.grad_max_before = max(finite + ([ev.grad_max_before] if ev.grad_max_before is not None else []))
    if kept:
        zero = all(EXACT_ZERO.fullmatch(g.strip()) for g in kept)
        ev.grad_zero_exact = zero if ev.grad_zero_exact is None else (ev.grad_zero_exact and zero)


def _same_per_line(pattern: re.Pattern, data: bytes, per_line: int, n_lines: int) -> bool:
    """Do exactly n_lines lines print exactly per_line norms each? (Several norms per line is rare:
    only then are the lines read one by one.)"""
    counts = [c for c in (len(pattern.findall(line)) for line in data.split(b"\n")) if c]
    return len(counts) == n_lines and all(c == per_line for c in counts)


LINES_LOOKED_AT = 200     # lines read from either end of a block for an accuracy beside the loss


def _track_accuracy(ev: Evidence, text: bytes, loss: re.Pattern) -> None:
    """The first training accuracies printed on loss lines, and the last ones so far (ACCURACY_ENDS of
    each). `text` is the block with validation text cut. Only a few lines from either end are read: it
    costs nothing on a long log."""
    if len(ev.accuracy_head) < ACCURACY_ENDS:
        for line in text.split(b"\n", LINES_LOOKED_AT)[:LINES_LOOKED_AT]:
            if (value := _accuracy_on(ev, line, loss)) is not None:
                ev.accuracy_head.append(value)
                if len(ev.accuracy_head) == ACCURACY_ENDS:
                    break
    tail: list[float] = []
    end = len(text)
    for _ in range(LINES_LOOKED_AT):
        if end <= 0 or len(tail) == ACCURACY_ENDS:
            break
        start = text.rfind(b"\n", 0, end - 1) + 1
        if (value := _accuracy_on(ev, text[start:end], loss)) is not None:
            tail.append(value)
        end = start
    ev.accuracy_tail = (ev.accuracy_tail + tail[::-1])[-ACCURACY_ENDS:]


# The training accuracy's column of a CSV file (CSVLogger's `accuracy`, a loop's `train_acc`): not a validation one
CSV_ACCURACY = (b"train_acc", b"train_accuracy", b"training_accuracy", b"accuracy", b"acc",
                b"categorical_accuracy", b"sparse_categorical_accuracy", b"train_acc_epoch")


def _csv_accuracy_column(data: bytes, column: tuple) -> int | None:
    fields = _csv_header_fields(data, column)
    return next((fields.index(name) for name in CSV_ACCURACY if name in fields), None) if fields else None


def _csv_header_fields(data: bytes, column: tuple) -> list[bytes] | None:
    """The column names of a CSV file's or a table's header (lower-cased, unquoted), or None before it is read."""
    lines = [line.strip() for line in data.split(b"\n", column[2] + 2) if line.strip()]
    if len(lines) <= column[2]:
        return None
    # (a pandas frame's rows print an index its header does not name: pandas_frame.py)
    index = [b""] if len(column) > 7 and column[7] else []
    return index + [f.strip().strip(b"\"'").lower() for f in lines[column[2]].split(column[0])]


# A header's total gradient norm: Lightning's grad_norm() total (`grad_2.0_norm_total`) first, else a plain name -- not a
# parameter's own norm (`grad_2.0_norm/head.bias`, `grad_norm[fc1]`), nor a norm after clipping (`grad_norm_clipped`)
GRAD_TOTAL_COLUMN = re.compile(rb"(?:train/)?grad[\w.]*_norm_total")
GRAD_COLUMN = re.compile(rb"(?:train/)?(?:grad_norm|gnorm|grad norm|total_grad_norm|gradient_norm)")


def _csv_grad_column(data: bytes, column: tuple) -> int | None:
    """The column of the header that gives the total gradient norm (GRAD_TOTAL_COLUMN, else GRAD_COLUMN), if any."""
    fields = _csv_header_fields(data, column) or []
    return next((k for pattern in (GRAD_TOTAL_COLUMN, GRAD_COLUMN) for k, f in enumerate(fields) if pattern.fullmatch(f)),
                None)


def _track_csv_grads(ev: Evidence, grads: list[bytes | None], start: int) -> None:
    """The largest finite gradient norm of the rows before the first non-finite loss (as _track_grads), from the norm
    field of each row that gives a loss (csv_values_and); a row with a loss and no number there leaves the norms
    unpaired."""
    upto = ev.first_nonfinite - start if ev.first_nonfinite is not None else len(grads)
    for field in grads[:upto]:
        value = to_float(field.strip()) if field is not None else None
        if value is None:
            ev.grad_paired = False
            return
        if math.isfinite(value):
            ev.grad_max_before = value if ev.grad_max_before is None else max(ev.grad_max_before, value)


def _track_csv_accuracy(ev: Evidence, data: bytes, column: tuple, at: int) -> None:
    """The first training accuracies of a CSV file's rows, and the last ones so far (as _track_accuracy): from the
    rows that give a loss, only a few from either end of the block."""
    def accuracy(line: bytes) -> float | None:
        fields = line.split(column[0])
        if row_value(fields, column) is None or at >= len(fields):
            return None
        return to_float(fields[at].strip())

    # (the block's first and last lines only: it costs nothing on a long file; a header line gives no loss)
    if len(ev.accuracy_head) < ACCURACY_ENDS:
        for line in data.split(b"\n", LINES_LOOKED_AT)[:LINES_LOOKED_AT]:
            if (value := accuracy(line)) is not None:
                ev.accuracy_head.append(value)
                if len(ev.accuracy_head) == ACCURACY_ENDS:
                    break
    tail = [v for line in data.rsplit(b"\n", LINES_LOOKED_AT)[-LINES_LOOKED_AT:]
            if (v := accuracy(line)) is not None][-ACCURACY_ENDS:]
    ev.accuracy_tail = (ev.accuracy_tail + tail)[-ACCURACY_ENDS:]


def _accuracy_on(ev: Evidence, line: bytes, loss: re.Pattern) -> float | None:
    if not loss.search(line) or not (m := ACCURACY.search(line)):
        return None
    value = to_float(m.group(1))
    if value is not None and line[m.end(1):m.end(1) + 1] == b"%":
        ev.accuracy_percent = True
    return value


def _first_block(stream, source: str) -> tuple[bytes, bool]:
    first = stream.read(CHUNK)
    if not first:
        raise LogError(f"{source}: empty: there is nothing to diagnose")
    return first, uses_lone_cr(first, whole=len(first) < CHUNK)


def _layout(first: bytes, lone_cr: bool) -> Layout:
    text = clean(first.replace(b"\r", b"\n") if lone_cr else first)
    if len(first) < CHUNK:
        return _layout_of(text)
    # (a block cut at CHUNK may end inside a line, which the next block reads whole; a shorter one is the whole text,
    # its last line whole with or without a newline after it: a paste's last sentence, its `max_norm=5000`, is read)
    text = text[:text.rfind(b"\n") + 1] or text
    window = text[:LAYOUT_WINDOW]
    window = window[:window.rfind(b"\n") + 1] or window
    layout = _layout_of(window)
    # (the whole block where its start settles nothing: no loss yet, a start-up's megabyte of other lines; or a choice
    # among several losses, made by the one whose values turn non-finite, which may happen past the window --
    # code_review_s70 1, 2)
    if layout.mode == "none" or layout.named[0] or _spellings_with_values(window) > 1:
        layout = _layout_of(text)
    return layout


# The loss's spellings with a value after them (not a class's name, `CrossEntropyLoss()`, which only says Loss)
SPELLED_VALUE = re.compile(rb"(?<![A-Za-z_])(" + b"|".join(map(re.escape, SPELLINGS)) + rb")\b['\"]?[ \t]{0,8}[:=]?[ \t]{0,8}"
                           rb"(?:[-+]?\.?\d|(?i:nan|inf))")


def _spellings_with_values(window: bytes) -> int:
    """How many of the loss's spellings (layout.SPELLINGS) the window prints a value after (code_review_s70b 8)."""
    seen: set[bytes] = set()
    for m in itertools.islice(SPELLED_VALUE.finditer(window), 2000):
        seen.add(m.group(1))
        if len(seen) == len(SPELLINGS):
            break
    return len(seen)


def _layout_of(text: bytes) -> Layout:
    # (decided on the text's start: a log writes its numbers one way throughout, and a search over a whole 4 MB block
    # for words that are not there costs more than reading it)
    start = text[:SPELLING_WINDOW]
    spelled = Layout(decimal_comma=writes_decimal_commas(start), foreign_epochs=writes_foreign_epochs(start))
    text = local_spelling(text, spelled)
    training = without_questions(without_warning_echoes(without(text, DEFAULT.scan(text, None, 0))))
    layout = layout_of(text, without_sentences_beside_a_log(without_a_compared_run(without_title(training))))
    layout.decimal_comma, layout.foreign_epochs = spelled.decimal_comma, spelled.foreign_epochs
    return layout


def local_spelling(data: bytes, layout: Layout) -> bytes:
    """The block with its decimal commas and its epoch words in other languages written as English writes them,
    where the log's first block writes them so (one decision for the whole log: a log read in parallel reads alike)."""
    if layout.decimal_comma:
        data = with_decimal_points(data)
    if layout.foreign_epochs:
        data = with_english_epochs(data)
    return data


def _read_start(ev: Evidence, layout: Layout, first: bytes) -> None:
    """What the evidence keeps of the start of the text, taken from the first block read so that a log
    read in parallel gives the same: the prose, for matching plain descriptions, and, when no loss was
    found, the loss lists that were seen and refused."""
    start = clean(first[:PROSE])
    ev.prose = start.decode("utf-8", "replace")
    ev.refused = history.refused(start) if layout.mode == "none" else []


def _evidence(source: str, layout: Layout, first: bytes = b"") -> Evidence:
    ev = Evidence(source=source, mode=layout.mode, dialect=layout.dialect.name if layout.mode != "none" else "",
                  loss_key=layout.column[5] if layout.column is not None and len(layout.column) > 5 else "",
                  loss_named=layout.named,
                  # (a key other than the plain loss, read in its place, is no mean the tool vouches for)
                  mean_loss=layout.dialect.mean_loss if layout.mode != "none" and not layout.named[0] else "",
                  clip_at=layout.clip_at,
                  accuracy_percent=layout.mode != "none" and layout.dialect.accuracy_percent)
    ev.show_framework(layout.dialect.framework if layout.mode != "none" else None)
    for origin in box_frameworks(first):
        ev.show_framework(origin)
    _read_start(ev, layout, first)
    return ev


def scan(stream, source: str, finder: MessageFinder | None = None) -> Evidence:
    """Read a binary stream to the end and return the evidence in it."""
    first, lone_cr = _first_block(stream, source)
    layout = _layout(first, lone_cr)
    return _Reader(_evidence(source, layout, first), layout, finder or DEFAULT, lone_cr).run(stream.read, first)


def scan_text(text: str, source: str = "<text>", finder: MessageFinder | None = None) -> Evidence:
    import io

    return scan(io.BytesIO(text.encode("utf-8", "surrogateescape")), source, finder)


def scan_path(path: str, source: str | None = None, workers: int | None = None,
              finder: MessageFinder | None = None, meanwhile: Callable[[], object] | None = None) -> Evidence:
    """Scan a file; a large one is split at line boundaries and read in parallel, and `meanwhile` (what the caller
    needs next, which needs no evidence) is called while the worker processes read it. It is called in every case."""
    source = source or path
    finder = finder or DEFAULT
    workers = workers or min(os.cpu_count() or 1, 4)
    size = os.path.getsize(path)
    with open(path, "rb") as stream:
        if workers < 2 or size < PARALLEL_MIN:
            ev = _words_of_large(scan(stream, source, finder), size)
            if meanwhile is not None:
                meanwhile()
            return ev
        first, lone_cr = _first_block(stream, source)
        layout = _layout(first, lone_cr)
        # (twice as many stretches as processes, each taken by the first process free: the main process builds the
        # weighing meanwhile on one of the cores, and two halves ended up to a quarter of a second apart)
        bounds = [0]
        stretches = STRETCHES_PER_WORKER * workers
        for i in range(1, stretches):
            stream.seek(size * i // stretches)
            stream.readline()                  # to the start of the next line
            bounds.append(max(stream.tell(), bounds[-1]))
        bounds.append(size)
    from concurrent.futures import ProcessPoolExecutor   # only large files pay for importing it

    with ProcessPoolExecutor(max_workers=workers) as pool:
        columns = _header_columns(first, layout, lone_cr)
        read = pool.map(_scan_range, [path] * stretches, [source] * stretches, bounds[:-1], bounds[1:],
                        [layout] * stretches, [finder] * stretches, [lone_cr] * stretches, [columns] * stretches)
        if meanwhile is not None:
            meanwhile()
        parts = list(read)
    ev = parts[0]
    for part in parts[1:]:
        ev = merge(ev, part)
    _read_start(ev, layout, first)
    return _words_of_large(ev, size)


def _words_of_large(ev: Evidence, size: int) -> Evidence:
    """A file of LARGE_FILE bytes or more is a log a program wrote, not a paste: the words of its start are read with
    each line shape once or twice (repeats_collapsed), which the readings of words would otherwise search thousands
    of times over."""
    if size >= LARGE_FILE:
        ev.prose = repeats_collapsed(ev.prose)
    return ev


def _header_columns(first: bytes, layout: Layout, lone_cr: bool) -> tuple[int | None, int | None]:
    """The accuracy and gradient norm columns of a CSV file or a table, read from its header in the first block, for
    the stretches that do not hold it (code_review_s70b 9)."""
    if layout.mode != "csv":
        return None, None
    # (a header stands in the block's first DETECT_WINDOW bytes, where each table format looks for it: not the whole
    # block cleaned again)
    start = first[:DETECT_WINDOW]
    data = local_spelling(clean(start.replace(b"\r", b"\n") if lone_cr else start), layout)
    return _csv_accuracy_column(data, layout.column), _csv_grad_column(data, layout.column)


def _scan_range(path: str, source: str, start: int, end: int, layout: Layout, finder: MessageFinder,
                lone_cr: bool, columns: tuple[int | None, int | None]) -> Evidence:
    with open(path, "rb") as stream:
        stream.seek(start)
        left = end - start

        def read(n: int) -> bytes:
            nonlocal left
            block = stream.read(min(n, left))
            left -= len(block)
            return block

        if start > 0 and layout.mode == "csv":      # only the first range holds the header
            layout = dataclasses.replace(layout, column=(*layout.column[:2], -1, *layout.column[3:]))
        ev = _evidence(source, layout)
        return _Reader(ev, layout, finder, lone_cr, offset=start, big=True, columns=columns).run(read)



