"""`trainwreck diagnose`: logs in, entries out -- closed over the catalogue's own snippets."""
import io
import json
import math
import os
import subprocess
import sys

import numpy as np
import pytest

from conftest import ROOT, real_catalog, tab_program_run
from trainwreck.diagnose import diagnose, message_finder, signature_of
from trainwreck.logscan import LogError, scan

CATALOG = real_catalog()


def tab_output(entry_id: str, region: str) -> str:
    """What the entry page's Reproduce or Fix tab prints (the closed loop over every entry is
    tests/test_tab_programs.py; these tests read the same outputs for details)."""
    return tab_program_run(CATALOG.entries[entry_id].snippet, region).stdout


def diagnosis_of(text: str, source="log"):
    return diagnose(scan(io.BytesIO(text.encode()), source), CATALOG)


def test_wr220_evidence_quotes_the_users_own_numbers():
    log = tab_output("WR-220", "reproduce")
    d = diagnosis_of(log)
    evidence = " | ".join(d.matches[0].evidence)
    assert "the loss rose 5 times in a row, from 0.6865 at epoch 0 to 41.92 at epoch 5, about x2.28 each time" \
        in evidence
    assert "first inf at epoch 6, nan from epoch 7, non-finite to the end (epoch 11)" in evidence
    assert "would have warned at epoch 3, 3 values before" in evidence
    line = next(i for i, l in enumerate(log.splitlines(), 1) if "overflow encountered in exp" in l)
    assert f'message "overflow encountered in exp" (line {line})' in evidence
    assert d.matches[0].fix.startswith("Cut the learning rate by a factor of 10")
    # the hand-written -1/p divides by zero: WR-050 declares that message (an infinite slope in a
    # backward pass), so it is weighed there, below WR-220's curve
    wr050 = next(m for m in d.matches if m.entry.id == "WR-050")
    assert any('message "divide by zero encountered in divide"' in e for e in wr050.evidence)
    assert d.matches[0].score > wr050.score


def test_descent_then_jump_without_its_messages_is_weaker_evidence():
    values = [0.9, 0.7, 0.55, 0.46, 0.41, float("nan"), float("nan")]
    d = diagnosis_of("".join(f"step {i} loss={v}\n" for i, v in enumerate(values)))
    assert d.signature.name == "descent-then-nonfinite"
    ids = [m.entry.id for m in d.matches]
    assert ids[0] == "WR-310"                     # the curve fits and it prints no warning
    wr030_match = d.matches[ids.index("WR-030")]  # the curve fits, but its warnings are missing
    assert "none of the messages this failure prints are in the log" in wr030_match.against


def test_unknown_signature_is_reported_not_guessed():
    from trainwreck.catalog import Catalog
    empty = Catalog(root=ROOT, folder=ROOT / "catalog", entries={}, modules=CATALOG.modules)
    values = [0.9, 0.7, 0.55, 0.46, 0.41, float("nan")]
    d = diagnose(scan(io.BytesIO("".join(f"loss={v}\n" for v in values).encode()), "log"), empty)
    assert d.matches == [] and d.verdict == "unexplained"
    assert any("no entry declares this signature yet" in u for u in d.unweighed)


