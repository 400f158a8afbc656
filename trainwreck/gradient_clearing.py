"""Gradients cleared, or summed on purpose or by accident: a loop that calls backward() and step() and clears them
nowhere (or only before its inner loop, or names zero_grad without calling it), gradients accumulated over
micro-batches with no loss divided by their count, a running loss printed as a sum, and the trainers that clear them
for the user.

Each backward() adds to what the gradients hold: how the paste clears them decides whether a step takes one batch's
gradient or the sum of many.
"""
from __future__ import annotations

import functools
import itertools
import re

from .brackets import arguments
from .breaking_constructs import code_of, line_from
from .code_blocks import indent
from .logscan import Evidence, dialects
from .run_kind import named_frameworks
from . import lazy_regex

# The entries whose phrases say the gradients were never cleared (`optimizer.zero_grad()` forgotten): a log printed
# by a tool whose trainer clears them each step (Dialect.clears_gradients) counts as much as a declared message
# against them.
UNCLEARED_WORDS = {"zero", "grad", "optimizer"}
# ... and a pasted PyTorch loop that calls backward() and then step() within a few lines and clears the gradients
# nowhere in the paste (no zero_grad, no `.grad = None`, no `.zero_()`), beside a run that went wrong: half a printed
# fact for them (a paste may leave out the line that clears them: a fact, not a verdict).
# (on one line too, as a loop quoted in a sentence is: `loss.backward(); opt.step()`; and Lightning's manual
# optimisation, `self.manual_backward(loss)`, which leaves the clearing to the user's own opt.zero_grad())
# (and Hugging Face Accelerate's `accelerator.backward(loss)`, which scales the loss and calls its backward(): it clears
# nothing either)
BACKWARD_STEP = lazy_regex.compile(r"(?:\.backward\(\)|\bmanual_backward\([^()\n]{0,80}\)|"
                                   r"\baccelerator\.backward\([^()\n]{0,80}(?:\([^()\n]{0,40}\)[^()\n]{0,40})?\))"
                                   # (on its line, after a semicolon: a sentence that says where a call goes, "right
                                   # after loss.backward(), before optimizer.step()", is no loop)
                                   r"(?:[ \t]*;[^\n]{0,200}?\.step\(\)|[^\n]*\n(?:[^\n]*\n){0,6}?[^\n]*(?:\.step\(\)|"
                                   # (or an update written by hand from each parameter's .grad: `p.data -= lr * p.grad`,
                                   # `w.sub_(lr * w.grad)`, as micrograd-style engines and from-scratch loops do)
                                   r"(?:-=|\.sub_\(|\.add_\()[^\n]{0,120}?\.grad\b))")
GRAD_REQ_ADD = lazy_regex.compile(r"\bgrad_req\s*=\s*['\"]add['\"]")
CLEARED = lazy_regex.compile(r"zero_grad|\.grad\s*=\s*None|\.zero_\(\)|set_to_none|clear_grad|cleargrads|"
                             # (by hand: `p.grad = 0.0`, `p.grad.data = torch.zeros_like(...)`, `p.grad.fill_(0)`, `p.grad *= 0`,
                             # `p.grad[:] = 0`, MXNet's `p.grad()[:] = 0`)
                             r"\.grad(?:\(\))?(?:\.data)?\s*=\s*(?:0(?:\.0+)?(?![\d.])|(?:torch|np|jnp|nd|mx\.nd)\.zeros)|"
                             r"\.grad(?:\.data)?\.fill_\(\s*0(?:\.0+)?\s*\)|\.grad(?:\.data)?\s*\*=\s*0(?:\.0+)?(?![\d.])|"
                             r"\.grad(?:\(\))?(?:\.data)?\[\s*(?::|\.\.\.)\s*\]\s*=\s*0(?:\.0+)?(?![\d.])")
# ... and a statement that names the method without calling it (`optimizer.zero_grad`, no brackets) evaluates the
# bound method and throws it away: it clears nothing (a sentence that names zero_grad still says it is called)
UNCALLED = lazy_regex.compile(r"(?m)^[ \t]*(?:self\.)?\w+(?:\.\w+)*\.zero_grad[ \t]*(?:#[^\n]*)?$")


def clears(code: str) -> bool:
    """Does the paste clear the gradients anywhere (CLEARED), leaving out a zero_grad named and never called?"""
    return bool(CLEARED.search(UNCALLED.sub("", code) if "zero_grad" in code else code))


# ... or a loop that steps two optimizers and clears one of them, never the other (a GAN's or a domain-adversarial
# loop's discriminator: `opt_g.zero_grad()`, backward(), `opt_g.step()`, `opt_d.step()`): each backward() adds to what
# the other's parameters hold, and its every step takes the sum of all the gradients so far -- where nothing else in
# the paste clears any (a module's zero_grad(), `.grad = None`)
# (any name's step, then the optimizers among them: a pattern that looked for "opt" inside the name tried every start
# of a long word; not a scheduler's, nor an average's -- an EMA of the weights, SWA, MixMatch's WeightEMA "optimizer",
# whose step() takes no gradient)
STEPPED = lazy_regex.compile(r"(?<![\w.])(?P<opt>(?:self\.)?[A-Za-z_]\w{0,40})\.step\(\)")
NOT_AN_OPTIMIZER = lazy_regex.compile(r"(?i)sched|^lr_|ema|swa|avg|average|polyak")


