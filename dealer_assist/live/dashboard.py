"""The live dashboard: a table view as a rich renderable (RULES.md §5); no printing here.

:func:`render_dashboard` is a pure function of a :class:`~.table_state.TableView`,
a :class:`LiveStatus` (camera, frames per second, OCR, the croupier's prompt)
and the terminal's size. It picks the fullest layout that fits:

* **full** (about 120x40 and up): a header (hand number, dealer, playing position
  P and whether it was drawn at random, options, camera, frames per second, OCR,
  the calibration profile); the board with each note's rank and why; a panel per
  seat with its notes, ranks and why, the best hand so far in English and
  Russian, natural or modified, and the result; the settlement;
* **compact** (an 80x24 terminal): one line per seat in play -- both notes, the
  best hand and the result -- and the board on one line;

and in both the winner line, what the showdown waits for, the answer to the
croupier's last command, the prompt and the keys, which are never cut off. The
digit at P is marked ``123[4]567``, which a terminal without colours shows too.

A note's state is said plainly: *face down* (a note-shaped thing with no serial
seen: calm, not a failure), *being read* (the camera has read it but not often
enough to trust it; it never plays), *cannot be read* (its reads disagree, or
are not 7 digits: type it), *not read* (the recording ended first: type it).

The screen shown while the program loads is :mod:`~.startup`'s.

>>> import io
>>> from rich.console import Console
>>> from dealer_assist.live.table_state import NoteInfo, TableState
>>> from dealer_assist.live.table_view import table_view
>>> notes = [NoteInfo(f"t{i}", i, z, s, "trusted", 0.9, float(i)) for i, (z, s) in enumerate(
...     [("board", "9111111"), ("board", "8111111"), ("board", "7111111"),
...      ("A", "9444444"), ("A", "9555555"), ("B", "3222222"), ("B", "4333333")])]
>>> view = table_view(TableState(("A", "B"), position=1), notes)
>>> console = Console(file=io.StringIO(), width=120, color_system=None)
>>> console.print(render_dashboard(view, LiveStatus(camera="ok", fps=24.0)))
>>> out = console.file.getvalue()
>>> "Winner: A" in out, "Set (Сет)" in out, "[9]444444" in out
(True, True, True)
"""

from __future__ import annotations

import io
import re
from dataclasses import dataclass
from typing import Mapping

from rich import box
from rich.console import Console, Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from dealer_assist.i18n import KEYS_HELP, KEYS_SHORT, say, say_place, texts
from dealer_assist.live.table_state import BOARD_NOTES, POCKET_NOTES
from dealer_assist.live.table_view import SeatView, Slot, TableView, chips_text
from dealer_assist.render import alternatives_text, chip_warnings, class_name, note_reason, serial_text

__all__ = ["LiveStatus", "render_dashboard", "KEYS_HELP", "FULL_SIZE"]

#: The smallest terminal (columns, rows) the full layout is tried in; smaller ones get the compact one.
FULL_SIZE = (110, 30)

#: The reason a read that found no note at a known note's place gives (live/tracker.py): the note
#: is there, but no serial print shows -- face down, or covered.
_NOT_FOUND = "the note was not found in this frame"


