"""The golden rule cases (../shared/golden/hands.jsonl) and how a result is checked."""

from __future__ import annotations

import json
from pathlib import Path

SHARED = Path(__file__).resolve().parents[1].parent / "shared"
GOLDEN = SHARED / "golden" / "hands.jsonl"


def golden_cases() -> list[tuple[int, dict]]:
    """(line number, hand object) for every line of the golden file."""
    lines = GOLDEN.read_text(encoding="utf-8").splitlines()
    return [(n, json.loads(line)) for n, line in enumerate(lines, 1) if line.strip()]


def case_id(case: tuple[int, dict]) -> str:
    n, obj = case
    why = obj.get("why")
    return f"line{n}" + (f"-{why[:40]}" if why else "")


def differences(got: dict, expect: dict) -> list[str]:
    """Where a FORMATS.md §2 result disagrees with ``expect`` (class, ranks,
    natural per player; winners; settlement)."""
    out = []
    for name, want in expect["players"].items():
        have = got["players"].get(name)
        if have is None:
            out.append(f"{name}: missing")
            continue
        for key, value in want.items():
            if have.get(key) != value:
                out.append(f"{name}.{key}: want {value!r}, got {have.get(key)!r}")
    if got["winners"] != expect["winners"]:
        out.append(f"winners: want {expect['winners']}, got {got['winners']}")
    if "settlement" in expect and got.get("settlement") != expect["settlement"]:
        out.append(f"settlement: want {expect['settlement']}, got {got.get('settlement')}")
    return out
