"""A GAN's losses named by the family's members and printed by CycleGAN's and pix2pix's repository; the failures the
GAN's answer names, said or printed (a discriminator that won, a generator that makes only noise), which take that
answer away; and Keras's image_dataset_from_directory, whose pixels come out from 0 to 255."""
import math

import pytest

from conftest import context_of, diagnosis
from trainwreck.data_values import keras_directory_unscaled
from trainwreck.normals import gan_failure_said, normals_asked

GAME = "a GAN's losses, which do not fall"

# the official CycleGAN repository's print, at batch size 1: each loss a single image's, all over the place
CYCLEGAN = ("CycleGAN on apple2orange with the repo's defaults, batch size 1. The losses swing by 10x between prints and "
            "the plot is one noisy band since epoch 15. Is something diverging?\n" + "".join(
                f"(epoch: 31, iters: {100 * k}, time: 0.231, data: 0.002) D_A: {d} G_A: {g} cycle_A: 0.81 idt_A: 0.37 "
                f"D_B: 0.22 G_B: 0.41 cycle_B: 0.93 idt_B: 0.40 \n"
                for k, (d, g) in enumerate((("0.188", "0.402"), ("0.027", "0.913"), ("0.377", "0.118"),
                                            ("0.141", "0.566"), ("0.095", "0.689")), 1)))


def names(text: str) -> list[str]:
    return [n.name for n in normals_asked(text)]


@pytest.mark.parametrize("text", [
    "my CycleGAN losses jump around, is that normal?",
    "StyleGAN2 loss never goes down",
    "the WGAN-GP losses oscillate",
    "DCGAN losses look stuck",
    ") D_A: 0.214 G_A: 0.331 cycle_A: 0.905",
    "G_GAN: 1.02 G_L1: 9.83 D_real: 0.41 D_fake: 0.38",
])
def test_a_gan_is_known_by_its_familys_names_and_by_what_cyclegans_repository_prints(text):
    assert GAME in names(text)


@pytest.mark.parametrize("text", ["the organ loss is stuck", "my slogan loss", "d_a is 3"])
def test_a_word_that_ends_in_gan_or_a_bare_key_is_no_gan(text):
    assert GAME not in names(text)


def test_a_cyclegan_log_at_batch_size_one_is_answered_as_the_games_noise():
    d = diagnosis(CYCLEGAN)
    assert (d.verdict, d.matches) == ("normal", [])
    assert d.normal[0].name == GAME


@pytest.mark.parametrize("text, said", [
    ("d_loss goes to ~0 in the first epoch", "d_loss goes to ~0"),
    ("the discriminator loss drops to 0 almost at once", "discriminator loss drops to 0"),
    ("1250/1250 - 51s - d_loss: 1.2431e-04 - g_loss: 12.4408\n1250/1250 - 51s - d_loss: 8.8102e-08 - g_loss: 20.3396",
     "d_loss: 8.8102e-08"),
    ("d_loss: 0.0004 g_loss: 10.9530\nd_loss: 0.0001 g_loss: 12.0744", "d_loss: 0.0001"),
    ("At first the samples looked like faces, but now the generator only produces noise.", "generator only produces noise"),
    ("Initially it trained fine, but after epoch 20 the generator only produces noise.", "generator only produces noise"),
    ("[3/25][0/219]\tLoss_D: 0.0007\tLoss_G: 8.92\n[3/25][50/219]\tLoss_D: 0.0004\tLoss_G: 9.61", "Loss_D: 0.0004"),
    ("the discriminator loss goes to zero after 2 epochs", "discriminator loss goes to zero"),
    ("I switched from WGAN-GP to the standard BCE loss, and now d_loss goes to ~0", "d_loss goes to ~0"),
    ("the generator only produces noise", "generator only produces noise"),
    ("the images are still colored noise after 4 epochs", "images are still colored noise"),
    # (not a discriminator still in the game, a denial, or a Wasserstein critic, whose loss near 0 is no win)
    ("- d_loss: 0.0148\n- d_loss: 0.6931", ""),
    # (one low print is one batch; a code line's accumulator is no print; a counter after "at" is a place; noise said
    # of the first epoch, as expected, is no sample broken)
    ("- d_loss: 0.3104\n- d_loss: 0.0001", ""),
    ("- d_loss: 0.3104\n- d_loss: 0.2981\n    d_loss = 0.0", ""),
    ("The D loss at epoch 0 was 1.39 and it settles near 1.2", ""),
    ("In the first epoch the generator only produces noise, as expected; by epoch 6 the faces look good", ""),
    ("In epoch 1 the generator outputs noise, by epoch 10 it makes digits", ""),
    ("The d_loss stays far from zero and oscillates around 0.6", ""),
    ("I train a WGAN-GP with the standard DCGAN architecture. d_loss goes to ~0 after a few epochs", ""),
    ("the discriminator loss never goes to 0", ""),
    ("WGAN-GP, the critic's d_loss: 0.0002", ""),
])
def test_the_failures_the_games_answer_names_are_read_said_or_printed(text, said):
    assert gan_failure_said(text) == said


