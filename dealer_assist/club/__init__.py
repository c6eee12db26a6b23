"""The club: several tables' hands in one PostgreSQL database (issue #24).

Each table stays the source of truth: ``dealer-assist live`` appends every finished
hand to its local log first (fsynced), and with ``--club URL`` an :class:`~.outbox.Outbox`
sends the log's records to the club's database afterwards, in order, retried with
backoff, each stored exactly once (keyed by table, session and hand). A club is read
back by ``serve --club`` (every table on one screen, pushed by LISTEN/NOTIFY),
``ledger --club`` and ``history --club``.

* :mod:`.db` — connecting (one sentence when it fails), the versioned migrations in
  ``migrations/`` (``dealer-assist club init``).
* :mod:`.store` — writing hands and table states, reading them back.
* :mod:`.records` — which log lines are hand records the club stores.
* :mod:`.outbox` — the table's side: the log as an outbox, the publisher thread.
* :mod:`.watch` / :mod:`.web` — the club's spectator screen.
* :mod:`.cluster` — a throwaway PostgreSQL server for the tests and the benchmark.
"""