# A step an optimizer takes (`opt.step()`, `trainer.step(batch_size)`, LBFGS's `optimizer.step(closure)`), not an
# environment's (`env.step(action)`), a scheduler's or an average's
_ANY_STEP = lazy_regex.compile(r"(?<![\w.])(?P<name>(?:self\.)?[A-Za-z_]\w{0,40})\.step\(")
NOT_STEPPING_WEIGHTS = lazy_regex.compile(NOT_AN_OPTIMIZER.pattern + r"|env|^sim|world|game")


def steps_an_optimizer(code: str) -> bool:
    """Does the code call an optimizer's step (see _ANY_STEP)?"""
    return any(not NOT_STEPPING_WEIGHTS.search(m.group("name").removeprefix("self.")) for m in _ANY_STEP.finditer(code))




@functools.lru_cache(maxsize=4)      # (asked by the printed facts, the clearing each step and the faces)
def optimizer_never_cleared(code: str) -> tuple[str, str] | None:
    """(the optimizer stepped and never cleared, one that is) where the paste steps two or more and clears some; or
    None."""
    stepped = list(dict.fromkeys(m.group("opt") for m in itertools.islice(STEPPED.finditer(code), 40)
                                 if "opt" in m.group("opt").lower() and not NOT_AN_OPTIMIZER.search(m.group("opt"))))
    if len(stepped) < 2:
        return None
    cleared = [o for o in stepped if re.search(r"(?<![\w.])" + re.escape(o) + r"\.zero_grad\(", code)]
    left = [o for o in stepped if o not in cleared]
    if not cleared or not left:
        return None
    rest = code
    for o in cleared:
        rest = re.sub(r"(?<![\w.])" + re.escape(o) + r"\.zero_grad\([^()\n]{0,40}\)", "", rest)
    return None if clears(rest) else (left[0], cleared[0])


# ... or a loop that clears the gradients of a module the optimizer does not hold: the paste builds the optimizer it
# steps on a copy of the module (`qat_model = prepare_qat(model)`, whose default inplace=False deep-copies it, as
# `copy.deepcopy(model)` does; torch.ao.quantization's prepare and prepare_qat: `if not inplace: model =
# copy.deepcopy(model)` in torch/ao/quantization/quantize.py), trains the copy and clears only the original's
# (`model.zero_grad()`): the copy's gradients pile up as if nothing cleared them. Not a wrapper that shares the module's
# parameters (DDP, `.to(device)`, Accelerate's prepare), nor a prepare told inplace=True (by name or by place: prepare's
# second argument, prepare_qat's third), nor where an optimizer on the original's parameters is stepped too, the name is
# bound again after the copy (`model = qat_model`), or a function takes the name as a parameter (`def
# train_one_epoch(model, ...)`, called with the copy).
COPIED = lazy_regex.compile(r"(?m)^[ \t]*(?P<copy>[A-Za-z_]\w{0,40})\s*=\s*(?P<call>(?:copy\.)?deepcopy|"
                            r"(?:(?:torch\.)?(?:ao\.)?quantization\.|tq\.)?prepare_qat|"
                            r"(?:(?:torch\.)?(?:ao\.)?quantization\.|tq\.)prepare)"
                            r"(?P<open>\()\s*(?P<orig>[A-Za-z_]\w{0,40})\s*[,)]")


def _stepped_on(code: str, module: str) -> list[tuple[str, str]]:
    """(the optimizer's name, its assignment) of each optimizer the code builds on the module's parameters and steps."""
    built = re.finditer(r"(?m)^[^\n#]*?(?<![\w.])(?P<opt>[A-Za-z_]\w{0,40})\s*=\s*[\w.]{1,60}\(\s*" + re.escape(module)
                        + r"\.parameters\(\)", code)
    return [(b.group("opt"), b.group(0).strip()) for b in itertools.islice(built, 5)
            if re.search(r"(?<![\w.])" + re.escape(b.group("opt")) + r"\.step\(", code)]


@functools.lru_cache(maxsize=4)      # (asked by the printed facts and by the weighing's clearing beside backward())
def copy_cleared(code: str) -> tuple[str, str, str] | None:
    """(the copy's assignment, the stepped optimizer's, the original's zero_grad call) where the paste steps an optimizer
    built on a copy's parameters and clears only the original's gradients; or None."""
    for made in itertools.islice(COPIED.finditer(code), 5):
        copy, orig = made.group("copy"), made.group("orig")
        args = arguments(code, made.start("open"), across_lines=True) or []
        place = 2 if made.group("call").endswith("prepare_qat") else 1 if made.group("call").endswith("prepare") else 0
        in_place = any(re.fullmatch(r"\s*inplace\s*=\s*True\s*", a) for a in args) \
            or (place and len(args) > place and args[place].strip() == "True")
        o = re.escape(orig)
        if copy == orig or in_place or not BACKWARD_STEP.search(code) or _stepped_on(code, orig) \
                or re.search(rf"(?m)^[ \t]*{o}\s*=(?!=)", code[made.end():]) \
                or re.search(rf"\bdef\s+\w+\s*\([^)]*(?<![\w.]){o}\b", code):
            continue
        stepped = _stepped_on(code, copy)
        cleared = re.search(rf"(?<![\w.]){o}\.zero_grad\([^()\n]{{0,40}}\)", code)
        if stepped and cleared and not clears(re.sub(rf"(?<![\w.]){o}\.zero_grad\([^()\n]{{0,40}}\)", "", code)):
            return line_from(code, made.start()), stepped[0][1], cleared.group(0)
    return None


