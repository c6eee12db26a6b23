"""Degradation benchmark: the reader on ~1,600 degraded copies of ../shared/real_photos.

Its purpose is one number per kind of degradation: **trusted WRONG** serials,
which must be zero (a wrong trusted serial pays the wrong player). Each
labelled photo is degraded the ways a user's phone does it
(:mod:`dealer_assist.synth.degrade`: JPEG, blur, shake, distance, rotation,
dark, over-exposed, mirror, one print of a note hidden, two digits of a
print painted over), several parameter draws per kind, and every degraded
image is read by :class:`~dealer_assist.vision.reader.SerialReader`.

    PYTHONPATH=. .venv/bin/python benchmarks/bench_degrade.py [--jobs 2] [--seed 0]
        [--kinds jpeg,rotate] [--limit N] [--split all|tune|holdout]
        [--json results.json] [--compare before.json]

Truth (from ``labels.json``): a note is *expected* when it is a 7-digit
serial whose ``legible`` is ``clear`` or ``hard``. A trusted serial is
*right* when it is an expected note's, *uncertain* when it fits the known
digits of an ``uncertain`` note (or its ``best_guess_digits``), and otherwise
**WRONG**; a wrong one that resembles no labelled note at all (Hamming
distance over 3 to every 7-digit label, and no near 7-digit part of a 9-digit
one) is also counted as *invented*; photos with ``notes: []`` must give none.
A mirrored image cannot be read by a person: it expects no note, and any
trusted serial on it other than the truth is WRONG. *missed* = expected
notes not trusted with their serial (unreadable, or trusted wrong).

The two kinds that hide part of a note need its prints' places: the
undegraded photo is read once with the current reader and the prints of each
note read with the label's serial are kept (a note not read right, or read
from one print only, gets no such images). The places are cached as JSON in
``/tmp/dealer-assist-degrade/prints/``, keyed by the photo's hash and a hash of
the reader's source; degraded images are cached as PNG in
``/tmp/dealer-assist-degrade/images/`` keyed by the degradation code's hash.
Nothing made from the photos is ever written inside the repository.

Split: a photo is in ``tune`` when the SHA-256 of its file name, as an
integer, is even, else in ``holdout`` (28 and 27 of the 55 photos): tune the
trust rules on ``tune`` only, and check them on ``holdout``.

Which rule trusted a serial is told from the note's reads: ``two prints``
when two of its prints read the serial, else ``one print + engines (a, b)``.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import sys
import time
import zlib
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

os.environ.setdefault("OMP_THREAD_LIMIT", "1")

import cv2  # noqa: E402
import numpy as np  # noqa: E402

from dealer_assist.synth import degrade  # noqa: E402
from dealer_assist.synth.degrade import Kind  # noqa: E402

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared"
PHOTOS = SHARED / "real_photos"
CACHE = Path("/tmp/dealer-assist-degrade")

#: Parameter draws per photo for the kinds drawn at random; the discrete kinds are
#: enumerated instead (JPEG qualities 4..8, rotations 90/180/270/45, both mirror axes,
#: the single Gaussian sigma), and the print kinds go per located note (see :func:`plan`).
DRAWS = {Kind.MOTION_BLUR: 4, Kind.DOWNSCALE: 3, Kind.DARK: 2, Kind.OVEREXPOSED: 2}
#: Per located two-print note: each print hidden by a crop and by a cover (4 images),
#: and each print with two draws of the painted digit pair (4 images).
PAINT_DRAWS_PER_PRINT = 2


def _hash_files(paths: list[Path]) -> str:
    h = hashlib.sha256()
    for p in sorted(paths):
        h.update(p.name.encode())
        h.update(p.read_bytes())
    return h.hexdigest()[:12]


def reader_version() -> str:
    """A hash of the reader's source (dealer_assist/vision/*.py)."""
    return _hash_files(list((REPO / "dealer_assist" / "vision").glob("*.py")))


