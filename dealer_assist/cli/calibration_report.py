"""Rich tables of ``calibrate``'s results and profiles (renderables; no printing here)."""

from __future__ import annotations

from typing import Sequence

import numpy as np
from rich.console import RenderableType
from rich.table import Table
from rich.text import Text

from dealer_assist.app.camera_setup import CameraSetup
from dealer_assist.app.note_setup import TableCheck
from dealer_assist.app.table_setup import TableSetup
from dealer_assist.calibration.profile import NoteLayout, Profile
from dealer_assist.calibration.resolution import zone_scales
from dealer_assist.render import name_text

__all__ = ["camera_table", "table_zones", "notes_table", "profile_view", "check_table", "readability_table",
           "scale_advice"]


def camera_table(result: CameraSetup) -> Table:
    """The camera fit: views used, RMS error, focal length, principal point, distortion, coverage."""
    cam, k = result.camera, result.camera.camera_matrix
    t = Table(title=name_text(f"camera calibration → {result.saved.profile.path}"), title_justify="left",
              show_header=False)
    t.add_row("views used", f"{cam.views_used} of {cam.views_used + len(result.unusable)}")
    t.add_row("RMS re-projection error", f"{cam.rms:.3f} px")
    t.add_row("focal length fx, fy", f"{k[0, 0]:.1f}, {k[1, 1]:.1f} px")
    t.add_row("principal point cx, cy", f"{k[0, 2]:.1f}, {k[1, 2]:.1f} px")
    t.add_row("distortion k1 k2 p1 p2 k3", " ".join(f"{v:+.4f}" for v in cam.dist_coeffs[:5]))
    t.add_row("image size", f"{cam.image_size[0]} x {cam.image_size[1]} px")
    t.add_row("frame coverage", f"{result.coverage:.0%}")
    return t


def table_zones(result: TableSetup) -> Table:
    """Each zone of a new table section: kind, centre in mm, whether the photo shows it whole."""
    profile = result.saved.profile
    table, size, fit = profile.table, result.image_size, result.fit
    w, h = table.table_size_mm
    t = Table(title=name_text(f"table calibration → {profile.path}"), title_justify="left")
    t.add_column("zone")
    t.add_column("kind")
    t.add_column("centre, mm", justify="right")
    t.add_column("in the photo", justify="right")
    _scale_columns(t)
    for z, zs in zip(table.zones, zone_scales(profile, size)):
        px = profile.to_image_px(z.polygon_mm, size)
        inside = ((px[:, 0] >= 0) & (px[:, 0] < size[0]) & (px[:, 1] >= 0) & (px[:, 1] < size[1])).mean()
        c = z.centre_mm
        t.add_row(name_text(z.name), z.kind, f"{c[0]:.0f}, {c[1]:.0f}",
                  "yes" if inside == 1 else f"[yellow]{inside:.0%} of corners[/]", *_scale_cells(zs))
    t.caption = (f"{fit.points} points, RMS {fit.rms_px:.2f} px, table {w:g} x {h:g} mm"
                 + (f" (markers measure {fit.measured_size_mm[0]:.0f} x {fit.measured_size_mm[1]:.0f})"
                    if fit.measured_size_mm else ""))
    return t


def _scale_columns(t: Table) -> None:
    t.add_column("px/mm across × deep", justify="right")
    t.add_column("digits")


def _scale_cells(zs) -> tuple[str, Text]:
    c = zs.check
    cells = f"{c.across_px_per_mm:.1f} × {c.deep_px_per_mm:.1f}"
    return cells, (Text("readable", style="green") if c.readable else Text("TOO SMALL", style="bold red"))


def readability_table(profile: Profile, image_size=None) -> list[RenderableType]:
    """Each zone's px/mm at its worst point (along the table's width and depth) and the verdict against the
    reader's floor, then one line per zone below it saying what to change (nothing more when all are readable)."""
    from dealer_assist.vision.readability import MIN_DIGIT_PX, READABLE_PX_PER_MM

    scales = zone_scales(profile, image_size)
    size = image_size or profile.image_size
    t = Table(title=f"how the camera sees each zone ({size[0]} x {size[1]} px frames; the reader needs "
                    f"{READABLE_PX_PER_MM:g} px/mm, digits {MIN_DIGIT_PX:.0f} px)", title_justify="left")
    t.add_column("zone")
    _scale_columns(t)
    for zs in scales:
        t.add_row(name_text(zs.zone), *_scale_cells(zs))
    return [t, *scale_advice(profile, image_size)]


