"""The spectator screen: a read-only, delayed web page of the hand at the table.

* :mod:`.state` — the small state file ``dealer-assist live`` writes for the
  hand in play (:func:`~.state.state_from_view`, :func:`~.state.write_state`).
* :mod:`.public` — what a spectator may see: a state file or a hand-log record
  filtered down to public facts (no pocket serial of a seat that has not
  revealed), and the session's balances.
* :mod:`.timeline` — the delay: snapshots with their times, the newest one
  older than the delay is served.
* :mod:`.follow` — following the hand log (tail, torn last lines) and the state file.
* :mod:`.app` — the Starlette application (page, server-sent events, token).
* :mod:`.server` — checking ``--host`` / ``--port``, binding, running uvicorn.
"""
