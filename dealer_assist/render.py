"""Rich renderables of an evaluated hand (RULES.md §5); no printing here.

:func:`render_showdown` turns a :class:`~dealer_assist.rules.Showdown` into a
renderable for ``dealer-assist eval`` and ``score``: every note's serial with
the digit at the playing position highlighted, its rank and why; each
player's best hand, its class in both languages, natural or modified, the
result; the winners; the settlement when chips were given.

>>> import io
>>> from rich.console import Console
>>> from dealer_assist.rules import Hand, Player, evaluate
>>> hand = Hand(4, ("1115111", "1117111", "1118111"),
...             (Player("A", ("1111111", "2222222")), Player("B", ("1290611", "4444444"))))
>>> console = Console(file=io.StringIO(), width=120, color_system=None)
>>> console.print(render_showdown(evaluate(hand), "en"))
>>> "Winner: B" in console.file.getvalue()
True
"""

from __future__ import annotations

import re
from typing import Mapping, Sequence

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from dealer_assist.i18n import LANGUAGES, texts
from dealer_assist.rules import HandClass, PlayerResult, RankOption, Shift, Showdown, chips_to_json

__all__ = ["LANGUAGES", "percent", "class_name", "note_reason", "serial_text", "alternatives_text", "chip_warnings",
           "render_showdown", "safe_text", "name_text"]

#: Style of the digit at the playing position, and of the digit a zero shifted to.
POSITION_STYLE = "bold black on yellow"
SOURCE_STYLE = "bold underline"


# -- names from files, shown as text ------------------------------------------------------------

#: Characters a terminal acts on or hides: C0 and C1 controls (ESC, BEL, CR, LF...), DEL, and the invisible
#: format characters that reorder or hide text (bidi overrides and isolates, zero-width characters, the line
#: and paragraph separators, the BOM, tag characters), and lone surrogates.
_UNSAFE = re.compile("[\x00-\x1f\x7f-\x9f\xad\u061c\u180e\u200b-\u200f\u2028-\u202e\u2060-\u206f"
                     "\ufeff\ufff9-\ufffb\ud800-\udfff\U000e0000-\U000e007f]")
_ESCAPES = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


def _escape(m: re.Match) -> str:
    c = m.group()
    if c in _ESCAPES:
        return _ESCAPES[c]
    n = ord(c)
    return f"\\x{n:02x}" if n < 0x100 else f"\\u{n:04x}" if n < 0x10000 else f"\\U{n:08x}"


def safe_text(value: object) -> str:
    """Any name from a file name or a file's content (a player, a photo, a folder, a sentence naming
    them) as one line a terminal shows as it is: every control or invisible format character is
    written as a visible escape (``\\n``, ``\\x1b``, ``\\u202e``); nothing else changes.

    The result is plain text: show it as a :class:`~rich.text.Text` (:func:`name_text`) or with
    ``markup=False``, never inside rich markup.

    >>> safe_text("chen\\nWinner: mallory.jpg")
    'chen\\\\nWinner: mallory.jpg'
    >>> safe_text("\\x1b[2Jalice")
    '\\\\x1b[2Jalice'
    """
    text = str(value)
    return _UNSAFE.sub(_escape, text) if _UNSAFE.search(text) else text


def name_text(value: object, style: str = "") -> Text:
    """:func:`safe_text` as a :class:`~rich.text.Text` (``alice[blink]`` stays those characters); folded, never
    cut with an ellipsis, where a table column is too narrow for it: two names never look alike."""
    return Text(safe_text(value), style=style, overflow="fold")


