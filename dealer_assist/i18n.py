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
import re
from enum import StrEnum, unique
from typing import Mapping

__all__ = ["Lang", "LANGUAGES", "TEXT", "KEYS_HELP", "KEYS_SHORT", "GUIDES", "PHRASES", "texts", "say", "say_place",
           "knows", "default_lang", "parse_lang"]


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
        "face down": "face down", "unreadable": "cannot be read", "out_of_format": "not 7 digits",
        "manual": "typed", "no notes": "no notes seen", "waiting": "Waiting for", "problem": "Check",
        "outside": "Notes outside every zone", "empty": "—",
        # score's report
        "review_head": "needs review", "review_image": "image", "review_seat": "seat", "review_serial": "serial",
        "review_confidence": "confidence", "summary": "Summary", "summary_hand": "hand", "summary_status": "status",
        "summary_winners": "winners", "scored": "scored", "needs_review": "needs review",
        "hands_scored": "{scored} of {total} hands scored",
        # live mode's dashboard: states said plainly (a face-down note is not a failure)
        "profile": "profile", "cam_ok": "ok", "cam_lost": "lost", "cam_ended": "recording ended",
        "cam_starting": "starting", "ocr_idle": "idle", "ocr_reading": "reading", "ocr_queued": "{n} queued",
        "ocr_off": "off (the croupier types the serials)", "ocr_error": "error", "ocr_loading": "loading its models",
        "st_pending": "being read", "st_not_read": "not read", "st_face_down_covered": "face down or covered",
        "pending_why": "the camera is reading it; it plays once read alike {k} times",
        "not_read_why": "the recording ended before it was read; type it: e {slot} NNNNNNN",
        "unreadable_why": "type it: e {slot} NNNNNNN", "not_read_waiting": "{place}: not read before the recording "
        "ended; type its serial (e {slot} NNNNNNN).",
        "nat": "nat.", "mod": "mod.", "legend": "nat. = natural, mod. = modified; [d] = the digit at P",
        "legend_mark": "[d] = the digit at P", "legend_typed": "* = typed by the croupier",
        "not_in_hand": "Not in this hand", "seat_chips": "chips {n}",
        "won_short": "gets {n}", "pots": "Pots",
        "chips_missing": "No chips entered for {seats}: counted as 0.",
        "winner_no_chips": "{seat} wins but put in no chips: the pot goes to the best hand among those who did.",
        "more_lines": "… {n} more line(s): enlarge the terminal",
        # the croupier's commands, answered on the dashboard
        "showdown_empty": "Nothing to show down: no note has been seen in this hand yet (s calls the showdown "
                          "once the notes are out).",
        "showdown_called_means": "Showdown called: once the board is known and no note is being read, a seat "
                                 "still in without both notes known did not reveal and takes no part in the pot.",
        "showdown_called_now": "Showdown called: {seats} did not reveal and take no part in the pot.",
        "confirm_position": "The hand is decided: P={p} would score it anew (now P={old}, winner {winners}). "
                            "Give the same command again to change P; anything else keeps P={old}.",
        "confirm_random": "The hand is decided: a new random P would score it anew (now P={old}, winner {winners}). "
                          "Press r again to draw; anything else keeps P={old}.",
        # the start-up screen
        "startup_title": "dealer-assist live is starting", "step_program": "the program",
        "step_profile": "calibration profile",
        "step_camera": "camera or recording", "step_log": "hand log", "step_ocr": "OCR models (about 15 s)",
        "step_done": "done", "step_busy": "loading…", "step_wait": "next",
        "step_skip": "not used", "startup_hint": "The dashboard follows as soon as the OCR has read the first frame.",
        # history
        "history_title": "{path} · {n} hand(s)", "finished": "finished", "status": "status",
        "incomplete": "incomplete", "not_showdown": "Not a complete showdown ({error}); the notes as logged:",
        "logged_winners": "Logged winners: {winners}", "zone": "zone", "source": "source", "none": "none",
        "end_quit": "quit", "end_stopped": "stopped", "end_end of video": "end of the recording",
        "end_table cleared": "table cleared", "end_new hand": "new hand",
        "trusted": "trusted",
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
        "face down": "рубашкой вверх", "unreadable": "не читается", "out_of_format": "не 7 цифр",
        "manual": "введено", "no notes": "купюр нет", "waiting": "Ждём", "problem": "Проверьте",
        "outside": "Купюры вне зон", "empty": "—",
        "review_head": "требует проверки", "review_image": "снимок", "review_seat": "место",
        "review_serial": "номер", "review_confidence": "уверенность", "summary": "Итог", "summary_hand": "раздача",
        "summary_status": "статус", "summary_winners": "победители", "scored": "оценена",
        "needs_review": "требует проверки", "hands_scored": "{scored} из {total} раздач оценено",
        "profile": "профиль", "cam_ok": "работает", "cam_lost": "потеряна", "cam_ended": "запись закончилась",
        "cam_starting": "запускается", "ocr_idle": "ждёт", "ocr_reading": "читает", "ocr_queued": "в очереди {n}",
        "ocr_off": "выкл. (номера вводит крупье)", "ocr_error": "ошибка", "ocr_loading": "загружает модели",
        "st_pending": "читается", "st_not_read": "не прочитана", "st_face_down_covered": "рубашкой вверх или закрыта",
        "pending_why": "камера читает её; купюра играет, когда прочитана одинаково {k} раза",
        "not_read_why": "запись закончилась раньше, чем её прочитали; введите: e {slot} NNNNNNN",
        "unreadable_why": "введите: e {slot} NNNNNNN", "not_read_waiting": "{place}: не прочитана до конца записи; "
        "введите номер (e {slot} NNNNNNN).",
        "nat": "нат.", "mod": "мод.", "legend": "нат. = натуральная, мод. = модифицированная; [d] = цифра на месте P",
        "legend_mark": "[d] = цифра на месте P", "legend_typed": "* = введено крупье",
        "not_in_hand": "Не в раздаче", "seat_chips": "фишки {n}",
        "won_short": "получает {n}", "pots": "Банки",
        "chips_missing": "Фишки не введены для {seats}: считаются как 0.",
        "winner_no_chips": "{seat} выигрывает, но не вносил фишек: банк получает лучшая рука среди вносивших.",
        "more_lines": "… ещё строк: {n}; увеличьте окно терминала",
        "showdown_empty": "Вскрывать нечего: в этой раздаче ещё не видно ни одной купюры (s объявляет вскрытие, "
                          "когда купюры розданы).",
        "showdown_called_means": "Вскрытие объявлено: когда борд известен и ни одна купюра не читается, место в "
                                 "игре без обеих известных купюр считается не вскрывшимся и в банке не участвует.",
        "showdown_called_now": "Вскрытие объявлено: {seats} не вскрылись и в банке не участвуют.",
        "confirm_position": "Раздача решена: P={p} пересчитает её (сейчас P={old}, победитель {winners}). "
                            "Повторите команду, чтобы сменить P; любая другая оставит P={old}.",
        "confirm_random": "Раздача решена: новое случайное P пересчитает её (сейчас P={old}, победитель {winners}). "
                          "Нажмите r ещё раз, чтобы вытянуть; любая другая команда оставит P={old}.",
        "startup_title": "dealer-assist live запускается", "step_program": "программа",
        "step_profile": "профиль калибровки",
        "step_camera": "камера или запись", "step_log": "журнал раздач", "step_ocr": "модели OCR (около 15 с)",
        "step_done": "готово", "step_busy": "загружается…", "step_wait": "далее",
        "step_skip": "не нужен", "startup_hint": "Панель появится, как только OCR прочитает первый кадр.",
        "history_title": "{path} · раздач: {n}", "finished": "закончена", "status": "статус",
        "incomplete": "не решена", "not_showdown": "Вскрытие неполное ({error}); купюры, как записаны:",
        "logged_winners": "Победители в журнале: {winners}", "zone": "зона", "source": "источник", "none": "нет",
        "end_quit": "выход", "end_stopped": "остановлена", "end_end of video": "конец записи",
        "end_table cleared": "стол убран", "end_new hand": "новая раздача",
        "trusted": "надёжно прочитана",
    },
}

