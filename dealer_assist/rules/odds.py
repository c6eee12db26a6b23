"""Exact all-in odds: each player's chance to win the pot alone or to split it,
over every way the board notes still to come can fall (RULES.md §2-4).

When every player still in has shown both pocket notes and 0-2 board notes
are known, the hand is decided by the unknown board notes alone.  Every
7-digit serial is equally likely for them, except that a serial already seen
(on the board or in any pocket) cannot turn up again and two unknown board
notes are two different serials.

Why it can be exact and fast: a board note's rank depends only on the digit
at the playing position P and, when that is 0, on the digits to its right
(ring rule, RULES.md §2 rule 3); board notes have no jokers.  So every serial
falls in one of 19 *board classes*: rank r natural (digit r at P: 10**6
serials each), rank r modified (0 at P, then k-1 zeros, then r to the right,
k = 1..6: 10**5 + ... + 1 = 111,111 serials each) or dead (``0000000``, one
serial); 9 * 1,000,000 + 9 * 111,111 + 1 = 10**7.  The counts do not depend
on P.  A known serial is taken out of its own class.  The odds are then a
weighted sum over multisets of classes (at most C(21, 3) = 1,330 boards when
all 3 notes are unknown), each weighted by the exact number of ordered
serial draws that give it: ``u! / prod(m!) * prod(n_c * (n_c - 1) ... )``.

>>> hand = Hand(1, ("9111111", "1222222"),
...             (Player("A", ("9333333", "9444444")), Player("B", ("5555555", "5666666"))))
>>> odds = all_in_odds(hand)
>>> odds.board_unknown, odds.player("A").win_exact, odds.player("B").win_exact
(1, Fraction(1, 1), Fraction(0, 1))

A's natural set of 9s is the best hand there is.  With two board notes known
(ranks 1 and 2) the note to come decides: a 5 (natural or modified) gives B a
set, a 3 gives both the straight 3-2-1, anything else leaves A's pair of 9s
ahead.  Six serials are seen, so 10**7 - 6 are left, and 2 of the natural 5s
are in B's pocket:

>>> hand = Hand(1, ("1777777", "2888888"),
...             (Player("A", ("9333333", "9444444")), Player("B", ("5555555", "5666666"))))
>>> b = all_in_odds(hand).player("B")
>>> b.win_exact == Fraction(10**6 - 2 + 111_111, 10**7 - 6), b.tie_exact == Fraction(1_111_111, 10**7 - 6)
(True, True)
"""

from __future__ import annotations

import copy
from collections.abc import Collection
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from itertools import combinations_with_replacement
from math import factorial
from typing import Any

from dealer_assist.rules.errors import HandError
from dealer_assist.rules.formats import parse_hand
from dealer_assist.rules.hands import NO_HAND, classify, hand_strength
from dealer_assist.rules.notes import rank_options
from dealer_assist.rules.options import Game
from dealer_assist.rules.showdown import Hand, Player  # noqa: F401 (Player: doctests)

__all__ = [
    "SERIALS",
    "MAX_ODDS_PLAYERS",
    "DEAD",
    "PlayerOdds",
    "AllInOdds",
    "board_class",
    "board_class_sizes",
    "all_in_odds",
    "parse_odds_hand",
    "odds_to_json",
]

#: How many 7-digit serials there are (``0000000`` .. ``9999999``).
SERIALS = 10**7
#: The board class of the dead note ``0000000``; classes 0..17 are rank option
#: codes ``2 * (rank - 1) + natural`` (see :attr:`~dealer_assist.rules.notes.RankOption.code`).
DEAD = 18
_CLASSES = 19
_BOARD_NOTES = 3
#: The most players a hand given to ``odds`` may have. RULES.md §1 seats 3-8 (§7's one-note game up to
#: 10); 20, the most seats the spectator screen shows, is well above. The time grows with the players:
#: measured on one core with no board note known and zero-joker ``per-zero`` (the slowest option), about
#: 50 ms for 8 players, 90 ms for 20, 840 ms for 200; one line of 50,000 players took 92 s.
MAX_ODDS_PLAYERS = 20


def board_class_sizes() -> tuple[int, ...]:
    """How many serials fall in each board class (index 0..17 = option code, 18 = dead).

    A natural rank r (code ``2r - 1``) has 10**6 serials, a modified rank r
    (code ``2r - 2``) 111,111 and the dead note one; they add up to 10**7,
    whatever the playing position (RULES.md §2 rules 1-3).

    >>> sizes = board_class_sizes()
    >>> sizes[17], sizes[16], sizes[DEAD], sum(sizes)
    (1000000, 111111, 1, 10000000)
    """
    modified = sum(10 ** (6 - k) for k in range(1, 7))  # 0 at P, k-1 more zeros, then the rank digit
    return tuple(10**6 if code & 1 else modified for code in range(18)) + (1,)


