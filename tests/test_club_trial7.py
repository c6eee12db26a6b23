"""Seventh new-user trial, the club items, on a real PostgreSQL server (``club_url``: never a mock).

H1: ``ledger --club`` merged the seats of different tables that carry the profile's numbered names
(P3 at T1 and P3 at T2 netted against each other: "Everyone is square" while two people owe 20). A
numbered seat is now its table's (``T1/P3``), a seat named after its player stays one player across
tables, and a sentence under the table says so (en + ru). The hands are the README's two-table
club example, played through live's own code (:func:`dealer_assist.club.replay.recorded_record`).

H2: ``club sync --table T2`` of a log whose hands the club holds as table T1's stored them a second
time and the club ledger counted them twice; now it is refused in one sentence naming T1, nothing is
stored, exit 2. Syncing a log twice under its own table stays idempotent.
"""

from __future__ import annotations

import json

import pytest
from datetime import datetime, timedelta, timezone

from rich.console import Console
from typer.testing import CliRunner

from club_helpers import records, stored, write_log
from dealer_assist.cli import app
from dealer_assist.club.replay import recorded_record

#: The README's club example: sample_table_1 as T1 (P1 and P3 put in 20, P3 wins), sample_table_2 as T2
#: (P4 and P5 put in 30, P4 wins); the serials the README types.
T1_HAND = {"position": 4, "board": ["2572845", "4596100", "5464922"], "players": [
    {"name": "P1", "pocket": ["7008302", "5546980"]}, {"name": "P2", "pocket": ["4448050", "7040820"]},
    {"name": "P3", "pocket": ["3989341", "6875538"]}, {"name": "P4", "pocket": ["7466061", "3709219"]}]}
T2_HAND = {"position": 4, "board": ["9489243", "8476424", "0112305"], "players": [
    {"name": "P1", "pocket": ["4616936", "9504164"]}, {"name": "P2", "pocket": ["0461533", "6839361"]},
    {"name": "P3", "pocket": ["7386485", "9795144"]}, {"name": "P4", "pocket": ["3365923", "4774773"]},
    {"name": "P5", "pocket": ["4759971", "2504613"]}, {"name": "P6", "pocket": ["9779954", "0850322"]}]}
NIGHT = datetime(2026, 12, 6, 21, 0, tzinfo=timezone.utc)

SEATS_EN = ("A seat named by its number (P1, P2, …) is a place at one table, not a player, so it is counted per "
            "table (T1/P3); a seat named after its player (calibrate table --seats alice,…) is that player at every "
            "table.")
SEATS_RU = ("Место, названное номером (P1, P2, …), — это место за одним столом, а не игрок, поэтому оно считается "
            "отдельно для каждого стола (T1/P3); место, названное по игроку (calibrate table --seats alice,…), — это "
            "тот же игрок за любым столом.")


def _renamed(hand: dict, names: dict[str, str]) -> dict:
    return {**hand, "players": [{**p, "name": names.get(p["name"], p["name"])} for p in hand["players"]]}


def _swapped(hand: dict, a: str, b: str) -> dict:
    pockets = {p["name"]: p["pocket"] for p in hand["players"]}
    return {**hand, "players": [{**p, "pocket": pockets[b] if p["name"] == a else pockets[a] if p["name"] == b
                                 else p["pocket"]} for p in hand["players"]]}


def play(club_url, tmp_path, table: str, hand: dict, chips: dict, minutes: int = 0, session: str | None = None):
    """One hand of ``table`` logged as live logs it and synced into the club."""
    record = recorded_record(hand, session=session or f"20261206T21{minutes:02d}00-{table.lower():0>4}", number=1,
                             finished=NIGHT + timedelta(minutes=minutes), chips=chips)
    log = tmp_path / f"{table}.jsonl"
    write_log(log, [record])
    r = run("club", "sync", "--log", log, "--club", club_url, "--table", table)
    assert r.exit_code == 0, r.output
    return record

runner = CliRunner()


def run(*args, lang: str | None = None):
    env = {"COLUMNS": "200"}
    result = runner.invoke(app, [str(a) for a in args] + (["--lang", lang] if lang else []), env=env)
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result


