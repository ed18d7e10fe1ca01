"""A secret of k groups (a Clue-like envelope of three) and the weight of a card shown from three named.

RULES.md's model of an answer: a seat holding some of the named cards shows one of them, each
with the same chance. So a deal in which the seat that showed a card held ``m`` of the named
cards weighs ``1/m`` (1/2 for Five Sons' two named cards, 1/3 for three). These tests enumerate
every deal of tiny positions directly (a generative model: deal, then the answers' chances),
condition on what the seat saw, and compare the engine's exact posterior and grid to 1e-12.
"""

from __future__ import annotations

import itertools
import math

import pytest

from qardlab.cards import Card
from qardlab.deduction import Fact, Knowledge, PlaceWords, QuestionModel, SecretSpec

C = Card.parse
ENVELOPE = "envelope"
WORDS = {
    ENVELOPE: PlaceWords(
        "the envelope",
        "The envelope",
        "{card} is in the envelope",
        "{card} is not in the envelope",
        "(a wrong accusation)",
    )
}


def _enumerate(spec: SecretSpec, cards, sizes: dict, seat: int, hand, answers, weigh=None):
    """Exact posterior over secrets and the probability grid, by listing every deal.

    ``answers``: (answerer, named cards, the card shown to ``seat`` or None for "neither").
    ``weigh(m)``: the chance that a seat holding ``m`` named cards shows a given one (default 1/m).
    """
    weigh = weigh or (lambda m: 1.0 / m)
    hand = frozenset(hand)
    rest = [c for c in cards if c not in hand]
    seats = [s for s in sizes if s != seat]
    post: dict = {}
    grid = {c: {h: 0.0 for h in (*sizes, spec.holder)} for c in cards}
    total = 0.0
    secrets = [
        tuple(x for part in combo for x in part)
        for combo in itertools.product(
            *[itertools.combinations(g, p) for g, p in zip(spec.groups, spec.picks)]
        )
    ]
    for secret in secrets:
        if any(c in hand for c in secret):
            continue
        left = [c for c in rest if c not in secret]

        def deal(i, left, hands):
            if i == len(seats):
                yield dict(hands)
                return
            s = seats[i]
            for combo in itertools.combinations(left, sizes[s]):
                hands[s] = frozenset(combo)
                yield from deal(i + 1, [c for c in left if c not in combo], hands)
            hands.pop(s, None)

        for hands in deal(0, left, {}):
            hands[seat] = hand
            w = 1.0
            for who, named, shown in answers:
                held = [c for c in named if c in hands[who]]
                if shown is None:
                    w *= 0.0 if held else 1.0
                else:
                    w *= weigh(len(held)) if shown in held else 0.0
            if w == 0:
                continue
            total += w
            key = spec.candidate(secret)
            post[key] = post.get(key, 0.0) + w
            for h, cs in hands.items():
                for c in cs:
                    grid[c][h] += w
            for c in secret:
                grid[c][spec.holder] += w
    return (
        {k: v / total for k, v in post.items()},
        {c: {h: v / total for h, v in row.items()} for c, row in grid.items()},
    )


def _knowledge(spec, cards, sizes, seat, hand, answers) -> Knowledge:
    facts = [Fact.has(seat, c, step=0) for c in hand]
    for step, (who, named, shown) in enumerate(answers, start=1):
        facts.append(
            Fact.none_of(who, named, step=step) if shown is None else Fact.shown(who, shown, named, step=step)
        )
    return Knowledge(
        seat,
        cards,
        (*sizes, spec.holder),
        {**sizes, spec.holder: spec.size},
        "toy",
        names={seat: "you", 1: "Bob", 2: "Carol"},
        facts=facts,
        secret=spec,
        words=WORDS,
    )


#: a Clue-like envelope: one card of each of three groups
GROUPS = ((C("JC"), C("QC"), C("KC"), C("JS")), (C("JD"), C("QD"), C("KD")), (C("AH"), C("2H"), C("3H")))
CARDS = tuple(c for g in GROUPS for c in g)
SPEC = SecretSpec(
    groups=GROUPS,
    holder=ENVELOPE,
    kinds=("suspect", "weapon", "room"),
    questions=QuestionModel(mode="pass_left", event="suggest", quiet=frozenset({"suggest"})),
)
SIZES = {0: 2, 1: 3, 2: 2}  # Bob's three cards may be all three named ones
HAND = (C("JC"), C("JD"))
#: Bob shows Alice a card from three named she cannot place (he may hold 1, 2 or all 3 of them)
ANSWERS = [
    (1, (C("QC"), C("QD"), C("2H")), C("QD")),
    (2, (C("KC"), C("KD"), C("AH")), C("AH")),
    (1, (C("KC"), C("QD"), C("3H")), C("QD")),
]


def test_three_named_cards_weigh_one_over_held_exactly():
    """The posterior and the grid equal a direct enumeration to 1e-12 (weight 1/m, m named cards held)."""
    k = _knowledge(SPEC, CARDS, SIZES, 0, HAND, ANSWERS)
    ref_post, ref_grid = _enumerate(SPEC, CARDS, SIZES, 0, HAND, ANSWERS)
    post = k.posterior()
    assert set(post) == set(ref_post) == k.candidates()
    for key, p in ref_post.items():
        assert post[key] == pytest.approx(p, abs=1e-12), key
    grid = k.grid("probability")
    for c in CARDS:
        for h, p in ref_grid[c].items():
            assert grid[c][h] == pytest.approx(p, abs=1e-12), (c, h)
    # the test tells the rules apart: 1/2 per other held card (right only for two) gives other numbers
    halves, _ = _enumerate(SPEC, CARDS, SIZES, 0, HAND, ANSWERS, weigh=lambda m: 0.5 ** (m - 1))
    assert max(abs(halves[key] - post[key]) for key in post) > 1e-3
    assert sum(post.values()) == pytest.approx(1.0, abs=1e-12)


