"""``FiveSonsTable``: The King of Hearts has Five Sons at a card table.

The seats sit around the table with their names, the dealer's mark, whose turn it is and
who is out; the secret pair lies face down in the middle (face up at the end, or in the
teacher's view). Below: the log as the chosen seat saw it, the human seat's controls (a
question builder, the choice of card to show, claim / no claim), the deduction grid of the
chosen seat, and the charts of its shrinking candidates.

Every view is drawn from the source's observation of the viewpoint (the teacher's is
``observation(None)``): its words by the game's ``describe_event``, the grid and charts from
``knowledge_of(observation)`` (the charts of a local game also from its timeline's steps). Who moves
next is the engine's seat driver's: the table shows what the source says (``waits_for``) and sets the
human's standing orders through it ("pass on claims unless I claim", "claim at my next chance"). Every
answer is the human's own click, forced or not: the one card they may show lit, or a "Neither" button.
A claim asks once to confirm before it is made or kept for the next chance.
"""

from __future__ import annotations

import math
from typing import Any, Mapping, Sequence

import ipywidgets as widgets

from .. import charts
from ..cards import Card
from ..games.five_sons import Ask, Claim, Neither, NoClaim, Show, phrase
from ..games.five_sons.charts import advisor_chart, pair_grid_chart
from ..games.five_sons.deck import FACE_CARDS, NUMBER_CARDS
from ..games.five_sons.game import FiveSons
from ..games.five_sons.knowledge import knowledge_of
from ..games.five_sons.orders import FiveSonsOrders
from ..render.grid import grid_table
from ..render.markup import el, to_html
from . import felt
from .base import GameTable
from .cards import card_options, cards_html
from .figures import ChartView, growing_limit
from .grid import LEVELS, DeductionGrid

__all__ = ["FiveSonsTable", "SECRET"]

SECRET = "secret"
_CHART_TABS = ("Candidates", "Secret pairs", "Best questions")


def _choose(dropdown: widgets.Dropdown, value: Any) -> None:
    """Select ``value`` in the dropdown if it is one of its choices (else leave it as it is)."""
    if value is not None and any(v == value and type(v) is type(value) for _, v in dropdown.options):
        dropdown.value = value


