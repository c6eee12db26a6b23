"""Indian poker meetings in the ledger (RULES.md §7.5): the deal moves left each hand, after every player has
dealt once the largest balance wins, equal leaders share; chips are conserved over random meetings. The
records are made by live mode's own writer (table_view, hand_record) from hands played with the betting round."""

from __future__ import annotations

import json
import random
from datetime import timedelta

from typer.testing import CliRunner

from dealer_assist.cli import app
from dealer_assist.ledger import build_ledger
from dealer_assist.live.history import hand_record
from dealer_assist.live.table_state import NoteInfo, TableState
from dealer_assist.live.table_view import table_view
from dealer_assist.rules import Game
from dealer_assist.rules.betting import BettingRound, play

from ledger_helpers import T0


def indian_hand(seats, notes, round_, *, dealer, hand, session="m1", position=3):
    """The hand-log record of one Indian hand: the betting round's chips and folds, one note per seat."""
    state = TableState(tuple(seats), position, hand_number=hand, dealer_index=dealer, game=Game.INDIAN,
                       folded=frozenset(round_.folded), chips=tuple(round_.contributions().items()))
    infos = [NoteInfo(f"t{i}", i, seat, notes[seat], "trusted", 0.9, float(i))
             for i, seat in enumerate(seats, 1) if seat in notes]
    view = table_view(state, infos)
    assert view.complete, view.waiting
    finished = T0 + timedelta(minutes=5 * hand)
    return hand_record(view, session=session, started=finished - timedelta(minutes=3), finished=finished,
                       end="new hand")


SEATS = ("A", "B", "C", "D")


def test_7_5_the_seeds_hand_then_a_full_round_of_dealers_gives_the_meeting():
    records = [
        # dealer D: A checks, B bets, C, D and A fold: B takes 5 unshown (the seed's example)
        indian_hand(SEATS, {}, play(SEATS, "D", ["check", "bet", "fold", "fold", "fold"]), dealer=3, hand=1),
    ]
    ledger = build_ledger(records)
    assert [(p.name, p.net) for p in ledger.players] == [("A", -1), ("B", 3), ("C", -1), ("D", -1)]
    (meeting,) = ledger.meetings
    assert not meeting.complete and meeting.dealt == ("D",) and meeting.to_deal == ("A", "B", "C")
    assert meeting.leaders == ("B",)
    # dealers A, B, C: all check; A's natural 9 at P=3 takes 4, then C's, then A's again
    notes = {"A": "1191111", "B": "2212222", "C": "3383333", "D": "4424444"}
    for k, dealer in enumerate((0, 1, 2), 2):
        dealer_name = SEATS[dealer]
        round_ = play(SEATS, dealer_name, ["check"] * 4)
        records.append(indian_hand(SEATS, notes, round_, dealer=dealer, hand=k))
    meeting = build_ledger(records).meetings[0]
    assert meeting.complete and meeting.hands == 4
    assert meeting.nets == {"A": -1 + 3 * 3, "B": 3 - 3, "C": -1 - 3, "D": -1 - 3}
    assert meeting.leaders == ("A",)
    assert sum(meeting.nets.values()) == 0


def test_7_5_equal_leaders_share_the_meeting_and_the_next_round_of_dealers_is_a_new_meeting():
    seats = ("A", "B")
    notes = {"A": "9999999", "B": "1111111"}
    records = [indian_hand(seats, notes, play(seats, "A", ["check", "check"]), dealer=0, hand=1),
               indian_hand(seats, {"A": "1111111", "B": "9999999"}, play(seats, "B", ["check", "check"]),
                           dealer=1, hand=2),
               indian_hand(seats, notes, play(seats, "A", ["check", "check"]), dealer=0, hand=3)]
    first, second = build_ledger(records).meetings
    assert first.complete and first.nets == {"A": 0, "B": 0} and first.leaders == ("A", "B")
    assert not second.complete and second.dealt == ("A",) and second.leaders == ("A",)


def test_7_5_ledger_command_reports_the_meeting_in_json_and_in_words(tmp_path):
    seats = ("A", "B")
    log = tmp_path / "hands.jsonl"
    records = [indian_hand(seats, {"A": "9999999", "B": "1111111"}, play(seats, "A", ["bet", "call"]),
                           dealer=0, hand=1),
               indian_hand(seats, {"A": "9999999", "B": "1111111"}, play(seats, "B", ["check", "check"]),
                           dealer=1, hand=2)]
    log.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    runner = CliRunner()
    result = runner.invoke(app, ["ledger", "--log", str(log), "--json"])
    assert result.exit_code == 0, result.output
    (meeting,) = json.loads(result.output)["meetings"]
    assert meeting["complete"] and meeting["winners"] == ["A"] and meeting["nets"] == {"A": 3, "B": -3}
    words = runner.invoke(app, ["ledger", "--log", str(log)], env={"COLUMNS": "200"}).output
    assert "Indian poker meeting (2 hand(s), session m1): every player has dealt once; A wins the meeting (+3)." \
        in " ".join(words.split())


def test_7_5_property_chips_are_conserved_over_random_meetings_and_the_leader_is_the_largest_balance():
    rng = random.Random(7505)
    for trial in range(60):
        n = rng.randint(2, 10)
        seats = tuple(f"S{i}" for i in range(n))
        records, nets = [], {s: 0 for s in seats}
        start = rng.randrange(n)
        for k in range(n):  # every player deals once, the deal moving one seat left each hand
            dealer = (start + k) % n
            round_ = BettingRound(seats, seats[dealer])
            while not round_.done:
                legal = round_.legal()
                round_ = round_.act(round_.to_act, rng.choice(legal))
            notes = {s: "".join(rng.choice("0012345678999") for _ in range(7)) for s in seats
                     if s not in round_.folded and round_.last_standing is None}
            record = indian_hand(seats, notes, round_, dealer=dealer, hand=k + 1, session=f"m{trial}",
                                 position=rng.randint(1, 7))
            records.append(record)
            paid = record["settlement"]["payouts"]
            assert sum(paid.values()) == round_.pot  # the pot is redistributed, never created
            for s in seats:
                nets[s] += paid[s] - round_.contributions()[s]
        (meeting,) = build_ledger(records).meetings
        assert meeting.complete and meeting.hands == n and set(meeting.dealt) == set(seats)
        assert meeting.nets == nets and sum(nets.values()) == 0
        top = max(nets.values())
        assert meeting.leaders == tuple(s for s in seats if nets[s] == top)
