"""The live dashboard: a table view as a rich renderable (RULES.md §5); no printing here.

:func:`render_dashboard` is a pure function of a :class:`~.table_view.TableView`,
a :class:`LiveStatus` (camera, frames per second, OCR, the croupier's prompt)
and the terminal's size. It picks the fullest layout that fits:

* **full** (about 120x40 and up): a header (hand number, dealer, playing position
  P and whether it was drawn at random, options, camera, frames per second, OCR,
  the calibration profile); the board with each note's rank and why; a panel per
  seat with its notes, ranks and why, the best hand so far in English and
  Russian, natural or modified, and the result; the settlement;
* **compact** (an 80x24 terminal): one line per seat in play -- both notes, the
  best hand and the result -- and the board on one line;

and in both the winner line, what the showdown waits for, the answer to the
croupier's last command, the prompt and the keys, which are never cut off. The
digit at P is marked ``123[4]567``, which a terminal without colours shows too.

A note's state is said plainly: *face down* (a note-shaped thing with no serial
seen: calm, not a failure), *being read* (the camera has read it but not often
enough to trust it; it never plays), *cannot be read* (its reads disagree, or
are not 7 digits: type it), *not read* (the recording ended first: type it).

The screen shown while the program loads is :mod:`~.startup`'s.

>>> import io
>>> from rich.console import Console
>>> from dealer_assist.live.table_state import NoteInfo, TableState
>>> from dealer_assist.live.table_view import table_view
>>> notes = [NoteInfo(f"t{i}", i, z, s, "trusted", 0.9, float(i)) for i, (z, s) in enumerate(
...     [("board", "9111111"), ("board", "8111111"), ("board", "7111111"),
...      ("A", "9444444"), ("A", "9555555"), ("B", "3222222"), ("B", "4333333")])]
>>> view = table_view(TableState(("A", "B"), position=1), notes)
>>> console = Console(file=io.StringIO(), width=120, color_system=None)
>>> console.print(render_dashboard(view, LiveStatus(camera="ok", fps=24.0)))
>>> out = console.file.getvalue()
>>> "Winner: A" in out, "Set (Сет)" in out, "[9]444444" in out
(True, True, True)
"""

from __future__ import annotations

from rich.console import RenderableType

from dealer_assist.i18n import KEYS_HELP, texts
from dealer_assist.live.dashboard_cells import LiveStatus, rendered_height
from dealer_assist.live.dashboard_compact import compact_layout
from dealer_assist.live.dashboard_full import full_layout
from dealer_assist.live.table_view import TableView

__all__ = ["LiveStatus", "render_dashboard", "KEYS_HELP", "FULL_SIZE"]

#: The smallest terminal (columns, rows) the full layout is tried in; smaller ones get the compact one.
FULL_SIZE = (110, 30)


# ----------------------------------------------------------------------------- entry points


def render_dashboard(view: TableView, status: LiveStatus, lang: str = "en", width: int | None = None,
                     height: int | None = None) -> RenderableType:
    """The whole dashboard for ``view`` in ``lang`` (``"en"`` or ``"ru"``; ``ValueError`` otherwise).

    ``width`` and ``height`` (characters, lines): the terminal's size. The full layout is used when
    it fits (or when the size is not given); else the compact one, which never exceeds ``height``.
    """
    t = texts(lang)
    if width is None:
        return full_layout(view, status, lang, t)
    if width >= FULL_SIZE[0] and (height is None or height >= FULL_SIZE[1]):
        full = full_layout(view, status, lang, t)
        if height is None or rendered_height(full, width) <= height:
            return full
    return compact_layout(view, status, lang, t, width, height)
