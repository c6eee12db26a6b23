"""What both layouts of the live dashboard are made of: :class:`LiveStatus`, the words for a note's
state, the OCR and the camera, a seat's result, the winner line, what the showdown waits for, and the
header and footer lines (:mod:`.dashboard` puts them together; :mod:`.dashboard_full` and
:mod:`.dashboard_compact` lay them out)."""

from __future__ import annotations

import io
import re
from dataclasses import dataclass
from typing import Mapping

from rich.console import Console, RenderableType
from rich.text import Text

from dealer_assist.i18n import number, say, say_place
from dealer_assist.live.table_view import SeatView, Slot, TableView, chips_text
from dealer_assist.render import chip_warnings, percent

#: The reason a read that found no note at a known note's place gives (live/tracker.py): the note
#: is there, but no serial print shows -- face down, or covered.
_NOT_FOUND = "the note was not found in this frame"


@dataclass(frozen=True)
class LiveStatus:
    """What the header and the footer show besides the hand.

    Attributes:
        camera: ``"ok"``, ``"lost"`` (with ``camera_detail``: when the next retry is), ``"ended"`` or ``"starting"``.
        fps: display-loop frames per second.
        ocr: the OCR worker's state (``"idle"``, ``"reading"``, ``"reading, 2 queued"``, ``"loading"``,
            ``"off (...)"``, ``"error: <sentence>"``).
        source: what the camera is (``"camera 0"``, a file name).
        message: the answer to the croupier's last key or command.
        prompt: the line being typed, when a key asked for one (``None``: no prompt).
        warning: a lasting warning (e.g. the camera sees the serials too small).
        frame: what the camera really gives and how it sees the table
            (``"1920x1080 · 2.3-3.3 px/mm"``), empty before the first frame.
        profile: the calibration profile's name.
        recording_ended: the recording has ended: no further frame will read a note.
        trust_k: how many alike reads make a serial trusted (said for notes being read).
        balances: the session's running balances, ``(player, net chips)`` in the ledger's order
            (:func:`dealer_assist.ledger.build_ledger` over the hands this run finished); empty until
            a hand with chips is decided.
        watched: a screen the croupier watches while playing (a terminal): the keys, which key types a serial
            and the frame rate show. False for the last dashboard printed without a terminal (standard-input
            commands: no key does anything there, and the frame rate is over; fifth new-user trial L5, L7).
        club: with ``live --club``, the club's state (a :class:`dealer_assist.club.outbox.ClubStatus`:
            connected or offline, hands waiting in the log); None without a club.
    """

    camera: str = "starting"
    fps: float = 0.0
    ocr: str = "idle"
    source: str = ""
    camera_detail: str = ""
    message: str = ""
    prompt: str | None = None
    warning: str = ""
    frame: str = ""
    profile: str = ""
    recording_ended: bool = False
    trust_k: int = 2
    balances: tuple[tuple[str, object], ...] = ()
    club: object = None
    watched: bool = True


# ----------------------------------------------------------------------------- words


def ocr_words(ocr: str, t: Mapping[str, str], lang: str) -> str:
    """The OCR state in ``lang``."""
    if ocr == "idle":
        return t["ocr_idle"]
    if ocr == "loading":
        return t["ocr_loading"]
    m = re.fullmatch(r"reading(?:, (\d+) queued)?", ocr)
    if m:
        return t["ocr_reading"] + (", " + t["ocr_queued"].format(n=m.group(1)) if m.group(1) else "")
    if ocr.startswith("off"):
        return t["ocr_off"]
    if ocr.startswith("error: "):
        return f"{t['ocr_error']}: {say(ocr[7:], lang)}"
    return say(ocr, lang)


def _camera_words(status: LiveStatus, t: Mapping[str, str], lang: str) -> str:
    state = t.get(f"cam_{status.camera}", status.camera)
    detail = status.camera_detail
    if status.camera == "ended" and detail == "end of the recording":
        detail = ""  # "recording ended (end of the recording)" says it twice
    return state + (f" ({say(detail, lang)})" if detail else "")


