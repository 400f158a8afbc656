"""How a log writes its loss, decided once from its first block."""
from __future__ import annotations

import functools
import itertools
import math
import re
from dataclasses import dataclass, field

from .dialects import ORDER, Dialect, history, keyed as keyed_dialect, pandas_frame, prose_values
from .numbers import BOX, NUMBER, features, keyed, to_float
from .positions import AVERAGED, EPOCH_HINTS

OTHER_LOSS = re.compile(rb"_(?:loss|Loss|LOSS)\b")     # literal first: no backtracking over long lines
WORD_END = re.compile(rb"[A-Za-z]+$")
TRAINING_PREFIXES = {b"train", b"training", b"Train", b"Training", b"TRAIN"}
# With no plain `loss` key, `total_loss` is the training loss: the sum of the parts that is optimised
# (Detectron2's events line, `TRAIN_TOTAL_LOSS`). Beside a plain `loss` it is left out like any other.
TOTAL = re.compile(rb"(?i)total_loss$")
# Gradient norms and a clipping threshold, when the log prints them next to the loss. A norm may
# name its parameter (`grad_norm(W1)`, `grad_norm[fc1.weight]`); a line may print several.
PARAMETER = rb"(?:\([^()\s]{1,64}\)|\[[^\[\]\s]{1,64}\])?"
GRAD_KEYS = {key: keyed(rb"(?<![\w])" + re.escape(key) + PARAMETER)
             for key in (b"grad_norm", b"gnorm", b"grad norm", b"|g|")}     # (|g|: the norm's own notation)
# The training accuracy printed beside the loss (`accuracy: 0.93`, `Acc=0.5`, `train_acc 0.5`), not
# `val_accuracy`; read only on the lines that print the loss, after validation text is cut.
ACCURACY = keyed(rb"(?<![\w])(?:[Tt]rain(?:ing)?[_ ])?(?:(?:sparse_)?(?:categorical|binary)_)?[Aa]cc(?:uracy)?")
# The threshold as each tool spells it: PyTorch's clip_grad_norm_(params, max_norm=...) (or the norm passed second),
# Keras's clipnorm= and global_clipnorm= (the first clips each variable's norm, never larger than the global norm a
# log prints), Lightning's gradient_clip_val=, Hugging Face's max_grad_norm=, optax.clip_by_global_norm(...), and
# "I clip the gradient norm at 50" in words, and the command-line flags that set it (`--clip 0.25` in PyTorch's word
# language model example, fairseq's `--clip-norm`, timm's `--clip-grad`, `--max-grad-norm`). Not clipvalue=, which
# clips each element.
CLIP_KEYS = [keyed(key) for key in (b"clip_at", b"max_norm", b"max_grad_norm", b"clip_norm", b"clipnorm",
                                    b"gradient_clip_val", b"grad_clip", b"clip_grad_norm",
                                    # (Caffe's solver setting; -1, its default, is no clipping)
                                    b"clip_gradients")] + [
    re.compile(rb"clip_by_global_norm\(\s*(" + NUMBER + rb")\s*\)"),
    re.compile(rb"(?<![\w-])--(?:clip(?:[-_](?:norm|grad(?:[-_]norm)?))?|grad[-_]clip|max[-_]grad[-_]norm)(?:[ \t]+|=)("
               + NUMBER + rb")(?![\w.])"),
    re.compile(rb"clip_grad_norm_?\([^,()\n]{1,80}(?:\([^()\n]{0,40}\))?[^,()\n]{0,40},\s*(" + NUMBER + rb")\s*[,)]"),
    re.compile(rb"(?i)\bclip(?:ping|ped|s)?\s+(?:the\s+)?(?:global\s+)?(?:gradients?|grads?)(?:'?\s+norms?)?\s+(?:at|to)\s+("
               + NUMBER + rb")(?![\w.])")]
# One number per line, bare or in the box a framework prints a scalar in (numbers.BOX): `print(loss)` of a tensor writes
# `tensor(2.3107, device='cuda:0', grad_fn=<NllLossBackward0>)`.
# The tail after the number (`)`, `, device=...)`) only where the line opened the box: the wrapped second line of
# a printed tensor (`    -0.10, 0.30], device='cuda:0')`) is no loss.
COLUMN = re.compile(rb"(?m)^[ \t]*(" + BOX + rb"[ \t]*)?(" + NUMBER + rb")(?(1)(?:\)|,[^\n]*\)|>))[ \t\r]*$")
CSV_NAMES = (b"loss", b"train_loss", b"training_loss")
# A CSV header is looked for in the first CSV_WINDOW bytes: among the first five lines as it is, below them only with
# CSV_ROWS_AFTER rows of the file after it (a sentence with commas and the word loss in it is no header)
CSV_WINDOW, CSV_ROWS_AFTER = 16384, 2


@dataclass
class Layout:
    """How this log writes its loss, and what its first block says once."""
    dialect: Dialect = ORDER[-1]
    mode: str = "none"                     # key | csv | column | none
    pattern: re.Pattern | None = None      # key mode: the loss pattern
    column: tuple | None = None            # csv mode: (separator, index, header line)
    others: list[bytes] = field(default_factory=list)   # val_loss-like keys to mask
    # key mode: the loss read when it is not the plain `loss`, and why: "named" (the first of those each line
    # names), "own" (the first loss of its own the log prints) or "total" (a total of its parts)
    named: tuple[str, str] = ("", "")
    grad: re.Pattern | None = None         # pattern for a gradient norm printed beside the loss
    grad_twice: re.Pattern | None = None   # its key twice on one line (then lines are paired one by one)
    accuracy: bool = False                 # the log prints a training accuracy beside the loss
    clip_at: float | None = None           # the clipping threshold the log states
    epochs: bool = False                   # the log prints epoch numbers
    literal: bytes | None = None           # key mode: the key as plain text, when numbers.alike may read the pattern's values
    decimal_comma: bool = False            # the text writes its decimals with a comma (decimals.py): read as points
    foreign_epochs: bool = False           # the text names its epochs in another language (epoch_words.py)


