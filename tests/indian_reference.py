"""A plain, slow reading of RULES.md §7 (banknote Indian poker) used by the tests as an oracle.

Written straight from the rule text, without the engine's rank options, tables,
settlement or odds code, so the two can be compared on random hands.
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache

import numpy as np

SERIALS = 10**7


@lru_cache(maxsize=None)
def note_value(serial: str, position: int) -> tuple[int, int] | None:
    """(rank, natural 1/0) of a note held in Indian poker (§7.2, §2 rules 1, 2, 4); None when dead.

    A zero at P: walk left and right on the ring to the first non-zero digit, keep the higher.
    """
    d = [int(c) for c in serial]
    if not any(d):
        return None
    p = position - 1
    if d[p]:
        return d[p], 1
    found = []
    for step in (+1, -1):
        i = p
        while True:
            i = (i + step) % 7
            if d[i]:
                found.append(d[i])
                break
    return max(found), 0


def beats(a: tuple[int, int] | None, b: tuple[int, int] | None) -> int:
    """1 when a beats b, 0 when equal, -1 when it loses (a dead note loses to every note; two tie)."""
    if a == b:
        return 0
    if a is None:
        return -1
    if b is None:
        return 1
    return 1 if a > b else -1  # rank first, then natural (1) beats modified (0)


def winners(seats: list[dict], position: int) -> list[str]:
    """Seat order; a seat is ``{"name", "note" (or None), "folded", "revealed"}``."""
    still_in = [s for s in seats if not s["folded"]]
    if len(still_in) == 1:
        return [still_in[0]["name"]]
    best: list[str] = []
    top = None
    for s in still_in:
        if not s["revealed"]:
            continue
        value = note_value(s["note"], position)
        if not best or beats(value, top) > 0:
            best, top = [s["name"]], value
        elif beats(value, top) == 0:
            best.append(s["name"])
    return best


def payouts(seats: list[dict], chips: dict[str, int], dealer: str, position: int) -> dict[str, int]:
    """One pot (§7.4: no side pots), shared by the winners, odd chips one at a time from the dealer's left."""
    names = [s["name"] for s in seats]
    won = winners(seats, position)
    pot = sum(chips.values())
    out = {n: 0 for n in names}
    if not won:
        return out
    start = (names.index(dealer) + 1) % len(names)
    order = [n for n in names[start:] + names[:start] if n in won]
    for n in order:
        out[n] += pot // len(won)
    for k in range(pot % len(won)):
        out[order[k]] += 1
    return out


def class_sizes_by_enumeration(position: int) -> dict[tuple[int, int] | None, int]:
    """How many of the 10**7 serials take each (rank, natural) in Indian poker, by looking at every
    serial with a 0 at P (10**6 of them, digit by digit, with numpy); each digit 1..9 at P is 10**6 naturals."""
    n = np.arange(10**6)
    others = np.stack([(n // 10**k) % 10 for k in range(5, -1, -1)], axis=1)  # 6 digits besides P
    digits = np.insert(others, position - 1, 0, axis=1)  # the serials d1..d7 with d_P = 0
    ring = np.concatenate([digits[:, position:], digits[:, :position - 1]], axis=1)  # P+1..7, 1..P-1
    nonzero = ring != 0
    alive = nonzero.any(axis=1)
    right = ring[np.arange(len(ring)), np.argmax(nonzero, axis=1)]
    left = ring[np.arange(len(ring)), 5 - np.argmax(nonzero[:, ::-1], axis=1)]
    rank = np.maximum(left, right)
    sizes: dict[tuple[int, int] | None, int] = {(r, 1): 10**6 for r in range(1, 10)}
    for r in range(1, 10):
        sizes[(r, 0)] = int(np.count_nonzero(alive & (rank == r)))
    sizes[None] = int(np.count_nonzero(~alive))
    return sizes


def own_view(seats: list[dict], position: int, me: str, sizes: dict) -> tuple[Fraction, Fraction]:
    """My chance to win alone / to share, over every serial my note can be (those I do not see), by
    going through every value my note can take and counting the serials that give it."""
    mine = next(s for s in seats if s["name"] == me)
    if mine["folded"] or not mine["revealed"]:
        return Fraction(0), Fraction(0)
    seen = {s["note"] for s in seats if s["name"] != me and s["note"] is not None}
    total = SERIALS - len(seen)
    win = tie = 0
    seen_values = [note_value(serial, position) for serial in seen]
    for value, count in sizes.items():
        left = count - seen_values.count(value)
        if not left:
            continue
        trial = [dict(s, note=_example(value, position)) if s["name"] == me else s for s in seats]
        won = winners(trial, position)
        if won == [me]:
            win += left
        elif me in won:
            tie += left
    return Fraction(win, total), Fraction(tie, total)


def _example(value: tuple[int, int] | None, position: int) -> str:
    """A serial that takes ``value`` (rank, natural) at ``position``: the rank at P (natural), or a 0 at P
    and the rank as the only other non-zero digit (modified)."""
    if value is None:
        return "0000000"
    rank, natural = value
    digits = ["1"] * 7 if natural else ["0"] * 7
    digits[position - 1] = str(rank) if natural else "0"
    if not natural:
        digits[position % 7] = str(rank)
    return "".join(digits)
