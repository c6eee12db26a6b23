"""``dealer-assist rules`` (``--game indian``: ``rules_indian``) and ``dealer-assist formats`` in English and Russian: :data:`GUIDES`, the one
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
        "rules_indian": """\
Banknote Indian poker in short (--game indian)

The quickest game a table plays between Hold'em hands: one note each, held to
the forehead, one betting round. Notes, the playing position P and the zero
rules are Banknote Hold'em's (`dealer-assist rules`).

A hand. 2 to 10 players, the dealer included. Everyone posts an ante of 1
chip and gets one note face down, clockwise from the dealer's left. On a
signal each holds it to the forehead, face out, without looking: everyone sees
every note but their own. There is no board.

Rank. A note's rank is its digit at P; 9 is the highest.
  * A 0 at P: the rank is the first digit that is not 0 to the left or to the
    right (round the ring), whichever is higher, since nobody can choose for a
    note they cannot see. Such a note is "modified", the others "natural".
  * A note of seven zeros is dead: it loses to every note; two dead notes tie.
  * No zero-joker in this game.

Betting. One round, clockwise from the dealer's left. Before any bet: check,
fold or bet 1 chip. After it: fold, call, or raise by 1 if nobody has raised
yet. One raise for the whole table, so nobody puts in more than 2 chips beyond
the ante. After a bet or the raise every other player still in answers again,
earlier checks and calls included. If everyone checks, the notes are shown.

Showdown. A fold loses what the player put in. If one player is left, they
take the pot without showing. Otherwise the highest rank takes the pot; at
equal rank a natural note beats a modified one; still equal, the pot is split,
odd chips one at a time from the dealer's left (or in exact fractions,
--exact). A folded note never wins. No rollover, no side pots.

A meeting. The deal moves one seat to the left each hand. Once every player
has dealt, the largest balance wins the meeting; equal leaders share it. The
pot is only ever shared out: no chip is made or lost.

Example (the seed's): four ante 1 (pot 4); A checks, B bets 1, C and D fold,
A folds: B takes 5 (3 up), every other player is 1 down, and B shows nothing.
""",
        "formats": """\
The files dealer-assist reads and writes (JSON; extra fields are ignored)

A hand -- input of `eval --hands FILE` and `odds --hands FILE`, one per line:
  {"game": "holdem",                  holdem | indian (default: holdem)
   "position": 4,                     P, 1 to 7
   "zero_joker": "off",               off | per-zero | once (default: off)
   "tie_policy": "split",             split | rollover (default: split)
   "dealer": "P3",                    may be left out
   "board": ["1234567", "0000123"],   0 to 3 serials, 7 digits each
   "players": [{"name": "P1", "pocket": ["7654321", "0102030"],
                "contributed": 25, "folded": false, "revealed": true}]}
  Players are listed clockwise; contributed (chips put in), folded and revealed
  may be left out. An Indian poker hand ("game": "indian") has one pocket note
  per player and no board (it may be left out).

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
        "rules_indian": """\
Купюрный индийский покер коротко (--game indian)

Самая быстрая игра между раздачами Hold'em: по одной купюре у лба, один круг
ставок. Купюры, игровое место P и правила нуля — как в Купюрном Hold'em
(`dealer-assist rules`).

Раздача. От 2 до 10 игроков, включая дилера. Каждый вносит анте 1 фишку и
получает одну купюру рубашкой вверх, по часовой стрелке слева от дилера. По
сигналу каждый подносит её ко лбу номером наружу, не глядя: все видят все
купюры, кроме своей. Борда нет.

Ранг. Ранг купюры — её цифра на месте P; старший ранг 9.
  * 0 на месте P: ранг — первая цифра не 0 слева или справа (по кольцу),
    какая больше: за купюру, которую не видишь, выбирать нельзя. Такая купюра
    «модифицированная», остальные «натуральные».
  * Купюра из семи нулей не играет: она проигрывает любой купюре; две такие
    купюры равны.
  * Ноль-джокера в этой игре нет.

Ставки. Один круг по часовой стрелке слева от дилера. До ставки: чек, пас или
ставка 1 фишка. После ставки: пас, уравнять или повысить на 1, если повышения
ещё не было. Одно повышение на весь стол: никто не вносит больше 2 фишек сверх
анте. После ставки или повышения все остальные оставшиеся отвечают снова,
включая прежние чеки и уравнивания. Если все чекнули, купюры вскрываются.

Вскрытие. Пас теряет внесённое. Если остался один, он забирает банк, не
показывая купюру. Иначе банк берёт старший ранг; при равном ранге натуральная
бьёт модифицированную; если и так поровну, банк делится, неделимые фишки — по
одной слева от дилера (или точными дробями, --exact). Сброшенная купюра не
выигрывает. Переноса банка и побочных банков нет.

Встреча. Каждую раздачу сдающий сдвигается на место влево. Когда каждый сдал
по разу, больший баланс выигрывает встречу; равные лидеры делят победу. Банк
только перераспределяется: фишки не появляются и не пропадают.

Пример (из источника): четверо вносят по 1 (банк 4); A чекует, B ставит 1, C и
D пасуют, A пасует: B получает 5 (плюс 3), остальные теряют по 1, а B ничего
не показывает.
""",
        "formats": """\
Файлы, которые dealer-assist читает и пишет (JSON; лишние поля не мешают)

Раздача — вход `eval --hands ФАЙЛ` и `odds --hands ФАЙЛ`, по одной на строку:
  {"game": "holdem",                  holdem | indian (по умолчанию holdem)
   "position": 4,                     P, от 1 до 7
   "zero_joker": "off",               off | per-zero | once (по умолчанию off)
   "tie_policy": "split",             split | rollover (по умолчанию split)
   "dealer": "P3",                    можно опустить
   "board": ["1234567", "0000123"],   от 0 до 3 номеров по 7 цифр
   "players": [{"name": "P1", "pocket": ["7654321", "0102030"],
                "contributed": 25, "folded": false, "revealed": true}]}
  Игроки перечислены по часовой стрелке; contributed (внесённые фишки), folded
  (сбросил) и revealed (вскрылся) можно опустить. В индийском покере ("game":
  "indian") у игрока одна купюра, борда нет (поле можно опустить).

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
