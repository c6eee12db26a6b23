"""What the spectator screen may show (the server-side filter), the delay timeline and the file followers."""

from __future__ import annotations

import copy
import json
import os
from datetime import timedelta

import pytest

from dealer_assist.live.history import HandLog
from dealer_assist.spectator.follow import LogFollower, StateFollower, path_refusal
from dealer_assist.spectator.public import balances, current_hand, public_from_record, public_from_state
from dealer_assist.spectator.state import state_from_view, write_state
from dealer_assist.spectator.timeline import Timeline
from ledger_helpers import BOARD as LOG_BOARD
from ledger_helpers import POCKETS, T0, logged_hand
from spectator_helpers import ANN, BOB_SHOWN, CID_SHOWN, hand_in_play


# -- the filter ------------------------------------------------------------------------------
def test_a_state_from_live_shows_the_revealed_seat_and_hides_the_others():
    hand = public_from_state(state_from_view(hand_in_play()))
    seats = {s["name"]: s for s in hand["seats"]}
    assert set(seats) == {"Ann", "Bob", "Cid"}  # Dan was not dealt in
    assert seats["Ann"]["pocket"] == list(ANN)
    assert seats["Ann"]["best"] == {"class": "pair", "en": "Pair", "ru": "Пара", "ranks": [4, 4, 9], "natural": False}
    assert seats["Bob"]["pocket"] is None and seats["Bob"]["best"] is None
    assert (hand["source"], hand["hand"], hand["position"], hand["street"]) == ("live", 2, 4, "turn")
    assert [b["rank"] for b in hand["board"]] == [4, 3]


def test_a_buggy_state_file_cannot_leak_a_pocket_that_was_not_revealed():
    state = state_from_view(hand_in_play(bob_reveals=True))
    bad = copy.deepcopy(state)
    bob = next(s for s in bad["seats"] if s["name"] == "Bob")
    bob["revealed"] = "yes"  # not true: not revealed
    bad["seats"].append({"name": "Cid", "revealed": False, "pocket": [CID_SHOWN, "1111111"],
                         "best": {"class": "set", "ranks": [1, 1, 1], "natural": True}})
    cid = next(s for s in bad["seats"] if s["name"] == "Cid")
    cid["pocket"], cid["best"] = [CID_SHOWN, "2222222"], {"class": "set", "ranks": [1, 1, 1], "natural": True}
    bad["odds"]["players"]["Cid"] = {"win": 0.5, "tie": 0.0}
    bad["problems"] = [f"The serial {CID_SHOWN} is in Cid 1 and board 1."]
    hand = public_from_state(bad)
    text = json.dumps(hand)
    assert BOB_SHOWN not in text and CID_SHOWN not in text and "2222222" not in text
    seats = {s["name"]: s for s in hand["seats"]}
    assert seats["Bob"]["revealed"] is False and seats["Bob"]["odds"] is None
    assert seats["Cid"]["best"] is None and seats["Cid"]["odds"] is None
    assert seats["Ann"]["odds"] is not None  # Ann did reveal


def test_fields_of_the_wrong_kind_are_dropped_not_passed_on():
    state = state_from_view(hand_in_play())
    state["board"][0]["serial"] = "<script>"
    state["seats"][0]["pocket"] = ["4444123", 9990999]
    state["seats"][0]["name"] = "Ann\x1b[31m"
    state["position"] = 99
    hand = public_from_state(state)
    assert hand["board"][0]["serial"] is None and hand["position"] is None
    assert hand["seats"][0]["pocket"] is None and hand["seats"][0]["name"] == "Ann\\x1b[31m"  # shown, not run
    assert public_from_state({"schema": "dealer-assist/table-state", "version": 2}) is None
    assert public_from_state([1, 2]) is None


