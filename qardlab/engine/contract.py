"""The generic game contract: checks every qardlab game must pass (after pgx's ``api_test``).

Shipped in the package so that any game (one of qardlab's, or a new one in a folder of its
own) runs the same checks from its tests: ``from qardlab.engine.contract import check_contract``.
The checks are plain ``assert`` statements (run them under pytest, not ``python -O``).
Game-neutral: each check takes games, factories and small game-specific hooks, never a
game's internals. Call :func:`check_contract` from a game's tests, or the single checks:

- :func:`check_declarations`: what the game class declares (docs/adding-a-game.md): a registered
  name, a title, its player counts, its words and codec as class methods (``describe_event``,
  ``action_to_json``, ``action_from_json``, ``action_text``; ``describe`` not overridden), bot
  levels whose bots play a legal step (the same for the same seed), the words of its levels, a
  knowledge adapter that imports, standing orders whose defaults and recommended values the game's
  own check takes, and set-up deals refused with a ValueError naming the bad value;
- :func:`check_orders` (every ``check_every`` steps of :func:`play_checked` and at the replayed
  positions, for a game that declares standing orders): every key the orders read is public, the
  same in each seat's observation as in the public one
  (:func:`qardlab.engine.seats.check_public_orders`), so the moment an order acts tells nobody
  anything; and the action the recommended orders give the seat to move is one the game accepts;
- :func:`check_common`: what ``Game`` promises of every game: the base observation keys
  (:data:`~qardlab.engine.game.BASE_OBSERVATION_KEYS`) for every seat and the teacher, the
  teacher's ``hands``, a transcript per seat, the one event shape for every viewer, in Python and
  JSON alike, read by ``describe_event`` into the transcript's words (:func:`check_event_shape`),
  the one seat check (IllegalAction naming a bad seat, in ``observation``, ``transcript`` and
  ``knowledge``), and a knowledge per seat where the game names a knowledge adapter;

- :func:`play_checked`: legal actions are never empty until the game is over, and bad
  actions at sampled steps raise IllegalAction and change nothing;
- :func:`check_illegal_changes_nothing`: the record, every seat's observation and the
  turn are byte-identical before and after a refused action;
- :func:`check_record_roundtrip`: a record saved and loaded replays to the same state;
- :func:`check_deterministic`: the same seed and the same bots give a byte-identical record;
- :func:`check_indistinguishable`: games that a seat cannot tell apart (the same actions
  from a different deal consistent with what the seat saw, built by a game hook) give
  that seat an identical observation and identical descriptions of the events;
- :func:`check_no_hidden_codes`: no card the seat cannot know (a game hook says which)
  appears in its observation's JSON or in the words of its events;
- :func:`check_live_indistinguishable`: LIVE positions, reached by ``apply`` call by call as a
  table plays (not rebuilt by replay): the same calls on a deal the seat cannot tell apart
  (someone else holding other cards, with a choice in one deal and forced in the other) give
  the seat, after every single call, the same observation, turn, phase, step and words.
  A game whose ``apply`` did more than one step when the next one was forced (the old Five
  Sons leak) fails here.

Secrecy is required, not optional: a game whose log has private or hidden parts (a hand dealt to one
seat, a card put aside face down) must give :func:`check_contract` both secrecy hooks,
``alternatives`` and ``hidden_cards``, and they must find something to compare; without them the
contract fails, saying what to add (:func:`check_secrecy_hooks`). A game whose log is all public
needs neither.
"""

from __future__ import annotations

import inspect
import json
import random
import re
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Mapping, Sequence

from ..cards import Card
from .game import BASE_OBSERVATION_KEYS, CHANCE, PUBLIC, Game, IllegalAction
from .record import Record
from .registry import find_game, import_object
from .seats import check_public_orders, order_action, orders_class

__all__ = [
    "ContractStats",
    "LiveTrace",
    "observation_json",
    "seat_texts",
    "snapshot",
    "play_checked",
    "check_illegal_changes_nothing",
    "check_record_roundtrip",
    "check_deterministic",
    "check_indistinguishable",
    "check_no_hidden_codes",
    "check_live_indistinguishable",
    "check_live",
    "check_contract",
    "check_common",
    "check_declarations",
    "check_event_shape",
    "check_secrecy_hooks",
    "check_orders",
    "secret_parts",
    "GENERIC_BAD_ACTIONS",
]

#: Values that are never an action of any game.
GENERIC_BAD_ACTIONS: tuple[Any, ...] = (
    None,
    12345,
    "nonsense",
    ("QS", "QS"),
    {"type": "no-such-action"},
    3.5,
)

BotsFactory = Callable[[int], "Sequence[Any] | Mapping[int, Any]"]


