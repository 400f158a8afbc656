"""Numbering and keys that a log's neighbours must not be mistaken for."""
from pathlib import Path

from trainwreck.logscan import scan_path, scan_text

LOGS = Path(__file__).parent / "logs"


def test_a_month_and_day_before_a_time_is_a_date_not_a_step():
    ev = scan_text("08/21 02:58:41 - INFO - loss: 0.90\n08/21 02:58:42 - INFO - loss: 0.80\n")
    assert [str(p) for p in ev.head_at] == ["line 1", "line 2"]
    ev = scan_text("loss: 0.90 [50/469] 08/21\n")         # a fraction not followed by a time is still a count
    assert str(ev.head_at[0]) == "[50/469]"


def test_a_step_with_thousands_separators_is_quoted_whole():
    """`step 9,050` is step 9050, not step 9 (review_session27_logs W8); a count followed by a comma and other
    text (`step 100, loss 0.5`) is still step 100."""
    ev = scan_text("".join(f"2026-12-01 10:{i:02d}:00 | step {9000 + 50 * i:,} | loss {v}\n"
                           for i, v in enumerate(["0.33", "0.31", "0.45", "0.9", "nan"])))
    assert str(ev.head_at[0]) == "step 9000" and str(ev.first_nonfinite_at) == "step 9200"
    ev = scan_text("iteration 29,000/250,000 | lm loss 2.15\niteration 30,000/250,000 | lm loss 2.11\n")
    assert str(ev.head_at[0]) == "iteration 29000/250000"          # its total too (review_session27_commits 12)
    ev = scan_text("step 100, loss 0.5\nstep 200, loss 0.4\n")
    assert [str(p) for p in ev.head_at] == ["step 100", "step 200"]


def test_an_epochs_average_on_a_line_of_its_own_gives_way_to_the_steps_own_loss():
    """PyTorch's VAE example prints `Loss:` every interval and `Average loss:` once per epoch: the steps are read,
    not the ten averages (review_session27_logs K5); alone, an average is the loss."""
    lines = "".join(f"Train Epoch: {e} [{12800 * k}/60000 ({21 * k}%)]\tLoss: {v - 10 * k:.6f}\n"
                    + (f"====> Epoch: {e} Average loss: {v - 20:.4f}\n====> Test set loss: {v - 25:.4f}\n" if k == 4 else "")
                    for e, v in ((1, 550.0), (2, 150.0), (3, 130.0)) for k in range(5))
    ev = scan_text(lines)
    assert ev.count == 15 and ev.head[0] == 550.0 and str(ev.head_at[1]) == "epoch 1 [12800/60000]"
    alone = scan_text("".join(f"====> Epoch: {e} Average loss: {v}\n" for e, v in ((1, 164.4), (2, 121.5), (3, 114.6))))
    assert alone.head == [164.4, 121.5, 114.6]
    # averages at every step, and a closing line or an evaluation that prints a plain loss once: the averages are
    # the curve (review_session27_commits item 1)
    steps = "".join(f"step {50 * i}/5000 | avg loss {2.3 - 0.02 * i:.4f}\n" for i in range(1, 28))
    closing = scan_text(steps + "finished 3 epochs -> Loss: 2.3026 | acc: 0.1000 | saved to ckpt/last.pt\n")
    assert closing.count >= 27 and closing.head[0] == 2.28
    # the step's own loss beside a running one on every line, and an epoch's mean on a line of its own: the step's
    # (review_session27_fixes item 1: counting keys, not lines, read all three as one curve)
    both = "".join(f"[{e}, {i:4d}] loss: {0.5 * i + e:.3f}  running loss: {0.4 * i + e:.3f}\n" for e in range(1, 4)
                   for i in range(1, 11)) + "".join(f"epoch {e} mean loss: {e + 2.0:.3f}\n" for e in range(1, 4))
    assert scan_text(both).count == 30


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
    assert ev.loss_key == "box_loss + cls_loss + dfl_loss" and ev.count == 5     # 5 epochs, no validation rows
    assert [round(v, 4) for v in ev.head[:3]] == [4.018, 3.691, 3.473]       # the sums of the three parts
    assert [str(p) for p in ev.head_at[:2]] == ["epoch 1/10", "epoch 2/10"]


