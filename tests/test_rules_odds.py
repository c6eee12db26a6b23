"""Exact all-in odds (dealer_assist.rules.odds, RULES.md §2-4), proved three ways:

* hand-counted cases, where the winning serials can be counted on paper;
* an independent enumeration of every serial for one unknown board note, grouped
  by which digits are zero (the only thing besides the first non-zero digit right
  of P that a board rank can depend on), each group's outcome found by evaluate();
* random serials dealt and evaluated 20,000 times, within 4 standard errors;
and with 3 known board notes the odds are evaluate()'s decided result."""

from __future__ import annotations

import math
import random
from fractions import Fraction
from itertools import product

import pytest

from dealer_assist.rules import NO_HAND, Hand, HandError, Player, best_hand, evaluate, parse_hand, rank_options
from dealer_assist.rules.odds import (
    DEAD,
    SERIALS,
    all_in_odds,
    board_class,
    board_class_sizes,
    odds_to_json,
    parse_odds_hand,
)
from rules_golden import golden_cases


def seat(name, a, b, **kw):
    return Player(name, (a, b), **kw)


# -- the board classes (RULES.md §2 rules 1-3) -------------------------------------------

@pytest.mark.parametrize("position", range(1, 8))
def test_2_board_class_sizes_match_an_enumeration_of_every_zero_pattern(position):
    # A serial's zero pattern and the first non-zero digit at or right of P (ring) fix its
    # board rank; the other non-zero digits are free (9 values each).
    counts = [0] * 19
    for zeros in product((True, False), repeat=7):
        nonzero = 7 - sum(zeros)
        if nonzero == 0:
            counts[board_class("0000000", position)] += 1
            continue
        for digit in range(1, 10):
            rng = random.Random(hash((zeros, digit, position)))
            serial = "".join("0" if z else str(rng.randint(1, 9)) for z in zeros)
            ahead = [(position - 1 + k) % 7 for k in range(7)]
            first = next(i for i in ahead if not zeros[i])
            serial = serial[:first] + str(digit) + serial[first + 1:]
            counts[board_class(serial, position)] += 9 ** (nonzero - 1)
    assert sum(counts) == SERIALS
    assert tuple(counts) == board_class_sizes()


def test_2_board_classes_are_option_codes_and_dead():
    assert board_class("7000000", 1) == 2 * 6 + 1  # natural 7
    assert board_class("0000700", 1) == 2 * 6  # modified 7 (right to d5)
    assert board_class("1000000", 2) == 0  # right, wrapping to d1=1: modified 1
    assert board_class("0000000", 5) == DEAD


# -- hand-counted cases ---------------------------------------------------------------------

def test_4_a_natural_set_of_nines_cannot_lose_whatever_comes():
    # A: pocket 9, 9 + board 9, all natural: the best hand there is; 2 board notes to come.
    # B can only tie, by playing the board alone when both notes to come are natural 9s.
    hand = Hand(1, ("9111111",), (seat("A", "9333333", "9444444"), seat("B", "5555555", "6666666")))
    odds = all_in_odds(hand)
    deals = (SERIALS - 5) * (SERIALS - 6)
    nines = 10**6 - 3
    assert odds.board_unknown == 2 and odds.deals == deals
    assert odds.player("A").win_exact == Fraction(deals - nines * (nines - 1), deals)
    assert odds.player("A").tie_exact == odds.player("B").tie_exact == Fraction(nines * (nines - 1), deals)
    assert odds.player("B").win_exact == 0
    # with a known 5 on the board instead, nothing can tie A: a win every time
    hand = Hand(1, ("9111111", "5222222"), (seat("A", "9333333", "9444444"), seat("B", "5555555", "6666666")))
    assert [(p.win_exact, p.tie_exact) for p in all_in_odds(hand).players] == [(1, 0), (0, 0)]


