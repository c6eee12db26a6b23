"""Camera control (issue 13): what a numbered camera is asked for, what the header shows, and the
options' errors. A bare ``cv2.VideoCapture(index)`` gives 640x480 on most USB webcams under Linux."""

from __future__ import annotations

import cv2
import pytest
from typer.testing import CliRunner

from dealer_assist.app.frame_loop import frame_label
from dealer_assist.capture import CameraError, CaptureMode, configure_capture, parse_camera_size, parse_fourcc
from dealer_assist.cli.app import app
from dealer_assist.live.frame_source import open_source
from dealer_assist.live.session import LiveSession
from dealer_assist.live.table_state import TableState
from dealer_assist.live.worker import InlineWorker

from live_helpers import plain_profile, write_frames


class FakeCapture:
    """Records what is asked; gives the largest mode it has for a request above it."""

    def __init__(self, modes=((640, 480), (1920, 1080), (3840, 2160))) -> None:
        self.modes = modes
        self.props = {cv2.CAP_PROP_FRAME_WIDTH: 640.0, cv2.CAP_PROP_FRAME_HEIGHT: 480.0}
        self.calls = []

    def set(self, prop, value):
        self.calls.append((prop, value))
        if prop == cv2.CAP_PROP_FRAME_HEIGHT:
            w = self.props[cv2.CAP_PROP_FRAME_WIDTH]
            fit = [m for m in self.modes if m[0] <= w and m[1] <= value] or [self.modes[0]]
            self.props[cv2.CAP_PROP_FRAME_WIDTH], self.props[cv2.CAP_PROP_FRAME_HEIGHT] = map(float, max(fit))
        elif prop == cv2.CAP_PROP_FRAME_WIDTH:
            self.props[prop] = float(value)
        return True

    def get(self, prop):
        return self.props.get(prop, 0.0)


def test_a_camera_is_asked_for_its_largest_mode_in_mjpg_by_default():
    cap = FakeCapture()
    assert configure_capture(cap, CaptureMode()) == (3840, 2160)
    assert cap.calls[0] == (cv2.CAP_PROP_FOURCC, cv2.VideoWriter_fourcc(*"MJPG"))  # the format first


def test_a_size_and_a_format_asked_for_are_what_the_camera_is_asked():
    cap = FakeCapture()
    assert configure_capture(cap, CaptureMode((1920, 1080), "YUYV")) == (1920, 1080)
    assert (cv2.CAP_PROP_FOURCC, cv2.VideoWriter_fourcc(*"YUYV")) in cap.calls


@pytest.mark.parametrize("text", ["1920", "1920x", "x1080", "0x0", "99999x1080", "1920x1080x3", "abc"])
def test_a_bad_camera_size_is_one_sentence(text):
    with pytest.raises(CameraError, match=r"--camera-size must be WIDTHxHEIGHT"):
        parse_camera_size(text)


def test_fourcc_is_four_characters():
    assert parse_fourcc("mjpg") == "MJPG" and parse_fourcc(None) is None
    with pytest.raises(CameraError, match="four letters or digits"):
        parse_fourcc("H.264")


def test_the_options_refuse_bad_values_before_opening_anything(tmp_path):
    r = CliRunner().invoke(app, ["live", "--camera", "0", "--camera-size", "big", "--position", "4"])
    assert r.exit_code == 2 and "--camera-size must be WIDTHxHEIGHT" in r.output
    r = CliRunner().invoke(app, ["live", "--camera", "0", "--fourcc", "toolong", "--position", "4"])
    assert r.exit_code == 2 and "--fourcc must be four letters" in r.output


def test_a_file_url_is_played_back_and_ends(tmp_path):
    frames = write_frames(tmp_path / "f", 2)
    video = tmp_path / "clip.avi"
    out = cv2.VideoWriter(str(video), cv2.VideoWriter_fourcc(*"MJPG"), 4.0, (320, 180))
    for path in sorted((tmp_path / "f").glob("*.png")):
        out.write(cv2.imread(str(path)))
    out.release()
    source = open_source(f"file://{video}")
    assert not source.live  # a file, not a stream to reconnect forever at its end
    assert frames


def test_the_header_names_the_real_resolution_and_the_scale_over_the_table(tmp_path):
    profile = plain_profile((1920, 1080), ["A", "B"])
    session = LiveSession(profile, TableState(("A", "B"), 4), InlineWorker(read=lambda job: ()))
    session._setup(cv2.imread(write_frames(tmp_path, 1, (1920, 1080)).replace("*.png", "frame_0000.png")))
    # 1920 px over the 1000-mm table, 1080 over its 700 mm: the geometric mean, 1.7 px/mm
    assert frame_label(session) == "1920x1080 · 1.7 px/mm"
    small = LiveSession(profile, TableState(("A", "B"), 4), InlineWorker(read=lambda job: ()))
    small._setup(cv2.imread(write_frames(tmp_path / "s", 1, (960, 540)).replace("*.png", "frame_0000.png")))
    assert frame_label(small) == "960x540 · 0.9 px/mm"  # the profile made on 1920x1080, frames of the same shape


def test_frames_of_another_shape_than_the_calibration_name_the_fix():
    import numpy as np

    from dealer_assist.calibration import CalibrationError

    profile = plain_profile((1920, 1080), ["A", "B"])
    with pytest.raises(CalibrationError, match=r"--camera-size 1920x1080\), or calibrate this set-up again "
                                               r"\(dealer-assist calibrate table --camera N"):
        profile.to_table_mm(np.zeros((1, 2)), (640, 480))
