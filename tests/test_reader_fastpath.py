"""The calibrated-deck fast path: note outlines and prints read where the layout puts them."""

import json

import numpy as np
import pytest
from typer.testing import CliRunner

from dealer_assist.calibration.profile import NoteLayout, PrintLayout
from dealer_assist.cli import app
from dealer_assist.rules import evaluate, parse_hand, result_to_json
from dealer_assist.synth import render_note_photo
from dealer_assist.synth.layout import LAYOUTS, NOTE_SIZE_MM
from dealer_assist.synth.note import NoteSpec
from dealer_assist.vision.fastpath import find_note_quads
from dealer_assist.vision.geometry import quad_iou
from dealer_assist.vision.ocr import RapidOcrEngine
from dealer_assist.vision.reader import SerialReader

DECK = LAYOUTS[1000]
LAYOUT = NoteLayout(aspect=NOTE_SIZE_MM[0] / NOTE_SIZE_MM[1],
                    prints=(PrintLayout("top_right", DECK.top_right_box), PrintLayout("left", DECK.left_box)),
                    samples=1)


class NoDetector(RapidOcrEngine):
    """The primary engine with its text detector forbidden: only the fast path can read."""

    def detect(self, image):
        raise AssertionError("the general reader ran")


def _photo(seed, digits):
    return render_note_photo(seed, "easy", spec=NoteSpec("АБ", digits, denomination=1000))


@pytest.mark.parametrize("seed, digits", [(3, "4731485"), (7, "1212154")])
def test_fast_path_reads_without_the_text_detector(seed, digits):
    image, truth = _photo(seed, digits)
    reader = SerialReader(primary=NoDetector(), layout=LAYOUT)
    (note,) = reader.read(image)
    assert note.serial == digits and note.status == "trusted"
    assert quad_iou(np.array(truth["notes"][0]["quad"], np.float32), note.quad) > 0.9
    # The quad starts at the note's own top-left even when the photo has it upside down.
    assert np.linalg.norm(note.quad[0] - np.array(truth["notes"][0]["quad"][0])) < 15


def test_without_an_outline_the_general_reader_takes_over(serial_reader):
    image, truth = _photo(1, "6655188")
    assert find_note_quads(image, LAYOUT.aspect) == []  # this photo's outline is not found
    reader = SerialReader(layout=LAYOUT)
    assert [n.serial for n in reader.read(image)] == ["6655188"]


def test_read_with_a_calibration_profile_uses_its_layout(tmp_path):
    profile = {"schema": "dealer-assist/calibration", "version": 1, "notes": {
        "aspect": LAYOUT.aspect, "samples": 1,
        "prints": [{"name": p.name, "box": list(p.box)} for p in LAYOUT.prints]}}
    path = tmp_path / "deck.json"
    path.write_text(json.dumps(profile))
    image_path = tmp_path / "note.jpg"
    import cv2

    image, _ = _photo(3, "4731485")
    cv2.imwrite(str(image_path), image)
    result = CliRunner().invoke(app, ["read", str(image_path), "--calibration", str(path), "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["notes"][0]["serial"] == "4731485"


def test_a_profile_without_a_note_layout_is_said_and_reading_goes_on(tmp_path):
    path = tmp_path / "empty.json"
    path.write_text(json.dumps({"schema": "dealer-assist/calibration", "version": 1}))
    image_path = tmp_path / "note.jpg"
    import cv2

    image, _ = _photo(3, "4731485")
    cv2.imwrite(str(image_path), image)
    result = CliRunner().invoke(app, ["read", str(image_path), "--calibration", str(path)])
    assert result.exit_code == 0
    assert "has no note layout" in result.output and "4731485" in result.output


def test_score_with_a_deck_layout_reads_a_photo_again_when_the_fast_path_finds_too_few_notes(tmp_path):
    """A newcomer's finding: with a layout, julia.jpg of hand_03 (two notes) gave '2 notes expected, 1 found'
    because the fast path found one outline only; the general reader finds both."""
    import cv2

    from conftest import REPO

    # the layout as the newcomer learned it: `calibrate notes` on three easy gallery notes
    photos = []
    for i in range(3):
        image, _ = render_note_photo(i, "easy")
        photos.append(tmp_path / f"note_{i}.png")
        cv2.imwrite(str(photos[-1]), image)
    path = tmp_path / "deck.json"
    result = CliRunner().invoke(app, ["calibrate", "notes", *map(str, photos), "--output", str(path)])
    assert result.exit_code == 0, result.output
    out = tmp_path / "v.json"
    result = CliRunner().invoke(app, ["score", str(REPO / "sample_images" / "hand_03"), "--calibration", str(path),
                                      "--json", str(out)])
    assert result.exit_code == 0, result.output
    (verdict,) = json.loads(out.read_text())
    truth = json.loads((REPO / "sample_images" / "hand_03" / "truth.json").read_text(encoding="utf-8"))
    assert verdict["status"] == "scored", verdict["reasons"]
    assert verdict["winners"] == result_to_json(evaluate(parse_hand(truth["hand"])))["winners"]
