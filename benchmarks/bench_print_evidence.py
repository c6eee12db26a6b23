"""Per-print evidence over frames: which margin trusts real notes with no wrong serial.

    .venv/bin/python benchmarks/bench_print_evidence.py [--grid 2.0 2.4 2.8 3.2] [--frames 5]
        [--margins 0 0.5 1 1.5 2 3 4] [--photos ../shared/real_photos] [--cache /tmp/dealer-assist-livebench]
        [--limit N] [--seed 1]

What runs: every clean cut-out of the legible 7-digit notes of ``--photos`` (as
``bench_readability.py``: made at run time, cached under ``--cache``, never in the project) is
rendered flat on felt at each px/mm of ``--grid`` through the same webcam model
(``bench_readability.camera_image``: area resampling, a random sub-pixel shift, blur 0.6 px,
noise sigma 2.5, JPEG 80), upright and upside down, ``--frames`` times (each frame its own
shift and noise: a still note filmed), and made into live mode's view of it
(``bench_readability.live_view``). The first frame is read once by live mode's reader (as a
discover read); when it finds the note's two serial prints, their quads are the note's
*windows*, their way up taken as unknown. Every frame's windows are then looked at by the
serial model alone, both ways up (:func:`dealer_assist.vision.print_evidence.look_at_windows`),
and accumulated (:class:`~dealer_assist.vision.print_evidence.NoteEvidence`).

Printed: for each margin of ``--margins`` (nats) and after 1, 3 and ``--frames`` frames, the
notes trusted right and **wrong** (of the notes whose two windows were found), split into the
notes the model was trained on and the rest (``training.data.split_of_note``: 60 % of the notes
by a hash of their digits are in its training split); the same for each print alone (its own mean
value, either way up, wrong or right with at least the margin); the CPU of one look (two windows,
both ways up, one batch); and the smallest margins with 0 wrong, for notes and for single prints.
:data:`dealer_assist.vision.print_evidence.MIN_MARGIN` is the single prints' one: two prints each at
least that sure (see its doc for the figures).
"""

from __future__ import annotations

import argparse
import hashlib
import statistics
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from dealer_assist.live.worker import make_reader
from dealer_assist.synth.real_notes import load_cutouts
from dealer_assist.vision.model import ReadHints
from dealer_assist.vision.print_evidence import MIN_MARGIN, NoteEvidence, look_at_windows
from dealer_assist.vision.recognizer import SerialCtcEngine

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_readability import EXCLUDE_SHARED, camera_image, live_view  # noqa: E402  (the same webcam model)

REPO = Path(__file__).resolve().parents[1]


