"""Low findings of the seventh new-user trial (/work/notes/newuser_findings7.md), each as a croupier met it,
in both languages: a second ``out``, a chips figure past the bound, one unrevealed seat's grammar, the odds
board line, an empty ledger and the ledger's title at 80 columns."""

from __future__ import annotations

import json
from pathlib import Path

from test_newuser_trial3 import both, invoke
from test_russian_everywhere import RU_ENV, flat

from dealer_assist.app.terminal import Croupier
from test_live_night import session_for

ROOT = Path(__file__).resolve().parents[1]


def test_a_second_out_is_refused_and_in_takes_it_back():
    c = Croupier(session_for(("P1", "P2", "P3")), "en")
    assert c.line("out P3") == ("P3 sits this hand out.", False)
    assert c.line("out P3") == ("P3 already sits this hand out; 'in P3' puts the seat back in.", True)
    assert c.line("in P3") == ("P3 is in the hand.", False)
    from dealer_assist.i18n import say

    assert say("P3 already sits this hand out; 'in P3' puts the seat back in.", "ru") == (
        "P3 уже пропускает эту раздачу; 'in P3' возвращает место в игру.")


def test_chips_past_the_bound_say_the_bound_not_whole_number():
    c = Croupier(session_for(), "en")
    msg, refused = c.line("chips P1 9999999999999")
    assert refused and msg == "At most 1,000,000,000,000 chips a seat in one hand, not 9999999999999."
    assert c.line("chips P1 1000000000000") == ("P1 put in 1000000000000 chips.", False)  # the bound itself
    msg, refused = c.line("chips P1 " + "9" * 5000)  # no 5,000-digit number is made, nor shown
    assert refused and msg.endswith("not 99999999999999999999….") and len(msg) < 90
    assert c.line("chips P1 x") == ("Give the seat and a whole number of chips, e.g. 'chips P3 25'.", True)
    from dealer_assist.i18n import say

    assert say("At most 1,000,000,000,000 chips a seat in one hand, not 9999999999999.", "ru") == (
        "Не больше 1,000,000,000,000 фишек одного места в раздаче, а не 9999999999999.")


def test_one_seat_that_did_not_reveal_takes_no_part():
    for lang, expect in (("en", "Showdown called: P2 did not reveal and takes no part in the pot."),
                         ("ru", "Вскрытие объявлено: P2 не вскрылся и в банке не участвует.")):
        c = Croupier(session_for(), lang)
        for line in ("board 1 1115111", "board 2 2226222", "board 3 3337333", "P1 1 1117111", "P1 2 2227222",
                     "P2 1 1111112"):
            c.line(line)
        assert c.line("showdown") == (expect, False)


def test_the_odds_board_line_says_board_once_with_the_plural(tmp_path):
    hands = tmp_path / "h.jsonl"
    hands.write_text(json.dumps({"position": 4, "board": ["1115111"], "players": [
        {"name": "P1", "pocket": ["1117111", "2227222"]}, {"name": "P2", "pocket": ["1111112", "2222223"]}]}) + "\n"
        + json.dumps({"position": 4, "board": [], "players": [
            {"name": "P1", "pocket": ["1117111", "2227222"]}, {"name": "P2", "pocket": ["1111112", "2222223"]}]})
        + "\n", encoding="utf-8")
    en, ru, _ = both(["odds", "--hands", hands])
    assert en.exit_code == ru.exit_code == 0, en.output
    assert "board: 3 notes to come" in en.stdout and "+ 2 to come" in en.stdout
    assert "борд: впереди 3 купюры" in ru.stdout and "купюр борда" not in ru.stdout