def test_3_natural_beats_modified_counted_on_the_modified_class():
    # P=1, board ranks 1 and 2 known. A has 3 (natural) and 8: straight 3-2-1 natural.
    # B has 0300000 (rank 3, modified) and 6: straight 3-2-1 modified. The last note:
    # a modified 4 gives both the modified straight 4-3-2: a tie; a natural 3 makes the
    # board a natural straight 3-2-1 that both play: a tie; a natural 4 gives A the
    # natural straight 4-3-2; anything else leaves A's natural straight 3-2-1 ahead.
    hand = Hand(1, ("1222222", "2333333"), (seat("A", "3444444", "8555555"), seat("B", "0300000", "6666666")))
    odds = all_in_odds(hand)
    left = SERIALS - 6
    modified_fours = 111_111  # 04xxxxx: 10**5, 004xxxx: 10**4, ..., 0000004: 1
    natural_threes = 10**6 - 1  # 3444444 is in A's pocket
    ties = modified_fours + natural_threes
    assert odds.deals == left
    assert odds.player("A").win_exact == Fraction(left - ties, left)
    assert odds.player("A").tie_exact == odds.player("B").tie_exact == Fraction(ties, left)
    assert odds.player("B").win_exact == 0
    assert odds.split_exact == Fraction(ties, left)


def test_4_two_notes_to_come_counted_by_hand():
    # P=1. B already holds a natural set of 8s (pocket 8, 8 + board 8). A (pocket 9, 9)
    # wins when a 9, natural or modified, is among the two notes to come; the two play
    # the board's natural set of 8s and split when both notes are natural 8s; B wins otherwise.
    hand = Hand(1, ("8111111",), (seat("A", "9444444", "9555555"), seat("B", "8222222", "8333333")))
    odds = all_in_odds(hand)
    n = SERIALS - 5
    nines = 10**6 - 2 + 111_111
    natural_eights = 10**6 - 3
    deals = n * (n - 1)
    assert odds.deals == deals
    a_wins = deals - (n - nines) * (n - nines - 1)
    split = natural_eights * (natural_eights - 1)
    assert odds.player("A").win_exact == Fraction(a_wins, deals)
    assert odds.player("A").tie_exact == odds.player("B").tie_exact == Fraction(split, deals)
    assert odds.player("B").win_exact == Fraction(deals - a_wins - split, deals)


def test_4_folded_and_unrevealed_players_have_no_chance_and_the_last_standing_wins():
    hand = Hand(2, (), (seat("A", "1111111", "2222222", folded=True), seat("B", "3333333", "4444444"),
                        seat("C", "5555555", "6666666", revealed=False)))
    odds = all_in_odds(hand)
    assert [(p.name, p.win, p.tie, p.status) for p in odds.players] == [
        ("A", 0.0, 0.0, "folded"), ("B", 1.0, 0.0, "in"), ("C", 0.0, 0.0, "not revealed")]
    hand = Hand(2, (), (seat("A", "1111111", "2222222", folded=True), seat("B", "3333333", "4444444", revealed=False)))
    assert all_in_odds(hand).player("B").win_exact == 1
    assert all_in_odds(hand).player("B").status == "last standing"


def test_4_nobody_left_means_nobody_wins():
    hand = Hand(2, (), (seat("A", "1111111", "2222222", folded=True), seat("B", "3333333", "4444444", folded=True)))
    assert [(p.win, p.tie) for p in all_in_odds(hand).players] == [(0.0, 0.0), (0.0, 0.0)]


def test_known_serials_leave_the_deck_even_of_folded_players_but_unknown_ones_do_not():
    base = [seat("A", "3444444", "8555555"), seat("B", "0300000", "6666666")]
    board = ("1222222", "2333333")
    plain = all_in_odds(Hand(1, board, tuple(base)))
    with_folded = all_in_odds(Hand(1, board, tuple(base) + (seat("C", "0400000", "7777777", folded=True),)))
    # C's modified 4 cannot come again: one fewer tie out of one fewer serial
    assert with_folded.deals == plain.deals - 2
    assert with_folded.player("A").tie_exact == Fraction(111_110 + 999_999, SERIALS - 8)
    hand, unknown = parse_odds_hand({"position": 1, "board": list(board), "players": [
        {"name": "A", "pocket": ["3444444", "8555555"]}, {"name": "B", "pocket": ["0300000", "6666666"]},
        {"name": "C", "pocket": [None, "7777777"], "folded": True}]})
    assert unknown == {("C", 0)}
    odds = all_in_odds(hand, unknown_notes=unknown)
    assert odds.deals == SERIALS - 7
    assert odds.player("A").tie_exact == Fraction(111_111 + 999_999, SERIALS - 7)


