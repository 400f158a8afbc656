"""Facts of a paste besides its curve, gathered (printed_facts): what its code and words show of the run (a model
that returns probabilities to a loss that wants logits, weights set to zero, a number past exp's limit, inputs said
not scaled, a regression's enormous first loss...), and the columns printed beside the loss (gradient norms, an
accuracy, a learning rate).

Each kind of reading has a module of its own, named for what it reads (breaking_constructs, input_scaling,
softmax_floor, gradient_clearing, ...); printed_facts asks them and words each fact. Each fact goes to the entries
whose own phrases say so (the *_WORDS sets: weighing.py finds them in the catalogue); none is a verdict on its own.
"""
from __future__ import annotations

import itertools
import math
import re
import statistics

from .clip_unused import CLIP_NO_EFFECT_SAID, clip_never_applied
from .breaking_constructs import (MASKED_INF, breaking_construct, mask_row_printed, code_of, divides_by_norm, norm_of_relu_output,
                                  inverse_of_sum, loss_def_body, token_counts, y_pred_slices)
from .curve_shape import (ACCURACY_RISE, ENORMOUS_START, NOT_A_MEAN, PLATEAU_FALL, Signature, at_run_start,
                          broke_early_without_warmup, did_not_fall, flat_tail, fmt, nonfinite_past_the_log, pinned_at_uniform,
                          rate_at_top_as_the_loss_rose, same_batch_jumps, words_say_nonfinite)
from .data_checked import data_said_finite, inputs_only
from .data_values import (ADAPT_CALL, CLASSES_COUNTED, classes_short, DIVIDED_255, DIVIDED_255_ITSELF, IMAGE_READER, INPUT_NAME,
                          KERAS_NORMALIZATION, KERAS_UINT8, LABELS_REMAPPED, MASK_255, MASK_255_HANDLED, MAX_255,
                          MERGED, MINUS_ONE_HANDLED, MINUS_ONE_LABELS, NOT_INPUT_NAME, TORCHVISION_IO, dataset_data,
                          albumentations_unscaled, image_tensor_unscaled, keras_directory_unscaled, mask_own_divider,
                          mask_to_tensor, raw_units_read,
                          table_read_missing_unhandled,
                          read_and_made_float, input_stats_nonfinite, pil_to_tensor_unscaled, uint8_store_made_float,
                          scaling_said)
from .exp_limits import exp_overflow
from .frozen_said import (dead_layer_printed, dead_units_said, froze_after_jumps_said, one_output_untrained, units_alike_said, weights_frozen_said,
                          width_changes_nothing_said)
from .gradient_clearing import (ACCUMULATES, BACKWARD_STEP, GRAD_REQ_ADD, UNCALLED, accumulated_undivided,
                                carried_into_the_discriminator, cleared_after, cleared_only_when, cleared_outside, clears,
                                jax_accumulator_never_reset, numpy_buffer_never_reset,
                                optimizer_never_cleared, copy_cleared)
from .gradient_norms import activations_grow_with_depth, gradients_shrink_to_the_input, grads_said_zero, norms_below_clip
from .input_scaling import (CONSTANT_FEATURE, DIVIDES_BY_STD, feature_scales_printed, per_item,
                            divides_by_a_named_std, per_item_said, standardised_by_hand,
                            std_division_warned, zero_inputs_said)
from .labels_printed import PAST_LAST_LOGIT, labels_past_outputs
from .logscan import Evidence, dialects
from .logscan.evidence import ACCURACY_ENDS
from .logscan.positions import epoch_number, step_number
from .loss_inputs import ctc_below_zero, nll_of_probabilities, sigmoid_twice_printed
from .loss_scale import (SCALES_MIN, SCALE_COLLAPSE, autocast_unscaled_said, keras_loop_unscaled, scales_printed,
                         torch_autocast_unscaled)
from .normals import gan_failure_said
from .one_class_iou import one_class_iou
from .optimizer_setup import RATE_CLIMBS, high_adaptive_rate, rate_rose
from .rate_tried import broke_before_update, lr_tried, rate_zero_failed
from .run_kind import IMAGE_TO_IMAGE, OTHER_TARGET, SUMMED, absolute_loss, linear_model
from .sequence_losses import ctc_blank_label
from .run_said import (BEFORE_TRAINING_NONFINITE, faster_start_said, fell_then_broke, loss_climb_said, losses_built,
                       short_of_a_trivial_reference, short_of_reference_said,
                       not_learning_sentences, order_moved_it, nonfinite_skipped, own_data_only, RL_RUN, says_not_learning,
                       untrained_output_enormous, untrained_output_nonfinite)
from .schedule_said import ADAPTIVE, PLAIN_SGD, WARMUP_SET, no_warmup_said
from .sentences import denied_before, sentences_only, told
from .softmax_floor import FLOOR_TAIL, accuracy_rose_said, softmax_floor, softmax_floor_said
from .printed_sizes import input_range_printed, target_size_printed
from .start_loss import early_jump_seen, regression_start_said, start_high
from .thesaurus import tokens
from .timing_words import timing_of
from .weight_init import (ALL_PARAMS_ZERO, CONSTANT_INIT_SAID, FILLED, LARGE_INIT, LAYERS_BUILT, NUMPY_ZERO_WEIGHTS,
                          ZERO_FILL, ZERO_FILLED,
                          UNFILLED, constant_kernel_init, init_too_wide, network_of_layers, parameters_zeroed_in_loop,
                          update_discarded,
                          weights_set_by, zero_tables_multiplied, zeros_loaded)
from . import lazy_regex

# Why a run with no warmup breaks at its start, said once for the facts that read it (said, printed, or seen as a jump)
ADAM_FIRST_STEP = ("without warmup, Adam's first step moves every parameter by about the full learning rate, however "
                   "small its gradient")
ZERO_GRADIENT_WORDS, ACCURACY_WORDS = {"gradient", "exactly", "zero"}, {"accuracy", "improve"}
# The entries whose phrases say every input gets one output (a dead or a symmetric network's face): half a printed
# fact for words that say so (frozen_said)
ONE_OUTPUT_WORDS = {"output", "input"}
# The entries whose phrases say ReLU units output zero: for words that say the hidden units are dead or give 0 for
# every input (frozen_said.dead_units_said), half a printed fact
DEAD_UNITS_WORDS = {"relu", "unit", "zero"}
SIGMOID_ZERO_WORDS = {"sigmoidzero"}
# The entries whose phrases say a model's output is nan from the start (a layer never initialised, weights that blow
# the forward pass up): for a report whose words say an untrained model's output is nan
# (run_said.untrained_output_nonfinite), half a printed fact.
UNTRAINED_OUTPUT_WORDS = {"output", "nan", "when_start"}
# The entries whose phrases say the run had no learning-rate warmup: for a report whose words say so (no warmup, a
# constant rate from step 0, the schedule removed) beside a run that went wrong, half a printed fact.
NO_WARMUP_WORDS = {"without", "warmup"}
# The entries whose phrases say the failure is there at a learning rate of zero: for a report whose words say so
# (rate_tried.rate_zero_failed), beside a run that went wrong, half a printed fact.
RATE_ZERO_WORDS = {"lr", "zero"}
# the entries whose phrases say the loss jumps at one batch (same_batch_jumps' fact)
ONE_BATCH_WORDS = {"jump", "batch"}
# ... and those whose phrases say a lower rate only delays their failure (WR-260), for a report that says so
PUT_OFF_WORDS = {"lr", "delay"}
# ... and those whose phrases say the training stalled after loss spikes (WR-140): for a report that says its loss
# jumped and then froze at one value (frozen_said.froze_after_jumps_said), half a printed fact
JUMP_FROZEN_WORDS = {"stall", "spike"}
# ... and those whose phrases say the loss falls fast and then comes back up (WR-260's start): for a report that says
# its loss fell faster than the run it is compared with and then turned (run_said.faster_start_said), half a printed fact
FASTER_START_WORDS = {"fast", "back"}
# The entries whose phrases say a lower rate does not move the step where the loss breaks (a bad batch breaks where
# it is met, whatever the rate): a lower rate that did not help is evidence for them, one that put the failure off
# evidence against.
RATE_PROOF_WORDS = {"lower", "lr", "move", "step"}
# ... and those whose phrases say the step moves when the data is shuffled otherwise (run_said.order_moved_it): half a
# printed fact for them where the report says so
ORDER_BOUND_WORDS = {"shuffl", "move", "step"}

# (the end of the facts of a failure with no update, and of float16 gradients left unscaled)
NO_UPDATE_MADE_IT = "no update had moved the weights, so the forward pass from the initial weights, or the data, made it"
UNSCALED_ROUND = "float16 gradients under about 3e-08 (2^-25) round to 0 unscaled"


