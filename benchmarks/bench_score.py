"""Batch-scoring throughput: hands per second with --jobs 1 and --jobs 2.

Scores ../shared/real_hands (8 hands, 65 photos) through the same code as
``dealer-assist score`` and checks that both runs give identical verdicts.

    .venv/bin/python benchmarks/bench_score.py
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

os.environ.setdefault("OMP_THREAD_LIMIT", "1")

from dealer_assist.app.hand_folders import discover_hands, parse_hand_folder  # noqa: E402
from dealer_assist.app.photos import read_photos  # noqa: E402
from dealer_assist.app.verdicts import score_hand  # noqa: E402

HANDS = Path(__file__).resolve().parents[1].parent / "shared" / "real_hands"


def run(jobs: int):
    folders = [parse_hand_folder(p) for p in discover_hands([HANDS])]
    images = [str(s.path) for f in folders for s in f.slots]
    t0 = time.perf_counter()
    readings = {r.image: r for r in read_photos(images, jobs=jobs)}
    scores = [score_hand(f, readings).to_json() for f in folders]
    return time.perf_counter() - t0, len(images), scores


def main() -> int:
    results = {}
    for jobs in (1, 2):
        seconds, n_images, scores = run(jobs)
        results[jobs] = scores
        print(f"--jobs {jobs}: {len(scores)} hands, {n_images} photos in {seconds:.1f} s = "
              f"{len(scores) / seconds:.2f} hands/s, {n_images / seconds:.2f} photos/s "
              f"(model loading included)")
    same = results[1] == results[2]
    print("identical verdicts with --jobs 1 and --jobs 2:", same)
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
