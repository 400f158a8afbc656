"""Numbers past what exp can return, handed to an exp that takes them as they are: a literal in a call of exp or of a
softmax written by hand, the largest logit a run prints, a bound the words give, or 1/T for a temperature over cosine
similarities (exp_overflow).

exp overflows above the log of the largest float (EXP_LIMITS): 709.78 in float64, 88.72 in float32. The limit that
counts is that of the precision the paste computes in: float32 where the call is a framework's, or the report shows
PyTorch, TensorFlow or JAX (run_kind.shown_frameworks) or names float32; float64, NumPy's, otherwise.
"""
from __future__ import annotations

import itertools
import math
import re
import sys

from .breaking_constructs import EXP_OF, SHIFTED, STABLE_SAID, breaking_construct, code_of
from .curve_shape import fmt
from .logscan import Evidence
from .logscan.positions import step_number
from .run_kind import shown_frameworks
from .sentences import said_unnegated, sentence_around, sentences_and_ends, sentences_only
from .thesaurus import tokens
from . import lazy_regex

# A number handed to exp, or to a softmax written by hand, past what exp can return: exp(x) overflows above
# log(largest float), 709.78 in float64 (NumPy's default) and 88.72 in float32 (PyTorch's, TensorFlow's and JAX's).
# A library's softmax (torch.softmax, F.softmax, tf.nn.softmax, scipy's) subtracts the largest input first and
# does not overflow: only a bare `softmax(` is taken for a hand-written one. Half a printed fact for the entries
# whose phrases say exp overflows.
EXP_OVERFLOW_WORDS = {"exp", "overflow"}
EXP_CALL = lazy_regex.compile(r"(?<![\w.])(?:(?P<lib>np|numpy|math|torch|jnp|tf\.math|tf)\.)?(?P<fn>exp|(?<![\w.])softmax)\s*"
                              r"\((?P<args>[^()\n]{0,160}(?:\([^()\n]{0,160}\)[^()\n]{0,160})?)\)")
# ... handed as literal numbers: one, or a list or an array of them (not `-step / 2000`, an expression)
# (each run of spaces follows a token it needs: runs side by side with only optional tokens between them split one
# long run every way, and `exp(1` before 400 spaces took 17 s)
LITERAL_ARGS = lazy_regex.compile(r"\s*(?:(?:np|numpy|torch|jnp|tf)\.(?:array|tensor|asarray|constant)\(\s*)?(?:\[\s*)?"
                                  r"-?(?:\d+(?:\.\d*)?|\.\d+)(?:e[-+]?\d+)?(?:\s*,\s*-?(?:\d+(?:\.\d*)?|\.\d+)(?:e[-+]?\d+)?)*\s*(?:,\s*)?"
                                  r"(?:\]\s*)?(?:,\s*dtype\s*=\s*[\w.]+\s*)?(?:\)\s*)?", re.I)
EXP_NUMBER = lazy_regex.compile(r"(?<![\w.])-?\d+(?:\.\d*)?(?:e[-+]?\d+)?(?![\w.])", re.I)
FLOAT32_SAID = lazy_regex.compile(r"\b(?:float32|fp32)\b", re.I)
EXP_LIMITS = {"float64": math.log(sys.float_info.max), "float32": math.log((2 - 2 ** -23) * 2.0 ** 127)}


# The largest logit a paste prints ("max logit 88.96", `logits.max() = 91.2`, "largest logit: 712"): an unshifted exp of
# it overflows past float32's (float64's) limit
# (also as a norm's bars: "max|logit| 81.7", "largest |logit| = 90.4")
PRINTED_LOGIT = lazy_regex.compile(r"(?i)\b(?:max(?:imum)?[ _]logits?|largest[ _]logits?|logits?[ _]max|logits\.max\(\)|"
                                   r"(?:max(?:imum)?|largest)[ \t]*\|[ \t]*logits?[ \t]*\|)"
                                   r"[ \t]*(?:(?:[:=]|is|was|of|reached|reaches)[ \t]*)?(\d+(?:\.\d+)?)(?!\d|\.\d)")


