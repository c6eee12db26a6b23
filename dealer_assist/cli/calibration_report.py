"""Rich tables of ``calibrate``'s results and profiles (renderables; no printing here), in English or Russian.

A table's title and caption are lines of their own above and below it, wrapped at word boundaries to
the terminal's width (as a rich table's title they were wrapped to the table's, cutting paths and words).
"""

from __future__ import annotations

from typing import Sequence

import numpy as np
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from dealer_assist.app.camera_setup import CameraSetup
from dealer_assist.app.note_setup import TableCheck
from dealer_assist.app.table_setup import TableSetup
from dealer_assist.calibration.profile import NoteLayout, Profile
from dealer_assist.calibration.resolution import zone_scales
from dealer_assist.i18n import number, say, say_place, texts
from dealer_assist.render import name_text

__all__ = ["camera_table", "table_zones", "notes_table", "profile_view", "check_table", "readability_table",
           "scale_advice"]


def _rms(value, lang: str) -> str:
    """A profile's recorded RMS error as the language writes decimals (``0.232``, ru ``0,232``)."""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return number(value, lang, 3)
    return str(value)


def titled(title: Text | str | None, table: Table, caption: Text | str | None = None) -> Group:
    """``table`` with its title above and its caption below, each a line of its own wrapped at words."""
    parts: list[RenderableType] = []
    if title:
        parts.append(title if isinstance(title, Text) else name_text(title, style="bold"))
    parts.append(table)
    if caption:
        parts.append(caption if isinstance(caption, Text) else name_text(caption, style="dim"))
    return Group(*parts)


def camera_table(result: CameraSetup, lang: str = "en") -> Group:
    """The camera fit: views used, RMS error, focal length, principal point, distortion, coverage."""
    t_ = texts(lang)
    cam, k = result.camera, result.camera.camera_matrix
    t = Table(show_header=False)
    t.add_row(t_["cal_views_used"], t_["cal_of"].format(a=cam.views_used, b=cam.views_used + len(result.unusable)))
    t.add_row(t_["cal_rms"], f"{cam.rms:.3f} px")
    t.add_row(t_["cal_focal"], f"{k[0, 0]:.1f}, {k[1, 1]:.1f} px")
    t.add_row(t_["cal_principal"], f"{k[0, 2]:.1f}, {k[1, 2]:.1f} px")
    t.add_row(t_["cal_distortion"] + " k1 k2 p1 p2 k3", " ".join(f"{v:+.4f}" for v in cam.dist_coeffs[:5]))
    t.add_row(t_["cal_image_size"], f"{cam.image_size[0]} x {cam.image_size[1]} px")
    t.add_row(t_["cal_coverage"], f"{result.coverage:.0%}")
    return titled(name_text(t_["cal_camera_title"].format(path=result.saved.profile.path), style="bold"), t)


def zone_cell(name: str, kind: str, lang: str = "en") -> Text:
    """A zone's name in a table cell: the board by the language's word for it (``борд``, as the sentences
    under the table say it: one name for one zone), a seat by its name, as text (seventh new-user trial M)."""
    return name_text(say_place(name, lang) if kind == "board" else name)


def table_zones(result: TableSetup, lang: str = "en") -> Group:
    """Each zone of a new table section: kind, centre in mm, whether the photo shows it whole."""
    t_ = texts(lang)
    profile = result.saved.profile
    table, size, fit = profile.table, result.image_size, result.fit
    w, h = table.table_size_mm
    t = Table()
    t.add_column(t_["zone"])
    t.add_column(t_["cal_kind"])
    t.add_column(t_["cal_centre_mm"], justify="right")
    t.add_column(t_["cal_in_photo"], justify="right")
    _scale_columns(t, t_)
    for z, zs in zip(table.zones, zone_scales(profile, size)):
        px = profile.to_image_px(z.polygon_mm, size)
        inside = ((px[:, 0] >= 0) & (px[:, 0] < size[0]) & (px[:, 1] >= 0) & (px[:, 1] < size[1])).mean()
        c = z.centre_mm
        t.add_row(zone_cell(z.name, z.kind, lang), t_.get(f"cal_kind_{z.kind}", z.kind), f"{c[0]:.0f}, {c[1]:.0f}",
                  t_["cal_yes"] if inside == 1 else Text(t_["cal_of_corners"].format(p=f"{inside:.0%}"), style="yellow"),
                  *_scale_cells(zs, t_, lang))
    caption = (t_["cal_fit"].format(n=fit.points, rms=number(fit.rms_px, lang, 2), w=f"{w:g}", h=f"{h:g}")
               + (" " + t_["cal_markers_measure"].format(w=f"{fit.measured_size_mm[0]:.0f}",
                                                         h=f"{fit.measured_size_mm[1]:.0f}")
                  if fit.measured_size_mm else ""))
    return titled(name_text(t_["cal_table_title"].format(path=profile.path), style="bold"), t, caption)


