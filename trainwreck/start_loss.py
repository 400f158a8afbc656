"""The loss at the run's start as the words give it, set against ln C, the uniform guess over the C classes the paste
names: far above it (weights or inputs at the wrong scale), at it (where a fresh classifier starts; a pretrained
language model at ln V learned nothing of these tokens), jumping to several times its start within the first steps
(no warmup), or a regression's enormous first loss.

A value in words is rounded, and may be asked about, planned or another run's: each reading takes only a sentence
that tells it.
"""
from __future__ import annotations

import functools
import itertools
import math
import re
from typing import NamedTuple

from .class_count import UNIFORM_NEAR, at_uniform, classes_named, classes_or_vocabulary, vocabulary_named
from .curve_shape import ENORMOUS_START, PLATEAU_FALL, at_run_start, fmt
from .input_scaling import doubted
from .logscan import Evidence
from .logscan.dialects import loss_unit
from .run_kind import REGRESSION_SAID, SUMMED
from .run_said import says_not_learning
from .schedule_said import NO_WARMUP, WARMUP_NAMED, plain_sgd_only
from .sentences import sentence_around, told
from . import lazy_regex

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
# (the number the loss is, not one inside a logarithm beside it: "the first loss near ln(200) = 5.3 is 640")
START_LOSS_SAID = lazy_regex.compile(r"(?i)\b(?:initial|first|starting|very first|untrained)\s+(?:training\s+|mean\s+|average\s+)?"
                                     + _LOSS_WORD + r"\b(?!\s+(?:spikes?|jumps?|drops?|explosion|nan|curve))[^.?!\n\d(]{0,20}?"
                                     + _NUMBER_ENDS +
                                     r"|\b(?:at (?:step|iteration|iter) 0|before (?:any|the first) (?:update|optimi[sz]er step|"
                                     r"training step)|at initiali[sz]ation)\b,?\s+(?:(?!\b(?:lr|learning rate|steps?|epochs?)\b)"
                                     r"[^.?!\n\d]){0,30}?\b" + _LOSS_WORD + r"\b[^.?!\n\d(]{0,20}?" + _NUMBER_ENDS +
                                     r"|\b" + _LOSS_WORD + r"\b[^.?!\n\d(]{0,20}?" + _NUMBER_ENDS + r"\s+(?:at (?:step|iteration|iter) 0|"
                                     r"before (?:any|the first) update)\b"
                                     # ("loss starts at ~17": the loss's own start, said with its verb)
                                     r"|\b" + _LOSS_WORD + r"\s+(?:starts?|started|begins?|began)\s+(?:at|around|near|from)\s+"
                                     r"(?:~\s*|about\s+|around\s+|roughly\s+)?" + _NUMBER_ENDS +
                                     # (not a count: "the loss starts around 300 steps to go up")
                                     r"(?!\s*(?:steps?|iter\w*|epochs?|batch\w*|updates?|k\b|%|samples?|examples?|images?))")
# (a cross-entropy the paste names, or a classifier; not a regression's or a summed loss, whose start is not ln C; or
# a language model's measure of its cross-entropy, bits per character or perplexity, whose loss it is)
CROSS_ENTROPY_NAMED = lazy_regex.compile(r"(?i)\bcross[- _]?entropy\w*|crossentropy\w*|\bb?ce\b|\bbce\w*|\bnll\w*|\blog[- ]?loss\b|"
                                         r"\bclassif\w+|\bbpc\b|\bbits?[ -]per[ -](?:char\w*|byte|token)|\bperplexit\w*|\bppl\b")


