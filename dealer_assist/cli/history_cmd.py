"""``dealer-assist history``: list the hands ``dealer-assist live`` logged, and show one again.

Wiring only: the log format is :mod:`dealer_assist.live.history`; a hand is
shown again by evaluating its recorded FORMATS.md §1 input with the rules
engine (:mod:`dealer_assist.rules`) and :func:`dealer_assist.render.render_showdown`.
"""

from __future__ import annotations

import dataclasses
import sys
from pathlib import Path
from typing import Optional, Sequence

import typer
from rich.table import Table
from rich.text import Text

from dealer_assist.cli.app import app
from dealer_assist.cli.club_cmd import checked_table, club_history, club_label, club_option, table_option
from dealer_assist.cli.options import LOG_DEFAULT, fail, lang_option, resolve_lang, shown_default, since_time
from dealer_assist.cli.output import Warnings, json_line, output_errors, print_warnings, report_console
from dealer_assist.i18n import Lang, after_colon, say, texts
from dealer_assist.render import name_text, render_showdown, safe_text

__all__ = ["history_command"]



def _cell(value: object) -> Text:
    """A logged field as a table cell: empty when absent or null; shown as it is written (a log
    is data: ``[red]`` is not rich markup, and terminal control characters are escaped visibly)."""
    return name_text("" if value is None else value)


@app.command("history")
def history_command(
    log: Optional[Path] = typer.Option(None, "--log", metavar="FILE",
                                       help="The hand log. " + shown_default(LOG_DEFAULT)),
    show: Optional[int] = typer.Option(None, "--show", metavar="N", min=1,
                                       help="Show hand N of the list (the # column) again, evaluated anew."),
    as_json: bool = typer.Option(False, "--json", help="Print the records (or record N) as JSON Lines."),
    lang: Optional[Lang] = lang_option(help="Language."),
    club: Optional[str] = club_option(help="Find hands in the club's database (PostgreSQL URL, as for live --club) "
                                           "instead of one log."),
    table: Optional[str] = table_option("With --club: only this table's hands."),
    since: Optional[str] = typer.Option(None, "--since", metavar="TIME",
                                        help="With --club: hands finished at or after TIME (as for ledger)."),
    until: Optional[str] = typer.Option(None, "--until", metavar="TIME",
                                        help="With --club: hands finished before TIME."),
    serial: Optional[str] = typer.Option(None, "--serial", metavar="DIGITS",
                                         help="With --club: hands in which a note had this 7-digit serial."),
) -> None:
    """List the hands logged by `dealer-assist live`, or show one again (--show N)."""
    from dealer_assist.live.history import HistoryError, default_log_path, iter_log

    lang = resolve_lang(lang)
    warnings = Warnings()
    err = report_console(stderr=True)
    if club is not None:
        if log is not None:
            fail("--club and --log name two sources; give one of them.")
        records = iter(club_history(club, checked_table(table), since_time(since), since_time(until, "--until"),
                                    serial))
        path = club_label(club, table, lang.value)
    else:
        if any(v is not None for v in (table, since, until, serial)):
            fail("--table, --since, --until and --serial search a club; give --club URL too.")
        path = log if log is not None else default_log_path()
        # the log is read one record at a time: the list keeps a row of text per hand, --json and --show no more
        records = iter_log(path, warnings)

    def warn_all() -> None:
        print_warnings(err, warnings.kept, total=warnings.total,
                       what="line(s) of the log that are not hand records; skipped.", lang=str(lang))

    try:
        if show is not None:
            from dealer_assist.ledger import LedgerBuilder

            chosen, count = None, 0
            before = LedgerBuilder()  # the hands before it: what they carried into it (RULES.md §4 rollover)
            for record in records:
                count += 1
                if count < show:
                    before.add(record)
                elif count == show:
                    chosen = record
            warn_all()
            if chosen is None:
                fail(f"The log {path} holds {count} hand(s); there is no hand {show}.", lang=lang)
            with output_errors():
                _print_history([chosen], path, show, as_json, lang, carried=before.carry_into(chosen.get("session")))
        elif as_json:
            with output_errors():
                for record in records:
                    sys.stdout.write(json_line(record))
                sys.stdout.flush()
            warn_all()
        else:
            club_rows = isinstance(path, str)  # a club's hands: each names its table
            rows = [_row(i, r, club_rows, texts(lang)) for i, r in enumerate(records, 1)]
            warn_all()
            with output_errors():
                _print_table(rows, path, lang, club_rows)
    except HistoryError as exc:
        fail(str(exc), lang=lang)


