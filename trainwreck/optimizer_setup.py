"""How the optimizer is built and driven: a learning rate printed rising through a climb, or fallen to nothing; an
adaptive optimiser built with a rate far past its default; a weight decay that pulls every weight to zero; a schedule
with epoch-sized lengths stepped once per batch; a module replaced after the optimizer was built on its parameters, so
that the new one never trains; and a module unfrozen by an attribute that no parameter reads.
"""
from __future__ import annotations

import ast
import itertools
import re
from collections.abc import Iterator

from .breaking_constructs import code_of, line_from
from .curve_shape import Signature, fmt
from .logscan import Evidence
from .sentences import sentence_around
from .thesaurus import OPTIMIZER_NAMES
from . import lazy_regex

# A learning rate printed beside the loss that rose (a warmup, a warm restart, a range test) through the climb,
# from where the loss was lowest to the climb's end: half a printed fact for the entries whose phrases say a raised
# rate diverges, and half against the special cases of the rate's curve (PART_OF), whose own causes grow the
# steps at a fixed rate -- a rate the log shows rising is the plain reading of steps that grow.
RATE_RAISED_WORDS = {"lr", "rais"}
RATE_CLIMB = 1.25              # the rate at the climb's end this many times the one at the loss's lowest,
RATE_NEAR_PEAK = 0.9           # ... and this near the highest it reached in the climb
RATE_CLIMBS = {"climb-then-nonfinite", "descent-then-climb", "climb-despite-clipping", "climbing",
               "climbed-and-stayed"}


def rate_rose(ev: Evidence, sig: Signature) -> str:
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


# A learning rate said or printed to have fallen to 1e-10 or below ("the lr is 1e-14 after epoch 1", `lr: 1.0e-27`): no
# step moves a weight at that rate, whatever the gradients.
# (the first number after the rate's name: "lr 0.1, weight decay 1e-10" names no such rate)
RATE_VANISHED = lazy_regex.compile(r"\b(?:lr|learning[ _]rate|\[['\"]lr['\"]\])\b[^.\n\d]{0,80}?(?<![\w.])(?P<rate>\d(?:\.\d+)?[eE]-"
                                   r"(?:1\d|[2-9]\d|\d{3}))(?![\w.])")


# An adaptive optimiser built with a rate of 0.1 or more (`keras.optimizers.Adam(learning_rate=0.5)`,
# `optim.Adam(model.parameters(), lr=0.3)`): Adam's step for each weight is set by the rate, not by its gradient's size:
# up to about the rate (Kingma & Ba 2015, section 2.1: |step| is bounded by about the rate, and near it while a gradient
# keeps its sign; a fraction of it, about 0.2x, once the gradient is mostly noise; RMSprop, with no bias correction,
# starts larger, 10x in PyTorch at step 1), so at 0.5 a weight moves by up to about 0.5 a step, hundreds of times the
# defaults (1e-3 for Adam in PyTorch and Keras; 2e-3 for Adamax and NAdam; 1e-2 for PyTorch's RMSprop;
# review factcheck_session35 measured these). Half a printed fact, beside a run that went wrong, for the entries whose phrases
# say the rate is too high.
HIGH_ADAPTIVE_WORDS = {"lr", "high"}
HIGH_ADAPTIVE_RATE = lazy_regex.compile(r"\b(?P<opt>Adam|AdamW|Adamax|NAdam|Nadam|RMSprop)\((?:[^()\n]|\(\))"
                                        r"{0,200}?\b(?:learning_rate|lr)[ \t]*=[ \t]*(?P<rate>(?:\d+(?:\.\d*)?|\.\d+)(?:e-?\d+)?)"
                                        r"(?![\w.])")
