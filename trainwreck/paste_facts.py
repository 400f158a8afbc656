"""Facts of a paste besides its curve: what its code and words show of the run (a model that returns
probabilities to a loss that wants logits, weights set to zero, a number past exp's limit, inputs said not
scaled, a regression's enormous first loss...), and the columns printed beside the loss (gradient norms, an
accuracy, a learning rate).

Each fact goes to the entries whose own phrases say so (the *_WORDS sets: weighing.py finds them in the
catalogue); none is a verdict on its own.
"""
from __future__ import annotations

import functools
import itertools
import math
import re
import statistics

from .breaking_constructs import MASKED_INF, breaking_construct, code_of, token_counts
from .class_count import UNIFORM_NEAR, at_uniform, classes_named, classes_or_vocabulary, vocabulary_named
from .curve_shape import (ACCURACY_RISE, ENORMOUS_START, NOT_A_MEAN, PLATEAU_FALL, Signature, at_run_start,
                          clip_never_applied, fmt, same_batch_jumps)
from .data_checked import data_said_finite
from .data_values import (ADAPT_CALL, CLASSES_COUNTED, DIVIDED_255, DIVIDED_255_ITSELF, IMAGE_READER, INPUT_NAME,
                          KERAS_NORMALIZATION, KERAS_UINT8, LABELS_REMAPPED, MASK_255, MASK_255_HANDLED, MAX_255,
                          MERGED, MINUS_ONE_HANDLED, MINUS_ONE_LABELS, NOT_INPUT_NAME, dataset_data,
                          image_tensor_unscaled, mask_to_tensor)
from .exp_limits import exp_overflow
from .frozen_said import one_output_said, weights_frozen_said
from .gradient_clearing import (ACCUMULATES, BACKWARD_STEP, GRAD_REQ_ADD, UNCALLED, accumulated_undivided,
                                cleared_outside, clears)
from .gradient_norms import gradients_shrink_to_the_input, grads_said_zero, norms_below_clip
from .input_scaling import (ALL_ZERO_INPUT, CONSTANT_FEATURE, DIVIDES_BY_STD, doubted, feature_scales_printed,
                            standardised_by_hand)
from .logscan import Evidence, dialects
from .logscan.dialects import loss_unit
from .loss_inputs import nll_of_probabilities
from .loss_scale import SCALES_MIN, SCALE_COLLAPSE, keras_loop_unscaled, scales_printed
from .one_class_iou import one_class_iou
from .optimizer_setup import PLAIN_SGD, RATE_CLIMBS, high_adaptive_rate, rate_rose
from .run_kind import REGRESSION_SAID, SUMMED, absolute_loss, linear_model
from .weight_init import (ALL_PARAMS_ZERO, CONSTANT_INIT_SAID, FILLED, LARGE_INIT, LAYERS_BUILT, NUMPY_ZERO_WEIGHTS,
                          UNFILLED, constant_kernel_init, init_too_wide, update_discarded)
from .wording import (ADAPTIVE, BEFORE_TRAINING_NONFINITE, NO_WARMUP, WARMUP_NAMED, WARMUP_SET, denied_before,
                      no_warmup_said, order_moved_it, rate_zero_failed, says_not_learning, sentence_around,
                      sentences_and_ends, sentences_only, timing_of, tokens, told, untrained_output_nonfinite)

ZERO_GRADIENT_WORDS, ACCURACY_WORDS = {"gradient", "exactly", "zero"}, {"accuracy", "improve"}
# The entries whose phrases say every input gets one output (a dead or a symmetric network's face): half a printed
# fact for words that say so (frozen_said)
ONE_OUTPUT_WORDS = {"output", "input"}
SIGMOID_ZERO_WORDS = {"sigmoidzero"}
# The entries whose phrases say a model's output is nan from the start (a layer never initialised, weights that blow
# the forward pass up): for a report whose words say an untrained model's output is nan
# (wording.untrained_output_nonfinite), half a printed fact.
UNTRAINED_OUTPUT_WORDS = {"output", "nan", "when_start"}
# The entries whose phrases say the run had no learning-rate warmup: for a report whose words say so (no warmup, a
# constant rate from step 0, the schedule removed) beside a run that went wrong, half a printed fact.
NO_WARMUP_WORDS = {"without", "warmup"}
# The entries whose phrases say the failure is there at a learning rate of zero: for a report whose words say so
# (wording.rate_zero_failed), beside a run that went wrong, half a printed fact.
RATE_ZERO_WORDS = {"lr", "zero"}
# the entries whose phrases say the loss jumps at one batch (same_batch_jumps' fact)
ONE_BATCH_WORDS = {"jump", "batch"}
# ... and those whose phrases say a lower rate only delays their failure (WR-260), for a report that says so
PUT_OFF_WORDS = {"lr", "delay"}
# The entries whose phrases say a lower rate does not move the step where the loss breaks (a bad batch breaks where
# it is met, whatever the rate): a lower rate that did not help is evidence for them, one that put the failure off
# evidence against.
RATE_PROOF_WORDS = {"lower", "lr", "move", "step"}
# ... and those whose phrases say the step moves when the data is shuffled otherwise (wording.order_moved_it): half a
# printed fact for them where the report says so
ORDER_BOUND_WORDS = {"shuffl", "move", "step"}


# A cross-entropy computed on outputs that already went through a softmax cannot go below log(1 + (C - 1)/e) for C
# classes (WR-130: 1.4612 for ten): a loss that ends within FLOOR_NEAR above that floor, never below it, while the
# accuracy printed beside it reaches FLOOR_ACCURACY, is that failure's fingerprint -- a printed fact for the entries
# whose phrases say the loss will not go below it. C is the class count whose floor is nearest below the loss (3 or
# more: two classes' floor, 0.3133, is an ordinary loss at that accuracy).


