"""The live dashboard: a table view as a rich renderable (RULES.md §5); no printing here.

:func:`render_dashboard` is a pure function of a :class:`~.table_state.TableView`
and a :class:`LiveStatus` (camera, frames per second, OCR, the croupier's
prompt). It shows

* a header: hand number, dealer seat, playing position P (and whether it was
  drawn at random), options, camera state, frames per second, OCR state;
* the board: each note's serial with the digit at P highlighted, its rank and why;
* a panel per seat: its notes (a note still being read shows as *pending*
  with the digits read so far, never as a rank), ranks and why, the best hand
  so far in English and Russian, natural or modified, and the result; the
  winners' panels are highlighted;
* the settlement when chips were entered, what the showdown still waits for,
  and the keys.

>>> import io
>>> from rich.console import Console
>>> from dealer_assist.live.table_state import NoteInfo, TableState, table_view
>>> notes = [NoteInfo(f"t{i}", i, z, s, "trusted", 0.9, float(i)) for i, (z, s) in enumerate(
...     [("board", "9111111"), ("board", "8111111"), ("board", "7111111"),
...      ("A", "9444444"), ("A", "9555555"), ("B", "3222222"), ("B", "4333333")])]
>>> view = table_view(TableState(("A", "B"), position=1), notes)
>>> console = Console(file=io.StringIO(), width=120, color_system=None)
>>> console.print(render_dashboard(view, LiveStatus(camera="ok", fps=24.0)))
>>> out = console.file.getvalue()
>>> "Winner: A" in out, "Set (Сет)" in out
(True, True)
"""

from __future__ import annotations

from dataclasses import dataclass

from rich import box
from rich.columns import Columns
from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from dealer_assist.live.table_state import BOARD_NOTES, POCKET_NOTES, SeatView, Slot, TableView, chips_text
from dealer_assist.i18n import DASHBOARD_TEXT as _T
from dealer_assist.i18n import KEYS_HELP
from dealer_assist.render import LANGUAGES, class_name, note_reason, serial_text

__all__ = ["LiveStatus", "render_dashboard", "KEYS_HELP"]

@dataclass(frozen=True)
class LiveStatus:
    """What the header and the footer show besides the hand.

    Attributes:
        camera: ``"ok"``, ``"lost"`` (with ``camera_detail``: when the next retry is), ``"ended"`` or ``"starting"``.
        fps: display-loop frames per second.
        ocr: the OCR worker's state in a few words (``"idle"``, ``"reading"``, an error sentence).
        source: what the camera is (``"camera 0"``, a file name).
        message: feedback to the croupier's last key or command.
        prompt: the line being typed, when a key asked for one (``None``: no prompt).
        warning: a lasting warning (e.g. the camera sees the serials too small).
        frame: what the camera really gives and how it sees the table
            (``"1920x1080 · 2.3-3.3 px/mm"``), empty before the first frame.
        profile: the calibration profile's name.
    """

    camera: str = "starting"
    fps: float = 0.0
    ocr: str = "idle"
    source: str = ""
    camera_detail: str = ""
    message: str = ""
    prompt: str | None = None
    warning: str = ""
    frame: str = ""
    profile: str = ""


def _lang(lang: str) -> dict[str, str]:
    if lang not in LANGUAGES:
        raise ValueError(f"lang must be one of {', '.join(LANGUAGES)}, got {lang!r}.")
    return _T[lang]


