"""Where a value sits, in the log's own numbering: "epoch 9/10, step 100/600",
"step 1100", "epoch 3/12" -- or its line, when the log numbers nothing.

Only the few values that diagnosis quotes are located, so this runs a handful of
times per block, never once per line.
"""
from __future__ import annotations

import itertools
import re
from dataclasses import dataclass, replace

from .numbers import keyed, to_float

# `Epoch 3/10`, `Epoch [9/10]`, `epoch 001:`, `'epoch': 0.42`, `EPOCH 006`, `Epoch[1]`, `Epoch(train) [1]`, and the
# short `ep 1` a hand-written loop prints (before its number only: not `eps`), and PaddlePaddle's tutorials' `epoch_id: 1`.
# Not the end of a metric's name: Lightning's `train_loss_epoch=2.9` is a loss, not epoch 2.9. Nor a count per epoch,
# a setting printed once: `steps/epoch=2906`, `iters per epoch: 500` (a logger's `train/epoch` is an epoch).
EPOCH = re.compile(rb"(?<![A-Za-z_])(?<!steps/)(?<!step/)(?<!iters/)(?<!iter/)(?<!batches/)(?<!batch/)(?<!its/)"
                   rb"(?<!per )(?:[Ee]poch|EPOCH|(?:[Ee]p|EP)(?=[ \t]*(?:[:=#][ \t]*)?\d))(?:_id)?(?:\(train\))?['\"]?[ \t]*(?:[:=#][ \t]*)?(?:[\[(][ \t]*)?(\d+(?:\.\d+)?)(?!\d)(?!\.?\d*%)"
                   rb"(?:[ \t]*(?:/|of)[ \t]*(\d+))?")
# `step 1100`, `Step [100/600]`, `iteration   100/  5000`, `it 3500` (not tqdm's `3500it [01:10`),
# `BATCH[0020/3150]`, `num_updates=100`, `Iter(train) [  50/1000]`, `batch_id: 100`. Not a bar's share done: `Steps:  2%|` is not
# step 2 (the count is the bar's `100/6000`); nor is `Epoch:  33%|` epoch 33.
# Nor `train_loss_step=2.850`, nor a decimal: a counter is a whole number, maybe with thousands separators
# (`step 9,050`).
# (each run of spaces after a character it needs, not two runs side by side: that split a long run every way)
STEP = re.compile(rb"(?<![A-Za-z_])(step|iter|iteration|(?<!\d)it|batch|update|num_updates|global_step)s?(?:_id)?(?:\(train\))?['\"]?[ \t]*"
                  rb"(?:[:=#][ \t]*)?(?:[\[(][ \t]*)?(\d{1,3}(?:,\d{3})+(?![\d.])|\d+)(?!\d|\.\d|%)"
                  rb"(?:[ \t]*/[ \t]*(\d{1,3}(?:,\d{3})+(?![\d.])|\d+))?", re.I)