FLOOR_WORDS = {"class", "below"}
FLOOR_NEAR, FLOOR_ACCURACY, FLOOR_CLASSES, FLOOR_TAIL = 0.02, 0.9, range(3, 1001), 3
FLOOR_ACCURACY_SURE = 0.95
# (the class count the paste names, class_count; with none named, the count whose floor lies nearest below the loss
# counts only when the first loss sat near its ln C -- a fresh classifier's loss, and where a softmax applied twice
# starts -- above the floor's half-way)
# words of a loss with more in it than a cross-entropy, which sits above its floor by design
FLOOR_HIDDEN = re.compile(r"label[ _-]?smooth\w*|distill\w*|\bkd\b|mixup|cutmix|regulari[sz]\w*|\bl2\(|weight[ _]decay "
                          r"in the loss|auxiliary loss|\+ *(?:(?:\d+(?:\.\d*)?|\.\d*) *)?\* *\w+[ _]loss", re.I)


def printed_facts(ev: Evidence, sig: Signature, words: list[str], regressor: str,
                   scaled: dict[str, dict[str, str]], unjudged: bool = False,
                   sentences: str | None = None) -> dict[str, str]:
    """What the log prints beside the loss, or the words say was printed, that one failure produces
    (see W_PRINTED). (`regressor`: what shows a regression's run, regressor_shown; `scaled`: what the words say was
    scaled, scaled_said; `unjudged`: a curve too short to judge, beside words that say the run went wrong; `sentences`:
    the report's own sentences, sentences_only, when the caller has them already)"""
    out = {}
    went_wrong = sig.name != "healthy" or unjudged or bool(sig.enormous_start)     # (an enormous start is no health)
    handed = nll_of_probabilities(ev)
    if handed:
        out["nll-of-probabilities"] = handed
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
    if regressor and sig.enormous_start and not SUMMED.search(ev.prose) and "targets" not in scaled["scaled"] \
            and not (climbed and ("inputs" in scaled["unscaled"] or linear_model(ev.prose)
                                  or (ADAPTIVE.search(ev.prose) and not PLAIN_SGD.search(ev.prose)))):
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
    # does not learn ("MAE stuck in the thousands"): a squared error on unit-scale targets is about their variance,
    # 1, at worst; still 7.1e+07 after 99 epochs (Adam's steps, about its rate each, carry the output toward targets
    # in the tens of thousands only slowly) takes errors of thousands. (A loss in raw units that falls, with no such
    # words, may be a run learning in those units: no evidence.)
    # (one value will do, a run's summary: the words say the run never learnt)
    elif regressor and ev.first_nonfinite is None and (ev.count >= 3 and ENORMOUS_START <= ev.last < ev.head[0]
                                                       or ev.count == 1 and ev.last >= ENORMOUS_START) \
            and says_not_learning(ev.prose) and not SUMMED.search(ev.prose) and "targets" not in scaled["scaled"] \
            and "inputs" not in scaled["unscaled"]:
        size = (f"an absolute error that large takes errors of about {fmt(ev.last)}" if absolute_loss(ev.prose)
                else f"a squared error that large takes errors of about {fmt(math.sqrt(ev.last))} (its root)")
        still = "is still" if ev.count > 1 else "is"
        out["raw-targets"] = (f"{regressor} (a regression's run), and its loss {still} {fmt(ev.last)} at its last value "
                              f"({ev.where(ev.count - 1)}), in a run the words say does not learn: {size}, targets in "
                              "their raw units")
    # ... and, with no loss printed, a regression's first loss said in words and enormous ("the MSE starts at 3.1e7")
    elif regressor and not ev.count and not SUMMED.search(ev.prose) and not NOT_A_MEAN.search(ev.prose) \
            and "targets" not in scaled["scaled"] and "inputs" not in scaled["unscaled"] \
            and (said := _regression_start_said(ev.prose)):
        value, quoted = said
        size = (f"an absolute error that large takes errors of about {fmt(value)}" if absolute_loss(ev.prose)
                else f"a squared error that large takes errors of about {fmt(math.sqrt(value))} (its root)")
        out["raw-targets-said"] = (f"{regressor} (a regression's run), and the report gives its first loss as "
                                   f"{fmt(value)} (\"{quoted}\"): {size}, targets in their raw units")
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
    merged = MERGED.search(ev.prose) if ev.first_nonfinite is not None or "nan" in words else None
    if merged:
        out["frames-merged"] = (f"the report merges tables into its data (\"{' '.join(merged.group(0).split())}\"): a row "
                                "whose key has no match in the other table gets nan in that table's columns (pandas "
                                "fills what a merge or a concatenation leaves empty with nan), and one nan in a "
                                "feature makes the loss of every batch it is in nan")
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
    if went_wrong and (zero := rate_zero_failed(ev.prose)):
        out["rate-zero"] = (f"the report says the failure is there at a learning rate of 0 (\"{zero}\"): no update "
                            "moved the weights, so the forward pass from the initial weights, or the data, made it")
    if went_wrong and (policy := keras_loop_unscaled(ev.prose)):
        out["loop-unscaled"] = (f"the paste sets Keras's mixed_float16 policy (`{policy})`) and trains in its own "
                                "tf.GradientTape loop with no LossScaleOptimizer: compile() wraps the optimizer in one, "
                                "a custom loop does not, so float16 gradients below about 6e-08 flush to 0 unscaled")
    # (not beside the spike that says it already: curve_shape's no-warmup jump)
    if sig.name != "spike-then-recover" and (jump := early_jump_said(ev.prose)) and not WARMUP_SET.search(ev.prose):
        out["early-jump"] = (f"the report says the loss jumped to several times its start within the first steps "
                             f"(\"{jump}\"): without warmup, Adam's first step moves every parameter by about the full "
                             "learning rate, however small its gradient")
    elif went_wrong and sig.name != "spike-then-recover" and (kept := no_warmup_said(ev.prose)) \
            and not WARMUP_SET.search(ev.prose):
        out["no-warmup"] = (f"it went wrong{kept}: without warmup, Adam's first step moves every parameter by about the "
                            "full learning rate, however small its gradient, and its early steps stay near that size "
                            "while the moment estimates rest on a few gradients")
    # (MXNet's Gluon overwrites each parameter's gradient on backward() unless told grad_req='add', which sums into it
    # until zero_grad() clears it)
    if went_wrong and (req := GRAD_REQ_ADD.search(ev.prose)) and ".backward(" in ev.prose and not clears(ev.prose) \
            and not denied_before(ev.prose, req.start()):
        out["never-cleared"] = ("the pasted code sets grad_req='add', under which each backward() adds to the "
                                "gradients already held, and clears them nowhere in the paste (no zero_grad()): each "
                                "step applies the sum of every gradient since the start")
    elif went_wrong and (loop := BACKWARD_STEP.search(ev.prose)) and not clears(ev.prose):
        uncalled = UNCALLED.search(ev.prose)
        steps = "step()" if loop.group(0).endswith(".step()") else "updates each weight from its .grad by hand"
        out["never-cleared"] = (f"the pasted loop calls backward() and {steps} and names `{uncalled.group(0).strip()}` "
                                "without calling it (no brackets): that statement only looks the method up, so the "
                                "gradients are cleared nowhere in the paste" if uncalled else
                                f"the pasted loop calls backward() and {steps} and clears the gradients nowhere in the "
                                "paste (no zero_grad(), no `.grad = None`, no `.grad = 0`)")
    # (SGD's step, with momentum or without, grows with the gradient; Adam's, AdamW's, RMSprop's and Adagrad's divide
    # each gradient by its own running size, so a sum k times the mean steps about as the mean does -- with eps/k, and
    # a coupled weight decay k times weaker; factcheck_session37 item 1: RAdam's first steps and Adadelta are not so)
    if went_wrong and (loop := cleared_outside(ev.prose)):
        # (a step under `if ... % k == 0:` is taken every k batches, not on every one)
        every = ACCUMULATES.search(ev.prose)
        k = every.group("k") if every else ""
        steps = (f"backward() on every batch and step() every {k if k.isdigit() else f'`{k}`'} batches" if every else
                 "backward() and step() on every batch")
        out["cleared-outside"] = (f"the pasted code clears the gradients only before `{loop}`, whose body calls "
                                  f"{steps} and clears nothing: each step carries the gradients of every step since "
                                  "that clearing")
    # (a clip after the step beside a curve that is not a climb, which curve_shape reads as a climb despite clipping:
    # whatever broke the run, the unclipped run, the clip never touched it)
    if went_wrong and sig.name != "climb-despite-clipping" and (late := clip_never_applied(ev.prose)):
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
        out["accuracy-rose-said"] = (f"the report says the accuracy climbs while the loss barely moves (\"{rose}\"): "
                                     "the model learns and the loss cannot show it")
    if start_high := start_far_above_uniform(ev.prose):
        out["start-high"] = start_high
    if went_wrong and (clean := data_said_finite(ev.prose)):
        out["data-finite"] = (f"the report says the data was checked for nan and inf and found clean (\"{clean}\"): "
                              "the first check for a broken batch, done -- though a value in the wrong units, a corrupt "
                              "label or an empty sequence is finite, and passes it")
    if went_wrong and (one := one_output_said(ev.prose)):
        out["one-output"] = (f"the report says the model gives one output for every input (\"{one}\"): a network whose "
                             "hidden units are all dead, or whose weights all start at zero, passes nothing of its "
                             "input on, and its output is one constant, the one that scores best over the data (a "
                             "classifier's base rate, a regression's mean target)")
    if went_wrong and (frozen := weights_frozen_said(ev.prose)):
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
    floor = _softmax_floor(ev, statistics.median(ev.accuracy_tail[-FLOOR_TAIL:]) if ev.accuracy_tail else None) \
        or (softmax_floor_said(ev.prose) if ev.count < 3 or values_chosen(ev) else "")
    if floor:
        out["softmax-floor"] = floor
    if (counted := CLASSES_COUNTED.search(ev.prose)) and not LABELS_REMAPPED.search(ev.prose):
        out["classes-counted"] = (f"the paste counts its classes as the number of distinct labels "
                                  f"(`{' '.join(counted.group(0).split())}`) and maps no label onto 0..C-1: labels that "
                                  "skip a value (0..24 with 9 missing) leave the largest past C - 1, a label the loss "
                                  "cannot take (optax's integer-label cross-entropy gives its row nan; PyTorch's raises)")
    # (labels at -1 go wrong beside a falling loss too: NumPy's indexing trains those rows towards the last class)
    if (m := MINUS_ONE_LABELS.search(ev.prose)) and not MINUS_ONE_HANDLED.search(ev.prose):
        out["minus-one-labels"] = (f"the report sets labels to -1 (`{' '.join(m.group(0).split())}`): a label no "
                                   "loss can take -- an index of -1 is the last class to NumPy, and PyTorch's "
                                   "cross-entropy refuses it unless told to ignore it")
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
    overflow, printed = exp_overflow(ev)
    if overflow:
        # (a logit the run printed past exp's limit is the run's own number: a printed fact's whole weight)
        out["exp-overflow-printed" if printed else "exp-overflow"] = overflow
    # (a nan said in the report's sentences, not an `-inf` of its code)
    if ev.first_nonfinite is not None or {"nan", "inf"} & set(tokens(
            sentences_only(ev.prose) if sentences is None else sentences)):
        out.update(breaking_construct(ev.prose))
        # (and the -inf fill beside a printed count of unmasked tokens that holds a 0: the row it breaks on, shown)
        if "masked-inf" in out and MASKED_INF.search(code_of(ev.prose)) and (printed := token_counts(ev.prose)[0]):
            out["masked-row-printed"] = (f"the paste prints a sequence with no unmasked token (`{printed}` holds a 0) "
                                         "beside its -inf fill: that row of scores is all -inf, and its softmax nan")
    numpy = list(NUMPY_ZERO_WEIGHTS.finditer(ev.prose))
    keras_torch = constant_kernel_init(ev.prose) if len(LAYERS_BUILT.findall(ev.prose)) >= 2 else None
    zeros = keras_torch or (numpy[1] if len(numpy) >= 2 else None) or ALL_PARAMS_ZERO.search(ev.prose)
    said = None if zeros is not None else CONSTANT_INIT_SAID.search(ev.prose)
    if (zeros is not None or said is not None) and went_wrong:
        shown_as = (f"the pasted code sets weights to one value (`{' '.join(zeros.group(0).split())}`)" if zeros else
                    f"the report says every weight is set to one value (\"{' '.join(said.group(0).split())}\")")
        out["zero-init"] = (f"{shown_as}: every unit of "
                            "that layer starts equal, and units that start equal, with equal weights after them, get "
                            "equal gradients and stay copies of each other (after a random layer they drift apart "
                            "only slowly)")
    if went_wrong and (unfilled := UNFILLED.search(ev.prose)) and not FILLED.search(ev.prose):
        out["unfilled-init"] = (f"the pasted code makes a parameter from memory it never fills "
                                f"(`{' '.join(unfilled.group(0).split())}`, and no init call in the paste): it holds "
                                "whatever that memory held -- nan, inf, huge numbers or zeros, different on each run")
    if went_wrong and (kept := update_discarded(ev.prose)):
        out["update-discarded"] = kept
    if went_wrong and (large := LARGE_INIT.search(ev.prose)):
        out["large-init"] = (f"the pasted code draws weights with a standard deviation of 1 or more "
                             f"(`{' '.join(large.group(0).split())}`): He's scale, √(2 / fan_in), is below 1 for any "
                             "layer of more than two inputs, and with ReLU each layer of n inputs at that spread "
                             "multiplies the activations' spread by about √(n / 2)")
    elif went_wrong and (wide := init_too_wide(ev.prose)):
        out["large-init"] = wide
    divides, constant = DIVIDES_BY_STD.search(ev.prose), CONSTANT_FEATURE.search(ev.prose)
    zeros = ALL_ZERO_INPUT.search(ev.prose) if divides and not constant else None
    said = (f"says a column is constant (\"{' '.join(constant.group(0).split())}\"): that column's" if constant else
            f"says some inputs are all zeros (\"{' '.join(zeros.group(0).split())}\"): what is made from them value by "
            "value (a log of a spectrogram, a scaled image) is one constant, whose" if zeros else "")
    if divides and said and went_wrong:
        out["constant-feature"] = (f"the paste divides by a standard deviation (`{' '.join(divides.group(0).split())}`) "
                                   f"and {said} standard deviation is 0, and (x - mean) / std is 0/0, nan wherever the "
                                   "mean comes out exact, as for a whole-number constant (else about +-1 everywhere, "
                                   "from rounding)")
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
    elif not divides and (by_hand := standardised_by_hand(ev.prose)) and _broken_from_start(ev, sig, words,
                                                                                            first_printed=True):
        out["std-unguarded"] = (f"the report says it standardises the inputs by hand (\"{' '.join(by_hand.group(0).split())}"
                                "\"), and the loss is not finite from its first value: a column whose values are all equal "
                                "has a standard deviation of 0, and (x - mean) / std is then 0/0, nan in every row of it "
                                "-- one such column (a sensor that never moved, a one-hot category absent from the split) "
                                "makes every output nan, unless the division adds a small constant")
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


