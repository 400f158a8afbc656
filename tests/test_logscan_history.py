"""A history printed whole (dialects/history.py): which numbers of which lists are read."""
from trainwreck.logscan import scan_text
from trainwreck.logscan.dialects import history


def values(text: str) -> list[bytes]:
    return [item.number for item in history.items(text.encode())]


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
    assert [item.label for item in found] == ["value 1 of 'loss'", "value 2 of 'loss'"] * 2
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


def test_a_list_printed_by_numpy_is_read_item_by_item_and_its_gap_said():
    ev = scan_text("losses = [2.30258512 1.95123422 1.40211236 0.98132145 0.71234212 0.54321234\n"
                   " 0.44123122 0.38123412        nan        nan]\n")
    assert ev.count == 10 and str(ev.first_nonfinite_at) == "value 9 of 'losses'"
    elided = history.items(b"losses = [2.3 2.29 2.28 ... 0.41 0.40 nan]")
    assert [i.label for i in elided][-3:] == ["value 3 from the end of 'losses'", "value 2 from the end of 'losses'",
                                              "value 1 from the end of 'losses'"]


def test_pairs_configurations_and_quoted_source_are_not_histories():
    assert values("losses = [(1, 2.3), (2, 1.9), (3, 1.6)]") == []
    assert values("config: {'model': 'resnet18', 'loss': [1.0, 0.5, 0.1], 'lr': 0.1}") == []
    assert values('  File "train.py", line 12, in <module>\n    loss_history = [0.0, 0.0, 0.0]\n') == []
    assert values("losses = ['ce', 'dice', 'focal']") == []


def test_a_list_longer_than_the_start_of_the_log_is_still_found():
    numbers = ", ".join(f"{2.4 * 0.9999 ** i:.6f}" for i in range(40_000)) + ", nan, nan"
    ev = scan_text(f"losses = [{numbers}]\n")
    assert ev.mode == "list" and ev.count == 40_002 and str(ev.first_nonfinite_at) == "value 40001 of 'losses'"


def test_a_list_printed_again_as_it_grows_is_read_for_its_new_values():
    text = "".join(f"epoch {e} done, losses = [{', '.join(f'{2.3 - 0.1 * i:.1f}' for i in range(e))}]\n"
                   for e in range(1, 6))
    ev = scan_text(text)
    assert ev.count == 5 and ev.head == [2.3, 2.2, 2.1, 2.0, 1.9]
    assert str(ev.head_at[0]) == "epoch 1" and str(ev.head_at[4]) == "value 5 of 'losses'"


def test_one_list_of_one_value_per_epoch_is_located_by_its_line():
    ev = scan_text("".join(f"{{'epoch': {e}, 'loss': [{v}]}}\n" for e, v in enumerate(["2.31", "1.9", "1.42", "nan"], 1)))
    assert ev.mode == "list" and [str(p) for p in ev.head_at[:2]] == ["epoch 1", "epoch 2"]
    assert str(ev.first_nonfinite_at) == "epoch 4"


def test_a_refused_list_is_named_not_dropped_in_silence():
    ev = scan_text("losses = [(1, 2.3), (2, 1.9), (3, 1.6)]\n")
    assert ev.count == 0 and ev.refused == ["the list under `losses` on line 1 holds pairs or lists, not one loss per item"]
    ev = scan_text("config: {'model': 'resnet18', 'loss': [1.0, 0.5, 0.1], 'lr': 0.1}\n")
    assert ev.refused == ["the list under `loss` on line 1 sits in a configuration (its line gives another key a "
                          "single value)"]


def test_a_list_cut_short_by_the_paste_is_read_as_far_as_it_goes():
    ev = scan_text("print(losses)\nlosses = [2.30, 1.95, 1.41, nan, nan\n")
    assert ev.mode == "list" and ev.count == 5 and str(ev.first_nonfinite_at) == "value 4 of 'losses'"