@dataclass
class ContractStats:
    """What a contract run covered, so tests can assert it was not vacuous."""

    games: int = 0
    steps: int = 0
    illegal_checked: int = 0
    positions: int = 0
    alternatives: int = 0
    hidden_scans: int = 0
    finished: int = 0
    #: live checks: alternative deals followed call by call, calls compared, and pairs of deals in
    #: which, at the same call, the mover was forced in one and had a choice in the other
    live_alternatives: int = 0
    live_calls: int = 0
    live_forced_vs_chosen: int = 0
    #: cards the hidden_cards hook named, summed over the scans (a hook that names none checks nothing)
    hidden_named: int = 0
    #: positions at which the game's standing orders were checked (:func:`check_orders`; 0: it has none)
    orders_checked: int = 0
    #: the first event with a private or hidden part, as "'kind' at step n (private)"; "" if the log had none
    secret_parts: str = ""
    notes: list[str] = field(default_factory=list)


@dataclass
class LiveTrace:
    """A game as it was played live: every ``apply`` call (the action, and whether chance made it)
    and copies of the live game taken along the way (the positions the live check starts from)."""

    calls: list[tuple[Any, bool]] = field(default_factory=list)
    snapshots: list[Game] = field(default_factory=list)


def _encode(game: Game) -> Callable[[Any], Any]:
    def default(o: Any) -> Any:
        if isinstance(o, Card):
            return o.code
        try:
            return game.action_to_json(o)
        except Exception:  # noqa: BLE001 - anything else: its text
            return repr(o)

    return default


def observation_json(game: Game, seat: int | None, *, with_legal: bool = True) -> str:
    """A seat's observation as canonical JSON text: ``Game.observation_json``, what a server sends.

    The Python observation must say the same (its own JSON encoding, actions through the codec,
    equals the server's data), so what the seat sees in Python and on the wire is one thing.
    """
    data = game.observation_json(seat)
    obs = dict(game.observation(seat))
    mine = json.loads(json.dumps(obs, sort_keys=True, default=_encode(game), ensure_ascii=False))
    assert mine == json.loads(json.dumps(data)), f"seat {seat}: observation_json differs from observation"
    if not with_legal:
        data = {k: v for k, v in data.items() if k != "legal"}
    return json.dumps(data, sort_keys=True, ensure_ascii=False)


def seat_texts(game: Game, seat: int | None) -> list[str]:
    """Every event the seat saw, in the game's words, as that seat saw it."""
    return [game.describe(e, seat) for e in game.events if e.visible_to(seat)]


def snapshot(game: Game) -> tuple:
    """Everything a refused action must leave untouched."""
    return (
        game.record().to_json(),
        tuple(observation_json(game, s, with_legal=False) for s in range(game.players)),
        len(game.legal_actions()),
        tuple(map(repr, game.legal_actions()[:3])),
        tuple(seat_texts(game, None)),
        game.to_move,
        game.is_over,
        game.step,
        len(game.events),
    )


def _quick(game: Game) -> tuple:
    return game.record().to_json(), game.step, len(game.events), game.to_move, game.is_over


def check_illegal_changes_nothing(game: Game, bad_actions: Iterable[Any]) -> int:
    """Each bad action raises IllegalAction (a ValueError) and leaves the game byte-identical.

    The record, step, event count and turn are compared after each refusal; the full snapshot
    (every seat's observation and the teacher's words) once after them all.
    """
    before = snapshot(game)
    quick = _quick(game)
    count = 0
    for bad in bad_actions:
        try:
            game.apply(bad)
        except IllegalAction as e:
            assert str(e), f"IllegalAction for {bad!r} has no message"
        else:  # pragma: no cover - a failure
            raise AssertionError(f"{bad!r} was accepted at step {game.step} ({game!r})")
        assert _quick(game) == quick, f"refused action {bad!r} changed the game"
        count += 1
    assert snapshot(game) == before, "a refused action changed a seat's view of the game"
    return count


def _next_action(game: Game, bots: Sequence[Any] | Mapping[int, Any]) -> Any:
    if game.to_move == CHANCE:
        return game.chance_outcome()
    return bots[game.to_move].act(game.observation(game.to_move))


