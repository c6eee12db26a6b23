"""Smooth random fields (value noise) for paper, surfaces and light, from a numpy Generator."""

from __future__ import annotations

import cv2
import numpy as np


def noise_field(rng: np.random.Generator, shape_hw: tuple[int, int], cell_px: float, octaves: int = 1) -> np.ndarray:
    """Fractal value noise on a pixel grid.

    ``shape_hw``: (height, width) of the result. ``cell_px``: size of the
    coarsest lattice cell in pixels; each further octave halves it and its
    amplitude. Returns float32 ``(h, w)`` with values roughly in -1..1.
    """
    h, w = shape_hw
    out = np.zeros((h, w), np.float32)
    amp, total = 1.0, 0.0
    cell = float(cell_px)
    for _ in range(octaves):
        gh, gw = max(2, int(np.ceil(h / cell)) + 2), max(2, int(np.ceil(w / cell)) + 2)
        lattice = rng.uniform(-1.0, 1.0, (gh, gw)).astype(np.float32)
        big = cv2.resize(lattice, (int(gw * cell), int(gh * cell)), interpolation=cv2.INTER_CUBIC)
        out += amp * big[:h, :w]
        total += amp
        amp *= 0.5
        cell = max(1.0, cell / 2.0)
    return out / total


def noise_at(
    rng: np.random.Generator, x: np.ndarray, y: np.ndarray, cell: float, octaves: int = 1, lattice: int = 256
) -> np.ndarray:
    """Fractal value noise evaluated at arbitrary coordinates (e.g. table millimetres).

    ``x``, ``y``: float32 arrays of one shape, in any unit; ``cell``: coarsest
    lattice cell in that unit. The lattice repeats every ``lattice`` cells.
    Returns float32 of the shape of ``x``, roughly in -1..1.
    """
    out = np.zeros(x.shape, np.float32)
    amp, total = 1.0, 0.0
    c = float(cell)
    for _ in range(octaves):
        grid = rng.uniform(-1.0, 1.0, (lattice, lattice)).astype(np.float32)
        mx = (x / c).astype(np.float32)
        my = (y / c).astype(np.float32)
        out += amp * cv2.remap(grid, mx, my, cv2.INTER_CUBIC, borderMode=cv2.BORDER_WRAP)
        total += amp
        amp *= 0.5
        c /= 2.0
    return out / total


def soft_blur(mask: np.ndarray, sigma: float) -> np.ndarray:
    """Gaussian blur of a float32 (h, w) mask; large ``sigma`` runs on a shrunk copy
    (a soft shadow does not need full resolution). Same shape out."""
    if sigma <= 0.3:
        return mask
    if sigma <= 6:
        return cv2.GaussianBlur(mask, (0, 0), sigma)
    h, w = mask.shape[:2]
    k = sigma / 3.0
    small = cv2.resize(mask, (max(2, int(w / k)), max(2, int(h / k))), interpolation=cv2.INTER_AREA)
    small = cv2.GaussianBlur(small, (0, 0), 3.0)
    return cv2.resize(small, (w, h), interpolation=cv2.INTER_LINEAR)
