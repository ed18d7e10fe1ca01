"""The one style sheet of the package's tables, felts, hands and grids, built from :mod:`qardlab.palette`.

A table puts :data:`STYLESHEET` on the page once (in a hidden ``HTML`` widget); every ``qard-*`` class
the markup carries is styled here and nowhere else, and every colour is a name of the palette, so a
deck or a colour changes in one place. :data:`FELT_CSS` is the felt's part (the felt's own tests and a
page that shows only a felt use it); :data:`FOCUS_CSS` the keyboard focus ring of a playable card.
"""

from __future__ import annotations

from .. import palette as p

__all__ = ["FELT_CSS", "TABLE_CSS", "GRID_CSS", "GRID_CELLS_CSS", "HAND_CARDS_CSS", "FOCUS_CSS", "STYLESHEET"]

#: the felt: seats round it, the trick or the secret pair in the middle, the prompt, the log. The felt
#: takes its container's width (up to its full width, set on it); its seats stand against its sides or in
#: its middle (``left`` from :func:`qardlab.widgets.felt.seat_left`), the trick keeps its size round the
#: middle. In a container narrower than a felt can be (a side-by-side column), the container query at the
#: end lays the felt's pieces out one under another, whole. No type under 12 px (0.93em of 13 px).
FELT_CSS = f"""<style>
.qard-felt-box {{ container: qard-felt / inline-size; width: 100%; }}
.qard-felt-ring {{ position: relative; box-sizing: border-box; width: 100%; margin: 0 auto;
  background: {p.FELT_GREEN}; border-radius: 14px; color: {p.PAPER}; overflow: hidden;
  font-family: 'DejaVu Sans', sans-serif; line-height: 1.25; text-align: left; }}
.qard-felt-ring .qard-seat {{ position: absolute; transform: translate(-50%, -50%); box-sizing: border-box;
  background: {p.SEAT}; color: {p.INK}; border: 2px solid {p.SEAT_EDGE}; border-radius: 10px;
  padding: .25em .45em; overflow: hidden; }}
.qard-felt-ring .qard-seat.qard-turn {{ border: 4px solid {p.HIGHLIGHT}; padding: .1em .3em;
  box-shadow: 0 0 14px 3px {p.HIGHLIGHT}; }}
.qard-felt-ring .qard-seat.qard-out:not(.qard-seat-mine) {{ opacity: .6; background: {p.SEAT_OUT}; }}
.qard-felt-ring .qard-seat.qard-out.qard-seat-mine {{ border-color: {p.ERROR}; }}
.qard-felt-ring .qard-seat.qard-winner {{ border: 4px solid {p.WINNER}; padding: .1em .3em;
  box-shadow: 0 0 14px 3px {p.WINNER_GLOW}; }}
.qard-seat-head {{ display: flex; align-items: center; gap: .35em; font-size: 1.12em; white-space: nowrap; }}
.qard-seat-name {{ font-weight: bold; flex: 0 1 auto; min-width: 2.5em; overflow: hidden;
  text-overflow: ellipsis; }}
.qard-seat-head > :not(.qard-seat-name) {{ flex: none; }}
.qard-turn .qard-seat-name {{ background: {p.HIGHLIGHT}; border-radius: .3em; padding: 0 .3em; }}
.qard-dealer {{ display: inline-block; background: {p.DEALER}; color: {p.PAPER}; border-radius: 50%;
  width: 1.4em; height: 1.4em; line-height: 1.4em; text-align: center; font-size: .85em; font-weight: bold;
  flex: none; }}
.qard-you {{ font-style: italic; color: {p.MUTED}; font-size: .85em; }}
.qard-tag {{ border-radius: .3em; padding: 0 .35em; font-size: .85em; font-weight: bold; color: {p.PAPER}; }}
.qard-tag-out {{ background: {p.ERROR}; }}
.qard-tag-winner {{ background: {p.WINNER}; }}
.qard-tag-asked {{ background: {p.ASKED}; }}
.qard-tag-turn {{ background: {p.HIGHLIGHT}; color: {p.INK}; }}
.qard-seat-hand {{ display: flex; align-items: center; height: 3.6em; overflow: hidden; }}
.qard-seat-hand .qard-hand {{ font-size: .9em; flex-wrap: nowrap !important; }}
.qard-seat-hand .qard-card, .qard-seat-hand .qard-card-back {{ flex: none; margin: 0 .06em !important; }}
.qard-fan .qard-card-back + .qard-card-back {{ margin-left: -2.2em !important; }}
.qard-seat-info {{ font-size: .95em; color: {p.SUBTLE}; }}
.qard-seat-info .qard-count {{ white-space: nowrap; }}
.qard-taken {{ height: 2.5em; line-height: 1.25; overflow: hidden; font-size: .95em; }}
.qard-taken-cards {{ font-weight: bold; }}
.qard-taken .qard-short-suit {{ white-space: normal; }}
.qard-taken .qard-card-short {{ display: inline-block; }}
.qard-short-suit {{ margin-right: .45em; white-space: nowrap; }}
.qard-short-suit .qard-card-short {{ margin-left: .18em; }}
.qard-taken-label {{ font-weight: bold; color: {p.TAKEN}; margin-right: .35em; }}
.qard-suit-rows {{ display: flex; flex-wrap: wrap; column-gap: .3em; font-size: 1em; font-weight: bold;
  line-height: 1.2; }}
.qard-trick {{ position: absolute; left: 50%; width: 0; height: 0; }}
.qard-trick-card {{ position: absolute; transform: translate(-50%, -50%); text-align: center;
  font-size: 1.05em; }}
.qard-trick-card .qard-card {{ margin: 0 !important; }}
.qard-trick-name {{ display: block; font-size: .9em; color: {p.FELT_TEXT}; white-space: nowrap;
  text-shadow: 0 1px 2px {p.SHADOW}; max-width: 3.5em; margin: 0 auto; overflow: hidden;
  text-overflow: ellipsis; }}
.qard-last-trick {{ opacity: .6; }}
.qard-felt-info {{ position: absolute; left: .8em; bottom: .5em; font-size: .95em; line-height: 1.3;
  color: {p.FELT_TEXT}; }}
.qard-felt-prompt {{ position: absolute; left: 50%; bottom: 6.9em; transform: translateX(-50%);
  text-align: center; font-size: 1.1em; font-weight: bold; width: max-content; max-width: 14em;
  color: {p.PAPER}; text-shadow: 0 1px 2px {p.SHADOW}; }}
.qard-felt-prompt.qard-prompt-yours {{ background: {p.HIGHLIGHT}; color: {p.INK}; text-shadow: none;
  border-radius: .4em; padding: .15em .6em; }}
.qard-secret-box ~ .qard-felt-prompt {{ top: 57%; bottom: auto; transform: translate(-50%, -50%);
  max-width: 10.5em; }}
.qard-secret-box {{ position: absolute; left: 50%; top: 41%; transform: translate(-50%, -50%);
  text-align: center; font-size: 1.2em; }}
.qard-secret-box .qard-card, .qard-secret-box .qard-card-back {{ vertical-align: middle; }}
.qard-secret-label {{ display: block; font-size: .8em; color: {p.FELT_TEXT}; }}
.qard-question {{ position: absolute; left: 50%; top: 70%; transform: translate(-50%, -50%);
  text-align: center; width: max-content; max-width: 12em; font-size: 1em; }}
.qard-question-cards {{ font-weight: bold; font-size: 1.15em; background: {p.PAPER}; border-radius: .3em;
  padding: .05em .35em; white-space: nowrap; }}
.qard-verdict {{ height: 2.5em; line-height: 1.25; font-weight: bold; overflow: hidden; }}
.qard-verdict-right {{ color: {p.RIGHT}; }}
.qard-verdict-wrong {{ color: {p.ERROR}; }}
.qard-verdict-cards {{ background: {p.PAPER}; border-radius: .25em; padding: 0 .15em; }}
.qard-log-list {{ margin: 0; padding-left: 1.2em; line-height: 1.4; }}
.qard-log-list li.qard-log-newest {{ font-weight: bold; }}
.qard-log-count {{ display: inline-block; margin-left: .4em; padding: 0 .4em; border-radius: .8em;
  background: {p.CHIP}; color: {p.SUBTLE}; font-size: .95em; }}
@container qard-felt (max-width: 44em) {{
  .qard-felt-box .qard-felt-ring {{ height: auto !important; display: flex; flex-wrap: wrap; gap: .4em;
    padding: .5em; justify-content: center; }}
  .qard-felt-box .qard-felt-ring > *, .qard-felt-box .qard-felt-ring .qard-seat,
  .qard-felt-box .qard-felt-ring .qard-trick-card {{ position: static; transform: none; }}
  .qard-felt-box .qard-felt-ring .qard-seat {{ width: auto !important; height: auto !important;
    flex: 1 1 12em; max-width: 100%; }}
  .qard-felt-box .qard-seat-head {{ flex-wrap: wrap; }}
  .qard-felt-box .qard-seat-hand {{ height: auto; min-height: 1.5em; }}
  .qard-felt-box .qard-seat-hand .qard-hand {{ flex-wrap: wrap !important; }}
  .qard-felt-box .qard-taken, .qard-felt-box .qard-verdict {{ height: auto; }}
  .qard-felt-box .qard-felt-ring .qard-felt-prompt, .qard-felt-box .qard-felt-ring .qard-felt-info,
  .qard-felt-box .qard-felt-ring .qard-question, .qard-felt-box .qard-felt-ring .qard-secret-box {{
    flex: 1 1 100%; max-width: none; width: auto; text-align: center; }}
  .qard-felt-box .qard-felt-ring .qard-trick {{ width: auto; height: auto; display: flex; flex-wrap: wrap;
    gap: .3em; flex: 1 1 100%; justify-content: center; }}
}}
</style>"""

