"""Loss values a report gives in a sentence, in order: "Loss starts at 6.9, then 7.4, 9.8, 15 and it's nan
before the end of the first epoch", "the loss went from 2.3 to 1.1 to 0.7 -> nan", "the loss printed after epoch 1
is 3.87e+10, after epoch 2 it's 6.1e+21, then inf, then nan from epoch 4 on", "La loss commence à 0.69 puis devient
négative : -1843.2 à la fin de l'epoch 1, -15720.6 à l'epoch 5".

Three values or more after the word loss, in one sentence. Between two of them only words (in any language: the
numbers, a nan and an inf read the same in all of them), a few at most, and the counts that say where the run was
("epoch 2", "step 200", "for epochs 1-3", "after 500 epochs", "30 epoche"), which are not values. The values end at
the sentence's end, at a number that is something else's (`lr 0.1`, `accuracy 10%`, `batch size 64`, `8 GPUs`,
another loss named: "val loss 0.6"), or at a nan the words deny ("no nan", "never inf"). A validation loss's sentence
gives none. A line that ends in a colon introduces the next, which goes on its sentence. A value is located as the
value of the sentence it is ("value 4 of the sentence"), or by an epoch printed right beside it ("epoch 30 2.3010",
"0.0214 (epoch 19)"), never by one a few words away -- "-1843.2 à la fin de l'epoch 1" names its epoch after the
value, "after epoch 2 it's 6.1e+21" before it, and a reading that guessed which would misplace one.
"""
from __future__ import annotations

import re

from . import Dialect
from ..decimals import decimal_points
from ..numbers import NUMBER, CODE_AFTER
from ..positions import epoch_text
from .history import Item, list_items

# the word loss, not a validation loss's ("val loss 0.41", "validation loss went up"), nor a name's part (val_loss)
# (nor a file's: `Loss.cu:250`)
# (and the word loss in the languages the reports come in: pérdida, perda, perdita, perte, Verlust, потеря / лосс,
# kayıp, 损失 / 損失, 손실 -- not one a validation's words follow: "pérdida de validación", "perte de validation")
LOSS_WORD = re.compile(rb"(?i)(?<![\w'\"/])(?P<val>(?:val(?:idation)?|valid|test|eval(?:uation)?|dev)[ \t_-]+)?"
                       rb"(?:loss(?:es)?|p\xc3\xa9rdidas?|perdas?|perdit[ae]|pertes?|verluste?|kay\xc4\xb1p|"
                       rb"\xd0[\xbf\x9f]\xd0\xbe\xd1\x82\xd0\xb5\xd1\x80[\xd1\x8f\xd0\xb8]|\xd0[\xbb\x9b]\xd0\xbe\xd1\x81\xd1\x81|"
                       rb"(?-i:\xe6\x8d\x9f\xe5\xa4\xb1|\xe6\x90\x8d\xe5\xa4\xb1|\xec\x86\x90\xec\x8b\xa4))"
                       rb"(?![\w'\"]|\.\w|[ \t]+(?:de|di|du|der|des)[ \t]+(?i:validaci|validat|valida|test|prueba|teste))")
# a sentence ends at a full stop that is no decimal point, at ; ! ? or a line's end (and at CJK full stops)
# (an ellipsis is no end: "0.6912, 0.4127, ... 0.0214 (epoch 19), then nan" goes on past it)
# (nor an ordinal's full stop, a number's before the word epoch or step of a language that writes ordinals so: "1.
# epoch'un 418. adımında", "im 3. Schritt", "w 5. epoce")
_ORDINAL_OF = (rb"[ \t](?i:epoch|epoche|epok|\xc3\xa9poca|epoca|\xc3\xa9poque|schritt|iteration|step|ad\xc4\xb1m|"
               rb"adim|krok|passo|paso|\xc3\xa9tape|batch|tur\b|devir)")
SENTENCE_END = re.compile(rb"(?<!\.)\.(?![\d\w.])(?<!\d\.(?=" + _ORDINAL_OF + rb"))|[;!?\n]|\xe3\x80\x82|"
                          rb"\xef\xbc\x81|\xef\xbc\x9f")
