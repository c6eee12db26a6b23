"""``dealer-assist live``: the camera watches the table, the terminal shows the hand and the showdown.

Wiring only: the run is :mod:`dealer_assist.app.live_run`, the frame loop's logic
:class:`dealer_assist.live.session.LiveSession`, the screen
:func:`dealer_assist.live.dashboard.render_dashboard`.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Optional

import typer

from dealer_assist.cli.app import app
from dealer_assist.cli.options import (echo_err, error_text, warn_serial_model,
    LOG_DEFAULT,
    camera_size_option,
    capture_mode,
    fail,
    fourcc_option,
    game_option,
    lang_option,
    resolve_lang,
    shown_default,
    tie_policy_option,
    zero_joker_option,
)
from dealer_assist.i18n import Lang, say
from dealer_assist.render import safe_text
from dealer_assist.rules import Game, TiePolicy, ZeroJoker

__all__ = ["live_command"]

INPUT, GAME, OUTPUT, TUNING = "Input", "The game", "Output", "Tuning"

EPILOG = (
    "Examples:\n\n"
    "  dealer-assist live --camera 0 --calibration mytable --position 4\n\n"
    "  dealer-assist live --camera 0 --camera-size 3840x2160 --fourcc MJPG --calibration mytable --position random\n\n"
    "  dealer-assist live --camera 'recording/frames/*.jpg' --calibration mytable --position 4 "
    "--no-window --json\n\n"
    "  dealer-assist live --camera 0 --calibration mytable --position 4 --club postgresql://dealer@club-pc/club "
    "--table T1\n\n"
    "Keys: n new hand (the button moves left) · p set P · r random P (from a cryptographic source) · "
    "s showdown · f fold a seat · e type or correct a serial · c chips · u undo · q quit. "
    "Without a terminal the same commands are read as lines from standard input "
    "(new, position 5, random, showdown, fold P3, in P3, out P3, serial board 2 1234567, chips P3 25, undo, quit)."
)


def _parse_trust(text: str) -> tuple[int, int]:
    m = re.fullmatch(r"\s*(\d+)\s*/\s*(\d+)\s*", text or "")
    if not m or not 1 <= int(m.group(1)) <= int(m.group(2)) <= 20:
        raise typer.BadParameter(f"must be K/N with 1 <= K <= N <= 20 (e.g. 2/3), not {text[:20]!r}.",
                                 param_hint="'--trust'")
    return int(m.group(1)), int(m.group(2))


def _parse_position(text: str) -> int | None:
    if text.strip().lower() == "random":
        return None
    if re.fullmatch(r"[1-7]", text.strip()):
        return int(text)
    raise typer.BadParameter(f"must be 1-7 or 'random', not {text[:20]!r}.", param_hint="'--position'")


@app.command("live", epilog=EPILOG)
def live_command(
    camera: str = typer.Option(..., "--camera", metavar="0|FILE|URL|GLOB", rich_help_panel=INPUT,
                               help="Camera number, video file, stream URL (a phone as an IP camera), or a "
                                    "glob/folder of images (quote globs)."),
    camera_size: Optional[str] = camera_size_option(rich_help_panel=INPUT),
    fourcc: Optional[str] = fourcc_option(rich_help_panel=INPUT),
    calibration: Optional[str] = typer.Option(None, "--calibration", metavar="NAME|FILE.json", rich_help_panel=INPUT,
                                              help="Calibration profile with the table and its zones. "
                                                   + shown_default("the default profile")),
    position: str = typer.Option(..., "--position", "-p", metavar="P|random", rich_help_panel=GAME,
                                 help="Playing position P, 1-7, or 'random' (drawn from a cryptographic source)."),
    zero_joker: ZeroJoker = zero_joker_option(ZeroJoker.OFF, rich_help_panel=GAME),
    tie_policy: TiePolicy = tie_policy_option(TiePolicy.SPLIT, rich_help_panel=GAME),
    game: Game = game_option(Game.HOLDEM, rich_help_panel=GAME,
                             help="The game of the session: holdem, or indian (Indian poker: one note per seat, no "
                                  "board; the board zone is not used)."),
    dealer: Optional[str] = typer.Option(None, "--dealer", metavar="SEAT", rich_help_panel=GAME,
                                         help="The first hand's dealer. " + shown_default("the first seat")),
    lang: Optional[Lang] = lang_option(rich_help_panel=OUTPUT, help="Language of the dashboard."),
    no_window: bool = typer.Option(False, "--no-window", rich_help_panel=OUTPUT,
                                   help="No OpenCV preview window (there is none anyway without a display)."),
    max_frames: Optional[int] = typer.Option(None, "--max-frames", min=1, metavar="N", rich_help_panel=INPUT,
                                             help="Stop after N frames. " + shown_default("no limit")),
    as_json: bool = typer.Option(False, "--json", rich_help_panel=OUTPUT,
                                 help="At the end print the hand's showdown as JSON (the result format plus serials); "
                                      "exit code 1 when it is not decided."),
    log: Optional[Path] = typer.Option(None, "--log", metavar="FILE", rich_help_panel=OUTPUT,
                                       help="Hand log (JSON Lines) to append finished hands to. "
                                            + shown_default(LOG_DEFAULT)),
    no_log: bool = typer.Option(False, "--no-log", rich_help_panel=OUTPUT, help="Do not log hands."),
    new_session: bool = typer.Option(False, "--new-session", rich_help_panel=OUTPUT,
                                     help="Start a new session. Without it a restart goes on with the hand log's "
                                          "session: the next hand number and dealer (unless its last hand is over "
                                          "12 hours old)."),
    realtime: bool = typer.Option(False, "--realtime", rich_help_panel=INPUT,
                                  help="Play a recording at its frame rate, reading what the OCR has time for "
                                       "(default: every frame is fully read, so results do not depend on speed)."),
    fps: Optional[float] = typer.Option(None, "--fps", min=0.1, max=1000.0, metavar="FPS", rich_help_panel=INPUT,
                                        help="Frame rate of an image list. " + shown_default("4 frames a second")),
    trust: str = typer.Option("2/3", "--trust", metavar="K/N", rich_help_panel=TUNING,
                              help="Trust a serial read the same in K of a note's last N reads."),
    ocr: bool = typer.Option(True, "--ocr/--no-ocr", rich_help_panel=TUNING,
                             help="--no-ocr: no reading; the croupier types every serial."),
    club: Optional[str] = typer.Option(None, "--club", metavar="URL", rich_help_panel=OUTPUT,
                                       help="Also send every finished hand and the hand in play to the club's "
                                            "PostgreSQL database (postgresql://…; `dealer-assist club init` once). "
                                            "The log is written first; when the club is unreachable the table "
                                            "plays on and the backlog goes up later."),
    table: Optional[str] = typer.Option(None, "--table", metavar="T", rich_help_panel=OUTPUT,
                                        help="This table's name in the club (letters, digits, . _ -); needed "
                                             "with --club."),
) -> None:
    """Watch the table: read serials as notes are dealt and show every hand and the showdown.

    The board and each seat are the zones of the calibration profile
    (`dealer-assist calibrate table`). A serial plays only once the camera has
    read the same 7 digits in K of N frames (--trust), or the croupier typed it.
    Every finished hand is appended to the hand log (`dealer-assist history`).
    """
    from dealer_assist.app.live_run import LiveConfig, LiveSetupError, prepare_live, run_live
    from dealer_assist.live.history import default_log_path
    from dealer_assist.spectator.state import default_state_path

    language = resolve_lang(lang).value
    if no_log and log is not None:
        fail("--no-log and --log FILE contradict each other; give one of them.", lang=language)
    if club is not None and no_log:
        fail("--club sends the hands from the log (the table keeps its own record first); give --log FILE "
             "or leave out --no-log.", lang=language)
    if club is not None and table is None:
        fail("--club needs --table T: the table's name in the club (e.g. --table T1).", lang=language)
    if table is not None and club is None:
        fail("--table names this table in a club; give --club URL too.", lang=language)
    if table is not None:
        from dealer_assist.cli.club_cmd import checked_table

        table = checked_table(table)
    if game is Game.INDIAN and (zero_joker is not ZeroJoker.OFF or tie_policy is not TiePolicy.SPLIT):
        fail("Indian poker has no zero-joker and no rollover (RULES.md §7); drop --zero-joker and --tie-policy.",
             lang=language)
    capture = capture_mode(camera_size, fourcc)
    log_path = None if no_log else (log if log is not None else default_log_path())
    config = LiveConfig(camera=camera, calibration=calibration, position=_parse_position(position),
                        zero_joker=zero_joker, tie_policy=tie_policy, dealer=dealer, lang=language,
                        game=game,
                        window=not no_window, max_frames=max_frames, as_json=as_json, log=log_path,
                        realtime=realtime, fps=fps, trust=_parse_trust(trust), ocr=ocr, capture=capture,
                        spectator_state=default_state_path(log_path) if log_path is not None else None,
                        club=club, table=table, new_session=new_session)
    try:
        run = prepare_live(config)
    except LiveSetupError as exc:
        fail(safe_text(exc), lang=language)
    if ocr:
        warn_serial_model(config.lang)
    outcome = run_live(run)
    if run.session.closing and not as_json:  # what became of the hand in play, in one line (--json: its status)
        echo_err(say(run.session.closing, config.lang))
    for sentence in outcome.notices:  # names of the recording's files: shown as text
        echo_err(safe_text(say(sentence, config.lang)))
    for line in outcome.unlogged:  # hands the log did not take: their JSON, where they are kept, how to append
        echo_err(safe_text(say(line, config.lang)))
    if outcome.errors:
        for sentence in outcome.errors[:-1]:
            echo_err(error_text(safe_text(sentence), language))
        fail(safe_text(outcome.errors[-1]), 2, lang=language)
    raise typer.Exit(outcome.code)