def _broken_from_start(ev: Evidence, sig: Signature, words: list[str], first_printed: bool = False) -> bool:
    """Is the loss not finite from the first step: the curve's signature, or, with no curve, words that say a nan or
    an inf and say it showed at the start ("nan from the very first batch", "the first loss printed is nan")? With
    `first_printed`, also a first value printed non-finite at the run's start, whatever it averages ("the very first
    epoch already prints loss: nan"): for a construct that breaks at the first forward pass, that is its face too."""
    return sig.name == "nonfinite-from-start" or (ev.count == 0 and bool({"nan", "inf"} & set(words))
                                                 and "start" in timing_of(words)) or (
        first_printed and ev.first_nonfinite == 0 and ev.count > 0 and at_run_start(ev))


def _floor_of(classes: int) -> float:
    """The lowest a cross-entropy reaches over C classes on outputs already softmaxed: log(1 + (C - 1)/e)."""
    return math.log(1 + (classes - 1) / math.e)


def _wrong_floor_of(classes: int) -> float:
    """The lowest it reaches on an example the model gets wrong: a softmaxed output p whose largest entry is not the
    true class's costs log(sum exp p) - p_true, least at a tie, p_true = p_other = 1/2 (the loss falls as the tie
    grows, and spreading mass to the other classes only raises it): log(2 sqrt(e) + C - 2) - 1/2."""
    return math.log(2 * math.sqrt(math.e) + classes - 2) - 0.5


