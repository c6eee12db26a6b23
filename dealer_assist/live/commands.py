"""The croupier's commands: typed lines and single keys (pure parsing, no terminal here).

Lines (from a pipe, or typed after a key opened the prompt)::

    new                      finish the hand (it is logged) and start the next; the button moves left
    position 5 | p 5         set the playing position P
    random | r               draw P from the cryptographic random source (shown to the table)
    showdown | s             call the showdown (a seat still in without both notes known did not reveal)
    fold P3 | f 3            fold a seat (again: refused; 'in P3' takes it back; a decided hand asks first)
    in P3 / out P3           the seat is in this hand (its notes are hidden from the camera) / sits it out
    serial board 2 1234567   type or correct a note's serial ('-' clears what was typed);
    board 2 1234567          the same, short; seats: 'P3 1 1234567', 'P3.1 1234567', '3.1 1234567'
    chips P3 25 | c 3 25     chips a seat put in this hand (for the settlement)
    undo | u                 undo the last of the above (not a new hand)
    quit | q                 finish (a decided hand is logged) and leave

Keys (when standard input is a terminal): ``n r s u q`` act at once; ``p f e
c`` open the prompt with the command's word filled in; Enter runs it, Esc
drops it, Backspace edits (:class:`KeyInput`).

>>> parse_command("b2 1234567") == Command(CommandName.SERIAL, ("b2", "1234567"))
True
>>> [str(parse_command(line).name) for line in ("fold 3", "p 5", "q")]
['fold', 'position', 'quit']
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum

from dealer_assist.i18n import texts
from dealer_assist.live.table_state import quoted
from dealer_assist.live.table_view import TableView
from dealer_assist.rules.notes import position_announced

__all__ = ["Command", "CommandName", "parse_command", "KeyInput", "COMMAND_NAMES", "Advice", "advise", "showdown_answer"]

class CommandName(StrEnum):
    """The croupier's operations (the closed vocabulary of :func:`parse_command`; see the module doc)."""

    NEW = "new"
    POSITION = "position"
    RANDOM = "random"
    SHOWDOWN = "showdown"
    FOLD = "fold"
    IN = "in"
    OUT = "out"
    SERIAL = "serial"
    CHIPS = "chips"
    UNDO = "undo"
    QUIT = "quit"


COMMAND_NAMES = tuple(str(c) for c in CommandName)

_ALIASES = {
    "n": "new", "new": "new", "next": "new",
    "p": "position", "pos": "position", "position": "position",
    "r": "random", "random": "random",
    "s": "showdown", "showdown": "showdown",
    "f": "fold", "fold": "fold",
    "in": "in", "out": "out",
    "e": "serial", "serial": "serial",
    "c": "chips", "chips": "chips",
    "u": "undo", "undo": "undo",
    "q": "quit", "quit": "quit", "exit": "quit",
}

_SLOT_SERIAL = re.compile(r"^(?P<slot>\S+(?:\s+\d)?)\s+(?P<serial>-|\S+)$")


@dataclass(frozen=True)
class Command:
    """A parsed command: its operation and its arguments as text (checked by :func:`parse_command`;
    seats and slots are resolved against the table by :func:`~.croupier.apply_command`)."""

    name: CommandName
    args: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "name", CommandName(self.name))  # "fold" is taken as CommandName.FOLD


def _small_number(text: str) -> bool:
    """ASCII digits only (``'²'.isdigit()`` is true, ``int('²')`` fails), at most 12 of them."""
    return re.fullmatch(r"[0-9]{1,12}", text) is not None


