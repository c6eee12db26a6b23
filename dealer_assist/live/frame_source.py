"""Frame sources for live mode, and what happens when the camera is lost.

``--camera`` takes:

* a camera index (``0``): :class:`cv2.VideoCapture` on that device, live;
* a URL (``rtsp://…``, ``http://…``): a network stream, live;
* a video file: played back;
* a glob of images (``frames/*.jpg``) or a folder of images: sorted by name
  and played back as a video.

Live sources are read on a background thread (:class:`CameraFeed` with
``threaded=True``), so a camera that stops delivering never blocks the
display loop: the feed reports ``"lost"``, releases the device and tries to
open it again with a growing backoff (0.5, 1, 2, 4, 8 s), while the hand on
the dashboard stays as it was. Played-back sources are read in the caller,
one frame per call (``replay``) or at their own frame rate (real time).

Errors that stop the command before it starts (nothing at that path, no
image matches the glob, the device cannot be opened) are a
:class:`CameraError` with one plain sentence.
"""

from __future__ import annotations

import glob
import os
import re
import stat
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Protocol, Sequence

import cv2
import numpy as np

from dealer_assist.capture import CameraError, CaptureMode, open_camera_device
from dealer_assist.fileio import opencv_path
from dealer_assist.vision.images import ImageError, check_pixels

__all__ = ["CameraError", "Frame", "FrameSource", "VideoSource", "ImageListSource", "open_source", "CameraFeed",
           "BACKOFF_S", "IMAGE_SUFFIXES", "describe_source"]

#: Waits between attempts to open a lost camera again, seconds (the last one repeats).
BACKOFF_S = (0.5, 1.0, 2.0, 4.0, 8.0)
#: A live camera that delivers no frame for this long is reported lost (its read may hang).
STALL_S = 2.0
IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png", ".bmp", ".tif", ".tiff", ".webp")
#: Frame rate assumed for an image list played back in real time.
IMAGE_LIST_FPS = 4.0


@dataclass(frozen=True)
class Frame:
    """One camera frame.

    Attributes:
        image: ``uint8`` ``(H, W, 3)`` BGR.
        index: 0, 1, 2 … in the order delivered by the feed.
        time_s: source time in seconds: for a live camera the feed's clock
            since it started, for a played-back source ``position / fps``.
    """

    image: np.ndarray
    index: int
    time_s: float


class FrameSource(Protocol):
    """What :class:`CameraFeed` reads from."""

    live: bool
    label: str
    fps: float | None

    def read(self) -> np.ndarray | None:
        """The next frame ``uint8`` ``(H, W, 3)``, or None (live: a failure; played back: the end)."""
        ...

    def release(self) -> None: ...


def _is_glob(spec: str) -> bool:
    return any(ch in spec for ch in "*?[")


def describe_source(spec: str) -> str:
    """A short label for the dashboard: ``camera 0``, a file name, a glob, a URL."""
    s = str(spec).strip()
    if re.fullmatch(r"\d+", s):
        return f"camera {int(s)}"
    return s if len(s) <= 48 else "…" + s[-47:]


def _quiet_opencv() -> None:
    """OpenCV's and FFmpeg's own log lines (a missing device, a refused stream) would go to
    stderr beside our one sentence: silence them."""
    os.environ.setdefault("OPENCV_FFMPEG_LOGLEVEL", "-8")  # AV_LOG_QUIET, read when FFmpeg starts
    try:
        cv2.utils.logging.setLogLevel(cv2.utils.logging.LOG_LEVEL_SILENT)
    except AttributeError:  # pragma: no cover - older OpenCV builds
        pass


class VideoSource:
    """A :class:`cv2.VideoCapture` (device index, URL or video file).

    A numbered camera is asked for ``mode`` (default: its largest mode, MJPG when it has it);
    a stream or a file gives the size it has. :attr:`size` is what the frames really are
    ((0, 0) until known).
    """

    def __init__(self, target: int | str, live: bool, label: str, mode: CaptureMode | None = None) -> None:
        self.live = live
        self.label = label
        _quiet_opencv()
        if isinstance(target, int):
            # checks the index first: OpenCV segfaults on some
            self._cap = open_camera_device(target, mode if mode is not None else CaptureMode())
        else:
            try:
                self._cap = cv2.VideoCapture(opencv_path(target))
            except ValueError as exc:
                raise CameraError(str(exc)) from None
        if not self._cap.isOpened():
            self._cap.release()
            if live:
                raise CameraError(f"The stream {target} cannot be opened.")
            raise CameraError(f"{target} cannot be opened as a video.")
        fps = float(self._cap.get(cv2.CAP_PROP_FPS) or 0.0)
        self.fps = fps if 0 < fps < 1000 else None
        self.size = (int(self._cap.get(cv2.CAP_PROP_FRAME_WIDTH) or 0), int(self._cap.get(cv2.CAP_PROP_FRAME_HEIGHT) or 0))

    def read(self) -> np.ndarray | None:
        ok, image = self._cap.read()
        if not ok or image is None:
            return None
        if image.ndim == 2:
            image = cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
        self.size = (image.shape[1], image.shape[0])
        return image

    def release(self) -> None:
        self._cap.release()


