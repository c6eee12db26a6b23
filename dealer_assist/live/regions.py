"""Rectangles and points on the table, millimetres: the small geometry live mode's read planning uses.

A region is ``(x0, y0, x1, y1)`` in table mm; quads are ``(4, 2)`` arrays of table mm.
"""

from __future__ import annotations

import cv2
import numpy as np

__all__ = ["union", "grow", "bbox", "inside", "tiles", "inside_quad"]


def union(a, b):
    """The smallest region holding regions ``a`` and ``b``."""
    return (min(a[0], b[0]), min(a[1], b[1]), max(a[2], b[2]), max(a[3], b[3]))


def grow(r, d):
    """Region ``r`` grown by ``d`` mm on every side."""
    return (r[0] - d, r[1] - d, r[2] + d, r[3] + d)


def bbox(quad: np.ndarray):
    """The region bounding a quad (or any ``(N, 2)`` points)."""
    q = np.asarray(quad, np.float64).reshape(-1, 2)
    return (float(q[:, 0].min()), float(q[:, 1].min()), float(q[:, 0].max()), float(q[:, 1].max()))


def inside(point, r) -> bool:
    """Whether ``point`` lies in region ``r`` (edges included)."""
    return r[0] <= point[0] <= r[2] and r[1] <= point[1] <= r[3]


def tiles(region, size: float, overlap: float = 0.0):
    """Split a region into tiles of at most ``size`` mm that overlap by ``overlap`` mm (a note up to
    ``overlap`` long lies whole in one of them)."""
    x0, y0, x1, y1 = region

    def cuts(a, b):
        n = max(1, int(np.ceil((b - a - overlap) / max(size - overlap, 1.0))))
        if b - a <= size:
            return [(a, b)]
        step = (b - a - overlap) / n
        return [(a + i * step, a + i * step + step + overlap) for i in range(n)]

    return [(float(xa), float(ya), float(xb), float(yb)) for ya, yb in cuts(y0, y1) for xa, xb in cuts(x0, x1)]


def inside_quad(point, quad) -> bool:
    """Whether ``point`` lies in the convex hull of ``quad``."""
    poly = cv2.convexHull(np.asarray(quad, np.float32).reshape(-1, 2))
    return cv2.pointPolygonTest(poly, (float(point[0]), float(point[1])), False) >= 0