@dataclass(frozen=True)
class LiveStatus:
    """What the header and the footer show besides the hand.

    Attributes:
        camera: ``"ok"``, ``"lost"`` (with ``camera_detail``: when the next retry is), ``"ended"`` or ``"starting"``.
        fps: display-loop frames per second.
        ocr: the OCR worker's state (``"idle"``, ``"reading"``, ``"reading, 2 queued"``, ``"loading"``,
            ``"off (...)"``, ``"error: <sentence>"``).
        source: what the camera is (``"camera 0"``, a file name).
        message: the answer to the croupier's last key or command.
        prompt: the line being typed, when a key asked for one (``None``: no prompt).
        warning: a lasting warning (e.g. the camera sees the serials too small).
        frame: what the camera really gives and how it sees the table
            (``"1920x1080 · 2.3-3.3 px/mm"``), empty before the first frame.
        profile: the calibration profile's name.
        recording_ended: the recording has ended: no further frame will read a note.
        trust_k: how many alike reads make a serial trusted (said for notes being read).
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
    recording_ended: bool = False
    trust_k: int = 2


# ----------------------------------------------------------------------------- words


def _ocr_words(ocr: str, t: Mapping[str, str], lang: str) -> str:
    """The OCR state in ``lang``."""
    if ocr == "idle":
        return t["ocr_idle"]
    if ocr == "loading":
        return t["ocr_loading"]
    m = re.fullmatch(r"reading(?:, (\d+) queued)?", ocr)
    if m:
        return t["ocr_reading"] + (", " + t["ocr_queued"].format(n=m.group(1)) if m.group(1) else "")
    if ocr.startswith("off"):
        return t["ocr_off"]
    if ocr.startswith("error: "):
        return f"{t['ocr_error']}: {say(ocr[7:], lang)}"
    return say(ocr, lang)


def _camera_words(status: LiveStatus, t: Mapping[str, str], lang: str) -> str:
    state = t.get(f"cam_{status.camera}", status.camera)
    detail = status.camera_detail
    if status.camera == "ended" and detail == "end of the recording":
        detail = ""  # "recording ended (end of the recording)" says it twice
    return state + (f" ({say(detail, lang)})" if detail else "")


def _face_down(slot: Slot) -> bool:
    """A note whose serial was never seen: ``blank``, or an ``unreadable`` one whose reads only
    found no serial print where it lies (face down, or a hand over it)."""
    note = slot.note
    if slot.status == "blank":
        return True
    return slot.status == "unreadable" and note is not None and note.reason == _NOT_FOUND and not note.candidates


def _state_word(slot: Slot, status: LiveStatus, t: Mapping[str, str], short: bool = False) -> tuple[str, str]:
    """(a few words, style) for a note without a serial that plays (``short``: as few as can be)."""
    if _face_down(slot):
        covered = slot.status == "unreadable" and not short
        return (t["st_face_down_covered"] if covered else t["face down"]), "dim"
    if slot.status == "pending":
        return (t["st_not_read"], "yellow") if status.recording_ended else (t["st_pending"], "cyan")
    if slot.status in ("unreadable", "out_of_format"):
        return t[slot.status], "yellow"
    return t["face down"], "dim"


def _state_text(slot: Slot, status: LiveStatus, lang: str, t: Mapping[str, str]) -> Text:
    """A note without a serial that plays, with why and what to do (the full layout)."""
    word, style = _state_word(slot, status, t)
    note = slot.note
    out = Text()
    if slot.status == "pending" and note is not None and note.candidates:
        best, count = note.candidates[0]
        out.append(best + "?", style="dim italic")
        out.append("  ")
    out.append(word, style=style)
    if _face_down(slot):
        return out
    if slot.status == "pending" and note is not None:
        if status.recording_ended:
            out.append(f": {t['not_read_why'].format(slot=slot.label)}", style="dim")
        else:
            count = note.candidates[0][1] if note.candidates else 0
            out.append(f" ({t['reads']}: {count}; {t['pending_why'].format(k=status.trust_k)})", style="dim")
    elif slot.status in ("unreadable", "out_of_format") and note is not None:
        if note.reason:
            out.append(f": {say(note.reason, lang)}", style="dim")
        out.append(f"; {t['unreadable_why'].format(slot=slot.label)}", style="dim")
    return out


def _waiting_lines(view: TableView, status: LiveStatus, lang: str, t: Mapping[str, str]) -> list[str]:
    """What the showdown waits for, in ``lang`` (a note being read when the recording has ended says
    that it will not be read any more, and how to type it)."""
    out = []
    for line in view.waiting:
        m = re.fullmatch(r"(?P<slot>.+?): the camera is still reading this note\.", line)
        if m and status.recording_ended:
            slot = m.group("slot")
            out.append(t["not_read_waiting"].format(place=say_place(slot, lang), slot=slot))
        else:
            out.append(say(line, lang))
    return out


def _waiting_summary(view: TableView, status: LiveStatus, lang: str, t: Mapping[str, str]) -> str:
    """What the showdown waits for, in one line (the compact layout)."""
    if any(line.startswith("Fewer than 2 seats") for line in view.waiting):
        return say(view.waiting[0], lang)
    parts = []
    known = len(view.board_serials)
    if known < BOARD_NOTES:
        parts.append(f"{t['board notes']} {known}/{BOARD_NOTES}")
    for slot in view.pending:
        label = say_place(slot.label, lang)
        if status.recording_ended:
            parts.append(f"{label} {t['st_not_read']} ({t['unreadable_why'].format(slot=slot.label)})")
        else:
            parts.append(f"{label} {t['st_pending']}")
    if not view.state.showdown_called:
        for seat in view.seats:
            if seat.in_hand and not seat.folded and not seat.revealed:
                parts.append(f"{seat.name} {len(seat.serials)}/{POCKET_NOTES}")
    for line in view.waiting:
        if line.startswith("The serial "):
            parts.append(say(line, lang))
    return " · ".join(parts)


def _chip_lines(view: TableView, lang: str) -> list[str]:
    if not view.state.chips:
        return []
    contributions = {s.name: s.chips for s in view.seats if s.in_hand}
    return chip_warnings(contributions, view.winners if view.settlement is not None else (), lang)


def _winner_line(view: TableView, t: Mapping[str, str]) -> Text:
    label = t["winners"] if len(view.winners) > 1 else t["winner"]
    if len(view.winners) > 1 and view.state.tie_policy.value == "rollover":
        label = t["tied"]
    return Text(f"{label}: {', '.join(view.winners) or t['nobody']}", style="bold green")


def _result_words(seat: SeatView, t: Mapping[str, str], short: bool = False) -> Text | None:
    """The seat's result and what it receives (``WINS · gets 75``), or its chips before the showdown."""
    result, payout = _result_parts(seat, t, short)
    if result is None:
        return payout
    if payout is not None:
        result.append(" · ")
        result.append_text(payout)
    return result


