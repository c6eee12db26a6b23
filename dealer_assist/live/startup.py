"""The start-up screen of ``dealer-assist live``: what is being loaded, from the first second.

Loading the OCR models takes about 15 s on a small machine, and the program
itself about a second: a croupier facing a blank terminal thinks it hung. So
the CLI package draws this screen before it imports the command modules
(:func:`show_early`), ``live`` marks each step as it is done (the calibration
profile, the camera or recording, the hand log, the OCR models), and the same
rich ``Live`` then shows the dashboard.

Light on purpose (rich and the words only): it runs before the rest of the program is loaded.

>>> import io
>>> from rich.console import Console
>>> console = Console(file=io.StringIO(), width=80, color_system=None)
>>> console.print(render_startup([StartupStep("step_profile", "done"), StartupStep("step_ocr", "busy")]))
>>> "OCR models (about 15 s)  loading…" in console.file.getvalue()
True
"""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass
from typing import Mapping, Sequence

from rich.console import Console, Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from dealer_assist.i18n import default_lang, parse_lang, say, texts

__all__ = ["StartupStep", "StartupScreen", "render_startup", "show_early", "take_early", "drop_early", "STEPS"]

#: The steps, in order: the program itself, then what ``live`` opens and loads.
STEPS = ("step_program", "step_profile", "step_camera", "step_log", "step_ocr")


@dataclass(frozen=True)
class StartupStep:
    """One thing being loaded: its key in the translation table (one of :data:`STEPS`) and its state
    (``done``, ``busy``, ``wait`` or ``skip``)."""

    key: str
    state: str = "wait"


def render_startup(steps: Sequence[StartupStep], lang: str = "en", message: str = "") -> RenderableType:
    """The screen: a title, each step with its state, and what comes next."""
    t = texts(lang)
    marks = {"done": ("✓", "green"), "busy": ("…", "bold yellow"), "wait": ("·", "dim"), "skip": ("–", "dim")}
    table = Table.grid(padding=(0, 1))
    for step in steps:
        mark, style = marks.get(step.state, ("·", "dim"))
        table.add_row(Text(mark, style=style), Text(f"{t[step.key]}  {t['step_' + step.state]}", style=style))
    parts: list[RenderableType] = [Text(t["startup_title"], style="bold"), table, Text(t["startup_hint"], style="dim")]
    if message:
        parts.append(Text(say(message, lang), style="bold cyan"))
    return Panel(Group(*parts), border_style="cyan", expand=False)


class StartupScreen:
    """The start-up screen on a terminal: a rich ``Live`` (no automatic refresh) showing the steps.

    :meth:`step` marks a step and redraws at once; :attr:`live` goes on showing the dashboard
    when the start-up is over; :meth:`close` takes the screen away (a refused start).
    """

    def __init__(self, console: Console, lang: str = "en", ocr: bool = True) -> None:
        from rich.live import Live

        self.console = console
        self.lang = lang
        self.steps = {key: StartupStep(key) for key in STEPS}
        self.steps["step_program"] = StartupStep("step_program", "busy")
        if not ocr:
            self.steps["step_ocr"] = StartupStep("step_ocr", "skip")
        self.message = ""
        self.live = Live(self.renderable(), console=console, auto_refresh=False, transient=False)
        self.live.start(refresh=True)

    def renderable(self) -> RenderableType:
        return render_startup(list(self.steps.values()), self.lang, self.message)

    def mark(self, key: str, state: str) -> None:
        """Set a step's state (a step that is not used stays so)."""
        if self.steps[key].state != "skip":
            self.steps[key] = StartupStep(key, state)

    def step(self, key: str, state: str) -> None:
        """Set a step's state and show it at once."""
        self.mark(key, state)
        self.live.update(self.renderable(), refresh=True)

    def close(self) -> None:
        """Take the screen away, leaving the terminal as it was (the error sentence follows on it)."""
        self.live.transient = True
        if self.live.is_started:
            self.live.stop()


_EARLY: StartupScreen | None = None


def _is_live_on_a_terminal(argv: Sequence[str]) -> bool:
    """``dealer-assist live ...`` (or ``python -m dealer_assist live ...``) whose screen is a terminal and
    that asks for neither ``--help`` nor ``--json``."""
    if len(argv) < 2 or argv[1] != "live":
        return False
    program = os.path.basename(argv[0] or "")
    if program != "dealer-assist" and not (program == "__main__.py"
                                           and os.path.basename(os.path.dirname(argv[0])) == "dealer_assist"):
        return False
    if any(a in ("--help", "--json") for a in argv[2:]):
        return False
    return sys.stdout is not None and sys.stdout.isatty()  # closed (>&-): main() refuses it


def _lang_of(argv: Sequence[str], environ: Mapping[str, str]) -> str:
    value = None
    for i, a in enumerate(argv):
        if a == "--lang" and i + 1 < len(argv):
            value = argv[i + 1]
        elif a.startswith("--lang="):
            value = a.split("=", 1)[1]
    try:
        return (parse_lang(value) if value is not None else default_lang(environ)).value
    except ValueError:
        return default_lang(environ).value


def show_early(argv: Sequence[str] | None = None, environ: Mapping[str, str] | None = None) -> StartupScreen | None:
    """Draw the start-up screen now when the command line is ``live`` on a terminal (the CLI package
    calls this before importing the command modules); ``live`` takes it over with :func:`take_early`."""
    global _EARLY
    argv = sys.argv if argv is None else argv
    environ = os.environ if environ is None else environ
    if _EARLY is not None or not _is_live_on_a_terminal(argv):
        return None
    import multiprocessing

    if multiprocessing.current_process().name != "MainProcess":  # named before the child imports __main__
        # the OCR worker is spawned with the parent's argv and re-imports the CLI: it must not draw
        # a screen of its own over the parent's (a stray panel left above the dashboard)
        return None
    from dealer_assist.cli.output import showable_console  # (the package is importing: output.py alone loads)

    console = showable_console()  # laid out on the letters an ASCII terminal writes (sixth new-user trial L6)
    if not console.is_terminal:
        return None
    _EARLY = StartupScreen(console, _lang_of(argv, environ), "--no-ocr" not in argv)
    return _EARLY


def take_early() -> StartupScreen | None:
    """The screen :func:`show_early` drew, for ``live`` to go on with (once)."""
    global _EARLY
    screen, _EARLY = _EARLY, None
    return screen


def drop_early() -> None:
    """Take away a screen nobody took over (the command line was refused before ``live`` started)."""
    screen = take_early()
    if screen is not None:
        screen.close()
