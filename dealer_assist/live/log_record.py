"""The one validator of a hand-log record (the format of :mod:`dealer_assist.live.history`).

Every reader of the log -- ``history``, ``ledger``, ``serve`` (the spectator
screen) and ``live`` checking the log it appends to -- passes each decoded line
through :func:`check_record`, so a record is either a record of the shape
below or left out with one sentence saying why (the caller adds the line
number). Nothing a reader does with an accepted record can then fail on its
types or sizes.

What is checked (field types strict: ``true`` is no number, ``"5"`` no int):

* ``session``: a string (an id); ``hand``: a whole number 0..10**9;
* ``started`` / ``finished``: ISO 8601 times placed on the calendar with their
  zone (a time without one is local time), between :data:`EARLIEST` and
  :data:`LATEST` -- the calendar's edges (year 1, year 9999), where a zone shift
  leaves the range Python can count in, are refused as bad records;
* chips -- ``chips``, ``settlement.payouts``, ``settlement.carry``,
  ``settlement.carried_in``, ``settlement.pots[].amount``, ``settlement.pots[].carried_in``,
  ``input.players[].contributed``: a whole number
  0..:data:`MAX_CHIPS` or an exact share ``"a/b"`` (b > 0) of at most that, the
  string bounded before it is turned into a number (39 digits are refused like
  10**39 is); ``ante`` / ``rake`` / ``input.carried_in``: whole chips 0..:data:`MAX_CHIPS`;
* names -- keys of ``chips``, ``best_hands``, ``settlement.payouts``; items of
  ``winners``, ``folded``; ``dealer``; ``notes[].zone``;
  ``input.players[].name`` and ``input.dealer``: non-empty strings of at most
  :data:`MAX_NAME` characters, turned into Unicode NFC (the composed "é"), so
  one player is one name whatever the keyboard sent; two keys of one object
  that are the same name in NFC make the record bad;
* ``waiting``: sentences (what the showdown still needs, as live says it), each at most
  :data:`MAX_SENTENCE` characters;
* ``notes``: objects with ``zone`` and ``index``; ``input``: an object whose
  ``players`` are objects with a ``name``; ``zero_joker`` / ``tie_policy``:
  their closed vocabularies (:class:`~dealer_assist.rules.ZeroJoker`,
  :class:`~dealer_assist.rules.TiePolicy`), and so is ``game`` (:class:`~dealer_assist.rules.Game`;
  a record without it is a Hold'em hand, FORMATS.md §1); ``position``: 1..7 (RULES.md §1);
* lists at most :data:`MAX_ITEMS` long.

Other fields are kept as logged (a later version's extras are welcome).
Whether the chips of a decided hand add up is the ledger's question
(:func:`dealer_assist.ledger.build_ledger` leaves such a hand out with its own
sentence); this module answers "is this a record at all".
"""

from __future__ import annotations

import unicodedata
from datetime import datetime, timedelta, timezone
from fractions import Fraction
from typing import Annotated, Any

from pydantic import AfterValidator, BeforeValidator, ConfigDict, Field, TypeAdapter, ValidationError
from typing_extensions import Required, TypedDict

from dealer_assist.rules.options import Game, TiePolicy, ZeroJoker

__all__ = ["MAX_CHIPS", "MAX_NAME", "MAX_ITEMS", "EARLIEST", "LATEST", "Chips", "parse_chips", "record_time",
           "parse_time", "TimeRangeError", "normal_name", "check_record", "CheckedRecord", "HandRecord"]

Chips = int | Fraction

#: The most chips one record's field may hold: more is a damaged or forged log, not a game.
MAX_CHIPS = 10**12
#: Digits a chips string may have on each side of its "/" (MAX_CHIPS has 13): checked before the string
#: becomes a number, so a 5,000-digit string costs nothing.
_MAX_CHIP_DIGITS = len(str(MAX_CHIPS))
#: Longest name (a seat, a zone) a record may carry; the calibration allows 40.
MAX_NAME = 100
#: Longest list (notes, players, winners...) or object of names in a record; a table has at most a few dozen.
MAX_ITEMS = 256
#: Longest free string (an id, a status, a serial) kept in a checked field.
MAX_TEXT = 200
#: The earliest and latest times a record may carry, UTC. Far inside Python's calendar (years 1-9999), so
#: no zone and no local-time conversion can leave it; a record outside is damaged, not a game.
EARLIEST = datetime(1970, 1, 2, tzinfo=timezone.utc)
LATEST = datetime(9998, 12, 31, tzinfo=timezone.utc)