# ... or Optax's, whose rate is its first argument and has no default (`optax.adam(0.3)`, `optax.adamw(learning_rate=lr)`)
_OPTAX_CALL = r"\boptax\.(?P<opt>adam|adamw|adamax|nadam|rmsprop)\(\s*(?:learning_rate\s*=\s*)?"
OPTAX_RATE = lazy_regex.compile(_OPTAX_CALL + r"(?P<rate>(?:\d+(?:\.\d*)?|\.\d+)(?:e-?\d+)?)(?![\w.])(?![ \t]*[-+*/])")
HIGH_ADAPTIVE_AT = 0.1
# Each one's default rate in PyTorch (its documentation of torch.optim), the larger of the two frameworks' (Keras 3's
# are all 1e-3)
ADAPTIVE_DEFAULTS = {"adam": 1e-3, "adamw": 1e-3, "adamax": 2e-3, "nadam": 2e-3, "rmsprop": 1e-2}


# ... or with the rate by a name the paste sets elsewhere: `Adam(self.parameters(), lr=self.hparams.lr)` beside
# `def __init__(self, lr=0.1)`, `lr=args.lr` beside `--lr 0.1`, `lr=LR` beside `LR = 0.1`
HIGH_ADAPTIVE_NAMED = lazy_regex.compile(r"\b(?P<opt>Adam|AdamW|Adamax|NAdam|Nadam|RMSprop)\((?:[^()\n]|\(\))"
                                         r"{0,200}?\b(?:learning_rate|lr)[ \t]*=[ \t]*(?P<name>(?:self\.)?(?:hparams\.|args\.|"
                                         r"config\.|cfg\.|opt\.)?(?P<last>[A-Za-z_]\w{0,30}))(?![\w.(\[])")
OPTAX_NAMED = lazy_regex.compile(_OPTAX_CALL + r"(?P<name>(?:config\.|cfg\.|args\.)?(?P<last>[A-Za-z_]\w{0,30}))(?![\w.(\[])"
                                 # (a keyword argument's name is none, `weight_decay=0.1`, nor a rate scaled where it is
                                 # handed over -- code_review_s70c 6, 7)
                                 r"(?![ \t]*=)(?![ \t]*[-+*/])")


def _rate_named(prose: str) -> tuple[re.Match, str] | None:
    """The adaptive optimiser built with its rate by a name, and the value the paste gives that name, where every value
    it gives it is 0.1 or more (a default overridden where the model is built, `Lit(lr=1e-4)`, or a rate said for
    another optimizer, is no such rate; nor a value an operator scales, `lr = 0.1 * batch_size / 4096`)."""
    for m in itertools.chain(itertools.islice(HIGH_ADAPTIVE_NAMED.finditer(prose), 5),
                             itertools.islice(OPTAX_NAMED.finditer(prose), 5)):
        last = re.escape(m.group("last"))
        given = [g.group(1) for g in itertools.islice(re.finditer(
            # (set in code, `lr = 0.3`, on a command line, `--lr 0.3`, or in a YAML config, `learning_rate: 0.3`)
            r"(?<![\w.])(?:--)?" + last + r"(?:[ \t]*:[ \t]*(?:float|int))?[ \t]*(?:=[ \t]*|:[ \t]+|[ \t]+)"
            r"((?:\d+(?:\.\d*)?|\.\d+)(?:e-?\d+)?)(?![\w.])(?![ \t]*[-+*/])", prose), 20)]
        scaled = re.search(r"(?<![\w.])" + last + r"[ \t]*=[ \t]*[\d.e-]+[ \t]*[-+*/]", prose)
        if given and not scaled and min(float(v) for v in given) >= HIGH_ADAPTIVE_AT:
            return m, given[0]
    return None


