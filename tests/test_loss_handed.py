"""What a loss is handed that it does not take, and what that makes of a question whether the run is normal: a CTC
loss handed values that are not log-probabilities, an NLL loss handed a softmax's probabilities (a loss below zero
that is not normal, and not the targets' fault: WR-130, not WR-320), a GAN's discriminator that ends in a sigmoid
before a loss that applies its own."""
import io
import itertools

import numpy as np
import pytest

from conftest import real_catalog, weighed_parts
from trainwreck.diagnose import diagnose
from trainwreck.logscan import scan

CATALOG = real_catalog()

CURVE = "".join(f"epoch {e} loss {v}\n" for e, v in enumerate(("3.412", "1.207", "0.318", "-0.544", "-1.872"), 1))
CTC_PRINTED = "Training a CRNN on plates with nn.CTCLoss(blank=0), and after a few epochs:\n" + CURVE
CTC_SAID = "My CTC loss is negative and keeps going down, and the predictions are garbage."


def diagnosis(text: str):
    return diagnose(scan(io.BytesIO(text.encode()), "report", None), CATALOG)


def ctc_loss(log_probs: np.ndarray, target: tuple[int, ...], blank: int = 0) -> float:
    """CTC's loss by its definition: minus the log of the summed exp of the frames' values over every path that
    collapses to the target (repeats merged, then blanks dropped). Every path of a few frames is enumerated."""
    total = 0.0
    frames, classes = log_probs.shape
    for path in itertools.product(range(classes), repeat=frames):
        merged = [c for i, c in enumerate(path) if i == 0 or c != path[i - 1]]
        if tuple(c for c in merged if c != blank) == target:
            total += np.exp(log_probs[np.arange(frames), path].sum())
    return -np.log(total)


def test_ctc_is_at_or_above_zero_on_log_probabilities_and_below_it_on_anything_else():
    """The mechanism the reading states: the summed probability of some of the paths is at most 1 when each frame's
    values are log-probabilities; handed raw logits or probabilities, the exps can sum past 1."""
    rng = np.random.default_rng(0)
    logits = rng.normal(0, 3, size=(5, 3))
    log_probs = logits - np.log(np.exp(logits).sum(axis=1, keepdims=True))
    probs = np.exp(log_probs)
    assert ctc_loss(log_probs, (1, 2)) > 0
    assert ctc_loss(probs, (1, 2)) < 0          # every frame's exps sum past 1: e^p > 1 for each p in (0, 1)
    assert ctc_loss(logits + 3, (1, 2)) < 0


@pytest.mark.parametrize("text", [CTC_PRINTED, CTC_SAID, CTC_SAID + " Is that normal?"])
def test_a_ctc_loss_below_zero_is_the_loss_handed_what_it_does_not_take(text):
    d = diagnosis(text)
    assert d.verdict != "normal" and d.matches[0].entry.id == "WR-130"
    evidence = d.matches[0].evidence[0]
    assert "beside a CTC loss" in evidence and "never below zero when it is handed log-probabilities" in evidence
    # (its targets are no suspect of it: WR-320 gets nothing for the loss below zero)
    assert "negative" not in weighed_parts(text, "WR-320")


def test_the_lowest_value_is_quoted_and_a_ctc_loss_at_or_above_zero_is_not_read():
    assert "goes below zero, to -1.872, beside a CTC loss (`nn.CTCLoss`)" in diagnosis(CTC_PRINTED).matches[0].evidence[0]
    above = CTC_PRINTED.replace("-0.544", "0.144").replace("-1.872", "0.072")
    assert "ctc-not-log-probabilities" not in weighed_parts(above, "WR-130")
    # (nor a loss below zero where no CTC loss is named)
    assert "ctc-not-log-probabilities" not in weighed_parts(CTC_PRINTED.replace("nn.CTCLoss(blank=0)", "my loss"),
                                                            "WR-130")
    # (nor one said never to go below zero, nor beside the log_softmax that makes the frames log-probabilities, nor
    # Keras's ctc_batch_cost, whose TensorFlow ctc_loss applies its own softmax: a negative total there is a term added)
    for kept in ("My nn.CTCLoss is stuck at 0.81 and never goes negative.",
                 CTC_PRINTED.replace("nn.CTCLoss(blank=0)", "nn.CTCLoss(blank=0) after F.log_softmax(logits, 2)"),
                 CTC_PRINTED.replace("nn.CTCLoss(blank=0)", "keras.backend.ctc_batch_cost plus a length penalty")):
        assert "ctc-not-log-probabilities" not in weighed_parts(kept, "WR-130"), kept
    # (PyTorch's CTC by its own name, whatever else the paste names: a port from Keras, TensorFlow's startup line; a
    # log_softmax over another axis than the classes' leaves the frames no log-probabilities)
    for shown in (CTC_PRINTED.replace("Training a CRNN", "I ported the Keras OCR example to PyTorch: training a CRNN"),
                  CTC_PRINTED.replace("nn.CTCLoss(blank=0)", "nn.CTCLoss(blank=0) after F.log_softmax(out, dim=1)")):
        assert "ctc-not-log-probabilities" in weighed_parts(shown, "WR-130"), shown
    # (and a CTC loss said never to go below zero is not answered as a negative loss)
    never = diagnosis("My nn.CTCLoss is stuck at 0.81 and never goes negative, is that normal?")
    assert not (never.verdict == "normal" and never.normal[0].name == "negative loss")