class FiveSonsTable(GameTable):
    """A Five Sons table over a timeline; see :class:`~qardlab.widgets.base.GameTable`."""

    seat_view_log = {"height": "14em"}

    @classmethod
    def seat_view_has_grids(cls, game: str) -> bool:
        return True  # (a seat's column holds its deduction grid)

    @staticmethod
    def seat_view_parts(obs: Mapping[str, Any], seat: int, names: Sequence[str], level: str) -> list[str]:
        """The side-by-side replay's column (see :class:`GameTable`): the seat's hand, and its deduction
        grid at ``level`` from its knowledge (``knowledge_of`` its observation)."""
        if obs["phase"] == "deal":
            return [
                to_html(el("div", el("i", "not dealt yet"), cls="qard-hand")),
                to_html(el("i", "Nothing dealt yet.")),
            ]
        k = knowledge_of(obs)
        holders = [s for s in range(obs["players"]) if s != seat] + [SECRET]
        heads = {**dict(enumerate(names)), SECRET: "secret", seat: "you"}
        title = (
            f"{felt.count_words(len(k.naive_candidates()), 'pair')} by crossing out, "
            f"{len(k.candidates())} by logic"
        )
        return [
            cards_html([Card.parse(c) for c in obs["hand"]]),
            to_html(el("div", el("b", f"What {names[seat]} knows"), cls="qard-seat-knows")),
            to_html(el("div", title, cls="qard-seat-pairs")),
            to_html(grid_table(k.grid(level), holders, heads, caption=LEVELS[level])),
        ]

    def seat_column(self, seat: int, abreast: int) -> list[widgets.Widget]:
        """The interactive side-by-side column (see :class:`GameTable`): the seat's hand, its clickable
        deduction grid (narrower cells with four or five grids abreast), its log."""
        self.grid.set_cell_width("4.2em" if abreast <= 4 else "3.4em")
        return [self.hands[seat], self.grid_note, self.grid, self._label("Log"), self.log_view]

    def __init__(
        self,
        source: Any,
        seat: int | None = None,
        *,
        human: int | None = None,
        bots: Mapping[int, Any] | None = None,
        pace: str = "at once",
        charts: bool = True,
        level: str = "logic",
        views: Sequence[int | None] | None = None,
        auto_pass: bool | None = None,
    ) -> None:
        if auto_pass is not None and not isinstance(auto_pass, bool):
            raise ValueError(
                f"auto_pass must be True, False or None (as the table has it), not {auto_pass!r}"
            )
        super().__init__(source, seat, human=human, bots=bots, pace=pace, charts=charts, views=views)
        self.title = self._heading("The King of Hearts has Five Sons")
        # the felt (seats, secret pair, question), the bottom seat's hand, the log, the replay toggle
        self._setup_felt(
            felt.FIVE_SONS_SIZE["width"], hand_height="4.4em", log_height="14em", on_card=self._card_clicked
        )
        # "pass on claims unless I claim": the human's standing order, which the seat driver follows (it
        # passes the human's claim chances after others' questions); a claim confirmed while it is not the
        # human's chance is the other standing order, made at the next chance
        self.auto_pass = widgets.Checkbox(
            value=False,  # (drawn from the source's orders)
            description=FiveSonsOrders.labels["pass_claims"],
            indent=False,
            layout=widgets.Layout(width="auto"),
        )
        self.auto_pass.add_class("qard-auto-pass")
        self.auto_pass.observe(lambda _c: self._auto_pass_changed(), names="value")
        #: the claim waiting for the human's confirmation (None: none asked)
        self.pending_claim: Claim | None = None
        # the human seat's controls
        self.target = widgets.Dropdown(
            description="Ask", layout=widgets.Layout(width="12em"), style={"description_width": "3.5em"}
        )
        # "J♣ Jack", "10♥ Ten" (card_options): short enough to show whole in a narrow dropdown
        self.face = widgets.Dropdown(options=card_options(FACE_CARDS), layout=widgets.Layout(width="9em"))
        self.number = widgets.Dropdown(options=card_options(NUMBER_CARDS), layout=widgets.Layout(width="9em"))
        for w, part in ((self.target, "target"), (self.face, "face"), (self.number, "number")):
            w.add_class(f"qard-ask-{part}")  # (found by browser tests and outside checks)
        self.ask_button = widgets.Button(description="Ask", button_style="primary")
        self.ask_button.add_class("qard-ask")
        self.phrase = widgets.HTML()
        # the claim's cards start empty (value None): a claim is always the human's own choice of pair
        self.claim_face = widgets.Dropdown(
            options=card_options(FACE_CARDS),
            value=None,
            description="Claim",
            layout=widgets.Layout(width="12em"),
            style={"description_width": "3.5em"},
        )
        self.claim_number = widgets.Dropdown(
            options=card_options(NUMBER_CARDS), value=None, layout=widgets.Layout(width="9em")
        )
        self.claim_button = widgets.Button(description="Claim", button_style="danger")
        self.claim_button.add_class("qard-claim")
        self.no_claim_button = widgets.Button(description="No claim")
        self.no_claim_button.add_class("qard-no-claim")
        # one confirmation before a claim is made (or kept for the next chance)
        self.confirm_text = widgets.HTML()
        self.confirm_button = widgets.Button(description="Yes, claim", button_style="danger")
        self.confirm_button.add_class("qard-claim-confirm")
        self.cancel_button = widgets.Button(description="Cancel")
        self.cancel_button.add_class("qard-claim-cancel")
        # the answer "neither" (the cards the human may show are lit in the hand)
        self.neither_button = widgets.Button(description="Neither", button_style="primary")
        self.neither_button.add_class("qard-neither")
        wrap = {"flex_flow": "row wrap", "align_items": "center"}  # rows wrap inside the felt's width
        self.ask_row = widgets.VBox(
            [
                widgets.HBox(
                    [self.target, self.face, self.number, self.ask_button], layout=widgets.Layout(**wrap)
                ),
                self.phrase,
            ]
        )
        self.claim_row = widgets.HBox(
            [self.claim_face, self.claim_number, self.claim_button, self.no_claim_button],
            layout=widgets.Layout(**wrap),
        )
        self.confirm_row = widgets.HBox(
            [self.confirm_text, self.confirm_button, self.cancel_button], layout=widgets.Layout(**wrap)
        )
        self.answer_row = widgets.HBox([self.neither_button], layout=widgets.Layout(**wrap))
        self.prompt = widgets.HTML()
        self.controls = widgets.VBox(
            [self.prompt, self.ask_row, self.answer_row, self.claim_row, self.confirm_row, self.auto_pass]
        )
        self.controls.add_class("qard-controls")
        self.ask_button.on_click(lambda _b: self.ask())
        self.claim_button.on_click(lambda _b: self.claim())
        self.confirm_button.on_click(lambda _b: self.confirm_claim())
        self.cancel_button.on_click(lambda _b: self._cancel_pending())
        self.neither_button.on_click(lambda _b: self.answer())
        self.no_claim_button.on_click(lambda _b: self.cancel_claim() if self.armed else self.act(NoClaim()))
        for w in (self.face, self.number):
            w.observe(lambda _c: self._update_phrase(), names="value")
        # deduction and charts
        self.grid = DeductionGrid(FACE_CARDS + NUMBER_CARDS, level=level, on_level=lambda _l: self.render())
        self.grid_note = widgets.HTML()
        self.chart_views = [ChartView(f"qard-chart-{i}") for i in range(len(_CHART_TABS))]
        self.chart_tabs = widgets.Tab(children=self.chart_views, titles=_CHART_TABS)
        self.chart_tabs.observe(lambda _c: self._render_charts(), names="selected_index")
        self.figures: dict[str, Any] = {}
        self._histories: dict[int, Any] = {}
        self._chart_key: Any = None
        # the felt, the controls and the log on the left; the grid beside them (both on screen at once)
        # the play column is as wide as the felt (its rows wrap inside it); the grid column starts narrow
        # and grows into the rest of the line, so at 1024 px (a projector) it still stands beside the
        # controls: its level buttons wrap and its cells narrow to fit
        self.play_column = widgets.VBox(
            [self.felt, self.status, self.controls, self._label("Log"), self.log_view],
            layout=widgets.Layout(flex="0 0 auto", max_width="100%", width=felt.FIVE_SONS_SIZE["width"]),
        )
        self.grid_column = widgets.VBox(
            [self.grid_note, self.grid],
            layout=widgets.Layout(margin="0 0 0 8px", flex="1 1 17em", min_width="15em", max_width="36em"),
        )
        self.grid_column.add_class("qard-grid-column")
        self.children = [
            self.css,
            self.title,
            self.toolbar,
            self.stepper,
            self.what_if_box,
            # side by side, each as tall as its own content (flex-start: no half-empty column)
            widgets.HBox(
                [self.play_column, self.grid_column],
                layout=widgets.Layout(flex_flow="row wrap", align_items="flex-start"),
            ),
            self.chart_tabs,
        ]
        self._update_phrase()
        self._syncing = False
        if auto_pass is not None and self.human is not None:  # (None: as the source has it, a server's)
            self.set_orders({"pass_claims": auto_pass})
        self.render()
        if self.human is not None:
            self.run_bots()

    def play_on_options(self) -> dict[str, Any]:
        """The new table played on from here keeps this one's grid level."""
        return {"level": self.grid.level.value}

    def forget_game(self) -> None:
        """A new game at this table (``restart``): no claim chosen, no history of the old game."""
        if self.human is not None:
            self.set_orders({"claim": None})
        self.pending_claim = None
        self.replay.value = False
        self._histories, self.figures = {}, {}
        with self.hold_sync():  # the question builder and the claim as a new table has them
            self.target.options = ()
            for w in (self.face, self.number):
                w.index = 0
            for w in (self.claim_face, self.claim_number):
                w.value = None
        # the charts keep their axes (a chart of the new game with the same axes only moves its lines)

    # -- human actions ------------------------------------------------------------------
    def ask(self, target: int | None = None, face: Any = None, number: Any = None) -> bool:
        """Ask with the builder's values (or those given, which are set on the builder first).

        ValueError naming a value that is no seat or no card; a question the rules refuse (a card
        of the wrong kind, a seat that may not be asked) comes back False with the reason said.
        """
        if target is not None and (isinstance(target, bool) or not isinstance(target, int)):
            raise ValueError(f"target must be a seat number, not {target!r}")
        face = self.face.value if face is None else Card.parse(face).code
        number = self.number.value if number is None else Card.parse(number).code
        with self.hold_sync():  # the builder shows the question, where it offers those values
            _choose(self.target, target)
            _choose(self.face, face)
            _choose(self.number, number)
        target = self.target.value if target is None else target
        if target is None:
            self.say("Choose whom to ask.", error=True)
            return False
        return self.act(Ask(target, face, number))

    def claim(self, face: Any = None, number: Any = None) -> bool:
        """The Claim button: the pair chosen in the claim dropdowns (or the one given, set on them first) is
        asked for confirmation (:meth:`confirm_claim` makes it). True when the confirmation is asked; False
        (the reason said) with no pair chosen; ValueError naming a value that is no card."""
        face = self.claim_face.value if face is None else Card.parse(face).code
        number = self.claim_number.value if number is None else Card.parse(number).code
        with self.hold_sync():
            _choose(self.claim_face, face)
            _choose(self.claim_number, number)
        if face is None or number is None:
            self.say("Choose the face card and the number card you claim.", error=True)
            return False
        self.pending_claim = Claim(face, number)
        self.say("")
        self.render()
        return True

    def confirm_claim(self) -> bool:
        """The confirmation's "Yes, claim": the claim asked for is made now if it is the human's chance to
        claim, else kept as the standing order "claim this pair at my next chance". False (the reason said)
        when no claim waits for confirmation or the game refuses it."""
        claim, self.pending_claim = self.pending_claim, None
        if claim is None or self.human is None:
            self.say("No claim to confirm: choose a pair and click Claim first.", error=True)
            return False
        if self._claim_chance_now():
            return self.act(claim)
        if not self._still_in():
            self.say("You can no longer claim in this game.", error=True)
            self.render()
            return False
        self.set_orders({"claim": FiveSons.action_to_json(claim)})
        self.say("")  # (the prompt says it: "You will claim ... at your next chance.")
        self.render()
        self.run_bots()
        return True

    def answer(self, card: Any = None) -> bool:
        """The human's answer, as their click gives it: show ``card`` (a click on it in the hand), or with
        None say "neither" (the Neither button). False (the reason said) when the game refuses it; ValueError
        naming a value that is no card."""
        if card is None:
            return self.act(Neither())
        return self.act(Show(Card.parse(card)))

    def _cancel_pending(self) -> None:
        self.pending_claim = None
        self.say("")
        self.render()

    def cancel_claim(self) -> None:
        """Forget a claim kept for the next chance."""
        if self.human is not None:
            self.set_orders({"claim": None})
        self.say("")
        self.render()

    @property
    def armed(self) -> Claim | None:
        """The claim the human keeps for their next chance (their standing order), or None (also once the
        human can claim no more: the order is spent with the claim it made)."""
        if not self._still_in():
            return None
        c = self._orders()["claim"]
        return None if c is None else Claim(c["face"], c["number"])

    def _orders(self) -> dict[str, Any]:
        """The human's standing orders (the game's defaults for a table nobody plays)."""
        return {"pass_claims": False, "claim": None, **self.orders()}

    def _claim_chance_now(self) -> bool:
        """The table waits for the human's claim now (its turn in a claim round, live)."""
        return self.human_to_act() and self.observation(self.human)["phase"] == "claim"

    def _still_in(self) -> bool:
        """The human may still claim in this game (live, not over, not out after a wrong claim)."""
        if self.human is None or not self.live:
            return False
        mine = self.observation(self.human)
        return not mine["is_over"] and self.human not in mine["eliminated"]

    def _auto_pass_changed(self) -> None:
        if self._syncing:  # (drawn from the source's orders, not clicked)
            return
        if self.human is not None and self.auto_pass.value != self._orders()["pass_claims"]:
            self.set_orders({"pass_claims": self.auto_pass.value})
        self.render()
        self.run_bots()

    def _card_clicked(self, card: Card) -> None:
        if self.observation(self.human)["phase"] == "answer" and self.human_to_act():
            self.act(Show(card))
        else:
            self.say(f"{card.symbol}: nothing to do with a card now.", error=True)

    def _update_phrase(self) -> None:
        self.phrase.value = to_html(el("i", f"“{phrase(self.face.value, self.number.value)}.”"))

    # -- rendering ----------------------------------------------------------------------
    def render(self) -> None:
        """Draw the table from the viewpoint's observation (the teacher's: ``observation(None)``)."""
        seat = self.seat
        obs = self.observation(seat)
        with self.hold_sync():
            self._render_table(obs, seat)
            self._render_log(obs, seat)
            self._render_controls(obs, seat)
            self._render_grid(obs, seat)
            self._render_charts()

    def _render_table(self, obs: Mapping[str, Any], seat: int | None) -> None:
        """The felt (:func:`~qardlab.widgets.felt.five_sons_felt`) and, below it, the bottom seat's hand
        (clickable when the human chooses a card to show)."""
        me = self._bottom(seat)
        self.felt_view.value = felt.five_sons_felt(obs, names=self.names, viewer=me, human=self.human)
        view = self.hands[me]
        if obs["phase"] == "deal":
            view.show_backs(0)
        else:
            cards = [Card.parse(c) for c in (obs["hands"][me] if seat is None else obs["hand"])]
            if me == self.human and obs["phase"] == "answer" and self.human_to_act():
                reasons = {Card.parse(c): why for c, why in obs["refused"].items()}
                view.show_playable(cards, reasons, selected=())
            else:
                q = obs["question"]
                mark = [Card.parse(q["face"]), Card.parse(q["number"])] if (seat is None and q) else []
                view.show_faces(cards, mark=mark)
        self._show_hand(me)

    def _render_log(self, obs: Mapping[str, Any], seat: int | None) -> None:
        """The log newest first, each run of "does not claim" folded into one line."""
        self.log_view.value = felt.log_html(self.log_lines(obs, seat), self.names)

    def _render_controls(self, obs: Mapping[str, Any], seat: int | None) -> None:
        acting = self.human_to_act()
        may_see = seat is None or seat == self.human
        show = acting and may_see
        self.controls.layout.display = "" if (self.human is not None) else "none"
        phase = obs["phase"]
        self.ask_row.layout.display = "" if show and phase == "ask" else "none"
        mine = self.observation(self.human) if self.human is not None else None
        neither = show and phase == "answer" and [a.get("type") for a in mine["legal"]] == ["neither"]
        self.answer_row.layout.display = "" if neither else "none"
        still_in = self._still_in() and may_see
        orders = self._orders()
        armed = self.armed if may_see else None
        if not still_in:
            self.pending_claim = None
        # the claim row: at the human's chance; with "pass on claims" on, any time (for the next chance)
        chance = show and phase == "claim"
        arming = orders["pass_claims"] and still_in and not chance
        confirming = self.pending_claim is not None and (chance or arming)
        self.claim_row.layout.display = "" if (chance or arming) and not confirming else "none"
        self.confirm_row.layout.display = "" if confirming else "none"
        if confirming:
            c = self.pending_claim
            when = "now" if chance else "at your next chance"
            self.confirm_text.value = to_html(
                el("b", f"Claim {c.face.symbol} {c.number.symbol} {when}? A wrong claim puts you out.")
            )
        self.claim_button.description = "Claim at my next chance" if arming else "Claim"
        self.claim_button.layout.width = "16em" if arming else ""
        self.no_claim_button.description = "Cancel my claim" if arming and armed else "No claim"
        self.no_claim_button.layout.display = "none" if arming and armed is None else ""
        self.auto_pass.layout.display = (
            "" if self.human is not None and self.live and not obs["is_over"] else "none"
        )
        if self.auto_pass.value != orders["pass_claims"]:  # the source's word (a server's echo)
            self._syncing = True
            try:
                self.auto_pass.value = orders["pass_claims"]
            finally:
                self._syncing = False
        self._show_stepper(obs)
        if self.human is None:
            return
        waiting = self._waiting_prompt(acting, may_see)
        if obs["is_over"]:
            self._prompt("The game is over.")
        elif armed is not None:
            self._prompt(f"You will claim {armed.face.symbol} {armed.number.symbol} at your next chance.")
        elif not acting and self.live and mine["to_move"] == self.human and may_see:
            self._prompt("You pass on this claim (pass on claims unless I claim).", strong=False)
        elif waiting is not None:
            self._prompt(waiting, strong=False)
        elif phase == "answer":
            n = len(mine["legal"])
            self._prompt(
                "You hold both cards: click the one to show."
                if n == 2
                else (
                    "You hold neither card: click Neither."
                    if neither
                    else "Click the card you hold to show it."
                )
            )
        else:
            claim = (
                "Your question is answered: claim the secret pair, or pass."
                if orders["pass_claims"]
                else "Claim the secret pair, or pass."
            )
            self._prompt({"ask": "Your turn to ask.", "claim": claim}.get(phase, ""))
        if show and phase == "ask":
            targets = sorted({a["target"] for a in obs["legal"] if a.get("type") == "ask"})
            opts = [(self.names[t], t) for t in targets]
            if list(self.target.options) != opts:
                self.target.options = opts
                self.target.value = targets[0] if targets else None

    def encode(self, action: Any) -> Any:
        return FiveSons.action_to_json(action) if not isinstance(action, Mapping) else action

    def _render_grid(self, obs: Mapping[str, Any], seat: int | None) -> None:
        holders = [s for s in range(self.players) if s != seat] + [SECRET]
        names = {**{s: self.names[s] for s in range(self.players)}, SECRET: "secret"}
        hidden = seat is not None and seat == self.human and not obs["options"].get("notes", True)
        self.grid.layout.display = "none" if hidden else ""
        if hidden:
            self.grid_note.value = to_html(el("i", "Notes are off: play from memory."))
            return
        if obs["phase"] == "deal":
            self.grid_note.value = to_html(el("i", "Nothing dealt yet."))
            self.grid.clear(holders, names)
            return
        if seat is None:
            truth: dict[Card, Any] = {Card.parse(c): s for s, h in enumerate(obs["hands"]) for c in h}
            truth.update({Card.parse(c): SECRET for c in obs["secret"]})
            self.grid_note.value = to_html(el("b", "Where the cards are"))
            self.grid.show_truth(truth, holders, names)
            return
        k = knowledge_of(obs)
        self.grid_note.value = to_html(el("b", f"What {self.names[seat]} knows"))
        title = (
            f"{felt.count_words(len(k.naive_candidates()), 'pair')} by crossing out, "
            f"{len(k.candidates())} by logic"
        )
        self.grid.update(k, holders, {**names, seat: "you"}, title=title)

    # -- charts -------------------------------------------------------------------------
    def _history(self, seat: int) -> list[dict[str, Any]]:
        """The seat's candidate counts up to the current step (nothing from later steps)."""
        from ..deduction.history import SeatHistory

        h = self._histories.get(seat)
        assert self.timeline is not None  # the charts of the history are a local table's
        # live play only appends steps: the rows computed so far stay, only new positions are computed
        steps = self.timeline.steps
        done = h._pos if h is not None else 0
        if h is None or len(steps) < done or list(steps[:done]) != h.steps[:done]:
            h = self._histories[seat] = SeatHistory(self.timeline.record, seat, steps)
        else:
            h.steps = list(steps)
        return h.upto(self.timeline.position)

    def _growing(self) -> bool:
        """Whether the charts are of a game that grows here: a table someone plays, a person (its axes stay
        as they were in play, after the game too) or only bots (until the game is over). A table nobody
        plays only steps through the game it was given, finished or not (lesson 02's two questions), and
        fits its axes to what it shows."""
        assert self.timeline is not None
        return self.human is not None or (bool(self.bots) and not self.timeline.final.is_over)

    def _chart_xlim(self) -> tuple[float, float]:
        """The charts' question axis: the whole game a table steps through (to its last question); while
        a game grows, a range fixed until the game reaches it (a step redraws the lines, not the chart)."""
        if not self._growing():
            return (0, max(1, self._questions()))
        # a short axis at first (the chart is not mostly empty early), half as long again each time the game
        # reaches its end: bots at the best-question level end within about 5 questions a seat, logic
        # within 10
        return (0, growing_limit(self._questions(), 5 * self.players))

    def _render_charts(self) -> None:
        seat = self.seat
        obs = self.observation(seat)
        hidden = seat is not None and seat == self.human and not obs["options"].get("notes", True)
        on = self.show_charts.value and obs["phase"] != "deal" and not hidden
        self.chart_tabs.layout.display = "" if on else "none"
        if not on:
            self.figures = {}
            return
        tab = self.chart_tabs.selected_index or 0
        if seat is None:  # the teacher: every seat's candidates side by side
            if tab == 0:
                self._seats_chart(obs["step"])
            else:
                self.chart_views[tab].show(None)
                self.figures.pop("pairs" if tab == 1 else "advice", None)
            return
        name = self.names[seat]
        try:
            if tab == 0:
                self._candidates_chart(seat, obs["step"])
                return
            elif tab == 1:
                k = knowledge_of(obs)
                fig = pair_grid_chart(
                    k.posterior(), k.candidates(), title=f"{name}: secret pairs by probability"
                )
                self.figures["pairs"] = fig
            else:
                fig = self._advice_chart(obs, seat)
                self.figures["advice"] = fig
        except (ImportError, AttributeError, ValueError) as e:
            self.say(f"charts unavailable: {e}", error=True)
            return
        self.chart_views[tab].show(fig)

    def _questions(self) -> int:
        """How many questions the game has at its last step (the charts' x axis runs to it)."""
        assert self.timeline is not None
        return sum(isinstance(a, Ask) for a in self.timeline.steps)

    @staticmethod
    def _turn(rows: Sequence[Mapping[str, Any]]) -> int:
        """The question number at the table's position (0 before the first question)."""
        return int(rows[-1]["turn"]) if rows else 0

    def _candidates_chart(self, seat: int, step: int) -> None:
        """The candidates chart against questions asked (the text and the exercises count questions),
        the marker at the current question: rebuilt when its axes change (the seat, the question range),
        else only its lines are moved and redrawn (blitted), also from one game to the next at the table."""
        rows = self._history(seat)
        view = self.chart_views[0]
        xlim = self._chart_xlim()
        top = max((max(r["naive"], r["logic"]) for r in rows[:1]), default=120)
        # while the game grows the counts only fall: from 0, so the axes stay as they are
        over = not self._growing()
        # (the top rounded up to tens: the next deal's chart, whose first count differs a little, keeps them)
        ylim = top * 1.05 + 1 if over else (0.0, 10.0 * math.ceil((top * 1.05 + 1) / 10))
        entropy_max = 7.0 if over else (0.0, 7.0)
        key = (seat, xlim, ylim, entropy_max)
        fig = view.figure
        turn = self._turn(rows)
        old = self._chart_key
        if (
            old is None
            or old[0] != key[0]
            or old[2:] != key[2:]
            or fig is None
            or not view.blitting
            or not charts.has_history(rows, "turn")
        ):
            fig = charts.candidates_chart(
                rows,
                current=turn,
                title=f"What {self.names[seat]} can rule out",
                xlim=xlim,
                ylim=ylim,
                entropy_max=entropy_max,
                fixed_layout=True,
                x="turn",
            )
            self._chart_key = key
            view.show_blit(fig, [ln for a in fig.axes for ln in a.lines])
        else:
            cols = charts.history_columns(rows)
            for a in fig.axes:
                for ln in a.lines:
                    gid = ln.get_gid()
                    if gid == "current":
                        ln.set_xdata([turn, turn])
                    elif gid in cols:
                        ln.set_data(cols.get("turn", []), cols[gid])
            self._widen(view, key, xlim)
        self.figures["candidates"] = fig

    def _widen(self, view: ChartView, key: tuple, xlim: tuple[float, float]) -> None:
        """Redraw a blitted chart after its lines moved; when only its question axis changed (the game went
        past it, or a new deal starts it short again), the same figure is widened in place: only its x axis is
        drawn again (:meth:`ChartView.widen`), the figure is not rebuilt."""
        if self._chart_key == key:
            view.redraw()
            return
        self._chart_key = key
        view.widen(xlim)

    def _seats_chart(self, step: int) -> None:
        """The teacher's chart: each seat's logical candidates after each question."""
        rows = {self.names[s]: self._history(s) for s in range(self.players)}
        view = self.chart_views[0]
        xlim = self._chart_xlim()
        key = ("teacher", xlim)
        fig = view.figure
        turn = max((self._turn(r) for r in rows.values()), default=0)
        old = self._chart_key
        if (
            old is None
            or old[0] != "teacher"
            or fig is None
            or not view.blitting
            or not any(charts.has_history(r, "turn") for r in rows.values())
        ):
            fig = charts.seats_chart(rows, current=turn, xlim=xlim, ylim=126, fixed_layout=True, x="turn")
            self._chart_key = key
            view.show_blit(fig, list(fig.axes[0].lines))
        else:
            for ln in fig.axes[0].lines:
                gid = str(ln.get_gid())
                if gid == "current":
                    ln.set_xdata([turn, turn])
                elif gid.startswith("seat:"):
                    cols = charts.history_columns(rows[gid[5:]])
                    ln.set_data(cols.get("turn", []), cols.get("logic", []))
            self._widen(view, key, xlim)
        self.figures["seats"] = fig

    def _advice_chart(self, obs: Mapping[str, Any], seat: int) -> Any:
        advice = knowledge_of(obs).questions()
        return advisor_chart(advice, names=self.names, title=f"Best questions for {self.names[seat]}")
