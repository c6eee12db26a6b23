"""Trial 6 H1: under ``--tie-policy rollover`` the money shown is the money credited, everywhere, once.

The hand after a tie showed its winner ``gets 10`` (dashboard, the log's ``payouts``, ``history --show``, the
spectator page) while ``ledger`` credited 21 (10 + the 11 carried). Now the carry is a rules-engine input
(:func:`dealer_assist.rules.settle` ``carried_in``): it joins the next hand's main pot, the rules pay it with
that pot, and every reader shows what the rules paid; the ledger pays only what the log lacks (antes, and the
carry of a log written before ``carried_in``).
"""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest
from typer.testing import CliRunner

from dealer_assist.cli import app
from dealer_assist.ledger import build_ledger
from dealer_assist.live.history import read_log
from dealer_assist.live.table_state import TableState
from dealer_assist.live.table_view import table_view
from dealer_assist.rules import Hand, HandError, Player, evaluate, parse_hand, settle
from dealer_assist.spectator.public import public_from_record, public_from_state
from dealer_assist.spectator.state import state_from_view
from ledger_helpers import TIE_BOARD, TIE_POCKETS, logged_hand
from spectator_helpers import note

ROOT = Path(__file__).resolve().parents[1]
LIVE = ["live", "--camera", str(ROOT / "sample_images" / "tables" / "table_1.jpg"), "--calibration", "sample_table_1",
        "--position", "4", "--no-ocr", "--no-window", "--tie-policy", "rollover"]
BOARD = "board 1 1111111\nboard 2 2222222\nboard 3 3333333\n"
# P=4: P1, P2 and P3 each hold a natural straight 3-2-1 with the board: a three-way tie, 3+3+3+2 = 11 chips
TIE = (BOARD + "P1 1 1119111\nP1 2 1116111\nP2 1 2229222\nP2 2 2226222\nP3 1 3339333\nP3 2 3336333\n"
       "chips P1 3\nchips P2 3\nchips P3 3\nchips P4 2\nfold P4\nshowdown\n")
# P2's 5-4-3 beats P1's 3-2-1; P3 and P4 fold: P2 takes the main pot of 10 and the 11 carried
WIN = (BOARD + "P1 1 1119111\nP1 2 1118111\nP2 1 2224222\nP2 2 2225222\nfold P3\nfold P4\nchips P1 5\n"
       "chips P2 5\nshowdown\n")
# a hand that never ends: a note and chips, then the run stops (logged as abandoned)
ABANDONED = "board 1 1111111\nchips P1 4\n"


def run_live(log: Path, typed: str, lang: str = "en"):
    result = CliRunner().invoke(app, [*LIVE, "--log", str(log), "--lang", lang], input=typed, env={"COLUMNS": "80"})
    assert result.exit_code == 0 and "Traceback" not in result.output, result.output
    return result


def last_screen(stdout: str) -> str:
    """The dashboard as printed last (each frame is printed whole; the last one starts at its last header)."""
    start = max(stdout.rfind("Hand "), stdout.rfind("Раздача "))
    return stdout[start:]


# -- the rules decide the money ------------------------------------------------------------------------
def test_chips_carried_in_join_the_main_pot_and_are_paid_once():
    s = settle({"A": 5, "B": 5}, {"A": 3, "B": 1}, order="AB", carried_in=11)
    assert [(p.amount, p.carried_in, p.winners) for p in s.pots] == [(21, 11, ("A",))]
    assert s.payouts == {"A": 21, "B": 0} and s.carry == 0 and s.carried_in == 11


def test_the_carry_goes_to_the_main_pot_not_to_a_side_pot():
    # A all-in for 10 wins the main pot (30 + 7 carried); B beats C for the side pot (20), which holds no carry
    s = settle({"A": 10, "B": 20, "C": 20}, {"A": 9, "B": 5, "C": 1}, order="ABC", carried_in=7)
    assert [(p.amount, p.carried_in, p.winners) for p in s.pots] == [(37, 7, ("A",)), (20, 0, ("B",))]
    assert s.payouts == {"A": 37, "B": 20, "C": 0}
    assert sum(s.payouts.values()) + s.carry == 50 + 7


def test_a_second_tie_in_a_row_carries_both_pots():
    s = settle({"A": 4, "B": 4}, {"A": 2, "B": 2}, order="AB", tie_policy="rollover", carried_in=11)
    assert s.pots[0].amount == 19 and s.carry == 19 and s.payouts == {"A": 0, "B": 0}


