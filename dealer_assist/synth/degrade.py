"""Pure degradations of a photo, as a user's phone produces them, for the degradation benchmark.

Every function takes a ``uint8`` ``(H, W, 3)`` BGR image and returns a new
``uint8`` ``(H', W', 3)`` BGR image (the input is never modified). Random
ones take a ``numpy.random.Generator`` and are deterministic given it; the
parameters a degradation was made with are plain JSON values (see
:func:`draw_params` and :func:`apply`), so a benchmark can record them and
make the same image again.

The kinds (:class:`Kind`) and what their parameters mean:

==================  ============================================================
kind                parameters
==================  ============================================================
``jpeg``            ``quality``: JPEG quality 4..8 (OpenCV's scale, 0..100)
``gaussian_blur``   ``sigma``: 2.5 px (defocus)
``motion_blur``     ``length``: 7..11 px, ``angle``: 0..180 degrees (shake)
``downscale``       ``factor``: 0.35..0.45 of each side (INTER_AREA)
``rotate``          ``degrees``: 90, 180, 270 (exact) or 45 (counter-clockwise,
                    canvas enlarged, corners filled with the border colour)
``dark``            ``gain``: 0.12..0.25, ``noise``: 1.5..3.5 (grey levels,
                    the sensor noise of a dark shot), ``seed``
``overexposed``     ``gain``: 1.8..2.6, ``lift``: 20..60 grey levels, clipped
``mirror``          ``axis``: ``"horizontal"`` (left-right, a selfie camera) or
                    ``"vertical"`` (top-bottom)
``one_print``       ``quad``: the hidden print's ``(4, 2)`` quad (px),
                    ``keep``: the other prints' quads that must stay whole,
                    ``how``: ``"crop"`` (the photo cut so that the print is out
                    of frame) or ``"cover"`` (a blob of paper colour over it)
``paint_digits``    ``quad``: one print's quad, ``first``: index 0..5 of the
                    first of the two painted digits, ``count``: 2; the digits'
                    boxes come from :func:`digit_quads`
==================  ============================================================

``one_print`` and ``paint_digits`` need where the prints are: the benchmark
reads the undegraded photo and passes the quads in (upright print quads, as
:class:`dealer_assist.vision.reader.Print` gives them: top-left, top-right,
bottom-right, bottom-left as the text reads).
"""

from __future__ import annotations

from enum import Enum, unique
from typing import Any, Sequence

import cv2
import numpy as np

from dealer_assist.synth.effects import decode_jpeg, encode_jpeg
from dealer_assist.vision.geometry import quad_size


@unique
class Kind(str, Enum):
    """One kind of degradation; the value is its name in results and on the command line.

    Parameter ranges are in :data:`RANGES`; the module docstring's table says
    what each parameter means.
    """

    JPEG = "jpeg"  #: re-encoded as JPEG at quality ``quality`` 4..8 (blocks, colour bleed)
    GAUSSIAN_BLUR = "gaussian_blur"  #: out of focus: Gaussian blur of ``sigma`` 2.5 px
    MOTION_BLUR = "motion_blur"  #: shaken: a line kernel ``length`` 7..11 px at ``angle`` degrees
    DOWNSCALE = "downscale"  #: taken from afar: each side times ``factor`` 0.35..0.45
    ROTATE = "rotate"  #: phone held sideways or upside down: ``degrees`` 90, 180, 270 or 45
    DARK = "dark"  #: a dark room: ``gain`` 0.12..0.25 plus sensor ``noise`` 1.5..3.5 grey levels
    OVEREXPOSED = "overexposed"  #: washed out: ``gain`` 1.8..2.6 plus ``lift`` 20..60, clipped
    MIRROR = "mirror"  #: a mirrored image (selfie camera): ``axis`` horizontal or vertical
    ONE_PRINT = "one_print"  #: one print of a note out of frame (``crop``) or covered (``cover``)
    PAINT_DIGITS = "paint_digits"  #: two adjacent digits of one print painted over with paper colour


