"""numbers.alike stands in for the loss pattern's findall on a large log's blocks: whenever it answers,
its answer must be the regex's, and a large log must read exactly as it would without it."""
import glob

import numpy as np
import pytest

from conftest import ROOT
from trainwreck.logscan import reader
from trainwreck.logscan.layout import layout_of
from trainwreck.logscan.numbers import Batch, alike, keyed

KEYS = [b"loss", b" loss", b"'loss'", b"loss_step", b", loss", b"train loss"]
BEFORE = [b": ", b"=", b" ", b"': ", b" = ", b"=tensor(", b":\t", b"", b"::"]
NUMBERS = [b"0.6931", b"1.2345", b"12.345", b"0.69", b"7", b"1e-3", b"-0.5", b"nan", b"0.6931e", b"0.6931.",
           b"1,234.5", b"inf", b"0.6931x", b".5"]
AFTER = [b" ", b"\n", b" - ", b",", b"}", b"_", b"x", b"\xe2\x86\x92", b" -> 1", b")"]


def _line(rng, key: bytes, before: bytes, number: bytes, odd: float) -> bytes:
    """A loss line written as the block's others are, or, with probability `odd`, some other way."""
    if rng.random() < odd:
        before = BEFORE[rng.integers(len(BEFORE))]
        number = NUMBERS[rng.integers(len(NUMBERS))]
    digits = bytes(b"0123456789"[d] for d in rng.integers(0, 10, len(number)))
    number = bytes(d if c in b"0123456789" else c for c, d in zip(number, digits))
    after = AFTER[0] if rng.random() > odd else AFTER[rng.integers(len(AFTER))]
    return b"step %d - " % rng.integers(1000) + key + before + number + after + b"acc: 0.5"


def _block(rng, key: bytes, odd: float) -> bytes:
    """Lines with the key, written alike but for the odd one, and, with probability `odd`, a line of prose."""
    before, number = BEFORE[rng.integers(len(BEFORE))], NUMBERS[rng.integers(len(NUMBERS))]
    lines = [_line(rng, key, before, number, odd) if rng.random() >= odd else b"the " + key + b" went down"
             for _ in range(rng.integers(1, 200))]
    return b"\n".join(lines) + (b"\n" if rng.random() < 0.8 else b"")