#: The live keys, shown at the bottom of the dashboard (the short form fits 80 columns).
KEYS_HELP = {
    "en": "n new hand · p set P · r random P · s showdown · f fold · e type a serial · c chips · u undo · q quit",
    "ru": "n новая раздача · p место P · r случайное P · s вскрытие · f сброс · e ввести номер · c фишки · "
          "u отменить · q выход",
}
KEYS_SHORT = {
    "en": "n:new-hand p:P r:random-P s:showdown f:fold e:serial c:chips u:undo q:quit",
    "ru": "n:новая p:место-P r:случ.-P s:вскрытие f:сброс e:номер c:фишки u:отмена q:выход",
}

#: ``dealer-assist rules`` and ``dealer-assist formats``: short summaries, written for this program (the
#: project's reference rules and formats are not shipped with it).
GUIDES: dict[str, dict[str, str]] = {
    "en": {
        "rules": """\
Banknote Hold'em in short

Notes. Real banknotes of one denomination are the cards. Only the 7 digits of a
note's serial play; the two letters in front of them do not.

A hand. Every player gets 2 pocket notes, face down. Then 3 board notes are laid
out one at a time: the flop, the turn and the river, with betting before each
and after the last. After the hand the dealer's button moves one seat to the left.

Rank. Before the hand the dealer names the playing position P, a number from 1
to 7 counted from the left of the serial. A note's rank is its digit at P; 9 is
the highest.
  * A 0 at P on a board note: the rank is the first digit that is not 0 to its
    right, going round from the 7th digit back to the 1st.
  * A 0 at P on a pocket note: its owner may go left or right, whichever gives
    the better hand.
  * A note ranked this way is "modified"; the others are "natural".
  * A note of seven zeros is dead: it never plays.
  * Zero-joker (--zero-joker), off unless announced: with per-zero, every other
    0 of a pocket note may move its rank one step up or down on the ring 1..9
    (9 + 1 = 1); with once, one step at most. A moved rank is modified.

Hands. A player's hand is the best 3 notes of their 2 pocket notes and the
board. From low to high:
  high      (Мусор)   three different ranks that are not a straight
  pair      (Пара)    two equal ranks
  straight  (Стрит)   three ranks in a row, 1-2-3 up to 7-8-9; 8-9-1 is not one
  set       (Сет)     three equal ranks
Hands of one class compare their ranks (a pair first by the pair, then by the
third note). Still equal: a natural hand beats a modified one. Still equal: the
pot is split (--tie-policy split, the default) or carried to the next hand
(rollover). Fewer than 3 notes that play: no hand, which loses to any hand.

Showdown and chips. A folded player is out. A player still in who does not show
both pocket notes takes no part in the pot. If all but one fold, that one wins
without showing. From the chips each player put in, side pots are built as in
poker; each goes to the best hand among those who put in enough for it, and odd
chips go one at a time starting left of the dealer. No chip is made or lost.
""",
        "formats": """\
The files dealer-assist reads and writes (JSON; extra fields are ignored)

A hand -- input of `eval --hands FILE` and `odds --hands FILE`, one per line:
  {"position": 4,                     P, 1 to 7
   "zero_joker": "off",               off | per-zero | once (may be left out: off)
   "tie_policy": "split",             split | rollover (may be left out: split)
   "dealer": "P3",                    may be left out
   "board": ["1234567", "0000123"],   0 to 3 serials, 7 digits each
   "players": [{"name": "P1", "pocket": ["7654321", "0102030"],
                "contributed": 25, "folded": false, "revealed": true}]}
  Players are listed clockwise; contributed (chips put in), folded and revealed
  may be left out.

A result -- `eval --json` prints one per hand, in the order of the hands:
  {"players": {"P1": {"class": "pair", "ranks": [7, 7, 5], "natural": true,
                      "notes": [...]}},
   "winners": ["P1"],
   "settlement": {"pots": [{"amount": 120, "eligible": ["P1", "P2"], "winners": ["P1"]}],
                  "payouts": {"P1": 120, "P2": 0}, "carry": 0}}
  class is high, pair, straight, set or null (no hand); ranks run from the most
  to the least significant; settlement is there when chips were given. A line
  that is not a hand gives {"error": "..."} and a non-zero exit code.

Serials read from photos -- `read --json` prints one object per photo:
  {"image": "photo.jpg", "notes": [{"serial": "1234567", "letters": "ЧЛ",
   "confidence": 0.97, "quad": [[x, y], [x, y], [x, y], [x, y]], "reads": [...]}]}
  serial is null when no 7-digit read is trusted; it is never guessed.

A photographed hand -- `score FOLDER`: one folder per hand with
  board.jpg (or board-1.jpg, board-2.jpg, board-3.jpg)   the board notes
  alice.jpg (or alice-1.jpg and alice-2.jpg)             a player's pocket notes
  hand.json   {"position": 5, "zero_joker": "off", "tie_policy": "split",
               "serials": {"alice-2.jpg": ["1234567"]}}   serials typed for unreadable notes
  or a photo of the whole table with a calibration profile:
  `score table.jpg --calibration NAME`, its settings in table.json beside it.
""",
    },
    "ru": {
        "rules": """\
Купюрный Hold'em коротко

Купюры. Картами служат настоящие купюры одного достоинства. Играют только 7 цифр
номера купюры; две буквы перед ними не играют.

Раздача. Каждый игрок получает 2 карманные купюры рубашкой вверх. Затем по одной
выкладываются 3 общие купюры (борд): флоп, тёрн и ривер; торговля идёт перед
каждой и после последней. После раздачи кнопка дилера переходит на место влево.

Ранг. Перед раздачей дилер объявляет игровое место P — число от 1 до 7, считая
цифры номера слева. Ранг купюры — её цифра на месте P; старший ранг 9.
  * 0 на месте P у купюры борда: ранг — первая цифра не 0 справа от него, по
    кольцу (после 7-й цифры снова 1-я).
  * 0 на месте P у карманной купюры: владелец идёт влево или вправо — как
    выгоднее для руки.
  * Такая купюра «модифицированная», остальные «натуральные».
  * Купюра из семи нулей не играет.
  * Ноль-джокер (--zero-joker), выключен, если не объявлен: при per-zero каждый
    другой 0 карманной купюры сдвигает её ранг на шаг вверх или вниз по кольцу
    1..9 (9 + 1 = 1); при once — не больше чем на шаг. Сдвинутый ранг —
    модифицированный.

Руки. Рука игрока — лучшие 3 купюры из его 2 карманных и борда. От младшей:
  Мусор   (high)      три разных ранга, не стрит
  Пара    (pair)      два равных ранга
  Стрит   (straight)  три ранга подряд, от 1-2-3 до 7-8-9; 8-9-1 — не стрит
  Сет     (set)       три равных ранга
Руки одной комбинации сравниваются по рангам (пара — сначала по паре, затем по
третьей купюре). При равенстве натуральная бьёт модифицированную. Если и так
поровну, банк делится (--tie-policy split, по умолчанию) или переходит в
следующую раздачу (rollover). Меньше 3 играющих купюр — нет руки; она
проигрывает любой руке.

Вскрытие и фишки. Сбросивший выбывает. Игрок, не показавший обе карманные
купюры, в банке не участвует. Если сбросили все, кроме одного, он выигрывает не
вскрываясь. Из внесённых фишек, как в покере, строятся побочные банки; каждый
получает лучшая рука среди внёсших на него достаточно, а неделимые фишки
раздаются по одной начиная слева от дилера. Фишки не появляются и не пропадают.
""",
        "formats": """\
Файлы, которые dealer-assist читает и пишет (JSON; лишние поля не мешают)

Раздача — вход `eval --hands ФАЙЛ` и `odds --hands ФАЙЛ`, по одной на строку:
  {"position": 4,                     P, от 1 до 7
   "zero_joker": "off",               off | per-zero | once (можно опустить: off)
   "tie_policy": "split",             split | rollover (можно опустить: split)
   "dealer": "P3",                    можно опустить
   "board": ["1234567", "0000123"],   от 0 до 3 номеров по 7 цифр
   "players": [{"name": "P1", "pocket": ["7654321", "0102030"],
                "contributed": 25, "folded": false, "revealed": true}]}
  Игроки перечислены по часовой стрелке; contributed (внесённые фишки), folded
  (сбросил) и revealed (вскрылся) можно опустить.

Итог — `eval --json` печатает по одному на раздачу, в том же порядке:
  {"players": {"P1": {"class": "pair", "ranks": [7, 7, 5], "natural": true,
                      "notes": [...]}},
   "winners": ["P1"],
   "settlement": {"pots": [{"amount": 120, "eligible": ["P1", "P2"], "winners": ["P1"]}],
                  "payouts": {"P1": 120, "P2": 0}, "carry": 0}}
  class — high, pair, straight, set или null (нет руки); ranks — от самого
  значимого; settlement есть, когда указаны фишки. Строка, которая не раздача,
  даёт {"error": "..."} и ненулевой код выхода.

Номера со снимков — `read --json` печатает объект на снимок:
  {"image": "photo.jpg", "notes": [{"serial": "1234567", "letters": "ЧЛ",
   "confidence": 0.97, "quad": [[x, y], [x, y], [x, y], [x, y]], "reads": [...]}]}
  serial равен null, если 7 цифр не прочитаны надёжно; номер не угадывается.

Сфотографированная раздача — `score ПАПКА`: по папке на раздачу:
  board.jpg (или board-1.jpg, board-2.jpg, board-3.jpg)   купюры борда
  alice.jpg (или alice-1.jpg и alice-2.jpg)               карманные купюры игрока
  hand.json   {"position": 5, "zero_joker": "off", "tie_policy": "split",
               "serials": {"alice-2.jpg": ["1234567"]}}    номера нечитаемых купюр
  или снимок всего стола с профилем калибровки:
  `score table.jpg --calibration ИМЯ`, настройки — в table.json рядом.
""",
    },
}