def percent(p: float, digits: int = 2, lang: str = "en") -> str:
    """A probability for people: ``"42.13%"`` (``digits`` decimals); ``"<0.01%"`` / ``">99.99%"``
    when rounding would show 0% or 100% for what is not exactly so. Russian writes ``"42,13 %"``
    (decimal comma, a no-break space before the sign: :func:`dealer_assist.i18n.number`).

    >>> percent(0.42131), percent(0.0), percent(1.0), percent(2e-7), percent(1 - 2e-7), percent(0.99, 1)
    ('42.13%', '0%', '100%', '<0.01%', '>99.99%', '99.0%')
    >>> percent(0.1, lang="ru"), percent(1.0, lang="ru")
    ('10,00\xa0%', '100\xa0%')
    """
    from dealer_assist.i18n import number

    sign = "%" if lang == "en" else "\u00a0%"
    if p == 0:
        return "0" + sign
    if p == 1:
        return "100" + sign
    least = 0.5 * 10 ** -(digits + 2)
    if p < least:
        return f"<{number(10 ** -digits, lang, digits)}{sign}"
    if p > 1 - least:
        return f">{number(100 - 10 ** -digits, lang, digits)}{sign}"
    return f"{number(100 * p, lang, digits)}{sign}"


def class_name(hand_class: HandClass, lang: str = "en") -> str:
    """Class in ``lang`` followed by the other language (RULES.md §3, §5).

    >>> class_name(HandClass.STRAIGHT, "en"), class_name(HandClass.HIGH, "ru")
    ('Straight (Стрит)', 'Мусор (High)')
    """
    other = "ru" if lang == "en" else "en"
    return f"{texts(lang)[hand_class.value]} ({texts(other)[hand_class.value]})"


def note_reason(option: RankOption | None, lang: str = "en") -> str:
    """Why a note takes its rank, in ``lang``; ``None`` means a dead note.

    >>> from dealer_assist.rules import rank_options
    >>> note_reason(rank_options("1230567", 4)[0], "en")
    'd4=0 → right to d5=5, modified'
    >>> note_reason(rank_options("1230567", 4)[0], "ru")
    'd4=0 → вправо до d5=5, модифицированная'
    """
    t = texts(lang)
    if option is None:
        return t["dead"]
    p = option.position
    if option.shift is Shift.NONE:
        text = f"d{p}={option.base}"
    else:
        wrap = t["wrap"] if option.wrapped and option.shift is not Shift.EITHER else ""
        text = f"d{p}=0 → {t[option.shift.value]}{wrap} {t['to']} d{option.source}={option.base}"
    if option.joker:
        text += f", {t['joker']} {option.joker:+d} → {option.rank}"
    return f"{text}, {t['natural'] if option.natural else t['modified']}"


def serial_text(serial: str, position: int, option: RankOption | None = None, marked: bool = False) -> Text:
    """The serial with the digit at ``position`` highlighted (and, when a zero
    shifted the rank, the digit it shifted to underlined).

    ``marked`` also puts the digit at P in brackets, which a terminal without
    colours still shows (``123[4]567``).

    >>> t = serial_text("1230567", 4)
    >>> t.plain, [(s.start, s.end) for s in t.spans]
    ('1230567', [(3, 4)])
    >>> serial_text("1230567", 4, marked=True).plain
    '123[0]567'
    """
    if not marked:
        text = Text(serial)
        text.stylize(POSITION_STYLE, position - 1, position)
        if option is not None and option.source != position:
            text.stylize(SOURCE_STYLE, option.source - 1, option.source)
        return text
    text = Text()
    for i, digit in enumerate(serial, 1):
        if i == position:
            text.append(f"[{digit}]", style=POSITION_STYLE)
        else:
            text.append(digit, style=SOURCE_STYLE if option is not None and option.source == i != position else "")
    return text


def alternatives_text(options: Sequence[RankOption], chosen: RankOption | None, lang: str = "en",
                      best_known: bool = True) -> str:
    """What else a note could rank, as ``score`` and ``eval`` write it: ``" (not played; also 1)"`` for a
    note the best hand does not use, ``" (also 1)"`` before a best hand is known; ``""`` when it plays.

    >>> from dealer_assist.rules import rank_options
    >>> options = rank_options("1230567", 4, pocket=True)
    >>> alternatives_text(options, None, "en"), alternatives_text(options, None, "ru", best_known=False)
    (' (not played; also 3)', ' (ещё 3)')
    >>> alternatives_text(options, options[0], "en")
    ''
    """
    t = texts(lang)
    if chosen is not None and best_known:
        return ""
    others = [str(o.rank) for o in options[1:]]
    extra = f"{t['also']} {', '.join(others)}" if others else ""
    if best_known:
        return f" ({t['unused']}; {extra})" if extra else f" ({t['unused']})"
    return f" ({extra})" if extra else ""