# PyTorch's repr of a tensor that holds a nan in its first row, printed after an error (a distribution's "found
# invalid values:", then `tensor([[nan, nan, ...`): not `torch.tensor([nan, ...])` written in code, nor a tensor a
# report prints with no error (an input's missing value)
NAN_TENSOR_PRINTED = lazy_regex.compile(r"(?<![\w.])tensor\(\[+[^\]\n]{0,300}?(?<![\w.])nan\b")
ERROR_THEN_TENSOR = lazy_regex.compile(r"(?:Error|Exception)\b[^\n]{0,400}\n(?:[^\n]*\n){0,2}?[ \t]*tensor\(\[")


def _whole_epoch_finite(ev: Evidence) -> bool:
    """Do the finite losses before any non-finite one span two epochs or more (a whole epoch trained finite)?"""
    finite = ev.count if ev.first_nonfinite is None else ev.first_nonfinite
    return len({epoch_number(p) for i in range(min(finite, 400)) if (p := ev.at(i)) is not None} - {None}) >= 2


# A squared error still this large at a run's last value: far above what a head that had learnt only the mean of
# unit-scale targets scores (their variance, 1) -- targets left in their units, not a loss that fell to 9
STILL_LARGE_MSE = 100.0
REDUCTION_NONE = lazy_regex.compile(r"reduction\s*=\s*['\"]none['\"]|Reduction\.NONE\b")


# A model trained to give back its own inputs: `model.fit(X_train, X_train, ...)`, `crit(model(xb), xb)`
# (`fit(x=X, y=X)` too; and a loss-like call on the output of a call of x and on x itself, or on a name made so: `recon =
# model(x)` then `criterion(recon, x)` -- not `print(len(x), x)`)
_LOSS_CALL = r"\b\w*(?:loss|crit\w*|mse|l1|l2|bce|error)\w*\("
TRAINED_ON_ITS_INPUTS = lazy_regex.compile(r"\b(?:fit|train_on_batch)\(\s*(?:x\s*=\s*)?([A-Za-z_][\w.]*)\s*,\s*(?:y\s*=\s*)?\1\s*[,)]|"
                                           + _LOSS_CALL + r"\s*(?:self\.)?\w+\(\s*([A-Za-z_]\w*)\s*\)\s*,\s*\2\s*\)|"
                                           r"^[ \t]*(\w+)\s*=\s*(?:self\.)?\w+\(\s*([A-Za-z_]\w*)\s*\)[ \t]*(?:#[^\n]*)?\n"
                                           r"(?:[^\n]*\n){0,3}?[^\n]*" + _LOSS_CALL + r"\s*\3\s*,\s*\4\s*\)", re.I | re.M)


def _stopped_where_said(ev: Evidence) -> bool:
    """Does the printed loss end no lower than PLATEAU_FALL below its first value (did_not_fall), or have its last values
    stopped moving (flat_tail) at a level the report's sentences give ("stuck at 0.0096 and never goes lower")? Beside
    it, words that the run does not learn are about this loss, and the run's own verdict: a curve still falling, or one
    that levelled off where the words say nothing of, outranks them."""
    if ev.count < 3 or ev.first_nonfinite is not None or not ev.head[0] > 0:
        return False
    if did_not_fall(ev):
        return True
    if not flat_tail(ev):
        return False
    # (a number the sentence that says so gives: "my loss gets stuck at 0.0096." -- not a log line's, nor a setting's
    # in a sentence that says nothing of learning)
    said = [float(n) for sentence in not_learning_sentences(ev.prose)
            for n in re.findall(r"(?<![\w.])\d+(?:\.\d+)?(?:e-?\d+)?(?!\w|\.\d)", sentence)]
    return any(abs(n - ev.last) <= PLATEAU_FALL * ev.last for n in said)


def _loss_not_a_mean(prose: str) -> bool:
    """Does the paste make its loss something other than a mean (NOT_A_MEAN)? Where the code builds a framework's loss,
    a mean unless told otherwise, a `.sum()` on a line that names no loss is a metric's or a count's (the test loop's
    absolute error summed over the examples): only one on a loss's line (`loss = F.mse_loss(p, y).sum()`), any beside a
    loss built with reduction='none' (whose elements something must then reduce), or another of NOT_A_MEAN's forms (a
    regularizer, add_loss) counts."""
    if not losses_built(prose) or REDUCTION_NONE.search(prose):
        return bool(NOT_A_MEAN.search(prose))
    for m in itertools.islice(NOT_A_MEAN.finditer(prose), 20):
        end = prose.find("\n", m.end())
        line = prose[prose.rfind("\n", 0, m.start()) + 1:end if end >= 0 else len(prose)]
        if m.group(0) != ".sum(" or re.search(r"(?i)\bloss", line):
            return True
    return False


