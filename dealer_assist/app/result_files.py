"""The result files of ``score``: ``--json`` (every verdict) and ``--csv`` (one row per seat per hand).

Both are checked before any photo is read (:func:`check_outputs`) and
written atomically (:func:`write_results`), so an unusable path is refused
at once and an earlier file is never left half written.
"""

from __future__ import annotations

import io
import os
from pathlib import Path
from typing import Any, Sequence

from dealer_assist.app.hand_folders import BOARD, InputError
from dealer_assist.app.verdicts import HandScore
from dealer_assist.fileio import dumps_json, folder_refusal, is_special_file, write_atomic
from dealer_assist.spreadsheet import csv_writer

__all__ = ["CSV_COLUMNS", "check_output_path", "check_outputs", "check_outputs_apart", "csv_rows", "json_text", "csv_text", "write_results"]

CSV_COLUMNS = ["folder", "status", "position", "zero_joker", "tie_policy", "seat", "images", "serials",
               "confidences", "class", "ranks", "natural", "winner", "reasons"]


def check_output_path(path: Path) -> str | None:
    """Why ``path`` cannot take a result file (one sentence), or ``None`` when it can.

    Checked before any photo is read: a device or a pipe must be writable; otherwise
    the folder must take a new file (see :func:`dealer_assist.fileio.folder_refusal`).
    """
    if is_special_file(path):
        return None if os.access(path, os.W_OK) else f"cannot write {path}: it is not writable."
    real = Path(os.path.realpath(path))
    if real.is_dir():
        return f"cannot write {path}: it is a folder."
    if not real.parent.is_dir():
        return f"cannot write {path}: the folder {real.parent} does not exist."
    why = folder_refusal(real.parent)
    return None if why is None else f"cannot write {path}: the folder {real.parent} does not take new files ({why})."


def check_outputs(json_out: Path | None, csv_out: Path | None) -> None:
    """Refuse result files that cannot be written, before any work.

    Raises:
        InputError: both options name one file, or one of them cannot take a file.
    """
    outs = [o for o in (json_out, csv_out) if o is not None]
    if len(outs) == 2 and os.path.realpath(outs[0]) == os.path.realpath(outs[1]):
        raise InputError(f"--json and --csv both name {outs[0]}; give two different files.")
    for out in outs:
        problem = check_output_path(out)
        if problem:
            raise InputError(problem)


def check_outputs_apart(json_out: Path | None, csv_out: Path | None, hand_folders: Sequence[Path],
                        table_photos: Sequence[Path]) -> None:
    """Refuse a result file that would overwrite or join what ``score`` reads, before any photo is read.

    A result file inside a hand folder would overwrite one of its files (``--json hand_07/hand.json``
    replaces the hand's settings with the verdicts; ``--csv hand_07/alice.jpg`` a photo) or become a
    file of the hand, which the next ``score`` counts as one that is no photo of it (FORMATS.md §4:
    every file of a hand folder counts); one naming a whole-table photo or its settings (``<stem>.json``)
    would overwrite them.

    Raises:
        InputError: one sentence naming the option, the file and where to write it instead.
    """
    folders = {os.path.realpath(f): f for f in hand_folders}
    taken = {os.path.realpath(q): q for p in table_photos for q in (p, p.with_suffix(".json"))}
    for option, out in (("--json", json_out), ("--csv", csv_out)):
        if out is None or is_special_file(out):
            continue
        real = os.path.realpath(out)
        folder = folders.get(os.path.dirname(real))
        if folder is not None:
            what = (f"would overwrite the hand's file {Path(real).name}" if os.path.exists(real)
                    else "would become a file of that hand, which the next score counts as no photo of it")
            raise InputError(f"{option} {out} lies in the hand folder {folder} and {what}; write it outside "
                             f"the hand folders (e.g. {option} {Path(folder).parent / ('verdicts' + option.replace('--', '.'))}).")
        if real in taken:
            raise InputError(f"{option} {out} would overwrite {taken[real]}, which score reads; write it elsewhere.")


def _csv_bool(value: bool | None) -> str:
    return "" if value is None else ("true" if value else "false")


def csv_rows(scores: Sequence[HandScore]) -> list[dict[str, Any]]:
    """One row per seat (the board, then each player) per hand, columns :data:`CSV_COLUMNS`."""
    rows = []
    for sc in scores:
        obj = sc.to_json()
        seats: dict[str, list[dict]] = {BOARD: []}
        for n in sc.notes:
            seats.setdefault(n["seat"], []).append(n)
        if not seats[BOARD]:
            del seats[BOARD]
        for seat, ns in seats.items():
            hand = obj["players"].get(seat, {})
            rows.append({
                "folder": sc.folder, "status": str(sc.status), "position": obj["position"],
                "zero_joker": obj["zero_joker"], "tie_policy": obj["tie_policy"], "seat": seat,
                "images": " ".join(sorted({n["image"] for n in ns})),
                "serials": " ".join(n["serial"] or "?" for n in ns),
                "confidences": " ".join(str(n["confidence"]) for n in ns),
                "class": hand.get("class") or "", "ranks": " ".join(map(str, hand.get("ranks") or [])),
                "natural": _csv_bool(hand.get("natural")), "winner": _csv_bool(seat in obj["winners"]),
                "reasons": " | ".join(sc.reasons),
            })
    return rows


def json_text(scores: Sequence[HandScore]) -> str:
    """The ``--json`` file: a list of :meth:`HandScore.to_json` objects."""
    return dumps_json([s.to_json() for s in scores], indent=1) + "\n"


def csv_text(scores: Sequence[HandScore]) -> str:
    """The ``--csv`` file: :data:`CSV_COLUMNS`, one row per seat per hand; a cell that a spreadsheet would
    run as a formula (a folder named ``=HYPERLINK(…)``) is written as text (:mod:`dealer_assist.spreadsheet`)."""
    buf = io.StringIO()
    w = csv_writer(buf, lineterminator="\r\n")
    w.writerow(CSV_COLUMNS)
    w.writerows([row[column] for column in CSV_COLUMNS] for row in csv_rows(scores))
    return buf.getvalue()


def write_results(scores: Sequence[HandScore], json_out: Path | None, csv_out: Path | None) -> None:
    """Write the files asked for, each atomically.

    Raises:
        InputError: a file cannot be written (the sentence names it).
    """
    texts = []
    if json_out is not None:
        texts.append((json_out, json_text(scores)))
    if csv_out is not None:
        texts.append((csv_out, csv_text(scores)))
    for out, text in texts:
        try:
            write_atomic(out, text)
        except OSError as exc:
            raise InputError(f"cannot write {out}: {(exc.strerror or str(exc)).lower()}.") from None
