"""Plain words: what a report says in sentences, matched against what entries say about themselves.

Most people who ask for help paste a sentence, a traceback and a few lines, not
a clean log. Its words are folded into tokens first (thesaurus.py, with the
timing words of timing_words.py), and read a sentence at a time
(sentences.py). This module reads them further:

- **similarity**: each entry is a document made of its title, summary,
  phrases, declared messages and Symptom and Where-it-shows-up sections; the
  report is scored against each with Okapi BM25 (Robertson and Zaragoza, 2009).
  The catalogue is tens of documents, so the formula is computed here directly
  (see docs/diagnose.md for the comparison with rank_bm25 that chose this);
- **things that are normal**: questions about behaviour that is expected (a
  negative log-likelihood, a skipped step under dynamic loss scaling, a gap
  between training and validation loss, spikes in a falling curve) are
  answered as such rather than matched to a failure.
"""
from __future__ import annotations

import functools
import itertools
import math
import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

from .entry import Entry
from .sentences import denied_before, negated, said_unnegated, sentences_and_ends, told
from .thesaurus import fold_text, tokens_many, tokens_of_folded
from .timing_words import TIMING


def half_precision_denied(text: str, words: list[str] | None = None) -> bool:
    """Do the words name half precision only to say it is not used ("not using fp16", "fp16=False")? (`words`: the
    text's tokens, when the caller has them already)"""
    folded = fold_text(text)
    return re.search(r"\bfp16\b", folded) is not None and "fp16" not in (
        tokens_of_folded(folded) if words is None else words)


# Half precision shown switched on, in words or code a reader can quote back: a flag, a mode, a scaler, a cast.
# Not a bare "half" ("the second half of training"), "O1" or "16-bit" alone, and not bfloat16, whose range is
# float32's (it does not overflow where float16 does).
# (Apex's, fairseq's and DeepSpeed's scalers name themselves in what they print)
SCALER_SHOWN = re.compile(r"(?i)gradient overflow|skipping step|loss scale|overflow! rank|scaler")
HALF_SHOWN = re.compile(r"(?i)(?<![\w-])(?:--)?(?:fp16|float16|half[- ]precision|mixed[- ]precision|autocast"
                        r"|grad[ _-]?scaler|loss[ _-]?scal(?:e|er|ing)|precision[ =:\"']{1,4}16(?:-mixed)?"
                        r"|opt_level[ =:\"']{1,4}O[123])(?![\w-])|\.half\(\)"
                        # (amp as its acronym or an API, not a column or a variable called amp)
                        r"|(?<![\w-])(?-i:AMP)(?![\w-])|(?:torch\.(?:cuda\.)?|apex\.)amp\b|(?<![\w-])(?:--|use_)amp\b"
                        r"|\bamp\s*=\s*True\b")
# bfloat16 has float32's range: a report that names it, and no float16 as such, computes in no half that overflows
BF16_ONLY = re.compile(r"(?i)\b(?:bf16|bfloat16)\b")
FP16_NAMED = re.compile(r"(?i)(?<![\w-])(?:fp16|float16|\.half\(\))|(?<![\w-])--fp16\b")


def bf16_only(text: str) -> bool:
    """Does the text name bfloat16 and no float16 as such? (Its half precision has float32's range.)"""
    return bool(BF16_ONLY.search(text)) and not FP16_NAMED.search(text)


def half_precision_shown(text: str, words: list[str]) -> str:
    """What in the report shows half precision switched on (quoted as written), or "" -- also when its words
    name it only to deny it (`words`: the text's tokens, whose fp16 a negator has already dropped)."""
    if "fp16" not in words or bf16_only(text):
        return ""
    m = HALF_SHOWN.search(text)
    return " ".join(m.group(0).split()) if m else ""


# Words that say something went wrong. A report with none of them (and no message, and no
# broken curve) asks about a run that may be fine: it gets no failure candidates. Tokens of the
# thesaurus match whole; the other words by their start, so collapsed, crashing and failed count.
FAILURE_WORDS = frozenset("nan inf diverge climb overflow underflow negative divzero sigmoidzero".split())
FAILURE_ROOTS = ("error", "exception", "explod", "crash", "collaps", "stuck", "plateau", "fail", "broke",
                 "garbage", "terminat", "abort")
# A jump the loss never came back from ("jumps to 2600 and never goes back down", "never recovers", "it never gets back
# to 0.03"): back, down or to where it was -- not "does not go back up", a loss that stayed low, nor "back to the initial
# value"; nor "I didn't go back to the old rate", a change the reporter did not make
NEVER_RECOVERED = re.compile(
    r"(?<!\bi )(?<!\bwe )\b(?:won'?t|doesn'?t|does not|didn'?t|did not|never|not) (?:go(?:es)?|went|come|comes|"
    r"came|gets?|got) back\b(?!\s+(?:up|to (?:the )?(?:initial|start\w*|beginning|old|previous version)|to this))"
    r"|\b(?:won'?t|doesn'?t|does not|didn'?t|did not|never) recover\w*")
# ... said of this run's loss: not in a condition, a fear or a plan ("if it doesn't come back I'll lower the lr", "I'm
# worried it won't recover"), not of a metric or another run ("the accuracy never went back below 90%", "in my second
# run the spikes never came back"), nor of what stayed away (a spike, a nan, "back below" a bound)
NOT_THE_LOSS_RECOVERING = re.compile(r"\b(?:if|unless|worried|afraid|fear|might|may|will|would|could|should|hope)\b|'ll\b|"
                                     r"\b(?:acc\w*|val(?:idation)?|val_\w+|f1|iou|auc|bleu|reward\w*|returns?|metric\w*|score)\b|"
                                     r"\b(?:second|other|another|next|new|previous|first) run\b|\bwith clipping\b|"
                                     r"\b(?:spikes?|nans?|infs?|problem|issue|error)\s+(?:(?:have|has|had)\s+)?(?:never|not|"
                                     r"didn'?t|don'?t|won'?t|doesn'?t)\b|\bback (?:below|above|under|over)\b")


def never_recovered_said(prose: str) -> str:
    """The words that this run's loss never came back from a jump (NEVER_RECOVERED), in a sentence that tells it of the
    loss (NOT_THE_LOSS_RECOVERING), as written (lowercased); or ""."""
    for sentence, end in sentences_and_ends(told(prose)):
        m = NEVER_RECOVERED.search(sentence)
        if m and end != "?" and not NOT_THE_LOSS_RECOVERING.search(sentence):
            return m.group(0)
    return ""


STUCK = re.compile(r"(?:won'?t|doesn'?t|does not|do not|don'?t|didn'?t|did not|never|not|no longer|stop(?:s|ped)?)"
                    r" (?:go(?:ing)? down|decreas\w*|improv\w*|learn\w*|converg\w*|drop\w*)"
                    r"|(?:all|always|stays?|stayed|remains?|remained|stuck at) (?:the )?(?:same|constant)"
                    r"|\balways (?:equals?|equal to|gives?|outputs?|predicts?)\b"
                    r"|\b(?:training|run|process) (?:stops|stopped|dies|died|hangs)\b|\bstops? training\b|"
                    + NEVER_RECOVERED.pattern)


# Words that a run does not learn ("doesn't learn at all", "accuracy stuck at 10%", "the loss plateaus"), said as a
# statement of this run now: not in a question ("is it stuck?"), of the past ("I was stuck on this for days"), of
# the validation or test scores, of a speed ("not decreasing as fast as in the paper"), nor a run that hangs.
NOT_LEARNING = re.compile(r"(?:won'?t|doesn'?t|does not|do not|don'?t|didn'?t|did not|never|not|no longer|stopped|stops)\s+"
                          r"(?:go(?:ing)? down|decreas\w*|improv\w*|learn\w*|converg\w*|drop\w*|"
                          # (the loss's moving, not a tensor's: "I did not move the model to the GPU")
                          r"mov(?:e|es|ed|ing)\b(?!\s+(?:the|my|it|them|this|that|to|onto|data|model|tensors?|"
                          r"everything|anything)\b))\b"
                          r"(?!\s+(?:as|so)\s+(?:fast|quickly|much|well))|"
                          r"(?<!was )(?<!were )(?<!been )\b(?:stuck|plateau\w*|flat ?lines?|never learns?)\b|"
                          # (a value it keeps for a long stretch: "then it just sits at 1.3520 until epoch 500")
                          r"\b(?:sits?|sat|sitting)\s+at\s+(?:~\s?)?\d+(?:\.\d+)?\s+(?:until|till|for|through)\b|"
                          # (or keeps where it got to: "drops to ~1.60 and then sits there for 40 epochs")
                          r"\b(?:sits?|sat|sitting|stays?|stayed|staying)\s+there\s+(?:for|until|till|through)\b|"
                          # (a model that gives one answer whatever it is shown: "it predicts dandelion for every
                          # image", "predicts the same class for all inputs")
                          r"\bpredict(?:s|ed|ing)?\s+(?:[\w'\"-]+\s+){0,3}?(?:for|on)\s+(?:every|each|all)\s+(?:the\s+|single\s+)?"
                          r"(?:images?|inputs?|samples?|examples?|photos?|pictures?|rows?|instances?|sentences?|"
                          r"tokens?)\b|"
                          r"\b(?:barely|hardly)\s+(?:learn\w*|improv\w*|decreas\w*|mov\w*|chang\w*|go(?:es)? down)\b|"
                          # (an accuracy that falls short: "only reaches ~35% on MNIST", "only gets 60 %")
                          r"\bonly\s+(?:reach|get|hit|achiev)\w*\s+(?:about\s+|around\s+|~\s?)?\d{1,2}(?:\.\d+)?\s?%|"
                          # (or an accuracy that stops short: "stops at ~44% accuracy", "tops out at 61%")
                          r"\b(?:stops?|stopped|stalls?|stalled|tops?\s+out|topped\s+out|maxes\s+out|maxed\s+out)\s+at\s+"
                          r"(?:about\s+|around\s+|~\s?)?\d{1,2}(?:\.\d+)?\s?%", re.I)
# ... and in the languages reports come in most after English: "não aprende", "no converge", "n'apprend pas", "lernt
# nicht", "non scende", "не обучается", "不收敛", "学習しない", "학습이 안 돼", "öğrenmiyor", "không hội tụ"
NOT_LEARNING_FOREIGN = re.compile(
    r"(?i)\b(?:não|nao)\s+(?:está\s+|esta\s+)?(?:aprende\w*|converge\w*|diminui\w*|cai|caindo|desce|melhora\w*)\b|"
    r"\bno\s+(?:está\s+|esta\s+)?(?:aprende|aprendiendo|converge|baja|bajando|disminuye|mejora)\b|"
    r"\bnon\s+(?:sta\s+)?(?:impara|imparando|converge|scende|diminuisce|migliora)\b|"
    r"\bse\s+estanc\w*|\bestancad\w*|\bstagna(?:no|nte|ting|tes)?\b(?<!stagnation)|\bristagn\w*|"
    r"\bn'(?:apprend|converge|diminue|baisse)\w*\s+pas\b|\bne\s+(?:converge|diminue|baisse)\w*\s+pas\b|"
    r"\b(?:lernt|konvergiert|sinkt|fällt)\s+nicht\b|"
    r"(?<!\w)не\s+(?:обуча\w*|уч\w*|сход\w*|пада\w*|уменьша\w*|снижа\w*)|(?<!\w)застр\w*|"
    r"不收敛|不收斂|不下降|降不下去|学不到|不学习|不學習|卡在|学習しない|学習が進まない|収束しない|下がらない|"
    r"학습이\s*(?:안|되지)|수렴하지\s*않|(?:안|않)\s*떨어|떨어지지\s*않|"
    r"\b(?:öğrenmiyor|düşmüyor|yakınsamıyor)\b|\bkhông\s+(?:học|hội tụ|giảm)")
# (val_loss, val_acc, valid, validation: not "value", which `val\w*` took -- "the same value for 270 epochs")
NOT_THIS_RUN = re.compile(r"\b(?:val(?:_\w+)?|valid(?:ation)?(?:_\w+)?|test|eval\w*)\b", re.I)


# A line a paragraph was wrapped at: it ends in a word or a comma, and the next goes on in lower case or with a number
# ("... and then it just sits at\n1.3520 until epoch 500")
WRAPPED = re.compile(r"(?<=[\w,])[ \t]*\n(?=[a-z0-9])")


def says_not_learning(text: str) -> bool:
    """Does the text state that the run does not learn (NOT_LEARNING), outside questions and validation scores?
    (A paragraph's wrapped lines are one sentence here.)"""
    return any(end != "?" and any(not NOT_THIS_RUN.search(_clause_of(sentence, m))
                                  for pattern in (NOT_LEARNING, NOT_LEARNING_FOREIGN)
                                  for m in itertools.islice(pattern.finditer(sentence), 10))
               for sentence, end in sentences_and_ends(WRAPPED.sub(" ", text)))


def _clause_of(sentence: str, m: re.Match) -> str:
    """The clause of the sentence that holds the match, between commas or semicolons: "the loss ... completely stops
    moving at ~1.92, val acc stuck at 32%" says the training loss stopped, whatever the validation score does."""
    start = max(sentence.rfind(",", 0, m.start()), sentence.rfind(";", 0, m.start())) + 1
    ends = [i for i in (sentence.find(",", m.end()), sentence.find(";", m.end())) if i >= 0]
    return sentence[start:min(ends) if ends else len(sentence)]


# A model's output said to be nan or inf in a report that names no training at all (no loss, epoch, step, optimizer,
# gradient, learning rate) nor a trained model (pretrained, a checkpoint, inference), nor a nan that comes and goes:
# a forward pass of a model that has not been trained, so the failure is there before the first update ("all NaNs
# as output" after swapping a layer in). When the words say nothing else of when, that is when. (Not an op's output:
# a softmax's or an attention's nan names its own mechanism.)
OUTPUT_NONFINITE = re.compile(r"(?<!softmax )(?<!sigmoid )(?<!attention )(?<!exp )(?<!log )(?<!norm )"
                              r"\b(?:outputs?|predictions?|logits|activations?)\b(?:[^.;!?\n]|\.(?=\w)){0,60}?"
                              r"\b(?:nan|inf)s?\b|\b(?:nan|inf)s?\b[^.;!?\n]{0,20}?\b(?:as|in the|for the|in its) "
                              r"(?:outputs?|predictions?|logits)\b", re.I)
