"""Half precision in a report's words and code: shown switched on (a flag, a mode, a scaler, a cast), named only to
be denied ("fp16=False", "not using amp"), bfloat16 alone (float32's range), and a run the reporter moved to full
precision, and what came of it (WR-040's own check).
"""
from __future__ import annotations

import itertools
import re

from .frozen_said import weights_half
from .rate_tried import RAN_BADLY, RAN_WELL
from .sentences import sentence_around, sentences_and_ends
from .thesaurus import fold_text, tokens_of_folded
from . import lazy_regex


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
SCALER_SHOWN = lazy_regex.compile(r"(?i)gradient overflow|skipping step|loss scale|overflow! rank|scaler")
HALF_SHOWN = lazy_regex.compile(r"(?i)(?<![\w-])(?:--)?(?:fp16|float16|mixed_float16|half[- ]precision|mixed[- ]precision|autocast"
                                r"|grad[ _-]?scaler|loss[ _-]?scal(?:e|er|ing)|LossScaleOptimizer|precision[ =:\"']{1,4}16(?:-mixed)?"
                                r"|opt_level[ =:\"']{1,4}O[123])(?![\w-])|\.half\(\)"
                                # (amp as its acronym or an API, not a column or a variable called amp)
                                r"|(?<![\w-])(?-i:AMP)(?![\w-])|(?:torch\.(?:cuda\.)?|apex\.)amp\b|(?<![\w-])(?:--|use_)amp\b"
                                r"|\bamp\s*=\s*True\b")
# bfloat16 has float32's range: a report that names it, and no float16 as such, computes in no half that overflows
BF16_ONLY = lazy_regex.compile(r"(?i)\b(?:bf16|bfloat16|mixed_bfloat16)\b")
# (float16 by its other names: Lightning's precision="16-mixed" or 16 and its "Using 16bit Automatic Mixed Precision
# (AMP)" -- not "bf16-mixed", an image's "16-bit", nor a precision metric, "precision: 16.7%")
# (`.half()` after the name it is called on: `model.half()`)
FP16_NAMED = lazy_regex.compile(r"(?i)(?<![\w-])(?:fp16|float16|mixed_float16)|\.half\(\)|(?<![\w-])--fp16\b|(?<![\w-])16-mixed\b|"
                                r"\bprecision[ =:\"']{1,4}16(?![\w.%-])|(?<![\w-])16[- ]?bit (?:automatic )?mixed[- ]precision\b")


# (a GradScaler is float16's: bfloat16 needs none -- unless the autocast it serves is shown in bfloat16)
GRAD_SCALER = lazy_regex.compile(r"(?i)\bgrad[ _-]?scaler\b")
BF16_AUTOCAST = lazy_regex.compile(r"\bdtype\s*=\s*(?:torch\.)?bfloat16\b")


def bf16_only(text: str) -> bool:
    """Does the text name bfloat16 and no float16 as such? (Its half precision has float32's range.)"""
    return bool(BF16_ONLY.search(text)) and not FP16_NAMED.search(text) \
        and not (GRAD_SCALER.search(text) and not BF16_AUTOCAST.search(text))


# (a sentence that names half precision as what others say of it, or as a plan, and says this run is in full precision:
# "I read that AMP has problems with this layer, but I'm training in float32" -- HEARSAY's words, below)
RUN_IN_FULL = lazy_regex.compile(r"(?i)\b(?:running|run|training|trained|train|fine-?tun\w*|i'?m|i\s+am|we'?re|we\s+are|everything\s+is|"
                                 r"all\s+is)\b[^.;\n]{0,20}?\b(?:in|with|on)\s+(?:fp32|float32|full\s+precision|single\s+precision)\b")


# A naming of half precision that shows it off, not on: a flag or a configuration's value set to false (`fp16=False`,
# DeepSpeed's `"fp16": {"enabled": false}`), or a framework's line that names its backend (Hugging Face's Trainer prints
# "Using cuda_amp half precision backend" under fp16 or bf16 alike)
SET_OFF = lazy_regex.compile(r"""(?i)["']?\s*[=:]\s*(?:\{\s*["']?enabled["']?\s*:\s*)?["']?(?:false|0|no|none|off)\b""")
BACKEND = lazy_regex.compile(r"(?i)\s+backend\b")
# ... or one that is asked about, planned, or passed on from others ("could autocast be the cause?", "should I try
# mixed precision?", "someone suggested AMP might cause it"), said before the naming in its sentence
ASKED_OR_TOLD = lazy_regex.compile(r"(?i)\b(?:said|says|suggest\w*|recommend\w*|according\s+to|heard|read\s+that|"
                                   r"maybe|perhaps|should\s+(?:i|we)|(?:thinking|planning)\s+(?:of|about|to)|plan\s+to|"
                                   r"want\s+to|wonder\w*)\b")
