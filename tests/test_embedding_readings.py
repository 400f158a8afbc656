"""Reports from sentence-embedding training (sentence-transformers): what their pastes show, read as evidence."""
from conftest import diagnosis


def test_a_label_a_cosine_cannot_reach_is_a_target_left_in_its_units():
    """CosineSimilarityLoss regresses cos(u, v), in [-1, 1], onto the label: STS-B's raw 0-5 scores printed as labels
    are out of its reach (its STS example scales them to [0, 1] first). Not a label of 1 or below, nor another loss."""
    from trainwreck.input_scaling import cosine_targets_out_of_reach

    code = ("train_loss = losses.CosineSimilarityLoss(model)\nprint(train_examples[0])\n"
            "# <InputExample> label: 5.0, texts: A plane is taking off.; An air plane is taking off.\n"
            "After four epochs every pair has a cosine near 0.98 and the Spearman on dev got worse. Why?")
    assert "a label of 5 is out of its reach" in cosine_targets_out_of_reach(code)
    assert not cosine_targets_out_of_reach(code.replace("label: 5.0", "label: 1.0"))
    assert not cosine_targets_out_of_reach(code.replace("CosineSimilarityLoss", "CoSENTLoss"))
    d = diagnosis(code)
    assert d.matches[0].entry.id == "WR-360" and any("out of its reach" in e for e in d.matches[0].evidence)


def test_a_datasets_row_is_read_and_a_classification_losss_labels_are_not():
    from trainwreck.input_scaling import cosine_targets_out_of_reach

    row = "train_loss = CosineSimilarityLoss(model)\n{'sentence1': 'A plane.', 'sentence2': 'An air plane.', 'score': 5.0}"
    assert "a label of 5 is out of its reach" in cosine_targets_out_of_reach(row)
    nli = ("NLI first with SoftmaxLoss: <InputExample> label: 2, texts: ...\nthen STS with CosineSimilarityLoss, "
           "label: 0.8")
    assert cosine_targets_out_of_reach(nli) == ""
    # (a Spearman score printed is no label, and labels said to be scaled are none out of reach)
    assert cosine_targets_out_of_reach("losses.CosineSimilarityLoss(model). The dev Spearman score: 61.0") == ""
    assert cosine_targets_out_of_reach("CosineSimilarityLoss; I divide the gold scores by 5.\n"
                                       "<InputExample> label: 5.0, texts: a; b") == ""