def parse_chips(value: object) -> Chips:
    """Chips as the log writes them: a whole number 0..MAX_CHIPS, or ``"a/b"`` (an exact share, b > 0).

    Raises ``ValueError`` (one phrase, the value shown cut) otherwise; strings are bounded before
    they become numbers.

    >>> parse_chips(25), parse_chips("17/3"), parse_chips("6")
    (25, Fraction(17, 3), 6)
    >>> parse_chips("1/0")
    Traceback (most recent call last):
    ...
    ValueError: '1/0' is not a number of chips (a share needs a divisor over 0)
    """
    if isinstance(value, bool):
        raise ValueError(f"{str(value).lower()} is not a number of chips")
    if isinstance(value, int):
        if 0 <= value <= MAX_CHIPS:
            return value
        if value > MAX_CHIPS:
            digits = f"{len(str(value))} digits" if value.bit_length() < 14_000 else f"{value.bit_length()} bits"
            raise ValueError(f"a number of chips over {MAX_CHIPS:,} ({digits})")
        raise ValueError("a negative number of chips")
    if isinstance(value, str):
        shown = repr(value if len(value) <= 20 else value[:20] + "…")
        top, slash, bottom = value.partition("/")
        parts = (top, bottom) if slash else (top,)
        if not all(p.isascii() and p.isdigit() for p in parts):
            raise ValueError(f"{shown} is not a number of chips")
        if any(len(p.lstrip("0")) > _MAX_CHIP_DIGITS for p in parts):
            raise ValueError(f"{shown} is not a number of chips (over {MAX_CHIPS:,})")
        if slash and int(bottom) == 0:
            raise ValueError(f"{shown} is not a number of chips (a share needs a divisor over 0)")
        chips = Fraction(int(top), int(bottom)) if slash else Fraction(int(top))
        if chips > MAX_CHIPS:
            raise ValueError(f"{shown} is not a number of chips (over {MAX_CHIPS:,})")
        return chips.numerator if chips.denominator == 1 else chips
    raise ValueError(f"{_kind(value)} is not a number of chips")


class TimeRangeError(ValueError):
    """A time that reads as one but lies outside :data:`EARLIEST`..:data:`LATEST`."""


def parse_time(text: str) -> datetime:
    """An ISO 8601 time as an aware datetime (a time without a zone is local time), between
    :data:`EARLIEST` and :data:`LATEST`; ``ValueError`` with a phrase otherwise.

    >>> parse_time("2025-01-01T20:05:00+00:00").isoformat()
    '2025-01-01T20:05:00+00:00'
    >>> parse_time("0001-01-01T00:00:00")
    Traceback (most recent call last):
    ...
    dealer_assist.live.log_record.TimeRangeError: '0001-01-01T00:00:00' is outside the years 1970-9998 a hand can be played in
    """
    shown = repr(text if len(text) <= 40 else text[:40] + "…")
    if len(text) > 64:
        raise ValueError(f"{shown} is not a time")
    cleaned = text.strip()
    if cleaned.endswith(("Z", "z")):
        cleaned = cleaned[:-1] + "+00:00"
    try:
        when = datetime.fromisoformat(cleaned)
    except ValueError:
        raise ValueError(f"{shown} is not a time (ISO 8601)") from None
    # the naive value first: a local-time conversion of year 1 or 9999 overflows
    day = timedelta(days=1)
    naive = when.replace(tzinfo=None)
    if not EARLIEST.replace(tzinfo=None) - day <= naive <= LATEST.replace(tzinfo=None) + day:
        raise TimeRangeError(f"{shown} is outside the years {EARLIEST.year}-{LATEST.year} a hand can be played in")
    try:
        aware = when if when.tzinfo is not None else when.astimezone()
        utc = aware.astimezone(timezone.utc)
    except (OverflowError, ValueError, OSError):
        raise TimeRangeError(f"{shown} cannot be placed in local time") from None
    if not EARLIEST <= utc <= LATEST:
        raise TimeRangeError(f"{shown} is outside the years {EARLIEST.year}-{LATEST.year} a hand can be played in")
    return aware


