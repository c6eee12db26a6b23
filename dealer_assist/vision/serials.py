"""Parse OCR text into the letters and digits of a banknote serial.

Pure string functions. A 1997-series ruble serial is two Cyrillic letters and
7 digits (``ЧЛ 1234567``); the 2017 series (200 and 2000 rubles) has 9 digits
and is out of format for the game (RULES.md §6.6: a read that is not exactly
7 digits is never evaluated).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import Enum

#: Latin (and a few other) look-alikes that OCR engines trained on Latin or
#: Chinese text return for the Cyrillic serial letters.
_LOOKALIKE = str.maketrans({
    "A": "А", "B": "В", "C": "С", "E": "Е", "H": "Н", "K": "К", "M": "М",
    "O": "О", "P": "Р", "T": "Т", "X": "Х", "Y": "У",
})
_CYRILLIC = re.compile(r"^[А-ЯЁ]$")
# A run of digits not glued to a decimal point or comma (that would be an amount).
_DIGIT_RUN = re.compile(r"(?<![\d.,])\d+(?![\d.,]\d)")


class SerialKind(str, Enum):
    """What a digit run looks like."""

    SERIAL7 = "serial7"  #: 7 digits: a 1997-series serial, in format
    SERIAL9 = "serial9"  #: 9 digits: a 2017-series serial, out of format
    PARTIAL = "partial"  #: 5 or 6 digits: part of a serial (cut, occluded), or a short one
    LONG = "long"  #: 8, 10 or more digits: not a ruble serial (other currencies, a misprint)


@dataclass(frozen=True)
class SerialText:
    """A serial-like digit run found in one OCR line.

    Attributes:
        digits: the digit run exactly as read (never padded or cut).
        letters: two upper-case Cyrillic letters read just before the digits,
            or ``None`` when they are not legible as such.
        kind: 7 digits, 9 digits, or a partial run.
        derived: the 7 digits were taken from a longer run whose first
            digit(s) are taken for misread letters; such a read alone never
            makes a serial trusted (see :func:`dealer_assist.vision.trust.decide`).
        start: index of :attr:`digits` in the line's text (for per-character
            confidences, :meth:`~.ocr.LineRead.probs_of`).
        letter_block: a serial's letter block stands right before the digits
            (a word of one or two characters with a letter of any script, as
            engines trained on Latin or Chinese read the Cyrillic letters), or
            was read as digits (``derived``): the run is laid out as a serial
            print is, letters then digits. A run without it may be any other
            number on a note ("1000", a year, a code).
        spaced: the letter block stands apart from the digits (whitespace between):
            a 1997-series ruble's serial is printed so, letters, a gap, digits;
            a Polish note's letters touch its digits ("BK4679923").
    """

    digits: str
    letters: str | None
    kind: SerialKind
    derived: bool = False
    start: int = 0
    letter_block: bool = False
    spaced: bool = False


def normalise_letters(raw: str) -> str | None:
    """Map a raw two-character OCR prefix to Cyrillic capitals.

    >>> normalise_letters("aK")
    'АК'
    >>> normalise_letters("Ⅱ7") is None
    True
    """
    raw = raw.strip().upper().translate(_LOOKALIKE)
    if len(raw) != 2 or not all(_CYRILLIC.match(ch) for ch in raw):
        return None
    return raw


def _letter_then_eight(text: str, m: re.Match) -> bool:
    """An 8-digit run right after one lone letter and ending the word.

    That is a 2-letter serial whose second letter was read as a digit
    (Л→4, З→3, б→6, О→0). A US serial (``A49958052C``) ends in a letter and
    ``MH77392927A`` has two letters before: neither matches.
    """
    start, end = m.span()
    if start < 1 or not text[start - 1].isalpha():
        return False
    if start >= 2 and not text[start - 2].isspace():
        return False
    return end == len(text) or text[end].isspace()


#: Digits that the serial letters З, Э, Ч, О, б and В are misread as.
_LETTER_LIKE_DIGITS = set("034689")


def _letters_read_as_digits(text: str, m: re.Match) -> bool:
    """A 9-digit run standing alone whose first two digits look like letters.

    A 2017-series serial is read with its letters in front (``AA394009037``);
    a run with no letter before it that starts with two letter-like digits is
    taken as a 1997-series serial whose letters were misread.
    """
    start, end = m.span()
    if start > 0 and not text[start - 1].isspace():
        return False
    if text[:start].strip():
        return False
    return set(m.group(0)[:2]) <= _LETTER_LIKE_DIGITS and (end == len(text) or text[end].isspace())


def parse_serial_text(text: str) -> list[SerialText]:
    """Find the serial-like digit runs in one line of OCR output.

    Runs of 5 or more digits are kept, each with its :class:`SerialKind`;
    runs touching a decimal point (amounts) are dropped.

    >>> [(s.digits, s.letters, s.kind.value) for s in parse_serial_text("aK 4270166")]
    [('4270166', 'АК', 'serial7')]
    >>> [(s.digits, s.derived) for s in parse_serial_text("331196375")]
    [('1196375', True)]
    >>> [s.kind.value for s in parse_serial_text("AA394009037")]
    ['serial9']
    >>> [s.kind.value for s in parse_serial_text("A49958052C")]
    ['long']
    >>> parse_serial_text("B49617584")[0].digits
    '9617584'

    """
    found: list[SerialText] = []
    for m in _DIGIT_RUN.finditer(text):
        digits = m.group(0)
        n = len(digits)
        if n == 8 and _letter_then_eight(text, m):
            # "ВЛ 9617584" read as "B49617584": the second letter became a
            # digit. Keep the last 7 digits, with the letters unknown.
            found.append(SerialText(digits[1:], None, SerialKind.SERIAL7, True, m.start() + 1, True))
            continue
        if n == 9 and _letters_read_as_digits(text, m):
            # "ЭЗ 1196375" read as "331196375": both letters became digits.
            found.append(SerialText(digits[2:], None, SerialKind.SERIAL7, True, m.start() + 2, True))
            continue
        if n == 7:
            kind = SerialKind.SERIAL7
        elif n == 9:
            kind = SerialKind.SERIAL9
        elif n in (5, 6):
            kind = SerialKind.PARTIAL
        elif n >= 8:
            kind = SerialKind.LONG
        else:
            continue
        prefix = text[: m.start()].rstrip()
        letters = normalise_letters(prefix[-2:]) if len(prefix) >= 2 else None
        block = _letter_block(prefix)
        found.append(SerialText(digits, letters, kind, False, m.start(), block,
                                block and text[: m.start()] != text[: m.start()].rstrip()))
    return found


def _letter_block(prefix: str) -> bool:
    """The text before a digit run ends in a serial's letter block: a word of one or two characters,
    at least one a letter of any script (engines trained on Latin read Cyrillic letters as look-alike
    letters or digits: "0K", "6K", "0J" for ОК, БК, ОЛ; one letter may be lost or glued to the digits).

    Marks an engine puts round the letters (quotes, a colon, #) are not counted.

    >>> [_letter_block(p) for p in ("aK", "x ЧЛ", "0K ", "J", "л6", '"чЭ', "':ДЭ", "1000 ◇", "16", "0]", "", "БИЛЕТ")]
    [True, True, True, True, True, True, True, False, False, False, False, False]
    """
    words = prefix.rstrip().split()
    if not words:
        return False
    last = "".join(ch for ch in words[-1] if ch.isalnum())
    return 1 <= len(last) <= 2 and any(ch.isalpha() for ch in last)
