"""Loss values a report gives in a sentence, in order: "Loss starts at 6.9, then 7.4, 9.8, 15 and it's nan
before the end of the first epoch", "the loss went from 2.3 to 1.1 to 0.7 -> nan".

Three numbers or more after the word loss, with nothing but a comma, "then", "and", "to" or an arrow between
them, and maybe a nan or an inf to end them ("and it's nan", "then becomes inf", "and keeps slowly falling, then
it is nan from step 517 on": a few words, no number, no full stop and no negation between). The sentence prints no epoch
or step beside them: a value is located as the value of the sentence it is ("value 4 of the sentence"), never
as an epoch the report did not give. Not a list of other things ("a loss of 0.5, accuracy 0.9, f1 0.8": words
between the numbers), which no other reading takes either.
"""
from __future__ import annotations

import re

from . import Dialect
from ..numbers import NUMBER
from .history import Item

_SEP = (rb"(?:[ \t]*,[ \t]*(?:(?:and[ \t]+)?then[ \t]+|and[ \t]+)?|[ \t]*(?:->|\xe2\x86\x92)[ \t]*"
        rb"|[ \t]+(?:then|to|and(?:[ \t]+then)?)[ \t]+)")
# ... maybe a few words between ("and keeps slowly falling, then it is nan from step 517 on"), none of them a number
# or a sentence's end, nor a negation of the nan ("no nan", "never inf")
_TO_NONFINITE = (rb"(?:(?:(?:[ \t]*,)?[ \t]+(?![^.;\d\n]{0,60}?\b(?:no|not|never|without|nor)\b)[^.;\d\n]{0,60}?)?"
                 rb"(?<![\w-])(?:nan|inf)\b)?")
# the word loss, maybe a verb and a preposition ("starts at", "went from", "is"), then the values (group 1)
SENTENCE = re.compile(rb"(?i:(?<![\w'\"])loss(?:es)?[ \t]+(?:(?:starts?|started|begins?|began|goes|went|is|was|values?"
                      rb"|were|are)[ \t]+)?(?:(?:at|from|like|around|about)[ \t]+)?"
                      rb"(" + NUMBER + rb"(?:" + _SEP + NUMBER + rb"){2,}" + _TO_NONFINITE + rb"))")
VALUE = re.compile(rb"(?i)(?<![\w.])(" + NUMBER + rb")")


def items(data: bytes) -> list[Item]:
    """The values of each such sentence in data, in order (a sentence's full stop is no decimal: `15.` is 15)."""
    out: list[Item] = []
    for m in SENTENCE.finditer(data):
        for k, v in enumerate(VALUE.finditer(m.group(1)), start=1):
            out.append(Item(m.start(1) + v.start(1), v.group(1).rstrip(b"."), f"value {k} of the sentence"))
    return out


DIALECT = Dialect("loss values given in a sentence", SENTENCE, mode="list", items=items)