def test_a_discriminator_that_won_takes_the_games_answer_away_and_a_dataset_of_raw_pixels_is_the_candidate():
    """d_loss falls to 8.8e-08 while g_loss climbs, and the generator makes noise: the discriminator won -- the
    failure the game's answer names, not the game. The images come from image_dataset_from_directory, which gives
    floats from 0 to 255 (its reader decodes and resizes and scales nothing), beside a generator that ends in tanh:
    the raw pixels are the candidate. With a Rescaling layer, or with the images loaded for validation alone, not."""
    report = ("Keras DCGAN on 64x64 faces: d_loss goes to ~0 in the first epoch and the generator only produces "
              "noise.\n```python\ndataset = keras.utils.image_dataset_from_directory(\"faces\", label_mode=None, "
              "image_size=(64, 64), batch_size=32)\n```\ngenerator ends with\n```python\n"
              "    layers.Conv2D(3, kernel_size=5, padding=\"same\", activation=\"tanh\"),\n```\n" + "".join(
                  f"Epoch {e}/50\n1250/1250 [==============================] - 51s 41ms/step - d_loss: {d} - g_loss: {g}\n"
                  for e, (d, g) in enumerate((("0.0211", "7.5118"), ("2.1307e-04", "11.9025"),
                                              ("4.0066e-06", "16.2247"), ("9.1932e-08", "19.8731")), 1)))
    d = diagnosis(report)
    assert d.verdict == "uncertain" and [m.entry.id for m in d.matches][:1] == ["WR-330"]
    assert GAME not in [n.name for n in d.normal]
    assert keras_directory_unscaled(report)
    for other in (report.replace("batch_size=32)", "batch_size=32)\ndataset = dataset.map(lambda x: layers.Rescaling("
                                 "1/127.5, offset=-1)(x))"),
                  report.replace("dataset = keras", "val_ds = keras")):
        assert not keras_directory_unscaled(other)
        assert "raw-pixels" not in context_of(other).printed
        assert "WR-330" not in [m.entry.id for m in diagnosis(other).matches][:1]
    assert "image_dataset_from_directory" in context_of(report).printed["raw-pixels"]


def dcgan_lines(rows) -> str:
    """Lines as PyTorch's DCGAN example prints them (tabs, as its tutorial does)."""
    return "".join(f"[{e}/25][{i}/219]\tLoss_D: {d}\tLoss_G: {g}\tD(x): {x}\tD(G(z)): {z1} / {z2}\n"
                   for e, i, d, g, x, z1, z2 in rows)


# a discriminator that ends in a sigmoid, its probabilities handed to BCEWithLogitsLoss: Loss_G stays between
# log(1 + e^-D(G(z))) and ln 2 however sure the discriminator is
TWICE = [(0, 0, "1.4421", "0.4765", "0.5032", "0.4963", "0.4941"), (0, 50, "1.1490", "0.6135", "0.8096", "0.1772", "0.1671"),
         (0, 100, "1.0597", "0.6652", "0.9288", "0.0641", "0.0574"), (1, 0, "1.0199", "0.6861", "0.9820", "0.0149", "0.0144"),
         (4, 100, "1.0147", "0.6887", "0.9911", "0.0095", "0.0092")]


def test_a_generators_loss_no_bce_of_the_printed_outputs_can_give_is_a_sigmoid_handed_to_a_loss_that_applies_its_own():
    """Loss_G 0.6887 beside D(G(z)) 0.0092: a BCE of those outputs against the real label is at least -log 0.0092 =
    4.69 (Jensen), and log(1 + e^-0.0092) = 0.6886 is what BCEWithLogitsLoss gives a probability of 0.0092 (the mean
    of it over the batch a little more, Jensen again). On every
    line whose D(G(z)) is 0.15 or less the loss sits in that window: WR-130 first, and not the game's answer. The same
    lines with a BCE's own values are no such fact; nor are two lines alone; nor lines that print a logit (a D(x) below
    0: BCEWithLogitsLoss on logits is right), nor an LSGAN's MSELoss, whose (1 - z)^2 lands below ln 2 too."""
    from trainwreck.loss_inputs import sigmoid_twice_printed

    report = ("DCGAN from the tutorial on flowers, criterion nn.BCEWithLogitsLoss instead of nn.BCELoss. The samples are "
              "brown blobs and Loss_G never gets above 0.7. Is that normal for a GAN?\n" + dcgan_lines(TWICE))
    fact = sigmoid_twice_printed(report)
    assert "print Loss_G 0.6887 beside D(G(z)) 0.0092" in fact and "-log 0.0092 = 4.69" in fact
    assert "on all 3 lines whose D(G(z)) is 0.15 or less" in fact and "(0.6886 here)" in fact
    d = diagnosis(report)
    assert d.matches[0].entry.id == "WR-130" and d.verdict in ("failure", "uncertain")
    assert d.verdict != "normal"
    assert d.matches[0].parts["sigmoid-twice-printed"] > 0
    # a BCE of the same outputs: Loss_G at -log D(G(z)) or above
    honest = [(e, i, dd, f"{-math.log(float(z2)) + 0.05:.4f}", x, z1, z2) for e, i, dd, g, x, z1, z2 in TWICE]
    assert sigmoid_twice_printed(dcgan_lines(honest)) == ""
    assert sigmoid_twice_printed(dcgan_lines(TWICE[-2:])) == ""
    # (the lines whose D(G(z)) is above 0.15 tell nothing apart, and are not counted either way)
    assert sigmoid_twice_printed(dcgan_lines(TWICE[:2] * 5)) == ""
    logits = TWICE[:-1] + [(4, 100, "1.3862", "0.6912", "-0.0532", "-0.0210", "0.0092")]
    assert sigmoid_twice_printed(dcgan_lines(logits)) == ""
    assert sigmoid_twice_printed("LSGAN with nn.MSELoss on the tutorial's discriminator\n" + dcgan_lines(TWICE)) == ""
    # (a discriminator near its balance prints small means on both sides; the failure's saturates, D(x) near 1)
    balanced = [(e, i, d, g, "0.2214", z1, z) for e, i, d, g, x, z1, z in TWICE]
    assert sigmoid_twice_printed(dcgan_lines(balanced)) == ""