def record_time(text: object) -> datetime | None:
    """A record's time (``finished``, ``started``) as an aware datetime, or None when it is not a
    time :func:`parse_time` accepts. Never raises."""
    if not isinstance(text, str):
        return None
    try:
        return parse_time(text)
    except ValueError:
        return None


def normal_name(text: str) -> str:
    """A name as the program compares it: Unicode NFC (composed characters), otherwise as written.

    >>> normal_name("Zoe\\u0301") == "Zo\\u00e9"
    True
    """
    return unicodedata.normalize("NFC", text)


def _kind(value: object) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, str):
        return repr(value if len(value) <= 20 else value[:20] + "…")
    if isinstance(value, (int, float)):
        text = str(value) if not isinstance(value, int) or value.bit_length() < 64 else f"a {value.bit_length()}-bit number"
        return text if len(text) <= 20 else text[:20] + "…"
    return {list: "a list", dict: "an object"}.get(type(value), type(value).__name__)


# -- field types ------------------------------------------------------------------------
def _name(value: object) -> str:
    if type(value) is str and value.isascii() and 0 < len(value) <= MAX_NAME and not value.isspace():
        return value  # the common case, without a Unicode normalisation (ASCII is NFC)
    if not isinstance(value, str):
        raise ValueError(f"{_kind(value)} is not a name")
    name = normal_name(value)
    if not name.strip():
        raise ValueError("a name is empty")
    if len(name) > MAX_NAME:
        raise ValueError(f"a name is longer than {MAX_NAME} characters")
    return name


def _chips(value: object) -> object:
    if type(value) is int and 0 <= value <= MAX_CHIPS:
        return value
    parse_chips(value)
    return value


def _time(value: object) -> object:
    if value is not None:
        if not isinstance(value, str):
            raise ValueError(f"{_kind(value)} is not a time")
        parse_time(value)
    return value


def _whole_chips(value: object) -> object:
    if value is None:
        return value
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_CHIPS:
        raise ValueError(f"{_kind(value)} is not a whole number of chips from 0 to {MAX_CHIPS:,}")
    return value


def _choice(enum: type):
    values = [m.value for m in enum]

    def check(value: object) -> object:
        if value is not None and value not in values:
            raise ValueError(f"{_kind(value)} is not one of {', '.join(values)}")
        return value

    return check


def _names_map(value: object) -> object:
    """An object keyed by names: keys in NFC, and two keys that are one name make it bad."""
    if not isinstance(value, dict):
        return value  # the type check says it
    if len(value) > MAX_ITEMS:
        raise ValueError(f"more than {MAX_ITEMS} names")
    if all(type(k) is str and k.isascii() and 0 < len(k) <= MAX_NAME and not k.isspace() for k in value):
        return value  # ASCII names: already NFC, no two alike
    out: dict[str, Any] = {}
    for key, item in value.items():
        name = _name(key)
        if name in out:
            raise ValueError(f"{name!r} is named twice (written in two Unicode forms)")
        out[name] = item
    return out


Name = Annotated[str, BeforeValidator(_name)]
Text = Annotated[str, Field(max_length=MAX_TEXT)]
ChipsField = Annotated[int | str, BeforeValidator(_chips)]
TimeField = Annotated[str | None, BeforeValidator(_time)]
WholeChips = Annotated[int | None, BeforeValidator(_whole_chips)]
NameList = Annotated[list[Name], Field(max_length=MAX_ITEMS)]
#: The longest sentence ``waiting`` may hold (live writes sentences such as "The serial 0000000 is in board
#: 3 and P2 2: one note cannot lie in two places.", which can be longer than a name).
MAX_SENTENCE = 2000
Sentences = Annotated[list[Annotated[str, Field(max_length=MAX_SENTENCE)]], Field(max_length=MAX_ITEMS)]
ChipsByName = Annotated[dict[Name, ChipsField], BeforeValidator(_names_map)]