def _header(view: TableView, status: LiveStatus, t: dict[str, str]) -> Text:
    s = view.state
    text = Text()
    text.append(f"{t['hand']} {s.hand_number}", style="bold")
    text.append(f" · {t['dealer']}: ")
    text.append(s.dealer, style="bold")
    text.append(" · ")
    text.append(f" {t['position']}={s.position} ", style="bold black on yellow")
    if s.position_random:
        text.append(f" ({t['random']})", style="bold yellow")
    text.append(f" · {t['joker']}: {t[s.zero_joker.value]} · {t['ties']}: {t[s.tie_policy.value]}")
    text.append(f" · {t['street']}: {t[view.street]}")
    text.append("\n")
    cam_style = {"ok": "green", "lost": "bold red", "ended": "yellow"}.get(status.camera, "yellow")
    text.append(f"{t['camera']}: ")
    text.append(status.camera + (f" ({status.camera_detail})" if status.camera_detail else ""), style=cam_style)
    if status.source:
        text.append(f" [{status.source}]", style="dim")
    if status.frame:
        text.append(f" {status.frame}", style="dim")
    text.append(f" · {status.fps:.1f} {t['fps']} · {t['ocr']}: {status.ocr}")
    if status.profile:
        text.append(f" · {status.profile}", style="dim")
    if status.warning:
        text.append(f"\n{status.warning}", style="bold yellow")
    return text


def _pending_text(slot: Slot, t: dict[str, str], n_window: int | None = None) -> Text:
    note = slot.note
    if slot.status == "pending" and note is not None and note.candidates:
        best, count = note.candidates[0]
        out = Text(best, style="dim italic")
        out.append(f"  {t['pending']} ({t['reads']}: {count})", style="yellow")
        return out
    if slot.status in ("unreadable", "out_of_format") and note is not None:
        out = Text(t[slot.status], style="yellow")
        if note.reason:
            out.append(f": {note.reason}", style="dim")
        return out
    return Text(t["face down"], style="dim")


def _note_row(slot: Slot, options, chosen, p: int, lang: str, t: dict[str, str]) -> tuple[Text, str, Text]:
    """(serial cell, rank, why) of a known or pending note."""
    if not slot.known:
        return _pending_text(slot, t), "", Text("")
    shown = chosen if chosen is not None else (options[0] if options else None)
    cell = serial_text(slot.serial, p, shown)
    if slot.source == "manual":
        cell.append(f" ({t['manual']})", style="cyan")
    if shown is None:
        return cell, "—", Text(note_reason(None, lang), style="dim")
    why = Text(note_reason(shown, lang))
    if chosen is None and options and len(options) > 1:
        why.append(f" (+{len(options) - 1})", style="dim")
    return cell, str(shown.rank), why


def _board(view: TableView, lang: str, t: dict[str, str]) -> RenderableType:
    table = Table(box=box.SIMPLE_HEAD, expand=False, show_edge=False, pad_edge=False)
    for col in (t["note"], t["serial"], t["rank"], t["why"]):
        table.add_column(col)
    p = view.state.position
    for i in range(BOARD_NOTES):
        if i < len(view.board):
            slot, options = view.board[i], view.board_options[i]
            cell, rank, why = _note_row(slot, options, options[0] if options else None, p, lang, t)
            table.add_row(str(i + 1), cell, rank, why)
        else:
            table.add_row(str(i + 1), Text(t["empty"], style="dim"), "", "")
    return Panel(table, title=f"{t['board']} · {t[view.street]}", title_align="left", border_style="blue")


def _result_text(seat: SeatView, t: dict[str, str]) -> Text | None:
    if seat.result is None:
        return None
    style = {"wins": "bold green", "splits": "bold green", "loses": "red", "folded": "dim",
             "not revealed": "yellow"}.get(seat.result, "")
    out = Text(t[seat.result], style=style)
    if seat.payout is not None and (seat.payout or seat.result != "folded"):
        out.append(f" · {t['won']} {chips_text(seat.payout)} {t['chips']}")
    return out


