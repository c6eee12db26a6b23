"""Issue 20: the ledger and the spectator screen never show wrong money, and a bad record costs
one warning naming its line, not the night. Each finding as its repro, through the real commands
(typer's CliRunner for ledger/history, the spectator application over HTTP for serve, a process
where the time zone matters)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from datetime import timedelta
from pathlib import Path

import pytest
from starlette.testclient import TestClient
from typer.testing import CliRunner

from dealer_assist.cli import app
from dealer_assist.live.history import HandLog, HistoryError
from dealer_assist.spectator.app import SpectatorConfig, create_app
from dealer_assist.spectator.follow import LogFollower
from ledger_helpers import BOARD, POCKETS, T0, TIE_BOARD, TIE_POCKETS, logged_hand

REPO = Path(__file__).resolve().parents[1]
runner = CliRunner()


def run(*args, env=None):
    result = runner.invoke(app, [str(a) for a in args], env={"COLUMNS": "200", **(env or {})})
    assert "Traceback" not in result.output, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    return result


def two_seats(a: str, b: str, *, hand: int, chips=5, session="s1", minutes=0, **kw):
    """A decided hand of seats ``a`` (A's pocket: straight, loses) and ``b`` (B's pocket: set, wins)."""
    return logged_hand([a, b], BOARD, {a: POCKETS["A"], b: POCKETS["B"]}, chips={a: chips, b: chips}, hand=hand,
                       session=session, finished=T0 + timedelta(minutes=minutes), **kw)


def write_log(path: Path, records, *, raw_lines=()) -> Path:
    """``records`` as JSON lines, then each of ``raw_lines`` (bytes or str) as written."""
    with open(path, "wb") as fh:
        for r in records:
            fh.write(json.dumps(r).encode() + b"\n")
        for line in raw_lines:
            fh.write((line if isinstance(line, bytes) else line.encode()) + b"\n")
    return path


def settle(out: dict) -> dict:
    """Balances by (kind, name) after applying the JSON ledger's transfers: all 0 when they settle everyone."""
    left = {("player", n): p["net"] for n, p in out["players"].items()}
    left[("house", "organiser")] = out["rake"]
    left[("carried pot", "carried pot")] = out["carried_out"] - out["carried_in"]
    for t in out["transfers"]:
        left[(t["from_kind"], t["from"])] += t["amount"]
        left[(t["to_kind"], t["to"])] -= t["amount"]
    return left


# -- 1. a player merged with the house ------------------------------------------------------------
def test_a_seat_named_organiser_keeps_its_own_balance_and_pays_the_house(tmp_path):
    log = write_log(tmp_path / "hands.jsonl", [two_seats("organiser", "B", hand=1), two_seats("organiser", "B", hand=2)])
    result = run("ledger", "--log", log, "--rake", "5", "--json")
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    # 2 hands: the seat "organiser" puts in 5 and pays 5 rake each time, wins nothing
    assert out["players"]["organiser"]["net"] == -20 and out["players"]["B"]["net"] == 0
    assert out["rake"] == 20
    assert {(t["from_kind"], t["from"], t["to_kind"], t["to"], t["amount"]) for t in out["transfers"]} == {
        ("player", "organiser", "house", "organiser", 20)}
    assert set(settle(out).values()) == {0}
    assert "a player is named 'organiser', like the organiser (the house" in result.stderr
    table = run("ledger", "--log", log, "--rake", "5")
    rows = [line.replace("│", " ").split() for line in table.stdout.splitlines()]
    assert ["organiser", "2", "0", "10", "10", "0", "-20"] in rows  # the seat's own line
    assert ["organiser", "(rake)", "20", "+20"] in rows  # the house's line, apart
    assert ["organiser", "organiser", "(rake)", "20"] in rows  # the seat pays the house


def test_a_seat_named_carried_pot_is_a_player_apart_from_the_rolled_over_chips(tmp_path):
    tie = logged_hand(["A", "carried pot", "C"], TIE_BOARD,
                      {"A": TIE_POCKETS["A"], "carried pot": TIE_POCKETS["B"], "C": TIE_POCKETS["C"]},
                      folded={"carried pot"}, chips={"A": 5, "carried pot": 5, "C": 5}, tie_policy="rollover", hand=1)
    log = write_log(tmp_path / "hands.jsonl", [tie])
    out = json.loads(run("ledger", "--log", log, "--json").stdout)
    assert out["players"]["carried pot"]["net"] == -5 and out["carried_out"] == 15
    assert set(settle(out).values()) == {0}
    pot = [t for t in out["transfers"] if t["to_kind"] == "carried pot"]
    assert sum(t["amount"] for t in pot) == 15 and {"player"} == {t["from_kind"] for t in pot}


