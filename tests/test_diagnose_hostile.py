"""Logs of any shape piped into `diagnose` (issue 16, items 4 and 20-25): each gets a correct
answer or one clear line and a non-zero exit, in bounded time and memory."""
import importlib
import io
import json
import math
import pkgutil
import re
import subprocess
import sys

import pytest

from conftest import ROOT, real_catalog
from trainwreck.diagnose import diagnose, signature_of
from trainwreck.logscan import LogError, scan
from trainwreck.logscan.evidence import MAX_MESSAGES

CATALOG = real_catalog()


def ev_of(data: bytes):
    return scan(io.BytesIO(data), "log")


def run_cli(*args, stdin=None):
    return subprocess.run([sys.executable, "-m", "trainwreck", "diagnose", *args], cwd=ROOT, input=stdin,
                          capture_output=True)


# ---- 20: linear and bounded ---------------------------------------------------------------

def test_distinct_messages_are_counted_past_a_bounded_table():
    lines = [f"UserWarning: unknown layer kind {chr(97 + i % 26)}{chr(97 + i // 26 % 26)}{i // 676}\n"
             for i in range(3 * MAX_MESSAGES)]
    ev = ev_of("".join(lines).encode())
    assert len(ev.messages) == MAX_MESSAGES
    assert ev.more_messages == 2 * MAX_MESSAGES
    first = ev.messages[next(iter(ev.messages))]
    assert first[:2] == [1, 1]
    last_kept = list(ev.messages.values())[-1]
    assert last_kept[1] == MAX_MESSAGES          # each line number counted as the scan goes
    d = diagnose(ev, CATALOG)
    assert f"{2 * MAX_MESSAGES} more message line(s) of other kinds were seen and not kept" in d.unweighed


def test_message_line_numbers_across_blocks(monkeypatch):
    import trainwreck.logscan.reader as reader
    monkeypatch.setattr(reader, "CHUNK", 64)
    text = "".join(f"loss: 0.{i:03d}\n" if i % 7 else "RuntimeWarning: overflow encountered in exp\n"
                   for i in range(1, 200))
    ev = ev_of(text.encode())
    assert ev.messages["overflow encountered in exp"][:2] == [text.count("overflow"), 7]


# ---- 22: numbers that overflow ------------------------------------------------------------

@pytest.mark.parametrize("huge", ["1e309", "9" * 400])
def test_a_number_past_the_largest_float_is_inf(huge):
    values = ["0.69", "0.61", "0.55", "0.52", huge, "nan"]
    ev = ev_of("".join(f"step {i} loss {v}\n" for i, v in enumerate(values)).encode())
    assert ev.first_nonfinite == 4 and math.isinf(ev.first_nonfinite_value)
    sig = signature_of(ev)
    assert sig.name == "descent-then-nonfinite"
    assert "first inf at step 4" in sig.facts[0]


# ---- 23: tqdm repeats ---------------------------------------------------------------------

def test_progress_updates_count_once_per_line():
    finals = [0.69, 0.91, 1.6, 3.1, 7.4]
    plain = "".join(f"epoch {e} loss={v}\n" for e, v in enumerate(finals))
    bar = "".join("".join(f"\repoch {e} {k * 10}%|{'#' * k}| loss={v * k / 10:.3f}" for k in range(1, 10))
                  + f"\repoch {e} 100%|##########| loss={v}\n" for e, v in enumerate(finals))
    a, b = ev_of(plain.encode()), ev_of(bar.encode())
    assert b.count == a.count == 5
    assert b.head == a.head == finals
    assert signature_of(b).name == signature_of(a).name == "climbing"


