"""What the table's dashboard says about the club (live --club): connected, or offline with the backlog."""

from __future__ import annotations

import io

from rich.console import Console

from dealer_assist.club.outbox import CONNECTING, ClubStatus
from dealer_assist.live.dashboard import LiveStatus, render_dashboard
from dealer_assist.live.table_state import TableState
from dealer_assist.live.table_view import table_view


def shown(club, width=160) -> str:
    view = table_view(TableState(("ann", "bob"), 4), [])
    console = Console(record=True, width=width, file=io.StringIO(), color_system=None)
    console.print(render_dashboard(view, LiveStatus("ok", 10.0, "idle", "camera 0", club=club), "en"))
    return console.export_text()


def test_offline_club_is_in_the_header_with_the_hands_waiting():
    status = ClubStatus("T1", "10.0.0.5/club", online=False, waiting=3, since=0.0, error="Connection refused")
    line = status.line()
    assert line.startswith("club 10.0.0.5/club as T1: OFFLINE since ")
    assert line.endswith("3 hand(s) waiting in the log; the table plays on (Connection refused)")
    assert "OFFLINE since" in shown(status) and "3 hand(s) waiting in the log" in shown(status)


def test_connected_and_connecting_say_so():
    assert ClubStatus("T1", "h/club", True, 0, 0.0).line() == "club h/club as T1: connected, every hand stored"
    assert ClubStatus("T1", "h/club", True, 2, 0.0).line() == "club h/club as T1: connected, sending 2 hand(s)"
    starting = ClubStatus("T1", "h/club", False, 1, 0.0, CONNECTING).line()
    assert starting == "club h/club as T1: connecting…, 1 hand(s) waiting in the log" and "OFFLINE" not in starting
    assert "club" not in shown(None).lower()  # no club: no club line
