"""The words the program shows, in English and Russian: one table, one meaning per key.

:data:`TEXT` maps a language to its words; :func:`texts` checks the language
first. Keys name what the words mean, so two screens that need different
words use different keys (``best_hand`` "Best hand" in a showdown,
``hand`` "Hand" as a hand's number). :func:`default_lang` is the one
language default (the locale), :func:`parse_lang` the one parser of a
``--lang`` value (any case).

>>> texts("ru")["best_hand"], texts(default_lang({"LANG": "ru_RU.UTF-8"}))["hand"]
('Лучшая рука', 'Раздача')
>>> parse_lang(" RU ") is Lang.RU
True
"""

from __future__ import annotations

import os
from enum import StrEnum, unique
from typing import Mapping

__all__ = ["Lang", "LANGUAGES", "TEXT", "KEYS_HELP", "DASHBOARD_TEXT", "texts", "default_lang", "parse_lang"]


@unique
class Lang(StrEnum):
    """A language of the output."""

    EN = "en"
    RU = "ru"


#: The language codes, in the order help texts list them.
LANGUAGES = tuple(lang.value for lang in Lang)

TEXT: dict[str, dict[str, str]] = {
    "en": {
        # the game's options and their values (RULES.md §2.5, §4)
        "playing_position": "Playing position", "position_letter": "P", "random": "random",
        "zero_joker": "zero-joker", "tie_policy": "ties", "dealer": "dealer",
        "off": "off", "per-zero": "per zero", "once": "once", "split": "split", "rollover": "roll over",
        # the hand classes (RULES.md §3)
        "high": "High", "pair": "Pair", "straight": "Straight", "set": "Set",
        # a note's rank and why (RULES.md §2)
        "natural": "natural", "modified": "modified", "left": "left", "right": "right",
        "either": "left or right", "wrap": " (wrap)", "to": "to", "joker": "joker",
        "dead": "all zeros: dead note, does not play", "unused": "not played", "also": "also",
        # tables of notes and hands
        "board": "Board", "board notes": "board", "empty board": "no board notes yet", "note": "Note",
        "note_number": "#", "serial": "Serial", "rank": "Rank", "why": "Why", "player": "Player",
        "pocket": "Pocket", "best_hand": "Best hand", "best": "Best", "class": "Class", "result": "Result",
        "hand": "Hand", "hand_line": "Hand, line {line}", "no hand": "no hand",
        # outcomes
        "wins": "wins", "splits": "splits", "wins_banner": "WINS", "splits_banner": "SPLITS", "won": "won",
        "loses": "loses", "folded": "folded", "hidden": "did not reveal", "standing": "last player standing",
        "winner": "Winner", "winners": "Winners", "nobody": "nobody",
        "tie_rolls_over": "ties: the pot rolls over", "tied": "Tied (the pot rolls over)",
        "warning": "Warning",
        # chips and pots (RULES.md §4)
        "chips_label": "Chips", "chips": "chips", "amount": "Chips", "pot": "Pot", "main": "main", "side": "side",
        "eligible_column": "Eligible", "eligible": "eligible", "carry": "Carried to the next hand",
        # live mode's dashboard
        "camera": "camera", "fps": "fps", "ocr": "OCR", "street": "street", "preflop": "preflop", "flop": "flop",
        "turn": "turn", "river": "river", "showdown": "showdown", "pending": "pending", "reads": "reads",
        "face down": "face down / not read yet", "unreadable": "not readable", "out_of_format": "out of format",
        "manual": "typed", "no notes": "no notes seen", "waiting": "Waiting for", "problem": "Check",
        "outside": "Notes outside every zone", "empty": "—",
        # score's report
        "review_head": "needs review", "review_image": "image", "review_seat": "seat", "review_serial": "serial",
        "review_confidence": "confidence", "summary": "Summary", "summary_hand": "hand", "summary_status": "status",
        "summary_winners": "winners", "scored": "scored", "needs_review": "needs review",
        "hands_scored": "{scored} of {total} hands scored",
    },
    "ru": {
        "playing_position": "Игровое место", "position_letter": "P", "random": "случайно",
        "zero_joker": "ноль-джокер", "tie_policy": "при равенстве", "dealer": "дилер",
        "off": "выкл.", "per-zero": "за каждый ноль", "once": "один раз", "split": "делёж", "rollover": "Roll Over",
        "high": "Мусор", "pair": "Пара", "straight": "Стрит", "set": "Сет",
        "natural": "натуральная", "modified": "модифицированная", "left": "влево", "right": "вправо",
        "either": "влево или вправо", "wrap": " (по кольцу)", "to": "до", "joker": "джокер",
        "dead": "все нули: купюра не играет", "unused": "не играет в руке", "also": "ещё",
        "board": "Борд", "board notes": "борд", "empty board": "общих купюр ещё нет", "note": "Купюра",
        "note_number": "#", "serial": "Номер", "rank": "Ранг", "why": "Почему", "player": "Игрок",
        "pocket": "Карманные", "best_hand": "Лучшая рука", "best": "Лучшая", "class": "Комбинация", "result": "Итог",
        "hand": "Раздача", "hand_line": "Раздача, строка {line}", "no hand": "нет руки",
        "wins": "выигрывает", "splits": "делит банк", "wins_banner": "ВЫИГРЫВАЕТ", "splits_banner": "ДЕЛИТ БАНК",
        "won": "выиграл", "loses": "проигрывает", "folded": "сбросил", "hidden": "не вскрылся",
        "standing": "остался один", "winner": "Победитель", "winners": "Победители", "nobody": "никто",
        "tie_rolls_over": "ничья: банк переходит", "tied": "Ничья (банк переходит в следующую раздачу)",
        "warning": "Внимание",
        "chips_label": "Фишки", "chips": "фишки", "amount": "Фишки", "pot": "Банк", "main": "основной",
        "side": "побочный", "eligible_column": "Претенденты", "eligible": "претенденты",
        "carry": "Переходит в следующую раздачу",
        "camera": "камера", "fps": "кадр/с", "ocr": "OCR", "street": "улица", "preflop": "префлоп", "flop": "флоп",
        "turn": "тёрн", "river": "ривер", "showdown": "вскрытие", "pending": "читается", "reads": "чтений",
        "face down": "рубашкой вверх / ещё не прочитана", "unreadable": "не читается", "out_of_format": "не тот формат",
        "manual": "введено", "no notes": "купюр нет", "waiting": "Ждём", "problem": "Проверьте",
        "outside": "Купюры вне зон", "empty": "—",
        "review_head": "требует проверки (причины по-английски)", "review_image": "снимок", "review_seat": "место",
        "review_serial": "номер", "review_confidence": "уверенность", "summary": "Итог", "summary_hand": "раздача",
        "summary_status": "статус", "summary_winners": "победители", "scored": "оценена",
        "needs_review": "требует проверки", "hands_scored": "{scored} из {total} раздач оценено",
    },
}