# --------------------------------------------------------------------------------------------
# Sentences. The program's modules write their sentences in English (errors, what the showdown
# waits for, why a note cannot be read, why a hand needs review); :func:`say` gives them in the
# language asked for. Each entry is (the English sentence as a regular expression, its Russian);
# a group named ``say*`` is itself a sentence (said in turn), ``place*`` a place on the table
# ("board 2", "the board", "alice 1", "a and b"); other groups are copied (serials, seats, numbers).

_PLACE_RU = {"the board": "борд", "board": "борд", "the note": "купюра", "note": "купюра", "player": "игрок",
             "twice": "дважды", "and": "и"}

PHRASES: tuple[tuple[str, str], ...] = (
    # live: the croupier's commands (live/session.py, live/commands.py)
    (r"Hand (?P<n>\d+): dealer (?P<d>.+?) \(hand (?P<k>\d+) logged\)\.",
     "Раздача {n}: дилер {d} (раздача {k} записана в журнал)."),
    (r"Hand (?P<n>\d+): dealer (?P<d>\S+?)\. (?P<say>.+)", "Раздача {n}: дилер {d}. {say}"),
    (r"Hand (?P<n>\d+): dealer (?P<d>\S+?)\.", "Раздача {n}: дилер {d}."),
    (r"Playing position P=(?P<p>\d+)\.", "Игровое место P={p}."),
    (r"Random playing position: P=(?P<p>\d+)\.", "Случайное игровое место: P={p}."),
    (r"Showdown called\.", "Вскрытие объявлено."),
    (r"Showdown call taken back\.", "Объявление вскрытия отменено."),
    (r"(?P<s>\S+) folded\.", "{s}: сброс."),
    (r"(?P<s>\S+) is back in\.", "{s} снова в игре."),
    (r"(?P<s>\S+) is in the hand\.", "{s} в раздаче."),
    (r"(?P<s>\S+) sits this hand out\.", "{s} пропускает эту раздачу."),
    (r"(?P<s>\S+) put in (?P<n>\d+) chips\.", "{s} внёс фишек: {n}."),
    (r"(?P<place>.+?): serial (?P<v>\d+) typed\.", "{place}: номер {v} введён."),
    (r"(?P<place>.+?): typed serial cleared\.", "{place}: введённый номер стёрт."),
    (r"Nothing to undo in this hand\.", "В этой раздаче нечего отменять."),
    (r"Undone\.", "Отменено."),
    (r"Quitting\.", "Выход."),
    (r"OCR: (?P<say>.+)", "OCR: {say}"),
    (r"the OCR process stopped \((?P<x>.*)\); it was restarted\.", "процесс OCR остановился ({x}); он перезапущен."),
    (r"(?P<q>'.*') is not a seat \((?P<seats>.*)\)\.", "{q} — не место за столом ({seats})."),
    (r"(?P<q>'.*') is not a note: give the board or a seat and the note's number, e\.g\. 'board 2' or '(?P<s>.*) 1'\.",
     "{q} — не купюра: укажите борд или место и номер купюры, например 'board 2' или '{s} 1'."),
    (r"(?P<q>'.*') is neither the board nor a seat \((?P<seats>.*)\)\.", "{q} — ни борд, ни место ({seats})."),
    (r"(?P<place>the board|.+?) has notes 1 to (?P<n>\d), not (?P<i>\d+)\.",
     "{place}: купюры с номерами от 1 до {n}, а не {i}."),
    (r"the serial must be exactly 7 digits, got (?P<q>.*)\.", "номер должен быть ровно из 7 цифр, а не {q}."),
    (r"chips must be a whole number >= 0, not (?P<q>.*)\.", "фишки — целое число от 0, а не {q}."),
    (r"Empty command\.", "Пустая команда."),
    (r"(?P<q>'.*') is neither a command nor a serial: give the note and its 7 digits, e\.g\. 'board 2 1234567' or "
     r"'P3 1 7654321'\.",
     "{q} — ни команда, ни номер: укажите купюру и её 7 цифр, например 'board 2 1234567' или 'P3 1 7654321'."),
    (r"(?P<q>'.*') is not a command \((?P<names>.*)\)\.", "{q} — не команда ({names})."),
    (r"'(?P<c>\w+)' takes nothing after it\.", "После '{c}' ничего не пишут."),
    (r"Give the playing position as one number from 1 to 7, e\.g\. 'position 5'\.",
     "Укажите игровое место одним числом от 1 до 7, например 'position 5'."),
    (r"Give the seat to fold, e\.g\. 'fold P3' or 'fold 3'\.", "Укажите место, которое сбрасывает, например 'fold P3' "
                                                                 "или 'fold 3'."),
    (r"Give the seat, e\.g\. '(?P<c>\w+) P3' or '\w+ 3'\.", "Укажите место, например '{c} P3' или '{c} 3'."),
    (r"Give the seat and a whole number of chips, e\.g\. 'chips P3 25'\.",
     "Укажите место и целое число фишек, например 'chips P3 25'."),
    (r"Give the note and its 7 digits, e\.g\. 'serial board 2 1234567' or 'serial P3 1 7654321'\.",
     "Укажите купюру и её 7 цифр, например 'serial board 2 1234567' или 'serial P3 1 7654321'."),
    # live: what the showdown waits for, and problems (live/table_state.py)
    (r"The board has (?P<k>\d) of (?P<n>\d) notes known\.", "Борд: известно купюр {k} из {n}."),
    (r"(?P<place>.+?): the camera is still reading this note\.", "{place}: камера ещё читает эту купюру."),
    (r"(?P<s>.+?): (?P<k>\d) of (?P<n>\d) pocket notes known\.", "{s}: известно карманных купюр {k} из {n}."),
    (r"(?P<s>.+?): (?P<k>\d) of (?P<n>\d) pocket notes known \(none on the table now: the camera saw this seat's "
     r"notes earlier; type them, fold the seat or call the showdown\)\.",
     "{s}: известно карманных купюр {k} из {n} (сейчас на столе их нет, камера видела их раньше; введите номера, "
     "сбросьте место или объявите вскрытие)."),
    (r"(?P<s>.+?): (?P<k>\d) of (?P<n>\d) pocket notes known \(the croupier put this seat in the hand; type them, "
     r"fold the seat or call the showdown\)\.",
     "{s}: известно карманных купюр {k} из {n} (крупье ввёл это место в раздачу; введите номера, сбросьте место "
     "или объявите вскрытие)."),
    (r"Fewer than 2 seats have notes: waiting for the deal\.", "Купюры есть меньше чем у 2 мест: ждём раздачу."),
    (r"The board holds (?P<n>\d+) notes; only the first (?P<k>\d) play\.",
     "На борде купюр: {n}; играют только первые {k}."),
    (r"(?P<s>.+?) has (?P<n>\d+) notes in front of them; only the first (?P<k>\d) play\.",
     "У {s} купюр: {n}; играют только первые {k}."),
    (r"The serial (?P<v>\d+) is in (?P<places>.+): one note cannot lie in two places\.",
     "Номер {v} лежит в местах {places}: одна купюра не может лежать в двух местах."),
    (r"(?P<n>\d+) notes? lie outside the board and every seat's zone and do not play; if they are dealt notes, "
     r"check the zones \(dealer-assist calibrate check\)\.",
     "Купюр вне борда и зон мест: {n}; они не играют. Если это розданные купюры, проверьте зоны "
     "(dealer-assist calibrate check)."),
    # live: the camera and the reader (live/camera.py, live/session.py)
    (r"end of the recording", "конец записи"),
    (r"camera (?P<n>\d+)", "камера {n}"),
    (r"reconnected", "переподключена"),
    (r"no frame for (?P<n>\d+) s", "нет кадров {n} с"),
    (r"(?P<say>.+); retrying in (?P<n>[\d.]+) s", "{say}; новая попытка через {n} с"),
    (r"the camera stopped delivering frames \((?P<say>.*)\)", "камера перестала давать кадры ({say})"),
    (r"no frame", "кадра нет"),
    (r"read failed", "чтение не удалось"),
    (r"The camera sees the table at (?P<x>[\d.]+) px/mm: serial digits are about (?P<n>\d+) px tall, too small to "
     r"read; use a higher resolution or bring the camera closer\.",
     "Камера видит стол с разрешением {x} пикс./мм: цифры номера высотой около {n} пикс., это слишком мелко; "
     "увеличьте разрешение или приблизьте камеру."),
    # why a note has no serial (the reader and the tracker: vision/, live/tracker.py)
    (r"the note was not found in this frame", "купюра не найдена в этом кадре"),
    (r"no serial seen: face down, or covered", "номер не виден: купюра рубашкой вверх или закрыта"),
    (r"a 9-digit serial \((?P<d>\d+), 2017 series\) is out of format for the game",
     "9-значный номер ({d}, образец 2017 г.) не подходит для игры"),
    (r"two prints agree but do not lie where a 1997-series ruble note puts them",
     "два номера совпадают, но лежат не там, где на купюре образца 1997 г."),
    (r"the reads disagree \((?P<v>.*)\)", "прочтения расходятся ({v})"),
    (r"the print is small and no second engine confirms (?P<v>\d+)",
     "номер мелкий, и второй движок не подтверждает {v}"),
    (r"only one print shows the serial \((?P<v>\d+)\); check it by eye",
     "номер виден только в одном месте ({v}); проверьте на глаз"),
    (r"both prints read a (?P<n>\d+)-digit serial \((?P<d>\d+)\); only 7 digits play",
     "оба номера читаются как {n}-значные ({d}); играют только 7 цифр"),
    (r"only part of its serial is visible \((?P<d>.*)\): the note is cut by the photo's edge",
     "виден только часть номера ({d}): купюра обрезана краем снимка"),
    (r"only part of its serial is visible \((?P<d>.*)\): the note is partly covered",
     "видна только часть номера ({d}): купюра частично закрыта"),
    (r"the two prints read differently \((?P<v>.*)\)", "два номера купюры читаются по-разному ({v})"),
    (r"no line of it reads as a serial print \(two letters, then 7 digits\)",
     "ни одна строка не читается как номер (две буквы, затем 7 цифр)"),
    (r"its serial reads as digits both ways up and the letters do not tell which",
     "номер читается цифрами в обе стороны, а буквы не подсказывают, как правильно"),
    (r"no print of this note was read as 7 digits", "ни один номер этой купюры не прочитан как 7 цифр"),
    (r"only one read \((?P<v>\d+)\) and nothing to cross-check it with",
     "только одно прочтение ({v}), и сверить его не с чем"),
    # score: why a hand needs review (app/verdicts.py, app/hand_folders.py, app/table_photos.py, app/photos.py)
    (r"(?P<img>.+?): (?P<place>note \d+|the note) is unreadable: (?P<say>.+)\.", "{img}: {place} не читается: {say}."),
    (r"(?P<img>.+?): (?P<place>note \d+|the note) is out of format: (?P<say>.+)\.",
     "{img}: {place} не того формата: {say}."),
    (r"(?P<img>.+?): (?P<place>note \d+|the note) is blank: (?P<say>.+)\.", "{img}: {place} без номера: {say}."),
    (r"(?P<img>.+?): (?P<e>\d+) notes? expected, (?P<f>\d+) found \(a note whose serial prints are hidden is not "
     r"seen\)\.", "{img}: ожидается купюр: {e}, найдено: {f} (купюру со скрытыми номерами не видно)."),
    (r"(?P<img>.+?): (?P<e>\d+) notes? expected, (?P<f>\d+) found\.", "{img}: ожидается купюр: {e}, найдено: {f}."),
    (r"(?P<img>.+?): hand\.json gives (?P<g>\d+) serial\(s\), (?P<e>\d+) expected\.",
     "{img}: в hand.json номеров: {g}, ожидается {e}."),
    (r"hand\.json: the serial (?P<q>'.*') given for (?P<img>.+) is not exactly 7 digits\.",
     "hand.json: номер {q} для {img} — не ровно 7 цифр."),
    (r"hand\.json: 'serials' must map an image name to a list of serials\.",
     "hand.json: 'serials' должен сопоставлять имени снимка список номеров."),
    (r"hand\.json: 'serials' names (?P<k>.+), which is not a photo in this hand\.",
     "hand.json: 'serials' называет {k}, но такого снимка в этой раздаче нет."),
    (r"serial (?P<v>\d+) is read in (?P<places>.+): one note cannot lie in two places\.",
     "номер {v} прочитан в {places}: одна купюра не может лежать в двух местах."),
    (r"no playing position: put \"position\" in hand\.json or pass --position\.",
     "нет игрового места: укажите \"position\" в hand.json или --position."),
    (r"no board photo \(board\.jpg or board-1\.jpg \.\.\.\)\.", "нет снимка борда (board.jpg или board-1.jpg ...)."),
    (r"(?P<place>the board|player \S+) \((?P<photos>.*)\) has (?P<c>\d+) notes?, (?P<w>\d) expected\.",
     "{place} ({photos}): купюр {c}, ожидается {w}."),
    (r"(?P<img>.+?): not read", "{img}: не прочитан"),
    (r"(?P<img>.+?): the reader failed on this photo \((?P<x>.*)\)\.", "{img}: снимок прочитать не удалось ({x})."),
    (r"hand\.json is not valid JSON \(line (?P<l>\d+), column (?P<c>\d+): (?P<x>.*)\)\.",
     "hand.json — не JSON (строка {l}, столбец {c}: {x})."),
    (r"hand\.json cannot be used: (?P<x>.*)\.", "hand.json нельзя использовать: {x}."),
    (r"(?P<q>'.*'): the name begins or ends with a space, so it names no player; rename the file\.",
     "{q}: имя начинается или кончается пробелом и не называет игрока; переименуйте файл."),
    (r"(?P<img>.+?): a hidden file is not read; rename it \(a photo\) or remove it from the hand folder\.",
     "{img}: скрытый файл не читается; переименуйте его (если это снимок) или уберите из папки раздачи."),
    (r"(?P<img>.+?): not a readable photo \(a broken link or a folder\)\.",
     "{img}: это не снимок, который можно прочитать (битая ссылка или папка)."),
    (r"(?P<img>.+?)/: a sub-folder is not read; put its photos in the hand folder itself \(or score it as a hand of "
     r"its own\)\.", "{img}/: вложенная папка не читается; положите её снимки в саму папку раздачи (или оцените её "
                     "как отдельную раздачу)."),
    (r"(?P<img>.+?): not a photo this program reads \((?P<x>.*?); it reads (?P<kinds>.*)\); convert it or remove it "
     r"from the hand folder\.", "{img}: программа не читает такие файлы ({x}; она читает {kinds}); преобразуйте его "
                               "или уберите из папки раздачи."),
    (r"(?P<img>.+?): the name does not map to a player \(a player's photo is NAME or NAME-N, the name of letters, "
     r"digits, _ and -\); rename the file\.",
     "{img}: имя не называет игрока (снимок игрока — ИМЯ или ИМЯ-N, имя из букв, цифр, _ и -); переименуйте файл."),
    (r"(?P<img>.+?) cannot be used \((?P<x>.*)\)\.", "{img} нельзя использовать ({x})."),
    (r"(?P<img>.+?): \"seats\" must be a list of seat names\.", "{img}: \"seats\" должен быть списком мест."),
    (r"(?P<img>.+?): seat\(s\) (?P<seats>.+) are not in the calibration (?P<p>'.*') \(its seats: (?P<all>.*)\)\.",
     "{img}: мест {seats} нет в калибровке {p} (её места: {all})."),
    (r"(?P<img>.+?): a note \((?P<v>\d+)\) at \((?P<x>[\d-]+), (?P<y>[\d-]+)\) px lies in no zone of the calibration "
     r"(?P<p>'.*')\.", "{img}: купюра ({v}) в точке ({x}, {y}) пикс. не лежит ни в одной зоне калибровки {p}."),
    (r"(?P<img>.+?): a note with no trusted serial at \((?P<x>[\d-]+), (?P<y>[\d-]+)\) px lies in no zone of the "
     r"calibration (?P<p>'.*')\.",
     "{img}: купюра без надёжного номера в точке ({x}, {y}) пикс. не лежит ни в одной зоне калибровки {p}."),
    (r"(?P<img>.+?): a note \((?P<v>\d+)\) lies in seat (?P<s>.+), which is not in play\.",
     "{img}: купюра ({v}) лежит на месте {s}, которое не в игре."),
    (r"(?P<img>.+?): a note with no trusted serial lies in seat (?P<s>.+), which is not in play\.",
     "{img}: купюра без надёжного номера лежит на месте {s}, которое не в игре."),
)

