"""What a scan keeps of a log: a bounded summary of its loss values and messages.

Memory stays bounded whatever the log's size: the loss sequence is reduced to
its first values, the values just before the first non-finite one (or the last
ones), a few landmarks (first inf or nan, the lowest value, the last one) with
their positions in the log's own numbering, and counts.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

from .positions import Position

KEEP = 64                # loss values kept at the start and before the first non-finite one
MAX_MESSAGES = 100       # distinct messages kept; more are counted, not kept
MAX_MESSAGE_TEXT = 240   # characters of a message kept as its example


# Training accuracies kept at each end of the run: one noisy value does not make a trend.
ACCURACY_ENDS = 5


@dataclass
class Evidence:
    source: str
    lines: int = 0
    size: int = 0
    mode: str = "none"                     # key | csv | column | none
    dialect: str = ""                      # the log format recognised
    mean_loss: str = ""                    # why its loss is a mean over the examples (Dialect.mean_loss), if it is
    loss_key: str = ""                     # the column read as the loss when the log prints no total (a part)
    loss_named: tuple[str, str] = ("", "")  # the key read when it is not the plain loss, and why (layout.named)
    frameworks: list[str] = field(default_factory=list)   # ORIGINS keys the log shows
    count: int = 0                         # loss values found
    head: list[float] = field(default_factory=list)
    head_at: list[Position] = field(default_factory=list)
    before: list[float] = field(default_factory=list)   # values just before the first non-finite (or the last ones)
    before_at: list[Position] = field(default_factory=list)
    before_start: int = 0                  # index of before[0]
    first_nonfinite: int | None = None
    first_nonfinite_value: float | None = None
    first_nonfinite_at: Position | None = None
    first_nan: int | None = None
    first_nan_at: Position | None = None
    finite_after: int = 0                  # finite values after the first non-finite one
    last: float | None = None
    last_at: Position | None = None
    low: float | None = None               # lowest finite value before the first non-finite one (or in all)
    low_at: int = 0                        # index of its first occurrence
    low_pos: Position | None = None
    high: float | None = None              # highest finite value before the first non-finite one (or in all)
    epoch_out: str | None = None           # the epoch marker in force at the end of the text read
    messages: dict[str, list] = field(default_factory=dict)   # key -> [count, first line, example, origin]
    message_last: dict[str, int] = field(default_factory=dict)   # key -> the line it was last seen on
    more_messages: int = 0                 # message lines past the first MAX_MESSAGES kinds, counted only
    long_lines: int = 0                    # lines longer than a block, read in pieces
    grad_max_before: float | None = None   # largest finite gradient norm before the first non-finite loss
    grad_paired: bool = True               # every loss line had a gradient norm (or one per parameter) next to it
    grad_zero_exact: bool | None = None    # every norm before the first non-finite loss printed as exactly 0
    runs: str = ""                         # several runs pasted one after another: which one is read (diagnose)
    hidden_zeros: int = 0                  # logged zeros read as the nan they hide (hidden.py), and the first's line
    hidden_line: int | None = None
    accuracy_head: list[float] = field(default_factory=list)   # the first training accuracies beside the loss
    accuracy_tail: list[float] = field(default_factory=list)   # ... and the last ones
    accuracy_percent: bool = False         # an accuracy was printed with a % sign
    clip_at: float | None = None           # the clipping threshold the log states
    prose: str = ""                        # the start of the text, for matching plain descriptions
    refused: list[str] = field(default_factory=list)   # loss-keyed lists seen and not read, and why
    hidden_note: str = ""                  # how a non-finite loss the log did not print as one was read (stops.py,
    hidden_kind: str = ""                  # hidden.py), and what the log says it was ("inf or nan" when it does not say)
    hidden_start: bool = False             # ... and that it was the run's first loss, before any update
    evaluated: tuple[int, str] | None = None   # a non-finite loss evaluate() printed after training: line, its words

    def at(self, index: int) -> Position | None:
        """The position of a loss value, for the values the summary keeps."""
        if 0 <= index < len(self.head_at):
            return self.head_at[index]
        if self.before_start <= index < self.before_start + len(self.before_at):
            return self.before_at[index - self.before_start]
        for i, pos in ((self.first_nonfinite, self.first_nonfinite_at), (self.first_nan, self.first_nan_at),
                       (self.low_at, self.low_pos), (self.count - 1, self.last_at)):
            if i == index and pos is not None:
                return pos
        return None

    def where(self, index: int) -> str:
        """The value's place as the log numbers it, or its line."""
        pos = self.at(index)
        return str(pos) if pos is not None else f"loss value {index + 1}"

    @property
    def numbered(self) -> bool:
        return any(p.numbered for p in self.head_at[:1] + self.before_at[-1:])

    def note_message(self, key: str, line: int, text: str, origin: str | None) -> None:
        seen = self.messages.get(key)
        if seen:
            seen[0] += 1
        elif len(self.messages) < MAX_MESSAGES:
            self.messages[key] = [1, line, text[:MAX_MESSAGE_TEXT], origin]
        else:
            self.more_messages += 1
            return
        self.message_last[key] = line

    def show_framework(self, origin: str | None) -> None:
        if origin and origin not in self.frameworks:
            self.frameworks.append(origin)


