"""The hand log: one fsynced JSON line per finished hand; a killed process loses at most the hand in play."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from datetime import datetime, timezone
from pathlib import Path

import pytest

from dealer_assist.live.history import SCHEMA, HandLog, hand_record, read_log
from dealer_assist.live.table_state import NoteInfo, TableState
from dealer_assist.live.table_view import table_view
from dealer_assist.rules import evaluate, parse_hand, result_to_json
from live_helpers import plain_profile, write_frames

REPO = Path(__file__).resolve().parents[1]
T0 = datetime(2025, 1, 1, 20, 0, tzinfo=timezone.utc)

HANDS = [
    {"board": ["1119111", "1118111", "1117111"], "P1": ["1111111", "2222222"], "P2": ["9999999", "9990999"]},
    {"board": ["5550555", "1234567", "7654321"], "P1": ["3333333", "3330333"], "P2": ["4444444", "6666666"]},
]


def expected(hand: dict, position: int, dealer: str) -> dict:
    return result_to_json(evaluate(parse_hand({
        "position": position, "board": hand["board"], "dealer": dealer,
        "players": [{"name": "P1", "pocket": hand["P1"]}, {"name": "P2", "pocket": hand["P2"]}]})))


def test_record_append_and_read_back(tmp_path):
    notes = [NoteInfo(f"t{i}", i, z, s, "trusted", 0.91, float(i)) for i, (z, s) in enumerate(
        [("board", "1119111"), ("board", "1118111"), ("board", "1117111"), ("P1", "1111111"), ("P1", "2222222"),
         ("P2", "9999999"), ("P2", "9990999")])]
    state = TableState(("P1", "P2"), 4, position_random=True).with_chips("P1", 10).with_chips("P2", 10)
    view = table_view(state, notes)
    record = hand_record(view, session="s1", started=T0, finished=T0, end="new hand")
    log = HandLog(tmp_path / "sub" / "hands.jsonl")
    log.append(record)
    log.append(record)
    records, warnings = read_log(log.path)
    assert warnings == [] and len(records) == 2
    r = records[0]
    assert r["schema"] == SCHEMA and r["hand"] == 1 and r["position"] == 4 and r["position_random"] is True
    assert r["winners"] == expected(HANDS[0], 4, "P1")["winners"] == ["P2"]
    assert r["settlement"]["payouts"] == {"P1": 0, "P2": 20}
    assert {(n["zone"], n["serial"], n["source"], n["confidence"]) for n in r["notes"]} >= {
        ("board", "1119111", "ocr", 0.91)}
    assert r["best_hands"]["P2"]["class"] == "set"
    assert parse_hand(r["input"]).board == ("1119111", "1118111", "1117111")


def test_a_torn_last_line_is_skipped_and_the_next_record_starts_on_its_own_line(tmp_path):
    path = tmp_path / "hands.jsonl"
    log = HandLog(path)
    view = table_view(TableState(("P1", "P2"), 4), [])
    log.append(hand_record(view, session="s", started=T0, finished=T0, end="new hand"))
    with open(path, "ab") as fh:
        fh.write(b'{"schema": "dealer-assist/hand-log", "hand": 2, "no')  # a crash in the middle of a write
    log.append(hand_record(view, session="s", started=T0, finished=T0, end="new hand"))
    records, warnings = read_log(path)
    assert len(records) == 2 and len(warnings) == 1 and "line 2" in warnings[0]


def _wait_for(predicate, timeout: float = 60.0) -> bool:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if predicate():
            return True
        time.sleep(0.05)
    return False


def _start_live(tmp_path):
    """`dealer-assist live --no-ocr` in a real process on 3 plain frames, seats P1 and P2, stdin open;
    returns the process, the list its output lines are collected into (on a thread), and the log path."""
    frames = write_frames(tmp_path / "frames", 3)
    profile = plain_profile((320, 180), ["P1", "P2"], tmp_path / "table.json")
    log = tmp_path / "hands.jsonl"
    env = {**os.environ, "DEALER_ASSIST_NO_DISPLAY": "1", "PYTHONUNBUFFERED": "1"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "dealer_assist", "live", "--camera", frames, "--calibration", str(profile.path),
         "--position", "4", "--no-ocr", "--no-window", "--log", str(log)],
        cwd=REPO, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    out: list[str] = []
    threading.Thread(target=lambda: out.extend(iter(proc.stdout.readline, "")), daemon=True).start()
    return proc, out, log


def test_log_survives_a_killed_process(tmp_path):
    proc, out, log = _start_live(tmp_path)
    try:
        def send(line: str) -> None:
            proc.stdin.write(line + "\n")
            proc.stdin.flush()

        def lines() -> int:
            return len(log.read_text(encoding="utf-8").splitlines()) if log.exists() else 0

        for n, hand in enumerate(HANDS, 1):
            for i, s in enumerate(hand["board"], 1):
                send(f"board {i} {s}")
            for seat in ("P1", "P2"):
                for i, s in enumerate(hand[seat], 1):
                    send(f"{seat} {i} {s}")
            send("new")
            assert _wait_for(lambda: lines() == n), f"hand {n} was not logged"
        # the third hand is in play when the process dies
        send("board 1 7777777")
        send("P1 1 8888888")
        assert _wait_for(lambda: any("serial 8888888 typed" in line for line in out)), out
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=10)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == -signal.SIGKILL
    raw = log.read_text(encoding="utf-8").splitlines()
    assert len(raw) == 2  # every finished hand, and not the one in play
    records = [json.loads(line) for line in raw]  # each line is whole JSON
    assert [r["hand"] for r in records] == [1, 2]
    assert [r["dealer"] for r in records] == ["P1", "P2"]  # the button moved left
    for r, hand in zip(records, HANDS):
        want = expected(hand, 4, r["dealer"])
        assert r["status"] == "showdown"
        assert r["winners"] == want["winners"]
        assert {k: v["ranks"] for k, v in r["best_hands"].items()} == {k: v["ranks"] for k, v in want["players"].items()}
        assert {n["source"] for n in r["notes"]} == {"manual"}
    assert "7777777" not in log.read_text(encoding="utf-8")


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGHUP])
def test_a_decided_hand_is_logged_when_the_process_is_told_to_stop(tmp_path, sig):
    """SIGTERM (a service stop) and SIGHUP (the terminal closed) end the run as Ctrl-C does."""
    proc, out, log = _start_live(tmp_path)
    hand = HANDS[0]
    try:
        lines = [f"board {i} {s}" for i, s in enumerate(hand["board"], 1)]
        lines += [f"{seat} {i} {s}" for seat in ("P1", "P2") for i, s in enumerate(hand[seat], 1)]
        proc.stdin.write("\n".join(lines) + "\n")
        proc.stdin.flush()  # stdin stays open: the run would go on
        last = hand["P2"][-1]
        assert _wait_for(lambda: any(f"serial {last} typed" in line for line in out)), out
        proc.send_signal(sig)
        proc.wait(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 130, out
    (record,) = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]
    assert record["status"] == "showdown" and record["winners"] == expected(hand, 4, "P1")["winners"]