def test_the_first_step_of_the_fix_is_the_log_softmax_these_losses_take():
    """WR-130's first step, hand the loss the logits, is the wrong one for a loss that takes log-probabilities: the CTC
    and the NLL loss get a log_softmax."""
    assert diagnosis(CTC_PRINTED).matches[0].fix.startswith("Put a log_softmax over the classes between the model's "
                                                            "output and the CTC loss")
    model = ("class Net(nn.Module):\n    def forward(self, x):\n        return F.softmax(self.fc(x), dim=1)\n"
             "criterion = nn.NLLLoss()\n")
    rows = "".join(f"epoch {e} loss {v}\n" for e, v in enumerate(("-0.112", "-0.254", "-0.431", "-0.602"), 1))
    assert "which is what nn.NLLLoss takes" in diagnosis(model + rows).matches[0].fix


def test_an_nll_loss_handed_probabilities_is_not_answered_as_normal_when_asked():
    """The NLL loss's face of the same reading was weighed, but a question about the negative loss was still answered
    "looks normal" beside it."""
    model = ("class Net(nn.Module):\n    def forward(self, x):\n        return F.softmax(self.fc(x), dim=1)\n"
             "criterion = nn.NLLLoss()\n")
    rows = "".join(f"epoch {e} loss {v}\n" for e, v in enumerate(("-0.112", "-0.254", "-0.431", "-0.602"), 1))
    d = diagnosis("My loss is negative, is that normal?\n" + model + rows)
    assert d.verdict != "normal" and d.matches[0].entry.id == "WR-130"


def test_a_gan_discriminator_ending_in_a_sigmoid_before_a_vanilla_gan_loss_is_not_answered_normal():
    """BasicSR's GANLoss builds nn.BCEWithLogitsLoss for `gan_type: vanilla`; a discriminator that ends in nn.Sigmoid()
    hands it probabilities as logits. A question whether the GAN's losses are normal is then not answered "looks
    normal": the pairing is a bug no normal run has. The same discriminator with an LSGAN loss is no such pairing."""
    head = ("gan_opt:\n  type: GANLoss\n  gan_type: vanilla\n  loss_weight: !!float 5e-3\n"
            "self.classifier = nn.Sequential(\n    nn.Linear(8192, 100), nn.LeakyReLU(0.2, True),\n"
            "    nn.Linear(100, 1), nn.Sigmoid())\n")
    asked = "My SRGAN's discriminator losses never move. Is that normal for a GAN?\n"
    d = diagnosis(asked + head)
    assert d.verdict != "normal" and d.matches[0].entry.id == "WR-130"
    assert any("its loss, `gan_type: vanilla`, applies its own log-sigmoid" in e for e in d.matches[0].evidence)
    assert "pairing" not in weighed_parts(asked + head.replace("vanilla", "lsgan"), "WR-130")
    # (a generator that ends in a sigmoid makes an image in [0, 1]: the GAN's loss is never applied to it)
    generator = ("gan_opt:\n  type: GANLoss\n  gan_type: vanilla\nclass Generator(nn.Module):\n"
                 "    def __init__(self):\n        super().__init__()\n        self.body = nn.Sequential(\n"
                 "            nn.Conv2d(64, 3, 3, padding=1), nn.Sigmoid())\n")
    d = diagnosis(asked + generator)
    assert d.verdict == "normal" and d.normal[0].name == "a GAN's losses, which do not fall"
    assert "pairing" not in weighed_parts(asked + generator, "WR-130")
    # (a seq2seq model's "generator", OpenNMT's output layer, is no GAN's: its softmax before a cross-entropy pairs)
    seq2seq = ("class Generator(nn.Module):\n    def forward(self, x):\n        return F.softmax(self.proj(x), dim=-1)\n"
               "criterion = nn.CrossEntropyLoss(ignore_index=pad)\n")
    assert weighed_parts("My NMT model's loss barely moves.\n" + seq2seq, "WR-130")["pairing"] > 0
    # (nor is a paste a GAN's for a word that ends in "gan", nor for PyTorch's random-number Generator)
    organs = ("Multi-organ segmentation: the loss barely moves.\n"
              "train, val = random_split(ds, [0.9, 0.1], generator=torch.Generator().manual_seed(42))\n"
              "class SegNet(nn.Module):\n    def forward(self, x):\n        return torch.sigmoid(self.unet(x))\n"
              "criterion = nn.BCEWithLogitsLoss()\n")
    assert weighed_parts(organs, "WR-130")["pairing"] > 0
    # (both networks pasted, each ending in a sigmoid: the discriminator's pairs, wherever the generator's is)
    both = ("My GAN's discriminator loss never moves.\nclass Discriminator(nn.Module):\n    def __init__(self):\n"
            "        self.net = nn.Sequential(nn.Linear(784, 256), nn.LeakyReLU(0.2), nn.Linear(256, 1), nn.Sigmoid())\n"
            "class Generator(nn.Module):\n    def __init__(self):\n"
            "        self.net = nn.Sequential(nn.Linear(100, 784), nn.Sigmoid())\ncriterion = nn.BCEWithLogitsLoss()\n")
    assert weighed_parts(both, "WR-130")["pairing"] > 0


