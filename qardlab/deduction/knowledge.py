"""What one seat knows about where the cards are: a value of holders, sizes and facts.

A :class:`Knowledge` is built by a game's adapter from one seat's observation only
(``g.knowledge(seat)``), never from the game state. It is game-neutral:

- ``cards``: every card whose place matters (the whole deck in play);
- ``holders``: where a card can be: the seats (ints) and, per game, places such as
  ``"secret"`` (Five Sons: the two cards put aside) or ``"played"`` (Hearts: cards
  already out of play);
- ``sizes``: how many cards each holder holds now;
- ``facts``: what the seat has seen, a tuple of :class:`~qardlab.deduction.facts.Fact`,
  each with the sentence a student reads in an explanation;
- ``secret``: the :class:`~qardlab.deduction.facts.SecretSpec` when the game has a secret
  (its rules are facts too: added, with step None, where the adapter did not add them);
- ``names`` and ``words``: how sentences name each holder (``words`` for the places that
  are not seats: :class:`~qardlab.deduction.facts.PlaceWords`).

A Knowledge is a value: it cannot change, so its results cannot go stale. More facts
make a new one (``k.with_facts(f, g)``, ``k + f``, ``k.upto(step)``); its results are
computed once and cached on the instance, and the small ones (candidates, posterior,
grids) also by value, so an equal Knowledge built again (a table redrawing the same
position) reuses them.

The reasoning lives in :mod:`.solve`, :mod:`.explain` and :mod:`.pair_advisor` (which never
import this module; it imports them, the last two at first use, so that a lesson's first
``posterior()`` loads only the solver); ``Knowledge`` exposes it as methods:

- with a secret: ``naive_candidates()``, ``candidates()``, ``counts()``, ``posterior()``,
  ``entropy()``, ``effective_candidates()``, ``questions(targets)`` (the advisor; for a
  secret of two groups of one card);
- any game: ``grid(level)`` ("naive", "logic", "probability", or the default "mixed")
  and ``explain(card, holder)``.

A Knowledge whose facts contradict each other admits no deal: ``candidates()`` is then
empty and ``posterior()`` / ``grid()`` raise :class:`~qardlab.deduction.solve.Inconsistent`
(a ValueError).
"""

from __future__ import annotations

import math
from collections import OrderedDict
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Callable, Iterable, Mapping, Sequence

from ..cards import Card
from . import solve
from .facts import FACT_KINDS, Fact, Holder, PlaceWords, SecretSpec

if (
    TYPE_CHECKING
):  # explain and the advisor are imported at their first use (a first posterior() needs neither)
    from .explain import Explanation
    from .pair_advisor import Question

__all__ = ["Knowledge"]

#: small results (candidates, posterior, grids) by value: an equal Knowledge reuses them
_RESULTS: OrderedDict = OrderedDict()
_RESULTS_SIZE = 256
#: results shared by value (the rest, e.g. the solver's model and its arrays, stay on the instance)
_SHARED = frozenset(
    {
        "naive",
        "pairs-exact",
        "pairsTrue",
        "pairsFalse",
        "posterior",
        "grid-naive",
        "grid-logic",
        "grid-probability",
        "grid-mixed",
    }
)


class _ValueKey:
    """A Knowledge's key with its hash computed once (a dict lookup then hashes an int, not the facts)."""

    __slots__ = ("value", "hash")

    def __init__(self, value: tuple) -> None:
        self.value = value
        self.hash = hash(value)

    def __hash__(self) -> int:
        return self.hash

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _ValueKey) and self.hash == other.hash and self.value == other.value


def clear_results() -> None:
    """Forget the results shared by value (benchmarks measure cold calls with it)."""
    _RESULTS.clear()


