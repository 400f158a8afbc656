"""Gradient clips the pasted code does that no update uses: called after the optimizer's step, clipped into a name
that is never applied, called for a result nobody keeps, or handed a generator something has already used up.

Each reading gives what the paste shows (a fact for the evidence) and the fix for that form; WR-240 explains them.
"""
from __future__ import annotations

import functools
import itertools
import re
from .brackets import arguments
from . import lazy_regex
from .sentences import told

# A pasted loop that clips the gradients after the optimizer's step (backward(), step(), then clip_grad_norm_ with no
# backward() between) never clips an update: the step used the gradients unclipped, and the next zero_grad() clears
# the clipped ones. A climb beside it is a climb despite clipping. (A scheduler's step is not the update: backward,
# clip, step, scheduler.step is the right order.)
CLIP_AFTER_STEP = lazy_regex.compile(r"\.backward\([^\n]*\n(?:[^\n]*\n){0,8}?[^\n]{0,200}?(?<!scheduler)(?<!sched)\.step\("
                                     r"[^\n]*\n(?:(?![^\n]{0,200}?\.backward\()[^\n]*\n){0,4}?[^\n]{0,200}?"
                                     r"(?P<clip>clip_grad_(?:norm|value)_?)\(")



# The report says clipping made no difference: "clipping doesn't prevent the spikes", "with clipping removed it looks
# exactly the same" -- the run it asks about went wrong for clipping's sake, whatever its curve shows
CLIP_NO_EFFECT_SAID = lazy_regex.compile(r"(?i)\bclip\w*\b[^.?!\n]{0,60}?\b(?:does(?:n't| not)|did(?:n't| not)|has no|had no|makes? no|"
                                         r"made no|never)\s+(?:\w+\s+){0,2}?(?:prevent|stop|help|effect|difference|change|work)\w*|"
                                         r"\b(?:without|no)\s+(?:the\s+)?clip\w*[^.?!\n]{0,80}?\b(?:same|identical)\b|"
                                         r"\bclip\w*\s+(?:\w+\s+){0,3}?(?:removed|disabled|switched off|turned off)\b[^.?!\n]{0,80}?"
                                         r"\b(?:same|identical)\b")


# Not a clip to infinity, which only measures the norm (`clip_grad_norm_(ps, float("inf"))`), nor one on a line of
# its own comment; and the step before it is an optimizer's (its object named for one, or a GradScaler's), on the
# same block's indentation -- not an EMA's or a scheduler's, nor the end of one loop before the clip that starts the
# next
MEASURES_ONLY = lazy_regex.compile(r"(?i)clip_grad_(?:norm|value)_?\([^\n]*?\b(?:float\(\s*['\"]inf['\"]\s*\)|(?:math|np|torch)\.inf)")
OPTIMIZER_STEPPED = lazy_regex.compile(r"(?i)\b(?:\w*opt\w*|scaler|trainer|accelerator)\.step\(")


def late_clip(prose: str) -> tuple[str, str] | None:
    """Where the pasted loop clips after the optimizer's step (CLIP_AFTER_STEP): what that says, and the fix."""
    late = next((m for m in itertools.islice(CLIP_AFTER_STEP.finditer(prose), 10) if _clips_late(prose, m)), None)
    if not late:
        return None
    # (zero_grad() each step then clears what was clipped before the next backward(), or, called before the clip,
    # leaves it nothing to clip; without it the clipped gradients carry into the next step)
    cleared = (", and zero_grad() cleared the clipped ones (or, called before the clip, left it nothing to clip) before "
               "the next backward()") if "zero_grad" in prose else ""
    clip = late.group("clip")
    return (f"gradient clipping never shortened an update: the pasted loop clips after the optimizer's step() "
            f"(`{clip}...`), so each update used the gradients unclipped{cleared} (the clip belongs between "
            "backward() and step())",
            f"Move the `{clip}()` call between backward() and step() (with gradient accumulation, after the last "
            "backward() before step(); with a GradScaler, after scaler.unscale_(optimizer)), so that step() uses the "
            "clipped gradients; then check, as the entry's fix says, how many steps it clips.")