class ImageListSource:
    """Still images played back in order (a glob or a folder)."""

    live = False

    def __init__(self, paths: Sequence[Path], label: str, fps: float = IMAGE_LIST_FPS, one_file: bool = False) -> None:
        """``paths`` in play order; ``label`` names the source in sentences; ``one_file``: ``--camera`` named this
        one image (not a folder or a glob). Raises :class:`CameraError` when no path is given or none decodes."""
        if not paths:
            raise CameraError(f"No image matches {label}.")
        self.paths = list(paths)
        self.label = label
        self.fps = fps
        self._next = 0
        #: files of the list that are not images OpenCV decodes (a video or a thumbnail
        #: database matched by the glob, a damaged or oversized image): skipped, said at the end
        self.skipped: list[Path] = []
        # the first decodable image, found now: a list of which none decodes (a cut JPEG, an empty file) is
        # refused before any screen is drawn (seventh new-user trial: a whole dashboard, then the error)
        self._first = self._decode_next()
        if self._first is None:
            raise CameraError(f"No frame could be read from {label}: "
                              f"{'it is not' if one_file else 'none of its files is'} an image OpenCV can "
                              f"read.")

    def read(self) -> np.ndarray | None:
        """The next decodable image, ``uint8`` ``(h, w, 3)`` BGR; ``None`` at the end of the list."""
        if self._first is not None:
            first, self._first = self._first, None
            return first
        return self._decode_next()

    def _decode_next(self) -> np.ndarray | None:
        while self._next < len(self.paths):
            path = self.paths[self._next]
            self._next += 1
            try:
                # a named pipe or a device among the files would block the read forever: not an image.
                # Read as bytes, decoded in memory: any file name (OpenCV crashes on one that is not UTF-8)
                data = np.fromfile(path, np.uint8) if path.is_file() else None
                if data is not None and data.size:
                    check_pixels(data, path)  # a decompression bomb is refused from its header
                image = cv2.imdecode(data, cv2.IMREAD_COLOR) if data is not None and data.size else None
            except (cv2.error, MemoryError, OSError, ImageError):
                image = None
            if image is not None:
                return image
            self.skipped.append(path)
        return None

    def release(self) -> None:
        pass


def is_camera_index(camera: str) -> bool:
    """``--camera`` names a numbered camera (``0``, ``1``), not a file, a glob or a URL."""
    return re.fullmatch(r"[0-9]+", str(camera).strip()) is not None


def open_source(spec: str, fps: float | None = None, mode: CaptureMode | None = None) -> FrameSource:
    """Open ``--camera SPEC`` (see the module doc).

    Args:
        spec: ``"0"``, a URL, a video file, a glob of images or a folder of images.
        fps: frame rate to assume for an image list (default :data:`IMAGE_LIST_FPS`).
        mode: what to ask a numbered camera for (default: its largest mode; see
            :class:`~dealer_assist.capture.CaptureMode`). A stream or a file has its own size.

    Raises:
        CameraError: nothing at that path, no image matches, or it cannot be opened.
    """
    s = str(spec).strip()
    if not s:
        raise CameraError("--camera is empty: give a camera number, a video file, a URL or a glob of images.")
    if is_camera_index(s):
        return VideoSource(int(s), True, describe_source(s), mode)
    if s.lower().startswith("file://"):
        # a file given as a URL is a file: played back, ended at its end (not a stream to reconnect)
        from urllib.parse import unquote, urlparse

        s = unquote(urlparse(s).path) or s[7:]
    elif re.match(r"^[a-zA-Z][a-zA-Z0-9+.-]*://", s):
        return VideoSource(s, True, describe_source(s))
    label = describe_source(s)
    if _is_glob(s):
        paths = sorted(Path(p) for p in glob.glob(s) if Path(p).is_file())
        return ImageListSource(paths, label, fps or IMAGE_LIST_FPS)
    p = Path(s)
    if p.is_dir():
        paths = sorted(q for q in p.iterdir() if q.suffix.lower() in IMAGE_SUFFIXES and q.is_file())
        if not paths:
            raise CameraError(f"The folder {p} holds no image ({', '.join(IMAGE_SUFFIXES)}).")
        return ImageListSource(paths, label, fps or IMAGE_LIST_FPS)
    if not p.exists():
        raise CameraError(f"There is no camera, video or image at {s[:80]!r}.")
    mode = p.stat().st_mode
    if stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode):
        raise CameraError(f"{s} is a named pipe or a socket, not a camera, video or image.")
    if p.suffix.lower() in IMAGE_SUFFIXES:
        return ImageListSource([p], label, fps or IMAGE_LIST_FPS, one_file=True)
    return VideoSource(str(p), False, label)