# A bare count of a progress bar or a logger: `[150/4867]`, `32/32 [===`, `50/100 [00:01`,
# `epoch 001:   100 / 1000` -- never a date (2019/06/24, or DATE_START).
FRACTION = re.compile(rb"(?<![\d/.])(\d+)[ \t]*/[ \t]*(\d+)(?![\d/.])")
# A month and day that open a line (or its `[`), before a time: MMEngine's `08/21 02:58:41`,
# Detectron2's `[08/21 02:58:41`. A count followed by a time elsewhere (Rich's `938/938 0:00:12`) stays.
DATE_START = re.compile(rb"[ \t\[]*(\d\d?)/(\d\d?)[ \t]+\d\d:\d\d:\d\d")
# A second bracketed count right after the first: PyTorch's DCGAN tutorial prints `[1/5][150/1583]`,
# the epoch and the iteration within it, with no word for either; both are quoted as printed.
NEXT_FRACTION = re.compile(rb"[ \t]*\][ \t]*\[[ \t]*(\d+)[ \t]*/[ \t]*(\d+)[ \t]*\]")
# PyTorch's CIFAR-10 tutorial prints `[1,  2000] loss: 2.192` (`[{epoch + 1}, {i + 1:5d}]`): the epoch and the
# mini-batch within it, in one bracket that opens the line; quoted as printed.
EPOCH_BATCH = re.compile(rb"[ \t]*\[[ \t]*(\d+)[ \t]*,[ \t]*(\d+)[ \t]*\]")
EPOCH_HINTS = (b"poch", b"POCH")
KEY_SPAN = 8             # bytes past a loss match's start that hold its key (` 'loss'`, `Loss`)
# A line longer than this (a printed list of losses, a progress bar's updates run together) is read, for each value
# on it, only around the value: what a line says of its values (its epoch, step, rate) sits beside them, and reading
# the whole line again for each of its values is quadratic in its length (a 2 MB line of 200,000 values took a minute)
LONG_LINE = 4096
AROUND = (2048, 512)      # bytes read before and after a value on a long line
# A value its line calls an average (`Average Training loss: nan`, `avg loss`, `mean_loss`, `running
# loss`): it stands for the steps it averages, not for one. The word qualifies the loss key itself, not
# another number on the line (`mean reward`, `mean IoU`, `Running on cuda:0`).
# One definition: the scanner (layout.averaged_losses) hides such a key beside the step's own loss.
AVERAGED = re.compile(rb"(?<![A-Za-z])(?:avg|average|averaged|mean|running|smoothed|ema)\.?[ _]{1,3}"
                      rb"(?:train(?:ing)?[ _]{1,3})?loss(?![A-Za-z])", re.I)
# The learning rate a line prints beside its loss (`lr: 1.00e-03`, `'learning_rate': 5e-05`, `LR=0.1`,
# `Learning Rate 0.01`): a warmup or a range test raises it while the log runs. Not a configuration's
# other rates (`base_lr`, `min_lr`, `lr_scale`), nor one per parameter group (`lr: [0.1, 0.01]`).
RATE = keyed(rb"(?<![\w.])(?i:lr|learning[ _]rate)")


@dataclass(frozen=True)
class Position:
    """A place in the log: its line, and the numbering the log printed there."""
    line: int
    epoch: str | None = None
    step: str | None = None
    inherited: bool = False       # the epoch came from an earlier line (a header)
    averaged: bool = False        # the line calls the value an average (AVERAGED, before the value)
    finished: bool = False        # the line is a finished bar (`782/782`): a count, though no step to quote
    rate: float | None = None     # the learning rate the line prints beside the value (RATE), if any

    def __str__(self) -> str:
        if self.epoch and self.step:
            return f"{self.epoch}, {self.step}" if self.step[0] != "[" else f"{self.epoch} {self.step}"
        return self.epoch or self.step or f"line {self.line}"

    @property
    def numbered(self) -> bool:
        return bool(self.epoch or self.step)

    def shifted(self, lines: int, epoch: str | None) -> Position:
        """The same place seen from a log that had `lines` lines and ended in `epoch` before it."""
        return replace(self, line=self.line + lines,
                       epoch=self.epoch if self.epoch is not None else epoch,
                       inherited=self.inherited if self.epoch is not None else epoch is not None)


def epoch_text(m: re.Match) -> str:
    """`epoch 3` or `epoch 3/10`, from a match whose groups 1 and 2 are the epoch and its total."""
    total = m.group(2)
    return f"epoch {m.group(1).decode()}" + (f"/{total.decode()}" if total else "")


def epoch_on(line: bytes) -> str | None:
    m = EPOCH.search(line)
    return epoch_text(m) if m else None


# An epoch a sentence speaks of ("it went nan late in epoch 1", "after epoch 22 it ..."), after a preposition, on a line
# of SENTENCE_WORDS words or more: no header the lines below it were printed under (a header's line is short: Keras's
# custom-loop guide prints "Start of epoch 0")
SPOKEN_OF = re.compile(rb"(?i)(?<![A-Za-z])(?:in|at|after|during|around|until|till|before|since|by|from|past|through|of)"
                       rb"[ \t]+(?:the[ \t]+)?$")
