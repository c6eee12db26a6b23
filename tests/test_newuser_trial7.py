"""The seventh new-user trial (/work/notes/newuser_findings7.md): each finding through the CLI (or the
live mode's own objects) as a croupier met it, at 80 columns, in English and Russian."""

from __future__ import annotations

import json
from pathlib import Path

from dealer_assist.app.terminal import Croupier
from dealer_assist.live.session import LiveOptions, LiveSession
from dealer_assist.live.table_state import NoteInfo, TableState
from dealer_assist.live.table_view import table_view
from dealer_assist.rules.notes import position_announced
from dealer_assist.spectator.public import public_from_state
from dealer_assist.spectator.state import shown_seats, state_from_view
from dealer_assist.live.worker import InlineWorker

from live_helpers import plain_profile
from test_newuser_trial3 import both, invoke
from test_russian_everywhere import RU_ENV, english_runs, flat

ROOT = Path(__file__).resolve().parents[1]
LIVE = ["live", "--camera", ROOT / "sample_images" / "tables" / "table_1.jpg", "--calibration", "sample_table_1",
        "--position", "4", "--no-ocr", "--no-window"]
#: The trial's hand: board 1 and both pockets of P1 and P2 typed; at P=4 P2 holds 5-4-3, a straight.
DEALT = "board 1 1115111\nP1 1 1111111\nP1 2 2222222\nP2 1 3333333\nP2 2 4444444\n"


def _lines(text: str, start: str) -> list[str]:
    return [line for line in text.splitlines() if line.startswith(start)]


# ----------------------------------------------------------------------------- H: a stray r after the deal
def test_h_position_is_announced_once_a_note_of_the_hand_is_dealt():
    """The rules' decision (RULES.md §2): P is announced before the hand; any note dealt fixes it."""
    assert (position_announced(0), position_announced(1), position_announced(5)) == (False, True, True)


def test_h_random_and_position_after_the_deal_ask_first_then_say_the_change_and_log_it(tmp_path):
    """``random`` once notes are dealt is refused with a sentence and P stays 4 (P2 keeps its straight);
    ``position 2`` given twice changes P, says so in capitals, shows it in the header and logs it."""
    logs = {lang: tmp_path / f"{lang}.jsonl" for lang in ("en", "ru", "ru_locale")}
    typed = DEALT + "random\nposition 2\nposition 2\n"
    en = invoke([*LIVE, "--log", logs["en"], "--lang", "en"], stdin=typed)
    ru = invoke([*LIVE, "--log", logs["ru"], "--lang", "ru"], stdin=typed)
    ru_locale = invoke([*LIVE, "--log", logs["ru_locale"]], env=RU_ENV, stdin=typed)
    assert en.exit_code == ru.exit_code == ru_locale.exit_code == 0, en.output
    assert _lines(en.stderr, "Refused") == [
        "Refused: P=4 is announced for this hand and notes are dealt: a new random P would change every note's "
        "rank. Press r (or give random) again to draw; anything else keeps P=4.",
        "Refused: P=4 is announced for this hand and notes are dealt: P=2 would change every note's rank. Give the "
        "same command again to change P; anything else keeps P=4."]
    assert _lines(en.stdout, "P CHANGED") == [
        "P CHANGED AFTER THE DEAL: P=2, was P=4; every note's rank is read at P=2 now."]
    assert "Hand 1 · dealer: P1 · P=2 CHANGED after the deal (announced P=4) · zero-joker:" in flat(en.stdout)
    assert "Random playing position" not in en.output
    for result in (ru, ru_locale):
        assert _lines(result.stderr, "Отклонено") == [
            "Отклонено: для этой раздачи объявлено P=4, и купюры розданы: новое случайное P изменит ранг каждой "
            "купюры. Нажмите r (или дайте random) ещё раз, чтобы вытянуть; любая другая команда оставит P=4.",
            "Отклонено: для этой раздачи объявлено P=4, и купюры розданы: P=2 изменит ранг каждой купюры. "
            "Повторите команду, чтобы сменить P; любая другая оставит P=4."]
        assert _lines(result.stdout, "P ИЗМЕНЕНО") == [
            "P ИЗМЕНЕНО ПОСЛЕ РАЗДАЧИ: P=2, было P=4; ранг каждой купюры теперь по P=2."]
        assert "Раздача 1 · дилер: P1 · P=2 ИЗМЕНЕНО после раздачи (объявлено P=4) ·" in flat(result.stdout)
        assert english_runs(result.stderr) == []
    for log in logs.values():
        (record,) = [json.loads(line) for line in log.read_text().splitlines()]
        assert record["position"] == 2 and record["position_changes"] == [{"from": 4, "to": 2}]
        assert record["input"]["position"] == 2
    en_show, ru_show, _ = both(["history", "--log", logs["en"], "--show", "1"])
    assert "P changed after the deal: P=4 → P=2" in en_show.stdout
    assert "P изменено после раздачи: P=4 → P=2" in ru_show.stdout