USE_SAID = lazy_regex.compile(r"(?i)\b(?:i|we)(?:'m|'re|\s+am|\s+are)?\s+(?:use|using|used|train\w*|run\w*|enabled?|"
                              r"turned\s+on|switched\s+on)\b|\b(?:my|our)\b")
QUESTION_OPENING = lazy_regex.compile(r"(?i)^\s*(?:could|can|might|may|should|would|does|do|is|are|will|did)\b")
# ... or where a model came from, in a sentence that says this run is in full precision ("pretrained in fp16 by someone
# else; I fine-tune it in fp32")
ORIGIN = lazy_regex.compile(r"(?i)\b(?:pre-?trained|trained\s+by|exported|saved|checkpoint\w*)\b")

# ... or the format of stored data, not the run's arithmetic: "fp16 .npy shards", "float16 embedding files" (a data
# noun right after it), or "teacher logits stored as fp16", "features cached in float16" (a verb of storing before it,
# and a noun of data before that in its sentence) -- not the run's own weights or activations, which are "kept in fp16"
# or "stored as fp16 on the GPU" by the run that computes with them.
STORED_AS = lazy_regex.compile(r"(?i)\b(?:stored|cached|saved|written|dumped|precomputed)\s+(?:as|in)\s+$")
DATA_NOUN = lazy_regex.compile(r"(?i)\b(?:features?|embeddings?|dataset|data|shards?|files?|logprobs?|logits|outputs|"
                               r"targets?|labels?|images?|arrays?|teacher)\b")
DATA_AFTER = lazy_regex.compile(r"(?i)\s+(?:\.?np[yz]|shards?|files?|arrays?|features?|embeddings?|records?|"
                                r"tfrecords?|parquet|hdf5|h5)\b")


def half_precision_shown(text: str, words: list[str]) -> str:
    """What in the report shows half precision switched on (quoted as written), or "" -- also when its words
    name it only to deny it (`words`: the text's tokens, whose fp16 a negator has already dropped), set it off, ask about
    it, plan it, pass it on as hearsay, or name it as where a model came from or hearsay in a sentence that says this
    run is in full precision."""
    if "fp16" not in words or bf16_only(text):
        return ""
    m = next((m for m in itertools.islice(HALF_SHOWN.finditer(text), 10) if not _not_this_run(text, m)), None)
    return " ".join(m.group(0).split()) if m else ""


# A naming that sets half precision on in configuration or code: a value after it (`fp16=True`, `"fp16": {...}`,
# `precision: 16`), a call (`autocast(`, `GradScaler(`), a command-line flag, or a name only code writes
# (`mixed_float16`, `LossScaleOptimizer`, `.half()`): on whatever the mood of the sentence around it ("is this because
# I train with fp16=True?") -- a question, a plan or hearsay speaks of the bare words only ("could AMP be the cause?")
SET_IN_CODE = lazy_regex.compile(r"""\s*(?:["']\s*)?[=:(]""")
CODE_ONLY = lazy_regex.compile(r"(?i)^(?:--|\.half|mixed_float16|lossscaleoptimizer|opt_level)")
# ... and one whose call or block turns it off after the naming: `autocast(device_type="cuda", enabled=False)`,
# DeepSpeed's `"fp16": {"loss_scale": 0, "enabled": false}`
ENABLED_FALSE = lazy_regex.compile(r"(?i)[\"']?enabled[\"']?\s*[=:]\s*(?:false|0)\b")


