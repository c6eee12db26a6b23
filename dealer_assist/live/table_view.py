"""The hand at the table, as the camera and the croupier know it (RULES.md §1-5): what is shown and decided.

Pure: no clocks, no files, no images. The inputs are the notes the tracker
follows (:class:`~.table_state.NoteInfo`, each already placed in a zone of the
calibration) and the croupier's decisions (:class:`~.table_state.TableState`).
:func:`table_view` combines them into a :class:`TableView`:
the board and every seat's notes with the serial that plays (typed by the
croupier, else trusted by the camera, never a pending read), the street
from the board count, each player's current best hand, and once the hand is
complete the winners and the settlement, all through :mod:`dealer_assist.rules`.

>>> state = TableState(seats=("A", "B"), position=1)
>>> notes = [NoteInfo("t1", 1, "board", "9111111", "trusted", 0.9, 0.0),
...          NoteInfo("t2", 2, "board", "8111111", "trusted", 0.9, 1.0),
...          NoteInfo("t3", 3, "board", "7111111", "trusted", 0.9, 2.0),
...          NoteInfo("t4", 4, "A", "9444444", "trusted", 0.9, 3.0),
...          NoteInfo("t5", 5, "A", "9555555", "trusted", 0.9, 3.5),
...          NoteInfo("t6", 6, "B", "3222222", "trusted", 0.9, 4.0),
...          NoteInfo("t7", 7, "B", "4333333", "trusted", 0.9, 4.5)]
>>> view = table_view(state, notes)
>>> view.street, view.winners, view.seat("A").best.hand_class.value, view.seat("B").best.hand_class.value
('showdown', ('A',), 'set', 'straight')
"""

from __future__ import annotations


import dataclasses
import re
import functools
from dataclasses import dataclass
from fractions import Fraction
from typing import Iterable, Mapping, Sequence

from dealer_assist.rules import (
    BestHand,
    Hand,
    HandError,
    Player,
    RankOption,
    Settlement,
    Showdown,
    best_of,
    chips_to_json,
    dealer_among,
    evaluate,
    rank_options,
    repeated_serials,
    result_to_json,
)
from dealer_assist.rules.formats import best_to_json, settlement_to_json
from dealer_assist.rules.odds import AllInOdds, all_in_odds

from dealer_assist.live.table_state import BOARD_NOTES, POCKET_NOTES, STREETS, NoteInfo, TableState  # noqa: F401

__all__ = ["Slot", "SeatView", "TableView", "table_view", "chips_text", "known_board_serials"]

@dataclass(frozen=True)
class Slot:
    """One note's place in the hand: board note 1..3 or a seat's pocket note 1..2.

    Attributes:
        zone, index: ``("board", 2)``, ``("alice", 1)``; ``index`` is 1-based.
        note: the camera's note, or ``None`` when the note was only typed in.
        serial: the serial that plays: typed by the croupier, else trusted by the camera, else ``None``.
        source: ``"manual"``, ``"ocr"`` or ``None``.
        status: ``manual``, or the camera note's status.
    """

    zone: str
    index: int
    note: NoteInfo | None
    serial: str | None
    source: str | None
    status: str

    @property
    def known(self) -> bool:
        return self.serial is not None

    @property
    def label(self) -> str:
        return f"{self.zone} {self.index}"

    @property
    def confidence(self) -> float:
        if self.source == "manual":
            return 1.0
        return self.note.confidence if self.note is not None and self.source == "ocr" else 0.0


