"""Bad input found by trying to break read and score: one sentence, nothing lost."""

import json
import os
import shutil
import stat
import struct
import zlib

import cv2
import numpy as np
import pytest
from typer.testing import CliRunner

from dealer_assist.cli import app
from dealer_assist.vision.geometry import LEFT_PRINT_MM, TOP_RIGHT_PRINT_MM
from dealer_assist.vision.ocr import LineRead
from dealer_assist.vision.model import Print
from dealer_assist.vision.trust import odd_length_note
from dealer_assist.vision.serials import parse_serial_text

from conftest import REAL_PHOTOS

runner = CliRunner()


def _bomb_png(path, width=100_000, height=100_000):
    """A tiny PNG whose header declares a huge image (a decompression bomb)."""
    ok, buf = cv2.imencode(".png", np.zeros((8, 8, 3), np.uint8))
    data = bytearray(buf.tobytes())
    ihdr = data[12:29]  # b"IHDR" + 13 bytes of header data
    ihdr[4:12] = struct.pack(">II", width, height)
    data[12:29] = ihdr
    data[29:33] = struct.pack(">I", zlib.crc32(bytes(ihdr)) & 0xFFFFFFFF)
    path.write_bytes(bytes(data))


@pytest.mark.slow
def test_a_decompression_bomb_is_one_sentence_and_other_photos_are_still_read(tmp_path):
    bomb = tmp_path / "bomb.png"
    _bomb_png(bomb)
    result = runner.invoke(app, ["read", str(bomb), str(REAL_PHOTOS / "real_047.jpg"), "--json"])
    assert result.exit_code == 1
    lines = [json.loads(x) for x in result.stdout.splitlines() if x.startswith("{")]
    assert "too large to decode" in lines[0]["error"]
    assert lines[1]["notes"][0]["serial"] == "4270166"
    assert "Traceback" not in result.output


def _hand(tmp_path, serials, name="hand", extra=None):
    folder = tmp_path / name
    folder.mkdir()
    for image in serials:
        shutil.copy(REAL_PHOTOS / "real_047.jpg", folder / image)
    (folder / "hand.json").write_text(json.dumps({"position": 4, "serials": serials, **(extra or {})}))
    return folder


GOOD = {"board.jpg": ["1234567", "7654321", "5555555"], "alice.jpg": ["1111111", "2222222"],
        "bob.jpg": ["3333333", "9999999"]}


def _verdict(tmp_path, *paths):
    out = tmp_path / "v.json"
    result = runner.invoke(app, ["score", *map(str, paths), "--json", str(out), "-j", "1"])
    assert result.exit_code == 0, result.output
    return json.loads(out.read_text())


def test_json_and_csv_naming_one_file_are_refused(tmp_path):
    out = tmp_path / "same"
    result = runner.invoke(app, ["score", str(_hand(tmp_path, GOOD)), "--json", str(out), "--csv", str(out)])
    assert result.exit_code == 2 and "both name" in result.output


def test_a_folder_as_csv_target_is_refused_before_anything_is_written(tmp_path):
    earlier = tmp_path / "e.json"
    earlier.write_text('["earlier"]')
    result = runner.invoke(app, ["score", str(_hand(tmp_path, GOOD)), "--json", str(earlier),
                                 "--csv", str(tmp_path)])
    assert result.exit_code == 2 and "is a folder" in result.output
    assert earlier.read_text() == '["earlier"]'


@pytest.mark.slow
def test_results_are_written_through_a_symlink_and_into_devices(tmp_path):
    target = tmp_path / "real.json"
    target.write_text("[]")
    link = tmp_path / "link.json"
    link.symlink_to(target)
    hand = _hand(tmp_path, GOOD)
    assert runner.invoke(app, ["score", str(hand), "--json", str(link), "-j", "1"]).exit_code == 0
    assert link.is_symlink() and json.loads(target.read_text())[0]["status"] == "scored"
    assert runner.invoke(app, ["score", str(hand), "--json", os.devnull, "-j", "1"]).exit_code == 0
    assert stat.S_ISCHR(os.stat(os.devnull).st_mode)


@pytest.mark.slow
def test_an_earlier_files_mode_is_kept(tmp_path):
    out = tmp_path / "v.json"
    out.write_text("[]")
    out.chmod(0o640)
    runner.invoke(app, ["score", str(_hand(tmp_path, GOOD)), "--json", str(out), "-j", "1"])
    assert out.stat().st_mode & 0o777 == 0o640 and out.read_text() != "[]"


