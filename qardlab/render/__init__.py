"""The one home of the package's markup: HTML and SVG built as trees of elements, and one style sheet.

- :mod:`qardlab.render.markup`: the element helper ``el(tag, *children, **attrs)`` (text and attributes
  escaped when written out), as python-chess builds its SVG;
- :mod:`qardlab.render.style`: the one style sheet of every table, felt, grid and hand, its colours from
  :mod:`qardlab.palette`;
- :mod:`qardlab.render.grid`: the one grid of cells (cards by holders) with one probability shading, drawn
  by a ``Knowledge`` in a notebook, by Hearts' card-counting panel and (its cell words and colours) by the
  deduction grid widget.

It sits at the level of :mod:`qardlab.palette`: it imports only the standard library, the palette and
``qardlab.cards``, so every layer (deduction included, which may not import widgets) may use it. This
``__init__`` imports nothing, so ``qardlab.cards`` may use the element helper.
"""
