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


#: Frame size of the extra dealt-hand sequences: the 1 m table at ~1.8 px/mm, serial digits
#: ~6 px tall, about the least live mode reads (1280x720 would give 0.8 px/mm: unreadable).
SEQUENCE_SIZE = (2560, 1440)


def sequence_profile(seq_dir: str | Path, path: str | Path):
    """Write the calibration profile of a rendered dealt-hand sequence at ``path``, as
    ``calibrate table --aruco --zones`` makes one: the table plane from the ArUco markers of
    its first frame, the board and seat zones (table mm) from its truth. Returns the profile.

    Raises:
        CalibrationError: the markers are not all found in the first frame.
    """
    import json

    from dealer_assist.calibration import Profile, TablePlane, save_profile
    from dealer_assist.calibration.table import detect_markers, homography_from_markers, zones_from_json

    seq_dir = Path(seq_dir)
    truth0 = json.loads((seq_dir / "truth.jsonl").read_text(encoding="utf-8").splitlines()[0])
    frame0 = cv2.imread(str(seq_dir / truth0["image"]))
    fit = homography_from_markers(detect_markers(frame0), None)
    plane = TablePlane((frame0.shape[1], frame0.shape[0]), fit.homography, fit.table_size_mm,
                       tuple(zones_from_json(truth0["table"])))
    return save_profile(Profile(Path(path).stem, None, None, plane), path)


def write_extras(out: Path, n_photos: int = 8, progress=None) -> None:
    """Dealt-hand sequences (easy and hard, and an easy one of Indian poker: frames + mp4 + truth, at
    :data:`SEQUENCE_SIZE`, each with ``table.json``, its calibration profile for ``dealer-assist live``) and, per preset,
    ``n_photos`` single-note photos and one table scene, each with its truth JSON.

    ``progress``: what :func:`progress_bar` returns, to show each step (a sequence frame by frame, the galleries
    photo by photo) as it is built (None: nothing shown). A step's clock starts when the step does."""
    sequences = (("sequence_easy", 11, "easy", 4, "holdem"), ("sequence_hard", 12, "hard", 5, "holdem"),
                 ("sequence_indian", 13, "easy", 4, "indian"))
    tasks = ({name: progress.add_task(name, total=None, start=False) for name, *_ in sequences}
             if progress is not None else {})
    galleries = progress.add_task("galleries", total=3 * (n_photos + 1), start=False) if progress is not None else None
    for name, seed, preset, players, game in sequences:
        on_frame = None
        if progress is not None:
            progress.start_task(tasks[name])

            def on_frame(done, total, task=tasks[name]):
                progress.update(task, completed=done, total=total)
        write_hand_sequence(out / name, seed, preset, n_players=players, image_size=SEQUENCE_SIZE, game=game,
                            on_frame=on_frame)
        sequence_profile(out / name, out / name / "table.json")
    if progress is not None:
        progress.start_task(galleries)
    for preset in ("easy", "medium", "hard"):
        d = out / f"gallery_{preset}"
        for i in range(n_photos):
            img, truth = render_note_photo(i, preset)
            ok, buf = cv2.imencode(".png", img)
            atomic_write_bytes(d / f"note_{i:03d}.png", buf.tobytes())
            atomic_write_bytes(d / f"note_{i:03d}.json", dumps_truth(truth).encode("utf-8"))
            if progress is not None:
                progress.advance(galleries)
        img, truth = render_scene(1, preset, markers=True)
        ok, buf = cv2.imencode(".png", img)
        atomic_write_bytes(d / "table.png", buf.tobytes())
        atomic_write_bytes(d / "table.json", dumps_truth(truth).encode("utf-8"))
        if progress is not None:
            progress.advance(galleries)


#: Seconds between two progress lines of one step when standard error is a file or a pipe (a line also
#: when the step starts and when it ends): often enough that a log never looks hung, rarely enough to read.
LINE_EVERY_S = 20.0


def _clock(seconds: float) -> str:
    seconds = int(round(seconds))
    return f"{seconds // 3600}:{seconds // 60 % 60:02d}:{seconds % 60:02d}"


