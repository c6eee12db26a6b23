"""Training material for the serial recognizer, all made at run time (nothing of it is committed).

* **Real crops** (:func:`real_prints`): the reader's text detector runs on
  each labelled photo of ``../shared/real_photos``; a detected line becomes a
  print of a labelled note when PP-OCRv6 or PP-OCRv4 reads, one way up, a digit
  run within one digit of the note's label (the label, not the engine's read,
  is the target). Each print keeps its photo and quad, so that augmentation
  degrades the photo around it, not the small crop. Cached as JSON under
  ``/tmp/dealer-assist-training/`` keyed by the photo's hash.
* **Split by note** (:func:`split_of_note`): a note's serial digits, hashed,
  put all its prints in ``train``, ``val`` or ``test``.
* **Synthetic prints** (:func:`synthetic_prints`): specimen notes of
  :mod:`dealer_assist.synth.note`, both prints, with patches of other text and
  artwork as negatives (empty target).
* **Augmentation** (:func:`sample`): the photo region round the print is
  degraded as a phone degrades it (downscale to 1.8-6 px/mm, blur, motion
  blur, JPEG 4-90, dark / over-exposed, noise, glare, a fold line), then
  rectified from a jittered quad as the reader does; some samples are turned
  upside down or mirrored and then have an empty target.
* **Hard augmentation** (:func:`hard_degrade`, a ``hard`` share of the training samples only; the
  held-out sets stay as they were): what the reader still missed on the degradation benchmark
  (motion blur, blown highlights, heavy JPEG, defocus, low contrast), drawn at a real photo's scale
  (the region first brought to a print height of 18-50 px) over wider ranges than the benchmark's.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from dealer_assist.vision.geometry import quad_size, rectify, rotate_quad_180, upright_line_quad
from dealer_assist.vision.recognizer import preprocess

REPO = Path(__file__).resolve().parents[1]
PHOTOS = REPO.parent / "shared" / "real_photos"
CACHE = Path("/tmp/dealer-assist-training")
SPLITS = ("train", "val", "test")


@dataclass
class PrintSample:
    """One print to learn from: a region of an image, the print's quad in it, and the target text."""

    image: np.ndarray  # uint8 BGR region
    quad: np.ndarray  # (4, 2) float32 upright quad in ``image``
    text: str  # target ("АК 1234567", or "1234567" when the letters are not in the line; "" = negative)
    note: str  # a key of the note ("real:<digits>", "synth:<n>")
    source: str  # "real" | "synth"
    px_per_mm: float | None = None


def split_of_note(digits: str) -> str:
    """``train`` (60 %), ``val`` (20 %) or ``test`` (20 %) by the SHA-256 of the note's serial digits."""
    k = int(hashlib.sha256(digits.encode()).hexdigest(), 16) % 10
    return "train" if k < 6 else ("val" if k < 8 else "test")


def _hamming(a: str, b: str) -> int:
    return sum(x != y for x, y in zip(a, b)) + abs(len(a) - len(b))


def _matches(text: str, digits: str) -> bool:
    """A digit run of ``text`` is ``digits`` give or take one digit (same length)."""
    import re

    return any(len(r) == len(digits) and _hamming(r, digits) <= 1 for r in re.findall(r"\d+", text))


def _has_letters(text: str, digits: str) -> bool:
    """The read shows a letter (any script) before the matched digit run."""
    import re

    for m in re.finditer(r"\d+", text):
        if len(m.group(0)) == len(digits) and _hamming(m.group(0), digits) <= 1:
            return any(ch.isalpha() for ch in text[: m.start()])
    return False


