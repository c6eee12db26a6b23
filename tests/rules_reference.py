"""Plain, slow reference readings of RULES.md §2-3 used by the tests as oracles.

Written straight from the rule text, independently of the engine's tables and
fast paths, so the two can be compared on random input.
"""

from __future__ import annotations

from collections import Counter
from itertools import combinations, product

CLASS_ORDER = {"high": 0, "pair": 1, "straight": 2, "set": 3}


def ranks_of(serial: str, position: int, pocket: bool, zero_joker: str) -> dict[int, bool]:
    """Every rank the note may take -> whether that rank can be had naturally (§2)."""
    d = [int(c) for c in serial]
    if not any(d):
        return {}  # rule 2
    p = position - 1

    def walk(step: int) -> int:
        i = p
        while True:
            i = (i + step) % 7  # ring rule
            if d[i]:
                return d[i]

    if d[p]:
        bases = [(d[p], True)]  # rule 1
    elif pocket:
        bases = [(walk(+1), False), (walk(-1), False)]  # rule 4
    else:
        bases = [(walk(+1), False)]  # rule 3
    jokers = 0
    if pocket and zero_joker != "off":  # rules 5-6
        jokers = sum(1 for i, x in enumerate(d) if x == 0 and i != p)
        if zero_joker == "once":
            jokers = min(jokers, 1)
    out: dict[int, bool] = {}
    for base, natural in bases:
        for rank in range(1, 10):
            distance = min((rank - base) % 9, (base - rank) % 9)
            if distance <= jokers:
                out[rank] = out.get(rank, False) or (natural and distance == 0)
    return out


def hand_of(ranks: tuple[int, int, int]) -> tuple[str, tuple[int, ...]]:
    """Class and ranks by significance, read from the §3 table."""
    counts = Counter(ranks)
    by_count = sorted(counts.items(), key=lambda kv: (-kv[1], -kv[0]))
    if len(counts) == 1:
        return "set", tuple(ranks)
    if len(counts) == 2:
        (pair, _), (kicker, _) = by_count
        return "pair", (pair, pair, kicker)
    top = max(ranks)
    if sorted(ranks) == [top - 2, top - 1, top]:
        return "straight", (top, top - 1, top - 2)
    return "high", tuple(sorted(ranks, reverse=True))


def best_of(notes: list[dict[int, bool]]) -> tuple[str, tuple[int, ...], bool] | None:
    """Best (class, ranks, natural) over every 3 notes and every rank choice (§3)."""
    best = None
    best_key = None
    live = [n for n in notes if n]
    for trio in combinations(live, 3):
        for choice in product(*(list(n.items()) for n in trio)):
            cls, ranks = hand_of(tuple(r for r, _ in choice))
            natural = all(nat for _, nat in choice)
            key = (CLASS_ORDER[cls], ranks, natural)
            if best_key is None or key > best_key:
                best_key, best = key, (cls, ranks, natural)
    return best