TRAINING_NAMED = re.compile(r"\b(?:train\w*|pre-?train\w*|epochs?|iter\w*|steps?|loss\w*|learn\w*|lr|optimi[sz]\w*"
                            r"|fit\w*|converg\w*|backward|backprop\w*|gradients?|grads?|updates?|checkpoints?|ckpt"
                            r"|inference|fine-?tun\w*|batch\w*"
                            # (a nan that comes and goes comes from what changes: the batches, the steps)
                            r"|sometimes|occasionally|frequently|often|randomly|intermittent\w*|at times)\b", re.I)


# ... or said outright to be so before any training, in a report that trains too: "even model.predict(X[:5]) before
# training returns nan", "before the first update the outputs are already nan". Not "before the first epoch finishes"
# (that is during it), and not across a contrast or a later time ("before training they are fine, but later nan",
# "... become nan after epoch 2").
_UNTRAINED = r"before (?:any )?(?:training|fit(?:ting)?|the first (?:update|step)|updating)\b"
_OUTPUT = r"\b(?:predict\w*|outputs?|forward(?: pass)?|logits)\b"
_CALM = r"(?:(?!\b(?:but|after|later|then|finite|fine|ok|okay|normal|and)\b)(?:[^.;!?\n,]|\.(?=\w)))"
_NAN_NOW = r"\b(?:nan|inf)s?\b(?!\s+(?:only\s+)?(?:after|from|since)\b)"
BEFORE_TRAINING_NONFINITE = re.compile(
    _OUTPUT + _CALM + r"{0,40}?\b" + _UNTRAINED + _CALM + r"{0,25}?" + _NAN_NOW
    + r"|\b" + _UNTRAINED + r",?\s+" + _CALM + r"{0,30}?" + _OUTPUT + _CALM + r"{0,25}?" + _NAN_NOW, re.I)


@functools.lru_cache(maxsize=4)        # (asked by the facts, the context and the deciding question of one report)
def untrained_output_nonfinite(text: str) -> str:
    """The words that say an untrained model's output is nan or inf (OUTPUT_NONFINITE in a report that names no
    training, BEFORE_TRAINING_NONFINITE in any), or ""."""
    said = OUTPUT_NONFINITE.search(text)
    if said is None or TRAINING_NAMED.search(text) or not said_unnegated(said.group(0), {"nan", "inf"}):
        said = BEFORE_TRAINING_NONFINITE.search(text)
        if said is None or not said_unnegated(said.group(0), {"nan", "inf"}):
            return ""
    return " ".join(said.group(0).split())


# ... or said to be enormous before any training: "I printed the logits of the very first batch before calling fit: their
# absolute values are around 1e9", "at initialisation the activations of the last layer are in the millions". A forward
# pass no update has touched is that large because of what it starts from (weights drawn too wide, inputs on their raw
# scale), not because of the learning rate. (A number of 1e4 or more, or words of that size; not "large".)
_UNTRAINED_WIDE = (r"(?:before (?:any )?(?:training|(?:calling\s+)?(?:model\.)?fit(?:ting|\(\))?|the first (?:update|step|epoch)|"
                   r"updating)|at init(?:iali[sz]ation)?|(?:of|for|on) the (?:very )?first (?:batch|forward pass))\b")
_ENORMOUS = (r"(?:\b\d+(?:\.\d+)?e\+?0*(?:[4-9]|[1-9]\d)\b|\b10\^\d{1,3}\b|\b(?:millions|billions|trillions|huge|enormous|"
             r"astronomical|gigantic)\b)")
BEFORE_TRAINING_ENORMOUS = re.compile(
    r"\b(?:outputs?|logits|activations?|predictions?)\b" + _CALM + r"{0,40}?\b" + _UNTRAINED_WIDE + _CALM + r"{0,60}?"
    + _ENORMOUS + r"|\b" + _UNTRAINED_WIDE + r",?\s+" + _CALM + r"{0,40}?\b(?:outputs?|logits|activations?|predictions?)\b"
    + _CALM + r"{0,40}?" + _ENORMOUS, re.I)


def untrained_output_enormous(text: str) -> str:
    """The words that say an untrained model's output is enormous (BEFORE_TRAINING_ENORMOUS), not denied, or ""."""
    for m in itertools.islice(BEFORE_TRAINING_ENORMOUS.finditer(text), 5):
        if not re.search(r"(?i)\b(?:not|no|never|nor)\b|n't\b", m.group(0)) and not denied_before(text, m.start(), 20):
            return " ".join(m.group(0).split())
    return ""


# Words that the loss fell, or the run trained well, before it broke.
FELL_SAID = re.compile(r"\b(?:goes|went|going|came|comes)\s+down\b|\bdecreas\w*|\bfalling\b|\bfell\b|"
                       r"\btrain\w*\s+(?:well|fine|nicely|normally|great)\b|\b(?:fine|well|nicely|normally)\s+for\b",
                       re.I)


# A clause that describes a changed run, not this one: "if I drop the long sentences it trains fine", "with lr 1e-4 it
# trains fine", "when I remove the augmentation it works", "in fp32 it trains fine" (not "after warmup the loss goes
# down", "at first it decreases": this run)
CHANGED_RUN = re.compile(r"(?i)^\s*(?:but\s+|and\s+)?(?:(?:if|unless|whenever)\b|(?:when|once|with|without|using|after)\s+"
                         r"(?:i|we|you)\b|with(?:out)?\s+(?:a\s+|the\s+)?(?:lower|smaller|higher|bigger|different|other|old|"
                         r"new|lr|fp32|fp16|bf16|amp|float32)\b|(?:in|on)\s+(?:fp32|fp16|bf16|float32|cpu|gpu|tf|tensorflow|"
                         r"pytorch|keras|jax)\b|last\s+(?:week|time|month))")
# ... and a fall that is not the loss's: "I decreased the batch size", "the accuracy goes down" (a clause that names the
# loss is the loss's)
NOT_THE_LOSS = re.compile(r"\b(?:i|we|you)\s+(?:\w+\s+)?$|\b(?:accuracy|acc|auc|f1|score|iou|dice|lr|learning rate|"
                          r"batch size|memory|speed|throughput|gradients?|grad norm)\b", re.I)
def fell_then_broke(text: str, words: list[str]) -> bool:
    """Do the words tell the shape of a loss that fell (or a run that trained well) and then went nan or inf, and
    nowhere that it climbed or blew up ("goes down nicely for 11 epochs, and then in epoch 12 it prints nan")? The fall
    is said before a nan, of this run (not a changed one's, CHANGED_RUN) and of the loss (not NOT_THE_LOSS)."""
    if not {"nan", "inf"} & set(words) or {"climb", "diverge"} & set(words) \
            or re.search(r"(?i)\bspikes?\b|\bspiked\b|\bshoots? up\b|\bshot up\b", text):
        return False
    # (the last nan found once: a fall after it is said of no nan)
    last_nan = max((n.start() for n in re.finditer(r"(?i)\b(?:nan|inf|infinity)\b", text)), default=-1)
    for m in FELL_SAID.finditer(text):
        if m.end() > last_nan:
            break
        # (the clause is the text since the last stop, colon or comma before the fall; bounded, so many falls in a long
        # text each look back a little way only)
        window = text[max(0, m.start() - 200):m.start()]
        clause = window[max(window.rfind(c) for c in ".;:!?\n,") + 1:]
        if CHANGED_RUN.search(clause) or (NOT_THE_LOSS.search(clause) and not re.search(r"(?i)\bloss", clause)):
            continue
        return True
    return False


def says_failure(text: str, ignore: frozenset = frozenset()) -> bool:
    """Does the report say anything went wrong (not only ask whether it did, or say it did not:
    "nothing overflowed", "no nan")? Words in `ignore` (folded) are not counted."""
    text = fold_text(text)
    words = re.findall(r"[a-z_']+", text)
    for i, word in enumerate(words):
        if word in ignore:
            continue
        if (word in FAILURE_WORDS or word.startswith(FAILURE_ROOTS)) and not negated(words, i):
            return True
    return bool(STUCK.search(text))


# ---- what the report says about its loss and what was tried ----------------------------------

# Losses that cannot go below zero when the targets are valid (cross-entropy, BCE, an overlap loss
# 1 - Dice, a squared error), against likelihoods of continuous data, which can. A bare "NLL" is
# either (PyTorch's NLLLoss is cross-entropy on log-probabilities), so it decides nothing.
BOUNDED_LOSS = re.compile(r"\b(?:b?ce(?:loss\w*)?|bce_?with_?logits\w*|binary[ _-]?cross[ _-]?entropy|(?:sparse[ _-]?|categorical[ _-]?)*"
                          r"cross[ _-]?entropy\w*|crossentropy\w*|dice\w*|iou\w*|jaccard\w*|focal\w*|mse\w*|mean[ _-]"
                          r"squared|l1[ _-]?loss|smooth[ _-]?l1\w*|huber\w*|hinge\w*|softmax\w*)\b", re.I)
LIKELIHOOD = re.compile(r"likelihood|log[ _-]?prob|\blog[ _-]?p\b|densit(?:y|ies)|\bflows?\b|\belbo\b|gaussian|mixture"
                        # (and a Wasserstein critic's, negative by construction; not a WGAN switched away from)
                        r"|variational|\bkl\b|(?<!from )(?<!instead of )(?<!not a )(?<!not )(?<!not using )(?<!no )"
                        r"(?<!don't use )(?<!do not use )(?<!without )(?<!non-)"
                        r"\bwgan\w*|(?<!from )(?<!not )wasserstein", re.I)
# An overlap score is in [0, 1] whatever the model predicts, as long as the targets are: a Dice or
# IoU printed outside that range means the targets are not (a 0/255 mask gives a Dice above 1).
# (not a loss named for the score, `iou_loss = 1.2398`, `dice_coef_loss: 1.07`, "dice coefficient loss": a GIoU loss
# reaches 2 and a CIoU loss more, and a Dice loss is 1 minus the score)
SCORE = re.compile(r"\b(?:dice|iou|jaccard|dsc)(?![a-z_ ]{0,16}loss)[a-z_ ]{0,20}?[:=\s-]\s*(-?\d+(?:\.\d+)?(?:e[-+]?\d+)?)"
                   r"(?![\d.%])", re.I)


# A loss written as minus an overlap score (`return -(2 * inter + s) / (...)`, `bce - dice_coef`): below zero by design,
# whatever the targets; not one minus it (`1 - dice`), which stays at or above zero.
# (one run of blanks between the minus and what it negates: two, around an optional bracket, backtrack over a long run
# of spaces quadratically)
MINUS_SCORE = re.compile(r"(?<![\d.])(?<![\d.] )-[ \t]*(?:\([ \t]*)?(?:\d+(?:\.\d*)?[ \t]*\*[ \t]*)?"
                         r"(?:dice|iou|jaccard|inter(?:section)?)\w*", re.I)


# The loss the pasted code builds as the one it trains on, as PyTorch, Keras and optax spell it: assigned to a name
# that says so (`criterion = nn.GaussianNLLLoss()`, `loss_fn = keras.losses.BinaryCrossentropy(`, `loss =
# F.mse_loss(`), or compiled (`loss="binary_crossentropy"`) -- what this run computes, before a loss named in the words:
# a report may quote what another loss does ("someone said a negative cross-entropy means bad labels"). Not a loss
# built as a metric (`mae_fn = nn.L1Loss()`), nor one in a comment; where two disagree, the words decide.
LOSS_BUILT = re.compile(r"(?im)^[ \t]*(?:self\.)?(?:crit\w{0,20}|\w{0,20}loss\w{0,20}|objective)[ \t]*=[ \t]*"
                        r"(?:torch\.)?(?:nn|F|functional|(?:keras\.|tf\.keras\.)?losses|optax)\.(\w+)[ \t]*\(|"
                        r"\bcompile\([^\n]*?\bloss[ \t]*=[ \t]*['\"](\w+)['\"]")


def loss_kind(text: str) -> str:
    """"bounded" (a loss that cannot go below zero), "likelihood" (one that can), or "" (not said). The loss the code
    builds decides where it says; else the text's words."""
    kinds = {_kind_of(a or b) for a, b in LOSS_BUILT.findall(text)} - {""}
    if len(kinds) == 1:
        return kinds.pop()
    return _kind_of(text)


def _kind_of(text: str) -> str:
    bounded, likelihood = BOUNDED_LOSS.search(text), LIKELIHOOD.search(text) or MINUS_SCORE.search(text)
    if bounded and not likelihood:
        return "bounded"
    return "likelihood" if likelihood and not bounded else ""


def score_out_of_range(text: str) -> str:
    """The first Dice / IoU value printed outside [0, 1], as written, or ""."""
    for m in SCORE.finditer(text):
        if not 0.0 <= float(m.group(1)) <= 1.0:
            return m.group(0).strip()
    return ""


# A remedy the reporter already tried: lowering the learning rate did not help (evidence against a
# rate that is too high), or did (evidence for it). Read on folded text, where "lr" stands for
# every spelling of the learning rate.
_NO_EFFECT = (r"(?:n'?t|not|never|no longer) (?:help|work|chang|solve|fix|matter)\w*|no matter|\bstill\b|\bsame\b|"
              r"\bchang\w*\s+nothing\b|\b(?:did|does|do)\s+nothing\b|\bnothing\s+changed\b|"
              r"\b(?:made|makes|make)\s+no\s+difference\b|\bno\s+(?:difference|effect)\b|"
              # ("always the same spot", which folding has made "stuck spot")
              r"\bstuck\s+(?:step|epoch|iteration|iter|batch|place|point|spot)\b|"
              # (the place it broke, named again: "it's always batch 118", "again at step ~1450")
              r"\b(?:always|again)\s+(?:at\s+)?(?:the\s+)?(?:step|epoch|iteration|iter|batch)\s+~?\d")