def test_a_loss_below_zero_said_is_read_unless_the_saying_denies_it():
    """"It never goes negative" and "not a negative loss" deny it; "I don't know why my loss is negative" says it."""
    from trainwreck.loss_inputs import negative_said

    assert negative_said("I don't know why my loss is negative. And it has a very large absolute value.")
    for denied in ("The loss is stuck at 0.81 and never goes negative.", "It is not a negative loss, it is 0.3."):
        assert negative_said(denied) is None, denied
    # (a negative number something is taken of is no loss below zero: s270/03's "so it can never be a sqrt of a
    # negative number"; the loss's own negative values are)
    for argument in ("I take the abs() so it can never be a sqrt of a negative number", "the log of negative numbers",
                     # (the data's, s268/01)
                     "with it on, the values in the preprocessed .npy files were negative numbers around 0",
                     # (code_review_s72 17)
                     "My regression on standardised targets (they include negative values) plateaus"):
        assert negative_said(argument) is None, argument
    assert negative_said("my loss gives negative values after epoch 3")


def test_a_softmax_set_to_a_name_and_that_name_handed_to_cross_entropy_is_the_pairing():
    """A forward that returns a softmax beside another output (`return prob, depth`) has no single return the model
    reading takes; the name does flow: `prob = torch.softmax(logits, dim=1)`, then `F.cross_entropy(prob, bin_idx)`.
    The loss applies its own log-softmax to probabilities (WR-130). A softmax kept for the depth while the loss gets the
    logits is no pairing. The log's `train_ce` column is the classifier's cross-entropy, read as its loss."""
    from trainwreck.loss_inputs import probabilities_handed

    code = ("    logits = self.head(feat)\n    prob = torch.softmax(logits, dim=1)\n"
            "    depth = (prob * self.bins.view(1, -1, 1, 1)).sum(1, keepdim=True)\n    return prob, depth\n\n"
            "prob, depth = model(img)\nloss = F.cross_entropy(prob, bin_idx, ignore_index=-1)\n")
    log = "".join(f"ep {e:2d}  train_ce {v}  val_abs_rel {a}\n" for e, v, a in (
        (1, "4.1103", "0.284"), (2, "3.8917", "0.201"), (3, "3.6742", "0.163"), (4, "3.5261", "0.142"),
        (6, "3.4019", "0.128"), (8, "3.3417", "0.119"), (12, "3.2960", "0.112"), (16, "3.2811", "0.108")))
    assert probabilities_handed(code).group("name") == "prob"
    d = diagnosis("Depth as 64-bin classification, the CE won't go below 3.3:\n" + code + log)
    assert d.evidence.count == 8 and d.evidence.head[0] == 4.1103
    top = d.matches[0]
    assert top.entry.id == "WR-130" and top.parts["pairing"] > 0
    assert ("the paste sets `prob` to a softmax's or a sigmoid's output (`prob = torch.softmax(logits, dim=1)`) and its "
            "loss, `F.cross_entropy`, applies its own") in " ".join(top.evidence)
    on_logits = code.replace("F.cross_entropy(prob,", "F.cross_entropy(logits,")
    assert probabilities_handed(on_logits) is None
    # a criterion the code sets to a logits loss is one; one set to BCELoss, which takes probabilities, is not -- nor is
    # a logits loss only a sentence names
    bce = ("criterion = nn.BCELoss()\nfor x, y in loader:\n    probs = torch.sigmoid(model(x))\n"
           "    loss = criterion(probs, y)\nShould I switch to nn.BCEWithLogitsLoss for stability?\n")
    assert probabilities_handed(bce) is None
    assert probabilities_handed(bce.replace("nn.BCELoss()", "nn.BCEWithLogitsLoss()")).group("name") == "probs"
    # (a criterion the module keeps, or the class by its whole path)
    kept = ("class Net(nn.Module):\n    def __init__(self):\n        self.criterion = nn.CrossEntropyLoss()\n"
            "    def step(self, x, y):\n        prob = torch.softmax(self.head(x), dim=1)\n"
            "        return self.criterion(prob, y)\n")
    assert probabilities_handed(kept).group("name") == "prob"
    assert probabilities_handed(bce.replace("nn.BCELoss()", "torch.nn.BCEWithLogitsLoss()")).group("name") == "probs"


