"""Issue 22, items 3-5: no hand lost on a key, a prompt that says what to type, one session across restarts."""

from __future__ import annotations

import io
import json
from datetime import datetime, timedelta, timezone

from rich.console import Console
from typer.testing import CliRunner

from dealer_assist.app.terminal import Croupier
from dealer_assist.cli import app
from dealer_assist.live.dashboard import LiveStatus, render_dashboard
from dealer_assist.live.night import SESSION_BREAK, continue_session
from dealer_assist.live.session import LiveOptions, LiveSession
from dealer_assist.live.table_state import TableState
from dealer_assist.live.worker import InlineWorker

from live_helpers import plain_profile, write_frames

runner = CliRunner()


def session_for(seats=("P1", "P2"), logged=None) -> LiveSession:
    profile = plain_profile((320, 180), list(seats))
    return LiveSession(profile, TableState(tuple(seats), 4), InlineWorker(read=lambda job: ()), LiveOptions(ocr=False),
                       on_finished=logged.append if logged is not None else None)


def screen(session, croupier, lang="en", width=80, height=24) -> str:
    console = Console(file=io.StringIO(), width=width, height=height, color_system=None)
    status = LiveStatus("ok", 25.0, "idle", message=croupier.feedback.text, prompt=croupier.keys.prompt)
    console.print(render_dashboard(session.view(), status, lang, width, height))
    return console.file.getvalue()


def test_q_with_a_hand_open_asks_first_and_the_hand_is_logged_as_abandoned():
    logged: list[dict] = []
    session = session_for(logged=logged)
    croupier = Croupier(session, "en")
    croupier.line("board 1 1234567")
    croupier.key("q")
    assert not session.quit_requested
    assert croupier.feedback.text == ("Hand 1 is not decided: press q again to quit and log it as abandoned; any "
                                      "other key goes on with it.")
    croupier.key("x")  # any other key: the question is dropped
    croupier.key("q")
    assert not session.quit_requested
    croupier.key("q")
    assert session.quit_requested
    session.close("quit")
    (record,) = logged
    assert record["status"] == "incomplete" and record["end"] == "quit"
    assert [n["serial"] for n in record["notes"]] == ["1234567"]
    assert session.closing == "Hand 1 was not decided: logged as abandoned (quit)."
    session.close("stopped")  # the run's own close afterwards logs nothing more
    assert len(logged) == 1


def test_q_on_an_empty_hand_and_a_scripted_quit_go_at_once():
    session = session_for()
    Croupier(session).key("q")
    assert session.quit_requested and session.close("quit") is None and session.closing == ""
    session = session_for()
    croupier = Croupier(session)
    croupier.line("board 1 1234567")
    croupier.line("quit")  # a command line from a script: no question
    assert session.quit_requested


def test_the_serial_prompt_shows_its_syntax_and_the_notes_without_a_serial():
    session = session_for()
    croupier = Croupier(session, "en")
    croupier.line("P1 1 0235561")
    croupier.line("board 1 1234567")
    before = screen(session, croupier)
    assert "e types a serial" in " ".join(before.split())  # the waiting line says which key
    croupier.key("e")
    text = " ".join(screen(session, croupier).split())
    assert "> serial █" in text
    assert ("the note, then its 7 digits: P1 2 0235561, board 2 1234567 · no serial yet: board 2, board 3, P1 2 · "
            "Enter sends, Esc cancels") in text
    ru = " ".join(screen(session, croupier, "ru").split())
    assert "купюра, затем её 7 цифр: P1 2 0235561, борд 2 1234567" in ru and "Esc — отмена" in ru  # the screen's word


def _record(session="s1", hand=4, dealer="A", finished=None):
    finished = finished or datetime(2025, 1, 1, 21, 0, tzinfo=timezone.utc)
    return {"session": session, "hand": hand, "dealer": dealer, "finished": finished.isoformat()}


def test_the_night_goes_on_from_the_log_unless_asked_or_the_next_day():
    now = datetime(2025, 1, 1, 21, 30, tzinfo=timezone.utc)
    seats = ("A", "B", "C")
    go_on = continue_session([_record("s0", 9, "B"), _record(dealer="C")], seats, now)
    assert (go_on.session, go_on.hand_number, go_on.dealer_index) == ("s1", 5, 0)  # C dealt: A is next
    assert [r["session"] for r in go_on.earlier] == ["s1"]
    assert go_on.sentence == ("Hand 5: dealer A. Session s1 goes on (hand 4 finished 30 min ago); --new-session "
                              "starts a new one.")
    assert continue_session([_record()], seats, now, new_session=True) is None
    assert continue_session([_record()], seats, now + SESSION_BREAK) is None
    assert continue_session([], seats, now) is None
    stranger = continue_session([_record(dealer="Z")], seats, now)  # another table's dealer: the first seat deals
    assert stranger.hand_number == 5 and stranger.dealer_index is None