# ... or only put it off: "only delays it", "just makes it blow up later", "takes longer to explode" (WR-260's tell)
_PUT_OFF = (r"\b(?:only|just|merely) (?:delay|postpone)\w*|\b(?:only|just|merely)\s+stretched\s+out\b|\b(?:only|just|merely) makes? it [\w ]{0,20}?(?:later|more "
            r"slowly|slower)\b|"
            # (folded text: a token's spaces doubled)
            r"takes? longer to|\b(?:only|just|merely)\s+takes?\s+longer\b|"
            r"\bdelay(?:s|ed)?\s+(?:it|the\s+(?:nan|inf|blow-?up|explosion|divergence|problem))\b|"
            # "it takes longer but goes nan at epoch 23" (not "each epoch takes longer": the failure follows)
            r"takes? longer\b[^.;\n]{0,30}?\b(?:nan|inf|diverg\w*|blows?\s+up|explod\w*)\b|"
            # "just moves the nan to epoch 14", "shifts the blow-up later"
            r"\b(?:moves?|moved|shifts?|shifted|pushe[sd]|push)\s+(?:it|the\s+(?:nan|inf|blow-?up|explosion|divergence|"
            r"problem))\s+(?:to\s+(?:a\s+)?later|later|back|(?:to\s+)?when_later|to\s+(?:epoch|step|iteration|batch))\b|"
            # "only pushes it a few epochs later", "just moves it 2k steps later" (the count of steps folded or not)
            r"\b(?:moves?|moved|shifts?|shifted|pushe[sd]|push)\s+it\s+(?:\w+\s+){0,3}?(?:later|back)\b")
# (a run again at a rate it names: "I re-ran with lr 1e-4 instead of 1e-3 and it's the same"; not "re-ran with the
# same lr and another seed")
_TRIED = (r"(?:(?<!nothing )(?<!nothing else )(?:chang|reduc|lower|decreas|smaller|tried|trying|even with|halv)\w*"
          r"[^.;\n]{0,25}?\blr\b|"     # (not "nothing else changed (same lr 3e-4)": a rate kept, not one tried)
          r"(?:re-?ran|re-?run|ran it again|retri|retrain)\w*[^.;\n]{0,25}?(?:(?<!same )\blr\b\s*(?:(?:=|:|of|to|at)\s*)?\.?\d|"
          # (folded: a token's spaces are doubled)
          r"\b(?:half|a\s+(?:tenth|third|quarter)\s+of|(?:a\s+)?lower|(?:a\s+)?smaller|reduced|\d+x\s+(?:smaller|lower))"
          r"\s+(?:the\s+)?lr\b)|"
          # (or rates below 1 an optimizer was tried with: "I tried Adam with 1e-3, 1e-4 and 1e-5")
          # (or straight after its name: "I tried Adam 1e-4 and 1e-5")
          r"\b(?:tried|trying|re-?ran|ran)\s+(?:it\s+)?(?:(?:adam\w*|sgd|rmsprop|adagrad|adafactor|lamb|lion)\s+)?"
          r"(?:with|at)\s+(?:an?\s+)?(?=\d(?:\.\d+)?e-\d|0?\.\d)|"
          r"\b(?:tried|trying)\s+(?:adam\w*|sgd|rmsprop|adagrad|adafactor|lamb|lion)\s+(?=\d(?:\.\d+)?e-\d|0?\.0*\d))"
          # (up to what it did, past the rate it replaced: "with lr 1e-3 instead of 3e-3: the jump is in exactly the same
          # place")
          r"(?:\s*[\w.-]{0,8}\s+instead\s+of\s+\.?\d[\w.-]{0,8})?(?:[^.;\n]|\.\d){0,40}?")
# (not a belief about the rate: "the lr shouldn't matter that much?")
# ... or, further on in the same sentence, "still" and the failure itself ("I lowered the lr from 1e-3 to 1e-4 and added
# clip_grad_norm_(model.parameters(), 1.0) -- still nan at exactly 1,247": a dotted name is no sentence's end)
_STILL_BROKE = (r"(?:(?<!nothing )(?<!nothing else )(?:chang|reduc|lower|decreas|smaller|tried|trying|even with|halv)\w*"
                r"[^.;\n]{0,25}?\blr\b)(?:[^.;\n]|\.(?=\w)){0,120}?\bstill\s+(?:nan|inf|diverge|climb)\b")
# ... or a run at another rate that the words say did the same: "With lr 1e-4 it is exactly the same step, 713", "at lr
# 1e-5 same thing" (the same story, not "the same seed")
_SAME_AT = (r"\b(?:with|at|using)\s+(?:an?\s+|the\s+same\s+(?:seed|data|batch\s+size)\s+and\s+)?lr\b\s*(?:(?:=|:|of)\s*)?\.?\d(?:[^.;\n]|\.\d){0,50}?(?:\bit(?:'s|\s+is|\s+was|\s+looks|\s+looked)?\s+"
            r"(?:exactly\s+|just\s+|precisely\s+)?the\s+same\b(?:\s+(?:step|epoch|iteration|iter|batch|place|point)\b)?|\bsame\s+(?:thing|result|story|behaviou?r|step|epoch|"
            r"iteration|curve|place|point)\b|\bidentical\b|"
            # (a batch or an iteration only as the place it broke: numbered, "the same batch (412)", or after a nan in
            # the clause -- not "on the same batch of data it trains fine")
            r"\b(?:nan|inf|break\w*|broke|dies|died|jumps?|jumped)\b[^.;\n]{0,30}?\bsame\s+(?:batch|iter)\b|"
            r"\bsame\s+(?:batch|iter)\b\s*\(?\s*~?\d|"
            r"\bagain\s+at\s+(?:the\s+)?(?:step|epoch|iteration|iter|batch)\s+~?\d|"
            # ("the nan is still at 7412": the place it broke, numbered, again)
            r"\b(?:nan|inf)\b[^.;\n]{0,20}?\bstill\s+at\s+(?:(?:the\s+)?(?:step|epoch|iteration|iter|batch)\s+)?~?\d)")
# ... or the sameness said first: "same with lr 1e-7", "the same thing at lr=1e-5" (not "the same lr", a rate kept)
_SAME_FIRST = (r"\bsame\s+(?:thing\s+|story\s+|result\s+|behaviou?r\s+|again\s+)?(?:with|at|using|for)\s+(?:an?\s+)?"
               r"lr\b\s*(?:(?:=|:|of)\s*)?\.?\d")
SAME_FIRST = re.compile(_SAME_FIRST)
TRIED_LR = re.compile(_STILL_BROKE + r"|" + _SAME_AT + r"|" + _TRIED + r"(?:" + _NO_EFFECT + r")|"
                      r"\blr\b[^.;\n]{0,15}?(?<!should)(?<!would)(?<!could)(?<!must)"
                      r"(?<!might)(?:no matter|(?:n'?t|not|never) (?:help|matter))|"
                      # (the rate said not to matter before it is named: "nan at the same batch every run, no matter
                      # the learning rate", "regardless of the lr")
                      r"\b(?:no matter|regardless of|irrespective of|independent(?:ly)? of|whatever)\s+"
                      r"(?:(?:what|which|the|my|of)\s+){0,2}lr\b(?!\s*\?)"
                      # (the rate, not its finder, its schedule or its warmup: "whatever the lr finder suggested")
                      r"(?!\s*(?:finder|range|schedul\w*|warm-?up|decay|policy|test)\b)")
PUT_OFF_LR = re.compile(_TRIED + r"(?:" + _PUT_OFF + r")")
PUT_OFF = re.compile(_PUT_OFF)
LOWER_LR_HELPS = re.compile(r"(?:reduc|lower|decreas|smaller|halv)\w*[^.;\n]{0,25}?\blr\b(?:[^.;\n]|\.\d){0,20}?"
                            r"(?<!n't )(?<!not )(?:help|fix|solv|work)\w*|(?:reduc|lower|decreas|smaller|halv)\w*[^.;\n]{0,25}?\blr\b"
                            r"(?:[^.;\n]|\.\d){0,20}?(?<!n't )(?<!not )\b(?:trains?\s+(?:fine|well|normally)|is\s+fine|goes\s+away"
                            r"|disappears?|converges?)\b")
# Two rates the report compares: "nan after 2 epochs with lr 0.1. With lr 0.01 it trains fine". A sentence that
# names one rate and says the run broke, another that names a lower one and says it ran well: a lower rate helped
# (and a lower rate that broke beside a higher that ran well: it did not).
RATE_NAMED = re.compile(r"\blr\b\s*(?:(?:=|:|of|to|at|is|was)\s*)?((?:\d+(?:\.\d*)?|\.\d+)(?:e-?\d+)?)(?![\w.])")
SENTENCE = re.compile(r"\.(?!\d)|[;\n!?]|\bbut\b|\bwhile\b|\bwhereas\b")
RAN_WELL = re.compile(r"\b(?:fine|works?|worked|stable|converges?|converged|trains? (?:well|normally|ok)|no nan|"
                      r"learns?|goes down|decreases)\b|"
                      # ("the same loop trains (2.30 -> 0.4)": trains, said of the run, with nothing after it)
                      r"\btrains?(?= *(?:$|\(|[.,;!]))")
RAN_BADLY = re.compile(r"\b(?:nan|inf|diverg\w*|explod\w*|blows? up|climb\w*)\b")


def _rates_compared(folded: str) -> str:
    """"helped" / "failed" / "" from rates named in sentences that say how the run went."""
    well, badly = [], []
    for sentence in SENTENCE.split(folded):
        rates = [float(m.group(1)) for m in RATE_NAMED.finditer(sentence)]
        if len(rates) != 1 or rates[0] <= 0:
            continue
        bad, good = bool(RAN_BADLY.search(sentence)), bool(RAN_WELL.search(sentence))
        if bad != good:
            (badly if bad else well).append(rates[0])
    if well and badly:
        if max(well) < min(badly):
            return "helped"
        if min(well) > max(badly):
            return "failed"
    return ""


# ... or a sentence that names a rate and says the run broke the same way, only later: "lr=0.001 does the exact same
# thing, just later" -- a failure or "the same" said in it, nothing said to go well, and no plan or notice of the
# reporter's ("I'll tune it only later", "I only noticed later that the lr was 10"); read after a lower rate said to
# help, which says more (bounded: a line of many "just"s must not make the search quadratic)
LATER = re.compile(r"\b(?:just|only|merely|simply)\s+(?:[\w-]{1,20}\s+){0,4}?later\b|"
                   # ("then does the same thing later")
                   r"\bsame\s+(?:(?:thing|pattern|blow-?up|explosion)\s*)?later\b|"
                   # ("lr=1e-6: same, nan a few batches later": the failure, some steps later -- folded, batches are
                   # steps)
                   r"\b(?:nan|inf|diverge)\s+(?:a\s+(?:few|couple(?:\s+of)?)\s+|\d{1,6}\s+)?(?:more\s+)?"
                   r"(?:step|epoch|iteration)s?\s+later\b")
# ... or "also blows up, just in epoch 11 instead": the later place named, the earlier left to the sentence before --
# with the failure said in it ("the same final loss, it just reaches it at epoch 40 instead" is a slower success)
LATER_INSTEAD = re.compile(r"\b(?:just|only|merely|simply)\s+(?:[\w-]{1,20}\s+){0,4}?instead\b(?!\s+of)")
# ... or names the later place: "it falls apart at epoch 19 instead of 8", "after 40 steps instead of 10"
_COUNTER = r"(?:epoch|step|iteration|iter|batch)"
INSTEAD = re.compile(r"\b" + _COUNTER + r"\s*(\d+)\s+instead\s+of\s+(?:" + _COUNTER + r"\s*)?(\d+)\b|"
                     r"\b(\d+)\s+" + _COUNTER + r"s?\s+instead\s+of\s+(\d+)\b")
# (a rate named as the one tried, beside the lr's name but not after it: "lr was too high so I tried 1e-3"; a rate
# is below 1, and a number after another setting, "weight decay 0.05", is none)
RATE_TRIED = re.compile(r"\b(?:tried|trying|try|with|using|to|at)\s+(?:an?\s+|the\s+)?(?:lr\s+(?:of\s+)?)?"
                        r"(?:\d(?:\.\d+)?e-\d+|0?\.\d+)(?![\w.])", re.I)
# a failure in words the folded ones do not hold; a question or a plan
BROKE = re.compile(r"\b(?:falls?|fell)\s+apart\b|\b(?:dies|died|dying|breaks?|broke|collapses?|collapsed|crash\w*)\b",
                   re.I)
# ("it's the same pattern", "the same thing happens": the failure said again, in the words of the sentence that moved it)
SAME_AS_BEFORE = re.compile(r"\bsame\s+(?:pattern|thing|story|behaviou?r|curve|problem)\b")
PLANNED = re.compile(r"\?|\b(?:should|could|would|might|maybe|perhaps|if i|wonder\w*)\b", re.I)
SAME_FAILURE = re.compile(r"\bsame\b|" + RAN_BADLY.pattern)
REPORTERS_OWN = re.compile(r"\bi(?:'ll| will| would| noticed| realized| realised| found| added| tune)\b|\bfor now\b|\btune\b")


def _said_later(sentence: str) -> bool:
    return bool(RATE_NAMED.search(sentence) and (LATER.search(sentence) and SAME_FAILURE.search(sentence)
                                                 or LATER_INSTEAD.search(sentence) and RAN_BADLY.search(sentence))
                and not RAN_WELL.search(sentence) and not REPORTERS_OWN.search(sentence))


# ... or at a place the sentence names with "instead" and no earlier one, later than every place of that unit the rest
# of the text names (the log's): "lr 0.001: same shape, it explodes around batch 800 instead", beside a log that stops
# at batch 550
PLACE_INSTEAD = re.compile(r"\b(?:at|around|near|by)\s+(?:the\s+)?(step|epoch|iteration|iter|batch)\s+~?(\d[\d,]*)"
                           r"\s+instead\b(?!\s+of)", re.I)


PLACE_NAMED = re.compile(r"(?i)\b(step|epoch|iteration|iter|batch)\s+~?(\d[\d,]{0,12})")


