"""Pastes that say or print that the run went wrong get no all-clear (ux_review_s65 4): a training accuracy that fell
and stayed down, the reporter's own note that the pixels were never divided by 255, a GAN whose discriminator won, a
run that hangs after a bar printed its loss. Each of these was answered "No known failure found"."""
import pytest

from conftest import diagnosis
from trainwreck.curve_shape import accuracy_fell
from trainwreck.input_scaling import scaled_said
from trainwreck.logscan import scan_text

KERAS = "".join(f"Epoch {e}/10\n1875/1875 [==============================] - 4s 2ms/step - loss: {loss} - accuracy: {acc}\n"
                for e, (loss, acc) in enumerate((("37.6532", "0.3411"), ("2.1187", "0.2512"), ("2.0514", "0.2370"),
                                                 ("2.0311", "0.2290"), ("2.0307", "0.2301")), 1))


def keras_log(rows) -> str:
    return "".join(f"Epoch {e}/10\n1875/1875 [==============================] - 4s 2ms/step - loss: {loss} - "
                   f"accuracy: {acc}\n" for e, (loss, acc) in enumerate(rows, 1))


def test_an_accuracy_that_fell_and_stayed_down_is_no_healthy_run():
    """The loss fell out of an enormous first epoch (37.65 to 2.03) while the accuracy fell from 0.3411 to 0.2301 and
    never went back above its first value: five values are too few for a shape, and the accuracy says the run does not
    learn -- not "No known failure found" and nothing more. An accuracy that dips and comes back above its first value
    is a learning run's noise; one that ends less than 5 points below it has not shown a fall; one that rises is
    learning."""
    d = diagnosis(KERAS)
    assert d.verdict == "no-evidence" and not d.matches
    fact = ("the training accuracy printed beside it fell from 0.3411 to 0.2301, and none of the prints read after the "
            "first was above it: a run that learns raises it")
    assert fact in d.signature.facts[0]
    assert d.ask.startswith("at least 10 loss values from the start of the run")
    ev = scan_text(KERAS, "log")
    assert accuracy_fell(ev) == fact
    # (back above the first, or ending within 5 points of it: no fall)
    for rows in ((("2.31", "0.3411"), ("2.10", "0.2512"), ("1.90", "0.3500"), ("1.70", "0.2400")),
                 (("2.31", "0.3411"), ("2.10", "0.2500"), ("1.90", "0.2950"), ("1.70", "0.2960")),
                 (("2.31", "0.1011"), ("2.10", "0.2512"), ("1.90", "0.3500"), ("1.70", "0.3900"))):
        assert accuracy_fell(scan_text(keras_log(rows), "log")) == ""
        assert diagnosis(keras_log(rows)).verdict == "healthy"


def test_a_long_curve_beside_a_falling_accuracy_keeps_its_verdict_and_says_the_fall():
    """Ten values or more are judged by their shape, and a class-weighted loss may lower the accuracy while the model
    learns the rare classes: the verdict stays the curve's, and the fall is said beside it."""
    rows = [(f"{2.3 - 0.05 * k:.4f}", f"{0.60 - 0.02 * k:.4f}") for k in range(12)]
    d = diagnosis(keras_log(rows))
    assert d.verdict == "healthy"
    assert "the training accuracy printed beside it fell from 0.6 to 0.38" in d.signature.facts[0]


@pytest.mark.parametrize("note", ["x_train = x_train.astype(\"float32\")   # pixels 0..255, I forgot /255?",
                                  "I forgot to divide by 255", "I didn't divide the images by 255",
                                  "trained without dividing by 255.0",
                                  # (a dataset's name between the word and the pixels, ux_review_s66 pastes/05)
                                  "# x_train is raw mnist pixels 0..255, I didn't divide"])
def test_the_pixels_division_said_left_out_is_raw_inputs(note):
    """Dividing by 255 is a pixel's own scaling, 255 its largest value: said left out (in a sentence or in the comment
    on the code line), or the pixels called raw, the inputs are raw, WR-330's candidate; said done, they are not."""
    assert "inputs" in scaled_said(note)["unscaled"]
    d = diagnosis(note + "\n" + KERAS)
    assert d.verdict == "uncertain" and [m.entry.id for m in d.matches] == ["WR-330"]
    assert any("the report says the inputs were not scaled" in e for e in d.matches[0].evidence)
    assert "inputs" not in scaled_said("I divided by 255")["unscaled"]
    # (nor a division left out because it is done elsewhere, or one mended since; the quote ends at the number)
    for elsewhere in ("I didn't divide by 255 because ToTensor already scales to [0, 1]",
                      "ImageDataGenerator(rescale=1./255), so I never divide by 255 myself",
                      "I forgot to divide by 255 at first, fixed it now"):
        assert "inputs" not in scaled_said(elsewhere)["unscaled"]
    assert scaled_said("I forgot /255.")["unscaled"]["inputs"] == "forgot /255"


