"""Exact reasoning over a :class:`~qardlab.deduction.knowledge.Knowledge`.

Every question the deduction engine answers is a count of *deals*: ways to put every
card with a holder so that each holder gets its known size and every fact holds. A deal
is weighted by ``1/m`` for each "shown" fact whose holder held ``m`` of the named cards
(the holder chose which to show, each alike: RULES.md's 1/2 for two named cards), so
counting weighted deals gives the exact posterior, and counting plain deals (exact
integers) gives the logic. The secret (if any) is read from the knowledge's
:class:`~qardlab.deduction.facts.SecretSpec`, never from a game's constants.

Two counting methods, chosen by the facts:

* **Mask solver** (any facts, up to ~22 unknown cards; Five Sons). The cards whose
  holder is known are set aside; the others, ``U``, are bits of a mask. Every fact
  concerns one holder, so each holder ``h`` has an array ``f_h`` over the masks of
  ``U``: the weight of ``h`` holding exactly those unknown cards. A zeta transform
  (sum over subsets) per holder, their pointwise product, and one Moebius transform
  give, for every mask ``M``, the weight of the tuples of hands whose union is ``M``;
  since the remaining sizes add up to ``|U|``, a union of the right size is a
  partition. So the weight of "holder ``h`` holds exactly ``A``" is
  ``f_h(A) * G_h(U minus A)`` with ``G_h`` the Moebius transform of the product over
  the other holders. int64 arithmetic is exact (even if an intermediate wraps, the
  transforms are ring maps mod 2^64 and the final counts fit); the 1/2 weights use
  float64.
* **Polynomial solver** (facts that each only forbid or fix single cards: has,
  has_not, none_of, void; Hearts). Unknown cards with the same set of possible holders
  are interchangeable, so the number of deals is the coefficient of
  ``prod_h x_h^(size_h)`` in ``prod_class (sum of x_h over its holders)^(count)``,
  computed as a small dense array indexed by the remaining sizes.

Nothing here imports widgets; numpy does the arithmetic.
"""

from __future__ import annotations

import math
import os
from collections import OrderedDict
from dataclasses import dataclass, field
from functools import cache
from typing import Sequence

import numpy as np

from ..cards import Card
from .facts import Fact, Holder, KnowledgeLike, SecretSpec

__all__ = [
    "Model",
    "Inconsistent",
    "build_model",
    "MaskSolver",
    "PolySolver",
    "solver_for",
    "exact_solver",
    "exact_marginals",
    "holder_marginals",
    "forced",
    "PER_CARD_KINDS",
    "MAX_MASK_BITS",
    "secret_groups",
    "all_candidates",
    "naive_candidates",
    "pair_weights",
    "ranked_pair_weights",
    "RankedCount",
    "ranked_count",
    "secret_hands",
    "shown_scale",
    "limit_zeta_cache",
    "SEAT_ZETA_CACHE_ENTRIES",
]

#: kinds of facts that only forbid or fix single cards (the polynomial solver handles these)
PER_CARD_KINDS = frozenset({"has", "has_not", "none_of", "void"})
#: the mask solver refuses more unknown cards than this (2^22 int64 = 32 MiB per array)
MAX_MASK_BITS = 22


class Inconsistent(ValueError):
    """The facts admit no deal at all (a contradiction in what was recorded)."""


@cache
def popcounts(n: int) -> np.ndarray:
    """popcount of every mask of ``n`` bits (uint8)."""
    pc = np.zeros(1 << n, dtype=np.uint8)
    for i in range(n):
        v = pc.reshape(-1, 2, 1 << i)
        v[:, 1, :] += 1
    return pc


@cache
def subsets_of_size(n: int, k: int) -> np.ndarray:
    """Every mask of ``n`` bits with ``k`` bits set, ascending (int64, read-only)."""
    if k < 0 or k > n:
        out = np.zeros(0, dtype=np.int64)
    else:
        out = np.flatnonzero(popcounts(n) == k).astype(np.int64)
    out.setflags(write=False)
    return out


def _transform(arr: np.ndarray, n: int, op) -> np.ndarray:
    """In place, for every bit ``i``: ``arr[M | 2^i] <- op(arr[M | 2^i], arr[M])`` (M without bit i).

    The same additions in the same order as the textbook loop over ``reshape(-1, 2, 2^i)``
    views, so results are identical (float too); only the way numpy walks memory differs.
    Bits 0-3: numpy iterates a (2^(n-1-i), 2^i) view one short row at a time, so they go as
    2^i one-dimensional strided slices instead. Bits 6-11: numpy's ufunc buffering copies the
    view in 8192-element chunks, so the buffer is made tiny for them (restored after).
    Measured at 18 bits: about 2.5x faster than the plain loop.
    """
    old = np.getbufsize()
    small = False
    try:
        for i in range(n):
            h = 1 << i
            if i <= 3:
                s = h << 1
                for j in range(h):
                    dst = arr[h + j :: s]
                    op(dst, arr[j::s], out=dst)
                continue
            want = 6 <= i <= 11
            if want != small:
                np.setbufsize(16 if want else old)
                small = want
            v = arr.reshape(-1, 2, h)
            op(v[:, 1, :], v[:, 0, :], out=v[:, 1, :])
    finally:
        if small:
            np.setbufsize(old)
    return arr


