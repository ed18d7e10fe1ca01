// The deduction grid's cells as one widget (qardlab.widgets.grid.GridCells): the model holds the column
// heads, the row labels, every cell's words, colour and names, and the explanation of the cell last
// explained; this view draws them as an ARIA grid laid out by a CSS grid, and sends a click on a cell (or
// Enter or Space on the focused one) to the kernel as {click: [row, column]}. It holds no rules: what a
// cell says and why comes from the kernel.
//
// Keyboard: one cell is in the Tab order (a roving tabindex); the arrow keys move through the grid, Home
// and End to the row's first and last cell, Ctrl+Home and Ctrl+End to the grid's, Page Up and Page Down
// five rows. The explanation is drawn under the row of the cell it explains, across the grid (where the
// eye is, not under a 22-row grid), and scrolled into view when it comes; a screen reader hears it
// (aria-live).
//
// A change of the model redraws in place when the grid keeps its shape (so the focused cell keeps the
// keyboard focus), and builds the grid anew when its rows or columns change.

const PAGE = 5;

function div(className, role) {
  const d = document.createElement("div");
  if (className) d.className = className;
  if (role) d.setAttribute("role", role);
  return d;
}

function cellElement(r, c) {
  const b = div("qard-grid-cell", "gridcell");
  b.tabIndex = -1;
  b.dataset.r = String(r);
  b.dataset.c = String(c);
  return b;
}

function fill(b, cell) {
  const [text, color, tip, spoken] = cell;
  if (b.textContent !== text) b.textContent = text;
  if (b.dataset.color !== color) { // (the style reads back normalised, so the value drawn is kept beside it)
    b.dataset.color = color;
    b.style.background = color;
  }
  if (b.title !== tip) b.title = tip;
  if (b.getAttribute("aria-label") !== spoken) b.setAttribute("aria-label", spoken);
}

function render({ model, el }) {
  const root = div("qard-grid-cells", "grid");
  root.setAttribute("aria-label", "deduction grid: cards by holders; Enter on a cell says why");
  el.appendChild(root);
  // the explanation: a row of its own, one cell across the grid, moved under the row of its cell
  const explainRow = div("qard-grid-explanation-row", "row");
  const explanation = div("qard-grid-explanation", "gridcell");
  explanation.setAttribute("aria-live", "polite");
  explainRow.appendChild(explanation);
  let shape = "";
  let rows = []; // each row's element
  let cells = []; // cells[r][c]
  let at = [0, 0]; // the cell in the Tab order
  let shown = ""; // the explanation drawn
  let asked = false; // this view sent the click the explanation answers

  function place(r, c, focus) {
    if (!cells.length || !cells[0].length) return;
    r = Math.max(0, Math.min(cells.length - 1, r));
    c = Math.max(0, Math.min(cells[0].length - 1, c));
    const [r0, c0] = at;
    if (cells[r0] && cells[r0][c0]) cells[r0][c0].tabIndex = -1;
    at = [r, c];
    cells[r][c].tabIndex = 0;
    if (focus) cells[r][c].focus();
  }

  function draw() {
    const heads = model.get("heads");
    const labels = model.get("labels");
    const values = model.get("cells");
    root.style.gridTemplateColumns = model.get("columns");
    root.setAttribute("aria-rowcount", String(labels.length + 1));
    root.setAttribute("aria-colcount", String(heads.length + 1));
    const now = `${labels.length}x${heads.length}|${heads.join("\u0000")}|${labels.join("\u0000")}`;
    if (now !== shape) {
      const focused = root.contains(document.activeElement);
      shape = now;
      const top = div("qard-grid-row", "row");
      top.appendChild(div("qard-grid-corner", "columnheader"));
      for (const h of heads) {
        const d = div("qard-grid-head", "columnheader");
        d.textContent = h; // a seat's name: text, never markup
        top.appendChild(d);
      }
      rows = [];
      cells = [];
      labels.forEach((label, r) => {
        const row = div("qard-grid-row", "row");
        const d = div("qard-grid-label", "rowheader");
        d.innerHTML = label; // the package's own markup of a card (its symbol in its suit's colour)
        row.appendChild(d);
        const line = heads.map((_h, c) => row.appendChild(cellElement(r, c)));
        rows.push(row);
        cells.push(line);
      });
      root.replaceChildren(top, ...rows, explainRow);
      place(at[0], at[1], focused);
    }
    values.forEach((row, r) => row.forEach((cell, c) => fill(cells[r][c], cell)));
    explain();
  }

  function explain() {
    const html = model.get("explanation");
    const where = model.get("explained");
    const r = where && where.length === 2 ? where[0] : -1;
    // the package's own markup (escaped by the kernel's element helper)
    if (explanation.innerHTML !== html) explanation.innerHTML = html;
    explainRow.hidden = !html;
    const after = rows[r] || rows[rows.length - 1];
    if (after && after.nextSibling !== explainRow) after.after(explainRow);
    if (html && html !== shown && asked) {
      explanation.scrollIntoView({ block: "nearest" });
    }
    shown = html;
    asked = false;
  }

  function ask(b) {
    const r = Number(b.dataset.r);
    const c = Number(b.dataset.c);
    place(r, c, false);
    asked = true;
    model.send({ click: [r, c] });
  }

  function clicked(event) {
    const b = event.target.closest(".qard-grid-cell");
    if (b && root.contains(b)) ask(b);
  }

  function key(event) {
    const b = event.target.closest(".qard-grid-cell");
    if (!b || !root.contains(b)) return;
    const r = Number(b.dataset.r);
    const c = Number(b.dataset.c);
    const last = cells.length ? cells[0].length - 1 : 0;
    const ctrl = event.ctrlKey || event.metaKey;
    const moves = {
      ArrowUp: [r - 1, c],
      ArrowDown: [r + 1, c],
      ArrowLeft: [r, c - 1],
      ArrowRight: [r, c + 1],
      Home: ctrl ? [0, 0] : [r, 0],
      End: ctrl ? [cells.length - 1, last] : [r, last],
      PageUp: [r - PAGE, c],
      PageDown: [r + PAGE, c],
    };
    if (event.key in moves) {
      event.preventDefault();
      event.stopPropagation(); // (JupyterLab's notebook must not take the arrows from the grid)
      const [r2, c2] = moves[event.key];
      place(r2, c2, true);
    } else if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      event.stopPropagation();
      ask(b);
    }
  }

  // one model update (the kernel sends its traits together) changes several traits: one redraw for all
  let due = false;
  function soon() {
    if (due) return;
    due = true;
    queueMicrotask(() => {
      due = false;
      draw();
    });
  }

  const TRAITS = [
    "change:heads",
    "change:labels",
    "change:cells",
    "change:columns",
    "change:explanation",
    "change:explained",
  ];
  root.addEventListener("click", clicked);
  root.addEventListener("keydown", key);
  for (const t of TRAITS) model.on(t, soon);
  draw();
  return () => {
    for (const t of TRAITS) model.off(t, soon);
    root.removeEventListener("click", clicked);
    root.removeEventListener("keydown", key);
  };
}

export default { render };