def _floor_at(classes: int, share: float) -> float:
    """The lowest mean loss over examples of which this share is classified right."""
    return share * _floor_of(classes) + (1 - share) * _wrong_floor_of(classes)


# (not one asked about or denied: "Is label smoothing on by default somewhere? I never set it.", "there is no label
# smoothing", `label_smoothing=0.0`)
FLOOR_NOT_HIDDEN = re.compile(r"(?i)\b(?:no|not|never|without)\b|n't\b|label_smoothing\s*=\s*0(?:\.0*)?(?![\d.])")


def _floor_hidden(prose: str) -> bool:
    """Does the paste add to its loss a term that lifts it off the floor (FLOOR_HIDDEN), said as done? (A denial just
    before the term, or a smoothing of 0, takes it back; one elsewhere in the sentence -- "the loss won't go below" --
    does not.)"""
    return any(end != "?" and any(not FLOOR_NOT_HIDDEN.search(sentence[max(0, m.start() - 30):m.end() + 12])
                                  for m in itertools.islice(FLOOR_HIDDEN.finditer(sentence), 5))
               for sentence, end in sentences_and_ends(prose))


# ... or said in words: where the loss stays ("stuck around 1.47", "never goes below ~1.47") beside an accuracy said
# high ("train accuracy gets to 99.2%") and the classes named, the loss within FLOOR_NEAR above their floor
LOSS_STAYS = re.compile(r"(?i)\bloss\b[^.\n\d]{0,60}?\b(?:never (?:goes|gets|drops?|falls?) (?:below|under)|stuck (?:at|around|near)|"
                        r"stays? (?:at|around|near)|plateaus? (?:at|around)|sits? (?:at|around)|won'?t go below)\s*~?\s*"
                        r"(\d+\.\d+)")
