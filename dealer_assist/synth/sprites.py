"""Small textured objects laid on the table: a hand, a chip, an ArUco marker.

Each sprite is a float32 BGR texture plus a float32 alpha mask (0..1) and its
physical size, so the scene can place it in table millimetres.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

#: ArUco dictionary of the table markers; ids 0..3 go clockwise from the top-left corner.
ARUCO_DICT = cv2.aruco.DICT_4X4_50


@dataclass(frozen=True)
class Sprite:
    """``texture``: float32 (h, w, 3) BGR 0..255; ``alpha``: float32 (h, w) 0..1;
    ``size_mm``: physical (width, height) of the whole texture."""

    texture: np.ndarray
    alpha: np.ndarray
    size_mm: tuple[float, float]


def hand_sprite(rng: np.random.Generator) -> Sprite:
    """A flat hand seen from above (palm, four fingers, thumb), fingers pointing up.

    About 100 x 190 mm; skin tone and finger spread vary with ``rng``.
    """
    w, h = 260, 480  # 0.4 mm per pixel
    m = np.zeros((h, w), np.uint8)
    cx = w // 2
    cv2.ellipse(m, (cx, int(h * 0.72)), (int(w * 0.36), int(h * 0.22)), 0, 0, 360, 255, -1)
    spread = rng.uniform(0.0, 0.15)
    for i, (dx, length) in enumerate(((-0.27, 0.36), (-0.09, 0.42), (0.09, 0.40), (0.26, 0.32))):
        x0 = cx + dx * w
        y0 = h * 0.60
        ang = (i - 1.5) * spread
        x1 = x0 + np.sin(ang) * length * h
        y1 = y0 - np.cos(ang) * length * h
        cv2.line(m, (int(x0), int(y0)), (int(x1), int(y1)), 255, int(w * 0.15), cv2.LINE_AA)
        cv2.circle(m, (int(x1), int(y1)), int(w * 0.075), 255, -1, cv2.LINE_AA)
    tx = cx + 0.34 * w
    cv2.line(m, (int(tx - 0.05 * w), int(h * 0.78)), (int(tx + 0.16 * w), int(h * 0.55)), 255, int(w * 0.17), cv2.LINE_AA)
    m[:, :] = cv2.GaussianBlur(m, (0, 0), 1.2)
    skin = np.array(
        [(120, 150, 205), (95, 130, 190), (70, 100, 150), (140, 170, 225)][int(rng.integers(4))], np.float32
    ) * rng.uniform(0.9, 1.1)
    # rounder look: darker towards the outline
    dist = cv2.distanceTransform((m > 127).astype(np.uint8), cv2.DIST_L2, 5)
    shade = 0.7 + 0.3 * np.clip(dist / 18.0, 0, 1)
    tex = skin * shade[..., None]
    # knuckle creases
    for y in (0.56, 0.40):
        cv2.line(tex, (int(0.2 * w), int(y * h)), (int(0.8 * w), int(y * h)), tuple(float(c) for c in skin * 0.75), 2)
    return Sprite(tex.astype(np.float32), m.astype(np.float32) / 255.0, (w * 0.4, h * 0.4))


def chip_sprite(rng: np.random.Generator) -> Sprite:
    """A casino chip, 40 mm across, in a random colour with white edge spots."""
    n = 160
    tex = np.zeros((n, n, 3), np.float32)
    colour = [(40, 40, 200), (200, 60, 30), (40, 150, 40), (30, 30, 30), (220, 220, 220)][int(rng.integers(5))]
    c = (n // 2, n // 2)
    cv2.circle(tex, c, n // 2 - 1, colour, -1, cv2.LINE_AA)
    spot = (245, 245, 245) if sum(colour) < 600 else (60, 60, 160)
    for k in range(6):
        a0 = k * 60 + rng.uniform(-2, 2)
        cv2.ellipse(tex, c, (n // 2 - 8, n // 2 - 8), 0, a0, a0 + 20, spot, 14)
    cv2.circle(tex, c, int(n * 0.3), tuple(0.85 * v for v in colour), -1, cv2.LINE_AA)
    cv2.circle(tex, c, int(n * 0.3), spot, 2, cv2.LINE_AA)
    alpha = np.zeros((n, n), np.float32)
    cv2.circle(alpha, c, n // 2 - 1, 1.0, -1, cv2.LINE_AA)
    return Sprite(tex, alpha, (40.0, 40.0))


def marker_sprite(marker_id: int, size_mm: float, quiet_frac: float = 0.25) -> tuple[Sprite, float]:
    """ArUco marker ``marker_id`` of :data:`ARUCO_DICT` on a white square.

    The black marker is ``size_mm`` wide; the white quiet zone adds
    ``quiet_frac`` of that on every side. Returns the sprite and the width of
    the whole sprite in millimetres. ``ValueError`` for an id outside 0..49.
    """
    if not 0 <= marker_id < 50:
        raise ValueError(f"ArUco id must be in 0..49, got {marker_id}")
    px = 120  # 6 cells of 20 px
    dictionary = cv2.aruco.getPredefinedDictionary(ARUCO_DICT)
    mark = cv2.aruco.generateImageMarker(dictionary, marker_id, px)
    pad = int(round(px * quiet_frac))
    full = cv2.copyMakeBorder(mark, pad, pad, pad, pad, cv2.BORDER_CONSTANT, value=255)
    tex = np.repeat(full[..., None], 3, axis=2).astype(np.float32) * 0.92 + 8
    total_mm = size_mm * (1 + 2 * quiet_frac)
    return Sprite(tex, np.ones(full.shape, np.float32), (total_mm, total_mm)), total_mm
