"""The session ledger (dealer_assist.ledger): chips in and out per player over hands logged
by the live mode's own writer, buy-ins (ante + rake, seed 000), rollover carry, and the
fewest transfers that settle everyone. Chips are conserved whatever the hands."""

from __future__ import annotations

import random
from datetime import datetime, timedelta
from fractions import Fraction
from itertools import combinations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dealer_assist.ledger import (
    CARRIED_POT,
    EXACT_PARTIES,
    ORGANISER,
    Party,
    PartyKind,
    build_ledger,
    fewest_transfers,
    parse_chips,
)
from dealer_assist.live.history import HandLog, read_log
from ledger_helpers import BOARD, POCKETS, T0, logged_hand


def P(name: str) -> Party:
    """The player party called ``name``."""
    return Party(PartyKind.PLAYER, name)


def test_a_session_of_real_records_with_a_side_pot_a_rollover_and_a_fold(tmp_path):
    log = HandLog(tmp_path / "hands.jsonl")
    # hand 1: B's set wins the main pot (3 x 10) and the side pot (B and C, 2 x 20) -> B gets 70
    log.append(logged_hand("ABC", BOARD, POCKETS, chips={"A": 10, "B": 30, "C": 30}, hand=1))
    # hand 2: A and C hold the same straight 3-2-1 (B folded); rollover: 3 x 5 carried
    tie_pockets = {"A": ("2333333", "3444444"), "B": ("9555555", "9666666"), "C": ("2777777", "3888888")}
    log.append(logged_hand("ABC", ("1111111", "5555555", "6666666"), tie_pockets, folded={"B"},
                           chips={"A": 5, "B": 5, "C": 5}, tie_policy="rollover", hand=2,
                           finished=T0 + timedelta(minutes=5)))
    # hand 3: C wins alone (A and B folded): the pot 3 x 4 and the 15 carried chips
    log.append(logged_hand("ABC", BOARD, POCKETS, folded={"A", "B"}, chips={"A": 4, "B": 4, "C": 4}, hand=3,
                           finished=T0 + timedelta(minutes=10)))
    records, warnings = read_log(log.path)
    assert warnings == [] and len(records) == 3
    assert records[1]["settlement"]["carry"] == 15

    ledger = build_ledger(records)
    got = {p.name: (p.hands_played, p.hands_won, p.put_in, p.buy_ins, p.won, p.net) for p in ledger.players}
    assert got == {"A": (3, 0, 19, 0, 0, -19), "B": (3, 1, 39, 0, 70, 31), "C": (3, 1, 39, 0, 27, -12)}
    assert (ledger.hands, ledger.rake, ledger.carried_in, ledger.carried_out) == (3, 0, 0, 0)
    assert [(t.payer, t.payee, t.amount) for t in ledger.transfers] == [(P("A"), P("B"), 19), (P("C"), P("B"), 12)]

    # with an ante of 2 and a rake of 1: each hand costs each of the 3 a buy-in of 3;
    # hand 2's antes (6) roll over with its pot and go to C in hand 3 with hand 3's antes (6)
    ledger = build_ledger(records, ante=2, rake=1)
    got = {p.name: (p.buy_ins, p.won, p.net) for p in ledger.players}
    assert got == {"A": (9, 0, -28), "B": (9, 76, 28), "C": (9, 39, -9)}
    assert ledger.rake == 9
    assert sum(p.net for p in ledger.players) + ledger.rake == 0
    assert [(t.payer, t.payee, t.amount) for t in ledger.transfers] == [
        (P("A"), P("B"), 28), (P("C"), ORGANISER, 9)]


def test_open_carry_at_the_end_of_a_session_is_neither_lost_nor_created():
    tie_pockets = {"A": ("2333333", "3444444"), "B": ("2777777", "3888888")}
    first = logged_hand("AB", ("1111111", "5555555", "6666666"), tie_pockets, chips={"A": 7, "B": 7},
                        tie_policy="rollover", session="night1")
    # the next session's first hand does not receive night 1's carry
    second = logged_hand("AB", BOARD, {"A": POCKETS["A"], "B": POCKETS["B"]}, chips={"A": 3, "B": 3},
                         session="night2", finished=T0 + timedelta(days=1))
    ledger = build_ledger([first, second], ante=1)
    assert ledger.carried_out == 14 + 2  # pot and antes of night 1's tied hand
    assert ledger.player("B").won == 6 + 2
    assert sum(p.net for p in ledger.players) + ledger.rake + ledger.carried_out == 0
    assert ledger.balances()[CARRIED_POT] == 16
    # A put in 7 + 3 and paid 2 antes, won nothing; B the same but won 8 back
    assert [(t.payer, t.payee, t.amount) for t in ledger.transfers] == [(P("A"), CARRIED_POT, 12), (P("B"), CARRIED_POT, 4)]