def _result_parts(seat: SeatView, t: Mapping[str, str], short: bool = False) -> tuple[Text | None, Text | None]:
    if seat.result is None:
        return None, (Text(t["seat_chips"].format(n=seat.chips), style="dim") if seat.chips is not None else None)
    style = {"wins": "bold green", "splits": "bold green", "loses": "red", "folded": "dim",
             "not revealed": "yellow"}.get(seat.result, "")
    key = {"wins": "wins_banner", "splits": "splits_banner", "not revealed": "hidden"}.get(seat.result, seat.result)
    payout = None
    if seat.payout is not None and (seat.payout or (seat.result != "folded" and not short)):
        won = chips_text(seat.payout)
        payout = Text(t["won_short"].format(n=won) if short else f"{t['won']} {won} {t['chips']}")
    return Text(t[key], style=style), payout


# ----------------------------------------------------------------------------- the full layout


def _header_lines(view: TableView, status: LiveStatus, lang: str, t: Mapping[str, str],
                  compact: bool = False) -> list[tuple[int, Text]]:
    """The header's lines with their priority (see :func:`_compact_parts`): the hand, the dealer,
    P and the options; the camera, the OCR and the profile; what the camera gives; a warning."""
    s = view.state
    first = Text()
    first.append(f"{t['hand']} {s.hand_number}", style="bold")
    first.append(f" · {t['dealer']}: ")
    first.append(s.dealer, style="bold")
    first.append(" · ")
    first.append(f"P={s.position}" if compact else f" P={s.position} ", style="bold black on yellow")
    if s.position_random:
        first.append(f" ({t['random']})", style="bold yellow")
    first.append(f" · {t['zero_joker']}: {t[s.zero_joker.value]} · {t['tie_policy']}: {t[s.tie_policy.value]}")
    if not compact:
        first.append(f" · {t['street']}: {t[view.street]}")
    second = Text()
    cam_style = {"ok": "green", "lost": "bold red", "ended": "yellow"}.get(status.camera, "yellow")
    second.append(f"{t['camera']}: ")
    second.append(_camera_words(status, t, lang), style=cam_style)
    if status.source and not compact:
        second.append(f" [{say(status.source, lang)}]", style="dim")
    frame = Text(status.frame, style="dim")
    if status.frame and not compact:
        second.append(" · ")
        second.append_text(frame)
    if status.camera != "ended":  # no frames come any more: a frame rate would be stale
        second.append(f" · {status.fps:.1f} {t['fps']}")
    second.append(f" · {t['ocr']}: {_ocr_words(status.ocr, t, lang)}")
    if status.profile:
        second.append(f" · {t['profile']}: ")
        second.append(status.profile, style="bold")
    lines = [(0, first), (3, second)]
    if status.frame and compact:
        lines.append((5, frame))
    if status.warning:
        lines.append((1, Text(say(status.warning, lang), style="bold yellow")))
    return lines


