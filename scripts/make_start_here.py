"""Write notebooks/00-start-here.ipynb from the cells below (outputs left empty).

Kept as a script so that the table of contents is edited in one readable place; run it with
`python scripts/make_start_here.py` after changing LESSONS or APPS, or adding a lesson notebook.
"""

from __future__ import annotations

from pathlib import Path

import nbformat
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook

ROOT = Path(__file__).resolve().parents[1]
TARGET = ROOT / "notebooks" / "00-start-here.ipynb"

# number -> (title, one line on what the student leaves knowing), as in LESSONS.md. The table of
# contents lists only the lessons whose notebook (notebooks/NN-*.ipynb) exists, linked by its real file name.
LESSONS: dict[str, tuple[str, str]] = {
    "01": (
        "A first game of Five Sons",
        "the deck, the deal, asking, answering, claiming; 120 candidate pairs falling to one",
    ),
    "02": (
        "What an answer tells whom",
        'the asker learns a card; everyone else learns "holds at least one of two"',
    ),
    "03": (
        "Three ways to reason",
        "crossing out seen cards, full logic, exact probability and the assumptions it rests on",
    ),
    "04": (
        "Asking good questions",
        "expected information in bits; an unpredictable answer is not the same as an informative one",
    ),
    "05": ("Play from memory", "a game with notes off, then the grid revealed: what memory loses"),
    "06": (
        "Build it: crossing out and logic",
        "you write the reasoning over the 120 pairs, checked against the engine",
    ),
    "07": (
        "Build it: counting deals",
        "brute-force counting on a small variant, checked against the exact posterior",
    ),
    "08": ("Build it: the best question", "entropy and expected information; your asker plays a seeded game"),
    "09": ("Play together", "a table of students, each at their own seat, then the replay side by side"),
    "10": (
        "A first hand of Hearts",
        "passing, the 2 of clubs, following suit, the first trick, hearts breaking, the Queen, the moon",
    ),
    "11": (
        "Counting cards in Hearts",
        "voids, what is still out, where a card probably is, and why (passed cards go to the receiver)",
    ),
    "12": (
        "Hearts experiments",
        "bots, tournaments, what a 95 % interval means, comparing two bots on the same deals",
    ),
}
APPS: list[tuple[str, str, str]] = [
    ("app-five-sons.ipynb", "Five Sons at the table", "play The King of Hearts has Five Sons against bots"),
    ("app-hearts.ipynb", "Hearts at the table", "play a match of Hearts against bots"),
    ("app-classroom.ipynb", "Play together", "join your seat at a class table with your teacher's code"),
    ("classroom-teacher.ipynb", "The teacher's desk", "create class tables, hand out codes, watch, replay"),
]

INTRO = """\
# Start here: qardlab

**qardlab** is a set of short lessons about reasoning with hidden cards, built on two card games:

* **The King of Hearts has Five Sons**: a deduction game for 4 or 5 players with a 22-card deck. Two cards
  (one face card, one heart from Ace to 10) are put aside face down; players ask each other about pairs of
  cards ("The Queen of Clubs has eight sons") and race to name the secret pair.
* **Hearts**: the trick-taking game. Avoid hearts and the Queen of spades, or take them all and shoot
  the moon.

In every lesson you deal a game (always the same one, thanks to a fixed *seed*), play it or step through it,
and watch what each seat can *know*: deduction grids fill in and charts show how each answer shrinks the
possibilities.

**Goal of this notebook:** learn how to move through a lesson, and find the lesson you want."""

HOW_TO = """\
## How to use a lesson

1. **Run the cells in order.** Click a cell and press **Shift + Enter**, or run everything with
   **Run > Run All Cells**. Each lesson runs top to bottom without you typing anything.
2. **Play with the widgets.** Buttons, card faces, steppers and grids respond to clicks. Cells below
   a widget do not need it: you may use it or skip it.
3. **Start again** with **Kernel > Restart Kernel and Run All Cells** whenever you like: the seeds make the
   same game come back.
4. **Exercises** end each lesson. Replace `None` on the answer line with your answer (`54`, `"54"`,
   `"Bob"` and `"qc"` are all understood) and run the check cell below it: it says why you are right or,
   if not, what you missed. Run it with no answer and it only asks you to write one first.

Each lesson takes about fifteen minutes."""

TRY_CARDS = """\
## Try it: cards show themselves

A card or a hand in the last line of a cell is drawn as cards, red suits in red. Run the next cell."""

