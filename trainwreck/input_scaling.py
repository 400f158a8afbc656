"""What the words, the printed statistics and a few lines of code say of the inputs' and the targets' scale: scaled
already or not (scaled_said), features on very different scales in a describe() table, and a standardisation written
by hand that divides by a standard deviation of 0.

The words decide what the fix of a forgotten scaling is worth: said done, it counts against the entries that say it
was forgotten; said not done, for them; said both ways, neither.
"""
from __future__ import annotations

import functools
import itertools
import re

from .brackets import arguments
from .logscan.cleaning import WORKER_PREFIX
from .curve_shape import fmt
from .sentences import UNDONE, denied_before, sentence_around, told
from .weight_init import LAYERS_BUILT, without_unused_norm_layers
from . import lazy_regex

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
SCALED = lazy_regex.compile(r"\b" + _SCALED + r"\s+(?:both\s+|all\s+)?(?:the\s+|my\s+|our\s+)?(?P<what>[^.;:,\n]{1,40})"
                            r"|\b(?P<passive>x(?:_[a-z]{1,10})?|y(?:_[a-z]{1,10})?|inputs?|features?|targets?|labels?|images?|"
                            r"pixels?|prices?|outputs?|channels?|columns?|signals?)\s+(?:(?:is|are|was|were|have been|has been|got)\s+"
                            r"(?P<neg>not\s+|n't\s+|never\s+)?)?(?:already\s+|all\s+)?" + _SCALED, re.I)
# ... and what the words describe first, then say was not scaled: "target is yearly salary in dollars (30,000 to
# 250,000), not scaled"
# (the subject nearest before it, in the same clause of the sentence)
UNSCALED_AFTER = lazy_regex.compile(r",\s*(?:not\s+|never\s+|un)" + _SCALED + r"\b", re.I)
SUBJECT_IS = lazy_regex.compile(r"\b(?P<what>x|y|inputs?|features?|targets?|labels?|prices?|outputs?)\s+(?:is|are|was|were)\b", re.I)
# ... and said not done with the verb itself ("I didn't scale the features", "no scaling on the inputs", "I did not
# standardize anything"), or the values called raw ("the features are raw")
UNSCALED_SAID = lazy_regex.compile(r"\b(?:did(?:n't| not)|do(?:n't| not)|never|without|forgot(?:ten)? to|no)\s+(?:\w+\s+)?"
                                   r"(?:scal|normali[sz]|standardi[sz]|rescal)\w*\s+(?:of\s+|on\s+|for\s+)?(?:the\s+|my\s+|our\s+|any\s+)?"
                                   r"(?P<what>\w+)|\b(?P<subject>x|inputs?|features?|pixels?|images?|targets?|labels?|y|prices?)\s+"
                                   r"(?:are|is|were|was)\s+(?:still\s+|all\s+)?(?:raw|unscaled|unnormali[sz]ed|unstandardi[sz]ed|"
                                   # ("the features are used as they come", "inputs are fed as is")
                                   r"(?:used|fed|passed|left|kept|given)\s+(?:in\s+)?as[\s-](?:they\s+(?:come|are)|is))\b|"
                                   # ("on raw features", "unnormalized inputs")
                                   # (a dataset's name between: "raw mnist pixels", "raw CIFAR images")
                                   r"\b(?:raw|unscaled|unnormali[sz]ed|unstandardi[sz]ed)\s+(?:[\w-]+\s+)?(?P<raw>inputs?|features?|pixels?|"
                                   r"images?|targets?|prices?|columns?)\b|"
                                   # (or the pixels' own scaling said left out: "I forgot /255", "didn't divide the images
                                   # by 255", "without dividing by 255" -- 255 is a pixel's largest value, so what is left
                                   # undivided is the inputs)
                                   r"\b(?P<pixels>(?:did(?:n't| not)|never|without|forgot(?:ten)?(?: to)?)\s+(?:the\s+)?"
                                   r"(?:(?:divid\w*|division)[ \t]+(?:\w+[ \t]+){0,3}?by[ \t]*|/[ \t]*)255(?:\.0+)?)(?![\w])", re.I)
# ... not where its line says the scaling is done elsewhere or was mended ("because ToTensor already scales",
# "ImageDataGenerator(rescale=1./255)", "fixed it now")
PIXELS_SCALED_ELSEWHERE = lazy_regex.compile(r"(?i)\balready\b|\brescal\w*|\bToTensor\b|\bfix(?:ed|ing)\b")
UNSCALED_RUN_FINE = lazy_regex.compile(r"(?i)(?:\b(?:does(?:n't| not)|did(?:n't| not)|never)\s+(?:\w+\s+){0,2}?(?:give\s+|go\s+|get\s+)?"
                                       r"(?:nan|inf)\b|\b(?:trains?|runs?|ran|trained)\s+(?:fine|normally|without\s+(?:a\s+)?nan)\b)"
                                       # (not a fine run that then failed, or fine only for a while or somewhere: "for the first 10
                                       # epochs, then it exploded", "at first", "only on the GPU")
                                       r"(?![^.\n]{0,60}?\b(?:but|then|until|before|now|at first|first \d+|for (?:about )?\d+|only on|"
                                       r"at epoch)\b)")
# A scaling the pasted code does: an array assigned a scaler's output (`y_train = y_scaler.fit_transform(...)`,
# `X = StandardScaler().fit_transform(X)`), or its own standardisation or min-max (`X = (X - X.mean(0)) / X.std(0)`, `y =
# (y - mu) / sd`, `X = X / 255.0` is the pixels' own, read elsewhere)
SCALED_IN_CODE = lazy_regex.compile(r"(?m)^[ \t]*(?P<name>[A-Za-z_]\w{0,20})[ \t]*=[ \t]*(?:[\w.]*[Ss]caler\w*(?:\(\))?\.(?:fit_)?"
                                    r"transform\(|\([ \t]*(?P=name)[ \t]*-[ \t]*[^()\n]{0,30}?(?:mean|mu|min)\w*"
                                    r"(?:[^()\n]|\([^()\n]{0,20}\)){0,20}\)[ \t]*/)")
# (a split's name is its array's: x_train, X_val, y_test)
SCALED_TARGETS = lazy_regex.compile(r"\b(?:y(?:_[a-z]{1,10})?|targets?|labels?|outputs?|prices?)\b", re.I)
SCALED_INPUTS = lazy_regex.compile(r"\b(?:x(?:_[a-z]{1,10})?|inputs?|features?|images?|pixels?|data|columns?|channels?|signals?)\b", re.I)
# a verb that a negation governs ("did not normalize", "haven't standardised", "forgot to scale" -- the last two
# words before it)
NEGATED = lazy_regex.compile(r"(?:\bnot|\b\w+n't|\bnever|\bwithout|\bforgot(?:ten)?(?: to)?)\s+(?:\w+\s+)?$", re.I)
# ... and where the object ends: a closing bracket, or a word that opens another phrase ("(already standardized
# target) from 4 features", "normalized the targets with the training mean"): what follows is not what was scaled
OBJECT_END = lazy_regex.compile(r"[)\]]|\b(?:from|with|using|via|by|before|after|because|since|when|while|in|on|to|into|"
                                r"then|so|for)\b", re.I)