class CameraFeed:
    """Frames from a source, with camera-lost detection and reconnection.

    Args:
        opener: opens the source (called again after a loss); raises
            :class:`CameraError` when it cannot.
        first: an already opened source (so that errors at start-up are raised by the caller).
        threaded: read on a background thread (default: for live sources).
        realtime: a played-back source is shown at its frame rate, skipping
            frames the loop is too slow for; otherwise one frame per :meth:`poll`.
        clock: seconds, monotonic (tests pass a fake).
        backoff: waits between attempts to reopen a lost source.

    :attr:`state` is ``"ok"``, ``"lost"`` (:attr:`detail` says when the next
    attempt is), or ``"ended"`` (a played-back source reached its end).
    """

    def __init__(self, opener: Callable[[], FrameSource], first: FrameSource | None = None,
                 threaded: bool | None = None, realtime: bool = False, clock: Callable[[], float] = time.monotonic,
                 backoff: Sequence[float] = BACKOFF_S, stall_s: float = STALL_S) -> None:
        self._opener = opener
        self._source = first if first is not None else opener()
        self.live = bool(self._source.live)
        self.label = self._source.label
        self.fps = self._source.fps
        self.realtime = realtime
        self.clock = clock
        self.backoff = tuple(backoff)
        self.stall_s = stall_s
        self.state = "ok"
        self.detail = ""
        self.losses = 0
        self._attempt = 0
        self._retry_at = 0.0
        self._index = 0
        self._t0 = clock()
        self._position = 0  # frames read from a played-back source
        self._last_frame_at = self._t0
        self._threaded = self.live if threaded is None else threaded
        self._lock = threading.Lock()
        self._latest: Frame | None = None
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        if self._threaded:
            self._thread = threading.Thread(target=self._run, name="camera", daemon=True)
            self._thread.start()

    # ---------------------------------------------------------------- the state machine
    def _release(self) -> None:
        """Let go of the source (a release that fails changes nothing: it is gone either way)."""
        if self._source is not None:
            try:
                self._source.release()
            except Exception:
                pass
            self._source = None

    def _lose(self, why: str) -> None:
        self._release()
        if self.state != "lost":
            self.losses += 1
            self._attempt = 0
        wait = self.backoff[min(self._attempt, len(self.backoff) - 1)]
        self._attempt += 1
        self._retry_at = self.clock() + wait
        self.state = "lost"
        self.detail = f"{why}; retrying in {wait:g} s"

    def _step(self) -> Frame | None:
        """One attempt to get a frame (reopening a lost source when its backoff has passed)."""
        if self.state == "ended":
            return None
        now = self.clock()
        if self._source is None:
            if now < self._retry_at:
                self.detail = self.detail.split(";")[0] + f"; retrying in {self._retry_at - now:.0f} s"
                return None
            try:
                self._source = self._opener()
            except Exception as exc:  # still unplugged
                self._lose(str(exc).rstrip(".") or "cannot open")
                return None
            self.state, self.detail = "ok", "reconnected"
            self._last_frame_at = now
        if not self.live and self.realtime and self.fps:
            # played back at its frame rate: skip the frames the loop was too slow for
            due = int((now - self._t0) * self.fps)
            if self._position > due:
                return None
            while self._position < due:
                if self._source.read() is None:
                    self.state, self.detail = "ended", "end of the recording"
                    return None
                self._position += 1
        try:
            image = self._source.read()
        except Exception as exc:
            image = None
            why = str(exc) or "read failed"
        else:
            why = "no frame"
        if image is None:
            if self.live:
                self._lose(f"the camera stopped delivering frames ({why})")
            else:
                self.state, self.detail = "ended", "end of the recording"
            return None
        self._position += 1
        self._last_frame_at = now
        t = (now - self._t0) if self.live else (self._position - 1) / (self.fps or IMAGE_LIST_FPS)
        frame = Frame(image, self._index, t)
        self._index += 1
        return frame

    def _run(self) -> None:
        while not self._stop.is_set():
            frame = self._step()
            if frame is not None:
                with self._lock:
                    self._latest = frame
            elif self.state == "ended":
                return
            else:
                self._stop.wait(0.05)

    # ---------------------------------------------------------------- for the loop
    def poll(self) -> Frame | None:
        """The newest frame not yet returned, or None (none yet, camera lost, or ended)."""
        if not self._threaded:
            return self._step()
        with self._lock:
            frame, self._latest = self._latest, None
        if frame is None and self.state == "ok" and self.clock() - self._last_frame_at > self.stall_s:
            self.detail = f"no frame for {self.clock() - self._last_frame_at:.0f} s"
        elif frame is not None and self.state == "ok":
            self.detail = ""
        return frame

    @property
    def stalled(self) -> bool:
        """A live camera that has delivered nothing for :data:`STALL_S` (its read may be hanging)."""
        return self._threaded and self.state == "ok" and self.clock() - self._last_frame_at > self.stall_s

    @property
    def shown_state(self) -> str:
        return "lost" if self.stalled else self.state

    def close(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=1.0)
        self._release()
