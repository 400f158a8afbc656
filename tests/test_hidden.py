"""Hugging Face's Trainer logs `'loss': 0.0` for an interval whose every step's loss was nan or inf, and
prints the nan or inf gradient norm right after it (trainwreck/logscan/hidden.py). A sample log is in
tests/logs/hf_trainer/."""
import math

from conftest import real_catalog
from trainwreck.diagnose import diagnose, message_finder
from trainwreck.logscan import scan_text
from trainwreck.logscan.evidence import merge

CATALOG = real_catalog()


def hf(rows) -> str:
    return "".join(f"{{'loss': {loss}, 'grad_norm': {grad}, 'learning_rate': 2e-05, 'epoch': {0.1 * (i + 1):.1f}}}\n"
                   for i, (loss, grad) in enumerate(rows))


def read(text):
    return scan_text(text, "log", finder=message_finder(CATALOG))


def test_a_zero_beside_a_nan_norm_is_a_non_finite_loss_at_its_line():
    ev = read(hf([(2.15, 3.4), (1.87, 2.9), (0.0, "nan"), (0.0, "inf")]))
    assert ev.hidden_zeros == 2 and ev.hidden_line == 3
    assert ev.first_nonfinite == 2 and math.isnan(ev.first_nonfinite_value) and str(ev.first_nonfinite_at) == "epoch 0.3"
    assert ev.before == [2.15, 1.87] and ev.low == 1.87 and ev.finite_after == 0
    d = diagnose(ev, CATALOG)
    assert d.verdict != "healthy" and d.signature.name == "descent-then-nonfinite"
    assert "first inf or nan at epoch 0.3" in d.signature.facts[0] and "then the loss was" in d.signature.facts[0]
    assert any("logging_nan_inf_filter" in f and "on 2 line(s), the first on line 3" in f for f in d.signature.facts)


def test_a_long_run_of_zeros_is_read_from_where_it_starts():
    ev = read(hf([(2.0 - 0.01 * i, 1.0) for i in range(30)] + [(0.0, "nan")] * 100))
    assert ev.first_nonfinite == 30 and ev.hidden_zeros == 100 and ev.finite_after == 0


def test_an_interval_that_recovers_is_one_non_finite_value_among_finite_ones():
    """Under a loss scaler an interval of skipped steps can be followed by finite losses again."""
    ev = read(hf([(2.1, 3.0), (1.9, 2.0), (0.0, "inf"), (1.8, 2.1), (1.7, 1.9)]))
    assert ev.first_nonfinite == 2 and ev.finite_after == 2


def test_zeros_beside_finite_norms_are_left_alone():
    for rows in ([(0.5, 0.3), (0.0, 0.0), (0.0, 0.0)],            # a loss that cannot go lower: the norm is 0
                 [(2.1, 3.0), (0.0, 0.3), (0.0, 0.2), (1.9, "nan")]):   # only a later line's norm is nan
        ev = read(hf(rows))
        assert ev.hidden_zeros == 0 and ev.first_nonfinite is None, rows


def test_another_format_is_left_alone():
    ev = read("step 1 loss: 2.1 grad_norm: 3.0\nstep 2 loss: 0.0 grad_norm: nan\n")
    assert ev.hidden_zeros == 0 and ev.first_nonfinite is None


def test_two_halves_of_a_log_read_apart_keep_the_count_and_the_first_line():
    a, b = read(hf([(2.15, 3.4), (1.87, 2.9)])), read(hf([(0.0, "nan"), (0.0, "inf")]))
    ab = merge(a, b)
    assert ab.hidden_zeros == 2 and ab.hidden_line == 3 and a.hidden_line is None and b.hidden_line == 1


def megatron(rows) -> str:
    return "".join(f" iteration {100 * (i + 1):8d}/{5000:8d} | consumed samples: {25600 * (i + 1):12d} | lm loss: "
                   f"{loss:.6E} | loss scale: 1024.0 | grad norm: 1.500 | number of skipped iterations: {nan:3d} | "
                   f"number of nan iterations: {nan:3d} |\n" for i, (loss, nan) in enumerate(rows))


def test_megatron_counts_its_nan_iterations_out_of_the_mean_and_each_is_read_as_a_nan():
    """Megatron-LM leaves a skipped iteration whose loss was nan or inf out of the mean `lm loss` and counts it on
    the same line (core_v0.15.0 training.py L1405-L1416): the mean looked finite, and the run was read as healthy."""
    ev = read(megatron([(3.1, 0), (2.9, 0), (2.95, 2), (3.05, 5)]))
    assert ev.hidden_zeros == 2 and ev.hidden_line == 3
    assert ev.first_nonfinite == 2 and str(ev.first_nonfinite_at) == "iteration 300/5000" and ev.finite_after == 0
    d = diagnose(ev, CATALOG)
    assert d.verdict != "healthy"
    assert any("Megatron-LM counted nan iterations on 2 line(s), the first on line 3" in f for f in d.signature.facts)
    assert "logging_nan_inf_filter" not in " ".join(d.signature.facts)
    clean = read(megatron([(3.1, 0), (2.9, 0), (2.95, 0)]))
    assert clean.hidden_zeros == 0 and clean.first_nonfinite is None
    # a nan iteration the run went on from was a step the scaler skipped: no break (review_session28_reading item 16)
    went_on = read(megatron([(3.1, 0), (2.95, 1), (2.9, 0), (2.8, 0)]))
    assert went_on.hidden_zeros == 0 and went_on.first_nonfinite is None
