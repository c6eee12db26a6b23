"""Connecting to the club's PostgreSQL database and bringing its schema up to date.

The schema is a list of versioned files, ``migrations/NNNN_name.sql``, applied in order by
:func:`migrate` (``dealer-assist club init URL``); the table ``schema_migrations`` remembers
which versions a database has. :func:`migrate` takes an advisory lock, so two tables running
``club init`` at once apply each file once; a file already applied is never run again.

Every failure to reach or use the database is a :class:`ClubError`: one sentence naming the
server (never its password), e.g. ``"The club database at 127.0.0.1:5432/club cannot be
reached (connection refused)."``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from importlib import resources

import psycopg
from psycopg.conninfo import conninfo_to_dict

__all__ = ["ClubError", "Migration", "migrations", "connect", "migrate", "schema_version", "check_ready",
           "describe_url", "check_url", "CONNECT_TIMEOUT", "KEEPALIVE"]

#: Seconds a connection attempt may take before the club counts as unreachable (libpq's
#: ``connect_timeout``): long enough for a LAN or a slow Wi-Fi, short enough that a table notices
#: an outage at once. (Chosen, not measured.)
CONNECT_TIMEOUT = 3
#: TCP keep-alive and user timeout, so a connection whose network silently dropped is noticed in
#: about 10 s instead of the kernel's 2 hours (libpq parameters).
KEEPALIVE = {"keepalives": 1, "keepalives_idle": 5, "keepalives_interval": 2, "keepalives_count": 2,
             "tcp_user_timeout": 10000}
#: The advisory-lock key ``migrate`` holds while it applies files ("dealer-assist club" as a number).
MIGRATION_LOCK = 0x6441_636C_7562
_FILE = re.compile(r"(\d{4})_([a-z0-9_]+)\.sql")


class ClubError(RuntimeError):
    """The club's database cannot be reached or used; one plain sentence."""


@dataclass(frozen=True)
class Migration:
    """One schema file: its version (the file's number), name and SQL text."""

    version: int
    name: str
    sql: str


def migrations() -> list[Migration]:
    """The schema files shipped in ``dealer_assist/club/migrations``, by version (1, 2, …, no gaps)."""
    found = []
    for entry in resources.files("dealer_assist.club").joinpath("migrations").iterdir():
        m = _FILE.fullmatch(entry.name)
        if m:
            found.append(Migration(int(m.group(1)), m.group(2), entry.read_text(encoding="utf-8")))
    found.sort(key=lambda m: m.version)
    if [m.version for m in found] != list(range(1, len(found) + 1)):
        raise RuntimeError(f"the club's migration files are not numbered 1..{len(found)}: {[m.version for m in found]}")
    return found


def check_url(url: str) -> str:
    """``url`` when it is a PostgreSQL connection URL (``postgresql://…`` or ``postgres://…``);
    :class:`ClubError` otherwise."""
    text = (url or "").strip()
    if not re.match(r"postgres(ql)?://", text, re.IGNORECASE):
        raise ClubError(f"--club must be a PostgreSQL URL such as postgresql://user@host/club, "
                        f"not {_shown(text)!r}.")
    try:
        conninfo_to_dict(text)
    except psycopg.ProgrammingError as exc:
        raise ClubError(f"--club {_shown(describe_url(text))} is not a valid PostgreSQL URL ({_first_line(exc)}).") from None
    return text


def describe_url(url: str) -> str:
    """``host:port/dbname`` of a URL, for sentences (no user, no password); a socket folder given as
    ``?host=/var/run/postgresql`` is the host.

    >>> describe_url("postgresql://dealer:secret@club-pc:5433/club"), describe_url("postgresql:///club?host=/run/pg")
    ('club-pc:5433/club', '/run/pg/club')
    """
    try:
        info = conninfo_to_dict(url)
    except psycopg.Error:
        return "(an unreadable URL)"
    host = str(info.get("host") or "localhost")
    port = f":{info['port']}" if info.get("port") else ""
    db = str(info.get("dbname") or "(default database)")
    return f"{host}{port}/{db}"


