"""The edge with windows and cameras: clicking corners, capturing chessboard views.

Nothing here may run without a display (``cv2.imshow`` would abort the whole
process): callers check :func:`dealer_assist.display.has_display` first and
take the headless path otherwise. Frame sources, drawing and key handling
are passed in, so the loops can also be driven by a script.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Protocol

import cv2
import numpy as np

from dealer_assist.calibration.intrinsics import coverage, find_chessboard
from dealer_assist.calibration.profile import CalibrationError
from dealer_assist.capture import CameraError, CaptureMode, open_camera_device

#: Largest window the images are shown in (px); bigger images are scaled down for display only.
MAX_WINDOW = (1400, 900)
_KEY_ENTER = (10, 13)
_KEY_BACKSPACE = (8, 127)
_KEY_ESC = 27


class FrameSource(Protocol):
    """What the capture loop needs of ``cv2.VideoCapture``."""

    def read(self) -> tuple[bool, np.ndarray | None]: ...

    def release(self) -> None: ...


def open_camera(device: int, mode: CaptureMode = CaptureMode()) -> cv2.VideoCapture:
    """Open camera ``device`` (0, 1, ...) quietly, asking it for ``mode`` (default: its largest
    mode, as live mode asks: calibrate at the resolution you will play at); :class:`CalibrationError`
    when the index is invalid (negative: OpenCV would segfault) or the camera cannot be opened.
    See :func:`dealer_assist.capture.open_camera_device`."""
    try:
        return open_camera_device(device, mode)
    except CameraError as exc:
        raise CalibrationError(str(exc)) from None


def grab_frame(device: int, warmup: int = 10, mode: CaptureMode = CaptureMode()) -> np.ndarray:
    """One frame from camera ``device`` after ``warmup`` frames (exposure settles); no window.

    Raises :class:`CalibrationError` when the camera cannot be opened or gives no frame.
    """
    cap = open_camera(device, mode)
    try:
        frame = None
        for _ in range(max(1, warmup)):
            ok, f = cap.read()
            if ok and f is not None:
                frame = f
        if frame is None:
            raise CalibrationError(f"Camera {device} gave no frame.")
        return frame
    finally:
        cap.release()


def _fit_scale(size: tuple[int, int]) -> float:
    return min(1.0, MAX_WINDOW[0] / size[0], MAX_WINDOW[1] / size[1])


def click_corners(image: np.ndarray, title: str = "dealer-assist: click the table corners") -> np.ndarray | None:
    """Let the user click the table's four corners, clockwise from the top-left.

    Keys: Backspace undoes the last click, Enter accepts four corners, Esc
    cancels. Needs a display (check :func:`dealer_assist.display.has_display`).

    Returns:
        float64 ``(4, 2)`` px in ``image``'s pixels, or None when cancelled.
    """
    h, w = image.shape[:2]
    s = _fit_scale((w, h))
    shown = cv2.resize(image, (round(w * s), round(h * s)), interpolation=cv2.INTER_AREA) if s < 1 else image.copy()
    clicks: list[tuple[float, float]] = []
    names = ("top-left", "top-right", "bottom-right", "bottom-left")

    def on_mouse(event, x, y, flags, param):
        if event == cv2.EVENT_LBUTTONDOWN and len(clicks) < 4:
            clicks.append((x / s, y / s))

    cv2.namedWindow(title, cv2.WINDOW_AUTOSIZE)
    cv2.setMouseCallback(title, on_mouse)
    try:
        while True:
            canvas = shown.copy()
            pts = [(round(x * s), round(y * s)) for x, y in clicks]
            for i, p in enumerate(pts):
                cv2.circle(canvas, p, 6, (0, 255, 255), 2, cv2.LINE_AA)
                cv2.putText(canvas, str(i + 1), (p[0] + 8, p[1] - 8), cv2.FONT_HERSHEY_SIMPLEX, 0.7, (0, 255, 255), 2)
            if len(pts) > 1:
                cv2.polylines(canvas, [np.array(pts, np.int32)], len(pts) == 4, (0, 255, 255), 2, cv2.LINE_AA)
            msg = (f"click the {names[len(clicks)]} corner" if len(clicks) < 4
                   else "Enter: accept   Backspace: undo   Esc: cancel")
            cv2.putText(canvas, msg, (12, 30), cv2.FONT_HERSHEY_SIMPLEX, 0.8, (0, 0, 0), 4, cv2.LINE_AA)
            cv2.putText(canvas, msg, (12, 30), cv2.FONT_HERSHEY_SIMPLEX, 0.8, (255, 255, 255), 2, cv2.LINE_AA)
            cv2.imshow(title, canvas)
            key = cv2.waitKey(30) & 0xFF
            if key == _KEY_ESC:
                return None
            if key in _KEY_BACKSPACE and clicks:
                clicks.pop()
            if key in _KEY_ENTER and len(clicks) == 4:
                return np.array(clicks, np.float64)
    finally:
        cv2.destroyWindow(title)


@dataclass
class CaptureState:
    """Progress of a live chessboard capture (what the overlay shows)."""

    views: list[np.ndarray] = field(default_factory=list)
    image_size: tuple[int, int] | None = None
    last_found: np.ndarray | None = None

    def coverage(self) -> float:
        """Share of the frame's 8 x 6 cells some captured view covered, 0..1."""
        if not self.views or self.image_size is None:
            return 0.0
        return float(coverage(self.views, self.image_size).mean())


