"""How a text writes its decimals: with a point, or with a comma (German, French, Spanish, Portuguese, Italian,
Dutch, Polish, Russian...: "1,4725", "loss 0,1288", "99,3 %").

A text writes them with a comma when a comma sits between digits with one, two, or four or more after it (three may
be a thousands' separator: "1,481"), or after a whole part of 0 ("0,693": no thousands' group starts with 0), at
least twice, and at least three times as often as a point does (a value copied from a program's output, "exactly
0.0", among a report's own). A point counts only where it cannot be a thousands' separator, which German,
Italian, Spanish, Portuguese and Dutch write with a point ("32.000 token", "5.000 features"; French, Polish and
Russian group with a space): one before a fraction of other than three digits, after a whole part of 0 or of four
digits or more, or after a comma as a CSV line's float ("1,2.345") -- and not in a version number ("2.13.0"). A
pair of numbers in brackets, "(28,28)", is a shape, not a decimal. In such a text every comma between digits is a
decimal mark, and is read as a point, except between a call's or an index's numbers (`Linear(784,128)`).
"""
from __future__ import annotations

import re

COMMA_DECIMAL = re.compile(rb"(?<![\d,.(])(?:\d{1,6},(?:\d{1,2}|\d{4,12})|0,\d{3})(?!\d|,\d)")
POINT_DECIMAL = re.compile(rb"(?<![\d.])(?:(?:0|\d{4,})\.\d|\d{1,3}\.(?:\d{1,2}|\d{4,})(?!\d))(?!\d*\.\d)|"
                           rb"(?<=\d,)\d+\.\d")
COMMAS_COUNTED, COMMA_SHARE = 1000, 3
# (not the commas of a call's or an index's numbers, which are code: `Linear(784,128)`, `x[0,1]`)
BETWEEN_DIGITS = re.compile(rb"(?P<code>\w[(\[][\d, \t]{0,80}[)\]])|(?<=\d),(?=\d)")


def writes_decimal_commas(data: bytes) -> bool:
    """Does the text write its decimals with a comma: twice at least, and three times as often as with a point (a
    value copied from a program's output, "the gradients are exactly 0.0", among a report's own decimal commas)?"""
    commas = sum(1 for _ in zip(range(COMMAS_COUNTED), COMMA_DECIMAL.finditer(data)))
    return commas >= 2 and commas >= COMMA_SHARE * sum(1 for _ in zip(range(commas // COMMA_SHARE + 1),
                                                                      POINT_DECIMAL.finditer(data)))


def with_decimal_points(data: bytes) -> bytes:
    """The text with every comma between digits written as a point (one byte for one: every offset stays)."""
    return BETWEEN_DIGITS.sub(_point, data)


def _point(m: re.Match) -> bytes:
    return m.group("code") or b"."


def decimal_points(data: bytes) -> bytes:
    """The text with its decimal commas written as points, where it writes them so; else as it is."""
    return with_decimal_points(data) if writes_decimal_commas(data) else data
