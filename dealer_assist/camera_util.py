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

from contextlib import contextmanager
from typing import Iterator

import cv2

__all__ = ["CameraError", "check_camera_index", "open_camera_device", "quiet_opencv"]


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


def open_camera_device(device: int) -> cv2.VideoCapture:
    """Open camera number ``device`` (0 is the first) quietly.

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
    return cap