def test_an_empty_log_s_ledger_is_one_line_and_the_fees_have_a_line_of_their_own(tmp_path):
    empty = tmp_path / "empty.jsonl"
    empty.write_text("", encoding="utf-8")
    en, ru, _ = both(["ledger", "--log", empty])
    assert en.exit_code == ru.exit_code == 0, en.output
    assert en.stdout.splitlines()[-1] == "No hand in it yet: nothing to settle." and "┏" not in en.stdout
    assert ru.stdout.splitlines()[-1] == "Раздач в нём пока нет: рассчитывать нечего." and "┏" not in ru.stdout
    log = tmp_path / ("a-rather-long-folder-name-for-a-night-at-the-club" + "/x" * 6) / "hands.jsonl"
    made = invoke(["live", "--camera", ROOT / "sample_images" / "tables" / "table_1.jpg", "--calibration",
                   "sample_table_1", "--position", "4", "--no-ocr", "--no-window", "--log", log],
                  stdin="board 1 1115111\nboard 2 2226222\nboard 3 3337333\nP1 1 1117111\nP1 2 2227222\n"
                        "P2 1 1111112\nP2 2 2222223\nchips P1 10\nchips P2 10\n")
    assert made.exit_code == 0, made.output
    for result in both(["ledger", "--log", log, "--ante", "1", "--rake", "1"]):
        lines = result.stdout.splitlines()
        fees = next(i for i, line in enumerate(lines) if line.startswith(("Buy-in 2", "Бай-ин 2")))
        assert lines[fees].endswith(("(ante 1 + rake 1)", "(анте 1 + рейк 1)")), lines[:4]
        assert "┏" in lines[fees + 1]


def test_ctrl_c_while_scoring_says_so_and_keeps_the_earlier_files(tmp_path, monkeypatch):
    """Seventh trial (low): Ctrl-C during ``score`` erased the bar and said nothing (exit 130 after a while)."""
    import dealer_assist.cli.score_cmd as score_cmd

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(score_cmd, "run_score", interrupted)
    earlier = tmp_path / "out.json"
    earlier.write_text('{"kept": true}\n', encoding="utf-8")
    en, ru, _ = both(["score", ROOT / "sample_images" / "hand_01", "--json", earlier])
    assert en.exit_code == ru.exit_code == 130
    assert ("Interrupted: no hand was scored and no file was written (files of an earlier run are kept)."
            in flat(en.stderr))
    assert "Прервано: ни одна раздача не оценена" in flat(ru.stderr)
    assert earlier.read_text(encoding="utf-8") == '{"kept": true}\n'


def test_score_s_position_out_of_range_is_said_as_live_says_it():
    """Seventh trial (low): ``score -p 8`` answered "Input should be less than or equal to 7"."""
    en, ru, _ = both(["score", ROOT / "sample_images" / "hand_01", "--position", "8"])
    assert en.exit_code == ru.exit_code == 2
    assert "Invalid value for '--position' / '-p': must be 1-7, not 8." in flat(en.output)
    assert "Неверное значение '--position' / '-p': должно быть 1-7, а не 8." in flat(ru.output)


def test_the_ledger_s_left_out_warnings_are_russian_to_the_end(tmp_path):
    """club7's note: the Russian warning about a record left out ended in English ("; left out.")."""
    log = tmp_path / "hands.jsonl"
    made = invoke(["live", "--camera", ROOT / "sample_images" / "tables" / "table_1.jpg", "--calibration",
                   "sample_table_1", "--position", "4", "--no-ocr", "--no-window", "--log", log],
                  stdin="board 1 1115111\nboard 2 2226222\nboard 3 3337333\nP1 1 1117111\nP1 2 2227222\n"
                        "P2 1 1111112\nP2 2 2222223\nchips P1 10\nchips P2 10\n")
    assert made.exit_code == 0, made.output
    (line,) = log.read_text(encoding="utf-8").splitlines()
    stranger = json.loads(line)
    stranger["hand"], stranger["winners"] = 7, ["ZZ"]
    log.write_text("\n".join([line, line, json.dumps(stranger)]) + "\n", encoding="utf-8")
    ru = invoke(["ledger", "--log", log], env=RU_ENV)
    assert ru.exit_code == 0, ru.output
    said = flat(ru.stderr)
    assert "копия не учтена." in said and "'ZZ' назван победителем, но не играл в этой раздаче; не учтена." in said
    assert "left out" not in said and "logged again" not in said
