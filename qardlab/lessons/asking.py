"""Lesson 04 (asking good questions): what an answer's unpredictability is, what it tells, and an experiment.

- :func:`answer_entropy`: how unpredictable a question's answer is, H(answer), in bits, from the advisor's
  outcome probabilities;
- :func:`answer_entropy_given_secret`: what stays unpredictable once the secret is known, H(answer | secret),
  computed directly: for each secret pair still possible, the engine's answer probabilities with that pair
  added to the seat's facts, weighed by the pair's probability;
- the information a question gives about the secret (the advisor's ``info``) is the difference of the two:
  I(secret; answer) = H(answer) - H(answer | secret). An answer can be unpredictable because of the other
  players' hands, which the asker does not care about; only the part that depends on the secret informs.
- :func:`questions_to_certainty` and :func:`run_experiment`: the lesson's experiment, Alice asking in one of
  four ways (:data:`STRATEGIES`) while the others ask at random, counting her questions until she is certain;
- what if? (section 6): :func:`question_step` and :func:`asked_lines` find and tell a question of the game
  and what its answer left the asker; the table's "Play on from here" replays the game to that step with the
  same cards (the engine's :meth:`~qardlab.engine.timeline.Timeline.play_on`), so another question can be
  asked there;
- the lesson's three exercises: :func:`check_question` (which question would you ask as Bob?),
  :func:`check_bits` (the bits of a yes-or-no answer that only the secret decides, worked out by hand) and
  :func:`check_what_if` (what asking Carol instead would have left Alice).
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from ..cards import Card
from ..deduction import SECRET, Fact, Knowledge
from ..deduction.pair_advisor import Question, best_question, question
from ..engine import Timeline
from ..games.five_sons import Ask, FiveSons, NoClaim, phrase
from ..games.five_sons.knowledge import KnowledgeFeed, knowledge_of
from .exercises import Exercise, Reply, number_text, read_number, read_question, right, wrong

__all__ = [
    "answer_entropy",
    "answer_entropy_given_secret",
    "most_unpredictable",
    "question_lines",
    "STRATEGIES",
    "questions_to_certainty",
    "run_experiment",
    "check_question",
    "check_bits",
    "BITS_CASE",
    "question_step",
    "asked_lines",
    "what_if_outcomes",
    "check_what_if",
]


def answer_entropy(q: Question) -> float:
    """H(answer) in bits: how unpredictable the answer the asker will see is (face shown, number shown,
    neither), from the advisor's outcome probabilities."""
    return max(0.0, -sum(p * math.log2(p) for p in q.outcomes.values() if p > 0))


def _with_secret(k: Knowledge, face: Any, number: Any) -> Knowledge:
    """A copy of ``k`` that also knows the secret pair is (face, number)."""
    return k.with_facts(Fact.has(SECRET, face), Fact.has(SECRET, number))


def answer_entropy_given_secret(k: Knowledge, q: Question) -> float:
    """H(answer | secret) in bits, computed directly (see the module docstring): what would stay
    unpredictable about the answer if the asker knew the secret pair."""
    total = 0.0
    for (face, number), p in k.posterior().items():
        known = _with_secret(k, face, number)
        same = question(known, q.target, q.face, q.number)  # what questions([target]) gives for it
        total += p * answer_entropy(same)
    return total


def most_unpredictable(questions: list[Question]) -> Question:
    """The question whose answer is hardest to predict (highest H(answer)): the one whose answers are
    closest to even chances."""
    return max(questions, key=answer_entropy)


