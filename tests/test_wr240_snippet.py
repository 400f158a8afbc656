"""WR-240: a threshold above every gradient norm never clips; one just under the large first steps
guards them and the same rate trains; one far below the run's norms clips nearly every step."""
import math
import warnings

import numpy as np
import pytest

from conftest import assert_entry_says, load_snippet, tab_program_run

wr240 = load_snippet("wr240_clipping_not_clipping")
SNIPPET = "snippets/wr240_clipping_not_clipping.py"


@pytest.fixture(scope="module")
def loose():
    with np.errstate(all="ignore"):
        return wr240.train(lr=10.0, epochs=10, max_norm=100.0)


@pytest.fixture(scope="module")
def runs():
    """The Fix tab's sweep: rate 10 for 300 epochs at each threshold."""
    return wr240.sweep()


@pytest.fixture(scope="module")
def rate_one():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        return wr240.train(lr=1.0, epochs=300)


def clipped_steps(run):
    return np.flatnonzero(run["clipped"]).tolist()


# --- the threshold that never acts ----------------------------------------------------------------

def test_clipping_at_100_changes_nothing(loose):
    with np.errstate(all="ignore"):
        unclipped = wr240.train(lr=10.0, epochs=10)
    assert [repr(v) for v in loose["loss"]] == [repr(v) for v in unclipped["loss"]]   # nan for nan
    t = wr240.first_nonfinite(loose["loss"])
    assert t == 6 and loose["loss"][t] == math.inf and math.isnan(loose["loss"][t + 1])
    assert sum(loose["clipped"][:t]) == 0
    assert max(loose["grad_norm"][:t]) < 100 / 5                      # not near the threshold either


def test_the_nan_passes_through_clipping(loose):
    t = wr240.first_nonfinite(loose["loss"])
    assert math.isnan(loose["grad_norm"][t]) and loose["clipped"][t] is False
    grads = {"W": np.array([np.nan, 1.0])}
    out, norm, clipped = wr240.clip_by_global_norm(grads, 1.0)
    assert math.isnan(norm) and clipped is False and out is grads


def test_the_loss_turns_inf_while_the_gradient_stays_small(loose):
    """The inf comes from log(p) with p rounded to 0, not from a runaway gradient: the logistic
    loss's gradient with respect to the logit is bounded by 1."""
    t = wr240.first_nonfinite(loose["loss"])
    assert loose["loss"][t - 1] > 40 and max(loose["grad_norm"][:t]) < 20
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        wr240.train(lr=10.0, epochs=t + 1)
    texts = {str(w.message) for w in caught}
    assert {"overflow encountered in exp", "divide by zero encountered in log",
            "divide by zero encountered in divide", "invalid value encountered in multiply"} <= texts


def test_the_norm_grows_with_the_output_weights_it_passes_through_not_with_the_activations():
    """The logit's gradient is bounded by 1; what carries the norm by epoch 5 is the first layer's block,
    dL/dW1 = X^T (dz W2^T * 1[h > 0]), which scales with |W2| (grown several hundred times) while the
    hidden activations barely grew. At step 0 the norm is almost all the output weights' block."""
    X, y = wr240.make_data()
    p = wr240.init_params()
    seen = []
    for _ in range(6):
        h = np.maximum(X @ p["W1"] + p["b1"], 0.0)
        loss, g = wr240.loss_and_grads(p, X, y)
        block = {k: float(np.linalg.norm(v)) for k, v in g.items()}
        seen.append({"loss": loss, "block": block, "total": math.sqrt(sum(b * b for b in block.values())),
                     "W2": float(np.abs(p["W2"]).max()), "h": float(h.mean())})
        p = {k: p[k] - 10.0 * g[k] for k in p}
    first, fifth = seen[0], seen[5]
    layer1 = math.hypot(fifth["block"]["W1"], fifth["block"]["b1"])
    assert fifth["block"]["W2"] < 0.25 * fifth["total"] and layer1 > 0.95 * fifth["total"]
    assert first["block"]["W2"] > 0.99 * first["total"]
    assert fifth["W2"] > 500 * first["W2"] and fifth["h"] < 2 * first["h"]
    assert fifth["total"] == pytest.approx(wr240.train(lr=10.0, epochs=6)["grad_norm"][5], rel=1e-12)
    assert_entry_says("WR-240", [
        f"By epoch 5 the first layer's weights and biases carry {layer1:.2f} of the norm of {fifth['total']:.2f}",
        f"whose largest has grown from {first['W2']:.3g} to {fifth['W2']:.2f}, while the mean hidden activation "
        f"has only gone from {first['h']:.3f} to {fifth['h']:.3f}. The norm is {fifth['total']:.2f} while the loss "
        f"is already {fifth['loss']:.2f}"])


