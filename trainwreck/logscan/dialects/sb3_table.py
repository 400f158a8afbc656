"""Stable-Baselines3's console logger (HumanOutputFormat in stable_baselines3/common/logger.py, v2.8.0): each dump is a
box of `| key | value |` rows between lines of dashes, its keys sorted and grouped under their tag (`rollout/`,
`time/`, `train/`), each key indented by three spaces under its tag, a float written `{value:<8.3g}`:

    -----------------------------------------
    | rollout/                |             |
    |    ep_rew_mean          | -2.14e+03   |
    | time/                   |             |
    |    total_timesteps      | 4096        |
    | train/                  |             |
    |    loss                 | 1.21e+08    |
    |    value_loss           | 2.43e+08    |
    -----------------------------------------

The loss read is `train/loss`, which PPO and DQN record (PPO the last minibatch's total loss, DQN the mean of the
update's; ppo.py and dqn.py at v2.8.0), numbered by the `time/total_timesteps` its box printed above it: the
environment steps so far, the count an RL run is read by. A box is one dump, every `log_interval` rollouts. A2C, SAC,
TD3 and DDPG record only their parts (`policy_loss` and `value_loss`; `actor_loss` and `critic_loss`): their boxes are
recognised, and no loss is read from them yet.
https://github.com/DLR-RM/stable-baselines3/blob/v2.8.0/stable_baselines3/common/logger.py#L176-L232
"""
import re

from . import Dialect
from ..numbers import NUMBER

# (a tag's row, its value column empty: the box's first)
DETECT = re.compile(rb"(?m)^\| (?:rollout|time|train)/ +\| +\|")
# (a loss row, with the box's timesteps put before it by _numbered)
LOSS_ROW = re.compile(rb"(?m)^(?:\d+ )?\| {4}loss +\| (" + NUMBER + rb") *\|")
STEPS = re.compile(rb"\| {4}total_timesteps +\| (\d+) *\|")
EDGE = re.compile(rb"-{10,}\r?$")


def _numbered(text: bytes, _ev, _line0: int) -> bytes:
    """The block with each loss row led by the total timesteps its box printed above it (the lines stay the lines)."""
    out, steps = [], None
    for line in text.split(b"\n"):
        if EDGE.match(line):
            steps = None
        elif m := STEPS.match(line):
            steps = m.group(1)
        elif steps is not None and LOSS_ROW.match(line):
            line = steps + b" " + line
        out.append(line)
    return b"\n".join(out)


DIALECT = Dialect("Stable-Baselines3's logger boxes", DETECT, framework="pytorch", pattern=LOSS_ROW,
                  numbering=(re.compile(rb"(\d+) \|"), "timestep"), rewrite=_numbered)
