"""``HeartsTable``: a hand or a match of Hearts at a card table, for 3 to 6 seats.

The other seats sit across the felt (names, the dealer's mark, whose turn, cards left,
cards taken and points); the trick in play lies in the middle with the pass direction and
the hearts-broken mark; the viewer's hand is at the bottom. A human seat chooses three
cards to pass by clicking them, then plays by clicking; an illegal card is dimmed with the
game's reason on hover, and a click on it is refused with that reason. Below: the last trick
on demand, the score sheet, a chart of running totals, and the chosen seat's card-counting
grid (unseen cards by opponent, voids, probabilities from the deduction engine).

Every view is drawn from the source's observation of the viewpoint (the teacher's is
``observation(None)``): its words by the game's ``describe_event``, the counting grid from
``knowledge_of(observation)``; the table reads no game, and its bots and deals are the seat driver's
(the "Next hand" button asks the local source's driver to deal).
"""

from __future__ import annotations

from typing import Any, Mapping, Optional, Sequence

import ipywidgets as widgets

from .. import charts
from ..cards import Card, Suit
from ..games.hearts.knowledge import knowledge_of
from ..render.grid import grid_table
from ..render.markup import el, raw, to_html, wrapped
from . import felt
from .base import GameTable
from .cards import cards_html
from .figures import ChartView

__all__ = ["HeartsTable", "counting_html"]