def question_lines(
    q: Question, names: Mapping[int, str] | list[str], k: Knowledge | None = None
) -> list[str]:
    """A question, the chances of its answers and its bits, as lines to print. With ``k`` also the split
    information = H(answer) - H(answer | secret), the second term computed directly."""
    who = names[q.target]
    out = [f"Ask {who}: {phrase(q.face, q.number)}"]
    for card, p in q.outcomes.items():
        what = f"shows the {card.symbol}" if card is not None else "has neither"
        out.append(f"   {p:6.1%}  {who} {what}")
    h = answer_entropy(q)
    if k is None:
        out.append(
            f"   answer unpredictable by {number_text(h, 2)} bits; information about the secret "
            f"{number_text(q.info)} bits"
        )
    else:
        rest = answer_entropy_given_secret(k, q)
        out.append(
            f"   H(answer) = {number_text(h)} bits, H(answer | secret) = {number_text(rest)} bits: "
            f"information = {number_text(h)} - {number_text(rest)} = {number_text(h - rest)} bits "
            f"(advisor: {number_text(q.info)})"
        )
    return out


# -- the experiment ------------------------------------------------------------------------------------


def _random_question(k: Knowledge | None, obs: dict, rng: random.Random) -> Any:
    return rng.choice(obs["legal"])


#: a way of asking marked ``blind`` reads only ``obs["legal"]``, never the knowledge (which it may be given
#: as None): the experiment then plays the game first and counts afterwards (see _blind_certainty)
_random_question.blind = True  # type: ignore[attr-defined]


def _possible_pair_question(k: Knowledge, obs: dict, rng: random.Random) -> Any:
    face, number = rng.choice(sorted(k.candidates()))
    return Ask(rng.choice(sorted({a.target for a in obs["legal"]})), face, number)


def _advisor_question(k: Knowledge, obs: dict, rng: random.Random) -> Any:
    q = best_question(k)  # k.questions()[0], without a Question made for every other
    return Ask(q.target, q.face, q.number)


#: way of playing -> (how Alice asks, how she counts the pairs still possible); a way of asking reads
#: Alice's knowledge and ``obs["legal"]`` (the experiment keeps her observation's other keys up to date
#: only where her knowledge needs them)
STRATEGIES: dict[str, tuple[Callable[..., Any], Callable[[Knowledge], int]]] = {
    "random questions, crossing out": (_random_question, lambda k: len(k.naive_candidates())),
    "random questions, full logic": (_random_question, lambda k: len(k.candidates())),
    "possible pairs, full logic": (_possible_pair_question, lambda k: len(k.candidates())),
    "advisor, full logic": (_advisor_question, lambda k: len(k.candidates())),
}


def questions_to_certainty(
    seed: int, ask: Callable[..., Any], count: Callable[[Knowledge], int], cap: int = 30, seat: int = 0
) -> int | None:
    """``seat``'s own questions until it is certain of the pair (None: not within ``cap``).

    Nobody claims; the other seats ask at random, and an answerer holding both named cards shows one at
    random (forced answers are played at once, so the random draws go only to real choices).
    """
    return _questions_to_certainty(seed, ask, (count,), cap, seat)[0]


def _other_seats(g: FiveSons, seat: int, rng: random.Random) -> None:
    """Play on until ``seat`` is to ask: nobody claims, the others ask and answer at random."""
    while not (g.phase == "ask" and g.to_move == seat):
        if g.phase == "claim":
            g.apply(NoClaim())
        else:  # the legal actions are the observation's: no observation needed
            g.play(rng.choice(g.legal_actions()))


