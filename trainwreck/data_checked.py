"""What a report says of the check a bad batch's entry asks for: the data searched for nan and inf, and found clean.

"I assert torch.isfinite() on every batch and it never fires", "np.isfinite(X).all() is True", "df.isna().sum() is 0
for every column", "no nan or inf in X or y": the first check of WR-310 (a nan or an inf in the data), done. It does
not clear the data of every fault -- a value in the wrong units, an empty sequence, a corrupt label are finite -- so it
counts against that entry by half, not wholly. A check said of part of the data ("a few of the CSVs", "the first
batch") clears only that part, and is not read; nor is "no nan anywhere", said of the run.
"""
from __future__ import annotations

import functools
import itertools
import re

from .sentences import UNDONE, sentence_around, told
from . import lazy_regex

# (what holds the data: inputs, targets, batches, files of it)
_DATA = (r"(?:x|y|z|x_\w+|y_\w+|data|dataset|inputs?|features?|batch(?:es)?|images?|labels?|targets?|csvs?|columns?|"
         r"samples?|tensors?|frames?|arrays?|files?|rows?|records?|sequences?|positions|coordinates|measurements|"
         r"readings|signals|pixels|patch(?:es)?|crops?|windows?|clips|volumes?|scans?|tiles?|voxels?|spectra|"
         r"waveforms?|sentences?|texts?|documents?|point clouds?|instances?)")
# (a name the words give the data by, after "in": any short word but what the model makes)
_NAMED = r"(?!(?:loss\w*|outputs?|grad\w*|weights?|logits?|predictions?|params?|parameters?|model|activations?)\b)\w{1,20}"
_NONFINITE = r"(?:nans?|infs?|nan\s*(?:/|or|and)\s*infs?|inf\s*(?:/|or|and)\s*nans?|missing)"
DATA_FINITE = lazy_regex.compile(
    # "np.isfinite(X).all() is True", "torch.isfinite(x).all() on every batch ... never fires", "jnp.isfinite ... passes"
    r"\bisfinite\b(?:[^.;\n]|\.(?=\w)){0,80}?\b(?:is\s+true|are\s+true|(?:all\s+)?true\s+for|returns?\s+true|pass(?:es|ed)?|"
    r"never\s+(?:fires|fired|triggers|triggered|fails|failed|trips|tripped)|holds|held)\b"
    # "no nan or inf in X or y", "no nans in the inputs", "there are no nan/inf values in z, pos or y"
    r"|\bno\s+" + _NONFINITE + r"(?:\s+values?)?\s+(?:values?\s+)?(?:(?:anywhere\s+)?in|inside)\s+"
    r"(?:the\s+|my\s+|our\s+|any\s+)?(?:" + _DATA + r"\b|(?:\w+\s+)?" + _DATA + r"\b|" + _NAMED + r"\s*,)"
    # "the inputs have no nan", "the input features are standardised and contain no nan"
    r"|\b" + _DATA + r"\b(?:\s+(?:and|or)\s+" + _DATA + r")?[^.;\n]{0,30}?\b(?:have|has|contain|contains|had|"
    r"contained|show|shows)\s+(?:no|zero)\s+" + _NONFINITE + r"\b"
    r"|\b" + _DATA + r"\b(?:\s+(?:and|or)\s+" + _DATA + r")?\s+(?:are|is|were|was)\s+(?:all\s+)?finite\b"
    # "I checked there are no nan/inf", "verified that there is no nan"
    r"|\b(?:checked|verified|made sure|confirmed|asserted)\b[^.;\n]{0,20}?\b(?:there\s+(?:are|is|were|was)\s+)?no\s+"
    + _NONFINITE + r"\b(?!\s+(?:in|anywhere in)\s+(?:the\s+)?(?:loss|outputs?|grad|weights|logits))"
    # "df.isna().sum() is 0", "isnan(x).any() is False", "df.isna().sum() - all zeros"
    r"|\bis(?:na|nan|null)\((?:[^.;\n]|\.(?=\w)){0,40}?(?:\b(?:is|are|was|were|gives?|returns?|shows?|prints?)\s+|"
    r"\s[-:=]\s*)(?:all\s+)?(?:0|zero|zeros|false)\b(?![.,]?\d|\s*%)"
    # "jnp.isnan on the whole dataset is all False": the check named in words, of the data
    r"|\bis(?:na|nan|null)\s+(?:on|in|of|over)\s+(?:the\s+|my\s+|our\s+)?(?:whole\s+|entire\s+|full\s+)?"
    + _DATA + r"\b[^.;\n]{0,30}?\b(?:is|are|was|were|gives?|returns?|shows?|prints?)\s+(?:all\s+)?(?:0|zero|zeros|false)\b"
    r"(?![.,]?\d|\s*%)",
    re.I)
# A check of part of the data only: "a few of the CSVs", "the first batch", "some files"
PARTIAL = lazy_regex.compile(r"\b(?:a few|some|a couple|several|one|two|the first|a sample|a subset|spot[- ]check\w*)\b"
                             r"(?:\s+of)?(?:\s+(?:the|my|our))?\s+[\w.]*\s*$|\b(?:a few|some|several)\s+(?:of\s+)?(?:the\s+)?\w+",
                             re.I)


# ... nor a check not done, planned or doubted ("I haven't checked whether...", "I should check that...", "I assumed"),
# nor one the rest of its sentence takes back ("X has no nan but y has 3 nans", "for most columns but 12 for 'income'",
# "passes for the training set but fails on the test set"), nor one of the run's own tensors
NOT_DONE = lazy_regex.compile(r"(?i)\b(?:" + UNDONE + r"|need to|needs to|how (?:do|can|should) i|make sure|not sure|assum\w*|"
                              r"tomorrow|supposedly|according to)\b|'ll\b")