def test_with_no_chips_entered_the_carry_is_a_main_pot_of_its_own():
    hand = Hand(position=1, board=("9111111", "8111111", "1222222"),
                players=(Player("A", ("7333333", "2444444")), Player("B", ("9555555", "9666666"))), carried_in=11)
    out = evaluate(hand)
    assert out.winners == ("B",)  # B's set of 9s beats A's straight 9-8-7
    assert out.settlement.payouts == {"A": 0, "B": 11} and out.settlement.pots[0].eligible == ("A", "B")
    assert evaluate(Hand(1, hand.board, hand.players)).settlement is None  # nothing carried, no chips: none


def test_exact_shares_keep_the_carry_in_the_main_pot():
    s = settle({"A": 5, "B": 5, "C": 5}, {"A": 9, "B": 9, "C": 1}, order="ABC", exact=True, carried_in=1)
    assert s.payouts == {"A": Fraction(8), "B": Fraction(8), "C": 0}


@pytest.mark.parametrize("bad", [-1, 1.5, True, "11"])
def test_a_carry_that_is_not_whole_chips_is_refused(bad):
    with pytest.raises(ValueError, match="carried in must be a whole number of chips >= 0"):
        settle({"A": 5, "B": 5}, {"A": 1}, order="AB", carried_in=bad)


def test_the_hand_format_reads_carried_in_and_indian_poker_refuses_it():
    obj = {"position": 1, "board": ["9111111", "8111111", "1222222"], "tie_policy": "rollover", "carried_in": 11,
           "players": [{"name": "A", "pocket": ["7333333", "2444444"], "contributed": 5},
                       {"name": "B", "pocket": ["9555555", "9666666"], "contributed": 5}]}
    assert evaluate(parse_hand(obj)).settlement.payouts == {"A": 0, "B": 21}
    assert parse_hand({k: v for k, v in obj.items() if k != "carried_in"}).carried_in == 0
    with pytest.raises(HandError, match="carried_in must be a whole number of chips, got '11'"):
        parse_hand({**obj, "carried_in": "11"})
    indian = {"game": "indian", "position": 2, "carried_in": 3,
              "players": [{"name": "A", "pocket": ["1911111"]}, {"name": "B", "pocket": ["2922222"]}]}
    with pytest.raises(HandError, match="carried_in must be 0 in Indian poker"):
        parse_hand(indian)


# -- live, the log, history --show, the ledger and the spectator page over one night -------------------
def test_a_tie_then_a_win_shows_and_credits_21_everywhere_across_restarts(tmp_path):
    """Three runs of live on one log: a tie (11 rolls over), a restart and a hand abandoned (the carry stays),
    a restart and a win: P2 is shown, logged, shown again and credited 21 (10 + 11), once."""
    log = tmp_path / "hands.jsonl"
    tie = run_live(log, TIE)
    assert "Pots: main 11 → the next hand · Carried to the next hand: 11" in tie.stdout
    abandoned = run_live(log, ABANDONED)
    assert "Pot carried in: 11 (joins the main pot)" in last_screen(abandoned.stdout)
    win = run_live(log, WIN)
    screen = last_screen(win.stdout)
    assert "Pot carried in: 11" not in screen  # decided: the sum is in the pots line
    assert "Pots: main 10 + carried 11 = 21 → P2" in screen
    assert [line for line in screen.splitlines() if line.startswith("P2 ")][-1].endswith("WINS · gets 21")

    records, warnings = read_log(log)
    assert warnings == [] and [r["status"] for r in records] == ["showdown", "incomplete", "showdown"]
    assert len({r["session"] for r in records}) == 1 and [r["hand"] for r in records] == [1, 2, 3]
    assert records[0]["settlement"]["carry"] == 11 and records[1]["input"]["carried_in"] == 11
    settled = records[2]["settlement"]
    assert settled["payouts"] == {"P1": 0, "P2": 21, "P3": 0, "P4": 0} and settled["carry"] == 0
    assert settled["carried_in"] == 11 and settled["pots"][0] == {"amount": 21, "eligible": ["P1", "P2"],
                                                                   "winners": ["P2"], "carried_in": 11}
    assert records[2]["input"]["carried_in"] == 11

    shown = CliRunner().invoke(app, ["history", "--log", str(log), "--show", "3"], env={"COLUMNS": "80"})
    assert shown.exit_code == 0, shown.output
    assert "main │ 10 + carried 11 = 21 │ P1, P2   │ P2" in shown.stdout and "gets 21" in shown.stdout

    ledger = CliRunner().invoke(app, ["ledger", "--log", str(log), "--json"])
    assert ledger.exit_code == 0, ledger.output
    out = json.loads(ledger.stdout)
    assert out["players"]["P2"]["won"] == 21 and out["players"]["P2"]["net"] == 21 - 3 - 5
    assert {p: v["net"] for p, v in out["players"].items()} == {"P1": -8, "P2": 13, "P3": -3, "P4": -2}
    assert out["carried_in"] == out["carried_out"] == 0 and out["hands_not_decided"] == 1

    page = public_from_record(records[2])
    assert page["carried_in"] == {"carried": 11, "main": 10, "total": 21, "to": ["P2"]}
    assert {s["name"]: s["payout"] for s in page["seats"]}["P2"] == 21
    assert public_from_record(records[1])["carried_in"] == {"carried": 11, "main": None, "total": None, "to": None}
    assert public_from_record(records[0])["carried_in"] is None and public_from_record(records[0])["carry"] == 11


