"""Messages in a log: the ones the catalogue declares, and a few families any run prints.

The catalogue is the source of truth: each declared message becomes a pattern
(its `{}` placeholders match the values a run fills in). To stay fast, a block
is first searched once for short literal anchors -- one Aho-Corasick pass for
every anchor at once (anchors.py) -- and only the lines holding an anchor are read further.
The built-in families are cheap hints that also let an undeclared message be
reported instead of dropped: NumPy's floating-point warnings, Python exception
and warning lines, and the lines frameworks print when training breaks.

The same pass finds validation words, so that their losses are kept apart.
"""
from __future__ import annotations

import os
import re
from dataclasses import dataclass

from .anchors import Anchors
from .evidence import Evidence
from .stops import STOPS


@dataclass(frozen=True)
class Known:
    """A message to look for on any line holding `anchor`."""
    key: str                 # a declared message's text, or "" for a family (filed by what it matched)
    anchor: bytes
    pattern: re.Pattern      # searched in the line; group "text" (or the whole match) is the message
    origin: str | None
    quotable: bool = True    # False: after a quote mark on its line it is someone's prose, not the message


def _family(anchor: bytes, pattern: bytes, origin: str | None, quotable: bool = True) -> Known:
    return Known("", anchor, re.compile(pattern), origin, quotable)


QUOTES = (b'"', b"'", b"`", "\u201c".encode())
# A message written as the string a call is handed -- `raise ValueError(f"Expected more than 1 value ...")`, the
# source line a traceback echoes above the error, or `warnings.warn("...")` in pasted code -- is the code that
# would print it, not the message printed (a traceback's last line holds the message itself)
# (PyTorch 2.5 on splits that raise over three lines: the string then opens its own line, f"Expected more ...")
# Not an exception's repr a log prints, `worker 3 failed: ValueError('Expected more than 1 value ...')`: a class of
# exception handed the string, with no raise before it, is the message as printed.
IN_CALL = re.compile(rb"(?P<call>[\w.]*\w)\(\s*[rRfFbBuU]{0,2}[\"']$|^[ \t]*[rRfFbBuU]{1,2}[\"']$")
EXCEPTION_CLASS = re.compile(rb"(?:Error|Exception|Warning)$")
RAISE = re.compile(rb"\braise\b")


def _written_as_code(text: bytes, start: int) -> bool:
    """Is the message that starts at `start` of the line a string literal of code (IN_CALL), not one printed?"""
    m = IN_CALL.search(text, 0, start)
    return m is not None and not (m.group("call") and EXCEPTION_CLASS.search(m.group("call"))
                                  and not RAISE.search(text, 0, m.start()))


WARNING = "python-warning"           # the origin of Python's warning lines (not a framework's)


