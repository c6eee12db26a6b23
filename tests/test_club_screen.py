"""`serve --club`: the club's screen on a real PostgreSQL server, pushed by LISTEN/NOTIFY; the same
delay, token, read-only and revealed-only rules as the single-table screen."""

from __future__ import annotations

import time

import pytest
from starlette.testclient import TestClient

from club_helpers import records
from dealer_assist.club import store
from dealer_assist.club.db import connect
from dealer_assist.club.records import club_hand
from dealer_assist.club.watch import ClubWatcher
from dealer_assist.club.web import ClubConfig, create_club_app
from dealer_assist.spectator.state import state_from_view
from spectator_helpers import ANN, BOB_SHOWN, hand_in_play


def _wait(condition, timeout=10.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.02)
    return False


def _app(url, delay=0.0, token=None, clock=time.time):
    config = ClubConfig(url=url, delay=delay, token=token, loopback_only=token is None, warn=lambda text: None)
    watcher = ClubWatcher(url, delay=delay, clock=clock, warn=lambda text: None)
    return create_club_app(config, watcher), watcher


def test_every_table_on_one_page_updated_by_notify_within_a_second(club_url):
    t1, t2 = records("20261203T200000-aaaa", 3), records("20261203T200100-bbbb", 2, seed=5)
    with connect(club_url) as conn:
        store.insert_hands(conn, "T1", [club_hand(r) for r in t1])
        app, watcher = _app(club_url)
        with TestClient(app, base_url="http://127.0.0.1") as client:
            assert watcher.loaded.wait(10)
            tables = client.get("/state.json").json()["tables"]
            assert [t["name"] for t in tables] == ["T1"]
            assert tables[0]["last"]["hand"] == 3 and tables[0]["last"]["winners"] == t1[2]["winners"]
            before = watcher.notifications
            sent = time.monotonic()
            store.insert_hands(conn, "T2", [club_hand(r) for r in t2])
            assert _wait(lambda: len(client.get("/state.json").json()["tables"]) == 2, timeout=1.0)
            assert time.monotonic() - sent < 1.0 and watcher.notifications > before  # pushed, not polled
            tables = client.get("/state.json").json()["tables"]
            assert tables[1]["name"] == "T2" and tables[1]["last"]["hand"] == 2
            one = client.get("/table/T2/state.json").json()
            assert one["hand"]["source"] == "log" and one["hand"]["hand"] == 2
            assert one["balances"]["hands"] == sum(r["status"] == "showdown" for r in t2)
            page = client.get("/table/T2/")
            assert page.status_code == 200 and "EventSource" in page.text
            assert "script-src 'sha256-" in page.headers["content-security-policy"]
            club_page = client.get("/")
            assert club_page.status_code == 200 and "the club's tables" in club_page.text
            assert client.get("/table/T9/state.json").json()["hand"] is None  # not heard of yet: waits


def test_the_hand_in_play_shows_only_revealed_pockets(club_url):
    view = hand_in_play()
    state = state_from_view(view, session="20261203T200000-cccc")
    state["seats"][1]["pocket"] = [BOB_SHOWN, "3332333"]  # a forged state: Bob has not revealed
    with connect(club_url) as conn:
        app, watcher = _app(club_url)
        with TestClient(app, base_url="http://127.0.0.1") as client:
            assert watcher.loaded.wait(10)
            store.put_state(conn, "T1", state)
            assert _wait(lambda: (client.get("/table/T1/state.json").json()["hand"] or {}).get("source") == "live")
            hand = client.get("/table/T1/state.json").json()["hand"]
            seats = {s["name"]: s for s in hand["seats"]}
            assert seats["Ann"]["pocket"] == list(ANN)
            assert seats["Bob"]["pocket"] is None
            assert BOB_SHOWN not in client.get("/table/T1/state.json").text
            overview = client.get("/state.json").json()["tables"][0]
            assert overview["hand"]["source"] == "live" and overview["hand"]["decided"] is False


def test_the_delay_holds_each_table_back(club_url):
    now = [time.time()]
    with connect(club_url) as conn:
        app, watcher = _app(club_url, delay=30, clock=lambda: now[0])
        with TestClient(app, base_url="http://127.0.0.1") as client:
            assert watcher.loaded.wait(10)
            store.insert_hands(conn, "T1", [club_hand(r) for r in records("20261203T200000-dddd", 1)])
            assert _wait(lambda: "T1" in watcher.tables and watcher.tables["T1"].records)
            assert client.get("/table/T1/state.json").json()["hand"] is None  # not 30 s old yet
            assert client.get("/state.json").json()["tables"] == []
            now[0] += 31
            assert client.get("/table/T1/state.json").json()["hand"]["hand"] == 1
            assert client.get("/state.json").json()["tables"][0]["name"] == "T1"


def test_token_read_only_and_bad_table_names(club_url):
    app, watcher = _app(club_url, token="s3cret")
    with TestClient(app, base_url="http://192.168.1.5") as client:
        assert client.get("/state.json").status_code == 403
        assert client.get("/table/T1/?token=wrong").status_code == 403
        assert client.get("/state.json?token=s3cret").status_code == 200
        assert client.post("/state.json?token=s3cret").status_code == 405
        assert client.get("/table/..%2Fx/state.json?token=s3cret").status_code == 404
    app, watcher = _app(club_url)
    with TestClient(app, base_url="http://evil.example") as client:
        assert client.get("/").status_code == 403  # loopback only: a DNS trick gets nothing


@pytest.mark.slow
def test_the_screen_reconnects_after_the_server_is_killed(tmp_path):
    from club_helpers import new_database
    from dealer_assist.club.cluster import LocalCluster

    own = LocalCluster().start()
    try:
        url = new_database(own)
        app, watcher = _app(url)
        import dealer_assist.club.watch as watch

        with TestClient(app, base_url="http://127.0.0.1") as client:
            assert watcher.loaded.wait(10)
            own.kill()
            assert _wait(lambda: not watcher.online)
            assert client.get("/state.json").json()["club_online"] is False
            own.start()
            with connect(url) as conn:  # a hand stored before the screen is back: read when it reconnects
                store.insert_hands(conn, "T1", [club_hand(r) for r in records("20261203T200000-ffff", 2)])
            assert _wait(lambda: watcher.online, timeout=watch.RECONNECT_MAX + 10)
            assert _wait(lambda: [t["last"]["hand"] for t in client.get("/state.json").json()["tables"]] == [2])
    finally:
        own.remove()
