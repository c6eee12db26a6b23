"""``dealer-assist calibrate``: camera, table zones and note layout, written as named profiles.

Wiring only: the geometry lives in :mod:`dealer_assist.calibration`, windows
and cameras in :mod:`dealer_assist.calibration.interactive` (used only when
:func:`dealer_assist.display.has_display` says a window can open).
"""

from __future__ import annotations

import glob
import json
import os
import re
from collections import Counter
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path
from typing import Iterator, List, Optional

import cv2
import numpy as np
import typer
from rich.console import Console
from rich.table import Table

from dealer_assist.calibration.profile import (
    DEFAULT_NAME,
    CalibrationError,
    Profile,
    TablePlane,
    calibration_dir,
    list_profiles,
    load_profile,
    profile_path,
    save_profile,
    set_default,
)
from dealer_assist.calibration.profile import _pointer_target
from dealer_assist.camera_util import CameraError, check_camera_index
from dealer_assist.cli.app import app
from dealer_assist.cli.output import output_errors
from dealer_assist.display import NO_DISPLAY_HINT, has_display
from dealer_assist.fileio import write_atomic
from dealer_assist.vision.images import ImageError, load_image

calibrate_app = typer.Typer(
    name="calibrate",
    help=(
        "Calibrate a table set-up once: the camera's lens (chessboard), the table plane with the board "
        "and seat zones (corners or ArUco markers), the deck's note layout. Profiles are JSON files in "
        "calibration/ (NAME) or anywhere (PATH.json)."
    ),
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
app.add_typer(calibrate_app, name="calibrate")

#: Photos are loaded at full resolution up to this side (calibration wants every pixel).
FULL_RES_SIDE = 8000
#: Image files the commands write (annotated photos, printable chessboards), by extension.
IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".webp", ".bmp", ".tif", ".tiff")
#: Largest side of a printable chessboard, px (10000 px is 85 cm at 300 dpi; 100 MB in memory).
MAX_PATTERN_SIDE_PX = 10000


def _fail(message: str, code: int = 2) -> None:
    typer.echo(f"Error: {message}", err=True)
    raise typer.Exit(code)


@contextmanager
def _plain_errors() -> Iterator[None]:
    """Every calibration, camera or image error becomes one sentence on stderr and exit code 2."""
    try:
        yield
    except (CalibrationError, CameraError, ImageError) as exc:
        _fail(str(exc))


def _load_photo(path: Path) -> np.ndarray:
    image, _ = load_image(path, max_side=FULL_RES_SIDE)
    return image


def _target(output: str) -> Profile:
    """The profile ``--output`` names, as it is now (empty when the file does not exist yet)."""
    path = profile_path(output, follow_default=False)
    if not path.exists():
        return Profile(path.stem, path)
    pointed = _pointer_target(path) if path.is_file() else None
    if pointed is not None:
        raise CalibrationError(f"{path} points to the profile '{pointed}': write to --output {pointed}, or to a new "
                               f"name and make it the default with `dealer-assist calibrate use NAME`.")
    try:
        return load_profile(path)
    except CalibrationError as exc:
        raise CalibrationError(f"{exc} Refusing to overwrite it: fix or remove it, or choose another --output.") from None


def _save(profile: Profile, output: str, err: Console) -> Profile:
    """Write the profile; the first profile of the calibration folder also becomes the default."""
    saved = save_profile(profile, output)
    err.print(f"wrote {saved.path}")
    in_folder = saved.path.parent.resolve() == calibration_dir().resolve()
    if in_folder and saved.path.stem != DEFAULT_NAME and not (calibration_dir() / f"{DEFAULT_NAME}.json").exists():
        set_default(saved.path.stem)
        err.print(f"'{saved.path.stem}' is now the default profile")
    return saved


def _parse_pair(text: str, option: str) -> tuple[float, float]:
    m = re.fullmatch(r"\s*([-+]?\d+(?:\.\d*)?)\s*[,x×]\s*([-+]?\d+(?:\.\d*)?)\s*", text or "")
    if not m:
        raise CalibrationError(f"{option} must be two numbers as W,H (e.g. 1000,700), not {text!r}.")
    a, b = float(m.group(1)), float(m.group(2))
    if a <= 0 or b <= 0:
        raise CalibrationError(f"{option} must be two positive numbers, not {text!r}.")
    return a, b