def test_the_russian_screen_and_history_say_the_same_sum(tmp_path):
    log = tmp_path / "hands.jsonl"
    run_live(log, TIE + "new\n" + ABANDONED, lang="ru")
    screen = last_screen(run_live(log, WIN, lang="ru").stdout)
    assert "Банки: основной 10 + перенос 11 = 21 → P2" in screen
    assert [line for line in screen.splitlines() if line.startswith("P2 ")][-1].endswith("получает 21")
    shown = CliRunner().invoke(app, ["history", "--log", str(log), "--show", "3", "--lang", "ru"],
                               env={"COLUMNS": "80"})
    assert "10 + перенос 11 = 21" in shown.stdout and "получает 21" in shown.stdout, shown.stdout


def test_an_abandoned_hand_in_one_run_keeps_the_carry(tmp_path):
    log = tmp_path / "hands.jsonl"
    run_live(log, TIE + "new\n" + ABANDONED + "new\nnew\n" + WIN)
    records, _ = read_log(log)
    assert [r["status"] for r in records] == ["showdown", "incomplete", "showdown"]
    assert records[2]["settlement"]["payouts"]["P2"] == 21
    assert build_ledger(records).player("P2").won == 21


def test_a_second_tie_in_a_row_carries_both_pots_to_the_winner(tmp_path):
    log = tmp_path / "hands.jsonl"
    run_live(log, TIE + "new\n" + TIE + "new\n" + WIN)
    records, _ = read_log(log)
    assert [r["settlement"]["carry"] for r in records] == [11, 22, 0]
    # (seats from the dealer's left: P2 deals hand 2)
    assert records[1]["settlement"]["pots"][0] == {"amount": 22, "eligible": ["P3", "P1", "P2"],
                                                    "winners": ["P3", "P1", "P2"], "carried_in": 11}
    assert records[2]["settlement"]["payouts"]["P2"] == 10 + 22
    ledger = build_ledger(records)
    assert ledger.player("P2").won == 32 and ledger.carried_out == 0
    assert sum(p.net for p in ledger.players) == 0


# -- the ledger pays only what the log lacks --------------------------------------------------------------
TIE_CHIPS = {"A": 5, "B": 5, "C": 5}
WIN_CHIPS = {"A": 10, "B": 10, "C": 10}


def carried_record(carried_in: int, **kw):
    """The winning hand as live logs it now: the carried pot in its state, so in the rules' payouts."""
    from dealer_assist.live.history import hand_record
    from datetime import timedelta
    from ledger_helpers import T0

    state = TableState(seats=("A", "B", "C"), position=1, tie_policy="rollover", hand_number=2,
                       chips=tuple(WIN_CHIPS.items()), carried_in=carried_in)
    notes = [note(i + 1, "board", s) for i, s in enumerate(("9111111", "8111111", "1222222"))]
    for name, pocket in {"A": ("7333333", "2444444"), "B": ("9555555", "9666666"),
                         "C": ("2777777", "3888888")}.items():
        notes += [note(len(notes) + 1, name, s) for s in pocket]
    return hand_record(table_view(state, notes), session="s1", started=T0, finished=T0 + timedelta(minutes=5),
                       end="new hand")