WORD = re.compile(rb"[A-Za-z]{2,}")
SENTENCE_WORDS = 5


def _spoken_of(data: bytes, m: re.Match) -> bool:
    start = data.rfind(b"\n", 0, m.start()) + 1
    if not SPOKEN_OF.search(data, max(start, m.start() - 24), m.start()):
        return False
    end = data.find(b"\n", m.start())
    # (counted up to SENTENCE_WORDS only: a long line of epochs is read once, not once per epoch on it)
    words = WORD.finditer(data, start, end if end >= 0 else len(data))
    return sum(1 for _ in itertools.islice(words, SENTENCE_WORDS)) >= SENTENCE_WORDS


def last_epoch(data: bytes, end: int, start: int = 0) -> str | None:
    """The last epoch marker in data[start:end], searched backwards (not one a sentence speaks of: SPOKEN_OF)."""
    best = None
    for hint in EPOCH_HINTS:
        pos = end
        while (pos := data.rfind(hint, max(start, best.start() if best else 0), pos)) >= 1:
            m = EPOCH.match(data, pos - 1)                      # the E or e is the byte before
            if m is not None and not _spoken_of(data, m):
                best = m
                break
    return epoch_text(best) if best else None


def step_on(line: bytes, epoch_span: tuple[int, int] | None) -> str | None:
    return _count_on(line, epoch_span)[0]


def named_step(line: bytes) -> str | None:
    """The step a line names with a word (`step 200`, `iteration 9,050/250,000`), as the evidence quotes it."""
    m = STEP.search(line)
    if m is None:
        return None
    total = m.group(3)
    return (f"{m.group(1).decode().lower()} {int(m.group(2).replace(b',', b''))}"
            + (f"/{int(total.replace(b',', b''))}" if total else ""))


def _count_on(line: bytes, epoch_span: tuple[int, int] | None) -> tuple[str | None, bool]:
    """The step the line prints, and whether it is a finished bar's count (`782/782`), which is no step."""
    named = named_step(line)
    if named is not None:
        return named, False
    if (pair := EPOCH_BATCH.match(line)) is not None:
        return f"[{int(pair.group(1))}, {int(pair.group(2))}]", False
    date = DATE_START.match(line)
    for m in FRACTION.finditer(line):
        if epoch_span and epoch_span[0] <= m.start() < epoch_span[1]:
            continue
        if date and m.start() == date.start(1) and int(date.group(1)) <= 31 and int(date.group(2)) <= 31:
            continue
        done, total = int(m.group(1)), int(m.group(2))
        if (inner := NEXT_FRACTION.match(line, m.end())) is not None:
            return f"[{done}/{total}][{int(inner.group(1))}/{int(inner.group(2))}]", False
        if total and done != total:              # a finished bar says nothing the epoch does not
            return f"[{done}/{total}]", False
        return None, bool(total)
    return None, False


