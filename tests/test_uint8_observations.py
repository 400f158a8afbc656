"""Frames stored as uint8 to save memory and made floats with nothing dividing them by 255 (s260/05, a DQN's replay
buffer of Atari frames; Gymnasium's AtariPreprocessing scales only when told scale_obs=True): raw 8-bit pixels, WR-330's
face. An RL agent's loss is no measure of progress -- it falls while the reward stays at the floor -- so words that the
agent does not learn make its run one gone wrong, where a supervised run's falling curve outranks them."""
import pytest

from conftest import diagnosis
from trainwreck.data_values import uint8_store_made_float

BUFFER = """```python
class QNet(nn.Module):
    def forward(self, x):
        return self.head(self.conv(x.float()))

self.obs = np.zeros((capacity, 4, 84, 84), dtype=np.uint8)
self.next_obs = np.zeros((capacity, 4, 84, 84), dtype=np.uint8)
```
"""
LOG = "".join(f"frames {100000 * k:8d} | rew(last10) -20.{k % 9} | loss {3.17 - 0.15 * k:.4f} | mean_Q {41.3 - 4 * k:.2f}\n"
              for k in range(1, 11))
WORDS = "DQN on Pong stuck at -21 after 2M frames, Q-values all over the place.\n"


def test_uint8_frames_made_float_unscaled_are_raw_pixels_in_an_rl_run_said_not_to_learn():
    assert uint8_store_made_float(BUFFER) == "self.obs = np.zeros((capacity, 4, 84, 84), dtype=np.uint8)"
    d = diagnosis(WORDS + BUFFER + LOG)
    assert d.matches and d.matches[0].entry.id == "WR-330"
    assert "stores its observations as uint8" in d.matches[0].evidence[0]


@pytest.mark.parametrize("scaled", ["        return self.head(self.conv(x.float() / 255.0))\n",
                                    "env = AtariPreprocessing(env, scale_obs=True)\n"])
def test_frames_scaled_anywhere_are_not_read(scaled):
    assert uint8_store_made_float(BUFFER + scaled) == ""


def test_words_that_it_does_not_learn_count_beside_a_falling_loss_only_in_rl():
    """A supervised run's falling curve outranks the words (test_diagnose_signals keeps that); an RL run's loss does not."""
    images = BUFFER.replace("self.obs", "self.images").replace("self.next_obs", "self.more")
    falling = "".join(f"epoch {k} loss {2.2 * 0.7 ** k:.4f} acc 0.{40 + 5 * k}\n" for k in range(1, 11))
    assert diagnosis("My CNN on faces is stuck, it does not learn.\n" + images + falling).verdict == "healthy"
    # (the same words and store in a DQN's report, its loss falling as well: the RL run's words stand)
    assert diagnosis("My DQN on Pong is stuck, it does not learn.\n" + images + falling).verdict == "uncertain"
    labels = BUFFER.replace("self.obs", "self.labels").replace("self.next_obs", "self.masks")
    assert uint8_store_made_float(labels) == ""        # (a store of labels or masks is no pixels)


def test_a_gradscaler_is_no_scaling_of_the_frames_and_a_board_state_is_no_picture():
    """code_review_s72 8 and 12."""
    assert uint8_store_made_float(BUFFER + "scaler = torch.cuda.amp.GradScaler()\n")
    states = BUFFER.replace("self.obs", "self.states").replace("self.next_obs", "self.next_states")
    assert uint8_store_made_float(states) == ""
