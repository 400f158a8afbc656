"""Half precision's loss scale: a dynamic scale printed beside the loss that collapsed (step after step overflowed
and was skipped) or rose again (the first skips were its calibration), and Keras's mixed_float16 policy in a loop of
the paste's own that scales no loss at all.
"""
from __future__ import annotations

import itertools
import re

from .curve_shape import fmt
from .sentences import denied_before, sentence_around, told
from . import lazy_regex

# A dynamic loss scale printed beside the loss (`scale 3.2768e+04`, `loss_scale: 128`, `'loss scale': 1.0`) that fell
# to 0, or to SCALE_COLLAPSE of its first value or less: a scaler halves its scale and skips the step each time the
# gradients hold an inf or a nan, so a scale that kept falling skipped step after step -- the half-precision run
# overflows on every step, and its weights never change. A printed fact for the entries whose title names half
# precision. (PyTorch's GradScaler has no floor, fairseq's and DeepSpeed's stop at a minimum: either way.)
# (also one per network, a GAN's `d_scale` and `g_scale`, or a gradient scaler's `grad_scale`: not a logit's scale or an
# init's)
SCALE_PRINTED = lazy_regex.compile(r"(?i)(?<![\w.])(?:(?:d|g|disc|gen|grad|amp)_)?(?:loss[ _])?scale['\"]?[ \t]*(?:[:=|][ \t]*)?(\d+(?:\.\d*)?(?:e[-+]?\d+)?)(?![\w.])")
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


# Keras's mixed_float16 policy in a loop of the paste's own (tf.GradientTape) that wraps no optimizer in a
# LossScaleOptimizer: compile() adds the loss scale (its auto_scale_loss), a custom loop does not (WR-040's Keras part)
MIXED_FLOAT16_SET = lazy_regex.compile(r"(?:set_global_policy|set_dtype_policy|Policy)\(\s*['\"]mixed_float16['\"]")
# ... or in words: "I set the mixed_float16 policy so that bigger tiles fit" -- told, not a question, a plan or a thought
# ("would using the mixed_float16 policy help?", "I thought about using mixed_float16")
MIXED_FLOAT16_SAID = lazy_regex.compile(r"(?i)\b(?:set|use|used|using|enabled?|turned on|switched on|with)\s+(?:the\s+)?[`'\"]?"
                                        r"mixed_float16\b[`'\"]?(?:\s+(?:policy|precision))?")
POLICY_NOT_DONE = lazy_regex.compile(r"(?i)\b(?:thought|think|thinking|consider\w*|would|could|should|might|may|plan\w*|want\w*|will|"
                      r"whether|if|maybe|perhaps|about)\b[^.;\n]{0,40}$")
CUSTOM_LOOP = lazy_regex.compile(r"\bGradientTape\b")
# ... or a GAN's overridden train_step ("the Keras DCGAN example, the one that overrides train_step"): compile() takes
# one optimizer and a GAN steps two of its own (keras.io's DCGAN passes d_optimizer and g_optimizer to its own compile,
# which calls super().compile() with none: examples/generative/dcgan_overriding_train_step.py in keras-team/keras-io at
# 0d5f327), so neither is wrapped
GAN_TRAIN_STEP = lazy_regex.compile(r"(?i)\b(?:overrid\w*|custom|own)\s+(?:the\s+|a\s+)?`?train_step\b")
GAN_NAMED = lazy_regex.compile(r"(?i)\b(?:d_optimizer|g_optimizer|dcgan|wgan\w*|gans?|discriminator)\b")
LOSS_SCALED = lazy_regex.compile(r"\bLossScaleOptimizer\b|\bget_scaled_loss\b|\bscale_loss\b")
# (the optimizer compile() wrapped: stepped by fit(), or by a loop that steps the model's own)
FIT_STEPS = lazy_regex.compile(r"\.fit\(|\b(?:self|model)\.optimizer\.(?:apply_gradients|apply)\(")


