"""Numbering and keys that a log's neighbours must not be mistaken for."""
from pathlib import Path

from trainwreck.logscan import scan_path, scan_text

LOGS = Path(__file__).parent / "logs"


def test_a_month_and_day_before_a_time_is_a_date_not_a_step():
    ev = scan_text("08/21 02:58:41 - INFO - loss: 0.90\n08/21 02:58:42 - INFO - loss: 0.80\n")
    assert [str(p) for p in ev.head_at] == ["line 1", "line 2"]
    ev = scan_text("loss: 0.90 [50/469] 08/21\n")         # a fraction not followed by a time is still a count
    assert str(ev.head_at[0]) == "[50/469]"


def test_openmmlab_numbering_is_its_epoch_and_iteration():
    ev = scan_path(str(LOGS / "openmmlab" / "mmcv_mmdet_healthy.log"))
    assert [str(p) for p in ev.head_at[:2]] == ["epoch 1 [50/4867]", "epoch 1 [100/4867]"]
    ev = scan_path(str(LOGS / "openmmlab" / "mmengine_iter_parts_healthy.log"))
    assert [str(p) for p in ev.head_at[:2]] == ["iter 50/2000", "iter 100/2000"]


def test_a_key_that_runs_on_into_a_digit_is_another_key():
    """`loss1: 0.84` is a part of the loss, not a loss of 1."""
    ev = scan_text("loss1: 0.8400  loss2: 0.9000  loss: 1.7400\nloss1: 0.7140  loss2: 0.7920  loss: 1.5060\n")
    assert ev.head == [1.74, 1.506]


def test_an_openmmlab_validation_line_is_not_a_training_step():
    ev = scan_text("Epoch(train) [1][10/25]  lr: 1.0e-02  loss: 0.9000\n"
                   "Epoch(val) [1][5/5]  loss: 7.0000  accuracy: 50.0\n"
                   "Epoch(train) [2][10/25]  lr: 1.0e-02  loss: 0.8000\n")
    assert ev.head == [0.9, 0.8]


def test_a_table_reads_its_rows_not_the_header_repeated_or_the_validation_summary():
    ev = scan_path(str(LOGS / "loss_table" / "yolov8_nan_in_epoch_4.log"))
    assert ev.loss_key == "box_loss" and ev.count == 5                  # 5 epochs, not 5 + 5 validation rows
    assert ev.head[:3] == [1.213, 1.151, 1.102]
    assert [str(p) for p in ev.head_at[:2]] == ["epoch 1/10", "epoch 2/10"]


def test_a_table_with_a_total_reads_the_total():
    ev = scan_text("Epoch  loss  box_loss  cls_loss\n  1/3  2.50  1.00  1.50\n  2/3  2.00  0.80  1.20\n")
    assert ev.loss_key == "" and ev.head == [2.5, 2.0]
