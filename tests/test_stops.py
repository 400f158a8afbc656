"""The checks that stop a run at a non-finite loss print a message instead of the loss: the message is
read as the loss's last value (trainwreck/logscan/stops.py), and only when the values do not already
show it. Sample logs of whole runs are in tests/logs/keyed/ and tests/logs/lightning/."""
import math

import pytest

from conftest import real_catalog
from trainwreck.diagnose import diagnose, message_finder, signature_of, weigher
from trainwreck.diagnose_report import report
from trainwreck.logscan import scan_text
from trainwreck.logscan.stops import STOPS, stop_of, with_stop

CATALOG = real_catalog()


def read(text: str):
    return scan_text(text, "log", finder=message_finder(CATALOG))


EACH_CHECK = [
    ("FloatingPointError: Loss became infinite or NaN at iteration=87!", "Detectron2", math.nan, "inf or nan",
     "iteration 87"),
    ("Loss is inf, stopping training", "torchvision", math.inf, "inf", None),
    ("Loss is nan, stopping training", "torchvision", math.nan, "nan", None),
    ("2023-01-05 10:11:12,123 - mmdet - INFO - loss become infinite or NaN!", "MMDetection", math.nan,
     "inf or nan", None),
    ("ERROR:tensorflow:Model diverged with loss = NaN.", "NanTensorHook", math.nan, "nan", None),
    ("Monitored metric train_loss_epoch = nan is not finite. Previous best value was 0.412. Signaling Trainer to "
     "stop.", "EarlyStopping", math.nan, "nan", None),
    ("Batch 3: Invalid loss, terminating training", "TerminateOnNaN", math.nan, "inf or nan", "batch 3"),
    ("Invalid nan value encountered in the output of a jax.jit function. Calling the de-optimized version.",
     "JAX's debug_nans", math.nan, "nan or inf", None),
    ("Invalid nan value encountered in the output of a C++-jit/pmap function. Calling the de-optimized version.",
     "JAX 0.4's C++ jit", math.nan, "nan or inf", None),
    ("RuntimeError: NaN or Inf loss encountered at batch 5. Loss value: inf. Terminating training immediately.",
     "raise_error=True", math.inf, "inf", "batch 5"),
    ("FloatingPointError: gradients are Nan/Inf", "fairseq", math.nan, "inf or nan", None),
    ("FloatingPointError: Minimum loss scale reached (0.0001). Your loss is probably exploding. Try lowering the "
     "learning rate, using gradient clipping or increasing the batch size.", "fairseq's loss scaler", math.nan,
     "inf or nan", None),
    ("Exception: Current loss scale already at minimum - cannot decrease scale anymore. Exiting run.",
     "DeepSpeed's loss scaler", math.nan, "inf or nan", None),
]


@pytest.mark.parametrize("message, who, value, kind, step", EACH_CHECK)
def test_each_check_is_read_as_the_last_value_with_the_kind_and_step_it_prints(message, who, value, kind, step):
    log = "epoch 1 loss: 0.91\nepoch 2 loss: 0.74\nepoch 3 loss: 0.70\n" + message + "\n"
    ev = with_stop(read(log))
    stop, m = stop_of(message)
    assert who in stop.who
    assert ev.count == 4 and ev.first_nonfinite == 3 and ev.finite_after == 0
    assert (math.isnan(ev.first_nonfinite_value) and math.isnan(value)) or ev.first_nonfinite_value == value
    assert ev.hidden_kind == kind and ev.first_nonfinite_at.line == 4 and ev.first_nonfinite_at.step == step
    facts = " ".join(signature_of(ev).facts)
    assert f"first {kind} at" in facts and f"printed `{m.group(0).decode()}` (" in facts
    assert "the steps between the last loss printed and this one were not printed" in facts


def test_a_log_whose_values_already_show_the_nan_is_left_as_it_is():
    log = "Epoch 1/2\n1/1 - loss: 0.7\nEpoch 2/2\nBatch 0: Invalid loss, terminating training\n1/1 - loss: nan\n"
    ev = read(log)
    assert with_stop(ev) is ev and ev.count == 2 and ev.where(ev.first_nonfinite) == "epoch 2/2"