def _shown(text: str) -> str:
    text = re.sub(r"//([^/@]*):[^/@]*@", r"//\1:***@", text)  # never echo a password
    return text if len(text) <= 80 else text[:80] + "…"


def _first_line(exc: BaseException) -> str:
    """libpq's message in a few words: ``Connection refused``, ``database "club" does not exist``."""
    lines = [line.strip() for line in str(exc).splitlines() if line.strip()]
    line = lines[0] if lines else type(exc).__name__
    line = re.sub(r"^(connection failed: )?(connection to server at [^,]*, port \d+ failed: )+", "", line)
    line = re.sub(r"^(error|fatal):\s*", "", line, flags=re.IGNORECASE)
    return line[:200] or type(exc).__name__


def connect(url: str, *, autocommit: bool = False, timeout: float = CONNECT_TIMEOUT) -> psycopg.Connection:
    """A connection to the club's database (keep-alives on, ``application_name`` dealer-assist).

    Raises:
        ClubError: a URL that is not PostgreSQL's, a server that cannot be reached, a refused login.
    """
    check_url(url)
    try:
        return psycopg.connect(url, autocommit=autocommit, connect_timeout=max(1, int(timeout)),
                               application_name="dealer-assist", **KEEPALIVE)
    except psycopg.Error as exc:
        raise ClubError(f"The club database at {describe_url(url)} cannot be reached ({_first_line(exc)}).") from None


def schema_version(conn: psycopg.Connection) -> int:
    """The newest migration applied to the database (0: none, not a club database yet)."""
    with conn.transaction():
        exists = conn.execute("SELECT to_regclass('schema_migrations') IS NOT NULL").fetchone()[0]
        if not exists:
            return 0
        return conn.execute("SELECT coalesce(max(version), 0) FROM schema_migrations").fetchone()[0]


def migrate(conn: psycopg.Connection) -> list[Migration]:
    """Apply the migrations the database does not have yet, each in its own transaction, in order;
    returns those applied (empty: it was up to date).

    Raises:
        ClubError: the database has a newer schema than this program knows, or a file fails.
    """
    known = migrations()
    applied: list[Migration] = []
    try:
        with conn.transaction():
            conn.execute("SELECT pg_advisory_lock(%s)", (MIGRATION_LOCK,))
        try:
            with conn.transaction():
                conn.execute("CREATE TABLE IF NOT EXISTS schema_migrations (version integer PRIMARY KEY, "
                             "name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())")
            have = schema_version(conn)
            if have > len(known):
                raise ClubError(f"The club database has schema version {have}; this dealer-assist knows up to "
                                f"{len(known)}. Update dealer-assist on this machine.")
            for m in known[have:]:
                with conn.transaction():
                    conn.execute(m.sql)
                    conn.execute("INSERT INTO schema_migrations (version, name) VALUES (%s, %s)", (m.version, m.name))
                applied.append(m)
        finally:
            with conn.transaction():
                conn.execute("SELECT pg_advisory_unlock(%s)", (MIGRATION_LOCK,))
    except psycopg.Error as exc:
        raise ClubError(f"The club database's schema cannot be brought up to date ({_first_line(exc)}).") from None
    return applied


def check_ready(conn: psycopg.Connection) -> None:
    """:class:`ClubError` unless the database has every migration this program knows
    (``dealer-assist club init URL`` first)."""
    have = schema_version(conn)
    want = len(migrations())
    if have < want:
        raise ClubError(f"The club database has schema version {have}, not {want}: run "
                        f"`dealer-assist club init URL` once first.")
    if have > want:
        raise ClubError(f"The club database has schema version {have}; this dealer-assist knows up to {want}. "
                        f"Update dealer-assist on this machine.")