def test_a_table_after_a_banner_reads_its_rows_and_a_nan_in_any_part_is_a_nan():
    ev = scan_path(str(LOGS / "loss_table" / "yolov8_banner_cls_loss_climbs.log"))
    assert ev.count == 5 and str(ev.head_at[0]) == "epoch 1/10"           # the model summary is not a row
    ev = scan_text("Epoch GPU_mem box_loss cls_loss dfl_loss Instances Size\n 1/3 2.6G 1.2 1.5 1.2 40 640\n"
                   " 2/3 2.6G 1.1 nan 1.2 40 640\n")
    assert ev.first_nonfinite == 1


def test_a_table_with_a_total_reads_the_total():
    ev = scan_text("Epoch  loss  box_loss  cls_loss\n  1/3  2.50  1.00  1.50\n  2/3  2.00  0.80  1.20\n")
    assert ev.loss_key == "" and ev.head == [2.5, 2.0]


def test_a_count_before_a_time_elsewhere_on_the_line_is_still_a_count():
    """Lightning's Rich progress bar prints the batches done, then the time: `500/938 0:00:06`."""
    ev = scan_text("Epoch 0/2  ━━━━━━━━━━━━━━━ 250/938 0:00:03 • 0:00:08 78.52it/s v_num: 0 train_loss: 2.300\n"
                   "Epoch 0/2  ━━━━━━━━━━━━━━━ 500/938 0:00:06 • 0:00:05 78.52it/s v_num: 0 train_loss: nan\n")
    assert [str(p) for p in ev.head_at] == ["epoch 0/2 [250/938]", "epoch 0/2 [500/938]"]
    ev = scan_text("[08/21 02:58:41 d2.utils.events]:  iter: 19  loss: 2.3\n")
    assert str(ev.head_at[0]) == "iter 19"


def test_a_total_loss_beside_its_parts_is_the_loss():
    """Detectron2's events line: `total_loss` is what is optimised, `loss_cls` one of its parts."""
    ev = scan_text("".join(f"[08/21 02:5{i}:41 d2.utils.events]:  eta: 0:10:00  iter: {19 + 20 * i}  total_loss: {v}  "
                           f"loss_cls: 0.9  loss_box_reg: 0.4  lr: 0.0002  max_mem: 2000M\n"
                           for i, v in enumerate(["2.301", "1.904", "nan"])))
    assert ev.head[:2] == [2.301, 1.904] and str(ev.first_nonfinite_at) == "iter 59"


def test_a_line_of_keys_and_values_is_not_a_table_header_and_an_upper_case_total_is_the_loss():
    ev = scan_text("STEP : 0\tTRAIN_TOTAL_LOSS : 1.2195\tTRAIN_LOC_LOSS : 0.0875\tTRAIN_CLS_LOSS : 1.1320\n"
                   "STEP : 50\tTRAIN_TOTAL_LOSS : 1.2236\tTRAIN_LOC_LOSS : 0.0911\tTRAIN_CLS_LOSS : 1.1325\n")
    assert ev.mode == "key" and ev.head == [1.2195, 1.2236] and str(ev.head_at[1]) == "step 50"


def test_a_two_column_table_is_a_table():
    ev = scan_text("epoch loss\n1 0.5\n2 nan\n3 0.4\n")
    assert ev.mode == "csv" and ev.count == 3 and str(ev.first_nonfinite_at) == "epoch 2"


def test_a_step_table_under_a_progress_line_does_not_take_the_bars_epoch():
    ev = scan_text(" [1500/1500 05:00, Epoch 3/3]\nStep\tTraining Loss\tValidation Loss\tAccuracy\n"
                   "500\t0.800000\t0.650000\t0.600000\n1000\t0.693100\t0.600000\t0.650000\n1500\tnan\tnan\t0.500000\n")
    assert ev.head[:2] == [0.8, 0.6931] and [str(p) for p in ev.head_at[:2]] == ["step 500", "step 1000"]