def parse_corners(text: str) -> np.ndarray:
    """``"x,y x,y x,y x,y"`` -> float64 ``(4, 2)``; :class:`CalibrationError` otherwise."""
    pairs = re.findall(r"([-+]?\d+(?:\.\d*)?)\s*,\s*([-+]?\d+(?:\.\d*)?)", text or "")
    rest = re.sub(r"[-+]?\d+(?:\.\d*)?\s*,\s*[-+]?\d+(?:\.\d*)?", "", text or "").strip(" ;")
    if len(pairs) != 4 or rest:
        raise CalibrationError(
            "--corners needs four image points as 'x,y x,y x,y x,y' (px, clockwise from the table's top-left).")
    return np.array(pairs, np.float64)


# ----------------------------------------------------------------------------- camera


@calibrate_app.command("camera")
def camera_command(
    images: Optional[str] = typer.Option(None, "--images", metavar="GLOB",
                                         help="Photos of the chessboard, e.g. 'shots/*.jpg' (quote it)."),
    device: Optional[int] = typer.Option(None, "--camera", metavar="N",
                                         help="Capture views live from camera N (needs a display)."),
    pattern: str = typer.Option("9x6", "--pattern", metavar="COLSxROWS", help="Inner corners of the board."),
    square_mm: float = typer.Option(25.0, "--square-mm", min=0.01, help="Side of one square, mm."),
    output: str = typer.Option(..., "--output", "-o", metavar="NAME|FILE.json",
                               help="Profile to write the camera section to (other sections are kept)."),
    as_json: bool = typer.Option(False, "--json", help="Print the result as JSON on standard output."),
    min_views: int = typer.Option(10, "--min-views", min=3, help="Views to aim for in live capture."),
) -> None:
    """Camera intrinsics and lens distortion from chessboard views.

    Photograph a flat chessboard (print one with `dealer-assist calibrate
    pattern`) 10-20 times at different angles, filling every part of the
    frame, then: dealer-assist calibrate camera --images 'shots/*.jpg'
    --pattern 9x6 --square-mm 25 --output mytable
    """
    from dealer_assist.calibration.camera import MIN_VIEWS, calibrate_views, coverage, find_chessboard, parse_pattern

    err = Console(stderr=True)
    with _plain_errors():
        pat = parse_pattern(pattern)
        if (images is None) == (device is None):
            raise CalibrationError("Give either --images GLOB (photos of the chessboard) or --camera N (live).")
        target = _target(output)
        unusable: dict[str, str] = {}
        if device is not None:
            check_camera_index(device)
            if not has_display():
                raise CalibrationError(f"{NO_DISPLAY_HINT}: photograph the chessboard and give --images GLOB instead.")
            from dealer_assist.calibration.interactive import capture_chessboard_views, open_camera

            state = capture_chessboard_views(open_camera(device), pat, min_views)
            if state is None:
                raise CalibrationError("Capture cancelled; nothing was written.")
            views, size = state.views, state.image_size
        else:
            files = sorted(glob.glob(os.path.expanduser(images), recursive=True))
            files = [f for f in files if Path(f).is_file()]
            if not files:
                raise CalibrationError(f"--images {images!r} matches no file.")
            found: dict[str, tuple[np.ndarray, tuple[int, int]]] = {}
            for f in files:
                try:
                    img = _load_photo(Path(f))
                except ImageError as exc:
                    unusable[f] = str(exc).split(": ", 1)[-1].rstrip(".")
                    continue
                corners = find_chessboard(img, pat)
                if corners is None:
                    unusable[f] = f"no whole {pat[0]}x{pat[1]} chessboard found"
                else:
                    found[f] = (corners, (img.shape[1], img.shape[0]))
            sizes = Counter(s for _, s in found.values())
            size = sizes.most_common(1)[0][0] if sizes else None
            for f, (_, s) in list(found.items()):
                if s != size:
                    unusable[f] = f"{s[0]}x{s[1]} px, the others are {size[0]}x{size[1]}"
                    del found[f]
            views = [c for c, _ in found.values()]
            if len(views) < MIN_VIEWS:
                listed = "; ".join(f"{Path(f).name} ({why})" for f, why in unusable.items())
                raise CalibrationError(
                    f"Only {len(views)} of {len(files)} photo(s) can be used (at least {MIN_VIEWS} are needed)"
                    + (f"; unusable: {listed}." if listed else "; take more photos of the chessboard."))
        fit = calibrate_views(views, size, pat, square_mm)
        cam = fit.camera
        dropped = target.table is not None
        profile = replace(target, camera=cam, table=None)
        saved = _save(profile, output, err)
    if dropped:
        err.print("[yellow]note:[/] the profile's table section was made with another camera model and was removed: "
                  "run `dealer-assist calibrate table` again.")
    cov = float(coverage(views, size).mean())
    if cov < 0.5:
        err.print(f"[yellow]note:[/] the views cover {cov:.0%} of the frame; the edges matter most for distortion.")
    for f, why in unusable.items():
        err.print(f"skipped {f}: {why}")
    if as_json:
        obj = {"camera_matrix": cam.camera_matrix.tolist(), "dist_coeffs": cam.dist_coeffs.tolist(),
               "rms": cam.rms, "image_size": list(cam.image_size), "views_used": cam.views_used,
               "coverage": round(cov, 3), "unusable": unusable, "output": str(saved.path)}
        print(json.dumps(obj))
        return
    k = cam.camera_matrix
    t = Table(title=f"camera calibration → {saved.path}", title_justify="left", show_header=False)
    t.add_row("views used", f"{cam.views_used} of {cam.views_used + len(unusable)}")
    t.add_row("RMS re-projection error", f"{cam.rms:.3f} px")
    t.add_row("focal length fx, fy", f"{k[0, 0]:.1f}, {k[1, 1]:.1f} px")
    t.add_row("principal point cx, cy", f"{k[0, 2]:.1f}, {k[1, 2]:.1f} px")
    t.add_row("distortion k1 k2 p1 p2 k3", " ".join(f"{v:+.4f}" for v in cam.dist_coeffs[:5]))
    t.add_row("image size", f"{cam.image_size[0]} x {cam.image_size[1]} px")
    t.add_row("frame coverage", f"{cov:.0%}")
    Console().print(t)


