"""The Game protocol every qardlab game follows, and what the games share.

A game is a state machine over *actions*. Chance is part of the history (as in
OpenSpiel): the deal is applied as an action of the chance player, so a record holds
every deal and replays exactly without its seed. A game:

- says whose turn it is (``to_move``: a seat, ``CHANCE`` while a deal is due, or
  ``None`` once the game is over) and which actions are legal (``legal_actions()``);
- applies one step at a time (``apply()``): an illegal action raises
  :class:`IllegalAction` and leaves the game exactly as it was. A step the rules force
  (a Five Sons answer from a seat holding one named card, or neither) is a step like any
  other, given by the seat to move (a bot, or a table on the bots' clock): ``apply``
  never applies it by itself, so no seat can tell at any moment whether the mover had a
  choice. ``play()`` is ``apply`` followed by ``apply_forced()``, for scripts and batch
  runs that want the forced steps taken at once;
- logs what happened in an :class:`~qardlab.engine.events.EventLog` whose events say
  who may see them, so ``observation(seat)`` is a filter of the log plus the seat's
  own hand (``observation(None)``: the teacher's, the whole log plus every hand), and
  ``observation_json(seat)`` is the same as plain JSON data (what a server sends);
- draws every random choice from its own seeded ``random.Random``.

Subclasses implement ``_validate(action)`` (return the normalised action or raise
IllegalAction, touching nothing), ``_do(action)`` (change the state, log events; it
is only given validated actions and must not fail), and two class methods, so that no view needs
a game to read one: the JSON codec of their actions (``action_to_json``, ``action_from_json``) and
their words (``describe_event(event, seat, names)``: one event of an observation, in the one shape
every viewer gets, in that viewer's words). ``apply`` is the one place that orders the steps
(validate, record, do; ``play`` adds the forced steps after), so "a rejected action changes
nothing" holds for every game by construction. A game whose commonest step is worth a fused path may also give
``_step_fast(action)`` (see :meth:`Game._step_fast`): ``apply`` tries it first, and it
either does exactly what the general path would (True) or nothing at all (False); no game
overrides ``apply``.

docs/adding-a-game.md is the guide: what a game declares and writes, and its tests. The generic contract
(:func:`qardlab.engine.contract.check_contract`) checks all of it; a game whose log has private or hidden
parts must give the contract its two secrecy hooks (``alternatives``, ``hidden_cards``), or it fails.
"""

from __future__ import annotations

import copy as _copy
import json
import random
from abc import ABC, abstractmethod
from collections.abc import Mapping as _Mapping
from typing import Any, ClassVar, Optional, Sequence

from .events import EventLog
from .record import Record
from .registry import GAMES, import_object, register

_Random = random.Random
_new_random = random.Random.__new__
_seed_random = random.Random.__mro__[1].seed  # _random.Random.seed: what Random.seed calls for an int

__all__ = [
    "Game",
    "IllegalAction",
    "CHANCE",
    "PUBLIC",
    "Observation",
    "BASE_OBSERVATION_KEYS",
    "check_seed",
    "check_names",
]

#: ``to_move`` while chance (a shuffle and deal) is due.
CHANCE = -1

#: The viewer of the public view (``observation(PUBLIC)``, :meth:`Game.public_observation`): someone watching
#: the table from no seat, who sees only what is said aloud (OpenSpiel's public observer).
PUBLIC = "public"


class IllegalAction(ValueError):
    """An action the rules do not allow now. The message says what was wrong and what is legal."""


#: The keys every game's observation has (:meth:`Game.base_observation` builds them), in this order.
BASE_OBSERVATION_KEYS: tuple[str, ...] = (
    "game",
    "seat",
    "players",
    "names",
    "step",
    "to_move",
    "is_over",
    "phase",
    "hand",
    "events",
    "legal",
)


class Observation(dict):
    """What one seat knows: a plain dict (JSON-friendly) built only from that seat's view.

    Keys every game provides (:data:`BASE_OBSERVATION_KEYS`, built by
    :meth:`Game.base_observation`): ``game``, ``seat``, ``players``, ``names``, ``step``,
    ``to_move``, ``is_over``, ``phase``, ``hand`` (the seat's cards, as codes), ``events``
    (the log as the seat saw it), and ``legal`` (the seat's legal actions when it is to
    move, else ``[]``). Games add their own public keys (hand sizes, scores...).

    The teacher's observation (``seat`` None) has the same keys, built the same way from
    the whole log, with ``hand`` empty, ``legal`` the mover's legal actions, and ``hands``
    (every seat's cards) besides; a game with a secret adds it (Five Sons: ``secret``).
    """

    def __getattr__(self, name: str) -> Any:
        try:
            return self[name]
        except KeyError:
            raise AttributeError(name) from None