@pytest.mark.parametrize("log", [
    "epoch 1 loss: 0.70\nepoch 2 loss: 0.91\nepoch 3 loss: 1.6\nepoch 4 loss: 3.1\nepoch 5 loss: nan\n",
    "loss=0.70\nloss=0.91\nloss=1.6\nloss=3.1\nloss=NaN\n",
    "{'loss': 0.7}\n{'loss': 0.91}\n{'loss': 1.6}\n{'loss': 3.1}\n{'loss': nan}\n",
    '{"loss": 0.7, "val_loss": 0.2}\n{"loss": 0.91, "val_loss": 0.2}\n{"loss": 1.6, "val_loss": 9}\n'
    '{"loss": 3.1, "val_loss": 0.2}\n{"loss": Infinity, "val_loss": 0.2}\n',
    "Epoch 1/5\n32/32 [====] - 0s 2ms/step - loss: 0.7000 - accuracy: 0.5 - val_loss: 0.1\n"
    "Epoch 2/5\n32/32 [====] - 0s 2ms/step - loss: 0.9100 - accuracy: 0.5 - val_loss: 0.1\n"
    "Epoch 3/5\n32/32 [====] - 0s 2ms/step - loss: 1.6000 - accuracy: 0.5 - val_loss: 0.1\n"
    "Epoch 4/5\n32/32 [====] - 0s 2ms/step - loss: 3.1000 - accuracy: 0.5 - val_loss: 0.1\n"
    "Epoch 5/5\nBatch 3: Invalid loss, terminating training\n32/32 [====] - loss: nan - accuracy: 0.5\n",
    "0.70\n0.91\n1.6\n3.1\n-inf\n",
    "epoch,loss,val_loss\n1,0.70,0.1\n2,0.91,0.1\n3,1.6,0.1\n4,3.1,0.1\n5,inf,0.1\n",
    "Loss: 0.70\nLoss: 0.91\nLoss: 1.6\nLoss: 3.1\nLoss: INF\n",
], ids=["colon", "equals", "dict", "json-with-val", "keras", "column", "csv", "capital"])
def test_log_shapes_all_give_the_same_climb(log):
    ev = scan(io.BytesIO(log.encode()), "log")
    finite = ev.before
    assert finite == pytest.approx([0.70, 0.91, 1.6, 3.1]), (ev.mode, finite)
    assert ev.first_nonfinite == 4 and not math.isfinite(ev.first_nonfinite_value)
    assert signature_of(ev).name == "climb-then-nonfinite"


def test_keras_epoch_numbering_and_message():
    log = ("Epoch 1/3\n1/1 - loss: 0.7\nEpoch 2/3\n1/1 - loss: 0.9\nEpoch 3/3\n"
           "Batch 0: Invalid loss, terminating training\n1/1 - loss: nan\n")
    ev = scan(io.BytesIO(log.encode()), "log")
    assert ev.where(ev.first_nonfinite) == "epoch 3/3"        # as numbered in the log, from 1
    assert ev.messages == {"Batch {}: Invalid loss, terminating training":
                           [1, 6, "Batch 0: Invalid loss, terminating training", "keras"]}


@pytest.mark.parametrize("message", [
    "RuntimeWarning: overflow encountered in exp",
    "RuntimeError: Function 'LogSoftmaxBackward0' returned nan values in its 0th output.",
    "Model diverged with loss = NaN.",
    "Gradient overflow.  Skipping step, loss scaler 0 reducing loss scale to 32768.0",
])
def test_known_messages_are_found(message):
    ev = scan(io.BytesIO(f"starting\n{message}\ndone\n".encode()), "log")
    assert len(ev.messages) == 1 and list(ev.messages.values())[0][:2] == [1, 2]


def test_empty_binary_and_utf16_inputs_get_one_line_errors():
    with pytest.raises(LogError, match=r"^log: empty: there is nothing to diagnose$"):
        scan(io.BytesIO(b""), "log")
    with pytest.raises(LogError, match=r"^log: not a text log \(a NUL byte at offset 6\)"):
        scan(io.BytesIO(b"\x7fELF\x02\x01\x00\x00binary"), "log")
    with pytest.raises(LogError, match="iconv -f UTF-16"):
        scan(io.BytesIO("loss: 0.7\n".encode("utf-16")), "log")


def test_mixed_encodings_and_a_huge_line():
    latin1 = "épreuve loss: 0.7\n".encode("latin-1")
    utf8 = "étape loss: 0.5\n".encode("utf-8")
    huge = b"x" * (9 << 20) + b" loss: 0.4\n"           # one 9 MB line
    ev = scan(io.BytesIO(latin1 + utf8 + huge + b"loss: 0.3\n"), "log")
    assert ev.head == [0.7, 0.5, 0.4, 0.3]
    assert ev.long_lines >= 1


def run_cli(*args, stdin=None):
    return subprocess.run([sys.executable, "-m", "trainwreck", "diagnose", *args], cwd=ROOT,
                          input=stdin, capture_output=True)