def test_the_screen_balances_keep_a_seat_named_organiser_apart(tmp_path):
    log = write_log(tmp_path / "hands.jsonl", [two_seats("organiser", "B", hand=1)])
    with make_client(tmp_path) as (client, _):
        balances = client.get("/state.json").json()["balances"]
    assert {p["name"]: p["net"] for p in balances["players"]} == {"organiser": -5, "B": 5}
    assert balances["transfers"] == [{"from": "organiser", "from_kind": "player", "to": "B", "to_kind": "player",
                                      "amount": 5}]


# -- 3, 4, 5. one odd record: one warning naming its line, the rest still counts ----------------------
GOOD = [two_seats("A", "B", hand=1), two_seats("A", "B", hand=2, minutes=5)]
ODD = {
    "chips 1/0": ('chips', {"A": "1/0", "B": 5}),
    "chips 0/0": ('chips', {"A": "0/0", "B": 5}),
    "session a list": ("session", ["s1"]),
    "session an object": ("session", {"id": "s1"}),
    "input.players a number": ("input", {"players": 5}),
    "39-digit chip string": ("chips", {"A": "9" * 39, "B": 5}),
    "finished in year 1 without a zone": ("finished", "0001-01-01T00:00:00"),
    "finished at the end of year 9999": ("finished", "9999-12-31T23:59:59"),
    "ante of 10**20": ("ante", 10**20),
}


def odd_record(field):
    key, value = ODD[field]
    return {**two_seats("A", "B", hand=3, minutes=10), key: value}


@pytest.mark.parametrize("field", sorted(ODD))
def test_ledger_leaves_an_odd_record_out_with_one_warning_naming_its_line(tmp_path, field):
    log = write_log(tmp_path / "hands.jsonl", [GOOD[0], odd_record(field), GOOD[1]])
    result = run("ledger", "--log", log, "--json")
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    assert out["hands"] == 2 and out["players"]["B"]["net"] == 10  # both good hands, nothing of the odd one
    warnings = result.stderr.strip().splitlines()
    assert len(warnings) == 1 and warnings[0].startswith(f"warning: line 2 of {log} is not a valid hand record ("), \
        result.stderr
    history = run("history", "--log", log)
    assert history.exit_code == 0 and f"line 2 of {log} is not a valid hand record" in history.stderr


def test_a_number_of_over_4300_digits_in_the_log_is_one_warning(tmp_path):
    log = write_log(tmp_path / "hands.jsonl", [GOOD[0]], raw_lines=[
        json.dumps(GOOD[1])[:-1] + ', "ante": ' + "9" * 5000 + "}"])
    result = run("ledger", "--log", log, "--json")
    assert result.exit_code == 0 and json.loads(result.stdout)["hands"] == 1
    assert result.stderr.strip() == f"warning: line 2 of {log} holds a number of over 4300 digits; skipped."


def test_a_chips_option_of_thousands_of_digits_is_one_sentence(tmp_path):
    log = write_log(tmp_path / "hands.jsonl", GOOD)
    for option in ("--ante", "--rake"):
        for value in ("9" * 5000, "9" * 4000, "1" + "0" * 13):
            result = run("ledger", "--log", log, option, value)
            assert result.exit_code == 2 and f"Invalid value for '{option}': must be at most 1,000,000,000,000 chips" \
                in " ".join(result.stderr.split()), result.stderr
            assert len(value) < 20 or value not in result.stderr


@pytest.mark.parametrize("field", sorted(ODD))
def test_the_screen_shows_the_last_good_hand_when_an_odd_record_arrives_and_goes_on(tmp_path, field):
    log = write_log(tmp_path / "hands.jsonl", [GOOD[0], odd_record(field)])  # odd as the last record at start
    with make_client(tmp_path) as (client, watcher):
        served = client.get("/state.json")
        assert served.status_code == 200 and served.json()["hand"]["hand"] == 1
        assert served.json()["balances"]["hands"] == 1
        with open(log, "a") as fh:  # another odd one while running, then a good one
            fh.write(json.dumps({**odd_record(field), "hand": 4}) + "\n" + json.dumps(GOOD[1]) + "\n")
        watcher.poll()
        served = client.get("/state.json")
        assert served.status_code == 200 and served.json()["hand"]["hand"] == 2
        assert served.json()["balances"]["hands"] == 2
    assert [w for w in watcher.warned if "line 2 of" in w and "is not a valid hand record" in w]
    assert [w for w in watcher.warned if "line 3 of" in w and "is not a valid hand record" in w]


