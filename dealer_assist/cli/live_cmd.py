"""``dealer-assist live``: the camera watches the table, the terminal shows the hand and the showdown.

Wiring only: the frame loop's logic is :class:`dealer_assist.live.session.LiveSession`,
the screen :func:`dealer_assist.live.dashboard.render_dashboard`.
"""

from __future__ import annotations

import json
import os
import queue
import re
import secrets
import select
import sys
import threading
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator, Optional

import typer
from rich.console import Console
from rich.live import Live

from dealer_assist.cli.app import app
from dealer_assist.i18n import default_lang
from dealer_assist.render import LANGUAGES

__all__ = ["live_command"]

INPUT, GAME, OUTPUT, TUNING = "Input", "The game", "Output", "Tuning"

EPILOG = (
    "Examples:\n\n"
    "  dealer-assist live --camera 0 --calibration mytable --position 4\n\n"
    "  dealer-assist live --camera 'recording/frames/*.jpg' --calibration mytable --position 4 "
    "--no-window --json\n\n"
    "Keys: n new hand (the button moves left) · p set P · r random P (from a cryptographic source) · "
    "s showdown · f fold a seat · e type or correct a serial · c chips · u undo · q quit. "
    "Without a terminal the same commands are read as lines from standard input "
    "(new, position 5, random, showdown, fold P3, serial board 2 1234567, chips P3 25, undo, quit)."
)


def _fail(message: str, code: int = 2) -> None:
    typer.echo(f"Error: {message}", err=True)
    raise typer.Exit(code)


class _LineCommands:
    """Commands read as lines from a pipe, on a thread (never blocks the loop)."""

    def __init__(self, stream) -> None:
        self.queue: "queue.Queue[str]" = queue.Queue()
        self.closed = False
        self._thread = threading.Thread(target=self._run, args=(stream,), name="commands", daemon=True)
        self._thread.start()

    def _run(self, stream) -> None:
        try:
            for line in stream:
                if line.strip():
                    self.queue.put(line.rstrip("\n"))
        except (OSError, ValueError):
            pass
        self.closed = True

    def lines(self) -> list[str]:
        out = []
        while True:
            try:
                out.append(self.queue.get_nowait())
            except queue.Empty:
                return out


@contextmanager
def _cbreak(fd: int) -> Iterator[None]:
    """Single keys from a terminal, without echo; the terminal is restored on exit."""
    import termios
    import tty

    old = termios.tcgetattr(fd)
    try:
        tty.setcbreak(fd)
        yield
    finally:
        termios.tcsetattr(fd, termios.TCSADRAIN, old)


def _keys(fd: int) -> list[str]:
    out = []
    while select.select([fd], [], [], 0)[0]:
        data = os.read(fd, 64)
        if not data:
            break
        out.extend(data.decode("utf-8", "replace"))
    return out


def _parse_trust(text: str) -> tuple[int, int]:
    m = re.fullmatch(r"\s*(\d+)\s*/\s*(\d+)\s*", text or "")
    if not m or not 1 <= int(m.group(1)) <= int(m.group(2)) <= 20:
        raise typer.BadParameter(f"must be K/N with 1 <= K <= N <= 20 (e.g. 2/3), not {text!r}.", param_hint="'--trust'")
    return int(m.group(1)), int(m.group(2))