ACCURACY_SAID = re.compile(r"(?i)\bacc(?:uracy)?\b[^.\n\d]{0,30}?(?:(\d{2}(?:\.\d+)?)\s*%|\b(0\.9\d*)\b)")


def values_chosen(ev: Evidence) -> bool:
    """Are the loss values ones a reporter chose to give in sentences (a dialect whose values are chosen), not a log?"""
    dialect = dialects.named(ev.dialect)
    return dialect is not None and dialect.chosen


def softmax_floor_said(prose: str) -> str:
    """The fact, where the words put the loss just above a softmax-twice floor for the classes they name, beside an
    accuracy they say is high; or ""."""
    stays, accuracy, named = LOSS_STAYS.search(prose), ACCURACY_SAID.search(prose), classes_named(prose)
    if not (stays and accuracy and named) or _floor_hidden(prose):
        return ""
    share = float(accuracy.group(1)) / 100 if accuracy.group(1) else float(accuracy.group(2))
    classes, why = named
    floor, level = _floor_of(classes), float(stays.group(1))
    # (a value in words is rounded, "~0.95": beside an accuracy of FLOOR_ACCURACY_SURE or more, at which a cross-entropy
    # on logits is far below any such floor, three times the margin)
    near = FLOOR_NEAR * (3 if share >= FLOOR_ACCURACY_SURE else 1)
    if share < FLOOR_ACCURACY or classes < FLOOR_CLASSES.start or not floor <= level <= (1 + near) * floor:
        return ""
    return (f"the report says the loss stays at {stays.group(1)} (\"{' '.join(stays.group(0).split())}\") beside an "
            f"accuracy of {accuracy.group(1) or accuracy.group(2)}{'%' if accuracy.group(1) else ''}, just above "
            f"log(1 + (C - 1)/e) = {floor:.4f} for C = {classes} classes ({why}): the lowest a cross-entropy can go "
            "on outputs that already went through a softmax")


def _softmax_floor(ev: Evidence, accuracy: float | None) -> str:
    """The fact that the loss ended just above a softmax-twice floor while the accuracy was high, or ""."""
    if accuracy is None or ev.first_nonfinite is not None or ev.low is None or ev.count < 3:
        return ""
    share = accuracy / 100 if ev.accuracy_percent or accuracy > 1 else accuracy
    if share < FLOOR_ACCURACY or _floor_hidden(ev.prose):
        return ""
    named = classes_named(ev.prose)
    if named is not None:
        classes, why = named
        floor = _floor_of(classes)
        if classes < FLOOR_CLASSES.start or floor > ev.low:
            return ""
    else:
        below = [(c, f) for c in FLOOR_CLASSES if (f := _floor_of(c)) <= ev.low]
        if not below:
            return ""
        classes, floor = below[-1]
        start = math.log(classes)
        if not floor + (start - floor) / 2 <= ev.head[0] <= (1 + FLOOR_NEAR) * start:
            return ""
        why = (f"the count whose floor lies nearest below the loss, and near whose ln C, {start:.4f}, the loss "
               f"started ({fmt(ev.head[0])})")
    shown = ev.accuracy_tail[-1]      # the accuracy beside the last loss: the share its mean is over
    bound = _floor_at(classes, min(1.0, shown / 100 if ev.accuracy_percent or shown > 1 else shown))
    if ev.last > (1 + FLOOR_NEAR) * bound:
        return ""
    at = (f"; at that accuracy no lower than {bound:.4f}, as each example it gets wrong costs at least "
          f"log(2√e + C - 2) - 1/2 = {_wrong_floor_of(classes):.4f}" if bound - floor >= 0.0005 else "")
    return (f"the loss ends at {fmt(ev.last)} ({ev.where(ev.count - 1)}), never below log(1 + (C - 1)/e) = "
            f"{floor:.4f} for C = {classes} classes ({why}), beside an accuracy of {fmt(shown)}"
            f"{'%' if ev.accuracy_percent else ''}: the lowest a cross-entropy can go on outputs that already went "
            f"through a softmax{at}")