# ... or in a run's configuration printed as one mapping, a dict, a YAML or a namespace on one line (`{'optimizer':
# 'adam', ..., 'lr': 0.1}`, `optimizer: adamw lr: 0.5`, `Namespace(lr=0.2, optim='rmsprop')`): the optimizer named as a
# value, the rate beside it
_OPT_VALUE = r"['\"]?(?:optimi[sz]er|optim|opt)['\"]?[ \t]*[:=][ \t]*['\"]?(?P<opt>adam|adamw|adamax|nadam|rmsprop)['\"]?(?![\w-])"
_RATE_VALUE = r"['\"]?(?:lr|learning_rate)['\"]?[ \t]*[:=][ \t]*(?P<rate>(?:\d+(?:\.\d*)?|\.\d+)(?:e-?\d+)?)(?![\w.])"
# (within one mapping: not across a brace to another's, `{'lr': 0.1, 'optimizer': 'sgd'}, {'optimizer': 'adam', ...}`;
# and not beside a Noam or inverse-sqrt schedule, whose `learning_rate` is a factor -- code_review_s68b H5)
HIGH_ADAPTIVE_CONFIG = lazy_regex.compile(r"(?i)(?<![\w-])(?:" + _OPT_VALUE + r"[^\n{}]{0,200}?(?<![\w-])" + _RATE_VALUE + "|"
                                          + _RATE_VALUE.replace("?P<rate>", "?P<rate2>") + r"[^\n{}]{0,200}?(?<![\w-])"
                                          + _OPT_VALUE.replace("?P<opt>", "?P<opt2>") + ")")
# (the adaptive optimisers by their class names, as PyTorch and Keras spell them)
_NAMES = {name.lower(): name for name in ("Adam", "AdamW", "Adamax", "NAdam", "RMSprop")}
# ... or a run's log line that names the optimizer by its class and prints its rate after it (Cellpose's `>>> AdamW,
# learning_rate=0.10000, weight_decay=0.00010`, `Optimizer: Adam (lr=0.3)`): a printed `=` or `:`, not a sentence's
# "a learning rate of" -- rates a person lists as tried, or says were changed, are rate_tried's -- within one clause,
# with no other optimizer named between or after it in that clause (thesaurus.OPTIMIZER_NAMES, any case)
_OTHER_OPTIMIZER = r"(?i:\b(?:" + "|".join(OPTIMIZER_NAMES) + r")\b)"
HIGH_ADAPTIVE_PRINTED = lazy_regex.compile(r"(?<![\w.-])(?P<opt>" + "|".join(sorted(_NAMES.values(), key=len, reverse=True))
                                           + r"|Nadam)\b(?![(.])"
                                           r"(?:(?!" + _OTHER_OPTIMIZER + r")(?:[^\n{}.;]|\.\d)){0,80}?(?<![\w-])"
                                           r"(?:lr|learning_rate)[ \t]*[:=][ \t]*(?P<rate>(?:\d+(?:\.\d*)?|\.\d+)(?:e-?\d+)?)"
                                           r"(?![\w.])(?=(?:(?!" + _OTHER_OPTIMIZER + r")[^\n.;])*(?:[\n.;]|$))")
# (a sentence that gives a second rate -- "changed it to lr=1e-4", "lr=1e-4 also plateaus", "I use 1e-4" -- lists rates
# tried or compared, which rate_tried reads; or one that asks)
# (a bare one only in scientific form, as rates are written -- not Adam's betas, `(0.9, 0.999)` -- after a verb of use or
# of change: not a loss or a decay a log line prints as `loss: 4.512e-01`)
OTHER_RATE = lazy_regex.compile(r"(?i)\b(?:lr|learning[ _]rate)(?:\s*(?:[:=]|of|to|at|is))?\s*(?P<v>\d*\.\d+(?:e-?\d+)?|\d+e-\d+)(?![\w.])|"
                                r"\b(?:use|using|used|set|try|tried|trying|chang\w*|switch\w*|lower\w*|drop\w*|to|at|from)\s+"
                                r"(?P<w>\d+(?:\.\d+)?e-\d+)(?![\w.])")