# ... or the largest value of a name the paste's own code hands exp, printed ("max(raw_score) = 93.4", `s.max()` ...
# `= 90.1`, "the maximum of raw_score was 95"): exp of it, less what the call subtracts (`jnp.exp(raw_score - 2.0)`),
# overflows past the limit. A name's value, printed: the run's own number.
# (a tensor library's exp, or a bare one: not math.exp, which takes a Python float, computes in float64 and raises
# OverflowError rather than return inf)
# (or the tensor's own method: `logvar.exp()`)
EXP_OF_NAME = lazy_regex.compile(r"(?<![\w.])(?:(?:np|numpy|torch|jnp|tf\.math|tf)\.)?exp\(\s*(?P<name>[A-Za-z_]\w{0,30})\s*"
                                 r"(?:(?P<op>[-+])\s*(?P<c>\d+(?:\.\d+)?)\s*)?\)|(?<![\w.])(?P<method>[A-Za-z_]\w{0,30})\.exp\(\s*\)")
# (the value said of the name, not a count after it: "the largest z of 1000 batches")
_MAX_OF = (r"(?:\bmax\(\s*{n}\s*\)|(?<![\w.]){n}\.max\(\)|\b(?:max(?:imum)?|largest)\s+(?:of\s+)?(?:the\s+)?`?{n}`?)"
           r"\s*(?:=|:|is|was|reaches|reached)\s*(\d+(?:\.\d+)?)(?![\d.])|"
           # (or a line of its own that a debug print writes, the name's singular too: `jax.debug.print("max score {}",
           # scores.max())` -> `max score 91.372`)
           r"(?m:^[ \t]*(?:max(?:imum)?|largest)[ _]{n}[ \t]+(\d+(?:\.\d+)?)[ \t]*$)")


# ... or a name the code makes with an exp (`rate = torch.exp(head_out[:, 0]) * base`) said or printed to be inf
# ("rate.max() is inf", "`rate` contains inf"): exp's own overflow, past 88.72 in float32 (709.78 in float64)
# (the exp the whole right-hand side, or its first factor -- not `1.0 / torch.exp(log_var)`, whose inf is exp's
# underflow to 0 -- and not a metric computed from the loss, a perplexity, whose inf is the loss's doing)
EXP_ASSIGNED = lazy_regex.compile(r"(?m)^[ \t]*(?P<name>(?!\w*(?:ppl|perplexity)\b)[A-Za-z_]\w{0,30})\s*=\s*(?:\(\s*)?"
                                  r"(?:(?:np|numpy|torch|jnp|tf\.math|tf)\.exp\((?!\s*\w*loss\w*\s*\))|"
                                  r"(?!\w*loss\w*\.exp)[A-Za-z_]\w{0,30}\.exp\(\s*\))")
_INF_OF = (r"(?<![\w.])`?{n}(?:\.max\(\))?`?\s*(?:is|was|==?|:|contains|contained|has|had|holds|becomes|became|goes\s+to|"
           r"went\s+to)\s+(?:an?\s+|some\s+|all\s+)?(?:\+?inf\b|infinity\b|infinite\b)")
_DENIED = lazy_regex.compile(r"(?i)\b(?:not|never|no|whether|if)\b|n't\b")


def exp_output_inf(prose: str) -> str:
    """The fact, when a name the code makes with an exp (EXP_ASSIGNED) is said or printed to be inf, and its sentence
    neither denies nor asks it ("I checked whether std is inf: it never is"); or ""."""
    for made in itertools.islice(EXP_ASSIGNED.finditer(prose), 10):
        name = made.group("name")
        said = re.search(_INF_OF.format(n=re.escape(name)), prose, re.I)
        if said and not _DENIED.search(prose, *sentence_around(prose, said.start(), said.end(), stops=".;\n?")):
            line = " ".join(prose[made.start():prose.find("\n", made.start()) if "\n" in prose[made.start():] else None].split())
            return (f"the report says \"{' '.join(said.group(0).split())}\", and its code makes {name} with an exp "
                    f"(`{line}`): exp returns inf past {EXP_LIMITS['float32']:.2f} in float32 ({EXP_LIMITS['float64']:.2f} in "
                    "float64) -- an overflow, and the inf becomes nan in what follows (inf - inf, 0 * inf, inf / inf)")
    return ""


