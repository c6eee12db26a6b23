"""Readability: at what camera scale (px/mm) live mode's reader stops resolving serial digits.

    .venv/bin/python benchmarks/bench_readability.py [--grid 1.6 2.0 2.4 2.8 3.2 4.0 5.0]
        [--photos ../shared/real_photos] [--cache /tmp/dealer-assist-livebench] [--limit N]

What runs: every clean cut-out of the legible 7-digit notes of ``--photos``
(:func:`dealer_assist.synth.real_notes.load_cutouts`, made at run time and
cached under ``--cache``, never in the project; the same cut-outs as
``bench_live_real.py``) is rendered flat on felt at each px/mm of the grid
through a webcam model (area resampling to the scale, a random sub-pixel
shift, Gaussian blur 0.6 px, sensor noise sigma 2.5, JPEG quality 80), upright
and upside down. Each camera image is then made into the view live mode reads
(upsampled to :data:`dealer_assist.live.session.READ_PX_PER_MM` as
:func:`~dealer_assist.live.changes.warp_region` does) and read once by live
mode's reader (:func:`dealer_assist.live.worker.make_reader`, told the view's
scale, as a discover read is).

Printed: per px/mm, notes trusted right (upright / upside down), wrong, and
the median time of a read; then the **floor**: the lowest scale from which on
at least ``--share`` of the notes are trusted right both ways up and none
wrong. The product's floor is
:data:`dealer_assist.vision.readability.READABLE_PX_PER_MM`; the script says
whether it agrees.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

import cv2
import numpy as np

from dealer_assist.live.session import READ_PX_PER_MM
from dealer_assist.live.worker import make_reader
from dealer_assist.synth.real_notes import load_cutouts
from dealer_assist.vision.geometry import NOTE_SIZE_MM
from dealer_assist.vision.model import NoteStatus, ReadHints
from dealer_assist.vision.readability import READABLE_PX_PER_MM, digit_px

REPO = Path(__file__).resolve().parents[1]
#: as bench_live_real.py: cut-outs that pass the checks but are not clean to the eye
EXCLUDE_SHARED = ("real_030.jpg", "real_055.jpg")
MARGIN_MM = 25.0


def felt(rng: np.random.Generator, size: tuple[int, int]) -> np.ndarray:
    """A green felt surface ``(h, w, 3)`` with low-frequency shading and fibre noise."""
    w, h = size
    base = np.array([38, 92, 46], np.float32) * rng.uniform(0.85, 1.15)
    shade = cv2.resize(rng.normal(0, 6, (4, 4)).astype(np.float32), (w, h), interpolation=cv2.INTER_CUBIC)
    fibre = cv2.GaussianBlur(rng.normal(0, 8, (h, w)).astype(np.float32), (0, 0), 0.8)
    return np.clip(base[None, None, :] + (shade + fibre)[..., None], 0, 255).astype(np.float32)


def camera_image(note: np.ndarray, ppm: float, upside_down: bool, rng: np.random.Generator) -> np.ndarray:
    """The note flat on felt as a webcam sees it at ``ppm`` px per mm."""
    nw, nh = NOTE_SIZE_MM
    w = int(round((nw + 2 * MARGIN_MM) * ppm))
    h = int(round((nh + 2 * MARGIN_MM) * ppm))
    img = note[::-1, ::-1] if upside_down else note
    # note px -> camera px: scale to ppm, shifted by a sub-pixel amount (area resampling via a supersampled warp)
    sup = 4
    sx = nw * ppm * sup / img.shape[1]
    sy = nh * ppm * sup / img.shape[0]
    dx, dy = (MARGIN_MM * ppm + rng.uniform(0, 1)) * sup, (MARGIN_MM * ppm + rng.uniform(0, 1)) * sup
    m = np.array([[sx, 0, dx], [0, sy, dy]], np.float32)
    big = (w * sup, h * sup)
    paper = cv2.warpAffine(img.astype(np.float32), m, big, flags=cv2.INTER_AREA if sx < 1 else cv2.INTER_LINEAR)
    mask = cv2.warpAffine(np.ones(img.shape[:2], np.float32), m, big, flags=cv2.INTER_LINEAR)
    surface = cv2.resize(felt(rng, (w, h)), big, interpolation=cv2.INTER_LINEAR)
    comp = paper * mask[..., None] + surface * (1 - mask[..., None])
    out = cv2.resize(comp, (w, h), interpolation=cv2.INTER_AREA)
    out = cv2.GaussianBlur(out, (0, 0), 0.6)
    out = out + rng.normal(0, 2.5, out.shape).astype(np.float32)
    ok, enc = cv2.imencode(".jpg", np.clip(out, 0, 255).astype(np.uint8), [cv2.IMWRITE_JPEG_QUALITY, 80])
    return cv2.imdecode(enc, cv2.IMREAD_COLOR)


def live_view(image: np.ndarray, ppm: float) -> tuple[np.ndarray, float]:
    """The view live mode reads: the camera's pixels resampled to its read scale (bilinear)."""
    lo, hi = READ_PX_PER_MM
    read_ppm = float(np.clip(ppm, lo, hi))
    f = read_ppm / ppm
    view = cv2.resize(image, (int(round(image.shape[1] * f)), int(round(image.shape[0] * f))),
                      interpolation=cv2.INTER_LINEAR)
    return view, read_ppm


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--grid", type=float, nargs="+", default=[1.6, 2.0, 2.4, 2.8, 3.2, 4.0, 5.0])
    ap.add_argument("--photos", type=Path, default=REPO.parent / "shared" / "real_photos")
    ap.add_argument("--cache", type=Path, default=Path(tempfile.gettempdir()) / "dealer-assist-livebench")
    ap.add_argument("--limit", type=int, default=None, help="only the first N notes")
    ap.add_argument("--share", type=float, default=0.75, help="share of notes trusted right that counts as readable")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    if not (args.photos / "labels.json").exists():
        print(f"no labels.json in {args.photos}: give --photos", file=sys.stderr)
        return 2
    cuts, _ = load_cutouts(args.photos, args.cache / "cutouts", exclude=EXCLUDE_SHARED, log=lambda s: None)
    cuts = cuts[:args.limit] if args.limit else cuts
    print(f"{len(cuts)} clean real notes; live mode's reader on its view of each, upright and upside down", flush=True)
    reader = make_reader()
    reader.read(np.full((64, 256, 3), 255, np.uint8))  # load the models
    rng = np.random.default_rng(args.seed)
    rows = []
    for ppm in args.grid:
        right = {False: 0, True: 0}
        wrong, times = 0, []
        for cut in cuts:
            for upside_down in (False, True):
                cam = camera_image(cut.image, ppm, upside_down, rng)
                view, read_ppm = live_view(cam, ppm)
                t0 = time.process_time()
                notes = reader.read(view, ReadHints(px_per_mm=read_ppm, refine_quad=False))
                times.append(time.process_time() - t0)
                trusted = [n.serial for n in notes if n.status == NoteStatus.TRUSTED]
                right[upside_down] += cut.serial in trusted
                wrong += sum(s != cut.serial for s in trusted)
        rows.append((ppm, right[False], right[True], wrong, statistics.median(times)))
        print(f"  {ppm:.1f} px/mm (digits ~{digit_px(ppm):.0f} px): trusted right {right[False]} / {right[True]} "
              f"of {len(cuts)}, wrong {wrong}, {statistics.median(times):.2f} s CPU a read", flush=True)
    n = len(cuts)
    print("\n| px/mm | " + " | ".join(f"{r[0]:.1f}" for r in rows) + " |")
    print("|---|" + "---|" * len(rows))
    print(f"| trusted right, upright / upside down (of {n}) | " + " | ".join(f"{r[1]} / {r[2]}" for r in rows) + " |")
    print("| wrong | " + " | ".join(str(r[3]) for r in rows) + " |")
    print("| CPU s a read (median) | " + " | ".join(f"{r[4]:.2f}" for r in rows) + " |")
    floor = None
    for i, r in enumerate(rows):
        if all(min(s[1], s[2]) >= args.share * n and s[3] == 0 for s in rows[i:]):
            floor = r[0]
            break
    if floor is None:
        print(f"\nno scale of the grid reads {args.share:.0%} of the notes both ways up without a wrong serial")
        return 1
    print(f"\nfloor: {floor:g} px/mm (digits ~{digit_px(floor):.0f} px): from there on at least {args.share:.0%} "
          f"of the notes are trusted right both ways up, none wrong")
    agree = "agrees" if abs(floor - READABLE_PX_PER_MM) < 1e-6 else "DIFFERS: update it"
    print(f"the product's floor (dealer_assist.vision.readability.READABLE_PX_PER_MM) is {READABLE_PX_PER_MM:g} "
          f"px/mm: {agree}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
