"""Issue 22 new-user findings F12 (calibrate check says a seat holds 1 of 2 notes) and F13 (calibrate
show's sentences use the terminal's width, not the table's)."""

from __future__ import annotations

import io
from collections import Counter

from rich.console import Console
from typer.testing import CliRunner

from dealer_assist.app.note_setup import TableCheck
from dealer_assist.calibration.store import load_profile
from dealer_assist.cli import app
from dealer_assist.cli.calibration_report import check_table


def shown(renderable, width=80) -> str:
    out = io.StringIO()
    Console(file=out, width=width, color_system=None).print(renderable)
    return out.getvalue()


def _check(counts) -> TableCheck:
    profile = load_profile("sample_table_1")
    return TableCheck(profile, [], Counter(counts))


def test_f12_check_says_which_seat_has_one_of_two_notes():
    check = _check({"board": 3, "P1": 2, "P2": 2, "P3": 2, "P4": 1})
    text = " ".join(shown(check_table(check, "table_1.jpg", "check.jpg")).split())
    assert "P4: 1 of 2 notes found" in text
    assert "P1: 1 of 2" not in text and "P3: 1 of 2" not in text
    ru = " ".join(shown(check_table(check, "table_1.jpg", "check.jpg", "ru")).split())
    assert "P4: найдено купюр 1 из 2" in ru


def test_f12_a_seat_with_no_notes_or_both_is_not_flagged():
    check = _check({"board": 3, "P1": 2, "P2": 0, "P3": 2, "P4": 2})
    assert "notes found" not in shown(check_table(check, "table_1.jpg", "check.jpg"))


def test_f13_show_wraps_its_sentences_at_the_terminal_width():
    result = CliRunner().invoke(app, ["calibrate", "show", "--calibration", "sample_table_1"],
                                env={"COLUMNS": "80", "LANG": "C.UTF-8"})
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    corners = next(ln for ln in lines if ln.startswith("corners in the photo:"))
    sees = next(ln for ln in lines if ln.startswith("How the camera sees each zone"))
    table_width = max(len(ln) for ln in lines if ln.startswith("┏"))
    assert table_width < 60 and len(corners) > 70 and len(sees) > 70, result.stdout
    assert max(len(ln) for ln in lines) <= 80