LONGEST = 400            # bytes of a sentence read after its loss word
GAP = 60                 # bytes of words at most before a value, or between two
_UNIT = (rb"(?:epoch\w*|epoque\w*|\xc3\xa9poque\w*|\xc3\xa9poca\w*|epoca\w*|\xd1\x8d\xd0\xbf\xd0\xbe\xd1\x85\w*|step\w*|"
         # (Russian шаг, итерация: "на 3-5 шаге", "к 200 шагу")
         rb"\xd1\x88\xd0\xb0\xd0\xb3|\xd0\xb8\xd1\x82\xd0\xb5\xd1\x80\xd0\xb0\xd1\x86|"
         rb"iter\w*|it\b|batch\w*|sample\w*|example\w*|image\w*|class\w*|gpus?|x\b|k\b|m\b|b\b|params?|"
         rb"parameters?|layers?|heads?|minutes?|mins?|hours?|h\b|seconds?|s\b|ms\b|"
         # (and the count words of Chinese, Japanese and Korean: 轮 次 步 回 個 エポック 에폭 번)
         rb"\xe8\xbd\xae|\xe6\xac\xa1|\xe6\xad\xa5|\xe5\x9b\x9e|\xe5\x80\x8b|\xe4\xb8\xaa|"
         rb"\xe3\x82\xa8\xe3\x83\x9d\xe3\x83\x83\xe3\x82\xaf|\xec\x97\x90\xed\x8f\xad|\xeb\xb2\x88)")
