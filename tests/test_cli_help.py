"""Issue 14, case 9: ``--help`` reads like the rest of the product, and what it refers to comes with the package."""

from __future__ import annotations

import re

import pytest
from typer.testing import CliRunner

from dealer_assist.cli import app
from cli_helpers import command_paths

RUNNER = CliRunner()
ENV = {"COLUMNS": "100"}


COMMANDS = command_paths()


def help_text(path: list[str]) -> str:
    result = RUNNER.invoke(app, [*path, "--help"], env=ENV)
    assert result.exit_code == 0, result.output
    return result.output


def flat(text: str) -> str:
    """The help's words on one line, without the panels' borders."""
    return " ".join(re.sub(r"[│╭╮╰╯─]", " ", text).split())


def test_every_command_is_covered():
    names = {" ".join(p) for p in COMMANDS}
    assert {"score", "read", "eval", "live", "history", "rules", "formats", "calibrate table"} <= names


@pytest.mark.parametrize("path", COMMANDS, ids=lambda p: " ".join(p) or "dealer-assist")
def test_issue14_9_help_shows_no_type_names(path):
    text = help_text(path)
    for leak in ("<bool>", "<int", "<float", "<path>", "<str>", "list[", "<text>"):
        assert leak not in text, (leak, text)
    assert "RULES.md" not in text and "FORMATS.md" not in text  # not shipped with the package
    assert "[default: (" not in text  # a default is written as typer writes one


def test_issue14_9_no_markup_is_swallowed():
    text = help_text(["calibrate", "table"])
    assert '"polygon_mm": [[x, y], ...]}' in flat(text)
    live = flat(help_text(["live"]))
    for default in ("[default: the default profile]", "[default: the first seat]", "[default: from LC_ALL / LANG]",
                    "[default: off]", "[default: split]", "[default: 4 frames a second]"):
        assert default in live, default


def test_issue14_9_eval_shows_its_defaults():
    text = flat(help_text(["eval"]))
    zero = text[text.index("--zero-joker"):]
    assert re.search(r"--zero-joker off\|per-zero\|once .*?\[default: off\]", zero)
    assert re.search(r"--tie-policy split\|rollover .*?\[default: split\]", text)
    assert "dealer-assist rules" in text and "dealer-assist formats" in text


@pytest.mark.parametrize("lang,words", [("en", ["Playing position P", "Zero-joker", "straight", "side pots"]),
                                        ("ru", ["игровое место P", "Ноль-джокер", "Стрит", "побочные банки"])])
def test_issue14_9_rules_come_with_the_package(lang, words):
    result = RUNNER.invoke(app, ["rules", "--lang", lang], env=ENV)
    assert result.exit_code == 0
    for word in words:
        assert word.lower() in result.output.lower(), word


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_issue14_9_formats_come_with_the_package(lang):
    result = RUNNER.invoke(app, ["formats", "--lang", lang], env=ENV)
    assert result.exit_code == 0
    for field in ('"position"', '"zero_joker"', '"players"', '"contributed"', '"winners"', '"settlement"',
                  '"serial"', "hand.json", "board.jpg"):
        assert field in result.output, field


def test_issue14_9_the_top_help_names_rules_and_formats():
    text = help_text([])
    assert "rules" in text and "formats" in text and "dealer-assist rules" in flat(text)