def _word(t, value: object, prefix: str = "") -> object:
    """A logged word (a status, how a hand ended) in the output's language; anything else as logged."""
    key = f"{prefix}{value}" if isinstance(value, str) else None
    return t[key] if key in t else value


def _row(number: int, r: dict, club: bool = False, t=None) -> tuple[str, ...]:
    """The list's row of one record, as text (a checked record: every field of the right type); ``club``:
    with the record's table after the number; ``t``: the output language's texts (English if None). The status
    is the last cell."""
    t = t if t is not None else texts("en")
    board = " ".join(n.get("serial") or "?" for n in r.get("notes", []) if n.get("zone") == "board")
    return (str(number), *([_text(r.get("table"))] if club else []),
            str(r.get("finished") or "").replace("T", " ")[:19], _text(r.get("hand")),
            _text(r.get("position")), _text(r.get("dealer")), board or "—", _winners_cell(r, t), r.get("status") or "")


def _winners_cell(r: dict, t) -> str:
    """The list's Winners cell: the logged winners, or for a tie under the rollover policy (its pot went to the
    next hand, RULES.md §4) ``tie P1, P2 → the next hand`` (seventh new-user trial: the list called them winners)."""
    winners = ", ".join(map(str, r.get("winners") or []))
    from dealer_assist.live.history import tie_rolled_over

    if tie_rolled_over(r):
        return t["rolled_pot"].format(winners=winners)
    return winners or "—"


def _text(value: object) -> str:
    return "" if value is None else str(value)


#: Rows of the list laid out at a time: a log of 40,000 hands is printed as tables of this many rows, of the
#: same column widths, so the terminal's table is never held whole in memory (it took 430 MB).
ROWS_PER_TABLE = 1000


#: The date of a finished time (``2026-12-06``): the finished column's narrowest (squeezed by rich, it was
#: split ``2026-12-`` / ``06`` and its head cut to ``законче…``).
DATE_WIDTH = 10
#: A serial: the board column's narrowest (one serial a line).
SERIAL_WIDTH = 7


def _club_widths(header: Sequence[str], rows: Sequence[tuple[str, ...]], t, width: int,
                 encoding: str | None = None) -> list[int] | None:
    """Widths for a club's list (``#``, table, finished, hand, P, dealer, board, winners, status) that would
    not fit ``width`` columns as it is: the board one serial a line, the finished time's date on a line
    and the winners one name a line, every head whole; None when it fits as it is; when it would not fit
    even so, these widths all the same (rich then narrows every column alike). Text is measured as
    ``encoding`` will write it (Russian in Latin letters on an ASCII output:
    :func:`~dealer_assist.cli.output.showable`)."""
    from rich.cells import cell_len

    from dealer_assist.cli.output import showable

    header = [showable(h, encoding) for h in header]
    natural = [cell_len(h) for h in header]
    longest_word = [cell_len(h) for h in header]
    for row in rows:
        for i, cell in enumerate(row):
            text = showable(_cell(_word(t, cell) if i == len(row) - 1 else cell).plain, encoding)
            natural[i] = max(natural[i], cell_len(text))
            longest_word[i] = max([longest_word[i], *(cell_len(w) for w in text.split())])
    frame = 3 * (len(header) - 1)  # the rules between the columns and their padding (no outer edge)
    if sum(natural) + frame <= width:
        return None
    fitted = list(natural)
    fitted[2] = max(cell_len(header[2]), min(natural[2], DATE_WIDTH))
    fitted[6] = max(cell_len(header[6]), min(natural[6], SERIAL_WIDTH))
    fitted[7] = max(longest_word[7], min(natural[7], cell_len(header[7])))
    return fitted