def printed_facts(ev: Evidence, sig: Signature, words: list[str], regressor: str,
                   scaled: dict[str, dict[str, str]], unjudged: bool = False,
                   sentences: str | None = None) -> dict[str, str]:
    """What the log prints beside the loss, or the words say was printed, that one failure produces
    (see W_PRINTED). (`regressor`: what shows a regression's run, regressor_shown; `scaled`: what the words say was
    scaled, scaled_said; `unjudged`: a curve too short to judge, beside words that say the run went wrong; `sentences`:
    the report's own sentences, sentences_only, when the caller has them already)"""
    out = {}
    # (an enormous start is no health, nor is a start the words give far above ln C)
    # (or words that the loss climbs: "it falls for a while, then goes back up within each epoch")
    # (or a GAN said or printed to have broken: a discriminator's loss that fell to 0 is the failure, not a healthy fall)
    frozen_accuracy = accuracy_frozen(ev)
    went_wrong = sig.name != "healthy" or unjudged or bool(sig.enormous_start) or bool(start_high(ev)) \
        or bool(frozen_accuracy) \
        or loss_climb_said(ev.prose) \
        or bool(gan_failure_said(ev.prose)) \
        or bool(dead_units_said(ev.prose)) \
        or says_not_learning(ev.prose) and (bool(RL_RUN.search(ev.prose)) or _stopped_where_said(ev)) \
        or bool(short_of_reference_said(ev.prose)) \
        or nonfinite_past_the_log(ev, sig) \
        or bool(nonfinite_skipped(ev.prose)) \
        or bool(pinned_at_uniform(ev))
    # (and words that the run does not learn, beside a loss that did not fall or stopped where the words say: their own
    # verdict on this loss)
    # (a layer said dead is a run gone wrong, whatever its curve did; so is an RL agent said not to learn, whose loss
    # falls while its reward stays at the floor -- the loss is not the measure there; a run whose non-finite losses
    # a guard skipped, its printed curve finite without them; and a classifier pinned at the uniform guess)
    handed = nll_of_probabilities(ev)
    if handed:
        out["nll-of-probabilities"] = handed
    handed = ctc_below_zero(ev)
    if handed:
        out["ctc-not-log-probabilities"] = handed
    handed = sigmoid_twice_printed(ev.prose)
    if handed:
        out["sigmoid-twice-printed"] = handed
    again = same_batch_jumps(ev)
    if again:
        out["same-batch"] = again
    # (the whole paste: a paragraph dense with numbers and `shuffle=True` reads as code to sentences_only, and the
    # reading asks each sentence for its own words of a place that moved)
    moved = order_moved_it(ev.prose)
    if moved:
        out["order-moved"] = (f"the report says the place it broke moved when the data's order changed (\"{moved}\"): "
                              "a batch of the data brings it, wherever the order puts that batch")
    scales = feature_scales_printed(ev.prose) if "inputs" not in scaled["scaled"] else ""
    if scales:
        out["feature-scales"] = scales
    shrinking = gradients_shrink_to_the_input(ev.prose)
    if shrinking:
        out["first-layers"] = shrinking
    if went_wrong and (growing := activations_grow_with_depth(ev.prose)):
        out["activations-grow"] = growing
    # A regression's squared error is about the targets' mean square while the outputs are still near 0: a first
    # loss of ENORMOUS_START or more that never fell to half of it takes errors of its root's size, targets in their
    # raw units (or outputs broken from the start: the entries of that shape have the enormous start's part). Only
    # a loss that never fell to half of it (the enormous start's own rule), that is no sum over many examples or
    # pixels (reduction='sum' makes any loss enormous), and whose targets the words do not say were scaled. A loss
    # that climbed from there counts too, under plain gradient descent of a layered network: the residual multiplies
    # the output's second derivative in the loss's Hessian, so targets hundreds of times larger make a rate that suits
    # unit-scale ones diverge (WR-360's own symptom; a rate too high alone starts from an ordinary loss). Not a
    # linear model's climb (its Hessian is X^T X / n, whatever the targets: its rate is too high), nor one under an
    # adaptive optimiser alone (Adam's step does not grow with the gradient: raw targets leave its loss sitting
    # high), nor where the words say the inputs were raw (their outputs start enormous too, WR-330's).
    climbed = ev.high is not None and ev.high > 2 * ev.head[0]
    # (a climb that is not the raw targets' face: raw inputs', a linear model's, or one under an adaptive optimiser alone)
    climb_of_another = climbed and ("inputs" in scaled["unscaled"] or linear_model(ev.prose)
                                    or (ADAPTIVE.search(ev.prose) and not PLAIN_SGD.search(ev.prose)))
    if regressor and sig.enormous_start and not SUMMED.search(ev.prose) and "targets" not in scaled["scaled"] \
            and not climb_of_another:
        first = ev.head[0]
        size = (f"an absolute error that large takes errors of about {fmt(first)}" if absolute_loss(ev.prose)
                else f"a squared error that large takes errors of about {fmt(math.sqrt(first))} (its root)")
        # (it fell to half of it only in a run that then broke: said as it was)
        fell = ev.low is not None and ev.low <= first / 2
        out["raw-targets"] = (f"{regressor} (a regression's run), and its first loss ({fmt(first)}) is enormous"
                              + (" (it fell below half of it before the run broke)" if fell else
                                 " and never fell to half of it")
                              + f": {size}, targets in their raw units")
    # ... and one that fell and is still ENORMOUS_START or more at its last value, in a report whose words say it
    # does not learn ("MAE stuck in the thousands"), or does worse than a constant prediction or a linear fit: a squared error on unit-scale targets is about their variance,
    # 1, at worst; still 7.1e+07 after 99 epochs (Adam's steps, about its rate each, carry the output toward targets
    # in the tens of thousands only slowly) takes errors of thousands. (A loss in raw units that falls, with no such
    # words, may be a run learning in those units: no evidence.)
    # (one value will do, a run's summary: the words say the run never learnt)
    elif regressor and ev.first_nonfinite is None and (ev.count >= 3 and ENORMOUS_START <= ev.last < ev.head[0]
                                                       or ev.count == 1 and ev.last >= ENORMOUS_START) \
            and ((not_learning := says_not_learning(ev.prose)) or short_of_a_trivial_reference(ev.prose)) \
            and not SUMMED.search(ev.prose) and "targets" not in scaled["scaled"] \
            and "inputs" not in scaled["unscaled"]:
        size = (f"an absolute error that large takes errors of about {fmt(ev.last)}" if absolute_loss(ev.prose)
                else f"a squared error that large takes errors of about {fmt(math.sqrt(ev.last))} (its root)")
        still = "is still" if ev.count > 1 else "is"
        words = "does not learn" if not_learning else "does worse than a constant prediction or a linear fit"
        out["raw-targets"] = (f"{regressor} (a regression's run), and its loss {still} {fmt(ev.last)} at its last value "
                              f"({ev.where(ev.count - 1)}), in a run the words say {words}: {size}, targets in "
                              "their raw units")
    # ... and one whose first loss was ENORMOUS_START or more and fell, in a run gone wrong (one output for every input,
    # words that it does not learn): the first loss still says the targets' size -- a fresh network's outputs are near
    # 0, and an epoch's mean that holds the start is no larger than it -- whatever the steps after it did (a head that
    # settles on the targets' mean scores their variance, and stays there)
    # (or beside words that it does not learn, where its last value is still STILL_LARGE_MSE or more)
    elif regressor and (went_wrong or (says_not_learning(ev.prose) and ev.last >= STILL_LARGE_MSE)) \
            and ev.first_nonfinite is None \
            and ev.count >= 2 and ev.head[0] >= ENORMOUS_START \
            and ev.last <= ev.head[0] / 2 and not climbed \
            and at_run_start(ev) and not SUMMED.search(ev.prose) and not _loss_not_a_mean(ev.prose) \
            and not absolute_loss(ev.prose) and "targets" not in scaled["scaled"] and "inputs" not in scaled["unscaled"]:
        out["raw-targets"] = (f"{regressor} (a regression's run), and its first loss ({fmt(ev.head[0])}) is enormous, "
                              f"though it fell to {fmt(ev.last)}: a mean squared error that large, on outputs still "
                              f"near 0, takes targets of about {fmt(math.sqrt(ev.head[0]))} in size (its square root), "
                              "in their raw units")
    # ... and, with no loss printed, a regression's first loss said in words and enormous ("the MSE starts at 3.1e7")
    elif regressor and not ev.count and not SUMMED.search(ev.prose) and not _loss_not_a_mean(ev.prose) \
            and "targets" not in scaled["scaled"] and "inputs" not in scaled["unscaled"] \
            and (said := regression_start_said(ev.prose)):
        value, quoted = said
        size = (f"an absolute error that large takes errors of about {fmt(value)}" if absolute_loss(ev.prose)
                else f"a squared error that large takes errors of about {fmt(math.sqrt(value))} (its root)")
        out["raw-targets-said"] = (f"{regressor} (a regression's run), and the report gives its first loss as "
                                   f"{fmt(value)} (\"{quoted}\"): {size}, targets in their raw units")
    # ... and, where no loss shows it (an epoch's mean is pulled down by the steps after the first updates), the
    # targets' own size printed by the paste: the start their squared error makes, under the same conditions
    if regressor and went_wrong and not {"raw-targets", "raw-targets-said"} & out.keys() \
            and not SUMMED.search(ev.prose) and "targets" not in scaled["scaled"] and not absolute_loss(ev.prose) \
            and not climb_of_another and (size := target_size_printed(ev.prose, ev.head[0] if ev.count else None)):
        out["target-size"] = size
    if SIGMOID_ZERO_WORDS <= set(words):
        out["sigmoid-zero"] = ("the report says the output is 0.5: a sigmoid gives exactly that for an input of 0, "
                               "which a last layer whose weights and bias are all zero gets for every example (a model "
                               "stuck at one output on balanced classes prints about 0.5 too)")
    untrained = untrained_output_nonfinite(ev.prose)
    # (with loss values, only where the words say the output was broken before any training: "even predict() before
    # training returns nan")
    if untrained and (not ev.count or BEFORE_TRAINING_NONFINITE.search(untrained)):
        out["untrained-output"] = ("before any update only the forward pass can make the output nan, not a loss or a "
                                   "step: the weights (and buffers) it starts from, the inputs it is given, or an "
                                   "operation inside it that turns finite values into nan (a softmax over a fully "
                                   "masked row, 0/0, the log or square root of a negative, a float16 overflow)")
    enormous = untrained_output_enormous(ev.prose)
    if enormous:
        out["untrained-output-enormous"] = (f"the report says the output is enormous before any update (\"{enormous}\"): "
                                            "no step has been taken, so no learning rate made it so; what the forward "
                                            "pass starts from did -- weights drawn too wide for their fan-in, or "
                                            "inputs on their raw scale")
    # (beside a run that went non-finite, or words that say it did)
    nonfinite = ev.first_nonfinite is not None or "nan" in words or "inf" in words
    if nonfinite and (stats := input_stats_nonfinite(ev.prose)):
        out["input-stats-nonfinite"] = stats
    if nonfinite and (own := own_data_only(ev.prose)):
        out["own-data-only"] = (f"the report says the failure shows only on its own data (\"{own}\"): the code and its "
                                "settings ran without it elsewhere, so what differs is the data -- beside a nan, a value "
                                "that data brings")
    merged = MERGED.search(ev.prose) if ev.first_nonfinite is not None or "nan" in words else None
    if merged:
        out["frames-merged"] = (f"the report merges tables into its data (\"{' '.join(merged.group(0).split())}\"): a row "
                                "whose key has no match in the other table gets nan in that table's columns (pandas "
                                "fills what a merge or a concatenation leaves empty with nan), and one nan in a "
                                "feature makes the loss of every batch it is in nan")
    # (from the run's first values only: an epoch visits every row, so a nan in a column makes the first epoch's loss nan
    # -- one that came after finite epochs is another's; and not where the words say the data has no missing value)
    read = table_read_missing_unhandled(ev.prose) if _broken_from_start(ev, sig, words, first_printed=True) else ""
    if read and not merged and not data_said_finite(ev.prose):
        out["table-nan-unhandled"] = (f"the paste reads its data with `{read}()` and nothing in it fills, drops or looks "
                                      "for a missing value: pandas gives a missing value as nan (read_csv and read_excel "
                                      "read an empty field, NA, NULL or n/a so by default), and one nan in a feature "
                                      "makes the loss of every batch it is in nan")
    if (layer := KERAS_NORMALIZATION.search(ev.prose)) \
            and (adapt := re.search(ADAPT_CALL % re.escape(layer.group("name")), ev.prose)) \
            and (untrained or _broken_from_start(ev, sig, words)):
        out["adapted-nan"] = (f"the paste adapts a Keras Normalization layer (`{adapt.group(0)}`) and the run is nan "
                              "from its first step: that layer divides by the larger of the standard deviation and "
                              "1e-7, so a column that never varies cannot make it nan -- but one nan in the data it "
                              "adapted on makes that column's mean and variance nan, and every row after the layer")
    scales = scales_printed(ev.prose)
    # (from its highest on: a scale that grew while the run trained, then collapsed)
    scales = scales[max(range(len(scales)), key=lambda i: (scales[i], -i)):] if scales else scales
    if len(scales) >= SCALES_MIN and scales[0] >= 1 and scales[-1] <= SCALE_COLLAPSE * scales[0] \
            and all(b <= a for a, b in zip(scales, scales[1:])):
        out["scale-collapse"] = (f"the loss scale printed beside the loss fell from {fmt(scales[0])} to "
                                 f"{fmt(scales[-1])} and never rose: a scaler halves its scale and skips the step each "
                                 "time the gradients hold an inf or a nan, so step after step overflowed in half "
                                 "precision and was skipped, and the weights did not change")
    if went_wrong and (high := high_adaptive_rate(ev.prose)):
        out["adaptive-rate-high"] = high
    if went_wrong and (below := norms_below_clip(ev)):
        out["clip-unengaged"] = below
    # (with no values to judge, the words' failure: "then basically stops", "stalls", "a ValueError")
    if went_wrong and (zero := rate_zero_failed(ev.prose)):
        out["rate-zero"] = (f"the report says the failure is there at a learning rate of 0 (\"{zero}\"): "
                            + NO_UPDATE_MADE_IT)
    elif went_wrong and (ev.count == 0 or ev.first_nonfinite == 0) and (before := broke_before_update(ev.prose)):
        out["before-update"] = f"the report says it broke before any update (\"{before}\"): " + NO_UPDATE_MADE_IT
    if went_wrong and (policy := keras_loop_unscaled(ev.prose)):
        shown = f"`{policy})`" if policy.endswith(("'", '"')) else f"\"{policy}\""       # (code, or the words')
        out["loop-unscaled"] = (f"the paste sets Keras's mixed_float16 policy ({shown}) and trains in its own loop "
                                "(a tf.GradientTape, or a GAN's own train_step and optimizers) with no LossScaleOptimizer: "
                                "compile() wraps the optimizer it is given in one, a custom loop's are not, so "
                                + UNSCALED_ROUND)
    elif went_wrong and (cast := torch_autocast_unscaled(ev.prose)):
        out["loop-unscaled"] = (f"the paste runs PyTorch's autocast to float16 (`{cast}`) and calls backward() with no "
                                "GradScaler: each op that ran in float16 gives float16 gradients, and " + UNSCALED_ROUND)
    elif went_wrong and (said := autocast_unscaled_said(ev.prose)):
        out["loop-unscaled"] = (f"the report says the run computes under PyTorch's autocast to float16 (\"{said}\") and "
                                "names no GradScaler: each op that ran in float16 gives float16 gradients, and "
                                + UNSCALED_ROUND)
    # (not beside the spike that says it already: curve_shape's no-warmup jump)
    if sig.name != "spike-then-recover" and (seen := early_jump_seen(ev.prose)) and not WARMUP_SET.search(ev.prose):
        what = ("jumped up within the first steps and came back down" if seen.back_down else
                "jumped to several times its start within the first steps")
        out["early-jump"] = f"the report says the loss {what} (\"{seen.words}\"): {ADAM_FIRST_STEP}"
    elif went_wrong and sig.name != "spike-then-recover" and (kept := no_warmup_said(ev.prose)) \
            and not WARMUP_SET.search(ev.prose):
        out["no-warmup"] = (f"it went wrong{kept}: {ADAM_FIRST_STEP}, and its early steps stay near that size while the "
                            "moment estimates rest on a few gradients")
    elif went_wrong and sig.name != "spike-then-recover" and (rose := rate_at_top_as_the_loss_rose(ev)):
        out["no-warmup"] = f"{rose}; {ADAM_FIRST_STEP}"
    # (not where a lower rate was tried and failed all the same: a warmup-less first step is about the rate's size, and
    # a smaller one that breaks at the same place clears it as much as the rate)
    elif went_wrong and sig.name != "spike-then-recover" and lr_tried(ev.prose) != "failed" \
            and (early := broke_early_without_warmup(ev, sig)):
        out["no-warmup"] = (f"{early}; {ADAM_FIRST_STEP}, and its early steps stay large while the moment estimates rest "
                            "on few gradients -- the warmup-less start is a suspect beside the rate itself")
    # (MXNet's Gluon overwrites each parameter's gradient on backward() unless told grad_req='add', which sums into it
    # until zero_grad() clears it)
    if went_wrong and (req := GRAD_REQ_ADD.search(ev.prose)) and ".backward(" in ev.prose and not clears(ev.prose) \
            and not denied_before(ev.prose, req.start()):
        out["never-cleared"] = ("the pasted code sets grad_req='add', under which each backward() adds to the "
                                "gradients already held, and clears them nowhere in the paste (no zero_grad()): each "
                                "step applies the sum of every gradient since the start")
    # (not where the paste marks code it left out -- a line of `...` -- in the loop it quotes: the clearing may be what
    # it left out, as the scripts such excerpts come from clear right after step())
    elif went_wrong and (loop := BACKWARD_STEP.search(ev.prose)) and not clears(ev.prose) \
            and not _elided_near(ev.prose, loop.start()):
        uncalled = UNCALLED.search(ev.prose)
        steps = "step()" if loop.group(0).endswith(".step()") else "updates each weight from its .grad by hand"
        out["never-cleared"] = (f"the pasted loop calls backward() and {steps} and names `{uncalled.group(0).strip()}` "
                                "without calling it (no brackets): that statement only looks the method up, so the "
                                "gradients are cleared nowhere in the paste" if uncalled else
                                f"the pasted loop calls backward() and {steps} and clears the gradients nowhere in the "
                                "paste (no zero_grad(), no `.grad = None`, no `.grad = 0`)")
    elif went_wrong and (copied := copy_cleared(code_of(ev.prose))):
        out["never-cleared"] = (f"the pasted loop steps an optimizer built on a copy of the model (`{copied[0]}`, then "
                                f"`{copied[1]}...`) and clears only the original's gradients (`{copied[2]}`): the copy's "
                                "are cleared nowhere, so each backward() adds to them and every step applies the sum of "
                                "all the gradients since the start")
    elif went_wrong and ".backward(" in ev.prose and (pair := optimizer_never_cleared(code_of(ev.prose))):
        out["never-cleared"] = (f"the pasted loop steps {pair[0]} and {pair[1]}, and clears {pair[1]}'s gradients but "
                                f"never {pair[0]}'s (no `{pair[0]}.zero_grad()` in the paste): each backward() adds to what "
                                f"{pair[0]}'s parameters hold, so its every step applies the sum of all the gradients "
                                "since the start")
    elif went_wrong and (summed := numpy_buffer_never_reset(ev.prose) or jax_accumulator_never_reset(ev.prose)):
        out["never-cleared"] = (f"the pasted loop sums each batch's gradient into its buffer (`{summed}`) and steps the "
                                "weights with it, but sets the buffer to zero only outside that loop: each step applies "
                                "the sum of every gradient since then")
    # (SGD's step, with momentum or without, grows with the gradient; Adam's, AdamW's, RMSprop's and Adagrad's divide
    # each gradient by its own running size, so a sum k times the mean steps about as the mean does -- with eps/k, and
    # a coupled weight decay k times weaker; factcheck_session37 item 1: RAdam's first steps and Adadelta are not so)
    before = cleared_outside(ev.prose) if went_wrong else ""
    if went_wrong and (loop := before or cleared_after(ev.prose)):
        # (a step under `if ... % k == 0:` is taken every k batches, not on every one)
        every = ACCUMULATES.search(ev.prose)
        k = every.group("k") if every else ""
        steps = (f"backward() on every batch and step() every {k if k.isdigit() else f'`{k}`'} batches" if every else
                 "backward() and step() on every batch")
        side = "before" if before else "after"
        out["cleared-outside"] = (f"the pasted code clears the gradients only {side} `{loop}`, whose body calls "
                                  f"{steps} and clears nothing: each step carries the gradients of every step since "
                                  "that clearing")
    elif went_wrong and (condition := cleared_only_when(ev.prose)):
        out["cleared-outside"] = (f"the pasted loop calls backward() and step() on every pass but clears the gradients "
                                  f"only under `{condition}`, whose block takes no step: each step carries the "
                                  "gradients of every step since that condition last held (a gradient norm that climbs "
                                  "through each stretch between them and drops after it)")
    elif went_wrong and (carried := carried_into_the_discriminator(ev.prose)):
        d, loss, g = carried
        critic = "critic" in d.lower() and "actor" in ev.prose.lower()
        judge, pull = (("a critic valuing the actor's actions", "valuing the actor's actions higher") if critic else
                       ("a discriminator judging the generator's fakes", "calling the fakes real"))
        out["cleared-outside"] = (f"the pasted loop clears `{d}` only before `{loss}.backward()`, whose loss runs through "
                                  f"the network `{d}` steps ({judge}) and fills its gradients too; `{g}.step()` "
                                  f"follows, then that network's own backward() adds to them: `{d}`'s step follows the "
                                  f"sum, and `{loss}`'s part pulls it toward {pull}")
    # (a clip after the step beside a curve that is not a climb, which curve_shape reads as a climb despite clipping:
    # whatever broke the run, the unclipped run, the clip never touched it)
    if (went_wrong or CLIP_NO_EFFECT_SAID.search(told(ev.prose))) and sig.name != "climb-despite-clipping" \
            and (late := clip_never_applied(ev.prose)):
        out["clip-after-step"] = late[0]
    if went_wrong and (k := accumulated_undivided(ev.prose)) and not (ADAPTIVE.search(ev.prose)
                                                                         and not PLAIN_SGD.search(ev.prose)):
        k = k if k.isdigit() else f"`{k}`"
        climbs = (f", and the loss climbs as it does under a rate {k} times higher" if sig.name in RATE_CLIMBS else "")
        out["accumulated-undivided"] = (
            f"the pasted loop accumulates gradients, stepping once every {k} micro-batches, and "
            f"divides no loss by {k}: each backward() adds its micro-batch's gradient, so SGD steps with the sum of "
            f"{k} gradients, {k} times their mean: exactly as with {k} times the learning rate (and 1/{k} of any "
            f"weight decay){climbs}")
    if ev.grad_paired and ev.grad_zero_exact and ev.count >= 3:
        out["zero-gradient"] = ("every gradient norm printed beside the loss is exactly 0: no gradient reaches "
                                "those weights")
    elif went_wrong and (zero := grads_said_zero(ev.prose)):
        out["zero-gradient"] = (f"the report says the gradients are exactly 0 (\"{' '.join(zero.group(0).split())}\"): "
                                "no gradient reaches those weights")
    if "accuracy-rose" not in out and (rose := accuracy_rose_said(ev.prose)):
        out["accuracy-rose-said"] = (f"the report says the accuracy (or the AUC, the IoU) climbs while the loss barely "
                                     f"moves or stops at a floor (\"{rose}\"): "
                                     "the model learns and the loss cannot show it")
    if went_wrong and (froze := froze_after_jumps_said(ev.prose)):
        out["froze-after-jumps"] = (f"the report says the loss jumped and then froze at one value (\"{froze}\"): a step "
                                    "large enough to throw the loss up can push ReLU units below zero for every input, "
                                    "where they get no gradient; once a layer's units are all dead, the output is one "
                                    "constant whatever the input, and the loss stays at that constant's")
    if fast := faster_start_said(ev.prose):
        out["faster-start"] = (f"the report says the loss fell faster than the run it is compared with, then turned "
                               f"(\"{fast}\"): with plain SGD or momentum, a buffer that sums every gradient since the "
                               "last clearing makes each step longer than a correct run's while the gradients agree, so it "
                               "outruns that run at first and then overshoots (under Adam the step is normalised, and the "
                               "tell is the climb back); a rate effectively higher than the reference's starts the same way")
    if high := start_high(ev):
        out["start-high"] = high
    if went_wrong and (clean := data_said_finite(ev.prose)):
        out["data-finite"] = (f"the report says the data was checked for nan and inf and found clean (\"{clean}\"): "
                              "the first check for a broken batch, done -- though a value in the wrong units, a corrupt "
                              "label or an empty sequence is finite, and passes it") if not inputs_only(ev.prose) else (
            f"the report says the inputs were checked for nan and inf and found clean (\"{clean}\"): half the first "
            "check for a broken batch -- the targets were not said to be checked, and a nan among them makes the loss "
            "nan as surely")
    if went_wrong and (one := one_output_untrained(ev.prose)):
        out["one-output"] = (f"the report says the model gives one output for every input (\"{one}\"): a network whose "
                             "hidden units are all dead or saturated (raw inputs flatten them), or whose weights all "
                             "start at zero, passes nothing of its input on, and its output is one constant, the one that scores best over the data (a "
                             "classifier's base rate, a regression's mean target)")
    elif frozen_accuracy:
        out["one-output"] = (f"{frozen_accuracy}: the count of correct predictions never moved, the face of one "
                             "output for every input -- a network whose hidden units are all dead, whose weights all "
                             "start at zero, or flattened by raw inputs passes nothing of its input on, and only its "
                             "output's bias learns, toward the labels' base rate")
    if went_wrong and (dead := dead_units_said(ev.prose)):
        out["dead-units"] = (f"the report says the hidden units are dead or give 0 for every input (\"{dead}\"): a ReLU "
                             "whose input is at or below 0 for every example outputs 0 and gets a gradient of 0, so no "
                             "update to its own weights brings it back")
    if went_wrong and (dead := dead_layer_printed(ev.prose)):
        out["dead-units-printed"] = (f"{dead}: a ReLU whose input is at or below 0 for every example outputs 0 and gets "
                                     "a gradient of 0, so no update to its own weights brings it back")
    if went_wrong and (alike := units_alike_said(ev.prose)):
        out["units-alike"] = (f"the report says the hidden units are copies of each other (\"{alike}\"): units that "
                              "start equal get equal gradients and stay equal, so the layer computes what one unit does "
                              "(weights started at zero or at one constant)")
    if went_wrong and (wide := width_changes_nothing_said(ev.prose)):
        out["width-no-effect"] = (f"the report says a wider network gives the same result (\"{wide}\"): units that start "
                                  "equal get equal gradients and stay equal, so any number of them computes what one "
                                  "does (weights that start at zero or at one constant), and dead units pass nothing "
                                  "on however many there are")
    # (not beside gradient norms the log prints with every loss, some above 0: the gradients were not exactly 0, the
    # cause this fact names -- weights that stay the same beside such norms are a step too small for their precision,
    # the float16 weights' own reading, or parameters no optimizer steps)
    if went_wrong and (frozen := weights_frozen_said(ev.prose)) \
            and not (ev.grad_paired and ev.grad_max_before is not None and ev.grad_max_before > 0):
        out["weights-frozen"] = (f"the report says the weights do not change (\"{frozen}\"): they got no update at "
                                 "all, which a gradient of exactly 0 gives (dead units, weights that start at zero), or a "
                                 "step too small for the weights' precision")
    rose = rate_rose(ev, sig)
    if rose:
        out["rate-rose"] = rose
    first = statistics.median(ev.accuracy_head) if ev.accuracy_head else None
    last = statistics.median(ev.accuracy_tail) if ev.accuracy_tail else None
    # (the accuracy where the loss ended: the median of the last three printed -- a short log's tail reaches back to
    # its first epochs)
    floor = softmax_floor(ev, statistics.median(ev.accuracy_tail[-FLOOR_TAIL:]) if ev.accuracy_tail else None) \
        or (softmax_floor_said(ev.prose) if ev.count < 3 or values_chosen(ev) else "")
    if floor:
        out["softmax-floor"] = floor
    if (counted := CLASSES_COUNTED.search(ev.prose)) and not LABELS_REMAPPED.search(ev.prose):
        out["classes-counted"] = (f"the paste counts its classes as the number of distinct labels "
                                  f"(`{' '.join(counted.group(0).split())}`) and maps no label onto 0..C-1: labels that "
                                  "skip a value (0..24 with 9 missing) leave the largest past C - 1, a label the loss "
                                  "cannot take (optax's integer-label cross-entropy gives its row nan; PyTorch's raises)")
    # (a label past the last logit said once: the labels the paste prints, where it prints them, before the count the
    # words give beside a smaller one the code sets)
    if went_wrong and (past := labels_past_outputs(ev.prose))[0]:
        out["labels-past-outputs" if past[1] else "labels-past-classes"] = past[0]
    elif went_wrong and (short := classes_short(ev.prose)):
        said, set_, n_said, n_set = short
        out["classes-short"] = (f"the report gives {n_said} classes (\"{said}\") and the code builds {n_set} outputs "
                                f"(`{set_}`): a label of {n_set} or more is past the last logit, one the loss cannot take "
                                "-- " + PAST_LAST_LOGIT.format(n=n_set))
    # (labels at -1 go wrong beside a falling loss too: NumPy's indexing trains those rows towards the last class)
    if (m := MINUS_ONE_LABELS.search(ev.prose)) and not MINUS_ONE_HANDLED.search(ev.prose):
        out["minus-one-labels"] = (f"the report sets labels to -1 (`{' '.join(m.group(0).split())}`): a label no "
                                   "loss can take -- an index of -1 is the last class to NumPy, and PyTorch's "
                                   "cross-entropy refuses it unless told to ignore it")
    # (a character numbered as CTC's blank goes wrong beside a falling loss too: the loss is finite, the decoder drops it)
    if blank := ctc_blank_label(ev.prose):
        out["ctc-blank-label"] = blank
    if went_wrong and (m := MASK_255.search(ev.prose)) and not MASK_255_HANDLED.search(ev.prose):
        out["mask-255"] = (f"the report says its masks hold 255 (\"{' '.join(m.group(0).split())}\"): a class index "
                           "past any two-class loss, and a target above 1 for a BCE or a Dice, unless they are divided "
                           "by 255 first")
    # (beside a loss that falls too: a foreground scaled to 1/255 trains lower than the right labels do)
    if iou := one_class_iou(ev.prose):
        out["one-class-iou"] = iou
    if call := mask_to_tensor(ev.prose):
        how = ("builds their own Keras generator to rescale them ({}), which multiplies every batch it standardizes"
               if "ImageDataGenerator" in call else
               "puts them through torchvision's ToTensor ({}), which divides an 8-bit picture by 255")
        out["mask-scaled"] = (f"the paste says its masks hold 0 and 1 and {how.format(f'`{call}`')}: they come out 0 "
                              "and 0.0039, and as class indices all 0")
    elif own := mask_own_divider(ev.prose):
        out["mask-scaled"] = (f"the paste says its masks hold 0 and 1 and puts them through its own function (`{own[0]}`), "
                              f"which divides its argument by 255 (`{own[1]}`): they come out 0 and 0.0039, and as class "
                              "indices all 0")
    if went_wrong:      # the pixels' range explains a run that went wrong, not a healthy curve
        # (one max printed: in a tuple of several, which value is whose is not read)
        pixels = next((m for m in MAX_255.finditer(ev.prose) if INPUT_NAME.search(m.group("name"))
                       and not NOT_INPUT_NAME.search(m.group("name")) and m.group(0).count(".max(") == 1), None)
        loaded = KERAS_UINT8.search(ev.prose)
        if pixels and not DIVIDED_255.search(ev.prose):
            out["raw-pixels"] = (f"the paste prints the largest value of `{pixels.group('name')}` as 255: raw 8-bit "
                                 "pixel values, fed as they are")
        elif loaded and not DIVIDED_255.search(ev.prose):
            out["raw-pixels"] = (f"the paste loads {loaded.group('name')} with Keras's load_data(), whose pixels are "
                                 "uint8 from 0 to 255, and scales them nowhere: raw 8-bit pixel values, fed as they are")
        # (the dataset's own ToTensor does not touch `.data`: only a division or a rescaling of the paste's own counts)
        elif (raw := dataset_data(ev.prose)) and not DIVIDED_255_ITSELF.search(ev.prose):
            out["raw-pixels"] = (f"the paste takes its images from torchvision's {raw[0]} as `{raw[1]}.data`, its pixels "
                                 "as stored, uint8 from 0 to 255 (the dataset's transform runs only when it is indexed), "
                                 "and scales them nowhere: raw 8-bit pixel values, fed as they are")
        elif (reader := IMAGE_READER.search(ev.prose)) and (made := image_tensor_unscaled(ev.prose)):
            # (OpenCV's imread with no flag always gives 8-bit pixels; the others give a file's own depth: a 16-bit
            # greyscale PNG or TIFF as uint16, up to 65535)
            name = reader.group(0).split()[-1]          # ("with OpenCV": the library the words name)
            depth = ("8-bit pixels, 0 to 255" if name.lower().startswith(("cv2", "opencv")) else
                     "pixels in the file's own range: 0 to 255 for 8-bit images, up to 65535 for 16-bit ones")
            out["raw-pixels"] = (f"the paste reads images with {name} ({depth}) and builds its inputs from them "
                                 f"with no division by 255 (`{made}`): raw pixel values, fed as they are")
        elif called := albumentations_unscaled(ev.prose):
            out["raw-pixels"] = (f"the paste ends its albumentations pipeline in `{called}`, which makes a tensor of "
                                 "an image without scaling it (channels first, its values as they were), and has no "
                                 "A.Normalize: the pictures it reads, 0 to 255, reach the model as raw pixel values")
        elif called := pil_to_tensor_unscaled(ev.prose):
            out["raw-pixels"] = (f"the paste makes tensors of its images with torchvision's `{called}`, which keeps an "
                                 "8-bit picture's values as uint8, 0 to 255 (ToTensor is the one that divides by 255); "
                                 "the paste then makes floats of them and scales them nowhere: raw 8-bit pixel values, "
                                 "fed as they are")
        elif stored := uint8_store_made_float(ev.prose):
            out["raw-pixels"] = (f"the paste stores its observations as uint8 (`{stored}`) and makes floats of them "
                                 "with no division by 255 and no scaling anywhere: raw 8-bit pixel values, fed as they "
                                 "are")
        elif made := read_and_made_float(ev.prose):
            out["raw-pixels"] = (f"the paste reads its images (`{made}`) and makes floats of them with no division by "
                                 "255 and no scaling anywhere: raw pixel values, fed as they are")
        elif (io_read := TORCHVISION_IO.search(ev.prose)) and not DIVIDED_255.search(ev.prose):
            reader = (f"TensorFlow's {io_read.group('tf')}{io_read.group('fn')}" if io_read.group("tf") else
                      f"torchvision's {io_read.group('fn')}")
            out["raw-pixels"] = (f"the paste reads its inputs with {reader}, which gives an "
                                 "8-bit file's pixels as uint8, 0 to 255, and scales them nowhere: raw 8-bit pixel "
                                 "values, fed as they are")
        elif model := keras_directory_unscaled(ev.prose):
            into = ("" if model == "the model's own layers" else
                    f" -- {model} builds no scaling of its own; its preprocess_input does that, and the paste never calls it")
            out["raw-pixels"] = ("the paste loads its images with Keras's image_dataset_from_directory, which decodes "
                                 "and resizes them to floats from 0 to 255 and scales nothing, and scales them nowhere "
                                 f"itself{into}: raw pixel values, fed as they are")
        elif read := raw_units_read(ev.prose):
            out["raw-pixels"] = (f"the report says it reads its inputs with {read[0]}, which gives the values as the "
                                 f"file stores them ({read[1]}), and says nothing of scaling them: inputs of that size, "
                                 "fed as they are")
        # (or an input's range printed, hundreds or more, in a paste that says nothing of scaling anything)
        elif "inputs" not in scaled["scaled"] and not scaling_said(ev.prose) \
                and (printed_range := input_range_printed(ev.prose)):
            out["input-range"] = printed_range
    # (a model that gives back pictures learns to output the pixels it reads: raw pixels make its squared error
    # enormous by themselves, the inputs' scale -- one cause, and dividing the inputs by 255 scales its targets too)
    if "raw-pixels" in out and IMAGE_TO_IMAGE.search(ev.prose) and not OTHER_TARGET.search(ev.prose):
        out.pop("raw-targets", None)
    # (... and any model trained to give back its own inputs, an autoencoder of sensor windows too (`fit(X, X)`,
    # `loss(model(x), x)`): its targets are its inputs, so targets in their raw units are inputs in their raw units, fed
    # as they are -- the inputs' scale, and scaling the inputs scales its targets)
    elif "raw-targets" in out and (made := IMAGE_TO_IMAGE.search(ev.prose)) and not OTHER_TARGET.search(ev.prose) \
            and "inputs" not in scaled["scaled"] and TRAINED_ON_ITS_INPUTS.search(code_of(ev.prose)):
        out.setdefault("input-range", f"the model reconstructs its inputs (\"{' '.join(made.group(0).split())}\"), so its "
                                      f"targets are its inputs: {out.pop('raw-targets')} -- and so are its inputs, fed as "
                                      "they are")
    overflow, printed = exp_overflow(ev)
    if overflow:
        # (a logit the run printed past exp's limit is the run's own number: a printed fact's whole weight)
        out["exp-overflow-printed" if printed else "exp-overflow"] = overflow
    # (a nan said in the report's sentences, not an `-inf` of its code; or a tensor of the run's printed nan, as PyTorch
    # prints one in an error -- a distribution's "found invalid values: tensor([[nan, nan, ...")
    if ev.first_nonfinite is not None or {"nan", "inf"} & set(tokens(
            sentences_only(ev.prose) if sentences is None else sentences)) \
            or (NAN_TENSOR_PRINTED.search(ev.prose) and ERROR_THEN_TENSOR.search(ev.prose)):
        out.update(breaking_construct(ev.prose))
        # (a log of a linear output breaks at the first forward pass: beside a run that trained before its nan, what
        # ran is not what was pasted, or the nan has another cause)
        if "log-raw-output" in out and not _broken_from_start(ev, sig, words, first_printed=True):
            del out["log-raw-output"]
        # (and the -inf fill beside a printed count of unmasked tokens that holds a 0: the row it breaks on, shown)
        if "masked-inf" in out and MASKED_INF.search(code_of(ev.prose)) and (printed := token_counts(ev.prose)[0]):
            out["masked-row-printed"] = (f"the paste prints a sequence with no unmasked token (`{printed}` holds a 0) "
                                         "beside its -inf fill: that row of scores is all -inf, and its softmax nan")
        # (or a row of the mask itself, printed with every key masked)
        elif "masked-inf" in out and (row := mask_row_printed(ev.prose)):
            out["masked-row-printed"] = (f"the paste prints a row of the mask its -inf fill reads with every key masked "
                                         f"(`{row}`): that row of scores is all -inf, and its softmax nan")
    numpy = list(NUMPY_ZERO_WEIGHTS.finditer(ev.prose))
    # (a kernel's initialiser beside two layers built; a loop over every parameter of the model beside a network said
    # in words too -- the loop takes each layer the model has, shown or not)
    keras_torch = constant_kernel_init(ev.prose) if len(LAYERS_BUILT.findall(ev.prose)) >= 2 else \
        parameters_zeroed_in_loop(ev.prose) if network_of_layers(ev.prose) else None
    zeros = keras_torch or (numpy[1] if len(numpy) >= 2 else None) or weights_set_by(ALL_PARAMS_ZERO, ev.prose) \
        or zeros_loaded(ev.prose)
    said = None if zeros is not None else CONSTANT_INIT_SAID.search(ev.prose)
    if (zeros is not None or said is not None) and went_wrong:
        # (the code as written, without the `;` or backquote that NUMPY_ZERO_WEIGHTS reads as its start)
        shown_as = (f"the pasted code sets weights to one value (`{' '.join(zeros.group(0).lstrip('`;').split())}`)"
                    if zeros else
                    f"the report says every weight is set to one value (\"{' '.join(said.group(0).split())}\")")
        if ZERO_FILL.search((zeros or said).group(0)):    # (a zero fill, not another constant: weighing.FACE_WHERE)
            out[ZERO_FILLED] = "the weights are set to zero"
        out["zero-init"] = (f"{shown_as}: every unit of "
                            "that layer starts equal, and units that start equal, with equal weights after them, get "
                            "equal gradients and stay copies of each other (after a random layer they drift apart "
                            "only slowly)")
    # (two factors at zero never move, whatever the loss does: the output's bias still learns the base rate, so the
    # curve may look healthy)
    elif tables := zero_tables_multiplied(ev.prose):
        out[ZERO_FILLED] = "the tables start at zero"
        out["zero-init"] = (f"the pasted code starts two embedding tables at zero (`{' '.join(tables.group(0).split())}` "
                            "for the second) and multiplies their vectors together: the gradient of each factor of a "
                            "product is the other factor, 0, so neither table ever moves from zero")
    if went_wrong and (unfilled := UNFILLED.search(ev.prose)) and not FILLED.search(ev.prose):
        out["unfilled-init"] = (f"the pasted code makes a parameter from memory it never fills "
                                f"(`{' '.join(unfilled.group(0).split())}`, and no init call in the paste): it holds "
                                "whatever that memory held -- nan, inf, huge numbers or zeros, different on each run")
    if went_wrong and (kept := update_discarded(ev.prose)):
        out["update-discarded"] = kept
    if went_wrong and (large := weights_set_by(LARGE_INIT, ev.prose)):
        out["large-init"] = (f"the pasted code draws weights with a standard deviation of 1 or more "
                             f"(`{' '.join(large.group(0).split())}`): He's scale, √(2 / fan_in), is below 1 for any "
                             "layer of more than two inputs, and with ReLU each layer of n inputs at that spread "
                             "multiplies the activations' spread by about √(n / 2)")
    elif went_wrong and (wide := init_too_wide(ev.prose)):
        out["large-init"] = wide
    # (NumPy's own warning at a division by a spread of the data -- a standard deviation or a range -- the source line
    # it echoes under it dividing by one with nothing added: the warning says the division met 0/0 (invalid value) or
    # x/0 (divide by zero) -- a spread of 0, an item or a column whose values are all equal, wherever in the run the
    # data brought one)
    if (divided := std_division_warned(ev.prose)):
        out["std-nan-printed"] = (f"NumPy warned at a division by a spread (a standard deviation or a range) with "
                                  f"nothing added to it (\"{divided[0]}\" at `{divided[1]}`): the division met a "
                                  "spread of 0, an item (or a column) whose values are all equal -- 0/0 is nan, x/0 inf")
    # (a constant column denied is none: "no nan, no constant columns")
    # (not a scale the model outputs, a Gaussian NLL's `/ sigma` with sigma sliced from y_pred: no data's deviation --
    # the first division by one that is not)
    sliced, body = y_pred_slices(code_of(ev.prose)), loss_def_body(ev.prose)
    divides = next((m for m in itertools.islice(DIVIDES_BY_STD.finditer(ev.prose), 10)
                    if not ((re.findall(r"\w+", m.group(0)) or [""])[-1] in sliced and body[0] <= m.start() < body[1])),
                   None) or divides_by_a_named_std(ev.prose)
    constant = next((m for m in itertools.islice(CONSTANT_FEATURE.finditer(ev.prose), 10)
                     if not denied_before(ev.prose, m.start(), 12)), None)
    zeros = zero_inputs_said(ev.prose) if divides and not constant else None
    said = (f"says a column is constant (\"{' '.join(constant.group(0).split())}\"): that column's" if constant else
            f"says some inputs are all zeros (\"{' '.join(zeros.group(0).split())}\"): what is made from them value by "
            "value (a log of a spectrogram, a scaled image) is one constant, whose" if zeros else "")
    if divides and said and went_wrong:
        # (inputs all zeros are items, met at whichever batch holds one: weighing.STD_MET_ANY_STEP; a constant column is
        # in every batch from the first)
        out["zero-items" if zeros else "constant-feature"] = (
            f"the paste divides by a standard deviation (`{' '.join(divides.group(0).split())}`) and {said} standard "
            "deviation is 0, and (x - mean) / std is 0/0, nan wherever the mean comes out exact, as for a whole-number "
            "constant (else about +-1 everywhere, from rounding)")
    elif divides and _broken_from_start(ev, sig, words, first_printed=True):
        # (the words need not say a column is constant: a division that adds nothing to its std, and a loss broken
        # before any update, is the suspect a reader names first -- a construct, which names no entry on its own)
        out["std-unguarded"] = (f"the pasted code divides by a standard deviation with nothing added to it "
                                f"(`{' '.join(divides.group(0).split())}`), and the loss is not finite from the first "
                                "step, before any update: a column (or an input) whose values are all equal has a "
                                "standard deviation of 0, and (x - mean) / std is then 0/0, nan in every row of it -- "
                                "exactly so where the mean comes out equal to the value, as it does for a column of "
                                "zeros (a one-hot category absent from the split) or of small whole numbers (for a "
                                "value such as 0.1, rounding can leave the same +-1 or +-inf in every row instead); one "
                                "such column makes every output nan")
    elif divides and went_wrong and (ev.first_nonfinite is not None or {"nan", "inf"} & set(words)) \
            and (item := per_item(ev.prose, divides)):
        # (each item by its own statistics: the nan comes wherever the first item of equal values does)
        out["item-std-unguarded"] = (f"the pasted code divides by a standard deviation with nothing added to it "
                                f"(`{' '.join(divides.group(0).split())}`), item by item (\"{' '.join(item.group(0).split())}"
                                "\"): an item whose values are all equal has a standard deviation of 0, and (x - mean) / "
                                "std is then 0/0, nan wherever its mean comes out exact (a window of zeros, or of one "
                                "whole number), about +-1 in every value from rounding otherwise -- at whichever batch "
                                "first holds such an item, not necessarily at the first step")
    elif not divides and went_wrong and (ev.first_nonfinite is not None or {"nan", "inf"} & set(words)) \
            and not _whole_epoch_finite(ev) and (item := per_item_said(ev.prose)):
        # (said in words, with no code to show the division: a range (max - min) is 0 as surely as a std; not after a
        # whole epoch of finite losses, which every item has passed through once)
        out["item-std-unguarded"] = (f"the report says each item (or group) is scaled by its own statistics "
                                     f"(\"{' '.join(item.group(0).split())}\"): an item or a group whose values are all "
                                     "equal has a range (max - min) of 0 and a "
                                     "standard deviation of 0, or a rounding's worth above it (and a group of one value "
                                     "has no std at all where it is divided by n - 1, as pandas' is: nan outright) -- "
                                     "0/0, nan, where the difference comes out exact (a window of zeros, or of one whole "
                                     "number), about +-1 from rounding otherwise -- at whichever batch first holds such "
                                     "an item (a blank frame), not necessarily at the first step")
    elif not divides and (by_hand := standardised_by_hand(ev.prose)) and _broken_from_start(ev, sig, words,
                                                                                            first_printed=True):
        out["std-unguarded"] = (f"the report says it standardises the inputs by hand (\"{' '.join(by_hand.group(0).split())}"
                                "\"), and the loss is not finite from its first value: a column whose values are all equal "
                                "has a standard deviation of 0, and (x - mean) / std is then 0/0, nan in every row of it "
                                "-- one such column (a sensor that never moved, a one-hot category absent from the split) "
                                "makes every output nan, unless the division adds a small constant")
    if (inverse := inverse_of_sum(ev.prose)) and _broken_from_start(ev, sig, words, first_printed=True):
        out["inverse-unguarded"] = (f"the pasted code raises a sum to a negative power with nothing to keep it off 0 "
                                    f"(`{inverse}`), and the loss is not finite from the first step: a row that sums to "
                                    "0 -- a node with no edge and no self-loop, an empty bag -- gives 0 ** -0.5 = inf, "
                                    "and inf times the zeros of its row is nan, in every output it reaches")
    if (normed := divides_by_norm(ev.prose)) and _broken_from_start(ev, sig, words, first_printed=True):
        out["norm-unguarded"] = (f"the pasted code divides by a norm with nothing to keep it off 0 (`{normed}`), and the "
                                 "loss is not finite from the first step: a vector of zeros -- a gradient that is 0 "
                                 "everywhere, an embedding or a row of zeros -- has norm 0, and x / ||x|| is then 0/0, "
                                 "nan in every value of it (F.normalize divides by max(||x||, eps) instead)")
    # (... at any step, where the loss turned non-finite, printed or said: a finite plateau or climb is no 0/0)
    elif (ev.first_nonfinite is not None or ev.count == 0 and words_say_nonfinite(ev)) \
            and (relu_normed := norm_of_relu_output(ev.prose)):
        out["relu-norm-unguarded"] = (f"the pasted code divides a vector a ReLU made by its own norm, with nothing to keep "
                                      f"the norm off 0 (`{relu_normed}`): a row whose every pre-activation is at or below "
                                      "0 comes out of the ReLU as the zero vector (the whole tensor, where the norm takes "
                                      "no dim), whose norm is 0, and x / ||x|| is then 0/0, nan -- at whichever batch first "
                                      "brings such a row, not only at the first step (PyTorch's F.normalize divides by "
                                      "max(||x||, eps), TensorFlow's tf.math.l2_normalize by √max(||x||², eps))")
    if sig.name == "plateau-from-start" and first is not None and last is not None:
        # a percentage when printed with % or when both are above 1; both at most 1 without %, a
        # fraction; one of each cannot be read
        percent = ev.accuracy_percent or min(first, last) > 1
        scale = 100.0 if percent else 1.0
        if (percent or max(first, last) <= 1) and (last - first) / scale >= ACCURACY_RISE:
            out["accuracy-rose"] = (f"the accuracy rose from {fmt(first)} to {fmt(last)} (medians of the first "
                                    f"and the last {len(ev.accuracy_tail)} printed) while the loss barely "
                                    "moved: the model learns, and the loss does not show it")
    return out


