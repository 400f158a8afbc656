"""Stable-Baselines3's logger boxes (trainwreck/logscan/dialects/sb3_table.py; samples in tests/logs/sb3_table/): the
`train/loss` row is the loss, numbered by the `time/total_timesteps` of its own box -- not the value or policy losses
beside it. A PPO trading agent rewarded in dollars (s260/12): its loss of 1e8 is a value function regressing returns in
the thousands, WR-360's face, read once the boxes are."""
from conftest import diagnosis
from trainwreck.logscan import scan_text


def box(steps: int | None, loss: str, value_loss: str = "2.43e+08") -> str:
    time = "| time/                   |             |\n" + (
        f"|    total_timesteps      | {steps:<11} |\n" if steps is not None else "")
    return ("-----------------------------------------\n"
            "| rollout/                |             |\n"
            "|    ep_rew_mean          | -2.14e+03   |\n" + time +
            "| train/                  |             |\n"
            f"|    loss                 | {loss:<11} |\n"
            "|    policy_gradient_loss | -2.3e-05    |\n"
            f"|    value_loss           | {value_loss:<11} |\n"
            "-----------------------------------------\n")


def test_the_loss_row_is_read_and_numbered_by_its_boxs_timesteps():
    ev = scan_text("".join(box(2048 * k, v) for k, v in enumerate(["0.5", "0.4", "nan"], start=1)))
    assert ev.dialect == "Stable-Baselines3's logger boxes"
    assert ev.count == 3 and ev.head[:2] == [0.5, 0.4] and ev.first_nonfinite == 2
    assert str(ev.first_nonfinite_at) == "timestep 6144"
    # (a box that prints no timesteps: placed by its line)
    assert str(scan_text(box(None, "0.5") + box(None, "nan")).first_nonfinite_at).startswith("line ")


def test_a_value_loss_of_a_hundred_million_beside_prices_is_the_targets_raw_units():
    words = ("PPO not learning anything on custom stock trading env - value_loss is 200 million?? Rewards are the change "
             "in portfolio value: reward = new_value - self.portfolio_value, price from the Close column. The agent is "
             "still basically random after 300k steps.\n")
    d = diagnosis(words + "".join(box(2048 * k, v) for k, v in enumerate(["1.21e+08", "9.38e+07", "1.02e+08"], start=1)))
    assert d.matches[0].entry.id == "WR-360"
    assert any("its first loss (1.21e+08) is enormous" in e for e in d.matches[0].evidence)
