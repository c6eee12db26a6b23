"""`calibrate notes`: the deck's note layout learned from photos of one sample note
(dealer_assist.synth specimens) matches the renderer's layout: aspect, where each serial
print lies on the note, its ink colour."""

from __future__ import annotations

import json

import cv2
import numpy as np
import pytest
from typer.testing import CliRunner

from dealer_assist.calibration import load_profile
from dealer_assist.calibration.notes import colour_name, find_note_outline
from dealer_assist.cli import app
from dealer_assist.synth import render_note_photo
from dealer_assist.synth.layout import NOTE_SIZE_MM
from dealer_assist.synth.note import random_spec

runner = CliRunner()


@pytest.fixture(scope="module")
def photos(tmp_path_factory):
    """Three easy photos of one 1000-ruble specimen (red top-right print, dark left one)."""
    d = tmp_path_factory.mktemp("sample_note")
    spec = random_spec(np.random.default_rng(7), denomination=1000)
    truths = []
    for seed in range(3):
        img, truth = render_note_photo(seed, "easy", spec=spec)
        cv2.imwrite(str(d / f"note_{seed}.jpg"), img, [cv2.IMWRITE_JPEG_QUALITY, 92])
        truths.append(next(n for n in truth["notes"] if n["face"] == "up"))
    return d, truths


def run(*args):
    result = runner.invoke(app, [str(a) for a in args], env={"COLUMNS": "200"})
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result


@pytest.mark.slow
def test_the_learned_layout_matches_the_specimens(photos, tmp_path):
    d, truths = photos
    out = tmp_path / "deck.json"
    result = run("calibrate", "notes", *sorted(d.glob("note_*.jpg")), "--output", out, "--json")
    assert result.exit_code == 0, result.output
    layout = load_profile(str(out)).notes
    assert layout.samples == 3
    assert layout.aspect == pytest.approx(NOTE_SIZE_MM[0] / NOTE_SIZE_MM[1], rel=0.02)
    by_name = {p.name: p for p in layout.prints}
    assert sorted(by_name) == ["left", "top_right"]
    for name, colour in (("top_right", "red"), ("left", "dark")):
        truth_box = np.median([t["prints"][name]["box"] for t in truths], axis=0)
        # the renderer's box is the nominal area; the learned one is the ink inside it
        np.testing.assert_allclose(by_name[name].box, truth_box, atol=0.02)
        assert by_name[name].colour == colour == truths[0]["prints"][name]["colour"]
    assert json.loads(result.stdout)["prints"][0]["name"] == "top_right"
    # the ROIs a fast path would search, on a rectified 1150 x 505 note
    size = np.array([1150, 505, 1150, 505])
    for name, roi in layout.print_rois((1150, 505)):
        truth_px = np.median([t["prints"][name]["box"] for t in truths], axis=0) * size
        assert np.all(np.abs(np.array(roi) - truth_px) <= 0.02 * size + 1)


@pytest.mark.slow
def test_the_outline_is_found_in_the_photo_not_taken_from_the_reader(photos):
    d, truths = photos
    img = cv2.imread(str(d / "note_0.jpg"))
    true_quad = np.array(truths[0]["quad"])
    # a guess 8% too big and shifted still snaps to the paper's edges
    c = true_quad.mean(axis=0)
    guess = c + (true_quad - c) * 1.08 + [12, -9]
    found = find_note_outline(img, guess)
    assert found is not None
    assert np.linalg.norm(found - true_quad, axis=1).max() < 6


@pytest.mark.slow  # its fixture renders views, scenes or photos
def test_photos_without_a_readable_note_are_named(photos, tmp_path):
    blank = tmp_path / "blank.png"
    cv2.imwrite(str(blank), np.full((480, 640, 3), 180, np.uint8))
    result = run("calibrate", "notes", blank, "--output", tmp_path / "deck.json")
    assert result.exit_code == 2
    assert result.output.strip() == (
        "Error: No photo gave a usable note: blank.png: no note whose two serial prints read alike.")
    assert not (tmp_path / "deck.json").exists()
    missing = run("calibrate", "notes", tmp_path / "nowhere.jpg", "--output", tmp_path / "deck.json")
    assert missing.exit_code == 2 and "nowhere.jpg: no such file" in missing.output


@pytest.mark.parametrize("bgr, name", [((40, 40, 200), "red"), ((40, 40, 40), "dark"), ((200, 80, 30), "blue"),
                                       ((60, 170, 60), "green"), ((200, 200, 200), "grey"), ((110, 100, 180), "red")])
def test_colour_names(bgr, name):
    assert colour_name(bgr) == name
