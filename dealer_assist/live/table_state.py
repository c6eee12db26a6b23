"""The hand at the table as the croupier decides it (RULES.md §1-5): the notes the camera follows and
the croupier's decisions.

Pure: no clocks, no files, no images. :class:`NoteInfo` is one note the tracker follows (already
placed in a zone of the calibration); :class:`TableState` holds the croupier's decisions (playing
position, options, dealer button, folds, typed serials, chips, seats in play, showdown called),
immutable, so an undo is popping the previous one. :func:`~dealer_assist.live.table_view.table_view`
combines them into what is shown and decided.

>>> state = TableState(seats=("A", "B"), position=1).with_fold("B").with_chips("A", 25)
>>> sorted(state.folded), state.chips_map, parse_slot("b2", state.seats)
(['B'], {'A': 25}, ('board', 2))
"""

from __future__ import annotations

import re

import dataclasses
from dataclasses import dataclass
from typing import Sequence

from dealer_assist.rules import (
    Game,
    HandError,
    TiePolicy,
    ZeroJoker,
)
from dealer_assist.rules.notes import check_position, check_serial

__all__ = ["NoteInfo", "TableState", "STREETS", "BOARD_NOTES", "POCKET_NOTES", "parse_slot", "quoted"]

#: Hold'em's notes (RULES.md §1); a table's own are :attr:`TableState.board_notes` / :attr:`TableState.pocket_notes`.
BOARD_NOTES = Game.HOLDEM.board_notes
POCKET_NOTES = Game.HOLDEM.pocket_notes
#: Streets by the number of board notes (RULES.md §1), then the showdown.
STREETS = ("preflop", "flop", "turn", "river", "showdown")


@dataclass(frozen=True)
class NoteInfo:
    """One note the camera follows, as the table state needs it.

    Attributes:
        key: ``"t<track id>"``.
        track_id: the tracker's id.
        zone: ``"board"``, a seat name, or ``None`` (outside every zone).
        serial: the serial the tracker trusts, or ``None``.
        status: ``trusted``, ``pending``, ``blank``, ``unreadable`` or ``out_of_format``.
        confidence: 0..1, of the trusted serial.
        first_seen_s: when it was first seen (orders the board: flop, turn, river).
        candidates: pending reads ``(serial, count)``, most read first.
        reason: why there is no serial (the latest read's sentence).
        reads: how many reads it had.
    """

    key: str
    track_id: int | None
    zone: str | None
    serial: str | None
    status: str
    confidence: float
    first_seen_s: float
    candidates: tuple[tuple[str, int], ...] = ()
    reason: str = ""
    reads: int = 0


def quoted(text: str, limit: int = 40) -> str:
    """``text`` quoted for an error sentence, cut when long."""
    return repr(text if len(text) <= limit else text[:limit] + "…")


#: The words for the board a croupier may type: the command's, and the Russian screen's ("борд 1 2572845").
BOARD_WORDS = ("board", "борд")

#: Cyrillic letters that look like Latin ones, as a Russian keyboard layout types them (Р for P).
_LOOK_ALIKES = str.maketrans("АВЕКМНОРСТХаеорсух", "ABEKMHOPCTXaeopcyx")


def latin_look_alikes(text: str) -> str:
    """``text`` with its Cyrillic look-alike letters in Latin (``'Р1'`` → ``'P1'``): a seat name typed on a
    Russian layout is found, not refused beside a name that looks the same (sixth new-user trial M8).

    >>> latin_look_alikes("Р1"), latin_look_alikes("Аня")
    ('P1', 'Aня')
    """
    return text.translate(_LOOK_ALIKES)


def parse_slot(text: str, seats: Sequence[str], game: Game = Game.HOLDEM) -> tuple[str, int]:
    """``"board 2"``, ``"b2"``, ``"alice 1"``, ``"alice.1"``, ``"3.2"`` (seat number 3) -> (zone, index).

    Raises ``ValueError`` with one sentence when the zone or index is unknown (in ``game``: Indian
    poker has no board and one note per seat).

    >>> parse_slot("b2", ["A", "B"]), parse_slot("B.1", ["A", "B"]), parse_slot("2 2", ["A", "B"])
    (('board', 2), ('B', 1), ('B', 2))
    """
    t = text.strip().replace(".", " ").replace(":", " ")
    parts = t.split()
    if len(parts) == 1 and parts[0][:1].lower() in ("b", "б") and re.fullmatch(r"[0-9]{1,3}", parts[0][1:]) is not None:
        parts = ["board", parts[0][1:]]
    if len(parts) != 2 or re.fullmatch(r"[0-9]{1,3}", parts[1]) is None:
        raise ValueError(f"{quoted(text)} is not a note: give the board or a seat and the note's number, e.g. 'board 2' or "
                         f"'{seats[0] if seats else 'P1'} 1'.")
    zone, index = parts[0], int(parts[1])
    if zone.lower() in BOARD_WORDS:
        zone = "board"
    elif zone not in seats:
        lower = {s.lower(): s for s in seats}
        if zone.lower() in lower:
            zone = lower[zone.lower()]
        elif latin_look_alikes(zone).lower() in lower:  # 'Р1' typed on a Russian layout: the seat P1
            zone = lower[latin_look_alikes(zone).lower()]
        elif re.fullmatch(r"[0-9]{1,3}", zone) and 1 <= int(zone) <= len(seats):
            zone = seats[int(zone) - 1]
        elif not Game(game).board_notes:  # Indian poker: no board to name (fifth new-user trial L4)
            raise ValueError(f"{quoted(parts[0])} is not a seat ({', '.join(seats)}).")
        else:
            raise ValueError(f"{quoted(parts[0])} is neither the board nor a seat ({', '.join(seats)}).")
    limit = Game(game).board_notes if zone == "board" else Game(game).pocket_notes
    if not limit:
        raise ValueError("Indian poker has no board notes; give a seat and its note, e.g. "
                         f"'{seats[0] if seats else 'P1'} 1'.")
    if not 1 <= index <= limit:
        if limit == 1:  # Indian poker's one note a seat (sixth new-user trial L8: "has notes 1 to 1")
            raise ValueError(f"{zone} holds one note in Indian poker ({zone} 1), not {index}.")
        raise ValueError(f"{'the board' if zone == 'board' else zone} has notes 1 to {limit}, not {index}.")
    return zone, index


