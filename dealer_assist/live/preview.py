"""The OpenCV preview: the camera frame with the zones and every followed note drawn on it.

:func:`draw_overlay` is pure (a frame in, a new image out). :class:`PreviewWindow`
shows it; open one only when :func:`dealer_assist.display.has_display` says a
window can be shown (without a display, OpenCV's GUI aborts the process).
"""

from __future__ import annotations

import cv2
import numpy as np

__all__ = ["draw_overlay", "PreviewWindow", "STATUS_COLOURS"]

#: BGR colour of a note's outline by its status.
STATUS_COLOURS = {"trusted": (60, 200, 60), "manual": (255, 200, 0), "pending": (0, 200, 255),
                  "unreadable": (0, 0, 255), "out_of_format": (0, 0, 255), "blank": (160, 160, 160)}
_ZONE = (255, 160, 0)


def _text(img: np.ndarray, text: str, org, colour, scale: float) -> None:
    thick = max(1, round(2 * scale))
    cv2.putText(img, text, org, cv2.FONT_HERSHEY_SIMPLEX, 0.55 * scale, (0, 0, 0), thick + 2, cv2.LINE_AA)
    cv2.putText(img, text, org, cv2.FONT_HERSHEY_SIMPLEX, 0.55 * scale, colour, thick, cv2.LINE_AA)


def draw_overlay(image: np.ndarray, profile, tracks, position: int, lines: tuple[str, ...] = ()) -> np.ndarray:
    """The frame with the calibration's zones, each note's quad coloured by status and its serial.

    Args:
        image: ``uint8`` ``(H, W, 3)`` BGR camera frame.
        profile: the calibration profile (table section).
        tracks: :class:`~.tracker.Track` objects (quads in table mm).
        position: the playing position P, shown with each trusted serial's rank digit.
        lines: text drawn at the top-left (hand, P, fps).

    Returns:
        A new ``uint8`` ``(H, W, 3)`` image.
    """
    out = image.copy()
    size = (image.shape[1], image.shape[0])
    scale = max(0.6, max(size) / 1600)
    thick = max(1, round(2 * scale))
    table = profile.require_table()
    for zone in table.zones:
        pts = np.round(profile.to_image_px(zone.polygon_mm, size)).astype(np.int32)
        cv2.polylines(out, [pts], True, _ZONE, thick, cv2.LINE_AA)
        c = profile.to_image_px(zone.centre_mm.reshape(1, 2), size)[0]
        _text(out, zone.name, (int(c[0]) - 20, int(c[1])), _ZONE, scale)
    for t in tracks:
        colour = STATUS_COLOURS.get(t.status, (255, 255, 255))
        q = np.round(profile.to_image_px(t.quad_mm, size)).astype(np.int32)
        cv2.polylines(out, [q], True, colour, thick + 1, cv2.LINE_AA)
        if t.serial:
            label = f"{t.serial} [{t.serial[position - 1]}]"
        elif t.status == "pending":
            label = "reading..."
        else:
            label = "?"
        top = q[np.argmin(q[:, 1])]
        _text(out, label, (int(top[0]), int(top[1]) - 6), colour, scale)
    for i, line in enumerate(lines):
        _text(out, line, (10, int(24 * scale) * (i + 1)), (255, 255, 255), scale)
    return out


class PreviewWindow:
    """A resizable OpenCV window; :meth:`show` returns the key pressed in it (or None)."""

    def __init__(self, title: str = "dealer-assist live") -> None:
        self.title = title
        cv2.namedWindow(title, cv2.WINDOW_NORMAL)

    def show(self, image: np.ndarray) -> str | None:
        cv2.imshow(self.title, image)
        key = cv2.waitKey(1)
        if key < 0:
            return None
        key &= 0xFF
        return {13: "\r", 10: "\n", 27: "\x1b", 8: "\x7f"}.get(key, chr(key))

    def close(self) -> None:
        try:
            cv2.destroyWindow(self.title)
        except cv2.error:
            pass