@dataclass(frozen=True)
class SeatView:
    """One seat in the current hand.

    Attributes:
        name: the seat.
        notes: its pocket-note slots (0..2, more when the camera sees too many).
        in_hand: the seat is in the hand: the camera saw notes in its zone during this hand (a
            face-down note is a note), a note was typed, chips were entered, it folded, or the
            croupier said so; not when the croupier said it sits out.
        folded, is_dealer: as named.
        revealed: both pocket notes are known.
        options: rank options per pocket note (only known ones), for the reasons shown.
        best: the best 3-note hand with the board so far (``None`` until both pocket notes and a
            board note are known, or with fewer than 3 live notes).
        result: ``"wins"``, ``"splits"``, ``"loses"``, ``"folded"``, ``"not revealed"`` or ``None`` before the showdown.
        payout: chips won when a settlement exists.
        chips: chips entered for this seat.
        odds: ``(win, tie)`` probabilities (0..1) over the board notes still to come, when every seat
            still in has shown both pocket notes before the board is complete (all-in; exact, from
            :func:`~dealer_assist.rules.odds.all_in_odds`); ``None`` otherwise.
    """

    name: str
    notes: tuple[Slot, ...]
    in_hand: bool
    folded: bool
    is_dealer: bool
    revealed: bool
    options: tuple[tuple[RankOption, ...], ...]
    best: BestHand | None
    result: str | None = None
    payout: int | Fraction | None = None
    chips: int | None = None
    odds: tuple[float, float] | None = None

    @property
    def serials(self) -> tuple[str, ...]:
        return tuple(s.serial for s in self.notes if s.serial is not None)


@dataclass(frozen=True)
class TableView:
    """Everything the dashboard, the hand log and ``--json`` show about the hand.

    Attributes:
        state: the croupier's state it was made from.
        board: board slots in deal order (flop, turn, river), known or not.
        board_options: each board slot's rank options (empty tuple when not known or dead).
        seats: every seat of the table, clockwise.
        street: one of :data:`STREETS`.
        complete: the hand is decided (winners known, or nobody can win).
        waiting: plain sentences saying what the showdown still needs.
        showdown: the rules engine's result over the players whose pocket notes are known (or None).
        winners: in seat order.
        settlement: when chips were entered and the hand is complete.
        outside: notes the camera sees outside every zone.
        problems: plain sentences (too many notes in a zone, one serial in two places).
        odds: the hand's exact all-in odds while every seat still in has shown both pocket notes
            and the board is not complete (each seat's share also in :attr:`SeatView.odds`), else None.
    """

    state: TableState
    board: tuple[Slot, ...]
    board_options: tuple[tuple[RankOption, ...], ...]
    seats: tuple[SeatView, ...]
    street: str
    complete: bool
    waiting: tuple[str, ...] = ()
    showdown: Showdown | None = None
    winners: tuple[str, ...] = ()
    settlement: Settlement | None = None
    outside: tuple[NoteInfo, ...] = ()
    problems: tuple[str, ...] = ()
    odds: AllInOdds | None = None

    def seat(self, name: str) -> SeatView:
        for s in self.seats:
            if s.name == name:
                return s
        raise KeyError(name)

    @property
    def pending(self) -> tuple[Slot, ...]:
        """Slots with a note the camera is still reading (shown as pending, never played)."""
        return tuple(s for s in self.all_slots if not s.known and s.status == "pending")

    @property
    def all_slots(self) -> tuple[Slot, ...]:
        return self.board + tuple(n for seat in self.seats for n in seat.notes)

    @property
    def eventful(self) -> bool:
        """Anything happened in this hand: a note seen or typed, chips entered, a seat folded (such a
        hand is logged when it ends, decided or not)."""
        return bool(self.all_slots or self.state.chips or self.state.folded)

    @property
    def carried_out(self) -> int:
        """Chips this hand carries into the next one: the rules' carry of a decided hand with a settlement
        (a tie rolled over, a pot nobody could win, RULES.md §4), 0 for a decided hand without chips (none
        was carried in either: :func:`~dealer_assist.rules.evaluate` settles any carry), and the carry it
        received for a hand not decided (no chips moved)."""
        if not self.complete:
            return self.state.carried_in
        if self.settlement is None:
            return 0
        return int(self.settlement.carry)

    @property
    def board_serials(self) -> tuple[str, ...]:
        return tuple(s.serial for s in self.board if s.serial is not None)

    def hand_json(self) -> dict:
        """The hand in FORMATS.md §1 form: known serials only, and every seat in the hand -- the seats
        the rules evaluate (:func:`table_view`), in both games. A seat whose pocket notes are not both
        known is there with no pocket, ``"folded": true`` or ``"revealed": false``: the last player
        standing wins without showing (RULES.md §4, §7.4), so a hand whose other seats folded, some
        after showing their notes, is still the hand the rules decided (its winner is one of its
        players; ``history --show`` and ``eval`` settle it as the table did). ``dealer`` is the button
        among those seats as the rules place it for odd chips (:func:`~dealer_assist.rules.dealer_among`:
        the dealer, or the nearest seat in the hand on the dealer's right when the dealer's seat is empty
        or sits the hand out), so the input is a hand the rules take."""
        players = []
        chips = self.state.chips_map
        for seat in self.seats:
            if not seat.in_hand:
                continue
            p: dict = {"name": seat.name, "pocket": list(seat.serials[:self.state.pocket_notes])
                       if seat.revealed else []}
            if seat.folded:
                p["folded"] = True
            elif not seat.revealed:
                p["revealed"] = False
            if seat.name in chips:
                p["contributed"] = chips[seat.name]
            players.append(p)
        game = {} if self.state.game.board_notes else {"game": self.state.game.value}
        carried = {"carried_in": self.state.carried_in} if self.state.carried_in else {}
        return {**game, **carried, "position": self.state.position, "zero_joker": self.state.zero_joker.value,
                "tie_policy": self.state.tie_policy.value,
                "dealer": dealer_among(self.state.seats, self.state.dealer, [p["name"] for p in players]),
                "board": list(self.board_serials), "players": players}

    def result_json(self) -> dict:
        """FORMATS.md §2 (players, winners, settlement) plus ``serials``, ``status``, ``street``,
        ``waiting``, ``outside`` (serials, or null while pending, of notes outside every zone),
        ``problems`` and ``hand`` (the §1 input); ``status`` is ``"showdown"`` when the hand is decided."""
        players: dict = {}
        if self.showdown is not None:
            players.update(result_to_json(self.showdown)["players"])
        for seat in self.seats:
            if seat.in_hand and seat.name not in players:
                players[seat.name] = _best_json(seat, self)
            if seat.name in players:
                players[seat.name]["revealed"] = seat.revealed
                if seat.folded:
                    players[seat.name]["folded"] = True
        out: dict = {"players": players, "winners": list(self.winners)}
        if self.settlement is not None:
            out["settlement"] = settlement_to_json(self.settlement)
        out["serials"] = {"board": [s.serial for s in self.board],
                          "players": {s.name: [n.serial for n in s.notes] for s in self.seats if s.in_hand}}
        out["status"] = "showdown" if self.complete else "incomplete"
        out["street"] = self.street
        if self.waiting:
            out["waiting"] = list(self.waiting)
        if self.outside:
            out["outside"] = [n.serial for n in self.outside]
        if self.problems:
            out["problems"] = list(self.problems)
        out["hand"] = self.hand_json()
        return out


