"""``FiveSonsTable``: The King of Hearts has Five Sons at a card table.

The seats sit around the table with their names, the dealer's mark, whose turn it is and
who is out; the secret pair lies face down in the middle (face up at the end, or in the
teacher's view). Below: the log as the chosen seat saw it, the human seat's controls (a
question builder, the choice of card to show, claim / no claim), the deduction grid of the
chosen seat, and the charts of its shrinking candidates.

Every view is drawn from the source's observation of the viewpoint (the teacher's is
``observation(None)``): its words by the game's ``describe_event``, the grid and charts from
``knowledge_of(observation)``; the table reads no game.
"""

from __future__ import annotations

import html
from typing import Any, Mapping, Sequence

import ipywidgets as widgets

from .. import charts
from ..cards import FACE_CARDS, NUMBER_CARDS, Card, back_html, card_html
from ..games.five_sons import Ask, Claim, NoClaim, Show, phrase
from ..games.five_sons.game import action_to_json, describe_event
from ..games.five_sons.knowledge import knowledge_of
from .base import GameTable
from .cards import HandView
from .figures import ChartView
from .grid import DeductionGrid
from .source import seat_keys

__all__ = ["FiveSonsTable", "SECRET"]

SECRET = "secret"
_CHART_TABS = ("Candidates", "Secret pairs", "Best questions")


def _card_options(cards: tuple[Card, ...]) -> list[tuple[str, str]]:
    return [(f"{c.symbol}  {c.name}", c.code) for c in cards]


def _choose(dropdown: widgets.Dropdown, value: Any) -> None:
    """Select ``value`` in the dropdown if it is one of its choices (else leave it as it is)."""
    if value is not None and any(v == value and type(v) is type(value) for _, v in dropdown.options):
        dropdown.value = value