# (a contrast that names data -- "but y has 3 nans", "except the timestamp column", "for most columns" -- or a count of
# nans, or a check that failed; not "but the loss goes nan", the report's own failure)
TAKEN_BACK = lazy_regex.compile(r"(?i)\b(?:but|except|apart from|other than|only)\b(?:(?!\b(?:loss|gradients?|outputs?|"
                                r"activations?|weights|logits?|model|training|it)\b)[^.;\n]){0,40}?\b(?:x|y|labels?|targets?|"
                                r"validation|val|test|columns?|features?|inputs?|rows?|data\w*|files?|set)\b|"
                                r"\bfor (?:most|some|the first|a few)\b|\bfails?\b|\bfailed\b|\b[1-9]\d*\s+(?:nans?|infs?|missing)\b")
# (the check said of the run's own tensors: "no nan in the hidden states")
OF_THE_RUN = lazy_regex.compile(r"(?i)^\s*(?:in|inside|of)\s+(?:the\s+|my\s+)?(?:hidden states?|activations?|outputs?|logits?|"
                                r"gradients?|weights|loss\w*|model)\b")


# (nor a check whose own words name the model's tensors: "torch.isfinite on all dense params and all EBC weights is
# True" found the weights clean, not the data -- "the model inputs" are data, and a check that names inputs as well
# counts; nor one of the parameters in code: `torch.isfinite(p).all() is True for every p in model.parameters()`)
OF_THE_MODEL = lazy_regex.compile(r"(?i)^is(?:finite|nan|na|null)\b[^.;\n]{0,20}?\b(?:on|of|for|over|in)\s+(?:all\s+|every\s+|each\s+)?"
                                  r"(?:the\s+|my\s+|our\s+)?(?:\w+\s+)?(?:params?|parameters?|weights?|grad\w*|activations?|"
                                  r"logits?|outputs?|buffers?|model(?!\s+(?:inputs?|batch(?:es)?|data)\b))\b")
PARAMETERS_CHECKED = lazy_regex.compile(r"(?i)\b(?:named_)?parameters\(\)|\bstate_dict\(|\bisfinite\(\s*(?:self\.)?(?:model|net)\.|"
                                        r"\bisfinite\([\w.]*\.(?:weight|bias)\b")
NAMES_DATA = lazy_regex.compile(r"(?i)\b(?:inputs?|data|batch(?:es)?|features?|x|y|labels?|targets?)\b")


@functools.lru_cache(maxsize=4)      # (asked by the context, the printed facts and inputs_only; read only)
def _checks_accepted(prose: str) -> tuple[tuple[str, str], ...]:
    """Each check for nan and inf the words say was done on the data and found clean: its words, and its clause (from
    the clause's start to its sentence's end, at most 60 characters on), in the told, lowercased text."""
    text = told(prose)
    accepted = []
    for m in itertools.islice(DATA_FINITE.finditer(text), 10):
        # (the sentence's words before it: a dot between words, `df.isna`, ends none)
        clause = re.split(r"\.(?!\w)|[;\n]", text[max(0, m.start() - 60):m.start() + 1])[-1]
        after = re.split(r"\.(?!\w)|[;\n]", text[m.end():m.end() + 120])[0]
        # (nor asked: "isnan on the data returns False, right?"; nor expected, in the check's own words: "should
        # return all False")
        asked = text[m.end():m.end() + len(after) + 1].rstrip().endswith("?")
        if not (PARTIAL.search(clause + " " + m.group(0)) or NOT_DONE.search(clause) or NOT_DONE.search(m.group(0))
                or (OF_THE_MODEL.search(m.group(0)) and not NAMES_DATA.search(m.group(0)))
                or PARAMETERS_CHECKED.search(m.group(0) + " " + after[:80])
                or TAKEN_BACK.search(after) or OF_THE_RUN.search(after) or asked):
            # ("All audio files load, and I checked the features: no nan" checked the features)
            whole = text[sentence_around(text, m.start(), m.end(), stops=".,;\n")[0]:
                         sentence_around(text, m.start(), m.end(), reach=60)[1]]
            accepted.append((" ".join(m.group(0).split()), whole))
    return tuple(accepted)


def data_said_finite(prose: str) -> str:
    """The words that say the data was checked for nan and inf and found clean, as written (lowercased); or ""."""
    accepted = _checks_accepted(prose)
    return accepted[0][0] if accepted else ""


# A check whose words name the inputs alone ("checked the features: no nan", "the images contain no nan"): a nan or an
# inf in the targets (a label file, a score averaged over no ratings) passes it, and makes the loss nan as surely
INPUTS_NAMED = lazy_regex.compile(r"(?i)\b(?:x|x_\w+|inputs?|features?|images?|pixels|frames?|clips|audio|waveforms?|"
                                  r"spectrograms?|embeddings?|signals|texts?|sentences?|tokens?|scans?|volumes?|point clouds?)\b")
TARGETS_NAMED = lazy_regex.compile(r"(?i)\b(?:y|y_\w+|labels?|targets?|annotations?|ground truth|gt|scores?|outputs?|data|"
                                   r"dataset|everything|both|all of it|x and y|csvs?|files?|rows?|columns?|masks?|boxes|"
                                   r"bounding boxes|transcripts?|captions?|keypoints?|depths?)\b")


def inputs_only(prose: str) -> bool:
    """Do the paste's checks for nan and inf that were done (data_said_finite's, each one it accepts) name the inputs,
    and none of them anything that holds the targets?"""
    checks = [whole for _, whole in _checks_accepted(prose)]
    return any(INPUTS_NAMED.search(c) for c in checks) and not any(TARGETS_NAMED.search(c) for c in checks)