# The shapes are TypedDicts, not models: pydantic checks them 1.7 times faster (128 against 219 us of CPU for
# a 6-seat record of live's writer, 12:53 UTC 3 Dec on this machine; a 200 MB log is 41,000 records, so 5 s
# against 9 s of serve's catch-up), and the record stays the logged dict. Fields not named here are kept as
# logged, unchecked.
_CONFIG = ConfigDict(extra="ignore", strict=True)


class NoteEntry(TypedDict, total=False):
    """A note of the hand: its zone (``"board"`` or a seat's name) and index; the rest as logged."""

    __pydantic_config__ = _CONFIG  # type: ignore[misc]
    zone: Required[Name]
    index: Required[Annotated[int, Field(ge=0, le=MAX_ITEMS)]]
    serial: Text | None
    source: Text | None
    status: Text | None


class InputPlayer(TypedDict, total=False):
    """A player of the FORMATS.md §1 input: its name (the rest is checked by the rules when evaluated)."""

    __pydantic_config__ = _CONFIG  # type: ignore[misc]
    name: Required[Name]
    contributed: ChipsField | None


class InputHand(TypedDict, total=False):
    """The hand's FORMATS.md §1 input, as far as the log's readers use it."""

    __pydantic_config__ = _CONFIG  # type: ignore[misc]
    players: Annotated[list[InputPlayer], Field(max_length=MAX_ITEMS)]
    dealer: Name | None
    tie_policy: Annotated[str | None, AfterValidator(_choice(TiePolicy))]
    zero_joker: Annotated[str | None, AfterValidator(_choice(ZeroJoker))]
    game: Annotated[str | None, AfterValidator(_choice(Game))]
    carried_in: WholeChips


class Pot(TypedDict, total=False):
    __pydantic_config__ = _CONFIG  # type: ignore[misc]
    amount: ChipsField | None
    carried_in: ChipsField
    eligible: NameList
    winners: NameList


class SettlementEntry(TypedDict, total=False):
    """FORMATS.md §2 ``settlement``."""

    __pydantic_config__ = _CONFIG  # type: ignore[misc]
    payouts: ChipsByName
    carry: ChipsField
    carried_in: ChipsField
    pots: Annotated[list[Pot], Field(max_length=MAX_ITEMS)]


#: A change of P made after the deal: ``from`` the announced P ``to`` the new one (RULES.md §2; "from" is a
#: keyword, hence the functional form).
PositionChange = TypedDict("PositionChange", {"from": Annotated[int, Field(ge=1, le=7)],
                                              "to": Annotated[int, Field(ge=1, le=7)]})
PositionChange.__pydantic_config__ = _CONFIG  # type: ignore[attr-defined]


class HandRecord(TypedDict, total=False):
    """A hand-log record of version 1 (see the module doc); ``schema`` / ``version`` are checked before."""

    __pydantic_config__ = _CONFIG  # type: ignore[misc]
    session: Text | None
    hand: Annotated[int | None, Field(ge=0, le=10**9)]
    started: TimeField
    finished: TimeField
    end: Text | None
    position: Annotated[int | None, Field(ge=1, le=7)]
    position_random: bool | None
    position_changes: Annotated[list[PositionChange], Field(max_length=MAX_ITEMS)]
    zero_joker: Annotated[str | None, AfterValidator(_choice(ZeroJoker))]
    tie_policy: Annotated[str | None, AfterValidator(_choice(TiePolicy))]
    game: Annotated[str | None, AfterValidator(_choice(Game))]
    dealer: Name | None
    status: Text | None
    street: Text | None
    notes: Annotated[list[NoteEntry], Field(max_length=MAX_ITEMS)]
    folded: NameList
    waiting: Sentences | None  # what the showdown still needs: sentences, not names
    chips: ChipsByName | None
    best_hands: Annotated[dict[Name, dict[str, Any]] | None, BeforeValidator(_names_map)]
    winners: NameList | None
    settlement: SettlementEntry | None
    ante: WholeChips
    rake: WholeChips
    input: InputHand | None


_RECORD = TypeAdapter(HandRecord)


