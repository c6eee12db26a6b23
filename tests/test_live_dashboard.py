"""The table state (RULES.md §1-5 at the live table) and the dashboard rendered into a recording console."""

from __future__ import annotations

import io
import json
import re

import pytest
from rich.console import Console

from dealer_assist.live.dashboard import LiveStatus, render_dashboard
from dealer_assist.live.table_state import NoteInfo, TableState, parse_slot
from dealer_assist.live.table_view import table_view
from dealer_assist.rules import evaluate, parse_hand, result_to_json

SEATS = ("alice", "boris", "chen")
BOARD = ("1119111", "1118111", "1117111")
POCKETS = {"alice": ("1111111", "2222222"), "boris": ("3330333", "5555555"), "chen": ("9999999", "9990999")}


def notes(board=BOARD, pockets=None, status="trusted") -> list[NoteInfo]:
    pockets = POCKETS if pockets is None else pockets
    out, i = [], 0
    for s in board:
        i += 1
        out.append(NoteInfo(f"t{i}", i, "board", s if status == "trusted" else None, status, 0.9, float(i),
                            ((s, 1),) if status == "pending" else ()))
    for seat, pocket in pockets.items():
        for s in pocket:
            i += 1
            out.append(NoteInfo(f"t{i}", i, seat, s, "trusted", 0.9, float(i)))
    return out


def truth(position=4, **extra) -> dict:
    hand = {"position": position, "board": list(BOARD), "dealer": SEATS[0],
            "players": [{"name": n, "pocket": list(p)} for n, p in POCKETS.items()]}
    hand.update(extra)
    return result_to_json(evaluate(parse_hand(hand)))


def record(renderable, width=140) -> str:
    console = Console(record=True, width=width, file=io.StringIO(), color_system=None)
    console.print(renderable)
    return console.export_text()


# ------------------------------------------------------------------ RULES.md §1: streets from the board count


@pytest.mark.parametrize("count,street", [(0, "preflop"), (1, "flop"), (2, "turn"), (3, "showdown")])
def test_street_from_board_count(count, street):
    view = table_view(TableState(SEATS, 4), notes(board=BOARD[:count]))
    assert view.street == street
    assert view.complete == (count == 3)


def test_river_waits_for_the_pocket_notes():
    view = table_view(TableState(SEATS, 4), notes(pockets={"alice": POCKETS["alice"], "boris": ("3330333",)}))
    assert view.street == "river" and not view.complete and view.winners == ()
    assert "boris: 1 of 2 pocket notes known." in view.waiting


# ------------------------------------------------------------------ RULES.md §3-4 through the rules engine


def test_showdown_equals_the_rules_engine():
    view = table_view(TableState(SEATS, 4), notes())
    expected = truth()
    out = view.result_json()
    assert out["winners"] == expected["winners"] == ["chen"]
    for name in SEATS:
        assert out["players"][name]["class"] == expected["players"][name]["class"]
        assert out["players"][name]["ranks"] == expected["players"][name]["ranks"]
    assert out["serials"]["players"]["boris"] == list(POCKETS["boris"])
    assert out["status"] == "showdown"
    json.dumps(out)  # the --json output is plain JSON


def test_pending_notes_never_play():
    view = table_view(TableState(SEATS, 4), notes(status="pending"))
    assert not view.complete and view.board_serials == ()
    assert len(view.pending) == 3
    assert "board 1: the camera is still reading this note." in view.waiting
    assert all(seat.best is None for seat in view.seats)


def test_typed_serial_replaces_a_pending_read():
    state = TableState(SEATS, 4)
    pending = notes(status="pending")
    for i, serial in enumerate(BOARD, 1):
        state = state.with_serial(f"t{i}", serial)
    view = table_view(state, pending)
    assert view.complete and view.winners == ("chen",)
    assert {s.source for s in view.board} == {"manual"}


def test_typed_serial_for_a_note_the_camera_has_not_found():
    state = TableState(SEATS, 4).with_serial("chen#2", "9990999")
    view = table_view(state, notes(pockets={**POCKETS, "chen": ("9999999",)}))
    assert view.seat("chen").serials == ("9999999", "9990999") and view.complete
    with pytest.raises(ValueError):
        state.with_serial("chen#2", "99909")


def test_all_but_one_folded_wins_without_showing():
    state = TableState(SEATS, 4).with_fold("boris").with_fold("chen")
    view = table_view(state, notes(board=BOARD[:1], pockets={"alice": (), "boris": ("3330333",), "chen": ("9999999",)}))
    assert view.complete and view.winners == ("alice",) or view.winners == ()
    # alice has no note seen yet: she is not in the hand; give her one
    view = table_view(state, notes(board=BOARD[:1], pockets={"alice": ("1111111",), "boris": ("3330333",),
                                                           "chen": ("9999999",)}))
    assert view.complete and view.winners == ("alice",)
    assert view.seat("boris").result == "folded"


def test_called_showdown_excludes_a_seat_that_did_not_reveal():
    pockets = {"alice": POCKETS["alice"], "boris": POCKETS["boris"], "chen": ()}
    state = TableState(SEATS, 4).with_chips("alice", 10).with_chips("boris", 10).with_chips("chen", 10)
    view = table_view(state, notes(pockets=pockets))
    assert not view.complete  # chen is in (chips) without notes: waiting
    view = table_view(state.with_showdown(), notes(pockets=pockets))
    assert view.complete and view.seat("chen").result == "not revealed"
    expected = result_to_json(evaluate(parse_hand({"position": 4, "board": list(BOARD), "players": [
        {"name": "alice", "pocket": list(POCKETS["alice"])}, {"name": "boris", "pocket": list(POCKETS["boris"])}]})))
    assert list(view.winners) == sorted(expected["winners"], key=SEATS.index) == ["alice", "boris"]
    # chip conservation: chen's chips too go to the two who tie (the board's straight)
    assert sum(view.settlement.payouts.values()) + view.settlement.carry == 30
    assert view.settlement.payouts == {"alice": 15, "boris": 15, "chen": 0}


