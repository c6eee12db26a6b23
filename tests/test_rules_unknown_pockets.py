"""RULES.md §4: players whose pocket notes are not known (folded, not revealed) and the button's seat.

The rules engine is the one authority for a showdown: live mode hands it every seat in the hand,
including seats whose notes stayed face down, and takes winners, settlement and odd chips from it.
"""

from __future__ import annotations

import pytest

from dealer_assist.live.table_state import NoteInfo, TableState
from dealer_assist.live.table_view import table_view
from dealer_assist.rules import Hand, HandError, Player, dealer_among, evaluate, is_serial, repeated_serials

BOARD = ("9111111", "8111111", "7111111")


def test_4_a_folded_or_unrevealed_player_may_have_no_known_pocket():
    hand = Hand(1, BOARD, (Player("A", ("9444444", "9555555"), 10), Player("B", (), 10, folded=True),
                           Player("C", (), 10, revealed=False)))
    result = evaluate(hand)
    assert result.winners == ("A",)
    assert result.player("B").best is None and result.player("C").best is None
    assert result.settlement.payouts == {"A": 30, "B": 0, "C": 0}
    assert not hand.pockets_known


def test_4_a_player_still_in_and_revealed_needs_both_pocket_notes():
    with pytest.raises(HandError, match=r"players\[1\]\.pocket has 0 note\(s\); exactly 2"):
        Hand(1, BOARD, (Player("A", ("9444444", "9555555")), Player("B", ())))


def test_4_the_last_player_standing_wins_without_showing():
    result = evaluate(Hand(1, BOARD, (Player("A", (), 5, revealed=False), Player("B", (), 7, folded=True))))
    assert result.winners == ("A",) and result.settlement.payouts == {"A": 12, "B": 0}


def test_4_the_button_among_the_players_is_the_dealer_or_the_nearest_on_the_dealer_s_right():
    seats = ["A", "B", "C", "D", "E"]
    assert dealer_among(seats, "C", ["A", "C", "E"]) == "C"
    assert dealer_among(seats, "D", ["A", "B", "E"]) == "B"
    assert dealer_among(seats, "A", ["C", "D"]) == "D"  # round the table
    # so odd chips still go from the dealer's left: D dealt, E is first
    hand = Hand(1, (), tuple(Player(n, ("1111111", "2222222")) for n in ["A", "B", "E"]),
                dealer=dealer_among(seats, "D", ["A", "B", "E"]))
    assert hand.odd_chip_order() == ("E", "A", "B")


def test_4_odd_chips_in_live_start_left_of_a_dealer_who_is_not_in_the_hand():
    # seats A..D, dealer B has no notes; A and D split a 3-chip pot: the odd chip goes to C's left first -> D
    state = TableState(seats=("A", "B", "C", "D"), position=1, dealer_index=1)
    for seat, chips in (("A", 1), ("C", 1), ("D", 1)):
        state = state.with_chips(seat, chips)
    state = state.with_fold("C")
    notes = [NoteInfo("b1", 1, "board", BOARD[0], "trusted", 0.9, 0.0),
             NoteInfo("b2", 2, "board", BOARD[1], "trusted", 0.9, 1.0),
             NoteInfo("b3", 3, "board", BOARD[2], "trusted", 0.9, 2.0),
             NoteInfo("a1", 4, "A", "1222222", "trusted", 0.9, 3.0),
             NoteInfo("a2", 5, "A", "1333333", "trusted", 0.9, 3.1),
             NoteInfo("d1", 6, "D", "1444444", "trusted", 0.9, 3.2),
             NoteInfo("d2", 7, "D", "1555555", "trusted", 0.9, 3.3)]
    view = table_view(state, notes)
    assert view.complete and view.winners == ("A", "D")
    assert view.settlement.payouts == {"A": 1, "C": 0, "D": 2}


def test_2_a_serial_is_seven_ascii_digits_everywhere():
    assert is_serial("0123456")
    assert not any(is_serial(x) for x in ("０１２３４５６", "012345", "01234567", "٠١٢٣٤٥٦", 1234567, None))


def test_1_one_note_cannot_lie_in_two_places():
    assert repeated_serials([("x", "1"), ("y", "2"), ("z", "1"), ("w", "1")]) == [("1", ["x", "z", "w"])]
    assert repeated_serials([]) == []