# the tokens of a sentence after its loss word:
TOKEN = re.compile(
    # a place in the run: "epoch 2", "step 200", "epochs 1-3", "epoch 3/10", "iteration #4" -- not a value
    rb"(?P<place>(?i:epochs?|epoche?|\xc3\xa9poques?|\xc3\xa9pocas?|steps?|iterations?|iters?|batch(?:es)?)[ \t]*"
    rb"(?:(?:#|no\.?|~|about|around)[ \t]*)?\d+(?:[ \t]*(?:-|/|to)[ \t]*\d+|"
    # (or a list of places: "near epochs 15 and 24", "steps 300, 410 or 520")
    rb"(?:[ \t]*,[ \t]*\d+(?![\w.])){0,8}[ \t]+(?:and|or)[ \t]+\d+)?(?![\w.]))"
    # a count of something (500 epochs, 30 epoche, 8 GPUs, 10%, 3x), or a whole number after a word that places it
    # ("0.4 after 5 and 0.3 after 10"): not a value either
    rb"|(?P<count>(?<![\w.~])~?[ \t]*\d[\d,]*(?:\.\d+)?(?:[ \t]*(?:-|\xe2\x80\x93)[ \t]*\d[\d,]*)?[ \t]*(?:%|(?i:"
    + _UNIT + rb"))"
    # (a whole number, one word between it and its unit: "~200 optimizer steps", "50 training epochs")
    rb"|(?<![\w.~])~?[ \t]*\d[\d,]*[ \t]+[A-Za-z]{3,15}[ \t]+(?i:epochs?|steps?|iterations?|updates?|batch(?:es)?)\b"
    rb"|(?<![\w])(?i:after|by|until|till|around|within|for|in)[ \t]+~?\d+(?![\w.]|[ \t]*[-\xe2])"
    # ... and the last of the places a value was printed at: "0.4127 at every epoch up to 300" (not "climbs up to 45")
    rb"|(?<![\w])(?i:epochs?|steps?|iterations?|iters?|batch(?:es)?)[ \t]+(?i:up[ \t]+to)[ \t]+~?\d+(?![\w.])"
    # ... or a change, not a value: "crawling down by ~0.005 per epoch", "drops 0.01 each step"
    rb"|(?<![\w])(?i:by)[ \t]+(?:(?i:about|around|roughly|approximately|only|just)[ \t]+)?(?:~[ \t]*)?" + NUMBER + rb"|~?" + NUMBER + rb"[ \t]+(?i:per|each|every|a)[ \t]+"
    rb"(?i:epoch|step|iteration|iter|batch|update)\b"
    # ... or a range the loss moves in, not two of its values in turn: "wobbles between 1.8 and 3.1", "entre 1,8 y 3,1"
    rb"|(?P<range>(?<![\w])(?i:between|entre|zwischen|tra|fra|\xd0\xbc\xd0\xb5\xd0\xb6\xd0\xb4\xd1\x83)[ \t]+~?" + NUMBER + rb"[ \t]+"
    rb"(?i:and|et|y|e|und|\xd0\xb8|to|-)[ \t]+~?" + NUMBER + rb"(?![\w.])"
    # ... and one given roughly with a dash: "a normal loss around 8-15", "from around 8-15 to nan" (not "from about 2.3
    # to 0.4", a fall)
    rb"|(?<![\w])(?i:around|about|roughly|approximately|approx\.)[ \t]+~?" + NUMBER
    + rb"[ \t]*(?:-|\xe2\x80\x93)[ \t]*~?" + NUMBER + rb"(?![\w.]))"
    # ... or an ordinal, a place: "к 20-й эпохе", "the 20-th epoch"
    rb"|(?<![\w.])\d{1,6}-(?:[A-Za-z]{1,4}|(?:[\xc0-\xff][\x80-\xbf]){1,3})(?![A-Za-z])"
    # ... "1. epoch'un 418. adımında": a number's full stop before the word epoch or step
    rb"|(?<![\w.,])\d{1,6}\.(?=" + _ORDINAL_OF + rb"))"
    # an aside in brackets with no decimal and no nan in it ("(Keras needed 10 for that)", "(accuracy 41%)", a
    # shape's "(5, 6, 7)"): not the run's values, nor their end; one that holds them is read through ("(it was
    # ~4.3, then 5, 7, 12)")
    rb"|(?P<aside>\((?![^()\n]{0,160}?(?:\d\.\d|(?i:nan|inf)))[^()\n]{0,160}\))"
    # ... and what brackets or backticks hold (an index, a shape, a line of code): not the run's values either
    rb"|(?P<code>\[[^\[\]\n]{0,80}\]|`[^`\n]{0,80}`)"
    # a number that is another quantity's, or another loss named: the values end there (a metric's too: "val force RMSE
    # went 61 -> 38" after the loss's own values)
    rb"|(?P<other>(?<![\w])(?i:(?:val(?:idation)?|valid|test|eval)[_ ](?:loss|acc\w*)|"
    # (an averaged score, "micro-F1 reaches 0.87", "macro_f1", "mIoU": not a name whose digits make it a word)
    rb"(?:micro|macro|weighted|samples)[-_ ]?(?:f1|f-?score|precision|recall|auc|acc\w*)|miou|predict\w*|lr|learning[ \t]rate|rate|momentum|batch[ \t_]size|bs|weight[ \t_]decay|wd|dropout|"
    rb"eps(?:ilon)?|acc(?:uracy)?|top-?[15]|f1|iou|dice|auc|rmse|psnr|ssim|fid|[wc]er|map(?:@?\d{2}(?:[-:.]\d{2})?)?|ap\d{2}(?:[-:.]\d{2})?|bleu|ppl|perplexity|grad(?:ient)?s?[ \t_]norms?|"
    rb"norms?|clip\w*|t_max|warmup\w*|temperature|seed|beta\d?|gamma|alpha|score|reward|loss(?:es)?)(?![\w])"
    # (or a bar before a name and its number: a log's next field, `loss 4.871 | nll_loss 3.102 | ctc_loss 41.337 |`,
    # another quantity each -- not a bar between values, "0.93 | 0.71 | 0.52 | nan", nor a table's cells)
    # (a place is no quantity: "| epoch 2 2.29 |")
    rb"|\|(?=[ \t]*(?!(?i:epochs?|ep|e|steps?|iter\w*|it|batch\w*)\d*\b)[A-Za-z_]\w*(?:[ \t]*[:=][ \t]*|[ \t]+)-?\d))"
    # a setting's number, the word right before it: a margin's, a scale's, an image's size, a dimension, an optimizer's
    # rate ("margin 0.2", "resized to 224", "AdamW 3e-4") -- a number of its own, skipped; the word alone is no setting
    rb"|(?P<setting>(?<![\w])(?i:margin|scale|(?:image|input|crop|patch)[ \t_]?size|size|resiz\w*|resolution|"
    rb"dim(?:ension)?s?|adam\w*|sgd|rmsprop|adagrad|lamb|lars|lion)[ \t]*(?:[:=][ \t]*|(?i:to|of|at)[ \t]+)?~?[ \t]*"
    + NUMBER + rb"(?![\w.]))"
    # a name with digits in it (ResNet-50, fp16, ViT-S/16, B0): a word
    rb"|(?P<name>(?<![\w.])[A-Za-z_][\w\-/]*\d[\w\-/]*)"
    # a value: a number, a nan or an inf, maybe "about" (~); not a name's digits (ResNet-50, fp16, 1e-3's parts)
    # (nor the end of a range, "0.6931-0.6929": both ends are values)
    # (nor a group of digits a comma joins to another, "1,481": a thousand and more, or a decimal comma left as it is;
    # nor an ordinal, "к 20-й эпохе", "the 20-th epoch"; nor a factor of a product or a power, "D = 3*32*32", "2^16")
    # (a factor is a number beside a `*` or `^` that has a digit on its other side, or one in an expression of code,
    # numbers.CODE_AFTER: Markdown's `**0.31**` is a value)
    rb"|(?P<value>(?:(?<![\w.\-/+,])|(?<=\d-)|(?<=\d\xe2\x80\x93)|(?<=[^\d],))(?<!\d\*)(?<!\d \*)(?<!\d\^)~?[ \t]*"
    + NUMBER + rb")(?![\w]|\.\d|/\d|,\d|-(?:[A-Za-z]|[\x80-\xff])|[ \t]*[*^][ \t]*\d|" + CODE_AFTER + rb")"
    # a digit of something else (a date, a version, a shape): it breaks the values as another number does
    rb"|(?P<digit>\d)")