# A line of its own that says code was left out (`...`, `# ...`), indented as code is
ELIDED = lazy_regex.compile(r"(?m)^[ \t]+(?:#[ \t]*)?(?:\.\.\.|\u2026)[ \t]*$")
ELIDED_REACH = 400          # characters before the backward() that quote the same loop


def _elided_near(prose: str, at: int) -> bool:
    """Does the paste mark code left out within ELIDED_REACH characters before `at`, or right after the loop it quotes?"""
    return ELIDED.search(prose, max(0, at - ELIDED_REACH), at + ELIDED_REACH) is not None


# A training accuracy printed the very same at each of its first and its last values (ACCURACY_ENDS of each, with
# ACCURACY_FROZEN_DIGITS significant digits or more) while the loss fell by PLATEAU_FALL or more, and never below the
# least a constant output can score beside that accuracy: the count of correct predictions never moved, and the loss
# went only where a model that ignores its input can take it. A constant output is right on the examples of one class,
# so the accuracy is that class's share a, and its cross-entropy is at least the entropy of the labels, at least that of
# the most concentrated labels whose largest class is a: whole classes of a, and the rest in one. Not at an accuracy
# of 1 (or 100%), a run that fits its data (code_review_s68b H2).
ACCURACY_FROZEN_DIGITS = 2
FLOOR_SLACK = 1e-3          # (printed losses and accuracies are rounded)


