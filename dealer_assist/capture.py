"""Opening a camera by its index without crashing or flooding the terminal.

Two traps of OpenCV 5 that every command taking ``--camera N`` must avoid:

* ``cv2.VideoCapture(-1)`` (any negative index) crashes the whole process
  with a segmentation fault on Linux, so no ``try``/``except`` can catch it:
  the index is checked *before* OpenCV sees it;
* probing a camera that is not there prints OpenCV's own ``[ WARN:…]`` and
  ``[ERROR:…]`` lines (V4L2, FFMPEG, OBSENSOR backends) on stderr: they are
  silenced around the probe with :func:`quiet_opencv`, so the user reads one
  plain sentence instead.
"""

from __future__ import annotations

import re
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Iterator

import cv2

__all__ = ["CameraError", "CaptureMode", "check_camera_index", "open_camera_device", "parse_camera_size",
           "parse_fourcc", "quiet_opencv"]


class CameraError(ValueError):
    """A camera (index, device, stream), video or image list that cannot be used; one plain sentence."""


#: OpenCV takes a camera index as a C int (and adds a backend id to it): larger numbers overflow.
MAX_CAMERA_INDEX = 9999


def check_camera_index(device: object) -> int:
    """The camera index ``device`` as an ``int`` >= 0.

    Raises:
        CameraError: a negative index, one over :data:`MAX_CAMERA_INDEX`, a bool, or anything
            that is not a whole number ("Camera -1 cannot be opened (camera numbers are 0, 1, 2, ...).").
    """
    if isinstance(device, bool) or not isinstance(device, int):
        raise CameraError(f"Camera {device!r} cannot be opened (camera numbers are 0, 1, 2, ...).")
    if device < 0 or device > MAX_CAMERA_INDEX:
        shown = str(device) if len(str(device)) <= 12 else str(device)[:12] + "…"
        raise CameraError(f"Camera {shown} cannot be opened (camera numbers are 0, 1, 2, ..., "
                          f"{MAX_CAMERA_INDEX} at most).")
    return device


@contextmanager
def quiet_opencv() -> Iterator[None]:
    """Silence OpenCV's own log lines (``[ WARN:…]``, ``[ERROR:…]``) inside the block.

    The previous log level is restored afterwards, also when the block raises.
    """
    logging = cv2.utils.logging
    previous = logging.getLogLevel()
    logging.setLogLevel(logging.LOG_LEVEL_SILENT)
    try:
        yield
    finally:
        logging.setLogLevel(previous)


#: What a camera is asked for when no size is given: OpenCV's V4L2 backend answers a request
#: larger than any mode with the camera's largest (a bare VideoCapture gives 640x480 on most USB
#: webcams under Linux, far too few pixels for a serial across a table).
LARGEST = (10000, 10000)


@dataclass(frozen=True)
class CaptureMode:
    """What to ask a numbered camera for.

    Attributes:
        size: (width, height) px, or ``None`` for the camera's largest mode.
        fourcc: a four-character pixel format (``"MJPG"``: compressed, how USB webcams give
            1080p and 4K at a usable frame rate), or ``None`` to ask for MJPG and take what
            the camera gives.
    """

    size: tuple[int, int] | None = None
    fourcc: str | None = None


def parse_camera_size(text: str | None) -> tuple[int, int] | None:
    """``"1920x1080"`` -> ``(1920, 1080)``; ``None``/``""`` -> ``None``; ``CameraError`` otherwise.

    >>> parse_camera_size("3840x2160"), parse_camera_size(" 1280 X 720 "), parse_camera_size(None)
    ((3840, 2160), (1280, 720), None)
    """
    if text is None or not text.strip():
        return None
    m = re.fullmatch(r"\s*([0-9]{2,5})\s*[xX×]\s*([0-9]{2,5})\s*", text)
    if not m or not (16 <= int(m.group(1)) <= 16384 and 16 <= int(m.group(2)) <= 16384):
        shown = text if len(text) <= 20 else text[:20] + "…"
        raise CameraError(f"--camera-size must be WIDTHxHEIGHT in pixels, e.g. 1920x1080, not {shown!r}.")
    return int(m.group(1)), int(m.group(2))


def parse_fourcc(text: str | None) -> str | None:
    """A pixel format's four characters (``"mjpg"`` -> ``"MJPG"``), ``None`` for none; ``CameraError`` otherwise."""
    if text is None or not text.strip():
        return None
    code = text.strip().upper()
    if len(code) != 4 or not code.isascii() or not all(ch.isalnum() or ch == " " for ch in code):
        shown = text if len(text) <= 20 else text[:20] + "…"
        raise CameraError(f"--fourcc must be four letters or digits such as MJPG or YUYV, not {shown!r}.")
    return code


def configure_capture(cap: cv2.VideoCapture, mode: CaptureMode) -> tuple[int, int]:
    """Ask an opened camera for ``mode``; returns the (width, height) it really gives.

    The pixel format goes first (a camera lists its large modes per format), then the size;
    a camera that refuses keeps what it had. Whatever happens, the frames' real size is
    what the caller must use (see the dashboard's header).
    """
    fourcc = mode.fourcc or "MJPG"
    cap.set(cv2.CAP_PROP_FOURCC, cv2.VideoWriter_fourcc(*fourcc))
    w, h = mode.size or LARGEST
    cap.set(cv2.CAP_PROP_FRAME_WIDTH, float(w))
    cap.set(cv2.CAP_PROP_FRAME_HEIGHT, float(h))
    return int(cap.get(cv2.CAP_PROP_FRAME_WIDTH) or 0), int(cap.get(cv2.CAP_PROP_FRAME_HEIGHT) or 0)


def open_camera_device(device: int, mode: CaptureMode | None = CaptureMode()) -> cv2.VideoCapture:
    """Open camera number ``device`` (0 is the first) quietly, asking it for ``mode``
    (default: its largest mode, MJPG when it has it; ``None``: leave the driver's default).

    Returns:
        An opened ``cv2.VideoCapture``; the caller releases it.

    Raises:
        CameraError: the index is invalid (checked first: OpenCV segfaults on
            negative ones), or no camera answers at that index.
    """
    index = check_camera_index(device)
    with quiet_opencv():
        cap = cv2.VideoCapture(index)
        opened = cap.isOpened()
        if not opened:
            cap.release()
    if not opened:
        raise CameraError(f"Camera {index} cannot be opened (is it connected, and not used by another program?).")
    if mode is not None:
        with quiet_opencv():
            configure_capture(cap, mode)
    return cap
