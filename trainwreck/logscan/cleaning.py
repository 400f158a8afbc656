"""What a terminal would show, from the bytes a program wrote: colours and cursor
movements dropped, and each progress line reduced to its last update.

Each step costs nothing on a log that does not need it: the presence of ESC or
CR is tested first, at C speed.
"""
from __future__ import annotations

import re
from collections import Counter

# ECMA-48 escape sequences in their 7-bit forms: CSI (colours, cursor moves), OSC
# (window titles) ended by BEL or ST, and two-byte escapes. The 8-bit C1 forms are
# left alone here: in UTF-8 text those bytes are parts of ordinary characters.
ESCAPE = re.compile(rb"\x1b\[[\x30-\x3f]*[\x20-\x2f]*[\x40-\x7e]|\x1b\][^\x07\x1b\n]*(?:\x07|\x1b\\)?"
                    rb"|\x1b[\x20-\x2f]*[\x30-\x7e]")
# A progress bar rewrites its line: every update but the last ends in a carriage
# return not followed by a newline (Keras also backspaces over the old text first). Tried only where a line, or an
# update, starts: from every byte of a long line ending in CR LF it would scan to the line's end each time.
OVERWRITTEN = re.compile(rb"(?<![^\r\n])[^\r\n]*\r(?!\n)")
BACKSPACE = b"\x08"


# ... except where the last update shows a loss that is no longer finite and an earlier one a finite loss: the
# updates are the steps of that epoch before the loss broke (0.7731, 0.5408, 0.4412, then nan at batch 134 of 172),
# which the last update alone would hide -- the loss would seem broken from the first value the log shows. They are
# kept there, each on a line of its own, and counted as lines, as Python's universal newlines (and most editors)
# read them.
# (a training loss: Lightning's `train_loss=nan` is one, Keras's `val_loss: nan` on the epoch's last update is not)
_TRAIN_LOSS = rb"(?<![A-Za-z])(?<!val_)(?<!valid_)(?<!test_)(?<!eval_)(?i:loss)['\"]?[ \t]*(?:[:=][ \t]*)?['\"]?"
UPDATE_BROKEN = re.compile(_TRAIN_LOSS + rb"-?(?:[nN]a[nN]|NAN|[iI]nf|INF)(?!\w)")
UPDATE_FINITE = re.compile(_TRAIN_LOSS + rb"[-+]?\.?\d")
_SPELLINGS = (b"nan", b"NaN", b"NAN", b"inf", b"Inf", b"INF")
_UPDATES = re.compile(rb"(?:[^\r\n]*\r(?!\n))+[^\r\n]*")


def _kept_if_broken(data: bytes) -> tuple[bytes, int]:
    """The progress lines whose last update shows a non-finite loss, with their updates on lines of their own; and
    how many lines that added."""
    if not any(s in data for s in _SPELLINGS):
        return data, 0
    out, pos, seen, added = [], 0, 0, 0
    for m in UPDATE_BROKEN.finditer(data):
        if m.start() < seen:
            continue
        # (each line looked at once, from its first such loss: a long line of them must not make this quadratic)
        start, end = data.rfind(b"\n", 0, m.start()) + 1, data.find(b"\n", m.end())
        seen = end if end >= 0 else len(data)
        line = _UPDATES.match(data, start)          # a line that a progress bar rewrote
        if line is None or line.end() < m.end():
            # (or the bar's last update, printed on a line of its own a line or two below the bar it ends -- Keras's
            # TerminateOnNaN prints `Batch 517: Invalid loss, terminating training` between them)
            line = _bar_before(data, start)
            if line is None or line.start() < pos:
                continue
            start = line.start()
            last = line.end()
        else:
            last = data.rfind(b"\r", start, line.end()) + 1
            if not UPDATE_BROKEN.search(data, last, line.end()):
                continue     # the update the terminal shows has a finite loss: it alone is kept
        if not UPDATE_FINITE.search(data, start, last):
            continue         # none before the broken one had a finite loss: the last alone is kept
        updates = [u for u in line.group(0).split(b"\r") if u.strip(b" \t\x08")]
        if len(updates) >= 2:
            out += [data[pos:start], b"\n".join(updates)]
            pos, added = line.end(), added + len(updates) - 1
    return (b"".join(out) + data[pos:], added) if out else (data, 0)