def test_the_updates_of_a_progress_line_that_ends_in_a_nan_are_its_steps_before_it():
    """A bar whose last update shows a nan after updates with a finite loss broke within that epoch: its updates
    are read as the epoch's steps (the last one alone would make the loss broken from the first value shown), and
    counted as lines, so a message after them is quoted on its line as Python reads the file. A bar whose updates
    are all nan, or whose nan was overwritten, or whose nan is the validation loss's, keeps its last update only."""
    bar = "\r".join(f"epoch 3 {k}0%|{'#' * k}| loss={v}" for k, v in enumerate(["0.52", "0.50", "0.49", "nan"], 1))
    log = "epoch 1 loss=0.69\nepoch 2 loss=0.55\n\r" + bar + "\nInvalid loss at batch 40\n"
    ev = ev_of(log.encode())
    assert ev.head[:5] == [0.69, 0.55, 0.52, 0.50, 0.49] and ev.first_nonfinite == 5 and ev.lines == 7
    assert ev_of(log.replace("\n\r", "\n").replace("\r", "\n").encode()).lines == 7     # the same file, one update a line
    for other in ("\r".join(f"epoch 3 {k}0%| loss=nan" for k in range(1, 5)),       # all nan: nothing broke in it
                  bar + "\repoch 3 50%|#####| loss=0.48",                              # the nan overwritten
                  bar.replace("loss=nan", "loss=0.47 val_loss=nan"),                  # the validation loss's nan
                  "\r".join(f"epoch 3 {k}0%| train_loss=nan.0, val_loss=0.61" for k in range(1, 5))):
        ev = ev_of(("epoch 1 loss=0.69\nepoch 2 loss=0.55\n\r" + other + "\n").encode())
        assert ev.count == 3 and ev.lines == 3, other


# A run of whitespace, an optional word, and another run of whitespace ("lr\s*(?:is)?\s*constant") can share one run
# of spaces in every way there is to split it: each further run of the shape multiplies the work by the run's length
# (`lr` before 16 kB of spaces took minutes). The same language is written with the second run inside the optional
# group ("lr\s*(?:is\s*)?constant"). The words benchmark times such texts; this finds the shape in every
# module-level pattern without timing anything.
_WS_RUN = r"(?:\\s|\[ \\t\]|\[\\t \]| )(?:[*+]|\{\d*,\})\??"
# (or one optional character between them, "\s*~?\s*": a loss "stays at about" before 32 kB of spaces took 7.6 s)
# (or one optional class of characters, "[ \t]*[:=]?[ \t]*": a `val_loss` before 32 kB of spaces took 28.9 s)
# (or one optional escaped character, "\s*\(?\s*": an `np.mean(` before 20 kB of spaces took 2.0 s -- code_review_s75 1)
_SHAPE = re.compile(_WS_RUN + r"(?:\((?:\?:)?(?:[^()]|\([^()]*\))*\)\?|\[(?:\\.|[^\]\\])+\]\?|(?:\\.|[^()\\?*+{\[])\?)"
                    + _WS_RUN)


def _module_patterns():
    import trainwreck
    from trainwreck import lazy_regex
    for info in pkgutil.walk_packages(trainwreck.__path__, "trainwreck."):
        if not info.name.endswith("__main__"):
            for name, value in vars(importlib.import_module(info.name)).items():
                if isinstance(value, re.Pattern):
                    source = value.pattern if isinstance(value.pattern, str) else value.pattern.decode("latin-1")
                    yield f"{info.name}.{name}", source
    # (and every pattern compiled on first use, wherever it is kept: a tuple of folds, a Normal's field --
    # trainwreck/lazy_regex.py)
    for k, value in enumerate(lazy_regex.MADE):
        yield f"lazy_regex.MADE[{k}] {value.pattern[:50]!r}", value.pattern


def test_no_pattern_lets_two_whitespace_runs_share_the_spaces_around_an_optional_word():
    patterns = dict(_module_patterns())
    assert len(patterns) > 900            # (the walk found the package's patterns, those compiled on first use too)
    assert _SHAPE.search(r"\bsame\s+(?:thing|pattern)?\s*later")       # (and it can fail)
    assert not _SHAPE.search(r"\bsame\s+(?:(?:thing|pattern)\s*)?later")
    assert _SHAPE.search(r"at\s*~?\s*(\d+)") and not _SHAPE.search(r"at\s*(?:~\s*)?(\d+)")
    assert _SHAPE.search(r"mean\(\s*\(?\s*x") and not _SHAPE.search(r"mean\(\s*(?:\(\s*)?x")
    assert _SHAPE.search(r"loss[ \t]*[:=]?[ \t]*(\d)") and not _SHAPE.search(r"loss[ \t]*(?:[:=][ \t]*)?(\d)")
    assert [name for name, source in patterns.items() if _SHAPE.search(source)] == []


# ---- 24: escapes, tensors, lone CR, thousands -------------------------------------------------

