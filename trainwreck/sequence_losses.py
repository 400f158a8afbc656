"""Losses of sequence models that no entry covers: a language model whose loss went to near 0 while its generations
are bad (each position saw the token it is asked for, and it learned to copy), and a CTC loss that is inf (no
alignment of the targets fits the frames the model gives them).
"""
from __future__ import annotations

import itertools
import math
import re

from .logscan import Evidence
from .sentences import said_unnegated
from . import lazy_regex

# A language model (GPT, decoder-only, causal, next-token) whose training loss fell to near 0 while its generations
# repeat or make no sense, and whose validation loss (where it is given) is near 0 too: no model gets near 0 on text
# it has not seen (about two thirds of a nat per character at best, more per word or subword), so each position sees
# the token it is asked for -- targets that are the inputs unshifted, or a mask that lets a position look ahead -- and
# the model learns to copy, which it cannot do when it generates. Not covered. (A model that memorised a small
# training set gets near 0 on it too, but its validation loss stays high: not this.)
LANGUAGE_MODEL = lazy_regex.compile(r"(?i)\bgpt\w*|\blanguage[ -]models?\b|\bdecoder[ -]only\b|\bcausal\b|\bnext[ -]token\b|"
                                    r"\bautoregressive\b|\bchar-?rnn\b|(?-i:\bLMs?\b)")
GENERATION_BAD = lazy_regex.compile(r"(?i)\b(?:generat\w*|samples?|sampling|completions?)\b[^.\n]{0,120}?\b(?:repeat\w*|garbage|"
                                    r"gibberish|nonsense|(?:the )?same (?:token|word|character|letter)s?|copies|copying)\b")
# (a number after the word loss, not another quantity's named right before it: not "loss with lr 0.001 stays at 3.4")
NEAR_ZERO_SAID = lazy_regex.compile(r"(?i)\bloss\w*\b[^.\n]{0,40}?(?:\b(?:almost|nearly|basically|practically|close to|near) "
                                    r"(?:0(?:\.0+)?|zero)\b|(?<![\d.])(?<!lr )(?<!lr=)(?<!rate )(?<!decay )(?<!dropout )(?<!wd )"
                                    r"(?<!eps )(?<!scale )(?<!scale=)(?<!momentum )(?<!temperature )0?\.0[0-4]\d*(?![\d.]))")
VALIDATION_LOSS = lazy_regex.compile(r"(?i)\b(?:val(?:idation)?|eval|test)[ _]?loss\w*\b(?:[^.\n]|\.(?!\d)){0,30}?(?<![\d.])(\d+\.\d+)")
COPYING_LOSS = 0.05          # nats per token: far below any text's entropy


# A CTC loss that is inf (nn.CTCLoss, ctc_loss, Keras's ctc_batch_cost): no alignment of the targets fits the frames
# the model outputs for them -- CTC needs a frame per target label, and one more for the blank between two adjacent
# repeated labels -- so the target's probability is 0 and its negative log is inf; "Infinite losses mainly occur when
# the inputs are too short to be aligned to the targets" (torch.nn.CTCLoss, zero_infinity). Not covered.
CTC_NAMED = lazy_regex.compile(r"(?i)\bctc(?:_?loss|_batch_cost)?(?![a-z])")
# (the loss's own inf, said in one clause or printed: not zero_infinity's name, nor a gradient's or half precision's inf)
CTC_LOSS_INF = lazy_regex.compile(r"(?i)\bloss\w*\b[^.;,\n]{0,40}?\b(?:inf|infinite|infinity)\b|\b(?:inf|infinite)\s+loss")
CTC_ELSEWHERE = lazy_regex.compile(r"(?i)zero_infinity\s*=\s*True|\bexplod\w*|\boverflow\w*|\bfp16\b|\bfloat16\b|\bautocast\b|\bamp\b|"
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


# A character table numbered from 0 (`{c: i for i, c in enumerate(CHARS)}`, no `start=`, nothing added to the index)
# beside a CTC loss whose blank is 0 (nn.CTCLoss's and F.ctc_loss's default, or `blank=0`): the table's first character
# has the blank's index, which a target "cannot be" (torch/nn/modules/loss.py at v2.13.0) and nothing checks -- every
# such character is a blank to the loss, and the greedy decoder, which drops the blank, drops it from every output
# (WR-320's PyTorch part).
CHAR_TABLE_FROM_0 = lazy_regex.compile(r"(?P<table>\b[A-Za-z_]\w{0,30})\s*=\s*\{\s*(?P<k>\w+)\s*:\s*(?P<v>\w+)\s+for\s+"
                                       r"(?P<a>\w+)\s*,\s*(?P<b>\w+)\s+in\s+enumerate\(\s*(?P<chars>[^,()\n]{1,60})\)\s*\}")
# (PyTorch's: nn.CTCLoss, its blank the first argument, F.ctc_loss, its blank the fifth -- not TensorFlow's or optax's,
# whose blank is their own and whose targets are checked otherwise)
CTC_BLANK_ZERO = lazy_regex.compile(r"\b(?P<fn>nn\.CTCLoss|(?:F|torch\.nn\.functional)\.ctc_loss)\((?P<args>[^()\n]{0,200})\)")


def ctc_blank_label(prose: str) -> str:
    """The fact, where the paste numbers its characters from 0 for a CTC loss whose blank is 0; or ""."""
    table = next((m for m in itertools.islice(CHAR_TABLE_FROM_0.finditer(prose), 5)
                  if m.group("v") == m.group("a") and m.group("k") == m.group("b")), None)
    loss = next((m for m in itertools.islice(CTC_BLANK_ZERO.finditer(prose), 5) if _blank_of(m) == "0"), None)
    if not table or not loss:
        return ""
    chars = table.group("chars").strip()
    return (f"the paste numbers its characters from 0 (`{' '.join(table.group(0).split())}`) and its CTC loss takes 0 as "
            f"the blank (`{' '.join(loss.group(0).split())}`): the first character of `{chars}` has the blank's index, "
            "which a target cannot be -- the loss reads it as the blank, with no error, and a greedy decoder, which "
            "drops the blank, drops that character from every output")


def _blank_of(m: re.Match) -> str:
    """The blank a PyTorch CTC call takes, as written: its `blank=` keyword, else its positional place (nn.CTCLoss's
    first, F.ctc_loss's fifth), else the default, "0"."""
    args = [a.strip() for a in m.group("args").split(",")] if m.group("args").strip() else []
    keyword = next((a.split("=", 1)[1].strip() for a in args if re.match(r"blank\s*=", a)), None)
    if keyword is not None:
        return keyword
    place = 0 if m.group("fn").endswith("CTCLoss") else 4
    positional = [a for a in args if "=" not in a]
    return positional[place] if len(positional) > place else "0"


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