def degrade_version() -> str:
    """A hash of the degradation code (degrade.py and the effects it reuses)."""
    synth = REPO / "dealer_assist" / "synth"
    return _hash_files([synth / "degrade.py", synth / "effects.py"])


def split_of(name: str) -> str:
    """``"tune"`` or ``"holdout"``: the fixed split of the photos by a hash of the file name."""
    return "tune" if int(hashlib.sha256(name.encode()).hexdigest(), 16) % 2 == 0 else "holdout"


# ----------------------------------------------------------------------------- worker side

_READER = None
_READER_SIDE: int | None = None  # its detector side (None: the default)
_ORIGINALS: dict[str, np.ndarray] = {}


def _init_worker(det_max_side: int | None = None) -> None:
    """This process's reader; ``det_max_side``: the text detector's longest side (px), None for the
    reader's default (:data:`dealer_assist.vision.ocr.DET_MAX_SIDE`)."""
    global _READER, _READER_SIDE
    from dealer_assist.vision.ocr import RapidOcrEngine
    from dealer_assist.vision.reader import SerialReader

    _READER = SerialReader(primary=None if det_max_side is None else RapidOcrEngine(det_max_side=det_max_side))
    _READER_SIDE = det_max_side


def _original(photo: str) -> np.ndarray:
    from dealer_assist.vision.images import load_image

    if photo not in _ORIGINALS:
        _ORIGINALS[photo] = load_image(PHOTOS / photo)[0]
    return _ORIGINALS[photo]


def _trust_rule(note) -> str:
    """Which rule of :func:`~dealer_assist.vision.reader.decide` trusted ``note``'s serial."""
    from dealer_assist.vision.serials import SerialKind

    serial = note.serial
    agreeing, engines = 0, set()
    for p in note.prints:
        if p.ambiguous:
            continue
        full = [r.engine for r, s in p.serials(SerialKind.SERIAL7) if s.digits == serial]
        part = [r.engine for r, s in p.serials(SerialKind.PARTIAL) if len(s.digits) >= 6 and s.digits in serial]
        if (full and not p.cut) or (p.cut and part):
            agreeing += 1
        engines.update(full)
    if agreeing >= 2:
        return "two prints"
    return f"one print + engines ({', '.join(sorted(engines))})"


def _note_json(note) -> dict[str, Any]:
    return {
        "serial": note.serial,
        "status": note.status,
        "reason": note.reason,
        "rule": _trust_rule(note) if note.status == "trusted" else None,
        "prints": [np.round(p.quad, 1).tolist() for p in note.prints],
        "reads": [[r.engine, r.text] for p in note.prints for r, _ in p.reads],
    }


def _locate(photo: str) -> dict[str, Any]:
    """Read the undegraded photo: every note with its prints (quads) and status."""
    image = _original(photo)
    notes = _READER.read(image)
    return {"photo": photo, "notes": [_note_json(n) for n in notes]}


def _image_path(job: dict) -> Path:
    return CACHE / "images" / job["degrade_version"] / f"{job['id'].replace('|', '_')}.png"


def _run_job(job: dict) -> dict[str, Any]:
    """Make (or load from the cache) one degraded image and read it."""
    path = _image_path(job)
    info: dict = {}
    image = cv2.imread(str(path), cv2.IMREAD_COLOR) if path.is_file() else None
    info_path = path.with_suffix(".json")
    if image is not None and info_path.is_file():
        info = json.loads(info_path.read_text())
    else:
        image, info = degrade.apply(_original(job["photo"]), Kind(job["kind"]), job["params"])
        path.parent.mkdir(parents=True, exist_ok=True)
        cv2.imwrite(str(path), image, [cv2.IMWRITE_PNG_COMPRESSION, 1])
        info_path.write_text(json.dumps(info))
    t0 = time.perf_counter()
    try:
        notes = _READER.read(image)
        error = None
    except Exception as exc:  # noqa: BLE001 - one image must never stop the run
        notes, error = [], f"{type(exc).__name__}: {exc}"
    return {"id": job["id"], "shape": list(image.shape), "info": info, "error": error,
            "seconds": round(time.perf_counter() - t0, 3), "notes": [_note_json(n) for n in notes]}


