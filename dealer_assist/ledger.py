"""The session ledger: who put in and won how many chips over the logged hands,
buy-ins and rake, and the fewest transfers that settle everyone (RULES.md §4).

Pure computation over hand-log records (the dicts that
:func:`dealer_assist.live.history.iter_log` yields; reading the file stays there),
summed one record at a time (:class:`LedgerBuilder`), so a log of any length
costs memory by its players, not its hands.

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
  (whole chips) wins over them.  The ``ante`` option is not charged on an
  Indian poker hand: its ante (RULES.md §7.1, 1 chip) is in its chips already,
  paid with its pot as the table was shown (charging it again credited the
  winner the antes beside the pot's payout); its rake is.
* **rollover carry** (RULES.md §4): chips carried out of a hand (a tied pot
  under the rollover policy, a pot nobody could win, rolled antes) join the
  next decided hand of the same live session and go to its winners, or roll on
  (hands of other sessions in between -- two tables writing one log -- change nothing).
  A record whose ``settlement.carried_in`` says the rules settled chips carried in
  (live logs it since the pot carried in is paid by the rules, in ``payouts``) has
  them paid already: the ledger pays only what the log lacks -- the antes, and the
  part of its own carry the record does not hold (all of it for a log written
  before ``carried_in``, which left the carry out of ``payouts``); chips a record
  says were carried in beyond the ledger's carry (the hand before it is in no
  log read) count as carried in from before, like ``since``'s.
  Chips still carried when a session's log ends are the *open carry*: neither
  lost nor created, they sit in the carried pot.

Chips are conserved: ``sum(net) + rake + carried_out - carried_in == 0``
(``carried_in``: chips carried into the first counted hand from hands before
``since``).  Records are checked by the hand log's one validator
(:func:`dealer_assist.live.log_record.check_record`) when they were not read
through it; one that fails is left out with its sentence, never raised.  Splits are in whole chips with odd chips one at a time from the
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
>>> ledger.rake, ledger.carried_out, [(str(t.payer), str(t.payee), t.amount) for t in ledger.transfers]
(6, 0, [('A', 'B', 9), ('A', 'organiser', 6)])
>>> ledger.transfers[1].payee.kind
<PartyKind.HOUSE: 'house'>

The house and the carried pot are parties of their own kind (:class:`PartyKind`),
never names: a seat called "organiser" is a player with a balance of its own.

**Indian poker meetings** (RULES.md §7.5): the Indian poker hands (``"game":
"indian"``) of one live session form a :class:`Meeting`; the deal moves one
seat left each hand, and once every player of the meeting has dealt once the
balances over its hands are compared: the largest wins the meeting, equal
leaders share it.  A hand whose dealer has dealt already in a finished
meeting starts the next meeting.  The pot is only redistributed, so the
meeting's balances add up to 0 (with no ante or rake option given).
"""

from __future__ import annotations

import heapq
from collections import deque
from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum, unique
from typing import Any, Iterable, Mapping, Sequence

from dealer_assist.live.history import record_input
from dealer_assist.live.log_record import MAX_CHIPS, CheckedRecord, Chips, check_record, parse_chips, record_time
from dealer_assist.rules import Game, from_dealers_left, split_chips

__all__ = [
    "PartyKind",
    "Party",
    "ORGANISER",
    "CARRIED_POT",
    "EXACT_PARTIES",
    "MAX_CHIPS",
    "MAX_SKIPPED_KEPT",
    "Chips",
    "Meeting",
    "PlayerLedger",
    "Transfer",
    "Ledger",
    "LedgerBuilder",
    "build_ledger",
    "hand_identity",
    "fewest_transfers",
    "parse_chips",
    "record_time",
]


@unique
class PartyKind(StrEnum):
    """Who a balance belongs to: a seat at the table, or one of the two parties that are no player.

    Kinds, not names: a seat called ``organiser`` or ``carried pot`` is a ``player`` and is never
    summed with the house or the carried pot.
    """

    PLAYER = "player"
    #: the organiser: keeps the rake (seed 000: "Рейк — комиссия организатора")
    HOUSE = "house"
    #: chips still carried over at the end, or carried in from hands before ``since`` (RULES.md §4)
    CARRIED_POT = "carried pot"