def test_h_a_stdin_position_before_the_deal_is_no_question(tmp_path):
    """Before any note, ``position`` / ``random`` are the croupier's announcement: applied at once, not logged
    as a change."""
    log = tmp_path / "h.jsonl"
    result = invoke([*LIVE, "--log", log, "--lang", "en"], stdin="position 2\n" + DEALT)
    assert result.exit_code == 0 and "Refused" not in result.stderr, result.output
    assert "Playing position P=2." in result.stdout and "CHANGED" not in result.stdout
    (record,) = [json.loads(line) for line in log.read_text().splitlines()]
    assert record["position"] == 2 and "position_changes" not in record


def _session() -> LiveSession:
    seats = ("P1", "P2")
    return LiveSession(plain_profile((320, 180), list(seats)), TableState(seats, 4), InlineWorker(read=lambda job: ()),
                       LiveOptions(ocr=False))


def test_h_the_r_key_after_the_deal_asks_and_a_second_r_draws(monkeypatch):
    """The trial's keys: notes typed, then one stray ``r``: P stays 4 with the question on the dashboard; any
    other key drops the question; ``r`` ``r`` draws (the draw is made 2 here) and says it loudly."""
    monkeypatch.setattr("dealer_assist.live.croupier.secrets.randbelow", lambda n: 1)
    session = _session()
    croupier = Croupier(session)
    croupier.key("r")  # before the deal: at once
    assert session.state.position == 2 and croupier.feedback.text == "Random playing position: P=2."
    croupier.line("position 4")
    for line in DEALT.splitlines():
        croupier.line(line)
    before = session.view().seat("P2").best
    assert (before.hand_class.value, before.ranks) == ("straight", (5, 4, 3))
    croupier.key("r")
    assert session.state.position == 4 and croupier.feedback.text.startswith("P=4 is announced for this hand")
    croupier.key("x")  # any other key: the question is dropped
    croupier.key("r")
    assert session.state.position == 4
    croupier.key("r")
    assert session.state.position == 2 and session.state.position_changes == ((4, 2),)
    assert croupier.feedback.text == "P CHANGED AFTER THE DEAL: random P=2, was P=4; every note's rank is read at P=2 now."
    croupier.key("u")  # undo takes the change back, and its record
    assert session.state.position == 4 and session.state.position_changes == ()


# ----------------------------------------------------------------------------- M: a typed pocket is no reveal
def _note(i: int, zone: str, serial: str) -> NoteInfo:
    return NoteInfo(f"t{i}", i, zone, serial, "trusted", 0.9, float(i))


