"""``dealer-assist ledger``: who is up and down over the logged hands, and who pays whom.

Wiring only: the log is read by :mod:`dealer_assist.live.history`, the sums
and the transfers are :func:`dealer_assist.ledger.build_ledger`.
"""

from __future__ import annotations

import sys
from datetime import datetime
from pathlib import Path
from typing import Optional

import typer
from rich.console import Group
from rich.table import Table
from rich.text import Text

from dealer_assist.cli.app import app
from dealer_assist.cli.club_cmd import checked_table, club_label, club_ledger, club_option, table_option
from dealer_assist.cli.options import fail, lang_option, resolve_lang, since_time, whole_chips, echo_err
from dealer_assist.cli.output import json_line, output_errors, print_warnings, report_console
from dealer_assist.i18n import Lang, texts
from dealer_assist.ledger import CARRIED_POT, EXACT_PARTIES, MAX_CHIPS, ORGANISER, Ledger, LedgerBuilder, Meeting, Party
from dealer_assist.render import name_text, safe_text
from dealer_assist.rules.formats import chips_to_json
from dealer_assist.spreadsheet import csv_writer

__all__ = ["ledger_command", "ledger_to_json"]

EPILOG = (
    "Buy-in = ante + rake (the game's house rule): each player dealt into a hand pays both; the rake goes to the organiser, "
    "the hand's antes to its winner. The hand log holds neither, so both are 0 unless --ante / --rake give them.\n\n"
    "Examples:\n\n"
    "  dealer-assist ledger\n\n"
    "  dealer-assist ledger --log hands.jsonl --since 2025-01-01T19:00 --ante 10 --rake 2 --json\n\n"
    "  dealer-assist ledger --club postgresql://dealer@club-pc/club --since 2025-01-01T19:00   # every table\n\n"
    "Indian poker hands (live --game indian) also give the meeting (`dealer-assist rules --game indian`): "
    "once every player has dealt once, the largest balance wins it; equal leaders share it."
)

def _cell(value: object) -> Text:
    """A logged name or figure as a table cell, shown as written (no rich markup; control characters escaped
    visibly by :func:`~dealer_assist.render.safe_text`)."""
    return name_text(value)




@app.command("ledger", epilog=EPILOG)
def ledger_command(
    log: Optional[Path] = typer.Option(None, "--log", metavar="FILE",
                                       help="The hand log (default: $DEALER_ASSIST_HISTORY, else "
                                            "~/.local/share/dealer-assist/hands.jsonl, as for history)."),
    since: Optional[str] = typer.Option(None, "--since", metavar="TIME",
                                        help="Count only hands finished at or after TIME, an ISO date or date-time "
                                             "(2025-01-01, 2025-01-01T20:00, 2025-01-01T20:00+01:00; "
                                             "without a zone: local time)."),
    ante: str = typer.Option("0", "--ante", metavar="CHIPS",
                             help="Ante each player dealt into a hand pays; the organiser returns the hand's "
                                  "antes to its winner. The log has no ante field: 0 unless given (default: 0).",
                             show_default=False),
    rake: str = typer.Option("0", "--rake", metavar="CHIPS",
                             help="Rake each player dealt into a hand pays to the organiser. The log has no rake "
                                  "field: 0 unless given (default: 0).", show_default=False),
    as_json: bool = typer.Option(False, "--json", help="Print the ledger as one JSON object."),
    as_csv: bool = typer.Option(False, "--csv", help="Print the ledger as CSV: a row per player, the organiser, "
                                                     "the carried pot and each transfer."),
    club: Optional[str] = club_option(help="Settle the club's hands (PostgreSQL URL, as for live --club) across "
                                           "its tables instead of one log."),
    table: Optional[str] = table_option("With --club: only this table's hands."),
    lang: Optional[Lang] = lang_option(),
) -> None:
    """The session ledger: chips put in and won, net per player, and the fewest transfers that settle everyone.

    Counted from the hand log: hands, chips put in and won, buy-ins, net per player.
    """
    from dealer_assist.live.history import HistoryError, default_log_path, iter_log

    if as_json and as_csv:
        raise typer.BadParameter("give --json or --csv, not both.", param_hint="'--json' / '--csv'")
    ante_chips, rake_chips = whole_chips(ante, "--ante"), whole_chips(rake, "--rake")
    when = since_time(since)
    builder = LedgerBuilder(ante=ante_chips, rake=rake_chips, since=when)
    warnings: list[str] = []
    if club is not None:
        if log is not None:
            fail("--club and --log name two sources; give one of them.")
        path = club_label(club, table)
        for record in club_ledger(club, checked_table(table)):  # checked again by the one validator
            builder.add(record)
    else:
        if table is not None:
            fail("--table chooses a table of the club; give --club URL too.")
        path = log if log is not None else default_log_path()
        try:
            for record in iter_log(path, warnings.append):  # one record at a time: memory by players, not hands
                builder.add(record)
        except HistoryError as exc:
            fail(str(exc), lang=resolve_lang(lang))
    ledger = builder.ledger()
    err = report_console(stderr=True, soft_wrap=True)
    shown_lang = resolve_lang(lang).value
    print_warnings(err, warnings, what="line(s) of the log that are not hand records; skipped.", lang=shown_lang)
    if ledger.skipped_count:
        print_warnings(err, [f"{s}" for s in ledger.skipped], total=ledger.skipped_count,
                       what="hand record(s) left out of the ledger.", lang=shown_lang)
    print_warnings(err, list(ledger.name_warnings), what="names that look alike.", lang=shown_lang)
    with output_errors():
        if as_json:
            out = ledger_to_json(ledger)
            out.update({"club" if club is not None else "log": str(path), "since": when.isoformat() if when else None, "skipped_lines": len(warnings)})
            sys.stdout.write(json_line(out))
        elif as_csv:
            _write_csv(ledger)
        else:
            shown = club_label(club, table, shown_lang) if club is not None else path
            report_console().print(_render(ledger, shown, when, shown_lang,
                                           table_seats=club is not None and table is None))
        sys.stdout.flush()


