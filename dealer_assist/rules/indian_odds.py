"""Exact odds of banknote Indian poker (RULES.md §7): the player's view and the spectator's.

Every player holds one note to the forehead and sees every note but their own
(§7.1).  So there are two sets of odds at a showdown:

* the **player's view** -- the chance a player would compute for themself: the
  others' notes are known, their own is any 7-digit serial they have not seen
  (every note on the table but theirs, folded ones included), each equally likely;
* the **spectator's view** -- every note known: the outcome itself (1 or 0).

Why it is exact and fast: the one note plays by its best rank option (§7.2, a
zero at P takes the better direction), so every serial falls in one of 19
*note classes*: rank r natural (digit r at P: 10**6 serials each), rank r
modified (0 at P; the six other digits, read round the ring from P, not all 0,
their first and last non-zero digit at most r with one of them r:
``6 + 12345 * (2r - 1)`` serials, where 12,345 = 5 + 4*10 + 3*100 + 2*1000 +
10000 counts the middle digits between two non-zero ends) or dead
(``0000000``).  9 * 10**6 + sum(...) + 1 = 10**7, whatever P.  A seen serial is
taken out of its class, and a player's chance is a sum over the 19 classes.

>>> hand = Hand(4, (), (Player("A", ("1115111",)), Player("B", ("9990999",)),
...                    Player("C", ("2223222",), folded=True)), game="indian")
>>> odds = indian_odds(hand)
>>> [(p.name, p.win, p.tie) for p in odds.spectator]
[('A', 0.0, 0.0), ('B', 1.0, 0.0), ('C', 0.0, 0.0)]

A sees B's modified 9 (the zero at d4 moves left to d3=9): A wins with a natural
9 only, and ties with a modified 9; the deck A's note is drawn from has lost the
two notes A sees (B's and C's):

>>> a = odds.player("A")
>>> a.win_exact == Fraction(10**6, 10**7 - 2), a.tie_exact == Fraction(6 + 12345 * 17 - 1, 10**7 - 2)
(True, True)
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Any

from dealer_assist.rules.errors import HandError
from dealer_assist.rules.hands import NO_HAND, best_note
from dealer_assist.rules.notes import rank_options
from dealer_assist.rules.odds import DEAD, SERIALS, UNKNOWN_NOTE_IN, PlayerOdds, player_odds_entry
from dealer_assist.rules.options import Game
from dealer_assist.rules.showdown import Hand, Player, evaluate  # noqa: F401 (Player: doctests)

__all__ = ["IndianOdds", "indian_odds", "note_class", "note_class_sizes", "indian_odds_to_json"]

_CLASSES = 19
#: Middle digits between two non-zero ends among the six digits round the ring from P:
#: sum over gaps g = 0..4 of (5 - g) * 10**g.
_MIDDLES = sum((5 - g) * 10**g for g in range(5))


def note_class_sizes() -> tuple[int, ...]:
    """How many serials fall in each note class of Indian poker (index = option code
    ``2 * (rank - 1) + natural``, 0..17; 18 = dead), whatever the playing position.

    >>> sizes = note_class_sizes()
    >>> sizes[17], sizes[16], sizes[0], sizes[DEAD], sum(sizes)
    (1000000, 209871, 12351, 1, 10000000)
    """
    sizes = []
    for code in range(18):
        rank = code // 2 + 1
        sizes.append(10**6 if code & 1 else 6 + _MIDDLES * (2 * rank - 1))
    return tuple(sizes) + (1,)


def note_class(serial: str, position: int) -> int:
    """The note class of ``serial`` held in Indian poker at playing position ``position``:
    its best option's code (0..17) or :data:`~dealer_assist.rules.odds.DEAD` (18).

    >>> note_class("1290611", 4), note_class("1234567", 4), note_class("0000000", 1)
    (16, 7, 18)
    """
    best = best_note([rank_options(serial, position, pocket=True)])
    return DEAD if best is None else best.options[0].code


@lru_cache(maxsize=1)
def _class_strengths() -> tuple[int, ...]:
    """The strength (:func:`~dealer_assist.rules.hands.best_note`'s) of each note class."""
    out = []
    for code in range(18):
        rank, natural = code // 2 + 1, bool(code & 1)
        serial = f"{rank}111111" if natural else f"0{rank}00000"
        best = best_note([rank_options(serial, 1, pocket=True)])
        assert best is not None and best.options[0].code == code
        out.append(best.strength)
    return tuple(out) + (NO_HAND,)


@dataclass(frozen=True, slots=True)
class IndianOdds:
    """The odds of every player of an Indian poker hand, in seat order (RULES.md §7).

    ``players``: each player's own view, over every note their own can be
    (:class:`~dealer_assist.rules.odds.PlayerOdds`: ``win`` alone, ``tie``
    shared; ``status`` as there).  ``spectator``: every note known, so each is
    1 or 0.  ``notes_left``: per player, how many serials their own note can be
    (``10**7`` minus the notes they see).
    """

    players: tuple[PlayerOdds, ...]
    spectator: tuple[PlayerOdds, ...]
    notes_left: tuple[int, ...]

    def player(self, name: str) -> PlayerOdds:
        """The player's-view odds of ``name`` (``KeyError`` if none)."""
        return _find(self.players, name)

    def seen_by_spectator(self, name: str) -> PlayerOdds:
        """The spectator's-view odds of ``name`` (``KeyError`` if none)."""
        return _find(self.spectator, name)


def _find(odds: tuple[PlayerOdds, ...], name: str) -> PlayerOdds:
    for entry in odds:
        if entry.name == name:
            return entry
    raise KeyError(name)


def indian_odds(hand: Hand, *, unknown_notes: Collection[tuple[str, int]] = ()) -> IndianOdds:
    """Both views of an Indian poker ``hand`` (``game="indian"``; RULES.md §7.2, §7.4).

    Winners follow :func:`~dealer_assist.rules.showdown.evaluate`: a folded or
    unrevealed player has 0 and 0 (a folded note never wins), the last player
    standing wins (1), two dead notes tie.  ``unknown_notes``: ``(name, 0)``
    notes nobody knows, allowed only for folded or unrevealed players (their
    serial in ``hand`` is ignored and not taken out of anyone's deck).

    Raises :class:`HandError` for a hand that is not Indian poker, an unknown
    note of a player still in, or a name that is not a player.  Under 1 ms for
    10 players (``benchmarks/bench_indian_odds.py``).
    """
    if hand.game is not Game.INDIAN:
        raise HandError(f"indian_odds takes an Indian poker hand, got game {hand.game.value!r}.")
    names = [p.name for p in hand.players]
    hidden: set[int] = set()
    for name, note in unknown_notes:
        if name not in names or note != 0:
            raise HandError(f"unknown pocket note {note!r} of {name!r} is not the note of a player.")
        i = names.index(name)
        if not hand.players[i].folded and hand.players[i].revealed:
            raise HandError(UNKNOWN_NOTE_IN.format(i=i, j=0, name=name))
        hidden.add(i)
    position = hand.position
    strengths = _class_strengths()
    classes = [None if i in hidden or not p.pocket else note_class(p.pocket[0], position)
               for i, p in enumerate(hand.players)]
    still_in = [i for i, p in enumerate(hand.players) if not p.folded]
    contenders = [i for i in still_in if hand.players[i].revealed]
    status = ["folded" if p.folded else "in" if p.revealed else "not revealed" for p in hand.players]
    if len(still_in) == 1:
        status[still_in[0]] = "last standing"
    # the serials a player sees: every known note but their own; one serial held twice is one note
    holders: dict[str, int] = {}
    for i, p in enumerate(hand.players):
        if classes[i] is not None:
            holders[p.pocket[0]] = holders.get(p.pocket[0], 0) + 1
    all_seen = list(note_class_sizes())
    for serial in holders:
        all_seen[note_class(serial, position)] -= 1

    players, left = [], []
    for i, name in enumerate(names):
        counts, seen = all_seen, len(holders)
        if classes[i] is not None and holders[hand.players[i].pocket[0]] == 1:  # i's own note is not seen by i
            counts, seen = list(all_seen), seen - 1
            counts[classes[i]] += 1
        total = SERIALS - seen
        left.append(total)
        win = tie = 0
        if status[i] == "last standing":
            win = total
        elif status[i] == "in":
            others = [strengths[classes[j]] for j in contenders if j != i]
            if not others:  # the others still in did not reveal: i is the one contender
                win = total
            else:
                top = max(others)
                win = sum(counts[c] for c in range(_CLASSES) if strengths[c] > top)
                tie = sum(counts[c] for c in range(_CLASSES) if strengths[c] == top)
        players.append(PlayerOdds(name, Fraction(win, total), Fraction(tie, total), status[i]))

    winners = evaluate(hand).winners
    spectator = tuple(
        PlayerOdds(name, Fraction(int(len(winners) == 1 and name in winners)),
                   Fraction(int(len(winners) > 1 and name in winners)), status[i])
        for i, name in enumerate(names))
    return IndianOdds(tuple(players), spectator, tuple(left))


def indian_odds_to_json(odds: IndianOdds, *, exact: bool = False, digits: int = 4) -> dict[str, Any]:
    """``{"game": "indian", "players": {"A": {"win": 0.1, "tie": 0.02}, …}, "spectator": {"A": {"win": 0, "tie": 0},
    …}, "board_unknown": 0}``: ``players`` is each player's own view, ``spectator`` every note known.

    Floats are rounded to ``digits`` decimals; ``status`` is given when not ``"in"``; with ``exact``
    each entry also has ``win_exact`` / ``tie_exact`` (``"a/b"``) and each player ``notes_left``.
    """
    def entries(views: tuple[PlayerOdds, ...], own: bool) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for k, p in enumerate(views):
            entry = player_odds_entry(p, digits, exact)
            if exact and own:
                entry["notes_left"] = odds.notes_left[k]
            out[p.name] = entry
        return out

    return {"game": Game.INDIAN.value, "players": entries(odds.players, True),
            "spectator": entries(odds.spectator, False), "board_unknown": 0}
