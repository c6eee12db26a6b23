"""Learning a deck's note layout from photos of a sample note (``calibrate notes``).

For each photo the reader finds the note and its serial prints; then, so as
not to take back the layout the reader itself assumes, the note's **outline
is found in the image** (GrabCut seeded by the reader's quad, then a
quadrilateral fit), the note is **rectified** by it, and each print's **ink
box** (the characters' extent, not the detector's padded box) and dominant
ink colour are measured on the rectified note. Photos are combined by the
median; the spread is kept.

Pure functions over numpy images; the reader is passed in.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Sequence

import cv2
import numpy as np

from dealer_assist.calibration.profile import NoteLayout, PrintLayout
from dealer_assist.vision.geometry import quad_size
from dealer_assist.vision.ocr import best_contrast_gray

#: Width in px of the rectified note the boxes are measured on.
RECTIFIED_WIDTH = 1150
#: Longest side in px GrabCut works at (its cost grows with the area).
_GRABCUT_SIDE = 640


@dataclass
class NoteSample:
    """What one photo says about the layout.

    Attributes:
        image: the photo's label (file name).
        outline: float64 ``(4, 2)`` note corners in the photo, clockwise from its top-left, px.
        aspect: width / height of the note from the outline's mean side lengths
            (perspective is not undone: photograph the sample note from above).
        prints: ``{name: (box, colour_bgr)}``: box normalised (x0, y0, x1, y1) on the upright note.
        problem: why the photo could not be used (then the other fields are empty).
    """

    image: str
    outline: np.ndarray | None = None
    aspect: float = 0.0
    prints: dict[str, tuple[tuple[float, float, float, float], tuple[float, float, float]]] = field(default_factory=dict)
    problem: str | None = None


def _order_like(quad: np.ndarray, guess: np.ndarray) -> np.ndarray:
    """The cyclic order (either direction) of ``quad``'s corners closest to ``guess``'s."""
    best, best_d = quad, np.inf
    for seq in (quad, quad[::-1]):
        for k in range(4):
            cand = np.roll(seq, -k, axis=0)
            d = float(np.linalg.norm(cand - guess, axis=1).sum())
            if d < best_d:
                best, best_d = cand, d
    return best


def _fit_quad(contour: np.ndarray) -> np.ndarray | None:
    hull = cv2.convexHull(contour)
    peri = cv2.arcLength(hull, True)
    for eps in np.linspace(0.01, 0.1, 19):
        approx = cv2.approxPolyDP(hull, eps * peri, True)
        if len(approx) == 4:
            return _refine_sides(hull.reshape(-1, 2).astype(np.float64), approx.reshape(4, 2).astype(np.float64))
        if len(approx) < 4:
            return None
    return None


def _refine_sides(hull: np.ndarray, quad: np.ndarray) -> np.ndarray:
    """Fit a line to the hull points along each side of ``quad`` and intersect neighbours."""
    # densify the hull so long straight sides carry many points
    pts = []
    for a, b in zip(hull, np.roll(hull, -1, axis=0)):
        n = max(2, int(np.linalg.norm(b - a)))
        pts.append(a + (b - a) * np.linspace(0, 1, n, endpoint=False)[:, None])
    pts = np.concatenate(pts)
    lines = []
    for i in range(4):
        a, b = quad[i], quad[(i + 1) % 4]
        d = b - a
        length = np.linalg.norm(d)
        u = d / max(length, 1e-9)
        rel = pts - a
        t = rel @ u
        dist = np.abs(rel[:, 0] * u[1] - rel[:, 1] * u[0])
        near = (t > 0.1 * length) & (t < 0.9 * length) & (dist < max(3.0, 0.02 * length))
        if near.sum() < 5:
            lines.append((a, u))
            continue
        vx, vy, x0, y0 = cv2.fitLine(pts[near].astype(np.float32), cv2.DIST_HUBER, 0, 0.01, 0.01).ravel()
        lines.append((np.array([x0, y0], np.float64), np.array([vx, vy], np.float64)))
    out = []
    for i in range(4):
        (p1, d1), (p2, d2) = lines[i - 1], lines[i]
        den = d1[0] * d2[1] - d1[1] * d2[0]
        if abs(den) < 1e-9:
            out.append(quad[i])
            continue
        t = ((p2[0] - p1[0]) * d2[1] - (p2[1] - p1[1]) * d2[0]) / den
        out.append(p1 + t * d1)
    return np.array(out)


def find_note_outline(image: np.ndarray, guess_quad: np.ndarray) -> np.ndarray | None:
    """The note's outline in the photo, seeded by a rough quad.

    GrabCut separates the paper from the surface in a window around
    ``guess_quad`` (its inner part seeds the paper, its surroundings the
    surface); the largest paper region's convex hull is fitted with a
    quadrilateral whose sides are refined by line fits.

    Args:
        image: ``uint8`` ``(H, W, 3)`` BGR.
        guess_quad: ``(4, 2)`` px, clockwise from the note's top-left (e.g. the reader's quad).

    Returns:
        float64 ``(4, 2)`` px in ``guess_quad``'s corner order, or None when no
        quadrilateral overlapping the guess by at least half is found.
    """
    g = np.asarray(guess_quad, np.float64).reshape(4, 2)
    h_img, w_img = image.shape[:2]
    c = g.mean(axis=0)
    outer = c + (g - c) * 1.35
    x0, y0 = np.floor(np.maximum(outer.min(axis=0), 0)).astype(int)
    x1, y1 = np.ceil(np.minimum(outer.max(axis=0), [w_img - 1, h_img - 1])).astype(int) + 1
    if x1 - x0 < 16 or y1 - y0 < 16:
        return None
    s = min(1.0, _GRABCUT_SIDE / max(x1 - x0, y1 - y0))
    roi = cv2.resize(image[y0:y1, x0:x1], (max(1, round((x1 - x0) * s)), max(1, round((y1 - y0) * s))),
                     interpolation=cv2.INTER_AREA)

    def local(q: np.ndarray) -> np.ndarray:
        return np.round((q - [x0, y0]) * s).astype(np.int32)

    mask = np.full(roi.shape[:2], cv2.GC_BGD, np.uint8)
    cv2.fillPoly(mask, [local(outer)], cv2.GC_PR_BGD)
    cv2.fillPoly(mask, [local(c + (g - c) * 1.02)], cv2.GC_PR_FGD)
    cv2.fillPoly(mask, [local(c + (g - c) * 0.6)], cv2.GC_FGD)
    bgd, fgd = np.zeros((1, 65), np.float64), np.zeros((1, 65), np.float64)
    try:
        cv2.grabCut(roi, mask, None, bgd, fgd, 4, cv2.GC_INIT_WITH_MASK)
    except cv2.error:
        return None
    paper = ((mask == cv2.GC_FGD) | (mask == cv2.GC_PR_FGD)).astype(np.uint8)
    paper = cv2.morphologyEx(paper, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    contours, _ = cv2.findContours(paper, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    if not contours:
        return None
    biggest = max(contours, key=cv2.contourArea)
    quad = _fit_quad(biggest)
    if quad is None:
        return None
    quad = quad / s + [x0, y0]
    if _signed_area(quad) * _signed_area(g) < 0:
        quad = quad[::-1]
    quad = _order_like(quad, g)
    inter, _ = cv2.intersectConvexConvex(quad.astype(np.float32), g.astype(np.float32))
    union = abs(cv2.contourArea(quad.astype(np.float32))) + abs(cv2.contourArea(g.astype(np.float32))) - inter
    if union <= 0 or inter / union < 0.5:
        return None
    return quad


def _signed_area(q: np.ndarray) -> float:
    x, y = q[:, 0], q[:, 1]
    return float(np.dot(x, np.roll(y, -1)) - np.dot(y, np.roll(x, -1))) / 2


def colour_name(bgr: Sequence[float]) -> str:
    """A plain name for an ink colour: ``dark``, ``red``, ``orange``, ``yellow``, ``green``, ``blue``, ``purple``, ``grey``."""
    px = np.uint8([[np.clip(np.round(bgr), 0, 255)]])
    h, s, v = (int(x) for x in cv2.cvtColor(px, cv2.COLOR_BGR2HSV)[0, 0])
    if v < 100:  # dark ink takes the paper's tint (dark green on a green note): brightness decides
        return "dark"
    if s < 60:
        return "dark" if v < 140 else "grey"
    hue = h * 2  # degrees
    for limit, name in ((15, "red"), (40, "orange"), (70, "yellow"), (170, "green"), (260, "blue"), (330, "purple")):
        if hue < limit:
            return name
    return "red"


def _ink_box(note: np.ndarray, box_px: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
    """Ink extent (x0, y0, x1, y1) px and median ink BGR of the print seeded by a detector box.

    The detector's box may hold only the digits (the two letters before them
    are a separate word for it), so the search window reaches one box-width
    further left and a little right; the characters are the ink components of
    the box's text row, chained from those inside the box while the gap to
    the next one is under 1.5 character heights (a word space, not the
    gap to other artwork on the row).
    """
    hn, wn = note.shape[:2]
    bw, bh = box_px[2] - box_px[0], box_px[3] - box_px[1]
    win = np.array([box_px[0] - bw, box_px[1] - 0.3 * bh, box_px[2] + 0.2 * bw, box_px[3] + 0.3 * bh])
    x0, y0 = np.maximum(np.floor(win[:2]).astype(int), 0)
    x1, y1 = np.minimum(np.ceil(win[2:]).astype(int), [wn, hn])
    if x1 - x0 < 8 or y1 - y0 < 4:
        return None
    crop = note[y0:y1, x0:x1]
    gray = best_contrast_gray(crop)
    # Otsu inside the detector's box (ink and paper in similar amounts), applied to the whole window
    bx0, by0 = int(max(box_px[0], 0)) - x0, int(max(box_px[1], 0)) - y0
    bx1, by1 = int(min(box_px[2], wn)) - x0, int(min(box_px[3], hn)) - y0
    inner = gray[max(by0, 0):max(by1, by0 + 1), max(bx0, 0):max(bx1, bx0 + 1)]
    if inner.size < 16:
        return None
    level, _ = cv2.threshold(inner, 0, 255, cv2.THRESH_BINARY_INV + cv2.THRESH_OTSU)
    ink = (gray <= level).astype(np.uint8)
    n, labels, stats, centroids = cv2.connectedComponentsWithStats(ink, connectivity=8)
    row_top, row_bottom = by0, by1
    chars = []
    for i in range(1, n):
        x, y, w, h, area = stats[i]
        cy = y + h / 2
        touches_edge = x + x0 <= 1 or y + y0 <= 1 or x + x0 + w >= wn - 1 or y + y0 + h >= hn - 1
        if 0.25 * bh <= h <= 1.3 * bh and area >= 4 and row_top <= cy <= row_bottom and not touches_edge:
            chars.append(i)
    if not chars:
        return None
    seed = [i for i in chars if stats[i][0] + stats[i][2] > bx0 and stats[i][0] < bx1]
    if not seed:
        return None
    char_h = float(np.median([stats[i][3] for i in seed]))
    group = set(seed)
    grown = True
    while grown:
        grown = False
        gx0 = min(stats[i][0] for i in group)
        gx1 = max(stats[i][0] + stats[i][2] for i in group)
        for i in chars:
            if i in group:
                continue
            x, w = stats[i][0], stats[i][2]
            gap = max(gx0 - (x + w), x - gx1, 0)
            if gap <= 1.5 * char_h:
                group.add(i)
                grown = True
    sel = np.isin(labels, list(group))
    ys, xs = np.nonzero(sel)
    # the colour of the strokes' core: anti-aliased edges mix ink with paper
    core = sel & (gray <= np.median(gray[sel]))
    colour = np.median(crop[core].reshape(-1, 3), axis=0)
    return np.array([x0 + xs.min(), y0 + ys.min(), x0 + xs.max() + 1, y0 + ys.max() + 1], np.float64), colour


def measure_note(image: np.ndarray, note, label: str = "photo") -> NoteSample:
    """Measure one read note: outline, aspect, and its prints' ink boxes and colours.

    Args:
        image: ``uint8`` ``(H, W, 3)`` BGR photo.
        note: a :class:`~dealer_assist.vision.reader.NoteRead` (its ``quad``
            seeds the outline; its ``prints`` give the print quads).
        label: how to name the photo in messages.

    Returns:
        A :class:`NoteSample`; ``problem`` says why when it cannot be used.
    """
    outline = find_note_outline(image, note.quad)
    if outline is None:
        return NoteSample(label, problem="the note's outline could not be told from the surface")
    w, h = quad_size(outline)
    aspect = w / max(h, 1e-9)
    if not 1.2 < aspect < 4.0:
        return NoteSample(label, problem=f"the outline found is not note-shaped (aspect {aspect:.2f})")
    wn = RECTIFIED_WIDTH
    hn = int(round(wn / aspect))
    dst = np.array([[0, 0], [wn, 0], [wn, hn], [0, hn]], np.float32)
    m = cv2.getPerspectiveTransform(outline.astype(np.float32), dst)
    rect = cv2.warpPerspective(image, m, (wn, hn), flags=cv2.INTER_CUBIC, borderMode=cv2.BORDER_REPLICATE)
    found: list[tuple[np.ndarray, np.ndarray]] = []
    for p in note.prints:
        q = cv2.perspectiveTransform(np.asarray(p.quad, np.float64).reshape(-1, 1, 2), m.astype(np.float64)).reshape(4, 2)
        ink = _ink_box(rect, np.concatenate([q.min(axis=0), q.max(axis=0)]))
        if ink is not None:
            found.append(ink)
    if not found:
        return NoteSample(label, outline, aspect, problem="no print's ink could be measured")
    prints: dict = {}
    for k, (box, colour) in enumerate(sorted(found, key=lambda f: -(f[0][0] + f[0][2]))):
        norm = (box[0] / wn, box[1] / hn, box[2] / wn, box[3] / hn)
        cx, cy = (norm[0] + norm[2]) / 2, (norm[1] + norm[3]) / 2
        name = "top_right" if cx > 0.5 and cy < 0.5 else "left" if cx < 0.5 else f"print_{k + 1}"
        if name in prints:
            name = f"print_{k + 1}"
        prints[name] = (tuple(float(v) for v in norm), tuple(float(v) for v in colour))
    return NoteSample(label, outline, float(aspect), prints)


def learn_layout(samples: Sequence[NoteSample]) -> NoteLayout:
    """Combine the usable samples into one :class:`NoteLayout` (medians).

    A print is kept when it was measured in at least half of the usable
    photos. ``extra`` records, per print, the largest deviation of a box edge
    from the median (normalised units) and the photos used.

    Raises:
        ValueError: no usable sample (the caller says which photos failed and why).
    """
    good = [s for s in samples if s.problem is None]
    if not good:
        raise ValueError("no photo gave a usable note")
    aspect = float(np.median([s.aspect for s in good]))
    names = sorted({n for s in good for n in s.prints}, key=lambda n: (n != "top_right", n != "left", n))
    prints = []
    spread: dict[str, float] = {}
    for name in names:
        boxes = np.array([s.prints[name][0] for s in good if name in s.prints])
        if len(boxes) * 2 < len(good):
            continue
        colours = np.array([s.prints[name][1] for s in good if name in s.prints])
        box = np.median(boxes, axis=0)
        colour = np.median(colours, axis=0)
        spread[name] = round(float(np.abs(boxes - box).max()), 4)
        prints.append(PrintLayout(name, tuple(float(v) for v in box), tuple(float(v) for v in colour),
                                  colour_name(colour)))
    if not prints:
        raise ValueError("no print was measured consistently")
    extra = {"box_spread": spread, "photos": [s.image for s in good],
             "aspect_spread": round(float(np.abs(np.array([s.aspect for s in good]) - aspect).max()), 4)}
    return NoteLayout(aspect, tuple(prints), len(good), extra)