def test_unknown_pocket_notes_of_a_player_still_in_are_an_error():
    with pytest.raises(HandError, match=r"^players\[1\]\.pocket\[0\] is not known; the odds need both pocket notes"):
        parse_odds_hand({"position": 1, "board": [], "players": [
            {"name": "A", "pocket": ["1111111", "2222222"]}, {"name": "B"}]})
    hand = Hand(1, (), (seat("A", "1111111", "2222222"), seat("B", "3333333", "4444444")))
    with pytest.raises(HandError, match="'B' has neither folded"):
        all_in_odds(hand, unknown_notes={("B", 1)})
    for pocket in (None, [], [None, None]):
        hand, unknown = parse_odds_hand({"position": 1, "board": [], "players": [
            {"name": "A", "pocket": ["1111111", "2222222"]}, {"name": "B", "pocket": pocket, "revealed": False},
            {"name": "C", "pocket": ["3333333", "4444444"]}]})
        assert unknown == {("B", 0), ("B", 1)}


def test_parse_odds_hand_refuses_what_parse_hand_refuses():
    with pytest.raises(HandError, match=r"^players\[0\]\.pocket\[1\] must be exactly 7 digits"):
        parse_odds_hand({"position": 1, "board": [], "players": [
            {"name": "A", "pocket": ["1111111", "22"]}, {"name": "B", "pocket": ["3333333", "4444444"]}]})
    with pytest.raises(HandError, match="^position must be from 1 to 7"):
        parse_odds_hand({"position": 0, "board": [], "players": []})


# -- every serial, grouped by zero pattern (one unknown board note) --------------------------

def _serial(rng):
    # digits with many zeros, so that zeros at P, shifts and jokers are common
    return "".join(rng.choice("0000123456789") for _ in range(7))


def _random_hand(rng, players, board_known, joker=None, fold=0.15):
    serials = set()
    while len(serials) < 2 * players + board_known:
        serials.add(_serial(rng))
    serials = sorted(serials)
    rng.shuffle(serials)
    seats = tuple(Player(f"P{i + 1}", (serials[2 * i], serials[2 * i + 1]),
                         folded=rng.random() < fold) for i in range(players))
    return Hand(rng.randint(1, 7), tuple(serials[2 * players:]), seats,
                zero_joker=joker or rng.choice(["off", "per-zero", "once"]))


def _enumerated_odds(hand):
    """Odds over every serial of one unknown board note, without board classes: serials
    grouped by zero pattern and the first non-zero digit at or right of P (the digits a
    board rank is read from), the group's outcome found by evaluate() on one of them."""
    position = hand.position
    known = set(hand.board) | {s for p in hand.players for s in p.pocket}
    win = {p.name: 0 for p in hand.players}
    tie = dict(win)
    rng = random.Random(7)
    for zeros in product((True, False), repeat=7):
        nonzero = 7 - sum(zeros)
        digits = range(1, 10) if nonzero else [None]
        for digit in digits:
            if digit is None:
                serial, size = "0000000", 1
                members = known & {"0000000"}
            else:
                first = next((position - 1 + k) % 7 for k in range(7) if not zeros[(position - 1 + k) % 7])
                serial = "".join("0" if z else str(rng.randint(1, 9)) for z in zeros)
                serial = serial[:first] + str(digit) + serial[first + 1:]
                size = 9 ** (nonzero - 1)
                members = {s for s in known if all((c == "0") == z for c, z in zip(s, zeros)) and s[first] == str(digit)}
            weight = size - len(members)
            if not weight:
                continue
            winners = evaluate(Hand(position, hand.board + (serial,), hand.players, hand.zero_joker)).winners
            for name in winners:
                (win if len(winners) == 1 else tie)[name] += weight
    total = SERIALS - len(known)
    return {n: (Fraction(win[n], total), Fraction(tie[n], total)) for n in win}


