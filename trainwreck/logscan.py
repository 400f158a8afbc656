"""Read a training log as a stream and keep only what diagnosis needs.

Memory stays bounded whatever the log's size: the loss sequence is reduced to
its first values, the values just before the first non-finite one, and counts.
The common case -- a chunk of ordinary numbers -- is handled by C-level
regular expressions and byte operations, never a Python loop per line. NumPy
is not needed here: `map` over the builtins does the per-value work in C, and
`diagnose` starts faster without importing it.
"""
from __future__ import annotations

import dataclasses
import math
import os
import re
from dataclasses import dataclass, field

CHUNK = 1 << 22          # bytes read at a time
KEEP = 64                # loss values kept at the start and before the first non-finite one
MAX_CARRY = 1 << 22      # a "line" longer than this is cut rather than held in memory

NUMBER = (rb"[-+]?(?:\d+\.?\d*(?:[eE][-+]?\d+)?|\.\d+(?:[eE][-+]?\d+)?"
          rb"|[nN]a[nN]|[iI]nf(?:inity)?|INF(?:INITY)?)")


def _keyed(key: bytes) -> re.Pattern:
    """`key: 1.5`, `key=1.5`, `'key': 1.5`, `key 1.5`: the number after a key.

    A pattern that starts with a literal lets the regex engine jump between
    candidates at C speed; `val_loss`-like keys are masked beforehand instead of
    being excluded by a look-behind, which would make every position a candidate.
    """
    return re.compile(key + rb"['\"]?[ \t]*[:=]?[ \t]*['\"]?(" + NUMBER + rb")(?![\w.])")


LOSS_KEYS = {spelling: _keyed(spelling) for spelling in (b"loss", b"Loss", b"LOSS")}
OTHER_LOSS = re.compile(rb"_(?:loss|Loss|LOSS)\b")     # literal first: no backtracking over long lines
WORD_END = re.compile(rb"[A-Za-z]+$")
TRAINING_PREFIXES = {b"train", b"training", b"Train", b"Training", b"TRAIN"}
EPOCH = re.compile(rb"[Ee]poch\s*[:=#]?\s*(\d+)")
# Gradient norms and a clipping threshold, when the log prints them next to the loss.
GRAD_KEYS = {key: _keyed(key) for key in (b"grad_norm", b"gnorm", b"grad norm")}
CLIP_KEYS = [_keyed(key) for key in (b"clip_at", b"max_norm", b"clip_norm", b"clip_grad_norm")]
COLUMN = re.compile(rb"(?m)^[ \t]*(" + NUMBER + rb")[ \t\r]*$")

# Known messages as the libraries print them. A chunk is searched for them only
# when one of the hints (plain substring tests, C speed) is present.
MESSAGES = [
    re.compile(rb"(?:overflow|underflow|divide by zero|invalid value) encountered in \w+"),   # NumPy
    re.compile(rb"returned nan values in its \w+ output"),                                  # PyTorch anomaly mode
    re.compile(rb"Invalid loss, terminating training"),                                       # Keras TerminateOnNaN
    re.compile(rb"Model diverged with loss = NaN"),                                           # TensorFlow
    re.compile(rb"Gradient overflow\.\s+Skipping step"),                                     # apex / AMP
    re.compile(rb"Minimum loss scale reached"),                                               # fairseq
]
# Long hints are found faster than short ones (the substring search skips further).
MESSAGE_HINTS = (b" encountered in ", b" returned nan values in its ", b"Invalid loss, terminating training",
                 b"Model diverged with loss = NaN", b"Gradient overflow.", b"Minimum loss scale reached")


class LogError(Exception):
    """The input cannot be read as a training log; the message is one line."""


