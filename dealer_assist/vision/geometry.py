"""Quads, rectified text-line crops and note quads estimated from serial prints.

Conventions: a *quad* is a ``float32`` array of shape ``(4, 2)`` in image
pixels ``(x, y)``, ordered top-left, top-right, bottom-right, bottom-left of the
object *in its own upright frame* (for a text line: as the text reads).
"""

from __future__ import annotations

import cv2
import numpy as np

#: Physical size of a 1997-series note, millimetres (width, height).
NOTE_SIZE_MM = (157.0, 69.0)
#: Centres of the two serial prints on the upright note, millimetres from its
#: top-left corner (measured on 1000-ruble notes; other denominations are close).
TOP_RIGHT_PRINT_MM = (135.0, 10.5)
LEFT_PRINT_MM = (30.0, 47.5)
#: Length of one serial print (two letters and seven digits), millimetres.
PRINT_LENGTH_MM = 24.0


def quad_size(quad: np.ndarray) -> tuple[float, float]:
    """Mean width and height of a quad in pixels."""
    q = np.asarray(quad, dtype=np.float64)
    w = (np.linalg.norm(q[1] - q[0]) + np.linalg.norm(q[2] - q[3])) / 2
    h = (np.linalg.norm(q[3] - q[0]) + np.linalg.norm(q[2] - q[1])) / 2
    return float(w), float(h)


def quad_centre(quad: np.ndarray) -> np.ndarray:
    """Where the diagonals of a quad ``(4, 2)`` cross, float64 ``(2,)``, in the quad's own unit
    (px or mm); the corner mean when they are parallel. Under a perspective view this is the
    image of the quad's true centre, which the corner mean is not."""
    q = np.asarray(quad, np.float64).reshape(4, 2)
    p, r = q[0], q[2] - q[0]
    s, d = q[1], q[3] - q[1]
    den = r[0] * d[1] - r[1] * d[0]
    if abs(den) < 1e-12:
        return q.mean(axis=0)
    t = ((s[0] - p[0]) * d[1] - (s[1] - p[1]) * d[0]) / den
    return p + t * r


def upright_line_quad(box: np.ndarray) -> np.ndarray:
    """Reorder a detector box so that its long side runs left to right.

    A box taller than wide is taken as text rotated 90° and turned so that
    its first edge is a long one; whether the text then reads upside down is
    decided later by the orientation classifier.

    Args:
        box: ``(4, 2)`` clockwise corners in image pixels.

    Returns:
        ``(4, 2)`` ``float32`` quad whose edge 0→1 is a long side.
    """
    q = np.asarray(box, dtype=np.float32).reshape(4, 2)
    w, h = quad_size(q)
    if h > w:
        q = q[[3, 0, 1, 2]]
    return q


def rotate_quad_180(quad: np.ndarray) -> np.ndarray:
    """The same quad seen upside down: corners shifted by two."""
    return np.asarray(quad)[[2, 3, 0, 1]]


def rectify(image: np.ndarray, quad: np.ndarray, out_height: int | None = None,
            margin: float = 0.0) -> np.ndarray:
    """Warp the region inside ``quad`` to an axis-aligned crop.

    Args:
        image: ``uint8`` ``(H, W, 3)`` or ``(H, W)``.
        quad: ``(4, 2)`` corners in image pixels, upright order.
        out_height: crop height in pixels; default the quad's own height.
        margin: extra border on every side as a fraction of the quad height.

    Returns:
        ``uint8`` crop of shape ``(out_height, out_width[, 3])``, border replicated.
    """
    q = np.asarray(quad, dtype=np.float32)
    w, h = quad_size(q)
    if margin:
        u = (q[1] - q[0]) / max(np.linalg.norm(q[1] - q[0]), 1e-6)
        v = (q[3] - q[0]) / max(np.linalg.norm(q[3] - q[0]), 1e-6)
        m = margin * h
        q = q + np.array([-u - v, u - v, u + v, -u + v], dtype=np.float32) * m
        w, h = w + 2 * m, h + 2 * m
    oh = out_height or max(int(round(h)), 1)
    ow = max(int(round(w * oh / max(h, 1e-6))), 1)
    dst = np.array([[0, 0], [ow - 1, 0], [ow - 1, oh - 1], [0, oh - 1]], dtype=np.float32)
    m = cv2.getPerspectiveTransform(q, dst)
    return cv2.warpPerspective(image, m, (ow, oh), flags=cv2.INTER_CUBIC, borderMode=cv2.BORDER_REPLICATE)


