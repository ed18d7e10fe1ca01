"""What every table widget shares: a timeline, a stepper, a viewpoint switch, a human seat
whose clicks become actions, and bots that play the other seats at a chosen pace.

A table never decides a rule. It renders the game at the timeline's position from the
chosen viewpoint, and turns clicks into actions for ``Timeline.extend`` (that is,
``Game.apply``, one step); an :class:`~qardlab.engine.IllegalAction` comes back as the
status line, with nothing changed. A step the rules force on the human seat, or on a seat
no bot plays (a Five Sons answer from one named card held, or neither), the table gives
itself, on the bots' clock exactly like a bot's move, so nobody can tell a forced answer
from a chosen one by pace.

Seat views are rendered from ``game.observation(seat)`` and ``game.describe(event, seat)``
only, so a seat's view cannot hold what the engine does not give that seat. The teacher's
view (viewpoint ``None``) reads the game itself.
"""

from __future__ import annotations

import html
from typing import Any, Callable, Mapping

import ipywidgets as widgets

from ..engine import CHANCE, Bot, Game, IllegalAction, Timeline
from .stepper import Stepper

__all__ = ["GameTable", "TEACHER_LABEL", "PACES", "legal_reasons"]

TEACHER_LABEL = "Teacher (all cards)"
#: bot pace: label -> milliseconds between bot moves (0: at once)
PACES = {"at once": 0, "fast (0.4 s)": 400, "slow (1.2 s)": 1200}
_TEACHER = -1  # the Dropdown value standing for the teacher's view

#: styles for the classes the widgets carry (a felt table, dimmed cards)
TABLE_CSS = """<style>
.qard-felt { background: #2e7d4f; border-radius: 10px; }
.qard-seat { background: #f7f7f2; border-radius: 8px; }
.qard-illegal { opacity: .55; }
.qard-grid-cell { font-size: .85em; }
</style>"""


def legal_reasons(game: Game, actions: Mapping[Any, Any]) -> dict[Any, str]:
    """For each key whose action the game refuses now, the game's own reason (IllegalAction text).

    ``actions`` maps a key (a card) to the action it would be; ``Game.why_illegal`` asks the
    game without playing.
    """
    out: dict[Any, str] = {}
    for key, action in actions.items():
        why = game.why_illegal(action)
        if why is not None:
            out[key] = why
    return out


def _is_seat(seat: Any, players: int) -> bool:
    return isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < players


