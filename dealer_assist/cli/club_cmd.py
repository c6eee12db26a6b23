"""``dealer-assist club``: a club's PostgreSQL database (``init``) and logs played offline (``sync``).

Wiring only: the schema and its migrations are :mod:`dealer_assist.club.db`, the sync
:mod:`dealer_assist.club.sync`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from dealer_assist.cli.app import app
from dealer_assist.cli.options import fail, echo_err, lang_option, resolve_lang
from dealer_assist.i18n import Lang, say

__all__ = ["club_app", "club_init_command", "club_sync_command", "table_option", "club_option", "checked_table"]

club_app = typer.Typer(
    name="club",
    help=("A club with several tables: every table's hands in one PostgreSQL database. `club init URL` makes "
          "the database ready once; each table then runs `live --club URL --table T`; `serve --club URL`, "
          "`ledger --club URL` and `history --club URL` read the whole club."),
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
app.add_typer(club_app, name="club")


@club_app.callback()
def _club(lang: Optional[Lang] = lang_option(help="Language of the help and of the command that follows.")) -> None:
    """(The group's help is its ``help`` above; this callback only takes the group's ``--lang``.)"""

URL_HELP = "The club's PostgreSQL database, e.g. postgresql://dealer@club-pc/club (libpq's URL form)."


def club_option(required: bool = False, help: str = URL_HELP, **kwargs):
    """``--club URL``."""
    return typer.Option(... if required else None, "--club", metavar="URL", help=help, **kwargs)


def table_option(help: str, required: bool = False, **kwargs):
    """``--table T``."""
    return typer.Option(... if required else None, "--table", metavar="T", help=help, **kwargs)


def checked_table(name: str | None) -> str | None:
    """``--table`` checked (letters, digits, ``.``, ``_``, ``-``); typer's usage error otherwise."""
    from dealer_assist.club.records import check_table_name

    if name is None:
        return None
    try:
        return check_table_name(name)
    except ValueError as exc:
        raise typer.BadParameter(str(exc), param_hint="'--table'") from None


@club_app.command("init", epilog="Example:\n\n  dealer-assist club init postgresql://dealer@club-pc/club")
def club_init_command(url: str = typer.Argument(..., metavar="URL", help=URL_HELP),
                      lang: Optional[Lang] = lang_option()) -> None:
    """Create the club's tables in an existing PostgreSQL database, or bring them up to date (safe to run again)."""
    from dealer_assist.club.db import ClubError, connect, describe_url, migrate, schema_version

    language = resolve_lang(lang).value
    try:
        with connect(url) as conn:
            applied = migrate(conn)
            version = schema_version(conn)
    except ClubError as exc:
        fail(str(exc), lang=language)
    where = describe_url(url)
    if applied:
        names = ", ".join(f"{m.version:04d}_{m.name}" for m in applied)
        typer.echo(say(f"The club database at {where} is ready (schema version {version}; applied {names}).",
                       language))
    else:
        typer.echo(say(f"The club database at {where} was up to date already (schema version {version}).",
                       language))


@club_app.command("sync", epilog=("Example (a night played without the network):\n\n"
                                  "  dealer-assist club sync --log hands.jsonl --club postgresql://dealer@club-pc/club "
                                  "--table T2"))
def club_sync_command(
    log: Path = typer.Option(..., "--log", metavar="FILE", help="The hand log live wrote at the table."),
    club: str = club_option(required=True),
    table: str = table_option("The table that played these hands (as for live --club).", required=True),
    lang: Optional[Lang] = lang_option(),
) -> None:
    """Store a table's hand log in the club: every hand once, however often it is synced."""
    from dealer_assist.club.db import ClubError, describe_url
    from dealer_assist.club.sync import sync_log
    from dealer_assist.render import safe_text

    language = resolve_lang(lang).value
    table = checked_table(table)
    try:
        report = sync_log(log, club, table)
    except ClubError as exc:
        fail(str(exc), lang=language)
    for sentence in report.refused[:10]:
        echo_err(safe_text(say(f"warning: {sentence}", language)))
    if len(report.refused) > 10:
        echo_err(say(f"warning: and {len(report.refused) - 10} more line(s) the club cannot take; skipped.",
                     language))
    typer.echo(safe_text(say(f"{log}: {report.read} hand(s) of table {table}; {report.new} newly stored in the club "
                             f"at {describe_url(club)}, {report.already} there already.", language)))


def club_label(url: str, table: str | None = None, lang: str = "en") -> str:
    """``club 127.0.0.1:5432/club`` (``… table T1``; in Russian ``клуб … стол T1``), where a command names
    its source."""
    from dealer_assist.club.db import describe_url
    from dealer_assist.i18n import texts

    t = texts(lang)
    return t["club_source"].format(where=describe_url(url)) + (t["club_source_table"].format(table=table)
                                                               if table else "")


def club_ledger(url: str, table: str | None) -> list[dict]:
    """The club's records for the ledger (:func:`dealer_assist.club.read.ledger_records`); a failure ends the command."""
    from dealer_assist.club.db import ClubError
    from dealer_assist.club.read import ledger_records

    try:
        return ledger_records(url, table=table)
    except ClubError as exc:
        fail(str(exc))


def club_history(url: str, table: str | None, since, until, serial: str | None) -> list[dict]:
    """The club's records for ``history --club`` (:func:`dealer_assist.club.read.club_records`); a failure or a
    serial that is not 7 digits ends the command."""
    import re

    from dealer_assist.club.db import ClubError
    from dealer_assist.club.read import club_records

    if serial is not None and not re.fullmatch(r"[0-9]{7}", serial.strip()):
        raise typer.BadParameter(f"a serial is 7 digits, not {serial[:20]!r}.", param_hint="'--serial'")
    try:
        return club_records(url, table=table, since=since, until=until,
                            serial=serial.strip() if serial is not None else None)
    except ClubError as exc:
        fail(str(exc))