@app.command("live", epilog=EPILOG)
def live_command(
    camera: str = typer.Option(..., "--camera", metavar="0|FILE|URL|GLOB", rich_help_panel=INPUT,
                               help="Camera number, video file, stream URL, or a glob/folder of images (quote globs)."),
    calibration: Optional[str] = typer.Option(None, "--calibration", metavar="NAME|FILE.json", rich_help_panel=INPUT,
                                              help="Calibration profile with the table and its zones (default: the default profile)."),
    position: str = typer.Option(..., "--position", "-p", metavar="P|random", rich_help_panel=GAME,
                                 help="Playing position P, 1-7, or 'random' (drawn from a cryptographic source)."),
    zero_joker: str = typer.Option("off", "--zero-joker", metavar="off|per-zero|once", rich_help_panel=GAME,
                                   help="Zero-joker option (RULES.md §2.5)."),
    tie_policy: str = typer.Option("split", "--tie-policy", metavar="split|rollover", rich_help_panel=GAME,
                                   help="What a tied pot does (RULES.md §4)."),
    dealer: Optional[str] = typer.Option(None, "--dealer", metavar="SEAT", rich_help_panel=GAME,
                                         help="The first hand's dealer (default: the first seat)."),
    lang: Optional[str] = typer.Option(None, "--lang", metavar="en|ru", rich_help_panel=OUTPUT,
                                       help="Language of the dashboard. [default: from LC_ALL / LANG]"),
    no_window: bool = typer.Option(False, "--no-window", rich_help_panel=OUTPUT,
                                   help="No OpenCV preview window (there is none anyway without a display)."),
    max_frames: Optional[int] = typer.Option(None, "--max-frames", min=1, metavar="N", rich_help_panel=INPUT,
                                             help="Stop after N frames."),
    as_json: bool = typer.Option(False, "--json", rich_help_panel=OUTPUT,
                                 help="At the end print the hand's showdown as JSON (FORMATS.md §2 plus serials); "
                                      "exit code 1 when it is not decided."),
    log: Optional[Path] = typer.Option(None, "--log", metavar="FILE", rich_help_panel=OUTPUT,
                                       help="Hand log (JSON Lines) to append finished hands to. "
                                            "[default: $DEALER_ASSIST_HISTORY or ~/.local/share/dealer-assist/hands.jsonl]"),
    no_log: bool = typer.Option(False, "--no-log", rich_help_panel=OUTPUT, help="Do not log hands."),
    realtime: bool = typer.Option(False, "--realtime", rich_help_panel=INPUT,
                                  help="Play a recording at its frame rate, reading what the OCR has time for "
                                       "(default: every frame is fully read, so results do not depend on speed)."),
    fps: Optional[float] = typer.Option(None, "--fps", min=0.1, max=1000.0, rich_help_panel=INPUT,
                                        help="Frame rate of an image list. [default: 4]"),
    trust: str = typer.Option("2/3", "--trust", metavar="K/N", rich_help_panel=TUNING,
                              help="Trust a serial read the same in K of a note's last N reads."),
    ocr: bool = typer.Option(True, "--ocr/--no-ocr", rich_help_panel=TUNING,
                             help="--no-ocr: no reading; the croupier types every serial."),
) -> None:
    """Watch the table: read serials as notes are dealt and show every hand and the showdown.

    The board and each seat are the zones of the calibration profile
    (`dealer-assist calibrate table`). A serial plays only once the camera has
    read the same 7 digits in K of N frames (--trust), or the croupier typed it.
    Every finished hand is appended to the hand log (`dealer-assist history`).
    """
    from dealer_assist.calibration import CalibrationError, load_profile
    from dealer_assist.display import has_display
    from dealer_assist.live.camera import CameraError, CameraFeed, describe_source, open_source
    from dealer_assist.live.history import HandLog, HistoryError, default_log_path
    from dealer_assist.live.session import LiveOptions, LiveSession
    from dealer_assist.live.table_state import TableState
    from dealer_assist.live.tracker import TrustRule
    from dealer_assist.rules import TiePolicy, ZeroJoker

    lang = lang or default_lang()
    if lang not in LANGUAGES:
        raise typer.BadParameter(f"must be en or ru, not {lang!r}.", param_hint="'--lang'")
    random_p = position.strip().lower() == "random"
    if random_p:
        p = secrets.randbelow(7) + 1
    elif re.fullmatch(r"[1-7]", position.strip()):
        p = int(position)
    else:
        raise typer.BadParameter(f"must be 1-7 or 'random', not {position[:20]!r}.", param_hint="'--position'")
    try:
        joker = ZeroJoker(zero_joker)
    except ValueError:
        raise typer.BadParameter(f"must be off, per-zero or once, not {zero_joker[:20]!r}.",
                                 param_hint="'--zero-joker'") from None
    try:
        ties = TiePolicy(tie_policy)
    except ValueError:
        raise typer.BadParameter(f"must be split or rollover, not {tie_policy[:20]!r}.",
                                 param_hint="'--tie-policy'") from None
    k, n = _parse_trust(trust)

    try:
        profile = load_profile(calibration)
        seats = profile.seats  # needs the table section
    except CalibrationError as exc:
        _fail(str(exc))
    state = TableState(tuple(seats), p, joker, ties, position_random=random_p)
    if dealer is not None:
        try:
            state = TableState(tuple(seats), p, joker, ties, dealer_index=seats.index(state.seat(dealer)),
                               position_random=random_p)
        except ValueError as exc:
            raise typer.BadParameter(str(exc), param_hint="'--dealer'") from None
    try:
        source = open_source(camera, fps=fps)
    except CameraError as exc:
        _fail(str(exc))

    if no_log and log is not None:
        _fail("--no-log and --log FILE contradict each other; give one of them.")
    hand_log = None if no_log else HandLog(log if log is not None else default_log_path())
    if hand_log is not None:
        try:
            hand_log.check()
        except HistoryError as exc:
            _fail(str(exc))
    if ocr:
        from dealer_assist.live.worker import ProcessWorker

        worker = ProcessWorker(layout=profile.notes)  # a calibrated deck gives the reader its fast path
    else:
        from dealer_assist.live.worker import InlineWorker

        worker = InlineWorker(read=lambda job: ())
    options = LiveOptions(trust=TrustRule(k, n), ocr=ocr)
    session = LiveSession(profile, state, worker, options, log=hand_log)
    replay = not source.live and not realtime
    feed = CameraFeed(lambda: open_source(camera, fps=fps), first=source, realtime=not replay)
    console = Console()
    interactive = console.is_terminal and not as_json
    keys_tty = sys.stdin.isatty() and interactive
    lines = None if sys.stdin.isatty() else _LineCommands(sys.stdin)
    window = None
    if not no_window and has_display():
        from dealer_assist.live.preview import PreviewWindow

        window = PreviewWindow()
    if random_p:
        session.message = f"Random playing position: P={p}."
    error = None
    code = 2
    previous = _stop_on_signals()
    try:
        code = _loop(session, feed, console, interactive, keys_tty, lines, window, lang, max_frames, replay,
                     describe_source(camera), as_json)
    except (CalibrationError, CameraError) as exc:
        error = str(exc)
    except KeyboardInterrupt:  # Ctrl-C, or SIGTERM / SIGHUP (see _stop_on_signals)
        code = 130
    finally:
        if window is not None:
            window.close()
        try:
            session.close("quit" if session.quit_requested else "stopped")  # a decided hand is logged
        finally:
            worker.close()
            feed.close()
            _restore_signals(previous)
    skipped = getattr(source, "skipped", [])
    if skipped:
        names = ", ".join(p.name for p in skipped[:5]) + (f" and {len(skipped) - 5} more" if len(skipped) > 5 else "")
        typer.echo(f"Skipped {len(skipped)} file(s) of the recording that are not images OpenCV can read: {names}.",
                   err=True)
        if not session.frames:
            error = error or f"No frame could be read from {describe_source(camera)}."
    for sentence in session.log_errors:
        typer.echo(f"Error: {sentence}", err=True)
    if error is not None:
        _fail(error)
    raise typer.Exit(2 if session.log_errors and code in (0, 1) else code)