def test_a_check_whose_value_the_scanner_reads_is_read_once():
    message = "Monitored metric train_loss = nan is not finite. Previous best value was 0.412. Signaling Trainer to stop."
    ev = read(f"epoch 1 loss: 0.91\nepoch 2 loss: 0.74\n{message}\n")
    assert ev.count == 3 and ev.first_nonfinite == 2 and with_stop(ev) is ev


def test_a_check_printed_before_the_last_value_is_not_a_value():
    ev = read("loss: 0.9\nLoss is nan, stopping training\nloss: 0.8\nloss: 0.7\n")
    assert with_stop(ev) is ev


def test_a_loggers_last_flush_at_the_stopped_step_does_not_hide_the_stop():
    """Detectron2's writer prints its window once more after the traceback, at the iteration that stopped
    (review_session27_logs W7): the stop is still the run's last value. A run that goes on past the step the
    check named, or more than a line or two after it, is another matter."""
    lines = "".join(f"[05/21 09:14:{i:02d} d2.utils.events]:  iter: {it}  total_loss: {v}  lr: 0.002\n"
                    for i, (it, v) in enumerate([(19, "2.461"), (39, "1.704"), (59, "1.812"), (79, "2.337"),
                                                 (99, "4.108"), (119, "11.93")]))
    stop = "FloatingPointError: Loss became infinite or NaN at iteration=126!\n"
    flush = "[05/21 09:15:11 d2.utils.events]:  iter: 126  total_loss: 11.93  lr: 0.002\n"
    d = diagnose(read(lines + stop + flush), CATALOG)
    assert d.evidence.count == 7 and str(d.evidence.first_nonfinite_at) == "iteration 126"
    assert d.signature.name == "climb-then-nonfinite" and "no nan or inf to stop it" not in " ".join(d.signature.facts)
    # the step a flush prints is its count, not its total (`iter: 126/1000` is iteration 126)
    with_total = diagnose(read(lines + stop + flush.replace("iter: 126", "iter: 126/1000")), CATALOG)
    assert str(with_total.evidence.first_nonfinite_at) == "iteration 126"
    went_on = flush.replace("iter: 126", "iter: 139")
    assert with_stop(read(lines + stop + went_on)).first_nonfinite is None
    assert with_stop(read(lines + stop + flush * 3)).first_nonfinite is None


def test_an_early_stopping_check_on_a_validation_metric_is_not_a_training_value():
    message = ("Monitored metric val_loss = nan is not finite. Previous best value was 0.642. "
               "Signaling Trainer to stop.")
    ev = read(f"loss: 0.9\nloss: 0.8\nloss: 0.7\n{message}\n")
    assert with_stop(ev) is ev
    assert ("comes from Lightning's EarlyStopping, a check that stops the run when the metric it watches (`val_loss`) "
            "is not finite") in " ".join(diagnose(ev, CATALOG).unweighed)


def test_a_batch_of_terminate_on_nan_is_placed_in_the_epoch_the_log_was_in():
    log = "Epoch 1/3\n32/32 - loss: 0.7\nEpoch 2/3\n32/32 - loss: 0.6\nEpoch 3/3\nBatch 7: Invalid loss, terminating training\n"
    ev = with_stop(read(log))
    assert str(ev.first_nonfinite_at) == "epoch 3/3, batch 7"


def test_the_check_alone_at_iteration_0_is_a_loss_broken_from_the_start():
    """Detectron2 checks the loss of iteration 0 before the first update: no step size is to blame yet."""
    d = diagnose(read("Traceback (most recent call last):\n"
                      "FloatingPointError: Loss became infinite or NaN at iteration=0!\n"
                      "loss_dict = {'loss_cls': nan, 'loss_box_reg': nan}\n"), CATALOG)
    assert d.signature.name == "nonfinite-from-start"
    assert "first inf or nan at iteration 0" in d.signature.facts[0]
    told = weigher(CATALOG).told_when       # a candidate breaks from the first value, or its Symptom says it can
    assert d.matches and d.matches[0].entry.trace == "nonfinite-from-start"
    assert all(m.entry.trace == "nonfinite-from-start" or "start" in told[m.entry.id] for m in d.matches)
    assert not any(m.entry.id == "WR-220" for m in d.matches)
    assert not d.unweighed              # read as a value, not listed again as a message no entry declares


