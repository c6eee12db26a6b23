"""``dealer-assist read``: find every note in photos and read their serials.

Wiring only: the reading is :func:`dealer_assist.app.photos.read_photos`.
"""

from __future__ import annotations

import errno
from pathlib import Path
from typing import List, Optional

import typer
from rich.table import Table
from rich.text import Text

from dealer_assist.app.photos import ImageReading, read_photos
from dealer_assist.app.verdicts import is_stray_read
from dealer_assist.cli.app import app
from dealer_assist.cli.options import (USAGE_ERROR, error_text, fail, lang_option, resolve_lang, echo_err,
                                       warn_serial_model)
from dealer_assist.cli.output import json_line, report_console
from dealer_assist.i18n import Lang, number, say, texts
from dealer_assist.render import name_text, safe_text


@app.command("read")
def read_command(
    images: List[Path] = typer.Argument(..., help="Photos to read (JPEG, PNG, WebP, HEIC, ...).", show_default=False,
                                        metavar="PHOTO"),
    as_json: bool = typer.Option(False, "--json", help="Print JSON Lines, one object per image (see "
                                                       "`dealer-assist formats`)."),
    debug_dir: Optional[Path] = typer.Option(
        None, "--debug-dir", metavar="DIR",
        help="Write an annotated copy of each photo here (note quads, serial boxes, reads)."),
    jobs: int = typer.Option(1, "--jobs", "-j", min=1, metavar="N", help="Read this many photos at once (processes)."),
    calibration: Optional[str] = typer.Option(
        None, "--calibration", metavar="NAME|FILE.json",
        help="A profile whose note layout (`calibrate notes`) lets the reader look where the prints are first."),
    lang: Optional[Lang] = lang_option(),
) -> None:
    """Read the serial numbers of every banknote in each photo.

    A serial is printed twice on a 1997-series note; it is reported only when
    the two prints (or, with one print legible, two OCR engines) agree.
    Otherwise the note is listed with serial "?" and the reason.

    Example: dealer-assist read photo1.jpg photo2.jpg --json
    """
    if debug_dir is not None:
        if debug_dir.exists() and not debug_dir.is_dir():  # a photo or /dev/null: not the OS's "file exists"
            fail(safe_text(f"cannot create --debug-dir {debug_dir}: it is a file, not a folder."))
        try:
            debug_dir.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            fail(safe_text(f"cannot create --debug-dir {debug_dir}: {(exc.strerror or str(exc)).lower()}."))
        from dealer_assist.fileio import folder_refusal

        why = folder_refusal(debug_dir)
        if why is not None:  # said before any photo is read, as score's result files
            fail(safe_text(f"cannot write into --debug-dir {debug_dir}: {why}."))
    layout = None
    if calibration is not None:
        from dealer_assist.calibration import CalibrationError, load_profile

        try:
            layout = load_profile(calibration).notes
        except CalibrationError as exc:
            fail(safe_text(str(exc)))
        if layout is None:
            echo_err(safe_text(say(f"Note: the profile {calibration} has no note layout (run `dealer-assist calibrate "
                                   f"notes`); reading without it.", resolve_lang(lang).value)))
    lang = resolve_lang(lang)
    console = report_console()
    warn_serial_model(lang)
    results = read_photos([str(p) for p in images], jobs=jobs, layout=layout)
    failed = 0
    used_names: set[str] = set()
    for r in results:
        if r.error:
            failed += 1
            echo_err(error_text(r.error, lang))
        try:
            if as_json:
                print(json_line(r.to_json()), end="", flush=True)
            elif not r.error:
                console.print(_title(r))
                console.print(_table(r, lang))
        except OSError as exc:  # a full disk or a closed pipe on standard output
            if exc.errno == errno.EPIPE:  # its reader went away (| head): nothing to say
                raise typer.Exit(1)
            fail(f"cannot print the results: {(exc.strerror or str(exc)).lower()}.", code=1)
        if debug_dir is not None and not r.error:
            from dealer_assist.app.debug_copies import DebugCopyError, write_debug_copy

            try:
                path = write_debug_copy(r, debug_dir, taken=used_names)
            except DebugCopyError as exc:  # a full disk, a folder gone read-only: said, and the exit code says so
                failed += 1
                more = len(results) - results.index(r) - 1
                tail = f" The other {more} annotated copies are not written." if more else ""
                echo_err(error_text(safe_text(f"{exc}{tail}"), lang))
                debug_dir = None
            else:
                used_names.add(path.name)
    if failed:  # a path that is no file (missing, a folder) is a wrong command line, as score's: exit code 2
        wrong_path = any(r.error and not Path(r.image).is_file() for r in results)
        raise typer.Exit(USAGE_ERROR if wrong_path else 1)


def _title(r: ImageReading) -> Text:
    """The photo's name, above its table and as wide as the terminal (a table's own title wraps at its width)."""
    return name_text(r.image, style="bold")


_STATUS_KEY = {"trusted": "st_trusted", "unreadable": "st_unreadable", "out_of_format": "st_out_of_format"}


def _table(r: ImageReading, lang: str = "en") -> Table:
    """The notes of one photo; a stray read (one print, at most one 7-digit read) is marked as such, with
    the words ``score`` uses for it (:func:`~dealer_assist.app.verdicts.stray_remark`). The letters column
    shows only when a note's letters were read (the reader reads them only as part of a print's text)."""
    t_ = texts(lang)
    letters = any(n.letters for n in r.notes)
    t = Table()
    t.add_column("#", justify="right")
    t.add_column(t_["serial"])
    if letters:
        t.add_column(t_["letters"])
    t.add_column(t_["confidence"], justify="right")
    t.add_column(t_["status_column"])
    t.add_column(t_["why"])
    if not r.notes:
        t.add_row("-", "-", *(["-"] if letters else []), "-", t_["no_note"], t_["no_print"])
    for i, n in enumerate(r.notes, 1):
        status, why = t_[_STATUS_KEY.get(str(n.status), "st_unreadable")], say(n.reason, lang) if n.reason else ""
        if str(n.status) not in _STATUS_KEY:
            status = str(n.status).replace("_", " ")
        if is_stray_read(n):
            status = t_["st_stray"]
            why = f"{why}; {t_['stray_why']}" if why else t_["stray_why"]
        t.add_row(str(i), n.serial or "?", *([name_text(n.letters or "")] if letters else []), number(n.confidence, lang, 2),
                  status, name_text(why))
    return t
