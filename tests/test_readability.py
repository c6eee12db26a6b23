"""The readability floor: verdicts per zone, the reasons given, and where `calibrate check` draws notes."""

from __future__ import annotations

import re
from pathlib import Path

import cv2
import numpy as np
import pytest

from dealer_assist.calibration import Profile, TablePlane
from dealer_assist.calibration.resolution import axis_scales, below_floor_sentence, zone_scales, zones_below_floor
from dealer_assist.calibration.table import auto_zones, homography_from_corners
from dealer_assist.calibration.tabletop import snap_to_outlines
from dealer_assist.live.session import LiveSession
from dealer_assist.live.frame_source import Frame
from dealer_assist.live.table_state import TableState
from dealer_assist.live.worker import InlineWorker
from dealer_assist.vision.model import NoteRead, NoteStatus, Print
from dealer_assist.vision.readability import (MIN_DIGIT_PX, READABLE_PX_PER_MM, Readability, explain_small,
                                              print_digit_px, scale_verdict, too_small_reason)

TABLE_MM = (1000.0, 700.0)
SEATS = ["P1", "P2", "P3", "P4"]


def tilted_profile() -> Profile:
    """A camera leaning from the croupier's side: 4 px/mm across the near edge, 1.8 across the far one."""
    w, h = 4000, 2800
    corners = np.array([[1100, 0], [2900, 0], [w - 1, h - 1], [0, h - 1]], float)
    fit = homography_from_corners(corners, TABLE_MM)
    return Profile("tilted", None, None, TablePlane((w, h), fit.homography, fit.table_size_mm,
                                                   tuple(auto_zones(SEATS, TABLE_MM))))


def test_verdicts_against_the_floor():
    assert READABLE_PX_PER_MM == 2.4 and round(MIN_DIGIT_PX) == 7
    ok = scale_verdict(2.5, 2.4)
    assert ok.verdict is Readability.READABLE and ok.advice == "" and ok.px_per_mm == 2.4
    small = scale_verdict(2.0, 2.1)
    assert small.verdict is Readability.TOO_SMALL and small.px_per_mm == 2.0
    assert "digits ~6 px, the reader needs 7 px" in small.advice and "1.2x the pixels per mm" in small.advice
    assert "higher camera resolution" in small.advice and "overhead" not in small.advice
    # across is fine, depth is squashed: the camera is tilted
    slant = scale_verdict(3.4, 2.0)
    assert not slant.readable and "more overhead" in slant.advice and "resolution" not in slant.advice


def test_the_reason_for_small_digits():
    assert too_small_reason(5.2) == "digits too small (5 px; the reader needs 7)"
    assert too_small_reason(7.5) is None
    quad = np.array([[0, 0], [60, 0], [60, 8], [0, 8]], float)  # a 24-mm print 60 px long: 2.5 px/mm
    assert print_digit_px([quad]) == pytest.approx(7.5)
    note = NoteRead(None, None, 0.0, quad, NoteStatus.UNREADABLE, "the reads disagree (1234567, 1234568)", [])
    assert explain_small(note, 4.6).reason == "digits too small (5 px; the reader needs 7)"
    assert explain_small(note, 9.0).reason == "the reads disagree (1234567, 1234568)"
    trusted = NoteRead("1234567", None, 0.9, quad, NoteStatus.TRUSTED, "", [])
    assert explain_small(trusted, 3.0) is trusted


