"""A history printed whole (dialects/history.py): which numbers of which lists are read."""
from trainwreck.logscan import scan_text
from trainwreck.logscan.dialects import history


def values(text: str) -> list[bytes]:
    return [number for _, number, _, _ in history.items(text.encode())]


def test_only_the_training_loss_list_is_read():
    text = "{'accuracy': [0.5, 0.6], 'loss': [0.9, 0.7, nan], 'val_loss': [1.0, 0.8, nan], 'val_accuracy': [0.4, 0.5]}"
    assert values(text) == [b"0.9", b"0.7", b"nan"]


def test_boxed_items_give_their_value_not_their_dtype_or_device():
    text = ("losses = [tensor(2.3026, grad_fn=<NllLossBackward0>), tensor(inf, device='cuda:0'), "
            "array(0.5, dtype=float32), array(1e-3)]")
    assert values(text) == [b"2.3026", b"inf", b"0.5", b"1e-3"]


def test_each_value_is_named_as_the_item_of_its_list_it_is():
    text = "run 1\n'loss': [0.9,\n 0.7]\nrun 2\n'loss': [0.8, nan]\n"
    found = history.items(text.encode())
    assert [(k, key) for _, _, k, key in found] == [(1, b"loss"), (2, b"loss"), (1, b"loss"), (2, b"loss")]
    ev = scan_text(text)
    assert ev.mode == "list" and ev.count == 4
    assert str(ev.first_nonfinite_at) == "value 2 of 'loss'" and ev.first_nonfinite_at.line == 5
    assert str(ev.head_at[1]) == "value 2 of 'loss'" and ev.head_at[1].line == 3


def test_code_that_builds_a_list_is_not_a_history():
    ev = scan_text("loss = [criterion(o, t) for o, t in zip(outputs, targets)]\nthe loss is nan\n")
    assert ev.mode != "list" and ev.count == 0


def test_a_log_with_loss_lines_is_read_by_its_lines_not_by_a_list_at_its_end():
    text = "epoch 1 loss 0.9\nepoch 2 loss 0.7\nepoch 3 loss 0.6\nlosses = [0.9, 0.7, 0.6]\n"
    ev = scan_text(text)
    assert ev.mode == "key" and ev.count == 3 and str(ev.last_at) == "epoch 3"
