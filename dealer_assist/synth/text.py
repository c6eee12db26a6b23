"""Drawing text and ink masks onto float BGR canvases (Pillow glyphs, numpy blending)."""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np
from PIL import Image, ImageDraw, ImageFont

from dealer_assist.synth.fonts import load_font


@dataclass(frozen=True)
class Glyphs:
    """A text rendered to an 8-bit coverage mask.

    ``mask``: ``(h, w)`` uint8, 255 = full ink. ``baseline``: row of the
    baseline inside ``mask``. ``char_boxes``: per character ``(x0, y0, x1, y1)``
    ink box in mask pixels (empty tuple for spaces).
    """

    mask: np.ndarray
    baseline: int
    char_boxes: tuple[tuple[int, int, int, int] | tuple[()], ...]


def text_glyphs(
    text: str,
    face: str,
    sizes: list[float] | float,
    *,
    tracking: float = 0.0,
    stretch_x: float = 1.0,
) -> Glyphs:
    """Render ``text`` one character at a time on a common baseline.

    ``sizes``: one font size in pixels for every character, or one per
    character (the growing-digit print). ``tracking``: extra space between
    characters as a fraction of each character's size. ``stretch_x``:
    horizontal scale applied to each glyph (< 1 narrows the face).
    Raises ``ValueError`` when a per-character size list has the wrong length.
    """
    if isinstance(sizes, (int, float)):
        sizes = [float(sizes)] * len(text)
    if len(sizes) != len(text):
        raise ValueError(f"{len(sizes)} sizes for {len(text)} characters")
    pieces = []  # (mask, x_offset, top_offset_from_baseline)
    pen = 0.0
    for ch, size in zip(text, sizes):
        font: ImageFont.FreeTypeFont = load_font(face, max(1, round(size)))
        advance = font.getlength(ch) * stretch_x
        if ch.strip():
            left, top, right, bottom = font.getbbox(ch, anchor="ls")
            w, h = right - left + 2, bottom - top + 2
            img = Image.new("L", (w, h), 0)
            ImageDraw.Draw(img).text((1 - left, 1 - top), ch, font=font, fill=255, anchor="ls")
            m = np.asarray(img)
            if stretch_x != 1.0:
                m = cv2.resize(m, (max(1, round(w * stretch_x)), h), interpolation=cv2.INTER_AREA)
            pieces.append((m, pen + (left - 1) * stretch_x, top - 1))
        else:
            pieces.append((None, pen, 0))
        pen += advance + tracking * size
    inked = [p for p in pieces if p[0] is not None]
    if not inked:
        return Glyphs(np.zeros((1, 1), np.uint8), 0, tuple(() for _ in text))
    x_min = min(int(np.floor(x)) for _, x, _ in inked)
    top_min = min(t for _, _, t in inked)
    x_max = max(int(np.floor(x)) + m.shape[1] for m, x, _ in inked)
    bot_max = max(t + m.shape[0] for m, _, t in inked)
    canvas = np.zeros((bot_max - top_min, x_max - x_min), np.uint8)
    boxes: list[tuple[int, int, int, int] | tuple[()]] = []
    for m, x, t in pieces:
        if m is None:
            boxes.append(())
            continue
        x0 = int(np.floor(x)) - x_min
        y0 = t - top_min
        region = canvas[y0 : y0 + m.shape[0], x0 : x0 + m.shape[1]]
        np.maximum(region, m, out=region)
        ys, xs = np.nonzero(m > 64)
        if len(xs):
            boxes.append((x0 + int(xs.min()), y0 + int(ys.min()), x0 + int(xs.max()) + 1, y0 + int(ys.max()) + 1))
        else:
            boxes.append(())
    return Glyphs(canvas, -top_min, tuple(boxes))


def fit_glyphs(text: str, face: str, box_px: tuple[int, int, int, int], **kw) -> tuple[Glyphs, float]:
    """Glyphs of ``text`` at the largest single size that fits ``box_px`` (x0, y0, x1, y1).

    Returns the glyphs and the size used (pixels).
    """
    bw, bh = box_px[2] - box_px[0], box_px[3] - box_px[1]
    size = float(bh)
    g = text_glyphs(text, face, size, **kw)
    for _ in range(3):
        h, w = g.mask.shape
        scale = min(bw / max(w, 1), bh / max(h, 1))
        if 0.97 <= scale <= 1.0:
            break
        size = max(4.0, size * scale * 0.99)
        g = text_glyphs(text, face, size, **kw)
    return g, size


def blend_mask(
    canvas: np.ndarray,
    mask: np.ndarray,
    colour: tuple[float, float, float] | np.ndarray,
    x: int,
    y: int,
    alpha: float = 1.0,
) -> None:
    """Alpha-blend ``colour`` into ``canvas`` (float32 HxWx3, in place) through ``mask``.

    ``mask`` is uint8 (h, w) coverage placed with its top-left at pixel
    ``(x, y)``; parts outside the canvas are clipped.
    """
    H, W = canvas.shape[:2]
    h, w = mask.shape
    x0, y0 = max(0, x), max(0, y)
    x1, y1 = min(W, x + w), min(H, y + h)
    if x1 <= x0 or y1 <= y0:
        return
    a = mask[y0 - y : y1 - y, x0 - x : x1 - x].astype(np.float32)[..., None] * (alpha / 255.0)
    region = canvas[y0:y1, x0:x1]
    region *= 1.0 - a
    region += a * np.asarray(colour, np.float32)


def outline(mask: np.ndarray, width: int) -> np.ndarray:
    """Ring of ``width`` pixels around the ink of ``mask``.

    uint8 ``(h, w)`` in; uint8 ``(h + 2*width, w + 2*width)`` out, so place it
    ``width`` pixels up and left of where ``mask`` goes.
    """
    k = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * width + 1, 2 * width + 1))
    padded = cv2.copyMakeBorder(mask, width, width, width, width, cv2.BORDER_CONSTANT, value=0)
    return cv2.subtract(cv2.dilate(padded, k), padded)
