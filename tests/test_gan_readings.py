"""A GAN's losses named by the family's members and printed by CycleGAN's and pix2pix's repository; the failures the
GAN's answer names, said or printed (a discriminator that won, a generator that makes only noise), which take that
answer away; and Keras's image_dataset_from_directory, whose pixels come out from 0 to 255."""
import pytest

from conftest import diagnosis
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
    ("d_loss: 0.0148 - g_loss: 7.9912\nd_loss: 8.8102e-08 - g_loss: 20.3396", "d_loss: 8.8102e-08"),
    ("Loss_D: 0.0004\tLoss_G: 9.61", "Loss_D: 0.0004"),
    ("the generator only produces noise", "generator only produces noise"),
    ("the images are still colored noise after 4 epochs", "images are still colored noise"),
    # (not a discriminator still in the game, a denial, or a Wasserstein critic, whose loss near 0 is no win)
    ("d_loss: 0.0148\nd_loss: 0.6931", ""),
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
        assert "WR-330" not in [m.entry.id for m in diagnosis(other).matches][:1]