def other_losses(data: bytes) -> list[bytes]:
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


LOSS_WORD = re.compile(rb"[Ll]oss\b|LOSS\b")      # starts with a character class: scanned at C speed
# A loss of its own named after the word (`Loss_D`, `loss_G`: a GAN's two losses in PyTorch's DCGAN
# tutorial; `Loss/train`, a TensorBoard tag as PyTorch's TensorBoard tutorial writes it, which
# Lightning's progress bar prints as logged) or before it (`d_loss`, `recon_loss`), when the log prints
# no plain loss
# (after a training prefix too, as a logger names its tags: `train/loss_x`, `train_loss_u`)
SUFFIXED = re.compile(rb"(?:(?<![A-Za-z0-9_/])|(?<=train_)|(?<=train/)|(?<=training_)|(?<=training/))"
                      rb"(?:loss|Loss|LOSS)[_/][A-Za-z][A-Za-z0-9_]*")
UNDERSCORED = re.compile(rb"(?<![A-Za-z0-9_])[A-Za-z][A-Za-z0-9]*_(?:loss|Loss|LOSS)(?![A-Za-z0-9_])")
# ... but not a validation loss (`val_loss`, `loss_val`, `loss/val`), nor a setting named after the loss
# (`loss_scale`)
NOT_OWN = re.compile(rb"(?i)(?:^|[_/])(?:val|valid|validation|test|eval|dev|best)(?:_|$)"
                     rb"|_(?:scale|scaler|weight|weights|fn|func|function|type|name|coef|factor|ratio|cfg|config)$")
# The word before a loss key on its line (`[D loss: 0.6] [G loss: 0.9]`)
NAMED = re.compile(rb"([A-Za-z][A-Za-z0-9]{0,11})[ \t]+$")
PREFIX_WINDOW = 1 << 18        # keys repeat on every line: the start of the log shows them all


def prefixed_losses(data: bytes) -> list[bytes]:
    """Keys such as `genloss`, `IDLoss`: losses of their own, kept apart from a plain `loss`
    (a training prefix, `trainloss`, is the training loss)."""
    keys: list[bytes] = []
    window = data[:PREFIX_WINDOW]
    for m in LOSS_WORD.finditer(window):
        start = m.start()
        while start and window[start - 1:start].isalpha():
            start -= 1
        key = window[start:m.end()]
        if start < m.start() and key[:-4] not in TRAINING_PREFIXES and key not in keys:
            keys.append(key)
    return keys


# A loss the line itself calls an average (positions.AVERAGED: `Avg Loss`, `Running Loss`, `mean loss`): beside
# the step's own `Loss` on the same line (PyTorch's MNIST example with a running mean added, `Loss: 0.33  Avg
# Loss: 0.71`) it is the same loss again, smoothed, and reading both makes two steps of one; alone, it is the loss.
# The step's own loss key: no name before it (`recon loss`, `G loss` are parts or other losses), but a training
# prefix is the training loss (`train loss`).
PLAIN_LOSS = re.compile(rb"(?<![A-Za-z_])(?<![A-Za-z][ \t])(?:loss|Loss|LOSS)\b")
TRAINING_PREFIX = re.compile(rb"(?i)(?<![a-z_])train(?:ing)?[ \t]+(?=loss\b)")


# ... and it is the step's own when a value follows it: a log's `Loss: 550.2`, not a sentence's "loss is nan".
PLAIN_VALUE = re.compile(PLAIN_LOSS.pattern + rb"['\"]?[ \t]{0,8}(?:[:=][ \t]{0,8})?(?=[-+]?(?:\d|\.\d|nan|inf))",
                         re.I)


CODE_LINE = re.compile(rb"\{[^}\n]*\}|\bprint\(|^[ \t]*[A-Za-z_][\w.]*[ \t]*[-+*/]?=(?!=)")
AVERAGED_VALUE = re.compile(AVERAGED.pattern + rb"['\"]?[ \t]{0,8}(?:[:=][ \t]{0,8})?(?=[-+]?(?:\d|\.\d|nan|inf))", re.I)


def averaged_losses(data: bytes) -> list[bytes]:
    """The averaged keys (AVERAGED) of a log that prints the step's own loss at least as often, on their lines or on
    lines of their own (PyTorch's VAE example: `Train Epoch: 1 [12800/60000 (21%)]  Loss: 148.67` every interval and
    `====> Epoch: 1 Average loss: 164.39` once per epoch), to hide. A log whose steps print only an average keeps
    it, whatever one summary or evaluation line prints besides."""
    window = data[:PREFIX_WINDOW]
    averaged = AVERAGED.findall(window)
    if not averaged:
        return []
    # lines, not keys: a line that prints the step's own loss beside its averages (`loss: 2.3  running loss: 2.4
    # ema loss: 2.5`) is the step's; otherwise the lines of a plain loss must be at least as many as the averages'
    with_average = plain_only = 0
    for line in window.split(b"\n"):
        # (a line that prints an average's value: not the code that prints it, `print(f"avg loss {avg_loss:.4f}")`,
        # nor one that sets it, `avg_loss = 0`)
        if AVERAGED_VALUE.search(line) and not CODE_LINE.search(line):
            if PLAIN_VALUE.search(TRAINING_PREFIX.sub(b"", AVERAGED.sub(b"", line))):
                return list(dict.fromkeys(averaged))
            with_average += 1
        elif PLAIN_VALUE.search(TRAINING_PREFIX.sub(b"", line)):
            plain_only += 1
    return list(dict.fromkeys(averaged)) if plain_only >= with_average else []