@functools.lru_cache(maxsize=4)      # (asked by the context and by the printed facts of the same text; read only)
def start_far_above_uniform(prose: str, printed_start: float | None = None) -> str:
    """The fact, when the words give the untrained model's loss START_HIGH times ln C or more for the classes the
    paste names -- or, with `printed_start` (the log's first value, at the run's start), the log does; or ""."""
    classes_said, vocabulary = classes_named(prose), vocabulary_named(prose)
    named = classes_said or vocabulary
    # (a class count or else a vocabulary the paste gives, not one a sigmoid's name implies; a cross-entropy, not a sum or a
    # regression -- named, or, for the log's own first value, a language model's: its trainer's loss is one)
    language_model = printed_start is not None and vocabulary is not None and LANGUAGE_MODEL.search(prose)
    if named is None or named[0] < 2 or "sigmoid" in named[1].lower() \
            or not (CROSS_ENTROPY_NAMED.search(prose) or language_model) \
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
            return _far_above(value, f"\"{' '.join(m.group(0).split())}\"", uniform, classes, how)
    # (the log's first value, where the classes are a vocabulary's tokens: a language model's trainer prints the mean
    # cross-entropy per token -- a classifier's log may print a sum over the batch, or another loss)
    # (not the sum of a sequence's per-token losses, n ln V for a sequence length n the paste names: min-char-rnn's
    # `iter 0, loss: 106.566997` is 25 ln 71)
    if printed_start is not None and printed_start >= START_HIGH * uniform and not classes_said \
            and not any(abs(printed_start - n * uniform) <= UNIFORM_NEAR * printed_start for n in _lengths_named(prose)):
        return _far_above(printed_start, "the log's first value", uniform, classes, how)
    return ""


# A sequence's length as a paste names it: `seq_length = 25`, "seq_len 128", "block_size 1024", "ctx_len 512",
# "bptt 35", "sequence length 256"
_LENGTH_NAMED = lazy_regex.compile(r"(?i)(?:\b|_)(?:seq(?:uence)?[_ ]?len(?:gth)?|block_size|ctx_len|context[_ ]length|bptt|"
                                   r"max_(?:seq_)?len(?:gth)?)\b[ \t]*(?:(?:[=:]|is|of)[ \t]*)?(\d{1,6})\b|"
                                   # ("sequences of 35 tokens"; and the Trainer's logged loss, which some versions sum over
                                   # gradient_accumulation_steps: transformers issue 35204)
                                   r"\bsequences?\s+of\s+(\d{1,6})\s+tokens\b|\bgradient_accumulation_steps\s*[=:]\s*(\d{1,4})\b")
# A language model said: its trainer's loss is the mean cross-entropy per token
LANGUAGE_MODEL = lazy_regex.compile(r"(?i)\blanguage[ -]model\w*|\b(?:nano)?gpt\w*|\bllama\w*|\bdecoder[- ]only\b|\bpre-?train\w*|"
                                    r"\bcausal[ _-]?lm\b|\bnext[- ]token\b")


def _lengths_named(prose: str) -> list[int]:
    return [int(n) for m in itertools.islice(_LENGTH_NAMED.finditer(prose), 10) for n in m.groups() if n and int(n) > 1]


def _far_above(value: float, quoted: str, uniform: float, classes: int, how: str) -> str:
    return (f"the report gives the loss before any update as {fmt(value)} ({quoted}), {value / uniform:.2g} times "
            f"ln {classes} = {uniform:.4g}, a uniform guess over the {classes} classes ({how}): an untrained "
            "classifier starts near ln C when its weights are at a standard scale and its inputs at unit "
            "scale; this far above it, its outputs are confidently wrong from the start -- weights drawn too "
            "large, or inputs far from unit scale")


def start_high(ev: Evidence) -> str:
    """The fact of a start far above the untrained model's (start_far_above_uniform) or above the one the words expected
    (start_above_expected), with the log's first value where it is the run's; or ""."""
    printed = run_start_value(ev)
    return start_far_above_uniform(ev.prose, printed) or start_above_expected(ev.prose, printed)


# ... or the start said beside the one the reporter expected, the fresh model's: "the loss starts at 48 instead of
# ~2.3", "it begins at 9.7 instead of about 0.69" -- START_HIGH times it or more, and no regression's or sum's
START_VS_EXPECTED = lazy_regex.compile(r"(?i)\b(?:loss\w*|it|bce|nll|cross[- ]?entropy)\b[^.?!\n\d]{0,30}?\b(?:starts?|started|begins?|"
                                       r"began)\s+(?:at\s+|around\s+|near\s+)?(?:~\s*|about\s+|around\s+)?(?P<start>\d+(?:\.\d+)?)"
                                       r"(?!\d|\.\d)\s+instead\s+of\s+(?:the\s+)?(?:~\s*|about\s+|around\s+|roughly\s+)?"
                                       r"(?P<expected>\d+(?:\.\d+)?)(?!\d|\.\d)")


