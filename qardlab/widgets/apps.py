"""Complete game apps in one cell (Voila-ready): settings, a new deal, and a table against bots.

:class:`GameApp` is the app of any game: players (the game class's counts), seed, bot level (the
class's ``bot_levels``, in the words of ``bot_level_titles``), then the game's table (its own, or the
generic one) where the human plays seat 0 against bots of that level. ``qardlab.widgets.app(name)`` gives
it for a game by its name; a game needs no class of its own here. Two games add settings of their own:
``FiveSonsApp`` (notes on/off, "pass on claims unless I claim") and ``HeartsApp`` (none: a match). Each
"New deal" builds a fresh game from the settings and closes the table it replaces (with every widget of
it), so a long session does not grow; nothing else in the notebook needs to run.

An app is what a student plays: its table is locked to the player's seat (no View
control; no bot's view, no teacher's view). ``teacher=True`` (a teacher at the projector,
asked for explicitly in the notebook) adds a View control with the teacher's view
("all cards") beside the player's own; never a bot's view.
"""

from __future__ import annotations

from typing import Any

import ipywidgets as widgets

from .. import palette
from ..engine import Game, find_game
from ..render.markup import el, to_html
from .base import DESCRIPTION_WIDTH, close_tree
from .finder import table_class

__all__ = ["GameApp", "FiveSonsApp", "HeartsApp", "app_class"]


def _game_class(game: Any) -> type[Game]:
    """A game class from a class or its registry name; ValueError naming anything else."""
    if isinstance(game, type) and issubclass(game, Game):
        return game
    if isinstance(game, str):
        return find_game(game)  # (ValueError naming an unknown game)
    raise ValueError(f"an app plays a game (its class or its name), not {game!r:.80}")


class GameApp(widgets.VBox):
    """Play any game as seat 0 against bots (see the module docstring).

    ``game`` the game class or its registry name; ``players`` one of its player counts (default 4 where it
    allows 4, else its fewest); ``seed`` the first deal's; ``level`` one of its bot levels, by name or by
    its words (default the strongest, the last); ``charts`` whether the table draws charts; ``teacher`` adds
    the teacher's view; ``title`` shows the game's title above the settings. ValueError naming a bad value.
    """

    #: the registry name of the game this class is the app of ("" : any game, given to the constructor)
    game = ""
    #: the seat the person at the app plays
    seat = 0

    def __init__(
        self,
        game: Any = None,
        players: int | None = None,
        seed: int = 1,
        level: str | None = None,
        *,
        charts: bool = True,
        teacher: bool = False,
        title: bool = False,
    ) -> None:
        #: the game class the app deals
        self.game_class = _game_class(self.game or game)
        counts = self.game_class.player_counts()
        if players is None:
            players = 4 if 4 in counts else counts[0]
        if isinstance(players, bool) or players not in counts:
            raise ValueError(f"players must be one of {counts}, not {players!r}")
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise ValueError(f"seed must be an integer, not {seed!r}")
        #: bot level name -> maker(seed), weakest first (the game class's ``bot_levels``)
        self.levels = self.game_class.bot_makers()
        level = self._level_name(level)
        if not isinstance(teacher, bool):
            raise ValueError(f"teacher must be True or False, not {teacher!r}")
        if not isinstance(title, bool):
            raise ValueError(f"title must be True or False, not {title!r}")
        if not isinstance(charts, bool):
            raise ValueError(f"charts must be True or False, not {charts!r}")
        self._charts = charts
        self.teacher = teacher
        self.title = self.game_class.title or self.game_class.name
        self.players = widgets.Dropdown(
            options=list(counts),
            value=players,
            description="Players:",
            layout=widgets.Layout(width="10em"),
        )
        self.seed = widgets.IntText(value=seed, description="Seed:", layout=widgets.Layout(width="10em"))
        self.level = widgets.Dropdown(
            options=[(self.game_class.bot_level_title(lv), lv) for lv in self.levels],
            value=level,
            description="Bot level:",
            layout=widgets.Layout(width="25em"),
            style={"description_width": DESCRIPTION_WIDTH},
        )
        self.level.add_class("qard-bot-level")
        #: the colour-blind-safe four-colour deck (clubs green, diamonds blue, :mod:`qardlab.palette`): one
        #: switch for every card of the session, in every app
        self.four_colours = widgets.Checkbox(
            value=palette.deck() == "four",
            description="four-colour deck",
            indent=False,
            layout=widgets.Layout(width="11em"),
        )
        self.four_colours.add_class("qard-four-colours")
        self.four_colours.observe(self._deck_changed, names="value")
        self.new_button = widgets.Button(description="New deal", button_style="success")
        self.new_button.add_class("qard-new-deal")
        self.new_button.on_click(lambda _b: self.new_deal())
        self.settings = widgets.HBox(
            [self.players, self.seed, self.level, *self.extra_settings(), self.four_colours, self.new_button],
            layout=widgets.Layout(flex_flow="row wrap", align_items="center"),
        )
        self.table_box = widgets.Box()
        self.table: Any = None
        # the page names the game already (the app notebooks' heading): the app's own title only if asked
        heading = [widgets.HTML(to_html(el("h2", self.title)))] if title else []
        super().__init__([*heading, self.settings, self.table_box])
        self.add_class("qard-app")
        self.new_deal()

    def _level_name(self, level: Any) -> str:
        """The bot level ``level`` names (a level's name, or its words for people); the strongest for None."""
        if level is None:
            return list(self.levels)[-1]
        if isinstance(level, str):
            if level in self.levels:
                return level
            by_words = {self.game_class.bot_level_title(lv): lv for lv in self.levels}
            if level in by_words:
                return by_words[level]
        raise ValueError(f"level {level!r} is not one of {list(self.levels)}")

    def extra_settings(self) -> list[widgets.Widget]:
        return []

    def _deck_changed(self, change: dict) -> None:
        """Draw every card in the four-colour deck (or back in two colours), the table at once."""
        palette.use("four" if change["new"] else "two")
        if self.table is not None:
            self.table.render()

    @property
    def views(self) -> tuple[int | None, ...]:
        """The viewpoints the app's table offers: the player's seat (and the teacher's, if asked)."""
        return (self.seat, None) if self.teacher else (self.seat,)

    def new_deal(self) -> None:
        """A fresh deal from the settings. With the same number of players it is played at the same table
        (its widgets reused: nothing to build in the kernel or the browser, so it shows at once); else the
        table is replaced and the old one closed."""
        players, seed = self.players.value, self.seed.value
        game = self.make_game(players, seed)
        maker = self.levels[self.level.value]
        bots = {s: maker(seed * 100 + s) for s in range(players) if s != self.seat}
        old = self.table
        if old is not None and old.can_restart(game):
            old.restart(game, bots)
            return
        self.table = self.make_table(game, bots)
        self.table.title.layout.display = "none"  # the app has its own title
        self.table_box.children = (self.table,)
        if old is not None:
            old.close()

    def game_options(self) -> dict[str, Any]:
        """The options of a new deal from the app's own settings (none here; Five Sons: its notes)."""
        return {}

    def make_game(self, players: int, seed: int) -> Any:
        """A new game of ``players`` dealt from ``seed``, with the app's options."""
        return self.game_class.new(players, seed=seed, **self.game_options())

    def make_table(self, game: Any, bots: dict[int, Any]) -> Any:
        """The game's table (:func:`qardlab.widgets.table_class`: its own, or the generic one), locked to the
        player's seat (and the teacher's view, if asked), the bots in the other seats."""
        return table_class(self.game_class)(
            game, seat=self.seat, human=self.seat, bots=bots, charts=self._charts, views=self.views
        )

    def close(self) -> None:
        """Close the app, its table and every widget of both."""
        if self.comm is None:  # closed already (ipywidgets also calls close() on deletion)
            return
        if self.table is not None:
            self.table.close()
        close_tree(self)