def test_an_old_log_without_carried_in_still_credits_the_carry_once():
    tie = logged_hand(("A", "B", "C"), TIE_BOARD, TIE_POCKETS, chips=TIE_CHIPS, tie_policy="rollover")
    assert tie["winners"] == ["A", "C"] and tie["settlement"]["carry"] == 15
    old = carried_record(0)  # written before carried_in: the carry is not in its payouts (B's set wins)
    assert old["settlement"]["payouts"]["B"] == 30 and "carried_in" not in old["settlement"]
    new = carried_record(15)
    assert new["settlement"]["payouts"]["B"] == 45 and new["settlement"]["carried_in"] == 15
    for second in (old, new):
        ledger = build_ledger([tie, second])
        assert ledger.player("B").won == 45 and ledger.carried_in == ledger.carried_out == 0
        assert [p.net for p in ledger.players] == [-15, 45 - 15, -15] and ledger.skipped == ()


def test_the_ledger_adds_its_antes_to_a_carried_pot_and_counts_a_carry_from_no_log_read():
    tie = logged_hand(("A", "B", "C"), TIE_BOARD, TIE_POCKETS, chips=TIE_CHIPS, tie_policy="rollover")
    ledger = build_ledger([tie, carried_record(15)], ante=2)
    assert ledger.player("B").won == 45 + 2 * 3 + 2 * 3  # the pots, this hand's antes, the tie's rolled antes
    assert sum(p.net for p in ledger.players) + ledger.carried_out - ledger.carried_in == 0
    alone = build_ledger([carried_record(15)])  # the tie is in no log read: its 15 came from before
    assert alone.player("B").won == 45 and alone.carried_in == 15
    assert sum(p.net for p in alone.players) + alone.carried_out - alone.carried_in == 0


def test_a_record_whose_payouts_do_not_hold_its_carry_is_left_out():
    bad = carried_record(15)
    bad["settlement"] = {**bad["settlement"], "payouts": {"A": 0, "B": 30, "C": 0}}
    ledger = build_ledger([bad])
    assert ledger.hands == 0 and len(ledger.skipped) == 1
    assert "do not add up to the chips put in (30) and carried in (15)" in ledger.skipped[0]


def test_the_spectator_state_file_says_the_carry_in_play_and_the_sum_once_decided():
    state = TableState(seats=("A", "B", "C"), position=1, tie_policy="rollover", chips=tuple(WIN_CHIPS.items()),
                       carried_in=15)
    board = [note(i + 1, "board", s) for i, s in enumerate(("9111111", "8111111", "1222222"))]
    in_play = public_from_state(state_from_view(table_view(state, board)))
    assert in_play["carried_in"] == {"carried": 15, "main": None, "total": None, "to": None}
    notes = board + [note(10, "A", "7333333"), note(11, "A", "2444444"), note(12, "B", "9555555"),
                     note(13, "B", "9666666"), note(14, "C", "2777777"), note(15, "C", "3888888")]
    decided = public_from_state(state_from_view(table_view(state, notes)))
    assert decided["carried_in"] == {"carried": 15, "main": 30, "total": 45, "to": ["B"]}
    assert {s["name"]: s["payout"] for s in decided["seats"]} == {"A": 0, "B": 45, "C": 0}


