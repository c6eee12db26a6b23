"""``dealer-assist live`` as a use case: open the profile, the camera and the hand log, run the frame loop.

The loop's decisions are the live session's (:class:`dealer_assist.live.session.LiveSession`) and
the screen is :func:`dealer_assist.live.dashboard.render_dashboard`; this module wires them to
a terminal (keys, or command lines on standard input: :mod:`.terminal`; the turns: :mod:`.frame_loop`), the preview window, the
spectator state file and the end of the run (what is logged, printed and returned).

:func:`prepare_live` checks everything that can be refused before a frame is read (one sentence,
:class:`LiveSetupError`); :func:`run_live` then runs until the recording ends, ``q``, Ctrl-C,
SIGTERM or SIGHUP, and returns a :class:`LiveOutcome`.
"""

from __future__ import annotations


import secrets
from dataclasses import dataclass, field
from pathlib import Path

from dealer_assist.app.terminal import (
    open_startup_screen,
    restore_signals,
    stop_on_signals,
)
from dealer_assist.capture import CaptureMode
from dealer_assist.rules import Game, TiePolicy, ZeroJoker

__all__ = ["LiveConfig", "LiveSetupError", "LiveOutcome", "LiveRun", "prepare_live", "run_live"]


class LiveSetupError(ValueError):
    """Something the run cannot start with (a profile, a camera, a log); one plain sentence."""


@dataclass(frozen=True)
class LiveConfig:
    """Everything ``live`` was asked for (the command line, parsed).

    Attributes:
        camera: ``--camera`` as given (a number, a file, a URL, a glob).
        calibration: a profile name or path, or None for the default profile.
        position: 1..7, or None for a position drawn at random (shown to the table).
        zero_joker, tie_policy: the hand's options.
        game: Hold'em or Indian poker for the whole session (RULES.md §7).
        dealer: the first hand's dealer seat, or None for the first seat.
        lang: ``"en"`` or ``"ru"``.
        window: open the OpenCV preview (when a display exists).
        max_frames: stop after this many frames (None: no limit).
        as_json: print the hand as JSON at the end (exit code 1 when not decided).
        log: the hand log's path, or None for no log.
        realtime: play a recording at its frame rate.
        fps: frame rate of an image list (None: the default).
        trust: (K, N) of the trust rule.
        ocr: read serials (False: the croupier types them).
        capture: what to ask a numbered camera for.
        spectator_state: where to write the spectator screen's state file (None: not written).
        club: the club's PostgreSQL URL (``--club``): finished hands and the hand in play are also sent
            there, from the log as the outbox (:mod:`dealer_assist.club.outbox`); None: no club.
        table: this table's name in the club (``--table``).
        new_session: start a new session even when the hand log's last hand is recent (``--new-session``;
            else the night goes on: :func:`dealer_assist.live.night.continue_session`).
    """

    camera: str
    calibration: str | None
    position: int | None
    zero_joker: ZeroJoker = ZeroJoker.OFF
    tie_policy: TiePolicy = TiePolicy.SPLIT
    dealer: str | None = None
    lang: str = "en"
    game: Game = Game.HOLDEM
    window: bool = True
    max_frames: int | None = None
    as_json: bool = False
    log: Path | None = None
    realtime: bool = False
    fps: float | None = None
    trust: tuple[int, int] = (2, 3)
    ocr: bool = True
    capture: CaptureMode = field(default_factory=CaptureMode)
    spectator_state: Path | None = None
    club: str | None = None
    table: str | None = None
    new_session: bool = False


@dataclass
class LiveRun:
    """A prepared run: the session and what feeds it, and the start-up screen when a terminal shows one."""

    config: LiveConfig
    session: object
    source: object
    worker: object
    random_position: bool
    screen: object = None  # a live.startup.StartupScreen
    session_lock: object = None  # a live.night.SessionLock held while the run plays
    unlogged: object = None  # a live.unlogged.UnloggedHands: the hands the log did not take
    club: object = None  # a club.outbox.Publisher with --club


@dataclass
class LiveOutcome:
    """How the run ended: the exit code, sentences for stderr, whether a result could not be written;
    ``unlogged``: the lines to print for the hands the log did not take (:meth:`UnloggedHands.report`)."""

    code: int
    errors: list[str] = field(default_factory=list)
    notices: list[str] = field(default_factory=list)
    unlogged: list[str] = field(default_factory=list)


