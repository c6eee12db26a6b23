"""A hand at the table and its showdown (RULES.md §3-4, and §7 for Indian poker).

:class:`Hand` is the input of FORMATS.md §1 as a value (validated on
construction); :func:`evaluate` ranks every note, finds every player's best
hand, the winners among the players still in who revealed (or the last player
standing) and, when contributions are given, the settlement.

>>> hand = Hand(position=4, board=("1119111", "1118111", "1117111"),
...             players=(Player("A", ("1111111", "2222222"), contributed=25),
...                      Player("B", ("3333333", "4444444"), contributed=25)),
...             tie_policy="rollover", dealer="B")
>>> result = evaluate(hand)
>>> result.winners, result.settlement.carry
(('A', 'B'), 50)
>>> result.players[0].best.hand_class.value, result.players[0].best.ranks
('straight', (9, 8, 7))

Indian poker is the same engine with ``game="indian"``: one note each, no board
(RULES.md §7.6: a three-way showdown, pot 6, two equal top ranks get 3 each):

>>> hand = Hand(position=2, board=(), game="indian", players=(
...     Player("A", ("1911111",), contributed=2), Player("B", ("2922222",), contributed=2),
...     Player("C", ("3433333",), contributed=2)))
>>> evaluate(hand).settlement.payouts
{'A': 3, 'B': 3, 'C': 0}
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from dealer_assist.rules.errors import HandError
from dealer_assist.rules.hands import NO_HAND, BestHand, best_of
from dealer_assist.rules.notes import RankOption, check_position, check_serial, rank_options, repeated_serials
from dealer_assist.rules.options import Game, TiePolicy, ZeroJoker
from dealer_assist.rules.settlement import Settlement, settle

__all__ = ["Player", "Hand", "PlayerResult", "Showdown", "evaluate", "dealer_among", "INDIAN_ANTE", "INDIAN_MAX_BEYOND_ANTE"]

#: Indian poker's stakes (RULES.md §7.1, §7.3): the ante, and the most a player puts in beyond it.
INDIAN_ANTE = 1
INDIAN_MAX_BEYOND_ANTE = 2


@dataclass(frozen=True, slots=True)
class Player:
    """One seat of a hand (FORMATS.md §1 ``players[i]``).

    ``pocket`` holds the two pocket serials (7 digits each; one in Indian
    poker, RULES.md §7.1), or nothing when they are not known: a player who folded or did not reveal need not show
    them (RULES.md §4).  ``contributed`` is the chips put in this hand
    (``None`` when not tracked).  A ``folded`` player takes no part in the
    showdown; one who did not reveal (``revealed`` false) is excluded from the
    distribution (RULES.md §4).
    """

    name: str
    pocket: tuple[str, ...]
    contributed: int | None = None
    folded: bool = False
    revealed: bool = True

    def __post_init__(self) -> None:
        if isinstance(self.pocket, list):
            object.__setattr__(self, "pocket", tuple(self.pocket))


@dataclass(frozen=True, slots=True)
class Hand:
    """One hand as dealt (FORMATS.md §1): Banknote Hold'em, or Indian poker with ``game="indian"``.

    ``position`` is the playing position P (1..7); ``board`` holds 0..3 board
    serials; ``players`` are in seat order, clockwise; ``dealer`` names the
    dealer's seat (``None``: odd chips go in plain seat order, as if the last
    seat dealt).  Options are coerced to :class:`ZeroJoker` / :class:`TiePolicy`
    / :class:`Game`.  ``carried_in``: whole chips carried into this hand's main
    pot from the hands before (a tie rolled over, RULES.md §4); paid with the
    main pot by :func:`evaluate`.

    Raises :class:`HandError` naming the field for: a serial that is not exactly
    7 digits, P outside 1..7, more board notes than the game has (3; none in
    Indian poker), a player without exactly the game's pocket notes (2; 1 in
    Indian poker; none is allowed for a player who folded or did not
    reveal: the notes are not known), fewer than 2 players (more than 10 in
    Indian poker), a blank or duplicate name, an unknown
    option value, a negative or non-integer contribution, or a dealer who is not
    a player, chips carried in that are not a whole number >= 0.  Indian poker also refuses (RULES.md §7.2-7.4) a zero-joker other
    than ``off``, the rollover tie policy, chips carried in, a hand nobody can win (everyone folded,
    or nobody still in showed their note: the pot never carries over), and chips that are not its stakes: when
    any are given every player's must be, 1 to 3 (the ante and at most 2 more),
    the players still in all equal to the most anyone put in (they matched the
    target, so there is one pot and no side pot).
    The same serial in two places is not rejected here (the golden
    cases repeat serials); see :meth:`duplicate_serials`.
    """

    position: int
    board: tuple[str, ...]
    players: tuple[Player, ...]
    zero_joker: ZeroJoker = ZeroJoker.OFF
    tie_policy: TiePolicy = TiePolicy.SPLIT
    dealer: str | None = None
    game: Game = Game.HOLDEM
    carried_in: int = 0

    def __post_init__(self) -> None:
        check_position(self.position)
        carried = self.carried_in
        if isinstance(carried, bool) or not isinstance(carried, int) or carried < 0:
            raise HandError(f"carried_in must be a whole number of chips >= 0, got {carried!r}.")
        game = _option(Game, self.game, "game")
        board = tuple(self.board)
        if len(board) > game.board_notes:
            raise HandError(f"board has {len(board)} notes; at most 3 are allowed." if game is Game.HOLDEM
                            else f"board has {len(board)} note{'' if len(board) == 1 else 's'}; Indian poker has no board "
                                 f"notes.")
        for i, serial in enumerate(board):
            check_serial(serial, f"board[{i}]")
        players = tuple(self.players)
        if len(players) < 2:
            raise HandError(f"players has {len(players)} player(s); at least 2 are needed.")
        if game.max_players is not None and len(players) > game.max_players:
            raise HandError(f"players has {len(players)} players; Indian poker is for 2 to {game.max_players}.")
        needed = game.pocket_notes
        seen: set[str] = set()
        for i, player in enumerate(players):
            where = f"players[{i}]"
            if not isinstance(player, Player):
                raise HandError(f"{where} must be a Player.")
            if not isinstance(player.name, str) or not player.name.strip():
                raise HandError(f"{where}.name must be a non-empty string.")
            if player.name in seen:
                raise HandError(f"{where}.name {player.name!r} is used by another player.")
            seen.add(player.name)
            pocket = player.pocket
            if not isinstance(pocket, tuple):
                raise HandError(f"{where}.pocket must be a list of 2 serials.")
            if len(pocket) != needed and not (len(pocket) == 0 and (player.folded or not player.revealed)):
                raise HandError(f"{where}.pocket has {len(pocket)} note(s); exactly {needed} "
                                f"{'are' if needed > 1 else 'is'} needed"
                                f"{' in Indian poker' if game is Game.INDIAN else ''}.")
            for j, serial in enumerate(pocket):
                check_serial(serial, f"{where}.pocket[{j}]")
            chips = player.contributed
            if chips is not None and (isinstance(chips, bool) or not isinstance(chips, int) or chips < 0):
                raise HandError(f"{where}.contributed must be a whole number of chips >= 0, got {chips!r}.")
            for flag in ("folded", "revealed"):
                if not isinstance(getattr(player, flag), bool):
                    raise HandError(f"{where}.{flag} must be true or false.")
        if self.dealer is not None and self.dealer not in seen:
            raise HandError(f"dealer {self.dealer!r} is not one of the players.")
        object.__setattr__(self, "board", board)
        object.__setattr__(self, "players", players)
        object.__setattr__(self, "zero_joker", _option(ZeroJoker, self.zero_joker, "zero_joker"))
        object.__setattr__(self, "tie_policy", _option(TiePolicy, self.tie_policy, "tie_policy"))
        object.__setattr__(self, "game", game)
        if game is Game.INDIAN:
            _check_indian(self)

    def odd_chip_order(self) -> tuple[str, ...]:
        """Player names in seat order starting left of the dealer (RULES.md §4).

        >>> Hand(1, (), (Player("A", ("1111111", "2222222")),
        ...              Player("B", ("3333333", "4444444")),
        ...              Player("C", ("5555555", "6666666"))), dealer="A").odd_chip_order()
        ('B', 'C', 'A')
        """
        return from_dealers_left(tuple(p.name for p in self.players), self.dealer)

    @property
    def pockets_known(self) -> bool:
        """Every player's pocket notes are known."""
        return all(len(p.pocket) == self.game.pocket_notes for p in self.players)

    def duplicate_serials(self) -> list[tuple[str, list[str]]]:
        """Serials that lie in more than one place, with the fields holding them.

        One physical note cannot lie in two places, so a repeat usually means a
        typing or reading mistake; the digits alone do not identify a note
        (the letters do, RULES.md §1), so this is reported, not rejected.

        >>> Hand(1, ("1111111",), (Player("A", ("1111111", "2222222")),
        ...                        Player("B", ("3333333", "4444444")))).duplicate_serials()
        [('1111111', ['board[0]', 'players[0].pocket[0]'])]
        """
        placed = [(f"board[{i}]", serial) for i, serial in enumerate(self.board)]
        placed += [(f"players[{i}].pocket[{j}]", serial)
                   for i, player in enumerate(self.players) for j, serial in enumerate(player.pocket)]
        return repeated_serials(placed)