def draw_capture_overlay(frame: np.ndarray, state: CaptureState, pattern: tuple[int, int], min_views: int) -> np.ndarray:
    """The live frame with the found board, the covered cells (green) and the counts. Pure."""
    out = frame.copy()
    h, w = out.shape[:2]
    if state.views:
        cells = coverage(state.views, (w, h))
        rows, cols = cells.shape
        tint = out.copy()
        for r in range(rows):
            for c in range(cols):
                if cells[r, c]:
                    cv2.rectangle(tint, (c * w // cols, r * h // rows), ((c + 1) * w // cols, (r + 1) * h // rows),
                                  (0, 200, 0), -1)
        out = cv2.addWeighted(tint, 0.25, out, 0.75, 0)
    if state.last_found is not None:
        cv2.drawChessboardCorners(out, pattern, state.last_found.reshape(-1, 1, 2).astype(np.float32), True)
    msg = (f"views {len(state.views)}/{min_views}+  coverage {state.coverage():.0%}   "
           f"space: capture  q: finish  Esc: cancel")
    cv2.putText(out, msg, (12, 30), cv2.FONT_HERSHEY_SIMPLEX, 0.7, (0, 0, 0), 4, cv2.LINE_AA)
    cv2.putText(out, msg, (12, 30), cv2.FONT_HERSHEY_SIMPLEX, 0.7, (255, 255, 255), 2, cv2.LINE_AA)
    return out


def capture_chessboard_views(source: FrameSource, pattern: tuple[int, int], min_views: int = 10,
                             show: Callable[[np.ndarray], None] | None = None,
                             wait_key: Callable[[], int] | None = None) -> CaptureState | None:
    """Live capture: space keeps the current view when the whole board is found, q finishes.

    Args:
        source: frames (``cv2.VideoCapture`` or anything with ``read()``).
        pattern: inner corners (columns, rows).
        min_views: shown as the target; finishing earlier is allowed.
        show, wait_key: display and key functions (default an OpenCV window;
            needs a display).

    Returns:
        The captured views, or None when cancelled (Esc) or the source ends before any view.
    """
    title = "dealer-assist: chessboard capture"
    own_window = show is None
    if show is None:
        show = lambda img: cv2.imshow(title, img)  # noqa: E731
    if wait_key is None:
        wait_key = lambda: cv2.waitKey(1) & 0xFF  # noqa: E731
    state = CaptureState()
    try:
        while True:
            ok, frame = source.read()
            if not ok or frame is None:
                break
            state.image_size = (frame.shape[1], frame.shape[0])
            state.last_found = find_chessboard(frame, pattern, fast=True)
            show(draw_capture_overlay(frame, state, pattern, min_views))
            key = wait_key()
            if key == _KEY_ESC:
                return None
            if key == ord(" ") and state.last_found is not None:
                full = find_chessboard(frame, pattern)  # the thorough search for the kept view
                if full is not None:
                    state.views.append(full)
            if key in (ord("q"), ord("Q")):
                break
    finally:
        source.release()
        if own_window:
            try:
                cv2.destroyWindow(title)
            except cv2.error:
                pass
    return state if state.views else None
