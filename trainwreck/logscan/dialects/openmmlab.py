"""OpenMMLab's training logs (MMDetection, MMSegmentation, MMPretrain and the rest):

- MMEngine (OpenMMLab 2): `08/21 02:58:41 - mmengine - INFO - Epoch(train) [1][10/25]  lr: 1.0000e-02
  eta: 0:00:00  time: 0.0019  data_time: 0.0004  loss1: 0.8381  loss2: 0.9007  loss: 1.7388`, or
  `Iter(train) [  50/1000]` for a runner counted in iterations; `Epoch(val)` lines are validation;
- MMCV 1.x: `2021-12-20 17:13:30,133 - mmdet - INFO - Epoch [12][150/4867]\tlr: 5.000e-05, ...,
  loss_cls: 0.31, loss: 0.52, grad_norm: 4.1`.

`loss` is the total the runner optimises; the parts it sums (`loss_cls`, `loss1`) are left out. The
date in front, month/day in MMEngine, is not a step count.

The runner zeroes the gradients at every update: MMEngine's `OptimWrapper.update_params`
(https://github.com/open-mmlab/mmengine/blob/v0.10.4/mmengine/optim/optimizer/optimizer_wrapper.py#L195-L202),
which also divides an accumulated loss by the accumulation count, and MMCV 1.x's `OptimizerHook.after_train_iter`
(mmcv/runner/hooks/optimizer.py at v1.7.2); a model that overrides `train_step` (a GAN's) does it itself.
"""
import re

from . import Dialect

DIALECT = Dialect("OpenMMLab (MMEngine / MMCV) log",
                  re.compile(rb"(?:Epoch|Iter)\((?:train|val|test)\)\s*\[|Epoch \[\d+\]\[\s*\d+/\d+\]"),
                  framework="pytorch", clears_gradients="zeroes the gradients at every update",
                  clears_unless=re.compile(r"\bdef train_step\b"))