# ... and the part of an object that is left out ("X but not y", "all features except the target")
EXCEPT = lazy_regex.compile(r"\b(?:but not|except(?: for)?|apart from|other than|not)\b", re.I)
SCALED_ASIDE = lazy_regex.compile(r"(?i)\b(?:features?|inputs?|columns?)\s*\((?:[^()\n]{0,160}?[,;]\s*)?(?:all\s+|each\s+)?"
                                  r"(?:standardi[sz]ed|normali[sz]ed|scaled|min-?max(?:ed| scaled)?)\b[^()\n]{0,60}\)")


# ... and values said to lie in a small range already, as a range ("inputs are in [0, 1]", "in the range 0-1",
# "targets between -2 and 2", "range from 0 to 1") or a set of values ("features already -1/0/1"): what a scaling makes
# them -- not "pixels in 0-255", whose values are past RANGE_SCALED, nor numbers of something else ("2 to 3 times
# larger", "3 to 4 per batch", "4.5 and 3.2 million")
_SMALL = r"[-+]?(?:\d{1,12}(?:\.\d{1,12})?|\.\d{1,12})"
SCALED_RANGE = lazy_regex.compile(
    r"(?i)\b(?P<what>x(?:_[a-z]{1,10})?|y(?:_[a-z]{1,10})?|inputs?|features?|pixels?|images?|data|columns?|targets?)\s+"
    r"(?:(?:are|is|were|was|lie|all|already|both|now|range|ranges|ranging)\s+){0,3}(?P<range>"
    r"(?:(?:in|within)\s+(?:the\s+range\s+(?:of\s+)?)?)?[\[(]\s*" + _SMALL + r"\s*,\s*" + _SMALL + r"\s*[\])]|"
    r"(?:in|within)\s+the\s+range\s+(?:of\s+)?" + _SMALL + r"\s*(?:-|–|to|\.\.)\s*" + _SMALL + r"|"
    r"between\s+" + _SMALL + r"\s+and\s+" + _SMALL + r"|from\s+" + _SMALL + r"\s+to\s+" + _SMALL + r"|"
    r"already\s+" + _SMALL + r"(?:\s*/\s*" + _SMALL + r"){1,3}|"
    # ("the targets are 0/1 numbers anyway")
    + _SMALL + r"(?:\s*/\s*" + _SMALL + r"){1,3}(?=\s+(?:numbers|values|labels|integers|floats)\b))"
    r"(?!\d|\.\d|\s*(?:times|orders?|per\b|millions?|thousands?|billions?|k\b|kg|kilo\w*|grams?|met(?:er|re)s?|"
    r"seconds?|standard|std|sd\b|%|x\b|apart|larger|smaller|bigger|higher|lower|more|less|of\b))")
RANGE_SCALED = 5.0
# ... and the targets given in a range far from a scaled one, in the units they were measured in: "y_train is the measured
# GHI in W/m2 (0 to about 1000)", "the target, yearly sales, ranges from 2,000 to 90,000" (a regression's; not a class
# id's, "labels 0 to 999")
TARGET_RANGE = lazy_regex.compile(r"(?i)\b(?:y(?:_train|_tr)?|targets?|target variable)\b(?:(?!\b(?:x|inputs?|features?|labels?|"
                                  r"classes|scaled|standardi[sz]ed|normali[sz]ed)\b)[^.;\n]){0,80}?\(?\b(?:from\s+)?"
                                  r"(-?\d[\d,]*(?:\.\d+)?)\s*(?:to|-|–)\s*(?:about\s+|around\s+|roughly\s+|~\s?)?(-?\d[\d,]*(?:\.\d+)?)\b"
                                  r"(?!\s*(?:%|epochs?|steps?|classes|days?|years?\b))\)?")
RANGE_RAW = 100.0
# (not a length, "target sequence length 128-512 tokens", nor a range the sentence then scales)
TARGET_NOT_RAW = lazy_regex.compile(r"(?i)\b(?:length|len|tokens?|words?|chars?|characters?|pixels?|px|frames?|seq\w*|"
                                    r"scal\w*|standardi[sz]\w*|normali[sz]\w*|log1p|log-transform\w*|MinMax\w*|divid\w*)\b")
# ... or their statistics said to be a standardisation's: "every column has mean ~0 and std ~1"
UNIT_STATS = lazy_regex.compile(r"(?i)\b(?P<what>x(?:_[a-z]{1,10})?|inputs?|features?|columns?|data)\s+(?:\w+\s+){0,2}?(?:has|have|had|"
                                r"with|at|is|are)\s+(?:a\s+)?mean\s+(?:of\s+)?(?:~|about\s+|around\s+|≈\s*)?0(?:\.0+)?\s*(?:and|,|/)\s*"
                                r"(?:an?\s+)?(?:std|sd|standard deviation|variance|var)\s+(?:of\s+)?(?:~|about\s+|around\s+|≈\s*)?1(?:\.0+)?\b")
# (not assumed, expected or unchecked; not a state that is gone, nor one said of some columns only)
RANGE_DOUBTED = lazy_regex.compile(r"(?i)\b(?:assum\w*|expect\w*|suppos\w*|think|thought|hope\w*|not sure|should|"
                                   r"(?:didn't|did not|haven't|have not|never) (?:check|verif)\w*)\b")
RANGE_TAKEN_BACK = lazy_regex.compile(r"(?i)\b(?:before|previously|originally|earlier|used to|but|except|for some|others?)\b")


# A sentence that asks, plans or sets a condition: "Do we normalize the inputs?", "I will normalize them later", "if I
# normalize the inputs the loss goes nan"
PRESENT_DOUBTED = lazy_regex.compile(r"(?i)\b(?:if|unless|will|would|should|could|later|maybe|perhaps|whether|do|does|can|"
                                     r"where|why|how)\b|'ll\b")


def doubted(prose: str, at: int) -> bool:
    """Is the sentence around this place a question, or does it plan or set a condition (PRESENT_DOUBTED)?"""
    start, end = sentence_around(prose, at, at, stops=".!?\n")
    return prose[end:end + 1] == "?" or bool(PRESENT_DOUBTED.search(prose, start, end))


# (the pair named: ImageNet's, the dataset's, a checkpoint's own; "mean/std normalisation" and "normalised with ... mean/std")
MEAN_STD_NORMALISED = lazy_regex.compile(r"(?i)\b(?:imagenet|dataset'?s?|model'?s|pretrained(?:_cfg)?|per[- ]channel|channel[- ]?wise|"
                                         r"global|train(?:ing)?(?: set'?s?)?)\s+mean\s*(?:/|and|&)\s*std\b|"
                                         r"\bmean\s*/\s*std\s+normali[sz]\w*|\bnormali[sz](?:ed|es|ing)\s+(?:\w+\s+){0,4}?mean\s*/\s*std\b")


