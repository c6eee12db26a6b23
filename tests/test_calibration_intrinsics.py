"""Camera calibration: chessboard views rendered through a known camera with radial
distortion give back its focal lengths and principal point within 1%; the command's
JSON output and its errors; the no-display fallback of live capture."""

from __future__ import annotations

import json

import cv2
import numpy as np
import pytest
from typer.testing import CliRunner

from dealer_assist.calibration import CalibrationError, load_profile
from dealer_assist.calibration.intrinsics import (
    board_points_mm,
    calibrate_views,
    coverage,
    find_chessboard,
    parse_pattern,
)
from dealer_assist.calibration.chessboard import board_pose, chessboard_image, render_views
from dealer_assist.calibration.interactive import CaptureState, capture_chessboard_views, draw_capture_overlay
from dealer_assist.calibration.profile import CameraModel
from dealer_assist.cli import app

runner = CliRunner()
PATTERN, SQUARE_MM = (9, 6), 25.0
#: The true camera: 800x600 px, principal point off centre, strong barrel distortion.
TRUE_K = np.array([[820.0, 0.0, 412.0], [0.0, 815.0, 296.0], [0.0, 0.0, 1.0]])
TRUE_DIST = np.array([-0.28, 0.11, 0.0, 0.0, 0.0])
TRUE = CameraModel(TRUE_K, TRUE_DIST, (800, 600))


def poses(n: int, seed: int = 1):
    rng = np.random.default_rng(seed)
    centre = ((PATTERN[0] + 1) * SQUARE_MM / 2, (PATTERN[1] + 1) * SQUARE_MM / 2)
    return [board_pose(rng.uniform(-35, 35), rng.uniform(-35, 35), rng.uniform(-20, 20),
                       (rng.uniform(-90, 90), rng.uniform(-60, 60)), rng.uniform(420, 600), centre) for _ in range(n)]


@pytest.fixture(scope="module")
def views():
    return render_views(TRUE, poses(12), PATTERN, SQUARE_MM)


@pytest.fixture(scope="module")
def shots(views, tmp_path_factory):
    d = tmp_path_factory.mktemp("shots")
    for i, v in enumerate(views):
        cv2.imwrite(str(d / f"view_{i:02d}.png"), v)
    return d


def run(*args, env=None):
    result = runner.invoke(app, list(args), env={"COLUMNS": "200", **(env or {})})
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result


@pytest.mark.slow
def test_rendered_corners_lie_where_the_true_camera_projects_them(views):
    r, t = poses(12)[0]
    expected, _ = cv2.projectPoints(board_points_mm(PATTERN, SQUARE_MM), r, t, TRUE_K, TRUE_DIST)
    found = find_chessboard(views[0], PATTERN)
    assert found is not None
    d = np.linalg.norm(found - expected.reshape(-1, 2), axis=1)
    if d.mean() > 50:  # OpenCV may number a symmetric board from the other end
        d = np.linalg.norm(found[::-1] - expected.reshape(-1, 2), axis=1)
    assert d.max() < 0.3


@pytest.mark.slow  # its fixture renders views, scenes or photos
def test_focal_lengths_and_principal_point_recovered_within_1_percent(views):
    found = [find_chessboard(v, PATTERN) for v in views]
    assert sum(f is not None for f in found) == 12
    fit = calibrate_views([f for f in found if f is not None], TRUE.image_size, PATTERN, SQUARE_MM)
    k = fit.camera.camera_matrix
    for (i, j) in ((0, 0), (1, 1), (0, 2), (1, 2)):
        assert k[i, j] == pytest.approx(TRUE_K[i, j], rel=0.01), (i, j, k[i, j])
    assert fit.camera.dist_coeffs[0] == pytest.approx(-0.28, abs=0.02)
    assert fit.camera.rms < 0.2 and max(fit.per_view_rms) < 0.3
    assert fit.camera.views_used == 12 and fit.camera.extra == {"pattern": [9, 6], "square_mm": 25.0}
    # undistorting with the recovered model straightens what the true lens bent (where the views reach)
    pts = np.array([[120.0, 90.0], [680.0, 510.0], [400.0, 300.0]])
    np.testing.assert_allclose(fit.camera.undistort_points(pts), TRUE.undistort_points(pts), atol=1.0)


def test_fewer_than_three_views_is_an_error():
    with pytest.raises(CalibrationError, match="at least 3"):
        calibrate_views([np.zeros((54, 2))] * 2, (800, 600), PATTERN, SQUARE_MM)


@pytest.mark.parametrize("text", ["9", "9x", "2x6", "axb", "", "9x6x3"])
def test_a_bad_pattern_is_a_plain_error(text):
    with pytest.raises(CalibrationError, match="COLSxROWS"):
        parse_pattern(text)
    assert parse_pattern(" 7 x 5 ") == (7, 5)


