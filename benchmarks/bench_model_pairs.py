"""The serial model read first, alone, on the degradation benchmark's images: what its two-print rule trusts.

    PYTHONPATH=. .venv/bin/python benchmarks/bench_model_pairs.py [--seed 0] [--limit N] [--json out.json]

For every degraded image of ``bench_degrade.py``'s plan (the same images, the same ``--seed`` and
``--limit`` sample; made or taken from its cache in /tmp) the text detector and the up/down
classifier run as in the reader, then only the serial model (:func:`~dealer_assist.vision.prints.model_read`),
both ways up, on every line; no general engine. Per threshold of ``model_first_min_char_prob``
it prints:

* the prints the model reads alone (sure one way up, nothing the other way), how many of them are
  7 digits of no note in the photo (**sure wrong prints**), split by the note's training split
  (``train`` notes' clean prints were trained on; ``val``/``test`` notes never were);
* the notes :func:`~dealer_assist.vision.trust.model_two_prints` trusts from those prints alone:
  right, and **WRONG** (must be 0). The other lines are left out (the reader reads them with the
  general engines, and a third print in a note sends it to the general path), so the trusted
  counts here are an upper bound of what the reader trusts on this rule, and so is WRONG.

Then every sure wrong print at the reader's threshold and the lowest thresholds: the near misses.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import sys
import time
from collections import Counter
from pathlib import Path

os.environ.setdefault("OMP_THREAD_LIMIT", "1")

import numpy as np  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
import bench_degrade as bd  # noqa: E402

THRESHOLDS = (0.5, 0.7, 0.8, 0.85, 0.9, 0.95, 0.98, 0.99)
#: Sure wrong prints listed one by one from this lowest digit probability.
NEAR = 0.8


def _lines(image, reader, params):
    """Per classified line: ``(quad, [read this way, read turned], [parsed, parsed], cut)``."""
    from dealer_assist.vision.geometry import quad_size, rectify, rotate_quad_180, upright_line_quad
    from dealer_assist.vision.prints import detect_lines
    from dealer_assist.vision.serials import parse_serial_text

    out = []
    ih, iw = image.shape[:2]
    m = params.frame_margin_px
    for box in detect_lines(image, reader.primary, None, params):
        quad = upright_line_quad(box)
        w, h = quad_size(quad)
        if h < params.min_print_height_px or not (params.print_aspect[0] <= w / max(h, 1e-6) <= params.print_aspect[1]):
            continue
        crop = rectify(image, quad)
        flipped, _ = reader.primary.is_upside_down(crop)
        if flipped:
            quad, crop = rotate_quad_180(quad), crop[::-1, ::-1].copy()
        reads = reader.model.recognize_many([crop, crop[::-1, ::-1].copy()])
        parsed = [parse_serial_text(r.text) for r in reads]
        quads = [quad, rotate_quad_180(quad)]
        cut = [bool((q.min(axis=0) < m).any() or (q[:, 0] > iw - 1 - m).any() or (q[:, 1] > ih - 1 - m).any())
               for q in quads]
        out.append((quads, reads, parsed, cut, crop.shape[0]))
    return out


def _model_prints(lines, tau):
    from dealer_assist.vision.model import Print
    from dealer_assist.vision.prints import _sure_serial

    prints = []
    for quads, reads, parsed, cut, _ in lines:
        for way in (0, 1):
            if _sure_serial(reads[way], parsed[way], tau) and not parsed[1 - way] and not cut[way]:
                prints.append(Print(quad=quads[way], crop=np.zeros((1, 1, 3), np.uint8),
                                    reads=[(reads[way], parsed[way])], model_box=quads[0]))
    return prints


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--limit", type=int, default=0)
    ap.add_argument("--json", metavar="FILE")
    args = ap.parse_args(argv)

    from dealer_assist.synth.degrade import Kind
    from dealer_assist.vision.grouping import group_prints
    from dealer_assist.vision.params import DEFAULT_PARAMS
    from dealer_assist.vision.reader import SerialReader
    from dealer_assist.vision.trust import model_two_prints
    from training.data import split_of_note

    reader = SerialReader()
    if reader.model is None:
        print("the serial model cannot be used: nothing to measure", file=sys.stderr)
        return 1
    labels = sorted(json.loads((bd.PHOTOS / "labels.json").read_text(encoding="utf-8")), key=lambda e: e["file"])
    by_photo = {e["file"]: e for e in labels}
    locations = bd._cached_locations([e["file"] for e in labels], 1)
    jobs = bd.plan(labels, locations, list(Kind), args.seed)
    if args.limit and args.limit < len(jobs):
        pick = np.random.default_rng(args.seed).choice(len(jobs), size=args.limit, replace=False)
        jobs = [jobs[i] for i in sorted(pick)]
    print(f"{len(jobs)} degraded images (bench_degrade plan, seed {args.seed}, limit {args.limit or 'none'})",
          file=sys.stderr)
    bd._READER = reader  # bench_degrade's image maker reads nothing here; only its cache is used
    counts = {t: Counter() for t in THRESHOLDS}
    near: list[dict] = []
    t0, c0 = time.perf_counter(), time.process_time()
    for k, job in enumerate(jobs, 1):
        path = bd._image_path(job)
        import cv2

        image = cv2.imread(str(path), cv2.IMREAD_COLOR) if path.is_file() else None
        if image is None:
            image, info = bd.degrade.apply(bd._original(job["photo"]), Kind(job["kind"]), job["params"])
            path.parent.mkdir(parents=True, exist_ok=True)
            cv2.imwrite(str(path), image, [cv2.IMWRITE_PNG_COMPRESSION, 1])
            path.with_suffix(".json").write_text(json.dumps(info))
        entry = by_photo[job["photo"]]
        truths = {n["serial_digits"] for n in entry["notes"] if n["n_digits"] == 7}
        lines = _lines(image, reader, DEFAULT_PARAMS)
        for tau in THRESHOLDS:
            params = dataclasses.replace(DEFAULT_PARAMS, model_first_min_char_prob=tau)
            prints = _model_prints(lines, tau)
            c = counts[tau]
            for p in prints:
                digits = p.serials()[0][1].digits
                best = min(truths, key=lambda t: sum(a != b for a, b in zip(t, digits)), default="")
                split = split_of_note(best) if best else "none"
                c[f"prints {split}"] += 1
                if digits not in truths:
                    c[f"sure wrong {split}"] += 1
                    if tau == THRESHOLDS[0]:
                        probs = [pr for ch, pr in zip(p.reads[0][0].text, p.reads[0][0].char_probs) if ch.isdigit()]
                        near.append({"id": job["id"], "tau": tau, "read": p.reads[0][0].text, "truth": best,
                                     "split": split, "min_digit_prob": round(min(probs), 3)})
            for group in group_prints(prints, params, None):
                note = model_two_prints(group, params, None)
                if note is None:
                    continue
                ok = note.serial in truths
                split = split_of_note(note.serial) if ok else "none"
                c[f"trusted right {split}" if ok else "trusted WRONG"] += 1
                if not ok:
                    near.append({"id": job["id"], "tau": tau, "read": note.serial, "truth": ", ".join(sorted(truths)),
                                 "split": "-", "min_digit_prob": None, "note": "TRUSTED WRONG"})
        if k % 50 == 0:
            print(f"  {k}/{len(jobs)} {time.perf_counter() - t0:.0f} s", file=sys.stderr, flush=True)
    wall, cpu = time.perf_counter() - t0, time.process_time() - c0
    print(f"model read first, alone: {len(jobs)} degraded images, seed {args.seed}, limit {args.limit or 'none'}; "
          f"{wall:.0f} s wall, {cpu:.0f} s CPU, load {os.getloadavg()[0]:.1f}")
    head = (f"{'threshold':<9} {'prints':>7} {'of val/test':>11} {'sure wrong':>10} {'of val/test':>11} "
            f"{'trusted':>8} {'of val/test':>11} {'WRONG':>6}")
    print(head)
    print("-" * len(head))
    for tau in THRESHOLDS:
        c = counts[tau]
        prints = sum(v for key, v in c.items() if key.startswith("prints "))
        held = c["prints val"] + c["prints test"]
        wrong = sum(v for key, v in c.items() if key.startswith("sure wrong "))
        wrong_held = c["sure wrong val"] + c["sure wrong test"]
        trusted = sum(v for key, v in c.items() if key.startswith("trusted right "))
        t_held = c["trusted right val"] + c["trusted right test"]
        mark = " <-" if tau == DEFAULT_PARAMS.model_first_min_char_prob else ""
        print(f"{tau:<9} {prints:>7} {held:>11} {wrong:>10} {wrong_held:>11} {trusted:>8} {t_held:>11} "
              f"{c['trusted WRONG']:>6}{mark}")
    print(f"\nnear misses: sure wrong prints with every digit at {NEAR} or more (at {THRESHOLDS[0]}: "
          f"{sum(1 for n in near if not n.get('note'))} in all), and every wrong trust:")
    for n in sorted(near, key=lambda n: -(n["min_digit_prob"] or 2)):
        if n.get("note") or n["min_digit_prob"] >= NEAR:
            print(f"  {n['id']:<34} read {n['read']:<14} truth {n['truth']:<9} ({n['split']}) "
                  f"min digit {n['min_digit_prob']} {n.get('note', '')} [threshold {n['tau']}]")
    if args.json:
        Path(args.json).write_text(json.dumps({"counts": {str(t): dict(c) for t, c in counts.items()}, "near": near},
                                              ensure_ascii=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