def _seat_panel(seat: SeatView, view: TableView, lang: str, t: dict[str, str]) -> Panel:
    p = view.state.position
    best = seat.best
    chosen: dict[int, object] = dict(zip(best.notes, best.options)) if best is not None else {}
    table = Table(box=None, show_header=False, pad_edge=False, expand=False)
    table.add_column(justify="right", style="dim")
    table.add_column()
    table.add_column(justify="right")
    table.add_column()
    known_i = 0
    for slot in seat.notes:
        options = ()
        pick = None
        if slot.known:
            options = seat.options[known_i] if known_i < len(seat.options) else ()
            pick = chosen.get(known_i)
            known_i += 1
        cell, rank, why = _note_row(slot, options, pick, p, lang, t)
        table.add_row(str(slot.index), cell, rank, why)
    for i in range(len(seat.notes), POCKET_NOTES):
        table.add_row(str(i + 1), Text(t["empty"], style="dim"), "", "")
    parts: list[RenderableType] = [table]
    if best is not None:
        ranks = "-".join(str(r) for r in best.ranks)
        line = Text(f"{t['best']}: ", style="bold")
        line.append(f"{ranks} {class_name(best.hand_class, lang)}", style="bold")
        line.append(f" · {t['natural'] if best.natural else t['modified']}")
        parts.append(line)
    result = _result_text(seat, t)
    if result is not None:
        parts.append(result)
    if seat.chips is not None and seat.payout is None:
        parts.append(Text(f"{t['chips']}: {seat.chips}", style="dim"))
    title = Text(seat.name, style="bold")
    if seat.is_dealer:
        title.append(f" ({t['dealer']})", style="yellow")
    if seat.folded:
        title.append(f" · {t['folded']}", style="dim")
    won = seat.name in view.winners
    border = "bold green" if won else ("dim" if seat.folded or not seat.in_hand else "white")
    return Panel(Group(*parts), title=title, title_align="left", border_style=border,
                 box=box.DOUBLE if won else box.ROUNDED)


def _settlement(view: TableView, t: dict[str, str]) -> RenderableType | None:
    st = view.settlement
    if st is None:
        return None
    table = Table(box=box.SIMPLE_HEAD, show_edge=False)
    for col in (t["pot"], t["chips"], t["eligible"], t["winners"]):
        table.add_column(col)
    for i, pot in enumerate(st.pots):
        table.add_row(t["main"] if i == 0 else f"{t['side']} {i}", str(pot.amount), ", ".join(pot.eligible) or "—",
                      ", ".join(pot.winners) or "—")
    parts: list[RenderableType] = [table]
    if st.carry:
        parts.append(Text(f"{t['carry']}: {chips_text(st.carry)}", style="bold yellow"))
    return Group(*parts)


def render_dashboard(view: TableView, status: LiveStatus, lang: str = "en", width: int | None = None) -> RenderableType:
    """The whole dashboard for ``view`` in ``lang`` (``"en"`` or ``"ru"``; ``ValueError`` otherwise).

    ``width`` (characters), when given, sets how many seat panels share a row.
    """
    t = _lang(lang)
    parts: list[RenderableType] = [Panel(_header(view, status, t), border_style="cyan"), _board(view, lang, t)]
    panels = [_seat_panel(s, view, lang, t) for s in view.seats]
    columns = 1 if width is not None and width < 80 else None
    parts.append(Columns(panels, equal=True, expand=True, width=None) if columns is None else Group(*panels))
    if view.complete:
        label = t["winners"] if len(view.winners) > 1 else t["winner"]
        parts.append(Text(f"{label}: {', '.join(view.winners) or t['nobody']}", style="bold green"))
    settlement = _settlement(view, t)
    if settlement is not None:
        parts.append(settlement)
    for line in view.problems:
        parts.append(Text(f"{t['problem']}: {line}", style="bold red"))
    if view.waiting and not view.complete:
        parts.append(Text(f"{t['waiting']}: " + " ".join(view.waiting), style="yellow"))
    if view.outside:
        serials = ", ".join(n.serial or "?" for n in view.outside)
        parts.append(Text(f"{t['outside']}: {serials}", style="dim"))
    if status.message:
        parts.append(Text(status.message, style="bold cyan"))
    if status.prompt is not None:
        parts.append(Text(f"> {status.prompt}█", style="bold"))
    parts.append(Text(KEYS_HELP[lang], style="dim"))
    return Group(*parts)
