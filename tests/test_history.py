"""`dealer-assist history` on logs written by the live mode and on damaged ones: a record
that cannot be shown is skipped with a warning sentence, never a traceback, and the
other records are still listed."""

from __future__ import annotations

import json
from datetime import datetime, timezone

import pytest
from typer.testing import CliRunner

from dealer_assist.cli import app
from dealer_assist.live.history import HandLog, hand_record, read_log
from dealer_assist.live.table_state import NoteInfo, TableState
from dealer_assist.live.table_view import table_view

runner = CliRunner()
WHEN = datetime(2025, 1, 1, 20, 5, tzinfo=timezone.utc)


def run(*args):
    result = runner.invoke(app, [str(a) for a in args], env={"COLUMNS": "200"})
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result


def _record(hand: int = 1) -> dict:
    """A real record: a finished showdown between A and B, as `dealer-assist live` logs it."""
    state = TableState(seats=("A", "B"), position=1, hand_number=hand)
    notes = [NoteInfo("t1", 1, "board", "9111111", "trusted", 0.9, 0.0),
             NoteInfo("t2", 2, "board", "8111111", "trusted", 0.9, 1.0),
             NoteInfo("t3", 3, "board", "7111111", "trusted", 0.9, 2.0),
             NoteInfo("t4", 4, "A", "9444444", "trusted", 0.9, 3.0),
             NoteInfo("t5", 5, "A", "9555555", "trusted", 0.9, 3.5),
             NoteInfo("t6", 6, "B", "3222222", "trusted", 0.9, 4.0),
             NoteInfo("t7", 7, "B", "4333333", "trusted", 0.9, 4.5)]
    return hand_record(table_view(state, notes), session="s1", started=WHEN, finished=WHEN, end="new hand")


def _line(obj: dict) -> str:
    return json.dumps(obj, ensure_ascii=False)


def test_a_real_log_lists_every_hand(tmp_path):
    log = HandLog(tmp_path / "hands.jsonl")
    log.append(_record(1))
    log.append(_record(2))
    records, warnings = read_log(log.path)
    assert [r["hand"] for r in records] == [1, 2] and warnings == []
    result = run("history", "--log", log.path, "--lang", "en")
    assert result.exit_code == 0, result.output
    rows = [line for line in result.stdout.splitlines() if "9111111" in line]
    assert len(rows) == 2 and all(" A " in row and "showdown" in row for row in rows)


@pytest.mark.parametrize("change, problem", [
    ({"notes": "board 1234567"}, "notes must be a list"),
    ({"notes": ["1234567"]}, "notes[0] must be an object"),
    ({"winners": "A"}, "winners must be a list"),
    ({"hand": "one"}, "hand must be a whole number"),
    ({"input": "x"}, "input must be an object"),
])
def test_a_record_with_a_field_of_the_wrong_type_is_skipped_with_a_warning(tmp_path, change, problem):
    path = tmp_path / "h.jsonl"
    path.write_text(_line({**_record(1), **change}) + "\n" + _line(_record(2)) + "\n", encoding="utf-8")
    result = run("history", "--log", path)
    assert result.exit_code == 0, result.output
    assert result.stderr.replace("\n", "") == f"warning: line 1 of {path} is not a valid hand record ({problem}); skipped."
    assert "1 hand(s)" in result.stdout and "A, 1" not in result.stdout
    shown = run("history", "--log", path, "--show", "1", "--json")
    assert json.loads(shown.stdout)["hand"] == 2


def test_a_record_of_another_version_is_skipped_with_a_warning(tmp_path):
    path = tmp_path / "h.jsonl"
    path.write_text(_line({**_record(1), "version": 99}) + "\n" + _line(_record(2)) + "\n", encoding="utf-8")
    records, warnings = read_log(path)
    assert [r["hand"] for r in records] == [2]
    assert warnings == [f"line 1 of {path} is a hand record of version 99; this program reads version 1; skipped."]


def test_a_log_with_a_byte_order_mark_and_crlf_lines_is_read_whole(tmp_path):
    path = tmp_path / "h.jsonl"
    path.write_bytes(b"\xef\xbb\xbf" + (_line(_record(1)) + "\r\n" + _line(_record(2)) + "\r\n").encode("utf-8"))
    records, warnings = read_log(path)
    assert [r["hand"] for r in records] == [1, 2] and warnings == []
    result = run("history", "--log", path)
    assert result.exit_code == 0 and result.stderr == "" and "2 hand(s)" in result.stdout


def test_a_line_python_cannot_decode_is_skipped_like_a_torn_one(tmp_path):
    path = tmp_path / "h.jsonl"
    odd = ['{"schema": "dealer-assist/hand-log", "version": 1, "hand": ' + "1" * 5000 + "}",
           '{"schema": "dealer-assist/hand-log", "version": 1, "x": ' + "[" * 100_000 + "}"]
    path.write_text("\n".join(odd + [_line(_record(3))]) + "\n", encoding="utf-8")
    records, warnings = read_log(path)
    assert [r["hand"] for r in records] == [3]
    assert warnings == [f"line 1 of {path} holds a number of over 4300 digits; skipped.",
                        f"line 2 of {path} is nested too deeply (more than 64 levels of [ and {{); skipped."]


@pytest.mark.slow
@pytest.mark.parametrize("args", [[], ["--json"], ["--show", "1"]], ids=["list", "json", "show"])
def test_a_full_disk_is_one_sentence(tmp_path, args):
    import subprocess
    import sys

    log = HandLog(tmp_path / "hands.jsonl")
    log.append(_record(1))
    with open("/dev/full", "w") as full:
        done = subprocess.run([sys.executable, "-m", "dealer_assist", "history", "--log", str(log.path), *args],
                              stdout=full, stderr=subprocess.PIPE, text=True, timeout=120)
    assert done.returncode == 1
    assert done.stderr == "cannot write output: no space left on device.\n"


def test_logged_fields_are_shown_as_written_not_as_markup_or_terminal_codes(tmp_path):
    """A log is data: a dealer named '[red]x' is shown so, and an escape sequence is not sent to the terminal."""
    import json as _json

    from typer.testing import CliRunner

    from dealer_assist.cli import app
    from dealer_assist.live.history import SCHEMA, VERSION

    log = tmp_path / "hands.jsonl"
    record = {"schema": SCHEMA, "version": VERSION, "session": "s", "hand": 1, "started": "2025-01-01T20:00:00+00:00",
              "finished": "2025-01-01T20:05:00+00:00", "end": "quit\x1b[2J", "position": 4, "dealer": "[red]x",
              "status": "incomplete", "notes": [], "winners": ["[bold]y"]}
    log.write_text(_json.dumps(record) + "\n", encoding="utf-8")
    r = CliRunner().invoke(app, ["history", "--log", str(log)], env={"COLUMNS": "200"})
    assert r.exit_code == 0, r.output
    assert "[red]x" in r.output and "[bold]y" in r.output
    r = CliRunner().invoke(app, ["history", "--log", str(log), "--show", "1"], env={"COLUMNS": "200"})
    assert r.exit_code == 0, r.output
    assert "\x1b[2J" not in r.output and "[bold]y" in r.output
