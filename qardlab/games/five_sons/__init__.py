"""The King of Hearts has Five Sons: a deduction game for 4 or 5 players (see RULES.md)."""

from .actions import TITLE, Ask, Claim, Deal, Neither, NoClaim, Show, phrase
from .bots import RandomAsker, ReasoningBot
from .deck import FACE_CARDS, NUMBER_CARDS, five_sons_deck
from .game import FiveSons
from .probability_bot import ProbabilityBot
from .session import FiveSonsSession, draw_for_seats

__all__ = [
    "FiveSons",
    "FiveSonsSession",
    "FACE_CARDS",
    "NUMBER_CARDS",
    "five_sons_deck",
    "Ask",
    "Show",
    "Neither",
    "Claim",
    "NoClaim",
    "Deal",
    "phrase",
    "TITLE",
    "draw_for_seats",
    "RandomAsker",
    "ReasoningBot",
    "ProbabilityBot",
]