def test_with_no_plain_loss_a_loss_named_after_its_word_is_read_and_a_plain_one_wins_when_printed():
    """PyTorch's DCGAN tutorial prints `Loss_D` and `Loss_G` only: the first is read, numbered by its two
    bare counts (the epoch and the iteration within it). An OpenMMLab line with `loss_cls` and `loss` reads
    `loss`."""
    ev = scan_text("".join(f"[{e}/5][{i}/1583]\tLoss_D: {d}\tLoss_G: {g}\tD(x): 0.5\n"
                           for e, i, d, g in [(0, 0, "1.73", "4.11"), (0, 50, "0.41", "7.98"), (1, 0, "nan", "nan")]))
    assert ev.head[:2] == [1.73, 0.41] and str(ev.first_nonfinite_at) == "[1/5][0/1583]"
    ev = scan_text("Epoch [1][50/200]  lr: 0.01, loss_cls: 0.9, loss_bbox: 0.4, loss: 1.3\n"
                   "Epoch [1][100/200]  lr: 0.01, loss_cls: 0.8, loss_bbox: 0.3, loss: 1.1\n")
    assert ev.head == [1.3, 1.1]


def test_a_gans_two_losses_are_not_read_as_one_curve():
    """`[D loss: ...] [G loss: ...]` (the PyTorch-GAN scripts) and Keras examples' `d_loss`, `g_loss`: the
    discriminator's loss is read, alone, and the generator's rising loss is not taken for a climb."""
    lines = [f"[Epoch {e}/200] [Batch {b}/938] [D loss: {d}] [G loss: {g}]"
             for e, b, d, g in [(0, 0, "0.69", "0.71"), (0, 400, "0.61", "1.90"), (1, 0, "0.52", "3.10")]]
    ev = scan_text("\n".join(lines) + "\n")
    assert ev.head == [0.69, 0.61, 0.52] and str(ev.head_at[1]) == "epoch 0/200, batch 400/938"
    ev = scan_text("epoch 1, d_loss: 0.69, g_loss: 0.71\nepoch 2, d_loss: 0.60, g_loss: 0.91\n"
                   "epoch 3, d_loss: nan, g_loss: nan\n")
    assert ev.head[:2] == [0.69, 0.60] and str(ev.first_nonfinite_at) == "epoch 3"
    ev = scan_text("epoch 1 train loss: 0.9, batch loss: 0.5\nepoch 2 train loss: 0.8, batch loss: 0.4\n")
    assert ev.head == [0.9, 0.8]         # two named losses: the first one printed is read