# a nan the words deny: "no nan", "not nan", "never inf", "without nan" (and in other languages, thesaurus's
# DENIED_ELSEWHERE: "ni nan", "keine NaN", "没有nan", "NaN нет")
DENIED = re.compile(rb"(?i)\b(?:no|not|never|without|nor|isn't|wasn't|aren't)\b[^.;\n]{0,20}$")
MIN_RUN = 3
# ... but two make a run where the words give them as where it went from and to, with nothing between but a direction
FROM_TO = re.compile(rb"(?i)[^\d.;\n]{0,40}?\bfrom[ \t]+(?:about[ \t]+|around[ \t]+|~[ \t]?)?" + NUMBER +
                     rb"[ \t]+(?:(?:all[ \t]+the[ \t]+way[ \t]+)?(?:down|up)[ \t]+)?to[ \t]+(?:about[ \t]+|around[ \t]+|~[ \t]?)?")
# ... or as its first and its last: "the loss is 1.79 after the first epoch and 1.672 after the last"
# (or each at its own place, the first at the run's start: "Loss is 3.9e10 at epoch 1 and 3.7e10 at epoch 200" -- not
# two places in the middle of a run, "0.31 at epoch 40 and 0.30 at epoch 80")
FIRST_LAST = re.compile(rb"(?i)[^\d.;\n]{0,40}?" + NUMBER + rb"[ \t]+(?:after|at|in)[ \t]+(?:the[ \t]+first[ \t]+(?:epoch|step|"
                        rb"iteration|batch)|(?:epoch|step|iteration)[ \t]+[01])[ \t]+and[ \t]+(?:about[ \t]+|~[ \t]?)?")


def _denied_elsewhere(data: bytes, start: int, at: int, end: int) -> bool:
    """Is the nan at data[at:end] one that another language's words deny, before it or after it?"""
    from ...thesaurus import DENIED_ELSEWHERE     # (the words' module: one list of those negators for both readings)
    lead = max(start, at - 60)
    window = data[lead:end + 40].decode("utf-8", "replace")
    nan_at = len(data[lead:at].decode("utf-8", "replace"))
    return any(d.start() <= nan_at < d.end() for d in DENIED_ELSEWHERE.finditer(window))
# A line that ends in a colon introduces the next one, which goes on its sentence ("the average loss per epoch comes
# out like this:" above "epoch 1: 9.84, epoch 2: 31.27, epoch 3: 18.55")
INTRODUCES = re.compile(rb":[ \t]*\r?$")
# ... and where that line is a list and nothing else, its items are the values ("here are the losses per epoch:" above
# "[2.3026, 2.9112, 7.4521, nan]", or NumPy 2's "[np.float64(2.3026), ...]")
LISTED = re.compile(rb"[ \t]*\[([^\[\]\n]*)\][ \t]*\r?(?:\n|\Z)")


# An epoch printed right beside a value, with nothing but a colon between ("epoch 30 2.3010", "epoch 3: 0.41") or in
# brackets right after it ("0.0214 (epoch 19)"): that value's epoch, as a log would print it. (One a few words away
# is not: "-1843.2 à la fin de l'epoch 1, -15720.6" names the epoch of the value before it.)
EPOCH_PLACE = re.compile(rb"(?i)(?:epoche?|\xc3\xa9poque|\xc3\xa9poca)s?[ \t]*(\d+)(?:[ \t]*/[ \t]*(\d+))?$")
TIGHT_BEFORE = re.compile(rb"[ \t]*(?::[ \t]*|=[ \t]*)?$")
AFTER = re.compile(rb"[ \t]*\([ \t]*(?i:epoche?|\xc3\xa9poque|\xc3\xa9poca)[ \t]*(\d+)(?:[ \t]*/[ \t]*(\d+))?[ \t]*\)")