def zeta(arr: np.ndarray, n: int) -> np.ndarray:
    """In place: ``arr[M] <- sum of arr[S] over S subset of M``."""
    return _transform(arr, n, np.add)


def moebius(arr: np.ndarray, n: int) -> np.ndarray:
    """In place: the inverse of :func:`zeta`."""
    return _transform(arr, n, np.subtract)


# --------------------------------------------------------------------------------------
# the model: which cards are known where, what is left to place
# --------------------------------------------------------------------------------------
@dataclass
class Model:
    """A Knowledge (or a subset of its facts) reduced to what counting needs."""

    knowledge: KnowledgeLike
    facts: tuple[Fact, ...]
    unknown: tuple[Card, ...]
    bit: dict[Card, int]
    known: dict[Holder, frozenset[Card]]
    rem: dict[Holder, int]
    by_holder: dict[Holder, tuple[Fact, ...]]
    where: dict[Card, Holder]
    contradiction: str | None = None
    _solvers: dict = field(default_factory=dict, repr=False)

    @property
    def n(self) -> int:
        return len(self.unknown)

    @property
    def holders(self) -> tuple[Holder, ...]:
        return self.knowledge.holders

    @property
    def secret(self) -> SecretSpec | None:
        return self.knowledge.secret

    @property
    def per_card(self) -> bool:
        return all(f.kind in PER_CARD_KINDS for f in self.facts)

    def mask_of(self, cards: Sequence[Card]) -> int:
        m = 0
        for c in cards:
            b = self.bit.get(c)
            if b is not None:
                m |= 1 << b
        return m


def build_model(k: KnowledgeLike, facts: Sequence[Fact] | None = None) -> Model:
    """Fix the cards whose holder a fact names ("has", the card of a "shown")."""
    facts = tuple(k.facts if facts is None else facts)
    where: dict[Card, Holder] = {}
    contradiction = None
    for f in facts:
        # "has" names its card; "shown" names the card shown first, then the other asked one
        fixed = f.cards[:1] if f.kind in ("has", "shown") else ()
        for c in fixed:
            prev = where.get(c)
            if prev is not None and prev != f.holder:
                contradiction = f"{c} is said to be held by both {k.name(prev)} and {k.name(f.holder)}"
            where.setdefault(c, f.holder)
    known = {h: frozenset(c for c, w in where.items() if w == h) for h in k.holders}
    rem = {}
    for h in k.holders:
        rem[h] = k.sizes[h] - len(known[h])
        if rem[h] < 0 and contradiction is None:
            contradiction = f"{k.name(h)} holds {k.sizes[h]} cards but {len(known[h])} are said to be there"
    unknown = tuple(c for c in k.cards if c not in where)
    by_holder: dict[Holder, list[Fact]] = {h: [] for h in k.holders}
    for f in facts:
        by_holder[f.holder].append(f)
    return Model(
        knowledge=k,
        facts=facts,
        unknown=unknown,
        bit={c: i for i, c in enumerate(unknown)},
        known=known,
        rem=rem,
        by_holder={h: tuple(v) for h, v in by_holder.items()},
        where=where,
        contradiction=contradiction,
    )


def _suit_cards(model: Model, f: Fact) -> tuple[Card, ...]:
    return tuple(c for c in model.knowledge.cards if c.suit == f.suit)


def excluded_cards(model: Model, f: Fact) -> tuple[Card, ...]:
    """The cards a per-card negative fact forbids its holder (has_not, none_of, void)."""
    if f.kind == "void":
        return _suit_cards(model, f)
    if f.kind in ("has_not", "none_of"):
        return f.cards
    return ()


def _lcm_upto(n: int) -> int:
    return math.lcm(*range(1, n + 1)) if n > 1 else 1


def shown_scale(model: Model, h: Holder) -> int:
    """The factor that makes ``h``'s "shown" weights integers: the product, over its shown
    facts whose other named cards may be held (unknown, or known at ``h``), of lcm(1..named):
    a deal where ``h`` held ``m`` of ``n`` named cards weighs ``lcm(1..n) / m`` (2 or 1 for two)."""
    out = 1
    for f in model.by_holder[h]:
        if f.kind == "shown" and any(o in model.known[h] or o in model.bit for o in f.cards[1:]):
            out *= _lcm_upto(len(f.cards))
    return out


def exact_fits(model: Model) -> bool:
    """Whether the exact weighted counts (scaled by :func:`shown_scale` per holder) stay below
    2^62: at most every placement of the unknown cards times the scales."""
    bound = math.factorial(model.n)
    for h in model.holders:
        bound //= math.factorial(max(model.rem[h], 0))
    for h in model.holders:
        bound *= shown_scale(model, h)
    return bound < 1 << 62


