"""Findings of the second break-it pass (the game-night commands, odd file names), as tests."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from datetime import timedelta
from pathlib import Path

import cv2

from dealer_assist.fileio import opencv_path, path_text
from dealer_assist.ledger import build_ledger
from dealer_assist.spectator.state import default_state_path
from ledger_helpers import BOARD, POCKETS, T0, logged_hand

REPO = Path(__file__).resolve().parents[1]


def _process(*args, input=None, timeout=180):
    env = {**os.environ, "PYTHONPATH": str(REPO), "COLUMNS": "200", "DEALER_ASSIST_NO_DISPLAY": "1"}
    return subprocess.run([sys.executable, "-m", "dealer_assist", *args], capture_output=True, timeout=timeout,
                          env=env, cwd=REPO, input=input)


def test_a_frame_whose_name_is_not_utf8_is_read_not_a_crash(tmp_path):
    from live_helpers import plain_profile, write_frames

    folder = tmp_path / "frames"
    write_frames(folder, 3)
    odd = os.fsdecode(os.fsencode(str(folder)) + b"/frame_\xff.png")  # sorts after frame_0002.png
    ok, png = cv2.imencode(".png", cv2.imread(str(folder / "frame_0000.png")))
    png.tofile(odd)
    profile = plain_profile((320, 180), ["alice", "boris"], tmp_path / "table.json")
    typed = "\n".join(["board 1 1230567", "board 2 9990111", "board 3 4445444", "alice 1 7654321",
                       "alice 2 0102030", "boris 1 3336333", "boris 2 8888888"]) + "\n"
    done = _process("live", "--camera", str(folder), "--calibration", str(profile.path), "--position", "4",
                    "--no-ocr", "--no-window", "--json", "--no-log", input=typed.encode())
    assert done.returncode == 0, done.stderr.decode(errors="replace")  # was -11: OpenCV's segfault
    out = json.loads(done.stdout.decode().strip().splitlines()[-1])
    assert out["status"] == "showdown" and out["frames"] == 4


def test_opencv_is_never_given_a_name_that_is_not_utf8():
    name = os.fsdecode(b"/tmp/hand\xff.mp4")
    try:
        opencv_path(name)
    except ValueError as exc:
        assert str(exc) == ("/tmp/hand\ufffd.mp4: the file name is not UTF-8 text, which OpenCV cannot open; "
                            "rename the file.")
    else:
        raise AssertionError("a name OpenCV would crash on was let through")
    assert opencv_path("/tmp/Раздача 1.mp4") == "/tmp/Раздача 1.mp4"
    assert path_text(name) == "/tmp/hand\ufffd.mp4"


def test_a_log_path_without_a_file_name_is_one_sentence(tmp_path):
    assert default_state_path(".") == Path(".") / "hands.state.json"
    for log in ("", ".", "/"):
        done = _process("serve", "--log", log, "--port", "0", timeout=60)
        assert done.returncode == 2
        err = done.stderr.decode()
        assert "Traceback" not in err and "is a folder" in err


def test_a_hand_logged_twice_is_counted_once_and_said():
    first = logged_hand("ABC", BOARD, POCKETS, chips={"A": 10, "B": 30, "C": 30}, hand=1)
    second = logged_hand("ABC", BOARD, POCKETS, folded={"A", "B"}, chips={"A": 5, "B": 5, "C": 5}, hand=2,
                         finished=T0 + timedelta(minutes=5))
    once = build_ledger([first, second])
    twice = build_ledger([first, dict(first), second])
    assert twice.hands == 2
    assert {p.name: p.net for p in twice.players} == {p.name: p.net for p in once.players}
    assert twice.skipped == ("hand 1 of session s1: logged again (the same session, hand number, times, chips and notes); the copy is left out.",)
    # another live session may number its hands from 1 again: not a copy
    other = dict(first, session="s2")
    assert build_ledger([first, other]).hands == 2


def test_a_winner_who_is_not_a_player_of_the_hand_is_refused():
    record = logged_hand("ABC", BOARD, POCKETS, chips={"A": 10, "B": 30, "C": 30}, hand=1)
    record["winners"] = ["ZZ"]
    ledger = build_ledger([record])
    assert ledger.hands == 0 and all(p.name != "ZZ" for p in ledger.players)
    assert ledger.skipped == ("hand 1 of session s1: 'ZZ' is named a winner but is not a player of the hand; left out.",)


def test_square_mm_must_be_a_real_size():
    done = _process("calibrate", "camera", "--images", "none*.jpg", "--square-mm", "inf", "-o", "x.json", timeout=60)
    assert done.returncode == 2 and b"--square-mm" in done.stderr and b"Traceback" not in done.stderr


def test_an_image_name_that_is_not_utf8_is_recorded_as_text_our_json_reads_back():
    # calibrate table records its image's name in the profile (it crashed writing the JSON before)
    from dealer_assist.fileio import dumps_json, parse_json

    record = {"image": path_text(os.fsdecode(b"/tmp/d\xff.jpg"))}
    assert parse_json(dumps_json(record).encode("utf-8"), "profile") == {"image": "/tmp/d\ufffd.jpg"}


def test_a_null_line_is_named_not_taken_for_no_hands():
    for command in ("odds", "eval"):
        done = _process(command, "--hands", "-", input=b"null\n", timeout=60)
        assert done.returncode == 1
        assert "line 1: a hand must be a JSON object, got null." in done.stderr.decode(), command


def test_thousands_of_torn_lines_are_a_screenful_of_warnings(tmp_path):
    log = tmp_path / "hands.jsonl"
    good = json.dumps(logged_hand("ABC", BOARD, POCKETS, chips={"A": 10, "B": 30, "C": 30}, hand=1))
    log.write_text(good + "\n" + "{torn\n" * 3000)
    done = _process("history", "--log", str(log), timeout=60)
    warnings = [line for line in done.stderr.decode().splitlines() if line.startswith("warning:")]
    assert len(warnings) == 11 and warnings[-1].startswith("warning: and 2990 more line(s)")


def test_a_chip_count_of_thousands_of_digits_is_refused_briefly():
    record = logged_hand("ABC", BOARD, POCKETS, chips={"A": 10, "B": 30, "C": 30}, hand=1)
    record["chips"]["A"] = 10 ** 4000
    (skipped,) = build_ledger([record]).skipped
    assert "chips over 1,000,000,000,000 (4001 digits)" in skipped and len(skipped) < 200


def test_camera_size_for_a_recording_is_said_to_be_unused(tmp_path):
    from live_helpers import plain_profile, write_frames

    frames = write_frames(tmp_path / "frames", 2)
    profile = plain_profile((320, 180), ["alice", "boris"], tmp_path / "table.json")
    done = _process("live", "--camera", frames, "--calibration", str(profile.path), "--position", "4", "--no-ocr",
                    "--no-window", "--json", "--no-log", "--camera-size", "640x480", input=b"")
    assert done.returncode == 1  # the hand is not decided: nobody typed the serials
    assert "--camera-size and --fourcc ask a numbered camera for a mode" in done.stderr.decode()