def _best_json(seat: SeatView, view: TableView) -> dict:
    """A FORMATS.md §2 player entry for a seat before the showdown (its best hand so far)."""
    pocket = view.state.pocket_notes
    return best_to_json(seat.best, seat.serials[:pocket] + view.board_serials, pocket)


def _slots(zone: str, notes: Sequence[NoteInfo], manual: Mapping[str, str], limit: int) -> list[Slot]:
    """A zone's slots: the camera's notes in the order they appeared, then notes typed in for empty places.

    When the camera sees more notes than the zone holds, those of which no
    serial was ever read (``blank`` or ``unreadable``: e.g. a note dealt face
    down, seen again face up and read as another) give way first, oldest first.
    """
    ordered = sorted(notes, key=lambda n: (n.first_seen_s, n.key))
    extra = len(ordered) - limit
    if extra > 0:
        never = [n for n in ordered if n.status in ("blank", "unreadable") and n.key not in manual][:extra]
        ordered = [n for n in ordered if n not in never]
    out: list[Slot] = []
    for i, n in enumerate(ordered, 1):
        typed = manual.get(n.key) or manual.get(f"{zone}#{i}")
        if typed is not None:
            out.append(Slot(zone, i, n, typed, "manual", "manual"))
        elif n.serial is not None:
            out.append(Slot(zone, i, n, n.serial, "ocr", "trusted"))
        else:
            out.append(Slot(zone, i, n, None, None, n.status))
    for i in range(len(out) + 1, limit + 1):
        typed = manual.get(f"{zone}#{i}")
        if typed is not None:
            out.append(Slot(zone, i, None, typed, "manual", "manual"))
    return out


def _pocket_options(serial: str, state: TableState) -> tuple[RankOption, ...]:
    return rank_options(serial, state.position, pocket=True, zero_joker=state.zero_joker)