def _questions_to_certainty(
    seed: int,
    ask: Callable[..., Any],
    counts: Sequence[Callable[[Knowledge], int]],
    cap: int = 30,
    seat: int = 0,
) -> list[int | None]:
    """:func:`questions_to_certainty` for several ways of counting at once, in one game.

    How ``seat`` asks depends on its knowledge, its observation and the draws only, never on how it
    counts, so every counting sees the very game it would see alone, up to the moment it is certain:
    the game is played once, until every counting is certain or ``cap`` is reached.
    """
    if getattr(ask, "blind", False):
        return _blind_certainty(seed, ask, counts, cap, seat)
    g = FiveSons.new(players=4, seed=seed)
    rng = random.Random(seed)
    asked = 0
    found: list[int | None] = [None] * len(counts)
    waiting = list(range(len(counts)))
    feed = KnowledgeFeed()  # the seat's knowledge, each event read once (knowledge_of of its observation)
    obs: dict[str, Any] = {}
    read = 0  # the events of the log read so far
    while True:
        _other_seats(g, seat, rng)
        if not read:
            obs = dict(g.observation(seat))
        else:  # the events since, as the seat saw them (EventLog.view's), and the keys that change
            obs["events"] = [e.seen_by(seat) for e in g.events[read:] if e.visible_to(seat)]
            obs.update(
                phase=g.phase, to_move=g.to_move, eliminated=sorted(g.eliminated), legal=g.legal_actions()
            )  # (hand sizes stay: no card changes hands in Five Sons)
        read = len(g.events)
        k = feed.feed(obs)
        for i in list(waiting):
            if counts[i](k) == 1:
                found[i] = asked
                waiting.remove(i)
        if not waiting or asked == cap:
            return found
        g.play(ask(k, obs, rng))  # the forced answers at once: rng draws only for choices
        asked += 1


def _blind_certainty(
    seed: int, ask: Callable[..., Any], counts: Sequence[Callable[[Knowledge], int]], cap: int, seat: int
) -> list[int | None]:
    """The same for a way of asking that reads no knowledge (``ask.blind``): the game is played first,
    to ``seat``'s turn after its ``cap``-th question, and the counting done afterwards, where needed.

    The knowledge at ``seat``'s ``i``-th turn is its final knowledge restricted to the facts logged
    before that turn (``upto``: every fact carries its step; hand sizes do not change in Five Sons),
    and a count of pairs still possible never grows as facts are added, so the first turn at which a
    count is 1 is found by bisection: about 5 countings instead of one per turn.
    """
    g = FiveSons.new(players=4, seed=seed)
    rng = random.Random(seed)
    last: list[int] = []  # the step of the last event logged before each of seat's turns to ask
    while True:
        _other_seats(g, seat, rng)
        last.append(g.step - 1)
        if len(last) > cap:
            break
        g.play(ask(None, {"legal": g.legal_actions()}, rng))  # all a blind way reads
    final = knowledge_of(g.observation(seat))
    at: dict[int, Knowledge] = {}  # the knowledge at the turns the bisection looks at, built once each

    def knowledge(i: int) -> Knowledge:
        if i not in at:
            at[i] = final.upto(last[i])
        return at[i]

    return [_first(lambda i, count=count: count(knowledge(i)) == 1, len(last)) for count in counts]


def _first(certain: Callable[[int], bool], n: int) -> int | None:
    """The least ``i < n`` with ``certain(i)``, for ``certain`` false and then true (None: never)."""
    if n == 0 or not certain(n - 1):
        return None
    lo, hi = 0, n - 1  # certain(i) is false below lo and true at hi
    while lo < hi:
        mid = (lo + hi) // 2
        if certain(mid):
            hi = mid
        else:
            lo = mid + 1
    return lo


#: the least time between two calls of ``run_experiment``'s ``progress`` (seconds): a progress bar redrawn
#: for every game of a fast experiment costs the page more than it tells (as tqdm's ``mininterval``)
PROGRESS_EVERY = 0.1


