"""Procedural table and floor surfaces, evaluated at table millimetres.

Each surface is a function of the table coordinates seen by every image pixel,
so it is sharp at any camera distance and needs no big texture in memory.
"""

from __future__ import annotations

import numpy as np

from dealer_assist.synth.noise import noise_at

#: Surfaces a table can have.
TABLE_SURFACES: tuple[str, ...] = ("felt", "wood", "cloth")
#: Surfaces a single-note photo can be taken on (tables, floors, fabrics).
PHOTO_SURFACES: tuple[str, ...] = ("felt", "wood", "cloth", "concrete", "fabric", "dark")


def _mix(a, b, t):
    t = np.clip(t, 0.0, 1.0)[..., None]
    return np.asarray(a, np.float32) * (1 - t) + np.asarray(b, np.float32) * t


def surface(kind: str, rng: np.random.Generator, x_mm: np.ndarray, y_mm: np.ndarray) -> np.ndarray:
    """Colour of surface ``kind`` at table points ``(x_mm, y_mm)``.

    ``x_mm``, ``y_mm``: float32 arrays of one shape (H, W). Returns float32
    ``(H, W, 3)`` BGR in 0..255. ``ValueError`` for an unknown ``kind`` (see
    :data:`PHOTO_SURFACES`).
    """
    x = x_mm.astype(np.float32)
    y = y_mm.astype(np.float32)
    if kind == "felt":
        base = np.array(
            [(60, 110, 40), (110, 70, 30), (40, 40, 120), (70, 90, 60)][int(rng.integers(4))], np.float32
        ) * rng.uniform(0.8, 1.2)
        shade = 1 + 0.06 * noise_at(rng, x, y, 60.0, 2) + 0.05 * noise_at(rng, x, y, 1.2, 1)
        return base * shade[..., None]
    if kind == "wood":
        light = np.array((95, 140, 185), np.float32) * rng.uniform(0.7, 1.15)
        dark = light * rng.uniform(0.55, 0.75)
        ang = rng.uniform(0, np.pi)
        u = np.cos(ang) * x + np.sin(ang) * y
        v = -np.sin(ang) * x + np.cos(ang) * y
        plank = rng.uniform(90, 180)
        warp = 6.0 * noise_at(rng, u * 0.1, v, 40.0, 2)
        rings = 0.5 + 0.5 * np.sin(2 * np.pi * (v + warp) / rng.uniform(3.0, 7.0))
        fine = noise_at(rng, u * 0.05, v * 2.0, 2.0, 1)
        img = _mix(light, dark, 0.55 * rings + 0.25 * fine + 0.2)
        seams = np.abs(((v / plank) % 1.0) - 0.5) > 0.497
        img[seams] *= 0.55
        return img * (1 + 0.08 * noise_at(rng, x, y, 200.0, 1))[..., None]
    if kind == "cloth":
        a = np.array(rng.uniform(40, 220, 3), np.float32)
        b = np.array(rng.uniform(20, 200, 3), np.float32)
        period = rng.uniform(1.0, 2.2)
        weave = 0.5 + 0.25 * np.sin(2 * np.pi * x / period) * np.sin(2 * np.pi * y / period)
        check = rng.uniform(15, 45)
        pattern = ((np.floor(x / check) + np.floor(y / check)) % 2).astype(np.float32)
        stripes = 0.5 + 0.5 * np.sin(2 * np.pi * (x + y) / rng.uniform(8, 20))
        t = np.where(rng.random() < 0.5, pattern, stripes)
        img = _mix(a, b, 0.7 * t + 0.3 * weave)
        return img * (1 + 0.07 * noise_at(rng, x, y, 80.0, 2))[..., None]
    if kind == "concrete":
        grey = rng.uniform(90, 170)
        n = noise_at(rng, x, y, 40.0, 4)
        speck = noise_at(rng, x, y, 0.8, 1)
        val = grey * (1 + 0.15 * n + 0.08 * speck)
        tint = np.array(rng.uniform(0.93, 1.05, 3), np.float32)
        return val[..., None] * tint
    if kind == "fabric":
        # bold blotchy print, like the patterned bedsheets of several real photos
        a = np.array(rng.uniform(10, 80, 3), np.float32)
        b = np.array(rng.uniform(150, 240, 3), np.float32)
        n = noise_at(rng, x, y, rng.uniform(15, 40), 3)
        t = 1 / (1 + np.exp(-12 * (n - rng.uniform(-0.1, 0.2))))
        weave = 0.04 * np.sin(2 * np.pi * x / 1.3) * np.sin(2 * np.pi * y / 1.3)
        return _mix(a, b, t) * (1 + weave)[..., None]
    if kind == "dark":
        base = np.array(rng.uniform(15, 55, 3), np.float32)
        return base * (1 + 0.3 * noise_at(rng, x, y, 30.0, 3))[..., None]
    raise ValueError(f"unknown surface {kind!r}; known: {', '.join(PHOTO_SURFACES)}")