# ... or one whose result the update never uses: TensorFlow's clips return new tensors (`clipped, norm =
# tf.clip_by_global_norm(grads, 1.0)`), and a loop that then applies `grads` applies the unclipped ones
CLIP_RETURNED = lazy_regex.compile(r"(?m)^[ \t]*(?P<out>[A-Za-z_]\w*)(?:[ \t]*,[ \t]*[A-Za-z_]\w*)?[ \t]*=[ \t]*"
                                   r"(?:tf\.clip_by_global_norm\([ \t]*(?P<src>[A-Za-z_]\w*)|"
                                   r"\[[ \t]*tf\.clip_by_(?:norm|value)\([^\n\]]*\bfor[ \t]+\w+[ \t]+in[ \t]+(?P<each>[A-Za-z_]\w*))")
# (an optimizer the code builds with a clip of its own: an assignment, not a sentence about an earlier run)
OPTIMIZER_CLIPS = lazy_regex.compile(r"(?m)^[ \t]*[\w.]+[ \t]*=[ \t]*[\w.]*\([^\n]*\b(?:global_clipnorm|clipnorm|clipvalue)\s*=\s*\d")
APPLIED = r"apply_gradients\(\s*(?:grads_and_vars\s*=\s*)?(?:list\()?zip\(\s*%s\b"


def unused_clip(prose: str) -> tuple[str, str] | None:
    """Where the pasted code clips into a new name and applies the unclipped gradients (CLIP_RETURNED): what that says,
    and the fix."""
    if OPTIMIZER_CLIPS.search(prose):
        return None                    # (the optimizer clips itself: a clip by hand beside it only measures the norm)
    for m in itertools.islice(CLIP_RETURNED.finditer(prose), 10):
        src, out = m.group("src") or m.group("each"), m.group("out")
        if out.startswith("_"):
            continue                   # (a name thrown away on purpose: the clip was called for its norm)
        rest = prose[m.end():]
        # (used in a later line of code -- indented, or an assignment or a call -- not in the report's words: "the
        # clipped run")
        code = "\n".join(x for x in rest.split("\n")[1:] if x[:1] in " \t" or "=" in x or "(" in x)
        if src != out and re.search(APPLIED % re.escape(src), rest) and not re.search(rf"\b{re.escape(out)}\b", code):
            line = " ".join(m.group(0).split())
            return (f"gradient clipping never shortened an update: the pasted code clips into `{out}` (`{line}...`) and "
                    f"applies `{src}`, the gradients as they were, and `{out}` is used nowhere after",
                    f"Apply the clipped gradients: `apply_gradients(zip({out}, ...))`; then check, as the entry's fix "
                    "says, how many steps it clips.")
    return None





def _clips_late(prose: str, m: re.Match) -> bool:
    lines = prose[m.start():m.end()].split("\n")
    clip_line = lines[-1] if lines else ""
    full_clip = prose[m.start() + len(prose[m.start():m.end()]) - len(clip_line):].split("\n", 1)[0]
    # (the optimizer's own step, not a scheduler's before it nor one in a comment; the clip on its block or under an
    # `if` of it, with no line between that leaves the block)
    steps = [k for k, x in enumerate(lines[1:-1], 1) if OPTIMIZER_STEPPED.search(x) and not x.lstrip().startswith("#")]
    if not steps or clip_line.lstrip().startswith("#") or MEASURES_ONLY.search(full_clip):
        return False
    step_line = lines[steps[0]]
    indent = len(step_line) - len(step_line.lstrip())
    return len(clip_line) - len(clip_line.lstrip()) >= indent and all(
        len(x) - len(x.lstrip()) >= indent for x in lines[steps[0] + 1:-1] if x.strip())


# ... or one whose result nobody keeps: TensorFlow's clips change no tensor in place, so a clip called as a statement
# of its own (`tf.clip_by_global_norm(grads, 1.0)` with nothing before it on its line, the whole line one balanced call
# on gradients) leaves the gradients as they were -- not a line that continues a call above it, nor a clip of a
# prediction (`tf.clip_by_value(y_pred, 1e-7, 1 - 1e-7)`)
CLIP_DISCARDED = lazy_regex.compile(r"(?m)^[ \t]*(?P<call>tf\.clip_by_(?:global_norm|norm|value)\([ \t]*(?:\w*grad\w*|g)\b"
                                    r"(?:[^()\n]|\([^()\n]*\))*\))[ \t]*(?:#[^\n]*)?$")
