"""Specimen notes: upright BGR images of a 1997-series-like note with its serial printed twice.

Every note carries a large "ОБРАЗЕЦ / SPECIMEN" mark, the words "НЕ ЯВЛЯЕТСЯ
ПЛАТЁЖНЫМ СРЕДСТВОМ" (not legal tender), a made-up bank name and no state
emblem or portrait: it cannot be taken for money. Only the facts a serial
reader relies on are modelled on the real notes (see :mod:`.layout`).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field

import cv2
import numpy as np

from dealer_assist.synth.layout import (
    DENOMINATIONS,
    NOTE_SIZE_PX,
    PRINT_NAMES,
    SERIAL_LETTERS,
    Box,
    NoteLayout,
    box_to_px,
    layout_for,
)
from dealer_assist.synth.noise import noise_field
from dealer_assist.synth.text import blend_mask, fit_glyphs, outline, text_glyphs

_W, _H = NOTE_SIZE_PX

#: Words of each denomination (a count of made-up "training units", not money).
_WORDS = {
    10: "ДЕСЯТЬ",
    50: "ПЯТЬДЕСЯТ",
    100: "СТО",
    500: "ПЯТЬСОТ",
    1000: "ТЫСЯЧА",
    5000: "ПЯТЬ ТЫСЯЧ",
}
HEADER_TEXT = "БИЛЕТ БАНКА ОБРАЗЦОВ"

#: Faces for the even-height print (narrow serif) and the growing-digit print,
#: with the horizontal stretch that makes each look like the real fonts.
_EVEN_FACES = (
    ("serif_condensed", 0.92),
    ("liberation_serif", 0.80),
    ("free_serif", 0.80),
    ("serif_condensed_bold", 0.85),
)
_GROWING_FACES = (
    ("serif_bold", 0.90),
    ("liberation_serif_bold", 0.95),
    ("free_serif_bold", 0.95),
    ("sans_condensed_bold", 0.95),
    ("liberation_sans_narrow_bold", 1.0),
)

RED_INK = (48, 38, 196)  # BGR


@dataclass(frozen=True)
class NoteSpec:
    """What to print on one note.

    ``letters``: two upper-case letters of :data:`SERIAL_LETTERS`; ``digits``:
    seven digits; ``denomination``: one of :data:`DENOMINATIONS` (selects the
    colours and which print is red); ``style_seed``: fonts, case, spacing and
    ink jitter. ``ValueError`` on any malformed field.
    """

    letters: str
    digits: str
    denomination: int = 1000
    style_seed: int = 0

    def __post_init__(self) -> None:
        if len(self.letters) != 2 or any(c not in SERIAL_LETTERS for c in self.letters):
            raise ValueError(f"serial letters must be two of {SERIAL_LETTERS!r}, got {self.letters!r}")
        if len(self.digits) != 7 or not self.digits.isdigit() or not self.digits.isascii():
            raise ValueError(f"serial digits must be 7 ASCII digits, got {self.digits!r}")
        if self.denomination not in DENOMINATIONS:
            raise ValueError(f"unknown denomination {self.denomination}; known: {DENOMINATIONS}")

    @property
    def serial(self) -> str:
        """``"ЧЛ 1234567"``: letters, a space, digits."""
        return f"{self.letters} {self.digits}"


@dataclass(frozen=True)
class PrintInfo:
    """One serial print as rendered.

    ``box``: tight normalised ink box ``(x0, y0, x1, y1)`` on the upright note;
    ``char_boxes``: normalised box of each printed character (letters, then
    digits; the space is skipped); ``colour``: ``"red"`` | ``"dark"``;
    ``text``: exactly what is printed (letters may be lower case); ``face``:
    font face name; ``digit_heights``: ink height of each digit in note pixels.
    """

    box: Box
    char_boxes: tuple[Box, ...]
    colour: str
    text: str
    face: str
    digit_heights: tuple[int, ...]


@dataclass(frozen=True)
class RenderedNote:
    """An upright note: ``image`` uint8 ``(500, 1150, 3)`` BGR, and its two prints by name."""

    spec: NoteSpec
    image: np.ndarray
    prints: dict[str, PrintInfo] = field(default_factory=dict)


def random_spec(
    rng: np.random.Generator,
    *,
    denomination: int | None = None,
    digits: str | None = None,
    letters: str | None = None,
) -> NoteSpec:
    """A random :class:`NoteSpec`; the given fields are kept as they are."""
    if denomination is None:
        denomination = int(rng.choice(DENOMINATIONS))
    if letters is None:
        letters = "".join(rng.choice(list(SERIAL_LETTERS), 2))
    if digits is None:
        digits = "".join(str(d) for d in rng.integers(0, 10, 7))
    return NoteSpec(letters, digits, denomination, int(rng.integers(0, 2**31 - 1)))


# --------------------------------------------------------------------------- artwork


def _rosette(cx, cy, rx, ry, k, amp, phase, n=720) -> np.ndarray:
    t = np.linspace(0, 2 * np.pi, n)
    r = 1.0 + amp * np.sin(k * t + phase)
    pts = np.stack([cx + rx * r * np.cos(t), cy + ry * r * np.sin(t)], 1)
    return np.round(pts * 4).astype(np.int32)  # 2 fractional bits for cv2 shift=2


def _line_mask(polys: list[np.ndarray], thickness: int = 1) -> np.ndarray:
    m = np.zeros((_H, _W), np.uint8)
    cv2.polylines(m, polys, False, 255, thickness, cv2.LINE_AA, shift=2)
    return m


def _paper(rng: np.random.Generator, lay: NoteLayout, shape=(_H, _W)) -> np.ndarray:
    img = np.empty((*shape, 3), np.float32)
    img[:] = lay.paper_bgr
    # paper fibres and a faint cloudy tint
    img *= (1.0 + 0.025 * noise_field(rng, shape, 40, 3) + 0.02 * noise_field(rng, shape, 3, 1))[..., None]
    return img


def _whiten(img: np.ndarray, box_px, amount: float, feather: int = 14) -> None:
    m = np.zeros(img.shape[:2], np.float32)
    x0, y0, x1, y1 = box_px
    m[y0:y1, x0:x1] = 1.0
    m = cv2.GaussianBlur(m, (0, 0), feather)[..., None] * amount
    img *= 1.0 - m
    img += m * np.array([240, 243, 244], np.float32)


def _specimen_mark(img: np.ndarray, lay: NoteLayout) -> None:
    x0, y0, x1, y1 = box_to_px(lay.specimen_box)
    bw, bh = x1 - x0, y1 - y0
    top, _ = fit_glyphs("ОБРАЗЕЦ", "sans_bold", (0, 0, bw, int(bh * 0.55)), tracking=0.06)
    bottom, _ = fit_glyphs("SPECIMEN", "sans_bold", (0, 0, int(bw * 0.8), int(bh * 0.33)), tracking=0.1)
    stack = np.zeros((bh, bw), np.uint8)
    th, tw = top.mask.shape
    stack[:th, (bw - tw) // 2 : (bw - tw) // 2 + tw] = top.mask
    sh, sw = bottom.mask.shape
    oy = bh - sh
    stack[oy : oy + sh, (bw - sw) // 2 : (bw - sw) // 2 + sw] = np.maximum(
        stack[oy : oy + sh, (bw - sw) // 2 : (bw - sw) // 2 + sw], bottom.mask
    )
    # a slight tilt, kept inside the box
    rot = cv2.getRotationMatrix2D((bw / 2, bh / 2), 5.0, 0.86)
    stack = cv2.warpAffine(stack, rot, (bw, bh), flags=cv2.INTER_LINEAR)
    ring = outline(stack, 3)
    blend_mask(img, ring, (250, 250, 250), x0 - 3, y0 - 3, 0.55)
    blend_mask(img, stack, (60, 40, 175), x0, y0, 0.62)


def _engraving(img: np.ndarray, rng: np.random.Generator, ink: np.ndarray) -> None:
    """An abstract hatched building (columns, pediment, dome): the busy dark
    middle of the real notes, without depicting anything real."""
    m = np.zeros((_H, _W), np.uint8)
    x0, x1 = int(0.50 * _W), int(0.70 * _W)
    base, top = int(0.72 * _H), int(0.40 * _H)
    n_col = int(rng.integers(4, 7))
    col_w = (x1 - x0) / (2 * n_col - 1)
    for i in range(n_col):
        cx0 = int(x0 + 2 * i * col_w)
        for x in range(cx0, int(cx0 + col_w), 3):
            cv2.line(m, (x, top), (x, base), 255, 1, cv2.LINE_AA)
    # pediment and steps, hatched diagonally
    roof = np.array([[x0 - 12, top], [x1 + 12, top], [(x0 + x1) // 2, int(0.27 * _H)]], np.int32)
    cv2.polylines(m, [roof], True, 255, 2, cv2.LINE_AA)
    for k in range(0, x1 - x0 + 24, 5):
        cv2.line(m, (x0 - 12 + k, top), (x0 - 12 + k + 30, top - 30), 160, 1, cv2.LINE_AA)
    cv2.fillPoly(m, [np.array([[x0 - 12, top], [x1 + 12, top], [(x0 + x1) // 2, int(0.27 * _H)]])], 0)
    cv2.polylines(m, [roof], True, 255, 2, cv2.LINE_AA)
    for j in range(3):
        y = base + 6 * j
        cv2.line(m, (x0 - 20 - 8 * j, y), (x1 + 20 + 8 * j, y), 255, 2, cv2.LINE_AA)
    # dome arcs
    cx, cy = (x0 + x1) // 2, int(0.27 * _H)
    for r in range(20, 44, 4):
        cv2.ellipse(m, (cx, cy), (r, r), 0, 180, 360, 255, 1, cv2.LINE_AA)
    # hatched ground on both sides
    for y in range(base + 20, int(0.80 * _H), 4):
        cv2.line(m, (int(0.43 * _W), y), (int(0.74 * _W), y), 140, 1, cv2.LINE_AA)
    blend_mask(img, m, ink * 0.6, 0, 0, 0.75)


def _front_artwork(denomination: int) -> np.ndarray:
    lay = layout_for(denomination)
    rng = np.random.default_rng(7919 * denomination + 11)
    img = _paper(rng, lay)
    ink = np.array(lay.ink_bgr, np.float32)
    accent = np.array(lay.accent_bgr, np.float32)

    # background guilloche bands across the printed (middle) field
    fx0, fx1 = int(0.215 * _W), int(0.955 * _W)
    polys = []
    xs = np.linspace(fx0, fx1, 500)
    for i in range(46):
        y0 = _H * (0.06 + 0.88 * i / 45)
        f1, f2 = 2 * np.pi * rng.uniform(3, 6) / _W, 2 * np.pi * rng.uniform(9, 14) / _W
        ys = y0 + 9 * np.sin(f1 * xs + i * 0.4) + 4 * np.sin(f2 * xs + i * 0.9)
        polys.append(np.round(np.stack([xs, ys], 1) * 4).astype(np.int32))
    blend_mask(img, _line_mask(polys), accent, 0, 0, 0.35)
    # the right margin and the left field stay light, as on the real notes
    _whiten(img, box_to_px(lay.left_field), 0.78)
    _whiten(img, (int(0.955 * _W), 0, _W, _H), 0.55, 6)

    # a large central rosette where the real notes have a monument
    cx, cy = 0.44 * _W, 0.50 * _H
    polys = [_rosette(cx, cy, 150 - 3 * j, 150 - 3 * j, 18, 0.10, j * 0.35) for j in range(22)]
    blend_mask(img, _line_mask(polys), ink, 0, 0, 0.55)
    polys = [_rosette(cx, cy, 70 + 2 * j, 70 + 2 * j, 11, 0.25, j * 0.5) for j in range(14)]
    blend_mask(img, _line_mask(polys), accent, 0, 0, 0.6)
    # a small rosette in the left field (top) and one near the bottom right
    polys = [_rosette(0.10 * _W, 0.22 * _H, 48 - 2 * j, 48 - 2 * j, 12, 0.18, j * 0.6) for j in range(10)]
    blend_mask(img, _line_mask(polys), ink, 0, 0, 0.45)
    polys = [_rosette(0.865 * _W, 0.58 * _H, 70 - 2 * j, 34 - j, 14, 0.12, j * 0.5) for j in range(9)]
    blend_mask(img, _line_mask(polys), accent, 0, 0, 0.55)

    _engraving(img, rng, ink)
    # a vertical dashed strip (where the real notes have a thread)
    strip = np.zeros((_H, _W), np.uint8)
    for y in range(int(0.14 * _H), int(0.72 * _H), 24):
        cv2.rectangle(strip, (int(0.745 * _W), y), (int(0.745 * _W) + 6, y + 13), 255, -1)
    blend_mask(img, strip, ink * 0.9, 0, 0, 0.7)

    # big numerals, header, words, small print
    x0, y0, x1, y1 = box_to_px(lay.numeral_box)
    g, _ = fit_glyphs(str(denomination), "sans_bold", (x0, y0, x1, y1), tracking=0.02)
    blend_mask(img, outline(g.mask, 3), ink * 0.55, x0 - 3, y0 - 3, 0.9)
    blend_mask(img, g.mask, accent, x0, y0, 0.95)

    x0, y0, x1, y1 = box_to_px(lay.header_box)
    g, _ = fit_glyphs(HEADER_TEXT, "serif_bold", (x0, y0, x1, y1), tracking=0.02)
    blend_mask(img, g.mask, ink * 0.55, x1 - g.mask.shape[1], y0 + (y1 - y0 - g.mask.shape[0]) // 2, 0.95)

    x0, y0, x1, y1 = box_to_px(lay.words_box)
    g, _ = fit_glyphs(f"{_WORDS[denomination]} УЧЕБНЫХ ЕДИНИЦ", "sans_bold", (x0, y0, x1, y1), tracking=0.03)
    gx = x1 - g.mask.shape[1]
    blend_mask(img, outline(g.mask, 2), ink * 0.5, gx - 2, y0 - 2, 0.9)
    blend_mask(img, g.mask, (235, 238, 240), gx, y0, 0.9)

    small = ("ОБРАЗЕЦ", "НЕ ЯВЛЯЕТСЯ", "ПЛАТЁЖНЫМ", "СРЕДСТВОМ")
    for i, line in enumerate(small):
        g = text_glyphs(line, "sans_bold", 17)
        blend_mask(img, g.mask, ink * 0.5, int(0.025 * _W), int((0.80 + 0.042 * i) * _H), 0.9)
    g, _ = fit_glyphs(str(denomination), "sans_bold", box_to_px((0.83, 0.53, 0.90, 0.63)))
    blend_mask(img, g.mask, ink * 0.6, int(0.83 * _W), int(0.53 * _H), 0.8)
    # tactile bars
    for i in range(3):
        y = int((0.80 + 0.05 * i) * _H)
        cv2.rectangle(img, (int(0.225 * _W), y), (int(0.25 * _W), y + 9), tuple(float(c) for c in ink * 0.7), -1)

    _specimen_mark(img, lay)
    return img


def _back_artwork(denomination: int) -> np.ndarray:
    lay = layout_for(denomination)
    rng = np.random.default_rng(104729 * denomination + 3)
    img = _paper(rng, lay)
    ink = np.array(lay.ink_bgr, np.float32)
    accent = np.array(lay.accent_bgr, np.float32)
    polys = []
    for j in range(30):
        polys.append(_rosette(0.5 * _W, 0.5 * _H, 480 - 8 * j, 200 - 4 * j, 26, 0.05, j * 0.3))
    blend_mask(img, _line_mask(polys), accent, 0, 0, 0.45)
    polys = [_rosette(0.5 * _W, 0.5 * _H, 120 + 3 * j, 120 + 3 * j, 15, 0.2, j * 0.4) for j in range(15)]
    blend_mask(img, _line_mask(polys), ink, 0, 0, 0.55)
    _whiten(img, (int(0.78 * _W), 0, _W, _H), 0.7)
    for (bx, by) in ((0.05, 0.08), (0.62, 0.70)):
        x0, y0 = int(bx * _W), int(by * _H)
        g, _ = fit_glyphs(str(denomination), "sans_bold", (0, 0, int(0.25 * _W), int(0.2 * _H)))
        blend_mask(img, g.mask, ink * 0.7, x0, y0, 0.9)
    g, _ = fit_glyphs("ОБРАЗЕЦ · SPECIMEN", "sans_bold", (0, 0, int(0.6 * _W), int(0.1 * _H)))
    blend_mask(img, g.mask, (60, 40, 175), int(0.2 * _W), int(0.83 * _H), 0.6)
    return img


@functools.lru_cache(maxsize=len(DENOMINATIONS))
def _front_template(denomination: int) -> np.ndarray:
    img = _front_artwork(denomination)
    img.setflags(write=False)
    return img


@functools.lru_cache(maxsize=len(DENOMINATIONS))
def _back_template(denomination: int) -> np.ndarray:
    img = _back_artwork(denomination)
    img.setflags(write=False)
    return img


# --------------------------------------------------------------------------- serial prints


def _ink_colour(kind: str, lay: NoteLayout, rng: np.random.Generator) -> np.ndarray:
    if kind == "red":
        base = np.array(RED_INK, np.float32)
    else:
        base = np.array(lay.ink_bgr, np.float32) * 0.35 + 12
    return np.clip(base + rng.normal(0, 6, 3), 0, 255)


def _place_print(
    img: np.ndarray,
    rng: np.random.Generator,
    lay: NoteLayout,
    name: str,
    letters: str,
    digits: str,
) -> PrintInfo:
    box = box_to_px(lay.top_right_box if name == "top_right" else lay.left_box)
    colour = lay.top_right_colour if name == "top_right" else lay.left_colour
    bw, bh = box[2] - box[0], box[3] - box[1]
    if rng.random() < 0.5:
        letters = letters.lower()
    gap = " " if rng.random() < 0.7 else "  "
    if name == "top_right":
        face, stretch = _EVEN_FACES[int(rng.integers(len(_EVEN_FACES)))]
        text = letters + gap + digits
        size = bh * rng.uniform(0.78, 0.9)
        tracking = rng.uniform(0.02, 0.10)
        sizes: list[float] | float = size
    else:
        face, stretch = _GROWING_FACES[int(rng.integers(len(_GROWING_FACES)))]
        spaced = rng.random() < 0.5  # "а т 8376925" on some notes
        text = (letters[0] + " " + letters[1] if spaced else letters) + gap + digits
        base = bh * rng.uniform(0.55, 0.62)
        growth = rng.uniform(1.35, 1.55)  # last digit / first digit
        n_lead = len(text) - 7
        sizes = [base] * n_lead + [base * (1 + (growth - 1) * i / 6) for i in range(7)]
        tracking = rng.uniform(0.04, 0.12)
    glyphs = text_glyphs(text, face, sizes, tracking=tracking, stretch_x=stretch)
    # shrink to the box if needed (rare), keeping the proportions
    gh, gw = glyphs.mask.shape
    if gw > bw or gh > bh:
        k = min(bw / gw, bh / gh) * 0.98
        sizes = [s * k for s in sizes] if isinstance(sizes, list) else sizes * k
        glyphs = text_glyphs(text, face, sizes, tracking=tracking, stretch_x=stretch)
        gh, gw = glyphs.mask.shape
    if name == "top_right":
        x = box[2] - gw - int(rng.integers(0, max(1, bw - gw) // 3 + 1))
    else:
        x = box[0] + int(rng.integers(0, max(1, bw - gw) // 2 + 1))
    y = box[1] + int(rng.integers(0, max(1, bh - gh) + 1))
    ink = _ink_colour(colour, lay, rng)
    # printing is not perfectly even: a little coverage noise
    m = glyphs.mask.astype(np.float32) * (0.9 + 0.1 * rng.random(glyphs.mask.shape))
    blend_mask(img, m.astype(np.uint8), ink, x, y, 0.96)
    char_boxes = []
    heights = []
    chars = [c for c in text]
    for ch, cb in zip(chars, glyphs.char_boxes):
        if not cb:
            continue
        bx0, by0, bx1, by1 = cb
        char_boxes.append((float(x + bx0) / _W, float(y + by0) / _H, float(x + bx1) / _W, float(y + by1) / _H))
        if ch.isdigit():
            heights.append(by1 - by0)
    ys, xs = np.nonzero(glyphs.mask > 64)
    tight = (float(x + xs.min()) / _W, float(y + ys.min()) / _H, float(x + xs.max() + 1) / _W, float(y + ys.max() + 1) / _H)
    return PrintInfo(tight, tuple(char_boxes), colour, text, face, tuple(heights))


def render_note(spec: NoteSpec) -> RenderedNote:
    """Render the front of a specimen note, upright.

    Returns a :class:`RenderedNote` whose ``image`` is uint8 ``(500, 1150, 3)``
    BGR (see :data:`NOTE_SIZE_PX`) and whose ``prints`` maps ``"top_right"``
    and ``"left"`` to where and how the serial was printed. Deterministic in
    ``spec`` (fonts, case and jitter come from ``spec.style_seed``).
    """
    lay = layout_for(spec.denomination)
    rng = np.random.default_rng([spec.style_seed, spec.denomination])
    img = _front_template(spec.denomination).copy()
    prints = {name: _place_print(img, rng, lay, name, spec.letters, spec.digits) for name in PRINT_NAMES}
    return RenderedNote(spec, np.clip(img, 0, 255).astype(np.uint8), prints)


def render_note_back(denomination: int) -> np.ndarray:
    """The back of a specimen note (no serial): uint8 ``(500, 1150, 3)`` BGR.

    ``ValueError`` for an unknown denomination.
    """
    layout_for(denomination)
    return np.clip(_back_template(denomination), 0, 255).astype(np.uint8)
