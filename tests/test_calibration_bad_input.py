"""Bad input to `dealer-assist calibrate`: one plain sentence, a non-zero exit code, no
traceback, no crash of the process, and no profile overwritten or followed out of its folder."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest
from typer.testing import CliRunner

from dealer_assist.calibration import CalibrationError, load_profile
from dealer_assist.capture import CameraError, check_camera_index, quiet_opencv
from dealer_assist.cli import app

runner = CliRunner()
REPO = Path(__file__).resolve().parents[1]
TABLE_1 = REPO / "sample_images" / "tables" / "table_1.jpg"


def run(*args, env=None):
    result = runner.invoke(app, [str(a) for a in args], env={"COLUMNS": "200", **(env or {})})
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result


def run_process(*args, cal_dir: Path, cwd: Path) -> subprocess.CompletedProcess:
    """The CLI in a real process: a segfault or OpenCV's own log lines show only there."""
    env = {**os.environ, "DEALER_ASSIST_CALIBRATION_DIR": str(cal_dir), "COLUMNS": "200"}
    env.pop("OPENCV_LOG_LEVEL", None)
    return subprocess.run([sys.executable, "-m", "dealer_assist", *map(str, args)], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=120)


@pytest.fixture
def cal_dir(tmp_path, monkeypatch):
    d = tmp_path / "calibration"
    monkeypatch.setenv("DEALER_ASSIST_CALIBRATION_DIR", str(d))
    return d


# -- cameras --------------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("device, shown", [("-1", "-1"), ("-2", "-2"), ("2147483648", "2147483648"),
                                           ("99999999999999999999", "999999999999…")])
def test_a_negative_or_huge_camera_is_a_plain_error_not_a_segfault(tmp_path, device, shown):
    done = run_process("calibrate", "table", "--camera", device, "--aruco", "--seats", "a,b", "-o", "out2.json",
                       cal_dir=tmp_path / "calibration", cwd=tmp_path)
    assert done.returncode == 2, (done.returncode, done.stderr)
    assert done.stderr.strip() == f"Error: Camera {shown} cannot be opened (camera numbers are 0, 1, 2, ..., 9999 at most)."
    assert not (tmp_path / "out2.json").exists()


@pytest.mark.slow
def test_a_missing_camera_is_one_sentence_without_opencv_log_lines(tmp_path):
    done = run_process("calibrate", "table", "--camera", "97", "--aruco", "--seats", "a,b", "-o", "out2.json",
                       cal_dir=tmp_path / "calibration", cwd=tmp_path)
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [
        "Error: Camera 97 cannot be opened (is it connected, and not used by another program?)."]


def test_camera_index_check_and_quiet_opencv_restore_the_log_level():
    assert check_camera_index(0) == 0 and check_camera_index(3) == 3
    for bad in (-1, True, "0", 1.5):
        with pytest.raises(CameraError, match="cannot be opened"):
            check_camera_index(bad)
    before = cv2.utils.logging.getLogLevel()
    with pytest.raises(RuntimeError):
        with quiet_opencv():
            assert cv2.utils.logging.getLogLevel() == cv2.utils.logging.LOG_LEVEL_SILENT
            raise RuntimeError("boom")
    assert cv2.utils.logging.getLogLevel() == before


# -- calibrate pattern ----------------------------------------------------------------


@pytest.mark.parametrize("args, words", [
    (["-o", "pat.txt"], "--output must end in .png or another image type"),
    (["-o", "p.png", "--pattern", "1000x1000", "--square-px", "1000"], "The board would be 1003000 x 1003000 px"),
    (["-o", "p.png", "--square-px", "2000"], "The board would be 24000 x 18000 px"),
])
def test_pattern_refuses_a_file_type_or_size_it_cannot_write(tmp_path, monkeypatch, args, words):
    monkeypatch.chdir(tmp_path)
    result = run("calibrate", "pattern", *args)
    assert result.exit_code == 2, result.output
    assert result.output.startswith("Error: ") and words in result.output
    assert len(result.output.strip().splitlines()) == 1
    assert list(tmp_path.iterdir()) == []