# ----------------------------------------------------------------------------- table


def _markers_fit(image: np.ndarray, camera, table_size, marker_mm: float, inset_mm: float):
    from dealer_assist.calibration.table import MarkerLayout, detect_markers, homography_from_markers

    markers = detect_markers(image)
    if camera is not None:
        markers = {k: camera.undistort_points(v) for k, v in markers.items()}
    if not markers:
        raise CalibrationError("No ArUco marker (DICT_4X4_50) was found in the photo.")
    return homography_from_markers(markers, table_size, MarkerLayout(marker_mm, inset_mm))


@calibrate_app.command("table")
def table_command(
    image: Optional[Path] = typer.Option(None, "--image", metavar="FILE", help="A photo from the table camera."),
    device: Optional[int] = typer.Option(None, "--camera", metavar="N", help="Grab one frame from camera N instead."),
    corners: Optional[str] = typer.Option(None, "--corners", metavar="'x,y x,y x,y x,y'",
                                          help="The table's corners in the photo, px, clockwise from its top-left."),
    aruco: bool = typer.Option(False, "--aruco", help="Find ArUco markers 0-3 (DICT_4X4_50) at the table's corners."),
    interactive: bool = typer.Option(False, "--interactive", help="Click the four corners in a window (needs a display)."),
    table_mm: Optional[str] = typer.Option(None, "--table-mm", metavar="W,H",
                                           help="Size of the playing surface, mm (with --aruco: measured from the markers if "
                                                "omitted, ~0.5% too large with 60-px markers, ~1.5% with 40-px ones)."),
    marker_mm: float = typer.Option(56.0, "--marker-mm", min=1.0, max=500.0,
                                    help="Side of each marker's black square, mm."),
    marker_inset_mm: float = typer.Option(45.0, "--marker-inset-mm", min=0.0,
                                          help="Distance of each marker's centre from both edges of its corner, mm."),
    seats: Optional[str] = typer.Option(None, "--seats", metavar="NAME,NAME,...",
                                        help="Seat names clockwise from the croupier's left: automatic zones."),
    zones: Optional[Path] = typer.Option(None, "--zones", metavar="FILE.json", help="Zones in table mm (see below)."),
    intrinsics: Optional[str] = typer.Option(None, "--intrinsics", metavar="NAME|FILE.json",
                                             help="Take the camera section from this profile (undistorts the photo)."),
    output: str = typer.Option(..., "--output", "-o", metavar="NAME|FILE.json",
                               help="Profile to write the table section to (camera and notes sections are kept)."),
) -> None:
    """The table plane (homography to table mm) and its zones: the board and one per seat.

    The plane comes from --corners, --aruco or --interactive; the zones from
    --seats (board in the centre, seats evenly round the edge, clockwise
    starting left of the croupier's place at the middle of the bottom edge)
    or --zones FILE.json: [{"name": "board", "kind": "board", "polygon_mm":
    [[x, y], ...]}, {"name": "alice", "kind": "seat", "polygon_mm": [...]}, ...]
    in table mm (origin at the top-left corner, y towards the croupier).

    Example: dealer-assist calibrate table --image table.jpg --aruco --table-mm 1000,700
    --seats alice,boris,chen,dana --output mytable
    """
    from dealer_assist.calibration.table import (
        MIN_SHARE_IN_PHOTO,
        auto_zones,
        homography_from_corners,
        share_in_photo,
        zones_from_json,
    )

    err = Console(stderr=True)
    with _plain_errors():
        if (image is None) == (device is None):
            raise CalibrationError("Give either --image FILE or --camera N (one frame is grabbed).")
        if device is not None:
            check_camera_index(device)  # OpenCV segfaults on a negative index
        if sum([corners is not None, aruco, interactive]) != 1:
            raise CalibrationError("Give exactly one of --corners, --aruco or --interactive.")
        if (seats is None) == (zones is None):
            raise CalibrationError("Give either --seats NAME,NAME,... (automatic zones) or --zones FILE.json.")
        target = _target(output)
        camera = target.camera
        if intrinsics is not None:
            camera = load_profile(intrinsics).camera
            if camera is None:
                raise CalibrationError(f"The profile {intrinsics!r} has no camera section.")
        if image is not None:
            photo = _load_photo(image)
            source = str(image)
        else:
            from dealer_assist.calibration.interactive import grab_frame

            photo = grab_frame(device)
            source = f"camera {device}"
        size = (photo.shape[1], photo.shape[0])
        if camera is not None and tuple(camera.image_size) != size:
            raise CalibrationError(
                f"The photo is {size[0]}x{size[1]} px but the camera section was calibrated at "
                f"{camera.image_size[0]}x{camera.image_size[1]} px: use frames of one size.")
        size_mm = _parse_pair(table_mm, "--table-mm") if table_mm is not None else None
        method = "aruco" if aruco else "corners"
        if interactive and not has_display():
            # refused, not replaced by another method: the profile written must be the one asked for
            from dealer_assist.calibration.table import detect_markers

            if len(detect_markers(photo)) >= 3:
                raise CalibrationError(f"{NO_DISPLAY_HINT}, and nothing was written: the photo shows the corner "
                                       f"markers, so use --aruco instead of --interactive (or give --corners).")
            raise CalibrationError(
                f"{NO_DISPLAY_HINT}, and nothing was written: give the corners with --corners 'x,y x,y x,y x,y' "
                f"or use --aruco.")
        if aruco:
            fit = _markers_fit(photo, camera, size_mm, marker_mm, marker_inset_mm)
        else:
            if size_mm is None:
                raise CalibrationError("--table-mm W,H is needed with --corners or --interactive.")
            if interactive:
                from dealer_assist.calibration.interactive import click_corners

                pts = click_corners(photo)
                if pts is None:
                    raise CalibrationError("Corner clicking cancelled; nothing was written.")
            else:
                pts = parse_corners(corners)
            if camera is not None:
                pts = camera.undistort_points(pts)
            fit = homography_from_corners(pts, size_mm)
        if max(fit.table_size_mm) > MAX_TABLE_MM:
            check = "--table-mm, --marker-mm and --marker-inset-mm" if aruco else "--table-mm"
            raise CalibrationError(
                f"The fit gives a table of {fit.table_size_mm[0] / 1000:.1f} x {fit.table_size_mm[1] / 1000:.1f} m, "
                f"so nothing was written: check {check} (millimetres).")
        share = share_in_photo(fit.homography, fit.table_size_mm, size)
        if share < MIN_SHARE_IN_PHOTO:
            check = ("--table-mm, --marker-mm and --marker-inset-mm" if aruco
                     else "the corners (image px, clockwise from the table's top-left) and --table-mm")
            raise CalibrationError(
                f"The fitted plane puts only {share:.0%} of the {fit.table_size_mm[0]:g} x {fit.table_size_mm[1]:g} mm "
                f"table inside the {size[0]} x {size[1]} px photo, so nothing was written: check {check}.")
        if seats is not None:
            names = [s.strip() for s in seats.split(",") if s.strip()]
            zone_list = auto_zones(names, fit.table_size_mm)
        else:
            try:
                obj = json.loads(zones.read_text(encoding="utf-8"))
            except OSError as exc:
                raise CalibrationError(f"{zones} cannot be read ({exc.strerror or exc}).") from None
            except json.JSONDecodeError as exc:
                raise CalibrationError(f"{zones} is not valid JSON ({exc.msg}: line {exc.lineno}, "
                                       f"column {exc.colno}).") from None
            except UnicodeDecodeError:
                raise CalibrationError(f"{zones} is not UTF-8 text, so it holds no zones.") from None
            except (ValueError, RecursionError):
                raise CalibrationError(f"{zones} holds JSON this program cannot read (nested too deeply, or a "
                                       f"number of over 4300 digits).") from None
            zone_list = zones_from_json(obj, str(zones))
        extra = {"source": {"method": method, "image": source, "points": fit.points,
                            "rms_px": round(fit.rms_px, 3),
                            "measured_size_mm": [round(v, 1) for v in fit.measured_size_mm]
                            if fit.measured_size_mm else None}}
        plane = TablePlane(size, fit.homography, fit.table_size_mm, tuple(zone_list), extra)
        profile = replace(target, camera=camera, table=plane)
        saved = _save(profile, output, err)
    _table_report(saved, photo, fit, err)