def ledger_to_json(ledger: Ledger) -> dict:
    """The ledger as a JSON object (chips as whole numbers, or ``"a/b"`` for exact shares)."""
    c = chips_to_json
    return {
        "players": {p.name: {"hands_played": p.hands_played, "hands_won": p.hands_won, "put_in": c(p.put_in),
                             "buy_ins": c(p.buy_ins), "won": c(p.won), "net": c(p.net)} for p in ledger.players},
        "hands": ledger.hands,
        "hands_not_decided": ledger.not_decided,
        "ante": ledger.ante_per_hand,
        "rake_per_player": ledger.rake_per_hand,
        "rake": c(ledger.rake),
        "carried_in": c(ledger.carried_in),
        "carried_out": c(ledger.carried_out),
        "transfers": [{"from": t.payer.name, "from_kind": t.payer.kind.value, "to": t.payee.name,
                       "to_kind": t.payee.kind.value, "amount": c(t.amount)} for t in ledger.transfers],
        "fewest_transfers": ledger.fewest,
        "meetings": [meeting_to_json(m) for m in ledger.meetings],
    }


def meeting_to_json(meeting: Meeting) -> dict:
    """An Indian poker meeting (RULES.md §7.5): ``winners`` once every player has dealt (equal leaders share),
    else empty with ``to_deal`` and the ``leaders`` so far."""
    return {"game": "indian", "session": meeting.session, "hands": meeting.hands, "players": list(meeting.players),
            "dealt": list(meeting.dealt), "to_deal": list(meeting.to_deal), "complete": meeting.complete,
            "nets": {n: chips_to_json(v) for n, v in meeting.nets.items()}, "leaders": list(meeting.leaders),
            "winners": list(meeting.leaders) if meeting.complete else []}


def meeting_line(meeting: Meeting, lang: str = "en") -> Text:
    """One sentence per meeting: who wins it (or shares it), or who has still to deal and who leads."""
    t = texts(lang)
    leaders = [safe_text(n) for n in meeting.leaders]
    top = _signed(meeting.nets[meeting.leaders[0]]) if meeting.leaders else "0"
    who = (", ".join(leaders[:-1]) + f" {t['meeting_and']} " + leaders[-1] if len(leaders) > 1 else
           (leaders[0] if leaders else t["nobody"]))
    head = t["meeting_head"].format(n=meeting.hands)
    head += (t["meeting_session"].format(session=safe_text(str(meeting.session))[:40]) + "): "
             if meeting.session is not None else "): ")
    if meeting.complete:
        verdict = (t["meeting_share"].format(who=who, top=top) if len(leaders) > 1
                   else t["meeting_wins"].format(who=who, top=top))
    else:
        waiting = ", ".join(safe_text(n) for n in meeting.to_deal)
        verdict = t["meeting_open"].format(waiting=waiting, who=who, top=top)
    return Text(head + verdict, style="bold" if meeting.complete else "")


def _write_csv(ledger: Ledger) -> None:
    """The ledger as CSV on standard output; names exactly as logged into a file or a pipe, shown as
    text (control characters escaped: :func:`~dealer_assist.render.safe_text`) on a terminal."""
    c = chips_to_json
    shown = safe_text if sys.stdout.isatty() else str
    out = csv_writer(sys.stdout, lineterminator="\n")  # a name starting with = + - @ is text in a spreadsheet
    header = ["kind", "name", "hands_played", "hands_won", "put_in", "buy_ins", "won", "net", "to", "amount",
              "from_kind", "to_kind"]
    rows: list[list] = []
    for p in ledger.players:
        rows.append(["player", shown(p.name), p.hands_played, p.hands_won, c(p.put_in), c(p.buy_ins), c(p.won),
                     c(p.net)])
    rows.append(["organiser", ORGANISER.name, "", "", "", "", c(ledger.rake), c(ledger.rake)])
    pot = ledger.carried_out - ledger.carried_in
    rows.append(["carried pot", CARRIED_POT.name, "", "", c(ledger.carried_in), "", c(ledger.carried_out), c(pot)])
    for t in ledger.transfers:
        rows.append(["transfer", shown(t.payer.name), "", "", "", "", "", "", shown(t.payee.name), c(t.amount),
                     t.payer.kind.value, t.payee.kind.value])
    out.writerow(header)
    for row in rows:  # every row as wide as the header (the rows of no transfer leave its columns empty)
        out.writerow(row + [""] * (len(header) - len(row)))


