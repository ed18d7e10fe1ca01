"""What every qardlab game shares: the Game protocol, events, records, the timeline, bots, the seat driver."""

from .bots import Bot, RandomBot, forced_in, play, play_turn
from .events import Event, EventLog, part_of
from .game import CHANCE, PUBLIC, Game, IllegalAction, Observation
from .record import Record, RecordError
from .registry import find_game
from .seats import Due, Pace, Seats, StandingOrders
from .timeline import Timeline

__all__ = [
    "Bot",
    "RandomBot",
    "forced_in",
    "play",
    "play_turn",
    "Event",
    "EventLog",
    "part_of",
    "CHANCE",
    "Game",
    "IllegalAction",
    "Observation",
    "PUBLIC",
    "find_game",
    "Record",
    "RecordError",
    "Timeline",
    "Seats",
    "Pace",
    "Due",
    "StandingOrders",
]