def report_of(*args, stdin: bytes) -> str:
    """What `trainwreck diagnose *args` prints for stdin, run in this process: for the tests of what the
    report says (a process of its own costs 0.4 s, most of it compiling the patterns again); run_cli
    keeps the tests of the process itself (exit status, one-line errors, standard input)."""
    import contextlib

    from trainwreck import cli

    out = io.TextIOWrapper(io.BytesIO(), encoding="utf-8")
    with contextlib.chdir(ROOT), contextlib.redirect_stdout(out), \
            pytest.MonkeyPatch.context() as patch:
        patch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(stdin), encoding="utf-8"))
        assert cli.main(["diagnose", *args]) == 0
    out.flush()
    return out.buffer.getvalue().decode("utf-8")


def test_cli_reads_stdin_and_prints_json():
    log = tab_output("WR-220", "reproduce").encode()
    result = run_cli("-", "--json", stdin=log)
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["verdict"] == "failure"
    assert data["matches"][0]["id"] == "WR-220"
    assert data["first_nonfinite"] == "epoch 6"
    assert data["signature"]["watch_warning"] == "epoch 3"


def test_cli_errors_are_one_line(tmp_path):
    (tmp_path / "bin.log").write_bytes(b"\x00\x01\x02")
    (tmp_path / "empty.log").write_bytes(b"")
    for args, message in [
        ((str(tmp_path / "missing.log"),), f"trainwreck: {tmp_path / 'missing.log'}: No such file or directory\n"),
        ((str(tmp_path),), f"trainwreck: {tmp_path}: is a folder, not a log file\n"),
        ((str(tmp_path / "empty.log"),), f"trainwreck: {tmp_path / 'empty.log'}: empty: there is nothing to diagnose\n"),
    ]:
        result = run_cli(*args)
        assert result.returncode == 1
        assert result.stderr.decode() == message
    result = run_cli(str(tmp_path / "bin.log"))
    assert result.returncode == 1 and result.stderr.decode().count("\n") == 1


def test_a_nan_in_validation_alone_is_said_beside_the_training_verdict():
    """Validation values are not diagnosed, but a nan the person asked about is not passed over in silence."""
    keyed = "".join(f"Epoch {i}/30: train_loss={t} | val_loss={v} val_acc=0.78\n"
                    for i, (t, v) in enumerate([("0.81", "0.70"), ("0.61", "0.64"), ("0.53", "nan")], 1))
    tagged = ("[train] step 100 | loss 0.84\n[train] step 200 | loss 0.69\n"
              "[eval]  step 200 | loss_ce nan | loss inf | mIoU 0.44\n[train] step 300 | loss 0.61\n")
    mnist = "".join(f"Train Epoch: 1 [{640 * i}/60000]\tLoss: {2.3 - 0.1 * i:.3f}\n" for i in range(12)) + \
        "\nTest set: Average loss: nan, Accuracy: 980/10000 (10%)\n"
    fastai = ("epoch     train_loss  valid_loss  accuracy  time    \n"
              + "".join(f"{e}         {t}    {v}    0.70      01:10\n" for e, (t, v) in
                        enumerate([("1.412301", "1.021233"), ("0.981120", "nan     "), ("0.770442", "nan     ")])))
    for log, said in ((keyed, "the validation loss was nan at epoch 3/30 (line 3) (`val_loss=nan`)"),
                      (fastai, "the validation loss was nan at line 3 (`valid_loss nan`)"),
                      (fastai.replace("train_loss  valid_loss", "Training Loss  Validation Loss"),
                       "the validation loss was nan at line 3 (`validation_loss nan`)"),
                      (mnist, "the validation loss was nan at epoch 1 (line 14) (`Test set: Average loss: nan`)"),
                      (tagged, "the validation loss was inf at step 200 (line 3) (`[eval]  step 200 | loss_ce nan | loss inf`)")):
        out = report_of("-", stdin=log.encode())
        assert out.count("No known failure found in the training loss.") == 1
        assert f"But {said}: only the training loss is diagnosed." in out
        assert json.loads(report_of("-", "--json", stdin=log.encode()))["validation_nonfinite"] == said
    # beside a verdict on the words, too: a short paste whose only nan is the test set's
    out = report_of("-", stdin=("Loss: 2.301\nLoss: 2.204\n" + mnist.splitlines()[-1]).encode())
    assert "Note: the validation loss was nan at line 3 (`Test set: Average loss: nan`)" in out
    # a finite validation loss, a sentence about one, a name that holds the key (a configuration's starting
    # best_val_loss=inf), or a sentence that opens with "Test" is not a printed non-finite validation value
    calm = (keyed.replace("val_loss=nan", "val_loss=0.66") + "my val loss is nan sometimes?\n"
            "Namespace(lr=0.1, best_val_loss=inf, patience=5)\nTest 2 with --fp16: loss nan from the first step\n"
            "best val loss: inf\n")
    out = report_of("-", stdin=calm.encode())
    assert "validation loss was" not in out
    # (its nan with --fp16 is a run in half precision said to break: a suspect, not a named failure)
    assert "Cannot tell yet. One entry fits" in out and "1. WR-040" in out
    assert "No known failure found" in report_of("-", stdin=calm.replace("with --fp16", "").encode())
    # beside a training loss that went nan too, the validation's nan is no separate question (review_session27_logs K7)
    both = keyed.replace("train_loss=0.53", "train_loss=nan")
    assert diagnose(scan(io.BytesIO(both.encode()), "both", message_finder(CATALOG)), CATALOG).validation == ""
    assert diagnose(scan(io.BytesIO(keyed.encode()), "val", message_finder(CATALOG)), CATALOG).validation
    # ... but a validation nan printed before the training loss broke is (review_session27_commits item 19)
    first = keyed.replace("val_loss=0.70", "val_loss=nan").replace("train_loss=0.53", "train_loss=nan")
    assert "(line 1)" in diagnose(scan(io.BytesIO(first.encode()), "v", message_finder(CATALOG)), CATALOG).validation