def _printed_rates(prose: str) -> Iterator[re.Match]:
    """The first five HIGH_ADAPTIVE_PRINTED lines, each whose sentence gives no other rate below 1 and asks nothing
    (OTHER_RATE): a log may print a low rate first and the high one after it."""
    for m in itertools.islice(HIGH_ADAPTIVE_PRINTED.finditer(prose), 5):
        start, end = sentence_around(prose, m.start(), m.end(), stops=".;\n?!")
        others = [o for o in itertools.islice(OTHER_RATE.finditer(prose, start, end), 10)
                  if float(o.group("v") or o.group("w")) < 1
                  and o.start("v" if o.group("v") else "w") != m.start("rate")]
        if not others and prose[end:end + 1] != "?":
            yield m


RATE_A_FACTOR = lazy_regex.compile(r"(?i)\bnoam\b|decay_method|rsqrt|inverse_sqrt")


# ... or fastai's: its Learner builds Adam unless told otherwise (`opt_func=Adam`, fastai/learner.py) and takes the
# rate in its fit calls -- `learn.fine_tune(6, base_lr=0.2)` (2e-3 unless given: fastai/callback/schedule.py at
# https://github.com/fastai/fastai/blob/b273fbb32d075ef1d6fd372687b5f56564cead9a/fastai/callback/schedule.py#L161),
# `fit_one_cycle(5, lr_max=0.3)` (fastai 1's `max_lr=`), `fit_one_cycle(5, 0.3)`, `fit_one_cycle(5, slice(0.3))` -- in
# a paste that builds a fastai learner and hands it no other optimizer (`opt_func=SGD`)
FASTAI_LEARNER = lazy_regex.compile(r"\b(?:vision_learner|cnn_learner|unet_learner|tabular_learner|text_classifier_learner|"
                                    r"language_model_learner|collab_learner)\(|\bfrom fastai\b")
_FASTAI_FIT = r"\.(?:fine_tune|fit_one_cycle|fit_flat_cos|fit_sgdr|fit)\("
_FASTAI_LR = r"(?:slice\(\s*)?(?P<rate>(?:\d+(?:\.\d*)?|\.\d+)(?:e-?\d+)?)(?![\w.])(?:\s*\))?\s*[,)]"
FASTAI_RATE = lazy_regex.compile(_FASTAI_FIT + r"\s*\d+\s*,\s*(?:(?:base_lr|lr_max|max_lr|lr)\s*=\s*)?" + _FASTAI_LR + "|"
                                 + _FASTAI_FIT + r"[^()\n]{0,120}?\b(?:base_lr|lr_max|max_lr|lr)\s*=\s*"
                                 + _FASTAI_LR.replace("?P<rate>", "?P<rate2>"))
OTHER_OPT_FUNC = lazy_regex.compile(r"\bopt_func\s*=\s*(?!Adam\b|partial\(\s*Adam\b)")


def _fastai_rate(prose: str) -> tuple[re.Match, str] | None:
    """fastai's fit call with a rate of HIGH_ADAPTIVE_AT or more, in a paste that builds a fastai learner on its default
    Adam; or None."""
    if not FASTAI_LEARNER.search(prose) or OTHER_OPT_FUNC.search(prose):
        return None
    rates = ((m, m.group("rate") or m.group("rate2")) for m in itertools.islice(FASTAI_RATE.finditer(prose), 10))
    return next(((m, rate) for m, rate in rates if float(rate) >= HIGH_ADAPTIVE_AT), None)