class FiveSonsTable(GameTable):
    """A Five Sons table over a timeline; see :class:`~qardlab.widgets.base.GameTable`."""

    def __init__(self, source: Any, seat: int | None = None, *, human: int | None = None,
                 bots: Mapping[int, Any] | None = None, pace: str = "at once", charts: bool = True,
                 level: str = "logic", views: Sequence[int | None] | None = None) -> None:
        super().__init__(source, seat, human=human, bots=bots, pace=pace, charts=charts, views=views)
        n = self.players
        self.title = widgets.HTML("<h3 style='margin:.2em 0'>The King of Hearts has Five Sons</h3>")
        self.hands = [HandView(on_card=self._card_clicked) for _ in range(n)]
        self.seat_labels = [widgets.HTML() for _ in range(n)]
        self.seat_boxes = []
        for s in range(n):
            box = widgets.VBox([self.seat_labels[s], self.hands[s]],
                               layout=widgets.Layout(border="1px solid #ccc", padding="4px",
                                                     margin="2px", align_items="center"))
            box.add_class("qard-seat")
            self.seat_boxes.append(box)
        self.center = widgets.HTML(layout=widgets.Layout(align_self="center", margin="0 auto"))
        self.center.add_class("qard-secret")
        self.felt = widgets.GridBox(layout=widgets.Layout(
            grid_template_columns="1fr 1fr 1fr", grid_template_rows="auto auto auto",
            padding="6px"))
        self.felt.add_class("qard-felt")
        self.log_view = widgets.HTML(layout=widgets.Layout(max_height="14em", overflow="auto",
                                                      border="1px solid #ddd", padding="4px"))
        self.log_view.add_class("qard-log")
        # the human seat's controls
        self.target = widgets.Dropdown(description="Ask", layout=widgets.Layout(width="12em"))
        self.face = widgets.Dropdown(options=_card_options(FACE_CARDS), layout=widgets.Layout(width="13em"))
        self.number = widgets.Dropdown(options=_card_options(NUMBER_CARDS),
                                       layout=widgets.Layout(width="13em"))
        self.ask_button = widgets.Button(description="Ask", button_style="primary")
        self.ask_button.add_class("qard-ask")
        self.phrase = widgets.HTML()
        self.claim_face = widgets.Dropdown(options=_card_options(FACE_CARDS), description="Claim",
                                           layout=widgets.Layout(width="16em"))
        self.claim_number = widgets.Dropdown(options=_card_options(NUMBER_CARDS),
                                             layout=widgets.Layout(width="13em"))
        self.claim_button = widgets.Button(description="Claim", button_style="danger")
        self.claim_button.add_class("qard-claim")
        self.no_claim_button = widgets.Button(description="No claim")
        self.no_claim_button.add_class("qard-no-claim")
        self.ask_row = widgets.VBox([widgets.HBox([self.target, self.face, self.number, self.ask_button]),
                                     self.phrase])
        self.claim_row = widgets.HBox([self.claim_face, self.claim_number, self.claim_button,
                                       self.no_claim_button])
        self.prompt = widgets.HTML()
        self.controls = widgets.VBox([self.prompt, self.ask_row, self.claim_row])
        self.controls.add_class("qard-controls")
        self.ask_button.on_click(lambda _b: self.ask())
        self.claim_button.on_click(lambda _b: self.claim())
        self.no_claim_button.on_click(lambda _b: self.act(NoClaim()))
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
        self.children = [
            self.css, self.title, self.toolbar, self.felt, self.stepper, self.status, self.controls,
            widgets.HTML("<b>Log</b>"), self.log_view,
            widgets.HBox([widgets.VBox([self.grid_note, self.grid]), self.chart_tabs]),
        ]
        self._update_phrase()
        self.render()
        if self.human is not None:
            self.run_bots()

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
        """Claim the pair chosen in the claim dropdowns (or the one given); ValueError naming a value
        that is no card, False (the reason said) for a claim the rules refuse."""
        face = self.claim_face.value if face is None else Card.parse(face).code
        number = self.claim_number.value if number is None else Card.parse(number).code
        with self.hold_sync():
            _choose(self.claim_face, face)
            _choose(self.claim_number, number)
        return self.act(Claim(face, number))

    def _card_clicked(self, card: Card) -> None:
        if self.observation(self.human)["phase"] == "answer" and self.human_to_act():
            self.act(Show(card))
        else:
            self.say(f"{card.symbol}: nothing to do with a card now.", error=True)

    def _update_phrase(self) -> None:
        self.phrase.value = f"<i>“{html.escape(phrase(self.face.value, self.number.value))}.”</i>"

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

    def _seat_order(self, seat: int | None) -> list[tuple[int, str]]:
        """Grid areas around the felt, clockwise, with the viewer at the bottom."""
        n = self.players
        first = seat if seat is not None else (self.human if self.human is not None else 0)
        spots = (["3 / 2", "2 / 1", "1 / 2", "2 / 3"] if n == 4
                 else ["3 / 2", "2 / 1", "1 / 1", "1 / 3", "2 / 3"])
        return [((first + k) % n, spots[k]) for k in range(n)]

    def _render_table(self, obs: Mapping[str, Any], seat: int | None) -> None:
        dealt = obs["phase"] != "deal"
        to_move, dealer, winner = obs["to_move"], obs["dealer"], obs["winner"]
        eliminated = set(obs["eliminated"])
        sizes = obs["hand_sizes"]
        for s in range(self.players):
            marks = []
            if dealt and s == dealer:
                marks.append("<span title='dealer' style='background:#333;color:#fff;border-radius:50%;"
                             "padding:0 .35em'>D</span>")
            if s in eliminated:
                marks.append("<span style='color:#b00020'>out</span>")
            if winner == s:
                marks.append("<span style='color:#0a0'>winner</span>")
            if s == self.human:
                marks.append("<i>(you)</i>")
            turn = dealt and to_move == s and not obs["is_over"]
            style = "background:#f5b700;padding:0 .3em;border-radius:.3em" if turn else ""
            self.seat_labels[s].value = (f"<span style='{style}'><b>{html.escape(self.names[s])}</b></span> "
                                         + " ".join(marks))
            view = self.hands[s]
            if not dealt:
                view.show_backs(0)
            elif seat is None or s == seat:
                cards = [Card.parse(c) for c in (obs["hands"][s] if seat is None else obs["hand"])]
                if s == self.human and obs["phase"] == "answer" and self.human_to_act():
                    reasons = {Card.parse(c): why for c, why in obs["refused"].items()}
                    view.show_playable(cards, reasons, selected=())
                else:
                    q = obs["question"]
                    mark = [Card.parse(q["face"]), Card.parse(q["number"])] if (seat is None and q) else []
                    view.show_faces(cards, mark=mark)
            else:
                view.show_known([Card.parse(c) for c in obs["shown"][s]], sizes[s])
        # the secret pair in the middle
        if not dealt:
            secret_html = "<i style='color:#fff'>not dealt yet</i>"
        else:
            secret = [Card.parse(c) for c in obs["secret"] or ()]
            faces = "".join(card_html(c) for c in secret) if secret else back_html() * 2
            label = "secret pair" if secret else "secret pair (face down)"
            secret_html = (f"<div style='text-align:center;color:#fff'>{faces}<br><small>{label}</small>"
                           f"<br><small>{self._phase_words(obs, to_move)}</small></div>")
        self.center.value = secret_html
        areas = self._seat_order(seat)
        for s, area in areas:
            self.seat_boxes[s].layout.grid_area = area
        self.center.layout.grid_area = "2 / 2"
        children = tuple([self.seat_boxes[s] for s, _ in areas] + [self.center])
        if self.felt.children != children:
            self.felt.children = children

    def _phase_words(self, obs: Mapping[str, Any], to_move: int | None) -> str:
        if obs["is_over"]:
            return "game over"
        if to_move is None or to_move < 0:
            return ""
        who = html.escape(self.names[to_move])
        # "to answer" for every other viewer, chosen or forced: only the answerer (and the teacher)
        # may know whether it holds both named cards (then it has two legal answers)
        choose = "to answer"
        if obs["phase"] == "answer" and len(obs["legal"]) > 1:
            choose = "to choose a card to show"
        return {"ask": f"{who} to ask", "answer": f"{who} {choose}",
                "claim": f"{who} may claim"}.get(obs["phase"], "")

    def _render_log(self, obs: Mapping[str, Any], seat: int | None) -> None:
        lines = [describe_event(e["kind"], seat_keys(e), seat, self.names) for e in obs["events"]]
        items = "".join(f"<li>{html.escape(t)}</li>" for t in lines)
        self.log_view.value = (f"<ol style='margin:0;padding-left:1.6em'>{items}</ol>" if lines
                               else "<i>nothing yet</i>")

    def _render_controls(self, obs: Mapping[str, Any], seat: int | None) -> None:
        acting = self.human_to_act()
        may_see = seat is None or seat == self.human
        show = acting and may_see
        self.controls.layout.display = "" if (self.human is not None) else "none"
        phase = obs["phase"]
        self.ask_row.layout.display = "" if show and phase == "ask" else "none"
        self.claim_row.layout.display = "" if show and phase == "claim" else "none"
        if self.human is None:
            return
        if obs["is_over"]:
            self.prompt.value = "<b>The game is over.</b>"
        elif acting and not may_see:
            self.prompt.value = "<i>Your turn: switch to your own view (or the teacher's) to play.</i>"
        elif not acting and self.live and self._forced_answer_due():
            self.prompt.value = "<i>Your cards answer for you (you hold one named card, or neither).</i>"
        elif not acting:
            self.prompt.value = "<i>Waiting for the other players.</i>" if self.live else (
                "<i>Stepping through: go to the last step to play.</i>")
        else:
            self.prompt.value = {"ask": "<b>Your turn to ask.</b>",
                                 "answer": "<b>You hold both cards: click the one to show.</b>",
                                 "claim": "<b>Claim the secret pair, or pass.</b>"}.get(phase, "")
        if show and phase == "ask":
            targets = sorted({a["target"] for a in obs["legal"] if a.get("type") == "ask"})
            opts = [(self.names[t], t) for t in targets]
            if list(self.target.options) != opts:
                self.target.options = opts
                self.target.value = targets[0] if targets else None

    def _forced_answer_due(self) -> bool:
        """The human is to answer and the cards leave one answer (the table gives it on the clock)."""
        mine = self.observation(self.human)
        return mine["to_move"] == self.human and self.forced_due(mine)

    def forced_due(self, obs: Mapping[str, Any]) -> bool:
        """An answer the cards force (one named card held, or neither): its one legal action."""
        return obs["phase"] == "answer" and len(obs["legal"]) == 1

    def encode(self, action: Any) -> Any:
        return action_to_json(action) if not isinstance(action, Mapping) else action

    def _render_grid(self, obs: Mapping[str, Any], seat: int | None) -> None:
        holders = [s for s in range(self.players) if s != seat] + [SECRET]
        names = {**{s: self.names[s] for s in range(self.players)}, SECRET: "secret"}
        hidden = (seat is not None and seat == self.human and not obs["options"].get("notes", True))
        self.grid.layout.display = "none" if hidden else ""
        if hidden:
            self.grid_note.value = "<i>Notes are off: play from memory.</i>"
            return
        if obs["phase"] == "deal":
            self.grid_note.value = "<i>Nothing dealt yet.</i>"
            self.grid.clear(holders, names)
            return
        if seat is None:
            truth: dict[Card, Any] = {Card.parse(c): s for s, h in enumerate(obs["hands"]) for c in h}
            truth.update({Card.parse(c): SECRET for c in obs["secret"]})
            self.grid_note.value = "<b>Where the cards are</b>"
            self.grid.show_truth(truth, holders, names)
            return
        k = knowledge_of(obs)
        self.grid_note.value = f"<b>What {html.escape(self.names[seat])} knows</b>"
        title = f"{len(k.naive_candidates())} pairs by crossing out, {len(k.candidates())} by logic"
        self.grid.update(k, holders, {**names, seat: "you"}, title=title)

    # -- charts -------------------------------------------------------------------------
    def _history(self, seat: int) -> list[dict[str, Any]]:
        """The seat's candidate counts up to the current step (nothing from later steps)."""
        from .history import SeatHistory

        h = self._histories.get(seat)
        assert self.timeline is not None  # the charts of the history are a local table's
        if h is None or h.record is not self.timeline.record or h._pos > self.timeline.last:
            h = self._histories[seat] = SeatHistory(self.timeline.record, seat, self.timeline.steps)
        return h.upto(self.timeline.position)

    def _render_charts(self) -> None:
        seat = self.seat
        obs = self.observation(seat)
        hidden = (seat is not None and seat == self.human and not obs["options"].get("notes", True))
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
                fig = charts.pair_grid_chart(k.posterior(), k.candidates(),
                                             title=f"{name}: secret pairs by probability")
                self.figures["pairs"] = fig
            else:
                fig = self._advice_chart(obs, seat)
                self.figures["advice"] = fig
        except (ImportError, AttributeError, ValueError) as e:
            self.say(f"charts unavailable: {e}", error=True)
            return
        self.chart_views[tab].show(fig)

    def _candidates_chart(self, seat: int, step: int) -> None:
        """The candidates chart: rebuilt when the seat or the game's length changes, else blitted."""
        rows = self._history(seat)
        view = self.chart_views[0]
        key = (seat, self.timeline.last, id(self.timeline.record))
        fig = view.figure
        if self._chart_key != key or fig is None or not view.blitting:
            top = max((max(r["naive"], r["logic"]) for r in rows[:1]), default=120)
            fig = charts.candidates_chart(rows, current=step, title=f"What {self.names[seat]} can rule out",
                                          xlim=(0, max(1, self.timeline.last)), ylim=top * 1.05 + 1,
                                          entropy_max=7.0, fixed_layout=True)
            self._chart_key = key
            view.show_blit(fig, [ln for a in fig.axes for ln in a.lines])
        else:
            cols = charts.history_columns(rows)
            for a in fig.axes:
                for ln in a.lines:
                    gid = ln.get_gid()
                    if gid == "current":
                        ln.set_xdata([step, step])
                    elif gid in cols:
                        ln.set_data(cols.get("step", []), cols[gid])
            view.redraw()
        self.figures["candidates"] = fig

    def _seats_chart(self, step: int) -> None:
        """The teacher's chart: each seat's logical candidates after each step."""
        rows = {self.names[s]: self._history(s) for s in range(self.players)}
        view = self.chart_views[0]
        key = ("teacher", self.timeline.last, id(self.timeline.record))
        fig = view.figure
        if self._chart_key != key or fig is None or not view.blitting:
            fig = charts.seats_chart(rows, current=step, xlim=(0, max(1, self.timeline.last)), ylim=126,
                                     fixed_layout=True)
            self._chart_key = key
            view.show_blit(fig, list(fig.axes[0].lines))
        else:
            for ln in fig.axes[0].lines:
                gid = str(ln.get_gid())
                if gid == "current":
                    ln.set_xdata([step, step])
                elif gid.startswith("seat:"):
                    cols = charts.history_columns(rows[gid[5:]])
                    ln.set_data(cols.get("step", []), cols.get("logic", []))
            view.redraw()
        self.figures["seats"] = fig

    def _advice_chart(self, obs: Mapping[str, Any], seat: int) -> Any:
        advice = knowledge_of(obs).questions()
        return charts.advisor_chart(advice, names=self.names,
                                    title=f"Best questions for {self.names[seat]}")
