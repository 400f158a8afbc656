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
import sys

from .class_count import UNIFORM_NEAR, at_uniform, classes_named, classes_or_vocabulary, vocabulary_named
from .curve_shape import (ACCURACY_RISE, ENORMOUS_START, NOT_A_MEAN, PLATEAU_FALL, Signature, at_run_start,
                          clip_never_applied, fmt,
                          same_batch_jumps)
from .data_checked import data_said_finite
from .frozen_said import one_output_said, weights_frozen_said
from .logscan import Evidence, dialects
from .logscan.dialects import loss_unit
from .one_class_iou import one_class_iou
from .wording import (ADAPTIVE, NO_WARMUP, UNDONE, WARMUP_NAMED, denied_before, sentence_around, told, BEFORE_TRAINING_NONFINITE, LOSS_BUILT, MINUS_SCORE, NORMALS, WARMUP_SET, loss_kind, said_unnegated, no_warmup_said, order_moved_it,
                      rate_zero_failed, says_not_learning,
                      score_out_of_range, sentences_and_ends, sentences_only, timing_of, tokens, untrained_output_enormous,
                      untrained_output_nonfinite)

ZERO_GRADIENT_WORDS, ACCURACY_WORDS = {"gradient", "exactly", "zero"}, {"accuracy", "improve"}
# The entries whose phrases say every input gets one output (a dead or a symmetric network's face): half a printed
# fact for words that say so (frozen_said)
ONE_OUTPUT_WORDS = {"output", "input"}
SIGMOID_ZERO_WORDS = {"sigmoidzero"}
# A learning rate printed beside the loss that rose (a warmup, a warm restart, a range test) through the climb,
# from where the loss was lowest to the climb's end: half a printed fact for the entries whose phrases say a raised
# rate diverges, and half against the special cases of the rate's curve (PART_OF), whose own causes grow the
# steps at a fixed rate -- a rate the log shows rising is the plain reading of steps that grow.
RATE_RAISED_WORDS = {"lr", "rais"}
# The entries whose phrases say the gradients were never cleared (`optimizer.zero_grad()` forgotten): a log printed
# by a tool whose trainer clears them each step (Dialect.clears_gradients) counts as much as a declared message
# against them.
UNCLEARED_WORDS = {"zero", "grad", "optimizer"}
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
# A dynamic loss scale printed beside the loss (`scale 3.2768e+04`, `loss_scale: 128`, `'loss scale': 1.0`) that fell
# to 0, or to SCALE_COLLAPSE of its first value or less: a scaler halves its scale and skips the step each time the
# gradients hold an inf or a nan, so a scale that kept falling skipped step after step -- the half-precision run
# overflows on every step, and its weights never change. A printed fact for the entries whose title names half
# precision. (PyTorch's GradScaler has no floor, fairseq's and DeepSpeed's stop at a minimum: either way.)
SCALE_PRINTED = re.compile(r"(?i)(?<![\w.])(?:loss[ _])?scale['\"]?[ \t]*(?:[:=|][ \t]*)?(\d+(?:\.\d*)?(?:e[-+]?\d+)?)(?![\w.])")
SCALE_COLLAPSE, SCALES_MIN = 2.0 ** -20, 3


def scales_printed(prose: str) -> tuple[float, ...]:
    """The dynamic loss scales the paste prints beside its loss (SCALE_PRINTED), in order."""
    return tuple(float(m.group(1)) for m in itertools.islice(SCALE_PRINTED.finditer(prose), 400))


def scale_recovered(prose: str) -> str:
    """Where the paste prints a dynamic loss scale SCALES_MIN times or more that, after its lowest value, rose again
    to twice that or more by its last: the words that say so, else "". A scaler doubles its scale only after a run of
    steps with no overflow (GradScaler's growth_interval, 2000; fairseq's scale_window), so a scale that rose again
    found one that holds: the steps it skipped before were its calibration, not a run overflowing step after step."""
    scales = scales_printed(prose)
    if len(scales) < SCALES_MIN:
        return ""
    low = min(range(len(scales)), key=scales.__getitem__)
    if low == len(scales) - 1 or scales[-1] < 2 * scales[low] or scales[low] <= 0:
        return ""
    return f"the loss scale printed beside the loss went down to {fmt(scales[low])} and rose again to {fmt(scales[-1])}"


# Gradient norms printed layer by layer (`layer 0  3.1e-10` ... `layer 11  1.2e-02`, under words that say they are
# gradients), DEPTH_DECADES orders of magnitude smaller at the first layer than at the last: the backward pass shrinks
# through every layer it crosses (a sigmoid's slope is at most 1/4), and the first layers get next to no gradient. A
# printed fact for the entries whose phrases say the first layers get no gradient.
FIRST_LAYERS_WORDS = {"layer", "gradient", "deep"}
LAYER_ROW = re.compile(r"(?im)^[ \t]*(?:layer|block|layers?\.|blocks?\.)[ \t]*\[?(\d{1,3})\]?[^\n\d]{0,40}?"
                       r"(\d+(?:\.\d+)?(?:e[-+]?\d+)?)[ \t]*\r?$")
GRADIENT_SAID = re.compile(r"(?i)\bgrad(?:ient)?s?\b|\.grad\b")
DEPTH_DECADES, LAYER_ROWS = 4, 3
# The inputs' statistics as pandas' describe() prints them: a `min` row and a `max` row of the same columns. Columns
# whose ranges differ SCALE_SPREAD times or more, the widest past SCALE_WIDE, are features on very different scales:
# a printed fact for the entries whose phrases say so, unless the words say the inputs were scaled (describe() of
# the raw frame, before a scaler).
SCALES_WORDS = {"feature", "different", "scale"}
STAT_ROW = re.compile(r"(?m)^[ \t]*(min|max)[ \t]+((?:-?\d+(?:\.\d+)?(?:e[-+]?\d+)?[ \t]+){1,40}-?\d+(?:\.\d+)?"
                      r"(?:e[-+]?\d+)?)[ \t]*\r?$", re.I)
SCALE_SPREAD, SCALE_WIDE = 1e3, 1e3
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
# ... and a pasted PyTorch loop that calls backward() and then step() within a few lines and clears the gradients
# nowhere in the paste (no zero_grad, no `.grad = None`, no `.zero_()`), beside a run that went wrong: half a printed
# fact for them (a paste may leave out the line that clears them: a fact, not a verdict).
# (on one line too, as a loop quoted in a sentence is: `loss.backward(); opt.step()`; and Lightning's manual
# optimisation, `self.manual_backward(loss)`, which leaves the clearing to the user's own opt.zero_grad())
BACKWARD_STEP = re.compile(r"(?:\.backward\(\)|\bmanual_backward\([^()\n]{0,80}\))"
                           # (on its line, after a semicolon: a sentence that says where a call goes, "right
                           # after loss.backward(), before optimizer.step()", is no loop)
                           r"(?:[ \t]*;[^\n]{0,200}?\.step\(\)|[^\n]*\n(?:[^\n]*\n){0,6}?[^\n]*(?:\.step\(\)|"
                           # (or an update written by hand from each parameter's .grad: `p.data -= lr * p.grad`,
                           # `w.sub_(lr * w.grad)`, as micrograd-style engines and from-scratch loops do)
                           r"(?:-=|\.sub_\(|\.add_\()[^\n]{0,120}?\.grad\b))")
GRAD_REQ_ADD = re.compile(r"\bgrad_req\s*=\s*['\"]add['\"]")
CLEARED = re.compile(r"zero_grad|\.grad\s*=\s*None|\.zero_\(\)|set_to_none|clear_grad|cleargrads|"
                     # (by hand: `p.grad = 0.0`, `p.grad.data = torch.zeros_like(...)`, `p.grad.fill_(0)`, `p.grad *= 0`,
                     # `p.grad[:] = 0`, MXNet's `p.grad()[:] = 0`)
                     r"\.grad(?:\(\))?(?:\.data)?\s*=\s*(?:0(?:\.0+)?(?![\d.])|(?:torch|np|jnp|nd|mx\.nd)\.zeros)|"
                     r"\.grad(?:\.data)?\.fill_\(\s*0(?:\.0+)?\s*\)|\.grad(?:\.data)?\s*\*=\s*0(?:\.0+)?(?![\d.])|"
                     r"\.grad(?:\(\))?(?:\.data)?\[\s*(?::|\.\.\.)\s*\]\s*=\s*0(?:\.0+)?(?![\d.])")
# ... and a statement that names the method without calling it (`optimizer.zero_grad`, no brackets) evaluates the
# bound method and throws it away: it clears nothing (a sentence that names zero_grad still says it is called)
UNCALLED = re.compile(r"(?m)^[ \t]*(?:self\.)?\w+(?:\.\w+)*\.zero_grad[ \t]*(?:#[^\n]*)?$")


def clears(code: str) -> bool:
    """Does the paste clear the gradients anywhere (CLEARED), leaving out a zero_grad named and never called?"""
    return bool(CLEARED.search(UNCALLED.sub("", code) if "zero_grad" in code else code))


# ... or a loop that clears them once, before an inner loop that calls backward() and step() on every batch and clears
# nothing (`optimizer.zero_grad()` once per epoch): every step in that loop carries the gradients of all the ones before
CLEARED_OUTSIDE = re.compile(r"(?m)^(?P<ind>[ \t]{0,40})(?![ \t#])[^\n]{0,200}?(?:zero_grad\(|\.grad\s*=\s*None)[^\n]*\n"
                             # (the loop's line may end in a comment: `for i, (x, y) in enumerate(loader):  # 938`)
                             r"(?:(?P=ind)(?![ \t])[^\n]*\n){0,3}?(?P=ind)(?P<loop>for\b[^\n#]{0,200}:)[ \t]*(?:#[^\n]*)?\n"
                             r"(?P<body>(?:(?P=ind)[ \t]+[^\n]*\n|[ \t]*\n){1,40})")


def cleared_outside(prose: str) -> str:
    """The inner loop, quoted, where the gradients are cleared only before it (CLEARED_OUTSIDE), else ''."""
    for m in itertools.islice(CLEARED_OUTSIDE.finditer(prose if prose.endswith("\n") else prose + "\n"), 20):
        body = m.group("body")
        if ".backward(" in body and re.search(r"\.step\(", body) and not clears(body):
            return m.group("loop")
    return ""


CLIP_LATE_WORDS = {"clip", "optimizer", "step"}       # (the entries whose phrases say a clip after the step)


# Gradient accumulation written by hand: the optimizer steps only inside an `if ... % k == 0:` block (the lines between
# indented under it), after a backward() above it. Each backward() adds a micro-batch's gradient, so k of them sum to k
# times the mean unless each loss was divided by k first -- by that count's own name or number (`loss / accum_steps`,
# `loss /= 16`). (Accelerate's accelerator.backward() divides by the count it was given itself.)
# (each run of spaces follows a token it needs: two runs side by side with only an optional bracket between them would
# try every split of a long run)
ACCUMULATES = re.compile(r"(?m)^(?P<ind>[ \t]{0,40})if\b[^\n]{0,120}?%[ \t]*(?:\([ \t]*)?(?P<k>[A-Za-z_][\w.]{0,60}|\d{1,5})"
                         r"[ \t]*(?:\)[ \t]*)?==[ \t]*0\b[^\n]{0,80}:[ \t]*(?:#[^\n]*)?\n(?:(?P=ind)[ \t]+[^\n]*\n){0,4}?"
                         r"(?P=ind)[ \t]+(?P<step>[^\n]{0,200}?\.step\([^\n]*)")
DIVIDES_ITSELF = re.compile(r"\baccelerator\.backward\(|\bscale_loss\(")


# A running loss printed as a sum: the loop adds each batch's loss to a name (`running_loss += loss.item()`), prints
# that name every n batches inside an `if i % n == r:` block with no division by n, and sets it back to 0. Each print
# is then the sum of n losses, not their mean (PyTorch's CIFAR-10 tutorial divides: `running_loss / 2000`) -- and with
# r = 0 the first print, after batch 0, holds that one batch alone, so the second comes out about n times the first.
ADDS_LOSS = re.compile(r"(?m)^[ \t]{0,40}(?P<acc>[A-Za-z_]\w{0,40})[ \t]*\+=[ \t]*(?P<what>[^\n]{0,80})$")
PRINTS_EVERY = re.compile(r"(?m)^(?P<ind>[ \t]{0,40})if\b[^\n]{0,80}?%[ \t]*(?P<n>\d{1,6})[ \t]*==[ \t]*(?P<r>\d{1,6})"
                          r"[^\n]{0,40}:[ \t]*\n(?:(?P=ind)[ \t]+[^\n]*\n){0,3}?(?P=ind)[ \t]+(?P<print>[^\n]{0,40}?"
                          r"\bprint\([^\n]*)")


def summed_prints(prose: str) -> tuple[str, int, bool] | None:
    """(the name, n, whether the first print holds one batch alone) where a pasted loop prints a running loss as the
    sum of the n batches since the last print (ADDS_LOSS, PRINTS_EVERY), else None."""
    for add in itertools.islice(ADDS_LOSS.finditer(prose), 20):
        acc, what = add.group("acc"), add.group("what")
        if not re.search(r"\bloss\w*\b", what) or "/" in what:
            continue        # (a mean added)
        reset = re.compile(r"[ \t]+" + re.escape(acc) + r"[ \t]*=[ \t]*0(?:\.0*)?[ \t]*$")
        for every in itertools.islice(PRINTS_EVERY.finditer(prose), 20):
            n, r, shown = int(every.group("n")), int(every.group("r")), every.group("print")
            # (set back to 0 in the same block, after each print: else each print sums every batch since the epoch
            # began, not the last n)
            block = itertools.takewhile(lambda line: line.startswith(every.group("ind")) and line[len(every.group(
                "ind")):][:1] in (" ", "\t"), prose[every.end():].split("\n")[1:8])
            if n >= 2 and r in (0, n - 1) and re.search(r"\b" + re.escape(acc) + r"\b", shown) \
                    and "/" not in shown and any(reset.match(line) for line in block):
                return acc, n, r == 0
    return None


def accumulation_fix(prose: str) -> str:
    """The first step of the fix where the paste accumulates gradients undivided (accumulated_undivided): the entry's own
    for accumulation on purpose, in the paste's names."""
    k = accumulated_undivided(prose)
    count = k if k.isdigit() else f"`{k}`"
    return (f"Divide each micro-batch's loss by {count} before backward() (`loss = loss / {k}`), so that the {count} "
            "gradients sum to their mean (if the micro-batches differ in size, weight each loss by its share of the "
            "examples instead), step after the last of them and clear the gradients (`optimizer.zero_grad()`) right "
            "after the step; keep the learning rate that trained with the whole batch.")


# A learning rate said or printed to have fallen to 1e-10 or below ("the lr is 1e-14 after epoch 1", `lr: 1.0e-27`): no
# step moves a weight at that rate, whatever the gradients.
# (the first number after the rate's name: "lr 0.1, weight decay 1e-10" names no such rate)
RATE_VANISHED = re.compile(r"\b(?:lr|learning[ _]rate|\[['\"]lr['\"]\])\b[^.\n\d]{0,80}?(?<![\w.])(?P<rate>\d(?:\.\d+)?[eE]-"
                           r"(?:1\d|[2-9]\d|\d{3}))(?![\w.])")



@functools.lru_cache(maxsize=4)      # (asked by the facts and by the fix the entry gets)
def accumulated_undivided(prose: str) -> str:
    """The accumulation count, quoted, where a pasted loop sums micro-batch gradients by hand without dividing each
    loss by that count (ACCUMULATES); '' where it does not, or divides."""
    if DIVIDES_ITSELF.search(prose):
        return ""
    for m in itertools.islice(ACCUMULATES.finditer(prose), 20):
        if "optimizer" not in m.group("step").lower() and not re.search(r"\b(?:opt\w*|scaler)\.step\(", m.group("step")):
            continue            # (a scheduler's step every k batches is no accumulation)
        if ".backward(" not in prose[:m.start()]:
            continue
        # (a loss divided by the count: on a line that assigns a loss or calls backward() -- not a floor division,
        # `len(loader) // accum_steps`, a count of steps, nor a printed mean, `running / accum_steps`)
        divided = re.compile(r"(?m)^(?=[^\n]*(?:\bloss\w*[ \t]*/?=|\.backward\())[^\n]*?(?<!/)/=?[ \t]*(?:\([ \t]*)?"
                             r"(?:float\()?" + re.escape(m.group("k")) + r"(?![\w.])")
        if not divided.search(prose):
            return m.group("k")
    return ""
# ... and a loop body that clears them every step: the clearing call and backward() at one indentation inside a
# block, a few lines apart (a zero_grad() before the loop, at a lesser indentation, clears them once: WR-260's bug)
# (each part bounded: a line of thousands of spaces must not make the search quadratic)
CLEARED_EACH_STEP = re.compile(r"(?m)^(?P<indent>[ \t]{1,40})(?![ \t#])[^\n]{0,200}?(?:zero_grad\(|\.grad\s*=\s*None)[^\n]*\n"
                               r"(?:[^\n]*\n){0,6}?(?P=indent)(?![ \t])[^\n]{0,200}?\.backward\(|"
                               r"^(?P<indent2>[ \t]{1,40})(?![ \t])[^\n]{0,200}?\.backward\([^\n]*\n"
                               r"(?:[^\n]*\n){0,6}?(?P=indent2)(?![ \t#])[^\n]{0,200}?(?:zero_grad\(|\.grad\s*=\s*None)")
# The entries whose phrases are about regression targets: a report of a classifier (a softmax or a cross-entropy
# named, an accuracy printed beside the loss) and of no regression counts as much as a declared message against them
# -- a classifier has no targets in raw units to leave unscaled.
REGRESSION_WORDS = {"regression", "label"}
# ... and those whose phrases say a softmax's output reaches a cross-entropy (WR-130): no regression's failure
PROBABILITY_LOSS_WORDS = {"softmax", "cross", "entropy"}
# What a report says was scaled already ("I standardised both X and y", "X is divided by 255"): the fix of the entries
# whose phrases say it was forgotten, done -- half a printed fact against them; and what it says was not ("X is not
# scaled", "I did not normalize the targets", "X but not y", "all features except the target"): half a fact for them.
FORGOT_INPUTS, FORGOT_TARGETS = {"forgot", "normalise", "input"}, {"forgot", "normalise", "label"}
# (or put through a scaler: "the inputs go through StandardScaler", "features passed through a MinMaxScaler")
_SCALED = (r"(?:standardi[sz]ed|normali[sz]ed|rescaled|scaled|z-?scored|divided|"
           # (the present tense says what the pipeline does: "I standardise the columns myself")
           # (not a negated one, which UNSCALED_SAID quotes whole: "did not normalize the targets")
           # (after "I" or "we", as a statement: PRESENT_DOUBTED leaves out a question, a plan or a condition)
           r"(?:(?<=\bi )|(?<=\bwe )|(?<=\bi also )|(?<=\bi just )|(?<=\bi always )|(?<=\bwe also )|(?<=\bwe always ))"
           r"(?:standardi[sz]e|normali[sz]e)\b|"
           r"(?:go(?:es)?|went|gone|passed|pass(?:es)?|run|ran)\s+through\s+(?:a\s+|an\s+|the\s+|sklearn'?s?\s+)?\w*Scaler\b)")
# (the object ends at a comma: "I standardized the inputs, targets are raw" scaled the inputs alone; and a subject
# needs no verb before its participle, as a note writes it: "Features standardized with StandardScaler")
SCALED = re.compile(r"\b" + _SCALED + r"\s+(?:both\s+|all\s+)?(?:the\s+|my\s+|our\s+)?(?P<what>[^.;:,\n]{1,40})"
                    r"|\b(?P<passive>x(?:_[a-z]{1,10})?|y(?:_[a-z]{1,10})?|inputs?|features?|targets?|labels?|images?|"
                    r"pixels?|prices?|outputs?|channels?|columns?|signals?)\s+(?:(?:is|are|was|were|have been|has been|got)\s+"
                    r"(?P<neg>not\s+|n't\s+|never\s+)?)?(?:already\s+|all\s+)?" + _SCALED, re.I)
# ... and what the words describe first, then say was not scaled: "target is yearly salary in dollars (30,000 to
# 250,000), not scaled"
# (the subject nearest before it, in the same clause of the sentence)
UNSCALED_AFTER = re.compile(r",\s*(?:not\s+|never\s+|un)" + _SCALED + r"\b", re.I)
SUBJECT_IS = re.compile(r"\b(?P<what>x|y|inputs?|features?|targets?|labels?|prices?|outputs?)\s+(?:is|are|was|were)\b", re.I)
# ... and said not done with the verb itself ("I didn't scale the features", "no scaling on the inputs", "I did not
# standardize anything"), or the values called raw ("the features are raw")
UNSCALED_SAID = re.compile(r"\b(?:did(?:n't| not)|do(?:n't| not)|never|without|forgot(?:ten)? to|no)\s+(?:\w+\s+)?"
                           r"(?:scal|normali[sz]|standardi[sz]|rescal)\w*\s+(?:of\s+|on\s+|for\s+)?(?:the\s+|my\s+|our\s+|any\s+)?"
                           r"(?P<what>\w+)|\b(?P<subject>x|inputs?|features?|pixels?|images?|targets?|labels?|y|prices?)\s+"
                           r"(?:are|is|were|was)\s+(?:still\s+|all\s+)?(?:raw|unscaled|unnormali[sz]ed|unstandardi[sz]ed|"
                           # ("the features are used as they come", "inputs are fed as is")
                           r"(?:used|fed|passed|left|kept|given)\s+(?:in\s+)?as[\s-](?:they\s+(?:come|are)|is))\b|"
                           # ("on raw features", "unnormalized inputs")
                           r"\b(?:raw|unscaled|unnormali[sz]ed|unstandardi[sz]ed)\s+(?P<raw>inputs?|features?|pixels?|"
                           r"images?|targets?|prices?|columns?)\b", re.I)
# A scaling the pasted code does: an array assigned a scaler's output (`y_train = y_scaler.fit_transform(...)`,
# `X = StandardScaler().fit_transform(X)`), or its own standardisation or min-max (`X = (X - X.mean(0)) / X.std(0)`, `y =
# (y - mu) / sd`, `X = X / 255.0` is the pixels' own, read elsewhere)
SCALED_IN_CODE = re.compile(r"(?m)^[ \t]*(?P<name>[A-Za-z_]\w{0,20})[ \t]*=[ \t]*(?:[\w.]*[Ss]caler\w*(?:\(\))?\.(?:fit_)?"
                            r"transform\(|\([ \t]*(?P=name)[ \t]*-[ \t]*[^()\n]{0,30}?(?:mean|mu|min)\w*"
                            r"(?:[^()\n]|\([^()\n]{0,20}\)){0,20}\)[ \t]*/)")
