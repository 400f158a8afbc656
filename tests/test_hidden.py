"""Hugging Face's Trainer logs `'loss': 0.0` for an interval whose every step's loss was nan or inf, and
prints the nan gradient norm beside it (trainwreck/logscan/hidden.py). A sample log is in
tests/logs/hf_trainer/."""
import math

from conftest import real_catalog
from trainwreck.diagnose import diagnose, message_finder
from trainwreck.logscan import scan_text
from trainwreck.logscan.evidence import merge
from trainwreck.logscan.hidden import with_hidden

CATALOG = real_catalog()


def hf(rows) -> str:
    return "".join(f"{{'loss': {loss}, 'grad_norm': {grad}, 'learning_rate': 2e-05, 'epoch': {0.1 * (i + 1):.1f}}}\n"
                   for i, (loss, grad) in enumerate(rows))


def test_zeros_with_a_nan_gradient_norm_to_the_end_are_a_nan_loss_where_they_start():
    ev = with_hidden(scan_text(hf([(2.15, 3.4), (1.87, 2.9), (0.0, "nan"), (0.0, "nan")]), "log"))
    assert ev.first_nonfinite == 2 and math.isnan(ev.first_nonfinite_value) and str(ev.first_nonfinite_at) == "epoch 0.3"
    assert ev.before == [2.15, 1.87] and ev.low == 1.87 and ev.high == 2.15 and ev.finite_after == 0
    assert math.isnan(ev.head[2]) and math.isnan(ev.head[3])
    d = diagnose(scan_text(hf([(2.15, 3.4), (1.87, 2.9), (0.0, "nan"), (0.0, "nan")]), "log",
                           finder=message_finder(CATALOG)), CATALOG)
    assert d.verdict != "healthy" and d.signature.name == "descent-then-nonfinite"
    assert any("logging_nan_inf_filter" in f for f in d.signature.facts)


def test_a_loss_that_is_really_zero_or_zeros_that_end_or_a_finite_norm_are_left_alone():
    for rows in ([(0.5, 0.3), (0.0, 0.0), (0.0, 0.0)],            # a loss that cannot go lower: the norm is 0
                 [(2.1, 3.0), (0.0, "nan"), (1.9, 2.0)],            # zeros that do not last to the end
                 [(2.1, 3.0), (1.9, "nan"), (0.0, 0.0)],            # the last norm is finite
                 [(0.0, "nan"), (0.0, "nan")]):                     # no positive loss before the zeros
        ev = scan_text(hf(rows), "log")
        assert with_hidden(ev) is ev, rows


def test_another_format_is_left_alone():
    ev = scan_text("step 1 loss: 2.1 grad_norm: 3.0\nstep 2 loss: 0.0 grad_norm: nan\n", "log")
    assert with_hidden(ev) is ev


def test_two_halves_of_a_log_read_apart_keep_where_the_norms_went_nan():
    a = scan_text(hf([(2.15, 3.4), (1.87, 2.9)]), "log")
    b = scan_text(hf([(0.0, "nan"), (0.0, "inf")]), "log")
    ab = merge(a, b)
    assert ab.grad_nonfinite_from == 2 and ab.grad_nonfinite_last
    assert a.grad_nonfinite_from is None and not a.grad_nonfinite_last and b.grad_nonfinite_from == 0