def board_class(serial: str, position: int) -> int:
    """The board class of ``serial`` as a board note at playing position ``position``.

    Returns the rank option code 0..17 (``2 * (rank - 1) + natural``) or
    :data:`DEAD` (18) for ``0000000``.  Raises :class:`HandError` for a serial
    that is not 7 digits or a position outside 1..7.

    >>> board_class("1234567", 4), board_class("1230567", 4), board_class("0000000", 4)
    (7, 8, 18)
    """
    options = rank_options(serial, position)
    return options[0].code if options else DEAD


@dataclass(frozen=True, slots=True)
class PlayerOdds:
    """One player's chances over the unknown board notes (RULES.md §4).

    ``win``: probability to win the pot alone; ``tie``: probability to share it
    (the winners are 2 or more, this player among them).  Floats in 0..1, with
    the exact values in ``win_exact`` / ``tie_exact``.  ``status`` is ``"in"``,
    ``"folded"`` or ``"not revealed"`` (both the latter have 0 and 0) or
    ``"last standing"`` (everybody else folded: wins without showing).
    """

    name: str
    win_exact: Fraction
    tie_exact: Fraction
    status: str = "in"

    @property
    def win(self) -> float:
        return float(self.win_exact)

    @property
    def tie(self) -> float:
        return float(self.tie_exact)


@dataclass(frozen=True, slots=True)
class AllInOdds:
    """The odds of every player of a hand, in seat order.

    ``board_unknown``: board notes still to come (0..3).  ``deals``: how many
    equally likely ordered draws of distinct unknown serials there are
    (``N``, ``N (N - 1)`` or ``N (N - 1) (N - 2)`` with ``N = 10**7 - known
    serials``; 1 when the board is complete).  ``split_exact``: probability that
    the pot is shared by 2 or more winners.
    """

    players: tuple[PlayerOdds, ...]
    board_unknown: int
    deals: int
    split_exact: Fraction

    def player(self, name: str) -> PlayerOdds:
        """The odds of the player called ``name`` (``KeyError`` if none)."""
        for odds in self.players:
            if odds.name == name:
                return odds
        raise KeyError(name)