def test_a_log_synced_under_another_tables_name_is_refused_and_nothing_is_stored(club_url, tmp_path):
    log = tmp_path / "T1c.jsonl"
    write_log(log, records("20261206T210000-5eb8", 3, seed=2))
    first = run("club", "sync", "--log", log, "--club", club_url, "--table", "T1")
    assert first.exit_code == 0 and "3 hand(s) of table T1; 3 newly stored" in first.output
    before = json.loads(run("ledger", "--club", club_url, "--json").output)
    local = json.loads(run("ledger", "--log", log, "--json").output)
    assert before["hands"] == local["hands"] >= 2 and before["players"] == local["players"]

    wrong = run("club", "sync", "--log", log, "--club", club_url, "--table", "T2")
    assert wrong.exit_code == 2
    assert wrong.output.strip() == (f"Error: {log}: these hands were played at table T1, not T2 (the club has 3 of "
                                    f"them from T1 already): give --table T1; nothing was stored.")
    assert stored(club_url, "T2") == [] and len(stored(club_url)) == 3
    after = json.loads(run("ledger", "--club", club_url, "--json").output)
    assert after["hands"] == local["hands"] and after["players"] == local["players"]  # nothing counted twice

    ru = run("club", "sync", "--log", log, "--club", club_url, "--table", "T2", lang="ru")
    assert ru.exit_code == 2
    assert ru.output.strip() == (f"Ошибка: {log}: эти раздачи сыграны за столом T1, а не T2 (в клубе уже есть 3 из "
                                 f"них от стола T1): укажите --table T1; ничего не сохранено.")

    # the right table, again and again: idempotent
    for _ in range(2):
        again = run("club", "sync", "--log", log, "--club", club_url, "--table", "T1")
        assert again.exit_code == 0 and "3 hand(s) of table T1; 0 newly stored" in again.output
        assert "3 there already" in again.output
    assert len(stored(club_url)) == 3


def test_a_log_that_goes_on_after_a_wrong_sync_is_still_refused_whole(club_url, tmp_path):
    """The table played on after its hands went up: the log's new hands are not stored under the wrong
    name either (one hand the club has from T1 is enough to know where the log was played)."""
    recs = records("20261206T210000-77aa", 4, seed=5)
    log = tmp_path / "T1.jsonl"
    write_log(log, recs[:2])
    assert run("club", "sync", "--log", log, "--club", club_url, "--table", "T1").exit_code == 0
    write_log(log, recs[2:])
    wrong = run("club", "sync", "--log", log, "--club", club_url, "--table", "T3")
    assert wrong.exit_code == 2 and "played at table T1, not T3 (the club has 2 of them" in wrong.output
    assert stored(club_url, "T3") == []
    right = run("club", "sync", "--log", log, "--club", club_url, "--table", "T1")
    assert right.exit_code == 0 and "4 hand(s) of table T1; 2 newly stored" in right.output


def test_the_wrong_name_first_then_the_tables_own_outbox_stores_nothing_twice(club_url, tmp_path):
    """The other order: a night played offline at T1 synced by mistake as T2, then T1's live comes back
    online and its outbox (the log's sender, which live --club runs) sends the same hands as T1's. They are
    refused, one sentence each in the table's status, and counted once."""
    import time

    from dealer_assist.club.outbox import Outbox, Publisher

    log = tmp_path / "T1.jsonl"
    recs = records("20261206T210000-99bb", 3, seed=4)
    write_log(log, recs)
    assert run("club", "sync", "--log", log, "--club", club_url, "--table", "T2").exit_code == 0
    pub = Publisher(Outbox(log, club_url, "T1")).start()
    try:
        end = time.monotonic() + 30
        while time.monotonic() < end and not (pub.status().online and pub.status().waiting == 0):
            time.sleep(0.05)
        status = pub.status()
    finally:
        pub.close()
    assert status.online and status.waiting == 0
    assert stored(club_url, "T1") == [] and len(stored(club_url, "T2")) == 3
    assert list(status.refused) == [
        f"hand {r['hand']} of session 20261206T210000-99bb: the club has it already as table T2's, so it is not "
        f"stored again as T1's" for r in recs]
    # and the right name given to sync afterwards says where the club has them
    right = run("club", "sync", "--log", log, "--club", club_url, "--table", "T1")
    assert right.exit_code == 2 and "these hands were played at table T2, not T1" in right.output