@pytest.mark.parametrize("seed", range(6))
def test_one_unknown_board_note_agrees_exactly_with_an_enumeration_of_every_serial(seed):
    rng = random.Random(seed)
    hand = _random_hand(rng, players=rng.randint(2, 5), board_known=2)
    odds = all_in_odds(hand)
    assert {p.name: (p.win_exact, p.tie_exact) for p in odds.players} == _enumerated_odds(hand)


# -- random serials dealt (Monte Carlo) ------------------------------------------------------

def _sampled(hand, samples, rng):
    """Wins and splits per player over ``samples`` random deals of the unknown board
    notes (distinct serials not seen in the hand), each deal ranked by the rules
    engine's rank_options and best_hand; every player is in and revealed."""
    assert not any(p.folded or not p.revealed for p in hand.players)
    known = set(hand.board) | {s for p in hand.players for s in p.pocket}
    unknown = 3 - len(hand.board)
    position = hand.position
    pockets = [[rank_options(s, position, pocket=True, zero_joker=hand.zero_joker) for s in p.pocket]
               for p in hand.players]
    board = [rank_options(s, position) for s in hand.board]
    win = [0] * len(pockets)
    tie = [0] * len(pockets)
    for _ in range(samples):
        drawn: list[str] = []
        while len(drawn) < unknown:
            serial = f"{rng.randrange(SERIALS):07d}"
            if serial not in known and serial not in drawn:
                drawn.append(serial)
        notes = board + [rank_options(s, position) for s in drawn]
        strengths = [(best.strength if (best := best_hand(pocket + notes)) else NO_HAND) for pocket in pockets]
        top = max(strengths)
        winners = [i for i, s in enumerate(strengths) if s == top]
        for i in winners:
            (win if len(winners) == 1 else tie)[i] += 1
    names = [p.name for p in hand.players]
    return dict(zip(names, win)), dict(zip(names, tie))


@pytest.mark.parametrize("board_known, seed", [(0, 11), (1, 12), (2, 13)])
def test_odds_agree_with_20000_random_deals_within_4_standard_errors(board_known, seed):
    rng = random.Random(seed)
    while True:  # a hand with something left to decide
        hand = _random_hand(rng, players=4, board_known=board_known, joker="once", fold=0.0)
        odds = all_in_odds(hand)
        if sum(0.05 < p.win < 0.95 for p in odds.players) >= 2:
            break
    samples = 20_000
    win, tie = _sampled(hand, samples, rng)
    for p in odds.players:
        for exact, hits in ((p.win, win[p.name]), (p.tie, tie[p.name])):
            error = math.sqrt(exact * (1 - exact) / samples)
            assert abs(hits / samples - exact) <= 4 * error + 1e-12, (p.name, exact, hits)
    assert sum(p.win_exact for p in odds.players) + odds.split_exact == 1


# -- a complete board: the decided result ----------------------------------------------------

def test_3_with_three_known_board_notes_the_odds_are_the_showdown():
    cases = [obj for _, obj in golden_cases() if len(obj["board"]) == 3]
    assert len(cases) > 150
    for obj in cases:
        hand = parse_hand(obj)
        odds = all_in_odds(hand)
        winners = evaluate(hand).winners
        assert odds.board_unknown == 0 and odds.deals == 1
        for p in odds.players:
            alone = winners == (p.name,)
            shared = len(winners) > 1 and p.name in winners
            assert (p.win_exact, p.tie_exact) == (int(alone), int(shared)), (obj, p)


def test_probabilities_add_up_and_the_json_shape():
    rng = random.Random(5)
    hand = _random_hand(rng, players=6, board_known=0)
    odds = all_in_odds(hand)
    in_hand = [p for p in odds.players if p.status == "in"]
    assert sum(p.win_exact for p in odds.players) + odds.split_exact == 1
    assert all(p.tie_exact <= odds.split_exact for p in in_hand)
    out = odds_to_json(odds)
    assert out["board_unknown"] == 3 and list(out["players"]) == [p.name for p in hand.players]
    assert set(out["players"]["P1"]) <= {"win", "tie", "status"}
    exact = odds_to_json(odds, exact=True)
    assert Fraction(exact["players"]["P1"]["win_exact"]) == odds.player("P1").win_exact
    assert exact["deals"] == (SERIALS - 12) * (SERIALS - 13) * (SERIALS - 14)
