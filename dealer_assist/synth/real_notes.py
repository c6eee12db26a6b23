"""Flat note images cut out of labelled photos of real notes, at run time.

Real photos carry no licence: nothing made from them is ever stored in the
project. This module works on any folder of labelled photos (the
``labels.json`` format of ``../shared/real_photos``) and keeps its results in
a cache folder outside the repository (``/tmp/...``).

For every legible 7-digit note of the labels:

1. the reader (:class:`~dealer_assist.vision.reader.SerialReader`) reads the
   photo; the note whose trusted serial is the label's gives the quad
   (clockwise from the note's own top-left, so the way up is the reader's);
2. the note's outline is found in the photo by GrabCut seeded with that quad
   (:func:`~dealer_assist.calibration.notes.find_note_outline`);
3. the note is rectified by the outline to :data:`~.layout.NOTE_SIZE_PX`
   (1150 x 500 px, the renderer's note frame: 157 x 69 mm, the size of every
   1997-series note);
4. it is kept only when it is *clean*: the outline is note-shaped (aspect
   2.0-2.55), lies inside the photo, GrabCut takes at least
   :data:`MIN_PAPER_FILL` of it as paper (a hand or a finger over the note is
   not paper), and the reader, reading the flat cut-out again, finds the
   label's serial with its two prints where a 1997-series note has them (the
   top-right print in the top right, the left print in the left field): the
   note is whole and the right way up.

Each cut-out carries the normalised boxes of its two serial prints (the
reader's print quads mapped onto the flat note) and a face-down image
(:func:`note_back`: the note's own colours, mirrored and blurred far past
legibility, with a paper texture; no serial can be read from it).
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable, Sequence

import cv2
import numpy as np

from dealer_assist.synth.layout import NOTE_SIZE_PX
from dealer_assist.synth.noise import noise_field

__all__ = ["NoteCutout", "Rejected", "legible_labels", "cut_out_note", "load_cutouts", "note_back",
           "contact_sheet", "MIN_PAPER_FILL", "CUTOUT_VERSION"]

#: Bump when the cut-out procedure changes (the cache is keyed by it).
CUTOUT_VERSION = 5
#: Share of the outline GrabCut must take as paper (a finger over the note is not paper).
MIN_PAPER_FILL = 0.95
#: Aspect range (width / height) of a note-shaped outline (a 1997-series note is 2.28).
ASPECT_RANGE = (2.0, 2.55)
#: A print box reaching further right (or, mirrored, further left) than this share of the width touches
#: the outline: the note was cut.
MAX_PRINT_X = 0.993
#: Where the two prints' centres must lie on the flat note (normalised x0, y0, x1, y1).
TOP_RIGHT_REGION = (0.5, 0.0, 1.0, 0.4)
LEFT_REGION = (0.0, 0.25, 0.45, 0.8)


@dataclass(frozen=True)
class NoteCutout:
    """One real note, flat and upright.

    Attributes:
        key: ``"<photo stem>-<digits>"``, unique per note.
        source: the photo's file name.
        serial: the label's 7 digits; letters: its two letters (upper case).
        denomination: from the label.
        legible: the label's ``legible`` (``clear`` or ``hard``).
        image: ``uint8`` ``(500, 1150, 3)`` BGR, the note's front as it lay in the photo.
        back: ``uint8`` ``(500, 1150, 3)`` BGR, a face-down look with no serial.
        prints: ``{"top_right": box, "left": box}``, each ``(x0, y0, x1, y1)`` normalised on the
            flat note: the reader's print quad (letters and digits, a little padded).
        digit_height: per print, the print box's height in note pixels (a bound on its digits' height).
        checks: what was measured (aspect, paper fill, outline vs reader quad IoU, ...).
    """

    key: str
    source: str
    serial: str
    letters: str
    denomination: int
    legible: str
    image: np.ndarray = field(repr=False)
    back: np.ndarray = field(repr=False)
    prints: dict[str, tuple[float, float, float, float]] = field(default_factory=dict)
    digit_height: dict[str, float] = field(default_factory=dict)
    checks: dict = field(default_factory=dict)


@dataclass(frozen=True)
class Rejected:
    """A labelled note that gave no clean cut-out, and why."""

    key: str
    source: str
    serial: str
    reason: str
    image: np.ndarray | None = field(default=None, repr=False)  # the flat note when one was made


def legible_labels(labels: Sequence[dict]) -> list[tuple[dict, dict]]:
    """``(photo entry, note)`` for every note labelled with 7 plain digits, ``clear`` or ``hard``
    to read, both prints visible (a 9-digit 2017-series note is out of the game's format)."""
    out = []
    for entry in labels:
        for note in entry.get("notes", []):
            digits = str(note.get("serial_digits", ""))
            if (note.get("n_digits") == 7 and len(digits) == 7 and digits.isdigit()
                    and note.get("legible") in ("clear", "hard") and note.get("both_prints_visible", False)):
                out.append((entry, note))
    return out


def _rectify(image: np.ndarray, quad: np.ndarray, size=NOTE_SIZE_PX) -> tuple[np.ndarray, np.ndarray]:
    w, h = size
    dst = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
    m = cv2.getPerspectiveTransform(np.asarray(quad, np.float32), dst)
    flat = cv2.warpPerspective(image, m, (w, h), flags=cv2.INTER_AREA if _shrinks(quad, size) else cv2.INTER_CUBIC,
                               borderMode=cv2.BORDER_REPLICATE)
    return flat, m


def _shrinks(quad: np.ndarray, size) -> bool:
    q = np.asarray(quad, np.float64)
    return float(np.linalg.norm(q[1] - q[0])) > size[0]


def _paper_fill(image: np.ndarray, outline: np.ndarray, paper_quads: Sequence[np.ndarray], side: int = 480) -> float:
    """Share of ``outline`` that GrabCut takes as paper. Seeds: ``paper_quads`` (the serial
    prints: paper for sure) as paper, a band around the outline as surface, the rest of the
    outline undecided, so a hand or a finger over the note is free to come out as not paper."""
    q = np.asarray(outline, np.float64)
    c = q.mean(axis=0)
    outer = c + (q - c) * 1.3
    h_img, w_img = image.shape[:2]
    x0, y0 = np.floor(np.maximum(outer.min(axis=0), 0)).astype(int)
    x1, y1 = np.ceil(np.minimum(outer.max(axis=0), [w_img - 1, h_img - 1])).astype(int) + 1
    s = min(1.0, side / max(x1 - x0, y1 - y0))
    roi = cv2.resize(image[y0:y1, x0:x1], (max(1, round((x1 - x0) * s)), max(1, round((y1 - y0) * s))),
                     interpolation=cv2.INTER_AREA)

    def local(p):
        return np.round((np.asarray(p, np.float64) - [x0, y0]) * s).astype(np.int32)

    mask = np.full(roi.shape[:2], cv2.GC_BGD, np.uint8)
    cv2.fillPoly(mask, [local(outer)], cv2.GC_PR_BGD)
    cv2.fillPoly(mask, [local(c + (q - c) * 0.985)], cv2.GC_PR_FGD)
    for pq in paper_quads:
        cv2.fillPoly(mask, [local(pq)], cv2.GC_FGD)
    bgd, fgd = np.zeros((1, 65), np.float64), np.zeros((1, 65), np.float64)
    try:
        cv2.grabCut(roi, mask, None, bgd, fgd, 4, cv2.GC_INIT_WITH_MASK)
    except cv2.error:
        return 0.0
    inside = np.zeros(roi.shape[:2], np.uint8)
    cv2.fillPoly(inside, [local(c + (q - c) * 0.97)], 1)
    paper = (mask == cv2.GC_FGD) | (mask == cv2.GC_PR_FGD)
    n = int(inside.sum())
    return float((paper & (inside > 0)).sum()) / n if n else 0.0


def _quad_iou(a: np.ndarray, b: np.ndarray) -> float:
    a32, b32 = np.asarray(a, np.float32), np.asarray(b, np.float32)
    inter, _ = cv2.intersectConvexConvex(a32, b32)
    union = abs(cv2.contourArea(a32)) + abs(cv2.contourArea(b32)) - inter
    return float(inter / union) if union > 0 else 0.0


def _in_box(point, box) -> bool:
    return box[0] <= point[0] <= box[2] and box[1] <= point[1] <= box[3]


def _padded(flat: np.ndarray, pad: int = 60) -> np.ndarray:
    return cv2.copyMakeBorder(flat, pad, pad, pad, pad, cv2.BORDER_CONSTANT, value=(128, 128, 128))


def note_back(front: np.ndarray, seed: int = 0) -> np.ndarray:
    """A face-down look for a note: its front's colours mirrored and blurred far past legibility
    (Gaussian sigma of 4% of its width: 4-mm digits become a smear), with a fine paper and
    engraving texture and a light border. ``uint8`` BGR of ``front``'s shape."""
    h, w = front.shape[:2]
    rng = np.random.default_rng(seed)
    base = cv2.GaussianBlur(cv2.flip(front, 1).astype(np.float32), (0, 0), 0.04 * w)
    tex = 1.0 + 0.06 * noise_field(rng, (h, w), 40, 3) + 0.03 * noise_field(rng, (h, w), 6, 1)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    # guilloche-like wavy lines, not legible as anything
    waves = 0.5 + 0.5 * np.sin(xx / w * 90 + 6 * np.sin(yy / h * 7 + rng.uniform(0, 6)))
    tex *= (1.0 - 0.05 * waves)
    out = base * tex[..., None]
    border = np.zeros((h, w), np.float32)
    m = int(0.03 * h)
    border[:m, :] = border[-m:, :] = 1
    border[:, :m] = border[:, -m:] = 1
    border = cv2.GaussianBlur(border, (0, 0), 2)
    out = out * (1 - 0.35 * border[..., None]) + 235 * 0.35 * border[..., None]
    return np.clip(out, 0, 255).astype(np.uint8)


def cut_out_note(image: np.ndarray, entry: dict, note: dict, reads) -> NoteCutout | Rejected:
    """Cut the labelled ``note`` out of ``image`` (the photo of ``entry``), given the reader's
    notes ``reads`` for that photo (:meth:`SerialReader.read`). A :class:`Rejected` says why not."""
    from dealer_assist.calibration.notes import find_note_outline

    digits = str(note["serial_digits"])
    key = f"{Path(entry['file']).stem}-{digits}"

    def reject(reason: str, flat: np.ndarray | None = None) -> Rejected:
        return Rejected(key, entry["file"], digits, reason, flat)

    mine = [n for n in reads if n.serial == digits and n.status == "trusted"]
    if not mine:
        got = ", ".join(f"{n.serial or n.status}" for n in reads) or "nothing"
        return reject(f"the reader did not trust the label's serial (it read {got})")
    read = mine[0]
    guess = np.asarray(read.quad, np.float64)
    cv2.setRNGSeed(12345)  # GrabCut's colour models start from OpenCV's random generator
    outline = find_note_outline(image, guess)
    if outline is None:
        return reject("GrabCut found no note outline")
    h_img, w_img = image.shape[:2]
    if (outline < 2).any() or (outline[:, 0] > w_img - 3).any() or (outline[:, 1] > h_img - 3).any():
        return reject("the note is cut by the photo's edge")
    wq = (np.linalg.norm(outline[1] - outline[0]) + np.linalg.norm(outline[2] - outline[3])) / 2
    hq = (np.linalg.norm(outline[3] - outline[0]) + np.linalg.norm(outline[2] - outline[1])) / 2
    aspect = float(wq / max(hq, 1e-9))
    iou = _quad_iou(outline, guess)
    flat, m = _rectify(image, outline)
    checks = {"aspect": round(aspect, 3), "outline_vs_reader_iou": round(iou, 3),
              "note_width_px_in_photo": round(float(wq), 1)}
    if not ASPECT_RANGE[0] <= aspect <= ASPECT_RANGE[1]:
        return reject(f"the outline is not note-shaped (aspect {aspect:.2f})", flat)
    # the prints on the flat note, from the reader's print quads
    w, h = NOTE_SIZE_PX
    boxes: dict[str, tuple[float, float, float, float]] = {}
    heights: dict[str, float] = {}
    print_quads = []
    for p in read.prints:
        q = cv2.perspectiveTransform(np.asarray(p.quad, np.float64).reshape(-1, 1, 2),
                                     m.astype(np.float64)).reshape(4, 2)
        box = (float(q[:, 0].min() / w), float(q[:, 1].min() / h), float(q[:, 0].max() / w), float(q[:, 1].max() / h))
        c = ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2)
        name = "top_right" if _in_box(c, TOP_RIGHT_REGION) else "left" if _in_box(c, LEFT_REGION) else None
        if name is None or name in boxes:
            continue
        boxes[name] = tuple(float(np.clip(v, 0, 1)) for v in box)
        heights[name] = float((box[3] - box[1]) * h)
        print_quads.append(np.asarray(p.quad, np.float64))
    if set(boxes) != {"top_right", "left"}:
        return reject(f"the reader's prints are not where a 1997-series note has them ({sorted(boxes)})", flat)
    # a 1997-series note has a margin of a few mm outside both prints: a print touching the
    # outline means the outline cut the note (the rest lay under a hand, or off the photo)
    if boxes["top_right"][2] > MAX_PRINT_X or boxes["left"][0] < 1 - MAX_PRINT_X:
        return reject("a serial print touches the outline: the note is not whole "
                      f"(top-right print ends at {boxes['top_right'][2]:.3f}, left print starts at "
                      f"{boxes['left'][0]:.3f} of the width)", flat)
    cv2.setRNGSeed(12345)
    fill = _paper_fill(image, outline, print_quads)
    checks["paper_fill"] = round(fill, 3)
    if fill < MIN_PAPER_FILL:
        return reject(f"only {fill:.0%} of the outline is paper (a hand or a finger over the note?)", flat)
    checks["prints"] = {k: [round(v, 4) for v in b] for k, b in boxes.items()}
    return NoteCutout(key, entry["file"], digits, str(note.get("serial_letters", "")), int(entry["denomination"]),
                      str(note.get("legible")), flat, note_back(flat, int(digits)), boxes, heights, checks)