def printed_exp_input(prose: str, dtype: str) -> str:
    """The fact, when the paste prints the largest value of a name its code hands exp (EXP_OF_NAME), past the limit
    once what the call subtracts is taken off; or ""."""
    for call in itertools.islice(EXP_OF_NAME.finditer(prose), 10):
        name = call.group("name") or call.group("method")
        shift = float(call.group("c") or 0) * (-1 if call.group("op") == "-" else 1)
        # (the name, or its singular: `scores` printed as "max score")
        named = re.escape(name) + ("?" if name.endswith("s") and len(name) > 2 else "")
        # (a debug print writes one line a step: the largest may come after many below it -- and a bare line counts only
        # where the paste prints that name's max: a metric's `max score` is no score of the code's, code_review_s68b M3)
        printed_max = re.search(rf"print\([^\n]{{0,80}}\b{re.escape(name)}\.max\(\)", prose)
        for m in itertools.islice(re.finditer(_MAX_OF.format(n=named), prose), 50):
            if m.group(2) is not None and not printed_max:
                continue
            printed = m.group(1) or m.group(2)
            x = float(printed) + shift
            if x > EXP_LIMITS[dtype]:
                return (f"the paste prints the largest {name} as {printed} (`{' '.join(m.group(0).split())}`), and "
                        f"its code hands exp {name} (`{' '.join(call.group(0).split())}`): exp({fmt(x)}) is past the "
                        f"largest {dtype} (exp overflows above {EXP_LIMITS[dtype]:.2f}) -- inf, and inf times 0 or "
                        "inf / inf is nan")
    return ""


SELF_NORMALISED = lazy_regex.compile(r"(?m)^[ \t]*File \"[^\"\n]{1,300}\", line \d+[^\n]*\n[^\n]{0,80}?(?<![\w.])(?P<n>[A-Za-z_]\w{0,20})"
                                     r"[ \t]*/[ \t]*(?:\(?[ \t]*)(?P=n)\.sum\(")
SAID_BOUND = lazy_regex.compile(r"(?i)\b(?:at most|up to|as (?:large|high|big) as|a maximum of|max(?:imum)? of|reach(?:es|ed)?)"
                                r"\s+~?(\d+(?:\.\d+)?)(?!\d|\.\d)")
# (an exp said as a step of a hand-written loss; cosine similarities; a temperature's value)
HAND_EXP = lazy_regex.compile(r"(?i)\bexp\b|\bexponentiat\w*")
COSINE_SAID = lazy_regex.compile(r"(?i)\bcosine[ _-]?similarit\w*|\bcos_sim\b|\bl2[- ]?normali[sz]\w*|\bunit[- ]norm\w*|"
                                 r"\bnormali[sz]ed (?:embeddings|vectors)\b")
# (a softmax temperature: not a Gumbel-softmax's tau, nor an EMA's or a soft target update's)
TEMPERATURE_SAID = lazy_regex.compile(r"(?i)(?<!gumbel )(?<!ema )(?<!polyak )(?<!update )(?<!soft update )\b(?:temperature|tau|τ)\b"
                                      r"(?![^\n]{0,40}?\b(?:ema|polyak|soft (?:target )?update|gumbel)\b)"
                                      r"[^.\n\d]{0,20}?(\d*\.\d+|\d+(?:\.\d+)?e-\d+)(?!\d|\.\d)")
# (the max taken off before the exp, said in words or code: "sim - sim.max(dim=1, keepdim=True)", "subtract each row's max")
MAX_SUBTRACTED = lazy_regex.compile(r"(?i)-\s*[\w.]+\.(?:max|amax)\(|\bsubtract\w*\s+(?:the\s+|each\s+)?(?:row'?s?\s+)?max\w*|"
                                    r"\bgumbel\b")