def first_index(flags: list[bool], value: bool) -> int:
    """Position of the first `value` in flags, or len(flags)."""
    try:
        return flags.index(value)
    except ValueError:
        return len(flags)


class Track:
    """Adds one block's loss values to the evidence, asking for positions only where it keeps a value.

    `locate(indices)` returns the positions of those values of the block (indices
    into the block's values, increasing); `pending(index)` returns a callable that
    locates one later, for the lowest value, which may still be beaten.

    A position costs a few searches in its block; a block's last values and its very last
    one are kept only until the next block replaces them, so they are located once no block
    will (`later`): a long log asks for no position at all in most of its blocks. A position
    depends only on its block and the offset, not on what was located before.
    """

    def __init__(self, ev: Evidence):
        self.ev = ev
        self.low_pending = None
        self.later = None          # (locate, indices of the block's values in `before`, index of its last value)

    def add(self, batch, locate, pending) -> None:
        """One block's values (a numbers.Batch)."""
        ev, n = self.ev, batch.n
        if not n:
            return
        want: dict[int, list[str]] = {}
        values = batch.values                  # None: all finite, converted only where kept
        if ev.first_nonfinite is None:
            upto = n if values is None or batch.all_finite else first_index(list(map(math.isfinite, values)), False)
            need = min(max(KEEP - len(ev.head), 0), n)
            ev.head += batch.floats(0, need)
            for i in range(need):
                want.setdefault(i, []).append("head")
            new = batch.floats(max(0, upto - KEEP), upto)
            keep = (ev.before + new)[-KEEP:]
            kept_old = len(keep) - len(new)
            if kept_old and self.later is not None:          # the last block's values stay in the window
                self._settle(last=False)
            self.later = None
            ev.before_at = ev.before_at[len(ev.before_at) - kept_old:] if kept_old else []
            ev.before_start = ev.count + upto - len(keep)
            ev.before = keep
            before = list(range(max(0, upto - KEEP), upto))
            if upto:
                self._range(batch, upto, pending)
            if upto < n:
                ev.first_nonfinite, ev.first_nonfinite_value = ev.count + upto, values[upto]
                want.setdefault(upto, []).append("nonfinite")
                ev.finite_after += sum(map(math.isfinite, values[upto + 1:]))
                self._nan(values, upto, want)
        else:
            before = []
            ev.finite_after += n if batch.all_finite else sum(map(math.isfinite, values))
            if not batch.all_finite:
                self._nan(values, 0, want)
        if not want:                    # nothing here is kept for sure: locate when no block replaces it
            self.later = (locate, before, n - 1)
            ev.count += n
            ev.last = batch.floats(n - 1)[0]
            return
        self.later = None
        for i in before:
            want.setdefault(i, []).append("before")
        want.setdefault(n - 1, []).append("last")
        order = sorted(want)
        for i, pos in zip(order, locate(order)):
            for role in want[i]:
                if role == "head":
                    ev.head_at.append(pos)
                elif role == "before":
                    ev.before_at.append(pos)
                elif role == "nonfinite":
                    ev.first_nonfinite_at = pos
                elif role == "nan":
                    ev.first_nan_at = pos
                else:
                    ev.last_at = pos
        ev.count += n
        ev.last = batch.floats(n - 1)[0]

    def _nan(self, values: list[float], start: int, want: dict) -> None:
        ev = self.ev
        if ev.first_nan is None:
            flags = list(map(math.isnan, values[start:]))
            k = first_index(flags, True)
            if k < len(flags):
                ev.first_nan = ev.count + start + k
                want.setdefault(start + k, []).append("nan")

    def _range(self, batch, upto: int, pending) -> None:
        ev = self.ev
        low, i, high = batch.extremes(upto)
        if ev.low is None or low < ev.low:
            ev.low, ev.low_at = low, ev.count + i
            self.low_pending = pending(i)
        ev.high = high if ev.high is None else max(ev.high, high)

    def _settle(self, last: bool = True) -> None:
        locate, before, last_index = self.later
        self.later = None
        order = before + [last_index] if last and last_index not in before else before
        found = dict(zip(order, locate(order)))
        self.ev.before_at += [found[i] for i in before]
        if last:
            self.ev.last_at = found[last_index]

    def finish(self) -> None:
        if self.later is not None:
            self._settle()
        if self.low_pending is not None:
            self.ev.low_pos = self.low_pending()
            self.low_pending = None


