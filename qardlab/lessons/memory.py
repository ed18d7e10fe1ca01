"""Lesson 05 (Play from memory): a memory test, and the grid revealed afterwards.

- :func:`quiz_game`: the lesson's game, four logic bots for six questions, as Alice saw it;
- :func:`memory_test`: Alice's log behind two buttons. "Show the log" puts it on the page; "I have read
  it: hide the log" takes it off and shows the two questions instead. Under Run All neither the log nor
  the questions are on the page, so nothing printed answers them;
- :func:`check_holder`: who holds a card Alice can place only by putting two things together (exercise 1:
  her own hand and a "one of"; exercise 2, the transfer: a "neither" and a "one of", two answers heard
  turns apart);
- :func:`reveal_button`: section 3's reveal (what memory lost), made only when clicked.
"""

from __future__ import annotations

from typing import Any

from ..cards import Card
from ..deduction import SECRET
from .exercises import Exercise, Reply, read_name, right, wrong

__all__ = [
    "quiz_game",
    "log_lines",
    "quiz_cards",
    "memory_test",
    "check_holder",
    "reveal_button",
    "EXERCISES",
]

LESSON = "05-play-from-memory"
EXERCISES = {"first": Exercise(LESSON, "memory-quiz"), "second": Exercise(LESSON, "memory-quiz-2")}
#: the quiz's game: its seed, the bots' seeds (300 + seat) and the questions played; Alice's chair
QUIZ_SEED, QUIZ_QUESTIONS, ME = 5, 6, 0


def quiz_game(seed: int = QUIZ_SEED, questions: int = QUIZ_QUESTIONS) -> Any:
    """Four logic bots play ``questions`` questions of the seeded game (notes off)."""
    from ..games.five_sons import FiveSons
    from ..games.five_sons.bots import ReasoningBot

    game = FiveSons.new(players=4, seed=seed, notes=False)
    bots = {s: ReasoningBot(seed=300 + s) for s in range(4)}
    while not game.is_over and not (game.turn >= questions and game.phase == "ask"):
        game.apply(bots[game.to_move].act(game.observation(game.to_move)))
    return game


def log_lines(game: Any, seat: int = ME) -> list[str]:
    """The game's log as ``seat`` saw it (no "nobody claims" lines)."""
    return [game.describe(e, seat) for e in game.events if e.visible_to(seat) and e.kind != "no_claim"]


def quiz_cards(game: Any, seat: int = ME) -> list[tuple[Card, int]]:
    """(card, holder) of the cards ``seat`` can place by logic but has not seen, with a different kind of
    reason
    for each: first the one its own hand helps place, then one two heard answers place."""
    k = game.knowledge(seat)
    seen, logic = k.grid("naive"), k.grid("logic")
    found = [
        (card, holder)
        for card in logic
        for holder in logic[card]
        if holder not in (seat, SECRET) and logic[card][holder] == "yes" and seen[card][holder] is None
    ]

    def own_hand_helps(cell: tuple[Card, int]) -> bool:
        return any(t.startswith("You were dealt") for t in k.explain(*cell).sentences)

    def heard_only(cell: tuple[Card, int]) -> bool:
        said = " ".join(k.explain(*cell).sentences)
        return not own_hand_helps(cell) and "neither" in said and "one of" in said

    first = next(c for c in found if own_hand_helps(c))
    second = next(c for c in found if heard_only(c) and c != first)
    return [first, second]