# (the start of a fresh model, not a resumed, loaded or reference run's: "starts at 4.5 instead of 0.9 where it left off")
EXPECTED_ELSEWHERE = lazy_regex.compile(r"(?i)\b(?:resum\w*|checkpoint\w*|pre-?trained|load\w*|left\s+off|original|old|reference|"
                                        r"paper|repo|tutorial|previous\w*|last\s+time|before\s+the\s+(?:update|upgrade|change))\b")


# ... or only the start they expected ("I expected about 104 at the start (25 * ln 65)"), beside the first value the log
# prints at the run's start: the reporter's own count of what a fresh model scores, a sum of per-token losses included
# when they work it out as one ("25 * ln 65")
EXPECTED_AT_START = lazy_regex.compile(r"(?i)(?:\bexpect\w*\s+(?:a\s+(?:first\s+|initial\s+|starting\s+)?loss\s+of\s+)?"
                                       r"(?:about\s+|around\s+|roughly\s+|~\s*)?(?P<expected>\d+(?:\.\d+)?)(?!\d|\.\d)\s+"
                                       r"(?:at\s+the\s+(?:very\s+)?(?:start|beginning)|(?:at|for|on)\s+the\s+first\s+(?:iteration|step|batch|"
                                       r"epoch)|initially)\b|"
                                       # ("I thought cross-entropy for 10 classes should start around 2.3", "it should begin
                                       # near 0.69": the start they expected, said as what it should be; `should` is None
                                       # in a START_VS_EXPECTED match, which has no such group)
                                       # (of the loss: not "the learning rate should start at 0.0001")
                                       r"\b(?:loss\w*|it|cross[- ]?entropy|nll|bce)\b[^.?!;,\n]{0,40}?"
                                       r"\b(?:should|would|ought\s+to)\s+(?:start|begin)\s+(?:at\s+|around\s+|near\s+)?"
                                       r"(?:about\s+|around\s+|roughly\s+|~\s*)?(?P<should>\d+(?:\.\d+)?)(?!\d|\.\d))")
WORKED_OUT_SUM = lazy_regex.compile(r"\d+\s*[*x\u00d7]\s*(?:ln|log)\b")


def run_start_value(ev: Evidence) -> float | None:
    """The log's first loss value where it is the run's first (at_run_start) and finite, else None."""
    return ev.head[0] if ev.count and math.isfinite(ev.head[0]) and at_run_start(ev) else None


@functools.lru_cache(maxsize=4)      # (asked by the context and by the printed facts of the same text; read only)
def start_above_expected(prose: str, printed_start: float | None = None) -> str:
    """The fact, when the words give the loss a run starts at, START_HIGH times or more the start they say they
    expected (START_VS_EXPECTED), told, in a paste of no regression or summed loss; or, with `printed_start` (the
    log's first value, at the run's start), only the start they expected (EXPECTED_AT_START); or ""."""
    if REGRESSION_SAID.search(prose):
        return ""
    text = told(prose)
    m = START_VS_EXPECTED.search(text) if not SUMMED.search(prose) else None
    if m is None and printed_start is not None and (said := EXPECTED_AT_START.search(text)) \
            and (not SUMMED.search(prose) or WORKED_OUT_SUM.search(text, *sentence_around(text, said.start(), said.end()))):
        m = said
    if not m or EXPECTED_ELSEWHERE.search(text, *sentence_around(text, m.start(), m.end())):
        return ""
    start = float(m.group("start")) if START_VS_EXPECTED.made(m) else printed_start
    expected_said = m.group("expected") or m.groupdict().get("should")
    expected = float(expected_said)
    named = classes_named(prose) or vocabulary_named(prose)     # (the classes where the paste names them)
    # (a start at or below ln C for the classes named is the uniform guess itself, whatever was expected)
    if expected <= 0 or start < START_HIGH * expected or (named and start <= (1 + UNIFORM_NEAR) * math.log(named[0])):
        return ""
    said = (f"the report says the loss starts at {m.group('start')}" if START_VS_EXPECTED.made(m) else
            f"the log's first loss is {fmt(start)}")
    return (f"{said}, {start / expected:.2g} times the {expected_said} it "
            f"expected (\"{' '.join(m.group(0).split())}\"), the fresh model's start: this far above it, its outputs are "
            "confidently wrong from the start -- weights drawn too large, or inputs far from unit scale")