@pytest.mark.parametrize("wrappers", [False, True])
def test_an_answer_is_the_regex_answer(wrappers):
    rng = np.random.default_rng(14)
    answered = 0
    for trial in range(300):
        key = KEYS[trial % len(KEYS)]
        pattern = keyed(key, wrappers=wrappers)
        text = _block(rng, key, odd=(0.0, 0.001, 0.05)[trial % 3])
        fast = alike(text, key, pattern)
        if fast is None:
            continue
        answered += 1
        batch = Batch(pattern.findall(text))
        assert fast.n == batch.n and fast.floats() == batch.floats(), text
        assert batch.values is None and batch.all_finite              # only plain numbers are answered
        for upto in {1, fast.n // 2 or 1, fast.n}:
            assert fast.extremes(upto) == batch.extremes(upto)
        assert fast.floats(fast.n - 1) == batch.floats(fast.n - 1)
    assert answered > 30                                              # the fast path is the one under test


@pytest.mark.parametrize("spelling", [b"loss: 1,234.5 acc", b"loss: 0.5 -> 0.2"])
def test_numbers_that_run_on_are_left_to_the_regex(spelling):
    """With thousands, `loss: 7,274.3` is one number; with arrows, what follows a number decides."""
    assert layout_of(b"loss: 0.6931 acc\n" + spelling + b"\n").literal is None
    assert layout_of(b"loss: 0.6931 acc\nloss: 0.5\n").literal == b"loss"


def test_keys_close_together_are_left_to_the_regex():
    key = b"loss"
    pattern = keyed(key)
    assert alike(b"loss loss: 0.5 loss: 0.6\n", key, pattern) is None
    text = b"loss: 0.5 x\nloss: 0.7 x\n"
    assert alike(text, key, pattern).floats() == [0.5, 0.7]
    assert alike(b"loss: 0.5 x\nloss: 0.7", key, pattern) is None      # the last number ends the text


def _scan(path: str, workers: int = 1) -> str:
    """The evidence, as text: a nan is not equal to itself, its repr is."""
    return repr(reader.scan_path(path, workers=workers))


SAMPLE_LOGS = sorted(glob.glob(str(ROOT / "tests" / "logs" / "*" / "*.log")))


def _read_both_ways(path: str, monkeypatch) -> tuple[str, str, int]:
    """The evidence read by the regex alone and with NumPy, and how many blocks NumPy answered."""
    monkeypatch.setattr(reader, "CHUNK", 1 << 9)        # many blocks, so values are located across them
    monkeypatch.setattr(reader, "NUMPY_FROM", 1 << 60)
    by_regex = _scan(path)
    monkeypatch.setattr(reader, "NUMPY_FROM", 0)
    answered = []
    monkeypatch.setattr(reader, "alike", lambda *a: answered.append(alike(*a)) or answered[-1])
    return by_regex, _scan(path), sum(a is not None for a in answered)


@pytest.mark.parametrize("path", SAMPLE_LOGS)
def test_a_log_read_with_numpy_reads_the_same(path, monkeypatch):
    by_regex, with_numpy, _ = _read_both_ways(path, monkeypatch)
    assert with_numpy == by_regex


def test_numpy_answers_for_many_of_the_sample_logs(monkeypatch):
    # a sample log NumPy never answers for compares the regex with itself: most must not be such logs'
    # only check, so enough of them must reach numbers.alike
    answered = [p for p in SAMPLE_LOGS if _read_both_ways(p, monkeypatch)[2]]
    assert len(answered) >= 10, answered


def test_a_large_keras_log_reads_the_same_in_parallel(tmp_path, monkeypatch):
    rng = np.random.default_rng(0)
    lines = []
    for epoch in range(1, 3001):
        loss = 0.7 * np.exp(-epoch / 900) + 0.01 * rng.random()
        lines.append(f"Epoch {epoch}/3000\n32/32 [==============================] - 0s 2ms/step - loss: {loss:.4f}"
                     f" - accuracy: 0.5000 - val_loss: {loss * 1.1:.4f}\n")
    lines[2000] = lines[2000].replace("loss: 0.", "loss: nan 0.")          # one block left to the regex
    log = tmp_path / "train.log"
    log.write_text("".join(lines))
    assert layout_of(log.read_bytes()).literal == b" loss"
    monkeypatch.setattr(reader, "CHUNK", 1 << 14)
    expected = _scan(str(log))
    monkeypatch.setattr(reader, "NUMPY_FROM", 0)
    answered = []
    monkeypatch.setattr(reader, "alike", lambda *a: answered.append(alike(*a)) or answered[-1])
    assert _scan(str(log)) == expected
    assert sum(a is not None for a in answered) > len(answered) // 2      # NumPy read most blocks, not the regex
    monkeypatch.setattr(reader, "PARALLEL_MIN", 0)
    assert _scan(str(log), workers=2) == expected


def test_a_log_longer_than_a_block_has_its_layout_read_from_its_start_alone(tmp_path, monkeypatch):
    # (reader.LAYOUT_WINDOW: the layout's searches over a whole first block were a tenth of diagnose's time on 500 MB)
    rng = np.random.default_rng(1)
    lines = [f"Epoch {e}/9000\n32/32 [==============================] - 0s 2ms/step - loss: "
             f"{0.7 * np.exp(-e / 3000) + 0.01 * rng.random():.4f} - accuracy: 0.5000 - val_loss: 0.7700\n"
             for e in range(1, 9001)]
    log = tmp_path / "train.log"
    log.write_text("".join(lines))
    monkeypatch.setattr(reader, "CHUNK", 1 << 18)
    monkeypatch.setattr(reader, "LAYOUT_WINDOW", 1 << 15)
    read = []
    real = reader.layout_of
    monkeypatch.setattr(reader, "layout_of", lambda text, *rest: read.append(text) or real(text, *rest))
    windowed = _scan(str(log))
    assert len(read) == 1 and (1 << 15) - 200 < len(read[0]) <= 1 << 15 and read[0].endswith(b"\n")
    # (the same evidence as the layout read from the whole block: a program's lines repeat)
    monkeypatch.setattr(reader, "LAYOUT_WINDOW", 1 << 18)
    assert _scan(str(log)) == windowed and len(read[1]) > 1 << 17
    # (a text of one block, a paste, is read whole)
    read.clear()
    small = tmp_path / "paste.log"
    small.write_text("".join(lines[:400]))
    monkeypatch.setattr(reader, "LAYOUT_WINDOW", 1 << 10)
    _scan(str(small))
    assert read[0] == small.read_bytes()


@pytest.mark.parametrize("shape", ["start-up lines first", "two losses, one turns nan past the window",
                                   "two spellings, one turns nan past the window"])
def test_a_start_that_settles_nothing_has_the_layout_read_from_the_whole_block(shape, tmp_path, monkeypatch):
    # (code_review_s70 1, 2: a window with no loss in it, or one that chooses among losses by the one that breaks, is
    # no sample of the log: the whole block decides, as it did before the window)
    if shape == "start-up lines first":
        lines = [f"NCCL INFO Channel {i:02d}/32 : 0[0] -> 1[1] via P2P/IPC\n" for i in range(900)]
        lines += [f"step {s} | loss: {2.5 - s / 1e4:.4f} | lr: 1e-4\n" for s in range(4000)]
    elif shape == "two losses, one turns nan past the window":
        lines = [f"[Epoch {s // 100}/100] [Batch {s % 100}/100] [D loss: 0.5{s % 7}] "
                 f"[G loss: {'nan' if s > 1200 else f'1.{s % 9}'}]\n" for s in range(4000)]
    else:
        lines = [f"epoch {s} loss 0.{s % 9 + 1} Loss {'nan' if s > 700 else f'0.{s % 7 + 1}'}\n" for s in range(6000)]
    log = tmp_path / "train.log"
    log.write_text("".join(lines))
    monkeypatch.setattr(reader, "CHUNK", 1 << 17)
    monkeypatch.setattr(reader, "LAYOUT_WINDOW", 1 << 14)
    windowed = _scan(str(log))
    monkeypatch.setattr(reader, "LAYOUT_WINDOW", 1 << 17)
    assert windowed == _scan(str(log))
    ev = reader.scan_path(str(log))
    assert ev.count > 3000 and (shape == "start-up lines first") == (ev.first_nonfinite is None), (shape, ev.count)


def test_a_train_loss_is_a_summary_only_beside_a_plain_loss_printed_more_often():
    from trainwreck.logscan.layout import summary_losses

    steps = b"ep 1 | it 0 | loss 2.3\nep 1 | it 50 | loss 1.9\n"
    assert summary_losses(steps + b"ep 1 | train_loss 2.1 | val_loss 2.2\n") == [b"train_loss"]
    # (the steps' own key, or one line that prints both, or a summary printed as often as the steps: kept)
    assert summary_losses(b"epoch 1 train_loss 2.3\nepoch 2 train_loss 1.9\n") == []
    assert summary_losses(steps + b"ep 1 | loss 1.8 | train_loss 2.1\n") == []
    assert summary_losses(b"it 0 loss 2.3\nep 1 train_loss 2.3\n") == []
    assert summary_losses(steps + b"ep 1 | train_loss nan | val_loss 2.2\n") == []     # (a step was not finite)
