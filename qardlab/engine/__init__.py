"""What every qardlab game shares: the Game protocol, events, records, the timeline, bots, the seat driver."""

from .bots import Bot, RandomBot, forced_in, play, play_turn
from .events import TEACHER, Event, EventLog
from .game import BASE_OBSERVATION_KEYS, CHANCE, PUBLIC, Game, IllegalAction, Observation, find_game
from .record import Record, RecordError
from .seats import Due, Pace, Seats, StandingOrders
from .timeline import Timeline

__all__ = [
    "Bot",
    "RandomBot",
    "forced_in",
    "play",
    "play_turn",
    "TEACHER",
    "Event",
    "EventLog",
    "CHANCE",
    "Game",
    "IllegalAction",
    "Observation",
    "BASE_OBSERVATION_KEYS",
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