def table_view(state: TableState, notes: Iterable[NoteInfo], seen: Iterable[str] = ()) -> TableView:
    """Combine the croupier's state with the camera's notes (see the module doc).

    ``seen``: seats in whose zone the camera saw notes at any time during this
    hand (a player may lift the notes to look at them): they stay in the hand,
    so a seat never drops out of a showdown silently.

    The showdown is decided (``complete``) when:

    * all seats in the hand but one folded: that one wins without showing (RULES.md §4); or
    * three board notes are known, nothing is pending, and every seat still in
      has both pocket notes known; or
    * the croupier called the showdown, three board notes are known and
      nothing is pending: a seat still in without both notes known did not
      reveal and is excluded from the distribution (RULES.md §4).

    Until then each seat shows its current best hand and ``waiting`` says what is missing.
    """
    notes = list(notes)
    seen = frozenset(seen)
    manual = state.manual_map
    by_zone: dict[str | None, list[NoteInfo]] = {}
    for n in notes:
        by_zone.setdefault(n.zone, []).append(n)
    problems: list[str] = []
    board_notes, pocket_notes = state.board_notes, state.pocket_notes
    board = _slots("board", by_zone.get("board", []), manual, board_notes)
    if len(board) > board_notes:
        problems.append(f"The board holds {len(board)} notes; only the first {board_notes} play." if board_notes
                        else f"The board zone holds {len(board)} note(s); Indian poker has no board, so they do "
                             f"not play.")
        board = board[:board_notes]
    p = state.position
    board_options = tuple(rank_options(s.serial, p) if s.known else () for s in board)
    known_board = [o for s, o in zip(board, board_options) if s.known]
    chips = state.chips_map
    seat_slots: dict[str, list[Slot]] = {}
    for name in state.seats:
        slots = _slots(name, by_zone.get(name, []), manual, pocket_notes)
        if len(slots) > pocket_notes:
            problems.append(f"{name} has {len(slots)} notes in front of them; only the first {pocket_notes} play.")
            slots = slots[:pocket_notes]
        seat_slots[name] = slots

    seats: list[SeatView] = []
    for name in state.seats:
        slots = seat_slots[name]
        known = [s.serial for s in slots if s.known]
        options = tuple(_pocket_options(s, state) for s in known)
        # a best hand once the pocket notes are known (before that the board alone would show); Indian
        # poker has no board, so the one note is the hand
        best = best_of(state.game, list(options) + known_board) if len(options) == pocket_notes and (
            len(known_board) >= 1 or not board_notes) else None
        in_hand = ((bool(slots) or name in chips or name in state.folded or name in seen or name in state.in_play)
                   and name not in state.sitting_out)
        seats.append(SeatView(name, tuple(slots), in_hand, name in state.folded, name == state.dealer,
                              len(known) == pocket_notes, options, best, chips=chips.get(name)))

    # one serial in two places: one note cannot lie in two places (a reading or typing mistake)
    placed = [(slot.label, slot.serial) for slot in board + [s for ss in seat_slots.values() for s in ss] if slot.known]
    for serial, places in repeated_serials(placed):
        problems.append(f"The serial {serial} is in {' and '.join(places)}: one note cannot lie in two places.")

    in_hand = [s for s in seats if s.in_hand]
    still_in = [s for s in in_hand if not s.folded]
    board_count = len(board)
    street = STREETS[min(board_count, board_notes)]
    waiting: list[str] = []
    pending = [s for s in board + [x for st in still_in for x in st.notes] if not s.known and s.status == "pending"]
    complete = False
    last_standing = still_in[0].name if len(still_in) == 1 and len(in_hand) > 1 else None
    if last_standing is not None:
        complete = True
    elif len(in_hand) >= 2:
        if len(known_board) < board_notes:
            waiting.append(f"The board has {len(known_board)} of {board_notes} notes known.")
        for slot in pending:
            waiting.append(f"{slot.label}: the camera is still reading this note.")
        missing = [s for s in still_in if not s.revealed]
        if not state.showdown_called:
            for s in missing:
                have = len(s.serials)
                where = ("" if s.notes else " (none on the table now: the camera saw this seat's notes earlier"
                         if s.name in seen else " (the croupier put this seat in the hand")
                if where:
                    where += "; type them, fold the seat or call the showdown)"
                waiting.append(f"{s.name}: {have} of {pocket_notes} pocket notes known{where}." if board_notes else
                               f"{s.name}: the note is not known yet{where}.")
        complete = not waiting and len(still_in) >= 1
    else:
        waiting.append("Fewer than 2 seats have notes: waiting for the deal.")
    if duplicates := [x for x in problems if x.startswith("The serial ")]:
        complete = False
        waiting.extend(duplicates)

    showdown = None
    winners: tuple[str, ...] = ()
    settlement = None
    odds = None
    if complete:
        # the rules decide: every seat in the hand, its pocket notes when known (RULES.md §3-4)
        players = tuple(Player(s.name, s.serials[:pocket_notes] if s.revealed else (), chips.get(s.name),
                               folded=s.folded, revealed=s.revealed)
                        for s in in_hand)
        names = [pl.name for pl in players]
        try:
            showdown = evaluate(Hand(p, tuple(known_board_serials(board)), players, state.zero_joker,
                                     state.tie_policy, dealer_among(state.seats, state.dealer, names), state.game,
                                     carried_in=state.carried_in))
        except HandError as error:  # Indian poker's stakes or options (RULES.md §7): said, not decided
            complete, showdown = False, None
            # the seat by its name: "players[3]" is the rules' index of their list, which the croupier never sees
            said = re.sub(r"players\[(\d+)\]\.",
                          lambda m: f"{names[int(m.group(1))]}: " if int(m.group(1)) < len(names) else m.group(0),
                          str(error))
            waiting.append(f"The rules refuse the hand as it stands: {said}")
    if complete and showdown is not None:
        winners, settlement = showdown.winners, showdown.settlement
        results: dict[str, str] = {}
        for s in in_hand:
            if s.folded:
                results[s.name] = "folded"
            elif s.name in winners:
                results[s.name] = "splits" if len(winners) > 1 else "wins"
            elif not s.revealed and last_standing is None:
                results[s.name] = "not revealed"
            else:
                results[s.name] = "loses"
        street = "showdown"
        payouts = settlement.payouts if settlement is not None else {}
        seats = [dataclasses.replace(s, result=results.get(s.name), payout=payouts.get(s.name)) for s in seats]
    elif len(still_in) >= 2 and all(x.revealed for x in still_in) and len(known_board) < board_notes and not duplicates:
        # every pocket in play is shown before the river: each seat's exact odds over the board to come
        players = tuple(Player(s.name, s.serials[:pocket_notes] if s.revealed else (), folded=s.folded,
                               revealed=s.revealed) for s in in_hand)
        try:
            odds = _all_in_odds(Hand(p, tuple(known_board_serials(board)), players, state.zero_joker, state.tie_policy,
                                     dealer_among(state.seats, state.dealer, [pl.name for pl in players])))
        except HandError:  # the rules refuse the hand as it stands (say, a serial not of 7 digits): no odds
            odds = None
        by_name = {o.name: (float(o.win_exact), float(o.tie_exact)) for o in odds.players} if odds else {}
        seats = [dataclasses.replace(s, odds=by_name.get(s.name)) if s.in_hand and not s.folded else s for s in seats]

    outside = tuple(n for n in notes if n.zone is None)
    if outside:
        problems.append(f"{len(outside)} note{'s' if len(outside) > 1 else ''} lie outside the board and every seat's "
                        f"zone and do not play; if they are dealt notes, check the zones (dealer-assist calibrate check).")
    return TableView(state, tuple(board), board_options, tuple(seats), street, complete, tuple(waiting), showdown,
                     winners, settlement, outside, tuple(problems), odds)


@functools.lru_cache(maxsize=16)
def _all_in_odds(hand: Hand):
    """:func:`~dealer_assist.rules.odds.all_in_odds`, kept for the last hands shown (the view is made every
    frame; a 6-player hand with no board note takes ~25 ms)."""
    return all_in_odds(hand)


def known_board_serials(board: Sequence[Slot]) -> list[str]:
    return [s.serial for s in board if s.known]


def chips_text(value) -> str:
    """Chips for people: ``17``, ``17/3``."""
    return str(chips_to_json(value))
