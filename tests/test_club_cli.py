"""`dealer-assist club init/sync`, `ledger --club` and `history --club` through CliRunner, on a real
PostgreSQL server: two tables' logs synced into one club give the ledger of both, chip for chip."""

from __future__ import annotations

import json
from fractions import Fraction

from typer.testing import CliRunner

from club_helpers import new_database, records, stored, write_log
from dealer_assist.cli import app

runner = CliRunner()


def run(*args):
    result = runner.invoke(app, [str(a) for a in args], env={"COLUMNS": "200"})
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result


def _net(value) -> Fraction:
    return Fraction(value) if isinstance(value, str) else Fraction(value)


def test_club_init_says_what_it_applied_and_is_safe_to_run_again(pg_cluster):
    url = new_database(pg_cluster, init=False)
    first = run("club", "init", url)
    assert first.exit_code == 0 and "ready (schema version 1; applied 0001_hands)" in first.output
    again = run("club", "init", url)
    assert again.exit_code == 0 and "up to date already" in again.output


def test_club_init_of_an_unreachable_server_is_one_sentence():
    result = run("club", "init", "postgresql://dealer:secret@127.0.0.1:1/club")
    assert result.exit_code == 2
    assert result.output.strip() == "Error: The club database at 127.0.0.1:1/club cannot be reached (Connection refused)."
    assert "secret" not in result.output


def test_two_tables_synced_give_one_ledger_equal_to_the_sum_of_theirs(club_url, tmp_path):
    logs = {}
    for i, table in enumerate(("T1", "T2")):
        logs[table] = tmp_path / f"{table}.jsonl"
        # the same player names at both tables, and the same session id: still two tables' hands
        write_log(logs[table], records("20261203T200000-abcd", 12, seed=i * 7))
        result = run("club", "sync", "--log", logs[table], "--club", club_url, "--table", table)
        assert result.exit_code == 0, result.output
        assert "12 hand(s) of table " + table + "; 12 newly stored" in result.output
    again = run("club", "sync", "--log", logs["T1"], "--club", club_url, "--table", "T1")
    assert "0 newly stored" in again.output and "12 there already" in again.output
    assert len(stored(club_url)) == 24

    local = {}
    for table, log in logs.items():
        out = json.loads(run("ledger", "--log", log, "--json").output)
        for name, p in out["players"].items():
            # a numbered seat (P3) is a place at its table: T1/P3 and T2/P3 are two people; A is A at both
            key = f"{table}/{name}" if name.startswith("P") else name
            local[key] = local.get(key, 0) + _net(p["net"])
    club = json.loads(run("ledger", "--club", club_url, "--json").output)
    assert club["hands"] == sum(json.loads(run("ledger", "--log", log, "--json").output)["hands"] for log in logs.values())
    assert {n: _net(p["net"]) for n, p in club["players"].items()} == local
    assert any(local.values())  # chips changed hands: the comparison means something
    assert "A" in club["players"]  # one player at both tables (numbered seats: test_club_trial7.py)
    one = json.loads(run("ledger", "--club", club_url, "--table", "T2", "--json").output)
    t2 = json.loads(run("ledger", "--log", logs["T2"], "--json").output)
    assert one["players"] == t2["players"]


def test_history_finds_a_hand_by_serial_table_and_time(club_url, tmp_path):
    log = tmp_path / "T1.jsonl"
    recs = records("20261203T200000-eeee", 6, seed=3)
    write_log(log, recs)
    assert run("club", "sync", "--log", log, "--club", club_url, "--table", "T1").exit_code == 0
    serial = recs[4]["notes"][-1]["serial"]
    found = run("history", "--club", club_url, "--serial", serial, "--json")
    lines = [json.loads(line) for line in found.output.splitlines()]
    assert lines and all(r["table"] == "T1" and serial in [n["serial"] for n in r["notes"]] for r in lines)
    assert recs[4]["hand"] in [r["hand"] for r in lines]
    listed = run("history", "--club", club_url, "--table", "T1")
    assert listed.exit_code == 0 and "Table" in listed.output and listed.output.count("T1") >= 6
    none = run("history", "--club", club_url, "--since", "2999-01-01", "--json")
    assert none.exit_code == 0 and none.output == ""
    shown = run("history", "--club", club_url, "--table", "T1", "--show", "2")
    assert shown.exit_code == 0 and f"{recs[1]['hand']}" in shown.output


def test_club_options_refused_in_one_sentence(tmp_path):
    assert "give --club URL too" in run("history", "--serial", "1234567").output
    assert "two sources" in run("ledger", "--club", "postgresql://x@127.0.0.1:1/c", "--log", tmp_path / "x").output
    bad = run("club", "sync", "--log", tmp_path / "x", "--club", "postgresql://x@127.0.0.1:1/c", "--table", "a b")
    assert bad.exit_code == 2 and "table name" in bad.output
    assert "PostgreSQL URL" in run("ledger", "--club", "sqlite:///x.db").output


def test_serve_club_refuses_an_unreachable_club_and_files_beside_it(tmp_path):
    r = run("serve", "--club", "postgresql://x@127.0.0.1:1/c", "--port", "0")
    assert r.exit_code == 2 and r.output.strip() == ("Error: The club database at 127.0.0.1:1/c cannot be reached "
                                                     "(Connection refused).")
    r = run("serve", "--club", "postgresql://x@127.0.0.1:1/c", "--log", tmp_path / "h.jsonl")
    assert r.exit_code == 2 and "--log and --state follow one table's files" in r.output


def test_serve_club_of_a_database_not_initialised_says_club_init(pg_cluster):
    r = run("serve", "--club", new_database(pg_cluster, init=False), "--port", "0")
    assert r.exit_code == 2 and "club init" in r.output
