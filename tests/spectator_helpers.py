"""Table views and hand logs for the spectator-screen tests, made by the live mode's own code (no camera)."""

from __future__ import annotations

from dealer_assist.live.table_state import NoteInfo, TableState
from dealer_assist.live.table_view import table_view

# P=4. Board: 1234567 (rank 4), 7650321 (0 at P -> 3 to its right).
BOARD = ("1234567", "7650321")
# Ann revealed both notes; Bob shows one of two (not revealed); Cid folded with one note face up.
ANN = ("4444123", "9990999")
BOB_SHOWN = "5556555"
CID_SHOWN = "1112111"


def note(i: int, zone: str, serial: str | None, t: float | None = None) -> NoteInfo:
    """A note the camera follows: trusted with a serial, else face down (``blank``)."""
    return NoteInfo(f"t{i}", i, zone, serial, "trusted" if serial else "blank", 0.9, float(i if t is None else t))


def hand_in_play(*, bob_reveals: bool = False, board=BOARD, hand: int = 2):
    """A hand in play: Ann revealed, Bob one note known (both with ``bob_reveals``), Cid folded, Dan not dealt."""
    state = TableState(seats=("Ann", "Bob", "Cid", "Dan"), position=4, hand_number=hand, dealer_index=1)
    state = state.with_chips("Ann", 20).with_chips("Bob", 20).with_fold("Cid")
    notes = [note(i + 1, "board", s) for i, s in enumerate(board)]
    notes += [note(10, "Ann", ANN[0]), note(11, "Ann", ANN[1]),
              note(12, "Bob", BOB_SHOWN), note(13, "Bob", "3332333" if bob_reveals else None),
              note(14, "Cid", CID_SHOWN), note(15, "Cid", None)]
    return table_view(state, notes)
