"""Indian poker's one betting round as a small state machine (RULES.md §7.3).

Every player has posted the ante (:data:`~dealer_assist.rules.showdown.INDIAN_ANTE`).
The round goes clockwise from the dealer's left:

* before any bet a player may **check**, **fold** or **bet** 1 chip (the target
  becomes 1 beyond the ante);
* after it a player may **fold**, **call** (put in up to the target) or
  **raise** the target by 1, if nobody has raised yet: one raise for the whole
  table, so nobody puts in more than 2 chips beyond the ante;
* after a bet or the raise every other active player answers again, earlier
  checks and calls included;
* the round ends when every remaining player has answered the last bet or
  raise and matched the target (if all check, straight to the showdown), or
  when one player is left: they take the pot without showing (§7.4).

An action that is not legal now is refused with :class:`BettingError` (one
sentence) and changes nothing.

The seed's example (§7.6): four ante 1, A checks, B bets 1, C and D fold, A folds:

>>> round = BettingRound(("A", "B", "C", "D"), dealer="D")
>>> for action in ("check", "bet", "fold", "fold", "fold"):
...     round = round.act(round.to_act, action)
>>> round.done, round.last_standing, round.contributions(), round.pot
(True, 'B', {'A': 1, 'B': 2, 'C': 1, 'D': 1}, 5)
>>> round.act("A", "check")
Traceback (most recent call last):
...
dealer_assist.rules.betting.BettingError: the betting round is over; B takes the pot without showing.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import StrEnum, unique
from typing import Mapping, Sequence

from dealer_assist.rules.errors import HandError
from dealer_assist.rules.showdown import INDIAN_ANTE, INDIAN_MAX_BEYOND_ANTE, Hand, Player, from_dealers_left

__all__ = ["Action", "BettingError", "BettingRound", "play"]


@unique
class Action(StrEnum):
    """What a player may do in Indian poker's betting round (RULES.md §7.3)."""

    CHECK = "check"
    BET = "bet"
    CALL = "call"
    RAISE = "raise"
    FOLD = "fold"


class BettingError(HandError):
    """An action that the betting round does not allow now; one plain sentence."""


