"""``dealer-assist calibrate table`` and ``calibrate check``: the table plane and its zones, and a check of
them on a photo.

Wiring only: the jobs and their sanity checks are :mod:`dealer_assist.app.table_setup`
and :func:`dealer_assist.app.note_setup.check_table_photo`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer
from rich.text import Text

from dealer_assist.app.note_setup import check_table_photo
from dealer_assist.app.profiles import profile_label
from dealer_assist.app.table_setup import TableRequest, calibrate_table
from dealer_assist.calibration.profile import CalibrationError
from dealer_assist.capture import CameraError
from dealer_assist.cli.app import calibrate_app
from dealer_assist.cli.calibration_report import check_table, readability_table, scale_advice, table_zones
from dealer_assist.cli.options import (camera_size_option, capture_mode, errors_as_fail, fourcc_option, lang_option,
                                       resolve_lang)
from dealer_assist.cli.output import json_line, report_console
from dealer_assist.i18n import Lang, say, texts
from dealer_assist.render import safe_text
from dealer_assist.vision.images import ImageError

CALIBRATION_ERRORS = (CalibrationError, CameraError, ImageError)


@calibrate_app.command("table")
def table_command(
    image: Optional[Path] = typer.Option(None, "--image", metavar="FILE", help="A photo from the table camera."),
    device: Optional[int] = typer.Option(None, "--camera", metavar="N", help="Grab one frame from camera N instead."),
    camera_size: Optional[str] = camera_size_option(),
    fourcc: Optional[str] = fourcc_option(),
    corners: Optional[str] = typer.Option(None, "--corners", metavar="'x,y x,y x,y x,y'",
                                          help="The table's corners in the photo, px, clockwise from its top-left."),
    aruco: bool = typer.Option(False, "--aruco", help="Find ArUco markers 0-3 (DICT_4X4_50) at the table's corners."),
    interactive: bool = typer.Option(False, "--interactive", help="Click the four corners in a window (needs a display)."),
    table_mm: Optional[str] = typer.Option(None, "--table-mm", metavar="W,H",
                                           help="Size of the playing surface, mm (with --aruco: measured from the markers if "
                                                "omitted, ~0.5% too large with 60-px markers, ~1.5% with 40-px ones)."),
    marker_mm: float = typer.Option(56.0, "--marker-mm", min=1.0, max=500.0, metavar="MM",
                                    help="Side of each marker's black square, mm."),
    marker_inset_mm: float = typer.Option(45.0, "--marker-inset-mm", min=0.0, max=5000.0, metavar="MM",
                                          help="Distance of each marker's centre from both edges of its corner, mm."),
    seats: Optional[str] = typer.Option(None, "--seats", metavar="NAME,NAME,...",
                                        help="Seat names clockwise from the croupier's left: automatic zones."),
    zones: Optional[Path] = typer.Option(None, "--zones", metavar="FILE.json", help="Zones in table mm (see below)."),
    intrinsics: Optional[str] = typer.Option(None, "--intrinsics", metavar="NAME|FILE.json",
                                             help="Take the camera section from this profile (undistorts the photo)."),
    output: str = typer.Option(..., "--output", "-o", metavar="NAME|FILE.json",
                               help="Profile to write the table section to (camera and notes sections are kept)."),
    lang: Optional[Lang] = lang_option(),
) -> None:
    """The table plane (homography to table mm) and its zones: the board and one per seat.

    The plane comes from --corners, --aruco or --interactive; the zones from
    --seats (board in the centre, seats evenly round the edge, clockwise
    starting left of the croupier's place at the middle of the bottom edge)
    or --zones FILE.json: [{"name": "board", "kind": "board", "polygon_mm":
    [\\[x, y], ...]}, {"name": "alice", "kind": "seat", "polygon_mm": [...]}, ...]
    in table mm (origin at the top-left corner, y towards the croupier).

    Example: dealer-assist calibrate table --image table.jpg --aruco --table-mm 1000,700
    --seats alice,boris,chen,dana --output mytable
    """
    language = resolve_lang(lang).value
    t_ = texts(language)
    err = report_console(stderr=True)
    request = TableRequest(output, image, device, corners, aruco, interactive, table_mm, marker_mm, marker_inset_mm,
                           seats, zones, intrinsics, capture_mode(camera_size, fourcc))
    with errors_as_fail(*CALIBRATION_ERRORS):
        result = calibrate_table(request)
    saved = result.saved.profile
    err.print(safe_text(t_["cal_wrote"].format(path=saved.path)), markup=False, highlight=False)
    if result.saved.made_default:
        err.print(safe_text(t_["cal_default"].format(name=saved.path.stem)), markup=False, highlight=False)
    for note in result.notes:
        err.print(Text.assemble((t_["cal_note"], "yellow"), " ", safe_text(say(note, language))), highlight=False)
    report_console().print(table_zones(result, language))
    for line in scale_advice(saved, result.image_size, language):
        report_console().print(line)
    err.print(t_["cal_check_it"], markup=False, highlight=False)  # the command on a line of its own, never wrapped
    err.print(safe_text(f"  dealer-assist calibrate check PHOTO --calibration {profile_label(saved)} --output "
                        f"check.jpg"), markup=False, highlight=False, soft_wrap=True, crop=False)


@calibrate_app.command("check")
def check_command(
    image: Path = typer.Argument(..., metavar="PHOTO", help="A whole-table photo from the calibrated camera.",
                                 show_default=False),
    calibration: Optional[str] = typer.Option(None, "--calibration", "-c", metavar="NAME|FILE.json",
                                              help="Profile to check (default: the default profile)."),
    output: Path = typer.Option(..., "--output", "-o", metavar="FILE.jpg",
                                help="Annotated image: zones, note quads, reads, the zone of each note."),
    as_json: bool = typer.Option(False, "--json", help="Print the assignment as JSON."),
    lang: Optional[Lang] = lang_option(),
) -> None:
    """Read a whole-table photo through a profile and show where every note falls."""
    with errors_as_fail(*CALIBRATION_ERRORS):
        check = check_table_photo(image, calibration, output)
    if as_json:
        print(json_line({"image": str(image), "calibration": check.profile.name, "annotated": str(output),
                         "notes": check.rows, "zones": check.zones}), end="")
        return
    language = resolve_lang(lang).value
    report_console().print(check_table(check, str(image), str(output), language))
    for part in readability_table(check.profile, check.image_size, language):
        report_console().print(part)