def _locate_photo(entry: dict, engines) -> list[dict]:
    """The labelled prints found in one photo: ``{"digits", "letters", "quad", "with_letters"}``."""
    from dealer_assist.vision.images import load_image
    from dealer_assist.vision.params import DEFAULT_PARAMS as P

    det, v4 = engines
    image = load_image(PHOTOS / entry["file"])[0]
    notes = [n for n in entry["notes"] if n["serial_digits"].isdigit()]
    found = []
    for box in det.detect(image):
        quad = upright_line_quad(box)
        w, h = quad_size(quad)
        if h < P.min_print_height_px or not (P.print_aspect[0] <= w / max(h, 1e-6) <= P.print_aspect[1]):
            continue
        crop = rectify(image, quad)
        for q, c in ((quad, crop), (rotate_quad_180(quad), crop[::-1, ::-1].copy())):
            reads = [det.recognize(c).text, v4.recognize(c).text]
            hit = next((n for n in notes if any(_matches(t, n["serial_digits"]) for t in reads)), None)
            if hit is not None:
                found.append({"digits": hit["serial_digits"], "letters": hit["serial_letters"].upper(),
                              "quad": np.asarray(q, np.float32).tolist(),
                              "with_letters": any(_has_letters(t, hit["serial_digits"]) for t in reads)})
                break
    return found


def real_prints(split: str | None = None) -> list[dict]:
    """Every labelled print located in the real photos (see the module docstring), optionally of one split:
    ``{"photo", "digits", "letters", "quad", "with_letters", "split"}``. Slow the first time (the detector
    and two recognizers on each photo), then read from the cache."""
    from dealer_assist.vision.ocr import PpOcrV4Engine, RapidOcrEngine

    labels = json.loads((PHOTOS / "labels.json").read_text(encoding="utf-8"))
    engines = None
    out = []
    for entry in sorted(labels, key=lambda e: e["file"]):
        notes = [n for n in entry["notes"] if n["serial_digits"].isdigit()]
        if not notes or (split is not None and all(split_of_note(n["serial_digits"]) != split for n in notes)):
            continue
        digest = hashlib.sha256((PHOTOS / entry["file"]).read_bytes()).hexdigest()[:16]
        path = CACHE / "prints" / f"{entry['file']}-{digest}.json"
        if path.is_file():
            found = json.loads(path.read_text())
        else:
            engines = engines or (RapidOcrEngine(), PpOcrV4Engine())
            found = _locate_photo(entry, engines)
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(json.dumps(found, ensure_ascii=False))
        for f in found:
            s = split_of_note(f["digits"])
            if split is None or s == split:
                out.append({**f, "photo": entry["file"], "split": s})
    return out


def target_text(p: dict) -> str:
    """The text a real print's line shows: letters, a space, the digits (a 2017-series print glues its
    letters to the digits). The detector's line holds the letters on every located print (their boxes'
    aspect ratios do not differ whether or not an engine read the letters), so they are always in it."""
    if len(p["letters"]) != 2:
        return p["digits"]
    return f"{p['letters']} {p['digits']}" if len(p["digits"]) == 7 else p["letters"] + p["digits"]


def real_samples(split: str) -> list[PrintSample]:
    """The real prints of ``split`` as :class:`PrintSample` (a region of the photo round each print)."""
    from dealer_assist.vision.images import load_image

    out, images = [], {}
    for p in real_prints(split):
        if p["photo"] not in images:
            images[p["photo"]] = load_image(PHOTOS / p["photo"])[0]
        region, quad = _region(images[p["photo"]], np.asarray(p["quad"], np.float32))
        out.append(PrintSample(region, quad, target_text(p), "real:" + p["digits"], "real"))
    return out


def _region(image: np.ndarray, quad: np.ndarray, pad: float = 1.5) -> tuple[np.ndarray, np.ndarray]:
    """The axis-aligned part of ``image`` round ``quad`` (``pad`` print heights each side), and the quad in it."""
    _, h = quad_size(quad)
    m = pad * h
    x0, y0 = np.floor(quad.min(axis=0) - m).astype(int)
    x1, y1 = np.ceil(quad.max(axis=0) + m).astype(int)
    x0, y0 = max(x0, 0), max(y0, 0)
    x1, y1 = min(x1, image.shape[1]), min(y1, image.shape[0])
    return image[y0:y1, x0:x1].copy(), (quad - np.array([x0, y0], np.float32)).astype(np.float32)


# ----------------------------------------------------------------------------- synthetic