def test_of_several_named_losses_the_one_that_broke_first_is_read_and_a_summary_line_does_not_merge_them():
    """A GAN whose G loss turns nan while its D loss stays finite: reading D alone would say the run was fine,
    reading both as one curve would make up a fall and a climb (review_session26_fixes, item 5). A closing
    summary that names the losses again (`mean D loss ...`) does not switch the reading of named losses off."""
    rows = [(0, "0.693", "0.701"), (100, "0.612", "0.884"), (200, "0.590", "1.020"), (300, "0.571", "1.310"),
            (400, "0.533", "2.950"), (500, "0.498", "nan"), (600, "0.470", "nan")]
    log = "".join(f"[Epoch 0/200] [Batch {b}/938] [D loss: {d}] [G loss: {g}]\n" for b, d, g in rows)
    summary = "Summary epoch 0: mean D loss 0.567, mean G loss nan, mean GP loss 0.012\n"
    for text in (log, log + summary):
        ev = scan_text(text)
        assert ev.loss_named == ("G loss", "broke") and ev.head[:5] == [0.701, 0.884, 1.02, 1.31, 2.95], text
        assert str(ev.first_nonfinite_at) == "epoch 0/200, batch 500/938"
    # when both break, the one that broke first, whichever is named first on the line
    later = log.replace("[D loss: 0.470]", "[D loss: nan]")
    assert scan_text(later).loss_named == ("G loss", "broke")
    earlier = log
    for d in ("0.571", "0.533", "0.498", "0.470"):
        earlier = earlier.replace(f"[D loss: {d}]", "[D loss: inf]")
    assert scan_text(earlier).loss_named == ("D loss", "named")
    # one that went inf once and came back did not break: the one that stayed nan is read
    assert scan_text(log.replace("[D loss: 0.571]", "[D loss: inf]")).loss_named == ("G loss", "broke")
    # a loss that starts at inf by design (a previous-best sentinel) and is finite after it did not break
    # (review_session27_commits item 10)
    sentinel = "".join(f"epoch {e:2d} | train loss: {0.69 - 0.01 * e:.4f} | prev loss: {'inf' if e == 1 else 0.70 - 0.01 * e:}\n"
                       for e in range(1, 13))
    assert scan_text(sentinel).loss_named == ("train loss", "named")
    # lines of one plain loss: one in eight is an exception (the named lines hold 14 of 15 matches, over 90%),
    # two are not (14 of 16)
    assert scan_text(log + "loss: 0.5\n").loss_named == ("G loss", "broke")
    assert scan_text(log + "loss: 0.5\n" * 2).loss_named == ("", "")


def test_the_first_named_loss_keeps_the_logs_own_space_and_is_not_decided_by_one_line():
    lines = "".join(f"[Epoch 0/9] [Batch {b}/938] [D\tloss: {d}] [G\tloss: {g}]\n"
                    for b, d, g in [(0, "0.69", "0.71"), (1, "0.6", "0.9"), (2, "nan", "nan")])
    ev = scan_text(lines)
    assert ev.head[:2] == [0.69, 0.6] and ev.first_nonfinite == 2
    ev = scan_text("random loss: 2.3 uniform loss: 2.2\nloss: 1.9\nloss: 1.8\nloss: nan\n")
    assert ev.count == 5           # one line of two named losses does not make the log a GAN's


def test_a_loss_tagged_as_tensorboard_tags_it_is_read_and_its_validation_twin_is_not():
    """`Loss/train` (PyTorch's TensorBoard tutorial), as a Lightning progress bar prints a metric logged
    under that name: the training tag is read, `Loss/test` and `loss/val` are not."""
    ev = scan_text("".join(f"epoch {e} Loss/train: {t} Loss/test: {v}\n"
                           for e, t, v in [(1, "0.9", "1.0"), (2, "1.9", "2.0"), (3, "nan", "nan")]))
    assert ev.head[:2] == [0.9, 1.9] and str(ev.first_nonfinite_at) == "epoch 3"
    bar = "".join(f"\rEpoch {e}: 100%|##########| 100/100 [00:10<00:00, v_num=3, loss/train={t}, loss/val={v}]\n"
                  for e, t, v in [(0, "0.70", "0.72"), (1, "0.61", "0.66"), (2, "0.55", "0.60")])
    assert scan_text(bar).head == [0.7, 0.61, 0.55]
    assert scan_text(bar).dialect == "PyTorch Lightning progress bar"    # read as the tool that printed it
    assert scan_text("epoch 1 loss/val: 0.9\nepoch 2 loss/val: 0.5\n").count == 0
    # validation printed first: its text ends where the training values start again on the line
    ev = scan_text("epoch 1 Loss/test: 1.0 Loss/train: 0.9\nepoch 2 Loss/test: 2.0 Loss/train: 1.9\n")
    assert ev.head == [0.9, 1.9]
    assert scan_text("Epoch 1 | val loss 0.5 | train loss 0.4\nEpoch 2 | val loss 0.6 | train loss 0.3\n").head \
        == [0.4, 0.3]