def test_coverage_counts_the_cells_seen():
    cells = coverage([np.array([[10.0, 10.0], [790.0, 590.0]])], (800, 600), grid=(4, 3))
    assert cells.sum() == 2 and cells[0, 0] and cells[2, 3]


def test_printable_board_is_found_by_opencv():
    img = chessboard_image(PATTERN, 40)
    assert img.shape == (7 * 40 + 80, 10 * 40 + 80)
    corners = find_chessboard(img, PATTERN)
    assert corners is not None and len(corners) == 54


# -- the command ----------------------------------------------------------------


@pytest.mark.slow  # its fixture renders views, scenes or photos
def test_calibrate_camera_from_files_prints_json_and_writes_the_profile(shots, tmp_path, monkeypatch):
    monkeypatch.setenv("DEALER_ASSIST_CALIBRATION_DIR", str(tmp_path / "cal"))
    (shots / "blank.png").write_bytes(cv2.imencode(".png", np.full((600, 800), 200, np.uint8))[1].tobytes())
    result = run("calibrate", "camera", "--images", str(shots / "*.png"), "--pattern", "9x6", "--square-mm", "25",
                 "--output", "cam", "--json")
    assert result.exit_code == 0, result.output
    obj = json.loads(result.stdout)
    assert set(obj) >= {"camera_matrix", "dist_coeffs", "rms", "image_size", "views_used"}
    assert obj["views_used"] == 12 and obj["image_size"] == [800, 600]
    k = np.array(obj["camera_matrix"])
    np.testing.assert_allclose(k[[0, 1, 0, 1], [0, 1, 2, 2]], [820, 815, 412, 296], rtol=0.01)
    assert obj["unusable"] == {str(shots / "blank.png"): "no whole 9x6 chessboard found"}
    assert "skipped" in result.stderr and "blank.png" in result.stderr
    profile = load_profile("cam")
    np.testing.assert_allclose(profile.camera.camera_matrix, k)
    (shots / "blank.png").unlink()


@pytest.mark.slow  # its fixture renders views, scenes or photos
def test_too_few_usable_views_names_the_unusable_files(views, tmp_path):
    for i in range(2):
        cv2.imwrite(str(tmp_path / f"good_{i}.png"), views[i])
    cv2.imwrite(str(tmp_path / "wall.png"), np.full((600, 800), 90, np.uint8))
    (tmp_path / "broken.png").write_bytes(b"not an image")
    out = tmp_path / "cam.json"
    result = run("calibrate", "camera", "--images", str(tmp_path / "*.png"), "--output", str(out))
    assert result.exit_code == 2
    msg = result.output.strip()
    assert msg.startswith("Error: Only 2 of 4 photo(s) can be used (at least 3 are needed)")
    assert "wall.png (no whole 9x6 chessboard found)" in msg and "broken.png (not an image" in msg
    assert len(msg.splitlines()) == 1 and not out.exists()


def test_no_match_and_no_source_are_plain_errors(tmp_path):
    result = run("calibrate", "camera", "--images", str(tmp_path / "*.jpg"), "--output", str(tmp_path / "c.json"))
    assert result.exit_code == 2 and "matches no file" in result.output
    result = run("calibrate", "camera", "--output", str(tmp_path / "c.json"))
    assert result.exit_code == 2 and "--images GLOB" in result.output


def test_live_capture_without_a_display_falls_back_with_a_clear_message(tmp_path, monkeypatch):
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    result = run("calibrate", "camera", "--camera", "0", "--output", str(tmp_path / "c.json"))
    assert result.exit_code == 2
    assert "No display is available" in result.output and "--images GLOB" in result.output
    assert not (tmp_path / "c.json").exists()


class _Frames:
    """A scripted camera: each frame once, then the end."""

    def __init__(self, frames):
        self.frames = list(frames)
        self.released = False

    def read(self):
        if not self.frames:
            return False, None
        return True, cv2.cvtColor(self.frames.pop(0), cv2.COLOR_GRAY2BGR)

    def release(self):
        self.released = True


@pytest.mark.slow  # its fixture renders views, scenes or photos
def test_capture_loop_keeps_views_on_space_and_stops_on_q(views):
    keys = iter([ord(" "), 0, ord(" "), ord(" "), ord("q")])
    shown = []
    source = _Frames([views[0], np.full((600, 800), 128, np.uint8), views[1], views[2], views[3]])
    state = capture_chessboard_views(source, PATTERN, min_views=10, show=shown.append, wait_key=lambda: next(keys))
    assert source.released and len(shown) == 5
    assert len(state.views) == 3 and state.image_size == (800, 600)
    assert 0 < state.coverage() <= 1
    overlay = draw_capture_overlay(cv2.cvtColor(views[0], cv2.COLOR_GRAY2BGR), state, PATTERN, 10)
    assert overlay.shape == (600, 800, 3)
    cancelled = capture_chessboard_views(_Frames([views[0]]), PATTERN, show=lambda _: None, wait_key=lambda: 27)
    assert cancelled is None
    assert CaptureState().coverage() == 0.0
