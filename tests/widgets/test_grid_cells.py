"""The deduction grid's cells are one widget model (GridCells): a few models for the whole grid, one
message per update, a click from the browser explains its cell, a stale or malformed click changes nothing."""

from __future__ import annotations

from unittest import mock

import ipywidgets as widgets
import pytest

from qardlab.cards import Card
from qardlab.games.five_sons import FiveSons
from qardlab.games.five_sons.bots import RandomAsker
from qardlab.games.five_sons.deck import FACE_CARDS, NUMBER_CARDS
from qardlab.widgets.grid import DeductionGrid, GridCells

SECRET = "secret"


def _position() -> tuple[FiveSons, object]:
    game = FiveSons.new(players=4, seed=9)
    bots = {s: RandomAsker(seed=200 + s) for s in range(4)}
    while game.turn < 6 or game.phase != "ask":
        game.apply(bots[game.to_move].act(game.observation(game.to_move)))
    return game, game.knowledge(0)


def _holders() -> tuple[list, dict]:
    return [1, 2, 3, SECRET], {1: "Bob", 2: "Carol", 3: "Dave", SECRET: "secret"}


def test_a_grid_is_a_few_models_not_one_per_cell() -> None:
    _game, k = _position()
    holders, names = _holders()
    opened: list = []
    real = widgets.Widget.open

    def counting_open(self):  # every widget model the kernel creates opens one comm
        opened.append(type(self).__name__)
        return real(self)

    with mock.patch.object(widgets.Widget, "open", counting_open):
        grid = DeductionGrid(FACE_CARDS + NUMBER_CARDS, level="logic")
        grid.update(k, holders, names)
    assert len(FACE_CARDS + NUMBER_CARDS) * len(holders) == 88
    assert "Button" not in opened, opened
    assert opened.count("GridCells") == 1
    assert len(opened) < 13, opened  # the level buttons, the title, their layouts and styles (the explanation
    # is the cells' model's)


def test_an_update_is_one_message_of_the_cells_model() -> None:
    _game, k = _position()
    holders, names = _holders()
    grid = DeductionGrid(FACE_CARDS + NUMBER_CARDS, level="logic")
    grid.update(k, holders, names)
    sent: list = []
    with mock.patch.object(GridCells, "_send", lambda self, msg, buffers=None: sent.append(msg)):
        grid.level.value = "probability"
        grid.update(k, holders, names)
    assert len(sent) == 1 and sent[0]["method"] == "update"
    assert set(sent[0]["state"]) == {"cells"}  # the heads, labels and columns did not change
    assert grid.cell("QH", 2).description.endswith("%") or grid.cell("QH", 2).description in "✓✗"


def test_cells_say_what_the_knowledge_says_and_are_named_for_a_screen_reader() -> None:
    _game, k = _position()
    holders, names = _holders()
    grid = DeductionGrid(FACE_CARDS + NUMBER_CARDS, level="logic")
    grid.update(k, holders, names)
    logic = k.grid("logic")
    for card in FACE_CARDS + NUMBER_CARDS:
        for h in holders:
            cell = grid.cell(card, h)
            assert grid.values[(card, h)] == logic[card][h]
            want = {"yes": "✓", "no": "✗", None: "·"}[logic[card][h]]
            assert cell.description == want
            assert cell.spoken.startswith(f"cell: {card.name} with {names[h]}, ")
            assert cell.spoken.endswith({"✓": "yes", "✗": "no", "·": "not known"}[want])
    assert grid.box.heads == ["Bob", "Carol", "Dave", "secret"]
    assert len(grid.box.labels) == len(grid.cards) and "card row: Jack of Clubs" in grid.box.labels[0]


def test_a_click_from_the_browser_explains_its_cell() -> None:
    _game, k = _position()
    holders, names = _holders()
    grid = DeductionGrid(FACE_CARDS + NUMBER_CARDS, level="logic")
    grid.update(k, holders, names)
    r, c = grid.cards.index(Card.parse("QH")), holders.index(2)
    grid.box._message(grid.box, {"click": [r, c]}, [])
    assert "Why Q♥ / Carol" in grid.explanation.value
    grid.explanation.value = ""
    words = grid.cell("QH", 2).click()  # what the browser's click does, from Python
    assert words == " ".join(k.explain("QH", 2).sentences) and "Why Q♥ / Carol" in grid.explanation.value


def test_the_explanation_goes_under_its_cell_row_in_one_message_and_a_new_grid_clears_it() -> None:
    """Issue 29: the explanation landed under a 22-row grid, off screen; the cells' view now draws it
    under the explained cell's row (``explained``), so the kernel says which, with the words, at once."""
    _game, k = _position()
    holders, names = _holders()
    grid = DeductionGrid(FACE_CARDS + NUMBER_CARDS, level="logic")
    grid.update(k, holders, names)
    assert grid.box.explanation == "" and grid.box.explained == []
    sent: list = []
    with mock.patch.object(GridCells, "_send", lambda self, msg, buffers=None: sent.append(msg)):
        grid.explain("9H", SECRET)
    assert len(sent) == 1 and set(sent[0]["state"]) == {"explanation", "explained"}
    assert grid.box.explained == [grid.cards.index(Card.parse("9H")), holders.index(SECRET)]
    assert "Why 9♥ / secret" in grid.box.explanation == grid.explanation.value
    grid.update(k, holders, names)  # a step later: the old explanation no longer stands
    assert grid.box.explanation == "" and grid.box.explained == []
    grid.explain("QH", 0)  # a holder the grid does not show (its own seat): said, placed at the end
    assert "Why Q♥" in grid.explanation.value and grid.box.explained == []


BAD_CLICKS = [
    {"click": [99, 0]},
    {"click": [0, 9]},
    {"click": [-1, 0]},
    {"click": ["0", 1]},
    {"click": [0]},
    {"click": [True, 0]},
    {"click": None},
    {"other": 1},
    "click",
    {"click": [0.0, 1]},
]


@pytest.mark.parametrize("bad", BAD_CLICKS)
def test_a_stale_or_malformed_click_changes_nothing(bad) -> None:
    _game, k = _position()
    holders, names = _holders()
    grid = DeductionGrid(FACE_CARDS + NUMBER_CARDS, level="logic")
    grid.update(k, holders, names)
    before = grid.explanation.value, list(grid.box.cells)
    grid.box._message(grid.box, bad, [])
    assert (grid.explanation.value, list(grid.box.cells)) == before


def test_a_cell_the_grid_does_not_show_is_a_key_error_naming_it() -> None:
    grid = DeductionGrid(FACE_CARDS + NUMBER_CARDS)
    with pytest.raises(KeyError, match="Q♥"):
        grid.cell("QH", 2)  # no holders yet
    with pytest.raises(ValueError, match="ZZ"):
        grid.cell("ZZ", 2)
