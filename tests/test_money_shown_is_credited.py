"""The money shown is the money credited, over whole random nights (issue 22 / trial 6 H1, property-style).

A night is played through live's own session (:class:`~dealer_assist.live.session.LiveSession`, the croupier's
typed commands, the hand log it writes), with ties under the rollover policy (ranks drawn from three digits,
so ties are common), side pots (unequal chips, seats with none typed), folds, abandoned hands and restarts of
live in between (the session, hand number, dealer and carry taken back from the log, as ``live`` does).
Hold'em and Indian poker. For every night:

* what each player was shown as paid (the log's ``payouts``: the dashboard's ``gets N``) summed over the
  night is what ``ledger`` credits them;
* ``history --show`` (the rules over the logged input) and the spectator page show each hand's payouts as
  logged;
* nothing is created or lost: the ledger's nets and the open carry add up to 0, and the open carry is the
  carry live holds at the end.
"""

from __future__ import annotations

import random
from datetime import datetime, timezone

from hypothesis import given, settings, strategies as st

from dealer_assist.app.terminal import Croupier
from dealer_assist.ledger import build_ledger
from dealer_assist.live.history import record_input
from dealer_assist.live.night import continue_session
from dealer_assist.live.session import LiveOptions, LiveSession
from dealer_assist.live.table_state import TableState
from dealer_assist.live.worker import InlineWorker
from dealer_assist.rules import chips_to_json, evaluate, parse_hand
from dealer_assist.spectator.public import public_from_record

from live_helpers import plain_profile

SEATS = ("P1", "P2", "P3", "P4")
PROFILE = plain_profile((320, 180), list(SEATS))


def serial(rng: random.Random) -> str:
    """Seven digits from 1-3 at P=4 (no zero: no joker): ranks tie often, a serial repeats rarely."""
    return "".join(rng.choice("123") for _ in range(7))


def start(log: list[dict], game: str, policy: str) -> LiveSession:
    """``live`` started on the log so far, going on with its session as ``live`` does (app/live_run.py)."""
    state = TableState(SEATS, 4, tie_policy=policy, game=game)
    going_on = continue_session(log, SEATS, datetime.now(timezone.utc))
    session = LiveSession(PROFILE, state, InlineWorker(read=lambda job: ()), LiveOptions(ocr=False),
                          on_finished=log.append)
    if going_on is not None:
        session.state = TableState(SEATS, 4, tie_policy=policy, game=game, hand_number=going_on.hand_number,
                                   dealer_index=going_on.dealer_index or 0,
                                   carried_in=going_on.carried_in if game == "holdem" else 0)
        session.session_id = going_on.session
    return session


def holdem_hand(rng: random.Random) -> list[str]:
    typed = [f"board {i} {serial(rng)}" for i in (1, 2, 3)]
    for seat in SEATS:
        if rng.random() < 0.15:
            continue  # not dealt in
        typed += [f"{seat} 1 {serial(rng)}", f"{seat} 2 {serial(rng)}"]
        if rng.random() < 0.8:
            typed.append(f"chips {seat} {rng.choice([0, 2, 5, 5, 10, 10, 10, 25])}")  # unequal: side pots
        if rng.random() < 0.2:
            typed.append(f"fold {seat}")
    return typed + ["showdown"]


def indian_hand(rng: random.Random) -> list[str]:
    stake = rng.randint(1, 3)
    typed = []
    for seat in SEATS:
        typed.append(f"{seat} 1 {serial(rng)}")
        if rng.random() < 0.25:
            typed += [f"chips {seat} {rng.randint(1, stake)}", f"fold {seat}"]
        else:
            typed.append(f"chips {seat} {stake}")
    return typed + ["showdown"]


def play_night(seed: int, game: str) -> tuple[list[dict], int, int]:
    """The log of a random night, the carry live holds at its end and how many restarts went on with the
    night's session."""
    rng = random.Random(seed)
    log: list[dict] = []
    policy = "rollover" if game == "holdem" else "split"
    session = start(log, game, policy)
    restarts = 0
    for _ in range(rng.randint(4, 10)):
        croupier = Croupier(session, "en")
        roll = rng.random()
        if roll < 0.1:
            croupier.line("board 1 1231231" if game == "holdem" else "P1 1 1231231")
            croupier.line("new")  # typed in a script: abandoned at once
        else:
            for line in (holdem_hand if game == "holdem" else indian_hand)(rng):
                croupier.line(line)
            croupier.line("new")
        if rng.random() < 0.25:  # live restarted between two hands
            session.close("quit")
            before = session.state
            session = start(log, game, policy)
            if log and session.session_id == log[-1]["session"]:
                restarts += 1
                assert (session.state.hand_number, session.state.carried_in) == (before.hand_number,
                                                                                  before.carried_in)
    carry = session.state.carried_in
    session.close("quit")
    return log, carry, restarts


