"""Every example in a public docstring (``>>>``) runs and gives what it shows."""

from __future__ import annotations

import doctest
import importlib
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "dealer_assist"


def modules_with_examples() -> list[str]:
    out = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if ">>> " in path.read_text(encoding="utf-8"):
            parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
            out.append(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    return out


def test_the_package_has_examples_to_run():
    # the rules engine, the live tracker and the serial parser at least carry examples
    assert {"dealer_assist.rules.hands", "dealer_assist.live.tracker", "dealer_assist.vision.serials"} <= set(
        modules_with_examples())


@pytest.mark.parametrize("name", modules_with_examples())
def test_docstring_examples_run(name):
    result = doctest.testmod(importlib.import_module(name))
    assert result.attempted > 0
    assert result.failed == 0