def _header(view: TableView, status: LiveStatus, lang: str, t: Mapping[str, str]) -> Text:
    return Text("\n").join(line for _, line in _header_lines(view, status, lang, t))


def _note_row(slot: Slot, options, chosen, p: int, lang: str, t: Mapping[str, str], status: LiveStatus,
              best_known: bool = True) -> tuple[Text, str, Text]:
    """(serial cell, rank, why) of a note."""
    if not slot.known:
        return _state_text(slot, status, lang, t), "", Text("")
    shown = chosen if chosen is not None else (options[0] if options else None)
    cell = serial_text(slot.serial, p, shown, marked=True)
    if slot.source == "manual":
        cell.append(f" ({t['manual']})", style="cyan")
    if shown is None:
        return cell, "—", Text(note_reason(None, lang), style="dim")
    why = Text(note_reason(shown, lang))
    why.append(alternatives_text(options, chosen, lang, best_known), style="dim")
    return cell, str(shown.rank), why


def _board(view: TableView, lang: str, t: Mapping[str, str], status: LiveStatus) -> RenderableType:
    table = Table(box=box.SIMPLE_HEAD, expand=False, show_edge=False, pad_edge=False)
    for col in (t["note_number"], t["serial"], t["rank"], t["why"]):
        table.add_column(col)
    p = view.state.position
    for i in range(BOARD_NOTES):
        if i < len(view.board):
            slot, options = view.board[i], view.board_options[i]
            cell, rank, why = _note_row(slot, options, options[0] if options else None, p, lang, t, status)
            table.add_row(str(i + 1), cell, rank, why)
        else:
            table.add_row(str(i + 1), Text(t["empty"], style="dim"), "", "")
    table.title = f"{t['board']} · {t[view.street]}"
    table.title_justify = "left"
    table.title_style = "bold blue"
    return table


def _seats_table(view: TableView, lang: str, t: Mapping[str, str], status: LiveStatus) -> Table:
    """Every seat in the hand, two rows each (as ``eval`` shows a showdown): its notes with rank and
    why, its best hand so far in English and Russian, natural or modified, and its result."""
    p = view.state.position
    table = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False, expand=False, padding=(0, 1))
    for col in (t["player"], t["note_number"], t["serial"], t["rank"], t["why"], t["best_hand"], t["result"]):
        table.add_column(col)
    for seat in view.seats:
        if not seat.in_hand:
            continue
        best = seat.best
        chosen: dict[int, object] = dict(zip(best.notes, best.options)) if best is not None else {}
        won = seat.name in view.winners
        name = Text(seat.name, style="bold green" if won else ("dim" if seat.folded else "bold"))
        second_name = Text(f"({t['dealer']})", style="yellow") if seat.is_dealer else Text("")
        hand = (Text(f"{'-'.join(str(r) for r in best.ranks)} {class_name(best.hand_class, lang)}", style="bold"),
                Text(t["natural"] if best.natural else t["modified"])) if best is not None else (Text(""), Text(""))
        result = tuple(x or Text("") for x in _result_parts(seat, t))
        known_i = 0
        for i in range(POCKET_NOTES):
            slot = seat.notes[i] if i < len(seat.notes) else None
            if slot is None:
                cell, rank, why = Text(t["empty"], style="dim"), "", Text("")
            else:
                options, pick = (), None
                if slot.known:
                    options = seat.options[known_i] if known_i < len(seat.options) else ()
                    pick = chosen.get(known_i)
                    known_i += 1
                cell, rank, why = _note_row(slot, options, pick, p, lang, t, status, best_known=best is not None)
            table.add_row(name if i == 0 else second_name, str(i + 1), cell, rank, why, hand[i], result[i])
    return table