#: Larger tables are taken for a unit mistake (a size in cm or m given as mm, a wrong marker size).
MAX_TABLE_MM = 10_000.0
#: A zone centred further than this outside the table is said to be outside.
ZONE_SLACK_MM = 50.0


def _write_image(output: Path, image: np.ndarray, suffix: str, what: str) -> None:
    """Encode ``image`` (``uint8`` BGR) as ``suffix`` and write it to ``output`` atomically.

    Raises:
        CalibrationError: OpenCV cannot encode that type, or the file cannot be written.
    """
    ok, buf = cv2.imencode(suffix, image)
    if not ok:
        raise CalibrationError(f"Cannot encode {what} as {suffix}.")
    try:
        write_atomic(output, buf.tobytes())
    except OSError as exc:
        raise CalibrationError(f"Cannot write {output} ({exc.strerror or exc}).") from None


def _table_report(profile: Profile, photo: np.ndarray, fit, err: Console) -> None:
    table = profile.table
    size = (photo.shape[1], photo.shape[0])
    w, h = table.table_size_mm
    if fit.measured_size_mm is not None:
        mw, mh = fit.measured_size_mm
        if abs(mw / w - 1) > 0.02 or abs(mh / h - 1) > 0.02:
            err.print(f"[yellow]note:[/] the markers measure the table as {mw:.0f} x {mh:.0f} mm, not {w:g} x {h:g} "
                      f"mm: check --table-mm and the markers' placement.")
    for z in table.zones:
        cx, cy = z.centre_mm
        if not (-ZONE_SLACK_MM <= cx <= w + ZONE_SLACK_MM and -ZONE_SLACK_MM <= cy <= h + ZONE_SLACK_MM):
            err.print(f"[yellow]note:[/] the zone {z.name} is centred at ({cx:.0f}, {cy:.0f}) mm, outside the "
                      f"{w:g} x {h:g} mm table: notes there are not seen; check the zones.", highlight=False)
    t = Table(title=f"table calibration → {profile.path}", title_justify="left")
    t.add_column("zone")
    t.add_column("kind")
    t.add_column("centre, mm", justify="right")
    t.add_column("in the photo", justify="right")
    for z in table.zones:
        px = profile.to_image_px(z.polygon_mm, size)
        inside = ((px[:, 0] >= 0) & (px[:, 0] < size[0]) & (px[:, 1] >= 0) & (px[:, 1] < size[1])).mean()
        c = z.centre_mm
        t.add_row(z.name, z.kind, f"{c[0]:.0f}, {c[1]:.0f}", "yes" if inside == 1 else f"[yellow]{inside:.0%} of corners[/]")
    t.caption = (f"{fit.points} points, RMS {fit.rms_px:.2f} px, table {w:g} x {h:g} mm"
                 + (f" (markers measure {fit.measured_size_mm[0]:.0f} x {fit.measured_size_mm[1]:.0f})"
                    if fit.measured_size_mm else ""))
    Console().print(t)
    name = profile.path.stem if profile.path.parent.resolve() == calibration_dir().resolve() else str(profile.path)
    err.print(f"check it: dealer-assist calibrate check PHOTO --calibration {name} --output check.jpg")


