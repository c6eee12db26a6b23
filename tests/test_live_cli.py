"""`dealer-assist live` and `dealer-assist history` through typer's CliRunner: bad inputs and typed hands."""

from __future__ import annotations

import json
import re

import pytest
from typer.testing import CliRunner

from dealer_assist.cli import app
from dealer_assist.rules import evaluate, parse_hand, result_to_json
from live_helpers import plain_profile, write_frames

HAND = {"board": ["1230567", "9990111", "4445444"], "alice": ["7654321", "0102030"], "boris": ["3336333", "8888888"]}


@pytest.fixture
def table(tmp_path, monkeypatch):
    monkeypatch.setenv("DEALER_ASSIST_NO_DISPLAY", "1")
    frames = write_frames(tmp_path / "frames", 2)
    profile = plain_profile((320, 180), ["alice", "boris"], tmp_path / "table.json")
    return frames, str(profile.path), tmp_path


def run(args, input=None):
    return CliRunner().invoke(app, args, input=input, env={"COLUMNS": "200"})


def one_sentence(result) -> str:
    text = result.output.strip()
    assert "Traceback" not in text
    assert len(text.splitlines()) == 1, text
    return text


def test_missing_camera_file(table):
    frames, profile, tmp = table
    r = run(["live", "--camera", str(tmp / "nope.mp4"), "--calibration", profile, "--position", "4", "--no-window"])
    assert r.exit_code == 2
    assert one_sentence(r) == f"Error: There is no camera, video or image at '{tmp / 'nope.mp4'}'."


def test_glob_without_images(table):
    frames, profile, tmp = table
    r = run(["live", "--camera", str(tmp / "*.jpg"), "--calibration", profile, "--position", "4"])
    assert r.exit_code == 2 and one_sentence(r).startswith("Error: No image matches")


def test_corrupt_calibration(table):
    frames, profile, tmp = table
    bad = tmp / "bad.json"
    bad.write_text('{"schema": "dealer-assist/calibration", "version": 1, "table": ', encoding="utf-8")
    r = run(["live", "--camera", frames, "--calibration", str(bad), "--position", "4", "--no-window"])
    assert r.exit_code == 2
    assert one_sentence(r).startswith(f"Error: {bad} is not valid JSON")
    nosection = tmp / "empty.json"
    nosection.write_text('{"schema": "dealer-assist/calibration", "version": 1}', encoding="utf-8")
    r = run(["live", "--camera", frames, "--calibration", str(nosection), "--position", "4"])
    assert r.exit_code == 2 and "has no table section" in one_sentence(r)


def test_frames_of_another_shape_than_the_calibration(table, tmp_path):
    frames, profile, tmp = table
    square = write_frames(tmp_path / "square", 1, size=(200, 200))
    r = run(["live", "--camera", square, "--calibration", profile, "--position", "4", "--no-window", "--json",
             "--no-log"])
    assert r.exit_code == 2 and "another shape" in one_sentence(r)


@pytest.mark.parametrize("args,hint", [(["--position", "9"], "--position"), (["--position", "4", "--trust", "3/2"],
                                                                             "--trust"),
                                       (["--position", "4", "--dealer", "zoe"], "--dealer")])
def test_bad_options(table, args, hint):
    frames, profile, tmp = table
    r = run(["live", "--camera", frames, "--calibration", profile, *args])
    assert r.exit_code == 2 and hint in r.output


def test_typed_hand_gives_the_showdown_as_json_and_is_logged(table):
    frames, profile, tmp = table
    log = tmp / "hands.jsonl"
    lines = [f"board {i} {s}" for i, s in enumerate(HAND["board"], 1)]
    lines += [f"{seat} {i} {s}" for seat in ("alice", "boris") for i, s in enumerate(HAND[seat], 1)]
    lines += ["chips alice 30", "chips boris 20", "fold 3", "undo"]  # a bad seat number, then an undo of the chips
    r = run(["live", "--camera", frames, "--calibration", profile, "--position", "4", "--no-ocr", "--no-window",
             "--json", "--log", str(log), "--zero-joker", "per-zero"], input="\n".join(lines) + "\n")
    assert r.exit_code == 0, r.output
    out = json.loads(r.output.strip().splitlines()[-1])
    want = result_to_json(evaluate(parse_hand({
        "position": 4, "zero_joker": "per-zero", "board": HAND["board"], "dealer": "alice",
        "players": [{"name": "alice", "pocket": HAND["alice"], "contributed": 30},
                    {"name": "boris", "pocket": HAND["boris"]}]})))
    assert out["status"] == "showdown" and out["winners"] == want["winners"]
    for name in ("alice", "boris"):
        assert out["players"][name]["class"] == want["players"][name]["class"]
        assert out["players"][name]["ranks"] == want["players"][name]["ranks"]
        assert out["players"][name]["natural"] == want["players"][name]["natural"]
        assert out["serials"]["players"][name] == HAND[name]
    assert out["serials"]["board"] == HAND["board"]
    assert out["settlement"]["payouts"] == want["settlement"]["payouts"]  # boris's 20 chips were undone
    # the decided hand was logged at the end, and history lists and shows it again
    r = run(["history", "--log", str(log)])
    assert r.exit_code == 0 and "1 hand(s)" in r.output and ", ".join(want["winners"]) in r.output
    r = run(["history", "--log", str(log), "--show", "1"])
    assert r.exit_code == 0 and "Winner" in r.output and "1230567" in r.output
    r = run(["history", "--log", str(log), "--json"])
    assert json.loads(r.output)["winners"] == want["winners"]
    r = run(["history", "--log", str(log), "--show", "2"])
    assert r.exit_code == 2 and "holds 1 hand(s); there is no hand 2" in r.output