class Locator:
    """Positions of values in one block of text, given the epoch in force when the block starts."""

    def __init__(self, data: bytes, line0: int, epoch_in: str | None, epochs: bool, newlines: int,
                 numbering: tuple[re.Pattern, str] | None = None):
        self.data, self.line0, self.epoch_in, self.epochs = data, line0, epoch_in, epochs
        self.numbering = numbering          # a format's own step count with no word before it (Darknet's `9:`)
        self._mark = (0, epoch_in)           # (offset searched up to, epoch in force there)
        self._lines = (0, line0)             # (offset, newlines before that offset)
        self._end = line0 + newlines         # newlines before the end of the block

    def at(self, offset: int) -> Position:
        """Positions must be asked for in increasing offset order (each search starts where the last ended)."""
        data = self.data
        start = data.rfind(b"\n", 0, offset) + 1
        end = data.find(b"\n", offset)
        end = end if end >= 0 else len(data)
        counted, number = self._lines
        if start - counted <= len(data) - start:       # count from whichever known point is nearer
            number += data.count(b"\n", counted, start)
        else:
            number = self._end - data.count(b"\n", start)
        self._lines = (start, number)
        epoch, inherited = None, False
        # a format that numbers its own lines (Darknet's `9:`, a `print(epoch, loss)` count) has no epoch lines
        # to inherit from: an "epoch 22" above it is a sentence's ("nan after epoch 22")
        if self.epochs and not self.numbering:
            searched, known = self._mark
            found = last_epoch(data, start, searched) if start > searched else None
            epoch = found if found is not None else known
            self._mark = (start, epoch)
            inherited = epoch is not None
        whole = end - start - (end > start and data[end - 1] == 13) <= LONG_LINE     # (a CR before the LF not counted)
        if not whole:
            start, end = _around(data, start, end, offset)
        line = data[start:end]
        # (on a long line, the last epoch before the value: one after it, or the line's first, is another value's)
        m = EPOCH.search(line) if whole else next(reversed(list(EPOCH.finditer(line, 0, offset - start))), None)
        if m:
            epoch, inherited = epoch_text(m), False
        own = self.numbering[0].match(line) if self.numbering and whole else None
        # a line of several values each after its own step (`step 0 loss 5.54 | step 100 loss 4.91`): the step in the
        # value's own part of the line, from the last `|` or `;` before it, when that part names one
        cut = max(line.rfind(b"|", 0, offset - start), line.rfind(b";", 0, offset - start))
        part = line[cut + 1:offset - start] if cut >= 0 else b""
        if own:
            step, finished = f"{self.numbering[1]} {int(own.group(1))}", False
        elif part and (named := named_step(part)) is not None:
            step, finished = named, False
        elif not whole:
            # (on a long line, the value's own count: the last step or count before it, as for its epoch)
            k = _last_count_at(line, offset - start, m.span() if m else None)
            step, finished = _count_on(line[k:], (m.start() - k, m.end() - k) if m and m.start() >= k else None)
        else:
            step, finished = _count_on(line, m.span() if m else None)
        # the offset is where the loss key's match starts: the key itself lies within the next few bytes
        averaged = bool(AVERAGED.search(line, 0, offset - start + KEY_SPAN))
        rate = RATE.search(line)
        return Position(number + 1, epoch, step, inherited, averaged, finished,
                        to_float(rate.group(1)) if rate else None)


def _last_count_at(line: bytes, upto: int, epoch_span: tuple[int, int] | None) -> int:
    """Where the last step word (`step 300`) or count (`[300/500]`) before upto starts in the line, or 0 (not the
    epoch's own `3/10`)."""
    found = [m.start() for pattern in (STEP, FRACTION) for m in pattern.finditer(line, 0, upto)
             if not (epoch_span and epoch_span[0] <= m.start() < epoch_span[1])]
    return max(found, default=0)


def _around(data: bytes, start: int, end: int, offset: int) -> tuple[int, int]:
    """The part of a long line (start, end) that a value at offset is read in: AROUND it, from and to a space where
    the part is cut inside the line, so that no word or number is read in halves."""
    lo, hi = offset - AROUND[0], offset + AROUND[1]
    if lo > start:
        space = data.find(b" ", lo, offset)
        start = space + 1 if space >= 0 else offset
    if hi < end:
        space = data.rfind(b" ", offset, hi)
        end = space if space > offset else hi
    return start, end


# Counters that run on through a run (never back to 0 within it, unlike a batch index within an epoch).
RUNNING_COUNTERS = {"step", "iter", "iteration", "it", "update", "num_updates", "global_step"}
_EPOCH_NUMBER = re.compile(r"epoch (\d+(?:\.\d+)?)")
_STEP_NUMBER = re.compile(r"([a-z_]+) (\d+)")
_PAIR_NUMBERS = re.compile(r"\[(\d+), (\d+)\]")
_TOTAL = re.compile(r"/(\d+)")
RESTART_FAR = 0.9        # a count with a total goes back to a new run only from below this share of it