def keras_loop_unscaled(prose: str) -> str:
    """The policy's words, when the paste sets mixed_float16 and trains in a GradientTape loop with no loss scale; or ""."""
    loop = CUSTOM_LOOP.search(prose) or (GAN_TRAIN_STEP.search(prose) if GAN_NAMED.search(prose) else None)
    if loop is None or LOSS_SCALED.search(prose) or FIT_STEPS.search(prose) or denied_before(prose, loop.start(), reach=80) \
            or POLICY_NOT_DONE.search(prose, max(0, loop.start() - 40), loop.start()):
        return ""
    # (the code's call, not denied before it; or the words' -- a match on the told text, whose plans and denials
    # _policy_said has judged there: its offsets are not the prose's)
    code = MIXED_FLOAT16_SET.search(prose)
    if code and not denied_before(prose, code.start(), reach=40):
        return code.group(0)
    said = _policy_said(prose)
    return said.group(0) if said else ""


def _policy_said(prose: str) -> re.Match | None:
    """The words that tell the mixed_float16 policy was set (MIXED_FLOAT16_SAID, not POLICY_NOT_DONE or a denial before
    it, judged on the told text whose offsets the match holds); or None."""
    text = told(prose)
    return next((m for m in itertools.islice(MIXED_FLOAT16_SAID.finditer(text), 5)
                 if not POLICY_NOT_DONE.search(text, max(0, m.start() - 40), m.start())
                 and not denied_before(text, m.start(), reach=40)), None)


# PyTorch's autocast to float16 in the paste's code, with no GradScaler: the backward pass of each op that ran in float16
# gives float16 gradients, and those under 2^-25 (about 3e-08) round to 0 with nothing printed (WR-040's PyTorch part). Named with
# its dtype, or torch.cuda.amp.autocast() / autocast("cuda") with none (float16 is CUDA's default; a CPU autocast's is
# bfloat16, which needs no scaler).
AUTOCAST_HALF = lazy_regex.compile(r"\bautocast\((?:(?!\))[^\n]){0,80}?(?:\bdtype\s*=\s*|,\s*)torch\.(?:float16|half)\b|"
                                   r"\bcuda\.amp\.autocast\((?![^)\n]{0,80}?\bdtype\s*=)|"
                                   r"\bautocast\(\s*(?:device_type\s*=\s*)?['\"]cuda['\"]\s*\)")
# ... or a bare autocast() after an import of it from torch.cuda.amp, whose default is float16 (found once, then the call)
CUDA_AMP_IMPORT = lazy_regex.compile(r"\bfrom torch\.cuda\.amp import\b[^\n]{0,200}?\bautocast\b")
BARE_AUTOCAST = lazy_regex.compile(r"(?<![\w.])autocast\(\s*\)")
# (AMP switched off in the call, or by a flag: not float16 then, or not always)
AUTOCAST_OFF = lazy_regex.compile(r"\benabled\s*=\s*(?!True\b)")
BACKWARD_CALLED = lazy_regex.compile(r"\.backward\(")
# (a loss scaler, or a precision that needs none: bfloat16 in the code -- not scikit-learn's scaler.fit_transform)
TORCH_SCALED = lazy_regex.compile(r"(?i)\bgradscaler\b|\bscaler\.scale\(|\bscale_loss\b|\bloss_scale\w*|torch\.bfloat16\b|"
                                  r"\bbf16\s*=\s*true\b|['\"]bf16")


def torch_autocast_unscaled(prose: str) -> str:
    """The autocast call, when the paste runs PyTorch's autocast to float16 and calls backward() with no GradScaler;
    or ""."""
    cast = AUTOCAST_HALF.search(prose)
    if cast is None and (imported := CUDA_AMP_IMPORT.search(prose)):
        cast = BARE_AUTOCAST.search(prose, imported.end())
    if cast is None or not BACKWARD_CALLED.search(prose) or TORCH_SCALED.search(prose) \
            or denied_before(prose, cast.start(), reach=40):
        return ""
    whole = call_closed(prose, cast)
    return "" if AUTOCAST_OFF.search(whole) else " ".join(whole.split())