def _sentence_spans(text: str) -> list[tuple[str, str, int, int]]:
    """Each sentence of sentences_and_ends with the mark that ends it, and where it starts and ends in the text."""
    out, at = [], 0
    for sentence, end in sentences_and_ends(text):
        out.append((sentence, end, at, at + len(sentence)))
        at += len(sentence) + len(end)
    return out


@dataclass(frozen=True)
class _Places:
    """The places a text names ("step 1830", "batch 550"), computed once per text: by unit, largest number first, with
    where each is; and for each unit and number, the first and last place it is named."""
    largest: dict[str, list[tuple[int, int]]]
    span: dict[tuple[str, int], tuple[int, int]]

    def largest_outside(self, unit: str, start: int, end: int) -> int | None:
        """The largest number of this unit named outside [start, end)."""
        return next((n for n, pos in self.largest.get(unit, []) if not start <= pos < end), None)

    def named_outside(self, unit: str, n: int, start: int, end: int) -> bool:
        first, last = self.span.get((unit, n), (start, start))
        return first < start or last >= end


def _places(text: str) -> _Places:
    largest: dict[str, list[tuple[int, int]]] = {}
    span: dict[tuple[str, int], tuple[int, int]] = {}
    for m in PLACE_NAMED.finditer(text):
        unit, n = m.group(1).lower(), int(m.group(2).replace(",", "") or 0)
        largest.setdefault(unit, []).append((n, m.start()))
        first, _last = span.get((unit, n), (m.start(), m.start()))
        span[(unit, n)] = (first, m.start())
    return _Places({u: sorted(v, reverse=True) for u, v in largest.items()}, span)


def _later_instead(raw: str, start: int, places: _Places) -> bool:
    """Does a sentence (raw, at start in the text) that names a rate and a failure say it came at a later place
    "instead" (PLACE_INSTEAD) than every place of that unit the rest of the text names?"""
    if "instead" not in raw.lower():
        return False
    folded = fold_text(raw)
    if not (re.search(r"\blr\b", folded) and (RAN_BADLY.search(folded) or BROKE.search(raw))) or PLANNED.search(raw):
        return False
    for m in PLACE_INSTEAD.finditer(raw):
        unit, n = m.group(1).lower(), int(m.group(2).replace(",", ""))
        other = places.largest_outside(unit, start, start + len(raw))
        if other is not None and n > other:
            return True
    return False


# A place a sentence names for its failure, beside "the same" it says of a rate it tried: "with lr 0.0005 the same thing
# happens, just around iteration 3000" (not "still nan after step 2000": where it stayed, not where it broke)
PLACE_OF_SAME = re.compile(r"(?<!still )(?<!still nan )\b(?:at|around|near|by|about)\s+(?:the\s+)?(?:~\s?)?"
                           r"(step|epoch|iteration|iter|batch)\s+~?(\d[\d,]{0,12})\b", re.I)


def _same_later(text: str) -> bool:
    """Does a told sentence that names a rate lower than another one the text names, and says the same happened at
    it, name for that a place later than every place of that unit the rest of the text names? ("nan by iteration ~400
    at lr 0.005 ... With lr 0.0005 the same thing happens, just around iteration 3000": put off.) Not a question, a
    plan, or "not the same"."""
    folded_text = fold_text(text)
    rates = [float(r.group(1)) for r in itertools.islice(RATE_NAMED.finditer(folded_text), 20)]
    places = None
    for raw, end, start, _stop in _sentence_spans(text):
        folded = fold_text(raw)
        named = RATE_NAMED.search(folded)
        if end == "?" or PLANNED.search(raw) or not named or not re.search(r"(?<!not )(?<!not the )\bsame\b", raw, re.I):
            continue
        if not any(float(named.group(1)) < other for other in rates):
            continue
        places = _places(text) if places is None else places
        for m in itertools.islice(PLACE_OF_SAME.finditer(raw), 5):
            unit, n = m.group(1).lower(), int(m.group(2).replace(",", ""))
            other = places.largest_outside(unit, start, start + len(raw))
            if other is not None and n > other:
                return True
    return False


# (a run the reporter means to make: "I'll try the same with lr 1e-5 tomorrow", "going to try")
REPORTERS_PLAN = re.compile(r"(?i)\b(?:i'll|i will|we'll|we will|going to|plan to|want to|tomorrow|next (?:i|we|time))\b")


def _same_first(text: str, folded_text: str) -> bool:
    """Does a told sentence say the same happened at a rate it names, sameness first ("same with lr 1e-7")? Not a
    question, a plan, or "not the same"."""
    if not SAME_FIRST.search(folded_text):
        return False
    for raw, end in sentences_and_ends(text):
        if "same" not in raw.lower():
            continue
        folded = fold_text(raw)
        m = SAME_FIRST.search(folded)
        if m and end != "?" and not PLANNED.search(raw) and not REPORTERS_PLAN.search(raw) \
                and not re.search(r"\bnot\s+(?:the\s+)?$", folded[:m.start()]):
            return True
    return False


def _said_instead(raw: str) -> bool:
    """Does a sentence (as written: folding turns "at epoch 19" into a timing token) say the run broke at a later
    epoch or step "instead of" an earlier one, at a rate it names as tried ("lr=1e-4", "I tried 1e-3")? A failure
    said in it ("the same final loss ... at epoch 40 instead of 12" is a slower success), and no question or plan
    ("should I try lr 1e-4 so the nan shows up at epoch 30 instead of 5?")."""
    later = any(int(now) > int(before) for now, before in
                ((m.group(1), m.group(2)) if m.group(1) else (m.group(3), m.group(4)) for m in INSTEAD.finditer(raw)))
    if not later or PLANNED.search(raw):
        return False
    folded = fold_text(raw)
    rate = RATE_NAMED.search(folded) or (re.search(r"\blr\b", folded) and RATE_TRIED.search(raw))
    return bool(rate and (RAN_BADLY.search(folded) or BROKE.search(raw) or SAME_AS_BEFORE.search(folded))
                and not RAN_WELL.search(folded)
                and not REPORTERS_OWN.search(folded))


# ... or the optimizer's default rate said to work, in a paste that sets a rate above every optimizer's default (0.01:
# Keras's SGD and PyTorch's RMSprop; 1e-3 for Adam and most others): "with RMSprop's default 0.001 the same model gets
# 91%", "with the default Adam() it reached 0.87" -- a lower rate helped. Not a default of something else ("the
# default glorot_uniform"), nor one that broke too, nor a question or a plan.
_OPTIMIZER_NAME = r"(?:adam|adamw|sgd|rmsprop|adagrad|nadam|adamax)"
DEFAULT_RATE = re.compile(r"\bdefault\s+(?:[\w'()]{1,20}\s+){0,2}?(?:lr|rate|optimi[sz]er|" + _OPTIMIZER_NAME
                          + r"(?:\(\))?(?!\w))|\b" + _OPTIMIZER_NAME + r"'s\s+default\b")
WENT_WELL = re.compile(RAN_WELL.pattern + r"|\b(?:gets?|got|reach\w*|hits?)\s+(?:to\s+)?(?:\d+(?:\.\d+)?\s*%|0?\.\d+)")
ABOVE_EVERY_DEFAULT = 0.01


def _default_rate_worked(folded: str) -> bool:
    if not any(float(m.group(1)) > ABOVE_EVERY_DEFAULT for m in RATE_NAMED.finditer(folded)):
        return False
    return any(DEFAULT_RATE.search(sentence) and WENT_WELL.search(sentence) and not RAN_BADLY.search(sentence)
               and not PLANNED.search(sentence) for sentence in SENTENCE.split(folded))


# A learning rate of 0 said to fail the same way ("With lr = 0.0 the output is exactly the same (nan at epoch 0)",
# "with lr=0 the first loss is the same 20869.67"): no update moved the weights, so the forward pass from the
# initial weights, or the data, made the failure -- the lowest rate tried, and it did not help.
RATE_ZERO = re.compile(r"\b(?:lr|learning[ _-]?rate)\s*(?:(?:=|:|of|to|at|is|set to)\s*)?0(?:\.0*)?(?![\d.]|e-|,\d)"
                       r"(?:[^.;\n]|\.\d){0,80}?\b(?:same|still|also|too|even|again|nan|inf)\b|"
                       # ("even with lr=0 it prints 1.9e14 on every step": what follows is what it still did)
                       r"\beven\s+(?:with|at|using)\s+(?:an?\s+)?(?:lr|learning[ _-]?rate)\s*(?:(?:=|:|of)\s*)?0(?:\.0*)?"
                       r"(?![\d.]|e-|,\d)|"
                       # (and an optimizer built with a rate of 0: "I ran it with `optax.adam(0.0)` and the step-0 loss is
                       # the same")
                       r"\b(?:optax\.|optim\.|optimizers\.)?(?:adam\w*|sgd|rmsprop|adagrad|lamb|lion)\((?:[^()\n]{0,40},\s*)?"
                       r"(?:lr\s*=\s*|learning_rate\s*=\s*)?0(?:\.0*)?\s*\)(?:[^.;\n]|\.\d){0,80}?"
                       r"\b(?:same|still|also|too|even|again|nan|inf)\b|"
                       # (and in Chinese: "学习率设成 0 也是一样", "lr=0 也还是 nan")
                       r"(?:学习率|\blr\b)\s*(?:(?:设成|设为|设置为|改成|调成|=|为)\s*)?0(?:\.0*)?(?![\d.]|e-)"
                       r"[^。！？!?\n]{0,12}?(?:也是一样|也一样|还是一样|一样|也是\s*nan|还是\s*nan|也\s*nan)", re.I)


# ... or a command the paste ran with a rate of 0 (`$ python mlp.py --lr 0.0 --epochs 3`), and a loss printed nan or
# inf below it: the run it shows failed with no update
ZERO_RATE_COMMAND = re.compile(r"(?m)^[ \t]*(?:[$%>#][ \t]*)?(?:python3?|torchrun|accelerate[ \t]+launch|deepspeed)\b"
                               r"[^\n]{0,300}?(?P<flag>--(?:lr|learning[-_]rate)(?:[ \t]+|=)0(?:\.0*)?)(?![\d.]|e-)")
NONFINITE_LOSS_BELOW = re.compile(r"(?i)\b(?:loss|cost)\b[^\n]{0,20}?(?<![\w.])[-+]?(?:nan|inf)\b")


def rate_zero_failed(text: str) -> str:
    """The words that say the run fails the same way at a learning rate of 0 (RATE_ZERO), or the command it ran with a
    rate of 0 above a loss printed nan or inf (ZERO_RATE_COMMAND), or ""."""
    ran = ZERO_RATE_COMMAND.search(text)
    if ran and NONFINITE_LOSS_BELOW.search(text, ran.end()):
        return ran.group("flag")
    m = RATE_ZERO.search(text)
    if m is None:
        return ""
    # (in a question or a plan it is a check not yet run: "should I try lr=0 to see if it is the same?")
    start = max(text.rfind(c, 0, m.start()) for c in ".?!\n") + 1
    ends = [i for i in (text.find(c, m.end()) for c in ".?!\n") if i >= 0]
    sentence = text[start:min(ends) + 1 if ends else len(text)]
    return "" if PLANNED.search(sentence) else " ".join(m.group(0).replace("`", "").split())


# ... and in the other languages reports come in (many on PaddlePaddle's and OpenMMLab's trackers in Chinese: "减小学习率
# 也不行", lowering the rate does not help either), the rate lowered and what it did, in one sentence: "Уменьшил lr в 5
# раз (0.01) — то же самое, только позже" (the same, only later: put off), "mit kleinerer Lernrate passiert dasselbe"
# (the same: no help), "j'ai baissé le lr, ça ne change rien", "bajé el learning rate y sigue igual", "降低学习率后只是
# 推迟了" (only put off). The rate's word and a verb or adjective of lowering, either first.
_LR_WORD = (r"(?:\blr\b|learning[ _-]?rate|学习率|скорост\w*\s+обучения|\blernrate\w*|taux\s+d['’]apprentissage|"
            r"tasa\s+de\s+aprendizaje|taxa\s+de\s+aprendizado)")
_LOWERED = (r"(?:уменьш\w*|сниз\w*|сниж\w*|пониз\w*|понижа\w*|verringer\w*|reduzier\w*|gesenkt|senk\w*|verkleiner\w*|"
            r"kleiner\w*|niedriger\w*|baiss\w*|rédui\w*|diminu\w*|plus\s+petit\w*|plus\s+faible|baj\w*|reduj\w*|"
            r"reduc\w*|disminu\w*|menor|reduz\w*|baix\w*|减小|降低|调小|减少|调低|改小|下调)")
LOWER_LR_FOREIGN = re.compile(r"(?:" + _LOWERED + r"[^.!?。！？\n]{0,25}?" + _LR_WORD + r"|" + _LR_WORD
                              + r"[^.!?。！？\n]{0,25}?" + _LOWERED + r")(?P<rest>(?:[^.!?。！？\n]|\.\d){0,120})", re.I)
_LATER_FOREIGN = re.compile(r"позже|отсроч\w*|später|plus\s+tard|más\s+tarde|mais\s+tarde|更晚|推迟|延后|晚一些|晚了", re.I)
# ... or at a later place instead of the earlier one: "pasa lo mismo, solo que en la época 7 en vez de la 3" (a number,
# the word, a smaller number; the word alone, "the same step instead of the usual one", is not)
_INSTEAD_FOREIGN = re.compile(r"(\d{1,7})\D{0,20}?(?:вместо|(?:an)?statt\b|au\s+lieu\s+d\w*|en\s+(?:vez|lugar)\s+de|"
                              r"em\s+vez\s+de|而不是)\D{0,12}?(\d{1,7})", re.I)
_SAME_FOREIGN = re.compile(r"то\s+же\s+самое|тоже\s+самое|не\s+помог\w*|без\s+изменений|вс[её]\s+равно|"
                           r"(?:hilft|half|hat)\s+nicht|nicht\s+geholfen|dasselbe|das\s+gleiche|trotzdem|"
                           r"n['’](?:aide|a\s+pas\s+aidé|y\s+fait)|ne\s+change\s+rien|rien\s+ne\s+change|pareil|la\s+même\s+chose|"
                           r"no\s+ayud\w*|lo\s+mismo|sigue\s+igual|não\s+ajud\w*|o\s+mesmo|mesma\s+coisa|"
                           r"也不行|不行|没用|没有用|无效|不管用|还是|依然|仍然|依旧", re.I)


