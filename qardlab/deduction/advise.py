"""The question advisor: how much each possible question would tell the asker, exactly.

For the seat to ask, every question (target seat, face card, number card) gets its
expected information about the secret pair: the mutual information, in bits, between
the pair and what this seat would see, namely the card shown (face or number) or
"neither". The answer's distribution follows RULES.md's model: a uniformly random deal
among those consistent with what the seat knows (weighted as in the posterior), and an
answerer holding both named cards shows either with probability 1/2.

Method, per target ``t``: with ``G`` the Moebius transform of the product of the zeta
transforms of the seats other than ``t`` (see solve.py), the weight of "secret = S and
``t`` holds exactly A" is ``f_secret(S) f_t(A) G(U minus S minus A)``. Summing that
joint over ``t``'s hands that contain a card (one matrix product) or both named cards
(a second product over all face/number pairs) gives, for every question at once, the
joint law of (pair, outcome).

ask_mode "pass_left" (the question goes on leftwards after "neither") is modelled by its
first answer only, so the figure there is a lower bound of the information.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterable

import numpy as np

from ..cards import Card
from .knowledge import SECRET, Knowledge
from .solve import Inconsistent, MaskSolver, secret_groups, solver_for

__all__ = ["Question", "questions", "best_question", "single_thread"]

try:  # keep BLAS to one thread in the hot products (threaded BLAS is slower and noisy here)
    from threadpoolctl import ThreadpoolController

    _CONTROLLER: Any = ThreadpoolController()
except Exception:  # pragma: no cover - threadpoolctl is optional
    _CONTROLLER = None


def single_thread():
    """A context manager limiting BLAS to one thread (a no-op without threadpoolctl)."""
    if _CONTROLLER is None:  # pragma: no cover
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

    def __repr__(self) -> str:
        return f"Question({self.target}, {self.face.code!r}, {self.number.code!r}, info={self.info:.4f})"


def _xlogx(x: np.ndarray) -> np.ndarray:
    out = np.zeros_like(x)
    pos = x > 0
    out[pos] = x[pos] * np.log2(x[pos])
    return out


def _target_joint(s: MaskSolver, t: int, cols: list[Card]):
    """Weights: pair rows x (per card: t holds it) and x (per face, number: t holds both)."""
    model = s.model
    ms, ws = s.sets[SECRET]
    mt, wt = s.sets[t]
    g = s.rest((t, SECRET))
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


def questions(k: Knowledge, targets: Iterable[int] | None = None) -> list[Question]:
    """Every question this seat may ask, best first (ties: target, face, number order).

    ``targets`` defaults to every other seat (eliminated seats still answer).
    """
    faces, numbers = secret_groups(k)
    seats = [h for h in k.holders if isinstance(h, int)]
    if targets is None:
        targets = [h for h in seats if h != k.seat]
    targets = list(targets)
    for t in targets:
        if t not in seats or t == k.seat:
            raise ValueError(f"target {t!r} is not another seat (seats {seats}, asker {k.seat})")
    model = k.model()
    s = solver_for(model, weighted=True)
    if not isinstance(s, MaskSolver):
        raise ValueError("the advisor needs Five Sons knowledge (a secret pair)")
    ms, ws = s.sets[SECRET]
    if len(ms) == 0:
        raise Inconsistent("no deal agrees with these facts")
    cols = list(faces) + list(numbers)
    nf, nn = len(faces), len(numbers)
    out: list[Question] = []
    with single_thread():
        for t in targets:
            joint, mem = _target_joint(s, t, cols)
            total = joint.sum()
            if total <= 0:
                raise Inconsistent("no deal agrees with these facts")
            joint /= total
            pp = joint.sum(axis=1)                       # P(pair)
            x = joint @ mem                               # P(pair, t holds card)
            both = (mem[:, :nf, None] * mem[:, None, nf:]).reshape(len(mem), nf * nn)
            y = (joint @ both).reshape(len(pp), nf, nn)   # P(pair, t holds face and number)
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
            h_cond = (_xlogx(pp).sum() - (_xlogx(p_face) + _xlogx(p_num) + _xlogx(p_none)).sum(0))
            info = np.maximum(h_out - h_cond, 0.0)
            for i, f in enumerate(faces):
                for j, nb in enumerate(numbers):
                    out.append(Question(t, f, nb, float(info[i, j]), {
                        f: float(o_face[i, j]), nb: float(o_num[i, j]), None: float(o_none[i, j])}))
    order = {c: i for i, c in enumerate(cols)}
    out.sort(key=lambda q: (-round(q.info, 12), q.target, order[q.face], order[q.number]))
    return out


def best_question(k: Knowledge, targets: Iterable[int] | None = None) -> Question:
    """The question with the most expected information (first in :func:`questions`)."""
    return questions(k, targets)[0]
