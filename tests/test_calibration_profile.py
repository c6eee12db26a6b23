"""Calibration profiles: save/load round trip, the default pointer, coordinates and zones,
and every bad file (one plain sentence, non-zero exit, no traceback)."""

from __future__ import annotations

import json

import numpy as np
import pytest
from typer.testing import CliRunner

from dealer_assist.calibration import CalibrationError, load_profile, save_profile, set_default
from dealer_assist.calibration.profile import (
    CameraModel,
    NoteLayout,
    PrintLayout,
    Profile,
    TablePlane,
)
from dealer_assist.calibration.store import list_profiles, profile_path
from dealer_assist.calibration.table import auto_zones, homography_from_corners
from dealer_assist.vision.geometry import quad_centre
from dealer_assist.cli import app

runner = CliRunner()

CORNERS_PX = np.array([[412.0, 95.0], [1530.0, 140.0], [1610.0, 1010.0], [300.0, 960.0]])
SIZE_MM = (1000.0, 700.0)


@pytest.fixture
def cal_dir(tmp_path, monkeypatch):
    d = tmp_path / "calibration"
    monkeypatch.setenv("DEALER_ASSIST_CALIBRATION_DIR", str(d))
    return d


def _camera() -> CameraModel:
    k = np.array([[1500.0, 0, 955.0], [0, 1495.0, 548.0], [0, 0, 1]])
    return CameraModel(k, np.array([-0.21, 0.09, 0.001, -0.0005, 0.0]), (1920, 1080), 0.21, 14)


def _profile(camera: CameraModel | None = None, seats=("alice", "boris", "chen", "dana")) -> Profile:
    fit = homography_from_corners(CORNERS_PX, SIZE_MM)
    table = TablePlane((1920, 1080), fit.homography, SIZE_MM, tuple(auto_zones(seats, SIZE_MM)),
                       {"source": {"method": "corners"}})
    notes = NoteLayout(2.275, (PrintLayout("top_right", (0.79, 0.16, 0.96, 0.23), (110.0, 100.0, 180.0), "red"),
                               PrintLayout("left", (0.03, 0.59, 0.2, 0.67), (60.0, 70.0, 55.0), "dark")), 3)
    return Profile("t", None, camera, table, notes)


def run(*args):
    result = runner.invoke(app, list(args), env={"COLUMNS": "200"})
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result


# -- round trip ----------------------------------------------------------------


def test_save_then_load_gives_the_same_profile(cal_dir):
    original = _profile(_camera())
    saved = save_profile(original, "mytable")
    assert saved.path == cal_dir / "mytable.json" and saved.name == "mytable"
    back = load_profile("mytable")
    assert back.name == "mytable" and back.path == saved.path
    np.testing.assert_allclose(back.camera.camera_matrix, original.camera.camera_matrix)
    np.testing.assert_allclose(back.camera.dist_coeffs, original.camera.dist_coeffs)
    assert back.camera.image_size == (1920, 1080) and back.camera.rms == 0.21 and back.camera.views_used == 14
    np.testing.assert_allclose(back.table.homography, original.table.homography, rtol=1e-12)
    assert back.table.seats == ["alice", "boris", "chen", "dana"]
    assert [z.name for z in back.table.zones] == ["board", "alice", "boris", "chen", "dana"]
    for a, b in zip(back.table.zones, original.table.zones):
        np.testing.assert_allclose(a.polygon_mm, b.polygon_mm, atol=1e-3)
    assert back.table.extra["source"] == {"method": "corners"}
    assert back.notes.prints[0] == PrintLayout("top_right", (0.79, 0.16, 0.96, 0.23), (110.0, 100.0, 180.0), "red")
    assert back.notes.aspect == pytest.approx(2.275) and back.notes.samples == 3
    obj = json.loads(saved.path.read_text())
    assert obj["schema"] == "dealer-assist/calibration" and obj["version"] == 1
    # a path works as well as a name, and gives the same profile
    assert load_profile(str(saved.path)).table.seats == back.table.seats


def test_saving_leaves_no_temporary_file_and_replaces_atomically(cal_dir):
    save_profile(_profile(), "a")
    save_profile(_profile(seats=("x", "y")), "a")
    assert sorted(p.name for p in cal_dir.iterdir()) == ["a.json"]
    assert load_profile("a").seats == ["x", "y"]


def test_a_profile_with_only_a_camera_section_loads(cal_dir):
    save_profile(Profile("cam", camera=_camera()), "cam")
    p = load_profile("cam")
    assert p.table is None and p.notes is None and p.camera.views_used == 14
    with pytest.raises(CalibrationError, match="has no table section"):
        p.zone_of((500, 500))


