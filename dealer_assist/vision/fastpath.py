"""The fast path of a calibrated deck: find note outlines, read the prints where the layout puts them.

With a deck's note layout (``dealer-assist calibrate notes``: the aspect and
where both serial prints lie on the upright note), a note can be read without
the text detector, the slowest stage: find the note's outline as a contour,
rectify it, and recognise just the two print ROIs, both ways up. The layout
settles the way up (the prints are not symmetric under a half turn), and the
two prints must agree. Anything short of that returns nothing and the general
reader (:class:`~.reader.SerialReader`) takes over.

Pure functions of the image, the layout and the engines; no game rules.
"""

from __future__ import annotations

from typing import Sequence

import cv2
import numpy as np

from dealer_assist.vision.geometry import quad_size, rotate_quad_180
from dealer_assist.vision.model import Evidence, NoteRead, NoteStatus, Print
from dealer_assist.vision.ocr import LineRead, TextRecognizer
from dealer_assist.vision.params import DEFAULT_PARAMS, ReaderParams
from dealer_assist.vision.serials import SerialKind, parse_serial_text

__all__ = ["find_note_quads", "read_note_by_layout", "read_by_layout", "layout_print_quads", "notes_from_layout"]


def find_note_quads(image: np.ndarray, aspect: float, min_area_fraction: float = 0.01,
                    params: ReaderParams = DEFAULT_PARAMS) -> list[np.ndarray]:
    """Note-shaped convex quadrilaterals among the photo's outer contours.

    Args:
        image: ``uint8`` ``(H, W, 3)`` BGR.
        aspect: the deck's width/height ratio (about 2.28 for a 1997-series note).
        min_area_fraction: smallest note area, as a fraction of the photo's.
        params: ``fast_aspect_tolerance``.

    Returns:
        ``float32`` ``(4, 2)`` quads in image pixels, each with its long side
        first (top-left, top-right, bottom-right, bottom-left of a note lying
        with its long side across; which way up is not known yet).
    """
    gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    gray = cv2.GaussianBlur(gray, (5, 5), 0)
    med = float(np.median(gray))
    edges = cv2.Canny(gray, max(10.0, 0.5 * med), min(255.0, 1.2 * med + 20))
    edges = cv2.dilate(edges, np.ones((3, 3), np.uint8))
    # Two views of where paper ends: edges, and paper lighter than the surface (Otsu).
    _, light = cv2.threshold(gray, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    light = cv2.morphologyEx(light, cv2.MORPH_OPEN, np.ones((7, 7), np.uint8))
    contours = []
    for mask in (edges, light):
        found, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        contours.extend(found)
    h, w = gray.shape
    quads: list[np.ndarray] = []
    for c in contours:
        area = cv2.contourArea(c)
        if area < min_area_fraction * h * w:
            continue
        approx = cv2.approxPolyDP(cv2.convexHull(c), 0.02 * cv2.arcLength(c, True), True)
        if len(approx) != 4:
            continue
        q = approx.reshape(4, 2).astype(np.float32)
        # Clockwise in image coordinates (y down): positive signed area via the shoelace.
        a, b = q[1] - q[0], q[2] - q[1]
        if float(a[0] * b[1] - a[1] * b[0]) < 0:
            q = q[::-1].copy()
        qw, qh = quad_size(q)
        if qh > qw:
            q = q[[1, 2, 3, 0]]
            qw, qh = qh, qw
        if abs(qw / max(qh, 1e-6) - aspect) > params.fast_aspect_tolerance * aspect:
            continue
        if any(_iou(q, other) > 0.7 for other in quads):
            continue  # the same note seen by both views
        quads.append(q)
    return quads


def _iou(a: np.ndarray, b: np.ndarray) -> float:
    inter, _ = cv2.intersectConvexConvex(a.astype(np.float32), b.astype(np.float32))
    union = cv2.contourArea(a.astype(np.float32)) + cv2.contourArea(b.astype(np.float32)) - inter
    return float(inter / union) if union > 0 else 0.0


def _rectified(image: np.ndarray, quad: np.ndarray, aspect: float, params: ReaderParams) -> np.ndarray:
    h = params.fast_note_height_px
    w = int(round(h * aspect))
    dst = np.array([[0, 0], [w - 1, 0], [w - 1, h - 1], [0, h - 1]], np.float32)
    m = cv2.getPerspectiveTransform(np.asarray(quad, np.float32), dst)
    return cv2.warpPerspective(image, m, (w, h), flags=cv2.INTER_CUBIC, borderMode=cv2.BORDER_REPLICATE)


def read_note_by_layout(image: np.ndarray, quad: np.ndarray, layout, recognizer: TextRecognizer,
                        confirm: TextRecognizer | None = None, params: ReaderParams = DEFAULT_PARAMS):
    """Read one outlined note at its layout's print ROIs.

    Args:
        image: ``uint8`` ``(H, W, 3)`` BGR.
        quad: from :func:`find_note_quads`.
        layout: a :class:`dealer_assist.calibration.profile.NoteLayout` (``aspect``, ``print_rois``).
        recognizer: the primary recognizer.
        confirm: a second recognizer, asked when the prints are small in the photo.
        params: ``small_print_px`` (a print lower than this in the photo needs
            ``confirm``'s read too) and ``fast_note_height_px``.

    Returns:
        ``(serial, quad, reads)`` when both prints read the same 7 digits one
        way up (``quad`` then starts at the note's own top-left), else ``None``.
    """
    _, note_h = quad_size(quad)
    for q in (np.asarray(quad, np.float32), rotate_quad_180(quad)):
        note = _rectified(image, q, layout.aspect, params)
        values, reads = [], []
        for name, (x0, y0, x1, y1) in layout.print_rois((note.shape[1], note.shape[0]), margin=0.5):
            crop = note[y0:y1, x0:x1]
            r = recognizer.recognize(crop)
            reads.append((name, r))
            sevens = [s.digits for s in parse_serial_text(r.text) if s.kind == SerialKind.SERIAL7 and not s.derived]
            values.append(sevens[0] if len(sevens) == 1 else None)
        if len(values) < 2 or values[0] is None or any(v != values[0] for v in values):
            continue
        print_h_px = note_h * min((b[3] - b[1]) for b in (p.box for p in layout.prints))
        if print_h_px < params.small_print_px:
            if confirm is None:
                return None
            name, (x0, y0, x1, y1) = layout.print_rois((note.shape[1], note.shape[0]), margin=0.5)[0]
            r2 = confirm.recognize(note[y0:y1, x0:x1])
            reads.append((name, r2))
            if values[0] not in [s.digits for s in parse_serial_text(r2.text)]:
                return None
        return values[0], q, reads
    return None


def read_by_layout(image: np.ndarray, layout, recognizer: TextRecognizer, confirm: TextRecognizer | None = None,
                   params: ReaderParams = DEFAULT_PARAMS) -> list[tuple[str, np.ndarray, list[tuple[str, LineRead]]]] | None:
    """Every note of the photo by the layout, or ``None`` when any outlined note is not settled.

    ``None`` (not an empty list) also when no note outline is found: the
    general reader must then look, since a note may lie on a busy background.
    """
    quads = find_note_quads(image, layout.aspect, params=params)
    if not quads:
        return None
    out = []
    for q in quads:
        got = read_note_by_layout(image, q, layout, recognizer, confirm, params)
        if got is None:
            return None
        out.append(got)
    return out


def layout_print_quads(quad: np.ndarray, layout) -> list[np.ndarray]:
    """The print quads ``(4, 2)`` ``float32`` px of an upright note quad (TL, TR, BR, BL), from a deck's layout,
    in the order of ``layout.prints``."""
    unit = np.array([[0, 0], [1, 0], [1, 1], [0, 1]], np.float32)
    m = cv2.getPerspectiveTransform(unit, np.asarray(quad, np.float32))
    out = []
    for p in layout.prints:
        x0, y0, x1, y1 = p.box
        box = np.array([[[x0, y0], [x1, y0], [x1, y1], [x0, y1]]], np.float32)
        out.append(cv2.perspectiveTransform(box, m).reshape(4, 2))
    return out


def notes_from_layout(results: Sequence[tuple[str, np.ndarray, list]], layout) -> list[NoteRead]:
    """:class:`~.model.NoteRead` objects for the fast path's results: ``outlined`` notes whose prints
    lie where the layout puts them (FORMATS.md §3 shape)."""
    notes = []
    names = [p.name for p in layout.prints]
    for serial, quad, reads in results:
        quads = dict(zip(names, layout_print_quads(quad, layout)))
        prints = [Print(quad=quads[name], crop=np.zeros((1, 1, 3), np.uint8),
                        reads=[(r, parse_serial_text(r.text)) for n, r in reads if n == name])
                  for name in names if any(n == name for n, _ in reads)]
        scores = [r.score for _, r in reads if serial in r.text]
        notes.append(NoteRead(serial, None, float(np.clip(np.mean(scores), 0, 1)), np.asarray(quad, np.float32),
                              NoteStatus.TRUSTED, "", prints, outlined=True, evidence=Evidence.LAYOUT))
    return notes