# (a split's name is its array's: x_train, X_val, y_test)
SCALED_TARGETS = re.compile(r"\b(?:y(?:_[a-z]{1,10})?|targets?|labels?|outputs?|prices?)\b", re.I)
SCALED_INPUTS = re.compile(r"\b(?:x(?:_[a-z]{1,10})?|inputs?|features?|images?|pixels?|data|columns?|channels?|signals?)\b", re.I)
# a verb that a negation governs ("did not normalize", "haven't standardised", "forgot to scale" -- the last two
# words before it)
NEGATED = re.compile(r"(?:\bnot|\b\w+n't|\bnever|\bwithout|\bforgot(?:ten)?(?: to)?)\s+(?:\w+\s+)?$", re.I)
# ... and where the object ends: a closing bracket, or a word that opens another phrase ("(already standardized
# target) from 4 features", "normalized the targets with the training mean"): what follows is not what was scaled
OBJECT_END = re.compile(r"[)\]]|\b(?:from|with|using|via|by|before|after|because|since|when|while|in|on|to|into|"
                        r"then|so|for)\b", re.I)
# ... and the part of an object that is left out ("X but not y", "all features except the target")
EXCEPT = re.compile(r"\b(?:but not|except(?: for)?|apart from|other than|not)\b", re.I)
# (not the word "accuracy": a regression compiled with metrics=['accuracy'] prints one, at 0)
CLASSIFIER = re.compile(r"\b(?:softmax|log_?softmax|cross[ _-]?entropy\w*|crossentropy\w*|nll_?loss|classifier|"
                        r"top-?[15]|mnist|cifar-?\d*|imagenet)\b", re.I)
# ... a regression: its words, or one output unit (`Dense(1)`, `Linear(64, 1)`: a classifier has one per class, or
# one sigmoid for two)
REGRESSOR = re.compile(r"\b(?:(?<!logistic )(?<!logistic-)regress\w*|mse\w*|mean[ _-]squared|squared[ _-]error|l[12][ _-]?loss|mae|targets? in)\b|"
                       r"price|predicting (?!(?:the |an? |which )?(?:class|label|categor|digit|whether|one of))\w+|\bDense\(\s*1\s*[,)]|"
                       r"\bLinear\([^()\n]{0,40},\s*1\s*\)|out_features\s*=\s*1\b", re.I)
# ... a regression said in words, with no word of a classifier's or of a sigmoid's: what no entry about a loss handed
# probabilities can explain (one output unit alone is no regression here: a binary classifier has one too)
# a loss of the error's size, not its square (MAE, L1, Huber and smooth L1 far from 0), named as the loss -- not a
# metric column beside it (Keras's `mae: 1.8e5` beside an MSE)
ABSOLUTE_LOSS = re.compile(r"\bloss\s*=\s*['\"](?:mae|mean_absolute_error|huber\w*)['\"]|\bnn\.(?:L1Loss|SmoothL1Loss|HuberLoss)\("
                           r"|\bF\.(?:l1_loss|smooth_l1_loss|huber_loss)\(|\blosses\.(?:MeanAbsoluteError|Huber)\("
                           r"|\b(?:mae|l1|mean absolute error|huber) loss\b|\bloss (?:is|was) (?:the |an? )?(?:mae|l1|mean absolute "
                           r"error|huber)\b", re.I)
# a loss summed over the examples (or the pixels) instead of averaged: enormous whatever the targets' units
SUMMED = re.compile(r"reduction\s*=\s*['\"]sum['\"]|size_average\s*=\s*False|\bsum(?:med)? (?:of|over) (?:the |all )?"
                    r"(?:per[- ]\w+ )?(?:\w+ )?(?:losses|errors|examples|samples|pixels|cross-?entropies)|\b(?:the )?sum,? not "
                    r"the mean|\bsummed\b|np\.sum\(|tf\.reduce_sum\(", re.I)
# A model with no hidden layer (with wording.ADAPTIVE, the optimisers whose step does not grow with the gradient:
# printed_facts' raw targets that climbed)
LINEAR_MODEL = re.compile(r"\blinear[ _-]?regression\b|\bLinearRegression\b|\bSGDRegressor\b", re.I)
SQUARED_BUILT = re.compile(r"(?i)mse|mean_?squared")
ABSOLUTE_BUILT = re.compile(r"(?i)(?:smooth_?)?l1\w*|huber\w*|mae\b|mean_?absolute_?error")


def _absolute_loss(prose: str) -> bool:
    """Is the regression's loss an absolute error (L1, MAE, Huber's tails)? The loss the code trains on decides (a
    `compile(loss="mse")` beside a question about Huber is a squared error); else the words."""
    built = [a or b for a, b in LOSS_BUILT.findall(prose)]
    if built:
        return any(ABSOLUTE_BUILT.match(n) for n in built) and not any(SQUARED_BUILT.search(n) for n in built)
    return bool(ABSOLUTE_LOSS.search(prose))


# A network of hidden layers said in words: "a Flax MLP 90 -> 256 -> 128 -> 1", "two hidden layers"
LAYERED_SAID = re.compile(r"(?i)(?<!no )(?<!without )(?<!zero )(?<!0 )\bhidden layers?\b|"
                          r"(?<!try )(?<!trying )(?<!tried )(?<!not )(?<!n't )(?<!would )\b(?:my|our|the|a|an)\s+(?:[\w-]+\s+){0,2}MLP\b|"
                          r"\b\d+\s*(?:->|→)\s*\d+\s*(?:->|→)\s*\d+")


def _linear_model(prose: str) -> bool:
    """Is the model a linear one: named so, in a paste that builds no network of two layers or more, in code or in
    words (a linear regression named as the baseline beside an MLP is not the model)?"""
    return bool(LINEAR_MODEL.search(prose)) and len(LAYERS_BUILT.findall(prose)) < 2 \
        and not LAYERED_SAID.search(told(prose))
PLAIN_SGD = re.compile(r"\bsgd\b|\bgradient descent\b", re.I)
REGRESSION_SAID = re.compile(r"(?<!logistic )(?<!logistic-)regress\w*|\b(?:mse\w*|mean[ _-]squared|squared[ _-]error|mae|prices?)\b", re.I)
PROBABILITY_WORDS = re.compile(r"\b(?:sigmoid|bce\w*|binary|logits?|probabilit\w*)\b", re.I)
# A pasted Keras model that ends in a softmax and a cross-entropy: probabilities are what that loss takes unless it is
# told from_logits=True (keras.losses, from_logits=False by default), so the pairing is Keras's own -- or, told so,
# the loss is handed probabilities as logits (WR-130).
# (the model's last Dense layer is its output, softmax when it says so; from_logits on a line of code that builds or
# compiles the loss, not in a sentence about something tried)
# (and the two-class pairing the same way: a sigmoid output and a binary cross-entropy, whose from_logits is False too
# unless set)
# (on Keras's TensorFlow backend the softmax keeps its logits on the tensor it returns and the cross-entropies use them,
# with a warning, when told from_logits=True: repaired there -- unless mixed precision converts the output first; on
# the JAX and PyTorch backends nothing repairs it: keras/src/backend/tensorflow/nn.py, _get_logits, at v3.15.1)
DENSE = re.compile(r"\bDense\((?:[^()\n]|\([^()\n]*\))*\)")
TF_BACKEND = re.compile(r"(?i)\btf\.keras\b|\bimport tensorflow\b|\bfrom tensorflow\b|KERAS_BACKEND\W{1,6}tensorflow|"
                        r"\b(?:tensorflow|tf) backend\b")
OTHER_BACKEND = re.compile(r"(?i)KERAS_BACKEND\W{1,6}(?:jax|torch)|\b(?:jax|torch|pytorch) backend\b|mixed_float16")
KERAS_OUTPUT = re.compile(r"activation\s*=\s*['\"](?P<act>softmax|sigmoid)['\"]")
# ... or said in words, in a report that names Keras: "softmax output, sparse_categorical_crossentropy", "a sigmoid
# output and binary_crossentropy" -- the output's activation and Keras's cross-entropy in one sentence
KERAS_NAMED = re.compile(r"(?i)\bkeras\b|\btf\.keras\b|\btensorflow\b|\btf \d")
KERAS_PAIRING_SAID = re.compile(r"(?i)(?<!no )(?<!without )(?<!removed the )(?<!remove the )\b(?P<act>softmax|sigmoid)\b"
                                r"[^.;\n]{0,20}?\b(?:output|last layer|final layer|head)\b[^.\n]{0,60}?\b(?P<loss>(?:sparse_)?categorical_crossentropy|"
                                r"binary_crossentropy)\b|\b(?:output|last layer|final layer)\b(?:(?!\b(?:no|without|linear)\b)"
                                r"[^.;\n]){0,20}?\b(?P<act2>softmax|sigmoid)\b[^.\n]{0,60}?\b(?P<loss2>(?:sparse_)?categorical_crossentropy|"
                                r"binary_crossentropy)\b")
KERAS_CROSSENTROPY = re.compile(r"(?:sparse_)?categorical_crossentropy|(?:Sparse)?CategoricalCrossentropy|"
                                r"binary_crossentropy|BinaryCrossentropy")
_KERAS_CE = r"(?:categorical_crossentropy|CategoricalCrossentropy|binary_crossentropy|BinaryCrossentropy)"
FROM_LOGITS = re.compile(r"(?m)^[ \t]*(?:[\w.]+\.compile\(|\w+\s*=)[^\n]*" + _KERAS_CE +
                         r"[^\n]{0,80}?from_logits\s*=\s*True|"
                         # (or the loss built with it in a sentence's code: "the loss is
                         # `keras.losses.SparseCategoricalCrossentropy(from_logits=True)`")
                         # (in backticks, as code the words quote: not a sentence of a run tried, "I already tried
                         # loss=CategoricalCrossentropy(from_logits=True), same thing")
                         r"`[\w.]{0,40}" + _KERAS_CE + r"\([^()\n`]{0,80}?"
                         r"from_logits\s*=\s*True[^`\n]{0,20}`")
# ... and a pasted PyTorch model whose output is a sigmoid's or a softmax's (`return torch.sigmoid(...)`, a Sequential
# that ends in nn.Sigmoid()), beside a loss that applies its own (BCEWithLogitsLoss, CrossEntropyLoss): probabilities
# handed over as logits. (Not a softmax inside the model, as attention's: only what forward() returns, or what the
# Sequential ends in; with several forward()s pasted, the last one's -- a model's own comes after its parts', and a
# gate's or a helper's may return one.)
TORCH_PROBABILITY_OUT = re.compile(r"\breturn\s+(?:torch\.|F\.|nn\.functional\.|self\.|jax\.nn\.|jnn\.|nn\.(?=[a-z]))?"
                                   # (Flax's and JAX's functions too: `return nn.softmax(x)`, `jax.nn.sigmoid(...)`)
                                   r"(?:sigmoid|softmax)\("
                                   r"(?:[^()\n]|\((?:[^()\n]|\([^()\n]*\))*\))*\)"
                                   # (a shape's methods after it change no value: `.squeeze(-1)`, `.view(-1)`)
                                   # (or quoted in a sentence, `return self.softmax(self.fc(x))`, its backtick ending it)
                                   # (and a comment after it: `return torch.sigmoid(self.head(x))  # probabilities`)
                                   r"(?:\.(?:squeeze|unsqueeze|view|reshape|flatten)\([^()\n]*\))*(?:[ \t]*(?:#[^\n]*)?$|`)|"
                                   r"\b(\w+)\s*=\s*(?:torch\.|F\.|self\.)?(?:sigmoid|softmax)\([^\n]{0,120}\n[ \t]*return\s+\1\s*$|"
                                   # (a Sequential's last module; or the module alone in a sentence's backticks, "the
                                   # model ends with `nn.Softmax(dim=1)`")
                                   r"\bnn\.(?:Sigmoid|Softmax)\([^()\n]{0,20}\)\s*(?:,\s*)?\)|"
                                   r"(?<=`)nn\.(?:Sigmoid|Softmax)\([^()\n`]{0,20}\)(?=`)|"
                                   # (or the last of the layers a sentence's backticks list, "ends with `nn.Linear(256,
                                   # 10), nn.Softmax(dim=1)`")
                                   r"(?<=, )nn\.(?:Sigmoid|Softmax)\([^()\n`]{0,20}\)(?=`)|"
                                   # (or in a sentence's plain words, "at the model's end I put nn.Softmax(dim=1)": not
                                   # in a Sequential's middle, nor assigned to a name, which may be a hidden layer's)
                                   r"(?<![\w.(,=])(?<![(,=] )nn\.(?:Sigmoid|Softmax)\([^()\n]{0,20}\)(?![ \t]*,)(?![ \t]*\n[ \t]*nn\.)|"
                                   # (or the last of the layers a sentence chains with arrows, "Linear(128,10) → Softmax")
                                   r"(?:→|->|=>)[ \t]*(?:nn\.)?(?:Sigmoid|Softmax)\b(?:\([^()\n]{0,20}\))?(?![ \t]*(?:→|->|=>))|"
                                   # (or a Julia Flux Chain whose last layer is the function: `Chain(Dense(32 => 6),
                                   # softmax)`, `Chain(..., σ)`)
                                   r"\bChain\((?:[^()\n]|\((?:[^()\n]|\([^()\n]*\))*\))*,[ \t]*(?:NNlib\.|Flux\.)?"
                                   r"(?:softmax|sigmoid|σ)[ \t]*\)",
                                   re.M)
ARROW = ("→", "->", "=>")
# (named in a sentence too: "training uses nn.CrossEntropyLoss")
TORCH_LOGITS_LOSS = re.compile(r"\b(?:nn\.)?(?:BCEWithLogitsLoss|CrossEntropyLoss)\b|\bF\.(?:cross_entropy|"
                               r"binary_cross_entropy_with_logits)\(|"
                               # (optax's losses take logits too)
                               r"\boptax\.(?:losses\.)?(?:softmax_cross_entropy(?:_with_integer_labels)?|"
                               r"sigmoid_binary_cross_entropy)\b|"
                               # (and Flux's, whose logit versions apply their own softmax or sigmoid)
                               r"\blogit(?:binary)?crossentropy\(")
RATE_CLIMB = 1.25              # the rate at the climb's end this many times the one at the loss's lowest,
RATE_NEAR_PEAK = 0.9           # ... and this near the highest it reached in the climb
RATE_CLIMBS = {"climb-then-nonfinite", "descent-then-climb", "climb-despite-clipping", "climbing",
               "climbed-and-stayed"}
# A cross-entropy computed on outputs that already went through a softmax cannot go below log(1 + (C - 1)/e) for C
# classes (WR-130: 1.4612 for ten): a loss that ends within FLOOR_NEAR above that floor, never below it, while the
# accuracy printed beside it reaches FLOOR_ACCURACY, is that failure's fingerprint -- a printed fact for the entries
# whose phrases say the loss will not go below it. C is the class count whose floor is nearest below the loss (3 or
# more: two classes' floor, 0.3133, is an ordinary loss at that accuracy).
# What a paste shows of its data: labels set to -1 ("unlabelled rows set to y = -1"; not an `ignore_index=-1` the loss
# is told about, nor rows filtered out with `!= -1`, nor the -1/+1 labels of a hinge loss), and, beside a run that
# went wrong, an input whose largest value prints as 255 (`X_train.max()` -> 255, raw 8-bit pixels; not a mask's or a
# target's, nor in a paste that scales the pixels) -- half a printed fact for the entries whose phrases say so.
# A number handed to exp, or to a softmax written by hand, past what exp can return: exp(x) overflows above
# log(largest float), 709.78 in float64 (NumPy's default) and 88.72 in float32 (PyTorch's, TensorFlow's and JAX's).
# A library's softmax (torch.softmax, F.softmax, tf.nn.softmax, scipy's) subtracts the largest input first and
# does not overflow: only a bare `softmax(` is taken for a hand-written one. Half a printed fact for the entries
# whose phrases say exp overflows.
EXP_OVERFLOW_WORDS = {"exp", "overflow"}
EXP_CALL = re.compile(r"(?<![\w.])(?:(?P<lib>np|numpy|math|torch|jnp|tf\.math|tf)\.)?(?P<fn>exp|(?<![\w.])softmax)\s*"
                      r"\((?P<args>[^()\n]{0,160}(?:\([^()\n]{0,160}\)[^()\n]{0,160})?)\)")
# ... handed as literal numbers: one, or a list or an array of them (not `-step / 2000`, an expression)
# (each run of spaces follows a token it needs: runs side by side with only optional tokens between them split one
# long run every way, and `exp(1` before 400 spaces took 17 s)
LITERAL_ARGS = re.compile(r"\s*(?:(?:np|numpy|torch|jnp|tf)\.(?:array|tensor|asarray|constant)\(\s*)?(?:\[\s*)?"
                          r"-?(?:\d+(?:\.\d*)?|\.\d+)(?:e[-+]?\d+)?(?:\s*,\s*-?(?:\d+(?:\.\d*)?|\.\d+)(?:e[-+]?\d+)?)*\s*(?:,\s*)?"
                          r"(?:\]\s*)?(?:,\s*dtype\s*=\s*[\w.]+\s*)?(?:\)\s*)?", re.I)
EXP_NUMBER = re.compile(r"(?<![\w.])-?\d+(?:\.\d*)?(?:e[-+]?\d+)?(?![\w.])", re.I)
# (the log-sum-exp *trick* is the shift; "log-sum-exp pooling" names an operation, shifted or not)
STABLE_SAID = re.compile(r"\b(?:logsumexp|log_softmax|log-sum-exp trick|subtract(?:ing|s)? the max\w*|max subtraction|"
                         r"stable softmax)\b", re.I)
FLOAT32_SAID = re.compile(r"\b(?:float32|fp32)\b", re.I)
EXP_LIMITS = {"float64": math.log(sys.float_info.max), "float32": math.log((2 - 2 ** -23) * 2.0 ** 127)}
# Three constructs of pasted code that break at one value, each the construct an entry's Why section names, beside a
# run whose loss went nan or inf (in its values or its words); half a printed fact each for the entries whose phrases
# say so. Read in code only: not in a comment or a docstring. (Each pattern bounded, so a long line costs
# no more than its length.)
# - Masked scores filled with -inf (`masked_fill(mask, float('-inf'))`, `np.where(mask, s, -np.inf)`,
#   `scores[~mask] = -math.inf`; a subscript only where its index is a boolean mask, not `history["best"] = -np.inf`
#   nor one token's column, `logits[:, pad_id]`): a row whose every position is masked is all -inf, and its softmax
#   is exp(-inf - (-inf)) = nan. Attention is written so (PyTorch's MultiheadAttention is, and gives nan on such a row;
#   F.scaled_dot_product_attention has returned 0 there since PyTorch 2.5), and breaks only on a row with nothing to
#   attend to: a suspect beside a nan, not a bug on its own.
MASKED_SOFTMAX_WORDS = {"mask", "softmax"}
_NEG_INF = (r"(?:float\(\s*['\"]-inf(?:inity)?['\"]\s*\)|-\s*float\(\s*['\"]inf(?:inity)?['\"]\s*\)"
            r"|-\s*(?:np|numpy|math|torch|jnp)\.inf\b)")
MASKED_INF = re.compile(r"\bmasked_fill_?\([^\n]{0,120}?,\s*" + _NEG_INF + r"\s*\)?|\bwhere\([^\n]{0,120}?,\s*" + _NEG_INF
                        + r"\s*\)|\[(?=[^\]\n]{0,40}(?:mask|~|==|!=|<|>|\bis_|bool))[^\]\n]{1,40}\]\s*=\s*" + _NEG_INF)
# - A log of a probability with nothing to keep it off 0 (`np.log(1 - y_hat)`, a binary cross-entropy's,
#   `tf.log(tf.sigmoid(z))`, `torch.log(p)` where the paste makes p with a sigmoid or a softmax): a probability that
#   rounds to 0 -- a float32 sigmoid of about -88 or less (PyTorch, JAX, TensorFlow), or 1 - p for a p that rounds to
#   1 (a sigmoid of about 17 or more) -- makes it -inf, and the loss nan or inf. Not with an eps added, a clamp or a
#   max inside it, nor log_softmax or logsigmoid (computed stably), nor log1p (another name, though log1p(-p) breaks
#   the same way); not a log of a name the paste does not show to be a probability (`np.log(p)` of prices).
LOG_OF_ZERO_WORDS = {"log", "epsilon"}
# (a call of a library's function, and its argument: one level of brackets inside it at most)
# (Paddle's and MXNet's too, and Julia's broadcast log, `log.(ŷ)`)
_LIBRARY = r"(?<![\w.])(?:(?:torch|np|numpy|tf|tf\.math|jnp|math|K|ops|keras\.ops|paddle|mx\.nd|mx\.np|nd)\.)?"
_ARGUMENT = r"(?P<arg>[^()\n]{0,80}(?:\([^()\n]{0,80}\)[^()\n]{0,40})?)\)"
_LOG_OPEN = _LIBRARY + r"log\.?\(\s*"
LOG_CALL = re.compile(_LOG_OPEN + _ARGUMENT)
# A term times the log of itself, or of itself over another, written by hand: `t * torch.log(t / p)`, `p * np.log(p)`
# (a KL divergence, an entropy) -- not xlogy, and not with anything added inside the log
XLOGX = re.compile(r"(?<![\w.])(?P<a>[A-Za-z_]\w{0,30}(?:\[[^\]\n]{0,20}\])?)\s*\*\s*(?:torch\.|np\.|jnp\.|tf\.math\.|math\.)?"
                   r"log\(\s*(?P=a)\s*(?:/\s*[A-Za-z_][\w.]{0,30}(?:\[[^\]\n]{0,20}\])?\s*)?\)")