# (vectors the code normalises to unit length: a product of two of them is a cosine, at most 1; CLIP's own `x / x.norm(`)
UNIT_NORMALISED = lazy_regex.compile(r"(?<![\w.])(?:F|nn\.functional|torch\.nn\.functional|tf\.math|tf\.nn|keras\.ops|ops|K)\."
                                     r"(?:normalize|l2_normalize)\(|\b(\w+)\s*/\s*\1\.norm\(|/=\s*\w+\.norm\(")
# (the argument a product of vectors -- `@`, matmul, mm, bmm, einsum, a cosine similarity -- with no minus in front: a
# Gaussian kernel's `exp(-d2 / sigma)` is at most 1)
EXP_OVER_TEMPERATURE = lazy_regex.compile(r"(?<![\w.])(?:torch|np|jnp|tf|tf\.math|keras\.ops|K)\.exp\((?!\s*-)"
                                          r"(?P<arg>[^\n]{0,120}?(?:@|\bmatmul\(|\bmm\(|\bbmm\(|\beinsum\(|cosine_similarity\()"
                                          r"[^\n]{0,120}?)/\s*(?:self\.)?(?P<t>[A-Za-z_]\w{0,30})\s*\)")
EXP_INPUT_WORDS = lazy_regex.compile(r"(?i)logit|similarit|\bsims?\b|\bscores?\b|\bexp\b|softmax|\btau\b|temperature")


# A number printed beside the loss that passes exp's limit on the very row where the loss first turns inf, having grown
# to it: `kappa_max 84.9` on the row before, `kappa_max 90.6` beside the inf -- what the loss takes an exp of (a
# concentration, a scale, a logit) under a name of its own. Not a score, a time, a rate or a
# count, whose values may pass 88.72 by chance (an accuracy of 88.2% then 89.0%).
# (or turns nan where the paste's code calls an exp of an input nothing was taken off: the inf that exp returned became
# nan in what followed it, inf - inf in a box's width less its centre, `max|twh| 96.18` beside a YOLO decode's
# `jnp.exp(raw[..., 2:4])` -- not beside a softmax's `exp(z - z.max())`, which cannot overflow)
PRINTED_COLUMN = lazy_regex.compile(r"(?<![\w.])([A-Za-z][\w/.|]{0,30}?)(?:[ \t]*[:=])?[ \t]+(-?\d+(?:\.\d+)?(?:e[-+]?\d+)?)(?![\w.%])",
                                    re.I)
NOT_AN_EXP_INPUT = lazy_regex.compile(r"(?i)acc|%|f1|map|iou|auc|bleu|rouge|ppl|perplex|time|sec|ms$|speed|mem|lr|rate|step|"
                                      r"epoch|iter|batch|loss|nll|cost|err|val|eta|it/s|grad|norm|count|size|tokens|samples|deg|"
                                      r"reward|return|recon|wall|clock")


def _columns(line: str) -> dict[str, float]:
    out: dict[str, float] = {}
    for m in itertools.islice(PRINTED_COLUMN.finditer(line), 40):
        out.setdefault(m.group(1), float(m.group(2)))
    return out


def _unshifted_exp(code: str) -> bool:
    """Does the code call a tensor library's exp with nothing taken off its input (no max, no log-sum-exp), not of a
    negated one (a sigmoid's `exp(-z)`, whose inf rounds to a correct 0), nor of a parameter (`torch.exp(self.log_std)`)
    or of the loss (a perplexity)? (Not math.exp, which raises OverflowError rather than return inf.)"""
    return any(not SHIFTED.search(arg := m.group("arg")) and not arg.lstrip().startswith("-")
               and not m.group(0).startswith("math.") and not re.match(r"\s*self\.\w+\s*$", arg)
               and "loss" not in arg for m in itertools.islice(EXP_OF.finditer(code), 20))


NAN_JUMP = 1.5       # beside a nan, the column's value there over the row before's: a jump onto the limit


