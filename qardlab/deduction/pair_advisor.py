"""The question advisor for a secret that is a pair: how much each possible question would tell the asker.

It handles one shape of secret, not every one a SecretSpec can describe: two groups of one card each
(:func:`two_groups` refuses any other, saying so), about which a seat asks by naming one card of each
group to another seat, who shows one of the named cards it holds (either with the same chance) or says
"neither", as the secret's QuestionModel says (``mode`` "chosen" or "pass_left"). In its names the
first group's card is the ``face`` and the second's the ``number`` (:class:`Question` has them under
those names, as the game that asks such questions, The King of Hearts has Five Sons, names them).

For the seat to ask, every question (target seat, face, number) gets its expected information about the
secret pair: the mutual information, in bits, between the pair and what this seat would see, namely the
card shown (face or number) or "neither". The answer's distribution follows RULES.md's model: a uniformly
random deal among those consistent with what the seat knows (weighted as in the posterior), and an
answerer holding both named cards shows either with probability 1/2.

Method, per target ``t``: with ``G`` the Moebius transform of the product of the zeta
transforms of the seats other than ``t`` (see solve.py), the weight of "secret = S and
``t`` holds exactly A" is ``f_secret(S) f_t(A) G(U minus S minus A)``. Summing that
joint over ``t``'s hands that contain a card (one matrix product) or both named cards
(a second product over all face/number pairs) gives, for every question at once, the
joint law of (pair, outcome). Early in a game most unknown cards are named by no fact; they
are interchangeable for the seats, so there (at least :data:`RANKED_FREE_FOR_ADVICE` of them) the same
sums are counted over the named cards only, the free cards by how many a hand holds
(:func:`_ranked_sums`, on :class:`~qardlab.deduction.solve.RankedCount`): the same exact
integers from arrays of 2^(named) instead of 2^(unknown) entries.

ask_mode "pass_left" (the question goes on leftwards after "neither" until a seat shows a
card or it is back with the asker): what the asker sees is who showed which card, or that
nobody did, so the law needs where *both* named cards are among the seats the question
passes. For the seat ``s_j`` it reaches ``j``-th, the asker sees ``s_j`` show the face when
``s_j`` holds it and the number is neither at ``s_j`` nor at the seats before (1/2 of it
when ``s_j`` holds both). "Face at ``s_j`` and number at one of the seats before" is the one
joint of two holders the single-target product does not give: it is counted by marking the
number in the earlier seats' zeta transforms (the zeta of hands containing card ``c`` is
``Z(T) - Z(T - c)`` on masks with ``c``), one Moebius transform per marked card, read at
the same (secret, ``s_j``'s hand) pairs. Exact, like the rest; the default targets there
are the one seat the rules allow (the asker's left neighbour).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import cache
from typing import Any, Iterable

import numpy as np

from ..cards import Card
from .facts import KnowledgeLike as Knowledge
from .facts import SecretSpec
from .solve import (
    RANKED_MIN_BITS,
    Inconsistent,
    MaskSolver,
    Model,
    RankedCount,
    exact_solver,
    moebius,
    ranked_count,
    secret_hands,
    solver_for,
)

__all__ = [
    "Question",
    "questions",
    "best_question",
    "best_questions",
    "question",
    "single_thread",
    "target_joint",
    "two_groups",
    "ask_mode",
]

#: ask mode "chosen" counts over the named cards only (:func:`_ranked_sums`) where at least this many
#: unknown cards are named by no fact, and there are at least :data:`~qardlab.deduction.solve.RANKED_MIN_BITS`
#: unknown cards. Not the posterior's threshold (:data:`~qardlab.deduction.solve.RANKED_FREE_FOR_POSTERIOR`):
#: the advisor's ranked sums are another computation (a column per named card and per named pair, from sums
#: with one or two given free cards), with its own crossover against the full mask solver
RANKED_FREE_FOR_ADVICE = 7

#: threadpoolctl's controller, made at the first :func:`single_thread` (not at import: it inspects
#: the loaded libraries, ~20-40 ms, which a lesson's first posterior() need not wait for)
_CONTROLLER: Any = None


def single_thread():
    """A context manager limiting BLAS to one thread (a no-op without threadpoolctl): threaded
    BLAS is slower and noisy in the advisor's hot products."""
    global _CONTROLLER
    if _CONTROLLER is None:
        try:
            from threadpoolctl import ThreadpoolController

            _CONTROLLER = ThreadpoolController()
        except Exception:  # pragma: no cover - threadpoolctl is optional
            _CONTROLLER = False
    if _CONTROLLER is False:  # pragma: no cover
        import contextlib

        return contextlib.nullcontext()
    return _CONTROLLER.limit(limits=1, user_api="blas")