_COMPILED: list[tuple[re.Pattern, str]] = []


def _phrases() -> list[tuple[re.Pattern, str]]:
    """:data:`PHRASES` compiled (once, when first needed: the start-up screen comes before)."""
    if not _COMPILED:
        _COMPILED.extend((re.compile(pattern), ru) for pattern, ru in PHRASES)
    return _COMPILED


def _place(text: str) -> str:
    """``"board 2"``, ``"the board"``, ``"note 1"``, ``"a and b"`` in Russian (seat names stay)."""
    text = re.sub(r"\bthe (board|note)\b", r"\1", text)
    return "".join(_PLACE_RU.get(w, w) for w in re.split(r"(\W+)", text))


def say_place(text: str, lang: str) -> str:
    """A place on the table (``"board 2"``, ``"alice 1"``) in ``lang``.

    >>> say_place("board 2", "ru"), say_place("alice 1", "ru")
    ('борд 2', 'alice 1')
    """
    return text if lang == "en" else _place(text)


def say(text: str, lang: str) -> str:
    """``text``, one of the program's English sentences, in ``lang``.

    A sentence this table does not know is returned as it is (so nothing is
    lost); tests check the sentences the screens show.

    >>> say("P3 put in 25 chips.", "ru"), say("board 2: the camera is still reading this note.", "ru")
    ('P3 внёс фишек: 25.', 'борд 2: камера ещё читает эту купюру.')
    >>> say("Undone.", "en")
    'Undone.'
    """
    if lang == "en" or not text:
        return text
    texts(lang)  # an unknown language is refused
    for pattern, template in _phrases():
        m = pattern.fullmatch(text)
        if m is None:
            continue
        values = {}
        for name, value in m.groupdict().items():
            value = value or ""
            if name.startswith("say"):
                value = say(value, lang)
            elif name.startswith("place"):
                value = _place(value)
            values[name] = value
        return template.format(**values)
    return text


def knows(text: str) -> bool:
    """Whether :func:`say` has a translation of ``text`` (for tests)."""
    return any(pattern.fullmatch(text) for pattern, _ in _phrases())


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