def test_healthy_report_says_what_was_checked():
    out = report_of("-", stdin=tab_output("WR-220", "fix").encode())
    assert "No known failure found. 7 loss values, all finite: the loss fell from 0.6865 to 0.1856" in out
    assert "Checked: non-finite loss values, a sustained climb, an enormous first value" in out
    # seven values are too few to judge a plateau or a stall: the report does not say it checked them
    assert "too few values to judge a plateau or a stall (10 are needed)" in out and "a plateau, a stall" not in out
    zero = "".join(f"epoch {i} loss {max(0.0, 0.9 - 0.1 * i):.4f}\n" for i in range(12))
    assert "a loss that reaches 0 or below is not judged for a plateau or a stall" in \
        report_of("-", stdin=zero.encode())
    longer = "".join(f"epoch {i} loss {0.9 * 0.8 ** i:.4f}\n" for i in range(12))
    assert "a plateau, a stall, and the known warning messages" in report_of("-", stdin=longer.encode())


def test_memory_stays_bounded_on_a_large_log(tmp_path):
    """A 20 MB and an 80 MB log (read by one process, then by one per core) need about the same memory:
    the scan is a stream. Holding the larger file would take 60 MB more, twice the margin allowed."""
    line = b"32/32 [====] - 0s 2ms/step - loss: 0.6931 - accuracy: 0.5000 - val_loss: 0.6931\n"
    small, large = tmp_path / "small.log", tmp_path / "large.log"
    block = line * (1 << 14)
    with small.open("wb") as f:
        for _ in range((20 << 20) // len(block)):
            f.write(block)
    with large.open("wb") as f:
        for _ in range((80 << 20) // len(block)):
            f.write(block)
    probe = ("import resource, subprocess, sys; subprocess.run([sys.executable, '-m', 'trainwreck', 'diagnose', "
             "sys.argv[1]], stdout=subprocess.DEVNULL, check=True); "
             "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)")
    rss = [int(subprocess.run([sys.executable, "-c", probe, str(p)], cwd=ROOT, capture_output=True,
                              text=True, check=True).stdout) for p in (small, large)]
    assert rss[1] < rss[0] + 30_000, rss       # kB: no growth with the file
    assert rss[1] < 250_000, rss


@pytest.mark.parametrize("shape", ["key", "csv", "column"])
@pytest.mark.parametrize("where", ["early", "late", "none"])
def test_parallel_scan_equals_the_sequential_one(tmp_path, monkeypatch, shape, where):
    """A large file is split between processes; the merged evidence must be identical."""
    import trainwreck.logscan.reader as logscan
    monkeypatch.setattr(logscan, "PARALLEL_MIN", 0)
    monkeypatch.setattr(logscan, "CHUNK", 4096)
    rng = np.random.default_rng(1)
    values = list(0.7 * np.exp(-np.arange(3000) / 900) + 0.01 * rng.random(3000))
    if where != "none":
        at = 400 if where == "early" else 2600
        values[at - 4:at] = [values[at - 5] * 1.6 ** k for k in range(1, 5)]
        values[at:at + 3] = [math.inf, math.nan, 0.5]
    lines = {"key": [f"epoch {i} loss: {v} grad_norm: {v * 2} clip_at 100" for i, v in enumerate(values)],
             # (with an accuracy column and a gradient norm column, read from the header only the first stretch
             # holds: code_review_s70b 9, s70c 8)
             # (its largest norm late, in a stretch that is not the first)
             "csv": ["max_grad_norm: 100", "epoch,loss,accuracy,grad_norm"]
             + [f"{i},{v},{0.5 + i / 10000},{v * 2 + (50 if i == 2000 else 0)}" for i, v in enumerate(values)],
             "column": [f"{v}" for v in values]}[shape]
    lines.insert(1500, "RuntimeWarning: overflow encountered in exp")
    lines.insert(10, "RuntimeWarning: overflow encountered in exp")
    path = tmp_path / "run.log"
    path.write_text("\n".join(lines) + "\n")
    sequential = scan(path.open("rb"), str(path))
    import concurrent.futures

    stretches = []

    class Counted(concurrent.futures.ProcessPoolExecutor):
        def map(self, fn, *columns, **kwargs):
            stretches.append((self._max_workers, len(columns[0])))
            return super().map(fn, *columns, **kwargs)

    monkeypatch.setattr(concurrent.futures, "ProcessPoolExecutor", Counted)
    for workers in (1, 2, 3):
        # (what the caller needs next is made while the workers read, once, in one process or several)
        calls = []
        parallel = logscan.scan_path(str(path), workers=workers, meanwhile=lambda: calls.append(os.getpid()))
        assert repr(vars(parallel)) == repr(vars(sequential)), workers     # repr: nan == nan
        assert calls == [os.getpid()], workers
    # (each process reads several stretches, the next one free taking the next: none waits on a slow one)
    assert stretches == [(2, 2 * logscan.STRETCHES_PER_WORKER), (3, 3 * logscan.STRETCHES_PER_WORKER)]
    assert logscan.STRETCHES_PER_WORKER > 1
    assert sequential.count == 3000
    assert sequential.messages == {"overflow encountered in exp": [2, 11, "overflow encountered in exp", "numpy"]}


@pytest.mark.parametrize("clip, expected", [(100, "climb-despite-clipping"), (2, "climb-then-nonfinite")])
def test_clipping_evidence_only_when_the_threshold_was_never_reached(clip, expected):
    losses, norms = [0.7, 0.9, 1.6, 3.1, 7.0, math.inf], [1.0, 1.2, 2.5, 4.0, 9.0, math.nan]
    log = "".join(f"epoch {i} loss {v} grad_norm {g} clip_at {clip}\n" for i, (v, g) in enumerate(zip(losses, norms)))
    d = diagnosis_of(log)
    assert d.signature.name == expected
    if expected == "climb-despite-clipping":
        assert d.matches[0].entry.id == "WR-240"
        assert "gradient clipping at 100 never engaged: the largest gradient norm before the blow-up was 9" \
            in d.matches[0].evidence
    else:
        assert d.matches[0].entry.id == "WR-220"


def test_a_gradient_norm_printed_as_its_own_notation_is_read_beside_a_clip_set_in_the_code():
    """`|g| 16.44` is the gradient norm written as it is written on paper, and `def clip(grads, max_norm=100.0)` sets
    the threshold (review_session41b i18): a threshold the norms never reached is WR-240's evidence, named."""
    code = "def clip(grads, max_norm=100.0):\n    total = np.sqrt(sum((g ** 2).sum() for g in grads))\n"
    rows = [("0.6931", "0.381"), ("1.1480", "2.094"), ("2.6022", "6.551"), ("7.1309", "11.87"), ("19.876", "15.02"),
            ("53.114", "16.44"), ("inf", "nan"), ("nan", "nan")]
    log = "".join(f"epoch {e}  loss {v}  |g| {g}\n" for e, (v, g) in enumerate(rows))
    d = diagnosis_of(code + log)
    assert d.matches[0].entry.id == "WR-240"
    assert "gradient clipping at 100 never engaged: the largest gradient norm before the blow-up was 16.44" \
        in d.matches[0].evidence


def test_loss_keys_with_different_lead_ins_are_all_found():
    """The fast pattern (no val_loss mask) is used only when it finds the same values."""
    log = "step 1 - loss: 0.9 - val_loss: 5.0\nloss: 0.8 val_loss: 5.0\nstep 3 - loss: 0.7 - val_loss: 5.0\n"
    ev = scan(io.BytesIO(log.encode()), "log")
    assert ev.head == [0.9, 0.8, 0.7]
    keras = "1/1 - loss: 0.9 - val_loss: 5.0\n1/1 - loss: 0.8 - val_loss: 5.0\n"
    assert scan(io.BytesIO(keras.encode()), "log").head == [0.9, 0.8]


def test_a_climb_not_yet_non_finite_points_at_wr220():
    """No nan yet, no message: the curve alone is evidence, and it is caught early."""
    d = diagnosis_of("".join(f"epoch {i} loss {v}\n" for i, v in enumerate([0.7, 0.6, 0.5, 0.9, 1.6, 3.0])))
    assert d.signature.name == "climbing"
    assert d.signature.climb_warning == 5          # 0.5 -> 0.9 -> 1.6 -> 3.0: x6 since the climb began
    assert d.matches[0].entry.id == "WR-220"
    assert "the loss has risen 3 times in a row" in d.matches[0].evidence[0]


def test_a_key_ending_in_a_training_key_is_still_masked():
    """`pretrain_loss` is another loss even after `train_loss` has been seen."""
    log = "".join(f"epoch {i} train_loss: {0.7 - i / 100:.2f} pretrain_loss: 5.0\n" for i in range(5))
    ev = scan(io.BytesIO(log.encode()), "log")
    assert ev.head == [0.7, 0.69, 0.68, 0.67, 0.66]


def test_an_old_alarm_does_not_make_a_small_final_rise_a_climb():
    """The bump at epoch 4 set the watch off and passed; the last two small rises are not that climb."""
    d = diagnosis_of("".join(f"epoch {i} loss {v}\n" for i, v in enumerate([0.7, 0.6, 0.3, 0.95, 0.3, 0.25, 0.26,
                                                                             0.27], start=1)))
    assert d.signature.name == "healthy"
    assert d.signature.climb_warning_at == "epoch 4"
    assert d.verdict == "healthy"


@pytest.mark.parametrize("setting", ["SGD(learning_rate=4.0, clipnorm=50.0)", "SGD(learning_rate=4.0, global_clipnorm=50)",
                                     "optax.chain(optax.clip_by_global_norm(50.0), optax.sgd(4.0))",
                                     "Trainer(gradient_clip_val=50.0)", "TrainingArguments(max_grad_norm=50.0)",
                                     "torch.nn.utils.clip_grad_norm_(model.parameters(), 50.0)",
                                     "I clip the gradient norm at 50.",
                                     # the command-line flags that set it (review_session36_final f23)
                                     "python main.py --lr 20 --clip 50 --epochs 40", "fairseq-train --clip-norm 50.0",
                                     "python train.py --model resnet50 --clip-grad=50", "--max-grad-norm 50"])
def test_the_clipping_threshold_is_read_as_each_tool_spells_it(setting):
    """review_session30_broad c16: Keras's clipnorm=50.0 beside printed norms that never reached 50 was WR-220 alone;
    only PyTorch's max_norm= was read. Keras's clipnorm clips each variable's norm, which is never above the global
    norm the log prints, so a printed global norm below the threshold means it never clipped either."""
    losses, norms = [0.7, 0.9, 1.6, 3.1, 7.0, math.inf], [1.0, 1.2, 2.5, 4.0, 9.0, math.nan]
    log = "".join(f"step {i} loss {v} grad_norm {g}\n" for i, (v, g) in enumerate(zip(losses, norms)))
    d = diagnosis_of(setting + "\n" + log)
    assert d.signature.name == "climb-despite-clipping" and d.matches[0].entry.id == "WR-240"
    assert "gradient clipping at 50 never engaged: the largest gradient norm before the blow-up was 9" \
        in d.matches[0].evidence
    assert diagnosis_of("SGD(learning_rate=4.0, clipvalue=50.0)\n" + log).signature.name == "climb-then-nonfinite"
    # (a flag of another name that holds the word is not the threshold)
    assert diagnosis_of("--clip-mode value --clip_value 50\n" + log).signature.name == "climb-then-nonfinite"


def test_a_validation_nan_said_in_a_sentence_is_placed_where_the_log_printed_it():
    """A report's first sentence that quotes the log ("Loss is 0.0 ... grad_norm is nan, eval_loss nan") is no
    line the run printed: the validation nan is placed where the Trainer printed it, after the training loss broke,
    and is then no separate question (review_session41 i26 had said "nan at line 1")."""
    said = ("mt5 fine-tune on a T4 with fp16. Loss is 0.0 from the first log line and grad_norm is nan, eval_loss nan. "
            "It trained fine in bf16 on an A100 and nothing else changed.\n")
    log = "".join(f"{{'loss': 0.0, 'grad_norm': nan, 'learning_rate': 0.0003, 'epoch': {e / 100}}}\n"
                  for e in range(4, 36, 4))
    log += "{'eval_loss': nan, 'eval_runtime': 212.88, 'epoch': 0.32}\n"
    assert diagnosis_of(said + log).validation == ""
    # ... and where the sentence is all the report has, it still says where the words put it
    assert diagnosis_of("loss 0.41\nloss 0.39\nloss 0.37\n" + said).validation.startswith(
        "the validation loss was nan at line 4")


def test_the_words_of_a_large_file_keep_each_line_shape_twice(tmp_path, monkeypatch):
    """The start of a large log file is read for its words with each line shape (its numbers aside) kept at most
    twice: what it says is kept, in order, and the thousands of lines that repeat it are searched once or twice,
    not each time (bench/diagnose_speed.py). Its loss values are the whole file's all the same."""
    import trainwreck.logscan.reader as reader
    from trainwreck.logscan.cleaning import repeats_collapsed

    text = "Epoch 1/3\n1/1 - loss: 0.7\nEpoch 2/3\n1/1 - loss: 0.6\nEpoch 3/3\n1/1 - loss: 0.5\nlr was 0.1"
    assert repeats_collapsed(text) == "Epoch 1/3\n1/1 - loss: 0.7\nEpoch 2/3\n1/1 - loss: 0.6\nlr was 0.1"
    log = tmp_path / "run.log"
    log.write_text("Training with Adam, lr 1e-3 (my own notes)\n"
                   + "".join(f"Epoch {e}/400\n32/32 - 0s - loss: {0.7 - e / 1000:.4f}\n" for e in range(1, 401)))
    small = reader.scan_path(str(log))
    monkeypatch.setattr(reader, "LARGE_FILE", 0)
    large = reader.scan_path(str(log))
    assert large.count == small.count == 400 and large.last == small.last
    assert large.prose.startswith("Training with Adam, lr 1e-3 (my own notes)\nEpoch 1/400\n")
    assert large.prose.count("\n") == 5 < small.prose.count("\n")      # (the empty last line is a shape too)
