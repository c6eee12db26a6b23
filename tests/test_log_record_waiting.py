"""A hand live logs undecided keeps its ``waiting`` sentences, and the log's one validator takes them:
they are sentences, not names (a sentence over 100 characters made history, ledger and the club drop
the whole record)."""

from __future__ import annotations

from datetime import datetime, timezone

from dealer_assist.live.history import HandLog, hand_record, read_log
from dealer_assist.live.log_record import MAX_SENTENCE, check_record
from dealer_assist.live.table_state import NoteInfo, TableState
from dealer_assist.live.table_view import table_view


def test_a_hand_waiting_on_a_long_sentence_is_read_back(tmp_path):
    # one serial in two places: live says so in a sentence of over 80 characters and logs the hand undecided
    state = TableState(("Annabelle-at-the-window", "Bartholomew-by-the-garden-door"), 4)
    notes = [NoteInfo("t1", 1, "board", "0000000", "trusted", 0.9, 1.0),
             NoteInfo("t2", 2, "board", "1234567", "trusted", 0.9, 2.0),
             NoteInfo("t3", 3, "board", "7654321", "trusted", 0.9, 3.0),
             NoteInfo("t4", 4, "Bartholomew-by-the-garden-door", "0000000", "trusted", 0.9, 4.0)]
    view = table_view(state, notes)
    when = datetime(2026, 12, 3, 20, 0, tzinfo=timezone.utc)
    record = hand_record(view, session="s1", started=when, finished=when, end="new hand")
    assert record["waiting"] and max(len(w) for w in record["waiting"]) > 100
    log = tmp_path / "hands.jsonl"
    HandLog(log).append(record)
    records, warnings = read_log(log)
    assert warnings == [] and records[0]["waiting"] == record["waiting"]


def test_waiting_is_still_bounded():
    base = {"schema": "dealer-assist/hand-log", "version": 1}
    assert check_record({**base, "waiting": ["x" * MAX_SENTENCE]})[1] is None
    assert check_record({**base, "waiting": ["x" * (MAX_SENTENCE + 1)]})[1] is not None
    assert check_record({**base, "waiting": [5]})[1] is not None