# ----------------------------------------------------------------------------- notes


@calibrate_app.command("notes")
def notes_command(
    images: List[Path] = typer.Argument(..., help="Photos of one sample note of the deck, from above.",
                                        show_default=False),
    output: str = typer.Option(..., "--output", "-o", metavar="NAME|FILE.json",
                               help="Profile to write the notes section to (other sections are kept)."),
    as_json: bool = typer.Option(False, "--json", help="Print the learned layout as JSON."),
) -> None:
    """Learn the deck's note layout: aspect, where the serial prints lie, their ink colours.

    Each photo should show one note of the deck, face up, flat, from above.
    The note's outline is found in the photo, the note rectified, and each
    serial print's ink box measured (normalised 0..1 of the note); several
    photos are combined by the median.
    """
    from dealer_assist.calibration.notes import learn_layout, measure_note
    from dealer_assist.vision.ocr import EngineError
    from dealer_assist.vision.reader import SerialReader

    err = Console(stderr=True)
    with _plain_errors():
        target = _target(output)
        reader = SerialReader()
        samples, problems = [], []
        for path in images:
            try:
                photo = _load_photo(path)
                notes = [n for n in reader.read(photo) if n.serial is not None and len(n.prints) >= 2]
            except ImageError as exc:
                problems.append(str(exc).rstrip("."))
                continue
            except EngineError as exc:
                raise CalibrationError(str(exc)) from None
            if not notes:
                problems.append(f"{path.name}: no note whose two serial prints read alike")
                continue
            if len(notes) > 1:
                problems.append(f"{path.name}: {len(notes)} notes; only the first is used")
            s = measure_note(photo, notes[0], path.name)
            if s.problem:
                problems.append(f"{path.name}: {s.problem}")
            else:
                samples.append(s)
        if not samples:
            raise CalibrationError(f"No photo gave a usable note: {'; '.join(problems)}.")
        try:
            layout = learn_layout(samples)
        except ValueError as exc:
            raise CalibrationError(f"The photos do not agree on a layout: {exc}.") from None
        saved = _save(replace(target, notes=layout), output, err)
    for p in problems:
        err.print(f"skipped {p}")
    if as_json:
        print(json.dumps(layout.to_json(), ensure_ascii=False))
        return
    Console().print(_notes_table(layout, f"note layout → {saved.path}"))


