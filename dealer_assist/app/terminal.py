"""The terminal side of ``dealer-assist live``: the start-up screen, command lines read on a thread,
single keys in cbreak mode, SIGTERM/SIGHUP as Ctrl-C, and what the croupier types applied to the
session (:class:`Croupier`). :mod:`.live_run` runs the frame loop with them.
"""

from __future__ import annotations

import os
import queue
import select
import threading
from contextlib import contextmanager
from typing import Iterator

__all__ = ["Croupier", "LineCommands", "cbreak", "open_startup_screen", "read_keys", "restore_signals",
           "stop_on_signals"]


def open_startup_screen(lang: str, as_json: bool, ocr: bool, console=None):
    """The start-up screen of a run, its first step (the program) done, or None when none shows: the
    one the CLI drew before the program was loaded if it suits the run (not ``as_json``, the same
    ``lang``), else a new one when ``console`` (default a new one) is a terminal and not ``as_json``."""
    from dealer_assist.cli.output import showable_console

    from dealer_assist.live.startup import StartupScreen, take_early

    screen = take_early()  # drawn by the CLI before the program was loaded
    if screen is not None and (as_json or screen.lang != lang):
        screen.close()
        screen = None
    console = console or (screen.console if screen is not None else showable_console())
    if screen is None and not as_json and console.is_terminal:
        screen = StartupScreen(console, lang, ocr)
    if screen is not None:
        screen.step("step_program", "done")
    return screen


class LineCommands:
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
def cbreak(fd: int) -> Iterator[None]:
    """Single keys from a terminal, without echo; the terminal is restored on exit."""
    import termios
    import tty

    old = termios.tcgetattr(fd)
    try:
        tty.setcbreak(fd)
        yield
    finally:
        termios.tcsetattr(fd, termios.TCSADRAIN, old)


def read_keys(fd: int) -> list[str]:
    """The keys waiting on ``fd`` (a terminal in cbreak mode), without blocking."""
    out = []
    while select.select([fd], [], [], 0)[0]:
        data = os.read(fd, 64)
        if not data:
            break
        out.extend(data.decode("utf-8", "replace"))
    return out


def stop_on_signals() -> dict:
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


def restore_signals(previous: dict) -> None:
    """Put back the handlers :func:`stop_on_signals` replaced."""
    import signal

    for sig, handler in previous.items():
        signal.signal(sig, handler)


class _Feedback:
    """The answer to the last thing the croupier typed: a command's sentence or a typing mistake,
    whichever came last (the screen never keeps an older answer as if it were the new one)."""

    def __init__(self) -> None:
        self.text = ""

    def say(self, text: str) -> None:
        self.text = text


class Croupier:
    """What the croupier types -- single keys with their prompt, or command lines -- applied to the
    session, with the answer to the last of them in :attr:`feedback` (a refused or mistyped command
    is answered too, never left with an older answer on screen).

    Commands go through :func:`~dealer_assist.live.commands.advise` first: a showdown on an empty
    hand is refused with a sentence, and a new P once notes of the hand are dealt (RULES.md §2: P is
    announced before the hand) is applied only when given twice in a row.
    """

    def __init__(self, session, lang: str = "en") -> None:
        from dealer_assist.live.commands import KeyInput

        self.session = session
        self.lang = lang
        self.keys = KeyInput()
        self.feedback = _Feedback()
        self.armed = None  # the command that, given again next, goes ahead
        if session.message:
            self.feedback.say(session.message)

    def command(self, cmd, confirm_quit: bool = False) -> tuple[str, bool]:
        """Apply a parsed command; returns its answer and whether it was refused. ``confirm_quit``: a key
        on the dashboard, where ``q`` with a hand open asks first (see :func:`~dealer_assist.live.commands.advise`)."""
        from dealer_assist.live.commands import CommandName, advise, showdown_answer

        session = self.session
        advice = advise(cmd, session.view(), self.lang, self.armed, confirm_quit,
                        logged=getattr(session, "on_finished", None) is not None)
        self.armed = advice.confirm
        if not advice.run:
            msg, refused = advice.text, True
        else:
            msg, refused = session.command(cmd), session.last_refused
            if cmd.name is CommandName.SHOWDOWN and not refused and session.state.showdown_called:
                msg = showdown_answer(session.view(), self.lang)
        self.feedback.say(msg)
        return msg, refused

    def key(self, k: str) -> None:
        """One key (see :class:`~dealer_assist.live.commands.KeyInput`)."""
        cmd = self.keys.feed(k)
        if cmd is not None:
            self.command(cmd, confirm_quit=True)
        elif self.keys.error:
            self.feedback.say(self.keys.error)
        elif self.keys.prompt is None:
            self.armed = None  # any other key: a confirmation asked for is not given

    def line(self, text: str) -> tuple[str, bool]:
        """One command line; returns its answer and whether it was refused (a line that is no command is)."""
        from dealer_assist.live.commands import parse_command

        try:
            cmd = parse_command(text)
        except ValueError as exc:
            self.feedback.say(str(exc))
            return str(exc), True
        return self.command(cmd)