def _lower_rate_foreign(text: str) -> str:
    """"delayed" or "failed" for a lower rate tried in words of another language (LOWER_LR_FOREIGN), else ""."""
    for m in itertools.islice(LOWER_LR_FOREIGN.finditer(text), 20):
        instead = _INSTEAD_FOREIGN.search(m.group(0))
        if _LATER_FOREIGN.search(m.group(0)) or (instead and int(instead.group(1)) > int(instead.group(2))):
            return "delayed"
        if _SAME_FOREIGN.search(m.group(0)):
            return "failed"
    return ""


# A list under a header that says it holds what was tried ("What I tried:", "Things I've tried so far:", "I tried:"):
# each item is a thing tried, though it does not say so ("- lr 0.05 -> still jumps at step 1830")
TRIED_HEADER = re.compile(r"(?im)^[ \t]*(?:(?:what|things?)[ \t]+)?(?:(?:i|we)(?:'ve|[ \t]+have)?[ \t]+)?"
                          r"(?:already[ \t]+)?tried(?:[ \t]+so[ \t]+far)?[ \t]*:[ \t]*$")
LIST_ITEM = re.compile(r"(?m)^([ \t]*(?:[-*•]|\d{1,2}[.)])[ \t]+)")


def _tried_items(text: str) -> str:
    """The text with each item of a list under a "what I tried:" header said to be tried (TRIED_HEADER)."""
    header = TRIED_HEADER.search(text)
    if not header:
        return text
    rest = text[header.end():]
    end = re.search(r"\n[ \t]*\n(?![ \t]*(?:[-*•]|\d{1,2}[.)])[ \t])", rest)    # (the list ends at a paragraph)
    items, after = (rest[:end.start()], rest[end.start():]) if end else (rest, "")
    return text[:header.end()] + LIST_ITEM.sub(r"\1I tried ", items) + after


@functools.lru_cache(maxsize=8)          # (asked by the context and by the curve's reading of the same text)
def lr_tried(text: str) -> str:
    """"failed" when the text says a lower learning rate did not help (a rate of 0 included), "delayed" when it only
    put the failure off, "helped" when it did, else ""."""
    text = _tried_items(text)
    if rate_zero_failed(text):
        return "failed"
    if foreign := _lower_rate_foreign(text):
        return foreign
    folded = fold_text(text)
    if PUT_OFF_LR.search(folded):
        # (a lower rate still that cured it says more: "3e-3 only puts the nan off, 3e-4 trains fine" is a rate too
        # high, which a low enough rate cures; gradients that pile up break at every rate)
        return "helped" if LOWER_LR_HELPS.search(folded) or _rates_compared(folded) == "helped" else "delayed"
    tried = TRIED_LR.search(folded) or (SAME_FIRST.search(folded) if _same_first(text, folded) else None)
    if tried:
        # (unless the same sentences say it broke later instead: "with lr=0.001 it's the same pattern, it just
        # starts going crazy around step 600 instead of 80" puts it off; or that it only took longer: "same with lr
        # 1e-4, it just takes longer")
        rest = re.split(r"\.(?!\d)|[;\n]", folded[tried.end():], maxsplit=1)[0]
        # (not "each epoch just takes longer": a time per epoch, not the failure put off)
        put_off = PUT_OFF.search(rest) and not re.search(r"\b(?:each|every|per)\s+(?:epoch|step|batch|iteration)\b", rest)
        # (the same only at first: "it looks the same for two epochs, then it trains fine and reaches 91%")
        if re.search(r"\bthen\b[^.;\n]{0,40}?\b(?:trains?\s+(?:fine|well|normally)|converges?|works|recovers|"
                     r"reach(?:es)?\s+\d{1,3}(?:\.\d+)?\s*%)", rest) \
                and not re.search(r"\b(?:nan|inf|diverg\w*|explod\w*|never|not|n't|either)\b", rest):
            return "helped"
        return "delayed" if _instead_said(text, folded) or put_off or _same_later(text) else "failed"
    if LOWER_LR_HELPS.search(folded) or _default_rate_worked(folded):
        return "helped"
    compared = _rates_compared(folded)
    if compared:
        return compared
    # (not a question: "is it normal that lr 0.01 goes nan a few steps later than lr 0.1?")
    said = folded if "?" not in text else fold_text("".join(raw + end for raw, end in sentences_and_ends(text) if end != "?"))
    if any(_said_later(sentence) for sentence in SENTENCE.split(said)):
        return "delayed"
    return "delayed" if _instead_said(text, folded) else ""


def _instead_said(text: str, folded: str) -> bool:
    if "instead" not in folded:
        return False
    places = _places(text)
    return any(_said_instead(raw + end) or _later_instead(raw, start, places)
               for raw, end, start, _stop in _sentence_spans(text))


def lr_tried_unmoved(text: str) -> bool:
    """Does the lower rate that did not help (TRIED_LR) say the failure stayed the same ("I re-ran with lr 1e-4 and
    it's the same")? Then it did not move: no sign of a failure that a lower rate only puts off."""
    m = TRIED_LR.search(fold_text(text))
    return bool(m and re.search(r"\b(?:same|identical)\b", m.group(0)))


def lr_tried_same_place(text: str) -> bool:
    """Does the lower rate that did not help say the run broke at the same place ("With lr 1e-4 it is exactly the same
    step, 713", "lowered the lr, same epoch")? A failure that does not move with the rate at all, not one put off.
    Or one that says it still broke at a place the text names elsewhere too ("at step 1830 bang" ... "lr 0.05 -> still
    jumps at step 1830")."""
    text = _tried_items(text)
    folded = fold_text(text)
    m = TRIED_LR.search(folded)
    if m and _still_at_named_place(text):
        return True
    # (the match stops at its first "same"; the place is said after it, in the same sentence: "the jump is in exactly the
    # same place")
    # (or before it, in its own sentence: "nan at exactly the same batch every run, no matter the lr")
    begin = max((e.end() for e in re.finditer(r"\.(?!\d)|[;\n]", folded[:m.start()])), default=0) if m else 0
    said = folded[begin:m.end() + len(re.split(r"[.;\n]", folded[m.end():m.end() + 20], maxsplit=1)[0])] if m else ""
         # ("the nan is still at 7412", beside "at iteration 7412": the place the text names)
    return bool(m and re.search(r"\b(?:same|stuck)\s+(?:step|epoch|iteration|iter|batch|place|point|spot)\b|"
                                r"\b(?:always|again|still)\s+(?:at\s+)?(?:the\s+)?(?:step|epoch|iteration|iter|batch)\s+~?\d",
                                said))


# (the place said right after "still" or "again", in the same clause: "still jumps at step 1830"; not "loss at batch 150
# is 0.55", a value at a place)
# (or the number alone, "the nan is still at 7,412", where the text names that number as a place elsewhere)
PLACE_AT = re.compile(r"\b(?:still|again)\b[^.;,\n]{0,30}?\b(?:at|around|near)\s+(?:the\s+)?"
                      r"(?:(step|epoch|iteration|iter|batch)\s+)?~?(\d{1,3}(?:,\d{3})+|\d+)(?![\d.,]\d)", re.I)
PLACE_UNITS = ("step", "epoch", "iteration", "iter", "batch")


def _still_at_named_place(text: str) -> bool:
    """A sentence that names a rate and says the run still (or again) broke at a place -- step 1830 -- that the rest of
    the text names too, as the place it broke."""
    places = None
    for sentence, _end, start, stop in _sentence_spans(text):
        if not PLACE_AT.search(sentence) or not re.search(r"\blr\b", fold_text(sentence)):
            continue
        places = _places(text) if places is None else places
        for m in PLACE_AT.finditer(sentence):
            n = int(m.group(2).replace(",", ""))
            if any(places.named_outside(unit, n, start, stop) for unit in
                   ((m.group(1).lower(),) if m.group(1) else PLACE_UNITS)):
                return True
    return False


# The place the run breaks said to move when the data's order changed ("with shuffle=True it dies at a different batch
# each run", "with another shuffle seed the jump happens at step 820 instead"): a failure that one batch of the data
# brings, met wherever the order puts that batch. The order's own words only: a seed alone changes the first weights
# too. Not a question, nor a sentence that says it broke at the same place again.
ORDER_CHANGED = re.compile(r"\b(?:re-?)?shuffl\w*|\bdata\s+order\b|\border\s+of\s+the\s+(?:data|samples|examples|"
                           r"batches|rows)\b", re.I)
PLACE_MOVED = re.compile(r"\b(?:a\s+)?(?:different|another|other)\s+(?:step|batch|epoch|iteration|iter|place|point|spot)\b|"
                         r"\bat\s+(?:step|batch|epoch|iteration|iter)\s+~?\d[\d,]*\s+instead\b|"
                         r"\b(?:moves?|moved|shifts?|shifted)\s+(?:it|the\s+\w+\s+)?(?:to|around|elsewhere|with)\b|\belsewhere\b",
                         re.I)
SAME_PLACE = re.compile(r"\b(?:same|still|again)\b|\b(?:not|never|n't)\s+(?:move|change|shift)", re.I)


def order_moved_it(text: str) -> str:
    """The sentence (its words, shortened) that says the place the run broke moved with the data's order, or ""."""
    for sentence, end in sentences_and_ends(text):
        if end != "?" and ORDER_CHANGED.search(sentence) and PLACE_MOVED.search(sentence) \
                and not SAME_PLACE.search(sentence):
            said = " ".join(sentence.split())
            return said if len(said) <= 120 else said[:117] + "..."
    return ""


# A precision the reporter switched, as WR-040's own check does: "fp16=False trains fine", "the same model in float32
# runs fine", "without AMP it converges" (full precision helped), or "fp32 is also nan", "with amp disabled: still nan"
# (it did not: a comparison said -- "I cast X to float32 and the loss is nan" says nothing of half precision). Read a
# sentence at a time, folded (every spelling of half precision is "fp16" there), clause by clause: a sentence that
# names full precision said to go well, and no clause of it said to break ("in fp32 I get no nan warnings, the loss
# just explodes"), and half precision, where a clause names it, said to break ("fp32 works, but so does fp16 with a
# lower lr" is no evidence). Not in a question, a comment, words of hearsay or of a plan ("someone said bf16 fixes it", "should I
# try fp32?"), nor of a cast of the data ("converting the targets to float32 fixes the dtype error"). bfloat16
# counts as full precision here: it has float32's range (8 exponent bits), so it cures float16's overflow and
# underflow, though not its precision.
FULL_PRECISION = re.compile(r"\b(?:fp32|float32|full precision|single precision|fp64|float64|bf16)\b|"
                            r"\b(?:without|no|disabl\w*|turn\w* off|switch\w* off|remov\w*)\s+(?:the\s+|those\s+|these\s+)?"
                            r"(?:(?:two|both|three|all|\d)\s+)?(?:\.\s*)?fp16\b|"
                            r"\bfp16\s*(?:=\s*false|off\b|disabled|removed)")
PRECISION_WORD = re.compile(r"(?i)fp32|float|precision|fp64|bf16|bfloat|fp16|amp|half|autocast")
NO_NAN = re.compile(r"\bno\s+nan\b")
ALSO = re.compile(r"\b(?:also|still|same|too|even|either|as well)\b")
FIXED = re.compile(r"\b(?:fix(?:es|ed)?|solves?|solved|goes away|went away|disappear(?:s|ed)?)\b")
NOT_WELL = re.compile(r"(?:\bnot|n't|\bnever|\bno longer)\s+(?:\w+\s+){0,2}?(?:converg|work|train|learn|help|fix|solv)")
HEARSAY = re.compile(r"\b(?:said|says|suggest\w*|recommend\w*|according|heard|read that|should|would|might|could|"
                     r"maybe|perhaps|try|trying|cast\w*|convert\w*|astype|dtype)\b")
# A run compared with a full-precision one ("matches my fp32 run", "the same as in float32"): no run was moved out of
# half precision to see what changes -- the two agree.
LIKE_FULL = re.compile(r"\b(?:match\w*|same as|identical to|just like|as (?:good|well|fast) as|equal to|close to|"
                       r"tracks?|follows?)\s+(?:(?:my|the|a|an|our)\s+)?(?:fp32|float32|full precision|single precision)")
PRECISION_CLAUSE = re.compile(r",|\bbut\b|\bwhile\b|\bwhereas\b")


def _clause_went(clause: str) -> str:
    """"well" / "badly" / "" for one clause of folded text."""
    bad = bool(RAN_BADLY.search(NO_NAN.sub(" ", clause)) or NOT_WELL.search(clause))
    good = not bad and bool(RAN_WELL.search(clause) or FIXED.search(clause) or NO_NAN.search(clause))
    return "badly" if bad else "well" if good else ""


def precision_tried(text: str) -> tuple[str, str]:
    """("helped" or "failed", the sentence that says so, as written) when the text says the run was tried in full
    precision, else ("", "")."""
    said = {}
    text = re.sub(r"#[^\n]*", " ", text)                  # (a comment is the code's, not the report's)
    for sentence, end in sentences_and_ends(text):
        if end == "?" or not PRECISION_WORD.search(sentence):
            continue
        folded = fold_text(sentence)
        if not FULL_PRECISION.search(folded) or HEARSAY.search(folded) or LIKE_FULL.search(folded):
            continue
        full, half, other = [], [], []
        for clause in PRECISION_CLAUSE.split(folded):
            went = _clause_went(clause)
            if FULL_PRECISION.search(clause):
                full.append(went)
            elif re.search(r"\bfp16\b", clause):
                half.append(went)
            else:
                other.append(went)
        if "well" in full + other and "badly" not in full + other and all(h == "badly" for h in half):
            said.setdefault("helped", " ".join(sentence.split()))
        elif "badly" in full + other and "well" not in full and ALSO.search(folded):
            said.setdefault("failed", " ".join(sentence.split()))
    if len(said) != 1:              # both, or neither: the text does not say which
        return "", ""
    return next(iter(said.items()))


# ---- the entries as documents ----------------------------------------------------------------