# The training loss under a name of its own (`train_loss`, `training_loss`) in a log whose steps print a plain `loss`:
# a loop that prints each step's `loss` and, once an epoch, `ep 5 | train_loss 0.1841 | val_loss 5.07` (or Hugging
# Face's closing `{'train_loss': 0.43, 'train_runtime': ...}`) prints the epoch's or the run's mean there, the same
# loss again, averaged: read beside the steps' values it is one more step, and a climb where there was none.
# A mean that is not finite says a step was not: such a line is kept (Lightning's `train_loss=nan.0` on its bar,
# EarlyStopping's "Monitored metric train_loss = nan is not finite").
SUMMARY_KEY = re.compile(rb"(?i)(?<![A-Za-z_])train(?:ing)?_loss(?![A-Za-z_])")
SUMMARY_NONFINITE = re.compile(SUMMARY_KEY.pattern + rb"['\"]?[ \t]{0,4}[:=]?[ \t]{0,4}[-+]?(?:nan|inf)", re.I)


def summary_losses(data: bytes) -> list[bytes]:
    """The `train_loss` keys of a log that prints a plain loss on lines of their own more often, to hide (as
    averaged_losses does a line's average). One that shares a line with the plain loss, or is not finite, or a log
    whose steps print only `train_loss`, keeps it."""
    window = data[:PREFIX_WINDOW]
    keys = SUMMARY_KEY.findall(window)
    if not keys:
        return []
    # (a CSV file the paste holds, `step,loss` and its rows, prints the step's own loss on each row)
    column = csv_column(window, (b"loss",))
    summary, plain = 0, len(csv_values(window[:CSV_WINDOW], column, True)) if column else 0
    for line in window.split(b"\n"):
        has_summary, has_plain = SUMMARY_KEY.search(line), PLAIN_VALUE.search(TRAINING_PREFIX.sub(b"", line))
        if has_summary and (has_plain or SUMMARY_NONFINITE.search(line)):
            return []
        summary += bool(has_summary)
        plain += bool(has_plain)
    return list(dict.fromkeys(keys)) if plain > summary else []


# A loss with a name of its own before it, on a line that prints the step's plain loss with a value too (the ImageNet
# example's ProgressMeter as the Transfer-Learning-Library prints it, `Loss   3.18 ( 3.18)\tTrans Loss  0.6951 (
# 0.6951)`; `loss: 2.31, ce loss: 1.90, kl loss: 0.41`): a part of that total or another loss beside it, not a second
# value of the step's loss. (Not an average, which averaged_losses weighs, nor a training prefix, which is the loss.)
# (one space or tab between the name and the word, as PLAIN_LOSS reads a name: a wider gap is a log's columns, `4410.62
# samples/sec   Loss 41.2093`; and a value after it)
NAMED_PART = re.compile(rb"(?<![A-Za-z0-9_])(?P<key>(?P<name>[A-Za-z][A-Za-z0-9]{0,15})[ \t](?:loss|Loss|LOSS))\b['\"]?"
                        rb"[ \t]{0,8}(?:[:=][ \t]{0,8})?(?=[-+]?(?:\d|\.\d|(?i:nan|inf)))")
NAMED_PARTS_MAX = 8
# (words before a loss that name no part of it: a training prefix, which is the loss; a total; a sentence's words,
# "then loss: 7.5", "the loss", "and loss")
NOT_A_PART = frozenset(b"train training total overall full then and the so now later final last first new old my its "
                       b"our this that step epoch iter batch".split())


def named_parts(data: bytes) -> list[bytes]:
    """The `<name> loss` keys printed on a line beside the plain loss with its value, to hide (NAMED_PART)."""
    window, keys = data[:PREFIX_WINDOW], []
    if not NAMED_PART.search(window):
        return keys
    for line in window.split(b"\n"):
        # (a bare plain loss: `train loss: ... prev loss: ...` is a pair of named losses, which _named_first weighs; and
        # the parts after the total, as a logger prints them -- a sentence's "prints loss: 0.88, epoch 6 loss: nan" names
        # no part)
        plain = PLAIN_VALUE.search(AVERAGED.sub(lambda a: b" " * len(a.group(0)), line))     # (offsets kept)
        if not plain:
            continue
        for m in NAMED_PART.finditer(line, plain.end()):
            if m.group("name").lower() not in NOT_A_PART and not AVERAGED.match(m.group("key")) \
                    and m.group("key") not in keys:
                keys.append(m.group("key"))
        if len(keys) >= NAMED_PARTS_MAX:
            break
    return keys


def mask(data: bytes, others: list[bytes]) -> bytes:
    for key in others:
        if key in data:
            data = data.replace(key, key[:-4] + b"_" * 4)
    return data