# ----------------------------------------------------------------------------- plan


def _cached_locations(photos: list[str], jobs: int) -> dict[str, dict]:
    """The reader's notes on each undegraded photo, from the cache or read now."""
    # Keyed by the photo alone, not by the reader: the images that hide a print must stay the same
    # images when the reader changes, or before and after would not be compared on one set.
    # Delete the folder to locate the prints again.
    out, todo = {}, []
    for photo in photos:
        digest = hashlib.sha256((PHOTOS / photo).read_bytes()).hexdigest()[:16]
        path = CACHE / "prints" / f"{photo}-{digest}.json"
        if path.is_file():
            out[photo] = json.loads(path.read_text())
        else:
            todo.append((photo, path))
    if todo:
        print(f"locating prints: reading {len(todo)} undegraded photos", file=sys.stderr)
        for (photo, path), res in zip(todo, _map(_locate, [p for p, _ in todo], jobs)):
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(json.dumps(res))
            out[photo] = res
    return out


def located_notes(entry: dict, located: dict) -> list[dict]:
    """Notes of the label read right on the undegraded photo from two prints in the
    1997-series layout: ``{"serial", "top_right", "left"}`` (quads as lists)."""
    from dealer_assist.vision.grouping import is_ruble_pair

    truths = {n["serial_digits"] for n in entry["notes"] if n["n_digits"] == 7}
    out = []
    for note in located["notes"]:
        if note["status"] != "trusted" or note["serial"] not in truths or note["rule"] != "two prints":
            continue
        quads = [np.asarray(q, np.float32) for q in note["prints"]]
        pair = next(((a, b) for i, a in enumerate(quads) for b in quads[i + 1:] if is_ruble_pair(a, b)[0]), None)
        if pair is None:
            continue
        _, top, left = is_ruble_pair(*pair)
        out.append({"serial": note["serial"], "top_right": top.tolist(), "left": left.tolist()})
    return out


def plan(labels: list[dict], locations: dict[str, dict], kinds: list[Kind], seed: int) -> list[dict]:
    """Every degraded image to make: ``{"id", "photo", "kind", "params"}``, deterministic
    given ``seed`` (each photo and kind draws from its own generator, so choosing fewer
    kinds or photos does not change the others' images)."""
    jobs = []
    version = degrade_version()
    for entry in labels:
        photo = entry["file"]
        for kind in kinds:
            rng = np.random.default_rng([seed, zlib.crc32(photo.encode()), list(Kind).index(kind)])
            params_list: list[dict] = []
            if kind is Kind.JPEG:
                params_list = [{"quality": q} for q in range(4, 9)]
            elif kind is Kind.GAUSSIAN_BLUR:
                params_list = [degrade.draw_params(kind, rng)]
            elif kind is Kind.ROTATE:
                params_list = [{"degrees": d} for d in degrade.RANGES[kind]["degrees"]]
            elif kind is Kind.MIRROR:
                params_list = [{"axis": a} for a in degrade.RANGES[kind]["axis"]]
            elif kind in DRAWS:
                params_list = [degrade.draw_params(kind, rng) for _ in range(DRAWS[kind])]
            elif kind in degrade.NEEDS_PRINTS:
                notes = located_notes(entry, locations[photo])
                all_prints = [q for n in locations[photo]["notes"] for q in n["prints"]]
                for note in notes:
                    for which in ("top_right", "left"):
                        quad = note[which]
                        if kind is Kind.ONE_PRINT:
                            keep = [q for q in all_prints if not np.allclose(q, quad)]
                            for how in degrade.RANGES[kind]["how"]:
                                params_list.append({"how": how, "seed": int(rng.integers(0, 2**31)),
                                                    "serial": note["serial"], "hidden": which,
                                                    "quad": quad, "keep": keep})
                        else:
                            firsts = rng.choice(6, size=PAINT_DRAWS_PER_PRINT, replace=False)
                            for first in sorted(int(f) for f in firsts):
                                params_list.append({"first": first, "count": 2, "seed": int(rng.integers(0, 2**31)),
                                                    "serial": note["serial"], "painted": which, "quad": quad})
            for i, params in enumerate(params_list):
                jobs.append({"id": f"{photo}|{kind.value}|{i}", "photo": photo, "kind": kind.value,
                             "params": params, "degrade_version": version})
    return jobs