# How much each part of an entry counts in its document: the phrases are written as the words
# people use for the failure; the title and summary name it; the sections explain it, and their
# incidental words (a snippet's numbers, the names of other entries' failures) pull the match
# around, so they count for less.
FIELDS = {"title": 2.0, "summary": 2.0, "phrases": 3.0, "messages": 1.0, "Symptom": 1.0, "Where it shows up": 1.0}


_WRAP = re.compile(r"(?<!\n)\n(?!\n)")


def section(entry: Entry, name: str) -> str:
    """A section of an entry as prose: the lines a paragraph is wrapped at joined (a phrase such as "during
    training" can be cut by the wrap; a line break in a log is a clause's end, one in Markdown is not)."""
    return _WRAP.sub(" ", entry.sections.get(name, ""))


def _field(entry: Entry, name: str) -> str:
    if name == "title":
        return entry.title
    if name == "summary":
        return entry.summary
    if name == "phrases":
        return " . ".join(entry.phrases)
    if name == "messages":
        return " . ".join(m.shown for m in entry.messages)
    return section(entry, name)


def documents(entries: list[Entry], fields: dict[str, float] | None = None) -> dict[str, Counter]:
    """Each entry's words, each counted with the weight of the part it is in."""
    weighted = [(name, weight) for name, weight in (fields or FIELDS).items() if weight]
    texts = [_field(e, name) for e in entries for name, _ in weighted]
    folded = iter(tokens_many(texts))
    out: dict[str, Counter] = {}
    for e in entries:
        counts = out[e.id] = Counter()
        for name, weight in weighted:
            for token in next(folded):
                # a message's words say what the framework printed, not when the failure shows: PyTorch's
                # "batch_norm eps must be positive during training" is no sign of a failure that comes later
                if not (name == "messages" and token.startswith(TIMING)):
                    counts[token] += weight
    return out


class Library:
    """BM25 over the entries' documents (term frequencies may be weighted)."""

    K1, B = 1.2, 0.75

    def __init__(self, docs: dict[str, Counter]):
        self.ids = list(docs)
        self.tf = {i: Counter(d) for i, d in docs.items()}
        self.length = {i: sum(d.values()) for i, d in self.tf.items()}
        self.mean = sum(self.length.values()) / max(len(docs), 1)
        df = Counter(t for d in self.tf.values() for t in d)
        n = len(docs)
        self.idf = {t: math.log(1 + (n - f + 0.5) / (f + 0.5)) for t, f in df.items()}

    @classmethod
    def of(cls, entries: list[Entry], fields: dict[str, float] | None = None) -> Library:
        return cls(documents(entries, fields))

    def scores(self, query: list[str]) -> dict[str, float]:
        terms = [t for t in set(query) if t in self.idf]
        out = {}
        for i in self.ids:
            tf, norm = self.tf[i], self.K1 * (1 - self.B + self.B * self.length[i] / self.mean)
            out[i] = sum(self.idf[t] * tf[t] * (self.K1 + 1) / (tf[t] + norm) for t in terms if tf[t])
        return out

    def shared(self, query: list[str], entry_id: str) -> list[str]:
        """The query's terms that the entry's document holds, the ones that add most to its score first."""
        tf, norm = self.tf[entry_id], self.K1 * (1 - self.B + self.B * self.length[entry_id] / self.mean)
        terms = [t for t in set(query) if t in self.idf and tf[t]]
        return sorted(terms, key=lambda t: (-self.idf[t] * tf[t] / (tf[t] + norm), t))


# A word of the report, for a term it folds to (a term is a word's stem: "padd" for "padded"): the first word that
# starts with it. Terms the thesaurus made from other words ("diverge" from "blows up") have none, and are not shown.
REPORT_WORD = re.compile(r"[A-Za-z][A-Za-z0-9_-]{1,40}")


KEYWORDS = frozenset("return def class import from lambda self none true false with as for while if else elif in not "
                     "and or print".split())


def words_for(terms: list[str], sentences: str, most: int = 4) -> list[str]:
    """The report's own words for these terms (as written, lower-cased), in the terms' order, at most `most`: from its
    sentences (sentences_only: not its code), and never a keyword of Python's."""
    found: dict[str, str] = {}
    wanted = [t for t in terms if t.isalpha() and len(t) >= 3 and t not in KEYWORDS]
    for m in REPORT_WORD.finditer(sentences):
        word = m.group(0).lower()
        for t in wanted:
            if t not in found and word.startswith(t):
                found[t] = word
        if len(found) == len(wanted):
            break
    return [found[t] for t in wanted if t in found][:most]


# The optimisers whose step does not grow with the gradient (Adam and its kin divide each gradient by its own running
# size): paste_facts' facts of raw targets and of accumulated gradients, start_loss's early jump, and curve_shape's
# warmup-less first steps
ADAPTIVE = re.compile(r"\b(?:adam\w*|rmsprop|adagrad|adadelta|adafactor|lamb|lion)\b", re.I)


# ---- things that are normal ----------------------------------------------------------------

# A run said to have no warmup ("no warmup", "warmup_steps=0")
# ... or its warmup said taken out ("dropped `--lr-warmup-fraction .01`", "I removed the warmup", "commented out the
# warmup scheduler"), or a flag's warmup set to 0 with a space ("--warmup-steps 0")
NO_WARMUP = re.compile(r"\b(?:no|without|w/o|zero)\s+(?:lr\s+|learning[ -]rate\s+)?warm-?up\b|"
                       r"\bwarm-?up(?:_steps|_ratio|_iters?|_epochs)?\s*[=:]\s*0(?:\.0+)?(?!\.?\d)|"
                       r"\b(?:dropped|removed|disabled|deleted|commented\s+out|turned\s+off|switched\s+off|took\s+out|"
                       r"got\s+rid\s+of)\s+(?:the\s+|my\s+|our\s+|any\s+|all\s+)?(?:lr\s+|learning[ -]rate\s+)?[`'\"]?(?:--?)?[\w.-]{0,20}?"
                       r"warm-?up\b|"
                       r"--[\w-]{0,20}?warm-?up[\w-]{0,30}\s+0(?:\.0+)?(?![.\d])", re.I)
# ... or a rate said to be constant from the start, or the schedule said dropped ("constant AdamW lr=5e-4", "I removed
# the LR scheduler"), in a paste that does not name a warmup at all
CONSTANT_RATE = re.compile(r"\bconstant\s+(?:[\w-]{1,20}\s+){0,2}?(?:lr|learning[ -]rate)\b|"
                           r"\b(?:lr|learning[ -]rate)\s+(?:is\s+|was\s+|stays\s+|kept\s+)?constant\b|"
                           # (and in the languages that write the word after the rate: "lr costante 1e-3", "lr
                           # constante", "lr konstant")
                           r"\blr\s+(?:costante|constante|konstant|konstante[nr]?|stał[ay]|sabit)\b|"
                           # (Chinese and Japanese: "lr 一直是常数", "没有用学习率调度器", "学習率は一定")
                           # (一定 only in Japanese, after は and not before a negation: in Chinese it is "must")
                           r"(?:lr|学习率)\s*(?:(?:一直|始终)\s*)?(?:(?:是|为)\s*)?(?:常数|固定|不变)|"
                           r"学習率は\s*(?:一定|固定)(?!\s*(?:では|じゃ)(?:ない|ありません))|"
                           r"(?:没有|没用|未使用|不用)(?:用)?\s*(?:学习率\s*)?(?:调度器|scheduler)|"
                           # (Russian: "оставил постоянный lr", "выкинул шедулер")
                           r"постоянн\w*\s+(?:lr|learning[ -]rate|скорост\w*\s+обучения)\b|"
                           r"(?:выкинул|убрал|удалил|отключил|без)\w*\s+(?:\w+\s+)?(?:шедулер|scheduler|планировщик)\w*|"
                           r"\b(?:dropped|removed|without|no)\s+(?:the\s+|any\s+)?(?:lr\s+|learning[ -]rate\s+)?"
                           r"(?:scheduler|schedule)\b", re.I)
WARMUP_NAMED = re.compile(r"warm-?up", re.I)
# ... unless the paste sets a warmup of its own ("warmup_steps=500", "1000 warmup steps"): the words of no warmup are
# another run's
# (also inside a name: HF's `num_warmup_steps=1000`)
WARMUP_SET = re.compile(r"(?<![a-z])warm-?up(?:_steps|_ratio|_iters?|_epochs)?\s*[=:]\s*(?:0*[1-9]\d*|0?\.0*[1-9])|"
                        r"\b\d[\d,]* warm-?up steps|\bwarm-?up (?:over|of) (?:the first )?\d", re.I)


def no_warmup_said(text: str) -> str:
    """How the words say the run had no warmup (" in a run the report says had no warmup"), or ""."""
    if NO_WARMUP.search(text):
        return " in a run the report says had no warmup"
    if CONSTANT_RATE.search(text) and not WARMUP_NAMED.search(text):
        return " in a run the report says kept one rate from its start (no warmup)"
    return ""


@dataclass(frozen=True)
class Normal:
    name: str
    asked: re.Pattern          # the report asks about this behaviour
    explanation: str
    decide: str                # what to paste to tell the normal case from a failure
    # the words of a broken run it accounts for itself (tokens): a Darknet line's -nan, a skipped step's overflow
    accounts: frozenset = frozenset()
    falls: bool = False        # its answer is that the loss falls: no answer beside a loss that did not
    # not the answer where the words say this (the spikes of a run said to have no warmup are its signature)
    unless: Callable[[str], str] | None = None


# The loss said to go below zero: the word tied to the loss ("a negative loss", "NLL is negative", "the loss keeps
# falling and goes below zero"), not a negative of something else ("510 negatives per positive", "negative samples",
# "false negatives", "the negative class") nor the name of a loss ("negative log-likelihood").
_NOT_OF_LOSS = r"(?!\s*(?:samples?|class\w*|examples?|pairs?|labels?|instances?|log\b|log[- ]likelihood|rate|weights?|sign|" \
               r"slope|gradients?|sampl\w*|mining|per\b))"
# (a dotted name between them does not end the sentence: "NLL loss (torch.nn.GaussianNLLLoss) is negative")
NEGATIVE_SAID = re.compile(r"\bnegative (?:loss|nll|cost|values?|numbers?)\b|\b(?:loss|nll|cost|likelihood)\w*\b"
                           r"(?:[^.;!?\n]|\.(?=\w)){0,80}?(?:\bnegative\b" + _NOT_OF_LOSS + r"|\b(?:into|to) (?:the )?negatives?\b"
                           r"|\bbelow (?:zero|0(?![.,]?\d))|\bless than (?:zero|0(?![.,]?\d))|(?<![\w-])-ve\b)", re.I)

# The words between a subject and its verb: up to 60 characters that start no other clause or subject ("val accuracy
# stuck at 50% while val loss keeps dropping": the dropping is the loss's, not the accuracy's)
_SAME_SUBJECT = r"(?:(?!\b(?:while|whereas|but|although|though|loss|acc\w*)\b).){0,60}?"

# Objectives that a healthy run does not drive down to a floor, asked about as if they were losses that should fall:
# a GAN's two losses, a reinforcement-learning loss, a VAE's total under a KL weight that rises. First among the normal
# behaviours: they name the kind of model, and explain more than a generic one (a policy loss is negative too). Each
# with the failure its own explanation names as an exception (unless): a discriminator that won, a return that fell.
# a GAN's failure said: samples of noise or all alike, mode collapse, or a loss grown past any bound (1e6 and more)
# (a loss given as 1e6 or more: not a buffer's size or a step budget)
HUGE_LOSS = (r"\bloss\w*\b[^.\n\d]{0,20}?(?:\bis|=|:|\bto|\breach\w*|\bof)\s*~?"
             r"-?\d+(?:\.\d+)?e\+?0*(?:[6-9]|[1-9]\d+)\b(?!\s*(?:iterations?|iters?|steps?|epochs?|samples?|frames?|"
             r"transitions?|timesteps?|updates?|tokens?))")
# (the samples said to be noise or all alike, as their predicate: not "with less noise")
GAN_BROKEN = re.compile(r"(?i)\b(?:samples?|images?|outputs?|generations?)\s+(?:are|is|look|looks|stay|stays|remain|remains|"
                        r"turn)\s+(?:like\s+)?(?:pure\s+|just\s+|all\s+|only\s+)?(?:noise|black|blank|identical|"
                        r"the same(?!\s+(?:size|shape|resolution|format|dimensions?|way|as))|garbage|grey|gray)\b|"
                        r"\bmode collapse\b|\bcollapsed\b|" + HUGE_LOSS)
# (the return the subject of the fall, no other quantity between: not "the return goes up and the entropy drops")
RETURN_FELL = re.compile(r"(?i)\b(?:returns?|rewards?|scores?)\b(?:(?!\b(?:entropy|loss|lr|kl|and|while|but|whereas)\b)"
                         r"[^.\n]){0,40}\b(?:collaps\w*|drops?|dropped|dropping|falls?|fell|falling|decreas\w*|goes down|"
                         r"went down|stuck|never improv\w*)\b(?!\s+(?:at first|initially|early|in the beginning))|" + HUGE_LOSS)
# a KL weight said not to move ("a fixed beta of 4", "no annealing")
BETA_FIXED = re.compile(r"(?i)\b(?:fixed|constant)\s+(?:beta|β|kl[ _-]?weight)\b|\bno (?:kl )?anneal\w*|"
                        r"\b(?:beta|β)\b[^.\n]{0,20}\b(?:fixed|constant)\b")


def _gan_unless(text: str) -> str:
    """Not a GAN's game where the words say its samples broke, or give a loss grown past any bound."""
    broken = GAN_BROKEN.search(text)
    return broken.group(0) if broken else ""


def _rl_unless(text: str) -> str:
    """Not where the words say the return fell, or give a loss grown past any bound."""
    fell = RETURN_FELL.search(text)
    return fell.group(0) if fell else ""


def _vae_unless(text: str) -> str:
    fixed = BETA_FIXED.search(text)
    return fixed.group(0) if fixed else ""