def test_pattern_writes_the_board_it_describes(tmp_path):
    out = tmp_path / "board.png"
    result = run("calibrate", "pattern", "-o", out, "--pattern", "7x5", "--square-px", "40")
    assert result.exit_code == 0, result.output
    board = cv2.imread(str(out), cv2.IMREAD_GRAYSCALE)
    assert board.shape == ((5 + 3) * 40, (7 + 3) * 40)
    found, corners = cv2.findChessboardCorners(board, (7, 5))
    assert found and len(corners) == 35


def test_pattern_says_its_printed_size_and_writes_it_into_the_png(tmp_path):
    from PIL import Image

    out = tmp_path / "board.png"
    result = run("calibrate", "pattern", "-o", out, "--pattern", "9x6", "--square-px", "118", "--dpi", "300")
    assert result.exit_code == 0, result.output
    with Image.open(out) as image:
        assert [round(v) for v in image.info["dpi"]] == [300, 300]  # PNG pHYs, in dots per metre
        assert image.size == (12 * 118, 9 * 118)
    text = " ".join(result.output.split())
    assert "squares of 10.0 mm" in text and "the board 120 x 90 mm" in text  # 118 px / 300 dpi = 9.99 mm


# -- calibrate table: a plane mostly outside the photo ---------------------------------


def _corners_profile(cal_dir: Path, name: str) -> bytes:
    result = run("calibrate", "table", "--image", TABLE_1, "--corners", "0,0 1919,0 1919,1079 0,1079",
                 "--table-mm", "1000,700", "--seats", "a,b", "-o", name)
    assert result.exit_code == 0, result.output
    return (cal_dir / f"{name}.json").read_bytes()


@pytest.mark.parametrize("corners, share", [
    ("-5000,-5000 99999,0 99999,99999 0,99999", "0%"),
    ("-3000,0 1919,0 1919,1079 -3000,1079", "40%"),
])
def test_a_plane_mostly_outside_the_photo_is_refused_and_the_profile_kept(cal_dir, corners, share):
    before = _corners_profile(cal_dir, "out1")
    result = run("calibrate", "table", "--image", TABLE_1, "--corners", corners, "--table-mm", "1000,700",
                 "--seats", "a,b", "-o", "out1")
    assert result.exit_code == 2, result.output
    assert result.output.startswith(f"Error: The fitted plane puts only {share} of the 1000 x 700 mm table "
                                    f"inside the 1920 x 1080 px photo")
    assert len(result.output.strip().splitlines()) == 1
    assert (cal_dir / "out1.json").read_bytes() == before


def test_share_in_photo_measures_the_surface_in_view():
    from dealer_assist.calibration.table import homography_from_corners, share_in_photo

    whole = homography_from_corners(np.array([[0, 0], [1920, 0], [1920, 1080], [0, 1080]]), (1000, 700))
    assert share_in_photo(whole.homography, (1000, 700), (1920, 1080)) == 1.0
    # the left half of the table runs off the left edge of the photo
    half = homography_from_corners(np.array([[-960, 0], [960, 0], [960, 1080], [-960, 1080]]), (1000, 700))
    assert share_in_photo(half.homography, (1000, 700), (1920, 1080)) == pytest.approx(0.5)
    # a plane whose horizon crosses the table: part of it would lie behind the camera
    g = np.array([[1.0, 0, 0], [0, 1.0, 0], [0, -0.01, 1.0]])  # mm -> image px; w = 0 at y = 100 mm
    assert (np.array([0, 0, 1]) @ g.T)[2] > 0 > (np.array([0, 700, 1]) @ g.T)[2]
    assert share_in_photo(np.linalg.inv(g), (1000, 700), (1920, 1080)) == 0.0


# -- the default pointer and the listing --------------------------------------------------

POINTER = "dealer-assist/calibration-pointer"
SAMPLE = REPO / "calibration" / "sample_table_1.json"