# ----------------------------------------------------------------------------- scoring


def _hamming(a: str, b: str) -> int:
    return sum(x != y for x, y in zip(a, b)) + abs(len(a) - len(b))


def _fits(pattern: str, serial: str) -> bool:
    return len(pattern) == len(serial) and all(p in ("?", s) for p, s in zip(pattern, serial))


def _resembles(serial: str, label_notes: list[dict]) -> bool:
    for n in label_notes:
        t = n["serial_digits"]
        if len(t) == 7 and _hamming(serial, t) <= 3:
            return True
        if len(t) > 7 and any(_hamming(serial, t[i:i + 7]) <= 1 for i in range(len(t) - 6)):
            return True
    return False


def score(entry: dict, job: dict, result: dict) -> dict[str, Any]:
    """One image's outcome against its label (see the module docstring for the words)."""
    notes = entry["notes"]
    readable = [n for n in notes if n["n_digits"] == 7 and n["legible"] in ("clear", "hard")
                and n["serial_digits"].isdigit()]
    uncertain = [n for n in notes if n["n_digits"] == 7 and n not in readable]
    expected = [] if job["kind"] == Kind.MIRROR.value else [n["serial_digits"] for n in readable]
    truths = [n["serial_digits"] for n in readable]
    right, wrong, invented, unsure, duplicate = [], [], [], [], []
    for note in result["notes"]:
        if note["status"] != "trusted":
            continue
        s = note["serial"]
        if s in truths:
            (duplicate if s in right else right).append(s)
        elif any(_fits(n["serial_digits"], s) or n.get("best_guess_digits") == s for n in uncertain):
            unsure.append(s)
        else:
            wrong.append({"read": s, "rule": note["rule"],
                          "truth": ", ".join(n["serial_digits"] for n in notes) or "(no ruble serial)"})
            if not _resembles(s, notes):
                invented.append(s)
    missed = [t for t in expected if t not in right]
    return {"expected": len(expected), "right": len(right), "wrong": wrong, "invented": len(invented),
            "uncertain": len(unsure), "duplicate": len(duplicate), "missed": len(missed)}


@dataclass
class Row:
    images: int = 0
    expected: int = 0
    right: int = 0
    wrong: int = 0
    invented: int = 0
    uncertain: int = 0
    missed: int = 0
    errors: int = 0
    seconds: list[float] = field(default_factory=list)

    def add(self, rec: dict) -> None:
        s = rec["score"]
        self.images += 1
        self.expected += s["expected"]
        self.right += s["right"]
        self.wrong += len(s["wrong"])
        self.invented += s["invented"]
        self.uncertain += s["uncertain"]
        self.missed += s["missed"]
        self.errors += rec["error"] is not None
        self.seconds.append(rec["seconds"])


def table(records: list[dict]) -> dict[str, Row]:
    rows: dict[str, Row] = {}
    for rec in records:
        rows.setdefault(rec["kind"], Row()).add(rec)
    total = Row()
    for rec in records:
        total.add(rec)
    ordered = {k.value: rows[k.value] for k in Kind if k.value in rows}
    ordered["TOTAL"] = total
    return ordered


