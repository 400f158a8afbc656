"""Weights set to one value by a loop over every parameter of a model, read beside a network said in words, and the
curve such a network makes: only the output's bias learns, so the loss falls to the base rate's loss and stops."""
from conftest import diagnosis, weighed_parts
from trainwreck.frozen_said import one_output_untrained
from trainwreck.weight_init import network_of_layers, parameters_zeroed_in_loop

LOOP = ("def init_weights(m):\n    for name, param in m.named_parameters():\n"
        "        nn.init.constant_(param.data, 0)\n\nmodel.apply(init_weights)\n")


def test_a_loop_that_sets_each_parameters_tensor_to_one_value_is_read():
    """`param.data` is the parameter's own tensor: setting it is setting the parameter."""
    assert parameters_zeroed_in_loop(LOOP).group(0) == "nn.init.constant_(param.data, 0)"
    assert parameters_zeroed_in_loop(LOOP.replace("constant_(param.data, 0)", "zeros_(param.data)")) is not None
    # (not another tensor's data, nor a parameter the loop picks)
    assert parameters_zeroed_in_loop(LOOP.replace("param.data, 0", "other.data, 0")) is None
    picked = LOOP.replace("        nn.init", "        if 'bias' in name:\n            nn.init")
    assert parameters_zeroed_in_loop(picked) is None


def test_a_network_said_in_words_is_a_network_of_layers():
    """A model of one layer trains from zeros; a depth of two or more, or a recurrent network, said in words, is one
    whose units start as copies."""
    assert network_of_layers("an LSTM encoder-decoder, hidden 512, 2 layers")
    assert network_of_layers("my GRU tagger")
    assert network_of_layers("self.a = nn.Linear(4, 8)\nself.b = nn.Linear(8, 1)\n")
    assert not network_of_layers("a logistic regression on 20 features, 1 layers deep")
    assert not network_of_layers("self.a = nn.Linear(4, 1)\n")
    # (code_review_s74 11: lower case, a hyphenated depth, and a recurrent net denied)
    assert network_of_layers("my lstm tagger") and network_of_layers("a 2-layer MLP")
    assert not network_of_layers("not an RNN, just a linear classifier")
    # (reread_s74 9: denials read by denied_before, an alternative, and the depth as an adjective)
    for one in ("I do not use an LSTM, just a linear layer", "instead of an LSTM I use a single linear layer"):
        assert not network_of_layers(one), one
    assert network_of_layers("2 layer MLP") and network_of_layers("a 2-layered perceptron")


CURVE = "".join(f"Epoch: {i:02d}\n\tTrain Loss: {v:.3f}\n" for i, v in
                enumerate((6.105, 5.402, 5.361, 5.352, 5.349, 5.348, 5.348, 5.347, 5.347, 5.347, 5.346, 5.346), 1))
REPORT = ("My GRU language model has 2 layers of 256 units, and it predicts the same next word for every prompt.\n\n"
          "```python\n" + LOOP + "```\n\n" + CURVE)


def test_weights_set_to_one_value_make_a_fall_that_stops_their_own_face():
    """With every weight at 0 and an activation that is 0 at 0 (a GRU's state here) no gradient reaches any weight,
    only the output's bias learns: the loss falls to the
    loss of the base rate and stops -- the stall after a drop is the zero initialisation's face, so its entry comes
    first, not the dead ReLUs' (the stall's own entry)."""
    d = diagnosis(REPORT)
    assert d.matches[0].entry.id == "WR-110"
    parts = d.matches[0].parts
    assert parts["zero-init"] > 0 and parts["curve"] > 0
    assert weighed_parts(REPORT, "WR-140").get("zero-init") is None
    # (a constant other than 0 leaves every unit learning, alike: the symmetry is still read, the face is not --
    # code_review_s74 12)
    constant = REPORT.replace("constant_(param.data, 0)", "constant_(param.data, 0.05)")
    assert weighed_parts(constant, "WR-110")["zero-init"] > 0 and weighed_parts(constant, "WR-110").get("curve", 0) <= 0
    # (the same loop in a paste that names no network of layers is no such fact: a linear model trains from zeros)
    linear = REPORT.replace("My GRU language model has 2 layers of 256 units", "My softmax regression")
    assert "zero-init" not in weighed_parts(linear, "WR-110")


def test_one_output_said_with_the_input_named_first():
    """"No matter what sentence I give it, it outputs the same sentence" and "it maps every image to the same class"
    say one output for every input; a setting varied, or a shape, says nothing of the outputs."""
    assert one_output_untrained("No matter what review I feed it, it predicts the exact same rating.")
    assert one_output_untrained("Honestly it maps every image to the same class.")
    assert one_output_untrained("The decoder translates every sentence into the same output.")
    assert not one_output_untrained("No matter what learning rate I use, it gives the same loss.")
    assert not one_output_untrained("I convert every image to the same size first.")
    assert not one_output_untrained("No matter what image I give it, it returns the same output shape.")
    # (code_review_s74 5: a setting given, not an input; the same loss, accuracy or curve; a transform's subject)
    for other in ("No matter what lr I pass it, it returns the same loss.",
                  "No matter what batch size I feed it, it produces the same accuracy.",
                  "No matter which optimizer we give it, it produces the same curve.",
                  "The resize transform converts every image to the same 224x224 square.",
                  "My augmentation turns every image into the same grey square by mistake.",
                  # (reread_s74 5: a setting whose output is an output noun, and a space the outputs share)
                  "No matter which scheduler I give it, it outputs the same predictions.",
                  "The encoder maps every input to the same embedding space as the text encoder, as CLIP does."):
        assert not one_output_untrained(other), other


def test_a_log_cut_short_is_flat_when_its_own_epoch_numbers_say_it_stopped_moving():
    """Three values within 10% of each other (PLATEAU_FALL) at epochs 8, 39 and 40 stand for 32 epochs of a loss that did not move: a
    flat tail, though the log shows fewer values than the tail needs. Two values, or epochs side by side, do not."""
    from trainwreck.curve_shape import flat_tail
    from trainwreck.logscan import scan
    from trainwreck.diagnose import message_finder
    from conftest import real_catalog
    import io

    def log(pairs):
        return "".join(f"Epoch {e}/40\n100/100 [==============================] - 1s 5ms/step - loss: {v}\n"
                       for e, v in pairs)

    def tail(text):
        return flat_tail(scan(io.BytesIO(text.encode()), "log", message_finder(real_catalog())))
    early = [(1, 90.3), (2, 7.71), (3, 4.02), (4, 2.61), (5, 1.98), (6, 1.71), (7, 1.52), (8, 1.4402)]
    assert tail(log(early + [(39, 1.4194), (40, 1.4193)]))
    assert not tail(log(early + [(9, 1.4194), (10, 1.4193)]))          # three epochs side by side
    assert not tail(log(early[:-2] + [(39, 1.4194), (40, 1.4193)]))    # 1.71 is 20% above: two values are all
    # (beside words that the model gives one output for every input, the cut log is a run gone wrong)
    words = "After a few epochs it outputs basically the same distribution for every input.\n"
    assert diagnosis(words + log(early + [(39, 1.4194), (40, 1.4193)])).verdict != "healthy"