def test_same_serial_in_two_places_blocks_the_showdown():
    view = table_view(TableState(SEATS, 4), notes(pockets={**POCKETS, "chen": ("9999999", BOARD[0])}))
    assert not view.complete
    assert any("1119111" in p and "two places" in p for p in view.problems)


def test_button_moves_left_each_hand_and_the_hand_is_cleared():
    state = TableState(SEATS, 4, dealer_index=2).with_fold("alice").with_chips("boris", 5).with_serial("t1", "1234567")
    nxt = state.next_hand()
    assert (state.dealer, nxt.dealer, nxt.next_hand().dealer) == ("chen", "alice", "boris")
    assert nxt.hand_number == 2 and nxt.folded == frozenset() and nxt.chips == () and nxt.manual == ()
    assert nxt.position == 4


def test_parse_slot():
    assert parse_slot("board 3", SEATS) == ("board", 3)
    assert parse_slot("Boris.2", SEATS) == ("boris", 2)
    assert parse_slot("3 1", SEATS) == ("chen", 1)
    for bad in ("board 4", "dana 1", "alice 3", "alice"):
        with pytest.raises(ValueError):
            parse_slot(bad, SEATS)


# ------------------------------------------------------------------ the dashboard (RULES.md §5)


def test_dashboard_shows_the_hand_and_the_winner():
    state = TableState(SEATS, 4, dealer_index=1, position_random=True)
    text = record(render_dashboard(table_view(state, notes()), LiveStatus("ok", 23.5, "idle", "camera 0"), "en"))
    assert "Hand 1" in text and "dealer: boris" in text and "P=4" in text and "(random)" in text
    assert "23.5 fps" in text and "camera: ok" in text
    assert "Winner: chen" in text
    assert "Set (Сет)" in text  # chen: 9, 9 and board... the best hand in both languages
    assert "d4=9, natural" in text and "d4=0 → right to d5=9, modified" in text  # ranks and why


def test_dashboard_highlights_the_digit_at_p_and_the_winners_panel():
    console = Console(record=True, width=140, file=io.StringIO(), color_system="truecolor")
    console.print(render_dashboard(table_view(TableState(SEATS, 4), notes()), LiveStatus("ok", 20.0), "en"))
    text = console.export_text(clear=False)
    html = console.export_html(inline_styles=True)
    # the digit at P=4 of each board serial is on its own, on yellow (render.POSITION_STYLE), and in
    # brackets, which a terminal without colours shows too
    for serial in BOARD:
        assert re.search(serial[:3] + r'<span style="[^"]*background-color: #808000[^"]*">\[' + serial[3] + r"\]</span>"
                         + serial[4:], html), serial
        assert f"{serial[:3]}[{serial[3]}]{serial[4:]}" in text
    # the winner's name is green and bold, the others' not
    assert re.search(r'<span style="color: #008000[^"]*font-weight: bold">chen +</span>', html)
    assert not re.search(r'<span style="color: #008000[^"]*font-weight: bold">alice +</span>', html)


def test_dashboard_shows_pending_notes_as_pending_and_says_what_it_waits_for():
    view = table_view(TableState(SEATS, 4), notes(status="pending"))
    text = record(render_dashboard(view, LiveStatus("ok", 20.0, "reading"), "en"))
    assert "1119111?  being read (reads: 1; the camera is reading it" in text and "Winner" not in text
    assert "Waiting for: the board has 0 of 3 notes known." in text  # lower case after the colon


def test_dashboard_camera_lost_and_settlement_in_russian():
    state = TableState(SEATS, 4).with_chips("alice", 10).with_chips("boris", 10).with_chips("chen", 10)
    view = table_view(state, notes())
    detail = "the camera stopped delivering frames (no frame); retrying in 2 s"
    text = record(render_dashboard(view, LiveStatus("lost", 0.0, "idle", camera_detail=detail), "ru"))
    assert "камера: потеряна (камера перестала давать кадры (кадра нет); новая попытка через 2 с)" in text
    assert "Победитель: chen" in text and "ВЫИГРЫВАЕТ" in text
    assert "основной" in text and "30" in text  # the main pot of 30 chips
    with pytest.raises(ValueError):
        render_dashboard(view, LiveStatus(), "de")


def test_notes_outside_every_zone_are_said_on_the_dashboard_and_in_the_json():
    """A seat whose notes lie outside its zone (zones that do not fit the table) must not vanish silently."""
    stray = [NoteInfo("t90", 90, None, "4444444", "trusted", 0.9, 90.0), NoteInfo("t91", 91, None, None, "pending", 0.0, 91.0)]
    view = table_view(TableState(SEATS, 4), notes(pockets={k: v for k, v in POCKETS.items() if k != "alice"}) + stray)
    assert [n.serial for n in view.outside] == ["4444444", None]
    assert any("2 notes lie outside" in p and "calibrate check" in p for p in view.problems)
    out = view.result_json()
    assert out["outside"] == ["4444444", None]
    assert any("outside" in p for p in out["problems"])
    assert "alice" not in out["players"]  # no note of hers is in her zone: not in the hand
    text = record(render_dashboard(view, LiveStatus("ok", 30.0, "idle"), "en", 140))
    assert "2 notes lie outside" in text and "4444444" in text