def print_table(rows: dict[str, Row]) -> None:
    head = (f"{'kind':<14} {'images':>6} {'expected':>8} {'right':>6} {'right%':>6} {'WRONG':>6} "
            f"{'invented':>8} {'uncertain':>9} {'missed':>6} {'errors':>6}")
    print(head)
    print("-" * len(head))
    for name, r in rows.items():
        pct = f"{100 * r.right / r.expected:.1f}" if r.expected else "-"
        print(f"{name:<14} {r.images:>6} {r.expected:>8} {r.right:>6} {pct:>6} {r.wrong:>6} "
              f"{r.invented:>8} {r.uncertain:>9} {r.missed:>6} {r.errors:>6}")


def _brief_params(params: dict) -> str:
    return json.dumps({k: v for k, v in params.items() if k not in ("quad", "keep", "seed")}, ensure_ascii=False)


def print_wrongs(records: list[dict]) -> None:
    wrongs = [(rec, w) for rec in records for w in rec["score"]["wrong"]]
    print(f"\nwrong trusted reads: {len(wrongs)}")
    for rec, w in wrongs:
        print(f"  {rec['photo']:<13} {rec['kind']:<13} {_brief_params(rec['params']):<58} "
              f"truth {w['truth']:<18} read {w['read']}  [{w['rule']}]")


def print_compare(old: list[dict], new: list[dict]) -> None:
    """Per kind, before -> after, on the images both runs have."""
    old_by_id = {r["id"]: r for r in old}
    common = [r for r in new if r["id"] in old_by_id]
    print(f"\ncompare: {len(common)} images in both runs ({len(new) - len(common)} new only, "
          f"{len(old) - len(common)} old only)")
    before, after = table([old_by_id[r["id"]] for r in common]), table(common)
    head = f"{'kind':<14} {'images':>6} {'right':>13} {'WRONG':>11} {'invented':>11} {'missed':>13}"
    print(head)
    print("-" * len(head))
    for name in after:
        b, a = before[name], after[name]
        print(f"{name:<14} {a.images:>6} {b.right:>6}->{a.right:<6} {b.wrong:>4}->{a.wrong:<6} "
              f"{b.invented:>4}->{a.invented:<6} {b.missed:>6}->{a.missed:<6}")
    for r in common:
        ow = {w["read"] for w in old_by_id[r["id"]]["score"]["wrong"]}
        nw = {w["read"] for w in r["score"]["wrong"]}
        for s in sorted(nw - ow):
            print(f"  new WRONG   {r['id']}: {s}")
        for s in sorted(ow - nw):
            print(f"  fixed WRONG {r['id']}: {s}")


# ----------------------------------------------------------------------------- main