def synthetic_prints(n_notes: int, seed: int) -> list[PrintSample]:
    """Both prints of ``n_notes`` specimen notes, plus two negatives per note (other text, artwork)."""
    from dealer_assist.synth.layout import NOTE_SIZE_PX
    from dealer_assist.synth.note import random_spec, render_note

    rng = np.random.default_rng(seed)
    W, H = NOTE_SIZE_PX
    out = []
    for i in range(n_notes):
        note = render_note(random_spec(rng))
        img = note.image
        for name, info in note.prints.items():
            x0, y0, x1, y1 = info.box
            # the detector's box is the ink box grown a little (about a fifth of the height)
            bh = (y1 - y0) * H
            gx, gy = rng.uniform(0.1, 0.45) * bh, rng.uniform(0.1, 0.35) * bh
            quad = np.array([[x0 * W - gx, y0 * H - gy], [x1 * W + gx, y0 * H - gy],
                             [x1 * W + gx, y1 * H + gy], [x0 * W - gx, y1 * H + gy]], np.float32)
            region, q = _region(img, quad)
            text = note.spec.letters + " " + note.spec.digits
            if rng.random() < 0.1:  # the detector split the letters off
                cut = [cb for cb, ch in zip(info.char_boxes, info.text.replace(" ", "")) if ch.isdigit()][0][0]
                quad[[0, 3], 0] = cut * W - gx
                region, q = _region(img, quad)
                text = note.spec.digits
            out.append(PrintSample(region, q, text, f"synth:{i}", "synth"))
        for _ in range(2):  # negatives: a line-shaped patch away from the prints
            hh = rng.uniform(20, 60)
            ww = hh * rng.uniform(3, 8)
            for _try in range(20):
                cx, cy = rng.uniform(ww / 2, W - ww / 2), rng.uniform(hh / 2, H - hh / 2)
                box = (cx - ww / 2, cy - hh / 2, cx + ww / 2, cy + hh / 2)
                if not any(_overlap(box, [b * s for b, s in zip(p.box, (W, H, W, H))]) for p in note.prints.values()):
                    break
            quad = np.array([[box[0], box[1]], [box[2], box[1]], [box[2], box[3]], [box[0], box[3]]], np.float32)
            region, q = _region(img, quad)
            out.append(PrintSample(region, q, "", f"synth:{i}", "synth"))
    return out


def _overlap(a, b) -> bool:
    return not (a[2] < b[0] or b[2] < a[0] or a[3] < b[1] or b[3] < a[1])


# ----------------------------------------------------------------------------- augmentation


def _jpeg(img: np.ndarray, q: int) -> np.ndarray:
    ok, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, int(q)])
    return cv2.imdecode(buf, cv2.IMREAD_COLOR)


def _motion(img: np.ndarray, length: float, angle: float) -> np.ndarray:
    from dealer_assist.synth.degrade import motion_kernel

    return cv2.filter2D(img, -1, motion_kernel(length, angle), borderType=cv2.BORDER_REPLICATE)