@dataclass(frozen=True, slots=True)
class Party:
    """One side of a transfer: its kind and its name (a player's name as logged; the label of the
    house or of the carried pot). Two parties are the same only with the same kind and name."""

    kind: PartyKind
    name: str

    def __str__(self) -> str:
        return self.name

    @property
    def is_player(self) -> bool:
        return self.kind is PartyKind.PLAYER


#: The party that receives the rake in the transfers.
ORGANISER = Party(PartyKind.HOUSE, "organiser")
#: The party that holds chips still carried over (or, when negative, that paid out
#: chips carried in from before ``since``).
CARRIED_POT = Party(PartyKind.CARRIED_POT, "carried pot")
#: Up to this many parties with a balance the fewest transfers are found exactly
#: (10 players, the organiser and the carried pot); beyond, a greedy method.
EXACT_PARTIES = 12
#: Sentences about records left out that a ledger keeps (the rest are counted in ``skipped_count``),
#: so a log of a million bad records does not hold a million sentences.
MAX_SKIPPED_KEPT = 100


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

    @property
    def party(self) -> Party:
        return Party(PartyKind.PLAYER, self.name)


@dataclass(frozen=True, slots=True)
class Transfer:
    """``payer`` gives ``payee`` ``amount`` chips (> 0) to settle the ledger (parties: :class:`Party`
    in a :class:`Ledger`; whatever keys the balances had in :func:`fewest_transfers`)."""

    payer: Any
    payee: Any
    amount: Chips


@dataclass(frozen=True, slots=True)
class Meeting:
    """One meeting of Indian poker (RULES.md §7.5): the Indian hands of one live session, until every
    player has dealt once.

    ``players``: everyone dealt into its hands, in order of first appearance; ``dealt``: who has dealt,
    in the order they did; ``nets``: each player's balance over the meeting's hands (chips won minus
    chips put in, the ledger's rake too when ``--rake`` is given: an Indian hand's ante is in its chips), in
    ``players`` order.
    """

    session: Any
    hands: int
    players: tuple[str, ...]
    dealt: tuple[str, ...]
    nets: dict[str, Chips]

    @property
    def complete(self) -> bool:
        """Every player of the meeting has dealt once: the balances are compared."""
        return all(p in self.dealt for p in self.players)

    @property
    def to_deal(self) -> tuple[str, ...]:
        """Players who have not dealt yet (the meeting is not over while any is left)."""
        return tuple(p for p in self.players if p not in self.dealt)

    @property
    def leaders(self) -> tuple[str, ...]:
        """The largest balance, in ``players`` order: the meeting's winners once it is complete (equal
        leaders share it), the leaders so far before."""
        if not self.nets:
            return ()
        top = max(self.nets.values())
        return tuple(p for p in self.players if self.nets.get(p) == top)