def high_adaptive_rate(prose: str) -> str:
    m = next((m for m in itertools.chain(HIGH_ADAPTIVE_RATE.finditer(prose), OPTAX_RATE.finditer(prose))
              if float(m.group("rate")) >= HIGH_ADAPTIVE_AT), None)
    named = _rate_named(prose) if m is None else None
    config = next((c for c in itertools.chain(itertools.islice(HIGH_ADAPTIVE_CONFIG.finditer(prose), 5),
                                              _printed_rates(prose))
                   if float(c.group("rate") or c.group("rate2")) >= HIGH_ADAPTIVE_AT), None) \
        if m is None and named is None and not RATE_A_FACTOR.search(prose) else None
    fastai = _fastai_rate(prose) if m is None and named is None and config is None else None
    if m is None and named is None and config is None and fastai is None:
        return ""
    if named:
        m, rate = named
        opt = m.group("opt")
    elif config:
        m, rate = config, config.group("rate") or config.group("rate2")
        opt = _NAMES[(config.group("opt") or config.group("opt2")).lower()]
    elif fastai:
        (m, rate), opt = fastai, "Adam"
    else:
        opt, rate = m.group("opt"), m.group("rate")
    if opt.islower():                   # (Optax's names, as the frameworks that give them a default write them)
        opt = _NAMES[opt]
    default = ADAPTIVE_DEFAULTS[opt.lower()]
    how = (f"the paste's configuration names {opt}" if config else
           "the paste trains a fastai learner, whose optimizer is Adam unless told otherwise," if fastai else
           f"the paste builds {opt}")
    return (f"{how} with a learning rate of {rate} (`{' '.join(m.group(0).split())}`): an adaptive "
            f"optimiser's step for each weight is set by the rate, not the gradient's size (up to about the rate, "
            f"and near it while a gradient keeps its sign), so {rate} is "
            f"{float(rate) / default:.3g} times {opt}'s default rate ({default:g} in PyTorch; Keras's is no larger) "
            "and pushes the outputs to the extremes")


# An SGD or AdamW optimizer built with a weight decay whose pull on each weight per step, the rate times the decay, is
# DECAY_PER_STEP or more, twenty times SGD's usual 0.1 x 5e-4: PyTorch's SGD adds decay x weight to the gradient, so
# the step takes rate x decay x weight off it (more under momentum), and AdamW and Keras's optimizers subtract rate x
# decay x weight directly; the weights go to zero whatever the gradient does, and a classifier's loss settles where a
# model of zero weights puts it, ln C for C balanced classes -- not covered. (Not Adam's or RMSprop's coupled decay,
# whose term the adaptive denominator rescales.) Only a decay of DECAY_MIN or more: a high rate times the usual decay is
# a rate that is too high.
OPTIMIZER_CALL = lazy_regex.compile(r"\b(?:SGD|AdamW)\("
                                    r"(?P<args>[^()\n]{0,300}(?:\([^()\n]{0,80}\)[^()\n]{0,300}){0,4})\)")
RATE_ARG = lazy_regex.compile(r"\b(?:lr|learning_rate)\s*=\s*(\d+(?:\.\d*)?(?:e-?\d+)?)\b")
DECAY_ARG = lazy_regex.compile(r"\bweight_decay\s*=\s*(\d+(?:\.\d*)?(?:e-?\d+)?)\b")
DECAY_PER_STEP, DECAY_MIN = 1e-3, 0.1


def decay_pulls_to_zero(prose: str) -> str:
    """The optimizer's call, quoted, where its rate times its weight decay is DECAY_PER_STEP or more; or ''."""
    for m in itertools.islice(OPTIMIZER_CALL.finditer(code_of(prose)), 10):
        rate, decay = RATE_ARG.search(m.group("args")), DECAY_ARG.search(m.group("args"))
        if rate and decay and float(decay.group(1)) >= DECAY_MIN \
                and float(rate.group(1)) * float(decay.group(1)) >= DECAY_PER_STEP:
            return " ".join(m.group(0).split())
    return ""


