"""Whole-table photos (FORMATS.md §4, second form): split into board and seats by a
profile's zones, scored like a hand folder, checked with `calibrate check`.

The end-to-end tests read one synthetic 3840x2160 table (the 1920x1080 samples print
4-5 px digits, too small for anyone to read); the splitting rules are tested on reads
made here, without OCR."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest
from typer.testing import CliRunner

from dealer_assist.app.hand_folders import InputError
from dealer_assist.app.score import discover_inputs
from dealer_assist.app.table_photos import TableReading, table_hand
from dealer_assist.app.verdicts import score_hand
from dealer_assist.calibration import load_profile
from dealer_assist.calibration.tabletop import TableNote, note_zone, rectify_table
from dealer_assist.cli import app
from dealer_assist.rules import evaluate, parse_hand, result_to_json
from dealer_assist.synth import render_scene
from dealer_assist.vision.reader import NoteRead

runner = CliRunner()
REPO = Path(__file__).resolve().parents[1]


def run(*args):
    result = runner.invoke(app, [str(a) for a in args], env={"COLUMNS": "200"})
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result


def expected(hand: dict) -> dict:
    return result_to_json(evaluate(parse_hand(hand)))


# -- splitting a table photo into zones (no OCR) ------------------------------------

SAMPLE = REPO / "sample_images" / "tables" / "table_1.truth.json"


def _reads(truth: dict, drop: set[str] = frozenset(), move: dict | None = None) -> list[TableNote]:
    """Trusted reads of the truth's notes (quads in the photo), zones by the sample profile."""
    profile = load_profile(REPO / "calibration" / "sample_table_1.json")
    out = []
    for n in truth["notes"]:
        if n["serial"] in drop:
            continue
        quad = np.array(n["quad"], np.float32)
        if move and n["serial"] in move:
            quad = quad + np.float32(move[n["serial"]])
        note = NoteRead(n["serial"], None, 0.95, quad, "trusted", "", [])
        centre = profile.quad_centre_mm(quad)
        out.append(TableNote(note, note_zone(profile.table, centre, profile.to_table_mm(quad)), centre))
    return out


@pytest.fixture
def sample(tmp_path):
    photo = tmp_path / "table_1.jpg"
    photo.write_bytes((REPO / "sample_images" / "tables" / "table_1.jpg").read_bytes())
    truth = json.loads(SAMPLE.read_text())
    return photo, truth, load_profile(REPO / "calibration" / "sample_table_1.json")


def _score(photo, profile, notes, position=None):
    folder, readings = table_hand(photo, profile, TableReading(str(photo), notes, image_size=(1920, 1080)))
    return score_hand(folder, readings, {"position": position})


def test_reads_in_every_zone_score_like_the_rules_engine(sample):
    photo, truth, profile = sample
    (photo.with_suffix(".json")).write_text(json.dumps({"position": truth["hand"]["position"]}))
    sc = _score(photo, profile, _reads(truth))
    assert sc.status == "scored", sc.reasons
    exp = expected(truth["hand"])
    assert sc.result["winners"] == exp["winners"] and sc.result["players"] == exp["players"]
    seats = {n["serial"]: n["seat"] for n in sc.notes}
    assert seats == {n["serial"]: n["zone"] for n in truth["notes"]}
    assert {n["image"] for n in sc.notes} == {f"table_1.jpg[{z}]" for z in ("board", "P1", "P2", "P3", "P4")}


def test_a_missing_or_stray_note_needs_review_and_says_where(sample):
    photo, truth, profile = sample
    p2 = [n["serial"] for n in truth["notes"] if n["zone"] == "P2"]
    sc = _score(photo, profile, _reads(truth, drop={p2[0]}), position=6)
    assert sc.status == "needs_review"
    (reason,) = sc.reasons  # the zone is named like an image of a hand folder
    assert reason.startswith("table_1.jpg[P2]: 2 note") and "expected, 1 found" in reason
    # the middle board note pushed up, between the seats at the top: in no zone
    board = [n["serial"] for n in truth["notes"] if n["zone"] == "board"]
    sc = _score(photo, profile, _reads(truth, move={board[1]: (0, -220)}), position=6)
    assert sc.status == "needs_review" and sc.result is None
    assert f"table_1.jpg: a note ({board[1]}) at (985, 299) px lies in no zone of the calibration 'sample_table_1'." \
        in sc.reasons
    assert any(r.startswith("table_1.jpg[board]: 3 note") and "expected, 2 found" in r for r in sc.reasons)