def test_since_counts_later_hands_and_says_what_was_carried_in():
    tie_pockets = {"A": ("2333333", "3444444"), "B": ("2777777", "3888888")}
    tied = logged_hand("AB", ("1111111", "5555555", "6666666"), tie_pockets, chips={"A": 7, "B": 7},
                       tie_policy="rollover", hand=1)
    won = logged_hand("AB", BOARD, {"A": POCKETS["A"], "B": POCKETS["B"]}, chips={"A": 3, "B": 3}, hand=2,
                      finished=T0 + timedelta(hours=1))
    ledger = build_ledger([tied, won], since=T0 + timedelta(minutes=30))
    assert ledger.hands == 1
    assert ledger.carried_in == 14 and ledger.player("B").won == 6 + 14
    assert sum(p.net for p in ledger.players) + ledger.rake + ledger.carried_out - ledger.carried_in == 0
    # the carried pot paid B 14 chips put in before --since: it is a debtor in the transfers
    assert [(t.payer, t.payee, t.amount) for t in ledger.transfers] == [(CARRIED_POT, P("B"), 14), (P("A"), P("B"), 3)]
    with pytest.raises(ValueError, match="time zone"):
        build_ledger([tied], since=datetime(2025, 1, 1))


def test_hands_not_decided_and_records_that_do_not_add_up_are_left_out_and_said():
    decided = logged_hand("AB", BOARD, {"A": POCKETS["A"], "B": POCKETS["B"]}, chips={"A": 3, "B": 3})
    waiting = logged_hand("AB", BOARD[:2], {"A": POCKETS["A"], "B": POCKETS["B"]}, chips={"A": 3, "B": 3}, hand=2)
    assert waiting["status"] == "incomplete"
    broken = {**decided, "hand": 3, "settlement": {**decided["settlement"], "payouts": {"A": 0, "B": 5}}}
    bad_chips = {**decided, "hand": 4, "chips": {"A": -3, "B": 3}}
    ledger = build_ledger([decided, waiting, broken, bad_chips])
    assert (ledger.hands, ledger.not_decided) == (1, 1)
    assert ledger.skipped == (
        "hand 3 of session s1: its payouts and carry (5) do not add up to the chips put in (6); left out.",
        "hand 4 of session s1: chips.A: a negative number of chips; left out.")
    assert ledger.player("B").net == 3


def test_ante_and_rake_written_in_a_record_win_over_the_options():
    record = {**logged_hand("AB", BOARD, {"A": POCKETS["A"], "B": POCKETS["B"]}), "ante": 5, "rake": 2}
    ledger = build_ledger([record], ante=1, rake=1)
    assert ledger.player("A").buy_ins == 7 and ledger.player("B").won == 10 and ledger.rake == 4
    with pytest.raises(ValueError, match="ante must be a whole number"):
        build_ledger([record], ante=-1)


def test_chips_as_the_log_writes_them():
    assert parse_chips(0) == 0 and parse_chips("17/3") == Fraction(17, 3)
    for bad in (True, -1, "x", "1/0/2", 2.5, None):
        with pytest.raises(ValueError):
            parse_chips(bad)


# -- the fewest transfers ----------------------------------------------------------------------

def _apply(balances, transfers):
    left = dict(balances)
    for t in transfers:
        assert t.amount > 0
        left[t.payer] += t.amount
        left[t.payee] -= t.amount
    return left


def _most_zero_sum_groups(amounts):
    """Brute force: the largest number of zero-sum groups that partition ``amounts``."""
    items = list(range(len(amounts)))
    if not items:
        return 0
    best = 1
    first, rest = items[0], items[1:]
    for k in range(len(rest)):
        for others in combinations(rest, k):
            group = (first, *others)
            if sum(amounts[i] for i in group) == 0:
                remaining = [amounts[i] for i in items if i not in group]
                if remaining:
                    best = max(best, 1 + _most_zero_sum_groups(remaining))
    return best


