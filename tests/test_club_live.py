"""`dealer-assist live --club`: the hand goes to the local log first, then to the club (a real
PostgreSQL server); with the club unreachable the table plays on and the backlog waits in the log."""

from __future__ import annotations

import json

import psycopg
import pytest
from typer.testing import CliRunner

from club_helpers import stored
from dealer_assist.cli import app
from dealer_assist.live.history import read_log
from live_helpers import plain_profile, write_frames

HAND = {"board": ["1230567", "9990111", "4445444"], "alice": ["7654321", "0102030"], "boris": ["3336333", "8888888"]}
SECOND = {"board": ["1111112", "2222223", "3333334"], "alice": ["4444445", "5555556"], "boris": ["6666667", "7777778"]}


@pytest.fixture
def table(tmp_path, monkeypatch):
    monkeypatch.setenv("DEALER_ASSIST_NO_DISPLAY", "1")
    frames = write_frames(tmp_path / "frames", 2)
    profile = plain_profile((320, 180), ["alice", "boris"], tmp_path / "table.json")
    return frames, str(profile.path), tmp_path


def typed(hand) -> list[str]:
    lines = [f"board {i} {s}" for i, s in enumerate(hand["board"], 1)]
    return lines + [f"{seat} {i} {s}" for seat in ("alice", "boris") for i, s in enumerate(hand[seat], 1)]


def live(frames, profile, log, *extra, input=""):
    return CliRunner().invoke(app, ["live", "--camera", frames, "--calibration", profile, "--position", "4",
                                    "--no-ocr", "--no-window", "--json", "--log", str(log), *extra],
                              input=input, env={"COLUMNS": "200"})


@pytest.mark.slow
def test_live_club_stores_each_finished_hand_after_logging_it(table, club_url):
    frames, profile, tmp = table
    log = tmp / "hands.jsonl"
    lines = typed(HAND) + ["chips alice 30", "new"] + typed(SECOND)
    r = live(frames, profile, log, "--club", club_url, "--table", "T1", input="\n".join(lines) + "\n")
    assert r.exit_code == 0, r.output
    logged, _ = read_log(log)
    assert [rec["hand"] for rec in logged] == [1, 2]
    rows = stored(club_url)
    assert rows == [("T1", logged[0]["session"], 1), ("T1", logged[0]["session"], 2)]
    with psycopg.connect(club_url) as conn:
        records = [r[0] for r in conn.execute("SELECT record FROM hands ORDER BY id")]
        state = conn.execute("SELECT state FROM table_states WHERE table_name = 'T1'").fetchone()
    assert records == logged  # the very records of the log
    assert state == (None,)  # the run ended: no hand in play at T1


@pytest.mark.slow
def test_live_with_the_club_down_plays_on_and_the_backlog_goes_up_later(table, club_url):
    frames, profile, tmp = table
    log = tmp / "hands.jsonl"
    down = "postgresql://club@127.0.0.1:1/club"
    r = live(frames, profile, log, "--club", down, "--table", "T2", input="\n".join(typed(HAND)) + "\n")
    assert r.exit_code == 0, r.output
    out = json.loads(r.stdout.strip().splitlines()[-1])
    assert out["status"] == "showdown"  # the table played on
    assert "1 hand(s) are not in the club yet (Connection refused)" in r.output
    logged, _ = read_log(log)
    assert len(logged) == 1
    sync = CliRunner().invoke(app, ["club", "sync", "--log", str(log), "--club", club_url, "--table", "T2"])
    assert sync.exit_code == 0 and "1 newly stored" in sync.output
    assert stored(club_url) == [("T2", logged[0]["session"], 1)]


def test_live_club_options_are_checked_before_a_frame_is_read(table):
    frames, profile, tmp = table
    r = live(frames, profile, tmp / "h.jsonl", "--club", "postgresql://x@127.0.0.1:1/c")
    assert r.exit_code == 2 and "--club needs --table T" in r.output
    r = CliRunner().invoke(app, ["live", "--camera", frames, "--calibration", profile, "--position", "4",
                                 "--no-log", "--club", "postgresql://x@127.0.0.1:1/c", "--table", "T1"])
    assert r.exit_code == 2 and "--club sends the hands from the log" in r.output
    r = live(frames, profile, tmp / "h.jsonl", "--club", "http://x", "--table", "T1")
    assert r.exit_code == 2 and "PostgreSQL URL" in r.output
    r = live(frames, profile, tmp / "h.jsonl", "--table", "T1")
    assert r.exit_code == 2 and "give --club URL too" in r.output