# The loss the words give for the model before any update ("at step 0, before any update, the mean BCE is about 4.7",
# "the initial loss is 9.8"), START_HIGH times ln C or more for the classes the paste names: an untrained classifier
# whose C logits have a spread s scores about ln C + (1 - 1/C) s^2 / 2 for s up to about 1 (a sigmoid's one logit: ln 2
# + s^2 / 8), near ln C at a standard initialisation on inputs of unit scale; three times ln C takes logits spread
# over several units (about 5 for a sigmoid's, where the loss grows as 0.4 s), outputs
# confidently wrong from the start -- weights drawn too large, or inputs far from unit scale. Half a printed fact for
# the entries whose phrases say the loss is huge before any training, or far above ln C at the start.
START_HIGH = 3.0
START_HIGH_WORDS = {"loss", "large"}
# (the words that make a loss the untrained model's: "the initial loss", "the first loss", "the loss at step 0", "before
# any update ... the loss" -- not a first of something else, "initial learning rate", "the first 100 steps")
_LOSS_WORD = r"(?:loss|bce|cross[- ]?entropy|nll)"
_NUMBER_ENDS = r"(\d+(?:\.\d+)?)(?!\d|\.\d|[eE][-+]?\d)"
START_LOSS_SAID = re.compile(r"(?i)\b(?:initial|first|starting|very first|untrained)\s+(?:training\s+|mean\s+|average\s+)?"
                             + _LOSS_WORD + r"\b(?!\s+(?:spikes?|jumps?|drops?|explosion|nan|curve))[^.?!\n\d]{0,20}?"
                             + _NUMBER_ENDS +
                             r"|\b(?:at (?:step|iteration|iter) 0|before (?:any|the first) (?:update|optimi[sz]er step|"
                             r"training step)|at initiali[sz]ation)\b,?\s+(?:(?!\b(?:lr|learning rate|steps?|epochs?)\b)"
                             r"[^.?!\n\d]){0,30}?\b" + _LOSS_WORD + r"\b[^.?!\n\d]{0,20}?" + _NUMBER_ENDS +
                             r"|\b" + _LOSS_WORD + r"\b[^.?!\n\d]{0,20}?" + _NUMBER_ENDS + r"\s+(?:at (?:step|iteration|iter) 0|"
                             r"before (?:any|the first) update)\b")
# (a cross-entropy the paste names, or a classifier; not a regression's or a summed loss, whose start is not ln C)
CROSS_ENTROPY_NAMED = re.compile(r"(?i)\bcross[- _]?entropy\w*|crossentropy\w*|\bb?ce\b|\bbce\w*|\bnll\w*|\blog[- ]?loss\b|"
                                 r"\bclassif\w+")


# The loss said to jump to several times its start within the first steps, WR-250's face, with both numbers: "the MSE
# starts at 0.38, shoots up to about 1.9 within the first ~20 steps"
EARLY_JUMP = re.compile(
    r"(?i)\b(?:loss|mse|mae|nll|ppl|perplexity|cost|error)\b(?:(?!\b(?:acc\w*|lr|learning rate|reward|return|norm)\b)"
    r"[^.;\n]){0,30}?\b(?:starts?|started|begins?|began|is|was)\s+(?:at|around|from)\s+(?:about\s+|around\s+|~\s*)?"
    r"(\d{1,12}(?:\.\d{1,12})?|\.\d{1,12})(?![\w.])[^.;\n]{0,40}?\b(?:shoots?|shot|jumps?|jumped|spikes?|spiked|climbs?|"
    r"climbed|goes|went|rises?|rose|blows?|blew)\s+(?:up\s+)?(?:to\s+)?(?:about\s+|around\s+|almost\s+|~\s*)?"
    r"(\d{1,12}(?:\.\d{1,12})?|\.\d{1,12})(?![\w.])"
    r"[^.;\n]{0,20}?\b(?:within|in|during|over)\s+the\s+(?:very\s+)?(?:first|initial)\s+(?:~\s*|about\s+)?"
    r"(?:\d+\s+|few\s+|couple\s+of\s+)?(?:steps?|iterations?|iters?|updates?|batches)\b")
EARLY_JUMP_TIMES = 2.0
# (denied, or another run's: "didn't jump", "in the paper", "like in the tutorial")
# (asked whether it happens -- "Does the loss usually start at 0.4 and shoot up ...?" -- not why it did: "..., any idea
# why?")
JUMP_ASKED = re.compile(r"(?i)^\s*(?:does|do|did|is|are|was|should|can|could|would|will|might|may)\b|\b(?:if|whether)\b")
JUMP_NOT_SEEN = re.compile(r"(?i)\b(?:not|never|didn't|doesn't|don't|isn't|wasn't|paper|tutorial|expected|supposed|"
                           r"should|usually|normally)\b")


@functools.lru_cache(maxsize=4)      # (asked by the context and by the printed facts of the same text; read only)
def early_jump_said(prose: str) -> str:
    """The words that say the loss jumped to EARLY_JUMP_TIMES its start or more within the first steps; or ""."""
    if PLAIN_SGD.search(prose) and not ADAPTIVE.search(prose):
        return ""                      # (plain SGD's first step is as large as its gradient makes it: no warmup's face)
    if WARMUP_NAMED.search(prose) and not NO_WARMUP.search(prose):
        return ""                      # (a warmup the paste names: its early jump is no missing warmup's)
    text = told(prose)
    for m in itertools.islice(EARLY_JUMP.finditer(text), 5):
        start, top = float(m.group(1)), float(m.group(2))
        sentence = text[slice(*sentence_around(text, m.start(), m.end(), stops=".;\n"))]
        if 0 < start and top >= EARLY_JUMP_TIMES * start and not JUMP_NOT_SEEN.search(sentence) \
                and not (sentence.rstrip().endswith("?") and JUMP_ASKED.search(sentence)):
            return " ".join(m.group(0).split())
    return ""