def prepare_live(config: LiveConfig, console=None) -> LiveRun:
    """Open the profile, the camera (or recording) and the hand log; build the session.

    On a terminal (``console``, default a new one) the start-up screen shows from the start what is
    being loaded; :func:`run_live` turns it into the dashboard.

    Raises:
        LiveSetupError: a profile without a table, a dealer who is not a seat, a camera that cannot
            be opened, a hand log that cannot take records.
    """
    screen = open_startup_screen(config.lang, config.as_json, config.ocr, console)
    try:
        run = _prepare(config, screen)
    except BaseException:
        if screen is not None:
            screen.close()
        raise
    run.screen = screen
    return run


def _prepare(config: LiveConfig, screen) -> LiveRun:
    step = screen.step if screen is not None else (lambda key, state: None)
    step("step_profile", "busy")
    from dealer_assist.calibration import CalibrationError, load_profile
    from dealer_assist.live.frame_source import CameraError, open_source
    from dealer_assist.live.history import HandLog, HistoryError
    from dealer_assist.live.session import LiveOptions, LiveSession
    from dealer_assist.live.table_state import TableState
    from dealer_assist.live.tracker import TrustRule

    try:
        profile = load_profile(config.calibration)
        seats = tuple(profile.seats)  # needs the table section
    except CalibrationError as exc:
        raise LiveSetupError(str(exc)) from None
    if config.game.board_notes and profile.require_table().board is None:
        raise LiveSetupError(f"the calibration '{profile.name}' has no board zone, which Hold'em needs; "
                             f"calibrate the table with one, or play --game indian (no board).")
    step("step_profile", "done")
    step("step_camera", "busy")
    random_position = config.position is None
    p = secrets.randbelow(7) + 1 if random_position else config.position
    state = TableState(seats, p, config.zero_joker, config.tie_policy, position_random=random_position,
                       game=config.game)
    if config.dealer is not None:
        try:
            state = TableState(seats, p, config.zero_joker, config.tie_policy,
                               dealer_index=seats.index(state.seat(config.dealer)), position_random=random_position,
                               game=config.game)
        except ValueError as exc:
            raise LiveSetupError(f"--dealer: {exc}") from None
    try:
        source = open_source(config.camera, fps=config.fps, mode=config.capture)
    except CameraError as exc:
        raise LiveSetupError(str(exc)) from None
    step("step_camera", "done")
    hand_log = None if config.log is None else HandLog(config.log)
    if hand_log is not None:
        try:
            hand_log.check()
        except HistoryError as exc:
            source.release()
            raise LiveSetupError(str(exc)) from None
    continuation = _continuation(config, hand_log, seats)
    if continuation is not None:
        dealer_index = state.dealer_index if config.dealer is not None or continuation.dealer_index is None \
            else continuation.dealer_index
        state = TableState(seats, p, config.zero_joker, config.tie_policy, hand_number=continuation.hand_number,
                           dealer_index=dealer_index, position_random=random_position, game=config.game,
                           carried_in=continuation.carried_in if config.game.board_notes else 0)
    step("step_log", "skip" if hand_log is None else "done")
    club = None
    if config.club is not None and hand_log is not None:
        from dealer_assist.club.db import ClubError, check_url
        from dealer_assist.club.outbox import Outbox, Publisher

        try:
            check_url(config.club)
        except ClubError as exc:
            source.release()
            raise LiveSetupError(str(exc)) from None
        club = Publisher(Outbox(config.log, config.club, config.table or "table"))
    if config.ocr:
        from dealer_assist.live.worker import ProcessWorker

        worker = ProcessWorker(layout=profile.notes)  # a calibrated deck gives the reader its fast path
    else:
        from dealer_assist.live.worker import InlineWorker

        worker = InlineWorker(read=lambda job: ())
    options = LiveOptions(trust=TrustRule(*config.trust), ocr=config.ocr)
    on_finished = unlogged = None
    if hand_log is not None:  # a hand the log does not take is kept in a fallback file (live.unlogged)
        from dealer_assist.live.unlogged import UnloggedHands

        unlogged = UnloggedHands(hand_log.path)
        on_finished = lambda record: unlogged.append_or_keep(hand_log.append, record)  # noqa: E731
    if club is not None:
        def on_finished(record, append=on_finished, wake=club.wake):
            try:
                append(record)  # the local log first (fsynced): the table is the source of truth
            finally:
                wake()      # then the outbox sends what the log holds to the club
    session = LiveSession(profile, state, worker, options, on_finished=on_finished)
    messages = []
    if continuation is not None:
        session.session_id = continuation.session
        session.earlier = list(continuation.earlier)
        messages.append(continuation.sentence)
    session_lock = None
    if hand_log is not None:  # held while this run plays: another table on the log never joins it
        from dealer_assist.live.night import SessionLock

        session_lock = SessionLock(hand_log.path, session.session_id)
        session_lock.hold()
    if random_position:
        messages.append(f"Random playing position: P={p}.")
    session.message = " ".join(messages)
    step("step_ocr", "busy")
    return LiveRun(config, session, source, worker, random_position, unlogged=unlogged, club=club,
                   session_lock=session_lock)