HANG = ("training just hangs at the start of epoch 2, no error, GPU util goes to 0%. num_workers=8. after ~30 min I hit "
        "ctrl-c:\n"
        "Epoch 1: 100%|██████████| 938/938 [01:12<00:00, 12.9it/s, loss=0.284]\n"
        "Epoch 2:   0%|          | 0/938 [00:00<?, ?it/s]\n"
        "^CTraceback (most recent call last):\n"
        "  File \"train.py\", line 97, in <module>\n"
        "    for xb, yb in train_loader:\n"
        "  File \"/usr/lib/python3/dist-packages/torch/utils/data/dataloader.py\", line 631, in __next__\n"
        "    data = self._next_data()\n"
        "KeyboardInterrupt\n")


def test_a_run_that_hangs_after_its_bar_printed_a_loss_is_not_covered():
    """The bar's `loss=0.284` is the log's word for the one value printed before the run stopped moving, not the
    reporter's: the reporter says only that it hangs, which no entry covers. Words of the loss gone wrong, or a value
    that turned nan, keep it a failure to weigh."""
    d = diagnosis(HANG)
    assert d.verdict == "unexplained" and not d.matches
    assert any(u.startswith("the report describes a run that hangs") for u in d.unweighed)
    for other in (HANG.replace("training just hangs", "the loss went up to 40 and then training just hangs"),
                  HANG.replace("loss=0.284", "loss=nan"),
                  # ("no progress" beside loss values may be the loss's: only words that the process stopped count)
                  HANG.replace("training just hangs at the start of epoch 2, no error, GPU util goes to 0%",
                               "the model makes no progress")):
        assert not any(u.startswith("the report describes a run that hangs") for u in diagnosis(other).unweighed)


DCGAN = ("DCGAN on CelebA, after epoch 3 D loss goes to ~0 and G loss shoots up; samples are all the same brown blob\n"
         + "".join(f"[3/25][{i}/1583] Loss_D: {d} Loss_G: {g} D(x): {x} D(G(z)): {z} / {z}\n"
                   for i, d, g, x, z in ((100, "0.3121", "3.1204", "0.8812", "0.1201"),
                                         (150, "0.0932", "5.2210", "0.9511", "0.0401"),
                                         (200, "0.0103", "8.9105", "0.9941", "0.0042"),
                                         (250, "0.0011", "12.512", "0.9995", "0.0002"),
                                         (300, "0.0002", "16.003", "0.9999", "0.0000"),
                                         (350, "0.0000", "27.631", "1.0000", "0.0000"))))


def test_a_gan_whose_discriminator_won_is_not_covered_not_healthy():
    """The loss read is the discriminator's, and it fell to 0: that is the discriminator winning the game, the
    failure the words say too. No entry covers it; "No known failure found" read it as a fall."""
    d = diagnosis(DCGAN)
    assert d.verdict == "unexplained" and not d.matches
    assert any(u.startswith("the report says or prints that the GAN broke (\"") for u in d.unweighed)
    # (a game still going, its discriminator's loss near ln 4 and nothing said broken: no such line)
    calm = "".join(f"[3/25][{i}/1583] Loss_D: {d} Loss_G: {g}\n"
                   for i, d, g in ((100, "1.3121", "0.9204"), (150, "1.2932", "1.0210"), (200, "1.3303", "0.8905")))
    assert not any("GAN broke" in u for u in diagnosis(calm).unweighed)
    # (nor words of broken samples where no GAN is named: a diffusion model's noise, a note about progress bars)
    ddpm = ("DDPM on CIFAR-10, after 20k steps the samples are pure noise\n"
            + "".join(f"step {s} loss {v}\n" for s, v in ((1000, "0.0912"), (2000, "0.0634"), (3000, "0.0511"))))
    assert not any("GAN broke" in u for u in diagnosis(ddpm).unweighed)