def call_closed(text: str, m: re.Match) -> str:
    """The match, shown to its call's closing bracket where it opens one and stops short of it (over lines, if the call
    wraps): `torch.autocast("cuda", dtype=torch.float16` is shown with its `)`."""
    said = m.group(0)
    if said.count("(") <= said.count(")"):
        return said
    closing = re.match(r"[^()]{0,200}\)", text[m.end():m.end() + 201])
    return said + (closing.group(0) if closing else "")


# ... or said in words, with no code to read: "the model and the criterion run inside torch.autocast in float16",
# "fp16 autocast", "torch.cuda.amp.autocast()" (float16 by default on CUDA) -- in a report that names no scaler of any
# kind (a GradScaler, "the scaler", a loss scale) unless to deny it ("no GradScaler" is the fact itself), nor bfloat16,
# which needs none, nor a tool that scales on its own (the Hugging Face Trainer's fp16=True, Lightning's "16-mixed",
# Accelerate's mixed_precision, DeepSpeed, Keras's mixed_float16 policy, whose compile() wraps the optimizer). Said of
# the reporter's run: not in a question, nor after "without" or "no", nor taken out ("I removed torch.autocast"), nor
# another run's ("the original repo uses autocast").
AUTOCAST_SAID = lazy_regex.compile(r"(?i)\b(?:torch\.)?autocast\b(?:[^.;\n]|\.(?=\w)){0,60}?\b(?:float16|fp16|half(?=[\s-]+precision)|(?<!in )(?<!by )half)\b(?!\s+(?:the|an?)\b)|"
                                   r"\b(?:float16|fp16)\s+autocast\b|\bcuda\.amp\.autocast\(\s*\)|\bamp\s+autocast\b")
SCALER_NAMED = lazy_regex.compile(r"(?i)\b(?:grad)?scaler\b|\bloss[ _-]?scal\w*|\bscale_loss\b")
# (the Trainer of a library, not one of the reporter's own: "my own Trainer class", `class Trainer:`)
HALF_UNNEEDED = lazy_regex.compile(r"(?i)\bbf16\b|\bbfloat16\b|(?<!own )(?<!custom )(?<!class )(?<!my )(?<!simple )\btrainer\b|\blightning\b|\baccelerate\b|\bmixed_precision\b|"
                                   r"\bprecision\s*=|\bfp16\s*=\s*true\b|\bmixed_float16\b|\bkeras\b|\bdeepspeed\b")
AUTOCAST_UNDONE = lazy_regex.compile(r"(?i)\b(?:removed|remove|took\s+out|take\s+out|dropped|disabled|turned\s+off|switched\s+off|"
                                     r"original|paper|repo|reference|tutorial)\b|\bis\s+off\b|enabled\s*=\s*false")


def _scaler_denied(text: str) -> bool:
    """Is every scaler the (lowercased) text names denied just before it ("no GradScaler", "I don't use a scaler")?"""
    return all(denied_before(text, m.start(), reach=25) for m in itertools.islice(SCALER_NAMED.finditer(text), 20))


def autocast_unscaled_said(prose: str) -> str:
    """The words that say the run computes under PyTorch's autocast to float16, in a report that names no loss scaler
    but to deny it, nor a precision or a tool that needs none (AUTOCAST_SAID, SCALER_NAMED, HALF_UNNEEDED); or ""."""
    text = told(prose)
    if HALF_UNNEEDED.search(prose) or not _scaler_denied(text):
        return ""
    for m in itertools.islice(AUTOCAST_SAID.finditer(text), 10):
        begin, end = sentence_around(text, m.start(), m.end(), stops=".;\n?")
        if denied_before(text, m.start(), reach=40) or text[end:end + 1] == "?" or AUTOCAST_UNDONE.search(text, begin, end):
            continue
        return " ".join(call_closed(text, m).split())
    return ""