def chip_warnings(contributions: Mapping[str, int | None], winners: Sequence[str], lang: str = "en") -> list[str]:
    """Sentences for chips that make the settlement surprising (RULES.md §4): players in the hand for
    whom no chips were entered while others have chips (they count as 0), and a winner who put in
    nothing (the pot goes to the best hand among those who did). Nothing when no chips were entered.

    >>> for line in chip_warnings({"P1": 25, "P2": 25, "P4": None}, ["P4"]):
    ...     print(line)
    No chips entered for P4: counted as 0.
    P4 wins but put in no chips: the pot goes to the best hand among those who did.
    """
    if not any(c is not None for c in contributions.values()):
        return []
    t = texts(lang)
    out = []
    missing = [name for name, c in contributions.items() if c is None]
    if missing:
        out.append(t["chips_missing"].format(seats=", ".join(missing)))
    for name in winners:
        if not contributions.get(name):
            out.append(t["winner_no_chips"].format(seat=name))
    return out


#: The longest word :func:`whole_words` keeps whole, characters: the program's longest Russian word with its
#: punctuation ("модифицированная;", 17) and some room; a longer one (a player named with 40 letters) may fold
#: rather than push the table past the terminal's edge.
WHOLE_WORD_MAX = 20


def whole_words(table: Table) -> Table:
    """``table`` with each column at least as wide as the longest word in it (its header's and its cells', up to
    :data:`WHOLE_WORD_MAX`), so that rich, narrowing a table to the terminal, wraps the cells at word
    boundaries and never cuts a word (``модифицированная``) with an ellipsis or folds it over two lines.
    Returns ``table``."""
    for column in table.columns:
        cells = [column.header, *column.cells]
        words = [w for cell in cells if isinstance(cell, (str, Text)) for w in str(cell).split()]
        longest = max((len(w) for w in words), default=0)
        column.min_width = max(column.min_width or 0, min(longest, WHOLE_WORD_MAX))
    return table


def _chips(value) -> str:
    return str(chips_to_json(value))


def _note_cells(
    serial: str, options: tuple[RankOption, ...], chosen: RankOption | None, position: int,
    lang: str, labels: Mapping[str, str] | None,
) -> tuple[Text, str, Text]:
    """Serial, rank and reason cells of one pocket note."""
    t = texts(lang)
    shown = chosen if chosen is not None else (options[0] if options else None)
    cell = serial_text(serial, position, shown)
    cell.overflow = "fold"  # a long photo name folds, never cut with an ellipsis
    if labels and serial in labels:
        cell.append(f"\n{safe_text(labels[serial])}", style="dim")
    if shown is None:
        return cell, "—", Text(t["dead"], style="dim")
    reason = Text(note_reason(shown, lang))
    reason.append(alternatives_text(options, chosen, lang), style="dim")
    return cell, str(shown.rank), reason


def _result(result: PlayerResult, showdown: Showdown, lang: str) -> str:
    t = texts(lang)
    if result.player.folded:
        return t["folded"]
    if result.name in showdown.winners:
        if not result.player.revealed:
            return f"{t['wins']} ({t['standing']})"
        if len(showdown.winners) > 1:
            return t["tie_rolls_over"] if _rolls_over(showdown) else t["splits"]
        return t["wins"]
    if not result.player.revealed:
        return t["hidden"]
    return t["loses"]


def _rolls_over(showdown: Showdown) -> bool:
    """A tie under the rollover policy (RULES.md §4): the pot goes to the next hand, not split."""
    return showdown.hand.tie_policy.value == "rollover"


