"""Options the dealer announces before a hand (RULES.md §2 rule 5, §3, §4, §7).

All are closed vocabularies, so they are string enums whose values are the
spellings of FORMATS.md §1:

>>> ZeroJoker("per-zero")
<ZeroJoker.PER_ZERO: 'per-zero'>
>>> TiePolicy.ROLLOVER.value
'rollover'
>>> Game("indian").pocket_notes, Game.HOLDEM.board_notes
(1, 3)
"""

from __future__ import annotations

from enum import StrEnum, unique

__all__ = ["ZeroJoker", "TiePolicy", "Game"]


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


@unique
class Game(StrEnum):
    """The game a hand (or a whole meeting) is played by, chosen before the hand (FORMATS.md §1 ``game``).

    * ``holdem`` -- Banknote Hold'em (RULES.md §1-6; the default: a record without ``game`` is one);
    * ``indian`` -- banknote Indian poker (RULES.md §7): one pocket note each, held to the forehead,
      no board, one betting round, zero-joker off, no rollover, no side pots, 2-10 players.

    The properties give each game's shape, so the engine asks the game instead of branching on it.
    """

    HOLDEM = "holdem"
    INDIAN = "indian"

    @property
    def pocket_notes(self) -> int:
        """Pocket notes each player is dealt: 2 (§1) or 1 (§7.1)."""
        return 2 if self is Game.HOLDEM else 1

    @property
    def board_notes(self) -> int:
        """Board notes a complete hand has: 3 (§1) or none (§7.1)."""
        return 3 if self is Game.HOLDEM else 0

    @property
    def max_players(self) -> int | None:
        """Most players at the table: ``None`` (no limit; RULES.md §1 says 3-8, ideally 4-6) or 10 (§7.1)."""
        return None if self is Game.HOLDEM else 10