# Features the words list in two or more units of measure ("mean pitch in Hz, ... the longest pause in milliseconds",
# "income in dollars, age in years"): raw quantities, each on its own unit's scale -- unscaled inputs, unless the words
# say elsewhere that they were scaled (then said both ways, the words decide nothing)
_UNIT = (r"(?:hz|khz|mhz|milliseconds|ms|seconds|minutes|hours|days|years|kilograms|kg|grams|tonnes|kilometres|"
         r"kilometers|km|metres|meters|centimetres|centimeters|cm|millimetres|millimeters|mm|dollars|usd|euros|eur|"
         r"degrees|celsius|fahrenheit|kelvin|pascals|kpa|hpa|volts|watts|kw|kwh|decibels|db|rpm|mph|bytes|mb|gb|ppm)")
# (or a raw quantity named by what it counts: "the logger gives them as ADC counts", "the time as a Unix timestamp")
IN_UNITS = lazy_regex.compile(r"(?i)\bin\s+(" + _UNIT + r")\b|\b(adc\s+counts|raw\s+counts|unix\s+(?:timestamps?|time)|epoch\s+seconds)\b")
# (the inputs as the list's subject: "features ...: pitch in Hz", "the features (age in years, ...)", "inputs are ...")
FEATURES_NAMED = lazy_regex.compile(r"(?i)\b(?:features?|inputs?|columns?|variables?|predictors?|attributes?|measurements|"
                                    r"observations?|readings|sensor\s+values)\b"
                                    r"(?=[^.;\n]{0,40}?(?::|\(|\b(?:are|is|include|includes|including|consists?\s+of)\b))")
# (a scaling said in the sentence, in words scaled_said's patterns may not hold: "... are standardised with a
# StandardScaler", "I min-max scale them")
SCALING_WORDS = lazy_regex.compile(r"(?i)\bstandardi[sz]\w*|\bnormali[sz]\w*|\bz-?scor\w*|\bscal(?:ed|er|es|ing)\b|\bmin-?max\b|"
                                   r"\bdivided by\b")


_RUN_MEASURED = lazy_regex.compile(r"(?i)\bi\s+(?:log|record|report|measure|track|print)\w*\b|\b(?:time\s+per|step\s+time|epoch\s+time|"
                                   r"wall[- ]?(?:clock|time)|memory|throughput|latency|duration)\b[^,;]{0,15}$")


def features_in_units(prose: str) -> str:
    """The sentence's words that list the inputs in two or more units of measure, or ""."""
    for sentence in itertools.islice(re.finditer(r"[^.!?\n]{1,400}", prose), 200):
        text = sentence.group(0)
        found = list(itertools.islice(IN_UNITS.finditer(text), 20))
        named = FEATURES_NAMED.search(text)
        # (not the run's own measurements: "I log the time per epoch in minutes and the GPU memory in GB")
        found = [m for m in found if not _RUN_MEASURED.search(text, max(0, m.start() - 40), m.start())]
        if len({(m.group(1) or m.group(2)).lower() for m in found}) >= 2 and named and not doubted(prose, sentence.start()):
            start, end = min(named.start(), found[0].start()), max(named.end(), found[-1].end())
            return " ".join(text[start:end].split())[:160]
    return ""


def scaled_said(prose: str) -> dict[str, dict[str, str]]:
    """What the words say was scaled already ("scaled") and what they say was not ("unscaled"): "inputs" and
    "targets", each with the words that say it; and, of the unscaled, those the paste prints rather than says
    ("printed": their statistics, pandas' describe())."""
    out: dict[str, dict[str, str]] = {"scaled": {}, "unscaled": {}, "printed": {}, "code": {}}
    for m in SCALED.finditer(prose):
        said = " ".join(m.group(0).split())
        if re.match(r"(?i)(?:standardi[sz]e|normali[sz]e)\b", m.group(0)) and doubted(prose, m.start()):
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
        # (not a run said to have gone well without the scaling: "trained on the unstandardised inputs it does not
        # give nan" says the scaling came with the failure)
        if UNSCALED_RUN_FINE.search(prose, m.end(), sentence_around(prose, m.start(), m.end(), stops=".!?;\n")[1]):
            continue
        # (on its line: a sentence's stops would cut `rescale=1./255` at its dot)
        if m.group("pixels") and PIXELS_SCALED_ELSEWHERE.search(
                prose, prose.rfind("\n", 0, m.start()) + 1, len(prose) if (end := prose.find("\n", m.end())) < 0 else end):
            continue
        what = m.group("what") or m.group("subject") or m.group("raw") or ("inputs" if m.group("pixels") else "")
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
        if values and max(values) <= RANGE_SCALED and not doubted(prose, m.start()) \
                and not RANGE_DOUBTED.search(prose, start, m.start()) and not RANGE_TAKEN_BACK.search(prose, m.end(), end):
            for kind, pattern in (("targets", SCALED_TARGETS), ("inputs", SCALED_INPUTS)):
                if named_as(pattern, m.group("what")):
                    out["scaled"].setdefault(kind, " ".join(m.group(0).split()))
    for m in itertools.islice(UNIT_STATS.finditer(prose), 5):
        _start, end = sentence_around(prose, m.start(), m.end(), stops=".!?;\n")
        # (not of the targets, "every column of y", nor a set said to be another than the one trained on)
        if not doubted(prose, m.start()) and not RANGE_DOUBTED.search(prose, max(0, m.start() - 60), m.start()) \
                and not re.search(r"(?i)\bof\s+(?:the\s+)?(?:y|targets?|labels?)\b", m.group(0)) \
                and not re.search(r"(?i)\b(?:synthetic|toy)\b", prose[_start:end]) \
                and not RANGE_TAKEN_BACK.search(prose, m.end(), end):
            out["scaled"].setdefault("inputs", " ".join(m.group(0).split()))
    # ... and inputs standardised by a mean and std named as a pair: "224x224 with ImageNet mean/std normalisation",
    # "normalised with the model's pretrained_cfg mean/std"
    for m in itertools.islice(MEAN_STD_NORMALISED.finditer(prose), 5):
        if not doubted(prose, m.start()) and not denied_before(prose, m.start(), 20):
            out["scaled"].setdefault("inputs", " ".join(m.group(0).split()))
            break
    # ... and what the pasted code scales: `y_train = y_scaler.fit_transform(y[:split])`, `X = (X - X.mean(0)) / X.std(0)`
    in_code: dict[str, str] = {}
    for m in SCALED_IN_CODE.finditer(prose):
        end = prose.find("\n", m.end())
        line = " ".join(prose[m.start():end if end >= 0 else len(prose)].split())
        line = line if len(line) <= 80 else line[:77] + "..."
        for kind, pattern in (("targets", SCALED_TARGETS), ("inputs", SCALED_INPUTS)):
            if named_as(pattern, m.group("name")):
                out["scaled"].setdefault(kind, line)
                in_code.setdefault(kind, line)
    for m in itertools.islice(TARGET_RANGE.finditer(prose), 5):
        low, high = (float(v.replace(",", "")) for v in m.groups())
        _start, end = sentence_around(prose, m.start(), m.end(), stops=".!?;\n")
        if max(abs(low), abs(high)) >= RANGE_RAW and high > low and not doubted(prose, m.start()) \
                and not TARGET_NOT_RAW.search(prose, m.start(), end):
            out["unscaled"].setdefault("targets", " ".join(m.group(0).split()))
            break
    if "targets" not in out["unscaled"] and (described := targets_described(prose) or cosine_targets_out_of_reach(prose)):
        out["unscaled"]["targets"] = out["printed"]["targets"] = described
    # (and not where the paste says elsewhere, in any words, that it scales: "I min-max scale them to [0, 1]")
    if not SCALING_WORDS.search(prose) and (units := features_in_units(prose)):
        out["unscaled"].setdefault("inputs", units)
    if "inputs" not in out["unscaled"] and (raw := money_columns_fed(prose)):
        out["unscaled"]["inputs"] = out["code"]["inputs"] = raw
    if "inputs" not in out["unscaled"] and "inputs" not in out["scaled"] and "targets" in in_code \
            and (alone := targets_alone_scaled(prose, in_code["targets"])):
        out["unscaled"]["inputs"] = out["code"]["inputs"] = alone
    for kind in list(out["scaled"]):             # said both ways: the words do not decide
        if kind in out["unscaled"]:
            del out["scaled"][kind], out["unscaled"][kind]
            out["printed"].pop(kind, None)
            out["code"].pop(kind, None)
    return out