SEMANTIC_RENDER = ("# in forward(), per sample\nsem_logits = self.semantic_linear(h)\nsem = torch.softmax(sem_logits, dim=-1)\n"
                   "# in raw2outputs\nsem_map = torch.sum(weights[..., None] * sem, -2)    # (N_rays, 20)\n"
                   "crossentropy = nn.CrossEntropyLoss()\nsem_loss = crossentropy(sem_map, sem_gt)\n")


def test_a_sum_or_a_mean_of_a_softmax_s_output_handed_to_cross_entropy_is_still_probabilities():
    """A renderer's weighted sum of per-sample softmax outputs (or an ensemble's mean of them) is a mix of probability
    vectors: handed to CrossEntropyLoss, which applies its own log-softmax, it is the pairing too (WR-130), and the
    evidence shows the line that mixes them. A log of the mix, or a mix never handed to the loss, is not."""
    from trainwreck.loss_inputs import PROBABILITY_NAMED, mixed_from, probabilities_handed

    found = probabilities_handed(SEMANTIC_RENDER)
    assert found.group("name") == "sem" and mixed_from(SEMANTIC_RENDER, found).group("name") == "sem_map"
    d = diagnosis("The semantic loss drops at first, then flattens at 2.08 forever.\n" + SEMANTIC_RENDER)
    top = d.matches[0]
    assert top.entry.id == "WR-130" and top.parts["pairing"] > 0
    assert ("then `sem_map` to a sum or a mean of them (`sem_map = torch.sum(weights[..., None] * sem, -2)`): a mix of "
            "probabilities, not logits, and its loss, `crossentropy`, applies its own log-softmax") in " ".join(top.evidence)
    assert probabilities_handed(SEMANTIC_RENDER.replace("sem_map = torch.sum(", "sem_map = torch.log(torch.sum(")) is None
    assert probabilities_handed(SEMANTIC_RENDER.replace("crossentropy(sem_map,", "crossentropy(sem_logits_map,")) is None
    ensemble = "probs = torch.softmax(model(x), dim=1)\navg = probs.mean(0)\nloss = F.cross_entropy(avg, y)\n"
    assert probabilities_handed(ensemble).group("name") == "probs"
    # (code_review_s76 5: a softmax as the weights of an attention pooling of logits, or over values -- an average of
    # logits is logits -- and the name mixed with itself)
    pooled = ("criterion = nn.CrossEntropyLoss()\nw = torch.softmax(scores, dim=1)\n"
              "pooled = torch.sum(w * token_logits, dim=1)\nloss = criterion(pooled, y)\n")
    attention = ("attn = torch.softmax(q @ k.transpose(-2, -1), dim=-1)\nout = torch.matmul(attn, v).sum(1)\n"
                 "loss = F.cross_entropy(out, y)\n")
    # (final_review_s76 7: the same name mixed with itself hands the loss that name; a softmax reduced along the axis it
    # normalised is weights, whatever the other factor is called -- a MIL pooling of instance scores --, and a name
    # that only starts with "exp" is no exp)
    itself = "probs = torch.softmax(z, 1)\nprobs = probs.mean(0)\nloss = F.cross_entropy(probs, y)\n"
    assert mixed_from(itself, PROBABILITY_NAMED.search(itself)) is None
    mil = ("criterion = nn.CrossEntropyLoss()\na = torch.softmax(attention(h), dim=0)\n"
           "bag_score = torch.sum(a * inst_scores, dim=0, keepdim=True)\nloss = criterion(bag_score, y)\n")
    for other in (pooled, attention, mil):
        assert probabilities_handed(other) is None, other
    experts = "h = torch.softmax(z, dim=1)\nmix = torch.sum(w * expert_out * h, dim=0)\nloss = F.cross_entropy(mix, y)\n"
    assert probabilities_handed(experts).group("name") == "h"