DETECT_WINDOW = 1 << 18    # a format shows itself in its first lines: patterns without a literal start stay cheap


def layout_of(first: bytes, training: bytes | None = None) -> Layout:
    """Pick the dialect and the loss pattern from the first block (already cleaned); `training`
    is that block with its validation text cut, as the scan will read it."""
    training = first if training is None else training
    start = first[:DETECT_WINDOW]
    prefixed = prefixed_losses(training)
    others = other_losses(training) + prefixed + averaged_losses(training) + summary_losses(training) \
        + named_parts(training)
    masked = mask(training, others)
    base = dict(others=others, clip_at=_clip_at(start), epochs=any(h in start for h in EPOCH_HINTS))
    spelled = features(start)
    detected = None                # the first format recognised by its own look, whatever its loss is called
    for dialect in ORDER:
        if not _admits(dialect, start):
            continue
        detected = detected or (dialect if dialect.detect is not None else None)
        if dialect.mode == "key":
            for key in _most_printed_first(dialect.keys, masked, spelled):
                pattern = dialect.pattern or keyed(key, **spelled)
                found = pattern.search(masked)
                if found and dialect is keyed_dialect.DIALECT and (
                        _title_only(pattern, masked, training, prefixed, spelled) or _one_list(pattern, masked, found)):
                    break
                chosen = _named_first(pattern, masked, found, key) if found and dialect.pattern is None else None
                named, why = chosen or (None, "")
                if named:
                    pattern, found = keyed(re.escape(named), **spelled), re.compile(re.escape(named)).search(masked)
                if found:
                    grad_key = next((k for k, p in GRAD_KEYS.items() if _on_line(p, masked, found.start())), None)
                    layout = Layout(dialect, "key", pattern, grad=GRAD_KEYS.get(grad_key),
                                    named=(named.decode("utf-8", "replace").strip(), why) if named else ("", ""),
                                    literal=None if dialect.pattern else _literal(named or key, spelled),
                                    grad_twice=re.compile(re.escape(grad_key) + rb"[^\n]*" + re.escape(grad_key))
                                    if grad_key else None,
                                    accuracy=_on_line(ACCURACY, masked, found.start()), **base)
                    if others:
                        _drop_mask(layout, training, masked, found, key, spelled)
                    # (a key printed once or twice -- a progress bar's last state -- beside a table of the run's
                    # values under a header that names the loss: the table holds the curve)
                    printed = list(itertools.islice(pattern.finditer(masked), FEW_KEYED))
                    if len(printed) < FEW_KEYED and (column := _table_after(first, dialect)) is not None \
                            and _table_agrees(first, column[1], printed[-1]):
                        return Layout(column[0], "csv", column=column[1], **base)
                    return layout
        elif dialect.mode == "csv" and (column := csv_column(first, dialect.keys)):
            return Layout(dialect, "csv", column=column, **base)
        elif dialect.mode == "table" and (column := (dialect.column or table_column)(first)):
            return Layout(dialect, "csv", column=column, **base)
        elif dialect.mode == "list" and history.detected((first if dialect.whole_text else training)[:DETECT_WINDOW],
                                                         dialect):
            return Layout(dialect, "list", **base)
        elif dialect.mode == "column" and _one_per_line(first):
            return Layout(dialect, "column", **base)
    # no plain loss key: a total of parts (`total_loss`), else the first key of its own: a word that ends in the loss's
    # (`genloss`) where the log prints a value after it -- not a loss class a sentence names, `nn.BCEWithLogitsLoss
    # instead of nn.BCELoss` -- else one named after the word or before it (`Loss_D`, `d_loss`)
    key = next((k for k in others if TOTAL.search(k)), None) or next(
        (k for k in prefixed if _own_key(k, spelled).search(training, 0, PREFIX_WINDOW)), None) or _first_own(
        training[:PREFIX_WINDOW])
    if key is not None:     # read in the format the log was recognised as (a Lightning bar's `loss/train=`)
        base["others"] = [k for k in others if k != key]
        return Layout(detected or keyed_dialect.DIALECT, "key", _own_key(key, spelled),
                      named=(key.decode("utf-8", "replace"), "total" if TOTAL.search(key) else "own"), **base)
    return Layout(mode="none", **base)


FEW_KEYED = 3


def _admits(dialect: Dialect, start: bytes) -> bool:
    """Does the block's start look like the dialect's (its detect, where it has one) and not refuse it (refused_by)?"""
    return (dialect.detect is None or dialect.detect.search(start) is not None) \
        and (dialect.refused_by is None or not dialect.refused_by(start))


def _table_after(first: bytes, dialect: Dialect) -> tuple[Dialect, tuple] | None:
    """The first table dialect after `dialect` in ORDER whose column the block holds, with that column; or None."""
    for later in ORDER[ORDER.index(dialect) + 1:]:
        if later.mode == "table" and _admits(later, first[:DETECT_WINDOW]) \
                and (column := (later.column or table_column)(first)):
            return later, column
    return None


