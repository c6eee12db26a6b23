"""Frame sources: camera lost and found again with backoff, the hand kept meanwhile; bad sources."""

from __future__ import annotations

import io

import cv2
import numpy as np
import pytest
from rich.console import Console

from dealer_assist.live.frame_source import BACKOFF_S, CameraError, CameraFeed, ImageListSource, open_source
from dealer_assist.live.commands import parse_command
from dealer_assist.live.dashboard import LiveStatus, render_dashboard
from dealer_assist.live.session import LiveOptions, LiveSession
from dealer_assist.live.table_state import TableState
from dealer_assist.live.worker import InlineWorker
from live_helpers import plain_profile, write_frames

FRAME = np.full((180, 320, 3), (40, 70, 110), np.uint8)


class Clock:
    def __init__(self) -> None:
        self.t = 100.0

    def __call__(self) -> float:
        return self.t


class FakeCamera:
    """A live source that delivers ``frames`` frames, then fails (the cable was pulled)."""

    live = True
    label = "fake camera"
    fps = 30.0

    def __init__(self, frames: int) -> None:
        self.left = frames
        self.released = False

    def read(self):
        if self.left <= 0:
            return None
        self.left -= 1
        return FRAME.copy()

    def release(self) -> None:
        self.released = True


class Opener:
    """Opens fake cameras; fails while ``unplugged``; records when it was asked."""

    def __init__(self, clock: Clock) -> None:
        self.clock = clock
        self.unplugged = False
        self.calls: list[float] = []
        self.cameras: list[FakeCamera] = []

    def __call__(self) -> FakeCamera:
        self.calls.append(self.clock.t)
        if self.unplugged:
            raise CameraError("Camera 0 cannot be opened.")
        cam = FakeCamera(3)
        self.cameras.append(cam)
        return cam


def test_camera_lost_retries_with_backoff_and_comes_back():
    clock = Clock()
    opener = Opener(clock)
    feed = CameraFeed(opener, threaded=False, clock=clock)
    frames = [feed.poll() for _ in range(3)]
    assert all(f is not None for f in frames) and [f.index for f in frames] == [0, 1, 2]
    opener.unplugged = True
    assert feed.poll() is None  # the 4th read fails: the camera is lost
    assert feed.state == "lost" and feed.losses == 1
    assert opener.cameras[0].released
    assert "retrying in 0.5 s" in feed.detail
    # nothing is tried before the backoff has passed
    clock.t += 0.3
    assert feed.poll() is None and opener.calls == [100.0]
    # then attempts at growing intervals while it stays unplugged
    for wait in BACKOFF_S[:4]:
        clock.t += wait
        assert feed.poll() is None and feed.state == "lost"
    gaps = np.diff(opener.calls[1:]).tolist()
    assert gaps == pytest.approx(list(BACKOFF_S[1:4]))
    # plugged in again: frames resume, numbered on
    opener.unplugged = False
    clock.t += BACKOFF_S[4]
    frame = feed.poll()
    assert frame is not None and frame.index == 3 and feed.state == "ok" and feed.detail == "reconnected"


def test_the_hand_is_kept_while_the_camera_is_lost():
    clock = Clock()
    opener = Opener(clock)
    feed = CameraFeed(opener, threaded=False, clock=clock)
    profile = plain_profile((320, 180), ["P1", "P2"])
    session = LiveSession(profile, TableState(("P1", "P2"), 4), InlineWorker(read=lambda job: ()), LiveOptions())
    for line in ("board 1 1119111", "board 2 1118111", "P1 1 1111111", "fold P2", "chips P1 10"):
        session.command(parse_command(line))
    before = session.view()
    for _ in range(3):
        session.on_frame(feed.poll())
        session.pump()
    opener.unplugged = True
    for _ in range(5):
        assert feed.poll() is None
        clock.t += 1.0
    after = session.view()
    assert feed.state == "lost"
    assert after.board_serials == before.board_serials == ("1119111", "1118111")
    assert after.state == before.state and after.state.hand_number == 1
    console = Console(record=True, width=120, file=io.StringIO(), color_system=None)
    console.print(render_dashboard(after, LiveStatus(feed.shown_state, 0.0, session.ocr_state, feed.label,
                                                     feed.detail), "en"))
    text = console.export_text()
    assert "camera: lost" in text and "retrying in" in text
    assert "111[9]111" in text and "dealer: P1" in text and "folded" in text


def test_image_list_plays_in_order_then_ends(tmp_path):
    for i, name in enumerate(["b.png", "a.png", "c.png"]):
        cv2.imwrite(str(tmp_path / name), np.full((10, 20, 3), i * 50, np.uint8))
    feed = CameraFeed(lambda: open_source(str(tmp_path / "*.png")), threaded=False)
    values = []
    while (frame := feed.poll()) is not None:
        values.append(int(frame.image[0, 0, 0]))
    assert values == [50, 0, 100]  # a.png, b.png, c.png
    assert feed.state == "ended" and not feed.live


def test_image_list_in_real_time_skips_what_the_loop_is_too_slow_for(tmp_path):
    clock = Clock()
    write_frames(tmp_path, 8)
    feed = CameraFeed(lambda: ImageListSource(sorted(tmp_path.glob("*.png")), "frames", fps=4.0), threaded=False,
                      realtime=True, clock=clock)
    assert feed.poll().index == 0
    assert feed.poll() is None  # the next frame is not due yet
    clock.t += 0.75  # three frame periods: frames 1 and 2 are skipped
    frame = feed.poll()
    assert frame.index == 1 and frame.time_s == pytest.approx(0.75)


def test_bad_sources_are_one_sentence(tmp_path):
    with pytest.raises(CameraError, match=r"^There is no camera, video or image at '.*nope\.mp4'\.$"):
        open_source(str(tmp_path / "nope.mp4"))
    with pytest.raises(CameraError, match=r"^No image matches .*\*\.jpg\.$"):
        open_source(str(tmp_path / "*.jpg"))
    with pytest.raises(CameraError, match="holds no image"):
        open_source(str(tmp_path))
    (tmp_path / "broken.jpg").write_text("not a picture", encoding="utf-8")
    with pytest.raises(CameraError, match=r"^No frame could be read from .*broken\.jpg: it is not an image OpenCV "
                                          r"can read\.$"):
        open_source(str(tmp_path / "broken.jpg"))  # refused as it is opened, before any screen
    (tmp_path / "good.png").write_bytes(cv2.imencode(".png", np.zeros((4, 4, 3), np.uint8))[1].tobytes())
    source = open_source(str(tmp_path / "*.*g"))  # broken.jpg is skipped, good.png plays
    assert source.read().shape == (4, 4, 3) and source.read() is None and source.skipped == [tmp_path / "broken.jpg"]
    with pytest.raises(CameraError, match=r"^Camera 10000 cannot be opened .*9999 at most\)\.$"):
        open_source("10000")
    (tmp_path / "clip.mp4").write_text("not a video", encoding="utf-8")
    with pytest.raises(CameraError, match="cannot be opened as a video"):
        open_source(str(tmp_path / "clip.mp4"))
