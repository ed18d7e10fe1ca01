"""Hearts for 3 to 6 players: the step engine, its rules, bots, knowledge and a batch simulator."""

from .game import Deal, Hearts, Trick
from .rules import HeartsRules

__all__ = ["Hearts", "HeartsRules", "Deal", "Trick"]
