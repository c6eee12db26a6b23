"""Live mode with --game indian (RULES.md §7): one note per seat, no board, the seats-in-play rule, the
dashboard, the hand log and the spectator's public hand."""

from __future__ import annotations

import io
import json
from datetime import datetime, timezone

from rich.console import Console

from dealer_assist.live.dashboard import render_dashboard
from dealer_assist.live.dashboard_cells import LiveStatus
from dealer_assist.live.history import hand_record
from dealer_assist.live.table_state import NoteInfo, TableState, parse_slot
from dealer_assist.live.table_view import table_view
from dealer_assist.rules import Game
from dealer_assist.spectator.public import public_from_record, public_from_state
from dealer_assist.spectator.state import state_from_view

SEATS = ("anna", "boris", "chen")
# P=3: anna a natural 5; boris d3=0, left d2=3 and right d4=1: a modified 3; chen a natural 3
NOTES = {"anna": "0658952", "boris": "5301725", "chen": "5934905"}


def note(i: int, seat: str, serial: str | None, status: str = "trusted") -> NoteInfo:
    return NoteInfo(f"t{i}", i, seat, serial, status, 0.9 if serial else 0.0, float(i))


def dealt(**override) -> list[NoteInfo]:
    return [note(i, seat, override.get(seat, NOTES[seat]), "pending" if seat in override else "trusted")
            for i, seat in enumerate(SEATS, 1)]


def state(**chips) -> TableState:
    s = TableState(SEATS, 3, game=Game.INDIAN)
    for seat, amount in chips.items():
        s = s.with_chips(seat, amount)
    return s


def text(view, width=120, height=None) -> str:
    console = Console(record=True, width=width, file=io.StringIO(), color_system=None)
    console.print(render_dashboard(view, LiveStatus("ok", 20.0), "en", width=width, height=height))
    return console.export_text()


def test_7_live_one_note_per_seat_decides_with_no_board():
    view = table_view(state(anna=2, boris=2, chen=2), dealt())
    assert view.complete and view.winners == ("anna",) and view.street == "showdown"
    assert view.settlement.payouts == {"anna": 6, "boris": 0, "chen": 0}
    assert view.seat("boris").best.ranks == (3,) and not view.seat("boris").best.natural
    assert view.hand_json()["game"] == "indian" and view.hand_json()["board"] == []


def test_7_live_a_seat_dealt_a_note_blocks_the_decision_until_its_note_is_known():
    view = table_view(state(), dealt(chen=None))
    assert not view.complete and view.winners == ()
    assert "chen 1: the camera is still reading this note." in view.waiting
    assert "chen: the note is not known yet." in view.waiting
    # a folded seat's note need not be known
    folded = table_view(state().with_fold("chen"), dealt(chen=None))
    assert folded.complete and folded.winners == ("anna",)


def test_7_live_notes_in_the_board_zone_do_not_play_and_chips_that_are_not_the_stakes_are_said():
    notes = dealt() + [note(9, "board", "9999999")]
    view = table_view(state(), notes)
    assert view.board == () and view.complete and view.winners == ("anna",)
    assert "The board zone holds 1 note(s); Indian poker has no board, so they do not play." in view.problems
    refused = table_view(state(anna=2, boris=1, chen=2), dealt())
    assert not refused.complete
    assert any(line.startswith("The rules refuse the hand as it stands: boris: contributed is 1")  # the seat's name
               for line in refused.waiting)


def test_7_live_a_slot_is_a_seat_and_its_one_note():
    assert parse_slot("boris 1", SEATS, Game.INDIAN) == ("boris", 1)
    for wrong, sentence in (("boris 2", "boris holds one note in Indian poker (boris 1), not 2."),
                            ("board 1", "Indian poker has no board notes; give a seat and its note, e.g. 'anna 1'.")):
        try:
            parse_slot(wrong, SEATS, Game.INDIAN)
        except ValueError as error:
            assert str(error) == sentence
        else:
            raise AssertionError(wrong)


