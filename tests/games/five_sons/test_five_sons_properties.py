"""Property tests (hypothesis) over random Five Sons games: the rules hold at every step."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from qardlab.engine import Game, Record
from qardlab.games.five_sons import Ask, Claim, FiveSons, Neither, NoClaim, Show
from qardlab.games.five_sons.deck import FACE_CARDS, NUMBER_CARDS, five_sons_deck

games = st.tuples(
    st.sampled_from([4, 5]),  # players
    st.integers(0, 2**32 - 1),  # deal seed
    st.sampled_from(["chosen", "pass_left"]),  # ask mode
    st.integers(0, 4),  # dealer
)


def play_random(data, players: int, seed: int, mode: str, dealer: int, max_steps: int = 120):
    """Play with hypothesis choosing every action (claims rare, so games run on)."""
    g = FiveSons.new(players, seed=seed, dealer=dealer % players, ask_mode=mode)
    for _ in range(max_steps):
        if g.is_over:
            break
        legal = g.legal_actions()
        if g.phase == "claim":
            if data.draw(st.integers(0, 30), label="claim?") == 0:
                action = data.draw(st.sampled_from(legal[1:]), label="claim")
            else:
                action = NoClaim()
        else:
            action = data.draw(st.sampled_from(legal), label="action")
        yield g, action
        g.apply(action)
    yield g, None


@settings(max_examples=25)
@given(st.data(), games)
def test_property_rules_hold_at_every_step(data, setup) -> None:
    players, seed, mode, dealer = setup
    deck = set(five_sons_deck())
    hands0 = None
    for g, action in play_random(data, players, seed, mode, dealer):
        hands = [set(g.hand(s)) for s in range(players)]
        if hands0 is None:
            hands0 = hands
        # the cards never move; hands and the secret partition the deck
        assert hands == hands0
        assert set().union(*hands) | set(g.secret) == deck and sum(map(len, hands)) == 20
        assert g.secret[0] in FACE_CARDS and g.secret[1] in NUMBER_CARDS
        # eliminated seats never ask or claim
        if g.phase in ("ask", "claim"):
            assert g.to_move not in g.eliminated
        if g.phase == "answer":  # every answer is the answerer's step: a choice of two, or forced
            q = g.question
            held = [c for c in q.cards if c in hands[g.to_move]]
            legal = g.legal_actions()
            if len(held) == 2:
                assert legal == [Show(q.face), Show(q.number)] and not any(map(Game.is_forced, legal))
            else:
                assert legal == ([Show(held[0])] if held else [Neither()]) and Game.is_forced(legal[0])
                assert g.forced_action() == legal[0]
        # each seat's observation: its own hand, every size, no other hand
        for s in range(players):
            obs = g.observation(s)
            assert obs["hand"] == [c.code for c in g.hand(s)]
            assert obs["hand_sizes"] == [20 // players] * players
            for ev in obs["events"]:
                if ev["kind"] == "deal":
                    assert ev["private"] == {str(s): {"hand": obs["hand"]}}  # its own part alone
            assert (obs["legal"] != []) == (g.to_move == s)
        if action is None:
            break
    # every answer agrees with the hands; every claim with the secret
    ask = None
    for ev in g.events:
        p = ev.public
        if ev.kind == "ask":
            ask = p
        elif ev.kind == "answer":
            named = {p["face"], p["number"]}
            held = {c.code for c in hands0[p["answerer"]]} & named
            assert p["shown"] == bool(held)
            if p["shown"]:
                assert ev.private[p["asker"]]["card"] in held
            assert p["asker"] == ask["asker"] and named == {ask["face"], ask["number"]}
        elif ev.kind == "claim":
            assert p["right"] == ((p["face"], p["number"]) == tuple(c.code for c in g.secret))
    wrong = {e.public["seat"] for e in g.events if e.kind == "claim" and not e.public["right"]}
    assert g.eliminated == wrong
    if g.is_over:
        assert (g.winner is None) == (g.eliminated == set(range(players)))


@settings(max_examples=25)
@given(st.data(), games)
def test_property_record_replays_to_the_same_game(data, setup) -> None:
    players, seed, mode, dealer = setup
    for g, action in play_random(data, players, seed, mode, dealer, max_steps=80):  # noqa: B007
        if action is None:
            break
    text = g.record().to_json()
    again = Record.from_json(text).replay()
    assert again.record().to_json() == text
    assert [again.observation(s) for s in range(players)] == [g.observation(s) for s in range(players)]
    # any prefix replays too, and gives the same game as was played up to there
    k = data.draw(st.integers(0, len(g.record().actions)), label="prefix")
    part = Record.from_json(text).replay(k)
    assert part.history == g.history[: len(part.history)]


@settings(max_examples=30)
@given(games, st.integers(0, 200))
def test_property_pass_left_answers_go_leftwards(setup, q) -> None:
    players, seed, _, dealer = setup
    g = FiveSons.new(players, seed=seed, dealer=dealer % players, ask_mode="pass_left")
    asker = g.to_move
    ask = g.legal_actions()[q % 120]
    assert ask.target == (asker + 1) % players
    g.play(ask)  # ask, and let the cards answer (the forced answers)
    answerers = [e.public["answerer"] for e in g.events if e.kind == "answer"]
    if g.phase == "answer":
        answerers.append(g.to_move)
    assert answerers == [(asker + 1 + i) % players for i in range(len(answerers))]
    assert asker not in answerers


@settings(max_examples=30)
@given(games, st.integers(0, 479))
def test_property_a_refused_action_changes_nothing(setup, k) -> None:
    players, seed, mode, dealer = setup
    g = FiveSons.new(players, seed=seed, dealer=dealer % players, ask_mode=mode)
    before = g.record().to_json(), [g.observation(s) for s in range(players)]
    candidates = [
        Ask(g.to_move, "QC", "8H"),
        Claim("QC", "8H"),
        NoClaim(),
        Show("QC"),
        Ask(k % players, FACE_CARDS[k % 12], FACE_CARDS[(k + 1) % 12]),
    ]
    for bad in candidates:
        try:
            g.apply(bad)
        except ValueError:
            pass
        else:  # pragma: no cover - a failure
            raise AssertionError(f"{bad!r} accepted")
        assert (g.record().to_json(), [g.observation(s) for s in range(players)]) == before