CARDS_CODE = """\
from qardlab.cards import Card, Hand
from qardlab.games.five_sons import five_sons_deck

print(Card.parse("QC").name, "is written", Card.parse("QC").symbol)
Hand(five_sons_deck())  # the whole Five Sons deck: 12 face cards and the Ace to 10 of hearts"""

TRY_WIDGET = """\
## Try it: a widget

Run the next cell, then click **Deal me five cards**. Each click deals a fresh hand from the Five Sons deck;
the seed makes the sequence of hands the same for everybody."""

WIDGET_CODE = """\
import random

import ipywidgets as widgets

from qardlab.cards import Hand
from qardlab.games.five_sons import five_sons_deck

rng = random.Random(2024)
deal_button = widgets.Button(description="Deal me five cards", button_style="primary")
deal_button.add_class("qard-demo-deal")
hand_view = widgets.HTML("<em>no cards yet</em>")
hand_view.add_class("qard-demo-hand")
dealt = []


def deal(_button=None):
    \"\"\"Deal five cards from a freshly shuffled Five Sons deck into the hand view.\"\"\"
    deck = five_sons_deck()
    rng.shuffle(deck)
    dealt[:] = sorted(deck[:5])
    hand_view.value = Hand(dealt)._repr_html_()


deal_button.on_click(deal)
widgets.VBox([deal_button, hand_view])"""

CHECK_CODE = """\
# A widget can be driven from code too: this is how the lessons check themselves.
deal_button.click()
assert len(dealt) == 5 and 'class="qard-card"' in hand_view.value
print("dealt", Hand(dealt))"""


def lesson_files() -> list[str]:
    """The lesson notebooks that exist (NN-*.ipynb, NN from 01), in order."""
    return sorted(p.name for p in TARGET.parent.glob("[0-9][0-9]-*.ipynb") if p.name[:2] != "00")


def heading(name: str) -> str:
    """A lesson's title from its first heading ("# 06 · Title"), for a lesson LESSONS does not name."""
    nb = nbformat.read(TARGET.parent / name, as_version=4)
    first = nb.cells[0].source.splitlines()[0] if nb.cells else name
    return first.lstrip("# ").split("·", 1)[-1].strip()


def toc() -> str:
    """The table of contents: one line per lesson and per app, as relative links."""
    lines = ["## The lessons", "", "| # | lesson | you leave knowing |", "|---|---|---|"]
    for name in lesson_files():
        title, what = LESSONS.get(name[:2], (heading(name), ""))
        lines.append(f"| {name[:2]} | [{title}]({name}) | {what} |")
    lines += [
        "",
        "## The apps",
        "",
        "Two notebooks are games rather than lessons. Open them here and run all cells, or as a stand-alone",
        "page with Voila: the *Render with Voila* button in the notebook's toolbar, or from a shell in",
        "the folder of your copy of qardlab `./run app hearts` (or `./run app five-sons`), which prints the",
        "address to open. JupyterLab's own terminal (*File > New > Terminal*, when `./run lab` started",
        "JupyterLab) opens in this folder with qardlab's commands at hand: there the same is",
        "`../run app hearts`, or `voila app-hearts.ipynb`.",
        "",
    ]
    for name, title, what in APPS:
        lines.append(f"* [{title}]({name}): {what}")
    return "\n".join(lines)


def build() -> nbformat.NotebookNode:
    """The notebook, with stable cell ids so that regenerating it gives the same file."""
    cells = [
        new_markdown_cell(INTRO),
        new_markdown_cell(toc()),
        new_markdown_cell(HOW_TO),
        new_markdown_cell(TRY_CARDS),
        new_code_cell(CARDS_CODE),
        new_markdown_cell(TRY_WIDGET),
        new_code_cell(WIDGET_CODE),
        new_code_cell(CHECK_CODE),
        new_markdown_cell("Now open [the first lesson](01-five-sons-first-game.ipynb)."),
    ]
    for i, cell in enumerate(cells):
        cell["id"] = f"start-{i:02d}"
    nb = new_notebook(cells=cells)
    nb.metadata["kernelspec"] = {
        "name": "python3",
        "display_name": "Python 3 (ipykernel)",
        "language": "python",
    }
    nb.metadata["language_info"] = {"name": "python"}
    return nb


if __name__ == "__main__":
    nb = build()
    nbformat.validate(nb)
    TARGET.write_text(nbformat.writes(nb) + "\n", encoding="utf-8")
    print(f"wrote {TARGET.relative_to(ROOT)}")
