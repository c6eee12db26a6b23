"""``dealer-assist read``: find every note in photos and read their serials.

Wiring only: the reading is :func:`dealer_assist.app.photos.read_photos`.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import List, Optional

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table
from rich.text import Text

from dealer_assist.app.photos import ImageReading, read_photos
from dealer_assist.cli.app import app
from dealer_assist.cli.options import fail


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
) -> None:
    """Read the serial numbers of every banknote in each photo.

    A serial is printed twice on a 1997-series note; it is reported only when
    the two prints (or, with one print legible, two OCR engines) agree.
    Otherwise the note is listed with serial "?" and the reason.

    Example: dealer-assist read photo1.jpg photo2.jpg --json
    """
    if debug_dir is not None:
        try:
            debug_dir.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            fail(f"cannot create --debug-dir {debug_dir}: {exc.strerror}.")
    layout = None
    if calibration is not None:
        from dealer_assist.calibration import CalibrationError, load_profile

        try:
            layout = load_profile(calibration).notes
        except CalibrationError as exc:
            fail(str(exc))
        if layout is None:
            typer.echo(f"Note: the profile {calibration} has no note layout (run `dealer-assist calibrate notes`); "
                       "reading without it.", err=True)
    console = Console()
    results = read_photos([str(p) for p in images], jobs=jobs, layout=layout)
    failed = 0
    used_names: set[str] = set()
    for r in results:
        if r.error:
            failed += 1
            typer.echo(f"Error: {r.error}", err=True)
        try:
            if as_json:
                print(json.dumps(r.to_json(), ensure_ascii=False), flush=True)
            elif not r.error:
                console.print(_table(r))
        except OSError as exc:  # a full disk or a closed pipe on standard output
            fail(f"cannot print the results: {(exc.strerror or str(exc)).lower()}.", code=1)
        if debug_dir is not None and not r.error:
            from dealer_assist.debug import write_debug_image

            path = write_debug_image(r, debug_dir, taken=used_names)
            used_names.add(path.name)
    if failed:
        raise typer.Exit(1)


def _table(r: ImageReading) -> Table | str:
    t = Table(title=escape(r.image), title_justify="left")
    t.add_column("#", justify="right")
    t.add_column("serial")
    t.add_column("letters")
    t.add_column("confidence", justify="right")
    t.add_column("status")
    t.add_column("why")
    if not r.notes:
        t.add_row("-", "-", "-", "-", "no note", "no serial print found in this photo")
    for i, n in enumerate(r.notes, 1):
        t.add_row(str(i), n.serial or "?", n.letters or "", f"{n.confidence:.2f}",
                  n.status.replace("_", " "), Text(n.reason))
    return t