#: the tables' widgets: the status line, dimmed and selected cards, the panels, the controls
TABLE_CSS = f"""<style>
.qard-felt {{ background: {p.FELT_GREEN}; border-radius: 10px; }}
.qard-felt-view {{ width: auto; align-self: stretch; margin-left: 0; margin-right: 0; }}
.qard-felt-view > .widget-html-content, .qard-seat-column > .widget-html-content {{ width: 100%;
  min-width: 0; flex: 1 1 auto; }}
.qard-seat {{ background: {p.SEAT}; border-radius: 8px; }}
.qard-illegal {{ opacity: .55; }}
.qard-status-error {{ color: {p.ERROR}; }}
.qard-status-note {{ color: {p.STATUS}; }}
.qard-none {{ color: {p.FAINT}; }}
.qard-marked {{ outline: 3px solid {p.HIGHLIGHT}; border-radius: .4em; }}
.qard-log, .qard-panel {{ border: 1px solid {p.RULE}; padding: 4px; }}
.qard-score-table {{ border-collapse: collapse; }}
.qard-score-table td, .qard-score-table th {{ padding: 0 .5em; text-align: center; }}
.qard-counting-scroll {{ max-height: 22em; overflow: auto; }}
.qard-join-card {{ display: inline-block; border: 1px solid {p.GRID_LINE}; }}
.qard-seat-column {{ border-right: 1px solid {p.RULE}; }}
.qard-side-by-side {{ container: qard-columns / inline-size; }}
.qard-side-by-side .qard-side-by-side-row {{ display: grid; gap: .6em 0; width: 100%; overflow: visible;
  grid-template-columns: repeat(var(--qard-abreast), minmax(0, 1fr)); }}
.qard-side-by-side-row > .qard-seat-column {{ width: auto !important; min-width: 0 !important;
  box-sizing: border-box; }}
.qard-columns-1 {{ --qard-abreast: 1; }}
.qard-columns-2 {{ --qard-abreast: 2; }}
.qard-columns-3 {{ --qard-abreast: 3; }}
.qard-columns-4 {{ --qard-abreast: 4; }}
.qard-columns-5 {{ --qard-abreast: 5; }}
.qard-columns-6 {{ --qard-abreast: 6; }}
@container qard-columns (max-width: 92em) {{ .qard-columns-6 {{ --qard-abreast: 3; }} }}
@container qard-columns (max-width: 77em) {{ .qard-columns-5 {{ --qard-abreast: 3; }} }}
@container qard-columns (max-width: 61em) {{ .qard-columns-4 {{ --qard-abreast: 2; }} }}
@container qard-columns (max-width: 46em) {{ .qard-columns-3, .qard-columns-5, .qard-columns-6 {{
  --qard-abreast: 2; }} }}
@container qard-columns (max-width: 30em) {{ .qard-side-by-side-row {{ --qard-abreast: 1 !important; }} }}
.qard-seat-view {{ line-height: 1.35; }}
.qard-seat-view h4 {{ margin: .2em 0; }}
.qard-seat-step {{ min-height: 2.7em; }}
.qard-seat-view .qard-hand {{ font-size: .95em; }}
.qard-seat-view .qard-hand .qard-card {{ margin: 0 .06em !important; }}
.qard-seat-view .qard-grid-table {{ line-height: 1.55; margin-top: .2em; }}
.qard-seat-view .qard-grid-table td {{ min-width: 1.9em; padding: 0 .1em; }}
.qard-seat-view .qard-grid-table th {{ padding: 0 .1em; }}
.qard-seat-view .qard-grid-table caption {{ text-align: left; font-style: italic; color: {p.SUBTLE}; }}
.qard-seat-view .qard-log {{ line-height: 1.3; }}
</style>"""

