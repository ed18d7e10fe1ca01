"""Issue 10, sections 4 and 6: what both games do alike lives in ``Game``, and a game is found by its
name.

One seat check (IllegalAction, a ValueError, naming the bad value) and one names check (count,
type, duplicates) for every game; the base observation keys built in ``Game`` for every seat and
the teacher; ``transcript()`` and ``knowledge(seat)`` in ``Game``; ``find_game`` and the game
classes' player counts, knowledge adapter and table.
"""

from __future__ import annotations

import re
from typing import Any, Callable

import pytest

from qardlab.engine import IllegalAction, RandomBot, play
from qardlab.engine.contract import check_common
from qardlab.engine.game import BASE_OBSERVATION_KEYS, Game
from qardlab.engine.registry import find_game
from qardlab.games.five_sons import FiveSons
from qardlab.games.hearts import Hearts

MAKERS: dict[str, Callable[..., Game]] = {
    "five_sons": lambda **kw: FiveSons.new(4, seed=3, **kw),
    "hearts": lambda **kw: Hearts.new(4, seed=3, **kw),
}


@pytest.mark.parametrize("game", list(MAKERS))
@pytest.mark.parametrize(
    "names,match",
    [
        (["Ann", "Ben", "Ann", "Dan"], "names must be distinct, one per seat: 'Ann' given twice"),
        (["Ann", "Ben", "Cat"], "names must be 4 non-empty strings, one per seat, not"),
        (["Ann", "Ben", "Cat", "  "], "names must be 4 non-empty strings, one per seat, not"),
        (("Ann", "Ben", "Cat", None), "names must be 4 non-empty strings, one per seat, not"),
    ],
)
def test_one_names_check_names_the_bad_value(game: str, names: Any, match: str) -> None:
    with pytest.raises(ValueError, match=re.escape(match)) as e:
        MAKERS[game](names=names)
    assert repr(names) in str(e.value)


@pytest.mark.parametrize("game", list(MAKERS))
def test_names_reach_every_view(game: str) -> None:
    g = MAKERS[game](names=["Ann", "Ben", "Cat", "Dan"])
    assert g.observation(2)["names"] == g.observation(None)["names"] == ["Ann", "Ben", "Cat", "Dan"]


@pytest.mark.parametrize("game", list(MAKERS))
def test_base_observation_keys_seat_check_transcript_and_knowledge(game: str) -> None:
    """At the start, in the middle and at the end: every view has the base keys, the transcript and the
    knowledge go through ``Game``, and a bad seat is refused with IllegalAction naming it."""
    g = MAKERS[game]()
    check_common(g)
    bots = [RandomBot(s) for s in range(g.players)]
    for _ in range(30):
        if g.is_over:
            break
        g.play(bots[g.to_move].act(g.observation(g.to_move)))
    check_common(g)
    obs = g.observation(1)
    assert set(BASE_OBSERVATION_KEYS) <= set(obs)
    assert g.transcript(1) == [g.describe(e, 1) for e in g.events if e.visible_to(1)]
    assert g.knowledge(1).seat == 1


@pytest.mark.parametrize("game", list(MAKERS))
@pytest.mark.parametrize("seat", [-1, 4, True, "1", 2.0])
def test_transcript_and_knowledge_refuse_a_bad_seat_naming_it(game: str, seat: Any) -> None:
    g = MAKERS[game]()
    before = g.record().to_json()
    for call in (g.transcript, g.knowledge, g.observation):
        with pytest.raises(IllegalAction, match=re.escape(f"seat {seat!r} is not a seat of this game")):
            call(seat)
        with pytest.raises(ValueError):  # IllegalAction is a ValueError: older callers keep working
            call(seat)
    assert g.record().to_json() == before


def test_hearts_transcript_comes_from_game() -> None:
    """Hearts had no transcript of its own: ``Game.transcript`` gives it, the seat's view only."""
    g = Hearts.new(4, seed=5)
    play(g, [RandomBot(s) for s in range(4)], max_steps=20)
    mine, teacher = g.transcript(0), g.transcript()
    deal = next(e for e in g.events if e.kind == "deal")
    assert g.describe(deal, 0) in mine and g.describe(deal, None) in teacher
    assert g.describe(deal, None) not in mine, "seat 0's transcript reads the teacher's deal (every hand)"
    assert len(mine) == len(teacher) > 10