@dataclass(frozen=True, eq=False)
class Knowledge:
    """One seat's knowledge, a value. See the module docstring."""

    seat: int
    cards: tuple[Card, ...]
    holders: tuple[Holder, ...]
    sizes: Mapping[Holder, int]
    game: str = ""
    names: Mapping[Holder, str] = field(default_factory=dict)
    facts: tuple[Fact, ...] = ()
    #: game-specific extras an adapter may pass on (e.g. the phase, who is to move)
    extra: Mapping[str, Any] = field(default_factory=dict)
    secret: SecretSpec | None = None
    words: Mapping[Holder, PlaceWords] = field(default_factory=dict)
    _memo: dict = field(default_factory=dict, init=False, repr=False)

    def __post_init__(self) -> None:
        put = object.__setattr__
        put(self, "cards", tuple(Card.parse(c) for c in self.cards))
        put(self, "holders", tuple(self.holders))
        put(self, "sizes", MappingProxyType(dict(self.sizes)))
        put(self, "names", MappingProxyType(dict(self.names)))
        put(self, "extra", MappingProxyType(dict(self.extra)))
        put(self, "words", MappingProxyType(dict(self.words)))
        missing = [h for h in self.holders if h not in self.sizes]
        if missing:
            raise ValueError(f"no size given for holders {missing}")
        total = sum(self.sizes[h] for h in self.holders)
        if total != len(self.cards):
            raise ValueError(
                f"holder sizes {dict(self.sizes)} add up to {total}, not {len(self.cards)} cards"
            )
        facts = tuple(self.facts)
        spec = self.secret
        if spec is not None:
            if spec.holder not in self.holders:
                raise ValueError(
                    f"the secret's holder {spec.holder!r} is not a holder; holders are {self.holders}"
                )
            if self.sizes[spec.holder] != spec.size:
                raise ValueError(
                    f"the secret holds {spec.size} cards but {spec.holder!r} has size "
                    f"{self.sizes[spec.holder]}"
                )
            have = {f.key for f in facts}
            rules = tuple(f for f in spec.rules() if f.key not in have)
            facts = rules + facts
        known = frozenset(self.cards)
        for f in facts:
            self._check(f, known)
        put(self, "facts", facts)

    def _check(self, f: Fact, known: frozenset) -> None:
        if not isinstance(f, Fact):
            raise ValueError(f"not a Fact: {f!r}")
        if f.kind not in FACT_KINDS:
            raise ValueError(f"unknown fact kind {f.kind!r}; kinds are {sorted(FACT_KINDS)}")
        if f.holder not in self.holders:
            raise ValueError(f"unknown holder {f.holder!r}; holders are {self.holders}")
        for c in f.cards:
            if c not in known:
                raise ValueError(f"card {c} is not among the cards of this knowledge")

    # -- a value: equality, hashing, new knowledge from more facts ----------------------
    @property
    def key(self) -> tuple:
        """What the counting reads (seat, cards, holders, sizes, the facts' contents, the secret):
        two Knowledges with the same key have the same candidates, posterior and grids."""
        k = self._memo.get("key")
        if k is None:
            k = self._memo["key"] = (
                self.seat,
                self.cards,
                self.holders,
                tuple((h, self.sizes[h]) for h in self.holders),
                tuple(f.key for f in self.facts),
                self.secret,
            )
        return k

    def _full(self) -> tuple:
        return (
            self.key,
            self.game,
            tuple(self.names.items()),
            self.facts,
            tuple(self.words.items()),
            tuple(sorted((str(a), repr(b)) for a, b in self.extra.items())),
        )

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Knowledge):
            return NotImplemented
        return self is other or self._full() == other._full()

    def _value_key(self) -> _ValueKey:
        vk = self._memo.get("value-key")
        if vk is None:
            vk = self._memo["value-key"] = _ValueKey(self.key)
        return vk

    def __hash__(self) -> int:
        return self._value_key().hash

    def __reduce__(self) -> tuple:
        """Pickled (and deep-copied) as its fields, without the cached results."""
        return (
            Knowledge,
            (
                self.seat,
                self.cards,
                self.holders,
                dict(self.sizes),
                self.game,
                dict(self.names),
                self.facts,
                dict(self.extra),
                self.secret,
                dict(self.words),
            ),
        )

    def replace(self, **changes: Any) -> Knowledge:
        """A new Knowledge with some fields changed (``facts=...``, ``sizes=...``)."""
        fields = dict(
            seat=self.seat,
            cards=self.cards,
            holders=self.holders,
            sizes=self.sizes,
            game=self.game,
            names=self.names,
            facts=self.facts,
            extra=self.extra,
            secret=self.secret,
            words=self.words,
        )
        fields.update(changes)
        return Knowledge(**fields)

    def with_facts(self, *facts: Fact | Iterable[Fact]) -> Knowledge:
        """A new Knowledge that also knows ``facts`` (Facts, or iterables of them)."""
        more: list[Fact] = []
        for f in facts:
            if isinstance(f, Fact):
                more.append(f)
            else:
                more.extend(f)
        return self.replace(facts=self.facts + tuple(more))

    def __add__(self, other: Fact | Iterable[Fact]) -> Knowledge:
        if not isinstance(other, Fact) and not isinstance(other, (list, tuple)):
            return NotImplemented
        return self.with_facts(other)

    def upto(self, step: int) -> Knowledge:
        """The knowledge restricted to facts from ``step`` or before (rules always kept)."""
        return self.replace(facts=tuple(f for f in self.facts if f.step is None or f.step <= step))

    # -- words ----------------------------------------------------------------------------
    def place_words(self, holder: Holder) -> PlaceWords:
        """How sentences speak of ``holder``, a place that is not a seat (the adapter's words)."""
        w = self.words.get(holder)
        if w is not None:
            return w
        return PlaceWords.plain(self.names.get(holder, str(holder)))

    def name(self, holder: Holder) -> str:
        if holder in self.names:
            return self.names[holder]
        if holder in self.words:
            return self.words[holder].name
        return f"seat {holder}" if isinstance(holder, int) else str(holder)

    # -- reasoning (see solve.py, explain.py, pair_advisor.py) ---------------------------
    def _cached(self, key: str, make: Callable[[], Any]) -> Any:
        memo = self._memo
        if key in memo:
            return memo[key]
        shared = key in _SHARED
        if shared:
            full = (self._value_key(), key)
            try:
                _RESULTS.move_to_end(full)
                value = memo[key] = _RESULTS[full]
                return value
            except KeyError:
                pass
        value = memo[key] = make()
        if shared:
            _RESULTS[full] = value
            while len(_RESULTS) > _RESULTS_SIZE:
                _RESULTS.popitem(last=False)
        return value

    def model(self) -> solve.Model:
        """The facts reduced to what counting needs (:class:`~qardlab.deduction.solve.Model`)."""
        return self._cached("model", lambda: solve.build_model(self))

    def _spec(self) -> SecretSpec:
        if self.secret is None:
            raise ValueError(
                f"this knowledge ({self.game or 'game'}) has no secret; holders are {self.holders}"
            )
        return self.secret

    def naive_candidates(self) -> set[tuple[Card, ...]]:
        """The candidate secrets left when only cards seen in hands are crossed out.

        Seen cards: this seat's hand, cards shown to it, and the secret itself after its own
        wrong claim; publicly refuted candidates are crossed out too.
        """
        self._spec()
        return set(self._cached("naive", lambda: frozenset(solve.naive_candidates(self))))

    def _pair_weights(self, weighted: bool) -> dict:
        self._spec()
        return self._cached(f"pairs{weighted}", lambda: solve.pair_weights(self.model(), weighted))

    def _exact_pairs(self) -> dict | None:
        """Exact weighted candidate weights (ints, see solve.exact_solver), or None where unavailable."""
        self._spec()

        def make():
            model = self.model()
            # fewer bits where some cards are named by no fact; else the full exact solver
            ranked = solve.ranked_pair_weights(model)
            if ranked is not None:
                return ranked
            s = solve.exact_solver(model)
            return None if s is None else solve.pair_weights(model, True, solver=s)

        return self._cached("pairs-exact", make)

    def candidates(self) -> set[tuple[Card, ...]]:
        """The candidate secrets with at least one deal consistent with every fact
        (Five Sons: (face, number) pairs)."""
        exact = self._exact_pairs()
        pairs = self._pair_weights(False) if exact is None else exact
        return {p for p, w in pairs.items() if w > 0}

    def counts(self) -> dict[tuple[Card, ...], int]:
        """The exact number of consistent deals for each candidate secret."""
        return {p: int(w) for p, w in self._pair_weights(False).items() if w > 0}

    def posterior(self) -> dict[tuple[Card, ...], float]:
        """The exact probability of each candidate secret (RULES.md's model), most likely first.

        A uniformly random deal; a deal in which a seat that showed this seat a card held
        ``m`` of the named cards weighs ``1/m`` per such answer.
        """

        def make() -> dict:
            exact = self._exact_pairs()
            pairs = self._pair_weights(True) if exact is None else exact
            weights = {p: w for p, w in pairs.items() if w > 0}
            total = sum(weights.values())
            if total <= 0:
                raise solve.Inconsistent("no deal agrees with these facts")
            order = sorted(weights.items(), key=lambda kv: (-kv[1], kv[0]))
            return {p: w / total for p, w in order}

        return dict(self._cached("posterior", make))

    def entropy(self) -> float:
        """Entropy of the posterior over candidate secrets, in bits."""
        h = -sum(p * math.log2(p) for p in self.posterior().values() if p > 0)
        return max(0.0, h)

    def effective_candidates(self) -> float:
        """2 ** entropy: the number of equally likely candidates that would be as uncertain."""
        return 2.0 ** self.entropy()

    def _grid(self, level: str) -> dict[Card, dict[Holder, Any]]:
        """The cached grid itself (not to be modified: :meth:`grid` gives a copy)."""
        if level == "mixed":

            def make() -> dict:
                logic, prob = self._grid("logic"), self._grid("probability")
                return {
                    c: {h: (v if v is not None else prob[c][h]) for h, v in row.items()}
                    for c, row in logic.items()
                }

            return self._cached("grid-mixed", make)
        if level not in ("naive", "logic", "probability"):
            raise ValueError(
                f"unknown grid level {level!r}: expected 'naive', 'logic', 'probability' or 'mixed'"
            )
        from . import explain

        return self._cached(f"grid-{level}", lambda: explain.grid(self, level))

    def grid(self, level: str = "mixed") -> dict[Card, dict[Holder, Any]]:
        """card -> holder -> cell.

        ``"naive"``: "yes" / "no" from cards seen in hands only, None elsewhere;
        ``"logic"``: "yes" if every consistent deal has the card there, "no" if none, else None;
        ``"probability"``: the exact probability (float) that the holder holds the card;
        ``"mixed"`` (the default, as in DESIGN.md): the logic cell where logic settles it,
        else the exact probability.
        """
        return {c: dict(row) for c, row in self._grid(level).items()}

    def cell(self, card: Card, holder: Holder, level: str = "mixed") -> Any:
        """One cell of :meth:`grid` (no copy of the grid)."""
        return self._grid(level)[Card.parse(card)][holder]

    def grid_html(self, level: str = "mixed") -> str:
        """The grid as an HTML table: cards as rows, holders as columns, yes / no / probability.

        Drawn by the package's one grid renderer (:func:`qardlab.render.grid.grid_html`: ✓ yes, ✗ no,
        · unknown, probabilities shaded white to blue); this is how a ``Knowledge`` shows itself in a
        notebook (``_repr_html_``), with no widget.
        """
        from ..render.grid import grid_html

        holders = [h for h in self.holders if h != self.seat]
        return grid_html(
            self._grid(level),
            holders,
            {h: self.name(h) for h in holders},
            caption=f"What {self.name(self.seat)} can know ({level})",
        )

    def _repr_html_(self) -> str:
        return self.grid_html()

    def explain(self, card: Card, holder: Holder) -> Explanation:
        """Why the grid cell (card, holder) is what it is, as sentences (see explain.py)."""
        from . import explain

        return explain.explain(self, Card.parse(card), holder)

    def questions(self, targets: Sequence[int] | None = None) -> list[Question]:
        """Every question this seat may ask (to ``targets``, default every other seat, or the
        left neighbour in "pass_left" mode), best first, with its exact expected information in
        bits about the secret (see pair_advisor.py)."""
        from . import pair_advisor

        return pair_advisor.questions(self, targets)