def run_experiment(
    games: int, cap: int = 30, first_seed: int = 1000, progress: Callable[[int], None] | None = None
) -> dict[str, list[int | None]]:
    """Each way of playing of :data:`STRATEGIES` on ``games`` seeded games: questions to certainty.

    ``progress(done)``, if given, is told how many games (of ``games * len(STRATEGIES)``) are done: at
    most every :data:`PROGRESS_EVERY` seconds, and always when the last is. The ways that ask alike (the
    two random askers) play each seeded game once and count it both ways (see
    :func:`_questions_to_certainty`): the same results as one game per way, for less work.
    """
    results: dict[str, list[int | None]] = {name: [] for name in STRATEGIES}
    groups: dict[Callable[..., Any], list[str]] = {}
    for name, (ask, _) in STRATEGIES.items():
        groups.setdefault(ask, []).append(name)
    done, total = 0, games * len(STRATEGIES)
    told = time.monotonic()
    for ask, names in groups.items():
        counts = [STRATEGIES[name][1] for name in names]
        for i in range(games):
            for name, n in zip(names, _questions_to_certainty(first_seed + i, ask, counts, cap)):
                results[name].append(n)
            done += len(names)
            if progress is not None and (done == total or time.monotonic() - told >= PROGRESS_EVERY):
                progress(done)
                told = time.monotonic()
    return results


# -- the exercises ---------------------------------------------------------------------------------------

LESSON = "04-asking-good-questions"
EXERCISES = {
    "question": Exercise(LESSON, "bobs-question"),
    "bits": Exercise(LESSON, "bits-by-hand"),
    "what_if": Exercise(LESSON, "what-if-carol"),
}


def check_question(answer: Any, k: Knowledge, names: Sequence[str]) -> Reply:
    """Exercise 1: the question the student would ask from ``k``'s seat; right when it is worth at least 80 %
    of the advisor's best. Every reply says what the question is worth; the best one comes with the worked
    answer."""
    me = names[k.seat]
    qs = k.questions()
    best, loud = qs[0], most_unpredictable(qs)

    def judge(question: tuple[int, Any, Any]) -> Reply:
        target, face, number = question
        if target == k.seat:
            return wrong(
                f"{me} asks another player, not himself.", "Hint: name one of the other three players."
            )
        mine = next(q for q in qs if (q.target, q.face, q.number) == (target, face, number))
        rank = 1 + sum(1 for q in qs if q.info > mine.info + 1e-12)
        worth = (
            f"your question is worth {number_text(mine.info)} bits, number {rank} of {len(qs)} "
            f"({mine.info / best.info:.0%} of the best)."
        )
        if mine.info >= 0.8 * best.info:
            return right(
                worth,
                *question_lines(mine, names, k),
                "The question whose answers are closest to even chances, for comparison:",
                *question_lines(loud, names, k),
                f"Its answer is harder to predict, but almost all of that would stay unpredictable if {me} "
                f"knew "
                "the secret: it tells him little about it.",
            )
        return wrong(
            worth,
            *question_lines(mine, names, k),
            "Hint: information = H(answer) - H(answer | secret). A question informs when its answer depends "
            "on "
            f"the secret. Look at the secret's column of {me}'s grid: which card is either in the secret or "
            f"in "
            "one player's hand, and nowhere else?",
            solution=["The best question:", *question_lines(best, names, k)],
        )

    return EXERCISES["question"].check(
        answer, read_question({n: s for s, n in enumerate(names)}), judge, example='("Carol", "QC", "8H")'
    )


#: exercise 2: pairs still possible (equally likely), and in how many of them the named card is in the secret
BITS_CASE = (8, 2)