BAR_GAP = 3        # lines at most between a progress bar and a broken update printed below it


def _bar_before(data: bytes, start: int) -> re.Match | None:
    """A line a progress bar rewrote, among the BAR_GAP lines right before the line at `start`."""
    end = start - 1
    for _ in range(BAR_GAP):
        if end <= 0:
            return None
        begin = data.rfind(b"\n", 0, end) + 1
        line = _UPDATES.match(data, begin)
        if line is not None and line.end() == end:
            return line
        end = begin - 1
    return None


def clean(data: bytes) -> bytes:
    """The text as the terminal left it: escapes gone, the last update of each progress line kept (all of them
    where the last shows a loss that is not finite)."""
    return cleaned(data)[0]


# Keras's TerminateOnNaN prints its line right after the bar's last update, on the bar's own line when that update
# ended in a carriage return (`207/469 [...] - loss: 0.5032Batch 211: Invalid loss, terminating training`, right
# after the update's last digit): its batch is not that update's, so it goes on a line of its own. So does a paste
# copied from the terminal, where the carriage returns are gone and the glued line is left.
TERMINATE_GLUED = re.compile(rb"(?<=\d)(?=Batch \d{1,9}: Invalid loss, terminating training)")


def cleaned(data: bytes) -> tuple[bytes, int]:
    """clean(), and the lines it added: a progress line's updates kept before its nan are as many lines."""
    added = 0
    if b"\x1b" in data:
        data = ESCAPE.sub(b"", data)
    # (memchr rules out a block with no capital I, most of a progress bar's, in a twentieth of the time the search for
    # the phrase takes: that search was most of this function's time on a long log)
    if b"I" in data and b"Invalid loss" in data:
        data, glued = TERMINATE_GLUED.subn(b"\n", data)
        added += glued
    if b"\r" in data:
        data, kept = _kept_if_broken(data)
        added += kept
        data = OVERWRITTEN.sub(b"", data)
    if BACKSPACE in data:
        data = data.replace(BACKSPACE, b"")
    return data, added


# What a launcher of several processes puts before each line one of them prints, its separating space included: Ray's
# `(ClientAppActor pid=48214) ` and `(pid=123, ip=10.0.0.2) `, torchrun's `[rank0]: ` and `[default0]:` (its role and
# local rank, no space after). The worker's own text follows it unchanged -- the source line Python echoes under a
# warning, indented, too (str, for the readers of the prose).
WORKER_PREFIX = r"(?:\((?:\w+ )?pid=\d+(?:, ip=[\d.]+)?\) |\[rank\d+\]: |\[default\d+\]:)"

# Python prints a warning as `file.py:12: RuntimeWarning: overflow encountered in exp` followed by the line of
# source that raised it, indented (warnings.formatwarning): `  loss = -1/m * np.sum(...)` is code, not a loss of -1.
# Not for code Python has no source of (`<stdin>`, `<string>`, `<console>`, a frozen module): it echoes nothing
# there, and the indented line after such a warning is the program's own.
# (a worker's echo keeps its launcher's prefix, WORKER_PREFIX)
WARNING_ECHO = re.compile(rb"(?m)^(?!<(?:stdin|string|console|frozen)\b)([^\n]*:\d+: [A-Z]\w*Warning: [^\n]*\n)"
                          + WORKER_PREFIX.encode() + rb"?[ \t]+[^\n]*")
WARNING_ANCHOR = b"Warning: "


def without_warning_echoes(data: bytes) -> bytes:
    """The text with the source lines Python echoes under its warnings left empty (their newlines kept, so
    lines keep their numbers)."""
    return WARNING_ECHO.sub(rb"\1", data) if WARNING_ANCHOR in data else data


