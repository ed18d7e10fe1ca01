"""Issue 9's reproduction as tests: a forced answer and a chosen one look the same, live, at every moment.

Deals A and B differ only in where the 8♥ and the 9♥ lie. Alice asks Bob about the Q♣ and the
8♥: in A Bob holds both and chooses to show the Q♣; in B he holds the Q♣ alone and must show it.
Neither Alice (the asker, shown the Q♣ either way) nor Carol (an onlooker) may tell A from B,
right after the question, right after the answer, or at any later moment.
"""

from __future__ import annotations

from typing import Any

import pytest

from qardlab.engine import Game, Timeline
from qardlab.engine.contract import LiveTrace, check_live_indistinguishable
from qardlab.games.five_sons import Ask, FiveSons, Neither, NoClaim, Show

A = [
    ["JC", "KC", "JD", "AH", "2H"],
    ["QC", "8H", "QD", "3H", "4H"],
    ["KD", "JH", "QH", "5H", "6H"],
    ["KH", "JS", "QS", "7H", "9H"],
]
B = [
    ["JC", "KC", "JD", "AH", "2H"],
    ["QC", "9H", "QD", "3H", "4H"],
    ["KD", "JH", "QH", "5H", "6H"],
    ["KH", "JS", "QS", "7H", "8H"],
]
SECRET = ("KS", "TH")
#: the calls of two turns, as the seats give them (Bob's Show is a choice in A, forced in B)
CALLS = [
    Ask(1, "QC", "8H"),
    Show("QC"),
    NoClaim(),
    NoClaim(),
    NoClaim(),
    NoClaim(),
    Ask(2, "JC", "AH"),
    Neither(),
    NoClaim(),
    NoClaim(),
    NoClaim(),
    NoClaim(),
]


def moments(hands: list, game: type = FiveSons) -> list[tuple]:
    """What Alice (0) and Carol (2) see after the deal and after every call, live."""
    g = game.from_deal(hands, secret=SECRET, dealer=3)
    out = []
    for call in [None, *CALLS]:
        if call is not None:
            g.apply(call)
        o2, o0 = g.observation(2), g.observation(0)
        out.append(
            (
                o2["phase"],
                o2["to_move"],
                o2["step"],
                o2,
                o0,
                g.transcript(2),
                g.transcript(0),
                g.observation_json(2),
                g.observation_json(0),
            )
        )
    return out


def test_issue_reproduction_same_phase_turn_and_step_right_after_the_ask() -> None:
    """The issue's printout: right after the ask, A and B both show ``answer 1 2`` to seat 2."""
    seen = []
    for hands in (A, B):
        g = FiveSons.from_deal(hands, secret=SECRET, dealer=3)
        g.apply(Ask(1, "QC", "8H"))
        o = g.observation(2)
        seen.append((o["phase"], o["to_move"], o["step"]))
    assert seen == [("answer", 1, 2), ("answer", 1, 2)]


def test_issue_reproduction_same_observation_for_seats_2_and_0_at_every_moment() -> None:
    a, b = moments(A), moments(B)
    assert len(a) == len(b) == len(CALLS) + 1
    for k, (x, y) in enumerate(zip(a, b)):
        assert x == y, f"after call {k}: seat 2 or seat 0 can tell deal A from deal B"
    assert a[1][:3] == ("answer", 1, 2) and a[2][:3] == ("claim", 0, 3)


def test_bob_alone_can_tell_and_his_choice_is_his_own() -> None:
    """The answerer's own view differs (his hand, and whether he had a choice), as it should."""
    legal = []
    for hands in (A, B):
        g = FiveSons.from_deal(hands, secret=SECRET, dealer=3)
        g.apply(Ask(1, "QC", "8H"))
        legal.append(g.observation(1)["legal"])
    assert legal == [[Show("QC"), Show("8H")], [Show("QC")]]
    assert not Game.is_forced(legal[0][0]) and Game.is_forced(legal[1][0])


def test_stepping_through_shows_the_same_as_live() -> None:
    """The timeline of the finished calls shows seats 0 and 2 the same, position by position."""
    ta, tb = (Timeline(FiveSons.from_deal(h, secret=SECRET, dealer=3)) for h in (A, B))
    for t in (ta, tb):
        for call in CALLS:
            t.extend(call)
    assert ta.last == tb.last == len(CALLS) + 1
    for k in range(ta.last + 1):
        ga, gb = ta.go_to(k), tb.go_to(k)
        for seat in (0, 2):
            assert ga.observation(seat) == gb.observation(seat)


def _trace(hands: list, game: type = FiveSons) -> tuple[LiveTrace, Game]:
    g = game.from_deal(hands, secret=SECRET, dealer=3)
    trace = LiveTrace(calls=[(g.history[0], True)])
    for call in CALLS:
        if g.is_over:
            break
        g.apply(call)
        trace.calls.append((call, False))
    return trace, g


@pytest.mark.parametrize("seat", [0, 2])
def test_contract_live_check_passes_on_deals_a_and_b(seat: int) -> None:
    from qardlab.engine.contract import ContractStats

    stats = ContractStats()
    trace, g = _trace(A)
    other = FiveSons.from_deal(B, secret=SECRET, dealer=3)
    assert check_live_indistinguishable(trace, g, seat, [other], stats) == 1
    assert stats.live_calls == len(CALLS) + 1 and stats.live_forced_vs_chosen == 1


class OldEngine(FiveSons):
    """The engine as it was: ``apply`` gives the forced answers itself, inside the ask."""

    name = ""  # not registered

    def apply(self, action: Any) -> OldEngine:
        super().apply(action)
        while self.forced_action() is not None:
            super().apply(self.forced_action())
        return self


def test_old_engine_is_caught_by_the_live_check() -> None:
    """Reintroduce the old leak: the live check fails on it, naming the moment and the difference."""
    g = OldEngine.from_deal(B, secret=SECRET, dealer=3)
    g.apply(Ask(1, "QC", "8H"))
    assert (g.observation(2)["phase"], g.observation(2)["step"]) == ("claim", 3)  # the issue's leak
    trace = LiveTrace(calls=[(g.history[0], True), (Ask(1, "QC", "8H"), False)])
    other = FiveSons.from_deal(A, secret=SECRET, dealer=3)
    with pytest.raises(AssertionError, match=r"live: seat 2 .* right after call #1 .*observation differs"):
        check_live_indistinguishable(trace, g, 2, [other])