# A dash and then another subject, "6.18 at iter 2000 -- my cifar runs start around 2.3": the values after it are
# another run's (a dash between the values themselves, "0.69 -- 0.61 -- nan", or before "then", goes on)
OTHER_SUBJECT = re.compile(rb"(?i)[ \t](?:\xe2\x80\x94|\xe2\x80\x93|--?)[ \t]+(?:my|our|their|your|his|her|another|other|"
                           rb"the[ \t]+other|(?:for|in)[ \t]+comparison|compared|whereas|while)\b")
# ... and "0.412 vs 0.437": two runs' values set side by side (two optimizers, two precisions), not one run's in turn --
# except from one epoch's value to another's: "0.69 at epoch 1 vs 0.45 at epoch 5" is one run's curve
VERSUS = re.compile(rb"(?i)\b(?:vs\.?|versus)[ \t]*$")
# (a value's epoch said right after it in words: "0.45 at epoch 5")
EPOCH_AFTER = re.compile(rb"(?i)[ \t]+(?:at|in|after)[ \t]+(?:the[ \t]+)?(?:epoch|step|iteration)[ \t]*\d")


def _epoch_after(data: bytes, end: int, stop: int) -> bool:
    return EPOCH_AFTER.match(data, end, stop) is not None


# Two numbers joined by a dash, rising, and no third after them, where the words say the loss sits there -- in
# brackets, or after "is", "stays", "hovers", "fine", "usually": a range the loss moves in, "the loss is fine
# (0.3-0.7)", not 0.3 and then 0.7 (a range is written low to high; two values in turn joined so fall, "0.6931-0.6929").
# Not where a climb reaches them, "climbs to 6-7", "уже 26–28": the two stay the values it reached.
RISING_PAIR = re.compile(rb"(?<![\w.\-/+,])(\d+(?:\.\d+)?)[ \t]?(?:-|\xe2\x80\x93)[ \t]?(\d+(?:\.\d+)?)"
                         rb"(?![\w.]|[ \t]?(?:-|\xe2\x80\x93)[ \t]?\d)")
SITS_BEFORE = re.compile(rb"(?i)(?:\(|\b(?:is|are|was|were|stays?|stayed|sits?|hovers?|hovered|ranges?|fluctuates?|"
                         rb"oscillates?|normal|fine|usually|typically|mostly)\b)[ \t]*(?:~[ \t]*)?$")



# "Up to" a number below the value before it is no rise of the loss to it, but where something else went: "flat at
# ~3.1 up to about 3e-5" (an LR finder's rate, the plot's other axis)
UP_TO = re.compile(rb"(?i)\bup[ \t]+to[ \t]+(?:about[ \t]+|around[ \t]+|roughly[ \t]+)?~?[ \t]*$")