def line_frame(quad: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, float]:
    """Centre, reading direction ``u``, down direction ``v`` and height (px) of a text quad."""
    q = np.asarray(quad, dtype=np.float64)
    c = q.mean(axis=0)
    u = (q[1] + q[2] - q[0] - q[3]) / 2
    u /= max(np.linalg.norm(u), 1e-9)
    v = np.array([-u[1], u[0]])  # image y grows downwards: rotate u by +90°
    _, h = quad_size(q)
    return c, u, v, h


def print_pair_offset(first: np.ndarray, second: np.ndarray) -> tuple[float, float, float]:
    """Where ``second`` lies from ``first`` in ``first``'s text frame.

    Returns:
        ``(du, dv, cos)``: offsets along the reading and down directions in
        units of ``first``'s line height, and the cosine between the two
        reading directions (1 = parallel, same way up).
    """
    c1, u1, v1, h1 = line_frame(first)
    c2, u2, _, _ = line_frame(second)
    d = c2 - c1
    return float(d @ u1 / h1), float(d @ v1 / h1), float(u1 @ u2)


def _similarity(src: np.ndarray, dst: np.ndarray) -> np.ndarray:
    m, _ = cv2.estimateAffinePartial2D(src.astype(np.float32), dst.astype(np.float32))
    return m


def note_quad_from_prints(top_right: np.ndarray, left: np.ndarray) -> np.ndarray:
    """Estimate the note's quad from its two serial prints.

    A similarity transform (rotation, uniform scale, shift) maps the print
    centres of :data:`TOP_RIGHT_PRINT_MM` and :data:`LEFT_PRINT_MM` onto the
    observed centres; the note's corners follow. Perspective is ignored, so
    the quad is approximate (a few per cent of the note's size).

    Args:
        top_right, left: ``(4, 2)`` upright quads of the two prints, image px.

    Returns:
        ``(4, 2)`` ``float32`` note quad, clockwise from the note's top-left.
    """
    src = np.array([TOP_RIGHT_PRINT_MM, LEFT_PRINT_MM], dtype=np.float64)
    dst = np.array([np.mean(top_right, axis=0), np.mean(left, axis=0)], dtype=np.float64)
    # Two correspondences fix a similarity exactly; solve it in complex form.
    s0, s1 = complex(*src[0]), complex(*src[1])
    d0, d1 = complex(*dst[0]), complex(*dst[1])
    a = (d1 - d0) / (s1 - s0)
    b = d0 - a * s0
    w, h = NOTE_SIZE_MM
    corners = [complex(0, 0), complex(w, 0), complex(w, h), complex(0, h)]
    return np.array([[(a * z + b).real, (a * z + b).imag] for z in corners], dtype=np.float32)


def note_quad_from_print(line: np.ndarray, which: str = "top_right", px_per_mm: float | None = None,
                         dtype=np.float32) -> np.ndarray:
    """Estimate the note's quad from one serial print alone (rougher than a pair).

    Args:
        line: ``(4, 2)`` upright quad of the print, image px.
        which: ``"top_right"`` or ``"left"``: which print it is taken to be.
        px_per_mm: the image's scale when known (a top view); otherwise it is
            taken from the print's length (:data:`PRINT_LENGTH_MM`).
        dtype: of the result (``float64`` keeps millimetre quads exact).

    Returns:
        ``(4, 2)`` note quad, clockwise from the note's top-left.
    """
    c, u, v, _ = line_frame(line)
    if px_per_mm is None:
        w, _ = quad_size(line)
        px_per_mm = w / PRINT_LENGTH_MM
    cx, cy = TOP_RIGHT_PRINT_MM if which == "top_right" else LEFT_PRINT_MM
    origin = c - u * cx * px_per_mm - v * cy * px_per_mm
    nw, nh = NOTE_SIZE_MM
    return np.array([origin, origin + u * nw * px_per_mm,
                     origin + (u * nw + v * nh) * px_per_mm, origin + v * nh * px_per_mm],
                    dtype=dtype)


