"""Live mode's game-night lines: each seat's exact all-in odds once every pocket in play is shown
before the board is complete, and the session's running balances on the dashboard."""

from __future__ import annotations

import io
from fractions import Fraction

from rich.console import Console

from dealer_assist.app.frame_loop import session_balances
from dealer_assist.live.dashboard import LiveStatus, render_dashboard
from dealer_assist.live.table_state import NoteInfo, TableState
from dealer_assist.live.table_view import table_view
from dealer_assist.rules import Hand, Player
from dealer_assist.rules.odds import all_in_odds
from ledger_helpers import BOARD, POCKETS, logged_hand


def _notes(board, pockets):
    notes, t = [], 0.0
    for zone, serials in [("board", board), *pockets.items()]:
        for serial in serials:
            t += 1
            notes.append(NoteInfo(f"t{len(notes)}", len(notes), zone, serial, "trusted", 0.9, t))
    return notes


def _screen(view, status, width=80, height=24):
    console = Console(file=io.StringIO(), width=width, height=height, color_system=None)
    console.print(render_dashboard(view, status, "en", width, height))
    return console.file.getvalue()


def test_odds_once_every_pocket_in_play_is_shown_before_the_river():
    state = TableState(("A", "B", "C"), position=1)
    view = table_view(state, _notes(BOARD[:1], POCKETS))
    expect = all_in_odds(Hand(1, BOARD[:1], tuple(Player(n, p) for n, p in POCKETS.items())))
    got = {s.name: s.odds for s in view.seats}
    assert got == {o.name: (float(o.win_exact), float(o.tie_exact)) for o in expect.players}
    # B holds a pair of nines with a 9 on the board: a set already; A and C need the board's help
    assert got["B"][0] > 0.9 and got["A"][0] < 0.05
    assert sum(w for w, _ in got.values()) <= 1.0 + 1e-12
    assert not view.complete


def test_no_odds_while_a_pocket_in_play_is_not_known_nor_after_the_showdown():
    partial = {"A": POCKETS["A"], "B": POCKETS["B"], "C": POCKETS["C"][:1]}
    view = table_view(TableState(("A", "B", "C"), position=1), _notes(BOARD[:2], partial))
    assert all(s.odds is None for s in view.seats)
    done = table_view(TableState(("A", "B", "C"), position=1), _notes(BOARD, POCKETS))
    assert done.complete and all(s.odds is None for s in done.seats)


def test_a_folded_seat_gets_no_odds_and_the_others_share_them():
    state = TableState(("A", "B", "C"), position=1, folded=frozenset({"B"}))
    view = table_view(state, _notes(BOARD[:1], POCKETS))
    odds = {s.name: s.odds for s in view.seats}
    assert odds["B"] is None
    expect = all_in_odds(Hand(1, BOARD[:1], (Player("A", POCKETS["A"]), Player("B", POCKETS["B"], folded=True),
                                              Player("C", POCKETS["C"]))))
    assert odds["A"] == (float(expect.players[0].win_exact), float(expect.players[0].tie_exact))


def test_the_dashboard_shows_the_odds_in_80x24_and_in_full():
    view = table_view(TableState(("A", "B", "C"), position=1), _notes(BOARD[:1], POCKETS))
    b_win = f"{view.seat('B').odds[0] * 100:.1f}%"
    compact = _screen(view, LiveStatus(camera="ok"))
    assert f"{b_win} win" in compact
    full = _screen(view, LiveStatus(camera="ok"), width=160, height=60)
    assert f"win {b_win}" in full and "tie " in full


def test_running_balances_after_decided_hands():
    first = logged_hand("ABC", BOARD, POCKETS, chips={"A": 10, "B": 30, "C": 30}, hand=1)
    second = logged_hand("ABC", BOARD, POCKETS, folded={"A", "B"}, chips={"A": 4, "B": 4, "C": 4}, hand=2)
    assert session_balances([first]) == (("A", -10), ("B", 40), ("C", -30))
    assert session_balances([first, second]) == (("A", -14), ("B", 36), ("C", -22))
    assert session_balances([logged_hand("ABC", BOARD, POCKETS, hand=3)]) == ()  # no chips: no line
    view = table_view(TableState(("A", "B", "C"), position=1), [])
    screen = _screen(view, LiveStatus(camera="ok", balances=session_balances([first, second])))
    assert "Session: A -14 · B +36 · C -22" in screen
    assert "Session" not in _screen(view, LiveStatus(camera="ok"))


def test_fractions_of_chips_in_balances_stay_exact():
    split = session_balances([logged_hand("AB", ("1111111", "5555555", "6666666"),
                                          {"A": ("2333333", "3444444"), "B": ("2777777", "3888888")},
                                          chips={"A": 5, "B": 4}, hand=1)])
    assert sum(Fraction(n) for _, n in split) == 0
