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

import unicodedata
from functools import lru_cache
from typing import Iterable

__all__ = ["skeleton", "look_alikes"]


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