@dataclass(frozen=True, slots=True)
class BettingRound:
    """The state of the round: who still has to act, the target and each player's chips beyond the ante.

    Build it with the seats (clockwise) and the dealer; :meth:`act` returns the next state.
    ``seats``: 2 to 10 distinct names (RULES.md §7.1).  ``pending``: players who still have to
    answer, in the order they act (:attr:`to_act` first).  ``target``: chips beyond the ante a
    player still in must match (0, 1 after the bet, 2 after the raise).  ``put``: each
    seat's chips beyond the ante.  ``folded``: in the order they folded.

    Raises :class:`~dealer_assist.rules.errors.HandError` for fewer than 2 or more than 10
    seats, a repeated name or a dealer who is not one of them.
    """

    seats: tuple[str, ...]
    dealer: str
    pending: tuple[str, ...] = ()
    target: int = 0
    put: tuple[int, ...] = ()
    folded: tuple[str, ...] = ()
    history: tuple[tuple[str, Action], ...] = ()

    def __post_init__(self) -> None:
        seats = tuple(self.seats)
        if not 2 <= len(seats) <= 10:
            raise HandError(f"Indian poker is for 2 to 10 players, got {len(seats)}.")
        if len(set(seats)) != len(seats):
            raise HandError("every seat needs a name of its own.")
        if self.dealer not in seats:
            raise HandError(f"dealer {self.dealer!r} is not one of the players.")
        object.__setattr__(self, "seats", seats)
        if not self.history and not self.pending and not self.put:
            object.__setattr__(self, "pending", from_dealers_left(seats, self.dealer))
            object.__setattr__(self, "put", (0,) * len(seats))

    # ----------------------------------------------------------------- the state

    @property
    def active(self) -> tuple[str, ...]:
        """Players who have not folded, in seat order."""
        return tuple(s for s in self.seats if s not in self.folded)

    @property
    def done(self) -> bool:
        """The round is over: everyone still in has matched the target, or one player is left."""
        return not self.pending or len(self.active) == 1

    @property
    def to_act(self) -> str | None:
        """Who acts now (``None`` when the round is over)."""
        return None if self.done else self.pending[0]

    @property
    def last_standing(self) -> str | None:
        """The one player left when all others folded (they win unshown, §7.4), else ``None``."""
        return self.active[0] if len(self.active) == 1 else None

    @property
    def raised(self) -> bool:
        """The table's one raise has been made."""
        return self.target > 1

    def put_in(self, seat: str) -> int:
        """Chips ``seat`` has put in beyond the ante."""
        return self.put[self.seats.index(seat)]

    def legal(self) -> tuple[Action, ...]:
        """The actions :attr:`to_act` may take now (none when the round is over)."""
        if self.done:
            return ()
        if self.target == 0:
            return (Action.CHECK, Action.BET, Action.FOLD)
        if not self.raised:
            return (Action.CALL, Action.RAISE, Action.FOLD)
        return (Action.CALL, Action.FOLD)

    def contributions(self) -> dict[str, int]:
        """Each seat's chips in the pot, the ante included, in seat order."""
        return {s: INDIAN_ANTE + p for s, p in zip(self.seats, self.put)}

    @property
    def pot(self) -> int:
        return sum(self.contributions().values())

    # ----------------------------------------------------------------- acting

    def act(self, seat: str, action: Action | str) -> BettingRound:
        """The state after ``seat`` takes ``action``.

        Raises :class:`BettingError` (one sentence, nothing changed) when the round is over,
        it is not ``seat``'s turn, the action is unknown or not allowed now.

        >>> r = BettingRound(("A", "B", "C"), dealer="C").act("A", "bet").act("B", "raise")
        >>> r.to_act, r.legal(), r.target
        ('C', (<Action.CALL: 'call'>, <Action.FOLD: 'fold'>), 2)
        >>> r.act("C", "raise")
        Traceback (most recent call last):
        ...
        dealer_assist.rules.betting.BettingError: C cannot raise: the table's one raise has been made; call or fold.
        """
        if self.done:
            if self.last_standing is not None:
                raise BettingError(f"the betting round is over; {self.last_standing} takes the pot without showing.")
            raise BettingError("the betting round is over; it is the showdown.")
        if seat not in self.seats:
            raise BettingError(f"{seat!r} is not one of the players.")
        if seat != self.pending[0]:
            why = "they have folded" if seat in self.folded else f"it is {self.pending[0]}'s turn"
            raise BettingError(f"{seat} cannot act now: {why}.")
        try:
            action = Action(str(action).strip().lower())
        except ValueError:
            raise BettingError(f"{str(action)[:20]!r} is no action; the actions are "
                               f"{', '.join(a.value for a in Action)}.") from None
        if action not in self.legal():
            raise BettingError(self._why_not(seat, action))
        i = self.seats.index(seat)
        rest = self.pending[1:]
        step = replace(self, history=self.history + ((seat, action),))
        if action is Action.FOLD:
            return replace(step, pending=rest, folded=self.folded + (seat,))
        if action in (Action.CHECK, Action.CALL):
            put = self.put[:i] + (self.target,) + self.put[i + 1:]
            return replace(step, pending=rest, put=put)
        # a bet or the raise: the target goes up by 1 and every other active player answers again
        target = self.target + 1
        assert target <= INDIAN_MAX_BEYOND_ANTE
        put = self.put[:i] + (target,) + self.put[i + 1:]
        after = from_dealers_left(self.seats, seat)[:-1]  # clockwise from the seat's left, without it
        return replace(step, pending=tuple(s for s in after if s not in self.folded), target=target, put=put)

    def _why_not(self, seat: str, action: Action) -> str:
        if action is Action.CHECK:
            return f"{seat} cannot check: there is a bet of {self.target} to call; call, fold" + (
                "." if self.raised else " or raise.")
        if action is Action.BET:
            return f"{seat} cannot bet: there is already a bet; call, fold" + ("." if self.raised else " or raise.")
        if action is Action.CALL:
            return f"{seat} cannot call: there is no bet yet; check, bet or fold."
        if action is Action.RAISE and self.target == 0:
            return f"{seat} cannot raise: there is no bet yet; check, bet or fold."
        return f"{seat} cannot raise: the table's one raise has been made; call or fold."

    # ----------------------------------------------------------------- the showdown

    def hand(self, notes: Mapping[str, str], position: int) -> Hand:
        """The finished round as an Indian poker :class:`~dealer_assist.rules.showdown.Hand` with each
        seat's ``contributed`` and ``folded``, for :func:`~dealer_assist.rules.showdown.evaluate`.

        ``notes`` maps a seat to its note's serial; a folded seat's may be left out.
        Raises :class:`BettingError` while the round is not over, and
        :class:`~dealer_assist.rules.errors.HandError` for a missing or wrong serial.
        """
        if not self.done:
            raise BettingError(f"the betting round is not over: {self.to_act} is to act.")
        chips = self.contributions()
        players = []
        for seat in self.seats:
            folded = seat in self.folded
            if seat not in notes and not folded and self.last_standing is None:
                raise HandError(f"the note of {seat} is needed for the showdown.")
            players.append(Player(seat, (notes[seat],) if seat in notes else (), contributed=chips[seat],
                                  folded=folded, revealed=seat in notes or folded))
        return Hand(position=position, board=(), players=tuple(players), dealer=self.dealer, game="indian")


def play(seats: Sequence[str], dealer: str, actions: Sequence[str]) -> BettingRound:
    """The round after ``actions`` (each by the player to act), e.g. ``play("ABCD", "D", ["check", "bet"])``."""
    state = BettingRound(tuple(seats), dealer)
    for action in actions:
        state = state.act(state.to_act or "", action)
    return state
