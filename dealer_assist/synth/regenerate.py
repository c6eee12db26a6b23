"""Regenerate the committed synthetic samples (and, on request, extra material).

    python -m dealer_assist.synth.regenerate                 # sample_images/ of this repo
    python -m dealer_assist.synth.regenerate --out DIR       # somewhere else
    python -m dealer_assist.synth.regenerate --extras out/synth   # + sequences, galleries

Deterministic: the same code and libraries give byte-identical files.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import cv2

from dealer_assist.synth.fonts import FontNotFoundError
from dealer_assist.synth.samples import write_samples
from dealer_assist.synth.photos import render_note_photo
from dealer_assist.synth.scene import render_scene
from dealer_assist.synth.sequence import write_hand_sequence
from dealer_assist.synth.truth import atomic_write_bytes, dumps_truth

REPO_ROOT = Path(__file__).resolve().parents[2]


def write_extras(out: Path, n_photos: int = 8) -> None:
    """Dealt-hand sequences (easy and hard, frames + mp4 + truth) and, per preset,
    ``n_photos`` single-note photos and one table scene, each with its truth JSON."""
    write_hand_sequence(out / "sequence_easy", 11, "easy", n_players=4)
    write_hand_sequence(out / "sequence_hard", 12, "hard", n_players=5)
    for preset in ("easy", "medium", "hard"):
        d = out / f"gallery_{preset}"
        for i in range(n_photos):
            img, truth = render_note_photo(i, preset)
            ok, buf = cv2.imencode(".png", img)
            atomic_write_bytes(d / f"note_{i:03d}.png", buf.tobytes())
            atomic_write_bytes(d / f"note_{i:03d}.json", dumps_truth(truth).encode("utf-8"))
        img, truth = render_scene(1, preset, markers=True)
        ok, buf = cv2.imencode(".png", img)
        atomic_write_bytes(d / "table.png", buf.tobytes())
        atomic_write_bytes(d / "table.json", dumps_truth(truth).encode("utf-8"))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m dealer_assist.synth.regenerate", description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=REPO_ROOT / "sample_images", help="samples folder (default: sample_images/)")
    parser.add_argument("--extras", type=Path, default=None, help="also write sequences and preset galleries here")
    args = parser.parse_args(argv)
    t0 = time.perf_counter()
    try:
        names = write_samples(args.out)
        print(f"wrote {', '.join(names)} in {args.out} ({time.perf_counter() - t0:.1f} s)")
        if args.extras is not None:
            t1 = time.perf_counter()
            write_extras(args.extras)
            print(f"wrote sequences and galleries in {args.extras} ({time.perf_counter() - t1:.1f} s)")
    except FontNotFoundError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    except OSError as exc:
        print(f"error: cannot write the samples: {exc.strerror or exc} ({exc.filename or args.out})", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