def _values(data: bytes, start: int) -> tuple[list[tuple[int, bytes, str | None]], str]:
    """The values after a loss word that ends at `start`, with the epoch printed beside each (EPOCH_PLACE), if any:
    the first run of them, kept where it is MIN_RUN long; and what holds them, "sentence" or "list"."""
    end = SENTENCE_END.search(data, start, start + LONGEST)
    if end and end.group(0) == b"\n" and INTRODUCES.search(data, start, end.start()):
        listed = LISTED.match(data, end.end())
        if listed:
            found = list_items(listed.group(1), listed.start(1))[0] or []
            return ([(offset, number, None) for offset, number, _ in found] if len(found) >= MIN_RUN else []), "list"
        end = SENTENCE_END.search(data, end.end(), start + LONGEST)     # the line it introduces is the sentence's
    stop = end.start() if end else min(len(data), start + LONGEST)
    run: list[tuple[int, bytes, str | None]] = []
    gap_from, skipped, place = start, 0, None
    rising = [(r.start(), r.end()) for r in RISING_PAIR.finditer(data, start, stop)
              if float(r.group(1)) < float(r.group(2)) and SITS_BEFORE.search(data, max(0, r.start() - 12), r.start())]
    for m in TOKEN.finditer(data, start, stop):
        kind = m.lastgroup
        if kind == "value" and any(a <= m.start() < b for a, b in rising):
            kind = "range"
        if kind in ("place", "count", "name", "aside", "code", "range", "setting"):
            skipped += _chars(data, m.start(), m.end())       # (words of their own: not counted in the gap)
            place = m if kind == "place" else None
            continue
        if kind != "value" or _chars(data, gap_from, m.start()) - skipped > GAP \
                or OTHER_SUBJECT.search(data, gap_from, m.start()):
            break
        versus = VERSUS.search(data, gap_from, m.start()) is not None
        number = m.group("value").lstrip(b"~ \t")
        if run and UP_TO.search(data, gap_from, m.start()) and _fell(run[-1][1], number):
            skipped += _chars(data, m.start(), m.end())       # (a bound of something else's: read on past it)
            continue
        if not number[-1:].isdigit() and (DENIED.search(data, gap_from, m.start())
                                          or _denied_elsewhere(data, gap_from, m.start(), m.end())):
            break       # "no nan": not a value, and the sentence says no more of them
        offset = m.start() + len(m.group("value")) - len(number)
        before = EPOCH_PLACE.search(place.group(0)) if place is not None and TIGHT_BEFORE.fullmatch(
            data, place.end(), offset) else None
        after = AFTER.match(data, m.end(), stop)
        epoch = epoch_text(before) if before else epoch_text(after) if after else None
        # (past "vs" only from one epoch's value to another's: "0.69 at epoch 1 vs 0.45 at epoch 5" is one run's curve)
        if versus and not (run and (run[-1][2] or _epoch_after(data, run[-1][0] + len(run[-1][1]), stop))
                           and (epoch or _epoch_after(data, m.end(), stop))):
            break
        run.append((offset, number, epoch))
        gap_from, skipped, place = m.end(), 0, None
        if number.lower().startswith(b"nan"):
            break       # (what a sentence says after its nan is not the run's next value: "nan at step ~200")
    # (or two, a start and an end the words pair: "the loss creeps from 1.79 to 1.09", "went from 2.3 down to 0.7" -- a
    # fall: two values that rise are no curve to judge a climb by, "creeps up from 0.002 to 0.02 over 4M steps")
    pair = len(run) == 2 and (FROM_TO.fullmatch(data, start, run[1][0]) is not None
                              or FIRST_LAST.fullmatch(data, start, run[1][0]) is not None) and _fell(run[0][1], run[1][1])
    return (run if len(run) >= MIN_RUN or pair else []), "sentence"


def _fell(first: bytes, second: bytes) -> bool:
    try:
        a, b = float(first), float(second)
    except ValueError:
        return False
    return b < a


def _chars(data: bytes, start: int, end: int) -> int:
    """How many characters the bytes between start and end hold (a Cyrillic or CJK word's letters are two or three
    bytes each: the gap between two values is a number of letters, in any script)."""
    part = data[start:end]
    return len(part) - sum(1 for byte in part if 0x80 <= byte < 0xC0)


def items(data: bytes) -> list[Item]:
    """The values of each sentence in data that gives them, in order (a sentence's full stop is no decimal: `15.`
    is 15; a decimal comma is a decimal mark where the text writes its decimals so)."""
    data = decimal_points(data)
    out: list[Item] = []
    pos, broken = 0, 0          # (how many values the sentence whose values end at a nan gave, once one has)
    for m in LOSS_WORD.finditer(data):
        if m.start() < pos or m.group("val"):     # (a validation loss's sentence gives none)
            continue
        run, holder = _values(data, m.end())
        if run and broken:
            # After a nan the run did not go on: a later sentence's values retell it ("the last losses are 0.412,
            # 0.409, 0.415, nan"), in more detail where it gives more, or are not the run's at all
            if not _is_nan(run[-1][1]) or len(run) <= broken:
                pos = run[-1][0] + len(run[-1][1])
                continue
            del out[len(out) - broken:]
        for k, (offset, number, epoch) in enumerate(run, start=1):
            out.append(Item(offset, number.rstrip(b"."), f"value {k} of the {holder}", epoch))
        if run:
            pos = run[-1][0] + len(run[-1][1])
            broken = len(run) if _is_nan(run[-1][1]) else 0
    return out


def _is_nan(number: bytes) -> bool:
    return number.lower().startswith(b"nan")


# (no look of its own to detect it by: a sentence with the word loss is no sign of one; its values are)
DIALECT = Dialect("loss values given in a sentence", None, mode="list", items=items, whole_text=True, chosen=True,
                  fewest=2)