def test_a_logged_hand_shows_only_the_seats_that_revealed():
    record = logged_hand(["A", "B", "C"], LOG_BOARD, {"A": POCKETS["A"], "B": POCKETS["B"], "C": (POCKETS["C"][0],)},
                         chips={"A": 10, "B": 10, "C": 10}, folded={"C"})
    # C folded with one note of two face up: not revealed; the log keeps the serial
    assert POCKETS["C"][0] in json.dumps(record)
    hand = public_from_record(record)
    assert POCKETS["C"][0] not in json.dumps(hand)
    seats = {s["name"]: s for s in hand["seats"]}
    assert seats["B"]["pocket"] == list(POCKETS["B"]) and seats["B"]["result"] == "wins"
    assert seats["C"]["pocket"] is None and seats["C"]["best"] is None and seats["C"]["result"] == "folded"
    assert (hand["source"], hand["decided"], hand["winners"]) == ("log", True, ["B"])


def test_a_log_record_without_the_revealed_flag_shows_no_pocket():
    record = logged_hand(["A", "B"], LOG_BOARD, {"A": POCKETS["A"], "B": POCKETS["B"]})
    del record["best_hands"]["A"]["revealed"]
    seats = {s["name"]: s for s in public_from_record(record)["seats"]}
    assert seats["A"]["pocket"] is None and seats["B"]["pocket"] == list(POCKETS["B"])


def test_the_hand_shown_is_the_hand_in_play_once_dealt_else_the_last_finished():
    last = public_from_record(logged_hand(["A", "B"], LOG_BOARD, POCKETS, hand=1, session="s1"))
    live = public_from_state({**state_from_view(hand_in_play(hand=2)), "session": "s1",
                              "written": (T0 + timedelta(minutes=1)).isoformat()})
    assert current_hand(live, last) is live
    assert current_hand(None, last) is last and current_hand(live, None) is live
    empty = public_from_state(state_from_view(hand_in_play(hand=3, board=()))) | {"seats": []}
    assert current_hand(empty, last) is last  # nothing dealt yet: the last finished hand stays up
    # live logged hand 2 but its state file still shows hand 2 in play: the log is newer
    done = public_from_record(logged_hand(["A", "B"], LOG_BOARD, POCKETS, hand=2, session="s1",
                                          finished=T0 + timedelta(minutes=2)))
    assert current_hand(live, done) is done


def test_balances_are_over_the_last_session_unless_since_is_given():
    records = [logged_hand("AB", LOG_BOARD, {"A": POCKETS["A"], "B": POCKETS["B"]}, chips={"A": 5, "B": 5},
                           session="old"),
               logged_hand("AB", LOG_BOARD, {"A": POCKETS["A"], "B": POCKETS["B"]}, chips={"A": 7, "B": 7},
                           session="tonight", finished=T0 + timedelta(days=1))]
    out = balances(records)
    assert out["scope"] == "session" and out["hands"] == 1
    assert {p["name"]: p["net"] for p in out["players"]} == {"A": -7, "B": 7}
    assert out["transfers"] == [{"from": "A", "from_kind": "player", "to": "B", "to_kind": "player", "amount": 7}]
    assert balances(records, since=T0 - timedelta(days=1))["hands"] == 2
    assert balances([]) is None


# -- the delay -------------------------------------------------------------------------------
def test_the_timeline_serves_the_newest_snapshot_older_than_the_delay():
    t = Timeline(delay=30)
    assert t.current(1000.0) is None
    assert t.add(100.0, "a") and t.add(110.0, "b") and t.add(140.0, "c")
    assert t.current(129.9) is None
    assert t.current(130.0).payload == "a"
    assert t.next_time(135.0) == 140.0
    assert t.current(165.0).payload == "b"
    assert t.current(170.0).payload == "c" and t.current(170.0).number == 3
    assert len(t) == 1  # what can no longer be served is dropped


def test_the_timeline_keeps_time_going_forward_and_ignores_repeats():
    t = Timeline(delay=0)
    assert t.add(100.0, "a")
    assert not t.add(101.0, "a")  # nothing changed
    assert t.add(50.0, "b")  # dated before the last one: counts from the last one
    assert t.current(99.0) is None and t.current(100.0).payload == "b"


def test_a_delay_of_zero_is_allowed_and_a_negative_one_is_not():
    assert Timeline(0).current(5.0) is None
    for bad in (-1, float("nan"), float("inf"), "30", True):
        with pytest.raises(ValueError):
            Timeline(bad)