# A PyTorch schedule counted in epochs, stepped once per batch: `scheduler.step()` in the loop over the loader, beside
# the optimizer's step, for a StepLR, MultiStepLR or ExponentialLR the paste builds with epoch-sized lengths (a
# step_size or milestones of EPOCH_SIZED or fewer, written as numbers; a gamma of ExponentialLR of 0.99 or less): each
# call of step() counts one more "epoch" (torch/optim/lr_scheduler.py: `last_epoch += 1` at every step()), so the
# schedule runs through its epochs once per batch. StepLR's rate is the first times gamma ** (calls // step_size),
# MultiStepLR's gamma ** (the milestones passed), ExponentialLR's gamma ** calls. Not lengths given in batches (`T_max=
# epochs * len(loader)`, milestones in the thousands), nor a step() under a condition in the loop (once per epoch), nor
# CosineAnnealingLR, whose rate cycles back up with period 2 T_max rather than falling to nothing, nor OneCycleLR, the
# warmups, LambdaLR or the transformers schedules, written per step.
EPOCH_SCHEDULER = lazy_regex.compile(r"(?m)^[ \t]*(?P<name>[\w.]{1,40})[ \t]*=[ \t]*(?:[A-Za-z_][\w.]{0,40}\.)?"
                                     r"(?P<kind>StepLR|MultiStepLR|ExponentialLR)\((?P<args>[^()\n]{0,200})\)")
EPOCH_SIZED, DECAYING_GAMMA = 300, 0.99
# (said only where the schedule has taken the rate to a tenth of itself or less within those batches: one at a quarter
# of its rate still trains)
VANISHED_BY = 0.1
_BATCH_LOOP = lazy_regex.compile(r"(?m)^(?P<indent>[ \t]*)for[ \t]+[^\n]{1,80}?\bin[ \t]+(?:enumerate\([ \t]*)?(?:tqdm\([ \t]*)?"
                                 r"[\w.]{0,40}(?:loader|dl|batches)\w*\b[^\n]{0,80}:[ \t]*(?:#[^\n]*)?$")
_OPTIMIZER_STEP = lazy_regex.compile(r"\b\w*(?:optim|opt)\w*\.step\(\)|\bscaler\.step\(")


# Each schedule's arguments after the optimizer, in the order its signature takes them positionally
# (torch/optim/lr_scheduler.py: StepLR(optimizer, step_size, gamma=0.1), MultiStepLR(optimizer, milestones, gamma=0.1),
# ExponentialLR(optimizer, gamma)), and gamma's default where it has one.
SCHEDULE_PARAMETERS = {"StepLR": ("step_size", "gamma"), "MultiStepLR": ("milestones", "gamma"),
                       "ExponentialLR": ("gamma",)}
DEFAULT_GAMMA = {"StepLR": 0.1, "MultiStepLR": 0.1}


def _schedule_arguments(kind: str, args: str) -> dict[str, object]:
    """The schedule's lengths and gamma as its call gives them, by name or by place; {} where the call cannot be read
    (a name, an expression: not a literal)."""
    try:
        call = ast.parse(f"f({args})", mode="eval").body
        given = {name: ast.literal_eval(value) for name, value in zip(SCHEDULE_PARAMETERS[kind], call.args[1:])}
        given.update((k.arg, ast.literal_eval(k.value)) for k in call.keywords if k.arg in SCHEDULE_PARAMETERS[kind])
    except (SyntaxError, ValueError, TypeError):
        return {}
    return given