def _settlement(view: TableView, t: Mapping[str, str]) -> RenderableType | None:
    st = view.settlement
    if st is None:
        return None
    table = Table(box=box.SIMPLE_HEAD, show_edge=False)
    for col in (t["pot"], t["amount"], t["eligible_column"], t["winners"]):
        table.add_column(col)
    for i, pot in enumerate(st.pots):
        table.add_row(t["main"] if i == 0 else f"{t['side']} {i}", str(pot.amount), ", ".join(pot.eligible) or "—",
                      ", ".join(pot.winners) or "—")
    parts: list[RenderableType] = [table]
    if st.carry:
        parts.append(Text(f"{t['carry']}: {chips_text(st.carry)}", style="bold yellow"))
    return Group(*parts)


def _footer(view: TableView, status: LiveStatus, lang: str, t: Mapping[str, str], keys: str) -> list[Text]:
    """The lines every layout ends with: the answer to the last command, the prompt, the keys."""
    out = []
    if status.message:
        out.append(Text(say(status.message, lang), style="bold cyan"))
    if status.prompt is not None:
        out.append(Text(f"> {status.prompt}█", style="bold"))
    out.append(Text(keys, style="dim"))
    return out


def _full(view: TableView, status: LiveStatus, lang: str, t: Mapping[str, str]) -> Group:
    parts: list[RenderableType] = [Panel(_header(view, status, lang, t), border_style="cyan"),
                                   _board(view, lang, t, status)]
    if any(s.in_hand for s in view.seats):
        parts.append(_seats_table(view, lang, t, status))
    out_seats = [s.name for s in view.seats if not s.in_hand]
    if out_seats:
        parts.append(Text(f"{t['not_in_hand']}: {', '.join(out_seats)}", style="dim"))
    if view.complete:
        parts.append(_winner_line(view, t))
    settlement = _settlement(view, t)
    if settlement is not None:
        parts.append(settlement)
    for line in _chip_lines(view, lang):
        parts.append(Text(f"{t['warning']}: {line}", style="bold yellow"))
    for line in view.problems:
        parts.append(Text(f"{t['problem']}: {say(line, lang)}", style="bold red"))
    if view.waiting and not view.complete:
        lines = _waiting_lines(view, status, lang, t)
        parts.append(Text(f"{t['waiting']}: " + " ".join(lines), style="yellow"))
    if view.outside:
        serials = ", ".join(n.serial or "?" for n in view.outside)
        parts.append(Text(f"{t['outside']}: {serials}", style="dim"))
    parts.append(Text(t["legend_mark"], style="dim"))
    parts.extend(_footer(view, status, lang, t, KEYS_HELP[lang]))
    return Group(*parts)


# ----------------------------------------------------------------------------- the compact layout


def _compact_note(slot: Slot | None, options, chosen, p: int, t: Mapping[str, str], status: LiveStatus) -> Text:
    if slot is None:
        return Text(t["empty"], style="dim")
    if not slot.known:
        word, style = _state_word(slot, status, t, short=True)
        return Text(word, style=style)
    shown = chosen if chosen is not None else (options[0] if options else None)
    cell = serial_text(slot.serial, p, shown, marked=True)
    digit = int(slot.serial[p - 1])
    if shown is None:
        cell.append("×", style="dim")  # a dead note
    elif shown.rank != digit:
        cell.append(f"→{shown.rank}", style="bold")
    if slot.source == "manual":
        cell.append("*", style="cyan")
    return cell


def _pad(text: Text, width: int) -> Text:
    out = text.copy()
    if out.cell_len < width:
        out.append(" " * (width - out.cell_len))
    return out