def test_two_tables_whose_sessions_share_an_id_are_both_stored(club_url, tmp_path):
    """A session id is a start time and a random part: two tables may (rarely) share one. Their hands are
    different hands (other times, chips, serials) and both tables' are stored."""
    for i, table in enumerate(("T1", "T2")):
        log = tmp_path / f"{table}.jsonl"
        write_log(log, records("20261206T200000-abcd", 5, seed=10 + i))
        r = run("club", "sync", "--log", log, "--club", club_url, "--table", table)
        assert r.exit_code == 0 and f"5 hand(s) of table {table}; 5 newly stored" in r.output
    assert len(stored(club_url, "T1")) == len(stored(club_url, "T2")) == 5


def _lines(ledger: dict) -> dict:
    return {n: (p["hands_played"], p["hands_won"], p["put_in"], p["won"], p["net"]) for n, p in ledger["players"].items()}


def _transfers(ledger: dict) -> set:
    return {(t["from"], t["to"], t["amount"]) for t in ledger["transfers"]}


def test_the_readme_club_keeps_each_tables_numbered_seats_apart(club_url, tmp_path):
    one = play(club_url, tmp_path, "T1", T1_HAND, {"P1": 20, "P3": 20}, 1)
    two = play(club_url, tmp_path, "T2", T2_HAND, {"P4": 30, "P5": 30}, 2)
    assert one["winners"] == ["P3"] and two["winners"] == ["P4"]  # as the README's live commands print
    club = json.loads(run("ledger", "--club", club_url, "--json").output)
    assert club["hands"] == 2
    assert _lines(club) == {
        "T1/P1": (1, 0, 20, 0, -20), "T1/P2": (1, 0, 0, 0, 0), "T1/P3": (1, 1, 20, 40, 20), "T1/P4": (1, 0, 0, 0, 0),
        "T2/P1": (1, 0, 0, 0, 0), "T2/P2": (1, 0, 0, 0, 0), "T2/P3": (1, 0, 0, 0, 0), "T2/P4": (1, 1, 30, 60, 30),
        "T2/P5": (1, 0, 30, 0, -30), "T2/P6": (1, 0, 0, 0, 0)}
    assert _transfers(club) == {("T1/P1", "T1/P3", 20), ("T2/P5", "T2/P4", 30)}
    # one table alone: its seats as the table names them (the trial found this right)
    t2 = json.loads(run("ledger", "--club", club_url, "--table", "T2", "--json").output)
    assert _transfers(t2) == {("P5", "P4", 30)} and "T2/P4" not in t2["players"]


def test_two_people_in_seat_p3_at_two_tables_are_not_netted_to_square(club_url, tmp_path):
    """The trial's T3/T4: P1 beats P3 at T3, P3 beats P1 at T4, 20 each. Merged by name, 'Everyone is
    square'; two people owe 20."""
    play(club_url, tmp_path, "T3", _swapped(T1_HAND, "P1", "P3"), {"P1": 20, "P3": 20}, 3)
    play(club_url, tmp_path, "T4", T1_HAND, {"P1": 20, "P3": 20}, 4)
    club = json.loads(run("ledger", "--club", club_url, "--json").output)
    nets = {n: p["net"] for n, p in club["players"].items() if p["net"]}
    assert nets == {"T3/P1": 20, "T3/P3": -20, "T4/P1": -20, "T4/P3": 20}
    assert _transfers(club) == {("T3/P3", "T3/P1", 20), ("T4/P1", "T4/P3", 20)}
    shown = run("ledger", "--club", club_url)
    assert "Everyone is square" not in shown.output
    assert " ".join(SEATS_EN.split()) in " ".join(shown.output.split())


