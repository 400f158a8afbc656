"""Read a training log as a stream and keep only what diagnosis needs.

Memory stays bounded whatever the log's size: the loss sequence is reduced to
its first values, the values just before the first non-finite one, and counts.
The common case -- a chunk of ordinary numbers -- is handled by C-level
regular expressions and byte operations, never a Python loop per line.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

import numpy as np

CHUNK = 1 << 22          # bytes read at a time
KEEP = 64                # loss values kept at the start and before the first non-finite one
MAX_CARRY = 1 << 22      # a "line" longer than this is cut rather than held in memory

NUMBER = (rb"[-+]?(?:\d+\.?\d*(?:[eE][-+]?\d+)?|\.\d+(?:[eE][-+]?\d+)?"
          rb"|[nN]a[nN]|[iI]nf(?:inity)?|INF(?:INITY)?)")
# A pattern that starts with a literal lets the regex engine jump between
# candidates at C speed; `val_loss`-like keys are masked beforehand instead of
# being excluded by a look-behind, which would make every position a candidate.
LOSS_KEYS = {spelling: re.compile(spelling + rb"['\"]?[ \t]*[:=]?[ \t]*['\"]?(" + NUMBER + rb")(?![\w.])")
             for spelling in (b"loss", b"Loss", b"LOSS")}
OTHER_LOSS = re.compile(rb"([A-Za-z]+)_(?:loss|Loss|LOSS)\b")
TRAINING_PREFIXES = {b"train", b"training", b"Train", b"Training", b"TRAIN"}
EPOCH = re.compile(rb"[Ee]poch\s*[:=#]?\s*(\d+)")
BARE_NUMBER = re.compile(rb"^\s*(" + NUMBER + rb")\s*$")
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
    re.compile(rb"[Ll]oss is (?:nan|NaN|inf)"),
]
MESSAGE_HINTS = (b"encountered", b"nan values", b"nvalid loss", b"iverged", b"kipping step",
                 b"oss scale", b"oss is ")


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
    epoch_of_first: int | None = None      # the epoch label of the first value, if the log has one
    messages: dict[str, list[int]] = field(default_factory=dict)   # text -> [count, first line]
    long_lines: int = 0

    def epoch(self, index: int) -> int:
        """An index into the loss sequence, in the log's own epoch numbering when it has one."""
        return index + (self.epoch_of_first if self.epoch_of_first is not None else 1)


class _Track:
    """Bounded summary of a stream of loss values."""

    def __init__(self, ev: Evidence):
        self.ev = ev

    def add_raw(self, raw: list[bytes]) -> None:
        if not raw:
            return
        ev = self.ev
        joined = b"".join(raw)
        if b"n" not in joined and b"N" not in joined:   # every spelling of nan and inf has an n or N
            if ev.first_nonfinite is None:
                need = KEEP - len(ev.head)
                if need > 0:
                    ev.head += [float(v) for v in raw[:need]]
                tail = [float(v) for v in raw[-KEEP:]]
                keep = (ev.before + tail)[-KEEP:]
                ev.before_start = ev.count + len(raw) - len(keep)
                ev.before = keep
            else:
                ev.finite_after += len(raw)
            ev.count += len(raw)
            ev.last = float(raw[-1])
            return
        self.add(np.array(raw).astype(float))

    def add(self, values: np.ndarray) -> None:
        ev = self.ev
        if values.size == 0:
            return
        if ev.first_nonfinite is None:
            bad = np.flatnonzero(~np.isfinite(values))
            upto = bad[0] if bad.size else values.size
            need = KEEP - len(ev.head)
            if need > 0:
                ev.head += values[:need].tolist()
            keep = (ev.before + values[:upto].tolist())[-KEEP:]
            ev.before_start = int(ev.count + upto - len(keep))
            ev.before = keep
            if bad.size:
                ev.first_nonfinite = ev.count + int(upto)
                ev.first_nonfinite_value = float(values[upto])
                rest = values[upto + 1:]
                ev.finite_after += int(np.isfinite(rest).sum())
        else:
            ev.finite_after += int(np.isfinite(values).sum())
        if ev.first_nan is None:
            nans = np.flatnonzero(np.isnan(values))
            if nans.size:
                ev.first_nan = ev.count + int(nans[0])
        ev.count += int(values.size)
        ev.last = float(values[-1])