# A regression's first loss said in words, in any notation ("the MSE starts at 3.1e7", "initial loss was 2.4e+09")
REGRESSION_START_SAID = re.compile(
    r"(?i)\b(?:loss|mse|mae|rmse|squared error)\b[^.;\n]{0,20}?\b(?:starts?|started|begins?|began)\s+(?:at|around|from)\s+"
    r"(?:about\s+|around\s+|~\s*)?(\d{1,12}(?:\.\d{1,12})?(?:e\+?\d{1,3})?)(?!\w|\.\d)|"
    r"\b(?:initial|first|starting)\s+(?:training\s+)?(?:loss|mse|mae|rmse)\s*(?:is|was|of|:|=)\s*(?:about\s+|~\s*)?"
    r"(\d{1,12}(?:\.\d{1,12})?(?:e\+?\d{1,3})?)(?!\w|\.\d)")


def _regression_start_said(prose: str) -> tuple[float, str] | None:
    """The first loss the words give, when it is ENORMOUS_START or more and told (not asked, planned or denied)."""
    text = told(prose)
    for m in itertools.islice(REGRESSION_START_SAID.finditer(text), 5):
        value = float(m.group(1) or m.group(2))
        sentence = text[slice(*sentence_around(text, m.start(), m.end(), stops=".;\n"))]
        # (the words must say it did not learn, or that the loss is still enormous later in the same sentence: a
        # regression in dollars may start at 4e10 and learn; and not another run's number, "in the tutorial")
        still = re.search(r"\bstill\b[^.;\n]{0,20}?(\d+(?:\.\d+)?(?:e\+?\d{1,3})?)(?!\w|\.\d)", text[m.end():m.end() + 120])
        if value >= ENORMOUS_START and not doubted(text, m.start()) \
                and not re.search(r"\b(?:not|never)\b|n't\b", m.group(0)) and not JUMP_NOT_SEEN.search(sentence) \
                and not re.search(r"(?i)\b(?:tutorial|example|their|copied)\b", sentence) \
                and (says_not_learning(prose) or (still and float(still.group(1)) >= ENORMOUS_START)):
            return value, " ".join(m.group(0).split())
    return None


@functools.lru_cache(maxsize=4)      # (asked by the context and by the printed facts of the same text; read only)
def start_far_above_uniform(prose: str) -> str:
    """The fact, when the words give the untrained model's loss START_HIGH times ln C or more for the classes the
    paste names; or ""."""
    named = classes_named(prose)
    # (a class count the paste gives, not one a sigmoid's name implies; a cross-entropy, not a sum or a regression)
    if named is None or named[0] < 2 or "sigmoid" in named[1].lower() or not CROSS_ENTROPY_NAMED.search(prose) \
            or REGRESSION_SAID.search(prose) or SUMMED.search(prose):
        return ""
    classes, how = named
    uniform = math.log(classes)
    text = told(prose)
    for m in itertools.islice(START_LOSS_SAID.finditer(text), 5):
        if doubted(text, m.start()) or re.search(r"(?:\bnot|n't)\b[^.\n]{0,15}$", text[max(0, m.start() - 20):m.start()]) \
                or re.search(r"\b(?:not|never)\b|n't\b", m.group(0)):
            continue
        value = float(next(g for g in m.groups() if g))
        if value >= START_HIGH * uniform:
            return (f"the report gives the loss before any update as {fmt(value)} (\"{' '.join(m.group(0).split())}"
                    f"\"), {value / uniform:.2g} times ln {classes} = {uniform:.4g}, a uniform guess over the {classes} "
                    f"classes ({how}): an untrained "
                    "classifier starts near ln C when its weights are at a standard scale and its inputs at unit "
                    "scale; this far above it, its outputs are confidently wrong from the start -- weights drawn too "
                    "large, or inputs far from unit scale")
    return ""


# An accuracy said to climb beside a loss said to barely move ("validation accuracy climbs normally to 71% ... the
# training loss ... hardly changes", "accuracy goes up but the loss barely goes down"): the model learns and the loss
# cannot show it -- half a printed fact for the entries whose phrases say so (a softmax's probabilities handed to a
# loss that applies its own: WR-130), as the printed accuracy's rise is a whole one
ACCURACY_CLIMBS_SAID = re.compile(r"(?i)\bacc(?:uracy)?\b(?:[^.;\n?]|\.\d){0,40}?\b(?:climbs?|climbing|goes up|went up|going up|"
                                  r"improves?|improving|improved|rises?|rising|rose|increases?|increasing|increased|"
                                  r"reaches|reached|gets? to|got to)\b")
LOSS_BARELY_SAID = re.compile(r"(?i)\bloss\b(?:[^.;\n?]|\.\d){0,80}?\b(?:barely|hardly|only slightly|almost not|not really)\s+"
                              r"(?:moves?|moving|changes?|changing|goes down|going down|decreases?|decreasing|falls?|drops?)\b|"
                              r"\bloss\b(?:[^.;\n?]|\.\d){0,60}?\bonly (?:at|down to) \d+(?:\.\d+)?\b")


# (a sentence of another run, a condition or a wish; a loss of the validation rows, which overfitting keeps flat)
ROSE_ELSEWHERE = re.compile(r"(?i)\b(?:if|hope|want|would|old|before|previous\w*|used to|last time)\b|"
                            r"\b(?:val\w*|validation|test|eval\w*)[ _-]?loss\b")


