"""The club's database on a real PostgreSQL server: migrations, storing each hand once, the outbox, sync."""

from __future__ import annotations

import threading
import time

import psycopg
import pytest

from club_helpers import new_database, records, stored, write_log
from dealer_assist.club import store
from dealer_assist.club.db import ClubError, check_ready, connect, migrate, migrations, schema_version
from dealer_assist.club.outbox import Outbox, Publisher, cursor_path
from dealer_assist.club.records import club_hand
from dealer_assist.club.sync import sync_log


def test_init_applies_every_migration_once_and_is_idempotent(pg_cluster):
    url = new_database(pg_cluster, init=False)
    with connect(url) as conn:
        assert schema_version(conn) == 0
        with pytest.raises(ClubError, match="club init"):
            check_ready(conn)
        applied = migrate(conn)
        assert [m.version for m in applied] == [m.version for m in migrations()] == list(range(1, len(applied) + 1))
        assert migrate(conn) == []  # a second init changes nothing
        assert schema_version(conn) == len(migrations())
        check_ready(conn)
        names = {r[0] for r in conn.execute("SELECT tablename FROM pg_tables WHERE schemaname = 'public'")}
    assert {"hands", "table_states", "schema_migrations"} <= names


def test_two_inits_at_once_apply_each_file_once(pg_cluster):
    url = new_database(pg_cluster, init=False)
    errors = []

    def init():
        try:
            with connect(url) as conn:
                migrate(conn)
        except Exception as exc:  # pragma: no cover - shown by the assert
            errors.append(exc)

    threads = [threading.Thread(target=init) for _ in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    with psycopg.connect(url) as conn:
        rows = conn.execute("SELECT version FROM schema_migrations ORDER BY version").fetchall()
    assert [r[0] for r in rows] == list(range(1, len(migrations()) + 1))


def test_a_hand_sent_twice_is_stored_once(club_url):
    recs = records("20261203T200000-aaaa", 3)
    hands = [club_hand(r) for r in recs]
    with connect(club_url) as conn:
        assert store.insert_hands(conn, "T1", hands) == 3
        assert store.insert_hands(conn, "T1", hands[1:]) == 0
        assert store.insert_hands(conn, "T2", hands[:1]) == 1  # another table's hand 1 is another hand
        got = store.fetch_hands(conn, table="T1")
    assert [h.record for h in got] == recs
    assert stored(club_url) == [("T1", "20261203T200000-aaaa", 1), ("T1", "20261203T200000-aaaa", 2),
                                ("T1", "20261203T200000-aaaa", 3), ("T2", "20261203T200000-aaaa", 1)]


def test_serial_and_time_search(club_url):
    recs = records("20261203T200000-bbbb", 4)
    with connect(club_url) as conn:
        store.insert_hands(conn, "T1", [club_hand(r) for r in recs])
        serial = recs[2]["notes"][0]["serial"]
        found = store.fetch_hands(conn, serial=serial)
        assert recs[2] in [h.record for h in found]
        assert all(serial in [n["serial"] for n in h.record["notes"]] for h in found)
        assert store.fetch_hands(conn, serial="0000000") == []


def test_sync_of_a_log_stores_it_once_and_skips_torn_lines(club_url, tmp_path):
    log = tmp_path / "hands.jsonl"
    recs = records("20261203T210000-cccc", 5)
    write_log(log, recs[:3])
    with open(log, "ab") as fh:
        fh.write(b'{"schema": "dealer-assist/hand-log", "vers')  # torn by a crash
    write_log(log, recs[3:])  # the next record starts on a fresh line
    report = sync_log(log, club_url, "T1")
    assert (report.read, report.new, len(report.refused)) == (5, 5, 1)
    assert "not a whole record" in report.refused[0]
    again = sync_log(log, club_url, "T1")
    assert (again.read, again.new, again.already) == (5, 0, 5)
    assert [s[2] for s in stored(club_url)] == [1, 2, 3, 4, 5]


def test_sync_refuses_a_file_that_is_not_a_log(club_url, tmp_path):
    bad = tmp_path / "profile.json"
    bad.write_text('{"name": "table"}\n')
    with pytest.raises(ClubError, match="not a hand log"):
        sync_log(bad, club_url, "T1")
    with pytest.raises(ClubError, match="no hand log"):
        sync_log(tmp_path / "missing.jsonl", club_url, "T1")


def test_sync_to_a_club_not_initialised_says_club_init(pg_cluster, tmp_path):
    url = new_database(pg_cluster, init=False)
    log = tmp_path / "hands.jsonl"
    write_log(log, records("s1", 1))
    with pytest.raises(ClubError, match="club init"):
        sync_log(log, url, "T1")


def test_unreachable_club_is_one_sentence():
    with pytest.raises(ClubError, match=r"cannot be reached \(.*\)\.$"):
        connect("postgresql://nobody@127.0.0.1:1/club")
    with pytest.raises(ClubError, match="PostgreSQL URL"):
        connect("mysql://x@y/z")


def _wait(condition, timeout=15.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.05)
    return False


@pytest.mark.slow
def test_outbox_sends_in_order_and_keeps_the_backlog_while_the_club_is_down(pg_cluster, tmp_path):
    from dealer_assist.club.cluster import LocalCluster

    own = LocalCluster().start()  # a server of its own, to kill
    try:
        url = new_database(own)
        log = tmp_path / "hands.jsonl"
        recs = records("20261203T220000-dddd", 8)
        pub = Publisher(Outbox(log, url, "T1"), backoff_first=0.1, backoff_max=0.5).start()
        for r in recs[:3]:
            write_log(log, [r])
            pub.wake()
        assert _wait(lambda: pub.status().online and pub.status().waiting == 0 and len(stored(url)) == 3)
        own.kill()  # SIGKILL: the club is gone
        for r in recs[3:6]:
            write_log(log, [r])  # the table plays on: the log has every hand
            pub.wake()
        assert _wait(lambda: not pub.status().online and pub.status().waiting == 3)
        assert "OFFLINE" in pub.status().line() and "3 hand(s) waiting" in pub.status().line()
        own.start()
        for r in recs[6:]:
            write_log(log, [r])
            pub.wake()
        assert _wait(lambda: pub.status().online and pub.status().waiting == 0 and len(stored(url)) == 8)
        pub.close()
        assert [s[2] for s in stored(url)] == list(range(1, 9))  # in order, none twice
        # the offset is on disk: a new publisher (live restarted) sends nothing again
        pub2 = Publisher(Outbox(log, url, "T1")).start()
        assert _wait(lambda: pub2.status().online)
        pub2.close()
        assert len(stored(url)) == 8
        assert cursor_path(log).exists()
    finally:
        own.remove()


def test_a_lost_offset_sends_everything_again_and_stores_it_once(club_url, tmp_path):
    log = tmp_path / "hands.jsonl"
    write_log(log, records("20261203T230000-eeee", 4))
    pub = Publisher(Outbox(log, club_url, "T1")).start()
    assert _wait(lambda: len(stored(club_url)) == 4)
    pub.close()
    cursor_path(log).unlink()  # e.g. killed between the commit and the offset's write
    pub = Publisher(Outbox(log, club_url, "T1")).start()
    assert _wait(lambda: pub.status().online and pub.status().waiting == 0)
    pub.close()
    assert len(stored(club_url)) == 4


def test_the_hand_in_play_is_published_and_cleared_at_the_end(club_url, tmp_path):
    log = tmp_path / "hands.jsonl"
    pub = Publisher(Outbox(log, club_url, "T1")).start()
    pub.offer_state({"schema": "dealer-assist/table-state", "version": 1, "session": "s", "hand": 2})
    with connect(club_url) as conn:
        assert _wait(lambda: (store.fetch_states(conn).get("T1") or (None,))[0] is not None)
        assert store.fetch_states(conn)["T1"][0]["hand"] == 2
        pub.close()
        assert store.fetch_states(conn)["T1"][0] is None


def test_missing_server_programs_fail_saying_how_to_install(tmp_path):
    from dealer_assist.club.cluster import INSTALL_HINT, ClusterError, LocalCluster, find_bin_dir

    assert find_bin_dir([str(tmp_path)]) is None
    (tmp_path / "15" / "bin").mkdir(parents=True)  # a folder without the programs is not a server either
    assert find_bin_dir([str(tmp_path)]) is None
    import dealer_assist.club.cluster as cluster

    real = cluster.find_bin_dir
    try:
        cluster.find_bin_dir = lambda roots=None: None
        with pytest.raises(ClusterError) as caught:
            LocalCluster(tmp_path / "pg")
    finally:
        cluster.find_bin_dir = real
    assert str(caught.value) == INSTALL_HINT and "apt-get install postgresql" in INSTALL_HINT


def test_a_record_the_database_refuses_does_not_block_the_ones_after_it(club_url):
    from dealer_assist.club.store import insert_or_refuse

    recs = records("20261203T230000-ffff", 3)
    hands = [club_hand(r) for r in recs]
    # a NUL in a string: JSON can say it ("\u0000"), PostgreSQL's jsonb cannot hold it (club_hand refuses
    # it before; here it reaches the database, as a value it cannot hold would)
    bad = hands[1].__class__(**{**hands[1].__dict__, "record": {**hands[1].record, "note": "a\x00b"}})
    with connect(club_url) as conn:
        new, refused = insert_or_refuse(conn, "T1", [hands[0], bad, hands[2]])
    assert new == 2 and len(refused) == 1 and refused[0].startswith("hand 2 of session 20261203T230000-ffff:")
    assert [s[2] for s in stored(club_url)] == [1, 3]
