"""WR-320: labels the loss cannot take -- NumPy's index rule (raise past the end, wrap below zero), the
binary cross-entropy with no minimum for a target above 1, the -1 that becomes the last class, and the
check and the table that fix them."""
import math
import warnings

import numpy as np
import pytest

from conftest import ROOT, assert_entry_says, load_snippet, tab_program_run

wr320 = load_snippet("wr320_bad_labels")
C = wr320.CLASSES


@pytest.fixture(scope="module")
def data():
    X, y = wr320.make_data()
    return X, y, wr320.labels_as_read(y)


@pytest.fixture(scope="module")
def pixels():
    return wr320.make_pixels()


@pytest.fixture(scope="module")
def wrapped(data):
    X, _, read = data
    return wr320.train_softmax(X, read["with_minus_one"])


@pytest.fixture(scope="module")
def ignored(data):
    X, _, read = data
    return wr320.train_softmax(X, read["with_minus_one"], scored=read["with_minus_one"] != -1)


def index_error(fn):
    with pytest.raises(IndexError) as caught:
        fn()
    return str(caught.value)


# --- NumPy's rule: -n <= i < n, negative indices count from the end ---------------------------------

@pytest.mark.parametrize("n", [2, C])
def test_an_index_at_n_or_below_minus_n_raises_the_quoted_error(n):
    z = np.zeros((3, n))
    assert index_error(lambda: wr320.cross_entropy(z, np.array([0, n, 1]))) == \
        f"index {n} is out of bounds for axis 1 with size {n}"
    assert index_error(lambda: wr320.cross_entropy(z, np.array([0, -n - 1, 1]))) == \
        f"index {-n - 1} is out of bounds for axis 1 with size {n}"


def test_every_negative_index_down_to_minus_n_is_the_class_n_plus_it():
    z = np.random.default_rng(0).normal(size=(5, C))
    for label in range(-C, 0):
        y = np.full(5, label)
        assert np.array_equal(wr320.cross_entropy(z, y), wr320.cross_entropy(z, y + C))
    assert np.array_equal(np.eye(C)[-1], np.eye(C)[C - 1])


def test_the_declared_numpy_template_matches_what_numpy_raises():
    from trainwreck.catalog import load

    declared = next(m for m in load(ROOT / "catalog").entries["WR-320"].messages if m.origin == "numpy")
    for text in (index_error(lambda: np.eye(C)[np.array([C])]),
                 index_error(lambda: wr320.cross_entropy(np.zeros((1, 2)), np.array([255])))):
        assert declared.matches(text), text


# --- the documented errors, as the Reproduce tab prints them ------------------------------------------

def test_reproduce_tab_prints_the_three_errors_and_exits_cleanly():
    run = tab_program_run("snippets/wr320_bad_labels.py", "reproduce")
    assert run.returncode == 0
    lines = run.stdout.splitlines()
    assert "    IndexError: index 10 is out of bounds for axis 1 with size 10" in lines
    assert "    IndexError: index 10 is out of bounds for axis 0 with size 10" in lines
    assert "    IndexError: index 255 is out of bounds for axis 1 with size 2" in lines
    assert "Traceback" not in run.stdout


# --- a 0/255 mask in a binary cross-entropy: no minimum, the loss goes below zero ----------------------

def test_the_bce_slope_is_never_zero_for_a_target_above_1():
    z = np.linspace(-40, 40, 8001)
    slope = 0.5 * (1 + np.tanh(z / 2)) - 255.0          # d/dz [softplus(z) - t z] at t = 255
    assert slope.max() <= -254 and slope.min() >= -255     # never near 0: no stationary point
    loss = wr320.softplus(z) - 255.0 * z
    assert np.all(np.diff(loss) < 0)                     # strictly falling: no minimum anywhere