def _seat_lines(view: TableView, lang: str, t: Mapping[str, str], status: LiveStatus, width: int,
                abbreviate: bool) -> list[Text]:
    """One line per seat in the hand (two when it does not fit): name, both notes, best hand, result."""
    p = view.state.position
    seats = [s for s in view.seats if s.in_hand]
    name_w = max((len(s.name) for s in seats), default=2)
    rows = []
    for seat in seats:
        best = seat.best
        chosen = dict(zip(best.notes, best.options)) if best is not None else {}
        cells, known_i = [], 0
        for i in range(POCKET_NOTES):
            slot = seat.notes[i] if i < len(seat.notes) else None
            options, pick = (), None
            if slot is not None and slot.known:
                options = seat.options[known_i] if known_i < len(seat.options) else ()
                pick = chosen.get(known_i)
                known_i += 1
            cells.append(_compact_note(slot, options, pick, p, t, status))
        hand = Text()
        if best is not None:
            ranks = "-".join(str(r) for r in best.ranks)
            nat = (t["nat"] if best.natural else t["mod"]) if abbreviate else (
                t["natural"] if best.natural else t["modified"])
            hand.append(f"{ranks} {class_name(best.hand_class, lang)}", style="bold")
            hand.append(f" {nat}")
        rows.append((seat, cells, hand, _result_words(seat, t, short=True)))
    note_w = max((c.cell_len for _, cells, _, _ in rows for c in cells), default=9)
    hand_w = max((h.cell_len for _, _, h, _ in rows), default=0)
    widest = max((r.cell_len for *_, r in rows if r is not None), default=0)
    if name_w + 2 + 2 * note_w + 1 + 2 + hand_w + 2 + widest > width:
        hand_w = 0  # results aligned only when every line still fits
    lines = []
    for seat, cells, hand, result in rows:
        won = seat.name in view.winners
        name = Text(seat.name.ljust(name_w), style="bold green" if won else ("dim" if seat.folded else "bold"))
        head = Text.assemble(name, "  ", _pad(cells[0], note_w), " ", _pad(cells[1], note_w))
        line = head.copy()
        if hand.cell_len:
            line.append("  ")
            line.append_text(_pad(hand, hand_w) if result is not None else hand)
        if result is not None:
            line.append("  ")
            line.append_text(result)
        if line.cell_len <= width:
            lines.append(line.rstrip() or line)
            continue
        # two lines: the notes (and the hand when it fits), then the rest, indented
        indent = " " * (name_w + 2)
        first = head.copy()
        rest = Text(indent)
        if hand.cell_len and first.cell_len + 2 + hand.cell_len <= width:
            first.append("  ")
            first.append_text(hand)
        elif hand.cell_len:
            rest.append_text(hand)
            rest.append("  ")
        if result is not None:
            rest.append_text(result)
        lines.append(first)
        if rest.plain.strip():
            lines.append(rest)
    return lines


def _compact_board(view: TableView, lang: str, t: Mapping[str, str], status: LiveStatus) -> Text:
    p = view.state.position
    line = Text(f"{t['board']} ({t[view.street]}): ", style="bold blue")
    for i in range(BOARD_NOTES):
        if i:
            line.append("  ")
        if i < len(view.board):
            options = view.board_options[i]
            line.append_text(_compact_note(view.board[i], options, options[0] if options else None, p, t, status))
        else:
            line.append(t["empty"], style="dim")
    return line


def _compact_pots(view: TableView, t: Mapping[str, str]) -> Text | None:
    st = view.settlement
    if st is None:
        return None
    parts = []
    for i, pot in enumerate(st.pots):
        name = t["main"] if i == 0 else f"{t['side']} {i}"
        parts.append(f"{name} {pot.amount} → {', '.join(pot.winners) or '—'}")
    text = Text(f"{t['pots']}: " + " · ".join(parts))
    if st.carry:
        text.append(f" · {t['carry']}: {chips_text(st.carry)}", style="bold yellow")
    return text


