"""``dealer-assist rules`` and ``dealer-assist formats`` in English and Russian: :data:`GUIDES`, the one
table of the long built-in texts (the words and sentences are :mod:`dealer_assist.i18n`'s)."""

from __future__ import annotations

__all__ = ["GUIDES"]

#: ``dealer-assist rules`` and ``dealer-assist formats``: short summaries, written for this program (the
#: project's reference rules and formats are not shipped with it).
GUIDES: dict[str, dict[str, str]] = {
    "en": {
        "rules": """\
Banknote Hold'em in short

Notes. Real banknotes of one denomination are the cards. Only the 7 digits of a
note's serial play; the two letters in front of them do not.

A hand. Every player gets 2 pocket notes, face down. Then 3 board notes are
laid out one at a time: the flop, the turn and the river, with betting before
each and after the last. After the hand the dealer's button moves one seat to
the left.

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
   "zero_joker": "off",               off | per-zero | once (default: off)
   "tie_policy": "split",             split | rollover (default: split)
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
   "settlement": {"pots": [{"amount": 120, "eligible": ["P1", "P2"],
                            "winners": ["P1"]}],
                  "payouts": {"P1": 120, "P2": 0}, "carry": 0}}
  class is high, pair, straight, set or null (no hand); ranks run from the most
  to the least significant; settlement is there when chips were given. A line
  that is not a hand gives {"error": "..."} and a non-zero exit code.

Serials read from photos -- `read --json` prints one object per photo:
  {"image": "photo.jpg", "notes": [{"serial": "1234567", "letters": "ЧЛ",
   "confidence": 0.97, "quad": [[x, y], [x, y], [x, y], [x, y]],
   "reads": [...]}]}
  serial is null when no 7-digit read is trusted; it is never guessed.

A photographed hand -- `score FOLDER`: one folder per hand with
  board.jpg (or board-1.jpg, board-2.jpg, board-3.jpg)   the board notes
  alice.jpg (or alice-1.jpg and alice-2.jpg)             a player's 2 notes
  hand.json   {"position": 5, "zero_joker": "off", "tie_policy": "split",
               "serials": {"alice-2.jpg": ["1234567"]}}   typed serials
  or a photo of the whole table with a calibration profile:
  `score table.jpg --calibration NAME`, its settings in table.json beside it.
""",
    },
    "ru": {
        "rules": """\
Купюрный Hold'em коротко

Купюры. Картами служат настоящие купюры одного достоинства. Играют только
7 цифр номера купюры; две буквы перед ними не играют.

Раздача. Каждый игрок получает 2 карманные купюры рубашкой вверх. Затем по
одной выкладываются 3 общие купюры (борд): флоп, тёрн и ривер; торговля идёт
перед каждой и после последней. После раздачи кнопка дилера переходит на место
влево.

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
   "zero_joker": "off",               off | per-zero | once (по умолчанию off)
   "tie_policy": "split",             split | rollover (по умолчанию split)
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
   "settlement": {"pots": [{"amount": 120, "eligible": ["P1", "P2"],
                            "winners": ["P1"]}],
                  "payouts": {"P1": 120, "P2": 0}, "carry": 0}}
  class — high, pair, straight, set или null (нет руки); ranks — от самого
  значимого; settlement есть, когда указаны фишки. Строка, которая не раздача,
  даёт {"error": "..."} и ненулевой код выхода.

Номера со снимков — `read --json` печатает объект на снимок:
  {"image": "photo.jpg", "notes": [{"serial": "1234567", "letters": "ЧЛ",
   "confidence": 0.97, "quad": [[x, y], [x, y], [x, y], [x, y]],
   "reads": [...]}]}
  serial равен null, если 7 цифр не прочитаны надёжно; номер не угадывается.

Сфотографированная раздача — `score ПАПКА`: по папке на раздачу:
  board.jpg (или board-1.jpg, board-2.jpg, board-3.jpg)   купюры борда
  alice.jpg (или alice-1.jpg и alice-2.jpg)               2 купюры игрока
  hand.json   {"position": 5, "zero_joker": "off", "tie_policy": "split",
               "serials": {"alice-2.jpg": ["1234567"]}}    введённые номера
  или снимок всего стола с профилем калибровки:
  `score table.jpg --calibration ИМЯ`, настройки — в table.json рядом.
""",
    },
}