@pytest.mark.parametrize("target", ["../../../etc/passwd", "/etc/passwd", "../outside.json", "sub/inner"])
def test_a_pointer_out_of_the_calibration_folder_is_not_followed(cal_dir, tmp_path, target):
    cal_dir.mkdir()
    (cal_dir / "sub").mkdir()
    (cal_dir / "sub" / "inner.json").write_bytes(SAMPLE.read_bytes())
    (tmp_path / "outside.json").write_bytes(SAMPLE.read_bytes())  # a valid profile, so only the path is wrong
    (cal_dir / "default.json").write_text(json.dumps({"schema": POINTER, "version": 1, "profile": target}))
    with pytest.raises(CalibrationError, match="which is not a profile name"):
        load_profile()
    result = run("calibrate", "show")
    assert result.exit_code == 2
    assert result.output.startswith(f"Error: {cal_dir / 'default.json'} points to {target!r}, which is not a "
                                    f"profile name")
    assert len(result.output.strip().splitlines()) == 1


def test_list_marks_the_profiles_that_do_not_load(cal_dir):
    cal_dir.mkdir()
    (cal_dir / "good.json").write_bytes(SAMPLE.read_bytes())
    (cal_dir / "bin.json").write_bytes(b"\x7fELF\x02\x01\x01\x00\xd0\xff" * 30)
    (cal_dir / "dir.json").mkdir()
    (cal_dir / "cut.json").write_text('{"schema": "dealer-assist/calibration", "vers')
    (cal_dir / "default.json").write_text(json.dumps({"schema": POINTER, "version": 1, "profile": "good"}))
    result = run("calibrate", "list")
    assert result.exit_code == 0, result.output
    assert result.output.splitlines() == [
        "  bin  (unusable: it is not UTF-8 text, so it is no calibration profile)",
        "  cut  (unusable: it is not valid JSON (Unterminated string starting at: column 41), so it is no calibration "
        "profile)",
        "  dir  (unusable: it is a folder, not a file, so it is no calibration profile)",
        "* good",
        "  (samples usable by name: sample_table_1, sample_table_2)",  # always named (sixth new-user trial L2)
    ]


@pytest.mark.parametrize("pointer, reason", [
    ({"schema": POINTER, "version": 1, "profile": "gone"}, "it points to 'gone', which does not exist"),
    ({"schema": POINTER, "version": 1, "profile": "../x"}, "it points to '../x', which is not a profile name"),
])
def test_list_names_a_broken_default_pointer(cal_dir, pointer, reason):
    cal_dir.mkdir()
    (cal_dir / "good.json").write_bytes(SAMPLE.read_bytes())
    (cal_dir / "default.json").write_text(json.dumps(pointer))
    lines = run("calibrate", "list").output.splitlines()
    assert lines[0] == "  good"
    assert lines[1].startswith(f"  default  (unusable: {reason}")
    assert lines[2:] == ["  (samples usable by name: sample_table_1, sample_table_2)"]


# -- JSON that the json module itself refuses with something other than a JSONDecodeError ------


@pytest.mark.parametrize("text, words", [
    ('{"schema": "dealer-assist/calibration", "version": ' + "1" * 5000 + "}", "holds a number of over 4300 digits"),
    ("[" * 100_000, "is nested too deeply (more than 64 levels of [ and {)"),
])
def test_json_python_cannot_read_is_a_plain_error(cal_dir, tmp_path, text, words):
    cal_dir.mkdir()
    (cal_dir / "odd.json").write_text(text)
    shown = run("calibrate", "show", "-c", "odd")
    assert shown.exit_code == 2 and words in shown.output and len(shown.output.strip().splitlines()) == 1
    zones = tmp_path / "zones.json"
    zones.write_text(text)
    made = run("calibrate", "table", "--image", TABLE_1, "--corners", "0,0 1919,0 1919,1079 0,1079",
               "--table-mm", "1000,700", "--zones", zones, "-o", "z")
    assert made.exit_code == 2 and f"{zones} {words}" in made.output and "so it gives no zones." in made.output
    assert not (cal_dir / "z.json").exists()