#: The live keys, shown at the bottom of the dashboard.
KEYS_HELP = {
    "en": "n new hand · p set P · r random P · s showdown · f fold · e type a serial · c chips · u undo · q quit",
    "ru": "n новая раздача · p место P · r случайное P · s вскрытие · f сброс · e ввести номер · c фишки · "
          "u отменить · q выход",
}

#: The dashboard's own key names (``live/dashboard.py``) -> the keys of :data:`TEXT`, where they differ.
_DASHBOARD_RENAMED = {"hand": "hand", "position": "position_letter", "joker": "zero_joker", "ties": "tie_policy",
                      "note": "note_number", "wins": "wins_banner", "splits": "splits_banner",
                      "not revealed": "hidden"}
_DASHBOARD_KEYS = (
    "hand", "dealer", "position", "random", "joker", "ties", "camera", "fps", "ocr", "board", "street", "preflop",
    "flop", "turn", "river", "showdown", "pending", "reads", "face down", "unreadable", "out_of_format", "manual",
    "no notes", "best", "natural", "modified", "wins", "splits", "loses", "folded", "not revealed", "winner",
    "winners", "nobody", "waiting", "problem", "pot", "main", "side", "chips", "eligible", "carry", "outside", "empty",
    "note", "serial", "rank", "why", "won", "off", "per-zero", "once", "split", "rollover",
)
#: The dashboard's words under the key names it uses today, taken from :data:`TEXT` (so that
#: ``live/dashboard.py`` can replace its own table with ``from dealer_assist.i18n import DASHBOARD_TEXT as _T``).
DASHBOARD_TEXT = {lang: {k: TEXT[lang][_DASHBOARD_RENAMED.get(k, k)] for k in _DASHBOARD_KEYS} for lang in LANGUAGES}


def texts(lang: str) -> Mapping[str, str]:
    """The words of ``lang``; ``ValueError`` for a language not in :data:`LANGUAGES`."""
    if lang not in TEXT:
        raise ValueError(f"lang must be one of {', '.join(LANGUAGES)}, got {lang!r}.")
    return TEXT[lang]


def default_lang(environ: Mapping[str, str] | None = None) -> Lang:
    """``ru`` when the locale (LC_ALL, else LC_MESSAGES, else LANG) starts with ``ru``, else ``en``.

    >>> str(default_lang({"LANG": "ru_RU.UTF-8"})), str(default_lang({"LC_ALL": "C", "LANG": "ru_RU"}))
    ('ru', 'en')
    """
    env = os.environ if environ is None else environ
    for key in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(key)
        if value:
            return Lang.RU if value.lower().startswith("ru") else Lang.EN
    return Lang.EN


def parse_lang(text: str) -> Lang:
    """A ``--lang`` value, any case and spacing; ``ValueError`` with a sentence otherwise."""
    try:
        return Lang(text.strip().lower())
    except ValueError:
        raise ValueError(f"must be {' or '.join(LANGUAGES)}, not {text[:20]!r}.") from None