# Code that scales the targets with a scaler (`y_tr = y_scaler.fit_transform(y[:n_tr])`) and hands the network inputs
# that nothing in the paste scales (`model.fit(X_tr, y_tr, ...)`, X_tr cut from the raw array): the scaling done for one
# side only. Not where anything scales an input: a scaler or a transform handed one, a standardisation or a division
# written out, a normalisation layer.
FIT_INPUTS = lazy_regex.compile(r"\.fit\(\s*(?P<x>[A-Za-z_]\w{0,20})\s*,")
INPUT_SCALED_ANYHOW = lazy_regex.compile(r"(?i)(?:\.(?:fit_)?transform|\bscale|\bnormali[sz]e|\bstandardi[sz]e|scaler\w*\.fit)\(\s*"
                                         r"(?:x|inputs?|features?|data)"
                                         r"\w*\b|\b(?:x|inputs?|features?)\w*\s*(?:/=?|-=?)\s*[\w(]|Normalization\(|BatchNorm|"
                                         r"\b(?:x|inputs?|features?)\w*\s*=\s*\(\s*(?:x|inputs?|features?)\w*\s*-")


def targets_alone_scaled(prose: str, scaling: str) -> str:
    """`scaling`, the code's line that scales the targets, said beside the inputs the code fits the network on, where the
    paste scales those nowhere (see FIT_INPUTS; scaled_said has found no input scaled in code); or ""."""
    fitted = FIT_INPUTS.search(prose)
    if not fitted or not named_as(SCALED_INPUTS, fitted.group("x")) \
            or INPUT_SCALED_ANYHOW.search(without_unused_norm_layers(prose)):
        return ""
    return f"`{scaling}` scales the targets; `.fit({fitted.group('x')}, ...)` is handed the inputs unscaled"


def named_as(pattern: lazy_regex.LazyPattern, name: str) -> bool:
    """Is the name one the pattern gives, whole or by its first part (a split's name is its array's: x_train, y_val)?"""
    return bool(pattern.fullmatch(name) or pattern.fullmatch(name.split("_")[0]))


# A network's inputs taken from a table's columns as they are, where a column is an amount of money (an income, a
# loan, a balance, a price: thousands of units or more), and nothing in the paste scales anything: no scaler, no
# division, no standardising or log said or written. A unit that can go flat (a sigmoid's ends, a ReLU's zero side) does
# on inputs that large, and scikit-learn's own guide says of its MLP that it "is sensitive to feature scaling"
# (https://scikit-learn.org/1.5/modules/neural_networks_supervised.html#tips-on-practical-use). Only beside a network
# the paste builds: a tree's splits do not care.
# (a name's words, split at `_`, `-` and case changes: `annual_income`, `LoanAmount` -- not `parent`'s "rent")
COLUMNS_LISTED = lazy_regex.compile(r"(?m)^[ \t]*(?P<list>[A-Za-z_]\w{0,30})[ \t]*=[ \t]*\[(?P<names>[ \t\n]*['\"][^\]]{1,600}?)\]")
COLUMNS_SELECTED = lazy_regex.compile(r"(?m)^[^\n]{0,60}?\b\w{1,20}\[\[\s*(?P<names>['\"][^\]\n]{1,300}?)\]\][^\n]{0,60}")
MONEY = frozenset("income salary wage wages amount balance price revenue cost spend spending sales rent debt loan "
                  "fare".split())
# (anything in the paste that scales, logs or encodes: a scaler, a transformer or a pipeline applied, words of it, a log)
ANY_SCALING = lazy_regex.compile(r"(?i)scal(?:er|e\(|ed|ing)|normali[sz]|standardi[sz]|z-?score|transform\w*\(|pipeline|"
                                 r"\blog(?:1p|2|10)?\b|\.std\(|\bmin-?max\b|get_dummies|one-?hot|in\s+thousands")
# (the columns handed to an estimator that is no network, on the selection's own line)
NOT_A_NETWORK = lazy_regex.compile(r"Forest|XGB|LGBM|CatBoost|GradientBoosting|Tree|LogisticRegression|SVC|SVR|KNeighbors")


def _words(name: str) -> set[str]:
    return {w.lower() for w in re.findall(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])", name)}


def money_columns_fed(prose: str) -> str:
    """The line that takes a network's inputs from a table's columns, one of them an amount of money, where nothing in
    the paste scales anything (see COLUMNS_SELECTED) nor divides what the line makes; or ""."""
    # (hidden_activation reads code with breaking_constructs, whose imports lead back here: read late)
    from .hidden_activation import MLP_CALL

    # (a network the paste builds: its layers, or scikit-learn's MLP)
    if not (LAYERS_BUILT.search(prose) or MLP_CALL.search(prose)) or ANY_SCALING.search(prose):
        return ""
    selections = [(m, m.group("names")) for m in itertools.islice(COLUMNS_SELECTED.finditer(prose), 10)]
    # (or the columns listed under a name first, `features = ["loan_amnt", "annual_inc", ...]`, then `train[features]`)
    # (not a list of the targets': its own name, or the name the selection is assigned to, a target's)
    for listed in itertools.islice(COLUMNS_LISTED.finditer(prose), 5):
        if re.search(r"(?i)target|label|\by\b|_y\b|\by_", listed.group("list")):
            continue
        if used := re.search(r"(?m)^[^\n]{0,60}?\b\w{1,20}\[\s*" + re.escape(listed.group("list")) + r"\s*\][^\n]{0,60}", prose):
            selections.append((used, listed.group("names")))
    for m, listed_names in selections:
        names = re.findall(r"['\"]([^'\"\n]{1,40})['\"]", listed_names)
        money = [n for n in names if _words(n) & MONEY]
        made = re.match(r"[ \t]*([A-Za-z_]\w{0,30})[ \t]*=", m.group(0))
        if made and named_as(SCALED_TARGETS, made.group(1)):
            continue
        divided = made and re.search(rf"(?m)^[^\n]*\b{re.escape(made.group(1))}\b[^\n]*/", prose[m.end():])
        if len(names) >= 2 and money and not NOT_A_NETWORK.search(m.group(0)) and not divided:
            line = " ".join(m.group(0).split())
            return f"`{line if len(line) <= 100 else line[:97] + '...'}`, {', '.join(money[:3])} in their own units"
    return ""


