// The deduction grid's cells as one widget (qardlab.widgets.grid.GridCells): the model holds the column
// heads, the row labels and every cell's words, colour and names; this view draws them as a CSS grid of
// buttons and sends a click on a cell to the kernel as {click: [row, column]}. It holds no rules: what a
// cell says and why comes from the kernel.
//
// A change of the model redraws in place when the grid keeps its shape (so a focused cell keeps the
// keyboard focus), and builds the grid anew when its rows or columns change.

function cellButton(r, c) {
  const b = document.createElement("button");
  b.type = "button";
  b.className = "qard-grid-cell";
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
  const root = document.createElement("div");
  root.className = "qard-grid-cells";
  el.appendChild(root);
  let shape = "";
  let buttons = [];

  function draw() {
    const heads = model.get("heads");
    const labels = model.get("labels");
    const cells = model.get("cells");
    root.style.gridTemplateColumns = model.get("columns");
    const now = `${labels.length}x${heads.length}|${heads.join("\u0000")}|${labels.join("\u0000")}`;
    if (now !== shape) {
      shape = now;
      const parts = [document.createElement("div")]; // the corner
      for (const h of heads) {
        const d = document.createElement("div");
        d.className = "qard-grid-head";
        d.textContent = h; // a seat's name: text, never markup
        parts.push(d);
      }
      buttons = [];
      labels.forEach((label, r) => {
        const d = document.createElement("div");
        d.className = "qard-grid-label";
        d.innerHTML = label; // the package's own markup of a card (its symbol in its suit's colour)
        parts.push(d);
        const row = [];
        heads.forEach((_h, c) => {
          const b = cellButton(r, c);
          row.push(b);
          parts.push(b);
        });
        buttons.push(row);
      });
      root.replaceChildren(...parts);
    }
    cells.forEach((row, r) => row.forEach((cell, c) => fill(buttons[r][c], cell)));
  }

  function clicked(event) {
    const b = event.target.closest("button.qard-grid-cell");
    if (b && root.contains(b)) model.send({ click: [Number(b.dataset.r), Number(b.dataset.c)] });
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

  const TRAITS = ["change:heads", "change:labels", "change:cells", "change:columns"];
  root.addEventListener("click", clicked);
  for (const t of TRAITS) model.on(t, soon);
  draw();
  return () => {
    for (const t of TRAITS) model.off(t, soon);
    root.removeEventListener("click", clicked);
  };
}

export default { render };