def test_elementwise_clipping_at_one_engages_only_when_it_is_too_late():
    with np.errstate(all="ignore"):
        element = wr240.element_clipped_run()
    assert element["engaged"] == [4, 5]
    assert wr240.first_nonfinite(element["loss"]) == 6


def test_a_clip_after_the_update_acts_on_most_steps_and_changes_no_loss(runs):
    """The clip in the wrong place: after the step it rescales gradients already used, so the threshold
    that lets rate 10 train (0.5) reports clipping on most steps of a run identical to the unclipped one."""
    with np.errstate(all="ignore"):
        late = wr240.clipped_after_the_step_run(lr=10.0, epochs=10, max_norm=0.5)
        unclipped = wr240.train(lr=10.0, epochs=10)
    np.testing.assert_array_equal(late["loss"], unclipped["loss"])      # bit for bit, inf and nan included
    t = wr240.first_nonfinite(late["loss"])
    acted = sum(late["clipped"][:t])
    assert (t, acted) == (6, 5) and np.isinf(late["loss"][t])
    assert wr240.first_nonfinite(runs[0.5]["loss"]) is None            # the same threshold, in its place, trains
    assert_entry_says("WR-240", [f"clips {acted} of the {t} steps before the blow-up",
                                 f"unclipped losses, inf at epoch {t}"])


# --- the mechanism: a clip acts exactly on the steps above it, and then fixes their length ---------

def test_a_step_is_clipped_exactly_when_its_norm_is_above_the_threshold(runs):
    for c, run in runs.items():
        norms = np.array(run["grad_norm"])
        assert run["clipped"] == (norms > c).tolist(), c


def test_a_clipped_step_has_the_length_rate_times_threshold_whatever_the_gradient():
    """Why a threshold below most norms is a rate cut in disguise: every clipped step is lr * c long."""
    X, y = wr240.make_data()
    _, grads = wr240.loss_and_grads(wr240.init_params(), X, y)
    for scale in (1.0, 10.0, 1e4):
        big = {k: g * scale for k, g in grads.items()}
        out, norm, clipped = wr240.clip_by_global_norm(big, 0.0241)
        length = math.sqrt(sum(float(np.sum((10.0 * g) ** 2)) for g in out.values()))
        assert clipped and length == pytest.approx(10.0 * 0.0241, rel=1e-12)
        assert norm == pytest.approx(scale * math.sqrt(sum(float(np.sum(g * g)) for g in grads.values())))


# --- the sweep: never, too late, a guard, a rate cut -----------------------------------------------

def test_a_threshold_above_every_norm_or_reached_too_late_lets_the_run_blow_up(runs):
    never, late = runs[100.0], runs[5.0]
    assert clipped_steps(never) == [] and wr240.first_nonfinite(never["loss"]) == 6
    assert clipped_steps(late) == [4, 5] and wr240.first_nonfinite(late["loss"]) == 6
    assert late["loss"][4] > 10 * late["loss"][0]                   # it first acts once the climb is under way