PROBABILITY_ARG = re.compile(r"\b(?:sigmoid|softmax)\b|^(?:probs?|probabilit\w*)$", re.I)
# (a name in any script, Julia's `ŷ` too, and Julia's broadcast minus, `1 .- ŷ`)
NAME_ARG = re.compile(r"^(?P<minus>1(?:\.0*)?\s*\.?-\s*)?(?P<name>(?!\d)\w{1,31})$")
KERAS_ACTIVATION = re.compile(r"\bactivation\s*=\s*['\"](\w+)['\"]")
# the model's last layer, whose activation is the output's: a Dense (linear unless it names one) or an Activation
KERAS_LAYER = re.compile(r"\bDense\([^\n]{0,160}|\bActivation\(\s*['\"](?P<activation>\w+)['\"]")
KERAS_LOSS_DEF = re.compile(r"\bdef\s+\w+\(\s*y_true\s*,\s*y_pred\s*\)")
GUARDED = re.compile(r"\+\s*(?:\w*eps\w*|(?:\d+(?:\.\d+)?|\.\d+)e-\d+|0?\.0*[1-9])|(?:(?<!\w)\w*eps\w*|(?<![\d.])(?:\d+(?:\.\d+)?|\.\d+)e-\d+)\s*\+|clamp|clip|"
                     r"\bmax\(|maximum", re.I)
# - An exp whose result is divided by a sum of exps, or summed inside a log (a softmax or a log-sum-exp written by
#   hand: `jnp.exp(s) / jnp.exp(s).sum(-1)`, `den = torch.exp(sim).sum(1)` then `num / den`,
#   `np.log(np.sum(np.exp(z)))`),
#   with nothing subtracted from its input first (no max in the call, none in what made a bare name it is handed): an
#   input past about 88.7 in float32 makes exp inf, and inf / inf is nan (a log of it, inf). Not a sigmoid's
#   `1 / (1 + exp(-z))`: its inf gives the correctly rounded 0.0 (see BENIGN_OVERFLOW).
# (Julia's broadcast call too: `exp.(s) ./ sum(exp.(s))`)
EXP_OF = re.compile(_LIBRARY + r"exp\.?\(\s*" + _ARGUMENT)
SHIFTED = re.compile(r"max|logsumexp|log_softmax", re.I)
# - An exp of a layer's or a model's raw output, the prediction itself (`torch.exp(self.net(x))`, an exp link for a
#   rate or a scale, a VAE's `torch.exp(self.log_var(h))`): nothing bounds a layer's output, and one past about 88.7 in
#   float32 makes the prediction inf (softplus, or a clamp of the input, bounds it). Not a clamped input, nor a
#   parameter's exp (`torch.exp(self.log_scale)`).
EXP_OF_OUTPUT = re.compile(_LIBRARY + r"exp\(\s*(?:self\.\w+|\w*(?:net|model|layer|linear|fc|dense|head|decoder|mlp)\w*)"
                           r"\s*\([^()\n]{0,80}\)\s*\)", re.I)
# ... or multiplies exps into a running product over a sequence, a forward algorithm in probability space (`alpha =
# (alpha @ jnp.exp(trans)) * jnp.exp(emissions[t])`, `alpha *= np.exp(scores[t])`): each step multiplies in another
# exponential, so the product grows (or shrinks) exponentially with the sequence's length -- WR-020's CRF/HMM face.
EXP_PRODUCT = re.compile(r"(?m)^[ \t]*(?P<acc>[A-Za-z_]\w{0,30})\s*(?:\*=|=\s*\(?\s*(?P=acc)\b\s*[*@])[^\n]{0,120}?"
                         + _LIBRARY + r"exp\(")
EXP_CALLS_READ = 50
# - A square root with nothing added under it (`torch.sqrt(((a - b) ** 2).sum(1))`), a JAX, TensorFlow or Keras norm
#   (`jnp.linalg.norm(a - b)`; Keras's on the JAX or TensorFlow backend), or a where that picks a sqrt or a log on one
#   branch (`where(s > 0, sqrt(s), 0)`, `where(y > 0, y * log(y), 0)`): fine in value at 0, but the slope of sqrt
#   there is 1 / (2 sqrt(0)) = inf, and inf * 0 in the backward pass is nan (a norm's gradient at a zero vector is
#   x / ||x|| = 0/0; the where's other branch is still differentiated). Not PyTorch's norm: torch.linalg.vector_norm
#   gives a zero gradient at 0 (WR-050's framework part); not math.sqrt, of a Python number that has no gradient;
#   not the double where, whose inner where made the value safe first (WR-050's own fix).
SINGULAR_SLOPE_WORDS = {"sqrt", "gradient"}
# (a sqrt of what can be 0: a sum of squares, a difference, a variance -- not of a size, `np.sqrt(d_k)`, nor of an
# init's scale, `np.sqrt(2 / fan_in)`)
DIFFERENCE = re.compile(r"\w\s*-\s*[\w(]|\*\*\s*2|\bpow\(|\bsum\(|\bsquare\(|\bvar\(|\bmean\(|\bdot\(|@")
SQRT_CALL = re.compile(r"(?<![\w.])(?:(?:torch|np|numpy|tf|tf\.math|jnp)\.)?(?<!math\.)sqrt\(\s*(?P<arg>(?:[^()\n]|\((?:"
                       r"[^()\n]|\([^()\n]{0,60}\)){0,80}\)){0,120})\)|(?P<norm>\b(?:jnp\.linalg|tf|keras\.ops|ops)\.norm\()|"
                       r"(?P<where>\bwhere\([^\n]{0,80}?,[^,\n]{0,40}?\b(?:sqrt|log)\()(?![^\n]{0,80}where\()"
                       r"\s*(?P<inner>[\w.]{1,40})?")
# ... and a tensor's own sqrt method on a squared difference (`((a - b) ** 2).sum(-1).sqrt()`): the line before it, with
# no eps added by a method either (`.add(1e-8)`)
SQRT_METHOD = re.compile(r"(?m)^(?P<line>[^\n]{0,200}?)\.sqrt\(\s*\)")
ADDED = re.compile(r"\.add_?\(\s*(?:\w*eps\w*|(?:\d+(?:\.\d+)?|\.\d+)e-\d+|0?\.0*[1-9])", re.I)
TRIPLE_QUOTED = re.compile(r'"""|\'\'\'')


def _line_from(text: str, start: int) -> str:
    """The text from `start` to its line's end, its runs of spaces made one, to quote; or to the backtick that closes
    the code a sentence quotes, where `start` is inside one."""
    end = text.find("\n", start)
    end = end if end >= 0 else len(text)
    if text.count("`", text.rfind("\n", 0, start) + 1, start) % 2 and (tick := text.find("`", start, end)) >= 0:
        end = tick
    return " ".join(text[start:end].split())


def code_of(prose: str) -> str:
    """The paste with what is not code blanked (same length, lines kept): comments (`#`, `//`), docstrings and other
    triple-quoted strings."""
    chars, opened = list(prose), None
    for m in TRIPLE_QUOTED.finditer(prose):           # (paired in order: each mark costs its own length)
        if opened is None:
            opened = m
        elif m.group(0) == opened.group(0):
            for i in range(opened.start(), m.end()):
                if chars[i] != "\n":
                    chars[i] = " "
            opened = None
    return re.sub(r"(?:#|//)[^\n]*", lambda m: " " * len(m.group(0)), "".join(chars))


def log_call_of(name: str) -> re.Pattern:
    """A log of this very name, alone (the other term of a binary cross-entropy)."""
    return re.compile(_LOG_OPEN + re.escape(name) + r"\s*\)")


def _probability_named(arg: str, code: str, weighted: bool) -> bool:
    """Is the log's argument a probability: a sigmoid's or a softmax's output named in it, probs, a name the paste
    assigns from a sigmoid or a softmax, one minus a name whose own log the paste takes too, weighted (`weighted`: the
    call is multiplied by something, as a binary cross-entropy's `(1 - y) * log(1 - p)` is), or the y_pred of a Keras
    loss function beside a model whose output layer (the last Dense or Activation pasted) is a sigmoid or a softmax
    (Keras hands a loss the model's output as y_pred), or what a pasted PyTorch model returns when it returns one?"""
    if PROBABILITY_ARG.search(arg):
        return True
    m = NAME_ARG.match(arg)
    if not m:
        return False
    name = m.group("name")
    # (not a log(alpha) - log(1. - alpha) of a schedule's constants: the two terms of no cross-entropy)
    if m.group("minus") and weighted and log_call_of(name).search(code):
        return True
    if name == "y_pred" and KERAS_LOSS_DEF.search(code):
        last = None
        for last in KERAS_LAYER.finditer(code):
            pass
        if last is not None and (last.group("activation") or
                                 (KERAS_ACTIVATION.findall(last.group(0)) or ["linear"])[-1]) in ("sigmoid", "softmax"):
            return True
    # (`probs = model(xb)` beside a pasted PyTorch model that returns a sigmoid's or a softmax's output)
    if re.search(r"(?<![\w.])" + re.escape(name) + r"\s*=\s*(?:self\.)?\w*(?:model|net)\w*\(", code, re.I) \
            and model_output(code):
        return True
    return re.search(r"(?<![\w.])" + re.escape(name) + r"\s*=[^=\n][^\n]{0,120}?\b(?:sigmoid|softmax)\b",
                     code) is not None


def _weighted(code: str, m: re.Match) -> bool:
    """Is the call multiplied by something: `(1 - y) * log(1 - p)`, `log(1 - p) * (1 - y)`, `np.multiply(np.log(1 - A2),
    1 - Y)`?"""
    before, after = code[max(0, m.start() - 40):m.start()].rstrip(), code[m.end():m.end() + 40].lstrip()
    return before.endswith(("*", "multiply(")) or after.startswith("*")


def _guarded_before(name: str, code: str) -> bool:
    """Does the paste keep the name off 0 before its log (`y_pred = K.clip(y_pred, K.epsilon(), 1 - K.epsilon())`,
    `p = p.clamp(min=1e-7)`, `p += eps`)?"""
    return any(GUARDED.search(m.group(1)) for m in
               re.finditer(r"(?<![\w.])" + re.escape(name) + r"\s*(?:=(?!=)|\+=)([^\n]{0,160})", code))


def _exp_in_a_ratio(code: str) -> re.Match | None:
    """The first exp call of the code (see EXP_OF) whose result a sum of exps divides or a log takes, its input
    unshifted.
    Among the first EXP_CALLS_READ calls: each is judged against the whole code, and a paste writes a softmax once."""
    for m in itertools.islice(EXP_OF.finditer(code), EXP_CALLS_READ):
        arg = m.group("arg")
        if SHIFTED.search(arg) or ((name := NAME_ARG.match(arg.strip())) and re.search(
                r"(?<![\w.])" + re.escape(name.group("name")) + r"\s*=(?!=)[^\n]{0,160}?(?:max|logsumexp)",
                code[:m.start()])):
            continue
        start = code.rfind("\n", 0, m.start()) + 1
        line = code[start:(code.find("\n", m.end()) + 1 or len(code) + 1) - 1]
        if "Warning: " in code[code.rfind("\n", 0, max(start - 1, 0)) + 1:start]:
            continue        # (the line a Python warning echoes: when it was printed, the message's own reading says)
        # (a mean of exps is a sum of them over n: `log(mean(exp(r * s)))` is a log-sum-exp less log n)
        if ("sum(" in line or "mean(" in line) and ("/" in line or re.search(r"(?<![\w.])(?:\w+\.)?log\(", line)):
            return m
        # (a name made with it: divided by later, when it is the sum; divided by its own sum, when it is the exps)
        made = re.match(r"\s*(?P<name>[A-Za-z_]\w{0,30})\s*=(?!=)", line)
        name = re.escape(made.group("name")) if made else ""
        if made and re.search(r"/\s*(?:\(\s*)?(?:" + (name + r"\b(?![\w.(\[])|" if "sum(" in line else "")
                              + name + r"\.sum\(|(?:\w+\.)*sum\(\s*" + name + r"\b)", code[m.end():]):
            return m
        # ... or summed into a name of its own that divides later (`denom = (exp_sim * mask).sum(1)`, then
        # `exp_sim[pos] / denom`)
        summed = re.search(r"(?m)^[ \t]*(?P<den>[A-Za-z_]\w{0,30})\s*=(?!=)[^\n]{0,120}?\b" + name
                           + r"\b[^\n]{0,120}?\bsum\(", code[m.end():]) if made else None
        if summed and re.search(r"/\s*(?:\(\s*)?" + re.escape(summed.group("den")) + r"\b(?![\w.(\[])",
                                code[m.end() + summed.end():]):
            return m
    return None


# A key_padding_mask handed to attention, beside words that a sequence can be all padding ("length 0", "empty after
# cleaning", "its whole mask row is True"): a query with every key masked (WR-070's page: nn.MultiheadAttention with
# its default need_weights=True gives it a nan output)
PADDING_MASK = re.compile(r"\bkey_padding_mask\b|\bsrc_key_padding_mask\b")
# ... or said in words: "positions that are not mentions filled with float('-inf'), then softmax", "masked logits are
# set to -inf" (not a denial, "instead of -inf", "rather than -inf")
MASKED_INF_SAID = re.compile(r"(?i)\b(?:fill(?:ed|s|ing)?|set|sets|setting|mask(?:ed|s|ing)?|replac(?:ed|es|ing))\b"
                             r"(?:(?!\b(?:instead|rather|not)\b)[^.;\n]){0,60}?\b(?:with|to|by)\s+`?(?:float\(\s*['\"]-inf(?:inity)?['\"]\s*\)|"
                             r"-\s?inf(?:inity)?\b|-∞|negative infinity|minus infinity)")
# ... and sequences padded on the left under a causal mask: "left-padded with zeros to 120 steps",
# `padding_side="left"`, Keras's `padding="pre"`; beside `generate_square_subsequent_mask`, `is_causal=True`, a causal
# or look-ahead mask (WR-070's own case)
LEFT_PADDED = re.compile(r"(?i)\bleft[- ]?pad(?:s|ded|ding)?\b|\bpadd(?:ed|ing)\s+(?:on|at|to|from)\s+the\s+left\b|"
                         r"\bpadding_side\s*=\s*['\"]left['\"]|\bpadding\s*=\s*['\"]pre['\"]|\bpre-padd(?:ed|ing)\b")
CAUSAL_MASK = re.compile(r"(?i)\bgenerate_square_subsequent_mask\b|\bis_causal\s*=\s*True\b|\bcausal\b|"
                         r"\bsubsequent[_ ]mask\b|\blook-?ahead mask\b")


def _left_padded_causal(prose: str) -> str:
    """The words that pad on the left, where the paste also builds a causal mask; else ""."""
    left = next((m for m in itertools.islice(LEFT_PADDED.finditer(prose), 5) if not denied_before(prose, m.start(), 20)),
                None)
    return " ".join(left.group(0).split()) if left and CAUSAL_MASK.search(prose) else ""
ALL_PADDING = re.compile(r"\b(?:length|len)(?: of)? 0\b|\bzero[- ]length\b|\bempty (?:sequences?|reviews?|texts?|strings?|"
                         r"sentences?|inputs?|rows?)\b|\b(?:sequences?|reviews?|texts?|inputs?)\b[^.\n]{0,30}\bempty\b|"
                         r"\b(?:whole|entire|every|all)\b[^.\n]{0,20}\bmask(?:\w*)?\b[^.\n]{0,20}\b(?:row|rows)?\b[^.\n]{0,10}"
                         r"\b(?:is|are)\s+(?:all\s+)?True\b|\ball[- ]padding\b|\bonly padding\b", re.I)


# ... or prints one: a count of each sequence's tokens that are not padding (`(input_ids != 0).sum(1)`, an attention
# mask's sum, `lengths`) whose printed list holds a 0 (`tensor([ 87, 128,  41, 0, 71])`)
TOKENS_COUNTED = re.compile(r"(?:\(\s*[\w.]{1,40}\s*!=\s*[\w.]{1,40}\s*\)|\b(?![\w.]{0,40}pad)[\w.]{0,40}attention_mask)"
                            r"\.sum\(\s*(?:dim\s*=\s*)?-?\d\s*\)|\b(?:lengths?|lens|seq_lens?|seq_lengths?|src_lengths?)\b")
COUNTS_LIST = re.compile(r"[ \t]*(?:=|:|->)?\s{0,4}(?:tensor\(|array\()?\[(?P<values>[\d,\s]{1,4000})\]")


# ... or says every sequence holds a token: "at least 3 real tokens", "min length 3", "no empty sequences", a [CLS] that is
# never masked -- the check done, in words
NONE_EMPTY_SAID = re.compile(r"(?i)\bat least (?:\d+|one|two|three) (?:real |non-?pad\w* |actual )?(?:tokens?|"
                             r"words?)\b|\bmin(?:imum)?[ _-]?(?:length|len)\s*(?:of\s*|=\s*|:\s*|is\s*)?[1-9]|"
                             r"\bno (?:empty|zero-length) (?:sequences?|rows?|texts?|inputs?|titles?|sentences?)\b|"
                             r"\b(?:cls|bos|\[cls\])\b[^.\n]{0,40}\bnever (?:masked|padded)\b")


NONE_EMPTY_DOUBTED = re.compile(r"(?i)\b(?:" + UNDONE + r"|not sure|no guarantee|don'?t|do not|doesn'?t|may|might|whether|"
                                r"if|unless|hope\w*|maybe|perhaps|some|assum\w*|expect\w*|suppos\w*|think)\b|'ll\b")


def _none_empty_said(prose: str) -> bool:
    """Do the words say every sequence holds a token (NONE_EMPTY_SAID), not doubting it in the words before?"""
    return any(not NONE_EMPTY_DOUBTED.search(prose, max(0, m.start() - 40), m.start())
               for m in itertools.islice(NONE_EMPTY_SAID.finditer(prose), 5))


def _token_counts(prose: str) -> tuple[str, bool]:
    """The count of unpadded tokens the paste prints with a 0 among its values (TOKENS_COUNTED), or ""; and whether
    it printed such a count at all."""
    printed = False
    for m in itertools.islice(TOKENS_COUNTED.finditer(prose), 20):
        listed = COUNTS_LIST.match(prose, m.end())
        if listed and "0" in listed.group("values").replace(",", " ").split():
            return m.group(0), True
        printed = printed or bool(listed)
    return "", printed


def _xlogx_guarded(m: re.Match, code: str) -> bool:
    """Is a term-times-its-log kept off 0: the term a masked selection (`t[nz]`), clamped or floored where it was made,
    under a condition on its line or the line before (`if p > 0`, `for p in q if p > 0`), or the line a question?"""
    term = m.group("a")
    line_start = code.rfind("\n", 0, m.start()) + 1
    line_end = code.find("\n", m.end())
    line = code[line_start:line_end if line_end >= 0 else len(code)]
    previous = code[code.rfind("\n", 0, max(line_start - 1, 0)) + 1:max(line_start - 1, 0)]
    name = NAME_ARG.match(term)
    bare = re.escape(term.split("[")[0])
    # (a condition on the term itself -- `if p > 0`, `for p in q if p > 0` -- not `if self.training:`; a selection by a
    # boolean mask, `t[nz]`, not an index or a slice, `out[:, 1]`)
    tested = re.compile(r"\bif\b[^:\n]*\b" + bare + r"\b\s*(?:>|!=|>=)")
    masked = re.search(r"\[\s*[A-Za-z_]\w*\s*\]$", term) is not None
    return masked or bool(tested.search(line)) or previous.rstrip().endswith(":") and bool(tested.search(previous)) \
        or line.rstrip().endswith("?") or bool(name and _guarded_before(name.group("name"), code))