@dataclass(frozen=True)
class Question:
    """One question the seat may ask, with its exact expected information (bits)."""

    target: int
    face: Card
    number: Card
    info: float
    #: probability of each outcome the asker may see: the face, the number, or None ("neither")
    outcomes: dict = field(default_factory=dict, compare=False, hash=False)
    #: ask_mode "pass_left": probability of each answer, ``(seat, card)`` shown or None (nobody)
    answers: dict = field(default_factory=dict, compare=False, hash=False)

    def __repr__(self) -> str:
        return f"Question({self.target}, {self.face.code!r}, {self.number.code!r}, info={self.info:.4f})"


def _xlogx(x: np.ndarray) -> np.ndarray:
    """``x log2 x``, 0 where ``x`` is 0 (no masked copies: log2 of 1 there)."""
    return x * np.log2(np.where(x > 0, x, 1.0))


def two_groups(k: Knowledge) -> tuple[SecretSpec, tuple[Card, ...], tuple[Card, ...]]:
    """The knowledge's secret and its two groups; a clear error for a secret the advisor cannot ask about."""
    spec = k.secret
    if spec is None:
        raise ValueError(f"the advisor needs a secret; this knowledge ({k.game or 'game'}) has none")
    if len(spec.groups) != 2 or spec.picks != (1, 1):
        raise ValueError(
            f"the advisor handles a secret of two groups of one card each, not groups of sizes "
            f"{[len(g) for g in spec.groups]} with picks {spec.picks}"
        )
    return spec, spec.groups[0], spec.groups[1]


def ask_mode(k: Knowledge) -> str:
    """How questions travel: the secret's QuestionModel, else the adapter's ``extra["ask_mode"]``."""
    spec = k.secret
    if spec is not None and spec.questions is not None:
        return spec.questions.mode
    return str(k.extra.get("ask_mode", "chosen"))