def test_a_threshold_just_under_the_first_steps_guards_them_and_rate_10_trains(runs, rate_one):
    for c in (2.0, 1.0, 0.5):
        run = runs[c]
        steps = clipped_steps(run)
        assert 1 <= len(steps) <= 3 and max(steps) < 5, (c, steps)    # only the early outliers
        assert len(run["loss"]) == 300 and all(math.isfinite(v) for v in run["loss"])
        assert run["loss"][-1] < run["loss"][0] / 3
        assert run["loss"][-1] == pytest.approx(rate_one["loss"][-1], rel=0.05)   # about where rate 1 ends


def test_a_threshold_of_1_also_cuts_the_first_step_but_not_enough(runs):
    """1 and 0.5 both act on step 0: what separates them is how short the first step becomes, not when the
    clip first acts. At 1 the loss still spikes (after the first step) and two more steps are clipped."""
    one, half = runs[1.0], runs[0.5]
    assert one["clipped"][0] is True and half["clipped"][0] is True
    assert clipped_steps(one) == [0, 2, 3] and clipped_steps(runs[2.0]) == [4]
    spike = int(np.argmax(one["loss"]))
    assert spike == 3 and one["loss"][spike] > 4 * one["loss"][0]       # after the clipped first step
    assert max(half["loss"][1:]) < half["loss"][0]


def test_the_guard_at_half_shortens_only_the_first_step(runs):
    guard = runs[0.5]
    norms = np.array(guard["grad_norm"])
    assert clipped_steps(guard) == [0]
    assert norms[0] > 10 * np.median(norms[1:]) and norms[1:].max() < 0.5   # the first step is the outlier
    assert max(guard["loss"][1:]) < guard["loss"][0]                        # never again above its start


def test_a_threshold_far_below_the_norms_clips_nearly_every_step(runs):
    cut = runs[0.0241]
    share = sum(cut["clipped"]) / len(cut["clipped"])
    assert share > 0.5                                                # the Playbook's "extremely aggressive"
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        lower_rate = wr240.train(lr=3.0, epochs=300)
    assert lower_rate["loss"][-1] < cut["loss"][-1]                   # an honest rate does better


def test_that_threshold_is_the_90th_percentile_of_a_run_at_rate_1_whose_norms_are_smaller(runs, rate_one):
    p90 = float(np.percentile(rate_one["grad_norm"][:50], 90))
    assert f"{p90:.3g}" == "0.0241" and 0.0241 in wr240.THRESHOLDS
    at_ten = np.median(runs[0.5]["grad_norm"][1:])
    assert at_ten > 2 * p90                                            # rate 10's norms sit well above it


def test_gradient_norms_fall_as_the_model_fits_and_carry_batch_noise(rate_one):
    norms = rate_one["grad_norm"]
    assert norms[1] < norms[0] / 20
    X, y = wr240.make_data()
    params = wr240.init_params()
    _, full = wr240.loss_and_grads(params, X, y)
    rng = np.random.default_rng(0)
    square = lambda g: sum(float(np.sum(v * v)) for v in g.values())
    batches = [square(wr240.loss_and_grads(params, X[rows], y[rows])[1])
               for rows in (rng.choice(len(X), 20, replace=False) for _ in range(100))]
    assert np.mean(batches) > 1.1 * square(full)                       # a batch's norm carries its noise


# --- the page -----------------------------------------------------------------------------------------

def test_the_tabs_print_their_stories():
    reproduce = tab_program_run(SNIPPET, "reproduce").stdout
    assert "steps clipped before the loss turned non-finite (epoch 6): 0 of 6" in reproduce
    fix = tab_program_run(SNIPPET, "fix").stdout
    assert "RuntimeWarning" not in fix
    assert "threshold 0.5     clipped   1 of 300 steps ( 0.3%)  step 0" in fix
    assert "threshold 0.0241  clipped 298 of 300 steps (99.3%)" in fix
    assert "threshold 100     clipped   0 of   6 steps ( 0.0%)" in fix
    assert "epoch   0  loss    0.6865  grad_norm    1.329  clip_at 0.5  clipped 1/1" in fix   # the guard's own log