@functools.lru_cache(maxsize=4)      # (asked by the printed facts and by the overflow a printed logit shows; read only)
def breaking_construct(prose: str) -> dict[str, str]:
    """The constructs of pasted code that break at one value (see MASKED_INF, LOG_CALL, EXP_OF, SQRT_CALL), as facts."""
    out, code = {}, code_of(prose)
    m = next(MASKED_INF.finditer(code), None)
    if m:
        out["masked-inf"] = (f"the pasted code fills masked scores with -inf (`{' '.join(prose[m.start():m.end()].split())}`):"
                             " a row whose every position is masked is all -inf, and its softmax is exp(-inf - (-inf)) "
                             "= nan")
    elif (said := MASKED_INF_SAID.search(prose)) and re.search(r"(?i)\bsoftmax\b", prose):
        out["masked-inf"] = (f"the report fills masked scores with -inf before a softmax (\"{' '.join(said.group(0).split())}"
                             "\"): a row whose every position is masked is all -inf, and its softmax is "
                             "exp(-inf - (-inf)) = nan")
    elif (mask := PADDING_MASK.search(prose)) and (left := _left_padded_causal(prose)):
        out["masked-inf"] = (f"the paste masks padding keys (`{mask.group(0)}`) and pads its sequences on the left under a "
                             f"causal mask (\"{left}\"): the first query of a left-padded row may look only at itself and "
                             "the positions before it, all padding, so every key it may see is masked -- in "
                             "every batch that holds such a row -- and nn.MultiheadAttention gives it a nan output")
        out["left-padded-causal"] = ("so the fully masked row is there in every batch that holds a left-padded sequence, "
                                     "not only in a rare one with an empty sequence")
    elif (mask := PADDING_MASK.search(prose)) and ((empty := ALL_PADDING.search(prose))
                                                   or (counts := _token_counts(prose))[0]
                                                   or not counts[1] and not _none_empty_said(prose)):
        # (said or printed that a sequence is all padding; or not: the mask alone is the construct, as a fill with -inf
        # is -- the row it breaks on is one the paste need not show; but not where it prints each sequence's count of
        # tokens and none is 0: the check, done)
        printed = "" if empty else counts[0]
        said = (f"says a sequence can be all padding (\"{' '.join(empty.group(0).split())}\")" if empty else
                f"prints a sequence with no token that is not padding (`{printed}` holds a 0)" if printed else
                f"does not show that every sequence holds a token (a count of each one's unpadded tokens would: "
                f"`{mask.group(0)}.all(dim=1).any()` must be False)")
        out["masked-inf"] = (f"the paste hands attention a key_padding_mask and {said}: a query whose keys are all masked has nothing "
                             "to attend to, and nn.MultiheadAttention gives it a nan output (with need_weights=True, its "
                             "default; with need_weights=False, 0 from PyTorch 2.5 on, except on its inference fast path)")
    # (a log on a where's branch is the where's trap, its gradient: SQRT_CALL's; each argument judged once, however
    # often the paste logs it: each judgement searches the whole paste)
    judged: dict[tuple[str, bool], bool] = {}

    def unguarded(m: re.Match) -> bool:
        arg = m.group("arg").strip()
        key = (arg, _weighted(code, m))
        if key not in judged:
            name = NAME_ARG.match(arg)
            judged[key] = _probability_named(arg, code, key[1]) and not GUARDED.search(arg) \
                and not (name and _guarded_before(name.group("name"), code))
        return judged[key]

    def on_a_where(m: re.Match) -> bool:      # (the line before the call, at most 200 characters of it)
        lo = max(0, m.start() - 200)
        return "where(" in code[code.rfind("\n", lo, m.start()) + 1 or lo:m.start()]

    m = next((m for m in LOG_CALL.finditer(code) if not on_a_where(m) and unguarded(m)), None)
    if m:
        out["log-unguarded"] = (f"the pasted code takes the log of a probability with nothing to keep it off 0 "
                                f"(`{' '.join(prose[m.start():m.end()].split())}`): a probability that rounds to 0 makes "
                                "it -inf")
    m = next((m for m in XLOGX.finditer(code) if not on_a_where(m) and not _xlogx_guarded(m, code)), None) \
        if "log-unguarded" not in out else None
    if m:
        out["log-unguarded"] = (f"the pasted code takes a term times the log of itself by hand "
                                f"(`{' '.join(prose[m.start():m.end()].split())}...`), as a KL divergence or an entropy "
                                "does: where that term is exactly 0, log(0) is -inf and 0 * -inf is nan, though the "
                                "term's limit is 0 (torch.xlogy(t, t) - t * log_softmax(z), or F.kl_div on log-probabilities, takes "
                                "0 * log 0 as 0, value and gradient)")
    m = _exp_in_a_ratio(code) if not STABLE_SAID.search(code) else None
    if m:
        out["exp-unshifted"] = (f"the pasted code sums (or averages) exps into a ratio or a log with nothing subtracted "
                                f"from their "
                                f"input (`{' '.join(prose[m.start():m.end()].split())}`): an input past about 88.7 in "
                                "float32 (709.8 in float64) makes exp inf, and inf / inf is nan")
    m = EXP_PRODUCT.search(code) if "exp-unshifted" not in out and not STABLE_SAID.search(code) else None
    if m:
        out["exp-unshifted"] = (f"the pasted code multiplies exps into a running product "
                                f"(`{' '.join(prose[m.start():m.end()].split())}...`): each step multiplies in another "
                                "exponential, so the product grows or shrinks exponentially with the sequence's length "
                                "and leaves float32's range on the longest ones (a forward algorithm in log space, with "
                                "logsumexp, stays finite)")
    m = EXP_OF_OUTPUT.search(code) if "exp-unshifted" not in out and not STABLE_SAID.search(code) else None
    if m:
        out["exp-unshifted"] = (f"the pasted code puts a layer's raw output through exp "
                                f"(`{' '.join(prose[m.start():m.end()].split())}`): nothing bounds a layer's "
                                "output, and one past about 88.7 in float32 (709.8 in float64) makes exp inf, and the "
                                "loss inf, then nan")
    m = next((m for m in SQRT_CALL.finditer(code) if (
              m.group("where") and not (m.group("inner") and re.search(r"(?<![\w.])" + re.escape(m.group("inner"))
                                                                          + r"\s*=[^=\n][^\n]{0,120}?where\(", code)))
              or m.group("norm") or (m.group("arg") is not None and DIFFERENCE.search(m.group("arg"))
                                     and not GUARDED.search(m.group("arg")))), None)
    method = None if m else next((s for s in itertools.islice(SQRT_METHOD.finditer(code), 50)
                                  if DIFFERENCE.search(s.group("line")) and not GUARDED.search(s.group("line"))
                                  and not ADDED.search(s.group("line"))), None)
    if method:
        shown = " ".join(prose[method.start("line"):method.end()].split()).split("=", 1)[-1].strip()
        out["sqrt-at-zero"] = (f"the pasted code takes a square root that can meet 0 (`{shown}`): its slope there is "
                               "1 / (2 sqrt(0)) = inf, and inf * 0 in the backward pass is nan")
    if m:
        shown = " ".join(prose[m.start():m.end()].split())
        out["sqrt-at-zero"] = (
            f"the pasted code picks a log or a square root on one branch of a where (`{shown}`): the branch not taken "
            "is still differentiated, and at 0 its slope is inf, and inf * 0 is nan" if m.group("where") else
            f"the pasted code takes a norm that can meet a zero vector (`{shown}`): its gradient there is x / ||x|| "
            "= 0/0, nan, as JAX and TensorFlow compute it (PyTorch's vector norm returns 0 there)" if m.group("norm")
            else
            f"the pasted code takes a square root that can meet 0 (`{shown}`): its slope there is 1 / (2 sqrt(0)) = "
            "inf, and inf * 0 in the backward pass is nan")
    return out


# A paste that divides by a standard deviation it computes (`/ X.std()`, `/ std`) and says a column holds one value
# for every row: that column's standard deviation is 0 (or a rounding error's size), and (x - mean) / std is 0/0, nan
# for every row, where the mean comes out exact (a whole-number constant: 3.0 every row), else the same +-1 on every
# row -- a column that carries nothing either way. A printed fact
# for the entries whose phrases say a constant feature has zero standard deviation. (scikit-learn's StandardScaler
# divides such a column by 1 instead: only a division the paste writes.)
CONSTANT_FEATURE_WORDS = {"constant", "deviation", "zero"}
# ... or said in words: "I standardise the columns myself in numpy", "z-scored by hand", "divided by the std" (not with a
# scaler, which guards a zero spread: scikit-learn's StandardScaler divides such a column by 1, Keras's Normalization by
# at least 1e-7)
# (a standardisation: to zero mean and unit deviation, not a division by 255 or a layer's own normalisation)
STANDARDISED_BY_HAND = re.compile(r"\b(?:standardi[sz]\w*|z-?scor\w*)\b[^.;\n]{0,60}?\b(?:myself|by hand|"
                                  r"manually|in (?:plain )?numpy|with numpy)\b|\b(?:myself|by hand|manually)\b[^.;\n]{0,30}?"
                                  r"\b(?:standardi[sz]\w*|z-?scor\w*)\b|\bdivid\w* (?:it |them |each \w+ )?by "
                                  r"(?:the |its |their |each \w+'s )?(?:std|standard deviation|sigma)\b", re.I)
SCALER_NAMED = re.compile(r"(?i)\b\w*Scaler\b|\bNormalization\(|\bpreprocessing\.scale\b")
# ... not where the same sentence guards the division or is about something else ("(std + 1e-8)", "/ 255", a layer
# norm), nor a plan, advice or a denial just before it
BY_HAND_GUARDED = re.compile(r"(?i)\+\s*(?:eps\w*|1e-\d+|0?\.0*1)\b|\b255\b|\b(?:layer|batch|group|instance|token)[ _-]?norm")
BY_HAND_DOUBTED = re.compile(r"(?i)\b(?:" + UNDONE + r"|could|would|suggest\w*|advi[sc]\w*|not yet|if|maybe)\b|'ll\b")
# (or R's scale(), which divides each column by its standard deviation, NaN for a constant one: `x <- scale(x)`; not
# with scale = FALSE)
DIVIDES_BY_STD = re.compile(r"/\s*(?:\(\s*)?[\w.\[\]\"']{0,40}\.std\([^()\n]{0,20}\)(?!\s*\+)|/\s*(?:std|sigma|stdev|stds|sd)\b(?!\s*\+)|"
                            r"<-\s*scale\((?![^\n]{0,120}\bscale\s*=\s*(?:FALSE|F)\b)(?:[^()\n]|\((?:[^()\n]|\([^()\n]*\))*\)){0,120}\)")
CONSTANT_FEATURE = re.compile(r"\b(?:(?:the )?same (?:value )?(?:for|in|across|on) (?:every|all|each) (?:rows?|samples?|examples?"
                              r"|records?)|constant (?:columns?|features?)|(?:columns?|features?) (?:that|which) (?:are|is) "
                              r"constant|zero variance|(?:std|standard deviation) (?:is|of|=|==) ?0(?![.\d]))\b", re.I)
# ... or says that some inputs it normalises one by one are all zeros: a silent recording, a blank image (their std is
# 0 and their mean exactly 0, so every value of them is 0/0)
ALL_ZERO_INPUT = re.compile(r"\b(?:silent|all[ -]zeros?|all-zero|blank|(?:digital|pure) zeros?)\b[^.\n]{0,30}?"
                            r"\b(?:clips?|"
                            r"recordings?|audio|wavs?|images?|frames?|inputs?|samples?|examples?|utterances?)\b|"
                            r"\bmax\(\)`?\s+(?:is|was|==|=)\s+(?:exactly\s+)?0(?:\.0+)?(?![.\d])", re.I)
# Weights set to zero (or one constant) in pasted code: Keras's kernel_initializer="zeros", PyTorch's nn.init.zeros_ or
# constant_ or a weight's fill_(c) / zero_(), or two or more NumPy weight matrices made with np.zeros (W1 and W2: a
# hidden layer whose units start equal; one zero matrix alone is a linear model, which trains from zeros). Half a
# printed fact for the entries whose phrases say the weights were initialised to zero.
ZERO_INIT_WORDS = {"weight", "init", "zero"}
ZERO_INIT = re.compile(r"kernel_initializer\s*=\s*['\"](?:zeros|ones)['\"]|\binitializers\.Zeros\(\)|"
                       # (any one constant as a kernel's initialiser: Keras's Constant(0.01) starts every unit equal too;
                       # a BatchNorm's gamma at 1 is no kernel)
                       r"kernel_initializer\s*=\s*(?:(?:tf\.)?keras\.)?(?:initializers\.)?(?:Constant|Ones)\(|"
                       r"kernel_initializer\s*=\s*(?:tf\.)?constant_initializer\(|"
                       r"\bnn\.init\.(?:zeros_|ones_)\(\s*[\w.\[\]]{0,40}weight\s*\)|"
                       # (any one value, not only 0: `nn.init.constant_(m.weight, 0.01)`, `m.weight.data.fill_(0.5)`; but not
                       # 1, a BatchNorm's scale as ResNet-style init loops set it: `nn.init.constant_(m.weight, 1)`)
                       r"\bnn\.init\.constant_\(\s*[\w.\[\]]{0,40}weight\s*,\s*(?:val\s*=\s*)?(?!1(?:\.0*)?\s*\))"
                       r"-?(?:\d+(?:\.\d*)?|\.\d+)(?:e-?\d+)?\s*\)|"
                       r"\.weight(?:\.data)?\.(?:fill_\(\s*(?!1(?:\.0*)?\s*\))-?(?:\d+(?:\.\d*)?|\.\d+)(?:e-?\d+)?\s*\)|zero_\(\))|"
                       # (MXNet Gluon's initialize() sets every parameter of the network with the one initialiser it is
                       # given, weights too: `net.initialize(init.Constant(0.01))`; Paddle's weight_attr names a
                       # weight's own: `weight_attr=paddle.ParamAttr(initializer=nn.initializer.Constant(0.0))`)
                       r"\.initialize\(\s*(?:init\s*=\s*)?(?:mx\.)?init(?:ializer)?\.(?:Constant|One|Zero)\(|"
                       r"\bweight_attr\s*=\s*[^\n]{0,60}?\binitializer\.(?:Constant|Ones|Zeros)\(|"
                       # (Flax's and Haiku's: `kernel_init=nn.initializers.zeros_init()`, `w_init=hk.initializers.Constant(0)`)
                       r"[(,]\s*(?:kernel|w)_init\s*=\s*(?:[\w.]{0,30}\.)?(?:initializers\.)?(?:zeros(?:_init)?\(?|ones(?:_init)?\(?|"
                       r"constant(?:_init)?\(|Constant\()")
# ... or named first and handed to a kernel by its name (`init = keras.initializers.Constant(0.01)`, then
# `Dense(128, kernel_initializer=init)`)
NAMED_CONSTANT_INIT = re.compile(r"\b(?P<name>[A-Za-z_]\w{0,30})\s*=\s*(?:(?:tf\.)?keras\.)?initializers\."
                                 r"(?:Constant|Ones|Zeros)\(")


# An optimizer built on a module's parameters, and that module (or a part of it) replaced by a new one afterwards:
# `optimizer = torch.optim.Adam(model.fc.parameters())` then `model.fc = nn.Linear(2048, 5)`. The optimizer holds
# the old module's tensors (parameters() is read when the optimizer is built), so step() never touches the new
# layer's: it keeps its initial weights, and with everything else frozen nothing learns -- the loss stays about where
# the untrained head puts it. No entry covers it: a bug of the wiring, not of the numbers.
OPTIMIZER_ON = re.compile(r"(?m)^[ \t]*[\w.]+[ \t]*=[ \t]*[\w.]*\b(?:optim|optimizers?)\.[A-Za-z]\w{0,30}\([ \t]*"
                          r"(?P<module>[A-Za-z_]\w{0,40}(?:\.\w{1,40}){0,4})\.parameters\(\)")
REPLACED = r"(?m)^[ \t]*(?P<target>{module}(?:\.\w{{1,40}}|\[\d{{1,4}}\]){{0,4}})[ \t]*=[ \t]*(?![=\s])[^\n]{{1,200}}"


# The inputs and the labels shuffled by two separate calls (`np.random.shuffle(X)` then `np.random.shuffle(y)`, or
# `random.shuffle`): each call draws its own permutation, so the rows and their labels no longer match -- every label
# is another row's, and the model can learn no better than the class frequencies. No entry covers it: a bug of the
# data's wiring. (Not one permutation applied to both, `idx = np.random.permutation(n)`, nor sklearn's `shuffle(X, y)`,
# which shuffles them together.)
SHUFFLED_APART = re.compile(r"(?m)^[ \t]*(?:np\.random|numpy\.random|random|rng)\.shuffle\([ \t]*(?P<a>[A-Za-z_][\w.\[\]]{0,40})"
                            r"[ \t]*\)[ \t]*(?:#[^\n]*)?\n(?:[^\n]*\n){0,3}?[ \t]*(?:np\.random|numpy\.random|random|rng)"
                            r"\.shuffle\([ \t]*(?P<b>[A-Za-z_][\w.\[\]]{0,40})[ \t]*\)")


# ... or by scikit-learn's `shuffle` given one array a call (`x, y = shuffle(imgs), shuffle(labels)`, or a line each):
# with no random_state each call draws its own permutation (`shuffle(X, y)` keeps them together)
PAIR_INPUT = re.compile(r"(?:x|inputs?|features?|images?|imgs?|data|samples?|sequences?|texts?)(?:_\w{1,10})?")
PAIR_LABEL = re.compile(r"(?:y|labels?|lbls?|targets?|classes|gt)(?:_\w{1,10})?")
ONE_ARRAY_SHUFFLE = re.compile(r"(?<![\w.])(?:sklearn\.utils\.)?shuffle\([ \t]*(?P<a>[A-Za-z_][\w.\[\]]{0,40})[ \t]*\)")


def shuffled_apart(prose: str) -> str:
    """The two calls, quoted, where the paste shuffles two arrays (its inputs and its labels) by separate calls; ''."""
    code = code_of(prose)
    m = SHUFFLED_APART.search(code)
    if m and m.group("a") != m.group("b"):
        return " ... ".join(" ".join(line.split()) for line in (m.group(0).split("\n")[0], m.group(0).split("\n")[-1]))
    calls = list(itertools.islice(ONE_ARRAY_SHUFFLE.finditer(code), 20))
    for a, b in zip(calls, calls[1:]):
        # (an input's name and a label's: two lists of files shuffled each on its own are no pair broken)
        names = {a.group("a").lower(), b.group("a").lower()}
        if a.group("a") != b.group("a") and code.count("\n", a.end(), b.start()) <= 3 \
                and any(PAIR_INPUT.fullmatch(n) for n in names) and any(PAIR_LABEL.fullmatch(n) for n in names):
            return f"{a.group(0)} ... {b.group(0)}"
    return ""


# A training DataLoader built without shuffle=True: PyTorch's DataLoader keeps the dataset's order unless told to
# shuffle (its `shuffle` argument defaults to False), so a dataset listed class by class gives batches of one class in
# turn. Not a loader given a sampler (which sets the order itself), nor one named for validation or testing.
LOADER_CALL = re.compile(r"(?P<name>\b[A-Za-z_]\w{0,40})[ \t]*=[ \t]*(?:torch\.utils\.data\.)?DataLoader\("
                         r"(?P<args>[^()]{0,400}(?:\([^()]{0,80}\)[^()]{0,400}){0,4})\)")
SHUFFLED_ARG = re.compile(r"\bshuffle[ \t]*=[ \t]*(?!False\b)\w|\b(?:batch_)?sampler[ \t]*=")
NOT_TRAINING_LOADER = re.compile(r"(?i)val|valid|test|eval|dev")


# ... or by two shuffled DataLoaders, one of the inputs and one of the labels, iterated together (`zip(img_loader,
# lbl_loader)`): each loader's sampler draws its own permutation every epoch. By the loaders' names, or the one array each
# one's dataset wraps (`TensorDataset(X)`, `TensorDataset(y)`): not two loaders of whole examples (a labelled and an
# unlabelled one, a source and a target domain), which are zipped on purpose.
LOADER_STEM = re.compile(r"(?i)_?(?:data_?)?(?:loader|dl|iter)$")
ONE_ARRAY_DATASET = re.compile(r"^\s*(?:torch\.utils\.data\.)?TensorDataset\(\s*(?P<a>[A-Za-z_]\w{0,40})\s*\)")
ZIPPED = re.compile(r"\bzip\(\s*(?P<a>[A-Za-z_]\w{0,40})\s*,\s*(?P<b>[A-Za-z_]\w{0,40})\s*\)")


def loaders_shuffled_apart(prose: str) -> str:
    """The zip, quoted, where the paste iterates two shuffled DataLoaders together, one of its inputs and one of its
    labels; ''."""
    if "zip(" not in prose:
        return ""
    code = code_of(prose)
    roles = {}
    for m in itertools.islice(LOADER_CALL.finditer(code), 20):
        # (nor loaders given one seeded generator each, which draw the same order: `generator=g`)
        if not SHUFFLED_ARG.search(m.group("args")) or "sampler" in m.group("args") or "generator" in m.group("args"):
            continue
        one = ONE_ARRAY_DATASET.match(m.group("args"))
        names = [LOADER_STEM.sub("", m.group("name"))] + ([one.group("a")] if one else [])
        role = {"input" for n in names if PAIR_INPUT.fullmatch(n.lower())} | \
               {"label" for n in names if PAIR_LABEL.fullmatch(n.lower())}
        if len(role) == 1:
            roles[m.group("name")] = role.pop()
    for z in itertools.islice(ZIPPED.finditer(code), 20):
        if {roles.get(z.group("a")), roles.get(z.group("b"))} == {"input", "label"}:
            return z.group(0)
    return ""


# ... or tf.data's list of files, which shuffles the names by default ("the default behavior of this method is to
# return filenames in a non-deterministic random shuffled order", tf.data.Dataset.list_files; a seed only makes that
# order repeatable), zipped with a dataset of labels made in another order (`Dataset.zip((files.map(load), labels))`):
# each image is paired with another file's label. Not with shuffle=False.
LIST_FILES = re.compile(r"(?P<name>\b[A-Za-z_]\w{0,40})[ \t]*=[ \t]*(?:tf\.data\.)?Dataset\.list_files\("
                        r"(?P<args>[^()\n]{0,200}(?:\([^()\n]{0,80}\)[^()\n]{0,200}){0,3})\)")
DATASET_ZIP = re.compile(r"\bDataset\.zip\(\s*\(?(?P<args>[^\n]{0,200})")


def listed_files_zipped_apart(prose: str) -> str:
    """The zip, quoted, where the paste zips a `Dataset.list_files` left to shuffle with another dataset; ''."""
    if "list_files(" not in prose:
        return ""
    code = code_of(prose)
    names = [m.group("name") for m in itertools.islice(LIST_FILES.finditer(code), 10)
             if not re.search(r"\bshuffle\s*=\s*False\b|^[^,]*,\s*False\b", m.group("args"))]
    for z in itertools.islice(DATASET_ZIP.finditer(code), 10):
        used = set(re.findall(r"[A-Za-z_]\w*", z.group("args")))
        if any(n in used for n in names):
            return " ".join(z.group(0).split())[:120]
    return ""


# A language model (GPT, decoder-only, causal, next-token) whose training loss fell to near 0 while its generations
# repeat or make no sense, and whose validation loss (where it is given) is near 0 too: no model gets near 0 on text
# it has not seen (about two thirds of a nat per character at best, more per word or subword), so each position sees
# the token it is asked for -- targets that are the inputs unshifted, or a mask that lets a position look ahead -- and
# the model learns to copy, which it cannot do when it generates. Not covered. (A model that memorised a small
# training set gets near 0 on it too, but its validation loss stays high: not this.)
LANGUAGE_MODEL = re.compile(r"(?i)\bgpt\w*|\blanguage[ -]models?\b|\bdecoder[ -]only\b|\bcausal\b|\bnext[ -]token\b|"
                            r"\bautoregressive\b|\bchar-?rnn\b|(?-i:\bLMs?\b)")
GENERATION_BAD = re.compile(r"(?i)\b(?:generat\w*|samples?|sampling|completions?)\b[^.\n]{0,120}?\b(?:repeat\w*|garbage|"
                            r"gibberish|nonsense|(?:the )?same (?:token|word|character|letter)s?|copies|copying)\b")
# (a number after the word loss, not another quantity's named right before it: not "loss with lr 0.001 stays at 3.4")
NEAR_ZERO_SAID = re.compile(r"(?i)\bloss\w*\b[^.\n]{0,40}?(?:\b(?:almost|nearly|basically|practically|close to|near) "
                            r"(?:0(?:\.0+)?|zero)\b|(?<![\d.])(?<!lr )(?<!lr=)(?<!rate )(?<!decay )(?<!dropout )(?<!wd )"
                            r"(?<!eps )(?<!scale )(?<!scale=)(?<!momentum )(?<!temperature )0?\.0[0-4]\d*(?![\d.]))")
VALIDATION_LOSS = re.compile(r"(?i)\b(?:val(?:idation)?|eval|test)[ _]?loss\w*\b(?:[^.\n]|\.(?!\d)){0,30}?(?<![\d.])(\d+\.\d+)")
COPYING_LOSS = 0.05          # nats per token: far below any text's entropy


