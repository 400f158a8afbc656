"""Objectives a healthy run does not drive down to a floor -- a GAN's two losses, a reinforcement-learning loss (a policy's, a value's), a VAE's total
under a rising KL weight -- asked about as if they should fall: normal, with the quantity that does measure progress;
and a failure all the same where the run printed one."""

import pytest

from conftest import diagnosis


GAN = ("WGAN-GP losses never converge\n\nTraining a WGAN-GP on 128x128 flower photos. After 40 epochs the critic loss "
       "keeps swinging between -8 and -2 and the generator loss goes up and down between 5 and 30, with no downward "
       "trend. The samples do look more like flowers each epoch. Is the training broken?")
PPO = ("PPO actor loss goes negative\n\nMy PPO on HalfCheetah logs an actor loss that starts near 0 and drifts to about "
       "-0.02 over training, and the critic's value loss rose from 12 to 95 in the first 300k steps. The average "
       "return went from -300 to 2100. Did I flip a sign somewhere?")
DQN = ("DQN loss going up\n\nDQN on Pong with the rl-zoo settings. The TD loss creeps up from 0.002 to 0.02 over 4M "
       "steps while the mean episode reward goes from -21 to +18. Is it diverging?")
# (a Wasserstein critic's loss is negative with no floor: no impossible negative, whatever BCE the words mention)
WGAN = ("critic loss hugely negative\n\nWGAN-GP on spectrograms. Used to BCE GANs, where losses are positive; here the critic "
        "loss went to -35 in the first iterations and is -4 now, and the generator loss flips sign. Samples improve. "
        "Is this broken?")
VAE = ("VAE loss increasing\n\nbeta-VAE on dSprites, the KL weight warm-up goes from 0 to 4 over 30 epochs. The total "
       "loss was 95 at epoch 3 and is 131 at epoch 30, while the reconstruction error keeps dropping. Is it diverging?")


@pytest.mark.parametrize("text, name, decide", [
    (GAN, "a GAN's losses, which do not fall", "samples from one fixed noise batch"),
    (PPO, "a reinforcement-learning loss, which says nothing of progress", "the mean episodic return"),
    (DQN, "a reinforcement-learning loss, which says nothing of progress", "the mean episodic return"),
    (WGAN, "a GAN's losses, which do not fall", "samples from one fixed noise batch"),
    (VAE, "a VAE's total loss under a KL weight that rises", "the reconstruction and the KL terms apart"),
])
def test_an_objective_that_does_not_fall_is_normal(text, name, decide):
    d = diagnosis(text)
    assert d.verdict == "normal" and d.normal[0].name == name
    assert d.ask.startswith(decide)


@pytest.mark.parametrize("text", [
    GAN.replace("Is the training broken?", "Then at epoch 41 both losses print nan."),
    PPO.replace("Did I flip a sign somewhere?", "At 1.2M steps the actor loss is nan and the return drops to -500."),
])
def test_a_nan_beside_them_is_a_failure_still(text):
    assert diagnosis(text).verdict in ("failure", "uncertain")


def test_a_loss_with_none_of_those_objectives_named_is_not_answered_so():
    plain = ("Loss increasing\n\nMy CNN's loss was 0.95 at epoch 3 and is 1.31 at epoch 30, while the accuracy keeps "
             "dropping. Is it diverging?")
    assert not any(n.name.startswith(("a GAN", "a policy", "a VAE")) for n in diagnosis(plain).normal)


def test_the_ppo_surrogate_starts_each_update_at_the_mean_advantage():
    """The mechanism the answer gives: at ratio 1 the clipped surrogate is the mean advantage, 0 once the advantages
    are normalised -- so its value is no measure of progress."""
    np = pytest.importorskip("numpy")
    rng = np.random.default_rng(0)
    adv = rng.normal(3.0, 10.0, 512)
    adv = (adv - adv.mean()) / (adv.std() + 1e-8)
    ratio = np.ones_like(adv)
    surrogate = np.minimum(ratio * adv, np.clip(ratio, 0.8, 1.2) * adv).mean()
    assert abs(surrogate) < 1e-9


def test_a_super_resolution_psnr_that_falls_once_a_gan_stage_starts_is_the_perception_distortion_trade_off():
    """A PSNR-oriented model fine-tuned with a GAN and a perceptual loss loses PSNR while its images get sharper (Blau and
    Michaeli 2018; SRGAN's own paper): normal, checked with a perceptual measure. Not where the run went nan, nor a
    pixel loss's PSNR that falls, which no trade-off explains."""
    said = ("SRGAN stage after my SRResNet (MSE) pretraining: as soon as the adversarial loss and the VGG loss are on, "
            "validation PSNR drops from 31.9 to 29.6 dB and stays there, although the textures look better. Bug?")
    d = diagnosis(said)
    assert d.verdict == "normal" and not d.matches
    assert d.normal[0].name == "a super-resolution model's PSNR, which falls once a GAN or perceptual loss trains it"
    assert "arXiv:1711.06077" in d.normal[0].explanation and "LPIPS" in d.normal[0].decide
    # (the datasets the PSNR is measured on may be joined to it; another loss's fall may not)
    on_two = diagnosis("ESRGAN stage: the PSNR on Set5 and Set14 drops by 2 dB while textures look better. Bug?")
    assert on_two.verdict == "normal" and on_two.normal[0].name.startswith("a super-resolution")
    for broken in (said.replace("although the textures look better", "then the loss turns nan"),
                   "My EDSR with an L1 loss: validation PSNR drops from 31.9 to 29.6 dB after epoch 40. Bug?",
                   # (a GAN denied, or dropped; a fall that is another subject's; outputs said to be broken)
                   "No GAN and no perceptual loss, just MSE: my SRResNet's validation PSNR drops from 30.8 to 24.1 dB "
                   "after I doubled the batch size. Bug?",
                   "I had a GAN stage but dropped it. My U-Net denoiser on L1 alone: PSNR drops from 31.2 to 27.5 dB "
                   "after epoch 40. Bug?",
                   "ESRGAN fine-tuning: PSNR improves a little and l_g_gan falls, but the outputs have checkerboard "
                   "artifacts. Bug?"):
        assert diagnosis(broken).verdict != "normal" or not diagnosis(broken).normal[0].name.startswith(
            "a super-resolution"), broken