def scale_advice(profile: Profile, image_size=None) -> list[Text]:
    """One line naming the zones the camera sees below the reader's floor and what to change (none when all
    are readable)."""
    from dealer_assist.calibration.resolution import below_floor_sentence, zones_below_floor

    sentence = below_floor_sentence(zones_below_floor(profile, image_size))
    return [name_text(sentence, style="bold red")] if sentence else []


def notes_table(layout: NoteLayout, title: str) -> Table:
    """A note layout: each print's box (0..1 of the note) and ink colour (its name; the measured value is in
    the profile's JSON); the aspect and the samples."""
    t = Table(title=name_text(title), title_justify="left")
    t.add_column("print")
    t.add_column("box x0 y0 x1 y1 (0..1)")
    t.add_column("ink colour")
    for p in layout.prints:
        t.add_row(p.name, " ".join(f"{v:.3f}" for v in p.box), p.colour or "")
    spread = layout.extra.get("box_spread", {})
    t.caption = (f"aspect {layout.aspect:.3f}, {layout.samples} photo(s)"
                 + (f", largest box spread {max(spread.values()):.3f}" if spread else ""))
    return t


def _camera_section(profile: Profile) -> RenderableType:
    if profile.camera is None:
        return Text.from_markup("camera: none (the photo is taken as free of lens distortion)")
    cam = profile.camera
    k = cam.camera_matrix
    t = Table(title="camera", title_justify="left", show_header=False)
    t.add_row("image size", f"{cam.image_size[0]} x {cam.image_size[1]} px")
    t.add_row("fx, fy", f"{k[0, 0]:.1f}, {k[1, 1]:.1f} px")
    t.add_row("cx, cy", f"{k[0, 2]:.1f}, {k[1, 2]:.1f} px")
    t.add_row("distortion", " ".join(f"{v:+.4f}" for v in cam.dist_coeffs))
    t.add_row("RMS", f"{cam.rms:.3f} px" if cam.rms is not None else "?")
    t.add_row("views", str(cam.views_used or "?"))
    return t


def _table_section(profile: Profile) -> Sequence[RenderableType]:
    if profile.table is None:
        return [Text.from_markup("table: none (run `dealer-assist calibrate table`)")]
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
    t.caption = name_text("corners in the photo: " + " ".join(f"{x:.0f},{y:.0f}" for x, y in corners)
                          + (f"; from {src.get('method')} on {src.get('image')}, RMS {src.get('rms_px')} px"
                             if src else ""))
    return [t, name_text("seats clockwise: " + ", ".join(tp.seats)), *readability_table(profile, tp.image_size)]


def profile_view(profile: Profile) -> list[RenderableType]:
    """``calibrate show``: the name and path, then each section (or what makes it)."""
    parts: list[RenderableType] = [Text.assemble(name_text(profile.name, style="bold"), "  ",
                                                 name_text(profile.path))]
    parts.append(_camera_section(profile))
    parts.extend(_table_section(profile))
    if profile.notes is not None:
        parts.append(notes_table(profile.notes, "note layout"))
    else:
        parts.append(Text.from_markup("notes: none (run `dealer-assist calibrate notes`)"))
    return parts


def check_table(check: TableCheck, image: str, output: str) -> Table:
    """``calibrate check``: each note's serial, status, zone and centre; the caption counts the notes per zone."""
    t = Table(title=name_text(f"{image} through '{check.profile.name}' → {output}"), title_justify="left")
    t.add_column("#", justify="right")
    t.add_column("serial")
    t.add_column("status")
    t.add_column("zone")
    t.add_column("centre, px", justify="right")
    for i, r in enumerate(check.rows, 1):
        t.add_row(str(i), r["serial"] or "?", r["status"].replace("_", " "), r["zone"] or "[red]no zone[/]",
                  f"{r['centre_px'][0]:.0f}, {r['centre_px'][1]:.0f}")
    counts = check.counts
    t.caption = name_text(", ".join(f"{z.name}: {counts.get(z.name, 0)}" for z in check.profile.table.zones) + (
        f", no zone: {counts[None]}" if counts.get(None) else ""))
    return t