def test_numbers_in_the_entry_match_the_snippet(loose, runs, rate_one):
    t = wr240.first_nonfinite(loose["loss"])
    before = loose["grad_norm"][:t]
    params = sum(p.size for p in wr240.init_params().values())
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        lower_rate = wr240.train(lr=3.0, epochs=300)
    healthy = rate_one["grad_norm"]
    guard = np.array(runs[0.5]["grad_norm"])
    cells = {c: (f"{sum(r['clipped'])} of {len(r['clipped'])}",
                 "—" if wr240.first_nonfinite(r["loss"]) is not None else f"{max(r['loss']):.4g}",
                 f"non-finite at epoch {wr240.first_nonfinite(r['loss'])}"
                 if wr240.first_nonfinite(r["loss"]) is not None else f"{r['loss'][-1]:.4f}")
             for c, r in runs.items()}
    row = lambda i: " | ".join(cells[c][i] for c in wr240.THRESHOLDS)
    ratios = [b / a for a, b in zip(healthy[1:t], before[1:])]
    assert_entry_says("WR-240", [
        ", ".join(f"{v:.2f}" for v in loose["loss"][:t]) + f", then inf at epoch {t} and nan from epoch {t + 1}",
        f"Not one step was clipped before the blow-up: {sum(loose['clipped'][:t])} of {t}",
        f"The gradient norm stayed between {min(before):.3g} and {max(before):.4g}",
        f"each of the snippet's {params} numbers",
        # Confirm it
        "At rate 1 the first six norms are " + ", ".join(f"{v:.3g}" for v in healthy[:5]) + f" and {healthy[5]:.3g}",
        "at rate 10 they were " + ", ".join(f"{v:.3g}" for v in before[:5]) + f" and {before[5]:.2g}",
        f"then {min(ratios):.0f} to {max(ratios):.0f} times larger",
        f"({healthy[0] / healthy[1]:.0f} times in one step at rate 1 here)",
        # Fix
        "| threshold | " + " | ".join(f"{c:g}" for c in wr240.THRESHOLDS) + " |",
        f"| steps clipped | {row(0)} |",
        f"| highest loss | {row(1)} |",
        f"| loss at epoch 299 | {row(2)} |",
        f"At 5 it acts on steps {', '.join(map(str, clipped_steps(runs[5.0])))} only, when the loss is already "
        f"{runs[5.0]['loss'][4]:.2f}".replace(", 5 only", " and 5 only"),
        "the first five norms are " + ", ".join(f"{v:.3g}" for v in before[:4]) + f" and {before[4]:.3g}",
        f"the norm is {np.median(guard[1:]):.2g} (median) and at most {guard[1:].max():.3g}",
        f"to about where rate 1 ends ({rate_one['loss'][-1]:.4f})",
        f"At 2 it acts only once, when the loss has already climbed to {max(runs[2.0]['loss']):.4g}.",
        f"At 1 it already cuts the first step ({guard[0]:.3g} to 1), not enough: the loss still spikes to "
        f"{max(runs[1.0]['loss']):.4g} and two more steps are clipped (steps "
        + ", ".join(map(str, clipped_steps(runs[1.0])[:-1])) + f" and {clipped_steps(runs[1.0])[-1]}).",
        f"At 0.5 the first step alone is cut, its norm of {guard[0]:.3g} to 0.5",
        f"it clips {sum(runs[0.0241]['clipped'])} of 300 steps",
        f"an unclipped rate of 3 ends lower ({lower_rate['loss'][-1]:.4f} after 300 epochs) than the clipped rate "
        f"10 ({runs[0.0241]['loss'][-1]:.4f})",
        "never passed 18",
    ])
    assert max(before) < 18