def check_bits(answer: Any, case: tuple[int, int] = BITS_CASE) -> Reply:
    """Exercise 2: the information of a question whose answer ("shown" or "neither") only the secret decides,
    with ``case`` = (pairs equally likely, pairs in which the answer is "neither")."""
    pairs, neither = case
    p = neither / pairs
    exact = -(p * math.log2(p) + (1 - p) * math.log2(1 - p))
    rare, common = math.log2(1 / p), math.log2(1 / (1 - p))
    work = [
        f'The answer is "neither" with chance {neither}/{pairs} = {p:g} and "shown" with chance '
        f"{pairs - neither}/{pairs} = {1 - p:g}. Once the secret is known nothing about the answer is left "
        "to chance, so H(answer | secret) = 0 and the information is H(answer):",
        f"  {p:g} x log2(1/{p:g}) + {1 - p:g} x log2(1/{1 - p:g}) = {p:g} x {number_text(rare)} + "
        f"{1 - p:g} x {number_text(common)} = {number_text(exact)} bits.",
    ]

    def judge(value: float) -> Reply:
        if abs(value - exact) <= 0.01:
            return right(f"about {number_text(exact, 2)} bits.", *work)
        if abs(value - 1) < 1e-9:
            hint = (
                "A yes-or-no answer gives a whole bit only when both answers are equally likely. Are they "
                "here?"
            )
        elif abs(value - math.log2(pairs)) < 0.01 or abs(value - math.log2(pairs / neither)) < 0.01:
            hint = (
                "That is the surprise of one outcome, log2(1/p). The information weighs each answer's "
                "surprise by its chance: add up p x log2(1/p) over both answers."
            )
        elif abs(value - rare) < 0.01 or abs(value - common) < 0.01:
            hint = "That is one answer's surprise alone: weigh each answer's surprise by its chance and add."
        elif abs(value - p) < 1e-9 or abs(value - (1 - p)) < 1e-9:
            hint = "That is a chance, not bits: the bits are the sum of p x log2(1/p) over the answers."
        elif abs(value - exact * math.log(2)) < 0.01:
            hint = "Bits need the logarithm in base 2."
        else:
            hint = (
                "The answer depends only on the secret, so the information is H(answer): the sum over the "
                "two "
                "answers of p x log2(1/p)."
            )
        unit = "bit" if value == 1 else "bits"
        return wrong(f"{value:g} {unit} is not it.", "Hint: " + hint, solution=work)

    return EXERCISES["bits"].check(answer, read_number, judge, example="1.5")


# -- what if? (section 6, exercise 3) ---------------------------------------------------------------------


def question_step(game: FiveSons, number: int) -> int:
    """The step of ``game``'s history at which its question ``number`` (1: the first) is asked; ValueError
    naming a number the game has not reached."""
    asks = [i for i, a in enumerate(game.history) if isinstance(a, Ask)]
    if isinstance(number, bool) or not isinstance(number, int) or not 1 <= number <= len(asks):
        raise ValueError(f"question {number!r}: the game has questions 1 to {len(asks)}")
    return asks[number - 1]


def _pairs(g: FiveSons, seat: int) -> tuple[int, int]:
    k = g.knowledge(seat)
    return len(k.candidates()), len(k.naive_candidates())


def asked_lines(game: FiveSons, step: int, seat: int) -> list[str]:
    """The question asked at ``step`` of ``game`` (by ``seat``), its answer as ``seat`` saw it, and the pairs
    still possible for ``seat`` by full logic before the question and after the answer."""
    tl = Timeline(game)
    ask = tl.steps[step]
    if not isinstance(ask, Ask) or step + 2 > tl.last:
        raise ValueError(f"step {step} of the game is not an answered question")
    before, after = tl.state_at(step), tl.state_at(step + 2)
    names = [game.seat_name(s) for s in range(game.players)]
    answer = [e for e in after.events if e.kind == "answer"][-1]
    return [
        f"Question {before.turn + 1}, at step {step}: {names[before.to_move]} asks {names[ask.target]}: "
        f"“{phrase(ask.face, ask.number)}.”",
        f"{names[seat]} sees: {after.describe(answer, seat)}",
        f"Pairs still possible for {names[seat]}, by full logic: {_pairs(before, seat)[0]} before the "
        f"question, {_pairs(after, seat)[0]} after the answer.",
    ]