def merge(a: Evidence, b: Evidence) -> Evidence:
    """The evidence of a stretch of log followed by the stretch after it. Exact, but for the counts of a log with more
    than MAX_MESSAGES kinds of message in a stretch: that stretch counted the lines of the kinds past its own first
    MAX_MESSAGES only as more_messages, so a kind the stretch before kept does not get them (code_review_s70b 9b; each
    stretch keeps its memory bounded)."""
    def moved(pos: Position | None) -> Position | None:
        return pos.shifted(a.lines, a.epoch_out) if pos is not None else None

    out = Evidence(source=a.source, mode=a.mode, dialect=a.dialect, mean_loss=a.mean_loss, loss_key=a.loss_key,
                   loss_named=a.loss_named,
                   refused=a.refused, lines=a.lines + b.lines, size=a.size + b.size,
                   count=a.count + b.count, long_lines=a.long_lines + b.long_lines,
                   last=b.last if b.count else a.last, last_at=moved(b.last_at) if b.count else a.last_at,
                   grad_paired=a.grad_paired and b.grad_paired, clip_at=a.clip_at,
                   accuracy_head=(a.accuracy_head + b.accuracy_head)[:ACCURACY_ENDS],
                   accuracy_tail=(a.accuracy_tail + b.accuracy_tail)[-ACCURACY_ENDS:],
                   accuracy_percent=a.accuracy_percent or b.accuracy_percent,
                   epoch_out=b.epoch_out if b.epoch_out is not None else a.epoch_out,
                   frameworks=a.frameworks + [f for f in b.frameworks if f not in a.frameworks], prose=a.prose)
    taken = min(len(b.head), KEEP - len(a.head))
    out.head, out.head_at = a.head + b.head[:taken], a.head_at + [moved(p) for p in b.head_at[:taken]]
    grads = [g for g in (a.grad_max_before, None if a.first_nonfinite is not None else b.grad_max_before)
             if g is not None]
    out.grad_max_before = max(grads) if grads else None
    zeros = [z for z in (a.grad_zero_exact, None if a.first_nonfinite is not None else b.grad_zero_exact)
             if z is not None]
    out.grad_zero_exact = all(zeros) if zeros else None
    out.evaluated = a.evaluated or ((a.lines + b.evaluated[0], b.evaluated[1]) if b.evaluated else None)
    out.hidden_zeros = a.hidden_zeros + b.hidden_zeros
    out.hidden_line = a.hidden_line if a.hidden_line is not None else (
        a.lines + b.hidden_line if b.hidden_line is not None else None)
    out.low, out.low_at, out.low_pos, out.high = a.low, a.low_at, a.low_pos, a.high
    if a.first_nonfinite is not None:
        out.first_nonfinite, out.first_nonfinite_value = a.first_nonfinite, a.first_nonfinite_value
        out.first_nonfinite_at = a.first_nonfinite_at
        out.before, out.before_at, out.before_start = a.before, a.before_at, a.before_start
        out.finite_after = a.finite_after + (b.count if b.first_nonfinite is None
                                             else b.first_nonfinite + b.finite_after)
        if a.first_nan is not None:
            out.first_nan, out.first_nan_at = a.first_nan, a.first_nan_at
        elif b.first_nan is not None:
            out.first_nan, out.first_nan_at = a.count + b.first_nan, moved(b.first_nan_at)
    else:
        if b.before_start == 0:
            joined, joined_at = a.before + b.before, a.before_at + [moved(p) for p in b.before_at]
            out.before, out.before_at = joined[-KEEP:], joined_at[-KEEP:]
            out.before_start = a.before_start + len(joined) - len(out.before)
        else:
            out.before, out.before_at = b.before, [moved(p) for p in b.before_at]
            out.before_start = a.count + b.before_start
        if b.first_nonfinite is not None:
            out.first_nonfinite = a.count + b.first_nonfinite
            out.first_nonfinite_value, out.first_nonfinite_at = b.first_nonfinite_value, moved(b.first_nonfinite_at)
            out.finite_after = b.finite_after
        if b.first_nan is not None:
            out.first_nan, out.first_nan_at = a.count + b.first_nan, moved(b.first_nan_at)
        if b.low is not None and (a.low is None or b.low < a.low):
            out.low, out.low_at, out.low_pos = b.low, a.count + b.low_at, moved(b.low_pos)
        if b.high is not None:
            out.high = b.high if a.high is None else max(a.high, b.high)
    out.messages = {k: list(v) for k, v in a.messages.items()}
    out.more_messages = a.more_messages
    out.message_last = dict(a.message_last)
    for key, (count, line, text, origin) in b.messages.items():
        if key in out.messages:
            out.messages[key][0] += count
        elif len(out.messages) < MAX_MESSAGES:
            out.messages[key] = [count, a.lines + line, text, origin]
        else:
            out.more_messages += count
            continue
        out.message_last[key] = a.lines + b.message_last[key]
    out.more_messages += b.more_messages
    return out


def without_first(ev: Evidence, k: int) -> Evidence:
    """The evidence without its first k loss values (only when every value is among the kept ones)."""
    return only(ev, k, ev.count)


def only(ev: Evidence, start: int, end: int) -> Evidence:
    """The evidence of the loss values start to end alone (only when every value is among the kept ones)."""
    assert ev.count <= KEEP and 0 <= start < end <= ev.count
    return with_values(ev, ev.head[start:end], ev.head_at[start:end])


def with_values(ev: Evidence, values: list[float], places: list[Position]) -> Evidence:
    """The evidence with these loss values at these places instead of its own (all else as it was)."""
    from dataclasses import replace

    from .numbers import Batch

    out = replace(ev, count=0, head=[], head_at=[], before=[], before_at=[], before_start=0, first_nonfinite=None,
                  first_nonfinite_value=None, first_nonfinite_at=None, first_nan=None, first_nan_at=None,
                  finite_after=0, last=None, last_at=None, low=None, low_at=0, low_pos=None, high=None)
    track = Track(out)
    track.add(Batch([repr(v).encode() for v in values]), lambda idx: [places[i] for i in idx],
              lambda i: (lambda: places[i]))
    track.finish()
    return out
