"""``dealer-assist history``: list the hands ``dealer-assist live`` logged, and show one again.

Wiring only: the log format is :mod:`dealer_assist.live.history`; a hand is
shown again by evaluating its recorded FORMATS.md §1 input with the rules
engine (:mod:`dealer_assist.rules`) and :func:`dealer_assist.render.render_showdown`.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Optional

import typer
from rich.table import Table
from rich.text import Text

from dealer_assist.cli.app import app
from dealer_assist.cli.club_cmd import checked_table, club_history, club_label, club_option, table_option
from dealer_assist.cli.options import LOG_DEFAULT, fail, lang_option, resolve_lang, shown_default, since_time
from dealer_assist.cli.output import json_line, output_errors, report_console
from dealer_assist.i18n import Lang, texts
from dealer_assist.render import name_text, render_showdown, safe_text

__all__ = ["history_command"]

#: Lines of the log said one by one; the rest are counted.
WARNINGS_SHOWN = 10


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
    from dealer_assist.live.history import HistoryError, default_log_path, read_log

    lang = resolve_lang(lang)
    if club is not None:
        if log is not None:
            fail("--club and --log name two sources; give one of them.")
        records, warnings = club_history(club, checked_table(table), since_time(since),
                                         since_time(until, "--until"), serial), []
        path = club_label(club, table)
    else:
        if any(v is not None for v in (table, since, until, serial)):
            fail("--table, --since, --until and --serial search a club; give --club URL too.")
        path = log if log is not None else default_log_path()
        try:
            records, warnings = read_log(path)
        except HistoryError as exc:
            fail(str(exc))
    err = report_console(stderr=True)
    for w in warnings[:WARNINGS_SHOWN]:
        err.print(safe_text(f"warning: {w}"), markup=False, highlight=False, soft_wrap=True)
    if len(warnings) > WARNINGS_SHOWN:  # a torn or foreign log: a screenful, not thousands of lines
        err.print(f"warning: and {len(warnings) - WARNINGS_SHOWN} more line(s) of the log that are not hand records; "
                  f"skipped.", markup=False, highlight=False, soft_wrap=True)
    if show is not None:
        if show > len(records):
            fail(f"The log {path} holds {len(records)} hand(s); there is no hand {show}.")
        records = [records[show - 1]]
    with output_errors():
        _print_history(records, path, show, as_json, lang)


def _word(t, value: object, prefix: str = "") -> object:
    """A logged word (a status, how a hand ended) in the output's language; anything else as logged."""
    key = f"{prefix}{value}" if isinstance(value, str) else None
    return t[key] if key in t else value


def _print_history(records: list[dict], path: Path, show: Optional[int], as_json: bool, lang: str) -> None:
    """The list of hands, or the one hand of ``--show``, on standard output (OSError when it cannot be written)."""
    from dealer_assist.rules import HandError, evaluate, parse_hand

    if as_json:
        for r in records:
            sys.stdout.write(json_line(r))
        sys.stdout.flush()
        return
    console = report_console()
    t = texts(lang)
    if show is None:
        table = Table(title=_cell(t["history_title"].format(path=path, n=len(records))), title_justify="left")
        club = isinstance(path, str)  # a club's hands: each names its table
        for col in ("#", *(["Table"] if club else []), t["finished"], t["hand"], "P", t["dealer"], t["board notes"],
                    t["summary_winners"], t["status"]):
            table.add_column(col)
        for i, r in enumerate(records, 1):
            board = " ".join(n.get("serial") or "?" for n in r.get("notes", []) if n.get("zone") == "board")
            table.add_row(str(i), *([_cell(r.get("table"))] if club else []),
                          _cell(str(r.get("finished") or "").replace("T", " ")[:19]), _cell(r.get("hand")),
                          _cell(r.get("position")), _cell(r.get("dealer")), _cell(board or "—"),
                          _cell(", ".join(r.get("winners") or []) or "—"), _cell(_word(t, r.get("status", ""))))
        console.print(table)
        return
    r = records[0]
    title = (f"{t['hand']} {r.get('hand')} · {str(r.get('finished', '')).replace('T', ' ')[:19]} · "
             f"{_word(t, r.get('end', ''), 'end_')}")
    try:
        hand = parse_hand(r.get("input"))
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
    if r.get("winners") is not None:
        winners = ", ".join(map(str, r["winners"])) or t["none"]
        console.print(safe_text(t["logged_winners"].format(winners=winners)), markup=False, highlight=False)
