"""Chessboard targets: a printable board, and synthetic photos of one through a known camera.

:func:`render_view` is the ground truth for the camera-calibration tests and
``benchmarks/bench_calibration.py``: every pixel is traced back through the
lens distortion and the pose to the board, so the recovered intrinsics can be
compared with the true ones.
"""

from __future__ import annotations

from typing import Sequence

import cv2
import numpy as np

from dealer_assist.calibration.profile import CameraModel

_BLACK, _WHITE, _BACKGROUND = 25.0, 235.0, 120.0


def chessboard_image(pattern: tuple[int, int], square_px: int = 80, margin_squares: float = 1.0) -> np.ndarray:
    """A board with ``pattern`` inner corners (columns, rows) to print, ``uint8`` ``(H, W)`` grey.

    It has ``cols + 1`` by ``rows + 1`` squares, the top-left one black, and a
    white margin of ``margin_squares`` squares (findChessboardCorners needs it).
    """
    cols, rows = pattern[0] + 1, pattern[1] + 1
    m = int(round(margin_squares * square_px))
    img = np.full((rows * square_px + 2 * m, cols * square_px + 2 * m), 255, np.uint8)
    for r in range(rows):
        for c in range(cols):
            if (r + c) % 2 == 0:
                img[m + r * square_px:m + (r + 1) * square_px, m + c * square_px:m + (c + 1) * square_px] = 0
    return img


def board_pose(tilt_x_deg: float, tilt_y_deg: float, roll_deg: float, centre_mm: Sequence[float],
               distance_mm: float, board_centre_mm: Sequence[float]) -> tuple[np.ndarray, np.ndarray]:
    """A pose (rvec, tvec) putting the board's centre at ``centre_mm`` + ``distance_mm`` ahead of the camera.

    ``tilt_x_deg``/``tilt_y_deg`` turn the board about the camera's x/y axes,
    ``roll_deg`` about its normal; ``centre_mm`` (x, y) shifts it sideways.
    Returns float64 rvec ``(3,)`` and tvec ``(3,)`` (board mm -> camera mm).
    """
    rx, ry, rz = np.deg2rad([tilt_x_deg, tilt_y_deg, roll_deg])
    r = (cv2.Rodrigues(np.array([rx, 0.0, 0.0]))[0] @ cv2.Rodrigues(np.array([0.0, ry, 0.0]))[0]
         @ cv2.Rodrigues(np.array([0.0, 0.0, rz]))[0])
    c = np.array([board_centre_mm[0], board_centre_mm[1], 0.0])
    t = np.array([centre_mm[0], centre_mm[1], distance_mm]) - r @ c
    return cv2.Rodrigues(r)[0].ravel(), t


def _normalised_rays(camera: CameraModel, supersample: int, step: int = 2) -> np.ndarray:
    """Undistorted normalised coordinates ``(h*s*w*s, 2)`` of every super-sampled pixel centre.

    The lens model is inverted exactly (iteratively) on a grid every ``step``
    px and interpolated bilinearly in between (error < 0.001 px): the distortion is smooth, and
    inverting millions of points one by one would take a minute.
    """
    w, h = camera.image_size
    gx = np.arange(-step, w + 2 * step, step, dtype=np.float64)
    gy = np.arange(-step, h + 2 * step, step, dtype=np.float64)
    cx, cy = np.meshgrid(gx, gy)
    pts = np.column_stack([cx.ravel(), cy.ravel()]).reshape(-1, 1, 2)
    crit = (cv2.TERM_CRITERIA_COUNT | cv2.TERM_CRITERIA_EPS, 60, 1e-12)
    coarse = cv2.undistortPoints(pts, camera.camera_matrix, camera.dist_coeffs, criteria=crit)
    coarse = coarse.reshape(len(gy), len(gx), 2)
    s = supersample
    fx = ((np.arange(w * s) + 0.5) / s - 0.5 + step) / step  # fine sample -> coarse grid index
    fy = ((np.arange(h * s) + 0.5) / s - 0.5 + step) / step
    ix, iy = np.floor(fx).astype(int), np.floor(fy).astype(int)
    tx, ty = (fx - ix)[None, :, None], (fy - iy)[:, None, None]
    # bilinear in double precision (cv2.remap quantises positions to 1/32 of a cell)
    c00 = coarse[iy][:, ix]
    c01 = coarse[iy][:, ix + 1]
    c10 = coarse[iy + 1][:, ix]
    c11 = coarse[iy + 1][:, ix + 1]
    fine = (c00 * (1 - tx) + c01 * tx) * (1 - ty) + (c10 * (1 - tx) + c11 * tx) * ty
    return fine.reshape(-1, 2)