# Cheap hints, most specific first: a line is filed under the first that matches.
FAMILIES = (
    # (an anchor that the catalogue's own NumPy messages hold, `divide by zero encountered in`: one literal for all of
    # them, of the automaton's 64 -- anchors.py)
    _family(b" encountered in", rb"(?:overflow|underflow|divide by zero|invalid value) encountered in \w+", "numpy"),
    # (its anchor without the space after it: the catalogue's declared anomaly messages hold it, so they share it)
    _family(b" returned nan values in its", rb"Function '[^'\n]*' returned nan values in its \w+ output\.?", "pytorch"),
    # the checks that stop a run at a non-finite loss (stops.py): read as its last value too
    *(_family(stop.anchor, stop.pattern.pattern, stop.origin, quotable=False) for stop in STOPS),
    _family(b"Gradient overflow.", rb"Gradient overflow\.\s+Skipping step(?:, loss scaler \d+ reducing loss scale "
                                   rb"to [\d.e+-]+)?", "apex"),
    _family(b"OVERFLOW! Rank", rb"OVERFLOW! Rank \d+ Skipping step\.?", "deepspeed"),
    _family(b"loss scale already at minimum", rb"Current loss scale already at minimum - cannot decrease scale "
                                              rb"anymore\.(?: Exiting run\.)?", "deepspeed"),
    _family(b"Minimum loss scale reached", rb"Minimum loss scale reached \([^)\n]*\)\.", "fairseq"),
    _family(b"gradient overflow detected", rb"gradient overflow detected, ignoring gradient(?:, setting loss scale "
                                           rb"to: [\d.e+-]+)?", "fairseq"),
    _family(b"device-side assert triggered", rb"device-side assert triggered", "cuda"),
    _family(b"CUBLAS_STATUS_", rb"CUBLAS_STATUS_[A-Z_]+", "cuda"),
    # A C++ exception that ended the process (libstdc++'s terminate handler prints it; PyTorch's NCCL watchdog ends a
    # run so): filed with Python's errors, as an error that stopped the run
    _family(b"terminate called after throwing", rb"terminate called after throwing an instance of '[^'\n]{1,200}'",
            "python"),
    # The error Torch's CUDA check raised (cutorch in Torch7, and PyTorch's THC until it was removed: `__THCudaCheck`
    # raises "cuda runtime error (%d) : %s", then " at " the file and line -- https://github.com/pytorch/pytorch/blob/
    # a9bce336a079bb31dfbf085b1a1cffda0d18ad4d/aten/src/THC/THCGeneral.cpp): an error that ended the run, as Python's
    # are, whether Lua printed it bare (`luajit: train.lua:110: cuda runtime error (2) : out of memory at ...`) or
    # PyTorch as a RuntimeError (the family above takes a device-side assert first). As a program prints it, after a
    # colon: not in a sentence, nor in the warning of a trainer that skipped the batch and went on (old fairseq's
    # "ran out of memory with exception: cuda runtime error (2) : out of memory at ...; skipping batch").
    _family(b"cuda runtime error (", rb"(?<=: )(?<!exception: )cuda runtime error \(\d+\) : [^\n;]*?(?= at \S+:\d+|;|\s*$)",
            "python"),
    # Any other exception or warning line: the text after the class name.
    _family(b"Error: ", rb"\b[A-Z]\w*Error: *(?P<text>\S[^\n]*)", "python"),
    _family(b"Exception: ", rb"\b[A-Z]\w*Exception: *(?P<text>\S[^\n]*)", "python"),
    # (a warning's origin is its own: it stops nothing, so it is never the error that ended a run)
    _family(b"Warning: ", rb"\b[A-Z]\w*Warning: *(?P<text>\S[^\n]*)", WARNING),
)
# Losses on a line after one of these words are validation or test losses, or a summary
# (`best loss 1.98` in a checkpoint line), not a training step.
# `val/loss` is Lightning's and TensorBoard's way (a metric logged under a tag). Only where a word starts counts
# (VALIDATION reads the word there), so no literal holds a shorter one: `validation` and `valid/` start with `valid`,
# `test/` with `test` -- each literal is one more of the prefilter's 64 (anchors.py).
VALIDATION_WORDS = (b"valid", b"Valid", b"VALID", b"val ", b"Val ", b"VAL ", b"val:", b"Val:", b"val)", b"val/", b"Val/",
                    b"test", b"Test", b"TEST", b"eval", b"Eval", b"EVAL", b"best", b"Best")
VALIDATION = re.compile(rb"(?:[Vv]al(?:id(?:ation)?)?|VAL(?:ID(?:ATION)?)?|[Tt]est(?:ing)?|TEST|[Ee]val(?:uation)?|EVAL"
                        rb"|[Bb]est)(?![A-Za-z])")
# ... up to the end of its line, or to where the training values start again on it (`Loss/test: 1.0
# Loss/train: 0.9`, `val loss 0.5 | train loss 0.4`); `trained`, `trainer` are other words.
TRAINING_AGAIN = re.compile(rb"(?<![A-Za-z])(?:[Tt]rain(?:ing)?|TRAIN(?:ING)?)(?![a-z])")
NUMBERS = re.compile(r"\d+(?:\.\d+)?(?:[eE][-+]?\d+)?")
MAX_LINE = 2000          # bytes of a line read for messages
LOOKBACK = 64            # bytes a family's message may start before its anchor


# NumPy names the division two more ways: `true_divide`, the name of the same ufunc before NumPy 1.23 (its
# warnings said "invalid value encountered in true_divide" until then: scikit-hep/pyhf#1872), and `scalar divide`,
# the division of two NumPy scalars (np.float64(1) / np.float64(0) warns "divide by zero encountered in scalar
# divide" in NumPy 2.4.6). A declared "... encountered in divide" is found under either (its anchor stops
# before the op).
DIVIDED = " encountered in divide"
DIVIDE_NAMES = rb"(?:true_divide|scalar divide|divide)(?!\w)"


def _declared(text: str, origin: str) -> Known:
    from ..entry import template_pattern

    # (a message's final full stop is often left off where it is quoted -- a title, a sentence -- and a traceback's
    # last line is matched with or without it)
    bare = text[:-1] if text.endswith(".") and not text.endswith("..") else text
    anchor = max(bare.split("{}"), key=len).strip() or bare
    pattern = template_pattern(bare).pattern.encode() + (rb"\.?" if bare != text else b"")
    if origin == "numpy" and text.endswith(DIVIDED):
        pattern = re.escape(text.removesuffix("divide")).encode() + DIVIDE_NAMES
        anchor = text.removesuffix(" divide")
    return Known(text, anchor.encode(), re.compile(pattern), origin)


# Anchors that begin alike -- CUDA's three kernel assertions, `Assertion \`...\` failed`; BCELoss's two `all elements of
# ... should be between 0 and 1` -- are searched by what they share: one literal of the prefilter's 64 for all of them
# (anchors.py), each message's own pattern then tried on the line.
SHARED_BEGINNING = 10