# -- 5. the calendar's edges ------------------------------------------------------------------------
def _cli(*args, tz="America/New_York"):
    env = {**os.environ, "TZ": tz, "PYTHONPATH": str(REPO), "COLUMNS": "200"}
    return subprocess.run([sys.executable, "-m", "dealer_assist", *map(str, args)], capture_output=True, text=True,
                          env=env, timeout=120)


def test_since_at_the_calendars_end_in_new_york_is_one_sentence(tmp_path):
    log = write_log(tmp_path / "hands.jsonl", GOOD)
    result = _cli("ledger", "--log", log, "--since", "9999-12-31T23:59:59")
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert "must be a time in the years 1970 to 9998, not '9999-12-31T23:59:59'" in " ".join(result.stderr.split())
    fine = _cli("ledger", "--log", log, "--since", "2025-01-01T14:00", "--json")  # 19:00 UTC: both hands count
    assert fine.returncode == 0 and json.loads(fine.stdout)["hands"] == 2


def test_a_record_of_year_one_without_a_zone_is_a_bad_record_in_new_york(tmp_path):
    log = write_log(tmp_path / "hands.jsonl", [GOOD[0], {**GOOD[1], "finished": "0001-01-01T00:00:00"}])
    result = _cli("ledger", "--log", log, "--json", "--since", "2025-01-01")
    assert result.returncode == 0 and json.loads(result.stdout)["hands"] == 1, result.stderr
    assert "line 2 of" in result.stderr and "outside the years 1970-9998" in result.stderr


# -- 12. a first line of NUL bytes ------------------------------------------------------------------
def test_a_first_line_of_nul_bytes_is_one_warning_and_the_rest_is_read(tmp_path):
    log = write_log(tmp_path / "hands.jsonl", GOOD, raw_lines=())
    log.write_bytes(b"\0" * 3000 + b"\n" + log.read_bytes())
    ledger = run("ledger", "--log", log, "--json")
    assert ledger.exit_code == 0 and json.loads(ledger.stdout)["hands"] == 2
    assert ledger.stderr.strip() == (f"warning: line 1 of {log} holds only NUL bytes (left by a power cut during "
                                     f"a write?); skipped.")
    history = run("history", "--log", log)
    assert history.exit_code == 0 and "NUL bytes" in history.stderr
    HandLog(log).check()  # live appends to it
    from dealer_assist.cli.serve_cmd import _not_a_log

    assert _not_a_log(log) is None
    with make_client(tmp_path) as (client, _):
        assert client.get("/state.json").json()["balances"]["hands"] == 2
    log.write_bytes(b"\0" * 10 + b"\n" + b'{"not": "a hand log"}\n')
    with pytest.raises(HistoryError, match="is not a hand log"):
        HandLog(log).check()
    assert "is not a hand log" in run("ledger", "--log", log).stderr


# -- 2. a rewritten log is read again ----------------------------------------------------------------
def test_a_log_copied_over_while_followed_is_read_again_from_its_start(tmp_path):
    log = write_log(tmp_path / "hands.jsonl", [two_seats("Old1", "Old2", hand=i, minutes=i) for i in range(1, 8)])
    new = write_log(tmp_path / "new.jsonl", [two_seats("Ann", "Bob", hand=i, session="s2", chips=7, minutes=60 + i)
                                              for i in range(1, 10)])
    assert new.stat().st_size > log.stat().st_size
    with make_client(tmp_path) as (client, watcher):
        assert client.get("/state.json").json()["balances"]["hands"] == 7
        shutil.copyfile(new, log)  # what `cp new.jsonl hands.jsonl` does: the same file, rewritten, longer
        watcher.poll()
        balances = client.get("/state.json").json()["balances"]
    assert balances["hands"] == 9 and {p["name"] for p in balances["players"]} == {"Ann", "Bob"}
    assert [w for w in watcher.warned if "was rewritten" in w and "read again from its start" in w]


def test_a_rewrite_of_the_same_length_is_noticed(tmp_path):
    log = write_log(tmp_path / "hands.jsonl", [two_seats("A", "B", hand=i, chips=5, minutes=i) for i in (1, 2, 3)])
    follower = LogFollower(log)
    follower.poll()
    assert [r["chips"]["A"] for r in follower.records] == [5, 5, 5]
    text = log.read_text()
    same_length = text.replace('"chips": {"A": 5, "B": 5}', '"chips": {"A": 6, "B": 6}', 1)
    same_length = same_length.replace('"payouts": {"A": 0, "B": 10}', '"payouts": {"A": 0, "B": 12}', 1)
    assert len(same_length) == len(text) and same_length != text
    before = log.stat()
    log.write_text(same_length)  # in place: the same inode, the same size
    os.utime(log, ns=(before.st_atime_ns, before.st_mtime_ns + 1_000_000))
    changed, _ = follower.poll()
    assert changed and follower.rebuilds == 1 and [r["chips"]["A"] for r in follower.records] == [6, 5, 5]