def constant_output_floor(share: float) -> float:
    """The least mean cross-entropy (nats) of one output for every input, where the largest class is `share`."""
    whole = int(1 / share)
    rest = 1 - whole * share
    return -whole * share * math.log(share) - (rest * math.log(rest) if rest > 1e-12 else 0.0)


def accuracy_frozen(ev: Evidence) -> str:
    """The fact, where the printed training accuracy never moved while the loss fell as a constant output's can (see
    above); or ""."""
    seen = ev.accuracy_head + ev.accuracy_tail
    if len(ev.accuracy_head) < ACCURACY_ENDS or len(set(seen)) != 1 or ev.count < 2 * ACCURACY_ENDS \
            or ev.first_nonfinite is not None or ev.low is None or ev.low > (1 - PLATEAU_FALL) * ev.head[0]:
        return ""
    value = seen[0]
    share = value / 100 if ev.accuracy_percent or value > 1 else value
    if len(f"{value:g}".lstrip("-0.").replace(".", "")) < ACCURACY_FROZEN_DIGITS or not 0 < share < 0.999:
        return ""
    floor = constant_output_floor(share)
    if ev.low < floor - FLOOR_SLACK:
        return ""
    return (f"the training accuracy printed beside the loss is {value:g} at every one of its first and last "
            f"{ACCURACY_ENDS} values, while the loss fell from {fmt(ev.head[0])} to {fmt(ev.low)}, where a constant "
            f"output can take it (the least one scores, the largest class at that share, is {floor:.4f})")


