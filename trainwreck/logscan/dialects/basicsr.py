"""BasicSR's training log (ESRGAN, Real-ESRGAN, SwinIR, EDSR, NAFNet, Restormer and the other models trained with it):
`2024-01-08 09:14:52,339 INFO: [train..][epoch:  0, iter:     200, lr:(1.000e-03,)] [eta: 3 days, 2:31:06, time
(data): 0.671 (0.012)] l_pix: 2.8817e-02 `, written by `MessageLogger` (basicsr/utils/logger.py at v1.4.2: the
iteration with a thousands separator, `iter:  50,000`, then each loss of the model's dict as `{k}: {v:.4e}`).

The model's losses are its parts, and no total is printed: `l_pix` is the pixel loss of SRModel (the whole loss of a
PSNR-oriented run), `l_g_pix` the generator's of ESRGANModel, beside `l_percep`, `l_g_gan`, `l_d_real`, `l_d_fake`.
Validation prints its metrics on lines of their own (`# psnr: 38.9742	Best: ...`), with no loss.

Each model's `optimize_parameters` zeroes its optimizer's gradients before the forward pass
(basicsr/models/sr_model.py at v1.4.2, `self.optimizer_g.zero_grad()`).
"""
import re

from . import Dialect

# (the experiment's name in front is dropped by some forks, and an iteration-based runner prints no epoch)
DIALECT = Dialect("BasicSR", re.compile(rb"(?:\]|^|INFO: )\[(?:epoch:\s*\d+, )?[Ii]ter:\s*[\d,]+, lr:\(", re.M),
                  keys=(b"l_pix", b"l_g_pix", b"l_total", b"loss"), framework="pytorch",
                  clears_gradients="zeroes the gradients before every forward pass")