def _notes_table(layout, title: str) -> Table:
    t = Table(title=title, title_justify="left")
    t.add_column("print")
    t.add_column("box x0 y0 x1 y1 (0..1)")
    t.add_column("ink colour")
    t.add_column("BGR", justify="right")
    for p in layout.prints:
        t.add_row(p.name, " ".join(f"{v:.3f}" for v in p.box), p.colour or "",
                  " ".join(f"{v:.0f}" for v in p.colour_bgr) if p.colour_bgr else "")
    spread = layout.extra.get("box_spread", {})
    t.caption = (f"aspect {layout.aspect:.3f}, {layout.samples} photo(s)"
                 + (f", largest box spread {max(spread.values()):.3f}" if spread else ""))
    return t


# ----------------------------------------------------------------------------- show, list, use


@calibrate_app.command("show")
def show_command(
    calibration: Optional[str] = typer.Option(None, "--calibration", "-c", metavar="NAME|FILE.json",
                                              help="Profile to show (default: the default profile)."),
    as_json: bool = typer.Option(False, "--json", help="Print the profile's JSON."),
) -> None:
    """Print a calibration profile: camera, table and zones, note layout."""
    with _plain_errors():
        profile = load_profile(calibration)
    with output_errors():
        _show_profile(profile, as_json)