def test_m_a_pocket_typed_with_e_is_not_shown_on_the_spectator_screen_until_the_showdown():
    """The trial's hand: board 1 and P1's two notes typed, one of P2's: the state file serve reads has no
    pocket serial at all; the camera reading both of P1's notes face up, or ``s``, shows them."""
    state = TableState(("P1", "P2", "P3"), 4)
    typed = state
    for key, serial in (("board#1", "1115111"), ("P1#1", "1117111"), ("P1#2", "2227222"), ("P2#1", "3333333")):
        typed = typed.with_serial(key, serial)
    view = table_view(typed, [])
    assert view.seat("P1").revealed  # live knows the pocket: the dashboard ranks it
    out = state_from_view(view)
    text = json.dumps(out)
    assert "1117111" not in text and "2227222" not in text and "3333333" not in text
    assert {s["name"]: s["revealed"] for s in out["seats"]} == {"P1": False, "P2": False, "P3": False}
    assert out["board"][0]["serial"] == "1115111"  # the board is public
    public = public_from_state({**out, "written": "2026-12-06T21:30:00+00:00"})
    assert {s["name"]: s["pocket"] for s in public["seats"]} == {"P1": None, "P2": None}  # P3 is not dealt
    # the camera read both notes face up: shown
    seen = table_view(state.with_serial("board#1", "1115111"), [_note(1, "P1", "1117111"), _note(2, "P1", "2227222")])
    assert shown_seats(seen) == {"P1"}
    assert {s["name"]: s.get("pocket") for s in state_from_view(seen)["seats"]}["P1"] == ["1117111", "2227222"]
    # the showdown called: every seat still in turns its notes up
    called = table_view(typed.with_showdown(True), [])
    assert shown_seats(called) == {"P1"}
    assert {s["name"]: s.get("pocket") for s in state_from_view(called)["seats"]}["P1"] == ["1117111", "2227222"]


def test_m_a_decided_hand_on_typed_pockets_keeps_its_winner_off_the_screen_until_the_showdown():
    """Every note typed, the board complete: live decides the hand (P2 wins), but the winner, the results and
    the payouts would say what the hidden pockets hold: the screen shows the river until ``s`` or the log."""
    state = TableState(("P1", "P2"), 4).with_chips("P1", 10).with_chips("P2", 10)
    for key, serial in (("board#1", "1115111"), ("board#2", "1116111"), ("board#3", "1119111"),
                        ("P1#1", "1112111"), ("P1#2", "2223222"), ("P2#1", "3338333"), ("P2#2", "4447444")):
        state = state.with_serial(key, serial)
    view = table_view(state, [])
    assert view.complete and view.winners == ("P2",)
    out = state_from_view(view)
    assert (out["status"], out["street"]) == ("incomplete", "river")
    assert "winners" not in out and "payouts" not in out and all("result" not in s for s in out["seats"])
    called = state_from_view(table_view(state.with_showdown(True), []))
    assert (called["status"], called["winners"], called["payouts"]) == ("showdown", ["P2"], {"P1": 0, "P2": 20})


def test_m_a_hand_won_by_folds_shows_its_winner_though_the_pocket_was_typed():
    """All but one folded: the last player wins without showing (RULES.md §4), so the winner is public and
    the typed pocket stays hidden."""
    state = TableState(("P1", "P2"), 4).with_serial("P1#1", "1112111").with_serial("P1#2", "2223222")
    out = state_from_view(table_view(state.with_serial("P2#1", "5555555").with_fold("P2"), []))
    assert out["winners"] == ["P1"] and out["status"] == "showdown"
    assert "1112111" not in json.dumps(out) and "5555555" not in json.dumps(out)


# ----------------------------------------------------------------------------- M: history --show's reason
def test_m_history_show_of_an_abandoned_hand_gives_the_logged_reason_in_russian(tmp_path):
    """Quit with ``q`` ``q`` at the flop: ``history --show 1`` in Russian said the logged reason in English."""
    log = tmp_path / "q.jsonl"
    result = invoke([*LIVE, "--log", log, "--lang", "en"],
                    stdin="board 1 1115111\nP1 1 1117111\nP1 2 2227222\nP2 1 3333333\nq\n")
    assert result.exit_code == 0, result.output
    (record,) = [json.loads(line) for line in log.read_text().splitlines()]
    assert record["waiting"][0] == "The board has 1 of 3 notes known."
    en, ru, ru_locale = both(["history", "--log", log, "--show", "1"])
    assert ("Not a complete showdown (the hand was not decided at the table: the board has 1 of 3 notes known); "
            "the notes as logged:") in flat(en.stdout)
    for shown in (ru, ru_locale):
        assert ("Вскрытие неполное (раздача не решена за столом: борд: известно купюр 1 из 3); купюры, как "
                "записаны:") in flat(shown.stdout), shown.stdout