def target_joint(
    s: MaskSolver, t: int, cols: list[Card], rest: np.ndarray | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """The weights the advisor works from for a question put to seat ``t``.

    ``joint[i, j]``: weight of the deals in which the secret holds its ``i``-th feasible hand
    (``s.sets[secret][0][i]``) and ``t`` its ``j``-th (``s.sets[t][0][j]``); ``mem[j, c]``: 1 if
    that hand of ``t`` holds ``cols[c]``. Summing ``joint @ mem`` gives (secret hand, t holds c).
    ``rest``: ``s.rest((t, secret))`` if the caller has it already.
    """
    model = s.model
    secret = model.secret.holder
    ms, ws = s.sets[secret]
    mt, wt = s.sets[t]
    g = s.rest((t, secret)) if rest is None else rest
    # joint weight of (secret set i, target set j), zero when they overlap
    overlap = (ms[:, None] & mt[None, :]) != 0
    idx = s.full ^ (ms[:, None] | mt[None, :])
    joint = ws[:, None] * wt[None, :] * g[idx]
    joint[overlap] = 0.0
    # membership of each named card in t's hand, per target set
    known_t = model.known[t]
    mem = np.zeros((len(mt), len(cols)), dtype=np.float64)
    for c_i, c in enumerate(cols):
        if c in known_t:
            mem[:, c_i] = 1.0
        elif c in model.bit:
            mem[:, c_i] = (mt >> model.bit[c]) & 1
    return joint, mem


def _setup(k: Knowledge, targets: Iterable[int] | None) -> tuple:
    """What both :func:`questions` and :func:`best_question` start from: the groups, the targets (checked),
    the ask mode and the model (an error for facts the advisor cannot work from or that admit no deal)."""
    spec, faces, numbers = two_groups(k)
    seats = [h for h in k.holders if isinstance(h, int)]
    pass_left = ask_mode(k) == "pass_left"
    if targets is None:
        targets = [(k.seat + 1) % len(seats)] if pass_left else [h for h in seats if h != k.seat]
    targets = list(targets)
    for t in targets:
        if t not in seats or t == k.seat:
            raise ValueError(f"target {t!r} is not another seat (seats {seats}, asker {k.seat})")
    model = k.model()
    if model.per_card:
        raise ValueError("the advisor needs the secret's rules ('exactly' facts) among the facts")
    if len(secret_hands(model)[0]) == 0:
        raise Inconsistent("no deal agrees with these facts")
    return faces, numbers, seats, targets, pass_left, model


def _chosen_joint(
    s: MaskSolver, t: int, cols: list[Card], nf: int, rest: np.ndarray | None = None
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """:func:`target_joint`'s joint for ask mode "chosen", with the membership as rows: ``(joint,
    memt, botht)``, ``memt[c, j]`` = ``mem[j, c]`` and ``botht[f * nn + n, j]``: hand ``j`` holds face
    ``f`` and number ``n``. ``rest``: ``s.rest((t, secret))`` if the caller has it already.

    On the exact solver (int64 weights, see :func:`~qardlab.deduction.solve.exact_solver`) a secret
    hand and a target hand that overlap need no mask: the rest's weight at a mask larger than the
    rest's cards is an exact 0. The weights are exact integers, the float ones times a power of two
    (each "shown" fact's 1/2 scaled by 2), so the normalized joint is the float solver's (bit for bit
    while the float weights are exact, below 2^53).
    """
    model = s.model
    secret = model.secret.holder
    ms, ws = s.sets[secret]
    mt, wt = s.sets[t]
    g = s.rest((t, secret)) if rest is None else rest
    if s.exact:
        # S and A disjoint: full ^ S ^ A is the rest's mask; overlapping, a mask too large (weight 0)
        joint = np.multiply.outer(ws, wt)
        joint *= g[(s.full ^ ms)[:, None] ^ mt[None, :]]
        joint = joint.astype(np.float64)
    else:
        overlap = (ms[:, None] & mt[None, :]) != 0
        joint = ws[:, None] * wt[None, :] * g[s.full ^ (ms[:, None] | mt[None, :])]
        joint[overlap] = 0.0
    known_t = model.known[t]
    memt = np.zeros((len(cols), len(mt)), dtype=np.float64)
    for c_i, c in enumerate(cols):
        if c in known_t:
            memt[c_i] = 1.0
        elif c in model.bit:
            memt[c_i] = (mt >> model.bit[c]) & 1
    # the pairs t may hold both of (each card unknown or known at t): a card known elsewhere gives zeros
    live = [c_i for c_i, c in enumerate(cols) if c in known_t or c in model.bit]
    lf = np.array([c_i for c_i in live if c_i < nf], dtype=np.intp)
    ln = np.array([c_i for c_i in live if c_i >= nf], dtype=np.intp)
    botht = (memt[lf, None, :] * memt[None, ln, :]).reshape(len(lf) * len(ln), len(mt))
    return joint, memt, (botht, lf, ln - nf)


@cache
def _pascal(n: int) -> np.ndarray:
    """``C(i, j)`` for ``0 <= i, j <= n`` (int64, read-only)."""
    out = np.array([[math.comb(i, j) for j in range(n + 1)] for i in range(n + 1)], dtype=np.int64)
    out.setflags(write=False)
    return out


def _choose(n: np.ndarray, k: np.ndarray) -> np.ndarray:
    """``C(n, k)`` elementwise (int64 arrays that broadcast), 0 unless ``0 <= k <= n``."""
    top = max(int(n.max()), int(k.max()), 0)
    table = _pascal(top)
    return np.where((k >= 0) & (k <= n), table[np.clip(n, 0, top), np.clip(k, 0, top)], 0)


def _secret_kinds(rc: RankedCount, ms: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The secret's hands (``ms``, masks of every unknown card) by kind, for :func:`_ranked_sums`: ``(kind,
    k_hb, k_u)``, ``kind[i]`` the kind of hand ``i``, a kind's named part (mask of the named cards) and the
    free cards it leaves to the seats. Hands of a kind weigh alike with each hand of a seat."""
    to_b = [1 << rc.bit[c] if c in rc.bit else 0 for c in rc.model.unknown]
    kinds: dict[tuple[int, int], int] = {}
    kind = np.empty(len(ms), dtype=np.intp)
    for i, m in enumerate(ms.tolist()):
        hb, free = 0, 0
        while m:  # the hand's set bits only (a secret hand has a bit or two)
            low = to_b[(m & -m).bit_length() - 1]
            hb |= low
            free += not low
            m &= m - 1
        kind[i] = kinds.setdefault((hb, free), len(kinds))
    u = rc.model.n - rc.b
    k_hb = np.array([hb for hb, _f in kinds], dtype=np.int64)
    k_u = np.array([u - f for _hb, f in kinds], dtype=np.int64)
    return kind, k_hb, k_u


def _ranked_sums(
    rc: RankedCount,
    t: int,
    ms: np.ndarray,
    ws: np.ndarray,
    kinds: tuple,
    cols: list[Card],
    nf: int,
    g: np.ndarray,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, int]:
    """What :func:`_chosen` needs for target ``t``, counted over the named cards only: ``(pp, x, y, total)``,
    exact integers (int64), ``pp[S]`` the weight of secret hand ``S`` (``ms[i]``, weight ``ws[i]``), ``x[S,
    c]`` of (S, ``t`` holds ``cols[c]``), ``y[S, F, N]`` of (S, ``t`` holds face F and number N), and their
    total. ``kinds``: :func:`_secret_kinds`; ``g``: ``rc.rest((t,))``.

    A hand of ``t`` is a named part ``A`` and ``a = r - |A|`` of the ``u'`` free cards the secret hand
    leaves; the free cards are alike, so with the (S, A) weight ``w_S w_A C(u', a) g(B - S - A)``, the hands
    holding one given free card weigh ``w_S w_A C(u' - 1, a - 1) g(...)`` and those holding two ``C(u' - 2,
    a - 2)``. Three sums over ``t``'s named parts (``j`` = 0, 1, 2 given free cards) per kind of secret
    hand, with or without each named card or named (face, number) pair, give every column.
    """
    model = rc.model
    kind, k_hb, k_u = kinds
    r = model.rem[t]
    parts = [rc.hands(t, d) for d in range(min(r, rc.b) + 1)]
    hands = np.concatenate([p[0] for p in parts])
    free = np.concatenate([np.full(len(p[0]), r - d, dtype=np.int64) for d, p in enumerate(parts)])
    base = np.concatenate([p[1] for p in parts])[None, :] * g[(rc.full ^ k_hb)[:, None] ^ hands[None, :]]
    base[(k_hb[:, None] & hands[None, :]) != 0] = 0  # a named card in both hands
    # weights[j][kind, A]: with j given free cards among t's
    weights = [base * _choose(k_u[:, None] - j, free[None, :] - j) for j in range(3)]
    # the columns summed: none, each named card of cols, each named face with each named number
    named = [ci for ci, c in enumerate(cols) if c in rc.bit]
    pos = {ci: 1 + p for p, ci in enumerate(named)}
    named_f = [p for p, ci in enumerate(named) if ci < nf]
    named_n = [p for p, ci in enumerate(named) if ci >= nf]
    bits = np.array([rc.bit[cols[ci]] for ci in named], dtype=np.int64)
    mem = (hands[:, None] >> bits[None, :]) & 1
    both = (mem[:, named_f, None] * mem[:, None, named_n]).reshape(len(hands), -1)
    summed = np.concatenate([np.ones((len(hands), 1), dtype=np.int64), mem, both], axis=1)
    total = sum(x * w for x, w in zip(ws.tolist(), weights[0].sum(axis=1)[kind].tolist()))
    if total < 1 << 53:  # every partial sum is an integer below 2^53, so exact in float64 (and BLAS is fast)
        summed_f = summed.astype(np.float64)
        table = np.stack([w.astype(np.float64) @ summed_f for w in weights], axis=1).astype(np.int64)
    else:
        table = np.stack([w @ summed for w in weights], axis=1)  # (kind, j, column summed)
    # each column, and each (face, number) pair: how many given free cards, and which sum
    known_t = model.known[t]
    col_j = np.zeros(len(cols), dtype=np.intp)
    col_k = np.zeros(len(cols), dtype=np.intp)
    live = np.ones((len(ms), len(cols)), dtype=np.int64)
    for ci, c in enumerate(cols):
        if c in known_t:
            continue  # t holds it in every deal: no condition
        if c in rc.bit:
            col_k[ci] = pos[ci]
        elif c in model.bit:
            col_j[ci] = 1  # a free card: one given free card, unless S holds it
            live[:, ci] = 1 - ((ms >> model.bit[c]) & 1)
        else:
            live[:, ci] = 0  # known elsewhere
    fi, ni = np.arange(nf)[:, None], np.arange(nf, len(cols))[None, :]
    pair_k = np.where(col_k[fi] == 0, col_k[ni], np.where(col_k[ni] == 0, col_k[fi], 0))
    for i, pf in enumerate(named_f):
        for j, pn in enumerate(named_n):
            pair_k[named[pf], named[pn] - nf] = 1 + len(named) + i * len(named_n) + j
    rows = table[kind]  # (S, j, column summed)
    pp = ws * rows[:, 0, 0]
    x = ws[:, None] * rows[:, col_j, col_k] * live
    y = ws[:, None, None] * rows[:, col_j[fi] + col_j[ni], pair_k] * (live[:, :nf, None] * live[:, None, nf:])
    return pp, x, y, total


def _chosen(model: Model, targets: list[int], faces, numbers) -> Iterable[tuple]:
    """Ask mode "chosen", target by target: ``(t, info, o_face, o_num, o_none)``, arrays over (face,
    number) of the expected information and the outcomes' probabilities (see the module docstring).

    Where enough unknown cards are named by no fact (early in a game), the weights are counted over the
    named cards only (:func:`_ranked_sums`), else over every unknown card (:func:`_chosen_joint`), on the
    exact solver where there is one (the candidates' and posterior's transforms, cached)."""
    cols = list(faces) + list(numbers)
    nf, nn = len(faces), len(numbers)
    secret = model.secret.holder
    rc = ranked_count(model) if model.n >= RANKED_MIN_BITS else None
    if rc is not None and rc.b > model.n - RANKED_FREE_FOR_ADVICE:
        rc = None
    s = None
    if rc is None:
        s = exact_solver(model) or solver_for(model, weighted=True)
    # targets nothing is known of but their hand size (early in a game): two of the same size whose other
    # holders weigh the same (the same array, bit for bit) get the same numbers, computed once
    blanks: list[tuple[int, np.ndarray, tuple]] = []
    kinds = None
    with single_thread():
        for t in targets:
            blank = _blank(model, t)
            rest = None
            if blank:
                rest = rc.rest((t,)) if rc is not None else s.rest((t, secret))
                same = next(
                    (r for size, g, r in blanks if size == model.rem[t] and np.array_equal(g, rest)), None
                )
                if same is not None:
                    yield (t, *same)
                    continue
            if rc is not None:
                if kinds is None:
                    ms, ws = secret_hands(model)
                    kinds = _secret_kinds(rc, ms)
                pp_i, x_i, y_i, total = _ranked_sums(
                    rc, t, ms, ws, kinds, cols, nf, rc.rest((t,)) if rest is None else rest
                )
                if total <= 0:
                    raise Inconsistent("no deal agrees with these facts")
                pp, x, y = pp_i / total, x_i / total, y_i / total
            else:
                joint, memt, both = _chosen_joint(s, t, cols, nf, rest)
                total = joint.sum()
                if total <= 0:
                    raise Inconsistent("no deal agrees with these facts")
                joint /= total
                pp = joint.sum(axis=1)  # P(pair)
                x = joint @ np.ascontiguousarray(memt.T)  # P(pair, t holds card) (BLAS rounds by layout)
                y = np.zeros((len(pp), nf, nn))  # P(pair, t holds face and number)
                botht, lf, ln = both
                if len(botht):
                    y[:, lf[:, None], ln[None, :]] = (joint @ botht.T).reshape(len(pp), len(lf), len(ln))
            numbers_t = _information(pp, x, y, nf)
            if blank:
                blanks.append((model.rem[t], rest, numbers_t))
            yield (t, *numbers_t)


def _blank(model: Model, t: int) -> bool:
    """Whether nothing is known of seat ``t`` but its hand size (no fact names it, it has cards left)."""
    return model.contradiction is None and model.rem[t] > 0 and not model.by_holder[t]


def _information(pp: np.ndarray, x: np.ndarray, y: np.ndarray, nf: int) -> tuple:
    """``(info, o_face, o_num, o_none)`` over (face, number) from the normalized ``pp[S]`` = P(pair S),
    ``x[S, c]`` = P(S, the target holds card c) and ``y[S, F, N]`` = P(S, it holds both F and N)."""
    xf = x[:, :nf, None]
    xn = x[:, None, nf:]
    p_face = xf - y + 0.5 * y
    p_num = xn - y + 0.5 * y
    p_none = pp[:, None, None] - xf - xn + y
    # clip rounding noise at the order of 1e-17
    p_face = np.maximum(p_face, 0.0)
    p_num = np.maximum(p_num, 0.0)
    p_none = np.maximum(p_none, 0.0)
    o_face, o_num, o_none = p_face.sum(0), p_num.sum(0), p_none.sum(0)
    h_out = -(_xlogx(o_face) + _xlogx(o_num) + _xlogx(o_none))
    # H(outcome | pair) = sum_p [P(p) log P(p)] - sum_{p,o} P(p,o) log P(p,o)
    h_cond = _xlogx(pp).sum() - (_xlogx(p_face) + _xlogx(p_num) + _xlogx(p_none)).sum(0)
    info = np.maximum(h_out - h_cond, 0.0)
    return info, o_face, o_num, o_none


def _rank(q: Question, order: dict) -> tuple:
    """The advisor's order: most information first (to 12 decimals), then target, face, number."""
    return (-round(q.info, 12), q.target, order[q.face], order[q.number])


def questions(k: Knowledge, targets: Iterable[int] | None = None) -> list[Question]:
    """Every question this seat may ask, best first (ties: target, face, number order).

    ``targets`` defaults to every other seat (eliminated seats still answer).
    """
    faces, numbers, seats, targets, pass_left, model = _setup(k, targets)
    order = {c: i for i, c in enumerate(list(faces) + list(numbers))}
    out: list[Question] = []
    if pass_left:
        s = solver_for(model, weighted=True)  # its marked transforms stay on the float solver
        with single_thread():
            for t in targets:
                out.extend(_pass_left(k, s, t, seats, faces, numbers))
    else:
        for t, info, o_face, o_num, o_none in _chosen(model, targets, faces, numbers):
            for i, f in enumerate(faces):
                for j, nb in enumerate(numbers):
                    out.append(
                        Question(
                            t,
                            f,
                            nb,
                            float(info[i, j]),
                            {f: float(o_face[i, j]), nb: float(o_num[i, j]), None: float(o_none[i, j])},
                        )
                    )
    out.sort(key=lambda q: _rank(q, order))
    return out


def _both_held(joint: np.ndarray, mem: np.ndarray, nf: int, nn: int) -> np.ndarray:
    """``d[S, F, N] = sum over hands A holding F and N of joint[S, A]``.

    A hand holds a few of the cards, so the (hand, pair) incidence is sparse: it is built
    from each hand's faces and numbers, and the columns of ``joint`` are summed per pair
    (sorted, ``np.add.reduceat``) instead of a dense product with the 120 pair columns;
    dense when many cards are known at the seat."""
    fh, ff = np.nonzero(mem[:, :nf])  # (hand, face), sorted by hand
    nh, nc = np.nonzero(mem[:, nf:])  # (hand, number)
    cn = np.bincount(nh, minlength=len(mem))
    start_n = np.concatenate(([0], np.cumsum(cn)[:-1]))
    rep = cn[fh]
    total = int(rep.sum())
    if total * 4 > len(mem) * nf * nn:
        both = (mem[:, :nf, None] * mem[:, None, nf:]).reshape(len(mem), nf * nn)
        return (joint @ both).reshape(len(joint), nf, nn)
    out = np.zeros((len(joint), nf * nn))
    if total:
        hands = np.repeat(fh, rep)
        within = np.arange(total) - np.repeat(np.cumsum(rep) - rep, rep)
        pairs = np.repeat(ff, rep) * nn + nc[np.repeat(start_n[fh], rep) + within]
        order = np.argsort(pairs, kind="stable")
        hands, pairs = hands[order], pairs[order]
        starts = np.flatnonzero(np.r_[True, pairs[1:] != pairs[:-1]])
        out[:, pairs[starts]] = np.add.reduceat(joint[:, hands], starts, axis=1)
    return out.reshape(len(joint), nf, nn)


def _pass_order(asker: int, start: int, players: int) -> list[int]:
    """The seats a question put to ``start`` reaches in pass_left mode, in order."""
    order, s = [], start
    while s != asker:
        order.append(s)
        s = (s + 1) % players
    return order


def _group_zeta(s: MaskSolver, group) -> np.ndarray:
    """Product of the zeta transforms of ``group``'s holders with room left (ones if none; do not modify)."""
    zetas = [s.zeta_of(g) for g in group if s.model.rem[g] > 0]
    if not zetas:
        return np.ones(1 << s.n, dtype=s.dtype)
    if len(zetas) == 1:
        return zetas[0]  # (read-only, and only read)
    prod = zetas[0] * zetas[1]
    for z in zetas[2:]:
        np.multiply(prod, z, out=prod)
    return prod


def _in_group(
    s: MaskSolver,
    base: np.ndarray,
    idx: np.ndarray,
    mem: np.ndarray,
    seat: int,
    group: list,
    rest: list,
    cols: list[Card],
    nf: int,
    a: np.ndarray,
    ms: np.ndarray,
) -> np.ndarray:
    """``out[S, X, c]``: weight of (secret S, ``seat`` holds card X, card c is in ``group``).

    ``base[S, A]`` is the weight of (secret S, ``seat``'s hand A) without the other holders,
    ``idx`` the mask of the cards left to them, ``mem[A, X]`` whether A holds X, ``a[S, X]``
    the weight of (S, ``seat`` holds X). A card whose holder is known is in ``group`` or not;
    an unknown card c is marked in the group's zeta (hands containing c), then one Moebius.
    """
    model = s.model
    ncols = len(cols)
    out = np.zeros((len(ms), ncols, ncols))
    gset = set(group)
    faces = list(range(nf))  # the first group's columns, then the second's
    numbers = list(range(nf, len(cols)))
    reps = _twins(model, cols, nf, ms)
    scale = 1.0
    for g in model.holders:
        if g not in (seat, model.secret.holder) and model.rem[g] == 0:
            scale *= float(s._scalar(g))
    zg = zr = None
    for ci, c in enumerate(cols):
        w = model.where.get(c)
        if w is not None:
            if w in gset:
                out[:, :, ci] = a
            continue
        i = model.bit[c]
        if not any(model.rem[g] > 0 for g in group):
            continue
        if ci in reps:  # interchangeable with an earlier card: the same numbers, permuted
            cj, perm_s, perm_x = reps[ci]
            out[:, :, ci] = out[perm_s, :, cj][:, perm_x]
            continue
        if zg is None:
            zg, zr = _group_zeta(s, group), _group_zeta(s, rest)
        # the zeta of the group's hands that contain c, Z(T) - Z(T - c), is 0 on the masks without c, and
        # so is the Moebius transform of its product with the rest's: it runs on the masks with c only,
        # over the other bits (half the work; the same subtractions in the same order, so the same floats)
        zg_v, zr_v = zg.reshape(-1, 2, 1 << i), zr.reshape(-1, 2, 1 << i)
        d = np.subtract(zg_v[:, 1, :], zg_v[:, 0, :], dtype=np.float64)
        d *= zr_v[:, 1, :]
        moebius(d.reshape(-1), s.n - 1)
        full = np.zeros(1 << s.n)
        full.reshape(-1, 2, 1 << i)[:, 1, :] = d  # back among every mask (0 without c)
        k_c = base * full[idx]
        sel = numbers if ci < nf else faces  # only face-and-number questions are asked
        out[:, sel, ci] = (k_c @ mem[:, sel]) * scale
    return out


def _twins(model, cols: list[Card], nf: int, ms: np.ndarray) -> dict[int, tuple[int, np.ndarray, np.ndarray]]:
    """Unknown cards no fact tells apart (each fact names both or neither): for each but the
    first of such a class, (the first's column, the secret-hand and column permutations that
    swap the two). Swapping them maps every fact to itself, so the law is symmetric in them:
    a marked count for one gives the other's by permuting (secret, card) indices."""
    sig: dict[tuple, list[int]] = {}
    for ci, c in enumerate(cols):
        if c in model.bit:
            key = (ci < nf, tuple(fi for fi, f in enumerate(model.facts) if c in f.cards))
            sig.setdefault(key, []).append(ci)
    out = {}
    for members in sig.values():
        first = members[0]
        b0 = model.bit[cols[first]]
        for ci in members[1:]:
            b1 = model.bit[cols[ci]]
            x = ((ms >> b0) ^ (ms >> b1)) & 1
            swapped = ms ^ ((x << b0) | (x << b1))
            perm_s = np.searchsorted(ms, swapped)
            if not np.array_equal(ms[np.minimum(perm_s, len(ms) - 1)], swapped):
                continue  # pragma: no cover - the secret's hands are symmetric too
            perm_x = np.arange(len(cols))
            perm_x[first], perm_x[ci] = ci, first
            out[ci] = (first, perm_s, perm_x)
    return out


def _pass_left(k: Knowledge, s: MaskSolver, start: int, seats: list[int], faces, numbers) -> list[Question]:
    """Every (face, number) question put to ``start`` in pass_left mode, exactly (module doc)."""
    model = s.model
    cols = list(faces) + list(numbers)
    nf, nn = len(faces), len(numbers)
    order = _pass_order(k.seat, start, len(seats))
    secret = model.secret.holder
    ms, ws = s.sets[secret]
    secret_has = np.zeros((len(ms), len(cols)))
    for ci, c in enumerate(cols):
        if model.where.get(c) == secret:
            secret_has[:, ci] = 1.0
        elif c in model.bit:
            secret_has[:, ci] = (ms >> model.bit[c]) & 1
    total = pp = None
    shows_f, shows_n = [], []
    # one seat at a time (its arrays are dropped before the next: memory stays that of one seat)
    # seats nothing is known of (early in a game): two of the same size whose other holders weigh the same
    # (the same array, bit for bit) have the same joint with the secret, so the same a and d
    blanks: list[tuple[int, np.ndarray, tuple]] = []
    for j, t in enumerate(order):
        blank = _blank(model, t)
        rest = s.rest((t, secret))
        same = next(
            (r for size, g, r in blanks if blank and size == model.rem[t] and np.array_equal(g, rest)), None
        )
        if same is not None:
            mem, a, d = same
        else:
            joint, mem = target_joint(s, t, cols, rest)  # weights of (secret, t's hand)
            if total is None:
                pp = joint.sum(axis=1)
                total = pp.sum()
                if total <= 0:
                    raise Inconsistent("no deal agrees with these facts")
            a = joint @ mem  # (S, X): t holds X
            d = _both_held(joint, mem, nf, nn)  # (S, face, number) both at t
            del joint
            if blank:
                blanks.append((model.rem[t], rest, (mem, a, d)))
        del rest
        before = order[:j]
        after = [g for g in seats if g != t and g not in before]  # later, unreached, the asker
        if not before:
            earlier = np.zeros((len(ms), len(cols), len(cols)))
        elif not any(model.rem[g] > 0 for g in after):
            # the number is at t, before t, in the secret or with a seat whose cards are known
            nc = len(cols)
            at_t = np.zeros((len(ms), nc, nc))  # both at t: only face-and-number pairs are asked
            at_t[:, :nf, nf:] = d
            at_t[:, nf:, :nf] = d.transpose(0, 2, 1)
            earlier = a[:, :, None] - at_t - a[:, :, None] * secret_has[:, None, :]
            for ci, c in enumerate(cols):
                w = model.where.get(c)
                if w is not None and w in after:
                    earlier[:, :, ci] -= a
        else:
            mt = s.sets[t][0]
            idx = s.full ^ (ms[:, None] | mt[None, :])
            base = ws[:, None] * s.sets[t][1][None, :].astype(np.float64)
            base[(ms[:, None] & mt[None, :]) != 0] = 0.0
            earlier = _in_group(s, base, idx, mem, t, before, after, cols, nf, a, ms)
            del idx, base
        fa = a[:, :nf, None]  # (S, F, 1): face at t
        na = a[:, None, nf:]  # (S, 1, N)
        e_fn = earlier[:, :nf, nf:]  # face at t, number before
        e_nf = earlier[:, nf:, :nf].transpose(0, 2, 1)  # number at t, face before -> (S, F, N)
        shows_f.append(np.maximum(fa - d - e_fn + 0.5 * d, 0.0) / total)
        shows_n.append(np.maximum(na - d - e_nf + 0.5 * d, 0.0) / total)
    pp = pp / total
    none = np.maximum(pp[:, None, None] - sum(shows_f) - sum(shows_n), 0.0)
    outcomes = shows_f + shows_n + [none]
    sums = [o.sum(axis=0) for o in outcomes]
    h_out = np.zeros((nf, nn))
    h_joint = np.zeros((nf, nn))
    for o, o_sum in zip(outcomes, sums):
        h_out -= _xlogx(o_sum)
        h_joint -= _xlogx(o).sum(axis=0)
    info = np.maximum(h_out - (h_joint + _xlogx(pp).sum()), 0.0).tolist()
    sums = [x.tolist() for x in sums]  # Python floats: read 120 questions x every answer
    m = len(order)
    out = []
    for i, f in enumerate(faces):
        for j, nb in enumerate(numbers):
            answers = {}
            for r, t in enumerate(order):
                answers[(t, f)] = sums[r][i][j]
                answers[(t, nb)] = sums[m + r][i][j]
            answers[None] = sums[-1][i][j]
            agg = {
                f: sum(sums[r][i][j] for r in range(m)),
                nb: sum(sums[m + r][i][j] for r in range(m)),
                None: answers[None],
            }
            out.append(Question(start, f, nb, info[i][j], agg, answers))
    return out


def best_question(k: Knowledge, targets: Iterable[int] | None = None) -> Question:
    """The question with the most expected information: the first of :func:`questions`, the same numbers,
    without making (and sorting) a Question for every one of the hundreds a seat may ask."""
    if ask_mode(k) == "pass_left":  # (each question's own walk along the pass: no shortcut)
        return questions(k, targets)[0]
    faces, numbers, _seats, targets, _pass_left, model = _setup(k, targets)
    nf = len(faces)
    best: tuple | None = None
    top = -1.0  # the most information seen so far: a question far below it cannot be first
    for t, info, o_face, o_num, o_none in _chosen(model, targets, faces, numbers):
        top = max(top, float(info.max()))
        # _rank's key rounds to 12 decimals: only values within 1e-11 of the top can tie with it
        for i, j in zip(*np.nonzero(info >= top - 1e-11)):
            i, j = int(i), int(j)
            v = float(info[i, j])
            key = (-round(v, 12), t, i, nf + j)  # _rank's key: faces, then numbers, in deck order
            if best is None or key < best[0]:
                best = (key, t, i, j, v, float(o_face[i, j]), float(o_num[i, j]), float(o_none[i, j]))
    if best is None:
        raise ValueError("no target to ask")
    _key, t, i, j, v, pf, pn, p0 = best
    f, nb = faces[i], numbers[j]
    return Question(t, f, nb, v, {f: pf, nb: pn, None: p0})


def best_questions(
    k: Knowledge, targets: Iterable[int] | None = None, within: float = 1e-12
) -> list[Question]:
    """The questions whose information is within ``within`` bits of the best one's, in :func:`questions`'
    order: ``[q for q in qs if q.info >= qs[0].info - within]`` for ``qs = questions(k, targets)``, the
    same numbers, making a Question only for those (a bot choosing among the best asks at every turn)."""
    if ask_mode(k) == "pass_left":
        qs = questions(k, targets)
        return [q for q in qs if q.info >= qs[0].info - within]
    faces, numbers, _seats, targets, _pass_left, model = _setup(k, targets)
    nf = len(faces)
    rows = []
    for t, info, o_face, o_num, o_none in _chosen(model, targets, faces, numbers):
        values = info.tolist()
        rows.append((t, values, o_face, o_num, o_none))
    if not rows:
        raise ValueError("no target to ask")
    # the first of questions(): the least _rank key (faces, then numbers, in deck order)
    best = min(
        (-round(v, 12), t, i, nf + j, v)
        for t, values, *_ in rows
        for i, row in enumerate(values)
        for j, v in enumerate(row)
    )[-1]
    top = sorted(
        (-round(v, 12), t, i, nf + j, r)
        for r, (t, values, *_) in enumerate(rows)
        for i, row in enumerate(values)
        for j, v in enumerate(row)
        if v >= best - within
    )
    out = []
    for _key, t, i, jj, r in top:
        _t, values, o_face, o_num, o_none = rows[r]
        j = jj - nf
        f, nb = faces[i], numbers[j]
        out.append(
            Question(
                t,
                f,
                nb,
                values[i][j],
                {f: float(o_face[i, j]), nb: float(o_num[i, j]), None: float(o_none[i, j])},
            )
        )
    return out


def question(k: Knowledge, target: int, face: Any, number: Any) -> Question:
    """The one question (``target``, ``face``, ``number``): the entry of ``questions(k, [target])``, the same
    numbers, without making the others (ask mode "chosen"; pass_left walks its list)."""
    face, number = Card.parse(face), Card.parse(number)
    if ask_mode(k) == "pass_left":
        return next(q for q in questions(k, [target]) if (q.face, q.number) == (face, number))
    faces, numbers, _seats, targets, _pass_left, model = _setup(k, [target])
    if face not in faces or number not in numbers:
        raise ValueError(
            f"a question names a {k.secret.kinds[0]} and a {k.secret.kinds[1]}, not {face} and {number}"
        )
    i, j = list(faces).index(face), list(numbers).index(number)
    for t, info, o_face, o_num, o_none in _chosen(model, targets, faces, numbers):
        return Question(
            t,
            face,
            number,
            float(info[i, j]),
            {face: float(o_face[i, j]), number: float(o_num[i, j]), None: float(o_none[i, j])},
        )
    raise ValueError("no target to ask")  # pragma: no cover - _setup checked the target
