"""The terminal report of ``score``: a panel per hand, then a summary (rich renderables; no printing here)."""

from __future__ import annotations

from pathlib import Path
from typing import Sequence

from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from dealer_assist.app.verdicts import HandScore, Verdict
from dealer_assist.i18n import counted, number, say, texts
from dealer_assist.render import name_text, render_showdown, safe_text

__all__ = ["hand_report", "summary"]


def hand_names(folders: Sequence[str]) -> dict[str, str]:
    """How each hand folder is named in the report: its name, or, when two share it (``table1/hand_01``,
    ``table2/hand_01``), as many of its last path parts as tell them apart (the whole path at most; sixth
    new-user trial L5).

    >>> hand_names(["/n/t1/hand_01", "/n/t2/hand_01", "/n/t1/hand_02"])
    {'/n/t1/hand_01': 't1/hand_01', '/n/t2/hand_01': 't2/hand_01', '/n/t1/hand_02': 'hand_02'}
    """
    out = {}
    for folder in folders:
        parts = Path(folder).parts
        for k in range(1, len(parts) + 1):
            label = "/".join(parts[-k:])
            if sum(1 for f in folders if "/".join(Path(f).parts[-k:]) == label) == 1 or k == len(parts):
                out[folder] = str(folder) if k == len(parts) else label
                break
    return out


def hand_report(sc: HandScore, lang: str, name: str | None = None) -> RenderableType:
    """The showdown of a scored hand, or the reasons and the notes read of one that needs review; then
    what was read and not counted (a stray read), so that nothing the reader saw is dropped unsaid.

    Every name (folder, photo, player) and every sentence naming one is shown as text: escaped by
    :func:`~dealer_assist.render.safe_text`, never read as markup.
    """
    title = name_text(name if name is not None else Path(sc.folder).name)
    t = texts(lang)

    def board_word(text: str) -> str:  # a whole-table photo's board zone, "table_1.jpg[board]", in the language
        return text.replace("[board]", f"[{t['board notes']}]") if lang != "en" else text

    remarks = [Text(f"• {board_word(safe_text(say(r, lang)))}", style="dim") for r in sc.remarks]
    if sc.status == Verdict.SCORED:
        labels = {n["serial"]: n["image"] for n in sc.notes if n["serial"]}
        return Panel(Group(render_showdown(sc.showdown, lang, labels=labels), *remarks), title=title,
                     title_align="left", border_style="green")
    body = Text("\n".join(f"• {board_word(safe_text(say(r, lang)))}" for r in sc.reasons))
    read = Table(show_edge=False)
    read.add_column(t["review_image"])
    read.add_column(t["review_seat"])
    read.add_column(t["review_serial"])
    read.add_column(t["review_confidence"], justify="right")
    for n in sc.notes:
        seat = t["board notes"] if n["seat"] == "board" else n["seat"]
        # two decimals each, as read's table: the column lines up (0,98 above 0,927 did not; trial 5)
        read.add_row(name_text(board_word(n["image"])), name_text(seat), n["serial"] or "?",
                     number(n["confidence"], str(lang), 2))  # ru: 0,99
    return Panel(Group(Text(t["review_head"], style="bold yellow"), body, read, *remarks), title=title,
                 title_align="left", border_style="yellow")


def summary(scores: Sequence[HandScore], lang: str) -> Table:
    """One row per hand: its status, P and winners; the caption counts the hands scored."""
    t = texts(lang)
    table = Table(title=t["summary"], title_justify="left")
    table.add_column(t["summary_hand"])
    table.add_column(t["summary_status"])
    table.add_column("P", justify="right")
    table.add_column(t["summary_winners"])
    names = hand_names([sc.folder for sc in scores])
    for sc in scores:
        style = "green" if sc.status == Verdict.SCORED else "yellow"
        winners = ", ".join(sc.result["winners"]) if sc.result else "—"
        table.add_row(name_text(names[sc.folder]), Text(t[sc.status], style=style),
                      name_text(sc.settings.get("position", "?")), name_text(winners))
    scored = sum(s.status == Verdict.SCORED for s in scores)
    table.caption = counted(t["hands_scored"], lang, scored=scored, total=len(scores))
    return table