def test_lightnings_step_and_epoch_suffixes_are_names_not_counters_and_val_slash_is_validation():
    """Logged with on_step and on_epoch, Lightning prints `train_loss_step=2.850` and `train_loss_epoch=2.900`:
    neither number is a step or an epoch. `train/loss` beside `val/loss` reads the training curve alone."""
    bar = "".join(f"\rEpoch {e}: 100%|##########| 100/100 [00:03<00:00, v_num=1, train_loss_step={x}, "
                  f"train_loss_epoch={x}]\n" for e, x in [(0, "2.850"), (1, "3.600"), (2, "nan")])
    for log in (bar, bar.replace("train_loss_", "loss/train_")):
        ev = scan_text(log)
        assert [str(p) for p in ev.head_at[:2]] == ["epoch 0", "epoch 1"], log
        assert str(ev.first_nonfinite_at) == "epoch 2"
    ev = scan_text("".join(f"Epoch {e}: 100%|####| 10/10 [00:01<00:00, v_num=1, train/loss={t}, val/loss={v}]\n"
                           for e, t, v in [(0, "0.90", "1.50"), (1, "0.80", "1.40"), (2, "0.70", "1.30")]))
    assert ev.head == [0.9, 0.8, 0.7]


def test_a_validation_loss_or_a_setting_named_after_the_loss_is_not_the_training_loss():
    for log in ("epoch 1 val_loss: 0.5\nepoch 2 val_loss: 0.4\n", "epoch 1 loss_val: 0.5\nepoch 2 loss_val: 0.4\n",
                "step 1 loss_scale: 65536\nstep 2 loss_scale: 32768\n", "model: loss_weight=1.0\nrun: loss_fn=ce\n"):
        assert scan_text(log).count == 0, log
    ev = scan_text("iter 1 loss_rpn_cls: 0.7 loss_rpn_bbox: 0.2\niter 2 loss_rpn_cls: 0.6 loss_rpn_bbox: 0.2\n")
    assert ev.head == [0.7, 0.6]     # the first part, named whole


def test_it_numbers_a_step_and_nll_is_a_loss_key():
    """`it 3500` is a step as nanoGPT-style loops print it (it was "line 14"); `train nll:` is the loss a density
    model prints (it was "no loss values")."""
    ev = scan_text("it 3400 loss 0.52\nit 3500 loss 1.91\nit 3600 loss 0.50\n")
    assert str(ev.at(1)) == "it 3500"
    nll = scan_text("epoch 1 train nll: 3.9120 val nll: 3.9514\nepoch 2 train nll: 2.1033 val nll: 2.2410\n")
    assert nll.count == 2 and nll.last == 2.1033


def test_the_cifar_tutorials_epoch_and_mini_batch_pair_is_its_numbering():
    """`[2,  4000] loss: nan` is epoch 2's mini-batch 4000, quoted as printed; a second run pasted after the first
    (its pair back to epoch 1 after a line of words) is a run of its own."""
    from trainwreck.logscan.positions import epoch_number, starts_again, step_number

    ev = scan_text("[1,  2000] loss: 2.192\n[1,  4000] loss: 1.871\n[2,  2000] loss: 1.431\n[2,  4000] loss: nan\n")
    assert [str(p) for p in ev.head_at[:3]] == ["[1, 2000]", "[1, 4000]", "[2, 2000]"]
    assert str(ev.first_nonfinite_at) == "[2, 4000]"
    assert (epoch_number(ev.first_nonfinite_at), step_number(ev.first_nonfinite_at)) == ("2", 4000)
    rerun = "[1,  2000] loss: 2.1\n[2,  2000] loss: 1.4\nFinished Training\n[1,  2000] loss: 2.3\n[1,  4000] loss: nan\n"
    at = scan_text(rerun).head_at
    assert not starts_again(at[0], at[1]) and starts_again(at[1], at[2])
    # a list that opens a line is no numbering when its second number is not closed by the bracket
    assert str(scan_text("[1, 2, 3] loss: 0.5\n").head_at[0]) == "line 1"


