"""Trial 6 L6: on an output that cannot show Cyrillic (``PYTHONIOENCODING=ascii``, a POSIX locale), Russian is
written in Latin letters (``Лучшая рука`` as ``Luchshaya ruka``) -- and was spelt so only as the line was
written, after rich had laid the table out for the Cyrillic: ``Luchshaya ruka`` (14 letters) in a column of 11,
every border after it pushed right, lines over 80 columns. Now the console spells the text before it lays it
out (:class:`dealer_assist.cli.output.ShowableConsole`), so rich's own widths and wrapping hold."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

from rich.table import Table
from rich.text import Text

from dealer_assist.cli.output import ASCII_FALLBACK, showable, showable_console

ROOT = Path(__file__).resolve().parents[1]
EVAL = ["eval", "-p", "4", "--player", "Аня=1234567,2345678", "--player", "b=3456789,4567890",
        "--board", "1111111", "--board", "2222222", "--board", "3333333", "--lang", "ru"]


def ascii_run(args: list[str]) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "PYTHONIOENCODING": "ascii", "COLUMNS": "80", "LANG": "C"}
    env.pop("PYTHONUTF8", None)
    return subprocess.run([sys.executable, "-m", "dealer_assist", *args], capture_output=True, env=env, timeout=120)


def columns_line_up(lines: list[str]) -> None:
    """Each table's header has its column bars where the rule under it has its crossings, and so does every
    row (a cell wider than its column pushes the bars after it)."""
    for i, line in enumerate(lines):
        if set(line.strip()) <= set("-+") and "+" in line and i:
            crossings = [j for j, ch in enumerate(line) if ch == "+"]
            header = lines[i - 1]
            assert [j for j, ch in enumerate(header) if ch == "|"] == crossings, (header, line)


def test_eval_in_russian_on_an_ascii_output_keeps_every_header_inside_its_column():
    done = ascii_run(EVAL)
    assert done.returncode == 0, done.stderr
    text = done.stdout.decode("ascii")  # nothing but ASCII is written
    lines = text.splitlines()
    assert max(len(line) for line in lines) <= 80, "\n".join(lines)
    columns_line_up(lines)
    assert "Luchshaya ruka" in text and "Kupyura" in text and "Pochemu" in text  # spelt, not cut
    assert "Anya" in text and "Pobeditel: Anya" in text


def test_a_refusal_panel_on_an_ascii_output_is_as_wide_as_the_terminal():
    done = ascii_run([*EVAL[:-8], "--board", "1111111,2222222,3333333", "--lang", "ru"])
    assert done.returncode == 2
    panel = [line for line in done.stderr.decode("ascii").splitlines() if line.startswith(("+", "|"))]
    assert len(panel) >= 3 and {len(line) for line in panel} == {80}, "\n".join(panel)
    assert "Nevernoe znachenie '--board'" in "".join(panel)


def test_the_console_lays_out_the_words_it_will_write():
    out = io.TextIOWrapper(io.BytesIO(), encoding=ASCII_FALLBACK)
    console = showable_console(file=out, width=60, color_system=None)
    table = Table("Игрок")
    table.add_column(Text("Лучшая рука", style="bold"))
    table.add_column("Щи")
    table.add_row(Text("Аня", style="bold"), "Пара (Pair)", Text("борщ"))
    console.print(table)
    out.flush()
    lines = [line for line in out.buffer.getvalue().decode("ascii").splitlines() if line.strip()]
    assert [cell.strip() for cell in lines[1].split("|")[1:-1]] == ["Igrok", "Luchshaya ruka", "Shchi"], lines
    assert [cell.strip() for cell in lines[3].split("|")[1:-1]] == ["Anya", "Para (Pair)", "borshch"], lines
    assert len({len(line) for line in lines}) == 1, lines  # every line as wide: no border pushed


def test_showable_spells_only_what_the_encoding_lacks():
    assert showable("Zoé · Пара — 5", "latin-1") == "Zoé · Para - 5"  # latin-1 has é and ·, not Cyrillic or —
    assert showable("Zoé · Пара", "utf-8") == "Zoé · Пара"
    assert showable("Щука ёж", ASCII_FALLBACK) == "Shchuka yozh"


def test_live_s_russian_dashboard_on_an_ascii_terminal_keeps_its_table_inside_80_columns():
    """The live screen (a Group of panels and tables, drawn by rich's Live through ``render``) is laid out on the
    spelt words too."""
    from dealer_assist.live.dashboard import LiveStatus, render_dashboard
    from dealer_assist.live.table_state import NoteInfo, TableState
    from dealer_assist.live.table_view import table_view

    state = TableState(("Аня", "Борис", "Щукин"), 4, chips=(("Аня", 5), ("Борис", 5)))
    serials = {"board": ("1111111", "2222222", "3333333"), "Аня": ("1119111", "1118111"),
               "Борис": ("2224222", "2225222"), "Щукин": ("3336333", "3339333")}
    notes = [NoteInfo(f"t{i}", i, zone, s, "trusted", 0.9, float(i))
             for i, (zone, s) in enumerate(((z, s) for z, ss in serials.items() for s in ss), 1)]
    view = table_view(state, notes)
    assert view.complete
    out = io.TextIOWrapper(io.BytesIO(), encoding=ASCII_FALLBACK)
    console = showable_console(file=out, width=80, height=40, color_system=None)
    from rich.live import Live

    with Live(render_dashboard(view, LiveStatus("ok", 25.0, "idle"), "ru", 80, 40), console=console,
              auto_refresh=False, transient=False):
        pass  # as live's frame loop draws it (app/frame_loop.py)
    out.flush()
    lines = out.buffer.getvalue().decode("ascii").splitlines()
    assert max(len(line) for line in lines) <= 80, "\n".join(lines)
    assert any("Anya" in line for line in lines) and any("Shchukin" in line for line in lines)
    widths = {len(line) for line in lines if line.startswith("|")}  # the panel's lines: one width
    assert len(widths) <= 1, "\n".join(lines)
