"""A hidden layer printed dead, and a run that got worse on both its printed measures (s261/11): the log's column of a
ReLU layer's mean activation reaching exactly 0 is every unit giving 0 for every input (WR-140's face, printed by the
run); and a loss that ended above where it started beside a training accuracy that fell and never came back above its
first print is no healthy run, however many values it has."""
import pytest

from conftest import diagnosis
from trainwreck.frozen_said import DEAD_COLUMN_PRINTS, dead_layer_printed

ROWS = [(1.6890, 0.3779, "0.0290"), (2.2840, 0.1100, "0.0046"), (2.3041, 0.1051, "0.0002"), (2.2979, 0.1343, "0.0050"),
        (2.3208, 0.1051, "0.0001")] + [(2.31 + 0.001 * k, 0.10, "0.0000") for k in range(10)]


def log(rows=ROWS, column="mean|h|") -> str:
    return ("Q2 adds a hidden layer (64 -> 128 ReLU -> 10) and does worse than softmax regression\n" +
            "".join(f"epoch {i + 1:2d}  loss {loss:.4f}  train_acc {acc:.4f}  {column} {h}  |dW1| 1.0e-01\n"
                    for i, (loss, acc, h) in enumerate(rows)))


def test_a_mean_activation_printed_at_exactly_zero_names_dead_relus():
    assert dead_layer_printed(log()).startswith("the log prints `mean|h|` at 0.0290 first and at 0 to every digit printed "
                                                "(0.0000) in its last 10 prints")
    d = diagnosis(log())
    assert d.matches[0].entry.id == "WR-140" and d.matches[0].parts["dead-units-printed"] > 0
    assert d.verdict == "failure"


@pytest.mark.parametrize("rows, column", [
    (ROWS[:5] + ROWS[-(DEAD_COLUMN_PRINTS - 1):], "mean|h|"),             # too few zeros at the end: a batch's chance
    ([(r[0], r[1], "0.0000") for r in ROWS], "mean|h|"),                   # zero from the first print: no layer that lived
    (ROWS, "act"),                                                          # an RL log's action, not an activation
    (ROWS[:-1] + [(2.31, 0.10, "0.0003")], "mean|h|"),                      # alive again at the last print
])
def test_no_dead_layer_without_a_column_that_lived_and_ends_at_zero(rows, column):
    assert dead_layer_printed(log(rows, column)) == ""


def test_a_loss_that_rose_beside_a_falling_accuracy_is_no_healthy_run():
    """Without the activations column: the verdict is no longer healthy (the loss rose, the accuracy fell to chance)."""
    plain = "".join(f"epoch {i + 1:2d}  loss {loss:.4f}  train_acc {acc:.4f}\n" for i, (loss, acc, _h) in enumerate(ROWS))
    assert diagnosis(plain).verdict != "healthy"
    # (a loss that fell beside it keeps the curve's verdict: a class-weighted loss may lower the accuracy while learning)
    fell = "".join(f"epoch {k + 1:2d}  loss {2.3 - 0.05 * k:.4f}  train_acc {0.60 - 0.02 * k:.4f}\n" for k in range(12))
    assert diagnosis(fell).verdict == "healthy"


def test_a_signed_mean_or_a_rounded_zero_is_no_dead_layer():
    """code_review_s72 5: a tanh layer's signed mean sits near 0 in a healthy layer (and prints -0.00); a zero printed to
    two decimals may be 0.004. Neither is every unit giving 0."""
    # (each guard alone decides its case: printed to four decimals, past the rounding guard)
    signed = "My ReLU MLP is stuck\n" + "".join(
        f"epoch {i} loss 2.30 act_mean {v}\n" for i, v in enumerate(
            ["0.4100", "0.1200", "0.0300", "-0.0000", "0.0000", "-0.0000", "0.0000"]))
    assert dead_layer_printed(signed) == ""                                # (a minus sign printed: a signed mean)
    tanh = "My tanh MLP (nn.Tanh hidden layers) is stuck\n" + "".join(
        f"epoch {i} loss 2.30 act_mean {v}\n" for i, v in enumerate(["0.4100", "0.1200", "0.0300"] + ["0.0000"] * 4))
    assert dead_layer_printed(tanh) == ""                                  # (a tanh layer's mean may sit at 0)
    assert dead_layer_printed(tanh.replace("My tanh MLP (nn.Tanh hidden layers)", "My ReLU MLP")) != ""
    rounded = log(ROWS[:5] + [(2.31, 0.10, "0.00")] * 5)
    assert dead_layer_printed(rounded) == ""