OBJECTIVES = (
    Normal("a GAN's losses, which do not fall",
           # (a critic's loss only beside a GAN named: an actor-critic has one too)
           re.compile(r"\b(?:loss_?[dg]|[dg]_loss|errd\w*|errg\w*|(?:discriminator|generator)(?:'s)? loss(?:es)?|"
                      r"(?:gan|dcgan|wgan\w*|adversarial) loss(?:es)?|loss(?:es)? of (?:the )?(?:discriminator|generator))\b|"
                      r"\b(?:gan|dcgan|wgan\w*|generator)\b[\s\S]{0,2000}?\bcritic(?:'s)? loss\b|"
                      r"\bcritic(?:'s)? loss\b[\s\S]{0,2000}?\b(?:gan|dcgan|wgan\w*|generator)\b"),
           "a GAN's two losses score a game, not a fit: each network's loss depends on the other network, which keeps "
           "improving, so neither falls to a floor -- they rise and fall around a balance for the whole run "
           "(Goodfellow, NIPS 2016 Tutorial: Generative Adversarial Networks, arXiv:1701.00160, on training as a search "
           "for an equilibrium of a game, and on non-convergence). Progress shows in the samples (or a score such as "
           "FID); a failure shows as the discriminator's loss at about 0 for good while the generator's climbs (the "
           "discriminator won), samples that all look alike (mode collapse), or nan. A WGAN's critic loss turns "
           "negative once the critic tells real from generated samples, and its size estimates the Wasserstein distance between the real and the generated "
           "samples: it should shrink as they improve, and one that grows without bound means the critic's Lipschitz "
           "constraint does not hold (Arjovsky et al., 2017, arXiv:1701.07875, §4.2)",
           "samples from one fixed noise batch over the epochs, and both losses: finite, and the discriminator's not "
           "stuck near 0",
           # (a Wasserstein critic's loss is negative by construction)
           frozenset({"climb", "stuck", "negative"}), unless=_gan_unless),
    Normal("a reinforcement-learning loss, which says nothing of progress",
           # (the losses of RL by their names -- not a ValueError, a CLIP loss, "to reinforce robustness")
           re.compile(r"\b(?:policy|actor|pg|surrogate)[ _-]?(?:loss|objective)(?:es)?\b|\b(?:value|critic|td|q)[ _-]"
                      r"(?:function )?loss(?:es)?\b|\btd[ _-]error\b|"
                      r"\b(?:ppo|a2c|a3c|trpo|dqn|ddqn|sac|ddpg|td3|q-learning)\b[^.\n]{0,80}\bloss\b"),
           "in policy-gradient methods (REINFORCE, A2C, PPO) the policy loss is minus a surrogate of the return, "
           "computed on data the current policy has just collected: with the advantages normalised per batch (mean 0) "
           "and the probability ratio at 1 when an update starts, PPO's clipped surrogate starts each update at about "
           "0 (Schulman et al., 2017, arXiv:1707.06347, the objective L^CLIP), so its value is near 0 by construction, "
           "may be negative and may drift, and is no measure of progress; a value or TD loss (a critic's, DQN's) "
           "regresses targets built from the returns, which grow as the agent improves (and, in DQN, from a target "
           "network that moves), so it may rise for the whole run. The mean episodic return is the measure",
           "the mean episodic return over training (and the entropy, the approximate KL and the clip fraction)",
           frozenset({"negative", "climb", "diverge"}), unless=_rl_unless),
    Normal("a VAE's total loss under a KL weight that rises",
           # (a VAE named, and its KL weight said to be annealed or printed beside the KL: not a distillation's KL with a
           # learning-rate warmup, nor a diffusion model's beta schedule)
           re.compile(r"\b(?:vae|variational auto-?encoder)\b[^\n]{0,300}?\b(?:kl[ _-]?(?:anneal\w*|warm-?up|weight)|"
                      r"(?:beta|β)[ _-]?(?:anneal\w*|warm-?up|schedul\w*)|anneal\w* (?:of )?(?:the )?(?:kl|beta|β))\b|"
                      r"\b(?:vae|variational auto-?encoder)\b[\s\S]{0,600}?\bbeta\b[^\n]{0,40}\bkl\b"),
           "with the KL term's weight raised from 0 over the first epochs (KL cost annealing, Bowman et al., 2016, "
           "Generating Sentences from a Continuous Space), the total is a sum whose weights change: it can rise "
           "while both the reconstruction and the KL terms fall, and it means nothing to compare totals taken at "
           "different weights; at the full weight it falls again",
           "the reconstruction and the KL terms apart, epoch by epoch, and the KL weight beside them",
           frozenset({"climb", "diverge"}), unless=_vae_unless),
)

# A model said not to have learned: at chance, flat, climbing, or worse than the mean (an R^2 near or below 0), or a run
# that blew up -- not a comparison ("far above chance"), nor denied ("no nan", "does not diverge")
NOT_LEARNED = re.compile(r"\b(?:(?<!above )(?<!than )(?<!against )(?<!over )(?<!vs )(?<!for )chance|(?<!for )random guess\w*|"
                         r"r\^?2\b[^.\n]{0,40}?(?:-\d|\b0\.0\d)|worse than (?:predicting )?the mean|non-finite|diverg\w*|"
                         r"explod\w*|nan|stays? at|stuck|flat|(?:rises?|climbs?|grows?|increases?)\b)", re.I)
# ... and said to have learned: a held-out accuracy or score of 0.8 or more, or a loss said to fall
LEARNED = re.compile(r"(?i)\b(?:acc(?:uracy)?|score|f1|auc|r\^?2)\b[^.\n\d]{0,30}?(?:\b0\.[89]\d*\b|\b(?:[89]\d|100)(?:\.\d+)?\s*%)|"
                     r"\bloss\w*\b[^.\n]{0,40}?\b(?:falls?|fell|decreas\w*|goes down|going down|drops?)\b")


def _not_learned_said(text: str) -> str:
    """What says the model did not learn, or "" where the words say it learned and nothing says it did not."""
    for m in itertools.islice(NOT_LEARNED.finditer(text), 20):
        if not denied_before(text, m.start()):
            return m.group(0)
    if says_not_learning(text):
        return "the words say it does not learn"
    return "" if LEARNED.search(text) else "nothing says it learned"


# A training run (not a finder's sweep) said to break: "the training loss diverges after 2 epochs", "I ran fit() with
# its suggestion and the loss explodes" -- not denied ("runs fine, no nan"), nor asked ("will my run diverge?")
TRAINING_BROKE = re.compile(r"\b(?:training|train|trained|fit\(\)|real|actual)\b[^.\n?]{0,60}?"
                            r"\b(diverg\w*|explod\w*|blows? up|nan|inf)\b(?![^.\n]{0,80}\?)", re.I)


def _training_broke_said(text: str) -> str:
    for m in itertools.islice(TRAINING_BROKE.finditer(text), 10):
        broke = m.start() + m.group(0).rfind(m.group(1))        # (the failure word, denied within the match)
        if not denied_before(text, broke, reach=min(30, broke - m.start())):
            return m.group(0)
    return ""