def step_number(pos: Position) -> int | None:
    """The count of the step a position prints (`iteration 126`, `step 80/1000`, `[1, 80]`: 80), if it prints one."""
    m = _STEP_NUMBER.match(pos.step or "") or _PAIR_NUMBERS.match(pos.step or "")
    return int(m.group(2)) if m else None


_BARE_COUNT = re.compile(r"\[(\d+)/\d+\]")


def count_number(pos: Position) -> int | None:
    """The step's count (step_number), or else a bare bracketed count with its total (`[12288/4096000]`, often of
    examples seen rather than of steps: read only where a count's spacing matters, not its unit)."""
    n = step_number(pos)
    if n is None and (m := _BARE_COUNT.match(pos.step or "")):
        return int(m.group(1))
    return n


def epoch_number(pos: Position) -> str | None:
    """The epoch's count as the position prints it (`epoch 3/10`: "3"; the CIFAR tutorial's `[3, 2000]`: "3")."""
    m = _EPOCH_NUMBER.match(pos.epoch or "") or _PAIR_NUMBERS.match(pos.step or "")
    return m.group(1) if m else None


def counted_on(before: Position, after: Position) -> bool:
    """Is `after` a later line than `before`, its count not lower: the log going on?"""
    # (on the same line too: `step 0 loss 5.54 | step 100 loss 4.91` goes on within its line)
    return after.line >= before.line and not starts_again(before, after) and (after.epoch, after.step) != (
        before.epoch, before.step)


def at_its_start(pos: Position) -> bool:
    """Is the position's count 0 or 1 (its step's, or its epoch's where it prints no step)?"""
    n = step_number(pos)
    if n is None and (e := epoch_number(pos)) is not None:
        return float(e) <= 1
    return n is not None and n <= 1


def starts_again(before: Position, after: Position) -> bool:
    """Does the log's own count go back between two consecutive values: a second run pasted after the first?
    A line that holds no loss value stands between them (a banner, a restart) -- or none, where the count is back at
    its start (a run printed per line) -- and the epoch is lower, or
    (with the same epoch, or none) a counter that runs on through a run is lower: a batch index that starts
    again each epoch is no new run."""
    e1, e2 = epoch_number(before), epoch_number(after)
    # (on the very next line, only a count back at its start: a run per line, `step 0 loss ... | step 100 loss ...`)
    if after.line <= before.line or (after.line == before.line + 1 and not at_its_start(after)):
        return False
    if e1 and e2 and float(e2) < float(e1):
        return True
    if (e1 and e2 and e1 != e2) or bool(e1) != bool(e2):
        return False
    # (a bar's count that goes back under the same epoch header, with no header of its own: a bar prints its epoch's
    # header before it -- Keras's "Epoch 2/3" -- so a count from 1 again under the old one is another run's bar)
    b1, b2 = (_BARE_COUNT.match(p.step or "") for p in (before, after))
    if b1 and b2 and before.inherited and after.inherited and int(b2.group(1)) < int(b1.group(1)):
        return True
    # (a step counted from its start, 0 or 1, with no epoch of its own, after the values of a later epoch printed with
    # none: "epoch 3  loss 2.301", then, another run's, "iteration 0: loss inf")
    # (with a line that holds no value between them: a loop that prints its epoch's summary and then the next epoch's
    # iteration 0 prints them on adjacent lines)
    if after.inherited and not before.inherited and not before.step and e1 and float(e1) >= 2 \
            and after.line > before.line + 1 and (n := step_number(after)) is not None and n <= 1:
        return True
    s1, s2 = (_STEP_NUMBER.match(p.step or "") for p in (before, after))
    if not (s1 and s2 and s1.group(1) == s2.group(1) and s1.group(1) in RUNNING_COUNTERS
            and int(s2.group(2)) < int(s1.group(2))):
        return False
    # a count printed with its total that had come near it (`step 480/500`) is an epoch's, and starts again by
    # design; one that went back far from its total (`Step 400/5000`) was cut short
    total = _TOTAL.search(before.step or "")
    return total is None or int(s1.group(2)) <= RESTART_FAR * int(total.group(1))