def render_view(camera: CameraModel, rvec: np.ndarray, tvec: np.ndarray, pattern: tuple[int, int],
                square_mm: float, supersample: int = 3, blur_sigma: float = 0.6, noise_sigma: float = 2.0,
                seed: int = 0) -> np.ndarray:
    """A photo of a chessboard through ``camera`` (with its lens distortion) at pose (rvec, tvec).

    Every super-sampled pixel is undistorted to a ray, intersected with the
    board plane and coloured by the square it hits; then the image is
    averaged down, blurred (Gaussian ``blur_sigma`` px) and given sensor
    noise (``noise_sigma`` grey levels, seeded). The board's outer corner is
    the origin of the board frame (see :func:`.camera.board_points_mm`), with
    a white margin of one square; ``rvec``/``tvec`` map board mm to camera mm.

    Returns:
        ``uint8`` ``(h, w)`` grey image of ``camera.image_size``.
    """
    return render_views(camera, [(rvec, tvec)], pattern, square_mm, supersample, blur_sigma, noise_sigma, seed)[0]


def render_views(camera: CameraModel, poses: Sequence[tuple[np.ndarray, np.ndarray]], pattern: tuple[int, int],
                 square_mm: float, supersample: int = 3, blur_sigma: float = 0.6, noise_sigma: float = 2.0,
                 seed: int = 0) -> list[np.ndarray]:
    """:func:`render_view` for many poses of one camera (the rays are traced once); view k uses seed ``seed + k``."""
    w, h = camera.image_size
    s = supersample
    norm = _normalised_rays(camera, s)
    rays = np.column_stack([norm, np.ones(len(norm))])
    cols, rows = pattern[0] + 1, pattern[1] + 1
    out = []
    for k, (rvec, tvec) in enumerate(poses):
        r = cv2.Rodrigues(np.asarray(rvec, np.float64))[0]
        plane = np.column_stack([r[:, 0], r[:, 1], np.asarray(tvec, np.float64).ravel()])  # board (X, Y, 1) -> camera
        q = rays @ np.linalg.inv(plane).T
        with np.errstate(divide="ignore", invalid="ignore"):
            ci = np.floor(q[:, 0] / q[:, 2] / square_mm)
            ri = np.floor(q[:, 1] / q[:, 2] / square_mm)
        on_squares = (ci >= 0) & (ci < cols) & (ri >= 0) & (ri < rows)
        on_board = (ci >= -1) & (ci <= cols) & (ri >= -1) & (ri <= rows) & (q[:, 2] > 0)
        val = np.full(len(q), _BACKGROUND, np.float32)
        val[on_board] = _WHITE
        val[on_squares & (((ci + ri) % 2) == 0)] = _BLACK
        img = cv2.resize(val.reshape(h * s, w * s), (w, h), interpolation=cv2.INTER_AREA)
        if blur_sigma > 0:
            img = cv2.GaussianBlur(img, (0, 0), blur_sigma)
        if noise_sigma > 0:
            img = img + np.random.default_rng(seed + k).normal(0, noise_sigma, img.shape).astype(np.float32)
        out.append(np.clip(np.round(img), 0, 255).astype(np.uint8))
    return out