def _map(fn, items: list, jobs: int, progress: str | None = None, det_max_side: int | None = None):
    """``fn`` over ``items`` in order, in ``jobs`` processes (each with its own reader, its detector at
    ``det_max_side``)."""
    t0, n = time.perf_counter(), len(items)

    def report(i: int) -> None:
        if progress and (i % 25 == 0 or i == n):
            el = time.perf_counter() - t0
            eta = el / i * (n - i)
            print(f"  {progress} {i}/{n}  {el:.0f} s elapsed, ~{eta:.0f} s to go", file=sys.stderr, flush=True)

    if jobs <= 1:
        if _READER is None or _READER_SIDE != det_max_side:
            _init_worker(det_max_side)
        for i, item in enumerate(items, 1):
            yield fn(item)
            report(i)
        return
    with ProcessPoolExecutor(max_workers=jobs, initializer=_init_worker, initargs=(det_max_side,)) as pool:
        for i, res in enumerate(pool.map(fn, items, chunksize=1), 1):
            yield res
            report(i)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seed", type=int, default=0, help="parameter draws (default 0)")
    ap.add_argument("--jobs", type=int, default=2, help="worker processes, each with its own reader (default 2)")
    ap.add_argument("--kinds", default="", help="comma-separated kinds (default all): "
                    + ", ".join(k.value for k in Kind))
    ap.add_argument("--limit", type=int, default=0, help="read only N images, a seeded sample of the plan")
    ap.add_argument("--split", choices=("all", "tune", "holdout"), default="all",
                    help="photos of one half of the fixed split (see above)")
    ap.add_argument("--json", metavar="FILE", help="save the per-image results here")
    ap.add_argument("--compare", metavar="OLD.json", help="print before/after per kind against an earlier --json")
    ap.add_argument("--det-max-side", type=int, default=None, metavar="PX",
                    help="the text detector's longest side in px (default: the reader's, "
                         "dealer_assist.vision.ocr.DET_MAX_SIDE); the undegraded photos' print places are "
                         "cached with the default reader and stay the same")
    args = ap.parse_args(argv)

    try:
        kinds = [Kind(k.strip()) for k in args.kinds.split(",") if k.strip()] or list(Kind)
    except ValueError as exc:
        ap.error(str(exc))
    labels = json.loads((PHOTOS / "labels.json").read_text(encoding="utf-8"))
    labels = [e for e in sorted(labels, key=lambda e: e["file"]) if args.split in ("all", split_of(e["file"]))]
    by_photo = {e["file"]: e for e in labels}
    t_start = time.perf_counter()

    locations = _cached_locations([e["file"] for e in labels], args.jobs) if any(
        k in degrade.NEEDS_PRINTS for k in kinds) else {}
    jobs = plan(labels, locations, kinds, args.seed)
    if args.limit and args.limit < len(jobs):
        pick = np.random.default_rng(args.seed).choice(len(jobs), size=args.limit, replace=False)
        jobs = [jobs[i] for i in sorted(pick)]
    print(f"{len(jobs)} degraded images of {len(labels)} photos, kinds: {', '.join(k.value for k in kinds)}",
          file=sys.stderr)

    records = []
    for job, res in zip(jobs, _map(_run_job, jobs, args.jobs, progress="read", det_max_side=args.det_max_side)):
        rec = {**job, **res, "split": split_of(job["photo"])}
        rec["score"] = score(by_photo[job["photo"]], job, res)
        records.append(rec)
    runtime = time.perf_counter() - t_start

    print(f"degradation benchmark: seed {args.seed}, split {args.split}, {len(jobs)} images, "
          f"reader {reader_version()}, degrade {degrade_version()}"
          + (f", detector side {args.det_max_side} px" if args.det_max_side else ""))
    if locations:
        n_loc = sum(len(located_notes(by_photo[p], loc)) for p, loc in locations.items())
        n_exp = sum(n["n_digits"] == 7 and n["legible"] in ("clear", "hard") and n["both_prints_visible"]
                    for e in labels for n in e["notes"])
        print(f"print places: {n_loc} of {n_exp} expected two-print notes read right from two prints "
              "on the undegraded photos (the others get no one_print / paint_digits images)")
    print()
    print_table(table(records))
    print_wrongs(records)
    secs = [r["seconds"] for r in records]
    print(f"\nruntime {runtime:.0f} s with {args.jobs} jobs; reader median {1000 * float(np.median(secs)):.0f} ms, "
          f"max {1000 * max(secs):.0f} ms per image" if secs else f"\nruntime {runtime:.0f} s")
    if args.json:
        meta = {"seed": args.seed, "split": args.split, "kinds": [k.value for k in kinds], "limit": args.limit,
                "reader_version": reader_version(), "degrade_version": degrade_version(),
                "runtime_s": round(runtime, 1), "jobs": args.jobs, "det_max_side": args.det_max_side}
        Path(args.json).write_text(json.dumps({"meta": meta, "images": records}, ensure_ascii=False))
    if args.compare:
        old = json.loads(Path(args.compare).read_text())["images"]
        print_compare(old, records)
    return 0


if __name__ == "__main__":
    sys.exit(main())
