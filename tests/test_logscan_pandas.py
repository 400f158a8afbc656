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