CONTINUES = lazy_regex.compile(r"[(\[,\\][ \t]*(?:#[^\n]*)?$")


def discarded_clip(prose: str) -> tuple[str, str] | None:
    """Where the pasted code calls a TensorFlow clip and keeps nothing it returns (CLIP_DISCARDED): what that says,
    and the fix."""
    if OPTIMIZER_CLIPS.search(prose):
        return None                    # (the optimizer clips itself)
    m = next((m for m in itertools.islice(CLIP_DISCARDED.finditer(prose), 10)
              if not CONTINUES.search(prose[:m.start()].rstrip("\n").rsplit("\n", 1)[-1])), None)
    if m is None:
        return None
    call = " ".join(m.group("call").split())
    return (f"gradient clipping never shortened an update: the pasted code calls `{call}` as a statement of its own "
            "and keeps nothing it returns; TensorFlow's clips return new tensors and change none in place, so the "
            "update applies the gradients unclipped",
            "Keep what the clip returns and apply that: `grads, _ = tf.clip_by_global_norm(grads, threshold)`, then "
            "`apply_gradients(zip(grads, ...))`; then check, as the entry's fix says, how many steps it clips.")


# ... or one handed nothing: model.parameters() returns a generator, which the optimizer's constructor lists
# (torch/optim/optimizer.py at v2.13.0: `param_groups = list(params)`), so a clip_grad_norm_ given the same name
# afterwards finds no tensors, clips nothing and returns a norm of 0 (at v2.13.0 it also warns that the generator is
# empty). The name bound to the generator itself (not to a list of it), given to an optimizer's constructor, then to
# the clip, and not bound again between. (Or any iterator of them, as once-only: itertools.chain of several modules'
# parameters, over as many lines as it takes, or a generator expression over them.)
PARAMETERS_BOUND = lazy_regex.compile(r"(?m)^[ \t]*(?P<name>[A-Za-z_]\w*)[ \t]*=[ \t]*(?:[\w.]+\.parameters\(\)|"
                                      r"filter\([^\n]*\.parameters\(\)\)|"
                                      r"(?:itertools\.)?chain\((?:[^()]|\((?:[^()]|\(\))*\)){0,600}?\.parameters\(\)"
                                      r"(?:[^()]|\((?:[^()]|\(\))*\)){0,600}?\)|"
                                      r"\([ \t]*\w+[ \t]+for[ \t]+\w+[ \t]+in[ \t]+[\w.]+\.parameters\(\)[^()\n]{0,80}\))"
                                      r"[ \t]*(?:#[^\n]*)?$")
# (a name set to that iterator as it is, `self.params = params`: the same once-only iterator under another name)
ALIAS_OF = r"(?m)^[ \t]*(?P<alias>(?:self\.)?[A-Za-z_]\w*)[ \t]*=[ \t]*%s[ \t]*(?:#[^\n]*)?$"
OPTIMIZER_BUILT = r"\b(?:optim\.)?[A-Z]\w*\(\s*(?:params\s*=\s*)?%s\b"
NORM_CLIPPED = r"\bclip_grad_norm_\(\s*(?:parameters\s*=\s*)?%s\b"


