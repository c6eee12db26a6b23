"""Every refusal the program can say is in the sentence table, so none is English under ``--lang ru``.

Five new-user trials found, one by one, refusals said in English in Russian (a folder given for
``--json``, an empty photo, a single photo's hint, live's stdin "Refused:" lines): each sentence was
added to :data:`dealer_assist.i18n_phrases.PHRASES` after a croupier met it. This test ends that class
of finding: :func:`sentence_literals.refusals` finds every sentence the source raises, fails with,
prints as an error or returns as a refusal, every branch of it, and each must be one
:func:`dealer_assist.i18n.say` says in Russian whatever its values (``known_shape``). A new refusal
without its Russian fails here, naming its file and line.
"""

from __future__ import annotations

import pytest

from dealer_assist.i18n import knows, say

from sentence_literals import HOLE, Refusal, copied_english, known_shape, refusals, refusals_in

#: Sentences no command shows to a croupier, with why (a mistake of the program's own code, or a module
#: no command uses). Keyed by the sentence with ``{}`` for each value.
NOT_SHOWN = {
    "balances add up to {}, not 0.": "ledger.fewest_transfers' check of its caller (the ledger's nets sum to 0)",
    "since must carry a time zone (an aware datetime).": "LedgerBuilder's check of its caller (the CLI passes an "
                                                          "aware time: cli/options.py: since_time)",
    "indian_odds takes an Indian poker hand, got game '{}'.": "the odds command chooses by the hand's game",
    "all_in_odds takes a Hold'em hand; an Indian poker hand's odds are indian_odds'.": "as above",
    "players[{}] must be a Player.": "the Hand object built in code (a hands file is parsed by rules/formats.py "
                                     "first, which says its own sentences)",
}
#: Sentences the walk cannot build whole (a part added with ``+=``), each with the sentences they are, all of
#: which must be known.
BUILT_UP = {
    "{}: {} of {} pocket notes known{}.": [
        "P1: 1 of 2 pocket notes known.",
        "P1: 1 of 2 pocket notes known (none on the table now: the camera saw this seat's notes earlier; type them, "
        "fold the seat or call the showdown).",
        "P1: 0 of 2 pocket notes known (the croupier put this seat in the hand; type them, fold the seat or call the "
        "showdown)."],
    "{}: the note is not known yet{}.": [
        "P1: the note is not known yet.",
        "P1: the note is not known yet (none on the table now: the camera saw this seat's notes earlier; type them, "
        "fold the seat or call the showdown).",
        "P1: the note is not known yet (the croupier put this seat in the hand; type them, fold the seat or call the "
        "showdown)."],
}
#: Modules whose refusals no command shows (the betting state machine is a library: no command imports it).
NOT_SHOWN_MODULES = {"rules/betting.py": "no command uses the betting state machine (README: the betting round)"}


def _shown(refusal: Refusal) -> bool:
    return refusal.where.split(":")[0] not in NOT_SHOWN_MODULES


def test_every_refusal_of_the_source_is_in_the_sentence_table():
    found = [r for r in refusals() if _shown(r)]
    assert len(found) > 250  # the walk finds the refusals (318 when this test was written)
    missing = sorted({f"{r.where}: {shape.replace(HOLE, '{}')}" for r in found for shape in r.shapes()
                      if not known_shape(shape) and shape.replace(HOLE, "{}") not in {**NOT_SHOWN, **BUILT_UP}})
    assert missing == [], "refusals with no Russian in i18n_phrases.PHRASES:\n" + "\n".join(missing)
    for sentences in BUILT_UP.values():
        for sentence in sentences:
            assert knows(sentence) and say(sentence, "ru") != sentence, sentence


def test_no_pattern_copies_english_words_of_a_refusal():
    """A pattern meant for a value must not take a refusal's words as its value: ``dealer 'zz' is not one of the
    players.`` was said ``dealer 'zz' — не из the players.`` by the log validator's "X is not one of A, B"
    (sixth new-user trial M2)."""
    copied = sorted({f"{r.where}: {shape.replace(HOLE, '{}')}: {words}" for r in refusals() if _shown(r)
                     for shape in r.shapes() if (words := copied_english(shape))})
    assert copied == [], "\n".join(copied)
    assert copied_english(f"dealer '{HOLE}' is not one of the players.") == []
    assert say("dealer 'zz' is not one of the players.", "ru") == "дилер 'zz' — не из игроков."


def test_the_sentences_kept_out_are_still_in_the_source():
    """A sentence kept out above that the source no longer says is taken out of the list too."""
    shapes = {shape.replace(HOLE, "{}") for r in refusals() for shape in r.shapes()}
    assert set(NOT_SHOWN) <= shapes, set(NOT_SHOWN) - shapes
    assert all(any(r.where.startswith(m) for r in refusals()) for m in NOT_SHOWN_MODULES)


@pytest.mark.parametrize("shape, english", [
    # M1: the hint is a branch of its own (a local variable holding an f-string, or "")
    ("{}: a photo given on its own is read as a whole-table photo, which needs --calibration NAME (the profile "
     "whose zones split it into board and seats); to score the hand it belongs to, give its folder {}.",
     "/h/a.jpg: a photo given on its own is read as a whole-table photo, which needs --calibration NAME (the profile "
     "whose zones split it into board and seats); to score the hand it belongs to, give its folder /h."),
    # M2: a refusal returned by a check (app/result_files.py: check_output_path), an ImageError
    ("cannot write {}: it is a folder.", "cannot write /tmp: it is a folder."),
    ("cannot write {}: the folder {} does not exist.", "cannot write /n/x.json: the folder /n does not exist."),
    ("{}: the file is empty.", "/tmp/e.jpg: the file is empty."),
])
def test_the_trial_s_refusals_are_found_and_known(shape, english):
    """The walk finds the fifth trial's refusals (it would have failed on each before they were translated)."""
    shapes = {s.replace(HOLE, "{}") for r in refusals() for s in r.shapes()}
    assert shape in shapes
    assert knows(english) and say(english, "ru") != english