class Game(ABC):
    """Base class of the games. See the module docstring for the contract."""

    #: registry name used in records ("five_sons", "hearts")
    name: ClassVar[str] = ""
    #: the game's name for people ("Hearts"); apps and errors use it
    title: ClassVar[str] = ""
    #: the player counts the game allows (apps offer ``range(min_players, max_players + 1)``)
    min_players: ClassVar[int] = 1
    max_players: ClassVar[int] = 1
    #: ``"module:function"`` turning one seat's observation into a deduction ``Knowledge``
    #: (imported only when :meth:`knowledge` is called); "" for a game with no knowledge adapter
    knowledge_adapter: ClassVar[str] = ""
    #: ``"module:Class"`` of the game's table widget (imported only by ``qardlab.widgets.table``, so
    #: engine and games never import ipywidgets); "" for the generic table of ``qardlab.widgets``
    table_widget: ClassVar[str] = ""
    #: the bots a table, an app or a classroom offers, by level name, weakest first (at least one):
    #: ``"module:Class"`` of a bot made as ``Class(seed)`` (imported only by :meth:`bot_makers`). The one
    #: place a game's bot levels are declared; the default is a bot that picks any legal action
    bot_levels: ClassVar[dict[str, str]] = {"random": "qardlab.engine.bots:RandomBot"}
    #: words for people for some of the levels ("card counting"), by level name: what an app's menu shows
    #: (:meth:`bot_level_title`); a level not named here shows its name
    bot_level_titles: ClassVar[dict[str, str]] = {}
    #: ``"module:Class"`` of the standing orders a person at a seat may give (a
    #: :class:`~qardlab.engine.seats.StandingOrders` subclass in the game's folder, such as Five Sons'
    #: "pass on claims unless I claim"); "" for none. The seat driver applies them; the contract checks
    #: that they read only public keys
    standing_orders: ClassVar[str] = ""
    #: the games by name (:data:`qardlab.engine.registry.GAMES`), filled by ``__init_subclass__``; records
    #: look games up there
    registry: ClassVar[dict[str, type]] = GAMES

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        # only a class that names itself registers: a subclass that inherits the name (a test's
        # variant of a game) does not replace the game in the registry that records replay from
        if cls.__dict__.get("name"):
            register(cls)

    def __init__(self, players: int, options: dict[str, Any], seed: Optional[int]) -> None:
        if type(seed) is not int and seed is not None:  # (an int or None is what check_seed gives back)
            seed = check_seed(seed)
        if "names" in options:
            options = {**options, "names": check_names(options["names"], players)}
        self.players = players
        self.options = options
        self.seed = seed
        self._rng: Optional[random.Random] = None  # made at the first draw: see ``rng``
        self.history: list[Any] = []  # every applied action, chance included, normalised
        self.events = self._new_log()

    def _new_log(self) -> EventLog:
        """The game's event log, made once by ``__init__`` (after ``history``): a plain ``EventLog``;
        a game with a log of its own (Hearts' lazy one) makes that instead, so none is thrown away."""
        return EventLog()

    @property
    def rng(self) -> random.Random:
        """The game's own ``random.Random(seed)``, made when first drawn from: the same draws as one made
        with the game (nothing draws before), and a game that never draws (a Hearts hand from a given
        deal) never pays for a seedless Random's seeding from the system (~20 us)."""
        rng = self._rng
        if rng is None:
            seed = self.seed
            if seed is None:
                rng = self._rng = random.Random()
            else:  # random.Random(seed) for an integer seed (check_seed), without its Python-level frames
                rng = self._rng = _new_random(_Random)
                _seed_random(rng, seed)
                rng.gauss_next = None
        return rng

    @rng.setter
    def rng(self, value: random.Random) -> None:
        self._rng = value

    # -- the protocol -----------------------------------------------------------------
    @property
    @abstractmethod
    def to_move(self) -> Optional[int]:
        """The seat to act, ``CHANCE`` when a deal is due, ``None`` when over."""

    @property
    @abstractmethod
    def is_over(self) -> bool: ...

    @abstractmethod
    def legal_actions(self) -> list[Any]:
        """The legal actions of ``to_move``, in a stable order (empty once over)."""

    @abstractmethod
    def _validate(self, action: Any) -> Any:
        """Return the normalised action, or raise IllegalAction. Must not change state."""

    @abstractmethod
    def _do(self, action: Any) -> None:
        """Apply a validated action: change the state and log its events."""

    def _step_fast(self, action: Any) -> bool:
        """The fast-path hook: validate, record and do ``action`` in one go, when cheap (True), or
        change nothing and leave it to the general path (False, the default).

        A game gives it for its commonest steps. It must end in exactly the state, history and log
        that ``_validate``, recording and ``_do`` would give, and may only accept an action those
        accept. (Hearts fuses a legal card's play and a whole pass here; its tests play a match both
        ways.)"""
        return False

    def _forced(self) -> Any:
        """The action the rules force now, if any (None by default); see :meth:`forced_action`."""
        return None

    def chance_outcome(self) -> Any:
        """At a chance node (``to_move == CHANCE``), draw the outcome from the game's RNG."""
        raise IllegalAction("no chance event is due now")

    @abstractmethod
    def observation(self, seat: Optional[int]) -> Observation:
        """What ``seat`` knows now, built from its view of the log and its own hand.

        ``None`` is the teacher, who sees everything (see :class:`Observation`).
        """

    @classmethod
    @abstractmethod
    def action_to_json(cls, action: Any) -> Any:
        """An action in the record encoding (JSON data): what records, observations' ``legal`` and a
        classroom's ``act`` messages hold. A class method: a view encodes a click without any game.
        ValueError naming what is not an action of the game."""

    @classmethod
    @abstractmethod
    def action_from_json(cls, data: Any) -> Any:
        """The action of record-encoded ``data`` (see :meth:`action_to_json`); ValueError naming what is
        wrong. The action is validated when it is applied, as any action."""

    @classmethod
    @abstractmethod
    def _blank(cls, players: int, options: dict[str, Any], seed: Optional[int]) -> "Game":
        """A game before its first action: what a record replays from."""

    @classmethod
    def new(cls, players: Optional[int] = None, seed: Optional[int] = None, **options: Any) -> "Game":
        """A game of ``players`` (default ``min_players``) set up with ``options`` and dealt from its
        seeded RNG (the chance steps due at the start drawn and applied). Games with their own
        ``new`` keep its ``players`` and ``seed``."""
        game = cls._blank(cls.min_players if players is None else players, dict(options), seed)
        while game.to_move == CHANCE:
            game.apply(game.chance_outcome())
        return game

    @classmethod
    def bot_makers(cls) -> dict[str, Any]:
        """Bot level name -> maker(seed), weakest first (from :attr:`bot_levels`)."""
        return {level: import_object(path) for level, path in cls.bot_levels.items()}

    @classmethod
    def bot_level_title(cls, level: str) -> str:
        """The words for people of a bot level (:attr:`bot_level_titles`, else the level's name)."""
        return cls.bot_level_titles.get(level, level)

    @classmethod
    def deal_from_json(cls, deal: Any, options: dict[str, Any]) -> tuple[Any, dict[str, Any]]:
        """A set-up deal (JSON data: a teacher's or a test's chosen cards) as the game's deal action in the
        record encoding, and the options it implies. A deal that is not the game's raises ValueError naming
        the bad value (an unknown key by its name); the action is validated when it is applied, as any
        action. The default, for a game that takes no set-up deal, refuses every one."""
        raise ValueError(f"{cls.title or cls.name} takes no set-up deal, so not {deal!r:.80}")

    @classmethod
    def player_counts(cls) -> tuple[int, ...]:
        """The player counts the game allows, smallest first (what an app offers)."""
        return tuple(range(cls.min_players, cls.max_players + 1))

    # -- shared behaviour -------------------------------------------------------------
    def apply(self, action: Any) -> "Game":
        """Apply exactly one step of ``to_move`` (a forced one included) and nothing after it.

        IllegalAction (nothing changed) if ``action`` is not allowed now. A forced step that
        falls due after it is left for the seat to give (see :meth:`forced_action`), so the
        game looks the same to every other seat whether or not the mover had a choice.
        """
        if self._step_fast(action):  # the game's fused path for its commonest step, if any
            return self
        return self._apply_general(action)

    def _apply_general(self, action: Any) -> "Game":
        """The engine's general step: validate, record, do (IllegalAction: nothing changed).

        :meth:`apply` calls it for every action the game's :meth:`_step_fast` declines, so the order
        of the steps and the refusals are the engine's for every game."""
        if self.is_over:
            raise IllegalAction(f"the game is over; {action!r} cannot be played")
        normalised = self._validate(action)  # IllegalAction: nothing changed
        self.history.append(normalised)  # recorded before it is done, so _do logs at its step
        self._do(normalised)
        return self

    def play(self, action: Any) -> "Game":
        """Apply ``action``, then every step the rules force after it (:meth:`apply_forced`).

        The one-call convenience for scripts, lessons and batch runs ("ask, and let the
        cards answer"). Live tables use :meth:`apply` and give forced steps at the seat's
        pace, so that a forced answer cannot be told from a chosen one.
        """
        self.apply(action)
        self.apply_forced()
        return self

    def forced_action(self) -> Any:
        """The step the rules force now (its only legal action, marked forced), or None.

        A forced action is a step of the history like any other; a bot gives it as its only
        legal action, and a table gives a human seat's forced step itself, on the bots'
        clock. :meth:`is_forced` tells a forced action from a chosen one.
        """
        if self.is_over:
            return None
        return self._forced()

    def apply_forced(self) -> list[Any]:
        """Apply every step the rules force now, one after another; return them (often ``[]``)."""
        done = []
        forced = self.forced_action()
        while forced is not None:
            self.apply(forced)
            done.append(self.history[-1])
            forced = self.forced_action()
        return done

    def act(self, seat: Any, action: Any) -> "Game":
        """Apply ``action`` (one step) for ``seat``: IllegalAction (nothing changed) naming a bad seat,
        or a seat whose turn it is not."""
        seat = self._check_seat(seat)
        if self.to_move != seat:
            if self.is_over:
                raise IllegalAction(f"the game is over; seat {seat} cannot act")
            who = "chance (the deal)" if self.to_move == CHANCE else f"seat {self.to_move}"
            raise IllegalAction(f"it is {who}'s turn, not seat {seat}'s")
        return self.apply(action)

    def _check_seat(self, seat: Any, what: str = "seat") -> int:
        """``seat`` if it is a seat of this game, else IllegalAction naming it (-1 is no alias).

        The one seat check of every game (``act``, ``hand``, ``observation``, ``transcript``,
        ``knowledge``, an action's target): IllegalAction is a ValueError, so callers that catch
        ValueError keep working.
        """
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.players:
            raise IllegalAction(f"{what} {seat!r} is not a seat of this game (0..{self.players - 1})")
        return int(seat)

    def _check_viewer(self, seat: Any) -> Any:
        """``seat`` for a view: None (the teacher), :data:`PUBLIC` (no seat: the public view) or a seat of
        this game, else IllegalAction naming it."""
        if seat is None or (type(seat) is str and seat == PUBLIC):
            return seat
        return self._check_seat(seat)

    def public_observation(self) -> Observation:
        """What anyone watching the table sees from no seat: the public state and every event's public
        part, no hand, no private part, no legal action (``observation(PUBLIC)``, built like a seat's).

        Every seat knows at least this much, so two games a seat cannot tell apart give the same public
        view (the game contract checks it)."""
        return self.observation(PUBLIC)

    def base_observation(
        self, seat: Optional[int], legal: Optional[list[Any]] = None, events_from: int = 0
    ) -> Observation:
        """The keys every observation has (:data:`BASE_OBSERVATION_KEYS`), for ``seat`` (None: the
        teacher); a game's ``observation`` adds its own keys to it.

        ``hand`` is the seat's hand as codes (:meth:`hand`; empty for the teacher), ``events`` the
        log as the seat saw it, ``legal`` the given legal actions (default ``legal_actions()``) when
        the seat is to move or is the teacher, else ``[]``; ``events_from``: only the events logged
        after the first ``events_from`` (:meth:`observation_since`). IllegalAction naming a bad seat.
        """
        seat = self._check_viewer(seat)
        to_move = self.to_move
        public = seat == PUBLIC
        mover = seat is None or to_move == seat
        if mover and legal is None:
            legal = self._observed_legal()
        return Observation(
            game=self.name,
            seat=seat,
            players=self.players,
            names=self.seat_names(),
            step=self.step,
            to_move=to_move,
            is_over=self.is_over,
            phase=getattr(self, "phase", None),
            hand=[] if seat is None or public else self._observed_hand(seat),
            events=self.events.view(seat, events_from),
            legal=legal if mover else [],
        )

    def observation_since(self, seat: Optional[int], events_from: int) -> Observation:
        """``observation(seat)`` whose ``events`` are only those logged after the first ``events_from``
        (the log only grows): what a viewer that held its observation when the log had ``events_from``
        events needs to hold this one. A classroom server sends each window what changed
        (``frames=changes``), and late in a Hearts match a seat's whole view is hundreds of events.

        By default the whole observation is made and its events replaced (right for any game: a game's
        ``observation`` may read its own events, as Five Sons' does for the cards shown); a game whose
        observation reads no more of the log than ``base_observation`` gives may pass ``events_from`` to
        it and skip the rest of the log (Hearts does). The game contract checks the two agree."""
        obs = self.observation(seat)
        if events_from:
            obs["events"] = self.events.view(obs["seat"], events_from)
        return obs

    def _observed_hand(self, seat: int) -> list[str]:
        """A seat's hand in its observation, as codes (a game may give a faster way)."""
        return [c.code for c in self.hand(seat)]

    def _observed_legal(self) -> list[Any]:
        """The mover's legal actions in an observation (default ``legal_actions()``; Hearts: codes)."""
        return self.legal_actions()

    def hand(self, seat: int) -> Any:
        """The cards ``seat`` holds now (the teacher's view of any seat); games override."""
        self._check_seat(seat)
        return []

    def transcript(self, seat: Optional[int] = None) -> list[str]:
        """Every event so far in words (:meth:`describe_event`), as ``seat`` saw it (None: the teacher)."""
        seat = self._check_viewer(seat)
        words, names = type(self).describe_event, self.seat_names()
        return [words(e, seat, names) for e in self.events.view(seat)]

    def knowledge(self, seat: int) -> Any:
        """What ``seat`` can know, as a deduction ``Knowledge`` built from its observation only.

        The game's :attr:`knowledge_adapter` (``"module:function"``) turns the observation into it;
        ValueError for a game that has none, IllegalAction naming a bad seat.
        """
        seat = self._check_seat(seat)
        return self.knowledge_function()(self.observation(seat))

    @classmethod
    def knowledge_function(cls) -> Any:
        """The game's knowledge adapter (observation -> Knowledge), from :attr:`knowledge_adapter`."""
        if not cls.knowledge_adapter:
            raise ValueError(f"game {cls.name!r} has no knowledge adapter")
        return import_object(cls.knowledge_adapter)

    def summary(self) -> dict[str, Any]:
        """The facts of the game's result as JSON data (scores, winners...): what a golden playthrough
        pins besides the record and the words. Games override; the base gives the public state."""
        return {"is_over": self.is_over, "step": self.step}

    def observation_json(self, seat: Optional[int]) -> dict[str, Any]:
        """``observation(seat)`` as plain JSON data: what a classroom server sends that seat.

        Cards become codes, ``legal`` the record encoding of each action (``action_to_json``),
        tuples lists and mapping keys strings, so ``json.loads(json.dumps(o)) == o``.
        """
        obs = self.observation(seat)
        rest = {k: v for k, v in obs.items() if k != "legal"}
        legal = [self.action_to_json(a) for a in obs.get("legal", [])]
        out = _plain({"rest": rest, "legal": legal})
        out["rest"]["legal"] = out["legal"]
        return out["rest"]

    @staticmethod
    def is_forced(action: Any) -> bool:
        """Whether an action (a history entry, a legal action) is one the rules force (marked ``forced``)."""
        return getattr(action, "forced", False) is True

    def why_illegal(self, action: Any) -> Optional[str]:
        """The reason the rules refuse ``action`` now (the IllegalAction text), or None if it is legal.

        Asks without playing: validation never changes the game. Views use it to dim a
        card and say why, without knowing any rule themselves.
        """
        if self.is_over:
            return f"the game is over; {action!r} cannot be played"
        try:
            self._validate(action)
        except IllegalAction as e:
            return str(e)
        return None

    @property
    def step(self) -> int:
        """Number of actions applied so far (chance included)."""
        return len(self.history)

    def copy(self) -> "Game":
        """An independent copy (same state, same RNG state)."""
        return _copy.deepcopy(self)

    def record(self) -> Record:
        """The game's record (:meth:`Record.of`): every step of its history, to save, load and replay."""
        return Record.of(self)

    @classmethod
    def replay(
        cls, actions: Sequence[Any], players: int, options: Optional[dict] = None, seed: Optional[int] = None
    ) -> "Game":
        """The game after ``actions``, each applied as one step (forced ones included)."""
        game = cls._blank(players, dict(options or {}), seed)
        for a in actions:
            game.apply(a)
        return game

    def log(
        self, kind: str, public: dict, private: Optional[dict] = None, hidden: Optional[dict] = None
    ) -> None:
        """Log an event of the action being applied (call from ``_do``)."""
        self.events.append(kind, len(self.history) - 1, public, private, hidden)

    @classmethod
    def describe_event(cls, event: _Mapping, seat: Any, names: Sequence[str]) -> str:
        """One event in words: ``event`` one event of an observation (``observation(seat)["events"]``, in
        Python or as JSON: the one shape every viewer gets, :meth:`~qardlab.engine.events.Event.seen_by`),
        said to its viewer ``seat`` (None: the teacher; :data:`PUBLIC`; a seat: "you"), ``names`` the seats'
        names. The game's one words function: tables, replays, transcripts and the contract all call it.
        It reads only ``event`` (so it says nothing the viewer did not see). Games override; the default
        is the event's kind."""
        return str(event["kind"])

    def describe(self, event: Any, seat: Any = None) -> str:
        """:meth:`describe_event` of one event of this game as ``seat`` saw it (an :class:`Event` of
        ``events``, or one of an observation's events), with this game's names. Games do not override it:
        their words are :meth:`describe_event`."""
        if not isinstance(event, _Mapping):
            event = event.seen_by(seat)
        return type(self).describe_event(event, seat, self.seat_names())

    @classmethod
    def action_text(cls, action: Any, names: Sequence[str]) -> str:
        """An action in words, for a button of a generic table: ``names`` the seats' names (games override;
        default its ``str``). A class method, as the codec: a table has no game to ask."""
        return str(action)

    def seat_name(self, seat: int) -> str:
        """The name a student reads for ``seat``: the game's option ``names``, else ``DEFAULT_NAMES``."""
        names = self.options.get("names")
        return names[seat] if names else DEFAULT_NAMES[seat]

    def seat_names(self) -> list[str]:
        """Every seat's name, seat 0 first (an observation's ``names``)."""
        return [self.seat_name(s) for s in range(self.players)]


