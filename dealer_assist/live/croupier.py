"""The croupier's commands applied to a live session: what each one changes and the sentence it answers.

Pure over the session's state (no terminal, no files): :func:`apply_command` is what
:meth:`dealer_assist.live.session.LiveSession.command` runs. A command that cannot be
applied raises ``ValueError`` with one sentence.
"""

from __future__ import annotations

import secrets

from dealer_assist.live.commands import Command, CommandName
from dealer_assist.live.table_state import parse_slot
from dealer_assist.rules.notes import position_announced

__all__ = ["apply_command"]


def apply_command(session, cmd: Command) -> str:
    """Apply ``cmd`` to ``session`` (a :class:`~dealer_assist.live.session.LiveSession`); the sentence to show.

    Raises:
        ValueError: one sentence (an unknown seat, a bad serial, an unknown command).
    """
    s = session.state
    if cmd.name is CommandName.NEW:
        errors = len(session.log_errors)
        record = session.finish_hand("new hand")
        if len(session.log_errors) > errors:
            return f"Hand {session.state.hand_number}: dealer {session.state.dealer}. {session.log_errors[-1]}"
        logged = f" (hand {record['hand']} logged)" if record and session.on_finished is not None else ""
        return f"Hand {session.state.hand_number}: dealer {session.state.dealer}{logged}."
    if cmd.name in (CommandName.POSITION, CommandName.RANDOM):
        # RULES.md §2: once notes are dealt, P was announced and played on; a change is said loudly and logged
        dealt = position_announced(len(session.view().all_slots))
        random = cmd.name is CommandName.RANDOM
        p = secrets.randbelow(7) + 1 if random else int(cmd.args[0])
        old = s.position
        session.set_state(s.with_position(p, random=random, after_deal=dealt))
        if dealt and p != old and random:
            return f"P CHANGED AFTER THE DEAL: random P={p}, was P={old}; every note's rank is read at P={p} now."
        if dealt and p != old:
            return f"P CHANGED AFTER THE DEAL: P={p}, was P={old}; every note's rank is read at P={p} now."
        return f"Random playing position: P={p}." if random else f"Playing position P={p}."
    # a command says what is, never "the other way round": given twice (a script, a key pressed again) it is
    # refused, not reversed (sixth new-user trial M4); u undoes it, in takes a fold back
    if cmd.name is CommandName.SHOWDOWN:
        if s.showdown_called:
            raise ValueError("The showdown is already called; u takes the call back.")
        session.set_state(s.with_showdown(True))
        return "Showdown called."
    if cmd.name is CommandName.FOLD:
        seat = s.seat(cmd.args[0])
        if seat in s.folded:
            raise ValueError(f"{seat} has already folded; 'in {seat}' takes the fold back.")
        session.set_state(s.with_fold(seat))
        return f"{seat} folded."
    if cmd.name in (CommandName.IN, CommandName.OUT):
        seat = s.seat(cmd.args[0])
        if cmd.name is CommandName.OUT and seat in s.sitting_out:  # given again: refused, as a second fold is
            raise ValueError(f"{seat} already sits this hand out; 'in {seat}' puts the seat back in.")
        session.set_state(s.with_in_play(seat, cmd.name is CommandName.IN))
        if cmd.name is CommandName.IN:
            return f"{seat} is back in." if seat in s.folded else f"{seat} is in the hand."
        return f"{seat} sits this hand out."
    if cmd.name is CommandName.CHIPS:
        seat = s.seat(cmd.args[0])
        chips = int(cmd.args[1])
        before = s.chips_map.get(seat)
        session.set_state(s.with_chips(seat, chips))
        if before is not None and before != chips:  # the figure is the hand's total: say it replaced the last one
            return f"{seat}: {chips} chip{'' if chips == 1 else 's'} in this hand in all (was {before})."
        return f"{seat} put in {chips} chip{'' if chips == 1 else 's'}."
    if cmd.name is CommandName.SERIAL:
        zone, index = parse_slot(cmd.args[0], s.seats, s.game)
        view = session.view()
        slots = view.board if zone == "board" else view.seat(zone).notes
        slot = next((x for x in slots if x.index == index), None)
        key = f"t{slot.note.track_id}" if slot is not None and slot.note is not None else f"{zone}#{index}"
        serial = None if cmd.args[1] == "-" else cmd.args[1]
        session.set_state(s.with_serial(key, serial))
        return f"{zone} {index}: " + (f"serial {serial} typed." if serial else "typed serial cleared.")
    if cmd.name is CommandName.UNDO:
        return "Undone." if session.undo() else "Nothing to undo in this hand."
    if cmd.name is CommandName.QUIT:
        session.quit_requested = True
        return "Quitting."
    raise ValueError(f"Unknown command {cmd.name!r}.")