@pytest.mark.slow
def test_overrides_must_name_photos_of_the_hand_and_be_7_digits(tmp_path):
    serials = dict(GOOD, **{"alise.jpg": ["4444444"]})
    (v,) = _verdict(tmp_path, _hand(tmp_path, {k: GOOD[k] for k in GOOD}, extra={"serials": serials}))
    assert "hand.json: 'serials' names alise.jpg, which is not a photo in this hand." in v["reasons"]
    bad = dict(GOOD, **{"bob.jpg": ["365333", "9999999"]})
    (v,) = _verdict(tmp_path, _hand(tmp_path, bad, name="h2"))
    assert "hand.json: the serial '365333' given for bob.jpg is not exactly 7 digits." in v["reasons"]


@pytest.mark.slow
def test_seat_counts_name_the_player_and_photos(tmp_path):
    serials = {"board.jpg": GOOD["board.jpg"], "alice.jpg": GOOD["alice.jpg"],
               "bob-1.jpg": ["3333333"], "bob-1-2.jpg": ["9999999"]}
    (v,) = _verdict(tmp_path, _hand(tmp_path, serials))
    assert v["status"] == "needs_review"
    assert "player bob-1 (bob-1-2.jpg) has 1 note, 2 expected." in v["reasons"]


@pytest.mark.slow
def test_dotfiles_are_ignored_and_broken_links_reported(tmp_path):
    hand = _hand(tmp_path, GOOD)
    (hand / "._alice.jpg").write_bytes(b"\x00\x05\x16\x07 resource fork")
    (hand / "carl.jpg").symlink_to(tmp_path / "nowhere.jpg")
    (v,) = _verdict(tmp_path, hand)
    assert "carl.jpg: not a readable photo (a broken link or a folder)." in v["reasons"]
    assert not any("._alice" in r for r in v["reasons"])


@pytest.mark.slow
def test_the_same_hand_given_twice_is_scored_once_and_bom_is_accepted(tmp_path):
    hand = _hand(tmp_path, GOOD)
    text = (hand / "hand.json").read_text()
    (hand / "hand.json").write_bytes("\ufeff".encode() + text.encode())
    verdicts = _verdict(tmp_path, hand, hand)
    assert len(verdicts) == 1 and verdicts[0]["status"] == "scored"


@pytest.mark.slow
def test_markup_in_file_names_is_shown_literally(tmp_path):
    odd = tmp_path / "[bold red]x.jpg"
    shutil.copy(REAL_PHOTOS / "real_047.jpg", odd)
    result = runner.invoke(app, ["read", str(odd)])
    assert result.exit_code == 0 and "[bold red]x.jpg" in result.output


@pytest.mark.slow
def test_debug_copies_of_same_named_photos_do_not_overwrite_each_other(tmp_path):
    for sub in ("a", "b"):
        (tmp_path / sub).mkdir()
        shutil.copy(REAL_PHOTOS / "real_047.jpg", tmp_path / sub / "x.jpg")
    out = tmp_path / "dbg"
    result = runner.invoke(app, ["read", str(tmp_path / "a" / "x.jpg"), str(tmp_path / "b" / "x.jpg"),
                                 "--debug-dir", str(out)])
    assert result.exit_code == 0
    assert sorted(p.name for p in out.iterdir()) == ["x-2.debug.jpg", "x.debug.jpg"]


def _print_at(center_mm, text, scale=8.0):
    cx, cy = center_mm
    q = np.array([[cx - 12, cy - 2], [cx + 12, cy - 2], [cx + 12, cy + 2], [cx - 12, cy + 2]]) * scale
    r = LineRead(text, 0.99, "rapidocr")
    return Print(quad=q.astype(np.float32), crop=np.zeros((10, 60, 3), np.uint8),
                 reads=[(r, parse_serial_text(r.text))])


def test_a_six_digit_serial_on_both_prints_is_out_of_format_never_padded():
    note = odd_length_note([_print_at(TOP_RIGHT_PRINT_MM, "АБ 123456"), _print_at(LEFT_PRINT_MM, "АБ 123456")])
    assert note.serial is None and note.status == "out_of_format"
    assert "a serial of 6 digits (123456)" in note.reason
    # One print alone, or two that disagree, are stray digits, not a note.
    assert odd_length_note([_print_at(TOP_RIGHT_PRINT_MM, "АБ 123456")]) is None
    assert odd_length_note([_print_at(TOP_RIGHT_PRINT_MM, "123456"), _print_at(LEFT_PRINT_MM, "654321")]) is None