def _table_agrees(first: bytes, column: tuple, keyed: re.Match) -> bool:
    """Is the table (table_column's tuple) the same run as the key's line (code_review_s74 6, reread_s74 4): the table's
    last loss (row_value, a row at a time to where the rows end) is the key's last value (its one group, as the scan
    reads it: to_float takes Lightning's padded `nan.0`) -- non-finite both, or equal at the key's printed places? Not a
    reference run's table pasted for comparison, whose first row may share the bar's first loss (ln 2) and whose end
    differs."""
    value = to_float(keyed.group(1))
    tail = None
    for line in [line for line in first.split(b"\n") if line.strip()][column[2] + 1:]:
        cell = row_value(line.split(), column)
        if cell is not None:
            tail = to_float(cell)
        elif tail is not None:
            break                                   # (the table ended)
    if value is None or tail is None:
        return False
    if not math.isfinite(value) or not math.isfinite(tail):
        return not math.isfinite(value) and not math.isfinite(tail)
    places = len(decimals.group(1)) if (decimals := re.search(rb"\.(\d+)", keyed.group(1))) else 0
    return round(tail, places) == round(value, places)


# The loss key's spellings: where a paste prints more than one (its own run's `Loss: 2.15` and, pasted after it for
# comparison, another program's `loss 0.39`), the one whose values turn non-finite is read first, else the one printed
# with the most values -- not the first of the dialect's list whatever the paste prints.
SPELLINGS = (b"loss", b"Loss", b"LOSS")


def _most_printed_first(keys: tuple, masked: bytes, spelled: dict) -> list:
    """The dialect's keys, its spellings of the loss reordered: one whose values turn non-finite first, then by how many
    values the block prints after each."""
    # (only the spellings the block holds at all: most logs hold one, and are not scanned again)
    spellings = [k for k in keys if k in SPELLINGS and k in masked]
    if len(spellings) < 2:
        return list(keys)
    # (a spelling whose values turn non-finite first, as the run a paste asks about is the one that broke: a longer
    # healthy log pasted for comparison is not it)
    rank = {}
    for k in spellings:
        values = [m.group(1).lower() for m in itertools.islice(keyed(k, **spelled).finditer(masked), 1000)]
        rank[k] = (not any(b"nan" in v or b"inf" in v for v in values), -len(values))
    ordered = iter(sorted(spellings, key=rank.__getitem__))        # (stable: ties keep the dialect's order)
    return [next(ordered) if k in rank else k for k in keys]


def _first_own(window: bytes) -> bytes | None:
    """The first loss of its own named after the word or before it (`Loss_D`, `d_loss`), if any -- a total among them
    first (`loss_total` beside `loss_cls`)."""
    own = [m.group(0) for pattern in (SUFFIXED, UNDERSCORED) for m in itertools.islice(pattern.finditer(window), 200)
           if not NOT_OWN.search(m.group(0))]
    return next((k for k in own if OWN_TOTAL.search(k)), own[0] if own else None)


OWN_TOTAL = re.compile(rb"(?i)(?:^|[_/])total(?:$|[_/])")


# Lines that name several losses are the log's when the first one's name is on lines holding at least this
# share of the loss key's matches: a summary line or two that names them otherwise does not switch it off.
NAMED_SHARE = 0.9


def _named_first(pattern: re.Pattern, data: bytes, found: re.Match, key: bytes) -> tuple[bytes, str] | None:
    """Two losses or more on one line, each named by a word before the key (a GAN's `[D loss: 0.6] [G loss:
    0.9]`, a VAE's `avg loss 512.3, recon loss 498.1, kl loss 14.2`): the name and key (with the space the log
    put between them) of the one that turns non-finite first in the text, else of the first, and why ("broke"
    when that is not the first, else "named"), so that one loss is read and not all of them as one curve -- when such lines are the
    log's, not one line of it: the first one's are NAMED_SHARE of the matches, for N on its line."""
    if REGEX_SYNTAX.search(key):       # a key given as a pattern (cost, J, mse after a look-behind) names no pair
        return None
    start = data.rfind(b"\n", 0, found.start()) + 1
    end = data.find(b"\n", found.start())
    matches = list(pattern.finditer(data, start, len(data) if end < 0 else end))
    if len(matches) < 2:
        return None
    words = [NAMED.search(data, max(start, m.start() - 16), m.start()) for m in matches]
    if not (all(words) and len({w.group(1) for w in words}) == len(words)):
        return None
    names = [w.group(0) + key for w in words]
    if len(matches) * len(re.findall(re.escape(names[0]), data)) < NAMED_SHARE * len(pattern.findall(data)):
        return None
    # the loss that broke first is the one to read: another may stay finite beside it, or break later
    broke = [(offset, k) for k, named in enumerate(names) if (offset := _first_nonfinite(keyed(re.escape(named)), data))
             is not None]
    k = min(broke)[1] if broke else 0
    return names[k], "broke" if k else "named"


def _first_nonfinite(pattern: re.Pattern, data: bytes) -> int | None:
    """Where the first value the pattern reads that is nan or inf starts, if the loss stayed so to its last value
    (a `prev loss: inf` that starts at infinity by design and is finite after is no loss that broke)."""
    first, last = None, None
    for m in pattern.finditer(data):
        v = to_float(m.group(1))
        if v is None:
            continue
        last = v
        if first is None and not math.isfinite(v):
            first = m.start()
    return first if last is not None and not math.isfinite(last) else None


REGEX_SYNTAX = re.compile(rb"[.^$*+?{}\[\]\\|()]")


def _literal(key: bytes, spelled: dict) -> bytes | None:
    """The key as the text it matches, for a pattern numbers.alike may stand in for: keyed() of a key
    with no regex syntax, and neither arrows nor thousands, which read past the byte after a number
    (`0.5 -> 0.2`, `1,234`)."""
    return None if REGEX_SYNTAX.search(key) or spelled["arrows"] or spelled["thousands"] else key


