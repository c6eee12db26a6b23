"""RULES.md §2: playing position, note rank, zero shifts, ring rule, zero-joker."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dealer_assist.rules import HandError, Shift, ZeroJoker, rank_options
from rules_reference import ranks_of

serials = st.text(alphabet="0123456789", min_size=7, max_size=7)
# zeros are the interesting digit: draw them often
zero_heavy = st.lists(st.sampled_from("0000123456789"), min_size=7, max_size=7).map("".join)
positions = st.integers(1, 7)
jokers = st.sampled_from(["off", "per-zero", "once"])


def ranks(serial, position, pocket=False, zero_joker="off"):
    return [(o.rank, o.natural) for o in rank_options(serial, position, pocket=pocket, zero_joker=zero_joker)]


def test_2_rule1_rank_is_digit_at_position_counted_from_left():
    assert [ranks("1234567", p) for p in range(1, 8)] == [[(d, True)] for d in range(1, 8)]


def test_2_rule2_all_zeros_is_dead_on_board_and_pocket():
    assert rank_options("0000000", 3) == ()
    assert rank_options("0000000", 3, pocket=True, zero_joker="per-zero") == ()


def test_2_rule3_board_zero_moves_right_and_wraps():
    assert ranks("1230567", 4) == [(5, False)]
    assert ranks("1230007", 4) == [(7, False)]
    option = rank_options("9000000", 7)[0]  # d7=0 -> wrap to d1
    assert (option.rank, option.source, option.wrapped, option.shift) == (9, 1, True, Shift.RIGHT)
    assert option.reason == "d7=0 → right (wrap) to d1=9, modified"


def test_2_rule3_board_note_never_goes_left():
    assert ranks("1290611", 4, pocket=False) == [(6, False)]


def test_2_rule4_pocket_zero_offers_left_and_right():
    options = rank_options("1290611", 4, pocket=True)
    assert [(o.rank, o.shift, o.source) for o in options] == [(9, Shift.LEFT, 3), (6, Shift.RIGHT, 5)]
    assert [o.reason for o in options] == [
        "d4=0 → left to d3=9, modified",
        "d4=0 → right to d5=6, modified",
    ]


def test_2_rule4_left_wraps_from_1_to_7():
    options = rank_options("0500008", 1, pocket=True)
    assert {(o.rank, o.source, o.wrapped) for o in options} == {(5, 2, False), (8, 7, True)}


def test_2_rule4_single_nonzero_digit_reached_from_either_side():
    options = rank_options("0000003", 3, pocket=True)
    assert [(o.rank, o.shift) for o in options] == [(3, Shift.EITHER)]
    assert options[0].reason == "d3=0 → left or right to d7=3, modified"


def test_2_rule5_per_zero_jokers_are_cumulative_on_the_ring():
    # 3100111 at P=1: two joker zeros -> 3 +- 2 = 1..5
    assert sorted(r for r, _ in ranks("3100111", 1, True, "per-zero")) == [1, 2, 3, 4, 5]
    # 9+1 = 1 and 1-1 = 9 on the ring
    assert sorted(r for r, _ in ranks("9111110", 1, True, "per-zero")) == [1, 8, 9]
    assert sorted(r for r, _ in ranks("1101111", 2, True, "per-zero")) == [1, 2, 9]


def test_2_rule5_once_moves_by_one_whatever_the_zero_count():
    assert sorted(r for r, _ in ranks("3100111", 1, True, "once")) == [2, 3, 4]


def test_2_rule5_jokers_only_on_pocket_notes_and_only_when_on():
    assert ranks("3100111", 1, False, "per-zero") == [(3, True)]
    assert ranks("3100111", 1, True, "off") == [(3, True)]


def test_2_rule5_joker_changed_rank_is_modified_unchanged_stays_natural():
    options = {o.rank: o for o in rank_options("9111110", 1, pocket=True, zero_joker="per-zero")}
    assert options[9].natural and options[9].joker == 0
    assert not options[1].natural and options[1].joker == 1
    assert options[1].reason == "d1=9, joker +1 → 1, modified"


def test_2_rule6_zero_at_position_is_not_a_joker():
    # the only zero is the one at P=4: it shifts the rank but gives no joker step
    assert sorted(r for r, _ in ranks("1290611", 4, True, "per-zero")) == [6, 9]


def test_2_four_jokers_reach_every_rank():
    assert sorted(r for r, _ in ranks("5000011", 1, True, "per-zero")) == list(range(1, 10))


@pytest.mark.parametrize("serial", ["123456", "12345678", "12a4567", "１２３４５６７", "", " 123456"])
def test_2_serial_must_be_exactly_7_ascii_digits(serial):
    with pytest.raises(HandError, match="exactly 7 digits"):
        rank_options(serial, 1)


@pytest.mark.parametrize("position", [0, 8, -1, "4", 4.0, True])
def test_2_position_must_be_integer_1_to_7(position):
    with pytest.raises(HandError, match="position"):
        rank_options("1234567", position)


def test_2_unknown_zero_joker_value_is_a_hand_error():
    with pytest.raises(HandError, match="zero_joker"):
        rank_options("1034567", 2, pocket=True, zero_joker="sometimes")


@settings(max_examples=400, deadline=None)
@given(serial=st.one_of(serials, zero_heavy), position=positions, pocket=st.booleans(), zero_joker=jokers)
def test_2_rank_options_match_a_literal_reading_of_the_rules(serial, position, pocket, zero_joker):
    got = {o.rank: o.natural for o in rank_options(serial, position, pocket=pocket, zero_joker=zero_joker)}
    assert got == ranks_of(serial, position, pocket, zero_joker)


@settings(max_examples=200, deadline=None)
@given(serial=zero_heavy, position=positions, pocket=st.booleans(), zero_joker=jokers)
def test_2_every_option_explains_itself_consistently(serial, position, pocket, zero_joker):
    for o in rank_options(serial, position, pocket=pocket, zero_joker=zero_joker):
        assert serial[o.source - 1] == str(o.base) != "0"
        assert o.rank == (o.base - 1 + o.joker) % 9 + 1
        assert o.natural == (o.source == position and o.joker == 0)
        assert o.reason.endswith("natural" if o.natural else "modified")
        assert o.reason.startswith(f"d{position}=")
        assert o.code == 2 * (o.rank - 1) + o.natural


def test_options_are_string_enums_with_format_spellings():
    assert [z.value for z in ZeroJoker] == ["off", "per-zero", "once"]
    assert ZeroJoker("once") is ZeroJoker.ONCE
