"""Measure a trust threshold on the degradation benchmark's hard cases, without re-running all of it.

Three steps, each on the images of one ``bench_degrade.py --json`` run (their degraded copies are cached
by that benchmark under ``/tmp/dealer-assist-degrade/images/``):

``gather``: re-read, with the current reader, every image that had a missed note or an untrusted 7-digit
read, and save each note's prints with every read and its per-character probabilities::

    PYTHONPATH=. .venv/bin/python benchmarks/bench_trust_replay.py gather RESULTS.json READS.json

``replay``: decide every gathered note again (:func:`~dealer_assist.vision.trust.decide`, the engines'
answers taken from the gathered reads) with each value of a :class:`~dealer_assist.vision.params.ReaderParams`
field, and print right / WRONG trusted serials and the notes that changed against the gathered decision
(the run with the field as it is must change nothing: the replay is checked by that)::

    PYTHONPATH=. .venv/bin/python benchmarks/bench_trust_replay.py replay READS.json \\
        one_print_model_letters_min_prob=None,0.5,0.8,0.95

``reread``: read the gathered images that hold an ambiguous print (digits both ways up) again with each value
of a field the print-finding stage uses (``model_way_up_min_char_prob``), and print right / WRONG::

    PYTHONPATH=. .venv/bin/python benchmarks/bench_trust_replay.py reread READS.json \\
        model_way_up_min_char_prob=None,0.5,0.9,0.97

Truth and words as in ``bench_degrade.py`` (a mirrored image expects no note). Notes trusted by the
model's two prints alone (:func:`~dealer_assist.vision.trust.model_two_prints`) are not replayed.
Nothing made from the photos is written inside the repository.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path

os.environ.setdefault("OMP_THREAD_LIMIT", "1")

import cv2  # noqa: E402
import numpy as np  # noqa: E402

REPO = Path(__file__).resolve().parents[1]
LABELS = REPO.parent / "shared" / "real_photos" / "labels.json"
IMAGES = Path("/tmp/dealer-assist-degrade/images")


def _truths(image_id: str, labels: dict) -> list[str]:
    photo, kind = image_id.split("|")[:2]
    if kind == "mirror":
        return []
    return [n["serial_digits"] for n in labels[photo]["notes"]
            if n["n_digits"] == 7 and n["legible"] in ("clear", "hard") and n["serial_digits"].isdigit()]


def _image(rec: dict) -> np.ndarray:
    path = IMAGES / rec["degrade_version"] / f"{rec['id'].replace('|', '_')}.png"
    image = cv2.imread(str(path), cv2.IMREAD_COLOR)
    if image is None:
        raise SystemExit(f"{path} is not there: run bench_degrade.py with the same --seed first")
    return image


def gather(results: Path, out: Path) -> None:
    from dealer_assist.vision.reader import SerialReader

    images = json.loads(results.read_text())["images"]
    hard = [im for im in images if im["score"]["missed"] or any(
        n["status"] != "trusted" and any(sum(c.isdigit() for c in t) >= 7 for _, t in n["reads"]) for n in im["notes"])]
    reader = SerialReader()
    rows, t0 = [], time.time()
    for k, im in enumerate(hard):
        notes = reader.read(_image(im))
        rows.append({"id": im["id"], "degrade_version": im["degrade_version"], "notes": [{
            "serial": n.serial, "status": str(n.status), "reason": n.reason,
            "prints": [{"quad": np.round(p.quad, 1).tolist(), "ambiguous": p.ambiguous, "cut": p.cut,
                        "model_box": p.model_box is not None,
                        "reads": [[r.engine, r.text, [round(x, 4) for x in (r.char_probs or ())]] for r, _ in p.reads],
                        "other": [[r.engine, r.text] for r, _ in p.other_way]} for p in n.prints]} for n in notes]})
        if k % 50 == 0:
            print(f"{k}/{len(hard)} images, {time.time() - t0:.0f} s", file=sys.stderr)
    out.write_text(json.dumps({"from": str(results), "images": rows}, ensure_ascii=False))
    print(f"{len(rows)} images gathered in {time.time() - t0:.0f} s -> {out}")


class _Answers:
    """A cross-check engine answering each print (told by its crop's pixel) with its gathered read."""

    def __init__(self, name: str, table: dict):
        self.name, self.table = name, table

    def recognize(self, crop):
        from dealer_assist.vision.ocr import LineRead

        return self.table.get(int(crop[0, 0, 0]), LineRead("", 0.0, self.name, ()))


def _replay(rows: list[dict], params, labels: dict) -> tuple[Counter, list]:
    from dealer_assist.vision.model import NoteStatus, Print
    from dealer_assist.vision.ocr import LineRead
    from dealer_assist.vision.serials import SerialKind, parse_serial_text
    from dealer_assist.vision.trust import decide, heard

    tally, changed = Counter(), []
    for im in rows:
        truths = _truths(im["id"], labels)
        for note in im["notes"]:
            if note["status"] == "out_of_format":
                continue
            if note["status"] == "trusted" and all(p["model_box"] for p in note["prints"]):
                continue  # the model's two prints alone: not a decision of decide()
            prints, tables = [], defaultdict(dict)
            for k, p in enumerate(note["prints"]):
                reads = []
                for engine, text, probs in p["reads"]:
                    r = LineRead(text, float(np.mean(probs)) if probs else 0.5, engine, tuple(probs) if probs else None)
                    reads.append((r, parse_serial_text(text) if heard(r, params) else []))
                    tables[engine][k + 1] = r
                other = [(LineRead(t, 0.5, e), parse_serial_text(t)) for e, t in p["other"]]
                prints.append(Print(quad=np.float32(p["quad"]), crop=np.full((8, 40, 3), k + 1, np.uint8), reads=reads,
                                    ambiguous=p["ambiguous"], cut=p["cut"], other_way=other))
            if not any(s.kind in (SerialKind.SERIAL7, SerialKind.SERIAL9) for q in prints for _, s in q.serials()):
                continue
            engines = [_Answers(n, tables[n]) for n in ("ppocr-v4", "serial-ctc", "tesseract")]
            now = decide(prints, engines, "rapidocr", params, None)
            was = note["serial"] if note["status"] == "trusted" else None
            new = now.serial if now.status is NoteStatus.TRUSTED else None
            if new is not None:
                tally["right" if new in truths else "WRONG"] += 1
            if was != new:
                changed.append((im["id"], was, new, truths))
    return tally, changed


def _values(spec: str) -> tuple[str, list]:
    field, _, values = spec.partition("=")
    out = []
    for v in values.split(","):
        out.append(None if v == "None" else (float(v) if "." in v or v.isdigit() else v))
    return field, out


def replay(reads: Path, spec: str) -> None:
    from dealer_assist.vision.params import DEFAULT_PARAMS

    labels = {e["file"]: e for e in json.loads(LABELS.read_text(encoding="utf-8"))}
    rows = json.loads(reads.read_text())["images"]
    field, values = _values(spec)
    print(f"{field} (now {getattr(DEFAULT_PARAMS, field)!r}) on {len(rows)} gathered images:")
    print("| value | trusted right | WRONG | gained | lost | changed otherwise |")
    print("|---|---|---|---|---|---|")
    for v in values:
        tally, changed = _replay(rows, dataclasses.replace(DEFAULT_PARAMS, **{field: v}), labels)
        gained = sum(1 for _, w, n, t in changed if w is None and n in t)
        lost = sum(1 for _, w, n, t in changed if w in t and n is None)
        print(f"| {v} | {tally['right']} | {tally['WRONG']} | {gained} | {lost} | {len(changed) - gained - lost} |")
        for image_id, was, new, truths in changed:
            if (new is not None and new not in truths) or (was is not None and new is None):
                print(f"    {image_id}: {was} -> {new} (truth {', '.join(truths) or 'none'})")


def reread(reads: Path, spec: str) -> None:
    from dealer_assist.vision.reader import SerialReader

    labels = {e["file"]: e for e in json.loads(LABELS.read_text(encoding="utf-8"))}
    rows = [im for im in json.loads(reads.read_text())["images"]
            if any(p["ambiguous"] for n in im["notes"] for p in n["prints"])]
    field, values = _values(spec)
    reader = SerialReader()
    print(f"{field}: {len(rows)} gathered images with an ambiguous print, read again")
    print("| value | trusted right | WRONG |")
    print("|---|---|---|")
    for v in values:
        r = reader.with_params(**{field: v})
        right = wrong = 0
        for im in rows:
            truths = _truths(im["id"], labels)
            got = [n.serial for n in r.read(_image(im)) if n.status == "trusted"]
            right += sum(g in truths for g in got)
            wrong += sum(g not in truths for g in got)
        print(f"| {v} | {right} | {wrong} |")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="step", required=True)
    g = sub.add_parser("gather")
    g.add_argument("results", type=Path)
    g.add_argument("out", type=Path)
    for name in ("replay", "reread"):
        s = sub.add_parser(name)
        s.add_argument("reads", type=Path)
        s.add_argument("field_values", metavar="FIELD=V1,V2,...")
    args = ap.parse_args(argv)
    if args.step == "gather":
        gather(args.results, args.out)
    elif args.step == "replay":
        replay(args.reads, args.field_values)
    else:
        reread(args.reads, args.field_values)
    return 0


if __name__ == "__main__":
    sys.exit(main())