# A CTC loss that is inf (nn.CTCLoss, ctc_loss, Keras's ctc_batch_cost): no alignment of the targets fits the frames
# the model outputs for them -- CTC needs a frame per target label, and one more for the blank between two adjacent
# repeated labels -- so the target's probability is 0 and its negative log is inf; "Infinite losses mainly occur when
# the inputs are too short to be aligned to the targets" (torch.nn.CTCLoss, zero_infinity). Not covered.
CTC_NAMED = re.compile(r"(?i)\bctc(?:_?loss|_batch_cost)?(?![a-z])")
# (the loss's own inf, said in one clause or printed: not zero_infinity's name, nor a gradient's or half precision's inf)
CTC_LOSS_INF = re.compile(r"(?i)\bloss\w*\b[^.;,\n]{0,40}?\b(?:inf|infinite|infinity)\b|\b(?:inf|infinite)\s+loss")
CTC_ELSEWHERE = re.compile(r"(?i)zero_infinity\s*=\s*True|\bexplod\w*|\boverflow\w*|\bfp16\b|\bfloat16\b|\bautocast\b|\bamp\b|"
                           r"\bgrad\w*\b[^.;\n]{0,30}\binf\b")


def ctc_inf(ev: Evidence) -> str:
    """The CTC loss named in the paste (quoted), where the paste's loss itself is inf (printed, or said of the loss), and
    nothing says zero_infinity is on or the inf is an explosion's or half precision's; or ''."""
    named = CTC_NAMED.search(ev.prose)
    if not named or CTC_ELSEWHERE.search(ev.prose):
        return ""
    printed_inf = ev.first_nonfinite_value is not None and math.isinf(ev.first_nonfinite_value)
    said = next((m for m in CTC_LOSS_INF.finditer(ev.prose) if said_unnegated(m.group(0), {"inf"})), None)
    return named.group(0) if printed_inf or said else ""


def copying_language_model(ev: Evidence) -> str:
    """The words that say a language model's loss went to near 0 while its generations are bad (quoted), or ''."""
    said = GENERATION_BAD.search(ev.prose)
    if not said or not LANGUAGE_MODEL.search(ev.prose) or ev.first_nonfinite is not None:
        return ""
    # (memorised, not copied: a validation loss said or printed far above it)
    if any(float(m.group(1)) > 10 * COPYING_LOSS for m in itertools.islice(VALIDATION_LOSS.finditer(ev.prose), 10)):
        return ""
    if (ev.low is not None and 0 <= ev.low <= COPYING_LOSS) or NEAR_ZERO_SAID.search(ev.prose):
        return " ".join(said.group(0).split())[:100]
    return ""


# A horizontal flip among the training augmentations (torchvision's RandomHorizontalFlip, Albumentations' HorizontalFlip,
# Keras's RandomFlip("horizontal") and ImageDataGenerator(horizontal_flip=True), tf.image's random_flip_left_right)
# beside classes that tell left from right (`point_left` and `point_right`, "left/right"): a flipped picture of one is
# a picture of the other under the first one's label, so half the flips teach the wrong class -- not covered.
HORIZONTAL_FLIP = re.compile(r"\bRandomHorizontalFlip\(|\bHorizontalFlip\(|\bRandomFlip\(\s*(?:mode\s*=\s*)?['\"]horizontal"
                             r"|\bhorizontal_flip\s*=\s*True\b|\brandom_flip_left_right\(")
LEFT_RIGHT = re.compile(r"(?i)(?<![\w-])(?P<a>(?:\w{1,20}[_-])?left(?:[_-]\w{1,20})?)\s*(?:/|,|\band\b|\bvs\.?|\bor\b)\s*"
                        r"(?P<b>(?:\w{1,20}[_-])?right(?:[_-]\w{1,20})?)(?![\w-])")
CLASSES_LINE = re.compile(r"(?i)class|label|categor|confus")
LEFT_RIGHT_NAMED = re.compile(r"(?i)(?<![\w-])(?P<a>\w{1,20}[_-]left|left[_-]\w{1,20})(?![\w-])[^\n]{0,200}?"
                              r"(?<![\w-])(?P<b>\w{1,20}[_-]right|right[_-]\w{1,20})(?![\w-])")


def flip_swaps_classes(prose: str) -> tuple[str, str] | None:
    """(the flip, quoted, and the two classes) where the paste flips its training images horizontally and names classes
    that tell left from right; or None."""
    code = code_of(prose)
    flip = HORIZONTAL_FLIP.search(code)
    # (named as classes, on a line that says so: not a box's `x_left` and `x_right`, which a detector's flip moves too)
    pair = next((m for pattern in (LEFT_RIGHT_NAMED, LEFT_RIGHT) for m in itertools.islice(pattern.finditer(prose), 10)
                 if CLASSES_LINE.search(_line_from(prose, prose.rfind("\n", 0, m.start()) + 1))), None) if flip else None
    if not pair:
        return None
    return _line_from(code, code.rfind("\n", 0, flip.start()) + 1).rstrip(",")[:100], \
        f"{pair.group('a')} and {pair.group('b')}"


# An SGD or AdamW optimizer built with a weight decay whose pull on each weight per step, the rate times the decay, is
# DECAY_PER_STEP or more, twenty times SGD's usual 0.1 x 5e-4: PyTorch's SGD adds decay x weight to the gradient, so
# the step takes rate x decay x weight off it (more under momentum), and AdamW and Keras's optimizers subtract rate x
# decay x weight directly; the weights go to zero whatever the gradient does, and a classifier's loss settles where a
# model of zero weights puts it, ln C for C balanced classes -- not covered. (Not Adam's or RMSprop's coupled decay,
# whose term the adaptive denominator rescales.) Only a decay of DECAY_MIN or more: a high rate times the usual decay is
# a rate that is too high.
OPTIMIZER_CALL = re.compile(r"\b(?:SGD|AdamW)\("
                            r"(?P<args>[^()\n]{0,300}(?:\([^()\n]{0,80}\)[^()\n]{0,300}){0,4})\)")
RATE_ARG = re.compile(r"\b(?:lr|learning_rate)\s*=\s*(\d+(?:\.\d*)?(?:e-?\d+)?)\b")
DECAY_ARG = re.compile(r"\bweight_decay\s*=\s*(\d+(?:\.\d*)?(?:e-?\d+)?)\b")
DECAY_PER_STEP, DECAY_MIN = 1e-3, 0.1


def decay_pulls_to_zero(prose: str) -> str:
    """The optimizer's call, quoted, where its rate times its weight decay is DECAY_PER_STEP or more; or ''."""
    for m in itertools.islice(OPTIMIZER_CALL.finditer(code_of(prose)), 10):
        rate, decay = RATE_ARG.search(m.group("args")), DECAY_ARG.search(m.group("args"))
        if rate and decay and float(decay.group(1)) >= DECAY_MIN \
                and float(rate.group(1)) * float(decay.group(1)) >= DECAY_PER_STEP:
            return " ".join(m.group(0).split())
    return ""


def unshuffled_loader(prose: str) -> str:
    """The call, shortened, where the paste builds its training DataLoader without shuffling it; ''."""
    for m in LOADER_CALL.finditer(code_of(prose)):
        if not NOT_TRAINING_LOADER.search(m.group("name")) and not SHUFFLED_ARG.search(m.group("args")):
            call = " ".join(m.group(0).split())
            return call if len(call) <= 120 else call[:117] + "..."
    return ""


def module_replaced_after_optimizer(prose: str) -> tuple[str, bool] | None:
    """An optimizer built on a module's parameters and that module (or a part of it) replaced later in the paste: the
    two lines, as "`optimizer = ...` ... `model.fc = ...`", and whether the optimizer was built on the replaced module
    alone (then it trains nothing); or None."""
    code = code_of(prose)
    for m in OPTIMIZER_ON.finditer(code):
        later = re.compile(REPLACED.format(module=re.escape(m.group("module")))).search(code, m.end())
        # (a new module, not a number or a tensor's data: `model.fc = nn.Linear(...)`, `model.head = Head()`)
        if later and re.search(r"=[ \t]*[\w.]*[A-Z]\w*\(", later.group(0)):
            return (f"`{_line_from(code, m.start())[:120]}` ... `{' '.join(later.group(0).split())[:120]}`",
                    later.group("target") == m.group("module"))
    return None


# ... or said in a sentence: "it sets every Linear weight to 0.05", "I initialise all the weights to zero" (not a bias
# alone, nor a weight decay or a weight of the loss)
CONSTANT_INIT_SAID = re.compile(r"\b(?:sets?|setting|initiali[sz](?:e|es|ed|ing)|init(?:s|ed)?|fill(?:s|ed)?)\s+"
                                r"(?:every|all|each)\s+(?:of\s+)?(?:the\s+|my\s+)?(?:\w+\s+)?weights?\s+(?:matri(?:x|ces)\s+)?"
                                r"(?:to|with|=|at)\s+(?:the\s+same\s+value|(?:0?\.\d+|\d+(?:\.\d+)?|zeros?|ones?)\b)", re.I)


def constant_kernel_init(prose: str) -> re.Match | None:
    """Where the paste sets a kernel's weights to one value (ZERO_INIT), or names such an initialiser and hands it to a
    kernel (NAMED_CONSTANT_INIT)."""
    return ZERO_INIT.search(prose) or next(
        (m for m in NAMED_CONSTANT_INIT.finditer(prose)
         if re.search(r"kernel_initializer\s*=\s*" + re.escape(m.group("name")) + r"\b", prose)), None)


# An adaptive optimiser built with a rate of 0.1 or more (`keras.optimizers.Adam(learning_rate=0.5)`,
# `optim.Adam(model.parameters(), lr=0.3)`): Adam's step for each weight is set by the rate, not by its gradient's size:
# up to about the rate (Kingma & Ba 2015, section 2.1: |step| is bounded by about the rate, and near it while a gradient
# keeps its sign; a fraction of it, about 0.2x, once the gradient is mostly noise; RMSprop, with no bias correction,
# starts larger, 10x in PyTorch at step 1), so at 0.5 a weight moves by up to about 0.5 a step, hundreds of times the
# defaults (1e-3 for Adam in PyTorch and Keras; 2e-3 for Adamax and NAdam; 1e-2 for PyTorch's RMSprop;
# review factcheck_session35 measured these). Half a printed fact, beside a run that went wrong, for the entries whose phrases
# say the rate is too high.
HIGH_ADAPTIVE_WORDS = {"lr", "high"}
HIGH_ADAPTIVE_RATE = re.compile(r"\b(?P<opt>Adam|AdamW|Adamax|NAdam|Nadam|RMSprop)\((?:[^()\n]|\(\))"
                                r"{0,200}?\b(?:learning_rate|lr)[ \t]*=[ \t]*(?P<rate>(?:\d+(?:\.\d*)?|\.\d+)(?:e-?\d+)?)"
                                r"(?![\w.])")
HIGH_ADAPTIVE_AT = 0.1
# Each one's default rate in PyTorch (its documentation of torch.optim), the larger of the two frameworks' (Keras 3's
# are all 1e-3)
ADAPTIVE_DEFAULTS = {"adam": 1e-3, "adamw": 1e-3, "adamax": 2e-3, "nadam": 2e-3, "rmsprop": 1e-2}


def high_adaptive_rate(prose: str) -> str:
    m = next((m for m in HIGH_ADAPTIVE_RATE.finditer(prose) if float(m.group("rate")) >= HIGH_ADAPTIVE_AT), None)
    if m is None:
        return ""
    opt, rate = m.group("opt"), m.group("rate")
    default = ADAPTIVE_DEFAULTS[opt.lower()]
    return (f"the paste builds {opt} with a learning rate of {rate} (`{' '.join(m.group(0).split())}`): an adaptive "
            f"optimiser's step for each weight is set by the rate, not the gradient's size (up to about the rate, "
            f"and near it while a gradient keeps its sign), so {rate} is "
            f"{float(rate) / default:.3g} times {opt}'s default rate ({default:g} in PyTorch; Keras's is no larger) "
            "and pushes the outputs to the extremes")


# Gradient norms the words give ("the total norm clip_grad_norm_ returns is between 3 and 40", "grad norm is about
# 12"), to set beside the clipping threshold the paste states (Evidence.clip_at): every one below it, the clip never
# shortened an update. A printed fact for the entries whose phrases say the norm never reaches the threshold.
CLIP_UNENGAGED_WORDS = {"gradnorm", "threshold"}
_NORM_NUMBER = r"(\d+(?:\.\d+)?(?:e[-+]?\d+)?)(?![\w.])"
NORMS_SAID = re.compile(r"\b(?:grad(?:ient)?s?[ _]?norms?|total[ _]norms?|norms?)\b[^.\n]{0,80}?\b(?:between|from)[ \t]+"
                        + _NORM_NUMBER + r"[ \t]*(?:and|to|-|\u2013)[ \t]*" + _NORM_NUMBER + r"|"
                        r"\b(?:grad(?:ient)?s?[ _]?norms?|total[ _]norms?)\b[^.\n]{0,40}?\b(?:is|was|are|were|of|around|"
                        r"about|at most|below|under|never above)[ \t]+~?[ \t]?" + _NORM_NUMBER, re.I)


def norms_below_clip(ev: Evidence) -> str:
    """The clipping threshold the paste states and the gradient norms its words give, when every one is below it."""
    if ev.clip_at is None or ev.clip_at <= 0:
        return ""
    said = [(m, [float(g) for g in m.groups() if g is not None]) for m in NORMS_SAID.finditer(ev.prose)]
    said = [(m, values) for m, values in said if values]
    if not said or max(max(values) for _m, values in said) >= ev.clip_at:
        return ""
    m = said[0][0]
    return (f"the paste clips the gradient norm at {fmt(ev.clip_at)}, and its words give the norm as "
            f"\"{' '.join(m.group(0).split())}\": below the threshold, so the clip never shortened an update")


# Weights drawn with a standard deviation of 1 or more: `nn.init.normal_(m.weight, std=1.0)`, Keras's
# `RandomNormal(stddev=1)`, or a matrix drawn by randn with no scale after it (`W1 = np.random.randn(784, 128)`, a list
# of them, `W = [np.random.randn(a, b) for ...]`, `nn.Parameter(torch.randn(512, 512))`). He's scale, sqrt(2 / fan_in), is below 1 for any layer with more than two
# inputs, and with ReLU each layer of n inputs at std 1 multiplies the activations' spread by about sqrt(n / 2) (the
# variance of its output is n * Var(w) * E[x^2], and a ReLU's E[x^2] is half its input's variance): half a
# printed fact, beside a run that went wrong, for the entries whose phrases say the weights' std is too large.
LARGE_INIT_WORDS = {"weight", "init", "large"}
# (the std's number ends where no digit, letter or point follows: `1e-3` and `1.5e-2` are no std of one, and a lookahead
# that scanned the digits again at each backtrack was quadratic in a long run of them)
LARGE_INIT = re.compile(r"\bnormal_?\(\s*[\w.\[\]]{0,40}weight[^)\n]{0,40}?\bstd\s*=\s*[1-9]\d*(?:\.\d*)?(?![\w.])\s*\)?"
                        # (PyTorch's nn.init.normal_ with no std draws at its default, std=1.0: `nn.init.normal_(w)`)
                        r"|\binit\.normal_\(\s*(?![\w.\[\]]{0,40}(?:bias|emb))[\w.\[\]]{1,40}weight[\w.\[\]]{0,20}\s*\)"
                        # (PyTorch's order, tensor, mean, std: `nn.init.normal_(w, 0.0, 1.0)`; not a bias's, nor an
                        # embedding's, which nn.Embedding itself draws at std 1)
                        r"|\bnormal_\(\s*(?![\w.\[\]]{0,40}(?:bias|emb))[\w.\[\]]{1,40}\s*,\s*(?:mean\s*=\s*)?-?\d+(?:\.\d*)?\s*,\s*"
                        r"(?:std\s*=\s*)?[1-9]\d*(?:\.\d*)?(?![\w.])\s*\)"
                        r"|\bRandomNormal\([^)\n]{0,40}?\bstddev\s*=\s*[1-9]\d*(?:\.\d*)?(?![\w.])\s*\)?"
                        # (or said in words: "weights from np.random.randn(n_in, n_out), biases zero")
                        r"|(?:\b[Ww](?:eights?)?_?\w{0,10}\s*=\s*(?:\[\s*)?|nn\.Parameter\(\s*|\b[Ww]eights?\s+(?:(?:are|were)\s+)?"
                        r"(?:from|drawn\s+(?:from|with|by)|initiali[sz]ed\s+(?:with|from|by)|made\s+(?:with|by))\s+`?)"
                        r"(?:np\.random\.randn|torch\.randn)"
                        r"\(\s*\w+\s*,\s*\w+\s*\)(?!`?[ \t]*[*/])(?![^.\n]{0,30}?(?<!no )(?<!without )(?<!any )\bscal\w*)"
                        # (JAX's: `jax.random.normal(k, (din, dout))` unscaled, a weight matrix's shape; not `* scale`)
                        r"|\bjax\.random\.normal\(\s*\w+\s*,\s*\(\s*\w+\s*,\s*\w+\s*\)\s*\)(?![ \t]*[*/])"
                        # (TensorFlow's, with no stddev, which is 1.0 by default: `tf.Variable(tf.random_normal([5, 5, 1,
                        # 32]))`, a shape of two dimensions or more -- a weight's, not a bias's)
                        r"|\btf\.Variable\(\s*tf\.(?:compat\.v1\.)?(?:random_normal|random\.normal|truncated_normal|"
                        r"random\.truncated_normal)\(\s*\[[^\]\n,]{1,30},[^\]\n]{1,60}\]\s*\)\s*[,)]")
# (a weight matrix's own name -- W1, W_hidden, weights2 -- not a buffer named after it: W1_vel, mW1; at a line's start,
# or a sentence's code: "I initialise `W1 = np.zeros((784, 100)); W2 = np.zeros((100, 10))`")
# (or a TensorFlow 1 variable of zeros of two dimensions or more: `W1 = tf.Variable(tf.zeros([784, 1024]))`)
NUMPY_ZERO_WEIGHTS = re.compile(r"(?m)(?:^|[`;])[ \t]*(?:self\.)?(?:W|w|weights?)(?:\d|_?(?:in|out|hidden|h|o|ih|hh|xh|hy)\d?)?"
                                r"\s*=\s*(?:np\.zeros\([^\n;`]{0,60}\)|tf\.Variable\(\s*tf\.zeros\(\s*\[[^\]\n,]{1,30},[^\]\n]{1,60}\]"
                                r"[^\n;`]{0,30}\))")
# ... or every parameter at once, by a comprehension: `params = {k: np.zeros(s) for k, s in shapes.items()}`
ALL_PARAMS_ZERO = re.compile(r"(?m)^[ \t]*(?:self\.)?(?:params|parameters|weights|theta)\w{0,10}\s*=\s*[\[{][^\n\]}]{0,40}?"
                             r"np\.zeros(?:_like)?\([^\n]{0,60}?\bfor\b[^\n]{0,80}[\]}]")
# A parameter made with memory left as it was (torch.empty, torch.Tensor(n, m), np.empty for weights) and filled nowhere in
# the paste (no nn.init, reset_parameters, in-place fill): it holds whatever that memory held -- nan, inf, 1e30 or
# zeros, different from run to run (PyTorch's torch.empty: "Returns a tensor filled with uninitialized data")
UNFILLED = re.compile(r"\bnn\.Parameter\(\s*torch\.(?:empty|Tensor|FloatTensor)\(\s*(?![\[(])[^()\n]{1,80}\)\)?|"
                      r"(?:^|\n)[ \t]*(?:self\.)?(?:W|w|weights?)\w{0,12}\s*=\s*np\.empty\(")
FILLED = re.compile(r"\bnn\.init\.|\binit\.\w+_\(|reset_parameters|\.(?:uniform|normal|zero|fill|copy|"
                    r"kaiming_\w+|xavier_\w+|orthogonal|trunc_normal)_\(|\bload_state_dict\(")
# ... or a JAX array made with jnp.empty or jnp.zeros and "filled" by a statement that throws its result away: JAX arrays
# are immutable, and `W.at[...].set(...)` returns a new array, leaving W as it was
AT_DISCARDED = re.compile(r"(?m)^[ \t]*(?P<n>[A-Za-z_]\w{0,30})\.at\[[^\]\n]{0,60}\]\.(?:set|add|multiply|mul|divide|power|"
                          r"min|max|apply)\(")
# layers the paste builds: zeros for the only one is a linear model, which trains from zeros
LAYERS_BUILT = re.compile(r"\b(?:layers\.)?(?:Dense|Conv[123]D)\(|\bnn\.(?:Linear|Conv[123]d)\(")
UNLABELLED_WORDS, RAW_PIXEL_WORDS = {"unlabell", "mark"}, {"raw", "pixel"}
# A class count taken as the number of distinct labels (`num_classes = len(np.unique(y_train))`, `y.nunique()`,
# `len(set(labels))`), with no map of the labels onto 0..C-1 anywhere (LabelEncoder, np.unique's return_inverse,
# factorize, cat.codes, searchsorted, a dict of them)
CLASSES_COUNTED = re.compile(r"\b(?:num_classes|n_classes|num_labels|n_labels|classes|nclass\w*)\s*=\s*"
                             r"(?:len\(\s*(?:np\.unique|set|torch\.unique|jnp\.unique)\(\s*[\w.\[\]\"']{1,40}\s*\)\s*\)|"
                             r"[\w.\[\]\"']{1,40}\.nunique\(\))")
LABELS_REMAPPED = re.compile(r"LabelEncoder|return_inverse|factorize|\.cat\.codes|searchsorted|"
                             r"\{\s*\w+\s*:\s*\w+\s+for\s+\w+\s*,\s*\w+\s+in\s+enumerate\(")
MINUS_ONE_LABELS = re.compile(r"\b(?:y|labels?|targets?)\s*(?:\[[^\]\n]{0,30}\]\s*)?=\s*-1\b(?!\s*(?:and|or|,|/)\s*\+?1\b)|"
                              r"\bset (?:the |their |its |those |these )?(?:y|labels?|targets?) (?:to|as) -1\b", re.I)
MINUS_ONE_HANDLED = re.compile(r"ignore_index\s*=\s*-1|!=\s*-1|>=\s*0\b|-1\s*(?:and|or|,|/)\s*\+?1\b|\{-1,\s*\+?1\}|"
                               r"hinge", re.I)