def parse_command(text: str) -> Command:
    """Parse one line (see the module doc); ``ValueError`` with one sentence when it is not a command."""
    line = " ".join(text.strip().split())
    if not line:
        raise ValueError("Empty command.")
    head, _, rest = line.partition(" ")
    alias = _ALIASES.get(head.lower())
    name = CommandName(alias) if alias is not None else None
    if name is None:
        # "board 2 1234567", "P3.1 1234567": a serial without the word
        m = _SLOT_SERIAL.match(line)
        if m and (re.fullmatch(r"[\d-]+", m.group("serial")) and (m.group("slot").split()[0].lower().startswith(("b", "б"))
                                                                   or len(m.group("slot").split()) == 2
                                                                   or "." in m.group("slot"))):
            return Command(CommandName.SERIAL, (m.group("slot"), m.group("serial")))
        if rest and re.search(r"[0-9]", rest):
            # "board 1 12a4567", "P1 99999999 1234567": a serial typed wrong
            raise ValueError(f"{quoted(line)} is neither a command nor a serial: give the note and its 7 digits, "
                             f"e.g. 'board 2 1234567' or 'P3 1 7654321'.")
        raise ValueError(f"{quoted(head)} is not a command ({', '.join(COMMAND_NAMES)}).")
    args = tuple(rest.split()) if rest else ()
    if name in (CommandName.NEW, CommandName.RANDOM, CommandName.SHOWDOWN, CommandName.UNDO, CommandName.QUIT):
        if args:
            raise ValueError(f"'{name}' takes nothing after it.")
        return Command(name)
    if name is CommandName.POSITION:
        if len(args) != 1 or not _small_number(args[0]) or not 1 <= int(args[0]) <= 7:
            raise ValueError("Give the playing position as one number from 1 to 7, e.g. 'position 5'.")
        return Command(name, args)
    if name is CommandName.FOLD:
        if len(args) != 1:
            raise ValueError("Give the seat to fold, e.g. 'fold P3' or 'fold 3'.")
        return Command(name, args)
    if name in ("in", "out"):
        if len(args) != 1:
            raise ValueError(f"Give the seat, e.g. '{name} P3' or '{name} 3'.")
        return Command(name, args)
    if name is CommandName.CHIPS:
        from dealer_assist.live.log_record import MAX_CHIPS

        if len(args) == 2 and re.fullmatch(r"[0-9]+", args[1]) and (len(args[1]) > 13 or int(args[1]) > MAX_CHIPS):
            # a whole number, only too big: said so (seventh new-user trial: "give a whole number" for one)
            shown = args[1] if len(args[1]) <= 20 else args[1][:20] + "…"
            raise ValueError(f"At most {MAX_CHIPS:,} chips a seat in one hand, not {shown}.")
        if len(args) != 2 or not re.fullmatch(r"[0-9]{1,13}", args[1]):
            raise ValueError("Give the seat and a whole number of chips, e.g. 'chips P3 25'.")
        return Command(name, args)
    # serial
    m = _SLOT_SERIAL.match(rest)
    if not m:
        raise ValueError("Give the note and its 7 digits, e.g. 'serial board 2 1234567' or 'serial P3 1 7654321'.")
    return Command(CommandName.SERIAL, (m.group("slot"), m.group("serial")))


#: Keys that act at once, and keys that open the prompt with a word filled in.
_KEY_NOW = {"n": "new", "r": "random", "s": "showdown", "u": "undo", "q": "quit"}
_KEY_PROMPT = {"p": "position ", "f": "fold ", "e": "serial ", "c": "chips ", ":": ""}


def _once(line: str) -> str:
    """The prompt's line with its command word said once: the box opens with ``chips `` (``serial `` ...)
    filled in, and a croupier who types the whole command as the stdin form and the refusals write it
    (``chips P3 25``) would otherwise send ``chips chips P3 25``."""
    words = line.split()
    if len(words) >= 2 and _ALIASES.get(words[0].lower()) is not None \
            and _ALIASES.get(words[0].lower()) == _ALIASES.get(words[1].lower()):
        return " ".join(words[1:])
    return line


class KeyInput:
    """Single keys to commands, with a one-line prompt for the commands that take arguments.

    >>> k = KeyInput()
    >>> k.feed("p"), k.prompt
    (None, 'position ')
    >>> k.feed("5"), k.feed("\\r") == Command(CommandName.POSITION, ("5",)), k.prompt
    (None, True, None)
    >>> k.feed("q") == Command(CommandName.QUIT)
    True
    """

    def __init__(self) -> None:
        self.prompt: str | None = None
        self.error: str = ""
        self.word = ""  # the command word the box opened with ("chips "): its refusals' examples go without it

    def feed(self, key: str) -> Command | None:
        """Take one key (a character; ``"\\r"``/``"\\n"`` Enter, ``"\\x1b"`` Esc, ``"\\x7f"``/``"\\b"`` Backspace).

        Returns the command when one is complete; a line that does not parse
        leaves its sentence in :attr:`error` and returns None.
        """
        self.error = ""
        if self.prompt is not None:
            if key in ("\r", "\n"):
                line, self.prompt = _once(self.prompt), None
                try:
                    return parse_command(line)
                except ValueError as exc:
                    # the example as the box takes it: 'P3 25', not the stdin form 'chips P3 25' (trial 5, L3)
                    self.error = str(exc).replace(f"'{self.word}", "'") if self.word else str(exc)
                    return None
            if key == "\x1b":
                self.prompt = None
            elif key in ("\x7f", "\b"):
                self.prompt = self.prompt[:-1]
            elif key.isprintable():
                self.prompt += key
            return None
        lower = key.lower()
        if lower in _KEY_NOW:
            return Command(CommandName(_KEY_NOW[lower]))
        if lower in _KEY_PROMPT:
            self.prompt = self.word = _KEY_PROMPT[lower]
        return None


