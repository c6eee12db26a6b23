"""Shared fixtures: where ../shared lives, and one reader for the session."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared"
REAL_PHOTOS = SHARED / "real_photos"
REAL_HANDS = SHARED / "real_hands"


def pytest_configure(config):
    # The suite reads the rules cases and the real photos from ../shared (they
    # carry no licence and are never copied in). Say so plainly when it is missing.
    if not (SHARED / "real_photos" / "labels.json").is_file():
        raise pytest.UsageError(
            f"the shared reference folder is missing: {SHARED} must sit beside the repository "
            "(it holds golden/, real_photos/ and real_hands/; see README.md)."
        )


# The club's real PostgreSQL server (one per test session) and a fresh database per test.
from club_helpers import club_url, pg_cluster  # noqa: E402,F401


@pytest.fixture(scope="session")
def real_labels() -> list[dict]:
    return json.loads((REAL_PHOTOS / "labels.json").read_text(encoding="utf-8"))


@pytest.fixture(scope="session")
def serial_reader():
    from dealer_assist.vision.reader import SerialReader

    return SerialReader()


# -- the slow lane --------------------------------------------------------------------
# `make test-fast` runs `pytest -m "not slow"`. Test files of the app layer, the CLI and
# calibration mark their slow tests themselves (@pytest.mark.slow). The modules below
# belong to other areas (live, reader, synth, rules, ledger) and are marked here, by
# module ("*") or by test function, until their owners mark them in the files: each
# took over a second (OCR reads, rendered scenes, processes, large property runs).
SLOW_ELSEWHERE = {
    "test_live_headless.py": "*",
    "test_reader_real.py": "*",
    "test_reader_fastpath.py": "*",
    "test_reader_synthetic.py": "*",
    "test_live_cli.py": {"test_a_camera_too_far_to_read_is_said_on_stderr_and_in_the_json",
                         "test_frames_of_another_shape_than_the_calibration",
                         "test_typed_hand_gives_the_showdown_as_json_and_is_logged"},
    "test_live_history.py": {"test_a_decided_hand_is_logged_when_the_process_is_told_to_stop",
                             "test_log_survives_a_killed_process"},
    "test_live_session.py": {"test_a_note_still_unreadable_after_its_attempts_is_read_again_now_and_then",
                             "test_a_hand_dealt_read_decided_and_cleared",
                             "test_a_note_seen_by_one_print_is_confirmed_from_that_print_without_detection",
                             "test_a_print_without_a_serial_on_no_known_note_gets_a_read_of_all_the_note_around_it",
                             "test_notes_already_on_the_table_are_found_at_start"},
    "test_ledger.py": {"test_chips_are_conserved_and_the_transfers_settle_everyone",
                       "test_fewest_transfers_is_the_proved_minimum"},
    "test_rules_hands.py": {"test_3_best_hand_never_gets_worse_when_a_note_is_added",
                            "test_3_best_hand_matches_brute_force_reference",
                            "test_3_best_hand_never_gets_worse_when_the_joker_is_turned_on",
                            "test_3_exhaustive_order_of_all_729_triples_natural_and_modified"},
    "test_rules_notes.py": {"test_2_rank_options_match_a_literal_reading_of_the_rules",
                            "test_2_every_option_explains_itself_consistently"},
    "test_rules_odds.py": {"test_odds_agree_with_20000_random_deals_within_4_standard_errors"},
    "test_rules_settlement.py": {"test_4_chips_are_conserved", "test_4_only_contenders_win_and_shares_differ_by_at_most_one_chip",
                                 "test_4_split_shares_are_equal_up_to_one_odd_chip_in_seat_order"},
    "test_rules_showdown.py": {"test_3_4_seat_order_does_not_change_anyone_s_hand_or_the_winners",
                               "test_4_winners_hold_the_best_hand_among_contenders"},
    "test_synth.py": "*",
    "test_vision_images.py": {"test_huge_image_is_downscaled"},
}


def pytest_collection_modifyitems(config, items):
    for item in items:
        marked = SLOW_ELSEWHERE.get(Path(str(item.fspath)).name)
        if marked == "*" or (marked and item.originalname in marked):
            item.add_marker(pytest.mark.slow)
