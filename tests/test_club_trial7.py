"""Seventh new-user trial, the club items, on a real PostgreSQL server (``club_url``: never a mock).

H2: ``club sync --table T2`` of a log whose hands the club holds as table T1's stored them a second
time and the club ledger counted them twice; now it is refused in one sentence naming T1, nothing is
stored, exit 2. Syncing a log twice under its own table stays idempotent.
"""

from __future__ import annotations

import json

from typer.testing import CliRunner

from club_helpers import records, stored, write_log
from dealer_assist.cli import app

runner = CliRunner()


def run(*args, lang: str | None = None):
    env = {"COLUMNS": "200"}
    result = runner.invoke(app, [str(a) for a in args] + (["--lang", lang] if lang else []), env=env)
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result


def test_a_log_synced_under_another_tables_name_is_refused_and_nothing_is_stored(club_url, tmp_path):
    log = tmp_path / "T1c.jsonl"
    write_log(log, records("20261206T210000-5eb8", 3, seed=2))
    first = run("club", "sync", "--log", log, "--club", club_url, "--table", "T1")
    assert first.exit_code == 0 and "3 hand(s) of table T1; 3 newly stored" in first.output
    before = json.loads(run("ledger", "--club", club_url, "--json").output)
    local = json.loads(run("ledger", "--log", log, "--json").output)
    assert before["hands"] == local["hands"] >= 2 and before["players"] == local["players"]

    wrong = run("club", "sync", "--log", log, "--club", club_url, "--table", "T2")
    assert wrong.exit_code == 2
    assert wrong.output.strip() == (f"Error: {log}: these hands were played at table T1, not T2 (the club has 3 of "
                                    f"them from T1 already): give --table T1; nothing was stored.")
    assert stored(club_url, "T2") == [] and len(stored(club_url)) == 3
    after = json.loads(run("ledger", "--club", club_url, "--json").output)
    assert after["hands"] == local["hands"] and after["players"] == local["players"]  # nothing counted twice

    ru = run("club", "sync", "--log", log, "--club", club_url, "--table", "T2", lang="ru")
    assert ru.exit_code == 2
    assert ru.output.strip() == (f"Ошибка: {log}: эти раздачи сыграны за столом T1, а не T2 (в клубе уже есть 3 из "
                                 f"них от стола T1): укажите --table T1; ничего не сохранено.")

    # the right table, again and again: idempotent
    for _ in range(2):
        again = run("club", "sync", "--log", log, "--club", club_url, "--table", "T1")
        assert again.exit_code == 0 and "3 hand(s) of table T1; 0 newly stored" in again.output
        assert "3 there already" in again.output
    assert len(stored(club_url)) == 3


def test_a_log_that_goes_on_after_a_wrong_sync_is_still_refused_whole(club_url, tmp_path):
    """The table played on after its hands went up: the log's new hands are not stored under the wrong
    name either (one hand the club has from T1 is enough to know where the log was played)."""
    recs = records("20261206T210000-77aa", 4, seed=5)
    log = tmp_path / "T1.jsonl"
    write_log(log, recs[:2])
    assert run("club", "sync", "--log", log, "--club", club_url, "--table", "T1").exit_code == 0
    write_log(log, recs[2:])
    wrong = run("club", "sync", "--log", log, "--club", club_url, "--table", "T3")
    assert wrong.exit_code == 2 and "played at table T1, not T3 (the club has 2 of them" in wrong.output
    assert stored(club_url, "T3") == []
    right = run("club", "sync", "--log", log, "--club", club_url, "--table", "T1")
    assert right.exit_code == 0 and "4 hand(s) of table T1; 2 newly stored" in right.output


def test_two_tables_whose_sessions_share_an_id_are_both_stored(club_url, tmp_path):
    """A session id is a start time and a random part: two tables may (rarely) share one. Their hands are
    different hands (other times, chips, serials) and both tables' are stored."""
    for i, table in enumerate(("T1", "T2")):
        log = tmp_path / f"{table}.jsonl"
        write_log(log, records("20261206T200000-abcd", 5, seed=10 + i))
        r = run("club", "sync", "--log", log, "--club", club_url, "--table", table)
        assert r.exit_code == 0 and f"5 hand(s) of table {table}; 5 newly stored" in r.output
    assert len(stored(club_url, "T1")) == len(stored(club_url, "T2")) == 5
