"""The rank of one banknote at the playing position (RULES.md §2).

A note plays by the digit at the playing position P (1..7, counted from the
left).  Zeros there are resolved by the shift rules, zeros elsewhere on pocket
notes may be jokers.  :func:`rank_options` lists every rank a note may take,
each with the reason, so the showdown can pick the best and the croupier can
see why.

>>> [o.reason for o in rank_options("1234567", 4)]
['d4=4, natural']
>>> [o.reason for o in rank_options("1230567", 4)]
['d4=0 → right to d5=5, modified']
>>> [(o.rank, o.shift.value) for o in rank_options("1290611", 4, pocket=True)]
[(9, 'left'), (6, 'right')]
>>> rank_options("0000000", 4)
()
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from enum import StrEnum, unique
from functools import lru_cache
from typing import Iterable

from dealer_assist.rules.errors import HandError
from dealer_assist.rules.options import ZeroJoker

__all__ = ["Shift", "RankOption", "rank_options", "check_serial", "is_serial", "check_position", "position_announced",
           "repeated_serials"]

SERIAL_DIGITS = 7


@unique
class Shift(StrEnum):
    """How the base rank was found (RULES.md §2 rules 1, 3, 4)."""

    NONE = "none"  # d_P != 0: the digit at P itself (rule 1)
    LEFT = "left"  # d_P == 0 on a pocket note, first non-zero digit to the left (rule 4)
    RIGHT = "right"  # d_P == 0, first non-zero digit to the right (rules 3, 4)
    EITHER = "either"  # rule 4 with one non-zero digit: both directions reach it


@dataclass(frozen=True, slots=True)
class RankOption:
    """One rank a note may take and why (RULES.md §2).

    ``rank`` is 1..9.  ``source`` is the 1-based position of the digit that gave
    the base rank ``base``; ``wrapped`` tells that the shift crossed the ring
    seam (7 → 1 or 1 → 7).  ``joker`` is the signed number of ±1 joker steps on
    the ring 1..9 applied to the base (0 when none).  ``code`` is
    ``2 * (rank - 1) + natural`` (0..17), the index used by the hand tables.
    """

    rank: int
    position: int
    source: int
    base: int
    shift: Shift = Shift.NONE
    wrapped: bool = False
    joker: int = 0
    #: True when neither a zero shift nor a joker changed the rank (§2 rule 1).
    natural: bool = field(init=False)
    #: ``2 * (rank - 1) + natural``, 0..17: the index used by the hand tables.
    code: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        natural = self.shift is Shift.NONE and self.joker == 0
        object.__setattr__(self, "natural", natural)
        object.__setattr__(self, "code", 2 * (self.rank - 1) + natural)

    @property
    def reason(self) -> str:
        """English explanation, e.g. ``"d4=0 → right to d5=7, modified"``.

        >>> RankOption(rank=1, position=1, source=1, base=9, joker=1).reason
        'd1=9, joker +1 → 1, modified'
        >>> RankOption(rank=9, position=7, source=1, base=9, shift=Shift.RIGHT,
        ...            wrapped=True).reason
        'd7=0 → right (wrap) to d1=9, modified'
        """
        p = self.position
        if self.shift is Shift.NONE:
            text = f"d{p}={self.base}"
        else:
            way = "left or right" if self.shift is Shift.EITHER else self.shift.value
            wrap = " (wrap)" if self.wrapped and self.shift is not Shift.EITHER else ""
            text = f"d{p}=0 → {way}{wrap} to d{self.source}={self.base}"
        if self.joker:
            text += f", joker {self.joker:+d} → {self.rank}"
        return text + (", natural" if self.natural else ", modified")


def check_serial(serial: object, where: str = "serial") -> str:
    """Return ``serial`` if it is a string of exactly 7 digits, else raise.

    Raises :class:`HandError` naming the field ``where``.

    >>> check_serial("0102030")
    '0102030'
    >>> check_serial("12345", "board[0]")
    Traceback (most recent call last):
    ...
    dealer_assist.rules.errors.HandError: board[0] must be exactly 7 digits, got '12345'.
    """
    if not isinstance(serial, str):
        raise HandError(f"{where} must be a string of 7 digits, got {_show(serial)}.")
    if not is_serial(serial):
        shown = serial if len(serial) <= 40 else serial[:20] + "…"
        raise HandError(f"{where} must be exactly 7 digits, got {shown!r}.")
    return serial


def is_serial(text: object) -> bool:
    """Whether ``text`` is a serial that plays: a string of exactly 7 ASCII digits (RULES.md §1, §6.6).

    >>> is_serial("0102030"), is_serial("０１０２０３０"), is_serial("12345678")
    (True, False, False)
    """
    return isinstance(text, str) and len(text) == SERIAL_DIGITS and text.isascii() and text.isdigit()


def repeated_serials(placed: Iterable[tuple[str, str]]) -> list[tuple[str, list[str]]]:
    """Serials that lie in more than one place: ``[(serial, [place, ...])]`` in first-seen order.

    One physical note cannot lie in two places, so a repeat is a reading or
    typing mistake (the digits alone do not identify a note -- the letters do,
    RULES.md §1 -- but two notes of one deck sharing 7 digits do not occur in
    practice). ``placed`` gives ``(place, serial)`` pairs; the place is any
    label the caller shows (a field, a photo, a seat's note).

    >>> repeated_serials([("board 1", "1111111"), ("P1 1", "2222222"), ("P2 2", "1111111")])
    [('1111111', ['board 1', 'P2 2'])]
    """
    where: dict[str, list[str]] = {}
    for place, serial in placed:
        where.setdefault(serial, []).append(place)
    return [(s, places) for s, places in where.items() if len(places) > 1]


def check_position(position: object, where: str = "position") -> int:
    """Return the playing position if it is an integer 1..7, else raise HandError."""
    if isinstance(position, bool) or not isinstance(position, int):
        raise HandError(f"{where} must be an integer from 1 to 7, got {_show(position)}.")
    if not 1 <= position <= SERIAL_DIGITS:
        raise HandError(f"{where} must be from 1 to 7, got {position}.")
    return position


def position_announced(notes_dealt: int) -> bool:
    """Whether the hand's playing position is already announced and played on (RULES.md §2).

    P is announced *before* the hand: once ``notes_dealt`` (notes of the hand seen by the camera or typed
    by the croupier, a count >= 0) is not 0, players have looked at and bet on ranks read at this P, so a new
    P is no routine choice any more: it re-ranks every note already played. Live asks before it changes P
    then, says the change loudly and logs it with the hand (seventh new-user trial H: one stray ``r``
    re-drew P silently after the deal).

    >>> position_announced(0), position_announced(3)
    (False, True)
    """
    return notes_dealt > 0


def _show(value: object) -> str:
    """A value as JSON would spell it, for error sentences (cut after 60 characters)."""
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= 60 else text[:60] + "…"


def rank_options(
    serial: str,
    position: int,
    *,
    pocket: bool = False,
    zero_joker: ZeroJoker | str = ZeroJoker.OFF,
) -> tuple[RankOption, ...]:
    """Every rank the note ``serial`` may take at playing position ``position``.

    Implements RULES.md §2: rule 1 (natural), 2 (all zeros: dead, returns
    ``()``), 3 (board note, zero at P: right with wrap), 4 (pocket note, zero at
    P: left or right with wrap), 5-6 (zero-joker on pocket notes only, with
    ``zero_joker`` ``per-zero`` or ``once``).

    Returns one option per reachable rank, highest rank first; where a rank is
    reachable several ways the natural way, then the fewest joker steps, then
    the right shift is kept.  Raises :class:`HandError` for a serial that is
    not exactly 7 digits or a position outside 1..7.

    >>> [o.rank for o in rank_options("9111110", 1, pocket=True, zero_joker="per-zero")]
    [9, 8, 1]
    >>> [o.rank for o in rank_options("9111110", 1, pocket=False, zero_joker="per-zero")]
    [9]
    """
    if not (type(serial) is str and len(serial) == SERIAL_DIGITS and serial.isdigit() and serial.isascii()):
        check_serial(serial)  # raises HandError
    if type(position) is not int or not 1 <= position <= SERIAL_DIGITS:
        check_position(position)  # raises HandError
    if type(zero_joker) is not ZeroJoker:
        zero_joker = _zero_joker(zero_joker)
    here = serial[position - 1]
    if here != "0" and (not pocket or zero_joker is ZeroJoker.OFF or "0" not in serial):
        # Most notes: one natural option, shared by every note with this digit at P.
        return _NATURAL[position, here]
    if serial == "0000000":
        return ()  # rule 2: dead note
    p = position - 1
    if here != "0":
        bases: tuple[tuple[int, int, Shift, bool], ...] = ((position, int(here), Shift.NONE, False),)
    else:
        # rule 3 (board) and 4 (pocket): first non-zero digit, wrapping on the ring
        ahead = serial[p + 1 :] + serial[:p]  # positions P+1 .. 7, 1 .. P-1
        skip = len(ahead) - len(ahead.lstrip("0"))
        right = ((p + 1 + skip) % SERIAL_DIGITS + 1, int(ahead[skip]), p + 1 + skip >= SERIAL_DIGITS)
        if not pocket:
            bases = ((right[0], right[1], Shift.RIGHT, right[2]),)
        else:
            behind = serial[:p][::-1] + serial[p + 1 :][::-1]  # positions P-1 .. 1, 7 .. P+1
            skip = len(behind) - len(behind.lstrip("0"))
            left = ((p - 1 - skip) % SERIAL_DIGITS + 1, int(behind[skip]), p - 1 - skip < 0)
            if left[0] == right[0]:
                bases = ((right[0], right[1], Shift.EITHER, False),)
            else:
                bases = ((right[0], right[1], Shift.RIGHT, right[2]), (left[0], left[1], Shift.LEFT, left[2]))
    jokers = 0
    if pocket and zero_joker is not ZeroJoker.OFF:
        jokers = serial.count("0") - (here == "0")  # rule 6: the zero at P is no joker
        if zero_joker is ZeroJoker.ONCE:
            jokers = min(jokers, 1)
    return _options(position, bases, min(jokers, 4))  # 4 steps each way reach all 9 ranks


def _zero_joker(value: object) -> ZeroJoker:
    try:
        return ZeroJoker(value)
    except ValueError:
        allowed = ", ".join(repr(m.value) for m in ZeroJoker)
        raise HandError(f"zero_joker must be one of {allowed}, got {_show(value)}.") from None


@lru_cache(maxsize=4096)
def _options(
    position: int, bases: tuple[tuple[int, int, Shift, bool], ...], steps: int
) -> tuple[RankOption, ...]:
    """Options from base ranks ``(source, digit, shift, wrapped)`` and joker steps."""
    best: dict[int, tuple[tuple[bool, int, bool, bool], RankOption]] = {}
    for source, digit, shift, wrapped in bases:
        for step in range(-steps, steps + 1):
            rank = (digit - 1 + step) % 9 + 1
            option = RankOption(
                rank=rank, position=position, source=source, base=digit, shift=shift, wrapped=wrapped, joker=step
            )
            # prefer natural, then fewer joker steps, then the right shift, then +steps
            pref = (not option.natural, abs(step), shift is Shift.LEFT, step < 0)
            if rank not in best or pref < best[rank][0]:
                best[rank] = (pref, option)
    return tuple(best[r][1] for r in sorted(best, reverse=True))


#: The single natural option of a note whose digit at P is ``d`` != 0, by (P, "d").
_NATURAL: dict[tuple[int, str], tuple[RankOption]] = {
    (p, str(d)): (RankOption(rank=d, position=p, source=p, base=d),)
    for p in range(1, SERIAL_DIGITS + 1)
    for d in range(1, 10)
}
