"""The signals diagnose reads from a report beyond its loss curve: each one changes the verdict on a
realistic report, and stays quiet on a nearby one where it must not fire."""
import io
import math
import re

import numpy as np
import pytest

from conftest import context_of, diagnosis, real_catalog, ROOT, weighed, weighed_parts
from trainwreck.diagnose import diagnose, message_finder
from trainwreck.diagnose_report import report
from trainwreck.logscan import scan
from trainwreck.rate_tried import lr_tried, rate_zero_failed
from trainwreck.thesaurus import tokens, when
from trainwreck.weight_init import LARGE_INIT

CATALOG = real_catalog()


def first(text: str) -> str:
    return diagnosis(text).matches[0].entry.id


# ---- a lower learning rate, already tried --------------------------------------------------

NAN_LATER = "The loss becomes nan after 3 epochs. "


def test_a_lower_rate_that_did_not_help_counts_against_the_rate():
    d = diagnosis(NAN_LATER + "I tried lowering the learning rate to 1e-5 but it still goes nan.")
    assert lr_tried(d.evidence.prose) == "failed"
    for rate in (m for m in d.matches if m.entry.id == "WR-220"):     # if it is still a candidate at all
        assert rate.parts["tried"] < 0 and "the report says a lower learning rate did not help" in rate.against
    assert d.matches[0].entry.id != "WR-220"
    assert d.matches[0].entry.trace == "descent-then-nonfinite" and d.matches[0].parts["prior"] > 0


def test_a_rate_that_is_only_named_is_not_a_remedy_tried():
    text = NAN_LATER + "I train with Adam at a learning rate of 1e-3."
    assert lr_tried(text) == ""
    d = diagnosis(text)
    assert d.matches[0].entry.id == "WR-220" and "tried" not in d.matches[0].parts


def test_a_lower_rate_that_helped_counts_for_the_rate():
    text = NAN_LATER + "Lowering the learning rate fixed it, but why?"
    assert lr_tried(text) == "helped"
    assert diagnosis(text).matches[0].parts["tried"] > 0


def test_two_rates_the_report_compares_say_whether_a_lower_one_helped():
    """"nan after 2 epochs with lr 0.1. With lr 0.01 it trains fine" is a lower rate that helped (it was unread, and
    WR-310 came first: review_session29_broad item 03); a rate with a decimal point no longer ends the sentence
    ("lowering the learning rate to 0.001 fixes it"); a lower rate that broke beside a higher that ran is no help."""
    text = "The loss becomes nan after 2 epochs with lr 0.1. With lr 0.01 it trains fine, just slower."
    assert lr_tried(text) == "helped" and first(text) == "WR-220"
    assert lr_tried("with lr=1e-4 it works but lr=1e-3 gives nan") == "helped"
    assert lr_tried("lowering the learning rate to 0.001 fixes it") == "helped"
    assert lr_tried("lr 0.01 works. lr 0.001 is nan too") == "failed"
    for one in ("I use lr 0.01 and it works fine for 3 epochs then nan", "lr 0.1 and the loss is nan"):
        assert lr_tried(one) == "", one


def test_the_rate_said_not_to_matter_before_it_is_named_and_rates_straight_after_an_optimizers_name():
    """(s39b i13, after WR-320's new phrases had moved it) "nan at exactly the same batch every run, no matter the
    learning rate" is a rate that did not help, at the same place, though the rate comes after "no matter"; so is "I
    tried Adam 1e-4 and 1e-5, SGD ...: always the same spot" (a rate straight after the optimizer's name; "always the
    same" is folded to "stuck"). A question about it, or a rate that worked, is not."""
    from trainwreck.rate_tried import lr_tried_same_place

    for said in ("loss goes nan at exactly the same batch every run, no matter the learning rate",
                 "I tried Adam 1e-4 and 1e-5, SGD, a smaller network: always the same spot in the data."):
        assert lr_tried(said) == "failed" and lr_tried_same_place(said), said
    for said in ("whatever the lr, it is nan at epoch 3", "regardless of the learning rate it diverges"):
        assert lr_tried(said) == "failed" and not lr_tried_same_place(said), said
    for said in ("does it train no matter the learning rate?", "I tried SGD 0.01 and it works fine",
                 "I use Adam 1e-4 and the loss is nan at the same batch"):
        assert lr_tried(said) == "", said
    text = ("Keras: loss goes nan at exactly the same batch every run, no matter the learning rate\n\n"
            "A regression on 35k rows of sensor data, MinMaxScaler on X and y, two Dense(64, relu) layers, Adam, "
            "shuffle=False (a time series), TerminateOnNaN.\n\n"
            " 612/1094 [===============>..............] - ETA: 1s - loss: nan - mae: nanBatch 611: Invalid loss, "
            "terminating training\n"
            " 612/1094 [===============>..............] - 3s 2ms/step - loss: nan - mae: nan\n\n"
            "It's always batch 611. I tried Adam 1e-4 and 1e-5, SGD, batch_size 64 (then it's batch 305): always the "
            "same spot in the data.\n")
    d = diagnosis(text)
    bad_batch = d.matches[0]
    assert bad_batch.entry.id == "WR-310" and bad_batch.parts["tried"] == 1.0
    assert ("the report says a lower learning rate broke at the same place: this failure does not move with the rate"
            in bad_batch.evidence)


def test_a_lower_rate_that_only_put_the_failure_off_is_gradient_accumulations_tell():
    """"Lowering lr to 0.001 only makes it blow up a bit later": WR-260's own phrase (a lower rate only delays it),
    and against a rate too high, which a lower one cures (review_session29_broad item 20: it read as nothing, the
    rate's decimal point ending the sentence)."""
    for said in ("Lowering lr to 0.001 only makes it blow up a bit later (around iter 400).",
                 "a lower learning rate just delays the nan", "with a smaller lr it takes longer to explode"):
        assert lr_tried(said) == "delayed", said
    assert lr_tried("I tried lowering the learning rate to 0.0001 but it still goes nan.") == "failed"
    loop = "for x, y in loader:\n    loss = criterion(model(x), y)\n    loss.backward()\n    optimizer.step()\n"
    curve = "".join(f"epoch 0 iter {20 * k} loss {v}\n" for k, v in enumerate(
        ["2.3094", "1.7712", "1.2290", "2.9405", "7.1881", "21.6603", "18.0147", "64.9930", "233.5127", "nan"]))
    d = diagnosis(loop + curve + "Lowering lr to 0.001 only makes it blow up a bit later (around iter 400).\n")
    piles, rate = (next(m for m in d.matches if m.entry.id == i) for i in ("WR-260", "WR-220"))
    assert piles.parts["tried"] == 1.0 and rate.parts["tried"] == -1.0
    assert [m.entry.id for m in d.matches[:2]] in (["WR-220", "WR-260"], ["WR-260", "WR-220"])


def test_a_suspect_ranked_on_what_little_is_said_says_why():
    """The prior is the whole case for a candidate when a report says only that the loss went nan: the
    report must say that it is a suspect, of which rank, and what it assumed about when."""
    d = diagnosis("my loss became nan")
    assert d.matches[0].entry.id == "WR-220"
    assert d.matches[0].evidence == ["on timing alone, the first suspect for a loss that turned nan or inf after training had run (the "
                                     "report does not say when, so a run that trained at all is assumed)"]
    assert all(m.evidence[-1].startswith("on timing alone, a second suspect for a loss that turned nan or inf after training had run")
               for m in d.matches[1:])
    tried = diagnosis(NAN_LATER + "I tried lowering the learning rate to 1e-5 but it still goes nan.").matches[0]
    assert ("a lower learning rate did not help: with the step size ruled out, a first suspect for a loss that "
            "turned nan or inf after training had run") in tried.evidence
    climbed = diagnosis("the loss keeps increasing").matches[0]
    assert climbed.entry.id == "WR-220" and climbed.evidence[-1].startswith("on timing alone, the first suspect for a loss that climbed")
    half = [m for m in diagnosis("the loss is nan from the first step with fp16").matches if m.entry.id == "WR-040"]
    assert "the report names half precision, and this entry is the one about it" in half[0].evidence


# ---- a loss below zero that the loss function cannot reach -----------------------------------

NEGATIVE_VALUES = "epoch 1 loss 0.41\nepoch 2 loss -0.37\nepoch 3 loss -1.92\nepoch 4 loss -4.05\n"


def test_a_negative_bce_loss_is_a_failure_of_the_targets():
    d = diagnosis("I train a U-Net with BCEWithLogitsLoss on my masks and the loss goes negative:\n" + NEGATIVE_VALUES)
    assert d.verdict == "failure" and not d.normal
    assert d.matches[0].entry.id == "WR-320"
    assert any("cannot with valid targets" in fact for fact in d.matches[0].evidence)


def test_a_dice_score_above_one_is_a_failure_of_the_targets():
    d = diagnosis("Validation Dice Coeff: 1.9720964431762695\nWhy is my dice above one?")
    assert d.matches[0].entry.id == "WR-320"
    assert "negative" in d.matches[0].parts


def test_a_negative_likelihood_of_continuous_data_stays_normal():
    d = diagnosis("I train a normalizing flow and the negative log-likelihood goes below zero:\n" + NEGATIVE_VALUES)
    assert d.verdict == "normal" and d.normal[0].name == "negative loss"
    assert not d.matches


# ---- a batch of one ---------------------------------------------------------------------------

def test_a_batch_of_one_points_at_normalising_by_zero():
    assert "batchone" in tokens("batch_size=1") and "batchone" in tokens("one sample per batch")
    assert first("The loss is nan from the first step when I train with a batch size of 1.") == "WR-060"


def test_a_batch_of_sixteen_is_only_a_batch_size():
    for text in ("batch size 16", "batch_size=128", "bs: 10"):
        assert "batchone" not in tokens(text) and "batchsize" in tokens(text), text
    assert first("The loss is nan from the first step when I train with a batch size of 16.") != "WR-060"


# ---- stuck: a loss that does not move ------------------------------------------------------

def test_a_loss_that_stays_the_same_is_a_plateau():
    assert "stuck" in tokens("the loss stays the same") and "stuck" in tokens("the model always predicts class 0")
    d = diagnosis("The loss is stuck: it stays the same after every epoch.")
    assert d.matches[0].entry.trace == "plateau-from-start" or d.matches[0].entry.id in ("WR-140", "WR-330")


def test_a_loss_that_goes_down_is_not_stuck():
    assert "stuck" not in tokens("The loss goes down slowly but steadily.")
    assert diagnosis("The loss goes down slowly but steadily.").matches == []


# ---- intermittent: a failure that comes and goes ----------------------------------------------

def test_an_occasional_nan_points_at_a_bad_batch():
    assert "intermittent" in tokens("only occasionally") and "intermittent" in tokens("sometimes")
    assert first("The loss is nan, but only occasionally: most epochs are fine.") == "WR-310"


def test_occasional_spikes_that_recover_stay_normal():
    d = diagnosis("Occasionally the loss jumps up for one batch and comes back down. Is that normal?")
    assert d.verdict == "normal" and not d.matches


# ---- a plain `loss` that is only a title --------------------------------------------------------

GENLOSS = [74090.6, 77959.6, 76822.8, 166910.7, 131478.9, float("nan"), float("nan"), float("nan")]


def test_a_title_with_the_word_loss_does_not_hide_the_logged_loss():
    log = "Loss NaN's\n" + "".join(f"epoch {i + 427}: genloss {v} latloss {v / 100}\n" for i, v in enumerate(GENLOSS))
    ev = scan(io.BytesIO(log.encode()), "report", message_finder(CATALOG))
    assert ev.count == len(GENLOSS)
    assert ev.first_nonfinite == 5          # the first nan of genloss, not the title's


def test_a_plain_loss_on_every_line_is_read_beside_a_loss_of_its_own():
    log = "".join(f"epoch {i}: loss {0.9 - 0.05 * i:.2f} genloss {5 - i}\n" for i in range(8))
    ev = scan(io.BytesIO(log.encode()), "report", message_finder(CATALOG))
    assert ev.count == 8 and abs(ev.low - 0.55) < 1e-9


# ---- a symptom the report rules out ------------------------------------------------------------

def test_a_ruled_out_symptom_is_not_evidence_of_it():
    assert "nan" not in tokens("there are no nan values in my training data")
    assert "fp16" not in tokens("I am not using fp16")
    d = diagnosis("The loss climbs every epoch and then turns nan. I am not using fp16 or amp.")
    assert "WR-040" not in [m.entry.id for m in d.matches]


def test_a_climb_the_report_denies_or_a_setting_it_increased_is_no_climb():
    """"No climb before it", "does not increase", "it does not diverge" deny the climb; "I increase the batch
    size" is a change the reporter made (review_session27_words W5, K2). The loss's own increase is a climb."""
    for text in ("No climb before it, the loss was 0.041 the epoch before", "My loss does not increase, it is nan",
                 "the loss does not seem to diverge", "it never actually blows up",
                 "it does not diverge", "I increase the batch size to 64", "increasing the learning rate to 0.1",
                 "increased the number of epochs"):
        assert not {"climb", "diverge"} & set(tokens(text)), text
    for text in ("the loss increases every epoch", "loss keeps increasing", "the loss increased to 5",
                 "the loss does not go down and keeps increasing", "it diverges after epoch 3",
                 # review_session27_commits items 7, 8: an amount or a time after "increases", and a negator that
                 # denies something else, keep the climb
                 "the training loss increases a lot after epoch 5", "Training loss increased 10x",
                 "the loss starts increasing the moment the warmup ends", "Without warmup the loss explodes",
                 "The loss does not converge and increases every epoch", "Not sure why loss blows up"):
        assert {"climb", "diverge"} & set(tokens(text)), text
    # an out-of-memory error after a larger batch is no loss that climbed: no first suspect for a climb
    oom = diagnosis("I increase the batch size to 64 and get\ntorch.cuda.OutOfMemoryError: CUDA out of memory. "
                    "Tried to allocate 2.00 GiB\n")
    assert all("climbed" not in " ".join(m.evidence) for m in oom.matches)


def test_a_missing_remedy_keeps_its_word():
    assert "warmup" in tokens("I train without warmup") and "nan" in tokens("no warmup, and the loss is nan")


# ---- a division by zero is something gone wrong ---------------------------------------------------

def test_a_division_by_zero_in_words_is_a_failure():
    assert first("divide by zero in my cost from np.log") == "WR-030"       # the issue's own example


def test_without_it_it_works_names_what_breaks_the_run_and_rules_nothing_out():
    """"Without fp16 it trains fine" says fp16 breaks it: read as a denial, it dropped WR-040 (review_session29_broad
    item 09, probe p13); "I train without fp16 and still get nan" still denies it."""
    for works in ("Without fp16 it trains fine", "Without fp16, it trains fine.", "Without amp, training works."):
        assert "fp16" in tokens(works), works
    # a loss that falls is no contrast, nor is a sentence that goes on to break (review_session29_changes item 77)
    for denied in ("I train without fp16 and still get nan", "without fp16 or amp, the loss is nan",
                   "Model trained without mixed precision, loss decreases for a while then goes to nan",
                   "without amp it trains, then nan"):
        assert "fp16" not in tokens(denied), denied
    assert first("Without fp16 it trains fine, with fp16 the loss is nan.") == "WR-040"


def test_a_division_by_zero_ruled_out_is_not():
    assert diagnosis("I checked: no division by zero happens anywhere. Is my setup right?").matches == []


# ---- the log of a negative number --------------------------------------------------------

def test_numpys_warning_for_the_log_of_a_negative_number_points_at_the_log():
    """`invalid value encountered in log` is printed only for a log of a negative number (a nan input
    stays quiet), which WR-030 explains; log(0)'s warning is a different one."""
    log = ("train.py:14: RuntimeWarning: invalid value encountered in log\n"
           "  loss = -np.mean(y * np.log(p))\n"
           "epoch 1 loss 0.71\nepoch 2 loss 0.52\nepoch 3 loss 0.43\nepoch 4 loss nan\nepoch 5 loss nan\n")
    d = diagnosis(log)
    assert d.matches[0].entry.id == "WR-030"
    assert any('message "invalid value encountered in log"' in e for e in d.matches[0].evidence)
    quiet = diagnosis(log.replace("invalid value encountered in log", "divide by zero encountered in exp"))
    assert next(m for m in quiet.matches if m.entry.id == "WR-030").parts.get("messages", 0) <= 0


# ---- facts printed beside the loss: zero gradients, an accuracy that rises on a flat loss ------

def plateau_log(extra) -> str:
    """Thirty epochs of a loss that barely moves, each line with `extra(epoch)` after the loss."""
    return "".join(f"epoch {e:2d}  loss {1.0986 - 0.0005 * min(e, 3):.4f}  {extra(e)}\n" for e in range(30))


def test_gradient_norms_that_are_all_exactly_zero_point_at_the_entries_that_make_them_so():
    log = plateau_log(lambda e: "grad_norm(W1) 0.000e+00  grad_norm(W2) 0.000e+00")
    d = diagnosis(log)
    assert d.evidence.grad_paired and d.evidence.grad_max_before == 0.0
    top = d.matches[0]
    assert top.entry.id == "WR-110" and top.parts["zero-gradient"] > 0 and d.verdict == "failure"
    assert any("exactly 0" in e for e in top.evidence)
    # one gradient that is not zero, and the fact is gone
    moving = diagnosis(log.replace("grad_norm(W2) 0.000e+00\n", "grad_norm(W2) 1.250e-03\n", 1))
    assert all("zero-gradient" not in m.parts for m in moving.matches)


def test_an_accuracy_that_rises_while_the_loss_stays_flat_points_at_the_loss_handed_probabilities():
    rising = diagnosis(plateau_log(lambda e: f"accuracy {0.1 + 0.028 * e:.3f}"))
    assert rising.evidence.accuracy_head == [0.1, 0.128, 0.156, 0.184, 0.212]
    assert rising.evidence.accuracy_tail == [0.8, 0.828, 0.856, 0.884, 0.912]
    assert rising.matches[0].entry.id == "WR-130" and rising.matches[0].parts["accuracy-rose"] > 0
    assert rising.verdict == "failure"
    # the same loss with an accuracy that stays at chance, or only a validation accuracy that rises
    for extra in (lambda e: "accuracy 0.334", lambda e: f"accuracy 0.334 val_accuracy {0.1 + 0.028 * e:.3f}"):
        flat = diagnosis(plateau_log(extra))
        assert all("accuracy-rose" not in m.parts for m in flat.matches)
    # an accuracy in a closing summary is not read as the run's
    summary = diagnosis(plateau_log(lambda e: "") + "accuracy 95% on the training set\n")
    assert summary.evidence.accuracy_head == [] and summary.evidence.accuracy_tail == []
    # one noisy last value, or a rise in the first epoch that then stays flat, is not a trend
    for extra in (lambda e: f"accuracy {0.95 if e == 29 else 0.334}", lambda e: f"accuracy {0.1 if e == 0 else 0.9}"):
        assert all("accuracy-rose" not in m.parts for m in diagnosis(plateau_log(extra)).matches)


def test_only_a_training_accuracy_on_the_loss_lines_counts_in_its_own_unit():
    """A test or validation accuracy, a closing summary, a fraction against a percentage, or a
    percentage below 1: none is a training accuracy that rose (each fired once: tested so it cannot again)."""
    flat = lambda e: "acc 0.334"                                        # noqa: E731
    for tail in ("test acc 0.912 (best checkpoint)\n", "final acc: 91.2\n", "train acc: 34.0\n"):
        d = diagnosis(plateau_log(flat) + tail)
        assert all("accuracy-rose" not in m.parts for m in d.matches), tail
    for extra in (lambda e: f"acc 0.334 | val loss 1.0986 val acc {0.1 + 0.028 * e:.3f}",
                  lambda e: f"acc 0.334 | Val acc {0.1 + 0.028 * e:.3f}",
                  lambda e: f"acc {0.10 + 0.25 * e / 29:.2f}%"):                     # 0.10% -> 0.35%
        d = diagnosis(plateau_log(extra))
        assert all("accuracy-rose" not in m.parts for m in d.matches)
    for extra in (lambda e: f"train_acc {0.1 + 0.028 * e:.3f}", lambda e: f"Accuracy: {10 + 2.8 * e:.1f}%"):
        assert diagnosis(plateau_log(extra)).matches[0].parts.get("accuracy-rose")


def test_gradient_norms_are_exactly_zero_only_as_printed_exactly_and_paired_line_by_line():
    fixed_point = diagnosis(plateau_log(lambda e: "gnorm 0.000"))          # any norm below 5e-4 prints so
    assert fixed_point.evidence.grad_zero_exact is False
    assert all("zero-gradient" not in m.parts for m in fixed_point.matches)
    config = "config: lr=0.1 max_grad_norm=1.0 batch=64\n"               # a key in a configuration line
    d = diagnosis(config + plateau_log(lambda e: "grad_norm 0"))
    assert d.matches[0].parts.get("zero-gradient")
    # two norms per line on half the lines: the count divides, the lines do not pair
    lines = "".join(f"step {s} loss {0.5 * 1.8 ** s:.4g}" + (f" grad_norm(W1) {5.0 if s == 5 else 0.3}"
                                                            f" grad_norm(W2) 0.2" if s < 6 else "") + "\n"
                    for s in range(11)) + "step 11 loss nan\n"
    assert diagnosis("max_norm: 1.0\n" + lines).evidence.grad_paired is False


def test_the_printed_facts_go_to_the_entries_whose_phrases_describe_them():
    """The facts are tied to words in the entries' phrases: a rewording that adds or drops an entry
    must be a decision, so the sets are pinned here."""
    from trainwreck.diagnose import weigher

    w = weigher(CATALOG)
    assert w.zero_gradient == {"WR-110", "WR-140"}
    assert w.accuracy_rises == {"WR-130"}
    assert w.sigmoid_zero == {"WR-110"}


def test_an_output_of_exactly_one_half_for_every_input_points_at_weights_that_are_all_zero():
    # sigmoid(0) = 0.5: the value a network whose weights are all zero gives for every example
    import math

    assert 1 / (1 + math.exp(-0.0)) == 0.5
    report = ("My classifier predicts the same thing for every image: the outputs are all 0.5 and the "
              "cost printed at each iteration is always the same.")
    from trainwreck.weighing import W_SAID_HALF

    d = diagnosis(report)
    assert d.matches[0].entry.id == "WR-110" and d.matches[0].parts["sigmoid-zero"] == W_SAID_HALF
    assert any("for an input of 0" in e for e in d.matches[0].evidence)
    for text in ("all outputs are 0.5", "every output is 0.5", "it predicts 0.5 for everything",
                 "the generated samples are all 0.5"):
        assert "sigmoidzero" in tokens(text), text
    # a 0.5 that is a setting, a threshold or a metric, or an output only near one half, is not that fact
    for text in ("I set dropout to 0.5 and the cost is always the same.", "the outputs are all 0.52",
                 "the accuracy is only 0.5", "it checkpoints every 0.5 epochs",
                 "a learning rate of 0.5 and the outputs are all over the place",
                 "validation accuracy is always 0.5", "The IoU is always 0.5",
                 "the output uses a decision threshold of exactly 0.5", "predictions above 0.5 are positive",
                 "learning rate constant at 0.5"):
        assert "sigmoidzero" not in tokens(text), text
        assert all("sigmoid-zero" not in m.parts for m in diagnosis(text).matches), text


def test_a_magnitude_in_prose_is_in_the_thousands_but_a_count_or_a_time_is_not():
    assert "thousand" in tokens("my features are around 25,000 while the others stay below one")
    assert "thousand" in tokens("targets in the millions")
    assert "thousand" not in tokens("the loss went nan after 10,000 iterations on 1,200 images")
    assert "thousand" not in tokens("2021-12-20 17:13:30,133 - mmdet - INFO - loss: nan")


def test_the_catalogue_folded_in_one_pass_gives_each_text_its_own_tokens():
    # the weigher folds every entry's texts in one pass of each thesaurus pattern over them all;
    # a pattern that matched across two texts, or a text holding the separator, would show here
    from trainwreck.thesaurus import tokens_many
    from trainwreck.entry_documents import FIELDS, _field

    entries = real_catalog().sorted_entries()
    texts = [_field(e, name) for e in entries for name in [*FIELDS, "Why it happens", "Fix"]]
    texts += [p for e in entries for p in e.phrases]
    texts += ["ends in a NaN", "starts with 1,000", "after 3 epochs", "step", "> 5"]
    assert len(texts) > 250
    from trainwreck import thesaurus

    before = thesaurus.fold_text.cache_info()
    together = tokens_many(texts)
    after = thesaurus.fold_text.cache_info()
    assert (after.hits, after.misses) == (before.hits, before.misses), "folded one by one, not in one pass"
    assert together == [tokens(t) for t in texts]
    # pairs that would fold differently joined: a timing phrase, a magnitude before a count, `step > N`
    for pair in (["after 3", "epochs"], ["1,000", "steps"], ["epoch", "> 50"], ["all", "nan"], ["x\x1fy", "z"],
                 ["the model outputs", "0.5"], ["0.5", "is the dropout"]):
        assert tokens_many(pair) == [tokens(t) for t in pair], pair


def test_always_nan_is_from_the_start_and_keeps_its_nan_while_always_the_same_is_only_stuck():
    for text in ("the loss is always nan", "the loss is constantly NaN", "the loss is always  NaN",
                 "avg loss is always -nan"):
        assert when(text) == {"start"}, text
        assert {"when_start", "nan"} <= set(tokens(text)), text
    for text in ("the loss is constantly infinite and we never improve", "the cost is always infinity"):
        assert when(text) == {"start"}, text
        assert {"when_start", "inf"} <= set(tokens(text)), text
    # a verb of being or printing between says the same; one of change or of a result does not ("always
    # becomes nan"; "I always get nan" is every run; "log(0) always gives -inf" is arithmetic)
    for text in ("the train loss always shows nan", "the output always prints NaN", "the loss always is nan"):
        assert when(text) == {"start"}, text
        assert "when_start" in tokens(text), text
    for text in ("the loss always becomes nan", "I always get NaN loss with AMP", "log(0) always gives -inf"):
        assert when(text) == set() and "when_start" not in tokens(text), text
    assert tokens("the output always gets nan") == ["output", "nan"]
    # what came first puts the nan after it, whether or not the time is one the readings know
    assert when("The loss goes 0.693, 0.52, 0.41 and then it always shows nan.") == set()
    assert not any(t.startswith("when_") for t in tokens("The loss goes 0.693, 0.52, 0.41 and then it always shows nan."))
    text = "Training was fine for 20 epochs, then the loss always shows NaN."      # "fine for 20 epochs" says when
    assert when(text) == {"later"} and "when_start" not in tokens(text)
    for text in ("After the 3rd epoch my loss always shows nan", "since epoch 3 the loss is always nan",
                 "the loss is nan after epoch 5", "the loss is nan in the second epoch"):
        assert when(text) == {"later"} and "when_start" not in tokens(text), text
    assert when("it does not always show nan") == set() and "intermittent" in tokens("it does not always show nan")
    # a contraction is a negation (with any apostrophe, or none); a word that merely ends in -nt is not
    for text in ("the loss isn\u00b4t always nan", "it isn`t always nan", "it isnt always nan"):
        assert {"intermittent", "nan"} <= set(tokens(text)) and when(text) == set(), text
    assert tokens("my gradient always shows NaN")[:1] == ["gradient"] and when("my gradient always shows NaN") == {"start"}
    assert "intermittent" not in tokens("the model is not always informative")
    # not always nan: some values are finite, so it did not break from the start; it still went nan
    for text in ("the loss is not always nan, only on some runs", "it isn't always NaN", "it isn’t always NaN",
                 "isnt always nan", "it's not  always nan"):
        assert when(text) == set(), text
        assert {"intermittent", "nan"} <= set(tokens(text)) and "when_start" not in tokens(text), text
    # a time the text states wins over "always": every value the reader sees now, not from the first
    for text in ("the loss is always infinite after 3 epochs", "after 3 epochs the loss is always nan"):
        assert when(text) == {"later"}, text
    # "all" says how much of the output, not when: after a stated time it stays later
    assert when("after 5 epochs the losses are all NaN") == {"later"}
    assert "when_start" not in tokens("I get the right shape but all NaNs as output")
    for text in ("the cost is always the same", "the loss is always increasing"):
        assert when(text) == set(), text
        assert "when_start" not in tokens(text), text
    assert "stuck" in tokens("the cost is always the same")


def test_a_gradient_norm_is_not_the_norm_a_normalisation_divides_by():
    """HF Trainer, MMEngine and fairseq print the gradient's norm beside the loss (`grad_norm`, `gnorm`):
    as a printed field it is the log's vocabulary and says nothing of which failure; said in words it
    belongs to the entries about gradients. Never to dividing by a norm."""
    from trainwreck.diagnose import weigher

    library = weigher(CATALOG).library
    for field in ("grad_norm: 12.5", "'grad_norm': 1.25", "| gnorm 3.2 |", "grad_norm(W1) 0.000e+00",
                  "total_norm=4.1"):
        assert tokens(field) == [], field
    for words in ("the gradient norm explodes", "the gradient’s norm", "the norm of the gradients grows",
                  "total_norm", "grads norm"):
        assert tokens(words).count("gradnorm") == 1 and "norm" not in tokens(words), words
        scores = library.scores(tokens(words))
        assert scores["WR-060"] == 0 and scores["WR-240"] > 0, words
    assert "norm" in tokens("dividing by the norm") and "gradnorm" not in tokens("dividing by the norm")


def test_the_framework_a_report_names_is_not_evidence_of_which_failure():
    """Every entry says how its failure looks in each framework: naming the framework (where the reader
    met the failure) must not pull toward the entry whose summary happens to name it."""
    from trainwreck.diagnose import weigher

    assert tokens("Keras on TensorFlow, PyTorch, JAX and Flax; torch 2.1, tf 2.4") == []
    library = weigher(CATALOG).library
    for text in ("I train with keras", "I use torch", "import torch"):
        assert not any(library.scores(tokens(text)).values()), text
    # a framework's function keeps its meaning: torch.log is a log, torch.empty is empty memory
    assert tokens("torch.log(p)") == ["logfn"] and tokens("torch.empty(3)") == ["empty"]
    # Apex's calls say that mixed precision is on; the "initialize" of amp.initialize is not the weights'
    assert tokens("amp.initialize(model, opt)") == ["fp16", "opt"]
    assert tokens("with amp.scale_loss(loss, opt)") == ["fp16", "loss", "opt"]
    assert "init" in tokens("nn.init.xavier_uniform_(w)") and "init" in tokens("I initialize the weights")
    # a traceback's frame lines are Python's and the machine's words; the reporter's code and function names
    # stay, and an installed library's frame (its function and its code line) goes with them
    assert tokens('Traceback (most recent call last):\n  File "train.py", line 9, in training_step\n'
                  '    loss = torch.log(p)\n  File "/venv/lib/python3.8/site-packages/apex/amp/scaler.py", line 176,'
                  ' in unscale_with_stashed\n    out_scale/grads_have_scale,   # 1./scale,\n') == \
        ["step", "loss", "logfn"]


def test_an_ipython_or_colab_traceback_keeps_only_the_reporters_code():
    """IPython (as in Colab and Jupyter) prints a frame as `path in function(...)` (IPython 7) or
    `File path:492, in function(...)` (IPython 8) with numbered code lines under it: an installed library's
    frame and its lines are the library's words, and the frame headers Python's; the cell's code stays."""
    ipython7 = ("RuntimeError                              Traceback (most recent call last)\n"
                "<ipython-input-12-3f2c1d9e8a7b> in <cell line: 4>()\n"
                "----> 8         loss.backward()\n\n"
                "/usr/local/lib/python3.10/dist-packages/torch/autograd/__init__.py in backward(tensors, grad_tensors, inputs)\n"
                "    249     # some Python versions print out the first line of a multi-line function\n"
                "--> 251     Variable._execution_engine.run_backward(  # Calls into the C++ engine\n"
                "    252         tensors,\n\n")
    ipython8 = ("Cell In[5], line 8\n      7 loss = criterion(out, yb)\n----> 8 loss.backward()\n\n"
                "File C:\\Users\\me\\miniconda3\\Lib\\site-packages\\torch\\_tensor.py:487, in Tensor.backward(self, gradient,"
                " retain_graph, create_graph, inputs)\n    477 if has_torch_function_unary(self):\n"
                "--> 487 torch.autograd.backward(\n    488     self, gradient, retain_graph, create_graph, inputs=inputs\n\n")
    assert tokens(ipython7) == ["loss", "backward"]
    assert tokens(ipython8) == ["loss", "criterion", "yb", "loss", "backward"]


def test_a_report_in_another_script_is_not_said_to_be_silent_about_when():
    """Words are read in English: a Russian sentence that says 'at the first iteration' was told it did not say when."""
    from trainwreck.diagnose import diagnose
    from trainwreck.logscan import scan

    for text, said in (("Лосс становится nan уже на первой итерации, learning rate 1e-5", "in another script were not read"),
                       ("the loss becomes nan, learning rate 1e-5", "the report does not say when"),
                       ("My beta-VAE loss becomes nan, β=4, μ and log σ² from the encoder, γ=0.5, λ=1e-3, "
                        "α=0.9, δ=1, ε=1e-8", "the report does not say when"),      # Greek: a formula's symbols
                       ("the loss 𝐿(𝜃) = −Σᵢ 𝑦ᵢ log 𝑝ᵢ over 𝑁 examples 𝑥 becomes nan", "the report does not say when")):
        d = diagnose(scan(io.BytesIO(text.encode()), "report"), CATALOG)
        notes = [e for m in d.matches for e in m.evidence if "suspect" in e]
        assert notes and all(said in e for e in notes), text


def test_a_validation_metric_is_the_validation_split_not_a_variable_named_val():
    """val_loss and val acc fold to the validation split; PyTorch's BCELoss assertion names a variable
    input_val, and a report's val_loss used to match WR-130 through it."""
    from trainwreck.diagnose import weigher

    for text in ("val_loss: nan", "val acc 0.61", "Val Loss", "val_dice", "val/loss=nan", "val-loss", "eval_loss"):
        assert tokens(text)[0] == "validation", text
    # a bare val says validation or value: no token, so it cannot match the assertion's input_val
    assert tokens("the val and train loss was nan") == ["loss", "nan"]
    assert "validation" not in tokens("Assertion `input_val >= zero && input_val <= one` failed.")
    assert weigher(CATALOG).library.scores(tokens("val_loss: 0.3 - val_accuracy: 0.8"))["WR-130"] == \
        weigher(CATALOG).library.scores(tokens("loss: 0.3 - accuracy: 0.8"))["WR-130"]


def test_prepositions_and_connectives_are_not_evidence_but_a_place_or_a_bound_is():
    """A word such as "through" or "until" says nothing of which failure it is, yet an entry whose text
    happens to use it matched it (the issue's "bubbles through to a nan" pulled WR-220). Words that
    carry a bound or a place in these reports keep their token: "outside" the classes, "below" zero,
    "past" the largest float, "without" an epsilon."""
    assert tokens("through throughout around inside within per until once must thus although anyway") == []
    assert tokens("outside below above past without between") == ["outside", "below", "above", "past", "without",
                                                                  "between"]
    # "once" in a while is a failure that comes and goes
    assert tokens("the loss goes nan once in a while") == ["loss", "nan", "intermittent"]


def test_anomaly_modes_own_words_around_the_forward_call_are_not_the_reporters():
    """"Traceback of forward call that caused the error", the engine call PyTorch's source line prints with its
    comment, and the `Triggered internally at ...python_anomaly_mode.cpp` note are PyTorch's words
    (review_session27_words K3); the forward line anomaly mode quotes stays."""
    printed = ("UserWarning: Error detected in LogBackward0. Traceback of forward call that caused the error:\n"
               "    loss = -(targets * torch.log(probs)).mean()\n"
               " (Triggered internally at ../torch/csrc/autograd/python_anomaly_mode.cpp:111.)\n"
               "  return Variable._execution_engine.run_backward(  # Calls into the C++ engine to run the backward pass\n")
    words = set(tokens(printed))
    assert not {"call", "engine", "pass", "forward", "trigger", "internally", "cpp"} & words, words
    assert {"logfn", "prob", "target"} & words


def test_a_batch_or_step_number_in_words_says_when_and_a_log_field_does_not():
    """"around batch 1300", "fine for 1200 batches" say after a while (review_session27_logs W10); a log's own
    field `token_in_epoch: 0` is no "in epoch 0"."""
    from trainwreck.timing_words import timing_of

    for text in ("Loss becomes nan around batch 1300.", "The loss is fine for 1200 batches, then nan.",
                 "and then it is nan around step 1800", "it went nan at epoch 3",
                 # (a thousand written as k: "around step 3k", ux_review_s65 9)
                 "loss explodes to nan around step 3k when I lowered batch size"):
        assert timing_of(tokens(text)) == {"later"}, text
    # a step within the first ten is right after the first updates, not after a while (review_session27_commits 13)
    for text in ("It trains fine for 2 batches, then the loss is nan from batch 3 on", "loss becomes nan at iter 3"):
        assert timing_of(tokens(text)) == {"early"}, text
    assert "later" not in timing_of(tokens("The loss is nan at batch 1 of the very first epoch"))
    assert timing_of(tokens("Train time/token_in_epoch: 0")) == set()
    # (a run of digits too long for a step is none, and no error: Python refuses to read an int of 4,300 digits,
    # code_review_s66b 2)
    for digits in ("9" * 4301 + "k", "9" * 4301, "1" + ",000" * 1500):
        assert timing_of(tokens(f"loss is nan around step {digits}")) == set()
    assert timing_of(tokens("the loss is nan in epoch 0")) == {"start"}


def test_a_declared_message_says_nothing_of_when_the_failure_shows():
    """WR-060 declares PyTorch's "batch_norm eps must be positive during training": its words "during
    training" fold to the later-timing token, which must not make WR-060 a match for every report that
    says when its loss broke. No entry's messages carry a timing token into its document; their other
    words still count."""
    from trainwreck.entry_documents import documents

    assert "when_later" in tokens("batch_norm eps must be positive during training, but got 0.0")
    messages = documents(CATALOG.sorted_entries(), {"messages": 1.0})
    assert not {t for words in messages.values() for t in words if t.startswith("when_")}
    assert messages["WR-060"]["eps"] > 0


def test_each_entry_shows_its_failure_when_its_symptom_says_it_does():
    """The timings the weigher mines from the Symptom sections, for the entries whose Symptom says it
    in words: WR-020's overflow from the first pass, right after the first update, or after a while;
    WR-030's log of zero right after the first update in float32, or after a while, and the log of a raw
    output (0 or below) from the first pass."""
    from trainwreck.diagnose import weigher

    timing = weigher(CATALOG).timing
    assert timing["WR-020"] == {"start", "early", "later"}
    assert timing["WR-030"] == {"start", "early", "later"}


def test_a_sections_wrapped_lines_are_one_paragraph_and_its_blank_lines_still_part_them():
    """Markdown wraps a paragraph wherever the line is full: "grow during\ntraining" is still "during
    training" (WR-020's later timing hangs on it), while a blank line still ends a clause."""
    import dataclasses

    from trainwreck.entry_documents import section

    entry = dataclasses.replace(CATALOG.entries["WR-020"], sections={"Symptom": "weights grow during\ntraining.\n\nNext"})
    assert section(entry, "Symptom") == "weights grow during training.\n\nNext"
    assert when(section(entry, "Symptom")) == {"later"} and when(entry.sections["Symptom"]) == set()


def test_a_suspect_takes_its_timing_from_the_values_when_the_words_give_none():
    """A Keras log whose first batch is already nan: the rate is no suspect (no update had been made), and no
    candidate is said to have been assumed to break after training had run."""
    d = diagnosis("Epoch 1/10\n  1/100 [>....] - ETA: 5s - loss: nan\nmy house price model gives nan\n")
    assert not any(m.entry.id == "WR-220" for m in d.matches)
    assert not any("after training had run" in e for m in d.matches for e in m.evidence)


def test_a_class_that_names_a_failure_keeps_it_and_a_crash_stays_a_failure():
    """Only the classes that name no failure of their own are dropped: OverflowError keeps its overflow, an
    error stays an error, and a reporter's own word before "error:" stays theirs."""
    from trainwreck.run_said import says_failure

    assert "overflow" in tokens("OverflowError: math range error")
    assert "reconstruction" in tokens("my reconstruction error: 0.5 and rising")
    assert tokens("train.py:3: RuntimeWarning: overflow encountered in exp") == ["py", "overflow", "encounter", "exp"]
    assert says_failure("RuntimeError: CUDA error: an illegal memory access was encountered")


def test_a_first_value_that_stands_for_an_epoch_does_not_time_the_suspects():
    """Keras prints an epoch's mean: a nan there says nothing of when in the epoch the loss broke, so the
    rate stays a suspect."""
    d = diagnosis("Epoch 1/10\n1563/1563 [==============================] - 12s 7ms/step - loss: nan - accuracy: 0.1000\n"
                  "Epoch 2/10\n1563/1563 [==============================] - 11s 7ms/step - loss: nan - accuracy: 0.1000\n"
                  "my CNN on CIFAR-10 gives nan loss, why?\n")
    assert any(m.entry.id == "WR-220" for m in d.matches)


# ---- a learning rate printed beside the loss ---------------------------------------------------

RANGE_TEST = [2.3051, 2.3049, 2.3012, 2.2101, 1.7310, 1.3122, 1.2005, 1.9812, 8.4410, 93.118, "nan"]


def rate_log(rates, losses=RANGE_TEST, form="lr: {lr:.2e}  loss: {loss}") -> str:
    return "".join(form.format(lr=r, loss=v, n=i + 1) + "\n" for i, (r, v) in enumerate(zip(rates, losses)))


def test_a_rate_that_rose_through_the_climb_is_the_rates_evidence_and_against_its_special_cases():
    """An LR range test (the rate x10 or x3 per line): with the rate unprinted the curve reads as the fall then
    climb of gradients piled up in the buffer (WR-260) as well as a rate too high; printed, it points at the rate."""
    rates = [1e-7, 1e-6, 1e-5, 1e-4, 1e-3, 3e-3, 1e-2, 3e-2, 1e-1, 3e-1, 1.0]
    bare = diagnosis("".join(f"loss: {v}\n" for v in RANGE_TEST))
    assert bare.matches[0].entry.id == "WR-260" and all("rate-rose" not in m.parts for m in bare.matches)
    d = diagnosis(rate_log(rates))
    assert [p.rate for p in d.evidence.head_at] == rates
    top = d.matches[0]
    assert top.entry.id == "WR-220" and top.parts["rate-rose"] > 0
    assert ("the learning rate printed beside the loss rose from 0.01 (line 7), where the loss was lowest (1.2), to "
            "0.3 (line 10): the loss climbed as the rate rose") in " ".join(top.evidence)
    special = next(m for m in d.matches if m.entry.id == "WR-260")
    assert special.parts["rate-rose"] < 0 and any("rose through the climb" in a for a in special.against)


def test_a_rate_that_did_not_rise_through_the_climb_is_no_evidence():
    """The fact needs the rate at the climb's end x1.25 its value at the loss's lowest: a warmup long over before
    the loss turned, a decaying schedule, a constant rate, a rate that rose and fell back before the end, each
    falls short."""
    losses = [2.3, 2.0, 1.7, 1.5, 1.3, 1.2, 1.1, 1.05, 1.0, 1.02, 1.3, 1.9, 3.5, 8.0, "nan"]
    schedules = {"warmup over before the climb": [min(1e-3, 1e-3 * (i + 1) / 3) for i in range(15)],
                 "decay": [1e-2 * 0.9 ** i for i in range(15)],
                 "constant": [1e-3] * 15,
                 "up then down before the end": [1e-4 * (i + 1) if i < 12 else 1e-4 for i in range(15)],
                 # a warmup that peaked after the loss's lowest, then a decay the loss climbed through
                 # (review_session27_commits item 11)
                 "peaked, then decayed through the climb": [1e-4] * 8 + [2e-4, 6e-4, 1e-3, 8e-4, 6e-4, 4e-4, 3e-4]}
    for name, rates in schedules.items():
        d = diagnosis(rate_log(rates, losses, "step {n}00 | lr {lr:.1e} | loss {loss}"))
        assert d.evidence.head_at[0].rate == float(f"{rates[0]:.1e}"), name
        assert all("rate-rose" not in m.parts for m in d.matches), name
    # the same losses with a rate still rising through the climb, or a warm restart back to the first rate where
    # the loss turned (review_session27_logs W4): the fact is there
    restart = [1e-3 * 0.5 ** i for i in range(9)] + [1e-3 * 0.99 ** i for i in range(6)]   # back up, decaying again
    for rates in ([1e-4 * (i + 1) for i in range(15)], restart):
        rising = diagnosis(rate_log(rates, losses, "step {n}00 | lr {lr:.1e} | loss {loss}"))
        assert rising.matches[0].entry.id == "WR-220" and rising.matches[0].parts["rate-rose"] > 0


def test_only_a_rate_on_the_loss_line_is_read_and_not_a_configurations_other_rates():
    from trainwreck.logscan.positions import RATE

    assert [m.group(1) if (m := RATE.search(t)) else None for t in (
        b"{'loss': 2.1, 'grad_norm': 3.2, 'learning_rate': 5e-05, 'epoch': 0.1}", b"Learning Rate 0.01", b"LR=0.1",
        b"min_lr=1e-6 lr=3e-4", b"base_lr: 0.1", b"lr_scale: 0.5", b"lr: [0.1, 0.01]", b"lrs 0.1")] == [
        b"5e-05", b"0.01", b"0.1", b"3e-4", None, None, None, None]
    # a rate printed on its own line, not beside the loss: no rate for the values
    d = diagnosis("".join(f"lr {r:g}\nloss: {v}\n" for r, v in zip([10.0 ** (k - 7) for k in range(11)], RANGE_TEST)))
    assert all(p.rate is None for p in d.evidence.head_at)
    assert all("rate-rose" not in m.parts for m in d.matches)


def test_the_page_states_the_rate_facts_thresholds_and_weight():
    from trainwreck.optimizer_setup import RATE_CLIMB, RATE_NEAR_PEAK
    from trainwreck.weighing import W_SAID_HALF

    page = " ".join((ROOT / "docs" / "how-diagnose-decides.md").read_text(encoding="utf-8").split())
    assert W_SAID_HALF == 1
    assert ("counts 1 for the entries whose phrases say a raised rate diverges" in page
            and f"at the climb's end it is at least {RATE_CLIMB:g} times the rate where the loss was lowest" in page
            and f"and at least {RATE_NEAR_PEAK:.0%} of the highest it reached in the climb" in page
            and "It counts minus 1 for the special cases of the rate's curve" in page)


# ---- a log printed by a trainer that clears the gradients itself ------------------------------------------

FELL_THEN_CLIMBED = [2.31, 1.9, 1.6, 1.4, 1.25, 1.1, 1.0, 0.92, 0.85, 0.8, 0.78, 0.9, 1.4, 2.6, 5.3, 11.8, "nan"]


def test_a_log_from_a_trainer_that_clears_the_gradients_counts_against_gradients_left_to_pile_up():
    """An MMEngine or Hugging Face log cannot come from a loop that forgot zero_grad(): the trainer clears the
    gradients every step (review_session27_logs W4). The same curve from a plain loop keeps WR-260 in full."""
    mmengine = "".join(f"12/02 10:00:00 - mmengine - INFO - Iter(train) [{50 * (i + 1):4d}/8000]  lr: 1.0000e-02  "
                       f"loss: {v}\n" for i, v in enumerate(FELL_THEN_CLIMBED))
    trainer = "".join(f"{{'loss': {v}, 'grad_norm': 1.0, 'epoch': {0.05 * (i + 1):.2f}}}\n"
                      for i, v in enumerate(FELL_THEN_CLIMBED))
    plain = "".join(f"iter {50 * (i + 1)} loss {v}\n" for i, v in enumerate(FELL_THEN_CLIMBED))
    for log, tool in ((mmengine, "OpenMMLab"), (trainer, "Hugging Face Trainer")):
        d = diagnosis(log)
        piled = next(m for m in d.matches if m.entry.id == "WR-260")
        assert piled.parts["trainer"] < 0 and any(a.startswith(f"the log is printed by {tool}") for a in piled.against)
        assert d.verdict != "failure" or d.matches[0].entry.id != "WR-260", tool
    d = diagnosis(plain)
    assert d.matches[0].entry.id == "WR-260" and all("trainer" not in m.parts for m in d.matches)
    # a bare `Epoch 3/24` line is printed by hand-written loops too (PyTorch's transfer-learning tutorial): only
    # Keras's own bar says fit() ran the steps; and a Lightning run in manual optimization zeroes them itself
    # (review_session27_commits items 2, 17)
    tutorial = "".join(f"Epoch {e}/24\n----------\ntrain Loss: {v} Acc: 0.5\n" for e, v in enumerate(FELL_THEN_CLIMBED))
    keras = "".join(f"Epoch {e + 1}/17\n32/32 [==============================] - 1s 5ms/step - loss: {v}\n"
                    for e, v in enumerate(FELL_THEN_CLIMBED))
    assert "trainer" not in next(m for m in diagnosis(tutorial).matches if m.entry.id == "WR-260").parts
    assert next(m for m in diagnosis(keras).matches if m.entry.id == "WR-260").parts["trainer"] < 0
    bar = "".join(f"Epoch {e}:  100%|##########| 100/100 [00:10<00:00, v_num=3, train_loss={v}]\n"
                  for e, v in enumerate(FELL_THEN_CLIMBED))
    assert next(m for m in diagnosis(bar).matches if m.entry.id == "WR-260").parts["trainer"] < 0
    manual = diagnosis("My GAN sets self.automatic_optimization = False.\n" + bar)
    assert "trainer" not in next(m for m in manual.matches if m.entry.id == "WR-260").parts


# ---- where the log starts ----------------------------------------------------------------------

def _steps(values, every=100, epoch_size=600) -> str:
    return "".join(f"Epoch [{i * every // epoch_size + 1}/5], Step [{i * every % epoch_size + every}/{epoch_size}], "
                   f"Loss: {v}\n" for i, v in enumerate(values))


def test_the_first_print_of_a_loop_that_prints_every_k_steps_is_the_runs_start():
    """`Step [100/600]` then `[200/600]` in epoch 1 is the first line a print-every-100 loop can write: a loss flat
    at ln 10 from there never learned (it was "healthy", its plateau unjudged); a first print at step 500 is not
    the start."""
    flat = [f"{2.3026 + 0.0004 * ((7 * i) % 3 - 1):.4f}" for i in range(30)]
    d = diagnosis(_steps(flat))
    assert d.signature.name == "plateau-from-start" and "epoch 1/5, step 100/600" in d.signature.facts[0]
    late = "".join(line.replace("Step [", "Step [4") for line in _steps(flat[:5], every=100, epoch_size=600)
                   .splitlines(keepends=True))
    assert diagnosis(late).signature.name != "plateau-from-start"
    counted_from_zero = "".join(f"[1, {k:5d}] loss: {v}\n" for k, v in zip(range(99, 3000, 100), flat))
    assert diagnosis(counted_from_zero).signature.name == "plateau-from-start"


def test_a_nan_at_the_first_print_says_the_steps_before_it_were_not_printed():
    """Nan from `Step [100/600]`: the run broke at its first step or within the 99 unprinted ones; the report used
    to say it "does not say when" beside the very values that say it."""
    d = diagnosis(_steps(["nan"] * 12))
    assert d.signature.name == "nonfinite-from-start" and d.signature.first_epoch
    assert "printed none of the steps before it" in d.signature.facts[0]
    said = " ".join(e for m in d.matches for e in m.evidence)
    assert "does not say when" not in said
    assert "non-finite from the first value the log shows" in said or "printed none of the steps" in said


def test_a_climb_too_slow_for_the_watch_that_stayed_up_is_a_climb():
    """0.52 at its lowest, then rises of a few percent a print to 4.1, no nan: it was "healthy", with "checked: a
    sustained climb" printed beside it."""
    values = [2.23, 1.4, 0.9, 0.7, 0.6, 0.52] + [round(0.52 * 1.048 ** k, 4) for k in range(1, 46)]
    d = diagnosis(_steps(values))
    assert d.signature.name == "climbed-and-stayed"
    assert "rose at 45 of the 45 values after its lowest" in d.signature.facts[0]
    assert d.matches[0].entry.id == "WR-220"
    bumpy = values[:6] + [round(0.52 * (1.3 if k % 2 else 1.0) * 1.02 ** k, 4) for k in range(1, 46)]
    assert diagnosis(_steps(bumpy)).signature.name != "climbed-and-stayed"     # as many falls as rises
    # a GAN's generator loss creeps up in a healthy run (review_session28_reading item 21)
    generator = "DCGAN, I log the generator loss.\n" + _steps(values).replace("Loss:", "g_loss:")
    assert diagnosis(generator).signature.name != "climbed-and-stayed"


# ---- a classifier's run has no regression targets ------------------------------------------------

def test_a_classifiers_run_counts_against_unscaled_regression_targets():
    """An MNIST MLP with a softmax and an accuracy beside its loss named 'Regression targets left unscaled' first
    (review_session28_numpy item 16); a regression's report keeps that entry."""
    curve = "Epoch 1, loss: inf, acc: 0.0987\nEpoch 2, loss: nan, acc: 0.0980\nEpoch 3, loss: nan, acc: 0.0980\n"
    warning = "/home/dev/model.py:29: RuntimeWarning: overflow encountered in matmul\n  z = a @ W + b\n"
    d = diagnosis("Deep MLP on MNIST in numpy, softmax output.\n" + warning + curve)
    target = next(m for m in d.matches if m.entry.id == "WR-360")
    assert target.parts["task"] == -2.0 and any("an accuracy beside the loss" in a for a in target.against)
    regression = diagnosis("Predicting house prices with mean squared error.\n" + warning
                           + curve.replace(", acc: 0.0987", "").replace(", acc: 0.0980", ""))
    assert "task" not in next(m for m in regression.matches if m.entry.id == "WR-360").parts


def test_words_that_say_the_inputs_or_targets_were_scaled_count_against_forgetting_it():
    """"I standardised both X and y" is the fix of unscaled inputs and of unscaled targets, done: it named WR-360
    (review_session28_numpy items 4, 5). "Forgot to normalize", "were not normalized" say nothing of the kind."""
    curve = "".join(f"Iteration {50 * i:4d} | J = {v}\n" for i, v in enumerate(["5.0e-01", "1.27e+29", "1.62e+59",
                                                                                "2.06e+89", "inf", "nan"]))
    d = diagnosis("I standardised both X and y (mean 0, std 1) and wrote batch gradient descent.\n" + curve)
    assert d.evidence.count == 6 and d.matches[0].entry.id == "WR-220"     # `J =` is read as the cost
    targets = next(m for m in d.matches if m.entry.id == "WR-360") if any(
        m.entry.id == "WR-360" for m in d.matches) else None
    assert targets is None or targets.parts["scaled-targets"] < 0
    from trainwreck.input_scaling import scaled_said

    def said(text):
        out = scaled_said(text)
        return set(out["scaled"]), set(out["unscaled"])
    assert said("X is divided by 255.") == ({"inputs"}, set())
    assert said("I divided the price by 100000 so y is between 1 and 8") == ({"targets"}, set())
    assert said("the loss is divided by zero in my data") == (set(), set())
    # what the words say was not scaled (review_session28_weighing item 2: these read as "scaled already")
    assert said("I standardized X but not y") == ({"inputs"}, {"targets"})
    assert said("I have not normalized the targets") == (set(), {"targets"})
    assert said("I haven't normalized the inputs") == (set(), {"inputs"})
    assert said("I standardised all features except the target") == ({"inputs"}, {"targets"})
    assert said("the targets were not normalized") == (set(), {"targets"})
    # described first, then said not scaled, after a comma: the subject nearest before it (review_session29_broad 16)
    assert said("Features are standardized (sklearn StandardScaler), target is yearly salary in dollars (about "
                "30,000 to 250,000), not scaled.") == ({"inputs"}, {"targets"})
    assert said("The inputs are pixel values from 0 to 255, not normalized.") == (set(), {"inputs"})
    # the object ends at a bracket or a word that opens another phrase (review_session36_blind q32: "(already
    # standardized target) from 4 features" said the inputs were scaled), and the quote ends with it
    assert said("Predicting energy use (already standardized target) from 4 features") == ({"targets"}, set())
    assert said("I normalized the targets with the mean of the inputs") == ({"targets"}, set())
    assert scaled_said("(already standardized target) from 4 features")["scaled"] == {"targets": "standardized target"}
    unscaled = diagnosis("Linear regression by gradient descent. X is not scaled (sqft and year built).\n" + curve)
    inputs = next(m for m in unscaled.matches if m.entry.id == "WR-330")
    assert inputs.parts["unscaled-inputs"] == 1.0 and 'the inputs were not scaled ("X is not scaled")' in inputs.evidence[-1]


# ---- a softmax applied twice: the loss's floor ---------------------------------------------------

def _epochs(losses, accuracies) -> str:
    return "".join(f"Epoch {5 * i}/30 - loss: {v} - acc: {a}\n" for i, (v, a) in enumerate(zip(losses, accuracies)))


def test_a_loss_that_ends_just_above_the_softmax_twice_floor_at_high_accuracy_is_wr130s_fingerprint():
    """A cross-entropy on outputs already softmaxed cannot go below log(1 + (C - 1)/e), 1.4612 for ten classes
    (WR-130's Symptom); at 97% accuracy such a run was "healthy" (review_session28_numpy item 7)."""
    accuracy = ["0.7411", "0.9127", "0.9452", "0.9588", "0.9664", "0.9705", "0.9733"]
    d = diagnosis(_epochs(["2.2193", "1.6134", "1.5211", "1.4979", "1.4874", "1.4818", "1.4788"], accuracy))
    assert round(math.log(1 + 9 / math.e), 4) == 1.4612
    assert d.matches[0].entry.id == "WR-130" and d.matches[0].parts["softmax-floor"] == 2.0
    assert "= 1.4612 for C = 10 classes (the count whose floor lies nearest below the loss, and near whose ln C, " \
           "2.3026, the loss started (2.219)), beside an accuracy of 0.9733" in d.matches[0].evidence[0]
    # a class count the paste names decides the floor; a loss with more in it than a cross-entropy is not judged
    named = diagnosis("A CIFAR-100 ResNet.\n" + _epochs(["4.60", "3.9", "3.7", "3.66", "3.64", "3.63", "3.625"], accuracy))
    assert "C = 100 classes (the paste names CIFAR-100)" in named.matches[0].evidence[0]
    smoothed = "CIFAR-10, CrossEntropyLoss(label_smoothing=0.1).\n" + _epochs(
        ["2.2193", "1.6134", "1.5211", "1.4979", "1.4874", "1.4818", "1.4788"], accuracy)
    assert not any("softmax-floor" in m.parts for m in diagnosis(smoothed).matches)
    for other in ("CIFAR-10 with label smoothing 0.1.\n", "CIFAR-100, 100 classes.\n", "A binary classifier.\n"):
        near = other + _epochs(["1.95", "1.2", "0.9", "0.8", "0.76", "0.75", "0.7458"], accuracy)   # 4 classes' floor
        assert not any("softmax-floor" in m.parts for m in diagnosis(near).matches), other
    for losses, acc in ((["2.21", "1.62", "1.56", "1.54", "1.53", "1.52", "1.52"], accuracy),    # 3.1% above it
                        (["2.21", "1.60", "1.51", "1.49", "1.48", "1.48", "1.479"], ["0.31"] * 7),   # low accuracy
                        (["0.91", "0.31", "0.18", "0.12", "0.10", "0.09", "0.09"], accuracy)):      # a healthy one
        assert not any("softmax-floor" in m.parts for m in diagnosis(_epochs(losses, acc)).matches)


def test_the_floor_at_an_accuracy_counts_what_a_misclassified_example_costs_at_least():
    """Outputs already softmaxed: an example classified right costs at least log(1 + (C - 1)/e), one classified
    wrong at least log(2 sqrt(e) + C - 2) - 1/2 (a tie between its class and another). Checked against the loss
    itself on many random softmaxed outputs; a run at 97.31% accuracy ending at 1.4958, 2.4% above the plain
    floor, is within 2% of the floor at its accuracy, 1.4736 (review_session29_broad item 27: "no known failure")."""
    import numpy as np

    from trainwreck.softmax_floor import _floor_at, _floor_of, _wrong_floor_of

    rng = np.random.default_rng(0)
    for classes in (3, 10, 100):
        p = rng.dirichlet(np.full(classes, 0.3), size=20_000)
        p = np.vstack([p, np.eye(classes), np.r_[0.5 - 1e-9, 0.5 + 1e-9, np.zeros(classes - 2)][None]])
        loss = np.log(np.exp(p).sum(axis=1)) - p[:, 0]          # class 0 is the true one
        right = p.argmax(axis=1) == 0
        assert loss[right].min() >= _floor_of(classes) - 1e-12
        assert loss[~right].min() >= _wrong_floor_of(classes) - 1e-12
        assert loss[~right].min() == pytest.approx(_wrong_floor_of(classes), abs=1e-8)    # reached at the tie
    assert round(_floor_at(10, 0.9731), 4) == 1.4736 and round(_wrong_floor_of(10), 4) == 1.9246
    losses = ["2.2871", "1.9302", "1.7411", "1.6433", "1.5902", "1.5215", "1.5031", "1.4958"]
    acc = ["31.20%", "68.45%", "81.92%", "88.03%", "91.40%", "95.60%", "96.71%", "97.31%"]
    d = diagnosis("".join(f"Epoch [{e}/20] train loss: {v} train acc: {a}\n" for e, v, a in zip(
        (1, 2, 3, 4, 5, 10, 15, 20), losses, acc)))
    assert d.matches[0].entry.id == "WR-130"
    assert "at that accuracy no lower than 1.4736" in d.matches[0].evidence[0]


def test_a_regression_that_prints_an_accuracy_of_zero_is_no_classifier():
    """Keras prints `accuracy: 0.0000e+00` for a regression compiled with metrics=['accuracy']; one output unit
    (`Dense(1)`) says regression (review_session28_weighing item 4)."""
    from trainwreck.run_kind import REGRESSOR, classifier_shown
    lines = "".join(f"Epoch {e + 1}/3\n516/516 [====] - 1s 2ms/step - loss: 5.6e+10 - accuracy: 0.0000e+00\n"
                    for e in range(3))
    ev = diagnosis("House values.\n" + lines).evidence
    assert classifier_shown(ev) == ""
    assert REGRESSOR.search("model is Dense(64, relu) -> Dense(1)") and REGRESSOR.search("Predicting median_house_value")
    assert not REGRESSOR.search("predicting the class of each digit")


def test_labels_set_to_minus_one_and_an_input_that_prints_255_are_facts_of_the_data():
    """"I set y = -1 for the unlabelled rows" is WR-320's own phrase; `X.max()` printing 255 is raw pixels (WR-330),
    unless the paste divides by 255 (review_session28_numpy items 10, 11)."""
    curve = "".join(f"epoch {e} loss {2.3026 * 0.97 ** e:.4f}\n" for e in range(12))
    d = diagnosis("Some rows have no label so I set y = -1 for them. 10 classes.\n" + curve)
    labels = next(m for m in d.matches if m.entry.id == "WR-320")
    assert labels.parts["minus-one-labels"] == 1.0 and "(`y = -1`)" in labels.evidence[-1]
    flat = "".join(f"epoch {e} loss {2.3026 + 0.0003 * (e % 2):.4f}\n" for e in range(12))     # a plateau
    pixels = ">>> X_train.max()\n255.0\n" + flat
    inputs = next(m for m in diagnosis(pixels).matches if m.entry.id == "WR-330")
    assert inputs.parts["raw-pixels"] == 1.0 and "`X_train` as 255" in inputs.evidence[-1]
    # not where the paste scales the pixels, not a mask's 255, not beside a healthy curve (review_session28_last
    # items 7, 8, 11)
    for scaled in ("x_train /= 255\n", "x = (x - 127.5) / 127.5\n", "transforms.ToTensor()\n"):
        assert not any("raw-pixels" in m.parts for m in diagnosis(scaled + pixels).matches), scaled
    mask = ">>> img.max(), mask.max()\n(1.0, 255)\n" + flat
    assert not any("raw-pixels" in m.parts for m in diagnosis(mask).matches)
    assert not any("raw-pixels" in m.parts for m in diagnosis(">>> X_train.max()\n255.0\n" + curve).matches)
    # images read by OpenCV or PIL and made a tensor as they are (review_session36_blind q12), even beside an aside on
    # another pipeline's ToTensor(); not where this image or tensor is divided by 255, nor a mask's
    read = ("I load the images with cv2.imread and then\n    x = torch.tensor(img, dtype=torch.float32).permute(2, 0, 1)\n"
            "With torchvision's dataset (transforms.ToTensor()) the same net works.\n")
    assert weighed_parts(read + flat, "WR-330")["raw-pixels"] == 1.0
    for other in (read.replace("permute(2, 0, 1)", "permute(2, 0, 1) / 255.0"),
                  read.replace("x = torch.tensor(img", "mask = torch.tensor(target"),
                  read.replace("cv2.imread", "a loader")):
        assert "raw-pixels" not in weighed_parts(other + flat, "WR-330"), other
    # -1 in other roles (review_session28_last items 3-6)
    for other in ("lr 1e-1 then 1e-2.\n", "Padding tokens are labelled -1 and the loss uses ignore_index=-1.\n",
                  "An SVM with hinge loss, labels as -1 and +1: y = -1 for the negatives.\n",
                  "n_jobs was set to -1.\n", "Unlabelled rows are marked as -1 and dropped with y != -1.\n"):
        assert not any("minus-one-labels" in m.parts for m in diagnosis(other + curve).matches), other


def test_a_pasted_loop_that_never_clears_the_gradients_is_a_fact_for_the_accumulating_entry():
    """The loop is in the paste: backward(), step(), and no zero_grad() anywhere (review_session28_sweep item 34: WR-220
    alone was named)."""
    loop = ("for x, y in loader:\n    out = model(x)\n    loss = criterion(out, y)\n    loss.backward()\n"
            "    optimizer.step()\n")
    curve = "".join(f"epoch {e} loss {v}\n" for e, v in enumerate(["0.65", "0.40", "0.34", "0.50", "0.92", "1.88",
                                                                   "4.22", "11.7", "35.1", "nan"]))
    d = diagnosis(loop + curve)
    piles = next(m for m in d.matches if m.entry.id == "WR-260")
    assert piles.parts["never-cleared"] == 1.0 and any("clears the gradients nowhere in the paste" in e
                                                       for e in piles.evidence)
    for clear in ("    optimizer.zero_grad()\n", "    for p in model.parameters(): p.grad.data.zero_()\n"):
        cleared = loop.replace("    out = model(x)", clear + "    out = model(x)")
        assert not any("never-cleared" in m.parts for m in diagnosis(cleared + curve).matches), clear
    # beside a healthy curve the code's excerpt diagnoses nothing (review_session28_last item 1)
    healthy = "".join(f"epoch {e} loss {2.3 * 0.9 ** e:.4f}\n" for e in range(12))
    assert diagnosis(loop + healthy).verdict == "healthy"
    # a loop quoted on one line, and Lightning's manual optimisation (review_session36_blind q28, s34f q30)
    for quoted in ("the loop is `for x, y in loader: loss = crit(model(x), y); loss.backward(); opt.step()`.\n",
                   "    self.manual_backward(loss)\n    opt.step()\n"):
        assert weighed_parts(quoted + curve, "WR-260")["never-cleared"] == 1.0, quoted
        assert "never-cleared" not in weighed_parts(quoted + "opt.zero_grad()\n" + curve, "WR-260"), quoted


def test_a_whole_pasted_loop_that_never_clears_the_gradients_makes_a_climb_the_accumulating_entrys_face():
    """A new user's review (ux_review_s64, 5): the whole loop pasted, its `for` line and the block under it calling
    backward() and step() with nothing clearing the gradients, and a loss that climbs to nan after a brief fall: WR-220
    was named first, its fix "cut the learning rate", above WR-260's "keep the learning rate you had". The loop shown
    is the one that ran; an excerpt of two lines may have left the clearing out, and stays half a fact."""
    loop = ("for x, y in loader:\n    out = model(x)\n    loss = criterion(out, y)\n    loss.backward()\n"
            "    optimizer.step()\n")
    climb = "".join(f"step {50 * i} loss {v}\n" for i, v in enumerate(["2.301", "2.107", "2.412", "4.977", "31.02", "nan"]))
    d = diagnosis(loop + climb)
    assert [m.entry.id for m in d.matches[:2]] == ["WR-260", "WR-220"]
    assert weighed_parts(loop + climb, "WR-260")["curve"] == weighed_parts(loop + climb, "WR-220")["curve"]
    excerpt = "    loss.backward()\n    optimizer.step()\n"
    assert diagnosis(excerpt + climb).matches[0].entry.id == "WR-220"
    assert "curve" not in weighed_parts(excerpt + climb, "WR-260")
    # a loop whose block clears them is no fact at all
    cleared = loop.replace("    out = model(x)", "    optimizer.zero_grad()\n    out = model(x)")
    assert diagnosis(cleared + climb).matches[0].entry.id == "WR-220"
    # a sentence that ends in a colon is no loop line (code_review_s64 3), and a call of the user's that may clear them
    # out of sight leaves the excerpt half a fact
    for said in ("My loop, cut down to the lines that matter\nfor this question:\n",
                 "I checked the gradients and the loss\nwhile training, my update is:\n"):
        assert "curve" not in weighed_parts(said + excerpt + climb, "WR-260"), said
    hidden = loop.replace("    out = model(x)", "    reset_gradients(model)\n    out = model(x)")
    assert "curve" not in weighed_parts(hidden + climb, "WR-260")
    for said in ("for each batch in the loader:\n", "for every step in training I do:\n"):
        assert "curve" not in weighed_parts(said + excerpt + climb, "WR-260"), said
    # a loop pasted from Windows, a condition with `and not`, and a state built with torch.zeros (no clearing)
    assert weighed_parts((loop + climb).replace("\n", "\r\n"), "WR-260")["curve"] == 3.0
    state = loop.replace("    out = model(x)", "    h = torch.zeros(1, 32)\n    out = model(x)")
    assert weighed_parts(state + climb, "WR-260")["curve"] == 3.0
    for header in ("while True:\n", "while step < max_steps:\n", "for i, (x, y) in enumerate(loader):  # batches\n",
                   "while step < n and not stop:\n"):
        assert weighed_parts(loop.replace("for x, y in loader:\n", header) + climb, "WR-260")["curve"] == 3.0, header


def test_gradient_accumulation_with_undivided_losses_is_the_accumulating_entry_with_its_own_fix():
    """(review_session36_final f36) A loop that steps once every k micro-batches and divides no loss by k steps SGD with k
    times the mean gradient: k times the rate. The climb is that construct's face: the accumulating entry comes first,
    with the fix its page gives for accumulation on purpose (divide by k), not its first one."""
    from trainwreck.gradient_clearing import accumulated_undivided

    loop = ("optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)\n"
            "for step, (x, y) in enumerate(loader):\n    loss = loss_fn(model(x), y)\n    loss.backward()\n"
            "    if (step + 1) % grad_accum == 0:\n        optimizer.step()\n        optimizer.zero_grad()\n")
    curve = "".join(f"step {100 * i} loss {v}\n" for i, v in enumerate(["3.12", "3.05", "3.30", "5.10", "11.9", "37.5",
                                                                        "nan", "nan"]))
    d = diagnosis(loop + curve)
    top = d.matches[0]
    assert top.entry.id == "WR-260" and "WR-220" in [m.entry.id for m in d.matches[1:3]]
    assert (top.parts["accumulated-undivided"], top.parts["curve"]) == (1.0, 3.0)    # the construct, the climb its face
    assert "stepping once every `grad_accum` micro-batches, and divides no loss by `grad_accum`" in top.evidence[0]
    assert top.fix.startswith("Divide each micro-batch's loss by `grad_accum` before backward() "
                              "(`loss = loss / grad_accum`)")
    # divided, by the count's name or its number, or by Accelerate's backward(): no fact
    assert accumulated_undivided(loop) == "grad_accum"
    for divided in (loop.replace("loss.backward()", "(loss / grad_accum).backward()"),
                    loop.replace("    loss.backward()", "    loss /= grad_accum\n    loss.backward()"),
                    loop.replace("% grad_accum", "% 8").replace("    loss.backward()", "    loss = loss / 8\n    loss.backward()"),
                    loop.replace("loss.backward()", "accelerator.backward(loss)")):
        assert accumulated_undivided(divided) == "", divided
    # not accumulation: a scheduler stepped every k batches, a print every k steps above a step taken every time
    assert accumulated_undivided(loop.replace("optimizer.step()", "scheduler.step()")) == ""
    every = ("for i, (x, y) in enumerate(loader):\n    loss = crit(model(x), y)\n    loss.backward()\n"
             "    if i % 100 == 0:\n        print(loss.item())\n    optimizer.step()\n    optimizer.zero_grad()\n")
    assert accumulated_undivided(every) == ""
    # (a printed mean divided by the count is no divided loss: review_session37_final f29)
    assert accumulated_undivided(loop + "        print(running / grad_accum)\n") == "grad_accum"
    # (a floor division by the count is a count of steps, not a divided loss)
    assert accumulated_undivided(loop + "sched = CosineAnnealingLR(optimizer, T_max=len(loader) // grad_accum)\n") \
        == "grad_accum"
    # Adam divides each gradient by its own running size: the sum steps about as the mean does, no fact
    adam = loop.replace("torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)", "torch.optim.Adam(model.parameters())")
    assert "accumulated-undivided" not in weighed_parts(adam + curve, "WR-260")
    # beside a healthy curve, nothing
    healthy = "".join(f"step {100 * i} loss {3.1 * 0.9 ** i:.4f}\n" for i in range(12))
    assert diagnosis(loop + healthy).verdict == "healthy"


def test_gradients_cleared_once_before_the_batch_loop_are_the_accumulating_entry():
    """(review_session37_blind q12) `optimizer.zero_grad()` once per epoch, before a batch loop that calls backward() and
    step() on every batch: every step carries all the gradients before it in the epoch. The climb is its face."""
    from trainwreck.gradient_clearing import cleared_outside

    loop = ("for epoch in range(20):\n    opt.zero_grad()\n    for xb, yb in loader:\n        out = net(xb)\n"
            "        loss = F.cross_entropy(out, yb)\n        loss.backward()\n        opt.step()\n")
    curve = "".join(f"batch {100 * i} loss {v}\n" for i, v in enumerate(["1.61", "1.02", "0.70", "0.66", "0.93", "1.71",
                                                                         "4.40", "nan"]))
    d = diagnosis(loop + curve)
    assert d.matches[0].entry.id == "WR-260" and (d.matches[0].parts["cleared-outside"], d.matches[0].parts["curve"]) == \
        (1.0, 3.0)
    assert "clears the gradients only before `for xb, yb in loader:`, whose body calls" in d.matches[0].evidence[0]
    assert cleared_outside(loop) == "for xb, yb in loader:"
    # cleared in the batch loop too, or stepped only where it is cleared (accumulation on purpose): no fact
    inner = loop.replace("        out = net(xb)", "        opt.zero_grad()\n        out = net(xb)")
    accumulates = loop.replace("        opt.step()\n", "        if i % 4 == 0:\n            opt.step()\n"
                                                        "            opt.zero_grad()\n")
    for fine in (inner, accumulates):
        assert cleared_outside(fine) == "", fine
    healthy = "".join(f"batch {100 * i} loss {1.6 * 0.9 ** i:.4f}\n" for i in range(12))
    assert diagnosis(loop + healthy).verdict == "healthy"


def test_a_step_the_words_say_was_fine_is_not_when_the_failure_showed():
    """"The loss at iteration 0 is fine but from iteration 1 everything is nan" said "from the first values"
    (review_session28_numpy item 18)."""
    assert when("The loss at iteration 0 is fine but from iteration 1 everything is nan.") == {"early"}
    assert when("at step 0 the loss is nan") == {"start"} and when("around step 1300 it goes nan") == {"later"}


# ---- NumPy's warnings in the order it printed them ---------------------------------------------

SOFTMAX_CURVE = [("0", "2.1023"), ("1", "1.2044"), ("2", "0.8123"), ("3", "0.6552"), ("4", "0.5871")]
OVERFLOW = ("softmax.py:12: RuntimeWarning: overflow encountered in exp\n  e = np.exp(z)\n"
            "softmax.py:13: RuntimeWarning: invalid value encountered in divide\n"
            "  return e / e.sum(axis=1, keepdims=True)\n")


def _printed(curve, after: int, warnings: str, nans: int = 3) -> str:
    head = "".join(f"{e} {v}\n" for e, v in curve)
    return head + warnings + "".join(f"{after + i} nan\n" for i in range(nans))


def test_an_overflow_before_a_nan_that_no_entry_of_the_curve_prints_names_the_overflow():
    """A NumPy softmax whose loss fell and then went nan right after `overflow encountered in exp`: the fell-then-nan
    shape's entries (a log of zero, a bad batch, a nan gradient) print no overflow, so the overflow, a messages-only
    entry's own message, names the mechanism (stop 28's open regression: WR-030 came first on the curve alone)."""
    d = diagnosis(_printed(SOFTMAX_CURVE, 5, OVERFLOW))
    assert [m.entry.id for m in d.matches[:2]] == ["WR-020", "WR-030"]
    assert d.matches[0].parts["messages"] > 1.0 + 2.0 / 3      # its own message, and the lead for naming the birth
    # a climb's entry prints the overflow too (its weights grew until exp overflowed): the climb keeps the lead
    climb = [("0", "0.6931"), ("1", "0.5123"), ("2", "0.9123"), ("3", "4.1"), ("4", "38.2"), ("5", "412.7")]
    assert first(_printed(climb, 6, OVERFLOW)) == "WR-220"
    # an overflow printed only after the loss went nan (a second run's sigmoid) is no birth of that nan
    late = _printed(SOFTMAX_CURVE, 5, "") + OVERFLOW
    assert "WR-020" not in [m.entry.id for m in diagnosis(late).matches[:1]]
    # ... nor one printed before the last finite loss: a sigmoid's harmless overflow, 5 finite epochs before a silent
    # nan (review_session29_order item 09)
    early = OVERFLOW.split("softmax.py:13")[0] + _printed(SOFTMAX_CURVE, 5, "")
    assert first(early) != "WR-020"


def test_a_nan_numpy_reports_after_an_inf_it_reported_is_that_infs_consequence():
    """`invalid value encountered in divide` under `overflow encountered in exp` is inf / inf, not a 0 / 0 of
    WR-060's: it is no evidence for WR-060 (named first before); it stays evidence for the entries that print
    the inf too (WR-070's `invalid value encountered in subtract` after a float16 cast overflowed: -inf - -inf,
    review_session29_order item 16)."""
    from_start = OVERFLOW + "".join(f"{e} nan\n" for e in range(4))
    d = diagnosis(from_start)
    assert d.matches[0].entry.id != "WR-060"
    assert "messages" not in weighed_parts(from_start, "WR-060")
    alone = "norm.py:8: RuntimeWarning: invalid value encountered in divide\n  x = x / x.std()\n" + \
        "".join(f"{e} nan\n" for e in range(4))
    assert next(m for m in diagnosis(alone).matches if m.entry.id == "WR-060").parts["messages"] > 0
    cast = ("attn.py:41: RuntimeWarning: overflow encountered in cast\n  mask = mask.astype(np.float16)\n"
            "attn.py:47: RuntimeWarning: invalid value encountered in subtract\n  s = scores - scores.max()\n")
    d = diagnosis(cast + "".join(f"step {k} loss nan\n" for k in range(0, 40, 10)))
    assert d.matches[0].entry.id == "WR-070" and d.verdict == "failure"
    assert any("invalid value encountered in subtract" in e for e in d.matches[0].evidence)


def test_a_short_run_whose_loss_froze_from_its_first_prints_is_judged():
    """Six epochs, the last four all 2.30101: too few values for a plateau (10), it was "no known failure"
    (review_session29_broad items 12, 13). Frozen to every printed digit with four or more significant digits, the
    run is judged, as a faint shape that names no entry alone; its ask is a check, not a nan's op (none went nan)."""
    zero = [("1", "2.301712"), ("2", "2.301015")] + [(str(e), "2.301010") for e in range(3, 7)]
    d = diagnosis("class Net(nn.Module):\n" + "".join(f"Epoch: {e} \tTraining Loss: {v}\n" for e, v in zero))
    assert d.signature.name == "plateau-from-start" and d.signature.weak and d.verdict == "uncertain"
    assert "its last 4 values (epoch 3 to epoch 6) are all 2.30101, the same to every printed digit" in \
        d.signature.facts[0]
    assert d.matches[0].entry.id == "WR-110" and "anomaly" not in d.ask and "the result of this check" in d.ask
    keras = "".join(f"Epoch {e}/5\n1875/1875 [====] - 3s 2ms/step - loss: {v} - accuracy: 0.1124\n"
                    for e, v in enumerate(["3.4817", "2.3013", "2.3013", "2.3013", "2.3013"], 1))
    d = diagnosis(keras)
    assert d.signature.name == "stall-after-drop" and d.verdict == "uncertain"
    # rounding that could hide movement, a loss still moving, a loss at zero: not judged
    for values in (["0.71", "0.69", "0.69", "0.69", "0.69", "0.69"], ["2.31", "2.2", "2.1013", "2.1012", "2.1011", "2.101"],
                   ["0.5", "0.0001", "0.0001", "0.0001", "0.0001"]):
        d = diagnosis("".join(f"epoch {e} loss {v}\n" for e, v in enumerate(values, 1)))
        assert d.signature.name == "healthy" and d.verdict == "healthy", values


def test_a_large_start_that_did_not_fall_is_not_answered_as_normal():
    """"Loss is huge (3.9e10) and does not decrease": the normal answer, "a loss that starts high and falls is
    healthy", was given to a loss that fell 0.04% (review_session29_broad item 15); a huge start that falls keeps it."""
    lines = lambda values: "".join(f"Epoch {e}/100\n37/37 [====] - 0s 3ms/step - loss: {v}\n" for e, v in values)
    words = "Keras regression loss is huge and does not decrease. Predicting house prices with mse.\n"
    stuck = diagnosis(words + lines([(1, "39248105472.0"), (2, "39248076800.0"), (3, "39248019456.0"),
                                     (99, "39231234048.0"), (100, "39231062016.0")]))
    # (WR-360 first: a regression's enormous first loss that never halved is its printed fact, and five values over
    # 100 epochs that never moved are the plateau its page declares as its second face, where such targets are shown)
    assert stuck.verdict == "failure" and stuck.normal == [] and stuck.matches[0].entry.id == "WR-360"
    assert stuck.signature.name == "plateau-from-start"
    falls = diagnosis("My loss is huge at the start, is that normal?\n" + lines(
        [(1, "39248105472.0"), (2, "9248076800.0"), (3, "1248019456.0"), (4, "248019456.0"), (5, "48019456.0")]))
    assert falls.verdict == "normal" and falls.normal[0].name == "a large loss at the start"


def test_a_named_entry_lists_past_its_runners_up_only_entries_with_evidence_of_their_own():
    """A confident WR-060 from the first epoch listed 13 candidates, ten of them with only the shape every
    from-the-start entry shares, the same sentence each time (review_session29_broad item 25)."""
    d = diagnosis("prep.py:31: RuntimeWarning: invalid value encountered in divide\n"
                  "  X = (X - X.mean(axis=0)) / X.std(axis=0)\n"
                  + "".join(f"Epoch {e}/50 - loss: nan - acc: 0.2012\n" for e in (1, 2, 3)))
    assert d.verdict == "failure" and d.matches[0].entry.id == "WR-060"
    # (and past the first three, none whose only evidence is the message the named entry shows as well)
    assert all(m.parts.get("messages", 0) > 0 for m in d.matches[3:]) and len(d.matches) <= 3


def test_a_paste_that_compares_a_broken_run_with_a_working_one_reads_the_broken_one():
    """"step 0 2.3047, step 1-4 nan" then, after a line of words, "step 0 2.3041 ... 1.9987" without .half(): the
    working run was appended as "5 finite values later" (a run that left off non-finite left off nowhere: back near
    its start, the loss starts again). Adam in float16 breaks right after its first update (WR-040's Symptom), and a
    loop that clears the gradients beside backward() counts against WR-260, whose words "zero_grad" matched
    (review_session29_broad item 09)."""
    loop = ("model = MyNet().cuda().half()\noptimizer = torch.optim.Adam(model.parameters(), lr=1e-3)\n"
            "for step, (x, y) in enumerate(loader):\n    optimizer.zero_grad()\n    loss.backward()\n"
            "    optimizer.step()\n")
    broken = "".join(f"step {k} loss: {v}\n" for k, v in enumerate(["2.3047", "nan", "nan", "nan", "nan"]))
    fine = "".join(f"step {k} loss: {v}\n" for k, v in enumerate(["2.3041", "2.2210", "2.1302", "2.0815", "1.9987"]))
    d = diagnosis("Model works in fp32, but with model.half() loss becomes nan after the first step\n" + loop
                  + broken + "\nWithout .half():\n" + fine)
    assert d.evidence.runs.startswith("2 runs") and "run 1, the first whose loss turned non-finite" in d.evidence.runs
    assert d.matches[0].entry.id == "WR-040"
    assert weighed_parts("Model works in fp32, but with model.half() loss becomes nan after the first step\n" + loop
                         + broken, "WR-260")["cleared"] == -1.0
    once = "optimizer.zero_grad()\nfor x, y in loader:\n    loss.backward()\n    optimizer.step()\n"
    assert not any("cleared" in m.parts for m in diagnosis(once + broken).matches)
    from trainwreck.gradient_clearing import CLEARED_EACH_STEP
    assert CLEARED_EACH_STEP.search(loop) and not CLEARED_EACH_STEP.search(once)
    after = "for x, y in loader:\n        loss.backward()\n        optimizer.step()\n        optimizer.zero_grad()\n"
    assert CLEARED_EACH_STEP.search(after)


def test_the_session_changes_regressions_stay_fixed():
    """review_session29_changes: each of its regressions, as a general case."""
    from trainwreck.run_kind import shown_frameworks

    # the CIFAR tutorial's pair printed once an epoch at one count starts at the run's start (63, 14)
    flat = diagnosis("".join(f"[{e}, 12500] loss: 2.303\n" for e in range(1, 11)))
    assert flat.signature.name == "plateau-from-start"
    # a loss frozen far below its start converged (40, 71); one frozen while the accuracy rose is not judged (41)
    for values in (["0.9812", "0.2513", "0.251346", "0.251346", "0.251346", "0.251346"],
                   ["0.0312", "1.1921e-07", "1.1921e-07", "1.1921e-07", "1.1921e-07", "1.1921e-07"]):
        assert diagnosis("".join(f"epoch {e} loss {v}\n" for e, v in enumerate(values, 1))).verdict == "healthy"
    rising = "".join(f"Epoch {e} | loss 1.0986 | acc {a}\n" for e, a in enumerate(
        ["0.412", "0.487", "0.533", "0.571", "0.598", "0.620"], 1))
    assert diagnosis(rising).signature.name == "healthy"
    # Flax's nn.relu and TensorFlow's tf.nn.softmax are not PyTorch's (25, 70)
    for code in ("x = nn.Dense(128)(x)\nx = nn.relu(x)\n", "probs = tf.nn.softmax(logits)\n"):
        assert "pytorch" not in shown_frameworks(diagnosis(code + "epoch 1 loss nan\n").evidence), code
    # an invalid value after an overflow in another op of an entry's own (square, then reduce's) still counts for it
    # (04: WR-330, the features on their raw scale, left the candidates)
    lines = "".join(f"iteration {i}: cost {v}\n" for i, v in enumerate(
        ["3.9123e+10", "6.1871e+14", "9.7845e+18", "1.5474e+23", "2.4471e+27", "3.8701e+31"]))
    warn = ("gd.py:22: RuntimeWarning: overflow encountered in square\n  cost = np.sum((X @ w - y) ** 2)\n"
            "gd.py:25: RuntimeWarning: invalid value encountered in subtract\n  w = w - alpha * grad\n")
    d = diagnosis("Linear regression by batch gradient descent on house prices (sqft, bedrooms, age), alpha=0.01.\n"
                  + lines + warn + "iteration 6: cost inf\niteration 7: cost nan\n")
    assert next(m for m in d.matches if m.entry.id == "WR-330").parts["messages"] > 0
    # the deciding check quotes the entry's first list item whole, without the snippet's own numbers (46)
    from trainwreck.diagnose import _confirm_question
    asked = _confirm_question(CATALOG.entries["WR-360"])
    assert "mean² + variance says the output starts far from the targets' scale" in asked and "here" not in asked


def test_the_second_broad_reviews_false_sentences_stay_gone():
    """review_session29_broad2: anomaly mode was said to print messages it never prints (an lr_scheduler warning,
    clip_grad_norm_'s error: f09, f19); "it never learned" beside an accuracy rising 83% to 97% (f22); the overfitting
    answer, "the validation loss rises", for the word "overfitting" beside a validation loss that fell (h06); a
    regression's run with WR-130, a loss handed probabilities, among its candidates (f15)."""
    trainer = "".join(f"{{'loss': {v}, 'grad_norm': {g}, 'learning_rate': 9.9e-05, 'epoch': {e}}}\n" for v, g, e in
                      [("2.1924", "1.8731", "0.01"), ("0.0", "nan", "0.01"), ("0.0", "nan", "0.02"), ("0.0", "nan", "0.03")])
    d = diagnosis("t5-large with the Trainer and --fp16: the loss becomes 0.0 with grad_norm nan.\n" + trainer)
    assert d.verdict == "uncertain" and "set_detect_anomaly" in d.ask
    assert "lr_scheduler.step()" not in d.ask and "cannot be clipped" not in d.ask
    lines = "".join(f"Epoch {e} loss: {v} train acc: {a}%\n" for e, v, a in zip(
        range(1, 13), ["1.6412", "1.5770", "1.5541", "1.5402", "1.5298", "1.5211", "1.5140", "1.5080", "1.5030",
                       "1.4990", "1.4950", "1.4920"], ["83.1", "88.6", "90.8", "92.2", "93.2", "94.1", "94.8", "95.4",
                                                      "95.9", "96.3", "96.7", "97.0"]))
    fact = diagnosis(lines).signature.facts[0]
    assert "never learned" not in fact and "the accuracy printed beside it rose, from 83.1% to 97%" in fact
    gap = "".join(f"{e}  {t}  {v}  0.9  00:10\n" for e, (t, v) in enumerate(
        [("0.5012", "0.2885"), ("0.4120", "0.2601"), ("0.3721", "0.2390"), ("0.3402", "0.2205"), ("0.3190", "0.2078")]))
    h06 = diagnosis("Is my model overfitting? Train loss is higher than valid loss.\n"
                    "epoch  train_loss  valid_loss  accuracy  time\n" + gap)
    assert not any(n.name.startswith("overfitting") for n in h06.normal)
    stuck = "".join(f"Iteration {i}, loss = {1.952e10 * (1 - 0.0005 * i):.8f}\n" for i in range(1, 13))
    assert not any(m.entry.id == "WR-130" for m in diagnosis("MLPRegressor on house prices.\n" + stuck).matches)


def test_the_later_reviews_regressions_stay_fixed():
    """review_session29_later: half precision said to be off ("fp16=False", "not using fp16") counts against WR-040,
    which the new "right after the first update" timing had put first (b07); a commented-out zero_grad() clears
    nothing (p_c06w); "it only slows things down" is no failure put off (p_f06); a validation loss that "goes up and
    down" is no overfitting (p_o07)."""
    from trainwreck.gradient_clearing import CLEARED_EACH_STEP
    from trainwreck.precision_said import half_precision_denied
    from trainwreck.normals import normals_asked

    steps = "".join(f"step {k}: loss {v}\n" for k, v in enumerate(["0.6934", "nan", "nan", "nan", "nan"]))
    for off in ("Even with fp16 turned off (fp16=False, everything float32) my loss is nan right after the first step.",
                "I am not using fp16 or AMP, everything is float32, and the loss is nan after the first step."):
        assert half_precision_denied(off), off
        d = diagnosis(off + "\n" + steps)
        assert d.matches[0].entry.id != "WR-040"
        assert weighed_parts(off + "\n" + steps, "WR-040")["precision"] == -1.0
    assert not half_precision_denied("Trained with fp16, the loss is nan.")
    # ... nor a setting said off in a contrast that the run works so (review_session29_last h13)
    assert not half_precision_denied("With fp16=False everything trains fine.")
    assert not CLEARED_EACH_STEP.search("for x, y in loader:\n    # optimizer.zero_grad()\n    loss.backward()\n")
    assert lr_tried("I lowered the lr to 1e-4, it only slows things down, the loss stays at 2.30") != "delayed"
    assert not any(n.name.startswith("overfitting") for n in normals_asked("my val_loss goes up and down, why?"))
    assert any(n.name.startswith("overfitting") for n in normals_asked("my val_loss goes up after epoch 5, why?"))


def test_a_pasted_keras_softmax_and_cross_entropy_pairing_is_read():
    """A Keras model ending in a softmax, compiled with 'sparse_categorical_crossentropy' (from_logits False by
    default), pairs them as Keras expects: WR-130 came first on its words alone for raw pixels stuck at ln 10
    (review_session29_changes item 22); told from_logits=True, the same model hands probabilities over as logits."""
    model = ("model = keras.Sequential([layers.Flatten(), layers.Dense(512, activation='sigmoid'),\n"
             "                          layers.Dense(10, activation='softmax')])\n"
             "model.compile(optimizer='sgd', loss='sparse_categorical_crossentropy', metrics=['accuracy'])\n")
    flat = "".join(f"Epoch {e}/12\n782/782 [====] - 5s 7ms/step - loss: {v} - accuracy: 0.0995\n"
                   for e, v in enumerate(["2.3121", "2.3046", "2.3042", "2.3039", "2.3037", "2.3036", "2.3035",
                                          "2.3034", "2.3034", "2.3033", "2.3033", "2.3032"], 1))
    d = diagnosis("Pixel values 0..255, accuracy stays at 10%.\n" + model + flat)
    assert d.matches[0].entry.id != "WR-130"
    # (WR-130 is no longer listed at all: its flat curve does not count beside an accuracy that never moved either)
    assert weighed_parts("Pixel values 0..255, accuracy stays at 10%.\n" + model + flat, "WR-130")["pairing"] == -1.0
    told = diagnosis(model.replace("loss='sparse_categorical_crossentropy'",
                                   "loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True)") + flat)
    assert next(m for m in told.matches if m.entry.id == "WR-130").parts["pairing"] == 1.0
    # on the TensorFlow backend Keras hands the loss the logits its softmax kept, and warns: repaired there, no evidence
    # (keras/src/backend/tensorflow/nn.py _get_logits at v3.15.1; fact-checked, review_session41 factcheck claim 7)
    # (weighed whether or not it is listed: beside an accuracy that never moved, its flat curve counts for nothing)
    parts, _evidence, against = weighed("import tensorflow as tf\n" + model.replace(
        "loss='sparse_categorical_crossentropy'", "loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True)")
        + flat, "WR-130")
    assert "pairing" not in parts and any("repaired there" in a for a in against)
    # a softmax inside the model with a Dense logits head last, and from_logits named in a sentence of something
    # tried, are neither (review_session29_last k04, k08)
    inner = model.replace("layers.Dense(10, activation='softmax')", "layers.Dense(200, activation='softmax'), "
                                                                      "layers.Dense(10)")
    said = "I already tried loss=CategoricalCrossentropy(from_logits=True), same thing.\n" + model
    for text in (inner, said):
        assert not any("pairing" in m.parts and m.parts["pairing"] > 0 for m in diagnosis(text + flat).matches)
    assert not any("pairing" in m.parts for m in diagnosis(inner + flat).matches)


def test_half_precision_switched_on_beside_a_nonfinite_curve_is_a_suspect():
    """review_session29_broad2 f11: a detector's log that says AMP is on ("AMP: checks passed") and prints nan from
    its first epoch left WR-040 out of the candidates: its words count for little beside a curve, and the prior
    that puts it first is given to words-only reports. Shown switched on, it counts as much as a fact said; not a
    bare "half", nor bfloat16, nor where a declared message says more, nor for a run that never broke."""
    from trainwreck.thesaurus import tokens
    from trainwreck.precision_said import half_precision_shown

    epochs = "".join(f"Epoch {e}/20 - loss: nan - acc: 0.0000\n" for e in range(1, 6))
    on = "AMP: running Automatic Mixed Precision (AMP) checks...\nAMP: checks passed\n"
    assert weighed_parts(on + epochs, "WR-040")["precision"] == 1.0
    assert diagnosis(on + epochs).matches[0].entry.id == "WR-040"
    assert "precision" not in weighed_parts(epochs, "WR-040")
    for text in ("In the second half of training the loss is nan.", "trained in bf16, the loss is nan",
                 "I am not using amp or fp16, the loss is nan"):
        assert half_precision_shown(text, tokens(text)) == "", text
    assert half_precision_shown("trainer = Trainer(precision=16)", tokens("trainer = Trainer(precision=16)")) \
        == "precision=16"
    healthy = "".join(f"Epoch {e}/20 - loss: {2.3 / e:.4f} - acc: 0.5\n" for e in range(1, 6))
    assert "precision" not in weighed_parts(on + healthy, "WR-040")
    # NumPy's cast overflow is WR-040's own message: the setting adds nothing beside it
    cast = "RuntimeWarning: overflow encountered in cast\n"
    assert "precision" not in weighed_parts("x = x.astype(np.float16)  # fp16\n" + cast + epochs, "WR-040")


def test_a_number_past_exps_limit_handed_to_exp_or_a_hand_written_softmax_counts_for_wr020():
    """review_session29_broad2 f26: "my handwritten softmax returns [nan nan nan] for softmax(np.array([1000., 1001.,
    1002.]))" put WR-030 first on the words ("handwritten"). The call itself shows the mechanism: exp(x) overflows
    above log(largest float), and the limits the fact quotes are NumPy's own."""
    import numpy as np

    from trainwreck.exp_limits import EXP_LIMITS

    for name, dtype in (("float64", np.float64), ("float32", np.float32)):
        limit = EXP_LIMITS[name]
        assert abs(limit - float(np.log(np.finfo(dtype).max))) < 1e-5
        with np.errstate(over="ignore"):
            assert np.isinf(np.exp(dtype(limit * (1 + 1e-6)))) and np.isfinite(np.exp(dtype(limit * (1 - 1e-6))))
    text = ("My handwritten softmax in numpy returns [nan nan nan] when the inputs are big, e.g. "
            "softmax(np.array([1000., 1001., 1002.])). For small inputs it's correct.")
    part = weighed_parts(text, "WR-020")
    assert part["exp-overflow"] == 1.0
    assert diagnosis(text).matches[0].entry.id == "WR-020"
    assert "exp(1002) is past the largest float64" in " ".join(diagnosis(text).matches[0].evidence)
    # 100 overflows float32's exp (PyTorch's default), not NumPy's float64; a library's softmax subtracts the max
    assert "exp-overflow" in weighed_parts("torch.exp(torch.tensor(100.)) gives inf", "WR-020")
    assert "exp-overflow" not in weighed_parts("torch.exp(torch.tensor(100., dtype=torch.float64))", "WR-020")
    for quiet in ("np.exp(100.) gives a big number", "np.exp(-1000.) is 0", "F.softmax(torch.tensor([1000., 0.]))",
                  "scipy.special.softmax([1000., 0.])", "stable_softmax(np.array([1000., 0.]))"):
        assert "exp-overflow" not in weighed_parts(quiet, "WR-020"), quiet


def test_a_regressions_enormous_first_loss_that_never_halved_is_raw_targets():
    """review_session29_broad2 f15: MLPRegressor's `Iteration 1, loss = 19518234801.44` barely moving left WR-360 out
    of the candidates (a plateau is the zero-init and softmax entries' shape). A squared error that large while the
    outputs are near 0 takes targets of its root's size; not a classifier. A climb from there is WR-360's own symptom
    under plain gradient descent (review_session31_final f11), but not where the words say the inputs were raw."""
    iterations = "".join(f"Iteration {i}, loss = {19518234801.44 - 7e6 * i:.2f}\n" for i in range(1, 13))
    text = "MLPRegressor on house prices, features through StandardScaler. The loss barely moves.\n" + iterations
    assert weighed_parts(text, "WR-360")["raw-targets"] == 2.0
    assert diagnosis(text).matches[0].entry.id == "WR-360"
    assert any("`MLPRegressor`" in e and "1.397e+05 (its root)" in e for e in diagnosis(text).matches[0].evidence)
    climb = "".join(f"epoch {e} loss {2.7e4 * 10 ** (3 * e):.3e}\n" for e in range(8))
    assert "raw-targets" not in weighed_parts("Linear regression on raw features, lr 0.1\n" + climb, "WR-360")
    assert "raw-targets" not in weighed_parts(iterations, "WR-360")
    scaled = "MSE regression on house prices, the features through StandardScaler, SGD lr 0.01\n"
    assert weighed_parts(scaled + climb, "WR-360")["raw-targets"] == 2.0
    assert diagnosis(scaled + climb).matches[0].entry.id == "WR-360"
    # (factcheck_session32 claim 4) a linear model's stable rate does not depend on the targets, and Adam's step does
    # not grow with the gradient: a climb there is no mark of raw targets
    for other in (scaled.replace("MSE regression", "Linear regression"), scaled.replace("SGD", "Adam")):
        assert "raw-targets" not in weighed_parts(other + climb, "WR-360"), other
    assert weighed_parts(scaled.replace("SGD", "Adam") + iterations, "WR-360")["raw-targets"] == 2.0   # sits high


def test_a_frozen_loss_may_flicker_in_its_last_printed_digit():
    """review_session29_broad2 f21: a Keras run that jumped to 1.0874 and then printed 0.5624, 0.5623, 0.5623, 0.5623,
    0.5623 was "too few values to judge": the frozen tail had to print the very same value. One unit of the last
    printed digit is no movement; a loss that jumped before it froze stalled (WR-140), it did not plateau."""
    from trainwreck.curve_shape import _last_digit_unit

    assert _last_digit_unit(0.5623) == 1e-4 and _last_digit_unit(4.071e10) == 1e7
    assert _last_digit_unit(2.0) == 0.0 and _last_digit_unit(0.69) == 0.0     # too coarse to call a flicker
    keras = lambda values: "".join(f"Epoch {e}/30\n250/250 [====] - 0s 2ms/step - loss: {v} - accuracy: 0.75\n"
                                   for e, v in enumerate(values, 1))
    d = diagnosis(keras(["0.5311", "1.0874", "0.5624", "0.5623", "0.5623", "0.5623", "0.5623"]))
    assert d.signature.name == "stall-after-drop" and d.matches[0].entry.id == "WR-140"
    assert "are all 0.5623, the same to within 0.0001" in d.signature.facts[0]
    # a slow descent moves by a unit at each step: only its last two values are within a unit of the last
    assert diagnosis(keras(["0.5311", "0.5630", "0.5627", "0.5626", "0.5625", "0.5624", "0.5623"])).verdict == "healthy"
    flat = diagnosis(keras(["0.5631", "0.5624", "0.5623", "0.5624", "0.5623", "0.5623", "0.5623"]))
    assert flat.signature.name == "plateau-from-start"


def test_a_negative_of_something_else_is_no_loss_below_zero():
    """review_session30_broad h08, c24, p40, p41: "510 negatives per positive", "512 negative samples", "false
    negatives", "the negative class" made a healthy log WR-320's ("the loss goes below zero: impossible with valid
    targets") or the negative-loss normal. Only the word tied to the loss says it went below zero."""
    from trainwreck.run_said import says_failure
    from trainwreck.normals import NEGATIVE_SAID

    fell = "".join(f"epoch {e} loss {0.69 * 0.9 ** e:.4f}\n" for e in range(12))
    for other in ("InfoNCE with 510 negatives per positive, is the loss too high?",
                  "Contrastive loss over 512 negative samples.", "Recall is low: many false negatives.",
                  "Logistic regression, the negative class is 80% of the data."):
        assert not NEGATIVE_SAID.search(other) and not says_failure(other), other
        d = diagnosis(other + "\n" + fell)
        assert d.verdict == "healthy" and not d.normal, other
        assert "negative" not in weighed_parts(other + "\n" + fell, "WR-320")
    for said in ("my loss is negative", "NLL is negative, is that ok?", "Dice loss becomes negative after epoch 3",
                 "the loss keeps decreasing and goes below zero",
                 # (review_session30_changes a14, a16: the plural into the negatives, a dotted name in between)
                 "The BCE part of the loss dips into the negatives after a couple of epochs",
                 "My Gaussian NLL loss (mean and log-variance, torch.nn.GaussianNLLLoss) is negative after epoch 3"):
        assert NEGATIVE_SAID.search(said), said
    for other in ("the loss is above 5, my supervised runs go below 0.5", "loss: 0.31 for the negatives"):
        assert not NEGATIVE_SAID.search(other), other
    assert weighed_parts("BCE loss becomes negative after epoch 3.\n" + fell, "WR-320")["negative"] == 2.0


def test_a_finite_value_quoted_at_a_step_does_not_say_when_the_failure_showed():
    """review_session30_broad c24 (p39): "it was decreasing nicely before: 1.92 at step 0" made the report say the
    failure showed "after training for a while and from the first values" for a nan at step 3120. A value quoted at
    a step places that value; a nan or inf named there places the failure. (WR-050's own page, "prints 0.6656 at
    step 0 and nan from step 1", no longer gives it the start either: its forward pass is fine.)"""
    from trainwreck import diagnose as engine

    assert when("it was decreasing nicely: 1.92 at step 0, then nan at step 3120") == {"later"}
    assert when("the loss is nan at step 0") == {"start"}
    assert when("loss was 2.3 at step 5, then nan around step 900") == {"later"}
    assert "start" not in engine.weigher(CATALOG).timing["WR-050"]


def test_warnings_already_pasted_above_the_first_nan_are_not_asked_for_again():
    """review_session30_broad c03, c12: a NumPy paste with its `overflow encountered in exp` and `invalid value
    encountered in divide` printed above the first nan was asked to "paste the warnings or errors printed above the
    first nan". Those were pasted; the ones a candidate prints are not among them."""
    fell = "".join(f"Epoch {e}  loss {v}\n" for e, v in enumerate(["0.6214", "0.4117", "0.3708"], 1))
    warned = ("hw3.py:12: RuntimeWarning: overflow encountered in exp\n  e = np.exp(z)\n"
              "hw3.py:13: RuntimeWarning: invalid value encountered in divide\n  return e / e.sum(axis=1)\n")
    nan = "".join(f"Epoch {e}  loss nan\n" for e in range(4, 7))
    d = diagnosis("Softmax regression from scratch, I get nan after a few epochs.\n" + fell + warned + nan)
    assert d.verdict == "uncertain" and "warnings or errors printed" not in d.ask
    assert d.ask.startswith(f"the result of this check for {d.matches[0].entry.id}")
    # warnings printed only after the first nan were not those above it: still asked for
    assert "warnings or errors printed above the first nan" in \
        diagnosis("Softmax regression from scratch, I get nan after a few epochs.\n" + fell + nan + warned).ask


def test_a_lower_rate_tried_is_read_in_more_words_and_weighed_for_the_bad_batch():
    """review_session30_broad c05, c19: "I re-ran with lr 1e-4 instead of 1e-3 and it's the same" and "lowering lr
    just moves the nan to epoch 14" were not read. WR-310's failure breaks where the batch is met, whatever the rate:
    a lower rate that did not help counts half for it, one that put the failure off counts against it."""
    assert lr_tried("I re-ran with lr 1e-4 instead of 1e-3 and it's the same.") == "failed"
    assert lr_tried("Lowering lr just moves the nan to epoch 14.") == "delayed"
    assert lr_tried("I reduced lr to 1e-4 and it trains fine") == "helped"
    assert lr_tried("I lowered the lr and moved the data to the GPU") == ""
    fell = "".join(f"epoch {e} loss {v}\n" for e, v in enumerate(["0.69", "0.52", "0.44", "0.40", "nan", "nan"]))
    assert weighed_parts("I re-ran with lr 1e-4 instead of 1e-3 and it's the same.\n" + fell, "WR-310")["tried"] == 0.5
    assert weighed_parts("Lowering lr just moves the nan to a later epoch.\n" + fell, "WR-310")["tried"] == -1.0
    # (the log of zero's page says the same of itself: a lower rate only delays the logit's crossing)
    assert weighed_parts("Lowering lr just moves the nan to a later epoch.\n" + fell, "WR-030")["tried"] == 1.0


def test_a_lower_rate_that_did_not_help_counts_half_for_a_failure_it_only_puts_off():
    """A lower rate only delays the log of zero (WR-030's page: the fit heads for the same far-out logits, more
    slowly), so "lowering the learning rate didn't help" beside a nan after some epochs is half a point for it, as
    for the bad batch that breaks wherever it is met -- and nothing for the climb a lower rate cures."""
    import re

    phrases = CATALOG.entries["WR-030"].phrases
    assert "lowering the learning rate only delays the nan" in phrases
    bonus = CATALOG.entries["WR-030"].sections["Interview question"]
    assert re.search(r"lowering it only\s+delays", bonus)
    text = "After about 2 epochs the loss goes to nan. Reducing the learning rate didn't help."
    assert lr_tried(text) == "failed"
    parts = weighed_parts(text, "WR-030")
    assert parts["tried"] == 0.5
    assert weighed_parts(text, "WR-220")["tried"] == -1.0
    d = diagnosis(text)
    assert "WR-030" in [m.entry.id for m in d.matches[:3]]
    log_of_zero = next(m for m in d.matches if m.entry.id == "WR-030")
    assert ("the report says a lower learning rate did not help: a lower rate only puts this failure off"
            in log_of_zero.evidence)
    # (said to be the same: the failure did not move, no sign of one a lower rate puts off)
    same = "After about 2 epochs the loss goes to nan. I re-ran with lr 1e-4 instead of 1e-3 and it's the same."
    assert lr_tried(same) == "failed" and "tried" not in weighed_parts(same, "WR-030")
    assert weighed_parts(same, "WR-310")["tried"] == 0.5


def test_a_division_by_a_standard_deviation_beside_a_constant_column_is_wr060():
    """review_session30_broad c08: `X = (X - X.mean()) / X.std()` pasted with "some columns are the same for every
    row" and a nan from the first epoch put WR-360 first. The constant column's std is 0 and (x - mean) / 0 is 0/0."""
    import numpy as np

    with np.errstate(invalid="ignore"):
        column = np.full(5, 3.0)
        assert np.isnan((column - column.mean()) / column.std()).all()
    epochs = "".join(f"Epoch {e}/50\n250/250 [====] - 1s 3ms/step - loss: nan - accuracy: 0.5012\n" for e in (1, 2, 3))
    code = "X = (X - X.mean()) / X.std()\n"
    said = "Some columns are status flags that are the same for every row.\n"
    d = diagnosis(code + said + epochs)
    assert d.matches[0].entry.id == "WR-060" and weighed_parts(code + said + epochs, "WR-060")["constant-feature"] == 2.0
    assert any("(`/ X.std()`)" in e for e in d.matches[0].evidence)
    for text in (code + epochs, said + epochs, "X = scaler.fit_transform(X)\n" + said + epochs):
        assert "constant-feature" not in weighed_parts(text, "WR-060")
    # the division alone, beside a loss broken before any update (a curve's, or words' "the first loss printed is
    # nan"): half a fact, a suspect that names no entry (review_session36_blind q18); not beside a nan that came later,
    # nor a division with something added to the std
    assert weighed_parts(code + epochs, "WR-060")["std-unguarded"] == 1.0
    words = "X_train = (X_train - X_train.mean(axis=0)) / X_train.std(axis=0)\nThe first loss printed is nan, at step 0.\n"
    assert weighed_parts(words, "WR-060")["std-unguarded"] == 1.0 and first(words) == "WR-060"
    later = "".join(f"Epoch {e}/50\n250/250 [====] - 1s 3ms/step - loss: {v}\n" for e, v in
                    enumerate(["0.69", "0.52", "0.44", "0.41", "nan"], 1))
    for text in (code + later, code.replace("X.std()", "(X.std() + 1e-8)") + epochs):
        assert "std-unguarded" not in weighed_parts(text, "WR-060"), text


def test_a_saw_tooth_that_returns_again_and_again_is_no_early_spike():
    """review_session30_broad u06: batches sorted by class make the loss swing between 0.01 and 7 every pass; the early
    spike's test (the largest of the first ten values, 3x the first) named WR-250 and quoted a "jump" across nine
    values and three earlier swings. A spike is one excursion to its height; small jumps near a low loss are noise."""
    from trainwreck.curve_shape import _excursions

    assert _excursions([2.3, 9.1, 5.0, 2.9, 2.2, 2.0, 1.9], 9.1 / 2) == [1]
    assert _excursions([0.02, 0.01, 6.9, 0.01, 7.2, 0.009, 7.0, 0.01], 7.2 / 2) == [2, 4, 6]
    assert _excursions([2.3, 9.1, 2.0, 0.01, 0.04, 0.01, 0.05], 9.1 / 2) == [1]     # noise near 0 is not a swing
    swing = ["0.0214", "0.0098", "6.8811", "0.0117", "7.2304", "0.0089", "6.9902", "0.0102", "0.0093", "7.4418",
             "0.0076", "7.1150", "0.0081", "6.7309", "0.0070", "7.0026", "0.0079", "0.0071"]
    d = diagnosis("".join(f"step {40 * k} loss {v}\n" for k, v in enumerate(swing, 1)))
    assert d.signature.name == "healthy" and not d.matches
    assert "it jumped to 3x its low or more 7 times in its first 18 values (up to 7.442)" in d.signature.facts[0]
    spike = ["2.31", "9.12", "5.02", "2.93", "2.41", "2.21", "2.02", "1.93", "1.88", "1.82", "1.79", "1.75"]
    assert diagnosis("".join(f"step {k} loss {v}\n" for k, v in enumerate(spike))).signature.name == "spike-then-recover"
    # two spikes that stopped (review_session30_changes v15) are a spike; two swings to the end of a paste are not
    twice = ["2.3041", "8.9127", "2.4150", "7.4405", "2.3218", "2.2810", "2.1094", "1.9925", "1.9012", "1.8317", "1.7790"]
    assert diagnosis("".join(f"step {10 * k} loss {v}\n" for k, v in enumerate(twice))).signature.name == \
        "spike-then-recover"
    sorted_batches = ["1.3911", "0.4102", "0.0973", "0.0215", "0.0102", "0.0061", "0.0043", "0.0034", "6.8830", "0.7711",
                      "0.0812", "0.0174", "0.0085", "0.0052", "0.0040", "0.0032", "7.1024", "0.8530", "0.0901"]
    assert diagnosis("".join(f"batch {k} loss {v}\n" for k, v in enumerate(sorted_batches))).signature.name != \
        "spike-then-recover"


def test_inputs_said_unscaled_with_the_verb_itself_or_called_raw():
    """review_session30_broad c22 (p35): only "the inputs are not normalized" was read; "I didn't scale the
    features", "no scaling on the inputs", "I did not standardize anything" and "features are raw" were not."""
    from trainwreck.input_scaling import scaled_said

    for said in ("I didn't scale the features", "No scaling on the inputs.", "I did not standardize anything",
                 "Features are raw, in the thousands", "without rescaling the data",
                 "features are used as they come, sqft and year", "inputs are fed as-is, in pixels"):
        assert scaled_said(said)["unscaled"] == {"inputs": said.split(",")[0].rstrip(".").replace("I ", "")}, said
    assert scaled_said("I did not normalize the targets")["unscaled"] == {"targets": "did not normalize the targets"}
    for neither in ("I scale the features with StandardScaler", "no normalization layer", "how do I scale the inputs?"):
        assert scaled_said(neither)["unscaled"] == {}, neither
    flat = "".join(f"epoch {e} loss {0.5108 + 0.0001 * (e % 2):.4f}\n" for e in range(12))
    assert weighed_parts("I didn't scale the features.\n" + flat, "WR-330")["unscaled-inputs"] == 1.0


def test_a_pasted_pytorch_model_that_outputs_probabilities_into_a_logits_loss_is_read():
    """review_session30_broad c14, p15: `return torch.sigmoid(self.head(...))` with nn.BCEWithLogitsLoss, the loss
    levelling off near 0.51 at 96% accuracy, was called healthy: only Keras's pairing was read. A softmax inside the
    model (attention's) is not its output."""
    model = ("class Net(nn.Module):\n    def forward(self, x):\n        return torch.sigmoid(self.head(self.body(x)))\n\n"
             "criterion = nn.BCEWithLogitsLoss()\n")
    fell = "".join(f"Epoch {e} | train loss {v}\n" for e, v in enumerate(
        ["0.6498", "0.5902", "0.5601", "0.5432", "0.5329", "0.5262", "0.5216", "0.5184", "0.5161", "0.5144", "0.5131",
         "0.5121"], 1))
    d = diagnosis(model + fell)
    assert d.matches and d.matches[0].entry.id == "WR-130"
    assert weighed_parts(model + fell, "WR-130")["pairing"] == 1.0
    sequential = "model = nn.Sequential(nn.Linear(40, 64), nn.ReLU(), nn.Linear(64, 10), nn.Softmax(dim=1))\n" \
                 "loss_fn = nn.CrossEntropyLoss()\n"
    assert weighed_parts(sequential + fell, "WR-130")["pairing"] == 1.0
    # the module alone, quoted in a sentence's backticks ("the model ends with `nn.Softmax(dim=1)`"; review_session37_blind
    # q02), named beside a healthy-looking curve too: the pairing is the bug whatever the curve
    said = "The model ends with `nn.Softmax(dim=1)` and the loss is `nn.CrossEntropyLoss()`.\n"
    assert weighed_parts(said + fell, "WR-130")["pairing"] == 1.0
    assert "pairing" not in weighed_parts(said.replace("`nn.Softmax(dim=1)`", "nn.Softmax in attention") + fell, "WR-130")
    # ... or in its plain words (review_session37_final f02), not in a Sequential's middle nor assigned to a name
    assert weighed_parts(said.replace("`", "") + fell, "WR-130")["pairing"] == 1.0
    for hidden in ("model = nn.Sequential(nn.Linear(4, 8), nn.Sigmoid(), nn.Linear(8, 2))\n",
                   "model = nn.Sequential(\n    nn.Linear(4, 8),\n    nn.Sigmoid(),\n    nn.Linear(8, 2))\n",
                   "self.gate = nn.Sigmoid()\n"):
        assert "pairing" not in weighed_parts(hidden + "criterion = nn.CrossEntropyLoss()\n" + fell, "WR-130"), hidden
    attention = ("    def forward(self, q, k, v):\n        w = F.softmax(q @ k.T, dim=-1)\n        return self.out(w @ v)\n"
                 "criterion = nn.CrossEntropyLoss()\n")
    for text in (attention + fell, model.replace("BCEWithLogitsLoss", "BCELoss") + fell):
        assert "pairing" not in weighed_parts(text, "WR-130")


def test_weights_set_to_zero_in_code_count_for_wr110_and_its_check_skips_the_first_loss_pasted():
    """review_session29_broad2 f13, review_session30_broad c11: Keras's kernel_initializer="zeros" was not read, and the
    ask was "Print the first loss against ln C", which a paste from the run's start had answered. Not one layer alone
    (a linear model trains from zeros), not a zeroed bias, not BatchNorm's weights at 1, not a NumPy buffer named after
    a weight (review_session30_later b04, v04, v20, v21). (A first loss of ln C alone was tried as a fact and named
    WR-110 for default-initialised runs, whose first loss is ln C too: later review b02, b09.)"""
    from trainwreck.diagnose import _confirm_question

    keras = "".join(f"Epoch {e}/10\n100/100 [====] - 1s - loss: {v} - accuracy: 0.5000\n"
                    for e, v in enumerate(["0.6932", "0.6931", "0.6931", "0.6931", "0.6931", "0.6931"], 1))
    code = ("model.add(layers.Dense(64, activation='relu', kernel_initializer=\"zeros\"))\n"
            "model.add(layers.Dense(1, activation='sigmoid'))\n")
    assert weighed_parts(code + keras, "WR-110")["zero-init"] == 1.0
    d = diagnosis(code + keras)
    assert d.matches[0].entry.id == "WR-110"
    assert "first loss against ln C" not in _confirm_question(d.matches[0].entry, d.evidence)
    assert "first loss against ln C" in _confirm_question(d.matches[0].entry)
    two = "W1 = np.zeros((n_x, n_h))\nb1 = np.zeros((n_h, 1))\nW2 = np.zeros((n_y, n_h))\n"
    assert "zero-init" in weighed_parts(two + keras, "WR-110")
    for not_it in ("W = np.zeros((784, 10))\n",
                   "model = keras.Sequential([layers.Dense(1, kernel_initializer='zeros')])\n",
                   "nn.init.zeros_(m.bias)\nself.fc1 = nn.Linear(4, 8)\nself.fc2 = nn.Linear(8, 1)\n",
                   "nn.init.constant_(m.weight, 1)\nself.fc1 = nn.Linear(4, 8)\nself.fc2 = nn.Linear(8, 1)\n",
                   "W1_vel = np.zeros_like(W1)\nW2_vel = np.zeros((8, 1))\nW1_vel = np.zeros((4, 8))\n"):
        assert "zero-init" not in weighed_parts(not_it + keras, "WR-110"), not_it


def test_candidates_about_even_are_said_to_be():
    """review_session30_broad class C: WR-030, WR-310 and WR-050 within 0.05 of one another after a fall and a nan were
    listed "best first" as if the order meant something. Within EVEN of the first, the report says they are even."""
    from trainwreck.diagnose import EVEN
    from trainwreck.diagnose_report import as_json, report

    keras = "".join(f"Epoch {e}/8\n100/100 [====] - 1s - loss: {v}\n" for e, v in enumerate(
        ["0.6900", "0.5200", "0.4400", "0.4000", "0.3700", "0.3500", "nan", "nan"], 1))
    d = diagnosis(keras)
    assert d.verdict == "uncertain" and d.even == 3
    assert all(d.matches[0].score - m.score < EVEN for m in d.matches)
    assert "best first (the first 3 are about even: the evidence here does not order them)" in report(d)
    assert as_json(d)["even"] == 3
    apart = diagnosis("I re-ran with lr 1e-4 instead of 1e-3 and it is the same.\n" + keras)
    assert apart.even == 1 and "about even" not in report(apart)


def test_the_session30_changes_review_regressions_stay_fixed():
    """review_session30_changes: each fact this session added fired where it should not."""
    from trainwreck.thesaurus import tokens
    from trainwreck.precision_said import half_precision_shown

    iterations = "".join(f"iter {i} cost {34657.36 * 0.99 ** i:.2f}\n" for i in range(12))
    for words in ("numpy logistic regression, the loss is the sum of the per-example cross-entropies",   # a47
                  "depth regression, nn.MSELoss(reduction='sum') over the pixels",                      # a10
                  "house price regression, the targets are standardised"):                              # v13
        assert "raw-targets" not in weighed_parts(words + "\n" + iterations, "WR-360"), words
    fell = "".join(f"epoch {e} loss {231840.2 * 0.93 ** e:.1f}\n" for e in range(12))   # a10: fell 40%
    assert "raw-targets" not in weighed_parts("MSE regression on prices\n" + fell, "WR-360")
    # ... unless the words say it does not learn: still 1.04e5 at the end is no error on unit-scale targets
    # (review_session36_final f33: "MAE stuck in the thousands", a loss of 7.1e7 after 99 epochs, called healthy)
    stuck = weighed_parts("MSE regression on prices, the MAE is stuck in the thousands\n" + fell, "WR-360")
    assert stuck["raw-targets"] == 2.0
    assert "raw-targets" not in weighed_parts("MSE regression on prices, the MAE is stuck in the thousands\n"
                                              + fell.replace("loss 104352.1", "loss 9.1"), "WR-360")
    assert when("NaN in epoch 3 at step 4500") == {"later"}                              # a18
    assert when("The loss is 3.7e+21 at step 0") == {"start"}                            # a19
    assert lr_tried("I re-ran with the same lr but seed 1 and it's the same") == ""     # a25
    flat = "".join(f"epoch {e} loss {0.52 - 0.001 * e:.4f}\n" for e in range(12))
    helper = ("def attend(q, k, v):\n    scores = q @ k.T\n    return torch.softmax(scores, dim=-1) @ v\n"
              "criterion = nn.CrossEntropyLoss()\n")                                      # a41
    gate = ("class Gate(nn.Module):\n    def forward(self, x):\n        return torch.sigmoid(self.fc(x))\n"
            "class Tagger(nn.Module):\n    def forward(self, x):\n        return self.out(x * self.gate(x))\n"
            "criterion = nn.BCEWithLogitsLoss()\n")                                       # a43
    for code in (helper, gate):
        assert "pairing" not in weighed_parts(code + flat, "WR-130")
    nan = "".join(f"epoch {e} loss nan\n" for e in range(1, 5))
    for code in ("# careful: np.exp(800) would overflow, so clip first\n",                # a06
                 "I know np.exp(1000) overflows, that's why I already use logsumexp.\n",  # later review b23
                 "lr = base * math.exp(-step / 2000)\n"):                                   # v03
        assert "exp-overflow" not in weighed_parts(code + nan, "WR-020"), code
    for text in ('df["amp"] = df["current"] * 2, the loss is nan',                         # v01
                 "with torch.autocast('cuda', dtype=torch.bfloat16): the loss is nan"):    # v02
        assert half_precision_shown(text, tokens(text)) == "", text
    said = "Some columns are the same for every row.\n"
    assert "constant-feature" not in weighed_parts("X = (X - X.mean(0)) / (X.std(0) + 1e-8)\n" + said + nan,
                                                   "WR-060")                                # v04


def test_half_precision_beside_gradients_said_to_be_zero_is_its_quiet_face():
    """review_session30_broad c06: `model.half()`, SGD with no GradScaler, the loss stops at 0.70 where float32 reached
    0.12, "a lot of the first-layer weight grads are exactly 0.0": WR-040's quiet face (float16 underflows gradients below
    about 6e-08 to zero) was "no known failure"."""
    from trainwreck.gradient_norms import GRADS_ZERO_SAID

    text = ("After model = model.half(), no GradScaler, the loss stops improving:\n"
            "epoch 0  mse 0.9824\nepoch 5  mse 0.7315\nepoch 10 mse 0.7002\nepoch 15 mse 0.6997\nepoch 20 mse 0.6997\n"
            "I checked the grads and a lot of the first-layer weight grads are exactly 0.0.\n")
    d = diagnosis(text)
    assert d.matches and d.matches[0].entry.id == "WR-040" and weighed_parts(text, "WR-040")["flushed"] == 1.0
    assert not GRADS_ZERO_SAID.search("the grads are 0.03 on average") and not GRADS_ZERO_SAID.search("gradient is 0.5")
    from trainwreck.gradient_norms import grads_said_zero
    assert grads_said_zero("in float16 0.0% of the first layer's gradients are 0") is None   # (its Fix tab's output)
    assert "flushed" not in weighed_parts(text.replace("model.half()", "model.float()"), "WR-040")


def test_gradients_said_to_be_exactly_zero_are_a_failure_said_in_words():
    """A report with no loss values that says its gradients are exactly 0 after a colon ("I printed grad norms per layer:
    exactly 0.0") says its network cannot learn: the zero gradient's entries are candidates, not "no known failure".
    Not gradients of layers frozen on purpose."""
    from trainwreck.gradient_norms import grads_said_zero

    said = ("My residual net's validation PSNR is the same at every validation since iteration 0. I printed grad norms "
            "per layer: exactly 0.0 for every conv weight and bias. I use my own init function.")
    assert grads_said_zero(said).group(0) == "grad norms per layer: exactly 0.0"
    d = diagnosis(said)
    assert d.verdict != "no-evidence" and d.matches[0].entry.id == "WR-110"
    assert any("the report says the gradients are exactly 0" in e for e in d.matches[0].evidence)
    for frozen in ("The frozen backbone's grad norms: exactly 0.0, as I set requires_grad=False.",
                   "Grads of the embedding are 0 as expected, since it is frozen.",
                   "The text tower is frozen on purpose, so its grads are exactly 0.",
                   "The frozen CLIP text encoder has grads = 0."):
        assert grads_said_zero(frozen) is None, frozen
    # (a colon's 0 that counts something or sets something is no norm; "frozen" said of the run is its symptom)
    for other in ("I checked the gradients: 0 nan and 0 inf values in every layer.", "Gradient clipping: 0 (disabled).",
                  "gradient accumulation steps: 0", "Layers with zero grads: 0"):
        assert grads_said_zero(other) is None, other
    for symptom in ("Training looks frozen: the grad norms are exactly 0.0 for every layer.",
                    "The grads are exactly 0, which is not as expected."):
        assert grads_said_zero(symptom) is not None, symptom


def test_the_later_session30_reviews_regressions_stay_fixed():
    """review_session30_later: a raw-price run under Adam that fell 26% keeps its fact (b22); the last forward()
    pasted is the model's (b26), a shape method after its sigmoid changes nothing (b27); "retrained with half the lr"
    is a rate tried (b28); rows under "here is my lr schedule:" are no loss (b39); a stall beside a printed accuracy
    stays a stall (b30, b35: partly dead networks print accuracies too -- a bound on one output for all inputs was
    tried and reverted)."""
    fell = "".join(f"epoch {e} loss {3.9e10 * (1 - 0.026 * e):.4g}\n" for e in range(11))
    assert weighed_parts("MSE regression on raw house prices.\n" + fell, "WR-360")["raw-targets"] == 2.0
    flat = "".join(f"epoch {e} loss {0.52 - 0.001 * e:.4f}\n" for e in range(12))
    two = ("class Gate(nn.Module):\n    def forward(self, x):\n        return self.fc(x)\n"
           "class Net(nn.Module):\n    def forward(self, x):\n        return torch.sigmoid(self.head(x)).squeeze(-1)\n"
           "criterion = nn.BCEWithLogitsLoss()\n")
    assert weighed_parts(two + flat, "WR-130")["pairing"] == 1.0
    assert lr_tried("I retrained with half the lr and it is the same") == "failed"
    schedule = ("Loss goes nan around step 5000. Here is my lr schedule (linear warmup):\n\n"
                + "".join(f"step {1000 * k:04d}: {0.0002 * k:.4f}\n" for k in range(6)))
    assert diagnosis(schedule).evidence.dialect != "lines of a step and a value"
    dead = "".join(f"epoch {e}: loss {v} acc 0.8100\n" for e, v in enumerate(
        ["0.7085", "0.6421", "0.5512", "0.4980", "1.3633", "0.9417", "0.6120"] + ["0.4512"] * 14))
    assert diagnosis(dead).signature.name == "stall-after-drop"


def test_an_absolute_error_is_read_from_the_loss_named_not_a_metric_column():
    """review_session30_final c22: a Keras MSE regression printing an `mae` metric column was told "an absolute error
    that large takes errors of about 3.917e+10"; its errors are about the root, 1.98e+05."""
    rows = "".join(f"Epoch {e}/30\n37/37 [====] - 0s 2ms/step - loss: {3.917e10 * (1 - 0.001 * (e - 1)):.4e} - mae: "
                   f"{1.8e5:.4e}\n" for e in range(1, 12))
    compiled = "model.compile(optimizer='adam', loss='mse', metrics=['mae'])  # house price regression\n"
    fact = " ".join(e for m in diagnosis(compiled + rows).matches for e in m.evidence)
    assert "a squared error that large takes errors of about 1.979e+05 (its root)" in fact
    mae = diagnosis(compiled.replace("loss='mse', metrics=['mae']", "loss='mae'") + rows)
    assert "an absolute error that large" in " ".join(e for m in mae.matches for e in m.evidence)


def test_a_jump_of_twice_the_value_before_in_the_first_steps_of_a_run_said_to_have_no_warmup_is_wr250():
    """review_session30_final c16 (and broad2 f20): a x2.4 jump at iter 2 of an AdamW run "with no warmup" was
    answered "normal (spikes in a falling curve)" beside a note naming the no-warmup signature. The words say which
    run it is; without them a jump under 3x the first value stays unjudged (a small batch's blip)."""
    values = ["4.2176", "3.9820", "9.6614", "7.8831", "5.4127", "4.6392", "4.0108", "3.6651", "3.4420", "3.3197",
              "3.2281", "1.8832"]
    log = "".join(f"iter {i}: loss {v}\n" for i, v in enumerate(values))
    d = diagnosis("AdamW lr=1e-3, no warmup. Is the spike at iter 2 a problem?\n" + log)
    assert d.verdict == "failure" and d.matches[0].entry.id == "WR-250"
    assert "from 4.218 at iter 0 to 9.661 at iter 2 (x2.3) in a run the report says had no warmup" in \
        d.signature.facts[0]
    assert diagnosis("AdamW lr=1e-3, warmup_steps=0.\n" + log).signature.name == "spike-then-recover"
    # 1.5x the first value or more (review_session37_blind q08: x1.98 was passed over under a 2x threshold); not 1.4x
    for peak, spiked in (("6.40", True), ("5.90", False)):
        said = diagnosis("AdamW lr=1e-3, no warmup.\n" + log.replace("9.6614", peak).replace("7.8831", "5.5012")
                         ).signature.name
        assert (said == "spike-then-recover") == spiked, peak
    for other in ("AdamW lr=1e-3 with 500 warmup steps.\n", "SGD, batch size 2.\n",
                  "I tried with and without warmup; this run has warmup_steps=500.\n"):       # (warmup review n09)
        assert diagnosis(other + log).signature.name != "spike-then-recover", other
    # measured from the first value (a dip and a return is no jump: n08), and not in rows that are whole epochs (n05)
    dip = "".join(f"step {i}: loss {v}\n" for i, v in enumerate(["1.55", "0.73", "1.55", "1.2", "1.1", "1.0", "0.9",
                                                                  "0.8", "0.7", "0.6", "0.5"]))
    assert diagnosis("No warmup needed for LoRA.\n" + dip).signature.name != "spike-then-recover"
    epochs = "".join(f"epoch {i}: loss {v}\n" for i, v in enumerate(values, 1))
    assert diagnosis("no warmup, mixup switched on at epoch 3\n" + epochs).signature.name != "spike-then-recover"
    # a rate said constant from the start, or the schedule said dropped, is no warmup -- where no warmup is named
    for said in ("I dropped the LR scheduler, so it's constant AdamW lr=1e-3 now.\n",
                 "The learning rate is constant, 1e-3 with Adam.\n"):
        d = diagnosis(said + log)
        assert d.signature.name == "spike-then-recover" and "kept one rate from its start (no warmup)" in \
            d.signature.facts[0], said
    for said in ("Constant lr after a 500-step warmup.\n", "The lr schedule is cosine.\n"):
        assert diagnosis(said + log).signature.name != "spike-then-recover", said


# ---- the ninth session: controls the reporter ran, questions, short curves ---------------------------------------

HALF_RUN = ("Fine-tuning with the Trainer, fp16=True on a T4.\n"
            + "".join(f"{{'loss': {v}, 'learning_rate': 2e-05, 'epoch': {e}}}\n"
                      for v, e in (("2.91", 0.1), ("2.52", 0.2), ("2.33", 0.3), ("nan", 0.4), ("nan", 0.5))))


def test_full_precision_that_works_is_the_precision_entries_own_check():
    """WR-040's Confirm it runs the same thing in float32: a report that did, and saw it train, has done the check --
    a printed fact's worth for the precision entry, beside a curve whose shape (a descent, then nan) is others' and,
    with half precision switched on, its own late face: a suspect, which the check names."""
    from trainwreck.precision_said import precision_tried
    assert precision_tried("With fp16=False the same script trains fine.")[0] == "helped"
    assert precision_tried("The exact same model in float32 runs without any problem, it just works.")[0] == "helped"
    assert precision_tried("Turning off AMP fixes it.")[0] == "helped"
    assert precision_tried("fp32 is also nan.")[0] == "failed"
    assert precision_tried("With amp disabled: still nan at step 300.")[0] == "failed"
    # a cast of the data names float32 and a nan, and compares nothing; "no nan" in fp32 is a run that went well
    assert precision_tried("I cast X to float32 and the loss is nan after 3 epochs.") == ("", "")
    assert precision_tried("In fp32 there is no nan.")[0] == "helped"
    before = diagnosis(HALF_RUN)
    after = diagnosis(HALF_RUN + "With fp16=False the same script trains fine, just slower.\n")
    assert before.verdict == "uncertain"
    assert after.verdict == "failure"
    assert after.matches[0].entry.id == "WR-040" and after.matches[0].parts["full-precision"] == 2.0
    assert any("goes well out of float16 (\"With fp16=False the same script trains fine" in e
               for e in after.matches[0].evidence)
    against = weighed_parts(HALF_RUN + "Tried fp32 as well: same nan at step 300.\n", "WR-040")
    assert against["full-precision"] < 0
    # (review_session31_regressions) hearsay, a plan, a question, a comment, a cast of the data; a clause that says the
    # fp32 run broke too; half precision said to work as well; a negated "converge"
    for said in ("Someone on the forum said bf16 fixes these nans.", "Should I try fp32 to fix it?",
                 "# dtype: float32 everywhere (this works)", "Converting the targets to float32 fixes the dtype error.",
                 "In fp32 I get no nan warnings, the loss just explodes instead.",
                 "fp32 works, but so does fp16 with a lower lr.", "In float32 it does not converge either."):
        assert precision_tried(said)[0] != "helped", said
    assert precision_tried("Works in fp32 but nan in fp16.")[0] == "helped"
    assert precision_tried("If I comment out the policy line (so plain float32) it trains fine.")[0] == "helped"
    # ... and only in a paste that shows half precision in use, not one that says it is off
    plain = HALF_RUN.replace("fp16=True on a T4", "full precision, no AMP")
    assert "full-precision" not in weighed_parts(plain + "In fp32 it trains fine on the CPU.\n", "WR-040")


def test_a_rate_named_with_the_same_failure_only_later_put_it_off():
    assert lr_tried("lr=0.001 does the exact same thing, just later.") == "delayed"
    assert lr_tried("With lr 1e-4 it only blows up a bit later.") == "delayed"
    # the later place named alone (review_session36_blind q28)
    assert lr_tried("lr 0.001 also blows up, just in epoch 11 instead.") == "delayed"
    assert lr_tried("with lr 0.001 it only reaches 0.3 instead") == ""
    assert lr_tried("With lr 1e-4 I get the same final loss, it just reaches it at epoch 40 instead.") == ""
    # no rate named: "later" is when, not a remedy
    assert lr_tried("It trains, and just later the loss goes nan.") == ""
    # a plan or a notice of the reporter's; a lower rate said to train fine says more
    assert lr_tried("lr=5.0 for now, I'll tune it only later.") == ""
    assert lr_tried("With lr=3e-4 it falls and only later, around step 4000, it blows up. "
                    "With lr=1e-4 it trains fine, just slower.") == "helped"


def test_a_question_the_reporter_asks_is_not_a_loss_value():
    """"Why is the first loss 1893??" under the log names the first epoch's loss again: read as a value it became a
    fifth loss at the last epoch's number, and a rise to it."""
    log = "".join(f"Epoch {e}/5\n100/100 - 1s - loss: {v} - accuracy: 0.1000\n"
                  for e, v in ((1, "1893.4172"), (2, "2.3090"), (3, "2.3087"), (4, "2.3086"), (5, "2.3086")))
    for question in ("Why does the first epoch have loss 1893??", "y is one-hot. Why is the loss 1893 at first?",
                     "Is a loss of 1893 normal?"):
        ev = scan(io.BytesIO((log + question + "\n").encode()), "report", message_finder(CATALOG))
        assert ev.count == 5 and ev.last == 2.3086, question
    # a question that says what the log does not print is kept: it may be all the report says of the failure
    ev = scan(io.BytesIO((log + "Why does it then show loss: nan from epoch 6 on?\n").encode()), "report",
              message_finder(CATALOG))
    assert ev.first_nonfinite == 5
    # a log line that ends in question marks is still the log's
    ev = scan(io.BytesIO((log + "Epoch 6/6\n100/100 - 1s - loss: nan - accuracy: 0.1000 ???\n").encode()), "report",
              message_finder(CATALOG))
    assert ev.count == 6 and ev.first_nonfinite == 5


def test_a_short_curve_beside_words_that_it_does_not_learn_is_not_called_healthy():
    """Seven values cannot show a plateau (SHAPE_MIN): beside "doesn't learn at all" they show no health either, and
    the code's zero initialisation is the evidence."""
    from trainwreck.curve_shape import SHAPE_MIN
    code = ("self.fc1 = nn.Linear(784, 256)\nself.fc2 = nn.Linear(256, 10)\n"
            "for m in self.modules():\n    if isinstance(m, nn.Linear):\n        nn.init.constant_(m.weight, 0.0)\n")
    log = "".join(f"epoch {i}: loss {v}\n" for i, v in enumerate((2.3026, 2.3019, 2.3012, 2.3016, 2.3011, 2.3014), 1))
    assert log.count("\n") < SHAPE_MIN
    quiet = diagnosis(code + log)
    assert quiet.verdict == "healthy"                       # nothing says it went wrong
    said = diagnosis("My MLP doesn't learn at all, accuracy 11% forever.\n" + code + log)
    assert said.verdict == "uncertain" and said.matches[0].entry.id == "WR-110"
    assert said.matches[0].parts["zero-init"] > 0
    from trainwreck.diagnose_report import report
    assert "(The loss values alone show no known failure: 6 loss values, all finite" in report(said)
    # not a worried question, the past, a validation score, a speed, nor a curve that is still falling
    falling = "".join(f"epoch {i}: loss {v}\n" for i, v in enumerate((2.2, 1.4, 0.86, 0.55, 0.40, 0.31), 1))
    for words, curve in (("It seems slow, is it stuck?", falling), ("I was stuck on this for days, now it works.", log),
                         ("The val accuracy plateaued at 92%.", log), ("It is not decreasing as fast as in the paper.", log),
                         ("My MLP doesn't learn at all.", falling)):
        assert diagnosis(words + "\n" + code + curve).verdict == "healthy", words


def test_the_first_step_of_a_fix_keeps_each_items_first_sentence():
    """WR-310's list items end with what the entry's snippet found ("the snippet's guard stops at step 12"): a reader
    of their own run's diagnosis would take it for a statement about their data."""
    from trainwreck.diagnose import first_fix_step
    step = first_fix_step(CATALOG.entries["WR-310"])
    assert "At load time" in step and "A guard in the loop" in step
    assert "step 12" not in step and "row 300" not in step and len(step) < 700
    # an item whose first sentence is too short to be advice keeps the next
    assert "Sigmoid hidden units: do not. Use tanh or ReLU" in first_fix_step(CATALOG.entries["WR-120"])


def test_code_that_breaks_at_one_value_is_a_fact_beside_a_nan():
    """Each construct is the one its entry's Why names: -inf fills (a row all masked is nan in the softmax), a log of a
    probability with no eps, a sqrt that can meet 0 or a where that picks it (the slope at 0 is inf)."""
    from trainwreck.breaking_constructs import breaking_construct
    assert set(breaking_construct('s = s.masked_fill(~mask[:, None], float("-inf"))')) == {"masked-inf"}
    assert set(breaking_construct("scores = np.where(mask, scores, -np.inf)")) == {"masked-inf"}
    # a key_padding_mask beside words that a sequence can be all padding (review_session37_final f12); and the mask
    # alone, as the -inf fill alone is: the row it breaks on need not be shown -- said to be so where it is not
    padded = "nn.MultiheadAttention with key_padding_mask (True = padding). "
    for empty in ("After cleaning one review has length 0.", "its whole mask row is True", "some texts are empty"):
        assert set(breaking_construct(padded + empty)) == {"masked-inf"}, empty
        assert "says a sequence can be all padding" in breaking_construct(padded + empty)["masked-inf"]
    alone = breaking_construct(padded + "Batches are padded to the longest review.")
    assert set(alone) == {"masked-inf"} and "does not show that every sequence holds a token" in alone["masked-inf"]
    assert breaking_construct("Batches are padded to the longest review.") == {}
    # ... or beside a printed count of each sequence's unpadded tokens that holds a 0 (review_session41 i22)
    counted = padded + "I dumped batch 1873: (input_ids != 0).sum(1) =\ntensor([ 87, 128,  41,\n          0,  71])"
    assert "(`(input_ids != 0).sum(1)` holds a 0)" in breaking_construct(counted)["masked-inf"]
    assert "holds a 0" in breaking_construct(padded + "lengths: [12, 0, 7]")["masked-inf"]
    # (counts of each sequence's tokens with no 0 among them: the check done, no construct; a count of the padding
    # says nothing of it -- its 0 is none of it -- and leaves the mask alone)
    for counts in ("(input_ids != 0).sum(1) = tensor([ 87, 128, 41, 10])", "lengths: [12, 30, 7]"):
        assert breaking_construct(padded + counts) == {}, counts
    assert "does not show" in breaking_construct(padded + "key_padding_mask.sum(1) = tensor([0, 3, 5])")["masked-inf"]
    assert set(breaking_construct("loss = -(y * torch.log(p) + (1 - y) * torch.log(1 - p)).mean()")) == {"log-unguarded"}
    assert set(breaking_construct("l = tf.log(tf.sigmoid(z))")) == {"log-unguarded"}
    assert set(breaking_construct("d = torch.sqrt(((a - b) ** 2).sum(1))")) == {"sqrt-at-zero"}
    assert set(breaking_construct("ll = jnp.where(p > 0, jnp.log(p), 0.0)")) == {"sqrt-at-zero"}
    assert set(breaking_construct("n = jnp.linalg.norm(a - b, axis=1)")) == {"sqrt-at-zero"}
    for guarded in ("loss = -torch.log(p + 1e-7)", "loss = -np.log(np.clip(p, 1e-7, 1))", "x = torch.log(1e-10 + p)",
                    "s = s / math.sqrt(d_k)", "w = np.random.randn(n, m) * np.sqrt(2 / n)", "d = torch.sqrt(var + eps)",
                    "n = torch.norm(a - b, dim=1)",            # PyTorch's vector norm has a zero gradient at 0
                    "# loss = torch.log(p)", "safe = np.where(s > 0, np.sqrt(np.where(s > 0, s, 1.0)), 0.0)",
                    "logits = F.log_softmax(x, dim=1)", "y = np.log(x_train)"):
        assert breaking_construct(guarded) == {}, guarded
    code = "def loss_fn(p, y):\n    return -(y * torch.log(p) + (1 - y) * torch.log(1 - p)).mean()\n"
    run = "".join(f"epoch {i}: loss {v}\n" for i, v in enumerate(("0.69", "0.41", "0.30", "0.22", "nan", "nan"), 1))
    assert weighed_parts(code + run, "WR-030").get("log-unguarded") == 0.5 * 2.0
    assert "log-unguarded" not in weighed_parts(code + run.replace("nan", "0.2"), "WR-030")   # nothing broke
    # (beside a fall then a nan, WR-070's second face, which gives it no curve points, its construct counts whole)
    assert weighed_parts("scores = scores.masked_fill(pad == 0, float('-inf'))\n" + run, "WR-070")["masked-inf"] == 2.0
    climb = "".join(f"epoch {i}: loss {v}\n" for i, v in enumerate(("0.69", "0.9", "1.6", "3.2", "7.7", "nan"), 1))
    assert weighed_parts("scores = scores.masked_fill(pad == 0, float('-inf'))\n" + climb, "WR-070")["masked-inf"] == 1.0
    # (review_session31_constructs) code only, and constructs that cannot break so: a bookkeeping subscript, one token's
    # column, a docstring, a comment, math.sqrt of a Python number, the double where on two lines, a log of a name
    # the paste does not make a probability
    for fine in ('history["best_val_auc"] = -np.inf', "logits[:, pad_id] = -float('inf')",
                 '"""\nscores.masked_fill(m, float("-inf"))\n"""', "// y = torch.log(p)",
                 "bias_correction = math.sqrt(1 - b2 ** t)",
                 "safe = jnp.where(s > 0, s, 1.0)\nd = jnp.where(s > 0, jnp.sqrt(safe), 0.0)",
                 "r = np.log(p)  # p: the day's closing price"):
        assert breaking_construct(fine) == {}, fine
    assert set(breaking_construct("scores[~keep] = -math.inf")) == {"masked-inf"}
    assert set(breaking_construct("p = torch.sigmoid(z)\nloss = -(y * torch.log(p)).mean()")) == {"log-unguarded"}
    assert set(breaking_construct("h = torch.where(y > 0, y * torch.log(y), 0)")) == {"sqrt-at-zero"}
    # an -inf in the code is no nan of the run's; a message another entry declares says more than a construct; and a
    # construct orders the candidates, but names none on its own
    masked = "scores = scores.masked_fill(pad == 0, float('-inf'))\n"
    calm = "".join(f"epoch {i}: loss {v}\n" for i, v in enumerate(("0.69", "0.69", "0.69", "0.69"), 1))
    assert "masked-inf" not in weighed_parts("It does not learn, there is no nan.\n" + masked + calm, "WR-070")
    bounds = "Assertion `t >= 0 && t < n_classes` failed.\n"
    assert "masked-inf" not in weighed_parts(masked + run + bounds, "WR-070")
    d = diagnosis("The loss is nan from the first batch.\n" + masked + "".join(f"step {i} loss nan\n" for i in range(4)))
    assert d.matches[0].entry.id == "WR-070" and d.verdict == "uncertain"


def test_the_words_that_match_an_entry_are_shown():
    """"the report's words match how this entry describes the failure" said nothing a reader could check: which
    words (review_session31_broad class 7)."""
    from trainwreck.entry_documents import words_for
    assert words_for(["padd", "attention", "diverge"], "Attention is nan for padded sequences; it blows up") == \
        ["padded", "attention"]                 # (a thesaurus term made from other words has no word of the report's)
    d = diagnosis("Attention output is nan for padded sequences, from the first batch that has one.")
    line = next(e for e in d.matches[0].evidence if e.startswith("the report's words match"))
    assert d.matches[0].entry.id == "WR-070" and '"padded"' in line and '"attention"' in line


def test_pixels_loaded_by_keras_and_never_scaled_are_raw():
    """keras.datasets' mnist, fashion_mnist, cifar10 and cifar100 load uint8 pixels from 0 to 255: a paste that loads
    them and divides nowhere feeds them raw (review_session31_broad a24, "barely learns")."""
    code = ("(x_train, y_train), _ = keras.datasets.mnist.load_data()\n"
            "x_train = x_train.reshape(-1, 784).astype('float32')\n")
    log = "".join(f"Epoch {e}/10\n1875/1875 - 2s - accuracy: {a} - loss: {v}\n"
                  for e, a, v in ((1, "0.1562", "2.2867"), (2, "0.1808", "2.2694"), (5, "0.1990", "2.2502"),
                                  (10, "0.2127", "2.2311")))
    said = "My MNIST network barely learns, 20% after 10 epochs.\n"
    d = diagnosis(said + code + log)
    # (four values over ten epochs that barely moved: a plateau, with the raw pixels beside it)
    assert d.verdict == "failure" and d.matches[0].entry.id == "WR-330" and d.matches[0].parts["raw-pixels"] == 1.0
    assert "raw-pixels" not in weighed_parts(said + code.replace(".astype('float32')", ".astype('float32') / 255")
                                             + log, "WR-330")


def test_a_short_curve_with_words_alone_asks_for_more_values_and_a_hang_is_not_covered():
    """(review_session31_final f42, f43) Beside a curve too short to judge, words that match an entry name no
    candidate: a fact of the paste's must -- else the answer asks for more values. And a run that hangs, with no loss
    gone wrong, is about nothing the catalogue covers."""
    log = "".join(f"epoch {i}: loss {v}\n" for i, v in enumerate((1.041, 1.012, 1.004, 1.002, 1.001), 1))
    d = diagnosis("My regression won't learn, the loss stays around 1.\n" + log)
    assert d.verdict == "no-evidence" and not d.matches and "at least 10 loss values" in d.ask
    hang = diagnosis("Training hangs at the start of epoch 0, no error, GPU util 0%. With num_workers=0 it trains.\n"
                     "train_loader = DataLoader(ds, batch_size=64, num_workers=8)\n")
    assert hang.verdict == "unexplained" and not hang.matches
    assert any("hangs or makes no progress" in u for u in hang.unweighed)
    # (review_session31_last) not layers frozen for a fine-tune, nor a run whose loss went wrong before it froze, nor
    # a short curve beside words of a nan or of a rate tried
    # (no word of the loss in it: only "freezing" could make it a hang)
    frozen = diagnosis("I am freezing the backbone and the accuracy barely moves.\n"
                       "model.backbone.requires_grad_(False)\n")
    assert not any("hangs" in u for u in frozen.unweighed)
    roof = diagnosis("After raising the lr to 1.6 the loss was shooting through the roof and then the job hangs.\n")
    assert roof.verdict != "unexplained"
    # (review_session36_blind q06) a run said to freeze, the loss said never to have been printed, a reporter stuck
    # on it for days: still a hang; a loss that froze is not one
    froze = diagnosis("I've been stuck on this for two days: training just freezes at the start of epoch 1, GPU util "
                      "is 0%. DataLoader(ds, num_workers=8). The loss isn't printed even once.\n")
    assert froze.verdict == "unexplained" and not froze.matches
    for said in ("The loss freezes at 0.693 and the training just freezes my laptop too.\n",
                 "Training just freezes after the loss is printed as nan.\n"):
        assert diagnosis(said).verdict != "unexplained", said
    nan_said = diagnosis("It does not learn, and from epoch 4 every line says loss: nan.\n" + log[:log.index("epoch 4")])
    assert nan_said.verdict != "no-evidence"


def test_a_later_epoch_instead_of_an_earlier_one_is_a_rate_that_put_the_failure_off():
    """(review_session31_final f07) "I tried 1e-3: same shape, it just falls apart at epoch 19 instead of 8" names the
    later place the failure moved to: the lower rate put it off, WR-260's tell, and no cure of a rate too high."""
    said = "I thought lr was too high so I tried 1e-3: same shape, it just falls apart at epoch 19 instead of 8."
    assert lr_tried(said) == "delayed"
    assert lr_tried("With lr=1e-4 it diverges after 40 steps instead of 10.") == "delayed"
    # earlier is no delay; a run said to go well is no failure put off; no rate named, no remedy
    assert lr_tried("With lr 1e-3 the loss is nan at epoch 5 instead of 9.") == ""
    assert lr_tried("With lr 1e-3 it trains fine, converging at epoch 40 instead of 10.") == ""
    assert lr_tried("After the fix the nan comes at epoch 19 instead of 8.") == ""
    loop = ("for xb, yb in loader:\n    loss = criterion(model(xb), yb)\n    loss.backward()\n    optimizer.step()\n")
    log = "".join(f"epoch {e}: loss={v}\n" for e, v in enumerate(
        ("1.2214", "0.6133", "0.4120", "0.9981", "0.3871", "3.7702", "1.1408", "25.6610", "inf", "nan")))
    rate, piled = (weighed_parts(loop + log + said, i)["tried"] for i in ("WR-220", "WR-260"))
    assert rate < 0 < piled


def test_a_loss_that_jumped_and_then_froze_did_not_recover():
    """(review_session31_final f06) A jump, then one value to four digits for the rest of the paste (the middle of a
    400-epoch run elided): the units died in the jump, a stall (WR-140), not a spike that recovered (WR-250)."""
    values = ("0.6902", "0.6411", "1.8830", "0.9120", "0.7254", "2.4071", "0.6615", "0.6615", "0.6615")
    log = "".join(f"ep {e:>3} | loss {v}\n" for e, v in enumerate(values)) + "...\nep 400 | loss 0.6615\n"
    d = diagnosis(log)
    assert d.signature.name == "stall-after-drop" and d.matches[0].entry.id == "WR-140"
    assert "came straight down to 0.6615 and stopped dead: its last 4 values" in d.signature.facts[0]
    # a jump that settles to values still moving is the spike that recovered; a value of two digits may hide movement
    moving = log.replace("ep   8 | loss 0.6615", "ep   8 | loss 0.6614")
    assert diagnosis(moving).signature.name == "spike-then-recover"
    assert diagnosis(log.replace("0.6615", "0.66")).signature.name == "spike-then-recover"
    # (review_session32_changes r16-r18) a run that creeps down to its floor converged: a descent of one unit of the
    # last digit a print is no freeze, nor is a floor reached by ever smaller steps
    creeping = "".join(f"epoch {e} loss {v}\n" for e, v in enumerate(
        ("0.6929", "2.4113", "1.0210", "0.7134", "0.5522", "0.4790", "0.4511", "0.4402", "0.4321", "0.4316", "0.4316",
         "0.4315", "0.4315"), 1))
    converged = creeping.replace("0.4316", "0.4315")
    for run in (creeping, converged):
        assert diagnosis(run).signature.name == "spike-then-recover"


def test_a_hand_written_bce_of_a_keras_output_or_of_one_minus_p_is_an_unguarded_log():
    """(review_session31_final f24) Keras hands a loss the model's output as y_pred: beside a sigmoid or softmax
    activation it is a probability; log(1. - p) beside log(p) is a binary cross-entropy's other term."""
    from trainwreck.breaking_constructs import breaking_construct
    keras_loss = "def my_bce(y_true, y_pred):\n    return -tf.reduce_mean(y_true * tf.math.log(y_pred))\n"
    assert set(breaking_construct(keras_loss + "model.add(Dense(1, activation='sigmoid'))")) == {"log-unguarded"}
    # (a regression's linear output is no probability; its log is a log of a number that is negative for some inputs,
    # the raw-output reading's, not this one's)
    assert set(breaking_construct(keras_loss + "model.add(Dense(1))")) == {"log-raw-output"}
    # (factcheck_session32, claim 2's aside) the output layer is the last one: a sigmoid on a hidden layer is not it
    assert set(breaking_construct(keras_loss + "Dense(64, activation='sigmoid')\nDense(1)")) == {"log-raw-output"}
    assert set(breaking_construct(keras_loss + "Dense(1)\nActivation('sigmoid')")) == {"log-unguarded"}
    keras3 = "def bce(y_true, y_pred):\n    return -ops.mean(y_true * ops.log(y_pred))\nDense(1, activation='sigmoid')"
    assert set(breaking_construct(keras3)) == {"log-unguarded"}                            # (review_session32_final g12)
    assert set(breaking_construct("l = -(y * np.log(a) + (1 - y) * np.log(1. - a))")) == {"log-unguarded"}
    assert set(breaking_construct("l = np.multiply(np.log(A2), Y) + np.multiply(np.log(1 - A2), 1 - Y)")) == \
        {"log-unguarded"}
    # (review_session31_s s17, review_session32_changes r32) a log of one minus a schedule's constants is no loss's,
    # beside the log of the constants too
    assert breaking_construct("log_one_minus = torch.log(1. - alphas_cumprod)") == {}
    assert breaking_construct("log_one_minus = torch.log(1 - alphas_cumprod)") == {}
    assert breaking_construct("log_snr = np.log(alphas_cumprod) - np.log(1. - alphas_cumprod)") == {}
    # (r26, r30, r38) y_pred clipped before its log; y_pred of model.predict, not of a loss; a loss beside an output
    # layer that is no probability (a sigmoid on the hidden layers only)
    clipped = ("def loss(y_true, y_pred):\n    y_pred = K.clip(y_pred, K.epsilon(), 1 - K.epsilon())\n"
               "    return -K.sum(y_true * K.log(y_pred), -1)\nDense(4, activation='softmax')\n")
    assert breaking_construct(clipped) == {}
    assert breaking_construct("Dense(10, activation='softmax')\ny_pred = model.predict(x)\n"
                              "ll = -np.mean(np.sum(y * np.log(y_pred), axis=1))") == {}
    assert breaking_construct("def nll(y_true, y_pred):\n    return K.mean(y_pred - y_true * K.log(y_pred))\n"
                              "Dense(64, activation='sigmoid')\nDense(1, activation='exponential')") == {}
    # a clamp guards only where it is called, or a name says it holds a clamped value: a name that only starts with
    # "clip" guards nothing
    by_hand = "p = {}\nloss = -(y * torch.log(p) + (1 - y) * torch.log(1 - p)).mean()\n"
    assert set(breaking_construct(by_hand.format("clipwise_output"))) == {"log-unguarded"}
    assert breaking_construct(by_hand.format("torch.clamp(clipwise_output, 1e-7, 1 - 1e-7)")) == {}
    assert breaking_construct(by_hand.format("clipwise_output.clamp_(1e-7, 1 - 1e-7)")) == {}
    assert breaking_construct(by_hand.format("tf.clip_by_value(out, 1e-7, 1 - 1e-7)")) == {}
    assert breaking_construct(by_hand.format("probs_clipped")) == {}
    assert breaking_construct(by_hand.format("torch.softmax(z, 1).clamp_min_(1e-7)")) == {}
    assert set(breaking_construct(by_hand.format("probs_unclamped"))) == {"log-unguarded"}


def test_values_called_raw_before_their_name_are_unscaled():
    """"on raw features", "unnormalized inputs", "raw prices": the words say what was left unscaled, as "the features
    are raw" does."""
    from trainwreck.input_scaling import scaled_said
    assert scaled_said("Linear regression on raw features, lr 0.1")["unscaled"] == {"inputs": "raw features"}
    assert scaled_said("it sees unnormalized inputs and raw prices")["unscaled"] == {
        "inputs": "unnormalized inputs", "targets": "raw prices"}
    assert scaled_said("raw data in, standardised features out")["unscaled"] == {}
    # ... and columns, a table's features (review_session41 i30: a linear regression on "4 raw columns" with its target
    # z-scored climbed to inf: raw features' second face first, not a rate alone)
    assert scaled_said("predicting energy use from 4 raw columns; y is z-scored")["unscaled"] == {"inputs": "raw columns"}
    text = ("Simple linear regression in PyTorch, predicting (standardized) energy use of buildings from 4 raw columns: "
            "floor area [m^2, ~800-6000], year built [~1950-2020]. y is z-scored so it's mean 0 std 1. nn.Linear(4, 1), "
            "MSELoss, plain SGD.\n" + "".join(f"epoch {e}  loss {v}\n" for e, v in enumerate(
                ["4.1183e+06", "2.3874e+13", "1.3862e+20", "8.0491e+26", "4.6738e+33", "inf", "nan", "nan"])))
    d = diagnosis(text)
    assert [m.entry.id for m in d.matches[:2]] == ["WR-330", "WR-220"]
    assert 'the report says the inputs were not scaled ("raw columns")' in d.matches[0].evidence


def test_a_later_epoch_instead_of_an_earlier_one_needs_a_failure_a_rate_tried_and_no_question():
    """(review_session32_changes r09, r10, r14, r39) A slower success, a question or plan, and a number after another
    setting ("weight decay 0.05") are no rate that put a failure off."""
    assert lr_tried("With lr 1e-4 I get the same final loss, it just reaches it at epoch 40 instead of epoch 12.") == ""
    assert lr_tried("Should I just try lr 1e-4 so that the nan shows up at epoch 30 instead of 5?") == ""
    assert lr_tried("I tried lr warmup and weight decay 0.05 like DeiT, and now the nan comes at epoch 19 instead "
                    "of 8.") == ""
    assert lr_tried("With lr 1e-4 it dies at epoch 30 instead of 5.") == "delayed"


def test_a_negative_loss_beside_a_bce_whose_masks_are_0_and_255_is_no_normal_negative_loss():
    """(review_session31_final f21) BCE with a target of 255 is -255 log p + 254 log(1 - p): it has no floor as p nears
    1, and a loss that falls ever further below zero beside masks printed as 0 and 255 is WR-320's."""
    bars = "".join(f"Epoch {e}: 100%|##########| 212/212 [01:03<00:00, 3.34it/s, v_num=7, train_loss={v}]\n"
                   for e, v in enumerate(("-1.53e+3", "-9.41e+3", "-1.86e+4", "-2.81e+4")))
    code = "loss = F.binary_cross_entropy_with_logits(logits, mask)\n"
    said = "np.unique on a mask gives array([  0, 255], dtype=uint8).\n"
    d = diagnosis(code + bars + said)
    assert d.verdict == "failure" and d.matches[0].entry.id == "WR-320"
    assert "`array([ 0, 255]`" in d.matches[0].evidence[0] and "no floor" in d.matches[0].evidence[0]
    # words about the masks say it too; not about the pixels, nor beside a loss the paste does not name (a likelihood
    # of continuous data may go below zero, whatever its targets)
    assert diagnosis(code + bars + "The masks are 0 and 255.\n").verdict == "failure"
    assert diagnosis(code + bars + "The pixels are 0 and 255.\n").verdict == "normal"
    assert diagnosis("loss = criterion(logits, mask)\n" + bars + said).verdict == "normal"


def test_a_fully_masked_row_met_mid_run_is_not_held_against_its_entry():
    """WR-070's nan comes with the first batch that holds a row with nothing to attend to, whenever that is (its
    snippet's second run learns for 30 steps first): a fall then a jump to nan is its second trace, not evidence
    against it (review_session31 a09, s06, s08)."""
    code = "scores = scores.masked_fill(pad_mask[:, None, :], float('-inf'))\nattn = scores.softmax(-1)\n"
    run = "".join(f"epoch {e} loss {v}\n" for e, v in enumerate(("0.6412", "0.4803", "0.4127", "nan", "nan"), 1))
    parts = weighed_parts(code + run, "WR-070")
    assert "curve" not in parts and parts["when"] > 0 and parts["masked-inf"] > 0
    assert "WR-070" in [m.entry.id for m in diagnosis(code + run).matches[:3]]


def test_review_session32_final_misreadings_stay_fixed():
    """(review_session32_final) g25, g27: masks stored as 0/255 but thresholded or divided when loaded are 0/1, and a
    loss written as minus a Dice score goes below zero by design; g24: NumPy's own print of the values, `[  0 255]`;
    g06: a rate that only put the nan off beside a lower one that cured it is a rate too high; g05: a sentence that
    holds a little code is still a sentence, and `probs = model(xb)` of a model that returns a softmax is a probability;
    g21: "my inputs are unnormalized"."""
    from trainwreck.breaking_constructs import breaking_construct
    from trainwreck.input_scaling import scaled_said
    from trainwreck.sentences import sentences_only
    from trainwreck.run_said import loss_kind
    bars = "".join(f"epoch {e} loss {v}\n" for e, v in enumerate(("-45.1", "-310.2", "-1291.7", "-2904.4"), 1))
    bce = "criterion = nn.BCEWithLogitsLoss()\n"
    d = diagnosis(bce + bars + "np.unique(mask) prints [  0 255]\n")
    assert d.matches[0].entry.id == "WR-320" and "(`[ 0 255]`)" in d.matches[0].evidence[0]
    for fixed in ("The masks are 0 and 255, I threshold them: `mask = (m > 127).astype(np.float32)`.\n",
                  "The masks are 0 and 255, loaded with `mask = mask / 255.` so the targets are 0/1.\n"):
        assert "0 and 255" not in " ".join(diagnosis(bce + bars + fixed).matches[0].evidence), fixed
    assert loss_kind("return -(2.0 * inter + smooth) / (pred.sum() + target.sum() + smooth)") == "likelihood"
    assert loss_kind("loss = 1 - dice_coef(y, p)") == "bounded"
    tried = ("- lr=1e-2: the loss climbs and is nan at step ~200\n- lr=3e-3: same thing but nan at step ~800 instead "
             "of step ~200\n- lr=3e-4: trains fine, val loss 1.48\nA lower LR only postpones it.")
    assert lr_tried(tried) == "helped"
    assert lr_tried(tried.replace("- lr=3e-4: trains fine, val loss 1.48\n", "")) == "delayed"
    said = "Adam lr=1e-3. When I lowered the lr to 1e-4 the nan appears at epoch 31 instead of epoch 9, so it waits."
    assert sentences_only("probs = model(xb)\n" + said).strip() == said
    assert sentences_only("loss = F.nll_loss(torch.log(probs), yb)\n").strip() == ""
    model = ("class Net(nn.Module):\n    def forward(self, x):\n        return F.softmax(self.fc3(x), dim=1)\n"
             "out = model(xb)\nloss = F.nll_loss(torch.log(out), yb)\n")
    assert set(breaking_construct(model)) == {"log-unguarded"}
    assert breaking_construct(model.replace("F.softmax(self.fc3(x), dim=1)", "self.fc3(x)")) == {}
    assert scaled_said("My inputs are unnormalized, up to 5e5.")["unscaled"] == {"inputs": "inputs are unnormalized"}


def keras_epochs(losses, accuracies) -> str:
    """Keras 2's fit() lines for these epochs (the last update of each bar)."""
    n = len(losses)
    return "".join(f"Epoch {e}/{n}\n391/391 [==============================] - 44s 113ms/step - loss: {v:.4f} - "
                   f"accuracy: {a:.4f}\n" for e, (v, a) in enumerate(zip(losses, accuracies), 1))


def test_a_stall_at_the_softmax_floor_is_the_probabilities_entrys_face():
    """(review_session37_blind q30) A loss that fell and stopped at log(1 + (C - 1)/e), beside a 98.7% accuracy and a
    Keras softmax told from_logits=True: the stall is where probabilities handed over as logits must stop, so it
    counts for that entry as the curve's shape, not against it; the dead-ReLU entry, whose stall sits at the labels'
    entropy beside a chance accuracy, comes second."""
    model = ('model = keras.Sequential([layers.Dense(128, activation="relu"), layers.Dense(10, activation="softmax")])\n'
             'model.compile(optimizer="adam", loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True), '
             'metrics=["accuracy"])\n')
    losses = [1.8431, 1.5712, 1.5203, 1.4986, 1.4898, 1.4851, 1.4829, 1.4811, 1.4800, 1.4793]
    accuracies = [0.7012, 0.9104, 0.9470, 0.9613, 0.9702, 0.9761, 0.9803, 0.9834, 0.9857, 0.9874]
    d = diagnosis(model + keras_epochs(losses, accuracies))
    assert d.signature.name == "stall-after-drop" and [m.entry.id for m in d.matches[:2]] == ["WR-130", "WR-140"]
    assert d.matches[0].parts["curve"] == 3.0 and not any("does not look like" in a for a in d.matches[0].against)
    # without the floor's fact (an accuracy that says more was left to learn) the stall is no evidence for it
    low = diagnosis(model + keras_epochs(losses, [a - 0.4 for a in accuracies]))
    assert low.matches[0].entry.id == "WR-140"


def test_review_session33_blind_misreadings_stay_fixed():
    """(review_session33_blind) h13: "val accuracy stuck at 50% while val loss keeps dropping" is no overfitting (the
    dropping is the loss's); h01, h36: a loss that ends at twice its start or more, near its peak, climbed and stayed,
    however few values show it; h31, h40: a Keras classifier's first epoch at a mean cross-entropy in the thousands,
    beside an accuracy that never moved, was broken (its fall was no learning); the optimizer's default rate said to
    work, in a paste that set a rate above every default, is a lower rate that helped."""
    from trainwreck.curve_shape import signature_of
    from trainwreck.normals import normals_asked

    assert not any(n.name.startswith("overfitting") for n in
                   normals_asked("val accuracy stuck at ~50% while val loss keeps dropping"))
    assert any(n.name.startswith("overfitting") for n in normals_asked("val acc drops after epoch 3, why?"))

    stayed = keras_epochs([2.9147, 7.7013, 7.6988, 7.6990], [0.5031, 0.4992, 0.4990, 0.5004])
    d = diagnosis("Adam(learning_rate=0.1), binary_crossentropy\n" + stayed)
    assert d.signature.name == "climbed-and-stayed" and d.matches[0].entry.id == "WR-220"
    assert "its last 3 values all stayed at 2x its first or more" in d.signature.facts[0]
    for back in ([2.9147, 7.7013, 2.1, 1.5], [2.9147, 3.1, 3.0, 7.7]):      # came back down; one jump at the end
        assert diagnosis(keras_epochs(back, [0.5] * 4)).signature.name != "climbed-and-stayed", back

    chance = keras_epochs([2911.4673, 61.2210, 2.3204, 2.3027], [0.1012, 0.0998, 0.0993, 0.1001])
    sig = diagnosis(chance).signature
    assert sig.enormous_start and sig.start_updated and "stayed within 5 points (between 0.0993 and 0.1012)" in sig.enormous_start
    d = diagnosis("RMSprop(learning_rate=0.05)\n" + chance + "With RMSprop's default 0.001 the same model gets 91%.\n")
    assert d.matches[0].entry.id == "WR-220"
    assert "the report says a lower learning rate helped" in d.matches[0].evidence
    assert not diagnosis(keras_epochs([2911.4673, 61.2210, 2.3204, 0.41], [0.1012, 0.52, 0.81, 0.88])).signature.enormous_start
    plain = "".join(f"epoch {e} loss {v} acc 0.10\n" for e, v in enumerate((2911.4673, 61.221, 2.3204, 2.3027), 1))
    assert not signature_of(scan(io.BytesIO(plain.encode()), "log", message_finder(real_catalog()))).enormous_start

    assert lr_tried("opt = Adam(learning_rate=0.1)\nThe same notebook with the default Adam() reached 0.87.") == "helped"
    assert lr_tried("opt = Adam(learning_rate=0.1)\nWith the default glorot_uniform it is 97% after one epoch.") == ""
    assert lr_tried("opt = Adam(learning_rate=1e-5)\nWith the default Adam() it reached 0.87.") == ""


def test_a_softmax_written_with_unshifted_exps_is_read_as_the_overflow_it_risks():
    """(review_session33_blind h04, h28) exps summed into a ratio or a log with nothing subtracted from their input
    break at an input past about 88.7 in float32: inf / inf is nan. A shifted one, a sigmoid's 1 / (1 + exp(-z)) and an
    exp divided by a constant do not."""
    from trainwreck.breaking_constructs import breaking_construct

    unshifted = ["w = jnp.exp(s) / jnp.exp(s).sum(-1, keepdims=True)\n",
                 "num = torch.exp(torch.diag(sim))\nden = torch.exp(sim).sum(dim=1)\nloss = -torch.log(num / den).mean()\n",
                 "e = np.exp(z)\np = e / np.sum(e, axis=1)\n",
                 "loss = np.log(np.sum(np.exp(logits), axis=1)) - logits[y]\n",
                 # (set s206, 11: TensorFlow's reduce_sum)
                 "e = tf.exp(scores)\nw = e / tf.reduce_sum(e, axis=-1, keepdims=True)\n"]
    for code in unshifted:
        assert "exp-unshifted" in breaking_construct(code), code
    for code in ("e = np.exp(z - z.max(axis=1, keepdims=True))\np = e / e.sum(axis=1, keepdims=True)\n",
                 "z = z - np.max(z)\np = np.exp(z) / np.sum(np.exp(z))\n",
                 "def sigmoid(z):\n    return 1 / (1 + np.exp(-z))\n",
                 "e = np.exp(z)\ns = 1 / (1 + e)\n",
                 "w = np.exp(-d / tau)\nw = w / 2\n",
                 # (set s213, 05: a sigmoid beside a loss's mean on one line of a sentence)
                 "p = 1/(1+np.exp(-X@w)), loss = -np.mean(y*np.log(p) + (1-y)*np.log(1-p)), lr 0.5\n",
                 "e = tf.exp(scores - tf.reduce_max(scores, axis=-1, keepdims=True))\nw = e / tf.reduce_sum(e, -1)\n",
                 OVERFLOW):          # (a warning's echo of its line: when it was printed, the message's reading says)
        assert "exp-unshifted" not in breaking_construct(code), code
    steps = "".join(f"step {k * 200} loss {v}\n" for k, v in enumerate(("5.47", "4.12", "3.23", "2.45", "2.01", "nan")))
    assert weighed_parts("```python\n" + unshifted[0] + "```\n" + steps, "WR-020")["exp-unshifted"] == 2.0
    # (the entry shows no curve of its own: beside the nan, its construct stands where the curve's part stands for
    # the entries of the fell-then-nan shape, and it is listed first -- named by no construct alone, so uncertain)
    d = diagnosis("```python\n" + unshifted[1] + "```\n" + steps)
    assert d.verdict == "uncertain" and d.matches[0].entry.id == "WR-020"
    assert "exp-unshifted" not in weighed_parts("```python\n" + unshifted[0] + "```\n" + steps.replace("nan", "1.90"),
                                                "WR-020")      # a suspect beside a nan only


def test_review_session33_words_of_a_rate_and_a_precision_tried():
    """(review_session33_blind h29) "lowering lr from 1e-4 to 1e-5 changed nothing" is a lower rate that did not help;
    (h08) "the same script without the .half() calls goes down" is the run tried in full precision, and it helped: a
    dot inside a name (`x.half()`, `torch.float16`) ends no sentence."""
    from trainwreck.sentences import sentences_and_ends
    from trainwreck.precision_said import precision_tried

    for said in ("Lowering lr from 1e-4 to 1e-5 changed nothing.", "I lowered the lr to 1e-5 and it made no difference.",
                 "Reducing the lr had no effect."):
        assert lr_tried(said) == "failed", said
    half = "I put `model.half()` and `x = x.half()` in my script and the loss does not move.\n"
    tried = half + "The exact same script without the .half() calls goes down to 0.25 in 5 epochs."
    assert precision_tried(tried)[0] == "helped"
    assert [s for s, _ in sentences_and_ends("x = x.half() then y.")][0] == "x = x.half() then y"
    steps = "".join(f"epoch {e} loss {v}\n" for e, v in enumerate(("0.6812", "0.6811", "0.6812", "0.6812"), 1))
    assert first(tried + "\n" + steps) == "WR-040"


def test_memory_that_climbs_until_an_undeclared_error_is_not_a_loss_that_climbed():
    """(review_session33_blind h27) "nvidia-smi shows memory climbing by ~60 MB every batch" before a CUDA out of memory
    is the error's story: not covered, not WR-220's "loss that climbed" on the word "climbing". A loss said to climb
    beside it still is a loss's."""
    from trainwreck.diagnose import MEMORY_RISE

    oom = ("Validation dies partway through.\nRuntimeError: CUDA out of memory. Tried to allocate 196.00 MiB (GPU 0; "
           "10.76 GiB total capacity; 9.71 GiB already allocated; 141.56 MiB free; 9.89 GiB reserved in total by "
           "PyTorch)\n")
    d = diagnosis(oom + "nvidia-smi during validation shows memory climbing by ~60 MB every batch until it dies.\n")
    assert d.matches == [] and any("no entry declares" in u for u in d.unweighed)
    assert MEMORY_RISE.sub(" ", "memory is fine but the loss keeps climbing") == "memory is fine but the loss keeps climbing"
    assert diagnosis(oom + "Before that the loss kept climbing for two epochs.\n").matches


def test_review_session33_changes_regressions_stay_fixed():
    """(review_session33_changes) k02: a VAE's loss that doubles while its KL weight is annealed up is healthy, not a
    climb that stayed; k16: "the lr shouldn't matter that much?" is a belief, and k04: "nothing else changed (same lr
    3e-4)" a rate kept, neither a lower rate that failed; k14: raw inputs share a classifier's enormous start (WR-330
    says its first loss is far above ln C); (review_session31 a15) "x_train is divided by 255" scales the inputs."""
    from trainwreck.input_scaling import scaled_said

    vae = "".join(f"Epoch {e}/8  beta={b:.2f}  loss={v}\n" for e, (b, v) in enumerate(
        zip((0, .25, .5, .75, 1, 1, 1, 1), ("48.72", "91.35", "108.40", "112.90", "114.60", "114.50", "114.30", "114.20")),
        1))
    # (healthy; or normal, answered by the KL weight's rise itself)
    annealed = diagnosis("VAE on MNIST with KL annealing: beta goes from 0 to 1 over 4 epochs.\n" + vae)
    assert annealed.verdict == "healthy" or (annealed.verdict == "normal"
                                             and annealed.normal[0].name == "a VAE's total loss under a KL weight that rises")
    assert diagnosis(vae).signature.name == "climbed-and-stayed"      # (without the words, the numbers alone climbed)
    assert lr_tried("I thought RMSprop adapts the step size by itself so the lr shouldn't matter that much?") == ""
    assert lr_tried("Nothing else changed (same lr 3e-4, same batch).") == ""
    assert scaled_said("x_train is divided by 255 and y is one-hot.") == {"scaled": {"inputs": "x_train is divided"},
                                                                          "unscaled": {}, "printed": {}, "code": {}}
    raw = keras_epochs([2842.1, 0.6712, 0.6660, 0.6659], [0.6801, 0.7120, 0.7134, 0.7134])
    assert "start" in weighed_parts("BCE from_logits on income and loan amount, unscaled.\n" + raw, "WR-330")


def test_a_split_named_alone_is_read_as_the_loss_only_where_the_paste_names_a_loss():
    """(review_session33_blind h10) `epoch 1  train 0.0912  val 0.0851` under an MSELoss is the loss named by its split;
    the same rows under "accuracy per epoch:", or in a paste that names no loss at all, are not read as one."""
    rows = "".join(f"epoch {e}  train {v}  val {v}\n" for e, v in enumerate(("0.61", "0.72", "0.80", "0.86"), 1))
    read = diagnosis("criterion = nn.MSELoss()\n" + rows).evidence
    assert read.dialect == "lines of a count, a train and a val value" and read.count == 4
    assert read.head == [0.61, 0.72, 0.80, 0.86] and read.where(3) == "epoch 4"
    for refused in ("accuracy per epoch:\n" + rows, "My model:\n" + rows):
        assert diagnosis(refused).signature.name == "no-loss", refused


def test_review_session33_normalising_silent_inputs_and_the_gap_that_was_a_flower():
    """(review_session33_blind h14) a per-example normalisation by the std (`/ logmel.std()`) beside "silent
    recordings" or "`max()` is exactly 0.0" divides a constant by its zero std: WR-060's; (review_session33_changes k21)
    "a 6k-image flowers subset" holds no "lower": a validation loss going up is overfitting, not a gap."""
    from trainwreck.input_scaling import ALL_ZERO_INPUT
    from trainwreck.normals import normals_asked

    for said in ("they are silent (digital zero) recordings", "`wav.abs().max()` is exactly 0.0", "some all-zero images"):
        assert ALL_ZERO_INPUT.search(said), said
    assert not ALL_ZERO_INPUT.search("the loss max() is 0.03")
    code = "logmel = (logmel - logmel.mean()) / logmel.std()\n"
    d = diagnosis(code + "Every few hundred steps the loss is nan. 23 clips are silent recordings.\n")
    assert d.matches[0].entry.id == "WR-060" and "says some inputs are all zeros" in " ".join(d.matches[0].evidence)
    asked = normals_asked("val_loss starts going up from epoch 6. Is this overfitting? CNN on a 6k-image flowers subset.")
    assert [n.name.split(":")[0] for n in asked] == ["overfitting"]


def test_a_jump_at_the_same_batch_of_two_epochs_is_the_bad_batch():
    """(review_session33_blind h06) x4900 at epoch 1, batch 4400 and x404 at epoch 2, batch 4400, the loss back down
    between them: the same examples break the loss each time they come round (WR-310); a climb through the epochs
    that jumps at every batch it prints is no such jump."""
    rows = [(1, 200, 0.4412), (1, 4000, 0.3855), (1, 4400, 1893.2), (1, 6000, 41.3), (2, 200, 3.88), (2, 4000, 3.10),
            (2, 4400, 1254.8), (3, 4000, 2.99)]
    log = "".join(f"epoch {e}  batch {b}  loss {v}\n" for e, b, v in rows)
    d = diagnosis("Keras MLP, shuffle=False.\n" + log)
    assert d.matches[0].entry.id == "WR-310"
    assert "x4.91e+03 at epoch 1, batch 4400 and x405 at epoch 2, batch 4400" in d.matches[0].evidence[0]
    climb = [(1, 2000, 2.3), (1, 4000, 23.0), (2, 2000, 230.0), (2, 4000, 2300.0), (3, 2000, 23000.0)]
    log = "".join(f"epoch {e}  batch {b}  loss {v}\n" for e, b, v in climb)
    assert "same-batch" not in weighed_parts(log, "WR-310")


def test_a_line_of_losses_with_no_brackets_is_a_list():
    """(review_session33_blind h09) `train loss per epoch: 1.412, 0.803, ...` is the loop's list of losses: read,
    and a smoothed cross-entropy that creeps to its floor at 99% accuracy stays healthy; a line that gives other keys
    beside the loss is not such a list."""
    from trainwreck.logscan.dialects.history import items

    said = ("criterion = nn.CrossEntropyLoss(label_smoothing=0.1)\n\ntrain loss per epoch: 1.412, 0.803, 0.642, 0.571, "
            "0.538, 0.521, 0.512, 0.507, 0.504, 0.503, 0.502, 0.502\n")
    d = diagnosis(said)
    assert d.evidence.count == 12 and d.verdict == "healthy"
    assert [i.label for i in items(said.encode())][:2] == ["value 1 of 'train loss per epoch'",
                                                           "value 2 of 'train loss per epoch'"]
    assert items(b"loss: 0.5, acc: 0.9, lr: 0.1\n") == []


def test_gradient_norms_that_shrink_by_orders_toward_the_input_are_the_first_layers_starved():
    """(review_session33_blind h07) gradient norms printed layer by layer, 3.1e-10 at layer 0 to 1.2e-02 at layer 11
    (7.6 orders of magnitude) under words of gradients: WR-120's "first layers get no gradient in a deep sigmoid
    network"; norms within a few orders, rows not under words of gradients, or layers out of order are not."""
    from trainwreck.gradient_norms import gradients_shrink_to_the_input as shrink

    rows = "layer  0  3.1e-10\nlayer  3  7.8e-08\nlayer  6  1.9e-06\nlayer  9  5.2e-05\nlayer 11  1.2e-02\n"
    said = "I printed the gradient norm of each Linear's weight after the first backward:\n\n"
    assert "7.59 orders of magnitude smaller at the first layer" in shrink(said + rows)
    assert shrink("Activations of each layer:\n\n" + rows) == ""
    assert shrink(said + "layer 0  0.0031\nlayer 1  0.0120\nlayer 2  0.0410\n") == ""      # a factor of 13
    assert shrink(said + "layer 3  3.1e-10\nlayer 0  7.8e-08\nlayer 6  1.2e-02\n") == ""
    losses = "".join(f"epoch {e}  loss {v}\n" for e, v in ((1, "2.3019"), (2, "2.3013"), (5, "2.3011")))
    assert first("12 blocks of nn.Linear + nn.Sigmoid, stuck at 2.30.\n" + losses + said + rows) == "WR-120"
    # (ux_review_s66 M3) or on one line of gradients, two layers or more, in order
    assert "7.11 orders of magnitude smaller" in shrink("grad norm layer1: 3.2e-09  layer10: 0.041")
    assert "8.7 orders" in shrink("grads layer_0=1e-10 layer_5=2e-3 layer_9=0.05")
    for line in ("grad norm layer10: 3.2e-09  layer1: 0.041", "grad norm layer1: 0.003  layer10: 0.041",
                 "activation std layer1: 3.2e-09  layer10: 0.041", "lr per layer, grads: layer1: 1e-9 layer10: 0.04"):
        assert shrink(line) == "", line
    assert first("10-layer MLP with sigmoid, PyTorch\n" + losses + "grad norm layer1: 3.2e-09  layer10: 0.041\n") \
        == "WR-120"


def test_the_first_and_last_layers_gradient_norms_said_in_a_sentence_are_the_first_layers_starved():
    """The two ends said in words ("3.1e-09 for the first Dense and 0.27 for the last one") are the same fact as the rows
    printed; not the first and the last epochs, not a sentence that names no layer, and not ends within a few orders."""
    from trainwreck.gradient_norms import gradients_shrink_to_the_input as shrink

    assert "7.94 orders of magnitude smaller at the first layer" in shrink(
        "When I print the gradient norm of each layer after one batch I get 3.1e-09 for the first Dense and 0.27 for "
        "the last one.")
    assert "5.4 orders" in shrink("The first layer gets a gradient of 2e-7 while the output layer gets 0.05.")
    for text in ("The gradient norm of the dense layer is 1e-6 for the first epoch and 0.5 for the last.",
                 # (code_review_s47 H4: learning rates, dropout or a clip set per layer; a supposition; a question)
                 "Layer-wise learning rates, 1e-6 for the first layers and 0.01 for the last layer, gradient clipping 1.",
                 "If the first layer's gradient were 1e-9 and the last layer's 0.1, that would be vanishing gradients.",
                 "With gradient checkpointing on, dropout is 0.00001 in the first layer and 0.5 in the last layer.",
                 "Is a gradient of 1e-9 in the first layer and 0.1 in the last layer normal?",
                 "The gradient norm is 1e-8 for the first and 0.3 for the last.",
                 "The gradient norm of the first layer is 0.01 and of the last layer 0.2."):
        assert shrink(text) == "", text
    report = ("Ten Dense(256, activation='sigmoid') layers, softmax over 26 classes, SGD 0.1. The loss stays between "
              "3.25 and 3.26 for 50 epochs. The gradient norm of the first Dense after one batch is 3.1e-09, of the "
              "last one 0.27.")
    assert first(report) == "WR-120"


def test_a_printed_describe_with_columns_on_very_different_scales_is_unnormalised_inputs():
    """(review_session33_blind h33) pandas' describe() of the inputs, one column spanning 938,000 and another 1: features
    on very different scales, WR-330's printed fact; not columns of one scale, nor where the words say the inputs
    were scaled."""
    from trainwreck.input_scaling import feature_scales_printed

    table = ("       annual_income  loan_amount    age  utilization\nmean    68412.55   14230.10  41.27  0.38\n"
             "min     12000.00    1000.00  21.00  0.00\nmax    950000.00   40000.00  79.00  1.00\n")
    assert "9.38e+05 times less" in feature_scales_printed(table)
    assert feature_scales_printed("min  0.0  0.1  0.2\nmax  1.0  3.0  5.0\n") == ""
    assert feature_scales_printed("max  950000.0  1.0\nmin  12000.0  0.0\n") == ""          # (a max row before any min)
    keras = keras_epochs([412.33, 0.6021, 0.5990, 0.5989], [0.6412, 0.7129, 0.7134, 0.7134])
    assert first("Stuck at 71%, the share of repaid loans.\n" + keras + table) == "WR-330"
    assert "feature-scales" not in weighed_parts("I standardised the inputs with StandardScaler.\n" + keras + table,
                                                 "WR-330")


def test_review_session33_final_scaled_inputs_said_as_a_note():
    """(review_session33_final m10) "Features standardized with StandardScaler, target is the year as is" scaled the
    inputs, not the targets (the object of a participle ends at its comma, and a subject needs no verb before it): the
    raw years are WR-360's, first; raw inputs do not share an enormous start the words say was not theirs (m18, m26)."""
    from trainwreck.input_scaling import scaled_said

    said = "Features standardized with StandardScaler, target is the year as is (1922-2011)."
    # (and the years' range, 1922-2011, reads as targets in their raw units)
    assert scaled_said(said) == {"scaled": {"inputs": "Features standardized"},
                                 "unscaled": {"targets": "target is the year as is (1922-2011)"}, "printed": {}, "code": {}}
    assert scaled_said("I standardized the inputs, targets are raw")["scaled"] == {"inputs": "standardized the inputs"}
    keras = keras_epochs([2842.1, 0.6712, 0.6660, 0.6659], [0.6801, 0.7120, 0.7134, 0.7134])
    assert "start" not in weighed_parts("The inputs are standardized.\n" + keras, "WR-330")
    assert "start" in weighed_parts("The inputs are standardized.\n" + keras, "WR-120")


def test_an_nll_loss_handed_a_softmax_goes_below_zero_with_valid_labels():
    """(review_session33_final m17) nn.NLLLoss returns minus the input's entry for the label: handed a softmax's
    probabilities, minus the label's probability, between -1 and 0 (WR-130's page). Not WR-320's "cannot with valid
    targets"; nor read so for a model that ends in a log_softmax, or a loss below -1."""
    model = ("self.head = nn.Sequential(nn.Linear(128, 256), nn.ReLU(), nn.Linear(256, 5), nn.Softmax(dim=1))\n"
             "criterion = nn.NLLLoss()\n")
    rows = "".join(f"epoch {e} | train loss {v}\n" for e, v in enumerate(("-0.2514", "-0.3571", "-0.4688", "-0.5495")))
    d = diagnosis(model + rows + "Labels are 0-4 (checked).\n")
    assert d.matches[0].entry.id == "WR-130" and "between -1 and 0" in d.matches[0].evidence[0]
    assert not any("cannot with valid targets" in e for m in d.matches for e in m.evidence)
    assert "nll-of-probabilities" not in weighed_parts(model.replace("nn.Softmax", "nn.LogSoftmax") + rows, "WR-130")
    assert "nll-of-probabilities" not in weighed_parts(model + rows.replace("-0.5495", "-3.5495"), "WR-130")


def test_a_nan_said_not_to_happen_is_no_nan():
    """(review_session33_final m11) "no NaNs", "I never get any NaN", "GradScaler is there to avoid NaN/inf": half
    precision switched on is not held up as a suspect "in a run whose loss turned nan or inf"."""
    from trainwreck.sentences import said_unnegated

    for said in ("AMP trains much worse than fp32, no NaNs", "I never get any NaN", "it is only there to avoid NaN/inf"):
        assert not said_unnegated(said, {"nan", "inf"}), said
    assert said_unnegated("[Potential NAN bug] Loss may become NAN during training", {"nan", "inf"})
    rows = "".join(f"epoch {e} loss {v}\n" for e, v in enumerate(("2.31", "2.02", "1.91"), 1))
    said = ("AMP (autocast fp16) trains much worse than fp32, no NaNs.\nI added autocast to speed it up and skipped "
            "GradScaler, because it is only there to avoid NaN/inf, and I never get any NaN.\n")
    assert diagnosis(said + rows).matches[0].entry.id == "WR-040"
    assert not any("turned nan or inf" in e for m in diagnosis(said + rows).matches for e in m.evidence)


def test_fairseqs_gradients_are_nan_inf_stops_the_run_after_the_last_loss_printed():
    """(review_session33_final m16) fairseq raises `FloatingPointError: gradients are Nan/Inf` when the gradients' norm
    is not finite (fairseq/trainer.py at v0.12.3): after a loss that climbed, it is the climb's non-finite end, read as
    one more value (WR-220 first), and said to be the gradients', not the loss's."""
    rows = "".join(f"epoch 001:  {u} / 1102 loss={v}, nll_loss={v}, num_updates={u}, lr={u * 1.25e-6:g}, gnorm={g}\n"
                   for u, v, g in ((100, 12.563, 2.2), (200, 10.872, 1.4), (300, 10.115, 1.2), (400, 9.664, 1.1),
                                   (500, 9.421, 1.4), (600, 9.507, 3.9), (700, 10.338, 12.9), (800, 11.902, 57.3),
                                   (900, 14.217, 406.1)))
    log = rows + 'Traceback (most recent call last):\n    raise FloatingPointError("gradients are Nan/Inf")\n' \
        "FloatingPointError: gradients are Nan/Inf\n"
    d = diagnosis(log)
    assert d.matches[0].entry.id == "WR-220" and d.evidence.first_nonfinite is not None
    assert any("at gradients that were inf or nan" in e for e in d.matches[0].evidence)


def test_a_sqrt_method_on_a_squared_difference_is_the_square_root_that_can_meet_zero():
    """(review_session33_final m23) `((pos[row] - pos[col]) ** 2).sum(-1).sqrt()` is sqrt at a zero distance (a
    self-loop), as `torch.sqrt(...)` of the same is; not with an eps added by a method or inside, nor a bare `var.sqrt()`."""
    from trainwreck.breaking_constructs import breaking_construct

    assert "sqrt-at-zero" in breaking_construct("dist = ((pos[row] - pos[col]) ** 2).sum(-1).sqrt()\n")
    for guarded in ("d = (x ** 2).sum(-1).add(1e-8).sqrt()\n", "d = (a - b).pow(2).sum(1).add(eps).sqrt()\n",
                    "d = ((a - b) ** 2 + 1e-12).sum(-1).sqrt()\n", "std = var.sqrt()\n"):
        assert "sqrt-at-zero" not in breaking_construct(guarded), guarded


def test_a_keras_backend_sqrt_of_a_squared_difference_is_the_square_root_that_can_meet_zero():
    """A Siamese distance written with Keras's backend, `K.sqrt(K.sum(K.square(x - y), axis=1))`, is 0 for two
    identical inputs, as torch.sqrt of the same is; not with K.epsilon() as its floor, nor keras.ops' with one added."""
    from trainwreck.breaking_constructs import breaking_construct

    for bare in ("    return K.sqrt(K.sum(K.square(x - y), axis=1, keepdims=True))\n",
                 "d = keras.ops.sqrt(keras.ops.sum(keras.ops.square(a - b), axis=-1))\n",
                 "d = keras.backend.sqrt(keras.backend.sum(keras.backend.square(x - y), axis=1))\n"):
        assert "sqrt-at-zero" in breaking_construct(bare), bare
    # (an eps by any name guards it: added as a call or an attribute too)
    for guarded in ("    return K.sqrt(K.maximum(K.sum(K.square(x - y), axis=1, keepdims=True), K.epsilon()))\n",
                    "d = keras.ops.sqrt(keras.ops.sum(keras.ops.square(a - b), axis=-1) + 1e-7)\n",
                    "    return K.sqrt(K.sum(K.square(x - y), axis=1, keepdims=True) + K.epsilon())\n",
                    "d = torch.sqrt(((a - b) ** 2).sum(-1) + self.eps)\n"):
        assert "sqrt-at-zero" not in breaking_construct(guarded), guarded


def test_spikes_are_answered_as_noise_only_beside_a_curve_that_trends_down():
    """(review_session33_final m32) the answer "isolated spikes in a curve that trends down are mini-batch noise" is
    not given beside values that did not fall (a paste of the spikes alone, ~4990 each epoch over a loss of 0.002);
    beside a curve that falls, it still is."""
    spikes = "".join(f"epoch {e}: step {s}  loss {v}\n" for e, s, v in ((1, 118, 4987.31), (2, 301, 4991.84),
                                                                      (3, 27, 4979.62), (4, 655, 4985.07)))
    said = "One huge loss spike every epoch at a random step.\n"
    assert diagnosis(said + spikes).verdict != "normal"
    falling = "".join(f"step {s}: {v}\n" for s, v in ((0, 2.31), (100, 1.52), (200, 3.9), (300, 1.01), (400, 0.84)))
    assert diagnosis(said + falling).normal[0].name == "spikes in a falling curve"


def test_factcheck_session33_keras_sums_and_losses_that_grow_by_design():
    """(factcheck_session33) Keras prints a loss function's own sum as it is (reduce_values returns a scalar unchanged),
    and add_loss or a regularizer adds terms: where the paste shows one, a Keras first loss of 100 is no mean's; a loss
    whose weight is ramped up, or a curriculum that makes the task harder, grows by design and is not read as a climb
    that stayed when it only doubled."""
    chance = keras_epochs([2911.4673, 61.2210, 2.3204, 2.3027], [0.1012, 0.0998, 0.0993, 0.1001])
    assert diagnosis(chance).signature.enormous_start
    summed = "def my_loss(y_true, y_pred):\n    return tf.reduce_sum(tf.square(y_true - y_pred))\n"
    assert not diagnosis(summed + chance).signature.enormous_start
    doubled = "".join(f"epoch {e} loss {v}\n" for e, v in enumerate(("0.52", "0.61", "1.15", "1.21", "1.22"), 1))
    assert diagnosis(doubled).signature.name == "climbed-and-stayed"
    for by_design in ("The consistency weight is ramped up from 0 over 3 epochs.\n",
                      "Curriculum: longer sequences from epoch 3.\n"):
        assert diagnosis(by_design + doubled).signature.name != "climbed-and-stayed", by_design


def test_a_loss_that_never_went_below_its_first_value_and_ends_at_twice_it_is_no_healthy_run():
    """(review_session36_final f15) 9.84, 31.27, 18.55, 64.02, 22.90: it swung, and came down from its peak, but never
    below where it started, and it ends at 2.3x that. A watch that saw the rise and a last value below the peak had made
    it "healthy"; no healthy run ends at twice its start without ever going below it."""
    swung = "".join(f"epoch {e}: loss {v}\n" for e, v in enumerate(("9.84", "31.27", "18.55", "64.02", "22.90"), 1))
    d = diagnosis(swung)
    assert d.signature.name == "climbed-and-stayed" and d.matches[0].entry.id == "WR-220"
    assert ("the loss never went below its first value, 9.84 (epoch 1): it rose as high as 64.02 and ends at 22.9 "
            "(epoch 5), 2.33x where it started") in d.signature.facts[0]
    # the bounds: below twice its start at the end, or once below its first value, or three values only: not this
    for values in (("9.84", "31.27", "18.55", "64.02", "19.5"), ("9.84", "31.27", "9.5", "64.02", "22.90"),
                   ("9.84", "31.27", "22.90")):
        curve = "".join(f"epoch {e}: loss {v}\n" for e, v in enumerate(values, 1))
        assert "never went below its first value" not in " ".join(diagnosis(curve).signature.facts), values
    # one that fell, climbed back in growing swings and ends at twice its first value and three times its lowest, below
    # its peak (review_session37_final f20): not a bump it recovered from
    waves = "".join(f"iter {10 * i} loss {v}\n" for i, v in enumerate(
        (1.5716, 1.3870, 1.2006, 0.8438, 2.0426, 1.3095, 4.5195, 2.5358, 8.0812, 2.6028, 5.2547, 3.4422), 1))
    d = diagnosis(waves)
    assert d.signature.name == "climbed-and-stayed" and d.signature.facts[0].startswith(
        "the loss fell to 0.8438 (iter 40), climbed back as high as 8.081, and ends at 3.442 (iter 120): 2.19x its "
        "first value, 1.572 (iter 10), and 4.08x its lowest")
    assert diagnosis(waves.replace("3.4422", "2.2422")).signature.name != "climbed-and-stayed"     # (under 2x its first)
    # words that say the run went nan: the values a sentence chose may stop short of it, and "no nan to stop it" would
    # be false; a nan denied, in English or in another language, is none
    assert diagnosis("It goes nan at step 3000. " + swung).signature.name != "climbed-and-stayed"
    for denied in ("No nan anywhere.\n", "nan은 안 뜹니다.\n"):
        assert diagnosis(denied + swung).signature.name == "climbed-and-stayed", denied
    # ... nor one that went on to inf or nan: it did not fall before it broke (review_session37_blind q21, NumPy at lr 6,
    # with the log-of-zero warnings its overshoot set off)
    numpy = "".join(f"epoch {e}  loss {v}\n" for e, v in enumerate(("0.7247", "4.3799", "1.9667", "2.4490", "inf", "nan")))
    d = diagnosis(numpy)
    assert d.signature.name == "climb-then-nonfinite" and d.matches[0].entry.id == "WR-220"
    assert d.signature.facts[0].startswith("the loss never went below its first value, 0.7247 (epoch 0): it rose to 4.38 "
                                           "at epoch 1, 6.04x where it started, and stayed above it; first inf at epoch 4")
    # not where the log starts mid-run (its first value is not the run's), nor below twice the first
    for other in (numpy.replace("epoch ", "epoch 42"), numpy.replace("4.3799", "1.3799").replace("1.9667", "1.2667").replace("2.4490", "1.4490")):
        assert diagnosis(other).signature.name != "climb-then-nonfinite", other


def test_a_running_loss_printed_as_a_sum_is_read_as_means():
    """(review_session33_new k07) The loop adds each batch's loss to a name and prints it every n batches undivided:
    each print is a sum of n losses, and `% n == 0` prints the first after one batch, so the second comes out about n
    times the first. Read as means, that is a falling loss, not a climb; the user's own numbers must agree."""
    loop = ("for epoch in range(3):\n    total = 0.0\n    for step, (xb, yb) in enumerate(train_dl):\n"
            "        loss = loss_fn(model(xb), yb)\n        loss.backward()\n        opt.step()\n        opt.zero_grad()\n"
            "        total += loss.item()\n        if step % 100 == 0:\n"
            "            print(f'epoch {epoch} step {step} loss {total:.2f}')\n            total = 0.0\n")
    log = "".join(f"epoch 0 step {s} loss {v}\n" for s, v in ((0, "1.10"), (100, "105.30"), (200, "96.10"),
                                                               (300, "90.20"), (400, "84.80")))
    d = diagnosis(loop + log)
    assert d.verdict == "healthy"
    assert d.signature.facts[0].startswith(
        "the printed loss is a sum, not a mean: the pasted loop adds each batch's loss to `total` and prints it every 100 "
        "batches without dividing by 100 (its first print, after batch 0, holds that one batch alone: the next, 105.3, "
        "holds the 100 after it and is 95.7x it); read as means, each sum divided by 100: 5 loss values, all finite: the loss fell from 1.1 to "
        "0.848")
    assert "No known failure found. The printed loss is a sum" in report(d)
    # the numbers disagree (a second print 3x the first, not about 100x), or the print divides, or a mean is added:
    # read as printed (and then the loss never went below its first value)
    for other in (log.replace("105.30", "3.30").replace("96.10", "3.10").replace("90.20", "2.95").replace("84.80", "2.90"),):
        assert "is a sum" not in " ".join(diagnosis(loop + other).signature.facts)
    for loop2 in (loop.replace("{total:.2f}", "{total / 100:.2f}"), loop.replace("loss.item()", "loss.item() / 100"),
                  loop.replace("            total = 0.0\n", "")):
        assert "is a sum" not in " ".join(diagnosis(loop2 + log).signature.facts), loop2
    # each epoch's first print, at its batch 0, holds one batch alone too
    two = log + "".join(f"epoch 1 step {s} loss {v}\n" for s, v in ((0, "0.81"), (100, "79.60"), (200, "75.20")))
    assert "the loss fell from 1.1 to 0.752" in diagnosis(loop + two).signature.facts[0]
    assert diagnosis(loop + two).evidence.low == 0.752
    # `% n == n - 1` prints every sum whole: the shape is the same, the values are means
    last = loop.replace("step % 100 == 0", "step % 100 == 99")
    sums = "".join(f"epoch 0 step {s} loss {v}\n" for s, v in ((99, "230.4"), (199, "161.0"), (299, "120.7")))
    assert "read as means, each sum divided by 100: 3 loss values, all finite: the loss fell from 2.304 to 1.207" \
        in diagnosis(last + sums).signature.facts[0]


def test_review_session37_blind_prose_readings():
    """(review_session37_blind q02, q07, q16, f13 of review_session36_final) Decimal commas are decimal marks in a text
    that writes its decimals so; a count in Chinese, Japanese or Korean is no value; a key's value followed by more
    after commas is a sentence's list; a value the words say the run printed again and again is a frozen tail; and a
    few values beside words in another script are too little to call the run healthy."""
    from trainwreck.logscan.dialects.prose_values import items

    def read(text: str) -> list[float]:
        return [float(i.number) for i in items(text.encode())]

    german = ("Der Loss startet bei 2,30, fällt in der ersten Epoche auf 1,62 und kriecht danach nur noch: 1,49, 1,481, "
              "1,476 … nach 20 Epochen 1,4725. Die Genauigkeit ist 99,3 %.")
    assert read(german) == [2.3, 1.62, 1.49, 1.481, 1.476, 1.4725]
    # (a text that writes a decimal point keeps its commas as separators; "1,481" alone may be a thousand and more)
    assert read("loss 1,481, then 1,476 and 1,470 with lr 0.1") == []
    assert read("Loss starts at 1,481, then 1,476 and 1,470.") == []
    assert read("第一轮的 loss 是 1.0986，训练 500 轮，之后 1.0949，然后 1.0949。") == [1.0986, 1.0949, 1.0949]
    # an ordinal is a place, and a decimal comma stays one before a list's comma (review_session37_final f03)
    assert read("Loss на нулевой эпохе 1,0986, к 20-й эпохе 1,0805, и дальше 1,0805.") == [1.0986, 1.0805, 1.0805]
    # after a sentence whose values end at a nan, a later one retells the run: it replaces them where it gives more,
    # and is dropped where it gives fewer or no nan (review_session37_blind q05: "followed by 3 finite values later")
    told = "The loss goes down (0.69 at the start, 0.41 by step 1800), then step 1843 prints nan. "
    assert str(read(told + "The last losses are 0.412, 0.409, 0.415, nan.")) == "[0.412, 0.409, 0.415, nan]"
    assert str(read(told + "Later the loss was 0.5, 0.4 and 0.3.")) == "[0.69, 0.41, nan]"
    assert str(read(told + "The loss was 0.5, 0.4, nan.")) == "[0.69, 0.41, nan]"     # (no more values than those)
    # a key's one value followed by more after commas: the sentence's list, not a keyed log of one value
    spiked = ("Loss: 0.70, 0.74, 0.61, 0.55, then a spike to 1.9 at epoch 9, 1.2 at epoch 15, and from epoch 24 to 500 it "
              "prints 0.6803 at every single epoch. Every prediction is the same.")
    d = diagnosis(spiked)
    assert d.evidence.count == 7 and d.signature.name == "stall-after-drop" and d.matches[0].entry.id == "WR-140"
    assert ('the loss froze: the report says it printed 0.6803 again and again ("0.6803 at every single epoch"), after '
            "it had moved") in d.signature.facts[0]
    assert diagnosis("Loss: 0.70\nLoss: 0.74\nLoss: 0.61, acc 0.5\n").evidence.dialect != "loss values given in a sentence"
    # ... a gradient's norm said again and again is not the loss's; a batch norm or a clipping named in passing is no
    # other subject (review s56b, 13)
    curve = "".join(f"epoch {e} loss {v}\n" for e, v in enumerate(("0.693", "0.671", "0.640", "0.622", "0.618"), 1))
    for said, frozen in (("The global grad norm is 0.6109 every step.", False), ("grad-norm 0.6109 at every step", False),
                         ("My total_norm prints 0.6109 every single step.", False),
                         ("The gradients of the first layer are 0.6109 every single epoch.", False),
                         ("Since I added batch norm it prints 0.6109 every single epoch.", True),
                         ("With gradient clipping on, it prints 0.6109 every single epoch.", True)):
        assert (diagnosis(curve + said).signature.name == "stall-after-drop") == frozen, said
    # ... each value maybe with its place (review_session37_blind q14)
    placed = diagnosis("Prices as they are, MSE. Epoch 0 loss: 3.9e10, epoch 1: 2.2e12, epoch 2: 7.5e19, epoch 3: inf.")
    assert placed.evidence.count == 4 and placed.evidence.first_nonfinite == 3
    # the frozen value must be the last one read, and the loss must have moved before it
    assert diagnosis("Loss: 0.70, 0.74, 0.61, 0.55, then 1.9, 1.2 and 0.6803. Earlier it was frozen at 0.5500 for a "
                     "while.").signature.name != "stall-after-drop"
    # few values from a sentence beside words in another script: not enough to call the run healthy
    zh = ("loss 从第一轮开始就不动，梯度一直是 0。第一轮的 loss 是 1.0986，之后很快降到 1.0949，然后一直是 1.0949，"
          "一点都不变。没有任何警告，也没有 nan。")
    assert diagnosis(zh).verdict == "no-evidence"
    assert diagnosis("The loss is 1.0986, then 1.0949, then 1.0949.").verdict == "healthy"


def test_review_session37_blind_opencv_said_in_words_and_no_gap_between_equal_curves():
    """(review_session37_blind q18) Images loaded "with OpenCV" and made a tensor with `.float()` and no division are
    raw pixels (cv2.imread gives 8-bit ones), the code quoted as the sentence quotes it; and "train and validation
    accuracy 10.0%. Every image gets the same prediction" says no gap between the curves."""
    from trainwreck.normals import normals_asked

    report_ = ("CNN stuck at 10% accuracy on CIFAR-10\nI load the images myself with OpenCV and do `x = torch.from_numpy(img).permute(2, 0, 1).float()`, then "
               "batch them. Cross-entropy, SGD. The first batch loss is 41.7, by batch 50 it's 2.31, and then it reads "
               "2.3026 for all 20 epochs; train and validation accuracy 10.0%. Every image gets the same prediction.")
    d = diagnosis(report_)
    assert d.verdict != "normal" and d.matches[0].entry.id == "WR-330"
    assert ("the paste reads images with OpenCV (8-bit pixels, 0 to 255) and builds its inputs from them with no division "
            "by 255 (`x = torch.from_numpy(img).permute(2, 0, 1).float()`)") in " ".join(d.matches[0].evidence)
    assert not any(n.name.startswith("a gap") for n in normals_asked(report_))
    assert any(n.name.startswith("a gap") for n in normals_asked("why do fit and evaluate give different losses?"))


def test_a_climb_that_levelled_off_at_its_top_before_the_nan_is_a_climb():
    """(review_session37_final f31) 3.36 -> 7.61 over six prints, then 7.59, 7.60 and nan: the last rise is not the
    last value, but the values before the nan are the climb's, not a loss "not rising at the end" that jumped."""
    values = [8.87, 6.39, 4.99, 4.25, 3.90, 3.36, 3.41, 3.49, 3.70, 4.32, 5.90, 7.38, 7.61, 7.59, 7.60]
    log = "".join(f"iteration {100 * (i + 1)} | lm loss: {v:.6E} |\n" for i, v in enumerate(values)) + \
        "iteration 1600 | lm loss: nan |\n"
    d = diagnosis(log)
    assert d.signature.name == "descent-then-climb"          # (it fell for five prints first)
    assert ("the loss climbed from 3.36 at iteration 600 to 7.61 at iteration 1300 (x2.26) and stayed near its top, at "
            "7.6 by iteration 1500; first nan at iteration 1600") in " ".join(d.signature.facts)
    assert diagnosis(log.replace("8.870000E+00", "3.460000E+00").replace("6.390000E+00", "3.440000E+00").replace(
        "4.990000E+00", "3.420000E+00").replace("4.250000E+00", "3.400000E+00").replace("3.900000E+00", "3.380000E+00")
    ).signature.name == "climb-then-nonfinite"
    # a jump from a level loss (no climb in the values before the nan) is still the jump
    level = "".join(f"iteration {100 * (i + 1)} | lm loss: {v:.6E} |\n" for i, v in enumerate(values[:6] + [3.35] * 9))
    assert "not rising at the end" in diagnosis(level + "iteration 1600 | lm loss: nan |\n").signature.facts[0]


def test_a_convex_model_that_levels_off_has_converged_not_stalled():
    """(review_session37_final f34) A NumPy logistic regression whose loss falls from ln 2 and levels off at 0.4576 beside
    a sigmoid's exp overflow: a model with no hidden layer has a convex loss, so the level is its minimum, not units
    that died; the overflow beside a finite, falling loss is the harmless one."""
    log = ("epoch   0  loss 0.6931  acc 0.496\nlogreg.py:14: RuntimeWarning: overflow encountered in exp\n"
           + "".join(f"epoch {20 * i:3d}  loss {v}  acc 0.78\n" for i, v in enumerate(
               ("0.4845", "0.4654", "0.4603", "0.4586", "0.4580", "0.4577", "0.4577", "0.4576", "0.4576", "0.4576"), 1)))
    d = diagnosis("My logistic regression in numpy warns about overflow, should I worry?\n" + log)
    assert d.signature.name == "healthy" and d.verdict == "normal"
    assert d.normal[0].name == "an overflow warning beside a finite loss"
    # with a hidden ReLU layer the same curve is a stall again
    assert diagnosis("My numpy MLP with a ReLU hidden layer warns about overflow, should I worry?\n" + log
                     ).signature.name == "stall-after-drop"


def test_an_enormous_first_loss_that_fell_and_then_broke_is_still_an_enormous_start():
    """(review_session37_last g32) A regression's first MSE of 9.8e6 (targets in kW, mean about 3084), 1.5e6 after one
    update, then a climb to inf under gradient descent: a high start that a healthy run falls from is no evidence, but
    one that went on to inf is, and the curve's against ("not enormous from the first value") was false. The fact says
    that the loss fell below half of it before the run broke, not that it never did."""
    code = "MLP regression of the load in kW, inputs standardised, plain gradient descent, lr = 0.01\n"
    log = "".join(f"epoch {e}: train_mse={v}\n" for e, v in enumerate(
        ("9.8237e+06", "1.506e+06", "3.8516e+11", "3.4812e+25", "3.1233e+68", "3.5239e+197", "inf", "nan")))
    d = diagnosis(code + log)
    assert d.signature.enormous_start and d.matches[0].entry.id == "WR-360"
    top = d.matches[0]
    assert not any("does not look like" in a for a in top.against)
    assert any("is enormous (it fell below half of it before the run broke): a squared error that large takes errors "
               "of about 3134" in e for e in top.evidence)
    # a high start that falls and stays finite is still no enormous start
    fell = "".join(f"epoch {e}: train_mse={v}\n" for e, v in enumerate(("9.8237e+06", "1.506e+06", "2.1e+05", "3.3e+04",
                                                                          "5.2e+03", "900.1", "402.7", "350.2")))
    assert not diagnosis(code + fell).signature.enormous_start


def test_a_nan_denied_in_another_language_is_no_nan():
    """(review_session36_final f15) Korean and Japanese deny after the word ("nan은 안 뜹니다", "NaNは出ません"), Chinese,
    Russian, German, French, Spanish and Portuguese before it; English's rule looks only before it. And a nan written
    against another script's letters ("NaNになります", "nan이") is a nan: no ASCII word boundary is needed."""
    from trainwreck.sentences import said_unnegated

    for denied in ("nan은 안 뜹니다", "NaN이 없습니다", "NaNは出ません", "NaNにはならない", "没有出现nan", "нет nan",
                   "keine NaN", "pas de nan", "sin nan", "sem NaN",
                   # (review_session37_final f02, f03, f04, f14: after another noun, and more languages)
                   "NaNも警告も出ていません", "NaN нет.", "NaN не появляется", "Geen NaN, geen waarschuwingen.", "NaN yok.",
                   "brak NaN",
                   # (review_session38_blind h05, h07, h16: Polish, Hindi written in Latin letters, Indonesian; and more)
                   "Nic nie jest NaN.", "Koi NaN nahi aaya", "Tidak ada NaN di mana pun", "không có NaN", "ningún NaN",
                   "nenhum NaN", "není NaN",
                   # (review_session38_final f05: Italian; and the other Romance languages' "there is no")
                   "Non ci sono NaN nei dati", "no hay NaN", "não há NaN", "il n'y a pas de NaN"):
        assert "nan" not in tokens(denied) and not said_unnegated(denied, {"nan"}), denied
    for said in ("loss가 nan이 됩니다", "NaNになります", "Loss变成NaN了", "la loss devient nan", "лосс стал nan",
                 "loss jadi NaN", "loss NaN ho jata hai", "loss staje się NaN",
                 # (a nan that does not go away: factcheck_session38 item 10)
                 "NaN не исчезает", "NaN nahi ja raha", "NaN yok olmuyor",
                 "lossがNaNになって、警告も出ません", "loss = nan, не понимаю почему"):
        assert "nan" in tokens(said) and said_unnegated(said, {"nan"}), said
    # English from further than four words (review_session37_blind q27), not across a clause's "and"
    assert "nan" not in tokens("Nothing in the data is nan (I checked df.isna().sum()).")
    assert "nan" not in tokens("Nothing is nan.") and "nan" in tokens("nothing is wrong with the data and the loss is nan")
    assert "input" in tokens("none of the inputs are NaN") and "nan" not in tokens("none of the inputs are NaN")
    for said in ("nothing helps, the loss is nan", "nothing in my code changes and the loss is nan"):
        assert "nan" in tokens(said), said
    # when, said in the other languages: from the start (review_session37_blind q04)
    for start in ("desde la iteración 0 la pérdida sale nan", "la loss est nan dès le début", "Loss ist von Anfang an NaN",
                  "loss 从第一轮开始就是 nan", "с самого начала loss = nan"):
        assert "when_start" in tokens(start), start


# ---- a clip placed after the optimizer's step ----------------------------------------------

LATE_CLIP_LOOP = """Transformer LM, AdamW lr 3e-3, clip_grad_norm_ at 1.0, loss explodes anyway:

    for batch in loader:
        logits = model(batch["input_ids"])
        loss = criterion(logits.flatten(0, 1), batch["labels"].flatten())
        loss.backward()
        {first}
        {second}
        scheduler.step()
        opt.zero_grad(set_to_none=True)

step 200 | loss 5.912
step 400 | loss 5.204
step 600 | loss 5.388
step 800 | loss 7.020
step 1000 | loss 11.65
step 1200 | loss 39.80
step 1400 | loss nan
"""
STEP, CLIP = "opt.step()", "torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)"


def test_a_clip_after_the_optimizer_step_is_a_climb_despite_clipping():
    """The clip after the step shortens no update (WR-240's third form, tested in its snippet); the same loop
    in the right order, or clipped before a scheduler's step, leaves the climb to the rate."""
    late = diagnosis(LATE_CLIP_LOOP.format(first=STEP, second=CLIP))
    assert late.signature.name == "climb-despite-clipping"
    assert [m.entry.id for m in late.matches[:2]] == ["WR-240", "WR-220"]
    assert any("the pasted loop clips after the optimizer's step() (`clip_grad_norm_...`)" in e
               for e in late.matches[0].evidence)
    # its first step of the fix is to move the call, not to tune the threshold (review_session36_blind q27); the
    # rate's entry keeps its own
    assert late.matches[0].fix.startswith("Move the `clip_grad_norm_()` call between backward() and step() (with "
                                          "gradient accumulation, after the last backward() before step()")
    # zero_grad() in the loop clears what was clipped; said only where the paste calls it (factcheck_session36 item 4)
    said = "zero_grad() cleared the clipped ones"
    assert any(said in e for e in late.matches[0].evidence) and "zero_grad" in LATE_CLIP_LOOP
    unclear = diagnosis(LATE_CLIP_LOOP.replace("        opt.zero_grad(set_to_none=True)\n", "").format(first=STEP,
                                                                                                       second=CLIP))
    assert unclear.signature.name == "climb-despite-clipping" and not any(said in f for f in unclear.signature.facts)
    assert late.matches[1].fix.startswith("Cut the learning rate")
    in_place = diagnosis(LATE_CLIP_LOOP.format(first=CLIP, second=STEP))
    assert in_place.matches[0].fix.startswith("Cut the learning rate")
    assert in_place.signature.name == "climb-then-nonfinite"
    assert in_place.matches[0].entry.id == "WR-220"
    # a loop with its clip before step() and a scheduler stepped before it: the scheduler's step is no update
    sched_first = LATE_CLIP_LOOP.replace("        scheduler.step()\n", "").replace(
        "loss.backward()\n", "loss.backward()\n        scheduler.step()\n")
    assert diagnosis(sched_first.format(first=CLIP, second=STEP)).signature.name == "climb-then-nonfinite"


# ---- an untrained model's output, nan ------------------------------------------------------

def test_an_untrained_models_nan_output_is_its_forward_pass_before_any_update():
    """No loss, no step, no training named: only the forward pass can have made the output nan, so the entries
    whose phrases say the output is nan from the start come first, and the ask is for what tells them apart."""
    said = ("Custom MaskedLinear layer gives nan\n"
            "I replaced nn.Linear with my MaskedLinear in a small MLP. The output tensor has the right shape but "
            "every value is nan, even for torch.randn inputs.")
    d = diagnosis(said)
    assert {m.entry.id for m in d.matches[:2]} == {"WR-110", "WR-120"}
    assert any("only the forward pass can make the output nan" in e for e in d.matches[0].evidence)
    assert d.ask.startswith("whether every parameter and the input batch are finite before the forward pass")
    # not when training is named, the model was trained elsewhere, the nan comes and goes, an op's output is nan,
    # or the nan is denied
    for text in ("After 3 epochs the output tensor is nan for every input.",
                 "The pretrained BERT gives predictions that are nan for every input.",
                 "Sometimes the output of the model is nan.",
                 "The softmax output is nan for one head.",
                 "The output is not nan, but it is constant."):
        assert "untrained-output" not in weighed_parts(text, "WR-110"), text


# ---- masks said to hold 255 ----------------------------------------------------------------

def test_masks_said_to_hold_255_are_labels_the_loss_cannot_take():
    """Masks stored as pictures hold 0 and 255: their pixels are the labels, not the inputs' pixels (WR-330), and
    255 is a class index or a target no two-class loss takes -- unless the paste divides them or ignores 255."""
    said = ("Road segmentation with a UNet: IoU stuck at 0\n"
            "My ground truth masks are PNG files, pixel values 0 and 255. Training runs for 40 epochs and the "
            "IoU never moves.")
    d = diagnosis(said)
    assert d.matches[0].entry.id == "WR-320"
    assert any('the report says its masks hold 255 ("ground truth masks are PNG files, pixel values 0 and 255")' in e
               for e in d.matches[0].evidence)
    assert "WR-330" not in [m.entry.id for m in d.matches]        # a mask's pixels are no input's
    for handled in ("My ground truth masks are PNG files, pixel values 0 and 255, and I divide them by 255.",
                    "The masks hold 0 and 255 (255 is void); CrossEntropyLoss(ignore_index=255).",
                    "The masks hold 0 and 255 and I threshold them at 127."):
        assert "mask-255" not in weighed_parts(handled + " IoU stuck at 0.", "WR-320"), handled


# ---- the review of session 34: a title, a sentence's values, a full stop, a span of epochs -----------------

def test_a_title_that_restates_the_log_is_not_one_more_value():
    """The first line, set apart by a blank line, whose numbers the log prints too, is the report's title: read as a
    value it put a second `step 0` before the log's first (a false "printed twice for its last step")."""
    paste = ("fp16 run: loss 2.3026 at step 0, then nan\n\n"
             "step 0 | loss 2.3026\nstep 1 | loss nan\nstep 2 | loss nan\n")
    d = diagnosis(paste)
    assert d.evidence.count == 3 and d.evidence.head[0] == 2.3026
    assert not any("printed twice" in e for m in d.matches for e in m.evidence)
    # a title that says something the log does not is kept (a value of its own)
    from trainwreck.logscan import scan_text

    kept = scan_text("loss 9.9 at the very start\n\nstep 0 | loss 2.3026\nstep 1 | loss 2.1\nstep 2 | loss 2.0\n")
    assert kept.head == [9.9, 2.3026, 2.1, 2.0]


def test_a_sentence_that_ends_on_a_value_gives_that_value():
    """A full stop after digits ends the sentence, not a decimal: "epoch 200 loss 3.91e10." is a value; a version's
    `1.2.3` and a message's `loss = NaN.` are not."""
    from trainwreck.logscan import scan_text

    assert scan_text("Epoch 1 loss 3.94e10, epoch 200 loss 3.91e10.").head == [3.94e10, 3.91e10]
    assert scan_text("loss 1.2.3 and more").count == 0
    assert scan_text("ERROR: Model diverged with loss = NaN.\n").count == 0


def test_trained_well_for_some_epochs_then_nan_is_later():
    assert when("It trains great for 8 epochs (val acc 0.99), then the epoch-9 loss prints nan") == {"later"}
    assert when("it ran smoothly for 3000 steps before the nan") == {"later"}


def test_without_the_two_half_calls_the_run_trains_is_full_precision_that_helped():
    from trainwreck.precision_said import precision_tried

    said = "Without the two .half() calls the same loop trains (2.30 -> 0.4 in one epoch)."
    assert precision_tried(said) == ("helped", said[:-1])
    paste = ("model = Net().cuda().half()\nopt = torch.optim.Adam(model.parameters(), lr=1e-3)\n\n"
             "step 0 | loss 2.3027\nstep 1 | loss nan\nstep 2 | loss nan\nstep 3 | loss nan\n\n" + said)
    assert first(paste) == "WR-040"


def test_a_few_values_that_span_many_epochs_unmoved_are_a_plateau():
    """`Epoch 1/30`, `2/30`, `3/30`, `...`, `30/30` all at 0.6931: the run never learned over 30 epochs, though the
    paste shows four values; the same four values over epochs 1 to 4 are too few to judge."""
    rows = "Epoch {}/30 - loss: 0.6931 - accuracy: 0.5004\n"
    spanned = "".join(rows.format(e) for e in (1, 2, 3)) + "...\n" + rows.format(30)
    assert diagnosis(spanned).signature.name == "plateau-from-start"
    assert diagnosis("".join(rows.format(e) for e in (1, 2, 3, 4))).signature.name == "healthy"


def test_a_run_that_froze_after_a_jump_shows_its_frozen_values_even_elided():
    """Three prints of one value over fifty epochs (the paste leaving the middle out) froze as surely as four in a
    row: after a jump, that is the stall of units a jump killed, not a warmup's spike that recovered."""
    rows = [(1, 0.6893), (2, 0.612), (3, 0.5702), (4, 2.841), (5, 0.7015), (6, 0.6641), (7, 0.6641)]
    log = "".join(f"epoch {e:2d}  loss {v:.4f}  acc 0.62\n" for e, v in rows)
    d = diagnosis(log + "...\n" + "epoch 60  loss 0.6641  acc 0.62\n")
    assert d.signature.name == "stall-after-drop" and d.matches[0].entry.id == "WR-140"
    assert "its last 3 values (epoch 6 to epoch 60) are all 0.6641" in d.signature.facts[0]
    # the same three prints over epochs 6 to 8 span too little to say it froze
    assert diagnosis(log + "epoch  8  loss 0.6641  acc 0.62\n").signature.name != "stall-after-drop"


def test_a_scaler_that_halves_in_its_first_steps_is_calibrating_and_one_at_its_minimum_is_not():
    said = ("GradScaler scale drops from 65536 to 8192 in the first iterations - is fp16 broken? I log "
            "scaler.get_scale(); the loss goes down normally and matches my fp32 run.")
    d = diagnosis(said)
    assert d.verdict == "normal" and d.normal[0].name == "skipped steps under dynamic loss scaling"
    # "matches my fp32 run" is no run moved out of half precision
    assert "full-precision" not in weighed_parts(said, "WR-040")
    assert diagnosis("The loss scale falls to its minimum and then training stops. Current loss scale already at "
                     "minimum - cannot decrease scale anymore").verdict != "normal"


def test_weights_drawn_at_a_std_of_one_are_too_large_an_initial_scale():
    code = ("def init_weights(m):\n    if isinstance(m, nn.Linear):\n        nn.init.normal_(m.weight, mean=0.0, std=1.0)\n"
            "model.apply(init_weights)\n")
    log = "".join(f"it {i:4d} | loss {v} | acc 0.011\n" for i, v in ((0, 20869.67), (50, 14230.12), (100, 9377.51),
                                                                    (150, 11802.30), (200, 6931.04)))
    d = diagnosis("My 100-class MLP starts at a loss of 20869.\n" + code + log)
    assert d.matches[0].entry.id == "WR-120"
    assert any("draws weights with a standard deviation of 1 or more (`normal_(m.weight, mean=0.0, std=1.0)`)" in e
               for e in d.matches[0].evidence)
    for scaled in ("nn.init.normal_(m.weight, std=0.02)", "W1 = np.random.randn(784, 128) * 0.01",
                   "W1 = np.random.randn(784, 128) / np.sqrt(784)", "nn.init.normal_(m.weight, std=1e-3)"):
        assert "large-init" not in weighed_parts(code.replace("nn.init.normal_(m.weight, mean=0.0, std=1.0)", scaled)
                                                 + log, "WR-120"), scaled


def test_a_mean_of_exps_under_a_log_is_an_unshifted_log_sum_exp():
    """LSE pooling written log(mean(exp(r * s))) overflows as log(sum(exp)) does; its name, "log-sum-exp pooling",
    says nothing of a shift (the log-sum-exp trick does)."""
    code = ("Keras model with log-sum-exp pooling\n\nclass LSEPool(keras.layers.Layer):\n    def call(self, s):\n"
            "        return ops.log(ops.mean(ops.exp(self.r * s), axis=1)) / self.r\n\n")
    log = "".join(f"Epoch {e}/30 - loss: {v}\n" for e, v in ((5, "0.2214"), (6, "0.1873"), (7, "nan"), (8, "nan")))
    d = diagnosis(code + log)
    assert d.matches[0].entry.id == "WR-020" and d.matches[0].parts["exp-unshifted"] > 0
    assert "exp-unshifted" not in weighed_parts(code.replace("pooling", "pooling (with the log-sum-exp trick)") + log,
                                                "WR-020")


def test_a_forward_quoted_in_a_sentence_that_returns_a_softmax_feeds_probabilities_to_cross_entropy():
    said = ("5-class classifier; accuracy reaches 97% but CrossEntropyLoss stays at 0.905. The model's forward ends "
            "with `return self.softmax(self.fc(x))` since I need probabilities for ROC plots; training uses "
            "nn.CrossEntropyLoss.")
    d = diagnosis(said)
    assert d.matches[0].entry.id == "WR-130"
    assert any("outputs probabilities (`return self.softmax(self.fc(x))`) and its loss, `CrossEntropyLoss`" in e
               for e in d.matches[0].evidence)
    # a return quoted with no word of the forward is no model's output
    assert "pairing" not in weighed_parts(said.replace("The model's forward ends with", "A helper has"), "WR-130")


def test_spikes_in_the_first_steps_of_a_run_said_to_have_no_warmup_are_its_signature_not_noise():
    """The spikes normal says itself that a spike in the first steps of a run with no warmup is the no-warmup
    signature: where the words say the rate was constant from step 0, it is not the answer, and WR-250 is."""
    said = ("Loss spikes to ~40 in the first steps, then recovers. AdamW lr 6e-4; I removed the schedule and now use "
            "a constant lr from step 0. The run ends worse than before.")
    d = diagnosis(said)
    assert d.verdict != "normal" and d.matches[0].entry.id == "WR-250"
    assert any("kept one rate from its start (no warmup)" in e for e in d.matches[0].evidence)
    # the same spikes, nothing said of the rate: noise in a falling curve
    assert diagnosis("Loss spikes to ~40 now and then, but the curve trends down. AdamW lr 6e-4.").verdict == "normal"


def test_the_page_gives_the_span_rules_their_numbers():
    from trainwreck.curve_shape import FROZEN_FEW, SHAPE_MIN

    page = " ".join((ROOT / "docs" / "how-diagnose-decides.md").read_text(encoding="utf-8").split())
    assert FROZEN_FEW - 1 == 3
    assert (f"three or more from the run's start whose own numbering spans {SHAPE_MIN} epochs or more are judged for "
            f"a plateau as {SHAPE_MIN} would be" in page
            and f"three prints of the very same value over {SHAPE_MIN} epochs or more" in page)
    from trainwreck.curve_shape import DOUBLED, SETTLED_MIN, SETTLED_SPREAD
    assert (DOUBLED, SETTLED_MIN) == (2.0, 3)
    assert (f"came down only to twice its lowest before the jump or more, and its last 3 values or more stay within "
            f"{SETTLED_SPREAD:.1%} of one another to the end") in page


def test_a_report_that_said_the_shape_and_the_rate_tried_is_asked_for_the_data_check():
    """"The loss goes down nicely for 1,200 iterations, then nan at 1,247 every run; a lower lr and a clip: still nan
    at 1,247" has told the shape (fell, then jumped) and ruled out the rate: asking for the loss values again asks for
    what it said; the first candidate, a bad batch, is decided by its own check on the data."""
    said = ("NaN at the same iteration every run. MLP regression on sensor readings in a TensorDataset. The loss goes "
            "down nicely for about 1,200 iterations and then it's nan at iteration 1,247, every single run. I lowered "
            "the lr from 1e-3 to 1e-4 and added clip_grad_norm_(model.parameters(), 1.0) - still nan at exactly 1,247.")
    assert lr_tried(said) == "failed"
    d = diagnosis(said)
    assert d.matches[0].entry.id == "WR-310"
    assert d.ask.startswith("the result of this check for WR-310: Check the data, batch by batch")
    # "still" about something else is no rate that failed
    assert lr_tried("I lowered the lr to 1e-4 and it trains, but the val loss is still high.") == ""


def test_a_run_per_line_at_each_setting_is_read_as_separate_runs_with_their_own_steps():
    """`tau=0.1: step 0 loss 5.54 | step 100 loss 4.10 | step 200 loss 3.77` then `tau=0.01: step 0 loss nan | ...`:
    each value is at the step in its own part of the line, each line is a run (its count back at 0 on the next
    line), and the run that broke is read: nan from its first step. The exps summed into a denominator of their
    own name are the unshifted softmax."""
    code = ("    sim = z @ z.T / tau\n    exp_sim = torch.exp(sim)\n    denom = (exp_sim * mask).sum(1)\n"
            "    loss = -torch.log(exp_sim[pos_idx] / denom).mean()\n\n")
    runs = ("tau=0.5:   step 0 loss 5.5412 | step 100 loss 4.9120 | step 200 loss 4.6603\n"
            "tau=0.1:   step 0 loss 5.5447 | step 100 loss 4.1031 | step 200 loss 3.7719\n"
            "tau=0.01:  step 0 loss nan | step 100 loss nan\n")
    d = diagnosis("Contrastive loss is nan at step 0 with a low temperature\n\n" + code + runs)
    assert d.evidence.count == 2 and d.signature.name == "nonfinite-from-start"
    assert "first nan at step 0" in d.signature.facts[0]
    assert d.matches[0].entry.id == "WR-020" and d.matches[0].parts["exp-unshifted"] > 0
    # one run on one line reads its steps in order, and is one run
    one = diagnosis("step 0 loss 2.30 | step 100 loss 1.91 | step 200 loss 1.52 | step 300 loss nan\n")
    assert one.evidence.count == 4 and "first nan at step 300" in one.signature.facts[0]


def test_a_sentence_beside_a_log_is_another_runs_loss_and_a_nan_after_a_few_words_ends_the_sentences_values():
    """(review_session34_final q21, q15) "The same data with a CNN from a tutorial gets loss 0.8." under a log is
    another run's loss, not the log's last value; and "goes 0.412, 0.398, 0.391 and keeps slowly falling, then it
    is nan from step 517 on" ends on its nan."""
    from trainwreck.logscan import scan_text

    log = "".join(f"Epoch {e}: 100%|| 782/782 [00:11<00:00, v_num=3, train_loss={v}, val_acc={a}]\n"
                  for e, v, a in ((0, "2.290", "0.281"), (4, "2.104", "0.392"), (9, "2.012", "0.447")))
    said = "\nThe same data with a CNN from a tutorial gets loss 0.8 and I do not see why.\n"
    assert scan_text(log + said).head == [2.29, 2.104, 2.012]
    # alone, a sentence's values are the report's own
    assert scan_text(said).head == [0.8]
    ev = scan_text("My loss goes 0.412, 0.398, 0.391 and keeps slowly falling, then it is nan from step 517 on.")
    assert ev.count == 4 and ev.first_nonfinite == 3
    # a nan denied after the values is none
    assert scan_text("Loss starts at 0.9, then 0.7, 0.6 and there is no nan at all.").first_nonfinite is None


def test_a_sentences_values_between_words_of_any_language_and_the_numbers_that_are_not_values():
    """(review_session36_blind q02, q07, q08, q15, q17) Values that a report gives between words -- "after epoch 2
    it's", "потом", "puis devient négative :" -- are its curve; the places and counts between them ("epoch 2",
    "after 500 epochs", "~60 batches"), a name's digits (ResNet-50), an aside, a bracket or a backtick's code, and
    what follows another quantity's name (lr, accuracy, F1, a validation loss) are not. Located as the sentence's
    values, never as the epoch a word beside them names: "-1843.2 à la fin de l'epoch 1" names its epoch after
    the value, "after epoch 2 it's 6.1e+21" before it."""
    from trainwreck.logscan import scan_text
    from trainwreck.logscan.dialects.prose_values import items

    def read(text):
        ev = scan_text(text)
        return ev.head if ev.count else []
    assert read("The loss printed after epoch 1 is 3.87e+10, after epoch 2 it's 6.1e+21, then inf, then nan "
                "from epoch 4 on.")[:2] == [3.87e10, 6.1e21]
    assert scan_text("Теперь loss на первой эпохе 2.49, потом 3.8, 7.2, 19.6, а на четвёртой эпохе nan.").count == 5
    assert read("La loss commence à 0.69 puis devient négative : -1843.2 à la fin de l'epoch 1, -15720.6 à "
                "l'epoch 5.") == [0.69, -1843.2, -15720.6]
    assert read("Loss sits at 0.6931-0.6929 for epochs 1-3, then during epoch 4 it falls to 0.41 and by epoch 8 "
                "it's 0.02, val acc 1.0.") == [0.6931, 0.6929, 0.41, 0.02]
    assert read("Loss at step 0 is 4.61, step 1 is 4.9, at step 3 it's 31.7, then it is ~4.5 by step 200.") == \
        [4.61, 4.9, 31.7, 4.5]
    assert read("loss is 0.5 after 3 epochs, 0.4 after 5 and 0.3 after 10") == [0.5, 0.4, 0.3]
    # ("up to" a number below the value before it is where something else went -- an LR finder's rate -- and a rise
    # "up to" a larger one is the loss's)
    assert read("In the plot the loss is flat at ~2.49 up to about 1e-4, falls to ~1.28, then climbs to 5.1 and "
                "6.0.") == [2.49, 1.28, 5.1, 6.0]
    assert read("the loss goes 2.3, 2.5 up to 9.1") == [2.3, 2.5, 9.1]
    # (a difference "by about 0.02" is a change, not a value; "0.8731 vs 0.8914" sets two runs side by side)
    assert read("by step 3000 the loss differs by about 0.02 (0.8731 vs 0.8914) between the two runs") == []
    assert read("the loss goes 0.9, 0.7, 0.5 vs 0.6 in the other run") == [0.9, 0.7, 0.5]
    assert read("my loss with ResNet-50 in fp16 is 0.7, 0.6, 0.5") == [0.7, 0.6, 0.5]
    assert read("The loss drops from 4.61 to 4.12 over the first ~60 batches and then sits at about 4.05.") == \
        [4.61, 4.12, 4.05]
    assert read("Loss goes from 0.69 to 0.21 (Keras needed 10 for that), then climbs back to 0.7.") == [0.69, 0.21, 0.7]
    ev = scan_text("The loss goes 4.17 -> 2.60 then climbs back to 3.4 and is nan at step ~200, and 1.9 later.")
    assert ev.count == 4 and ev.first_nonfinite == 3          # nothing after its nan
    # fewer than three values, or values of something else, are no curve
    for text, want in (("Training loss went 2.1 -> 0.08 and eval F1 during training was 0.91.", []),
                       ("train loss 0.021, val acc 0.884, val loss 0.41.", [0.021]),     # a key's one value
                       ("The loss bounces between 1.58 and 1.65 for 20 epochs and val acc is 0.21.", []),
                       ("Val loss went 0.6, 0.7, 0.8, 0.9.", []),
                       ("loss is `f(x, 0, 1)` with [2, 3, 4] and weights (5, 6, 7)", []),
                       ("../aten/src/ATen/native/cuda/Loss.cu:250: block: [0,0,0], thread: [5,0,0] Assertion `t >= 0` "
                        "failed.", [])):
        assert read(text) == want, text
        assert not items(text.encode()), text          # none of them a sentence's values
    assert [i.number for i in items(b"val loss 0.6, 0.7, 0.8 while the loss is 0.5, 0.4, 0.3")] == [b"0.5", b"0.4", b"0.3"]
    # (review_session36_final f05, f11, f16) an ellipsis goes on; a change per epoch is no value; an epoch printed
    # right beside a value is its epoch, one a few words away is not
    ev = scan_text("Loss per epoch: 0.6912, 0.4127, 0.2215, ... 0.0214 (epoch 19), 0.0198 (epoch 20), then nan from "
                   "epoch 21 onwards.")
    # (located by the epoch beside it, where there is one: its place in the sentence is then no news)
    assert ev.count == 6 and ev.first_nonfinite == 5 and [str(ev.at(i)) for i in (2, 3)] == [
        "value 3 of the sentence", "epoch 19"]
    assert read("the loss went from 2.30 to only about 1.62 and it's crawling down by ~0.005 per epoch.") == []
    ev = scan_text("Loss: epoch 1 2.3047, epoch 2 2.3012, epoch 3 2.3011, ..., epoch 30 2.3010.")
    assert [str(ev.at(i)) for i in (0, 3)] == ["epoch 1", "epoch 30"]
    # a line that ends in a colon introduces the next one, which holds the values (review_session36_final f15);
    # a sentence that ends in a full stop does not
    ev = scan_text("The mean loss per epoch comes out like this:\nepoch 1: 9.84, epoch 2: 31.27, epoch 3: 18.55\n")
    assert [ev.at(i).epoch for i in range(ev.count)] == ["epoch 1", "epoch 2", "epoch 3"]
    assert read("The mean loss per epoch is printed below.\n9.84, 31.27, 18.55\n") == []
    assert [i.epoch for i in items("La loss commence à 0.69 puis devient négative : -1843.2 à la fin de l'epoch 1, "
                                   "-15720.6 à l'epoch 5.".encode())] == [None, None, None]
    assert read("the loss is 2.3, 2.1, 1.9 and there is no nan") == [2.3, 2.1, 1.9]


def test_values_from_sentences_beside_words_that_say_the_run_is_stuck_are_not_a_healthy_run():
    """(review_session36_final f13) Ten values a sentence gives, and "Loss stuck at exactly the same value for 270
    epochs": the words say what the chosen values leave out, and the ask is for the values as the run printed them.
    ("the same value" is no validation score: `val\\w*` had taken "value" for one.)"""
    from trainwreck.run_said import says_not_learning

    title = "Loss stuck at exactly the same value for 270 epochs, all predictions identical\n\n"
    assert says_not_learning(title) and not says_not_learning("the val loss is stuck at 0.7")
    said = ("The loss went 0.6978, 0.7412, 0.6620, 0.5871, 0.5520, then jumped to 1.9027, then 0.9310, 1.4402, "
            "0.8015 ... and from epoch 24 on it prints 0.6687 every single epoch.\n")
    # (a value the words say it printed every epoch is the frozen tail the sentence leaves out: a stall, WR-140's, with
    # the title or without it -- review_session37_blind q16)
    for text in (said, title + said):
        d = diagnosis(text)
        assert d.evidence.count == 10 and d.signature.name == "stall-after-drop" and d.matches[0].entry.id == "WR-140"
    # without the value said to repeat, the title's words still say what the chosen values leave out
    d = diagnosis(title + said.replace(" and from epoch 24 on it prints 0.6687 every single epoch", ""))
    assert d.evidence.count == 9 and d.verdict == "no-evidence" and "at least 10 loss values from the start" in d.ask


def test_a_short_curve_from_sentences_beside_words_that_say_nan_is_not_a_healthy_run():
    """(review_session35_final f14) "it was ~4.3, then 5, 7, 12..." and, in another sentence, "it still goes nan at
    the same step": the values stop where the reporter had numbers to give. They are not a healthy run; the words
    are weighed, as they are beside a short curve that does not learn."""
    text = ("My LSTM went nan around step 3000, so I added clip_grad_norm_(model.parameters(), max_norm=1000.0) after "
            "backward. It still goes nan at the same step as before. Before the nan the loss climbs for ~150 steps "
            "(it was ~4.3, then 5, 7, 12...). The norm it returns grows from about 2 to about 600 and is never above "
            "1000.\n")
    d = diagnosis(text)
    assert d.evidence.count == 4 and d.verdict != "healthy" and d.matches[0].entry.id == "WR-240"
    calm = text.replace("It still goes nan at the same step as before. ", "").replace("went nan", "stalled")
    assert diagnosis(calm.replace("Before the nan the loss climbs for", "The loss, over")).verdict == "healthy"
    # (a climb said in words beside those few values is a failure said, as a nan is)
    assert diagnosis(calm.replace("Before the nan the", "The")).verdict == "uncertain"


def test_a_masked_fill_with_minus_inf_beside_a_fall_then_nan_counts_whole_for_the_masked_row():
    """WR-070's page shows its fall-then-nan face (an empty sequence met mid-run) as a second trace, which gives it
    no curve points: its construct stands where the others' curve does (review_session34_final q24)."""
    code = ("    scores = scores.masked_fill(~key_mask[:, None, None, :], float(\"-inf\"))\n"
            "    attn = scores.softmax(dim=-1)\n\n")
    log = "".join(f"step {s:5d}  loss {v}\n" for s, v in ((0, "1.0987"), (500, "0.6214"), (1000, "0.4862"),
                                                          (1240, "0.4411"), (1241, "nan"), (1242, "nan")))
    d = diagnosis("Attention classifier goes nan mid-epoch\n\n" + code + log)
    assert d.signature.name == "descent-then-nonfinite"
    assert d.matches[0].entry.id == "WR-070" and d.matches[0].parts["masked-inf"] == 2.0


def test_the_same_failure_at_a_learning_rate_of_zero_is_the_forward_pass_from_the_initial_weights():
    from trainwreck.rate_tried import rate_zero_failed

    said = "With lr = 0.0 the output is exactly the same (nan at epoch 0)."
    assert rate_zero_failed(said) == "lr = 0.0 the output is exactly the same" and lr_tried(said) == "failed"
    assert rate_zero_failed("Should I try lr=0 to see if it is the same?") == ""
    assert rate_zero_failed("lr 0.001 and still nan") == ""
    code = "    W = [np.random.randn(a, b) for a, b in zip(layers[:-1], layers[1:])]\n"
    log = "epoch 0  loss nan  acc 0.0980\nepoch 1  loss nan  acc 0.0980\n"
    parts = weighed_parts("numpy MLP: nan at epoch 0\n\n" + code + log + said, "WR-120")
    # (a list of unscaled randn matrices too: a whole fact beside a loss nan from its first value)
    assert parts["rate-zero"] == 1.0 and parts["large-init"] == 2.0


def test_a_loss_scale_printed_falling_to_zero_is_half_precision_overflowing_every_step():
    rows = ((0, "3.2768e+04", "inf"), (10, "3.2000e+01", "inf"), (20, "3.1250e-02", "inf"), (40, "2.9802e-08", "inf"),
            (170, "0.0000e+00", "nan"), (500, "0.0000e+00", "nan"))
    log = "".join(f"step {s:4d} | loss 6.91{s % 7} | scale {c} | grad_norm {g}\n" for s, c, g in rows)
    d = diagnosis("fp16 fine-tuning with autocast and GradScaler: loss never moves\n\n" + log)
    assert d.matches[0].entry.id == "WR-040"
    assert any("the loss scale printed beside the loss fell from 3.277e+04 to 0 and never rose" in e
               for e in d.matches[0].evidence)
    # the finite loss is not said to have turned nan: the gradient norm did
    assert not any("whose loss turned nan or inf" in e for e in d.matches[0].evidence)
    # a scale that halved a few times and then grew is the scaler at work
    calibrating = log.replace("0.0000e+00 | grad_norm nan", "6.5536e+04 | grad_norm 1.2")
    assert "scale-collapse" not in weighed_parts("fp16 run\n\n" + calibrating, "WR-040")


def test_a_lower_rate_that_did_not_help_said_in_chinese_is_a_rate_tried_that_failed():
    """Reports on PaddlePaddle's and OpenMMLab's trackers are often in Chinese: "减小学习率也不行" (lowering the
    learning rate does not help either) rules the rate out as the English words do."""
    assert lr_tried("在训练不到一个epoch时候loss变为nan，减小学习率也不行") == "failed"
    assert lr_tried("降低学习率后还是nan") == "failed"
    assert lr_tried("降低学习率后就好了") == ""          # (it helped: not read as a failure)
    d = diagnosis("loss训练时候变成nan\n在训练不到一个epoch时候loss变为nan，减小学习率也不行")
    assert d.matches[0].entry.id != "WR-220" and "WR-220" not in [m.entry.id for m in d.matches[:3]]


def test_a_lower_rate_said_in_another_language_is_read_for_what_it_did():
    """The rate lowered and what it did, in one sentence of Russian, German, French, Spanish, Portuguese or Chinese:
    the same failure later is a rate that put it off (WR-260's tell beside a loop that never clears the gradients,
    review_session41 i20: "Уменьшил lr в 5 раз (0.01) — то же самое, только позже"), the same failure is no help."""
    assert lr_tried("Уменьшил lr в 5 раз (0.01) — то же самое, только позже: nan на ~60-й эпохе вместо 14-й.") \
        == "delayed"
    assert lr_tried("Ich habe die Lernrate auf 1e-4 gesenkt, aber es kommt nur später.") == "delayed"
    assert lr_tried("降低学习率后只是推迟了") == "delayed"
    assert lr_tried("Probé bajar el learning rate de 1e-3 a 1e-4 y pasa exactamente lo mismo, solo que en la época 7 "
                    "en vez de la 3.") == "delayed"
    assert lr_tried("Mit kleinerer Lernrate (1e-4) passiert dasselbe.") == "failed"
    assert lr_tried("J'ai baissé le lr à 1e-4, ça ne change rien.") == "failed"
    assert lr_tried("bajé el learning rate a 1e-4 y pasa lo mismo") == "failed"
    # (a rate lowered that made it better, or a later said of something else, is neither)
    assert lr_tried("Уменьшил lr — стало лучше") == ""
    assert lr_tried("Später habe ich die Lernrate gesenkt.") == ""
    loop = ("optimizer.zero_grad()\nfor xb, yb in train_loader:\n    loss = criterion(model(xb), yb)\n"
            "    loss.backward()\n    optimizer.step()\n")
    log = "".join(f"epoch {e}: train loss {v}\n" for e, v in enumerate(
        [0.69, 0.41, 0.30, 0.25, 0.26, 0.34, 0.51, 0.45, 0.98, 1.6, 2.9, 7.4, 41.0, 208.9, "nan"]))
    said = "Уменьшил lr в 5 раз (0.01) — то же самое, только позже: nan на ~60-й эпохе вместо 14-й.\n"
    d = diagnosis(said + loop + log)
    assert d.verdict == "failure" and d.matches[0].entry.id == "WR-260"
    assert "the report says a lower learning rate only put the failure off" in " ".join(d.matches[0].evidence)
    assert "only put the failure off" not in " ".join(diagnosis(loop + log).matches[0].evidence)


def test_a_first_loss_of_ln_c_asked_about_is_the_uniform_start_of_a_healthy_run():
    """"Initial loss 10.37 on my 32k-vocab LM: is my init broken?" -- 10.37 is ln 32000, the uniform guess a fresh
    model makes (review_session34_blind p17, review_session34_final q08)."""
    lm = ("Initial loss 10.37 on my 32k-vocab LM, is my init broken?\nThe very first loss is 10.37 and people post "
          "curves that start around 4.")
    d = diagnosis(lm)
    assert d.verdict == "normal" and d.normal[0].name == "a first loss of ln C"
    assert ("", "the first loss the report gives, 10.37, is ln 32000 = 10.37 (`32k-vocab`)") in d.read
    mnist = "MNIST MLP: the very first printed loss is 2.3026. Is my model broken?"
    assert diagnosis(mnist).verdict == "normal"
    # not ln C (4.1 on ten classes), nor beside a nan the words report
    assert diagnosis(mnist.replace("2.3026", "4.1")).verdict != "normal"
    assert diagnosis(mnist.replace("Is my model broken?", "After 3 epochs it turns nan. Why?")).verdict != "normal"


def test_weights_set_to_one_constant_by_a_named_keras_initializer_or_in_a_sentence_count_for_wr110():
    """review_session35_blind q25 and q05: `init = keras.initializers.Constant(0.05)` handed to each Dense by its name
    starts every unit equal, as zeros do; and "`W1 = np.zeros((64, 32)); W2 = np.zeros((32, 3))`" quoted in a
    sentence is two zero matrices, as on two lines of code. A short curve beside "only reaches N%" is not healthy."""
    keras = "".join(f"Epoch {e}/5\n300/300 ━━━━━━━━━━━━━━━━━━━━ 1s 3ms/step - accuracy: {a} - loss: {v}\n"
                    for e, (a, v) in enumerate([("0.2210", "2.0541"), ("0.2987", "1.8820"), ("0.3101", "1.8345"),
                                                ("0.3140", "1.8190"), ("0.3152", "1.8123")], 1))
    named = ("w_init = keras.initializers.Constant(0.05)\nmodel = keras.Sequential([\n"
             "    layers.Dense(64, activation='relu', kernel_initializer=w_init),\n"
             "    layers.Dense(64, activation='relu', kernel_initializer=w_init),\n"
             "    layers.Dense(10, activation='softmax')])\n")
    title = "My dense net only reaches ~31% accuracy on digits\n\n"
    d = diagnosis(title + named + keras)
    assert d.verdict != "healthy" and d.matches[0].entry.id == "WR-110"
    assert d.matches[0].parts["zero-init"] > 0
    assert diagnosis(named + keras).verdict == "healthy"               # nothing says it went wrong
    # a constant handed to the biases only, or named and never handed to a kernel, is no such init
    for not_it in (named.replace("kernel_initializer=w_init", "bias_initializer=w_init"),):
        assert "zero-init" not in weighed_parts(title + not_it + keras, "WR-110"), not_it
    inline = "layers.Dense(64, kernel_initializer=keras.initializers.Constant(0.1)),\nlayers.Dense(10)\n"
    assert "zero-init" in weighed_parts(title + inline + keras, "WR-110")
    sentence = ("Homework net, 2 layers, tanh. I set `W1 = np.zeros((64, 32)); W2 = np.zeros((32, 3))` and the loss "
                "never moves from 1.0986 whatever step size I use.")
    assert "zero-init" in weighed_parts(sentence, "WR-110")
    assert "zero-init" not in weighed_parts(sentence.replace("W2 = np.zeros", "W2 = np.random.randn"), "WR-110")


def test_words_that_a_loss_does_not_move_or_an_accuracy_falls_short_say_it_does_not_learn():
    from trainwreck.run_said import says_not_learning

    for said in ("the loss never moves again", "the loss does not move from 0.6931",
                 "Keras MLP only reaches ~35% on MNIST", "it only gets 40 % accuracy"):
        assert says_not_learning(said), said
    # a tensor moved to a device, or a validation score, is not the run's learning
    for other in ("I did not move the model to the GPU", "did not move it to cuda", "val accuracy only reaches 35%"):
        assert not says_not_learning(other), other


def test_a_numpy_gradient_buffer_summed_into_and_reset_only_outside_the_loop_is_never_cleared():
    """review s76/06: `gW = np.zeros_like(W)` before the batch loop, `gW += ...` and `W -= lr * gW` inside it: each
    step applies the sum of every gradient so far -- WR-260 written by hand. Reset inside the loop, or summed over the
    batches and applied once after it (full-batch descent), it is not."""
    from trainwreck.gradient_clearing import numpy_buffer_never_reset

    loop = ("W = np.zeros((36, 6)); b = np.zeros(6)\ngW = np.zeros_like(W); gb = np.zeros_like(b)\n"
            "for epoch in range(50):\n    for xb, yb in batches(X, Y, 64):\n        P = softmax(xb @ W + b)\n"
            "        gW += xb.T @ (P - yb) / len(xb)\n        gb += (P - yb).mean(axis=0)\n"
            "        W -= lr * gW\n        b -= lr * gb\n")
    assert numpy_buffer_never_reset(loop) == "gW += xb.T @ (P - yb) / len(xb)"
    curve = "".join(f"epoch {e}  loss {v}\n" for e, v in [(1, 1.45), (2, 0.98), (3, 1.19), (4, 1.66), (6, 2.69),
                                                            (10, 3.52), (20, 3.58), (30, 4.44), (40, 6.35), (46, "nan")])
    assert weighed_parts(loop + curve, "WR-260")["never-cleared"] == 1.0
    reset = loop.replace("        P = softmax", "        gW[:] = 0; gb[:] = 0\n        P = softmax")
    assert numpy_buffer_never_reset(reset.replace("gW[:] = 0; gb[:] = 0", "gW = np.zeros_like(W)")) == "gb += (P - yb).mean(axis=0)"
    assert numpy_buffer_never_reset(reset.replace("gW[:] = 0; gb[:] = 0", "gW[:] = 0\n        gb[:] = 0")) == ""
    full_batch = ("for epoch in range(50):\n    gW = np.zeros_like(W)\n    for xb, yb in batches(X, Y, 64):\n"
                  "        gW += xb.T @ (softmax(xb @ W) - yb)\n    W -= lr * gW / len(X)\n")
    assert numpy_buffer_never_reset(full_batch) == ""
    assert numpy_buffer_never_reset(loop + "loss.backward()\n") == ""       # a framework's gradients: not this reading
    adagrad = ("grad_sq = np.zeros_like(W)\nfor xb, yb in batches:\n    dW = xb.T @ (P - yb)\n    grad_sq += dW ** 2\n"
               "    W -= lr * dW / (np.sqrt(grad_sq) + 1e-8)\n")
    assert numpy_buffer_never_reset(adagrad) == ""                          # AdaGrad's running sum of squares


def test_a_validation_score_named_before_an_aside_is_not_the_runs_learning():
    """review s73/19: "the validation accuracy, computed on one centre clip per video, topped out at 71%" said the run
    did not learn (the verb's clause, after the aside, names no subject), and a question about test-time averaging got
    three candidates. The subject named earlier in the sentence decides; where the clause names its own, it does."""
    from trainwreck.run_said import says_not_learning

    assert not says_not_learning("During training the validation accuracy, computed on one centre clip per video, "
                                 "topped out at 71%.")
    assert not says_not_learning("The val loss, averaged over 3 runs, is stuck at 0.7.")
    assert says_not_learning("The training loss, which I print every epoch, is stuck at 0.7.")
    assert says_not_learning("The val loss is fine, the training loss is stuck at 0.7.")


def test_a_loss_said_to_be_flat_or_not_to_change_does_not_learn():
    """review s74/18 and s73/14: "it flattened out and hasn't changed in the last 40 epochs" and "the loss is flat from the
    very first epoch" said nothing had gone wrong, and their reports named no candidate."""
    from trainwreck.run_said import says_not_learning

    for said in ("the loss jumped a few times, then it flattened out and hasn't changed in the last 40 epochs",
                 "the loss is flat from the very first epoch",
                 "Own GCN: loss flat after ~30 epochs",
                 "the loss curve looks completely flat", "the training loss no longer changes"):
        assert says_not_learning(said), said
    # a change the reporter did not make, a row of a matrix, a loss that changes little on its way down
    for other in ("I haven't changed anything in the code", "Row 0 of my embedding never changes during training",
                  "the loss hasn't changed much since epoch 3, it is nearly converged", "it never changed the lr",
                  "The seed is fixed so it never changes between runs.",
                  "the loss was flat?"):
        assert not says_not_learning(other), other


def test_after_about_n_iterations_with_a_tilde_says_when():
    assert when("J goes up at every iteration until it is inf after ~60 iterations") == {"later"}
    assert when("inf after ~ 3 epochs") == {"later"}


def test_a_jump_that_leaves_the_loss_settled_far_above_its_lowest_is_a_stall_after_the_drop():
    """review_session35_blind q27: a regression that had reached 0.33, jumped at the rate's peak and then sat at the
    targets' variance (1.000x) to the end was called healthy ("came partly back down"). A loss that comes down from a
    jump only to twice its lowest or more, and holds there, lost what it had learned: WR-140's face."""
    rows = [(1, 0.8811), (2, 0.5902), (3, 0.4410), (4, 0.3620), (6, 0.3205), (8, 6.1270), (9, 1.0004),
            (10, 1.0002), (15, 1.0001), (30, 1.0001)]
    log = "".join(f"epoch {e:>3}  train_mse {v:.4f}\n" for e, v in rows)
    d = diagnosis(log)
    assert d.signature.name == "stall-after-drop" and d.matches[0].entry.id == "WR-140"
    fact = d.signature.facts[0]
    assert "came down only to 1, 3.12x its lowest before the jump (0.3205 at epoch 6)" in fact
    assert "its last 4 values (epoch 9 to epoch 30) are within 0.2% of one another" in fact
    # still coming down (0.5% a print), or back near its lowest, or never twice its lowest: not this
    falling = [(e, v if e < 9 else round(1.0 - 0.005 * i, 4)) for i, (e, v) in enumerate(rows)]
    near = [(e, v if e < 9 else 0.35) for e, v in rows]
    for other in (falling, near):
        text = "".join(f"epoch {e:>3}  train_mse {v:.4f}\n" for e, v in other)
        assert diagnosis(text).signature.name != "stall-after-drop", other


def test_a_pytorch_warning_that_a_target_differs_in_shape_is_a_failure_no_entry_covers():
    """review_session35_blind q38: PyTorch's own warning that an (N, 1) output met (N,) targets, beside a loss stuck
    at the targets' variance, was forced into WR-330 and asked for anomaly mode "at the first nan" of a run with none.
    The broadcast compares every output with every target, whose mean over all pairs a constant minimises."""
    warning = ("/opt/venv/lib/python3.12/site-packages/torch/nn/modules/loss.py:610: UserWarning: Using a target size "
               "(torch.Size([64])) that is different to the input size (torch.Size([64, 1])). This will likely lead "
               "to incorrect results due to broadcasting. Please ensure they have the same size.\n"
               "  return F.mse_loss(input, target, reduction=self.reduction)\n")
    log = "".join(f"epoch {e}  loss {v}\n" for e, v in enumerate((1.0213, 1.0021, 1.0007, 1.0003, 1.0002, 1.0002)))
    d = diagnosis("House prices MLP, targets standardised, loss stuck near 1.\n" + warning + log)
    assert d.verdict == "unexplained" and not d.matches
    assert any("the mean over all those N x N pairs is smallest when each output is the targets' mean" in u
               for u in d.unweighed)
    # the mechanism itself: over an (N, N) broadcast, the best constant is the targets' mean, its loss their variance
    import numpy as np
    t = np.random.default_rng(0).standard_normal(64)
    pair_loss = lambda out: float(np.mean((out[:, None] - t[None, :]) ** 2))    # noqa: E731
    best = pair_loss(np.full(64, t.mean()))
    assert math.isclose(best, float(t.var()), rel_tol=1e-12)
    assert pair_loss(t) > best                     # even the perfect per-row prediction scores worse
    # beside a nan, the nan's story is read as before; and a run with no such warning is not "not covered"
    assert diagnosis(warning + log.replace("1.0002\n", "nan\n")).verdict != "unexplained"
    assert diagnosis("House prices MLP, targets standardised, loss stuck near 1.\n" + log).verdict != "unexplained"


def test_an_optimizer_built_before_its_module_was_replaced_is_a_failure_no_entry_covers():
    """review_session36_blind q13, review_session31_final f45: `Adam(model.fc.parameters())` and then
    `model.fc = nn.Linear(2048, 5)`: the optimizer holds the old layer's tensors, and the new one never moves. Not
    covered, with the mechanism (tests/test_frameworks_wiring.py checks it on real tensors: step() leaves the new
    layer as it was)."""
    code = ("model = torchvision.models.resnet50(weights='IMAGENET1K_V2')\nfor p in model.parameters():\n"
            "    p.requires_grad = False\noptimizer = torch.optim.Adam(model.fc.parameters(), lr=1e-3)\n"
            "model.fc = nn.Linear(2048, 5)\n")
    said = "The loss bounces between 1.58 and 1.65 for 20 epochs.\n"
    d = diagnosis("Transfer learning: the loss doesn't go down.\n" + code + said)
    assert d.verdict == "unexplained" and not d.matches
    assert any("`model.fc = nn.Linear(2048, 5)`): the optimizer holds the tensors that existed when it was built" in u
               and "built on the replaced module alone, the optimizer trains nothing, frozen or not" in u
               for u in d.unweighed)
    # built on the whole model: the rest still trains unless frozen (factcheck_session36 item 1)
    whole = diagnosis(code.replace("model.fc.parameters()", "model.parameters()") + said)
    assert any("the rest of the model still trains unless it is frozen" in u for u in whole.unweighed)
    # built after the change, or a tensor's data assigned, or beside a nan: read as before
    from trainwreck.optimizer_setup import module_replaced_after_optimizer as replaced
    assert replaced(code.replace("optimizer = torch.optim.Adam(model.fc.parameters(), lr=1e-3)\nmodel.fc = nn.Linear"
                                 "(2048, 5)", "model.fc = nn.Linear(2048, 5)\noptimizer = torch.optim.Adam("
                                 "model.fc.parameters(), lr=1e-3)")) is None
    assert replaced("opt = optim.SGD(net.parameters(), lr=0.1)\nnet.fc.weight.data = torch.zeros(3, 4)\n") is None
    assert replaced("opt = optim.SGD(model.parameters(), lr=0.1)\nmodel.classifier[6] = nn.Linear(4096, 10)\n")
    assert diagnosis(code + "epoch 1 loss 1.61\nepoch 2 loss nan\n").verdict != "unexplained"


def test_a_learning_rate_said_to_have_vanished_beside_a_frozen_loss_is_not_covered():
    """(review_session37_final f06) An epoch-counting StepLR stepped once per batch: the printed rate is 1e-14 after an
    epoch and the loss froze. The schedule stopped the training; no entry covers a schedule yet, so it is said, with
    the mechanism, and not forced into an entry. A list whose values carry their places after them ("2.31 at batch 0,
    1.92 at batch 30") is the sentence's."""
    text = ("ResNet-18, SGD lr 0.1, StepLR(optimizer, step_size=30, gamma=0.1), scheduler.step() inside the batch loop. "
            "Loss: 2.31 at batch 0, 1.92 at batch 30, 1.87 at batch 60, and then 1.8694 at every log line; accuracy "
            "stuck at 31%. I print optimizer.param_groups[0]['lr'] each epoch: 1e-14 after epoch 1.\n")
    d = diagnosis(text)
    assert d.verdict == "unexplained" and not d.matches and d.evidence.count == 4
    assert any("the paste says the learning rate fell to 1e-14" in u and "stepped once per batch" in u
               for u in d.unweighed)
    # a rate that is only small, or a weight decay's tiny number after the rate, or a run that learns: not this
    for other in (text.replace("1e-14", "1e-4"), text.replace("each epoch: 1e-14", "each epoch: 0.1, weight decay 1e-12")):
        assert not any("learning rate fell to" in u for u in diagnosis(other).unweighed), other


def test_a_model_that_trained_well_and_fails_at_inference_is_not_covered():
    """review_session36_blind q19: "training loss looked fine" (2.1 -> 0.08, eval F1 0.91), and at inference another
    tokenizer is loaded: WR-140 was put first on words. The entries are about training that goes wrong."""
    said = ("Fine-tuned bert-base-uncased for NER, training loss looked fine: it went 2.1 -> 0.08 and eval F1 during "
            "training was 0.91. In my inference script I load AutoTokenizer.from_pretrained('bert-base-cased') and the "
            "predictions are all 'O'.\n")
    d = diagnosis(said)
    assert d.verdict == "unexplained" and not d.matches
    assert any("trained well and fails at inference" in u for u in d.unweighed)
    assert d.evidence.count == 0 and d.evidence.dialect == ""      # no sentence's values read where F1's were cut
    for broken in (said.replace("are all 'O'", "are all nan"), said.replace("training loss looked fine", "the loss")):
        assert diagnosis(broken).verdict != "unexplained", broken


def test_a_run_with_no_nan_is_not_asked_for_what_anomaly_mode_prints_at_the_first_nan():
    """review_session35_blind q38: a message no entry declares (here the DataLoader's about its workers) is no nan; the
    ask was still "what PyTorch's anomaly mode prints at the first nan"."""
    warning = ("/usr/lib/python3/site-packages/torch/utils/data/dataloader.py:617: UserWarning: This DataLoader will "
               "create 8 worker processes in total. Our suggested max number of worker in current system is 2, which "
               "is smaller than what this DataLoader is going to create.\n")
    log = "".join(f"epoch {e}  loss {v}\n" for e, v in enumerate((2.3101, 2.3032, 2.3027, 2.3026, 2.3026, 2.3026,
                                                                  2.3026, 2.3026, 2.3026, 2.3026)))
    d = diagnosis("CNN in PyTorch, loss.backward() each batch, the loss does not move.\n" + warning + log)
    assert d.verdict == "uncertain" and d.ask
    assert "anomaly mode" not in d.ask and "first nan" not in d.ask


def test_an_exp_of_a_layers_raw_output_beside_an_inf_points_to_float_overflow():
    """review_session35_blind q28: an exp link (`torch.exp(self.net(x))`, a Poisson rate) beside a loss that went inf
    then nan was read as a bad batch. Nothing bounds a layer's output; exp of one past ln(float32 max) is inf."""
    import numpy as np

    code = ("class RateNet(nn.Module):\n    def forward(self, x):\n        return torch.exp(self.body(x)).squeeze(-1)\n"
            "loss_fn = nn.PoissonNLLLoss(log_input=False)\n")
    log = "".join(f"epoch {e} | train {v} | val {u}\n" for e, (v, u) in enumerate(
        (("4.1022", "3.5120"), ("3.0410", "2.9931"), ("2.7719", "2.7802"), ("inf", "nan"), ("nan", "nan")), 1))
    d = diagnosis("Count regression goes inf at epoch 4.\n" + code + log)
    assert d.matches[0].entry.id == "WR-020" and d.matches[0].parts["exp-unshifted"] > 0
    assert any("puts a layer's raw output through exp (`torch.exp(self.body(x))`)" in e for e in d.matches[0].evidence)
    # the threshold the evidence gives: ln of float32's largest value
    with np.errstate(over="ignore"):
        assert np.isinf(np.exp(np.float32(88.73))) and np.isfinite(np.exp(np.float32(88.72)))
    # bounded first, or an exp of a parameter: not this
    for other in ("torch.exp(self.body(x).clamp(max=20))", "torch.exp(self.log_scale)"):
        assert "exp-unshifted" not in weighed_parts(
            "Count regression goes inf at epoch 4.\n" + code.replace("torch.exp(self.body(x))", other) + log, "WR-020")


def test_an_exp_of_a_piece_of_a_layers_raw_output_is_the_same_unbounded_exp():
    """An affine coupling's scale taken as a chunk of its conditioner's output (`h = self.cond(x_a)`, `log_s, b =
    h.chunk(2, dim=1)`, then `torch.exp(log_s)`), or a VAE's `mu, logvar = self.enc(x).chunk(2, -1)` then
    `torch.exp(0.5 * logvar)`... the same unbounded output through exp: WR-020's face. Not where the name is bounded
    on any line (the coupling's usual tanh)."""
    from trainwreck.breaking_constructs import breaking_construct

    coupling = ("    def forward(self, x_a, x_b):\n        h = self.cond(x_a)\n        log_s, b = h.chunk(2, dim=1)\n"
                "        y_b = x_b * torch.exp(log_s) + b\n        return y_b, log_s.sum(1)\n")
    assert "(`torch.exp(log_s)`)" in breaking_construct(coupling)["exp-unshifted"]
    vae = "        mu, logvar = self.enc(x).chunk(2, -1)\n        std = torch.exp(logvar)\n"
    assert "(`torch.exp(logvar)`)" in breaking_construct(vae)["exp-unshifted"]
    bounded = coupling.replace("        y_b =", "        log_s = 2.0 * torch.tanh(log_s)\n        y_b =")
    assert "exp-unshifted" not in breaking_construct(bounded)
    assert "exp-unshifted" not in breaking_construct("        log_s = self.log_scale\n        y = x * torch.exp(log_s)\n")
    log = "".join(f"iter {500 * k} | train nll {v}\n" for k, v in enumerate(("61.28", "19.04", "14.89", "13.02", "inf",
                                                                             "nan")))
    d = diagnosis("My flow's nll goes inf after a few thousand iterations.\n" + coupling + log)
    assert d.matches[0].entry.id == "WR-020" and d.matches[0].parts["exp-unshifted"] > 0


def test_gradient_norms_said_below_the_clipping_threshold_mean_the_clip_never_engaged():
    """review_session35_blind q10: `clip_grad_norm_(..., max_norm=1e4)` beside words that the norms were between 3
    and 40 is a clip that never shortened an update (WR-240); it was third, behind the rate and a bad batch."""
    text = ("Clipping does nothing for my transformer\n\nThe loss turns nan near step 900, so I added "
            "`torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm=5000)` before `optimizer.step()`. Still nan "
            "at the same step. The total norm it returns is between 2.5 and 61 on every step before that.")
    d = diagnosis(text)
    assert d.matches[0].entry.id == "WR-240" and d.matches[0].parts["clip-unengaged"] > 0
    assert any('clips the gradient norm at 5000, and its words give the norm as "total norm it returns is between 2.5 and 61"'
               in e for e in d.matches[0].evidence)
    # a norm said above the threshold is a clip that acts; no threshold stated, nothing to compare
    assert "clip-unengaged" not in weighed_parts(text.replace("between 2.5 and 61", "between 2.5 and 6100"), "WR-240")
    assert "clip-unengaged" not in weighed_parts(text.replace("max_norm=5000", "max_norm=args.clip"), "WR-240")
    from trainwreck.gradient_norms import NORMS_SAID
    assert [g for g in NORMS_SAID.search("grad norm is about 12.5 each step").groups() if g] == ["12.5"]


def test_an_adaptive_optimiser_built_with_a_rate_of_a_tenth_or_more_points_to_the_rate():
    """review_session35_blind q21 (Keras `Adam(learning_rate=0.5)` copied from an SGD tutorial): Adam moves each
    weight by about the rate whatever the gradient, so 0.5 is hundreds of times its default. Half a printed fact for
    WR-220, beside a run that went wrong; not at 3e-4, not for SGD at 0.5, not in a healthy run."""
    from trainwreck.optimizer_setup import high_adaptive_rate

    code = ("model = nn.Sequential(nn.Linear(20, 64), nn.ReLU(), nn.Linear(64, 1))\n"
            "opt = torch.optim.Adam(model.parameters(), lr=0.3)\nloss_fn = nn.BCEWithLogitsLoss()\n")
    climb = "".join(f"epoch {e} loss {v}\n" for e, v in enumerate((0.6931, 2.8410, 4.1182, 4.0967, 4.1201), 1))
    parts = weighed_parts("BCE classifier gets worse every epoch.\n" + code + climb, "WR-220")
    assert parts["adaptive-rate-high"] > 0
    assert "lr=0.3" in high_adaptive_rate(code) and "Adam with a learning rate of 0.3" in high_adaptive_rate(code)
    # the factor is computed (review_session35_final f19: "hundreds of times" was printed for 0.1, 100 times)
    assert "0.3 is 300 times Adam's default rate (0.001 in PyTorch" in high_adaptive_rate(code)
    assert "0.1 is 100 times" in high_adaptive_rate(code.replace("lr=0.3", "lr=0.1"))
    assert "0.5 is 50 times RMSprop's default rate (0.01" in high_adaptive_rate("RMSprop(learning_rate=0.5)")
    for other in (code.replace("lr=0.3", "lr=3e-4"), code.replace("Adam(", "SGD(")):
        assert "adaptive-rate-high" not in weighed_parts("BCE classifier gets worse every epoch.\n" + other + climb,
                                                         "WR-220"), other
    healthy = "".join(f"epoch {e} loss {v}\n" for e, v in enumerate((0.6931, 0.51, 0.42, 0.37, 0.35, 0.34, 0.335,
                                                                      0.331, 0.329, 0.328, 0.327), 1))
    assert "adaptive-rate-high" not in weighed_parts(code + healthy, "WR-220")
    # the mechanism: Adam's first bias-corrected step is the rate times sign(g), whatever the gradient's size
    import numpy as np
    g = np.array([1e-6, 3e-2, 50.0])
    m, v = 0.1 * g / (1 - 0.9), 0.001 * g ** 2 / (1 - 0.999)
    assert np.allclose(0.3 * m / (np.sqrt(v) + 1e-8), 0.3 * np.sign(g), rtol=1e-2)


def test_a_paste_reads_the_same_with_or_without_a_newline_after_its_last_line():
    """A text shorter than a read block is whole: its last line is read whether or not a newline ends it (the clipping
    threshold a last sentence states, the values a last sentence gives). Only a block cut mid-line leaves its last
    line to the next block."""
    from trainwreck.diagnose_report import report

    for text in ("Clipping does nothing.\n\nNan near step 900 with `clip_grad_norm_(model.parameters(), max_norm=5000)`."
                 " The total norm it returns is between 2.5 and 61 before that.",
                 "Is this ok?\nOver five epochs the loss went from 2.31 to 1.62 to 1.24 to 1.01 to 0.88.",
                 "epoch 1 loss 0.9\nepoch 2 loss 2.7\nepoch 3 loss 8.1\nepoch 4 loss nan"):
        bare, ended = diagnosis(text), diagnosis(text + "\n")
        assert report(bare).split("\n", 1)[1] == report(ended).split("\n", 1)[1], text
        assert [m.entry.id for m in bare.matches] == [m.entry.id for m in ended.matches]
    assert diagnosis("Is this ok?\nOver five epochs the loss went from 2.31 to 1.62 to 1.24 to 1.01 to 0.88.").evidence.count == 5


def test_review_session38_blind_logs_written_in_other_languages():
    """(review_session38_blind h01, h06, h07, h10, h12, h18) A log written by a reporter who writes decimals with a
    comma, or the word epoch in their own language, is read as an English one: every format, not only sentences."""
    from trainwreck.logscan.decimals import decimal_points, writes_decimal_commas
    from trainwreck.logscan.epoch_words import with_english_epochs

    # a thousands' point ("32.000 token", "5.000 features") is no decimal point; a version's is not either; a call's
    # numbers are code
    assert writes_decimal_commas(b"vocabolario da 32.000 token\n0  10,42\n10  27,93\n")
    assert writes_decimal_commas(b"torch 2.13.0, loss 0,69 then 0,52")
    assert not writes_decimal_commas(b"loss 0.693, epochs 1,5 and 2,5")
    assert not writes_decimal_commas(b"epoch,loss\n0,0.69\n1,0.61\n")
    # (factcheck_session38 item 7: a CSV line's floats with three decimals, shapes in brackets; a German 0,693)
    assert not writes_decimal_commas(b"epoch,loss\n1,2.345\n2,1.987\n")
    assert not writes_decimal_commas(b"input shape (28,28), patches of (16,16)")
    assert writes_decimal_commas(b"Verlust 0,693, dann 0,512")
    assert decimal_points(b"Linear(784,128) then lr=0,01, loss 1,62 and 1,51") == \
        b"Linear(784,128) then lr=0.01, loss 1.62 and 1.51"
    assert with_english_epochs("Epoche 4: 19,6".encode()) == b"epoch  4: 19,6"
    assert with_english_epochs("- época 10: 4,48".encode()) == "- epoch  10: 4,48".encode()
    assert with_english_epochs("in der ersten Epoche auf 1,62".encode()) == "in der ersten Epoche auf 1,62".encode()

    dutch = ("Optimizer SGD, lr 0,5, 5.000 features. Uitvoer:\n" + "".join(
        f"epoch {e}  loss {v}  acc {a}\n" for e, (v, a) in enumerate(
            (("0,6931", "0,861"), ("0,2140", "0,942"), ("0,1288", "0,963"), ("0,0931", "0,971"), ("nan", "0,972")))))
    d = diagnosis(dutch)
    assert d.evidence.count == 5 and d.evidence.first_nonfinite == 4
    assert "(0.1288 at epoch 2, then 0.0931 at epoch 3)" in d.signature.facts[0]
    german = "SGD, Momentum 0,9, lr 0,4. Trainingsloss pro Epoche:\n" + "".join(
        f"Epoche {e}: {v}\n" for e, v in enumerate(("2,31", "2,87", "4,95", "19,6", "nan", "nan"), 1))
    d = diagnosis(german)
    assert d.matches[0].entry.id == "WR-220" and d.evidence.first_nonfinite == 4
    assert "from 2.31 at epoch 1 to 19.6 at epoch 4" in d.signature.facts[0]
    spanish = "Pérdida de entrenamiento por época:\n" + "".join(
        f"- época {e}: {v}\n" for e, v in ((1, "6,95"), (2, "6,71"), (3, "6,32"), (5, "5,61"), (10, "4,48"), (20, "3,79")))
    d = diagnosis(spanish)
    assert d.evidence.count == 6 and d.verdict in ("healthy", "normal") and d.evidence.where(5) == "epoch 20"
    # a table under a step header, a constant rate said in Italian: the jump right after the first step is no warmup's
    table = ("Adam, lr costante 1e-3, vocabolario da 32.000 token.\nstep    loss\n" +
             "".join(f"{s}  {v}\n" for s, v in ((0, "10,42"), (10, "27,93"), (20, "19,56"), (30, "14,08"), (50, "9,87"),
                                               (100, "8,31"), (500, "6,12"), (2000, "5,47"))))
    d = diagnosis(table)
    assert d.matches[0].entry.id == "WR-250"
    assert "from 10.42 at step 0 to 27.93 at step 10 (x2.7)" in d.matches[0].evidence[0]
    # the arrows of a sentence that chains the layers, ending in a softmax, beside CrossEntropyLoss
    ported = ("A rede é Linear(784,128) → ReLU → Linear(128,10) → Softmax e uso nn.CrossEntropyLoss.\n" +
              "".join(f"época {e}: {v}\n" for e, v in ((1, "1,62"), (5, "1,51"), (20, "1,478"), (50, "1,4781"))))
    assert weighed_parts(ported, "WR-130")["pairing"] == 1.0
    assert "pairing" not in weighed_parts(ported.replace("→ Softmax e", "e"), "WR-130")
    assert "pairing" not in weighed_parts(ported.replace("→ Softmax e", "→ Softmax → argmax e"), "WR-130")
    # a key's one value that opens a sentence's run of them, words between, is the sentence's
    words = "Shuru mein loss 0,69 tha, thoda gira 0,55 tak, fir achanak 1,41 pe jump kiya. Lr 5 hai, 300 epochs."
    assert diagnosis(words).evidence.count == 3


def test_review_session38_blind_a_pairwise_distance_breaks_the_first_backward_pass():
    """(review_session38_blind h28) A norm over every pair of a batch's rows meets the 0 of each row and itself from
    the very first step (WR-050's page): a nan from the start fits it, not only one after training has
    run. And a lower rate that did not help counts nothing for a failure it only puts off, where the run broke at its
    first updates."""
    from trainwreck.breaking_constructs import PAIRWISE

    code = ("def pair_loss(params, x, y):\n    z = model.apply(params, x)\n"
            "    diff = z[:, None, :] - z[None, :, :]\n    d = jnp.linalg.norm(diff, axis=-1)\n    return (d ** 2).mean()\n")
    log = "step 0 | loss 5.6236\n" + "".join(f"step {i} | loss nan\n" for i in range(1, 6))
    said = "JAX, float32. The params are nan from the start; lowering the LR to 1e-6 doesn't help.\n"
    text = said + code + log
    parts = weighed_parts(text, "WR-050")
    assert parts["when"] > 0 and parts["sqrt-at-zero"] == 1.0
    assert diagnosis(text).matches[0].entry.id == "WR-050"
    assert "tried" not in weighed_parts(text, "WR-030")
    # (a norm of one vector, not of every pair: no zero from the start)
    single = code.replace("diff = z[:, None, :] - z[None, :, :]", "diff = z - target")
    assert not PAIRWISE.search(single) and weighed_parts(said + single + log, "WR-050")["when"] < 0
    assert PAIRWISE.search("diff = x.unsqueeze(1) - x.unsqueeze(0)")
    assert not PAIRWISE.search("d = torch.cdist(z, z)")      # (finite gradient at 0: factcheck_session38 item 6)


def test_review_session38_blind_a_zero_grad_named_and_never_called_clears_nothing():
    """(review_session38_blind h21) `optimizer.zero_grad` without brackets looks the method up and throws it away:
    the gradients pile up as if it were not there. "Then does the same thing later" at a lower rate is a failure put
    off, the tell of gradients that pile up; and a put-off counts for the log of zero only where a nan came."""
    from trainwreck.gradient_clearing import clears

    loop = ("for epoch in range(14):\n    for xb, yb in loader:\n        optimizer.zero_grad\n"
            "        loss = criterion(model(xb).squeeze(1), yb)\n        loss.backward()\n        optimizer.step()\n")
    assert not clears(loop) and clears(loop.replace("optimizer.zero_grad\n", "optimizer.zero_grad()\n"))
    assert clears("I do call optimizer.zero_grad every step.\n" + loop)        # (a sentence: it is called)
    curve = "".join(f"step {5 * k} loss={v}\n" for k, v in enumerate(
        ("0.6550", "0.4998", "0.3803", "0.3538", "0.5222", "0.6358", "0.7850", "1.4622", "3.7915", "4.3152", "2.8552",
         "2.9338", "3.9828", "23.4697", "41.2554", "33.3841", "65.9465", "72.4649", "213.1612", "159.3388")))
    later = "No nan. I tried lr=0.001: it reaches 0.32 at step 40 and then does the same thing later.\n"
    assert lr_tried(later) == "delayed"
    d = diagnosis(loop + curve + later)
    assert d.matches[0].entry.id == "WR-260"
    assert any("names `optimizer.zero_grad` without calling it (no brackets)" in e for e in d.matches[0].evidence)
    assert "tried" not in weighed_parts(loop + curve + later, "WR-030")
    assert weighed_parts(loop + curve + later.replace("No nan.", "Then nan."), "WR-030")["tried"] == 1.0


def test_review_session38_blind_a_loss_scalers_floor_ends_the_curve_and_stays_evidence():
    """(review_session38_blind h26, h33) A loss scaler at its floor (fairseq's "Minimum loss scale reached", DeepSpeed's
    "Current loss scale already at minimum") stops the run at gradients that were inf or nan: it ends the curve as a
    non-finite value, and stays half precision's declared message. After a loss that climbed, the scaler's overflows
    count half for half precision (a loss that explodes overflows float16 too: WR-220's climb leads); after a fall, they
    keep their weight. And where the run fails in full precision too, half precision's messages no longer silence
    another entry's construct in the code (a -inf mask)."""
    from trainwreck.logscan.stops import names_no_cause, stop_of

    for floor in ("Minimum loss scale reached (0.0001). Your loss is probably exploding. Try lowering the learning rate, "
                  "using gradient clipping or increasing the batch size.",
                  "Current loss scale already at minimum - cannot decrease scale anymore. Exiting run."):
        assert stop_of(floor) is not None and not names_no_cause(floor), floor
    assert names_no_cause("Loss is nan, stopping training")
    logs = ROOT / "tests" / "logs" / "fairseq"
    climbed = diagnosis((logs / "climb_to_minimum_loss_scale.log").read_text())
    half = next(m for m in climbed.matches if m.entry.id == "WR-040")
    assert climbed.matches[0].entry.id == "WR-220" and half.parts["messages"] == 2.0
    assert any(a.startswith("the loss climbed before the loss scaler's overflows") for a in half.against)
    fell = diagnosis((logs / "fall_then_minimum_loss_scale.log").read_text())
    assert fell.matches[0].entry.id == "WR-040" and fell.matches[0].parts["messages"] == 4.0
    assert fell.evidence.first_nonfinite == fell.evidence.count - 1

    attention = ("with torch.autocast('cuda', dtype=torch.float16):\n    scores = scores.masked_fill(pad_mask, "
                 "float('-inf'))\n    att = scores.softmax(dim=-1)\nscaler = torch.cuda.amp.GradScaler()\n"
                 "UserWarning: Detected call of `lr_scheduler.step()` before `optimizer.step()`. In PyTorch 1.1.0 and "
                 "later, you should call them in the opposite order: `optimizer.step()` before `lr_scheduler.step()`.  "
                 "Failure to do this will result in PyTorch skipping the first value of the learning rate schedule. "
                 "See more details at https://pytorch.org/docs/stable/optim.html#how-to-adjust-learning-rate\n")
    assert "masked-inf" not in weighed_parts(attention + "The loss is nan from step 0.\n", "WR-070")
    fp32 = attention + "The loss is nan from step 0. In plain fp32, without autocast, the loss is still nan.\n"
    assert weighed_parts(fp32, "WR-070")["masked-inf"] > 0


def test_review_session38_blind_a_constant_initialisation_said_in_words():
    """(review_session38_blind h08) "My init_weights() sets every Linear weight to 0.05" starts every unit of a layer
    equal, as the code that does it would; "then it just sits at 1.3520 until epoch 500", over a paragraph's wrapped
    line, says the run does not learn."""
    from trainwreck.run_said import says_not_learning

    assert says_not_learning("The loss goes 1.3863 at epoch 0, 1.3521 at epoch 30 and then it just sits at\n"
                             "1.3520 until epoch 500.")
    assert not says_not_learning("The loss goes 1.3863 at epoch 0, 1.3521 at epoch 30.\n1.3520 is the best I got.")
    report = ("MLP (24 inputs, 32 tanh units, 4 classes), plain SGD, full batch.\nThe loss goes 1.3863 at epoch 0, "
              "1.3617 at epoch 10, 1.3521 at epoch 30 and then it just sits at\n1.3520 until epoch 500.\n"
              "My init_weights() sets every Linear weight to 0.05 and every bias to 0.\n")
    d = diagnosis(report)
    assert d.verdict != "healthy" and d.matches[0].entry.id == "WR-110"
    assert weighed_parts(report, "WR-110")["zero-init"] == 1.0
    assert any('the report says every weight is set to one value ("sets every Linear weight to 0.05")' in e
               for e in d.matches[0].evidence)
    for not_it in ("My init_weights() sets every bias to 0.", "I set the weight decay to 0.05 for every layer."):
        assert "zero-init" not in weighed_parts(report.replace(
            "My init_weights() sets every Linear weight to 0.05 and every bias to 0.", not_it), "WR-110"), not_it


def test_review_session38_blind_a_report_not_in_english_is_not_said_to_say_nothing_of_when():
    """(review_session38_blind h14) "nan au step 1843" says when, in French: words are read for when in English only,
    so a suspect's reason says the words were not read, not that the report does not say when."""
    french = ("Bonjour, j'entraîne un petit encodeur écrit à la main pour classer des tweets en 3 classes.\n"
              "Tout se passe bien puis d'un coup la loss passe à nan et y reste, je ne comprends pas pourquoi.\n"
              "Le code est simple et le reste de la boucle est standard. Des idées ?\n")
    from trainwreck import diagnose as engine

    def why_suspect(text: str) -> str:
        ev = engine._one_run(scan(io.BytesIO(text.encode()), "report", message_finder(CATALOG)))
        w = engine.weigher(CATALOG)
        c = engine.context_of(ev, w, engine.signature_of(ev), engine.WEIGHTS)
        return " ".join(engine.weigh(CATALOG.entries["WR-220"], c, w, engine.WEIGHTS)[1])

    assert "(the report's words, not in English, were not read for when" in why_suspect(french)
    assert "the report does not say when" not in why_suspect(french)
    english = "My loss turned nan and I do not know why. I checked the data and the labels are fine."
    assert "(the report does not say when" in why_suspect(english)


def test_review_session38_blind_a_sentence_beside_a_log_that_tells_another_run_is_not_its_values():
    """(review_session38_blind h20) Below a log read by its key (`epoch 3: mse = 1.75e+25`), "With lr = 1e-6 it's
    the same story, just slower (mse 2.0e+29 at epoch 20, inf at epoch 186)" tells another run: its values are not
    the log's (they had been read as one finite value after the log's nan). A nan or an inf in such a sentence is
    left out only where the log shows one itself."""
    log = "".join(f"epoch {e}: mse = {v}\n" for e, v in enumerate(
        ("1.0", "466756.26", "2841598027481359.0", "1.75e+25", "1.08e+35", "inf", "inf", "nan", "nan")))
    told = "With lr = 1e-6 it's the same story, just slower (mse 2.0e+29 at epoch 20, inf at epoch 186).\n"
    ev = diagnosis(log + told).evidence
    assert ev.count == 9 and ev.finite_after == 0 and ev.first_nonfinite == 5
    # (a sentence whose nan the log does not show is kept: the log's values end finite)
    short = "".join(f"epoch {e}: mse = {v}\n" for e, v in enumerate(("1.0", "466756.26", "2841598027481359.0")))
    later = "After that the mse goes on rising and the run prints mse nan at the end of the next epoch, always.\n"
    assert diagnosis(short + later).evidence.first_nonfinite is not None


def test_review_session38_final_readings():
    """(review_session38_final f07, f20, f25) A constant rate said in Chinese; `float("inf")` in the pasted code is
    no inf the words report; "just makes it climb more slowly" is a failure put off; and what the reporter only read
    ("I read that overflow means the loss is exploding") reports nothing of this run."""
    from trainwreck.schedule_said import no_warmup_said

    for said in ("没有用学习率调度器，lr 一直是常数。", "学習率は一定です。"):
        assert no_warmup_said(said), said
    # (Chinese 一定 is "must", and a constant denied is none: factcheck_session38 item 9)
    for not_said in ("学习率一定要调小", "lr一定要小一点", "学習率は一定ではない"):
        assert not no_warmup_said(not_said), not_said
    assert lr_tried("Lowering the lr from 0.01 to 0.002 just makes it climb more slowly.") == "delayed"
    loop = ("for xb, yb in loader:\n    loss = criterion(model(xb).squeeze(1), yb)\n    loss.backward()\n"
            "    gn = torch.nn.utils.clip_grad_norm_(model.parameters(), float(\"inf\"))  # to log it\n"
            "    optimizer.step()\n")
    curve = "".join(f"[epoch {1 + k // 3}, step {10 * (k + 1):4d}] loss: {v}\n" for k, v in enumerate(
        ("0.7473", "0.9256", "2.7056", "1.3903", "2.2396", "1.2974", "1.7051", "3.6769", "3.5601", "5.5805", "3.9418",
         "9.1588", "18.7469", "13.8179", "21.2354", "14.7498", "5.8702", "16.8794", "19.1330", "18.7851")))
    d = diagnosis(loop + curve)
    assert d.signature.name == "climbed-and-stayed" and d.verdict != "healthy"
    assert "the loss never went below its first value, 0.7473" in d.signature.facts[0]
    assert diagnosis(loop + curve + "It goes inf later.\n").signature.name != "climbed-and-stayed"
    d = diagnosis(loop + curve + "Lowering the lr from 0.01 to 0.002 just makes it climb more slowly.\n")
    assert d.matches[0].entry.id == "WR-260"

    fairseq = (ROOT / "tests" / "logs" / "fairseq" / "fall_then_minimum_loss_scale.log").read_text().split(
        "2024-05-02 08:21:00")[0]       # the healthy fall, no overflow yet
    start = ("2024-05-02 08:00:01 | INFO | fairseq.trainer | NOTE: gradient overflow detected, ignoring gradient, "
             "setting loss scale to: 64.0\n")
    asked = "Overflow notes right at the start - should I worry? I read that overflow means the loss is exploding.\n"
    assert diagnosis(asked + start + fairseq).verdict == "normal"
    assert diagnosis(asked.replace("I read that overflow means", "Later") + start + fairseq).verdict != "normal"


def test_review_session38_final_a_vanished_rate_beside_a_flat_curve_is_not_covered():
    """(review_session38_final f35) A printed rate of 1e-14 and below beside a loss that stayed flat is the schedule
    that stopped the training (StepLR stepped per batch): not covered, whether the words say it stopped learning
    ("stops improving after the first epoch") or only the curve shows it."""
    from trainwreck.run_said import says_not_learning

    assert says_not_learning("CIFAR-10 training stops improving after the first epoch.")
    log = "".join(f"epoch {e:2d} | lr {r} | train loss {v} | val acc 0.3010\n" for e, r, v in (
        (1, "1.00e-14", "2.0513"), (2, "1.00e-27", "1.9334"), (3, "1.00e-40", "1.9329"), (4, "1.00e-53", "1.9341"),
        (5, "1.00e-66", "1.9326"), (29, "0.00e+00", "1.9337"), (30, "0.00e+00", "1.9331")))
    d = diagnosis("Simple CNN, SGD, StepLR(step_size=30, gamma=0.1).\n" + log)
    assert d.verdict == "unexplained" and not d.matches
    assert any("the paste says the learning rate fell to 1.00e-14" in u for u in d.unweighed)


def test_review_session38_final_inputs_and_labels_shuffled_apart_are_not_covered():
    """(review_session38_final f36) `np.random.shuffle(X)` then `np.random.shuffle(y)` draws two permutations: the
    labels no longer belong to their rows. Not covered, and said so; one permutation for both is no such bug."""
    import numpy as np

    rng = np.random.default_rng(0)
    X, y = np.arange(10), np.arange(10)
    rng.shuffle(X)
    rng.shuffle(y)
    assert (X != y).any()                               # two calls, two permutations: the pairs are broken
    code = ("X = np.stack(images); y = np.array(labels)\n# shuffle before splitting\nnp.random.shuffle(X)\n"
            "np.random.shuffle(y)\nX_train, y_train = X[:40000], y[:40000]\n")
    log = "".join(f"epoch {e} loss {v} acc 0.10\n" for e, v in enumerate(("2.306", "2.301", "2.299", "2.300", "2.298",
                                                                          "2.299", "2.297", "2.298")))
    d = diagnosis(code + log)
    assert d.verdict == "unexplained" and not d.matches
    assert any("the paste shuffles its arrays by separate calls (`np.random.shuffle(X) ... np.random.shuffle(y)`)" in u
               for u in d.unweighed)
    together = code.replace("np.random.shuffle(X)\nnp.random.shuffle(y)\n",
                            "idx = np.random.permutation(len(X))\nX, y = X[idx], y[idx]\n")
    assert not any("separate calls" in u for u in diagnosis(together + log).unweighed)
    # ... and scikit-learn's shuffle given one array a call, on one line or two (review_session41 i35); not
    # `shuffle(X, y)`, which keeps the pairs, nor one call alone
    from trainwreck.data_order import shuffled_apart
    assert shuffled_apart("from sklearn.utils import shuffle\nx_train, y_train = shuffle(imgs), shuffle(labels)\n") \
        == "shuffle(imgs) ... shuffle(labels)"
    assert shuffled_apart("X = shuffle(X)\ny = shuffle(y)\n") == "shuffle(X) ... shuffle(y)"
    for kept in ("X, y = shuffle(X, y)\n", "X = shuffle(X)\n", "X, y = shuffle(X, y, random_state=0)\n"):
        assert shuffled_apart(kept) == "", kept
    # ... and permuted apart: NumPy's permutation called once per array, or JAX's with two keys; not JAX's with one
    # key (the same permutation of arrays of one length), nor one index applied to both
    assert shuffled_apart("kx, ky = jax.random.split(key)\nreturn jax.random.permutation(kx, imgs), "
                          "jax.random.permutation(ky, labels)\n") == \
        "jax.random.permutation(kx, imgs) ... jax.random.permutation(ky, labels)"
    assert shuffled_apart("X = np.random.permutation(X)\ny = np.random.permutation(y)\n") == \
        "np.random.permutation(X) ... np.random.permutation(y)"
    for kept in ("Xs = jax.random.permutation(k, X)\nys = jax.random.permutation(k, y)\n",
                 "idx = jax.random.permutation(key, n)\nX, y = X[idx], y[idx]\n"):
        assert shuffled_apart(kept) == "", kept


def test_one_of_a_row_aligned_pair_shuffled_alone_is_not_covered():
    """Two arrays taken row by row together -- columns of one table, or one index into both -- keep each row with its
    label until one of them is shuffled alone in place: a data bug no entry covers, said with the two lines. A label per
    example beside a shuffled set of points (PointNet shuffles the points of a cloud on purpose) is no such pair, and
    neither is a pair shuffled with one permutation."""
    import numpy as np

    from trainwreck.data_order import shuffled_alone

    table = np.arange(12.0).reshape(6, 2)
    rows, marks = table[:, :1], table[:, -1]
    np.random.default_rng(1).shuffle(rows)
    assert (rows[:, 0] + 1 != marks).any()          # the mechanism: the shuffled column's rows left the other's
    code = ("def __getitem__(self, i):\n    arr = np.load(self.files[i])\n    feats, tags = arr[:, :8], arr[:, 8]\n"
            "    np.random.shuffle(feats)\n    return feats, tags\n")
    assert shuffled_alone(code) == "feats, tags = arr[:, :8], arr[:, 8] ... np.random.shuffle(feats)"
    log = "".join(f"epoch {e} loss {v} acc 0.31\n" for e, v in enumerate(("1.386", "1.371", "1.369", "1.370", "1.368",
                                                                          "1.369", "1.367", "1.368")))
    d = diagnosis(code + log)
    assert d.verdict == "unexplained" and not d.matches
    assert any("shuffles one of them alone, in place (`feats, tags = arr[:, :8], arr[:, 8] ... np.random.shuffle(feats)`)"
               in u for u in d.unweighed)
    assert shuffled_alone("    pts, seg = pts[choice], seg[choice]\n    rng.shuffle(seg)\n") == \
        "pts, seg = pts[choice], seg[choice] ... rng.shuffle(seg)"
    # (labels shuffled on purpose, as a sanity check the model cannot learn them, said on the line or above it)
    assert shuffled_alone("X, y = data[:, :-1], data[:, -1]\n# sanity check: random labels should give chance\n"
                          "np.random.shuffle(y)\n") == ""
    for kept in ("    pts, label = cloud[:, :3], labels[i]\n    np.random.shuffle(pts)\n",          # (a label per cloud)
                 "    a, b = x[i], y[j]\n    np.random.shuffle(a)\n",                              # (two indices)
                 "    X, y = X[idx], y[idx]\n",                                                  # (no shuffle after)
                 "    X, y = X[idx], y[idx]\n    np.random.shuffle(X)\n    np.random.shuffle(y)\n"):  # (shuffle_apart's)
        assert shuffled_alone(kept) == "", kept


def test_a_frame_of_inputs_shuffled_apart_from_the_labels_of_its_table_is_not_covered():
    """`X = X.sample(frac=1)` after X was taken from a table whose labels are taken from it apart: the labels keep the
    table's order. Not the whole table shuffled first, nor labels taken from the shuffled frame."""
    from trainwreck.data_order import frame_sampled_alone

    code = ("df = pd.read_csv('loans.csv')\nfeatures = df.drop(columns=['default'])\n"
            "features = features.sample(frac=1.0, random_state=7)\nlabels = df['default'].to_numpy()\n")
    assert frame_sampled_alone(code) == ("features = features.sample(frac=1.0, random_state=7) ... "
                                         "labels = df['default'].to_numpy()")
    log = "".join(f"Epoch {e}/20 - loss: {v} - accuracy: 0.61 - val_loss: 0.69 - val_accuracy: 0.50\n"
                  for e, v in enumerate(("0.693", "0.690", "0.684", "0.676"), 1))
    d = diagnosis(code + log)
    assert d.verdict == "unexplained" and not d.matches
    assert any("the paste shuffles the frame of its inputs and takes its labels from the table" in u for u in d.unweighed)
    whole = code.replace("features = features.sample(frac=1.0, random_state=7)\n", "").replace(
        "df = pd.read_csv('loans.csv')\n", "df = pd.read_csv('loans.csv').sample(frac=1)\n")
    assert frame_sampled_alone(whole) == ""
    popped = ("df = pd.read_csv('loans.csv')\nX = df.copy()\nX = X.sample(frac=1)\ny = X.pop('default')\n")
    assert frame_sampled_alone(popped) == ""
    # (labels brought into the shuffled frame's order through its index: pandas aligns them)
    for realigned in ("labels = df.loc[features.index, 'default']\n", "labels = df['default'].reindex(features.index)\n",
                      "labels = df['default']\nlabels = labels[features.index]\n"):
        assert frame_sampled_alone(code.replace("labels = df['default'].to_numpy()\n", realigned)) == "", realigned


def test_review_session38_last_readings():
    """(review_session38_last g04, g07, g16) A report's decimal commas outnumber a value copied from a program's output
    ("ровно 0.0"); an ordinal's full stop ("1. epoch'un 418. adımında") is no value and no sentence's end; and
    "lr=0,01" is no learning rate of 0."""
    from trainwreck.logscan.decimals import writes_decimal_commas
    from trainwreck.logscan.dialects.prose_values import SENTENCE_END, items
    from trainwreck.rate_tried import rate_zero_failed

    russian = ("Лосс по эпохам:\nэпоха 1 — 1,0986\nэпоха 2 — 1,0848\nэпоха 5 — 1,0640\nэпоха 10 — 1,0551\n"
               "эпоха 20 — 1,0531\nНормы градиентов у W1 и W2 ровно 0.0.\n")
    assert writes_decimal_commas(russian.encode()) and diagnosis(russian).evidence.count == 5
    assert not writes_decimal_commas(b"loss 0.693, 0.512 and 0.488; epochs 1,5")
    assert SENTENCE_END.search(b"sonra 1. epoch'un 418. adimda nan") is None
    assert SENTENCE_END.search(b"at epoch 15. Then nan").group(0) == b"."
    assert SENTENCE_END.search(b"up to epoch 500. predict_proba returns 0.400").group(0) == b"."
    assert [i.number for i in items("Loss 0.69, sonra 0.41, 0.35 ve 3. adımda nan.".encode())] == \
        [b"0.69", b"0.41", b"0.35", b"nan"]
    assert rate_zero_failed("Adam mit lr=0,01, der Loss bleibt gleich") == ""
    assert rate_zero_failed("with lr = 0 the loss is the same")


def test_one_finite_value_then_nan_is_said_so_not_that_the_report_does_not_say_when():
    """A log of one finite value and then nan shows when it broke, one print after its first: a suspect's reason says
    the log shows too little before it, not that the report does not say when. A first value that is already
    enormous there (2.8e10) is the entries' broken from the start, said as it is for a longer curve."""
    plain = "train_loss: [array(0.6931), array(nan), array(nan), array(nan)]\n"
    said = " | ".join(e for m in diagnosis(plain).matches for e in m.evidence)
    assert "(the log shows one finite value before it, and no more, so a run that trained at all is assumed)" in said
    assert "does not say when" not in said
    huge = "train_loss: [array(28340558372.044426), array(nan), array(nan), array(nan)]\n"
    d = diagnosis(huge)
    assert "the first loss (2.834e+10) is already enormous" in " | ".join(d.signature.facts)
    from_start = [m for m in d.matches if m.entry.trace == "nonfinite-from-start"]
    assert from_start and all("start" in weighed_parts(huge, m.entry.id) for m in from_start)
    assert "start" not in weighed_parts(plain, "WR-120")


def test_numpys_overflow_in_another_op_is_no_evidence_against_an_entry_that_overflows():
    """A linear regression whose rate is too high climbs until its squared error overflows in `square` and its mean in
    `reduce`, never in WR-220's own `exp`: the overflow it printed is the same story (values past float's range), so
    no "none of the messages this failure prints" is held against WR-220, which leads on its climb."""
    curve = "".join(f"epoch {e * 40} loss {v}\n" for e, v in
                    enumerate(["14.79", "1.74e+32", "6.85e+63", "2.70e+95", "1.06e+127", "4.20e+158"]))
    warned = curve + ("linreg.py:9: RuntimeWarning: overflow encountered in square\n  loss = (err ** 2).mean()\n"
                      "_methods.py:132: RuntimeWarning: overflow encountered in reduce\n"
                      "  ret = umr_sum(arr, axis, dtype, out, keepdims, where=where)\n"
                      + "".join(f"epoch {e} loss inf\n" for e in (240, 280, 320)))
    d = diagnosis(warned)
    assert d.matches[0].entry.id == "WR-220"
    assert not any("none of the messages" in a for a in d.matches[0].against)
    # ... where the log holds no overflow at all, its absence still counts against WR-220 in a NumPy log
    silent = curve + "".join(f"epoch {e} loss inf\n" for e in (240, 280, 320))
    d = diagnosis(silent)
    assert any("none of the messages" in a for m in d.matches if m.entry.id == "WR-220" for a in m.against)


def test_a_regressions_climb_is_raw_features_second_face_unless_the_inputs_were_scaled():
    """WR-330's page shows a linear model on raw features climbing to inf under plain gradient descent (its
    also_trace): in a report that shows a regression, that climb counts a part for it; not where the words say the
    inputs went through a scaler ("The inputs go through StandardScaler")."""
    from trainwreck.input_scaling import scaled_said

    lines = "".join(f"iteration {i}: cost {v}\n" for i, v in enumerate(
        ["3.9123e+10", "6.1871e+14", "9.7845e+18", "1.5474e+23", "2.4471e+27", "3.8701e+31"]))
    tail = "iteration 6: cost inf\niteration 7: cost nan\n"
    raw = "Linear regression by batch gradient descent on house prices (sqft, bedrooms, age), alpha=0.01.\n"
    assert weighed_parts(raw + lines + tail, "WR-330").get("curve", 0) > 0
    assert "WR-330" in [m.entry.id for m in diagnosis(raw + lines + tail).matches[:3]]
    scaled = raw.replace(".\n", ". The inputs go through StandardScaler.\n")
    assert scaled_said(scaled)["scaled"] == {"inputs": "inputs go through StandardScaler"}
    assert "curve" not in weighed_parts(scaled + lines + tail, "WR-330")
    # ... nor does a classifier's climb count for it
    assert "curve" not in weighed_parts("Image classifier, softmax + cross-entropy.\n" + lines + tail, "WR-330")


def test_a_lower_rate_that_broke_at_the_same_place_names_the_failures_that_do_not_move_with_it():
    """"At lr 3e-5 it is exactly the same step, 4210": the failure did not move with the rate at all -- a bad batch
    breaks where it is met. WR-310 (whose phrases say a lower rate does not move the step) gets the whole weight of
    a rate tried and is among the candidates beside a climb that stayed up; "the same seed" is no such report."""
    from trainwreck.rate_tried import lr_tried, lr_tried_same_place

    said = "With lr 3e-5 it is exactly the same step, 4210."
    assert lr_tried(said) == "failed" and lr_tried_same_place(said)
    assert lr_tried("at lr=0.0001 the loss curve is identical") == "failed"
    assert lr_tried("With lr 1e-3, batch 64 and the same seed, it diverges.") == ""
    assert not lr_tried_same_place("I lowered the lr to 1e-5 and it still climbs.")
    text = ("Tabular classifier, Adam 3e-4. The loss goes from 0.69 to about 0.41 over 4000 steps, then at step 4210 "
            "it jumps to 2.9 and stays between 2.2 and 3.4. " + said + " No nan anywhere.")
    d = diagnosis(text)
    assert d.matches[0].entry.id == "WR-310"
    assert "broke at the same place" in " | ".join(d.matches[0].evidence)


def test_a_warmup_said_taken_out_is_no_warmup():
    """"dropped `--lr-warmup-fraction .01`", "I removed the lr warmup", "--warmup-steps 0": the run had none, so a jump
    to twice the first loss that recovers is the no-warmup spike."""
    from trainwreck.schedule_said import no_warmup_said

    for said in ("I dropped `--lr-warmup-fraction .01` from the script", "I removed the lr warmup",
                 "commented out the warmup scheduler", "launched with --warmup-steps 0 and lr 3e-4"):
        assert no_warmup_said(said), said
    for kept in ("--warmup-steps 500", "I dropped the learning rate to 1e-4", "removed the dropout"):
        assert not no_warmup_said(kept), kept
    curve = "".join(f"iteration {i:>4}/ 1000 | lm loss: {v} |\n" for i, v in enumerate(
        ["1.0412E+01", "1.3110E+01", "1.8932E+01", "2.0871E+01", "1.7655E+01", "1.4120E+01", "1.1034E+01",
         "9.4410E+00", "8.0123E+00", "7.1120E+00"], start=1))
    d = diagnosis("Same config as the baseline but I removed the lr warmup (--lr-warmup-iters 0 before: 200).\n" + curve)
    assert d.matches[0].entry.id == "WR-250"


def test_a_sentence_in_another_language_names_its_loss_in_its_own_word():
    """"La pérdida empieza en 0.69 ... -410.2, -822.7, -1233.9": the word for loss in Spanish, Portuguese, Italian,
    French, German, Russian, Turkish, Chinese, Japanese and Korean opens a sentence's values as "loss" does; a
    validation's ("pérdida de validación") gives none."""
    from trainwreck.logscan import scan_text

    for text in ("La pérdida empieza en 0.69, luego -410.2, -822.7, -1233.9 por época.",
                 "A perda começa em 0.69, depois -410.2, -822.7, -1233.9.",
                 "Der Verlust fällt von 0.69 auf -410.2, -822.7, -1233.9.",
                 "Потеря: 0.69, потом -410.2, -822.7, -1233.9.",
                 "损失从 0.69 变成 -410.2, -822.7, -1233.9。"):
        ev = scan_text(text)
        assert ev.count == 4 and ev.head[-1] == -1233.9, text
    assert scan_text("La pérdida de validación: 0.69, 0.71, 0.74, 0.80.").count == 0


def test_rises_of_different_sizes_are_told_as_they_are_not_as_one_size_each_time():
    """x1.2, x1.2, then x900: no rise was "about x4.7 each time". Alike rises keep "each time"; two are told both;
    more are told as their geometric mean and their range; one is told once."""
    def facts(values):
        return diagnosis("".join(f"epoch {e} loss {v}\n" for e, v in enumerate(values, 1))).signature.facts[0]

    assert "about x2 each time" in facts(["1.0", "2.0", "4.0", "8.0", "nan"])
    assert "x19.3 then x3.49" in facts(["5.0", "3.17", "61.3", "214", "nan"])
    told = facts(["1.0", "1.2", "1.44", "1.728", "1555.2", "nan"])
    assert "a time on average, from x1.2 to x900" in told and "each time" not in told
    assert "x3.3;" in facts(["0.5", "0.3", "0.99", "nan"])


def test_gradients_cleared_before_an_accumulating_loop_are_said_to_step_every_k_batches():
    """Cleared once before the epochs, stepped under `if (i + 1) % accum_steps == 0:`: the loop does not call
    step() on every batch, and the sentence says so."""
    code = ("optimizer.zero_grad()\nfor epoch in range(10):\n    for i, (x, y) in enumerate(loader):\n"
            "        loss = crit(model(x), y) / accum_steps\n        loss.backward()\n"
            "        if (i + 1) % accum_steps == 0:\n            optimizer.step()\n")
    said = " | ".join(e for m in diagnosis("The loss goes nan after 900 updates.\n" + code).matches for e in m.evidence)
    assert "calls backward() on every batch and step() every `accum_steps` batches and clears nothing" in said
    assert "step() on every batch" not in said


def test_a_lower_rate_that_moved_the_nan_later_puts_it_off_and_names_gradients_never_cleared():
    """"only moved the nan to around update 2100", "it takes longer but goes nan at epoch 23 instead": put off, the
    tell of gradients that pile up. Beside a loop that clears them nowhere and a climb, that is WR-260's face, named
    ahead of the rate (not "each epoch takes longer", which says nothing of the failure)."""
    from trainwreck.rate_tried import lr_tried

    assert lr_tried("Lowering lr from 0.05 to 0.01 only moved the nan to around update 2100.") == "delayed"
    assert lr_tried("I tried lr=0.001: it takes longer but goes nan at epoch 23 instead.") == "delayed"
    assert lr_tried("With lr=0.001 each epoch takes longer, and the loss is fine.") == ""
    log = "".join(f"epoch {e}: loss={v}\n" for e, v in enumerate(
        ["0.91", "0.38", "0.30", "0.66", "2.41", "0.97", "9.88", "3.17", "61.3", "214", "nan"]))
    loop = ("for xb, yb in loader:\n    out = model(xb)\n    loss = criterion(out, yb)\n    loss.backward()\n"
            "    optimizer.step()\n")
    d = diagnosis(log + loop + "I tried lr=0.001: it takes longer but goes nan at epoch 23 instead.\n")
    assert d.matches[0].entry.id == "WR-260"


def test_a_csv_pasted_below_a_reports_words_and_code_is_read_from_its_header():
    """Keras's CSVLogger file pasted under twenty lines of words and code: its header is found below the first lines
    where two rows of the file follow it; a sentence with commas and the word loss in it is no header."""
    from trainwreck.logscan import scan_text

    words = "".join(f"line {k} of the question, with some code\n" for k in range(20))
    rows = "".join(f"{e},0.1,{v},0.1,2.30\n" for e, v in enumerate(["2.416", "2.307", "2.305", "2.304"]))
    ev = scan_text(words + "log.csv:\n```\nepoch,accuracy,loss,val_accuracy,val_loss\n" + rows + "```\n")
    assert ev.count == 4 and ev.head[0] == 2.416 and str(ev.head_at[3]) == "epoch 3"
    sentence = words + "I print epoch, loss, accuracy every epoch and the loss: 2.41 then 2.30 then 2.30\n"
    assert scan_text(sentence).dialect != "a CSV file with a loss column"


def test_a_parameter_made_from_memory_never_filled_counts_for_never_initialised_weights():
    """`nn.Parameter(torch.empty(out_f, in_f))` with no init anywhere in the paste holds whatever that memory held:
    WR-110's "never initialised" face. Not where the paste fills it (nn.init, reset_parameters, an in-place fill)."""
    code = ("class MyLinear(nn.Module):\n    def __init__(self, i, o):\n        super().__init__()\n"
            "        self.weight = nn.Parameter(torch.empty(o, i))\n        self.bias = nn.Parameter(torch.zeros(o))\n")
    text = "The loss is nan at the first batch.\n" + code
    d = diagnosis(text)
    assert d.matches[0].entry.id == "WR-110"
    assert "makes a parameter from memory it never fills (`nn.Parameter(torch.empty(o, i))`" in \
        " | ".join(d.matches[0].evidence)
    filled = text + "        nn.init.kaiming_uniform_(self.weight, a=math.sqrt(5))\n"
    assert "unfilled-init" not in weighed_parts(filled, "WR-110")


def test_chinese_first_batch_and_a_rate_of_zero_say_when_and_rule_out_the_rate():
    """"第一个 batch 的 loss 就是 nan" is from the start; "学习率设成 0 也是一样" is a rate of 0 that fails the same way:
    the forward pass from the initial weights, or the data."""
    from trainwreck.thesaurus import when
    from trainwreck.rate_tried import lr_tried, rate_zero_failed

    assert "start" in when("换上去之后，第一个 batch 的 loss 就是 nan")
    assert rate_zero_failed("学习率设成 0 也是一样，所以不是优化器的问题。") == "学习率设成 0 也是一样"
    assert lr_tried("学习率设成 0.001 也是一样") == ""
    d = diagnosis("第一个 batch 的 loss 就是 nan。学习率设成 0 也是一样。")
    assert {m.entry.id for m in d.matches[:3]} & {"WR-110", "WR-120"}
    assert not any("a run that trained at all is assumed" in e for m in d.matches for e in m.evidence)


def test_a_russian_report_gives_its_values_steps_and_denials():
    """"шаг 0 — лосс 9.21, на 3–5 шаге уже 26–28, ... к 200 шагу около 7, а к концу эпохи 4.1": the steps (a range
    of them included) are places, the words between values are counted in letters, not bytes; "NaN нигде нет" denies
    a nan; "оставил постоянный lr" and "выкинул шедулер" are a run with no warmup."""
    from trainwreck.logscan import scan_text
    from trainwreck.thesaurus import DENIED_ELSEWHERE
    from trainwreck.schedule_said import no_warmup_said

    text = ("Теперь картина такая: шаг 0 — лосс 9.21, на 3–5 шаге уже 26–28, потом он потихоньку спускается, "
            "к 200 шагу около 7, а к концу эпохи 4.1.")
    assert scan_text(text).head == [9.21, 26.0, 28.0, 7.0, 4.1]
    assert DENIED_ELSEWHERE.search("NaN нигде нет, градиенты конечные")
    assert not DENIED_ELSEWHERE.search("NaN не исчезает")
    assert no_warmup_said("выкинул шедулер из туториала и оставил постоянный lr")
    assert diagnosis("Оставил постоянный lr. " + text + " NaN нигде нет.").matches[0].entry.id == "WR-250"


def test_a_range_the_loss_moves_in_is_not_two_of_its_values():
    """"from then on wobbles between 1.8 and 3.1": the level it sits at, not a fall to 1.8 and a rise to 3.1 (which
    made the report say "it ends at 3.1")."""
    from trainwreck.logscan import scan_text

    assert scan_text("The loss goes from 0.69 to 0.33, then jumps to 2.4 and wobbles between 1.8 and 3.1.").head == \
        [0.69, 0.33, 2.4]


def test_a_stuck_accuracy_is_quoted_by_its_lowest_and_highest_not_its_ends():
    """0.094, 0.108, 0.101: it stayed between 0.094 and 0.108, not "0.094 to 0.101"."""
    lines = "".join(f"step {s} loss {v} acc {a}\n" for s, v, a in
                    [(0, "4.77e+12", "0.094"), (100, "3.1e+11", "0.108"), (200, "2.2e+10", "0.099"),
                     (300, "1.1e+10", "0.101")])
    said = " | ".join(diagnosis(lines).signature.facts)
    assert "between 0.094 and 0.108" in said


def test_a_pytorch_model_that_hands_probabilities_to_cross_entropy_is_not_held_to_bce_messages():
    """nn.Softmax before F.cross_entropy raises nothing in PyTorch: WR-130's declared PyTorch messages are BCELoss's
    range check, the other pairing's, so their absence is not held against it where the paste shows this one."""
    code = ("self.net = nn.Sequential(nn.Flatten(), nn.Linear(784, 256), nn.ReLU(), nn.Linear(256, 10), "
            "nn.Softmax(dim=1))\n...\nloss = F.cross_entropy(self(x), y)\n")
    log = "".join(f"epoch {e} loss {v}\n" for e, v in enumerate(["1.561", "1.489", "1.475", "1.466", "1.466",
                                                                  "1.465", "1.466", "1.465", "1.465", "1.465"]))
    d = diagnosis("val_acc 98% but the loss stays at 1.47\n" + code + log)
    wr130 = next(m for m in d.matches if m.entry.id == "WR-130")
    assert not any("none of the messages" in a for a in wr130.against)
    assert d.matches[0].entry.id == "WR-130"


def test_a_message_that_shows_one_face_gives_the_fix_item_for_that_face():
    """WR-060's "Expected more than 1 value per channel when training" is batch normalisation's batch of one: its
    declared `fix:` names the Fix item for that face, so the first step is that item's ("drop the last incomplete
    batch"), not the section's opening about eps; the value that ends the message keeps its bracketed spaces."""
    text = ("Traceback (most recent call last):\n  File \"train.py\", line 9, in <module>\n"
            "ValueError: Expected more than 1 value per channel when training, got input size torch.Size([1, 256])\n")
    d = diagnosis(text)
    top = d.matches[0]
    assert top.entry.id == "WR-060"
    assert top.fix.startswith("Batch normalisation: never in training mode on a batch of one; drop the last incomplete")
    assert 'got input size torch.Size([1, 256])" (line 3)' in " | ".join(top.evidence)


def test_the_words_of_a_german_report_that_are_english_words_are_not_read_as_english():
    """"Die ersten 256 Batches laufen problemlos": German's article is no unit dying (WR-250's summary, "units
    die", had put it first for a nan in a German report)."""
    german = ("Hallo zusammen, ich trainiere ein einfaches MLP auf Tabellendaten, die ersten Batches laufen "
              "problemlos durch, der Loss sinkt von 0.69 auf 0.41, und dann kommt jedes Mal genau am Ende der ersten "
              "Epoche ein Fehler. Die Daten sind in Ordnung und ich habe nichts am Modell geändert, oder doch?")
    assert diagnosis(german + "\nThe loss is nan.").matches[0].entry.id != "WR-250"
    without = german.replace(" die ", " jene ").replace("Die ", "Jene ")
    assert weighed_parts(german, "WR-250").get("words", 0) == weighed_parts(without, "WR-250").get("words", 0)


def test_weights_zeroed_by_a_comprehension_and_gradients_said_zero_name_zero_initialisation():
    """`params = {k: np.zeros(s) for k, s in shapes.items()}` zeroes every parameter; "the gradient norms of the
    weights print as exactly 0.0" is the zero gradient that follows."""
    code = ('shapes = {"W1": (2, 32), "b1": (32,), "W2": (32, 3), "b2": (3,)}\n'
            "params = {k: np.zeros(s) for k, s in shapes.items()}\n")
    log = "".join(f"epoch {e} loss {v}\n" for e, v in enumerate(
        ["1.0986", "1.0731", "1.0554", "1.0431", "1.0344", "1.0283", "1.0155", "1.0118", "1.0114", "1.0114"]))
    d = diagnosis("My net does not learn. The gradient norms of the weights print as exactly 0.0.\n" + code + log)
    assert d.matches[0].entry.id == "WR-110"
    said = " | ".join(d.matches[0].evidence)
    assert "params = {k: np.zeros(s) for k, s in shapes.items()}" in said
    assert 'the report says the gradients are exactly 0 ("gradient norms of the weights print as exactly 0.0")' in said


def test_an_optimizer_built_with_a_rate_of_zero_and_jaxs_unscaled_normal_name_the_initialisation():
    """`optax.adam(0.0)` giving the same loss is a rate of 0 that fails the same way; `jax.random.normal(k, (din,
    dout))` draws weights with a standard deviation of 1."""
    from trainwreck.rate_tried import rate_zero_failed

    assert rate_zero_failed("I ran it with `optax.adam(0.0)` and the step-0 loss is the same 4.7712e+12.") == \
        "optax.adam(0.0) and the step-0 loss is the same"
    assert rate_zero_failed("optax.adam(1e-3) is the same") == ""
    code = ("params.append((jax.random.normal(k, (din, dout)), jnp.zeros(dout)))\n"
            "I ran it with `optax.adam(0.0)` and the step-0 loss is the same.\n")
    log = "".join(f"step {s} | loss {v} | acc {a}\n" for s, v, a in
                  [(0, "4.77e+12", "0.094"), (100, "3.90e+12", "0.102"), (200, "3.15e+12", "0.099")])
    assert diagnosis(code + log).matches[0].entry.id == "WR-120"


def test_a_question_about_a_gap_or_overfitting_is_answered_from_the_validation_loss_printed():
    """"val_loss higher than loss from epoch 3 on -- am I overfitting?": the validation loss the log prints answers it.
    Still falling at its last value: not overfitting yet. Lowest some epochs in and risen since: overfitting, where to
    stop. Too few validation values: nothing said."""
    def log(val):
        return "".join(f"Epoch {e}/8\n313/313 - 6s - loss: {t} - val_loss: {v}\n" for e, (t, v) in enumerate(
            zip(["1.24", "0.94", "0.79", "0.69", "0.62", "0.57", "0.52", "0.49"], val), 1))
    falling = log(["1.09", "0.90", "0.79", "0.73", "0.69", "0.65", "0.63", "0.61"])
    d = diagnosis("val_loss higher than loss from epoch 3 on, am I already overfitting?\n" + falling)
    assert d.verdict == "normal"
    assert d.trend.startswith("the validation loss the log prints fell at every value, from 1.09 to 0.61 (value 8 of 8)")
    rising = log(["1.09", "0.90", "0.79", "0.73", "0.76", "0.81", "0.88", "0.95"])
    d = diagnosis("my val_loss goes up after epoch 4 while the loss keeps falling\n" + rising)
    assert d.verdict == "normal" and d.trend.startswith(
        "the validation loss the log prints was lowest at value 4 of 8 (0.73) and rose since, to 0.95: that is overfitting")
    from trainwreck.diagnose_report import report
    assert "Here, the validation loss the log prints was lowest at value 4 of 8" in report(d)
    short = "".join(f"epoch {e} loss {t} val_loss {v}\n" for e, (t, v) in enumerate([("0.9", "1.0"), ("0.8", "0.9")]))
    assert diagnosis("val_loss higher than loss, overfitting?\n" + short).trend == ""


def test_a_validation_loss_that_never_beat_a_uniform_guess_is_no_overfitting():
    """(review_session41 i35) Images and labels shuffled apart: the training loss falls as the net learns them by
    heart, while the validation accuracy stays at 1/10 and the validation loss never leaves ln 10 = 2.303. It was lowest
    at its first value and rose since, but that is no overfitting (whose validation loss fell first), and the weights of
    its lowest point are worth nothing: the report says the validation never beat a uniform guess."""
    rows = [(1, "0.0994", "2.3089", "0.1004", "2.3027"), (2, "0.1012", "2.3025", "0.0982", "2.3028"),
            (5, "0.1031", "2.3011", "0.0996", "2.3031"), (10, "0.1107", "2.2967", "0.0978", "2.3052"),
            (20, "0.1528", "2.2431", "0.1010", "2.3298"), (40, "0.2894", "1.9603", "0.0991", "2.5176")]
    log = "".join(f"Epoch {e}/40\n1407/1407 ━━━━━━━━━━━━━━━━━━━━ 6s 4ms/step - accuracy: {a} - loss: {t} - "
                  f"val_accuracy: {va} - val_loss: {v}\n" for e, a, t, va, v in rows)
    d = diagnosis(log)
    assert d.verdict == "healthy"
    assert d.trend.startswith("the validation loss the log prints never fell below 2.303 (ln 10 = 2.303, the loss of a "
                              "uniform guess over 10 classes), and its validation accuracy stayed near 1/10, from "
                              "0.0978 to 0.101")
    assert "overfitting; the weights of its lowest point" not in d.trend
    assert "The training loss that falls beside it is learned by heart" in d.trend
    # (beside a training loss that did not fall, nothing was learned by heart: no such advice)
    from trainwreck.validation_curve import trend
    assert trend(log, rose_only=True).endswith("which starts from a validation loss that fell first")
    # a validation accuracy that left 1/10, or a validation loss that fell below ln 10 first, is the old story
    learned = log.replace("val_accuracy: 0.0991", "val_accuracy: 0.4120")
    assert "that is overfitting" in diagnosis(learned).trend
    fell = log.replace("val_loss: 2.3031", "val_loss: 2.1031")
    assert "that is overfitting" in diagnosis(fell).trend


def test_a_healthy_training_loss_beside_a_validation_loss_that_rose_says_so():
    """The training loss falls to 0.0008 while the validation loss printed beside it rises from its first value:
    no failure of the catalogue's, but the report says the validation loss rose, and from where."""
    lines = "".join(f"step {s}: train_loss={t} val_loss={v} val_acc={a}\n" for s, t, v, a in [
        (0, "2.3127", "2.3049", "0.101"), (100, "0.0412", "3.8816", "0.112"), (200, "0.0047", "5.1322", "0.108"),
        (300, "0.0019", "5.6903", "0.109"), (400, "0.0011", "6.0125", "0.107")])
    d = diagnosis(lines)
    assert d.verdict == "healthy"
    assert d.trend.startswith("the validation loss the log prints was lowest at its first value (2.305) and rose "
                              "since, to 6.013 (value 5 of 5)")
    falling = lines.replace("val_loss=3.8816", "val_loss=1.8816").replace("val_loss=5.1322", "val_loss=1.5")\
        .replace("val_loss=5.6903", "val_loss=1.4").replace("val_loss=6.0125", "val_loss=1.3")
    assert diagnosis(falling).trend == ""


def test_swings_of_a_small_batchs_loss_are_said_to_be_its_noise_first():
    """Per-step losses of batches of 8 swing from 0.06 to 1.5 and back: the mean of 8 examples does that, so the report
    says it before the sorted dataset that makes it too; and it says the range they swung in, not only where the
    first and last landed."""
    steps = "".join(f"step {300 + k} loss {v}\n" for k, v in enumerate(
        ["0.2142", "1.1873", "0.0631", "0.7410", "0.4977", "1.5216", "0.1288", "0.3302", "0.9065", "0.0874", "0.6139"]))
    fact = diagnosis("Fine-tuning with batch_size=8, Adam 3e-4. Is it normal that it jumps like this?\n" + steps)\
        .signature.facts[0]
    assert "the loss swung between 0.0631 and 1.522, going from 0.2142 to 0.6139" in fact
    assert "as the mean loss of a batch of 8 examples does, one batch to the next" in fact
    assert "as the mean loss of a batch" not in diagnosis("batch_size=256\n" + steps).signature.facts[0]


def test_a_printed_largest_logit_past_exps_limit_beside_an_unshifted_exp_is_its_overflow():
    """"max logit 88.96" printed by a JAX loop whose softmax is `jnp.exp(z) / sum`: exp(88.96) is past float32's
    largest (exp overflows above 88.72), so the nan that follows is inf / inf. Not beside a shifted softmax, and not
    below the limit."""
    code = ("def softmax(z):\n    e = jnp.exp(z)\n    return e / e.sum(axis=-1, keepdims=True)\n")
    log = "".join(f"epoch {e}   train_loss {v}  max logit {m}\n" for e, v, m in
                  [(12, "0.0858", "75.36"), (13, "0.0712", "81.47"), (14, "0.0596", "87.05"), (15, "nan", "88.96"),
                   (16, "nan", "nan")])
    d = diagnosis(code + log)
    assert d.matches[0].entry.id == "WR-020"
    assert ("the paste prints the largest logit as 88.96 (`max logit 88.96`), and its exp takes the logits as they "
            "are: exp(88.96) is past the largest float32 (exp overflows above 88.72)") in " | ".join(d.matches[0].evidence)
    shifted = code.replace("jnp.exp(z)", "jnp.exp(z - z.max(axis=-1, keepdims=True))")
    for quiet in (shifted + log, code + log.replace("88.96", "87.96")):
        assert not {"exp-overflow", "exp-overflow-printed"} & set(weighed_parts(quiet, "WR-020")), quiet
    # (a printed logit is the run's own number: a printed fact's whole weight)
    assert weighed_parts(code + log, "WR-020")["exp-overflow-printed"] == 2.0


def test_a_loss_that_jumped_in_one_step_and_never_came_back_is_a_bad_batchs_face_too():
    """A TensorBoard export of 97 values: the loss falls to 0.41, jumps in one step from 0.43 to 3.81 and wobbles
    between 1.1 and 2.3 to the end, no nan. It is no healthy run (in a log longer than the values kept before its end
    too), and a jump in one step that stays up is WR-310's face ("loss jumps at one batch and never comes back down")
    as well as a rate's."""
    import random

    rng = random.Random(7)
    falling = [0.69 * 0.97 ** k for k in range(29)]
    after = [3.81] + [round(rng.uniform(1.13, 2.31), 4) for _ in range(67)]
    rows = "".join(f"1716984236.44,{250 * k},{v}\n" for k, v in enumerate(falling + after))
    d = diagnosis("Loss jumps at one step and never comes back down.\n```\nWall time,Step,Value\n" + rows + "```\n")
    assert d.signature.name == "climbed-and-stayed"
    assert f"jumped in one step from {falling[-1]:.4g} (step 7000) to 3.81 (step 7250)" in d.signature.facts[0]
    assert "WR-310" in [m.entry.id for m in d.matches[:2]]
    assert "curve" in weighed_parts("Wall time,Step,Value\n" + rows, "WR-310")


def test_a_csv_log_with_a_sentence_about_val_loss_below_it_is_read_as_the_csv():
    """A CSVLogger file pasted above "the training loss to almost 0, but val_loss is lowest around epoch 6-7 (about
    0.80) and then climbs to 2.2": a validation quantity named ends a sentence's values, so the file is what is read,
    and its val_loss column answers the question about overfitting."""
    rows = "".join(f"{e},0.9,{t},0.7,{v}\n" for e, (t, v) in enumerate(
        [("1.51", "1.45"), ("1.25", "1.22"), ("0.95", "0.95"), ("0.62", "0.85"), ("0.43", "0.80"), ("0.30", "0.95"),
         ("0.18", "1.20"), ("0.09", "1.60"), ("0.04", "2.20")]))
    text = ("val_loss goes up from epoch 5 while the training loss keeps falling. Here is training.log:\n\n```\n"
            "epoch,accuracy,loss,val_accuracy,val_loss\n" + rows + "```\n\nThe training loss goes to almost 0, but "
            "val_loss is lowest around epoch 4 (about 0.80) and then climbs all the way to 2.2.\n")
    d = diagnosis(text)
    assert d.evidence.dialect == "a CSV file with a loss column" and d.evidence.count == 9
    assert d.verdict == "normal" and d.trend.startswith(
        "the validation loss the log prints was lowest at value 5 of 9 (0.8) and rose since, to 2.2")


def test_a_list_a_python_prompt_echoes_is_the_lists_values():
    """`>>> losses` (or a slice of it, `>>> losses[::400]`) and the list printed below: a history."""
    from trainwreck.logscan import scan_text

    items = ", ".join(f"np.float64({v})" for v in ["0.6931", "0.4128", "0.3562", "0.3362", "nan"])
    ev = scan_text(f">>> losses\n[{items}]\n>>> np.isnan(w).any()\nnp.False_\n")
    assert ev.count == 5 and ev.first_nonfinite == 4 and str(ev.head_at[1]) == "value 2 of 'losses'"
    ev = scan_text(f">>> losses[::400]\n[{items}]\n")
    assert str(ev.head_at[2]) == "value 3 of 'losses[::400]'"
    assert scan_text(f">>> accuracies\n[{items}]\n").count == 0


def test_the_header_names_no_format_that_gave_no_value():
    """A report whose loss key was seen but gave no value was not "read as lines with a loss key"."""
    from trainwreck.diagnose_report import header

    d = diagnosis("After some iterations I get a float division by zero.\n"
                  "        loss = loss_fn(y_train, y_pred, weights)\n"
                  "        with amp.scale_loss(loss, optimizer) as scaled_loss:\n            scaled_loss.backward()\n")
    assert d.evidence.count == 0 and "read as" not in header(d)


def test_a_score_that_climbs_is_no_climbing_loss():
    """"while accuracy climbs normally" is learning: not the climb of a loss (the rate's words)."""
    from trainwreck.thesaurus import tokens

    assert "climb" not in tokens("The loss crawls down while accuracy climbs normally.")
    assert "climb" in tokens("The val acc goes up but the loss also goes up.")


def test_the_last_layer_a_sentences_backticks_list_is_the_models_output():
    """"My model ends with `nn.Linear(256, 10), nn.Softmax(dim=1)` and I train it with `nn.CrossEntropyLoss()`": the
    softmax's probabilities handed to a loss that takes logits."""
    d = diagnosis("My model ends with `nn.Linear(256, 10), nn.Softmax(dim=1)` and I train it with "
                  "`nn.CrossEntropyLoss()`. The loss only went from 2.30 to 1.93 in 30 epochs, accuracy 71%.")
    assert d.matches and d.matches[0].entry.id == "WR-130"
    assert "outputs probabilities (`nn.Softmax(dim=1)`)" in " | ".join(d.matches[0].evidence)


def test_predictions_named_in_a_sentence_are_no_loss_values():
    """"The loss goes from 3.9041e+10 to 3.9028e+10 over 200 epochs and model.predict gives values around 30 to 40":
    the predictions' numbers are not the loss's."""
    from trainwreck.logscan import scan_text

    ev = scan_text("The loss goes from 3.9041e+10 to 3.9028e+10 over 200 epochs and model.predict gives values around "
                   "30 to 40 for every house.")
    assert 40.0 not in ev.head


def test_what_the_pasted_code_scales_is_scaled():
    """`y_train = y_scaler.fit_transform(y[:split])` scales the targets and `X = (X - X.mean(0)) / X.std(0)` the inputs:
    held against the entries of forgetting to; `y = df.price.values` scales nothing."""
    from trainwreck.input_scaling import scaled_said

    code = ("x_scaler, y_scaler = MinMaxScaler(), MinMaxScaler()\nX_train = x_scaler.fit_transform(X[:split])\n"
            "y_train = y_scaler.fit_transform(y[:split])\n")
    said = scaled_said(code)["scaled"]
    assert said == {"inputs": "X_train = x_scaler.fit_transform(X[:split])",
                    "targets": "y_train = y_scaler.fit_transform(y[:split])"}
    assert scaled_said("X = (X - X.mean(0)) / X.std(0)\ny = df.price.values\n")["scaled"] == \
        {"inputs": "X = (X - X.mean(0)) / X.std(0)"}
    assert "scaled-targets" in weighed_parts(code + "model.compile(loss='mse')\nthe loss is nan at batch 611\n", "WR-360")


def test_when_an_entry_shows_is_told_by_its_own_words_not_by_its_snippets_measurements():
    """WR-250's Symptom reports its snippet's run ("after 40 steps it is still 2.218"): a measurement, not a time
    the failure shows at. Read as one, it had a report of a nan "after training for a while" told that it
    "showed after training for a while, as this failure does" for a spike in the first steps (review s39c, i14)."""
    from trainwreck.weighing import Weigher
    from trainwreck.entry_documents import section

    snippet_part = next(p for p in section(CATALOG.entries["WR-250"], "Symptom").split("\n\n")
                        if p.startswith("In the snippet"))
    assert "later" in when(snippet_part)                 # (what the snippet's paragraph alone would say)
    timing = Weigher(CATALOG).timing
    assert timing["WR-250"] == {"early"}
    assert timing["WR-330"] >= {"start", "later"}        # (its regression face climbs to inf at epoch 26)


def test_a_loss_said_to_stay_where_it_got_or_a_model_with_one_answer_does_not_learn():
    """"Drops to 2.25 and then stays there for 30 epochs", "predicts 'cat' for every image": a run that does not
    learn, said in words beside too few values to judge; the code's raw pixels are then read for it (review s40)."""
    from trainwreck.run_said import says_not_learning

    assert says_not_learning("it drops to ~2.25 and then stays there for 30 epochs")
    assert says_not_learning("the model predicts 'cat' for every image")
    assert says_not_learning("it predicted the same class for all the images")
    assert not says_not_learning("we predict a box for each object")       # (not an answer of one class)
    assert not says_not_learning("I left it there for the night")
    report = ("Ten-class CNN on my own photo folder, SGD momentum 0.9 lr 0.01. Loader:\n\n"
              "    img = cv2.imread(path)\n"
              "    x = torch.tensor(img, dtype=torch.float32).permute(2, 0, 1)\n\n"
              "epoch 1 loss 9.81\nepoch 2 loss 2.3031\nepoch 10 loss 2.3027\nepoch 30 loss 2.3026\n\n"
              "It drops to ~2.30 and then stays there for 30 epochs; it predicts 'cat' for every image.\n")
    d = diagnosis(report)
    # (named since one class quoted for every image is read too: raw pixels, a loss at chance and one answer)
    assert d.verdict == "failure" and d.matches[0].entry.id == "WR-330"
    assert any("with no division by 255" in line for line in d.matches[0].evidence)


def test_a_place_that_moves_with_the_data_order_and_stays_with_the_rate_is_a_bad_batch():
    """The two experiments that tell a bad batch apart: the step it breaks at stays where it was at another rate
    ("I tried SGD at 0.01 and 0.001 and it's always step 2210") and moves when the data is shuffled otherwise
    ("with a reshuffled loader it blows up at a different step"). Each is read; together they name WR-310
    (review s40, i20 and i34)."""
    from trainwreck.rate_tried import lr_tried_same_place
    from trainwreck.run_said import order_moved_it

    rates = "I tried SGD at 0.01 and 0.001 and it's always step 2210."
    order = "With a reshuffled loader it blows up at a different step every run."
    assert lr_tried(rates) == "failed" and lr_tried_same_place(rates)
    assert order_moved_it(order) == "With a reshuffled loader it blows up at a different step every run"
    assert order_moved_it("With a reshuffled loader it still blows up at step 2210.") == ""      # (it did not move)
    assert order_moved_it("Would it move to a different step if I shuffle?") == ""             # (a question)
    assert order_moved_it("train_loader = DataLoader(ds, batch_size=32, shuffle=True)") == ""
    log = "".join(f"step {s} loss {v}\n" for s, v in ((2000, 0.912), (2100, 0.874), (2200, 0.851), (2210, "nan")))
    d = diagnosis(log + "\n" + rates + " " + order + "\n")
    assert d.matches[0].entry.id == "WR-310"
    said = d.matches[0].evidence
    assert any(line.startswith("the report says the place it broke moved when the data's order changed") for line in said)
    assert any("broke at the same place" in line for line in said)


def test_an_unshuffled_training_loader_beside_a_saw_tooth_is_not_covered_and_a_pasted_csv_is_read_whole():
    """A report that pastes a `step,loss` CSV and, below it, epoch lines with `train_loss` (each epoch's mean): the
    CSV's rows are the steps' own loss, so the two epoch lines are summaries, not the curve. Its saw-tooth, beside a
    training DataLoader built with no shuffle=True (PyTorch's default does not shuffle) over a folder per class, is
    a data-order bug no entry covers (review s40, i07)."""
    from trainwreck.data_order import unshuffled_loader

    saw = [6.9, 0.8, 0.1, 0.03, 0.02, 0.02, 0.03, 0.02, 0.02, 0.03]
    rows = "".join(f"{500 + 4 * i},{saw[i % 10] * (1 + 0.01 * (i // 10))}\n" for i in range(40))
    report = ("Speaker ID, 8 classes, one folder each; files appended folder by folder.\n\n"
              "    loader = DataLoader(ds, batch_size=64, num_workers=2)\n\n"
              "step,loss\n" + rows + "\nepoch 2 | train_loss 0.71 | val_acc 0.125\n"
              "epoch 3 | train_loss 0.69 | val_acc 0.125\n\nThe loss saw-tooths all the time.\n")
    d = diagnosis(report)
    assert d.evidence.count == 40 and d.evidence.dialect == "a CSV file with a loss column"
    assert d.verdict == "unexplained" and not d.matches
    assert d.unweighed[0].startswith("the paste builds its training DataLoader without shuffle=True "
                                     "(`loader = DataLoader(ds, batch_size=64, num_workers=2)`)")
    assert unshuffled_loader("loader = DataLoader(ds, batch_size=64, shuffle=True)") == ""
    assert unshuffled_loader("loader = DataLoader(ds, batch_size=64, sampler=WeightedRandomSampler(w, 100))") == ""
    assert unshuffled_loader("val_loader = DataLoader(val_ds, batch_size=64)") == ""
    assert unshuffled_loader("loader = DataLoader(ds, shuffle=False)") != ""


def test_places_listed_in_a_sentence_are_no_values_and_a_value_said_again_and_again_ends_the_run():
    """"jumped again near epochs 15 and 24" names two places, not a loss of 24; the value the words say the run
    printed every epoch from then on is where it ended, though the sentence's values stop before it (review s40,
    i14)."""
    report = ("Plain full-batch SGD, lr=1.5, ReLU MLP. The loss went 0.69, 0.63, 0.58, 0.55, then jumped to 2.1 "
              "around epoch 9, came down, spiked again near epochs 17 and 26, and since roughly epoch 40 it prints "
              "0.5981 every single epoch until epoch 400.\n")
    d = diagnosis(report)
    assert d.evidence.head == [0.69, 0.63, 0.58, 0.55, 2.1]
    assert d.matches[0].entry.id == "WR-140"
    assert d.matches[0].evidence[0].startswith('the loss froze: the report says it printed 0.5981 again and again '
                                               '("0.5981 every single epoch")')


def test_a_keras_loss_told_from_logits_in_a_sentences_code_is_read():
    """The loss built in a sentence's backticks, "`keras.losses.SparseCategoricalCrossentropy(from_logits=True)`",
    is told from_logits as much as a compile() line is (review s40, i36: it had been held against WR-130)."""
    from trainwreck.loss_inputs import FROM_LOGITS

    said = "The last layer is `Dense(10, activation=\"softmax\")` and the loss `SparseCategoricalCrossentropy(from_logits=True)`."
    assert FROM_LOGITS.search(said)
    assert not FROM_LOGITS.search("the loss `SparseCategoricalCrossentropy()` and from_logits=True elsewhere")
    assert not FROM_LOGITS.search("I tried loss=SparseCategoricalCrossentropy(from_logits=True), same thing")


def test_the_first_step_said_to_break_is_the_start_and_an_epoch_the_log_numbers_past_it_is_not():
    """"First step already blows up" says when (review s40, i24: it had been "a run that trained at all is
    assumed"); "somewhere in epoch 0" beside a log still finite at batch 1187 of the epoch is no start (i30: "it showed
    from the first values" had been said)."""
    from trainwreck import diagnose as engine

    assert when("Diffusion model in Flax, the first step already blows up.") == {"start"}
    assert when("the very first batch is already nan") == {"start"} and "nan" in tokens("the very first batch is already nan")
    assert when("the first step is fine") == set()
    log = ("The loss turns nan somewhere in epoch 0.\n"
           "Epoch 0:  41%|####      | 1187/2890 [06:12<08:54,  3.19it/s, v_num=7, train_loss=0.402]\n"
           "Epoch 0:  41%|####      | 1188/2890 [06:12<08:53,  3.19it/s, v_num=7, train_loss=nan]\n")
    ev = engine._one_run(scan(io.BytesIO(log.encode()), "report", message_finder(CATALOG)))
    c = engine.context_of(ev, engine.weigher(CATALOG), engine.signature_of(ev), engine.WEIGHTS)
    assert c.said_when == {"later"}


def test_a_dash_then_another_subject_ends_a_sentences_values():
    """"6.18 at iter 2000 -- my cifar runs start around 2.3": the 2.3 is another run's (review s40, i03: "the loss fell
    from 6.912 to 2.3"); a dash between the values themselves goes on."""
    ev = diagnosis("vit-b from scratch: loss 6.91 at iter 0, 6.70 at iter 500, 6.21 at iter 2000 \u2014 our mnist runs "
                   "start near 2.3, is this one off?\n").evidence
    assert ev.head == [6.91, 6.70, 6.21]
    assert diagnosis("the loss went 0.69 \u2014 0.61 \u2014 0.55 \u2014 nan\n").evidence.head[:3] == [0.69, 0.61, 0.55]


def test_a_sentence_that_says_where_a_call_goes_is_no_loop_that_never_clears():
    """"The clip is `clip_grad_norm_(...)` right after loss.backward(), before optimizer.step()" tells where one
    call goes; it is no pasted loop, and says nothing of clearing (review s40, i06); a loop on one line,
    `loss.backward(); opt.step()`, still is."""
    from trainwreck.gradient_clearing import BACKWARD_STEP

    assert not BACKWARD_STEP.search("The clip is `clip_grad_norm_(model.parameters(), 5.0)` right after "
                                    "loss.backward(), before optimizer.step().")
    assert BACKWARD_STEP.search("my loop is just `loss.backward(); opt.step()` per batch")
    assert BACKWARD_STEP.search("    loss.backward()\n    opt.step()\n")


def test_the_same_pattern_later_instead_at_a_lower_rate_puts_the_failure_off():
    """"With lr=0.001 it's the same pattern, it just starts going crazy around step 600 instead of 80": the same
    failure, later -- a lower rate that put it off, not one that did not help (review s40, i27: it had been held
    against WR-260, whose page says a lower rate only delays it)."""
    assert lr_tried("With lr=0.001 it's the same pattern, it just starts going haywire around step 700 instead of 90.") \
        == "delayed"
    assert lr_tried("With lr 1e-4 it is exactly the same step, 713.") == "failed"
    assert lr_tried("With lr=1e-4 it reaches the same final loss at epoch 40 instead of 12, and it trains fine.") != "delayed"


def test_a_command_run_with_a_rate_of_zero_above_a_nonfinite_loss_is_a_rate_of_zero():
    """`$ python train.py --lr 0.0` above `loss inf` is the run at a rate of 0, failed: no update made it (review
    s40, i18: a sentence that ends "apparently not??" had hidden it as a question)."""
    from trainwreck.rate_tried import rate_zero_failed

    shown = "$ python train.py --layers 10 --lr 0.0 --epochs 2\nepoch 0  loss inf\nepoch 1  loss inf\n"
    assert rate_zero_failed(shown) == "--lr 0.0" and lr_tried(shown) == "failed"
    assert rate_zero_failed("$ python train.py --lr 0.0\nepoch 0  loss 0.69\n") == ""
    assert rate_zero_failed("$ python train.py --lr 0.01\nepoch 0  loss inf\n") == ""


def test_a_normal_answer_does_not_ask_to_check_the_loss_values_the_log_already_gave():
    """"To be sure, check the loss values: where the spikes are ..." beside 75 values just read asks for what was
    pasted (review s40, i13); beside too few values to judge, the check stays."""
    from trainwreck.diagnose_report import report

    values = [2.41, 2.2, 2.05, 1.93, 5.1, 1.85, 1.78, 1.7, 1.66, 1.6, 1.55, 1.5]
    question = "Why does my loss spike like this sometimes? Is that normal?\n"
    long = diagnosis(question + "".join(f"step {10 * i} loss {v}\n" for i, v in enumerate(values)))
    short = diagnosis(question + "".join(f"step {10 * i} loss {v}\n" for i, v in enumerate(values[2:7])))
    assert long.verdict == short.verdict == "normal"
    assert long.ask == "" and "To be sure" not in report(long)
    assert short.ask.startswith("the loss values") and "To be sure, check the loss values" in report(short)


def test_one_rise_of_five_times_or_more_at_the_end_is_a_jump_not_a_climb():
    """"0.69 -> 0.52 over the first steps and then at step 1187 it jumps to 2.9": one rise, x5.6, is a jump (a batch
    that broke it, or a step that overshot), not "risen 1 times in a row" -- the bad batch is a candidate beside the
    rate (review s40b, i05)."""
    d = diagnosis("Training loss goes 0.71 -> 0.50 over the first ~900 steps and then at step 951 it jumps to 3.1 and "
                  "stays around there.\n")
    assert d.evidence.head == [0.71, 0.50, 3.1]
    assert d.signature.jumped
    assert d.signature.facts[0].startswith("no non-finite value yet, but the loss jumped in one step from 0.5")
    assert {"WR-310", "WR-220"} <= {m.entry.id for m in d.matches[:2]}


def test_a_keras_sigmoid_output_told_from_logits_is_the_two_class_pairing():
    """A Keras model ending in `Dense(1, activation="sigmoid")` compiled with `BinaryCrossentropy(from_logits=True)`
    hands its probabilities over as logits, as a softmax does to a categorical cross-entropy (review s40b, i33); a
    sigmoid with a binary cross-entropy left at its default is Keras's own pairing, and a sigmoid beside a
    categorical cross-entropy is neither."""
    model = ('out = layers.Dense(1, activation="sigmoid")(x)\nmodel = keras.Model(inputs, out)\n'
             "model.compile(optimizer='adam', loss=keras.losses.BinaryCrossentropy({}))\n")
    flat = "".join(f"Epoch {e}/6 - loss: {0.60 - 0.015 * e:.4f} - accuracy: {0.80 + 0.03 * e:.4f}\n" for e in range(1, 7))
    told = weighed_parts(model.format("from_logits=True") + flat, "WR-130")
    default = weighed_parts(model.format("") + flat, "WR-130")
    assert told["pairing"] > 0 and default["pairing"] < 0
    crossed = weighed_parts(model.format("").replace("BinaryCrossentropy", "CategoricalCrossentropy") + flat, "WR-130")
    assert "pairing" not in crossed


def test_label_smoothing_asked_about_or_denied_does_not_hide_the_softmax_floor():
    """"Is label smoothing on by default somewhere? I never set it." asks, and does not add a term that lifts the loss
    off the floor: the floor is still read (review s40b, i23); label smoothing said as used still hides it."""
    from trainwreck.softmax_floor import _floor_hidden

    assert not _floor_hidden("Is label smoothing on by default somewhere? I never set it.")
    assert not _floor_hidden("criterion = nn.CrossEntropyLoss(label_smoothing=0.0)")
    assert not _floor_hidden("There is no label smoothing anywhere.")
    assert _floor_hidden("I train with label smoothing 0.1 and mixup.")


def test_a_forward_that_returns_a_softmax_module_built_under_its_own_name_outputs_probabilities():
    """`self.head = nn.Softmax(dim=1)` in __init__ and `return self.head(self.net(x))` in forward(): the model's
    output is the softmax's, handed to nn.CrossEntropyLoss (review s40b, i23); a head that is a Linear is not."""
    from trainwreck.loss_inputs import model_output

    code = ("class Net(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
            "        self.net = Backbone()\n        self.head = nn.{}\n"
            "    def forward(self, x):\n        return self.head(self.net(x))   # probabilities\n")
    assert model_output(code.format("Softmax(dim=1)")).group(0) == "return self.head(self.net(x))"
    assert model_output(code.format("Linear(512, 10)")) is None


def test_a_loops_short_ep_is_its_epoch_and_a_batch_count_that_starts_again_with_it_is_no_new_run():
    """`ep 0 it 350/391` then `ep 1 it 0/391`: the batch index starts again with the epoch, which a loop writes
    short; read as a second run it had left only the nan part and "no healthy start" (review s40b, i22)."""
    from trainwreck.logscan.positions import epoch_on

    assert epoch_on(b"ep 1 it 0/391  loss nan") == "epoch 1" and epoch_on(b"eps 1e-8, step 3") is None
    values = [2.30, 2.27, 2.34, 2.61, 3.45, 6.92, 31.8, 418.8]
    log = "".join(f"ep 0 it {50 * i:4d}/391  loss {v}\n" for i, v in enumerate(values))
    log += "".join(f"ep 1 it {50 * i:4d}/391  loss nan\n" for i in range(3))
    d = diagnosis(log)
    assert d.evidence.count == 11 and d.matches[0].entry.id == "WR-220"
    assert "first nan at epoch 1, it 0/391" in d.matches[0].evidence[0]


def test_a_loops_short_ep_counts_the_lines_of_a_train_and_a_val_value():
    """`print(f"ep {epoch:2d} train {tot/len(train_ds):.4f} val {...:.4f}")` beside a CrossEntropyLoss: the count's
    word written short is still the format's (review s40b, i30: "no loss values"); `train 50000 val 10000` counts
    samples."""
    log = "criterion = nn.CrossEntropyLoss()\n" + "".join(f"ep {e:2d} train {t} val {v}\n" for e, (t, v) in
                  enumerate([("0.5873", "0.4412"), ("0.3120", "0.2986"), ("0.2411", "0.2620"), ("0.3957", "0.5531")]))
    assert diagnosis(log).evidence.head == [0.5873, 0.3120, 0.2411, 0.3957]
    assert diagnosis("train 50000 val 10000\ntrain 50000 val 10000\n").evidence.count == 0


def test_a_rate_the_log_prints_unchanged_from_step_0_beside_adam_is_no_warmup_for_a_first_steps_jump():
    """`step 0 | loss 10.99 | lr 6.00e-04` ... the same rate at every step from the first, and AdamW: no warmup, shown by
    the log itself (words of another run's `warmup_ratio=0.03` do not undo it), so a jump to 1.6x the first loss in
    the first steps is WR-250's face (review s40b, i10); a rate that rises from step 0 is a warmup."""
    losses = [10.99, 10.30, 12.66, 15.94, 17.44, 16.22, 14.06, 12.40, 11.04, 10.11, 9.65, 9.30, 9.11, 8.99, 8.91]
    def log(rates):
        return ("AdamW(lr=6e-4). The Trainer run had warmup_ratio=0.03.\n"
                + "".join(f"[train] step {s:5d} | loss {v} | lr {r:.2e}\n" for s, (v, r) in enumerate(zip(losses, rates))))
    d = diagnosis(log([6e-4] * len(losses)))
    assert d.matches[0].entry.id == "WR-250"
    assert "in a run whose log prints the same learning rate, 0.0006, from its first step (no warmup)" \
        in d.matches[0].evidence[0]
    warmed = diagnosis(log([6e-4 * min(1.0, (s + 1) / 20) for s in range(len(losses))]))
    assert warmed.signature.name != "spike-then-recover"


def test_a_loss_enormous_before_any_update_said_in_words_with_an_unscaled_torch_init_is_the_initialisation():
    """Two lines of words (review_session41 i16): PyTorch's `nn.init.normal_(w, 0.0, 1.0)` (tensor, mean, std: a
    standard deviation of 1), "the very first printed loss is 193847216504832.0000", "even with lr=0 it prints 1.9e14
    on every step", "before a single update": the initial scale, from the start, at a rate of 0 -- WR-120 first, not a
    rate "on timing alone", and the check that decides is read before any update, not anomaly mode's backward op."""
    text = ("12-layer relu mlp (width 512) on cifar, I init with nn.init.normal_(w, 0.0, 1.0) and zero biases. very "
            "first printed loss is 193847216504832.0000 and it's nan on the next step\neven with lr=0 it prints 1.9e14 "
            "on every step, so it can't be the optimizer?? how is the loss that big before a single update")
    d = diagnosis(text)
    assert d.matches[0].entry.id == "WR-120"
    evidence = " ".join(d.matches[0].evidence)
    assert "`normal_(w, 0.0, 1.0)`" in evidence and '("even with lr=0")' in evidence
    assert "it showed from the first values" in evidence
    assert d.ask.startswith("the result of this check for WR-120: Before training, print each layer's RMS")
    # (a bias drawn at std 1, a small std given by position, or a rate of 0 planned, is none of these)
    assert not LARGE_INIT.search("nn.init.normal_(self.fc.bias, 0.0, 1.0)")
    assert not LARGE_INIT.search("nn.init.normal_(w, 0.0, 0.02)")
    assert not LARGE_INIT.search("nn.init.normal_(self.embed.weight, 0.0, 1.0)")     # (nn.Embedding's own default)
    assert "start" in when("the very first printed loss is 1.9e+06 and then nan")
    assert rate_zero_failed("should I try it even with lr=0 to see?") == ""


def test_a_loss_at_the_softmax_twice_floor_is_a_failure_beside_a_question_of_a_gap():
    """(review_session41 i05) "My loss refuses to go below ~1.47 even though accuracy is 99%. A colleague ... gets
    val_loss 0.03", a model with dropout, "I'm using the loss for early stopping": the words ask of a gap, but the log's
    own numbers sit at the floor of a softmax taken twice, beside the Keras model that pairs a softmax with
    from_logits=True -- a failure the arithmetic shows, named, not "this looks normal (a gap between training and
    validation loss)"."""
    code = ('model = keras.Sequential([keras.layers.Flatten(), keras.layers.Dropout(0.3), '
            'keras.layers.Dense(10, activation="softmax")])\n'
            "model.compile(optimizer=keras.optimizers.Adam(1e-3), "
            "loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True), metrics=['accuracy'])\n")
    rows = [(1, "0.8127", "1.6790", "0.9683", "1.5043"), (2, "0.9619", "1.5031", "0.9787", "1.4888"),
            (3, "0.9731", "1.4915", "0.9830", "1.4832"), (4, "0.9788", "1.4860", "0.9852", "1.4805"),
            (5, "0.9820", "1.4826", "0.9868", "1.4789"), (8, "0.9867", "1.4777", "0.9887", "1.4764"),
            (12, "0.9894", "1.4748", "0.9897", "1.4752"), (15, "0.9908", "1.4734", "0.9902", "1.4747")]
    log = "".join(f"Epoch {e}/15\n422/422 ━━━━━━━━━━━━━━━━━━━━ 2s 5ms/step - accuracy: {a} - loss: {t} - "
                  f"val_accuracy: {va} - val_loss: {v}\n" for e, a, t, va, v in rows)
    said = ("MNIST with a tiny convnet, Keras 3. My loss refuses to go below ~1.47 even though accuracy is 99%. A "
            "colleague with basically the same notebook gets val_loss 0.03. Only difference I know of is that I switched "
            "my env to the JAX backend last week because TF kept fighting with my CUDA install.\n")
    after = ("\nThe accuracy is fine so maybe I shouldn't care, but I'm using the loss for early stopping and model "
             "comparison so it matters.\n")
    d = diagnosis(said + code + log + after)
    assert d.verdict == "failure" and d.matches[0].entry.id == "WR-130"
    assert any("never below log(1 + (C - 1)/e) = 1.4612" in e for e in d.matches[0].evidence)


def test_a_jump_in_nats_above_a_uniform_start_is_a_warmupless_spike_though_under_one_and_a_half_times():
    """(review_session41 i10) A fresh GPT on a 32k vocabulary starts at 10.41 (ln 32000 = 10.37, a uniform guess) and,
    at a constant AdamW rate with no scheduler, jumps to 13.90 at step 5 before it falls and stalls at 7.39: 1.34
    times the start, under NO_WARMUP_JUMP, but 3.5 nats above a uniform guess -- WR-250's face, named, where it had
    been healthy. A start that is no ln C of the paste's, or a run that sets a warmup, keeps the 1.5 times."""
    head = ("training a small GPT from scratch (own BPE, 32k vocab), my own loop, AdamW, constant lr, bf16 autocast. "
            "Mine gets stuck around 7.4 and stays there.\nopt: AdamW(lr=1e-3), no scheduler\n")
    values = [10.4127, 10.3288, 10.6912, 11.9420, 13.1175, 13.9032, 13.2210, 12.0391, 11.2148, 10.5873, 10.0914,
              8.9177, 8.2046, 7.8812, 7.6143, 7.5201, 7.4420, 7.3981, 7.3925, 7.3907]
    steps = list(range(11)) + [20, 30, 50, 100, 200, 500, 1000, 1500, 2000]
    log = "".join(f"step {s:5d} | loss {v:.4f}\n" for s, v in zip(steps, values))
    d = diagnosis(head + log)
    assert d.verdict == "failure" and d.matches[0].entry.id == "WR-250"
    assert ("the loss jumped from 10.41 at step 0 to 13.9 at step 5 (x1.3), 3.5 nats above a start at ln 32000 = 10.37, "
            "a uniform guess, in a run the report says kept one rate from its start (no warmup)") in d.matches[0].evidence[0]
    # (with no ln C to measure it by, the jump is no spike: nothing is named with confidence, and no evidence says the
    # loss jumped -- though the words that it is stuck, beside a loss that stopped moving, leave the setting a suspect)
    own = diagnosis(head.replace("32k vocab", "own vocab") + log)
    assert own.verdict == "uncertain" and not any("the loss jumped from" in e for m in own.matches for e in m.evidence)
    assert diagnosis(head.replace("no scheduler", "linear warmup over 2000 steps") + log).verdict == "healthy"


def test_an_accuracy_below_what_the_cross_entropy_beside_it_allows_is_a_broken_metric():
    """(review_session41 i21) A mean cross-entropy L leaves at most L / ln 2 of the examples wrong: one the model gets
    wrong has another class above the true one, whose probability is then at most 1/2 and costs at least ln 2. A
    validation loss of 0.4102 beside a validation accuracy of 0.0067 cannot both be: the accuracy is computed wrong
    (here a batch's mean summed and divided by the examples' count), and the report says so."""
    code = ("correct += (pred == y).float().mean().item()\ntotal += y.size(0)\n"
            "loss_sum += F.cross_entropy(out, y, reduction='sum').item()\n")
    log = "".join(f"epoch {e} val_loss {v} val_acc {a}\n" for e, v, a in
                  [(1, "1.5204", "0.0035"), (5, "0.7361", "0.0058"), (10, "0.4937", "0.0066"), (15, "0.4102", "0.0067")])
    from trainwreck.validation_curve import accuracy_impossible
    said = accuracy_impossible(code + log)
    assert said.startswith("the accuracy printed beside the validation loss cannot be: a mean cross-entropy of 0.4102 "
                           "leaves at least 41% of the examples right")
    assert "`epoch 15 val_loss 0.4102 val_acc 0.0067`" in said
    assert "But " + said in report(diagnosis(code + log))
    # the bound is ln 2 per example wrong: an accuracy above 1 - L / ln 2, a loss not shown to be a cross-entropy, or an
    # accuracy printed in percent that meets it, is none
    assert accuracy_impossible(code + log.replace("val_acc 0.0067", "val_acc 0.45").replace("val_acc 0.0066", "val_acc 0.3")) == ""
    assert accuracy_impossible(log) == ""
    assert accuracy_impossible(code + "epoch 15 val_loss 0.4102 val_acc 88.1\n") == ""
    assert accuracy_impossible(code + "epoch 15 val_loss 0.4102 val_acc 0.88\n") == ""
    assert accuracy_impossible("mixup alpha 0.2\n" + code + log) == ""     # (soft targets: no such bound)


def test_a_fine_tuned_language_model_whose_first_loss_is_a_uniform_guess_is_not_covered_with_its_mechanism():
    """(review_session41 i29) Mistral-7B fine-tuned with LoRA through a Llama-2 tokenizer ("same 32k vocab"): the first
    loss, 10.87, is above ln 32000 = 10.37, a uniform guess -- the pretrained weights see tokens they never learned. No
    entry covers it; the report says so with the mechanism, instead of "no known failure". A run from scratch starts
    there by design, and a fine-tune that starts low is no such case."""
    said = ("Fine-tuning Mistral-7B with LoRA on ~30k of our support chats (SFT, HF Trainer + peft). I expected the loss "
            "to start around 1.5-2, but it starts at almost 11.\n"
            'tokenizer = AutoTokenizer.from_pretrained("meta-llama/Llama-2-7b-hf")   # same 32k vocab\n')
    log = "".join(f"{{'loss': {v}, 'grad_norm': 2.0, 'learning_rate': 0.0002, 'epoch': {e}}}\n" for v, e in
                  [(10.8731, 0.01), (9.9416, 0.03), (8.7702, 0.05), (7.9925, 0.08), (7.4081, 0.1), (5.612, 0.98)])
    d = diagnosis(said + log)
    assert d.verdict == "unexplained" and not d.matches
    assert any(u.startswith("the run fine-tunes a pretrained model (`Fine-tuning`), and its first loss, 10.87 (epoch "
                            "0.01), is ln 32000 = 10.37 or more") for u in d.unweighed)
    scratch = said.replace("Fine-tuning Mistral-7B with LoRA", "Training a GPT from scratch")
    assert not any("fine-tunes a pretrained model" in u for u in diagnosis(scratch + log).unweighed)
    low = log.replace("10.8731", "1.8731")
    assert not any("fine-tunes a pretrained model" in u for u in diagnosis(said + low).unweighed)


def test_the_scheduler_warning_of_a_scaler_skipping_its_first_steps_beside_a_falling_loss_is_normal():
    """(review_session41b i27) GradScaler starts at 65536 and skips its first steps while it calibrates; a scheduler
    stepped after such a step warns "Detected call of `lr_scheduler.step()` before `optimizer.step()`". Beside a loss
    that falls and a scale that halved once at the start and grew since, that is the normal answer, not WR-040 named
    from the warning alone; beside a loss that turned nan it is no normal answer."""
    warning = ("/venv/lib/python3.11/site-packages/torch/optim/lr_scheduler.py:224: UserWarning: Detected call of "
               "`lr_scheduler.step()` before `optimizer.step()`. In PyTorch 1.1.0 and later, you should call them in the "
               "opposite order: `optimizer.step()` before `lr_scheduler.step()`.\n  warnings.warn(\n")
    said = "Training GPT-2 small from scratch with torch.autocast(dtype=torch.float16) + GradScaler. Right at the start:\n"
    rows = [(0, "10.9863", "32768.0"), (1, "10.9841", "16384.0"), (2, "10.9712", "16384.0"), (3, "10.9530", "16384.0"),
            (10, "10.6120", "16384.0"), (100, "7.9034", "16384.0"), (500, "6.1822", "16384.0"),
            (1000, "5.4417", "16384.0"), (2002, "4.9873", "32768.0"), (4002, "4.5120", "65536.0"),
            (6000, "4.3804", "32768.0")]
    log = "".join(f"step {s:5d}  loss {v}  scale {c}\n" for s, v, c in rows)
    ask = "\nWhy did the scale drop twice at the very start, and is the warning something I need to fix?\n"
    d = diagnosis(said + warning + log + ask)
    assert d.verdict == "normal" and d.normal[0].name == "skipped steps under dynamic loss scaling"
    assert "skips its first steps while it calibrates" in d.normal[0].explanation
    broke = log.replace("loss 4.3804", "loss nan")
    assert diagnosis(said + warning + broke + ask).verdict != "normal"


def test_one_last_rise_in_a_run_of_small_batches_is_their_noise_not_a_climb_or_a_jump():
    """(review_session41b i02) batch_size=8: the per-step losses swing 0.09 to 2.4, and a tqdm bar's `loss=` at each
    epoch's end is its last batch's: 0.0421 then 1.02 is x24 in one step, no higher than the loss has been -- a batch of 8
    does that, and the run is healthy, not "a jump" of a rate or a bad batch. With a large batch the jump is still read
    (0.0421 to 1.02 at a batch of 256), and with any batch where it ends above every earlier value."""
    steps = [2.2871, 1.9412, 2.4109, 1.1020, 1.8837, 0.6024, 1.7350, 0.9931, 0.3148, 1.4412, 0.4407, 0.0912, 0.8870,
             0.2315]
    log = ("is this normal?? loss is all over the place. batch_size=8, resnet18 finetune on 10 classes\n"
           + "".join(f"step {10 * (k + 1)} loss {v}\n" for k, v in enumerate(steps))
           + "".join(f"Epoch {e}: 100%|██████████| 1563/1563 [02:41<00:00,  9.68it/s, loss={v}]\n"
                     for e, v in ((1, "0.887"), (2, "0.0421"), (3, "1.02"))))
    assert diagnosis(log).verdict == "healthy"
    assert diagnosis(log.replace("loss=1.02]", "loss=1.3]")).verdict == "healthy"
    assert diagnosis(log.replace("batch_size=8", "batch_size=256")).verdict != "healthy"
    assert diagnosis(log.replace("batch_size=8", "batch_size=256").replace("loss=1.02]", "loss=1.3]")).verdict != "healthy"
    assert diagnosis(log.replace("loss=1.02]", "loss=3.02]")).verdict != "healthy"


def test_a_frozen_loss_at_the_entropy_of_the_one_output_given_for_every_row_is_a_dead_network():
    """(review_session41b i14) Full-batch SGD at lr 2: spikes, then 0.5911, 0.5841, 0.5833 and 0.5833 to epoch 400 --
    ever smaller steps, as a converging run reaches its floor, which alone is no stall. But the words give one output
    for every row, 0.2700, and -q ln q - (1 - q) ln(1 - q) = 0.5833 for q = 0.27: the loss of a constant prediction, a
    model that no longer sees its input -- WR-140, not WR-250's spike that recovered. Another output, or none, is the
    old reading."""
    values = ["0.6958", "0.6411", "0.5720", "0.4983", "1.7421", "0.8136", "0.6102", "2.3090", "0.6679", "0.5911",
              "0.5841", "0.5833", "0.5833", "0.5833"]
    log = "".join(f"epoch {e:3d}  loss {v}\n" for e, v in enumerate(values)) + "...\nepoch 400  loss 0.5833\n"
    said = "\nNo nan anywhere. torch.sigmoid(model(X)) is 0.2700 for every single row (27% of my labels are 1).\n"
    d = diagnosis("MLP 30 -> 64 -> 64 -> 1 with ReLU, BCEWithLogitsLoss, plain SGD lr=2.0, full batch.\n" + log + said)
    assert d.matches[0].entry.id == "WR-140"
    assert "-q ln q - (1 - q) ln(1 - q) = 0.5833 for q = 0.2700" in d.matches[0].evidence[0]
    from trainwreck.curve_shape import _constant_output
    other = said.replace("0.2700", "0.4000").replace("27%", "40%")     # (the share the words give counts too)
    assert _constant_output(said, 0.5833) and not _constant_output(other, 0.5833)
    assert diagnosis(log + other).matches[0].entry.id != "WR-140"


def test_a_lightning_metrics_csv_of_epoch_means_is_read_with_its_accuracy_and_a_class_count_in_japanese():
    """(review_session41b i26) Lightning's metrics.csv names the epoch's mean `train_loss_epoch` and its accuracy
    `train_acc_epoch`, on rows of their own beside the validation rows; "100クラス" is a class count. The loss ends at
    3.6415 beside an accuracy of 0.9877, above log(1 + 99/e) = 3.6222, the softmax-twice floor for 100 classes: WR-130
    comes first (it had been "no loss values"). The accuracy the floor is read at is where the loss ended, the median of
    the last three printed: a short log's tail reaches back to its first epochs."""
    rows = [(0, 390, "0.0921", "4.5127"), (1, 781, "0.2411", "4.3011"), (4, 1954, "0.5632", "3.9841"),
            (9, 3909, "0.8019", "3.7545"), (19, 7819, "0.9560", "3.6590"), (29, 11729, "0.9877", "3.6415")]
    csv = "epoch,step,train_acc_epoch,train_loss_epoch,val_acc,val_loss\n" + "".join(
        f"{e},{s},,,0.5,3.9\n{e},{s},{a},{v},,\n" for e, s, a, v in rows)
    said = "PyTorch Lightningで100クラスの画像分類をしています。損失が3.6あたりから全然下がりません。\n\n"
    d = diagnosis(said + csv)
    assert d.evidence.head == [4.5127, 4.3011, 3.9841, 3.7545, 3.659, 3.6415]
    assert d.matches[0].entry.id == "WR-130"
    assert "never below log(1 + (C - 1)/e) = 3.6222 for C = 100 classes (the paste says `100クラス`)" \
        in d.matches[0].evidence[0]


def test_review_session41_code_review_mends():
    """(code_review_s41) Each reading this session added, held to what its mechanism needs: a fine-tune's uniform start
    needs a model's checkpoint, not a tokenizer's, and a first loss near ln V, not far above; two arrays shuffled apart
    are an input's and a label's; the ln 2 bound needs a single-label, unweighted cross-entropy; the vocabulary's pattern
    starts no match inside a number; a small batch's last rise is noise only up to the loss of the run's second
    half; "instead of" in another language is a later place only beside two numbers that say so; the skipped-steps
    answer needs a scaler or half precision shown; an exception's repr a log prints is the message."""
    from trainwreck.class_count import VOCAB
    from trainwreck.data_order import shuffled_apart
    from trainwreck.start_loss import pretrained_at_uniform
    from trainwreck.validation_curve import accuracy_impossible
    from trainwreck.rate_tried import lr_tried
    from trainwreck.normals import normals_asked

    def ev(text):
        return diagnosis(text).evidence

    log = "".join(f"{{'loss': {v}, 'epoch': {e}}}\n" for v, e in [(10.87, 0.01), (9.94, 0.03), (8.77, 0.05)])
    gpt = "Training GPT-2 (32k vocab). tokenizer = AutoTokenizer.from_pretrained('gpt2')\n"
    assert pretrained_at_uniform(ev(gpt + log)) is None
    tuned = "model = AutoModelForCausalLM.from_pretrained('mistral') with a 32k vocab\n"
    assert pretrained_at_uniform(ev(tuned + log)) is not None
    assert pretrained_at_uniform(ev(tuned + log.replace("10.87", "48000.0"))) is None
    assert shuffled_apart("train_files = shuffle(train_files)\nval_files = shuffle(val_files)\n") == ""
    assert shuffled_apart("x_train, y_train = shuffle(imgs), shuffle(labels)\n")
    val = "epoch 15 val_loss 0.4102 val_acc 0.0067\n"
    assert accuracy_impossible("loss = F.cross_entropy(out, y)\n" + val)
    for other in ("nn.BCEWithLogitsLoss() on 20 labels, exact match accuracy\n",
                  "F.cross_entropy(out, y, weight=class_weights)\n", "focal loss over cross_entropy\n"):
        assert accuracy_impossible(other + val) == "", other
    # (a vocabulary's size starts where no digit or comma is before it: tried at each group of "101,000,000,..." it was
    # quadratic, 6.4 s on 32 kB -- bench/diagnose_words_linear.py times that text; here, the start it may not take)
    assert VOCAB.search("a 32,000-token vocab").group(1) == "32,000"
    assert VOCAB.search("ids ,000,000 vocab") is None and VOCAB.search("x1,000 vocab") is None
    collapse = "batch_size=16\n" + "".join(f"step {s} loss {v}\n" for s, v in
                                            [(0, 2.30), (10, 1.10), (20, 0.30), (30, 0.041), (40, 2.25)])
    assert diagnosis(collapse).verdict != "healthy"
    assert lr_tried("Уменьшил lr до 1e-4 — то же самое, на том же шаге 713 вместо обычного") == "failed"
    assert lr_tried("降低学习率后只是推迟了，还是nan") == "delayed"
    warning = "UserWarning: Detected call of `lr_scheduler.step()` before `optimizer.step()`.\n"
    assert not any(n.name.startswith("skipped steps") for n in normals_asked("plain float32 training\n" + warning))
    assert any(n.name.startswith("skipped steps") for n in normals_asked("fp16 with GradScaler\n" + warning))
    repr_line = ("worker 3 failed: ValueError('Expected more than 1 value per channel when training, got input size "
                 "torch.Size([1, 8])')\n")
    assert list(ev(repr_line).messages) == ["Expected more than 1 value per channel when training, got input size {}"]


def test_a_rate_halved_is_a_lower_rate_tried():
    """(review_session41b i31) "Halving the lr: still step 413 with seed 3" is a lower rate that broke at the same
    place; "halving the lr fixed it" one that helped; a batch size halved is no rate."""
    assert lr_tried("Halving the lr: still step 413 with seed 3, just a smaller aftermath.") == "failed"
    from trainwreck.rate_tried import lr_tried_same_place
    assert lr_tried_same_place("Halving the lr: still step 413 with seed 3, just a smaller aftermath.")
    assert lr_tried("Halving the lr fixed it.") == "helped"
    assert lr_tried("I halved the batch size and it trains.") == ""


def test_a_loss_said_to_stop_beside_a_validation_score_in_the_same_sentence_still_says_it_does_not_learn():
    """(review_session40b i08, read again) "The loss goes down for the first ~100 steps and then completely stops moving
    at ~1.92, val acc stuck at 32%": the clause that says the loss stopped is the run's, the validation score's is
    another; the whole sentence had been passed over for its "val acc", and three epoch means called healthy."""
    from trainwreck.run_said import says_not_learning
    said = "The loss goes down for the first ~100 steps and then completely stops moving at ~1.92, val acc stuck at 32%."
    assert says_not_learning(said)
    assert not says_not_learning("My training is fine, but val accuracy is stuck at 50%.")
    csv = "epoch,step,train_loss_epoch,val_loss\n0,390,1.9468,1.9012\n1,781,1.9203,1.9010\n2,1172,1.9199,1.9011\n"
    assert diagnosis(said + "\n\n" + csv).verdict == "no-evidence"


def test_a_two_class_mean_iou_at_half_is_labels_that_lost_their_foreground():
    """A mean IoU over two classes that stays at 0.5 is every pixel called one class against labels that hold none of
    the other (a model calling all background scores (1 - f)/2 against a foreground share f): WR-320's fourth face, a
    0/1 mask divided by 255 like the images, whose fix is the Fix section's item for that face (the range check it
    would otherwise open with passes on such labels). Said in words; not an IoU threshold, nor a Keras MeanIoU printed
    at 0.5."""
    from trainwreck.one_class_iou import one_class_iou
    from trainwreck.fix_steps import fix_item
    from trainwreck.diagnose import FACT_FIX

    said = ("mIoU stuck at 0.50 on my binary segmentation\n\nU-Net, masks are PNGs with 0 and 1, BCE loss. The loss "
            "goes down fine but the mean IoU is always 0.5, from the first epoch on, and the predicted masks are "
            "completely black.\n")
    d = diagnosis(said)
    labels = d.matches[0]
    assert labels.entry.id == "WR-320" and labels.parts["one-class-iou"] > 0
    assert labels.fix.startswith("Masks scaled like the images: scale the images, never the masks.")
    assert fix_item(real_catalog().entries["WR-320"], FACT_FIX["one-class-iou"]) == labels.fix
    # (a Keras `mean_io_u` printed at 0.5 is no such fact: MeanIoU reports 1.0 for labels with no foreground, and
    # stuck near 0.5 it is more often the metric given probabilities, cast to class 0 -- factcheck_s42 item 4)
    printed = "".join(f"Epoch {e}/20\n120/120 [==============================] - 14s 117ms/step - loss: {v} - "
                      f"mean_io_u: 0.5000 - val_loss: {v} - val_mean_io_u: 0.5000\n"
                      for e, v in enumerate(["0.3120", "0.1022", "0.0571", "0.0402", "0.0333"], 1))
    assert one_class_iou(printed) == ""
    for setting in ("Average Precision (AP) @[ IoU=0.50 | area= all ] = 0.501, always",
                    "iou_thres 0.5 is always used for NMS", "the IoU is always 0.55",
                    "epoch 1 miou=0.5\nepoch 2 miou=0.61\nepoch 3 miou=0.5"):
        assert one_class_iou(setting) == "", setting


def test_a_clip_after_the_step_beside_a_curve_that_is_no_climb_is_still_the_unclipped_run():
    """(s42 i33) A clip after `optimizer.step()` was read only beside a climb (a climb despite clipping); beside a jump
    that recovered it was WR-250 named with confidence. Whatever broke the run, the clip never touched it: WR-240's
    third form, its curve whatever the unclipped run shows, and the same fix as beside a climb. A scheduler's step, or
    a loop that clips before its step, is no late clip."""
    from trainwreck.clip_unused import late_clip

    late = ("for epoch in range(300):\n    logits = model(X)\n    loss = criterion(logits, y)\n    loss.backward()\n"
            "    optimizer.step()\n    norm = torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm=1.0)\n"
            "    optimizer.zero_grad()\n")
    assert late_clip(late) and late_clip(late.replace("optimizer.step()", "scheduler.step()")) is None
    assert late_clip(late.replace("    loss.backward()\n", "    loss.backward()\n    clip_grad_value_(ps, 1)\n"
                                  ).replace("    norm = torch.nn.utils.clip_grad_norm_(model.parameters(), "
                                            "max_norm=1.0)\n", "")) is None
    losses = ["0.6929", "0.9983", "1.8122", "4.7710", "15.3020", "39.8710", "51.6600", "12.1140", "6.0371", "160.44",
              "301.57", "88.1", "20.3", "4.2", "0.9", "0.41", "0.2311"]
    text = ("Added clipping at 1.0 and the losses are identical to the run without it.\n\n" + late + "\n"
            + "".join(f"epoch {i} loss {v}\n" for i, v in enumerate(losses)))
    d = diagnosis(text)
    assert d.signature.name == "spike-then-recover"
    clip = d.matches[0]
    assert clip.entry.id == "WR-240" and clip.parts["clip-after-step"] > 0
    assert any(e.startswith("gradient clipping never shortened an update: the pasted loop clips after the optimizer's "
                            "step() (`clip_grad_norm_...`)") for e in clip.evidence)
    assert clip.fix == late_clip(late)[1] and clip.fix.startswith("Move the `clip_grad_norm_()` call between backward()")


def test_a_loop_line_ending_in_a_comment_still_clears_outside_it():
    """(s42 i34) `optimizer.zero_grad()` once before `for i, (x, y) in enumerate(train_loader):        # 938 batches`:
    the comment after the loop's colon had hidden the loop, and a climb to inf was WR-220 named with confidence."""
    from trainwreck.gradient_clearing import cleared_outside

    code = ("for epoch in range(20):\n    model.train()\n    optimizer.zero_grad()\n"
            "    for i, (x, y) in enumerate(train_loader):        # batch 64, 938 batches\n"
            "        loss = criterion(model(x), y)\n        loss.backward()\n        optimizer.step()\n")
    assert cleared_outside(code) == "for i, (x, y) in enumerate(train_loader):"
    assert cleared_outside(code.replace("        optimizer.step()\n",
                                        "        optimizer.step()\n        optimizer.zero_grad()\n")) == ""


def test_the_loss_the_code_builds_decides_its_kind_over_a_loss_named_in_the_words():
    """(s42 i27) A GaussianNLLLoss run whose report quotes someone's rule that a negative cross-entropy means bad labels:
    the loss the code builds is a likelihood, which goes below zero when the predicted variance is small -- normal, not
    WR-320's impossible negative."""
    from trainwreck.run_said import loss_kind

    assert loss_kind("crit = nn.GaussianNLLLoss()\nsomeone said a negative cross entropy means the labels are bad") \
        == "likelihood"
    assert loss_kind("criterion = nn.CrossEntropyLoss()  # my old flow model had a negative likelihood") == "bounded"
    assert loss_kind('model.compile(loss="binary_crossentropy")') == "bounded"
    assert loss_kind("a negative cross entropy means bad labels, and my gaussian likelihood is negative") == ""
    text = ("Is a negative loss a bug? nn.GaussianNLLLoss, standardized targets. Someone said a cross entropy below zero "
            "means the labels are wrong, like a 0/255 mask.\n\ncrit = nn.GaussianNLLLoss()\nloss = crit(mu, y, var)\n\n"
            + "".join(f"epoch {e} train_nll {v}\n" for e, v in ((1, "0.8712"), (10, "-0.6394"), (30, "-1.2081"),
                                                              (60, "-1.3718"), (100, "-1.4155"))))
    d = diagnosis(text)
    assert d.verdict in ("normal", "healthy") and [n.name for n in d.normal][:1] == ["negative loss"]
    assert "WR-320" not in [m.entry.id for m in d.matches]


def test_a_list_under_what_i_tried_is_tried_and_a_place_it_still_broke_at_is_the_logs():
    """(s42 i06, i34) Items under "What I tried:" are things tried though they do not say so: "- lr 0.05 -> still jumps
    at step 1830", where the report's log jumps at step 1830 too, is a lower rate that broke at the same place; "- lr
    0.001: same shape ... explodes around batch 800 instead", beside a log that stops at batch 550, put it off (not "the
    same": no help). A value at a place ("loss at batch 150 is 0.55") is no place it broke."""
    from trainwreck.rate_tried import lr_tried_same_place

    log = "step,loss\n0,0.69\n1820,0.50\n1830,1.34\n2000,1.30\n"
    same = "it jumps at step 1830 and never recovers.\n\nWhat I tried:\n- lr 0.05 -> still jumps at step 1830\n- seed 1\n"
    assert lr_tried(same) == "failed" and lr_tried_same_place(log + same)
    assert lr_tried("- lr 0.05 -> still jumps at step 1830\n") == ""          # (no header: not said to be tried)
    later = ("epoch 0 batch 500 loss inf\nepoch 0 batch 550 loss nan\n\nWhat I tried:\n"
             "- lr 0.001: same shape, loss at batch 150 is 0.55 and it explodes around batch 800 instead\n")
    assert lr_tried(later) == "delayed" and not lr_tried_same_place(later)
    earlier = later.replace("batch 800 instead", "batch 90 instead")
    assert lr_tried(earlier) == "failed"


def test_a_loss_that_jumped_above_its_start_and_stayed_there_is_no_healthy_run():
    """(s42 i06) A loss that fell (0.6931 to 0.5019), then in one step more than doubled to above its first value and
    stayed above it to the end, never coming back, was "no known failure" (it ended at 1.8x its first value, under the
    2x of climbed-and-stayed): a healthy run does not go back above its untrained loss for good. A bad batch's face (one
    value in the wrong units) as much as a rate's. Not one rise that came back below the start, nor a rise under 2x."""
    rows = [(0, "0.6931"), (500, "0.5412"), (1000, "0.5127"), (1500, "0.5036"), (1820, "0.5019"), (1830, "1.3377"),
            (2000, "1.2958"), (2500, "1.2613"), (3000, "1.2880"), (5000, "1.2519")]
    text = "step,train_loss_smoothed,val_loss\n" + "".join(f"{s},{v},\n" for s, v in rows)
    d = diagnosis(text)
    assert d.evidence.count == len(rows) and d.signature.name == "climbed-and-stayed" and d.signature.jumped
    assert ("then jumped in one step from 0.5019 (step 1820) to 1.338 (step 1830), x2.67, and stayed at 1.5x where it "
            "started or more to the end (1.252, step 5000)") in d.signature.facts[0]
    assert "WR-310" in [m.entry.id for m in d.matches[:2]]
    back = text.replace("5000,1.2519", "5000,0.6012")
    assert diagnosis(back).signature.name != "climbed-and-stayed"
    mild = text.replace("1830,1.3377", "1830,0.9377").replace("2000,1.2958", "2000,0.9").replace(
        "2500,1.2613", "2500,0.9").replace("3000,1.2880", "3000,0.9").replace("5000,1.2519", "5000,0.9")
    assert diagnosis(mild).signature.name != "climbed-and-stayed"


def test_a_bound_the_words_give_for_what_an_unshifted_exp_takes_is_its_overflow():
    """(s42 i21) A hand-written InfoNCE, `torch.exp(sim)` of similarities divided by a temperature of 0.01, and words
    that bound them: "dividing by 0.01 just makes them at most 100". exp(100) is past float32's largest (exp overflows
    above 88.72), so inf / inf is nan: the overflow is shown, not only suspected; a rate of 0 that failed too had put
    the from-the-start entries first. Not a bound said of the loss, nor one under the limit."""
    code = ("def info_nce(z1, z2, tau=0.01):\n    z1 = F.normalize(z1, dim=1)\n    z2 = F.normalize(z2, dim=1)\n"
            "    sim = z1 @ z2.T / tau\n    num = torch.exp(torch.diagonal(sim))\n    den = torch.exp(sim).sum(dim=1)\n"
            "    return -torch.log(num / den).mean()\n")
    words = ("The loss is nan from the very first step since I set tau to 0.01; lr 0 -> still nan at step 0. The "
             "similarities are bounded, dividing by 0.01 just makes them at most 100.\n")
    d = diagnosis(words + code + "step 0 loss nan\nstep 1 loss nan\nstep 2 loss nan\n")
    overflow = d.matches[0]
    assert overflow.entry.id == "WR-020" and overflow.parts["exp-overflow"] > 0
    assert any("exp(100) is past the largest float32 (exp overflows above 88.72)" in e for e in overflow.evidence)
    for other in ("makes them at most 50", "makes the loss at most 100"):
        d = diagnosis(words.replace("makes them at most 100", other) + code + "step 0 loss nan\nstep 1 loss nan\n")
        assert not any(m.parts.get("exp-overflow") for m in d.matches), other


def test_an_exp_of_unit_vectors_products_over_a_temperature_the_code_sets_is_its_overflow():
    """A hand-written InfoNCE whose code normalises both towers and takes `torch.exp(img @ txt.t() / tau)` with
    `tau=0.01`: a cosine is at most 1, so exp takes up to 100, past float32's 88.72 once a pair's cosine passes 0.887.
    Not with a temperature of 0.07 (1/0.07 = 14.3), nor without the normalisation, nor with the row's max taken off."""
    from trainwreck.exp_limits import EXP_LIMITS

    assert EXP_LIMITS["float32"] * 0.01 == pytest.approx(0.8872, abs=1e-4)
    code = ("def info_nce(img, txt, tau=0.01):\n    img = F.normalize(img, dim=-1)\n    txt = F.normalize(txt, dim=-1)\n"
            "    sim = torch.exp(img @ txt.t() / tau)\n    pos = sim.diag()\n"
            "    return -torch.log(pos / sim.sum(dim=1)).mean()\n")
    log = "".join(f"step {100 * i} loss {v}\n" for i, v in enumerate(("4.91", "4.22", "3.51", "2.97", "nan", "nan")))
    d = diagnosis(code + log)
    assert d.matches[0].entry.id == "WR-020"
    # (CLIP's own normalisation, `x / x.norm(...)`, makes unit vectors too)
    clip = code.replace("F.normalize(img, dim=-1)", "img / img.norm(dim=-1, keepdim=True)").replace(
        "F.normalize(txt, dim=-1)", "txt / txt.norm(dim=-1, keepdim=True)")
    assert any("a product of vectors it normalises" in e for e in diagnosis(clip + log).matches[0].evidence)
    assert any("divided by a temperature of 0.01 (`torch.exp(img @ txt.t() / tau)`, `tau=0.01`)" in e
               and "up to 1/0.01 = 100, past the largest float32" in e and "cosine passes 0.887" in e
               for e in d.matches[0].evidence)
    for safe in (code.replace("tau=0.01", "tau=0.07"), code.replace("F.normalize(img, dim=-1)", "img").replace(
                 "F.normalize(txt, dim=-1)", "txt"),
                 code.replace("torch.exp(img @ txt.t() / tau)", "img @ txt.t() / tau\n    sim = torch.exp(sim - sim.max(dim=1, "
                                                                 "keepdim=True).values)"),
                 # (a Gaussian kernel's exp of minus a distance, at most 1, however small its width)
                 code.replace("torch.exp(img @ txt.t() / tau)", "torch.exp(-torch.cdist(img, txt) ** 2 / tau)")):
        assert not any("a product of vectors it normalises" in e for m in diagnosis(safe + log).matches
                       for e in m.evidence), safe


def test_raw_targets_beside_a_pasted_network_and_a_lower_rate_that_went_nan_a_few_batches_later():
    """(s42 i20) House prices as MSE targets, a Keras MLP under SGD, the first batch's loss 3.8e10, then inf: targets
    in raw units (WR-360's climb, the residual scaling the Hessian). "a linear regression gets ~21000", a baseline the
    words compare against, had been read as the model (a linear model's climb is its rate's), though the paste builds
    two Dense layers; and "lr=1e-6: same, nan a few batches later" is a lower rate that only put it off."""
    text = ("Keras regression goes to NaN (house prices). 18 features through StandardScaler.\n\n"
            "model = keras.Sequential([keras.Input((18,)), layers.Dense(64, activation=\"relu\"),\n"
            "    layers.Dense(64, activation=\"relu\"), layers.Dense(1)])\n"
            "model.compile(optimizer=keras.optimizers.SGD(learning_rate=1e-3), loss=\"mse\")\n\n"
            "batch 0  loss 3.8160e+10\nbatch 1  loss 3.4690e+13\nbatch 2  loss 1.4160e+31\nbatch 3  loss inf\n"
            "batch 4  loss nan\n\n- lr=1e-6: same, nan a few batches later\n"
            "- lr=1e-8: stays at ~2.4e9, mae ~ 38000 (a linear regression gets ~21000)\n")
    assert lr_tried(text) == "delayed" and lr_tried("with lr 1e-4 it goes nan 3 epochs later") == "delayed"
    d = diagnosis(text)
    targets = d.matches[0]
    assert targets.entry.id == "WR-360" and targets.parts["raw-targets"] > 0
    # (the lower rate that only put it off counts against the rate, and the climb from a start already enormous on raw
    # targets counts half for it: nothing is left to name it)
    assert "WR-220" not in [m.entry.id for m in d.matches]
    # (a linear model named with no network built: its climb is still its rate's)
    linear = text.replace("layers.Dense(64, activation=\"relu\"),\n    layers.Dense(64, activation=\"relu\"), ", "")
    lone = diagnosis(linear.replace("- lr=1e-6: same, nan a few batches later\n", ""))
    assert lone.matches and not any(m.parts.get("raw-targets") for m in lone.matches)


def test_a_pasted_adam_loop_with_no_scheduler_is_a_run_without_warmup():
    """(s42 i17) A loop the paste shows whole -- AdamW built at 1e-3, backward(), step(), no scheduler and no warmup
    anywhere -- runs its first step at the full rate: the code shows what words of "no warmup" would say. Beside a
    32k vocabulary's start at ln 32000 = 10.37 and a jump to 16.44 in two steps (6.1 nats up, 1.6 times: under the
    spike's own ratio), that is WR-250's face; it had been "no known failure". Not where the paste builds a scheduler."""
    code = ("opt = torch.optim.AdamW(model.parameters(), lr=1e-3, betas=(0.9, 0.95), weight_decay=0.1)\n"
            "for step, (x, y) in enumerate(loader):\n    loss = F.cross_entropy(model(x).view(-1, 32000), y.view(-1))\n"
            "    loss.backward()\n    opt.step(); opt.zero_grad(set_to_none=True)\n")
    curve = "".join(f"step {s:5d}  {v}\n" for s, v in ((0, "10.3746"), (1, "12.9013"), (2, "16.4409"), (3, "15.1187"),
                                                      (4, "13.0672"), (5, "11.7730"), (10, "9.5903"), (50, "8.3042"),
                                                      (200, "7.5128"), (1000, "6.9871"), (3000, "6.4415")))
    text = "A decoder LM from scratch, sentencepiece 32k vocab, my own loop:\n\n" + code + "\n" + curve
    d = diagnosis(text)
    assert d.signature.name == "spike-then-recover" and d.matches[0].entry.id == "WR-250"
    assert "in a pasted loop that steps AdamW with no scheduler or warmup anywhere in the paste" in d.signature.facts[0]
    scheduled = text.replace("for step,", "sched = get_cosine_schedule_with_warmup(opt, num_warmup_steps=1000, "
                                          "num_training_steps=10000)\nfor step,")
    assert diagnosis(scheduled).signature.name != "spike-then-recover"
    sgd = text.replace("torch.optim.AdamW(", "torch.optim.SGD(")
    assert diagnosis(sgd).signature.name != "spike-then-recover"


def test_one_enormous_summary_loss_of_a_regression_said_not_to_learn_in_another_language():
    """(s42 i08) A Portuguese report: "Meu modelo simplesmente não aprende", nn.MSELoss on targets in kWh, and one loss
    value read, a W&B summary's `train/loss 6503117.5` after 300 epochs. A squared error on unit-scale targets is about
    1 at worst; 6.5e6 takes errors of about 2550, the targets' own size: raw targets, from one value where the words
    say the run never learnt (it had needed three). Words of not learning are read in other languages too; not an
    English "no" that denies something else."""
    from trainwreck.run_said import says_not_learning

    for said in ("Meu modelo simplesmente não aprende.", "el modelo no aprende nada", "der Loss sinkt nicht",
                 "loss 一直不下降", "ロスが下がらない", "лосс не падает", "손실이 안 떨어져요", "la loss non scende"):
        assert says_not_learning(said), said
    for said in ("no problem, it learns fine", "the model is no better than before?", "Does it never converge?"):
        assert not says_not_learning(said), said
    text = ("Meu modelo simplesmente não aprende. MLP em PyTorch, nn.MSELoss, Adam lr=1e-3, 300 épocas; o alvo é o "
            "consumo em kWh (média perto de 2.480).\n\nResumo do wandb no fim do run:\n\n  train/loss        6503117.5\n"
            "  epoch             299\n")
    d = diagnosis(text)
    targets = d.matches[0]
    assert targets.entry.id == "WR-360" and targets.parts["raw-targets"] > 0
    assert any("a squared error that large takes errors of about 2550 (its root)" in e for e in targets.evidence)
    without = diagnosis(text.replace("Meu modelo simplesmente não aprende. ", ""))
    assert not any(m.parts.get("raw-targets") for m in without.matches)


def test_a_loss_frozen_at_the_entropy_of_the_label_share_the_words_give_is_a_model_blind_to_its_input():
    """(s42b i12) A Vietnamese report: 25% of the rows are label 1, SGD at lr 0.8, the loss spikes at epochs 4 and 7 and
    then sits at 0.5623 for 190 epochs. H(0.25) = 0.5623: the loss of predicting the base rate for every input, the best
    constant -- a model that no longer sees its input (a layer of dead units), not a warmup's spike, which it had been
    named with confidence. A share whose entropy is not the frozen loss says nothing."""
    rows = [(0, "0.6954"), (1, "0.5871"), (2, "0.5302"), (3, "0.4968"), (4, "1.8725"), (5, "0.8140"), (6, "0.5981"),
            (7, "2.4406"), (8, "0.6329"), (9, "0.5630"), (10, "0.5623"), (11, "0.5623")]
    log = "".join(f"epoch {e:<4} loss {v}\n" for e, v in rows) + "...\nepoch 199  loss 0.5623\n"
    text = ("MLP 128-64-32 ReLU, BCEWithLogitsLoss, SGD full-batch lr = 0.8. Có khoảng 25% mẫu là nhãn 1.\n\n" + log)
    d = diagnosis(text)
    assert d.signature.name == "stall-after-drop" and d.matches[0].entry.id == "WR-140"
    assert ("the report gives a share of 25%, and -q ln q - (1 - q) ln(1 - q) = 0.5623 for q = 0.25"
            in d.signature.facts[0])
    assert diagnosis(text.replace("25%", "40%")).signature.name != "stall-after-drop"


def test_a_nat_above_a_uniform_start_under_an_adaptive_optimizer_is_the_updates_doing():
    """(s42b i11) A model that outputs a uniform guess scores ln V on every batch, whatever it holds: a loss that rises a
    nat or more above ln V in the first steps is the updates' doing, no batch's noise. From 9.0012 (ln 8000 = 8.987, the
    vocabulary given after its word: "vocab 8000") to 16.85 at step 4 under AdamW with a hand-written cosine schedule
    that starts at the full rate: WR-250's face, though no word says "no warmup" and the jump is under twice the
    start. Not where the paste sets a warmup, nor under plain SGD."""
    from trainwreck.class_count import vocabulary_named

    assert vocabulary_named("vocab 8000 SentencePiece") == (8000, "`vocab 8000`")
    assert vocabulary_named("vocab_size=32000")[0] == 32000 and vocabulary_named("vocab 1.5 GB") is None
    curve = "".join(f"step {s:5d}  loss {v}\n" for s, v in ((0, "9.0012"), (1, "8.7307"), (2, "10.9418"), (3, "14.6233"),
                                                           (4, "16.8540"), (5, "15.1021"), (10, "11.3245"), (20, "8.4117"),
                                                           (50, "7.6302"), (100, "7.5128"), (500, "6.9830"),
                                                           (2000, "6.1204"), (5000, "5.8437")))
    text = ("Small decoder LM, vocab 8000 SentencePiece, AdamW(lr=1e-3, betas=(0.9, 0.98)), my own cosine schedule:\n"
            "    g['lr'] = 0.5 * base_lr * (1 + math.cos(math.pi * step / total))\n\n" + curve)
    d = diagnosis(text)
    assert d.signature.name == "spike-then-recover" and d.matches[0].entry.id == "WR-250"
    assert "7.9 nats above a start at ln 8000 = 8.987, a uniform guess, under AdamW" in d.signature.facts[0]
    assert diagnosis(text + "warmup_steps=500\n").signature.name != "spike-then-recover"
    assert diagnosis(text.replace("AdamW(", "SGD(")).signature.name != "spike-then-recover"


def test_a_spike_in_the_middle_of_a_run_is_no_first_steps_jump():
    """(s42b i21) A Lightning bar's per-step losses from epoch 3 [61/512], batch size 4: 0.214, 1.370, 0.051, ... A
    jump there is no warmup's (those are the run's first steps), and had been WR-250 named with confidence for a
    healthy run."""
    bar = "".join(f"Epoch 3:  12%|█▏        | {i}/512 [00:38<04:41,  1.60it/s, v_num=12, train_loss_step={v}]\n"
                  for i, v in zip(range(61, 67), ("0.214", "1.370", "0.051", "0.892", "0.338", "0.127")))
    d = diagnosis("batch_size=4, AdamW lr=1e-4, the per-step loss jumps around a lot:\n" + bar)
    assert d.signature.name != "spike-then-recover" and not any(m.entry.id == "WR-250" for m in d.matches[:1])


def test_a_0_1_mask_through_totensor_and_a_printed_miou_at_half_are_labels_that_lost_their_foreground():
    """(s42b i14) Masks said to hold 0 and 1 (`[0 1]`), put through the images' Compose with ToTensor (`tf(mask)`),
    which divides an 8-bit picture by 255 (torchvision v0.20.0): they come out 0 and 0.0039. And a hand-written mIoU
    printed at 0.5000 at every epoch (a Keras `mean_io_u` is not read: MeanIoU reports 1.0 for such labels). Not a
    0/255 mask, which ToTensor scales to 0/1 as it should, nor one opened as mode "1"."""
    from trainwreck.one_class_iou import one_class_iou
    from trainwreck.data_values import mask_to_tensor

    code = ("Masks are PNGs with values 0 and 1 (`np.unique(np.array(Image.open(m)))` -> `[0 1]`).\n"
            "tf = transforms.Compose([transforms.Resize((256, 256)), transforms.ToTensor()])\n"
            "    def __getitem__(self, i):\n        img = Image.open(self.imgs[i]).convert('RGB')\n"
            "        mask = Image.open(self.masks[i]).convert('L')\n        return tf(img), tf(mask)\n")
    assert mask_to_tensor(code) == "tf(mask)"
    assert mask_to_tensor(code.replace("values 0 and 1", "values 0 and 255").replace("`[0 1]`", "`[0 255]`")) == ""
    assert mask_to_tensor(code.replace(".convert('L')", ".convert('1')")) == ""
    assert mask_to_tensor("the masks are 0 and 1\nm = TF.to_tensor(mask)\n") == "TF.to_tensor(mask)"
    log = "".join(f"Epoch {e}: train_loss {v}  val_mIoU 0.5000\n" for e, v in ((1, "0.2113"), (2, "0.0402"), (3, "0.0284")))
    assert one_class_iou(log).startswith("the report's mean IoU is printed 3 times, each 0.5")
    d = diagnosis("U-Net, BCEWithLogitsLoss, the predicted masks are all black.\n" + code + log)
    labels = d.matches[0]
    assert labels.entry.id == "WR-320" and labels.parts["mask-scaled"] > 0 and labels.parts["one-class-iou"] > 0
    assert labels.fix.startswith("Masks scaled like the images")


def test_the_code_reviews_false_readings_stay_false():
    """(code_review_s42) A clip to infinity only measures the norm; an EMA's step is no optimizer's; a clip that starts
    the next loop is not this one's; a clip in a comment is none. A loss built as a metric (`mae_fn = nn.L1Loss()`), or
    in a comment, says nothing of the trained loss's kind. "whatever the lr finder suggested" is no rate tried. English
    "no convergence problems" is no report of a run that does not learn. An IoU bound, a matcher's IoU, a value it left,
    a question and a 19-class mIoU are no labels that lost their foreground."""
    from trainwreck.clip_unused import late_clip
    from trainwreck.one_class_iou import one_class_iou
    from trainwreck.run_said import loss_kind, says_not_learning

    loop = ("for epoch in range(300):\n    loss = criterion(model(X), y)\n    loss.backward()\n    optimizer.step()\n"
            "    norm = torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm=1.0)\n    optimizer.zero_grad()\n")
    assert late_clip(loop)
    assert late_clip(loop.replace("max_norm=1.0", "float('inf')")) is None
    assert late_clip(loop.replace("optimizer.step()", "ema.step()")) is None
    assert late_clip(loop.replace("    norm = torch", "    # norm = torch")) is None
    assert late_clip("for x in a:\n    loss.backward()\n    opt.step()\nfor y in b:\n    clip_grad_norm_(p, 1)\n") is None
    assert loss_kind("loss = gaussian_nll(mu, var, y)\nmae_fn = nn.L1Loss()\nthe likelihood goes negative") == ""
    assert loss_kind("# criterion = nn.CrossEntropyLoss()\nmy gaussian likelihood is negative") != "bounded"
    assert lr_tried("whatever the lr finder suggested, it goes nan at epoch 3") == ""
    assert not says_not_learning("Training is fine, no convergence problems so far, the loss goes down nicely.")
    for said in ("IoU stays above 0.5 all the time", "For NMS I use an IoU that stays at 0.5",
                 "mIoU stuck at 0.5 for two epochs, then 0.81", "why is my iou always 0.5?",
                 "the iou always equals 0.5 on my 19 classes"):
        assert one_class_iou(said) == "", said


def test_a_printed_largest_logit_past_the_limit_beside_a_softmax_division_a_traceback_quotes():
    """(s42b i26) A JAX traceback that stops at a hand-written softmax's division (`probs = e / e.sum(...)`, "invalid
    value (nan) encountered in div") and a log that prints the largest |logit| of each epoch, "max|logit| = 90.4" in a
    sentence's last words: exp(90.4) is past float32's largest, and inf / inf is nan -- the run's own number, a printed
    fact's whole weight. The division alone counts only where the paste shows no exp of its own."""
    from trainwreck.exp_limits import PRINTED_LOGIT

    assert [m.group(1) for m in PRINTED_LOGIT.finditer("max|logit| 81.7\nthe last batch had max|logit| = 90.4.")] \
        == ["81.7", "90.4"]
    text = ("A Flax MLP, my own cross-entropy. With jax_debug_nans:\n"
            "  File \"/home/u/tabclf/losses.py\", line 19, in weighted_xent\n"
            "    probs = e / e.sum(axis=-1, keepdims=True)\nFloatingPointError: invalid value (nan) encountered in div\n\n"
            + "".join(f"epoch {e}  loss {v}  max|logit| {m}\n" for e, v, m in
                      ((0, "0.9127", "12.8"), (1, "0.4410", "33.5"), (2, "0.3183", "52.0"), (3, "0.2671", "68.9"),
                       (4, "0.2402", "81.7"), (5, "nan", "nan")))
            + "The last batch that still had a finite loss had max|logit| = 90.4.\n")
    overflow = weighed_parts(text, "WR-020")
    assert overflow["exp-overflow-printed"] == 2.0
    assert "WR-020" in [m.entry.id for m in diagnosis(text).matches[:2]]
    assert "exp-overflow-printed" not in weighed_parts(text.replace("90.4", "80.4"), "WR-020")


def test_a_minus_inf_fill_beside_a_printed_token_count_of_zero_is_the_row_shown_and_bf16_is_no_half_precision():
    """(s42b i10) An attention-pooling head that fills masked scores with -inf, and a printed `attention_mask.sum(1)`
    that holds a 0 (a page empty after boilerplate stripping): the fully masked row is shown, not only suspected -- a
    printed fact's whole weight. And "bf16 autocast" names no float16: bfloat16 has float32's range, so the half
    precision entry is not the first suspect it had been, "about even" with the right one."""
    from trainwreck.precision_said import bf16_only

    assert bf16_only("AdamW 2e-5, bf16 autocast") and not bf16_only("fp16 autocast") and not bf16_only("bf16 or fp16?")
    text = ("train_loss goes nan at a random step. An encoder + attention pooling, AdamW 2e-5, bf16 autocast.\n\n"
            "Epoch 0:  41%|████      | 3816/9310 [12:43<18:19,  5.00it/s, v_num=7, train_loss=0.388]\n"
            "Epoch 0:  41%|████      | 3817/9310 [12:44<18:20,  4.99it/s, v_num=7, train_loss=nan]\n\n"
            "    def forward(self, h, mask):\n        s = h @ self.q\n"
            "        s = s.masked_fill(mask == 0, float(\"-inf\"))\n        a = s.softmax(dim=-1)\n"
            "        return (a.unsqueeze(-1) * h).sum(dim=1)\n\n"
            "attention_mask.sum(1) tensor([211,  64, 512,  97,   0, 172])\n")
    d = diagnosis(text)
    masked = d.matches[0]
    assert masked.entry.id == "WR-070" and masked.parts["masked-row-printed"] == 2.0
    assert "WR-040" not in [m.entry.id for m in d.matches[:2]]
    shown = diagnosis(text.replace("tensor([211,  64, 512,  97,   0, 172])", "tensor([211,  64, 512,  97,   3, 172])"))
    assert not any(m.parts.get("masked-row-printed") for m in shown.matches)


def test_a_loss_scaler_at_its_floor_points_at_the_forward_passs_overflow_fix():
    """(s42b i20, s42 i29) fairseq and DeepSpeed keep float32 master weights and scale the loss already: where their
    scaler reached its floor, the first step is the Fix item no loss scale replaces (bfloat16, a float32 block), not
    the section's opening, which they already do."""
    text = ("fairseq-train ... --fp16\n"
            "2024-01-01 | INFO | fairseq.trainer | NOTE: gradient overflow detected, ignoring gradient, setting loss "
            "scale to: 0.0001\n"
            "FloatingPointError: Minimum loss scale reached (0.0001). Your loss is probably exploding. Try lowering the "
            "learning rate, using gradient clipping or increasing the batch size.\n")
    half = next(m for m in diagnosis(text).matches if m.entry.id == "WR-040")
    assert half.fix.startswith("Overflow in the forward pass: no loss scale helps.")


def test_the_second_code_reviews_false_readings_stay_false():
    """(code_review_s42b) A print of several values above lines that are no loss table does not take the log over, and
    a loss scale or a count of losses is no loss column; `ppl = math.exp(loss.item())` does not hold the loss; a
    percentage of a split is no label share; a class weight normalised by its sum outside a traceback is no softmax;
    YOLO's `iou=0.5` and an `iou_loss` are no mean IoU; a commented step is no step, and a clip under an `if` after the
    step is late; a uniform start's jump in a batch of 4, or beside Adam only named, is no updates' doing."""
    from trainwreck.clip_unused import late_clip
    from trainwreck.curve_shape import _constant_output
    from trainwreck.logscan.dialects.count_value import _holds_the_loss
    from trainwreck.logscan.layout import table_column
    from trainwreck.one_class_iou import one_class_iou
    from trainwreck.exp_limits import SELF_NORMALISED

    assert table_column(b"print(step, loss_scale_skips, lr)\n0 1.0 0.1\n1 1.0 0.1\n2 1.0 0.1\n") is None
    assert table_column(b"print(epoch, len(losses), acc)\n0 3 0.1\n1 3 0.2\n2 3 0.3\n") is None
    assert table_column(b"print(epoch, train_loss, acc)\n0 1.5 0.1\n1 1.2 0.2\n2 1.0 0.3\n")[1] == 1
    assert not _holds_the_loss(b"    ppl = math.exp(loss.item())\n", b"ppl")
    assert _holds_the_loss(b"    running += loss.item()\n", b"round(running / 10, 4")
    assert _constant_output("20% held out for validation. About 30% of the labels are 1.", 0.5004) == ""
    assert _constant_output("About 25% of the samples are label 1.", 0.5623)
    assert not SELF_NORMALISED.search("w = counts ** -0.5\nw = w / w.sum()\n")
    assert one_class_iou("yolo train iou=0.5\nyolo val iou=0.5\nyolo predict iou=0.5") == ""
    assert one_class_iou("epoch 1 iou_loss: 0.5\nepoch 2 iou_loss: 0.5\nepoch 3 iou_loss: 0.5") == ""
    assert late_clip("    loss.backward()\n    # optimizer.step()\n    clip_grad_norm_(p, 1.0)\n    optimizer.step()\n") is None
    assert late_clip("    loss.backward()\n    optimizer.step()\n    if step % 10 == 0:\n        clip_grad_norm_(p, 1.0)\n")
    curve = "".join(f"step {s:5d}  loss {v}\n" for s, v in ((0, "9.0012"), (1, "8.7307"), (2, "10.9418"), (3, "14.6233"),
                                                           (4, "16.8540"), (5, "15.1021"), (10, "11.3245"), (20, "8.4117"),
                                                           (50, "7.6302"), (100, "7.5128"), (500, "6.9830")))
    for words in ("vocab 8000, AdamW(lr=1e-3), batch_size=4\n", "vocab 8000, SGD lr 0.1; I also tried Adam once\n"):
        assert diagnosis(words + curve).signature.name != "spike-then-recover", words


def test_a_rate_that_failed_later_asked_about_is_no_rate_that_put_it_off():
    """(code_review_s42) "lr 0.01: loss is nan a few steps later than I expected?" asks; it reports no run at a lower
    rate that broke later. Said as a fact beside a question, it still is one."""
    assert lr_tried("lr 0.01: loss is nan a few steps later than I expected?") == ""
    assert lr_tried("with lr 1e-4 it goes nan 3 epochs later. Why?") == "delayed"


def test_two_shuffled_loaders_of_inputs_and_labels_zipped_together_are_not_covered():
    """`zip(x_loader, y_loader)` over two DataLoaders built with shuffle=True, one wrapping the inputs and one the
    labels: each sampler draws its own permutation every epoch, so no batch of inputs meets its own labels -- a data
    bug no entry covers, said with its mechanism. Two loaders of whole examples zipped on purpose (a source and a
    target domain) are no such bug, nor two loaders that keep their order."""
    code = ("feats = torch.load('feats.pt'); targets = torch.load('targets.pt')\n"
            "x_loader = DataLoader(TensorDataset(feats), batch_size=64, shuffle=True)\n"
            "y_loader = DataLoader(TensorDataset(targets), batch_size=64, shuffle=True)\n"
            "for epoch in range(20):\n    for (xb,), (yb,) in zip(x_loader, y_loader):\n"
            "        loss = F.cross_entropy(net(xb), yb)\n")
    said = "Accuracy stays at 25% on my 4 classes, the loss never goes below 1.386. I tried three learning rates.\n"
    d = diagnosis(said + code)
    assert d.verdict == "unexplained" and not d.matches
    assert any(u.startswith("the paste iterates two shuffled DataLoaders together, one of its inputs and one of its "
                            "labels (`zip(x_loader, y_loader)`)") for u in d.unweighed)
    from trainwreck.data_order import loaders_shuffled_apart
    domains = code.replace("x_loader", "source_loader").replace("y_loader", "target_loader") \
        .replace("TensorDataset(feats)", "src_ds").replace("TensorDataset(targets)", "tgt_ds")
    assert loaders_shuffled_apart(domains) == ""
    assert loaders_shuffled_apart(code.replace("shuffle=True", "shuffle=False")) == ""
    # (by the loaders' names too, the arrays they wrap unnamed)
    named = code.replace("TensorDataset(feats)", "ds_a").replace("TensorDataset(targets)", "ds_b") \
        .replace("x_loader", "img_loader").replace("y_loader", "lbl_loader")
    assert loaders_shuffled_apart(named) == "zip(img_loader, lbl_loader)"
    # (code_review_s43 S2: beside a run that learns, or loaders given one seeded generator each, no such bug)
    learned = "".join(f"epoch {e} loss {v} acc {a}\n" for e, (v, a) in enumerate(
        [("2.10", "0.31"), ("1.20", "0.62"), ("0.61", "0.81"), ("0.35", "0.88"), ("0.22", "0.93")]))
    assert not any("two shuffled DataLoaders" in u for u in diagnosis(code + learned).unweighed)
    assert loaders_shuffled_apart(code.replace("shuffle=True)", "shuffle=True, generator=g)")) == ""


def test_a_torchvision_datasets_data_is_its_raw_pixels():
    """`datasets.MNIST(...).data` (and CIFAR's, SVHN's) holds the pixels as stored, uint8 from 0 to 255: the dataset's
    ToTensor runs only when it is indexed. Taken as inputs with no division by 255, that is the raw-pixels fact, for
    the unnormalised-inputs entry; divided, no fact."""
    code = ("train = torchvision.datasets.FashionMNIST('data', train=True, download=True)\n"
            "X = train.data.view(-1, 784).float()\ny = train.targets\n")
    said = "Loss is stuck at 2.30 from the second epoch and accuracy is 10%, tanh MLP, SGD lr=0.05.\n"
    d = diagnosis(said + code)
    assert d.matches[0].entry.id == "WR-330"
    assert any("the paste takes its images from torchvision's FashionMNIST as `train.data`" in e
               for e in d.matches[0].evidence)
    # (code_review_s43 S3: the dataset's own ToTensor does not touch `.data`)
    own = code.replace("download=True)", "download=True, transform=ToTensor())")
    assert any("torchvision's FashionMNIST" in e for m in diagnosis(said + own).matches for e in m.evidence)
    scaled = code.replace(".float()", ".float() / 255")
    assert not any("torchvision's FashionMNIST" in e for m in diagnosis(said + scaled).matches for e in m.evidence)


def test_the_masks_own_keras_generator_built_to_rescale_scales_them_like_images():
    """Masks said to hold 0 and 1, given to a Keras ImageDataGenerator of their own built with the images' arguments
    (`ImageDataGenerator(**args)`, `args = dict(rescale=1./255, ...)`): it multiplies every batch it standardizes, so
    they come out 0 and 0.0039 -- WR-320's fourth face, as torchvision's ToTensor is. Not a mask generator built
    without rescale, nor masks said to hold 0 and 255."""
    code = ("aug = dict(rescale=1./255, horizontal_flip=True)\nimg_gen = ImageDataGenerator(**aug)\n"
            "seg_gen = ImageDataGenerator(**aug)\n"
            "masks = seg_gen.flow_from_directory('train/masks', class_mode=None, seed=7)\n")
    said = "The binary masks are 0 and 1 (checked with np.unique). The predicted masks are empty, dice 0.00 every epoch.\n"
    from trainwreck.data_values import mask_to_tensor
    assert mask_to_tensor(said + code) == "seg_gen = ImageDataGenerator(**aug)"
    d = diagnosis(said + code)
    assert d.matches[0].entry.id == "WR-320"
    assert any("builds their own Keras generator to rescale them (`seg_gen = ImageDataGenerator(**aug)`)" in e
               for e in d.matches[0].evidence)
    assert mask_to_tensor(said + code.replace("rescale=1./255, ", "")) == ""
    assert mask_to_tensor(said.replace("0 and 1", "0 and 255") + code) == ""


def test_a_number_said_stuck_with_another_quantity_as_its_subject_is_not_the_loss():
    """"Accuracy is stuck at 0.7784 from epoch 2 on" says the accuracy froze, not the loss: no frozen loss of 0.7784
    (which had named WR-140 with confidence beside a loss falling to 0.0061). Said of the loss, it is read."""
    log = "".join(f"Epoch {e}/9 - loss: {v} - accuracy: 0.7784\n" for e, v in
                  enumerate(["0.1843", "0.0268", "0.0121", "0.0083", "0.0069", "0.0064"], start=1))
    d = diagnosis(log + "Accuracy is stuck at 0.7784 from epoch 2 on.\n")
    assert not any("the loss froze" in f for f in d.signature.facts)
    from trainwreck.curve_shape import OTHER_SUBJECT
    assert OTHER_SUBJECT.search("the val mean_io_u is ") and not OTHER_SUBJECT.search("accuracy is fine but the loss is ")


def test_a_classifiers_first_loss_ten_times_ln_k_for_the_classes_named_is_an_enormous_start():
    """A mean cross-entropy starts near ln K: 38.4 on MNIST's ten classes is 16.7 times ln 10, a label's logit far
    below the largest -- an enormous start for those classes (ENORMOUS_MEAN_CE's bound, 10 ln K, at this K), which no
    normal answer about spikes replaces, and beside weights drawn at std 1, WR-120. Under ten times, or with no class
    count, or a summed loss, it is not."""
    code = ("loss = optax.softmax_cross_entropy(logits, y).mean()\n"
            "params.append((jax.random.normal(k, (m, n)), jnp.zeros(n)))\n")
    said = "MNIST MLP in JAX, the loss jumps around a lot, is that normal?\n"
    log = "".join(f"step {s:4d} | loss {v} | acc {a}\n" for s, v, a in
                  [(0, "38.41", "0.09"), (100, "51.10", "0.12"), (200, "33.78", "0.13"), (300, "44.27", "0.10"),
                   (400, "40.99", "0.14"), (500, "29.55", "0.18")])
    d = diagnosis(said + code + log)
    assert d.signature.enormous_start and "ln 10 = 2.3 here (the paste names MNIST), and this is 16.7 times" \
        in d.signature.enormous_start
    assert d.verdict == "uncertain" and d.matches[0].entry.id == "WR-120"
    small = log.replace("38.41", "18.41")
    assert not diagnosis(said + code + small).signature.enormous_start
    assert not diagnosis(said.replace("MNIST ", "") + code + log).signature.enormous_start
    assert not diagnosis(said + code.replace(".mean()", ".sum()") + log).signature.enormous_start


def test_a_horizontal_flip_beside_classes_that_tell_left_from_right_is_not_covered():
    """RandomHorizontalFlip among the training transforms, classes `arrow_left` and `arrow_right`: a flipped left is a
    right under the left label, so the pair stays confused half and half -- a data bug no entry covers, said with its
    mechanism. No flip, or no left/right classes, is no such bug."""
    code = ("train_tf = T.Compose([T.RandomResizedCrop(224), T.RandomHorizontalFlip(p=0.5), T.ToTensor()])\n")
    said = ("Traffic sign classifier, classes arrow_left, arrow_right, stop, yield. Stop and yield are at 97% but "
            "arrow_left and arrow_right are confused with each other about half the time, lr 1e-3 or 1e-4 alike.\n")
    d = diagnosis(said + code)
    assert d.verdict == "unexplained" and not d.matches
    assert any(u.startswith("the paste flips its training images horizontally (`train_tf = T.Compose([T.RandomResized"
                            "Crop(224), T.RandomHorizontalFlip(p=0.5), T.ToTensor()])`) and its classes tell left from "
                            "right (arrow_left and arrow_right)") for u in d.unweighed)
    from trainwreck.data_order import flip_swaps_classes
    assert flip_swaps_classes(said + code.replace("T.RandomHorizontalFlip(p=0.5), ", "")) is None
    assert flip_swaps_classes(said.replace("arrow_left", "cat").replace("arrow_right", "dog") + code) is None
    # (a box's x_left and x_right, which a detector's flip moves with the picture, are no classes)
    assert flip_swaps_classes(code + "boxes are x_left, y_top, x_right, y_bottom\n") is None
    keras = "aug = ImageDataGenerator(rotation_range=10, horizontal_flip=True)\n# classes: left/right hand\n"
    assert flip_swaps_classes(keras) == ("aug = ImageDataGenerator(rotation_range=10, horizontal_flip=True)",
                                         "left and right")


def test_a_weight_decay_that_pulls_the_weights_to_zero_beside_a_run_that_does_not_learn_is_not_covered():
    """SGD at lr 0.05 with weight_decay=0.5 takes 2.5% of every weight off each step (500 times SGD's usual 0.1 x 5e-4):
    the weights go to zero, and the loss settles at ln 5 = 1.6094 for five classes -- a setting no entry covers, said
    with its mechanism. The usual decay, a healthy run, or Adam's coupled decay are not this."""
    code = "optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9, weight_decay=0.5)\n"
    log = "".join(f"step {s} loss {v}\n" for s, v in [(0, "1.6231"), (50, "1.6095"), (100, "1.6094"), (200, "1.6094"),
                                                      (500, "1.6094"), (1000, "1.6094")])
    d = diagnosis("My 5-class MLP cannot even overfit 64 examples.\n" + code + log)
    assert d.verdict == "unexplained" and not d.matches
    assert any(u.startswith("the paste builds its optimizer with a weight decay that pulls every weight toward zero")
               for u in d.unweighed)
    from trainwreck.optimizer_setup import decay_pulls_to_zero
    assert decay_pulls_to_zero(code) == "SGD(model.parameters(), lr=0.05, momentum=0.9, weight_decay=0.5)"
    assert decay_pulls_to_zero(code.replace("weight_decay=0.5", "weight_decay=5e-4")) == ""
    assert decay_pulls_to_zero(code.replace("SGD", "Adam")) == ""
    learned = "".join(f"step {s} loss {v}\n" for s, v in [(0, "1.62"), (50, "1.10"), (100, "0.61"), (200, "0.30"),
                                                          (500, "0.12"), (1000, "0.05")])
    assert not any("weight decay" in u for u in diagnosis(code + learned).unweighed)


def test_an_epoch_schedule_stepped_once_per_batch_beside_a_run_that_stops_learning_is_not_covered():
    """A MultiStepLR written for epochs (milestones 30 and 60) but stepped in the loop over the loader: the milestones
    pass within the first epoch, and the rate is 0.1 ** 2 = 1% of itself from then on -- a wiring bug no entry covers,
    said with the two lines and the schedule's own arithmetic. Not stepped after the batch loop or under a condition of
    the last batch, not lengths given in batches, not a cycling cosine, not a schedule written per step (OneCycleLR), and
    not beside a loss that climbs, which a vanishing rate cannot explain."""
    code = ("optimizer = optim.SGD(net.parameters(), lr=0.1, momentum=0.9)\n"
            "scheduler = optim.lr_scheduler.MultiStepLR(optimizer, milestones=[30, 60], gamma=0.1)\n"
            "for epoch in range(90):\n    for i, (images, labels) in enumerate(train_loader):\n        optimizer.zero_grad()\n"
            "        criterion(net(images), labels).backward()\n        optimizer.step()\n        scheduler.step()\n")
    log = "".join(f"epoch {e} loss {v} acc 0.41\n" for e, v in enumerate(("1.84", "1.62", "1.61", "1.61", "1.61", "1.61",
                                                                          "1.61", "1.61", "1.61", "1.61"), 1))
    d = diagnosis("The loss stops improving after the first epoch.\n" + code + log)
    assert d.verdict == "unexplained" and not d.matches
    assert any(u.startswith("the paste steps its learning-rate schedule once per batch (`scheduler = "
                            "optim.lr_scheduler.MultiStepLR(optimizer, milestones=[30, 60], gamma=0.1) ... "
                            "scheduler.step()`)") and "its milestones, 30, 60, are passed by the 60th batch, and the "
                            "rate is then 0.1 ** 2 = 0.01 times the first" in u for u in d.unweighed)
    from trainwreck.optimizer_setup import scheduler_stepped_per_batch
    assert scheduler_stepped_per_batch(code.replace("MultiStepLR(optimizer, milestones=[30, 60], gamma=0.1)",
                                                    "StepLR(optimizer, step_size=60, gamma=0.2)"))[1] == \
        "it multiplies the rate by gamma = 0.2 every 60 calls, so 300 batches in it is 0.2 ** 5 = 0.00032 times the first rate"
    for kept in (code.replace("        optimizer.step()\n        scheduler.step()\n",
                              "        optimizer.step()\n    scheduler.step()\n"),
                 code.replace("        scheduler.step()\n",
                              "        if i == len(train_loader) - 1:\n            scheduler.step()\n"),
                 code.replace("milestones=[30, 60]", "milestones=[30000, 60000]"),
                 code.replace("MultiStepLR(optimizer, milestones=[30, 60], gamma=0.1)", "ExponentialLR(optimizer, gamma=0.99995)"),
                 # (a schedule that leaves the rate above a tenth of itself by then: it still trains)
                 code.replace("gamma=0.1)", "gamma=0.5)"),
                 code.replace("MultiStepLR(optimizer, milestones=[30, 60], gamma=0.1)", "CosineAnnealingLR(optimizer, T_max=200)"),
                 code.replace("MultiStepLR(optimizer, milestones=[30, 60], gamma=0.1)",
                              "OneCycleLR(optimizer, max_lr=0.1, total_steps=9000)")):
        assert scheduler_stepped_per_batch(kept) == ("", ""), kept
    climbing = "".join(f"epoch {e} loss {v}\n" for e, v in enumerate(("1.84", "1.52", "1.41", "1.62", "1.95", "2.41",
                                                                      "3.12", "4.05", "5.20", "6.81"), 1))
    assert not any("once per batch" in u for u in diagnosis("My loss goes up.\n" + code + climbing).unweighed)


def test_a_module_unfrozen_by_an_attribute_after_every_parameter_was_frozen_is_not_covered():
    """`model.encoder.requires_grad = True` after a loop froze every parameter: a module has no requires_grad flag, so
    the assignment is a new Python attribute and the encoder stays frozen -- a wiring bug no entry covers, said with the
    line and its method. A parameter's own flag (`model.cls_token`), the method itself, a module set before anything
    was frozen, or a run that learns, are not."""
    from trainwreck.optimizer_setup import module_unfrozen_by_attribute

    code = ("model = ViTForImageClassification.from_pretrained(name)\nfor p in model.parameters():\n"
            "    p.requires_grad = False\nmodel.classifier.requires_grad = True\n"
            "optimizer = torch.optim.Adam([p for p in model.parameters() if p.requires_grad], lr=1e-3)\n")
    log = "".join(f"epoch {e} loss {v}\n" for e, v in enumerate(("2.31", "2.30", "2.30", "2.30", "2.30", "2.30"), 1))
    said = "The loss does not go down at all.\n"
    d = diagnosis(said + code + log)
    assert d.verdict == "unexplained" and not d.matches
    assert any(u.startswith("the paste freezes every parameter and then sets requires_grad on a module "
                            "(`model.classifier.requires_grad = True`)") and "`model.classifier.requires_grad_(True)`" in u
               for u in d.unweighed)
    for kept in (code.replace("model.classifier.requires_grad = True", "model.classifier.requires_grad_(True)"),
                 code.replace("model.classifier.requires_grad", "model.cls_token.requires_grad"),
                 code.replace("    p.requires_grad = False\n", "    pass\n"),
                 # (a part frozen, not the model; a projection CLIP keeps as a parameter)
                 code.replace("model.parameters()", "model.vit.embeddings.parameters()"),
                 code.replace("model.classifier.requires_grad", "model.visual.proj.requires_grad")):
        assert module_unfrozen_by_attribute(kept) == "", kept
    learned = "".join(f"epoch {e} loss {v}\n" for e, v in enumerate(("2.31", "1.40", "0.90", "0.61", "0.45", "0.38"), 1))
    assert not any("sets requires_grad on a module" in u for u in diagnosis(code + learned).unweighed)


def test_an_epoch_schedule_is_read_by_place_as_well_as_by_name_and_stepped_inside_a_with_block():
    """(review s56c) The schedule's gamma given by place, `StepLR(optimizer, 30, 0.5)`, is 0.5, not the default 0.1;
    ExponentialLR's only argument is its gamma; a gamma the call does not spell as a number is not guessed. A step
    inside `with` blocks (an autocast, Accelerate's accumulate) runs every batch; one under an `if` does not."""
    from trainwreck.optimizer_setup import scheduler_stepped_per_batch

    code = ("scheduler = StepLR(optimizer, 30, 0.5)\nfor epoch in range(90):\n    for x, y in train_loader:\n"
            "        with torch.autocast('cuda'):\n            scaler.scale(criterion(model(x), y)).backward()\n"
            "            scaler.step(optimizer)\n            scheduler.step()\n")
    assert scheduler_stepped_per_batch(code) == (
        "scheduler = StepLR(optimizer, 30, 0.5) ... scheduler.step()",
        "it multiplies the rate by gamma = 0.5 every 30 calls, so 300 batches in it is 0.5 ** 10 = 0.00098 times the "
        "first rate")
    assert scheduler_stepped_per_batch(code.replace("with torch.autocast('cuda'):", "with accelerator.accumulate(model):"))[0]
    assert scheduler_stepped_per_batch(code.replace("StepLR(optimizer, 30, 0.5)", "ExponentialLR(optimizer, 0.95)"))[1] \
        == "it multiplies the rate by gamma = 0.95 at every call, so 300 batches in it is 2.1e-07 times the first"
    assert scheduler_stepped_per_batch(code.replace("StepLR(optimizer, 30, 0.5)", "MultiStepLR(optimizer, [30, 60], 0.2)"
                                                    ))[1].endswith("the rate is then 0.2 ** 2 = 0.04 times the first")
    for kept in (code.replace("0.5)", "0.9)"),              # (0.9 ** 10 = 0.35 of the rate: it still trains)
                 code.replace("0.5)", "gamma=args.gamma)"),
                 code.replace("with torch.autocast('cuda'):", "if step % 4 == 0:")):
        assert scheduler_stepped_per_batch(kept) == ("", ""), kept


def test_a_jump_that_came_only_partly_back_is_a_failure_where_the_words_say_it_never_recovered():
    """A paste that shows the loss jump and come part of the way down, and words that say it never came back: the
    reporter saw the rest of the run. Without those words the same values are a bump still coming down."""
    log = "".join(f"it {s:>5} | loss {v}\n" for s, v in (
        (1000, "0.2210"), (1200, "0.2104"), (1400, "0.2051"), (1600, "6.0420"), (1800, "1.9310"), (2000, "1.2205"),
        (2200, "1.1120"), (2400, "1.0877")))
    words = "Seq2seq on hourly sensor windows, no shuffling.\n"
    said = diagnosis(words + log + "Every seed jumps at the same iteration and it never gets back to 0.2.\n")
    assert said.signature.name == "climbed-and-stayed" and said.signature.jumped
    assert said.matches[0].entry.id == "WR-310"
    assert any('the report says it "never gets back"' in e for e in said.matches[0].evidence)
    quiet = diagnosis(words + log)
    assert quiet.signature.name == "healthy" and "came partly back down" in quiet.signature.facts[0]
    # (not where the words say it did come back)
    assert diagnosis(words + log + "It gets back to 0.2 after a few thousand more steps.\n").signature.name == "healthy"


HAND_SCALED = ("loss: nan from the first epoch\n\nKeras MLP on 31 process-sensor columns, 4 fault classes, softmax output, "
               "sparse_categorical_crossentropy, Adam. I z-score every column by hand with the training mean and std. "
               "Epoch 1 already prints loss: nan - accuracy: 0.2491 and every epoch after it the same. No nan in the CSV.")


def test_standardising_by_hand_said_beside_a_nan_from_the_first_value_is_the_zero_std_construct():
    d = diagnosis(HAND_SCALED)
    assert d.matches[0].entry.id == "WR-060"
    assert any('standardises the inputs by hand ("z-score every column by hand")' in e for e in d.matches[0].evidence)
    # (not with a scaler, which guards a column that never varies; nor where the nan came later)
    assert weighed_parts(HAND_SCALED.replace("I z-score every column by hand", "I z-score every column by hand with "
                                             "StandardScaler"), "WR-060").get("std-unguarded") is None
    later = HAND_SCALED.replace("Epoch 1 already prints loss: nan", "Epoch 1 prints loss: 0.8812, epoch 6 loss: nan") \
        .replace("loss: nan from the first epoch", "loss goes nan at epoch 6")
    assert weighed_parts(later, "WR-060").get("std-unguarded") is None


def test_a_keras_softmax_output_with_its_cross_entropy_said_in_words_is_the_expected_pairing():
    parts = weighed_parts(HAND_SCALED, "WR-130")
    assert parts["pairing"] == -1.0
    # (told from_logits=True, it is not)
    told = HAND_SCALED.replace("sparse_categorical_crossentropy,",
                               "loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True),")
    assert weighed_parts(told, "WR-130").get("pairing", 0) >= 0


def test_the_present_tense_says_what_the_pipeline_scales():
    from trainwreck.input_scaling import scaled_said
    assert scaled_said("I standardise the columns myself")["scaled"] == {"inputs": "standardise the columns myself"}
    assert scaled_said("we need to standardize the inputs") == {"scaled": {}, "unscaled": {}, "printed": {}, "code": {}}
    assert scaled_said("should I normalize the features?") == {"scaled": {}, "unscaled": {}, "printed": {}, "code": {}}
    for doubted in ("Do we normalize the inputs? I am not sure.", "I will normalize the features later, for now they "
                    "are raw.", "If I normalize the inputs the loss goes nan.", "Unless I normalize the inputs, it explodes."):
        assert scaled_said(doubted)["scaled"] == {}, doubted


def test_a_linear_regression_named_as_a_baseline_beside_an_mlp_said_in_words_is_not_the_model():
    """Raw targets' climb is not read for a linear model (its rate is too high, whatever the targets): not where the
    linear regression is a baseline and the model is an MLP the words describe."""
    from trainwreck.run_kind import linear_model
    assert linear_model("A linear regression on these features gets MAE 6.8.")
    assert not linear_model("Model is an MLP 90 -> 256 -> 128 -> 1. A linear regression in scikit-learn gets MAE 6.8.")
    assert not linear_model("Two hidden layers of 64. A LinearRegression baseline does better.")


def test_the_sameness_said_before_the_rate_is_a_rate_that_did_not_help():
    assert lr_tried("All params are nan after the first update. Same with optax.sgd, and same with lr 1e-7.") == "failed"
    assert lr_tried("nan after 3 epochs. The same thing at lr=1e-5.") == "failed"
    assert lr_tried("I use the same lr 1e-3 as the paper and it goes nan.") == ""
    # (or only later: put off)
    assert lr_tried("nan at epoch 3. Same with lr 1e-4, it just takes longer.") == "delayed"


def test_the_same_failure_at_a_later_place_for_a_lower_rate_is_put_off():
    text = ("Loss falls fast, then swings and blows up by iteration ~400. SGD lr 0.005, momentum 0.9. With lr 0.0005 "
            "the same thing happens, just around iteration 3000.")
    assert lr_tried(text) == "delayed"
    assert lr_tried(text.replace("around iteration 3000", "around iteration 400")) == "failed"
    assert lr_tried(text.replace("With lr 0.0005", "Should I try lr 0.0005 to see if")) != "delayed"


CONTRASTIVE = ("Contrastive loss is nan from the first batch\n\nTwo encoders, CLIP style, PyTorch. I wrote the contrastive "
               "loss myself: cosine similarity of the L2-normalised embeddings, divided by the temperature (0.01), exp, "
               "then -log(positive / row sum). The first loss printed is nan.")


def test_an_exp_of_cosines_over_a_small_temperature_said_in_words_overflows_float32():
    np = pytest.importorskip("numpy")
    d = diagnosis(CONTRASTIVE)
    assert d.matches[0].entry.id == "WR-020"
    assert any("takes up to 1/0.01 = 100, past the largest float32" in e for e in d.matches[0].evidence)
    # the threshold: exp overflows float32 just above 88.72, so 1/T does for T below about 0.0113
    with np.errstate(over="ignore"):
        assert np.isinf(np.exp(np.float32(100.0))) and np.isfinite(np.exp(np.float32(88.7)))
    # (a temperature of 0.05 gives 20, which exp holds; a library loss is no hand-written exp)
    assert weighed_parts(CONTRASTIVE.replace("(0.01)", "(0.05)"), "WR-020").get("exp-overflow") is None
    assert weighed_parts(CONTRASTIVE.replace("I wrote the contrastive loss myself:", "The loss is info_nce from a library:"),
                         "WR-020").get("exp-overflow") is None


def test_the_untrained_models_loss_said_far_above_a_uniform_guess_is_a_broken_start():
    text = ("Binary classifier, MLP of 5 tanh layers of 1024 with weights from my own init. At step 0, before any "
            "update, the mean BCE is 5.1, and during training it jumps around between 2 and 6. Inputs standardised.")
    d = diagnosis(text)
    assert d.verdict != "normal" and d.matches[0].entry.id == "WR-120"
    assert any("7.4 times ln 2" in e for e in d.matches[0].evidence)
    # (near ln 2 at the start, it is no such fact; and the spikes are then the question asked)
    assert "start-high" not in weighed_parts(text.replace("the mean BCE is 5.1", "the mean BCE is 0.71"), "WR-120")


def test_the_first_loss_of_a_classifier_grows_with_the_spread_of_its_untrained_logits():
    """The mechanism the fact rests on: logits of spread s score about ln C + (1 - 1/C) s^2 / 2 at small s, near ln C
    at a standard initialisation; three times ln C takes logits several units wide."""
    np = pytest.importorskip("numpy")
    rng = np.random.default_rng(0)

    def first_loss(classes, spread):
        z = rng.normal(0.0, spread, (6000, classes))
        lse = np.log(np.exp(z - z.max(1, keepdims=True)).sum(1)) + z.max(1)
        return float(np.mean(lse - z[:, 0]))

    for classes in (2, 10, 200):
        small = first_loss(classes, 0.5)
        assert abs(small - (np.log(classes) + (1 - 1 / classes) * 0.125)) < 0.02
        assert first_loss(classes, 1.0) < 1.6 * np.log(classes)
        assert first_loss(classes, 6.0) > 3 * np.log(classes)


def test_an_accuracy_said_to_climb_on_a_loss_said_to_barely_move_is_no_normal_start():
    text = ("Fine-tuning a 100-way classifier. The training loss started at 4.61 and barely moves after 20 epochs, but "
            "validation accuracy climbs to 64%.")
    d = diagnosis(text)
    assert d.verdict == "uncertain" and d.matches[0].entry.id == "WR-130"
    assert d.matches[0].parts["accuracy-rose-said"] > 0
    assert "accuracy-rose-said" not in weighed_parts(text.replace("climbs to", "does not improve from"), "WR-130")


@pytest.mark.parametrize("words", [
    "In my second run with clipping the spikes never came back.",           # another run, and the spikes stayed away
    "The validation accuracy never went back below 90%.",                    # a metric
    "It is still coming down; if it doesn't come back I'll lower the lr.",   # a condition
    "I'm worried it won't recover.",                                         # a fear
])
def test_never_came_back_said_of_something_else_leaves_a_recovering_bump_alone(words):
    from trainwreck.run_said import never_recovered_said
    assert never_recovered_said(words) == ""
    assert never_recovered_said("The loss jumps at step 1600 and never recovers.") == "never recovers"


@pytest.mark.parametrize("text, tried", [
    ("Loss goes nan at step 150 with Adam lr 1e-3. Same with lr 1e-4? No, with lr 1e-4 it trains fine.", "helped"),
    ("Loss goes nan at step 150 with Adam lr 1e-3. Not the same with lr 1e-5: that one trains fine.", "helped"),
    ("Loss goes nan at step 150 with Adam lr 1e-3. I'll try the same with lr 1e-5 tomorrow.", ""),
    ("Loss goes nan at step 150 with lr 1e-3. Same with lr 1e-5: nan at step 120, and it is still nan after step 2000.",
     "failed"),
    ("Loss goes nan at step 150 with lr 1e-3. Same with lr 1e-4, and each epoch just takes longer since I doubled the "
     "batch.", "failed"),
])
def test_the_sameness_said_first_is_read_only_where_it_is_told(text, tried):
    """(review_session46 H7) a question, "not the same", a plan, a place where the loss only stayed nan, a time per
    epoch: none is the same failure put off."""
    assert lr_tried(text) == tried


def test_review_s46_readings_stay_where_they_belong():
    """(review_session46 H8-H11, M1-M4) each reading, quiet on the sentence the reviewer showed it misread."""
    from trainwreck.class_count import classes_named
    from trainwreck.data_checked import data_said_finite
    from trainwreck.breaking_constructs import breaking_construct
    from trainwreck.input_scaling import standardised_by_hand
    from trainwreck.run_kind import linear_model
    from trainwreck.start_loss import uniform_start
    from trainwreck.logscan import scan as scan_bytes
    # H8: a padding mask beside words that every sequence holds a token
    said_full = ("nn.TransformerEncoder called with src_key_padding_mask=(ids == PAD). Every title has at least 3 real "
                 "tokens and I prepend a [CLS] that is never masked.")
    assert breaking_construct(said_full) == {}
    # H9: no division by a standard deviation, a guarded one, a layer's norm, advice not taken
    for text in ("I normalize the images manually by dividing by 255.", "I standardise the features manually as (x - mean) "
                 "/ (std + 1e-8).", "I wrote my own LayerNorm and normalize each token myself.",
                 "Someone suggested I should standardize the columns by hand, but I haven't yet."):
        assert standardised_by_hand(text) is None, text
    # H10: a linear model that says it has no hidden layers, or names an MLP it will try
    assert linear_model("Plain linear regression (no hidden layers) with SGD explodes to inf.")
    assert linear_model("Linear regression with SGD explodes; next I want to try an MLP.")
    # H11: checks not done, taken back, or of the run's own tensors
    for text in ("X has no nan but y has 3 nans.", "I should check that there are no nans in the inputs.",
                 "I assumed there are no nan in the data, but didn't check.", "I checked there is no nan in the hidden states.",
                 "isfinite(x).all() passes for the training set but fails on the test set."):
        assert data_said_finite(text) == "", text
    # M1: no softmax at the output; a capitalised Sigmoid with a categorical loss is no pairing Keras expects
    base = "A tf.keras model on 10 classes, Adam 1e-3. The loss stays at 2.30, accuracy at 0.10. "
    assert "pairing" not in weighed_parts(base + "The output layer has no softmax (linear), and I compile with "
                                                 "categorical_crossentropy.", "WR-130")
    assert weighed_parts(base + "Sigmoid output layer with categorical_crossentropy.", "WR-130").get("pairing", 0) >= 0
    # M2: a top-5 class accuracy, class-balanced batches, a class token name no class count
    for text in ("top-5 class accuracy stays at 5%", "batches of 64 class-balanced samples", "ViT with 1 class token"):
        assert classes_named(text) is None, text
    # M4: fairseq's bits: log2 V is its uniform start, and ln V in bits is no such start
    log = (ROOT / "tests" / "logs" / "fairseq" / "no_warmup_spike_in_bits.log").read_text()
    ev = scan_bytes(io.BytesIO((log + "The initial loss is 12.963, is that normal?\n").encode()), "r")
    assert "is log2 7992 = 12.96" in uniform_start(ev)
    ev = scan_bytes(io.BytesIO((log + "The initial loss is 8.99, is that normal?\n").encode()), "r")
    assert uniform_start(ev) == ""


def test_the_temperature_exp_stays_quiet_where_the_max_is_taken_off_or_the_tau_is_another():
    """(review_session46 M3, L3)"""
    stable = CONTRASTIVE.replace("divided by the temperature (0.01), exp,", "divided by the temperature (0.01), minus "
                                 "each row's max (sim - sim.max(dim=1, keepdim=True)), exp,")
    assert weighed_parts(stable, "WR-020").get("exp-overflow") is None
    gumbel = ("I wrote my own softmax layer: a Gumbel-softmax, exp((log p + g) / tau), with tau annealed to 0.005, and "
              "the cosine similarity head on top. PyTorch. The loss is nan.")
    assert weighed_parts(gumbel, "WR-020").get("exp-overflow") is None
    # (a temperature at a sentence's end is read)
    ended = CONTRASTIVE.replace("divided by the temperature (0.01), exp,", "divided by the temperature, then exp. "
                                "Temperature 0.01.")
    assert weighed_parts(ended, "WR-020").get("exp-overflow") == 1.0


def test_review_s46b_readings_stay_where_they_belong():
    """(review_session46b N1-N8, M-a-M-d) each reading, quiet on the sentence the second review showed it misread, and
    still read where it is told."""
    from trainwreck.data_checked import data_said_finite
    from trainwreck.frozen_said import one_output_said, weights_half
    from trainwreck.breaking_constructs import _none_empty_said
    from trainwreck.run_kind import linear_model
    from trainwreck.softmax_floor import accuracy_rose_said
    from trainwreck.start_loss import start_far_above_uniform
    from trainwreck.normals import normals_asked
    # N1: "initial" of another noun, a first stretch, a question, a regression, a denial
    for text in ("ResNet on CIFAR-10, initial learning rate 1e-3, loss 9.0 at epoch 20.",
                 "CIFAR-10, cross-entropy. In the first 100 steps the loss climbs to 12 and then nan.",
                 "Should the initial loss be 9.8 if I use label smoothing? CIFAR-10, cross-entropy.",
                 "MLP regressor with sigmoid hidden units; the initial loss (MSE) is 2500.",
                 "The initial loss is not 9.8 on CIFAR-10 with cross-entropy, it is 2.31."):
        assert start_far_above_uniform(text) == "", text
    assert start_far_above_uniform("CIFAR-10 with cross-entropy: the initial loss is 9.8.")      # (a number ending it)
    # N2: two sentences, a condition, a denial in a contraction, the validation loss
    for text in ("With the old code the accuracy reached 95%. Now the loss barely moves.",
                 "The accuracy doesn't improve, and the loss barely moves.",
                 "Train accuracy climbs to 99% but the validation loss barely changes."):
        assert accuracy_rose_said(text) == "", text
    # N3, N4: a buffer of 1e6, a return that rises beside an entropy that drops, an lr's cosine annealing
    for text, name in (("DQN on Pong with a replay buffer of 1e6 transitions. The q loss climbs from 0.01 to 0.4 while "
                        "the mean reward goes from -21 to 15. Is it diverging?", "a reinforcement-learning loss"),
                       ("PPO on CartPole. The value loss climbs from 5 to 90 while the mean return goes up and the "
                        "entropy drops. Is this normal?", "a reinforcement-learning loss")):
        assert any(n.name.startswith(name) for n in normals_asked(text)), text
    assert not any(n.name.startswith("a VAE") for n in normals_asked(
        "VAE on MNIST with cosine annealing of the learning rate. The total loss climbs. Is it diverging?"))
    # N5: a state gone, a constant predictor, a perfect classifier
    for text in ("Before the fix it gave the same prediction for every image; now it works.",
                 "A constant predictor outputs 0.5 for every input and gets 0.693.",
                 "Predictions are 0 for every negative sample and 1 for every positive one."):
        assert one_output_said(text) == "", text
    # N6: a doubt, or steps, is no count of tokens
    assert not _none_empty_said("I'm not sure every title has at least one token.")
    assert not _none_empty_said("It goes nan after at least 100 steps.")
    # N7: an MLP beside a linear baseline is layered
    assert not linear_model("Linear regression baseline is fine; my MLP with one hidden layer explodes with SGD.")
    # N8: a clean check followed by the run's own nan is still a clean check
    assert data_said_finite("I verified there are no nans in the inputs and targets, but the loss goes nan at epoch 3.")
    # M-a, M-b: a critic loss of -1e12 is no normal negative; "not WGAN" exempts nothing
    assert not any(n.name == "negative loss" for n in normals_asked(
        "WGAN-GP, the critic loss is -1e12 after 2k iterations. Is this normal that it is negative?"))
    assert weighed_parts("Vanilla GAN (not WGAN), the discriminator uses nn.BCELoss, and its loss goes negative, -2.7 at "
                         "iteration 3000. How can BCE be negative?", "WR-320").get("negative", 0) > 0
    # M-d: autocast's dtype is no float16 weight
    assert weights_half("with torch.autocast(device_type='cuda', dtype=torch.float16):") is None
    assert weights_half("My weights are not in fp16.") is None


def test_review_s46c_readings_stay_where_they_belong():
    """(review_session46c H1-H5, M1, M2, M4) each reading, quiet on the sentence the third review showed it misread."""
    from trainwreck.frozen_said import one_output_said, weights_frozen_said
    from trainwreck.breaking_constructs import _none_empty_said
    from trainwreck.run_kind import linear_model
    from trainwreck.start_loss import start_far_above_uniform
    from trainwreck.run_said import never_recovered_said
    from trainwreck.normals import GAN_BROKEN, RETURN_FELL, normals_asked
    assert one_output_said("Every event gets the same anomaly score.") == "every event gets the same anomaly score"
    for text in ("A naive model that always predicts class 0 gets 95%.", "Every sample gets the same label smoothing.",
                 "Every sample gets the same score threshold.",
                 "It gave the same prediction for every image at lr 0.1, now it works."):
        assert one_output_said(text) == "", text
    for text in ("The teacher weights are unchanged over all epochs.",
                 "With DDP the weights are identical on all ranks after 100 steps."):
        assert weights_frozen_said(text) == "", text
    for text in ("CIFAR-10 cross-entropy classifier: the initial loss is 6.9315e-01.",
                 "After the first loss spike to 9.8 at epoch 30 (CIFAR-10, cross-entropy) it recovered.",
                 "The initial loss isn't 9.8 on CIFAR-10 with cross-entropy."):
        assert start_far_above_uniform(text) == "", text
    assert linear_model("Linear regression with SGD explodes. Would an MLP do better?")
    assert not GAN_BROKEN.search("My images are the same size as in the tutorial.")
    assert not GAN_BROKEN.search("The samples were just noise in the first epoch but now look like faces.")
    assert not RETURN_FELL.search("The reward was stuck at first, then climbed to 300.")
    assert any(n.name == "negative loss" for n in normals_asked("Gaussian NLL loss at 1e6 iterations is -2.3. Is a "
                                                                 "negative loss normal?"))
    assert weighed_parts("I don't use WGAN: the discriminator uses nn.BCELoss and its loss goes negative, -2.7. How "
                         "can BCE be negative?", "WR-320").get("negative", 0) > 0
    assert not _none_empty_said("I assume every title has at least one token.")
    assert never_recovered_said("The val accuracy never recovered, while the loss went back to 0.3.") == ""


def test_a_jump_to_several_times_the_start_within_the_first_steps_said_in_words_is_no_warmups_face():
    """WR-250's symptom said with its numbers ("starts at 0.38, shoots up to about 1.9 within the first ~20 steps") is
    the no-warmup fact, and a failure said; not a rise of less than twice the start, nor with plain SGD, nor beside a
    warmup the paste sets, nor asked."""
    from trainwreck.start_loss import early_jump_said
    text = ("Transformer policy, my own loop, AdamW(lr=1e-3). The MSE starts at 0.38, shoots up to about 1.9 within the "
            "first ~20 steps and only gets back under 0.38 around step 600. The final score is far below the paper's.")
    assert early_jump_said(text) == "mse starts at 0.38, shoots up to about 1.9 within the first ~20 steps"
    d = diagnosis(text)
    assert d.verdict == "uncertain" and d.matches[0].entry.id == "WR-250" and d.matches[0].parts["early-jump"] > 0
    assert early_jump_said(text.replace("1.9", "0.6")) == ""
    assert early_jump_said(text.replace("AdamW", "SGD")) == ""
    assert "early-jump" not in weighed_parts(text + " warmup_steps=500", "WR-250")
    assert early_jump_said("Does the loss usually start at 0.4 and shoot up to 2 in the first steps?") == ""
    assert early_jump_said("AdamW. The loss starts at 0.4, shoots up to 2 in the first 20 steps, any idea why?")
    # (code_review_s47 H3: another quantity, a denial, another run's, a warmup said in words)
    for said in ("Accuracy starts at 0.1 and goes to 0.6 in the first 500 steps.",
                 "The learning rate starts at 0.0001 and climbs to 0.001 over the first 1000 steps.",
                 "The episode reward starts at 10 and climbs to 200 in the first 500 steps.",
                 "The gradient norm starts at 0.2 and jumps to 5 in the first steps.",
                 "The loss starts at 0.7 and didn't jump to 1.5 in the first steps like in the tutorial.",
                 "In the paper the loss starts at 0.4 and jumps to 2 in the first steps, mine doesn't.",
                 "With 500 warmup steps the loss starts at 0.4 and jumps to 2 in the first 20 steps."):
        assert early_jump_said("AdamW lr 1e-3. " + said) == "", said


def test_keras_mixed_float16_in_a_gradient_tape_loop_with_no_loss_scale_is_wr040s_underflow():
    """compile() wraps the optimizer in a LossScaleOptimizer under mixed_float16 (its auto_scale_loss, trainer.py at
    v3.15.1); a tf.GradientTape loop of the paste's own does not, unless it wraps it itself."""
    from trainwreck.loss_scale import keras_loop_unscaled
    text = ("Super-resolution CNN, Keras 3 on TF, MSE, Adam 1e-4, a custom training loop with tf.GradientTape. With "
            "keras.mixed_precision.set_global_policy(\"mixed_float16\") the PSNR stops improving after a few epochs; "
            "without that line it keeps improving. Nothing is nan.")
    assert keras_loop_unscaled(text) == 'set_global_policy("mixed_float16"'
    assert weighed_parts(text, "WR-040")["loop-unscaled"] > 0
    assert diagnosis(text).matches[0].entry.id == "WR-040"
    wrapped = text.replace("a custom training loop", "opt = keras.mixed_precision.LossScaleOptimizer(opt), a custom "
                           "training loop")
    assert keras_loop_unscaled(wrapped) == "" and keras_loop_unscaled(text.replace("tf.GradientTape", "model.fit")) == ""
    # (code_review_s47 M5, L4: fit(), the model's own optimizer -- the one compile() wrapped -- or a loop denied)
    assert keras_loop_unscaled(text + " model.fit(x, y)") == ""
    assert keras_loop_unscaled(text + " self.optimizer.apply_gradients(zip(grads, self.trainable_variables))") == ""
    assert keras_loop_unscaled(text.replace("a custom training loop with", "I don't use a custom loop with")) == ""
    assert "WR-040" in [m.entry.id for m in diagnosis(text).matches]
    # (s79/15: the policy said in words, "I set the mixed_float16 policy", and quoted as words; not denied)
    said = ("Keras U-Net with my own training loop (GradientTape and Adam). I set the mixed_float16 policy so that "
            "bigger tiles fit. The loss drops for a while and then goes flat at a level that is clearly bad.")
    assert keras_loop_unscaled(said) == "set the mixed_float16 policy"
    assert "(\"set the mixed_float16 policy\")" in " ".join(diagnosis(said).matches[0].evidence)
    assert keras_loop_unscaled(said.replace("I set the mixed_float16 policy", "I did not set the mixed_float16 policy")) \
        == ""


def test_pytorch_autocast_to_float16_with_no_gradscaler_is_wr040s_underflow():
    """Under torch.autocast to float16 the backward pass of each float16 op gives float16 gradients, and those under
    2^-25 round to 0 unless a GradScaler scales the loss first (PyTorch's AMP notes; checked in
    test_frameworks_autocast_unscaled). Beside gradients said to be exactly 0, the code shows what makes them so. Not
    autocast switched off, and a scaler only where it scales the loss (a scikit-learn scaler is none)."""
    from trainwreck.loss_scale import torch_autocast_unscaled
    loop = ("for x, y in loader:\n    with torch.autocast(device_type=\"cuda\", dtype=torch.float16):\n"
            "        loss = F.cross_entropy(model(x), y)\n    loss.backward()\n    opt.step()\n    opt.zero_grad()\n")
    assert torch_autocast_unscaled(loop) == 'autocast(device_type="cuda", dtype=torch.float16)'
    assert torch_autocast_unscaled("with torch.cuda.amp.autocast():\n    loss = f(x)\nloss.backward()") == \
        "cuda.amp.autocast()"
    for scaled in (loop.replace("loss.backward()", "scaler.scale(loss).backward()"),          # (a scaler)
                   loop.replace("torch.float16", "torch.bfloat16"),                             # (no scaler needed)
                   loop.replace('device_type=\"cuda\", dtype=torch.float16', '\"cpu\"'),      # (bfloat16 on a CPU)
                   loop.replace("loss.backward()", "print(loss)"),                              # (no backward)
                   loop.replace("dtype=torch.float16", "dtype=torch.float16, enabled=False")):  # (switched off)
        assert torch_autocast_unscaled(scaled) == "", scaled
    assert torch_autocast_unscaled(loop.replace('device_type=\"cuda\", dtype=torch.float16', '"cuda", torch.float16'))
    assert torch_autocast_unscaled("from torch.cuda.amp import autocast\nwith autocast():\n    loss = f(x)\nloss.backward()")
    assert torch_autocast_unscaled("X = scaler.fit_transform(X)\n" + loop)        # (scikit-learn's, not a loss scale)
    text = ("Transformer LM, mixed precision to fit on a T4:\n" + loop + "It trains at first, then stops improving "
            "after a few thousand steps, while the fp32 run keeps going. About a third of the .grad entries of the "
            "first layers are exactly 0.0 in the fp16 run.")
    assert weighed_parts(text, "WR-040")["loop-unscaled"] > 0
    assert weighed_parts(text, "WR-040")["flushed"] == weighed_parts(text, "WR-140")["zero-gradient"]
    assert diagnosis(text).matches[0].entry.id == "WR-040"
    scaled = text.replace("loss.backward()", "scaler.scale(loss).backward()")
    assert "loop-unscaled" not in weighed_parts(scaled, "WR-040")
    assert weighed_parts(scaled, "WR-040")["flushed"] < weighed_parts(scaled, "WR-140")["zero-gradient"]


TF_STEP = ("class M(keras.Model):\n    def train_step(self, data):\n        x, y = data\n"
           "        with tf.GradientTape() as tape:\n            loss = self.compute_loss(y=y, y_pred=self(x, training=True))\n"
           "        grads = tape.gradient(loss, self.trainable_variables)\n"
           "        clipped, gnorm = tf.clip_by_global_norm(grads, 1.0)\n"
           "        self.optimizer.apply_gradients(zip(grads, self.trainable_variables))\n"
           "        return {'loss': loss}\n")
# (a Keras log of the climb such a step makes: the curve beside it)
TF_CLIMB = "".join(f"Epoch {e}/30\n2074/2074 - 66ms/step - loss: {v}\n" for e, v in
                   enumerate(["0.3318", "0.2406", "0.2527", "0.6843", "3.9120", "nan"], 1))


def test_a_clip_whose_result_the_update_never_uses_is_clipping_that_does_not_clip():
    """TensorFlow's clips return new tensors: clipped into `clipped` and `grads` applied, the update is unclipped, as a
    clip after PyTorch's step() is. Not where the clipped name is applied, nor where only the words name it."""
    from trainwreck.clip_unused import unused_clip
    fact, fix = unused_clip(TF_STEP)
    assert "clips into `clipped`" in fact and "applies `grads`" in fact
    assert fix.startswith("Apply the clipped gradients: `apply_gradients(zip(clipped, ...))`")
    assert unused_clip(TF_STEP.replace("zip(grads,", "zip(clipped,")) is None
    each = TF_STEP.replace("clipped, gnorm = tf.clip_by_global_norm(grads, 1.0)",
                           "clipped = [tf.clip_by_norm(g, 1.0) for g in grads]")
    assert unused_clip(each) and unused_clip(each.replace("zip(grads,", "zip(clipped,")) is None
    assert unused_clip(TF_STEP + "\nThe clipped run diverges too.\n")           # (the words' "clipped" is no use of it)
    log = TF_CLIMB
    d = diagnosis(TF_STEP + log)
    assert d.matches[0].entry.id == "WR-240" and d.matches[0].fix.startswith("Apply the clipped gradients")
    assert diagnosis(TF_STEP.replace("zip(grads,", "zip(clipped,") + log).matches[0].entry.id != "WR-240"


def test_a_tensorflow_clip_called_for_nothing_is_clipping_that_does_not_clip():
    """(s80/16) `tf.clip_by_global_norm(gradients, 1.0)` as a statement of its own keeps nothing it returns, and
    TensorFlow's clips change no tensor in place: the update applies the gradients unclipped, WR-240's form. Not a
    clip whose result is kept or returned, not one the optimizer does itself, not a sentence that names the call."""
    from trainwreck.clip_unused import discarded_clip
    bare = TF_STEP.replace("clipped, gnorm = tf.clip_by_global_norm(grads, 1.0)", "tf.clip_by_global_norm(grads, 1.0)")
    fact, fix = discarded_clip(bare)
    assert "calls `tf.clip_by_global_norm(grads, 1.0)` as a statement of its own" in fact
    assert fix.startswith("Keep what the clip returns and apply that")
    assert discarded_clip(TF_STEP) is None
    assert discarded_clip(bare.replace("        tf.clip_by_global_norm", "        return tf.clip_by_global_norm")) is None
    assert discarded_clip("opt = keras.optimizers.Adam(1e-3, global_clipnorm=1.0)\n" + bare) is None
    assert discarded_clip("tf.clip_by_global_norm(grads, 1.0) did not help, the loss still went nan\n") is None
    log = TF_CLIMB
    d = diagnosis(bare + log)
    assert d.matches[0].entry.id == "WR-240" and d.matches[0].fix.startswith("Keep what the clip returns")
    assert diagnosis(TF_STEP.replace("zip(grads,", "zip(clipped,") + log).matches[0].entry.id != "WR-240"


def test_a_clip_handed_the_generator_the_optimizer_used_up_clips_nothing():
    """(s82/15) `params = model.parameters()` is a generator; the optimizer's constructor lists it, so
    clip_grad_norm_(params, ...) afterwards finds no tensors, clips nothing and returns 0: WR-240's form. Not a list
    of the parameters, not a name bound again before the clip, not a clip given model.parameters() itself."""
    from trainwreck.clip_unused import spent_clip
    loop = ("params = model.parameters()\noptimizer = torch.optim.SGD(params, lr=0.05, momentum=0.9)\n"
            "for step, batch in enumerate(loader):\n    optimizer.zero_grad()\n    loss = model(batch).mean()\n"
            "    loss.backward()\n    gn = torch.nn.utils.clip_grad_norm_(params, max_norm=1.0)\n"
            "    optimizer.step()\n")
    fact, fix = spent_clip(loop)
    assert "`params = model.parameters()` can be iterated only once" in fact and fact.endswith("returns a norm of 0")
    assert "`params = list(model.parameters())`" in fix
    assert spent_clip(loop.replace("model.parameters()", "list(model.parameters())")) is None
    assert spent_clip(loop.replace("for step,", "params = list(model.parameters())\nfor step,")) is None
    assert spent_clip(loop.replace("clip_grad_norm_(params,", "clip_grad_norm_(model.parameters(),")) is None
    assert spent_clip(loop.replace("params = model.parameters()",
                                   "params = filter(lambda p: p.requires_grad, model.parameters())"))
    assert spent_clip(loop.replace("SGD(params,", "AdamW(params=params,"))
    log = "".join(f"step {s:5d} loss {v} grad_norm 0.0000\n" for s, v in
                  [(0, "1.3862"), (500, "0.5127"), (1000, "0.4873"), (1500, "0.5312"), (2000, "1.9046"),
                   (2500, "23.7718"), (3000, "nan")])
    d = diagnosis(loop + log)
    assert d.matches[0].entry.id == "WR-240" and d.matches[0].fix.startswith("Give the clip the parameters themselves")
    # (the norms printed, all 0 and below the threshold, say the clip never engaged either way: without them)
    plain = log.replace(" grad_norm 0.0000", "")
    assert diagnosis(loop + plain).matches[0].entry.id == "WR-240"
    assert diagnosis(loop.replace("model.parameters()", "list(model.parameters())") + plain).matches[0].entry.id \
        != "WR-240"


def test_a_loop_that_updates_each_weight_from_its_grad_by_hand_and_never_clears_it_piles_the_gradients_up():
    """A from-scratch engine's loop (micrograd's style) updates `p.data -= lr * p.grad` after backward(): with no
    `p.grad = 0` anywhere, each step's gradient is the sum of every one before, WR-260's construct; clearing it by hand
    (`p.grad = 0.0`, `w.grad.zero_()`) is no such loop."""
    loop = ("for step in range(1000):\n    loss = batch_loss(X[idx], y[idx])\n    loss.backward()\n"
            "    for p in model.parameters():\n        p.data -= 0.05 * p.grad\n")
    said = "The loss drops, then creeps back up and at step 171 it is nan.\n"
    parts = weighed_parts(loop + said, "WR-260")
    assert parts["never-cleared"] == 1.0
    assert any("updates each weight from its .grad by hand" in e for e in diagnosis(loop + said).matches[0].evidence)
    for clear in ("        p.grad = 0.0\n", "        p.grad.zero_()\n", "    model.zero_grad()\n"):
        assert "never-cleared" not in weighed_parts(loop + clear + said, "WR-260"), clear


def test_a_jax_array_filled_by_an_at_update_whose_result_is_thrown_away_keeps_its_zeros():
    """JAX arrays are immutable: `W.at[:, :].set(...)` as a statement of its own leaves W as jnp.empty or jnp.zeros made
    it, WR-110's zero start; assigned back (`W = W.at[...].set(...)`), or on an array made otherwise, it is no such
    thing."""
    from trainwreck.weight_init import update_discarded
    init = ("def init(key, n_in, n_out):\n    W = jnp.empty((n_in, n_out))\n"
            "    W.at[:, :].set(jax.random.normal(key, (n_in, n_out)) * 0.05)\n    return W, jnp.zeros(n_out)\n")
    assert "keeps what jnp.empty() gave it" in update_discarded(init)
    assert update_discarded(init.replace("    W.at[", "    W = W.at[")) == ""
    assert update_discarded(init.replace("jnp.empty((n_in, n_out))", "jax.random.normal(key, (n_in, n_out))")) == ""
    log = "".join(f"epoch {e}  loss {v}\n" for e, v in enumerate(["3.258143", "3.258109", "3.258102", "3.258101"], 1))
    assert diagnosis(init + log + "The loss does not move.").matches[0].entry.id == "WR-110"


def test_a_term_times_the_log_of_itself_written_by_hand_is_the_log_of_zero_construct():
    """A KL divergence or an entropy by hand, `t * torch.log(t / p)`, `p * np.log(p)`, is nan where the term is exactly
    0 (0 * -inf): WR-030's construct; not xlogy, nor a log with something added inside it."""
    from trainwreck.breaking_constructs import breaking_construct
    code = ("def kl_loss(logits, target):\n    p = torch.softmax(logits, dim=1)\n"
            "    return (target * torch.log(target / p)).sum(dim=1).mean()\n")
    assert "takes a term times the log of itself by hand" in breaking_construct(code)["log-unguarded"]
    assert "log-unguarded" in breaking_construct("ent = -(p * np.log(p)).sum()\n")
    for safe in ("    return torch.xlogy(target, target / p).sum(dim=1).mean()\n",
                 "    return (target * torch.log(target / p + 1e-8)).sum(dim=1).mean()\n"):
        assert "log-unguarded" not in breaking_construct(code.replace(code.splitlines()[-1] + "\n", safe)), safe
    said = code + "The first printed loss is already nan.\nRuntimeError: Function 'LogBackward0' returned nan values in its 0th output.\n"
    assert diagnosis(said).matches[0].entry.id == "WR-030"


def test_a_flax_model_that_returns_a_softmax_handed_to_an_optax_cross_entropy_is_probabilities_as_logits():
    """optax's cross-entropies take logits, as PyTorch's do: a Flax `__call__` that returns `nn.softmax(x)` hands them
    probabilities (WR-130's pairing); one that returns the logits does not."""
    code = ("class MLP(nn.Module):\n    @nn.compact\n    def __call__(self, x):\n        x = nn.relu(nn.Dense(512)(x))\n"
            "        x = nn.Dense(47)(x)\n        return nn.softmax(x)\n\n"
            "def loss_fn(params, xb, yb):\n"
            "    return optax.softmax_cross_entropy_with_integer_labels(model.apply(params, xb), yb).mean()\n")
    said = "The loss only goes from 3.85 to 3.11 in 20 epochs while the accuracy reaches 93%."
    parts = weighed_parts(code + said, "WR-130")
    assert parts["pairing"] > 0
    assert diagnosis(code + said).matches[0].entry.id == "WR-130"
    assert "pairing" not in weighed_parts(code.replace("return nn.softmax(x)", "return x") + said, "WR-130")
    # (said in a sentence too: "`__call__` ends with `return nn.softmax(x)`")
    told = ("Flax MLP, `__call__` ends with `return nn.softmax(x)` and the loss is "
            "`optax.softmax_cross_entropy_with_integer_labels(logits, y)`. " + said)
    assert weighed_parts(told, "WR-130")["pairing"] > 0


def test_a_regressions_enormous_first_loss_said_in_words_is_raw_targets():
    """"The MSE starts at 3.1e7", with no loss printed, in a regression whose targets the words do not say were scaled:
    a squared error that large takes errors of thousands, targets in their raw units (half a fact, said). Not an
    ordinary first loss, nor targets said standardised, nor asked."""
    text = ("Stellar temperature regression in K, PyTorch MLP 40 -> 256 -> 1, MSELoss, Adam 1e-3, features all "
            "standardised. The MSE starts at 3.1e7 and after 300 epochs is still ~6e5.")
    parts = weighed_parts(text, "WR-360")
    assert parts["raw-targets-said"] > 0
    assert diagnosis(text).matches[0].entry.id == "WR-360"
    assert "raw-targets-said" not in weighed_parts(text.replace("3.1e7", "1.2"), "WR-360")
    assert "raw-targets-said" not in weighed_parts(text.replace("features all standardised",
                                                                "targets standardised with the train mean"), "WR-360")
    assert "raw-targets-said" not in weighed_parts(text.replace("The MSE starts at 3.1e7 and",
                                                                "Should the MSE start at 3.1e7? It"), "WR-360")


RESIDUAL = ("Residual MLP, 9 classes, CrossEntropyLoss, ReLU: Linear(93, 512) -> 16 blocks of x + Linear(ReLU(Linear(x))) "
            "-> Linear(512, 9), no normalisation.\n```python\ndef init_weights(m):\n    if isinstance(m, nn.Linear):\n"
            "        nn.init.normal_(m.weight, mean=0.0, std=0.1)\n        nn.init.zeros_(m.bias)\n```\n")
RESIDUAL_LOG = "".join(f"epoch 0 step {s:4d}  loss {v}\n" for s, v in ((0, "1.1262e+12"), (100, "7.4410e+11"),
                                                                      (200, "6.9325e+11"), (300, "5.1178e+11")))


def test_a_classifiers_loss_that_never_leaves_the_enormous_range_is_an_enormous_start_even_in_a_few_values():
    """A cross-entropy the paste names beside the classes it names is a classifier's, with no accuracy printed: one that
    starts at 1e12 and stays past the bound is broken from the start, though it halved and only four values are
    printed. A loss that fell out of the range, or no classifier named, is not."""
    from trainwreck.curve_shape import signature_of
    from trainwreck.logscan import scan_text
    assert signature_of(scan_text(RESIDUAL + RESIDUAL_LOG, "r")).enormous_start
    fell = RESIDUAL_LOG.replace("5.1178e+11", "2.31")
    assert not signature_of(scan_text(RESIDUAL + fell, "r")).enormous_start
    assert not signature_of(scan_text(RESIDUAL.replace("9 classes, CrossEntropyLoss", "MSE") + RESIDUAL_LOG,
                                      "r")).enormous_start


def test_a_fixed_std_below_one_that_is_too_large_for_wide_layers_is_a_large_initial_scale():
    """std 0.1 for layers of 512 inputs is 0.1·√(512/2) = 1.6 times He's scale: with ReLU each layer multiplies the
    spread by about 1.6, 16 of them by about 1.8e3. Not at He's scale, nor for narrow layers, nor without ReLU."""
    from trainwreck.weight_init import init_too_wide
    fact = init_too_wide(RESIDUAL)
    assert "He's scale for ReLU there is √(2 / 512) = 0.0625" in fact and "about 1.6, and 16 layers by about 1.84e+03" in fact
    assert init_too_wide(RESIDUAL.replace("std=0.1", "std=0.06")) == ""
    assert init_too_wide(RESIDUAL.replace("Linear(93, 512)", "Linear(93, 32)").replace("Linear(512, 9)",
                                                                                        "Linear(32, 9)")) == ""
    assert init_too_wide(RESIDUAL.replace("ReLU", "Tanh")) == ""
    d = diagnosis(RESIDUAL + RESIDUAL_LOG + "Inputs checked: every column has mean ~0 and std ~1.")
    assert d.matches[0].entry.id == "WR-120" and d.matches[0].parts["large-init"] > 0


def test_inputs_said_to_have_a_standardisations_statistics_were_scaled():
    from trainwreck.input_scaling import scaled_said
    assert scaled_said("Inputs checked: no nan/inf, every column has mean ~0 and std ~1.")["scaled"] == {
        "inputs": "column has mean ~0 and std ~1"}
    for text in ("Do the inputs have mean 0 and std 1?", "I assumed the columns have mean 0 and std 1.",
                 "The targets have mean 0 and std 1."):
        assert "inputs" not in scaled_said(text)["scaled"], text


def test_a_loss_scale_that_grew_while_training_and_then_collapsed_to_zero_is_a_scale_collapse():
    """The printed scale rose to 131072 while the run trained, then fell to 0 once the loss went nan: judged from its
    highest value on, it collapsed and never rose again. A scale that fell and rose again did not."""
    rows = [("500", "1.8822", "65536.0"), ("1000", "0.9137", "65536.0"), ("2500", "0.3592", "131072.0"),
            ("3500", "0.2820", "131072.0"), ("3600", "nan", "9.094947017729282e-13"), ("3700", "nan", "0.0"),
            ("3800", "nan", "0.0")]
    log = "torch.autocast(device_type='cuda', dtype=torch.float16) with GradScaler\n" + "".join(
        f"it {i}  loss {v}  scale {s}\n" for i, v, s in rows)
    assert weighed_parts(log, "WR-040")["scale-collapse"] > 0
    rose = log.replace("scale 0.0\n", "scale 65536.0\n", 1)
    assert "scale-collapse" not in weighed_parts(rose, "WR-040")


@pytest.mark.parametrize("said", ["No nan in the patches (I assert on every batch).",
                                  "There are no nan in the generated instances, I checked."])
def test_data_said_clean_in_the_words_of_its_kind_is_a_clean_check(said):
    from trainwreck.data_checked import data_said_finite
    assert data_said_finite(said)
    # (not a chart or a clip of the run's: code_review_s47b L1)
    assert data_said_finite("The TensorBoard graphs show no nan until step 3000.") == ""
    assert data_said_finite("The gradient clip shows no nan.") == ""


def test_mxnets_grad_req_add_with_no_zero_grad_is_gradients_that_pile_up():
    """Gluon overwrites each gradient on backward() unless grad_req='add' is set, which sums into it until zero_grad():
    set and never cleared, every step carries all the gradients before it (WR-260); cleared, it is accumulation done
    right."""
    code = ("for p in net.collect_params().values():\n    p.grad_req = 'add'\n"
            "for i, (x, y) in enumerate(train_data):\n    with autograd.record():\n        loss = loss_fn(net(x), y)\n"
            "    loss.backward()\n    if (i + 1) % 4 == 0:\n        trainer.step(128)\n")
    said = "The loss drops in epoch 0, then swings wider every epoch until nan."
    assert any("sets grad_req='add'" in e for e in diagnosis(code + said).matches[0].evidence)
    assert weighed_parts(code + said, "WR-260")["never-cleared"] > 0
    cleared = code + "        net.collect_params().zero_grad()\n"
    assert "never-cleared" not in weighed_parts(cleared + said, "WR-260")


def test_a_lower_rate_that_looks_the_same_just_stretched_out_put_the_failure_off():
    from trainwreck.rate_tried import lr_tried
    assert lr_tried("With learning_rate 0.001 it looks the same, just stretched out: nan in epoch 7.") == "delayed"
    assert lr_tried("With lr 0.001 it looks the same.") == "failed"


def test_a_softmax_floor_said_with_rounded_numbers_beside_a_high_accuracy():
    """"Train acc 0.97 but the loss won't go below ~0.95" for 5 varieties: log(1 + 4/e) = 0.9048, and a value in words
    is rounded, so beside an accuracy of 95% or more it may sit up to 6% above the floor; below 95%, 2%."""
    from trainwreck.softmax_floor import softmax_floor_said
    text = ("ResNet-18 on rice images, 5 varieties, CrossEntropyLoss: train acc 0.97 but the loss won't go below ~0.95.")
    assert "log(1 + (C - 1)/e) = 0.9048 for C = 5 classes" in softmax_floor_said(text)
    assert softmax_floor_said(text.replace("acc 0.97", "acc 0.92")) == ""
    assert softmax_floor_said(text.replace("~0.95", "~0.99")) == ""


def test_a_value_said_to_one_decimal_stands_for_what_it_rounds_from_and_a_class_count_in_words_counts():
    """review s73/21: "three classes per pixel", and the loss "sits at about 0.6" at 95% pixel accuracy: log(1 + 2/e) =
    0.5514, and 0.6 said to one decimal is anything from 0.55 to 0.65. Before, neither the count in words nor the value
    after "about" was read. Said to two decimals (0.60), it is 8.8% above the floor: too far."""
    from trainwreck.class_count import classes_named
    from trainwreck.softmax_floor import softmax_floor_said
    text = ("U-Net in Flax, three classes per pixel. The loss hardly goes down and then sits at about 0.6 for the rest "
            "of training, although the pixel accuracy on validation is already 95%.")
    assert "log(1 + (C - 1)/e) = 0.5514 for C = 3 classes" in softmax_floor_said(text)
    assert softmax_floor_said(text.replace("0.6 ", "0.60 ")) == ""
    assert softmax_floor_said(text.replace("0.6 ", "0.7 ")) == ""
    assert classes_named("a twelve-way classifier") == (12, "the paste says `twelve-way`")
    assert classes_named("one of the classes") is None and classes_named("the two losses") is None
    # (a split or an augmentation said "-way", labels an image carries: no class count; a dataset's count is surer)
    assert classes_named("two-way data augmentation") is None and classes_named("each image has two labels") is None
    assert classes_named("ResNet-50 on CIFAR-100 with a three-way split of the data.")[0] == 100


def test_julias_broadcast_exp_in_a_softmax_written_by_hand_is_the_unshifted_exp():
    """Julia's `exp.(s) ./ sum(exp.(s))` is a softmax by hand with nothing subtracted: WR-020's construct, as NumPy's
    is; with the maximum subtracted (`s .- maximum(s)`) it is not."""
    from trainwreck.breaking_constructs import breaking_construct
    assert "exp-unshifted" in breaking_construct("a = exp.(s) ./ sum(exp.(s); dims=1)")
    assert breaking_construct("a = exp.(s .- maximum(s)) ./ sum(exp.(s .- maximum(s)))") == {}


def test_pytorchs_normal_init_with_no_std_and_a_binary_cross_entropy_that_starts_at_1e18():
    """`nn.init.normal_(layer.weight)` draws at its default std of 1.0: a large initial scale, as std=1 written out is;
    and a BCEWithLogitsLoss, a binary classifier's by its name, that starts at 2.9e18 and stays past 1e4 is an
    enormous start though it falls by a decade (no accuracy printed). Not a bias's or an embedding's normal_."""
    from trainwreck.curve_shape import signature_of
    from trainwreck.logscan import scan_text
    from trainwreck.weight_init import LARGE_INIT
    assert LARGE_INIT.search("        nn.init.normal_(layer.weight)\n")
    assert not LARGE_INIT.search("nn.init.normal_(layer.bias)") and not LARGE_INIT.search("nn.init.normal_(self.emb.weight)")
    code = ("self.layers = nn.ModuleList(nn.Linear(a, b) for a, b in zip(dims[:-1], dims[1:]))\n"
            "for layer in self.layers:\n    nn.init.normal_(layer.weight)\ncriterion = nn.BCEWithLogitsLoss()\n")
    log = "".join(f"step {s:5d} | loss {v}\n" for s, v in ((0, "2.9134e+18"), (100, "1.3702e+18"), (200, "7.0413e+17"),
                                                            (300, "1.8821e+18"), (400, "4.4390e+17"), (500, "1.4471e+17")))
    assert signature_of(scan_text(code + log, "r")).enormous_start
    d = diagnosis(code + log)
    assert d.matches[0].entry.id == "WR-120" and d.matches[0].parts["large-init"] > 0
    assert not signature_of(scan_text(code.replace("nn.BCEWithLogitsLoss()", "nn.MSELoss()") + log, "r")).enormous_start


def test_describe_transposed_with_columns_on_very_different_scales_is_unnormalised_inputs():
    """describe().T prints a row per feature under a header naming min and max: ranges of 5.4e5 beside 1.0 are features
    on very different scales, as the untransposed table's are; rows of one scale are not."""
    from trainwreck.input_scaling import feature_scales_printed
    table = ("              mean          std          min          max\n"
             "DEPTH_MD   2184.14      997.09     136.08     5436.63\n"
             "X_LOC    485631.09    34812.23  426062.62   572632.93\n"
             "RHOB         2.289       0.244      0.720       3.454\n"
             "NPHI         0.312       0.111     -0.035       1.000\n")
    assert "one column spans 1.466e+05, another 1.035" in feature_scales_printed(table)
    same = "      mean  std   min   max\na    0.1  1.0  -2.0  2.0\nb    0.0  1.0  -3.0  3.1\n"
    assert feature_scales_printed(same) == ""


def test_a_forward_that_returns_a_sigmoid_with_a_comment_after_it_still_returns_probabilities():
    from trainwreck.loss_inputs import model_output
    code = ("class Net(nn.Module):\n    def forward(self, a, b):\n        x = self.decoder(a - b)\n"
            "        return torch.sigmoid(self.head(x))           # change probability map\n\n"
            "class Module(L.LightningModule):\n    def __init__(self):\n        self.loss_fn = nn.BCEWithLogitsLoss()\n")
    assert model_output(code).group(0).startswith("return torch.sigmoid(self.head(x))")
    assert weighed_parts(code + "The F1 keeps improving but the loss is stuck around 0.68.", "WR-130")["pairing"] > 0
    assert model_output(code.replace("torch.sigmoid(self.head(x))", "self.head(x)")) is None


def test_review_s47b_readings_stay_where_they_belong():
    """(code_review_s47b) each new reading, quiet on the text the second review showed it misread."""
    from trainwreck.clip_unused import unused_clip
    from trainwreck.breaking_constructs import breaking_construct
    from trainwreck.gradient_clearing import clears
    from trainwreck.input_scaling import scaled_said
    from trainwreck.loss_inputs import model_output
    from trainwreck.weight_init import init_too_wide, update_discarded
    from trainwreck.rate_tried import lr_tried
    from trainwreck.logscan.dialects.tensorboard_csv import _other_tag
    # H1: the ConvergenceWarning beside a model said not to have learned is no normal answer
    warned = ("MLPClassifier(max_iter=300) warns: ConvergenceWarning: Stochastic Optimizer: Maximum iterations (300) "
              "reached and the optimization hasn't converged yet. ")
    for said in ("Accuracy is stuck at 10% (chance), the loss stays at 2.30 the whole time.",
                 "R^2 on the test set is -3.2, much worse than predicting the mean."):
        assert diagnosis(warned + said).verdict != "normal", said
    # H2: a training run at the finder's rate that diverges is no finder's sweep
    for said in ("The LR finder plot looked fine and I picked 1e-3, but the training loss diverges after 2 epochs.",
                 "The lr finder curve suggested 1e-3; training at that rate the loss diverges in epoch 3."):
        assert diagnosis(said).verdict != "normal", said
    # H3: an .at[] update whose result a statement opened above keeps, or a name made again since
    for code in ("W = jnp.zeros((n_in, n_out))\nW = (\n    W.at[:, :].set(init)\n)\n",
                 "W = jnp.zeros((3, 3))\nreturn (\n    W.at[:, :].set(init),\n    b)\n",
                 "W = jnp.zeros((3, 3))\nW = jax.random.normal(key, (3, 3))\nW.at[0].set(0.)\n"):
        assert update_discarded(code) == "", code
    # H4: a clip thrown into `_`, or an optimizer that clips itself
    step = "_, gnorm = tf.clip_by_global_norm(grads, 1.0)\noptimizer.apply_gradients(zip(grads, model.trainable_variables))\n"
    assert unused_clip(step) is None
    assert unused_clip("opt = tf.keras.optimizers.Adam(1e-3, global_clipnorm=1.0)\n" + step.replace("_, gnorm", "c, n")) is None
    # M1: clears by hand in other spellings, and grad_req='add' denied
    # (not a new leaf, `w.detach().requires_grad_()`: the third review showed it is an adversarial input's too)
    for clear in ("p.grad.fill_(0)", "p.grad *= 0", "p.grad[:] = 0", "p.grad.data = torch.zeros_like(p.data)",
                  "p.grad()[:] = 0"):
        assert clears(clear), clear
    denied = ("I do not use grad_req='add'; the default overwrites.\nloss.backward()\ntrainer.step(batch_size)\n"
              "The loss goes nan at epoch 3.")
    assert "never-cleared" not in weighed_parts(denied, "WR-260")
    # M2: a term times its log kept off 0: clamped, masked, under a condition, or asked
    for code in ("probs = torch.softmax(z, 1).clamp(min=1e-8)\nent = -(probs * torch.log(probs)).sum(1).mean()\n",
                 "if p > 0:\n    h -= p * math.log(p)\n", "h = -sum(p * math.log(p) for p in q if p > 0)\n",
                 "nz = t > 0\nkl = (t[nz] * torch.log(t[nz] / p[nz])).sum()\n",
                 "Would computing the entropy bonus as p * log(p) by hand be a problem?\n"):
        assert "log-unguarded" not in breaking_construct(code), code
    # M3: a summed loss, a regression that learns, another run's number
    for text in ("Regression, MLP 40 -> 256 -> 1, loss = ((pred - y)**2).sum(). The loss starts at 3.1e7 and after 300 "
                 "epochs is still ~6e5.",
                 "House-price regression in dollars, MSE. The MSE starts at 4.2e10 and falls steadily to 9.1e8 by epoch "
                 "50; validation R^2 is 0.91. Is this normal?",
                 "Regression, MSE. In the tutorial I copied, the MSE starts at 3.1e7; mine starts at 0.9 and after 300 "
                 "epochs is still 0.85."):
        assert "raw-targets-said" not in weighed_parts(text, "WR-360"), text
    # M4: a predictor's __call__ is not the model's output
    helper = ("class Net(nn.Module):\n    def forward(self, x):\n        return self.fc2(F.relu(self.fc1(x)))\n\n"
              "class Predictor:\n    def __call__(self, x):\n        return torch.softmax(self.model(x), dim=1)\n")
    assert model_output(helper) is None
    # M5: label smoothing lifts the loss off the floor, a denial elsewhere in the sentence notwithstanding
    smoothed = ("ResNet-18, 3 classes, nn.CrossEntropyLoss(label_smoothing=0.25), Adam 1e-3: train acc 0.97, val acc "
                "0.95, but the loss won't go below ~0.57. Is something wrong?")
    assert "softmax-floor" not in weighed_parts(smoothed, "WR-130")
    # M6: the same only at first, then trains fine: the lower rate helped
    assert lr_tried("With lr 1e-4 it looks the same for two epochs, then it trains fine and reaches 91%.") == "helped"
    # M8: a loss export introduced by the run's settings or its dataset's name
    csv = b"\n\nWall time,Step,Value\n1,0,0.5\n"
    assert not _other_tag(b"CSV from TensorBoard for the lr=3e-3 run:" + csv)
    assert not _other_tag(b"Exported from TensorBoard, the run on the street-map dataset:" + csv)
    # M9: one class predicted for every image is not answered as the gap (the third review: the accuracies' closeness
    # is no test, a validation score above the training one being the gap's own case; one output for every input is)
    close = ("Train accuracy 0.98 and validation accuracy 0.97, but on the test set the model predicts class 3 for "
             "every image. Is something wrong?")
    assert diagnosis(close).verdict != "normal"
    # M10: narrow hidden layers, normalised layers, an embedding's init, a ResNet's depth named
    assert init_too_wide("ReLU. Linear(4096, 64), then Linear(64, 64) repeated, Linear(64, 10): 11 layers. "
                         "nn.init.normal_(m.weight, std=0.05)") == ""
    assert init_too_wide("ReLU. Linear(1024, 1024) then BatchNorm1d(1024), 12 layers. "
                         "nn.init.normal_(m.weight, std=0.1)") == ""
    # L5: statistics of the targets, or of another set
    assert scaled_said("Every column of y has mean 0 and std 1.")["scaled"] == {}
    assert scaled_said("The data with mean 0 and std 1 was the synthetic set, my real inputs range to 5000.")[
        "scaled"] == {}


def test_a_class_count_taken_as_the_number_of_distinct_labels_with_no_remap_is_a_label_the_loss_cannot_take():
    """`num_classes = len(np.unique(y_train))` counts the labels that occur: with one value missing (0..24 without 9),
    the largest label is past C - 1. Not where the labels are mapped onto 0..C-1 (LabelEncoder, return_inverse)."""
    code = ("y = df['label'].to_numpy()\nnum_classes = len(np.unique(y_train))\nmodel = CNN(num_classes=num_classes)\n"
            "loss = optax.softmax_cross_entropy_with_integer_labels(logits, y).mean()\n")
    said = "The loss is nan from step 0."
    assert weighed_parts(code + said, "WR-320")["classes-counted"] > 0
    assert "WR-320" in [m.entry.id for m in diagnosis(code + said).matches]
    for remap in ("y_train = LabelEncoder().fit_transform(y_train)\n",
                  "classes, y_train = np.unique(y_train, return_inverse=True)\n"):
        assert "classes-counted" not in weighed_parts(remap + code + said, "WR-320"), remap
    assert "classes-counted" in weighed_parts("n_classes = df.label.nunique()\n" + said, "WR-320")


def test_review_s47c_readings_stay_where_they_belong():
    """(code_review_s47c) the mends of the second review, held to the third review's examples both ways."""
    from trainwreck.clip_unused import unused_clip
    from trainwreck.logscan.dialects.tensorboard_csv import _other_tag
    from trainwreck.breaking_constructs import breaking_construct
    from trainwreck.gradient_clearing import clears
    from trainwreck.input_scaling import scaled_said
    from trainwreck.weight_init import init_too_wide
    from trainwreck.rate_tried import lr_tried

    def normal_names(text):
        d = diagnosis(text)
        return [n.name for n in d.normal] if d.verdict == "normal" else []
    warned = ("MLPClassifier(max_iter=200) warns: ConvergenceWarning: Stochastic Optimizer: Maximum iterations (200) "
              "reached and the optimization hasn't converged yet. ")
    # H1: a flat or climbing loss is no normal stop; M1: a score far above chance, or a nan denied, is
    for said in ("The loss stays at 2.30 the whole time.",
                 "The loss_curve_ rises steadily from 0.7 to 5.2 and test accuracy drops to 0.3."):
        assert diagnosis(warned + said).verdict != "normal", said
    for said in ("Test accuracy is 0.96, far above chance.", "No nan or inf in the loss_curve_, test accuracy is 0.96.",
                 "The loss does not diverge, it falls from 2.3 to 0.1; test accuracy is 0.96.",
                 "Test accuracy is 0.96 against 0.10 for random guessing."):
        assert normal_names(warned + said) == ["an optimizer stopped at its iteration limit"], said
    # H2: metric exports are no loss; M2: a finder's sweep said many ways is one, a run at its rate said to break is not
    csv = b"\n\nWall time,Step,Value\n1,0,0.02\n2,100,0.4\n"
    for intro in (b"mAP@0.5 exported from TensorBoard:", b"The val mAP curve, CSV from TensorBoard:",
                  b"Top-1 accuracy 10 classes, exported from TensorBoard:"):
        assert _other_tag(intro + csv), intro
    for said in ("The lr finder plot falls, then shoots up and diverges at the end. Is something wrong with my model?",
                 "The lr finder curve diverges above lr=1e-1. Training at the suggested 1e-3 then runs fine, no nan.",
                 "The lr finder plot shoots up at the end. Will my actual run diverge like that?",
                 "The LR range test ended with the loss diverging.", "My lr_find sweep ends in divergence at lr=10."):
        assert diagnosis(said).verdict == "normal", said
    # H3: a validation loss below the training one, accuracies beside it, is the gap's own case
    assert normal_names("Keras CNN with dropout 0.5. My validation loss is lower than the training loss every epoch "
                        "(0.31 vs 0.42 at epoch 20); train accuracy 0.88, val accuracy 0.90. Is that normal?") == [
        "a gap between training and validation loss"]
    # M3: an if that does not test the term, an index, guard nothing
    for code in ("if self.training:\n    ent = -(pi * torch.log(pi)).sum(1).mean()\n",
                 "ent = -(out[:, 1] * torch.log(out[:, 1])).mean()\n"):
        assert "log-unguarded" in breaking_construct(code), code
    # M4: a scaling of the gradient or one element zeroed is no clear
    for line in ("p.grad *= 0.5", "p.grad.fill_(0.5)", "p.grad.data = 0.5 * p.grad.data", "p.grad[0] = 0"):
        assert not clears(line), line
    # M5: a lower rate that failed later is no rate that helped
    for said in ("With lr 1e-4 it looks the same for the first two epochs, then the loss reaches 40 and goes nan.",
                 "With lr 1e-4 it looks the same, then it never converges either."):
        assert lr_tried(said) != "helped", said
    # M6: "targets not" in an earlier sentence leaves the start said
    text = ("Stellar temperature regression in K, PyTorch MLP 40 -> 256 -> 1, MSELoss, Adam 1e-3. Features "
            "standardised, targets not. The MSE starts at 3.1e7 and after 300 epochs is still ~6e5.")
    assert weighed_parts(text, "WR-360").get("raw-targets-said", 0) > 0
    # L1, L3, L4
    assert init_too_wide("ReLU MLP with 12 layers, each nn.Linear(1024, 1024) built in a loop. "
                         "nn.init.normal_(m.weight, std=0.1)")
    assert scaled_said("My actual inputs have mean 0 and std 1 after StandardScaler.")["scaled"]
    assert unused_clip("Earlier I used Adam(clipnorm=1.0) and it also went nan; now I clip by hand:\n"
                       "clipped, gnorm = tf.clip_by_global_norm(grads, 1.0)\n"
                       "optimizer.apply_gradients(zip(grads, model.trainable_variables))\n")


# ---- session 48: readings of held-out sets s65/s66, each written as its general form -------------------------------

def test_one_constant_for_every_weight_in_mxnet_paddle_or_pytorch_is_a_symmetric_start():
    """MXNet's initialize() hands its one initialiser to every parameter, weights too; Paddle names a weight's own in
    weight_attr; PyTorch's constant_ and fill_ at any value but 1 (a BatchNorm's scale)."""
    from trainwreck.weight_init import constant_kernel_init

    for code in ("net.initialize(init.Constant(0.01))", "net.initialize(mx.init.One())",
                 "nn.Linear(4, 8, weight_attr=paddle.ParamAttr(initializer=nn.initializer.Constant(0.05)))",
                 "nn.init.constant_(m.weight, 0.01)", "m.weight.data.fill_(0.5)"):
        assert constant_kernel_init(code), code
    # (1 is a norm layer's scale: `nn.init.ones_(m.weight)` under an isinstance(m, nn.LayerNorm) is no constant start)
    for code in ("net.initialize(init.Xavier())", "nn.init.constant_(m.weight, 1)", "m.weight.data.fill_(1.0)",
                 "nn.init.ones_(layer.weight)",
                 "nn.Linear(4, 8, bias_attr=paddle.ParamAttr(initializer=nn.initializer.Constant(0.0)))",
                 "nn.init.constant_(m.bias, 0.01)"):
        assert not constant_kernel_init(code), code


def test_a_constant_column_denied_is_none():
    log = "".join(f"epoch {e}  loss {v}\n" for e, v in enumerate((1.93, 1.47, 1.40, 1.36, 1.35, 1.35)))
    code = "X = (X - X.mean(0)) / X.std(0)\n"
    stuck = "It stops at ~44% accuracy.\n"
    assert "constant-feature" in weighed_parts(stuck + code + "Two columns are constant columns.\n" + log, "WR-060")
    assert "constant-feature" not in weighed_parts(stuck + code + "(no nan, no constant columns)\n" + log, "WR-060")


def test_words_that_an_accuracy_stops_short_say_it_does_not_learn():
    from trainwreck.run_said import says_not_learning

    for said in ("The MLP stops at ~44% accuracy", "accuracy tops out at 61 %", "it stalled at about 30%"):
        assert says_not_learning(said), said
    assert not says_not_learning("it stops at epoch 40") and not says_not_learning("Does it stop at 44%?")


def test_tensorflow_normal_weights_with_no_stddev_draw_at_one():
    """tf.random_normal / tf.random.normal / truncated_normal default to stddev=1.0: a weight drawn so for a layer of
    n inputs is √(n/2) times He's scale. A bias (one dimension) is no weight; a stddev given is read elsewhere."""
    from trainwreck.weight_init import LARGE_INIT

    for code in ("'wc1': tf.Variable(tf.random_normal([5, 5, 1, 32])),", "W = tf.Variable(tf.random.normal([784, 256]))",
                 "w2 = tf.Variable(tf.truncated_normal([256, 10]))\n"):
        assert LARGE_INIT.search(code), code
    for code in ("'bc1': tf.Variable(tf.random_normal([32])),", "tf.Variable(tf.random_normal([784, 256], stddev=0.01))",
                 "tf.Variable(tf.truncated_normal([256, 10], stddev=0.1))"):
        assert not LARGE_INIT.search(code), code


def test_inputs_normalised_by_a_named_mean_and_std_are_scaled():
    from trainwreck.input_scaling import scaled_said

    for said in ("Dataset is 224x224 with ImageNet mean/std normalisation.",
                 "Images are normalised with the model's pretrained_cfg mean/std.", "per-channel mean and std of the train set"):
        assert "inputs" in scaled_said(said)["scaled"], said
    for said in ("I did not use the ImageNet mean/std.", "Should I use ImageNet mean/std?", "the mean/std of the loss"):
        assert "inputs" not in scaled_said(said)["scaled"], said


def test_an_output_said_enormous_before_any_update_points_at_what_the_pass_starts_from():
    """No step has been taken: weights drawn too wide (WR-120) or raw inputs (WR-330), not a learning rate; with the
    inputs said normalised, the init."""
    from trainwreck.run_said import untrained_output_enormous

    report = ("VGG-style CNN written from a course handout, no BatchNorm, pixels scaled to [0, 1].\n"
              "I printed the logits of the very first batch before calling fit: they are around 3e8.\n"
              "step 10 - loss: 913467392.0000 - acc: 0.0100\nstep 20 - loss: nan - acc: 0.0100\n")
    assert untrained_output_enormous(report)
    assert weighed_parts(report, "WR-120")["untrained-output-enormous"] > 0
    d = diagnosis(report)
    assert d.matches[0].entry.id == "WR-120"
    for not_it in ("the logits before training are not huge", "after training the logits are 1e9",
                   "before training the logits are around 3.1"):
        assert not untrained_output_enormous(not_it), not_it


def test_a_batchnorm_said_absent_is_no_word_for_a_normalisation_that_divides():
    from trainwreck.thesaurus import tokens

    assert "batchnorm" not in tokens("VGG-16 written by hand, no BatchNorm, SGD")
    assert "batchnorm" in tokens("a BatchNorm after each conv")


def test_a_loss_said_to_go_from_one_value_to_another_is_two_values():
    ev = scan(io.BytesIO(b"After 300 epochs the loss only went from 1.79 to 1.09 and accuracy is 0.97.\n"), "r",
              message_finder(CATALOG))
    assert ev.count == 2 and ev.head[:2] == [1.79, 1.09]
    ev = scan(io.BytesIO(b"The loss is 1.79 after the first epoch and 1.672 after the last.\n"), "r", message_finder(CATALOG))
    assert ev.count == 2 and ev.head[:2] == [1.79, 1.672]
    for not_two in (b"The loss is 1.79, accuracy 0.97.\n", b"The loss is 1.79 and the lr 0.01.\n",
                    b"lr from 0.1 to 0.01 and the loss is 1.2\n", b"The TD loss creeps up from 0.002 to 0.02.\n",
                    b"The loss is 1.2 after the first epoch and 1.9 after the last.\n"):
        assert scan(io.BytesIO(not_two), "r", message_finder(CATALOG)).count == 0, not_two


def test_a_flux_chain_that_ends_in_softmax_beside_logitcrossentropy_hands_over_probabilities():
    code = ("model = Chain(Dense(20 => 32, relu), Dense(32 => 4), softmax)\n"
            "loss(m, x, y) = Flux.logitcrossentropy(m(x), y)\n")
    words = "Accuracy is 0.96 but the loss only went from 1.39 to 0.79 in 200 epochs. Why so slow?\n"
    assert weighed_parts(words + code, "WR-130")["pairing"] > 0
    assert "pairing" not in weighed_parts(words + code.replace(", softmax)", ")"), "WR-130")
    assert "pairing" not in weighed_parts(words + code.replace("logitcrossentropy", "crossentropy"), "WR-130")


def test_left_padding_under_a_causal_mask_is_a_fully_masked_row_in_every_batch():
    report = ("Sales forecaster: short series are left-padded to 90 days. nn.TransformerEncoder(layer, 3) called with "
              "mask=nn.Transformer.generate_square_subsequent_mask(90) and src_key_padding_mask=pad. The loss is nan "
              "after a few steps.\n")
    parts = weighed_parts(report, "WR-070")
    assert parts["masked-row-every-batch"] > 0 and parts["masked-inf"] > 0
    assert diagnosis(report).matches[0].entry.id == "WR-070"
    for not_it in (report.replace("left-padded", "right-padded"), report.replace("are left-padded", "are not left-padded"),
                   report.replace("mask=nn.Transformer.generate_square_subsequent_mask(90) and ", "")):
        assert "masked-row-every-batch" not in weighed_parts(not_it, "WR-070"), not_it


def test_a_jump_that_recovers_to_exactly_where_it_started_is_the_warmup_less_spike():
    """A loss said to go 0.70 at the start to 4.8 within 25 steps and back to 0.7: recovered to where it started (not
    below it), the spike of Adam's first steps at a constant rate."""
    report = ("Keras transformer on ECG series, Adam(1e-3) constant, no warmup. The loss goes 0.70 at step 0, then 4.8 "
              "at step 25, then 0.7 at step 300, and the final accuracy is well below the paper's.\n")
    d = diagnosis(report)
    assert d.matches and d.matches[0].entry.id == "WR-250"
    assert "ended at 0.7, where it started" in " ".join(d.matches[0].evidence)


def test_a_hand_written_log_of_a_probability_in_paddle_mxnet_or_julia_is_unguarded():
    from trainwreck.breaking_constructs import breaking_construct

    for code in ("prob = F.sigmoid(self.fc(x))\nloss = -(y * paddle.log(prob) + (1 - y) * paddle.log(1 - prob)).mean()\n",
                 "loss(m, x, y) = -mean(y .* log.(ŷ) .+ (1 .- y) .* log.(1 .- ŷ))\n",
                 "p = nd.sigmoid(out)\nloss = -(y * nd.log(p)).mean()\n"):
        assert "log-unguarded" in breaking_construct(code), code
    for code in ("loss = -(y * paddle.log(prob + 1e-7)).mean()\nprob = F.sigmoid(z)\n",
                 "loss(m, x, y) = -mean(y .* log.(ŷ .+ 1f-7) .+ (1 .- y) .* log.(1 .- ŷ .+ 1f-7))\n",
                 "price_log = paddle.log(price)\n"):
        assert "log-unguarded" not in breaking_construct(code), code


def test_a_report_from_julia_mxnet_or_paddle_expects_no_numpy_warning():
    """NumPy's warnings are missing only from a run that could have printed them: a Flux, MXNet or Paddle run never
    would, so their absence is no evidence against the NumPy-declaring entries."""
    from trainwreck.run_kind import shown_frameworks

    nan = "Train loss goes 0.41, 0.22, 0.17, 0.09 and then NaN for every epoch after.\n"
    for framework, said in (("julia", "Julia 1.10, Flux 0.14, my own BCE.\n"), ("mxnet", "MXNet 1.9 Gluon MLP.\n"),
                            ("paddle", "PaddlePaddle 2.5 on one V100.\n")):
        ev = scan(io.BytesIO((said + nan).encode()), "r", message_finder(CATALOG))
        assert framework in shown_frameworks(ev), said
        assert "messages" not in weighed_parts(said + nan, "WR-030"), said
    assert weighed_parts("A small MLP on my laptop.\n" + nan, "WR-030").get("messages", 0) < 0


def test_tensorflow_1_weight_variables_of_zeros_are_a_zero_start():
    code = "W1 = tf.Variable(tf.zeros([784, 1024]))\nb1 = tf.Variable(tf.zeros([1024]))\nW2 = tf.Variable(tf.zeros([1024, 10]))\n"
    log = "".join(f"Minibatch loss at step {s}: {v}\n" for s, v in ((0, "2.302585"), (500, "2.303412"), (1000, "2.301977"),
                                                                   (1500, "2.302881")))
    words = "With a hidden layer it is stuck at 10% accuracy.\n"
    assert "zero-init" in weighed_parts(words + code + log, "WR-110")
    one = "W = tf.Variable(tf.zeros([784, 10]))\nb = tf.Variable(tf.zeros([10]))\n"     # logistic regression: fine
    assert "zero-init" not in weighed_parts(words + one + log, "WR-110")
    assert "zero-init" not in weighed_parts(words + code.replace("tf.zeros([784, 1024])", "tf.truncated_normal([784, 1024], stddev=0.03)").replace("tf.zeros([1024, 10])", "tf.truncated_normal([1024, 10], stddev=0.03)") + log, "WR-110")


def test_r_scale_divides_by_each_columns_standard_deviation():
    from trainwreck.input_scaling import DIVIDES_BY_STD

    assert DIVIDES_BY_STD.search("x <- scale(as.matrix(df[, cols]))")
    assert not DIVIDES_BY_STD.search("x <- scale(as.matrix(df[, cols]), scale = FALSE)")
    assert not DIVIDES_BY_STD.search("img = scale(img, 0.5)")            # (not R's: no `<-`)
    report = ("R keras, loss is NaN from the first epoch.\nx <- scale(as.matrix(tickets[, cols]))\n"
              "Epoch 1/20\n300/300 [====] - 2s - loss: nan - accuracy: 0.8794\n"
              "Epoch 2/20\n300/300 [====] - 1s - loss: nan - accuracy: 0.8802\n")
    assert "std-unguarded" in weighed_parts(report, "WR-060")


def test_masked_scores_said_filled_with_minus_infinity_before_a_softmax():
    from trainwreck.breaking_constructs import breaking_construct

    said = ("Each entity is an attention-weighted average of its mention tokens: positions that are not mentions are "
            "filled with float('-inf'), then softmax. Some batches give nan from the first epoch.")
    assert "masked-inf" in breaking_construct(said)
    for not_it in (said.replace("float('-inf')", "-1e4"), said.replace("then softmax", "then a mean"),
                   "I fill the masked positions with -1e9 instead of -inf, then softmax."):
        assert "masked-inf" not in breaking_construct(not_it), not_it


def test_attention_kept_to_the_positions_a_condition_selects_is_the_masked_row_construct():
    """review s74/10: "I only let it attend to the frames that my voice activity detector marks as speech", beside a
    nan now and then: a clip with no speech has every frame masked. Before, WR-070 came third, behind WR-310 and WR-050;
    attention to a part of the sequence named with no condition is no mask."""
    from trainwreck.breaking_constructs import breaking_construct

    said = ("Speaker ID in PyTorch: attention pooling over frames, and I only let it attend to the frames that my voice "
            "activity detector marks as speech. Most of the time training is fine, but every now and then one batch "
            "gives a nan loss and after that everything is nan.")
    assert "masked-inf" in breaking_construct(said) and "masked-row-every-batch" not in breaking_construct(said)
    assert weighed_parts(said, "WR-070")["masked-inf"] > 0
    d = diagnosis(said)
    assert d.matches[0].entry.id == "WR-070"
    for not_it in ("The model attends to the tokens of the whole sentence.", "It attends to the frames in order.",
                   "In the decoder each token attends only to the tokens that came before it.",   # causal: keeps itself
                   "The model attends to the words that carry sentiment."):
        assert "masked-inf" not in breaking_construct(not_it), not_it


def test_a_class_count_set_below_the_one_the_words_give_leaves_labels_past_the_last_logit():
    from trainwreck.data_values import classes_short

    report = ("Tickets in 14 categories, TextCNN in TF 1.14 on a P100.\nclass TCNNConfig(object):\n    num_classes = 13\n"
              "Iter:      0, Train Loss:    2.6, Train Acc:   7.81%\nIter:    100, Train Loss:    nan, Train Acc:  20.31%\n"
              "Iter:    200, Train Loss:    nan, Train Acc:  17.19%\n")
    assert classes_short(report)[2:] == (14, 13)
    assert weighed_parts(report, "WR-320")["classes-short"] > 0
    for not_it in (report.replace("num_classes = 13", "num_classes = 14"), report.replace("14 categories", "12 categories"),
                   report + "We also tried 20 categories.\n"):
        assert classes_short(not_it) is None, not_it


def test_targets_given_in_a_range_of_hundreds_or_more_are_in_their_raw_units():
    from trainwreck.input_scaling import scaled_said

    for said in ("y_train is the measured irradiance in W/m2 (0 to about 1000).",
                 "The target, daily sales, ranges from 2,000 to 90,000."):
        assert "targets" in scaled_said(said)["unscaled"], said
    for said in ("labels 0 to 999 (ImageNet classes)", "targets scaled to 0 to 1", "y is in [0, 1]",
                 "y_train standardised, originally 0 to 1000", "the target is between 0.2 and 0.9"):
        assert "targets" not in scaled_said(said)["unscaled"], said
    # ... or printed by pandas' describe() of the targets: a mean or a spread of 100 or more
    described = (">>> y_train.describe()\ncount     8000.000000\nmean      3412.551200\nstd       1190.200315\n"
                 "min        120.000000\nmax       9020.000000\nName: sales, dtype: float64\n")
    assert scaled_said(described)["unscaled"]["targets"] == "`y_train.describe()`: mean 3.41e+03, std 1.19e+03"
    # (printed, not said: the evidence says so, where words would be quoted as words)
    assert scaled_said(described)["printed"] == {"targets": "`y_train.describe()`: mean 3.41e+03, std 1.19e+03"}
    assert scaled_said("The targets are not scaled.")["printed"] == {}
    scaled = described.replace("3412.551200", "0.000000").replace("1190.200315", "1.000000")
    assert "targets" not in scaled_said(scaled)["unscaled"]
    assert "targets" not in scaled_said(described.replace("y_train.describe()", "X_train['age'].describe()"))["unscaled"]
    d = diagnosis("My regression predicts about the same small number for every row.\n" + described
                  + "".join(f"Epoch {e}/20 - loss: {v}\n" for e, v in enumerate(("1.33e7", "4.1e6", "1.9e6"), 1)))
    assert d.matches[0].entry.id == "WR-360"
    assert any("the paste prints the targets (`y_train.describe()`: mean 3.41e+03, std 1.19e+03)" in e
               for e in d.matches[0].evidence)


def test_a_printed_column_that_grows_past_exps_limit_on_the_row_of_the_first_inf_is_an_overflow():
    rows = [(500, "0.91", "3.1"), (1000, "0.38", "41.0"), (1500, "-0.41", "80.2"), (2000, "-0.52", "87.9"),
            (2500, "inf", "90.3"), (3000, "nan", "nan")]
    log = "".join(f"step {s}  nll {v}  conc_max {c}\n" for s, v, c in rows)
    report = "JAX von Mises head, optax.adam(1e-3). Then one inf and nan from there on.\n" + log
    parts = weighed_parts(report, "WR-020")
    assert parts.get("exp-overflow-printed", 0) > 0
    assert diagnosis(report).matches[0].entry.id == "WR-020"
    # an accuracy that passes 88.72 by chance, a column that had not grown to it, or NumPy's float64 limit not reached
    for not_it in (report.replace("conc_max", "acc"), report.replace("80.2", "95.0"),
                   report.replace("JAX von Mises head, optax.adam(1e-3)", "NumPy von Mises head, float64")):
        assert "exp-overflow-printed" not in weighed_parts(not_it, "WR-020"), not_it


def test_a_hugging_face_trainer_steps_with_adamw_unless_told_otherwise():
    """The Trainer's default optimizer is AdamW: its log's rate at its peak from the first step, beside a jump that
    recovers, is the warmup-less spike though the paste names no Adam; a run set to plain SGD is not."""
    rows = [(2.4469, 2.9999e-4, 0.01), (4.8127, 2.9967e-4, 0.02), (6.8934, 2.9927e-4, 0.03), (6.4402, 2.9870e-4, 0.04),
            (5.7719, 2.9796e-4, 0.05), (3.0521, 2.7147e-4, 0.2), (2.2318, 3.27e-9, 1.0)]
    log = "".join(f"{{'loss': {v}, 'grad_norm': 2.5, 'learning_rate': {lr}, 'epoch': {e}}}\n" for v, lr, e in rows)
    report = "Fine-tuning a 410m model with the Trainer, learning_rate=3e-4, cosine, no nan.\n" + log
    d = diagnosis(report)
    assert d.matches and d.matches[0].entry.id == "WR-250"
    assert "learning rate at its highest" in " ".join(d.matches[0].evidence)
    sgd = diagnosis(report.replace("cosine,", 'cosine, optim="sgd",'))
    assert not sgd.matches or sgd.matches[0].entry.id != "WR-250"


def test_a_clip_of_each_element_above_every_printed_element_never_engaged():
    epochs = [("1.3611", "0.0388"), ("1.2492", "0.2114"), ("6.9025", "0.7260"), ("nan", "nan")]
    log = "".join(f"Epoch {e}/30\n3488/3488 ━━━━━━━━━━━━━━━━━━━━ 58s 17ms/step - accuracy: 0.3 - loss: {v}\n"
                  f"probe batch: max |grad| = {g}\n" for e, (v, g) in enumerate(epochs, 1))
    code = "opt = keras.optimizers.SGD(learning_rate=0.2, momentum=0.9, clipvalue=1.0)\n"
    d = diagnosis(code + log)
    assert d.signature.name == "climb-despite-clipping" and d.matches[0].entry.id == "WR-240"
    for not_it in (code.replace("clipvalue=1.0", "clipvalue=0.5") + log, code.replace(", clipvalue=1.0", "") + log):
        assert diagnosis(not_it).signature.name != "climb-despite-clipping", not_it


def test_keras_initializer_strings_named_first_and_one_row_of_outputs_for_every_input():
    from trainwreck.frozen_said import one_output_said
    from trainwreck.weight_init import constant_kernel_init

    code = ('init = "zeros"\nlayers.Dense(128, activation="relu", kernel_initializer=init),\n'
            'layers.Dense(3, activation="softmax", kernel_initializer=init),\n')
    assert constant_kernel_init(code)
    assert not constant_kernel_init(code.replace("kernel_initializer=init", "bias_initializer=init"))
    assert not constant_kernel_init('init = "he_normal"\nlayers.Dense(8, kernel_initializer=init)\n')
    assert one_output_said("model.predict(X_va) gives [0.3213, 0.1794, 0.4993] for every single row.")
    assert not one_output_said("Does model.predict(X_va) give [0.3, 0.2, 0.5] for every row?")


def test_a_start_said_huge_that_a_rate_of_zero_keeps_is_no_large_start_that_falls():
    """"The loss at the very first step is in the hundreds of thousands ... setting the learning rate to zero gives
    exactly the same first loss": the forward pass, not a step, and the generic answer (a large start that falls) is
    not given where the words say it does not learn or a rate of zero changes nothing."""
    from trainwreck.rate_tried import rate_zero_failed
    from trainwreck.run_said import says_not_learning

    report = ("My own JAX MLP, eight relu layers, standardized features. The loss at the very first step is already "
              "huge, in the hundreds of thousands, and the accuracy never gets above chance. Setting the learning rate "
              "to zero gives exactly the same first loss.")
    assert rate_zero_failed(report) and says_not_learning(report)
    d = diagnosis(report)
    assert d.verdict != "normal" and d.matches and d.matches[0].entry.id == "WR-120"
    assert not says_not_learning("Is the accuracy stuck at chance?")
    assert diagnosis("My loss is huge at the start, is it normal?").verdict == "normal"


def test_a_log_of_exps_added_by_hand_is_an_unshifted_exp():
    """A soft minimum written as log(exp(-a/g) + exp(-b/g) + exp(-c/g)): float32's exp is 0 below about -104, so costs
    past 104 g make every term 0 and the log -inf (and past 88.7 on the other side, inf)."""
    import numpy as np

    from trainwreck.breaking_constructs import breaking_construct

    with np.errstate(over="ignore"):
        assert np.exp(np.float32(-103.9)) > 0 and np.exp(np.float32(-104.0)) == 0 and np.exp(np.float32(88.8)) == np.inf
    code = "def softmin3(a, b, c, g):\n    return -g * torch.log(torch.exp(-a / g) + torch.exp(-b / g) + torch.exp(-c / g))\n"
    assert "exp-unshifted" in breaking_construct(code)
    # (shifted by the largest first, as a log-sum-exp is; or no sum of exps inside the log)
    shifted = code.replace("-a / g", "(m_max - a) / g").replace("-b / g", "(m_max - b) / g").replace("-c / g",
                                                                                                  "(m_max - c) / g")
    assert "exp-unshifted" not in breaking_construct(shifted)
    assert "exp-unshifted" not in breaking_construct("y = torch.log(torch.exp(a) * 2)\n")


def test_a_degree_raised_to_minus_a_half_with_no_self_loops_is_a_division_by_zero():
    import numpy as np

    from trainwreck.breaking_constructs import inverse_of_sum

    with np.errstate(divide="ignore", invalid="ignore"):
        deg = np.array([2.0, 0.0], dtype=np.float32)
        d = deg ** -0.5
        assert np.isinf(d[1]) and np.isnan(d[1] * np.float32(0.0))      # the mechanism: inf, then inf * 0 = nan
    code = "def gcn_norm(A):\n    deg = A.sum(dim=1)\n    d = deg.pow(-0.5)\n    return torch.diag(d) @ A @ torch.diag(d)\n"
    assert inverse_of_sum(code) == "deg.pow(-0.5)"
    report = "Hand-written GCN: loss is nan from the first step.\n" + code
    assert weighed_parts(report, "WR-060")["inverse-unguarded"] > 0
    for guarded in (code.replace("A.sum(dim=1)", "A.sum(dim=1) + 1e-6"), code.replace("A.sum(dim=1)", "A.sum(dim=1).clamp(min=1)"),
                    "A = A + torch.eye(n)\n" + code, code.replace("    return", "    d[torch.isinf(d)] = 0\n    return")):
        assert inverse_of_sum(guarded) == "", guarded
    assert "inverse-unguarded" not in weighed_parts("GCN trains fine, loss 0.4 then 0.2.\n" + code, "WR-060")


def test_attention_to_strictly_earlier_positions_masks_the_first_one_entirely():
    from trainwreck.breaking_constructs import breaking_construct

    said = ("I added an nn.MultiheadAttention layer where each stop can only look at the stops before it, so it can't "
            "peek at its own delay. The loss is nan from the very first batch.")
    assert "masked-row-every-batch" in breaking_construct(said)
    assert "strictly before it" in breaking_construct(said)["masked-inf"]
    assert weighed_parts(said, "WR-070")["masked-row-every-batch"] > 0
    assert "masked-row-every-batch" in breaking_construct("A transformer whose tokens attend to strictly earlier positions. "
                                                      "The loss is nan.")
    # (the ordinary causal mask said loosely: each token sees the ones before it and itself)
    for not_it in (said.replace("stops before it", "stops up to it"),
                   said.replace(", so it can't peek at its own delay", " and itself"),
                   "My decoder uses a causal mask, so each token can only attend to the tokens before it and itself. "
                   "The loss is nan after 500 steps.",
                   "Each customer can only look at the items before it in the list. The loss is nan."):
        assert "masked-row-every-batch" not in breaking_construct(not_it), not_it


def test_code_review_s48_mends():
    """(code_review_s48) the session's readings held to what they claim."""
    from trainwreck.curve_shape import values_below_clip, _adaptive
    from trainwreck.frozen_said import width_changes_nothing_said
    from trainwreck.input_scaling import scaled_said
    from trainwreck.weight_init import constant_kernel_init

    # 1: a diffusion loss that climbs to its end, or a run said to give samples of noise, is no noise
    climb = ("DDPM from scratch with diffusers, the loss jumps around.\n"
             + "".join(f"step {s} loss {v}\n" for s, v in enumerate((0.05, 0.08, 0.15, 0.3, 0.6, 0.9, 1.0))))
    assert diagnosis(climb).verdict != "normal"
    noisy = ("LoRA fine-tune with diffusers: step_loss jumps around the whole run. Samples do take the style.\n"
             + "".join(f"step {s} loss {v}\n" for s, v in enumerate((0.02, 0.41, 0.005, 0.16, 0.07, 0.24, 0.03))))
    assert diagnosis(noisy).verdict == "normal"
    # 3: a norm layer's scale at 1 is no constant start; a Paddle weight at 1 neither
    assert not constant_kernel_init("if isinstance(m, nn.LayerNorm):\n    nn.init.ones_(m.weight)\n")
    assert not constant_kernel_init("weight_attr=paddle.ParamAttr(initializer=nn.initializer.Constant(1.0))")
    # 4: every AP at -1, area=all too, is no empty range
    all_minus = (" Average Precision  (AP) @[ IoU=0.50:0.95 | area=   all | maxDets=100 ] = -1.000\n"
                 " Average Precision  (AP) @[ IoU=0.50:0.95 | area= small | maxDets=100 ] = -1.000\n"
                 "All my COCO APs are -1.000. Is the evaluation broken?")
    assert not any(n.name.startswith("COCO evaluation") for n in diagnosis(all_minus).normal)
    # 5: a count of 0 is nothing to explain; a base set not trainable in words is frozen
    assert not any(n.name.startswith("Keras's non-trainable") for n in diagnosis(
        "model.summary() says Non-trainable params: 0. Is that a problem?").normal)
    assert not any(n.name.startswith("Keras's non-trainable") for n in diagnosis(
        "I load VGG16 and set its layers to not trainable. Non-trainable params: 14,714,688. Is it learning?").normal)
    # 6: PyTorch's clip of each element in its usual form
    assert values_below_clip("torch.nn.utils.clip_grad_value_(model.parameters(), 1.0)\nmax |grad| = 0.2\n"
                             "max |grad| = 0.4\n")
    # 7: "doesn't help" is no evidence of units that stay equal
    assert not width_changes_nothing_said("Increasing the hidden size doesn't help.")
    assert width_changes_nothing_said("Increasing the hidden size gives exactly the same numbers.")
    # 8: a length is no target range; a range the sentence scales is scaled
    assert "targets" not in scaled_said("The target sequence length is 128-512 tokens.")["unscaled"]
    assert "targets" not in scaled_said("y_train is in kWh (0 to about 1000), which I standardise before fit.")["unscaled"]
    # 11: a Trainer handed plain SGD is not stepping with AdamW
    ev = scan(io.BytesIO(b"Trainer(model, args, optimizers=(torch.optim.SGD(model.parameters(), lr=0.1), None))\n"
                         b"{'loss': 2.4, 'learning_rate': 0.1, 'epoch': 0.01}\n{'loss': 6.8, 'learning_rate': 0.1, "
                         b"'epoch': 0.02}\n"), "r", message_finder(CATALOG))
    assert not _adaptive(ev)


def test_a_keras_loss_that_logs_a_slice_of_a_linear_output_is_the_log_of_a_negative_number():
    """A heteroscedastic loss that takes `sigma = y_pred[:, 1:]` from a last Dense with no activation and logs it: a
    linear output is negative for some inputs from the first forward pass, and its log is nan -- WR-030's raw-output
    face, named first beside a nan from the first batch; its `/ sigma` is then no data's standard deviation (WR-060's).
    Not with a softplus on the last layer, nor a softplus between."""
    import numpy as np

    from trainwreck.breaking_constructs import breaking_construct

    with np.errstate(invalid="ignore"):
        assert np.isnan(np.log(np.float32(-0.3)))               # the mechanism: the log of a negative number
    model = ("inputs = keras.Input(shape=(8,))\nh = layers.Dense(32, activation='tanh')(inputs)\n"
             "out = layers.Dense(2)(h)\nmodel = keras.Model(inputs, out)\n")
    loss = ("def hetero_nll(y_true, y_pred):\n    mean = y_pred[:, :1]\n    sigma = y_pred[:, 1:]\n"
            "    return tf.reduce_mean(tf.math.log(sigma) + 0.5 * tf.square((y_true - mean) / sigma))\n")
    assert set(breaking_construct(model + loss)) == {"log-raw-output"}
    log = "Epoch 1/50\n 1/40 [>.............................] - ETA: 9s - loss: nan\n"
    d = diagnosis("My mean-and-variance net is nan at once.\n" + model + loss + log)
    assert d.matches[0].entry.id == "WR-030" and d.matches[0].parts["log-raw-output"] > 0
    assert not any(m.parts.get("std-unguarded") for m in d.matches)
    # (a data standardisation whose divisor has the name of a y_pred slice, outside the loss function, is still read)
    same_name = ("mu, sigma = X_train.mean(axis=0), X_train.std(axis=0)\nX_train = (X_train - mu) / sigma\n"
                 "One of my feature columns is constant.\n")
    softplus_out = model.replace("Dense(2)", "Dense(2, activation='softplus')")
    assert any(m.parts.get("std-unguarded") for m in diagnosis("nan at once.\n" + softplus_out + loss + same_name
                                                                 + log).matches)
    # (y_pred clipped before its log is kept off 0; review s56c)
    clipped = ("def nll(y_true, y_pred):\n    y_pred = tf.clip_by_value(y_pred, 1e-7, 1.0)\n"
               "    return -tf.reduce_mean(y_true * tf.math.log(y_pred))\n")
    assert "log-raw-output" not in breaking_construct(model + clipped)
    # (review s56b, 10) ... while a data standardisation beside it is still read
    data = "X_train = (X_train - X_train.mean(axis=0)) / X_train.std(axis=0)\nOne of my feature columns is constant.\n"
    softplus = model.replace("Dense(2)", "Dense(2, activation='softplus')")
    d = diagnosis("nan at once.\n" + softplus + loss + data + log)
    top = next(m for m in d.matches if m.entry.id == "WR-060")
    assert top.parts.get("std-unguarded", 0) > 0
    assert any("(`/ X_train.std(axis=0)`)" in e for e in top.evidence), top.evidence
    assert breaking_construct(model.replace("Dense(2)", "Dense(2, activation='softplus')") + loss) == {}
    softened = loss.replace("sigma = y_pred[:, 1:]", "sigma = tf.nn.softplus(y_pred[:, 1:]) + 1e-6")
    assert breaking_construct(model + softened) == {}
    # (review s56b, 7) a slice made positive on a line of its own, a callable or a multi-line activation, a layer after
    # the last Dense, heads concatenated: none of these logs a linear output
    again = loss.replace("    sigma = y_pred[:, 1:]\n", "    sigma = y_pred[:, 1:]\n    sigma = tf.nn.softplus(sigma)\n")
    for other in (model + again, model.replace("Dense(2)", "Dense(2, activation=tf.nn.softplus)") + loss,
                  model.replace("Dense(2)", "Dense(\n    2,\n    activation='softplus',\n)") + loss,
                  model.replace("model = keras.Model", "out = layers.Softmax()(out)\nmodel = keras.Model") + loss,
                  model.replace("out = layers.Dense(2)(h)", "s = layers.Dense(1, activation='softplus')(h)\nmu = "
                                "layers.Dense(1)(h)\nout = layers.concatenate([mu, s])") + loss):
        assert "log-raw-output" not in breaking_construct(other), other
    # (review s56b, 8) beside a run that trained for epochs before its nan, the construct is not weighed: it breaks at
    # the first forward pass, so what ran is not what was pasted
    late = "".join(f"Epoch {e}/50\n40/40 [==============================] - 1s - loss: {v}\n"
                   for e, v in enumerate(("2.31", "1.84", "1.52", "1.30", "1.12", "0.98", "nan"), 1))
    assert not any(m.parts.get("log-raw-output") for m in diagnosis(model + loss + late).matches)
    # (review s56b, 9) what keeps it positive follows what it is: a probability a hand-written cross-entropy takes
    bce = "def bce(y_true, y_pred):\n    return -tf.reduce_mean(y_true * tf.math.log(y_pred))\n"
    assert "a sigmoid or a softmax on the output, or a loss on logits" in breaking_construct(model + bce)["log-raw-output"]
    assert "a softplus, plus a small floor" in breaking_construct(model + loss)["log-raw-output"]


def test_a_distribution_built_on_probabilities_as_its_logits_is_the_probabilities_entry():
    """`dist.Categorical(logits=p)` with p a softmax's output: the distribution normalises its logits with its own
    log-softmax, so probabilities in [0, 1] come out nearly uniform and the likelihood stays near ln C (while the argmax
    keeps the accuracy): WR-130's face, as a pairing of the code. Not logits given as logits, nor probs given as probs."""
    import numpy as np

    z = np.array([6.0] + [0.0] * 9)                                         # ten classes, one confident logit
    p = np.exp(z) / np.exp(z).sum()                                          # its softmax: 0.94 on the first
    renormalised = np.exp(p) / np.exp(p).sum()                               # what logits=p makes of it
    assert p.max() > 0.9 and renormalised.max() < 0.25 and renormalised.argmax() == p.argmax()
    code = ("        probs = torch.sigmoid(self.head(h))\n"
            "        numpyro.sample('y', dist.Bernoulli(logits=probs), obs=y)\n")
    said = "ELBO stuck near 0.69 per point though the accuracy is 95%. Loss / N: 0.693, 0.690, 0.688, 0.687.\n"
    d = diagnosis(said + code)
    top = d.matches[0]
    assert top.entry.id == "WR-130" and top.parts["pairing"] > 0
    assert any("(`Bernoulli(logits=probs)`, where `probs = torch.sigmoid(self.head(h))`)" in e for e in top.evidence)
    from trainwreck.loss_inputs import distribution_on_probabilities
    assert distribution_on_probabilities("dist.Categorical(logits=F.softmax(z, -1))") == \
        "`Categorical(logits=F.softmax(z, -1))`"
    for kept in ("dist.Categorical(logits=self.out(h))", "logits = self.out(h)\ndist.Categorical(logits=logits)",
                 "probs = F.softmax(z, -1)\ndist.Categorical(probs=probs)"):
        assert distribution_on_probabilities(kept) == "", kept


def test_a_loss_said_to_take_a_log_by_hand_beside_a_sigmoid_is_the_unguarded_log():
    """review s76/02: "the losses are written by hand from the formulas in the original GAN paper with tf.math.log, and
    the discriminator ends in a sigmoid", then nan after 20 epochs: WR-030's construct said in words, with no code
    shown (it came second, behind the rate). Not with an epsilon or logits said, nor a log that is no loss's."""
    from trainwreck.breaking_constructs import breaking_construct, log_by_hand_said

    said = ("Simple GAN in Keras. The losses are written by hand from the formulas in the original GAN paper with "
            "tf.math.log, and the discriminator ends in a sigmoid. For 20 epochs the samples get better, then the "
            "discriminator loss prints nan.")
    assert "log-unguarded" in breaking_construct(said) and weighed_parts(said, "WR-030")["log-unguarded"] > 0
    assert diagnosis(said).matches[0].entry.id == "WR-030"
    assert log_by_hand_said(said.replace("tf.math.log", "tf.math.log(p + 1e-7)")) == ""
    assert log_by_hand_said("I wrote a log parser for the run; the model uses a sigmoid and its loss is nan.") == ""
    # (an lr of 1e-4 or a gradient clipping is no guard of the log; a loss on logits is)
    assert log_by_hand_said(said + " Adam with lr 1e-4 and gradient clipping at 1.0.")
    assert log_by_hand_said(said + " The loss is computed with from_logits=True.") == ""
    assert log_by_hand_said("I've written the logs of the last run below, the loss goes nan; sigmoid output.") == ""


def test_a_language_models_start_far_above_ln_of_its_vocabulary_is_a_broken_start():
    """(s80/20) A byte-level model (vocabulary 256) whose loss is 64 at step 0 starts at 12 times ln 256: the report's
    first loss set against ln V as a classifier's is against ln C. The vocabulary said "is the 256 byte values", and
    a bits-per-character beside the loss makes it a cross-entropy. Such a start is no health: the weights the paste
    draws at std 1 are read beside it, and it names the entries of a broken start, not a regression's."""
    from trainwreck.class_count import vocabulary_named
    from trainwreck.start_loss import start_far_above_uniform
    assert vocabulary_named("so the vocabulary is the 256 byte values")[0] == 256
    assert vocabulary_named("the vocab size is 32000")[0] == 32000
    said = "Byte-level transformer, so the vocabulary is the 256 byte values. loss ~64 at step 0, bpc 92."
    assert "12 times ln 256" in start_far_above_uniform(said)
    assert start_far_above_uniform(said.replace(", bpc 92", "")) == ""            # (no cross-entropy named or shown)
    assert start_far_above_uniform(said.replace("~64", "~5.6")) == ""             # (at ln 256: a fresh model's start)
    code = "emb = jax.random.normal(k_emb, (256, 512))\nlogits = final_ln(h) @ emb.T\n"
    log = "".join(f"step {s:5d} | loss {v} | bpc {float(v) / 0.6931:.2f}\n" for s, v in
                  [(0, "63.8127"), (250, "47.2265"), (500, "18.9042"), (1000, "5.1175"), (2000, "2.3390"),
                   (10000, "1.3466"), (30000, "1.1933")])
    d = diagnosis(said + "\n" + code + log)
    assert d.matches[0].entry.id == "WR-120" and "WR-360" not in [m.entry.id for m in d.matches[:3]]
    assert weighed_parts(said + "\n" + code + log, "WR-120").get("large-init", 0) > 0
    # (the same curve with no start said far above ln V: a loss that falls from a high start is no failure)
    assert diagnosis(code + log).verdict == "healthy"


def test_a_jump_in_the_first_steps_said_with_no_start_and_then_back_down_is_no_warmups_face():
    """(s82/09) "In the first few dozen steps the loss jumps up to around 15 before it slowly comes back down" has no
    number for the start, but says the jump came early and recovered: WR-250's face, and not the spikes-in-a-falling-
    curve normal that the same words ("jumps up") would otherwise get. Not a jump that did not come back, nor one at
    a later point, nor one asked about, nor beside a warmup or under plain SGD."""
    from trainwreck.start_loss import early_jump_back_said
    said = ("BERT4Rec from a fresh BertConfig with AdamW. In the first few dozen steps the loss jumps up to around 15 "
            "before it slowly comes back down over the next few hundred steps. Is that jump normal for transformers?")
    assert early_jump_back_said(said).startswith("in the first few dozen steps the loss jumps up")
    for other in (said.replace("before it slowly comes back down", "and then it is nan"),
                  said.replace("In the first few dozen steps", "After epoch 3"),
                  said.replace("AdamW.", "AdamW and a 1,000-step linear warmup."),
                  said.replace("with AdamW", "with plain SGD"),
                  "Does the loss jump up in the first steps and then come back down?"):
        assert early_jump_back_said(other) == "", other
    assert early_jump_back_said("At the very start the loss shoots way up, then it recovers. Adam, lr 1e-3.")
    d = diagnosis(said)
    assert d.verdict != "normal" and d.matches[0].entry.id == "WR-250"
    # (spikes in a curve that falls, said with no early jump, are still answered as normal)
    assert diagnosis("The loss jumps up now and then but trends down over the epochs. Is it normal?").verdict == "normal"


def test_one_output_alike_units_a_moved_break_and_a_jump_that_stays_said_in_more_ways():
    """(s79/01, 02, 07) General ways of saying what earlier readings knew: "every photo gets the same box" and "the
    predicted mask is the same blurry oval for every X-ray" (one output); "the 32 feature maps of the first conv layer,
    they are all exactly the same picture" (units alike); "the same step whatever learning rate I use, and a different
    step when I change the shuffle seed" (the break moved with the order, read clause by clause); "it jumps way up and
    stays high" (a jump never recovered). Each with the sentences it must leave alone."""
    from trainwreck.frozen_said import one_output_said, units_alike_said
    from trainwreck.run_said import never_recovered_said, order_moved_it
    assert one_output_said("Now every photo gets the same box, roughly in the middle of the picture.") \
        == "every photo gets the same box"
    assert one_output_said("The predicted mask is the same blurry oval for every X-ray, even on the training images.")
    for text in ("Every image gets the same augmentation.", "Every sample gets the same weight in the loss.",
                 "The predicted mask is the same size for every image.",
                 "The output shape is the same for every image, 1x256x256."):
        assert one_output_said(text) == "", text
    assert units_alike_said("When I plot the 32 feature maps of the first conv layer, they are all exactly the same "
                            "picture.")
    for text in ("The filters are the same size as in the paper.", "The channels are the same as in the original code.",
                 "The feature maps are not all the same."):
        assert units_alike_said(text) == "", text
    both = "It is the same step whatever learning rate I use, and a different step when I change the shuffle seed."
    assert order_moved_it(both) == "a different step when I change the shuffle seed"
    assert order_moved_it("With another shuffle seed it still breaks at the same step.") == ""
    assert never_recovered_said("At one step it jumps way up and stays high for the rest of training.")
    for text in ("The accuracy jumps up and stays high.", "The loss jumps up and then comes back down."):
        assert never_recovered_said(text) == "", text


def test_an_optimizer_built_with_its_rate_names_the_rate_and_a_stop_at_the_same_batch_is_the_same_place():
    """(s80/09) "With Adam(1e-4) it stops at exactly the same batch as with 1e-3 for the same seed": the optimizer's
    first argument is its rate (the optimizer's name stays a word of the text), and a run that stops, terminates or
    crashes at the same batch broke at the same place. Not an optimizer given its parameters first."""
    from trainwreck.thesaurus import fold_text
    from trainwreck.rate_tried import lr_tried, lr_tried_same_place
    folded = fold_text("With Adam(1e-4) it stops; SGD(0.01); Adam(params)")
    assert " adam  lr  1e-4" in folded and " sgd  lr  0.01" in folded and "adam(params)" in folded
    said = "With Adam(1e-4) it stops at exactly the same batch as with 1e-3 for the same seed."
    assert lr_tried(said) == "failed" and lr_tried_same_place(said)
    assert lr_tried(said.replace("Adam(1e-4)", "Adam(model.parameters())")) == ""


def test_a_regressions_loss_said_in_number_words_is_read_as_its_value():
    """(s80/10) "The loss is about a billion from the first epoch on and hardly goes down", a regression with mean
    squared error: 1e9 in number words is the first loss the words give, and its root, about 3e4, the errors in the
    targets' raw units. Not where the run is not said to stall, nor a count of rows in millions."""
    from trainwreck.start_loss import regression_start_said
    said = ("Salary from job ads, TF-IDF into a Keras MLP, mean squared error, Adam. The loss is about a billion from the "
            "first epoch on and hardly goes down.")
    assert regression_start_said(said) == (1e9, "loss is about a billion")
    assert regression_start_said(said.replace("about a billion", "in the millions"))[0] == 1e6
    assert regression_start_said(said.replace("about a billion", "2.5 million"))[0] == 2.5e6
    assert regression_start_said(said.replace(" and hardly goes down", ", then it falls to 0.3")) is None
    assert regression_start_said(said.replace("about a billion", "a million times the baseline's")) is None
    assert weighed_parts(said, "WR-360").get("raw-targets-said", 0) > 0
    assert diagnosis(said).matches[0].entry.id == "WR-360"


def test_a_lower_rate_whose_failure_came_in_a_later_epoch_only_put_it_off():
    """(s80/22) "With lr 0.075 the same thing happens, only in epoch 8", where the rest of the text puts the failure at
    epoch 6 and 7: the lower rate put it off (WR-030's page: a lower rate only delays the rounding to 0). A place said
    "in" counts as one said "at" or "around"; an earlier one does not."""
    from trainwreck.rate_tried import lr_tried
    text = ("Adagrad with lr 0.15 and batch 16.\nepoch 6 | step 6200 | loss inf\nepoch 7 | step 6600 | loss nan\n"
            "With lr 0.075 the same thing happens, only in epoch 8.")
    assert lr_tried(text) == "delayed"
    assert lr_tried(text.replace("only in epoch 8", "only in epoch 3")) != "delayed"


def test_dead_channels_a_jump_far_above_and_one_output_after_another_clauses_denial():
    """(s81/12, s81/15) A conv layer's units are its channels: "a lot of the channels in the first conv layers output
    zero for every sample" says units dead. "The loss shoots far above where it started" is a jump up. And a denial
    in the clause before ("the loss doesn't move and every window gets exactly the same probability") denies the move,
    not the one output."""
    from trainwreck.frozen_said import dead_units_said, one_output_said
    from trainwreck.start_loss import early_jump_back_said
    assert dead_units_said("When I looked inside, a lot of the channels in the first conv layers output zero for every "
                           "sample.")
    assert dead_units_said("We added BatchNorm to avoid a lot of the channels output zero for every sample.") == ""
    assert early_jump_back_said("Adam at 3e-3. Within the first few dozen steps the loss shoots far above where it "
                                "started, then it comes back down during the first epoch.")
    said = "From the first epoch on the loss doesn't move and every window gets exactly the same probability."
    assert one_output_said(said) == "every window gets exactly the same probability"
    assert one_output_said("It is not true that every window gets exactly the same probability.") == ""


def test_each_item_standardised_by_its_own_unguarded_std_is_wr060_wherever_the_nan_comes():
    """(s82/19) `amt = (amt - amt.mean()) / amt.std(unbiased=False)`, "each window with that window's own
    statistics": a window of equal amounts is 0/0, at whichever batch first holds one (WR-060's "Statistics of one
    item"), so its nan at step 3 counts for WR-060, its timing no mark against it. Not with an epsilon added, not a
    column's statistics with no item said, not with no nan."""
    from trainwreck.input_scaling import PER_ITEM
    code = ("The Dataset rescales the amounts of each window with that window's own statistics:\n"
            "amt = (amt - amt.mean()) / amt.std(unbiased=False)\n")
    log = "".join(f"Epoch 0:   0%|          | {s}/6150 [00:00<16:40,  6.15it/s, v_num=11, train_loss={v}]\n"
                  for s, v in [(1, "0.83"), (2, "0.811"), (3, "nan"), (4, "nan"), (5, "nan")])
    parts = weighed_parts(code + log, "WR-060")
    assert parts.get("item-std-unguarded", 0) > 0 and parts.get("when", 0) >= 0
    # (beside a bad batch's jump to nan, whose curve is a bad batch's too: among the first three)
    assert "WR-060" in [m.entry.id for m in diagnosis(code + log).matches[:3]]
    assert "item-std-unguarded" not in weighed_parts(code.replace("amt.std(unbiased=False)",
                                                                  "(amt.std(unbiased=False) + 1e-6)") + log, "WR-060")
    assert "item-std-unguarded" not in weighed_parts(code.replace("with that window's own statistics",
                                                                  "with the training set's statistics") + log, "WR-060")
    assert "item-std-unguarded" not in weighed_parts(code + log.replace("nan", "0.52"), "WR-060")
    assert PER_ITEM.search("per-sample normalisation") and not PER_ITEM.search("per-sample size of 16")


def test_code_review_s50_readings_stay_where_they_belong():
    """(code_review_s50, items 1-15) Each reading of this session, quiet on the input the review showed it misread,
    and still read where it is told."""
    from trainwreck.normals import normals_asked
    from trainwreck.run_said import loss_kind, never_recovered_said, order_moved_it
    from trainwreck.frozen_said import dead_units_said, one_output_said, units_alike_said
    from trainwreck.clip_unused import discarded_clip, spent_clip
    from trainwreck.start_loss import early_jump_back_said, start_far_above_uniform
    from trainwreck.loss_scale import keras_loop_unscaled
    from trainwreck.class_count import vocabulary_named
    from trainwreck.logscan import scan_text

    def answered(text: str, name: str) -> bool:
        return any(n.name.startswith(name) for n in normals_asked(text.lower()))
    # 1, 18: the MAPE's own value; errors said small, not denied
    for text in ("The MAPE is 450% and the errors are not small at all: the forecasts are useless. What is broken?",
                 "The forecasts don't follow the measurements well and the MAPE is 900%.",
                 "Validation MAPE is 9.5% and the MAE is small. GPU utilization sits at 100% though. Is that OK?"):
        assert not answered(text, "a MAPE of hundreds"), text
    assert answered("loss: 0.0213 - mean_absolute_percentage_error: 3412.5. The MAE is small and the forecasts follow "
                    "the measured curve closely. What is broken?", "a MAPE of hundreds")
    # 2: nnU-Net's own loss, not its name
    other = "I tried nnU-Net first and it was fine. Now my own model's BCE loss is negative, below zero from epoch 2."
    assert not answered(other, "nnU-Net's loss") and loss_kind(other) == "bounded"
    assert answered("Why is the nnU-Net loss negative? train_loss -0.69", "nnU-Net's loss")
    # 3, 4, 11, 12: one output, units alike, an if across an "and", input channels
    assert one_output_said("If the head is frozen and every sample gets the same prediction, the loss should stay at "
                           "ln 10.") == ""
    for text in ("Same code as the paper: hidden units and dropout are the same, only the optimizer differs.",
                 "The filters before and after training are identical."):
        assert units_alike_said(text) == "", text
    assert dead_units_said("Half of the channels of my input tensor are 0 for every recording.") == ""
    # 5, 6: a continued call, a prediction's clip; a clip in a comment, a function's parameter
    assert discarded_clip("optimizer.apply_gradients(zip(\n    tf.clip_by_global_norm(grads, 1.0)[0], vs))\n") is None
    assert discarded_clip("x = foo(\n    tf.clip_by_global_norm(grads, 1.0)\n)\n") is None
    assert discarded_clip("def loss(y, y_pred):\n    tf.clip_by_value(y_pred, 1e-7, 1 - 1e-7)\n") is None
    built = "params = model.parameters()\noptimizer = torch.optim.AdamW(params, lr=3e-4)\n"
    assert spent_clip(built + "    # torch.nn.utils.clip_grad_norm_(params, 1.0)\n") is None
    assert spent_clip(built + "def clip(params, m):\n    return torch.nn.utils.clip_grad_norm_(params, m)\n") is None
    # 7: a short header line keeps its epoch
    ev = scan_text("Start of epoch 0\nstep 0: loss 2.3049\nStart of epoch 1\nstep 0: loss 1.1043\nstep 100: loss 3.9\n"
                   "step 200: loss nan\n")
    assert str(ev.first_nonfinite_at) == "epoch 1, step 200"
    # 8: the class count named before a vocabulary
    assert "ln 3" in start_far_above_uniform("Sentiment classification, 3 classes, LSTM over a vocab of 20000 words. "
                                             "Cross-entropy; the first loss is 14.2, then it falls to 1.1.")
    # 9: a question, a thought
    loop = "Keras U-Net, my own training loop with GradientTape and Adam, everything in float32. "
    for text in ("Would using the mixed_float16 policy help with speed later?",
                 "I thought about using mixed_float16 but I run everything in float32."):
        assert keras_loop_unscaled(loop + text) == "", text
    # 10: "at the start" as a reference point
    assert early_jump_back_said("Adam, lr 1e-3. Around epoch 40 the loss jumps up above where it was at the start, "
                                "then slowly comes back down.") == ""
    # 13, 14: another subject's jump; a clause split that lost the order's words
    assert never_recovered_said("The GPU memory jumps up and stays high after the first batch.") == ""
    assert order_moved_it("When I reshuffle the data, and keep everything else fixed, it breaks at a different step.")
    # 15: a ratio is no size
    assert vocabulary_named("Our vocabulary is 4 times larger than GPT-2's.") is None


def test_an_item_of_equal_values_standardised_by_itself_is_nan_only_where_its_mean_is_exact():
    """WR-060's "Statistics of one item": a float32 window of equal values has a std of 0 and gives 0/0 = nan where
    its mean comes out exact (zeros, a whole number), and about +-1 in every value where rounding leaves the mean a
    hair off (9.99 seven times) -- never a finite, meaningful value either way."""
    import warnings
    import numpy as np
    from conftest import assert_entry_says

    def standardised(value: float) -> np.ndarray:
        x = np.full(7, value, dtype=np.float32)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            return (x - x.mean()) / x.std()
    for exact in (0.0, 3.0):
        assert np.isnan(standardised(exact)).all()
    rounded = standardised(9.99)
    assert np.isfinite(rounded).all() and np.allclose(np.abs(rounded), 1.0)
    assert_entry_says("WR-060", ["0/0, nan, wherever its mean comes out exact", "about ±1 in every value, from rounding",
                                 "not necessarily at the first step"])


def test_a_spike_that_recovers_under_plain_sgd_is_the_rates_not_a_missing_warmups():
    """WR-250's jump is Adam's first steps, each about the full rate whatever the gradient; plain SGD's first steps are
    as large as their gradients make them. Under SGD a jump that comes back down is a step too large for the starting
    curvature (the catapult phase, Lewkowycz et al. 2020), where runs often train well: the rate a suspect, no more. A schedule named before "warmup"
    is a warmup removed too ("I removed the LinearLR warmup")."""
    from trainwreck.schedule_said import NO_WARMUP
    log = "".join(f"step {n} loss {v}\n" for n, v in enumerate((2.3026, 11.84, 9.13, 6.41, 4.10, 2.95, 2.41, 2.29,
                                                                 2.10, 1.95, 1.80, 1.62)))
    sgd = "MLP, 10 classes, torch.optim.SGD(lr=0.5), no scheduler.\n" + log
    adam = "MLP, 10 classes, torch.optim.Adam(lr=3e-3), no scheduler, no warmup.\n" + log
    from trainwreck.weighing import W_CURVE, W_PART
    assert weighed_parts(adam, "WR-250")["curve"] == W_CURVE
    assert weighed_parts(sgd, "WR-250").get("curve", 0.0) == 0.0
    # (a suspect only: the catapult phase often trains well, so half a part and no verdict)
    assert weighed_parts(sgd, "WR-220")["curve"] == W_PART / 2 and weighed_parts(adam, "WR-220")["curve"] < 0
    assert diagnosis(sgd).matches[0].entry.id == "WR-220" and diagnosis(sgd).verdict == "uncertain"
    assert diagnosis(adam).matches[0].entry.id == "WR-250"
    assert NO_WARMUP.search("I removed the LinearLR warmup from the old script")
    assert NO_WARMUP.search("dropped --lr-warmup-fraction .01") and not NO_WARMUP.search("I kept the warmup")


def test_a_density_models_bits_per_dim_are_its_loss_and_a_rate_said_alone_is_constant():
    """`step 3 bpd 14.55` is a flow's NLL in bits per dimension, read as the loss (`val bpd` is not the training one);
    "Adam with lr 1e-3" and nothing in the paste naming a schedule or a warmup is a rate the run had from its first
    step, so a jump to 1.5x the start in the first steps that comes back down is WR-250's face."""
    from trainwreck.logscan import scan_text
    steps = (0, 1, 3, 6, 10, 20, 50, 200, 2000)
    log = "".join(f"step {n:5d}   bpd {v}\n" for n, v in zip(steps, (8.913, 9.874, 14.551, 21.062, 17.388, 9.719,
                                                                       6.204, 4.985, 4.277)))
    log += "epoch  50   val bpd 3.962\n"
    assert scan_text(log).before == [8.913, 9.874, 14.551, 21.062, 17.388, 9.719, 6.204, 4.985, 4.277]
    said = "RealNVP on 32x32 faces, Adam with lr 1e-3, batch 128.\n" + log
    d = diagnosis(said)
    assert d.matches[0].entry.id == "WR-250"
    assert "under Adam at a rate of 1e-3, with no schedule or warmup named" in d.matches[0].evidence[0]
    # (a schedule that warms up is no rate from the first step; a cosine one with no warmup named starts at its top)
    assert diagnosis(said.replace("batch 128", "batch 128, cosine schedule after a linear warmup")).signature.name \
        != "spike-then-recover"
    assert diagnosis(said.replace("batch 128", "batch 128, cosine schedule")).signature.name == "spike-then-recover"


def test_a_gans_own_train_step_under_mixed_float16_scales_no_loss():
    """compile() wraps the one optimizer it is given; a GAN that overrides train_step steps two of its own (keras.io's
    DCGAN hands d_optimizer and g_optimizer to its own compile), so under mixed_float16 neither scales its loss. Not a
    model that overrides train_step with no GAN's optimizers in sight, nor one that wraps them."""
    from trainwreck.loss_scale import keras_loop_unscaled
    said = ("I took the Keras DCGAN example, the one that overrides train_step, and added "
            "keras.mixed_precision.set_global_policy(\"mixed_float16\"). The samples stop improving after epoch 2.")
    assert keras_loop_unscaled(said) == 'set_global_policy("mixed_float16"'
    assert "own loop" in context_of(said).printed["loop-unscaled"]
    assert keras_loop_unscaled(said.replace("DCGAN example", "image classifier")) == ""
    assert keras_loop_unscaled(said + " I wrap d_optimizer in a LossScaleOptimizer.") == ""


def test_a_short_log_that_climbs_beside_words_that_say_so_is_no_healthy_run():
    """Four values that end 1.5x above the first, beside "the loss keeps going up": too few for a shape, but the words
    and the values agree, so the run is not answered as healthy. Not where the loss grows in a healthy run (a GAN's
    generator), nor a validation curve, nor where the values fell."""
    log = "".join(f"it {1000 * i}: loss={v}\n" for i, v in enumerate((0.41, 0.47, 0.55, 0.62), 1))
    said = "The loss keeps going up as training goes on.\n"
    d = diagnosis(said + log)
    assert d.verdict == "uncertain" and "WR-220" in [m.entry.id for m in d.matches]
    assert not diagnosis(log).matches
    assert not diagnosis("My DCGAN generator loss keeps going up.\n" + log).matches
    assert not diagnosis("Here is my val loss; it keeps going up.\n" + log).matches
    # (review s53 #9: a climb said to have come back down, or to belong to the warmup, is no climb of the run)
    assert not diagnosis("During the warmup the loss climbs a little, then it falls for the rest of the run.\n"
                         + log).matches
    # (review s53b #6: a fall before the climb, a fall denied, or the rate's drop, leaves it a climb)
    for climbed in ("The loss fell to 0.40 at first, and since then it keeps increasing.\n",
                    "The loss keeps going up, it never comes back down.\n",
                    "It drops the learning rate at epoch 30 but the loss keeps rising.\n",
                    "It doesn't learn, the loss keeps going up.\n"):
        assert diagnosis(climbed + log).matches, climbed
    fell = "".join(f"it {1000 * i}: loss={v}\n" for i, v in enumerate((0.62, 0.55, 0.47, 0.41), 1))
    assert not diagnosis(said + fell).matches


def test_a_score_said_to_rise_is_no_climb_of_a_failure_beside_a_normal_answer():
    """"The val accuracy keeps going up" is progress: beside a question about a spiky loss, the answer is the normal
    one, and an entry whose only support is the words' overlap is no closest entry. A loss said to climb still says
    more than spikes."""
    said = ("The per-step loss jumps around a lot between batches of rays, but the eval PSNR keeps going up and the "
            "renders look fine. Is training unstable?\n")
    d = diagnosis(said)
    assert d.verdict == "normal" and d.normal[0].name == "spikes in a falling curve"
    assert d.matches == []
    assert diagnosis(said.replace("the eval PSNR keeps going up", "the loss keeps going up")).verdict != "normal"
    # (review s53b #7: "mixed precision" is no score, nor a loss's clause a score's)
    assert diagnosis("The per-step loss jumps around between batches. Since I turned on mixed precision the loss keeps "
                     "going up. Is training unstable?\n").verdict != "normal"


def test_a_loss_switched_away_from_does_not_bound_the_one_in_use():
    """"Switched from MSE to a Gaussian NLL" names a likelihood, whose loss may go below zero; MSE is the loss left
    behind. Named as the loss in use, it still bounds it."""
    from trainwreck.run_said import loss_kind

    assert loss_kind("I switched the head from MSE to nn.GaussianNLLLoss; it is better than the old MSE head.") \
        == "likelihood"
    assert loss_kind("The head is trained with MSE plus a Gaussian prior term.") == ""
    assert loss_kind("The head is trained with MSE.") == "bounded"
    # (review s53b #8: computed from a loss is not switched from it)
    assert loss_kind("The loss is computed from the MSE between prediction and target.") == "bounded"


def test_a_rate_tried_with_the_failure_still_at_the_place_it_broke_with_no_at():
    """"lr 3e-5 -> still epoch 2, batch 118", beside the place the run broke named elsewhere: a rate that did not move
    the failure, though no verb says it was tried. Not where the place differs from the one it broke at."""
    said = ("It goes nan at epoch 2, batch 118 every time with seed 0.\nThings I checked:\n"
            "- lr 3e-5 -> still epoch 2, batch 118\n- clipping at 1.0 -> no change\n")
    assert lr_tried(said) == "failed"
    from trainwreck.rate_tried import lr_tried_same_place
    assert lr_tried_same_place(said)
    assert not lr_tried_same_place(said.replace("still epoch 2, batch 118", "still epoch 5, batch 40"))


def test_a_climb_from_an_enormous_start_on_raw_regression_targets_counts_half_for_the_rate():
    """A regression's MSE that starts at 4.1e9 on targets in dollars and climbs to inf under SGD: a rate too high alone
    starts from an ordinary loss, so the climb is the raw targets' second face and counts half for the rate -- said
    against it. With targets said to be scaled, the climb is the rate's whole."""
    log = "".join(f"step {50 * i}  loss {v}\n" for i, v in enumerate(("4.1e+09", "8.8e+10", "2.3e+15", "inf", "nan")))
    said = "MLP regression on house prices, nn.MSELoss(), SGD momentum 0.9, lr 1e-3; the target is the price in dollars.\n"
    d = diagnosis(said + log)
    rate = next(m for m in d.matches if m.entry.id == "WR-220")
    assert d.matches[0].entry.id == "WR-360"
    assert any("the climb counts half here" in a for a in rate.against)
    scaled = diagnosis(said.replace("the target is the price in dollars", "the targets are standardised") + log)
    assert not any("the climb counts half here" in a for m in scaled.matches for a in m.against)


def test_gradients_cleared_only_once_per_epoch_are_read_beside_words_that_the_loss_climbs_back():
    """`optimizer.zero_grad()` before the batch loop and none in it: every step carries the gradients since the epoch
    began. A curve too short to judge, beside words that the loss climbs back up, is a run that went wrong, and the
    construct is read there; beside a falling curve and no such words, it is not."""
    code = ("for epoch in range(10):\n    optimizer.zero_grad()\n    for x, y in loader:\n"
            "        loss = F.cross_entropy(model(x), y)\n        loss.backward()\n        optimizer.step()\n")
    log = "".join(f"step {20 * i} loss {v}\n" for i, v in enumerate((2.3, 1.9, 1.6, 1.45, 1.38)))
    assert not diagnosis(code + log).matches
    d = diagnosis("The loss drops for a while, then slowly goes back up within every epoch.\n" + code + log)
    assert d.matches and d.matches[0].entry.id == "WR-260"
    cleared = code.replace("        loss.backward()", "        optimizer.zero_grad()\n        loss.backward()")
    assert not any("clears the gradients only before" in e for m in diagnosis(cleared + log).matches for e in m.evidence)


def test_a_lower_rate_that_gets_further_before_the_failure_only_puts_it_off():
    """"With lr=3e-5 it gets further, nan at epoch 31": the failure came later, the same -- put off. Not where the lower
    rate got further and trained well."""
    assert lr_tried("With lr=3e-5 it gets further, nan at epoch 31, same shape.") == "delayed"
    assert lr_tried("With lr=3e-5 it gets further and trains fine.") != "delayed"


def test_a_rate_dropped_with_the_failure_still_at_a_bare_count_the_log_gives():
    """"Dropped the lr to 1e-6: still nan at 4180", beside a progress bar's `4180/30000`: a lower rate that broke at
    the same place, the count bare. A count under 50, or one the rest of the text does not give, is no place."""
    from trainwreck.rate_tried import lr_tried_same_place

    bar = "Steps: 14%| 4179/30000 [1:09:40, loss=0.071]\nSteps: 14%| 4180/30000 [1:09:41, loss=nan]\n"
    said = "Dropped the lr to 1e-6: still nan at 4180.\n"
    assert lr_tried(said) == "failed" and lr_tried_same_place(bar + said)
    assert not lr_tried_same_place(bar + said.replace("4180", "5120"))
    assert not lr_tried_same_place("It breaks at 12 sometimes.\nDropped the lr to 1e-6: still nan at 12.\n")
    # ("again" after the place, the step's word before it: the bar's bare count is the same place; an epoch's is not,
    # nor a size's side, "512x512")
    tried = "Things I tried:\n- lr 2e-5 -> 5e-6: nan at iteration 4180 again\n"
    assert lr_tried(bar + tried) == "failed" and lr_tried_same_place(bar + tried)
    crops = "Crops are 512x512.\nThings I tried:\n- lr 1e-5: nan at iteration 512 again\n"
    assert not lr_tried_same_place(crops)
    assert not lr_tried_same_place(bar + tried.replace("iteration 4180", "epoch 4180"))
    assert not lr_tried_same_place(bar + tried.replace("4180", "5120"))


def test_a_construct_of_one_face_is_not_held_against_by_another_faces_messages():
    """A degree raised to -0.5 in a PyTorch paste, nan from the first epoch: the division by zero in a normalisation.
    PyTorch prints that entry's BatchNorm messages unasked, but only where BatchNorm broke -- their absence is no
    evidence against a hand-written degree normalisation."""
    code = ("    deg = adj.sum(dim=1)\n    dinv = deg.pow(-0.5)\n    a_hat = dinv.view(-1, 1) * adj * dinv.view(1, -1)\n"
            "    out = a_hat @ self.lin(torch.relu(x))\n")
    log = "".join(f"epoch {e}  loss nan  acc 0.1429\n" for e in range(4))
    d = diagnosis("My GCN written with dense matrices, PyTorch:\n" + code + log)
    top = d.matches[0]
    assert top.entry.id == "WR-060" and "none of the messages this failure prints are in the log" not in top.against


def test_review_s53c_rates_climbs_and_sums():
    """(code_review_s53c) A lower rate that got further with no nan fixed the run; a run "still in epoch 3, no nan so
    far" is still going; a rate of 0 used to look at the start is no failure kept; a climb beside an accuracy that
    drops is a climb, and "it gets worse" of the lr is none; a Retrieval task given its own loss is no sum."""
    import io as _io

    from trainwreck.curve_shape import signature_of
    from trainwreck.rate_tried import lr_tried_same_place
    from trainwreck.run_said import loss_climb_said

    assert lr_tried("With lr=1e-4 it gets further, no nan after 50 epochs.") != "delayed"
    said = ("At lr 1e-3 the loss goes nan in epoch 3, batch 503. I restarted with lr 1e-4 and it is still in epoch 3, "
            "no nan so far.")
    assert not lr_tried_same_place(said)
    assert rate_zero_failed("I set lr=0 to look at the loss before any update: it is 2.30, as expected.") == ""
    assert loss_climb_said("The loss keeps going up and the accuracy drops.")
    assert loss_climb_said("In the warmup phase everything is fine, but afterwards the loss keeps going up.")
    assert not loss_climb_said("If I lower the lr it gets worse.")
    log = "".join(f"Epoch {e}/4\n220/220 - 15s - loss: {v}\n" for e, v in enumerate((52917.5, 50544.1, 49710.9,
                                                                                     49214.6), 1))
    own = "task = tfrs.tasks.Retrieval(loss=tf.keras.losses.CategoricalCrossentropy(from_logits=True))\n"
    assert signature_of(scan(_io.BytesIO((own + log).encode()), "log")).enormous_start


def test_review_s53c_a_loss_below_zero_that_jumps_far_is_a_climb():
    """(code_review_s53c #3) A critic at -1.80 that jumps to 5.3e6 and goes nan has jumped, by a difference far larger
    than its own scale; a 7% rise below zero is a mild climb, as its positive mirror is."""
    import io as _io

    from trainwreck.curve_shape import signature_of

    jump = "".join(f"it {100 * i} loss_C {v}\n" for i, v in enumerate(("-1.92", "-1.81", "-1.77", "-1.80", "5.3e+06", "nan")))
    assert signature_of(scan(_io.BytesIO(jump.encode()), "log")).name == "climb-then-nonfinite"
    mild = "".join(f"it {100 * i} loss_C {v}\n" for i, v in enumerate(("-2.52", "-2.47", "-2.41", "-2.35", "nan")))
    assert signature_of(scan(_io.BytesIO(mild.encode()), "log")).weak


def test_a_guess_of_overfitting_asked_does_not_make_a_climb_a_validation_curve():
    """A training loss that halves, then climbs back for most of the prints after its low: "am I overfitting after two
    epochs?" is the reporter's guess about it, not words that the values are a validation loss. What a question takes
    as given still says which curve the values are: a validation loss that goes up, a training loss still falling."""
    from trainwreck.curve_shape import signature_of

    values = (3.05, 2.41, 1.97, 1.66, 1.49, 1.57, 1.73, 1.70, 2.02, 2.37, 2.30, 2.71, 2.96)
    log = "".join(f"it {40 * (i + 1)}: loss={v}\n" for i, v in enumerate(values))

    def shape(words):
        return signature_of(scan(io.BytesIO((log + words).encode()), "log")).name

    assert shape("Dropped fast, then back up. Am I overfitting after two epochs?\n") == "climbed-and-stayed"
    assert shape("My model is overfitting, I think.\n") != "climbed-and-stayed"
    for asked in ("Why would the validation loss rise like that while the training loss keeps falling?",
                  "Are these validation losses rising because of overfitting?",
                  "Is this overfitting, given the training loss is still decreasing?"):
        assert shape(asked + "\n") != "climbed-and-stayed", asked
    # (a question that asks whether the training loss still falls, or denies it, takes nothing as given)
    for asked in ("Is my training loss still decreasing? No, it goes up from epoch 6.",
                  "Shouldn't the training loss keep dropping? Mine goes up from epoch 6.",
                  "The training loss kept falling until epoch 5, then it went up."):
        assert shape(asked + "\n") == "climbed-and-stayed", asked


def test_a_count_of_examples_printed_after_the_first_batch_is_the_runs_start():
    """A loop that counts the examples seen, in an epoch numbered 0, printing after its first batch and then every k
    batches (`[512/...]`, `[3072/...]`): its first print is the run's start. Not a paste that begins at a later print,
    nor prints at no steady interval, nor an epoch numbered 1 (that loop's second epoch), nor PyTorch's MNIST example
    pasted from its second print (it prints at its count 0 first)."""
    from trainwreck.curve_shape import at_run_start

    def ev_of(counts, epoch=0, total=4096000):
        return scan(io.BytesIO("".join(f"Train Epoch: {epoch} [{n}/{total} (0%)] Loss: 5.1\n" for n in counts).encode()),
                    "log")

    assert at_run_start(ev_of([512, 3072, 5632]))
    assert at_run_start(ev_of([2048, 4096, 6144]))            # (printed every batch: k = 1)
    assert not at_run_start(ev_of([3072, 5632, 8192]))
    assert not at_run_start(ev_of([4096, 6144, 8192]))
    assert not at_run_start(ev_of([200, 4000, 4400]))          # prints picked out of a log, not every k
    assert not at_run_start(ev_of([512, 51712, 102912], epoch=1))
    assert not at_run_start(ev_of([640, 1280, 1920], epoch=1, total=60000))


def test_a_contrastive_run_takes_no_class_count_from_the_dataset_it_names():
    """A contrastive loss's uniform guess is ln of the candidates it is shown, not of a dataset's classes: "CIFAR-10"
    beside an InfoNCE pretraining run is its data. A linear probe or a fine-tuned head on the dataset, a contrastive
    word denied, or a clipping threshold in capitals ("GRAD CLIP 1.0") leave the dataset's count."""
    from trainwreck.class_count import classes_named

    assert classes_named("MoCo v2 pretraining on CIFAR-10 with a queue of 4096 keys; the loss starts at 8.3") is None
    assert classes_named("Our InfoNCE run on ImageNet: the first loss is 5.5") is None
    assert classes_named("A linear probe over frozen MoCo features on CIFAR-100 starts at a loss of 29")[0] == 100
    assert classes_named("We are not doing contrastive learning, only a ResNet on CIFAR-100.")[0] == 100
    assert classes_named("GRAD CLIP = 0.5 with a ResNet-101 on CIFAR-100, loss starts at 4.6")[0] == 100
    # (a projection head is a contrastive run's own, no classifier: its dataset still names no count)
    assert classes_named("SimCLR on STL-10 with a two-layer projection head, the NT-Xent loss starts at 6.2") is None
    assert classes_named("gradient clipping at 1.0, ImageNet, loss starts at 6.9")[0] == 1000


def test_one_class_said_for_every_input_beside_a_long_curve_that_barely_fell_is_no_healthy_run():
    """"It always predicts class 1", beside twelve losses whose end has stopped moving: a network that found the base
    rate and passes nothing of its input on, not a healthy run -- however many values are pasted, and however far it
    fell (ln 2 to 0.098 is a 2% minority class's base rate). A curve still falling at its end is still learning."""
    from trainwreck.frozen_said import one_output_said

    def verdict(values, words):
        log = "".join(f"step {100 * (i + 1)}  loss {v}\n" for i, v in enumerate(values))
        return diagnosis(log + words).verdict

    slow = (0.693, 0.671, 0.688, 0.655, 0.662, 0.648, 0.651, 0.630, 0.646, 0.622, 0.641, 0.619)
    words = "The classifier always predicts class 1 on the test set.\n"
    assert verdict(slow, words) == "uncertain"
    assert verdict(slow, "Test accuracy is 0.93.\n") == "healthy"
    imbalanced = (0.693, 0.44, 0.28, 0.19, 0.15, 0.14, 0.136, 0.135, 0.136, 0.135, 0.135, 0.135)
    assert verdict(imbalanced, "Churn model, 3% churners: it always predicts the majority class.\n") != "healthy"
    fell = tuple(round(0.693 * 0.86 ** i, 3) for i in range(12))
    assert verdict(fell, words) == "healthy"
    # (the one class quoted, or the commonest, is one output for every input too -- not a subset, nor another verb's)
    assert one_output_said("My classifier only ever predicts 'spam'.") == "only ever predicts 'spam'"
    assert one_output_said("It always predicts the majority class.") == "always predicts the majority class"
    for said in ("A baseline that always predicts the majority class gets 81%.",
                 "It always predicts 'rain' for coastal stations and is fine elsewhere.",
                 "The tokenizer always returns 'token_type_ids' too.",
                 "The wrapper only returns 'loss' if labels are given.",
                 "It only predicts 'B-PER' tags for most words.", "It always predicts 'cat' and 'owl' correctly."):
        assert one_output_said(said) == "", said
    assert one_output_said("It always predicts 'spam' in every case.") == "always predicts 'spam'"


def test_pytorchs_conditional_half_precision_messages_are_no_evidence_by_their_absence():
    """PyTorch's native AMP skips an overflowing step in silence: the scheduler's warning needs a scheduler and a skipped
    first step, the scaler's ValueError float16 weights. A hand-written autocast loop that prints inf from its first
    iterations, and trains in float32, is not held against half precision for printing neither."""
    from trainwreck.catalog import load

    catalog = load(ROOT / "catalog")
    pytorch = [m for m in catalog.entries["WR-040"].messages if m.origin == "pytorch"]
    assert pytorch and all(m.opt_in for m in pytorch)
    loop = ("    with torch.autocast('cuda', dtype=torch.float16):\n        out = net(batch)\n"
            "        loss = crit(out, target)\n    scaler.scale(loss).backward()\n")
    log = "".join(f"[it {i:04d}] loss=inf  scale={65536 / 2 ** i:.0f}\n" for i in range(1, 5))
    text = "On an RTX 3060 my loop below gives inf from the first iteration; in float32 it trains.\n" + loop + log
    top = diagnosis(text).matches[0]
    assert top.entry.id == "WR-040" and "none of the messages this failure prints are in the log" not in top.against


def test_a_loss_that_is_minus_a_cosine_similarity_may_go_below_zero():
    """SimSiam's loss and lightly's NegativeCosineSimilarity are minus a cosine: -1 when the views agree. A loss named
    so that heads for -1 is the design, so labels out of range are no closest entry; BYOL's own 2 - 2cos is no such
    loss, and a cosine similarity that is not negated says nothing."""
    from trainwreck.run_said import loss_kind

    assert loss_kind("criterion = NegativeCosineSimilarity()") == "likelihood"
    assert loss_kind("loss = -F.cosine_similarity(p, z.detach()).mean()") == "likelihood"
    assert loss_kind("sim = F.cosine_similarity(p, z) and the loss is cross-entropy") == "bounded"
    d = diagnosis("My SimSiam run prints a negative loss that creeps towards -1. Is that broken?\n")
    assert d.verdict == "normal" and not d.matches


def test_a_loss_that_is_minus_a_signal_to_distortion_ratio_may_go_below_zero():
    """Source separation trains on minus a ratio in decibels (negative SI-SDR or SI-SNR; asteroid's SingleSrcNegSDR):
    unbounded below, and more negative as the separation improves. Labels out of range are no closest entry; an SDR
    printed as a metric beside a cross-entropy says nothing of the loss."""
    from trainwreck.run_said import loss_kind

    for built in ("loss_func = SingleSrcNegSDR('sisdr')", "criterion = PairwiseNegSDR('snr')",
                  "loss = singlesrc_neg_sisdr(est, ref).mean()", "we train with the SI-SNR loss as in Conv-TasNet",
                  "the loss is negative SI-SDR", "loss = -si_sdr(est, ref)", "class NegativeSISDR(_Loss):",
                  "I train with a loss of negative SI-SDR; it goes to -12.",
                  "loss = si_snr_loss(est, ref)", "loss = -scale_invariant_signal_distortion_ratio(preds, target).mean()"):
        assert loss_kind(built) == "likelihood", built
    assert loss_kind("criterion = nn.CrossEntropyLoss(); val SDR 7.1 dB") == "bounded"
    # (a negative ratio as a condition of the data is no loss, beside the word loss too)
    for data in ("keyword spotting on clips at negative SNR", "we evaluate at negative SDR levels",
                 "The loss on clips at negative SNR goes below zero."):
        assert loss_kind(data) == "", data
    # (a CTC loss is one that cannot go below zero, whatever the speech's SNR)
    assert loss_kind("CTC loss, trained on speech at negative SNR") == "bounded"
    d = diagnosis("Training a mask network with SingleSrcNegSDR('sisdr'): the loss goes from -2.1 to -11.4 over 20 "
                  "epochs. A loss should not be negative, should it?\n")
    assert d.verdict == "normal" and not d.matches
    assert "minus a ratio in decibels, unbounded below" in d.normal[0].explanation


def test_an_image_restoration_loss_that_is_minus_the_psnr_may_go_below_zero():
    """HINet's and NAFNet's PSNRLoss is 10 log10 of the mean squared error (10 / ln 10 times its log), which is minus
    the PSNR of images in [0, 1]: about -30 to -40 as a denoiser trains. NAFNet's own training configs use it (its
    NAFSSR configs an MSE); a PSNR printed as a metric says nothing of the loss."""
    from trainwreck.run_said import loss_kind

    # (NAFNet's PSNRLoss as its code computes it: 10 / ln 10 times the log of the MSE plus 1e-8 -- a denoiser's
    # output 0.03 off its target scores about -30, and no output can score below -80)
    def psnr_loss(pred, target):
        return 10 / np.log(10) * np.log(((pred - target) ** 2).mean() + 1e-8)

    rng = np.random.default_rng(0)
    clean = rng.uniform(0, 1, (3, 16, 16))
    assert psnr_loss(clean + rng.normal(0, 0.03, clean.shape), clean) == pytest.approx(-30.4, abs=0.5)
    assert psnr_loss(clean, clean) == pytest.approx(-80.0)
    for built in ("pixel_opt:\n    type: PSNRLoss\n    loss_weight: 1", "self.cri_pix = PSNRLoss()",
                  "options/train/SIDD/NAFNet-width32.yml", "loss = -psnr(out, gt)", "we train on a PSNR loss"):
        assert loss_kind(built) == "likelihood", built
    # (NAFNet's name says the loss only where no other is named; a PSNR subtracted from another number is no loss)
    for bounded in ("NAFSSR-T_x4.yml with pixel_opt MSELoss", "criterion = nn.L1Loss(); val psnr 30.1",
                    "I train NAFNet with criterion = nn.L1Loss()"):
        assert loss_kind(bounded) == "bounded", bounded
    assert loss_kind("gap = best - psnr(out, gt)") == ""
    log = "".join(f"2024-01-08 09:{10 + i}:52,339 INFO: [train..][epoch:  0, iter:{200 * (i + 1):8,d}, lr:(1.000e-03,)] "
                  f"[eta: 3 days, 2:31:06, time (data): 0.671 (0.012)] l_pix: {v} \n"
                  for i, v in enumerate(("-2.8817e+01", "-3.1406e+01", "-3.0992e+01", "-3.3751e+01")))
    d = diagnosis("Training NAFNet-width32 on SIDD: the loss is negative and keeps going down, is that normal?\n" + log)
    assert d.verdict == "normal" and not d.matches and "NAFNet's PSNRLoss" in d.normal[0].explanation


def test_the_same_place_said_to_break_every_run_is_one_token():
    """"Nan at the same batch every run", "it jumps at iteration 880, every single time": a place tied to the data, as
    the bad batch's own phrase says; not a step that merely comes with "every run" elsewhere in the clause."""
    for said in ("the loss is nan at the same batch every run", "it jumps at iteration 880, every single time",
                 "it breaks on exactly the same step each time"):
        assert "samestep" in tokens(said), said
    # (or of several runs that all broke there -- not one seed's run replayed, which breaks where it broke whatever the
    # cause, nor runs that only log or warm up at the same step)
    assert "samestep" in tokens("1e-3, 1e-4 and 1e-5 all die at exactly the same iteration")
    assert "samestep" in tokens("the loss is nan always at the same step")
    assert "samestep" in tokens("with three seeds they all hit nan at the same iteration")
    for said in ("I get nan at step 4000 and every run is slow", "it diverges at the same step as without clipping",
                 "the lr warmup always ends at the step I set", "always at the exact same iteration for a given seed",
                 "the train and val losses are all logged at the same step",
                 "all three runs warm up at the same step, then diverge at different places"):
        assert "samestep" not in tokens(said), said
    assert "samestep" in tokens(" ".join(real_catalog().entries["WR-310"].phrases))


def test_a_masked_softmax_shown_in_the_code_is_bound_to_examples_as_a_bad_batch_is():
    """Scores filled with -inf where a mask is off: a row with nothing to attend to is one example's (a sequence left
    empty), so a place that moves with the shuffle, or stays put at a lower rate, is its face as much as a bad batch's.
    Without the construct in the paste, those words stay the bad batch's alone."""
    from trainwreck.run_said import order_moved_it

    assert order_moved_it("Which step it breaks at depends on the shuffle seed.")
    assert not order_moved_it("When it breaks does not depend on the shuffle seed.")
    code = ("    att = att.masked_fill(~keep, float('-inf'))\n    w = torch.softmax(att, dim=-1)\n")
    log = "".join(f"step {100 * i}  loss {v}\n" for i, v in enumerate(("1.92", "1.61", "1.47", "1.40", "nan", "nan")))
    said = "With another shuffle seed it breaks at a different step.\n"
    assert weighed_parts(code + log + said, "WR-070").get("order-moved", 0) > 0
    assert weighed_parts(log + said, "WR-070").get("order-moved", 0) == 0
    assert weighed_parts(log + said, "WR-310").get("order-moved", 0) > 0


def test_half_precision_flags_fold_and_bit_depths_and_metrics_do_not():
    """Lightning's precision flags and 16-bit floats are half precision; a 16-bit image or sample, a precision metric,
    and bfloat16's own flag are not."""
    for said in ('Trainer(precision="16-mixed")', "switched to 16-mixed", "trainer:\n  precision: 16\n",
                 "precision='16-true'", "--precision 16", "Trainer(devices=2, precision=16)",
                 "trained with 16-bit floats", "Using 16bit Automatic Mixed Precision (AMP)"):
        assert "fp16" in tokens(said), said
    for said in ("16-bit TIFFs of the scenes", "16-bit FLAC recordings", "16-bit training tiles",
                 "Precision: 12.5%, recall: 64%", "test precision: 16 %", "precision: 16, recall: 9",
                 "precision=16 recall=71", 'precision="bf16-mixed"'):
        assert "fp16" not in tokens(said), said
    assert "bf16" in tokens('precision="bf16-mixed"')


def test_a_tables_gradient_norm_column_is_its_total_not_a_parameters_or_a_clipped_one():
    """Beside a clip at 50: a table whose total norm stayed under it never engaged the clip; one whose total went past
    it did, whatever a parameter's own norm column (printed before the total) or a clipped norm's says."""
    from trainwreck.curve_shape import signature_of

    def facts(header, rows):
        text = "Trainer(gradient_clip_val=40)\n" + header + "\n" + "".join(" ".join(map(str, r)) + "\n" for r in rows)
        return " ".join(signature_of(scan(io.BytesIO(text.encode()), "log")).facts)

    losses = (3.8, 2.5, 2.2, 2.4, 2.7, 3.1, 3.5, 4.0, "nan")
    total = (2.9, 6.1, 8.8, 13.0, 20.6, 33.1, 51.4, 97.2, "nan")
    rows = [(50 * i, v, round(t / 60, 3) if t != "nan" else "nan", t, 0.002)
            for i, (v, t) in enumerate(zip(losses, total))]
    header = "step train_loss grad_2.0_norm/fc.weight grad_2.0_norm_total lr"
    assert "never engaged" not in facts(header, rows)
    under = [(s, v, p, t / 4 if t != "nan" else t, lr) for s, v, p, t, lr in rows]
    assert "never engaged: the largest gradient norm before the blow-up was 24.3" in facts(header, under)
    clipped = [(s, v, min(t, 40) if t != "nan" else t, lr) for s, v, _p, t, lr in rows]
    assert "never engaged" not in facts("step train_loss grad_norm_clipped lr", clipped)


def test_a_rise_past_a_uniform_guess_is_a_jump_from_a_first_value_already_below_it():
    """A log that prints after its first updates starts below ln V; under Adam at a rate printed the same from its first
    step, a rise to more than a nat above the uniform guess over the vocabulary the paste names ("24k joint BPE") is
    the updates' doing, though it is under 1.5 times the first value. Not when the peak stays under ln V + 1."""
    from trainwreck.class_count import vocabulary_named
    from trainwreck.curve_shape import signature_of

    assert vocabulary_named("Corpus: 600k sentence pairs, 24k shared BPE.")[0] == 24000
    assert vocabulary_named("a 16,000-piece SentencePiece model")[0] == 16000
    for said in ("trained for 24k steps with BPE dropout", "Llama 2 SentencePiece",
                 "at step 4000 BPE merges were frozen", "sentencepiece v0.1.99"):
        assert vocabulary_named(said) is None, said
    # (GPT-2's tokenizer is known by its name, 50,257 tokens -- not by the 2 in it)
    assert vocabulary_named("the GPT-2 BPE tokenizer")[0] == 50257

    def sig(values):
        log = "".join(f"step {25 * (i + 1)}  lr 0.0005  loss {v}\n" for i, v in enumerate(values))
        return signature_of(scan(io.BytesIO(("Adam, 24k shared BPE.\n" + log).encode()), "log"))

    jumped = sig((9.6, 13.2, 12.4, 9.9, 8.6, 7.7, 7.1, 6.8, 6.5, 6.3))     # ln 24000 = 10.09; 13.2 is 3.1 nats above
    assert jumped.name == "spike-then-recover" and "3.1 nats above a uniform guess over 24000" in jumped.facts[0]
    assert sig((9.6, 10.8, 10.3, 9.4, 8.6, 7.7, 7.1, 6.8, 6.5, 6.3)).name != "spike-then-recover"
    # (with no rate printed and no words of warmup, an Adam the paste builds is no evidence from below ln V: a batch of
    # rare tokens alone scores above ln V + 1 once the model has learned the tokens' frequencies)
    built = "opt = torch.optim.Adam(net.parameters(), lr=3e-4)\n24k shared BPE.\n" + "".join(
        f"step {25 * (i + 1)}  loss {v}\n" for i, v in enumerate((9.6, 13.2, 12.4, 9.9, 8.6, 7.7, 7.1, 6.8, 6.5, 6.3)))
    assert signature_of(scan(io.BytesIO(built.encode()), "log")).name != "spike-then-recover"


def test_a_sequence_models_negative_scores_are_log_probabilities():
    """A beam search's scores below zero are log-probabilities, as fairseq-generate prints them (in base 2): normal,
    with no labels-out-of-range entry beside it; "negative scores" of a generation are not a negative loss."""
    from trainwreck.normals import normals_asked

    text = ("My beam search gives sequences_scores like -0.41 and -1.37 for every hypothesis, all negative, while the "
            "training loss was positive. Is the decoder broken?\n")
    d = diagnosis(text)
    assert d.verdict == "normal" and d.normal[0].name.startswith("a sequence model's scores") and not d.matches
    assert not any(n.name == "negative loss" for n in normals_asked(text))
    assert not any(n.name.startswith("a sequence model's") for n in normals_asked("My loss is negative, is that bad?"))


def test_opennmt_prints_its_accuracy_as_a_percentage_with_no_sign():
    """OpenNMT-py's `acc: 0.4` is 0.4 percent: the dialect says so, so a stuck accuracy is judged in points of a
    percentage, and a keyed log's bare 0.4 is still a share."""
    from trainwreck.curve_shape import accuracy_scale

    def ev_of(line):
        return scan(io.BytesIO("".join(line.format(i=i, a=0.3 + 0.1 * i) for i in range(6)).encode()), "log")

    onmt = ev_of("[2024-05-01 10:00:00,000 INFO] Step {i}00/9000; acc: {a:.1f}; ppl: 90.0; xent: 4.5; lr: 0.00100;\n")
    assert onmt.dialect == "OpenNMT-py" and onmt.accuracy_percent and accuracy_scale(onmt) == 100
    keyed = ev_of("step {i}00 loss 4.5 acc {a:.1f}\n")
    assert not keyed.accuracy_percent and accuracy_scale(keyed) == 1


def test_one_jump_per_step_below_the_watch_floor_and_no_new_high_is_a_swing():
    """A Trainer log of the mean loss over 64 examples (batch 8, logged every 8 steps: no small batch) that falls from
    0.71 and swings near zero: 0.0042 to 0.1120 is x27 in one step, but back to no more than 0.1530, where the run's
    second half had already been and come down from, and below half its start (curve_shape._below_step_floor, the
    loss watch's STEP_FLOOR). Near zero, one confidently wrong example moves such a mean that far. Above the floor, or
    above every value of the second half, or in a log of whole epochs, the jump is still read."""
    from trainwreck.watch_rule import STEP_FLOOR
    values = [0.7104, 0.4318, 0.0902, 0.2711, 0.0338, 0.0127, 0.1530, 0.0081, 0.0042, 0.1120]
    head = "per_device_train_batch_size=8, logging_steps=8, learning_rate=3e-5. Is this fine?\n"
    lines = "".join(f"{{'loss': {v}, 'learning_rate': 3e-05, 'epoch': {0.02 * (k + 1):.2f}}}\n" for k, v in enumerate(values))
    assert 0.1120 < STEP_FLOOR * 0.7104 and 0.1120 <= 0.1530
    d = diagnosis(head + lines)
    assert d.verdict == "healthy" and not d.matches
    # (where the watch's only warning is that last jump, the healthy answer says so, not that it came back down)
    smooth = [0.7104, 0.5318, 0.3902, 0.2711, 0.1538, 0.1127, 0.1530, 0.0881, 0.0042, 0.1120]
    ends = diagnosis(head + "".join(f"{{'loss': {v}, 'learning_rate': 3e-05, 'epoch': {0.02 * (k + 1):.2f}}}\n"
                                    for k, v in enumerate(smooth)))
    assert ends.verdict == "healthy"
    assert "it rose at the end (epoch 0.20), to no higher than it had been and come down from" in ends.signature.facts[0]
    # (not a mean of more than 100 examples: a batch of 1024 is no one example's doing)
    big = diagnosis(head.replace("per_device_train_batch_size=8", "per_device_train_batch_size=1024") + lines)
    assert big.verdict != "healthy" and "a jump, not a climb" in big.matches[0].evidence[0]
    for last in ("0.1900", "0.3900"):          # above the second half's highest; above half the start
        jumped = diagnosis(head + lines.replace("'loss': 0.112,", f"'loss': {last},"))
        assert jumped.verdict != "healthy" and "a jump, not a climb" in jumped.matches[0].evidence[0], last
    epochs = "".join(f"Epoch {k + 1}/10 - loss: {v:.4f}\n" for k, v in enumerate(values))
    assert "a jump, not a climb" in diagnosis(head + epochs).matches[0].evidence[0]
    # (nor from a value that is not near zero: 0.15 to 0.85 from a start at 2.30, a jump at any batch)
    steps = [2.30, 1.85, 1.42, 0.95, 0.61, 0.40, 0.88, 0.22, 0.15, 0.85]
    jump = diagnosis("bert-base, batch size 32. Is this ok?\n" + "".join(f"step {100 * (k + 1)} loss {v}\n"
                                                                      for k, v in enumerate(steps)))
    assert jump.verdict != "healthy" and "a jump, not a climb" in jump.matches[0].evidence[0]


def test_a_climb_too_small_for_the_watch_that_stays_near_its_peak_beside_never_recovered_is_one():
    """A loss that fell to 3.91, rose in steps of less than x1.1 to x1.3 each (no climb the watch flags) to 6.32, and
    is still near that peak at the end, 1.6 times its lowest, beside words that it never recovered: a climb the run
    did not recover from (curve_shape._since_lowest). Without those words, or with the last value back near the
    lowest, it is read as before."""
    values = [10.41, 8.12, 6.55, 5.38, 4.71, 4.29, 4.02, 3.91, 4.48, 5.61, 6.32, 6.27, 6.41, 6.19, 6.30, 6.22, 6.18,
              6.29, 6.21, 6.30]
    log = "".join(f"{{'loss': {v}, 'learning_rate': 0.002, 'epoch': {0.01 * (k + 1):.2f}}}\n" for k, v in enumerate(values))
    words = "LM pretraining from scratch. The loss went down to 3.9, then jumped to about 6.3 and never recovered.\n"
    d = diagnosis(words + log)
    assert d.signature.name == "climbed-and-stayed" and d.matches[0].entry.id == "WR-220"
    assert "1.61x its lowest and near its peak" in d.matches[0].evidence[0]
    assert "never recovered" in d.matches[0].evidence[0]
    assert diagnosis("LM pretraining from scratch. Is this fine?\n" + log).signature.name != "climbed-and-stayed"
    assert diagnosis(words + log.replace("'loss': 6.3,", "'loss': 4.2,")).signature.name != "climbed-and-stayed"
    # (nor where the words set a harder task on purpose, or call the values a validation loss)
    for why in ("After switching on mixup the loss jumped to about 6.3 and never recovered.",
                "These are my validation losses; the training loss keeps falling. It went to 6.3 and never recovered."):
        assert diagnosis("LM pretraining from scratch. " + why + "\n" + log).signature.name != "climbed-and-stayed", why


def test_a_division_by_a_norm_with_nothing_to_keep_it_off_zero_is_a_division_by_zero():
    """x / ||x|| for a zero vector is 0/0: nan in the forward pass (WR-060's "normalizing a zero vector gives nan").
    Read in the pasted code (breaking_constructs.divides_by_norm) beside a nan at the first batch, a suspect for WR-060
    -- also where the words say another variant of the run trains fine, as long as they tie the nan itself to the
    start. Not with an eps added or a clamp, not F.normalize, not beside a run that trained."""
    import numpy as np

    from trainwreck.breaking_constructs import divides_by_norm

    g = np.zeros((2, 48), dtype=np.float32)
    with np.errstate(invalid="ignore"):
        assert np.isnan(g / np.linalg.norm(g, axis=1, keepdims=True)).all()                  # the mechanism: 0/0
    assert not np.isnan(g / np.maximum(np.linalg.norm(g, axis=1, keepdims=True), 1e-12)).any()  # F.normalize's max
    code = ("def attack_step(x, grad, alpha):\n    g = grad / grad.flatten(1).norm(dim=1).view(-1, 1, 1, 1)\n"
            "    return x + alpha * g\n")
    assert divides_by_norm(code) == "g = grad / grad.flatten(1).norm(dim=1).view(-1, 1, 1, 1)"
    padded = "# rows of padding are all zeros\n"
    assert divides_by_norm(padded + "v /= np.linalg.norm(v)\n") == "v /= np.linalg.norm(v)"
    # (an eps added to the quotient guards nothing; one inside the divisor's bracket, or a clamp chained to it, does)
    assert divides_by_norm(padded + "x = x / x.norm(dim=1, keepdim=True) + 1e-8\n") != ""
    for guarded in (code.replace(".norm(dim=1)", ".norm(dim=1).clamp_min(1e-12)"),
                    "g = F.normalize(grad.flatten(1), dim=1)\n", padded + "v = v / (np.linalg.norm(v)\n    + eps)\n"):
        assert divides_by_norm(guarded) == "", guarded
    # (nor where nothing gives the vector a way to be zero: an encoder's features, as CLIP normalises them)
    assert divides_by_norm("image_features = image_features / image_features.norm(dim=-1, keepdim=True)\n") == ""
    report = "The cross-entropy version trains fine, but with my attack the loss is nan on the very first batch.\n" + code
    assert weighed_parts(report, "WR-060")["norm-unguarded"] > 0
    assert first(report) == "WR-060"
    assert "norm-unguarded" not in weighed_parts("Trains fine, loss 0.9 then 0.4, accuracy 81%.\n" + code, "WR-060")
    # (a nan at the start of a later epoch is no nan at the run's start)
    later = "The loss went down nicely for 30 epochs, then I got nan at the start of epoch 31. Why?\n" + code
    assert "norm-unguarded" not in weighed_parts(later, "WR-060")


def test_the_warnings_asked_for_are_said_to_be_what_each_entrys_numpy_snippet_printed():
    """A new user's review (ux_review_s64, 9): the ask said "WR-260 prints `divide by zero encountered in divide`",
    teaching that gradients left uncleared print a division by zero. They print nothing of their own: the warning is
    the op that broke first in the entry's NumPy snippet, with its hand-written loss, as the run blew up."""
    log = "".join(f"epoch {e} loss {v}\n" for e, v in enumerate(["0.6931", "0.5122", "0.4410", "nan", "nan"], 1))
    d = diagnosis(log)
    assert "warnings or errors printed above the first nan" in d.ask, d.ask
    assert re.search(r"\(where (?:its NumPy snippet breaks|their NumPy snippets break), WR-\d+'s prints `", d.ask), d.ask
    assert not re.search(r"WR-\d+ prints", d.ask), d.ask
    # a framework's own messages are still what the failure prints there
    amp = log.replace("epoch 4 loss nan", "Gradient overflow. Skipping step, loss scaler 0 reducing loss scale to 1.0\n"
                                          "epoch 4 loss nan")
    assert "NumPy snippet" not in diagnosis("with torch.cuda.amp\n" + amp).ask


def test_a_clip_before_backward_never_shortens_an_update():
    """A new user's review (ux_review_s64, 3): "I call clip_grad_norm_(model.parameters(), 1.0) before loss.backward()"
    beside a climb to nan named WR-220 alone. Before backward() the clip sees zeros (after zero_grad()) or the last
    step's gradients, which backward() then adds to: step() uses gradients it never clipped. WR-240 explains it."""
    from trainwreck.clip_unused import early_clip

    climb = "step 100 loss 3.12 grad_norm 45.2\nstep 200 loss 5.88 grad_norm 930.4\nstep 300 loss nan grad_norm nan\n"
    said = ("I call torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0) before loss.backward(), still getting "
            "exploding gradients\n")
    code = ("for x, y in loader:\n    optimizer.zero_grad()\n    torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)\n"
            "    loss = criterion(model(x), y)\n    loss.backward()\n    optimizer.step()\n")
    for paste in (said, code):
        d = diagnosis(paste + climb)
        assert d.matches[0].entry.id == "WR-240", (paste, [m.entry.id for m in d.matches])
        assert any("the paste clips before backward()" in e for e in d.matches[0].evidence)
        assert d.matches[0].fix.startswith("Move the `clip_grad_norm_()` call between backward() and step()")
    # not a clip between backward() and step(), one said to come after backward(), a clip that only measures, nor one
    # loop's clip above the next loop's backward()
    right = code.replace("    torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)\n", "").replace(
        "    loss.backward()\n", "    loss.backward()\n    torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)\n")
    # ... nor a clip said to come after backward(), beside a loop that clips nowhere, nor one asked about, denied or
    # moved away (code_review_s64b 1)
    for paste in ("I call clip_grad_norm_(model.parameters(), 1.0) after loss.backward(), the loss still explodes:\n"
                  + right.replace("    torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)\n", ""),
                  "Should I call clip_grad_norm_(model.parameters(), 1.0) before loss.backward() or after?",
                  "I used to call clip_grad_norm_(model.parameters(), 1.0) before loss.backward(), but I moved it after",
                  "I do not call clip_grad_norm_(model.parameters(), 1.0) before loss.backward()"):
        assert early_clip(paste) is None, paste
    for paste in (right, "I call clip_grad_norm_(params, 1.0) after loss.backward()\n",
                  "norm = clip_grad_norm_(model.parameters(), float('inf'))\nloss.backward()\nopt.step()\n",
                  "loss.backward()\nclip_grad_norm_(ps, 1.0)\nopt.step()\nfor x in l2:\n    loss2.backward()\n    opt2.step()\n"):
        assert early_clip(paste) is None, paste


def test_a_climb_after_a_short_fall_lists_the_uncleared_buffer_beside_the_rate():
    """(ux_review_s66 H2) A loss that fell 37% over its first two prints, then climbed to nan: a rate too high can
    overshoot after a first fall, and a buffer never cleared falls fast before its summed steps climb -- the answer
    names the rate first and lists WR-260 beside it with the fall as its evidence. A climb from the first print, with
    no fall before it, does not list WR-260; nor does a fall of under DESCENT_FALL (20%)."""
    values = ("2.3051", "1.9820", "1.4410", "1.9873", "4.2210", "17.993", "263.41", "nan", "nan")
    log = "".join(f"step {50 * i} loss {v}\n" for i, v in enumerate(values))
    d = diagnosis(log)
    assert [m.entry.id for m in d.matches[:2]] == ["WR-220", "WR-260"]
    assert d.matches[1].parts["curve"] < d.matches[0].parts["curve"]
    assert d.matches[1].evidence[0] == ("the loss fell first, from 2.305 at step 0 to 1.441 at step 100, then turned "
                                        "and climbed")
    # (code_review_s67 M3: not beside a loop that clears the gradients every step)
    loop = ("for xb, yb in loader:\n    optimizer.zero_grad()\n    loss = criterion(model(xb), yb)\n"
            "    loss.backward()\n    optimizer.step()\n")
    assert "curve" not in weighed_parts(loop + log, "WR-260")
    climb = log.replace("step 50 loss 1.9820\nstep 100 loss 1.4410", "step 50 loss 2.5100\nstep 100 loss 2.9900")
    shallow = log.replace("1.9820", "2.2000").replace("1.4410", "2.1000")
    for text in (climb, shallow):
        assert "curve" not in weighed_parts(text, "WR-260"), text


JAX_CLIMB = ("tx = optax.chain(optax.clip_by_global_norm(5.0), optax.adamw(schedule))\n" + "".join(
    f"step {s} | loss {v} | gnorm {g}\n" for s, v, g in (
        (0, "9.91", "4.20"), (200, "6.85", "1.90"), (400, "5.02", "0.80"), (600, "4.41", "0.52"), (800, "4.10", "0.44"),
        (1000, "3.95", "0.41"), (1100, "3.91", "0.49"), (1150, "4.02", "0.97"), (1170, "4.60", "2.40"),
        (1180, "7.10", "4.10"), (1185, "8.30", "3.20"), (1190, "7.90", "2.70"), (1195, "8.90", "4.60"),
        (1200, "nan", "nan"))))


def test_a_climb_that_levels_off_beside_norms_under_the_clip_is_the_clip_that_never_engaged():
    """(set s203, 04) A climb that rose, levelled near its top, then went nan, beside gradient norms printed on every
    line that never reach the clip's 5.0: the clip never shortened a step, as for a climb of rises in a row."""
    d = diagnosis(JAX_CLIMB)
    assert d.matches[0].entry.id == "WR-240"
    assert "gradient clipping at 5 never engaged: the largest gradient norm before the blow-up was 4.6" in \
        d.matches[0].evidence


def test_gradients_computed_anew_by_jax_or_a_tape_count_against_a_buffer_never_cleared():
    """(set s203, 04) jax.grad, optax and tape.gradient return new gradients on every call: no buffer to forget
    (WR-260's own JAX and Keras parts). Not where the paste calls backward() or names an accumulation of its own."""
    from trainwreck.gradient_clearing import gradients_fresh

    assert weighed_parts(JAX_CLIMB, "WR-260")["trainer"] < 0
    assert "(`optax.chain`)" in weighed(JAX_CLIMB, "WR-260")[2][-1]
    for code in ("grads = jax.grad(loss_fn)(params)", "loss, grads = nnx.value_and_grad(f)(model)",
                 "grads = tape.gradient(loss, model.trainable_variables)"):
        assert gradients_fresh(code), code
    for code in ("grads = jax.grad(loss_fn)(params)\nacc_grads = jax.tree.map(jnp.add, acc_grads, grads)",
                 # (code_review_s67 H4: the forms WR-260's own JAX and Keras parts describe)
                 "grads = jax.grad(loss_fn)(params)\nacc = jax.tree.map(lambda a, g: a + g, acc, grads)",
                 "grads = tape.gradient(loss, model.trainable_variables)\nfor a, g in zip(sums, grads):\n"
                 "    a.assign_add(g)",
                 "grads = jax.grad(loss_fn)(params)\ntotal = jax.tree_util.tree_map(jnp.add, total, grads)",
                 "optax.chain(...)  # with gradient accumulation over 8 micro-batches", "loss.backward()\noptax.sgd",
                 "opt = torch.optim.AdamW(model.parameters())"):
        assert not gradients_fresh(code), code


@pytest.mark.parametrize("fill, half, read", [
    ("tf.where(mask, scores, tf.cast(-1e9, scores.dtype))", 'mixed_precision.set_global_policy("mixed_float16")', True),
    ("w = jnp.where(mask, scores, -1e9)", "x = x.astype(jnp.float16)", True),
    # (PyTorch refuses the constant on a float16 tensor with a RuntimeError: no nan, no row of -inf)
    ("scores = scores.masked_fill(~mask, -1e9)", "with torch.autocast('cuda', dtype=torch.float16):", False),
    # (float32 holds -1e9; bfloat16 has float32's range; -1e4 is finite in float16, whose largest magnitude is 65504)
    ("tf.where(mask, scores, tf.cast(-1e9, scores.dtype))", "", False),
    ("tf.where(mask, scores, tf.cast(-1e9, scores.dtype))", 'set_global_policy("mixed_bfloat16")', False),
    ("w = jnp.where(mask, scores, -1e4)", "x = x.astype(jnp.float16)", False),
    ("w = tf.where(mask, scores, tf.float32.min)", 'mixed_precision.set_global_policy("mixed_float16")', True),
    ("w = np.where(mask, scores, -2E9)", "scores = scores.astype(np.float16)", True),
    # (code_review_s67 H1: float16 denied, or named as a stored file's dtype, is no run in float16)
    ("tf.where(mask, scores, -1e9)", "# Everything runs in float32 -- I am not using fp16 or mixed precision at all.", False),
    ("jnp.where(mask, scores, -1e9)", "# Teacher logits are stored as fp16 .npy shards; the student trains in float32.",
     False),
])
def test_a_mask_constant_past_float16s_range_in_a_float16_run_is_an_all_inf_row(fill, half, read):
    """(set s203, 02) A -1e9 fill cast to float16 is -inf (WR-070's own point): a row masked whole is all -inf, and its
    softmax nan -- read as the -inf fill is, where TensorFlow, NumPy or JAX code runs float16."""
    from trainwreck.breaking_constructs import breaking_construct

    code = f"{half}\n{fill}\nattn = tf.nn.softmax(scores, axis=-1)\n"
    if half.startswith("# "):
        code = half[2:] + "\n\n" + code[len(half) + 1:]      # (said in a sentence, not in the code's comment)
    facts = breaking_construct(code)
    assert ("masked-inf" in facts) == read
    if read:
        assert "float16's largest magnitude is 65504, so the fill is -inf there" in facts["masked-inf"]


def test_half_called_on_a_model_names_float16():
    """`model.half()` is float16 however it is named: a paste that also names bf16 is not bfloat16 alone."""
    from trainwreck.precision_said import bf16_only

    assert not bf16_only("Trained in bf16 before; now model = model.half() and the loss is nan.")
    assert bf16_only("Trained in bf16 with torch.autocast(dtype=torch.bfloat16); the loss is nan.")


def test_a_bar_that_counts_from_1_again_under_the_same_epoch_header_is_a_second_run():
    """(set s203, 02) A Keras bar all nan, then the same bar from 1/4690 again with finite values and no epoch header
    of its own (the reporter's run in float32, pasted after): two runs, the one that went nan read; it was one run
    "followed by 2 finite values later". A bar whose count only rises is one run."""
    bar = "".join(f"{n:>5}/4690 [....] - ETA: 20:00 - loss: {v} - accuracy: 0.0003\n"
                  for n, v in ((1, "nan"), (25, "nan"), (50, "nan"), (100, "nan")))
    again = "".join(f"{n:>5}/4690 [....] - ETA: 38:22 - loss: {v} - accuracy: 0.0521\n" for n, v in ((1, "10.4127"),
                                                                                                     (100, "8.9034")))
    d = diagnosis("Epoch 1/3\n" + bar + "\nWith the float32 policy and nothing else changed:\n\n" + again)
    assert d.evidence.runs.startswith("2 runs one after another"), d.evidence.runs
    assert d.evidence.count == 4 and d.evidence.finite_after == 0
    assert diagnosis("Epoch 1/3\n" + bar).evidence.runs == ""


def test_float16_named_as_the_format_of_stored_data_is_not_the_runs_precision():
    """(set s203, 07) "teacher logprobs stored as fp16 .npy shards" is a file's dtype: the student trains in bf16, and
    half precision is not shown switched on. Named as the run's own, it is."""
    from trainwreck.precision_said import half_precision_shown
    from trainwreck.thesaurus import tokens

    for text in ("Teacher outputs were precomputed offline, stored as fp16 .npy shards. The student runs bf16.",
                 "The CLIP features are cached in float16 on disk; training is fp32.",
                 "I load fp16 embedding files and train an MLP on them."):
        assert half_precision_shown(text, tokens(text)) == "", text
    for text in ("I train with fp16 and the loss is nan.", "Training uses fp16 files and fp16=True in the Trainer.",
                 # (code_review_s67 H2: the run's own weights or activations, kept or stored in float16, are its precision)
                 "The model weights are kept in fp16 to save memory, and the loss goes nan.",
                 "Our model weights are stored as fp16 on the GPU during training.",
                 "Activations are stored in float16 to fit the batch."):
        assert half_precision_shown(text, tokens(text)), text


KERAS_SOFTMAX_MODEL = ("model = tf.keras.Sequential([\n    tf.keras.layers.Flatten(input_shape=(28, 28)),\n"
                       "    tf.keras.layers.Dense(128, activation='relu'),\n"
                       "    tf.keras.layers.Dense(10, activation='{act}'),\n])\n"
                       "with tf.GradientTape() as tape:\n    out = model(x, training=True)\n"
                       "    loss = tf.reduce_mean(tf.nn.{op}(labels=y, logits=out))\n")


@pytest.mark.parametrize("act, op, read", [
    ("softmax", "sparse_softmax_cross_entropy_with_logits", True),
    ("softmax", "softmax_cross_entropy_with_logits", True),
    ("sigmoid", "sigmoid_cross_entropy_with_logits", True),
    ("sigmoid", "sparse_softmax_cross_entropy_with_logits", False),
    ("relu", "sparse_softmax_cross_entropy_with_logits", False),
])
def test_a_keras_softmax_output_handed_to_tensorflows_logits_op_is_probabilities_as_logits(act, op, read):
    """(set s206, 07) A Keras model ending in a softmax whose output a GradientTape loop hands to
    tf.nn.sparse_softmax_cross_entropy_with_logits: TensorFlow's op applies its own softmax, and no Keras loss is there
    to read the logits the activation kept. It was "No known failure found" (the loss fell from 1.96 to 1.60 while the
    accuracy rose to 86%)."""
    curve = "".join(f"epoch {e:2d}  loss {1.96 - 0.36 * (1 - 0.8 ** e):.4f}  acc {0.66 + 0.2 * (1 - 0.8 ** e):.4f}\n"
                    for e in range(1, 21))
    text = "Loss stays around 1.6 though the accuracy reaches 85%.\n" + KERAS_SOFTMAX_MODEL.format(act=act, op=op) + curve
    assert ("pairing" in weighed_parts(text, "WR-130")) == read
    if read:
        d = diagnosis(text)
        assert d.matches[0].entry.id == "WR-130" and d.verdict == "uncertain"
        # (code_review_s67 H3: a student's own logits beside a teacher that ends in a softmax, whose probabilities are
        # the labels, is distillation done right)
        distill = text.replace("out = model(x, training=True)", "out = student(x, training=True)")
        assert "pairing" not in weighed_parts(distill, "WR-130")


CTC_LAYER = ("class CTCLayer(keras.layers.Layer):\n    def call(self, y_true, y_pred):\n"
             "        n = tf.fill([tf.shape(y_true)[0]], tf.shape(y_pred)[1])\n"
             "        loss = {loss}\n        self.add_loss(tf.reduce_mean(loss))\n        return y_pred\n"
             "x = layers.Dense(len(vocab) + 1, activation=\"{act}\")(x)\noutput = CTCLayer()(labels, x)\n")


@pytest.mark.parametrize("act, loss, read", [
    ("softmax", "tf.nn.ctc_loss(labels=y_true, logits=y_pred, label_length=lab, logit_length=n, blank_index=-1)", True),
    # (no softmax to undo; Keras's ctc_batch_cost takes the softmax's probabilities; logits that are not the output)
    ("linear", "tf.nn.ctc_loss(labels=y_true, logits=y_pred, label_length=lab, logit_length=n, blank_index=-1)", False),
    ("softmax", "keras.backend.ctc_batch_cost(y_true, y_pred, n, lab)", False),
    ("softmax", "tf.nn.ctc_loss(labels=y_true, logits=raw, label_length=lab, logit_length=n, blank_index=-1)", False),
])
def test_a_keras_softmax_output_handed_to_tensorflows_ctc_loss_is_probabilities_as_logits(act, loss, read):
    """(set s236, 06) The keras.io handwriting model, its last Dense a softmax, moved from ctc_batch_cost (which takes
    probabilities) to tf.nn.ctc_loss, whose logits go through log_softmax: the y_pred a Keras loss layer is handed is
    the model's output."""
    curve = "".join(f"Epoch {e}/40\n1357/1357 [==============================] - 54s 40ms/step - loss: "
                    f"{100 + 16.8 * 0.6 ** e:.4f} - val_loss: {101 + 7 * 0.6 ** e:.4f}\n" for e in range(1, 9))
    text = ("The loss is stuck around 100 and hardly moves.\n" + CTC_LAYER.format(act=act, loss=loss) + curve)
    assert ("pairing" in weighed_parts(text, "WR-130")) == read
    if read:
        d = diagnosis(text)
        assert d.matches[0].entry.id == "WR-130"
        assert "`tf.nn.ctc_loss`, which applies its own softmax" in report(d)
    # (a y_pred that is not a Keras loss's second parameter is no model output; nor one the function makes into
    # log-probabilities first, as Keras's own ctc_batch_cost does -- code_review_s70b 6)
    other = text.replace("def call(self, y_true, y_pred)", "def call(self, y_pred, y_true)")
    assert "pairing" not in weighed_parts(other, "WR-130")
    logged = text.replace("        n = tf.fill(", "        y_pred = tf.math.log(y_pred + 1e-7)\n        n = tf.fill(")
    assert "pairing" not in weighed_parts(logged, "WR-130")


def test_the_models_output_printed_with_every_row_alike_is_one_output_for_every_input():
    """(set s205, 01) "When I print model(x) for a few test images every row is the same 10 numbers": the model's output
    printed, its rows alike. Not a data loader's rows of one length."""
    from trainwreck.frozen_said import one_output_said

    for text in ("When I print model(x) for a few test images every row is the same 10 numbers.",
                 "I printed the logits and every row is identical."):
        assert one_output_said(text), text
    # (code_review_s67 M4: an input printed, rows the same as something else, and a denial are none)
    for text in ("I print the data loader and every row is the same length.",
                 "When I print the network input batch every row is the same.",
                 "I print the model predictions next to the labels, each row is the same as its label.",
                 "I printed the outputs and not every row is identical."):
        assert one_output_said(text) == "", text


def test_an_average_counts_as_printed_only_where_a_value_follows_it():
    """(set s205, 01) The loop's own code, `print(f"Epoch {e}: avg loss {running/total:.4f}")`, is no line of averages:
    counted as one, it outnumbered the bar's per-epoch losses, and the two series were read interleaved (2.3, 187.3,
    2.3, 2.3028, ...)."""
    from trainwreck.logscan.layout import averaged_losses

    code = b'    print(f"Epoch {epoch+1}: avg loss {running/total:.4f}, acc {100*correct/total:.2f}%")\n'
    log = b"".join(b"Epoch %d/3: 100%%|##########| 938/938 [00:08<00:00, 108.43it/s, loss=2.3]\n"
                   b"Epoch %d: avg loss %s, acc 10.00%%\n" % (e, e, v) for e, v in ((1, b"187.3390"), (2, b"2.3028"),
                                                                                   (3, b"2.3027")))
    assert averaged_losses(code + log) == [b"avg loss"]
    # (code_review_s67 M2: the usual forms, a placeholder with the average's own name and the line that sets it)
    setting = b'    avg_loss = running / total\n    print(f"Epoch {epoch+1}: avg loss {avg_loss:.4f}")\n'
    assert b"avg loss" in averaged_losses(setting + log)
    assert averaged_losses(log.replace(b", loss=2.3]", b"]")) == []


def test_memory_said_to_rise_before_an_out_of_memory_error_is_the_errors_story_not_a_climb():
    """(set s205, 04) "a print of torch.cuda.memory_allocated() in the validation loop and it keeps going up every
    batch", then CUDA out of memory: the memory climbs, not the loss -- an error no entry covers. It was read as a climb
    said in words, and three entries were offered."""
    text = ("Validation runs out of memory. I added a print of torch.cuda.memory_allocated() in the validation loop and "
            "it keeps going up every batch, in training it stays flat.\n"
            "Train: 100%|##########| 187/187 [01:12<00:00,  2.58it/s, loss=0.874]\n"
            "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 98.00 MiB.\n")
    d = diagnosis(text)
    assert d.verdict == "unexplained" and not d.matches
    assert diagnosis(text.replace("memory_allocated() in the validation loop and it keeps", "the loss and it keeps")) \
        .verdict != "unexplained"


@pytest.mark.parametrize("returned, read", [
    ("return self.softmax(self.fc(out)), h", True),
    ("return torch.softmax(self.fc(out), dim=-1), (h, c)", True),
    ("return F.softmax(self.fc(out), dim=-1), hidden", True),
    # (probabilities beside the logits: which of the two the loss takes, the paste must show)
    ("return F.softmax(logits, dim=-1), logits", False),
])
def test_a_recurrent_models_probabilities_returned_beside_its_state_are_its_output(returned, read):
    """(set s210, 09) A char-RNN's forward returns `self.softmax(self.fc(out)), h` to nn.CrossEntropyLoss: its output
    with its hidden state, probabilities handed over as logits. Probabilities returned beside logits are not read."""
    from trainwreck.loss_inputs import model_output

    code = ("class CharRNN(nn.Module):\n    def __init__(self, vocab):\n        super().__init__()\n"
            "        self.fc = nn.Linear(512, vocab)\n        self.softmax = nn.Softmax(dim=-1)\n"
            f"    def forward(self, x, h=None):\n        out, h = self.lstm(self.emb(x), h)\n        {returned}\n\n"
            "criterion = nn.CrossEntropyLoss()\n")
    assert (model_output(code) is not None) == read


def test_the_loss_spelled_as_most_of_the_paste_prints_it_is_the_one_read():
    """(set s209, 06) Ten lines of the run asked about print `Loss: 2.1503`, and three lines of another program pasted
    after them for comparison print `loss 0.3871`: the spelling printed most is read, not the dialect's first
    (lowercase) one, which read the three lines alone."""
    ours = "".join(f"Epoch [{e}/10], Loss: {2.15 - 0.057 * e:.4f}, Acc: {58 + 3 * e:.2f}%\n" for e in range(1, 11))
    theirs = "My numpy version for comparison:\n" + "".join(f"epoch {e}: loss {v}, train acc 0.9\n"
                                                            for e, v in ((1, "0.3871"), (5, "0.1642"), (10, "0.0978")))
    d = diagnosis(ours + "\n" + theirs)
    assert d.evidence.count == 10 and d.evidence.head[0] == 2.093
    assert diagnosis(theirs).evidence.count == 3


def test_a_sequential_that_ends_in_a_softmax_with_a_comment_after_it_outputs_probabilities():
    """(set s209, 06) `nn.Softmax(dim=1),  # same as my numpy forward()` closing a Sequential, beside
    nn.CrossEntropyLoss: the model's output; the evidence quotes the module itself."""
    code = ("model = nn.Sequential(\n    nn.Flatten(),\n    nn.Linear(784, 128),\n    nn.ReLU(),\n"
            "    nn.Linear(128, 10),\n    nn.Softmax(dim=1),      # same as the last step of my numpy forward()\n)\n"
            "criterion = nn.CrossEntropyLoss()\n")
    curve = "".join(f"Epoch [{e}/10], Loss: {2.15 - 0.057 * e:.4f}, Acc: {58 + 3 * e:.2f}%\n" for e in range(1, 11))
    evidence, against = weighed("stuck at loss 1.58\n" + code + curve, "WR-130")[1:]
    assert any(e.startswith("the pasted model outputs probabilities (`nn.Softmax(dim=1)`) and its loss, "
                            "`nn.CrossEntropyLoss`") for e in evidence)


ACTIVATION_ROWS = "".join(f"layer {n}: pre-act mean {m} std {v}\n" for n, m, v in (
    (1, "-0.01989", "8.346"), (2, "-5.994", "135"), (3, "201.9", "2037"), (4, "-133.3", "2.444e+04"),
    (5, "-2.288e+04", "2.942e+05"), (6, "-3.206e+05", "1.355e+06")))


def test_activation_spreads_printed_layer_by_layer_that_grow_by_orders_are_the_forward_pass_exploding():
    """(set s209, 12) Each layer's pre-activation std printed, 8.3 at layer 1 to 1.4e6 at layer 6 (5.2 orders): the
    forward pass multiplies the spread at every layer, WR-120's explosion at initialisation. Spreads that stay put,
    layers out of order, and a gradient's spread are not."""
    from trainwreck.gradient_norms import activations_grow_with_depth as grow

    said = "I printed the std of each layer's pre-activation on the first batch:\n"
    assert "5.21 orders of magnitude larger at the last layer" in grow(said + ACTIVATION_ROWS)
    assert grow(said + "".join(f"layer {n}: std {v}\n" for n, v in ((1, 1.02), (2, 0.97), (3, 1.05), (4, 0.99)))) == ""
    assert grow(said + ACTIVATION_ROWS.replace("layer 2:", "layer 9:")) == ""
    assert grow("Per-layer weight init check:\n" + ACTIVATION_ROWS.replace("pre-act", "weight")) == ""
    assert grow(said + ACTIVATION_ROWS.replace("pre-act mean", "grad mean")) == ""
    loss = "iteration 0: loss inf\n"
    d = diagnosis("6-layer ReLU net in numpy, plain np.random.randn weights.\n" + said + ACTIVATION_ROWS + loss)
    assert d.matches[0].entry.id == "WR-120" and d.matches[0].parts["activations-grow"] > 0


def test_a_last_value_non_finite_at_its_first_step_after_a_finite_run_is_a_second_run():
    """(set s209, 12) "epoch 3 loss 2.301", then, after the change, "iteration 0: loss inf": the count starts again
    (an iteration 0 with no epoch of its own after epoch 3), and the one value, non-finite at its run's first step,
    is a run of its own -- not a finite run that "jumped straight to inf at epoch 3". A value at a later step is not."""
    flat = "".join(f"epoch {e}  loss {v}  train acc 0.1124\n" for e, v in ((1, 2.301912), (2, 2.301197), (3, 2.301176)))
    d = diagnosis(flat + "\nWith plain np.random.randn the very first loss is inf:\niteration 0: loss inf\n")
    assert d.evidence.runs.startswith("2 runs one after another") and d.evidence.count == 1
    assert diagnosis(flat + "iteration 40: loss inf\n").evidence.runs == ""


def test_two_losses_each_at_its_own_epoch_in_a_sentence_are_read():
    """(set s213, 09) "Loss is 3.9e10 at epoch 1 and 3.7e10 at epoch 200": a first and a last value, each at its epoch,
    as "from 3.9e10 to 3.7e10" is read -- here a regression's enormous squared error, raw targets. Two that rise are
    not read (no curve to judge a climb by)."""
    said = ("Keras Dense 64 relu, Dense 1 predicting house sale prices, features standardized with StandardScaler, adam "
            "and mse. Loss is 3.9e10 at epoch 1 and 3.7e10 at epoch 200, and predictions are ~1500 for prices ~180000.")
    d = diagnosis(said)
    assert d.evidence.count == 2 and d.matches[0].entry.id == "WR-360"
    assert diagnosis(said.replace("3.7e10 at epoch 200", "5.7e10 at epoch 200")).evidence.count == 0


def test_a_loss_said_to_sit_from_one_epoch_to_another_does_not_learn_whatever_the_test_accuracy_clause_says():
    """(set s213, 01) "loss sits at ~2.30 from epoch 1 to epoch 20 and test accuracy is 11.35%": the training loss
    stopped; the test accuracy's clause, after "and", does not make the sentence a test score's."""
    from trainwreck.run_said import says_not_learning

    said = ("small flax MLP on mnist, sigmoid hidden layers, optax.sgd(0.1), raw arrays from tfds. loss sits at ~2.30 "
            "from epoch 1 to epoch 20 and test accuracy is 11.35% every single epoch.")
    assert says_not_learning(said)
    assert not says_not_learning("the test loss sits at ~2.30 from epoch 1 to epoch 20 and training is fine.")
    assert diagnosis(said).verdict == "uncertain"


@pytest.mark.parametrize("code, rate", [
    ("class Lit(pl.LightningModule):\n    def __init__(self, lr=0.1):\n        self.save_hyperparameters()\n"
     "    def configure_optimizers(self):\n        return torch.optim.Adam(self.parameters(), lr=self.hparams.lr)\n", "0.1"),
    ("LR = 0.5\nopt = torch.optim.AdamW(model.parameters(), lr=LR)\n", "0.5"),
    ("parser.add_argument('--lr', type=float)  # run with --lr 0.3\nopt = optim.Adam(net.parameters(), lr=args.lr)\n",
     "0.3"),
    ("def __init__(self, lr: float = 1e-3):\n    ...\nopt = torch.optim.Adam(self.parameters(), lr=self.hparams.lr)\n", None),
])
def test_an_adaptive_optimisers_rate_given_by_a_name_is_read_from_where_the_paste_sets_it(code, rate):
    """(set s212, 04) `Adam(self.parameters(), lr=self.hparams.lr)` beside `def __init__(self, lr=0.1)`: a rate of 0.1,
    a hundred times Adam's default, set by a name. A name set to 1e-3 is no high rate."""
    from trainwreck.optimizer_setup import high_adaptive_rate

    said = high_adaptive_rate(code)
    assert (f"with a learning rate of {rate} " in said) if rate else said == ""


def test_code_review_s67b_readings_stay_where_they_belong():
    """(code_review_s67b) Each of the session's later readings, quiet on what the review showed it misread."""
    from trainwreck.gradient_norms import activations_grow_with_depth as grow
    from trainwreck.loss_inputs import model_output
    from trainwreck.optimizer_setup import high_adaptive_rate
    from trainwreck.run_said import says_not_learning

    # H1: a loop's epoch summary, then the next epoch's iteration 0 on the next line: one run
    rows = "".join(f"iteration {i}: loss {v}\n" for i, v in ((0, 2.30), (100, 1.90), (200, 1.61)))
    one = rows + "epoch 1 loss 1.4410\n" + rows.replace("2.3", "1.4").replace("1.9", "1.1").replace("1.61", "0.9") \
        + "epoch 2 loss 0.8601\niteration 0: loss nan\n"
    assert diagnosis(one).evidence.runs == ""
    # H2: the run that broke, not a longer healthy log pasted after it for comparison
    broke = "step 0 loss 2.31\nstep 100 loss 4.87\nstep 200 loss nan\n"
    ref = "The reference implementation's log trains fine:\n" + "".join(
        f"Epoch {e} | Loss: {2.3 * 0.9 ** e:.4f}\n" for e in range(1, 13))
    read = diagnosis(broke + ref).evidence
    assert read.count == 3 and read.first_nonfinite == 2
    # M1, M2: a gradient's spread, or activations hooked late in a run, are no explosion at initialisation
    table = "".join(f"layer {n}: std {v}\n" for n, v in ((1, "2.1e-07"), (2, "3e-05"), (3, "4e-03"), (4, "1.1e-02")))
    assert grow("gradient std of each hidden layer's output on the first batch:\n" + table) == ""
    assert grow("I hooked the activations at step 2900, output std per layer:\n" + table) == ""
    assert grow("I printed the activations on the first batch, std per layer:\n" + table)
    # M3: a default overridden where the model is built, a rate said of another optimizer, a scaled value
    for code in ("def __init__(self, lr=0.1):\n    ...\nmodel = Lit(lr=1e-4)\n"
                 "opt = torch.optim.Adam(self.parameters(), lr=self.hparams.lr)\n",
                 "lr = 0.1 * batch_size / 4096\nopt = torch.optim.Adam(net.parameters(), lr=lr)\n"):
        assert high_adaptive_rate(code) == "", code
    # M4: a softmax in a Sequential's middle with a bracket in its comment, and one commented out
    mid = ("net = nn.Sequential(\n    nn.Linear(64, 64),\n    nn.Softmax(dim=1),  # gate weights (a soft selection)\n"
           "    nn.Linear(64, 10),\n)\ncriterion = nn.CrossEntropyLoss()\n")
    out = ("net = nn.Sequential(\n    nn.Linear(64, 10),\n    # nn.Softmax(dim=1),  # removed: CrossEntropyLoss applies it\n)\n"
           "criterion = nn.CrossEntropyLoss()\n")
    assert model_output(mid) is None and model_output(out) is None
    # M5: probabilities returned beside their own logits, in a model with no recurrent layer
    both = ("class Net(nn.Module):\n    def forward(self, x):\n        h = self.fc2(F.relu(self.fc1(x)))\n"
            "        return F.softmax(h, dim=1), h\n")
    assert model_output(both) is None
    # L1: a conjunction that qualifies its clause does not end it
    assert not says_not_learning("The loss stays at 0.693 for every epoch and that is the validation loss, not the "
                                 "training one.")
    # L3: two values in the middle of a run are no first and last
    assert diagnosis("Loss is 0.31 at epoch 40 and 0.30 at epoch 80, but validation accuracy dropped.").evidence.count \
        == 0


def test_a_transformer_decoders_padding_masks_are_key_padding_masks():
    # (s70, an opened blind set: nn.TransformerDecoder takes its cross-attention's key_padding_mask as
    # memory_key_padding_mask and its self-attention's as tgt_key_padding_mask; a row of either that is all True leaves
    # a query nothing to attend to, as src_key_padding_mask does)
    from trainwreck.breaking_constructs import breaking_construct

    for name in ("memory_key_padding_mask", "tgt_key_padding_mask"):
        found = breaking_construct(f"out = self.decoder(tgt, mem, {name}=pad)\nBatches are padded to the widest image.")
        assert set(found) == {"masked-inf"} and f"`{name}.all(dim=1).any()` must be False" in found["masked-inf"], name
    # (a name that only ends in the words is not one of them; nor a decoder's mask that is not handed one, as every
    # decoder layer copied from PyTorch's declares them -- code_review_s70b 7)
    assert breaking_construct("out = self.decoder(tgt, mem, my_key_padding_mask_fn=pad)") == {}
    padded = "nn.MultiheadAttention with key_padding_mask (True = padding). "
    assert "says a sequence can be all padding" not in breaking_construct(padded + "so no row is all padding")["masked-inf"]
    for none in ("out = self.decoder(tgt, mem, tgt_key_padding_mask=None, memory_key_padding_mask=None)",
                 "def forward(self, tgt, memory, tgt_key_padding_mask: Optional[Tensor] = None):"):
        assert breaking_construct(none + "\nThe loss turns nan.") == {}, none
    run = "".join(f"step {s} | loss {v} | lr 2.9e-04\n" for s, v in ((1800, 2.19), (1850, 2.06), (1900, 2.00),
                                                                   (1950, "nan"), (2000, "nan")))
    code = ("    valid = widths // 32\n    pad = torch.arange(w)[None, :] >= valid[:, None]\n"
            "    out = self.decoder(tgt_emb, mem, tgt_mask=causal, memory_key_padding_mask=pad)\n")
    found = diagnosis("The loss turns nan at a random step and stays nan:\n" + run + code)
    assert found.matches[0].entry.id == "WR-070"


def test_tensorflows_ctc_error_for_a_label_at_the_blank_is_labels_out_of_range():
    # (s236/03, an opened blind set: an output layer with one unit per character and none for the blank; TensorFlow's
    # CTCLoss takes the last class as the blank and stops at a label after it -- WR-320 declares its message)
    trace = ("Epoch 1/50\n 412/1357 [========>.....................] - ETA: 1:04 - loss: 15.8733\n"
             "tensorflow.python.framework.errors_impl.InvalidArgumentError: Graph execution error:\n"
             "Node: 'handwriting_recognizer/ctc_loss/CTCLoss'\n"
             "Saw a non-null label (index >= num_classes - 1) following a null label, batch: 7 num_classes: 79 "
             "labels: 71,61,78,57,99,99 labels seen so far: 71,61\n")
    d = diagnosis("Training crashes somewhere in the first epoch, never at the same step.\n" + trace)
    assert d.matches[0].entry.id == "WR-320"
    assert any("Saw a non-null label (index >= num_classes - 1) following a null label, batch: 7" in e
               for e in d.matches[0].evidence)
    # (the message of a label too long for the frames is another failure, not this one)
    longer = trace.replace("Saw a non-null label (index >= num_classes - 1) following a null label, batch: 7 num_classes: "
                           "79 labels: 71,61,78,57,99,99 labels seen so far: 71,61",
                           "Not enough time for target transition sequence (required: 21, available: 20)7")
    assert not any("Saw a non-null" in e for m in diagnosis(longer).matches for e in m.evidence)


def test_an_optax_adaptive_optimizer_built_at_a_high_rate_is_read_as_the_others_are():
    # (Optax's rate is its first argument, with no default: `optax.adam(0.3)`, or a name the paste sets, as the flax
    # tutorials write it -- `learning_rate = 0.3` above `optax.adamw(learning_rate, momentum)`)
    from trainwreck.optimizer_setup import high_adaptive_rate

    said = high_adaptive_rate("tx = optax.adam(0.3)")
    assert "the paste builds Adam with a learning rate of 0.3 (`optax.adam(0.3`)" in said
    assert "0.3 is 300 times Adam's default rate" in said
    assert "0.2 is 200 times AdamW's" in high_adaptive_rate("learning_rate = 0.2\ntx = optax.adamw(learning_rate, 0.9)")
    assert "0.5 is 250 times Nadam's" in high_adaptive_rate("opt = keras.optimizers.Nadam(learning_rate=0.5)")
    # (a rate at the usual size; one of 0.1 or more said for another name; plain SGD, which has no adaptive step)
    for quiet in ("tx = optax.adam(1e-3)", "learning_rate = 0.05\ntx = optax.adamw(learning_rate)",
                  "lr = 0.3\nsched = 1e-3\ntx = optax.adam(sched)", "tx = optax.sgd(0.3)",
                  # (a keyword argument's name, and a rate scaled where it is handed over: code_review_s70c 6, 7)
                  "tx = optax.adamw(weight_decay=0.1, learning_rate=3e-4)", "optax.adamw(b1=0.9, b2=0.95, learning_rate=3e-4)",
                  "tx = optax.adam(0.5 * 1e-3)", "learning_rate = 0.1\ntx = optax.adam(learning_rate * 0.01)"):
        assert high_adaptive_rate(quiet) == "", quiet


@pytest.mark.parametrize("act, loss, read", [
    ("softmax", "keras.losses.CTC()", True),
    ("softmax", "'ctc'", True),
    ("linear", "keras.losses.CTC()", False),          # (logits, as the loss takes them)
    ("softmax", "keras.losses.SparseCategoricalCrossentropy()", False),
])
def test_a_keras_softmax_output_compiled_with_keras_3s_ctc_loss_is_probabilities_as_logits(act, loss, read):
    # (code_review_s70b 11: Keras 3's own CTC loss takes logits, "They should *not* be normalized via softmax."; the
    # keras.io OCR model's last Dense, two brackets deep, is its output)
    text = ("Ported the OCR example to Keras 3 with the built-in loss; the loss barely moves.\n"
            f"x = layers.Dense(len(char_to_num.get_vocabulary()) + 1, activation=\"{act}\", name=\"dense2\")(x)\n"
            f"model.compile(optimizer=keras.optimizers.Adam(1e-3), loss={loss})\n"
            + "".join(f"Epoch {e}/30\n59/59 [==============================] - 8s 140ms/step - loss: {16.41 - 0.05 * e:.4f}\n"
                      for e in range(1, 7)))
    assert (weighed_parts(text, "WR-130").get("pairing", 0) > 0) == read
    # (code_review_s70c 5: not a line commented out, nor a sentence that tried it, nor beside Keras 2's ctc_batch_cost,
    # the loss in use then, which takes probabilities)
    if read:
        for other in (text.replace(f"loss={loss})", "loss=ctc_loss)  # loss=keras.losses.CTC()"),
                      text.replace(f"model.compile(optimizer=keras.optimizers.Adam(1e-3), loss={loss})",
                                   "I tried keras.losses.CTC() but kept the example's CTCLayer."),
                      text + "    loss = keras.backend.ctc_batch_cost(y_true, y_pred, input_length, label_length)\n"):
            assert weighed_parts(other, "WR-130").get("pairing", 0) <= 0, other[-120:]


def test_a_climb_print_after_print_to_a_peak_is_no_jump_that_killed_the_units():
    """"Jumped to a peak and settled above its lowest" is one jump's face (WR-140's units killed at once); a loss that
    rose on CLIMB_RISES prints or more in a row up to the peak climbed there, the overshoot's face, and is not read so.
    The boundary: one rise fewer is still a jump."""
    from trainwreck.curve_shape import CLIMB_RISES

    def log(rises):
        up = [1.21 * 6 ** k for k in range(1, rises + 1)]        # (each print above the one before, the last the peak)
        values = [3.1, 1.47, 1.21] + up + [max(0.3 * up[-1], 6.0), 5.61, 5.547, 5.545, 5.545, 5.545, 5.545]
        return "".join(f"step {100 * i} loss {v:.4g}\n" for i, v in enumerate(values))

    def jumped(text):
        return any("jumped to" in f for f in diagnosis(text).signature.facts)
    assert jumped(log(1)) and jumped(log(CLIMB_RISES - 1))
    assert not jumped(log(CLIMB_RISES))
