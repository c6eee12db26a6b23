"""``dealer-assist calibrate notes``: learn the deck's note layout from photos of a sample note.

Wiring only: the job is :func:`dealer_assist.app.note_setup.learn_notes`.
"""

from __future__ import annotations

from pathlib import Path
from typing import List, Optional

import typer

from dealer_assist.app.note_setup import learn_notes
from dealer_assist.calibration.profile import CalibrationError
from dealer_assist.capture import CameraError
from dealer_assist.cli.app import calibrate_app
from dealer_assist.cli.calibration_report import notes_table
from dealer_assist.cli.options import errors_as_fail, lang_option, resolve_lang
from dealer_assist.cli.output import json_line, report_console
from dealer_assist.i18n import Lang, texts
from dealer_assist.render import safe_text
from dealer_assist.vision.images import ImageError


@calibrate_app.command("notes")
def notes_command(
    images: List[Path] = typer.Argument(..., metavar="PHOTO", help="Photos of one sample note of the deck, from above.",
                                        show_default=False),
    output: str = typer.Option(..., "--output", "-o", metavar="NAME|FILE.json",
                               help="Profile to write the notes section to (other sections are kept)."),
    as_json: bool = typer.Option(False, "--json", help="Print the learned layout as JSON."),
    lang: Optional[Lang] = lang_option(),
) -> None:
    """Learn the deck's note layout: aspect, where the serial prints lie, their ink colours.

    Each photo should show one note of the deck, face up, flat, from above.
    The note's outline is found in the photo, the note rectified, and each
    serial print's ink box measured (normalised 0..1 of the note); several
    photos are combined by the median.
    """
    language = resolve_lang(lang).value
    t_ = texts(language)
    err = report_console(stderr=True)
    with errors_as_fail(CalibrationError, CameraError, ImageError):
        result = learn_notes(images, output)
    saved = result.saved.profile
    err.print(safe_text(t_["cal_wrote"].format(path=saved.path)), markup=False, highlight=False)
    if result.saved.made_default:
        err.print(safe_text(t_["cal_default"].format(name=saved.path.stem)), markup=False, highlight=False)
    for p in result.problems:
        err.print(safe_text(t_["cal_skipped"].format(what=p)), markup=False, highlight=False)
    if as_json:
        print(json_line(result.layout.to_json()), end="")
        return
    report_console().print(notes_table(result.layout, t_["cal_notes_title"].format(path=saved.path), language))
