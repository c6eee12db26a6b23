"""The compact layout of the live dashboard (an 80x24 terminal): one line per seat in play and the
board on one line, lines of lower priority left out when the terminal is too short (see :mod:`.dashboard`)."""

from __future__ import annotations

from typing import Mapping

from rich.console import Group
from rich.text import Text

from dealer_assist.i18n import KEYS_SHORT, after_colon, say
from dealer_assist.live.dashboard_cells import (
    LiveStatus,
    balances_line,
    chip_lines,
    footer_lines,
    header_lines,
    rendered_height,
    result_words,
    pot_winners,
    rolls_over,
    state_word,
    street_word,
    waiting_summary,
    winner_line,
)
from dealer_assist.live.table_state import BOARD_NOTES
from dealer_assist.live.table_view import Slot, TableView, chips_text
from dealer_assist.render import class_name, pot_amount, serial_text


def _compact_note(slot: Slot | None, options, chosen, p: int, t: Mapping[str, str], status: LiveStatus) -> Text:
    if slot is None:
        return Text(t["empty"], style="dim")
    if not slot.known:
        word, style = state_word(slot, status, t, short=True)
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
        for i in range(view.state.pocket_notes):
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
            if len(cells) > 1:
                hand.append(f"{ranks} {class_name(best.hand_class, lang)}", style="bold")
                hand.append(f" {nat}")
            else:  # Indian poker: the note is the hand, its rank is on the note
                hand.append(nat)
        rows.append((seat, cells, hand, result_words(seat, t, short=True, rolls_over=rolls_over(view))))
    note_w = max((c.cell_len for _, cells, _, _ in rows for c in cells), default=9)
    hand_w = max((h.cell_len for _, _, h, _ in rows), default=0)
    widest = max((r.cell_len for *_, r in rows if r is not None), default=0)
    if name_w + 2 + view.state.pocket_notes * (note_w + 1) + 2 + hand_w + 2 + widest > width:
        hand_w = 0  # results aligned only when every line still fits
    lines = []
    for seat, cells, hand, result in rows:
        won = seat.name in view.winners
        name = Text(seat.name.ljust(name_w), style="bold green" if won else ("dim" if seat.folded else "bold"))
        head = Text.assemble(name, "  ", *(part for k, c in enumerate(cells)
                                           for part in ((" ",) if k else ()) + (_pad(c, note_w),)))
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
    if not view.state.board_notes:  # Indian poker: no board (RULES.md §7.1)
        return Text(f"{t[view.state.game.value]} ({street_word(view, t)})", style="bold blue")
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
        # a side pot's number kept off its chips: "side 1 30" read as "side 130" (seventh new-user trial M)
        name = t["main"] if i == 0 else f"{t['side_pot']} {i}:"
        parts.append(f"{name} {pot_amount(pot, t)} → {pot_winners(pot, view, t)}")
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
    parts.extend((prio, False, line) for prio, line in header_lines(view, status, lang, t, compact=True))
    parts.append((0, False, _compact_board(view, lang, t, status)))
    parts.extend((0, True, line) for line in _seat_lines(view, lang, t, status, width, abbreviate))
    out_seats = [s.name for s in view.seats if not s.in_hand]
    if out_seats:
        parts.append((4, False, Text(f"{t['not_in_hand']}: {', '.join(out_seats)}", style="dim")))
    if view.complete:
        parts.append((0, False, winner_line(view, t)))
    pots = _compact_pots(view, t)
    if pots is not None:
        parts.append((1, False, pots))
    for line in chip_lines(view, lang):
        parts.append((1, False, Text(f"{t['warning']}: {line}", style="bold yellow")))
    for line in view.problems:
        parts.append((1, False, Text(f"{t['problem']}: {after_colon(say(line, lang))}", style="bold red")))
    if view.waiting and not view.complete:
        summary = waiting_summary(view, status, lang, t)
        if summary:
            key = f" · {t['waiting_key']}" if status.watched else ""
            parts.append((1, False, Text(f"{t['waiting']}: {after_colon(summary)}{key}", style="yellow")))
    abbreviated = abbreviate and any(s.best is not None for s in view.seats if s.in_hand)
    legend = t["legend"] if abbreviated else t["legend_mark"]
    if any(slot.source == "manual" for slot in view.all_slots):
        legend += "; " + t["legend_typed"]
    parts.append((2 if legend != t["legend_mark"] else 5, False, Text(legend, style="dim")))
    balances = balances_line(status, t)
    if balances is not None:
        parts.append((3, False, balances))
    parts.extend((0, False, line) for line in footer_lines(view, status, lang, t, KEYS_SHORT[lang]))
    return parts


def compact_layout(view: TableView, status: LiveStatus, lang: str, t: Mapping[str, str], width: int,
             height: int | None) -> Group:
    """The compact layout, within ``height`` lines: "natural"/"modified" in full when every seat
    still fits one line, else abbreviated with a legend; lines of lower priority left out first."""
    in_hand = sum(1 for s in view.seats if s.in_hand)
    abbreviate = len(_seat_lines(view, lang, t, status, width, False)) > in_hand
    lines = [(prio, seat, line, rendered_height(line, width))
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