def test_a_player_named_seat_is_one_player_across_tables(club_url, tmp_path):
    """Seats named after their players (calibrate table --seats alice,…): alice wins 20 at T1 from boris and
    loses 20 at T2 to chen; she is one line, square, and the numbered seat beside her stays its table's."""
    play(club_url, tmp_path, "T1", _renamed(_swapped(T1_HAND, "P1", "P3"), {"P1": "alice", "P3": "boris"}),
         {"alice": 20, "boris": 20}, 5)
    play(club_url, tmp_path, "T2", _renamed(T1_HAND, {"P1": "alice", "P3": "chen"}), {"alice": 20, "chen": 20}, 6)
    club = json.loads(run("ledger", "--club", club_url, "--json").output)
    assert _lines(club)["alice"] == (2, 1, 40, 40, 0)
    assert {n: p["net"] for n, p in club["players"].items() if p["net"]} == {"boris": -20, "chen": 20}
    assert _transfers(club) == {("boris", "chen", 20)}
    assert {"T1/P2", "T2/P2", "T1/P4", "T2/P4"} <= set(club["players"])


def test_the_seat_sentence_under_the_club_ledger_in_russian_at_80_columns(club_url, tmp_path):
    play(club_url, tmp_path, "T1", T1_HAND, {"P1": 20, "P3": 20}, 1)
    play(club_url, tmp_path, "T2", T2_HAND, {"P4": 30, "P5": 30}, 2)
    from dealer_assist.cli import ledger_cmd
    from dealer_assist.club.read import ledger_records
    from dealer_assist.ledger import build_ledger

    ledger = build_ledger(ledger_records(club_url))
    for lang, sentence in (("en", SEATS_EN), ("ru", SEATS_RU)):
        console = Console(width=80, record=True, color_system=None)
        console.print(ledger_cmd._render(ledger, "club 127.0.0.1/club", None, lang, table_seats=True))
        text = console.export_text()
        assert max(len(line) for line in text.splitlines()) <= 80
        assert " ".join(sentence.split()) in " ".join(text.split()), text
        assert text.index("T2/P6") < text.index(sentence[:20])  # under the table, before the transfers


def _club_night(club_url, tmp_path):
    play(club_url, tmp_path, "T1", T1_HAND, {"P1": 20, "P3": 20}, 1)
    play(club_url, tmp_path, "T2", T2_HAND, {"P4": 30, "P5": 30}, 2)


def test_history_club_in_russian_at_80_columns_has_whole_heads_and_the_date_on_a_line(club_url, tmp_path, monkeypatch):
    """M: the head 'Table' was English, 'законче…' / 'победите…' were cut and the date split '2026-12-' / '06'."""
    _club_night(club_url, tmp_path)
    from dealer_assist.cli import history_cmd

    captures = {}
    plain = history_cmd.report_console
    for lang in ("ru", "en"):
        console = Console(width=80, record=True, color_system=None)
        monkeypatch.setattr(history_cmd, "report_console",
                            lambda stderr=False, console=console, **kw: plain(stderr=True, **kw) if stderr else console)
        r = run("history", "--club", club_url, "--serial", "7008302", lang=lang)
        assert r.exit_code == 0, r.output
        captures[lang] = console.export_text()
    ru = captures["ru"].splitlines()
    assert max(len(line) for line in ru) <= 80
    assert ru[0].rstrip().startswith("клуб ") and ru[0].rstrip().endswith(" · раздач: 1")
    assert [c.strip() for c in ru[1].split("┃")] == [
        "#", "Стол", "закончена", "Раздача", "P", "дилер", "борд", "победители", "статус"]
    assert [c.strip() for c in ru[3].split("│")] == [
        "1", "T1", "2026-12-06", "1", "4", "P1", "2572845", "P3", "вскрытие"]
    assert [c.strip() for c in ru[4].split("│")][2:3] == ["21:01:00"]
    assert "…" not in captures["ru"] and "Table" not in captures["ru"]
    en = captures["en"].splitlines()
    assert max(len(line) for line in en) <= 80 and "┃ Table ┃ finished" in en[1]