def _check_indian(hand: Hand) -> None:
    """The options and stakes of Indian poker (RULES.md §7.2-7.4); see :class:`Hand`."""
    if hand.zero_joker is not ZeroJoker.OFF:
        raise HandError(f"zero_joker must be off in Indian poker (RULES.md §7.2), got {hand.zero_joker.value!r}.")
    if hand.tie_policy is not TiePolicy.SPLIT:
        raise HandError("tie_policy must be split in Indian poker: it has no rollover (RULES.md §7.4).")
    if hand.carried_in:
        raise HandError("carried_in must be 0 in Indian poker: its pot never carries over (RULES.md §7.4).")
    still_in = [p for p in hand.players if not p.folded]
    if not still_in:
        raise HandError("every player folded; in Indian poker the last player left takes the pot (RULES.md §7.4).")
    if len(still_in) > 1 and not any(p.revealed for p in still_in):
        raise HandError("no player still in showed their note; in Indian poker the pot never carries over, so "
                        "at least one must (RULES.md §7.4).")
    chips = [p.contributed for p in hand.players]
    if all(c is None for c in chips):
        return
    most = INDIAN_ANTE + INDIAN_MAX_BEYOND_ANTE
    for i, player in enumerate(hand.players):
        if player.contributed is None:
            raise HandError(f"players[{i}].contributed is missing; in Indian poker every player posts the ante, "
                            f"so give every player's chips or none.")
        if not INDIAN_ANTE <= player.contributed <= most:
            raise HandError(f"players[{i}].contributed must be from {INDIAN_ANTE} to {most} in Indian poker "
                            f"(the ante and at most {INDIAN_MAX_BEYOND_ANTE} more, RULES.md §7.3), "
                            f"got {player.contributed}.")
    top = max(chips)
    for i, player in enumerate(hand.players):
        if not player.folded and player.contributed != top:
            raise HandError(f"players[{i}].contributed is {player.contributed} but another player put in {top}; "
                            f"a player still in has matched the bet (RULES.md §7.3).")