def _verify(cut: NoteCutout, reader) -> str | None:
    """Read the flat cut-out again: its serial must be the label's, the way up right, both prints
    in place. Returns why not, or None."""
    pad = 60
    notes = reader.read(_padded(cut.image, pad))
    mine = [n for n in notes if n.serial == cut.serial and n.status == "trusted"]
    if not mine:
        return f"the flat note does not read as {cut.serial} (read: {[n.serial or n.status for n in notes]})"
    q = np.asarray(mine[0].quad, np.float64) - pad
    w, h = NOTE_SIZE_PX
    # the reader's quad starts at the note's own top-left: it must be the flat note's top-left
    if np.linalg.norm(q[0] - [0, 0]) > 0.25 * h or np.linalg.norm(q[2] - [w, h]) > 0.25 * h:
        return "the flat note is not the right way up (the reader's quad starts elsewhere)"
    if len(mine[0].prints) < 2:
        return "only one print of the flat note was read"
    return None


def _cache_key(entry: dict, note: dict) -> str:
    blob = json.dumps([CUTOUT_VERSION, entry["file"], entry.get("width"), entry.get("height"), note], sort_keys=True,
                      ensure_ascii=False)
    return hashlib.sha1(blob.encode("utf-8")).hexdigest()[:12]


def load_cutouts(photo_dir: str | Path, cache_dir: str | Path, reader=None, *, log=print,
                 exclude: Iterable[str] = ()) -> tuple[list[NoteCutout], list[Rejected]]:
    """Every clean cut-out of the labelled photos in ``photo_dir`` (``labels.json`` beside them),
    made once and cached in ``cache_dir`` (PNG + JSON per note; never inside the project).

    ``reader``: a :class:`~dealer_assist.vision.reader.SerialReader` (made when needed).
    ``exclude``: photo file names to leave out (e.g. after looking at the contact sheet).
    Returns ``(cut-outs, rejected)``, each in label order.
    """
    photo_dir, cache_dir = Path(photo_dir), Path(cache_dir)
    cache_dir.mkdir(parents=True, exist_ok=True)
    labels = json.loads((photo_dir / "labels.json").read_text(encoding="utf-8"))
    excluded = set(exclude)
    cuts: list[NoteCutout] = []
    rejected: list[Rejected] = []
    reads_by_photo: dict[str, list] = {}
    for entry, note in legible_labels(labels):
        digits = str(note["serial_digits"])
        key = f"{Path(entry['file']).stem}-{digits}"
        if entry["file"] in excluded:
            rejected.append(Rejected(key, entry["file"], digits, "excluded by the caller"))
            continue
        ck = _cache_key(entry, note)
        meta_path = cache_dir / f"{key}.{ck}.json"
        if meta_path.exists():
            meta = json.loads(meta_path.read_text(encoding="utf-8"))
            flat = cv2.imread(str(cache_dir / f"{key}.{ck}.png")) if meta.get("image") else None
            if meta["ok"]:
                back = cv2.imread(str(cache_dir / f"{key}.{ck}.back.png"))
                cuts.append(NoteCutout(key, entry["file"], digits, meta["letters"], meta["denomination"],
                                       meta["legible"], flat, back, {k: tuple(v) for k, v in meta["prints"].items()},
                                       meta["digit_height"], meta["checks"]))
            else:
                rejected.append(Rejected(key, entry["file"], digits, meta["reason"], flat))
            continue
        if reader is None:
            from dealer_assist.vision.reader import SerialReader

            reader = SerialReader()
        image = cv2.imread(str(photo_dir / entry["file"]))
        if image is None:
            res: NoteCutout | Rejected = Rejected(key, entry["file"], digits, "the photo cannot be decoded")
        else:
            if entry["file"] not in reads_by_photo:
                reads_by_photo[entry["file"]] = reader.read(image)
            res = cut_out_note(image, entry, note, reads_by_photo[entry["file"]])
            if isinstance(res, NoteCutout):
                why = _verify(res, reader)
                if why is not None:
                    res = Rejected(key, entry["file"], digits, why, res.image)
        if isinstance(res, NoteCutout):
            cv2.imwrite(str(cache_dir / f"{key}.{ck}.png"), res.image)
            cv2.imwrite(str(cache_dir / f"{key}.{ck}.back.png"), res.back)
            meta = {"ok": True, "image": True, "letters": res.letters, "denomination": res.denomination,
                    "legible": res.legible, "prints": res.prints, "digit_height": res.digit_height,
                    "checks": res.checks}
            cuts.append(res)
            log(f"  cut out {key} ({res.denomination} RUB): {res.checks}")
        else:
            if res.image is not None:
                cv2.imwrite(str(cache_dir / f"{key}.{ck}.png"), res.image)
            meta = {"ok": False, "image": res.image is not None, "reason": res.reason}
            rejected.append(res)
            log(f"  rejected {key}: {res.reason}")
        meta_path.write_text(json.dumps(meta, ensure_ascii=False, indent=1), encoding="utf-8")
    return cuts, rejected


