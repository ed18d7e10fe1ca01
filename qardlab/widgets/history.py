"""The candidate counts of one seat after each step, computed incrementally for a table.

The counting lives in :class:`qardlab.deduction.history.SeatHistory` (driven by the game's
knowledge adapter and the question model of its secret); this module keeps the name where
the tables import it.
"""

from __future__ import annotations

from ..deduction.history import SeatHistory

__all__ = ["SeatHistory"]