def _face_down(slot: Slot) -> bool:
    """A note whose serial was never seen: ``blank``, or an ``unreadable`` one whose reads only
    found no serial print where it lies (face down, or a hand over it)."""
    note = slot.note
    if slot.status == "blank":
        return True
    return slot.status == "unreadable" and note is not None and note.reason == _NOT_FOUND and not note.candidates


def state_word(slot: Slot, status: LiveStatus, t: Mapping[str, str], short: bool = False) -> tuple[str, str]:
    """(a few words, style) for a note without a serial that plays (``short``: as few as can be)."""
    if _face_down(slot):
        covered = slot.status == "unreadable" and not short
        return (t["st_face_down_covered"] if covered else t["face down"]), "dim"
    if slot.status == "pending":
        return (t["st_not_read"], "yellow") if status.recording_ended else (t["st_pending"], "cyan")
    if slot.status in ("unreadable", "out_of_format"):
        return t[slot.status], "yellow"
    return t["face down"], "dim"


def type_it(slot: Slot, status: LiveStatus, t: Mapping[str, str]) -> str:
    """How to type a note's serial, as this screen takes it: the ``e`` key on a watched terminal, the line
    ``P3 2 NNNNNNN`` on standard input (``e`` is a key there is no keyboard for; seventh new-user trial L)."""
    return t["unreadable_why" if status.watched else "unreadable_why_line"].format(slot=slot.label)


def state_text(slot: Slot, status: LiveStatus, lang: str, t: Mapping[str, str]) -> Text:
    """A note without a serial that plays, with why and what to do (the full layout)."""
    word, style = state_word(slot, status, t)
    note = slot.note
    out = Text()
    if slot.status == "pending" and note is not None and note.candidates:
        best, count = note.candidates[0]
        out.append(best + "?", style="dim italic")
        out.append("  ")
    out.append(word, style=style)
    if _face_down(slot):
        return out
    if slot.status == "pending" and note is not None:
        if status.recording_ended:
            out.append(f": {t['not_read_why'].format(type_it=type_it(slot, status, t))}", style="dim")
        else:
            count = note.candidates[0][1] if note.candidates else 0
            out.append(f" ({t['reads']}: {count}; {t['pending_why'].format(k=status.trust_k)})", style="dim")
    elif slot.status in ("unreadable", "out_of_format") and note is not None:
        if note.reason:
            out.append(f": {say(note.reason, lang)}", style="dim")
        out.append(f"; {type_it(slot, status, t)}", style="dim")
    return out


def waiting_lines(view: TableView, status: LiveStatus, lang: str, t: Mapping[str, str]) -> list[str]:
    """What the showdown waits for, in ``lang`` (a note being read when the recording has ended says
    that it will not be read any more, and how to type it)."""
    out = []
    for line in view.waiting:
        m = re.fullmatch(r"(?P<slot>.+?): the camera is still reading this note\.", line)
        if m and status.recording_ended:
            slot = m.group("slot")
            out.append(t["not_read_waiting"].format(place=say_place(slot, lang), slot=slot))
        else:
            out.append(say(line, lang))
    return out


def waiting_summary(view: TableView, status: LiveStatus, lang: str, t: Mapping[str, str]) -> str:
    """What the showdown waits for, in one line (the compact layout)."""
    if any(line.startswith("Fewer than 2 seats") for line in view.waiting):
        return say(view.waiting[0], lang)
    parts = []
    known = len(view.board_serials)
    if known < view.state.board_notes:
        parts.append(f"{t['board notes']} {known}/{view.state.board_notes}")
    for slot in view.pending:
        label = say_place(slot.label, lang)
        if status.recording_ended:
            parts.append(f"{label} {t['st_not_read']} ({type_it(slot, status, t)})")
        else:
            parts.append(f"{label} {t['st_pending']}")
    # a note the camera sees but cannot read gets the same hint as one it did not read (seventh new-user trial L)
    playing = {"board"} | {seat.name for seat in view.seats if seat.in_hand and not seat.folded}
    for slot in view.all_slots:
        if slot.serial is None and slot.note is not None and slot.status in ("unreadable", "out_of_format") \
                and slot.zone in playing:
            parts.append(f"{say_place(slot.label, lang)} {t[slot.status]} ({type_it(slot, status, t)})")
    if not view.state.showdown_called:
        for seat in view.seats:
            if seat.in_hand and not seat.folded and not seat.revealed:
                parts.append(f"{seat.name} {len(seat.serials)}/{view.state.pocket_notes}")
    for line in view.waiting:
        if line.startswith(("The serial ", "The rules refuse")):
            parts.append(say(line, lang))
    return " · ".join(parts)