def test_find_game_by_name_and_its_class_facts() -> None:
    assert find_game("five_sons") is FiveSons and find_game("hearts") is Hearts
    assert FiveSons.player_counts() == (4, 5) and Hearts.player_counts() == (3, 4, 5, 6)
    assert FiveSons.title == "The King of Hearts has Five Sons" and Hearts.title == "Hearts"
    for cls in (FiveSons, Hearts):
        assert callable(cls.knowledge_function())
    for bad in ("chess", "../x", 5, None, "Hearts"):
        with pytest.raises(ValueError, match=re.escape(f"unknown game {bad!r}; known: ")):
            find_game(bad)


def test_apps_offer_the_game_classes_player_counts_and_bot_levels() -> None:
    """The apps read the game class, the one place: its player counts, its bot levels (weakest first, the
    strongest chosen) in the words of its ``bot_level_titles`` (the labels the apps always showed)."""
    from qardlab.widgets.apps import FiveSonsApp, HeartsApp, app_class

    labels = {
        FiveSons: ["random questions", "logic", "probability (best questions)"],
        Hearts: ["random", "rules", "card counting"],
    }
    for app_cls, game_cls in ((FiveSonsApp, FiveSons), (HeartsApp, Hearts)):
        assert app_cls is app_class(game_cls.name)
        app = app_cls(players=game_cls.min_players, charts=False)
        try:
            assert tuple(app.players.options) == game_cls.player_counts()
            assert [label for label, _ in app.level.options] == labels[game_cls]
            assert [level for _, level in app.level.options] == list(game_cls.bot_levels)
            assert app.level.value == list(game_cls.bot_levels)[-1]
            bots = app.table.source.driver.bots
            strongest = game_cls.bot_makers()[app.level.value]
            assert sorted(bots) == list(range(1, game_cls.min_players)) and all(
                type(b) is strongest for b in bots.values()
            )
        finally:
            app.close()
        with pytest.raises(ValueError, match=re.escape(f"players must be one of {game_cls.player_counts()}")):
            app_cls(players=game_cls.max_players + 1, charts=False)


@pytest.mark.parametrize("name,table", [("five_sons", "FiveSonsTable"), ("hearts", "HeartsTable")])
def test_widgets_table_finds_a_games_table_by_its_name(name: str, table: str) -> None:
    from qardlab import widgets

    g = find_game(name).new(players=4, seed=2)
    from qardlab.engine import Timeline
    from qardlab.widgets.source import LocalSource

    for given in (name, g, g.record(), find_game(name), Timeline(g), LocalSource(g)):
        assert widgets.table_class(given).__name__ == table
    t = widgets.table(name, seat=1, seed=2, players=4, charts=False)
    try:
        assert type(t).__name__ == table and t.seat == 1 and t.players == 4
        assert t.observation(1)["hand"] == g.observation_json(1)["hand"]  # the same seed: the same deal
    finally:
        t.close()
    with pytest.raises(ValueError, match="no table widget for unknown game 'chess'"):
        widgets.table("chess")


def test_a_game_name_is_taken_once() -> None:
    """Two classes under one name (or one module imported under two names) are refused, naming both."""
    with pytest.raises(ValueError, match=r"game name 'hearts' of .*Impostor is taken by qardlab\.games\."):

        class Impostor(Hearts):
            name = "hearts"

    class Variant(Hearts):  # inherits the name: not registered, the game stays Hearts
        pass

    assert find_game("hearts") is Hearts and Variant.name == "hearts"


def test_widgets_table_by_name_uses_the_games_own_defaults() -> None:
    from qardlab import widgets

    t = widgets.table("hearts", charts=False)
    try:
        assert t.players == 4 and t.observation(None)["hands"] == Hearts.new().observation_json(None)["hands"]
    finally:
        t.close()


def test_every_game_folder_declares_what_the_document_asks() -> None:
    """The classroom reads the games from the package's folders and each game's bots and set-up deal from
    its class (nothing there names a game). Each class declares what docs/adding-a-game.md asks, as the
    contract checks it (``check_declarations``: at least one bot level, each playing an accepted step; a
    set-up deal not the game's refused with a ValueError naming it), and the classroom offers its levels."""
    from qardlab.classroom.tables import BOT_LEVELS, GAMES
    from qardlab.engine.contract import check_declarations
    from qardlab.engine.registry import game_names

    assert GAMES == game_names() and set(GAMES) >= {"five_sons", "hearts"}
    for name in GAMES:
        cls = find_game(name)
        check_declarations(cls)
        assert tuple(cls.bot_levels) == BOT_LEVELS[name]
    assert FiveSons.bot_level_title("probability") == "probability (best questions)"