def test_a_loss_class_named_in_a_sentence_is_no_key_and_the_log_below_it_is_read():
    """"nn.BCEWithLogitsLoss instead of nn.BCELoss" names two loss classes, not keys the log prints: the DCGAN lines
    below the sentence are read, by a key the log prints values after."""
    from trainwreck.logscan import scan_text

    ev = scan_text("The criterion is nn.BCEWithLogitsLoss instead of nn.BCELoss, and Loss_D never goes below 1.0.\n"
                   + dcgan_lines(TWICE))
    assert ev.count == 5 and ev.loss_named == ("Loss_D", "own") and ev.head[0] == 1.4421


def test_a_loss_that_reaches_bcelosss_clamp_again_and_again_is_no_swing():
    """PyTorch's BCELoss clamps each log at -100, so a mean of exactly 100.0000 is a batch every one of whose examples
    got a probability of 0 for its label: an inf, printed as the clamp. A discriminator's loss that reaches it three
    times between its swings is the rate's face, not a batch-to-batch swing; reached once, it is not read so."""
    rows = [(0, 0, "1.6213", "9.8312", "0.5437", "0.5912", "0.0001"), (0, 50, "0.0008", "47.3109", "0.9993", "0.0000", "0.0000"),
            (0, 100, "38.1442", "0.0000", "0.0000", "0.9715", "1.0000"), (0, 150, "2.0917", "14.5522", "0.6120", "0.4203", "0.0000"),
            (0, 200, "0.0000", "63.9110", "1.0000", "0.0000", "0.0000"), (0, 250, "12.8803", "0.9841", "0.0153", "0.0008", "0.4137"),
            (1, 0, "100.0000", "0.0000", "1.0000", "1.0000", "1.0000"), (1, 50, "100.0000", "0.0000", "1.0000", "1.0000", "1.0000"),
            (1, 100, "0.0000", "100.0000", "1.0000", "0.0000", "0.0000"), (1, 150, "100.0000", "0.0000", "1.0000", "1.0000", "1.0000")]
    report = "DCGAN with nn.BCELoss, Adam lr 0.005: D and G keep swapping who wins.\n" + dcgan_lines(rows)
    d = diagnosis(report)
    fact = " ".join(d.signature.facts)
    assert "the loss reached 100, the most PyTorch's BCELoss can print, at 3 of its 10 values" in fact
    assert d.matches[0].entry.id == "WR-220"
    once = dcgan_lines(rows[:7] + [(1, 50, "0.5000", "2.0000", "0.7", "0.3", "0.3")] * 3)
    assert "reached 100" not in " ".join(diagnosis("DCGAN with nn.BCELoss.\n" + once).signature.facts)


def test_a_cyclegan_log_beside_a_models_own_optimize_parameters_is_no_trainer_that_clears_the_gradients():
    """The repository's models each write their own optimize_parameters: pasted, it is a step written by hand, which
    can leave gradients to pile up, and the log's format says nothing against that."""
    from trainwreck.gradient_clearing import trainer_clears
    from trainwreck.logscan import scan_text

    log = "".join(f"(epoch: 1, iters: {100 * k}, time: 0.047, data: 0.002) G_GAN: 1.1 G_L1: {30 - k:.3f} D_real: 0.6 "
                  f"D_fake: 0.5 \n" for k in range(1, 6))
    assert trainer_clears(scan_text(log)).startswith("the log is printed by pytorch-CycleGAN-and-pix2pix")
    own = ("    def optimize_parameters(self):\n        self.forward()\n        self.backward_D()\n"
           "        self.optimizer_D.step()\n")
    assert trainer_clears(scan_text(own + log)) == ""