def _not_this_run(text: str, m: re.Match) -> bool:
    """Does this naming of half precision say something other than that this run computes in it?"""
    if SET_OFF.match(text, m.end()) or BACKEND.match(text, m.end()):
        return True
    if SET_IN_CODE.match(text, m.end()) or CODE_ONLY.match(m.group(0)):
        return bool(ENABLED_FALSE.search(_call_or_block(text, m.end())))
    start, end = sentence_around(text, m.start(), m.end(), stops=".;\n?!")
    # (unless the reporter says between them that they use it: "could it be because I use AMP?", "maybe the issue: my
    # fp16 run goes nan")
    if (told := ASKED_OR_TOLD.search(text, start, m.start())) and not USE_SAID.search(text, told.end(), m.start()):
        return True
    if end < len(text) and text[end] == "?" and QUESTION_OPENING.match(text[start:m.start()]) \
            and not USE_SAID.search(text, start, m.start()):
        return True
    if _hearsay(text, m):
        return True
    if DATA_AFTER.match(text, m.end()) or (STORED_AS.search(text[max(0, m.start() - 30):m.start()])
                                           and DATA_NOUN.search(text, start, m.start())):
        return True
    if not ORIGIN.search(text, start, m.start()):
        return False
    # (the whole sentence, its clauses after a semicolon included)
    start, end = sentence_around(text, m.start(), m.end(), stops=".\n?!")
    return bool(RUN_IN_FULL.search(text, start, end))


def _call_or_block(text: str, at: int) -> str:
    """The call's arguments or the block's contents that open right after a naming (up to its closing bracket, on
    its line or within 200 characters), or ""."""
    opening = re.match(r"""\s*(?:["']\s*)?(?::\s*)?([({])""", text[at:at + 40])
    if not opening:
        return ""
    close = ")" if opening.group(1) == "(" else "}"
    start = at + opening.end()
    end = text.find(close, start, start + 200)
    return text[start:end if end >= 0 else min(len(text), start + 200)]


def _hearsay(text: str, m: re.Match) -> bool:
    """Is this naming of half precision what others say of it, in a sentence that says this run is in full precision?"""
    start, end = sentence_around(text, m.start(), m.end())
    return bool(HEARSAY.search(text, start, m.start()) and RUN_IN_FULL.search(text, start, end))


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
FULL_PRECISION = lazy_regex.compile(r"\b(?:fp32|float32|full precision|single precision|fp64|float64|bf16)\b|"
                                    r"\b(?:without|no|disabl\w*|turn\w* off|switch\w* off|remov\w*)\s+(?:the\s+|those\s+|these\s+)?"
                                    r"(?:(?:two|both|three|all|\d)\s+)?(?:\.\s*)?fp16\b|"
                                    # ("with autocast switched off", folded to fp16)
                                    r"\bfp16\s*(?:=\s*false|off\b|disabled|removed|(?:switched|turned|taken)\s+off\b)")
PRECISION_WORD = lazy_regex.compile(r"(?i)fp32|float|precision|fp64|bf16|bfloat|fp16|amp|half|autocast")
NO_NAN = lazy_regex.compile(r"\b(?:no|zero|without(?:\s+(?:a\s+single|any|one))?|not\s+(?:a\s+single|one))\s+nans?\b")
ALSO = lazy_regex.compile(r"\b(?:also|still|same|too|even|either|as well)\b")
FIXED = lazy_regex.compile(r"\b(?:fix(?:es|ed)?|solves?|solved|goes away|went away|disappear(?:s|ed)?)\b")
NOT_WELL = lazy_regex.compile(r"(?:\bnot|n't|\bnever|\bno longer)\s+(?:\w+\s+){0,2}?(?:converg|work|train|learn|help|fix|solv)")
HEARSAY = lazy_regex.compile(r"\b(?:said|says|suggest\w*|recommend\w*|according|heard|read that|should|would|might|could|"
                             r"maybe|perhaps|try|trying|cast\w*|convert\w*|astype|dtype)\b")
# A run compared with a full-precision one ("matches my fp32 run", "the same as in float32"): no run was moved out of
# half precision to see what changes -- the two agree.
LIKE_FULL = lazy_regex.compile(r"\b(?:match\w*|same as|identical to|just like|as (?:good|well|fast) as|equal to|close to|"
                               r"tracks?|follows?)\s+(?:(?:my|the|a|an|our)\s+)?(?:fp32|float32|full precision|single precision)")
