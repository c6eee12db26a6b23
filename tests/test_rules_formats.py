"""FORMATS.md §1-2 through the API: every bad hand is one sentence naming the field."""

from __future__ import annotations

import copy
import json
from fractions import Fraction

import pytest

from dealer_assist.rules import HandError, evaluate, parse_hand, result_to_json

GOOD = {
    "position": 4,
    "zero_joker": "off",
    "tie_policy": "split",
    "dealer": "B",
    "board": ["1119111", "1118111", "1117111"],
    "players": [
        {"name": "A", "pocket": ["1111111", "2222222"], "contributed": 5},
        {"name": "B", "pocket": ["3333333", "4444444"], "contributed": 5},
        {"name": "C", "pocket": ["5555555", "6666666"], "contributed": 7, "folded": True},
    ],
}


def hand(**changes):
    obj = copy.deepcopy(GOOD)
    for path, value in changes.items():
        target = obj
        keys = path.split("__")
        for key in keys[:-1]:
            target = target[int(key)] if isinstance(target, list) else target[key]
        last = keys[-1]
        if value is DELETE:
            del target[last]
        elif isinstance(target, list):
            target[int(last)] = value
        else:
            target[last] = value
    return obj


DELETE = object()

BAD = [
    # (changes, words the sentence must contain)
    ({"players__0__pocket__1": "222222"}, ["players[0].pocket[1]", "exactly 7 digits"]),
    ({"players__0__pocket__1": "22222222"}, ["players[0].pocket[1]", "exactly 7 digits"]),
    ({"players__0__pocket__1": "22a2222"}, ["players[0].pocket[1]", "exactly 7 digits"]),
    ({"players__0__pocket__1": 2222222}, ["players[0].pocket[1]", "string of 7 digits"]),
    ({"board__2": "123"}, ["board[2]", "exactly 7 digits"]),
    ({"position": 0}, ["position", "1 to 7"]),
    ({"position": 8}, ["position", "1 to 7"]),
    ({"position": "4"}, ["position", "integer"]),
    ({"position": 4.5}, ["position", "integer"]),
    ({"position": DELETE}, ["position", "missing"]),
    ({"board": ["1111111", "2222222", "3333333", "4444444"]}, ["board", "at most 3"]),
    ({"board": "1111111"}, ["board", "list"]),
    ({"board": DELETE}, ["board", "missing"]),
    ({"players__0__pocket": ["1111111"]}, ["players[0].pocket", "exactly 2"]),
    ({"players__0__pocket": ["1111111", "2222222", "3333333"]}, ["players[0].pocket", "exactly 2"]),
    ({"players__0__pocket": "1111111"}, ["players[0].pocket", "list"]),
    ({"players__0__pocket": DELETE}, ["players[0].pocket", "missing"]),
    ({"players": [{"name": "A", "pocket": ["1111111", "2222222"]}]}, ["players", "at least 2"]),
    ({"players": []}, ["players", "at least 2"]),
    ({"players": "A,B"}, ["players", "list"]),
    ({"players__1__name": "A"}, ["players[1].name", "another player"]),
    ({"players__1__name": ""}, ["players[1].name", "non-empty"]),
    ({"players__1__name": 7}, ["players[1].name", "string"]),
    ({"players__1": "B"}, ["players[1]", "object"]),
    ({"board__1": "1111111"}, ["1111111", "board[1]", "players[0].pocket[0]", "two places"]),
    ({"players__1__pocket__0": "2222222"}, ["2222222", "players[0].pocket[1]", "players[1].pocket[0]"]),
    ({"zero_joker": "sometimes"}, ["zero_joker must be off, per-zero or once, not 'sometimes'."]),
    ({"zero_joker": 1}, ["zero_joker must be off, per-zero or once, not 1."]),
    ({"zero_joker": False}, ["zero_joker must be off, per-zero or once, not false."]),
    ({"tie_policy": "coin-flip"}, ["tie_policy must be split or rollover, not 'coin-flip'."]),
    ({"players__0__folded": False, "players__0__revealed": "false"}, ["players[0].revealed", "got 'false'."]),
    ({"players__0__contributed": True}, ["players[0].contributed must be a whole number of chips, got true."]),
    ({"position": 10 ** 400}, ["position must be from 1 to 7, got 10000000000000000000….", "…"]),
    ({"board__0": "1" * 5_000_000}, ["board[0] must be exactly 7 digits, got '11111111111111111111…'."]),
    ({"players__0__contributed": -(10 ** 300)}, ["whole number of chips >= 0, got -1000000000000000000…."]),
    ({"players__1__name": "A" * 300, "players__0__name": "A" * 300},
     ["players[1].name '" + "A" * 20 + "…' is used by another player."]),
    ({"dealer": "Z" * 300}, ["dealer '" + "Z" * 20 + "…' is not one of the players."]),
    ({"zero_joker": "z" * 300}, ["not '" + "z" * 20 + "…'."]),
    ({"dealer": "Z"}, ["dealer", "'Z'", "not one of the players"]),
    ({"dealer": 2}, ["dealer", "name"]),
    ({"players__0__contributed": -5}, ["players[0].contributed", "whole number"]),
    ({"players__0__contributed": 2.5}, ["players[0].contributed", "whole number"]),
    ({"players__0__contributed": "5"}, ["players[0].contributed", "whole number"]),
    ({"players__0__folded": "yes"}, ["players[0].folded", "true or false"]),
    ({"players__0__revealed": 1}, ["players[0].revealed", "true or false"]),
]