def from_dealers_left(seats: Sequence[str], dealer: object) -> tuple[str, ...]:
    """``seats`` (in seat order) starting left of ``dealer``: the odd-chip order (RULES.md §4);
    unchanged when the dealer is not among them.

    >>> from_dealers_left(["A", "B", "C"], "A"), from_dealers_left(["A", "B"], None)
    (('B', 'C', 'A'), ('A', 'B'))
    """
    seats = tuple(seats)
    if dealer not in seats:
        return seats
    d = seats.index(dealer) + 1
    return seats[d:] + seats[:d]


def dealer_among(seats: Sequence[str], dealer: str, players: Sequence[str]) -> str | None:
    """The seat that holds the button among a hand's ``players``, for odd chips (RULES.md §4).

    ``seats`` is the whole table clockwise, ``dealer`` its dealer's seat. When
    the dealer plays the hand it is the dealer; otherwise it is the nearest
    player on the dealer's right, so that the odd chips still go one at a
    time starting at the dealer's left (:meth:`Hand.odd_chip_order`).
    ``None`` when no player sits at the table.

    >>> dealer_among(["A", "B", "C", "D"], "B", ["A", "C", "D"]), dealer_among(["A", "B", "C"], "A", ["B", "C"])
    ('A', 'C')
    """
    if dealer in players:
        return dealer
    d = list(seats).index(dealer)
    for k in range(1, len(seats) + 1):
        seat = seats[(d - k) % len(seats)]
        if seat in players:
            return seat
    return None