class HeartsTable(GameTable):
    """A Hearts table over a timeline; see :class:`~qardlab.widgets.base.GameTable`."""

    auto_deal = False
    seat_view_log = {"height": "12em", "limit": 40, "empty": ""}

    @staticmethod
    def seat_view_parts(obs: Mapping[str, Any], seat: int, names: Sequence[str], level: str) -> list[str]:
        """The side-by-side replay's column (see :class:`GameTable`): the seat's hand, its felt and, while
        a hand is played, its card-counting grid (``level`` is the Five Sons grid's: unused)."""
        cards = [Card.parse(c) for c in obs["hand"]]
        parts = [
            cards_html(cards, mark=HeartsTable._marked(obs)),
            wrapped(
                felt.hearts_felt(obs, names=names, viewer=seat),
                style={"overflow": "auto", "max-width": "100%"},
            ),
        ]
        if obs["phase"] in ("pass", "play"):
            parts += [to_html(el("b", "Card counting")), counting_html(obs, seat, names)]
        return parts

    def seat_column(self, seat: int, abreast: int) -> list[widgets.Widget]:
        """The interactive side-by-side column (see :class:`GameTable`): the seat's hand, its felt (the
        trick before its players, scrolled inside the narrow column), its card counting, its log."""
        felt_box = widgets.Box([self.felt_view], layout=widgets.Layout(overflow="auto", max_width="100%"))
        return [self.hands[seat], felt_box, self.counting, self._label("Log"), self.log_view]

    def __init__(
        self,
        source: Any,
        seat: Optional[int] = None,
        *,
        human: Optional[int] = None,
        bots: Optional[Mapping[int, Any]] = None,
        pace: str = "at once",
        charts: bool = True,
        counting: bool = True,
        views: Optional[Sequence[Optional[int]]] = None,
    ) -> None:
        super().__init__(source, seat, human=human, bots=bots, pace=pace, charts=charts, views=views)
        self.title = self._heading("Hearts")
        # the felt (seats round it, the trick in the middle), the bottom seat's hand, the log, replay
        self._setup_felt(
            felt.HEARTS_SIZE["width"], hand_height="4.6em", log_height="12em", on_card=self._card_clicked
        )
        self.selected: list[Card] = []
        self.pass_button = widgets.Button(description="Pass these 3", button_style="primary", disabled=True)
        self.pass_button.add_class("qard-pass")
        self.pass_button.on_click(lambda _b: self.pass_selected())
        self.next_hand_button = widgets.Button(description="Next hand", button_style="success")
        self.next_hand_button.add_class("qard-next-hand")
        self.next_hand_button.on_click(lambda _b: self.deal_next())
        self.prompt = widgets.HTML()
        self.controls = widgets.HBox([self.prompt, self.pass_button, self.next_hand_button])
        self.controls.add_class("qard-controls")
        self.last_trick_toggle = widgets.ToggleButton(description="last trick", value=False)
        self.last_trick_toggle.add_class("qard-last-trick-toggle")
        self.last_trick = widgets.HTML()
        self.last_trick_toggle.observe(lambda _c: self.render(), names="value")
        self.score_sheet = widgets.HTML()
        self.score_sheet.add_class("qard-score-sheet")
        self.totals_chart = ChartView("qard-chart-totals")
        self.counting = widgets.HTML()
        self.counting.add_class("qard-counting-grid")
        self.counting_on = counting
        self.figures: dict[str, Any] = {}
        self._totals_key: Any = None
        self.children = [
            self.css,
            self.title,
            self.toolbar,
            self.felt,
            self.controls,
            self.status,
            self.stepper,
            self.what_if_box,
            widgets.HBox([self.last_trick_toggle, self.last_trick]),
            self._label("Log"),
            self.log_view,
            widgets.HBox(
                [
                    widgets.VBox([self._label("Score sheet"), self.score_sheet, self.totals_chart]),
                    widgets.VBox([self._label("Card counting"), self.counting]),
                ]
            ),
        ]
        self.render()
        if self.human is not None:
            self.run_bots()

    def forget_game(self) -> None:
        """A new match at this table (``restart``): no card chosen, no chart of the old match."""
        self.selected = []
        self.replay.value = False
        self._totals_key, self.figures = None, {}
        if self.totals_chart.figure is not None:
            self.totals_chart.show(None)

    # -- human actions ------------------------------------------------------------------
    def _card_clicked(self, card: Card) -> None:
        if not self.human_to_act():
            self.say("It is not your turn.", error=True)
            return
        mine = self.observation(self.human)
        if mine["phase"] == "pass":
            k = mine["cards_to_pass"]
            if card in self.selected:
                self.selected.remove(card)
            elif len(self.selected) < k:
                self.selected.append(card)
            else:
                self.say(f"You have chosen {k} cards; click one to put it back.", error=True)
                return
            self.say("")
            self.render()
        else:
            self._acted = self.act(card)

    def play(self, card: Any) -> bool:
        """Click a card of the human's hand, as a user would; True if the click did something
        (a card played, or chosen or put back while passing), False if it was refused."""
        card = Card.parse(card)  # ValueError naming a value that is no card
        if self.human is None:
            self.say("Nobody plays at this table: it only steps through.", error=True)
            return False
        before = (self.observation(self.human)["step"], tuple(self.selected))
        try:
            button = self.hands[self.human].button_for(card)
        except KeyError:
            self.say(f"{card.symbol}: not a card you can click now.", error=True)
            return False
        self._acted = False
        button.click()
        # a remote table's move is sent, not yet played: act() saying yes counts too
        return self._acted or (self.observation(self.human)["step"], tuple(self.selected)) != before

    def pass_selected(self) -> bool:
        """Pass the selected cards (all at once, as one action)."""
        cards = tuple(self.selected)
        with self._batch():  # the pass, the bots' replies and the cleared choice: one redraw
            ok = self.act(cards)
            if ok:
                self.selected = []
        return ok

    def deal_next(self) -> None:
        """Deal the next hand of the match (between hands), then let the bots play."""
        now = self.observation(self.seat)
        if now["phase"] != "hand_over" or now["is_over"] or not self.live:
            self.say("The next hand is dealt once this hand is over.", error=True)
            return
        if self.timeline is None:  # a remote table: the server deals
            self.say("The server deals the next hand.", error=True)
            return
        with self._batch():  # the deal (the seat driver's, as the human asked) and the bots' replies
            self.source.deal()
            self.run_bots()

    def encode(self, action: Any) -> Any:
        """A card as its code, a pass as the list of its codes (the record encoding)."""
        if isinstance(action, Card):
            return action.code
        if isinstance(action, tuple):
            return [Card.parse(c).code for c in action]
        return action

    # -- rendering ----------------------------------------------------------------------
    def render(self) -> None:
        """Draw the table from the viewpoint's observation (the teacher's: ``observation(None)``)."""
        seat = self.seat
        obs = self.observation(seat)
        with self.hold_sync():
            self._render_table(obs, seat)
            self._render_controls(obs, seat)
            self._render_log(obs, seat)
            self._render_scores(obs)
            self._render_counting(obs, seat)

    def _render_table(self, obs: Mapping[str, Any], seat: Optional[int]) -> None:
        """The felt (:func:`~qardlab.widgets.felt.hearts_felt`: the seats round it, the trick before its
        players) and, below it, the bottom seat's hand (clickable when the human is to act)."""
        phase = obs["phase"]
        me = self._bottom(seat)
        self.felt_view.value = felt.hearts_felt(obs, names=self.names, viewer=me, human=self.human)
        view = self.hands[me]
        cards = [Card.parse(c) for c in (obs["hands"][me] if seat is None else obs["hand"])]
        if me == self.human and self.human_to_act() and phase in ("pass", "play"):
            if phase == "pass":
                view.show_playable(cards, {}, selected=self.selected)
            else:
                reasons = {Card.parse(c): why for c, why in obs["refused"].items()}
                view.show_playable(cards, reasons)
        else:
            view.show_faces(cards, mark=self._marked(obs))
        self._show_hand(me)
        if self.last_trick_toggle.value and obs["tricks"]:
            last = obs["tricks"][-1]
            shown = [Card.parse(c) for _s, c in last["cards"]]
            self.last_trick.value = to_html(
                el(
                    "span",
                    raw(cards_html(shown)),
                    " taken by ",
                    el("b", self.names[last["winner"]]),
                    f" ({felt.count_words(last['points'], 'pt')})",
                )
            )
        else:
            self.last_trick.value = ""

    @staticmethod
    def _marked(obs: Mapping[str, Any]) -> list[Card]:
        """Cards to outline in the viewer's hand: chosen to pass (pass phase), or just received (first
        trick). The teacher's observation has no pass of its own: nothing is outlined there."""
        if obs["phase"] == "pass":
            return [Card.parse(c) for c in obs["chosen"]]
        if obs["first_trick"]:
            return [Card.parse(c) for c in obs["received"]]
        return []

    @staticmethod
    def _taken(obs: Mapping[str, Any]) -> list[list[Card]]:
        """Cards each seat took this hand, from the public tricks."""
        out: list[list[Card]] = [[] for _ in range(obs["players"])]
        for t in obs["tricks"]:
            out[t["winner"]].extend(Card.parse(c) for _s, c in t["cards"])
        return [sorted(x) for x in out]

    def play_on_options(self) -> dict[str, Any]:
        """The new table played on from here keeps this one's card counting on or off."""
        return {"counting": self.counting_on}

    def _render_controls(self, obs: Mapping[str, Any], seat: Optional[int]) -> None:
        self._show_stepper(obs)
        if self.human is None:
            self.controls.layout.display = "none"
            return
        acting = self.human_to_act()
        may_see = seat is None or seat == self.human
        k = obs["cards_to_pass"]
        phase = obs["phase"]
        self.pass_button.layout.display = "" if acting and may_see and phase == "pass" else "none"
        self.pass_button.disabled = len(self.selected) != k
        self.pass_button.description = (
            f"Pass these {k}" if len(self.selected) == k else (f"choose {k - len(self.selected)} more")
        )
        between = phase == "hand_over" and not obs["is_over"] and self.live
        # a remote table's next hand is dealt by the server: no button for it
        self.next_hand_button.layout.display = "" if between and self.timeline is not None else "none"
        waiting = self._waiting_prompt(acting, may_see)
        if obs["is_over"]:
            self._prompt("The match is over." if phase == "match_over" else "Hand over.")
        elif acting and may_see and phase == "pass":
            self._prompt(f"Click {k} cards to pass {obs['pass_direction']}.")
        elif acting and may_see:
            self._prompt("Your turn: click a card to play.")
        elif between:
            self._prompt(
                "Hand over."
                if self.timeline is not None
                else "Hand over: the next hand is dealt in a moment."
            )
        else:
            self._prompt(waiting or "", strong=False)

    def _render_log(self, obs: Mapping[str, Any], seat: Optional[int]) -> None:
        """The log newest first (the last 40 lines), each run of passing choices folded into one."""
        self.log_view.value = felt.log_html(self.log_lines(obs, seat), self.names, limit=40, empty="")

    def _render_scores(self, src: Mapping[str, Any]) -> None:
        """The score sheet and running totals, from the public part of the observation."""
        rows = [e["points"] for e in src["events"] if e["kind"] == "hand_over"]
        sheet = el(
            "table",
            el("tr", el("th", "hand"), [el("th", n) for n in self.names]),
            [el("tr", el("td", i + 1), [el("td", p) for p in r]) for i, r in enumerate(rows)],
            el("tr", el("td", el("b", "total")), [el("td", el("b", t)) for t in src["scores"]]),
            cls="qard-score-table",
        )
        self.score_sheet.value = to_html(sheet)
        on = self.show_charts.value and bool(rows)
        self.totals_chart.layout.display = "" if on else "none"
        if on:
            key = tuple(map(tuple, rows))
            if key != self._totals_key:
                self._totals_key = key
                fig = charts.hearts_totals_chart(rows, self.names, target=src["rules"]["target"])
                self.figures["totals"] = fig
                self.totals_chart.show(fig)

    def _render_counting(self, obs: Mapping[str, Any], seat: Optional[int]) -> None:
        if not self.counting_on or seat is None or obs["phase"] not in ("pass", "play"):
            self.counting.value = (
                to_html(el("i", "Choose a seat's view to see what it can count.")) if seat is None else ""
            )
            return
        self.counting.value = counting_html(obs, seat, self.names)


def counting_html(obs: Mapping[str, Any], seat: int, names: Sequence[str]) -> str:
    """``seat``'s card-counting grid from its observation ``obs`` (in the pass or the play): the cards it
    has not seen out by opponent, each cell the exact chance, each opponent's voids below its name."""
    try:
        k = knowledge_of(obs)
        grid = k.grid("probability")
    except (AttributeError, ImportError, NotImplementedError) as e:
        return to_html(el("i", f"card counting unavailable: {e}"))
    opponents = [s for s in range(obs["players"]) if s != seat]
    voids = {
        s: [
            [el("br"), el("small", f"void {Suit(v).symbol}", cls="qard-void")]
            for v in sorted({f.suit for f in k.facts if f.kind == "void" and f.holder == s})
        ]
        for s in opponents
    }
    # a row only for a card the seat does not know to be out of every opponent's hand
    table = grid_table(
        grid,
        opponents,
        dict(enumerate(names)),
        head=voids,
        keep=lambda _c, vals: any(v not in (None, 0, 0.0, "no") for v in vals),
    )
    return to_html(el("div", table, cls="qard-counting-scroll"))