# A progress bar's updates, run together by carriage returns, that are a curve of their own: a whole text that is one
# line of this many updates and nothing else (`python train.py > run.log` of a single epoch's tqdm bar). Its last value
# alone would be no curve, and the climb the updates show would be thrown away. Only such a text: carriage returns are
# read as line ends in the whole of it, so a text with other lines keeps its line numbers (and each bar its last
# value, its updates being one batch's noise each).
BAR_UPDATES = 10


def uses_lone_cr(first: bytes, whole: bool = False) -> bool:
    """Read carriage returns as line ends? Old Mac line ends (carriage returns and no newline at all), or a whole text
    that is a single line of BAR_UPDATES progress updates or more (tqdm writes a carriage return before each)."""
    body = first.rstrip(b"\r\n")
    if b"\n" not in first:
        return b"\r" in body
    return whole and b"\n" not in body and sum(1 for update in body.split(b"\r") if update.strip()) >= BAR_UPDATES


# A question the reporter asks is theirs, not the run's: "Why does the first epoch have loss 1893??" names a loss the
# log printed already, and read as one more value it would take the last epoch's number. Such a question is emptied
# from its first word to the line's end (the newline kept, so lines keep their numbers): a sentence that opens with a
# question word and ends in a question mark, which no tool prints on a loss line -- when every number in it (and a nan
# or an inf) is printed elsewhere in the text too. One that says something the log does not ("why does it show loss:
# nan from epoch 4 on?" under finite lines) is kept: it may be all the report says of the failure. (Bounded: a long
# line of question words must not make the search quadratic; tried only when the text holds a question mark.)
QUESTION = re.compile(rb"(?im)(?:^|(?<=[.!:;)]) )[ \t*>_]*(?:why|how|what|is|isn't|are|aren't|should|shouldn't|does|"
                      rb"doesn't|do|don't|did|didn't|can|could|any|anyone|where|when|which|was|were|will|would|has|"
                      rb"have|am|shouldnt|isnt|doesnt)\b[^\n?]{0,300}\?+[ \t\r*_]*$")
QUESTION_VALUE = re.compile(rb"(?i)\d+(?:\.\d+)?(?:e[-+]?\d+)?|\bnan\b|\binf\b")


def without_questions(data: bytes) -> bytes:
    """The text with the reporter's questions that repeat what it prints emptied, lines kept."""
    if b"?" not in data:
        return data
    seen: Counter | None = None

    def repeated(m: re.Match) -> bytes:
        nonlocal seen
        if seen is None:                    # (counted once for the whole text: each question costs its own length)
            seen = _values_and_prefixes(data)
        asked = _values_and_prefixes(m.group(0))
        return b"" if all(seen[v] > asked[v] for v in _own_values(m.group(0))) else m.group(0)

    return QUESTION.sub(repeated, data)


# A report's title is its first line, set apart by a blank line: ".half() model: loss 2.3027 at step 0, nan from step
# 1" restates what the log below prints, and read as a value it would be one more value, placed before the log's
# first; "my BCE goes nan at epoch 7" above a log would lend its epoch to the lines after it. A title whose loss
# values, or, giving none, whose every number (and nan or inf), the text prints elsewhere too is emptied like a
# question (its line kept; its words are still read); one that says something the log does not is kept.
TITLE_VALUE = re.compile(rb"(?i)(?<![A-Za-z_\d.-])\d+(?:\.\d+)?(?:e[-+]?\d+)?|\bnan\b|\binf\b")
TITLE_LOSS = re.compile(rb"(?i)\bloss\w*['\"]?[ \t]*(?:[:=][ \t]*)?(\d+(?:\.\d+)?(?:e[-+]?\d+)?|nan\b|inf\b)")
# (no run of spaces before the line's characters: beside the look-ahead over spaces, a first line of 32 kB of spaces
# was tried from each of its starts -- 2.5 s, three times as long for twice the text)
TITLE = re.compile(rb"\A(?![ \t\r]*\n)[^\n]{1,300}\n(?=[ \t\r]*\n)")


