"""Who gets the chips: layered side pots (RULES.md §4).

Every player's total contribution for the hand is layered: each distinct
contribution level closes a pot that every contributor pays into up to that
level.  A pot's *eligible* players are the contenders (still in and revealed,
or the last player standing) who paid up to its level.  Adjacent layers with
the same eligible players form one pot; a top layer nobody is eligible for
(chips of folded or unrevealed players above every contender) joins the pot
below it.  A pot nobody at all is eligible for is carried to the next hand.
Chips carried in from the hands before (``carried_in``: a tied pot under the
rollover policy, a pot nobody could win) join this hand's main pot (the first
layer) and are paid with it, once (RULES.md §4: "a pot whose winners tie carries
to the next hand's pot").

Each pot goes to its eligible players with the greatest strength.  A tie is
split in equal shares with odd chips given one at a time to the tied winners
in seat order starting left of the dealer (:data:`TiePolicy.SPLIT`), exactly
as fractions when ``exact=True``, or rolled over (:data:`TiePolicy.ROLLOVER`).
Chips are conserved: ``sum(payouts) + carry == sum(contributions) + carried_in``.

>>> s = settle({"A": 40, "B": 100, "C": 100}, {"A": 3, "B": 1, "C": 2}, order=["A", "B", "C"])
>>> [(p.amount, p.eligible, p.winners) for p in s.pots]
[(120, ('A', 'B', 'C'), ('A',)), (120, ('B', 'C'), ('C',))]
>>> s.payouts, s.carry
({'A': 120, 'B': 0, 'C': 120}, 0)

A tie rolled over 11 chips; the next hand's main pot of 10 holds them (21):

>>> s = settle({"A": 5, "B": 5}, {"A": 3, "B": 1}, order="AB", carried_in=11)
>>> s.pots[0].amount, s.pots[0].carried_in, s.payouts, s.carried_in
(21, 11, {'A': 21, 'B': 0}, 11)
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Mapping, Sequence

from dealer_assist.rules.options import TiePolicy

__all__ = ["Pot", "Settlement", "settle"]

Chips = int | Fraction


@dataclass(frozen=True, slots=True)
class Pot:
    """One main or side pot: its chips, who may win it, who did (seat order
    from the dealer's left).  ``winners`` is empty only when nobody was
    eligible; under the rollover policy a tied pot keeps its tied winners here
    but its chips go to the carry.  ``amount`` counts every chip of the pot,
    ``carried_in`` of them carried in from the hands before (only the main pot,
    the first, holds any; 0 for a side pot)."""

    amount: int
    eligible: tuple[str, ...]
    winners: tuple[str, ...]
    carried_in: int = 0


@dataclass(frozen=True, slots=True)
class Settlement:
    """Pots, chips each player receives (every contributor, in the order of
    the contributions mapping) and chips carried to the next hand.  Amounts are
    ``int``, or ``Fraction`` in exact mode.  ``carried_in``: chips carried in
    from the hands before, inside the main pot and so inside ``payouts`` (or
    ``carry``, when that pot rolls on)."""

    pots: tuple[Pot, ...]
    payouts: dict[str, Chips]
    carry: Chips
    carried_in: int = 0


def settle(
    contributions: Mapping[str, int],
    strengths: Mapping[str, int],
    order: Sequence[str],
    *,
    tie_policy: TiePolicy | str = TiePolicy.SPLIT,
    exact: bool = False,
    last_standing: str | None = None,
    carried_in: int = 0,
) -> Settlement:
    """Build the pots and pay them out (RULES.md §4).

    ``contributions``: chips (int >= 0) each player put in this hand, every
    player of the hand, in seat order.  ``strengths``: the contenders only
    (players still in who revealed) with their hand strength, larger is
    better (see :func:`~dealer_assist.rules.hands.hand_strength`; no hand is
    -1).  ``order``: every player's name in odd-chip order, i.e. seat order
    starting left of the dealer.  ``last_standing``: the one player left when
    all others folded; they win every pot whatever they paid.  ``carried_in``:
    whole chips (>= 0) carried in from the hands before (RULES.md §4 rollover);
    they join the main pot, the first layer -- with no chips put in this hand,
    a main pot of their own that every contender may win -- and are paid with it.

    Raises ``ValueError`` for a negative or non-integer contribution or carry,
    or a contender or ordered name that is not in ``contributions``.

    Odd chips go one at a time from the dealer's left:

    >>> settle({"A": 5, "B": 5, "C": 5, "D": 2}, {"A": 9, "B": 9, "C": 9},
    ...        order=["B", "C", "D", "A"]).payouts
    {'A': 5, 'B': 6, 'C': 6, 'D': 0}
    >>> settle({"A": 5, "B": 5, "C": 5}, {"A": 9, "B": 9, "C": 9}, order="ABC",
    ...        exact=True).payouts["A"]
    Fraction(5, 1)
    >>> settle({"A": 25, "B": 25}, {"A": 9, "B": 9}, order="AB", tie_policy="rollover").carry
    50
    """
    policy = TiePolicy(tie_policy)
    for name, chips in contributions.items():
        if isinstance(chips, bool) or not isinstance(chips, int) or chips < 0:
            raise ValueError(f"contribution of {name!r} must be a whole number of chips >= 0, got {chips!r}.")
    seat = {name: i for i, name in enumerate(order)}
    for name in (*strengths, *contributions):
        if name not in seat:
            raise ValueError(f"{name!r} is missing from the odd-chip order.")
    for name in strengths:
        if name not in contributions:
            raise ValueError(f"contender {name!r} has no contribution.")
    if isinstance(carried_in, bool) or not isinstance(carried_in, int) or carried_in < 0:
        raise ValueError(f"chips carried in must be a whole number of chips >= 0, got {carried_in!r}.")
    if last_standing is not None and last_standing not in contributions:
        raise ValueError(f"last player standing {last_standing!r} has no contribution.")

    # Layers: (amount, eligible) for each distinct contribution level, merged.
    layers: list[list] = []  # [amount, eligible tuple]
    previous = 0
    for level in sorted({c for c in contributions.values() if c > 0}):
        amount = sum(min(c, level) - min(c, previous) for c in contributions.values())
        if last_standing is not None:
            eligible: tuple[str, ...] = (last_standing,)
        else:
            eligible = tuple(
                sorted((n for n in strengths if contributions[n] >= level), key=seat.__getitem__)
            )
        if layers and (layers[-1][1] == eligible or not eligible):
            layers[-1][0] += amount  # same contenders, or nobody: joins the pot below
        else:
            layers.append([amount, eligible])
        previous = level
    if carried_in:  # the carried pot joins this hand's main pot (RULES.md §4)
        if layers:
            layers[0][0] += carried_in
        else:
            layers.append([carried_in, (last_standing,) if last_standing is not None
                           else tuple(sorted(strengths, key=seat.__getitem__))])

    zero: Chips = Fraction(0) if exact else 0
    payouts: dict[str, Chips] = {name: zero for name in contributions}
    carry: Chips = zero
    pots: list[Pot] = []
    for i, (amount, eligible) in enumerate(layers):
        carried = carried_in if i == 0 else 0
        if not eligible:
            pots.append(Pot(amount, (), (), carried))
            carry += amount
            continue
        top = max(strengths.get(n, -1) for n in eligible)
        winners = tuple(n for n in eligible if strengths.get(n, -1) == top)
        pots.append(Pot(amount, eligible, winners, carried))
        if len(winners) > 1 and policy is TiePolicy.ROLLOVER:
            carry += amount
        elif exact:
            for n in winners:
                payouts[n] += Fraction(amount, len(winners))
        else:
            for n, chips in split_chips(amount, winners).items():  # winners are already from the dealer's left
                payouts[n] += chips
    return Settlement(tuple(pots), payouts, carry, carried_in)


def split_chips(amount, winners: Sequence[str]) -> dict[str, Chips]:
    """``amount`` chips shared by ``winners``, given in odd-chip order (seat order from the dealer's
    left): equal shares, odd chips one at a time in that order (RULES.md §4); a fraction of a chip
    (an exact settlement) is shared exactly. Empty when there is nobody or nothing to share.

    >>> split_chips(11, ["B", "C", "A"])
    {'B': 4, 'C': 4, 'A': 3}
    """
    if not winners or not amount:
        return {}
    if isinstance(amount, Fraction) and amount.denominator != 1:
        return {n: amount / len(winners) for n in winners}
    share, odd = divmod(int(amount), len(winners))
    return {n: share + (1 if i < odd else 0) for i, n in enumerate(winners)}