# ... or a loop that clears them once, before an inner loop that calls backward() and step() on every batch and clears
# nothing (`optimizer.zero_grad()` once per epoch): every step in that loop carries the gradients of all the ones before
CLEARED_OUTSIDE = lazy_regex.compile(r"(?m)^(?P<ind>[ \t]{0,40})(?![ \t#])[^\n]{0,200}?(?:zero_grad\(|\.grad\s*=\s*None)[^\n]*\n"
                                     # (the loop's line may end in a comment: `for i, (x, y) in enumerate(loader):  # 938`)
                                     r"(?:(?P=ind)(?![ \t])[^\n]*\n){0,3}?(?P=ind)(?P<loop>for\b[^\n#]{0,200}:)[ \t]*(?:#[^\n]*)?\n"
                                     r"(?P<body>(?:(?P=ind)[ \t]+[^\n]*\n|[ \t]*\n){1,40})")


@functools.lru_cache(maxsize=4)      # (asked by the printed facts, the clearing each step and the faces)
def cleared_outside(prose: str) -> str:
    """The inner loop, quoted, where the gradients are cleared only before it (CLEARED_OUTSIDE), else ''."""
    return _loop_clearing_nothing(CLEARED_OUTSIDE, prose)


def _loop_clearing_nothing(pattern: lazy_regex.LazyPattern, prose: str) -> str:
    """The first loop the pattern finds beside a clearing of its own (before it or after it) whose body calls backward()
    and an optimizer's step and clears nothing; '' where there is none, or where each backward writes the gradients
    afresh (MXNet's default)."""
    if _writes_gradients_anew(prose):
        return ""
    for m in itertools.islice(pattern.finditer(prose if prose.endswith("\n") else prose + "\n"), 20):
        body = m.group("body")
        if ".backward(" in body and steps_an_optimizer(body) and (not clears(body) or _clears_only_others(m, body)):
            return m.group("loop")
    return ""


_ZERO_GRAD_OF = lazy_regex.compile(r"(?<![\w.])(?P<name>(?:self\.)?[A-Za-z_]\w{0,40})\.zero_grad\([^()\n]{0,40}\)")


def _clears_only_others(m: re.Match, body: str) -> bool:
    """Does the loop's body step an optimizer that only the clearing outside it clears, the body clearing only other
    optimizers' gradients (a GAN's loop: `optimizer_G.zero_grad()` once per epoch, `optimizer_D.zero_grad()` on every
    batch)? Every other clearing in the body is an optimizer's the body steps -- a module's zero_grad() may be the very
    one that clears the first's parameters (the DCGAN tutorial's `netG.zero_grad()`)."""
    outside = {z.group("name") for z in _ZERO_GRAD_OF.finditer(m.group(0).replace(body, "", 1))}
    stepped = {s.group("opt") for s in STEPPED.finditer(body)}
    inside = {z.group("name") for z in _ZERO_GRAD_OF.finditer(body)}
    return bool(outside & stepped - inside) and inside <= stepped and not clears(_ZERO_GRAD_OF.sub("", body))


# ... or once after it, at the loop's own indentation (`opt.zero_grad()` at the end of each epoch, below the loop over
# its batches): the same loop, cleared at the other end
CLEARED_AFTER = lazy_regex.compile(r"(?m)^(?P<ind>[ \t]{0,40})(?P<loop>for\b[^\n#]{0,200}:)[ \t]*(?:#[^\n]*)?\n"
                                   # (one way to read each line: an indented one, or a blank one)
                                   r"(?P<body>(?:(?P=ind)[ \t][^\n]*\n|\n){1,40}?)"
                                   r"(?:(?P=ind)(?![ \t#])(?!for\b|while\b|def\b|class\b)[^\n]*\n){0,3}?"
                                   # (a statement that clears: not a sentence that mentions one)
                                   r"(?P=ind)(?:(?:[\w.\[\]]|\(\)){1,80}\.zero_grad\(|[\w.\[\]]{1,80}\.grad\s*=\s*None)")


def _writes_gradients_anew(prose: str) -> bool:
    """MXNet Gluon's default: its parameters overwrite their gradients at each backward, unless the paste asks to add
    (`grad_req='add'`) -- nothing piles up there."""
    return "mxnet" in named_frameworks(prose) and not GRAD_REQ_ADD.search(prose)


@functools.lru_cache(maxsize=4)      # (asked by the printed facts, the clearing each step and the faces)
def cleared_after(prose: str) -> str:
    """The inner loop, quoted, where the gradients are cleared only after it (CLEARED_AFTER), else ''."""
    return _loop_clearing_nothing(CLEARED_AFTER, prose)


# ... or a loop that clears them only under an `if` whose block takes no step (`if step % eval_interval == 0:` ...
# `optimizer.zero_grad()`), while backward() and step() run on every pass: between two such passes every step carries
# the gradients of all the ones since the last (a grad norm that climbs through each window and drops after it). Not a
# clearing under the same `if` as the step, gradient accumulation's own form, nor beside any clearing outside an `if`.
_IF_LINE = lazy_regex.compile(r"[ \t]*(?:el)?if\b[^\n]*:[ \t]*(?:#[^\n]*)?$")
_LOOP_LINE = lazy_regex.compile(r"[ \t]*(?:for|while)\b[^\n]*:[ \t]*(?:#[^\n]*)?$")
CLEARING_LINES = 5000        # (a paste's lines read for its loop: a log before the code, not a whole run's)