def test_zone_scales_find_the_far_side_of_a_tilted_camera():
    profile = tilted_profile()
    scales = {z.zone: z for z in zone_scales(profile)}
    assert set(scales) == {"board", *SEATS}
    centre_y = {z.name: z.centre_mm[1] for z in profile.table.zones}
    far = min(scales.values(), key=lambda z: centre_y[z.zone])
    near = max(scales.values(), key=lambda z: centre_y[z.zone])
    # the worst point's scale is what the camera gives there, along x and along y
    direct = axis_scales(profile, np.array([far.worst_mm]))[0]
    assert far.check.across_px_per_mm == pytest.approx(direct[0]) and far.check.deep_px_per_mm == pytest.approx(direct[1])
    assert far.check.px_per_mm < 2.0 and not far.check.readable
    assert near.check.px_per_mm > READABLE_PX_PER_MM and near.check.readable
    low = zones_below_floor(profile)
    assert far.zone in {z.zone for z in low} and near.zone not in {z.zone for z in low}
    sentence = below_floor_sentence(low)
    assert sentence.startswith(f"Serial digits are too small to read in {len(low)} zone(s) (px/mm: ")
    assert f"{far.zone} {far.check.px_per_mm:.1f}" in sentence
    # frames of a quarter the size see everything at a quarter of the scale
    assert len(zones_below_floor(profile, (1000, 700))) == len(profile.table.zones)


def test_live_says_which_zones_are_below_the_floor():
    profile = tilted_profile()
    session = LiveSession(profile, TableState(tuple(SEATS), 4), InlineWorker(read=lambda job: ()))
    session.on_frame(Frame(np.full((2800, 4000, 3), (40, 90, 40), np.uint8), 0, 0.0))
    low = [z.zone for z in zones_below_floor(profile)]
    assert low and session.warning == below_floor_sentence(zones_below_floor(profile))
    readable = [z.zone for z in zone_scales(profile) if z.check.readable]
    assert readable and not any(f"{z} " in session.warning.split("; ")[0] for z in readable)


def _note_image(angle: float) -> tuple[np.ndarray, np.ndarray]:
    """A 2 px/mm top view: a light note (157 x 69 mm) at ``angle`` degrees on a striped red table; its corners."""
    img = np.zeros((500, 700, 3), np.uint8)
    img[:] = (60, 60, 170)
    img[::8] = (50, 50, 140)
    rect = ((350.0, 250.0), (314.0, 138.0), angle)
    corners = cv2.boxPoints(rect).astype(np.float32)
    cv2.fillConvexPoly(img, np.round(corners).astype(np.int32), (200, 225, 205))
    return img, corners


def test_a_note_is_drawn_on_its_paper_not_where_one_print_guessed_it():
    img, corners = _note_image(20.0)
    centre = corners.mean(axis=0)
    print_quad = (np.array([[-20, -6], [20, -6], [20, 6], [-20, 6]], np.float32) + centre + [60, -20])
    guess = corners + [250, 120]  # a guess far off the paper
    note = NoteRead(None, None, 0.0, guess, NoteStatus.UNREADABLE, "", [Print(print_quad, np.zeros((1, 1, 3), np.uint8), [])])
    (snapped,) = snap_to_outlines(img, [note], 2.0)
    got = np.asarray(snapped.quad)
    # each corner of the paper has a corner of the drawn quad within 4 px
    assert max(np.linalg.norm(got - c, axis=1).min() for c in corners) < 4.0


def test_one_print_notes_without_an_outline_are_placed_over_paper():
    img, corners = _note_image(0.0)
    # a second note overlapping it: the two papers make one outline that is no note's
    other = corners + [120, 60]
    cv2.fillConvexPoly(img, np.round(other).astype(np.int32), (200, 225, 205))
    tr = corners.min(axis=0) + [135 * 2, 10.5 * 2]  # where the first note's top-right print lies (2 px/mm)
    print_quad = np.array([[-24, -6], [24, -6], [24, 6], [-24, 6]], np.float32) + tr
    wrong = (2 * tr - corners)[[2, 3, 0, 1]]  # the note turned about its print: mostly off the paper
    note = NoteRead(None, None, 0.0, wrong, NoteStatus.UNREADABLE, "", [Print(print_quad, np.zeros((1, 1, 3), np.uint8), [])])
    (placed,) = snap_to_outlines(img, [note], 2.0)
    mask = np.zeros(img.shape[:2], np.uint8)
    cv2.fillConvexPoly(mask, np.round(placed.quad).astype(np.int32), 1)
    paper = (img[:, :, 1] > 200).astype(np.uint8)
    assert (paper & mask).sum() / mask.sum() > 0.95