def test_sidecar_seats_in_play_and_serial_overrides(sample):
    photo, truth, profile = sample
    p3 = [n["serial"] for n in truth["notes"] if n["zone"] == "P3"]
    side = photo.with_suffix(".json")
    # P3 sat out: its notes are not on the table; the others play
    side.write_text(json.dumps({"position": 6, "seats": ["P1", "P2", "P4"]}))
    sc = _score(photo, profile, _reads(truth, drop=set(p3)))
    assert sc.status == "scored", sc.reasons
    hand = dict(truth["hand"], players=[p for p in truth["hand"]["players"] if p["name"] != "P3"])
    assert sc.result["winners"] == expected(hand)["winners"]
    # a note the camera could not read is given by seat
    p1 = [n["serial"] for n in truth["notes"] if n["zone"] == "P1"]
    side.write_text(json.dumps({"position": 6, "serials": {"P1": p1}}))
    sc = _score(photo, profile, _reads(truth, drop={p1[1]}))
    assert sc.status == "scored", sc.reasons
    assert sc.result["winners"] == expected(truth["hand"])["winners"]
    # bad sidecars are reasons, not crashes
    side.write_text(json.dumps({"position": 6, "seats": ["P1", "nobody"]}))
    sc = _score(photo, profile, _reads(truth))
    assert any("nobody" in r and "not in the calibration 'sample_table_1'" in r for r in sc.reasons)
    side.write_text("{ nope")
    sc = _score(photo, profile, _reads(truth))
    assert sc.reasons[0] == "table_1.json is not valid JSON (Expecting property name enclosed in double quotes: column 3)."


def test_a_note_in_a_seat_not_in_play_is_not_dropped(sample):
    photo, truth, profile = sample
    photo.with_suffix(".json").write_text(json.dumps({"position": 6, "seats": ["P1", "P2", "P3"]}))
    sc = _score(photo, profile, _reads(truth))
    assert sc.status == "needs_review"
    assert sum("lies in seat P4, which is not in play" in r for r in sc.reasons) == 2


def test_discover_inputs_sorts_photos_and_hand_folders(tmp_path):
    tables = tmp_path / "tables"
    tables.mkdir()
    for name in ("b.jpg", "a.jpg"):
        (tables / name).write_bytes(b"x")
    (tables / "a.json").write_text("{}")
    hand = tmp_path / "hand"
    hand.mkdir()
    (hand / "board.jpg").write_bytes(b"x")
    (hand / "hand.json").write_text("{}")
    assert discover_inputs([tables / "b.jpg", hand], calibrated=True) == [("table", tables / "b.jpg"), ("hand", hand)]
    assert discover_inputs([tables], calibrated=True) == [("table", tables / "a.jpg"), ("table", tables / "b.jpg")]
    assert discover_inputs([hand], calibrated=True) == [("hand", hand)]
    # without --calibration, a photo is never taken for a table, nor table photos for players
    with pytest.raises(InputError, match="a photo given on its own is read as a whole-table photo, which needs "
                                         "--calibration NAME"):
        discover_inputs([tables / "b.jpg", hand], calibrated=False)
    with pytest.raises(InputError, match="holds photos \\(a.jpg, b.jpg\\) but neither hand.json nor a board photo"):
        discover_inputs([tables], calibrated=False)


def test_score_without_a_profile_for_a_table_photo_says_so(tmp_path, monkeypatch):
    monkeypatch.setenv("DEALER_ASSIST_CALIBRATION_DIR", str(tmp_path / "none"))
    photo = tmp_path / "t.jpg"
    photo.write_bytes((REPO / "sample_images" / "tables" / "table_1.jpg").read_bytes())
    result = run("score", photo)
    assert result.exit_code == 2
    assert result.output == (f"Error: {photo}: a photo given on its own is read as a whole-table photo, which needs "
                             f"--calibration NAME (the profile whose zones split it into board and seats).\n")
    result = run("score", photo, "--calibration", "default")
    assert result.exit_code == 2 and "No calibration profile named 'default'" in result.output
    result = run("score", photo, "--calibration", "nowhere")
    assert result.exit_code == 2 and "named 'nowhere'" in result.output


def test_the_top_view_is_the_table_seen_from_above():
    profile = load_profile(REPO / "calibration" / "sample_table_1.json")
    truth = json.loads(SAMPLE.read_text())
    img = cv2.imread(str(REPO / "sample_images" / "tables" / "table_1.jpg"))
    view = rectify_table(img, profile, px_per_mm=3.0)
    assert view.image.shape == (2100, 3000, 3) and view.px_per_mm == 3.0
    # the marker squares lie where the table frame puts them
    from dealer_assist.calibration.table import detect_markers

    found = detect_markers(view.image)
    for m in truth["table"]["markers"]:
        np.testing.assert_allclose(view.to_table_mm(found[m["id"]]), m["corners_mm"], atol=1.5)