def test_a_club_list_of_1200_hands_in_russian_fits_80_columns(monkeypatch):
    """Over 1,000 hands the list is printed in tables of one layout (ROWS_PER_TABLE): four-digit numbers too."""
    from dealer_assist.cli import history_cmd

    rows = [(str(i), "T12", "2026-12-06 21:21:34", str(i), "4", "P1", "2572845 4596100 5464922", "P3", "showdown")
            for i in range(1, 1203)]
    console = Console(width=80, record=True, color_system=None, file=open("/dev/null", "w"))
    monkeypatch.setattr(history_cmd, "report_console", lambda **kw: console)
    history_cmd._print_table(rows, "клуб x", "ru", club=True)
    lines = console.export_text().splitlines()
    assert max(len(line) for line in lines) <= 80 and "…" not in "".join(lines)
    assert [c.strip() for c in lines[1].split("┃")][2] == "закончена"
    assert [c.strip() for c in lines[-3].split("│")][:4] == ["1202", "T12", "2026-12-06", "1202"]


def test_ledger_club_table_title_in_russian(club_url, tmp_path):
    """M: 'club … table T2' was English in the Russian title."""
    _club_night(club_url, tmp_path)
    from dealer_assist.cli import ledger_cmd
    from dealer_assist.cli.club_cmd import club_label
    from dealer_assist.club.read import ledger_records
    from dealer_assist.ledger import build_ledger

    ledger = build_ledger(ledger_records(club_url, table="T2"))
    console = Console(width=80, record=True, color_system=None)
    console.print(ledger_cmd._render(ledger, club_label(club_url, "T2", "ru"), None, "ru"))
    text = console.export_text()
    where = club_url.split("@")[-1]
    assert text.startswith(f"клуб {where} стол T2 · раздач: 1\n")
    assert max(len(line) for line in text.splitlines()) <= 80
    assert "club" not in text.replace(where, "") and "table" not in text and SEATS_RU[:20] not in text
    shown = run("ledger", "--club", club_url, "--table", "T2", lang="ru")
    assert f"клуб {where} стол T2" in shown.output
    # the JSON keeps its English, machine-read label
    assert json.loads(run("ledger", "--club", club_url, "--table", "T2", "--json").output)["club"] == (
        f"club {where} table T2")


@pytest.mark.slow
def test_the_club_page_pairs_every_label_with_russian(club_url, tmp_path):
    """M: `serve --club`'s front page was English but for its title; now 'English · Русский' as each table's
    page, in a real browser."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait
    from test_spectator_browser import Server, browser

    _club_night(club_url, tmp_path)
    server = Server(["--club", club_url, "--delay", "0", "--port", "0"], tmp_path / "serve.err")
    driver = None
    try:
        url = server.url()
        driver = browser(str(tmp_path / "chromium-profile"))
        driver.set_window_size(1280, 800)
        driver.get(url)
        wait = WebDriverWait(driver, 60, poll_frequency=0.1)
        wait.until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "a.table[data-last]")) == 2)
        wait.until(lambda d: "подключено" in d.find_element(By.ID, "connection").text)
        cards = {c.get_attribute("data-table"): c.text.replace("\n", " | ")
                 for c in driver.find_elements(By.CSS_SELECTOR, "a.table")}
        assert cards["T1"] == ("T1 | Hand 1 · Раздача 1 · finished · завершена · Showdown · Вскрытие · 4 seats · 4 места"
                               " | 2572845  4596100  5464922 | Winner · Победитель: P3"
                               " | Last finished hand 1 · Последняя завершённая раздача 1: P3").replace("  ", " ")
        assert "6 seats · 6 мест |" in cards["T2"] and "Победитель: P4" in cards["T2"]
        badges = driver.find_element(By.TAG_NAME, "header").text
        for pair in ("Delayed by 0 s · задержка 0 с", "club database connected · база клуба подключена",
                     "connected · подключено"):
            assert pair in badges, badges
        assert "Экран только для просмотра" in driver.find_element(By.TAG_NAME, "footer").text
        assert driver.execute_script("return document.documentElement.scrollWidth <= window.innerWidth;")
        driver.save_screenshot(str(tmp_path / "club.png"))
    finally:
        if driver is not None:
            driver.quit()
        assert server.stop() in (0, 130, -2)
