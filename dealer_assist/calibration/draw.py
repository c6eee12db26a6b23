"""Annotated images for ``calibrate check``: zones projected into the photo, notes, reads, seats.

Pure: an image and data in, a new image out (no windows, no files).
"""

from __future__ import annotations

from typing import Sequence

import cv2
import numpy as np

from dealer_assist.calibration.profile import Profile

#: BGR colours per zone, in zone order (board first); notes in no zone are drawn red.
PALETTE = ((0, 215, 255), (255, 160, 0), (60, 200, 60), (220, 80, 220), (255, 255, 0), (0, 140, 255),
           (180, 130, 70), (150, 255, 150), (200, 200, 255), (90, 90, 255), (255, 200, 150))
_OUTSIDE = (0, 0, 255)


def _densify(poly_mm: np.ndarray, step_mm: float = 10.0) -> np.ndarray:
    """The polygon with points every ``step_mm`` along its edges (straight edges bend under lens distortion)."""
    pts = []
    for a, b in zip(poly_mm, np.roll(poly_mm, -1, axis=0)):
        n = max(1, int(np.ceil(np.linalg.norm(b - a) / step_mm)))
        pts.append(a + (b - a) * np.linspace(0, 1, n, endpoint=False)[:, None])
    return np.concatenate(pts)


def _label(img: np.ndarray, text: str, org: tuple[int, int], colour, scale: float) -> None:
    thick = max(1, round(2 * scale))
    cv2.putText(img, text, org, cv2.FONT_HERSHEY_SIMPLEX, 0.6 * scale, (0, 0, 0), thick + 2, cv2.LINE_AA)
    cv2.putText(img, text, org, cv2.FONT_HERSHEY_SIMPLEX, 0.6 * scale, colour, thick, cv2.LINE_AA)


def zone_colours(profile: Profile) -> dict[str, tuple[int, int, int]]:
    """BGR colour of each zone by name (the order of :data:`PALETTE`)."""
    return {z.name: PALETTE[i % len(PALETTE)] for i, z in enumerate(profile.require_table().zones)}


def annotate_table(image: np.ndarray, profile: Profile, notes: Sequence = ()) -> np.ndarray:
    """The photo with the table outline, every zone, and every note found.

    Args:
        image: ``uint8`` ``(H, W, 3)`` BGR photo (any size of the calibration's aspect).
        profile: with a table section.
        notes: :class:`~.tabletop.TableNote` items (quads in ``image`` px).

    Returns:
        A new ``uint8`` ``(H, W, 3)`` image: zones as outlines with their names,
        each note's quad in its zone's colour (red when in no zone) with its
        serial (``?`` when not trusted) and zone name.

    Raises:
        CalibrationError: no table section, or a photo of another shape.
    """
    out = image.copy()
    size = (image.shape[1], image.shape[0])
    scale = max(0.6, max(size) / 1600)
    thick = max(1, round(2 * scale))
    table = profile.require_table()
    colours = zone_colours(profile)
    w, h = table.table_size_mm
    outline = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float64)
    cv2.polylines(out, [np.round(profile.to_image_px(_densify(outline), size)).astype(np.int32)], True,
                  (255, 255, 255), thick, cv2.LINE_AA)
    for z in table.zones:
        pts = np.round(profile.to_image_px(_densify(z.polygon_mm), size)).astype(np.int32)
        cv2.polylines(out, [pts], True, colours[z.name], thick, cv2.LINE_AA)
        c = profile.to_image_px(z.centre_mm.reshape(1, 2), size)[0]
        _label(out, z.name, (int(c[0]) - 20, int(c[1])), colours[z.name], scale)
    for tn in notes:
        note = tn.note
        colour = colours.get(tn.zone, _OUTSIDE) if tn.zone else _OUTSIDE
        q = np.round(np.asarray(note.quad, np.float64)).astype(np.int32)
        cv2.polylines(out, [q], True, colour, thick + 1, cv2.LINE_AA)
        cv2.circle(out, tuple(int(v) for v in q[0]), 3 * thick, colour, -1, cv2.LINE_AA)  # the note's top-left
        for p in getattr(note, "prints", []):
            cv2.polylines(out, [np.round(np.asarray(p.quad)).astype(np.int32)], True, colour, 1, cv2.LINE_AA)
        anchor = profile.to_image_px(np.asarray(tn.anchor_mm).reshape(1, 2), size)[0]
        cv2.drawMarker(out, (int(anchor[0]), int(anchor[1])), colour, cv2.MARKER_CROSS, 8 * thick, thick)
        text = f"{note.serial or '?'} -> {tn.zone or 'no zone'}"
        top = q[np.argmin(q[:, 1])]
        _label(out, text, (int(top[0]) - 40, int(top[1]) - 8), colour, scale)
    return out
