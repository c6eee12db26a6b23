"""``dealer-assist history``: list the hands ``dealer-assist live`` logged, and show one again.

Wiring only: the log format is :mod:`dealer_assist.live.history`; a hand is
shown again by evaluating its recorded FORMATS.md §1 input with the rules
engine (:mod:`dealer_assist.rules`) and :func:`dealer_assist.render.render_showdown`.
"""

from __future__ import annotations

import dataclasses
import sys
from pathlib import Path
from typing import Optional

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
        path = club_label(club, table)
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
    if r.get("tie_policy") == "rollover" and len(r.get("winners") or []) > 1 and r.get("status") == "showdown":
        return t["rolled_pot"].format(winners=winners)
    return winners or "—"


def _text(value: object) -> str:
    return "" if value is None else str(value)


#: Rows of the list laid out at a time: a log of 40,000 hands is printed as tables of this many rows, of the
#: same column widths, so the terminal's table is never held whole in memory (it took 430 MB).
ROWS_PER_TABLE = 1000


def _print_table(rows: list[tuple[str, ...]], path, lang: str, club: bool = False) -> None:
    """The list of hands on standard output (OSError when it cannot be written)."""
    from rich.cells import cell_len

    console = report_console()
    t = texts(lang)
    header = ("#", *(["Table"] if club else []), t["finished"], t["hand"], "P", t["dealer"], t["board notes"],
              t["summary_winners"], t["status"])
    if len(rows) <= ROWS_PER_TABLE:
        table = Table(title=_cell(t["history_title"].format(path=path, n=len(rows))), title_justify="left")
        for col in header:
            table.add_column(col)
        for row in rows:
            table.add_row(*(_cell(cell) for cell in row[:-1]), _cell(_word(t, row[-1])))
        console.print(table)
        return
    widths = [cell_len(h) for h in header]
    for row in rows:
        for i, cell in enumerate(row):
            widths[i] = max(widths[i], cell_len(_cell(_word(t, cell) if i == len(row) - 1 else cell).plain))
    for start in range(0, len(rows), ROWS_PER_TABLE):
        first = start == 0
        table = Table(title=_cell(t["history_title"].format(path=path, n=len(rows))) if first else None,
                      title_justify="left", show_header=first)
        for col, width in zip(header, widths):
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
        console.print(render_showdown(evaluate(hand), lang, title=title))
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
        tied = r.get("tie_policy") == "rollover" and len(r["winners"]) > 1 and r.get("status") == "showdown"
        line = t["logged_tied" if tied else "logged_winners"].format(winners=winners)
        console.print(safe_text(line), markup=False, highlight=False)
