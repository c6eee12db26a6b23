"""Issue 22 new-user findings F6 (Russian numbers), F10 (plural forms, the progress label) and F20 (the
--no-log quit prompt), asserted on what the commands and the dashboard print."""

from __future__ import annotations

import json
import re

from typer.testing import CliRunner

from dealer_assist.app.terminal import Croupier
from dealer_assist.cli import app
from dealer_assist.i18n import counted, number, plural, texts
from dealer_assist.render import percent

from test_live_night import session_for

ODDS = {"position": 4, "board": ["5550555", "0000123"], "players": [{"name": "alice", "pocket": ["7654321", "0102030"]},
                                              {"name": "boris", "pocket": ["9990999", "1234000"]}]}


def odds_output(lang: str) -> str:
    result = CliRunner().invoke(app, ["odds", "--hands", "-", "--lang", lang], input=json.dumps(ODDS) + "\n",
                                env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    return result.stdout


def test_f6_russian_odds_group_digits_with_narrow_spaces_and_write_a_decimal_comma():
    en, ru = odds_output("en"), odds_output("ru")
    deals = re.search(r"over ([\d,]+) equally likely", en).group(1)
    assert "," in deals  # a count in the millions, grouped in English
    assert number(int(deals.replace(",", "")), "ru") in ru
    assert deals not in ru
    en_pct = re.findall(r"\d+\.\d\d%", en)
    assert en_pct and not re.search(r"\d+\.\d\d%", ru)
    assert re.findall(r"\d+,\d\d\u00a0%", ru) == [p.replace(".", ",").replace("%", "\u00a0%") for p in en_pct]


def test_f6_one_number_format():
    assert number(9_999_995, "ru") == "9\u202f999\u202f995" and number(9_999_995, "en") == "9,999,995"
    assert percent(0.1, lang="ru") == "10,00\u00a0%" and percent(0.1) == "10.00%"
    assert percent(2e-7, lang="ru") == "<0,01\u00a0%"


def test_f10_plural_forms():
    forms = ("раздача", "раздачи", "раздач")
    assert [plural(n, "ru", *forms) for n in (0, 1, 2, 4, 5, 11, 12, 14, 21, 22, 25, 101, 111)] == [
        "раздач", "раздача", "раздачи", "раздачи", "раздач", "раздач", "раздач", "раздач", "раздача", "раздачи",
        "раздач", "раздача", "раздач"]
    ru = texts("ru")["hands_scored"]
    assert counted(ru, "ru", scored=1, total=1) == "1 из 1 раздачи оценена"
    assert counted(ru, "ru", scored=3, total=5) == "3 из 5 раздач оценены"
    assert counted(ru, "ru", scored=7, total=7) == "7 из 7 раздач оценено"
    assert counted(texts("en")["hands_scored"], "en", scored=1, total=1) == "1 of 1 hand scored"
    assert counted(texts("en")["hands_scored"], "en", scored=2, total=3) == "2 of 3 hands scored"


def test_f10_score_says_its_summary_and_progress_in_russian(tmp_path, monkeypatch):
    from dealer_assist.app import score
    from dealer_assist.cli import score_cmd

    labels = []
    real = score_cmd.TextColumn

    def column(text, *a, **k):
        labels.append(text)
        return real(text, *a, **k)

    monkeypatch.setattr(score_cmd, "TextColumn", column)
    real_console = score_cmd.report_console  # the bar is for a terminal (stderr to a file has none): one here
    monkeypatch.setattr(score_cmd, "report_console",
                        lambda stderr=False, **kw: real_console(stderr=stderr, **({"force_terminal": True} if stderr
                                                                                   else {}), **kw))
    folder = tmp_path / "hand_01"
    folder.mkdir()
    for name in ("board.jpg", "alice.jpg", "bob.jpg"):
        (folder / name).write_bytes(b"\xff\xd8\xff")
    (folder / "hand.json").write_text('{"position": 4}', encoding="utf-8")
    monkeypatch.setattr(score, "read_photos", lambda paths, **kw: [])
    result = CliRunner().invoke(app, ["score", str(folder), "--lang", "ru", "-j", "1"], env={"COLUMNS": "80"})
    assert labels == ["чтение снимков"], result.output
    assert "0 из 1 раздачи оценено" in result.stdout, result.output


def test_f20_the_quit_prompt_without_a_log_does_not_promise_to_log():
    for lang, promise, said in (("en", "log it as abandoned", "it is not logged"),
                                ("ru", "записать её как брошенную", "в журнал она не записывается")):
        session = session_for()  # no hand log (--no-log)
        croupier = Croupier(session, lang)
        croupier.line("board 1 1234567")
        croupier.key("q")
        assert not session.quit_requested
        assert promise not in croupier.feedback.text and said in croupier.feedback.text, croupier.feedback.text
        croupier.key("q")
        assert session.quit_requested


def test_f18_russian_readability_sentences_use_one_unit_and_decimal_commas():
    from dealer_assist.i18n import say

    english = ("Serial digits are too small to read in 5 zone(s) (px/mm: board 1.5, P1 1.5); digits ~3 px, the "
               "reader needs 7 px (2.4 px/mm): it needs 1.7x the pixels per mm: use a higher camera resolution, "
               "bring the camera closer or zoom in, or use a smaller mat.")
    ru = say(english, "ru")
    assert "борд 1,5, P1 1,5" in ru and "(2,4 пикс./мм)" in ru and "в 1,7 раза" in ru
    assert "px" not in ru and "board" not in ru and "читающему" not in ru
    shown = CliRunner().invoke(app, ["calibrate", "show", "--calibration", "sample_table_1", "--lang", "ru"],
                               env={"COLUMNS": "80"}).stdout
    assert "px" not in shown and "пикс./мм" in shown and "1,2 × 1,2" in shown, shown


def test_f19_ledger_says_hands_won_apart_from_chips_won(tmp_path):
    from ledger_helpers import BOARD, POCKETS, logged_hand

    log = tmp_path / "hands.jsonl"
    log.write_text(json.dumps(logged_hand(("A", "B", "C"), BOARD, POCKETS, chips={"A": 10, "B": 10, "C": 10},
                                          hand=1)) + "\n", encoding="utf-8")
    out = CliRunner().invoke(app, ["ledger", "--log", str(log), "--lang", "ru"], env={"COLUMNS": "120"}).stdout
    assert "Выиграно раздач" in out and "Выиграно фишек" in out, out
