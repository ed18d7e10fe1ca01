"""``FiveSonsTable``: The King of Hearts has Five Sons at a card table.

The seats sit around the table with their names, the dealer's mark, whose turn it is and
who is out; the secret pair lies face down in the middle (face up at the end, or in the
teacher's view). Below: the log as the chosen seat saw it, the human seat's controls (a
question builder, the choice of card to show, claim / no claim), the deduction grid of the
chosen seat, and the charts of its shrinking candidates.

Seat views come only from ``game.observation(seat)``, ``game.describe(event, seat)`` and
``game.knowledge(seat)``; only the teacher's view reads the game itself.
"""

from __future__ import annotations

import html
from typing import Any, Mapping

import ipywidgets as widgets

from .. import charts
from ..cards import FACE_CARDS, NUMBER_CARDS, Card, back_html, card_html
from ..games.five_sons import Ask, Claim, FiveSons, NoClaim, Show, phrase
from .base import GameTable, legal_reasons
from .cards import HandView
from .figures import ChartView
from .grid import DeductionGrid

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
                 level: str = "logic") -> None:
        super().__init__(source, seat, human=human, bots=bots, pace=pace, charts=charts)
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
        g = self.game
        if g.phase == "answer" and self.human_to_act():
            self.act(Show(card))
        else:
            self.say(f"{card.symbol}: nothing to do with a card now.", error=True)

    def _update_phrase(self) -> None:
        self.phrase.value = f"<i>“{html.escape(phrase(self.face.value, self.number.value))}.”</i>"

    # -- rendering ----------------------------------------------------------------------
    def render(self) -> None:
        g: FiveSons = self.game  # type: ignore[assignment]
        seat = self.seat
        with self.hold_sync():
            self._render_table(g, seat)
            self._render_log(g, seat)
            self._render_controls(g, seat)
            self._render_grid(g, seat)
            self._render_charts()

    def _seat_order(self, seat: int | None) -> list[tuple[int, str]]:
        """Grid areas around the felt, clockwise, with the viewer at the bottom."""
        n = self.players
        first = seat if seat is not None else (self.human if self.human is not None else 0)
        spots = (["3 / 2", "2 / 1", "1 / 2", "2 / 3"] if n == 4
                 else ["3 / 2", "2 / 1", "1 / 1", "1 / 3", "2 / 3"])
        return [((first + k) % n, spots[k]) for k in range(n)]

    def _render_table(self, g: FiveSons, seat: int | None) -> None:
        dealt = g.phase != "deal"
        obs = g.observation(seat) if seat is not None else None
        to_move = g.to_move if seat is None else obs["to_move"]
        eliminated = set(g.eliminated if seat is None else obs["eliminated"])
        dealer = g.dealer if seat is None else obs["dealer"]
        winner = g.winner if seat is None else obs["winner"]
        sizes = [len(g.hand(s)) for s in range(self.players)] if seat is None else obs["hand_sizes"]
        shown_to_me = self._shown_to(obs) if obs is not None else {}
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
            turn = dealt and to_move == s and not g.is_over
            style = "background:#f5b700;padding:0 .3em;border-radius:.3em" if turn else ""
            self.seat_labels[s].value = (f"<span style='{style}'><b>{html.escape(self.names[s])}</b></span> "
                                         + " ".join(marks))
            view = self.hands[s]
            if not dealt:
                view.show_backs(0)
            elif seat is None or s == seat:
                cards = list(g.hand(s)) if seat is None else [Card.parse(c) for c in obs["hand"]]
                if s == self.human and g.phase == "answer" and self.human_to_act():
                    reasons = legal_reasons(g, {c: Show(c) for c in cards})
                    view.show_playable(cards, reasons, selected=())
                else:
                    mark = [Card.parse(c) for c in g.question.cards] if (seat is None and g.question) else []
                    view.show_faces(cards, mark=mark)
            else:
                view.show_known(shown_to_me.get(s, []), sizes[s])
        # the secret pair in the middle
        if not dealt:
            secret_html = "<i style='color:#fff'>not dealt yet</i>"
        else:
            secret = list(g.secret) if seat is None else self._secret_seen(obs)
            faces = "".join(card_html(c) for c in secret) if secret else back_html() * 2
            label = "secret pair" if secret else "secret pair (face down)"
            secret_html = (f"<div style='text-align:center;color:#fff'>{faces}<br><small>{label}</small>"
                           f"<br><small>{self._phase_words(g, to_move)}</small></div>")
        self.center.value = secret_html
        areas = self._seat_order(seat)
        for s, area in areas:
            self.seat_boxes[s].layout.grid_area = area
        self.center.layout.grid_area = "2 / 2"
        children = tuple([self.seat_boxes[s] for s, _ in areas] + [self.center])
        if self.felt.children != children:
            self.felt.children = children

    def _phase_words(self, g: FiveSons, to_move: int | None) -> str:
        if g.is_over:
            return "game over"
        if to_move is None or to_move < 0:
            return ""
        who = html.escape(self.names[to_move])
        # "to answer" for every other viewer, chosen or forced: only the answerer (and the teacher)
        # may know whether it holds both named cards
        choose = "to answer"
        if self.seat in (None, to_move) and g.phase == "answer" and g.forced_action() is None:
            choose = "to choose a card to show"
        return {"ask": f"{who} to ask", "answer": f"{who} {choose}",
                "claim": f"{who} may claim"}.get(g.phase, "")

    @staticmethod
    def _shown_to(obs: Mapping[str, Any]) -> dict[int, list[Card]]:
        """Cards other seats have shown to this seat (from its own log)."""
        out: dict[int, list[Card]] = {}
        for e in obs["events"]:
            if e["kind"] == "answer" and e.get("shown") and "card" in e and e["answerer"] != obs["seat"]:
                c = Card.parse(e["card"])
                if c not in out.setdefault(e["answerer"], []):
                    out[e["answerer"]].append(c)
        return out

    @staticmethod
    def _secret_seen(obs: Mapping[str, Any]) -> list[Card]:
        for e in reversed(obs["events"]):
            if "secret" in e:
                return [Card.parse(c) for c in e["secret"]]
        return []

    def _render_log(self, g: FiveSons, seat: int | None) -> None:
        lines = self.log_lines(seat, g.describe)
        items = "".join(f"<li>{html.escape(t)}</li>" for t in lines)
        self.log_view.value = (f"<ol style='margin:0;padding-left:1.6em'>{items}</ol>" if lines
                          else "<i>nothing yet</i>")

    def _render_controls(self, g: FiveSons, seat: int | None) -> None:
        acting = self.human_to_act()
        may_see = seat is None or seat == self.human
        show = acting and may_see
        self.controls.layout.display = "" if (self.human is not None) else "none"
        self.ask_row.layout.display = "" if show and g.phase == "ask" else "none"
        self.claim_row.layout.display = "" if show and g.phase == "claim" else "none"
        if self.human is None:
            return
        if g.is_over:
            self.prompt.value = "<b>The game is over.</b>"
        elif acting and not may_see:
            self.prompt.value = "<i>Your turn: switch to your own view (or the teacher's) to play.</i>"
        elif not acting and self.live and self._human_forced(g) is not None:
            self.prompt.value = "<i>Your cards answer for you (you hold one named card, or neither).</i>"
        elif not acting:
            self.prompt.value = "<i>Waiting for the other players.</i>" if self.live else (
                "<i>Stepping through: go to the last step to play.</i>")
        else:
            self.prompt.value = {"ask": "<b>Your turn to ask.</b>",
                                 "answer": "<b>You hold both cards: click the one to show.</b>",
                                 "claim": "<b>Claim the secret pair, or pass.</b>"}.get(g.phase, "")
        if show and g.phase == "ask":
            targets = sorted({a.target for a in g.legal_actions() if isinstance(a, Ask)})
            opts = [(self.names[t], t) for t in targets]
            if list(self.target.options) != opts:
                self.target.options = opts
                self.target.value = targets[0] if targets else None

    def _render_grid(self, g: FiveSons, seat: int | None) -> None:
        holders = [s for s in range(self.players) if s != seat] + [SECRET]
        names = {**{s: self.names[s] for s in range(self.players)}, SECRET: "secret"}
        hidden = (seat is not None and seat == self.human and not g.options.get("notes", True))
        self.grid.layout.display = "none" if hidden else ""
        if hidden:
            self.grid_note.value = "<i>Notes are off: play from memory.</i>"
            return
        if g.phase == "deal":
            self.grid_note.value = "<i>Nothing dealt yet.</i>"
            self.grid.clear(holders, names)
            return
        if seat is None:
            truth = {c: s for s in range(self.players) for c in g.hand(s)}
            truth.update({c: SECRET for c in g.secret})
            self.grid_note.value = "<b>Where the cards are</b>"
            self.grid.show_truth(truth, holders, names)
            return
        k = g.knowledge(seat)
        self.grid_note.value = f"<b>What {html.escape(self.names[seat])} knows</b>"
        title = f"{len(k.naive_candidates())} pairs by crossing out, {len(k.candidates())} by logic"
        self.grid.update(k, holders, {**names, seat: "you"}, title=title)

    # -- charts -------------------------------------------------------------------------
    def _history(self, seat: int) -> list[dict[str, Any]]:
        """The seat's candidate counts up to the current step (nothing from later steps)."""
        from .history import SeatHistory

        h = self._histories.get(seat)
        if h is None or h.record is not self.timeline.record or h._pos > self.timeline.last:
            h = self._histories[seat] = SeatHistory(self.timeline.record, seat, self.timeline.steps)
        return h.upto(self.timeline.position)

    def _render_charts(self) -> None:
        g: FiveSons = self.game  # type: ignore[assignment]
        seat = self.seat
        hidden = (seat is not None and seat == self.human and not g.options.get("notes", True))
        on = self.show_charts.value and g.phase != "deal" and not hidden
        self.chart_tabs.layout.display = "" if on else "none"
        if not on:
            self.figures = {}
            return
        tab = self.chart_tabs.selected_index or 0
        if seat is None:  # the teacher: every seat's candidates side by side
            if tab == 0:
                self._seats_chart(g.step)
            else:
                self.chart_views[tab].show(None)
                self.figures.pop("pairs" if tab == 1 else "advice", None)
            return
        name = self.names[seat]
        try:
            if tab == 0:
                self._candidates_chart(seat, g.step)
                return
            elif tab == 1:
                k = g.knowledge(seat)
                fig = charts.pair_grid_chart(k.posterior(), k.candidates(),
                                             title=f"{name}: secret pairs by probability")
                self.figures["pairs"] = fig
            else:
                fig = self._advice_chart(g, seat)
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

    def _advice_chart(self, g: FiveSons, seat: int) -> Any:
        advice = g.knowledge(seat).questions()
        return charts.advisor_chart(advice, names=self.names,
                                    title=f"Best questions for {self.names[seat]}")