def _epoch_lengths(kind: str, args: str) -> str:
    """What the schedule does to the rate over its calls, from its own lengths, where they are epoch-sized; else ''."""
    given = _schedule_arguments(kind, args)
    g = given.get("gamma", DEFAULT_GAMMA.get(kind))
    if not isinstance(g, (int, float)) or not 0 < g < 1:
        return ""
    if kind == "StepLR":
        n = given.get("step_size")
        if not isinstance(n, int) or not 0 < n <= EPOCH_SIZED or g ** (EPOCH_SIZED // n) > VANISHED_BY:
            return ""
        return (f"it multiplies the rate by gamma = {g:g} every {n} calls, so {EPOCH_SIZED} batches in it is "
                f"{g:g} ** {EPOCH_SIZED // n} = {g ** (EPOCH_SIZED // n):.2g} times the first rate")
    if kind == "MultiStepLR":
        stones = given.get("milestones")
        if not isinstance(stones, (list, tuple)) or not stones or not all(isinstance(v, int) for v in stones) \
                or max(stones) > EPOCH_SIZED or g ** len(stones) > VANISHED_BY:
            return ""
        return (f"its milestones, {', '.join(map(str, stones))}, are passed by the {max(stones)}th batch, and the rate "
                f"is then {g:g} ** {len(stones)} = {g ** len(stones):.2g} times the first")
    if g > DECAYING_GAMMA or g ** EPOCH_SIZED > VANISHED_BY:
        return ""
    return f"it multiplies the rate by gamma = {g:g} at every call, so {EPOCH_SIZED} batches in it is {g ** EPOCH_SIZED:.2g} times the first"


def scheduler_stepped_per_batch(prose: str) -> tuple[str, str]:
    """The scheduler's construction and its step, quoted, and what its lengths do to the rate, where the paste steps an
    epoch-counted schedule once per batch (EPOCH_SCHEDULER); else ('', '')."""
    code = code_of(prose)
    built = EPOCH_SCHEDULER.search(code)
    done = _epoch_lengths(built.group("kind"), built.group("args")) if built else ""
    if not done:
        return "", ""
    step = re.compile(r"(?m)^(?P<indent>[ \t]*)" + re.escape(built.group("name")) + r"\.step\(\)")
    for loop in itertools.islice(_BATCH_LOOP.finditer(code), 10):
        depth = len(loop.group("indent").expandtabs())
        # (the loop's body: the lines after it indented deeper than it, up to the first that is not)
        end, body_indent = loop.end(), None
        for line in re.finditer(r"(?m)^([ \t]*)(\S)[^\n]*$", code[loop.end():]):
            if len(line.group(1).expandtabs()) <= depth:
                break
            body_indent = len(line.group(1).expandtabs()) if body_indent is None else body_indent
            end = loop.end() + line.end()
        body = code[loop.end():end]
        m = step.search(body)
        # (stepped every batch: at the body's own depth, or inside `with` blocks only -- an autocast, Accelerate's
        # accumulate, which steps a prepared scheduler at every synchronised step -- not under an `if` of the last
        # batch)
        if m and body_indent is not None and _every_batch(body, m.start("indent"), body_indent) \
                and _OPTIMIZER_STEP.search(body):
            return f"{' '.join(built.group(0).split())} ... {m.group(0).strip()}", done
    return "", ""


def _every_batch(body: str, at: int, body_indent: int) -> bool:
    """Does the line starting at `at` run on every pass of the body: at its own depth, or with only `with` headers
    between it and that depth?"""
    depth = len(re.match(r"[ \t]*", body[at:]).group(0).expandtabs())
    for line in reversed(body[:at].splitlines()):
        if depth <= body_indent:
            break
        indent = len(re.match(r"[ \t]*", line).group(0).expandtabs())
        if line.strip() and indent < depth:
            if not re.match(r"[ \t]*(?:async[ \t]+)?with\b", line):
                return False
            depth = indent
    return depth == body_indent


# An optimizer built on a module's parameters, and that module (or a part of it) replaced by a new one afterwards:
# `optimizer = torch.optim.Adam(model.fc.parameters())` then `model.fc = nn.Linear(2048, 5)`. The optimizer holds
# the old module's tensors (parameters() is read when the optimizer is built), so step() never touches the new
# layer's: it keeps its initial weights, and with everything else frozen nothing learns -- the loss stays about where
# the untrained head puts it. No entry covers it: a bug of the wiring, not of the numbers.
OPTIMIZER_ON = lazy_regex.compile(r"(?m)^[ \t]*[\w.]+[ \t]*=[ \t]*[\w.]*\b(?:optim|optimizers?)\.[A-Za-z]\w{0,30}\([ \t]*"
                                  r"(?P<module>[A-Za-z_]\w{0,40}(?:\.\w{1,40}){0,4})\.parameters\(\)")
REPLACED = r"(?m)^[ \t]*(?P<target>{module}(?:\.\w{{1,40}}|\[\d{{1,4}}\]){{0,4}})[ \t]*=[ \t]*(?![=\s])[^\n]{{1,200}}"


def module_replaced_after_optimizer(prose: str) -> tuple[str, bool] | None:
    """An optimizer built on a module's parameters and that module (or a part of it) replaced later in the paste: the
    two lines, as "`optimizer = ...` ... `model.fc = ...`", and whether the optimizer was built on the replaced module
    alone (then it trains nothing); or None."""
    code = code_of(prose)
    for m in OPTIMIZER_ON.finditer(code):
        later = re.compile(REPLACED.format(module=re.escape(m.group("module")))).search(code, m.end())
        # (a new module, not a number or a tensor's data: `model.fc = nn.Linear(...)`, `model.head = Head()`)
        if later and re.search(r"=[ \t]*[\w.]*[A-Z]\w*\(", later.group(0)):
            return (f"`{line_from(code, m.start())[:120]}` ... `{' '.join(later.group(0).split())[:120]}`",
                    later.group("target") == m.group("module"))
    return None


# A module "unfrozen" by setting an attribute on it, after the paste froze every parameter: `model.qformer.requires_grad
# = True`. requires_grad is a tensor's flag; an nn.Module has none (its method is requires_grad_()), so the assignment
# makes a new Python attribute on the module (Module.__setattr__ stores a value that is no Parameter, Module or buffer
# as a plain attribute) and no parameter of it changes: they stay frozen, and only what really was unfrozen trains.
# The name a module's, by the words models use for their parts -- not a parameter's (`model.query_tokens`,
# `self.cls_token`, `layer.weight`), whose flag the same assignment does set. Not covered.
# (the whole model frozen, by a loop over its own parameters or its method: its name bare, `model`, not a part's)
FROZE_ALL = lazy_regex.compile(r"(?m)^[ \t]*for[ \t]+(?P<p>\w+)[ \t]+in[ \t]+(?P<root>(?:self\.)?\w+)\.parameters\(\)[ \t]*:[ \t]*"
                               r"(?:\n[ \t]+)?(?P=p)\.requires_grad[ \t]*=[ \t]*False\b|"
                               r"^[ \t]*(?P<root2>(?:self\.)?\w+)\.requires_grad_\([ \t]*False[ \t]*\)")
MODULE_FLAG_SET = lazy_regex.compile(r"(?m)^[ \t]*(?P<path>(?:self\.)?[A-Za-z_]\w*(?:\.\w+)*\.(?P<last>\w+))\.requires_grad[ \t]*="
                                     r"[ \t]*True\b[^\n]*")
# (the words models name their parts by; not a projection, which CLIP keeps as a parameter (`text_projection`,
# `visual.proj`), nor loralib's `lora_A`, a parameter too: their own flag the same line does set)
MODULE_WORDS = lazy_regex.compile(r"(?i)^(?:\w*(?:encoder|decoder|backbone|former|classifier|model|transformer|"
                                  r"net|layers?|blocks?|heads?|adapter|features|stem|neck|mlp|attn|attention|lstm|gru|rnn|conv)\d*|"
                                  r"fc\d*|visual|vision|bert|vit|resnet\d*)$")


def module_unfrozen_by_attribute(prose: str) -> str:
    """The line that sets requires_grad = True by attribute on a module of the model the paste froze whole; or ''."""
    code = code_of(prose)
    froze = FROZE_ALL.search(code)
    if froze is None:
        return ""
    root = froze.group("root") or froze.group("root2")
    m = next((m for m in MODULE_FLAG_SET.finditer(code, froze.end()) if MODULE_WORDS.match(m.group("last"))
              and m.group("path").startswith(root + ".")), None)
    return " ".join(m.group(0).split()) if m else ""