def test_a_bars_share_done_is_not_its_step_or_epoch():
    """diffusers' `Steps:   2%|▏ | 100/6000 [...]` is step 100 of 6000, not step 2 (every row of such a bar was quoted
    at its percentage, and a climb's steps were counted between percentages); an outer `Epoch:  33%|` bar is not
    epoch 33."""
    bar = "".join(f"Steps: {100 * s // 6000:3d}%|{'█' * (s // 600):<10}| {s}/6000 [01:38<1:36:24,  1.02it/s, "
                  f"lr=0.0001, step_loss={v}]\n" for s, v in [(100, 0.0187), (600, 0.412), (1500, "nan")])
    ev = scan_text(bar)
    assert [str(p) for p in ev.head_at] == ["[100/6000]", "[600/6000]", "[1500/6000]"]
    outer = "Epoch:  33%|███▎      | 1/3 [00:41<01:22, 41.20s/it, loss=0.52]\n"
    assert ev.head_at[0].epoch is None and scan_text(outer).head_at[0].epoch is None
    # a number that is a step's or an epoch's, followed by its own bar, is still read
    assert str(scan_text("Epoch 3:  50%|█████     | 50/100 [00:01<00:01, 40.00it/s, loss=4.21]\n").head_at[0]) \
        == "epoch 3 [50/100]"


def test_an_epoch_a_sentence_speaks_of_is_no_header_for_the_lines_below():
    """(s82/15) "The first version went nan late in epoch 1" above a step-numbered log put "epoch 1" on every step the
    log printed ("epoch 1, step 3000"), an index the log never printed. An epoch after a preposition is a sentence's;
    a header's epoch (`Epoch 2`, `Starting epoch 2`) still numbers the lines below it."""
    log = "step 500 loss 0.51\nstep 1000 loss 0.49\nstep 1500 loss nan\n"
    for said in ("The first version went nan late in epoch 1, so I added clipping.\n",
                 "After epoch 22 it never recovered.\n", "It was fine until the epoch 3 checkpoint.\n"):
        assert [str(p) for p in scan_text(said + log).head_at] == ["step 500", "step 1000", "step 1500"], said
    for header in ("Epoch 2\n", "Starting epoch 2\n", "=== epoch 2 ===\n"):
        assert [str(p) for p in scan_text(header + log).head_at][0] == "epoch 2, step 500", header


def test_a_value_far_along_a_long_line_is_placed_by_what_stands_beside_it():
    """A line of thousands of values (a printed list, updates run together) is read, for each value placed, only
    around it (positions.AROUND): a step at the line's start is not the step of a nan 33 kB further on, and reading
    the whole line again for each value placed took a minute on a 2.2 MB line."""
    values = "loss=2.300 " * 3000
    assert str(scan_text(f"step 7 {values}loss=nan\n").first_nonfinite_at) == "line 1"
    assert str(scan_text(f"{values}step 7 loss=nan\n").first_nonfinite_at) == "step 7"
    assert str(scan_text("step 7 loss=2.300 loss=2.100 loss=nan\n").first_nonfinite_at) == "step 7"   # a short line
    # near the line's start the line's own first words are read, and an epoch after the value is another value's
    # (code_review_s64 2, 4)
    assert str(scan_text("Epoch 2/10 loss=2.0\nEpoch 3/10 loss=nan " + "grad_norm=1.0 " * 400 + "\n")
               .first_nonfinite_at) == "epoch 3/10"
    assert str(scan_text("epoch 1 loss=nan " + "loss=2.300 " * 400 + "| epoch 2 loss=nan\n").first_nonfinite_at) \
        == "epoch 1"
    # ... and its step or count is the last before it, as its epoch is (code_review_s64b 3)
    values = [f"{2.3 - i * 0.001:.4f}" for i in range(500)]
    values[300] = "nan"
    for write, said in ((lambda i: f"step {i}", "step 300"), (lambda i: f"iter {i}:", "iter 300"),
                        (lambda i: f"[{i}/500]", "[300/500]")):
        line = " ".join(f"{write(i)} loss={v}" for i, v in enumerate(values)) + "\n"
        assert len(line) > 4096 and str(scan_text(line).first_nonfinite_at) == said, said