def split_of_note(digits: str) -> str:
    """As ``training.data.split_of_note`` (kept here so that the benchmark needs no training extra)."""
    k = int(hashlib.sha256(digits.encode()).hexdigest(), 16) % 10
    return "train" if k < 6 else ("val" if k < 8 else "test")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--grid", type=float, nargs="+", default=[2.0, 2.4, 2.8, 3.2])
    ap.add_argument("--frames", type=int, default=5)
    ap.add_argument("--margins", type=float, nargs="+", default=[0.0, 0.5, 1.0, 1.5, 2.0, 3.0, 4.0])
    ap.add_argument("--photos", type=Path, default=REPO.parent / "shared" / "real_photos")
    ap.add_argument("--cache", type=Path, default=Path(tempfile.gettempdir()) / "dealer-assist-livebench")
    ap.add_argument("--limit", type=int, default=None, help="only the first N notes")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    if not (args.photos / "labels.json").exists():
        print(f"no labels.json in {args.photos}: give --photos", file=sys.stderr)
        return 2
    if args.frames < 1:
        print("--frames must be 1 or more", file=sys.stderr)
        return 2
    cuts, _ = load_cutouts(args.photos, args.cache / "cutouts", exclude=EXCLUDE_SHARED, log=lambda s: None)
    cuts = cuts[:args.limit] if args.limit else cuts
    reader = make_reader()
    reader.read(np.full((64, 256, 3), 255, np.uint8))  # load the models
    model = SerialCtcEngine()
    if model.problem():
        print(model.problem(), file=sys.stderr)
        return 2
    held = sum(split_of_note(c.serial) != "train" for c in cuts)
    print(f"{len(cuts)} clean real notes ({held} not in the model's training split), grid {args.grid} px/mm, "
          f"{args.frames} frames each, upright and upside down", flush=True)
    rng = np.random.default_rng(args.seed)
    counts = sorted({1, min(3, args.frames), args.frames})
    # per case: (ppm, split, truth, {k: (value, margin)}) where value is what both prints agree on (or None)
    cases = []
    found = 0
    look_cpu = []
    for ppm in args.grid:
        for cut in cuts:
            for upside_down in (False, True):
                frames = [live_view(camera_image(cut.image, ppm, upside_down, rng), ppm) for _ in range(args.frames)]
                view, read_ppm = frames[0]
                notes = reader.read(view, ReadHints(px_per_mm=read_ppm, refine_quad=False))
                pair = [n for n in notes if len(n.prints) >= 2]
                if not pair:
                    continue
                found += 1
                windows = [np.asarray(p.quad, np.float32) for p in pair[0].prints[:2]]
                ev = NoteEvidence()
                got = {}
                per_print = {}
                for k, (image, _) in enumerate(frames, 1):
                    t0 = time.process_time()
                    looks = look_at_windows(model, image, windows)
                    look_cpu.append(time.process_time() - t0)
                    ev.add(k, looks)
                    if k in counts:
                        d = ev.decide(min_margin=0.0, min_frames=1)
                        got[k] = (d.serial, d.margin)
                        # every print's own accumulated value (either way up), for the per-print table
                        per_print[k] = [(p.value(), float(p.margins().min())) for evs in ev.prints.values()
                                        for p in evs if p.n]
                cases.append((ppm, split_of_note(cut.serial), cut.serial, got, per_print))
        print(f"  {ppm:.1f} px/mm done ({found} notes with both windows found so far)", flush=True)
    print(f"\nnotes whose two windows the first frame's read found: {found} of {2 * len(cuts) * len(args.grid)}; "
          f"CPU of one look (2 windows x 2 ways, one batch): median {1000 * statistics.median(look_cpu):.1f} ms")
    print("\n| margin (nats) | " + " | ".join(f"{k} frame(s): right / WRONG (held-out right / WRONG)" for k in counts)
          + " |")
    print("|---|" + "---|" * len(counts))
    safe = None
    for m in sorted(args.margins):
        cells, wrong_any = [], 0
        for k in counts:
            r = w = hr = hw = 0
            for ppm, split, truth, got, _ in cases:
                value, margin = got[k]
                if value is None or margin < m:
                    continue
                ok = value == truth
                r += ok
                w += not ok
                if split != "train":
                    hr += ok
                    hw += not ok
            wrong_any += w
            cells.append(f"{r} / {w} ({hr} / {hw})")
        if wrong_any == 0 and safe is None:
            safe = m
        print(f"| {m:g} | " + " | ".join(cells) + " |")
    print("\nOne print alone (its own mean over its frames; either way up): prints read 7 digits / of them WRONG "
          "with at least the margin")
    print("\n| margin (nats) | " + " | ".join(f"{k} frame(s)" for k in counts) + " |")
    print("|---|" + "---|" * len(counts))
    safe_print = None
    for m in sorted(args.margins):
        cells, wrong_any = [], 0
        for k in counts:
            n = sum(1 for c in cases for v, mg in c[4].get(k, []) if mg >= m)
            w = sum(1 for c in cases for v, mg in c[4].get(k, []) if mg >= m and v != c[2])
            wrong_any += w
            cells.append(f"{n} / {w}")
        if wrong_any == 0 and safe_print is None:
            safe_print = m
        print(f"| {m:g} | " + " | ".join(cells) + " |")
    print(f"smallest margin of the sweep at which no single print's value was wrong: {safe_print}")
    print("\nper px/mm at the product's margin "
          f"({MIN_MARGIN:g}), {args.frames} frames: " + ", ".join(
              f"{ppm:g}: {sum(1 for c in cases if c[0] == ppm and c[3][args.frames][0] == c[2] and c[3][args.frames][1] >= MIN_MARGIN)}"
              f" right / {sum(1 for c in cases if c[0] == ppm and c[3][args.frames][0] not in (None, c[2]) and c[3][args.frames][1] >= MIN_MARGIN)} wrong"
              f" of {sum(1 for c in cases if c[0] == ppm)}" for ppm in args.grid))
    wrongs = sorted({(c[2], c[3][k][0], round(c[3][k][1], 2), c[0]) for c in cases for k in counts
                     if c[3][k][0] not in (None, c[2])}, key=lambda x: -x[2])
    for truth, value, margin, ppm in wrongs[:12]:
        print(f"  wrong at margin {margin}: {truth} read {value} ({ppm:g} px/mm)")
    if safe is None:
        print("\nno margin of the sweep gives 0 wrong")
        return 1
    print(f"\nsmallest margin of the sweep with 0 wrong at every frame count: {safe:g} nats; the product's "
          f"MIN_MARGIN is {MIN_MARGIN:g}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