def chip_lines(view: TableView, lang: str) -> list[str]:
    """The chip warnings of the hand (none when no chips were entered)."""
    if not view.state.chips:
        return []
    contributions = {s.name: s.chips for s in view.seats if s.in_hand}
    return chip_warnings(contributions, view.winners if view.settlement is not None else (), lang)


def winner_line(view: TableView, t: Mapping[str, str]) -> Text:
    """``Winner: A`` (or the winners, or a tie that rolls over)."""
    label = t["winners"] if len(view.winners) > 1 else t["winner"]
    if len(view.winners) > 1 and view.state.tie_policy.value == "rollover":
        label = t["tied"]
    return Text(f"{label}: {', '.join(view.winners) or t['nobody']}", style="bold green")


def result_words(seat: SeatView, t: Mapping[str, str], short: bool = False, rolls_over: bool = False) -> Text | None:
    """The seat's result and what it receives (``WINS · gets 75``), or its chips before the showdown."""
    result, payout = result_parts(seat, t, short, rolls_over)
    if result is None:
        return payout
    if payout is not None:
        result.append(" · ")
        result.append_text(payout)
    return result


def result_parts(seat: SeatView, t: Mapping[str, str], short: bool = False,
                 rolls_over: bool = False) -> tuple[Text | None, Text | None]:
    """(the seat's result, what it receives or its chips before the showdown); either may be None. ``rolls_over``:
    the hand is played under the rollover policy, so a tie carries the pot to the next hand: the tied seats
    "tie: the pot rolls over", not "SPLITS" (sixth new-user trial M10)."""
    if seat.result == "splits" and rolls_over:
        return Text(t["tie_rolls_over"], style="bold yellow"), None
    if seat.result is None:
        chips = Text(t["seat_chips"].format(n=seat.chips), style="dim") if seat.chips is not None else None
        if seat.odds is None:
            return None, chips
        return odds_text(seat.odds, t, short), chips
    style = {"wins": "bold green", "splits": "bold green", "loses": "red", "folded": "dim",
             "not revealed": "yellow"}.get(seat.result, "")
    key = {"wins": "wins_banner", "splits": "splits_banner", "not revealed": "hidden"}.get(seat.result, seat.result)
    payout = None
    if seat.payout is not None and (seat.payout or (seat.result != "folded" and not short)):
        won = chips_text(seat.payout)
        payout = Text(t["won_short"].format(n=won) if short else f"{t['won']} {won} {t['chips']}")
    return Text(t[key], style=style), payout


def rolls_over(view: TableView) -> bool:
    """Whether a tie of this hand carries its pot to the next hand (the rollover policy, RULES.md §4)."""
    return view.state.tie_policy.value == "rollover"


def pot_winners(pot, view: TableView, t: Mapping[str, str]) -> str:
    """Who takes ``pot``: its winners, or "the next hand" for a tied pot under the rollover policy."""
    if rolls_over(view) and len(pot.winners) > 1:
        return t["to_next_hand"]
    return ", ".join(pot.winners) or "—"


def street_word(view: TableView, t: Mapping[str, str]) -> str:
    """The hand's street in words: Indian poker has no board, so no flop, and its one round before the showdown
    is the betting (``preflop`` in the view, as the log writes it; fifth new-user trial L4)."""
    if not view.state.board_notes and view.street == "preflop":
        return t["betting"]
    return t[view.street]


def odds_text(odds: tuple[float, float], t: Mapping[str, str], short: bool = False) -> Text:
    """A seat's all-in odds (:attr:`~.table_view.SeatView.odds`): ``win 42.1% · tie 3.0%``."""
    win, tie = odds
    if short:
        tie_part = " · " + t["tie_short"].format(tie=percent(tie, 1)) if tie else ""
        return Text(t["odds_short"].format(win=percent(win, 1)) + tie_part, style="cyan")
    return Text(t["odds"].format(win=percent(win, 1), tie=percent(tie, 1)), style="cyan")


