"""Renderer speed: milliseconds per single-note photo (each preset), per table
scene, per sequence frame, and the time to rebuild one sample hand.

    .venv/bin/python benchmarks/bench_synth.py [--n 10]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

from dealer_assist.synth.note import NoteSpec, render_note
from dealer_assist.synth.photos import render_note_photo
from dealer_assist.synth.samples import HAND_PLANS, write_hand
from dealer_assist.synth.scene import render_scene
from dealer_assist.synth.sequence import render_hand_sequence


def _ms(fn, n: int) -> tuple[float, float]:
    times = []
    for i in range(n):
        t0 = time.perf_counter()
        fn(i)
        times.append(1000 * (time.perf_counter() - t0))
    return statistics.median(times), max(times)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--n", type=int, default=10, help="renders per figure")
    n = ap.parse_args().n
    render_note(NoteSpec("АБ", "1234567", 1000))  # build the artwork caches first
    med, worst = _ms(lambda i: render_note(NoteSpec("АБ", f"{i:07d}", 1000, i)), n)
    print(f"upright note 1150x500: median {med:.0f} ms, max {worst:.0f} ms")
    for preset in ("easy", "medium", "hard"):
        med, worst = _ms(lambda i: render_note_photo(i, preset), n)
        print(f"note photo 1280x720 {preset}: median {med:.0f} ms, max {worst:.0f} ms")
    med, worst = _ms(lambda i: render_scene(i, "medium", markers=True), max(2, n // 3))
    print(f"table scene 1920x1080 medium: median {med:.0f} ms, max {worst:.0f} ms")
    t0 = time.perf_counter()
    frames = sum(1 for _ in render_hand_sequence(1, "easy", n_players=4))
    dt = time.perf_counter() - t0
    print(f"dealt-hand sequence 1280x720: {frames} frames, {1000 * dt / frames:.0f} ms per frame")
    with tempfile.TemporaryDirectory() as tmp:
        t0 = time.perf_counter()
        write_hand(HAND_PLANS[0], Path(tmp) / HAND_PLANS[0].folder)
        print(f"one sample hand ({HAND_PLANS[0].folder}): {time.perf_counter() - t0:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