class GameTable(widgets.VBox):
    """Base of the game tables. Subclasses build ``body`` widgets and implement ``render``.

    Parameters: ``source`` a game (its current state is the timeline's end) or a Record;
    ``seat`` the initial viewpoint (None: teacher); ``human`` the seat the user plays
    (None: nobody, the table only steps through); ``bots`` seat -> Bot for the other seats;
    ``pace`` one of :data:`PACES`; ``charts`` whether to draw charts.
    """

    #: deal the next hand at once when the bots reach a chance node (Hearts waits for a click)
    auto_deal = True

    def __init__(self, source: Any, seat: int | None = None, *, human: int | None = None,
                 bots: Mapping[int, Bot] | None = None, pace: str = "at once",
                 charts: bool = True) -> None:
        if not isinstance(pace, str) or pace not in PACES:
            raise ValueError(f"pace {pace!r} is not one of {list(PACES)}")
        if not isinstance(charts, bool):
            raise ValueError(f"charts must be True or False, not {charts!r}")
        if bots is not None and not (isinstance(bots, Mapping)
                                     and all(hasattr(b, "act") for b in bots.values())):
            raise ValueError(f"bots must map seats to bots (objects with act(observation)), not {bots!r:.80}")
        self.timeline = Timeline(source)
        self._rng_state = source.rng.getstate() if isinstance(source, Game) else None
        game = self.timeline.game
        self.players = game.players
        self.names = [game.seat_name(s) for s in range(self.players)]
        self.human = human
        self.bots: dict[int, Bot] = dict(bots or {})
        if human is not None and not _is_seat(human, self.players):
            raise ValueError(f"human seat {human!r} is not a seat of this {self.players}-player game")
        if seat is not None and not _is_seat(seat, self.players):
            raise ValueError(f"seat {seat!r} is not a seat of this {self.players}-player game")
        if not all(_is_seat(s, self.players) for s in self.bots):
            raise ValueError(f"bots {sorted(map(repr, self.bots))} name a seat not in this "
                             f"{self.players}-player game")
        self.viewpoint = widgets.Dropdown(
            options=[(TEACHER_LABEL, _TEACHER)] + [(f"{n}'s view", s) for s, n in enumerate(self.names)],
            value=_TEACHER if seat is None else seat, description="View:",
            layout=widgets.Layout(width="16em"))
        self.viewpoint.add_class("qard-viewpoint")
        self.pace = widgets.Dropdown(options=list(PACES), value=pace, description="Bots:",
                                     layout=widgets.Layout(width="14em"))
        self.show_charts = widgets.Checkbox(value=charts, description="charts", indent=False,
                                            layout=widgets.Layout(width="6em"))
        self.status = widgets.HTML()
        self.status.add_class("qard-status")
        self.css = widgets.HTML(TABLE_CSS, layout=widgets.Layout(display="none"))
        self.stepper = Stepper(self.timeline, seat)
        # the bots' clock: a Play widget ticking in the browser; each tick plays one bot move
        # shown when the bots have a pace: it is also the user's pause / resume for them
        self.clock = widgets.Play(min=0, max=10**9, interval=PACES[pace] or 400, show_repeat=False,
                                  description="bots", tooltip="let the bots play / pause them",
                                  layout=widgets.Layout(display="none" if PACES[pace] == 0 else ""))
        self.clock.add_class("qard-bot-clock")
        # the browser reports how many views the clock has: start it once it is on the page
        self.clock._view_count = 0
        self.clock.observe(self._clock_shown, names="_view_count")
        self.clock.observe(self._tick, names="value")
        self.viewpoint.observe(self._viewpoint_changed, names="value")
        self.pace.observe(self._pace_changed, names="value")
        self.show_charts.observe(lambda _c: self.render(), names="value")
        self.timeline.observe(lambda _tl: self.render())
        self.toolbar = widgets.HBox([self.viewpoint, self.pace, self.show_charts, self.clock])
        if human is None and not self.bots:
            self.pace.layout.display = "none"
        super().__init__([])
        self.add_class("qard-table")

    # -- state --------------------------------------------------------------------------
    @property
    def game(self) -> Game:
        """The game at the timeline's position (read only)."""
        return self.timeline.game

    @property
    def seat(self) -> int | None:
        """The viewpoint: a seat number, or None for the teacher."""
        v = self.viewpoint.value
        return None if v == _TEACHER else v

    @seat.setter
    def seat(self, seat: int | None) -> None:
        if seat is not None and not _is_seat(seat, self.players):
            raise ValueError(f"seat {seat!r} is not a seat of this {self.players}-player game")
        self.viewpoint.value = _TEACHER if seat is None else seat

    @property
    def live(self) -> bool:
        """True when the cursor is at the end, where new actions may be played."""
        return self.timeline.position == self.timeline.last

    def human_to_act(self) -> bool:
        """Whether the human has a choice to make now (a forced step the table gives itself)."""
        g = self.game
        return (self.human is not None and self.live and not g.is_over and g.to_move == self.human
                and g.forced_action() is None)

    def _human_forced(self, g: Game) -> Any:
        """The forced step now of the human seat (or of a seat no bot plays), which the table gives
        itself on the bots' clock, exactly like a bot's move; None when a bot or nobody is due."""
        if g.to_move is None or g.to_move == CHANCE or g.to_move in self.bots and g.to_move != self.human:
            return None
        return g.forced_action()

    # -- acting -------------------------------------------------------------------------
    def act(self, action: Any) -> bool:
        """The human's action: apply it at the end of the timeline, then let the bots answer.

        Returns False (and says why in the status line) when the game refuses it; the
        game is then unchanged.
        """
        if not self.live:
            self.say(f"You are looking at step {self.timeline.position}; go to the last step "
                     f"({self.timeline.last}) to play.", error=True)
            return False
        try:
            self.timeline.extend(action)
        except IllegalAction as e:
            self.say(f"Not allowed: {e}", error=True)
            return False
        self.say("")
        self.run_bots()
        return True

    def bot_step(self) -> bool:
        """One move of a bot (or the deal); False when it is the human's turn or the game is over."""
        g = self.game
        if g.is_over or not self.live:
            return False
        seat = g.to_move
        if seat == CHANCE:
            if not self.auto_deal:
                return False
            self.timeline.extend(self._draw_chance(g))
            return True
        forced = self._human_forced(g)
        if forced is not None:  # a forced answer no bot gives: given like a bot's move, at its pace
            self.timeline.extend(forced)
            return True
        if seat == self.human or seat not in self.bots:
            return False
        action = self.bots[seat].act(g.observation(seat))
        self.timeline.extend(action)
        return True

    def _draw_chance(self, g: Game) -> Any:
        """Draw a deal from the game's RNG, carrying the RNG on across replays and steps.

        The timeline rebuilds states by replay (fresh RNG), so the table keeps the live
        RNG state itself; otherwise every new deal would repeat the first shuffle.
        """
        if self._rng_state is not None:
            g.rng.setstate(self._rng_state)
        outcome = g.chance_outcome()
        self._rng_state = g.rng.getstate()
        return outcome

    def run_bots(self) -> None:
        """Let the bots play until the human is to act: at once, or on the clock's ticks."""
        if PACES[self.pace.value] == 0:
            for _ in range(10_000):
                if not self.bot_step():
                    break
            self.after_bots()
        elif self._bots_due():
            self.clock.interval = PACES[self.pace.value]
            # the browser starts its timer on a change from paused to playing, so make one;
            # before the clock is on the page that change would be lost (see _clock_shown)
            self.clock.playing = False
            if self.clock._view_count != 0:
                self.clock.playing = True

    def _clock_shown(self, change: dict) -> None:
        if change["old"] == 0 and (change["new"] or 0) > 0 and PACES[self.pace.value] > 0:
            self.run_bots()

    def after_bots(self) -> None:
        """Hook: called when the bots have nothing more to play (subclasses may deal on)."""

    def _bots_due(self) -> bool:
        g = self.game
        if not self.live or g.is_over:
            return False
        if g.to_move == self.human or (g.to_move != CHANCE and g.to_move not in self.bots):
            return self._human_forced(g) is not None
        return True

    def _tick(self, _change: dict) -> None:
        """One clock tick: one bot move; the clock stops when no bot move is left to play."""
        if not self.bot_step() or not self._bots_due():
            self.clock.playing = False
            self.after_bots()

    def _pace_changed(self, _change: dict) -> None:
        self.clock.playing = False
        self.clock.layout.display = "none" if PACES[self.pace.value] == 0 else ""
        self.run_bots()

    def _viewpoint_changed(self, _change: dict) -> None:
        with self.hold_sync():
            self.stepper.seat = self.seat
            self.render()

    # -- showing --------------------------------------------------------------------------
    def say(self, text: str, error: bool = False) -> None:
        color = "#b00020" if error else "#222"
        self.status.value = f'<span style="color:{color}">{html.escape(text)}</span>' if text else ""

    def render(self) -> None:  # pragma: no cover - abstract
        raise NotImplementedError

    def log_lines(self, seat: int | None, describe: Callable[[Any, int | None], str]) -> list[str]:
        """The log as ``seat`` saw it, in words, oldest first."""
        g = self.game
        return [describe(e, seat) for e in g.events if e.visible_to(seat)]
