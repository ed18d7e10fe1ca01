"""Hearts for 3 to 6 players: the step engine, its rules, bots, knowledge and a batch simulator.

- ``rules``: the options (``HeartsRules``), the tables of RULES.md and the rules kernel (pure
  functions over card masks: legal cards, the taker of a trick, points, scoring, the match's end);
- ``game``: the state machine (``Hearts``) on the shared engine, which calls the kernel for every
  rule; ``layout``: what a table keeps fixed (the kernel's masks for its rules); ``deal``: the seeded
  deal and the check of a given one; ``views``: what a seat is shown; ``log``: the lazy event log;
  ``words``: the English sentences; ``values``: ``Deal``, ``Trick`` and the JSON codec;
- ``knowledge``, ``bots``, ``batch``, ``parallel``: what a seat knows, the bots and tournaments
  (whose rollouts play by the kernel), the numpy simulator (its rules turned into arrays from the
  kernel), and the workers behind tournaments.
"""

from .game import Deal, Hearts, Trick
from .rules import HeartsRules

__all__ = ["Hearts", "HeartsRules", "Deal", "Trick"]
