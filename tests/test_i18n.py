"""One translation table (dealer_assist.i18n): every language has every key, and the screens use it."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from dealer_assist.i18n import DASHBOARD_TEXT, KEYS_HELP, LANGUAGES, TEXT, texts

PACKAGE = Path(__file__).resolve().parents[1] / "dealer_assist"


def test_every_language_has_every_key_and_no_empty_words():
    assert set(TEXT) == set(LANGUAGES) == set(KEYS_HELP)
    keys = set(TEXT["en"])
    for lang in LANGUAGES:
        assert set(TEXT[lang]) == keys
        assert all(isinstance(v, str) and v for v in TEXT[lang].values())


def test_an_unknown_language_is_refused():
    with pytest.raises(ValueError, match="lang must be one of en, ru"):
        texts("de")


def _literal(path: Path, name: str):
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.Assign) and getattr(node.targets[0], "id", None) == name:
            return ast.literal_eval(node.value)
    return None


def test_the_dashboard_words_are_the_tables():
    # live/dashboard.py can replace its own table by DASHBOARD_TEXT: the words are the same
    own = _literal(PACKAGE / "live" / "dashboard.py", "_T")
    if own is not None:
        assert own == DASHBOARD_TEXT
    help_ = _literal(PACKAGE / "live" / "dashboard.py", "KEYS_HELP")
    if help_ is not None:
        assert help_ == KEYS_HELP


def test_no_other_module_keeps_a_translation_table():
    # a dict literal keyed by "ru" is a translation table; only i18n.py holds one
    # (the dashboard's words come from DASHBOARD_TEXT too)
    tables = []
    for path in PACKAGE.rglob("*.py"):
        rel = path.relative_to(PACKAGE).as_posix()
        text = path.read_text(encoding="utf-8")
        if rel == "i18n.py" or '"ru"' not in text:
            continue
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, ast.Dict) and any(isinstance(k, ast.Constant) and k.value == "ru" for k in node.keys):
                tables.append(f"{rel}:{node.lineno}")
    assert tables == []