# ----------------------------------------------------------------------------- M: the Pots line
def test_m_the_pots_line_keeps_a_side_pots_number_off_its_chips():
    """``side 1 30`` read as "side 130", ``побочный 1 5`` as "15": the number of the side pot now ends with a
    colon (main 30 to P6, side pot 1 of 30 and side pot 2 of 5 to P4: 65 chips, as put in)."""
    typed = ("board 1 1115111\nboard 2 1116111\nboard 3 1119111\nP4 1 9999999\nP4 2 8888888\nP5 1 1111111\n"
             "P5 2 2222222\nP6 1 3333333\nP6 2 4444444\nchips P4 30\nchips P5 25\nchips P6 10\n")
    args = ["live", "--camera", ROOT / "sample_images" / "tables" / "table_2.jpg", "--calibration", "sample_table_2",
            "--position", "4", "--no-ocr", "--no-window", "--no-log"]
    en, ru, ru_locale = both(args, stdin=typed)
    assert en.exit_code == ru.exit_code == ru_locale.exit_code == 0, en.output
    assert _lines(en.stdout, "Pots") == ["Pots: main 30 → P6 · side pot 1: 30 → P4 · side pot 2: 5 → P4"]
    for result in (ru, ru_locale):
        assert _lines(result.stdout, "Банки") == [
            "Банки: основной 30 → P6 · побочный банк 1: 30 → P4 · побочный банк 2: 5 → P4"]


# ----------------------------------------------------------------------------- M: a damaged default.json
def test_m_a_damaged_default_json_is_said_to_be_damaged_not_shown_as_a_profile(tmp_path, monkeypatch):
    """default.json cut by an editor was listed as ``* default (unusable: …)`` and refused as "no calibration
    profile": it is the default's pointer, damaged, and ``calibrate use NAME`` writes it again."""
    cal = tmp_path / "cal"
    cal.mkdir()
    monkeypatch.setenv("DEALER_ASSIST_CALIBRATION_DIR", str(cal))
    (cal / "mytable.json").write_text((ROOT / "calibration" / "sample_table_1.json").read_text())
    (cal / "broken.json").write_text('{"a": ')
    (cal / "default.json").write_text('{"schema": "dealer-assist/calibration-pointer", "version": 1, "profile": "mytable\n')
    default = cal / "default.json"
    en, ru, ru_locale = both(["calibrate", "list"])
    assert en.exit_code == ru.exit_code == ru_locale.exit_code == 0, en.output
    assert en.stdout.splitlines()[:3] == [
        f"The file that sets the default profile, {default}, is damaged: it is not valid JSON (Invalid control "
        f"character at: column 82); `dealer-assist calibrate use NAME` sets the default again.",
        "  broken  (unusable: it is not valid JSON (Expecting value: column 7), so it is no calibration profile)",
        "  mytable"]
    for result in (ru, ru_locale):
        assert result.stdout.splitlines()[:3] == [
            f"Файл, задающий профиль по умолчанию, {default}, повреждён: не JSON (недопустимый управляющий символ: "
            f"столбец 82); `dealer-assist calibrate use NAME` задаёт профиль по умолчанию заново.",
            "  broken  (непригоден: не JSON (ожидалось значение: столбец 7), так что это не профиль калибровки)",
            "  mytable"]
        assert english_runs(result.stdout) == []
    en, ru, ru_locale = both(["calibrate", "show"])
    assert en.exit_code == ru.exit_code == ru_locale.exit_code == 2
    assert flat(en.stderr) == (f"Error: The file that sets the default profile, {default}, is damaged: it is not "
                               f"valid JSON (Invalid control character at: column 82); `dealer-assist calibrate use "
                               f"NAME` sets the default again.")
    for result in (ru, ru_locale):
        assert flat(result.stderr) == (f"Ошибка: Файл, задающий профиль по умолчанию, {default}, повреждён: не JSON "
                                       f"(недопустимый управляющий символ: столбец 82); `dealer-assist calibrate use "
                                       f"NAME` задаёт профиль по умолчанию заново.")
    # a broken profile by name: no stray ": —" in Russian
    ru = invoke(["calibrate", "show", "--calibration", "broken", "--lang", "ru"])
    assert flat(ru.stderr) == (f"Ошибка: {cal / 'broken.json'}: не JSON (ожидалось значение: столбец 7), так что "
                               f"это не профиль калибровки.")
    # the sentence's command repairs it
    assert invoke(["calibrate", "use", "mytable"]).exit_code == 0
    assert invoke(["calibrate", "list"]).stdout.splitlines()[:2] == ["  broken  (unusable: it is not valid JSON "
                                                                     "(Expecting value: column 7), so it is no "
                                                                     "calibration profile)", "* mytable"]