def _own_key(key: bytes, spelled: dict) -> re.Pattern:
    """The pattern of a loss key of its own (`genloss`, `total_loss`), not the end of a longer word."""
    return keyed(rb"(?<![A-Za-z])" + re.escape(key), **spelled)


# A plain `loss` that appears at most this often in the first block, beside a key of its own
# (`genloss`) that appears more often, is a title or a summary ("Loss NaN's"), not the log's loss.
TITLE_ONLY = 2


def _title_only(pattern: re.Pattern, masked: bytes, training: bytes, prefixed: list[bytes], spelled: dict) -> bool:
    if not prefixed:
        return False
    plain = len(pattern.findall(masked[:DETECT_WINDOW]))
    own = len(_own_key(prefixed[0], spelled).findall(training[:DETECT_WINDOW]))
    return plain <= TITLE_ONLY and own > plain


# A key's value followed by more values, each after a comma ("Loss: 0.70, 0.74, 0.61, 0.55, then a spike to 1.9"):
# a list a sentence gives after the key, not a log's key -- where the key says so only once.
# (each value maybe with its place: "Epoch 0 loss: 3.9e10, epoch 1: 2.2e12, epoch 2: 7.5e19")
# (or after it: "Loss: 2.31 at batch 0, 1.92 at batch 30, 1.87 at batch 60")
_PLACED = rb"(?:(?i:epoch|step|iter\w*|batch)[ \t]*\d+[ \t]*(?::[ \t]*)?)?"
_PLACE_AFTER = rb"(?:[ \t]+(?i:at|in|on|after|by)[ \t]+(?i:the[ \t]+)?(?i:epoch|step|iter\w*|batch)[ \t]*\d+)?"
KEY_BACK, SENTENCE_AHEAD = 64, 2048        # bytes around the key that hold its sentence
LIST_AFTER = re.compile(_PLACE_AFTER + rb"[ \t]*,[ \t]*" + _PLACED + rb"-?\d+(?:\.\d+)?(?:e[-+]?\d+)?" + _PLACE_AFTER +
                        rb"[ \t]*,[ \t]*" + _PLACED + rb"(?:-?\d|nan|inf)")


def _one_list(pattern: re.Pattern, masked: bytes, found: re.Match) -> bool:
    """Is the key's one value the first of a sentence's values: a list after commas (LIST_AFTER), or a run the
    sentence reader takes from it with words between ("loss 0.69 tha, thoda gira 0.55 tak, fir 1.41 pe jump kiya")?"""
    if pattern.search(masked, found.end()) is not None:
        return False
    if LIST_AFTER.match(masked, found.end()) is not None:
        return True
    run = prose_values.items(masked[max(0, found.start() - KEY_BACK):found.end() + SENTENCE_AHEAD])
    return len(run) >= prose_values.MIN_RUN and run[0].offset + max(0, found.start() - KEY_BACK) < found.end()


def _drop_mask(layout: Layout, first: bytes, masked: bytes, found: re.Match, key: bytes, spelled: dict) -> None:
    """Masking `val_loss` costs a pass over every block. When the training loss key
    is always preceded by the same byte (` loss`, `'loss`), a pattern that
    includes that byte cannot match `val_loss`, and no mask is needed. Used only
    if it finds exactly the same values in the first block."""
    before = masked[found.start() - 1:found.start()]
    if not before or before.isalnum() or before in (b"_", b"\n"):
        return
    narrow = keyed(re.escape(before) + key, **spelled)
    if narrow.findall(first) == layout.pattern.findall(masked):
        layout.pattern, layout.others = narrow, []
        layout.literal = before + layout.literal if layout.literal is not None else None


# A column named for an error rather than a loss (a regression's `mse`, an image model's `l1`) is the loss's only in a
# table of a run, numbered by its epoch, step or iteration: a table of layers' `l1` and `l2` norms is no curve.
ERROR_COLUMNS = frozenset({b"mse", b"train_mse", b"l1", b"train_l1"})
RUN_COLUMNS = frozenset({b"epoch", b"step", b"iteration", b"iter", b"it", b"global_step", b"batch", b"update", b"n_iter"})


def csv_column(first: bytes, names: tuple[bytes, ...] = CSV_NAMES) -> tuple | None:
    """(separator, loss column, header line, numbering column or -1, its name, "", the step's column or -1 beside an
    epoch's) of a CSV log whose loss column has one of these names (lower case): its header among the first lines, or
    further down a report that pastes the file below its words and code, where the two lines after the header are rows
    of it (CSV_ROWS_AFTER)."""
    lines = [line.strip() for line in first[:CSV_WINDOW].lower().split(b"\n") if line.strip()]
    for i, line in enumerate(lines):
        for sep in (b",", b"\t", b";"):
            fields = [f.strip().strip(b"\"'") for f in line.split(sep)]
            if len(fields) > 1:
                for name in names:
                    if name in fields:
                        numbering = next((n for n in (b"epoch", b"step", b"iteration") if n in fields), None)
                        if name in ERROR_COLUMNS and not RUN_COLUMNS & set(fields):
                            continue
                        # (Lightning's metrics.csv numbers each row by both: `epoch,step,train_loss`)
                        step = next((fields.index(n) for n in (b"step", b"iteration") if n in fields
                                     and numbering == b"epoch"), -1)
                        column = (sep, fields.index(name), i, fields.index(numbering) if numbering else -1,
                                  numbering.decode() if numbering else "", "", step)
                        rows = lines[i + 1:i + 1 + CSV_ROWS_AFTER]
                        if i < 5 or (len(rows) == CSV_ROWS_AFTER and all(
                                len(r.split(sep)) == len(fields) and row_value(r.split(sep), column) is not None
                                for r in rows)):
                            return column
    return None


