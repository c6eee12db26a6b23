"""`dealer-assist ledger` through typer's CliRunner, on logs written by the live mode's own
writer: the table, --json, --csv, --since, --ante / --rake, and bad lines said once as a count."""

from __future__ import annotations

import csv
import io
import json
from datetime import timedelta

import pytest
from typer.testing import CliRunner

from dealer_assist.cli import app
from dealer_assist.live.history import HandLog
from ledger_helpers import BOARD, POCKETS, T0, TIE_BOARD, TIE_POCKETS, logged_hand

runner = CliRunner()


def run(*args, env=None):
    result = runner.invoke(app, [str(a) for a in args], env={"COLUMNS": "200", **(env or {})})
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result


@pytest.fixture
def log(tmp_path):
    """Three decided hands (a side pot, a rolled-over tie, a fold to the last player), one
    hand not decided, and a line torn by a crash."""
    path = tmp_path / "hands.jsonl"
    hands = HandLog(path)
    hands.append(logged_hand("ABC", BOARD, POCKETS, chips={"A": 10, "B": 30, "C": 30}, hand=1))
    hands.append(logged_hand("ABC", TIE_BOARD, TIE_POCKETS, folded={"B"}, chips={"A": 5, "B": 5, "C": 5},
                             tie_policy="rollover", hand=2, finished=T0 + timedelta(minutes=5)))
    hands.append(logged_hand("ABC", BOARD, POCKETS, folded={"A", "B"}, chips={"A": 4, "B": 4, "C": 4}, hand=3,
                             finished=T0 + timedelta(minutes=10)))
    hands.append(logged_hand("ABC", BOARD[:2], POCKETS, chips={"A": 4}, hand=4, finished=T0 + timedelta(minutes=15)))
    with open(path, "a", encoding="utf-8") as fh:
        fh.write('{"schema": "dealer-assist/hand-log", "vers\n')
    return path


def test_the_table_with_nets_and_transfers_and_one_warning_for_bad_lines(log):
    result = run("ledger", "--log", log)
    assert result.exit_code == 0, result.output
    ledger_part = result.stdout.split("Transfers that settle")[0]
    rows = {line.split()[1]: line.split()[2:] for line in ledger_part.splitlines()
            if line.startswith("│ ") and line.split()[1] in "ABC"}
    # hands, hands won, put in, buy-ins, chips won, net
    assert [cell for cell in rows["A"] if cell != "│"] == ["3", "0", "19", "0", "0", "-19"]
    assert [cell for cell in rows["B"] if cell != "│"] == ["3", "1", "39", "0", "70", "+31"]
    assert [cell for cell in rows["C"] if cell != "│"] == ["3", "1", "39", "0", "27", "-12"]
    assert "Transfers that settle everyone (the fewest possible):" in result.stdout
    transfers = [line.replace("│", " ").split() for line in result.stdout.split("Transfers that settle")[1].splitlines()]
    assert [row for row in transfers if len(row) == 3 and row[2].isdigit()] == [["A", "B", "19"], ["C", "B", "12"]]
    assert "1 hand(s) not decided (no showdown logged) are not counted." in result.stdout
    assert result.stderr == f"warning: line 5 of {log} is not a whole record (cut by a crash?); skipped.\n"


def test_json_with_ante_and_rake(log):
    result = run("ledger", "--log", log, "--json", "--ante", "2", "--rake", "1")
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    assert out["players"] == {
        "A": {"hands_played": 3, "hands_won": 0, "put_in": 19, "buy_ins": 9, "won": 0, "net": -28},
        "B": {"hands_played": 3, "hands_won": 1, "put_in": 39, "buy_ins": 9, "won": 76, "net": 28},
        "C": {"hands_played": 3, "hands_won": 1, "put_in": 39, "buy_ins": 9, "won": 39, "net": -9}}
    assert (out["rake"], out["carried_in"], out["carried_out"]) == (9, 0, 0)
    assert out["transfers"] == [
        {"from": "A", "from_kind": "player", "to": "B", "to_kind": "player", "amount": 28},
        {"from": "C", "from_kind": "player", "to": "organiser", "to_kind": "house", "amount": 9}]
    assert out["fewest_transfers"] is True
    assert (out["hands"], out["hands_not_decided"], out["skipped_lines"]) == (3, 1, 1)
    assert (out["ante"], out["rake_per_player"], out["since"]) == (2, 1, None)