def _stop_on_signals() -> dict:
    """SIGTERM and SIGHUP (a closed terminal, a service stop) end the session as Ctrl-C does:
    the decided hand is logged and the OCR process stopped. Returns the previous handlers."""
    import signal

    def stop(signum, frame):
        raise KeyboardInterrupt

    previous = {}
    if threading.current_thread() is threading.main_thread():
        for name in ("SIGTERM", "SIGHUP"):
            sig = getattr(signal, name, None)
            if sig is not None:
                previous[sig] = signal.signal(sig, stop)
    return previous


def _restore_signals(previous: dict) -> None:
    import signal

    for sig, handler in previous.items():
        signal.signal(sig, handler)


def _loop(session, feed, console: Console, interactive: bool, keys_tty: bool, lines, window, lang: str,
          max_frames: Optional[int], replay: bool, source_label: str, as_json: bool) -> int:
    from dealer_assist.live.commands import KeyInput, parse_command
    from dealer_assist.live.dashboard import LiveStatus, render_dashboard

    key_input = KeyInput()
    frames = 0
    fps = 0.0
    stamps: list[float] = []
    last_draw = 0.0
    last_frame = None

    def status() -> LiveStatus:
        return LiveStatus(camera=feed.shown_state, fps=fps, ocr=session.ocr_state, source=source_label,
                          camera_detail=feed.detail, message=session.message or key_input.error,
                          prompt=key_input.prompt, warning=session.warning)

    def run_command(text: str) -> None:
        """A command line from standard input; a refused one is said on stderr (nobody sees a dashboard)."""
        try:
            cmd = parse_command(text)
        except ValueError as exc:
            session.message = str(exc)
            typer.echo(f"Refused: {exc}", err=True)
            return
        errors = len(session.log_errors)
        msg = session.command(cmd)
        if session.last_refused or len(session.log_errors) > errors:
            typer.echo(f"Refused: {msg}" if session.last_refused else f"Error: {msg}", err=True)
        elif not interactive and not as_json:
            console.print(msg, markup=False, highlight=False)

    live = Live(render_dashboard(session.view(), status(), lang), console=console, auto_refresh=False,
                transient=False) if interactive else None
    keys_cm = _cbreak(sys.stdin.fileno()) if keys_tty else _nullcontext()
    finished_seen = 0
    ended = False
    try:
        with keys_cm:
            if live is not None:
                live.start()
            while not session.quit_requested:
                frame = feed.poll()
                now = time.monotonic()
                if frame is not None:
                    session.on_frame(frame)
                    last_frame = frame
                    frames += 1
                    stamps.append(now)
                    stamps = [s for s in stamps if now - s <= 1.0]
                    fps = len(stamps) / max(1e-6, min(1.0, now - stamps[0])) if len(stamps) > 1 else fps
                session.pump(wait=replay)
                if keys_tty:
                    for key in _keys(sys.stdin.fileno()):
                        cmd = key_input.feed(key)
                        if cmd is not None:
                            session.command(cmd)
                if lines is not None:
                    for text in lines.lines():
                        run_command(text)
                if window is not None and last_frame is not None:
                    from dealer_assist.live.preview import draw_overlay

                    s = session.state
                    key = window.show(draw_overlay(last_frame.image, session.profile, list(session.tracker),
                                                   s.position, (f"hand {s.hand_number}  P={s.position}  {fps:.0f} fps",)))
                    if key is not None:
                        cmd = key_input.feed(key)
                        if cmd is not None:
                            session.command(cmd)
                if len(session.finished) > finished_seen:
                    for record in session.finished[finished_seen:]:
                        if not interactive and not as_json:
                            console.print(f"hand {record['hand']} finished: {record['status']}, winners "
                                          f"{', '.join(record['winners']) or 'none'}", markup=False, highlight=False)
                    finished_seen = len(session.finished)
                if live is not None and (now - last_draw > 0.25 or frame is not None and replay):
                    live.update(render_dashboard(session.view(), status(), lang, console.width), refresh=True)
                    last_draw = now
                if max_frames is not None and frames >= max_frames:
                    break
                if feed.state == "ended" and not ended:
                    ended = True
                    if last_frame is not None:
                        session.hold()
                        session.pump(wait=True)
                if ended:
                    # a recording ended: stay while someone can still type commands
                    if not keys_tty and (lines is None or lines.closed):
                        break
                if frame is None:
                    time.sleep(0.005)
            if max_frames is not None and frames >= max_frames and last_frame is not None and replay:
                session.hold()
                session.pump(wait=True)
            view = session.view()
            if live is not None:
                live.update(render_dashboard(view, status(), lang, console.width), refresh=True)
    finally:
        if live is not None:
            live.stop()
        feed.close()
    code = 0 if view.complete or not as_json else 1  # --json: a script learns the hand was not decided
    # the decided hand goes to the log before anything is printed: an output that cannot be
    # written (a closed pipe, a full disk) must not lose it
    session.close("quit" if session.quit_requested else "end of video" if ended else "stopped")
    try:
        if as_json:
            out = view.result_json()
            out["hand_number"] = view.state.hand_number
            out["frames"] = frames
            if session.warning and session.options.ocr:
                # the dashboard's warning (a camera too far to read) has no dashboard here
                out["warning"] = session.warning
                print(session.warning, file=sys.stderr)
            sys.stdout.write(json.dumps(out, ensure_ascii=False) + "\n")
            sys.stdout.flush()
        elif not interactive:
            console.print(render_dashboard(view, status(), lang, console.width))
    except OSError as exc:
        try:
            sys.stdout = open(os.devnull, "w")  # noqa: SIM115 - nothing more may go to the broken output
        except OSError:
            pass
        typer.echo(f"Error: the result cannot be written to standard output ({exc.strerror or exc}).", err=True)
        return 2
    return code


@contextmanager
def _nullcontext() -> Iterator[None]:
    yield