@dataclass(frozen=True, slots=True)
class Ledger:
    """The ledger of the counted hands.

    ``players`` in order of first appearance in the log.  ``hands``: decided
    hands counted.  ``not_decided``: records of hands that were not decided
    (left out, their carry passes on).  ``skipped``: sentences about records
    that could not be counted (chips that do not add up, a field of the wrong
    type, no readable time with ``since``), the first :data:`MAX_SKIPPED_KEPT`
    of ``skipped_count``.  ``rake``: chips the organiser keeps.
    ``carried_in`` / ``carried_out``: chips carried into the first counted
    hand of a session from before ``since`` / still carried at the end of the
    sessions.  ``transfers`` settle every balance (players' nets, the
    organiser's rake, the carried pot) between :class:`Party` objects;
    ``fewest`` tells whether their number was proved the smallest (exact
    method) or found greedily.
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
    skipped_count: int = 0
    name_warnings: tuple[str, ...] = ()
    #: Indian poker meetings (RULES.md §7.5), in log order; none when no Indian hand was counted.
    meetings: tuple[Meeting, ...] = ()

    def player(self, name: str) -> PlayerLedger:
        """The line of the player called ``name`` (``KeyError`` if none)."""
        for p in self.players:
            if p.name == name:
                return p
        raise KeyError(name)

    def balances(self) -> dict[Party, Chips]:
        """What each party is owed (> 0) or owes (< 0): players' nets, the organiser's rake, the carried
        pot's ``carried_out - carried_in``, keyed by :class:`Party` (a player named "organiser" is
        not the organiser); they add up to 0."""
        out: dict[Party, Chips] = {p.party: p.net for p in self.players}
        out[ORGANISER] = self.rake
        out[CARRIED_POT] = self.carried_out - self.carried_in
        return out


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
    #: chips the rules settled as carried in (the record's ``settlement.carried_in``; 0 in a log written before it)
    logged_carry_in: Chips = 0
    order: list[str] = field(default_factory=list)
    game: Game = Game.HOLDEM
    dealer: str | None = None


def _check_option(name: str, value: object) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_CHIPS:
        shown = value if not isinstance(value, int) or value.bit_length() < 64 else f"a {value.bit_length()}-bit number"
        raise ValueError(f"{name} must be a whole number of chips from 0 to {MAX_CHIPS:,}, got {shown!r}.")


class LedgerBuilder:
    """The ledger, summed one record at a time (memory: one line per player, not the records).

    ``add(record)`` for each record in log order, then :meth:`ledger` (any number of times, e.g.
    after each new hand of a followed log).  :func:`build_ledger` is this over a sequence.

    Raises ``ValueError`` (at construction) for an ante or rake that is not whole chips
    0..MAX_CHIPS, or a naive ``since``.
    """

    def __init__(self, *, ante: int = 0, rake: int = 0, since: datetime | None = None) -> None:
        _check_option("ante", ante)
        _check_option("rake", rake)
        if since is not None and since.tzinfo is None:
            raise ValueError("since must carry a time zone (an aware datetime).")
        self.ante, self.rake, self.since = ante, rake, since
        self._lines: dict[str, dict[str, Any]] = {}
        self._seen: set[tuple[Any, ...]] = set()
        self._skipped: list[str] = []
        self._skipped_count = 0
        self._not_decided = 0
        self._hands = 0
        self._rake: Chips = 0
        self._carried_in: Chips = 0
        self._carried_out: Chips = 0
        # per live session (two tables may write one log, their hands interleaved): the chips carried into
        # its next hand, whether its last decided hand was counted, and that hand's carry ("open": carried
        # out at the end unless the session's next hand counts)
        self._runs: dict[Any, dict[str, Any]] = {}
        self._meetings: list[dict[str, Any]] = []  # Indian poker meetings: session, hands, players, dealt, nets
        self._meeting_of: dict[Any, dict[str, Any]] = {}  # each session's current meeting

    def _skip(self, record: Mapping[str, Any], why: str) -> None:
        self._skipped_count += 1
        if len(self._skipped) < MAX_SKIPPED_KEPT:
            self._skipped.append(f"hand {_label(record)}: {why}")

    def add(self, record: Mapping[str, Any]) -> None:
        """Count one record (a hand-log record; one that did not pass the log's validator is checked here)."""
        if not isinstance(record, CheckedRecord):
            checked, problem = check_record(dict(record) if isinstance(record, Mapping) else record)
            if checked is None:
                self._skip(record if isinstance(record, Mapping) else {}, f"{problem}; left out.")
                return
            record = checked
        if record.get("status") != "showdown":
            when = record_time(record.get("finished"))
            if self.since is None or when is None or when >= self.since:
                self._not_decided += 1
            return
        try:
            hand = _hand(record, self.ante, self.rake, self.since)
        except ValueError as error:
            self._skip(record, f"{error}; left out.")
            return
        # one hand of one live session logged twice (a copied line, logs joined by hand, a kept hand appended
        # twice): counted once. A copy has the hand's times, chips and serials too: two hands that share a
        # number (a restarted live went on with the session while hands it could not log waited in the
        # fallback file) both count
        copy = hand_identity(record)
        if hand.session is not None and hand.key[1] is not None and copy in self._seen:
            self._skip(record, "logged again (the same session, hand number, times, chips and notes); the copy "
                               "is left out.")
            return
        self._seen.add(copy)
        self._count(hand)

    def _count(self, hand: _Hand) -> None:
        run = self._runs.get(hand.session)
        new_session = run is None
        if run is None:  # a new live session: nothing is carried into its first hand
            run = self._runs[hand.session] = {"carry": 0, "counted": False, "open": 0}
        # the session's previous counted hand's carry is carried out unless this hand counts
        if run["counted"] and not hand.counted:
            self._carried_out += run["open"]
        previous_counted = run["counted"]
        run["open"] = 0
        carry_in = run["carry"]
        # the carry the rules already paid (in the record's payouts) is not paid again; more than the ledger
        # carried (the hand before is in no log read) came from before, as with since
        unpaid = max(carry_in - hand.logged_carry_in, 0)
        from_before = max(hand.logged_carry_in - carry_in, 0)
        extra = unpaid + hand.ante * len(hand.dealt)  # joins the main pot: to the hand's winners
        shares = {} if hand.rolls_over else split_chips(extra, hand.order)
        run["carry"] = hand.pot_carry + (extra if hand.rolls_over else 0)
        run["counted"] = hand.counted
        if not hand.counted:
            return
        if new_session or not previous_counted:
            self._carried_in += carry_in
        self._carried_in += from_before
        run["open"] = run["carry"]
        self._hands += 1
        meeting = self._meeting(hand) if hand.game is Game.INDIAN else None
        for name in hand.dealt:
            entry = self._lines.setdefault(name, {"hands_played": 0, "hands_won": 0, "put_in": 0, "buy_ins": 0,
                                                  "won": 0})
            entry["hands_played"] += 1
            entry["put_in"] += hand.put_in.get(name, 0)
            entry["buy_ins"] += hand.ante + hand.rake
            entry["won"] += hand.payouts.get(name, 0) + shares.get(name, 0)
            if name in hand.winners and not hand.rolls_over:
                entry["hands_won"] += 1
            if meeting is not None:
                meeting["nets"][name] = meeting["nets"].get(name, 0) + hand.payouts.get(name, 0) + shares.get(
                    name, 0) - hand.put_in.get(name, 0) - hand.ante - hand.rake
        self._rake += hand.rake * len(hand.dealt)

    def carry_into(self, session: Any) -> Chips:
        """Chips carried into the next hand of ``session`` after the records added so far (a tied pot
        rolled over, a pot nobody could win, rolled antes; RULES.md §4); 0 for a session with no decided hand.
        A restarted ``live`` goes on with them (:func:`dealer_assist.live.night.continue_session`)."""
        run = self._runs.get(session)
        return 0 if run is None else run["carry"]

    def _meeting(self, hand: _Hand) -> dict[str, Any]:
        """The Indian poker meeting ``hand`` belongs to (RULES.md §7.5): its session's current one, or a new
        one when there is none, or when that one is over and this hand's dealer has dealt in it already."""
        current = self._meeting_of.get(hand.session)
        if current is not None:
            over = all(p in current["dealt"] for p in current["players"])
            if not (over and hand.dealer in current["dealt"]):
                meeting = current
            else:
                meeting = None
        else:
            meeting = None
        if meeting is None:
            meeting = {"session": hand.session, "hands": 0, "players": [], "dealt": [], "nets": {}}
            self._meetings.append(meeting)
            self._meeting_of[hand.session] = meeting
        meeting["hands"] += 1
        for name in hand.dealt:
            if name not in meeting["players"]:
                meeting["players"].append(name)
        if hand.dealer is not None and hand.dealer not in meeting["dealt"]:
            meeting["dealt"].append(hand.dealer)
        return meeting

    def ledger(self) -> Ledger:
        """The ledger of the records added so far (the transfers found anew)."""
        players = tuple(PlayerLedger(name, **entry) for name, entry in self._lines.items())
        carried_out = self._carried_out + sum(run["open"] for run in self._runs.values())
        ledger = Ledger(players, self._hands, self._not_decided, tuple(self._skipped), self._rake,
                        self._carried_in, carried_out, (), True, self.ante, self.rake, self._skipped_count)
        transfers, fewest = fewest_transfers(ledger.balances())
        meetings = tuple(Meeting(m["session"], m["hands"], tuple(m["players"]), tuple(m["dealt"]),
                                 {p: m["nets"].get(p, 0) for p in m["players"]}) for m in self._meetings)
        return Ledger(players, ledger.hands, ledger.not_decided, ledger.skipped, ledger.rake, ledger.carried_in,
                      ledger.carried_out, tuple(transfers), fewest, self.ante, self.rake, self._skipped_count,
                      name_warnings(p.name for p in players), meetings)


#: Names a seat may have that read like the two parties that are no player (compared by their look,
#: :func:`dealer_assist.names.skeleton`): such a seat is still a player, with a warning.
PARTY_LIKE_NAMES = {
    PartyKind.HOUSE: ("organiser", "organizer", "house", "the house", "rake", "organiser (rake)",
                      "organiser (house: rake)"),
    PartyKind.CARRIED_POT: ("carried pot", "carried", "pot", "carry", "carried pot (rolled-over chips)"),
}


def name_warnings(names: Iterable[str]) -> tuple[str, ...]:
    """Sentences about players' names that could be read as someone else's: names that look alike
    (:func:`dealer_assist.names.look_alikes`: case, spaces, letters of another script) and names that read
    like the house or the carried pot. The ledger still counts each name as its own player."""
    from dealer_assist.names import look_alikes, skeleton

    names = list(names)
    out = []
    for group in look_alikes(names):
        shown = " and ".join(_described(n) for n in group)
        out.append(f"players {shown} look alike but are counted as {len(group)} different players; "
                   f"check the seat names.")
    reserved = {skeleton(label): kind for kind, labels in PARTY_LIKE_NAMES.items() for label in labels}
    for name in names:
        kind = reserved.get(skeleton(name))
        if kind is PartyKind.HOUSE:
            out.append(f"a player is named {_described(name)}, like the organiser (the house, who keeps the rake); "
                       f"the player is counted apart from the house.")
        elif kind is PartyKind.CARRIED_POT:
            out.append(f"a player is named {_described(name)}, like the carried pot (rolled-over chips); "
                       f"the player is counted apart from it.")
    return tuple(out)


def _described(name: str) -> str:
    """A name quoted, with its characters that are not ASCII named (a Cyrillic А in a Latin name shows)."""
    import unicodedata

    shown = repr(name if len(name) <= 40 else name[:40] + "…")
    odd = []
    for ch in dict.fromkeys(name):
        if not ch.isascii() or not ch.isprintable():
            odd.append(unicodedata.name(ch, f"U+{ord(ch):04X}"))
    if name != name.strip():
        odd.append("spaces at an end")
    return shown + (f" ({', '.join(odd[:3])})" if odd else "")


def hand_identity(record: Mapping[str, Any]) -> tuple:
    """What makes two hand-log records one hand logged twice: its session, hand number, start and finish
    times, the chips each player put in and the notes' serials (README: the ledger takes a record for a
    copy only when all of these are the same). Two hands of one session may share a number (a restarted
    ``live`` went on while hands waited in the fallback file) and are still two hands. ``record``: a
    checked record (:func:`~dealer_assist.live.log_record.check_record`); ``ValueError`` for chips that
    are not chips."""
    notes = record.get("notes") or []
    put_in = sorted((name, parse_chips(c)) for name, c in (record.get("chips") or {}).items())
    return (record.get("session"), record.get("hand"), record.get("started"), record.get("finished"),
            tuple(put_in), tuple(n.get("serial") for n in notes if isinstance(n, Mapping)))


def build_ledger(records: Iterable[Mapping[str, Any]], *, ante: int = 0, rake: int = 0,
                 since: datetime | None = None) -> Ledger:
    """The ledger of hand-log ``records`` in log order (see the module doc); a stream is read once,
    record by record (:class:`LedgerBuilder`).

    ``ante`` / ``rake``: chips each player dealt into a hand pays as ante and as
    rake, for records without their own ``ante`` / ``rake`` (whole chips 0..MAX_CHIPS).
    ``since``: an aware datetime; only hands that finished at or after it are
    counted (hands before it still pass their carry on).

    Raises ``ValueError`` for an ante or rake out of range or a naive ``since``.
    Records that cannot be counted are listed in :attr:`Ledger.skipped`, never raised.
    """
    builder = LedgerBuilder(ante=ante, rake=rake, since=since)
    for record in records:
        builder.add(record)
    return builder.ledger()


def _label(record: Mapping[str, Any]) -> str:
    hand, session = record.get("hand"), record.get("session")
    text = f"{hand}" if isinstance(hand, int) and not isinstance(hand, bool) and 0 <= hand <= 10**9 else "?"
    return text + (f" of session {session[:40]}" if isinstance(session, str) else "")


def _hand(record: Mapping[str, Any], ante: int, rake: int, since: datetime | None) -> _Hand:
    """The flows of one decided hand (a checked record); ``ValueError`` saying why it cannot be counted."""
    counted = True
    if since is not None:
        when = record_time(record.get("finished"))
        if when is None:
            raise ValueError("no readable finish time to compare with --since")
        counted = when >= since
    put_in = {name: parse_chips(c) for name, c in (record.get("chips") or {}).items()}
    settlement = record.get("settlement")
    if settlement is None:
        if any(put_in.values()):
            raise ValueError("chips were put in but no settlement is logged")
        payouts, pot_carry = {}, 0
    else:
        payouts = {name: parse_chips(c) for name, c in (settlement.get("payouts") or {}).items()}
        pot_carry = parse_chips(settlement.get("carry", 0))
    logged_carry_in = parse_chips((settlement or {}).get("carried_in", 0))
    paid, received = sum(put_in.values()), sum(payouts.values()) + pot_carry
    if paid + logged_carry_in != received:
        if logged_carry_in:
            raise ValueError(f"its payouts and carry ({received}) do not add up to the chips put in ({paid}) and "
                             f"carried in ({logged_carry_in})")
        raise ValueError(f"its payouts and carry ({received}) do not add up to the chips put in ({paid})")
    winners = list(record.get("winners") or [])
    folded = list(record.get("folded") or [])
    source = record_input(dict(record)) or {}  # a log written before the input kept every seat: put back
    seats = [p["name"] for p in source.get("players", [])]
    best = record.get("best_hands") or {}
    if seats and (strangers := [w for w in [*winners, *payouts] if w not in seats]):
        raise ValueError(f"{strangers[0][:40]!r} is named a winner but is not a player of the hand")
    dealt: list[str] = []
    for name in [*seats, *put_in, *folded, *best, *winners, *payouts]:
        if name not in dealt:
            dealt.append(name)
    policy = record.get("tie_policy") or source.get("tie_policy") or "split"
    rolls_over = not winners or (policy == "rollover" and len(winners) > 1)
    dealer = record.get("dealer") if record.get("dealer") is not None else source.get("dealer")
    game = Game(record.get("game") or source.get("game") or Game.HOLDEM.value)
    return _Hand(
        key=(record.get("session"), record.get("hand")), session=record.get("session"), counted=counted,
        dealt=dealt, winners=winners, put_in=put_in, payouts=payouts, pot_carry=pot_carry,
        logged_carry_in=logged_carry_in,
        # an Indian hand's ante is in its chips (RULES.md §7.1, §7.3): the option is Hold'em's buy-in ante
        ante=(0 if game is Game.INDIAN else ante) if record.get("ante") is None else record["ante"],
        rake=rake if record.get("rake") is None else record["rake"], rolls_over=rolls_over,
        # odd chips from the button among the hand's seats, as the rules placed it (the input's dealer)
        order=_from_dealers_left(winners, seats, source.get("dealer") or dealer), game=game, dealer=dealer,
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
    """Pairs of opposite equal amounts (each with the first free opposite after it), then everything else
    as one group. Amounts are looked up by value, so a log of thousands of players settles in
    milliseconds (a scan of every pair took minutes for 20,000)."""
    waiting: dict[Chips, deque[int]] = {}
    for i, amount in enumerate(amounts):
        waiting.setdefault(amount, deque()).append(i)
    groups: list[list[int]] = []
    used: set[int] = set()
    for i, amount in enumerate(amounts):
        if i in used:
            continue
        opposite = waiting.get(-amount)
        while opposite and (opposite[0] <= i or opposite[0] in used):
            opposite.popleft()  # an earlier free one would have been paired with i already
        if opposite:
            j = opposite.popleft()
            groups.append([i, j])
            used.update((i, j))
    rest = [i for i in range(len(amounts)) if i not in used]
    if rest:
        groups.append(rest)
    return groups


def _transfers_within(group: Sequence[tuple[str, Chips]]) -> list[Transfer]:
    """Settle a group that adds up to 0: the largest debtor pays the largest creditor, in turn (equal
    amounts in the group's order); two heaps, so thousands of parties settle in milliseconds."""
    owed = [(-amount, i, name) for i, (name, amount) in enumerate(group) if amount > 0]
    owing = [(amount, i, name) for i, (name, amount) in enumerate(group) if amount < 0]
    heapq.heapify(owed)
    heapq.heapify(owing)
    out: list[Transfer] = []
    while owed and owing:
        credit, ci, payee = heapq.heappop(owed)
        debt, di, payer = heapq.heappop(owing)
        amount = min(-credit, -debt)
        out.append(Transfer(payer, payee, amount))
        if -credit > amount:
            heapq.heappush(owed, (credit + amount, ci, payee))
        if -debt > amount:
            heapq.heappush(owing, (debt + amount, di, payer))
    return out
