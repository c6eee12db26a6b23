"""Camera intrinsics and lens distortion from chessboard views (OpenCV's pinhole model).

Pure functions: images in, corners and a :class:`~.profile.CameraModel` out.
The pattern is given as *inner* corners, columns x rows (a 10 x 7 squares
board has 9 x 6 inner corners); ``square_mm`` is the side of one square.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Sequence

import cv2
import numpy as np

from dealer_assist.calibration.profile import CalibrationError, CameraModel

#: Fewest usable views :func:`calibrate_views` accepts.
MIN_VIEWS = 3
_SUBPIX_CRITERIA = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 40, 1e-3)


def parse_pattern(text: str) -> tuple[int, int]:
    """``"9x6"`` -> (9, 6) inner corners (columns, rows).

    Raises:
        CalibrationError: not two whole numbers of at least 3 joined by ``x``.
    """
    m = re.fullmatch(r"\s*(\d+)\s*[xX×]\s*(\d+)\s*", text or "")
    if not m or int(m.group(1)) < 3 or int(m.group(2)) < 3:
        raise CalibrationError(
            f"--pattern must be the inner corners as COLSxROWS, at least 3x3 (e.g. 9x6), not {text!r}.")
    return int(m.group(1)), int(m.group(2))


def board_points_mm(pattern: tuple[int, int], square_mm: float) -> np.ndarray:
    """The inner corners on the board plane (z = 0), float32 ``(cols * rows, 3)`` mm, row by row.

    Corner (c, r) is at ``((c + 1) * square_mm, (r + 1) * square_mm, 0)``: the
    board's outer corner is the origin, as in :func:`.chessboard.render_view`.
    """
    cols, rows = pattern
    grid = np.mgrid[0:cols, 0:rows].T.reshape(-1, 2).astype(np.float32)
    pts = np.zeros((cols * rows, 3), np.float32)
    pts[:, :2] = (grid + 1) * square_mm
    return pts


def find_chessboard(image: np.ndarray, pattern: tuple[int, int], fast: bool = False) -> np.ndarray | None:
    """The inner corners of a chessboard in ``image``, refined to sub-pixel.

    Args:
        image: ``uint8`` ``(H, W, 3)`` BGR or ``(H, W)`` grey.
        pattern: inner corners (columns, rows).
        fast: ``CALIB_CB_FAST_CHECK`` (quick rejection of frames without a board, for live video).

    Returns:
        float32 ``(cols * rows, 2)`` image px in OpenCV's order, or None when
        the whole pattern is not found.
    """
    gray = image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    flags = cv2.CALIB_CB_ADAPTIVE_THRESH | cv2.CALIB_CB_NORMALIZE_IMAGE
    if fast:
        flags |= cv2.CALIB_CB_FAST_CHECK
    ok, corners = cv2.findChessboardCorners(gray, pattern, flags=flags)
    if not ok or corners is None:
        return None
    corners = cv2.cornerSubPix(gray, corners.astype(np.float32), (5, 5), (-1, -1), _SUBPIX_CRITERIA)
    return corners.reshape(-1, 2)


@dataclass
class CameraFit:
    """The result of :func:`calibrate_views`.

    Attributes:
        camera: the fitted model (``rms`` and ``views_used`` set).
        per_view_rms: RMS re-projection error of each view used, px.
    """

    camera: CameraModel
    per_view_rms: list[float] = field(default_factory=list)


def calibrate_views(views: Sequence[np.ndarray], image_size: tuple[int, int], pattern: tuple[int, int],
                    square_mm: float, flags: int = 0) -> CameraFit:
    """``cv2.calibrateCamera`` over chessboard views.

    Args:
        views: per view, the corners from :func:`find_chessboard` (``(N, 2)`` px).
        image_size: (width, height) px of every view.
        pattern: inner corners (columns, rows).
        square_mm: side of one square, mm (sets the unit of the extrinsics only).
        flags: OpenCV ``CALIB_*`` flags (default: k1, k2, p1, p2, k3 free).

    Raises:
        CalibrationError: fewer than :data:`MIN_VIEWS` views, or OpenCV fails.
    """
    if len(views) < MIN_VIEWS:
        raise CalibrationError(f"{len(views)} usable chessboard view(s): at least {MIN_VIEWS} are needed.")
    obj = board_points_mm(pattern, square_mm)
    objs = [obj] * len(views)
    imgs = [np.asarray(v, np.float32).reshape(-1, 1, 2) for v in views]
    try:
        rms, k, dist, rvecs, tvecs = cv2.calibrateCamera(objs, imgs, tuple(int(v) for v in image_size), None, None,
                                                         flags=flags)
    except cv2.error as exc:
        raise CalibrationError(f"OpenCV could not calibrate from these views ({str(exc).strip().splitlines()[-1]}).") from None
    per_view = []
    for o, i, r, t in zip(objs, imgs, rvecs, tvecs):
        proj, _ = cv2.projectPoints(o, r, t, k, dist)
        per_view.append(float(np.sqrt(((proj.reshape(-1, 2) - i.reshape(-1, 2)) ** 2).sum(axis=1).mean())))
    cam = CameraModel(np.asarray(k, np.float64), np.asarray(dist, np.float64).ravel(),
                      (int(image_size[0]), int(image_size[1])), float(rms), len(views),
                      {"pattern": list(pattern), "square_mm": float(square_mm)})
    return CameraFit(cam, per_view)


def coverage(views: Sequence[np.ndarray], image_size: tuple[int, int], grid: tuple[int, int] = (8, 6)) -> np.ndarray:
    """Which cells of a ``grid`` (columns, rows) over the image some view's corners fall in.

    Good calibrations see the board in every part of the frame (the
    distortion is strongest at the edges). Returns bool ``(rows, cols)``;
    ``.mean()`` is the covered fraction shown to the user in live capture.
    """
    cols, rows = grid
    cells = np.zeros((rows, cols), bool)
    w, h = image_size
    for v in views:
        p = np.asarray(v, np.float64).reshape(-1, 2)
        cx = np.clip((p[:, 0] / w * cols).astype(int), 0, cols - 1)
        cy = np.clip((p[:, 1] / h * rows).astype(int), 0, rows - 1)
        cells[cy, cx] = True
    return cells
