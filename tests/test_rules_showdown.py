"""RULES.md §3-4 through the API: golden cases, winners, folding, revealing, seat order."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dealer_assist.rules import Hand, Player, TiePolicy, ZeroJoker, evaluate, parse_hand, result_to_json
from rules_golden import GOLDEN, case_id, differences, golden_cases

CASES = golden_cases()


def test_golden_file_is_there_and_complete():
    assert GOLDEN.is_file()
    assert len(CASES) == 329


@pytest.mark.parametrize("case", CASES, ids=[case_id(c) for c in CASES])
def test_3_4_golden_case_through_the_api(case):
    _, obj = case
    got = result_to_json(evaluate(parse_hand(obj)))
    assert differences(got, obj["expect"]) == []


def seat(name, a, b, **kw):
    return Player(name, (a, b), **kw)


BOARD = ("2555555", "3666666", "7888888")  # ranks 2, 3, 7 at P=1


def test_4_folded_player_is_ranked_but_cannot_win():
    hand = Hand(1, BOARD, (seat("A", "7111111", "7222222", folded=True), seat("B", "9123456", "1234567"),
                           seat("C", "9923456", "5123456")))
    result = evaluate(hand)
    assert result.player("A").best.hand_class.value == "set"
    assert result.winners == ("B",)  # B: 9, 1 + 2, 3, 7 -> straight 3-2-1; C: high 9-7-5
    assert result.player("B").best.ranks == (3, 2, 1)
    assert result.player("C").best.ranks == (9, 7, 5)


def test_4_player_who_does_not_reveal_is_excluded():
    hand = Hand(1, BOARD, (seat("A", "7111111", "7222222", revealed=False), seat("B", "9123456", "9234567")))
    assert evaluate(hand).winners == ("B",)


def test_4_last_player_standing_wins_without_revealing():
    hand = Hand(1, BOARD, (seat("A", "1111111", "2222222", revealed=False),
                           seat("B", "9123456", "9234567", folded=True)))
    assert evaluate(hand).winners == ("A",)


def test_4_everybody_folded_means_no_winner_and_the_pot_carries():
    hand = Hand(1, BOARD, (seat("A", "1111111", "2222222", folded=True, contributed=10),
                           seat("B", "9123456", "9234567", folded=True, contributed=40)))
    result = evaluate(hand)
    assert result.winners == ()
    assert (result.settlement.carry, dict(result.settlement.payouts)) == (50, {"A": 0, "B": 0})


def test_4_nobody_revealed_means_no_winner():
    hand = Hand(1, BOARD, (seat("A", "1111111", "2222222", revealed=False),
                           seat("B", "9123456", "9234567", revealed=False)))
    assert evaluate(hand).winners == ()


def test_3_no_hands_tie_and_split():
    hand = Hand(1, ("0000000",), (seat("A", "1111111", "2222222"), seat("B", "3333333", "4444444")))
    result = evaluate(hand)
    assert result.winners == ("A", "B")
    assert result.player("A").best is None


def test_3_a_hand_beats_no_hand():
    hand = Hand(1, ("5555555",), (seat("A", "0000000", "9999999"), seat("B", "1111111", "2222222")))
    assert evaluate(hand).winners == ("B",)


def test_3_preflop_nobody_has_a_hand():
    hand = Hand(1, (), (seat("A", "9999999", "9999999"), seat("B", "1111111", "2222222")))
    result = evaluate(hand)
    assert [r.best for r in result.players] == [None, None]
    assert result.winners == ("A", "B")


def test_3_board_is_shared_and_ranked_once():
    hand = Hand(4, ("1230567",), (seat("A", "1111111", "2222222"), seat("B", "3333333", "4444444")))
    result = evaluate(hand)
    assert [o.rank for o in result.board[0]] == [5]
    assert result.player("A").notes[2] is result.board[0]


def test_options_from_strings_become_enums():
    hand = Hand(1, BOARD, (seat("A", "1111111", "2222222"), seat("B", "3333333", "4444444")),
                zero_joker="per-zero", tie_policy="rollover")
    assert (hand.zero_joker, hand.tie_policy) == (ZeroJoker.PER_ZERO, TiePolicy.ROLLOVER)


serial = st.lists(st.sampled_from("00123456789"), min_size=7, max_size=7).map("".join)


@st.composite
def hands(draw):
    n = draw(st.integers(2, 8))
    players = tuple(
        Player(
            f"P{i}",
            (draw(serial), draw(serial)),
            contributed=draw(st.integers(0, 100)),
            folded=draw(st.booleans()),
            revealed=draw(st.booleans()),
        )
        for i in range(n)
    )
    return Hand(
        position=draw(st.integers(1, 7)),
        board=tuple(draw(st.lists(serial, max_size=3))),
        players=players,
        zero_joker=draw(st.sampled_from(list(ZeroJoker))),
        tie_policy=draw(st.sampled_from(list(TiePolicy))),
        dealer=draw(st.sampled_from([None, *(p.name for p in players)])),
    )


@settings(max_examples=200, deadline=None)
@given(hand=hands(), data=st.data())
def test_3_4_seat_order_does_not_change_anyone_s_hand_or_the_winners(hand, data):
    order = data.draw(st.permutations(range(len(hand.players))))
    shuffled = Hand(hand.position, hand.board, tuple(hand.players[i] for i in order),
                    hand.zero_joker, hand.tie_policy, hand.dealer)
    a, b = evaluate(hand), evaluate(shuffled)
    for result in a.players:
        other = b.player(result.name)
        if result.best is None:
            assert other.best is None
        else:
            assert (result.best.hand_class, result.best.ranks, result.best.natural) == (
                other.best.hand_class, other.best.ranks, other.best.natural)
    assert set(a.winners) == set(b.winners)


@settings(max_examples=200, deadline=None)
@given(hand=hands())
def test_4_winners_hold_the_best_hand_among_contenders(hand):
    result = evaluate(hand)
    still_in = [r for r in result.players if not r.player.folded]
    if len(still_in) == 1:
        assert result.winners == (still_in[0].name,)
        return
    contenders = [r for r in still_in if r.player.revealed]
    if not contenders:
        assert result.winners == ()
        return
    top = max(r.strength for r in contenders)
    assert result.winners == tuple(r.name for r in contenders if r.strength == top)
