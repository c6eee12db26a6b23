"""Annotated copies of photos for a person checking the reader (``--debug-dir``)."""

from __future__ import annotations


import cv2
import numpy as np

from dealer_assist.app.photos import ImageReading
from dealer_assist.vision.model import NoteStatus

_COLOURS = {NoteStatus.TRUSTED: (0, 180, 0), NoteStatus.UNREADABLE: (0, 0, 255), NoteStatus.OUT_OF_FORMAT: (0, 140, 255)}


def annotate(image: np.ndarray, reading: ImageReading) -> np.ndarray:
    """Draw note quads, serial-print boxes and every read on a copy of ``image`` (BGR uint8)."""
    out = image.copy()
    for n in reading.notes:
        colour = _COLOURS.get(n.status, (255, 0, 255))
        cv2.polylines(out, [np.round(n.quad).astype(np.int32)], True, colour, 2)
        for p in n.prints:
            cv2.polylines(out, [np.round(p.quad).astype(np.int32)], True, (255, 128, 0), 1)
            x, y = np.round(p.quad[3]).astype(int)
            texts = [f"{r.engine[:4]}: {r.text}" for r, _ in p.reads]
            for k, t in enumerate(texts):
                # Hershey fonts have no Cyrillic: show ASCII only.
                safe = t.encode("ascii", "replace").decode()
                cv2.putText(out, safe, (int(x), int(y) + 16 + 16 * k), cv2.FONT_HERSHEY_SIMPLEX, 0.5,
                            (255, 128, 0), 1, cv2.LINE_AA)
        x, y = np.round(n.quad[0]).astype(int)
        label = n.serial or n.status
        cv2.putText(out, label, (int(x), max(int(y) - 6, 14)), cv2.FONT_HERSHEY_SIMPLEX, 0.8, colour, 2,
                    cv2.LINE_AA)
    return out