# -- following the files ------------------------------------------------------------------------
def test_the_log_follower_reads_appended_hands_and_waits_for_a_line_in_writing(tmp_path):
    path = tmp_path / "hands.jsonl"
    follower = LogFollower(path)
    assert follower.poll() == (False, None) and follower.records == []
    HandLog(path).append(logged_hand("AB", LOG_BOARD, POCKETS, hand=1))
    changed, mtime = follower.poll()
    assert changed and mtime == os.stat(path).st_mtime and len(follower.records) == 1
    line = json.dumps(logged_hand("AB", LOG_BOARD, POCKETS, hand=2)).encode()
    with open(path, "ab") as fh:
        fh.write(line[:50])  # half written
    assert follower.poll()[0] is False and len(follower.records) == 1
    with open(path, "ab") as fh:
        fh.write(line[50:] + b"\n")
    assert follower.poll()[0] and [r["hand"] for r in follower.records] == [1, 2]


def test_the_log_follower_skips_a_torn_line_and_reads_a_replaced_log_again(tmp_path):
    path = tmp_path / "hands.jsonl"
    log = HandLog(path)
    log.append(logged_hand("AB", LOG_BOARD, POCKETS, hand=1))
    with open(path, "ab") as fh:
        fh.write(b'{"schema":"dealer-assist/hand-log","version":1,"ha')  # a crash in the middle of a write
    follower = LogFollower(path)
    follower.poll()
    log.append(logged_hand("AB", LOG_BOARD, POCKETS, hand=2))  # live starts the next record on a fresh line
    follower.poll()
    assert [r["hand"] for r in follower.records] == [1, 2] and follower.skipped == 1
    path.unlink()
    assert follower.poll()[0] and follower.records == []
    log.append(logged_hand("AB", LOG_BOARD, POCKETS, hand=7))
    assert follower.poll()[0] and [r["hand"] for r in follower.records] == [7]


def test_the_state_follower_reads_the_file_when_it_changes(tmp_path):
    path = tmp_path / "hands.state.json"
    follower = StateFollower(path)
    assert follower.poll() == (False, None)
    write_state(state_from_view(hand_in_play()), path)
    changed, mtime = follower.poll()
    assert changed and follower.obj["hand"] == 2 and mtime is not None
    assert follower.poll()[0] is False
    path.write_text("{not json", encoding="utf-8")
    assert follower.poll()[0] and follower.obj is None and "is not JSON" in follower.problem
    path.unlink()
    follower.poll()
    assert follower.obj is None and follower.problem is None


def test_a_folder_or_a_pipe_cannot_be_followed_but_a_missing_file_can(tmp_path):
    assert path_refusal(tmp_path / "later.jsonl", "hand log") is None
    assert "is a folder" in path_refusal(tmp_path, "hand log")
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    assert "not a regular file" in path_refusal(fifo, "hand log")


def test_a_seat_that_did_not_reveal_at_a_called_showdown_keeps_its_note_hidden():
    from dealer_assist.live.history import hand_record
    from dealer_assist.live.table_state import TableState
    from dealer_assist.live.table_view import table_view
    from spectator_helpers import note

    state = TableState(seats=("A", "B", "C"), position=1).with_showdown()
    notes = [note(i + 1, "board", s) for i, s in enumerate(LOG_BOARD)]
    notes += [note(5, "A", POCKETS["A"][0]), note(6, "A", POCKETS["A"][1]), note(7, "B", POCKETS["B"][0]),
              note(8, "B", POCKETS["B"][1]), note(9, "C", POCKETS["C"][0]), note(10, "C", None)]
    record = hand_record(table_view(state, notes), session="s", started=T0, finished=T0, end="new hand")
    assert record["status"] == "showdown" and POCKETS["C"][0] in json.dumps(record)
    hand = public_from_record(record)
    assert POCKETS["C"][0] not in json.dumps(hand)
    assert {s["name"]: s["result"] for s in hand["seats"]} == {"A": "loses", "B": "wins", "C": "not revealed"}