def without_title(data: bytes) -> bytes:
    """The text with a title that repeats what it prints emptied, lines kept (the first block only)."""
    m = TITLE.match(data)
    if m is None or not QUESTION_VALUE.search(m.group(0)):
        return data
    seen, said = _values_and_prefixes(data), _values_and_prefixes(m.group(0))
    # (the digits of a name, `fp16`, `ResNet-50`'s, are no value the log prints; and where the title gives the loss a
    # value, that value is what would be read: "First loss 20869 with 100 classes, shouldn't it be ~4.6?" restates
    # the log's 20869.67, whatever its other numbers)
    losses = {v.lower() for v in TITLE_LOSS.findall(m.group(0))}
    if not all(seen[v] > said[v] for v in losses or {v.lower() for v in TITLE_VALUE.findall(m.group(0))}):
        return data
    return b"\n" + data[m.end():]


# Beside a log, a sentence's finite loss is another run's ("The same data with a CNN from a tutorial gets loss 0.8.",
# "the paper reports loss 0.3"): in a paste (PASTE bytes or fewer) whose loss values stand on LOG_LINES lines or more
# that are no sentences, the sentences that give the loss a finite value are emptied, lines kept. A sentence: WORDS_MIN
# words of letters or more, most of its tokens, FUNCTION_MIN of them the little words a log line has none of (`epoch
# 4: avg loss nan, recon loss 176.3, kl loss nan` is the log's). Not a sentence that gives the loss a nan or an inf
# ("why does it then show loss: nan from epoch 6 on?"): that is this run's failure, said. Where the paste's values
# are all in sentences, they are its own, and kept.
PASTE = 1 << 15
LOG_LINES, WORDS_MIN, FUNCTION_MIN = 3, 8, 3
# (one run of spaces, then maybe a colon and another: two runs side by side split a long one every way, quadratically)
LOSS_VALUE = re.compile(rb"(?i)loss\w*['\"]?[ \t]*(?:[:=][ \t]*)?[-+]?(?:\d|\.\d|nan\b|inf\b)")
FINITE_LOSS = re.compile(rb"(?i)loss\w*['\"]?[ \t]*(?:[:=][ \t]*)?[-+]?(?:\d|\.\d)")
WORD = re.compile(rb"(?<![\w./=])[A-Za-z][a-z']+(?![\w/=(])")
FUNCTION = re.compile(rb"(?i)\b(?:the|a|an|with|from|of|to|is|are|was|were|my|i|and|but|it|this|that|for|in|on|"
                      rb"gets?|got|when|than|same)\b")


NONFINITE_WORD = re.compile(rb"(?i)\b(?:nan|inf)\b")


def _sentence(line: bytes) -> bool:
    tokens = line.split()
    words = len(WORD.findall(line))
    return words >= WORDS_MIN and words >= 0.6 * len(tokens) and len(FUNCTION.findall(line)) >= FUNCTION_MIN


def without_sentences_beside_a_log(data: bytes, key: re.Pattern | None = None) -> bytes:
    """The paste with the sentences that give the loss a finite value emptied, where its log gives LOG_LINES or
    more; with the key the log's loss is read by (`mse = 1.0`), the sentences that give that key a value too, and
    a nan or an inf among them where the log shows one itself ("with lr = 1e-6 it's the same story, just slower
    (mse 2.0e+29 at epoch 20, inf at epoch 186)" tells another run)."""
    if len(data) > PASTE or data.count(b"\n") < LOG_LINES:
        return data
    lines = data.split(b"\n")
    valued = [i for i, line in enumerate(lines) if LOSS_VALUE.search(line)]
    said = [i for i in valued if _sentence(lines[i]) and FINITE_LOSS.search(lines[i])
            and not re.search(rb"(?i)\b(?:nan|inf)\b", lines[i])]
    if key is not None:
        keyed = [i for i, line in enumerate(lines) if key.search(line)]
        logged = [i for i in keyed if not _sentence(lines[i])]
        broke = any(NONFINITE_WORD.search(lines[i]) for i in logged)
        said = sorted(set(said) | {i for i in keyed if _sentence(lines[i]) and (
            broke or not NONFINITE_WORD.search(lines[i]))})
        valued = sorted(set(valued) | set(keyed))
    if not said or len(valued) - len(said) < LOG_LINES:
        return data
    for i in said:
        lines[i] = b""
    return b"\n".join(lines)


