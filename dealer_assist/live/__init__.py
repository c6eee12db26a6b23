"""Live mode: a camera over the table, serials read as notes are dealt, the showdown on a dashboard.

Modules, after the domain nouns; the pure ones do no I/O:

* :mod:`~.tracker` (pure): notes followed across reads, a serial trusted when
  the same 7 digits are read in k of the last N reads;
* :mod:`~.changes` (pure): where the table changed on a low-resolution top
  view, and whether it is still (no hand moving over it);
* :mod:`~.table_state` (pure): notes to board and seats, street, best hands,
  folds, typed serials, undo, dealer button, showdown and settlement
  (RULES.md §2-5 through :mod:`dealer_assist.rules`);
* :mod:`~.dashboard` (pure): the table state as a rich renderable;
* :mod:`~.history`: the JSON Lines hand log (one fsynced line per finished hand);
* :mod:`~.worker`: the reader run off the display loop, in its own process;
* :mod:`~.frame_source`: frame sources (camera index, video file, URL, image glob),
  camera-lost detection and reconnection with backoff;
* :mod:`~.session`: the frame loop's logic, wiring the above together;
* :mod:`~.commands`: the croupier's commands (keys and typed lines).

The command is ``dealer-assist live`` (:mod:`dealer_assist.cli.live_cmd`).
"""