_TYPE_WORDS = {"list_type": "a list", "dict_type": "an object", "model_type": "an object",
               "model_attributes_type": "an object", "string_type": "a string", "int_type": "a whole number",
               "bool_type": "true or false"}


def _where(loc: tuple) -> str:
    parts = []
    for x in loc:
        if x == "[key]":
            continue
        if isinstance(x, int):
            parts.append(f"[{x}]")
        elif isinstance(x, str) and x.isidentifier():
            parts.append(f".{x}")
        else:
            parts.append(f"[{_kind(str(x))}]")
    return "".join(parts).lstrip(".")


def _problem(exc: ValidationError) -> str:
    err = exc.errors(include_url=False, include_input=False)[0]
    where = _where(tuple(x for x in err["loc"] if x not in ("int", "str", "function-before[_chips(), union[int,str]]")))
    kind = err["type"]
    if kind == "value_error":
        message = str(err.get("ctx", {}).get("error") or err["msg"])
        return f"{where}: {message}" if where else message
    if kind == "missing":
        return f"{where} is missing"
    if kind in _TYPE_WORDS:
        return f"{where} must be {_TYPE_WORDS[kind]}"
    if kind in ("too_long",):
        return f"{where} is too long"
    if kind in ("greater_than_equal", "less_than_equal"):
        return f"{where} is out of range"
    return f"{where} has the wrong type"


def check_record(obj: dict[str, Any]) -> tuple[CheckedRecord | None, str | None]:
    """``(record, None)`` for a valid record (names in NFC, otherwise as logged), or ``(None, why)``.

    ``obj`` is a decoded line whose ``schema`` and ``version`` were checked.

    >>> check_record({"schema": "dealer-assist/hand-log", "version": 1, "chips": {"A": "1/0"}})[1]
    "chips.A: '1/0' is not a number of chips (a share needs a divisor over 0)"
    >>> check_record({"schema": "dealer-assist/hand-log", "version": 1, "session": ["s1"]})[1]
    'session must be a string'
    """
    if not isinstance(obj, dict):
        return None, "it is not an object"
    try:
        checked = _RECORD.validate_python(obj)
    except ValidationError as exc:
        return None, _problem(exc)
    except (ValueError, TypeError, RecursionError, OverflowError) as exc:  # not expected: still one phrase
        return None, f"it cannot be read ({type(exc).__name__})"
    return _normalised(obj, checked), None


class CheckedRecord(dict):
    """A record that passed :func:`check_record` (a plain ``dict`` otherwise): readers that get one
    need not check it again."""

    __slots__ = ()


def _normalised(obj: dict[str, Any], v: dict[str, Any]) -> CheckedRecord:
    """``obj`` with the checked names replaced by their NFC form ``v`` holds (other fields untouched; a
    field is copied only when a name in it changed)."""
    out = CheckedRecord(obj)
    for key in ("dealer", "folded", "winners", "chips", "best_hands"):
        if v.get(key) is not None and v[key] != obj[key]:
            out[key] = v[key]
    notes = v.get("notes")
    if notes and [n["zone"] for n in notes] != [n["zone"] for n in obj["notes"]]:
        out["notes"] = [{**raw, "zone": note["zone"]} for raw, note in zip(obj["notes"], notes)]
    settlement = v.get("settlement")
    if settlement is not None:
        changed = dict(obj["settlement"])
        if "payouts" in changed and changed["payouts"] != settlement["payouts"]:
            changed["payouts"] = settlement["payouts"]
        pots = settlement.get("pots")
        if pots:
            changed["pots"] = [{**raw, **{k: pot[k] for k in ("eligible", "winners") if k in raw}}
                               for raw, pot in zip(obj["settlement"]["pots"], pots)]
        if changed != obj["settlement"]:
            out["settlement"] = changed
    source = v.get("input")
    if source is not None:
        changed = dict(obj["input"])
        if source.get("players"):
            changed["players"] = [{**raw, "name": p["name"]} for raw, p in zip(obj["input"]["players"], source["players"])]
        if changed.get("dealer") is not None:
            changed["dealer"] = source["dealer"]
        if changed != obj["input"]:
            out["input"] = changed
    return out