def test_fewest_transfers_beats_the_greedy_method_where_it_can():
    balances = {"A": 7, "B": -5, "C": 7, "D": 8, "E": -3, "F": -14}
    moves, fewest = fewest_transfers(balances)
    # {A, C, F} and {B, D, E} each add up to 0: 2 + 2 transfers
    assert fewest and [(t.payer, t.payee, t.amount) for t in moves] == [
        ("F", "A", 7), ("F", "C", 7), ("B", "D", 5), ("E", "D", 3)]
    greedy, fewest = fewest_transfers(balances, exact_parties=0)
    assert not fewest and len(greedy) == 5 and set(_apply(balances, greedy).values()) == {0}


@settings(max_examples=150, deadline=None)
@given(st.lists(st.integers(-40, 40), min_size=1, max_size=8))
def test_fewest_transfers_is_the_proved_minimum(values):
    values = [v for v in values if v] + [-sum(values)]
    balances = {f"p{i}": v for i, v in enumerate(values)}
    moves, fewest = fewest_transfers(balances)
    assert fewest
    assert set(_apply(balances, moves).values()) <= {0}
    nonzero = [v for v in values if v]
    assert len(moves) == len(nonzero) - _most_zero_sum_groups(nonzero)


def test_beyond_the_exact_limit_a_greedy_method_still_settles_everyone():
    rng = random.Random(3)
    values = [rng.randint(-50, 50) or 1 for _ in range(EXACT_PARTIES + 5)]
    values.append(-sum(values))
    balances = {f"p{i}": v for i, v in enumerate(values)}
    moves, fewest = fewest_transfers(balances)
    assert not fewest
    assert set(_apply(balances, moves).values()) <= {0}
    assert len(moves) <= sum(1 for v in values if v) - 1
    with pytest.raises(ValueError, match="add up to 1"):
        fewest_transfers({"A": 1})


# -- chips are conserved (hypothesis over hands settled by the rules engine) -------------------

@st.composite
def sessions_of_hands(draw):
    rng = random.Random(draw(st.integers(0, 2**32)))
    hands = []
    finished = T0
    for session in range(draw(st.integers(1, 2))):
        seats = "ABCDEF"[: draw(st.integers(2, 5))]
        for number in range(1, draw(st.integers(1, 5)) + 1):
            serials: set[str] = set()
            while len(serials) < 3 + 2 * len(seats):
                serials.add("".join(rng.choice("00199") for _ in range(7)))  # many equal ranks: ties
            serials = sorted(serials)
            rng.shuffle(serials)
            pockets = {s: (serials[3 + 2 * i], serials[4 + 2 * i]) for i, s in enumerate(seats)}
            folded = {s for s in seats if rng.random() < 0.3}
            chips = {s: rng.randint(0, 40) for s in seats if rng.random() < 0.9}
            finished += timedelta(minutes=rng.randint(1, 9))
            hands.append(logged_hand(seats, serials[:3], pockets, folded=folded, chips=chips,
                                     tie_policy=rng.choice(["split", "rollover"]), dealer=rng.randrange(len(seats)),
                                     hand=number, session=f"s{session}", finished=finished,
                                     position=rng.randint(1, 7)))
    return hands


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(sessions_of_hands(), st.integers(0, 5), st.integers(0, 3), st.integers(0, 40))
def test_chips_are_conserved_and_the_transfers_settle_everyone(records, ante, rake, cut_minutes):
    since = T0 + timedelta(minutes=cut_minutes) if cut_minutes % 3 else None
    ledger = build_ledger(records, ante=ante, rake=rake, since=since)
    assert ledger.skipped == ()
    in_window = [r for r in records if since is None or datetime.fromisoformat(r["finished"]) >= since]
    assert ledger.hands + ledger.not_decided == len(in_window)
    total = sum(p.net for p in ledger.players) + ledger.rake + ledger.carried_out - ledger.carried_in
    assert total == 0
    balances = ledger.balances()
    assert sum(balances.values()) == 0
    assert set(_apply(balances, ledger.transfers).values()) <= {0}
    assert ledger.fewest == (sum(1 for v in balances.values() if v) <= EXACT_PARTIES)
    assert all(p.hands_won <= p.hands_played for p in ledger.players)
    # every chip put in a counted hand and not carried on was won by somebody
    if since is None:
        decided = [r for r in records if r["status"] == "showdown"]
        put_in = sum(sum(r["chips"].values()) for r in decided)
        antes = sum(ante * p.hands_played for p in ledger.players)
        assert sum(p.won for p in ledger.players) + ledger.carried_out == put_in + antes