VOCABULARY_MIN = 1000          # a vocabulary, not a class count
# A first loss the words give ("the very first loss is 10.37", "Initial loss 2.3026", "loss is 2.3026 at step 0").
FIRST_LOSS_SAID = lazy_regex.compile(r"(?i)\b(?:(?:very )?first|initial|starting)\b[^.?!\n]{0,30}?\bloss(?:es)?\b[^.?!\n\d]{0,15}?"
                                     r"(\d+\.\d+)|\bloss (?:(?:is|was|of) )?(\d+\.\d+) at (?:(?:step|iteration|iter) [01]|epoch 0)\b|"
                                     r"\bloss (?:starts|started|begins|began) (?:at|around|near) (\d+\.\d+)|"
                                     # ("the loss at step 0 is 10.98")
                                     r"\bloss (?:at|on) (?:(?:step|iteration|iter) [01]|epoch 0)\b[^.?!\n\d]{0,10}?(\d+\.\d+)")
# ... and a later loss the words give ("after 500 epochs it's 1.0852", "still 2.30 after 20 epochs"): near the first
# (within PLATEAU_FALL of it), the run stayed where it started -- ln C is where a healthy run starts, not where it stays
LATER_LOSS_SAID = lazy_regex.compile(r"(?i)\bafter\s+\d[\d,]*\s+(?:epochs?|steps?|iterations?|iters?|batches|updates)\b"
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
PRETRAINED = lazy_regex.compile(r"(?i)\b\w*(?:model|lm|net)\w*\.from_pretrained\(|\bfine-?tun\w*|\bpre-?trained (?:model|weights|"
                                r"checkpoint)|\blora\b|\bpeft\b")
FROM_SCRATCH = lazy_regex.compile(r"(?i)\bfrom scratch\b|\bpre-?training\b|\brandom(?:ly)? init\w*")
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


# The loss said to jump to several times its start within the first steps, WR-250's face, with both numbers: "the MSE
# starts at 0.38, shoots up to about 1.9 within the first ~20 steps"
EARLY_JUMP = lazy_regex.compile(
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
JUMP_ASKED = lazy_regex.compile(r"(?i)^\s*(?:does|do|did|is|are|was|should|can|could|would|will|might|may)\b|\b(?:if|whether)\b")
JUMP_NOT_SEEN = lazy_regex.compile(r"(?i)\b(?:not|never|didn't|doesn't|don't|isn't|wasn't|paper|tutorial|expected|supposed|"
                                   r"should|usually|normally)\b")


def _warmup_missing_can_show(prose: str) -> bool:
    """Can an early jump the words tell be a missing warmup's face here? Not under plain SGD, nor beside a warmup the
    paste names."""
    return not plain_sgd_only(prose) and not (WARMUP_NAMED.search(prose) and not NO_WARMUP.search(prose))


@functools.lru_cache(maxsize=4)      # (asked by the context and by the printed facts of the same text; read only)
def early_jump_said(prose: str) -> str:
    """The words that say the loss jumped to EARLY_JUMP_TIMES its start or more within the first steps; or ""."""
    if not _warmup_missing_can_show(prose):
        return ""
    text = told(prose)
    for m in itertools.islice(EARLY_JUMP.finditer(text), 5):
        start, top = float(m.group(1)), float(m.group(2))
        sentence = text[slice(*sentence_around(text, m.start(), m.end(), stops=".;\n"))]
        if 0 < start and top >= EARLY_JUMP_TIMES * start and not JUMP_NOT_SEEN.search(sentence) \
                and not (sentence.rstrip().endswith("?") and JUMP_ASKED.search(sentence)):
            return " ".join(m.group(0).split())
    return ""


# ... or said with no number for its start, where the same sentence says it came back down: a jump in the first steps
# that recovers, WR-250's face, not a divergence ("in the first few dozen steps the loss jumps up to around 15 before it
# slowly comes back down")
EARLY_STEPS = lazy_regex.compile(r"(?i)\b(?:within|in|during|over|for)\s+the\s+(?:very\s+)?(?:first|initial)\s+(?:~\s*|about\s+)?"
                                 r"(?:\d+k?\s+(?:or\s+so\s+)?|few\s+(?:dozen\s+|hundred\s+)?|couple\s+(?:of\s+)?(?:dozen\s+)?|dozen\s+(?:or\s+so\s+)?|"
                                 r"handful\s+of\s+)?(?:steps?|iterations?|iters?|updates?|"
                                 r"batches)\b|(?<!was )(?<!were )(?<!is )(?<!than )(?<!as )(?<!from )(?<!of )"
                                 # (the run's start, not each epoch's: "at the start of every epoch the loss doubles")
                                 r"\bat\s+the\s+(?:very\s+)?(?:start|beginning)\b(?!\s+of\s+(?:each|every|an?|the\s+next|a\s+new)\s+"
                                 # (a word may qualify the epoch: "each training epoch", "every new epoch")
                                 r"(?:[\w-]+\s+)?(?:epoch|batch|episode|shard|file|cycle))")
JUMPED_UP = lazy_regex.compile(r"(?i)\b(?:loss|mse|mae|nll|ppl|perplexity|cost)\b(?:(?!\b(?:acc\w*|lr|learning rate|reward|return|"
                               r"norm)\b)[^.;\n]){0,30}?\b(?:(?:shoots?|shot|jumps?|jumped|spikes?|spiked|blows?|blew)\s+(?:way\s+|far\s+)?(?:up|above)\b|"
                               # ("nearly quadruples", "more than doubles"; "rises from about 3 to over 8", the second
                               # number EARLY_JUMP_TIMES the first or more: checked where it is read)
                               r"(?:roughly\s+|about\s+|nearly\s+|more\s+than\s+)?(?:doubles|doubled|triples|tripled|quadruples|quadrupled)\b|"
                               r"(?:goes|went|rises?|rose|climbs?|climbed|jumps?|jumped|shoots?|shot|spikes?|spiked|increases?|increased)"
                               r"\s+from\s+(?:about\s+|around\s+|~\s*)?(?P<a>\d+(?:\.\d+)?|\.\d+)\s+to\s+"
                               r"(?:more\s+than\s+|over\s+|about\s+|around\s+|almost\s+|~\s*)?(?P<b>\d+(?:\.\d+)?|\.\d+)(?![\w.]))")
CAME_BACK = lazy_regex.compile(r"(?i)\b(?:comes?|came|goes|went|drops?|dropped|falls?|fell|settles?|settled)\s+(?:slowly\s+)?"
                               r"(?:back\s+)?down\b|\brecover(?:s|ed|ing)?\b|\bback\s+down\b")


@functools.lru_cache(maxsize=4)      # (asked by the context, the printed facts and the normals of the same text)
def early_jump_back_said(prose: str) -> str:
    """The sentence that says the loss jumped up within the first steps and came back down (with no number for its
    start: early_jump_said reads the one with both); or ""."""
    if not _warmup_missing_can_show(prose):
        return ""
    text = told(prose)
    for m in itertools.islice(JUMPED_UP.finditer(text), 5):
        if m.group("a") and not float(m.group("b")) >= EARLY_JUMP_TIMES * float(m.group("a")) > 0:
            continue
        sentence = text[slice(*sentence_around(text, m.start(), m.end(), stops=".;\n"))]
        back = CAME_BACK.search(sentence)
        # (a negation read up to the fall back: what the sentence goes on to say of the run after it is another
        # matter, "..., but thousands of steps later it is still behind and not catching up")
        if EARLY_STEPS.search(sentence) and back and not JUMP_NOT_SEEN.search(sentence, 0, back.end()) \
                and not (sentence.rstrip().endswith("?") and JUMP_ASKED.search(sentence)):
            return " ".join(sentence.split())
    return ""



class EarlyJump(NamedTuple):
    words: str          # the words that say it, as written (lowercased)
    back_down: bool     # said to come back down, with no number for its start (early_jump_back_said)


def early_jump_seen(prose: str) -> EarlyJump | None:
    """The words that say the loss jumped within the first steps: to EARLY_JUMP_TIMES its start or more
    (early_jump_said), or up and back down (early_jump_back_said); or None."""
    if jump := early_jump_said(prose):
        return EarlyJump(jump, back_down=False)
    if jump := early_jump_back_said(prose):
        return EarlyJump(jump, back_down=True)
    return None


# A regression's first loss said in words, in any notation ("the MSE starts at 3.1e7", "initial loss was 2.4e+09")
REGRESSION_START_SAID = lazy_regex.compile(
    r"(?i)\b(?:loss|mse|mae|rmse|squared error)\b[^.;\n]{0,20}?\b(?:starts?|started|begins?|began)\s+(?:at|around|from)\s+"
    r"(?:about\s+|around\s+|~\s*)?(\d{1,12}(?:\.\d{1,12})?(?:e\+?\d{1,3})?)(?!\w|\.\d)|"
    r"\b(?:initial|first|starting)\s+(?:training\s+)?(?:loss|mse|mae|rmse)\s*(?:is|was|of|:|=)\s*(?:about\s+|~\s*)?"
    r"(\d{1,12}(?:\.\d{1,12})?(?:e\+?\d{1,3})?)(?!\w|\.\d)|"
    # (or in number words, from the start: "the loss is about a billion from the first epoch on", "the MSE starts in the
    # millions")
    r"\b(?:loss|mse|mae|rmse|squared error)\b[^.;\n\d]{0,20}?\b(?:is|was|sits|stays|stayed|starts?|started|begins?|began)\s+"
    r"(?:at\s+|in\s+)?(?:about\s+|around\s+|roughly\s+|~\s*)?(?:(a|one|\d{1,3}(?:\.\d{1,3})?)\s+(million|billion|trillion)\b"
    r"(?!\s+times\b)|the\s+(?:(?P<many>tens|hundreds)\s+of\s+)?(millions|billions|trillions)\b)")
NUMBER_WORDS_SCALE = {"million": 1e6, "billion": 1e9, "trillion": 1e12}


def regression_start_said(prose: str) -> tuple[float, str] | None:
    """The first loss the words give, when it is ENORMOUS_START or more and told (not asked, planned or denied)."""
    text = told(prose)
    for m in itertools.islice(REGRESSION_START_SAID.finditer(text), 5):
        if m.group(4):
            value = (1.0 if m.group(3) in ("a", "one") else float(m.group(3))) * NUMBER_WORDS_SCALE[m.group(4).lower()]
        elif m.group(6):
            # ("in the tens of millions": ten of them at the least)
            value = NUMBER_WORDS_SCALE[m.group(6).lower()[:-1]] * {"tens": 10, "hundreds": 100}.get(
                (m.group("many") or "").lower(), 1)
        else:
            value = float(m.group(1) or m.group(2))
        sentence = text[slice(*sentence_around(text, m.start(), m.end(), stops=".;\n"))]
        # (the words must say it did not learn, or that the loss is still enormous later in the same sentence: a
        # regression in dollars may start at 4e10 and learn; and not another run's number, "in the tutorial")
        # (in digits, or in number words: "still in the millions")
        # (in digits, or in number words right after "still" with no noun after them: not "still a million rows")
        after = text[m.end():m.end() + 120]
        still = re.search(r"\bstill\s+(?:(?:at|in|around|about|over|above)\s+)?(?:the\s+)?(?:~\s?)?(?:(?:a|one|\d+)\s+)?"
                          r"(million|billion|trillion)s?\b(?!\s+(?!after|at|by|when|and|or|but|in|on|of)[a-z])", after) \
            or re.search(r"\bstill\b[^.;\n]{0,20}?(\d+(?:\.\d+)?(?:e\+?\d{1,3})?)(?!\w|\.\d)", after)
        if value >= ENORMOUS_START and not doubted(text, m.start()) \
                and not re.search(r"\b(?:not|never)\b|n't\b", m.group(0)) and not JUMP_NOT_SEEN.search(sentence) \
                and not re.search(r"(?i)\b(?:tutorial|example|their|copied)\b", sentence) \
                and (says_not_learning(prose) or (still and (not still.group(1)[0].isdigit()
                                                             or float(still.group(1)) >= ENORMOUS_START))):
            return value, " ".join(m.group(0).split())
    return None
