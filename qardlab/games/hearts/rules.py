"""Hearts options and the per-player-count tables of RULES.md.

``HeartsRules`` holds every option (names as OpenSpiel's Hearts parameters where one
exists); the tables say which cards leave the deck, how many each seat gets and the
default pass cycle for 3 to 6 players.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from typing import Any, Mapping

from ...cards import SUIT_MASKS, Card, Suit

__all__ = [
    "HeartsRules",
    "MOON_MODES",
    "PASS_NAMES",
    "REMOVED",
    "DEFAULT_CYCLES",
    "deck_mask",
    "hand_size",
    "pass_offset",
    "check_players",
    "HEARTS_MASK",
    "QS_BIT",
    "JD_BIT",
]

MOON_MODES = ("add_to_others", "subtract_from_shooter", "shooter_chooses")
PASS_NAMES = ("left", "right", "across", "none")

#: cards taken out of the deck, by player count, so that it deals out evenly
REMOVED: dict[int, tuple[str, ...]] = {3: ("2D",), 4: (), 5: ("2D", "2C"), 6: ("2D", "3D", "3C", "4C")}
DEFAULT_CYCLES: dict[int, tuple[str, ...]] = {
    3: ("left", "right", "none"),
    4: ("left", "right", "across", "none"),
    5: ("left", "right", "none"),
    6: ("left", "right", "across", "none"),
}

HEARTS_MASK = SUIT_MASKS[Suit.HEARTS]
QS_BIT = Card.parse("QS").bit
JD_BIT = Card.parse("JD").bit


def check_players(players: Any) -> int:
    """The player count, or ValueError naming it (Hearts is for 3 to 6)."""
    if not isinstance(players, int) or isinstance(players, bool) or not 3 <= players <= 6:
        raise ValueError(f"Hearts is played by 3 to 6 players, not {players!r}")
    return players


def deck_mask(players: int) -> int:
    """The 52-bit mask of the cards in play for this many players."""
    mask = (1 << 52) - 1
    for code in REMOVED[check_players(players)]:
        mask &= ~Card.parse(code).bit
    return mask


def hand_size(players: int) -> int:
    return bin(deck_mask(players)).count("1") // players


def pass_offset(direction: str, players: int) -> int:
    """Seats on from the passer to the receiver: left +1, right -1, across n/2, none 0."""
    if direction == "left":
        return 1
    if direction == "right":
        return players - 1
    if direction == "across":
        if players % 2:
            raise ValueError(f"there is no 'across' pass with {players} players (odd)")
        return players // 2
    if direction == "none":
        return 0
    raise ValueError(f"unknown pass direction {direction!r}: expected one of {PASS_NAMES}")


@dataclass(frozen=True)
class HeartsRules:
    """The options of Hearts; defaults as RULES.md.

    ``pass_cycle`` None means the table's cycle for the player count. ``moon`` is one of
    ``"add_to_others"`` (shooter 0, everyone else 26), ``"subtract_from_shooter"``
    (shooter -26, everyone else 0) or ``"shooter_chooses"`` (the engine takes whichever of
    the two is better for the shooter in the match; see ``Hearts``).
    """

    no_pts_on_first_trick: bool = True
    qs_breaks_hearts: bool = False
    must_break_hearts: bool = True
    jd_bonus: bool = False
    moon: str = "add_to_others"
    target: int = 100
    pass_cycle: tuple[str, ...] | None = None
    cards_to_pass: int = 3

    def __post_init__(self) -> None:
        for name in ("no_pts_on_first_trick", "qs_breaks_hearts", "must_break_hearts", "jd_bonus"):
            if not isinstance(getattr(self, name), bool):
                raise ValueError(f"rule {name} must be True or False, got {getattr(self, name)!r}")
        if self.moon not in MOON_MODES:
            raise ValueError(f"rule moon must be one of {MOON_MODES}, got {self.moon!r}")
        if not isinstance(self.target, int) or isinstance(self.target, bool) or self.target < 1:
            raise ValueError(f"rule target must be a positive integer, got {self.target!r}")
        if (
            not isinstance(self.cards_to_pass, int)
            or isinstance(self.cards_to_pass, bool)
            or not 0 <= self.cards_to_pass <= 8
        ):
            raise ValueError(f"rule cards_to_pass must be an integer 0..8, got {self.cards_to_pass!r}")
        if self.pass_cycle is not None:
            cycle = self.pass_cycle
            if isinstance(cycle, str) or not isinstance(cycle, (tuple, list)) or not cycle:
                raise ValueError(f"rule pass_cycle must be a non-empty list of directions, got {cycle!r}")
            for d in cycle:
                if d not in PASS_NAMES:
                    raise ValueError(
                        f"rule pass_cycle: unknown direction {d!r}, expected one of {PASS_NAMES}"
                    )
            object.__setattr__(self, "pass_cycle", tuple(cycle))

    def cycle_for(self, players: int) -> tuple[str, ...]:
        """The pass cycle used with this many players (checked: no 'across' when odd)."""
        cycle = self.pass_cycle or DEFAULT_CYCLES[check_players(players)]
        for d in cycle:
            pass_offset(d, players)
        return cycle

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        if d["pass_cycle"] is not None:
            d["pass_cycle"] = list(d["pass_cycle"])
        return d

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> HeartsRules:
        """Rules from a record's dict; ValueError naming an unknown or bad option."""
        if isinstance(data, HeartsRules):
            return data
        if not isinstance(data, Mapping):
            raise ValueError(f"Hearts rules must be an object, got {data!r}")
        known = {f.name for f in fields(cls)}
        unknown = set(data) - known
        if unknown:
            raise ValueError(f"unknown Hearts rule options {sorted(unknown)}; known: {sorted(known)}")
        return cls(**dict(data))