# ----------------------------------------------------------------------------- M: calibrate camera's reasons
def test_m_calibrate_camera_gives_each_unusable_photos_reason_in_russian(tmp_path, monkeypatch):
    """``calibrate camera --images … --lang ru`` named each unusable photo with an English reason."""
    monkeypatch.setenv("DEALER_ASSIST_CALIBRATION_DIR", str(tmp_path / "cal"))
    photos = tmp_path / "photos"
    photos.mkdir()
    for name in ("alice-1.jpg", "alice-2.jpg"):
        (photos / name).write_bytes((ROOT / "sample_images" / "hand_01" / name).read_bytes())
    (photos / "zz.jpg").write_text("not an image")
    en, ru, ru_locale = both(["calibrate", "camera", "--images", str(photos / "*.jpg"), "--pattern", "9x6",
                              "--square-mm", "25", "--output", "mytable"])
    assert en.exit_code == ru.exit_code == ru_locale.exit_code == 2, en.output
    assert flat(en.stderr) == ("Error: Only 0 of 3 photo(s) can be used (at least 3 are needed); unusable: alice-1.jpg "
                               "(no whole 9x6 chessboard found); alice-2.jpg (no whole 9x6 chessboard found); zz.jpg "
                               "(not an image that can be decoded (corrupt or unsupported format)).")
    for result in (ru, ru_locale):
        assert flat(result.stderr) == (
            "Ошибка: Пригодны только 0 из 3 снимков (нужно не меньше 3); непригодны: alice-1.jpg (не найдена целая "
            "доска 9x6); alice-2.jpg (не найдена целая доска 9x6); zz.jpg (это не изображение, которое можно "
            "прочитать (файл повреждён или формат не поддерживается)).")
        assert english_runs(result.stderr) == []
    assert not (tmp_path / "cal").exists() or list((tmp_path / "cal").iterdir()) == []  # nothing written


# ----------------------------------------------------------------------------- M: one name for the board zone
def test_m_calibrate_check_and_show_name_the_board_zone_one_way_in_russian(tmp_path):
    """The tables said ``board``, the sentences under them ``борд``: Russian says ``борд`` in both."""
    check = ["calibrate", "check", ROOT / "sample_images" / "tables" / "table_1.jpg", "--calibration", "sample_table_1",
             "--output", tmp_path / "check.jpg"]
    show = ["calibrate", "show", "--calibration", "sample_table_1"]
    for args in (check, show):
        en, ru, ru_locale = both(args)
        assert en.exit_code == ru.exit_code == ru_locale.exit_code == 0, en.output
        en_zone = [line.split("│")[1].strip() for line in en.stdout.splitlines() if line.startswith("│ board")]
        assert en_zone and set(en_zone) == {"board"}
        for result in (ru, ru_locale):
            cells = {cell.strip() for line in result.stdout.splitlines() for cell in line.split("│")}
            assert "board" not in cells and "борд" in cells, result.stdout
            assert [line.split("│")[1].strip() for line in result.stdout.splitlines()
                    if line.startswith("│ борд")] == ["борд"] * len(en_zone)
    en, ru, _ = both(check)
    assert "board: 3, P1: 2, P2: 2, P3: 2, P4: 1" in en.stdout and "борд: 3, P1: 2, P2: 2, P3: 2, P4: 1" in ru.stdout
    rows = [line for line in ru.stdout.splitlines() if "не читается" in line and "борд" in line]
    assert [row.split("│")[4].strip() for row in rows] == ["борд", "борд", "борд"]