#: Parameter ranges per kind (inclusive), as drawn by :func:`draw_params`.
RANGES: dict[Kind, dict[str, Any]] = {
    Kind.JPEG: {"quality": (4, 8)},
    Kind.GAUSSIAN_BLUR: {"sigma": (2.5, 2.5)},
    Kind.MOTION_BLUR: {"length": (7.0, 11.0), "angle": (0.0, 180.0)},
    Kind.DOWNSCALE: {"factor": (0.35, 0.45)},
    Kind.ROTATE: {"degrees": (90, 180, 270, 45)},
    Kind.DARK: {"gain": (0.12, 0.25), "noise": (1.5, 3.5)},
    Kind.OVEREXPOSED: {"gain": (1.8, 2.6), "lift": (20.0, 60.0)},
    Kind.MIRROR: {"axis": ("horizontal", "vertical")},
    Kind.ONE_PRINT: {"how": ("crop", "cover")},
    Kind.PAINT_DIGITS: {"first": (0, 5), "count": 2},
}

#: Kinds whose parameters need a print's location in the photo.
NEEDS_PRINTS = frozenset({Kind.ONE_PRINT, Kind.PAINT_DIGITS})


def _check(img: np.ndarray) -> None:
    if img.dtype != np.uint8 or img.ndim != 3 or img.shape[2] != 3:
        raise ValueError(f"expected a uint8 (H, W, 3) BGR image, got {img.dtype} {img.shape}")


# ----------------------------------------------------------------------------- camera and file


def jpeg(img: np.ndarray, quality: int) -> np.ndarray:
    """The image after a round trip through JPEG at ``quality`` (0..100, OpenCV's scale).

    >>> img = np.full((16, 16, 3), 128, np.uint8); img[4:12, 4:12] = 30
    >>> bool((jpeg(img, 4) != img).any())
    True
    """
    _check(img)
    data, _ = encode_jpeg(img, int(quality))
    return decode_jpeg(data)


def gaussian_blur(img: np.ndarray, sigma: float) -> np.ndarray:
    """Defocus: a Gaussian blur of standard deviation ``sigma`` pixels (same shape)."""
    _check(img)
    return cv2.GaussianBlur(img, (0, 0), float(sigma), borderType=cv2.BORDER_REPLICATE)


def motion_kernel(length: float, angle: float) -> np.ndarray:
    """A normalised line kernel ``float32`` ``(k, k)`` of ``length`` px at ``angle`` degrees
    (0 = horizontal, counter-clockwise as seen on screen); ``k`` is odd."""
    k = int(np.ceil(length)) | 1
    kern = np.zeros((k * 8, k * 8), np.float32)  # drawn at 8x then averaged down: sub-pixel ends
    c = (k * 8 - 1) / 2
    a = np.deg2rad(angle)
    d = np.array([np.cos(a), -np.sin(a)]) * (length * 8 - 1) / 2
    p0 = (int(round(c - d[0])), int(round(c - d[1])))
    p1 = (int(round(c + d[0])), int(round(c + d[1])))
    cv2.line(kern, p0, p1, 1.0, 8, cv2.LINE_AA)
    kern = cv2.resize(kern, (k, k), interpolation=cv2.INTER_AREA)
    return kern / kern.sum()


def motion_blur(img: np.ndarray, length: float, angle: float) -> np.ndarray:
    """Camera shake: the image smeared along a line of ``length`` px at ``angle`` degrees."""
    _check(img)
    return cv2.filter2D(img, -1, motion_kernel(length, angle), borderType=cv2.BORDER_REPLICATE)


def downscale(img: np.ndarray, factor: float) -> np.ndarray:
    """Each side times ``factor`` (0 < factor <= 1), area-averaged: a note taken from afar.

    The result is ``(round(H * factor), round(W * factor), 3)``, at least 1 px a side.
    """
    _check(img)
    h, w = img.shape[:2]
    size = (max(1, round(w * factor)), max(1, round(h * factor)))
    return cv2.resize(img, size, interpolation=cv2.INTER_AREA)