@dataclass
class Evidence:
    source: str
    lines: int = 0
    size: int = 0
    mode: str = "none"                     # key | csv | column | none
    count: int = 0                         # loss values found
    head: list[float] = field(default_factory=list)
    before: list[float] = field(default_factory=list)   # values just before the first non-finite (or the last ones)
    before_start: int = 0                  # index of before[0]
    first_nonfinite: int | None = None
    first_nonfinite_value: float | None = None
    first_nan: int | None = None
    finite_after: int = 0                  # finite values after the first non-finite one
    last: float | None = None
    low: float | None = None               # lowest finite value before the first non-finite one (or in all)
    low_at: int = 0                        # index of its first occurrence
    high: float | None = None              # highest finite value before the first non-finite one (or in all)
    epoch_of_first: int | None = None      # the epoch label of the first value, if the log has one
    messages: dict[str, list[int]] = field(default_factory=dict)   # text -> [count, first line]
    long_lines: int = 0
    grad_max_before: float | None = None   # largest finite gradient norm before the first non-finite loss
    grad_paired: bool = True               # every loss line had a gradient norm next to it
    clip_at: float | None = None           # the clipping threshold the log states

    def epoch(self, index: int) -> int:
        """An index into the loss sequence, in the log's own epoch numbering when it has one."""
        return index + (self.epoch_of_first if self.epoch_of_first is not None else 1)


class _Track:
    """Bounded summary of a stream of loss values."""

    def __init__(self, ev: Evidence):
        self.ev = ev

    def add_raw(self, raw: list[bytes]) -> None:
        """Values as matched text. The usual all-finite batch is converted and summarised in C."""
        if not raw:
            return
        joined = b"".join(raw)
        if b"n" in joined or b"N" in joined:          # every spelling of nan and inf has an n or N
            self.add(list(map(float, raw)))
            return
        values = list(map(float, raw))
        if max(values) == math.inf or min(values) == -math.inf:   # 1e309 has no n, yet it is inf
            self.add(values)
            return
        ev = self.ev
        if ev.first_nonfinite is None:
            need = max(KEEP - len(ev.head), 0)
            self._finite_run(values[:need], values[-KEEP:], len(values), values)
        else:
            ev.finite_after += len(values)
        self._done(len(values), values[-1])

    def add(self, values: list[float]) -> None:
        ev = self.ev
        if not values:
            return
        finite = list(map(math.isfinite, values))
        if ev.first_nonfinite is None:
            upto = _index(finite, False)
            need = max(KEEP - len(ev.head), 0)
            self._finite_run(values[:need], values[:upto][-KEEP:], upto, values[:upto])
            if upto < len(values):
                ev.first_nonfinite = ev.count + upto
                ev.first_nonfinite_value = values[upto]
                ev.finite_after += sum(finite[upto + 1:])
        else:
            ev.finite_after += sum(finite)
        if ev.first_nan is None:
            nan = _index(list(map(math.isnan, values)), True)
            if nan < len(values):
                ev.first_nan = ev.count + nan
        self._done(len(values), values[-1])

    def _finite_run(self, head: list[float], tail: list[float], upto: int, finite: list[float]) -> None:
        """The batch's first `upto` values are `finite`: `head` starts them, `tail` ends them."""
        ev = self.ev
        ev.head += head
        keep = (ev.before + tail)[-KEEP:]
        ev.before_start = ev.count + upto - len(keep)
        ev.before = keep
        if finite:
            low, high = min(finite), max(finite)
            if ev.low is None or low < ev.low:
                ev.low, ev.low_at = low, ev.count + finite.index(low)
            ev.high = high if ev.high is None else max(ev.high, high)

    def _done(self, n: int, last: float) -> None:
        self.ev.count += n
        self.ev.last = last


def _index(flags: list[bool], value: bool) -> int:
    """Position of the first `value` in flags, or len(flags)."""
    try:
        return flags.index(value)
    except ValueError:
        return len(flags)