#: the grid of cells (cards by holders): a Knowledge's ``_repr_html_``, Hearts' card counting
GRID_CSS = f"""<style>
.qard-grid-table {{ text-align: center; border-collapse: collapse; }}
.qard-grid-table td {{ min-width: 2.6em; padding: 0 .25em; border: 1px solid {p.CELL_EDGE}; }}
.qard-grid-table .qard-void {{ color: {p.ERROR}; font-size: .95em; }}
</style>"""

#: the deduction grid widget's cells (``qardlab.widgets.grid.GridCells``: plain CSS, which the widget brings
#: to the page with itself): a label column, a head per holder, a button per cell shaded by its value
GRID_CELLS_CSS = f"""
.qard-grid-cells {{ display: grid; gap: 1px; align-items: stretch; font-family: inherit; }}
.qard-grid-cells .qard-grid-row, .qard-grid-cells .qard-grid-explanation-row {{ display: contents; }}
.qard-grid-cells .qard-grid-explanation-row[hidden] {{ display: none; }}
.qard-grid-cells .qard-grid-head {{ font-weight: bold; text-align: center; overflow: hidden;
  text-overflow: ellipsis; white-space: nowrap; align-self: end; }}
.qard-grid-cells .qard-grid-label {{ display: flex; align-items: center; }}
.qard-grid-cells .qard-grid-cell {{ display: flex; align-items: center; justify-content: center;
  box-sizing: border-box; height: 1.9em; min-width: 0; padding: 0; margin: 0; font: inherit; font-size: 1em;
  color: {p.INK}; border: 1px solid {p.CELL_EDGE}; cursor: pointer; overflow: hidden; white-space: nowrap;
  user-select: none; }}
.qard-grid-cells .qard-grid-cell:hover {{ border-color: {p.GRID_LINE};
  box-shadow: inset 0 0 0 1px {p.GRID_LINE}; }}
.qard-grid-cells .qard-grid-cell:focus {{ outline: 3px solid {p.FOCUS}; outline-offset: 1px;
  position: relative; z-index: 1; }}
.qard-grid-cells .qard-grid-explanation {{ grid-column: 1 / -1; margin: 2px 0 4px; padding: .3em .5em;
  background: {p.SELECTED}; border: 2px solid {p.HIGHLIGHT}; border-radius: .3em; color: {p.INK};
  line-height: 1.35; }}
"""

