"""WR-240: clipping that never engages leaves WR-220's explosion exactly as it was."""
import math
import warnings

import numpy as np
import pytest

from conftest import assert_entry_says, load_snippet

wr240 = load_snippet("wr240_clipping_not_clipping")
wr220 = load_snippet("wr220_lr_explosion")


@pytest.fixture(scope="module")
def loose():
    with np.errstate(all="ignore"):
        return wr240.train(epochs=30)


def test_clipping_at_100_changes_nothing(loose):
    with np.errstate(all="ignore"):
        unclipped = wr220.train(10.0, epochs=30)["loss"]
    assert [repr(v) for v in loose["loss"]] == [repr(v) for v in unclipped]   # identical, nan for nan
    t = wr240.first_nonfinite(loose["loss"])
    assert t == 6 and loose["loss"][t] == math.inf
    assert sum(loose["clipped"][:t]) == 0
    assert max(loose["grad_norm"][:t]) < 100


def test_nan_gradient_passes_through_clipping(loose):
    t = wr240.first_nonfinite(loose["loss"])
    assert math.isnan(loose["grad_norm"][t]) and loose["clipped"][t] is False


def test_elementwise_clipping_fails_too():
    with np.errstate(all="ignore"):
        element = wr240.train(epochs=12, clip=1.0, mode="element")
    assert wr240.first_nonfinite(element["loss"]) == 6


def test_threshold_from_a_healthy_stretch_keeps_the_run_finite():
    clip = wr240.threshold_from_healthy_stretch()
    healthy = wr240.train(lr=1.0, epochs=50, clip=np.inf)
    assert clip == pytest.approx(float(np.percentile(healthy["grad_norm"], 90)))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        tight = wr240.train(epochs=300, clip=clip)
    assert all(math.isfinite(v) for v in tight["loss"])
    assert tight["loss"][-1] < 0.3 * tight["loss"][0]
    assert wr240.clipped_share(tight) > 0.9


def test_numbers_in_the_entry_match_the_snippet(loose):
    t = wr240.first_nonfinite(loose["loss"])
    clip = wr240.threshold_from_healthy_stretch()
    tight = wr240.train(epochs=300, clip=clip)
    params = sum(p.size for p in wr240.init_params().values())
    assert_entry_says("WR-240", [
        f"inf at epoch {t}, nan from epoch {t + 1}",
        f"Not one step was clipped before the blow-up: {sum(loose['clipped'][:t])} of {t}",
        f"The gradient norm stayed between {min(loose['grad_norm'][:t]):.3g} and {max(loose['grad_norm'][:t]):.4g}",
        f"non-finite from epoch {t}",
        f"each of the snippet's {params} numbers",
        f"which is {clip:.4f}",
        f"its loss falls to {tight['loss'][-1]:.4f} after 300 epochs",
    ])