# A cosine regressed onto labels it cannot reach: sentence-transformers' CosineSimilarityLoss minimises the squared
# error between the label and cos(u, v), which lies in [-1, 1] (losses/CosineSimilarityLoss.py, loss_fct=nn.MSELoss()),
# and its STS example trains on STS-B's 0-5 scores only after normalising them to [0, 1], "as that is required for
# CosineSimilarityLoss" (examples/sentence_transformer/training/sts/README.md in UKPLab/sentence-transformers). A label
# printed above 1 beside that loss is a target left in its own units: every cosine is pushed to 1 and the loss
# floors far above 0.
# (printed as an InputExample does, `label: 5.0`, or as a datasets row, `'score': 5.0`; not where the paste trains a
# classification loss too, whose labels are classes: NLI's SoftmaxLoss, `label: 2`)
COSINE_LOSS = lazy_regex.compile(r"\bCosineSimilarityLoss\b")
CLASSES_LOSS = lazy_regex.compile(r"\b(?:SoftmaxLoss|CrossEntropyLoss|cross_entropy)\b")
# (InputExample's own repr, `<InputExample> label: 5.0`, or a datasets row's quoted key, `'score': 5.0`: not a
# Spearman score printed, nor a count of labels; and not where the words say the scores were scaled, "divided by 5")
LABEL_PRINTED = lazy_regex.compile(r"(?i)<InputExample>\s*label:\s*(\d+(?:\.\d+)?)\b|['\"](?:label|score)['\"]\s*:\s*(\d+(?:\.\d+)?)\b")
LABELS_SCALED = lazy_regex.compile(r"(?i)\b(?:divid\w*|normali[sz]\w*|scal(?:e|ed|ing))\b[^.\n]{0,60}?\b(?:labels?|scores?|by 5)\b|"
                                   r"\b(?:labels?|scores?)\b[^.\n]{0,40}?\b(?:divided|normali[sz]ed|scaled)\b")


def cosine_targets_out_of_reach(prose: str) -> str:
    """The largest label the paste prints, where it is above 1 beside CosineSimilarityLoss; else ''."""
    if not COSINE_LOSS.search(prose) or CLASSES_LOSS.search(prose) or LABELS_SCALED.search(prose):
        return ""
    labels = [(float(m.group(1) or m.group(2)), m.group(0)) for m in itertools.islice(LABEL_PRINTED.finditer(prose), 20)]
    high = max(labels, default=(0.0, ""))
    if high[0] <= 1:
        return ""
    return (f"`{' '.join(high[1].split())}` beside CosineSimilarityLoss: it regresses cos(u, v), in [-1, 1], onto the "
            f"label, so a label of {high[0]:g} is out of its reach")


# The targets' statistics as pandas' describe() prints them (`y_train.describe()`, then its `mean` and `std` rows within
# the next dozen lines): a mean or a spread of RANGE_RAW or more is a target in its own units, unscaled
TARGETS_DESCRIBED = lazy_regex.compile(r"(?i)\b(?:y(?:_train|_tr|_all)?|targets?|\w{0,30}\[['\"]\w{1,40}['\"]\])\.describe\(\)")
STAT_VALUE = r"(?m)^[ \t]*{}[ \t]+(-?\d+(?:\.\d+)?(?:e[-+]?\d+)?)[ \t]*\r?$"


def targets_described(prose: str) -> str:
    """`name.describe(): mean M, std S`, where the paste prints its targets' statistics and they are far from a
    scaled target's (a mean or a std of RANGE_RAW or more); else ''."""
    m = TARGETS_DESCRIBED.search(prose)
    if m is None or not re.match(r"(?i)y\b|y_|targets?\b", m.group(0)) and not re.search(
            r"(?i)\b(?:target|price|value|label|y)\w*['\"]\]", m.group(0)):
        return ""
    block = "\n".join(prose[m.end():].split("\n")[1:14])
    mean, std = (re.search(STAT_VALUE.format(stat), block) for stat in ("mean", "std"))
    if mean is None or std is None:
        return ""
    mu, sigma = float(mean.group(1)), float(std.group(1))
    if max(abs(mu), sigma) < RANGE_RAW:
        return ""
    return f"`{m.group(0)}`: mean {mu:.3g}, std {sigma:.3g}"


# The inputs' statistics as pandas' describe() prints them: a `min` row and a `max` row of the same columns. Columns
# whose ranges differ SCALE_SPREAD times or more, the widest past SCALE_WIDE, are features on very different scales:
# a printed fact for the entries whose phrases say so, unless the words say the inputs were scaled (describe() of
# the raw frame, before a scaler).
SCALES_WORDS = {"feature", "different", "scale"}
STAT_ROW = lazy_regex.compile(r"(?m)^[ \t]*(min|max)[ \t]+((?:-?\d+(?:\.\d+)?(?:e[-+]?\d+)?[ \t]+){1,40}-?\d+(?:\.\d+)?"
                              r"(?:e[-+]?\d+)?)[ \t]*\r?$", re.I)
SCALE_SPREAD, SCALE_WIDE = 1e3, 1e3
# ... or describe().T, a column per statistic and a row per feature: a header naming min and max, then rows of a name and
# as many numbers
# (a header is short: bounded, a line of many "min" words is tried once at its start, not rescanned from each)
STAT_HEADER = lazy_regex.compile(r"(?im)^[ \t]*(?:\w+[ \t]+){0,4}?min\b[^\n]{0,80}?\bmax\b[ \t]*\r?$")
_STAT_NUMBER = r"-?\d{1,15}(?:\.\d{1,12})?(?:e[-+]?\d{1,3})?"
FEATURE_ROW = lazy_regex.compile(r"(?m)^[ \t]*[A-Za-z_][\w.\-/]{0,40}((?:[ \t]+" + _STAT_NUMBER + r"){2,12})[ \t]*\r?$")


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


def feature_scales_printed(prose: str) -> str:
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
# (or its statistics said computed, and the inputs standardised with them: "I compute the mean and std of each input
# column over all training frames and standardise with them")
STANDARDISED_BY_HAND = lazy_regex.compile(r"\b(?:comput\w*|calculat\w*)\s+(?:the\s+)?means?\s+and\s+(?:the\s+)?(?:std|stds|"
                                          r"standard deviations?)\b[^.;\n]{0,80}?\b(?:standardi[sz]\w*|z-?scor\w*)\b|"
                                          r"\b(?:standardi[sz]\w*|z-?scor\w*)\b[^.;\n]{0,60}?\b(?:myself|by hand|"
                                          r"manually|in (?:plain )?numpy|with numpy)\b|\b(?:myself|by hand|manually)\b[^.;\n]{0,30}?"
                                          r"\b(?:standardi[sz]\w*|z-?scor\w*)\b|\bdivid\w* (?:it |them |each \w+ )?by "
                                          r"(?:the |its |their |each \w+'s )?(?:std|standard deviation|sigma)\b", re.I)