def quad_iou(a: np.ndarray, b: np.ndarray) -> float:
    """Intersection over union of two convex quads (pixels), via OpenCV."""
    a = np.asarray(a, dtype=np.float32)
    b = np.asarray(b, dtype=np.float32)
    inter, _ = cv2.intersectConvexConvex(a, b)
    union = cv2.contourArea(a) + cv2.contourArea(b) - inter
    return float(inter / union) if union > 0 else 0.0


def refine_note_quad(image: np.ndarray, quad: np.ndarray, search: float = 0.15,
                     samples: int = 48) -> tuple[np.ndarray, float]:
    """Snap an approximate note quad to the note's edges in the photo.

    For each side, points along it are moved along the side's normal (within
    ``search`` × the note's height) to the strongest intensity edge; a robust
    line fit (Huber) through them gives the side, and adjacent sides meet at
    the corners. This recovers perspective that :func:`note_quad_from_prints`
    (a similarity) cannot.

    Args:
        image: ``uint8`` ``(H, W, 3)`` BGR or ``(H, W)`` grey.
        quad: ``(4, 2)`` approximate note quad, image px, note's own order.
        search: half-width of the search band, as a fraction of the note height.
        samples: points per side.

    Returns:
        ``(quad, support)``: the refined ``(4, 2)`` ``float32`` quad (the input
        unchanged when the edges are not found convincingly) and the fraction
        of sample points that found a clear edge (0..1).
    """
    q = np.asarray(quad, dtype=np.float32)
    gray = image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    gray = cv2.GaussianBlur(gray, (5, 5), 0).astype(np.float32)
    gx = cv2.Sobel(gray, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(gray, cv2.CV_32F, 0, 1, ksize=3)
    _, note_h = quad_size(q)
    reach = max(search * note_h, 4.0)
    offsets = np.linspace(-reach, reach, int(2 * reach) + 1, dtype=np.float32)
    prior = np.exp(-0.5 * (offsets / reach) ** 2)  # prefer edges near the estimate
    centre = q.mean(axis=0)
    lines, found = [], 0
    for i in range(4):
        a, b = q[i], q[(i + 1) % 4]
        d = b - a
        length = float(np.linalg.norm(d))
        if length < 8:
            return q, 0.0
        t = d / length
        n = np.array([t[1], -t[0]], dtype=np.float32)
        if float((a + b) / 2 @ n - centre @ n) < 0:
            n = -n
        ts = np.linspace(0.12, 0.88, samples, dtype=np.float32)
        base = a[None, :] + ts[:, None] * d[None, :]
        pts = base[:, None, :] + offsets[None, :, None] * n[None, None, :]
        mx, my = pts[..., 0], pts[..., 1]
        g = (cv2.remap(gx, mx, my, cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT, borderValue=0) * n[0]
             + cv2.remap(gy, mx, my, cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT, borderValue=0) * n[1])
        strength = np.abs(g) * prior[None, :]
        best = strength.argmax(axis=1)
        peak = strength[np.arange(samples), best]
        keep = peak > max(float(np.median(peak)) * 0.6, 8.0)
        found += int(keep.sum())
        if keep.sum() < samples * 0.35:
            return q, found / (4 * samples)
        edge_pts = (base + offsets[best][:, None] * n[None, :])[keep]
        vx, vy, x0, y0 = cv2.fitLine(edge_pts.astype(np.float32), cv2.DIST_HUBER, 0, 0.01, 0.01).ravel()
        lines.append((np.array([x0, y0]), np.array([vx, vy])))
    corners = []
    for i in range(4):
        (p1, v1), (p2, v2) = lines[(i - 1) % 4], lines[i]
        m = np.array([v1, -v2]).T
        if abs(np.linalg.det(m)) < 1e-6:
            return q, found / (4 * samples)
        s, _ = np.linalg.solve(m, p2 - p1)
        corners.append(p1 + s * v1)
    out = np.array(corners, dtype=np.float32)
    area_ratio = cv2.contourArea(out) / max(cv2.contourArea(q), 1e-6)
    if not cv2.isContourConvex(out.reshape(-1, 1, 2)) or not 0.7 <= area_ratio <= 1.45 \
            or float(np.abs(out - q).max()) > 2 * reach:
        return q, found / (4 * samples)
    return out, found / (4 * samples)