def test_kerass_from_logits_warning_says_the_loss_was_computed_from_the_logits():
    """ux_review_s65 6 (ux_review_s64 10): Keras's "received `from_logits=True`, but the `output` argument was produced by a
    Sigmoid activation" alone named WR-130 and its fix. The TensorFlow backend raises it exactly where it found the logits
    the activation kept, and computes the loss from them (keras/src/backend/tensorflow/nn.py, _get_logits): harmless."""
    warning = ('/usr/local/lib/python3.10/dist-packages/keras/src/backend.py:5727: UserWarning: "`binary_crossentropy` '
               "received `from_logits=True`, but the `output` argument was produced by a Sigmoid activation and thus does "
               'not represent logits. Was this intended?\n  output, from_logits = _get_logits(\n')
    bars = "".join(f"Epoch {i}/5\n625/625 [==============================] - 3s 5ms/step - loss: {v} - accuracy: {a}\n"
                   for i, (v, a) in enumerate((("0.6874", "0.5512"), ("0.6701", "0.6120"), ("0.6633", "0.6301")), 1))
    d = diagnosis(warning + bars)
    assert d.verdict == "normal" and d.normal[0].name.startswith("Keras computed the loss from the logits")
    assert not d.matches


def test_kerass_from_logits_warning_is_no_evidence_for_the_probabilities_entry_beside_a_failure():
    """code_review_s65 5: beside words that the model does not learn, the same warning named WR-130 and its fix on the
    warning alone; the warning shows that the loss was computed from the logits, so it counts for nothing there."""
    warning = ('/usr/local/lib/python3.10/dist-packages/keras/src/backend.py:5727: UserWarning: "`binary_crossentropy` '
               "received `from_logits=True`, but the `output` argument was produced by a Sigmoid activation and thus does "
               'not represent logits. Was this intended?\n  output, from_logits = _get_logits(\n')
    d = diagnosis("My model does not learn at all, loss stuck. I get this warning:\n" + warning)
    assert d.verdict != "failure"
    probabilities = next(m for m in d.matches if m.entry.id == "WR-130")
    assert "messages" not in probabilities.parts
    assert any(a.startswith("Keras's warning that the output does not represent logits") for a in probabilities.against)


KERAS3_AT_CHANCE = "CIFAR-10, small CNN, accuracy won't move off 10%:\n" + "".join(
    f"Epoch {e}/15\n782/782 ━━━━━━━━━━━━━━━━━━━━ 12s 15ms/step - accuracy: {acc} - loss: {loss} - val_accuracy: 0.1000 - "
    f"val_loss: 2.3026\n" for e, (acc, loss) in enumerate(
        (("0.0998", "2.3028"), ("0.1003", "2.3026"), ("0.0994", "2.3026"), ("0.0987", "2.3026"), ("0.1006", "2.3026"),
         ("0.0995", "2.3026"), ("0.1002", "2.3026"), ("0.0999", "2.3026"), ("0.1001", "2.3026"), ("0.0997", "2.3026"),
         ("0.1000", "2.3026"), ("0.1004", "2.3026")), 1))


