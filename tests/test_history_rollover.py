"""``history`` of a rolled-over tie names no winner (seventh new-user trial: the list and the pot table of
``--show`` called the tied seats of a pot carried to the next hand its "winners"), in both languages."""

from __future__ import annotations

from pathlib import Path

from test_newuser_trial3 import invoke
from test_russian_everywhere import RU_ENV

ROOT = Path(__file__).resolve().parents[1]
BOARD = "board 1 1115111\nboard 2 2226222\nboard 3 3337333\n"
TIED = BOARD + "P1 1 1119111\nP1 2 2229222\nP2 1 4449444\nP2 2 5559555\n"  # P=4: both 7-6-5 from the board
WON = BOARD + "P1 1 1117111\nP1 2 2227222\nP2 1 1111112\nP2 2 2222223\n"  # P1 a 7-7-7 set


def _night(log: Path, lang: str = "en"):
    stdin = (TIED + "chips P1 10\nchips P2 10\nnew\n" + TIED + "chips P1 5\nchips P2 5\nnew\n" + WON
             + "chips P1 5\nchips P2 5\n")
    result = invoke(["live", "--camera", ROOT / "sample_images" / "tables" / "table_1.jpg", "--calibration",
                     "sample_table_1", "--position", "4", "--no-ocr", "--no-window", "--log", log,
                     "--tie-policy", "rollover", "--lang", lang], stdin=stdin)
    assert result.exit_code == 0, result.output
    return result


def _flat(text: str) -> str:
    return " ".join(text.split())


def test_the_list_and_the_pot_table_name_no_winner_of_a_carried_pot(tmp_path):
    log = tmp_path / "night.jsonl"
    _night(log)
    listed = invoke(["history", "--log", log, "--lang", "en"])
    assert listed.exit_code == 0, listed.output
    rows = [line for line in listed.stdout.splitlines() if line.startswith("│ ") and "showdown" in line]
    assert len(rows) == 3
    assert "tie P1, P2 →" in rows[0] and "tie P1, P2 →" in rows[1] and "│ P1 " in rows[2]
    shown = invoke(["history", "--log", log, "--show", "2", "--lang", "en"])
    flat = _flat(shown.stdout)
    assert "Tied (the pot rolls over): P1, P2" in flat
    assert "main │ 10 + carried 20 = 30 │ P1, P2 │ tie P1, P2 → the next hand" in flat
    assert "Carried to the next hand: 30" in flat
    assert "Logged as tied (the pot rolls over): P1, P2" in flat and "Logged winners" not in flat
    won = _flat(invoke(["history", "--log", log, "--show", "3", "--lang", "en"]).stdout)
    assert "main │ 10 + carried 30 = 40 │ P1, P2 │ P1" in won and "Logged winners: P1" in won
    ru = invoke(["history", "--log", log, "--show", "2"], env=RU_ENV)
    flat = _flat(ru.stdout)
    assert "ничья P1, P2 → следующая" in flat and "В журнале ничья (банк переходит): P1, P2" in flat
    listed_ru = invoke(["history", "--log", log], env=RU_ENV).stdout  # the cell wraps at 80 columns
    assert listed_ru.count("│ ничья P1,") == 2 and listed_ru.count("│ следующая") == 2


def test_live_s_own_line_for_a_rolled_over_tie_names_no_winners(tmp_path):
    """Eighth new-user trial: live's line for each finished hand said "winners P1, P2" for a tie carried on."""
    en = _night(tmp_path / "en.jsonl")
    assert [line for line in en.stdout.splitlines() if "finished:" in line] == [
        "hand 1 finished: showdown, tie P1, P2 → the next hand",
        "hand 2 finished: showdown, tie P1, P2 → the next hand"]  # hand 3 is logged at the end of the input
    ru = _night(tmp_path / "ru.jsonl", "ru")
    assert [line for line in ru.stdout.splitlines() if "закончена:" in line][:2] == [
        "раздача 1 закончена: вскрытие, ничья P1, P2 → следующая раздача",
        "раздача 2 закончена: вскрытие, ничья P1, P2 → следующая раздача"]


def test_a_restart_with_another_tie_policy_says_so(tmp_path):
    """Eighth new-user trial: restarting live without --tie-policy rollover on a session that rolls ties over
    split the next tie, said only by the header's 'ties: split'. The start sentence now says it, both ways."""
    from datetime import datetime, timezone

    from dealer_assist.i18n import say
    from dealer_assist.live.history import read_log
    from dealer_assist.live.night import continue_session

    log = tmp_path / "tie.jsonl"
    made = invoke(["live", "--camera", ROOT / "sample_images" / "tables" / "table_1.jpg", "--calibration",
                   "sample_table_1", "--position", "4", "--no-ocr", "--no-window", "--log", log,
                   "--tie-policy", "rollover"], stdin=TIED + "chips P1 10\nchips P2 10\n")
    assert made.exit_code == 0, made.output
    records, _ = read_log(log)
    now = datetime.now(timezone.utc)
    seats = ("P1", "P2", "P3", "P4")
    split = continue_session(records, seats, now, tie_policy="split")
    assert split.carried_in == 20
    assert split.sentence.endswith(
        "Its last hand was played with --tie-policy rollover; this run plays --tie-policy split (give --tie-policy "
        "rollover to keep the session's rule). 20 chips carried over from earlier hands join this hand's main pot.")
    assert say(split.sentence, "ru").endswith(
        "Её последняя раздача сыграна с --tie-policy rollover; этот запуск играет с --tie-policy split (дайте "
        "--tie-policy rollover, чтобы оставить правило сессии). Перенесённые из прошлых раздач фишки (20) входят в "
        "основной банк этой раздачи.")
    same = continue_session(records, seats, now, tie_policy="rollover")
    assert "--tie-policy" not in same.sentence and same.carried_in == 20
