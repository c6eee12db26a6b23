"""Camera poses as homographies from the table plane (millimetres) to image pixels."""

from __future__ import annotations

import numpy as np


def look_at_homography(
    target_mm: tuple[float, float],
    tilt_deg: float,
    azimuth_deg: float,
    roll_deg: float,
    distance_mm: float,
    focal_px: float,
    image_size: tuple[int, int],
) -> np.ndarray:
    """Homography of a pinhole camera looking at ``target_mm`` on the table plane.

    The table frame has x to the right and y "down" (towards the croupier), in
    millimetres; the table is the plane z = 0 and the camera is above it.
    ``tilt_deg``: angle between the optical axis and straight down (0 =
    top-down); ``azimuth_deg``: the side the camera leans from (0 = from +y);
    ``roll_deg``: rotation of the image about the optical axis.
    ``image_size``: (width, height) in pixels; the principal point is the image
    centre. Returns float64 ``(3, 3)`` H with ``image ~ H @ [x_mm, y_mm, 1]``.
    """
    t, a, r = np.deg2rad([tilt_deg, azimuth_deg, roll_deg])
    target = np.array([target_mm[0], target_mm[1], 0.0])
    # z is "into" the table (x right, y down, right-handed), so the camera sits at negative z
    offset = np.array([np.sin(t) * np.sin(a), np.sin(t) * np.cos(a), -np.cos(t)]) * distance_mm
    centre = target + offset
    fwd = target - centre
    fwd /= np.linalg.norm(fwd)
    down_hint = np.array([np.sin(a), np.cos(a), 0.0])  # image "down" leans towards the camera side
    if abs(float(fwd @ down_hint)) > 0.999:
        down_hint = np.array([0.0, 1.0, 0.0])
    right = np.cross(down_hint, fwd)
    right /= np.linalg.norm(right)
    down = np.cross(fwd, right)
    cr, sr = np.cos(r), np.sin(r)
    right, down = cr * right + sr * down, -sr * right + cr * down
    rot = np.stack([right, down, fwd])  # world -> camera
    tvec = -rot @ centre
    w, h = image_size
    k = np.array([[focal_px, 0, w / 2.0], [0, focal_px, h / 2.0], [0, 0, 1.0]])
    hom = k @ np.column_stack([rot[:, 0], rot[:, 1], tvec])
    return hom / hom[2, 2]


def project(hom: np.ndarray, pts: np.ndarray | list) -> np.ndarray:
    """Apply homography ``hom`` (3, 3) to points ``pts`` (N, 2); returns float64 (N, 2).

    Raises ``ValueError`` when a point maps to infinity (behind the camera).
    """
    p = np.asarray(pts, np.float64).reshape(-1, 2)
    q = np.column_stack([p, np.ones(len(p))]) @ np.asarray(hom, np.float64).T
    if np.any(q[:, 2] <= 1e-9):
        raise ValueError("a point projects behind the camera")
    return q[:, :2] / q[:, 2:3]


def fit_to_image(
    hom: np.ndarray,
    pts_mm: np.ndarray,
    image_size: tuple[int, int],
    fill: float,
    centre_frac: tuple[float, float] = (0.5, 0.5),
    by: str = "fit",
) -> np.ndarray:
    """Rescale and shift ``hom`` in the image so that ``pts_mm`` occupy a chosen area.

    A change of focal length and principal point: the view direction is kept.
    ``by="fit"``: the points' bounding box fills ``fill`` of the image along
    its tighter axis; ``by="width"``: the points' largest extent (their
    diameter) is ``fill`` of the image width. The box centre lands at
    ``centre_frac`` of the image. Returns the new (3, 3) homography.
    """
    p = project(hom, pts_mm)
    w, h = image_size
    lo, hi = p.min(0), p.max(0)
    size = hi - lo
    if by == "width":
        diam = max(np.linalg.norm(a - b) for a in p for b in p)
        s = fill * w / max(diam, 1e-9)
    else:
        s = fill * min(w / max(size[0], 1e-9), h / max(size[1], 1e-9))
    c = (lo + hi) / 2.0
    tx = centre_frac[0] * w - s * c[0]
    ty = centre_frac[1] * h - s * c[1]
    sim = np.array([[s, 0, tx], [0, s, ty], [0, 0, 1.0]])
    out = sim @ hom
    return out / out[2, 2]
