"""Source separation's losses: minus an SI-SDR or SI-SNR, below zero by design, so a loss below zero is answered only
where the report asks nothing else; the models trained on it by their papers; and Asteroid's ceiling at 80, where
the estimate is silent."""
import math

import numpy as np

from conftest import diagnosis
from trainwreck.run_said import loss_climb_said, loss_kind

NEGATIVE = "negative loss"


def test_a_loss_below_zero_is_answered_only_where_the_report_asks_nothing_else():
    """A separation loss that went below zero and then got worse within each epoch: its sign is no answer to a loss
    that climbs, nor to a run said not to converge. Asked about alone, it still is."""
    log = "".join(f"epoch {e} iter {i} loss {v}\n" for (e, i), v in zip(
        [(0, 4000), (0, 8000), (0, 12000), (0, 16000), (0, 20000), (1, 4000), (1, 8000), (1, 12000), (1, 16000),
         (1, 20000), (2, 4000)],
        ["1.922", "-2.815", "-4.107", "-3.390", "-1.544", "-4.611", "-5.902", "-4.088", "-2.017", "0.355", "-4.95"]))
    worse = "DPRNN on Libri2Mix: the loss gets worse towards the end of every epoch.\n" + log
    assert loss_climb_said(worse)
    for other in ("the loss goes down nicely but the accuracy gets worse every epoch",
                  "training loss keeps falling while val accuracy gets worse",
                  "the loss is fine, it's the generated audio that gets worse"):
        assert not loss_climb_said(other), other
    assert NEGATIVE not in [n.name for n in diagnosis(worse).normal]
    stuck = "Conv-TasNet is not converging on wsj0-2mix.\n" + log
    assert NEGATIVE not in [n.name for n in diagnosis(stuck).normal]
    asked = "DPRNN on Libri2Mix: why is my loss negative?\n" + log
    assert diagnosis(asked).normal[0].name == NEGATIVE


def test_the_separation_models_trained_on_minus_the_si_snr_say_their_loss_can_go_below_zero():
    """Conv-TasNet, DPRNN, SepFormer and DCCRN are trained on minus the SI-SNR by their papers: named alone, the loss
    is one that goes below zero; another loss named beside them decides instead."""
    for model in ("Conv-TasNet", "ConvTasNet", "DPRNN", "SepFormer", "DCCRN"):
        assert loss_kind(f"Training {model} on wsj0-2mix, the loss is -3.2 after an epoch.") == "likelihood", model
    assert loss_kind("Training Conv-TasNet with nn.CrossEntropyLoss on the mask classes.") == "bounded"


def asteroid_loss(estimate: np.ndarray, target: np.ndarray, eps: float = 1e-8) -> float:
    """Asteroid's PairwiseNegSDR("sisdr") for one pair, as its source computes it."""
    target, estimate = target - target.mean(), estimate - estimate.mean()
    proj = (estimate @ target) * target / (target @ target + eps)
    noise = estimate - proj
    return float(-10 * np.log10((proj @ proj) / (noise @ noise + eps) + eps))


def test_asteroids_negative_si_sdr_stops_at_80_where_the_estimate_is_silent():
    """The mechanism: 10 log10 of (ratio + 1e-8) is at least -80 whatever the estimate, and a silent or constant one
    reaches it. A log that sits at 80 beside Asteroid named is read as that ceiling, not a flat run."""
    rng = np.random.default_rng(0)
    target = rng.standard_normal(8000)
    assert asteroid_loss(np.zeros(8000), target) == 80.0
    from trainwreck.ceilings import CEILINGS
    assert next(c.value for c in CEILINGS if c.tool.startswith("Asteroid")) == asteroid_loss(np.zeros(8000), target)
    assert asteroid_loss(np.full(8000, 0.3), target) == 80.0
    assert max(asteroid_loss(rng.standard_normal(8000), target) for _ in range(20)) < 80.0
    # (a good estimate is far below: half the target plus noise 1e-3 its size scores 10 log10(0.25 / 1e-6) = 54 dB)
    assert math.isclose(asteroid_loss(target * 0.5 + 1e-3 * rng.standard_normal(8000), target),
                        -10 * math.log10(0.25 / 1e-6), abs_tol=0.2)
    bar = "".join(f"Epoch {e}: 100%|██████████| 1667/1667 [09:40<00:00,  2.87it/s, loss={v}, v_num=0]\n"
                  for e, v in enumerate(["-7.12", "80", "80", "80", "80", "80"]))
    d = diagnosis("Asteroid ConvTasNet recipe, the output is silence after epoch 1.\n" + bar)
    assert "the loss sits at 80, the most Asteroid's negative SI-SDR can print" in " ".join(d.signature.facts)
    assert "sits at 80" not in " ".join(diagnosis("my own separation model, the output is silence.\n" + bar)
                                        .signature.facts)