def test_an_undecided_hand_exits_1_and_is_logged_as_abandoned(table):
    frames, profile, tmp = table
    log = tmp / "hands.jsonl"
    r = run(["live", "--camera", frames, "--calibration", profile, "--position", "random", "--no-ocr",
             "--no-window", "--json", "--log", str(log)], input="board 1 1234567\n")
    assert r.exit_code == 1
    out = json.loads(r.output.strip().splitlines()[-1])
    assert out["status"] == "incomplete" and out["winners"] == [] and out["serials"]["board"] == ["1234567"]
    assert 1 <= out["hand"]["position"] <= 7
    # the open hand is not lost at the end of the recording: logged as abandoned (not decided)
    (record,) = [json.loads(line) for line in log.read_text().splitlines()]
    assert record["status"] == "incomplete" and record["end"] == "end of video" and record["winners"] == []
    assert [n["serial"] for n in record["notes"]] == ["1234567"]
    # without --json the end is said in one line, in the output's language
    r = run(["live", "--camera", frames, "--calibration", profile, "--position", "3", "--no-ocr",
             "--no-window", "--log", str(log), "--lang", "ru"], input="board 1 1234567\n")
    assert r.exit_code == 0
    assert "Раздача 2 не решена: записана в журнал как брошенная (конец записи)." in r.output
    assert len(log.read_text().splitlines()) == 2


def test_history_without_a_log(tmp_path):
    r = run(["history", "--log", str(tmp_path / "none.jsonl")])
    assert r.exit_code == 2
    assert one_sentence(r) == f"Error: There is no hand log at {tmp_path / 'none.jsonl'} yet (hands are logged when they finish)."


def test_a_camera_too_far_to_read_is_said_on_stderr_and_in_the_json(table):
    frames, profile, tmp = table  # 320x180 frames of a 1 m table: 0.32 px/mm
    r = run(["live", "--camera", frames, "--calibration", profile, "--position", "4", "--no-window", "--json",
             "--log", str(tmp / "hands.jsonl")])
    assert r.exit_code == 1
    out = json.loads(r.stdout.strip().splitlines()[-1])
    assert out["status"] == "incomplete" and "too small to read in 3 zone(s)" in out["warning"]
    # every zone named with its scale, and the fix (the floor is 2.4 px/mm: 0.3 px/mm needs ~8x the pixels)
    assert re.search(r"\(px/mm: board 0\.[23], alice 0\.[23], boris 0\.[23]\)", out["warning"])
    assert "use a higher camera resolution" in out["warning"]
    assert r.stderr.strip() == out["warning"]  # said at the first frame, before play


def _typed_hand() -> str:
    lines = [f"board {i} {s}" for i, s in enumerate(HAND["board"], 1)]
    lines += [f"{seat} {i} {s}" for seat in ("alice", "boris") for i, s in enumerate(HAND[seat], 1)]
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("make, words", [
    (lambda t: t, "is a folder"),
    (lambda t: (t / "table.json"), "is not a hand log"),  # the calibration profile itself
    (lambda t: __import__("pathlib").Path("/dev/full"), "not a regular file"),
])
def test_a_log_that_cannot_take_hands_is_refused_before_the_first_hand(table, make, words):
    frames, profile, tmp = table
    target = make(tmp)
    before = target.read_bytes() if target.is_file() else None
    r = run(["live", "--camera", frames, "--calibration", profile, "--position", "4", "--no-ocr", "--no-window",
             "--json", "--log", str(target)], input=_typed_hand())
    assert r.exit_code == 2
    assert words in one_sentence(r)
    if before is not None:
        assert target.read_bytes() == before  # the profile is not appended to


