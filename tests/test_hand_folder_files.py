"""Issue 12 item 5: every file in a hand folder is accounted for -- read as a photo, or named in a
reason for review; never skipped without a word. Through the CLI (typer CliRunner)."""

from __future__ import annotations

import json

import cv2
import numpy as np
import pytest
from typer.testing import CliRunner

from dealer_assist.app.photo_files import load_photo
from dealer_assist.cli import app

from conftest import REAL_PHOTOS

runner = CliRunner()

GOOD = {"board.png": ["1234567", "7654321", "5555555"], "alice.png": ["1111111", "2222222"],
        "bob.png": ["3333333", "9999999"]}
BLANK = np.full((80, 80, 3), 255, np.uint8)  # no note on it: every serial comes from hand.json


def _hand(tmp_path, serials=GOOD, name="hand"):
    folder = tmp_path / name
    folder.mkdir()
    for image in serials:
        cv2.imwrite(str(folder / "x.png"), BLANK)
        (folder / "x.png").rename(folder / image)
    (folder / "hand.json").write_text(json.dumps({"position": 4, "serials": serials}))
    return folder


def _verdict(tmp_path, folder):
    out = tmp_path / "v.json"
    result = runner.invoke(app, ["score", str(folder), "--json", str(out), "-j", "1", "--lang", "en"])
    assert result.exit_code == 0, result.output
    (v,) = json.loads(out.read_text())
    return v, result.output


@pytest.mark.slow
def test_a_clean_hand_folder_is_scored(tmp_path):
    v, _ = _verdict(tmp_path, _hand(tmp_path))
    assert v["status"] == "scored", v["reasons"]


@pytest.mark.slow
def test_the_sample_truth_and_file_manager_files_are_not_part_of_the_hand(tmp_path):
    hand = _hand(tmp_path)
    for name in ("truth.json", ".DS_Store", "Thumbs.db", "desktop.ini", "._alice.png"):
        (hand / name).write_bytes(b"\x00metadata")
    v, _ = _verdict(tmp_path, hand)
    assert v["status"] == "scored", v["reasons"]


@pytest.mark.slow
@pytest.mark.parametrize("name, words", [
    ("carol.txt", "carol.txt: not a photo this program reads (.txt;"),
    ("carol.jxl", "carol.jxl: not a photo this program reads (.jxl;"),
    ("carol", "carol: not a photo this program reads (no suffix;"),
    ("carol.png ", "'carol.png ': the name begins or ends with a space"),
    ("carol .png", "'carol .png': the name begins or ends with a space"),
    (".carol.png", ".carol.png: a hidden file is not read"),
    ("carol (1).png", "carol (1).png: the name does not map to a player"),
    ("carol copy.png", "carol copy.png: the name does not map to a player"),
    ("-1.png", "-1.png: the name does not map to a player"),
])
def test_a_file_that_is_not_a_players_photo_needs_review_naming_it(tmp_path, name, words):
    hand = _hand(tmp_path)
    cv2.imwrite(str(hand / "x.png"), BLANK)
    (hand / "x.png").rename(hand / name)
    v, output = _verdict(tmp_path, hand)
    assert v["status"] == "needs_review" and v["winners"] == []
    assert any(words in r for r in v["reasons"]), v["reasons"]
    assert "needs review" in output


@pytest.mark.slow
def test_a_sub_folder_needs_review_naming_it(tmp_path):
    hand = _hand(tmp_path)
    (hand / "carol").mkdir()
    cv2.imwrite(str(hand / "carol" / "carol.png"), BLANK)
    v, _ = _verdict(tmp_path, hand)
    assert v["status"] == "needs_review"
    assert any(r.startswith("carol/: a sub-folder is not read") for r in v["reasons"]), v["reasons"]


@pytest.mark.slow
def test_an_unreadable_photo_of_a_known_type_needs_review_naming_it(tmp_path):
    hand = _hand(tmp_path)
    (hand / "carol.heic").write_bytes(b"not really a heic file")
    v, _ = _verdict(tmp_path, hand)
    assert v["status"] == "needs_review"
    assert any(r.startswith("carol.heic: ") and "decoded" in r for r in v["reasons"]), v["reasons"]


