"""A real PostgreSQL server for the club's tests (Debian's postgresql package; never a mock).

``pg_cluster`` (session scope) starts one throwaway cluster
(:class:`dealer_assist.club.cluster.LocalCluster`); ``club_url`` gives each test a fresh,
initialised database on it (both are made fixtures of every test module by ``conftest.py``). When the server's programs are missing the tests fail, saying
how to install them: they are never skipped.
"""

from __future__ import annotations

import itertools
import json
import random
from pathlib import Path

import psycopg
import pytest

from dealer_assist.club.cluster import ClusterError, LocalCluster, find_bin_dir, INSTALL_HINT
SHARED = Path(__file__).resolve().parents[2] / "shared"

_numbers = itertools.count(1)


@pytest.fixture(scope="session")
def pg_cluster():
    if find_bin_dir() is None:
        pytest.fail(INSTALL_HINT, pytrace=False)
    try:
        cluster = LocalCluster().start()
    except ClusterError as exc:
        pytest.fail(f"the test PostgreSQL server does not start: {exc}", pytrace=False)
    yield cluster
    cluster.remove()


def new_database(cluster: LocalCluster, *, init: bool = True) -> str:
    """A fresh database on ``cluster`` (migrated with ``init``); its URL."""
    from dealer_assist.club.db import connect, migrate

    name = f"club_{next(_numbers)}"
    with psycopg.connect(cluster.url(), autocommit=True) as conn:
        conn.execute(f"CREATE DATABASE {name}")
    url = cluster.url(name)
    if init:
        with connect(url) as conn:
            migrate(conn)
    return url


@pytest.fixture
def club_url(pg_cluster) -> str:
    return new_database(pg_cluster)


def golden_hands() -> list[dict]:
    with open(SHARED / "golden" / "hands.jsonl", encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


def records(session: str, count: int, seed: int = 0) -> list[dict]:
    """``count`` hand-log records of one session, recorded golden hands played through live's code."""
    from dealer_assist.club.replay import recorded_record

    hands = golden_hands()
    rng = random.Random(seed)
    return [recorded_record(hands[(seed + i) % len(hands)], session=session, number=i + 1, rng=rng)
            for i in range(count)]


def write_log(path, recs) -> None:
    from dealer_assist.live.history import HandLog

    log = HandLog(path)
    for r in recs:
        log.append(r)


def stored(url: str, table: str | None = None) -> list[tuple]:
    """``(table, session, hand)`` of every stored hand, in storing order."""
    with psycopg.connect(url) as conn:
        sql = "SELECT table_name, session, hand FROM hands"
        if table:
            return conn.execute(sql + " WHERE table_name = %s ORDER BY id", (table,)).fetchall()
        return conn.execute(sql + " ORDER BY id").fetchall()