def column_past_limit(ev: Evidence, dtype: str) -> str:
    """The fact, where a column printed beside the loss grew past exp's limit in this dtype on the row where the loss
    first turned inf (or nan, having jumped there, beside an exp of the code's with nothing taken off); else ""."""
    if ev.first_nonfinite is None or ev.first_nonfinite < 2 or ev.first_nonfinite_value == -math.inf \
            or (ev.first_nonfinite_value != math.inf and not _unshifted_exp(code_of(ev.prose))):
        return ""
    turned = "inf" if ev.first_nonfinite_value == math.inf else "nan"
    rows = [ev.at(ev.first_nonfinite - k) for k in (2, 1, 0)]
    lines = ev.prose.split("\n")
    if any(p is None or not 0 < p.line <= len(lines) for p in rows) or len({p.line for p in rows}) < 3:
        return ""
    before2, before, at = (_columns(lines[p.line - 1]) for p in rows)
    limit = EXP_LIMITS[dtype]
    for key, now in at.items():
        if NOT_AN_EXP_INPUT.search(key) or key not in before or key not in before2:
            continue
        # (beside a nan, a jump onto the limit: a column that creeps past it, 88.3 then 88.8, is as likely a metric's)
        if before2[key] <= before[key] < limit <= now and (turned == "inf" or now >= NAN_JUMP * before[key]):
            return (f"the run prints `{key}` beside the loss: {fmt(before[key])} at {ev.where(ev.first_nonfinite - 1)}, "
                    f"then {fmt(now)} at {ev.where(ev.first_nonfinite)}, the row where the loss first turns {turned} -- "
                    f"it grew past {limit:.2f}, the largest x whose exp {dtype} can hold, exactly there: the loss most "
                    "likely takes an exp of it, or of something computed through one, and that exp overflows"
                    + ("" if turned == "inf" else " (its inf becomes nan in what follows: inf - inf, 0 * inf)"))
    # ... or a column of the largest logit that the row of the first non-finite loss prints non-finite too, where its last
    # finite value, still rising at the pace of the rows before, would pass the limit by then: a print every few
    # hundred steps skips the step where the exp overflowed, and the nan it left took the weights and the column with it
    # (an exp the code hands the logits themselves, `torch.exp(logits)`: not a scale's, `torch.exp(model.logit_scale)`,
    # nor a variance's -- code_review_s71 14)
    if not any(LOGITS_ARG.search(m.group("arg")) for m in itertools.islice(EXP_OF.finditer(code_of(ev.prose)), 20)):
        return ""
    # (the pace per step where the rows print their steps: a nan row 10 steps after the last is not 100 -- 15)
    steps = [step_number(p) for p in rows]
    spans = (steps[1] - steps[0], steps[2] - steps[1]) if None not in steps and steps[0] < steps[1] < steps[2] else (1, 1)
    for key, last in before.items():
        if not LOGIT_COLUMN.search(key) or key not in before2 or key in at:
            continue
        pace = (last - before2[key]) / spans[0]
        if 0 < pace and last < limit <= last + pace * spans[1] and _nonfinite_beside(key).search(lines[rows[2].line - 1]):
            return (f"the run prints `{key}` beside the loss, rising: {fmt(before2[key])} at "
                    f"{ev.where(ev.first_nonfinite - 2)}, {fmt(last)} at {ev.where(ev.first_nonfinite - 1)}, then "
                    f"non-finite with the loss at {ev.where(ev.first_nonfinite)} -- at that pace it passed "
                    f"{limit:.2f}, the largest x whose exp {dtype} can hold, before that row: the code's exp takes it "
                    "with nothing subtracted, and that exp overflows (its inf becomes nan in what follows: inf / inf)")
    return ""


# (the largest logit's: the one an exp overflows on first -- a mean's, `real_logit`, may be what an `exp(-x)` takes, which
# underflows)
LOGITS_ARG = lazy_regex.compile(r"^\s*(?:\(\s*)?logits?\b(?![.\w])")
LOGIT_COLUMN = lazy_regex.compile(r"(?i)max[\W_]{0,3}logit|logits?[\W_]{0,3}max|largest[\W_]{0,3}logit")