def balances_line(status: LiveStatus, t: Mapping[str, str]) -> Text | None:
    """The session's running balances (``Session: P1 +25 · P3 -25``), or None before a chip changed hands."""
    if not status.balances:
        return None
    line = Text(f"{t['session']}: ", style="dim")
    for i, (name, net) in enumerate(status.balances):
        if i:
            line.append(" · ", style="dim")
        line.append(name, style="bold")
        value = chips_text(net)
        line.append(" " + (value if value.startswith("-") or value == "0" else "+" + value),
                    style="green" if net > 0 else "red" if net < 0 else "")
    return line


# ----------------------------------------------------------------------------- header, footer, height


def header_lines(view: TableView, status: LiveStatus, lang: str, t: Mapping[str, str],
                  compact: bool = False) -> list[tuple[int, Text]]:
    """The header's lines with their priority (see :mod:`.dashboard_compact`): the hand, the dealer,
    P and the options; the camera, the OCR and the profile; what the camera gives; a warning."""
    s = view.state
    first = Text()
    first.append(f"{t['hand']} {s.hand_number}", style="bold")
    first.append(f" · {t['dealer']}: ")
    first.append(s.dealer, style="bold")
    first.append(" · ")
    first.append(f"P={s.position}" if compact else f" P={s.position} ", style="bold black on yellow")
    if s.position_random:
        first.append(f" ({t['random']})", style="bold yellow")
    if s.position_changes:  # P changed after the deal (RULES.md §2): said as loudly as P itself
        first.append(" ")
        first.append(t["p_changed"].format(old=s.position_changes[0][0]), style="bold white on red")
    if s.board_notes:
        first.append(f" · {t['zero_joker']}: {t[s.zero_joker.value]} · {t['tie_policy']}: {t[s.tie_policy.value]}")
    else:  # Indian poker has neither a zero-joker nor a rollover (RULES.md §7): the game instead
        first.append(f" · {t[s.game.value]}")
    if not compact:
        first.append(f" · {t['street']}: {street_word(view, t)}")
    second = Text()
    cam_style = {"ok": "green", "lost": "bold red", "ended": "yellow"}.get(status.camera, "yellow")
    second.append(f"{t['camera']}: ")
    second.append(_camera_words(status, t, lang), style=cam_style)
    if status.source and not compact:
        second.append(f" [{say(status.source, lang)}]", style="dim")
    frame = Text(status.frame, style="dim")
    if status.frame and not compact:
        second.append(" · ")
        second.append_text(frame)
    if status.camera != "ended" and status.watched:  # no frames come any more: a frame rate would be stale
        second.append(f" · {number(status.fps, lang, 1)} {t['fps']}")
    second.append(f" · {t['ocr']}: {ocr_words(status.ocr, t, lang)}")
    if status.profile:
        second.append(f" · {t['profile']}: ")
        second.append(status.profile, style="bold")
    lines = [(0, first), (3, second)]
    if s.carried_in and not view.complete:  # the chips a tie rolled over lie in this hand's main pot (RULES.md §4)
        lines.append((1, Text(t["carried_in_line"].format(n=s.carried_in), style="bold yellow")))
    if status.frame and compact:
        lines.append((5, frame))
    if status.warning:
        lines.append((1, Text(say(status.warning, lang), style="bold yellow")))
    if status.club is not None:  # offline: as high as a warning (the croupier must know)
        online = status.club.online
        lines.append((4 if online else 1, Text(status.club.line(), style="green" if online else "bold red")))
    return lines


def footer_lines(view: TableView, status: LiveStatus, lang: str, t: Mapping[str, str], keys: str) -> list[Text]:
    """The lines every layout ends with: the answer to the last command, the prompt, the keys."""
    out = []
    if status.message:
        out.append(Text(say(status.message, lang), style="bold cyan"))
    if status.prompt is not None:
        out.append(Text(f"> {prompt_shown(status.prompt, t)}█", style="bold"))
        out.append(KeptTogether(prompt_hint(view, status.prompt, t), style="dim"))
    if status.watched:
        out.append(Text(keys, style="dim"))
    return out