def _compact_parts(view: TableView, status: LiveStatus, lang: str, t: Mapping[str, str], width: int,
                   abbreviate: bool) -> list[tuple[int, bool, Text]]:
    """The compact layout's lines as (priority, is a seat's line, line): priority 0 is always shown
    (the header's first line, the board, every seat in play, the winner, the answer to the last
    command, the prompt, the keys); higher ones are left out first when the terminal is too short."""
    parts: list[tuple[int, bool, Text]] = []
    parts.extend((prio, False, line) for prio, line in _header_lines(view, status, lang, t, compact=True))
    parts.append((0, False, _compact_board(view, lang, t, status)))
    parts.extend((0, True, line) for line in _seat_lines(view, lang, t, status, width, abbreviate))
    out_seats = [s.name for s in view.seats if not s.in_hand]
    if out_seats:
        parts.append((4, False, Text(f"{t['not_in_hand']}: {', '.join(out_seats)}", style="dim")))
    if view.complete:
        parts.append((0, False, _winner_line(view, t)))
    pots = _compact_pots(view, t)
    if pots is not None:
        parts.append((1, False, pots))
    for line in _chip_lines(view, lang):
        parts.append((1, False, Text(f"{t['warning']}: {line}", style="bold yellow")))
    for line in view.problems:
        parts.append((1, False, Text(f"{t['problem']}: {say(line, lang)}", style="bold red")))
    if view.waiting and not view.complete:
        summary = _waiting_summary(view, status, lang, t)
        if summary:
            parts.append((1, False, Text(f"{t['waiting']}: {summary}", style="yellow")))
    abbreviated = abbreviate and any(s.best is not None for s in view.seats if s.in_hand)
    legend = t["legend"] if abbreviated else t["legend_mark"]
    if any(slot.source == "manual" for slot in view.all_slots):
        legend += "; " + t["legend_typed"]
    parts.append((2 if legend != t["legend_mark"] else 5, False, Text(legend, style="dim")))
    parts.extend((0, False, line) for line in _footer(view, status, lang, t, KEYS_SHORT[lang]))
    return parts


def _height(renderable: RenderableType, width: int) -> int:
    """Lines ``renderable`` takes in a terminal ``width`` columns wide."""
    console = Console(file=io.StringIO(), width=width, color_system=None, legacy_windows=False)
    return len(console.render_lines(renderable, console.options.update(width=width), pad=False))


def _compact(view: TableView, status: LiveStatus, lang: str, t: Mapping[str, str], width: int,
             height: int | None) -> Group:
    """The compact layout, within ``height`` lines: "natural"/"modified" in full when every seat
    still fits one line, else abbreviated with a legend; lines of lower priority left out first."""
    in_hand = sum(1 for s in view.seats if s.in_hand)
    abbreviate = len(_seat_lines(view, lang, t, status, width, False)) > in_hand
    lines = [(prio, seat, line, _height(line, width))
             for prio, seat, line in _compact_parts(view, status, lang, t, width, abbreviate)]
    if height is not None:
        total = sum(h for *_, h in lines)
        for level in (5, 4, 3, 2, 1):
            if total <= height:
                break
            total -= sum(h for prio, _, _, h in lines if prio == level)
            lines = [x for x in lines if x[0] != level]
        if total > height:
            # the seats themselves do not fit (a tiny terminal): as many as there is room for, and a line saying so
            seat_rows = [i for i, x in enumerate(lines) if x[1]]
            drop: set[int] = set()
            while seat_rows and total + 1 > height:
                i = seat_rows.pop()
                drop.add(i)
                total -= lines[i][3]
            if drop:
                at = min(drop)
                more = (0, False, Text(t["more_lines"].format(n=len(drop)), style="bold yellow"), 1)
                lines = [x for i, x in enumerate(lines) if i not in drop]
                lines.insert(at, more)
    return Group(*(line for _, _, line, _ in lines))


# ----------------------------------------------------------------------------- entry points


def render_dashboard(view: TableView, status: LiveStatus, lang: str = "en", width: int | None = None,
                     height: int | None = None) -> RenderableType:
    """The whole dashboard for ``view`` in ``lang`` (``"en"`` or ``"ru"``; ``ValueError`` otherwise).

    ``width`` and ``height`` (characters, lines): the terminal's size. The full layout is used when
    it fits (or when the size is not given); else the compact one, which never exceeds ``height``.
    """
    t = texts(lang)
    if width is None:
        return _full(view, status, lang, t)
    if width >= FULL_SIZE[0] and (height is None or height >= FULL_SIZE[1]):
        full = _full(view, status, lang, t)
        if height is None or _height(full, width) <= height:
            return full
    return _compact(view, status, lang, t, width, height)