def _nonfinite_beside(key: str) -> re.Pattern:
    """The column `key` printed non-finite on a line: `max_logit nan`, `max_logit=inf`."""
    return re.compile(r"(?<![\w.])" + re.escape(key) + r"(?:[ \t]*[:=])?[ \t]+[-+]?(?:nan|inf)\b", re.I)


def _cosine_over(temperature: str, dtype: str) -> str:
    """What an exp of a cosine divided by a temperature can reach, against the largest number of the type."""
    return (f"a cosine is at most 1, so that exp takes up to 1/{temperature} = {fmt(1 / float(temperature))}, past the "
            f"largest {dtype} (exp overflows above {EXP_LIMITS[dtype]:.2f})")


def exp_overflow(ev: Evidence) -> tuple[str, bool]:
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
    # (or a column the run prints that grew past the limit on the row of the first inf)
    if column := column_past_limit(ev, "float32" if wide else "float64"):
        return column, True
    # (beside a run that went non-finite, or words that say it did: a large value of a healthy run's is no overflow)
    # (looked for only where the code hands exp a name at all: the words' nan is read after)
    if (EXP_OF_NAME.search(ev.prose) or EXP_ASSIGNED.search(ev.prose)) \
            and (ev.first_nonfinite is not None or said_unnegated(ev.prose, {"nan", "inf"})):
        if printed := printed_exp_input(ev.prose, "float32" if wide else "float64") or exp_output_inf(ev.prose):
            return printed, True
    # (a cosine over a temperature: in float64 only where the paste says so or shows no framework)
    dtype = "float64" if re.search(r"(?i)\bfloat64\b|\bdouble\b", ev.prose) or not wide else "float32"
    # (or the words: a hand-written exp of cosine similarities divided by a temperature the report names -- a cosine
    # is at most 1, so that exp takes up to 1/T, past float32's limit for any T below 1/88.72, about 0.0113)
    if "handwritten" in tokens(ev.prose) and HAND_EXP.search(sentences_only(ev.prose)) and COSINE_SAID.search(ev.prose) \
            and not MAX_SUBTRACTED.search(ev.prose):
        for m in itertools.islice(TEMPERATURE_SAID.finditer(ev.prose), 5):
            t = float(m.group(1))
            if 0 < t and 1 / t > EXP_LIMITS[dtype]:
                return (f"the report computes its loss by hand with an exp of cosine similarities divided by a "
                        f"temperature of {m.group(1)} (\"{' '.join(m.group(0).split())}\"): "
                        f"{_cosine_over(m.group(1), dtype)}: a pair that matches well overflows, and inf / inf is nan"), False
    # (or the code: an exp of a product divided by a temperature the code sets below 1/88.72, beside vectors the code
    # normalises to unit length -- `sim = torch.exp(img @ txt.t() / tau)` with `tau=0.01` after F.normalize)
    code = code_of(ev.prose)
    if UNIT_NORMALISED.search(code) and not MAX_SUBTRACTED.search(ev.prose):
        for m in itertools.islice(EXP_OVER_TEMPERATURE.finditer(code), 5):
            name = m.group("t")
            set_to = re.search(r"(?<![\w.])" + re.escape(name) + r"\s*(?::\s*float\s*)?=\s*(\d*\.\d+|\d+(?:\.\d+)?e-\d+)(?![\d.])",
                               code)
            if set_to and 0 < (t := float(set_to.group(1))) and 1 / t > EXP_LIMITS[dtype]:
                return (f"the pasted code takes an exp of a product of vectors it normalises to unit length, divided by "
                        f"a temperature of {set_to.group(1)} (`{' '.join(m.group(0).split())}`, `{set_to.group(0)}`): "
                        f"{_cosine_over(set_to.group(1), dtype)} once a pair's cosine passes "
                        f"{EXP_LIMITS[dtype] * t:.3g}: inf / inf is nan"), False
    return "", False