SUFFIXES = [".jpg", ".jpeg", ".jpe", ".jfif", ".JPG", ".png", ".webp", ".tif", ".tiff", ".bmp", ".avif", ".heic",
            ".heif"]


def _photo_as(src, path):
    image = cv2.imread(str(src))
    if path.suffix.lower() in (".heic", ".heif"):
        import pillow_heif

        pillow_heif.from_bytes(mode="RGB", size=(image.shape[1], image.shape[0]),
                               data=cv2.cvtColor(image, cv2.COLOR_BGR2RGB).tobytes()).save(str(path), quality=95)
        return
    ok, buf = cv2.imencode(".jpg" if path.suffix.lower() in (".jpe", ".jfif") else path.suffix.lower(), image)
    assert ok
    path.write_bytes(buf.tobytes())


@pytest.mark.slow
def test_every_photo_type_is_read(tmp_path):
    photos = []
    for k, suffix in enumerate(SUFFIXES):
        photos.append(tmp_path / f"note{k}{suffix}")
        _photo_as(REAL_PHOTOS / "real_047.jpg", photos[-1])
    result = runner.invoke(app, ["read", *map(str, photos), "--json"])
    assert result.exit_code == 0, result.output
    lines = [json.loads(x) for x in result.stdout.splitlines() if x.startswith("{")]
    assert [[n["serial"] for n in line["notes"] if n["serial"]] for line in lines] == [["4270166"]] * len(SUFFIXES)


@pytest.mark.slow
def test_a_hand_of_other_photo_types_is_scored(tmp_path):
    hand = tmp_path / "hand"
    hand.mkdir()
    _photo_as(REAL_PHOTOS / "real_047.jpg", hand / "carol-1.jfif")  # one note, read: 4270166
    serials = {"board.jpe": ["1234567", "7654321", "5555555"], "alice.heic": ["1111111", "2222222"],
               "carol-2.tif": ["3333333"]}
    for name in serials:
        _photo_as(REAL_PHOTOS / "real_047.jpg", hand / name)
    (hand / "hand.json").write_text(json.dumps({"position": 4, "serials": serials}))
    v, _ = _verdict(tmp_path, hand)
    assert v["status"] == "scored", v["reasons"]
    assert {n["image"] for n in v["notes"]} == {"board.jpe", "alice.heic", "carol-1.jfif", "carol-2.tif"}
    assert [n["serial"] for n in v["notes"] if n["image"] == "carol-1.jfif"] == ["4270166"]


def test_heic_is_turned_by_its_orientation(tmp_path):
    from PIL import Image
    import pillow_heif

    pillow_heif.register_heif_opener()
    wide = np.zeros((100, 200, 3), np.uint8)
    wide[:, :100] = 255  # white on the left
    exif = Image.Exif()
    exif[0x0112] = 6  # stored sideways: turn 90° clockwise to show
    Image.fromarray(wide).save(tmp_path / "o.heic", exif=exif.tobytes())
    image, scale = load_photo(tmp_path / "o.heic")
    assert image.shape == (200, 100, 3) and scale == 1.0
    assert image[:100].mean() > 200 and image[100:].mean() < 50  # the white half is on top


def test_every_file_is_a_photo_slot_or_a_problem_without_reading(tmp_path):
    # the same accounting as above, on the folder alone (no reader: the fast lane runs this)
    from dealer_assist.app.hand_folders import parse_hand_folder

    hand = tmp_path / "hand"
    hand.mkdir()
    for name in ("board.JPG", "alice.jfif", "bob-1.jpe", "bob-2.heic", "hand.json", "truth.json", "._bob-1.jpe",
                 "carol.txt", "dana .png", "eve (1).png", ".frank.png"):
        (hand / name).write_bytes(b"{}")
    (hand / "gleb").mkdir()
    folder = parse_hand_folder(hand)
    assert [(s.path.name, s.seat, s.expected) for s in folder.slots] == [
        ("alice.jfif", "alice", 2), ("board.JPG", "board", 3), ("bob-1.jpe", "bob", 1), ("bob-2.heic", "bob", 1)]
    assert sorted(p.split(":")[0] for p in folder.problems) == sorted([
        ".frank.png", "'dana .png'", "carol.txt", "eve (1).png", "gleb/"])