def cleared_only_when(prose: str) -> str:
    """The `if` line, as written, under which alone the loop that steps clears the gradients, its block taking no
    step (a clearing before that loop clears once, not on each pass), where the step itself is under no `if` of that
    loop (gradient accumulation steps under one, and may clear at the start of each window); else ''."""
    if not BACKWARD_STEP.search(prose) or "zero_grad" not in prose:
        return ""
    lines = prose.split("\n")[:CLEARING_LINES]
    depth = [indent(line) for line in lines]
    steps = list(itertools.accumulate((".step(" in line for line in lines), initial=0))   # (steps before line k)
    ends: dict[int, int] = {}

    def above(k: int) -> int | None:           # (the nearest line above k indented less: what k is under)
        return next((j for j in range(k - 1, -1, -1) if lines[j].strip() and depth[j] < depth[k]), None)

    def block_end(k: int) -> int:
        if k not in ends:
            ends[k] = next((j for j in range(k + 1, len(lines)) if lines[j].strip() and depth[j] <= depth[k]),
                           len(lines))
        return ends[k]

    step = next((k for k, line in enumerate(lines) if ".step(" in line and not _IF_LINE.match(line)), None)
    loop, under_if = step, False
    while loop is not None and not _LOOP_LINE.match(lines[loop]):
        loop = above(loop)
        # (an accumulation's test, `% k`, or its flag: not an `if use_amp:` whose else steps too)
        under_if = under_if or (loop is not None and bool(_IF_LINE.match(lines[loop]))
                                and bool(re.search(r"%|\baccum\w*|\bsync\b", lines[loop])))
    if loop is None or under_if:
        return ""
    condition = ""
    for m in itertools.islice(CLEARED.finditer(prose), 20):
        at = prose.count("\n", 0, m.start())
        if at >= len(lines) or UNCALLED.match(lines[at]) or not loop < at < block_end(loop):
            continue                                # (named and not called, or outside the loop: not each pass)
        head, under = above(at), ""
        while head is not None and head > loop:
            if _IF_LINE.match(lines[head]) and steps[block_end(head)] == steps[head + 1]:
                under = lines[head].strip()
            head = above(head)
        if not under:
            return ""                               # (cleared on every pass, or under the step's own if)
        condition = condition or under
    return condition


# Gradient accumulation written by hand: the optimizer steps only inside an `if ... % k == 0:` block (the lines between
# indented under it), after a backward() above it. Each backward() adds a micro-batch's gradient, so k of them sum to k
# times the mean unless each loss was divided by k first -- by that count's own name or number (`loss / accum_steps`,
# `loss /= 16`). (Accelerate's accelerator.backward() divides by the count it was given itself.)
# (each run of spaces follows a token it needs: two runs side by side with only an optional bracket between them would
# try every split of a long run)
ACCUMULATES = lazy_regex.compile(r"(?m)^(?P<ind>[ \t]{0,40})if\b[^\n]{0,120}?%[ \t]*(?:\([ \t]*)?(?P<k>[A-Za-z_][\w.]{0,60}|\d{1,5})"
                                 r"[ \t]*(?:\)[ \t]*)?==[ \t]*0\b[^\n]{0,80}:[ \t]*(?:#[^\n]*)?\n(?:(?P=ind)[ \t]+[^\n]*\n){0,4}?"
                                 r"(?P=ind)[ \t]+(?P<step>[^\n]{0,200}?\.step\([^\n]*)")
# ... or under a flag the loop sets from that test first, `sync = (i + 1) % args.accum == 0` and then `if sync:` (as a
# DDP loop does, to skip the all-reduce with `no_sync()` on the other micro-batches)
ACCUMULATES_BY_FLAG = lazy_regex.compile(r"(?m)^[ \t]{0,40}(?P<flag>[A-Za-z_]\w{0,40})[ \t]*=[^=\n][^\n]{0,80}?%[ \t]*(?:\([ \t]*)?"
                                         r"(?P<k>[A-Za-z_][\w.]{0,60}|\d{1,5})[ \t]*(?:\)[ \t]*)?==[ \t]*0\b[^\n]*\n"
                                         r"(?:[^\n]*\n){0,30}?(?P<ind>[ \t]{0,40})if[ \t]+(?P=flag)[ \t]*:[ \t]*(?:#[^\n]*)?\n"
                                         r"(?:(?P=ind)[ \t]+[^\n]*\n){0,4}?(?P=ind)[ \t]+(?P<step>[^\n]{0,200}?\.step\([^\n]*)")
DIVIDES_ITSELF = lazy_regex.compile(r"\baccelerator\.backward\(|\bscale_loss\(")


