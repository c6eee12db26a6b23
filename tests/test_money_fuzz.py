"""Issue 20's fuzz: arbitrary hand-log records (real ones with fields replaced, removed or twisted,
and lines that are no record at all) through the one reader, the ledger, the `ledger` command and
the spectator screen's follower. Never an exception (a bad record is a counted warning), chips
conserved over the records accepted, and the screen's balances equal the ledger's."""

from __future__ import annotations

import json
from datetime import timedelta
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from dealer_assist.cli import app
from dealer_assist.fileio import dumps_json
from dealer_assist.ledger import build_ledger
from dealer_assist.live.history import iter_log
from dealer_assist.spectator.app import SpectatorConfig, Watcher
from dealer_assist.spectator.follow import LogFollower
from dealer_assist.rules.formats import chips_to_json
from dealer_assist.spectator.public import LogSummary, _name, balances
from ledger_helpers import BOARD, POCKETS, T0, TIE_BOARD, TIE_POCKETS, logged_hand

#: Records fed per run, at least (the issue's target: 2,000).
MIN_RECORDS = 2000

BASES = [
    logged_hand("ABC", BOARD, POCKETS, chips={"A": 10, "B": 30, "C": 30}, hand=1),
    logged_hand("ABC", TIE_BOARD, TIE_POCKETS, folded={"B"}, chips={"A": 5, "B": 5, "C": 5}, tie_policy="rollover",
                hand=2, finished=T0 + timedelta(minutes=5)),
    logged_hand("ABC", BOARD, POCKETS, folded={"A", "B"}, chips={"A": 4, "B": 4, "C": 4}, hand=3,
                finished=T0 + timedelta(minutes=10)),
    logged_hand(["organiser", "carried pot"], BOARD, {"organiser": POCKETS["A"], "carried pot": POCKETS["B"]},
                chips={"organiser": 7, "carried pot": 7}, hand=4, finished=T0 + timedelta(minutes=15)),
    logged_hand("AB", BOARD[:2], {"A": POCKETS["A"], "B": POCKETS["B"]}, chips={"A": 3}, hand=5,
                finished=T0 + timedelta(minutes=20)),
]

odd_scalars = st.one_of(
    st.none(), st.booleans(), st.integers(-3, 3), st.integers(-10**40, 10**40), st.just(10**4000),
    st.floats(allow_nan=False, allow_infinity=False), st.sampled_from(
        ["1/0", "0/0", "17/3", "-1", "9" * 39, "9" * 13, "1" + "0" * 12, "１２", "0001-01-01T00:00:00",
         "9999-12-31T23:59:59", "2025-01-01T20:00:00", "2025-01-01T20:00:00+14:00", "", " ", "organiser",
         "carried pot", "Zoe\u0301", "Zo\u00e9", "\u0410nna", "Anna ", "A", "B", "C", "showdown", "rollover",
         "split", "board", "\x1b[2J", "\u202e", "\ud800"]),
    st.text(max_size=12))
odd_values = st.recursive(odd_scalars, lambda inner: st.one_of(
    st.lists(inner, max_size=4), st.dictionaries(st.sampled_from(["A", "B", "C", "name", "players", "payouts",
                                                                  "carry", "zone", "index", "x", "Zoé"]) | st.text(max_size=5),
                                                 inner, max_size=4)), max_leaves=8)
FIELDS = ["session", "hand", "finished", "started", "status", "chips", "settlement", "winners", "folded", "input",
          "best_hands", "notes", "tie_policy", "dealer", "ante", "rake", "position", "version", "schema", "waiting"]
PATHS = [("chips", "A"), ("chips", "B"), ("settlement", "payouts"), ("settlement", "carry"), ("settlement", "payouts", "A"),
         ("input", "players"), ("input", "tie_policy"), ("input", "dealer"), ("best_hands", "A"), ("notes",)]


