"""RULES.md §3: classes, comparison (class, ranks, natural over modified), best 3 of 3-5 notes."""

from __future__ import annotations

from collections import Counter
from itertools import product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dealer_assist.rules import NO_HAND, HandClass, best_hand, classify, hand_strength, rank_options
from dealer_assist.rules.notes import RankOption
from rules_reference import CLASS_ORDER, best_of, hand_of, ranks_of

TRIPLES = list(product(range(1, 10), repeat=3))

serial = st.lists(st.sampled_from("00123456789"), min_size=7, max_size=7).map("".join)
position = st.integers(1, 7)
joker = st.sampled_from(["off", "per-zero", "once"])


def natural(rank: int) -> tuple[RankOption, ...]:
    """A note whose rank at P=1 is ``rank``, natural."""
    return rank_options(f"{rank}111111", 1)


def modified(rank: int) -> tuple[RankOption, ...]:
    """A board note whose rank at P=1 is ``rank`` by the right shift."""
    return rank_options(f"0{rank}11111", 1)


def test_3_exhaustive_729_ordered_rank_triples_by_class():
    counts = Counter(classify(*t)[0] for t in TRIPLES)
    assert len(TRIPLES) == 729
    assert counts == {HandClass.SET: 9, HandClass.STRAIGHT: 42, HandClass.PAIR: 216, HandClass.HIGH: 462}


def test_3_exhaustive_classes_and_ranks_match_the_table():
    for t in TRIPLES:
        hand_class, ranks = classify(*t)
        assert (hand_class.value, ranks) == hand_of(t), t


def test_3_exhaustive_order_of_all_729_triples_natural_and_modified():
    """Every pair of hands compares as class, then ranks by significance, then natural."""
    hands = []
    for t in TRIPLES:
        for nat in (False, True):
            cls, ranks = hand_of(t)
            hands.append(((CLASS_ORDER[cls], ranks, nat), hand_strength(*classify(*t), nat)))
    for key_a, strength_a in hands:
        for key_b, strength_b in hands:
            assert (key_a < key_b) == (strength_a < strength_b)
            assert (key_a == key_b) == (strength_a == strength_b)


def test_3_exhaustive_best_hand_of_three_natural_notes_is_the_triple():
    for t in TRIPLES:
        best = best_hand([natural(r) for r in t])
        assert (best.hand_class, best.ranks, best.natural) == (*classify(*t), True)
        assert sorted(best.notes) == [0, 1, 2]


def test_3_straights_do_not_wrap():
    assert classify(8, 9, 1)[0] is HandClass.HIGH
    assert classify(9, 1, 2)[0] is HandClass.HIGH
    assert classify(7, 8, 9) == (HandClass.STRAIGHT, (9, 8, 7))
    assert classify(1, 2, 3) == (HandClass.STRAIGHT, (3, 2, 1))


def test_3_order_of_classes_set_straight_pair_high():
    worst_set = hand_strength(*classify(1, 1, 1), False)
    best_straight = hand_strength(*classify(7, 8, 9), True)
    worst_straight = hand_strength(*classify(1, 2, 3), False)
    best_pair = hand_strength(*classify(9, 9, 8), True)
    worst_pair = hand_strength(*classify(1, 1, 2), False)
    best_high = hand_strength(*classify(9, 8, 6), True)
    assert worst_set > best_straight > worst_straight > best_pair > worst_pair > best_high > NO_HAND


def test_3_pair_compares_pair_rank_then_kicker_then_natural():
    assert hand_strength(*classify(7, 7, 5), False) > hand_strength(*classify(7, 7, 2), True)
    assert hand_strength(*classify(8, 8, 1), False) > hand_strength(*classify(7, 7, 9), True)
    assert hand_strength(*classify(7, 7, 5), True) > hand_strength(*classify(7, 7, 5), False)


def test_3_high_compares_second_and_third_ranks():
    assert hand_strength(*classify(9, 8, 6), True) > hand_strength(*classify(9, 8, 5), True)
    assert hand_strength(*classify(9, 7, 1), True) > hand_strength(*classify(9, 6, 5), True)


