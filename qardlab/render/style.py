"""The one style sheet of the package's tables, felts, hands and grids, built from :mod:`qardlab.palette`.

A table puts :data:`STYLESHEET` on the page once (in a hidden ``HTML`` widget); every ``qard-*`` class
the markup carries is styled here and nowhere else, and every colour is a name of the palette, so a
deck or a colour changes in one place. :data:`FELT_CSS` is the felt's part (the felt's own tests and a
page that shows only a felt use it); :data:`FOCUS_CSS` the keyboard focus ring of a playable card.
"""

from __future__ import annotations

from .. import palette as p

__all__ = ["FELT_CSS", "TABLE_CSS", "GRID_CSS", "GRID_CELLS_CSS", "FOCUS_CSS", "STYLESHEET"]

#: the felt: seats round it, the trick or the secret pair in the middle, the prompt, the log
FELT_CSS = f"""<style>
.qard-felt-ring {{ position: relative; box-sizing: border-box; max-width: 100%; margin: 0 auto;
  background: {p.FELT_GREEN}; border-radius: 14px; color: {p.PAPER}; overflow: hidden;
  font-family: 'DejaVu Sans', sans-serif; line-height: 1.25; text-align: left; }}
.qard-felt-ring .qard-seat {{ position: absolute; transform: translate(-50%, -50%); box-sizing: border-box;
  background: {p.SEAT}; color: {p.INK}; border: 2px solid {p.SEAT_EDGE}; border-radius: 10px;
  padding: .25em .45em; overflow: hidden; }}
.qard-felt-ring .qard-seat.qard-turn {{ border: 4px solid {p.HIGHLIGHT};
  box-shadow: 0 0 14px 3px {p.HIGHLIGHT}; }}
.qard-felt-ring .qard-seat.qard-out:not(.qard-seat-mine) {{ opacity: .6; background: {p.SEAT_OUT}; }}
.qard-felt-ring .qard-seat.qard-out.qard-seat-mine {{ border-color: {p.ERROR}; }}
.qard-felt-ring .qard-seat.qard-winner {{ border: 4px solid {p.WINNER};
  box-shadow: 0 0 14px 3px {p.WINNER_GLOW}; }}
.qard-seat-head {{ display: flex; align-items: center; gap: .35em; font-size: 1.12em; white-space: nowrap; }}
.qard-seat-name {{ font-weight: bold; flex: none; }}
.qard-turn .qard-seat-name {{ background: {p.HIGHLIGHT}; border-radius: .3em; padding: 0 .3em; }}
.qard-dealer {{ display: inline-block; background: {p.DEALER}; color: {p.PAPER}; border-radius: 50%;
  width: 1.45em; height: 1.45em; line-height: 1.45em; text-align: center; font-size: .8em; font-weight: bold;
  flex: none; }}
.qard-you {{ font-style: italic; color: {p.MUTED}; font-size: .85em; }}
.qard-tag {{ border-radius: .3em; padding: 0 .35em; font-size: .8em; font-weight: bold; color: {p.PAPER}; }}
.qard-tag-out {{ background: {p.ERROR}; }}
.qard-tag-winner {{ background: {p.WINNER}; }}
.qard-tag-asked {{ background: {p.ASKED}; }}
.qard-tag-turn {{ background: {p.HIGHLIGHT}; color: {p.INK}; }}
.qard-seat-hand {{ display: flex; align-items: center; height: 3.2em; overflow: hidden; }}
.qard-seat-hand .qard-hand {{ font-size: .8em; }}
.qard-seat-hand .qard-card, .qard-seat-hand .qard-card-back {{ flex: none; }}
.qard-fan .qard-card-back + .qard-card-back {{ margin-left: -1.95em !important; }}
.qard-seat-info {{ font-size: .88em; color: {p.SUBTLE}; white-space: nowrap; }}
.qard-taken {{ display: flex; flex-wrap: wrap; align-content: flex-start; column-gap: .35em; height: 2.5em;
  line-height: 1.2; overflow: hidden; font-size: .88em; }}
.qard-taken-cards {{ font-weight: bold; font-size: 1.05em; }}
.qard-short-suit {{ margin-right: .45em; }}
.qard-short-suit .qard-card-short {{ margin-left: .18em; }}
.qard-taken-label {{ font-weight: bold; color: {p.TAKEN}; }}
.qard-suit-rows {{ display: flex; flex-wrap: wrap; column-gap: .3em; font-size: 1em; font-weight: bold;
  line-height: 1.2; }}
.qard-suit-rows .qard-short-suit {{ white-space: nowrap; }}
.qard-trick-card {{ position: absolute; transform: translate(-50%, -50%); text-align: center; }}
.qard-trick-card {{ font-size: 1.05em; }}
.qard-trick-name {{ display: block; font-size: .7em; color: {p.FELT_TEXT}; white-space: nowrap; }}
.qard-last-trick {{ opacity: .55; }}
.qard-felt-info {{ position: absolute; left: .8em; top: .5em; font-size: .95em; line-height: 1.35;
  color: {p.FELT_TEXT}; }}
.qard-felt-prompt {{ position: absolute; left: 50%; top: 54%; transform: translate(-50%, -50%);
  text-align: center; font-size: 1.1em; font-weight: bold; max-width: 10.5em; color: {p.PAPER};
  text-shadow: 0 1px 2px {p.SHADOW}; }}
.qard-felt-prompt.qard-prompt-yours {{ background: {p.HIGHLIGHT}; color: {p.INK}; text-shadow: none;
  border-radius: .4em; padding: .15em .6em; }}
.qard-secret-box {{ position: absolute; left: 50%; top: 41%; transform: translate(-50%, -50%);
  text-align: center; }}
.qard-secret-box {{ font-size: 1.2em; }}
.qard-secret-label {{ display: block; font-size: .7em; color: {p.FELT_TEXT}; }}
.qard-question {{ position: absolute; left: 50%; top: 69%; transform: translate(-50%, -50%);
  text-align: center; white-space: nowrap; font-size: 1em; }}
.qard-question-cards {{ font-weight: bold; font-size: 1.15em; background: {p.PAPER}; border-radius: .3em;
  padding: .05em .35em; }}
.qard-verdict {{ height: 2.5em; line-height: 1.25; font-weight: bold; overflow: hidden; }}
.qard-verdict-right {{ color: {p.RIGHT}; }}
.qard-verdict-wrong {{ color: {p.ERROR}; }}
.qard-verdict-cards {{ background: {p.PAPER}; border-radius: .25em; padding: 0 .15em; }}
.qard-log-list {{ margin: 0; padding-left: 1.2em; line-height: 1.4; }}
.qard-log-list li.qard-log-newest {{ font-weight: bold; }}
.qard-log-count {{ display: inline-block; margin-left: .4em; padding: 0 .4em; border-radius: .8em;
  background: {p.CHIP}; color: {p.SUBTLE}; font-size: .85em; }}
</style>"""

