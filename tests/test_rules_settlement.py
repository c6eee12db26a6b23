"""RULES.md §4: layered side pots, odd chips from the dealer's left, rollover,
non-revealers, the uncontested pot, exact fractions, conservation of chips."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dealer_assist.rules import Hand, Player, TiePolicy, ZeroJoker, evaluate, settle


def test_4_side_pots_short_all_in_wins_the_main_pot_only():
    s = settle({"A": 40, "B": 100, "C": 100}, {"A": 3, "B": 1, "C": 2}, ["A", "B", "C"])
    assert [(p.amount, p.eligible, p.winners) for p in s.pots] == [
        (120, ("A", "B", "C"), ("A",)),
        (120, ("B", "C"), ("C",)),
    ]
    assert s.payouts == {"A": 120, "B": 0, "C": 120}
    assert s.carry == 0


def test_4_three_all_ins_make_three_pots():
    s = settle({"A": 10, "B": 20, "C": 30, "D": 30}, {"A": 4, "B": 3, "C": 2, "D": 1}, "ABCD")
    assert [(p.amount, p.winners) for p in s.pots] == [(40, ("A",)), (30, ("B",)), (20, ("C",))]


def test_4_odd_chips_one_at_a_time_from_the_dealer_s_left():
    # dealer A: order B, C, D, A; 17 chips to three tied winners -> 6, 6, 5
    s = settle({"A": 5, "B": 5, "C": 5, "D": 2}, {"A": 9, "B": 9, "C": 9}, ["B", "C", "D", "A"])
    assert s.payouts == {"A": 5, "B": 6, "C": 6, "D": 0}
    assert s.pots[0].eligible == ("B", "C", "A")
    # dealer C: order D, A, B, C -> A and B get the odd chips
    s = settle({"A": 5, "B": 5, "C": 5, "D": 2}, {"A": 9, "B": 9, "C": 9}, ["D", "A", "B", "C"])
    assert s.payouts == {"A": 6, "B": 6, "C": 5, "D": 0}


def test_4_exact_fractions_instead_of_odd_chips():
    s = settle({"A": 5, "B": 5, "C": 5, "D": 2}, {"A": 9, "B": 9, "C": 9}, "BCDA", exact=True)
    assert s.payouts == {"A": Fraction(17, 3), "B": Fraction(17, 3), "C": Fraction(17, 3), "D": 0}
    assert sum(s.payouts.values()) == 17


def test_4_rollover_carries_a_tied_pot_but_pays_an_untied_one():
    s = settle({"A": 10, "B": 30, "C": 30}, {"A": 9, "B": 5, "C": 5}, "ABC", tie_policy=TiePolicy.ROLLOVER)
    assert s.payouts == {"A": 30, "B": 0, "C": 0}
    assert s.carry == 40
    assert s.pots[1].winners == ("B", "C")


def test_4_non_revealer_s_chips_above_every_contender_join_the_pot_below():
    # B did not reveal (not a contender) and put in 100; A and C put in 2
    s = settle({"A": 2, "B": 100, "C": 2}, {"A": 1, "C": 5}, "ABC")
    assert [(p.amount, p.eligible, p.winners) for p in s.pots] == [(104, ("A", "C"), ("C",))]


def test_4_uncontested_pot_goes_to_the_last_player_standing():
    s = settle({"A": 5, "B": 30, "C": 10}, {"A": -1}, "ABC", last_standing="A")
    assert [(p.amount, p.eligible) for p in s.pots] == [(45, ("A",))]
    assert s.payouts == {"A": 45, "B": 0, "C": 0}


def test_4_last_player_standing_wins_even_without_chips_in():
    s = settle({"A": 0, "B": 30}, {}, "AB", last_standing="A")
    assert s.payouts == {"A": 30, "B": 0}


def test_4_pot_nobody_may_win_is_carried():
    s = settle({"A": 10, "B": 40}, {}, "AB", tie_policy="split")
    assert [(p.amount, p.eligible, p.winners) for p in s.pots] == [(50, (), ())]
    assert s.carry == 50


def test_4_contender_with_nothing_in_is_eligible_for_no_pot():
    s = settle({"A": 0, "B": 10, "C": 10}, {"A": 9, "B": 1, "C": 2}, "ABC")
    assert s.payouts == {"A": 0, "B": 0, "C": 20}


def test_4_no_chips_no_pots():
    s = settle({"A": 0, "B": 0}, {"A": 1, "B": 2}, "AB")
    assert (s.pots, s.payouts, s.carry) == ((), {"A": 0, "B": 0}, 0)


@pytest.mark.parametrize("bad", [-1, 2.5, True, "5"])
def test_4_contributions_must_be_whole_chips(bad):
    with pytest.raises(ValueError, match="whole number"):
        settle({"A": bad, "B": 1}, {"A": 1, "B": 2}, "AB")


def test_4_order_must_name_every_player():
    with pytest.raises(ValueError, match="order"):
        settle({"A": 1, "B": 1}, {"A": 1, "B": 2}, "A")


serial = st.lists(st.sampled_from("00123456789"), min_size=7, max_size=7).map("".join)


@st.composite
def hands_with_chips(draw):
    n = draw(st.integers(2, 8))
    players = tuple(
        Player(f"P{i}", (draw(serial), draw(serial)), contributed=draw(st.integers(0, 250)),
               folded=draw(st.booleans()), revealed=draw(st.booleans()))
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


@settings(max_examples=300, deadline=None)
@given(hand=hands_with_chips(), exact=st.booleans())
def test_4_chips_are_conserved(hand, exact):
    s = evaluate(hand, exact=exact).settlement
    total = sum(p.contributed for p in hand.players)
    assert sum(s.payouts.values()) + s.carry == total
    assert sum(p.amount for p in s.pots) == total
    assert all(v >= 0 for v in s.payouts.values())


@settings(max_examples=300, deadline=None)
@given(hand=hands_with_chips())
def test_4_only_contenders_win_and_shares_differ_by_at_most_one_chip(hand):
    result = evaluate(hand)
    s = result.settlement
    contenders = {r.name for r in result.players if r.contender}
    for name, chips in s.payouts.items():
        if name not in contenders:
            assert chips == 0
    for pot in s.pots:
        assert set(pot.winners) <= set(pot.eligible) <= contenders
        if pot.eligible:
            top = max(result.player(n).strength for n in pot.eligible)
            assert {result.player(n).strength for n in pot.winners} == {top}
    # eligible sets shrink from the main pot up: each side pot is for all-in survivors
    for lower, upper in zip(s.pots, s.pots[1:]):
        assert set(upper.eligible) < set(lower.eligible) or not upper.eligible


@settings(max_examples=200, deadline=None)
@given(amounts=st.lists(st.integers(0, 50), min_size=2, max_size=8), data=st.data())
def test_4_split_shares_are_equal_up_to_one_odd_chip_in_seat_order(amounts, data):
    names = [f"P{i}" for i in range(len(amounts))]
    contributions = dict(zip(names, amounts))
    strengths = {n: 7 for n in names}  # everybody ties
    start = data.draw(st.integers(0, len(names) - 1))
    order = names[start:] + names[:start]
    s = settle(contributions, strengths, order)
    for pot in s.pots:
        assert pot.winners == tuple(n for n in order if n in pot.winners)
    # in a single pot the first `odd` players in order get one chip more
    if len(s.pots) == 1 and s.pots[0].winners:
        pot = s.pots[0]
        share, odd = divmod(pot.amount, len(pot.winners))
        assert [s.payouts[n] for n in pot.winners] == [share + 1] * odd + [share] * (len(pot.winners) - odd)
