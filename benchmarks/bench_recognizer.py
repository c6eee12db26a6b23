"""The serial recognizer (models/serial_ctc.onnx) on its held-out real prints, and its speed on one core.

    PYTHONPATH=. .venv/bin/python benchmarks/bench_recognizer.py [--split test|val] [--repeat 200]

Prints, on the prints of the real photos its training never saw (split by note,
:func:`training.data.split_of_note`; located at run time, nothing is committed):
per kind (clean crops, and ``HELD_OUT_VARIANTS`` degraded copies of each with a
fixed seed) prints, exact digit reads, wrong ones and wrong ones sure of every
digit; the calibration table of the per-digit probabilities; the card's
figures beside them; how many reads are sure of every digit at each
threshold and how many of those are not the serial (the reader's dissent
rule, ``model_min_char_prob``, on the ``val`` and ``test`` prints together);
then the milliseconds per print through onnxruntime on one thread
(preprocessing included) and the model's size.

Needs no PyTorch: only the data code of ``training/`` (OpenCV and the reader's engines).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import sys
import time

os.environ.setdefault("OMP_THREAD_LIMIT", "1")

import numpy as np  # noqa: E402


#: Thresholds of the "sure of every digit" table (the reader's ``model_min_char_prob`` is marked).
SURE_THRESHOLDS = (0.5, 0.8, 0.85, 0.9, 0.95, 0.99)


def sure_table(engine, split: str) -> None:
    """How the reader hears the model (:func:`dealer_assist.vision.trust.heard`): per threshold, on the
    ``val`` and ``test`` prints together (both held out; clean and degraded), the reads with every digit
    at least that probable, how many of them are the print's digits exactly, how many are 7 other digits
    (a dissent the reader hears: it costs the note, never a wrong serial; a wrong serial needs a PP-OCR
    engine to misread the same way) and how many are digits of another length (a digit lost)."""
    from dealer_assist.vision.ocr import LineRead
    from dealer_assist.vision.params import DEFAULT_PARAMS
    from dealer_assist.vision.serials import SerialKind, parse_serial_text
    from dealer_assist.vision.trust import heard
    from training.train import _digits, decode_all, held_out_set

    rows = []
    for sp in ("val", "test"):
        x, y, kinds = held_out_set(sp)
        for (text, probs), target, kind in zip(decode_all(engine.scores(x), engine.temperature), y, kinds):
            rows.append((LineRead(text, 0.0, engine.name, tuple(probs)), _digits(target), kind))
    print(f"\nsure of every digit, val + test prints ({len(rows)} reads; the reader hears the model at "
          f"{DEFAULT_PARAMS.model_min_char_prob}):")
    print(f"{'threshold':<10} {'kind':<9} {'reads':>6} {'sure':>6} {'right':>6} {'7 other digits':>15} "
          f"{'other length':>13}")
    for tau in SURE_THRESHOLDS:
        params = dataclasses.replace(DEFAULT_PARAMS, model_min_char_prob=tau)
        for kind in ("clean", "degraded"):
            sel = [(r, t) for r, t, k in rows if k == kind]
            sure = [(r, t) for r, t in sel if heard(r, params)]
            right = sum(_digits(r.text) == t for r, t in sure)
            other7 = sum(any(s.kind is SerialKind.SERIAL7 and s.digits != t for s in parse_serial_text(r.text))
                         for r, t in sure if _digits(r.text) != t)
            mark = " <-" if tau == DEFAULT_PARAMS.model_min_char_prob else ""
            print(f"{tau:<10} {kind:<9} {len(sel):>6} {len(sure):>6} {right:>6} {other7:>15} "
                  f"{len(sure) - right - other7:>13}{mark}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--split", choices=("test", "val"), default="test")
    ap.add_argument("--repeat", type=int, default=200, help="timed single-print recognitions (default 200)")
    args = ap.parse_args(argv)

    from dealer_assist.vision.recognizer import CARD_PATH, MODEL_PATH, SerialCtcEngine, preprocess
    from training.data import real_samples
    from training.train import evaluate, held_out_set

    card = json.loads(CARD_PATH.read_text())
    engine = SerialCtcEngine(threads=1)
    x, y, kinds = held_out_set(args.split)
    ev = evaluate(engine.scores(x), y, kinds, engine.temperature)
    print(f"serial recognizer {MODEL_PATH.name}: {card['parameters']} parameters, "
          f"{MODEL_PATH.stat().st_size / 1e6:.2f} MB, temperature {engine.temperature}")
    print(f"{args.split} split: {card['split'][args.split]['notes']} notes, {card['split'][args.split]['prints']} prints "
          f"(card) -- the model never trained on them\n")
    print(f"{'kind':<10} {'prints':>6} {'exact':>6} {'exact%':>7} {'wrong':>6} {'sure wrong':>10}   card: exact, wrong, sure wrong")
    for kind in ("clean", "degraded"):
        r, c = ev[kind], card[args.split][kind]
        print(f"{kind:<10} {r['prints']:>6} {r['exact']:>6} {100 * r['exact'] / max(r['prints'], 1):>6.1f}% "
              f"{r['wrong']:>6} {r['sure_wrong']:>10}   {c['exact']}, {c['wrong']}, {c['sure_wrong']}")
    print(f"\ncalibration over {ev['digits']} digits (ECE {ev['ece']}, card {card[args.split]['ece']}):")
    print(f"{'probability':<14} {'digits':>6} {'mean prob':>9} {'right':>7}")
    for row in ev["calibration"]:
        lo, hi = row["bin"]
        print(f"{lo:.2f}-{hi:.2f}     {row['digits']:>6} {row['mean_prob']:>9.4f} {row['right']:>7.4f}")

    sure_table(engine, args.split)

    crops = []
    from dealer_assist.vision.geometry import rectify

    for ps in real_samples(args.split)[:20]:
        crops.append(rectify(ps.image, ps.quad))
    engine.recognize(crops[0])  # warm up
    t0, c0 = time.perf_counter(), time.process_time()
    for i in range(args.repeat):
        engine.recognize(crops[i % len(crops)])
    per, per_cpu = (time.perf_counter() - t0) / args.repeat, (time.process_time() - c0) / args.repeat
    t0, c0 = time.perf_counter(), time.process_time()
    for i in range(args.repeat):
        preprocess(crops[i % len(crops)])
    pre, pre_cpu = (time.perf_counter() - t0) / args.repeat, (time.process_time() - c0) / args.repeat
    # CPU time of this process too: on a machine shared with other work the wall clock counts their turns
    print(f"\nspeed, one thread: {1000 * per:.2f} ms wall, {1000 * per_cpu:.2f} ms CPU per print (of which "
          f"preprocessing {1000 * pre:.2f} ms wall, {1000 * pre_cpu:.2f} ms CPU), {args.repeat} recognitions, "
          f"load average {os.getloadavg()[0]:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