def check_night(log: list[dict], carry: int) -> None:
    decided = [r for r in log if r["status"] == "showdown"]
    ledger = build_ledger(log)
    assert ledger.skipped == () and ledger.hands == len(decided)
    shown: dict[str, object] = {}
    for record in decided:
        payouts = record.get("settlement", {}).get("payouts", {})
        for name, chips in payouts.items():
            shown[name] = shown.get(name, 0) + chips
        # history --show: the rules over the logged input pay what was logged (and shown at the table)
        again = evaluate(parse_hand(record_input(record))).settlement
        assert ({n: chips_to_json(c) for n, c in again.payouts.items()} if again else {}) == payouts
        # the spectator page: each seat's payout as logged
        page = {s["name"]: s["payout"] for s in public_from_record(record)["seats"] if s["payout"] is not None}
        assert page == {n: c for n, c in payouts.items() if n in page} and set(page) == set(payouts)
    credited = {p.name: p.won for p in ledger.players}
    assert {n: shown.get(n, 0) for n in credited} == credited
    assert sum(p.net for p in ledger.players) + ledger.carried_out - ledger.carried_in == 0
    assert ledger.carried_in == 0 and ledger.carried_out == carry


@settings(max_examples=40, deadline=None, derandomize=True)
@given(st.integers(0, 2**32 - 1))
def test_holdem_nights_with_rollover_show_what_the_ledger_credits(seed):
    log, carry, _ = play_night(seed, "holdem")
    check_night(log, carry)


@settings(max_examples=25, deadline=None, derandomize=True)
@given(st.integers(0, 2**32 - 1))
def test_indian_poker_nights_show_what_the_ledger_credits(seed):
    log, carry, _ = play_night(seed, "indian")
    assert carry == 0
    check_night(log, carry)
    # ledger --ante N is Hold'em's buy-in ante: an Indian hand's ante is in its chips (RULES.md §7.1), so the
    # option moves none of its chips (it credited each winner the antes again beside the pot's payout)
    plain, with_ante = build_ledger(log), build_ledger(log, ante=2, rake=1)
    assert [p.won for p in with_ante.players] == [p.won for p in plain.players]
    assert [p.net for p in with_ante.players] == [p.net - p.hands_played for p in plain.players]  # the rake only


def test_the_random_nights_hold_what_they_are_meant_to():
    """The nights drawn do hold carried pots paid to a winner, side pots, abandoned hands and restarts."""
    nights = [play_night(seed, "holdem") for seed in range(30)]
    records = [r for log, _, _ in nights for r in log]
    paid_carries = [r for r in records if r.get("settlement", {}).get("carried_in") and r["settlement"]["carry"] == 0]
    assert len(paid_carries) >= 5
    assert any(len(r["settlement"]["pots"]) > 1 for r in records if r.get("settlement"))
    assert any(r["status"] == "incomplete" for r in records)
    assert sum(restarts for _, _, restarts in nights) >= 5  # restarts that went on with the session
    assert any(carry for _, carry, _ in nights)  # a night that ends with a pot still carried


def test_ledger_says_an_indian_hand_pays_no_ante_option(tmp_path):
    from typer.testing import CliRunner

    from dealer_assist.cli import app
    from dealer_assist.live.history import HandLog

    log = tmp_path / "hands.jsonl"
    for record in play_night(7, "indian")[0]:
        HandLog(log).append(record)
    en, ru = (CliRunner().invoke(app, ["ledger", "--log", str(log), "--ante", "2", "--lang", lang],
                                 env={"COLUMNS": "100"}) for lang in ("en", "ru"))
    assert en.exit_code == ru.exit_code == 0, en.output
    assert "Indian poker hands pay no --ante: their ante is in their chips (RULES.md §7.1)." in en.stdout
    assert "Раздачи индийского покера не платят --ante: их анте уже в их фишках (RULES.md §7.1)." in ru.stdout
    plain = CliRunner().invoke(app, ["ledger", "--log", str(log)], env={"COLUMNS": "100"})
    assert "--ante" not in plain.stdout
