"""Reader benchmark on ../shared/real_photos (and, given --synthetic N, on the synth presets).

Prints: legible 7-digit notes, read exactly, wrong trusted reads, serials
invented on photos without a readable ruble serial, and median milliseconds
per photo on one core (onnxruntime and tesseract limited to one thread): wall
clock, and CPU time (this process's and Tesseract's child processes'), which
other work on a shared machine does not inflate.

    .venv/bin/python benchmarks/bench_reader.py [--synthetic 40] [--det-max-side 640]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path

os.environ.setdefault("OMP_THREAD_LIMIT", "1")

from dealer_assist.evaluation import ReaderFigures, score_photo  # noqa: E402
from dealer_assist.vision.images import load_image  # noqa: E402
from dealer_assist.vision.reader import SerialReader  # noqa: E402

SHARED = Path(__file__).resolve().parents[1].parent / "shared"


def _cpu() -> float:
    """CPU seconds of this process and of its finished children (Tesseract runs as one)."""
    import resource

    c = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + c.ru_utime + c.ru_stime


CPU_TIMES: list[float] = []  # per photo of the real set, seconds


def run_real(reader: SerialReader) -> tuple[ReaderFigures, list[float]]:
    labels = json.loads((SHARED / "real_photos" / "labels.json").read_text(encoding="utf-8"))
    figures, times = ReaderFigures(), []
    for entry in labels:
        image, _ = load_image(SHARED / "real_photos" / entry["file"])
        t0, c0 = time.perf_counter(), _cpu()
        notes = reader.read(image)
        times.append(time.perf_counter() - t0)
        CPU_TIMES.append(_cpu() - c0)
        score_photo(figures, entry["file"], entry["notes"], [n.serial for n in notes if n.serial])
    return figures, times


def run_synthetic(reader: SerialReader, preset: str, n: int) -> tuple[ReaderFigures, list[float]]:
    from dealer_assist.synth.photos import render_note_photo

    figures, times = ReaderFigures(), []
    for seed in range(n):
        image, truth = render_note_photo(seed, preset)
        t0 = time.perf_counter()
        notes = reader.read(image)
        times.append(time.perf_counter() - t0)
        label = [{"serial_digits": x["serial"], "n_digits": 7} for x in truth["notes"] if x.get("legible", True)]
        score_photo(figures, f"{preset}-{seed}", label, [x.serial for x in notes if x.serial])
    return figures, times


def report(name: str, figures: ReaderFigures, times: list[float]) -> None:
    print(f"{name}: legible 7-digit notes {figures.legible}, read exactly {figures.exact} "
          f"({100 * figures.exact_rate:.1f}%), wrong trusted {figures.wrong}, invented {figures.invented}, "
          f"median {1000 * statistics.median(times):.0f} ms/photo, max {1000 * max(times):.0f} ms")
    for photo, truth in figures.misses:
        print(f"  missed {truth} in {photo}")
    for photo, got in figures.wrongs:
        print(f"  WRONG {got} in {photo}")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--synthetic", type=int, default=0, metavar="N",
                    help="also render N photos per synthetic preset (easy, medium, hard) and read them")
    ap.add_argument("--det-max-side", type=int, default=None, metavar="PX",
                    help="the text detector's longest side in px (default: dealer_assist.vision.ocr.DET_MAX_SIDE)")
    args = ap.parse_args()
    from dealer_assist.vision.ocr import DET_MAX_SIDE, RapidOcrEngine

    side = args.det_max_side or DET_MAX_SIDE
    reader = SerialReader(primary=RapidOcrEngine(det_max_side=side))
    print(f"detector side {side} px")
    reader.read(load_image(SHARED / "real_photos" / "real_047.jpg")[0])  # load the models first
    report("real photos", *run_real(reader))
    print(f"  CPU: median {1000 * statistics.median(CPU_TIMES):.0f} ms/photo, max {1000 * max(CPU_TIMES):.0f} ms "
          f"(load average {os.getloadavg()[0]:.1f})")
    for preset in ("easy", "medium", "hard") if args.synthetic else ():
        report(f"synthetic {preset}", *run_synthetic(reader, preset, args.synthetic))
    return 0


if __name__ == "__main__":
    sys.exit(main())
