"""Player names that print alike: one person must not become two players, nor two people one.

Names are compared in Unicode NFC (:func:`dealer_assist.live.log_record.normal_name`:
"Zoé" typed composed or decomposed is one name). Names that are still different
strings but *look* alike -- another case ("anna" / "Anna"), spaces ("Anna " /
"Anna"), an invisible character, or a letter of another script that is drawn
the same (a Cyrillic "А" in "Аnna") -- are different players to the ledger, so
their transfers would print the same; :func:`look_alikes` finds them, for a
warning. Which letters are drawn the same is Unicode's confusables table
(UTS #39), from the ``confusable_homoglyphs`` package.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache
from typing import Iterable

__all__ = ["skeleton", "look_alikes", "NUMBERED_SEAT", "numbered_seat", "is_numbered_seat"]

#: A seat named by its number, ``P1`` .. ``Pn``: the name the program gives a seat it numbers (the
#: sample profiles' seats, :func:`dealer_assist.synth.table.make_table`'s and the rendered scenes'
#: default). It names a place at one table, not a person: at two tables ``P3`` is two people. A seat
#: named after its player (``calibrate table --seats alice,boris``) names that player.
NUMBERED_SEAT = re.compile(r"P[1-9][0-9]{0,2}")


def numbered_seat(number: int) -> str:
    """The name of seat ``number`` (1, 2, ...) when seats are numbered: ``"P3"``."""
    return f"P{number}"


def is_numbered_seat(name: object) -> bool:
    """Whether ``name`` is a seat's number name (:data:`NUMBERED_SEAT`), not a player's name.

    >>> is_numbered_seat("P3"), is_numbered_seat("alice"), is_numbered_seat("P03"), is_numbered_seat("p3")
    (True, False, False, False)
    """
    return isinstance(name, str) and NUMBERED_SEAT.fullmatch(name) is not None


@lru_cache(maxsize=8192)
def _latin(ch: str) -> str:
    """The Latin letter ``ch`` is drawn like (per the confusables table), else ``ch``."""
    if ch.isascii():
        return ch
    from confusable_homoglyphs import confusables

    found = confusables.is_confusable(ch, greedy=True, preferred_aliases=["latin"])
    for entry in found or ():
        for glyph in entry.get("homoglyphs", ()):
            if glyph.get("n", "").startswith("LATIN") and glyph.get("c"):
                return glyph["c"].casefold()
    return ch


def skeleton(name: str) -> str:
    """What ``name`` looks like: NFKC, invisible characters dropped, spaces collapsed, case folded,
    letters of other scripts drawn like Latin ones replaced by those.

    >>> skeleton(" Anna ") == skeleton("anna") == skeleton("\\u0410nna")
    True
    >>> skeleton("Anna") == skeleton("Anne")
    False
    """
    text = unicodedata.normalize("NFKC", name)
    text = "".join(ch for ch in text if unicodedata.category(ch) not in ("Cf", "Cc"))
    text = " ".join(text.split()).casefold()
    return "".join(_latin(ch) for ch in text)


def look_alikes(names: Iterable[str]) -> list[tuple[str, ...]]:
    """Groups (first-seen order) of two or more different names that look alike (same :func:`skeleton`).

    >>> look_alikes(["Zoé", "Anna", "\\u0410nna", "Bob", "Anna "])
    [('Anna', 'Аnna', 'Anna ')]
    """
    groups: dict[str, list[str]] = {}
    for name in names:
        group = groups.setdefault(skeleton(name), [])
        if name not in group:
            group.append(name)
    return [tuple(g) for g in groups.values() if len(g) > 1]