# -- end to end on a legible whole-table photo ---------------------------------------


@pytest.fixture(scope="module")
def big_table(tmp_path_factory):
    d = tmp_path_factory.mktemp("big_table")
    img, truth = render_scene(201, "easy", n_players=4, markers=True, image_size=(3840, 2160))
    photo = d / "table.jpg"
    cv2.imwrite(str(photo), img, [cv2.IMWRITE_JPEG_QUALITY, 90])
    (d / "table.json").write_text(json.dumps({"position": truth["hand"]["position"]}))
    cal = d / "profile.json"
    result = run("calibrate", "table", "--image", photo, "--aruco", "--table-mm", "1000,700",
                 "--seats", ",".join(truth["table"]["seats"]), "--output", cal)
    assert result.exit_code == 0, result.output
    return photo, truth, cal


@pytest.mark.slow
def test_check_writes_the_annotated_photo_and_every_read_note_is_in_its_seat(big_table, tmp_path):
    photo, truth, cal = big_table
    out = tmp_path / "check.jpg"
    result = run("calibrate", "check", photo, "--calibration", cal, "--output", out, "--json")
    assert result.exit_code == 0, result.output
    obj = json.loads(result.stdout)
    annotated = cv2.imread(str(out))
    assert annotated.shape == (2160, 3840, 3)
    assert np.abs(annotated.astype(int) - cv2.imread(str(photo)).astype(int)).mean() > 1  # something was drawn
    zone_of = {n["serial"]: n["zone"] for n in truth["notes"]}
    trusted = [n for n in obj["notes"] if n["serial"]]
    assert len(trusted) >= 0.8 * len(zone_of)  # the reader's share on this view; misses are reported, not guessed
    for n in trusted:
        assert n["serial"] in zone_of and n["zone"] == zone_of[n["serial"]]
    assert all(n["zone"] is not None for n in obj["notes"])
    # every note is drawn where its paper is: its quad overlaps a truth note's by most of its area
    from dealer_assist.vision.geometry import quad_iou

    for n in obj["notes"]:
        best = max(quad_iou(np.asarray(n["quad"], np.float32), np.asarray(t["quad"], np.float32))
                   for t in truth["notes"])
        assert best > 0.6, (n, best)
    # each zone's scale (4K over a 1 m table, the far side lower) and its verdict against the 2.4 px/mm floor
    assert {z["zone"] for z in obj["zones"]} == {"board", *truth["table"]["seats"]}
    for z in obj["zones"]:
        worst = min(z["px_per_mm_across"], z["px_per_mm_deep"])
        assert 1.5 < worst < 5.0
        assert (z["verdict"] == "readable") == (worst >= 2.4) and (z["advice"] == "") == (worst >= 2.4)


@pytest.mark.slow
def test_score_a_whole_table_photo_with_the_profile(big_table, tmp_path):
    photo, truth, cal = big_table
    out = tmp_path / "v.json"
    result = run("score", photo, "--calibration", cal, "--json", out, "--jobs", "1", "--lang", "en")
    assert result.exit_code == 0, result.output
    (v,) = json.loads(out.read_text())
    assert v["folder"] == str(photo) and v["position"] == truth["hand"]["position"]
    zone_of = {n["serial"]: n["zone"] for n in truth["notes"]}
    for n in v["notes"]:
        if n["serial"]:
            assert zone_of[n["serial"]] == n["seat"]
    if v["status"] == "scored":
        exp = expected(truth["hand"])
        assert v["winners"] == exp["winners"]
    else:  # every reason names the zone of the photo it is about
        assert v["reasons"] and all(r.startswith("table.jpg[") for r in v["reasons"]), v["reasons"]


def test_a_table_photo_without_a_position_names_its_own_settings_file(sample):
    """The second new-user trial: the hint named hand.json, which a whole-table photo does not read."""
    photo, truth, profile = sample
    folder, readings = table_hand(photo, profile, TableReading(str(photo), _reads(truth), image_size=(1920, 1080)))
    sc = score_hand(folder, readings, {})
    assert sc.status == "needs_review"
    assert 'no playing position: put "position" in table_1.json or pass --position.' in sc.reasons
