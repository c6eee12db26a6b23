"""The table-state file live writes for the spectator screen: only what the table shows, written atomically."""

from __future__ import annotations

import json
import os
from datetime import datetime, timezone

import pytest

from dealer_assist.live.table_state import TableState
from dealer_assist.live.table_view import table_view
from dealer_assist.spectator.state import SCHEMA, VERSION, default_state_path, state_from_view, write_state
from spectator_helpers import ANN, BOARD, BOB_SHOWN, CID_SHOWN, hand_in_play, note


def test_a_seat_that_has_not_revealed_has_no_serial_anywhere_in_the_file():
    state = state_from_view(hand_in_play())
    text = json.dumps(state)
    assert BOB_SHOWN not in text and CID_SHOWN not in text  # one of two notes known is not revealed
    seats = {s["name"]: s for s in state["seats"]}
    assert seats["Ann"]["revealed"] is True and seats["Ann"]["pocket"] == list(ANN)
    assert seats["Ann"]["best"] == {"class": "pair", "ranks": [4, 4, 9], "natural": False}
    for name in ("Bob", "Cid", "Dan"):
        assert seats[name]["revealed"] is False
        assert "pocket" not in seats[name] and "best" not in seats[name]
    assert seats["Cid"]["folded"] is True and seats["Dan"]["in_hand"] is False
    assert seats["Bob"]["dealer"] is True and seats["Ann"]["chips"] == 20


def test_the_warnings_that_may_quote_a_pocket_serial_are_not_written():
    # Bob's shown note also lies on the board: the view's problems quote the serial
    view = hand_in_play(board=(BOB_SHOWN, BOARD[1]))
    assert any(BOB_SHOWN in p for p in view.problems)
    state = state_from_view(view)
    assert "problems" not in state and "waiting" not in state
    assert [b["serial"] for b in state["board"]] == [BOB_SHOWN, BOARD[1]]  # the board is public
    assert "pocket" not in {s["name"]: s for s in state["seats"]}["Bob"]


def test_the_header_board_and_street():
    state = state_from_view(hand_in_play(), session="20250101T200000-ab12")
    assert state["schema"] == SCHEMA and state["version"] == VERSION and state["written"] is None
    assert state["session"] == "20250101T200000-ab12"
    assert (state["hand"], state["position"], state["dealer"], state["street"], state["status"]) == \
        (2, 4, "Bob", "turn", "incomplete")
    assert state["options"] == {"zero_joker": "off", "tie_policy": "split"}
    assert state["board"] == [
        {"serial": "1234567", "rank": 4, "natural": True, "reason": "d4=4, natural"},
        {"serial": "7650321", "rank": 3, "natural": False, "reason": "d4=0 → right to d5=3, modified"},
    ]
    assert "winners" not in state and "odds" not in state  # Bob has not revealed: no odds yet


def test_a_note_on_the_board_not_read_yet_has_no_serial():
    state = TableState(seats=("A", "B"), position=1)
    view = table_view(state, [note(1, "board", "9111111"), note(2, "board", None)])
    assert state_from_view(view)["board"][1] == {"serial": None}


def test_odds_once_every_seat_still_in_has_revealed():
    state = state_from_view(hand_in_play(bob_reveals=True))
    odds = state["odds"]
    assert odds["board_unknown"] == 1 and set(odds["players"]) == {"Ann", "Bob"}
    total = sum(p["win"] for p in odds["players"].values())
    split = max(p["tie"] for p in odds["players"].values())
    assert total + split == pytest.approx(1, abs=1e-3)


def test_a_decided_hand_has_its_winners_and_payouts():
    state = TableState(seats=("A", "B"), position=1).with_chips("A", 5).with_chips("B", 5)
    notes = [note(1, "board", "9111111"), note(2, "board", "8111111"), note(3, "board", "7111111"),
             note(4, "A", "9444444"), note(5, "A", "9555555"), note(6, "B", "3222222"), note(7, "B", "4333333")]
    out = state_from_view(table_view(state, notes))
    assert out["status"] == "showdown" and out["street"] == "showdown" and out["winners"] == ["A"]
    assert out["payouts"] == {"A": 10, "B": 0} and out["carry"] == 0
    assert {s["name"]: s["result"] for s in out["seats"]} == {"A": "wins", "B": "loses"}


def test_write_state_stamps_the_time_and_replaces_the_file_whole(tmp_path):
    path = tmp_path / "hands.state.json"
    path.write_text("old", encoding="utf-8")
    when = datetime(2025, 1, 1, 20, 5, 13, 250000, tzinfo=timezone.utc)
    write_state(state_from_view(hand_in_play()), path, now=when)
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["written"] == "2025-01-01T20:05:13.250+00:00" and data["hand"] == 2
    assert [p.name for p in tmp_path.iterdir()] == ["hands.state.json"]  # no temporary file left
    write_state(state_from_view(hand_in_play(hand=3)), path)
    assert json.loads(path.read_text(encoding="utf-8"))["hand"] == 3


def test_write_state_into_a_missing_folder_is_an_os_error(tmp_path):
    with pytest.raises(OSError):
        write_state(state_from_view(hand_in_play()), tmp_path / "nowhere" / "s.json")


def test_the_state_file_lives_beside_the_log():
    assert default_state_path("/x/hands.jsonl") == default_state_path(os.path.join("/x", "hands.jsonl"))
    assert default_state_path("/x/hands.jsonl").name == "hands.state.json"


def test_the_writer_writes_a_changed_hand_at_most_twice_a_second_and_removes_the_file_at_the_end(tmp_path):
    from dealer_assist.spectator.state import StateWriter

    now = [100.0]
    path = tmp_path / "hands.state.json"
    writer = StateWriter(path, session="s1", clock=lambda: now[0])
    first, second = hand_in_play(hand=2), hand_in_play(hand=3)
    assert writer.update(first) is None and writer.writes == 1
    assert json.loads(path.read_text(encoding="utf-8"))["session"] == "s1"
    now[0] += 0.1
    writer.update(second)
    assert writer.writes == 1  # inside the interval: later
    now[0] += 0.5
    writer.update(second)
    assert writer.writes == 2 and json.loads(path.read_text(encoding="utf-8"))["hand"] == 3
    now[0] += 1
    writer.update(hand_in_play(hand=3))  # a new view object of the same hand: nothing to write
    assert writer.writes == 2
    writer.close()
    assert not path.exists()
    writer.close()  # twice is fine


def test_the_writer_says_once_that_the_file_cannot_be_written(tmp_path):
    from dealer_assist.spectator.state import StateWriter

    now = [0.0]
    writer = StateWriter(tmp_path / "missing" / "hands.state.json", clock=lambda: now[0])
    sentence = writer.update(hand_in_play())
    assert sentence is not None and "cannot be written" in sentence and sentence.count("\n") == 0
    now[0] += 1
    assert writer.update(hand_in_play(hand=3)) is None and writer.writes == 0
    (tmp_path / "missing").mkdir()
    now[0] += 1
    assert writer.update(hand_in_play(hand=4)) is None and writer.writes == 1