def test_default_pointer_and_listing(cal_dir):
    save_profile(_profile(), "one")
    save_profile(_profile(seats=("p", "q", "r")), "two")
    with pytest.raises(CalibrationError, match="No calibration profile was given and no default is set"):
        load_profile()
    set_default("two")
    assert load_profile().seats == ["p", "q", "r"] and load_profile(None).name == "two"
    assert profile_path("default") == cal_dir / "two.json"
    assert list_profiles() == ["one", "two"]
    with pytest.raises(CalibrationError):
        set_default("nowhere")
    (cal_dir / "default.json").write_text(json.dumps(
        {"schema": "dealer-assist/calibration-pointer", "version": 1, "profile": "default"}))
    with pytest.raises(CalibrationError, match="points to no usable profile"):
        load_profile()


# -- geometry ------------------------------------------------------------------


def test_zone_of_maps_image_points_through_the_homography():
    p = _profile()
    for z in p.table.zones:
        centre_px = p.to_image_px(z.centre_mm.reshape(1, 2))[0]
        assert p.zone_of(centre_px) == z.name
    outside = p.to_image_px(np.array([[5.0, 5.0]]))[0]  # the table's corner: no zone
    assert p.zone_of(outside) is None
    np.testing.assert_allclose(p.to_table_mm(CORNERS_PX), [[0, 0], [1000, 0], [1000, 700], [0, 700]], atol=1e-6)


def test_zone_of_undistorts_first_when_there_is_a_camera_section():
    cam = _camera()
    p = _profile(cam)
    mm = np.array([[100.0, 80.0], [500.0, 350.0], [930.0, 640.0], [20.0, 690.0]])
    px = p.to_image_px(mm)
    np.testing.assert_allclose(p.to_table_mm(px), mm, atol=1e-4)
    # the distorted point differs from the pinhole projection: undistortion matters near the corners
    pinhole = p.to_image_px(mm[[2]])[0]
    plain = Profile("plain", table=p.table).to_image_px(mm[[2]])[0]
    assert np.linalg.norm(pinhole - plain) > 5
    for z in p.table.zones:
        assert p.zone_of(p.to_image_px(z.centre_mm.reshape(1, 2))[0]) == z.name


def test_assign_notes_uses_the_true_centre_of_each_quad():
    p = _profile()
    quads, expected = [], []
    for z in p.table.zones:
        c = z.centre_mm
        note_mm = c + np.array([[-78.5, -34.5], [78.5, -34.5], [78.5, 34.5], [-78.5, 34.5]])
        quads.append(p.to_image_px(note_mm))
        expected.append(z.name)
    quads.append(p.to_image_px(np.array([[0, 0], [60, 0], [60, 30], [0, 30.0]])))
    expected.append(None)
    assert p.assign_notes(quads) == expected
    # a rectangle's centre is where the diagonals cross, under perspective too
    q_mm = np.array([[100.0, 100.0], [257.0, 100.0], [257.0, 169.0], [100.0, 169.0]])
    np.testing.assert_allclose(p.quad_centre_mm(p.to_image_px(q_mm)), [178.5, 134.5], atol=1e-6)
    np.testing.assert_allclose(quad_centre(q_mm), [178.5, 134.5])


def test_a_downscaled_photo_is_rescaled_and_another_shape_refused():
    p = _profile()
    centre_px = p.to_image_px(np.array([[500.0, 350.0]]))[0]
    assert p.zone_of(centre_px / 2, image_size=(960, 540)) == "board"
    np.testing.assert_allclose(p.to_table_mm(centre_px / 2, image_size=(960, 540))[0], [500, 350], atol=1e-6)
    with pytest.raises(CalibrationError, match="1280x1024 px .* 1920x1080"):
        p.zone_of((100, 100), image_size=(1280, 1024))


def test_print_rois_on_a_rectified_note():
    layout = _profile().notes
    rois = dict(layout.print_rois((1150, 505)))
    assert rois["top_right"] == (908, 80, 1104, 117)
    assert rois["left"] == (34, 297, 230, 339)
    turned = dict(layout.print_rois((1150, 505), upside_down=True))
    assert turned["top_right"] == (46, 388, 242, 425)
    # half the print's height (0.07 * 505 px) added on every side, the same number of px in x and y
    grown = dict(layout.print_rois((1150, 505), margin=0.5))
    assert grown["top_right"] == (890, 63, 1122, 134)
    assert all(0 <= v for _, b in layout.print_rois((1150, 505), margin=5) for v in b)


# -- bad files -----------------------------------------------------------------

