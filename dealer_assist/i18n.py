"""The words the program shows, in English and Russian: one table, one meaning per key.

:data:`TEXT` maps a language to its words; :func:`texts` checks the language
first. Keys name what the words mean, so two screens that need different
words use different keys (``best_hand`` "Best hand" in a showdown,
``hand`` "Hand" as a hand's number). :func:`default_lang` is the one
language default (the locale), :func:`parse_lang` the one parser of a
``--lang`` value (any case). :func:`say` gives the program's English
sentences in a language, from the one table of sentences
(:data:`dealer_assist.i18n_phrases.PHRASES`); the long ``rules`` and
``formats`` texts are :data:`dealer_assist.i18n_guides.GUIDES`.

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

from dealer_assist.i18n_phrases import PHRASES

__all__ = ["Lang", "LANGUAGES", "TEXT", "KEYS_HELP", "KEYS_SHORT", "texts", "say", "say_place", "knows", "after_colon", "plural", "counted",
           "number",
           "default_lang", "parse_lang"]


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
        "game": "game", "holdem": "Banknote Hold'em", "indian": "Indian poker", "not shown": "not shown",
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
        "tie_rolls_over": "ties: the pot rolls over", "to_next_hand": "the next hand", "tied": "Tied (the pot rolls over)",
        "rolled_pot": "tie {winners} → the next hand", "logged_tied": "Logged as tied (the pot rolls over): {winners}",
        "warning": "Warning", "refused": "Refused: {say}",
        # chips and pots (RULES.md §4)
        "chips_label": "Chips", "chips": "chips", "amount": "Chips", "pot": "Pot", "main": "main", "side": "side",
        "side_pot": "side pot",
        "eligible_column": "Eligible", "eligible": "eligible", "carry": "Carried to the next hand",
        "carried_in": "carried", "carried_in_line": "Pot carried in: {n} (joins the main pot)",
        # live mode's dashboard
        "camera": "camera", "fps": "fps", "ocr": "OCR", "street": "street", "preflop": "preflop", "betting": "betting", "flop": "flop",
        "turn": "turn", "river": "river", "showdown": "showdown", "pending": "pending", "reads": "reads",
        "face down": "face down", "unreadable": "cannot be read", "out_of_format": "not 7 digits",
        "manual": "typed", "no notes": "no notes seen", "waiting": "Waiting for", "problem": "Check",
        "outside": "Notes outside every zone", "empty": "—",
        # score's report
        "review_head": "needs review", "review_image": "image", "review_seat": "seat", "review_serial": "serial",
        "review_confidence": "confidence", "summary": "Summary", "summary_hand": "hand", "summary_status": "status",
        "summary_winners": "winners", "scored": "scored", "needs_review": "needs review",
        "hands_scored": "{scored} of {total} {total~hand|hands} scored", "reading_photos": "reading photos",
        # live mode's dashboard: states said plainly (a face-down note is not a failure)
        "profile": "profile", "cam_ok": "ok", "cam_lost": "lost", "cam_ended": "recording ended",
        "cam_starting": "starting", "ocr_idle": "idle", "ocr_reading": "reading", "ocr_queued": "{n} queued",
        "ocr_off": "off (the croupier types the serials)", "ocr_error": "error", "ocr_loading": "loading its models",
        "st_pending": "being read", "st_not_read": "not read", "st_face_down_covered": "face down or covered",
        "pending_why": "the camera is reading it; it plays once read alike {k} times",
        "not_read_why": "the recording ended before it was read; {type_it}",
        "unreadable_why": "type it: e {slot} NNNNNNN", "unreadable_why_line": "type it: {slot} NNNNNNN", "not_read_waiting": "{place}: not read before the recording "
        "ended; type its serial (e {slot} NNNNNNN).",
        "nat": "nat.", "mod": "mod.", "legend": "nat. = natural, mod. = modified; [d] = the digit at P",
        "legend_mark": "[d] = the digit at P", "legend_typed": "* = typed by the croupier",
        "not_in_hand": "Not in this hand", "seat_chips": "chips {n}",
        "won_short": "gets {n}", "pots": "Pots", "put_in_short": "put in {n}",
        "odds": "win {win} · tie {tie}", "odds_short": "{win} win", "tie_short": "{tie} tie", "session": "Session",
        "chips_missing": "No chips entered for {seats}: counted as 0.",
        "winner_no_chips": "{seat} wins but put in no chips: the pot goes to the best hand among those who did.",
        "more_lines": "… {n} more line(s): enlarge the terminal",
        # the croupier's commands, answered on the dashboard
        "showdown_empty": "Nothing to show down: no note has been seen in this hand yet (s calls the showdown "
                          "once the notes are out).",
        "showdown_called_means": "Showdown called: once the board is known and no note is being read, a seat "
                                 "still in without both notes known did not reveal and takes no part in the pot.",
        "showdown_called_means_indian": "Showdown called: once no note is being read, a seat still in whose note is "
                                        "not known did not reveal and takes no part in the pot.",
        "showdown_called_now": "Showdown called: {seats} did not reveal and take no part in the pot.",
        "showdown_called_now_one": "Showdown called: {seats} did not reveal and takes no part in the pot.",
        "confirm_position": "The hand is decided: P={p} would score it anew (now P={old}, winner {winners}). "
                            "Give the same command again to change P; anything else keeps P={old}.",
        "confirm_random": "The hand is decided: a new random P would score it anew (now P={old}, winner {winners}). "
                          "Press r (or give random) again to draw; anything else keeps P={old}.",
        "confirm_fold": "The hand is decided (winner {winners}): folding {seat} would decide it anew. Fold {seat} "
                        "again to fold; anything else keeps the hand as it is.",
        "p_changed": "CHANGED after the deal (announced P={old})",
        "dealer_out": "{button} (sat out; odd chips from {engine})",
        "position_changed": "P changed after the deal: {changes}",
        "confirm_position_dealt": "P={old} is announced for this hand and notes are dealt: P={p} would change "
                                  "every note's rank. Give the same command again to change P; anything else "
                                  "keeps P={old}.",
        "confirm_random_dealt": "P={old} is announced for this hand and notes are dealt: a new random P would "
                                "change every note's rank. Press r (or give random) again to draw; anything else "
                                "keeps P={old}.",
        # the start-up screen
        "startup_title": "dealer-assist live is starting", "step_program": "the program",
        "step_profile": "calibration profile",
        "step_camera": "camera or recording", "step_log": "hand log", "step_ocr": "OCR models (about 15 s)",
        "step_done": "done", "step_busy": "loading…", "step_wait": "next",
        "step_skip": "not used", "startup_hint": "The dashboard follows as soon as the OCR has read the first frame.",
        # history
        "history_title": "{path} · {n} hand(s)", "finished": "finished", "status": "status",
        "incomplete": "incomplete", "not_showdown": "Not a complete showdown ({error}); the notes as logged:",
        "not_decided": "the hand was not decided at the table",
        "logged_winners": "Logged winners: {winners}", "zone": "zone", "source": "source", "none": "none",
        "end_quit": "quit", "end_stopped": "stopped", "end_end of video": "end of the recording",
        "end_table cleared": "table cleared", "end_new hand": "new hand", "end_max frames": "--max-frames reached",
        "trusted": "trusted",
        # read's table
        "letters": "Letters", "confidence": "Confidence", "status_column": "Status",
        "st_trusted": "trusted", "st_unreadable": "unreadable", "st_out_of_format": "out of format",
        "st_stray": "stray read", "no_note": "no note", "no_print": "no serial print found in this photo",
        "stray_why": "one print, at most one 7-digit read: score does not count it as a note when the photo's "
                     "notes are all read",
        # odds
        "odds_header": "P={p} · zero-joker {zj} · board:", "odds_to_come": "+ {n} to come",
        "odds_notes_to_come": "{n} {notes} to come", "odds_complete": "complete", "win": "Win", "tie": "Tie",
        "odds_shared": "pot shared: {p}", "odds_deals": "over {n} equally likely ordered deals",
        "about": "about",
        "indian_header": "Indian poker · P={p}", "own_win": "Own view: win", "spectator_win": "Spectator: win",
        "tie_lower": "tie", "indian_own_legend": "own view: over every serial the player's own note can be, the "
                                                 "notes they see taken out",
        # ledger
        "ledger_since": "since {when}", "ledger_fees": "buy-in {buy_in} per player and hand (ante {ante} + rake {rake})",
        "hands_column": "Hands", "hands_won": "Hands won", "put_in": "Put in", "buy_ins": "Buy-ins",
        "chips_won": "Chips won", "net": "Net", "rake": "rake", "carried pot": "carried pot",
        "organiser": "organiser", "pays": "Pays", "to_whom": "To",
        "ledger_carried_out": "{n} chip(s) are still carried over at the end (rolled-over pots).",
        "ledger_indian_ante": "Indian poker hands pay no --ante: their ante is in their chips (RULES.md §7.1).",
        "ledger_carried_in": "{n} carried chip(s) came from hands before --since.",
        "ledger_not_decided": "{n} hand(s) not decided (no showdown logged) are not counted.",
        "ledger_transfers": "Transfers that settle everyone ({how}):", "ledger_fewest": "the fewest possible",
        "ledger_greedy": "found greedily: more than {n} parties, not always the fewest",
        "ledger_square": "Everyone is square: no transfer is needed.",
        "ledger_empty": "No hand in it yet: nothing to settle.",
        "club_source": "club {where}", "club_source_table": " table {table}", "club_table": "Table",
        "ledger_table_seats": ("A seat named by its number (P1, P2, …) is a place at one table, not a player, so it "
                               "is counted per table (T1/P3); a seat named after its player (calibrate table --seats "
                               "alice,…) is that player at every table."),
        "meeting_head": "Indian poker meeting ({n} hand(s)", "meeting_session": ", session {session}",
        "meeting_and": "and", "meeting_share": "every player has dealt once; {who} share the meeting ({top} each).",
        "meeting_wins": "every player has dealt once; {who} wins the meeting ({top}).",
        "meeting_open": "not over, still to deal: {waiting}; leading so far: {who} ({top}).",
        # calibrate's reports
        "cal_views_used": "views used", "cal_of": "{a} of {b}", "cal_rms": "RMS re-projection error",
        "cal_focal": "focal length fx, fy", "cal_principal": "principal point cx, cy", "cal_distortion": "distortion",
        "cal_image_size": "image size", "cal_coverage": "frame coverage", "cal_views": "views",
        "cal_camera_title": "camera calibration → {path}", "cal_table_title": "table calibration → {path}",
        "cal_kind": "kind", "cal_kind_board": "board", "cal_kind_seat": "seat", "cal_centre_mm": "centre, mm",
        "cal_in_photo": "in the photo", "cal_yes": "yes", "cal_of_corners": "{p} of corners",
        "cal_fit": "{n} points, RMS {rms} px, table {w} x {h} mm", "cal_markers_measure": "(markers measure {w} x {h})",
        "cal_px_mm": "px/mm across × deep", "cal_digits": "digits", "cal_readable": "readable",
        "cal_too_small": "TOO SMALL",
        "cal_sees": "How the camera sees each zone ({w} x {h} px frames; the reader needs {floor} px/mm, digits "
                    "{digits} px):",
        "cal_print": "print", "cal_box": "box x0 y0 x1 y1 (0..1)", "cal_ink": "ink colour",
        "print_top_right": "top_right", "print_left": "left", "ink_dark": "dark", "ink_grey": "grey", "ink_red": "red",
        "ink_orange": "orange", "ink_yellow": "yellow", "ink_green": "green", "ink_blue": "blue", "ink_purple": "purple",
        "cal_aspect": "aspect {a}, {n} photo(s)", "cal_spread": ", largest box spread {s}",
        "cal_no_camera": "camera: none (the photo is taken as free of lens distortion)",
        "cal_no_table": "table: none (run `dealer-assist calibrate table`)",
        "cal_no_notes": "notes: none (run `dealer-assist calibrate notes`)",
        "cal_table_on": "table {w} x {h} mm on {iw} x {ih} px photos", "cal_polygon": "polygon, mm",
        "cal_corners": "corners in the photo:", "cal_source": "; from {method} on {image}, RMS {rms} px",
        "cal_seats": "seats clockwise:", "cal_note_layout": "note layout", "cal_notes_title": "note layout → {path}",
        "cal_serial": "serial", "cal_centre_px": "centre, px", "cal_no_zone": "no zone",
        "cal_check_title": "{image} through '{name}' → {output}",
        "cal_wrote": "wrote {path}", "cal_default": "'{name}' is now the default profile", "cal_note": "note:",
        "live_progress": "live: {frames} frame(s) read, {trusted} note(s) trusted, OCR {ocr}",
        "live_finished": "hand {n} finished: {status}, winners {winners}", "live_no_winner": "none",
        "live_finished_tied": "hand {n} finished: {status}, {tied}",
        "px_per_mm": "px/mm", "cal_check_it": "check it:", "cal_skipped": "skipped {what}",
        # serve's banner
        "serve_title": "Spectator screen ({delay}), following {log}{missing} and {state}.",
        "serve_late": "{s} s late", "serve_no_delay": "with no delay", "serve_missing": " (not there yet: waiting for it)",
        "serve_open": "Open this address (the QR code above is the same address):",
        "serve_open_local": "Open this address on this computer:",
        "serve_also": "Also reachable at:",
        "serve_club_title": "The club's screen ({delay}), following the club database at {url} (LISTEN/NOTIFY).",
        "serve_club_tables": "Each table has its own page, e.g. {url} (T1: the table's name).",
        "serve_token": "Listening on {host}, not loopback: every request needs the token in the address (other "
                       "devices on the network can reach this port). Ctrl-C stops.",
        "serve_loopback": "Only this computer can open it (loopback). Ctrl-C stops.",
        "serve_no_lan": "No LAN address of this machine was found; devices on the network cannot reach it.",
        # live: the prompt, the waiting line, quitting with a hand open
        "waiting_key": "e types a serial", "prompt_keys": "Enter sends, Esc cancels",
        "prompt_word_serial": "serial", "prompt_word_position": "position", "prompt_word_fold": "fold",
        "prompt_word_chips": "chips",
        "prompt_serial": "the note, then its 7 digits: {examples}", "prompt_missing": "no serial yet: {slots}",
        "prompt_position": "the playing position, 1 to 7", "prompt_fold": "the seat that folds: {seats}",
        "prompt_chips": "the seat and its chips in this hand in all, e.g. {seat} 25", "prompt_line": "a command, e.g. fold {seat}",
        "confirm_quit": "Hand {n} is not decided: press q again to quit and log it as abandoned; any other key "
                        "goes on with it.",
        "confirm_quit_unlogged": "Hand {n} is not decided: press q again to quit without it (--no-log: it is not "
                                 "logged); any other key goes on with it.",
        "confirm_new": "Hand {n} is not decided: press n again to log it as abandoned and start hand {m}; any other "
                       "key goes on with it.",
        "confirm_new_unlogged": "Hand {n} is not decided: press n again to start hand {m} without it (--no-log: it is "
                                "not logged); any other key goes on with it.",
    },
    "ru": {
        "playing_position": "Игровое место", "position_letter": "P", "random": "случайно",
        "zero_joker": "ноль-джокер", "tie_policy": "при равенстве", "dealer": "дилер",
        "off": "выкл.", "per-zero": "за каждый ноль", "once": "один раз", "split": "делёж", "rollover": "перенос банка",
        "game": "игра", "holdem": "Купюрный Hold'em", "indian": "Индийский покер", "not shown": "не показана",
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
        "tie_rolls_over": "ничья: банк переходит", "to_next_hand": "следующая раздача", "tied": "Ничья (банк переходит в следующую раздачу)",
        "rolled_pot": "ничья {winners} → следующая раздача", "logged_tied": "В журнале ничья (банк переходит): {winners}",
        "warning": "Внимание",
        "chips_label": "Фишки", "chips": "фишки", "amount": "Фишки", "pot": "Банк", "main": "основной",
        "side": "побочный", "side_pot": "побочный банк", "eligible_column": "Претенденты", "eligible": "претенденты",
        "carry": "Переходит в следующую раздачу",
        "carried_in": "перенос", "carried_in_line": "Перенесённый банк: {n} (входит в основной)",
        "camera": "камера", "fps": "кадр/с", "ocr": "OCR", "street": "улица", "preflop": "префлоп", "betting": "торговля", "flop": "флоп",
        "turn": "тёрн", "river": "ривер", "showdown": "вскрытие", "pending": "читается", "reads": "чтений",
        "face down": "рубашкой вверх", "unreadable": "не читается", "out_of_format": "не 7 цифр",
        "manual": "введено", "no notes": "купюр нет", "waiting": "Ждём", "problem": "Проверьте",
        "outside": "Купюры вне зон", "empty": "—",
        "review_head": "требует проверки", "review_image": "снимок", "review_seat": "место",
        "review_serial": "номер", "review_confidence": "уверенность", "summary": "Итог", "summary_hand": "раздача",
        "summary_status": "статус", "summary_winners": "победители", "scored": "оценена",
        "needs_review": "требует проверки", "hands_scored": "{scored} из {total} {total~раздачи|раздач|раздач} {scored~оценена|оценены|оценено}",
        "reading_photos": "чтение снимков",
        "profile": "профиль", "cam_ok": "работает", "cam_lost": "потеряна", "cam_ended": "запись закончилась",
        "cam_starting": "запускается", "ocr_idle": "ждёт", "ocr_reading": "читает", "ocr_queued": "в очереди {n}",
        "ocr_off": "выкл. (номера вводит крупье)", "ocr_error": "ошибка", "ocr_loading": "загружает модели",
        "st_pending": "читается", "st_not_read": "не прочитана", "st_face_down_covered": "рубашкой вверх или закрыта",
        "pending_why": "камера читает её; купюра играет, когда прочитана одинаково {k} раза",
        "not_read_why": "запись закончилась раньше, чем её прочитали; {type_it}",
        "unreadable_why": "введите: e {slot} NNNNNNN", "unreadable_why_line": "введите: {slot} NNNNNNN", "not_read_waiting": "{place}: не прочитана до конца записи; "
        "введите номер (e {slot} NNNNNNN).",
        "nat": "нат.", "mod": "мод.", "legend": "нат. = натуральная, мод. = модифицированная; [d] = цифра на месте P",
        "legend_mark": "[d] = цифра на месте P", "legend_typed": "* = введено крупье",
        "not_in_hand": "Не в раздаче", "seat_chips": "фишки {n}",
        "won_short": "получает {n}", "pots": "Банки", "put_in_short": "внесено {n}",
        "odds": "выигрыш {win} · ничья {tie}", "odds_short": "{win} выигр.", "tie_short": "{tie} ничья", "session": "Сессия",
        "chips_missing": "Фишки не введены для {seats}: считаются как 0.",
        "winner_no_chips": "{seat} выигрывает, но не вносил фишек: банк получает лучшая рука среди вносивших.",
        "more_lines": "… ещё строк: {n}; увеличьте окно терминала",
        "showdown_empty": "Вскрывать нечего: в этой раздаче ещё не видно ни одной купюры (s объявляет вскрытие, "
                          "когда купюры розданы).",
        "showdown_called_means": "Вскрытие объявлено: когда борд известен и ни одна купюра не читается, место в "
                                 "игре без обеих известных купюр считается не вскрывшимся и в банке не участвует.",
        "showdown_called_means_indian": "Вскрытие объявлено: когда ни одна купюра не читается, место в игре, чья "
                                        "купюра неизвестна, считается не вскрывшимся и в банке не участвует.",
        "showdown_called_now": "Вскрытие объявлено: {seats} не вскрылись и в банке не участвуют.",
        "showdown_called_now_one": "Вскрытие объявлено: {seats} не вскрылся и в банке не участвует.",
        "confirm_position": "Раздача решена: P={p} пересчитает её (сейчас P={old}, победитель {winners}). "
                            "Повторите команду, чтобы сменить P; любая другая оставит P={old}.",
        "confirm_random": "Раздача решена: новое случайное P пересчитает её (сейчас P={old}, победитель {winners}). "
                          "Нажмите r (или дайте random) ещё раз, чтобы вытянуть; любая другая команда оставит P={old}.",
        "confirm_fold": "Раздача решена (победитель {winners}): сброс {seat} решит её заново. Сбросьте {seat} "
                        "ещё раз, чтобы сбросить; любая другая команда оставит раздачу как есть.",
        "p_changed": "ИЗМЕНЕНО после раздачи (объявлено P={old})",
        "dealer_out": "{button} (не играл; неделимые фишки — от {engine})",
        "position_changed": "P изменено после раздачи: {changes}",
        "confirm_position_dealt": "Для этой раздачи объявлено P={old}, и купюры розданы: P={p} изменит ранг "
                                  "каждой купюры. Повторите команду, чтобы сменить P; любая другая оставит "
                                  "P={old}.",
        "confirm_random_dealt": "Для этой раздачи объявлено P={old}, и купюры розданы: новое случайное P изменит "
                                "ранг каждой купюры. Нажмите r (или дайте random) ещё раз, чтобы вытянуть; любая "
                                "другая команда оставит P={old}.",
        "startup_title": "dealer-assist live запускается", "step_program": "программа",
        "step_profile": "профиль калибровки",
        "step_camera": "камера или запись", "step_log": "журнал раздач", "step_ocr": "модели OCR (около 15 с)",
        "step_done": "готово", "step_busy": "загружается…", "step_wait": "далее",
        "step_skip": "не нужен", "startup_hint": "Панель появится, как только OCR прочитает первый кадр.",
        "history_title": "{path} · раздач: {n}", "finished": "закончена", "status": "статус",
        "incomplete": "не решена", "not_showdown": "Вскрытие неполное ({error}); купюры, как записаны:",
        "not_decided": "раздача не решена за столом",
        "logged_winners": "Победители в журнале: {winners}", "zone": "зона", "source": "источник", "none": "нет",
        "end_quit": "выход", "end_stopped": "остановлена", "end_end of video": "конец записи",
        "end_table cleared": "стол убран", "end_new hand": "новая раздача", "end_max frames": "достигнут --max-frames",
        "trusted": "надёжно прочитана",
        "letters": "Буквы", "confidence": "Уверенность", "status_column": "Статус",
        "st_trusted": "надёжно прочитана", "st_unreadable": "не читается", "st_out_of_format": "не 7 цифр",
        "st_stray": "случайное чтение", "no_note": "купюры нет", "no_print": "на снимке не найден ни один номер",
        "stray_why": "один отпечаток и не больше одного чтения из 7 цифр: score не считает это купюрой, когда "
                     "все купюры снимка прочитаны",
        "odds_header": "P={p} · ноль-джокер: {zj} · борд:", "odds_to_come": "+ ещё {n}",
        "odds_notes_to_come": "впереди {n} {notes}", "odds_complete": "полный", "win": "Выигрыш",
        "tie": "Ничья", "odds_shared": "банк делится: {p}",
        "odds_deals": "равновероятных упорядоченных раздач: {n}", "about": "около",
        "indian_header": "Индийский покер · P={p}", "own_win": "Свой взгляд: выигрыш",
        "spectator_win": "Зритель: выигрыш", "tie_lower": "ничья",
        "indian_own_legend": "свой взгляд: по всем номерам, которыми может быть своя купюра игрока, без купюр, "
                             "которые он видит",
        "ledger_since": "с {when}", "ledger_fees": "бай-ин {buy_in} с игрока за раздачу (анте {ante} + рейк {rake})",
        "hands_column": "Раздачи", "hands_won": "Выиграно раздач", "put_in": "Внесено", "buy_ins": "Бай-ины",
        "chips_won": "Выиграно фишек", "net": "Итог", "rake": "рейк", "carried pot": "переходящий банк",
        "organiser": "организатор", "pays": "Платит", "to_whom": "Кому",
        "ledger_carried_out": "Фишек переходит дальше в конце (банки Roll Over): {n}.",
        "ledger_indian_ante": "Раздачи индийского покера не платят --ante: их анте уже в их фишках (RULES.md §7.1).",
        "ledger_carried_in": "Переходящих фишек из раздач до --since: {n}.",
        "ledger_not_decided": "Нерешённые раздачи (вскрытие не записано) не считаются: {n}.",
        "ledger_transfers": "Переводы, которые рассчитывают всех ({how}):", "ledger_fewest": "наименьшее число",
        "ledger_greedy": "найдены жадно: участников больше {n}, не всегда наименьшее число",
        "ledger_square": "Все в расчёте: переводы не нужны.",
        "ledger_empty": "Раздач в нём пока нет: рассчитывать нечего.",
        "club_source": "клуб {where}", "club_source_table": " стол {table}", "club_table": "Стол",
        "ledger_table_seats": ("Место, названное номером (P1, P2, …), — это место за одним столом, а не игрок, поэтому "
                               "оно считается отдельно для каждого стола (T1/P3); место, названное по игроку "
                               "(calibrate table --seats alice,…), — это тот же игрок за любым столом."),
        "meeting_head": "Встреча в индийский покер (раздач: {n}", "meeting_session": ", сессия {session}",
        "meeting_and": "и", "meeting_share": "каждый игрок сдал по разу; {who} делят встречу (по {top}).",
        "meeting_wins": "каждый игрок сдал по разу; встречу выигрывает {who} ({top}).",
        "meeting_open": "не окончена, ещё сдают: {waiting}; пока впереди: {who} ({top}).",
        "serve_title": "Экран для зрителей ({delay}), следит за {log}{missing} и {state}.",
        "cal_views_used": "использовано снимков", "cal_of": "{a} из {b}",
        "cal_rms": "среднеквадратичная ошибка репроекции", "cal_focal": "фокусное расстояние fx, fy",
        "cal_principal": "главная точка cx, cy", "cal_distortion": "дисторсия", "cal_image_size": "размер кадра",
        "cal_coverage": "покрытие кадра", "cal_views": "снимков",
        "cal_camera_title": "калибровка камеры → {path}", "cal_table_title": "калибровка стола → {path}",
        "cal_kind": "тип", "cal_kind_board": "борд", "cal_kind_seat": "место", "cal_centre_mm": "центр, мм",
        "cal_in_photo": "на фото", "cal_yes": "да", "cal_of_corners": "{p} углов",
        "cal_fit": "точек: {n}, RMS {rms} пикс., стол {w} x {h} мм", "cal_markers_measure": "(по маркерам {w} x {h})",
        "cal_px_mm": "пикс./мм поперёк × вглубь", "cal_digits": "цифры", "cal_readable": "читаемы",
        "cal_too_small": "СЛИШКОМ МЕЛКИЕ",
        "cal_sees": "Как камера видит каждую зону (кадры {w} x {h} пикс.; распознаванию нужно {floor} пикс./мм, "
                    "цифрам {digits} пикс.):",
        "cal_print": "надпечатка", "cal_box": "рамка x0 y0 x1 y1 (0..1)", "cal_ink": "цвет краски",
        "print_top_right": "справа вверху", "print_left": "слева", "ink_dark": "тёмная", "ink_grey": "серая",
        "ink_red": "красная", "ink_orange": "оранжевая", "ink_yellow": "жёлтая", "ink_green": "зелёная",
        "ink_blue": "синяя", "ink_purple": "фиолетовая",
        "cal_aspect": "соотношение сторон {a}, фото: {n}", "cal_spread": ", наибольший разброс рамки {s}",
        "cal_no_camera": "камера: нет (фото считается снятым без дисторсии объектива)",
        "cal_no_table": "стол: нет (запустите `dealer-assist calibrate table`)",
        "cal_no_notes": "купюры: нет (запустите `dealer-assist calibrate notes`)",
        "cal_table_on": "стол {w} x {h} мм на фото {iw} x {ih} пикс.", "cal_polygon": "многоугольник, мм",
        "cal_corners": "углы на фото:", "cal_source": "; по {method} на {image}, RMS {rms} пикс.",
        "cal_seats": "места по часовой стрелке:", "cal_note_layout": "раскладка купюры",
        "cal_notes_title": "раскладка купюры → {path}",
        "cal_serial": "номер", "cal_centre_px": "центр, пикс.", "cal_no_zone": "вне зон",
        "cal_check_title": "{image} через «{name}» → {output}",
        "cal_wrote": "записан {path}", "cal_default": "«{name}» теперь профиль по умолчанию", "cal_note": "примечание:",
        "live_progress": "live: кадров: {frames}, надёжно прочитано: {trusted}, OCR: {ocr}",
        "live_finished": "раздача {n} закончена: {status}, победители: {winners}", "live_no_winner": "нет",
        "live_finished_tied": "раздача {n} закончена: {status}, {tied}",
        "px_per_mm": "пикс./мм", "cal_check_it": "проверьте:", "cal_skipped": "пропущено: {what}",
        "serve_late": "с задержкой {s} с", "serve_no_delay": "без задержки", "serve_missing": " (его ещё нет: ждём)",
        "serve_open": "Откройте этот адрес (QR-код выше — тот же адрес):",
        "serve_open_local": "Откройте этот адрес на этом компьютере:",
        "serve_also": "Также доступен по адресам:",
        "serve_club_title": "Экран клуба ({delay}), следит за базой клуба {url} (LISTEN/NOTIFY).",
        "serve_club_tables": "У каждого стола своя страница, например {url} (T1 — имя стола).",
        "serve_token": "Слушает {host}, не только этот компьютер: каждому запросу нужен токен из адреса (другие "
                       "устройства в сети могут подключиться к этому порту). Ctrl-C — остановить.",
        "serve_loopback": "Открыть его может только этот компьютер (loopback). Ctrl-C — остановить.",
        "serve_no_lan": "Адрес этой машины в локальной сети не найден; устройства в сети не смогут подключиться.",
        "waiting_key": "e — ввести номер", "prompt_keys": "Enter — отправить, Esc — отмена",
        "prompt_word_serial": "номер:", "prompt_word_position": "место P:", "prompt_word_fold": "сброс:",
        "prompt_word_chips": "фишки:",
        "prompt_serial": "купюра, затем её 7 цифр: {examples}", "prompt_missing": "ещё без номера: {slots}",
        "prompt_position": "игровое место, от 1 до 7", "prompt_fold": "место, которое сбрасывает: {seats}",
        "prompt_chips": "место и все его фишки в этой раздаче, например {seat} 25", "prompt_line": "команда, например fold {seat}",
        "confirm_quit": "Раздача {n} не решена: нажмите q ещё раз, чтобы выйти и записать её как брошенную; любая "
                        "другая клавиша продолжит её.",
        "confirm_quit_unlogged": "Раздача {n} не решена: нажмите q ещё раз, чтобы выйти без неё (--no-log: в "
                                 "журнал она не записывается); любая другая клавиша продолжит её.",
        "confirm_new": "Раздача {n} не решена: нажмите n ещё раз, чтобы записать её как брошенную и начать раздачу {m}; "
                       "любая другая клавиша продолжит её.",
        "confirm_new_unlogged": "Раздача {n} не решена: нажмите n ещё раз, чтобы начать раздачу {m} без неё (--no-log: "
                                "в журнал она не записывается); любая другая клавиша продолжит её.",
        "refused": "Отклонено: {say}",
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

# --------------------------------------------------------------------------------------------
# Sentences: :func:`say` gives the program's English sentences in the language asked for, from
# :data:`~dealer_assist.i18n_phrases.PHRASES` (see there); ``place*`` groups are said with these words.

_PLACE_RU = {"the board": "борд", "board": "борд", "the note": "купюра", "note": "купюра", "player": "игрок",
             "twice": "дважды", "and": "и"}

#: A wrong JSON value as the rules' errors name it (the others are the value itself: ``'x'``, ``12``).
_KIND_RU = {"an object": "объект", "a list": "список"}

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
            if name.startswith("saybare"):  # said after a colon: without the dash of "— не JSON"
                value = say(value, lang).removeprefix("— ")
            elif name.startswith("say"):
                value = say(value, lang)
            elif name.startswith("place"):
                value = _place(value)
            elif name.startswith("kind"):  # what a wrong JSON value is (rules/formats.py: _kind)
                value = _KIND_RU.get(value, value)
            elif name.startswith("list"):  # "a, b or c", "a and b"
                value = value.replace(" or ", " или ").replace(" and ", " и ")
            elif name.startswith("times"):  # "twice", "3 times"
                count = 2 if value == "twice" else int(value.split()[0])
                value = "дважды" if count == 2 else f"{count} {plural(count, lang, 'раз', 'раза', 'раз')}"
            if "num" in name:  # a decimal number: Russian writes a comma
                value = re.sub(r"(\d)\.(\d)", r"\1,\2", value)
            values[name] = value
        template = _PLURAL_SLOT.sub(lambda p: plural(int(values[p[1]]), lang, *p[2].split("|")), template)
        return template.format(**values)
    return text


_PLURAL_SLOT = re.compile(r"\{(\w+)~([^}]+)\}")  # {n~купюра|купюры|купюр} in a sentence's template

#: Between groups of three digits (ru: a narrow no-break space, as Russian typesetting groups numbers).
GROUP_SEPARATOR = {"en": ",", "ru": "\u202f"}
#: The decimal separator (ru: a comma; a comma between digits never groups them in Russian).
DECIMAL_SEPARATOR = {"en": ".", "ru": ","}


def plural(n: int, lang: str, one: str, few: str, many: str | None = None) -> str:
    """The form of a counted word for ``n``: Russian has three (1 купюра, 2 купюры, 5 купюр; 11–14 take the
    third), English two (``few`` is the plural, ``many`` defaults to it).

    >>> [plural(n, "ru", "раздача", "раздачи", "раздач") for n in (1, 2, 5, 11, 21, 22, 112)]
    ['раздача', 'раздачи', 'раздач', 'раздач', 'раздача', 'раздачи', 'раздач']
    >>> plural(1, "en", "hand", "hands"), plural(3, "en", "hand", "hands")
    ('hand', 'hands')
    """
    many = few if many is None else many
    n = abs(int(n))
    if lang != "ru":
        return one if n == 1 else few
    if n % 10 == 1 and n % 100 != 11:
        return one
    if 2 <= n % 10 <= 4 and not 12 <= n % 100 <= 14:
        return few
    return many


def number(value: float | int, lang: str, decimals: int = 0) -> str:
    """``value`` as the language writes numbers: the one formatting of counts and decimals for every output.

    >>> number(9999995, "en"), number(9999995, "ru"), number(2.4, "ru", 1), number(1234.5, "en", 2)
    ('9,999,995', '9\u202f999\u202f995', '2,4', '1,234.50')
    """
    text = f"{value:,.{decimals}f}"
    if lang == "en":
        return text
    return text.replace(",", "\0").replace(".", DECIMAL_SEPARATOR[lang]).replace("\0", GROUP_SEPARATOR[lang])


def counted(template: str, lang: str, **values: int | str) -> str:
    """``template`` (a :data:`TEXT` entry) filled in, its counted words in the right form:
    ``{n~купюра|купюры|купюр}`` is the form for the value ``n`` (:func:`plural`).

    >>> counted(texts("ru")["hands_scored"], "ru", scored=1, total=1)
    '1 из 1 раздачи оценена'
    >>> counted(texts("ru")["hands_scored"], "ru", scored=5, total=7), counted(texts("en")["hands_scored"], "en", scored=1, total=1)
    ('5 из 7 раздач оценено', '1 of 1 hand scored')
    """
    template = _PLURAL_SLOT.sub(lambda p: plural(int(values[p[1]]), lang, *p[2].split("|")), template)
    return template.format(**values)


def after_colon(sentence: str) -> str:
    """``sentence`` as it reads after a colon: its first letter in lower case when it starts a word
    (``Give the seat`` → ``give the seat``), a name or an abbreviation kept (``P3``, ``OCR``, ``'P9'``).

    >>> after_colon("Укажите место."), after_colon("OCR: idle"), after_colon("P3 folded.")
    ('укажите место.', 'OCR: idle', 'P3 folded.')
    """
    if sentence[:1].isupper() and sentence[1:2].islower():
        return sentence[:1].lower() + sentence[1:]
    return sentence


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