def test_ansi_colours_do_not_hide_the_loss():
    log = "".join(f"\x1b[1mepoch {e}\x1b[0m - \x1b[32mloss: {v}\x1b[0m\n" for e, v in enumerate([0.7, 0.6, 0.5]))
    assert ev_of(log.encode()).head == [0.7, 0.6, 0.5]


def test_a_tensor_repr_is_read():
    log = "".join(f"epoch {e} loss=tensor({v}, grad_fn=<NllLossBackward0>)\n" for e, v in enumerate([0.7, 0.6]))
    assert ev_of(log.encode()).head == [0.7, 0.6]


def test_one_number_per_line_with_lone_carriage_returns():
    ev = ev_of(b"0.7\r0.6\r0.5\rnan\r")
    assert ev.head[:3] == [0.7, 0.6, 0.5] and ev.first_nonfinite == 3 and ev.lines == 4


def test_thousands_separators():
    ev = ev_of(b"step 1 loss: 1,234.5\nstep 2 loss: 12,001\nstep 3 loss: 980.25\n")
    assert ev.head == [1234.5, 12001.0, 980.25]


# ---- 25: --json errors, one NUL rule, honest sizes -------------------------------------------

def test_json_errors_are_json_with_the_same_exit(tmp_path):
    result = run_cli(str(tmp_path / "missing.log"), "--json")
    assert result.returncode == 1
    assert json.loads(result.stdout) == {"source": str(tmp_path / "missing.log"), "verdict": "error",
                                         "error": f"{tmp_path / 'missing.log'}: No such file or directory"}
    assert result.stderr.decode().count("\n") == 1


@pytest.mark.parametrize("where", [10, 100_000])
def test_one_nul_rule_wherever_the_nul_is(where):
    data = b"loss: 0.5\n" * (where // 10) + b"\0" + b"loss: 0.4\n"
    with pytest.raises(LogError, match=rf"not a text log \(a NUL byte at offset {where // 10 * 10}\)"):
        ev_of(data)


def test_a_huge_line_without_newlines_reports_its_size(monkeypatch):
    import trainwreck.logscan.reader as reader
    monkeypatch.setattr(reader, "CHUNK", 1 << 12)
    monkeypatch.setattr(reader, "MAX_CARRY", 1 << 14)
    ev = ev_of(b"x" * (1 << 20))
    assert ev.lines == 1 and ev.size == 1 << 20 and ev.long_lines >= 1
    from trainwreck.diagnose_report import header
    assert header(diagnose(ev, CATALOG)).startswith("log: 1 line(s), 1.0 MB")


# ---- 4: nothing from the log reaches the terminal raw ---------------------------------------

def test_escape_sequences_in_a_log_are_not_printed():
    log = b"RuntimeWarning: overflow encountered in exp\x1b]0;PWNED\x07\x1b[2J\nValueError: bad \x07bell\x1b[31m\n"
    result = run_cli("-", stdin=log)
    assert result.returncode == 0
    assert b"\x1b" not in result.stdout and b"\x07" not in result.stdout
    data = json.loads(run_cli("-", "--json", stdin=log).stdout)
    assert all("\x1b" not in m["text"] and "\x07" not in m["text"] for m in data["messages"])


# A lookahead that scans to the text's end (`(?=.*word)`), tried by search() at every position of a text that does not
# hold the word, reads the rest of the text from each: 25 s on 32 kB of a report (code_review re-read, session 48). Such
# a pattern is anchored at the text's start (`\A(?=.*word)`), where it is tried once.
_ANCHORED = re.compile(r"(?:\(\?[a-zA-Z]+\))?\\A")


def _scans_from_every_position(source: str) -> bool:
    """Does the pattern hold a lookahead to the text's end without being anchored at its start?"""
    return "(?=.*" in source and not _ANCHORED.match(source)


def test_no_pattern_scans_to_the_end_from_every_position():
    from trainwreck.normals import NORMALS

    sources = dict(_module_patterns())
    sources.update({f"normal {n.name}": n.asked.pattern for n in NORMALS})
    assert _scans_from_every_position(r"(?s)(?=.*\bdiffusion\b)(?=.*loss)")            # (and it can fail)
    assert not _scans_from_every_position(r"(?s)\A(?=.*\bdiffusion\b)(?=.*loss)")
    assert [name for name, source in sources.items() if _scans_from_every_position(source)] == []