def test_three_named_cards_with_some_known_and_the_float_solver(monkeypatch):
    """The same with a named card known in the shower's hand, and with the float (not the exact
    integer) solver."""
    from qardlab.deduction import solve

    answers = ANSWERS + [(2, (C("QC"), C("KD"), C("3H")), None)]
    hand = (C("JC"), C("2H"))  # one named card of the first answer is the seat's own
    k = _knowledge(SPEC, CARDS, SIZES, 0, hand, answers)
    ref_post, _ = _enumerate(SPEC, CARDS, SIZES, 0, hand, answers)
    for key, p in ref_post.items():
        assert k.posterior()[key] == pytest.approx(p, abs=1e-12)
    monkeypatch.setattr(solve, "exact_fits", lambda model: False)
    monkeypatch.setattr(solve, "ranked_pair_weights", lambda model: None)
    k2 = _knowledge(SPEC, CARDS, SIZES, 0, hand, answers)
    for key, p in ref_post.items():
        assert k2.posterior()[key] == pytest.approx(p, abs=1e-12)


def test_a_secret_of_two_cards_from_one_group():
    """picks: a secret of two cards of one group and one of another (candidates in the groups' order)."""
    spec = SecretSpec(groups=(GROUPS[0] + GROUPS[1], GROUPS[2]), picks=(2, 1), holder=ENVELOPE)
    sizes = {0: 2, 1: 3, 2: 2}
    hand = (C("JC"), C("AH"))
    answers = [(1, (C("QC"), C("QD"), C("2H")), C("QD")), (2, (C("KC"), C("3H")), None)]
    k = _knowledge(spec, CARDS, sizes, 0, hand, answers)
    ref_post, ref_grid = _enumerate(spec, CARDS, sizes, 0, hand, answers)
    assert k.candidates() == set(ref_post)
    assert all(len(key) == 3 and key[2] in GROUPS[2] for key in k.candidates())
    for key, p in ref_post.items():
        assert k.posterior()[key] == pytest.approx(p, abs=1e-12)
    grid = k.grid("probability")
    for c in CARDS:
        assert grid[c][ENVELOPE] == pytest.approx(ref_grid[c][ENVELOPE], abs=1e-12)
    assert len(spec.all_candidates()) == spec.count() == math.comb(7, 2) * 3


def test_the_adapter_words_speak_of_the_secret_and_the_advisor_says_what_it_handles():
    k = _knowledge(SPEC, CARDS, SIZES, 0, HAND, ANSWERS)
    assert k.name(ENVELOPE) == "the envelope"
    why = k.explain("JC", ENVELOPE)
    assert why.value == "no" and why.sentences[-1] == "So you hold J♣, and it is not in the envelope."
    rule = next(f for f in k.facts if f.kind == "exactly")  # the spec's rules are facts
    assert rule.step is None and why.facts is not None
    from qardlab.deduction.explain import fact_text

    assert fact_text(k, rule) == "The envelope holds exactly one suspect."
    assert fact_text(k, Fact.not_both(ENVELOPE, ("QC", "QD", "3H"))) == (
        "The envelope is not Q♣, Q♦ and 3♥ (a wrong accusation)."
    )
    assert len(k.naive_candidates()) == 3 * 1 * 2  # seen: J♣ J♦ in hand, Q♦ and A♥ shown
    with pytest.raises(ValueError, match="two groups of one card"):
        k.questions()


def test_a_spec_that_does_not_fit_is_refused():
    with pytest.raises(ValueError, match="two groups"):
        SecretSpec(groups=(GROUPS[0], GROUPS[0]))
    with pytest.raises(ValueError, match="picks"):
        SecretSpec(groups=GROUPS, picks=(1, 4, 1))
    with pytest.raises(ValueError, match="holds 3 cards"):
        Knowledge(0, CARDS, (0, 1, ENVELOPE), {0: 4, 1: 4, ENVELOPE: 2}, secret=SPEC)
    with pytest.raises(ValueError, match="'pass_around'"):
        QuestionModel(event="suggest", mode="pass_around")


def test_the_question_model_and_the_spec_assume_no_game():
    """Issue 26, item 5: no Five Sons default in the shared value types. A question model names its game's
    own event (no "ask" assumed; keywords only) and assumes no event quiet; a secret nobody asks about by
    the rules is the default (no question model made up for it)."""
    with pytest.raises(TypeError):
        QuestionModel()  # type: ignore[call-arg]
    with pytest.raises(TypeError):
        QuestionModel("chosen", "ask")  # type: ignore[misc]
    for bad in ("", None, 3):
        with pytest.raises(ValueError, match=f"not {bad!r}"):
            QuestionModel(event=bad)  # type: ignore[arg-type]
    model = QuestionModel(event="suggest")
    assert (model.event, model.mode, model.quiet) == ("suggest", "chosen", frozenset())
    assert SecretSpec(groups=GROUPS).questions is None