SCALER_NAMED = lazy_regex.compile(r"(?i)\b\w*Scaler\b|\bNormalization\(|\bpreprocessing\.scale\b")
# ... not where the same sentence guards the division or is about something else ("(std + 1e-8)", "/ 255", a layer
# norm), nor a plan, advice or a denial just before it
BY_HAND_GUARDED = lazy_regex.compile(r"(?i)\+\s*(?:eps\w*|1e-\d+|0?\.0*1)\b|\b255\b|\b(?:layer|batch|group|instance|token)[ _-]?norm")
BY_HAND_DOUBTED = lazy_regex.compile(r"(?i)\b(?:" + UNDONE + r"|could|would|suggest\w*|advi[sc]\w*|not yet|if|maybe)\b|'ll\b")
# (or R's scale(), which divides each column by its standard deviation, NaN for a constant one: `x <- scale(x)`; not
# with scale = FALSE)
# (not the pair a normalisation is named by, "standardised with the training mean/std")
# (or the root of a variance with nothing added inside it, `/ torch.sqrt(var)`, `* torch.rsqrt(var)`: a weight
# standardisation's or a normalisation's written by hand)
# (its arguments may hold one level of brackets: `s.std(axis=(0, 1))`; a module's own, `/ self.stdev`, as RevIN keeps it
# -- not a sigma the model learns or is given, `/ self.sigma`, a bandwidth; a std under a name of its own is
# divides_by_a_named_std's)
DIVIDES_BY_STD = lazy_regex.compile(r"/\s*(?:\(\s*)?[\w.\[\]\"']{0,40}\.std\((?:[^()\n]|\([^()\n]{0,20}\)){0,30}\)(?!\s*\+)|(?<!mean)(?<!mean )/\s*(?:sigma|(?:self\.)?(?:std|stdev|stds|sd))\b(?!\s*\+)|"
                                    r"/\s*(?:torch|np|numpy|jnp|tf\.math|math)\.sqrt\(\s*\w{0,20}var\w{0,20}\s*\)|"
                                    r"\*\s*(?:torch|jnp|tf\.math|jax\.lax|lax)\.rsqrt\(\s*\w{0,20}var\w{0,20}\s*\)|"
                                    r"<-\s*scale\((?![^\n]{0,120}\bscale\s*=\s*(?:FALSE|F)\b)(?:[^()\n]|\((?:[^()\n]|\([^()\n]*\))*\)){0,120}\)")
# ... or a std under a name of its own (`/ c_std`, `/ std_x`), where the paste makes that name from the data's std: an
# assignment that takes one (`x_std = x.std(0)`), or a call of a function the paste defines that does (AdaIN's `c_mean,
# c_std = calc_mean_std(feat)`) -- not a std the code is given, `/ noise_std`, `/ self.prior_std`
NAMED_STD = lazy_regex.compile(r"/\s*(?P<name>(?:[A-Za-z]\w{0,20}_(?:std|stdev|sd)|(?:std|stdev|sd)_\w{1,20})(?:_\w{1,20})?)\b"
                               r"(?!\s*\+)")
_TAKES_A_STD = lazy_regex.compile(r"\bstd\(|\.var\(|\bvar\(|\bsqrt\([^\n]{0,40}var")


# (asked for one name twice in one diagnosis: by std_division_warned and by divides_by_a_named_std)
@functools.lru_cache(maxsize=64)
def _std_made_from_data(name: str, prose: str) -> bool:
    """Does the paste make `name` from the data's std (see NAMED_STD)?"""
    for m in itertools.islice(re.finditer(r"(?m)^[ \t]*(?:[\w.]+[ \t]*,[ \t]*)*(?:self\.)?" + re.escape(name)
                                          + r"(?:[ \t]*,[ \t]*[\w.]+)*[ \t]*=(?!=)(?P<rhs>[^\n]{1,200})", prose), 10):
        if _TAKES_A_STD.search(m.group("rhs")):
            return True
        called = re.match(r"\s*(?:self\.)?(\w+)\(", m.group("rhs"))
        body = called and re.search(r"(?m)^([ \t]*)def " + re.escape(called.group(1)) + r"\([^\n]*\n((?:\1[ \t]+[^\n]*\n|[ \t]*\n){1,30})",
                                    prose)
        if body and _TAKES_A_STD.search(body.group(2)):
            return True
    return False


def divides_by_a_named_std(prose: str) -> re.Match | None:
    """The first division by a std under a name of its own that the paste makes from the data (NAMED_STD); or None."""
    return next((m for m in itertools.islice(NAMED_STD.finditer(prose), 10) if _std_made_from_data(m.group("name"), prose)),
                None)


# NumPy's warning at a division, and the source line Python echoes under it (warnings.formatwarning): "data.py:52:
# RuntimeWarning: invalid value encountered in divide" over "  X.append((w[:8] - mu) / sd)" (true_divide before NumPy 2)
# (a worker's lines keep the prefix its launcher puts on each, WORKER_PREFIX: `(ClientAppActor pid=48214)   X = ...`)
DIVIDE_WARNED = lazy_regex.compile(r"RuntimeWarning: (?P<what>invalid value|divide by zero) encountered in (?:true_)?divide"
                                   r"[ \t\r]*\n" + WORKER_PREFIX + r"?(?P<line>[ \t]+[^\n]{1,200})")


# A min-max scaling's division by its range with nothing added, the other spread an item of equal values has none of:
# `(x - lo) / (hi - lo)`, where the numerator takes away the very name the denominator does, or a range named as one
# (`/ (x.max() - x.min())`, `/ np.ptp(x)`)
_NAME = r"[\w.\[\]]{1,40}(?:\([\w\s]{0,20}\))?"
DIVIDES_BY_RANGE = lazy_regex.compile(r"\(\s*" + _NAME + r"\s*-\s*(?P<low>" + _NAME + r")\s*\)\s*/\s*\(\s*" + _NAME +
                                      r"\s*-\s*(?P=low)\s*\)|/\s*\(\s*[\w.\[\]]{0,40}\bmax\w*(?:\([^()\n]{0,30}\))?\s*-\s*"
                                      r"[\w.\[\]]{0,40}\bmin\w*(?:\([^()\n]{0,30}\))?\s*\)|/\s*(?:np|numpy)\.ptp\(|/\s*[\w.\[\]]{1,40}\.ptp\(")


# (a range of the data's values, by the names a low end takes -- a min, a lo, a 1st percentile, a quantile -- not a
# schedule's or a clock's: `(step - warmup_start) / (warmup_end - warmup_start)`, `(t - t0) / (t1 - t0)`, an RL score's
# `(raw - random_score) / (human_score - random_score)`)
DATA_LOW = lazy_regex.compile(r"(?i)(?:^|[_.])(?:min\w*|mn|lo|low\w*|p\d{1,2}|pct\w*|percentile\w*|quantile\w*|q\d{1,2}|vmin|floor)"
                              r"(?:$|[_(\[])|^\w*(?:min|lo)$")
NOT_DATA_RANGE = lazy_regex.compile(r"(?i)(?:^|[^a-z])(?:steps?|epochs?|iters?|it|warm\w*|sched\w*|lr|len|kl)(?:[^a-z]|$)")