def _header(showdown: Showdown, t: Mapping[str, str], button: str | None = None) -> Text:
    hand = showdown.hand
    if hand.game.board_notes:
        header = (
            f"{t['playing_position']} P={hand.position} · {t['zero_joker']}: {t[hand.zero_joker.value]} · "
            f"{t['tie_policy']}: {t[hand.tie_policy.value]}"
        )
    else:  # Indian poker: its options are fixed (RULES.md §7.2, §7.4)
        header = f"{t[hand.game.value]} · {t['playing_position']} P={hand.position}"
    if button is not None and button != hand.dealer and hand.dealer is not None:
        # the table's dealer sat the hand out: named as the table knows it, with the rules' dealer for odd chips
        header += f" · {t['dealer']}: " + t["dealer_out"].format(button=safe_text(button), engine=safe_text(hand.dealer))
    elif hand.dealer is not None:
        header += f" · {t['dealer']}: {safe_text(hand.dealer)}"
    return Text(header)


def _board(showdown: Showdown, lang: str, labels: Mapping[str, str] | None) -> RenderableType:
    """The board notes: serial (with its label), rank and why; a line when there are none yet."""
    t = texts(lang)
    hand = showdown.hand
    if not hand.game.board_notes:
        return Group()  # Indian poker has no board
    if not hand.board:
        return Text(f"{t['board']}: {t['empty board']}")
    board = Table(title=t["board"], title_justify="left", show_edge=False)
    for column in (t["note"], t["serial"], t["rank"], t["why"]):
        board.add_column(column)
    for i, (serial, options) in enumerate(zip(hand.board, showdown.board), 1):
        option = options[0] if options else None
        shown = serial_text(serial, hand.position, option)
        if labels and serial in labels:
            shown.append(f" [{safe_text(labels[serial])}]", style="dim")
        board.add_row(str(i), shown, str(option.rank) if option else "—", note_reason(option, lang))
    return whole_words(board)


def _hand_cells(result: PlayerResult, lang: str) -> tuple[str, str]:
    """A player's best hand (ranks and class) and how it is made (natural or modified, board notes used)."""
    t = texts(lang)
    best = result.best
    if best is None:
        return t["no hand"], ""
    pocket_count = len(result.player.pocket)
    used = sorted(i - pocket_count + 1 for i in best.notes if i >= pocket_count)
    detail = t["natural"] if best.natural else t["modified"]
    if used:
        detail += f"; {t['board notes']} {', '.join(map(str, used))}"
    ranks = "-".join(str(r) for r in best.ranks)
    return f"{ranks} {class_name(best.hand_class, lang)}", detail


def _players(showdown: Showdown, lang: str, labels: Mapping[str, str] | None) -> Table:
    """A section per player: the name with the result under it (and, with chips, what the player put in and
    what they get), each pocket note, the best hand.

    The result sits under the name rather than in a column of its own, so that the longest words
    ("модифицированная", "проигрывает") fit whole in 80 columns."""
    t = texts(lang)
    players = Table(show_edge=False)
    one_note = showdown.hand.game.pocket_notes == 1  # Indian poker: the note is the hand (RULES.md §7.2)
    columns = (t["player"], t["note"], t["rank"], t["why"]) if one_note else (
        t["player"], t["pocket"], t["rank"], t["why"], t["best_hand"])
    for column in columns:
        players.add_column(column)
    for result in showdown.players:
        best = result.best
        chosen: dict[int, RankOption] = dict(zip(best.notes, best.options)) if best else {}
        hand_cells = _hand_cells(result, lang)
        name = name_text(result.name, style="bold")
        name.append(f"\n{_result(result, showdown, lang)}", style="")
        chips = ""
        if showdown.settlement is not None:  # what the player put in, and what the croupier pays them
            put_in = t["put_in_short"].format(n=_chips(result.player.contributed or 0))
            gets = t["won_short"].format(n=_chips(showdown.settlement.payouts.get(result.name, 0)))
            chips = f"{put_in} · {gets}" if one_note else f"{put_in}\n{gets}"
        if one_note:
            if chips:
                name.append(f"\n{chips}", style="")  # one row per player: the chips under the result
            cells = (_note_cells(result.player.pocket[0], result.notes[0], chosen.get(0), showdown.hand.position,
                                 lang, labels) if result.player.pocket else (Text("—"), "—", Text(t["not shown"])))
            players.add_row(name, *cells)
        for i, serial in enumerate(() if one_note else result.player.pocket):
            first = i == 0
            players.add_row(
                name if first else chips,
                *_note_cells(serial, result.notes[i], chosen.get(i), showdown.hand.position, lang, labels),
                hand_cells[0] if first else hand_cells[1],
            )
        players.add_section()
    return whole_words(players)


