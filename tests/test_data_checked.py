"""Words that the data was searched for nan and inf and found clean (trainwreck/data_checked.py): the broken batch's
first check, done, counts half against it -- only where the whole data was checked, and never for the run's own nan."""

import pytest

from conftest import diagnosis, weighed_parts
from trainwreck.data_checked import data_said_finite


@pytest.mark.parametrize("text, said", [
    ("np.isfinite(X_train).all() is True, and so is y_train.", "isfinite(x_train).all() is true"),
    ("I assert torch.isfinite(batch).all() in the loop and it never fires.",
     "isfinite(batch).all() in the loop and it never fires"),
    ("There are no nan or inf values in the features.", "no nan or inf values in the features"),
    ("The inputs are min-max scaled and contain no nans.", "inputs are min-max scaled and contain no nans"),
    ("df.isna().sum() on the merged table is 0 everywhere.", "isna().sum() on the merged table is 0"),
    ("Before training I checked there are no NaN/inf.", "checked there are no nan"),
    ("jnp.isnan on the whole dataset is all False.", "isnan on the whole dataset is all false"),  # the check in words
])
def test_a_clean_check_of_the_data_is_read(text, said):
    assert data_said_finite(text) == said


@pytest.mark.parametrize("text", [
    "No nan anywhere, the loss just stays flat.",                              # the run's, not the data's
    "Is there no nan in the data, or should I check again?",                   # asked
    "I ran df.isna().sum() on a few of the CSVs and they were 0.",              # part of the data
    "The loss has no nan until step 300.",
    "I checked there are no nan in the loss before the spike.",
    "isnan(x).any() is True for 3 rows.",                                      # found some
    "np.isnan on the outputs is all False.",                                    # the run's own tensor
    "I will run isnan on the data, is it all False?",                           # planned, asked
    # (code_review_s47 H5, M3: a share found, an expectation, a question, another check)
    "isnan on the dataset shows 0.3% of rows with a nan.",
    "jnp.isnan on the whole dataset gives 0.2% True.",
    "Running isnan on the data should return all False.",
    "isnan on the data returns False, right?",
    "isinf on the inputs is all False.",
])
def test_other_checks_are_not_read(text):
    assert data_said_finite(text) == ""


FELL_THEN_NAN = ("Loss goes nan in epoch 3\n\nGRU on sensor windows, Adam 1e-3, batch 128. The loss falls from 0.91 to "
                 "0.22 over two epochs, then at step 2,140 of epoch 3 it prints nan and stays nan. ")


def test_data_said_clean_counts_half_against_the_broken_batch():
    clean = FELL_THEN_NAN + "I assert torch.isfinite(x).all() and torch.isfinite(y).all() on every batch and it never fires."
    assert "data-finite" not in weighed_parts(FELL_THEN_NAN, "WR-310")
    assert weighed_parts(clean, "WR-310")["data-finite"] == -1.0
    checked = next((m for m in diagnosis(clean).matches if m.entry.id == "WR-310"), None)
    assert checked is None or any("checked for nan and inf and found clean" in a for a in checked.against)


def test_a_check_of_the_inputs_alone_counts_a_quarter_against_the_broken_batch():
    """review s74/03: "I checked the features: no nan or inf anywhere" beside an MSE whose backward returned nan -- the
    targets were never said to be checked, and a nan among them makes the loss nan as surely. Half the check, so half
    the weight it has against WR-310 when the targets are checked too."""
    from trainwreck.data_checked import inputs_only
    from conftest import context_of
    inputs = FELL_THEN_NAN + "I checked the features: no nan or inf anywhere."
    assert weighed_parts(inputs, "WR-310")["data-finite"] == -0.5
    assert "the targets were not said to be checked" in context_of(inputs).printed["data-finite"]
    both = inputs + " I also checked the targets: no nan."          # (a second check, of the targets)
    assert weighed_parts(both, "WR-310")["data-finite"] == -1.0
    assert "the targets were not said to be checked" not in context_of(both).printed["data-finite"]
    assert inputs_only("np.isfinite(X).all() is True") and inputs_only("the images contain no nan")
    assert not inputs_only("no nan or inf in x or y") and not inputs_only("no nan in the dataset")
    assert not inputs_only("the inputs and the labels have no nans")
    assert not inputs_only("The images and masks contain no nan.")       # a segmentation's targets
    # (a check of the targets only planned was not done: the inputs' is still the only one)
    assert inputs_only("The images have no nan. I should check that the labels have no nan too.")
    assert inputs_only("I checked the images: no nan. I should check whether the labels have no nan too.")


def test_a_padding_mask_is_the_masked_rows_construct_even_where_no_sequence_is_said_empty():
    text = ("Loss becomes nan after a few hundred steps\n\nSession model: each user's last clicks, padded with 0 to 30, "
            "go through nn.TransformerEncoder with src_key_padding_mask=(clicks == 0). The loss is fine (0.69 to "
            "0.41), then nan from step 612 on. The click features are finite (checked with torch.isfinite).")
    d = diagnosis(text)
    assert d.matches[0].entry.id == "WR-070"
    assert any("does not show that every sequence holds a token" in e for e in d.matches[0].evidence)