def _range_of_data(division: re.Match) -> bool:
    """Is the range DIVIDES_BY_RANGE found one of the data's values (DATA_LOW, NOT_DATA_RANGE)?"""
    low = division.groupdict().get("low")
    return not NOT_DATA_RANGE.search(division.group(0)) and (low is None or bool(DATA_LOW.search(low)))


def std_division_warned(prose: str) -> tuple[str, str] | None:
    """(the warning's words, the echoed line) where NumPy warned at a line that divides by a spread with nothing added
    to it -- a standard deviation (DIVIDES_BY_STD) or a range of the data (DIVIDES_BY_RANGE) --, else None."""
    for m in itertools.islice(DIVIDE_WARNED.finditer(prose), 10):
        ranged = DIVIDES_BY_RANGE.search(m.group("line"))
        named = NAMED_STD.search(m.group("line"))
        if DIVIDES_BY_STD.search(m.group("line")) or ranged and _range_of_data(ranged) \
                or named and _std_made_from_data(named.group("name"), prose):
            return f"{m.group('what')} encountered in divide", " ".join(m.group("line").split())
    return None


CONSTANT_FEATURE = lazy_regex.compile(r"\b(?:(?:the )?same (?:value )?(?:for|in|across|on) (?:every|all|each) (?:rows?|samples?|examples?"
                                      r"|records?)|constant (?:columns?|features?)|(?:columns?|features?) (?:that|which) (?:are|is) "
                                      r"constant|zero variance|(?:std|standard deviation) (?:is|of|=|==) ?0(?![.\d]))\b", re.I)
# ... or says that some inputs it normalises one by one are all zeros: a silent recording, a blank image (their std is
# 0 and their mean exactly 0, so every value of them is 0/0)
ALL_ZERO_INPUT = lazy_regex.compile(r"\b(?:silent|all[ -]zeros?|all-zero|blank|(?:digital|pure) zeros?)\b[^.\n]{0,30}?"
                                    r"\b(?:clips?|"
                                    r"recordings?|audio|wavs?|images?|frames?|inputs?|samples?|examples?|utterances?)\b|"
                                    # (a black picture, a fade-out's frame: all zeros -- the noun right after it, not a
                                    # black background, spot or cat in a picture that holds more)
                                    r"\b(?:all[ -]|pure[ -]|completely[ -])?black[ -](?:frames?|images?|pictures?|tiles?|"
                                    r"crops?|screens?|inputs?)\b|"
                                    r"\bmax\(\)`?\s+(?:is|was|==|=)\s+(?:exactly\s+)?0(?:\.0+)?(?![.\d])", re.I)


# (inputs, not what the model gives: the clause's subject is the model or its output -- "the decoder outputs black
# images", "the predictions are black images" -- not a source of the data, "my dataloader returns black frames")
MODEL_GIVES = lazy_regex.compile(r"(?i)\b(?:model|network|net|decoder|generator|predictions?|reconstructions?|"
                                 r"(?:the|its|my)\s+outputs?(?=\s+(?:are|is|look|were|was|come)\b))\b[^.;,\n]{0,40}$")


def zero_inputs_said(prose: str) -> re.Match | None:
    """The first ALL_ZERO_INPUT words that are said of the data, not of what the model outputs (MODEL_GIVES); or
    None."""
    for m in itertools.islice(ALL_ZERO_INPUT.finditer(prose), 10):
        start, _ = sentence_around(prose, m.start(), m.end())
        if not MODEL_GIVES.search(prose, start, m.start()):
            return m
    return None


# Each item standardised with its own statistics: a window, a sequence or a clip by its own mean and std ("rescales the
# amounts of each window with that window's own statistics", "each sequence is z-scored with its mean and std"): an
# item whose values are all equal has a std of 0, at whichever batch first holds one (WR-060's page). Said near the
# division itself (PER_ITEM_REACH): not any Dataset's __getitem__, nor a "per-sample loss" elsewhere.
_ITEMS = (r"(?:window|sample|clip|image|sequence|series|utterance|recording|segment|instance|example|signal|trace|"
          r"spectrogram|read|frame|snapshot|patch|tile|volume|scan|slice|crop|chunk)s?")
_GROUPS = (r"(?:user|patient|subject|customer|station|sensor|speaker|session|store|product|basin|stock|ticker|asset|"
           r"participant|device|site|well|household|account|driver|group|prompt)s?")
PER_ITEM = lazy_regex.compile(r"(?i)\b(?:its|their|that \w+'s|each \w+'s|every \w+'s) own (?:mean|statistics|stats|std|standard "
                              r"deviation|min and max|min(?:imum)? and max(?:imum)?|range|normali[sz]ation)\b|"
                              # ("every spectrogram is normalised on its own", "each tile gets rescaled separately")
                              r"\b(?:each|every) " + _ITEMS + r"\b[^.;\n]{0,30}?\b(?:is|are|gets?|was|were)\s+(?:re)?(?:normali[sz]\w*|"
                              r"standardi[sz]\w*|z-?scor\w*|scaled)\s+(?:on its own|by itself|separately|individually|independently)\b"
                              # (a size is a resize, not a scaling of values: "each image is scaled individually to 224x224")
                              r"(?!\s+(?:to|into)\s+\d)|\b(?:with|by|using) (?:its|their) (?:own )?mean and "
                              r"(?:std|standard deviation)\b|\bper[- ](?:window|sample|sequence|clip|series|utterance|recording|"
                              r"segment|instance|crop|chunk|image|patch|tile) (?:normali[sz]\w*|standardi[sz]\w*|z-?scor\w*|scaling)\b|"
                              # ("standardises each window on its own", "normalizes every image separately")
                              # (an item, not a feature, a column or a channel: those are scaled over the whole dataset)
                              r"\b(?:normali[sz]\w*|standardi[sz]\w*|z-?scor\w*) (?:each|every) (?:window|sample|clip|image|"
                              r"sequence|series|utterance|recording|segment|instance|example|signal|trace|spectrogram|read) "
                              r"(?:on its own|by itself|separately|individually|independently)\b|"
                              # ... or a group's own statistics, where a group (a user, a patient, a station) may hold one value
                              # or all-equal ones: "z-score the readings per station", "divide by the patient's std"; or an
                              # item's, its name after the verb ("z-scored per window before the model") -- not a length's
                              # ("the loss normalised per utterance length")
                              r"\b(?:normali[sz]\w*|standardi[sz]\w*|z-?scor\w*)\b[^.;\n]{0,30}?\b(?:per[- ]|(?:within|inside|in)\s+"
                              r"(?:each|every)\s+)(?:" + _GROUPS + r"|" + _ITEMS + r")\b(?![ -]+length)|"
                              r"\bper[- ]" + _GROUPS + r" (?:normali[sz]\w*|standardi[sz]\w*|z-?scor\w*|scaling)\b|"
                              # ... or GRPO's group-relative advantage, each prompt's rewards by their own mean and std
                              # (Shao et al. 2024, DeepSeekMath, section 4.1.2): a group whose completions all score the
                              # same has a std of 0
                              r"\bgroup[- ]relative\b|\bGRPO\b|"
                              r"\bdivid\w*\s+(?:it\s+|them\s+|\w+\s+)?by\s+(?:the|each|every)\s+"
                              # (a group's, not a feature's, a column's or a channel's: those are the whole dataset's)
                              r"(?!(?:feature|column|channel|variable|dataset|band|input)'s)\w+'s\s+(?:own\s+)?(?:std|standard "
                              r"deviation|sd|range)\b")
