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


def dqn_box(steps: int, reward: str, loss: str) -> str:
    return ("----------------------------------\n"
            "| rollout/            |          |\n"
            f"|    ep_rew_mean      | {reward:<8} |\n"
            "| time/               |          |\n"
            f"|    total_timesteps  | {steps:<8} |\n"
            "| train/              |          |\n"
            f"|    loss             | {loss:<8} |\n"
            "----------------------------------\n...\n")


def test_a_td_loss_that_climbs_while_the_printed_reward_rises_is_an_agent_improving():
    """(s260/09) A DQN's TD loss regresses targets built from the returns: it grows as they do. Its climb beside a
    printed mean reward that rose is the normal RL answer; the same climb beside a reward that did not rise is not."""
    words = "SB3 DQN on LunarLander: the train/loss keeps going up the whole run. Is the Q-network diverging?\n"
    rising = words + "".join(dqn_box(s, r, l) for s, r, l in [(20172, "-163", "0.844"), (150336, "48.7", "3.27"),
                                                              (400020, "211", "6.51")])
    d = diagnosis(rising)
    assert d.verdict == "normal" and d.normal[0].name.startswith("a reinforcement-learning loss")
    assert "(a printed mean reward that rose from -163 to 211)" in d.signature.facts[0]
    flat = rising.replace("| 48.7 ", "| -170 ").replace("| 211  ", "| -165 ")
    assert diagnosis(flat).verdict != "normal"


def test_a_td_loss_grown_by_orders_of_magnitude_is_no_agent_improving():
    """code_review_s72 2: the climb is excused only below REWARDED_RISE times its lowest -- a value loss grows about as
    the square of the returns' scale, not ten orders of magnitude beside a reward going from 10.2 to 14.2."""
    boxes = "".join(dqn_box(1000 * k, r, l) for k, (r, l) in enumerate(
        [("10.2", "0.81"), ("11.0", "47.3"), ("12.5", "3.9e+04"), ("13.1", "2.7e+07"), ("14.2", "8.1e+09")], start=1))
    assert diagnosis("My DQN's loss keeps growing.\n" + boxes).verdict != "normal"


def test_the_printed_reward_is_read_from_the_log_under_one_key_and_in_its_exponent_form():
    """code_review_s72 9 and 16: a pasted environment's `reward = -100` is code, not a print; SB3 writes 1000.0 as 1e+03."""
    from trainwreck.run_said import printed_rewards
    env = "    def step(self, action):\n        reward = -100\n        if crashed:\n            reward = -50\n"
    log = "".join(f"|    ep_rew_mean      | {r:<8} |\n" for r in ("150", "90", "1e+03"))
    assert printed_rewards(env + log) == [150.0, 90.0, 1000.0]