def test_a_shape_with_a_sentence_inside_needs_that_sentence_known():
    """``Error: {say}``-like groups are said in turn: an English inner sentence is not "known"."""
    assert known_shape(f"Error: cannot write {HOLE}: it is a folder.")
    assert not known_shape("Error: nobody has written this sentence yet.")
    assert not known_shape(f"line {HOLE}: nobody has written this sentence yet.")


def test_the_operating_system_s_words_are_said_in_russian():
    """An OS error inside a sentence (``(permission denied)``) is said in Russian, in any case."""
    assert say("/x: cannot be read (Permission denied).", "ru") == "/x: не читается (доступ запрещён)."
    assert say("cannot write /x: read-only file system.", "ru") == "нельзя записать /x: файловая система только для чтения."
    assert (say("cannot write /x: the folder / does not take new files (permission denied).", "ru")
            == "нельзя записать /x: папка / не принимает новые файлы (доступ запрещён).")


def test_the_walk_finds_live_s_old_refused_line_and_a_returned_refusal():
    """M3's line as it was (``echo_err(f"Refused: {msg}" if refused else f"Error: {msg}")``) gives two branches,
    and the "Refused:" one is no sentence of the table; a refusal function's ``return`` is found too."""
    old = refusals_in('def run(msg, refused):\n    echo_err(f"Refused: {msg}" if refused else f"Error: {msg}")\n',
                      "app/frame_loop.py")
    assert [list(r.shapes()) for r in old] == [[f"Refused: {HOLE}", f"Error: {HOLE}"]]
    assert not known_shape(f"Refused: {HOLE}") and known_shape(f"Error: {HOLE}")
    hinted = refusals_in('def f(p, ok):\n    hint = f"; give {p}" if ok else ""\n    raise InputError(f"{p}: no{hint}.")\n',
                         "app/score.py")
    assert sorted(s for r in hinted for s in r.shapes()) == [f"{HOLE}: no.", f"{HOLE}: no; give {HOLE}."]
    returned = refusals_in('def check_output_path(p):\n    return f"cannot write {p!r}: it is a folder."\n',
                           "app/result_files.py")
    assert [list(r.shapes()) for r in returned] == [[f"cannot write '{HOLE}': it is a folder."]]


def test_every_sentence_on_standard_error_goes_through_the_table():
    """``echo_err`` prints what it is given: a sentence must reach it through ``say()`` or ``error_text()`` (in
    the command's language), never as English as it stands (live's stdin ``Refused: …`` lines were, fifth
    new-user trial M3; so were live's notices at the end, read's missing note layout, score's full disk)."""
    import ast

    from sentence_literals import PACKAGE, _name

    raw = []
    for path in sorted(PACKAGE.rglob("*.py")):
        rel = path.relative_to(PACKAGE).as_posix()
        if rel == "cli/options.py" or "synth" in rel:  # echo_err itself, and the developers' generator
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and _name(node.func) == "echo_err" and node.args:
                arg = node.args[0]
                while isinstance(arg, ast.Call) and _name(arg.func) == "safe_text" and arg.args:
                    arg = arg.args[0]
                # say(), error_text(), or a TEXT entry filled in (texts(lang)["refused"].format(...))
                if not (isinstance(arg, ast.Call) and _name(arg.func) in ("say", "error_text", "format")):
                    raw.append(f"{rel}:{node.lineno}")
    assert raw == []


def test_the_hand_log_s_warnings_are_said_in_the_command_s_language(tmp_path):
    """``history``/``ledger`` warned of a log's bad lines in English under ``--lang ru`` (print_warnings said
    them as they stood)."""
    from pathlib import Path

    from test_newuser_trial3 import both, invoke

    log = tmp_path / "hands.jsonl"
    table = Path(__file__).resolve().parents[1] / "sample_images" / "tables" / "table_1.jpg"
    made = invoke(["live", "--camera", table, "--calibration", "sample_table_1", "--position", "4", "--no-ocr",
                   "--no-window", "--log", log], stdin="board 1 2572845\nP1 1 7008302\nP1 2 5546980\nP2 1 4448050\n"
                                                    "P2 2 7040820\nnew\n")
    assert made.exit_code == 0 and len(log.read_text().splitlines()) == 1, made.output
    with log.open("a") as fh:
        fh.write('{"schema": "x"}\nnot json\n')
    for command in ("history", "ledger"):
        en, ru, ru_locale = both([command, "--log", log])
        assert en.exit_code == ru.exit_code == ru_locale.exit_code == 0, en.output
        assert en.stderr.splitlines() == [f"warning: line 2 of {log} is not a hand record; skipped.",
                                          f"warning: line 3 of {log} is not a whole record (cut by a crash?); skipped."]
        for result in (ru, ru_locale):
            assert result.stderr.splitlines() == [
                f"предупреждение: строка 2 в {log} — не запись раздачи; пропущена.",
                f"предупреждение: строка 3 в {log} — неполная запись (оборвана сбоем?); пропущена."], result.stderr