def _scale_columns(t: Table, t_) -> None:
    t.add_column(t_["cal_px_mm"], justify="right")
    t.add_column(t_["cal_digits"])


def _scale_cells(zs, t_, lang: str = "en") -> tuple[str, Text]:
    from dealer_assist.vision.readability import px_per_mm_figure

    c = zs.check
    cells = f"{px_per_mm_figure(c.across_px_per_mm, lang)} × {px_per_mm_figure(c.deep_px_per_mm, lang)}"
    return cells, (Text(t_["cal_readable"], style="green") if c.readable else
                   Text(t_["cal_too_small"], style="bold red"))


def readability_table(profile: Profile, image_size=None, lang: str = "en") -> list[RenderableType]:
    """Each zone's px/mm at its worst point (along the table's width and depth) and the verdict against the
    reader's floor, then one line per zone below it saying what to change (nothing more when all are readable)."""
    from dealer_assist.vision.readability import MIN_DIGIT_PX, READABLE_PX_PER_MM

    t_ = texts(lang)
    scales = zone_scales(profile, image_size)
    size = image_size or profile.image_size
    title = t_["cal_sees"].format(w=size[0], h=size[1], floor=number(READABLE_PX_PER_MM, lang, 1), digits=f"{MIN_DIGIT_PX:.0f}")
    t = Table()
    t.add_column(t_["zone"])
    _scale_columns(t, t_)
    for zs in scales:
        t.add_row(zone_cell(zs.zone, zs.kind, lang), *_scale_cells(zs, t_, lang))
    return [titled(Text(title), t), *scale_advice(profile, image_size, lang)]


def scale_advice(profile: Profile, image_size=None, lang: str = "en") -> list[Text]:
    """One line naming the zones the camera sees below the reader's floor and what to change (none when all
    are readable)."""
    from dealer_assist.calibration.resolution import below_floor_sentence, zones_below_floor

    sentence = below_floor_sentence(zones_below_floor(profile, image_size))
    return [name_text(say(sentence, lang), style="bold red")] if sentence else []


def notes_table(layout: NoteLayout, title: str, lang: str = "en") -> Group:
    """A note layout: each print's box (0..1 of the note) and ink colour (its name; the measured value is in
    the profile's JSON); the aspect and the samples."""
    t_ = texts(lang)
    t = Table()
    t.add_column(t_["cal_print"])
    t.add_column(t_["cal_box"])
    t.add_column(t_["cal_ink"])
    for p in layout.prints:  # the print's and the ink's names in the language (a print_N or an unknown name as is)
        t.add_row(t_.get(f"print_{p.name}", p.name), " ".join(number(v, lang, 3) for v in p.box),
                  t_.get(f"ink_{p.colour}", p.colour) if p.colour else "")
    spread = layout.extra.get("box_spread", {})
    caption = (t_["cal_aspect"].format(a=number(layout.aspect, lang, 3), n=layout.samples)
               + (t_["cal_spread"].format(s=number(max(spread.values()), lang, 3)) if spread else ""))
    return titled(name_text(title, style="bold"), t, caption)


def _camera_section(profile: Profile, t_) -> RenderableType:
    if profile.camera is None:
        return Text(t_["cal_no_camera"])
    cam = profile.camera
    k = cam.camera_matrix
    t = Table(show_header=False)
    t.add_row(t_["cal_image_size"], f"{cam.image_size[0]} x {cam.image_size[1]} px")
    t.add_row("fx, fy", f"{k[0, 0]:.1f}, {k[1, 1]:.1f} px")
    t.add_row("cx, cy", f"{k[0, 2]:.1f}, {k[1, 2]:.1f} px")
    t.add_row(t_["cal_distortion"], " ".join(f"{v:+.4f}" for v in cam.dist_coeffs))
    t.add_row("RMS", f"{cam.rms:.3f} px" if cam.rms is not None else "?")
    t.add_row(t_["cal_views"], str(cam.views_used or "?"))
    return titled(Text(t_["camera"], style="bold"), t)