def spent_clip(prose: str) -> tuple[str, str] | None:
    """Where the pasted code gives clip_grad_norm_ the generator of parameters its optimizer already used up: what
    that says, and the fix."""
    for bound in itertools.islice(PARAMETERS_BOUND.finditer(prose), 5):
        rest = prose[bound.end():]
        aliases = [a.group("alias")
                   for a in itertools.islice(re.finditer(ALIAS_OF % re.escape(bound.group("name")), rest), 3)]
        names = "(?:" + "|".join(re.escape(n) for n in [bound.group("name"), *aliases]) + ")"
        built = re.search(OPTIMIZER_BUILT % ("(?P<given>" + names + ")"), rest)
        # (a clip on a line of code, not a comment's; with the name not bound again between, nor a function's parameter)
        clipped = next((c for c in re.finditer(NORM_CLIPPED % ("(?P<clipped>" + names + ")"), rest[built.end():])
                        if not rest[built.end():][:c.start()].rsplit("\n", 1)[-1].lstrip().startswith("#")),
                       None) if built else None
        if clipped is None:
            continue
        between = rest[:built.end() + clipped.start()]
        name = re.escape(bound.group("name"))
        # (the name, or the alias the clip is given, bound to something else between: not the aliasing itself; nor an
        # alias the optimizer is built with that was bound to something else before it -- it never used the iterator)
        not_the_aliasing = rf"(?![ \t]*{name}[ \t]*(?:#[^\n]*)?$)"
        rebound = rf"(?m)^[ \t]*(?:{name}|{re.escape(clipped.group('clipped'))})[ \t]*={not_the_aliasing}"
        given_to = built.group("given")
        optimizer_rebound = given_to != bound.group("name") and re.search(
            rf"(?m)^[ \t]*{re.escape(given_to)}[ \t]*={not_the_aliasing}", rest[:built.start()])
        if re.search(rebound, between) or optimizer_rebound or re.search(rf"\bdef\s+\w+\([^)]*\b{name}\b", between):
            continue
        given = " ".join(bound.group(0).split())
        expression = given.split("=", 1)[1].strip()
        # (a long binding is cut after its call's first argument, where it has more: never inside a bracket)
        call = re.match(r"[\w.]+\(", expression) if len(given) > 120 else None
        args = call and arguments(expression, call.end() - 1, reach=2000)
        cut = f"{call.group(0)}{args[0].strip()}, ...)" if args and len(args) > 1 else ""
        shown = f"{bound.group('name')} = {cut}" if cut else given
        again = f"`clip_grad_norm_({expression}, max_norm)`" if not cut else "the same expression, made again"
        return (f"gradient clipping never shortened an update: `{shown}` can be iterated only once, the optimizer's "
                f"constructor used it up, and `clip_grad_norm_({clipped.group('clipped')}, ...)` finds no tensors: it "
                "clips nothing and returns a norm of 0",
                f"Give the clip the parameters themselves: {again}, or bind a list once "
                f"(`{bound.group('name')} = list({cut or expression})`) for the optimizer and the clip; then check, as the "
                "entry's fix says, how many steps it clips.")
    return None


# ... or one called before backward(), in the code (a line that is the clip's call, with backward() below it and no
# step between them, then the step) or in the words ("I call clip_grad_norm_(...) before loss.backward()", told, not
# asked nor denied, and not one moved away from there): it clips the gradients that are there before this step's are
# computed -- zeros after zero_grad(), or the last step's, which backward() then adds to
_CLIP_CALL = r"(?P<clip>clip_grad_(?:norm|value)_?)\((?:[^()\n]|\([^()\n]{0,40}\)){0,120}\)"
CLIP_CODE_BEFORE_BACKWARD = lazy_regex.compile(
    r"(?m)^[ \t]*(?:[A-Za-z_]\w*[ \t]*=[ \t]*)?(?:[A-Za-z_]\w*\.){0,4}" + _CLIP_CALL + r"[ \t]*(?:#[^\n]*)?\n"
    r"(?:(?![^\n]*(?:clip_grad|\.step\())[^\n]*\n){0,6}?[^\n]*\.backward\("
    r"(?:(?![^\n]*clip_grad)[^\n]*\n){0,6}?[^\n]*\.step\(")
CLIP_SAID_BEFORE_BACKWARD = lazy_regex.compile(
    _CLIP_CALL + r"[ \t]*(?:,[ \t]*)?(?:before|prior to)[ \t]+(?:calling[ \t]+|the[ \t]+|my[ \t]+)?(?:[\w.]+\.)?backward\b")
# (what says the clip is not, or no longer, there: "I do not call ...", "I used to call ...", "instead of")
_CLIP_NOT_THERE = lazy_regex.compile(r"(?i)\b(?:not|n't|never|used to|instead of|rather than|should i|moved)\b[^.\n]{0,60}$")