def play_checked(
    game: Game,
    bots: Sequence[Any] | Mapping[int, Any],
    *,
    bad_actions: Callable[[Game], Iterable[Any]] | None = None,
    check_every: int = 7,
    max_steps: int = 5000,
    enumerated: Callable[[Game], bool] = lambda g: True,
    stats: ContractStats | None = None,
    trace: LiveTrace | None = None,
    snapshot_every: int = 10,
) -> Game:
    """Play ``game`` to its end with ``bots``, checking the protocol at every step.

    At every step: ``legal_actions()`` is non-empty while the game is not over (where
    ``enumerated(game)`` says the phase enumerates its actions) and every legal action is
    accepted by a copy; every ``check_every`` steps the bad actions (generic ones plus the
    game's hook) are refused with nothing changed, and the game's standing orders are checked
    (:func:`check_orders`: they read only public keys). ``apply`` is the only call that plays, one
    per step, as a live table plays; ``trace`` (if given) records the calls and a copy of the
    live game every ``snapshot_every`` calls and at the end.
    """
    stats = stats or ContractStats()
    if trace is not None and not trace.calls:  # the steps made before (a factory's deal): as calls
        blank = _blank_like(game)
        for a in game.history:
            trace.calls.append((a, blank.to_move == CHANCE))
            blank.apply(a)
    for i in range(max_steps):
        if game.is_over:
            assert game.to_move is None, "an over game must have no one to move"
            assert game.legal_actions() == [], "an over game must have no legal actions"
            stats.finished += 1
            break
        assert game.to_move is not None
        legal = game.legal_actions()
        if game.to_move != CHANCE and enumerated(game):
            assert legal, f"no legal actions at step {game.step} though the game is not over ({game!r})"
            sample = legal if len(legal) <= 3 else [legal[0], legal[len(legal) // 2], legal[-1]]
            for a in sample:
                game.copy().apply(a)  # legal means accepted
        if i % check_every == 0:
            stats.orders_checked += check_orders(game)
            bad = list(GENERIC_BAD_ACTIONS) + list(bad_actions(game) if bad_actions else [])
            stats.illegal_checked += check_illegal_changes_nothing(game, bad)
        chance = game.to_move == CHANCE
        action = _next_action(game, bots)
        game.apply(action)
        if trace is not None:
            trace.calls.append((action, chance))
            if len(trace.calls) % snapshot_every == 0:
                trace.snapshots.append(game.copy())
        stats.steps += 1
    else:  # pragma: no cover - a failure
        raise AssertionError(f"game not over after {max_steps} steps")
    if trace is not None:
        trace.snapshots.append(game.copy())
    stats.games += 1
    return game


def check_record_roundtrip(game: Game) -> Game:
    """Save and load the record; the replayed game has the same record, views and turn."""
    text = game.record().to_json()
    again = Record.from_json(text).replay()
    assert again.record().to_json() == text, "a replayed record differs from the original"
    assert again.to_move == game.to_move and again.is_over == game.is_over
    for s in range(game.players):
        assert observation_json(again, s) == observation_json(game, s), f"seat {s}'s view differs on replay"
    assert seat_texts(again, None) == seat_texts(game, None)
    return again


def check_deterministic(
    make_game: Callable[[int], Game], make_bots: BotsFactory, seed: int, max_steps: int = 5000
) -> str:
    """The same seed and the same (seeded) bots give byte-identical records."""
    texts = []
    for _ in range(2):
        game, bots = make_game(seed), make_bots(seed)
        for _ in range(max_steps):
            if game.is_over:
                break
            game.apply(_next_action(game, bots))
        texts.append(game.record().to_json())
    assert texts[0] == texts[1], f"seed {seed}: two runs gave different records"
    return texts[0]


def check_public_view(game: Game) -> None:
    """The public view (``public_observation()``): no seat, no hand, no legal action, and its events are
    exactly the log's public parts (every event that has one, with its kind and step), nothing private
    or hidden; in Python and as JSON alike."""
    obs = game.public_observation()
    assert obs["seat"] == PUBLIC and obs["hand"] == [] and obs["legal"] == [], (
        f"{game.name}: the public view has a seat's hand or moves: {obs['hand']!r} {obs['legal']!r}"
    )
    assert "hands" not in obs, f"{game.name}: the public view shows the hands"
    said = [{**e.public, "kind": e.kind, "step": e.step} for e in game.events if e.public]
    assert _plain_json(obs["events"]) == _plain_json(said), (
        f"{game.name}: the public view's events are not the log's public parts"
    )
    assert _plain_json(game.observation_json(PUBLIC)) == _plain_json(dict(obs), game), (
        f"{game.name}: the public view differs in JSON"
    )


def _plain_json(value: Any, game: Game | None = None) -> Any:
    enc = _encode(game) if game is not None else (lambda o: getattr(o, "code", str(o)))
    return json.loads(json.dumps(value, sort_keys=True, default=enc, ensure_ascii=False))


def check_indistinguishable(game: Game, seat: int, others: Iterable[Game]) -> int:
    """Each game in ``others`` must look exactly the same from ``seat`` (the hook guarantees that
    the seat cannot tell them apart by the rules): identical observation JSON and event texts."""
    mine = observation_json(game, seat)
    public = json.dumps(game.observation_json(PUBLIC), sort_keys=True, ensure_ascii=False)
    words = seat_texts(game, seat)
    count = 0
    for other in others:
        theirs = observation_json(other, seat)
        assert theirs == mine, (
            f"seat {seat} can tell apart two games it should not:\n{_first_diff(mine, theirs)}"
        )
        # what every seat knows is public: a game the seat cannot tell apart gives the same public view
        theirs_public = json.dumps(other.observation_json(PUBLIC), sort_keys=True, ensure_ascii=False)
        assert theirs_public == public, (
            f"the public view tells apart two games seat {seat} cannot:\n{_first_diff(public, theirs_public)}"
        )
        assert seat_texts(other, seat) == words, f"seat {seat}'s event texts tell the games apart"
        count += 1
    return count


def _blank_like(game: Game) -> Game:
    from qardlab.engine.record import _jsonable_options

    return type(game)._blank(game.players, _jsonable_options(game.options), game.seed)


def _live_view(game: Game, seat: int, since: int) -> tuple:
    """What ``seat`` sees right after a call: the server's observation, turn, phase, step, and the
    words of the events logged since step ``since`` (the earlier ones were compared before)."""
    words = tuple(game.describe(e, seat) for e in game.events if e.step >= since and e.visible_to(seat))
    return (
        game.observation_json(seat),
        game.to_move,
        getattr(game, "phase", None),
        game.step,
        game.is_over,
        words,
    )


def check_live_indistinguishable(
    trace: LiveTrace,
    position: Game,
    seat: int,
    others: Iterable[Game],
    stats: ContractStats | None = None,
) -> int:
    """Follow the live calls of ``trace`` on ``position``'s deal and on each game of ``others`` (deals
    ``seat`` cannot tell apart from ``position``'s, by the game's hook), call by call with ``apply``
    from a blank game, up to ``position``'s step; after every call the seat must see exactly the same
    (observation JSON, ``to_move``, phase, step, the words of its events).

    The others' deals are their chance actions, at the steps where chance moved live. A call the
    rules refuse in an other deal (a card only one deal's mover holds) ends that comparison: from
    there the deal is no alternative, which is the mover's business, not the seat's. Returns how
    many other deals were followed.
    """
    stats = stats if stats is not None else ContractStats()
    chance_at: list[int] = []
    mine = _blank_like(position)
    calls: list[tuple[Any, bool]] = []
    for action, chance in trace.calls:  # the live calls that led to ``position``
        if mine.step >= position.step:
            break
        if chance:
            chance_at.append(mine.step)
        mine.apply(action)
        calls.append((action, chance))
    ours = _blank_like(position)
    views = []  # what the seat sees after each call, on position's own deal
    forced = []  # whether the mover was forced at each call
    for action, _chance in calls:
        since = ours.step
        forced.append(ours.forced_action() is not None)
        ours.apply(action)
        views.append(_live_view(ours, seat, since))
    forced.append(ours.forced_action() is not None)
    count = 0
    for other in others:
        deals = [other.history[k] for k in chance_at if k < len(other.history)]
        if len(deals) != len(chance_at):
            continue
        theirs = _blank_like(position)
        dealt = iter(deals)
        count += 1
        stats.live_alternatives += 1
        for n, (action, chance) in enumerate(calls):
            since = theirs.step
            forced_theirs = theirs.forced_action() is not None
            try:
                theirs.apply(next(dealt) if chance else action)
            except IllegalAction:
                break
            if forced[n] != forced_theirs:
                stats.live_forced_vs_chosen += 1
            stats.live_calls += 1
            a, b = views[n], _live_view(theirs, seat, since)
            if a != b:
                what = ("observation", "to_move", "phase", "step", "is_over", "words")
                diff = next(w for w, x, y in zip(what, a, b) if x != y)
                k = what.index(diff)
                detail = (
                    _first_diff(json.dumps(a[0], sort_keys=True), json.dumps(b[0], sort_keys=True))
                    if k == 0
                    else f"{a[k]!r} vs {b[k]!r}"
                )
                now = forced[n + 1] != (theirs.forced_action() is not None)
                raise AssertionError(
                    f"live: seat {seat} can tell apart two deals it should not, right after call #{n} "
                    f"({action!r}; the mover forced in one deal only, before the call: "
                    f"{forced[n] != forced_theirs}, after it: {now}): {diff} differs:\n{detail}"
                )
    return count


def check_live(
    trace: LiveTrace,
    alternatives: Callable[[Game, int, random.Random], Iterable[Game]],
    rng: random.Random,
    *,
    positions: int = 3,
    per_seat: int = 3,
    stats: ContractStats | None = None,
) -> ContractStats:
    """The live check at ``positions`` of the trace's snapshots (spread out, the end included), for
    every seat, on at most ``per_seat`` alternative deals each."""
    stats = stats if stats is not None else ContractStats()
    snaps = trace.snapshots
    last = len(snaps) - 1
    picks = sorted({last} | {last * (k + 1) // (positions + 1) for k in range(positions)})
    for i in picks:
        position = snaps[i]
        for seat in range(position.players):
            others = list(alternatives(position, seat, rng))[:per_seat]
            check_live_indistinguishable(trace, position, seat, others, stats)
    return stats


def _first_diff(a: str, b: str) -> str:
    i = next((k for k, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
    return f"...{a[max(0, i - 80) : i + 80]}...\n   vs\n...{b[max(0, i - 80) : i + 80]}..."


def _card_patterns(card: Card) -> list[re.Pattern]:
    code = re.escape(card.code)
    sym = re.escape(card.symbol)
    return [
        re.compile(rf"(?<![A-Za-z0-9]){code}(?![A-Za-z0-9])"),
        re.compile(rf"(?<![0-9]){sym}"),
        re.compile(re.escape(card.name)),
    ]


def check_no_hidden_codes(game: Game, seat: int, hidden: Iterable[Card]) -> None:
    """No card of ``hidden`` (cards the seat cannot know the place of, and that were never named
    aloud) appears in the seat's observation JSON (legal-action lists aside: listing every card as
    a choice is fine) nor, as code, symbol or name, in the words of its events."""
    text = observation_json(game, seat, with_legal=False)
    words = "\n".join(seat_texts(game, seat))
    for card in hidden:
        for pat in _card_patterns(card)[:1]:
            m = pat.search(text)
            assert m is None, (
                f"seat {seat}'s observation mentions hidden card {card}: "
                f"...{text[m.start() - 60 : m.end() + 60]}..."
            )
        for pat in _card_patterns(card):
            m = pat.search(words)
            assert m is None, (
                f"seat {seat}'s event texts mention hidden card {card}: "
                f"...{words[m.start() - 60 : m.end() + 60]}..."
            )


def check_common(game: Game) -> None:
    """What ``Game`` builds for every game, at ``game``'s position (see the module docstring)."""
    for seat in [None, *range(game.players)]:
        obs = game.observation(seat)
        missing = [k for k in BASE_OBSERVATION_KEYS if k not in obs]
        assert not missing, f"{game.name}: the observation of seat {seat} lacks the base keys {missing}"
        assert obs["game"] == game.name and obs["seat"] == seat and obs["players"] == game.players
        assert obs["step"] == game.step and obs["to_move"] == game.to_move and obs["is_over"] == game.is_over
        assert len(obs["names"]) == game.players and all(isinstance(n, str) and n for n in obs["names"])
        if seat is None:
            assert obs["hand"] == [] and len(obs["hands"]) == game.players, "the teacher sees every hand"
        else:
            assert obs["hand"] == [c.code for c in game.hand(seat)], f"seat {seat}: hand is not its cards"
        words = game.transcript(seat)
        assert all(isinstance(w, str) and w for w in words)
        if seat is not None and game.knowledge_adapter:
            k = game.knowledge(seat)
            assert k.seat == seat, f"{game.name}: knowledge({seat}) is another seat's"
    check_public_view(game)
    check_event_shape(game)
    for bad in (-1, game.players, True, "0", 1.5):
        for call in (game.observation, game.transcript, game.knowledge, game.hand):
            try:
                call(bad)
            except IllegalAction as e:
                assert repr(bad) in str(e), f"{call.__name__}({bad!r}): the error does not name it: {e}"
            else:  # pragma: no cover - a game's bug
                raise AssertionError(f"{game.name}.{call.__name__}({bad!r}) was not refused")


def check_event_shape(game: Game) -> None:
    """The one event shape (:meth:`~qardlab.engine.events.Event.seen_by`), for every viewer at ``game``'s
    position: each event of its JSON observation is the same in Python (``private`` keyed by seats as
    strings); ``private`` holds only the parts the viewer may see (a seat's own, none for the public view);
    and the game's one words function, the class method ``describe_event``, says of the JSON events what
    the transcript says: a table that has only the observation reads the same log as the game's owner."""
    cls, names = type(game), game.seat_names()
    for viewer in (None, *range(game.players), PUBLIC):
        events = game.observation_json(viewer)["events"]
        python = game.observation(viewer)["events"]
        assert _plain_json(python, game) == events, (
            f"{game.name}: the events of {viewer!r}'s observation differ in Python and in JSON (one shape)"
        )
        for e in events:
            parts = e.get("private", {})
            allowed = set() if viewer == PUBLIC else {str(viewer)} if viewer is not None else None
            assert allowed is None or set(parts) <= allowed, (
                f"{game.name}: {viewer!r}'s event {e['kind']!r} at step {e['step']} holds the private parts "
                f"of {sorted(set(parts) - allowed)}: a seat sees only its own"
            )
        words = [cls.describe_event(e, viewer, names) for e in events]
        assert words == game.transcript(viewer), (
            f"{game.name}: describe_event of {viewer!r}'s JSON events differs from its transcript"
        )


#: set-up deals no game takes (``deal_from_json``): each must be refused with a ValueError naming it
_JUNK_DEALS: tuple[Any, ...] = (7, "nonsense", [[]], None)
#: ... and a deal object with a key no game knows, refused naming the key
_UNKNOWN_KEY = "no_such_key"


def _refusal(cls: type[Game], deal: Any) -> str:
    """The message refusing ``deal`` as the classroom takes a set-up deal: ``deal_from_json``, then the deal
    action applied to a blank game (which validates it as any action). AssertionError if accepted."""
    try:
        first, options = cls.deal_from_json(deal, {})
        game = cls._blank(cls.min_players, dict(options), None)
        game.apply(game.action_from_json(first) if isinstance(first, dict) else first)
    except ValueError as e:  # IllegalAction and RecordError are ValueErrors
        return str(e)
    raise AssertionError(f"{cls.__name__}: the set-up deal {deal!r} was accepted")


def check_declarations(cls: type[Game], seed: int = 3) -> None:
    """What a game class declares for the rest of qardlab, as docs/adding-a-game.md says.

    ``name`` is a registry name (lower case, digits, ``_``) under which :func:`find_game` finds the class;
    ``title`` is words for people; ``min_players <= max_players``; ``bot_levels`` names at least one level,
    each a ``"module:Class"`` whose ``Class(seed)`` is a bot that, at the first step of a new game, gives an
    action the game accepts (two bots of one seed give the same); ``bot_level_titles`` gives words only for
    declared levels; a ``knowledge_adapter`` given imports and is callable; ``standing_orders`` (if given)
    names a :class:`~qardlab.engine.seats.StandingOrders` whose ``reads`` are key names, every order has
    words (``labels``) and whose own check takes its ``defaults`` and ``recommended``; a ``table_widget``
    given is a ``"module:Class"`` string (not imported: that is the widgets' business); ``deal_from_json``
    refuses a set-up deal that is not the game's with a ValueError naming it (an unknown key by its name).
    """
    name = cls.__dict__.get("name", "")
    assert isinstance(name, str) and re.fullmatch(r"[a-z][a-z0-9_]*", name), (
        f"{cls.__name__}: name must be a registry name (lower case, digits, _), not {name!r}"
    )
    assert find_game(name) is cls, f"{cls.__name__}: find_game({name!r}) is not this class"
    assert isinstance(cls.title, str) and cls.title.strip(), f"{name}: title must be words for people"
    low, high = cls.min_players, cls.max_players
    assert all(isinstance(n, int) and not isinstance(n, bool) for n in (low, high)) and 1 <= low <= high, (
        f"{name}: min_players {low!r} and max_players {high!r} must be whole numbers, 1 <= min <= max"
    )
    assert cls.player_counts() == tuple(range(low, high + 1))
    levels = cls.bot_levels
    assert isinstance(levels, dict) and levels, f"{name}: bot_levels must name at least one level"
    for level, path in levels.items():
        assert isinstance(level, str) and level and isinstance(path, str) and ":" in path, (
            f"{name}: bot level {level!r} -> {path!r} is not a level name and a 'module:Class'"
        )
    titles = cls.bot_level_titles
    unknown = sorted(set(titles) - set(levels))
    assert not unknown, f"{name}: bot_level_titles names levels it does not declare: {unknown}"
    assert all(isinstance(t, str) and t.strip() for t in titles.values()), f"{name}: a level's title is empty"
    assert [cls.bot_level_title(lv) for lv in levels] == [titles.get(lv, lv) for lv in levels]
    game = cls.new(low, seed=seed)
    while game.to_move == CHANCE:
        game.apply(game.chance_outcome())
    if game.to_move is not None:
        obs = game.observation(game.to_move)
        for level, make in cls.bot_makers().items():
            action = make(seed).act(obs)
            try:
                game.copy().apply(action)
            except IllegalAction as e:
                raise AssertionError(
                    f"{name}: the {level!r} bot's first action {action!r} is refused: {e}"
                ) from None
            again = make(seed).act(game.observation(game.to_move))
            assert repr(again) == repr(action), f"{name}: two {level!r} bots of seed {seed} act differently"
    if cls.knowledge_adapter:
        assert callable(import_object(cls.knowledge_adapter)), f"{name}: knowledge_adapter is not a function"
    orders = orders_class(cls)  # ValueError unless standing_orders names a StandingOrders class
    assert isinstance(orders.reads, tuple) and all(isinstance(k, str) for k in orders.reads), (
        f"{name}: its standing orders' reads must be a tuple of observation keys, not {orders.reads!r}"
    )
    unlabelled = sorted(set(orders.defaults) - set(orders.labels))
    assert not unlabelled, f"{name}: its standing orders {unlabelled} have no words for people (labels)"
    for what in ("defaults", "recommended"):
        given = getattr(orders, what)
        try:
            orders.check(given)
        except ValueError as e:
            raise AssertionError(
                f"{name}: its standing orders' {what} {dict(given)!r} are refused: {e}"
            ) from None
    if cls.table_widget:
        assert isinstance(cls.table_widget, str) and ":" in cls.table_widget, (
            f"{name}: table_widget must be a 'module:Class' string, not {cls.table_widget!r}"
        )
    for method in ("describe_event", "action_to_json", "action_from_json", "action_text"):
        kind = type(inspect.getattr_static(cls, method))
        assert kind in (classmethod, staticmethod), (
            f"{name}: {method} must be a class method (a view reads events and encodes actions without a "
            f"game), not a {kind.__name__}"
        )
    overrides = [c.__name__ for c in cls.__mro__ if c is not Game and "describe" in vars(c)]
    assert not overrides, (
        f"{name}: {overrides[0]} overrides describe; a game's words are its class method describe_event "
        "(describe calls it)"
    )
    for action in game.legal_actions()[:5] if game.to_move is not None else []:
        data = cls.action_to_json(action)
        again = cls.action_to_json(cls.action_from_json(json.loads(json.dumps(data))))
        assert again == data, f"{name}: the codec does not round-trip {action!r}: {data!r} -> {again!r}"
    for deal in _JUNK_DEALS:
        said = _refusal(cls, deal)
        assert repr(deal) in said, (
            f"{name}: refusing the set-up deal {deal!r}, the error does not name it: {said}"
        )
    said = _refusal(cls, {"hands": [], _UNKNOWN_KEY: 1})
    assert _UNKNOWN_KEY in said, (
        f"{name}: refusing a deal with the key {_UNKNOWN_KEY!r}, the error does not name it: {said}"
    )


def check_orders(game: Game) -> int:
    """The standing orders of ``game``'s class at its position (1), or nothing for a game that declares none
    (0). Every key the orders read is in the public observation and the same in each seat's observation as
    there (:func:`~qardlab.engine.seats.check_public_orders`): an order that reads a seat's hand, its legal
    actions or anything private acts at moments that tell the others what the seat holds, and fails here.
    The action the game's recommended orders give the seat to move now, if any, is one the game accepts."""
    kind = orders_class(type(game))
    if not kind.defaults and not kind.reads:
        return 0
    public = game.observation(PUBLIC)
    absent = [k for k in kind.reads if k not in public]
    assert not absent, (
        f"{game.name}: its standing orders read {absent}, which the public observation lacks (an order reads "
        "only public keys of the observation)"
    )
    check_public_orders(game)
    seat = game.to_move
    if kind.recommended and not game.is_over and seat is not None and seat != CHANCE:
        orders = {**kind.defaults, **kind.check(kind.recommended)}
        action = order_action(type(game), public, seat, orders)
        if action is not None:
            try:
                game.copy().apply(action)
            except IllegalAction as e:
                raise AssertionError(
                    f"{game.name}: the recommended standing orders give seat {seat} {action!r} at step "
                    f"{game.step}, which the game refuses: {e}"
                ) from None
    return 1


def secret_parts(game: Game) -> str:
    """Where the game's log first has a private or hidden part, as "'deal' at step 0 (private, hidden)";
    "" for a log that is all public (every seat sees everything said)."""
    for e in game.events:
        parts = [p for p, v in (("private", e.private), ("hidden", e.hidden)) if v]
        if parts:
            return f"{e.kind!r} at step {e.step} ({', '.join(parts)})"
    return ""


def check_secrecy_hooks(
    name: str,
    stats: ContractStats,
    alternatives: Any,
    hidden_cards: Any,
    live_positions: int,
    checked_by: str,
) -> None:
    """A game with private or hidden parts (``stats.secret_parts``) was given both secrecy hooks, and they
    found something: deals a seat cannot tell apart at some position (also followed live), and some card
    whose place a seat cannot know. Else AssertionError saying what to add (see docs/adding-a-game.md).
    ``checked_by`` names where the game's secrecy is checked instead (another call of the contract on
    positions its hooks can build); it is noted in ``stats.notes``."""
    if not stats.secret_parts:
        return
    if checked_by:
        assert isinstance(checked_by, str) and checked_by.strip()
        stats.notes.append(f"secrecy checked by {checked_by}")
        return
    missing = [
        h for h, given in (("alternatives", alternatives), ("hidden_cards", hidden_cards)) if given is None
    ]
    assert not missing, (
        f"{name} logs private or hidden parts (its event {stats.secret_parts}), so the contract must check "
        f"that no seat learns them, but it was given no {' and no '.join(missing)}. Add "
        + "; ".join(_HOOKS[h] for h in missing)
        + " (docs/adding-a-game.md, 'Its tests')."
    )
    assert stats.alternatives > 0, (
        f"{name}: the alternatives hook gave no game at any position checked, so no seat's view was compared "
        "with another deal's: give games on other deals (hands, secrets) that the seat cannot tell apart"
    )
    if live_positions:
        assert stats.live_alternatives > 0, (
            f"{name}: no alternative deal was followed live, call by call (the hook gave none at the live "
            "positions, or none with the same chance steps)"
        )
    assert stats.hidden_named > 0, (
        f"{name}: the hidden_cards hook named no card at any position, so no seat's view was searched for "
        "one: name the cards whose place the seat cannot know and which were never said aloud"
    )


_HOOKS = {
    "alternatives": "alternatives=f(game, seat, rng) -> games on other deals that seat cannot tell apart "
    "from game by the rules (the same actions replayed on another deal consistent with what it saw)",
    "hidden_cards": "hidden_cards=f(game, seat) -> the cards whose place seat cannot know and which were "
    "never named aloud",
}


def check_contract(
    make_game: Callable[[int], Game],
    make_bots: BotsFactory,
    seeds: Iterable[int],
    *,
    bad_actions: Callable[[Game], Iterable[Any]] | None = None,
    alternatives: Callable[[Game, int, random.Random], Iterable[Game]] | None = None,
    hidden_cards: Callable[[Game, int], Iterable[Card]] | None = None,
    positions: int = 5,
    check_every: int = 7,
    max_steps: int = 5000,
    enumerated: Callable[[Game], bool] = lambda g: True,
    live_positions: int = 3,
    secrecy_checked_by: str = "",
) -> ContractStats:
    """Run every check on one game per seed; return what was covered.

    ``make_game(seed)`` gives a fresh game (dealt or not); ``make_bots(seed)`` its bots.
    Hooks: ``bad_actions(game)`` game-specific refused actions for the current state;
    ``alternatives(game, seat, rng)`` games the seat cannot tell apart from ``game``;
    ``hidden_cards(game, seat)`` the cards whose place the seat cannot know and which were
    never named aloud. ``positions`` positions of each game (spread over its history, the
    end included) get the replay, indistinguishability and hidden-card checks, and
    ``live_positions`` positions of the live game the live check (:func:`check_live`).

    The class's declarations are checked once (:func:`check_declarations`). A game whose log
    has private or hidden parts must give both secrecy hooks (:func:`check_secrecy_hooks`:
    the contract fails, saying what to add, as soon as the first game shows such a part);
    ``secrecy_checked_by`` may instead name the test that checks this game's secrecy on
    positions its hooks can build (Hearts' whole matches: its single hands).
    """
    stats = ContractStats()
    seeds = list(seeds)
    for k, seed in enumerate(seeds):
        trace = LiveTrace()
        first = make_game(seed)
        if k == 0:
            check_declarations(type(first))
        game = play_checked(
            first,
            make_bots(seed),
            bad_actions=bad_actions,
            check_every=check_every,
            max_steps=max_steps,
            enumerated=enumerated,
            stats=stats,
            trace=trace,
        )
        if not stats.secret_parts:
            stats.secret_parts = secret_parts(game)
            missing = alternatives is None or hidden_cards is None
            if stats.secret_parts and missing and not secrecy_checked_by:  # fail now, before the long checks
                check_secrecy_hooks(game.name, stats, alternatives, hidden_cards, 0, "")
        if alternatives is not None and live_positions:
            check_live(trace, alternatives, random.Random(seed + 1), positions=live_positions, stats=stats)
        record = game.record()
        check_record_roundtrip(game)
        n = len(record.actions)
        picks = sorted({n} | {round(n * (k + 1) / (positions + 1)) for k in range(positions)})
        rng = random.Random(seed)
        for k in picks:
            g = record.replay(k)
            stats.positions += 1
            check_record_roundtrip(g)
            check_common(g)
            stats.orders_checked += check_orders(g)
            for seat in range(g.players):
                if hidden_cards is not None:
                    hidden = list(hidden_cards(g, seat))
                    check_no_hidden_codes(g, seat, hidden)
                    stats.hidden_scans += 1
                    stats.hidden_named += len(hidden)
                if alternatives is not None:
                    stats.alternatives += check_indistinguishable(g, seat, alternatives(g, seat, rng))
    for seed in seeds[:3]:
        check_deterministic(make_game, make_bots, seed, max_steps)
    if seeds:
        name = type(game).name
        check_secrecy_hooks(name, stats, alternatives, hidden_cards, live_positions, secrecy_checked_by)
    return stats