def test_a_check_alone_later_in_a_run_is_said_to_have_been_read_as_the_loss():
    """One value is no curve, so no entry's evidence carries the reading: the report says it once, above
    the candidates, rather than leave the reader to wonder where the nan came from."""
    d = diagnose(read("my run stopped:\nFloatingPointError: Loss became infinite or NaN at iteration=460!\n"), CATALOG)
    text = report(d)
    assert d.verdict == "uncertain" and d.signature.name == "few-values"
    assert not any(d.evidence.hidden_note in m.evidence for m in d.matches)
    assert text.count("Read: Detectron2's trainer printed `Loss became infinite or NaN at iteration=460!` "
                      "(iteration 460, line 2)") == 1


def test_every_checks_anchor_is_in_its_pattern_and_it_names_its_source():
    tried = {stop_of(case[0])[0].who for case in EACH_CHECK}
    for stop in STOPS:
        assert stop.who in tried            # the test above reads each check's message in a log
        assert stop.anchor in stop.pattern.pattern.replace(b"\\", b"")
        assert stop.source.startswith("https://github.com/") and ("/blob/v" in stop.source or "/blob/2." in stop.source
                                                                  or "/blob/jax-v" in stop.source
                                                                  or len(stop.source.split("/blob/")[1].split("/")[0]) == 40)


def test_a_second_run_stopped_by_the_same_check_is_read_at_its_last_appearance():
    run = "".join(f"Epoch: [0]  [{i:4d}/1250]  loss: {v} ({v})\n" for i, v in ((0, 1.5), (20, 1.4), (40, 1.3)))
    ev = with_stop(read(run + "Loss is nan, stopping training\n" + run + "Loss is nan, stopping training\n"))
    assert ev.count == 7 and ev.first_nonfinite == 6 and ev.first_nonfinite_at.line == 8


@pytest.mark.parametrize("message", ["Loss is nan, stopping training", "Batch 3: Invalid loss, terminating training",
                                     "Model diverged with loss = NaN.", "loss become infinite or NaN!",
                                     "Loss became infinite or NaN at iteration=87!"])
def test_a_check_quoted_in_a_sentence_is_the_reporters_words(message):
    """Keras's message is one eight entries declare: it must not be matched as their message before the stop
    family's quote guard sees it."""
    ev = read(f'loss: 0.9\nloss: 0.8\nloss: 0.7\nI never see "{message}", it just stays flat.\n')
    assert not ev.messages and with_stop(ev) is ev and diagnose(ev, CATALOG).verdict == "healthy"


@pytest.mark.parametrize("text", ["FloatingPointError: Loss became infinite or NaN at iteration=1!",
                                  "Batch 0: Invalid loss, terminating training"])
def test_a_step_past_0_or_a_batch_in_an_unknown_epoch_is_not_the_runs_start(text):
    """Detectron2 counts iterations from 0 (iteration 1 follows one update); Keras counts batches from 0 in
    every epoch."""
    d = diagnose(read(text + "\n"), CATALOG)
    assert d.signature.name == "few-values"
    assert not any("from the first values" in e for m in d.matches for e in m.evidence)


def test_the_checks_words_are_not_counted_as_the_reporters():
    """Neither the check's words nor the exception it raises ("FloatingPointError", no float overflow) are
    matched against the entries; the step it names is the run's, and says when (iteration 87: after
    training had run), quoted as the log numbers it."""
    d = diagnose(read("FloatingPointError: Loss became infinite or NaN at iteration=87!\n"), CATALOG)
    evidence = [e for m in d.matches for e in m.evidence]
    assert "Float" not in d.evidence.prose and "became" not in d.evidence.prose
    assert not any("words match" in e for e in evidence)
    assert d.matches[0].entry.id == "WR-220"
    assert ("it showed at iteration 87 (the step the check named), after training for a while, as this failure does"
            in d.matches[0].evidence)
    assert not any("it showed" in e for m in diagnose(read("Loss is nan, stopping training\n"), CATALOG).matches
                   for e in m.evidence)                  # a check that names no step says nothing of when