def early_clip(prose: str) -> tuple[str, str] | None:
    """Where the paste clips before backward() (CLIP_CODE_BEFORE_BACKWARD, CLIP_SAID_BEFORE_BACKWARD): what that says,
    and the fix."""
    # (MEASURES_ONLY read from the clip's own call: a clip to infinity only measures the norm)
    m = next((m for m in itertools.islice(CLIP_CODE_BEFORE_BACKWARD.finditer(prose), 10)
              if not MEASURES_ONLY.match(prose, m.start("clip"))), None)
    if m is None:
        text = told(prose)
        m = next((m for m in itertools.islice(CLIP_SAID_BEFORE_BACKWARD.finditer(text), 10)
                  if not _CLIP_NOT_THERE.search(text, max(0, m.start() - 60), m.start())
                  and not MEASURES_ONLY.match(text, m.start("clip"))), None)
    if m is None:
        return None
    clip = m.group("clip")
    return (f"gradient clipping never shortened an update: the paste clips before backward() (`{clip}...`), which "
            "then computes this step's gradients afresh after zero_grad(), or adds them to the clipped ones without it, "
            "so step() uses gradients the clip never saw (the clip belongs between backward() and step())",
            f"Move the `{clip}()` call between backward() and step() (with a GradScaler, after "
            "scaler.unscale_(optimizer)), so that step() uses the clipped gradients; then check, as the entry's fix "
            "says, how many steps it clips.")


# ... or one called inside a LightningModule's training_step under automatic optimization: Lightning's closure runs
# training_step, then zero_grad, then backward(), then the optimizer's step, so a clip there meets the previous step's
# gradients, already applied and about to be zeroed, and step() uses this step's unclipped ones. Lightning clips through the Trainer's
# gradient_clip_val (or configure_gradient_clipping); not under manual optimization, whose own manual_backward() and
# step the clip can sit between.
TRAINING_STEP = lazy_regex.compile(r"(?m)^(?P<ind>[ \t]*)def training_step\(")
MANUAL_OPTIMIZATION = lazy_regex.compile(r"\bautomatic_optimization\s*=\s*False\b|\bmanual_backward\(")


def training_step_clip(prose: str) -> tuple[str, str] | None:
    """Where a LightningModule's training_step clips the gradients under automatic optimization: what that says, and
    the fix."""
    if MANUAL_OPTIMIZATION.search(prose):
        return None
    for step in itertools.islice(TRAINING_STEP.finditer(prose), 3):
        # (the def inside a class built on LightningModule: not a Hugging Face Trainer's training_step override, which
        # calls backward itself)
        classes = list(re.finditer(r"(?m)^([ \t]*)class\s+\w+\s*\(([^)\n]*)\)\s*:", prose[:step.start()]))
        owner = next((c for c in reversed(classes) if len(c.group(1)) < len(step.group("ind"))), None)
        if owner is None or "LightningModule" not in owner.group(2):
            continue
        end = re.compile(r"(?m)^[ \t]{0,%d}(?:def|class)\b" % len(step.group("ind"))).search(prose, step.end())
        block = prose[step.end():end.start() if end else len(prose)]
        if (clip := re.search(_CLIP_CALL, block)) and not MEASURES_ONLY.match(block, clip.start("clip")) \
                and ".backward(" not in block[:clip.start()]:
            name = clip.group("clip")
            return (f"gradient clipping never shortened an update: the pasted LightningModule clips in training_step "
                    f"(`{name}...`), and Lightning calls backward() only after training_step returns the loss, then "
                    "step(): the clip meets the gradients before this step's are computed, and step() uses the "
                    "unclipped ones",
                    f"Take the `{name}()` call out of training_step and let Lightning clip between backward() and "
                    "step(): `Trainer(gradient_clip_val=1.0)` (norm clipping by default), or your own clip in "
                    "configure_gradient_clipping; then check, as the entry's fix says, how many steps it clips.")
    return None


@functools.lru_cache(maxsize=4)      # (asked by the curve's reading, the paste's facts and the answer's fix)
def clip_never_applied(prose: str) -> tuple[str, str] | None:
    """A clip the pasted code does that no update uses: after the optimizer's step, before backward() (in the code, in
    the words, or in a LightningModule's training_step), into a name never applied, for a result nobody keeps, or over a
    used-up generator."""
    return late_clip(prose) or early_clip(prose) or training_step_clip(prose) or unused_clip(prose) \
        or discarded_clip(prose) or spent_clip(prose)