def _option(enum: type, value: object, field: str):
    try:
        return enum(value)
    except ValueError:
        allowed = ", ".join(repr(m.value) for m in enum)
        raise HandError(f"{field} must be one of {allowed}, got {value!r}.") from None


@dataclass(frozen=True, slots=True)
class PlayerResult:
    """One player at the showdown.

    ``notes`` are the rank options of the player's notes in the order
    ``pocket[0], pocket[1], board...`` (same order as :attr:`serials`, and the
    order :attr:`BestHand.notes` indexes).  ``best`` is ``None`` for no hand.
    ``contender``: still in and revealed, or the last player standing.
    """

    player: Player
    serials: tuple[str, ...]
    notes: tuple[tuple[RankOption, ...], ...]
    best: BestHand | None
    contender: bool

    @property
    def name(self) -> str:
        return self.player.name

    @property
    def strength(self) -> int:
        """Comparable strength of the best hand; :data:`NO_HAND` (-1) for none."""
        return NO_HAND if self.best is None else self.best.strength


@dataclass(frozen=True, slots=True)
class Showdown:
    """The evaluated hand: every player's best hand (folded ones too, for the
    record), the winners in seat order and the settlement when any player has
    ``contributed``."""

    hand: Hand
    board: tuple[tuple[RankOption, ...], ...]
    players: tuple[PlayerResult, ...]
    winners: tuple[str, ...]
    settlement: Settlement | None

    def player(self, name: str) -> PlayerResult:
        """The result of the player called ``name`` (``KeyError`` if none)."""
        for result in self.players:
            if result.name == name:
                return result
        raise KeyError(name)


def evaluate(hand: Hand, *, exact: bool = False) -> Showdown:
    """Evaluate a hand: ranks, best hands, winners, settlement (RULES.md §2-4; §7 for Indian poker).

    Winners are the players still in who revealed and hold the strongest hand
    (ties all win); when everybody else folded, the last player standing wins
    without showing; when everybody folded there is no winner and every pot is
    carried.  Chips carried in (:attr:`Hand.carried_in`) join the main pot and
    are settled even when no chips were entered this hand.  ``exact=True`` pays tied pots in exact ``Fraction`` shares
    instead of whole chips with odd chips from the dealer's left.  The game decides
    only the best hand of a player's notes (:func:`~dealer_assist.rules.hands.best_of`);
    ranks, winners, odd chips and the settlement are shared.
    """
    p = hand.position
    joker = hand.zero_joker
    board = tuple(rank_options(s, p) for s in hand.board)
    still_in = [pl.name for pl in hand.players if not pl.folded]
    last = still_in[0] if len(still_in) == 1 else None

    results = []
    for pl in hand.players:
        pocket = tuple(rank_options(s, p, pocket=True, zero_joker=joker) for s in pl.pocket)
        notes = pocket + board
        results.append(
            PlayerResult(
                player=pl,
                serials=tuple(pl.pocket) + hand.board,
                notes=notes,
                best=best_of(hand.game, notes) if pl.pocket else None,  # notes not known: no hand to show
                contender=(pl.name == last) or (last is None and not pl.folded and pl.revealed),
            )
        )
    contenders = [r for r in results if r.contender]
    if contenders:
        top = max(r.strength for r in contenders)
        winners = tuple(r.name for r in contenders if r.strength == top)
    else:
        winners = ()

    settlement = None
    if hand.carried_in or any(pl.contributed is not None for pl in hand.players):
        settlement = settle(
            {pl.name: pl.contributed or 0 for pl in hand.players},
            {r.name: r.strength for r in contenders},
            hand.odd_chip_order(),
            tie_policy=hand.tie_policy,
            exact=exact,
            last_standing=last,
            carried_in=hand.carried_in,
        )
    return Showdown(hand, board, tuple(results), winners, settlement)