def _one_per_line(first: bytes) -> bool:
    lines = [line.strip() for line in first.split(b"\n")[:20] if line.strip()]
    numeric = [line for line in lines if COLUMN.fullmatch(line)]
    return bool(lines) and len(numeric) >= max(1, len(lines) // 2)


def _on_line(pattern: re.Pattern, data: bytes, offset: int) -> bool:
    """Does the line holding `offset` also match `pattern`? (A gradient norm or an accuracy is read
    only from the lines that print the loss, not from a configuration line or a summary.)"""
    start, end = data.rfind(b"\n", 0, offset) + 1, data.find(b"\n", offset)
    return pattern.search(data, start, end if end >= 0 else len(data)) is not None


def _clip_at(first: bytes) -> float | None:
    for pattern in CLIP_KEYS:
        m = pattern.search(first)
        if m and to_float(m.group(1)) is not None:
            return to_float(m.group(1))
    return None


# A row of a whitespace table is a line whose numbering field is a count (`12`, `1/100`): the tool's
# other lines between the rows (a repeated header, a validation summary) are not.
COUNT = re.compile(rb"\d+(?:/\d+)?")


# A header line of a table: its first field names the numbering, and more fields follow.
TABLE_HEADER = re.compile(rb"(?im)^[ \t]*(?:epoch|step|iter|iteration)[ \t]+\S+[^\n]*$")
# YOLOv5 up to v6 named its loss parts without `_loss` (`Epoch gpu_mem box obj cls total labels img_size`).
YOLOV5_PARTS = (b"box", b"obj", b"cls")
# A column name of two words (Hugging Face's `Training Loss  Validation Loss`) is one name.
TWO_WORDS = re.compile(rb"\b(train|training|valid|validation|val|eval|test)[ \t]+loss\b")
TABLE_TOTALS = CSV_NAMES + (b"total_loss", b"loss_total", b"cost")
# ... and a logger's key as a column (W&B's `train/loss`, OLMo's `train/CrossEntropyLoss`, lowercased here)
TRAIN_KEY_TOTAL = re.compile(rb"(?:train|training)[/_](?:loss|cross_?entropy_?loss|ce_loss|lm_loss|nll_loss)")


@functools.lru_cache(maxsize=2)       # (asked by two dialects' refusals and the table's own dialect, on one block)
def table_column(first: bytes, prints: bool = True) -> tuple | None:
    """(None, loss column(s), header line, numbering column, its name, the loss read when it is not a
    printed total) of a table aligned with spaces under a header that starts with its numbering column
    and names a loss, anywhere in the first block (a tool prints its banner and settings first):
    Ultralytics YOLO (`Epoch GPU_mem box_loss cls_loss dfl_loss Instances Size`), fastai (`epoch
    train_loss valid_loss accuracy time`), Hugging Face's notebook table (`Epoch Training Loss Validation
    Loss`). The loss is the table's total (`loss`, `train_loss`, `total_loss`, YOLOv5's `total`) when it
    prints one; an Ultralytics table (`GPU_mem` second) prints only its parts, and the trainer
    backpropagates their sum times the batch size, so their sum is read (nan when any part is). Other
    tables of parts are not read."""
    for m, fields in _table_headers(first):
        ultralytics = fields[1] == b"gpu_mem"
        old_yolo = ultralytics and all(p in fields for p in YOLOV5_PARTS)
        named = [k for k, f in enumerate(fields) if f in TABLE_TOTALS or TRAIN_KEY_TOTAL.fullmatch(f)
                 or (old_yolo and f == b"total")]
        parts = [k for k, f in enumerate(fields)
                 if (f.endswith(b"_loss") and not f.startswith((b"val", b"test"))) or (old_yolo and f in YOLOV5_PARTS)]
        if not named and not (ultralytics and parts):
            continue                    # parts of someone else's (a GAN's D and G) are nobody's total
        header = sum(1 for line in first[:m.start()].split(b"\n") if line.strip())   # as csv_values counts lines
        if named:
            return (None, named[0], header, 0, fields[0].decode(), "")
        return (None, tuple(parts), header, 0, fields[0].decode(),
                " + ".join(fields[k].decode() for k in parts) if len(parts) > 1 else fields[parts[0]].decode())
    return _print_header(first) if prints else None


# A loop's own print of three values or more, its count first (`print(step, round(loss.item(), 4), gmax)`), pasted
# above the lines it printed (`0 0.6952 0.003418`): its arguments are the table's header, and the one that names the
# loss is its column -- three rows of that many fields at least, each a count and numbers
PRINT_CALL = re.compile(rb"(?m)^[ \t]*print\((?P<args>[^\n]{3,200})\)[ \t]*$"
                        # ... or the same header said in a sentence ending in a colon ("I also printed step,
                        # loss.item(), scaler.get_scale():")
                        # (a short line: the lookahead turns a long one away at its start, before any backtracking)
                        rb"|^(?=[^\n]{0,240}$)[^\n]{0,80}?\b(?i:printed|printing|logged|logging|print|log)[ \t]+"
                        rb"(?P<said>[^\n:]{3,200}?)[ \t]*:[ \t]*$")
# (the loss by name, `loss`, `train_loss`, `running_loss`, `round(loss.item(), 4)` -- not a count of losses, a loss
# scale or weight, nor a validation loss)
LOSS_ARG = re.compile(rb"(?i)(?<![a-z])(?:\w{0,20}_)?(?:loss|cost)\b(?!_?(?:scale|weight|fn|type|es)\b)")
NOT_LOSS_ARG = re.compile(rb"(?i)\blen\(|val|test|eval")
PRINT_ROWS = 200          # the lines after the print where its rows are looked for


def _print_header(first: bytes) -> tuple | None:
    window = first[:DETECT_WINDOW]
    for m in itertools.islice(PRINT_CALL.finditer(window), 10):
        args = _top_level_args(m.group("args")) if m.group("args") else _top_level_args(m.group("said"))
        losses = [k for k, a in enumerate(args) if k and LOSS_ARG.search(a) and not NOT_LOSS_ARG.search(a)]
        if len(args) < 3 or len(losses) != 1:
            continue
        # (three rows in a row at least, each a count and that many numbers)
        run = best = 0
        for line in window[m.end():].split(b"\n", PRINT_ROWS)[:PRINT_ROWS]:
            f = line.split()
            if len(f) == len(args) and COUNT.fullmatch(f[0]) and all(to_float(x) is not None for x in f[1:]):
                run += 1
                best = max(best, run)
            elif line.strip() not in (b"", b"...", "…".encode()):
                run = 0
        if best >= 3:
            header = sum(1 for line in window[:m.start()].split(b"\n") if line.strip())
            name = args[0].strip().decode("utf-8", "replace")
            return (None, losses[0], header, 0, name if re.fullmatch(r"[A-Za-z_]\w{0,20}", name) else "count", "")
    return None


def _top_level_args(args: bytes) -> list[bytes]:
    """A call's arguments, split at the commas outside brackets."""
    out, depth, start = [], 0, 0
    for i, c in enumerate(args):
        if c in b"([{":
            depth += 1
        elif c in b")]}":
            depth -= 1
        elif c == ord(",") and depth == 0:
            out.append(args[start:i])
            start = i + 1
    return out + [args[start:]]


def _table_headers(first: bytes):
    """Each header of a table aligned with spaces in the first block, and its column names (two-word names
    joined: `Validation Loss` is `validation_loss`)."""
    for m in TABLE_HEADER.finditer(first[:DETECT_WINDOW]):
        fields = TWO_WORDS.sub(rb"\1_loss", m.group(0).lower()).split()
        if not any(to_float(f) is not None for f in fields):   # a row or a `STEP : 0  LOSS : 1.2` line is no header
            yield m, fields


VALIDATION_COLUMNS = (b"valid_loss", b"val_loss", b"validation_loss", b"eval_loss")


def validation_rows(first: bytes):
    """(offset, column name, value) of each row under the first table header that names a validation loss
    (fastai's `valid_loss`, Hugging Face's `Validation Loss`), read as table_column's rows are."""
    for m, fields in _table_headers(first):
        named = [k for k, f in enumerate(fields) if f in VALIDATION_COLUMNS]
        if not named:
            continue
        # (not a pandas frame's header, whose rows print an index before its columns, and a NaN where a logger left a
        # cell empty: dialects/pandas_frame.py)
        row = next((line.split() for line in first[m.end() + 1:m.end() + 1 + pandas_frame.NEAR].split(b"\n")
                    if line.strip()), [])
        if len(row) == len(fields) + 1:
            return
        column, offset = (None, named[0], 0, 0), m.end() + 1
        for line in first[offset:].split(b"\n"):
            if line.strip():
                value = row_value(line.split(), column)
                if value is None:
                    return                              # the table ended
                yield offset, fields[named[0]].decode(), value
            offset += len(line) + 1
        return


def row_value(fields: list[bytes], column: tuple) -> bytes | None:
    """The loss of one row of a CSV file or a table (the sum of the columns when it names several), or
    None when the line is not a row."""
    sep, col, index = column[0], column[1], column[3]
    cols = col if isinstance(col, tuple) else (col,)
    if max(cols) >= len(fields) or (sep is None and not COUNT.fullmatch(fields[index])):
        return None
    values = [to_float(fields[k]) for k in cols]
    if any(v is None for v in values):
        return None
    if len(cols) == 1:
        return fields[col].strip().strip(b"\"'")
    return repr(sum(values)).encode()


def csv_values(data: bytes, column: tuple, skip_header: bool) -> list[bytes]:
    sep, header_line = column[0], column[2]
    lines = [line for line in data.split(b"\n") if line.strip()]
    if skip_header:
        lines = lines[header_line + 1:]
    return [v for line in lines if (v := row_value(line.split(sep), column)) is not None]


def csv_values_and(data: bytes, column: tuple, skip_header: bool, at: int) -> tuple[list[bytes], list[bytes | None]]:
    """csv_values, and the field at `at` of each row that gives a loss (None where the row has no such field), in one
    pass over the rows."""
    sep, header_line = column[0], column[2]
    lines = [line for line in data.split(b"\n") if line.strip()]
    if skip_header:
        lines = lines[header_line + 1:]
    values, fields_at = [], []
    for line in lines:
        fields = line.split(sep)
        if (v := row_value(fields, column)) is not None:
            values.append(v)
            fields_at.append(fields[at] if at < len(fields) else None)
    return values, fields_at


def column_values(data: bytes) -> list[bytes]:
    return [number for _, number in COLUMN.findall(data)]