DEFAULT_NAMES = ("Alice", "Bob", "Carol", "Dave", "Erin", "Frank")


def check_seed(seed: Any) -> Optional[int]:
    """``seed`` if it is an integer or None (what a record can hold); ValueError naming it otherwise.

    A bool, a string or a float would seed ``random.Random`` but not load from a record, so a
    game that could be played could not be saved and loaded.
    """
    if seed is None:
        return None
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise ValueError(f"seed must be an integer or None, not {seed!r}")
    return int(seed)


def check_names(names: Any, players: Any) -> Optional[list[str]]:
    """The seat names as a list: None, or ``players`` distinct non-empty strings (a list or tuple);
    ValueError naming anything else (a number, a string, a dict, a wrong count, a name twice).

    The one names check of every game (``Game.__init__`` runs it on the option ``names``).
    """
    if names is None:
        return None
    if (
        not isinstance(names, (list, tuple))
        or len(names) != players
        or not all(isinstance(n, str) and n.strip() for n in names)
    ):
        raise ValueError(f"names must be {players!r} non-empty strings, one per seat, not {names!r}")
    twice = sorted({n for n in names if names.count(n) > 1})
    if twice:
        raise ValueError(
            f"names must be distinct, one per seat: {', '.join(map(repr, twice))} given twice in {names!r}"
        )
    return list(names)


def _plain(value: Any) -> Any:
    """A value as plain JSON data: cards as codes, tuples as lists, mapping keys as strings.

    One trip through the C JSON encoder and decoder (fast, and exactly what a server's
    wire gives the other end).
    """
    return json.loads(json.dumps(value, default=_code_of, ensure_ascii=False))


def _code_of(value: Any) -> Any:
    if isinstance(value, _Mapping):  # an Observation is a dict; a mapping proxy is not
        return dict(value)
    code = getattr(value, "code", None)
    if isinstance(code, str):  # a Card
        return code
    raise TypeError(f"not JSON data: {value!r}")  # pragma: no cover - a game's bug, not a user's