def test_a_restarted_live_numbers_its_hands_on_and_new_session_starts_afresh(tmp_path):
    frames = write_frames(tmp_path / "frames", 3)
    profile = plain_profile((320, 180), ["P1", "P2", "P3"], tmp_path / "p.json")
    log = tmp_path / "hands.jsonl"
    base = ["live", "--camera", frames, "--calibration", str(profile.path), "--position", "4", "--no-ocr",
            "--no-window", "--log", str(log), "--json"]
    for extra in ([], [], ["--new-session"]):
        r = runner.invoke(app, base + extra, input="board 1 1234567\n")
        assert r.exit_code == 1, r.output  # undecided: --json exits 1
    records = [json.loads(line) for line in log.read_text().splitlines()]
    assert [(r["hand"], r["dealer"]) for r in records] == [(1, "P1"), (2, "P2"), (1, "P1")]
    assert records[0]["session"] == records[1]["session"] != records[2]["session"]
    r = runner.invoke(app, ["history", "--log", str(log), "--lang", "en"])
    assert r.exit_code == 0, r.output


def test_the_log_s_last_hand_long_ago_starts_a_new_session():
    old = datetime.now(timezone.utc) - SESSION_BREAK - timedelta(minutes=1)
    assert continue_session([_record(finished=old)], ("A", "B"), datetime.now(timezone.utc)) is None


def test_a_second_table_on_the_same_log_never_joins_the_session_another_live_plays(tmp_path):
    """The hostile pass's open critical: two tables with the same seat names on one log shared a session
    (and its rolled-over pots). A running ``live`` holds its session (live.night.SessionLock): a table
    started meanwhile starts its own; once the holder has ended, a restart goes on with the log's last."""
    import subprocess
    import sys

    from dealer_assist.live.night import SessionLock

    frames = write_frames(tmp_path / "frames", 3)
    profile = plain_profile((320, 180), ["P1", "P2", "P3"], tmp_path / "p.json")
    log = tmp_path / "hands.jsonl"
    base = ["live", "--camera", frames, "--calibration", str(profile.path), "--position", "4", "--no-ocr",
            "--no-window", "--log", str(log), "--json"]
    assert runner.invoke(app, base, input="board 1 1234567\n").exit_code == 1
    first = json.loads(log.read_text().splitlines()[-1])["session"]
    lock = SessionLock(log, first)
    assert not lock.path.exists()  # the ended run let its session go
    holder = subprocess.Popen(  # the first table, still playing: a process that holds the session's lock
        [sys.executable, "-c", "import sys; from dealer_assist.live.night import SessionLock; "
         f"l = SessionLock({str(log)!r}, {first!r}); print(l.hold(), flush=True); sys.stdin.read()"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "True"
        assert lock.held_elsewhere()
        assert runner.invoke(app, base, input="board 1 1234567\n").exit_code == 1
    finally:
        holder.communicate("", timeout=30)
    assert not lock.held_elsewhere()
    assert runner.invoke(app, base, input="board 1 1234567\n").exit_code == 1  # a restart: goes on
    records = [json.loads(line) for line in log.read_text().splitlines()]
    sessions = [r["session"] for r in records]
    assert sessions[0] == first and sessions[1] != first and sessions[2] == sessions[1], sessions
    assert [r["hand"] for r in records] == [1, 1, 2]


def test_a_session_lock_where_no_lock_file_can_be_made_decides_from_the_log_alone(tmp_path):
    from dealer_assist.live.night import SessionLock

    lock = SessionLock(tmp_path / "no-such-folder" / "hands.jsonl", "20250101T000000-abcd")
    assert lock.held_elsewhere() is False and lock.hold() is False
    odd = SessionLock(tmp_path / "hands.jsonl", "../../etc/passwd")
    assert odd.path.parent == tmp_path and "/" not in odd.path.name.replace(str(tmp_path), "")
    assert odd.hold() and odd.path.exists()
    odd.release()
    assert not odd.path.exists()


def test_a_restarted_live_keeps_the_game_of_its_command_line(tmp_path):
    """Third new-user trial, H1: ``live --game indian`` started again on the same log went on with the
    night but played Hold'em (a board, two notes a seat), so no Indian hand was ever decided again."""
    frames = write_frames(tmp_path / "frames", 3)
    profile = plain_profile((320, 180), ["P1", "P2", "P3"], tmp_path / "p.json")
    log = tmp_path / "hands.jsonl"
    base = ["live", "--camera", frames, "--calibration", str(profile.path), "--position", "4", "--no-ocr",
            "--no-window", "--log", str(log), "--json", "--game", "indian"]
    typed = "serial P1 1 7654321\nserial P2 1 9990999\nserial P3 1 1234000\n"
    for _ in range(2):
        r = runner.invoke(app, base, input=typed)
        assert r.exit_code == 0, r.output  # decided: one note a seat
    records = [json.loads(line) for line in log.read_text().splitlines()]
    assert [(r["hand"], r.get("game"), r["status"], r["winners"]) for r in records] == [
        (1, "indian", "showdown", ["P2"]), (2, "indian", "showdown", ["P2"])]
    assert records[0]["session"] == records[1]["session"]