PER_ITEM_REACH = 300


# (statistics of the whole dataset named in the same sentence: "each image separately with the dataset mean and std")
DATASET_STATS = lazy_regex.compile(r"(?i)\b(?:dataset|global|training[- ]set|train[- ]set|imagenet|precomputed|pre-computed)(?:'s)?\s+"
                                   r"(?:mean|std|statistics|stats|normali[sz]ation)\b|\b(?:mean|std|statistics|stats)\b[^.\n]{0,30}?"
                                   r"\b(?:over|of|from|on)\s+the\s+(?:whole\s+|entire\s+|full\s+)?(?:dataset|training set|train set)\b|"
                                   r"\bcomputed once\b")


# (a normalisation layer of the model scales each item by its own statistics by design, and after a learned
# affine: "each sample is normalised independently by a LayerNorm" says nothing of the inputs; nor does TensorFlow's
# per_image_standardization, whose std is kept at 1/sqrt(N) or more "to protect against division by 0")
NORM_LAYER = lazy_regex.compile(r"(?i)\b(?:layer|instance|group)[ _-]?norm\w*|\bper_image_standardization\b")


def _whole_set_or_layer(text: str, m: re.Match) -> bool:
    """Whether the sentence around m names dataset-wide statistics or a normalisation layer."""
    start, end = sentence_around(text, m.start(), m.end())
    return bool(DATASET_STATS.search(text, start, end) or NORM_LAYER.search(text, start, end))


# (a loss or a gradient normalised per item is no input's scaling: "the CTC loss is normalised per utterance", DP-SGD's
# "gradients clipped and normalised per sample")
NOT_INPUTS_SCALED = lazy_regex.compile(r"(?i)\b(?:loss\w*|gradients?|grads?)\b[^.;,\n]{0,30}$")


def _per_item_told(text: str, m: re.Match) -> bool:
    """Is the PER_ITEM match m a statement of the inputs' scaling: not in a question, not denied just before it, not of
    a loss or a gradient, in a sentence that names no dataset-wide statistics or normalisation layer?"""
    start, end = sentence_around(text, m.start(), m.end(), stops=".;\n?!")
    return not (text[end:end + 1] == "?" or _whole_set_or_layer(text, m)
                or NEGATED.search(text[max(0, m.start() - 40):m.start()])
                or NOT_INPUTS_SCALED.search(text, max(start, m.start() - 40), m.start()))


def per_item(prose: str, division: re.Match) -> re.Match | None:
    """The words that the division standardises each item by its own statistics, within PER_ITEM_REACH characters of
    it, told (_per_item_told); or the code that makes its std one per item (per_item_std); or None."""
    return next((m for m in itertools.islice(PER_ITEM.finditer(prose), 10)
                 if abs(m.start() - division.start()) <= PER_ITEM_REACH and _per_item_told(prose, m)), None) \
        or per_item_std(prose, division)


# ... or the code says it: the std divided by is taken over axes that leave out the batch's, axis 0 (`sd =
# x.std(dim=(1, 2, 3), keepdim=True)`, `x.std(1)`, `np.std(x, axis=-1, keepdims=True)`): one std per example, or per token, each
# from that item's own values -- not per feature over the batch (`dim=0`), nor over everything (no axis). The call
# is read in the division itself, or on the line that assigns the name divided by.
_STD_CALL = lazy_regex.compile(r"(?:\.|\b(?:np|numpy|torch|jnp|tf\.math)\.(?:reduce_)?)std\(")
_AXES = lazy_regex.compile(r"^\s*(?:dim|axis)\s*=\s*(.+?)\s*$", re.S)
_DIVISOR_NAME = lazy_regex.compile(r"([A-Za-z_]\w{0,30})\s*(?:\)\s*)?$")
_TO_LINE_END = lazy_regex.compile(r"[^\n]*")


def per_item_std(prose: str, division: re.Match) -> re.Match | None:
    """The std call (group 0, up to its bracket) of the division -- or of a later one in the paste (DIVIDES_BY_STD) --
    or of the nearest line before it assigning its divisor, whose axes all leave out the batch's (see above); or
    None."""
    later = itertools.islice(DIVIDES_BY_STD.finditer(prose, division.end()), 9)
    return next((m for d in (division, *later) if (m := _std_of(prose, d))), None)


def _std_of(prose: str, division: re.Match) -> re.Match | None:
    from .breaking_constructs import GUARDED     # (breaking_constructs imports this module's neighbours: read late)

    said = division.group(0)
    if not _STD_CALL.search(said):
        name = _DIVISOR_NAME.search(said)
        made = name and list(itertools.islice(re.compile(r"(?m)^[ \t]*(?:self\.)?" + re.escape(name.group(1))
                                                         + r"\s*=(?!=)[^\n]{0,160}").finditer(prose, 0, division.start()),
                                              50))
        # (the nearest making before the division, as that division sees it: with a guard -- `+ 1e-5`, a clamp, a
        # max, a where -- it is kept off 0; one made elsewhere, for another function, is not this one)
        if not made or GUARDED.search(made[-1].group(0)) or "where(" in made[-1].group(0):
            return None
        division = made[-1]
    call = _STD_CALL.search(prose, division.start(), division.end())
    args = call and arguments(prose, call.end() - 1)
    axes = next((a.group(1) for a in map(_AXES.match, args or ()) if a), "")
    if not axes and args and call.group(0).startswith(".") and "=" not in args[0]:
        axes = args[0]          # (a tensor's method takes its axes first: `x.std(1)`)
    if re.search(r"[A-Za-z_]", axes) or not (numbers := re.findall(r"-?\d+", axes)) or "0" in numbers:
        return None
    return _TO_LINE_END.match(prose, call.start(), call.end() + sum(map(len, args)) + len(args))


# (a division by a spread that the paste shows as code, guarded or not: `x = (x - x.mean()) / (x.std() + 1e-6)`, `(f -
# f.min()) / (f.max() - f.min() + eps)` -- the code says what the division does, not the words)
# (each `/` scans to the next one at most: linear on a line of slashes)
DIVISION_SHOWN = lazy_regex.compile(r"(?i)(?:/=?|\.div_?\()[^\n/]{0,80}?(?:\bstd|\bsigma\b|\bstdev|\.max\(|\bmax\b|\bptp\b|"
                                    r"\beps\b|\d+e-\d+)")


def per_item_said(prose: str) -> re.Match | None:
    """The words that say each item is scaled by its own statistics (PER_ITEM), told (not asked, not denied just before
    it), in a sentence that names no dataset-wide statistics, in a paste whose code shows no such division (guarded or
    not); or None."""
    if DIVISION_SHOWN.search(prose):
        return None
    text = told(prose)
    return next((m for m in itertools.islice(PER_ITEM.finditer(text), 10) if _per_item_told(text, m)), None)


def standardised_by_hand(prose: str) -> re.Match | None:
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