@pytest.mark.parametrize("changes,words", BAD, ids=[";".join(c) for c, _ in BAD])
def test_bad_hand_is_one_sentence_naming_the_field(changes, words):
    with pytest.raises(HandError) as caught:
        parse_hand(hand(**changes), reject_duplicates=True)
    message = str(caught.value)
    for word in words:
        assert word in message
    assert message.endswith(".") and "\n" not in message
    assert message.count(". ") == 0  # one sentence


def test_duplicate_serials_are_a_warning_unless_rejected():
    obj = hand(board__1="1111111")
    result = result_to_json(evaluate(parse_hand(obj)))
    assert result["warnings"] == ["serial 1111111 appears in board[1] and players[0].pocket[0]."]
    with pytest.raises(HandError):
        parse_hand(obj, reject_duplicates=True)


@pytest.mark.parametrize("obj", [[], "hand", 4, None])
def test_a_hand_must_be_an_object(obj):
    with pytest.raises(HandError, match="JSON object"):
        parse_hand(obj)


def test_hand_error_is_a_value_error():
    assert issubclass(HandError, ValueError)


def test_unknown_fields_are_ignored_and_defaults_apply():
    obj = hand(zero_joker=DELETE, tie_policy=DELETE, dealer=DELETE)
    obj["why"] = "a note for humans"
    parsed = parse_hand(obj)
    assert (parsed.zero_joker.value, parsed.tie_policy.value, parsed.dealer) == ("off", "split", None)


def test_2_result_shape_of_formats_section_2():
    result = result_to_json(evaluate(parse_hand(hand())))
    assert json.loads(json.dumps(result)) == result
    assert list(result) == ["players", "winners", "settlement"]
    a = result["players"]["A"]
    assert (a["class"], a["ranks"], a["natural"]) == ("straight", [9, 8, 7], True)
    assert [n["from"] for n in a["notes"]] == ["board", "board", "board"]
    assert a["notes"][0] == {"serial": "1119111", "from": "board", "rank": 9, "natural": True,
                             "reason": "d4=9, natural"}
    assert result["winners"] == ["A", "B"]
    # 17 chips (C folded its 2 extra into the pot below), dealer B: order C, A, B;
    # tied A and B split 17 -> A gets the odd chip
    assert result["settlement"] == {
        "pots": [{"amount": 17, "eligible": ["A", "B"], "winners": ["A", "B"]}],
        "payouts": {"A": 9, "B": 8, "C": 0},
        "carry": 0,
    }


def test_2_no_settlement_without_contributions_and_no_hand_is_null():
    obj = hand(board=["0000000"])
    for p in obj["players"]:
        del p["contributed"]
    result = result_to_json(evaluate(parse_hand(obj)))
    assert "settlement" not in result
    assert result["players"]["A"] == {"class": None, "ranks": None, "natural": None, "notes": []}


def test_4_exact_payouts_are_fraction_strings():
    result = result_to_json(evaluate(parse_hand(hand()), exact=True))
    assert result["settlement"]["payouts"] == {"A": "17/2", "B": "17/2", "C": 0}
    assert sum(Fraction(v) for v in result["settlement"]["payouts"].values()) == 17
