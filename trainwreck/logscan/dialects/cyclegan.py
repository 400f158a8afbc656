"""The training log of junyanz's pytorch-CycleGAN-and-pix2pix (CycleGAN, pix2pix and the models built on its code):
`(epoch: 2, iters: 2300, time: 0.047, data: 0.002) G_GAN: 1.207 G_L1: 17.904 D_real: 0.361 D_fake: 0.412 `, written
by `Visualizer.print_current_losses` (util/visualizer.py at 003efc4: `'(epoch: %d, iters: %d, time: %.3f, data:
%.3f) '`, then each loss of the model's `loss_names` as `'%s: %.3f '`). `iters` counts the examples seen in the epoch
and starts again at 0 with each epoch. The models forked from its older code print no `data:` field: DeblurGAN's
`print_current_errors` writes `'(epoch: %d, iters: %d, time: %.3f) '` and then `G_GAN`, `G_L1` (its content loss,
perceptual or L1, times lambda_A) and `D_real+fake` (KupynOrest/DeblurGAN at 2499a87: util/visualizer.py and
models/conditional_gan_model.py, whose optimize_parameters zeroes each optimizer's gradients before its backward pass
too).

No total is printed. The losses read are the reconstruction terms, which fall in a run that learns as a fit's loss
does, while a GAN's adversarial terms play a game and never settle: pix2pix's `G_L1` (the L1 to the target, times
lambda_L1, 100 by default) and CycleGAN's `cycle_A` (the cycle-consistency L1, times lambda_A, 10 by default); else
CycleGAN's `D_A` or pix2pix's `G_GAN`. (Another model's `loss_names` is read by the keyed reading, if at all.)

Each model's `optimize_parameters` zeroes the gradients of the network it steps before its backward pass, where the
paste shows no model's own
(models/pix2pix_model.py at 032e884: `self.optimizer_D.zero_grad()` before `self.backward_D()`,
`self.optimizer_G.zero_grad()` before `self.backward_G()`; models/cycle_gan_model.py does the same for its two pairs).
"""
import re

from . import Dialect

# (the form with no `data:` field only where its line holds a reconstruction term, G_L1 or cycle_A: pix2pixHD, SPADE and
# vid2vid print the same prefix with G_GAN, G_GAN_Feat, G_VGG, D_real and D_fake, whose only term of this dialect's is the
# adversarial G_GAN, which plays a game and is no curve to read -- reread_s74 3)
DIALECT = Dialect("pytorch-CycleGAN-and-pix2pix",
                  re.compile(rb"(?m)^\(epoch: \d+, iters: \d+, time: -?[\d.]+(?:, data: |\) (?=[^\n]*\b(?:G_L1|cycle_A): ))"),
                  keys=(rb"G_L1", rb"cycle_A", rb"D_A", rb"G_GAN"), framework="pytorch",
                  clears_gradients="zeroes the gradients of each network before its backward pass",
                  # (not where the paste shows a model's own step: each model of the repository writes its own)
                  clears_unless=re.compile(r"\bdef (?:optimize_parameters|backward_[GD]\w*)\b"))