def test_calibrate_show_names_the_zones_below_the_floor():
    from typer.testing import CliRunner

    from dealer_assist.calibration import load_profile
    from dealer_assist.cli import app

    repo = Path(__file__).resolve().parents[1]
    r = CliRunner().invoke(app, ["calibrate", "show", "--calibration", str(repo / "calibration" / "sample_table_1.json")],
                           env={"COLUMNS": "200"})
    assert r.exit_code == 0, r.output
    # 1920x1080 over the sample table: ~1.2 px/mm everywhere, half the floor
    profile = load_profile(str(repo / "calibration" / "sample_table_1.json"))
    scales = zone_scales(profile)
    assert all(not z.check.readable for z in scales)
    for z in scales:
        assert f"{z.check.across_px_per_mm:.1f} × {z.check.deep_px_per_mm:.1f}" in r.output
    assert r.output.count("TOO SMALL") == len(scales)
    assert f"Serial digits are too small to read in {len(scales)} zone(s)" in " ".join(r.output.split())


def _frame_loop(session, as_json: bool, monkeypatch):
    """The live command's frame loop on ``session``, its screen an 80x24 terminal (or ``--json``)."""
    import io
    from types import SimpleNamespace

    from rich.console import Console

    from dealer_assist.app.frame_loop import FrameLoop

    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    config = SimpleNamespace(lang="en", as_json=as_json, spectator_state=None, ocr=True, trust=(2, 3))
    run = SimpleNamespace(config=config, session=session, screen=None, club=None)
    feed = SimpleNamespace(shown_state="ok", detail="", state="ok")
    console = Console(file=io.StringIO(), width=80, height=24, force_terminal=True, color_system=None)
    return FrameLoop(run, feed, console, None, False, "camera 0")


def test_live_says_the_zones_below_the_floor_once_on_the_dashboard(monkeypatch, capsys):
    profile = tilted_profile()
    session = LiveSession(profile, TableState(tuple(SEATS), 4), InlineWorker(read=lambda job: ()))
    loop = _frame_loop(session, False, monkeypatch)
    assert loop.take_frame(Frame(np.full((2800, 4000, 3), (40, 90, 40), np.uint8), 0, 0.0), 0.0)
    loop.console.print(loop.screen_now())
    text = " ".join(loop.console.file.getvalue().split())
    # the header says it; the answer line does not say it again, nor standard error
    assert text.count("too small to read in") == 1, text
    assert loop.feedback.text == "" and capsys.readouterr().err == ""


def test_live_json_says_the_zones_below_the_floor_on_stderr_wrapped_on_a_terminal(monkeypatch):
    import io

    profile = tilted_profile()
    session = LiveSession(profile, TableState(tuple(SEATS), 4), InlineWorker(read=lambda job: ()))
    loop = _frame_loop(session, True, monkeypatch)

    class Tty(io.StringIO):
        def isatty(self) -> bool:
            return True

    err = Tty()
    monkeypatch.setattr("sys.stderr", err)
    monkeypatch.setattr("shutil.get_terminal_size", lambda fallback=(80, 24): __import__("os").terminal_size((60, 24)))
    assert loop.take_frame(Frame(np.full((2800, 4000, 3), (40, 90, 40), np.uint8), 0, 0.0), 0.0)
    lines = err.getvalue().splitlines()
    assert len(lines) > 1 and all(len(line) <= 59 for line in lines)  # wrapped at word boundaries
    assert " ".join(line.strip() for line in lines) == session.warning


def _overhead_profile(px_per_mm: float) -> Profile:
    """A camera straight overhead seeing the whole table at ``px_per_mm`` along both axes."""
    w, h = round(TABLE_MM[0] * px_per_mm), round(TABLE_MM[1] * px_per_mm)
    corners = np.array([[0, 0], [w, 0], [w, h], [0, h]], float)
    fit = homography_from_corners(corners, TABLE_MM)
    return Profile("overhead", None, None, TablePlane((w, h), fit.homography, fit.table_size_mm,
                                                     tuple(auto_zones(SEATS, TABLE_MM))))


