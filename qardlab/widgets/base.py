"""What every table widget shares: a timeline, a stepper, a viewpoint switch, a human seat
whose clicks become actions, and a clock on which the engine's seat driver plays the other seats.

A table never decides a rule, nor who moves next. It renders the game at the timeline's position
from the chosen viewpoint, and turns clicks into actions for the source (for a local game
``Timeline.extend``, that is ``Game.apply``, one step); an :class:`~qardlab.engine.IllegalAction`
comes back as the status line, with nothing changed. The bots, the persons' standing orders and the
deals are the seat driver's (:class:`~qardlab.engine.seats.Seats`, held by a local source; a remote
seat's is the server's): the table's clock, an ipywidgets ``Play`` ticking in the browser at the pace
the driver says, asks the source to play what is due, one step a tick (``LocalSource.advance``). The
human's seat is never played for them: a step the rules force (a Five Sons answer from one named card
held, or neither) is the human's own click too, the one legal answer lit.

Seat views are drawn only from the source's JSON observations (:mod:`qardlab.widgets.source`:
``source.observation(seat)``, for a local game ``game.observation_json(seat)``), the log too
from the events that observation holds, so a seat's view cannot hold what the engine does not
give that seat.

A table can be locked to some viewpoints (``views``): the View dropdown then offers only
those, and is not shown at all when there is one. The apps lock a student's table to the
student's seat; the teacher's view is offered only when asked for. ``close()`` closes the
table and every widget it made (a long session replaces tables without growing).
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from typing import Any, Callable, Iterator, Mapping, Sequence

import ipywidgets as widgets

from .. import palette
from ..engine import Bot, Game, IllegalAction, Record, Timeline, find_game
from ..engine.seats import Pace
from ..engine.whatif import level_of, what_if
from ..render import style
from ..render.markup import el, to_html
from .cards import HandView, clear_hands
from .source import LocalSource, Source, orders_of, set_orders, waits_for
from .stepper import Stepper

__all__ = ["GameTable", "TEACHER_LABEL", "PACES", "close_tree", "TABLE_CSS", "DESCRIPTION_WIDTH"]

TEACHER_LABEL = "Teacher (all cards)"
#: bot pace: label -> milliseconds between bot moves (0: at once)
PACES = {"at once": 0, "fast (0.4 s)": 400, "slow (1.2 s)": 1200}
_TEACHER = -1  # the Dropdown value standing for the teacher's view

#: the one style sheet of the tables (:data:`qardlab.render.style.STYLESHEET`: the felt, the widgets'
#: classes, the grid, the keyboard focus ring), put on the page once by each table
TABLE_CSS = style.STYLESHEET
#: the label width of the toolbar's and the apps' dropdowns (room for "Bot level:" / "Bot pace:")
DESCRIPTION_WIDTH = "5.6em"


def _widgets_in(value: Any) -> list[widgets.Widget]:
    if isinstance(value, widgets.Widget):
        return [value]
    if isinstance(value, (list, tuple, set, frozenset)):
        return [x for x in value if isinstance(x, widgets.Widget)]
    if isinstance(value, dict):
        return [x for x in value.values() if isinstance(x, widgets.Widget)]
    return []


def close_tree(root: widgets.Widget) -> int:
    """Close ``root`` and every widget it reaches: through synced traits (children, layout,
    style) and through its Python attributes (cached buttons not on show). Returns how many
    were closed. Widgets the ipywidgets registry still held are then free to go."""
    seen: dict[int, widgets.Widget] = {}
    stack = [root]
    while stack:
        w = stack.pop()
        if id(w) in seen:
            continue
        seen[id(w)] = w
        for name in w.keys:
            stack.extend(_widgets_in(getattr(w, name, None)))
        for value in vars(w).values():
            stack.extend(_widgets_in(value))
    closed = 0
    for w in seen.values():
        if w.comm is not None:
            closed += 1
        widgets.Widget.close(w)  # the base close: a subclass's close() may be what called us
    return closed


def _is_seat(seat: Any, players: int) -> bool:
    return isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < players


class GameTable(widgets.VBox):
    """Base of the game tables. Subclasses build ``body`` widgets and implement ``render``.

    Parameters: ``source`` a game (its current state is the timeline's end), a Record, a
    :class:`~qardlab.widgets.source.LocalSource`, or any other
    :class:`~qardlab.widgets.source.Source` (a remote seat: then no stepper, no bots and no
    charts of the history; the table draws what the source's observations say);
    ``seat`` the initial viewpoint (None: teacher); ``human`` the seat the user plays
    (None: nobody, the table only steps through); ``bots`` seat -> Bot for the other seats (the local
    source's seat driver plays them); ``pace`` one of :data:`PACES` (the driver's pace for bots, standing
    orders and deals); ``charts`` whether to draw charts; ``views`` the
    viewpoints the table may show (seat numbers, None for the teacher; default all): a
    student's table is locked with ``views=(seat,)``, and then has no View dropdown.
    """

    #: whether a local table's driver deals the next hand by itself, at the bots' pace (Hearts': no, the
    #: human clicks "Next hand")
    auto_deal = True
    #: ``seat_view_parts(obs, seat, names, level)``: a seat's column of the side-by-side replay between
    #: its step's words and its log (HTML strings, from the seat's JSON observation alone); None: the
    #: game has no such view. ``seat_view_log``: the options of that column's log.
    seat_view_parts: Any = None
    seat_view_log: Mapping[str, Any] = {}

    @classmethod
    def seat_view_has_grids(cls, game: str) -> bool:
        """Whether the side-by-side columns of a ``game`` (its registry name) hold deduction grids (the
        replay then offers one level control for them all). None here."""
        return False

    def seat_column(self, seat: int, abreast: int) -> list[widgets.Widget]:
        """This table's widgets for ``seat``'s column of the interactive side-by-side replay
        (:func:`qardlab.classroom.teacher.side_by_side`), below the step's words: the seat's own view, then
        its log. ``abreast``: how many columns stand side by side. The table is locked to ``seat``. A table
        class that does not override this has no such column (the replay refuses its game)."""
        raise NotImplementedError(f"{type(self).__name__} has no side-by-side column")

    def __init__(
        self,
        source: Any,
        seat: int | None = None,
        *,
        human: int | None = None,
        bots: Mapping[int, Bot] | None = None,
        pace: str = "at once",
        charts: bool = True,
        views: Sequence[int | None] | None = None,
    ) -> None:
        if not isinstance(pace, str) or pace not in PACES:
            raise ValueError(f"pace {pace!r} is not one of {list(PACES)}")
        if not isinstance(charts, bool):
            raise ValueError(f"charts must be True or False, not {charts!r}")
        if bots is not None and not (
            isinstance(bots, Mapping) and all(hasattr(b, "act") for b in bots.values())
        ):
            raise ValueError(f"bots must map seats to bots (objects with act(observation)), not {bots!r:.80}")
        #: where the table's observations come from (its drawing reads nothing else)
        self.source: Source
        if isinstance(source, (Game, Record, Timeline)):
            source = LocalSource(source)
        if isinstance(source, LocalSource):
            self.source = source
            #: the local game's steps (None for a remote source): the stepper and the charts use it
            self.timeline: Timeline | None = source.timeline
        elif isinstance(source, Source):
            self.source, self.timeline = source, None
            if bots:
                raise ValueError("a remote source's bots are the server's: give no bots")
        else:
            raise ValueError(f"a table is drawn from a game, a Record or a Source, not {source!r:.80}")
        #: close the source with the table (``qardlab.classroom.join`` sets it for its connection)
        self.owns_source = False
        self._version = 0  # bumped on every change the source reports
        # drawing_every(): at most one drawing per this many seconds (None: each change at once)
        self._draw_every: float | None = None
        self._draw_due: Any = None  # the drawing put off until then (an event loop's timer)
        self._drawn_at = float("-inf")
        self._drawn_version = 0
        self._obs_key: Any = None
        self._obs: dict[Any, dict] = {}
        self.players = self.source.players
        self.names = list(self.source.names)
        #: the game's class (the source's, else found by its game name): its words and its action codec,
        #: class methods that read observations and actions, never a game
        self.game_class: type[Game] = getattr(self.source, "game_class", None) or find_game(
            self.source.game_name
        )
        self.human = human
        if human is not None and not _is_seat(human, self.players):
            raise ValueError(f"human seat {human!r} is not a seat of this {self.players}-player game")
        if seat is not None and not _is_seat(seat, self.players):
            raise ValueError(f"seat {seat!r} is not a seat of this {self.players}-player game")
        if not all(_is_seat(s, self.players) for s in bots or {}):
            raise ValueError(
                f"bots {sorted(map(repr, bots or {}))} name a seat not in this {self.players}-player game"
            )
        if self.timeline is not None:  # the local source's seat driver plays the bots at this pace
            for s, bot in (bots or {}).items():
                self.source.driver.set_bot(s, bot)
            self.source.driver.pace = self._pace_of(pace)
        every: list[int | None] = [None, *range(self.players)]
        if views is None:
            views = every
        views = list(dict.fromkeys(views))
        bad = [v for v in views if v not in every or isinstance(v, bool)]
        if bad or not views:
            raise ValueError(
                f"views {bad or views!r}: each must be a seat 0..{self.players - 1} or None "
                "(the teacher), and at least one"
            )
        if seat not in views:
            raise ValueError(f"seat {seat!r} is not one of the table's views {views!r}")
        self.views: tuple[int | None, ...] = tuple(views)
        labels = {None: TEACHER_LABEL, **{s: f"{n}'s view" for s, n in enumerate(self.names)}}
        self.viewpoint = widgets.Dropdown(
            options=[(labels[v], _TEACHER if v is None else v) for v in self.views],
            value=_TEACHER if seat is None else seat,
            description="View:",
            layout=widgets.Layout(width="22em"),
            style={"description_width": DESCRIPTION_WIDTH},
        )
        self.viewpoint.add_class("qard-viewpoint")
        self.pace = widgets.Dropdown(
            options=list(PACES),
            value=pace,
            description="Bot pace:",
            layout=widgets.Layout(width="16em"),
            style={"description_width": DESCRIPTION_WIDTH},
        )
        self.pace.add_class("qard-bot-pace")
        # a remote seat has no charts of its history (the history is the server's)
        self.show_charts = widgets.Checkbox(
            value=charts and self.timeline is not None,
            description="charts",
            indent=False,
            layout=widgets.Layout(width="6em"),
        )
        self.status = widgets.HTML()
        self.status.add_class("qard-status")
        self.css = widgets.HTML(TABLE_CSS, layout=widgets.Layout(display="none"))
        self.stepper: Any = (
            Stepper(self.timeline, seat)
            if self.timeline is not None
            else widgets.HTML(layout=widgets.Layout(display="none"))
        )
        self._setup_play_on()
        # the bots' clock: a Play widget ticking in the browser; each tick plays one bot move
        # shown when the bots have a pace: it is also the user's pause / resume for them
        self.clock = widgets.Play(
            min=0,
            max=10**9,
            interval=PACES[pace] or 400,
            show_repeat=False,
            description="bots",
            tooltip="let the bots play / pause them",
            layout=widgets.Layout(display="none" if PACES[pace] == 0 else ""),
        )
        self.clock.add_class("qard-bot-clock")
        # the browser reports how many views the clock has: start it once it is on the page
        self.clock._view_count = 0
        self.clock.observe(self._clock_shown, names="_view_count")
        self.clock.observe(self._tick, names="value")
        self.viewpoint.observe(self._viewpoint_changed, names="value")
        self.pace.observe(self._pace_changed, names="value")
        self.show_charts.observe(lambda _c: self.render(), names="value")
        self._unsubscribe = self.source.observe(self._source_changed)
        if self.timeline is None:  # a remote seat: its history is the server's
            self.show_charts.layout.display = "none"
        # a locked table has no View control at all: nothing on the page reaches another view
        tools = [self.viewpoint] if len(self.views) > 1 else []
        self.toolbar = widgets.HBox([*tools, self.pace, self.show_charts, self.clock])
        if (human is None and not bots) or self.timeline is None:  # a remote table: the server's pace
            self.pace.layout.display = "none"
        super().__init__([])
        self.add_class("qard-table")

    # -- state --------------------------------------------------------------------------
    @property
    def game(self) -> Game:
        """The local game at the timeline's position (read only; the drawing never reads it)."""
        if self.timeline is None:
            raise AttributeError("a table drawn from a remote source has no game, only observations")
        return self.timeline.game

    @property
    def seat(self) -> int | None:
        """The viewpoint: a seat number, or None for the teacher."""
        v = self.viewpoint.value
        return None if v == _TEACHER else v

    @seat.setter
    def seat(self, seat: int | None) -> None:
        if isinstance(seat, bool) or seat not in self.views:
            raise ValueError(f"seat {seat!r} is not one of this table's views {list(self.views)}")
        self.viewpoint.value = _TEACHER if seat is None else seat

    def observation(self, seat: int | None) -> dict[str, Any]:
        """The source's observation of ``seat`` (None: the teacher) at the timeline's position, as
        JSON data; kept until the position moves, so one drawing builds each viewpoint's once."""
        tl = self.timeline
        key = (self._version,) if tl is None else (tl.position, tl.last, id(tl.game))
        if key != self._obs_key:
            self._obs_key, self._obs = key, {}
        if seat not in self._obs:
            self._obs[seat] = self.source.observation(seat)
        return self._obs[seat]

    @property
    def live(self) -> bool:
        """True when the cursor is at the end (the game as it is now), where actions may be played."""
        return self.source.live

    @property
    def bots(self) -> dict[int, Bot]:
        """Seat -> bot of a local table (its source's seat driver's); a remote table's are the server's."""
        return self.source.driver.bots if self.timeline is not None else {}

    def _pace_of(self, label: str) -> Pace:
        seconds = PACES[label] / 1000
        return Pace(bot=seconds, deal=seconds if self.auto_deal else None)

    def human_to_act(self) -> bool:
        """Whether the table waits for the human now: the seat driver says so through the source (its
        turn, a forced answer too, and no standing order of theirs acting)."""
        return self.human is not None and self.live and waits_for(self.source, self.human)

    def orders(self) -> dict[str, Any]:
        """The human's standing orders, as the source keeps them (the game's defaults for none)."""
        return {} if self.human is None else orders_of(self.source, self.human)

    def set_orders(self, orders: Mapping[str, Any]) -> None:
        """Change some of the human's standing orders through the source (ValueError naming a bad one)."""
        if self.human is None:
            raise ValueError("nobody plays at this table: it has no standing orders")
        set_orders(self.source, self.human, orders)

    def encode(self, action: Any) -> Any:
        """An action in the record encoding, as a source takes it (tables of each game override)."""
        return action

    def _source_changed(self, _source: Any) -> None:
        self._version += 1
        if self._draw_every is None:
            self.render()
            return
        wait = self._drawn_at + self._draw_every - time.monotonic()
        if wait <= 0:
            self._draw_now()
        elif self._draw_due is None:
            try:
                self._draw_due = asyncio.get_running_loop().call_later(wait, self._draw_now)
            except RuntimeError:  # no event loop to put it off to: now
                self._draw_now()

    def _draw_now(self) -> None:
        self._draw_due = None
        self._drawn_at = time.monotonic()
        self._drawn_version = self._version
        if self.comm is not None:  # not closed meanwhile
            self.render()

    @contextlib.contextmanager
    def drawing_every(self, seconds: float) -> Iterator[None]:
        """Inside, the changes the source reports are drawn at most once every ``seconds`` (the newest
        state each time), and at the end at once if the last was not drawn yet.

        For a driver that plays a remote seat quickly (lesson 09's
        :func:`~qardlab.lessons.together.autoplay`, whose server sends every step, the bots' at once):
        drawing each of them is most of the time such a game takes, for frames nobody can follow. What
        the table does reads the source, never the drawing, so it acts the same inside. Needs a running
        event loop to put drawings off (without one, each change is drawn at once)."""
        if isinstance(seconds, bool) or not isinstance(seconds, (int, float)) or not seconds > 0:
            raise ValueError(f"seconds must be a positive number, not {seconds!r}")
        old = self._draw_every
        self._draw_every = float(seconds)
        try:
            yield
        finally:
            self._draw_every = old
            if self._draw_due is not None:
                self._draw_due.cancel()
                self._draw_due = None
            if self._drawn_version != self._version:  # the last change, not drawn yet
                self._draw_now()

    def _batch(self) -> Any:
        """Changes inside are drawn once at the end (a local timeline's batch; a remote source's
        changes arrive one by one anyway)."""
        return self.timeline.batch() if self.timeline is not None else contextlib.nullcontext()

    # -- acting -------------------------------------------------------------------------
    def act(self, action: Any) -> bool:
        """The human's action: apply it at the end of the timeline, then let the seat driver play.

        Returns False (and says why in the status line) when the game refuses it; the
        game is then unchanged.
        """
        if not self.live:
            tl = self.timeline
            self.say(
                f"You are looking at step {tl.position}; go to the last step ({tl.last}) to play."
                if tl is not None
                else "Not connected to the table: reconnecting. Try again in a moment.",
                error=True,
            )
            return False
        if self.human is None:
            self.say("Nobody plays at this table.", error=True)
            return False
        # the action and the driver's replies at once are one change of the table: drawn once
        with self._batch():
            try:
                self.source.act(self.human, self.encode(action))
            except IllegalAction as e:
                self.say(f"Not allowed: {e}", error=True)
                return False
            self.say("")
            self.run_bots()
        return True

    def run_bots(self) -> None:
        """Let the seat driver play what it has due (bots, standing orders, deals): every step at once at
        pace 0, else one step a tick of the clock. A remote table's driver is the server's."""
        if self.timeline is None:
            return
        due = self.source.due()
        if not due.automatic:
            self.clock.playing = False
            return
        if due.delay == 0:
            self.source.advance_all()  # every step, then one redraw
            return
        self.clock.interval = max(1, round(due.delay * 1000))
        # the browser starts its timer on a change from paused to playing, so make one;
        # before the clock is on the page that change would be lost (see _clock_shown)
        self.clock.playing = False
        if self.clock._view_count != 0:
            self.clock.playing = True

    def _clock_shown(self, change: dict) -> None:
        if change["old"] == 0 and (change["new"] or 0) > 0 and PACES[self.pace.value] > 0:
            self.run_bots()

    def _tick(self, _change: dict) -> None:
        """One clock tick: the driver plays one step; the clock stops when it has nothing more to play."""
        if self.timeline is None or self.source.advance() is None or not self.source.due().automatic:
            self.clock.playing = False

    def _pace_changed(self, _change: dict) -> None:
        self.clock.playing = False
        self.clock.layout.display = "none" if PACES[self.pace.value] == 0 else ""
        if self.timeline is not None:
            self.source.driver.pace = self._pace_of(self.pace.value)
        self.run_bots()

    def can_restart(self, source: Any) -> bool:
        """Whether :meth:`restart` takes ``source``: a local game of this table's game, seats and names."""
        if self.timeline is None or self.comm is None:
            return False
        g = source.game if isinstance(source, (Timeline, LocalSource)) else source
        if isinstance(g, Record):
            return g.game == self.source.game_name and g.players == self.players
        return (
            isinstance(g, Game)
            and g.name == self.source.game_name
            and g.players == self.players
            and [g.seat_name(s) for s in range(g.players)] == self.names
        )

    def restart(self, source: Any, bots: Mapping[int, Bot] | None = None) -> None:
        """Play a fresh game at this table with the same widgets (the apps' "New deal"): the new
        game's timeline replaces the old one, the table's own state of the old game is forgotten
        (:meth:`forget_game`), everything is drawn anew from the new game's observations, and the bots
        (``bots``, as in the constructor) start, at the same pace; the human keeps their standing orders.
        Cheaper than a new table: no widget is made, none closed. ValueError for a source
        :meth:`can_restart` refuses."""
        if not self.can_restart(source):
            raise ValueError(
                f"this {self.players}-player {self.source.game_name} table cannot restart with "
                f"{source!r:.80} (a local game of the same game and seats)"
            )
        good = (
            isinstance(bots, Mapping)
            and all(_is_seat(s, self.players) for s in bots)
            and all(hasattr(b, "act") for b in bots.values())
        )
        if bots is not None and not good:
            raise ValueError(f"bots must map seats of this table to bots, not {bots!r:.80}")
        new = source if isinstance(source, LocalSource) else LocalSource(source)
        for s, bot in (bots or {}).items():
            new.driver.set_bot(s, bot)
        new.driver.pace = self._pace_of(self.pace.value)
        if self.human is not None and self.human not in (bots or {}):
            new.driver.set_orders(self.human, self.orders())
        self.clock.playing = False
        self.close_what_if()
        self._unsubscribe()
        self.source, self.timeline = new, new.timeline
        self._version += 1
        self._obs_key, self._obs = None, {}
        with self.hold_sync():
            self.say("")
            self.forget_game()
            self.stepper.follow(new.timeline)
            if self.human is not None:  # the bots' first moves (at once) before the one drawing
                self.run_bots()
            self._unsubscribe = self.source.observe(self._source_changed)
            self._version += 1
            self.render()

    def forget_game(self) -> None:
        """Hook: forget what the table kept of the game it showed (caches, choices); see :meth:`restart`."""

    def _viewpoint_changed(self, _change: dict) -> None:
        with self.hold_sync():
            if self.timeline is not None:
                self.stepper.seat = self.seat
            self.render()

    def close(self) -> None:
        """Close the table and every widget it made; stop listening to its timeline."""
        if self.comm is None:  # closed already (ipywidgets also calls close() on deletion)
            return
        self.close_what_if()
        self._unsubscribe()
        if self.owns_source and hasattr(self.source, "close"):  # a joined seat's connection
            self.source.close()
        close_tree(self)

    # -- play on from here ("what if") ------------------------------------------------------
    def _setup_play_on(self) -> None:
        """The replay's "Play on from here" button and its choice of bots, under the stepper's words (a local
        table's: a remote seat has no stepper), and the box the new table is shown in."""
        #: the table played on from a step of this one (:meth:`play_on`), or None
        self.what_if: GameTable | None = None
        #: where that table is shown: under the stepper, where the button was clicked
        self.what_if_box = widgets.VBox()
        self.what_if_box.add_class("qard-what-if")
        if self.timeline is None:
            return
        game = type(self.timeline.game)  # (the local game's class: a test's variant has no registry name)
        levels = [(f"{game.bot_level_title(level)} bots", level) for level in game.bot_levels]
        own = [("this table's bots", "")] if self.bots else []
        self.play_on_bots = widgets.Dropdown(
            options=own + levels,
            value="" if own else levels[-1][1],
            description="against",
            tooltip="the bots in the other seats of the new game",
            layout=widgets.Layout(width="25em"),  # room for "probability (best questions) bots"
            style={"description_width": "4em"},
        )
        self.play_on_bots.add_class("qard-play-on-bots")
        self.play_on_button = widgets.Button(
            description="Play on from here",
            icon="code-branch",
            tooltip="a new game from this step with the same cards: you play this seat, bots the others",
            layout=widgets.Layout(width="auto"),
        )
        self.play_on_button.add_class("qard-play-on")
        self.play_on_button.on_click(lambda _b: self._play_on_clicked())
        self.play_on_row = widgets.HBox(
            [self.play_on_button, self.play_on_bots],
            layout=widgets.Layout(flex_flow="row wrap", align_items="center", display="none"),
        )
        self.play_on_row.add_class("qard-play-on-row")
        self.stepper.children = (*self.stepper.children, self.play_on_row)

    def play_on_refusal(self) -> str | None:
        """Why this table may not play on from its steps now (None: it may). Never a classroom seat (its game
        is the server's), never a game someone plays here before it is over (the new game holds the real
        hidden cards: its bots' moves would show them); a table nobody plays may when it shows the teacher's
        view (nothing is hidden there) or its game is over."""
        if self.timeline is None:
            return (
                "A classroom seat cannot play on from here: its game is the server's. Once the game is over, "
                "load its record into a table (qardlab.widgets.table(record)) and play on from there."
            )
        if self.timeline.final.is_over:
            return None
        if self.human is not None:
            return "The game is still being played: play on from any step once it is over."
        if None not in self.views:
            return "This table shows some seats only and its game is not over: play on once it is over."
        return None

    def may_play_on(self) -> bool:
        """Whether "Play on from here" is offered (see :meth:`play_on_refusal`)."""
        return self.play_on_refusal() is None

    def _show_play_on(self, obs: Mapping[str, Any]) -> None:
        """The play-on row under the stepper, for the viewer's seat at the stepper's step (``obs``)."""
        if self.timeline is None:
            return
        offered = self.may_play_on()
        self.play_on_row.layout.display = "" if offered else "none"
        if not offered:
            return
        who = self.names[self._bottom(self.seat)]
        self.play_on_button.description = f"Play on from here as {who}"
        self.play_on_button.disabled = bool(obs["is_over"])
        self.play_on_button.tooltip = (
            "the game is over at this step: step back to play on"
            if obs["is_over"]
            else f"a new game from step {obs['step']} with the same cards: you play {who}, bots the others"
        )

    def play_on_options(self) -> dict[str, Any]:
        """Hook: the new table's own options that carry over from this one (a game's table adds its own)."""
        return {}

    def play_on(
        self,
        step: int | None = None,
        seat: int | None = None,
        *,
        bots: str | Mapping[int, Any] | None = None,
        seed: int | None = None,
    ) -> "GameTable":
        """Play on from ``step`` (default: the stepper's) as ``seat`` (default: the viewer's, the seat at the
        bottom of the felt): a new live game with the same cards and history up to that step (the engine's
        :func:`~qardlab.engine.whatif.what_if`), at a new table of this kind shown under the stepper
        (:attr:`what_if`, replacing the one before) and returned. The person plays ``seat``; ``bots`` a level
        of the game's, or None for the table's own (its bots copied; the game's strongest where it had
        none). The new table offers the views this one does (and ``seat``'s); ``seed`` seeds the new game's
        later draws and its new bots (a lesson's tool).

        ValueError, with nothing changed, naming what is wrong: a table that may not play on
        (:meth:`play_on_refusal`), a step outside the game or at its end, a seat this table does not
        show, a bad level."""
        refusal = self.play_on_refusal()
        if refusal is not None:
            raise ValueError(refusal)
        assert self.timeline is not None and isinstance(self.source, LocalSource)
        step = self.timeline.position if step is None else step
        seat = self._bottom(self.seat) if seat is None else seat
        if isinstance(seat, bool) or not _is_seat(seat, self.players):
            raise ValueError(f"seat {seat!r} is not a seat of this {self.players}-player game")
        if seat not in self.views and None not in self.views:
            raise ValueError(f"seat {seat!r} is not one of this table's views {list(self.views)}")
        made = what_if(self.timeline, step, seat, bots=bots, driver=self.source.driver, seed=seed)
        views = tuple(dict.fromkeys([*self.views, seat]))
        table = type(self)(
            LocalSource(made.game, driver=made.driver),
            seat=None if self.seat is None else seat,
            human=seat,
            pace=self.pace.value,
            charts=self.show_charts.value,
            views=views,
            **self.play_on_options(),
        )
        table.title.layout.display = "none"  # (the box's heading says what it is)
        game = made.driver.game_class
        kinds = sorted(
            {game.bot_level_title(level_of(game, b) or type(b).__name__) for b in made.driver.bots.values()}
        )
        heading = widgets.HTML(
            to_html(
                el(
                    "div",
                    el("b", "What if? "),
                    f"A new game from step {made.step} of the game above, with the same cards: you play "
                    f"{self.names[seat]}; {' and '.join(kinds)} bots play the other seats.",
                    cls="qard-what-if-heading",
                )
            ),
            layout=widgets.Layout(flex="1 1 20em"),
        )
        close = widgets.Button(
            description="Close", tooltip="close the new game", layout=widgets.Layout(width="6em")
        )
        close.add_class("qard-what-if-close")
        close.on_click(lambda _b: self.close_what_if())
        # the new game under a rule of the highlight's colour: where the old table ends and the new one starts
        bar = widgets.HBox(
            [heading, close],
            layout=widgets.Layout(
                align_items="center",
                flex_flow="row wrap",
                border_top=f"3px solid {palette.HIGHLIGHT}",
                margin="6px 0 0 0",
                padding="2px 0 0 0",
            ),
        )
        with self.hold_sync():
            self.close_what_if()
            self.what_if = table
            self.what_if_box.children = (bar, table)
        return table

    def _play_on_clicked(self) -> None:
        try:
            self.play_on(bots=self.play_on_bots.value or None)
        except ValueError as e:
            self.say(str(e), error=True)
        else:
            self.say("")

    def close_what_if(self) -> None:
        """Close the table played on from here (and every widget of it), if there is one."""
        table, self.what_if = self.what_if, None
        if table is None:
            return
        parts = [w for w in self.what_if_box.children if w is not table]
        self.what_if_box.children = ()
        table.close()
        for w in parts:
            close_tree(w)

    # -- showing --------------------------------------------------------------------------
    def say(self, text: str, error: bool = False) -> None:
        """The status line: ``text`` (in the error colour when ``error``), or nothing."""
        cls = "qard-status-error" if error else "qard-status-note"
        self.status.value = to_html(el("span", text, cls=cls)) if text else ""

    # -- what both tables draw alike --------------------------------------------------------
    def _setup_felt(
        self, width: str, *, hand_height: str, log_height: str, on_card: Callable[[Any], None]
    ) -> None:
        """The felt and the viewer's hand below it, the log, the replay toggle: the same for every
        table. ``felt_view`` holds the felt's HTML (seats, the middle); ``hands`` one hand view a seat,
        the bottom seat's shown in ``my_hand`` (clickable when it is to act)."""
        #: one hand view a seat; the viewer's own lies below the felt (clickable when it is to act)
        self.hands = [HandView(on_card=on_card) for _ in range(self.players)]
        #: the felt (:mod:`qardlab.widgets.felt`): seats round it, the trick or the secret pair in the middle
        self.felt_view = widgets.HTML()
        self.felt_view.add_class("qard-felt-view")
        self.my_hand = widgets.Box(
            layout=widgets.Layout(justify_content="center", min_height=hand_height, padding="2px 0 6px 0")
        )
        self.my_hand.add_class("qard-my-hand")
        self.felt = widgets.VBox(
            [self.felt_view, self.my_hand],
            layout=widgets.Layout(width=width, max_width="100%", flex="0 0 auto"),
        )
        self.felt.add_class("qard-felt")
        self.log_view = widgets.HTML(
            layout=widgets.Layout(
                max_height=log_height, overflow="auto", border=f"1px solid {palette.RULE}", padding="4px"
            )
        )
        self.log_view.add_class("qard-log")
        # the replay stepper: hidden while the human plays live, shown when the game is over or asked for
        self.replay = widgets.ToggleButton(
            value=False,
            description="replay",
            tooltip="step through the game",
            layout=widgets.Layout(width="7em"),
        )
        self.replay.add_class("qard-replay-toggle")
        self.replay.observe(lambda _c: self.render(), names="value")
        if self.human is not None:
            self.toolbar.children = (*self.toolbar.children, self.replay)

    def log_lines(self, obs: Mapping[str, Any], seat: int | None) -> list[str]:
        """The events of ``obs`` (the observation of ``seat``, None: the teacher) in the game's words
        (its ``describe_event``), oldest first."""
        words, names = self.game_class.describe_event, self.names
        return [words(e, seat, names) for e in obs["events"]]

    @staticmethod
    def _heading(text: str) -> widgets.HTML:
        """The table's title (an app hides it: the page names the game)."""
        return widgets.HTML(to_html(el("h3", text, style={"margin": ".2em 0"})))

    @staticmethod
    def _label(text: str) -> widgets.HTML:
        """A panel's bold label ("Log", "Score sheet")."""
        return widgets.HTML(to_html(el("b", text)))

    def _bottom(self, seat: int | None) -> int:
        """The seat at the bottom of the felt: the viewer's, else the human's, else seat 0."""
        return seat if seat is not None else (self.human if self.human is not None else 0)

    def _show_hand(self, me: int) -> None:
        """Put the bottom seat's hand view under the felt; every other hand view holds no card."""
        view = self.hands[me]
        if self.my_hand.children != (view,):
            self.my_hand.children = (view,)
        clear_hands(self.hands, me)

    def seat_html(self, seat: int) -> str:
        """The HTML of ``seat``'s box on the felt as drawn now (for tests and notebooks)."""
        from .felt import part

        return part(self.felt_view.value, seat=seat)

    def _show_stepper(self, obs: Mapping[str, Any]) -> None:
        """The replay stepper: shown when nobody plays, the game is over, replay is asked for or the
        cursor is not at the end; hidden in live play."""
        if self.timeline is not None:  # a remote seat has no stepper
            self.stepper.layout.display = (
                "" if (self.human is None or obs["is_over"] or self.replay.value or not self.live) else "none"
            )
        self._show_play_on(obs)

    def _prompt(self, text: str, *, strong: bool = True) -> None:
        """The prompt above the controls: bold for what to do, italics for waiting."""
        self.prompt.value = to_html(el("b" if strong else "i", text)) if text else ""

    def _waiting_prompt(self, acting: bool, may_see: bool) -> str | None:
        """The prompt both tables give when the human cannot act here now (None when it can)."""
        if acting and not may_see:
            return "Your turn: switch to your own view (or the teacher's) to play."
        if not acting:
            if self.live:
                return "Waiting for the other players."
            if self.timeline is None:  # a joined seat whose connection dropped
                return "Connection to the table lost: reconnecting..."
            return "Stepping through: go to the last step to play."
        return None

    def render(self) -> None:  # pragma: no cover - abstract
        raise NotImplementedError