def _print_table(rows: list[tuple[str, ...]], path, lang: str, club: bool = False) -> None:
    """The list of hands on standard output (OSError when it cannot be written)."""
    from rich.cells import cell_len

    console = report_console()
    t = texts(lang)
    header = ("#", *([t["club_table"]] if club else []), t["finished"], t["hand"], "P", t["dealer"], t["board notes"],
              t["summary_winners"], t["status"])
    # a club's list has one column more (the table): at 80 columns, in Russian too, up to 9,999 hands, it is laid
    # out without the outer frame and, when it would not fit, at widths of its own (_club_widths): every head whole
    edge = {"pad_edge": False, "show_edge": False} if club else {}
    if len(rows) <= ROWS_PER_TABLE:
        table = Table(title=_cell(t["history_title"].format(path=path, n=len(rows))), title_justify="left", **edge)
        fixed = _club_widths(header, rows, t, console.width, console.encoding) if club else None
        for i, col in enumerate(header):
            table.add_column(col, width=fixed[i] if fixed else None, overflow="fold")
        for row in rows:
            table.add_row(*(_cell(cell) for cell in row[:-1]), _cell(_word(t, row[-1])))
        console.print(table)
        return
    widths = [cell_len(h) for h in header]
    for row in rows:
        for i, cell in enumerate(row):
            widths[i] = max(widths[i], cell_len(_cell(_word(t, cell) if i == len(row) - 1 else cell).plain))
    if club:
        widths = _club_widths(header, rows, t, console.width, console.encoding) or widths
    for start in range(0, len(rows), ROWS_PER_TABLE):
        first = start == 0
        table = Table(title=_cell(t["history_title"].format(path=path, n=len(rows))) if first else None,
                      title_justify="left", show_header=first, **edge)
        for col, width in zip(header, widths):
            if club:
                table.add_column(col, width=width, overflow="fold")
            else:
                table.add_column(col, min_width=width, max_width=width)
        for row in rows[start:start + ROWS_PER_TABLE]:
            table.add_row(*(_cell(cell) for cell in row[:-1]), _cell(_word(t, row[-1])))
        console.print(table)


def _print_history(records: list[dict], path: Path, show: Optional[int], as_json: bool, lang: str,
                   carried: object = 0) -> None:
    """The one hand of ``--show``, on standard output (OSError when it cannot be written).

    ``carried``: the chips the log's hands before it carried into it, as the ledger counts them. A hand that
    says what it was carried (``carried_in``, logged since the rules pay the carried pot) is shown as logged;
    a hand of a log written before that is shown with the ledger's carry in its main pot, so ``--show`` says
    the 21 the ledger credits, not the 10 of its pot alone."""
    from dealer_assist.live.history import record_input
    from dealer_assist.rules import HandError, evaluate, parse_hand

    if as_json:
        for r in records:
            sys.stdout.write(json_line(r))
        sys.stdout.flush()
        return
    console = report_console()
    t = texts(lang)
    r = records[0]
    title = (f"{t['hand']} {r.get('hand')} · {str(r.get('finished', '')).replace('T', ' ')[:19]} · "
             f"{_word(t, r.get('end', ''), 'end_')}")
    try:
        if r.get("status") != "showdown":  # decided at the table or not at all: an undecided hand has no winner
            waiting = r.get("waiting") or []
            # live's sentence, said in the output's language as live said it (seventh new-user trial M)
            why = f": {after_colon(say(waiting[0], lang)).rstrip('.')}" if waiting and isinstance(waiting[0], str) else ""
            raise HandError(t["not_decided"] + why)
        hand = parse_hand(record_input(r))
        settled = r.get("settlement") or {}
        if (not hand.carried_in and "carried_in" not in settled and isinstance(carried, int) and carried > 0
                and hand.game.board_notes):
            hand = dataclasses.replace(hand, carried_in=carried)  # an old log: its carry left out of its payouts
        # the list names the table's dealer (the button), the hand the rules' dealer among its players: one
        # hand, one dealer, with the other name said (seventh new-user trial L)
        button = r.get("dealer") if isinstance(r.get("dealer"), str) else None
        console.print(render_showdown(evaluate(hand), lang, title=title, button=button))
    except HandError as exc:
        console.print(name_text(title, style="bold"))
        console.print(safe_text(t["not_showdown"].format(error=exc)), markup=False, highlight=False)
        table = Table()
        for col in (t["zone"], "#", t["serial"], t["source"], t["status"]):
            table.add_column(col)
        for n in r.get("notes", []):
            zone = t["board notes"] if n.get("zone") == "board" else n.get("zone")
            table.add_row(_cell(zone), _cell(n.get("index")), _cell(n.get("serial") or "—"),
                          _cell(_word(t, n.get("source"))), _cell(_word(t, n.get("status"))))
        console.print(table)
    changes = r.get("position_changes") or []  # checked: {"from": 1..7, "to": 1..7} each
    if changes:  # P changed after the deal (RULES.md §2): as live said it
        said = t["position_changed"].format(changes=", ".join(f"P={c['from']} → P={c['to']}" for c in changes))
        console.print(safe_text(said), style="bold red", markup=False, highlight=False)
    if r.get("winners") is not None:
        winners = ", ".join(map(str, r["winners"])) or t["none"]
        from dealer_assist.live.history import tie_rolled_over

        line = t["logged_tied" if tie_rolled_over(r) else "logged_winners"].format(winners=winners)
        console.print(safe_text(line), markup=False, highlight=False)