def test_a_scale_just_below_the_floor_never_prints_as_the_floor():
    """2.37 px/mm is too small; it printed as "2.4" (the floor) beside "TOO SMALL", and its digits (7.1 px) as
    "~7 px, the reader needs 7 px". Every place a scale or a digit height is printed beside a verdict shows
    a figure on the verdict's side of the floor."""
    from rich.console import Console

    from dealer_assist.app.frame_loop import frame_label
    from dealer_assist.app.note_setup import zone_scales_json
    from dealer_assist.cli.calibration_report import readability_table
    from dealer_assist.i18n import say
    from dealer_assist.vision.readability import px_per_mm_figure, shown_beside

    assert shown_beside(2.37, READABLE_PX_PER_MM) == (2.37, 2)
    assert shown_beside(2.3999999, READABLE_PX_PER_MM) == (2.39, 2)  # rounded down, never "2.40"
    assert shown_beside(READABLE_PX_PER_MM, READABLE_PX_PER_MM) == (READABLE_PX_PER_MM, 1)
    assert shown_beside(2.33, READABLE_PX_PER_MM) == (2.33, 1)  # "2.3": already below
    assert [px_per_mm_figure(v) for v in (2.37, 2.44, 1.46)] == ["2.37", "2.4", "1.5"]
    assert px_per_mm_figure(2.37, "ru") == "2,37"

    profile = _overhead_profile(2.37)
    scales = zone_scales(profile)
    assert all(z.check.px_per_mm == pytest.approx(2.37, abs=0.002) and not z.check.readable for z in scales)
    worst = min(scales, key=lambda z: z.check.px_per_mm)
    shown = px_per_mm_figure(worst.check.px_per_mm)
    assert shown in ("2.36", "2.37")
    # the advice: digits of 7.1 px beside a need of 7.2, and more pixels than 1.0x
    assert worst.check.advice.startswith("digits ~7.1 px, the reader needs 7.2 px (2.4 px/mm): it needs 1.01x"), \
        worst.check.advice
    assert too_small_reason(7.11) == "digits too small (7.1 px; the reader needs 7.2)"
    assert too_small_reason(6.2) == "digits too small (6 px; the reader needs 7)"
    assert say(too_small_reason(7.11), "ru") == "цифры слишком мелкие (7,1 пикс.; для распознавания нужно 7,2)"
    assert say(worst.check.advice, "ru").startswith("цифры ~7,1 пикс., для распознавания нужно 7,2 пикс. (2,4 пикс./мм)")
    # the sentence live and calibrate print
    sentence = below_floor_sentence(zones_below_floor(profile))
    assert f"{worst.zone} {shown}" in sentence and " 2.4," not in sentence and " 2.4)" not in sentence
    # calibrate table/show/check's table: no cell reads 2.4 beside TOO SMALL
    console = Console(width=200, record=True, color_system=None)
    for part in readability_table(profile):
        console.print(part)
    out = console.export_text()
    assert out.count("TOO SMALL") == len(scales) and "2.4 ×" not in out and "× 2.4 " not in out
    assert f"{shown} × " in out
    # calibrate check --json: two decimals, still below the floor
    rows = zone_scales_json(profile, profile.image_size)
    assert all(r["px_per_mm_across"] < READABLE_PX_PER_MM and r["verdict"] == "too small" for r in rows)
    # the live header
    session = LiveSession(profile, TableState(tuple(SEATS), 4), InlineWorker(read=lambda job: ()))
    session.on_frame(Frame(np.full((profile.image_size[1], profile.image_size[0], 3), (40, 90, 40), np.uint8), 0, 0.0))
    label = frame_label(session)
    assert re.fullmatch(r"2370x1659 · 2\.3[67](-2\.3[67])? px/mm", label), label
