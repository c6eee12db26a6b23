"""Shared pieces of the trust tests (``test_trust_two_prints.py``, ``test_trust_model.py``): a print's
box on a note photographed flat, and a cross-check engine with fixed answers."""

from __future__ import annotations

import numpy as np

from dealer_assist.vision.geometry import PRINT_LENGTH_MM
from dealer_assist.vision.ocr import LineRead

PX_PER_MM = 6.0  # prints 30 px high: not "small" (no second engine needed for size alone)


def print_box(centre_mm: tuple[float, float]) -> np.ndarray:
    """The 4x2 float32 corners (px, at ``PX_PER_MM``) of a print centred at ``centre_mm`` on the note."""
    cx, cy = centre_mm
    w, h = PRINT_LENGTH_MM / 2, 2.5
    return (np.array([[cx - w, cy - h], [cx + w, cy - h], [cx + w, cy + h], [cx - w, cy + h]])
            * PX_PER_MM).astype(np.float32)


class FakeEngine:
    """A cross-check recognizer answering with fixed reads, one per print crop (told by its pixel)."""

    def __init__(self, name: str, answers: dict[int, LineRead]) -> None:
        self.name, self.answers, self.asked = name, answers, 0

    def recognize(self, crop: np.ndarray) -> LineRead:
        self.asked += 1
        return self.answers[int(crop[0, 0, 0])]
