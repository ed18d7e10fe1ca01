"""Explanations: their facts alone force the cell; an open cell says counting gives its probability."""

from __future__ import annotations

import random

from qardlab.cards import Card
from qardlab.deduction import SECRET, Fact, Knowledge
from qardlab.deduction.solve import build_model, forced
from qardlab.games.five_sons.knowledge import WORDS, secret_spec

from .deduction_brute import mini_game


def _check_all_cells(k: Knowledge, limit: int = 400) -> int:
    logic = k.grid("logic")
    prob = k.grid("probability")
    n = 0
    for c in k.cards:
        for h in k.holders:
            if n >= limit:
                return n
            e = k.explain(c, h)
            assert e.sentences and e.text
            if logic[c][h] is None:
                assert e.value is None and not e.facts
                assert "Logic alone does not settle" in e.text and "gives its probability" in e.text
                assert "settles it" not in e.text.replace("does not settle", "")
                assert abs(e.probability - prob[c][h]) < 1e-12
            else:
                n += 1
                assert e.value == logic[c][h]
                # the explanation's facts alone force the cell
                assert forced(build_model(k, e.facts), c, h) == e.value
                assert set(e.facts) <= set(k.facts)
                assert e.sentences[-1].startswith("So ")
    return n


def test_explanations_force_their_cells_on_random_positions():
    rng = random.Random(21)
    checked = 0
    for i in range(6):
        players = 4 if i % 2 else 5
        game = mini_game(rng, players, 6, 6, rng.randrange(4, 14), claim_rate=0.1)
        checked += _check_all_cells(game.knowledge[rng.randrange(players)])
    assert checked > 50


def test_explanation_chain_one_of_resolved_by_own_hand():
    """The issue's example: Bob showed Carol one of Q♣ and 8♥; you hold Q♣; so Bob holds 8♥."""
    faces = tuple(Card.parse(c) for c in ("QC", "KC", "JD"))
    numbers = tuple(Card.parse(c) for c in ("8H", "9H", "TH"))
    cards = faces + numbers
    sizes = {0: 1, 1: 1, 2: 2, SECRET: 2}
    k = Knowledge(
        0,
        cards,
        (0, 1, 2, SECRET),
        sizes,
        "five_sons",
        names={1: "Bob", 2: "Carol"},
        facts=(
            Fact.has(0, "QC", step=0, text="You hold Q♣."),
            Fact.none_of(2, ("KC", "TH"), step=2, text="Turn 2: Carol had neither K♣ nor 10♥."),
            Fact.one_of(1, ("QC", "8H"), step=3, text="Turn 3: Bob showed Carol one of Q♣ and 8♥."),
        ),
        secret=secret_spec(faces, numbers),
        words=WORDS,
    )
    e = k.explain("8H", 1)
    assert e.value == "yes"
    assert e.sentences == ["You hold Q♣.", "Turn 3: Bob showed Carol one of Q♣ and 8♥.", "So Bob holds 8♥."]
    assert k.explain("8H", SECRET).value == "no"


def test_explain_rejects_unknown_holder_or_card():
    rng = random.Random(3)
    k = mini_game(rng, 4, 4, 4, 2).knowledge[0]
    for bad in (("QC", 9), ("2C", 1)):
        try:
            k.explain(*bad)
        except ValueError as e:
            assert str(bad[1]) in str(e) or "2C" in str(e)
        else:  # pragma: no cover
            raise AssertionError(f"explain{bad} should raise")