def _broken_from_start(ev: Evidence, sig: Signature, words: list[str], first_printed: bool = False) -> bool:
    """Is the loss not finite from the first step: the curve's signature, or, with no curve, words that say a nan or
    an inf and say it showed at the start ("nan from the very first batch", "the first loss printed is nan")? With
    `first_printed`, also a first value printed non-finite at the run's start, whatever it averages ("the very first
    epoch already prints loss: nan"): for a construct that breaks at the first forward pass, that is its face too."""
    # (not where the words tell a loss that fell and then broke: "the loss goes down smoothly (1.38 at the start ...),
    # then in epoch 31 the printed loss is nan" -- the start is a value's, the nan came after training had run)
    if sig.name == "nonfinite-from-start":
        return True
    # (unless the words tie the nan itself to the start, "nan on the very first batch": the fall was another run's,
    # "the Linf version trains fine")
    if ev.count <= 1 and fell_then_broke(ev.prose, words) and not NAN_AT_START.search(ev.prose):
        return False
    # (a first print later in the first epoch -- a progress bar's at batch 12 -- is the start where the words tie the
    # nan to it, "train_loss=nan from the first step"; not a run resumed at epoch 41)
    return (ev.count == 0 and bool({"nan", "inf"} & set(words)) and "start" in timing_of(words)) or (
        first_printed and ev.first_nonfinite == 0 and ev.count > 0
        and (at_run_start(ev) or (NAN_FROM_START.search(ev.prose) is not None and _in_first_epoch(ev))))