# A second run pasted for comparison after the reporter's own, under a line that says so and ends in a colon ("For
# comparison, a run with the default yaml that a colleague did last month:", "As a reference, the original repo's
# log:"): read after the reporter's own values, its values would make one curve of two runs. Where LOG_LINES log lines
# with loss values come before such a line, the block after it -- to a blank line, a sentence, another line that
# ends in a colon or a ruler -- is emptied (lines kept). Not a line that names the block as the reporter's own ("For
# comparison, this is what I get with my data:"), and not a block that shows a nan or an inf the reporter's lines do
# not: that failure is this run's (code_review_s70c 1-4).
COMPARED = re.compile(rb"(?im)^[ \t]*(?:[-*>#]+[ \t]*)?(?:for (?:a )?comparison|to compare|as (?:a )?reference|"
                      rb"(?:the |a )?reference (?:run|log)|(?:the |a )?baseline (?:run|log))\b[^\n]*:[ \t\r]*$")
OWN = re.compile(rb"(?i)\b(?:my|mine|our|own|I|we|I'm|I've)\b")
BLOCK_END = re.compile(rb"[^\n]*:[ \t\r]*$|[ \t]*(?:-{3,}|={3,}|\*{3,})")
FENCE = re.compile(rb"[ \t]*(?:```|~~~)")


def without_a_compared_run(data: bytes) -> bytes:
    """The paste without the log of a run it pastes for comparison after its own (COMPARED)."""
    if len(data) > PASTE or not COMPARED.search(data):
        return data
    lines = data.split(b"\n")
    logged = 0                  # the reporter's log lines with a loss value so far
    for at, line in enumerate(lines):
        if logged >= LOG_LINES and COMPARED.match(line) and not OWN.search(line):
            break
        logged += bool(LOSS_VALUE.search(line)) and not _sentence(line)
    else:
        return data
    block, started = [], False
    for i in range(at + 1, len(lines)):
        line = lines[i]
        if not line.strip() or FENCE.match(line):
            if started and not line.strip():
                break
            continue
        if _sentence(line) or BLOCK_END.match(line):
            break
        started = True
        block.append(i)
    earlier = b"\n".join(lines[:at])
    if any(NONFINITE_WORD.search(lines[i]) and LOSS_VALUE.search(lines[i]) for i in block) \
            and not (NONFINITE_WORD.search(earlier) and LOSS_VALUE.search(earlier)):
        return data
    for i in block:
        lines[i] = b""
    return b"\n".join(lines)


def _own_values(text: bytes) -> set[bytes]:
    return {v.lower() for v in QUESTION_VALUE.findall(text)}


def _values_and_prefixes(text: bytes) -> Counter:
    """Each number (and nan, inf) of the text, and each shorter form of it a person may quote: 1893.4172 counts for
    1893, 1893.4, 1893.41 and 1893.417 too."""
    out: Counter = Counter()
    for v in QUESTION_VALUE.findall(text):
        v = v.lower()
        out[v] += 1
        point = v.find(b".")
        if point > 0 and b"e" not in v:
            for end in range(point, len(v)):
                out[v[:end]] += 1
    return out


# A line's shape: its text with every number made one digit ("32/32 [===] - 0s 2ms/step - loss: 0.6931" and the next
# epoch's are one shape)
_NUMBER = re.compile(r"\d+")
SHAPE_KEPT = 2


def repeats_collapsed(text: str) -> str:
    """The text with each line shape kept at most SHAPE_KEPT times, in order: the start of a large log file, read for
    its words, holds thousands of lines that say the same thing with other numbers, and its loss values are read from
    the whole file, not from these words."""
    seen: Counter = Counter()
    kept = []
    for line in text.split("\n"):
        shape = _NUMBER.sub("0", line)
        seen[shape] += 1
        if seen[shape] <= SHAPE_KEPT:
            kept.append(line)
    return "\n".join(kept)