#: How the two parties that are no player are shown: in italics, with what they are, so that a seat
#: called "organiser" (shown as written, upright) never reads as the house.
PARTY_LABELS = {ORGANISER: ("organiser", "rake"), CARRIED_POT: ("carried pot", None)}


def _party(party: Party, lang: str = "en") -> Text:
    """A party of the ledger as a cell: a player's name as logged; the house or the carried pot by its label
    (in ``lang``: :data:`PARTY_LABELS` are keys of the translation table)."""
    if party.is_player:
        return _cell(party.name)
    t = texts(lang)
    label, why = PARTY_LABELS.get(party, (None, None))
    if label is None:
        return Text(party.name, style="italic")
    return Text(t[label] + (f" ({t[why]})" if why else ""), style="italic")


def _signed(chips) -> str:
    value = chips_to_json(chips)
    return f"+{value}" if chips > 0 else str(value)


def _render(ledger: Ledger, path: Path, since: Optional[datetime], lang: str = "en", *,
            table_seats: bool = False) -> Group:
    """The ledger for people: a title line as wide as the terminal (wrapped at words), the table, the notes.
    ``table_seats``: a club's ledger of every table, whose numbered seats are per table (``T1/P3``,
    :func:`dealer_assist.club.read.club_player`): a sentence under the table says so when it lists one."""
    c = chips_to_json
    t_ = texts(lang)
    title = Text(t_["history_title"].format(path=safe_text(path), n=ledger.hands), style="bold")
    if since is not None:
        title.append(" " + t_["ledger_since"].format(when=since.isoformat(sep=" ", timespec="minutes")))
    # the Buy-ins column is the ante and the rake (the house rule): a line of its own under the title says so,
    # with the figures (after the path on one line it broke inside its bracket at 80 columns: seventh trial)
    fees = Text(t_["ledger_fees"].format(ante=ledger.ante_per_hand, rake=ledger.rake_per_hand,
                                         buy_in=ledger.ante_per_hand + ledger.rake_per_hand))
    fees.plain = fees.plain[:1].upper() + fees.plain[1:]
    if not ledger.players and not ledger.hands:  # an empty log (or none since TIME): one line, not an empty table
        return Group(title, Text(t_["ledger_empty"]))
    table = Table()
    for key in ("player", "hands_column", "hands_won", "put_in", "buy_ins", "chips_won", "net"):
        table.add_column(t_[key], justify="left" if key == "player" else "right")
    for p in ledger.players:
        table.add_row(_cell(p.name), str(p.hands_played), str(p.hands_won), str(c(p.put_in)), str(c(p.buy_ins)),
                      str(c(p.won)), _signed(p.net))
    if ledger.rake or ledger.carried_in or ledger.carried_out:
        table.add_section()
    if ledger.rake:
        table.add_row(_party(ORGANISER, lang), "", "", "", "", str(c(ledger.rake)), _signed(ledger.rake))
    if ledger.carried_in or ledger.carried_out:
        pot = ledger.carried_out - ledger.carried_in
        table.add_row(_party(CARRIED_POT, lang), "", "", str(c(ledger.carried_in)) if ledger.carried_in else "", "",
                      str(c(ledger.carried_out)), _signed(pot))
    parts: list = [title, fees, table]
    if table_seats:
        from dealer_assist.club.read import is_table_seat

        if any(is_table_seat(p.name) for p in ledger.players):
            parts.append(Text(t_["ledger_table_seats"]))
    notes = []
    if ledger.carried_out:
        notes.append(t_["ledger_carried_out"].format(n=c(ledger.carried_out)))
    if ledger.carried_in:
        notes.append(t_["ledger_carried_in"].format(n=c(ledger.carried_in)))
    if ledger.not_decided:
        notes.append(t_["ledger_not_decided"].format(n=ledger.not_decided))
    if ledger.meetings and ledger.ante_per_hand:
        notes.append(t_["ledger_indian_ante"])
    if ledger.transfers:
        how = t_["ledger_fewest"] if ledger.fewest else t_["ledger_greedy"].format(n=EXACT_PARTIES)
        transfers = Table()
        for key in ("pays", "to_whom", "chips_label"):
            transfers.add_column(t_[key], justify="right" if key == "chips_label" else "left")
        for t in ledger.transfers:
            transfers.add_row(_party(t.payer, lang), _party(t.payee, lang), str(c(t.amount)))
        parts.extend([Text(t_["ledger_transfers"].format(how=how), style="bold"), transfers])
    elif ledger.hands:
        notes.append(t_["ledger_square"])
    parts.extend(Text(note) for note in notes)
    parts.extend(meeting_line(m, lang) for m in ledger.meetings)
    return Group(*parts)