def test_no_log_and_log_contradict(table):
    frames, profile, tmp = table
    r = run(["live", "--camera", frames, "--calibration", profile, "--position", "4", "--no-log", "--log",
             str(tmp / "h.jsonl")])
    assert r.exit_code == 2 and "contradict" in one_sentence(r)


def test_files_of_a_recording_that_are_not_images_are_skipped_and_said(table):
    frames, profile, tmp = table
    folder = tmp / "frames"
    (folder / "frame_0000b.png").write_bytes(b"\x89PNG\r\n\x1a\n broken")  # between the two good frames
    (folder / "hand.mp4").write_bytes(b"not an image")
    log = tmp / "hands.jsonl"
    r = run(["live", "--camera", str(folder / "*"), "--calibration", profile, "--position", "4", "--no-ocr",
             "--no-window", "--json", "--log", str(log)], input=_typed_hand())
    assert r.exit_code == 0, r.output
    out = json.loads(r.stdout.strip().splitlines()[-1])
    assert out["status"] == "showdown" and out["frames"] == 2
    assert "Skipped 2 file(s) of the recording that are not images OpenCV can read: frame_0000b.png, hand.mp4." in r.stderr
    assert "Traceback" not in r.output
    (record,) = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]
    assert record["winners"] == out["winners"]


def test_a_recording_of_no_readable_image_is_one_sentence(table):
    frames, profile, tmp = table
    (tmp / "bad").mkdir()
    (tmp / "bad" / "a.jpg").write_bytes(b"\xff\xd8 not really")
    r = run(["live", "--camera", str(tmp / "bad"), "--calibration", profile, "--position", "4", "--no-ocr",
             "--no-window", "--json", "--no-log"], input="")
    assert r.exit_code == 2
    # refused as it is opened, before any screen (seventh new-user trial: a dashboard, then the error)
    said = " ".join(r.stderr.split())
    assert said.startswith("Error: No frame could be read from ") and said.endswith(
        "bad: none of its files is an image OpenCV can read.") and said.count("\n") == 0
    assert r.stdout == ""
    (tmp / "cut.jpg").write_bytes(b"\xff\xd8\xff\xe0 cut short")
    r = run(["live", "--camera", str(tmp / "cut.jpg"), "--calibration", profile, "--position", "4", "--no-ocr",
             "--no-window", "--no-log", "--lang", "ru"], input="")
    assert r.exit_code == 2 and r.stdout == ""
    said = " ".join(r.stderr.split())
    assert said.startswith("Ошибка: Из ") and said.endswith(
        "cut.jpg не удалось прочитать ни одного кадра: это не изображение, которое читает OpenCV.")


def test_refused_commands_on_stdin_are_said_on_stderr(table):
    frames, profile, tmp = table
    r = run(["live", "--camera", frames, "--calibration", profile, "--position", "4", "--no-ocr", "--no-window",
             "--json", "--no-log"], input="garbage\nposition 9\nfold NOBODY\n" + "x" * 100_000 + "\n")
    assert r.exit_code == 1
    refused = [line for line in r.stderr.splitlines() if line.startswith("Refused: ")]
    assert len(refused) == 4
    assert "'garbage' is not a command" in refused[0] and "1 to 7" in refused[1] and "'NOBODY' is not a seat" in refused[2]
    assert len(refused[3]) < 200  # a pasted line is quoted short


def test_pipes_are_refused_instead_of_waited_on(table):
    import os

    frames, profile, tmp = table
    fifo = tmp / "fifo"
    os.mkfifo(fifo)
    r = run(["history", "--log", str(fifo)])
    assert r.exit_code == 2 and "not a regular file" in one_sentence(r)
    r = run(["live", "--camera", str(fifo), "--calibration", profile, "--position", "4", "--no-log"])
    assert r.exit_code == 2 and "named pipe" in one_sentence(r)
    r = run(["live", "--camera", frames, "--calibration", str(fifo), "--position", "4", "--no-log"])
    assert r.exit_code == 2 and "not a regular file" in one_sentence(r)
    r = run(["live", "--camera", frames, "--calibration", profile, "--position", "4", "--log", str(fifo)])
    assert r.exit_code == 2 and "not a regular file" in one_sentence(r)


@pytest.mark.parametrize("args, hint, words", [
    (["--zero-joker", "maybe"], "'--zero-joker'", "off, per-zero or once, not 'maybe'"),
    (["--tie-policy", "coin"], "'--tie-policy'", "split or rollover, not 'coin'"),
    (["--fps", "inf"], "'--fps'", "1000"),
])
def test_option_values_name_the_option_and_the_choices(table, args, hint, words):
    frames, profile, tmp = table
    r = run(["live", "--camera", frames, "--calibration", profile, "--position", "4", "--no-log", *args])
    assert r.exit_code == 2 and hint in r.output and words in r.output and "Traceback" not in r.output
