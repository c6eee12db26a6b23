"""The full layout of the live dashboard (about 120x40 and up): a header panel, the board with each
note's rank and why, the seats' table, the settlement and the footer (see :mod:`.dashboard`)."""

from __future__ import annotations

from typing import Mapping

from rich import box
from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from dealer_assist.i18n import KEYS_HELP, after_colon, say
from dealer_assist.live.dashboard_cells import (
    LiveStatus,
    balances_line,
    chip_lines,
    footer_lines,
    header_lines,
    result_parts,
    pot_winners,
    rolls_over,
    state_text,
    street_word,
    waiting_lines,
    winner_line,
)
from dealer_assist.live.table_state import BOARD_NOTES
from dealer_assist.live.table_view import Slot, TableView, chips_text
from dealer_assist.render import alternatives_text, class_name, note_reason, pot_amount, serial_text


def _header(view: TableView, status: LiveStatus, lang: str, t: Mapping[str, str]) -> Text:
    return Text("\n").join(line for _, line in header_lines(view, status, lang, t))


def _note_row(slot: Slot, options, chosen, p: int, lang: str, t: Mapping[str, str], status: LiveStatus,
              best_known: bool = True) -> tuple[Text, str, Text]:
    """(serial cell, rank, why) of a note."""
    if not slot.known:
        return state_text(slot, status, lang, t), "", Text("")
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
    if not view.state.board_notes:  # Indian poker: no board (RULES.md §7.1)
        return Text(f"{t[view.state.game.value]} · {street_word(view, t)}", style="bold blue")
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
        result = tuple(x or Text("") for x in result_parts(seat, t, rolls_over=rolls_over(view)))
        rows = view.state.pocket_notes
        if rows == 1:  # Indian poker: the note is the hand; its rank is in the rank column
            hand = (hand[1],)
            result = (Text(" ").join(x for x in result if x.plain) if any(x.plain for x in result) else Text(""),)
        known_i = 0
        for i in range(rows):
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
        table.add_row(t["main"] if i == 0 else f"{t['side']} {i}", pot_amount(pot, t), ", ".join(pot.eligible) or "—",
                      pot_winners(pot, view, t))
    parts: list[RenderableType] = [table]
    if st.carry:
        parts.append(Text(f"{t['carry']}: {chips_text(st.carry)}", style="bold yellow"))
    return Group(*parts)


def full_layout(view: TableView, status: LiveStatus, lang: str, t: Mapping[str, str]) -> Group:
    parts: list[RenderableType] = [Panel(_header(view, status, lang, t), border_style="cyan"),
                                   _board(view, lang, t, status)]
    if any(s.in_hand for s in view.seats):
        parts.append(_seats_table(view, lang, t, status))
    out_seats = [s.name for s in view.seats if not s.in_hand]
    if out_seats:
        parts.append(Text(f"{t['not_in_hand']}: {', '.join(out_seats)}", style="dim"))
    if view.complete:
        parts.append(winner_line(view, t))
    settlement = _settlement(view, t)
    if settlement is not None:
        parts.append(settlement)
    for line in chip_lines(view, lang):
        parts.append(Text(f"{t['warning']}: {line}", style="bold yellow"))
    for line in view.problems:
        parts.append(Text(f"{t['problem']}: {after_colon(say(line, lang))}", style="bold red"))
    if view.waiting and not view.complete:
        lines = waiting_lines(view, status, lang, t)
        key = f" ({t['waiting_key']})" if status.watched else ""
        parts.append(Text(f"{t['waiting']}: " + after_colon(" ".join(lines)) + key, style="yellow"))
    if view.outside:
        serials = ", ".join(n.serial or "?" for n in view.outside)
        parts.append(Text(f"{t['outside']}: {serials}", style="dim"))
    parts.append(Text(t["legend_mark"], style="dim"))
    balances = balances_line(status, t)
    if balances is not None:
        parts.append(balances)
    parts.extend(footer_lines(view, status, lang, t, KEYS_HELP[lang]))
    return Group(*parts)