def test_a_rewrite_in_place_within_one_clock_tick_is_caught_by_the_checksum(tmp_path):
    log = write_log(tmp_path / "hands.jsonl", [two_seats("A", "B", hand=i, minutes=i) for i in (1, 2)])
    follower = LogFollower(log)
    follower.poll()
    before = log.stat()
    other = [two_seats("X", "Y", hand=i, minutes=i) for i in (1, 2, 3)]
    write_log(log, other)
    os.utime(log, ns=(before.st_atime_ns, before.st_mtime_ns))  # the same time stamp: only the bytes tell
    follower.poll()
    assert follower.rebuilds == 1 and [tuple(r["chips"]) for r in follower.records] == [("X", "Y")] * 3


# -- 9. one line at most 4 MiB -----------------------------------------------------------------------
def test_a_line_of_5_mib_without_a_newline_is_not_held_and_costs_one_warning(tmp_path):
    log = write_log(tmp_path / "hands.jsonl", [GOOD[0]])
    follower = LogFollower(log)
    with open(log, "ab") as fh:
        fh.write(b'{"schema": "dealer-assist/hand-log", "x": "' + b"x" * (5 << 20))
    follower.poll()
    assert len(follower._partial) == 0 and follower._long  # not held in memory
    with open(log, "ab") as fh:
        fh.write(b'"}\n' + json.dumps(GOOD[1]).encode() + b"\n")
    follower.poll()
    assert [r["hand"] for r in follower.records] == [1, 2] and follower.skipped == 1
    assert follower.warnings == [f"line 2 of {log} is longer than 4 MiB, so it is no hand record; skipped."]


# -- helpers ---------------------------------------------------------------------------------------
class make_client:
    """The spectator application on ``tmp_path/hands.jsonl`` with no delay; records its warnings."""

    def __init__(self, tmp_path: Path) -> None:
        self.warned: list[str] = []
        config = SpectatorConfig(log=tmp_path / "hands.jsonl", state=tmp_path / "hands.state.json", delay=0,
                                 poll=3600, warn=self.warned.append)
        self.application = create_app(config)
        self.application.watcher.warned = self.warned
        self.client = TestClient(self.application, raise_server_exceptions=False)

    def __enter__(self):
        self.client.__enter__()
        return self.client, self.application.watcher

    def __exit__(self, *exc):
        return self.client.__exit__(*exc)


# -- 11. names that look alike ------------------------------------------------------------------------
def test_one_name_in_two_unicode_forms_is_one_player_and_look_alikes_are_warned(tmp_path):
    composed, decomposed = "Zo\u00e9", "Zoe\u0301"
    cyrillic, spaced = "\u0410nna", "Anna "
    hands = [two_seats(composed, "Anna", hand=1, chips=10), two_seats(decomposed, cyrillic, hand=2, chips=10),
             two_seats(composed, spaced, hand=3, chips=10), two_seats(decomposed, "anna", hand=4, chips=10)]
    log = write_log(tmp_path / "hands.jsonl", hands)
    result = run("ledger", "--log", log, "--json")
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    assert out["players"][composed]["hands_played"] == 4 and decomposed not in out["players"]  # NFC: one player
    assert out["players"][composed]["net"] == -40
    warning = [w for w in result.stderr.splitlines() if "look alike" in w]
    assert len(warning) == 1, result.stderr
    assert ("players 'Anna' and 'Аnna' (CYRILLIC CAPITAL LETTER A) and 'Anna ' (spaces at an end) and 'anna' look "
            "alike but are counted as 4 different players") in warning[0]
    with make_client(tmp_path) as (client, watcher):
        names = [p["name"] for p in client.get("/state.json").json()["balances"]["players"]]
    assert names.count(composed) == 1 and len(names) == 5
    assert [w for w in watcher.warned if "look alike" in w]


def test_history_lists_a_long_log_in_tables_of_one_width(tmp_path):
    from dealer_assist.cli.history_cmd import ROWS_PER_TABLE

    count = ROWS_PER_TABLE * 2 + 5
    log = write_log(tmp_path / "hands.jsonl", [{**GOOD[0], "hand": i} for i in range(1, count + 1)])
    result = run("history", "--log", log)
    assert result.exit_code == 0, result.stderr
    rows = [line for line in result.stdout.splitlines() if line.startswith("│")]
    assert [int(line.split("│")[1]) for line in rows] == list(range(1, count + 1))
    assert len({len(line) for line in rows}) == 1  # the same widths across the tables
    assert result.stdout.count(f"{count} hand") == 1
