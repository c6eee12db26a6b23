"""The best 3-note hand and how hands compare (RULES.md §3).

Classes, low to high: high (Мусор), pair (Пара), straight (Стрит), set (Сет).
Hands compare by class, then ranks by significance, then natural beats
modified.  The whole comparison is folded into one integer, the *strength*:
``2 * (1000 * class + 100 * r1 + 10 * r2 + r3) + natural``.  A player without
a hand (fewer than 3 live notes) has strength :data:`NO_HAND` = -1.

>>> classify(7, 9, 8)
(<HandClass.STRAIGHT: 'straight'>, (9, 8, 7))
>>> classify(5, 7, 7)
(<HandClass.PAIR: 'pair'>, (7, 7, 5))
>>> classify(9, 1, 2)
(<HandClass.HIGH: 'high'>, (9, 2, 1))
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum, unique
from itertools import combinations
from typing import Sequence

from dealer_assist.rules.notes import RankOption
from dealer_assist.rules.options import Game

__all__ = ["HandClass", "BestHand", "NO_HAND", "classify", "hand_strength", "best_hand", "best_note", "best_of"]

#: Strength of "no hand" (fewer than 3 live notes): loses to every hand (§3).
NO_HAND = -1


@unique
class HandClass(StrEnum):
    """Class of a 3-note hand (RULES.md §3); ``order`` is 0 (high) .. 3 (set)."""

    HIGH = "high"
    PAIR = "pair"
    STRAIGHT = "straight"
    SET = "set"

    @property
    def order(self) -> int:
        return _CLASS_ORDER[self]


_CLASS_ORDER = {HandClass.HIGH: 0, HandClass.PAIR: 1, HandClass.STRAIGHT: 2, HandClass.SET: 3}


def classify(r1: int, r2: int, r3: int) -> tuple[HandClass, tuple[int, int, int]]:
    """Class and ranks by significance of three ranks 1..9 (RULES.md §3).

    Ranks come back as FORMATS.md §2 orders them: set ``r,r,r``; straight top
    down; pair ``p,p,kicker``; high ``r1>r2>r3``.  Straights do not wrap.

    >>> classify(1, 9, 8)
    (<HandClass.HIGH: 'high'>, (9, 8, 1))
    >>> classify(4, 4, 4)
    (<HandClass.SET: 'set'>, (4, 4, 4))
    """
    a, b, c = sorted((r1, r2, r3), reverse=True)
    if a == c:
        return HandClass.SET, (a, b, c)
    if a == b:
        return HandClass.PAIR, (a, b, c)
    if b == c:
        return HandClass.PAIR, (b, c, a)
    if a - 1 == b and b - 1 == c:
        return HandClass.STRAIGHT, (a, b, c)
    return HandClass.HIGH, (a, b, c)


def hand_strength(hand_class: HandClass, ranks: Sequence[int], natural: bool) -> int:
    """The comparable integer of a hand: class, then ranks, then natural (§3).

    >>> hand_strength(HandClass.PAIR, (7, 7, 5), False) > hand_strength(HandClass.PAIR, (7, 7, 2), True)
    True
    >>> hand_strength(HandClass.SET, (4, 4, 4), True) - hand_strength(HandClass.SET, (4, 4, 4), False)
    1
    """
    r1, r2, r3 = ranks
    return 2 * (1000 * hand_class.order + 100 * r1 + 10 * r2 + r3) + bool(natural)


def _layout(r1: int, r2: int, r3: int) -> tuple[HandClass, tuple[int, int, int], tuple[int, int, int]]:
    """Class, ranks by significance, and which of the 3 inputs gives each rank."""
    hand_class, ranks = classify(r1, r2, r3)
    given = [r1, r2, r3]
    order = []
    for rank in ranks:
        i = given.index(rank)
        order.append(i)
        given[i] = 0
    return hand_class, ranks, (order[0], order[1], order[2])


def _build_tables() -> tuple[list[int], list[tuple]]:
    """Strength and layout of every ordered triple of option codes (18**3 each)."""
    strengths = [0] * (18 * 18 * 18)
    layouts: list[tuple] = [()] * (18 * 18 * 18)
    for c1 in range(18):
        for c2 in range(18):
            for c3 in range(18):
                hand_class, ranks, order = _layout(c1 // 2 + 1, c2 // 2 + 1, c3 // 2 + 1)
                natural = bool(c1 & c2 & c3 & 1)
                index = c1 * 324 + c2 * 18 + c3
                strengths[index] = hand_strength(hand_class, ranks, natural)
                layouts[index] = (hand_class, ranks, order)
    return strengths, layouts


#: Strength by option codes: ``_STRENGTH[324 * c1 + 18 * c2 + c3]`` where a code is
#: ``2 * (rank - 1) + natural`` (see :attr:`RankOption.code`).  It is the 9x9x9
#: rank table with the natural bit folded in.  ``_LAYOUT`` holds, at the same
#: index, the class, the ranks by significance and the order of the 3 notes.
_STRENGTH, _LAYOUT = _build_tables()

#: Index triples of 3 notes out of n, for n up to 5 (RULES.md §3: 3 to 5 notes).
_TRIPLES = {n: tuple(combinations(range(n), 3)) for n in range(3, 6)}


@dataclass(frozen=True, slots=True)
class BestHand:
    """A player's best 3-note hand (RULES.md §3), or in Indian poker the one note (§7.2, :func:`best_note`).

    ``notes`` are indices into the sequence given to :func:`best_hand` and
    ``options`` the rank option each of those notes takes, both in the order of
    ``ranks`` (by significance): three of each in Hold'em, one in Indian poker
    (class ``high``, the card game's "highest rank").  ``strength`` orders hands
    of one game: larger is better, equal means a tie.
    """

    hand_class: HandClass
    ranks: tuple[int, ...]
    natural: bool
    notes: tuple[int, ...]
    options: tuple[RankOption, ...]
    strength: int


def best_hand(notes: Sequence[Sequence[RankOption]]) -> BestHand | None:
    """The best hand of exactly 3 notes from ``notes`` (RULES.md §3).

    ``notes`` holds, per note, its rank options from
    :func:`~dealer_assist.rules.notes.rank_options` (3 to 5 notes; a dead note
    has no options).  Every choice of 3 notes and of each note's options is
    tried; at equal class and ranks a natural version wins.  Returns ``None``
    (no hand) when fewer than 3 notes are live.

    >>> from dealer_assist.rules.notes import rank_options
    >>> serials = ["1115111", "1117111", "1118111", "1290611", "4444444"]
    >>> hand = best_hand([rank_options(s, 4, pocket=i >= 3) for i, s in enumerate(serials)])
    >>> hand.hand_class.value, hand.ranks, hand.natural, hand.notes
    ('straight', (9, 8, 7), False, (3, 2, 1))
    >>> best_hand([rank_options("0000000", 4), rank_options("1111111", 4), ()]) is None
    True
    """
    table = _STRENGTH
    best = -1
    index, where = 0, (0, 1, 2)
    if all(len(options) == 1 for options in notes):
        # Fast path, most hands: one option per note, no dead note.
        if len(notes) < 3:
            return None
        codes = [options[0].code for options in notes]
        triples = _TRIPLES.get(len(notes)) or tuple(combinations(range(len(notes)), 3))
        for i, j, k in triples:
            code = codes[i] * 324 + codes[j] * 18 + codes[k]
            if table[code] > best:
                best = table[code]
                index, where = code, (i, j, k)
        i, j, k = where
        return _finish(notes, (index, i, 0, j, 0, k, 0))
    live = [i for i, options in enumerate(notes) if options]
    if len(live) < 3:
        return None
    codes = [[o.code for o in options] for options in notes]
    for i, j, k in combinations(live, 3):
        codes_j, codes_k = codes[j], codes[k]
        for ca in codes[i]:
            ca *= 324
            for cb in codes_j:
                cab = ca + cb * 18
                for cc in codes_k:
                    if table[cab + cc] > best:
                        best = table[cab + cc]
                        index = cab + cc
                        where = (i, j, k)
    i, j, k = where
    # codes are unique within a note (one option per rank): find the options back
    x, y, z = codes[i].index(index // 324), codes[j].index(index // 18 % 18), codes[k].index(index % 18)
    return _finish(notes, (index, i, x, j, y, k, z))


def _finish(notes: Sequence[Sequence[RankOption]], choice: tuple[int, ...]) -> BestHand:
    """Build the BestHand of ``choice``: code-triple index, then (note, option) x 3."""
    index, i, x, j, y, k, z = choice
    hand_class, ranks, (p, q, r) = _LAYOUT[index]
    picked = ((i, notes[i][x]), (j, notes[j][y]), (k, notes[k][z]))
    return BestHand(
        hand_class=hand_class,
        ranks=ranks,
        natural=bool(_STRENGTH[index] & 1),
        notes=(picked[p][0], picked[q][0], picked[r][0]),
        options=(picked[p][1], picked[q][1], picked[r][1]),
        strength=_STRENGTH[index],
    )


def best_note(notes: Sequence[Sequence[RankOption]]) -> BestHand | None:
    """Indian poker (RULES.md §7.2, §7.4): a player's one note, at its best option.

    ``notes`` holds the rank options of the player's single pocket note
    (:func:`~dealer_assist.rules.notes.rank_options` with ``pocket=True``): a
    zero at P moves left or right, whichever gives the higher rank, since the
    player cannot choose what they cannot see.  Higher rank wins; at equal rank
    natural beats modified.  The strength is :func:`hand_strength` of the class
    ``high`` with the rank alone, so it compares as the rank, then natural.
    Returns ``None`` for a dead note (it loses to every note; two tie).
    Raises ``ValueError`` unless exactly one note is given.

    >>> from dealer_assist.rules.notes import rank_options
    >>> best = best_note([rank_options("1290611", 4, pocket=True)])
    >>> best.ranks, best.natural, best.options[0].reason
    ((9,), False, 'd4=0 → left to d3=9, modified')
    >>> best_note([rank_options("5555555", 4, pocket=True)]).strength > best.strength
    False
    >>> best_note([rank_options("0000000", 4, pocket=True)]) is None
    True
    """
    if len(notes) != 1:
        raise ValueError(f"an Indian poker hand is one note, got {len(notes)}.")
    options = notes[0]
    if not options:
        return None
    best = max(options, key=lambda option: option.code)  # code: 2 * (rank - 1) + natural
    return BestHand(
        hand_class=HandClass.HIGH,
        ranks=(best.rank,),
        natural=best.natural,
        notes=(0,),
        options=(best,),
        strength=hand_strength(HandClass.HIGH, (best.rank, 0, 0), best.natural),
    )


#: A player's best hand from the rank options of their notes (pocket first, then board), per game.
_BEST = {Game.HOLDEM: best_hand, Game.INDIAN: best_note}


def best_of(game: Game | str, notes: Sequence[Sequence[RankOption]]) -> BestHand | None:
    """The best hand of ``notes`` in ``game``: :func:`best_hand` (Hold'em, 3 of the pocket and board notes)
    or :func:`best_note` (Indian poker, the one note); ``None`` for no hand. The one place the game
    decides how notes make a hand.

    >>> from dealer_assist.rules.notes import rank_options
    >>> best_of("indian", [rank_options("1230567", 4, pocket=True)]).ranks
    (5,)
    """
    return _BEST[Game(game)](notes)
