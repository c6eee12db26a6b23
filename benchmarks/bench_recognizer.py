"""The serial recognizer (models/serial_ctc.onnx) on its held-out real prints, and its speed on one core.

    PYTHONPATH=. .venv/bin/python benchmarks/bench_recognizer.py [--split test|val] [--repeat 200]

Prints, on the prints of the real photos its training never saw (split by note,
:func:`training.data.split_of_note`; located at run time, nothing is committed):
per kind (clean crops, and ``HELD_OUT_VARIANTS`` degraded copies of each with a
fixed seed) prints, exact digit reads, wrong ones and wrong ones sure of every
digit; the calibration table of the per-digit probabilities; the card's
figures beside them; then the milliseconds per print through onnxruntime on
one thread (preprocessing included) and the model's size.

Needs no PyTorch: only the data code of ``training/`` (OpenCV and the reader's engines).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time

os.environ.setdefault("OMP_THREAD_LIMIT", "1")

import numpy as np  # noqa: E402


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