def feasible(model: Model, h: Holder, weighted: bool, exact: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """The masks of unknown cards ``h`` may hold beside its known cards, with their weights.

    Weights are int64 ones when ``weighted`` is False, else float64 with the ``1/m`` factors
    of "shown" facts (``m`` named cards held). With ``exact`` (and ``weighted``), int64
    weights: the float weight times :func:`shown_scale`, exactly, so every count stays an
    integer.
    """
    return feasible_among(model, h, subsets_of_size(model.n, model.rem[h]), weighted, exact)


def feasible_among(
    model: Model, h: Holder, masks: np.ndarray, weighted: bool, exact: bool = False
) -> tuple[np.ndarray, np.ndarray]:
    """:func:`feasible`'s test and weights for the given masks of unknown cards (of any sizes: the facts
    are read once for hands of every size, as :class:`RankedCount` needs)."""
    n = model.n
    ok = np.ones(len(masks), dtype=bool)
    w = np.ones(len(masks), dtype=np.float64 if weighted and not exact else np.int64)
    known = model.known[h]
    pc = popcounts(n) if n else np.zeros(1, dtype=np.uint8)
    if model.contradiction is not None:
        ok[:] = False
    for f in model.by_holder[h]:
        kind = f.kind
        if kind == "has":
            continue
        if kind in ("has_not", "none_of", "void"):
            bad = excluded_cards(model, f)
            if any(c in known for c in bad):
                ok[:] = False
            m = model.mask_of(bad)
            if m:
                ok &= (masks & m) == 0
        elif kind == "one_of":
            if any(c in known for c in f.cards):
                continue
            m = model.mask_of(f.cards)
            ok &= (masks & m) != 0
        elif kind == "shown":
            if not weighted:
                continue
            others = f.cards[1:]
            held = 1 + sum(1 for o in others if o in known)
            m_other = model.mask_of([o for o in others if o not in known])
            if not m_other and held == 1:
                continue  # no other named card can be held: weight 1
            m = pc[masks & m_other].astype(np.int64) + held if m_other else np.full(len(masks), held)
            if exact:
                w *= _lcm_upto(len(f.cards)) // m
            else:
                w /= m
        elif kind == "exactly":
            base = sum(1 for c in f.cards if c in known)
            m = model.mask_of(f.cards)
            ok &= (pc[masks & m].astype(np.int64) + base) == f.count
        elif kind == "not_both":
            if not all(c in known or c in model.bit for c in f.cards):
                continue  # some card is known to be elsewhere: holds trivially
            m = model.mask_of(f.cards)
            ok &= (masks & m) != m
        else:
            raise ValueError(f"unknown fact kind {kind!r}")
    return masks[ok], w[ok]


# --------------------------------------------------------------------------------------
# the mask solver
# --------------------------------------------------------------------------------------
class _LRU(OrderedDict):
    def __init__(self, size: int) -> None:
        super().__init__()
        self.size = size

    def get_or(self, key, make):
        try:
            self.move_to_end(key)
            return self[key]
        except KeyError:
            pass
        value = make()
        self[key] = value
        self.trim()
        return value

    def trim(self) -> None:
        """Drop the least recently used entries down to ``size``."""
        while len(self) > self.size:
            self.popitem(last=False)


#: how many zeta transforms the shared cache keeps by default (2^n int64 or float64 each, n the
#: unknown cards: 1-2 MiB in Five Sons, whose n is at most 18)
ZETA_CACHE_ENTRIES = 16
#: what a classroom seat's kernel keeps (qardlab.classroom.join): one step's transforms, one a holder
#: of the largest table (five seats and the secret); a live seat never goes back to an older step, and
#: benchmarks/seat_kernel.py finds the same reuse as with 16 (every hit kept) at less memory
SEAT_ZETA_CACHE_ENTRIES = 6
#: the environment variable that sets the cache's number of entries for the whole process
ZETA_CACHE_ENV = "QARDLAB_ZETA_CACHE_ENTRIES"


def _entries_from_env() -> int | None:
    raw = os.environ.get(ZETA_CACHE_ENV, "").strip()
    if not raw:
        return None
    if not raw.isdigit() or int(raw) < 1:
        raise ValueError(f"{ZETA_CACHE_ENV}={raw!r}: give the zeta cache's number of entries, at least 1")
    return int(raw)


#: zeta transforms of holders' feasible arrays, shared between Knowledges: the facts about a holder
#: change rarely from one step to the next (history, benchmarks). :func:`limit_zeta_cache` (or
#: ``$QARDLAB_ZETA_CACHE_ENTRIES``) sets how many it keeps.
_ZETA_CACHE = _LRU(_entries_from_env() or ZETA_CACHE_ENTRIES)


def limit_zeta_cache(entries: int) -> None:
    """Keep at most ``entries`` zeta transforms in the shared cache from now on (the least recently
    used go at once). ``$QARDLAB_ZETA_CACHE_ENTRIES``, when set, wins: it is the whole process's
    setting. Fewer entries cost only transforms made again when an older step is asked for."""
    if isinstance(entries, bool) or not isinstance(entries, int) or entries < 1:
        raise ValueError(f"limit_zeta_cache({entries!r}): give a number of entries, at least 1")
    _ZETA_CACHE.size = _entries_from_env() or entries
    _ZETA_CACHE.trim()


def _fact_key(f: Fact) -> tuple:
    return (f.kind, f.holder, f.cards, f.suit, f.count)


class MaskSolver:
    """Weights of every holder's possible hands, by subset convolution over masks of U.

    ``exact`` (with ``weighted``): int64 weights scaled by powers of 2 (see :func:`feasible`),
    so weighted counts are exact integers; ratios of them are the probabilities, and a zero
    or a full weight is the logic's "no" or "yes" (every weight is positive).
    """

    def __init__(self, model: Model, weighted: bool, exact: bool = False) -> None:
        if model.n > MAX_MASK_BITS:
            raise ValueError(
                f"{model.n} cards have unknown holders: too many for the exact mask solver "
                f"(at most {MAX_MASK_BITS}); this needs facts that fix more cards"
            )
        self.model = model
        self.weighted = weighted
        self.exact = exact or not weighted
        self.dtype = np.int64 if self.exact else np.float64
        self.n = model.n
        self.full = (1 << self.n) - 1
        self.sets = {h: feasible(model, h, weighted, exact) for h in model.holders}
        #: holders with room left and no fact but "has": their zeta is C(|M|, r), and
        #: holders of the same size among them are interchangeable
        self.free = {
            h
            for h in model.holders
            if model.rem[h] > 0
            and model.contradiction is None
            and all(f.kind == "has" for f in model.by_holder[h])
        }
        self._dist: dict[Holder, tuple[np.ndarray, np.ndarray]] = {}
        self._total = None

    def _key(self, h: Holder) -> tuple:
        m = self.model
        return (
            m.unknown,
            h,
            m.known[h],
            m.rem[h],
            tuple(_fact_key(f) for f in m.by_holder[h]),
            self.weighted,
            self.exact,
            m.contradiction is None,
        )

    def zeta_of(self, h: Holder) -> np.ndarray:
        """The zeta transform of ``h``'s feasible array (cached; do not modify)."""
        if h in self.free:  # C(|M|, r): the same array for every free holder of this size (cached too)

            def make_free() -> np.ndarray:
                r = self.model.rem[h]
                table = np.array([math.comb(i, r) for i in range(self.n + 1)], dtype=self.dtype)
                arr = table[popcounts(self.n)]
                arr.setflags(write=False)
                return arr

            return _ZETA_CACHE.get_or(("free", self.n, self.model.rem[h], self.dtype), make_free)

        def make() -> np.ndarray:
            masks, w = self.sets[h]
            arr = np.zeros(1 << self.n, dtype=self.dtype)
            arr[masks] = w
            zeta(arr, self.n)
            arr.setflags(write=False)
            return arr

        return _ZETA_CACHE.get_or(self._key(h), make)

    def _scalar(self, h: Holder):
        """A holder with nothing left to place: its zeta is a constant."""
        w = self.sets[h][1]
        return w.sum() if len(w) else self.dtype(0)

    def rest(self, exclude: Sequence[Holder]) -> np.ndarray:
        """``G[M]``: weight of the other holders' hands exactly covering ``M``."""
        others = [g for g in self.model.holders if g not in exclude and self.model.rem[g] > 0]
        if others and all(g in self.free for g in others):
            # only free holders: a multinomial for masks of the right size, no transform
            scale = self.dtype(1)
            for g in self.model.holders:
                if g not in exclude and self.model.rem[g] == 0:
                    scale = scale * self._scalar(g)
            size = sum(self.model.rem[g] for g in others)
            ways = math.factorial(size)
            for g in others:
                ways //= math.factorial(self.model.rem[g])
            table = np.zeros(self.n + 1, dtype=self.dtype)
            table[size] = self.dtype(ways) * scale
            return table[popcounts(self.n)]
        prod = None
        scale = self.dtype(1)
        for g in self.model.holders:
            if g in exclude:
                continue
            if self.model.rem[g] == 0:
                scale = scale * self._scalar(g)
                continue
            z = self.zeta_of(g)
            prod = z.copy() if prod is None else np.multiply(prod, z, out=prod)
        if prod is None:
            prod = np.ones(1 << self.n, dtype=self.dtype)
        if scale != 1:
            prod *= scale
        return moebius(prod, self.n)

    def dist(self, h: Holder) -> tuple[np.ndarray, np.ndarray]:
        """(masks, weights): the weight of the deals in which ``h`` holds exactly each mask."""
        if h not in self._dist:
            masks, w = self.sets[h]
            if len(masks) == 0:
                self._dist[h] = (masks, w)
            else:
                g = self.rest((h,))
                self._dist[h] = (masks, w * g[self.full ^ masks])
        return self._dist[h]

    def total(self):
        """Total weight of consistent deals."""
        if self._total is None:
            # the holder with the fewest feasible hands gives the cheapest exact total
            h = self._pivot()
            self._total = self.dist(h)[1].sum()
        return self._total

    def _pivot(self) -> Holder:
        cands = [h for h in self.model.holders if self.model.rem[h] > 0]
        if not cands:
            return self.model.holders[0]
        return min(cands, key=lambda h: len(self.sets[h][0]))

    def card_weights(self, h: Holder) -> np.ndarray:
        """For each unknown card (bit order), the weight of deals where ``h`` holds it."""
        if h in self.free:
            twin = next(
                (
                    g
                    for g in self.model.holders
                    if g in self.free
                    and g != h
                    and g in self._dist
                    and self.model.rem[g] == self.model.rem[h]
                ),
                None,
            )
            if twin is not None:
                return self.card_weights(twin)
        masks, w = self.dist(h)
        if self.n == 0 or len(masks) == 0:
            return np.zeros(self.n, dtype=self.dtype)
        bits = (masks[:, None] >> np.arange(self.n)) & 1
        return (bits * w[:, None]).sum(axis=0)


# --------------------------------------------------------------------------------------
# the polynomial solver (per-card facts only)
# --------------------------------------------------------------------------------------
class PolySolver:
    """Counts deals when every fact forbids or fixes single cards (Hearts).

    Unknown cards with the same set of possible holders form a class; cards of a class
    are interchangeable. A deal is a table ``k[c][h]`` (cards of class ``c`` with holder
    ``h``) with row sums the class sizes ``u_c`` and column sums the holders' remaining
    sizes; it stands for ``prod_c u_c! / prod k[c][h]!`` deals. Holders are multiplied
    in as polynomials over the classes (a dense array with one axis per class, length
    ``u_c + 1``): holder ``h`` contributes ``sum over k (|k| = r_h) of prod_c y_c^k_c / k_c!``.
    The total is the coefficient at ``u``; the expected number of class-``c`` cards at
    ``h`` comes from the product over the other holders, and a card of class ``c`` is at
    ``h`` with that expectation over ``u_c``.
    """

    def __init__(self, model: Model) -> None:
        self.model = model
        self.active = [h for h in model.holders if model.rem[h] > 0]
        forbid: dict[Holder, set[Card]] = {h: set() for h in model.holders}
        self.broken = model.contradiction is not None
        for f in model.facts:
            for c in excluded_cards(model, f):
                forbid[f.holder].add(c)
                if model.where.get(c) == f.holder:
                    self.broken = True
        sets: dict[frozenset, int] = {}
        self.class_of: dict[Card, int] = {}
        for c in model.unknown:
            allowed = frozenset(h for h in self.active if c not in forbid[h])
            if allowed not in sets:
                sets[allowed] = len(sets)
            self.class_of[c] = sets[allowed]
        self.classes = list(sets)
        self.sizes = [0] * len(self.classes)
        for c in model.unknown:
            self.sizes[self.class_of[c]] += 1
        self.shape = tuple(u + 1 for u in self.sizes)
        self.target = tuple(self.sizes)
        self.scale = 1.0
        for u in self.sizes:
            self.scale *= math.factorial(u)
        self.terms = {h: self._terms(h) for h in self.active}
        self._total: float | None = None
        self._expect: dict[Holder, np.ndarray] = {}

    def _terms(self, h: Holder) -> list[tuple[tuple[int, ...], float]]:
        """Compositions of h's remaining size over the classes it may hold, with 1/prod k!."""
        allowed = [i for i, cls in enumerate(self.classes) if h in cls]
        r = self.model.rem[h]
        out: list[tuple[tuple[int, ...], float]] = []
        k = [0] * len(self.classes)

        def rec(j: int, left: int) -> None:
            if j == len(allowed):
                if left == 0:
                    coef = 1.0
                    for x in k:
                        coef /= math.factorial(x)
                    out.append((tuple(k), coef))
                return
            ci = allowed[j]
            for x in range(min(left, self.sizes[ci]) + 1):
                k[ci] = x
                rec(j + 1, left - x)
            k[ci] = 0

        rec(0, r)
        return out

    def _multiply(self, p: np.ndarray, terms) -> np.ndarray:
        out = np.zeros_like(p)
        for k, coef in terms:
            dst = tuple(slice(x, None) for x in k)
            src = tuple(slice(0, n - x) for n, x in zip(self.shape, k))
            out[dst] += coef * p[src]
        return out

    def _product(self, skip: Holder | None = None) -> np.ndarray:
        p = np.zeros(self.shape, dtype=np.float64)
        p[(0,) * len(self.shape)] = 1.0
        for h in self.active:
            if h != skip:
                p = self._multiply(p, self.terms[h])
        return p

    def total(self) -> float:
        if self._total is None:
            if self.broken:
                self._total = 0.0
            else:
                self._total = float(self._product()[self.target]) * self.scale
        return self._total

    def expected(self, h: Holder) -> np.ndarray:
        """Per class: the weight of deals times the number of that class's cards at ``h``."""
        if h not in self._expect:
            e = np.zeros(len(self.classes))
            if not self.broken and h in self.active:
                rest = self._product(skip=h)
                for k, coef in self.terms[h]:
                    at = tuple(t - x for t, x in zip(self.target, k))
                    w = coef * rest[at]
                    if w:
                        e += w * np.asarray(k, dtype=np.float64)
                e *= self.scale
            self._expect[h] = e
        return self._expect[h]

    def card_weight(self, card: Card, h: Holder) -> float:
        """Weight (number) of deals in which ``h`` holds the unknown ``card``."""
        if self.broken or h not in self.active:
            return 0.0
        c = self.class_of[card]
        return float(self.expected(h)[c] / self.sizes[c])


def solver_for(model: Model, weighted: bool):
    """The solver suited to the model's facts (cached on the model)."""
    key = ("poly",) if model.per_card else ("mask", weighted)
    if key not in model._solvers:
        model._solvers[key] = PolySolver(model) if model.per_card else MaskSolver(model, weighted)
    return model._solvers[key]


def exact_solver(model: Model) -> MaskSolver | None:
    """The exact weighted mask solver (cached on the model), or None where the facts need the
    polynomial solver or the scaled counts could pass 2^62 (then use :func:`solver_for`).

    One solver gives the logic (zero / full weight), the probabilities (ratios of exact
    integers, so the correctly rounded value) and the candidates: posterior, candidates and
    grid share its transforms.
    """
    if model.per_card:
        return None
    key = ("mask", "exact")
    if key not in model._solvers:
        model._solvers[key] = MaskSolver(model, True, exact=True) if exact_fits(model) else None
    return model._solvers[key]


def exact_marginals(model: Model) -> tuple[dict[Card, dict[Holder, int]], int] | None:
    """:func:`holder_marginals` from the exact solver, as Python ints, or None (no exact solver).

    Every unknown card is with some holder in every deal, so one holder with room left
    (the one with the most possible hands, never the secret, whose distribution the
    posterior needs anyway) gets ``total - (the others)``: one Moebius transform fewer.
    """
    s = exact_solver(model)
    if s is None:
        return None
    key = ("marginals", "exact")
    if key in model._solvers:
        return model._solvers[key]
    total = int(s.total())
    out: dict[Card, dict[Holder, int]] = {c: {h: 0 for h in model.holders} for c in model.knowledge.cards}
    for c, h in model.where.items():
        out[c][h] = total
    room = [h for h in model.holders if model.rem[h] > 0]
    skip = None
    if len(room) > 1 and total > 0:
        secret = model.secret.holder if model.secret is not None else None
        others = [h for h in room if h != secret]
        if others:
            skip = max(others, key=lambda h: (h not in s.free, len(s.sets[h][0])))
    cards = list(model.bit.items())
    left = [total] * len(cards)
    for h in room:
        if h == skip:
            continue
        cw = s.card_weights(h).tolist()
        for j, (c, i) in enumerate(cards):
            out[c][h] = int(cw[i])
            left[j] -= int(cw[i])
    if skip is not None:
        for j, (c, _i) in enumerate(cards):
            out[c][skip] = left[j]
    model._solvers[key] = (out, total)
    return out, total


def holder_marginals(model: Model, weighted: bool) -> tuple[dict[Card, dict[Holder, float]], float]:
    """For every card and holder, the weight of deals with the card there; and the total."""
    s = solver_for(model, weighted)
    out: dict[Card, dict[Holder, float]] = {c: {h: 0 for h in model.holders} for c in model.knowledge.cards}
    total = s.total()
    for c, h in model.where.items():
        out[c][h] = total
    if isinstance(s, PolySolver):
        for c in model.unknown:
            for h in s.active:
                out[c][h] = s.card_weight(c, h)
        return out, total
    for h in model.holders:
        if model.rem[h] == 0:
            continue
        cw = s.card_weights(h)
        for c, i in model.bit.items():
            out[c][h] = cw[i]
    return out, total


def forced(model: Model, card: Card, holder: Holder) -> str | None:
    """ "yes" if every consistent deal puts ``card`` with ``holder``, "no" if none does, else None.

    Raises :class:`Inconsistent` when no deal at all is consistent.
    """
    s = solver_for(model, weighted=False)
    total = s.total()
    if total == 0:
        raise Inconsistent("the facts admit no deal")
    if card in model.where:
        return "yes" if model.where[card] == holder else "no"
    if isinstance(s, PolySolver):
        here = s.card_weight(card, holder)
        if here == 0:
            return "no"
        others = sum(s.card_weight(card, g) for g in s.active if g != holder)
        return "yes" if others == 0 else None
    if model.rem[holder] == 0:
        return "no"
    here = s.card_weights(holder)[model.bit[card]]
    if here == 0:
        return "no"
    return "yes" if here == total else None


# --------------------------------------------------------------------------------------
# the secret (read from the knowledge's SecretSpec)
# --------------------------------------------------------------------------------------
def _spec(k: KnowledgeLike) -> SecretSpec:
    if k.secret is None:
        raise ValueError(f"this knowledge ({k.game or 'game'}) has no secret; holders are {k.holders}")
    return k.secret


def secret_groups(k: KnowledgeLike) -> tuple[tuple[Card, ...], ...]:
    """The groups the secret takes its cards from (Five Sons: face cards, number cards)."""
    return _spec(k).groups


def all_candidates(k: KnowledgeLike) -> list[tuple[Card, ...]]:
    """Every candidate secret the rules allow."""
    return _spec(k).all_candidates()


def naive_candidates(k: KnowledgeLike) -> set[tuple[Card, ...]]:
    """Candidates left when only cards SEEN in hands are crossed out.

    Seen: the seat's own hand, cards shown to it, cards it knows in the secret (after its
    own wrong claim). Publicly refuted candidates are crossed out too: a claim that was wrong
    is something every player hears and writes down, no reasoning needed.
    """
    spec = _spec(k)
    seen: set[Card] = set()
    in_secret: set[Card] = set()
    refuted: set[frozenset] = set()
    for f in k.facts:
        if f.kind in ("has", "shown"):
            if f.holder == spec.holder:
                in_secret.add(f.cards[0])
            else:
                seen.add(f.cards[0])
        elif f.kind == "not_both" and f.holder == spec.holder:
            refuted.add(frozenset(f.cards))
    out = set()
    for cand in spec.all_candidates():
        if any(c in seen for c in cand):
            continue
        if any(c not in cand for c in in_secret):
            continue
        if any(r <= set(cand) for r in refuted):
            continue
        out.add(cand)
    return out


def pair_weights(model: Model, weighted: bool, solver=None) -> dict[tuple[Card, ...], float]:
    """Weight of the consistent deals for every candidate secret (absent candidates weigh 0).

    ``solver``: the one to read (e.g. :func:`exact_solver`'s); default :func:`solver_for`.
    """
    spec = _spec(model.knowledge)
    s = solver_for(model, weighted) if solver is None else solver
    if isinstance(s, PolySolver):
        raise ValueError("reasoning about the secret needs its rules ('exactly' facts)")
    masks, w = s.dist(spec.holder)
    return _pairs_of(model, masks.tolist(), w.tolist())


def _pairs_of(model: Model, masks: list[int], weights: list) -> dict[tuple[Card, ...], float]:
    """Secret hands (masks of unknown cards) and their weights, as candidates (SecretSpec.candidate)."""
    spec = _spec(model.knowledge)
    out: dict[tuple[Card, ...], float] = {}
    known = sorted(model.known[spec.holder])
    unknown = model.unknown
    n = model.n
    size = spec.size
    if all(p == 1 for p in spec.picks):
        # one card a group (Five Sons): each card has its slot; a hand fits if it fills every slot once
        group_of = spec.group_of
        slot = [group_of(c) for c in unknown]
        slots = len(spec.picks)
        base: list = [None] * slots
        for c in known:
            g = group_of(c)
            if g is None or base[g] is not None:
                return out
            base[g] = c
        for m, x in zip(masks, weights):
            if not x:
                continue
            cand = list(base)
            ok = True
            while m:  # the set bits only, lowest first (a secret hand has a bit or two)
                i = (m & -m).bit_length() - 1
                m &= m - 1
                g = slot[i]
                if g is None or cand[g] is not None:
                    ok = False
                    break
                cand[g] = unknown[i]
            if not ok or None in cand:
                continue
            key = tuple(cand)
            out[key] = out.get(key, 0) + x
        return out
    for m, x in zip(masks, weights):
        if not x:
            continue
        cards = known + [unknown[i] for i in range(n) if m >> i & 1]
        cand = spec.candidate(cards) if len(cards) == size else None
        if cand is None:
            continue
        out[cand] = out.get(cand, 0) + x
    return out


# --------------------------------------------------------------------------------------
# the secret's distribution with the cards no fact names counted, not enumerated
# --------------------------------------------------------------------------------------
#: the posterior's and the candidates' ranked count (:func:`ranked_pair_weights`) is used where at least this
#: many unknown cards are named by no fact (measured on 5-player positions: slower than the full mask solver
#: with 3, even with 4); the advisor has its own threshold (``pair_advisor.RANKED_FREE_FOR_ADVICE``)
RANKED_FREE_FOR_POSTERIOR = 4
#: a ranked count (the posterior's or the advisor's) only where the full solver has at least this many bits
#: (below, its arrays are tiny)
RANKED_MIN_BITS = 12


def named_cards(model: Model) -> tuple[Card, ...]:
    """Unknown cards some fact names, besides the secret's rules (its "exactly" facts)."""
    secret = model.secret.holder if model.secret is not None else None
    named = {
        c
        for f in model.facts
        if not (f.holder == secret and f.kind == "exactly")
        for c in f.cards
        if c in model.bit
    }
    return tuple(c for c in model.unknown if c in named)


class RankedCount:
    """Counts over the unknown cards some fact names (``B``), the others ("free") counted, not enumerated.

    The cards no fact names (besides the secret's rules) are interchangeable for the seats, so a seat's
    hand is a mask ``A`` of ``B`` and ``r - |A|`` free cards. :meth:`rest` gives, for every mask ``M`` of
    ``B``, the weight of the seats' hands (all but those excluded) that cover ``M`` and a given set of
    free cards of the right size: a ranked subset convolution (each seat's zeta per hand size,
    polynomials in the size multiplied, one Moebius per size), where the seat's weight is scaled by
    ``r!/(r - |A|)!`` so that ``Q[M, |M|] * m! / prod r!`` is the number of ways, ``m`` free cards
    shared out included (an exact integer division). Every weight is an exact integer (int64), the
    exact solver's (see :func:`exact_solver`): :func:`ranked_pair_weights` and the advisor's ask mode
    "chosen" read it. Made by :func:`ranked_count` for one computation and then dropped, not kept on the
    model: a model lives as long as its Knowledge, which only the cyclic garbage collector frees, and
    arrays kept that long slowed the next positions' calls (measured: the grid after many posteriors).
    """

    def __init__(self, model: Model) -> None:
        self.model = model
        self.secret = model.secret.holder
        self.named = named_cards(model)
        self.b = len(self.named)
        self.size = 1 << self.b
        self.full = self.size - 1
        #: a named card's bit among the named cards
        self.bit = {c: i for i, c in enumerate(self.named)}
        self.seats = [h for h in model.holders if h != self.secret and model.rem[h] > 0]
        self.fixed = [h for h in model.holders if h != self.secret and model.rem[h] == 0]
        self._sub = Model(
            knowledge=model.knowledge,
            facts=model.facts,
            unknown=self.named,
            bit=self.bit,
            known=model.known,
            rem=dict(model.rem),
            by_holder=model.by_holder,
            where=model.where,
        )
        self._hands: dict[tuple[Holder, int], tuple[np.ndarray, np.ndarray]] = {}
        self._zetas: dict[Holder, np.ndarray] = {}

    def hands(self, h: Holder, d: int) -> tuple[np.ndarray, np.ndarray]:
        """``h``'s possible named parts of ``d`` cards (masks of ``B``, ascending) and their exact weights."""
        if (h, d) not in self._hands:
            # every size at once (the facts read once): the masks of up to min(r, b) named cards
            top = min(self.model.rem[h], self.b)
            pc = popcounts(self.b) if self.b else np.zeros(1, dtype=np.uint8)
            masks, w = feasible_among(self._sub, h, np.flatnonzero(pc <= top), True, exact=True)
            sizes = pc[masks]
            for k in range(top + 1):
                at = sizes == k
                self._hands[(h, k)] = (masks[at], w[at])
            if (h, d) not in self._hands:  # more named cards than h holds: none
                return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
        return self._hands[(h, d)]

    def _fixed_weight(self, h: Holder) -> int:
        """The weight of a holder with no card left to place (its one hand: the known cards)."""
        w = self.hands(h, 0)[1]
        return int(w.sum()) if len(w) else 0

    def _zeta_layers(self, h: Holder) -> np.ndarray:
        """Seat ``h``'s weights per named size ``d`` (a row each), scaled by ``r!/(r - d)!``, zeta-transformed
        (cached: every rest the seat is part of multiplies them)."""
        if h not in self._zetas:
            r = self.model.rem[h]
            layers = np.zeros((min(r, self.b) + 1, self.size), dtype=np.int64)
            for d in range(len(layers)):
                masks, w = self.hands(h, d)
                layers[d, masks] = w * (math.factorial(r) // math.factorial(r - d))
            zeta(layers.reshape(-1), self.b)  # every size at once: the bits are those within a layer
            self._zetas[h] = layers
        return self._zetas[h]

    def rest(self, exclude: Sequence[Holder] = ()) -> np.ndarray:
        """``g[M]`` (int64, over masks of ``B``): the weight of the hands of the holders other
        than the secret and ``exclude`` that hold exactly the named cards ``M`` and ``R - |M|`` given free
        cards (``R``: the cards left to those holders); 0 where ``|M| > R``."""
        model = self.model
        seats = [h for h in self.seats if h not in exclude]
        total = sum(model.rem[h] for h in seats)
        top = min(self.b, total)
        poly = None
        for h in seats:
            layers = self._zeta_layers(h)[: top + 1]
            if poly is None:
                poly = np.zeros((top + 1, self.size), dtype=np.int64)
                poly[: len(layers)] = layers
                continue
            new = np.zeros_like(poly)
            for d in range(len(layers)):
                new[d:] += poly[: top + 1 - d] * layers[d]
            poly = new
        if poly is None:
            poly = np.zeros((top + 1, self.size), dtype=np.int64)
            poly[0] = 1
        moebius(poly.reshape(-1), self.b)
        prod_fact = 1
        for h in seats:
            prod_fact *= math.factorial(model.rem[h])
        scale = 1
        for h in self.fixed:
            if h not in exclude:
                scale *= self._fixed_weight(h)
        # Q[M, |M|] * m! / prod r!, times the fixed holders' weights (each product below 2^62: ranked_count)
        pc = popcounts(self.b).astype(np.intp) if self.b else np.zeros(1, dtype=np.intp)
        ways = np.array([math.factorial(total - k) for k in range(top + 1)], dtype=np.int64)
        g = np.zeros(self.size, dtype=np.int64)
        ok = np.flatnonzero(pc <= top)
        k = pc[ok]
        g[ok] = poly[k, ok] * ways[k] // prod_fact * scale
        return g


def secret_hands(model: Model) -> tuple[np.ndarray, np.ndarray]:
    """The secret's possible hands over every unknown card and their exact weights (:func:`feasible`, cached
    on the model): the ranked count and the advisor read them without building a full mask solver."""
    key = ("secret-hands",)
    if key not in model._solvers:
        model._solvers[key] = feasible(model, model.secret.holder, True, exact=True)
    return model._solvers[key]


def ranked_count(model: Model) -> RankedCount | None:
    """A :class:`RankedCount` of the model, or None where it does not apply (no secret, a contradiction,
    or counts that could pass 2^62 with the ranked scaling)."""
    rc = None
    if model.contradiction is None and model.secret is not None:
        secret = model.secret.holder
        prod_fact = 1
        for h in model.holders:
            if h != secret and model.rem[h] > 0:
                prod_fact *= math.factorial(model.rem[h])
        bound = math.factorial(model.n)
        for h in model.holders:
            bound //= math.factorial(model.rem[h])
        for h in model.holders:
            bound *= shown_scale(model, h)
        if bound * prod_fact < 1 << 62:
            rc = RankedCount(model)
    return rc


def ranked_pair_weights(model: Model) -> dict[tuple[Card, Card], int] | None:
    """The exact solver's pair weights (the same integers), with fewer bits; None if not suited.

    The masks run over the cards some fact names only (:class:`RankedCount`); the secret's hands are
    read as before, over every unknown card, each with the named cards it leaves to the seats.
    """
    if model.contradiction is not None or model.secret is None:
        return None
    if len(named_cards(model)) > model.n - RANKED_FREE_FOR_POSTERIOR or model.n < RANKED_MIN_BITS:
        return None  # the full mask solver is as cheap
    rc = ranked_count(model)
    if rc is None:
        return None
    g = rc.rest()
    # the secret's hands over all unknown cards, and what each leaves to the seats
    ms, ws = secret_hands(model)
    ms_list, ws_list = ms.tolist(), ws.tolist()
    to_b = [1 << rc.bit[c] if c in rc.bit else 0 for c in model.unknown]  # each unknown card's named bit
    out_w = []
    for m, x in zip(ms_list, ws_list):
        hb = 0
        while m:  # the hand's set bits only (a secret hand has a bit or two)
            hb |= to_b[(m & -m).bit_length() - 1]
            m &= m - 1
        out_w.append(x * int(g[rc.full ^ hb]))
    return _pairs_of(model, ms_list, out_w)