# ----------------------------------------------------------------------------- M: the serve page's last English
def test_m_the_spectator_pages_balances_footer_and_badges_are_in_both_languages(tmp_path):
    """The balances block (column heads, "To settle:") and the footer were English only on a page that pairs
    every other label with Russian; so were "not dealt yet" and the ``dealer`` badge. Shown in chromium, at a
    desktop's and a phone's width (nothing runs off the side)."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    from dealer_assist.live.history import HandLog
    from ledger_helpers import BOARD, POCKETS, logged_hand
    from test_spectator_browser import Server, browser

    log = tmp_path / "hands.jsonl"
    # P=1: B's set of 9s beats A; 10 chips each, so A pays B 10
    HandLog(log).append(logged_hand(["A", "B"], BOARD, {"A": POCKETS["A"], "B": POCKETS["B"]},
                                    chips={"A": 10, "B": 10}, hand=1))
    server = Server(["--log", str(log), "--delay", "0", "--port", "0"], tmp_path / "serve.err")
    driver = None
    try:
        url = server.url()
        driver = browser(str(tmp_path / "chromium-profile"))
        driver.set_window_size(1280, 1000)
        driver.get(url)
        WebDriverWait(driver, 60, poll_frequency=0.1).until(
            lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-hand") == "1")
        heads = [th.text for th in driver.find_elements(By.CSS_SELECTOR, "#balances th")]
        assert heads == ["Player · Игрок", "Hands · Раздачи", "Won · Выиграно", "Net · Итог"]
        rows = [[td.text for td in tr.find_elements(By.TAG_NAME, "td")]
                for tr in driver.find_elements(By.CSS_SELECTOR, "#balances tr")[1:]]
        assert sorted(rows) == [["A", "1", "0", "-10"], ["B", "1", "1", "+10"]]
        assert driver.find_element(By.CSS_SELECTOR, ".transfers").text == "To settle · Расчёт: A → B 10"
        footer = driver.find_element(By.TAG_NAME, "footer").text
        assert footer.startswith("Read-only spectator screen of dealer-assist: pocket notes appear only once revealed")
        assert "Экран зрителя dealer-assist, только для просмотра: карманные купюры видны, только когда вскрыты" in footer
        tags = [t.text for t in driver.find_elements(By.CSS_SELECTOR, ".seat .tag")]
        assert tags == ["dealer · дилер"]
        assert driver.find_element(By.ID, "delay").text == "Delayed by 0 s · задержка 0 с"
        assert driver.find_element(By.CSS_SELECTOR, ".info .hand").text == "Hand 1 · Раздача 1"
        for width, height in ((1280, 1000), (390, 844)):
            driver.set_window_size(width, height)
            assert driver.execute_script("return document.documentElement.scrollWidth <= window.innerWidth;"), width
    finally:
        if driver is not None:
            driver.quit()
        assert server.stop() == 0


# ----------------------------------------------------------------------------- L: one dealer for one hand
def test_l_history_list_and_show_name_one_dealer_for_a_hand_whose_dealer_sat_out(tmp_path):
    """Three hands of P1 and P2 at a four-seat table: the button reaches P3, who sits out; the list said P3,
    ``--show 3`` said P2 (the rules' dealer among the players). --show now names P3 and says why P2."""
    log = tmp_path / "d.jsonl"
    hand = ("board 1 1115111\nboard 2 1116111\nboard 3 1119111\nP1 1 1111111\nP1 2 2222222\nP2 1 3333333\n"
            "P2 2 4444444\nchips P1 5\nchips P2 5\n")
    result = invoke([*LIVE, "--log", log, "--lang", "en"], stdin=hand + "n\n" + hand + "n\n" + hand + "q\n")
    assert result.exit_code == 0, result.output
    records = [json.loads(line) for line in log.read_text().splitlines()]
    assert [(r["dealer"], r["input"]["dealer"]) for r in records] == [("P1", "P1"), ("P2", "P2"), ("P3", "P2")]
    listed = invoke(["history", "--log", log, "--lang", "en"]).stdout
    assert [line.split("│")[5].strip() for line in listed.splitlines() if line.startswith("│ 3 ")] == ["P3"]
    en, ru, ru_locale = both(["history", "--log", log, "--show", "3"])
    assert "Playing position P=4 · zero-joker: off · ties: split · dealer: P3 (sat out; odd chips from P2)" \
        in flat(en.stdout)
    for shown in (ru, ru_locale):
        assert ("Игровое место P=4 · ноль-джокер: выкл. · при равенстве: делёж · дилер: P3 (не играл; неделимые "
                "фишки — от P2)") in flat(shown.stdout)
    # a hand the dealer played: the one name, as before
    assert "ties: split · dealer: P2 Board" in flat(both(["history", "--log", log, "--show", "2"])[0].stdout)



# ----------------------------------------------------------------------------- L: the Waiting line's typing hint
def test_l_the_waiting_line_says_how_to_type_a_note_the_camera_cannot_read():
    """At 80x24 the Waiting line gave "P3 2 not read (type it: e P3 2 NNNNNNN)" for a note not read, nothing for one
    that cannot be read; and without a terminal (the last dashboard of a piped run) ``e`` is a key nobody has:
    standard input takes ``P3 2 NNNNNNN``."""
    import dataclasses

    from dealer_assist.live.dashboard import LiveStatus
    from test_live_dashboard_terminal import BOARD as BOARD_2, POCKETS as POCKETS_2, SEATS, deal, screen

    statuses = {("P2", 2): ("unreadable", (), "the reads disagree (2226222, 2226228)")}
    view = table_view(TableState(SEATS[:2], 4), deal(board=BOARD_2[:2], pockets={s: POCKETS_2[s] for s in SEATS[:2]},
                                                     statuses=statuses))
    watched = LiveStatus("ok", 25.0, "idle")
    piped = dataclasses.replace(watched, watched=False)
    en = " ".join(screen(view, watched, "en").split())
    assert "P2 2 cannot be read (type it: e P2 2 NNNNNNN)" in en
    assert "P2 2 cannot be read (type it: P2 2 NNNNNNN)" in " ".join(screen(view, piped, "en").split())
    ru = " ".join(screen(view, watched, "ru").split())
    assert "P2 2 не читается (введите: e P2 2 NNNNNNN)" in ru
    assert "P2 2 не читается (введите: P2 2 NNNNNNN)" in " ".join(screen(view, piped, "ru").split())
    wide = " ".join(screen(view, piped, "en", 140, 40).split())
    assert "cannot be read: the reads disagree (2226222, 2226228); type it: P2 2 NNNNNNN" in wide


# ----------------------------------------------------------------------------- L: the spectator page's first paint
def test_l_the_spectator_page_says_it_is_loading_until_its_first_snapshot(tmp_path):
    """The page's first paint said "Waiting for the first hand" (with "connecting…") even when the log had hands:
    the page as served says it is loading the table, in both languages; the script says "waiting" only when the
    snapshot has no hand."""
    import re

    from dealer_assist.spectator.page import PAGE

    main = re.search(r'<main id="main">(.*?)</main>', PAGE).group(1)
    assert main == ('<div class="waiting"><div class="big">Loading the table…</div>'
                    '<div class="small">Загрузка стола…</div></div>')
    assert 'id="connection" class="badge">connecting… · подключение…</span>' in PAGE