def missing_slots(view: TableView) -> list[str]:
    """The notes of the hand that have no serial yet, as they are typed (``board 3``, ``P1 2``): the board's
    notes to come, then each seat still in without both pocket notes known."""
    board = {slot.index for slot in view.board if slot.known}
    out = [f"board {i}" for i in range(1, view.state.board_notes + 1) if i not in board]
    for seat in view.seats:
        if seat.in_hand and not seat.folded and not seat.revealed:
            known = {slot.index for slot in seat.notes if slot.known}
            out.extend(f"{seat.name} {i}" for i in range(1, view.state.pocket_notes + 1) if i not in known)
    return out


def prompt_shown(prompt: str, t: Mapping[str, str]) -> str:
    """The command line being typed as the prompt shows it: its command word (``serial``, put there by the
    key) in the dashboard's language (ru ``номер: P1 1 …``); what the croupier types stays as typed."""
    word, space, rest = prompt.partition(" ")
    label = t.get(f"prompt_word_{word}") if space else None
    return f"{label} {rest}" if label else prompt


#: Joins the words of one item of a hint (``board 1``, ``P1 1 0235561``): a line is never broken inside it.
_KEEP = "\u00a0"


def _together(item: str) -> str:
    return item.replace(" ", _KEEP)


class KeptTogether:
    """A line of text wrapped at the terminal's width between its items, never inside one (their words joined
    by :data:`_KEEP`, shown as spaces): ``board 1`` stays on one line (rich wraps at every space, a no-break
    one too; fifth new-user trial, low: "ещё без номера: board" / "1, board 2")."""

    def __init__(self, text: str, style: str = "") -> None:
        self.text, self.style = text, style

    def __rich_console__(self, console, options):
        import textwrap  # splits at ASCII whitespace only: the joined items stay whole

        for line in textwrap.wrap(self.text, width=max(10, options.max_width), break_long_words=False,
                                  break_on_hyphens=False) or [""]:
            yield Text(line.replace(_KEEP, " "), style=self.style)

    def __str__(self) -> str:
        return self.text.replace(_KEEP, " ")


def prompt_hint(view: TableView, prompt: str, t: Mapping[str, str]) -> str:
    """The line under the prompt: what the command being typed takes, with examples from this table (the
    notes still without a serial, the seats), and how to send or cancel it."""
    word = prompt.split(" ", 1)[0].lower()
    seats = [s.name for s in view.seats if s.in_hand and not s.folded] or list(view.state.seats)
    seat = seats[0] if seats else "P1"
    if word in ("serial", "e"):
        missing = missing_slots(view)
        first = next((m for m in missing if not m.startswith("board")), f"{seat} 1")
        board = next((m for m in missing if m.startswith("board")), "board 2")
        def word(slot: str) -> str:  # the board in the screen's word (the parser takes 'борд 1' too)
            return t["board notes"] + slot[len("board"):] if slot.startswith("board") else slot

        examples = (f"{_together(first + ' 0235561')}, {_together(word(board) + ' 1234567')}"
                    if view.state.board_notes else _together(f"{first} 0235561"))
        hint = t["prompt_serial"].format(examples=examples)
        if missing:
            shown = [_together(word(m)) for m in missing[:8]] + (["…"] if len(missing) > 8 else [])
            hint += " · " + t["prompt_missing"].format(slots=", ".join(shown))
    elif word in ("position", "p"):
        hint = t["prompt_position"]
    elif word in ("fold", "f"):
        hint = t["prompt_fold"].format(seats=", ".join(seats))
    elif word in ("chips", "c"):
        hint = t["prompt_chips"].format(seat=seat)
    else:
        hint = t["prompt_line"].format(seat=seat)
    return f"{hint} · {t['prompt_keys']}"


def rendered_height(renderable: RenderableType, width: int) -> int:
    """Lines ``renderable`` takes in a terminal ``width`` columns wide."""
    console = Console(file=io.StringIO(), width=width, color_system=None, legacy_windows=False)
    return len(console.render_lines(renderable, console.options.update(width=width), pad=False))