def degrade(region: np.ndarray, quad: np.ndarray, rng: np.random.Generator, strength: float = 1.0
            ) -> tuple[np.ndarray, np.ndarray]:
    """A phone's degradation of ``region`` round a print, and the print's quad in the result.

    ``strength`` 0 leaves the region alone; 1 draws every effect at its full range.
    """
    img = region
    q = quad.copy()
    _, h = quad_size(q)
    if strength <= 0:
        return img, q
    # scale: a print's line is ~4.5 mm high; 1.8..6 px/mm makes it ~8..27 px high
    small = False
    if rng.random() < 0.6 * strength:
        target_h = rng.uniform(9, 30)
        small = target_h < 16
        f = min(1.0, target_h / max(h, 1))
        if f < 0.95:
            img = cv2.resize(img, (max(1, round(img.shape[1] * f)), max(1, round(img.shape[0] * f))),
                             interpolation=cv2.INTER_AREA)
            q = q * np.float32(f)
    _, h = quad_size(q)
    r = rng.random()
    if r < 0.25 * strength:
        img = cv2.GaussianBlur(img, (0, 0), rng.uniform(0.4, 0.07 * h + 0.5))
    elif r < 0.45 * strength:
        img = _motion(img, rng.uniform(2, max(3, 0.3 * h)), rng.uniform(0, 180))
    img = img.astype(np.float32)
    r = rng.random()
    if r < 0.15 * strength:  # dark + noise
        img = img * rng.uniform(0.15, 0.5) + rng.normal(0, rng.uniform(1, 3), img.shape[:2])[..., None]
    elif r < 0.3 * strength:  # washed out
        img = img * rng.uniform(1.3, 2.2) + rng.uniform(0, 50)
    else:
        img = img * rng.uniform(0.75, 1.2) + rng.uniform(-25, 25)
    if rng.random() < 0.15 * strength:  # glare: a soft bright blob
        yy, xx = np.mgrid[: img.shape[0], : img.shape[1]]
        cx, cy = rng.uniform(0, img.shape[1]), rng.uniform(0, img.shape[0])
        s = rng.uniform(0.5, 2.0) * h
        img = img + rng.uniform(60, 200) * np.exp(-((xx - cx) ** 2 + (yy - cy) ** 2) / (2 * s * s))[..., None]
    if rng.random() < 0.1 * strength:  # a fold: a darker line across the print
        x = rng.uniform(q[:, 0].min(), q[:, 0].max())
        cv2.line(img, (int(x), 0), (int(x + rng.uniform(-h, h)), img.shape[0]), (0, 0, 0) if rng.random() < .5
                 else (255, 255, 255), 1)
        img = img * 1.0
    img = img + rng.normal(0, rng.uniform(0, 4), img.shape)
    img = np.clip(img, 0, 255).astype(np.uint8)
    if rng.random() < 0.6 * strength:
        # JPEG's 8x8 blocks are as big on a small print as on a big one: a small one gets milder quality
        img = _jpeg(img, int(rng.choice([15, 25, 40, 60, 85] if small else [4, 5, 6, 8, 10, 15, 25, 40, 60, 85])))
    return img, q


#: The kinds of :func:`hard_degrade` and their ranges, at a print height of 24..50 px (a photo's own scale,
#: whose detector lines are 33..46 px high for the middle 80 % of the located real prints;
#: ``dealer_assist.synth.degrade.RANGES`` are the degradation benchmark's narrower ones inside these).
HARD_RANGES = {
    "motion_blur": {"length": (0.1, 0.33)},  # print heights, at least 3 px, any angle (benchmark 7..11 px)
    "overexposed": {"gain": (1.5, 2.8), "lift": (10.0, 70.0)},  # clipped at 255 (benchmark 1.8..2.6, 20..60)
    "jpeg": {"quality": (4, 30)},  # OpenCV's scale, from 10 on a print under 36 px (benchmark 4..8)
    "defocus": {"sigma": (0.03, 0.075)},  # print heights (benchmark 2.5 px)
    "low_contrast": {"gain": (0.25, 0.6)},  # towards the region's mean grey
}


def hard_degrade(region: np.ndarray, quad: np.ndarray, rng: np.random.Generator
                 ) -> tuple[np.ndarray, np.ndarray]:
    """One or two of :data:`HARD_RANGES`' degradations of ``region`` round a print (then JPEG at 30-90 when
    none of them was JPEG, as a phone saves it), and the print's quad in the result.

    A region whose print is higher than 50 px (and 30 % of the others) is first brought to a height of
    24..50 px (INTER_AREA): the benchmark's degradations act on photos whose prints are that high.
    """
    img, q = region, quad.astype(np.float32).copy()
    _, h = quad_size(q)
    if h > 50 or rng.random() < 0.3:
        f = min(1.0, rng.uniform(24, 50) / max(h, 1))
        if f < 0.95:
            img = cv2.resize(img, (max(1, round(img.shape[1] * f)), max(1, round(img.shape[0] * f))),
                             interpolation=cv2.INTER_AREA)
            q = q * np.float32(f)
    kinds = list(HARD_RANGES)
    chosen = list(rng.choice(kinds, size=min(len(kinds), 1 if rng.random() < 0.75 else 2), replace=False))
    # JPEG last: a phone blurs and exposes before it saves
    chosen.sort(key=lambda k: k == "jpeg")
    for kind in chosen:
        r = HARD_RANGES[kind]
        if kind == "motion_blur":
            img = _motion(img, max(3.0, rng.uniform(*r["length"]) * quad_size(q)[1]), rng.uniform(0, 180))
        elif kind == "overexposed":
            img = np.clip(img.astype(np.float32) * rng.uniform(*r["gain"]) + rng.uniform(*r["lift"]), 0, 255
                          ).astype(np.uint8)
        elif kind == "jpeg":
            lo = r["quality"][0] if quad_size(q)[1] >= 36 else 10  # 8x8 blocks crush a small print sooner
            img = _jpeg(img, int(rng.integers(lo, r["quality"][1] + 1)))
        elif kind == "defocus":
            img = cv2.GaussianBlur(img, (0, 0), max(0.6, rng.uniform(*r["sigma"]) * quad_size(q)[1]),
                                   borderType=cv2.BORDER_REPLICATE)
        elif kind == "low_contrast":
            f = img.astype(np.float32)
            m = f.mean(axis=(0, 1), keepdims=True)
            g = rng.uniform(*r["gain"])
            img = np.clip(m + (f - m) * g + rng.normal(0, 1.5, f.shape), 0, 255).astype(np.uint8)
    if "jpeg" not in chosen:
        img = _jpeg(img, int(rng.integers(30, 91)))
    return img, q