def memory_test(lines: list[str], questions: list[str]) -> Any:
    """The log behind two buttons (see the module): ``lines`` the log, ``questions`` shown once it is "
    "hidden."""
    import ipywidgets as widgets

    from ..render.markup import el, to_html

    class _MemoryTest(widgets.VBox):
        def __repr__(self) -> str:  # the notebook's plain text of the widget: no log, no question
            return "[buttons: Show the log / I have read it: hide the log]"

    show = widgets.Button(description="Show the log", layout=widgets.Layout(width="auto"))
    hide = widgets.Button(
        description="I have read it: hide the log", layout=widgets.Layout(width="auto", display="none")
    )
    show.add_class("qard-show-log")
    hide.add_class("qard-hide-log")
    page = widgets.HTML()
    page.add_class("qard-memory-log")
    box = _MemoryTest([show, hide, page])

    def on_show(_b: Any) -> None:
        page.value = to_html(el("pre", "\n".join(lines), style={"font-size": "14px", "line-height": "1.5"}))
        show.layout.display = "none"
        hide.layout.display = ""

    def on_hide(_b: Any) -> None:
        page.value = to_html(
            el(
                "div",
                el("p", el("b", "Without scrolling back, and without notes:")),
                el("ol", *(el("li", q) for q in questions)),
            )
        )
        hide.layout.display = "none"

    show.on_click(on_show)
    hide.on_click(on_hide)
    return box


def check_holder(answer: Any, game: Any, card: Card, exercise: str, seat: int = ME) -> Reply:
    """Who holds ``card`` (a name, or "secret"), as ``seat`` can tell by logic from what it heard."""
    k = game.knowledge(seat)
    names = [game.seat_name(s) for s in range(game.players)]
    places = {n: s for s, n in enumerate(names)} | {"secret": SECRET}
    logic = k.grid("logic")
    holder = next(h for h, v in logic[card].items() if v == "yes")
    why = k.explain(card, holder)
    own = any(t.startswith("You were dealt") for t in why.sentences)
    neither = any("neither" in t for t in why.sentences)
    solution = [
        f"{k.name(holder)} holds the {card.symbol}. The facts that together place it, heard turns apart:",
        *(f"  {s}" for s in why.sentences),
    ]

    def judge(place: Any) -> Reply:
        if place == seat:
            return wrong(
                f"{names[seat]} knows her own hand: the {card.symbol} is not in it.",
                "Hint: think of the answers that named it.",
                solution=solution,
            )
        if place == holder:
            return right(
                f"{k.name(holder)} holds the {card.symbol}. The facts that together place it:",
                *(f"  {s}" for s in why.sentences),
            )
        if own:
            step = (
                f'Which answer named the {card.symbol}? A "one of" answer: and do you hold the other card it '
                "named?"
            )
        elif neither:
            step = (
                f'A "one of" answer named the {card.symbol}. Did the same player say "neither" about the '
                f"other "
                "card, before or after?"
            )
        else:
            step = f"Which answers named the {card.symbol}? Put two of them together."
        return wrong(
            f"not {k.name(place)}.",
            "Hint: " + step + " Memory keeps the cards you saw; it rarely keeps the pairs you heard.",
            solution=solution,
        )

    return EXERCISES[exercise].check(answer, read_name(places), judge, example='"Dave"')


def reveal_button(game: Any, seat: int = ME) -> Any:
    """Section 3's reveal: a button that, when clicked, shows the counts and the cards ``seat`` could place
    without seeing them, with the engine's reasons, and the table with the grid (nothing before the click)."""
    import ipywidgets as widgets
    from IPython.display import display

    from ..widgets import table

    class _Reveal(widgets.VBox):
        def __repr__(self) -> str:
            return "[button: Reveal the grid]"

    button = widgets.Button(description="Reveal the grid", layout=widgets.Layout(width="auto"))
    button.add_class("qard-reveal-grid")
    out = widgets.Output()
    box = _Reveal([button, out])

    def reveal(_b: Any) -> None:
        k = game.knowledge(seat)
        seen, logic = k.grid("naive"), k.grid("logic")
        missed = [
            (c, h)
            for c in logic
            for h in logic[c]
            if h != seat and logic[c][h] == "yes" and seen[c][h] is None
        ]
        button.layout.display = "none"
        with out:
            print(f"Pairs still possible, counting only the cards Alice saw: {len(k.naive_candidates())}")
            print(f"Pairs still possible, using every fact she heard:        {len(k.candidates())}")
            print()
            print(f"Cards whose place she could know without seeing them: {len(missed)}")
            for card, holder in missed:
                print(f"  {card.symbol} is with {k.name(holder)}:", k.explain(card, holder).text)
            display(table(game, seat=seat))

    button.on_click(reveal)
    return box