def _shared_beginnings(literals: list[bytes]) -> list[bytes]:
    """Each literal, or the longest beginning of SHARED_BEGINNING bytes or more that it shares with another."""
    out = []
    for a in literals:
        shared = max((len(os.path.commonprefix([a, b])) for b in literals if b != a), default=0)
        out.append(a[:shared] if SHARED_BEGINNING <= shared < len(a) else a)
    return out


class MessageFinder:
    """Finds the declared messages and the families in blocks of a log."""

    def __init__(self, declared: list[tuple[str, str]] = ()):
        self.pairs = tuple(declared)
        seen: dict[str, Known] = {}
        for text, origin in declared:
            if text not in seen and text.strip():
                seen[text] = _declared(text, origin)
        self.declared = list(seen.values())
        self.known = self.declared + list(FAMILIES)
        # Only the anchors that hold no other anchor are searched for; a hit on one makes candidates of
        # every message whose anchor holds it (each message's pattern is then tried on the line). NumPy's
        # warnings share one template ("... encountered in ..."): however many the catalogue declares,
        # they cost the search one literal, which keeps it under the prefilter's 64. The automaton's
        # hits do not overlap, so a long anchor is filed under *every* shortest anchor it holds: one of
        # them overlapped by another hit, the others are still hit.
        literals = [k.anchor for k in self.known]
        searched = _shared_beginnings(literals)
        shortest = [a for a in dict.fromkeys(searched) if not any(b != a and b in a for b in searched)]
        self.candidates: list[list[int]] = [[i for i, anchor in enumerate(literals) if s in anchor]
                                            for s in shortest]
        self.validation_from = len(shortest)
        self.anchors = Anchors(shortest + list(VALIDATION_WORDS))

    def __reduce__(self):              # the automata are rebuilt in a worker process
        return MessageFinder, (self.pairs,)

    def scan(self, data: bytes, ev: Evidence | None, line0: int) -> list[tuple[int, int]]:
        """File the messages of one block (unless `ev` is None); return the (start, end) spans of
        validation text."""
        hits = self.anchors.hits(data)
        if not hits:
            return []
        spans: list[tuple[int, int]] = []
        lines: dict[int, list[int]] = {}           # line start -> the anchors hit on it, in order
        for index, start, _end in hits:
            if index >= self.validation_from:
                if (start == 0 or not (data[start - 1:start].isalnum() or data[start - 1] == 95)) \
                        and VALIDATION.match(data, start):
                    end = data.find(b"\n", start)
                    end = len(data) if end < 0 else end
                    if back := TRAINING_AGAIN.search(data, start, end):
                        end = back.start()
                    if not (spans and spans[-1][1] >= end):
                        spans.append((start, end))
            elif ev is not None:
                lines.setdefault(data.rfind(b"\n", 0, start) + 1, []).extend(self.candidates[index])
        counted, line = 0, line0
        for line_start, anchors in lines.items():      # in order of position: dicts keep insertion order
            line += data.count(b"\n", counted, line_start)
            counted = line_start
            end = data.find(b"\n", line_start, line_start + MAX_LINE)
            self._file(data[line_start:end if end >= 0 else line_start + MAX_LINE], anchors, ev, line + 1)
        return spans

    def _file(self, text: bytes, anchors: list[int], ev: Evidence, line: int) -> None:
        declared = len(self.declared)
        matched = []
        for index in dict.fromkeys(anchors):
            if index < declared:
                known = self.declared[index]
                if (m := known.pattern.search(text)) and not _written_as_code(text, m.start()):
                    matched.append((m.start(), index, known, m))
        # filed in the order they stand on the line, whichever anchor made them candidates
        for _, _, known, m in sorted(matched, key=lambda t: t[:2]):
            ev.note_message(known.key, line, _shown(m.group(0)), known.origin)
            ev.show_framework(known.origin)
        if matched:
            return
        for known in FAMILIES:
            at = text.find(known.anchor)
            # a family's message starts at most LOOKBACK bytes before its anchor: search from there
            if at >= 0 and (m := known.pattern.search(text, max(0, at - LOOKBACK))):
                if (not known.quotable and any(q in text[:m.start()] for q in QUOTES)) or _written_as_code(text, m.start()):
                    continue
                shown = _shown(m.group("text") if "text" in known.pattern.groupindex else m.group(0))
                ev.note_message(NUMBERS.sub("{}", shown), line, shown, known.origin)
                if known.origin not in ("python", WARNING):
                    ev.show_framework(known.origin)
                return


def _shown(raw: bytes) -> str:
    return " ".join(raw.decode("utf-8", "replace").split())


DEFAULT = MessageFinder()
