"""Complete game apps in one cell (Voila-ready): settings, a new deal, and a table against bots.

``FiveSonsApp``: players (the game class's counts, 4 or 5), seed, bot level, notes on/off, then a
Five Sons table where the human plays seat 0 against bots. ``HeartsApp``: players (3 to 6, from the
game class), seed, bot level, then a Hearts match against bots. Each "New deal" builds a fresh game from the
settings and closes the table it replaces (with every widget of it), so a long session
does not grow; nothing else in the notebook needs to run.

An app is what a student plays: its table is locked to the player's seat (no View
control; no bot's view, no teacher's view). ``teacher=True`` (a teacher at the projector,
asked for explicitly in the notebook) adds a View control with the teacher's view
("all cards") beside the player's own; never a bot's view.
"""

from __future__ import annotations

from typing import Any, Callable

import ipywidgets as widgets

from .. import palette
from ..engine import RandomBot
from ..render.markup import el, to_html
from .base import DESCRIPTION_WIDTH, close_tree

__all__ = ["FiveSonsApp", "HeartsApp", "five_sons_bot_levels", "hearts_bot_levels"]


def five_sons_bot_levels() -> dict[str, Callable[[int], Any]]:
    """Bot level label -> maker(seed), weakest first (the app's default is the last, strongest)."""
    from ..games.five_sons.bots import RandomAsker, ReasoningBot
    from ..games.five_sons.probability_bot import ProbabilityBot

    return {
        "random questions": RandomAsker,
        "logic": ReasoningBot,
        "probability (best questions)": ProbabilityBot,
    }


def hearts_bot_levels() -> dict[str, Callable[[int], Any]]:
    """Bot level label -> maker(seed), weakest first (the app's default is the last, strongest)."""
    from ..games.hearts.bots import CountingBot, RuleBot

    return {"random": RandomBot, "rules": RuleBot, "card counting": CountingBot}


class _App(widgets.VBox):
    title = ""

    #: the seat the person at the app plays
    seat = 0

    def __init__(
        self,
        players: int,
        player_choices: tuple[int, ...],
        seed: int,
        levels: dict,
        level: str | None,
        teacher: bool = False,
        title: bool = False,
    ) -> None:
        if isinstance(players, bool) or players not in player_choices:
            raise ValueError(f"players must be one of {player_choices}, not {players!r}")
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise ValueError(f"seed must be an integer, not {seed!r}")
        if level is not None and (not isinstance(level, str) or level not in levels):
            raise ValueError(f"level {level!r} is not one of {list(levels)}")
        if not isinstance(teacher, bool):
            raise ValueError(f"teacher must be True or False, not {teacher!r}")
        if not isinstance(title, bool):
            raise ValueError(f"title must be True or False, not {title!r}")
        self.levels = levels
        self.teacher = teacher
        self.players = widgets.Dropdown(
            options=list(player_choices),
            value=players,
            description="Players:",
            layout=widgets.Layout(width="10em"),
        )
        self.seed = widgets.IntText(value=seed, description="Seed:", layout=widgets.Layout(width="10em"))
        self.level = widgets.Dropdown(
            options=list(levels),
            value=level or list(levels)[-1],
            description="Bot level:",
            layout=widgets.Layout(width="25em"),
            style={"description_width": DESCRIPTION_WIDTH},
        )
        self.level.add_class("qard-bot-level")
        #: the colour-blind-safe four-colour deck (clubs green, diamonds blue, :mod:`qardlab.palette`): one
        #: switch for every card of the session, in both apps
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

    def make_game(self, players: int, seed: int) -> Any:  # pragma: no cover
        raise NotImplementedError

    def make_table(self, game: Any, bots: dict[int, Any]) -> Any:  # pragma: no cover
        raise NotImplementedError

    def close(self) -> None:
        """Close the app, its table and every widget of both."""
        if self.comm is None:  # closed already (ipywidgets also calls close() on deletion)
            return
        if self.table is not None:
            self.table.close()
        close_tree(self)


class FiveSonsApp(_App):
    """Play The King of Hearts has Five Sons as seat 0 against bots."""

    title = "The King of Hearts has Five Sons"

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
        self._charts = charts
        #: "pass on claims unless I claim", on by default: the player does not click "No claim" each time
        if not isinstance(auto_pass, bool):
            raise ValueError(f"auto_pass must be True or False, not {auto_pass!r}")
        self.auto_pass = auto_pass
        from ..games.five_sons import FiveSons

        super().__init__(
            players, FiveSons.player_counts(), seed, five_sons_bot_levels(), level, teacher, title
        )

    def extra_settings(self) -> list[widgets.Widget]:
        return [self.notes]

    def make_game(self, players: int, seed: int) -> Any:
        from ..games.five_sons import FiveSons

        return FiveSons.new(players, seed=seed, notes=self.notes.value)

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


class HeartsApp(_App):
    """Play a Hearts match as seat 0 against bots."""

    title = "Hearts"

    def __init__(
        self,
        players: int = 4,
        seed: int = 1,
        level: str | None = None,
        charts: bool = True,
        teacher: bool = False,
        title: bool = False,
    ) -> None:
        self._charts = charts
        from ..games.hearts import Hearts

        super().__init__(players, Hearts.player_counts(), seed, hearts_bot_levels(), level, teacher, title)

    def make_game(self, players: int, seed: int) -> Any:
        from ..games.hearts import Hearts

        return Hearts.new(players, seed=seed)

    def make_table(self, game: Any, bots: dict[int, Any]) -> Any:
        from .hearts import HeartsTable

        return HeartsTable(
            game, seat=self.seat, human=self.seat, bots=bots, charts=self._charts, views=self.views
        )
