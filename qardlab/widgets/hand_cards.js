// A hand of playable cards as one widget (qardlab.widgets.cards.HandCards): the model holds each card's
// code, label, colours, words and whether it is legal and chosen; this view draws them as buttons in a
// toolbar and sends a click on one (or Enter or Space on the focused one) to the kernel as {play: index}.
// It holds no rules: which cards are legal, and why not, comes from the kernel.
//
// Keyboard: one legal card is in the Tab order (a roving tabindex); the arrow keys move to the next or the
// previous legal card, Home and End to the first and the last. An illegal card is never focused by the
// keyboard (a click on it still asks the game, which says why not).

function render({ model, el }) {
  const root = document.createElement("div");
  root.className = "qard-hand-cards";
  root.setAttribute("role", "toolbar");
  el.appendChild(root);
  let buttons = [];
  let at = -1; // the card in the Tab order

  function legal() {
    return buttons.map((b, i) => (b.classList.contains("qard-illegal") ? -1 : i)).filter((i) => i >= 0);
  }

  function place(i, focus) {
    if (at >= 0 && buttons[at]) buttons[at].tabIndex = -1;
    at = i;
    if (i < 0 || !buttons[i]) return;
    buttons[i].tabIndex = 0;
    if (focus) buttons[i].focus();
  }

  function draw() {
    const cards = model.get("cards");
    root.setAttribute("aria-label", model.get("label"));
    const focused = buttons.indexOf(document.activeElement);
    while (buttons.length < cards.length) {
      const b = document.createElement("button");
      b.type = "button";
      b.tabIndex = -1;
      root.appendChild(b);
      buttons.push(b);
    }
    while (buttons.length > cards.length) buttons.pop().remove();
    cards.forEach(([code, label, color, background, tip, ok, chosen], i) => {
      const b = buttons[i];
      b.className = "qard-card" + (ok ? "" : " qard-illegal") + (chosen ? " qard-selected" : "");
      b.dataset.card = code;
      if (b.textContent !== label) b.textContent = label;
      b.style.color = color;
      b.style.background = background;
      b.title = tip;
      b.setAttribute("aria-label", tip);
      b.tabIndex = -1;
    });
    const ok = legal();
    const keep = ok.includes(focused) ? focused : ok.includes(at) ? at : ok.length ? ok[0] : -1;
    at = -1;
    place(keep, focused >= 0 && keep >= 0);
  }

  function clicked(event) {
    const b = event.target.closest("button.qard-card");
    const i = buttons.indexOf(b);
    if (i < 0) return;
    if (!b.classList.contains("qard-illegal")) place(i, false);
    model.send({ play: i });
  }

  function key(event) {
    const i = buttons.indexOf(event.target.closest("button.qard-card"));
    if (i < 0) return;
    const ok = legal();
    const k = ok.indexOf(i);
    const next = {
      ArrowRight: ok[k + 1],
      ArrowDown: ok[k + 1],
      ArrowLeft: ok[k - 1],
      ArrowUp: ok[k - 1],
      Home: ok[0],
      End: ok[ok.length - 1],
    };
    if (event.key in next) {
      event.preventDefault();
      event.stopPropagation(); // (JupyterLab's notebook must not take the arrows from the hand)
      if (next[event.key] !== undefined) place(next[event.key], true);
    } else if (event.key === "Enter" || event.key === " ") {
      event.stopPropagation(); // the button's own click plays it; the notebook must not act on the key
    }
  }

  let due = false;
  function soon() {
    if (due) return;
    due = true;
    queueMicrotask(() => {
      due = false;
      draw();
    });
  }

  root.addEventListener("click", clicked);
  root.addEventListener("keydown", key);
  model.on("change:cards", soon);
  model.on("change:label", soon);
  draw();
  return () => {
    model.off("change:cards", soon);
    model.off("change:label", soon);
    root.removeEventListener("click", clicked);
    root.removeEventListener("keydown", key);
  };
}

export default { render };
