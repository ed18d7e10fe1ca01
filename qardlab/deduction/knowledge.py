"""What one seat knows about where the cards are: holders, sizes and facts.

A :class:`Knowledge` is built by a game's adapter from one seat's observation only
(``g.knowledge(seat)``), never from the game state. It is game-neutral:

- ``cards``: every card whose place matters (the whole deck in play);
- ``holders``: where a card can be: the seats (ints) and, per game, places such as
  ``"secret"`` (Five Sons: the two cards put aside) or ``"played"`` (Hearts: cards
  already out of play);
- ``sizes``: how many cards each holder holds now;
- ``facts``: what the seat has seen, each a :class:`Fact` with the sentence a student
  reads in an explanation.

The reasoning over it lives in :mod:`qardlab.deduction.solve`,
:mod:`~qardlab.deduction.explain` and :mod:`~qardlab.deduction.advise`; ``Knowledge``
exposes it as methods, each cached until a fact is added:

- Five Sons: ``naive_candidates()``, ``candidates()``, ``counts()``, ``posterior()``,
  ``entropy()``, ``effective_candidates()``, ``questions(targets)`` (the advisor);
- both games: ``grid(level)`` ("naive", "logic", "probability", or the default "mixed")
  and ``explain(card, holder)``.

A Knowledge whose facts contradict each other admits no deal: ``candidates()`` is then
empty and ``posterior()`` / ``grid()`` raise :class:`~qardlab.deduction.solve.Inconsistent`
(a ValueError).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Mapping, Sequence, Union

from ..cards import Card, Suit

if TYPE_CHECKING:  # explain imports this module at run time
    from .explain import Explanation

__all__ = ["Knowledge", "Fact", "Holder", "SECRET", "PLAYED"]

Holder = Union[int, str]
SECRET = "secret"
PLAYED = "played"


@dataclass(frozen=True)
class Fact:
    """One thing the seat knows.

    kinds and their fields:

    - ``"has"``: ``holder`` holds ``cards[0]``;
    - ``"has_not"``: ``holder`` does not hold ``cards[0]``;
    - ``"one_of"``: ``holder`` holds at least one of ``cards`` (a card was shown to
      someone else, or the seat knows only that one of them was shown);
    - ``"shown"``: ``holder`` showed this seat ``cards[0]`` when asked for ``cards``
      (logically a "has"; for probability, a deal in which the holder held both named
      cards counts 1/2, since the holder chose which to show);
    - ``"none_of"``: ``holder`` holds none of ``cards`` (an answer of "neither");
    - ``"void"``: ``holder`` holds no card of ``suit`` (Hearts: did not follow suit);
    - ``"exactly"``: ``holder`` holds exactly ``count`` of ``cards`` (the secret is one
      face card and one number card);
    - ``"not_both"``: ``holder`` does not hold all of ``cards`` (a refuted claim).

    ``step`` is the game step it comes from (None for the rules themselves); ``text``
    is the sentence used in explanations.
    """

    kind: str
    holder: Holder
    cards: tuple[Card, ...] = ()
    suit: Suit | None = None
    count: int | None = None
    step: int | None = None
    text: str = ""


@dataclass
class Knowledge:
    """One seat's knowledge. See the module docstring."""

    seat: int
    cards: tuple[Card, ...]
    holders: tuple[Holder, ...]
    sizes: dict[Holder, int]
    game: str = ""
    names: Mapping[Holder, str] = field(default_factory=dict)
    facts: list[Fact] = field(default_factory=list)
    #: game-specific extras an adapter may pass to the reasoning (e.g. who may be asked)
    extra: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.cards = tuple(self.cards)
        self.holders = tuple(self.holders)
        missing = [h for h in self.holders if h not in self.sizes]
        if missing:
            raise ValueError(f"no size given for holders {missing}")
        total = sum(self.sizes[h] for h in self.holders)
        if total != len(self.cards):
            raise ValueError(f"holder sizes {self.sizes} add up to {total}, not {len(self.cards)} cards")

    # -- recording facts (used by the games' adapters) --------------------------------
    def _add(self, kind: str, holder: Holder, cards: Sequence[Card] = (), *, suit: Suit | None = None,
             count: int | None = None, step: int | None = None, text: str = "") -> Fact:
        if holder not in self.holders:
            raise ValueError(f"unknown holder {holder!r}; holders are {self.holders}")
        cards = tuple(Card.parse(c) for c in cards)
        for c in cards:
            if c not in self.cards:
                raise ValueError(f"card {c} is not among the cards of this knowledge")
        fact = Fact(kind, holder, cards, suit, count, step, text)
        self.facts.append(fact)
        self._invalidate()
        return fact

    def add_has(self, holder: Holder, card: Card, *, step=None, text="") -> Fact:
        return self._add("has", holder, (card,), step=step, text=text)

    def add_has_not(self, holder: Holder, card: Card, *, step=None, text="") -> Fact:
        return self._add("has_not", holder, (card,), step=step, text=text)

    def add_one_of(self, holder: Holder, cards: Sequence[Card], *, step=None, text="") -> Fact:
        return self._add("one_of", holder, cards, step=step, text=text)

    def add_shown(self, holder: Holder, shown: Card, asked: Sequence[Card], *, step=None, text="") -> Fact:
        asked = tuple(Card.parse(c) for c in asked)
        shown = Card.parse(shown)
        if shown not in asked:
            raise ValueError(f"shown card {shown} is not one of the asked cards {asked}")
        other = tuple(c for c in asked if c != shown)
        return self._add("shown", holder, (shown, *other), step=step, text=text)

    def add_none_of(self, holder: Holder, cards: Sequence[Card], *, step=None, text="") -> Fact:
        return self._add("none_of", holder, cards, step=step, text=text)

    def add_void(self, holder: Holder, suit: Suit, *, step=None, text="") -> Fact:
        return self._add("void", holder, (), suit=Suit(suit), step=step, text=text)

    def add_exactly(self, holder: Holder, cards: Sequence[Card], count: int, *, step=None, text="") -> Fact:
        return self._add("exactly", holder, cards, count=count, step=step, text=text)

    def add_not_both(self, holder: Holder, cards: Sequence[Card], *, step=None, text="") -> Fact:
        return self._add("not_both", holder, cards, step=step, text=text)

    def _invalidate(self) -> None:
        """Drop cached results (the solver caches on the instance)."""
        self.__dict__.pop("_cache", None)

    def name(self, holder: Holder) -> str:
        if holder in self.names:
            return self.names[holder]
        return {SECRET: "the secret pair", PLAYED: "played"}.get(holder, f"seat {holder}")  # type: ignore[arg-type]

    # -- reasoning (see solve.py, explain.py, advise.py) ------------------------------
    def _cached(self, key: str, make):
        cache = self.__dict__.setdefault("_cache", {})
        if key not in cache:
            cache[key] = make()
        return cache[key]

    def model(self):
        """The facts reduced to what counting needs (:class:`~qardlab.deduction.solve.Model`)."""
        from . import solve

        return self._cached("model", lambda: solve.build_model(self))

    def naive_candidates(self) -> set[tuple[Card, Card]]:
        """Five Sons: the (face, number) pairs left when only cards seen in hands are crossed out.

        Seen cards: this seat's hand, cards shown to it, and the secret itself after its own
        wrong claim; publicly refuted pairs are crossed out too.
        """
        from . import solve

        return set(self._cached("naive", lambda: solve.naive_candidates(self)))

    def _pair_weights(self, weighted: bool) -> dict:
        from . import solve

        return self._cached(f"pairs{weighted}", lambda: solve.pair_weights(self.model(), weighted))

    def _exact_pairs(self) -> dict | None:
        """Exact weighted pair weights (ints, see solve.exact_solver), or None where unavailable."""
        from . import solve

        def make():
            model = self.model()
            # fewer bits where some cards are named by no fact; else the full exact solver
            ranked = solve.ranked_pair_weights(model)
            if ranked is not None:
                return ranked
            s = solve.exact_solver(model)
            return None if s is None else solve.pair_weights(model, True, solver=s)

        return self._cached("pairs-exact", make)

    def candidates(self) -> set[tuple[Card, Card]]:
        """Five Sons: the (face, number) pairs with at least one deal consistent with every fact."""
        exact = self._exact_pairs()
        pairs = self._pair_weights(False) if exact is None else exact
        return {p for p, w in pairs.items() if w > 0}

    def counts(self) -> dict[tuple[Card, Card], int]:
        """Five Sons: the exact number of consistent deals for each candidate pair."""
        return {p: int(w) for p, w in self._pair_weights(False).items() if w > 0}

    def posterior(self) -> dict[tuple[Card, Card], float]:
        """Five Sons: the exact probability of each candidate pair (RULES.md's model).

        A uniformly random deal; a deal in which an answerer held both named cards and
        showed this seat one of them weighs 1/2 per such answer.
        """
        def make() -> dict:
            from .solve import Inconsistent

            exact = self._exact_pairs()
            pairs = self._pair_weights(True) if exact is None else exact
            weights = {p: w for p, w in pairs.items() if w > 0}
            total = sum(weights.values())
            if total <= 0:
                raise Inconsistent("no deal agrees with these facts")
            order = sorted(weights.items(), key=lambda kv: (-kv[1], kv[0][0], kv[0][1]))
            return {p: w / total for p, w in order}

        return dict(self._cached("posterior", make))

    def entropy(self) -> float:
        """Entropy of the posterior over secret pairs, in bits."""
        import math

        h = -sum(p * math.log2(p) for p in self.posterior().values() if p > 0)
        return max(0.0, h)

    def effective_candidates(self) -> float:
        """2 ** entropy: the number of equally likely pairs that would be as uncertain."""
        return 2.0 ** self.entropy()

    def grid(self, level: str = "mixed") -> dict[Card, dict[Holder, Any]]:
        """card -> holder -> cell.

        ``"naive"``: "yes" / "no" from cards seen in hands only, None elsewhere;
        ``"logic"``: "yes" if every consistent deal has the card there, "no" if none, else None;
        ``"probability"``: the exact probability (float) that the holder holds the card;
        ``"mixed"`` (the default, as in DESIGN.md): the logic cell where logic settles it,
        else the exact probability.
        """
        from . import explain

        if level == "mixed":
            def make() -> dict:
                logic, prob = self.grid("logic"), self.grid("probability")
                return {c: {h: (v if v is not None else prob[c][h]) for h, v in row.items()}
                        for c, row in logic.items()}

            return self._cached("grid-mixed", make)
        if level not in ("naive", "logic", "probability"):
            raise ValueError(
                f"unknown grid level {level!r}: expected 'naive', 'logic', 'probability' or 'mixed'")
        return self._cached(f"grid-{level}", lambda: explain.grid(self, level))

    def grid_html(self, level: str = "mixed") -> str:
        """The grid as an HTML table: cards as rows, holders as columns, yes / no / probability.

        Drawn by the package's one grid renderer (:func:`qardlab.render.grid.grid_html`: ✓ yes, ✗ no,
        · unknown, probabilities shaded white to blue); this is how a ``Knowledge`` shows itself in a
        notebook (``_repr_html_``), with no widget.
        """
        from ..render.grid import grid_html

        holders = [h for h in self.holders if h != self.seat]
        return grid_html(self.grid(level), holders, {h: self.name(h) for h in holders},
                         caption=f"What {self.name(self.seat)} can know ({level})")

    def _repr_html_(self) -> str:
        return self.grid_html()

    def explain(self, card: Card, holder: Holder) -> Explanation:
        """Why the grid cell (card, holder) is what it is, as sentences (see explain.py)."""
        from . import explain

        return explain.explain(self, Card.parse(card), holder)

    def questions(self, targets: Sequence[int] | None = None) -> list:
        """Five Sons: every question this seat may ask (to ``targets``, default every other
        seat), best first, with its exact expected information in bits about the secret pair
        (see advise.py)."""
        from . import advise

        return advise.questions(self, targets)
