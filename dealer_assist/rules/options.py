"""Options the dealer announces before a hand (RULES.md §2 rule 5, §3, §4).

Both are closed vocabularies, so they are string enums whose values are the
spellings of FORMATS.md §1:

>>> ZeroJoker("per-zero")
<ZeroJoker.PER_ZERO: 'per-zero'>
>>> TiePolicy.ROLLOVER.value
'rollover'
"""

from __future__ import annotations

from enum import StrEnum, unique

__all__ = ["ZeroJoker", "TiePolicy"]


@unique
class ZeroJoker(StrEnum):
    """Zero-joker option ("Ноль-джокер", RULES.md §2 rules 5-6).

    * ``off`` -- zeros away from the playing position do nothing (default);
    * ``per-zero`` -- each such zero on a pocket note moves the rank by ±1 on the
      ring 1..9, cumulatively (k zeros: any rank at ring distance <= k);
    * ``once`` -- a pocket note with one or more such zeros moves by ±1 at most.
    """

    OFF = "off"
    PER_ZERO = "per-zero"
    ONCE = "once"


@unique
class TiePolicy(StrEnum):
    """What happens to a pot whose best hands tie exactly (RULES.md §3, §4).

    * ``split`` -- equal shares, odd chips from the dealer's left (default);
    * ``rollover`` -- the pot carries over to the next hand ("Roll Over").
    """

    SPLIT = "split"
    ROLLOVER = "rollover"
