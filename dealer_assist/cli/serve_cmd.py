"""``dealer-assist serve``: a read-only, delayed web page of the hand at the table, for the room.

Wiring only: the application is :mod:`dealer_assist.spectator.app`, binding and
running :mod:`dealer_assist.spectator.server`.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Optional

import typer

from dealer_assist.cli.app import app
from dealer_assist.cli.options import lang_option, resolve_lang, since_time, echo_err
from dealer_assist.i18n import Lang

__all__ = ["serve_command"]

EPILOG = (
    "It follows the hand log (finished hands) and the state file that dealer-assist live writes for the hand in "
    "play, so run it beside live, in another terminal. Pocket notes show only once revealed at the table, and "
    "everything shows --delay seconds late, so the screen cannot help anyone at the table. Nothing on the page "
    "can change the game.\n\n"
    "On 127.0.0.1 (the default) only this computer can open it. With --host 0.0.0.0 (or a LAN address) other "
    "devices can, with the token it prints: open the printed address, ?token=… included.\n\n"
    "Examples:\n\n"
    "  dealer-assist serve\n\n"
    "  dealer-assist serve --log ~/.local/share/dealer-assist/hands.jsonl --delay 60\n\n"
    "  dealer-assist serve --host 0.0.0.0 --port 8765      # a TV in the room: open the printed address\n\n"
    "  dealer-assist serve --club postgresql://dealer@club-pc/club --host 0.0.0.0   # every table of a club"
)


@app.command("serve", epilog=EPILOG)
def serve_command(
    log: Optional[Path] = typer.Option(None, "--log", metavar="FILE",
                                       help="The hand log to follow (default: $DEALER_ASSIST_HISTORY, else "
                                            "~/.local/share/dealer-assist/hands.jsonl, as for live). It may not "
                                            "exist yet: the screen waits for it."),
    state: Optional[Path] = typer.Option(None, "--state", metavar="FILE",
                                         help="The state file live writes for the hand in play (default: beside "
                                              "the log, hands.jsonl -> hands.state.json)."),
    delay: float = typer.Option(30.0, "--delay", metavar="SECONDS",
                                help="Show the table this many seconds late (0: at once).", show_default=True),
    host: str = typer.Option("127.0.0.1", "--host", metavar="H",
                             help="Address to listen on. Any address but loopback (127.0.0.1, localhost) needs the "
                                  "token printed at start.", show_default=True),
    port: int = typer.Option(8765, "--port", metavar="P", help="Port to listen on (0: any free port).",
                             show_default=True),
    since: Optional[str] = typer.Option(None, "--since", metavar="TIME",
                                        help="Balances over the hands finished since TIME (an ISO date or "
                                             "date-time, as for ledger) instead of over live's last session."),
    club: Optional[str] = typer.Option(None, "--club", metavar="URL",
                                       help="Show every table of the club (its PostgreSQL URL, as for live --club): "
                                            "a page listing the tables, and a page per table at /table/T/."),
    lang: Optional[Lang] = lang_option(help="Language of what this command prints."),
) -> None:
    """A read-only web page of the current hand for spectators, delayed, updating by itself.

    It shows the board, the revealed hands, the odds, the winner and the session's balances.
    """
    from dealer_assist.live.history import default_log_path
    from dealer_assist.spectator.app import SpectatorConfig, create_app
    from dealer_assist.spectator.follow import path_refusal
    from dealer_assist.spectator.server import ServeError, bind, new_token, run, urls
    from dealer_assist.spectator.state import default_state_path

    if not math.isfinite(delay) or delay < 0:
        raise typer.BadParameter(f"must be a number of seconds from 0 up, not {delay}.", param_hint="'--delay'")
    when = since_time(since)
    language = resolve_lang(lang).value
    if club is not None:
        if log is not None or state is not None:
            _fail("--club shows the club's database; --log and --state follow one table's files. Give one or the other.",
                  language)
        _serve_club(club, delay, host, port, when, language)
        return
    log_path = (log if log is not None else default_log_path()).expanduser()
    state_path = (state if state is not None else default_state_path(log_path)).expanduser()
    for path, what in ((log_path, "hand log"), (state_path, "state file")):
        problem = path_refusal(path, what)
        if problem is not None:
            _fail(problem, language)
    if state_path.resolve() == log_path.resolve():
        _fail(f"--state and --log name the same file ({log_path}); the state file is another one.", language)
    problem = _not_a_log(log_path)
    if problem is not None:
        _fail(problem, language)
    try:
        listener = bind(host, port)
    except ServeError as exc:
        _fail(str(exc), language)
    token = None if listener.loopback else new_token()
    config = SpectatorConfig(log=log_path, state=state_path, delay=delay, token=token,
                             loopback_only=listener.loopback, since=when)
    application = create_app(config)
    print_banner(listener, token, delay, log_path, state_path, language)
    try:
        run(application, listener)
    except KeyboardInterrupt:
        pass


def print_banner(listener, token: Optional[str], delay: float, log_path: Path, state_path: Path,
                 lang: str = "en") -> None:
    """What serve prints at start: what it follows, a QR code of the address when other devices may open it,
    the address to open on a line of its own that is never wrapped (so it can be copied whole), the other
    addresses, and who can reach it. The sentences wrap at word boundaries (rich's wrapping)."""
    from dealer_assist.i18n import texts
    from dealer_assist.render import safe_text

    t = texts(lang)
    shown = t["serve_late"].format(s=f"{delay:g}") if delay else t["serve_no_delay"]
    _print_addresses(t["serve_title"].format(delay=shown, log=safe_text(log_path), state=safe_text(state_path),
                                             missing="" if log_path.exists() else t["serve_missing"]),
                     listener, token, lang)


def _print_addresses(title: str, listener, token: Optional[str], lang: str, extra: Optional[str] = None) -> None:
    """The banner after its title: the address's QR code when other devices may open it, then the address to
    open (a line of its own, never wrapped: below the QR code, so that on a 24-line terminal it is still on the
    screen), the other addresses, ``extra`` (a sentence), and who can reach it."""
    from rich.text import Text

    from dealer_assist.cli.output import report_console
    from dealer_assist.i18n import texts
    from dealer_assist.render import safe_text
    from dealer_assist.spectator.server import qr_text, urls

    t = texts(lang)
    console = report_console(highlight=False)
    console.print(Text(title))
    addresses = urls(listener, token)
    if token is not None:  # the QR code (17 lines and more) first: the address stays on a 24-line screen below it
        console.print(Text(qr_text(addresses[0]), style="bright_white on black"), soft_wrap=True, crop=False)
    console.print(Text(t["serve_open" if token is not None else "serve_open_local"]))
    console.print(Text(safe_text(addresses[0]), style="bold"), soft_wrap=True, crop=False)  # never wrapped: copied whole
    if token is not None and listener.host in ("0.0.0.0", "::", "") and len(addresses) == 1:
        console.print(Text(t["serve_no_lan"], style="yellow"))
    if len(addresses) > 1:
        console.print(Text(t["serve_also"]))
        for url in addresses[1:]:
            console.print(Text(f"  {safe_text(url)}"), soft_wrap=True, crop=False)
    if extra:
        console.print(Text(extra))
    console.print(Text(t["serve_token"].format(host=listener.host) if token is not None else t["serve_loopback"]))


def _serve_club(url: str, delay: float, host: str, port: int, since, lang: str = "en") -> None:
    """``serve --club``: the club's screen (:mod:`dealer_assist.club.web`), bound and run as the table's is."""
    from dealer_assist.club.db import ClubError, describe_url
    from dealer_assist.club.watch import ClubWatcher
    from dealer_assist.club.web import ClubConfig, create_club_app
    from dealer_assist.i18n import texts
    from dealer_assist.render import safe_text
    from dealer_assist.spectator.server import ServeError, bind, new_token, run, urls

    try:
        listener = bind(host, port)
    except ServeError as exc:
        _fail(str(exc), lang)
    token = None if listener.loopback else new_token()
    config = ClubConfig(url=url, delay=delay, token=token, loopback_only=listener.loopback, since=since)
    watcher = ClubWatcher(url, delay=delay, since=since, warn=config.warn)
    try:
        watcher.check()
    except ClubError as exc:
        listener.sock.close()
        _fail(str(exc), lang)
    application = create_club_app(config, watcher)
    t = texts(lang)
    shown = t["serve_late"].format(s=f"{delay:g}") if delay else t["serve_no_delay"]
    _print_addresses(t["serve_club_title"].format(delay=shown, url=safe_text(describe_url(url))), listener, token,
                     lang, extra=t["serve_club_tables"].format(
                         url=safe_text(urls(listener, token)[0].replace("/?", "/table/T1/?", 1)
                                       if token else urls(listener, token)[0] + "table/T1/")))
    try:
        run(application, listener)
    except KeyboardInterrupt:
        pass


def _fail(sentence: str, lang: str = "en") -> None:
    from dealer_assist.cli.options import error_text

    echo_err(error_text(sentence, lang))  # in the command's language, the names in it shown as text
    raise typer.Exit(2)


def _not_a_log(path: Path) -> Optional[str]:
    """A sentence when ``path`` exists, is not empty and its first line that holds anything is not a hand
    record (a line of NUL bytes left by a power cut is passed over: :func:`~dealer_assist.live.history.first_line_refusal`)."""
    from dealer_assist.live.history import first_line_refusal

    try:
        with open(path, "rb") as fh:
            refusal = first_line_refusal(fh, path)
    except FileNotFoundError:
        return None
    except OSError as exc:
        return f"The hand log {path} cannot be read ({exc.strerror or exc})."
    if refusal is None:
        return None
    return (f"{path} is not a hand log (its first line is not a dealer-assist hand record); "
            f"give the log live writes with --log.")