@pytest.mark.parametrize("t", [0.0, 0.3, 1.0])
def test_for_targets_in_0_1_the_minimum_is_the_targets_entropy_and_never_negative(t):
    z = np.linspace(-40, 40, 80001)
    loss = wr320.softplus(z) - t * z
    entropy = 0.0 if t in (0.0, 1.0) else -(t * math.log(t) + (1 - t) * math.log(1 - t))
    assert loss.min() >= 0 and loss.min() == pytest.approx(entropy, abs=1e-6)


def test_the_mask_loss_falls_below_zero_by_a_constant_step(pixels):
    X, mask = pixels
    assert set(np.unique(mask)) == {0, 255} and mask.dtype == np.uint8
    losses = wr320.train_mask(X, mask.astype(float))["loss"]
    assert losses[0] == pytest.approx(math.log(2))
    assert all(v < 0 for v in losses[1:])
    steps = np.diff(losses[1:])
    assert np.all(steps < 0) and steps.std() < 1e-3 * abs(steps.mean())   # linear: the same drop every epoch


def test_the_mapped_mask_trains_and_stays_positive(pixels):
    X, mask = pixels
    binary = wr320.to_class_index(mask, [0, 255])
    assert np.array_equal(binary, mask // 255) and np.array_equal(binary, (mask / 255).astype(int))
    losses = wr320.train_mask(X, binary.astype(float))["loss"]
    assert min(losses) > 0 and losses[-1] < 0.6 * losses[0]


@pytest.mark.parametrize("scale", [255.0, 1.0])
def test_train_masks_step_is_the_gradient_of_its_loss(pixels, scale):
    """One step of train_mask from w = 0 moves w by -lr times the gradient of the loss it reports: compared
    with central finite differences of that loss, for 0/255 and for 0/1 targets."""
    X, mask = pixels
    t = (mask == 255) * scale
    lr = 0.5
    grad = -wr320.train_mask(X, t, lr=lr, epochs=1)["w"] / lr

    def loss(w):
        return wr320.train_mask(X, t, epochs=1, lr=0.0)["loss"][0] if w is None else float(
            np.mean(wr320.softplus(X @ w) - t * (X @ w)))

    assert loss(None) == pytest.approx(loss(np.zeros(2)), rel=1e-15)     # the loss train_mask reports
    h = 1e-6
    numeric = np.array([(loss(h * e) - loss(-h * e)) / (2 * h) for e in np.eye(2)])
    np.testing.assert_allclose(grad, numeric, rtol=1e-6, atol=1e-9)


def test_a_0_255_target_pushes_every_pixel_towards_foreground(pixels):
    """sigma(z) - 255 < 0 for every pixel, background included: descent raises every logit through the shared
    weights, and the model calls far more pixels foreground than there are; mapped to 0/1 it does not."""
    X, mask = pixels
    truth = mask == 255
    raw = wr320.train_mask(X, mask.astype(float))
    mapped = wr320.train_mask(X, truth.astype(float))
    assert raw["w"][1] > 0                                              # the constant feature: the bias rises
    assert wr320.foreground_share(X, raw["w"]) > 1.5 * truth.mean()
    assert wr320.foreground_share(X, mapped["w"]) == pytest.approx(truth.mean(), abs=0.03)
    predicted = X @ raw["w"] > 0
    assert wr320.dice(predicted, mask == 1) == 0                       # a metric reading the raw mask
    assert wr320.dice(X @ mapped["w"] > 0, truth) > wr320.dice(predicted, truth)
    assert_entry_says("WR-320", [f"foreground than there are ({wr320.foreground_share(X, raw['w']):.0%} against "
                                 f"{truth.mean():.0%} in the snippet)"])


# --- -1 nobody declared: the last class, a finite and wrong loss --------------------------------------

def test_minus_one_rows_are_scored_as_the_last_class(data, wrapped):
    X, y, read = data
    labels = read["with_minus_one"]
    skipped = labels == -1
    z = X @ wrapped["W"] + wrapped["b"]
    per_row = wr320.cross_entropy(z, labels)
    assert np.array_equal(per_row[skipped], -wr320.log_softmax(z)[skipped, C - 1])
    assert np.all(np.isfinite(per_row))


def test_the_reported_loss_is_finite_falling_and_not_the_loss_of_the_labelled_rows(data, wrapped, ignored):
    X, y, read = data
    labelled = read["with_minus_one"] != -1
    losses = wrapped["loss"]
    assert all(math.isfinite(v) for v in losses) and all(b < a for a, b in zip(losses, losses[1:]))
    z = X @ wrapped["W"] + wrapped["b"]
    on_labelled = wr320.cross_entropy(z[labelled], y[labelled]).mean()
    assert abs(losses[-1] - on_labelled) > 0.1                 # it measures the wrong labelling
    assert on_labelled > 2 * ignored["loss"][-1]               # and the model it made is worse


def test_the_last_class_is_overpredicted_until_minus_one_is_ignored(data, wrapped, ignored):
    _, y, _ = data
    truth = np.mean(y == C - 1)
    assert wrapped["last_share"][-1] > 3 * truth
    assert abs(ignored["last_share"][-1] - truth) < 0.03


# --- the fix: the check names each case, the table maps by value and refuses the rest ------------------

def test_check_labels_catches_each_case_and_passes_clean_ones(data, pixels):
    _, y, read = data
    _, mask = pixels
    assert wr320.check_labels(y, C) == []
    assert wr320.check_labels(read["one_based"], C) == [
        f"{np.sum(read['one_based'] == C)} label(s) outside 0..{C - 1}: {C} (values present: 1..{C})"]
    assert wr320.check_labels(mask, 2)[0].startswith(f"{np.sum(mask == 255)} label(s) outside 0..1: 255")
    assert wr320.check_labels(read["with_minus_one"], C)[0].startswith(
        f"{np.sum(read['with_minus_one'] == -1)} label(s) outside 0..{C - 1}: -1")
    assert wr320.check_labels(read["with_minus_one"], C, ignore=-1) == []
    assert wr320.check_labels(np.array([0, 1, -100]), C, ignore=-1) != []    # only the declared value passes


def test_the_table_refuses_a_value_it_does_not_list():
    assert wr320.to_class_index(np.array([1, 10, 5]), np.arange(1, C + 1)).tolist() == [0, 9, 4]
    assert wr320.to_class_index(np.array([255, 0, 255]), [255, 0]).tolist() == [0, 1, 0]     # in the table's order
    assert wr320.to_class_index(np.array([3, 1, 2]), [3, 1, 2]).tolist() == [0, 1, 2]
    with pytest.raises(ValueError, match=r"label values not in \[3, 1\]: \[2\]"):
        wr320.to_class_index(np.array([3, 2]), [3, 1])
    with pytest.raises(ValueError, match=r"label values not in \[0, 255\]: \[128\]"):
        wr320.to_class_index(np.array([0, 128, 255], dtype=np.uint8), [0, 255])


def test_fix_tab_prints_no_error_and_a_healthy_run():
    run = tab_program_run("snippets/wr320_bad_labels.py", "fix")
    assert run.returncode == 0
    assert "Error" not in run.stdout and "Traceback" not in run.stdout
    assert "labels with -1 declared as ignored: all labels are class indices" in run.stdout


def test_the_snippet_runs_without_numpy_warnings(data, pixels):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        wr320.figure_data()


# --- every number in the prose ----------------------------------------------------------------------

def test_numbers_in_the_entry_match_the_snippet(data, pixels, wrapped, ignored):
    X, y, read = data
    _, mask = pixels
    raw = wr320.train_mask(pixels[0], mask.astype(float))["loss"]
    mapped = wr320.train_mask(pixels[0], wr320.to_class_index(mask, [0, 255]).astype(float))["loss"]
    labelled = read["with_minus_one"] != -1
    z = X @ wrapped["W"] + wrapped["b"]
    assert_entry_says("WR-320", [
        f"In the snippet the loss is {raw[0]:.4f} at epoch 0, −{-raw[1]:.4f} at epoch 1 and "
        f"−{-raw[-1]:.4f} at epoch {len(raw) - 1}",
        f"In the snippet {np.mean(~labelled):.0%} of the rows are −1",
        f"falls from {wrapped['loss'][0]:.4f} to {wrapped['loss'][-1]:.4f} in {len(wrapped['loss'])} epochs",
        f"class {C - 1} is predicted for {wrapped['last_share'][-1]:.0%} of the rows, though it is the class of "
        f"{np.mean(y == C - 1):.0%} of them",
        f"the same model's loss is {wr320.cross_entropy(z[labelled], y[labelled]).mean():.4f}",
        f"predict the last class far more often than it occurs: for {wrapped['last_share'][-1]:.0%} of the rows, "
        f"against its true share of {np.mean(y == C - 1):.0%}",
        f"the check reports {np.sum(read['one_based'] == C)} labels equal to {C} in the one-based file, "
        f"{np.sum(mask == 255)} mask values of 255, and {np.sum(~labelled)} labels of −1",
        f"falls from {mapped[0]:.4f} to {mapped[-1]:.4f} and never goes below 0",
        f"trained on the {labelled.sum()} labelled rows",
        f"falls from {ignored['loss'][0]:.4f} to {ignored['loss'][-1]:.4f} and predicts class {C - 1} for "
        f"{ignored['last_share'][-1]:.0%} of the rows",
    ])


def test_the_slope_numbers_in_the_prose(pixels):
    t = int(pixels[1].max())                                  # the mask's foreground value
    z = np.array([-50.0, 0.0, 50.0])
    slope = 0.5 * (1 + np.tanh(z / 2)) - t                    # sigma(z) - t: from -t (far left) to 1 - t (far right)
    assert slope[0] == pytest.approx(-t) and slope[-1] == pytest.approx(1 - t)
    assert_entry_says("WR-320", [f"For t = {t} the slope lies between −{t} and −{t - 1} for every z",
                                 f"about {t - 1} for every unit of z"])


# --- a 0/1 mask scaled like the images: the foreground becomes a background label --------------------

@pytest.fixture(scope="module")
def vanished(pixels):
    X, mask = pixels
    mask01 = mask // 255
    scaled = wr320.scaled_like_images(mask01)
    run = wr320.train_mask(X, scaled)
    return {"mask01": mask01, "scaled": scaled, "loaded": (scaled > 0.5).astype(int), "run": run,
            "called": (X @ run["w"] > 0).astype(int),
            "right": wr320.train_mask(X, mask01.astype(float))}


def test_a_target_of_1_over_255_has_its_minimum_at_a_logit_of_minus_ln_254():
    z = np.linspace(-12, 4, 160001)
    t = 1 / 255
    loss = wr320.softplus(z) - t * z
    entropy = -(t * math.log(t) + (1 - t) * math.log(1 - t))
    assert z[loss.argmin()] == pytest.approx(-math.log(254), abs=1e-3)
    assert loss.min() == pytest.approx(entropy, abs=1e-9) and round(entropy, 4) == 0.0256
    assert_entry_says("WR-320", [f"σ(z) = 1/255, a logit of −ln 254 ≈ −{math.log(254):.2f}",
                                 f"the entropy of 1/255, {entropy:.4f} nats"])


def test_the_scaled_mask_trains_lower_than_the_right_one_and_finds_no_foreground(vanished):
    assert np.unique(vanished["scaled"]).tolist() == [0.0, 1 / 255]
    losses, right = vanished["run"]["loss"], vanished["right"]["loss"]
    assert all(b < a for a, b in zip(losses, losses[1:]))          # a curve that looks like learning
    assert losses[-1] < right[-1]                                   # ... better than the right model's
    assert vanished["called"].sum() == 0                            # and no pixel called foreground
    assert vanished["loaded"].sum() == 0 and wr320.check_labels(vanished["loaded"], 2) == []
    assert wr320.class_counts(vanished["loaded"], 2).tolist() == [len(vanished["loaded"]), 0]
    assert wr320.class_counts(vanished["mask01"], 2).tolist() == [int((vanished["mask01"] == 0).sum()),
                                                                  int(vanished["mask01"].sum())]


@pytest.mark.parametrize("share", [0.0, 0.01, 0.2, 0.4175, 0.7])
def test_calling_everything_background_scores_half_of_one_minus_the_foreground_share(share):
    """Mean IoU over two classes of an all-background prediction: (1 - f)/2, so exactly 0.5 only where the
    labels hold no foreground (the absent class scores 0, as intersection / (union + eps) gives it)."""
    n = 2000
    truth = (np.arange(n) < round(share * n)).astype(int)
    assert wr320.mean_iou(np.zeros(n, int), truth) == pytest.approx((1 - round(share * n) / n) / 2, abs=1e-12)


def test_the_scaled_masks_mean_iou_is_half_against_its_labels_and_less_against_the_truth(vanished):
    f = vanished["mask01"].mean()
    assert wr320.mean_iou(vanished["called"], vanished["loaded"]) == 0.5
    assert wr320.mean_iou(vanished["called"], vanished["mask01"]) == pytest.approx((1 - f) / 2, abs=1e-12)


def test_numbers_of_the_vanished_foreground_in_the_entry(pixels, vanished):
    X, _ = pixels
    losses, right = vanished["run"]["loss"], vanished["right"]["loss"]
    f = vanished["mask01"].mean()
    on_truth = wr320.mean_iou(vanished["called"], vanished["mask01"])
    right_called = (X @ vanished["right"]["w"] > 0).astype(int)
    assert_entry_says("WR-320", [
        f"holds 0 and {1 / 255:.4f}",
        f"falls from {losses[0]:.4f} to {losses[-1]:.4f} in {len(losses)} epochs, lower than "
        f"the same model reaches on the right mask ({right[-1]:.4f})",
        f"called foreground ({vanished['called'].mean():.0%}, against a true share of {f:.0%})",
        f"is {wr320.mean_iou(vanished['called'], vanished['loaded']):.4f} at every epoch",
        f"against the true mask it is {on_truth:.4f}",
        f"(1 − {f:.4f})/2 = {on_truth:.4f}",
        f"counts {len(vanished['loaded'])} pixels of class 0 and none of class 1 where the file holds "
        f"{vanished['mask01'].sum()} of class 1",
        f"trains to {right_called.mean():.0%} of the pixels called foreground and a mean IoU of "
        f"{wr320.mean_iou(right_called, vanished['mask01']):.4f}",
    ])


def test_the_scaled_masks_iou_is_half_at_every_epoch(pixels, vanished):
    X, _ = pixels
    for epochs in range(1, 11):
        w = wr320.train_mask(X, vanished["scaled"], epochs=epochs)["w"]
        assert wr320.mean_iou((X @ w > 0).astype(int), vanished["loaded"]) == 0.5


def test_the_tabs_print_the_vanished_foreground():
    out = tab_program_run("snippets/wr320_bad_labels.py", "reproduce").stdout
    assert "  pixels called foreground: 0%; the mask's true share: 42%" in out.splitlines()
    assert "  mean IoU against the labels as loaded: 0.5000; against the true mask: 0.2913" in out.splitlines()
    fixed = tab_program_run("snippets/wr320_bad_labels.py", "fix").stdout
    assert "The 0/1 mask scaled like the images, counted per class as the loss receives it: [400, 0]" in fixed
    assert "(the range check passes: all labels are class indices); unscaled: [233, 167]" in fixed

