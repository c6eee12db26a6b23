"""``dealer-assist calibrate camera`` and ``calibrate pattern``: the camera's lens from chessboard views.

Wiring only: the job is :mod:`dealer_assist.app.camera_setup` (and
:func:`dealer_assist.app.note_setup.write_pattern`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from dealer_assist.app.camera_setup import calibrate_camera
from dealer_assist.app.note_setup import write_pattern
from dealer_assist.calibration.profile import CalibrationError
from dealer_assist.capture import CameraError
from dealer_assist.cli.app import calibrate_app
from dealer_assist.cli.calibration_report import camera_table
from dealer_assist.cli.options import (camera_size_option, capture_mode, errors_as_fail, fourcc_option, lang_option,
                                       resolve_lang)
from dealer_assist.cli.output import json_line, report_console
from dealer_assist.i18n import Lang, say, texts
from dealer_assist.render import safe_text
from dealer_assist.vision.images import ImageError

CALIBRATION_ERRORS = (CalibrationError, CameraError, ImageError)


@calibrate_app.command("camera")
def camera_command(
    images: Optional[str] = typer.Option(None, "--images", metavar="GLOB",
                                         help="Photos of the chessboard, e.g. 'shots/*.jpg' (quote it)."),
    device: Optional[int] = typer.Option(None, "--camera", metavar="N",
                                         help="Capture views live from camera N (needs a display)."),
    camera_size: Optional[str] = camera_size_option(),
    fourcc: Optional[str] = fourcc_option(),
    pattern: str = typer.Option("9x6", "--pattern", metavar="COLSxROWS", help="Inner corners of the board."),
    square_mm: float = typer.Option(25.0, "--square-mm", min=0.01, max=1000.0, metavar="MM",
                                   help="Side of one printed square, mm."),
    output: str = typer.Option(..., "--output", "-o", metavar="NAME|FILE.json",
                               help="Profile to write the camera section to (other sections are kept)."),
    as_json: bool = typer.Option(False, "--json", help="Print the result as JSON on standard output."),
    min_views: int = typer.Option(10, "--min-views", min=3, metavar="N", help="Views to aim for in live capture."),
    lang: Optional[Lang] = lang_option(),
) -> None:
    """Camera intrinsics and lens distortion from chessboard views.

    Photograph a flat chessboard (print one with `dealer-assist calibrate
    pattern`) 10-20 times at different angles, filling every part of the
    frame, then:

    dealer-assist calibrate camera --images 'shots/*.jpg'
    --pattern 9x6 --square-mm 25 --output mytable
    """
    language = resolve_lang(lang).value
    t_ = texts(language)
    err = report_console(stderr=True)
    with errors_as_fail(*CALIBRATION_ERRORS):
        result = calibrate_camera(output, pattern, square_mm, images=images, device=device, min_views=min_views,
                                  mode=capture_mode(camera_size, fourcc))
    saved = result.saved.profile
    err.print(safe_text(t_["cal_wrote"].format(path=saved.path)), markup=False, highlight=False)
    if result.saved.made_default:
        err.print(safe_text(t_["cal_default"].format(name=saved.path.stem)), markup=False, highlight=False)
    if result.dropped_table:
        err.print("[yellow]note:[/] the profile's table section was made with another camera model and was removed: "
                  "run `dealer-assist calibrate table` again.")
    if result.coverage < 0.5:
        err.print(f"[yellow]note:[/] the views cover {result.coverage:.0%} of the frame; the edges matter most "
                  f"for distortion.")
    for f, why in result.unusable.items():
        err.print(safe_text(f"skipped {f}: {why}"), markup=False, highlight=False)
    if as_json:
        cam = result.camera
        print(json_line({"camera_matrix": cam.camera_matrix.tolist(), "dist_coeffs": cam.dist_coeffs.tolist(),
                         "rms": cam.rms, "image_size": list(cam.image_size), "views_used": cam.views_used,
                         "coverage": round(result.coverage, 3), "unusable": result.unusable,
                         "output": str(saved.path)}), end="")
        return
    report_console().print(camera_table(result, language))


@calibrate_app.command("pattern")
def pattern_command(
    output: Path = typer.Option(..., "--output", "-o", metavar="FILE.png", help="Where to write the board image."),
    pattern: str = typer.Option("9x6", "--pattern", metavar="COLSxROWS", help="Inner corners of the board."),
    square_px: int = typer.Option(100, "--square-px", min=10, metavar="PX",
                                  help="Side of one square in the image, px."),
    dpi: int = typer.Option(300, "--dpi", min=50, max=2400, metavar="DPI",
                            help="Print resolution written into the file (PNG, JPEG, TIFF, BMP): at 100 % scale a "
                                 "square prints --square-px / DPI inches wide.", show_default=True),
    lang: Optional[Lang] = lang_option(),
) -> None:
    """Write a chessboard to print for `calibrate camera` (measure the printed squares for --square-mm)."""
    from dealer_assist.app.note_setup import DPI_SUFFIXES, printed_square_mm

    with errors_as_fail(*CALIBRATION_ERRORS):
        pat = write_pattern(output, pattern, square_px, dpi)
    squares = (pat[0] + 1, pat[1] + 1)
    line = f"wrote {output}: {squares[0]} x {squares[1]} squares, {pat[0]}x{pat[1]} inner corners."
    if (output.suffix.lower() or ".png") in DPI_SUFFIXES:
        mm = printed_square_mm(square_px, dpi)
        line += (f" Printed at 100 % scale ({dpi} dpi): squares of {mm:.1f} mm, the board "
                 f"{(pat[0] + 3) * mm:.0f} x {(pat[1] + 3) * mm:.0f} mm with its margin; measure a printed square "
                 f"for --square-mm.")
    else:
        line += " This file type has no print size: measure a printed square for --square-mm."
    report_console().print(safe_text(say(line, resolve_lang(lang).value)), markup=False, highlight=False)