def _continuation(config: LiveConfig, hand_log, seats):
    """Where the night goes on from the hand log (:func:`~dealer_assist.live.night.continue_session`), or None
    for a new session (no log, an empty or unreadable one, ``--new-session``)."""
    from datetime import datetime, timezone

    from dealer_assist.live.history import HistoryError, read_log
    from dealer_assist.live.night import SessionLock, continue_session

    if hand_log is None or config.new_session or not hand_log.path.exists():
        return None
    try:
        records, _ = read_log(hand_log.path)
    except HistoryError:
        return None
    going_on = continue_session(records, seats, datetime.now(timezone.utc), config.new_session,
                                tie_policy=getattr(config.tie_policy, "value", config.tie_policy))
    if going_on is not None and SessionLock(hand_log.path, going_on.session).held_elsewhere():
        return None  # another table playing now holds that session: this table starts its own
    return going_on


def run_live(run: LiveRun, console=None) -> LiveOutcome:
    """Run the frame loop until the run ends (see the module doc); the decided hand is logged first."""
    from dealer_assist.cli.output import showable_console

    from dealer_assist.app.frame_loop import FrameLoop
    from dealer_assist.calibration import CalibrationError
    from dealer_assist.display import has_display
    from dealer_assist.live.frame_source import CameraError, CameraFeed, describe_source, is_camera_index, open_source

    config, session, source = run.config, run.session, run.source
    replay = not source.live and not config.realtime
    feed = CameraFeed(lambda: open_source(config.camera, fps=config.fps, mode=config.capture), first=source,
                      realtime=not replay)
    console = console or (run.screen.console if run.screen is not None else showable_console())
    window = None
    if config.window and has_display():
        from dealer_assist.live.preview import PreviewWindow

        window = PreviewWindow()
    outcome = LiveOutcome(2)
    if run.club is not None:
        run.club.start()
    previous = stop_on_signals()
    try:
        outcome = FrameLoop(run, feed, console, window, replay, describe_source(config.camera)).run()
    except (CalibrationError, CameraError) as exc:
        outcome.errors.append(str(exc))
    except KeyboardInterrupt:  # Ctrl-C, or SIGTERM / SIGHUP (see stop_on_signals)
        outcome.code = 130
    finally:
        if window is not None:
            window.close()
        if run.screen is not None and run.screen.live.is_started:
            run.screen.live.stop()  # the dashboard (or the start-up screen) stays on the terminal
        try:
            session.close("quit" if session.quit_requested else "stopped")  # a decided hand is logged
        finally:
            if run.club is not None:
                status = run.club.close()  # a few seconds for the backlog; the rest stays in the log
                if status.waiting:
                    outcome.notices.append(f"{status.waiting} hand(s) are not in the club yet ({status.error or 'not sent'}); "
                                           f"they stay in the log: the next live --club sends them, or run "
                                           f"dealer-assist club sync --log {config.log} --club URL --table {status.table}.")
            run.worker.close()
            feed.close()
            if run.session_lock is not None:
                run.session_lock.release()  # after the last hand is logged: a restart may go on with it
            restore_signals(previous)
    mode = config.capture
    if not is_camera_index(config.camera) and mode is not None and (mode.size or mode.fourcc):
        outcome.notices.append("--camera-size and --fourcc ask a numbered camera for a mode; a recording or a "
                               "stream gives its own, so they were not used.")
    skipped = getattr(source, "skipped", [])
    if skipped:
        names = ", ".join(p.name for p in skipped[:5]) + (f" and {len(skipped) - 5} more" if len(skipped) > 5 else "")
        outcome.notices.append(f"Skipped {len(skipped)} file(s) of the recording that are not images OpenCV can "
                               f"read: {names}.")
        if not session.frames and not outcome.errors:
            outcome.errors.append(f"No frame could be read from {describe_source(config.camera)}.")
    log_errors = session.log_errors
    if run.unlogged is not None and run.unlogged.refused:
        # the hands the log refused: printed (or said to be in the log after all), and one error sentence
        outcome.unlogged = run.unlogged.report()
        log_errors = [] if run.unlogged.caught_up else [run.unlogged.summary()]
    outcome.errors.extend(log_errors)
    if log_errors and outcome.code in (0, 1):
        outcome.code = 2
    return outcome
