"""A pandas DataFrame as a notebook prints it (trainwreck/logscan/dialects/pandas_frame.py): its rows hold an index
the header does not name, and its columns are read one field to the right of their names."""
from trainwreck.logscan import scan_text
from trainwreck.logscan.dialects.pandas_frame import frame_column

FRAME = ("       loss  accuracy  val_loss  val_accuracy\n"
         + "".join(f"{i}  {2.3 - 0.2 * i:.6f}  {0.11 + 0.05 * i:.4f}  {2.4 - 0.1 * i:.6f}  0.{1200 + i}\n"
                   for i in range(6)))


def test_a_frames_columns_are_read_one_field_right_of_their_names():
    ev = scan_text("pd.DataFrame(history.history) prints:\n" + FRAME)
    assert ev.dialect == "a pandas DataFrame as Python prints it" and ev.count == 6
    assert ev.head[:2] == [2.3, 2.1] and ev.last == float(f"{2.3 - 0.2 * 5:.6f}")
    # (the accuracy is its own column, not the loss's nor the validation loss's: the index shifts every field)
    assert ev.accuracy_head[:3] == [0.11, 0.16, 0.21]
    assert frame_column(FRAME.encode())[1] == 1 and frame_column(FRAME.encode())[7] is True


def test_only_a_frame_of_rows_under_names_that_name_a_training_loss_is_read():
    # (a frame of validation losses only; rows that are not an index and one value a name; too few rows)
    for text in (FRAME.replace("  loss  accuracy", "  vloss  accuracy"),
                 FRAME.replace("\n0  ", "\nfirst  "),
                 "".join(FRAME.splitlines(True)[:3])):
        assert frame_column(text.encode()) is None, text
    # (an index with a name on its own line: the rows are numbered by it)
    named = FRAME.replace("val_accuracy\n", "val_accuracy\nepoch\n")
    ev = scan_text(named)
    assert ev.count == 6 and frame_column(named.encode())[4] == "epoch"
    # (pandas' cut of a long frame and its closing count are no rows)
    cut = FRAME + "..       ...       ...       ...       ...\n" + FRAME.split("\n", 1)[1] + "\n[12 rows x 4 columns]\n"
    assert scan_text(cut).count == 12


def test_a_frame_of_anything_but_a_training_history_is_not_read():
    # (code_review_s70b 3: a sweep's trials, a data set whose target is called loss, per-example losses)
    for columns, row in (("lr  batch_size      loss  accuracy", "0.0010  32  0.298765  0.9123"),
                         ("cont1  cont2      loss", "0.7263  0.2456  2213.18"),
                         ("path  label      loss", "img_0001.png  3  9.2103")):
        frame = "       " + columns + "\n" + "".join(f"{i}  {row}\n" for i in range(5))
        assert frame_column(frame.encode()) is None, columns
        assert scan_text(frame).count == 0, columns


def test_a_loggers_nan_cells_are_empty_cells_and_a_runs_nan_is_its_loss():
    # (code_review_s70b 1: Lightning's CSVLogger writes the training and the validation metrics on rows of their own,
    # and pandas prints the other's cell NaN; a history whose loss turns nan keeps it)
    rows = "".join(f"{2 * i}  {0.9 - 0.1 * i:.4f}       NaN\n{2 * i + 1}     NaN  {0.8 - 0.05 * i:.4f}\n" for i in range(4))
    ev = scan_text("   train_loss  val_loss\n" + rows)
    assert ev.count == 4 and ev.first_nonfinite is None and ev.last == 0.6
    broke = "   loss  accuracy\n0  2.30  0.11\n1  5.71  0.10\n2  NaN  0.098\n3  NaN  0.098\n"
    assert scan_text(broke).first_nonfinite == 2
    # (a logger's epoch column numbers the rows; the index does not)
    numbered = "   epoch  step  train_loss\n" + "".join(f"{i}  {i}  {100 * i + 99}  {0.9 - 0.1 * i:.4f}\n" for i in range(4))
    ev = scan_text(numbered)
    assert ev.count == 4 and ev.head[:2] == [0.9, 0.8] and ev.at(3).epoch == "epoch 3"


def test_a_frame_is_read_before_a_loss_a_sentence_gives():
    # (the formats tried before the frame give way to it, as they do to a table: loss_table.pasted)
    ev = scan_text("The run printed loss: 0.31 at the end.\n" + FRAME)
    assert ev.dialect == "a pandas DataFrame as Python prints it" and ev.count == 6