NORMALS = OBJECTIVES + (
    Normal("negative loss", NEGATIVE_SAID,
           "a negative loss is normal when the loss is a negative log-likelihood of continuous data (a density can "
           "exceed 1) or minus a score such as Dice; it is impossible for cross-entropy or BCE whose targets lie "
           "in [0, 1], where it means the targets do not (masks of 0/255, labels past the last class)",
           "the loss function you use and the range of your targets (for example 0/1 or 0/255 masks)",
           # (not one of -1e6 or beyond: a likelihood or a critic that grew without bound)
           unless=lambda text: (m.group(0) if (m := re.search(HUGE_LOSS, text, re.I)) else "")),
    Normal("skipped steps under dynamic loss scaling",
           re.compile(r"gradient overflow\.?\s+skipping step|overflow! rank|gradient overflow detected|"
                      r"reducing loss scale|skipping step|gradients? overflow|"
                      # (PyTorch's warning when a scheduler steps after a first optimizer step the scaler skipped)
                      r"detected call of `?lr_scheduler\.step\(\)`? before `?optimizer\.step\(\)`?|"
                      # (the scale itself said to fall in the first steps, "GradScaler scale drops from 65536 to 8192
                      # in the first iterations", as it calibrates -- torch/amp/grad_scaler.py's docstring: it skips
                      # steps "for the first few iterations" while it calibrates; not one said to reach a minimum or
                      # zero, which fairseq's and DeepSpeed's scalers stop at)
                      r"\b(?:grad ?scaler|loss[ _]scal\w*|get_scale|scaler|the scale)\b[^.\n?]{0,60}?\b(?:drops?|dropp\w*|falls?|"
                      r"fell|halv\w*|decreas\w*|goes down|reduc\w*|shrinks?)\b(?:(?!minimum|\bmin\b|zero)[^.\n?]){0,60}?"
                      r"\b(?:(?:in|during|over|for) the (?:very )?first|at the (?:very )?(?:start|beginning))\b"),
           "with dynamic loss scaling an occasional overflow is expected: the step is skipped, the scale is "
           "halved and training carries on (PyTorch's GradScaler starts at 65536 and skips its first steps while it "
           "calibrates; a scheduler stepped after a skipped first step warns \"Detected call of `lr_scheduler.step()` "
           "before `optimizer.step()`\", since that step never called the optimizer); it is a failure only when the "
           "scale keeps falling to its minimum or the loss itself turns nan",
           "the loss values over time and how the loss scale moves (does it keep falling?)",
           frozenset({"overflow"}),
           # (not where nothing shows a loss scaler or half precision: a scheduler warning in a float32 run is the
           # loop's own order, and "the scale" of something else is no scaler)
           unless=lambda text: "" if HALF_SHOWN.search(text) or SCALER_SHOWN.search(text) else "no loss scaling"),
    # (the more particular first: a validation loss that rose is overfitting, and a gap too)
    Normal("overfitting: a validation loss that rises while the training loss falls",
           # ("has crept up slowly since", "bottomed at 0.33 around epoch 12")
           re.compile(rf"val(?:idation)?[ _-]?loss\b{_SAME_SUBJECT}(?:increas\w*|\bris(?:es|ing)\b|\brose\b|"
                      r"go(?:es|ing)? up(?! and down)|went up|climb\w*|gets? worse|\bcre(?:pt|eps?|eping) up|"
                      r"bottom(?:s|ed)? (?:out|at))|"
                      rf"val(?:idation)?[ _-]?acc(?:uracy)?\b{_SAME_SUBJECT}(?:decreas\w*|\bdrops?\b|"
                      r"dropping|\bfall(?:s|ing)\b|gets? worse)"),
           "a validation loss that bottoms out and then rises while the training loss keeps falling is overfitting: "
           "the model learns what is particular to the training examples. It is what training does on too little "
           "data for too long, not a numerical failure, and not one this catalogue covers; the usual remedies are "
           "early stopping at the lowest validation loss (Keras's EarlyStopping(restore_best_weights=True)), more data "
           "or augmentation, weight decay or dropout, or a smaller model",
           "the validation loss of each epoch beside the training loss: overfitting shows it lowest some epochs in, "
           "then rising while the training loss falls; a failure shows in the training loss itself, as nan, inf or a "
           "climb",
           frozenset({"climb"})),
    Normal("a gap between training and validation loss",
           # (whole words: "a 6k-image flowers subset" holds no "lower")
           # (or the accuracy's, said against the training one: "val accuracy way lower than train")
           re.compile(r"val(?:idation)?[ _-]?loss.{0,80}\b(?:higher|lower|bigger|smaller|greater|than|differ)|"
                      r"val(?:idation)?[ _-]?acc(?:uracy)?\b[^.\n]{0,30}?\b(?:lower|higher|smaller|bigger|worse|better) "
                      r"than (?:the )?train|"
                      r"\b(?:higher|lower|bigger|smaller|greater) than.{0,40}(?:evaluat|validation|val[ _-]loss)|"
                      # (a training accuracy of 90% or more beside the validation one, "train accuracy is 100% by step
                      # 500, but validation accuracy stayed between 1 and 5%"; or a model said only to memorise its
                      # training set -- not one that cannot memorise a batch, the failed sanity check)
                      r"\btrain\w*[ _-]?acc(?:uracy)?\b[^.\n]{0,40}?\b(?:(?:100|9\d)(?:\.\d+)?\s*%|1\.0\b|0\.9\d*\b)[^\n]{0,120}?"
                      r"\bval(?:idation)?[ _-]?acc(?:uracy)?\b|"
                      r"\b(?:just|only|simply|merely)\s+memori[sz](?:e|es|ing)\s+(?:the\s+)?train(?:ing)?\s+(?:set|data)\b|"
                      # (within one sentence: "train and validation accuracy 10.0%. Every image gets the same
                      # prediction" says no gap)
                      r"(?:fit|train\w*)(?:[^.\n]|\.\d){0,40}(?:evaluate|validation)(?:[^.\n]|\.\d){0,40}(?:same|differ)"),
           "the training loss is an average over an epoch while the weights change (and with dropout on); the "
           "validation loss is measured once at the end, so the two differ even in a healthy run. Both make training "
           "look worse than it is: they explain a validation loss a little below the training loss, not a validation "
           "score well below the training one -- a gap that way means the model fits the rows it trained on better "
           "than new ones (overfitting), or the validation rows differ from the training rows (a split that is not "
           "random, another preprocessing)",
           "both curves over the epochs: a failure shows as nan, inf or a climb, not as a gap"),
    Normal("spikes in a falling curve",
           re.compile(r"\bspik\w*|\bspiky\b|\bjumps? (?:up|around)\b"),
           "isolated spikes in a curve that trends down are mini-batch noise, larger with small batches; a spike "
           "in the first steps that then recovers is the no-warmup signature instead",
           "the loss values: where the spikes are and whether the curve still trends down",
           falls=True,        # (its answer is a curve that trends down: not beside values that did not fall)
           unless=no_warmup_said),
    Normal("a large loss at the start",
           re.compile(r"loss (?:is|was|looks) (?:so |very |too )?(?:big|large|huge|high)|(?:big|large|huge|high) "
                      r"loss|(?:starts?|starting|begins?) (?:so |this |that |very |too |really )?(?:big|large|huge|high)"
                      r"|is it (?:an error|normal)"),
           "a loss that starts high and falls is healthy; what matters is whether it falls, not where it starts",
           "the loss values over the first epochs", falls=True),
    Normal("an optimizer stopped at its iteration limit",
           # (scikit-learn's MLPClassifier and MLPRegressor, at the end of fit())
           re.compile(r"maximum iterations \(\d+\) reached and the optimization hasn'?t converged yet"),
           "scikit-learn's MLPClassifier and MLPRegressor warn \"Stochastic Optimizer: Maximum iterations (N) reached "
           "and the optimization hasn't converged yet.\" whenever fit() runs its max_iter epochs without stopping "
           "earlier (https://github.com/scikit-learn/scikit-learn/blob/1.9.1/sklearn/neural_network/"
           "_multilayer_perceptron.py#L786-L787); it stops earlier only once the training loss (or, with "
           "early_stopping=True, the validation score) has not improved by tol for n_iter_no_change epochs in a row. "
           "The warning says only that the epochs ran out before that stop: most often the loss is still improving, "
           "and the model is as trained as max_iter allowed (a run that never settles, or blows up, gets it too, so "
           "it proves nothing either way). Judge the model by its held-out score and loss_curve_; raise max_iter, or "
           "set early_stopping=True, if the curve is still falling",
           "clf.loss_curve_ over the iterations (still falling at the end?) and the held-out score",
           # (not beside words that the model did not learn -- chance accuracy, a flat loss, an R^2 below 0 -- nor a
           # run that blew up: the warning is printed then too, and says nothing of why)
           unless=_not_learned_said),
    Normal("scikit-learn's squared-error loss_, which is half the mean squared error",
           # (MLPRegressor's loss_ or loss_curve_ said to be half, or twice, the MSE the reporter computes)
           re.compile(r"\bloss_(?:curve_)?\b[^\n]{0,160}?\b(?:half|twice|2x|factor of (?:2|two))\b|"
                      r"\b(?:half|twice)\b[^\n]{0,80}?\bloss_(?:curve_)?\b"),
           "scikit-learn's MLPRegressor minimises half the mean squared error, 0.5 * mean((y - y_pred) ** 2) "
           "(https://github.com/scikit-learn/scikit-learn/blob/1.9.1/sklearn/neural_network/_base.py#L187-L189), plus "
           "its L2 penalty, 0.5 * alpha * (the sum of the squared weights) / n_samples "
           "(https://github.com/scikit-learn/scikit-learn/blob/1.9.1/sklearn/neural_network/_multilayer_perceptron.py#L361): "
           "its loss_ and loss_curve_ are about half of mean_squared_error on the same rows (a little more, by the "
           "penalty), by definition; the model is the one fit() trained",
           "2 * reg.loss_ beside mean_squared_error(y_train, reg.predict(X_train)): equal, up to the small L2 term"),
    Normal("PyTorch's warning on a read-only NumPy array",
           re.compile(r"the given numpy array is not writable"),
           "torch.from_numpy and torch.as_tensor share memory with the array they are given, and a read-only array "
           "(np.load(..., mmap_mode=\"r\"), an array over a bytes buffer) cannot be made writable for them, so "
           "PyTorch warns once that writing to the tensor would be undefined behavior (\"The given NumPy array is not "
           "writable, and PyTorch does not support non-writable tensors.\", triggered at "
           "https://github.com/pytorch/pytorch/blob/v2.13.0/torch/csrc/utils/tensor_numpy.cpp#L213 in the 2.13.0 "
           "build). Reading from the tensor, as a Dataset's __getitem__ does, is fine: the warning changes no value. "
           "Copy the array (np.array(x), torch.tensor(x)) to silence it",
           "whether anything writes to those tensors in place (an augmentation that changes its input, `x += ...`), "
           "and the loss values over the epochs"),
    Normal("a learning-rate finder's sweep, which ends in divergence by design",
           # (Lightning's message, or a range test, an lr finder named beside a loss said to diverge or shoot up)
           # (the sweep's own end -- Lightning's line -- or the finder's plot or curve said to shoot up)
           re.compile(r"lr finder stopped early after \d+ steps due to diverging loss|"
                      r"\b(?:lr[ _]?find(?:er)?|learning[ -]rate finder|lr range test|learning[ -]rate range test)\b"
                      r"[^.\n?]{0,40}?\b(?:plot|curve|sweep|ended|ends?|stopped|stops)\b[^.\n?]{0,60}?"
                      r"\b(?:diverg\w*|shoots? up|blows? up|explod\w*)\b(?![^.\n]{0,60}\?)"),
           "a learning-rate range test raises the rate step by step, over one short run, from far too small to far too "
           "large, and reads where training stops improving and starts to fall apart (Smith, Cyclical Learning Rates "
           "for Training Neural Networks, 2017, section 3.3, raises it linearly and plots the accuracy; Lightning plots "
           "the loss and raises the rate exponentially by default): the blow-up at the end of the sweep is its "
           "purpose, not a fault of the model. "
           "Lightning's Tuner.lr_find stops when the smoothed loss passes early_stop_threshold (4.0) times its lowest "
           "and then logs \"LR finder stopped early after N steps due to diverging loss.\" "
           "(https://github.com/Lightning-AI/pytorch-lightning/blob/2.6.6/src/lightning/pytorch/tuner/lr_finder.py#L270, "
           "the check at #L425-L430); the rate to train with is the one it suggests, well below where the loss turned",
           "the finder's loss-against-rate plot: flat, then falling, then shooting up at the high end; and a run at "
           "the suggested rate",
           frozenset({"diverge", "climb"}),
           # (not beside a training run said to break: at the rate the finder suggested, or any other)
           unless=_training_broke_said),
    Normal("nan in a Darknet Region line with no objects",
           re.compile(r"region (?:\d+ )?avg \(?iou: -?nan[^\n]*count: 0\b"),
           "a Darknet `Region` line with `count: 0` divides its IOU, Class, Obj and recall sums by that count of "
           "objects, 0/0, and prints -nan (https://github.com/pjreddie/darknet/blob/"
           "011eed632d70c4e907ad512e2ac1e04d90b1072c/src/yolo_layer.c): no object of that scale was in the batch. "
           "`No Obj` divides by the number of anchors instead, so a nan there, like a nan in the `avg` (loss) "
           "field, means the outputs are nan; the AlexeyAB fork's README gives the rule for the avg field "
           "(https://github.com/AlexeyAB/darknet/blob/61307b664f3c19e001699b80ed21c0817cbb67a3/README.md)",
           "the iteration lines (`1234: 2.31, 2.45 avg loss, ...`) and the `No Obj` values: whether any is nan",
           frozenset({"nan"})),
    Normal("COCO evaluation's -1 (detectron2's nan) for an area range with no objects",
           # (COCOeval's own summary line at -1.000, detectron2's note and its table's nan, mmdetection's bbox_mAP_s)
           re.compile(r"\barea\s*=\s*(?:small|medium|large)\s*\|\s*maxdets\s*=\s*\d+\s*\]\s*=\s*-1\.000\b|"
                      r"some metrics cannot be computed and is shown as nan|"
                      r"\b(?:bbox|segm)_map_[sml]\b\s*[:=]\s*-1\.0+\b"),
           "COCOeval starts every precision and recall at -1 (https://github.com/cocodataset/cocoapi/blob/"
           "8c9bcc3cf640524c4c20a9c40e89cb6a2f2fa0e9/PythonAPI/pycocotools/cocoeval.py#L334), leaves a setting with no "
           "ground-truth object there (#L373), and its summary averages only the values above -1, printing -1 when "
           "there are none (#L452-L455). An area range is measured on each annotation's `area` field, small being under "
           "32 x 32 = 1024 (#L509): a -1.000 for small means no ground-truth object of the evaluated split is that "
           "small, in the units the annotations were written in -- nothing to measure, not a fault of training. "
           "detectron2 shows such a -1 as nan and logs \"Some metrics cannot be computed and is shown as NaN.\" "
           "(https://github.com/facebookresearch/detectron2/blob/v0.6/detectron2/evaluation/coco_evaluation.py#L337-L344); "
           "the other APs are the ones to read",
           "how many ground-truth annotations of the evaluated split have an `area` under 1024 (32 x 32); with none, "
           "the -1 is expected",
           frozenset({"nan"})),
)


# Not asked about but shown: NumPy's overflow warning from exp beside a loss that stayed finite and fell. The inf
# went nowhere the loss could see (WR-020's bonus point: a sigmoid written 1/(1 + exp(-z)) warns at z = -1000 and
# returns the correctly rounded 0.0); it becomes the failure once an inf meets a division or a log.
BENIGN_OVERFLOW = Normal(
    "an overflow warning beside a finite loss",
    re.compile(r"overflow encountered in exp\b"),
    "exp overflowed to inf somewhere, but no inf or nan reached the loss, which stayed finite and fell: in a sigmoid "
    "written 1/(1 + exp(-z)), exp(-z) is inf for a very negative z and the result, 1/inf = 0.0, is the correctly "
    "rounded answer; the overflow is a failure where the inf meets a division or a log (a softmax's inf/inf is "
    "nan, log(0) is -inf), and then the loss shows it (WR-020)",
    "the line the warning names (a sigmoid's exp is harmless, a softmax's or a loss's is not) and whether the loss "
    "ever turns nan or inf",
    frozenset({"overflow"}))


# Asked about, in words: a first loss that is ln C for the C classes (or a vocabulary's C tokens) the report names
# (start_loss.uniform_start) -- the uniform guess a fresh classifier makes.
UNIFORM_START = Normal(
    "a first loss of ln C",
    re.compile(r"(?!)"),        # (not asked by a pattern: diagnose asks start_loss.uniform_start)
    "a fresh classifier's first cross-entropy is near ln C for C classes (ln 10 = 2.3026; ln 32000 = 10.37 for a "
    "32,000-token vocabulary): its outputs start near equal, and the uniform guess costs ln C on every example; it is "
    "where a healthy run starts, not a sign that anything is broken, and what matters is that the loss falls from it",
    "the loss values after the first: whether they fall below ln C")


# Not asked about but shown: the loss rose each time the learning rate printed beside it jumped back up, and came
# back down (a warm restart, a cyclical schedule, a new warmup).
RESTARTED = Normal(
    "a rise each time the learning rate jumps back up",
    re.compile(r"warm[ _-]?restarts?|cosineannealingwarmrestarts|sgdr|cyclic\w*|one[ _-]?cycle\w*|restarts?"),
    "a schedule that raises the learning rate again (a warm restart of a cosine schedule, a cyclical rate, a new "
    "warmup) makes the steps large again: they undo part of what the small steps had settled, the loss rises, and "
    "it comes back down as the rate decays; a rise that comes only with such a jump and recovers is the schedule at "
    "work, not a failure",
    "the learning rate and the loss around each rise: whether every rise comes with a jump of the rate and recovers")


# ... or said in words: a cosine schedule with warm restarts named (SGDR, Loshchilov & Hutter 2017: the rate starts again
# at its top every T_i epochs, T_i = T_0 * T_mult^i), and the loss said to jump and recover at two epochs or more that
# fall where its restarts do -- the second at 2x (T_mult = 1) or 3x (T_mult = 2) the first, counted from 0 or from 1
# ("at epoch 11 ... and again at 31": T_0 = 10, T_mult = 2)
COSINE_SAID = re.compile(r"(?i)\bcosine[ _-]?(?:anneal\w*|schedul\w*|lr|decay|with restarts)|cosineannealing\w*|"
                         r"warm[ _-]?restarts?|\bsgdr\b|\bcosine\b(?=[^.\n]{0,60}\b(?:schedul\w*|lr|learning rate)\b)|"
                         r"\b(?:schedul\w*|lr|learning rate)\b[^.\n]{0,60}\bcosine\b(?! similarity)")
NO_RESTARTS = re.compile(r"(?i)\b(?:no|without)\s+(?:warm\s+)?restarts?\b|\bt_max\s*=")
RECOVERED_SAID = re.compile(r"(?i)(?<!never )(?<!not )(?<!n't )(?<!partly )(?<!partially )(?<!fully )"
                            r"\b(?:recover(?:s|ed|ing)?|comes? back down|came back down)\b")
_JUMP = r"(?:jump\w*|spike\w*|ris(?:es|ing)|shoots? up|goes up|went up)"
JUMP_AT = re.compile(r"(?i)\bloss\w*\b[^.;\n]{0,40}?\b" + _JUMP + r"\b[^.;\n]{0,60}?\bepochs? (\d{1,4})\b|"
                     r"\bat epochs? (\d{1,4})\b[^.;\n]{0,60}?\bloss\w*\b[^.;\n]{0,30}?\b" + _JUMP + r"\b")
AGAIN_AT = re.compile(r"(?i)\bagain at (?:epoch )?(\d{1,4})\b|\band (?:again )?at epoch (\d{1,4})\b")


def restarts_said(text: str) -> str:
    """The epochs, when the words name a cosine schedule (with warm restarts, or one whose restarts they do not deny)
    and say the loss jumped and recovered at epochs that fit its restarts; else ""."""
    if not COSINE_SAID.search(text) or NO_RESTARTS.search(text) or not RECOVERED_SAID.search(text) \
            or said_unnegated(text, {"nan", "inf"}) or STUCK.search(text.lower()):
        return ""
    epochs = sorted({int(g) for m in itertools.islice(JUMP_AT.finditer(text), 10) for g in m.groups() if g}
                    | {int(g) for m in itertools.islice(AGAIN_AT.finditer(text), 10) for g in m.groups() if g})
    for first, second in itertools.combinations(epochs, 2):
        for base in (0, 1):
            period = first - base
            if period >= 2 and second - base in (2 * period, 3 * period):
                return f"epochs {first} and {second}"
    return ""


def normals_asked(text: str) -> list[Normal]:
    low = text.lower()
    return [n for n in NORMALS if n.asked.search(low) and not (n.unless and n.unless(text))]


def normal_ruled_out(text: str) -> bool:
    """Does the text report a behaviour that would be normal, but not in the run it describes (spikes in a run said
    to have no warmup: that run's failure)?"""
    low = text.lower()
    return any(n.unless is not None and n.asked.search(low) and n.unless(text) for n in NORMALS)