#: a hand of playable cards (``qardlab.widgets.cards.HandCards``: plain CSS, which the widget brings to the
#: page with itself): a toolbar of card buttons, a chosen card outlined, an illegal one dimmed
HAND_CARDS_CSS = f"""
.qard-hand-cards {{ display: flex; flex-wrap: wrap; align-items: center; }}
.qard-hand-cards .qard-card {{ width: 3.1em; height: 4.3em; margin: 2px; padding: 0; box-sizing: border-box;
  border: 1px solid {p.CARD_EDGE}; border-radius: .35em; font: bold 1.15em/1 'DejaVu Sans', sans-serif;
  cursor: pointer; box-shadow: 1px 1px 2px {p.CARD_SHADOW}; }}
.qard-hand-cards .qard-card.qard-selected {{ border: 3px solid {p.HIGHLIGHT}; }}
.qard-hand-cards .qard-card.qard-illegal {{ opacity: .55; }}
{p.FOCUS_CSS}
"""

#: keyboard focus on a playable card (a thick ring the projector shows)
FOCUS_CSS = f"<style>{p.FOCUS_CSS}</style>"

#: everything above, as one <style> element per part: what a table puts on the page once
STYLESHEET = FELT_CSS + TABLE_CSS + GRID_CSS + FOCUS_CSS