class FiveSonsApp(GameApp):
    """Play The King of Hearts has Five Sons as seat 0 against bots: the app of any game, with its notes
    (the grid) on or off and "pass on claims unless I claim" (on by default) besides."""

    game = "five_sons"

    def __init__(
        self,
        players: int = 4,
        seed: int = 1,
        level: str | None = None,
        notes: bool = True,
        charts: bool = True,
        teacher: bool = False,
        auto_pass: bool = True,
        title: bool = False,
    ) -> None:
        self.notes = widgets.Checkbox(
            value=notes, description="notes (grid)", indent=False, layout=widgets.Layout(width="9em")
        )
        #: "pass on claims unless I claim", on by default: the player does not click "No claim" each time
        if not isinstance(auto_pass, bool):
            raise ValueError(f"auto_pass must be True or False, not {auto_pass!r}")
        self.auto_pass = auto_pass
        super().__init__(None, players, seed, level, charts=charts, teacher=teacher, title=title)

    def extra_settings(self) -> list[widgets.Widget]:
        return [self.notes]

    def game_options(self) -> dict[str, Any]:
        return {"notes": self.notes.value}

    def make_table(self, game: Any, bots: dict[int, Any]) -> Any:
        from .five_sons import FiveSonsTable

        table = FiveSonsTable(
            game,
            seat=self.seat,
            human=self.seat,
            bots=bots,
            charts=self._charts,
            views=self.views,
            auto_pass=self.auto_pass,
        )
        # the player's choice carries over to the next deal
        table.auto_pass.observe(lambda c: setattr(self, "auto_pass", c["new"]), names="value")
        return table


class HeartsApp(GameApp):
    """Play a Hearts match as seat 0 against bots (the app of any game, with Hearts' defaults)."""

    game = "hearts"

    def __init__(
        self,
        players: int = 4,
        seed: int = 1,
        level: str | None = None,
        charts: bool = True,
        teacher: bool = False,
        title: bool = False,
    ) -> None:
        super().__init__(None, players, seed, level, charts=charts, teacher=teacher, title=title)


def app_class(game: Any) -> type[GameApp]:
    """The app class of ``game`` (a game class or its registry name): the subclass of :class:`GameApp` made
    for it, if any (Five Sons', Hearts'), else :class:`GameApp` itself. ValueError naming an unknown game."""
    name = _game_class(game).name
    return next((c for c in GameApp.__subclasses__() if c.game == name), GameApp)