@functools.lru_cache(maxsize=4)      # (asked by the context and by the printed facts of the same text; read only)
def accuracy_rose_said(prose: str) -> str:
    """The words of one told sentence that say the accuracy climbs while the loss barely moves, quoted; or "" (not
    denied, "the accuracy doesn't improve"; not of another run, a condition, a wish, or the validation loss)."""
    for sentence, end in sentences_and_ends(told(prose)):
        rose, barely = ACCURACY_CLIMBS_SAID.search(sentence), LOSS_BARELY_SAID.search(sentence)
        if not (rose and barely) or end == "?" or ROSE_ELSEWHERE.search(sentence) \
                or re.search(r"(?:n't|\bnot|\bnever)\b", rose.group(0)):
            continue
        return f"{' '.join(rose.group(0).split())} ... {' '.join(barely.group(0).split())}"
    return ""


VOCABULARY_MIN = 1000          # a vocabulary, not a class count
# A first loss the words give ("the very first loss is 10.37", "Initial loss 2.3026", "loss is 2.3026 at step 0").
FIRST_LOSS_SAID = re.compile(r"(?i)\b(?:(?:very )?first|initial|starting)\b[^.?!\n]{0,30}?\bloss(?:es)?\b[^.?!\n\d]{0,15}?"
                             r"(\d+\.\d+)|\bloss (?:is|was|of) (\d+\.\d+) at (?:step|iteration|iter|epoch) [01]\b|"
                             r"\bloss (?:starts|started|begins|began) (?:at|around|near) (\d+\.\d+)")
# ... and a later loss the words give ("after 500 epochs it's 1.0852", "still 2.30 after 20 epochs"): near the first
# (within PLATEAU_FALL of it), the run stayed where it started -- ln C is where a healthy run starts, not where it stays
LATER_LOSS_SAID = re.compile(r"(?i)\bafter\s+\d[\d,]*\s+(?:epochs?|steps?|iterations?|iters?|batches|updates)\b"
                             r"[^.?!\n\d]{0,20}?(\d+\.\d+)|\bstill\s+(?:at\s+|around\s+|about\s+|~\s*)?(\d+\.\d+)")


def uniform_start(ev: Evidence) -> str:
    """The words' first loss, when it is ln C for the classes the paste names (a vocabulary's tokens too): a fresh
    classifier's uniform guess, where a healthy run starts -- as "what it says", or ""."""
    said = FIRST_LOSS_SAID.search(ev.prose)
    if said is None:
        return ""
    first = float(next(g for g in said.groups() if g))
    named = classes_or_vocabulary(ev.prose)
    per_unit, _unit, log = loss_unit(ev.dialect)        # (fairseq prints bits: log2 V is its uniform guess)
    if named is None or not at_uniform(first * per_unit, named[0]):
        return ""
    classes, how = named
    if any(abs(float(v) - first) <= PLATEAU_FALL * first
           for m in LATER_LOSS_SAID.finditer(ev.prose, said.end()) for v in m.groups() if v):
        return ""
    return (f"the first loss the report gives, {first:g}, is {log} {classes} = {math.log(classes) / per_unit:.4g} "
            f"({how.removeprefix('the paste says ')})")


# A pretrained language model fine-tuned (its checkpoint loaded: `from_pretrained(`, "fine-tuning", LoRA), whose first
# loss is ln V for the vocabulary the paste names, or above: the uniform guess of a model that knows nothing of the
# tokens. A pretrained model starts far below it on text like its own; at it, the tokens it sees are not the ones it
# learned (another tokenizer with the same vocabulary size), or its weights did not load. Not a run from scratch, whose
# start that is.
# (a model's checkpoint loaded -- `AutoModelForCausalLM.from_pretrained(`, not a tokenizer's -- or fine-tuning said;
# a first loss within UNIFORM_ABOVE nats above ln V: far above it the start is broken some other way, a scale or a
# precision)
PRETRAINED = re.compile(r"(?i)\b\w*(?:model|lm|net)\w*\.from_pretrained\(|\bfine-?tun\w*|\bpre-?trained (?:model|weights|"
                        r"checkpoint)|\blora\b|\bpeft\b")
FROM_SCRATCH = re.compile(r"(?i)\bfrom scratch\b|\bpre-?training\b|\brandom(?:ly)? init\w*")
UNIFORM_ABOVE = 1.5


def pretrained_at_uniform(ev: Evidence) -> tuple[str, str] | None:
    """(what shows the model pretrained, why) when a fine-tuned language model's first loss is a uniform guess; or None."""
    if not ev.count or not math.isfinite(ev.head[0]) or not at_run_start(ev) or FROM_SCRATCH.search(ev.prose):
        return None
    shown, vocab = PRETRAINED.search(ev.prose), vocabulary_named(ev.prose)
    if shown is None or vocab is None:
        return None
    size, said = vocab
    per_unit, _unit, log = loss_unit(ev.dialect)        # (fairseq prints bits: log2 V is its uniform guess)
    first = ev.head[0] * per_unit
    if size < VOCABULARY_MIN or not (1 - UNIFORM_NEAR) * math.log(size) <= first <= math.log(size) + UNIFORM_ABOVE:
        return None
    return shown.group(0), (
        f"the run fine-tunes a pretrained model (`{shown.group(0)}`), and its first loss, {fmt(ev.head[0])} "
        f"({ev.where(0)}), is {log} {size} = {math.log(size) / per_unit:.4g} or more for the vocabulary the paste names "
        f"({said}): a uniform guess, what a model that knows nothing of the tokens scores. A pretrained "
        "language model starts far below it on text like its own; at it, the tokens it is handed are not the ones it "
        "learned (a tokenizer other than the model's own: the same vocabulary size, other ids) or its weights did not "
        "load (the warning that some weights were newly initialized). No entry covers this: load the tokenizer from "
        "the model's own checkpoint, and check the untouched model's loss on a few batches before training")