# Segmentation masks said to hold 255 (0 and 255, [0, 255], "255 for the foreground"): a class index no C-class
# cross-entropy takes, a BCE or Dice target past 1. Half a printed fact for the entries whose phrases say the label
# masks' foreground is 255 -- unless the paste divides them, thresholds them, or tells the loss to ignore 255 (Pascal
# VOC marks its object borders 255 on purpose, with ignore_index=255).
MASK_255_WORDS = {"foreground", "label"}
# A 0/1 mask put through torchvision's ToTensor, alone or in the images' Compose (`tf(mask)` where `tf =
# transforms.Compose([..., transforms.ToTensor()])`, `TF.to_tensor(mask)`): it divides an 8-bit picture by 255
# (to_tensor, torchvision v0.20.0), so the mask comes out 0 and 0.0039 -- WR-320's fourth face. Only where the paste
# says the mask holds 0 and 1 (a 0/255 mask is what ToTensor expects), and not one opened as mode "1" (multiplied by
# 255 first), nor one the paste multiplies back or reads without ToTensor.
MASK_SCALED_WORDS = {"mask", "divid", "image"}
MASK_NAME = r"(?<!\w)\w{0,20}(?:mask|label|target|seg|gt|lbl)\w{0,20}(?!\w)"
TO_TENSOR_NAMED = re.compile(r"(?m)^[ \t]*(?:self\.)?(?P<name>\w+)[ \t]*=[ \t]*(?:transforms|T|tv\.transforms)\."
                             r"(?:Compose\(\[[^\]]{0,300}?ToTensor\(\)|ToTensor\(\))")
TO_TENSOR_DIRECT = re.compile(rf"(?i)\b(?:TF|F|functional)\.to_tensor\([ \t]*{MASK_NAME}[ \t]*\)|"
                              rf"\b(?:transforms|T)\.ToTensor\(\)\([ \t]*{MASK_NAME}[ \t]*\)")
MASK_01 = re.compile(r"(?i)(?:mask|maske|m[áa]scara|masque|maschera|маск|掩码|掩膜|マスク|마스크)[^\n]{0,100}?"
                     r"(?:\[[ \t]*0[ \t,]+1[ \t]*\]|(?<![\d.])0[ \t]*(?:/|and|und|y|et|e|и|和|与|か)[ \t]*1(?![\d.]))")
MASK_RESCUED = re.compile(r"\*[ \t]*255|convert\([ \t]*['\"]1['\"][ \t]*\)|PILToTensor|pil_to_tensor")
# ... or a Keras ImageDataGenerator of the masks' own (named for them: `mask_datagen`) built with `rescale`, directly or
# through the images' arguments (`ImageDataGenerator(**data_gen_args)`, `data_gen_args = dict(rescale=1./255, ...)`):
# it multiplies every batch it standardizes (keras/src/legacy/preprocessing/image.py L1251-L1252 at v3.15.1)
KERAS_MASK_GENERATOR = re.compile(rf"(?m)^[ \t]*(?:self\.)?(?P<name>{MASK_NAME})[ \t]*=[ \t]*(?:[\w.]{{0,40}}\.)?"
                                  r"ImageDataGenerator\((?P<args>[^\n]{0,300})\)")


def mask_to_tensor(prose: str) -> str:
    """The call, quoted, that puts a mask the paste says holds 0 and 1 through ToTensor, or the masks' own Keras
    generator built to rescale (see MASK_SCALED_WORDS); or ''."""
    if not MASK_01.search(prose) or MASK_RESCUED.search(prose) or MASK_255.search(prose):
        return ""
    if direct := TO_TENSOR_DIRECT.search(prose):
        return direct.group(0)
    for t in itertools.islice(TO_TENSOR_NAMED.finditer(prose), 10):
        call = re.search(rf"(?i)(?<![\w.])(?:self\.)?{re.escape(t.group('name'))}\([ \t]*{MASK_NAME}[ \t]*\)", prose)
        if call:
            return call.group(0)
    for g in itertools.islice(KERAS_MASK_GENERATOR.finditer(prose), 5):
        args = g.group("args")
        spread = re.search(r"\*\*[ \t]*(\w+)", args)
        given = spread and re.search(rf"(?m)^[ \t]*{re.escape(spread.group(1))}[ \t]*=[ \t]*(?:dict\(|\{{)[^\n]{{0,400}}?"
                                     r"\brescale\b", prose)
        if re.search(r"\brescale[ \t]*=", args) or given:
            return " ".join(g.group(0).split())
    return ""
# A two-class mean IoU at 0.5: the entries whose phrases say so (one_class_iou.py)
ONE_CLASS_IOU_WORDS = {"iou", "foreground"}
MASK_255 = re.compile(r"\b(?:(?:binary |segmentation |seg |label |gt |ground[ -]?truth )?masks?|ground[ -]?truths?|gt)\b"
                      r"[^.;!?\n]{0,60}?(?:\b0 *(?:and|or|,|/|-|to) *255\b|\[ *0 *, *255 *\]|\b255 (?:for|as|is|=)"
                      r"|\b(?:values?|pixels?) (?:of |are |is )?255\b)", re.I)
MASK_255_HANDLED = re.compile(r"/ *255|ignore_index *= *255|\b(?:divided|divide|scaled|normali[sz]ed) (?:them |it |the "
                              r"masks? )?by 255|> *(?:0|127|128)\b|\bthreshold\w*|\b(?:void|ignore[ds]?)\b", re.I)
MAX_255 = re.compile(r"(?P<name>\b[A-Za-z_][\w\[\]'\".]{0,40})\.max\(\)[^\n]{0,80}?(?:\n[^\n]{0,80}?)?(?<![\d.])255"
                     r"(?:\.0*)?(?![\d.]|\.\d)")
INPUT_NAME = re.compile(r"(?i)\bx\b|x_|_x\b|inputs?|images?|imgs?|pixels?|features?|data")
NOT_INPUT_NAME = re.compile(r"(?i)mask|label|target|seg|gt|\by\b|\by_")
# ... or images loaded with Keras's load_data() for a dataset whose pixels it returns as uint8 from 0 to 255 (the
# docstrings of keras/src/datasets/mnist.py, fashion_mnist.py, cifar10.py and cifar100.py at v3.6.0), never scaled
KERAS_UINT8 = re.compile(r"\b(?P<name>mnist|fashion_mnist|cifar10|cifar100)\.load_data\(")
# ... or taken from a torchvision dataset's `.data`, which holds its pixels as stored, uint8 from 0 to 255 (MNIST and its
# kin a tensor, CIFAR and SVHN an array): the transform that would scale them (ToTensor) runs only when the dataset is
# indexed, never on `.data`
TORCHVISION_UINT8 = re.compile(r"(?P<var>\b[A-Za-z_]\w{0,30})\s*=\s*(?:torchvision\.)?datasets\.(?P<name>MNIST|FashionMNIST|"
                               r"KMNIST|EMNIST|QMNIST|CIFAR10|CIFAR100|SVHN)\(")
# ... or read by an image reader that gives 8-bit pixels (OpenCV's imread, PIL's Image.open, imageio's and scikit-image's
# imread -- not Matplotlib's, which gives a PNG as floats in [0, 1]) and made a tensor as they are: `x =
# torch.tensor(img, dtype=torch.float32)`, with no division of that image or that tensor by 255 in the paste
IMAGE_READER = re.compile(r"\bcv2\.imread\b|\bImage\.open\b|\bimageio\.(?:v\d\.)?imread\b|\b(?:skimage\.)?io\.imread\b|"
                          r"\b(?:with|using|via|through|by) (?:opencv|cv2)\b", re.I)
IMAGE_TENSOR = re.compile(r"(?P<name>\b[A-Za-z_]\w{0,30})\s*=\s*torch\.(?:tensor|from_numpy|as_tensor|FloatTensor)\(\s*"
                          r"(?:np\.(?:array|asarray)\(\s*)?(?P<src>\b(?:img|image|im|frame|pic|photo|pixels)\w{0,10})\b")
# A Keras preprocessing Normalization layer adapted on the data (`norm.adapt(X_train)`), beside a run nan from its first
# step: the layer cannot divide by zero (max(sqrt(variance), 1e-7), normalization.py at v3.15.1), so a nan in the data
# it adapted on is what makes its statistics nan -- WR-310's Keras face. (Not BatchNormalization, LayerNormalization...)
KERAS_NORMALIZATION = re.compile(r"(?P<name>\b[A-Za-z_]\w{0,40})\s*=\s*(?:\w+\.){0,5}(?<![A-Za-z])Normalization\(")
ADAPT_CALL = r"\b%s\.adapt\([^()\n]{0,60}(?:\([^()\n]{0,30}\)[^()\n]{0,20})?\)"
INPUT_NAN_WORDS = {"nan", "input", "data"}   # ("nan values in the input data")
# Tables merged or joined into the training data, in words or in pandas' calls ("I merged the CSV exports of 14
# stations with pandas", `df = sales.merge(weather, on="date", how="left")`): a row whose key has no match in the other
# table gets nan in that table's columns, as do the columns one of several concatenated frames lacks -- beside a nan,
# half a printed fact for the entries whose phrases say the input data holds a nan.
_DATA_TABLES = r"(?:pandas|data ?frames?|dfs?|(?<!embedding )(?<!lookup )(?<!hash )tables?|csvs?|exports?|spreadsheets?|" \
               r"excel (?:sheets?|files?))"
# (not a branch, a commit or a model's weights merged: "I merged the upstream branch", "merging the LoRA weights")
_NOT_TABLES = r"(?:(?!\b(?:branch\w*|commits?|weights?|adapters?|lora|checkpoints?|models?|upstream|fork|repo\w*|pr)\b)[^.;!?\n])"
MERGED = re.compile(r"\b(?:pd|pandas)\.(?:merge|concat)\(|\.merge\([^)\n]{0,80}\b(?:on|how|left_on|right_on)\s*=|"
                    r"\.join\([^)\n]{0,80}\bon\s*=|\b(?:merg|join)(?:e|ed|ing)\b" + _NOT_TABLES + r"{0,60}?\b" + _DATA_TABLES
                    + r"\b|\b" + _DATA_TABLES + r"\b" + _NOT_TABLES + r"{0,40}?\b(?:merg|join)(?:e|ed|ing)\b", re.I)
# ... or an array stacked straight from the reader's calls: `X = np.stack([cv2.imread(p, 0).flatten() for p in paths])`
IMAGE_STACK = re.compile(r"(?P<name>\b[A-Za-z_]\w{0,30})\s*=\s*(?:np|numpy|torch|jnp)\.(?:stack|array|asarray|vstack|"
                         r"concatenate|tensor|as_tensor)\(\s*\[[^\]\n]{0,120}?(?:\bcv2\.imread|\bImage\.open|"
                         r"\bimageio\.(?:v\d\.)?imread|\bio\.imread)\(")
NOT_PIXELS = re.compile(r"(?i)(?:^|_)(?:masks?|labels?|targets?|seg\w*|gts?|anno\w*|truths?)(?:_|$)")
# (a division or a rescaling the paste writes itself; or, for pixels it reads through a pipeline, a ToTensor there)
_DIVIDED = r"/=?\s*(?:255|127\.5)\b|convert_image_dtype|Rescaling|rescale|normali[sz]"
DIVIDED_255_ITSELF = re.compile(_DIVIDED)
DIVIDED_255 = re.compile(_DIVIDED + r"|ToTensor")
FLOOR_WORDS = {"class", "below"}
FLOOR_NEAR, FLOOR_ACCURACY, FLOOR_CLASSES, FLOOR_TAIL = 0.02, 0.9, range(3, 1001), 3
FLOOR_ACCURACY_SURE = 0.95
# (the class count the paste names, class_count; with none named, the count whose floor lies nearest below the loss
# counts only when the first loss sat near its ln C -- a fresh classifier's loss, and where a softmax applied twice
# starts -- above the floor's half-way)
# words of a loss with more in it than a cross-entropy, which sits above its floor by design
FLOOR_HIDDEN = re.compile(r"label[ _-]?smooth\w*|distill\w*|\bkd\b|mixup|cutmix|regulari[sz]\w*|\bl2\(|weight[ _]decay "
                          r"in the loss|auxiliary loss|\+ *(?:(?:\d+(?:\.\d*)?|\.\d*) *)?\* *\w+[ _]loss", re.I)


# A difference between every pair of a batch's rows, the row and itself included (`z[:, None, :] - z[None, :, :]`,
# `x.unsqueeze(1) - x.unsqueeze(0)`): its diagonal is 0 from the very first step (WR-050's page), so a norm or square
# root of it breaks the first backward pass, not only one after training has run. (Not torch.cdist(z, z), whose
# gradient at 0 is finite in all its modes: factcheck_session38 item 6.)
PAIRWISE = re.compile(r"\[\s*:\s*,\s*None\b[^\n]{0,40}?-[^\n]{0,40}?\[\s*None\s*,|"
                      r"\.unsqueeze\(\s*1\s*\)\s*-\s*\w+\.unsqueeze\(\s*0\s*\)")


RETURNS_OWN_MODULE = re.compile(r"(?m)\breturn\s+self\.(\w+)\((?:[^()\n]|\((?:[^()\n]|\([^()\n]*\))*\))*\)"
                                r"(?=[ \t]*(?:#[^\n]*)?$)")


def model_output(prose: str) -> re.Match | None:
    """The pasted model's probabilities as its output: a Sequential that ends in nn.Sigmoid() or nn.Softmax(), or what
    the last forward() pasted returns (its block: to the next `def` or `class` at its indentation or less), or, with no
    forward() pasted, the return a sentence about the forward quotes."""
    last = None
    for last in re.finditer(r"(?m)^([ \t]*)def forward\(", prose):
        pass
    if last is None:
        # (Flax's modules compute in __call__: one of a class built on nn.Module, not a predictor's or a helper's)
        for called in re.finditer(r"(?m)^([ \t]*)def __call__\(", prose):
            header = list(re.finditer(r"(?m)^[ \t]*class\s+\w+\s*(?:\(([^)\n]*)\))?\s*:", prose[:called.start()]))
            if header and "Module" in (header[-1].group(1) or ""):
                last = called
    if last is not None:
        end = re.compile(r"(?m)^[ \t]{0,%d}(?:def|class)\b" % len(last.group(1))).search(prose, last.end())
        block = prose[last.start():end.start() if end else len(prose)]
        found = TORCH_PROBABILITY_OUT.search(block)
        if found and not found.group(0).startswith("nn."):
            return found
        # (or a module the paste built as a softmax or a sigmoid under a name of its own: `self.head =
        # nn.Softmax(dim=1)`, and forward() returns `self.head(self.net(x))`)
        called = RETURNS_OWN_MODULE.search(block)
        if called and re.search(r"\bself\.%s\s*=\s*(?:torch\.)?nn\.(?:Softmax|Sigmoid)\(" % re.escape(called.group(1)),
                                prose):
            return called
    else:       # no forward() pasted: one a sentence quotes ("the model's forward ends with `return self.softmax(...)`")
        for found in TORCH_PROBABILITY_OUT.finditer(prose):
            if found.group(0).startswith("return") and re.search(r"forward|__call__", prose[
                    prose.rfind("\n", 0, found.start()) + 1:found.start()]):
                return found
    return next((m for m in TORCH_PROBABILITY_OUT.finditer(prose) if m.group(0).startswith(("nn.", "Chain(", *ARROW))),
                None)


# Gradients said to be exactly zero ("the grads are exactly 0.0", "gradients = 0", "grad norm is zero")
GRADS_ZERO_SAID = re.compile(r"\bgrad(?:ient)?s?\b(?:[ \t]+norms?)?[^.\n]{0,60}?\b(?:are|is|were|was|=|==|equal(?:s| to)?|"
                             r"print(?:s|ed)?(?: as)?)[ \t]+(?:all[ \t]+)?(?:exactly[ \t]+)?(?:0(?:\.0+)?|zero)(?!\.?\d)", re.I)
# ... not where a share of them is said to be 0% ("0.0% of the first layer's gradients are 0": none)
NONE_OF_THEM = re.compile(r"(?:^|[\s(])0(?:\.0+)?\s*%[^.\n]*$")


def grads_said_zero(prose: str) -> re.Match | None:
    return next((m for m in GRADS_ZERO_SAID.finditer(prose)
                 if not NONE_OF_THEM.search(prose, max(0, m.start() - 60), m.start())), None)


NEGATIVE = next(n for n in NORMALS if n.name == "negative loss")


SCALED_ASIDE = re.compile(r"(?i)\b(?:features?|inputs?|columns?)\s*\((?:[^()\n]{0,160}?[,;]\s*)?(?:all\s+|each\s+)?"
                          r"(?:standardi[sz]ed|normali[sz]ed|scaled|min-?max(?:ed| scaled)?)\b[^()\n]{0,60}\)")


# ... and values said to lie in a small range already, as a range ("inputs are in [0, 1]", "in the range 0-1",
# "targets between -2 and 2", "range from 0 to 1") or a set of values ("features already -1/0/1"): what a scaling makes
# them -- not "pixels in 0-255", whose values are past RANGE_SCALED, nor numbers of something else ("2 to 3 times
# larger", "3 to 4 per batch", "4.5 and 3.2 million")
_SMALL = r"[-+]?(?:\d{1,12}(?:\.\d{1,12})?|\.\d{1,12})"
SCALED_RANGE = re.compile(
    r"(?i)\b(?P<what>x(?:_[a-z]{1,10})?|y(?:_[a-z]{1,10})?|inputs?|features?|pixels?|images?|data|columns?|targets?)\s+"
    r"(?:(?:are|is|were|was|lie|all|already|both|now|range|ranges|ranging)\s+){0,3}(?P<range>"
    r"(?:(?:in|within)\s+(?:the\s+range\s+(?:of\s+)?)?)?[\[(]\s*" + _SMALL + r"\s*,\s*" + _SMALL + r"\s*[\])]|"
    r"(?:in|within)\s+the\s+range\s+(?:of\s+)?" + _SMALL + r"\s*(?:-|–|to|\.\.)\s*" + _SMALL + r"|"
    r"between\s+" + _SMALL + r"\s+and\s+" + _SMALL + r"|from\s+" + _SMALL + r"\s+to\s+" + _SMALL + r"|"
    r"already\s+" + _SMALL + r"(?:\s*/\s*" + _SMALL + r"){1,3})"
    r"(?!\d|\.\d|\s*(?:times|orders?|per\b|millions?|thousands?|billions?|k\b|kg|kilo\w*|grams?|met(?:er|re)s?|"
    r"seconds?|standard|std|sd\b|%|x\b|apart|larger|smaller|bigger|higher|lower|more|less|of\b))")
RANGE_SCALED = 5.0
# ... or their statistics said to be a standardisation's: "every column has mean ~0 and std ~1"
UNIT_STATS = re.compile(r"(?i)\b(?P<what>x(?:_[a-z]{1,10})?|inputs?|features?|columns?|data)\s+(?:\w+\s+){0,2}?(?:has|have|had|"
                        r"with|at|is|are)\s+(?:a\s+)?mean\s+(?:of\s+)?(?:~|about\s+|around\s+|≈\s*)?0(?:\.0+)?\s*(?:and|,|/)\s*"
                        r"(?:an?\s+)?(?:std|sd|standard deviation|variance|var)\s+(?:of\s+)?(?:~|about\s+|around\s+|≈\s*)?1(?:\.0+)?\b")
# (not assumed, expected or unchecked; not a state that is gone, nor one said of some columns only)
RANGE_DOUBTED = re.compile(r"(?i)\b(?:assum\w*|expect\w*|suppos\w*|think|thought|hope\w*|not sure|should|"
                           r"(?:didn't|did not|haven't|have not|never) (?:check|verif)\w*)\b")
RANGE_TAKEN_BACK = re.compile(r"(?i)\b(?:before|previously|originally|earlier|used to|but|except|for some|others?)\b")


# A sentence that asks, plans or sets a condition: "Do we normalize the inputs?", "I will normalize them later", "if I
# normalize the inputs the loss goes nan"
PRESENT_DOUBTED = re.compile(r"(?i)\b(?:if|unless|will|would|should|could|later|maybe|perhaps|whether|do|does|can|"
                             r"where|why|how)\b|'ll\b")


def _doubted(prose: str, at: int) -> bool:
    """Is the sentence around this place a question, or does it plan or set a condition (PRESENT_DOUBTED)?"""
    start, end = sentence_around(prose, at, at, stops=".!?\n")
    return prose[end:end + 1] == "?" or bool(PRESENT_DOUBTED.search(prose, start, end))


# (the pair named: ImageNet's, the dataset's, a checkpoint's own; "mean/std normalisation" and "normalised with ... mean/std")
MEAN_STD_NORMALISED = re.compile(r"(?i)\b(?:imagenet|dataset'?s?|model'?s|pretrained(?:_cfg)?|per[- ]channel|channel[- ]?wise|"
                                 r"global|train(?:ing)?(?: set'?s?)?)\s+mean\s*(?:/|and|&)\s*std\b|"
                                 r"\bmean\s*/\s*std\s+normali[sz]\w*|\bnormali[sz](?:ed|es|ing)\s+(?:\w+\s+){0,4}?mean\s*/\s*std\b")


