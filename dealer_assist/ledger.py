"""The session ledger: who put in and won how many chips over the logged hands,
buy-ins and rake, and the fewest transfers that settle everyone (RULES.md §4).

Pure computation over hand-log records (the dicts that
:func:`dealer_assist.live.history.read_log` returns; reading the file stays there).

What a hand moves, per record (``status`` ``"showdown"``: a decided hand):

* **chips put in**: the logged ``chips`` (each player's contribution to the pot);
* **pot payouts**: ``settlement.payouts``; ``settlement.carry`` is rolled over;
* **buy-in**: seed 000 defines "Бай-ин — стоимость входа в игру Анте + Рейк"
  (buy-in: the price of entering the game, ante + rake) and "Рейк — комиссия
  организатора" (rake: the organiser's commission); "после деления банка игра
  считается законченной, а организатор автоматически возвращает Анте
  победителю" (once the pot is divided the game is over and the organiser
  returns the ante to the winner).  So every player dealt into a hand pays
  ``ante + rake``; the rake stays with the organiser; the hand's antes go to its
  winners (:data:`hands won <PlayerLedger.hands_won>`), split like a pot, or roll
  over with a tied pot.  The log has no ante or rake fields today, so both
  default to 0 and are given as options; a record's own ``ante`` / ``rake``
  (whole chips) wins over them.
* **rollover carry** (RULES.md §4): chips carried out of a hand (a tied pot
  under the rollover policy, a pot nobody could win, rolled antes) join the
  next decided hand of the same live session and go to its winners, or roll on.
  Chips still carried when a session's log ends are the *open carry*: neither
  lost nor created, they sit in the carried pot.

Chips are conserved: ``sum(net) + rake + carried_out - carried_in == 0``
(``carried_in``: chips carried into the first counted hand from hands before
``since``).  Splits are in whole chips with odd chips one at a time from the
dealer's left (seat order of the logged hand), as the pots are.

>>> records = [
...     {"session": "s", "hand": 1, "status": "showdown", "tie_policy": "split", "winners": ["A"],
...      "chips": {"A": 10, "B": 10}, "settlement": {"payouts": {"A": 20, "B": 0}, "carry": 0}},
...     {"session": "s", "hand": 2, "status": "showdown", "tie_policy": "rollover", "winners": ["A", "B"],
...      "chips": {"A": 5, "B": 5}, "settlement": {"payouts": {"A": 0, "B": 0}, "carry": 10}},
...     {"session": "s", "hand": 3, "status": "showdown", "tie_policy": "split", "winners": ["B"],
...      "chips": {"A": 15, "B": 15}, "settlement": {"payouts": {"A": 0, "B": 30}, "carry": 0}}]

With an ante of 2 and a rake of 1 a hand costs each player a buy-in of 3.  A wins
the pot of hand 1 (20) and its antes (4); hand 2 ties under rollover, so its pot
(10) and antes (4) are carried; B wins hand 3's pot (30), its antes (4) and the
14 carried chips:

>>> ledger = build_ledger(records, ante=2, rake=1)
>>> [(p.name, p.hands_won, p.put_in, p.buy_ins, p.won, p.net) for p in ledger.players]
[('A', 1, 30, 9, 24, -15), ('B', 1, 30, 9, 48, 9)]
>>> ledger.rake, ledger.carried_out, [(t.payer, t.payee, t.amount) for t in ledger.transfers]
(6, 0, [('A', 'B', 9), ('A', 'organiser', 6)])
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from fractions import Fraction
from typing import Any, Iterable, Mapping, Sequence

from dealer_assist.rules import from_dealers_left, split_chips

__all__ = [
    "ORGANISER",
    "CARRIED_POT",
    "EXACT_PARTIES",
    "Chips",
    "PlayerLedger",
    "Transfer",
    "Ledger",
    "build_ledger",
    "fewest_transfers",
    "parse_chips",
]

Chips = int | Fraction

#: The party that receives the rake in the transfers.
ORGANISER = "organiser"
#: The party that holds chips still carried over (or, when negative, that paid out
#: chips carried in from before ``since``).
CARRIED_POT = "carried pot"
#: Up to this many parties with a balance the fewest transfers are found exactly
#: (10 players, the organiser and the carried pot); beyond, a greedy method.
EXACT_PARTIES = 12


@dataclass(frozen=True, slots=True)
class PlayerLedger:
    """One player over the counted hands, in chips.

    ``hands_played``: hands the player was dealt into (seen in the record's
    chips, folds, hands or result); ``hands_won``: hands whose winners (best
    hand, or last player standing) include the player, a shared pot counting
    for each winner and a rolled-over tie for nobody; ``put_in``: chips put in
    pots; ``buy_ins``: antes plus rake paid (seed 000: buy-in = ante + rake);
    ``won``: chips received (pot payouts, the antes returned to the winner,
    carried chips).  ``net = won - put_in - buy_ins``.
    """

    name: str
    hands_played: int = 0
    hands_won: int = 0
    put_in: Chips = 0
    buy_ins: Chips = 0
    won: Chips = 0

    @property
    def net(self) -> Chips:
        return self.won - self.put_in - self.buy_ins


@dataclass(frozen=True, slots=True)
class Transfer:
    """``payer`` gives ``payee`` ``amount`` chips (> 0) to settle the ledger."""

    payer: str
    payee: str
    amount: Chips


@dataclass(frozen=True, slots=True)
class Ledger:
    """The ledger of the counted hands.

    ``players`` in order of first appearance in the log.  ``hands``: decided
    hands counted.  ``not_decided``: records of hands that were not decided
    (left out, their carry passes on).  ``skipped``: sentences about records
    that could not be counted (chips that do not add up, a field of the wrong
    type, no readable time with ``since``).  ``rake``: chips the organiser
    keeps.  ``carried_in`` / ``carried_out``: chips carried into the first
    counted hand of a session from before ``since`` / still carried at the end
    of the sessions.  ``transfers`` settle every balance (players' nets, the
    organiser's rake, the carried pot); ``fewest`` tells whether their number
    was proved the smallest (exact method) or found greedily.
    """

    players: tuple[PlayerLedger, ...]
    hands: int
    not_decided: int
    skipped: tuple[str, ...]
    rake: Chips
    carried_in: Chips
    carried_out: Chips
    transfers: tuple[Transfer, ...]
    fewest: bool
    ante_per_hand: int = 0
    rake_per_hand: int = 0

    def player(self, name: str) -> PlayerLedger:
        """The line of the player called ``name`` (``KeyError`` if none)."""
        for p in self.players:
            if p.name == name:
                return p
        raise KeyError(name)

    def balances(self) -> dict[str, Chips]:
        """What each party is owed (> 0) or owes (< 0): players' nets, the organiser's
        rake, the carried pot's ``carried_out - carried_in``; they add up to 0."""
        out: dict[str, Chips] = {p.name: p.net for p in self.players}
        out[ORGANISER] = out.get(ORGANISER, 0) + self.rake
        out[CARRIED_POT] = out.get(CARRIED_POT, 0) + self.carried_out - self.carried_in
        return out


#: The most chips one record's field may hold: more is a damaged or forged log, not a game.
MAX_CHIPS = 10**12


def parse_chips(value: object) -> Chips:
    """Chips as the log writes them: a whole number >= 0, or ``"a/b"`` (an exact share).

    Raises ``ValueError`` otherwise.

    >>> parse_chips(25), parse_chips("17/3"), parse_chips("6")
    (25, Fraction(17, 3), 6)
    """
    if isinstance(value, bool):
        raise ValueError(f"{str(value).lower()} is not a number of chips")
    if isinstance(value, int) and 0 <= value <= MAX_CHIPS:
        return value
    if isinstance(value, int) and value > MAX_CHIPS:
        raise ValueError(f"a number of chips over {MAX_CHIPS:,} ({len(str(value))} digits)")
    if isinstance(value, str) and len(value) <= 40 and value.replace("/", "", 1).isdigit() and value.isascii():
        chips = Fraction(value)
        return chips.numerator if chips.denominator == 1 else chips
    shown = repr(value) if isinstance(value, str) else str(value)
    raise ValueError(f"{shown[:20]} is not a number of chips")


@dataclass
class _Hand:
    """One decided hand's flows: what each player put in, paid, received."""

    key: tuple[Any, Any]
    session: Any
    counted: bool
    dealt: list[str]
    winners: list[str]
    put_in: dict[str, Chips]
    payouts: dict[str, Chips]
    pot_carry: Chips
    ante: int
    rake: int
    rolls_over: bool
    order: list[str] = field(default_factory=list)


def build_ledger(records: Iterable[Mapping[str, Any]], *, ante: int = 0, rake: int = 0,
                 since: datetime | None = None) -> Ledger:
    """The ledger of hand-log ``records`` in log order (see the module doc).

    ``ante`` / ``rake``: chips each player dealt into a hand pays as ante and as
    rake, for records without their own ``ante`` / ``rake`` (whole chips >= 0).
    ``since``: an aware datetime; only hands that finished at or after it are
    counted (hands before it still pass their carry on).

    Raises ``ValueError`` for a negative ante or rake or a naive ``since``.
    Records that cannot be counted are listed in :attr:`Ledger.skipped`, never raised.
    """
    for name, value in (("ante", ante), ("rake", rake)):
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise ValueError(f"{name} must be a whole number of chips >= 0, got {value!r}.")
    if since is not None and since.tzinfo is None:
        raise ValueError("since must carry a time zone (an aware datetime).")

    hands: list[_Hand] = []
    skipped: list[str] = []
    seen: set[tuple[Any, Any]] = set()
    not_decided = 0
    for record in records:
        if record.get("status") != "showdown":
            when = record_time(record.get("finished"))
            if since is None or when is None or when >= since:
                not_decided += 1
            continue
        try:
            hand = _hand(record, ante, rake, since)
        except ValueError as error:
            skipped.append(f"hand {_label(record)}: {error}; left out.")
            continue
        if hand.session is not None and hand.key in seen:
            # one hand of one live session logged twice (a copied line, logs joined by hand): counted once
            skipped.append(f"hand {_label(record)}: logged again (the same session and hand number); "
                           f"the copy is left out.")
            continue
        seen.add(hand.key)
        hands.append(hand)

    lines: dict[str, dict[str, Any]] = {}

    def line(name: str) -> dict[str, Any]:
        return lines.setdefault(name, {"hands_played": 0, "hands_won": 0, "put_in": 0, "buy_ins": 0, "won": 0})

    total_rake: Chips = 0
    carried_in: Chips = 0
    carried_out: Chips = 0
    carry: Chips = 0
    for i, hand in enumerate(hands):
        previous = hands[i - 1] if i else None
        if previous is None or previous.session != hand.session:
            carry = 0  # a new live session: nothing is carried into its first hand
        following = hands[i + 1] if i + 1 < len(hands) else None
        carry_in = carry
        extra = carry_in + hand.ante * len(hand.dealt)  # joins the main pot: to the hand's winners
        shares = {} if hand.rolls_over else split_chips(extra, hand.order)
        carry = hand.pot_carry + (extra if hand.rolls_over else 0)
        if not hand.counted:
            continue
        if previous is None or previous.session != hand.session or not previous.counted:
            carried_in += carry_in
        if following is None or following.session != hand.session or not following.counted:
            carried_out += carry
        for name in hand.dealt:
            entry = line(name)
            entry["hands_played"] += 1
            entry["put_in"] += hand.put_in.get(name, 0)
            entry["buy_ins"] += hand.ante + hand.rake
            entry["won"] += hand.payouts.get(name, 0) + shares.get(name, 0)
            if name in hand.winners and not hand.rolls_over:
                entry["hands_won"] += 1
        total_rake += hand.rake * len(hand.dealt)

    players = tuple(PlayerLedger(name, **entry) for name, entry in lines.items())
    ledger = Ledger(players, sum(h.counted for h in hands), not_decided, tuple(skipped), total_rake,
                    carried_in, carried_out, (), True, ante, rake)
    transfers, fewest = fewest_transfers(ledger.balances())
    return Ledger(players, ledger.hands, not_decided, tuple(skipped), total_rake, carried_in, carried_out,
                  tuple(transfers), fewest, ante, rake)


def _label(record: Mapping[str, Any]) -> str:
    hand, session = record.get("hand"), record.get("session")
    text = f"{hand}" if hand is not None else "?"
    return text + (f" of session {str(session)[:40]}" if session is not None else "")


def _names(value: object, what: str) -> list[str]:
    if value is None:
        return []
    if not isinstance(value, list) or not all(isinstance(n, str) for n in value):
        raise ValueError(f"{what} is not a list of names")
    return list(value)


def _chips_map(value: object, what: str) -> dict[str, Chips]:
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise ValueError(f"{what} is not an object of chips by player")
    out = {}
    for name, chips in value.items():
        try:
            out[name] = parse_chips(chips)
        except ValueError as error:
            raise ValueError(f"{what} of {str(name)[:20]!r}: {error}") from None
    return out


def _whole(record: Mapping[str, Any], key: str, default: int) -> int:
    value = record.get(key)
    if value is None:
        return default
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ValueError(f"{key} is not a whole number of chips >= 0")
    return value


def record_time(text: object) -> datetime | None:
    """A hand-log time (ISO 8601) as an aware datetime; a time without a zone is local time; None when
    it is not a time."""
    if not isinstance(text, str):
        return None
    try:
        when = datetime.fromisoformat(text)
    except ValueError:
        return None
    return when if when.tzinfo is not None else when.astimezone()  # naive: local time


def _hand(record: Mapping[str, Any], ante: int, rake: int, since: datetime | None) -> _Hand:
    """The flows of one decided hand; ``ValueError`` saying why it cannot be counted."""
    counted = True
    if since is not None:
        when = record_time(record.get("finished"))
        if when is None:
            raise ValueError("no readable finish time to compare with --since")
        counted = when >= since
    put_in = _chips_map(record.get("chips"), "chips")
    settlement = record.get("settlement")
    if settlement is None:
        if any(put_in.values()):
            raise ValueError("chips were put in but no settlement is logged")
        payouts, pot_carry = {}, 0
    else:
        if not isinstance(settlement, dict):
            raise ValueError("settlement is not an object")
        payouts = _chips_map(settlement.get("payouts"), "settlement.payouts")
        try:
            pot_carry = parse_chips(settlement.get("carry", 0))
        except ValueError as error:
            raise ValueError(f"settlement.carry: {error}") from None
    paid, received = sum(put_in.values()), sum(payouts.values()) + pot_carry
    if paid != received:
        raise ValueError(f"its payouts and carry ({received}) do not add up to the chips put in ({paid})")
    winners = _names(record.get("winners"), "winners")
    folded = _names(record.get("folded"), "folded")
    source = record.get("input") if isinstance(record.get("input"), dict) else {}
    seats = [p["name"] for p in source.get("players", []) if isinstance(p, dict) and isinstance(p.get("name"), str)]
    if seats and (strangers := [w for w in [*winners, *payouts] if w not in seats]):
        raise ValueError(f"{strangers[0]!r} is named a winner but is not a player of the hand")
    best = record.get("best_hands") if isinstance(record.get("best_hands"), dict) else {}
    dealt: list[str] = []
    for name in [*seats, *put_in, *folded, *best, *winners, *payouts]:
        if name not in dealt:
            dealt.append(name)
    policy = record.get("tie_policy", source.get("tie_policy", "split"))
    rolls_over = not winners or (policy == "rollover" and len(winners) > 1)
    return _Hand(
        key=(record.get("session"), record.get("hand")), session=record.get("session"), counted=counted,
        dealt=dealt, winners=winners, put_in=put_in, payouts=payouts, pot_carry=pot_carry,
        ante=_whole(record, "ante", ante), rake=_whole(record, "rake", rake), rolls_over=rolls_over,
        order=_from_dealers_left(winners, seats, record.get("dealer", source.get("dealer"))),
    )


def _from_dealers_left(winners: Sequence[str], seats: Sequence[str], dealer: object) -> list[str]:
    """``winners`` in the rules' odd-chip order over the logged seats (the players of the hand's
    ``input``); winners not seated there keep their order, after."""
    placed = [n for n in from_dealers_left(seats, dealer) if n in winners]
    return placed + [n for n in winners if n not in placed]


def fewest_transfers(balances: Mapping[str, Chips], *, exact_parties: int = EXACT_PARTIES
                     ) -> tuple[list[Transfer], bool]:
    """Transfers that bring every balance to 0: those owed (> 0) are paid by those who owe (< 0).

    The smallest number of transfers is the number of parties with a balance
    minus the largest number of groups they can be split into that each add up
    to 0 (each group of k settles in k - 1 transfers, and no fewer).  Finding
    those groups is NP-hard in general; up to ``exact_parties`` parties with a
    balance it is solved exactly by dynamic programming over subsets (2**n
    states), beyond that greedily: opposite equal balances are paired first,
    then the largest debtor pays the largest creditor (at most n - 1 transfers,
    not always the fewest).  Returns the transfers and whether the exact
    method was used.  Raises ``ValueError`` when the balances do not add up to 0.

    >>> moves, fewest = fewest_transfers({"A": 4, "B": 3, "C": 3, "D": -6, "E": -4})
    >>> [(t.payer, t.payee, t.amount) for t in moves], fewest
    ([('E', 'A', 4), ('D', 'B', 3), ('D', 'C', 3)], True)
    """
    parties = [(name, amount) for name, amount in balances.items() if amount != 0]
    if sum(amount for _, amount in parties) != 0:
        raise ValueError(f"balances add up to {sum(a for _, a in parties)}, not 0.")
    if len(parties) <= exact_parties:
        groups = _zero_sum_groups([a for _, a in parties])
        exact = True
    else:
        groups = _greedy_groups([a for _, a in parties])
        exact = False
    transfers: list[Transfer] = []
    for group in groups:
        transfers.extend(_transfers_within([parties[i] for i in group]))
    return transfers, exact


def _zero_sum_groups(amounts: Sequence[Chips]) -> list[list[int]]:
    """The most groups of indices, each adding up to 0, that partition ``amounts`` (which add up to 0).

    ``best[mask]``: the most zero-sum points along some order of removing the
    members of ``mask`` one by one; the members removed between two such points
    form a group.
    """
    n = len(amounts)
    size = 1 << n
    total: list[Chips] = [0] * size
    for mask in range(1, size):
        low = mask & -mask
        total[mask] = total[mask ^ low] + amounts[low.bit_length() - 1]
    best = [0] * size
    pick = [0] * size
    for mask in range(1, size):
        top, chosen, rest = -1, 0, mask
        while rest:
            low = rest & -rest
            if best[mask ^ low] > top:
                top, chosen = best[mask ^ low], low
            rest ^= low
        best[mask] = top + (total[mask] == 0)
        pick[mask] = chosen
    groups: list[list[int]] = []
    group: list[int] = []
    mask = size - 1
    while mask:
        low = pick[mask]
        group.append(low.bit_length() - 1)
        mask ^= low
        if total[mask] == 0:
            groups.append(sorted(group))
            group = []
    return sorted(groups)


def _greedy_groups(amounts: Sequence[Chips]) -> list[list[int]]:
    """Pairs of opposite equal amounts, then everything else as one group."""
    groups: list[list[int]] = []
    free = list(range(len(amounts)))
    used: set[int] = set()
    for i in free:
        if i in used:
            continue
        for j in free:
            if j > i and j not in used and amounts[i] + amounts[j] == 0:
                groups.append([i, j])
                used.update((i, j))
                break
    rest = [i for i in free if i not in used]
    if rest:
        groups.append(rest)
    return groups


def _transfers_within(group: Sequence[tuple[str, Chips]]) -> list[Transfer]:
    """Settle a group that adds up to 0: the largest debtor pays the largest creditor, in turn."""
    owed = [[amount, name] for name, amount in group if amount > 0]
    owing = [[-amount, name] for name, amount in group if amount < 0]
    order = {name: i for i, (name, _) in enumerate(group)}
    out: list[Transfer] = []
    while owed and owing:
        owed.sort(key=lambda x: (-x[0], order[x[1]]))
        owing.sort(key=lambda x: (-x[0], order[x[1]]))
        credit, debt = owed[0], owing[0]
        amount = min(credit[0], debt[0])
        out.append(Transfer(debt[1], credit[1], amount))
        credit[0] -= amount
        debt[0] -= amount
        owed = [x for x in owed if x[0]]
        owing = [x for x in owing if x[0]]
    return out