def rotate(img: np.ndarray, degrees: float) -> np.ndarray:
    """The photo turned ``degrees`` counter-clockwise (as seen on screen).

    Multiples of 90 are exact (no resampling; 90 and 270 swap height and
    width). Any other angle enlarges the canvas to hold the whole photo and
    fills the new corners with the median colour of the photo's border.
    """
    _check(img)
    d = float(degrees) % 360
    if d % 90 == 0:
        return np.ascontiguousarray(np.rot90(img, int(d // 90)))
    h, w = img.shape[:2]
    m = cv2.getRotationMatrix2D(((w - 1) / 2, (h - 1) / 2), d, 1.0)
    c, s = abs(m[0, 0]), abs(m[0, 1])
    nw, nh = int(np.ceil(w * c + h * s)), int(np.ceil(w * s + h * c))
    m[0, 2] += (nw - w) / 2
    m[1, 2] += (nh - h) / 2
    border = np.concatenate([img[0], img[-1], img[:, 0], img[:, -1]])
    fill = tuple(int(v) for v in np.median(border, axis=0))
    return cv2.warpAffine(img, m, (nw, nh), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT,
                          borderValue=fill)


def expose(img: np.ndarray, gain: float, lift: float = 0.0, noise: float = 0.0,
           rng: np.random.Generator | None = None) -> np.ndarray:
    """Exposure: ``clip(img * gain + lift + N(0, noise))`` in grey levels, rounded to uint8.

    ``gain`` < 1 darkens (a dark room), > 1 with a ``lift`` washes out (over-exposed,
    highlights clip at 255). ``noise`` (standard deviation, grey levels) needs ``rng``.
    """
    _check(img)
    out = img.astype(np.float32) * float(gain) + float(lift)
    if noise > 0:
        if rng is None:
            raise ValueError("noise needs a random generator")
        h, w = img.shape[:2]
        out += rng.normal(0.0, noise, (h, w, 1)).astype(np.float32)  # luma noise
        out += rng.normal(0.0, noise * 0.4, (h, w, 3)).astype(np.float32)  # a little chroma noise
    return np.clip(np.round(out), 0, 255).astype(np.uint8)


def mirror(img: np.ndarray, axis: str = "horizontal") -> np.ndarray:
    """The mirror image: ``"horizontal"`` swaps left and right, ``"vertical"`` top and bottom."""
    _check(img)
    if axis == "horizontal":
        return np.ascontiguousarray(img[:, ::-1])
    if axis == "vertical":
        return np.ascontiguousarray(img[::-1])
    raise ValueError(f"axis must be 'horizontal' or 'vertical', not {axis!r}")


# ----------------------------------------------------------------------------- covering prints


def _poly_mask(shape: tuple[int, ...], quad: np.ndarray) -> np.ndarray:
    """``uint8`` ``(H, W)`` mask, 255 inside ``quad`` (sub-pixel corners, 1/16 px)."""
    m = np.zeros(shape[:2], np.uint8)
    cv2.fillPoly(m, [np.round(np.asarray(quad, np.float64) * 16).astype(np.int32)], 255, cv2.LINE_8, shift=4)
    return m


def grow_quad(quad: np.ndarray, along: float, across: float) -> np.ndarray:
    """``quad`` ``(4, 2)`` (upright order) grown by ``along`` px at each end of its
    reading direction and ``across`` px above and below; ``float32``."""
    q = np.asarray(quad, np.float64).reshape(4, 2)
    u = (q[1] + q[2] - q[0] - q[3]) / 2
    v = (q[3] + q[2] - q[0] - q[1]) / 2
    u /= max(np.linalg.norm(u), 1e-9)
    v /= max(np.linalg.norm(v), 1e-9)
    return (q + np.array([-u, u, u, -u]) * along + np.array([-v, -v, v, v]) * across).astype(np.float32)


def paper_colour(img: np.ndarray, quad: np.ndarray, ring: float = 0.6) -> np.ndarray:
    """The local paper colour around ``quad``: per-channel median of the brighter half of a
    ring ``ring`` print heights wide around it (the ink is darker than the paper).
    Returns ``float32`` ``(3,)`` BGR."""
    _, h = quad_size(quad)
    outer = _poly_mask(img.shape, grow_quad(quad, ring * h, ring * h))
    inner = _poly_mask(img.shape, quad)
    px = img[(outer > 0) & (inner == 0)]
    if len(px) == 0:
        px = img.reshape(-1, 3)
    bright = px.sum(axis=1)
    px = px[bright >= np.median(bright)]
    return np.median(px, axis=0).astype(np.float32)


def paint_over(img: np.ndarray, quad: np.ndarray, colour: Sequence[float] | None = None,
               feather: float = 0.0, rng: np.random.Generator | None = None, grain: float = 0.0) -> np.ndarray:
    """Paint the polygon ``quad`` (``(4, 2)`` px) with ``colour`` (BGR; default the
    local :func:`paper_colour`).

    Every pixel inside the quad is replaced. ``feather`` (px) softens the edge
    *outside* the quad only (a blob, not a sticker), so the inside stays
    exactly ``colour`` (plus ``grain``: Gaussian noise of that many grey
    levels, drawn from ``rng``, so the patch is not flatter than paper).
    """
    _check(img)
    col = paper_colour(img, quad) if colour is None else np.asarray(colour, np.float32)
    inside = _poly_mask(img.shape, quad).astype(np.float32) / 255.0
    alpha = inside
    if feather > 0:
        soft = cv2.GaussianBlur(inside, (0, 0), feather / 2)
        alpha = np.maximum(inside, np.clip(soft * 2, 0, 1))
    patch = np.broadcast_to(col, img.shape).astype(np.float32)
    if grain > 0:
        if rng is None:
            raise ValueError("grain needs a random generator")
        patch = patch + rng.normal(0, grain, img.shape[:2] + (1,)).astype(np.float32)
    out = img.astype(np.float32) * (1 - alpha[..., None]) + patch * alpha[..., None]
    return np.clip(np.round(out), 0, 255).astype(np.uint8)


def _bbox(quads: Sequence[np.ndarray]) -> tuple[float, float, float, float]:
    pts = np.concatenate([np.asarray(q, np.float64).reshape(-1, 2) for q in quads])
    return float(pts[:, 0].min()), float(pts[:, 1].min()), float(pts[:, 0].max()), float(pts[:, 1].max())


def crop_window(shape: tuple[int, ...], hide: np.ndarray, keep: Sequence[np.ndarray],
                margin: float = 0.5) -> tuple[int, int, int, int] | None:
    """The largest axis-aligned crop ``(x0, y0, x1, y1)`` (pixels, end exclusive) of an
    image of ``shape`` that cuts along one side of the print ``hide`` so that all of it
    is out of frame, while every quad of ``keep`` stays inside with ``margin`` print
    heights to spare. ``None`` when no single cut does both."""
    h_img, w_img = shape[:2]
    _, ph = quad_size(hide)
    m = margin * ph
    hx0, hy0, hx1, hy1 = _bbox([hide])
    best, best_area = None, 0
    candidates = [
        (0, 0, int(np.floor(hx0 - m)), h_img),  # keep what is left of the print
        (int(np.ceil(hx1 + m)) + 1, 0, w_img, h_img),  # right of it
        (0, 0, w_img, int(np.floor(hy0 - m))),  # above it
        (0, int(np.ceil(hy1 + m)) + 1, w_img, h_img),  # below it
    ]
    for x0, y0, x1, y1 in candidates:
        x0, y0, x1, y1 = max(0, x0), max(0, y0), min(w_img, x1), min(h_img, y1)
        if x1 - x0 < 64 or y1 - y0 < 64:
            continue
        ok = True
        for q in keep:
            _, kh = quad_size(q)
            kx0, ky0, kx1, ky1 = _bbox([q])
            mk = margin * kh
            if kx0 - mk < x0 or ky0 - mk < y0 or kx1 + mk > x1 - 1 or ky1 + mk > y1 - 1:
                ok = False
                break
        area = (x1 - x0) * (y1 - y0)
        if ok and area > best_area:
            best, best_area = (x0, y0, x1, y1), area
    return best


def hide_print(img: np.ndarray, quad: np.ndarray, keep: Sequence[np.ndarray] = (),
               how: str = "cover", rng: np.random.Generator | None = None) -> tuple[np.ndarray, dict]:
    """Hide one serial print: crop it out of the frame, or cover it with paper colour.

    Args:
        img: ``uint8`` ``(H, W, 3)`` BGR.
        quad: the print to hide, ``(4, 2)`` px.
        keep: prints that must stay whole and in frame (the note's other print,
            other notes' prints); used by ``"crop"``.
        how: ``"crop"``: the largest crop with one straight cut that leaves
            ``quad`` out and every ``keep`` quad in (:func:`crop_window`);
            falls back to ``"cover"`` when there is none. ``"cover"``: the
            print grown by half its height on every side, painted with the
            local paper colour (a soft-edged blob with a little grain).
        rng: for the cover's grain (none without it).

    Returns:
        ``(image, info)``; ``info`` has ``how`` (what was done) and, for a
        crop, ``window`` ``[x0, y0, x1, y1]`` (px of the input, end exclusive),
        for a cover, ``cover`` (the painted quad).
    """
    _check(img)
    if how == "crop":
        win = crop_window(img.shape, quad, keep)
        if win is not None:
            x0, y0, x1, y1 = win
            return img[y0:y1, x0:x1].copy(), {"how": "crop", "window": [x0, y0, x1, y1]}
    elif how != "cover":
        raise ValueError(f"how must be 'crop' or 'cover', not {how!r}")
    _, h = quad_size(quad)
    cover = grow_quad(quad, 0.5 * h, 0.5 * h)
    out = paint_over(img, cover, feather=0.3 * h, rng=rng, grain=2.0 if rng is not None else 0.0)
    return out, {"how": "cover", "cover": np.round(cover, 1).tolist()}


def digit_quads(img: np.ndarray, quad: np.ndarray, n_digits: int = 7) -> list[np.ndarray]:
    """Where each of the serial's ``n_digits`` digits lies in a print: ``(4, 2)`` quads, px,
    in reading order.

    ``quad`` is the print's upright quad as the text detector gives it (tight
    around the two letters and the digits). The print is rectified to a
    48-px-high crop and its ink found (Otsu's threshold on the darkness of the
    darkest channel, which catches both the dark and the red prints). The
    digits run from the widest ink gap in the first 45 % of the text (between
    the letters and the digits) to the last ink column; when that gap is not
    where it should be (the digits then span 55..85 % of the text), they are
    taken as the last 70 %. That span is cut into ``n_digits`` equal cells and
    each cut is moved to the emptiest ink column within a third of a cell
    (the left print's digits grow from left to right).
    """
    q = np.asarray(quad, np.float64).reshape(4, 2)
    w, h = quad_size(q)
    out_h = 48
    ow = max(int(round(w * out_h / max(h, 1e-6))), 16)
    dst = np.array([[0, 0], [ow - 1, 0], [ow - 1, out_h - 1], [0, out_h - 1]], np.float32)
    fwd = cv2.getPerspectiveTransform(q.astype(np.float32), dst)
    crop = cv2.warpPerspective(img, fwd, (ow, out_h), flags=cv2.INTER_AREA, borderMode=cv2.BORDER_REPLICATE)
    dark = cv2.GaussianBlur(255 - crop.min(axis=2), (0, 0), 0.8)
    _, ink = cv2.threshold(dark, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    cols = (ink[int(out_h * 0.2):int(out_h * 0.8)] > 0).sum(axis=0).astype(np.float64)
    has = np.where(cols >= 2)[0]
    start, end = (float(has[0]), float(has[-1] + 1)) if len(has) else (0.0, float(ow))
    span = max(end - start, 1.0)
    digits_start = None
    best_gap = 0
    x = int(start)
    while x < start + 0.45 * span:
        if cols[x] < 2:
            x1 = x
            while x1 < ow and cols[x1] < 2:
                x1 += 1
            if x1 - x > best_gap:
                best_gap, digits_start = x1 - x, float(x1)
            x = x1
        else:
            x += 1
    if digits_start is None or not 0.55 <= (end - digits_start) / span <= 0.85:
        digits_start = end - 0.70 * span
    cell = (end - digits_start) / n_digits
    smooth = np.convolve(cols, np.ones(3) / 3, mode="same")
    edges = [max(digits_start - 0.1 * cell, 0.0)]
    for i in range(1, n_digits):
        c = digits_start + i * cell
        lo, hi = int(round(c - cell / 3)), int(round(c + cell / 3)) + 1
        window = smooth[max(lo, 0):min(hi, ow)]
        edges.append(float(max(lo, 0) + int(np.argmin(window))) + 0.5 if len(window) else c)
    edges.append(min(end + 0.1 * cell, float(ow)))
    inv = np.linalg.inv(fwd)
    quads = []
    for i in range(n_digits):
        a, b = edges[i], edges[i + 1]
        pts = np.array([[a, 0], [b, 0], [b, out_h - 1], [a, out_h - 1]], np.float64)
        quads.append(cv2.perspectiveTransform(pts.reshape(-1, 1, 2), inv).reshape(4, 2).astype(np.float32))
    return quads


def paint_digits(img: np.ndarray, quad: np.ndarray, first: int, count: int = 2,
                 rng: np.random.Generator | None = None) -> tuple[np.ndarray, dict]:
    """Paint over ``count`` adjacent digits of one print, from digit ``first`` (0 = leftmost
    of the 7 as the text reads), with a blob of the local paper colour.

    The blob is the union of the digits' cells (:func:`digit_quads`) grown by a
    fifth of the print height above and below; its edge is feathered outwards.
    Returns ``(image, info)`` with ``info["cover"]``, the painted quad (px).
    """
    _check(img)
    cells = digit_quads(img, quad)
    a, b = cells[first], cells[first + count - 1]
    box = np.array([a[0], b[1], b[2], a[3]], np.float64)
    _, h = quad_size(quad)
    box = grow_quad(box, 0.0, 0.2 * h)
    colour = paper_colour(img, quad)
    out = paint_over(img, box, colour, feather=0.15 * h, rng=rng, grain=2.0 if rng is not None else 0.0)
    return out, {"cover": np.round(box, 1).tolist()}


# ----------------------------------------------------------------------------- by kind


def draw_params(kind: Kind, rng: np.random.Generator) -> dict[str, Any]:
    """One random draw of ``kind``'s parameters from :data:`RANGES` (JSON values).

    ``one_print`` and ``paint_digits`` draw only ``how`` / ``first``; the caller
    adds the print quads (``quad``, ``keep``).
    """
    r = RANGES[kind]
    if kind is Kind.JPEG:
        return {"quality": int(rng.integers(r["quality"][0], r["quality"][1] + 1))}
    if kind is Kind.GAUSSIAN_BLUR:
        return {"sigma": r["sigma"][0]}
    if kind is Kind.MOTION_BLUR:
        return {"length": round(float(rng.uniform(*r["length"])), 2), "angle": round(float(rng.uniform(*r["angle"])), 1)}
    if kind is Kind.DOWNSCALE:
        return {"factor": round(float(rng.uniform(*r["factor"])), 3)}
    if kind is Kind.ROTATE:
        return {"degrees": int(rng.choice(r["degrees"]))}
    if kind is Kind.DARK:
        return {"gain": round(float(rng.uniform(*r["gain"])), 3), "noise": round(float(rng.uniform(*r["noise"])), 2),
                "seed": int(rng.integers(0, 2**31))}
    if kind is Kind.OVEREXPOSED:
        return {"gain": round(float(rng.uniform(*r["gain"])), 3), "lift": round(float(rng.uniform(*r["lift"])), 1)}
    if kind is Kind.MIRROR:
        return {"axis": str(rng.choice(r["axis"]))}
    if kind is Kind.ONE_PRINT:
        return {"how": str(rng.choice(r["how"])), "seed": int(rng.integers(0, 2**31))}
    if kind is Kind.PAINT_DIGITS:
        return {"first": int(rng.integers(r["first"][0], r["first"][1] + 1)), "count": r["count"],
                "seed": int(rng.integers(0, 2**31))}
    raise ValueError(f"unknown kind {kind!r}")


def apply(img: np.ndarray, kind: Kind, params: dict[str, Any]) -> tuple[np.ndarray, dict]:
    """Degrade ``img`` by ``kind`` with ``params`` (as :func:`draw_params` gives, plus the
    print quads ``quad`` and ``keep`` for the print kinds). Deterministic.

    Returns ``(image, info)``: ``info`` says what was done where it is not
    plain from ``params`` (for ``one_print``: ``how`` actually used and the
    crop ``window`` or the ``cover`` quad; for ``paint_digits``: ``cover``).
    """
    kind = Kind(kind)
    p = params
    if kind is Kind.JPEG:
        return jpeg(img, p["quality"]), {}
    if kind is Kind.GAUSSIAN_BLUR:
        return gaussian_blur(img, p["sigma"]), {}
    if kind is Kind.MOTION_BLUR:
        return motion_blur(img, p["length"], p["angle"]), {}
    if kind is Kind.DOWNSCALE:
        return downscale(img, p["factor"]), {}
    if kind is Kind.ROTATE:
        return rotate(img, p["degrees"]), {}
    if kind is Kind.DARK:
        return expose(img, p["gain"], 0.0, p["noise"], np.random.default_rng(p["seed"])), {}
    if kind is Kind.OVEREXPOSED:
        return expose(img, p["gain"], p["lift"]), {}
    if kind is Kind.MIRROR:
        return mirror(img, p["axis"]), {}
    if kind is Kind.ONE_PRINT:
        keep = [np.asarray(q, np.float32) for q in p.get("keep", [])]
        return hide_print(img, np.asarray(p["quad"], np.float32), keep, p["how"],
                          np.random.default_rng(p["seed"]))
    if kind is Kind.PAINT_DIGITS:
        return paint_digits(img, np.asarray(p["quad"], np.float32), p["first"], p["count"],
                            np.random.default_rng(p["seed"]))
    raise ValueError(f"unknown kind {kind!r}")