def scaled_said(prose: str) -> dict[str, dict[str, str]]:
    """What the words say was scaled already ("scaled") and what they say was not ("unscaled"): "inputs" and
    "targets", each with the words that say it."""
    out: dict[str, dict[str, str]] = {"scaled": {}, "unscaled": {}}
    for m in SCALED.finditer(prose):
        said = " ".join(m.group(0).split())
        if re.match(r"(?i)(?:standardi[sz]e|normali[sz]e)\b", m.group(0)) and _doubted(prose, m.start()):
            continue
        if m.group("passive"):
            parts = {"unscaled" if m.group("neg") else "scaled": m.group("passive")}
        else:
            # what was scaled opens the object ("both X and y", "the price by ..."), not a word further on ("by zero
            # in my data"); a part after "but not", "except" is what was left out
            end = OBJECT_END.search(m.group("what"))
            upto = m.start("what") + end.start() if end else m.end()
            said = " ".join(prose[m.start():upto].split())
            obj = " ".join(prose[m.start("what"):upto].split()[:6])
            kept, *left = EXCEPT.split(obj, 1)
            window = prose[max(0, m.start() - 40):m.start()]
            negated = NEGATED.search(window)
            if negated:
                said = " ".join((window[negated.start():] + prose[m.start():upto]).split())
            parts = {"unscaled" if negated else "scaled": " ".join(kept.split()[:4])}
            if left and not negated:
                parts["unscaled"] = " ".join(left[0].split()[:4])
        for sense, what in parts.items():
            for kind, pattern in (("targets", SCALED_TARGETS), ("inputs", SCALED_INPUTS)):
                if what and pattern.search(what):
                    out[sense].setdefault(kind, said)
    for m in UNSCALED_AFTER.finditer(prose):
        before = prose[max(0, m.start() - 80):m.start()]
        before = re.split(r"[.;:\n]", before)[-1]
        subject = list(SUBJECT_IS.finditer(before))
        if not subject:
            continue
        for kind, pattern in (("targets", SCALED_TARGETS), ("inputs", SCALED_INPUTS)):
            if pattern.search(subject[-1].group("what")):
                out["unscaled"].setdefault(kind, " ".join((before[subject[-1].start():] + m.group(0)).split()))
    for m in UNSCALED_SAID.finditer(prose):
        what = m.group("what") or m.group("subject") or m.group("raw")
        what = "inputs" if re.fullmatch(r"(?i)anything|everything|data", what) else what
        for kind, pattern in (("targets", SCALED_TARGETS), ("inputs", SCALED_INPUTS)):
            if pattern.search(what):
                out["unscaled"].setdefault(kind, " ".join(m.group(0).split()))
    # ... and what an aside about the features says of all of them: "12 features (house size, occupants, ..., all
    # standardised with StandardScaler)"
    for m in itertools.islice(SCALED_ASIDE.finditer(prose), 5):
        out["scaled"].setdefault("inputs", " ".join(m.group(0).split())[:100])
    for m in itertools.islice(SCALED_RANGE.finditer(prose), 5):
        values = [abs(float(v)) for v in re.findall(r"\d{0,12}\.?\d{1,12}", m.group("range"))]
        start, end = sentence_around(prose, m.start(), m.end(), stops=".!?;\n")
        if values and max(values) <= RANGE_SCALED and not _doubted(prose, m.start()) \
                and not RANGE_DOUBTED.search(prose, start, m.start()) and not RANGE_TAKEN_BACK.search(prose, m.end(), end):
            for kind, pattern in (("targets", SCALED_TARGETS), ("inputs", SCALED_INPUTS)):
                if pattern.fullmatch(m.group("what")) or pattern.fullmatch(m.group("what").split("_")[0]):
                    out["scaled"].setdefault(kind, " ".join(m.group(0).split()))
    for m in itertools.islice(UNIT_STATS.finditer(prose), 5):
        _start, end = sentence_around(prose, m.start(), m.end(), stops=".!?;\n")
        # (not of the targets, "every column of y", nor a set said to be another than the one trained on)
        if not _doubted(prose, m.start()) and not RANGE_DOUBTED.search(prose, max(0, m.start() - 60), m.start()) \
                and not re.search(r"(?i)\bof\s+(?:the\s+)?(?:y|targets?|labels?)\b", m.group(0)) \
                and not re.search(r"(?i)\b(?:synthetic|toy)\b", prose[_start:end]) \
                and not RANGE_TAKEN_BACK.search(prose, m.end(), end):
            out["scaled"].setdefault("inputs", " ".join(m.group(0).split()))
    # ... and inputs standardised by a mean and std named as a pair: "224x224 with ImageNet mean/std normalisation",
    # "normalised with the model's pretrained_cfg mean/std"
    for m in itertools.islice(MEAN_STD_NORMALISED.finditer(prose), 5):
        if not _doubted(prose, m.start()) and not denied_before(prose, m.start(), 20):
            out["scaled"].setdefault("inputs", " ".join(m.group(0).split()))
            break
    # ... and what the pasted code scales: `y_train = y_scaler.fit_transform(y[:split])`, `X = (X - X.mean(0)) / X.std(0)`
    for m in SCALED_IN_CODE.finditer(prose):
        end = prose.find("\n", m.end())
        line = " ".join(prose[m.start():end if end >= 0 else len(prose)].split())
        line = line if len(line) <= 80 else line[:77] + "..."
        for kind, pattern in (("targets", SCALED_TARGETS), ("inputs", SCALED_INPUTS)):
            if pattern.fullmatch(m.group("name")) or pattern.fullmatch(m.group("name").split("_")[0]):
                out["scaled"].setdefault(kind, line)
    for kind in list(out["scaled"]):             # said both ways: the words do not decide
        if kind in out["unscaled"]:
            del out["scaled"][kind], out["unscaled"][kind]
    return out


def classifier_shown(ev: Evidence) -> str:
    """What shows a classifier's run (an accuracy printed beside the loss, or a softmax, a cross-entropy, a
    classification dataset named), when nothing names a regression; else ""."""
    if REGRESSOR.search(ev.prose):
        return ""
    if ev.accuracy_head and max(ev.accuracy_head + ev.accuracy_tail) > 0:
        # (an accuracy of 0 on every line is a regression's, compiled with metrics=['accuracy'])
        return "the log prints an accuracy beside the loss"
    named = CLASSIFIER.search(ev.prose)
    return f"the report names `{named.group(0)}`" if named else ""