def what_if_outcomes(game: FiveSons, step: int, ask: tuple[int, Any, Any], seat: int) -> dict[Any, tuple]:
    """What asking ``ask`` (target, face, number) at ``step`` instead would have left ``seat``: played on from
    that step with the same cards (``Timeline.play_on``), each answer the target may give -> (the answer's
    card or None, pairs by full logic, pairs by crossing out). One answer when the target's cards force it."""
    g = Timeline(game).play_on(step, seed=0)
    target, face, number = ask
    g.apply(Ask(target, face, number))
    out: dict[Any, tuple] = {}
    for (
        answer
    ) in g.legal_actions():  # the answerer's: two Shows when it holds both cards, else the forced one
        h = g.copy()
        h.apply(answer)
        card = getattr(answer, "card", None)
        out[card] = (card, *_pairs(h, seat))
    return out


def check_what_if(answer: Any, game: FiveSons, step: int, ask: tuple[int, Any, Any], seat: int = 0) -> Reply:
    """Exercise 3: the pairs still possible for ``seat``, by full logic, had it asked ``ask`` at ``step`` of
    ``game`` instead of its real question (right: any count one of the target's answers gives)."""
    tl = Timeline(game)
    names = [game.seat_name(s) for s in range(game.players)]
    me, target = names[seat], names[ask[0]]
    face, number = Card.parse(ask[1]), Card.parse(ask[2])
    real = tl.steps[step]
    before = tl.state_at(step)
    start, start_naive = _pairs(before, seat)
    real_after = _pairs(tl.state_at(step + 2), seat)[0]
    outcomes = what_if_outcomes(game, step, ask, seat)
    counts = {logic for _card, logic, _naive in outcomes.values()}
    held = [c for c in (face, number) if c in set(before.hand(ask[0]))]
    if len(held) == 2:
        why = f"{target} holds both the {face.symbol} and the {number.symbol}, and chooses which to show"
    elif held:
        other = number if held[0] == face else face
        shown = held[0].symbol
        why = (
            f"{target} holds the {shown} and not the {other.symbol}: the answer is forced, {target} shows "
            f"the {shown}"
        )
    else:
        why = (
            f"{target} holds neither the {face.symbol} nor the {number.symbol}: the answer is forced, neither"
        )
    q = (before.turn + 1, names[real.target])
    k = before.knowledge(seat)
    infos = {(x.target, x.face, x.number): x.info for x in k.questions()}
    real_info = infos[(real.target, real.face, real.number)]
    mine_info = infos[(ask[0], face, number)]
    work = [
        f"The new game holds the real cards: {why}.",
        *(
            f"After {target}'s answer {me} has {naive} pairs by crossing out (from {start_naive}) and "
            f"{start} - {start - logic} = {logic} by full logic."
            for _card, logic, naive in outcomes.values()
        ),
        f"{me}'s real question {q[0]}, to {q[1]}, left {real_after}.",
    ]

    def judge(value: float) -> Reply:
        if value in counts:
            more = "more" if value < real_after else ("as much" if value == real_after else "less")
            return right(
                f"{value:g} pairs by full logic after {target}'s answer.",
                *work,
                f"Asked of {target}, this question would have told {me} {more} than the real one, though the "
                f"advisor expected {number_text(mine_info)} bits of it against {number_text(real_info)} for "
                "the real question: expected information is an average over the answers a question may get, "
                "and one game gets one answer.",
            )
        if value in (start, real_after):
            hint = (
                f"{value:g} is what {me} had before question {q[0]} or after the real question, "
                f"to {q[1]}. Play on from step {step} and ask {target} instead: which of the two cards can "
                f"{target} show?"
            )
        elif any(value == naive for _card, _logic, naive in outcomes.values()):
            hint = (
                "That is the count by crossing out seen cards only, the first count in the title of "
                f"{me}'s grid. The exercise asks for full logic: the second."
            )
        else:
            hint = (
                f"Play on from step {step} as {me} (the button under the stepper of section 6's table), "
                f"ask {target} about the {face.symbol} and the {number.symbol}, and read the title of {me}'s "
                f"grid after {target}'s answer: its count by logic."
            )
        return wrong(f"{value:g} is not it.", "Hint: " + hint, solution=work)

    return EXERCISES["what_if"].check(answer, read_number, judge, example="40")