def _other_losses(data: bytes) -> list[bytes]:
    """The `val_loss`-like keys of this log (not train_loss), to hide from the loss pattern."""
    return sorted({m.group(0) for m in OTHER_LOSS.finditer(data) if m.group(1) not in TRAINING_PREFIXES})


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


def _detect_mode(data: bytes, others: list[bytes]) -> tuple[str, object]:
    """key (with its spelling) | csv (with its loss column) | column | none, from the first chunk."""
    masked = _mask(data, others)
    found = [(m.start(), key) for key, pattern in LOSS_KEYS.items() if (m := pattern.search(masked))]
    if found:
        return "key", LOSS_KEYS[min(found)[1]]
    low = data.lower()
    lines = [line.strip() for line in low.split(b"\n")[:200] if line.strip()]
    for i, line in enumerate(lines[:5]):
        for sep in (b",", b"\t", b";"):
            fields = [f.strip().strip(b"\"'") for f in line.split(sep)]
            if len(fields) > 1:
                for name in (b"loss", b"train_loss", b"training_loss"):
                    if name in fields:
                        return "csv", (sep, fields.index(name), i)
    numeric = [line for line in lines[:20] if BARE_NUMBER.match(line)]
    if lines and len(numeric) >= max(1, len(lines[:20]) // 2):
        return "column", None
    return "none", None


def _epoch_of_first(data: bytes, pattern) -> int | None:
    m = pattern.search(data)
    if not m:
        return None
    start = data.rfind(b"\n", 0, max(data.rfind(b"\n", 0, m.start()), 0)) + 1  # this line and the one before
    found = EPOCH.findall(data[start:m.start()])
    return int(found[-1]) if found else None


def scan(stream, source: str) -> Evidence:
    """Read a binary stream to the end and return the evidence in it."""
    ev = Evidence(source=source)
    track = _Track(ev)
    carry = b""
    first = True
    layout = None          # the loss pattern (key mode) or the loss column (csv mode)
    others: list[bytes] = []
    while True:
        block = stream.read(CHUNK)
        if first and not block:
            raise LogError(f"{source}: empty: there is nothing to diagnose")
        if first and b"\0" in block[:8192]:
            raise LogError(f"{source}: not a text log (it contains NUL bytes); "
                           "if it is UTF-16, convert it first: iconv -f UTF-16 -t UTF-8")
        data = carry + block
        if block:
            cut = data.rfind(b"\n") + 1
            if cut == 0 and len(data) > MAX_CARRY:      # one enormous line: take it as it is
                cut = len(data)
                ev.long_lines += 1
            data, carry = data[:cut], data[cut:]
        else:
            carry = b""
        if data:
            ev.size += len(data)
            if first:
                others = _other_losses(data)
                ev.mode, layout = _detect_mode(data, others)
                if ev.mode == "key":
                    ev.epoch_of_first = _epoch_of_first(_mask(data, others), layout)
                first = False
            _scan_messages(data, ev, ev.lines)
            if ev.mode == "key":
                track.add_raw(layout.findall(_mask(data, others)))
            elif ev.mode == "csv":
                track.add(_csv_values(data.lower(), layout, skip_header=ev.lines == 0))
            elif ev.mode == "column":
                track.add(_column_values(data))
            ev.lines += data.count(b"\n") + (0 if data.endswith(b"\n") else 1)
        if not block:
            break
    return ev


def _to_float(text: bytes) -> float | None:
    try:
        return float(text.strip().strip(b"\"'"))
    except ValueError:
        return None


def _csv_values(low: bytes, column, skip_header: bool) -> np.ndarray:
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
    return np.array(values, dtype=float)


def _column_values(low: bytes) -> np.ndarray:
    return np.array([float(x) for x in COLUMN.findall(low)], dtype=float)