def _other_losses(data: bytes) -> list[bytes]:
    """The `val_loss`-like keys of this log (not train_loss), to hide from the loss pattern."""
    keys, seen, pos = set(), set(), 0
    while m := OTHER_LOSS.search(data, pos):
        word = WORD_END.search(data[max(0, m.start() - 32):m.start()])
        pos = m.end()
        if not word:
            continue
        key = word.group(0) + m.group(0)
        if word.group(0) not in TRAINING_PREFIXES:
            keys.add(key)
        if key not in seen and len(seen) < 16:
            # A log repeats its few keys on every line: drop this one (as a whole word,
            # so `pretrain_loss` survives `train_loss`) from the rest of the search in
            # one C-level pass rather than visiting every occurrence.
            seen.add(key)
            whole = re.compile(re.escape(key) + rb"(?<![A-Za-z]" + re.escape(key) + rb")")
            data = data[:pos] + whole.sub(b"", data[pos:])
    return sorted(keys)


def _mask(data: bytes, others: list[bytes]) -> bytes:
    for key in others:
        if key in data:
            data = data.replace(key, key[:-4] + b"_" * 4)
    return data


def _scan_messages(data: bytes, ev: Evidence, line0: int) -> None:
    if not any(h in data for h in MESSAGE_HINTS):
        return
    for pattern in MESSAGES:
        for m in pattern.finditer(data):
            text = " ".join(m.group(0).decode("ascii", "replace").split())
            seen = ev.messages.get(text)
            if seen:
                seen[0] += 1
            else:
                ev.messages[text] = [1, line0 + data.count(b"\n", 0, m.start()) + 1]