def _show_profile(profile: Profile, as_json: bool) -> None:
    if as_json:
        print(json.dumps(profile.to_json(), ensure_ascii=False, indent=1), flush=True)
        return
    console = Console()
    console.print(f"[bold]{profile.name}[/]  {profile.path}")
    if profile.camera is not None:
        cam = profile.camera
        k = cam.camera_matrix
        t = Table(title="camera", title_justify="left", show_header=False)
        t.add_row("image size", f"{cam.image_size[0]} x {cam.image_size[1]} px")
        t.add_row("fx, fy", f"{k[0, 0]:.1f}, {k[1, 1]:.1f} px")
        t.add_row("cx, cy", f"{k[0, 2]:.1f}, {k[1, 2]:.1f} px")
        t.add_row("distortion", " ".join(f"{v:+.4f}" for v in cam.dist_coeffs))
        t.add_row("RMS", f"{cam.rms:.3f} px" if cam.rms is not None else "?")
        t.add_row("views", str(cam.views_used or "?"))
        console.print(t)
    else:
        console.print("camera: none (the photo is taken as free of lens distortion)")
    if profile.table is not None:
        tp = profile.table
        corners = profile.to_image_px(np.array([[0, 0], [tp.table_size_mm[0], 0], list(tp.table_size_mm),
                                                [0, tp.table_size_mm[1]]], np.float64))
        t = Table(title=f"table {tp.table_size_mm[0]:g} x {tp.table_size_mm[1]:g} mm on "
                        f"{tp.image_size[0]} x {tp.image_size[1]} px photos", title_justify="left")
        t.add_column("zone")
        t.add_column("kind")
        t.add_column("polygon, mm")
        for z in tp.zones:
            t.add_row(z.name, z.kind, " ".join(f"{x:.0f},{y:.0f}" for x, y in z.polygon_mm))
        src = tp.extra.get("source") or {}
        t.caption = ("corners in the photo: " + " ".join(f"{x:.0f},{y:.0f}" for x, y in corners)
                     + (f"; from {src.get('method')} on {src.get('image')}, RMS {src.get('rms_px')} px" if src else ""))
        console.print(t)
        console.print("seats clockwise: " + ", ".join(tp.seats))
    else:
        console.print("table: none (run `dealer-assist calibrate table`)")
    if profile.notes is not None:
        console.print(_notes_table(profile.notes, "note layout"))
    else:
        console.print("notes: none (run `dealer-assist calibrate notes`)")


def _unusable_reason(exc: CalibrationError, path: Path) -> str:
    """A load error as a reason after the profile's name: without the path it starts with, no final stop."""
    text = str(exc).rstrip(".")
    if text.startswith(f"{path} "):
        text = "it " + text[len(str(path)) + 1:]
    return text


@calibrate_app.command("list")
def list_command() -> None:
    """List the profiles in the calibration folder; * marks the default, "(unusable: why)" one that does not load."""
    pointer = calibration_dir() / f"{DEFAULT_NAME}.json"
    broken_pointer = None
    try:
        default = profile_path(None)
    except CalibrationError as exc:
        default, broken_pointer = None, _unusable_reason(exc, pointer)
    names = list_profiles()
    with output_errors():
        _list_profiles(names, default, pointer, broken_pointer)


def _list_profiles(names: list[str], default: Optional[Path], pointer: Path, broken_pointer: Optional[str]) -> None:
    if not names and broken_pointer is None:
        typer.echo(f"no profiles in {calibration_dir()}")
        return
    for n in names:
        path = profile_path(n, follow_default=False)
        mark = "*" if default is not None and path == default else " "
        try:
            load_profile(path)
            note = ""
        except CalibrationError as exc:
            note = f"  (unusable: {_unusable_reason(exc, path)})"
        typer.echo(f"{mark} {n}{note}")
    if broken_pointer is not None:
        typer.echo(f"  {DEFAULT_NAME}  (unusable: {broken_pointer})")
    elif default is not None and pointer.is_file() and default != pointer and not default.exists():
        typer.echo(f"  {DEFAULT_NAME}  (unusable: it points to '{default.stem}', which does not exist)")


@calibrate_app.command("use")
def use_command(name: str = typer.Argument(..., help="Profile name in the calibration folder.")) -> None:
    """Make NAME the default profile (calibration/default.json points to it)."""
    with _plain_errors():
        path = set_default(name)
    typer.echo(f"{path} now points to {name}")


# ----------------------------------------------------------------------------- check, pattern