def regressor_shown(ev: Evidence) -> str:
    """What shows a regression's run (its words: MSE, MLPRegressor, prices), with nothing of a classifier's; else ""."""
    if classifier_shown(ev) or CLASSIFIER.search(ev.prose) or PROBABILITY_WORDS.search(ev.prose) or (
            ev.accuracy_head and max(ev.accuracy_head + ev.accuracy_tail) > 0):
        return ""
    said = REGRESSION_SAID.search(ev.prose)
    if not said:
        return ""
    # the whole word it ends (the pattern has no leading \w*, which backtracks: MLPRegressor, not Regressor)
    start = said.start()
    while start > 0 and said.start() - start < 40 and (ev.prose[start - 1].isalnum() or ev.prose[start - 1] == "_"):
        start -= 1
    return f"the report names `{ev.prose[start:said.end()]}`"


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
    scales = _scales_printed(ev.prose) if "inputs" not in scaled["scaled"] else ""
    if scales:
        out["feature-scales"] = scales
    shrinking = _gradients_shrink_to_the_input(ev.prose)
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
            and not (climbed and ("inputs" in scaled["unscaled"] or _linear_model(ev.prose)
                                  or (ADAPTIVE.search(ev.prose) and not PLAIN_SGD.search(ev.prose)))):
        first = ev.head[0]
        size = (f"an absolute error that large takes errors of about {fmt(first)}" if _absolute_loss(ev.prose)
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
        size = (f"an absolute error that large takes errors of about {fmt(ev.last)}" if _absolute_loss(ev.prose)
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
        size = (f"an absolute error that large takes errors of about {fmt(value)}" if _absolute_loss(ev.prose)
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
    enormous = untrained_output_enormous(ev.prose)
    if enormous:
        out["untrained-output-enormous"] = (f"the report says the output is enormous before any update (\"{enormous}\"): "
                                            "no step has been taken, so no learning rate made it so; what the forward "
                                            "pass starts from did -- weights drawn too wide for their fan-in, or "
                                            "inputs on their raw scale")
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
    rose = _rate_rose(ev, sig)
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
        elif (raw := _dataset_data(ev.prose)) and not DIVIDED_255_ITSELF.search(ev.prose):
            out["raw-pixels"] = (f"the paste takes its images from torchvision's {raw[0]} as `{raw[1]}.data`, its pixels "
                                 "as stored, uint8 from 0 to 255 (the dataset's transform runs only when it is indexed), "
                                 "and scales them nowhere: raw 8-bit pixel values, fed as they are")
        elif (reader := IMAGE_READER.search(ev.prose)) and (made := _image_tensor_unscaled(ev.prose)):
            # (OpenCV's imread with no flag always gives 8-bit pixels; the others give a file's own depth: a 16-bit
            # greyscale PNG or TIFF as uint16, up to 65535)
            name = reader.group(0).split()[-1]          # ("with OpenCV": the library the words name)
            depth = ("8-bit pixels, 0 to 255" if name.lower().startswith(("cv2", "opencv")) else
                     "pixels in the file's own range: 0 to 255 for 8-bit images, up to 65535 for 16-bit ones")
            out["raw-pixels"] = (f"the paste reads images with {name} ({depth}) and builds its inputs from them "
                                 f"with no division by 255 (`{made}`): raw pixel values, fed as they are")
    overflow, printed = _exp_overflow(ev)
    if overflow:
        # (a logit the run printed past exp's limit is the run's own number: a printed fact's whole weight)
        out["exp-overflow-printed" if printed else "exp-overflow"] = overflow
    # (a nan said in the report's sentences, not an `-inf` of its code)
    if ev.first_nonfinite is not None or {"nan", "inf"} & set(tokens(
            sentences_only(ev.prose) if sentences is None else sentences)):
        out.update(breaking_construct(ev.prose))
        # (and the -inf fill beside a printed count of unmasked tokens that holds a 0: the row it breaks on, shown)
        if "masked-inf" in out and MASKED_INF.search(code_of(ev.prose)) and (printed := _token_counts(ev.prose)[0]):
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
    if went_wrong and (kept := _update_discarded(ev.prose)):
        out["update-discarded"] = kept
    if went_wrong and (large := LARGE_INIT.search(ev.prose)):
        out["large-init"] = (f"the pasted code draws weights with a standard deviation of 1 or more "
                             f"(`{' '.join(large.group(0).split())}`): He's scale, √(2 / fan_in), is below 1 for any "
                             "layer of more than two inputs, and with ReLU each layer of n inputs at that spread "
                             "multiplies the activations' spread by about √(n / 2)")
    elif went_wrong and (wide := _init_too_wide(ev.prose)):
        out["large-init"] = wide
    # (a constant column denied is none: "no nan, no constant columns")
    divides = DIVIDES_BY_STD.search(ev.prose)
    constant = next((m for m in itertools.islice(CONSTANT_FEATURE.finditer(ev.prose), 10)
                     if not denied_before(ev.prose, m.start(), 12)), None)
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
    elif not divides and (by_hand := _standardised_by_hand(ev.prose)) and _broken_from_start(ev, sig, words,
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


def _dataset_data(prose: str) -> tuple[str, str] | None:
    """(the dataset, its variable) where the paste builds a torchvision image dataset and reads its `.data`; or None."""
    for m in itertools.islice(TORCHVISION_UINT8.finditer(prose), 5):
        if re.search(rf"\b{re.escape(m.group('var'))}\.data\b", prose[m.end():]):
            return m.group("name"), m.group("var")
    return None


def _image_tensor_unscaled(prose: str) -> str:
    """The line that makes a tensor of an image as it was read (IMAGE_TENSOR), or an array of the images as they were
    read (IMAGE_STACK), when neither that image nor that tensor
    is divided by 255 anywhere in the paste (an aside on another pipeline's ToTensor() does not scale this one); or
    ""."""
    for m in itertools.chain(IMAGE_TENSOR.finditer(prose), IMAGE_STACK.finditer(prose)):
        # (a stack's own line may end in its division, `...).astype(np.float32) / 255.0`; masks and labels read as
        # pictures hold classes, not pixels)
        if "src" not in m.groupdict() and (NOT_PIXELS.search(m.group("name"))
                                           or re.search(r"/=?\s*(?:255|127\.5)\b", _line_from(prose, m.start()))):
            continue
        names = "|".join(re.escape(n) for n in {m.group("name"), m.groupdict().get("src") or m.group("name")})
        if not re.search(rf"\b(?:{names})\b[^\n]{{0,60}}?(?:/=?\s*(?:255|127\.5)\b|\.div_?\(\s*255)", prose):
            return _line_from(prose, m.start())[:100]
    return ""


def _standardised_by_hand(prose: str) -> re.Match | None:
    """The words that say the inputs are standardised by hand (STANDARDISED_BY_HAND), in a sentence that guards no
    division and is no plan or denial, in a paste that names no scaler; or None."""
    if SCALER_NAMED.search(prose):
        return None
    text = told(prose)
    for m in itertools.islice(STANDARDISED_BY_HAND.finditer(text), 5):
        start, end = sentence_around(text, m.start(), m.end())
        sentence = text[start:end]
        if not (BY_HAND_GUARDED.search(sentence) or BY_HAND_DOUBTED.search(text, start, m.start())
                or NEGATED.search(text[max(0, m.start() - 40):m.start()])):
            return m
    return None


def _broken_from_start(ev: Evidence, sig: Signature, words: list[str], first_printed: bool = False) -> bool:
    """Is the loss not finite from the first step: the curve's signature, or, with no curve, words that say a nan or
    an inf and say it showed at the start ("nan from the very first batch", "the first loss printed is nan")? With
    `first_printed`, also a first value printed non-finite at the run's start, whatever it averages ("the very first
    epoch already prints loss: nan"): for a construct that breaks at the first forward pass, that is its face too."""
    return sig.name == "nonfinite-from-start" or (ev.count == 0 and bool({"nan", "inf"} & set(words))
                                                 and "start" in timing_of(words)) or (
        first_printed and ev.first_nonfinite == 0 and ev.count > 0 and at_run_start(ev))


# ... or describe().T, a column per statistic and a row per feature: a header naming min and max, then rows of a name and
# as many numbers
# (a header is short: bounded, a line of many "min" words is tried once at its start, not rescanned from each)
STAT_HEADER = re.compile(r"(?im)^[ \t]*(?:\w+[ \t]+){0,4}?min\b[^\n]{0,80}?\bmax\b[ \t]*\r?$")
_STAT_NUMBER = r"-?\d{1,15}(?:\.\d{1,12})?(?:e[-+]?\d{1,3})?"
FEATURE_ROW = re.compile(r"(?m)^[ \t]*[A-Za-z_][\w.\-/]{0,40}((?:[ \t]+" + _STAT_NUMBER + r"){2,12})[ \t]*\r?$")


def _transposed_min_max(prose: str) -> tuple[list[float], list[float]]:
    """The min and max of each feature row under a header that names min and max (describe().T), or two empty lists."""
    header = STAT_HEADER.search(prose)
    if header is None:
        return [], []
    names = header.group(0).split()
    where_min, where_max = names.index("min"), names.index("max")
    low, high = [], []
    for line in itertools.islice(prose[header.end():].lstrip("\n").split("\n"), 200):
        m = FEATURE_ROW.match(line)
        if m is None:
            break
        values = [float(v) for v in m.group(1).split()]
        if len(values) != len(names):
            break
        low.append(values[where_min])
        high.append(values[where_max])
    return low, high


def _scales_printed(prose: str) -> str:
    """The fact, when the paste prints a `min` row and then a `max` row over the same columns (describe()) whose
    ranges differ SCALE_SPREAD times or more and reach SCALE_WIDE, else ""."""
    rows: dict[str, list[float]] = {}
    for m in itertools.islice(STAT_ROW.finditer(prose), 20):
        name = m.group(1).lower()
        if name == "max" and "min" not in rows:
            continue
        rows[name] = [float(v) for v in m.group(2).split()]
        if name == "max":
            break
    low, high = rows.get("min"), rows.get("max")
    if not (low and high and len(low) == len(high) >= 2):
        low, high = _transposed_min_max(prose)
        if len(low) < 2:
            return ""
    ranges = [b - a for a, b in zip(low, high)]
    widest, narrowest = max(ranges), min((r for r in ranges if r > 0), default=0)
    if not (narrowest and widest >= SCALE_WIDE and widest >= SCALE_SPREAD * narrowest):
        return ""
    return (f"the paste prints its inputs' ranges (their min and max): one column spans {fmt(widest)}, another "
            f"{fmt(narrowest)}, {widest / narrowest:.3g} times less -- features on very different scales, if they are "
            "fed as printed")


# ... or the two ends said in a sentence of gradients: "3.1e-09 for the first Dense and 0.27 for the last one", "the
# first layer's gradient norm is 1e-8, the last layer's 0.3"
_NUMBER = r"(\d+(?:\.\d+)?(?:e[-+]?\d+)?)(?![\w.])"
_END = r"(first|earliest|lowest|bottom|input|last|final|top|output)"
VALUE_FOR_END = re.compile(r"(?i)" + _NUMBER + r"\s+(?:for|in|at|on|of)\s+(?:the\s+)?" + _END + r"\b")
END_HAS_VALUE = re.compile(r"(?i)\b" + _END + r"\b(?:\s+[\w']+){0,4}?\s*(?:is|was|are|were|:|=|gets?|got|has|had|of)"
                           r"\s*(?:about\s+|around\s+|~\s*)?" + _NUMBER)
# (nor another quantity set per layer -- learning rates, dropout, a clip's norm, weight decay -- nor a supposition: "if
# the first layer's gradient were 1e-9 ...")
OTHER_PER_LAYER = re.compile(r"(?i)\b(?:learning[ -]rates?|lrs?|dropout|clip\w*|max[ _]norm|weight[ _]decay|rates?)\b")
SUPPOSED = re.compile(r"(?i)\b(?:if|were|would|could|should|expect\w*|suppos\w*)\b")
# ("of the last one 0.27": the end's noun, then its value)
END_NOUN_VALUE = re.compile(r"(?i)\b" + _END + r"\s+(?:one|layer(?:'s)?|dense|conv\w*|block|linear)\s+(?:about\s+|~\s*)?"
                            + _NUMBER)
INPUT_END = {"first", "earliest", "lowest", "bottom", "input"}
# (of layers: not the first and the last epochs or steps of the run)
LAYERS_NAMED = re.compile(r"(?i)\b(?:layers?|dense|conv\w*|blocks?|linear)\b")
ENDS_IN_TIME = re.compile(r"(?i)\b(?:first|last|final)\s+(?:few\s+|\d+\s+)?(?:epochs?|steps?|iterations?|iters?|batch(?:es)?|"
                          r"updates?|runs?)\b")


# A fixed std below 1 can still be too large for wide layers: `nn.init.normal_(m.weight, std=0.1)` beside layers of up to
# n inputs (`nn.Linear(512, 1024)`) is std·√(n / 2) times He's scale; with ReLU each layer multiplies the activations'
# spread by about that, and a stack of them by its power (He et al. 2015, Eq. 10)
FIXED_STD = re.compile(r"\bnormal_?\(\s*(?![\w.\[\]]{0,40}emb)[\w.\[\]]{0,40}weight[^)\n]{0,40}?\bstd\s*=\s*(0?\.\d{1,6})(?![\w.])|"
                       r"\bnormal_\(\s*(?![\w.\[\]]{0,40}(?:bias|emb))[\w.\[\]]{1,40}\s*,\s*(?:mean\s*=\s*)?-?\d+(?:\.\d*)?\s*,\s*"
                       r"(?:std\s*=\s*)?(0?\.\d{1,6})(?![\w.])|"
                       # (the tensor's own method: `m.weight.data.normal_(0.0, 0.1)`)
                       r"\bweight(?:\.data)?\.normal_\(\s*(?:mean\s*=\s*)?-?\d+(?:\.\d*)?\s*,\s*(?:std\s*=\s*)?(0?\.\d{1,6})(?![\w.])")
LINEAR_SIZES = re.compile(r"\b(?:nn\.)?Linear\(\s*(\d{1,6})\s*,\s*(\d{1,6})")
DEPTH_SAID = re.compile(r"(?i)(?<!resnet )(?<!resnet-)(?<!resnet with )(?<!vgg with )\b(\d{1,3})\s+"
                        r"(?:residual\s+|hidden\s+|dense\s+|linear\s+)?(?:blocks|layers)\b")
NORMALISED_LAYERS = re.compile(r"(?i)(?<!no )(?<!without )\b(?:BatchNorm\w*|LayerNorm|GroupNorm|RMSNorm)\(")
WIDE_GAIN, WIDE_GROWTH = 1.5, 1e3


def _init_too_wide(prose: str) -> str:
    """The fact, when the paste draws weights at a fixed std below 1 that is WIDE_GAIN times He's scale or more for
    its widest layer, over layers enough to grow the activations' spread WIDE_GROWTH times; else ""."""
    std = FIXED_STD.search(prose)
    sizes = [(int(a), int(b)) for a, b in itertools.islice(LINEAR_SIZES.findall(prose), 50)]
    if std is None or not sizes or not re.search(r"(?i)\brelu\b", prose):
        return ""
    if NORMALISED_LAYERS.search(prose):
        return ""                      # (a normalisation after the layers resets the spread each time)
    s = float(std.group(1) or std.group(2) or std.group(3))
    # (the hidden layers' inputs: the first layer's are the data's, and its width says nothing of the stack's)
    fan_in = max(a for a, _ in (sizes[1:] or sizes))
    gain = s * math.sqrt(fan_in / 2)
    said = [int(n) for n in DEPTH_SAID.findall(prose)]
    depth = max([len(sizes)] + said)
    if s <= 0 or gain < WIDE_GAIN or gain ** depth < WIDE_GROWTH:
        return ""
    return (f"the pasted code draws weights at a fixed std of {s:g} (`{' '.join(std.group(0).split())}`) for layers of "
            f"up to {fan_in} inputs: He's scale for ReLU there is √(2 / {fan_in}) = {math.sqrt(2 / fan_in):.3g}, so "
            f"each such layer multiplies the activations' spread by about {gain:.3g}, and {depth} layers by about "
            f"{gain ** depth:.3g}")


def _update_discarded(prose: str) -> str:
    """The fact, where the paste makes a JAX array with jnp.empty or jnp.zeros and then throws away the array that
    `.at[...].set(...)` returned (AT_DISCARDED), else ""."""
    for m in itertools.islice(AT_DISCARDED.finditer(prose), 10):
        before = prose[:m.start()]
        # (a statement of its own: not a line that continues one opened above -- `W = (`, `return (`, `dict(W=`)
        previous = next((line.rstrip() for line in reversed(before.rstrip("\n").split("\n")[-5:]) if line.strip()), "")
        if previous.endswith(("(", "[", "{", ",", "=", "\\")):
            continue
        # (and the name as last made before it: not one made again since from anything else)
        assigned = list(re.finditer(rf"(?m)^[ \t]*{re.escape(m.group('n'))}[ \t]*=(?!=)([^\n]*)", before))
        made = re.search(r"\bjnp\.(empty|zeros)(?:_like)?\(", assigned[-1].group(1)) if assigned else None
        if made:
            line = " ".join(prose[m.start():prose.find("\n", m.start()) % (len(prose) + 1)].split())[:80]
            return (f"the pasted code makes `{m.group('n')}` with jnp.{made.group(1)}() and then calls `{line}` without "
                    f"keeping its result: JAX arrays are immutable, `.at[...].set()` returns a new array, so "
                    f"`{m.group('n')}` keeps what jnp.{made.group(1)}() gave it (zeros; from JAX 0.11.0 on, jnp.empty may "
                    "leave its memory uninitialised)")
    return ""


def _gradients_shrink_said(prose: str) -> tuple[float, float, str] | None:
    """The first and the last layer's gradient norms, said in one sentence of gradients, and the sentence's words."""
    for m in itertools.islice(GRADIENT_SAID.finditer(prose), 20):
        start, end = sentence_around(prose, m.start(), m.end(), stops=".;\n")
        sentence = prose[start:end]
        if not LAYERS_NAMED.search(sentence) or ENDS_IN_TIME.search(sentence) or OTHER_PER_LAYER.search(sentence) \
                or sentence.rstrip().endswith("?") or SUPPOSED.search(sentence):
            continue
        ends: dict[bool, float] = {}
        for v in itertools.chain(((x.group(2), x.group(1)) for x in VALUE_FOR_END.finditer(sentence)),
                                 ((x.group(1), x.group(2)) for x in END_HAS_VALUE.finditer(sentence)),
                                 ((x.group(1), x.group(2)) for x in END_NOUN_VALUE.finditer(sentence))):
            ends.setdefault(v[0].lower() in INPUT_END, float(v[1]))
        if len(ends) == 2:
            return ends[True], ends[False], " ".join(sentence.split())[:160]
    return None


def _gradients_shrink_to_the_input(prose: str) -> str:
    """The fact, when the paste prints LAYER_ROWS or more gradient norms by layer (one block of rows under words of
    gradients), or says the first and the last layer's, and the first layer's is DEPTH_DECADES orders of magnitude
    below the last's, else ""."""
    rows = [(int(m.group(1)), float(m.group(2)), m.start()) for m in itertools.islice(LAYER_ROW.finditer(prose), 200)]
    if len(rows) < LAYER_ROWS or not GRADIENT_SAID.search(prose[max(0, rows[0][2] - 300):rows[0][2]]):
        said = _gradients_shrink_said(prose)
        if said and 0 < said[0] and 10 ** DEPTH_DECADES * said[0] <= said[1]:
            return (f"the report gives the first layer's gradient as {fmt(said[0])} and the last layer's as "
                    f"{fmt(said[1])} (\"{said[2]}\"): {math.log10(said[1] / said[0]):.3g} orders of magnitude smaller "
                    "at the first layer, which gets next to no gradient (the backward pass shrinks through each layer "
                    "it crosses, as through sigmoids, whose slope is at most 1/4)")
        return ""
    layers = [n for n, _, _ in rows]
    if layers != sorted(set(layers)):
        return ""                       # (one block, each layer once, in order: not two runs' rows)
    first, last = rows[0][1], rows[-1][1]
    if not (0 < first and last > 0 and last >= 10 ** DEPTH_DECADES * first):
        return ""
    return (f"the paste prints gradient norms layer by layer, {fmt(first)} at layer {layers[0]} and {fmt(last)} at layer "
            f"{layers[-1]}: {math.log10(last / first):.3g} orders of magnitude smaller at the first layer, which gets "
            "next to no gradient (the backward pass shrinks through each layer it crosses, as through sigmoids, whose slope "
            "is at most 1/4)")


# The largest logit a paste prints ("max logit 88.96", `logits.max() = 91.2`, "largest logit: 712"): an unshifted exp of
# it overflows past float32's (float64's) limit
# (also as a norm's bars: "max|logit| 81.7", "largest |logit| = 90.4")
PRINTED_LOGIT = re.compile(r"(?i)\b(?:max(?:imum)?[ _]logits?|largest[ _]logits?|logits?[ _]max|logits\.max\(\)|"
                           r"(?:max(?:imum)?|largest)[ \t]*\|[ \t]*logits?[ \t]*\|)"
                           r"[ \t]*(?:(?:[:=]|is|was|of|reached|reaches)[ \t]*)?(\d+(?:\.\d+)?)(?!\d|\.\d)")


SELF_NORMALISED = re.compile(r"(?m)^[ \t]*File \"[^\"\n]{1,300}\", line \d+[^\n]*\n[^\n]{0,80}?(?<![\w.])(?P<n>[A-Za-z_]\w{0,20})"
                             r"[ \t]*/[ \t]*(?:\(?[ \t]*)(?P=n)\.sum\(")
SAID_BOUND = re.compile(r"(?i)\b(?:at most|up to|as (?:large|high|big) as|a maximum of|max(?:imum)? of|reach(?:es|ed)?)"
                        r"\s+~?(\d+(?:\.\d+)?)(?!\d|\.\d)")
# (an exp said as a step of a hand-written loss; cosine similarities; a temperature's value)
HAND_EXP = re.compile(r"(?i)\bexp\b|\bexponentiat\w*")
COSINE_SAID = re.compile(r"(?i)\bcosine[ _-]?similarit\w*|\bcos_sim\b|\bl2[- ]?normali[sz]\w*|\bunit[- ]norm\w*|"
                         r"\bnormali[sz]ed (?:embeddings|vectors)\b")
# (a softmax temperature: not a Gumbel-softmax's tau, nor an EMA's or a soft target update's)
TEMPERATURE_SAID = re.compile(r"(?i)(?<!gumbel )(?<!ema )(?<!polyak )(?<!update )(?<!soft update )\b(?:temperature|tau|τ)\b"
                              r"(?![^\n]{0,40}?\b(?:ema|polyak|soft (?:target )?update|gumbel)\b)"
                              r"[^.\n\d]{0,20}?(\d*\.\d+|\d+(?:\.\d+)?e-\d+)(?!\d|\.\d)")
# (the max taken off before the exp, said in words or code: "sim - sim.max(dim=1, keepdim=True)", "subtract each row's max")
MAX_SUBTRACTED = re.compile(r"(?i)-\s*[\w.]+\.(?:max|amax)\(|\bsubtract\w*\s+(?:the\s+|each\s+)?(?:row'?s?\s+)?max\w*|"
                            r"\bgumbel\b")
EXP_INPUT_WORDS = re.compile(r"(?i)logit|similarit|\bsims?\b|\bscores?\b|\bexp\b|softmax|\btau\b|temperature")


def _exp_overflow(ev: Evidence) -> tuple[str, bool]:
    """The first call in the paste that hands exp (or a hand-written softmax) a number past what exp can return, as
    a fact, or "": past float64's limit always, past float32's only where the paste computes in float32 (a
    framework's exp, a framework shown, or float32 named); and whether the number is one the run printed (a logit)."""
    if STABLE_SAID.search(ev.prose):
        return "", False                # (the paste keeps exp in log space already: what it hands exp is guarded)
    wide = bool(FLOAT32_SAID.search(ev.prose) or {"pytorch", "tensorflow", "jax"} & shown_frameworks(ev))
    for m in EXP_CALL.finditer(ev.prose):
        line_start = ev.prose.rfind("\n", 0, m.start()) + 1
        if "#" in ev.prose[line_start:m.start()] or not LITERAL_ARGS.fullmatch(m.group("args")):
            continue                    # (a comment's, or an expression's numbers: not what exp was handed)
        x = max((float(n) for n in EXP_NUMBER.findall(m.group("args"))), default=-math.inf)
        call = f"the paste hands {m.group('fn')} an input of {fmt(x)} (`{' '.join(m.group(0).split())}`): exp({fmt(x)})"
        if x > EXP_LIMITS["float64"]:
            return (f"{call} is past the largest float64 (exp overflows above {EXP_LIMITS['float64']:.2f} in float64, "
                    f"{EXP_LIMITS['float32']:.2f} in float32)"), False
        # (float32 where the paste computes in it, unless the call itself asks for float64)
        if x > EXP_LIMITS["float32"] and (wide or m.group("lib") in ("torch", "jnp", "tf", "tf.math")) \
                and not re.search(r"float64|double", m.group("args")):
            return f"{call} is past the largest float32 (exp overflows above {EXP_LIMITS['float32']:.2f})", False
    # (or the largest logit it prints, where the paste's own exp takes it unshifted: `jnp.exp(z)` of raw logits -- or
    # where it divides a name by its own sum, a softmax's last line, as a traceback quotes it: `probs = e / e.sum(-1)`)
    # (the division alone only where the paste shows no exp of its own: a shown exp is judged by its input)
    if "exp-unshifted" in breaking_construct(ev.prose) or (SELF_NORMALISED.search(ev.prose)
                                                           and not EXP_OF.search(code_of(ev.prose))):
        for m in PRINTED_LOGIT.finditer(ev.prose):
            x, dtype = float(m.group(1)), ("float32" if wide else "float64")
            if x > EXP_LIMITS[dtype]:
                return (f"the paste prints the largest logit as {m.group(1)} (`{' '.join(m.group(0).split())}`), "
                        f"and its exp takes the logits as they are: exp({m.group(1)}) "
                        f"is past the largest {dtype} (exp overflows above {EXP_LIMITS[dtype]:.2f}), so inf / inf is "
                        "nan"), True
        # (or a sentence that bounds what that exp takes: "dividing by 0.01 just makes them at most 100" -- a bound
        # said of the logits, the similarities or the scores, not of the loss)
        for sentence, _end in sentences_and_ends(ev.prose):
            if not EXP_INPUT_WORDS.search(sentence) or re.search(r"(?i)\bloss", sentence):
                continue
            for m in SAID_BOUND.finditer(sentence):
                x, dtype = float(m.group(1)), ("float32" if wide else "float64")
                if x > EXP_LIMITS[dtype]:
                    cut = sentence[max(0, m.start() - 60):m.end()]
                    said = ("..." if m.start() > 60 else "") + " ".join(cut.split())
                    return (f"the report says what its exp takes reaches {m.group(1)} (\"{said}\"), and its exp "
                            f"takes it as it is: exp({m.group(1)}) is past the largest {dtype} (exp overflows above "
                            f"{EXP_LIMITS[dtype]:.2f}), so inf / inf is nan"), False
    # (or the words: a hand-written exp of cosine similarities divided by a temperature the report names -- a cosine
    # is at most 1, so that exp takes up to 1/T, past float32's limit for any T below 1/88.72, about 0.0113)
    if "handwritten" in tokens(ev.prose) and HAND_EXP.search(sentences_only(ev.prose)) and COSINE_SAID.search(ev.prose) \
            and not MAX_SUBTRACTED.search(ev.prose):
        dtype = "float64" if re.search(r"(?i)\bfloat64\b|\bdouble\b", ev.prose) or not wide else "float32"
        for m in itertools.islice(TEMPERATURE_SAID.finditer(ev.prose), 5):
            t = float(m.group(1))
            if 0 < t and 1 / t > EXP_LIMITS[dtype]:
                return (f"the report computes its loss by hand with an exp of cosine similarities divided by a "
                        f"temperature of {m.group(1)} (\"{' '.join(m.group(0).split())}\"): a cosine is at most 1, so "
                        f"that exp takes up to 1/{m.group(1)} = {fmt(1 / t)}, past the largest {dtype} (exp overflows "
                        f"above {EXP_LIMITS[dtype]:.2f}): a pair that matches well overflows, and inf / inf is nan"), False
    return "", False


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


# Keras's mixed_float16 policy in a loop of the paste's own (tf.GradientTape) that wraps no optimizer in a
# LossScaleOptimizer: compile() adds the loss scale (its auto_scale_loss), a custom loop does not (WR-040's Keras part)
MIXED_FLOAT16_SET = re.compile(r"(?:set_global_policy|set_dtype_policy|Policy)\(\s*['\"]mixed_float16['\"]")
CUSTOM_LOOP = re.compile(r"\bGradientTape\b")
LOSS_SCALED = re.compile(r"\bLossScaleOptimizer\b|\bget_scaled_loss\b|\bscale_loss\b")
# (the optimizer compile() wrapped: stepped by fit(), or by a loop that steps the model's own)
FIT_STEPS = re.compile(r"\.fit\(|\b(?:self|model)\.optimizer\.(?:apply_gradients|apply)\(")


def keras_loop_unscaled(prose: str) -> str:
    """The policy's words, when the paste sets mixed_float16 and trains in a GradientTape loop with no loss scale; or ""."""
    policy, loop = MIXED_FLOAT16_SET.search(prose), CUSTOM_LOOP.search(prose)
    if policy and loop and not LOSS_SCALED.search(prose) and not FIT_STEPS.search(prose) \
            and not denied_before(prose, loop.start(), reach=80):
        return policy.group(0)
    return ""


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
        if value >= ENORMOUS_START and not _doubted(text, m.start()) \
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
        if _doubted(text, m.start()) or re.search(r"(?:\bnot|n't)\b[^.\n]{0,15}$", text[max(0, m.start() - 20):m.start()]) \
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


def trainer_clears(ev: Evidence) -> str:
    """How the tool that printed the log clears the gradients every step, when the paste shows that tool ran the
    steps (its own bar) and no step written by hand; or ""."""
    trainer = dialects.named(ev.dialect)
    if trainer is None or not trainer.clears_gradients or (
            trainer.clears_shown_by is not None and not trainer.clears_shown_by.search(ev.prose)) or (
            trainer.clears_unless is not None and trainer.clears_unless.search(ev.prose)):
        return ""
    return f"the log is printed by {trainer.name.removesuffix(' log')}, whose trainer {trainer.clears_gradients}"


def _rate_rose(ev: Evidence, sig: Signature) -> str:
    """The learning rate printed beside the loss, when it rose through the climb (from where the loss was lowest
    to the climb's end, and is still near the highest it reached); or ""."""
    if sig.name not in RATE_CLIMBS or ev.low_pos is None:
        return ""
    end = (ev.first_nonfinite if ev.first_nonfinite is not None else ev.count) - 1
    last, low = ev.at(end), ev.low_pos
    if last is None or last.rate is None or low.rate is None:
        return ""
    # a rate that had stopped rising before the loss turned (a warmup long over) says nothing of the climb, nor one
    # that peaked and fell back through it (a warmup, then a decay the loss climbed all along)
    during = [p.rate for p in ev.head_at + ev.before_at if low.line <= p.line <= last.line and p.rate is not None]
    if not (last.rate > 0 and last.rate >= RATE_CLIMB * low.rate and last.rate >= RATE_NEAR_PEAK * max(during)):
        return ""
    return (f"the learning rate printed beside the loss rose from {low.rate:g} ({ev.where(ev.low_at)}), where the "
            f"loss was lowest ({fmt(ev.low)}), to {last.rate:g} ({ev.where(end)}): the loss climbed as the rate rose "
            "(a warmup, a restart or a range test raises the rate on purpose)")


# Binary targets printed outside [0, 1] beside a binary cross-entropy: a mask's unique values `array([  0, 255])`
# (np.unique, torch.unique), or the words "the masks are 0 and 255" -- in a sentence about the masks, labels or targets.
# BCE's -(y log p + (1 - y) log(1 - p)) with y = 255 goes below zero as p nears 1 (254 log(1 - p) has no floor), the
# negative loss WR-320's targets make; a cross-entropy over class indices takes 255 as a class, and is not read so.
BINARY_LOSS = re.compile(r"binary_cross_?entropy\w*|\bBCE\w*Loss\b|\bBCE\b", re.I)
TARGETS_0_255 = re.compile(r"(?:array|tensor)\(\[\s*0\.?\s*,\s*255\.?\s*\]|\[\s*0\.?\s+255\.?\s*\]|"
                           r"\b0\s*(?:and|or|/)\s*255\b")
TARGET_WORDS = re.compile(r"\b(?:masks?|labels?|targets?|ground[ -]?truth|gt|y)\b", re.I)
# ... not where the paste brings them to 0/1 (divided by 255, thresholded), nor beside a loss written as minus an
# overlap score (wording.MINUS_SCORE), which goes below zero whatever the targets
TARGETS_MADE_BINARY = re.compile(r"/=?\s*255\b|>=?\s*\d+|\bthreshold\w*|\bbinari[sz]\w*", re.I)


def _targets_0_255(prose: str) -> str:
    """The words that print or say binary targets of 0 and 255 beside a binary cross-entropy, or ""."""
    if not BINARY_LOSS.search(prose) or TARGETS_MADE_BINARY.search(prose) or MINUS_SCORE.search(prose):
        return ""
    return next((" ".join(m.group(0).split()) for sentence, _ in sentences_and_ends(prose)
                 if TARGET_WORDS.search(sentence) for m in TARGETS_0_255.finditer(sentence)), "")


# PyTorch's NLL loss takes log-probabilities and returns minus the label's (nn.NLLLoss, F.nll_loss); handed a
# softmax's probabilities it returns minus the label's probability, between -1 and 0, whatever the labels: a negative
# loss that falls towards -1 as the model learns (WR-130's page, its snippet's -0.0960 at epoch 0).
NLL_LOSS = re.compile(r"(?<![\w.])(?:nn\.NLLLoss\(|(?:F\.|functional\.)?nll_loss\()")


def nll_of_probabilities(ev: Evidence) -> str:
    """The fact, when the loss goes below zero, no lower than -1, beside a PyTorch NLL loss and a pasted model that
    outputs a softmax (model_output), else ""."""
    out = model_output(ev.prose) if ev.low is not None and -1.0 <= ev.low < 0 else None
    loss = NLL_LOSS.search(ev.prose) if out is not None and "softmax" in out.group(0).lower() else None
    if loss is None:
        return ""
    return (f"the loss goes below zero, to {fmt(ev.low)}, beside `{loss.group(0).rstrip('(')}` and a model that outputs "
            f"a softmax (`{' '.join(out.group(0).split())}`): the NLL loss takes log-probabilities and returns minus the "
            "label's, so handed probabilities it returns minus the label's probability, between -1 and 0")


def impossible_negative(ev: Evidence, words: list[str]) -> str:
    """Why a loss below zero in this report cannot be normal, or "" when it can (or none is reported)."""
    if nll_of_probabilities(ev):
        return ""               # (below zero with valid labels: the loss was handed what it does not take)
    out_of_range = score_out_of_range(ev.prose)
    if out_of_range:
        return f"an overlap score outside [0, 1] (`{out_of_range}`): the targets are not in [0, 1]"
    negative = negative_shown(ev, words)
    targets = _targets_0_255(ev.prose) if negative else ""
    if targets:
        return (f"the loss goes below zero beside a binary cross-entropy whose targets the paste shows as 0 and 255 "
                f"(`{targets}`): with a target above 1 its -(y log p + (1 - y) log(1 - p)) has no floor")
    if negative and loss_kind(ev.prose) == "bounded":
        return ("the loss goes below zero, and the loss named here (cross-entropy, BCE, 1 - Dice, a squared "
                "error) cannot with valid targets")
    return ""


def negative_shown(ev: Evidence, words: list[str]) -> bool:
    """Do the values, or the words, say the loss went below zero?"""
    return (ev.low is not None and ev.low < 0) or bool(NEGATIVE.asked.search(ev.prose))
# The frameworks a tool implies (a Lightning bar is PyTorch's), and the ones a report's words name.
PARENT = {"lightning": "pytorch", "transformers": "pytorch", "fairseq": "pytorch", "megatron": "pytorch",
          "deepspeed": "pytorch", "apex": "pytorch", "keras": "tensorflow"}
# Named, or shown by code only its API writes: PyTorch's `nn.Linear`, `nn.CrossEntropyLoss()`, `loss.backward()`,
# `optimizer.zero_grad()`, `F.softmax(`, `.masked_fill(`, `.cuda()`, as PyTorch spells them (Flax's `nn.relu`, `nn.Dense`
# and `nn.Module`, TensorFlow's `tf.nn.softmax`, are not PyTorch's); Keras's `layers.Dense(` (not `model.fit(`: scikit-learn's too); JAX's `optax.`.
NAMED_FRAMEWORK = [(re.compile(r"(?i:\b(?:py)?torch\b|\bfastai\b|\blightning\b)|(?<![\w.])nn\.(?:init\.\w+|Parameter|"
                               r"Linear|Conv[123]d|LSTM|GRU|"
                               r"Embedding|BatchNorm[123]d|LayerNorm|Dropout|ReLU|Softmax|LogSoftmax|\w+Loss)\b|"
                               r"\.(?:backward|zero_grad|cuda)\(\)|(?<![\w.])F\.(?:relu|softmax|log_softmax|cross_entropy|"
                               r"mse_loss|nll_loss|binary_cross_entropy\w*)\(|\.masked_fill_?\(|"
                               r"\bclip_grad_(?:norm|value)_\b|\bTensorDataset\b|\.parameters\(\)"), "pytorch"),
                   (re.compile(r"\btensorflow\b|\btf\.|\bkeras\b|\blayers\.Dense\(", re.I), "tensorflow"),
                   (re.compile(r"\bjax\b|\bjnp\.|\bflax\b|\boptax\.", re.I), "jax"),
                   # (and frameworks the catalogue declares no message of: shown, they say NumPy's warnings were never
                   # going to be printed -- Julia's Flux, MXNet, PaddlePaddle)
                   (re.compile(r"(?i:\bjulia\b)|\busing Flux\b|\bFlux(?:\.|\s+v?\d)"), "julia"),
                   (re.compile(r"(?i:\bmxnet\b|\bgluon\b)|\bmx\.(?:nd|np|gluon|init)\b"), "mxnet"),
                   (re.compile(r"(?i:\bpaddle(?:paddle|nlp|detection|seg|speech|ocr)?\b)"), "paddle")]


# A framework named to say it is not used: "no PyTorch or TensorFlow", "without Keras", "instead of torch".
DENIED_BEFORE = re.compile(r"\b(?:no|not|without|never|instead of|rather than)\s+(?:using\s+|use\s+|with\s+)?"
                           r"(?:[\w.]+\s+(?:or|and|nor)\s+)?$", re.I)


def shown_frameworks(ev: Evidence) -> set[str]:
    """The frameworks the report shows: in its messages and its log's format, or named in its words (not named to
    deny it); a framework implies the one it runs on."""
    shown = set(ev.frameworks) | _named_frameworks(ev.prose)
    return shown | {PARENT[f] for f in shown if f in PARENT}


@functools.lru_cache(maxsize=4)
def _named_frameworks(prose: str) -> frozenset[str]:
    # asked once for each entry weighed: 7 ms each time on 32 kB of a log's start
    return frozenset(name for pattern, name in NAMED_FRAMEWORK for m in pattern.finditer(prose)
                     if not DENIED_BEFORE.search(prose, max(0, m.start() - 40), m.start()))