#: A hard-degraded print whose crop spreads less than this (grey levels, 5th..95th percentile of its best
#: channel) shows nothing legible: its target is empty.
HARD_MIN_SPREAD = 20.0


def _spread(crop: np.ndarray) -> float:
    from dealer_assist.vision.ocr import best_contrast_gray

    g = best_contrast_gray(crop)
    return float(np.percentile(g, 95) - np.percentile(g, 5))


def jitter_quad(quad: np.ndarray, rng: np.random.Generator, amount: float = 1.0) -> np.ndarray:
    """The quad as a detector might give it: corners moved by up to ~a fifth of the height,
    the whole box grown or shrunk a little, a few degrees of turn."""
    w, h = quad_size(quad)
    q = quad.astype(np.float64)
    c = q.mean(axis=0)
    ang = np.deg2rad(rng.normal(0, 1.5 * amount))
    rot = np.array([[np.cos(ang), -np.sin(ang)], [np.sin(ang), np.cos(ang)]])
    # never shorter along the text (a digit cut off would still be in the target), a little longer
    sx, sy = 1 + abs(rng.normal(0, 0.03 * amount)), 1 + rng.normal(0, 0.1 * amount)
    u = (q[1] - q[0]) / max(np.linalg.norm(q[1] - q[0]), 1e-6)
    v = np.array([-u[1], u[0]])
    loc = np.stack([(q - c) @ u * sx, (q - c) @ v * sy], axis=1)
    loc[:, 0] += rng.normal(0, 0.01 * w * amount)  # a shift along the text
    loc = loc + rng.normal(0, 0.06 * h * amount, loc.shape) * np.array([0.3, 1.0])
    q = c + (loc[:, :1] * u + loc[:, 1:] * v) @ rot.T
    return q.astype(np.float32)


def sample(ps: PrintSample, rng: np.random.Generator, strength: float = 1.0, flips: bool = True,
           hard: bool = False) -> tuple[np.ndarray, str]:
    """One augmented model input ``(1, 32, 128)`` and its target text (see the module docstring);
    ``hard``: degraded by :func:`hard_degrade` in place of :func:`degrade`."""
    img, q = hard_degrade(ps.image, ps.quad, rng) if hard else degrade(ps.image, ps.quad, rng, strength)
    if strength > 0:
        q = jitter_quad(q, rng, strength)
    crop = rectify(img, q)
    text = ps.text
    if hard and _spread(crop) < HARD_MIN_SPREAD:
        text = ""  # blown out (or washed flat): nothing is legible, and the model must say so
    if flips and text:
        r = rng.random()
        if r < 0.12:
            crop, text = crop[::-1, ::-1], ""  # upside down
        elif r < 0.18:
            crop, text = crop[:, ::-1], ""  # mirrored
        elif r < 0.22:
            crop, text = crop[::-1, :], ""  # mirrored top to bottom
    return preprocess(np.ascontiguousarray(crop)), text
