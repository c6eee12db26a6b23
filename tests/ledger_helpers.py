"""Hand-log records for the ledger tests, made by the live mode's own writer (no camera)."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

from dealer_assist.live.history import hand_record
from dealer_assist.live.table_state import NoteInfo, TableState
from dealer_assist.live.table_view import table_view

T0 = datetime(2025, 1, 1, 20, 0, tzinfo=timezone.utc)


def logged_hand(seats, board, pockets, *, folded=(), chips=None, tie_policy="split", dealer=0, hand=1,
                session="s1", finished=T0, position=1):
    """A hand-log record made as `dealer-assist live` makes it: a table state, the notes the
    camera trusts, table_view() through the rules engine, hand_record()."""
    state = TableState(seats=tuple(seats), position=position, tie_policy=tie_policy, hand_number=hand,
                       dealer_index=dealer, folded=frozenset(folded), chips=tuple((chips or {}).items()))
    notes, t = [], 0.0
    for serial in board:
        t += 1
        notes.append(NoteInfo(f"t{len(notes) + 1}", len(notes) + 1, "board", serial, "trusted", 0.9, t))
    for name, pocket in pockets.items():
        for serial in pocket:
            t += 1
            notes.append(NoteInfo(f"t{len(notes) + 1}", len(notes) + 1, name, serial, "trusted", 0.9, t))
    return hand_record(table_view(state, notes), session=session, started=finished - timedelta(minutes=3),
                       finished=finished, end="new hand")


# P=1: board 9, 8, 1. A: 7 + 9 8 -> straight 9-8-7 (best); B: 9 9 -> set; C: 2 3 + 1 -> straight 3-2-1.
BOARD = ("9111111", "8111111", "1222222")
POCKETS = {"A": ("7333333", "2444444"), "B": ("9555555", "9666666"), "C": ("2777777", "3888888")}
# P=1: board 1, 5, 6. A and C both hold 2 and 3: the same natural straight 3-2-1, a tie.
TIE_BOARD = ("1111111", "5555555", "6666666")
TIE_POCKETS = {"A": ("2333333", "3444444"), "B": ("9555555", "9666666"), "C": ("2777777", "3888888")}