@st.composite
def records(draw):
    base = json.loads(json.dumps(draw(st.sampled_from(BASES))))
    base["session"] = draw(st.sampled_from(["s1", "s1", "s2"]))
    base["hand"] = draw(st.integers(1, 8))
    kind = draw(st.sampled_from(["good", "good", "field", "field", "path", "drop", "line"]))
    if kind == "field":
        base[draw(st.sampled_from(FIELDS))] = draw(odd_values)
    elif kind == "path":
        path = draw(st.sampled_from(PATHS))
        node = base
        for key in path[:-1]:
            if not isinstance(node.get(key), dict):
                node[key] = {}
            node = node[key]
        node[path[-1]] = draw(odd_values)
    elif kind == "drop":
        for key in draw(st.lists(st.sampled_from(FIELDS), max_size=4)):
            base.pop(key, None)
    elif kind == "line":
        return draw(st.sampled_from([b"\0" * 40, b'{"schema": "dealer-assist/hand-log", "vers', b"[1, 2", b"null",
                                     b'{"a": 1, "a": 2}', b"\xff\xfe", b"{" * 100, b'{"x": NaN}', b"   "]))
    try:
        return dumps_json(base).encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate: written as JSON's escape, as a hand-edited file may hold it
        return json.dumps(base).encode("ascii")


logs = st.lists(records(), min_size=11, max_size=20)  # 170 x (1 + 11) >= 2,000 records
runner = CliRunner()


def conserved(ledger) -> None:
    total = sum(p.net for p in ledger.players) + ledger.rake + ledger.carried_out - ledger.carried_in
    assert total == 0
    left = dict(ledger.balances())
    for t in ledger.transfers:
        assert t.amount > 0
        left[t.payer] += t.amount
        left[t.payee] -= t.amount
    assert set(left.values()) <= {0}


@pytest.mark.slow  # ~40 s on a loaded 2-core machine: 160 logs through four readers; `make test` runs it
def test_arbitrary_records_never_raise_and_conserve_chips(tmp_path_factory):
    fed: list[int] = []

    @settings(max_examples=170, deadline=None, database=None,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                     HealthCheck.function_scoped_fixture])
    @given(logs, st.integers(0, 3), st.integers(0, 2))
    def check(lines, ante, rake):
        folder = tmp_path_factory.mktemp("fuzz")
        path = folder / "hands.jsonl"
        first = dumps_json(BASES[0]).encode() + b"\n"  # a hand log: its first line is a record
        path.write_bytes(first + b"\n".join(lines) + b"\n")
        fed.append(len(lines))
        warnings: list[str] = []
        accepted = list(iter_log(path, warnings.append))
        assert len(accepted) + len(warnings) == 1 + sum(1 for line in lines if line.strip())
        ledger = build_ledger(accepted, ante=ante, rake=rake)
        conserved(ledger)
        assert ledger.hands + ledger.not_decided + ledger.skipped_count == len(accepted)
        for p in ledger.players:
            assert isinstance(p.net, (int, Fraction)) and p.hands_won <= p.hands_played

        result = runner.invoke(app, ["ledger", "--log", str(path), "--json", "--ante", str(ante), "--rake", str(rake)])
        assert result.exit_code == 0 and result.exception is None, result.output
        out = json.loads(result.stdout)
        assert out["hands"] == ledger.hands and out["rake"] == ledger.rake

        # the spectator screen: the follower's summary equals the ledger over the last session's records
        summary = LogSummary()
        follower = LogFollower(path, summary)
        follower.poll()
        assert summary.count == len(accepted) and follower.skipped == len(warnings)
        assert summary.balances() == balances(accepted)
        session = accepted[-1].get("session")
        mine = build_ledger([r for r in accepted if r.get("session") == session])
        conserved(mine)
        got = summary.balances()
        assert got["hands"] == mine.hands
        shown = {_name(p.name): chips_to_json(p.net) for p in mine.players if _name(p.name) is not None}
        assert {p["name"]: p["net"] for p in got["players"]} == shown
        assert sum(t["amount"] if isinstance(t["amount"], int) else Fraction(t["amount"]) for t in got["transfers"]) \
            == sum(t.amount for t in mine.transfers)
        watcher = Watcher(SpectatorConfig(log=path, state=folder / "hands.state.json", delay=0, warn=lambda t: None))
        watcher.poll()
        json.dumps(watcher.served(), allow_nan=False)

    check()
    assert sum(fed) + len(fed) >= MIN_RECORDS, sum(fed)