#: the tables' widgets: the status line, dimmed and selected cards, the panels, the controls
TABLE_CSS = f"""<style>
.qard-felt {{ background: {p.FELT_GREEN}; border-radius: 10px; }}
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
.qard-seat-view {{ line-height: 1.35; overflow-x: auto; }}
.qard-seat-view h4 {{ margin: .2em 0; }}
.qard-seat-step {{ min-height: 2.7em; }}
.qard-seat-view .qard-hand {{ font-size: .8em; flex-wrap: nowrap; }}
.qard-seat-view .qard-grid-table {{ line-height: 1.55; margin-top: .2em; }}
.qard-seat-view .qard-grid-table td {{ min-width: 2.1em; padding: 0 .15em; }}
.qard-seat-view .qard-grid-table th {{ padding: 0 .15em; }}
.qard-seat-view .qard-grid-table tr:first-child th {{ font-size: .85em; }}
.qard-seat-view .qard-grid-table caption {{ text-align: left; font-style: italic; color: {p.SUBTLE}; }}
.qard-seat-view .qard-log {{ line-height: 1.3; }}
</style>"""

#: the grid of cells (cards by holders): a Knowledge's ``_repr_html_``, Hearts' card counting
GRID_CSS = f"""<style>
.qard-grid-table {{ text-align: center; border-collapse: collapse; }}
.qard-grid-table td {{ min-width: 2.6em; padding: 0 .25em; border: 1px solid {p.CELL_EDGE}; }}
.qard-grid-table .qard-void {{ color: {p.ERROR}; }}
</style>"""

#: the deduction grid widget's cells (``qardlab.widgets.grid.GridCells``: plain CSS, which the widget brings
#: to the page with itself): a label column, a head per holder, a button per cell shaded by its value
GRID_CELLS_CSS = f"""
.qard-grid-cells {{ display: grid; gap: 1px; align-items: stretch; font-family: inherit; }}
.qard-grid-cells .qard-grid-head {{ font-weight: bold; text-align: center; overflow: hidden;
  text-overflow: ellipsis; white-space: nowrap; align-self: end; }}
.qard-grid-cells .qard-grid-label {{ display: flex; align-items: center; }}
.qard-grid-cells .qard-grid-cell {{ height: 1.9em; min-width: 0; padding: 0; margin: 0; font: inherit;
  font-size: .85em; color: {p.INK}; border: 1px solid {p.CELL_EDGE}; border-radius: 0; cursor: pointer;
  overflow: hidden; white-space: nowrap; }}
.qard-grid-cells .qard-grid-cell:hover {{ border-color: {p.GRID_LINE};
  box-shadow: inset 0 0 0 1px {p.GRID_LINE}; }}
.qard-grid-cells .qard-grid-cell:focus-visible {{ outline: 3px solid {p.FOCUS}; outline-offset: 1px; }}
"""

#: keyboard focus on a playable card (a thick ring the projector shows)
FOCUS_CSS = f"<style>{p.FOCUS_CSS}</style>"

#: everything above, as one <style> element per part: what a table puts on the page once
STYLESHEET = FELT_CSS + TABLE_CSS + GRID_CSS + FOCUS_CSS
