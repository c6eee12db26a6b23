"""The app layer: what each command does, as plain functions over files and options.

It wires the reader (:mod:`dealer_assist.vision`, which knows no game rules)
to the rules engine (:mod:`dealer_assist.rules`, which does no I/O) and to the
calibration profiles. Nothing here prints or parses command lines: the CLI
(:mod:`dealer_assist.cli`) calls these functions and shows their results.

Modules:

* :mod:`.readers` -- the one reader factory, with a per-process cache;
* :mod:`.photo_files` -- which files are photos, and loading them (HEIF too);
* :mod:`.photos` -- reading photos, in parallel processes (``read``, ``score``);
* :mod:`.hand_folders` -- FORMATS.md §4 hand folders: finding them, every file accounted for;
* :mod:`.table_photos` -- whole-table photos split into board and seats by a profile;
* :mod:`.verdicts` -- one hand's verdict (``scored`` / ``needs_review``) from its readings;
* :mod:`.result_files` -- the ``--json`` / ``--csv`` files of ``score``;
* :mod:`.score` -- ``score``: paths and options in, verdicts out;
* :mod:`.typed_hands` -- ``eval``: hands from a JSON Lines file or typed at the table;
* :mod:`.profiles`, :mod:`.camera_setup`, :mod:`.table_setup`, :mod:`.note_setup` --
  ``calibrate``: each job with its own sanity checks.
"""