# A running loss printed as a sum: the loop adds each batch's loss to a name (`running_loss += loss.item()`), prints
# that name every n batches inside an `if i % n == r:` block with no division by n, and sets it back to 0. Each print
# is then the sum of n losses, not their mean (PyTorch's CIFAR-10 tutorial divides: `running_loss / 2000`) -- and with
# r = 0 the first print, after batch 0, holds that one batch alone, so the second comes out about n times the first.
ADDS_LOSS = lazy_regex.compile(r"(?m)^[ \t]{0,40}(?P<acc>[A-Za-z_]\w{0,40})[ \t]*\+=[ \t]*(?P<what>[^\n]{0,80})$")
PRINTS_EVERY = lazy_regex.compile(r"(?m)^(?P<ind>[ \t]{0,40})if\b[^\n]{0,80}?%[ \t]*(?P<n>\d{1,6})[ \t]*==[ \t]*(?P<r>\d{1,6})"
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


@functools.lru_cache(maxsize=4)      # (asked by the facts and by the fix the entry gets)
def accumulated_undivided(prose: str) -> str:
    """The accumulation count, quoted, where a pasted loop sums micro-batch gradients by hand without dividing each
    loss by that count (ACCUMULATES, ACCUMULATES_BY_FLAG); '' where it does not, or divides."""
    if DIVIDES_ITSELF.search(prose):
        return ""
    for m in itertools.chain(itertools.islice(ACCUMULATES.finditer(prose), 20),
                             itertools.islice(ACCUMULATES_BY_FLAG.finditer(prose), 20)):
        if "optimizer" not in m.group("step").lower() and not re.search(r"\b(?:opt\w*|scaler)\.step\(", m.group("step")):
            continue            # (a scheduler's step every k batches is no accumulation)
        # (backward() above the block that steps: above the `if` that tests the flag, not inside it)
        if ".backward(" not in prose[:m.start("ind") if ACCUMULATES_BY_FLAG.made(m) else m.start()]:
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
CLEARED_EACH_STEP = lazy_regex.compile(r"(?m)^(?P<indent>[ \t]{1,40})(?![ \t#])[^\n]{0,200}?(?:zero_grad\(|\.grad\s*=\s*None)[^\n]*\n"
                                       r"(?:[^\n]*\n){0,6}?(?P=indent)(?![ \t])[^\n]{0,200}?\.backward\(|"
                                       r"^(?P<indent2>[ \t]{1,40})(?![ \t])[^\n]{0,200}?\.backward\([^\n]*\n"
                                       r"(?:[^\n]*\n){0,6}?(?P=indent2)(?![ \t#])[^\n]{0,200}?(?:zero_grad\(|\.grad\s*=\s*None)")


def cleared_each_step(prose: str) -> bool:
    """Does the pasted loop clear the gradients beside backward() (CLEARED_EACH_STEP) -- of what its optimizer holds, not
    only of a module it copied them from (copy_cleared)?"""
    # (nor where another optimizer the loop steps is cleared only outside it: the clearing beside backward() is the
    # other's)
    # (nor where another optimizer the paste steps is cleared nowhere, nor where a GAN's discriminator is cleared only
    # before the generator's backward())
    return bool(CLEARED_EACH_STEP.search(prose)) and copy_cleared(code_of(prose)) is None \
        and not cleared_outside(prose) and not cleared_after(prose) \
        and optimizer_never_cleared(code_of(prose)) is None and carried_into_the_discriminator(prose) is None


def trainer_clears(ev: Evidence) -> str:
    """How the tool that printed the log clears the gradients every step, when the paste shows that tool ran the
    steps (its own bar) and no step written by hand; or ""."""
    trainer = dialects.named(ev.dialect)
    if trainer is None or not trainer.clears_gradients or (
            trainer.clears_shown_by is not None and not trainer.clears_shown_by.search(ev.prose)) or (
            trainer.clears_unless is not None and trainer.clears_unless.search(ev.prose)):
        return ""
    return f"the log is printed by {trainer.name.removesuffix(' log')}, whose trainer {trainer.clears_gradients}"


# Gradients the paste's own code computes anew at each call: JAX's jax.grad and value_and_grad (and Flax's nnx.grad,
# which wraps them) return a new pytree, optax's transformations take that pytree and keep no gradient buffer, and
# TensorFlow's tape.gradient returns new tensors. There is no buffer to forget: WR-260's JAX and Keras parts say the
# mistake needs an accumulator carried by hand and never reset. Not where the paste calls backward() (PyTorch's
# buffers) or names an accumulation of its own.
FRESH_GRADIENTS = lazy_regex.compile(r"\b(?:jax|nnx)\.(?:value_and_grad|grad)\s*\(|\btape\.gradient\s*\(|"
                                     r"\boptax\.(?:chain|adamw?|sgd|lion|adafactor|apply_updates)\b")
# (the forms WR-260's own JAX and Keras parts give: a pytree summed with jax.tree.map, `acc = jax.tree.map(lambda a, g:
# a + g, acc, grads)`, or tf.Variable accumulators, `a.assign_add(g)`; or any `+=`, or a name of accumulation)
ACCUMULATED_BY_HAND = lazy_regex.compile(r"(?i)\baccum\w*|\bacc(?:_?grads?)?\b|\bgrads?_?acc\w*|\bgrad_sums?\b|"
                                         r"\bsummed_grads?\b|\.backward\(|\.assign_add\(|\+=|"
                                         r"\btree(?:_util)?\.(?:tree_)?map\([^\n]{0,60}?(?:\+|\badd\b)|\btree_map\([^\n]{0,60}?(?:\+|\badd\b)")


def gradients_fresh(prose: str) -> str:
    """How the paste's own code computes its gradients anew at each step (FRESH_GRADIENTS), as written; or ""."""
    found = FRESH_GRADIENTS.search(prose)
    if found is None or ACCUMULATED_BY_HAND.search(prose):
        return ""
    return (f"the paste's code computes its gradients anew at each step (`{found.group(0).rstrip('( ')}`): JAX's "
            "jax.grad and TensorFlow's tape.gradient return new values on every call, with no buffer to forget")


# A gradient buffer written by hand (NumPy, a course's loop) that sums into itself inside the loop that steps the
# weights with it, and is set to zero only outside that loop: `gW = np.zeros_like(W)` before `for xb, yb in ...:`,
# then `gW += xb.T @ (P - yb)` and `W -= lr * gW` on every batch. Each step applies the sum of every gradient since the
# reset -- WR-260 with no framework. (A buffer summed over the batches and applied once after the inner loop is
# full-batch gradient descent, not this; nor one reset inside the loop.)
_ADDS_INTO = lazy_regex.compile(r"^(?P<ind>[ \t]*)(?P<g>[A-Za-z_]\w{0,40})(?P<key>\[[^\]\n]{1,40}\])?[ \t]*\+=")
# ... or NumPy's unbuffered add at indices, which adds into its first argument: `np.add.at(gradP, u, ...)`
_ADDS_AT = lazy_regex.compile(r"^(?P<ind>[ \t]*)(?:np|numpy)\.add\.at\([ \t]*(?P<g>[A-Za-z_]\w{0,40})(?P<key>\[[^\]\n]{1,40}\])?[ \t]*,")
_LOOP = lazy_regex.compile(r"^(?P<ind>[ \t]*)(?:for|while)\b")


# A loop's own line as Python writes it, not a sentence that ends in a colon ("for this question:", "for each batch in the
# loader:", "while training, my update is:"): `for <names, comma-separated> in <iterable>:`, or `while` and a condition
# of operands joined by operators, `and` or `or` (each piece bounded by the next: no run of spaces or letters can be
# split two ways, so a long line is read in linear time)
_OPERAND = r"[\w.]+(?:\([^()\n]{0,200}\)|\[[^\[\]\n]{0,200}\])*"
_TERM = r"(?:not[ \t]+)?" + _OPERAND + r"(?:[ \t]*(?:[<>=!]=|[<>]|[-+*/%])[ \t]*" + _OPERAND + r")*"
_TARGET = r"\(?[A-Za-z_]\w*\)?(?:[ \t]*,[ \t]*\(?[A-Za-z_]\w*\)?)*"
_PYTHON_LOOP = lazy_regex.compile(r"[ \t]*(?:(?:async[ \t]+)?for[ \t]+" + _TARGET + r"[ \t]+in[ \t]+[^:#\n]+|"
                                  r"while[ \t]+" + _TERM + r"(?:[ \t]+(?:and|or)[ \t]+" + _TERM + r")*[ \t]*)"
                                  r":[ \t]*(?:#[^\n]*)?\r?")
# ... and a call in its block to a function of the user's that may clear them (`reset_gradients(model)`), not shown
_MAY_CLEAR = lazy_regex.compile(r"(?i)\b\w*(?:reset|clear|zero_?grad)\w*\(")


# A JAX accumulator of gradients: `acc = jax.tree_util.tree_map(lambda a, g: a + g, acc, grads)` (or jax.tree.map), in a
# loop that steps the weights with it (optax's update or apply_updates, or a step function handed it or a name made
# from it), where nothing in that loop sets it back (`acc = tree_map(jnp.zeros_like, ...)`): each step applies the sum of
# every gradient since the start
# (tree_map in each of its spellings -- jax.tree.map, jax.tree_util.tree_map, the older jax.tree_map, a bare imported
# tree_map -- with an adding function, or optax's own tree_add)
_TREE_ADDS = lazy_regex.compile(r"^(?P<ind>[ \t]*)(?P<g>[A-Za-z_]\w{0,40})[ \t]*=[ \t]*(?:"
                                r"(?:(?:jax\.)?tree(?:_util)?\.(?:tree_)?map|jax\.tree_map|(?<![\w.])tree_map)\([ \t]*"
                                r"(?:lambda[ \t]+(?P<a>\w+)[ \t]*,[ \t]*(?P<b>\w+)[ \t]*:[ \t]*(?P=a)[ \t]*\+[ \t]*(?P=b)|"
                                r"jnp\.add|operator\.add)[ \t]*,[ \t]*(?P=g)[ \t]*,|"
                                r"optax\.tree_utils\.tree_add\([ \t]*(?P=g)[ \t]*,)")
_STEPS_WEIGHTS = r"(?:\.update\(|apply_updates\(|apply_step\(|apply_gradients\(|train_step\(|\bupdate_step\()"


@functools.lru_cache(maxsize=4)      # (asked for each entry weighed that the never-cleared fact counts for)
def whole_loop_steps(prose: str) -> bool:
    """Does the paste show a whole loop that steps: a `for` or `while` line as Python writes it and, under it, a block
    that calls backward() and step() and nothing that may clear the gradients out of sight? Beside gradients cleared
    nowhere in the paste, the loop it shows is the one that ran, not an excerpt that left the clearing out."""
    lines = prose.split("\n")[:CLEARING_LINES]
    for k, line in enumerate(lines):
        if not _PYTHON_LOOP.fullmatch(line):
            continue
        body = []
        for below in lines[k + 1:]:
            if below.strip() and indent(below) <= indent(line):
                break
            body.append(below)
        block = "\n".join(body)
        # (or a JAX loop that sums the gradients into an accumulator and steps with it: optax's update, apply_updates)
        steps = ".backward(" in block and ".step(" in block or any(_TREE_ADDS.match(b) for b in body) \
            and re.search(_STEPS_WEIGHTS, block)
        if steps and not _MAY_CLEAR.search(block):
            return True
    return False


def _enclosing_loop_body(lines: list[str], i: int) -> list[str] | None:
    """The body of the nearest `for` or `while` loop above line i (within 60 lines) that encloses it, or None."""
    loop = next((j for j in range(i - 1, max(-1, i - 60), -1) if _LOOP.match(lines[j])
                 and indent(lines[j]) < indent(lines[i])), None)
    if loop is None:
        return None
    end = loop + 1
    while end < len(lines) and (not lines[end].strip() or indent(lines[end]) > indent(lines[loop])):
        end += 1
    return lines[loop + 1:end]


def numpy_buffer_never_reset(prose: str) -> str:
    """The `+=` (or `np.add.at`) line of a hand-written gradient buffer that is never reset inside the loop that steps
    the weights with it, or ""."""
    if ".backward(" in prose:
        return ""                       # (a framework's gradients: BACKWARD_STEP's reading)
    lines = code_of(prose).split("\n")
    for i, line in enumerate(lines[:2000]):
        m = _ADDS_INTO.match(line) or _ADDS_AT.match(line)
        if not m or not re.search(r"(?i)grad|\bd[A-Z_a-z]|^g", m.group("g")):
            continue
        # (a sum of squares is an adaptive optimiser's running statistic, AdaGrad's `grad_sq += dW ** 2`, not a buffer)
        if re.search(r"(?i)\*\*\s*2\b|\bnp\.square\(|\b(\w+)\s*\*\s*\1\b|sq|square", line[m.end():] + m.group("g")):
            continue
        name = re.escape(m.group("g")) + (re.escape(m.group("key")) if m.group("key") else "")
        body = _enclosing_loop_body(lines, i)
        if body is None:
            continue
        # (a buffer added into at rows, np.add.at's, is stepped and reset at rows too: `P[u] -= lr * gradP[u]`, `gradP[u] = 0`)
        rows = r"(?:\[[^\]\n]{1,40}\])?" if _ADDS_AT.match(line) else ""
        steps = re.compile(r"[-+]=[ \t]*[^\n]*\b" + name + rows + r"(?![\w\[])|=[ \t]*\w[\w.\[\]\"']*[ \t]*-[^\n]*\b" + name
                           + rows + r"(?![\w\[])")
        reset = re.compile(r"^[ \t]*" + name + r"[ \t]*(?:=(?!=)|\*=[ \t]*0\b)|\b" + name + r"(?:\[:\]|\[\.\.\.\])[ \t]*=[ \t]*0|\b"
                           + name + r"\.fill\([ \t]*0" + (r"|\b" + name + r"\[[^\]\n]{1,40}\][ \t]*=[ \t]*0\b" if rows else ""))
        if any(steps.search(b) and not _ADDS_INTO.match(b) and not _ADDS_AT.match(b) for b in body) \
                and not any(reset.search(b) for b in body):
            return line.strip()
    return ""


def jax_accumulator_never_reset(prose: str) -> str:
    """The accumulating line of a JAX gradient accumulator never set back inside the loop that steps with it (see
    _TREE_ADDS), or ""."""
    lines = code_of(prose).split("\n")
    for i, line in enumerate(lines[:2000]):
        m = _TREE_ADDS.match(line)
        if not m:
            continue
        name = m.group("g")
        body = _enclosing_loop_body(lines, i)
        if body is None:
            continue
        # (what the step is handed: the accumulator, or a name made from it -- `mean = tree_map(lambda a: a / k, acc)`)
        made = {name} | {d.group(1) for b in body if (d := re.match(r"[ \t]*([A-Za-z_]\w{0,40})[ \t]*=(?!=)[^\n]*\b"
                                                                     + re.escape(name) + r"\b", b)) and d.group(1) != name}
        handed = any(re.search(_STEPS_WEIGHTS + r"[^\n]*\b(?:" + "|".join(map(re.escape, made)) + r")\b", b) for b in body)
        # (set back by a plain assignment, or as one of a tuple's targets: `params, opt_state, acc = apply_step(...)`,
        # JAX's own way, whose step returns the zeros)
        reset = any(re.match(r"[ \t]*\(?[ \t]*(?:[\w.]+[ \t]*,[ \t]*)*" + re.escape(name) + r"[ \t]*(?:,[ \t]*[\w.]+[ \t]*)*\)?"
                             r"[ \t]*=(?!=)", b) and not _TREE_ADDS.match(b) for b in body)
        if handed and not reset:
            return line.strip()
    return ""


# ... or a GAN's loop that clears both optimizers once, at the top of the iteration, and then steps the generator and
# the discriminator in turn: the generator's loss is computed through the discriminator (D judges G's fakes), so its
# backward() fills the discriminator's buffers too, and the discriminator's own backward() adds to them -- its step
# follows the sum, which pulls it toward calling the fakes real (WR-260's page). Read in the code's order of events:
# the discriminator's optimizer steps after two backward() calls with another optimizer's step between them, cleared
# before the first and not since, and the discriminator (or a critic: an actor-critic loop is the same) called between
# that clearing and the first backward. Not where the paste freezes the discriminator itself for a step (pix2pix's
# `set_requires_grad(netD, False)`, BigGAN's `toggle_grad(D, False)`, `D.requires_grad_(False)`, a loop over its
# parameters) -- a frozen VGG of a perceptual loss is another network --, nor where the first backward() is told which
# leaves to fill (`inputs=`).
_EVENT = lazy_regex.compile(r"(?<![\w.])(?P<name>(?:self\.)?[A-Za-z_]\w{0,40})\.(?P<call>zero_grad|backward|step)(?=\()")
_OPTIMIZER_WORDS = re.compile(r"(?i)^(?:optimi[sz]er|optim|opt)_?|_?(?:optimi[sz]er|optim|opt)$")
# (a whole name, where loss_inputs.DISCRIMINATOR_NAME searches within one: a called `discount(` is no discriminator)
DISCRIMINATOR = re.compile(r"(?i)^(?:d|dis|disc(?:riminator)?(?:_\w+)?|critic\d*(?:_\w+)?|net_?d(?:_\w+)?)$")
# (a call by a name, or an attribute's, `gan.discriminator(`, or a network handed to a helper, `g_loss(D, fake)`)
_CALLED = lazy_regex.compile(r"(?<![\w.])(?:[A-Za-z_]\w{0,40}\.){0,3}(?P<name>[A-Za-z_]\w{0,40})(?=\s*\()|"
                             r"\((?:[^()\n]{0,80},\s*)?(?P<arg>[A-Za-z_]\w{0,40})\s*[,)]")
# (a freeze switches the gradients off: a flag of False or 0, the network's own method or a loop over its parameters --
# each name bounded, so that a long run of word characters costs no more than its length)
_OFF = r"\s*(?:False|0)\b"
FROZEN_FOR_A_STEP = lazy_regex.compile(r"\bset_requires_grad\(\s*(?:\[\s*)?(?:self\.)?(?P<a>\w{1,40})[^()\n]{0,60}?," + _OFF + "|"
                                       r"(?<![\w.])(?:self\.)?(?P<b>\w{1,40})\.requires_grad_\(" + _OFF + "|"
                                       r"\b(?:toggle_grad|requires_grad|freeze)\(\s*(?:self\.)?(?P<c>\w{1,40})\s*(?:,"
                                       + _OFF + r"\s*)?\)|"
                                       r"\bfor\s+(?P<p>\w{1,20})\s+in\s+(?:self\.)?(?P<d>\w{1,40})\.parameters\(\)\s*:\s*"
                                       r"(?P=p)\.requires_grad(?:_\(" + _OFF + r"|\s*=" + _OFF + ")")


def _discriminator_frozen_between(code: str, start: int, end: int) -> bool:
    """Does the paste switch a discriminator's (or a critic's) gradients off between `start` and `end`
    (FROZEN_FOR_A_STEP)?"""
    return any(DISCRIMINATOR.match(m.group("a") or m.group("b") or m.group("c") or m.group("d"))
               for m in itertools.islice(FROZEN_FOR_A_STEP.finditer(code, start, end), 20))


@functools.lru_cache(maxsize=4)      # (asked by the clearing each step and by the printed facts, of the same text)
def carried_into_the_discriminator(prose: str) -> tuple[str, str, str] | None:
    """(the discriminator's optimizer, the loss whose backward() its step also carries, the optimizer stepped between)
    where a GAN's loop clears the discriminator's optimizer only before the generator's backward() (see above); or
    None."""
    code = code_of(prose)
    # (each call, its object, where its bracket opens, where it starts)
    events = [(m.group("call"), m.group("name"), m.end(), m.start()) for m in itertools.islice(_EVENT.finditer(code), 400)]
    for s, (call, opt, _, _) in enumerate(events):
        if call != "step" or not DISCRIMINATOR.match(_OPTIMIZER_WORDS.sub("", opt.removeprefix("self."))):
            continue
        backwards = [k for k in range(s) if events[k][0] == "backward"]
        cleared = [k for k in range(s) if events[k][:2] == ("zero_grad", opt)]
        if len(backwards) < 2 or not cleared:
            continue
        first, second = backwards[-2], backwards[-1]
        between = [name for c, name, _, _ in events[first:second] if c == "step" and name != opt]
        told_leaves = any(re.match(r"\s*inputs\s*=", a) for a in arguments(code, events[first][2]) or [])
        # (the discriminator called, or handed to a call, between its clearing and the first backward: that loss runs
        # through it -- unless it was frozen there)
        span = (events[cleared[-1]][3], events[first][3])
        judged = any(DISCRIMINATOR.match(c.group("name") or c.group("arg"))
                     for c in itertools.islice(_CALLED.finditer(code, *span), 200))
        if between and cleared[-1] < first and not told_leaves and judged \
                and not _discriminator_frozen_between(code, *span) \
                and not any(c == "zero_grad" and name != opt for c, name, _, _ in events[first:s] if name not in between):
            return opt, events[first][1], between[0]
    return None