def test_3_natural_version_is_chosen_at_equal_value():
    # two notes give the kicker 5: note 1 only modified, note 3 natural
    notes = [natural(7), modified(5), natural(7), natural(5)]
    best = best_hand(notes)
    assert (best.hand_class, best.ranks, best.natural) == (HandClass.PAIR, (7, 7, 5), True)
    assert set(best.notes) == {0, 2, 3}


def test_3_kickers_come_before_natural():
    best = best_hand([natural(7), natural(7), natural(2), modified(5)])
    assert (best.ranks, best.natural) == ((7, 7, 5), False)


def test_3_fewer_than_three_live_notes_is_no_hand():
    dead = rank_options("0000000", 1)
    assert best_hand([natural(9), natural(9), dead]) is None
    assert best_hand([natural(9), natural(9)]) is None
    assert best_hand([]) is None
    assert best_hand([natural(9), dead, natural(9), dead, natural(9)]).ranks == (9, 9, 9)


def test_3_best_three_of_five_may_be_the_whole_board():
    pocket = [natural(1), natural(5)]
    board = [natural(9), natural(9), natural(9)]
    best = best_hand(pocket + board)
    assert (best.hand_class, best.notes) == (HandClass.SET, (2, 3, 4))


def test_3_best_hand_reports_notes_in_rank_order():
    best = best_hand([natural(5), natural(7), natural(9), natural(7)])
    assert best.ranks == (7, 7, 9)
    assert [best.options[i].rank for i in range(3)] == [7, 7, 9]
    assert best.notes[2] == 2


notes_strategy = st.lists(
    st.tuples(serial, st.booleans()), min_size=3, max_size=5
)


@settings(max_examples=300, deadline=None)
@given(notes=notes_strategy, p=position, z=joker)
def test_3_best_hand_matches_brute_force_reference(notes, p, z):
    """Includes "the natural version is chosen at equal value": natural is compared too."""
    got = best_hand([rank_options(s, p, pocket=pk, zero_joker=z) for s, pk in notes])
    want = best_of([ranks_of(s, p, pk, z) for s, pk in notes])
    if want is None:
        assert got is None
    else:
        assert (got.hand_class.value, got.ranks, got.natural) == want
        assert got.strength == hand_strength(got.hand_class, got.ranks, got.natural)
        # the reported notes and options really make that hand
        assert [o.rank for o in got.options] == list(got.ranks)
        assert all(o in rank_options(notes[i][0], p, pocket=notes[i][1], zero_joker=z)
                   for i, o in zip(got.notes, got.options))


def strength(best):
    return NO_HAND if best is None else best.strength


@settings(max_examples=300, deadline=None)
@given(notes=st.lists(st.tuples(serial, st.booleans()), min_size=3, max_size=4),
       extra=st.tuples(serial, st.booleans()), p=position, z=joker)
def test_3_best_hand_never_gets_worse_when_a_note_is_added(notes, extra, p, z):
    before = [rank_options(s, p, pocket=pk, zero_joker=z) for s, pk in notes]
    after = before + [rank_options(extra[0], p, pocket=extra[1], zero_joker=z)]
    assert strength(best_hand(after)) >= strength(best_hand(before))


@settings(max_examples=300, deadline=None)
@given(pocket=st.lists(serial, min_size=2, max_size=2), board=st.lists(serial, min_size=1, max_size=3),
       p=position)
def test_3_best_hand_never_gets_worse_when_the_joker_is_turned_on(pocket, board, p):
    def best(z):
        notes = [rank_options(s, p, pocket=True, zero_joker=z) for s in pocket]
        return strength(best_hand(notes + [rank_options(s, p) for s in board]))

    off, once, per_zero = best("off"), best("once"), best("per-zero")
    assert off <= once <= per_zero


def test_3_joker_seed_example_9_plus_1_makes_straight_1_2_3():
    pocket = rank_options("9111110", 1, pocket=True, zero_joker="per-zero")
    best = best_hand([pocket, natural(2), natural(3)])
    assert (best.hand_class, best.ranks, best.natural) == (HandClass.STRAIGHT, (3, 2, 1), False)
    assert best.options[2].reason == "d1=9, joker +1 → 1, modified"


@pytest.mark.parametrize("count", [6, 7])
def test_3_more_notes_than_five_still_pick_three(count):
    best = best_hand([natural(r) for r in range(1, count + 1)])
    assert best.ranks == (count, count - 1, count - 2)