def test_a_flat_loss_beside_an_accuracy_that_never_moved_is_not_probabilities_handed_to_the_loss():
    """WR-130's face is a model that learns while its loss cannot show it: the accuracy rises on a flat loss (its page:
    a softmax taken twice leaves ten classes' loss between 1.46 and 2.46, and the model still learns inside that band).
    A loss pinned at ln 10 beside an accuracy pinned at chance is a network that learns nothing: the flat curve counts
    for the entries of that (zeros, raw inputs), not for WR-130, which says why. With the accuracy rising on the same
    flat loss, the curve is WR-130's again."""
    parts = weighed_parts(KERAS3_AT_CHANCE, "WR-130")
    assert parts.get("curve", 0) == 0
    d = diagnosis(KERAS3_AT_CHANCE)
    assert "WR-130" not in [m.entry.id for m in d.matches] and d.matches[0].entry.id in ("WR-110", "WR-330")
    assert weighed_parts(KERAS3_AT_CHANCE, "WR-110")["curve"] > 0
    rising = KERAS3_AT_CHANCE.replace("- accuracy: 0.1004", "- accuracy: 0.6004").replace("- accuracy: 0.1000 -",
                                                                                           "- accuracy: 0.5900 -")
    assert weighed_parts(rising, "WR-130")["curve"] > 0
    # (nor an accuracy that stayed high from the first print: a model that learnt in its first epoch, which a softmax
    # taken twice allows -- WR-130's own face on MNIST)
    high = "".join(f"Epoch {e}/12\n469/469 [====] - 3s 6ms/step - loss: {v} - accuracy: {a}\n" for e, (v, a) in enumerate(
        zip(("1.5412", "1.5203", "1.5118", "1.5064", "1.5027", "1.5001", "1.4980", "1.4963", "1.4950", "1.4939", "1.4930"),
            ("0.9403", "0.9511", "0.9574", "0.9610", "0.9633", "0.9651", "0.9668", "0.9679", "0.9688", "0.9695", "0.9701")), 1))
    assert weighed_parts("model ends with nn.Softmax(dim=1), loss nn.CrossEntropyLoss\n" + high, "WR-130").get("curve", 0) > 0


@pytest.mark.parametrize("said", ["I use nn.BCEWithLogitsLoss on the output of a sigmoid",
                                  "the loss is nn.CrossEntropyLoss on the softmax outputs",
                                  "nn.CrossEntropyLoss on softmax probabilities"])
def test_a_loss_that_applies_its_own_said_to_be_computed_on_probabilities_is_the_pairing(said):
    """"BCEWithLogitsLoss on the output of a sigmoid" says WR-130's pairing word for word: the loss named applies its
    own log-sigmoid (or log-softmax) to what it is handed. Not where the words say it is handed the logits."""
    report = "My BCE loss is negative?? -3.2 after a few epochs. labels are 0 and 1, " + said
    assert weighed_parts(report, "WR-130").get("pairing", 0) > 0
    assert "WR-130" in [m.entry.id for m in diagnosis(report).matches]
    assert weighed_parts(report.replace(said, "I use nn.BCEWithLogitsLoss on the raw logits"), "WR-130").get(
        "pairing", 0) == 0
    # (a metric or a threshold on the probabilities is no loss handed them)
    for metric in ("I threshold at 0.5 on the sigmoid outputs", "accuracy is computed on the softmax outputs"):
        assert weighed_parts("I use nn.BCEWithLogitsLoss. " + metric, "WR-130").get("pairing", 0) == 0


KERAS_WARNED = (
    "model.add(Dense(10, activation='softmax'))\n"
    "model.compile(loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True), optimizer='adam', "
    "metrics=['accuracy'])\n"
    "UserWarning: \"`sparse_categorical_crossentropy` received `from_logits=True`, but the `output` argument was "
    "produced by a Softmax activation and thus does not represent logits. Was this intended?\n"
    "Epoch 1/5\n1875/1875 - loss: 1.6521 - accuracy: 0.8102\nEpoch 2/5\n1875/1875 - loss: 1.5620 - accuracy: 0.9011\n")


def test_keras_warning_printed_shows_the_tensorflow_backend_that_repaired_the_pairing():
    """A pasted softmax model told from_logits=True, with no backend named, is probabilities handed over as logits
    on JAX or PyTorch; but the warning printed beside it is raised only by the TensorFlow backend (in its
    `_get_logits`, where it found the logits the softmax kept and used them): the pairing was repaired there, and the
    answer is the normal one (ux_review_s66: WR-130 came first, its own "against" saying "that loss was right")."""
    assert "pairing" not in weighed_parts(KERAS_WARNED, "WR-130")
    d = diagnosis(KERAS_WARNED)
    assert d.verdict == "normal" and d.normal[0].name == "Keras computed the loss from the logits its softmax or sigmoid kept"
    # (without the warning, the backend unknown: the pairing counts)
    assert weighed_parts(KERAS_WARNED.replace(KERAS_WARNED.split("\n")[2] + "\n", ""), "WR-130")["pairing"] > 0
