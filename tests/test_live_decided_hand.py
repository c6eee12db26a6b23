"""The dashboard's Session line counts the hand on screen once it is decided (seventh new-user trial H3:
the line under a decided hand showed the balances before it, ``P1 +10 · P2 -10`` where the ledger says
``+15 / -15``), in both languages and under a rollover, and agrees with ``ledger`` on the same log."""

from __future__ import annotations

from pathlib import Path

from test_newuser_trial3 import RU_ENV, invoke

from dealer_assist.ledger import build_ledger
from dealer_assist.live.history import read_log

ROOT = Path(__file__).resolve().parents[1]
TYPED = ("board 1 1115111\nboard 2 2226222\nboard 3 3337333\nP1 1 1117111\nP1 2 2227222\n"
         "P2 1 1111112\nP2 2 2222223\n")  # P=4: P1 a 7-7-7 set, P2 a 7-6-5 straight: P1 wins
TIED = ("board 1 1115111\nboard 2 2226222\nboard 3 3337333\nP1 1 1119111\nP1 2 2229222\n"
        "P2 1 4449444\nP2 2 5559555\n")  # the same ranks in both pockets (9, 9): a tie


def _live(log: Path, *extra: str) -> list:
    return ["live", "--camera", ROOT / "sample_images" / "tables" / "table_1.jpg", "--calibration",
            "sample_table_1", "--position", "4", "--no-ocr", "--no-window", "--log", log, *extra]


def _session_lines(output: str) -> list[str]:
    return [line for line in output.splitlines() if line.startswith(("Session:", "Сессия:"))]


def test_the_decided_hand_on_screen_is_in_the_session_line_as_in_the_ledger(tmp_path):
    stdin = TYPED + "chips P1 10\nchips P2 10\nnew\n" + TYPED + "chips P1 5\nchips P2 5\n"
    en = invoke([*_live(tmp_path / "en.jsonl"), "--lang", "en"], stdin=stdin)
    ru = invoke([*_live(tmp_path / "ru.jsonl"), "--lang", "ru"], stdin=stdin)
    ru_locale = invoke(_live(tmp_path / "locale.jsonl"), env=RU_ENV, stdin=stdin)
    assert en.exit_code == 0, en.output
    assert _session_lines(en.stdout)[-1] == "Session: P1 +15 · P2 -15"
    ledger = build_ledger(read_log(tmp_path / "en.jsonl")[0])
    assert {p.name: p.net for p in ledger.players} == {"P1": 15, "P2": -15}
    for result in (ru, ru_locale):
        assert result.exit_code == 0, result.output
        assert _session_lines(result.stdout)[-1] == "Сессия: P1 +15 · P2 -15"


def test_an_undecided_hand_is_not_in_the_line_and_a_rolled_over_win_is(tmp_path):
    log = tmp_path / "roll.jsonl"
    # hand 1 tied (10 each: 20 rolls over), hand 2 won by P1 (5 each): P1 gets 10 + 20 = 30, net -10 - 5 + 30
    stdin = TIED + "chips P1 10\nchips P2 10\nnew\n" + TYPED + "chips P1 5\nchips P2 5\n"
    en = invoke(_live(log, "--tie-policy", "rollover"), stdin=stdin)
    assert en.exit_code == 0, en.output
    assert _session_lines(en.stdout)[-1] == "Session: P1 +15 · P2 -15"
    assert {p.name: p.net for p in build_ledger(read_log(log)[0]).players} == {"P1": 15, "P2": -15}
    # a hand still open (the board short of a note) adds nothing: the line is the logged hands' balances
    open_hand = TYPED.replace("board 3 3337333\n", "")
    again = invoke(_live(tmp_path / "open.jsonl"), stdin=TYPED + "chips P1 10\nchips P2 10\nnew\n" + open_hand
                   + "chips P1 5\nchips P2 5\n")
    assert _session_lines(again.stdout)[-1] == "Session: P1 +10 · P2 -10"


def test_a_fold_after_the_hand_is_decided_asks_first_key_or_line():
    """Seventh new-user trial: ``f`` + Enter after the showdown took the pot from P1's face-up 7-7-7 set and gave
    it to P2 without a word. Now the first fold of a decided hand is not applied and says what it would do;
    the same fold again goes ahead; any other key drops the question. A fold before the decision is at once."""
    from dealer_assist.app.terminal import Croupier
    from test_live_night import session_for

    session = session_for()
    croupier = Croupier(session, "en")
    for line in TYPED.splitlines():
        croupier.line(line)
    assert session.view().complete and session.view().winners == ("P1",)
    for k in "fP1\r":
        croupier.key(k)
    assert "P1" not in session.state.folded
    assert croupier.feedback.text == ("The hand is decided (winner P1): folding P1 would decide it anew. Fold P1 "
                                      "again to fold; anything else keeps the hand as it is.")
    croupier.key("x")  # any other key: the question is dropped, and the next fold asks again
    for k in "fP1\r":
        croupier.key(k)
    assert "P1" not in session.state.folded and session.view().winners == ("P1",)
    for k in "fP1\r":
        croupier.key(k)
    assert "P1" in session.state.folded and session.view().winners == ("P2",)
    # in Russian, and a fold while the board is still short goes ahead at once
    ru = Croupier(session_for(), "ru")
    for line in TYPED.splitlines():
        ru.line(line)
    ru.line("fold P2")
    assert ru.feedback.text.startswith("Раздача решена (победитель P1): сброс P2 решит её заново.")
    early = session_for()
    Croupier(early, "en").line("board 1 1115111")
    assert Croupier(early, "en").line("fold P2") == ("P2 folded.", False)
