"""One translation table (dealer_assist.i18n): every language has every key, and the screens use it."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from dealer_assist.i18n import KEYS_HELP, KEYS_SHORT, LANGUAGES, TEXT, knows, say, texts
from dealer_assist.i18n_phrases import PHRASES

PACKAGE = Path(__file__).resolve().parents[1] / "dealer_assist"


def test_every_language_has_every_key_and_no_empty_words():
    assert set(TEXT) == set(LANGUAGES) == set(KEYS_HELP)
    assert say("Undone.", "ru") == "Отменено." and knows("Undone.") and not knows("Undone")
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


def test_the_dashboard_keeps_no_words_of_its_own():
    # live/dashboard.py and its layouts (dashboard_*.py) take their words from i18n.TEXT, KEYS_HELP and KEYS_SHORT
    for path in sorted((PACKAGE / "live").glob("dashboard*.py")):
        for name in ("_T", "KEYS_HELP", "KEYS_SHORT"):
            assert _literal(path, name) is None


def test_the_short_keys_fit_80_columns():
    assert set(KEYS_SHORT) == set(LANGUAGES)
    assert all(len(line) <= 80 for line in KEYS_SHORT.values())


def test_every_phrase_is_a_pattern_with_a_translation():
    import re

    for pattern, ru in PHRASES:
        groups = set(re.compile(pattern).groupindex)
        assert set(re.findall(r"{(\w+)}", ru)) <= groups, pattern
        # what stays as typed: values, quoted names and fields, `commands`, options, file names, URLs, the
        # program's name and names written in CamelCase (PostgreSQL, OpenCV, ArUco), a field of a value ({k}.name)
        assert not re.search(r"[a-z]{4,}", re.sub(r"Hold'em|{\w+}(?:\.\w+)?|'[^']*'|\"[^\"]*\"|`[^`]*`|"
                                                  r"\([^)]*[a-z][^)]*\.[a-z]+[^)]*\)|\S+://\S+|\b[A-Z]\w*[A-Z]\w*|"
                                                  r"dealer-assist calibrate check|dealer-assist|hand\.json|FILE\.json|\.json|--[a-z-]+|OCR|"
                                                  r"board[\w.-]*\.jpg", "", ru)), ru


def test_no_other_module_keeps_a_translation_table():
    # a dict literal keyed by "ru" is a translation table; only i18n.py holds one (and i18n_guides.py
    # the one table of the long rules/formats texts, i18n_help.py the one of --help; the sentences, i18n_phrases.py, are no dict)
    # (the dashboard's words come from DASHBOARD_TEXT too)
    tables = []
    for path in PACKAGE.rglob("*.py"):
        rel = path.relative_to(PACKAGE).as_posix()
        text = path.read_text(encoding="utf-8")
        if rel in ("i18n.py", "i18n_guides.py", "i18n_help.py") or '"ru"' not in text:
            continue
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, ast.Dict) and any(isinstance(k, ast.Constant) and k.value == "ru" for k in node.keys):
                tables.append(f"{rel}:{node.lineno}")
    assert tables == []
