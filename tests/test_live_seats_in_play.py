"""Seats in play (issue 13): a seat whose notes were seen during the deal, or that the croupier puts
in, stays in the hand; the showdown waits for its notes and says so. A hand is never decided with a
player silently absent (RULES.md §4: only a player who folds or does not reveal is left out)."""

from __future__ import annotations

import numpy as np

from dealer_assist.live.commands import parse_command
from dealer_assist.live.session import LiveOptions, LiveSession
from dealer_assist.live.table_state import NoteInfo, TableState
from dealer_assist.live.table_view import table_view
from dealer_assist.live.tracker import Observation
from dealer_assist.live.worker import InlineWorker

from live_helpers import plain_profile

SEATS = ("A", "B", "C")


def note(key: str, zone: str, serial: str | None, t: float, status: str = "trusted") -> NoteInfo:
    return NoteInfo(key, int(key[1:]), zone, serial, status if serial else "blank", 0.9 if serial else 0.0, t)


BOARD = [note("t1", "board", "9111111", 0.0), note("t2", "board", "8111111", 1.0), note("t3", "board", "7111111", 2.0)]
A = [note("t4", "A", "9444444", 3.0), note("t5", "A", "9555555", 3.1)]
B = [note("t6", "B", "3222222", 3.2), note("t7", "B", "4333333", 3.3)]


def test_a_seat_seen_during_the_deal_blocks_the_showdown_until_its_notes_are_known():
    state = TableState(SEATS, position=1)
    view = table_view(state, BOARD + A + B, seen={"A", "B", "C"})  # C's notes were seen, then lifted
    assert not view.complete and view.seat("C").in_hand
    assert any(w.startswith("C: 0 of 2 pocket notes known (none on the table now") for w in view.waiting)
    assert view.result_json()["status"] == "incomplete" and "C" in view.result_json()["players"]
    # without the camera's memory the hand would have been decided without C
    assert table_view(state, BOARD + A + B).complete


def test_the_croupier_puts_a_seat_in_or_sits_it_out():
    state = TableState(SEATS, position=1).with_in_play("C")
    view = table_view(state, BOARD + A + B)
    assert view.seat("C").in_hand and not view.complete
    assert any("the croupier put this seat in the hand" in w for w in view.waiting)
    out = state.with_in_play("C", playing=False)
    decided = table_view(out, BOARD + A + B + [note("t9", "C", None, 4.0)], seen={"C"})
    assert not decided.seat("C").in_hand and decided.complete and decided.winners == ("A",)


def test_a_folded_seat_seen_earlier_does_not_block_and_a_called_showdown_leaves_it_out():
    state = TableState(SEATS, position=1)
    assert table_view(state.with_fold("C"), BOARD + A + B, seen={"C"}).complete
    called = table_view(state.with_showdown(), BOARD + A + B, seen={"C"})
    assert called.complete and called.seat("C").result == "not revealed"


def test_in_and_out_are_commands():
    assert parse_command("in P3").name == "in" and parse_command("out 2").args == ("2",)


def test_the_session_remembers_seats_whose_notes_it_saw():
    profile = plain_profile((320, 180), list(SEATS))
    session = LiveSession(profile, TableState(SEATS, position=1), InlineWorker(read=lambda job: ()),
                          LiveOptions(auto_new_hand=False))
    zone = next(z for z in profile.table.zones if z.name == "C")
    c = np.asarray(zone.polygon_mm, float).mean(axis=0)
    quad = np.array([c + [-78, -34], c + [78, -34], c + [78, 34], c + [-78, 34]])
    session.tracker.apply([Observation(quad, None, 0.0, "blank", "face down", placed=True)],
                          (0, 0, 1000, 700), 1, 0.1)
    session.notes()
    assert "C" in session.seen_seats
    session.tracker.clear()  # the player lifted the notes
    session._changed()
    assert session.view().seat("C").in_hand
    session.command(parse_command("out C"))
    assert not session.view().seat("C").in_hand
    session.finish_hand("new hand")
    assert session.seen_seats == set() and not session.view().seat("C").in_hand