BAD = {
    "not JSON": ("{ not json", "is not valid JSON"),
    "empty": ("", "is empty (it holds no JSON), so it is no calibration profile"),
    "a list": ("[1, 2]", "holds no JSON object"),
    "wrong schema": (json.dumps({"schema": "other", "version": 1}), "is not a calibration profile"),
    "future version": (json.dumps({"schema": "dealer-assist/calibration", "version": 7}), "version 7"),
    "bad homography": (None, "table.homography"),
    "singular homography": (None, "not invertible"),
    "two boards": (None, "exactly one board"),
    "repeated seat": (None, "unique"),
    "NaN in camera": (None, "holds NaN, which is not a number JSON allows"),
}


def _bad_text(kind: str) -> str:
    text, _ = BAD[kind]
    if text is not None:
        return text
    obj = _profile(_camera()).to_json()
    if kind == "bad homography":
        obj["table"]["homography"] = [[1, 0], [0, 1]]
    elif kind == "singular homography":
        obj["table"]["homography"] = [[1, 2, 3], [2, 4, 6], [0, 0, 1]]
    elif kind == "two boards":
        obj["table"]["zones"][1]["kind"] = "board"
    elif kind == "repeated seat":
        obj["table"]["zones"][2]["name"] = obj["table"]["zones"][1]["name"]
    elif kind == "NaN in camera":
        obj["camera"]["camera_matrix"][0][0] = float("nan")
    return json.dumps(obj)


@pytest.mark.parametrize("kind", sorted(BAD))
def test_a_corrupt_profile_is_one_plain_error(cal_dir, kind):
    cal_dir.mkdir(parents=True, exist_ok=True)
    path = cal_dir / "broken.json"
    path.write_text(_bad_text(kind))
    with pytest.raises(CalibrationError) as err:
        load_profile("broken")
    msg = str(err.value)
    assert BAD[kind][1] in msg and str(path) in msg and "\n" not in msg
    result = run("calibrate", "show", "--calibration", "broken")
    assert result.exit_code == 2
    assert result.output.strip().startswith("Error: ") and BAD[kind][1] in result.output
    assert len(result.output.strip().splitlines()) == 1


def test_a_missing_profile_is_one_plain_error(cal_dir):
    with pytest.raises(CalibrationError, match="No calibration profile named 'nowhere'"):
        load_profile("nowhere")
    with pytest.raises(CalibrationError, match="No calibration file at"):
        load_profile(str(cal_dir / "x" / "nowhere.json"))
    with pytest.raises(CalibrationError, match="not a profile name"):
        load_profile("bad name!")
    for args in (["calibrate", "show", "--calibration", "nowhere"], ["calibrate", "show"],
                 ["calibrate", "check", "x.jpg", "--calibration", "nowhere", "--output", "o.jpg"]):
        result = run(*args)
        assert result.exit_code == 2 and result.output.startswith("Error: No calibration profile named" if "nowhere" in args
                                                                  else "Error: No calibration profile was given")


def test_writing_over_a_corrupt_file_is_refused_and_leaves_it(cal_dir, tmp_path):
    cal_dir.mkdir(parents=True)
    (cal_dir / "t.json").write_text("{oops")
    img = tmp_path / "x.png"
    img.write_bytes(b"")
    result = run("calibrate", "table", "--image", str(img), "--corners", "1,1 9,1 9,9 1,9", "--table-mm", "1000,700",
                 "--seats", "a,b", "--output", "t")
    assert result.exit_code == 2 and "Refusing to overwrite" in result.output
    assert (cal_dir / "t.json").read_text() == "{oops"


def test_show_prints_every_section(cal_dir):
    save_profile(_profile(_camera()), "full")
    result = run("calibrate", "show", "--calibration", "full")
    assert result.exit_code == 0, result.output
    out = result.output
    assert "1500.0, 1495.0 px" in out and "955.0, 548.0 px" in out
    assert "seats clockwise: alice, boris, chen, dana" in out and "board" in out
    assert "top_right" in out and "red" in out and "aspect 2.275" in out
    as_json = json.loads(run("calibrate", "show", "--calibration", "full", "--json").stdout)
    assert as_json["table"]["table_size_mm"] == [1000.0, 700.0]


def test_writing_to_a_default_pointer_is_refused_with_what_to_do(cal_dir, tmp_path):
    save_profile(_profile(), "one")
    set_default("one")
    img = tmp_path / "x.png"
    img.write_bytes(b"")
    result = run("calibrate", "table", "--image", str(img), "--corners", "1,1 9,1 9,9 1,9", "--table-mm", "1000,700",
                 "--seats", "a,b", "--output", "default")
    assert result.exit_code == 2 and "points to the profile 'one'" in result.output
    assert "calibrate use NAME" in result.output and load_profile().name == "one"