def contact_sheet(cuts: Sequence[NoteCutout], rejected: Sequence[Rejected] = (), cell_w: int = 460) -> np.ndarray:
    """One image showing every cut-out (front with its print boxes, and back), then the rejected
    notes' flat images with the reason, for a person to look at."""
    cell_h = int(cell_w * NOTE_SIZE_PX[1] / NOTE_SIZE_PX[0])
    tiles = []
    for c in cuts:
        front = cv2.resize(c.image, (cell_w, cell_h), interpolation=cv2.INTER_AREA)
        for name, b in c.prints.items():
            colour = (0, 200, 0) if name == "top_right" else (200, 120, 0)
            cv2.rectangle(front, (int(b[0] * cell_w), int(b[1] * cell_h)), (int(b[2] * cell_w), int(b[3] * cell_h)),
                          colour, 1)
        back = cv2.resize(c.back, (cell_w // 3, cell_h // 3), interpolation=cv2.INTER_AREA)
        front[-back.shape[0]:, -back.shape[1]:] = back
        tiles.append((front, f"{c.key} {c.denomination} {c.letters} {c.serial}", (0, 0, 0)))
    for r in rejected:
        img = (cv2.resize(r.image, (cell_w, cell_h), interpolation=cv2.INTER_AREA) if r.image is not None
               else np.full((cell_h, cell_w, 3), 90, np.uint8))
        tiles.append((img, f"REJECTED {r.key}: {r.reason}"[:70], (0, 0, 200)))
    cols = 4
    rows = max(1, (len(tiles) + cols - 1) // cols)
    label_h = 22
    sheet = np.full((rows * (cell_h + label_h + 6), cols * (cell_w + 6), 3), 255, np.uint8)
    for i, (img, text, colour) in enumerate(tiles):
        r, k = divmod(i, cols)
        y, x = r * (cell_h + label_h + 6), k * (cell_w + 6)
        sheet[y + label_h:y + label_h + cell_h, x:x + cell_w] = img
        cv2.putText(sheet, text, (x + 2, y + 15), cv2.FONT_HERSHEY_SIMPLEX, 0.42, colour, 1, cv2.LINE_AA)
    return sheet