@pytest.mark.slow
@pytest.mark.parametrize("command", [["list"], ["show", "-c", "good"], ["show", "-c", "good", "--json"]])
def test_a_full_disk_is_one_sentence(tmp_path, command):
    cal_dir = tmp_path / "calibration"
    cal_dir.mkdir()
    (cal_dir / "good.json").write_bytes(SAMPLE.read_bytes())
    env = {**os.environ, "DEALER_ASSIST_CALIBRATION_DIR": str(cal_dir)}
    with open("/dev/full", "w") as full:
        done = subprocess.run([sys.executable, "-m", "dealer_assist", "calibrate", *command], cwd=tmp_path, env=env,
                              stdout=full, stderr=subprocess.PIPE, text=True, timeout=120)
    assert done.returncode == 1
    assert done.stderr == "cannot write output: no space left on device.\n"


@pytest.mark.slow
def test_check_does_not_write_its_annotated_copy_over_the_photo(tmp_path):
    photo = tmp_path / "table.jpg"
    photo.write_bytes((REPO / "sample_images" / "tables" / "table_1.jpg").read_bytes())
    before = photo.read_bytes()
    done = run_process("calibrate", "check", str(photo), "--calibration", str(REPO / "calibration" / "sample_table_1.json"), "--output", str(photo),
                       cal_dir=tmp_path / "calibration", cwd=tmp_path)
    assert done.returncode == 2
    assert "is the photo being checked" in done.stderr and len(done.stderr.strip().splitlines()) == 1
    assert photo.read_bytes() == before


def test_a_default_pointing_to_a_missing_profile_names_that_profile(cal_dir):
    from dealer_assist.calibration import load_profile
    from dealer_assist.calibration.profile import CalibrationError

    cal_dir.mkdir(parents=True, exist_ok=True)
    (cal_dir / "default.json").write_text(
        '{"schema": "dealer-assist/calibration-pointer", "version": 1, "profile": "gone"}\n', encoding="utf-8")
    with pytest.raises(CalibrationError, match=r"^The default profile is 'gone' .*gone\.json does not exist"):
        load_profile(None)


def test_version_true_is_not_version_1(tmp_path):
    from dealer_assist.calibration import load_profile
    from dealer_assist.calibration.profile import CalibrationError

    path = tmp_path / "p.json"
    path.write_text('{"schema": "dealer-assist/calibration", "version": true}', encoding="utf-8")
    with pytest.raises(CalibrationError, match="calibration version True"):
        load_profile(path)


@pytest.mark.slow
@pytest.mark.parametrize("args, words", [
    (["--marker-mm", "5000"], "'--marker-mm'"),
    (["--table-mm", "100000,70000"], "The fit gives a table of 100.0 x 70.0 m"),
])
def test_table_sizes_in_the_wrong_unit_are_refused(tmp_path, args, words):
    done = run_process("calibrate", "table", "--image", REPO / "sample_images" / "tables" / "table_1.jpg", "--aruco",
                       "--seats", "a,b", "-o", "out.json", *args, cal_dir=tmp_path / "calibration", cwd=tmp_path)
    assert done.returncode == 2, done.stderr
    assert words in done.stderr and "Traceback" not in done.stderr
    assert not (tmp_path / "out.json").exists()


@pytest.mark.slow
def test_a_zone_outside_the_table_is_noted(tmp_path):
    zones = tmp_path / "zones.json"
    zones.write_text(json.dumps({"zones": [
        {"name": "board", "kind": "board", "polygon_mm": [[400, 250], [600, 250], [600, 450], [400, 450]]},
        {"name": "P1", "kind": "seat", "polygon_mm": [[3000, 0], [3200, 0], [3200, 200], [3000, 200]]}]}),
        encoding="utf-8")
    done = run_process("calibrate", "table", "--image", REPO / "sample_images" / "tables" / "table_1.jpg", "--aruco",
                       "--zones", zones, "-o", "out.json", cal_dir=tmp_path / "calibration", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "the zone P1 is centred at (3100, 100) mm, outside the" in done.stderr
