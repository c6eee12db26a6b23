"""Banknote Indian poker (RULES.md §7): the seed's examples, the rules one by one, the betting round,
and the engine against a brute-force reading of the rules over random hands (tests/indian_reference.py)."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest
from hypothesis import given, settings, strategies as st

from dealer_assist.rules import (Game, Hand, HandError, Player, evaluate, indian_odds, indian_odds_to_json,
                                 parse_hand, result_to_json)
from dealer_assist.rules.betting import Action, BettingError, BettingRound, play
from dealer_assist.rules.indian_odds import note_class, note_class_sizes
from dealer_assist.rules.odds import DEAD
import indian_reference as ref
from conftest import SHARED


def indian(position: int, *players: Player, dealer: str | None = None) -> Hand:
    return Hand(position=position, board=(), players=players, dealer=dealer, game=Game.INDIAN)


# ----------------------------------------------------------------------------- §7.6, the seed's examples

def test_7_6_the_seeds_example_is_the_one_in_the_rules():
    text = (SHARED / "RULES.md").read_text(encoding="utf-8")
    assert "A checks, B bets 1, C and D" in text and "B gets 5 (net +3)" in text
    assert "pot 6 and two equal top ranks gives each of those two 3" in text


def test_7_6_b_bets_everyone_folds_b_takes_5_without_showing():
    # four ante 1 (pot 4); A checks, B bets 1, C and D fold, A folds
    seats = ("A", "B", "C", "D")
    round_ = play(seats, dealer="D", actions=["check", "bet", "fold", "fold", "fold"])
    assert [a for _, a in round_.history] == ["check", "bet", "fold", "fold", "fold"]
    assert round_.history[0][0] == "A" and round_.done and round_.last_standing == "B"
    # B shows nothing: the hand is decided without B's note (nobody's note is known)
    hand = round_.hand({}, position=4)
    result = evaluate(hand)
    assert result.winners == ("B",)
    assert result.settlement.payouts == {"A": 0, "B": 5, "C": 0, "D": 0}
    net = {n: result.settlement.payouts[n] - c for n, c in round_.contributions().items()}
    assert net == {"A": -1, "B": 3, "C": -1, "D": -1}
    out = result_to_json(result)
    assert out["game"] == "indian" and out["players"]["B"]["class"] is None  # B showed nothing


def test_7_6_three_way_showdown_pot_6_two_equal_top_ranks_get_3_each():
    round_ = play(("A", "B", "C"), dealer="C", actions=["bet", "call", "call"])
    assert round_.done and round_.pot == 6
    # the seed's two kings: two natural 9s at P=3, and a lower note
    hand = round_.hand({"A": "1191111", "B": "2292222", "C": "5585555"}, position=3)
    result = evaluate(hand)
    assert result.winners == ("A", "B")
    assert result.settlement.payouts == {"A": 3, "B": 3, "C": 0}


# ----------------------------------------------------------------------------- §7.2 rank, §7.4 showdown

def test_7_2_a_zero_at_p_takes_the_better_direction_and_is_modified():
    # d4=0: left to d3=2, right to d5=8 -> 8 (a Hold'em pocket note could choose; here the better one is taken)
    result = evaluate(indian(4, Player("A", ("1120811",)), Player("B", ("7777777",))))
    a = result.player("A").best
    assert a.ranks == (8,) and not a.natural and a.options[0].source == 5
    assert result.winners == ("A",)
    # the left way wins when it is higher, with the wrap: d1=0 -> left wraps to d7=9, right to d2=3
    left = evaluate(indian(1, Player("A", ("0311119",)), Player("B", ("8888888",)))).player("A").best
    assert left.ranks == (9,) and left.options[0].source == 7 and left.options[0].wrapped


def test_7_4_natural_beats_modified_at_equal_rank_then_equal_ones_split():
    hand = indian(2, Player("A", ("1900000",)), Player("B", ("3099999",)), Player("C", ("0900000",)))
    assert evaluate(hand).winners == ("A", "C")  # two natural 9s; B's modified 9 loses to them
    hand = indian(2, Player("A", ("1100000",)), Player("B", ("3099999",)))
    assert evaluate(hand).winners == ("B",)  # a modified 9 beats a natural 1


def test_7_2_a_dead_note_loses_to_every_note_and_two_dead_notes_tie():
    assert evaluate(indian(5, Player("A", ("0000000",)), Player("B", ("0000100",)))).winners == ("B",)
    both = evaluate(indian(5, Player("A", ("0000000",)), Player("B", ("0000000",))))
    assert both.winners == ("A", "B") and both.player("A").best is None


def test_7_4_a_folded_note_never_wins():
    hand = indian(1, Player("A", ("9999999",), folded=True), Player("B", ("1111111",)), Player("C", ("2222222",)))
    assert evaluate(hand).winners == ("C",)


def test_7_4_odd_chips_from_the_dealers_left_or_exact_fractions():
    # A bets, B raises, C folds, A calls: pot 3 + 3 + 1 = 7 split by A and B
    round_ = play(("A", "B", "C"), dealer="C", actions=["bet", "raise", "fold", "call"])
    assert round_.contributions() == {"A": 3, "B": 3, "C": 1}
    hand = round_.hand({"A": "5555555", "B": "5555555", "C": "9999999"}, position=1)
    assert evaluate(hand).settlement.payouts == {"A": 4, "B": 3, "C": 0}  # A sits left of the dealer C
    exact = evaluate(hand, exact=True).settlement.payouts
    assert exact == {"A": Fraction(7, 2), "B": Fraction(7, 2), "C": 0}


# ----------------------------------------------------------------------------- what an Indian hand is

@pytest.mark.parametrize("change, sentence", [
    (dict(board=("1234567",)), "board has 1 note; Indian poker has no board notes."),
    (dict(players=(Player("A", ("1111111", "2222222")), Player("B", ("3333333",)))),
     "players[0].pocket has 2 note(s); exactly 1 is needed in Indian poker."),
    (dict(zero_joker="per-zero"), "zero_joker must be off in Indian poker (RULES.md §7.2), got 'per-zero'."),
    (dict(tie_policy="rollover"), "tie_policy must be split in Indian poker: it has no rollover (RULES.md §7.4)."),
    (dict(players=tuple(Player(f"P{i}", (f"{i % 10}111111",)) for i in range(11))),
     "players has 11 players; Indian poker is for 2 to 10."),
    (dict(players=(Player("A", ("1111111",), contributed=2), Player("B", ("3333333",), contributed=1))),
     "players[1].contributed is 1 but another player put in 2; a player still in has matched the bet "
     "(RULES.md §7.3)."),
    (dict(players=(Player("A", ("1111111",), contributed=4), Player("B", ("3333333",), contributed=4))),
     "players[0].contributed must be from 1 to 3 in Indian poker (the ante and at most 2 more, RULES.md §7.3), "
     "got 4."),
    (dict(players=(Player("A", ("1111111",), folded=True), Player("B", ("3333333",), folded=True))),
     "every player folded; in Indian poker the last player left takes the pot (RULES.md §7.4)."),
    (dict(players=(Player("A", (), revealed=False), Player("B", (), revealed=False))),
     "no player still in showed their note; in Indian poker the pot never carries over, so at least one must "
     "(RULES.md §7.4)."),
    (dict(players=(Player("A", ("1111111",), contributed=1), Player("B", ("3333333",)))),
     "players[1].contributed is missing; in Indian poker every player posts the ante, so give every player's "
     "chips or none."),
])
def test_7_an_indian_hand_refuses_what_the_game_does_not_have(change, sentence):
    fields = dict(position=1, board=(), players=(Player("A", ("1111111",)), Player("B", ("3333333",))),
                  game="indian") | change
    with pytest.raises(HandError) as error:
        Hand(**fields)
    assert str(error.value) == sentence


def test_formats_1_a_record_without_game_is_holdem_and_game_indian_needs_no_board():
    holdem = parse_hand({"position": 1, "board": [], "players": [
        {"name": "A", "pocket": ["1111111", "2222222"]}, {"name": "B", "pocket": ["3333333", "4444444"]}]})
    assert holdem.game is Game.HOLDEM and "game" not in result_to_json(evaluate(holdem))
    hand = parse_hand({"game": "indian", "position": 3, "players": [
        {"name": "A", "pocket": ["1191111"]}, {"name": "B", "pocket": ["2202222"]}]})
    assert hand.game is Game.INDIAN and hand.board == ()
    out = result_to_json(evaluate(hand))
    assert out["game"] == "indian" and out["winners"] == ["A"]
    assert out["players"]["B"] == {"class": "high", "ranks": [2], "natural": False, "notes": [
        {"serial": "2202222", "from": "pocket", "rank": 2, "natural": False,
         "reason": "d3=0 → right to d4=2, modified"}]}
    with pytest.raises(HandError, match=r"^game must be holdem or indian, not 'omaha'\.$"):
        parse_hand({"game": "omaha", "position": 1, "board": [], "players": []})
    with pytest.raises(HandError, match=r"^board is missing\.$"):
        parse_hand({"position": 1, "players": []})


# ----------------------------------------------------------------------------- §7.3 the betting round

def test_7_3_after_the_raise_everyone_answers_again_earlier_checks_included():
    r = BettingRound(("A", "B", "C", "D"), dealer="D")
    r = r.act("A", "check").act("B", "bet")
    assert r.pending == ("C", "D", "A") and r.legal() == (Action.CALL, Action.RAISE, Action.FOLD)
    r = r.act("C", "call").act("D", "raise")
    assert r.pending == ("A", "B", "C") and r.legal() == (Action.CALL, Action.FOLD)
    r = r.act("A", "call").act("B", "fold").act("C", "call")
    assert r.done and r.to_act is None and r.last_standing is None
    assert r.contributions() == {"A": 3, "B": 2, "C": 3, "D": 3}


def test_7_3_all_check_goes_straight_to_the_showdown():
    r = play(("A", "B", "C"), dealer="A", actions=["check", "check", "check"])
    assert r.done and r.history[0][0] == "B" and r.contributions() == {"A": 1, "B": 1, "C": 1}


@pytest.mark.parametrize("actions, seat, action, sentence", [
    ([], "B", "check", "B cannot act now: it is A's turn."),
    ([], "A", "call", "A cannot call: there is no bet yet; check, bet or fold."),
    ([], "A", "raise", "A cannot raise: there is no bet yet; check, bet or fold."),
    ([], "A", "all-in", "'all-in' is no action; the actions are check, bet, call, raise, fold."),
    ([], "Z", "check", "'Z' is not one of the players."),
    (["bet"], "B", "check", "B cannot check: there is a bet of 1 to call; call, fold or raise."),
    (["bet"], "B", "bet", "B cannot bet: there is already a bet; call, fold or raise."),
    (["bet", "raise"], "C", "raise", "C cannot raise: the table's one raise has been made; call or fold."),
    (["fold"], "A", "check", "A cannot act now: they have folded."),
    (["check", "check", "check"], "A", "bet", "the betting round is over; it is the showdown."),
])
def test_7_3_an_illegal_action_is_one_sentence_and_changes_nothing(actions, seat, action, sentence):
    r = play(("A", "B", "C"), dealer="C", actions=actions)
    with pytest.raises(BettingError) as error:
        r.act(seat, action)
    assert str(error.value) == sentence


@settings(max_examples=200, deadline=None)
@given(st.integers(2, 10), st.integers(0, 9), st.lists(st.integers(0, 4), max_size=40), st.data())
def test_7_3_property_any_legal_play_ends_within_the_stakes(n, dealer, choices, data):
    seats = tuple(f"S{i}" for i in range(n))
    r = BettingRound(seats, dealer=seats[dealer % n])
    steps = 0
    while not r.done:
        legal = r.legal()
        # an action that is not legal is refused and the state stays as it was
        wrong = [a for a in Action if a not in legal]
        before = r
        with pytest.raises(BettingError):
            r.act(r.to_act, data.draw(st.sampled_from(wrong)))
        assert r == before
        r = r.act(r.to_act, legal[choices[steps] % len(legal)] if steps < len(choices) else Action.FOLD)
        steps += 1
        assert steps <= 3 * n  # everyone acts once, again after the bet, again after the raise
        assert all(0 <= p <= 2 for p in r.put)
    chips = r.contributions()
    assert all(1 <= c <= 3 for c in chips.values())
    still_in = [s for s in seats if s not in r.folded]
    assert still_in and len({chips[s] for s in still_in}) == 1 and chips[still_in[0]] == max(chips.values())
    # the finished round is an Indian hand that the engine settles, conserving every chip
    notes = {s: f"{(i * 7) % 10}{i % 10}{(i * 3) % 10}0000" for i, s in enumerate(seats)}
    settlement = evaluate(r.hand(notes, position=data.draw(st.integers(1, 7)))).settlement
    assert sum(settlement.payouts.values()) == r.pot and settlement.carry == 0


# ----------------------------------------------------------------------------- odds: player's and spectator's view

def test_7_note_class_sizes_match_an_enumeration_of_every_serial():
    for position in (1, 4, 7):
        sizes = ref.class_sizes_by_enumeration(position)
        engine = note_class_sizes()
        assert engine[DEAD] == sizes[None] == 1
        for code in range(18):
            assert engine[code] == sizes[(code // 2 + 1, code & 1)], (position, code)
        assert sum(sizes.values()) == ref.SERIALS


def test_7_odds_the_player_sees_everyone_but_themself():
    # B sees A's natural 8 (and the folded C's 9, which is out of the deck and cannot win)
    hand = indian(3, Player("A", ("1181111",)), Player("B", ("2232222",)), Player("C", ("3393333",), folded=True))
    odds = indian_odds(hand)
    sizes = note_class_sizes()
    seen = 2  # A's and C's notes
    above = (10**6 - 1) + sizes[16]  # a natural 9 (but C's, which B sees) or a modified 9 beats A's natural 8
    assert odds.player("B").win_exact == Fraction(above, 10**7 - seen)
    assert odds.player("B").tie_exact == Fraction(10**6 - 1, 10**7 - seen)  # natural 8s but A's
    assert odds.seen_by_spectator("A").win == 1 and odds.seen_by_spectator("B").win == 0
    assert odds.player("C").win == 0 and odds.player("C").status == "folded"
    out = indian_odds_to_json(odds, exact=True)
    assert out["game"] == "indian" and out["spectator"]["A"]["win"] == 1.0
    assert out["players"]["B"]["notes_left"] == 10**7 - 2


def test_7_odds_the_last_player_standing_wins_in_every_view():
    odds = indian_odds(indian(1, Player("A", (), folded=True), Player("B", ("1111111",))))
    assert odds.player("B").win == 1 and odds.seen_by_spectator("B").win == 1
    assert odds.player("B").status == "last standing"


def test_7_odds_refuse_a_holdem_hand_and_an_unknown_note_of_a_player_still_in():
    holdem = Hand(1, (), (Player("A", ("1111111", "2222222")), Player("B", ("3333333", "4444444"))))
    with pytest.raises(HandError, match="Indian poker hand"):
        indian_odds(holdem)
    with pytest.raises(HandError, match=r"players\[0\]\.pocket\[0\] is not known"):
        indian_odds(indian(1, Player("A", ("1111111",)), Player("B", ("3333333",))), unknown_notes=[("A", 0)])


# ----------------------------------------------------------------------------- against brute force

def _random_serial(rng: random.Random) -> str:
    kind = rng.random()
    if kind < 0.05:
        return "0000000"
    zeros = 0.15 if kind < 0.5 else 0.6
    return "".join("0" if rng.random() < zeros else str(rng.randint(1, 9)) for _ in range(7))


def _random_hand(rng: random.Random) -> tuple[Hand, list[dict], dict[str, int], str]:
    n = rng.randint(2, 10)
    names = [f"P{i}" for i in range(n)]
    dealer = rng.choice(names)
    round_ = BettingRound(tuple(names), dealer)
    while not round_.done:
        legal = round_.legal()
        weights = [3 if a is not Action.FOLD else 1 for a in legal]
        round_ = round_.act(round_.to_act, rng.choices(legal, weights)[0])
    seats, players = [], []
    chips = round_.contributions()
    for name in names:
        folded = name in round_.folded
        known = not folded or rng.random() < 0.7  # a folded note may be unknown
        note = _random_serial(rng) if rng.random() > 0.03 or not seats else seats[-1]["note"] or _random_serial(rng)
        revealed = folded or round_.last_standing == name or rng.random() > 0.05 or name == round_.active[-1]
        seats.append({"name": name, "note": note if known else None, "folded": folded, "revealed": revealed})
        players.append(Player(name, (note,) if known and (revealed or folded) else (), contributed=chips[name],
                              folded=folded, revealed=revealed))
    for seat, player in zip(seats, players):
        if not player.pocket:
            seat["note"] = None
    return Hand(rng.randint(1, 7), (), tuple(players), dealer=dealer, game="indian"), seats, chips, dealer


HANDS = 10_000


@pytest.mark.slow  # about 20 s of CPU: 10,000 hands, each player's own view counted by brute force
def test_7_property_the_engine_matches_brute_force_on_10000_random_hands():
    rng = random.Random(20261203)
    sizes = {position: ref.class_sizes_by_enumeration(position) for position in (1,)}[1]  # same for every P
    mismatches = []
    shapes = {"folds": 0, "dead": 0, "modified": 0, "split": 0, "last standing": 0}
    for k in range(HANDS):
        hand, seats, chips, dealer = _random_hand(rng)
        p = hand.position
        result = evaluate(hand)
        expected = ref.winners(seats, p)
        if list(result.winners) != expected:
            mismatches.append((k, "winners", result.winners, expected))
        paid = ref.payouts(seats, chips, dealer, p)
        if result.settlement.payouts != paid or result.settlement.carry != 0:
            mismatches.append((k, "payouts", result.settlement.payouts, paid))
        assert sum(result.settlement.payouts.values()) == sum(chips.values())  # chips are conserved
        odds = indian_odds(hand, unknown_notes=[(s["name"], 0) for s in seats if s["note"] is None])
        for s, own, seen in zip(seats, odds.players, odds.spectator):
            want = ref.own_view(seats, p, s["name"], sizes)
            if (own.win_exact, own.tie_exact) != want:
                mismatches.append((k, "own view", s["name"], (own.win_exact, own.tie_exact), want))
            single = expected == [s["name"]]
            if (seen.win, seen.tie) != (float(single), float(s["name"] in expected and not single)):
                mismatches.append((k, "spectator", s["name"]))
        shapes["folds"] += bool(any(s["folded"] for s in seats))
        shapes["dead"] += any(s["note"] == "0000000" for s in seats)
        shapes["modified"] += any(s["note"] and s["note"][p - 1] == "0" and s["note"] != "0000000" for s in seats)
        shapes["split"] += len(expected) > 1
        shapes["last standing"] += len([s for s in seats if not s["folded"]]) == 1
    assert mismatches == []
    # the random hands reach every case the rules name, often
    assert all(count > HANDS // 50 for count in shapes.values()), shapes