class StepLines:
    """Progress as plain lines, for standard error that is no terminal (a log file, a pipe, ``2>&1 | tee``):
    the same calls as a :class:`rich.progress.Progress` (``add_task``, ``start_task``, ``update``,
    ``advance``, a context manager), and per step a line when it starts, one at most every
    :data:`LINE_EVERY_S` seconds while it runs (done of total, share, time spent, an estimate of the time
    left from the pace so far) and one when it is done. ``clock``: seconds (``time.monotonic``)."""

    def __init__(self, stream=None, clock=time.monotonic):
        self.stream = stream if stream is not None else sys.stderr
        self.clock = clock
        self._tasks: list[dict] = []

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        return None

    def _say(self, text: str) -> None:
        print(text, file=self.stream, flush=True)

    def add_task(self, description: str, total=None, start: bool = True) -> int:
        self._tasks.append({"name": description, "total": total, "done": 0, "t0": None, "said": None, "ended": False})
        if start:
            self.start_task(len(self._tasks) - 1)
        return len(self._tasks) - 1

    def start_task(self, task: int) -> None:
        t = self._tasks[task]
        if t["t0"] is None:
            t["t0"] = t["said"] = self.clock()
            of = f" ({t['total']} to build)" if t["total"] else ""
            self._say(f"{t['name']}: started{of}")

    def advance(self, task: int, advance: int = 1) -> None:
        self.update(task, completed=self._tasks[task]["done"] + advance)

    def update(self, task: int, completed=None, total=None) -> None:
        t = self._tasks[task]
        self.start_task(task)
        if total is not None:
            t["total"] = total
        if completed is not None:
            t["done"] = completed
        now, done, total = self.clock(), t["done"], t["total"]
        spent = now - t["t0"]
        if total and done >= total and not t["ended"]:
            t["ended"] = True
            self._say(f"{t['name']}: {done}/{total} done in {_clock(spent)}")
        elif not t["ended"] and now - t["said"] >= LINE_EVERY_S:
            t["said"] = now
            if total and done:
                left = spent * (total - done) / done
                self._say(f"{t['name']}: {done}/{total} ({100 * done // total}%), {_clock(spent)} spent, "
                          f"about {_clock(left)} left")
            else:
                self._say(f"{t['name']}: {_clock(spent)} spent")


def progress_bar(console=None):
    """The progress display of a run: on standard error, so the printed lines stay clean. On a terminal
    a bar per step with the share done, the time spent and an estimate of the time left (rich's estimate
    from the pace so far; a step not begun shows no time); else :class:`StepLines` (plain lines, so a
    log or a pipe shows that the run is alive too)."""
    from rich.console import Console
    from rich.progress import (BarColumn, MofNCompleteColumn, Progress, TaskProgressColumn, TextColumn,
                               TimeElapsedColumn, TimeRemainingColumn)

    console = console or Console(stderr=True)
    if not console.is_terminal:
        return StepLines(console.file)
    return Progress(TextColumn("{task.description:<16}"), BarColumn(bar_width=24), MofNCompleteColumn(),
                    TaskProgressColumn(), TextColumn("spent"), TimeElapsedColumn(), TextColumn("· left"), TimeRemainingColumn(),
                    console=console, transient=False)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m dealer_assist.synth.regenerate", description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=REPO_ROOT / "sample_images", help="samples folder (default: sample_images/)")
    parser.add_argument("--extras", type=Path, default=None, help="also write sequences and preset galleries here")
    args = parser.parse_args(argv)
    t0 = time.perf_counter()
    try:
        for folder in (args.out, args.extras):  # an unwritable folder is the one line said, before any progress
            if folder is not None:
                folder.mkdir(parents=True, exist_ok=True)
        with progress_bar() as progress:
            samples = progress.add_task("samples", total=None)

            def on_folder(name, done, total):
                progress.update(samples, completed=done, total=total)

            names = write_samples(args.out, on_folder=on_folder)
            print(f"wrote {', '.join(names)} in {args.out} ({time.perf_counter() - t0:.1f} s)")  # above the bars
            if args.extras is not None:
                t1 = time.perf_counter()
                write_extras(args.extras, progress=progress)
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