@dataclass(frozen=True)
class TableState:
    """What the croupier decided for the hand in play (immutable; every change returns a new state).

    Attributes:
        seats: seat names clockwise (from the calibration).
        position: the playing position P, 1..7 (RULES.md §2).
        zero_joker, tie_policy: the hand's options.
        game: Hold'em or Indian poker (RULES.md §7: one note per seat, no board), for the whole session.
        hand_number: 1 for the session's first hand.
        dealer_index: index in ``seats`` of the dealer (the button moves one seat left, clockwise, each hand).
        position_random: P was drawn from the cryptographic random source.
        folded: seats that folded.
        chips: chips each seat put in this hand (``(seat, chips)`` pairs).
        manual: typed serials: ``(key, serial)`` with key ``"t<track id>"`` for a note the camera
            follows, or ``"<zone>#<index>"`` for a note it does not.
        showdown_called: the croupier called the showdown: a seat still in without both
            pocket notes known has not revealed (RULES.md §4).
        in_play: seats the croupier says are in the hand (their notes may be hidden from the camera).
        sitting_out: seats the croupier says are not in the hand (a stray note in their zone).
        carried_in: chips carried into this hand's main pot from the hands before (a tie rolled over,
            RULES.md §4); kept over hands that were not decided, restored from the log on a restart.
        position_changes: ``(old P, new P)`` for each change of P made once notes of the hand were dealt
            (:func:`~dealer_assist.rules.notes.position_announced`): shown on the dashboard and logged.
    """

    seats: tuple[str, ...]
    position: int
    zero_joker: ZeroJoker = ZeroJoker.OFF
    tie_policy: TiePolicy = TiePolicy.SPLIT
    hand_number: int = 1
    dealer_index: int = 0
    position_random: bool = False
    folded: frozenset[str] = frozenset()
    chips: tuple[tuple[str, int], ...] = ()
    manual: tuple[tuple[str, str], ...] = ()
    showdown_called: bool = False
    in_play: frozenset[str] = frozenset()
    sitting_out: frozenset[str] = frozenset()
    game: Game = Game.HOLDEM
    carried_in: int = 0
    position_changes: tuple[tuple[int, int], ...] = ()

    def __post_init__(self) -> None:
        check_position(self.position)
        if isinstance(self.carried_in, bool) or not isinstance(self.carried_in, int) or self.carried_in < 0:
            raise ValueError(f"chips carried in must be a whole number of chips >= 0, got {self.carried_in!r}.")
        if len(self.seats) < 2:
            raise ValueError("a table needs at least 2 seats.")
        object.__setattr__(self, "game", Game(self.game))
        object.__setattr__(self, "zero_joker", ZeroJoker(self.zero_joker))
        object.__setattr__(self, "tie_policy", TiePolicy(self.tie_policy))
        object.__setattr__(self, "dealer_index", self.dealer_index % len(self.seats))

    @property
    def dealer(self) -> str:
        return self.seats[self.dealer_index]

    @property
    def board_notes(self) -> int:
        """Board notes of the game: 3, or none in Indian poker."""
        return self.game.board_notes

    @property
    def pocket_notes(self) -> int:
        """Pocket notes per seat: 2, or 1 in Indian poker."""
        return self.game.pocket_notes

    @property
    def chips_map(self) -> dict[str, int]:
        return dict(self.chips)

    @property
    def manual_map(self) -> dict[str, str]:
        return dict(self.manual)

    def seat(self, name_or_number: str) -> str:
        """The seat called ``name_or_number`` (a name, any case, typed with Cyrillic look-alike letters too, or its
        1-based number); ``ValueError`` if none."""
        if name_or_number in self.seats:
            return name_or_number
        lower = {s.lower(): s for s in self.seats}
        for typed in dict.fromkeys((name_or_number.lower(), latin_look_alikes(name_or_number).lower())):
            if typed in lower:
                return lower[typed]
        if re.fullmatch(r"[0-9]{1,3}", name_or_number) and 1 <= int(name_or_number) <= len(self.seats):
            return self.seats[int(name_or_number) - 1]
        raise ValueError(f"{quoted(name_or_number)} is not a seat ({', '.join(self.seats)}).")

    # -- changes ----------------------------------------------------------------------
    def with_position(self, position: int, random: bool = False, after_deal: bool = False) -> "TableState":
        """P set by the croupier (``random``: drawn from :mod:`secrets` and shown to the table; ``after_deal``:
        notes of the hand were dealt, so a change is kept in :attr:`position_changes`).

        >>> TableState(("A", "B"), 4).with_position(2, after_deal=True).position_changes
        ((4, 2),)
        """
        check_position(position)
        changes = self.position_changes
        if after_deal and int(position) != self.position:
            changes = changes + ((self.position, int(position)),)
        return dataclasses.replace(self, position=int(position), position_random=random, position_changes=changes)

    def with_fold(self, seat: str) -> "TableState":
        """Fold ``seat`` (a seat folded already stays folded; :meth:`with_in_play` takes a fold back)."""
        seat = self.seat(seat)
        return dataclasses.replace(self, folded=self.folded | {seat})

    def with_chips(self, seat: str, chips: int) -> "TableState":
        """Chips ``seat`` put in this hand (replaces an earlier figure); ``ValueError`` below 0, or for chips
        of a seat sitting this hand out (the settlement is among the seats in the hand: its chips would be
        in the log but in no pot, and the hand could not be counted)."""
        seat = self.seat(seat)
        if isinstance(chips, bool) or not isinstance(chips, int) or chips < 0:
            raise ValueError(f"chips must be a whole number >= 0, not {chips!r}.")
        rest = tuple((s, c) for s, c in self.chips if s != seat)
        if chips and not self.board_notes:  # Indian poker's stakes, refused when typed (sixth new-user trial M6)
            from dealer_assist.rules.showdown import INDIAN_ANTE, INDIAN_MAX_BEYOND_ANTE

            most = INDIAN_ANTE + INDIAN_MAX_BEYOND_ANTE
            if not INDIAN_ANTE <= chips <= most:
                raise ValueError(f"{seat}: contributed must be from {INDIAN_ANTE} to {most} in Indian poker (the ante "
                                 f"and at most {INDIAN_MAX_BEYOND_ANTE} more, RULES.md §7.3), got {chips}.")
        if seat in self.sitting_out:
            if chips:
                raise ValueError(f"{quoted(seat)} sits this hand out, so puts no chips in; 'in {seat}' first if "
                                 f"the seat plays.")
            return dataclasses.replace(self, chips=rest)
        return dataclasses.replace(self, chips=rest + ((seat, chips),))

    def with_serial(self, key: str, serial: str | None) -> "TableState":
        """Type (or, with ``None``, clear) the serial of the note ``key``; ``ValueError`` unless 7 digits."""
        if serial is not None:
            try:
                serial = check_serial(serial.strip(), "the serial")
            except HandError as exc:
                raise ValueError(str(exc)) from None
        rest = tuple((k, s) for k, s in self.manual if k != key)
        return dataclasses.replace(self, manual=rest if serial is None else rest + ((key, serial),))

    def with_in_play(self, seat: str, playing: bool = True) -> "TableState":
        """The croupier says ``seat`` is in the hand (``playing``: a fold is taken back too) or not, whatever the
        camera saw."""
        seat = self.seat(seat)
        if playing:
            return dataclasses.replace(self, in_play=self.in_play | {seat}, sitting_out=self.sitting_out - {seat},
                                       folded=self.folded - {seat})
        chips = self.chips_map.get(seat)
        if chips:  # a seat that put chips in plays the hand: they are in its pots (RULES.md §4)
            raise ValueError(f"{quoted(seat)} put {chips} chips in this hand, so plays it; 'chips {seat} 0' first "
                             f"if it sits the hand out.")
        return dataclasses.replace(self, in_play=self.in_play - {seat}, sitting_out=self.sitting_out | {seat},
                                   chips=tuple((s, c) for s, c in self.chips if s != seat))

    def with_showdown(self, called: bool = True) -> "TableState":
        return dataclasses.replace(self, showdown_called=called)

    def next_hand(self, carried_in: int | None = None) -> "TableState":
        """The next hand: the button moves one seat left (clockwise); P and options stay; the rest is cleared.
        ``carried_in``: the chips the rules carried out of this hand (:attr:`TableView.carried_out
        <dealer_assist.live.table_view.TableView.carried_out>`); ``None`` keeps this hand's carry (a hand
        not decided moves no chips).

        >>> TableState(("A", "B"), 1, carried_in=11).next_hand().carried_in
        11
        """
        carry = self.carried_in if carried_in is None else carried_in
        return dataclasses.replace(self, hand_number=self.hand_number + 1, dealer_index=self.dealer_index + 1,
                                   carried_in=carry,
                                   folded=frozenset(), chips=(), manual=(), showdown_called=False,
                                   position_random=False, in_play=frozenset(), sitting_out=frozenset(),
                                   position_changes=())