def _detect_mode(data: bytes, masked: bytes) -> tuple[str, object]:
    """key (the spelling and its first match) | csv (its loss column) | column | none, from the first chunk."""
    found = [(m, spelling) for spelling, pattern in LOSS_KEYS.items() if (m := pattern.search(masked))]
    if found:
        return "key", min(found, key=lambda pair: pair[0].start())
    low = data.lower()
    lines = [line.strip() for line in low.split(b"\n")[:200] if line.strip()]
    for i, line in enumerate(lines[:5]):
        for sep in (b",", b"\t", b";"):
            fields = [f.strip().strip(b"\"'") for f in line.split(sep)]
            if len(fields) > 1:
                for name in (b"loss", b"train_loss", b"training_loss"):
                    if name in fields:
                        return "csv", (sep, fields.index(name), i)
    numeric = [line for line in lines[:20] if COLUMN.fullmatch(line)]
    if lines and len(numeric) >= max(1, len(lines[:20]) // 2):
        return "column", None
    return "none", None


def _epoch_of_first(data: bytes, m: re.Match) -> int | None:
    """The epoch label on the first loss value's line or the line before it."""
    start = data.rfind(b"\n", 0, max(data.rfind(b"\n", 0, m.start()), 0)) + 1  # this line and the one before
    found = EPOCH.findall(data[start:m.start()])
    return int(found[-1]) if found else None


@dataclass
class Layout:
    """How this log writes its loss, and what its first chunk says once."""
    mode: str = "none"                     # key | csv | column | none
    pattern: object = None                 # key mode: the compiled loss pattern
    column: tuple | None = None            # csv mode: (separator, index, header line)
    others: list[bytes] = field(default_factory=list)   # val_loss-like keys to mask
    grad: object = None                    # pattern for a gradient norm printed beside the loss
    epoch_of_first: int | None = None      # the epoch label of the first loss value
    clip_at: float | None = None           # the clipping threshold the log states


def _layout(first: bytes) -> Layout:
    others = _other_losses(first)
    masked = _mask(first, others)
    mode, found = _detect_mode(first, masked)
    layout = Layout(mode, column=found if mode == "csv" else None, others=others, clip_at=_clip_at(first))
    if mode == "key":
        found, spelling = found
        layout.pattern = LOSS_KEYS[spelling]
        layout.epoch_of_first = _epoch_of_first(masked, found)
        layout.grad = next((p for key, p in GRAD_KEYS.items() if key in first), None)
        if others:
            _drop_mask(layout, first, masked, found, spelling)
    return layout


def _drop_mask(layout: Layout, first: bytes, masked: bytes, found: re.Match, spelling: bytes) -> None:
    """Masking `val_loss` costs a pass over every chunk. When the training loss key
    is always preceded by the same byte (` loss`, `'loss`), a pattern that
    includes that byte cannot match `val_loss`, and no mask is needed. Used only
    if it finds exactly the same values in the first chunk."""
    before = masked[found.start() - 1:found.start()]
    if not before or before.isalnum() or before in (b"_", b"\n"):
        return
    narrow = _keyed(re.escape(before) + spelling)
    if narrow.findall(first) == layout.pattern.findall(masked):
        layout.pattern, layout.others = narrow, []


def _clip_at(first: bytes) -> float | None:
    for pattern in CLIP_KEYS:
        m = pattern.search(first)
        if m and _to_float(m.group(1)) is not None:
            return _to_float(m.group(1))
    return None


def _check_first(block: bytes, source: str) -> None:
    if not block:
        raise LogError(f"{source}: empty: there is nothing to diagnose")
    if b"\0" in block[:8192]:
        raise LogError(f"{source}: not a text log (it contains NUL bytes); "
                       "if it is UTF-16, convert it first: iconv -f UTF-16 -t UTF-8")


def _feed(ev: Evidence, track: _Track, layout: Layout, data: bytes, header: bool) -> None:
    """One block of whole lines."""
    ev.size += len(data)
    _scan_messages(data, ev, ev.lines)
    if layout.mode == "key":
        losses = layout.pattern.findall(_mask(data, layout.others))
        already, start = ev.first_nonfinite is not None, ev.count
        track.add_raw(losses)
        if layout.grad is not None and not already:
            _track_grads(ev, layout.grad.findall(data), len(losses), start)
    elif layout.mode == "csv":
        track.add(_csv_values(data.lower(), layout.column, skip_header=header))
    elif layout.mode == "column":
        track.add(_column_values(data))
    ev.lines += data.count(b"\n") + (0 if data.endswith(b"\n") else 1)


def _track_grads(ev: Evidence, grads: list[bytes], n_losses: int, start: int) -> None:
    """Largest gradient norm before the first non-finite loss, pairing line by line."""
    if len(grads) != n_losses:
        ev.grad_paired = False
        return
    upto = ev.first_nonfinite - start if ev.first_nonfinite is not None else len(grads)
    finite = [v for v in (_to_float(g) for g in grads[:upto]) if v is not None and math.isfinite(v)]
    if finite:
        ev.grad_max_before = max(finite + ([ev.grad_max_before] if ev.grad_max_before is not None else []))


def _scan_blocks(read, ev: Evidence, layout: Layout, first_block: bytes = b"") -> Evidence:
    """Feed whole-line blocks from read() until it returns nothing."""
    track = _Track(ev)
    carry = b""
    header = True
    block = first_block or read(CHUNK)
    while block:
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
            _feed(ev, track, layout, data, header)
            header = False
        block = read(CHUNK)
    if carry:
        _feed(ev, track, layout, carry, header)
    return ev


def scan(stream, source: str) -> Evidence:
    """Read a binary stream to the end and return the evidence in it."""
    first = stream.read(CHUNK)
    _check_first(first, source)
    layout = _layout(first)
    return _scan_blocks(stream.read, _evidence(source, layout), layout, first)


def _evidence(source: str, layout: Layout) -> Evidence:
    return Evidence(source=source, mode=layout.mode, epoch_of_first=layout.epoch_of_first, clip_at=layout.clip_at)


PARALLEL_MIN = 64 << 20      # files at least this big are read by one process per core


def scan_path(path: str, source: str | None = None, workers: int | None = None) -> Evidence:
    """Scan a file; a large one is split at line boundaries and read in parallel."""
    source = source or path
    workers = workers or min(os.cpu_count() or 1, 4)
    size = os.path.getsize(path)
    with open(path, "rb") as stream:
        if workers < 2 or size < PARALLEL_MIN:
            return scan(stream, source)
        first = stream.read(CHUNK)
        _check_first(first, source)
        layout = _layout(first)
        bounds = [0]
        for i in range(1, workers):
            stream.seek(size * i // workers)
            stream.readline()                  # to the start of the next line
            bounds.append(max(stream.tell(), bounds[-1]))
        bounds.append(size)
    from concurrent.futures import ProcessPoolExecutor   # only large files pay for importing it

    with ProcessPoolExecutor(max_workers=workers) as pool:
        parts = list(pool.map(_scan_range, [path] * workers, bounds[:-1], bounds[1:], [layout] * workers))
    ev = parts[0]
    for part in parts[1:]:
        ev = _merge(ev, part)
    ev.source = source
    return ev


def _scan_range(path: str, start: int, end: int, layout: Layout) -> Evidence:
    with open(path, "rb") as stream:
        stream.seek(start)
        left = end - start

        def read(n: int) -> bytes:
            nonlocal left
            block = stream.read(min(n, left))
            left -= len(block)
            return block

        if start > 0 and layout.mode == "csv":      # only the first range holds the header
            layout = dataclasses.replace(layout, column=(*layout.column[:2], -1))
        return _scan_blocks(read, _evidence(path, layout), layout)


def _finite_count(ev: Evidence) -> int:
    return ev.count if ev.first_nonfinite is None else ev.first_nonfinite + ev.finite_after


def _merge(a: Evidence, b: Evidence) -> Evidence:
    """The evidence of a range followed by the range after it."""
    out = Evidence(source=a.source, mode=a.mode, lines=a.lines + b.lines, size=a.size + b.size,
                   count=a.count + b.count, head=(a.head + b.head)[:KEEP], long_lines=a.long_lines + b.long_lines,
                   last=b.last if b.count else a.last, epoch_of_first=a.epoch_of_first,
                   grad_paired=a.grad_paired and b.grad_paired, clip_at=a.clip_at)
    _merge_range(out, a, b)
    grads = [g for g in (a.grad_max_before, None if a.first_nonfinite is not None else b.grad_max_before)
             if g is not None]
    out.grad_max_before = max(grads) if grads else None
    if a.first_nonfinite is not None:
        out.first_nonfinite, out.first_nonfinite_value = a.first_nonfinite, a.first_nonfinite_value
        out.before, out.before_start = a.before, a.before_start
        out.finite_after = a.finite_after + _finite_count(b)
        out.first_nan = a.first_nan if a.first_nan is not None else (
            a.count + b.first_nan if b.first_nan is not None else None)
    else:
        if b.before_start == 0:
            joined = a.before + b.before
            out.before = joined[-KEEP:]
            out.before_start = a.before_start + len(joined) - len(out.before)
        else:
            out.before, out.before_start = b.before, a.count + b.before_start
        if b.first_nonfinite is not None:
            out.first_nonfinite = a.count + b.first_nonfinite
            out.first_nonfinite_value = b.first_nonfinite_value
            out.finite_after = b.finite_after
        out.first_nan = a.count + b.first_nan if b.first_nan is not None else None
    out.messages = {k: list(v) for k, v in a.messages.items()}
    for text, (count, line) in b.messages.items():
        if text in out.messages:
            out.messages[text][0] += count
        else:
            out.messages[text] = [count, a.lines + line]
    return out


def _merge_range(out: Evidence, a: Evidence, b: Evidence) -> None:
    """Lowest and highest finite values before the first non-finite one, over a then b."""
    out.low, out.low_at, out.high = a.low, a.low_at, a.high
    if a.first_nonfinite is not None or b.low is None:
        return
    if a.low is None or b.low < a.low:
        out.low, out.low_at = b.low, a.count + b.low_at
    out.high = b.high if a.high is None else max(a.high, b.high)


def _to_float(text: bytes) -> float | None:
    try:
        return float(text.strip().strip(b"\"'"))
    except ValueError:
        return None


def _csv_values(low: bytes, column, skip_header: bool) -> list[float]:
    sep, col, header_line = column
    lines = [line for line in low.split(b"\n") if line.strip()]
    if skip_header:
        lines = lines[header_line + 1:]
    values = []
    for line in lines:
        fields = line.split(sep)
        if col < len(fields):
            v = _to_float(fields[col])
            if v is not None:
                values.append(v)
    return values


def _column_values(low: bytes) -> list[float]:
    return list(map(float, COLUMN.findall(low)))