# A nan said to be there from the start: "nan from the first step", "from the very first batch it is nan"
_NAN_THEN_START = (r"\b(?:nan|inf)\b[^.;\n]{0,40}?\b(?:from|since|at|on|in)\s+(?:the\s+)?(?:very\s+)?"
                   r"(?:first|start|beginning)\b"
                   # (the run's start: not "the start of epoch 31", "the beginning of the second run")
                   r"(?!\s+of\s+(?:(?:an?|the)\s+)?(?:epoch|step|iteration|batch|round|stage|phase|cycle|second|next|new|"
                   r"last|later|resum\w*|fine-?tun\w*)\b|\s+(?:epoch|step|iteration|batch)\s+[2-9])")
NAN_FROM_START = lazy_regex.compile(r"(?i)" + _NAN_THEN_START + r"|\b(?:from|since)\s+(?:the\s+)?(?:very\s+)?(?:first|start|"
                                    r"beginning)\b[^.;\n]{0,40}?\b(?:nan|inf)\b")
# ... the nan said first, then the start it is tied to ("nan on the very first batch"; not "from the start it went
# down, then nan")
NAN_AT_START = lazy_regex.compile(r"(?i)" + _NAN_THEN_START)


def _in_first_epoch(ev: Evidence) -> bool:
    """Is the first value printed in the run's first epoch (and, where the log numbers steps, within its first
    FIRST_STEPS), as far as the log numbers them?"""
    pos = ev.at(0)
    if pos is None:
        return True
    epoch, step = epoch_number(pos), step_number(pos)
    return (epoch is None or float(epoch) <= 1) and (step is None or step <= FIRST_STEPS)


FIRST_STEPS = 1000


def values_chosen(ev: Evidence) -> bool:
    """Are the loss values ones a reporter chose to give in sentences (a dialect whose values are chosen), not a log?"""
    dialect = dialects.named(ev.dialect)
    return dialect is not None and dialect.chosen