@lru_cache(maxsize=1)
def _strength_table() -> tuple[int, ...]:
    """Strength of 3 notes by class, ``[361 * a + 19 * b + c]``; any dead note gives NO_HAND."""
    table = [NO_HAND] * (_CLASSES**3)
    for a in range(18):
        for b in range(18):
            for c in range(18):
                hand_class, ranks = classify(a // 2 + 1, b // 2 + 1, c // 2 + 1)
                table[361 * a + 19 * b + c] = hand_strength(hand_class, ranks, bool(a & b & c & 1))
    return tuple(table)


def _pair_table(pocket: list[list[int]], table: tuple[int, ...]) -> list[int]:
    """A player's best strength with any 2 board classes ``[19 * x + y]``, over every
    3-note hand that uses a pocket note: one pocket note and both board notes,
    or both pocket notes and one board note (each pocket note with any of its options)."""
    with_one = [NO_HAND] * _CLASSES  # both pocket notes and board class x
    for a in pocket[0]:
        for b in pocket[1]:
            base = 361 * a + 19 * b
            for x in range(_CLASSES):
                if table[base + x] > with_one[x]:
                    with_one[x] = table[base + x]
    pairs = [NO_HAND] * (_CLASSES * _CLASSES)
    for codes in pocket:
        for a in codes:
            row = table[361 * a : 361 * a + 361]
            for i, s in enumerate(row):
                if s > pairs[i]:
                    pairs[i] = s
    for x in range(_CLASSES):
        for y in range(_CLASSES):
            i = 19 * x + y
            pairs[i] = max(pairs[i], with_one[x], with_one[y])
    return pairs


def _deals(counts: list[int], unknown: int) -> list[tuple[tuple[int, ...], int]]:
    """Every multiset of ``unknown`` board classes with the number of ordered draws
    of distinct serials that give it (classes with no serial left are skipped)."""
    live = [c for c in range(_CLASSES) if counts[c] > 0]
    out = []
    for combo in combinations_with_replacement(live, unknown):
        weight = factorial(unknown)
        seen: dict[int, int] = {}
        for c in combo:
            seen[c] = seen.get(c, 0) + 1
        for c, m in seen.items():
            weight //= factorial(m)
        for c, m in seen.items():
            for k in range(m):
                weight *= counts[c] - k
        if weight:
            out.append((combo, weight))
    return out


def all_in_odds(hand: Hand, *, unknown_notes: Collection[tuple[str, int]] = ()) -> AllInOdds:
    """Exact odds of every player of ``hand`` over its unknown board notes (RULES.md §2-4).

    ``hand.board`` holds the 0..3 known board notes; the rest of the 3 are
    unknown, each any 7-digit serial not seen in the hand (board or pockets),
    two unknown notes being distinct serials, every such draw equally likely.
    The hand's playing position, zero rules and zero-joker option apply
    (jokers never on board notes, RULES.md §2 rule 5).

    Winners follow :func:`~dealer_assist.rules.showdown.evaluate`: folded and
    unrevealed players are out (0 and 0); when everybody else folded the last
    player standing wins (1); when nobody is left, nobody wins.

    ``unknown_notes``: ``(player name, 0 or 1)`` pocket notes nobody knows; they
    are allowed only for folded or unrevealed players, their serials in
    ``hand`` are ignored and not taken out of the deck.

    Raises :class:`HandError` for an unknown note of a player still in, a
    name that is not a player, or an Indian poker hand.  Runs in about 15-40 ms for 6 players and 3
    unknown board notes (see ``benchmarks/bench_odds.py``).
    """
    if hand.game is not Game.HOLDEM:
        raise HandError("all_in_odds takes a Hold'em hand; an Indian poker hand's odds are indian_odds'.")
    names = [p.name for p in hand.players]
    hidden: set[tuple[int, int]] = set()
    for name, note in unknown_notes:
        if name not in names or note not in (0, 1):
            raise HandError(f"unknown pocket note {note!r} of {name!r} is not a pocket note of a player.")
        i = names.index(name)
        player = hand.players[i]
        if not player.folded and player.revealed:
            raise HandError(_UNKNOWN_IN.format(i=i, j=note, name=name))
        hidden.add((i, note))

    known = set(hand.board)
    for i, player in enumerate(hand.players):
        known.update(s for j, s in enumerate(player.pocket) if (i, j) not in hidden)
    unknown = _BOARD_NOTES - len(hand.board)
    total_draws = 1
    for k in range(unknown):
        total_draws *= SERIALS - len(known) - k

    still_in = [i for i, p in enumerate(hand.players) if not p.folded]
    status = ["folded" if p.folded else "in" if p.revealed else "not revealed" for p in hand.players]
    win = [0] * len(names)
    tie = [0] * len(names)
    split = 0
    if len(still_in) == 1:
        status[still_in[0]] = "last standing"
        win[still_in[0]] = total_draws
    else:
        contenders = [i for i in still_in if hand.players[i].revealed]
        if contenders:
            split = _count(hand, contenders, known, unknown, win, tie)

    players = tuple(
        PlayerOdds(name, Fraction(win[i], total_draws), Fraction(tie[i], total_draws), status[i])
        for i, name in enumerate(names)
    )
    return AllInOdds(players, unknown, total_draws, Fraction(split, total_draws))


_UNKNOWN_IN = ("players[{i}].pocket[{j}] is not known; the odds need both pocket notes of every player "
               "still in ({name!r} has neither folded nor declined to reveal).")
#: The same for Indian poker's one note (RULES.md §7).
UNKNOWN_NOTE_IN = ("players[{i}].pocket[{j}] is not known; the odds need the note of every player "
                   "still in ({name!r} has neither folded nor declined to reveal).")


def _count(hand: Hand, contenders: list[int], known: set[str], unknown: int, win: list[int], tie: list[int]) -> int:
    """Add to ``win`` / ``tie`` the number of draws each contender wins alone / shares;
    return the number of draws in which the pot is shared."""
    table = _strength_table()
    position = hand.position
    counts = list(board_class_sizes())
    for serial in known:
        counts[board_class(serial, position)] -= 1
    board = tuple(board_class(s, position) for s in hand.board)
    pairs = []
    for i in contenders:
        pocket = [[o.code for o in rank_options(s, position, pocket=True, zero_joker=hand.zero_joker)]
                  for s in hand.players[i].pocket]
        pairs.append(_pair_table(pocket, table))
    split = 0
    who = range(len(contenders))
    for combo, weight in _deals(counts, unknown):
        x, y, z = board + combo
        own = table[361 * x + 19 * y + z]  # the three board notes alone
        xy, xz, yz = 19 * x + y, 19 * x + z, 19 * y + z
        strengths = [max(own, t[xy], t[xz], t[yz]) for t in pairs]
        top = max(strengths)
        winners = [k for k in who if strengths[k] == top]
        if len(winners) == 1:
            win[contenders[winners[0]]] += weight
        else:
            split += weight
            for k in winners:
                tie[contenders[k]] += weight
    return split


def parse_odds_hand(obj: object) -> tuple[Hand, frozenset[tuple[str, int]]]:
    """A FORMATS.md §1 object (JSON-decoded) for :func:`all_in_odds`: the hand
    and its unknown pocket notes.

    As :func:`~dealer_assist.rules.formats.parse_hand`, except that a folded or
    unrevealed player's pocket may be unknown: ``"pocket"`` missing, ``null``,
    shorter than the game's pocket notes (2; 1 in Indian poker), or holding
    ``null`` for a note.  Raises :class:`HandError`
    (one sentence naming the field) for anything parse_hand refuses, for
    more than :data:`MAX_ODDS_PLAYERS` players, and for an unknown pocket note
    of a player still in.

    >>> hand, unknown = parse_odds_hand({"position": 1, "board": [], "players": [
    ...     {"name": "A", "pocket": ["1111111", "2222222"]},
    ...     {"name": "B", "pocket": ["3333333", "4444444"]},
    ...     {"name": "C", "pocket": None, "folded": True}]})
    >>> sorted(unknown)
    [('C', 0), ('C', 1)]
    >>> parse_odds_hand({"position": 1, "board": [], "players": [
    ...     {"name": "A", "pocket": ["1111111", None]}, {"name": "B", "pocket": ["3333333", "4444444"]}]})
    Traceback (most recent call last):
    ...
    dealer_assist.rules.errors.HandError: players[0].pocket[1] is not known; the odds need both pocket notes of every player still in ('A' has neither folded nor declined to reveal).
    """
    hidden: list[tuple[int, int]] = []
    if isinstance(obj, dict) and isinstance(obj.get("players"), list) and len(obj["players"]) > MAX_ODDS_PLAYERS:
        raise HandError(f"the hand has {len(obj['players']):,} players; the odds are worked out for at most "
                        f"{MAX_ODDS_PLAYERS} (a table seats 3-8, RULES.md §1).")
    if isinstance(obj, dict) and isinstance(obj.get("players"), list):
        obj = copy.copy(obj)
        need = Game.INDIAN.pocket_notes if obj.get("game") == Game.INDIAN.value else Game.HOLDEM.pocket_notes
        players = []
        for i, player in enumerate(obj["players"]):
            if isinstance(player, dict):
                pocket = player.get("pocket")
                if pocket is None or (isinstance(pocket, list) and (len(pocket) < need or None in pocket)):
                    notes = list(pocket or []) + [None] * (need - len(pocket or []))
                    out = player.get("folded") is True or player.get("revealed") is False
                    for j, serial in enumerate(notes):
                        if serial is None:
                            if not out:
                                name = player.get("name")
                                sentence = _UNKNOWN_IN if need == 2 else UNKNOWN_NOTE_IN
                                raise HandError(sentence.format(i=i, j=j, name=name))
                            hidden.append((i, j))
                            notes[j] = "0000000"  # a stand-in: all_in_odds ignores it
                    player = {**player, "pocket": notes}
            players.append(player)
        obj["players"] = players
    hand = parse_hand(obj)
    return hand, frozenset((hand.players[i].name, j) for i, j in hidden)


def odds_to_json(odds: AllInOdds, *, exact: bool = False, digits: int = 4) -> dict[str, Any]:
    """``{"players": {"P1": {"win": 0.4213, "tie": 0.031}, …}, "board_unknown": 2}``.

    Floats are rounded to ``digits`` decimals; with ``exact`` each player also
    has ``win_exact`` / ``tie_exact`` as ``"a/b"`` strings (``"0"``, ``"1"``
    when whole), and the whole ``deals`` and ``split`` are added.

    >>> hand = Hand(1, ("9111111", "9222222", "9333333"),
    ...             (Player("A", ("1444444", "2555555")), Player("B", ("1666666", "2777777"))))
    >>> odds_to_json(all_in_odds(hand))
    {'players': {'A': {'win': 0.0, 'tie': 1.0}, 'B': {'win': 0.0, 'tie': 1.0}}, 'board_unknown': 0}
    """
    players = {p.name: player_odds_entry(p, digits, exact) for p in odds.players}
    out: dict[str, Any] = {"players": players, "board_unknown": odds.board_unknown}
    if exact:
        out["deals"] = odds.deals
        out["split_exact"] = _fraction_text(odds.split_exact)
    return out


def player_odds_entry(p: PlayerOdds, digits: int, exact: bool) -> dict[str, Any]:
    """One player's JSON entry of the odds (both games): ``win``/``tie`` rounded to ``digits``,
    ``status`` when not ``"in"``, and with ``exact`` the fractions as ``"a/b"`` text."""
    entry: dict[str, Any] = {"win": round(p.win, digits), "tie": round(p.tie, digits)}
    if p.status != "in":
        entry["status"] = p.status
    if exact:
        entry["win_exact"] = _fraction_text(p.win_exact)
        entry["tie_exact"] = _fraction_text(p.tie_exact)
    return entry


def _fraction_text(value: Fraction) -> str:
    return str(value.numerator) if value.denominator == 1 else f"{value.numerator}/{value.denominator}"