# ----------------------------------------------------------------------------- commands that need a word first


@dataclass(frozen=True)
class Advice:
    """What to do with a command before it is applied: ``run`` it or not, the sentence to show instead
    of (or before) its own answer, and the command that, given next, goes ahead (a confirmation)."""

    run: bool
    text: str = ""
    confirm: Command | None = None


def advise(cmd: Command, view: TableView, lang: str = "en", armed: Command | None = None,
           confirm_quit: bool = False, logged: bool = True) -> Advice:
    """Check a croupier's command against the hand before it is applied (pure).

    * ``showdown`` on a hand in which no note was seen and no seat is in is refused with a
      sentence (there is nothing to show down);
    * ``position N`` (another P) and ``random`` once notes of the hand are dealt (seen or typed: P was
      announced and played on, :func:`~dealer_assist.rules.notes.position_announced`, RULES.md §2) would
      re-rank them, and once the hand is decided score it anew: the first time they are not applied, the
      sentence says what would change, and the same command given next (``armed``) goes ahead (a stray
      ``r`` beside ``e`` re-drew P silently; seventh new-user trial H);
    * with ``confirm_quit`` (a key pressed on the dashboard, not a scripted command line), ``quit`` (and ``new``:
      it ends the hand too; sixth new-user trial M12) while a hand is open (something happened in it and it is not decided) is applied only when
      given twice in a row: the hand would be logged as abandoned (``logged=False``, ``--no-log``: the
      sentence says it is lost, not logged);
    * ``fold SEAT`` once the hand is decided (a seat in the hand, not folded) would decide it anew: applied only
      when given twice in a row, key or command line.

    >>> from dealer_assist.live.table_state import TableState
    >>> from dealer_assist.live.table_view import table_view
    >>> empty = table_view(TableState(("A", "B"), 4), [])
    >>> advise(Command(CommandName.SHOWDOWN), empty).run
    False
    >>> advise(Command(CommandName.POSITION, ("5",)), empty).run
    True
    """
    t = texts(lang)
    s = view.state
    if cmd.name in (CommandName.QUIT, CommandName.NEW):  # a key that would end an open hand asks first
        if not confirm_quit or armed == cmd or view.complete or not view.eventful:
            return Advice(True)
        word = "quit" if cmd.name is CommandName.QUIT else "new"
        key = f"confirm_{word}" if logged else f"confirm_{word}_unlogged"
        return Advice(False, t[key].format(n=s.hand_number, m=s.hand_number + 1), confirm=cmd)
    if cmd.name is CommandName.SHOWDOWN and not s.showdown_called:
        if not view.all_slots and not any(seat.in_hand for seat in view.seats):
            return Advice(False, t["showdown_empty"])
        return Advice(True)
    if cmd.name in (CommandName.POSITION, CommandName.RANDOM) and position_announced(len(view.all_slots)):
        if cmd.name is CommandName.POSITION and int(cmd.args[0]) == s.position:
            return Advice(True)
        if armed == cmd:
            return Advice(True)
        key = "confirm_position" if cmd.name is CommandName.POSITION else "confirm_random"
        if view.complete:
            winners = ", ".join(view.winners) or t["nobody"]
            text = t[key].format(p=cmd.args[0] if cmd.args else "", old=s.position, winners=winners)
        else:
            text = t[f"{key}_dealt"].format(p=cmd.args[0] if cmd.args else "", old=s.position)
        return Advice(False, text, confirm=cmd)
    if view.complete and cmd.name is CommandName.FOLD and armed != cmd:
        # a fold after the hand is decided takes the pot from a winner whose notes may lie face up (seventh
        # new-user trial: one stray f + Enter gave P1's set's pot to P2): asked first, as a new P is
        try:
            seat = s.seat(cmd.args[0])
        except ValueError:
            return Advice(True)  # the session refuses an unknown seat in its own sentence
        if seat not in s.folded and any(x.name == seat and x.in_hand for x in view.seats):
            winners = ", ".join(view.winners) or t["nobody"]
            return Advice(False, t["confirm_fold"].format(seat=seat, winners=winners), confirm=cmd)
    return Advice(True)


def showdown_answer(view: TableView, lang: str = "en") -> str:
    """What a called showdown means for this hand (said after ``showdown``): the seats it leaves out
    when it is decided, else what it will do once the board is known (Indian poker: once no note is being read;
    it has no board and one note a seat)."""
    t = texts(lang)
    hidden = [seat.name for seat in view.seats if seat.result == "not revealed"]
    if view.complete and hidden:
        return t["showdown_called_now_one" if len(hidden) == 1 else "showdown_called_now"].format(seats=", ".join(hidden))
    return t["showdown_called_means" if view.state.game.board_notes else "showdown_called_means_indian"]
