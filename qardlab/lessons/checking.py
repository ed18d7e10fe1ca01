"""What the build-it checkers (lessons 06-08) share: running a student's function safely, naming the mistake
its answers match, and choosing by search the positions a checker runs on.

A build-it checker compares the student's function with a reference on a lesson's own positions. Which
positions? Not chosen by hand: :func:`distinguishing` takes the lesson's generator's positions and the
*mutations* of the reference (each a plausible wrong student function, with a name and a hint) and picks a
small set of positions on which every mutation gives a different answer from the reference (a greedy set
cover). A function wrong the way any mutation is wrong is then refused, and named: :func:`name_mistake` finds
the mutation whose answers are the student's. The chosen positions are stored in each lesson's module, and the
test suite checks that they still tell every mutation apart (``tests/lessons/test_build_*.py``).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from .exercises import Exercise, Reply, _shown

__all__ = [
    "Mutation",
    "run",
    "not_a_function",
    "name_mistake",
    "mutation_fn",
    "distinguishing",
    "mine_or_reference",
    "function_check",
]

P = TypeVar("P")


@dataclass(frozen=True)
class Mutation(Generic[P]):
    """A plausible wrong student function: ``fn`` with the reference's signature, its ``name`` (what a checker
    says it recognised) and ``hint`` (the step missed: where to look, never the answer)."""

    name: str
    fn: Callable[..., Any]
    hint: str


def run(fn: Callable[..., Any], *args: Any) -> tuple[Any, str | None]:
    """Call a student's function; an exception becomes a message, not a crash of the lesson."""
    try:
        return fn(*args), None
    except Exception as e:  # noqa: BLE001 - any error in a student's code is reported, not raised
        return None, f"{type(e).__name__}: {e}"


def not_a_function(fn: Any) -> Reply | None:
    """The reply while the answer is not yet a function: empty for None, unreadable for anything else."""
    if fn is None or fn is ...:
        return Reply(
            "empty",
            (
                "Write your answer first: write your function, then set the answer to it "
                "(answer = your_function, its name without brackets) and run this cell.",
            ),
        )
    if not callable(fn):
        return Reply(
            "unreadable",
            (
                f"I cannot read {_shown(fn)}: the answer must be your function, its name without brackets "
                "(answer = your_function).",
            ),
        )
    return None


def name_mistake(
    mine: Sequence[Any],
    positions: Sequence[Any],
    mutations: Iterable[Mutation[Any]],
    answer: Callable[..., Any],
    wrong_at: int | None = None,
) -> Mutation[Any] | None:
    """The first mutation whose answers on every position are the student's ``mine`` (``answer(fn, pos)``
    gives a function's answer on a position); failing that, with ``wrong_at`` (the first position where the
    student is wrong), the first whose answer there is the student's (a student may make two mistakes at once:
    the one that shows first is named); else None."""
    mutations = list(mutations)

    def same(m: Mutation[Any], pairs: Iterable[tuple[Any, Any]]) -> bool:
        try:
            return all(answer(m.fn, pos) == got for pos, got in pairs)
        except Exception:  # noqa: BLE001 - a mutation that cannot run on a position does not match
            return False

    for m in mutations:
        if same(m, zip(positions, mine)):
            return m
    if wrong_at is not None:
        for m in mutations:
            if same(m, [(positions[wrong_at], mine[wrong_at])]):
                return m
    return None


def mutation_fn(
    mutations: Mapping[str, Sequence[Mutation[Any]]], exercise: str, name: str
) -> Callable[..., Any]:
    """The function of the mutation called ``name`` among ``mutations[exercise]`` (a lesson's
    ``MUTATIONS``): what each lesson's ``mistake(exercise, name)`` gives. KeyError naming the known ones."""
    for m in mutations[exercise]:
        if m.name == name:
            return m.fn
    raise KeyError(f"{exercise!r} has no mistake {name!r}; it has {[m.name for m in mutations[exercise]]}")


def distinguishing(
    candidates: Iterable[Hashable],
    reference: Callable[[Hashable], Any],
    mutations: Mapping[str, Callable[[Hashable], Any]],
    *,
    start: Sequence[Hashable] = (),
    times: int = 2,
) -> tuple[list[Hashable], dict[str, list[Hashable]]]:
    """Choose positions on which every mutation differs from the reference (a greedy set cover), each on
    ``times`` positions where the candidates allow (a second position catches a student whose mistake the
    first does not show in full).

    ``candidates`` are position keys, ``reference(key)`` and each ``mutations[name](key)`` that position's
    answer. ``start``: keys chosen anyway (first). Returns the chosen keys (in the order chosen) and, for
    every mutation, the candidates it differs on (an empty list: no candidate tells it apart, so it is an
    equivalent rewrite on this generator's positions).
    """
    differs: dict[str, list[Hashable]] = {name: [] for name in mutations}
    keys = list(candidates)
    for key in keys:
        right = reference(key)
        for name, fn in mutations.items():
            try:
                other = fn(key)
            except Exception:  # noqa: BLE001 - a mutation that crashes here differs here
                other = object()
            if other != right:
                differs[name].append(key)
    chosen = list(start)
    sets = {name: set(ks) for name, ks in differs.items()}
    need = {name: min(times, len(ks)) - len(ks & set(chosen)) for name, ks in sets.items()}
    order = {k: i for i, k in enumerate(keys)}
    while any(n > 0 for n in need.values()):
        best = max(
            (k for k in keys if k not in chosen),
            key=lambda k: (sum(1 for n, d in need.items() if d > 0 and k in sets[n]), -order[k]),
        )
        gained = [n for n, d in need.items() if d > 0 and best in sets[n]]
        if not gained:
            break
        chosen.append(best)
        for n in gained:
            need[n] -= 1
    return chosen, differs


def mine_or_reference(fn: Callable, check: Reply, reference: Callable) -> Callable:
    """The student's function if its check passed, else the reference (saying so), so that a lesson's later
    cells run either way."""
    if check.ok:
        return fn
    print(
        f"(Using the reference solution for now: yours is not right yet, "
        f"{check.progress.get('exercise', '')}.)"
    )
    return reference


def function_check(exercise: Exercise, fn: Any, judge: Callable[[Callable], Reply]) -> Reply:
    """Check a student's function ``fn`` with ``judge`` and record the try on ``exercise``: None is empty,
    anything but a function unreadable; two wrong answers are one try when they are the same (their ``key``:
    the function's answers, not the function object, which a re-run cell makes anew)."""
    early = not_a_function(fn)
    reply = early if early is not None else judge(fn)
    label = reply.mistake or ("an unnamed mistake" if reply.verdict == "wrong" else None)
    return exercise.record(reply, label=label)