def test_7_dashboard_shows_one_note_per_seat_its_rank_why_and_the_winner():
    full = text(table_view(state(anna=2, boris=2, chen=2), dealt()))
    assert "Indian poker · showdown" in full and "Board" not in full
    assert "d3=0 → left to d2=3, modified" in full and "Winner: anna" in full
    compact = text(table_view(state(), dealt()), width=80, height=24)
    assert "Indian poker (showdown)" in compact and "53[0]1725→3" in compact and "Winner: anna" in compact


def test_7_hand_log_record_and_the_spectators_public_hand_say_the_game():
    view = table_view(state(anna=2, boris=2, chen=2), dealt())
    now = datetime(2026, 12, 3, 10, 0, tzinfo=timezone.utc)
    record = hand_record(view, session="s", started=now, finished=now, end="quit")
    assert record["game"] == "indian" and record["input"]["game"] == "indian"
    assert record["settlement"]["payouts"] == {"anna": 6, "boris": 0, "chen": 0}
    for public in (public_from_record(json.loads(json.dumps(record))),
                   public_from_state(json.loads(json.dumps(state_from_view(view))))):
        assert public["game"] == "indian" and public["board"] == []
        boris = next(s for s in public["seats"] if s["name"] == "boris")
        assert boris["pocket"] == ["5301725"]
        assert boris["best"]["ranks"] == [3] and boris["best"]["reason"] == "d3=0 → left to d2=3, modified"
    # a Hold'em record (no "game") is still read as Hold'em
    del record["game"]
    assert public_from_record(record)["game"] == "holdem"


def test_7_1_the_spectator_screen_shows_no_note_before_the_hand_is_decided():
    # a note typed before the showdown: its player must not read it off the screen everyone sees
    early = table_view(state(), dealt(chen=None))
    written = state_from_view(early)
    assert all("pocket" not in seat for seat in written["seats"])
    forged = json.loads(json.dumps(written))
    forged["seats"][0]["pocket"] = [NOTES["anna"]]  # a hand-edited state file
    public = public_from_state(forged)
    assert all(seat["pocket"] is None and seat["best"] is None for seat in public["seats"])


def _boardless_profile(path):
    import numpy as np

    from dealer_assist.calibration import Profile, TablePlane, save_profile
    from dealer_assist.calibration.table import zones_from_json

    zones = zones_from_json([{"name": n, "kind": "seat", "polygon_mm": [[x, 0], [x + 300, 0], [x + 300, 300]]}
                             for n, x in (("anna", 0), ("boris", 400))], "zones.json")
    assert [z.name for z in zones] == ["anna", "boris"]  # a table of Indian poker only needs no board zone
    save_profile(Profile(path.stem, None, None, TablePlane((1280, 720), np.eye(3), (1000.0, 700.0), tuple(zones))),
                 path)
    return path


def test_7_a_table_without_a_board_zone_plays_indian_poker_and_holdem_refuses_it(tmp_path):
    from typer.testing import CliRunner

    from dealer_assist.calibration import load_profile
    from dealer_assist.cli import app

    profile = _boardless_profile(tmp_path / "indian_table.json")
    assert load_profile(str(profile)).table.board is None
    runner = CliRunner()
    holdem = runner.invoke(app, ["live", "--camera", str(tmp_path / "none.mp4"), "--calibration", str(profile),
                                 "--position", "3", "--no-window", "--no-log"])
    assert holdem.exit_code == 2
    assert "has no board zone, which Hold'em needs" in " ".join(holdem.output.split())
    indian = runner.invoke(app, ["live", "--camera", str(tmp_path / "none.mp4"), "--calibration", str(profile),
                                 "--position", "3", "--game", "indian", "--no-window", "--no-log"])
    assert indian.exit_code == 2 and "There is no camera, video or image" in indian.output  # past the profile