def pot_amount(pot, t: Mapping[str, str]) -> str:
    """A pot's chips for people: ``21``, or ``10 + carried 11 = 21`` for the main pot holding chips carried in
    from the hands before (RULES.md §4 rollover; ``pot``: a :class:`~dealer_assist.rules.Pot`, ``t``: the
    language's texts). The one place the sum is spelt: the dashboard, ``history --show`` and ``score`` say it alike."""
    if not pot.carried_in:
        return str(pot.amount)
    return f"{pot.amount - pot.carried_in} + {t['carried_in']} {pot.carried_in} = {pot.amount}"


def _settlement(showdown: Showdown, t: Mapping[str, str]) -> list[RenderableType]:
    """The pots (main, side N), their amounts, who could win them and who did; the chips carried over."""
    settlement = showdown.settlement
    if settlement is None:
        return []
    rolls_over = _rolls_over(showdown)
    pots = Table(show_edge=False)
    for column in (t["pot"], t["amount"], t["eligible_column"], t["winners"]):
        pots.add_column(column)
    for i, pot in enumerate(settlement.pots):
        name = t["main"] if i == 0 else f"{t['side']} {i}"
        # a tied pot under the rollover policy went to the next hand: its tied seats are not its winners
        # (seventh new-user trial: history --show named "P2, P1" as the winners of a pot carried on)
        winners = (t["rolled_pot"].format(winners=", ".join(pot.winners)) if rolls_over and len(pot.winners) > 1
                   else ", ".join(pot.winners) or "—")
        pots.add_row(name, pot_amount(pot, t), name_text(", ".join(pot.eligible) or "—"), name_text(winners))
    parts: list[RenderableType] = [whole_words(pots)]
    if settlement.carry:
        parts.append(Text(f"{t['carry']}: {_chips(settlement.carry)}", style="bold yellow"))
    return parts


def render_showdown(
    showdown: Showdown,
    lang: str = "en",
    *,
    labels: Mapping[str, str] | None = None,
    title: str | None = None,
    duplicate_warnings: bool = True,
    button: str | None = None,
) -> RenderableType:
    """A renderable of the whole showdown in ``lang`` (``"en"`` or ``"ru"``).

    ``button``: the table's dealer when it is not the hand's (a dealer who sat the hand out: the hand's
    dealer is then the nearest player on its right, :func:`~dealer_assist.rules.showdown.dealer_among`);
    the header names both.

    ``labels`` maps a serial to where it came from (e.g. an image name) and is
    shown next to it; ``title`` heads the output; ``duplicate_warnings=False``
    leaves out the closing lines about serials found in two places (for a
    caller that reports them itself).  Raises ``ValueError`` for an unknown ``lang``.
    """
    t = texts(lang)
    parts: list[RenderableType] = [name_text(title, style="bold")] if title else []
    parts += [_header(showdown, t, button), _board(showdown, lang, labels), _players(showdown, lang, labels)]
    label = t["winners"] if len(showdown.winners) > 1 else t["winner"]
    if len(showdown.winners) > 1 and _rolls_over(showdown):
        label = t["tied"]
    parts.append(Text(f"{label}: {safe_text(', '.join(showdown.winners)) or t['nobody']}", style="bold green"))
    parts += _settlement(showdown, t)
    if showdown.settlement is not None:
        contributions = {p.name: p.contributed for p in showdown.hand.players}
        for line in chip_warnings(contributions, showdown.winners, lang):
            parts.append(Text(f"{t['warning']}: {line}", style="bold yellow"))
    for serial, fields in showdown.hand.duplicate_serials() if duplicate_warnings else ():
        parts.append(Text(f"{t['warning']}: {serial} — {', '.join(fields)}", style="bold red"))
    return Group(*parts)