@pytest.mark.slow
def test_the_spectator_page_in_a_browser_says_main_plus_carried_and_the_winner_s_whole_payout(tmp_path):
    """The page itself (served, in headless chromium): the tie's hand says the pot is carried; the next hand
    'Main pot 30 + carried 15 = 45 → B' in both languages, and B's seat 'gets 45' (what B was paid, once)."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    from dealer_assist.live.history import HandLog
    from dealer_assist.spectator.state import default_state_path, write_state
    from test_spectator_browser import Server, browser

    log = tmp_path / "hands.jsonl"
    HandLog(log).append(logged_hand(("A", "B", "C"), TIE_BOARD, TIE_POCKETS, chips=TIE_CHIPS, tie_policy="rollover"))
    server = Server(["--log", str(log), "--delay", "0", "--port", "0"], tmp_path / "serve.err")
    driver = None
    try:
        url = server.url()
        driver = browser(str(tmp_path / "chromium-profile"))
        wait = WebDriverWait(driver, 60, poll_frequency=0.1)
        driver.get(url)
        wait.until(lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-hand") == "1")
        body = driver.find_element(By.TAG_NAME, "body").text
        assert "Carried to the next hand · Переходит в следующую раздачу: 15" in body
        # the tie is no split and has no winners (eighth new-user trial): the pot goes to the next hand
        tied = json.loads(log.read_text(encoding="utf-8").splitlines()[0])["winners"]
        assert len(tied) == 2
        assert driver.find_element(By.ID, "winner").text == (
            f"Tied · Ничья: {', '.join(tied)} → the next hand · следующая раздача")
        assert "SPLITS" not in body and "делит банк" not in body and "Winners" not in body
        for seat in tied:
            card = driver.find_element(By.CSS_SELECTOR, f'[data-seat="{seat}"]')
            assert "ties: the pot rolls over · ничья: банк переходит" in card.text
            assert "winner" not in card.get_attribute("class").split()
        # hand 2 in play (live's state file): the tie is "Previous hand 1: tie …", not "winners"
        state = TableState(seats=("A", "B", "C"), position=1, tie_policy="rollover", hand_number=2, carried_in=15)
        write_state(state_from_view(table_view(state, [note(1, "board", "9111111")])), default_state_path(log))
        wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, ".previous"))
        previous = driver.find_element(By.CSS_SELECTOR, ".previous").text
        assert previous == (f"Previous hand 1: tie {', '.join(tied)} → the next hand · Предыдущая раздача 1: ничья "
                            f"{', '.join(tied)} → следующая раздача"), previous
        default_state_path(log).unlink()
        HandLog(log).append(carried_record(15))
        wait.until(lambda d: [e for e in d.find_elements(By.ID, "carried") if e.text.startswith("Main pot")])
        carried = driver.find_element(By.ID, "carried").text
        assert carried == ("Main pot 30 + carried 15 = 45 → B · Основной банк 30 + перенос 15 = 45 → B"), carried
        seat_b = driver.find_element(By.CSS_SELECTOR, '[data-seat="B"]').text
        assert "gets 45 · получает 45" in seat_b and "+45" not in seat_b  # paid, not a gain (seventh trial)
        driver.save_screenshot(str(tmp_path / "carried.png"))
    finally:
        server.stop()
        if driver is not None:
            driver.quit()


def test_history_show_of_an_old_log_says_the_carry_the_ledger_credits(tmp_path):
    """A log written before ``carried_in``: the hand after the tie logged B's 30 alone, and the ledger credits
    45 (30 + the 15 carried); ``history --show`` shows it with the carry in its main pot, as the ledger pays."""
    from dealer_assist.live.history import HandLog

    log = tmp_path / "old.jsonl"
    HandLog(log).append(logged_hand(("A", "B", "C"), TIE_BOARD, TIE_POCKETS, chips=TIE_CHIPS, tie_policy="rollover"))
    HandLog(log).append(carried_record(0))  # as live wrote it before: no carried_in, B's payout 30
    shown = CliRunner().invoke(app, ["history", "--log", str(log), "--show", "2"], env={"COLUMNS": "80"})
    assert shown.exit_code == 0, shown.output
    assert "main │ 30 + carried 15 = 45 │" in shown.stdout and "gets 45" in shown.stdout, shown.stdout
    assert build_ledger(read_log(log)[0]).player("B").won == 45
    first = CliRunner().invoke(app, ["history", "--log", str(log), "--show", "1"], env={"COLUMNS": "80"})
    assert "carried" not in first.stdout.replace("Carried to the next hand", "")  # the tie itself carried nothing in
    # a new log says what was carried: shown as logged, never carried twice
    new = tmp_path / "new.jsonl"
    HandLog(new).append(logged_hand(("A", "B", "C"), TIE_BOARD, TIE_POCKETS, chips=TIE_CHIPS, tie_policy="rollover"))
    HandLog(new).append(carried_record(15))
    again = CliRunner().invoke(app, ["history", "--log", str(new), "--show", "2"], env={"COLUMNS": "80"})
    assert "main │ 30 + carried 15 = 45 │" in again.stdout and "gets 45" in again.stdout, again.stdout


def test_a_restart_says_the_carry_goes_on_in_both_languages():
    from datetime import datetime, timedelta, timezone

    from dealer_assist.i18n import say
    from dealer_assist.live.night import continue_session

    tie = logged_hand(("A", "B", "C"), TIE_BOARD, TIE_POCKETS, chips=TIE_CHIPS, tie_policy="rollover")
    going_on = continue_session([tie], ("A", "B", "C"), tie_finished(tie) + timedelta(minutes=5))
    assert going_on.carried_in == 15 and going_on.hand_number == 2
    assert going_on.sentence.endswith(" 15 chips carried over from earlier hands join this hand's main pot.")
    assert say(going_on.sentence, "ru").endswith(" Перенесённые из прошлых раздач фишки (15) входят в основной банк "
                                                 "этой раздачи.")
    won = carried_record(15)
    assert continue_session([tie, won], ("A", "B", "C"), tie_finished(won) + timedelta(minutes=5)).carried_in == 0


def tie_finished(record):
    from datetime import datetime

    return datetime.fromisoformat(record["finished"])