def test_csv_rows_for_players_organiser_carried_pot_and_transfers(log):
    result = run("ledger", "--log", log, "--csv", "--rake", "1")
    assert result.exit_code == 0, result.output
    rows = list(csv.DictReader(io.StringIO(result.stdout)))
    players = {r["name"]: r for r in rows if r["kind"] == "player"}
    assert players["B"]["net"] == "28" and players["B"]["buy_ins"] == "3"
    assert [r["net"] for r in rows if r["kind"] == "organiser"] == ["9"]
    # A -22, B +28, C -15, organiser +9: no part adds up to 0, so 3 transfers
    assert [(r["name"], r["to"], r["amount"]) for r in rows if r["kind"] == "transfer"] == [
        ("A", "B", "22"), ("C", "organiser", "9"), ("C", "B", "6")]
    nets = sum(int(r["net"]) for r in rows if r["kind"] in ("player", "organiser", "carried pot"))
    assert nets == 0


def test_csv_every_row_has_as_many_cells_as_the_header(log):
    # the player, organiser and carried-pot rows were 10 cells under a header of 12 (from_kind, to_kind)
    result = run("ledger", "--log", log, "--csv", "--rake", "1")
    assert result.exit_code == 0, result.output
    header, *rows = list(csv.reader(io.StringIO(result.stdout)))
    assert header[-2:] == ["from_kind", "to_kind"] and len(header) == 12
    assert [len(r) for r in rows] == [len(header)] * len(rows)
    kinds = {r[0]: (r[-2], r[-1]) for r in rows}
    assert kinds["player"] == kinds["organiser"] == kinds["carried pot"] == ("", "")
    assert [(r[1], r[-2], r[-1]) for r in rows if r[0] == "transfer"] == [
        ("A", "player", "player"), ("C", "player", "house"), ("C", "player", "player")]


def test_since_counts_later_hands_and_the_carry_they_received(log):
    # from 20:07 only hand 3 counts: C wins its pot (12) and the 15 chips hand 2 carried
    result = run("ledger", "--log", log, "--since", "2025-01-01T21:07+01:00", "--json")
    out = json.loads(result.stdout)
    assert out["hands"] == 1 and out["hands_not_decided"] == 1
    assert out["players"]["C"]["won"] == 27 and out["carried_in"] == 15
    assert out["since"] == "2025-01-01T21:07:00+01:00"
    assert {(t["from"], t["to"], t["amount"]) for t in out["transfers"]} == {
        ("carried pot", "C", 15), ("A", "C", 4), ("B", "C", 4)}
    human = run("ledger", "--log", log, "--since", "2025-01-01T20:07Z")
    assert "15 carried chip(s) came from hands before --since." in human.stdout
    assert "carried pot" in human.stdout
    date_only = json.loads(run("ledger", "--log", log, "--since", "2030-01-01", "--json").stdout)
    assert date_only["hands"] == 0 and date_only["players"] == {} and date_only["transfers"] == []


def test_the_default_log_is_the_one_history_reads(log):
    result = run("ledger", "--json", env={"DEALER_ASSIST_HISTORY": str(log)})
    assert result.exit_code == 0 and json.loads(result.stdout)["log"] == str(log)


def test_bad_options_and_a_missing_log_are_one_sentence(log, tmp_path):
    bad = run("ledger", "--log", log, "--since", "yesterday")
    assert bad.exit_code == 2 and "must be an ISO date or date-time" in bad.stderr and "'yesterday'" in bad.stderr
    both = run("ledger", "--log", log, "--json", "--csv")
    assert both.exit_code == 2 and "give --json or --csv, not both." in both.stderr
    negative = run("ledger", "--log", log, "--ante", "-1")
    assert negative.exit_code == 2
    missing = run("ledger", "--log", tmp_path / "none.jsonl")
    assert missing.exit_code == 2
    assert missing.stderr.strip() == (f"Error: There is no hand log at {tmp_path / 'none.jsonl'} yet "
                                      "(hands are logged when they finish).")


def test_a_record_that_does_not_add_up_is_left_out_with_one_warning(tmp_path):
    path = tmp_path / "hands.jsonl"
    good = logged_hand("AB", BOARD, {"A": POCKETS["A"], "B": POCKETS["B"]}, chips={"A": 3, "B": 3})
    broken = {**good, "hand": 2, "settlement": {**good["settlement"], "payouts": {"A": 0, "B": 5}}}
    path.write_text(json.dumps(good) + "\n" + json.dumps(broken) + "\n", encoding="utf-8")
    result = run("ledger", "--log", path, "--json")
    assert result.exit_code == 0
    assert json.loads(result.stdout)["players"]["B"]["net"] == 3
    assert result.stderr.strip() == ("warning: hand 2 of session s1: its "
                                     "payouts and carry (5) do not add up to the chips put in (6); left out.")