def _table_section(profile: Profile, lang: str) -> Sequence[RenderableType]:
    t_ = texts(lang)
    if profile.table is None:
        return [Text(t_["cal_no_table"])]
    tp = profile.table
    corners = profile.to_image_px(np.array([[0, 0], [tp.table_size_mm[0], 0], list(tp.table_size_mm),
                                            [0, tp.table_size_mm[1]]], np.float64))
    title = t_["cal_table_on"].format(w=f"{tp.table_size_mm[0]:g}", h=f"{tp.table_size_mm[1]:g}",
                                      iw=tp.image_size[0], ih=tp.image_size[1])
    t = Table()
    t.add_column(t_["zone"])
    t.add_column(t_["cal_kind"])
    t.add_column(t_["cal_polygon"])
    for z in tp.zones:
        t.add_row(zone_cell(z.name, z.kind, lang), t_.get(f"cal_kind_{z.kind}", z.kind),
                  " ".join(f"{x:.0f},{y:.0f}" for x, y in z.polygon_mm))
    src = tp.extra.get("source") or {}
    caption = name_text(t_["cal_corners"] + " " + " ".join(f"{x:.0f},{y:.0f}" for x, y in corners)
                        + (t_["cal_source"].format(method=src.get("method"), image=src.get("image"),
                                                   rms=_rms(src.get("rms_px"), lang)) if src else ""), style="dim")
    return [titled(Text(title, style="bold"), t, caption), name_text(t_["cal_seats"] + " " + ", ".join(tp.seats)),
            *readability_table(profile, tp.image_size, lang)]


def profile_view(profile: Profile, lang: str = "en") -> list[RenderableType]:
    """``calibrate show``: the name and path, then each section (or what makes it)."""
    t_ = texts(lang)
    parts: list[RenderableType] = [Text.assemble(name_text(profile.name, style="bold"), "  ",
                                                 name_text(profile.path))]
    parts.append(_camera_section(profile, t_))
    parts.extend(_table_section(profile, lang))
    if profile.notes is not None:
        parts.append(notes_table(profile.notes, t_["cal_note_layout"], lang))
    else:
        parts.append(Text(t_["cal_no_notes"]))
    return parts


def check_table(check: TableCheck, image: str, output: str, lang: str = "en") -> Group:
    """``calibrate check``: each note's serial, status, zone and centre; the caption counts the notes per zone."""
    t_ = texts(lang)
    t = Table()
    t.add_column("#", justify="right")
    t.add_column(t_["cal_serial"])
    t.add_column(t_["status"])
    t.add_column(t_["zone"])
    t.add_column(t_["cal_centre_px"], justify="right")
    kinds = {z.name: z.kind for z in check.profile.table.zones}
    for i, r in enumerate(check.rows, 1):
        status = t_.get("st_" + r["status"], r["status"].replace("_", " "))
        t.add_row(str(i), r["serial"] or "?", status, zone_cell(r["zone"], kinds.get(r["zone"], ""), lang) if r["zone"] else
                  Text(t_["cal_no_zone"], style="red"), f"{r['centre_px'][0]:.0f}, {r['centre_px'][1]:.0f}")
    counts = check.counts
    # the board zone by the language's word for it (prose: "борд: 1, P1: 1"), the seats by their names
    caption = name_text(", ".join(f"{zone_cell(z.name, z.kind, lang).plain}: {counts.get(z.name, 0)}"
                                  for z in check.profile.table.zones) + (
        f", {t_['cal_no_zone']}: {counts[None]}" if counts.get(None) else ""), style="dim")
    title = name_text(t_["cal_check_title"].format(image=image, name=check.profile.name, output=output), style="bold")
    short = short_seats(check)
    if not short:
        return titled(title, t, caption)
    return Group(titled(title, t, caption), *(name_text(say(line, lang), style="yellow") for line in short))


def short_seats(check: TableCheck) -> list[str]:
    """One sentence per seat holding some notes but fewer than a Banknote Hold'em player is dealt
    (:attr:`~dealer_assist.rules.Game.pocket_notes`): a seat with none is taken as not in play; and one for a
    board holding some notes but fewer than Hold'em's board (an empty board may be Indian poker's)."""
    from dealer_assist.rules import Game

    want = Game.HOLDEM.pocket_notes
    out = []
    for zone in check.profile.table.zones:
        found = check.counts.get(zone.name, 0)
        if zone.kind == "board" and 0 < found < Game.HOLDEM.board_notes:
            out.append(f"the board: {found} of {Game.HOLDEM.board_notes} notes found (a note whose serial prints are "
                       f"hidden is not seen; Indian poker has no board).")
        if zone.kind == "seat" and 0 < found < want:
            out.append(f"{zone.name}: {found} of {want} notes found (a note whose serial prints are hidden is not "
                       f"seen; in Indian poker a seat holds {Game.INDIAN.pocket_notes}).")
    return out