def test_terminate_on_nan_is_read_as_a_value_and_weighed_for_no_entry():
    log = "Epoch 1/2\n32/32 - loss: 0.7\nEpoch 2/2\n32/32 - loss: 0.6\nBatch 7: Invalid loss, terminating training\n"
    d = diagnose(read(log), CATALOG)
    assert d.evidence.count == 3 and str(d.evidence.first_nonfinite_at) == "epoch 2/2, batch 7"
    assert all("messages" not in m.parts for m in d.matches)
    assert "Invalid loss" not in d.ask and not d.unweighed


def test_the_lines_that_come_with_a_checks_stop_are_listed_with_it():
    """TensorFlow raises NanLossDuringTrainingError after NanTensorHook's message; MMDetection's hook raises an
    AssertionError with no message. Neither is an undeclared message of its own."""
    d = diagnose(read("loss = 2.3, step = 0\nloss = 1.2, step = 100\nloss = 0.9, step = 200\n"
                      "ERROR:tensorflow:Model diverged with loss = NaN.\n"
                      "tensorflow.python.training.basic_session_run_hooks.NanLossDuringTrainingError: "
                      "NaN loss during training.\n"), CATALOG)
    assert d.unweighed == ['message "NaN loss during training." (line 5) comes with that check\'s stop: it names no cause']
    # without the stop above it, the same line is a message no entry declares
    alone = diagnose(read("loss = 2.3, step = 0\nloss = 1.2, step = 100\n"
                          "tensorflow.python.training.basic_session_run_hooks.NanLossDuringTrainingError: "
                          "NaN loss during training.\n"), CATALOG)
    assert alone.unweighed == ['message "NaN loss during training." (line 3) is not declared by any entry']


def test_a_log_read_in_two_halves_reads_the_stop_at_its_last_appearance_in_the_second():
    from trainwreck.logscan.evidence import merge

    run = "".join(f"Epoch: [0]  [{i:4d}/1250]  loss: {v} ({v})\n" for i, v in ((0, 1.5), (20, 1.4), (40, 1.3)))
    a, b = read(run + "Loss is nan, stopping training\n"), read(run + "Loss is nan, stopping training\n")
    whole = with_stop(merge(a, b))
    assert whole.count == 7 and whole.first_nonfinite == 6 and whole.first_nonfinite_at.line == 8



@pytest.mark.parametrize("message, said", [
    ("FloatingPointError: Loss became infinite or NaN at iteration=1!", "right after the first updates"),
    ("FloatingPointError: Loss became infinite or NaN at iteration=460!", "after training for a while"),
])
def test_the_step_a_check_names_says_how_far_the_run_had_got(message, said):
    """Its steps count from 0: iteration 1 is right after the first update, not after a while."""
    d = diagnose(read(message + "\n"), CATALOG)
    assert any(f"(the step the check named), {said}" in e for m in d.matches for e in m.evidence)


def test_a_batch_in_an_epoch_the_log_does_not_name_says_nothing_of_when():
    d = diagnose(read("Batch 3: Invalid loss, terminating training\n"), CATALOG)
    assert not any("the step the check named" in e for m in d.matches for e in m.evidence)


def test_jax_prints_its_nan_line_for_an_inf_too_and_the_error_after_it_says_which():
    """review_session30_broad c24: under jax_debug_infs JAX prints the same "Invalid nan value encountered ..." line
    (api_util.py at jax-v0.10.2: one check for both), and the report said the run stopped "at a loss that was nan"
    beside `FloatingPointError: invalid value (inf) encountered in exp`."""
    line = "Invalid nan value encountered in the output of a jax.jit function. Calling the de-optimized version.\n"
    log = "step 0 loss: 0.91\nstep 1 loss: 0.74\nstep 2 loss: 0.70\n" + line
    assert with_stop(read(log)).hidden_kind == "nan or inf"
    for raised, kind in (("inf", "inf"), ("nan", "nan")):
        ev = with_stop(read(log + f"FloatingPointError: invalid value ({raised}) encountered in exp\n"))
        assert ev.hidden_kind == kind and f"first {kind} at" in " ".join(signature_of(ev).facts)
