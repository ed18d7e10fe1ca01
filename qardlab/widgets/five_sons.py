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
import math
from typing import Any, Mapping, Sequence

import ipywidgets as widgets

from .. import charts
from ..cards import FACE_CARDS, NUMBER_CARDS, Card
from ..games.five_sons import Ask, Claim, NoClaim, Show, phrase
from ..games.five_sons.game import action_to_json, describe_event
from ..games.five_sons.knowledge import knowledge_of
from . import felt
from .base import GameTable
from .cards import HandView, clear_hands
from .figures import ChartView, growing_limit
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
                 level: str = "logic", views: Sequence[int | None] | None = None,
                 auto_pass: bool = False) -> None:
        if not isinstance(auto_pass, bool):
            raise ValueError(f"auto_pass must be True or False, not {auto_pass!r}")
        super().__init__(source, seat, human=human, bots=bots, pace=pace, charts=charts, views=views)
        n = self.players
        self.title = widgets.HTML("<h3 style='margin:.2em 0'>The King of Hearts has Five Sons</h3>")
        self.css.value += felt.FELT_CSS
        #: one hand view a seat; the viewer's own lies below the felt (clickable when it answers)
        self.hands = [HandView(on_card=self._card_clicked) for _ in range(n)]
        #: the felt drawn by :func:`qardlab.widgets.felt.five_sons_felt`: seats, secret pair, question
        self.felt_view = widgets.HTML()
        self.felt_view.add_class("qard-felt-view")
        self.my_hand = widgets.Box(layout=widgets.Layout(justify_content="center", min_height="4.4em",
                                                         padding="2px 0 6px 0"))
        self.my_hand.add_class("qard-my-hand")
        self.felt = widgets.VBox([self.felt_view, self.my_hand],
                                 layout=widgets.Layout(width=felt.FIVE_SONS_SIZE["width"], max_width="100%",
                                                       flex="0 0 auto"))
        self.felt.add_class("qard-felt")
        self.log_view = widgets.HTML(layout=widgets.Layout(max_height="14em", overflow="auto",
                                                           border="1px solid #ddd", padding="4px"))
        self.log_view.add_class("qard-log")
        # "pass on claims unless I claim": the human's claim chances after others' questions are
        # passed by the table, on the bots' clock; a claim chosen before is made at the next chance
        self.auto_pass = widgets.Checkbox(value=auto_pass, description="pass on claims unless I claim",
                                          indent=False, layout=widgets.Layout(width="auto"))
        self.auto_pass.add_class("qard-auto-pass")
        self.auto_pass.observe(lambda _c: self._auto_pass_changed(), names="value")
        #: a claim the human chose while not its chance (auto-pass on): made at its next chance
        self.armed: Claim | None = None
        # the replay stepper: hidden while the human plays live, shown when the game is over or asked for
        self.replay = widgets.ToggleButton(value=False, description="replay", tooltip="step through the game",
                                           layout=widgets.Layout(width="7em"))
        self.replay.add_class("qard-replay-toggle")
        self.replay.observe(lambda _c: self.render(), names="value")
        if human is not None:
            self.toolbar.children = (*self.toolbar.children, self.replay)
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
        self.controls = widgets.VBox([self.prompt, self.ask_row, self.claim_row, self.auto_pass])
        self.controls.add_class("qard-controls")
        self.ask_button.on_click(lambda _b: self.ask())
        self.claim_button.on_click(lambda _b: self.claim())
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
        self.play_column = widgets.VBox([self.felt, self.status, self.controls, widgets.HTML("<b>Log</b>"),
                                         self.log_view], layout=widgets.Layout(flex="0 1 auto"))
        self.grid_column = widgets.VBox([self.grid_note, self.grid],
                                        layout=widgets.Layout(margin="0 0 0 8px"))
        self.children = [
            self.css, self.title, self.toolbar, self.stepper,
            widgets.HBox([self.play_column, self.grid_column], layout=widgets.Layout(flex_flow="row wrap")),
            self.chart_tabs,
        ]
        self._update_phrase()
        self.render()
        if self.human is not None:
            self.run_bots()

    def forget_game(self) -> None:
        """A new game at this table (``restart``): no claim chosen, no history of the old game."""
        self.armed = None
        self.replay.value = False
        self._histories, self.figures = {}, {}
        with self.hold_sync():  # the question builder and the claim as a new table has them
            self.target.options = ()
            for w in (self.face, self.number, self.claim_face, self.claim_number):
                w.index = 0
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
        """Claim the pair chosen in the claim dropdowns (or the one given); ValueError naming a value
        that is no card, False (the reason said) for a claim the rules refuse. With "pass on claims unless
        I claim" on and no claim chance of the human's now, the claim is made at its next chance."""
        face = self.claim_face.value if face is None else Card.parse(face).code
        number = self.claim_number.value if number is None else Card.parse(number).code
        with self.hold_sync():
            _choose(self.claim_face, face)
            _choose(self.claim_number, number)
        action = Claim(face, number)
        if self.auto_pass.value and self.human is not None and not self._claim_chance_now():
            self.armed = action
            self.say(f"You will claim {action.face.symbol} {action.number.symbol} at your next chance.")
            self.render()
            return True
        self.armed = None
        return self.act(action)

    def cancel_claim(self) -> None:
        """Forget a claim chosen for the next chance."""
        self.armed = None
        self.say("")
        self.render()

    def _claim_chance_now(self) -> bool:
        """The human may claim now (its turn in a claim round, live)."""
        if self.human is None or not self.live:
            return False
        mine = self.observation(self.human)
        return not mine["is_over"] and mine["phase"] == "claim" and mine["to_move"] == self.human

    def _own_question_answered(self, obs: Mapping[str, Any]) -> bool:
        """The claim round after the human's own question (its answer is news to the human)."""
        q = obs.get("question")
        return bool(q) and q["asker"] == self.human

    def _human_forced(self, g: Any) -> Any:
        """Besides a forced answer: with auto-pass on, the human's claim chance after another's question
        is given by the table on the bots' clock (the claim chosen before, else no claim)."""
        forced = super()._human_forced(g)
        if forced is not None or not self.auto_pass.value or self.human is None:
            return forced
        if g.is_over or g.to_move != self.human or g.phase != "claim":
            return None
        if self.armed is not None:
            return self.armed
        if self._own_question_answered(self.observation(self.human)):
            return None  # the human decides after its own question
        return NoClaim()

    def bot_step(self) -> bool:
        """As the base; a claim the human chose beforehand is made at its chance (on the bots' clock)."""
        if self.armed is not None and self.timeline is not None and self.live:
            g = self.game
            if not g.is_over and g.to_move == self.human and g.phase == "claim":
                claim, self.armed = self.armed, None
                self.timeline.extend(claim)
                return True
        return super().bot_step()

    def _auto_pass_changed(self) -> None:
        if not self.auto_pass.value:
            self.armed = None
        self.render()
        self.run_bots()

    def human_to_act(self) -> bool:
        """As the base, but a claim chance the table passes for the human (auto-pass) is not its to act."""
        if not super().human_to_act():
            return False
        if self.auto_pass.value and self.timeline is not None and self._human_forced(self.game) is not None:
            return False
        return True

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

    def _bottom(self, seat: int | None) -> int:
        """The seat at the bottom of the felt: the viewer's, else the human's, else seat 0."""
        return seat if seat is not None else (self.human if self.human is not None else 0)

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
        if self.my_hand.children != (view,):
            self.my_hand.children = (view,)
        clear_hands(self.hands, me)

    def seat_html(self, seat: int) -> str:
        """The HTML of ``seat``'s box on the felt as drawn now (for tests and notebooks)."""
        return felt.part(self.felt_view.value, seat=seat)

    def _render_log(self, obs: Mapping[str, Any], seat: int | None) -> None:
        """The log newest first, each run of "does not claim" folded into one line."""
        lines = [describe_event(e["kind"], seat_keys(e), seat, self.names) for e in obs["events"]]
        self.log_view.value = felt.log_html(lines, self.names)

    def _render_controls(self, obs: Mapping[str, Any], seat: int | None) -> None:
        acting = self.human_to_act()
        may_see = seat is None or seat == self.human
        show = acting and may_see
        self.controls.layout.display = "" if (self.human is not None) else "none"
        phase = obs["phase"]
        self.ask_row.layout.display = "" if show and phase == "ask" else "none"
        mine = self.observation(self.human) if self.human is not None else None
        still_in = (mine is not None and self.live and not mine["is_over"]
                    and self.human not in mine["eliminated"] and may_see)
        if self.armed is not None and not still_in:
            self.armed = None
        # the claim row: at the human's chance; with auto-pass, any time (a claim for the next chance)
        arming = self.auto_pass.value and still_in and not (show and phase == "claim")
        self.claim_row.layout.display = "" if (show and phase == "claim") or arming else "none"
        self.claim_button.description = "Claim at my next chance" if arming else "Claim"
        self.claim_button.layout.width = "16em" if arming else ""
        self.no_claim_button.description = "Cancel my claim" if arming and self.armed else "No claim"
        self.no_claim_button.layout.display = "none" if arming and self.armed is None else ""
        self.auto_pass.layout.display = "" if self.human is not None and self.live and not obs["is_over"] \
            else "none"
        if self.timeline is not None:  # a remote seat has no stepper
            self.stepper.layout.display = "" if (self.human is None or obs["is_over"] or self.replay.value
                                                 or not self.live) else "none"
        if self.human is None:
            return
        if obs["is_over"]:
            self.prompt.value = "<b>The game is over.</b>"
        elif self.armed is not None:
            c = self.armed
            self.prompt.value = (f"<b>You will claim {c.face.symbol} {c.number.symbol} at your next "
                                 "chance.</b>")
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
                                 "claim": ("<b>Your question is answered: claim the secret pair, or pass."
                                           "</b>" if self.auto_pass.value
                                           else "<b>Claim the secret pair, or pass.</b>")}.get(phase, "")
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
        title = (f"{felt.count_words(len(k.naive_candidates()), 'pair')} by crossing out, "
                 f"{len(k.candidates())} by logic")
        self.grid.update(k, holders, {**names, seat: "you"}, title=title)

    # -- charts -------------------------------------------------------------------------
    def _history(self, seat: int) -> list[dict[str, Any]]:
        """The seat's candidate counts up to the current step (nothing from later steps)."""
        from .history import SeatHistory

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
        """Whether the charts are of a game that grows here: a table someone plays (its axes stay as they
        were in play, after the game too); a table that only steps through a finished game fits its axes."""
        assert self.timeline is not None
        return self.human is not None or not self.timeline.final.is_over

    def _chart_xlim(self) -> tuple[float, float]:
        """The charts' step axis: the whole game when stepping through a finished one; while a game grows, a
        range fixed until the game reaches it (so a step redraws only the lines, not the whole chart)."""
        tl = self.timeline
        assert tl is not None
        if not self._growing():
            return (0, max(1, tl.last))
        return (0, growing_limit(tl.last, 50 * self.players))  # most games end within 50 steps a seat

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
        """The candidates chart: rebuilt when its axes change (the seat, the step range), else only its lines
        are moved and redrawn (blitted), also from one game to the next at the same table."""
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
        if self._chart_key != key or fig is None or not view.blitting or not charts.has_history(rows):
            fig = charts.candidates_chart(rows, current=step, title=f"What {self.names[seat]} can rule out",
                                          xlim=xlim, ylim=ylim, entropy_max=entropy_max, fixed_layout=True)
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
        xlim = self._chart_xlim()
        key = ("teacher", xlim)
        fig = view.figure
        if (self._chart_key != key or fig is None or not view.blitting
                or not any(charts.has_history(r) for r in rows.values())):
            fig = charts.seats_chart(rows, current=step, xlim=xlim, ylim=126,
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