PRECISION_CLAUSE = lazy_regex.compile(r",|\bbut\b|\bwhile\b|\bwhereas\b")
# Full precision named as where a run's weights came from, not as how it ran: "fine-tuning in fp16 from the fp32
# checkpoint is nan" is a half-precision run (and Lightning's `precision=32`, a run in float32, is read as one)
FULL_ORIGIN = lazy_regex.compile(r"\bfrom\s+(?:the\s+|a\s+|an\s+|my\s+|our\s+)?(?:fp32|float32|full precision|single precision|"
                                 r"fp64|float64|bf16)(?:\s+[\w-]+){0,2}?\s+(?:checkpoints?|ckpt|weights|models?|init\w*|"
                                 r"pretrain\w*)\b")
LIGHTNING_32 = lazy_regex.compile(r"\bprecision\s*=\s*['\"]?(?:32|64)(?:-true)?(?![\d.%])")


# (a run in full precision said to go well in the words of a finished run: "trains to the end without any problem" --
# not "trains to the end of epoch 5, then blows up", which RAN_BADLY reads)
RAN_TO_THE_END = lazy_regex.compile(r"\b(?:trains?|runs?|ran|trained)\s+to\s+(?:the\s+end|completion)\b(?!\s+of\b)|"
                                    r"\bwithout\s+(?:any\s+)?(?:problems?|issues?|trouble)\b")


# (nor a loss that falls too slowly, nor outputs that are garbage: "in bf16 the loss decreases very slowly, output is
# gibberish" says the run out of float16 went badly too)
# (slowness said of the learning, not of the wall clock: "fp32 is just too slow for us" went well)
POORLY = lazy_regex.compile(r"\b(?:loss|learn\w*|converg\w*|decreas\w*|drops?|falls?|improv\w*)\s+(?:\w+\s+){0,2}?"
                            r"(?:very|too|so|extremely)\s+slow(?:ly)?\b|\b(?:barely|gibberish|garbage|word salad|nonsense)\b|"
                            # (the fold leaves two spaces where it rewrote a word: "no longer  stuck")
                            r"(?<!no longer )(?<!no longer  )(?<!not )(?<!not  )(?<!never )(?<!never  )(?<!un)"
                            r"\b(?:stuck|plateau\w*)\b")


def _clause_went(clause: str) -> str:
    """"well" / "badly" / "" for one clause of folded text."""
    bad = bool(RAN_BADLY.search(NO_NAN.sub(" ", clause)) or NOT_WELL.search(clause) or POORLY.search(clause))
    good = not bad and bool(RAN_WELL.search(clause) or RAN_TO_THE_END.search(clause) or FIXED.search(clause)
                            or NO_NAN.search(clause))
    return "badly" if bad else "well" if good else ""


def precision_tried(text: str) -> tuple[str, str]:
    """("helped" or "failed", the sentence that says so, as written) when the text says the run was tried in full
    precision, else ("", "")."""
    said = {}
    text = re.sub(r"#[^\n]*", " ", text)                  # (a comment is the code's, not the report's)
    for sentence, end in sentences_and_ends(text):
        if end == "?" or not PRECISION_WORD.search(sentence):
            continue
        folded = FULL_ORIGIN.sub(" ", LIGHTNING_32.sub(" fp32 ", fold_text(sentence)))
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


# The Fix section's items for half precision's faces
OVERFLOW_FIX, UNDERFLOW_FIX, HALF_WEIGHTS_FIX = "Overflow in the forward pass", "Underflow", "Float16 weights"


def precision_face(parts: dict[str, float], prose: str, half_shown: str, nonfinite: bool) -> str:
    """The item of half precision's Fix section that the paste points to, where it shows half precision in use
    (`half_shown`, as half_precision_shown found it; `nonfinite`, a nan or an inf printed or said): the section opens by
    asking for mixed precision -- float32 weights and optimizer state, 16-bit compute -- which autocast, a GradScaler,
    Keras's mixed_float16 policy and the trainers' fp16 flags already are. Weights shown in float16 are that item's;
    gradients said to be 0, or autocast with no nan, the underflow a loss scale lifts -- where the paste shows no scaler
    already; a nan or an inf, the forward pass's overflow, which no loss scale reaches. "" keeps the opening."""
    if not half_shown and not any(parts.get(k, 0) > 0 for k in ("flushed", "loop-unscaled", "full-precision")):
        return ""
    if weights_half(prose):
        return HALF_WEIGHTS_FIX
    if parts.get("flushed", 0) > 0 or (parts.get("loop-unscaled", 0) > 0 and not nonfinite):
        return "" if SCALER_SHOWN.search(prose) else UNDERFLOW_FIX
    return OVERFLOW_FIX if nonfinite else ""