@calibrate_app.command("check")
def check_command(
    image: Path = typer.Argument(..., help="A whole-table photo from the calibrated camera.", show_default=False),
    calibration: Optional[str] = typer.Option(None, "--calibration", "-c", metavar="NAME|FILE.json",
                                              help="Profile to check (default: the default profile)."),
    output: Path = typer.Option(..., "--output", "-o", metavar="FILE.jpg",
                                help="Annotated image: zones, note quads, reads, the zone of each note."),
    as_json: bool = typer.Option(False, "--json", help="Print the assignment as JSON."),
) -> None:
    """Read a whole-table photo through a profile and show where every note falls."""
    from dealer_assist.app.readers import table_reader
    from dealer_assist.calibration.draw import annotate_table
    from dealer_assist.calibration.tabletop import read_table
    from dealer_assist.vision.ocr import EngineError

    with _plain_errors():
        profile = load_profile(calibration)
        profile.require_table()
        if not output.parent.is_dir():
            raise CalibrationError(f"Cannot write {output}: the folder {output.parent} does not exist.")
        if output.exists() and image.exists() and os.path.samefile(output, image):
            raise CalibrationError(f"--output {output} is the photo being checked; give another file "
                                   f"(the annotated copy would replace the photo).")
        suffix = output.suffix.lower() or ".jpg"
        if suffix not in IMAGE_SUFFIXES:
            raise CalibrationError(f"--output must end in .jpg, .png or another image type "
                                   f"({', '.join(IMAGE_SUFFIXES[2:])}), not {output.suffix!r}.")
        photo = _load_photo(image)
        try:
            notes = read_table(photo, profile, table_reader())
        except EngineError as exc:
            raise CalibrationError(str(exc)) from None
        _write_image(output, annotate_table(photo, profile, notes), suffix, "the annotated image")
    rows = []
    for tn in notes:
        c = np.asarray(tn.note.quad, np.float64).mean(axis=0)
        rows.append({"serial": tn.note.serial, "status": tn.note.status, "zone": tn.zone,
                     "centre_px": [round(float(c[0]), 1), round(float(c[1]), 1)],
                     "anchor_mm": [round(float(v), 1) for v in tn.anchor_mm],
                     "quad": [[round(float(x), 1), round(float(y), 1)] for x, y in tn.note.quad]})
    if as_json:
        print(json.dumps({"image": str(image), "calibration": profile.name, "annotated": str(output),
                          "notes": rows}, ensure_ascii=False))
        return
    t = Table(title=f"{image} through '{profile.name}' → {output}", title_justify="left")
    t.add_column("#", justify="right")
    t.add_column("serial")
    t.add_column("status")
    t.add_column("zone")
    t.add_column("centre, px", justify="right")
    for i, r in enumerate(rows, 1):
        t.add_row(str(i), r["serial"] or "?", r["status"].replace("_", " "), r["zone"] or "[red]no zone[/]",
                  f"{r['centre_px'][0]:.0f}, {r['centre_px'][1]:.0f}")
    counts = Counter(r["zone"] for r in rows)
    t.caption = ", ".join(f"{z.name}: {counts.get(z.name, 0)}" for z in profile.table.zones) + (
        f", no zone: {counts[None]}" if counts.get(None) else "")
    Console().print(t)


@calibrate_app.command("pattern")
def pattern_command(
    output: Path = typer.Option(..., "--output", "-o", metavar="FILE.png", help="Where to write the board image."),
    pattern: str = typer.Option("9x6", "--pattern", metavar="COLSxROWS", help="Inner corners of the board."),
    square_px: int = typer.Option(100, "--square-px", min=10, help="Side of one square in the image, px."),
) -> None:
    """Write a chessboard to print for `calibrate camera` (measure the printed squares for --square-mm)."""
    from dealer_assist.calibration.camera import parse_pattern
    from dealer_assist.calibration.chessboard import chessboard_image

    with _plain_errors():
        pat = parse_pattern(pattern)
        suffix = output.suffix.lower() or ".png"
        if suffix not in IMAGE_SUFFIXES:
            raise CalibrationError(f"--output must end in .png or another image type "
                                   f"({', '.join(IMAGE_SUFFIXES[1:])}), not {output.suffix!r}.")
        if not output.parent.is_dir():
            raise CalibrationError(f"Cannot write {output}: the folder {output.parent} does not exist.")
        # the same size chessboard_image makes: the squares plus a margin of one square each side
        width, height = (pat[0] + 3) * square_px, (pat[1] + 3) * square_px
        if max(width, height) > MAX_PATTERN_SIDE_PX:
            raise CalibrationError(f"The board would be {width} x {height} px; at most {MAX_PATTERN_SIDE_PX} px a side "
                                   f"is written: use a smaller --square-px or --pattern.")
        _write_image(output, chessboard_image(pat, square_px), suffix, "the board")
    typer.echo(f"wrote {output}: {pat[0] + 1} x {pat[1] + 1} squares, {pat[0]}x{pat[1]} inner corners")
