"""The rules of Hearts, written once: the options, the tables of RULES.md, and the rules kernel.

Everything else (the step engine, the event log, the knowledge adapter, the bots' rollouts and
the batch simulator) reads the rules from here.

- ``HeartsRules`` holds every option (names as OpenSpiel's Hearts parameters where one exists);
  the tables say which cards leave the deck, how many each seat gets and the default pass cycle
  for 3 to 6 players.
- The kernel: pure functions over 52-bit card masks (bit ``suit * 13 + rank - 2``, as
  ``Card.bit``; a suit is a run of 13 bits), each naming the rule of RULES.md it implements: the
  legal cards (:func:`playable`, from the masks of the moment: the suit led, :func:`lead_mask`,
  :func:`discard_mask`; :func:`legal_mask`, from a position) and why a card held is refused
  (:func:`refusal`); the cards that break hearts (:func:`break_mask`); the taker of a trick
  (:func:`trick_winner`); the points of cards (:func:`points_of`); the score of a hand
  (:func:`score_hand`, with shooting the moon, :func:`moon_mode` and :func:`moon_points`, and the
  :func:`bonuses`); the end of the match (:func:`match_over`, :func:`match_winners`).

The step engine, the bots' rollouts and the batch simulator call the kernel; none has a rule of its
own (the batch simulator, in numpy over many hands, takes its masks, points and moon scores from it).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from typing import Any, Mapping, NamedTuple, Sequence

from ...cards import SUIT_MASKS, Card, Suit

__all__ = [
    "HeartsRules",
    "MOON_MODES",
    "PASS_NAMES",
    "REMOVED",
    "DEFAULT_CYCLES",
    "deck_mask",
    "hand_size",
    "pass_offset",
    "check_players",
    "HEARTS_MASK",
    "QS_BIT",
    "JD_BIT",
    "QS_INDEX",
    "JD_INDEX",
    "POINT_MASK",
    "HEART_POINTS",
    "QUEEN_POINTS",
    "MOON_POINTS",
    "JD_POINTS",
    "POINTS",
    "DEFAULT_RULES",
    "opening_bit",
    "card_points",
    "points_of",
    "scores_points",
    "break_mask",
    "lead_mask",
    "discard_mask",
    "playable",
    "legal_mask",
    "refusal",
    "trick_winner",
    "pass_hands",
    "HandScore",
    "score_hand",
    "moon_choice",
    "moon_mode",
    "moon_points",
    "bonuses",
    "match_over",
    "match_winners",
]

MOON_MODES = ("add_to_others", "subtract_from_shooter", "shooter_chooses")
PASS_NAMES = ("left", "right", "across", "none")

#: cards taken out of the deck, by player count, so that it deals out evenly
REMOVED: dict[int, tuple[str, ...]] = {3: ("2D",), 4: (), 5: ("2D", "2C"), 6: ("2D", "3D", "3C", "4C")}
DEFAULT_CYCLES: dict[int, tuple[str, ...]] = {
    3: ("left", "right", "none"),
    4: ("left", "right", "across", "none"),
    5: ("left", "right", "none"),
    6: ("left", "right", "across", "none"),
}

HEARTS_MASK = SUIT_MASKS[Suit.HEARTS]
QS_BIT = Card.parse("QS").bit
JD_BIT = Card.parse("JD").bit
QS_INDEX = QS_BIT.bit_length() - 1
JD_INDEX = JD_BIT.bit_length() - 1
#: the cards that score: every heart and the Queen of spades
POINT_MASK = HEARTS_MASK | QS_BIT
#: Rule (scoring): each heart taken is 1 point, the Queen of spades 13
HEART_POINTS = 1
QUEEN_POINTS = 13
#: Rule (scoring): every point in the deck (no player count removes a heart or the Queen); taking
#: them all is shooting the moon
MOON_POINTS = 13 * HEART_POINTS + QUEEN_POINTS
#: Option jd_bonus: the Jack of diamonds scores this for whoever takes it
JD_POINTS = -10
#: the points of each card, by index (the Jack of diamonds' bonus is an option: see score_hand)
POINTS: tuple[int, ...] = tuple(
    QUEEN_POINTS if i == QS_INDEX else HEART_POINTS if (1 << i) & HEARTS_MASK else 0 for i in range(52)
)


def check_players(players: Any) -> int:
    """The player count, or ValueError naming it (Hearts is for 3 to 6)."""
    if not isinstance(players, int) or isinstance(players, bool) or not 3 <= players <= 6:
        raise ValueError(f"Hearts is played by 3 to 6 players, not {players!r}")
    return players


def deck_mask(players: int) -> int:
    """The 52-bit mask of the cards in play for this many players."""
    mask = (1 << 52) - 1
    for code in REMOVED[check_players(players)]:
        mask &= ~Card.parse(code).bit
    return mask


def hand_size(players: int) -> int:
    """Rule (deck): the cards each seat is dealt."""
    return deck_mask(players).bit_count() // players


def opening_bit(players: int) -> int:
    """Rule (play): the bit of the lowest club in play (2C, or 3C with five players), led first."""
    clubs = deck_mask(players) & SUIT_MASKS[Suit.CLUBS]
    return clubs & -clubs


def pass_offset(direction: str, players: int) -> int:
    """Seats on from the passer to the receiver: left +1, right -1, across n/2, none 0."""
    if direction == "left":
        return 1
    if direction == "right":
        return players - 1
    if direction == "across":
        if players % 2:
            raise ValueError(f"there is no 'across' pass with {players} players (odd)")
        return players // 2
    if direction == "none":
        return 0
    raise ValueError(f"unknown pass direction {direction!r}: expected one of {PASS_NAMES}")


@dataclass(frozen=True)
class HeartsRules:
    """The options of Hearts; defaults as RULES.md.

    ``pass_cycle`` None means the table's cycle for the player count. ``moon`` is one of
    ``"add_to_others"`` (shooter 0, everyone else 26), ``"subtract_from_shooter"``
    (shooter -26, everyone else 0) or ``"shooter_chooses"`` (the engine takes whichever of
    the two is better for the shooter in the match; see ``Hearts``).
    """

    no_pts_on_first_trick: bool = True
    qs_breaks_hearts: bool = False
    must_break_hearts: bool = True
    jd_bonus: bool = False
    moon: str = "add_to_others"
    target: int = 100
    pass_cycle: tuple[str, ...] | None = None
    cards_to_pass: int = 3

    def __post_init__(self) -> None:
        for name in ("no_pts_on_first_trick", "qs_breaks_hearts", "must_break_hearts", "jd_bonus"):
            if not isinstance(getattr(self, name), bool):
                raise ValueError(f"rule {name} must be True or False, got {getattr(self, name)!r}")
        if self.moon not in MOON_MODES:
            raise ValueError(f"rule moon must be one of {MOON_MODES}, got {self.moon!r}")
        if not isinstance(self.target, int) or isinstance(self.target, bool) or self.target < 1:
            raise ValueError(f"rule target must be a positive integer, got {self.target!r}")
        if (
            not isinstance(self.cards_to_pass, int)
            or isinstance(self.cards_to_pass, bool)
            or not 0 <= self.cards_to_pass <= 8
        ):
            raise ValueError(f"rule cards_to_pass must be an integer 0..8, got {self.cards_to_pass!r}")
        if self.pass_cycle is not None:
            cycle = self.pass_cycle
            if isinstance(cycle, str) or not isinstance(cycle, (tuple, list)) or not cycle:
                raise ValueError(f"rule pass_cycle must be a non-empty list of directions, got {cycle!r}")
            for d in cycle:
                if d not in PASS_NAMES:
                    raise ValueError(
                        f"rule pass_cycle: unknown direction {d!r}, expected one of {PASS_NAMES}"
                    )
            object.__setattr__(self, "pass_cycle", tuple(cycle))

    def cycle_for(self, players: int) -> tuple[str, ...]:
        """The pass cycle used with this many players (checked: no 'across' when odd)."""
        cycle = self.pass_cycle or DEFAULT_CYCLES[check_players(players)]
        for d in cycle:
            pass_offset(d, players)
        return cycle

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        if d["pass_cycle"] is not None:
            d["pass_cycle"] = list(d["pass_cycle"])
        return d

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> HeartsRules:
        """Rules from a record's dict; ValueError naming an unknown or bad option."""
        if isinstance(data, HeartsRules):
            return data
        if not isinstance(data, Mapping):
            raise ValueError(f"Hearts rules must be an object, got {data!r}")
        known = {f.name for f in fields(cls)}
        unknown = set(data) - known
        if unknown:
            raise ValueError(f"unknown Hearts rule options {sorted(unknown)}; known: {sorted(known)}")
        return cls(**dict(data))


_SUIT_MASK_OF_BIT = {1 << i: SUIT_MASKS[i // 13] for i in range(52)}

#: the rules as RULES.md's defaults (the options every reader falls back on)
DEFAULT_RULES = HeartsRules()


# -- the kernel: pure functions over card masks -----------------------------------------------
def card_points(index: int) -> int:
    """Rule (scoring): the raw points of the card of index ``index`` (a heart 1, the Queen 13)."""
    return POINTS[index]


def points_of(mask: int) -> int:
    """Rule (scoring): the raw points of the cards of ``mask`` (a heart 1, the Queen of spades 13)."""
    return (mask & HEARTS_MASK).bit_count() * HEART_POINTS + (QUEEN_POINTS if mask & QS_BIT else 0)


def scores_points(bit: int, rules: HeartsRules = DEFAULT_RULES) -> bool:
    """Whether taking the card(s) of ``bit`` scores: a heart, the Queen of spades, and the cards of
    :func:`bonuses` (the Jack of diamonds with option ``jd_bonus``)."""
    return bool(bit & POINT_MASK or any(bit & b for b, _ in bonuses(rules)))


def break_mask(rules: HeartsRules = DEFAULT_RULES) -> int:
    """Rule (play) and option qs_breaks_hearts: the cards whose play breaks hearts (the hearts,
    and the Queen of spades with ``qs_breaks_hearts``)."""
    return POINT_MASK if rules.qs_breaks_hearts else HEARTS_MASK


def lead_mask(first_trick: bool, broken: bool, players: int, rules: HeartsRules = DEFAULT_RULES) -> int:
    """Rule (play): the cards a seat may lead when it holds any of them (else it leads any card).

    The first trick: the lowest club in play (its holder leads it). Later, no heart until hearts
    are broken (option ``must_break_hearts``); a hand of only hearts leads one anyway."""
    if first_trick:
        return opening_bit(players)
    if broken or not rules.must_break_hearts:
        return -1
    return ~HEARTS_MASK


def discard_mask(first_trick: bool, rules: HeartsRules = DEFAULT_RULES) -> int:
    """Rule (play), option no_pts_on_first_trick: the cards a seat void in the suit led may
    throw when it holds any of them (else any card): no heart nor the Queen of spades on the
    first trick, anything later."""
    return ~POINT_MASK if first_trick and rules.no_pts_on_first_trick else -1


def playable(hand: int, must: int, may: int) -> int:
    """Rule (play): the cards of ``hand`` that may be played now, from the masks of the moment: those
    of ``must`` if it holds any, else those of ``may`` if it holds any, else any card.

    After a lead, ``must`` is the suit led (follow suit if you can) and ``may`` the
    :func:`discard_mask`; for a lead, ``must`` is the :func:`lead_mask` and ``may`` any card (-1).
    (The step engine keeps these masks as the trick goes, and the bots' rollouts as they play.)"""
    return hand & must or hand & may or hand


def legal_mask(
    hand: int,
    led: int | None,
    first_trick: bool,
    broken: bool,
    players: int,
    rules: HeartsRules = DEFAULT_RULES,
) -> int:
    """Rule (play): the mask of the cards of ``hand`` that may be played now, from a position.

    ``led`` is the suit led to the open trick (None: the seat leads); :func:`playable` with the
    suit's mask and :func:`discard_mask`, or with :func:`lead_mask` for a lead."""
    if led is not None:
        return playable(hand, SUIT_MASKS[led], discard_mask(first_trick, rules))
    return playable(hand, lead_mask(first_trick, broken, players, rules), -1)


def refusal(hand: int, follow: int, first_trick: bool) -> str:
    """Rule (play): why a card of ``hand`` that :func:`playable` leaves out is refused (the same reason
    for every such card): ``"opening"`` (the first lead is the lowest club), ``"unbroken"`` (no heart
    led before hearts are broken), ``"follow"`` (the seat holds the suit led, ``follow``) or
    ``"first_trick"`` (void in it, but no points on the first trick)."""
    if not follow:
        return "opening" if first_trick else "unbroken"
    return "follow" if hand & follow else "first_trick"


def trick_winner(bits: Sequence[int], leader: int, players: int, union: int = 0, led: int = 0) -> int:
    """Rule (trick): the seat that takes a complete trick, the highest card of the suit led.

    ``bits`` are the (distinct) cards' bits in playing order, the first led by seat ``leader``;
    ``union``, if given, is their mask and ``led`` the mask of the suit led (a caller that has them
    already saves working them out again)."""
    top = (union or sum(bits)) & (led or _SUIT_MASK_OF_BIT[bits[0]])  # distinct bits: the sum is the union
    return (leader + bits.index(1 << top.bit_length() - 1)) % players


def pass_hands(hands: Sequence[int], chosen: Sequence[int], offset: int) -> list[int]:
    """Rule (passing): the hands once the chosen cards change hands together, each seat's to the
    seat ``offset`` on (see :func:`pass_offset`)."""
    n = len(hands)
    offset %= n
    out = []
    for i in range(n):  # (a loop: cheaper than a comprehension's frame for a handful of seats)
        # the hand less its chosen cards (they are in it) and with its giver's (they are not): XORs
        out.append(hands[i] ^ chosen[i] ^ chosen[i - offset])  # (i - offset: -n < it < n)
    return out


class HandScore(NamedTuple):
    """A scored hand: raw points taken, the points scored (moon and Jack applied), the moon shooter
    (or None) and the moon option applied ("add_to_others" or "subtract_from_shooter", or None)."""

    raw: list[int]
    final: list[int]
    shooter: int | None
    mode: str | None


def score_hand(
    taken: Sequence[int],
    rules: HeartsRules = DEFAULT_RULES,
    scores: Sequence[int] | None = None,
    single: bool = True,
) -> HandScore:
    """Rule (scoring): each seat's points for a hand, from the masks of the cards it took.

    Shooting the moon (all :data:`MOON_POINTS`) scores by option ``moon``; ``shooter_chooses``
    looks at the match ``scores`` before the hand (see :func:`moon_choice`; a lone hand,
    ``single``, adds; see :func:`moon_mode` and :func:`moon_points`). Then the :func:`bonuses`: with
    option ``jd_bonus`` the Jack of diamonds' taker scores :data:`JD_POINTS`."""
    n = len(taken)
    raw = []
    for t in taken:  # (a loop: cheaper than map's calls from C or a comprehension's frame)
        raw.append(points_of(t))
    final = raw[:]
    shooter = None
    mode = None
    if MOON_POINTS in raw:
        shooter = raw.index(MOON_POINTS)
        mode = moon_mode(shooter, scores or [0] * n, rules, single)
        mine, others = moon_points(mode)
        final = [mine if s == shooter else others for s in range(n)]
    for bit, points in bonuses(rules):
        for s in range(n):
            if taken[s] & bit:
                final[s] += points
    return HandScore(raw, final, shooter, mode)


def bonuses(rules: HeartsRules = DEFAULT_RULES) -> tuple[tuple[int, int], ...]:
    """Option jd_bonus: the cards that score for their taker beside the points (after a moon), as
    (bit, points) pairs: the Jack of diamonds' :data:`JD_POINTS` with the option, else none."""
    return ((JD_BIT, JD_POINTS),) if rules.jd_bonus else ()


def moon_mode(
    shooter: int, scores: Sequence[int], rules: HeartsRules = DEFAULT_RULES, single: bool = False
) -> str:
    """Option moon: how a moon shot by ``shooter`` scores, ``"add_to_others"`` or
    ``"subtract_from_shooter"`` (``shooter_chooses``: :func:`moon_choice`, from the match ``scores``
    before the hand; a lone hand, ``single``, adds)."""
    mode = rules.moon
    if mode == "shooter_chooses":
        return moon_choice(shooter, scores, rules, single)
    return mode


def moon_points(mode: str) -> tuple[int, int]:
    """Rule (scoring), shooting the moon: (the shooter's points, each other seat's points) for the
    hand under ``mode`` (see :func:`moon_mode`): add_to_others 0 and :data:`MOON_POINTS`,
    subtract_from_shooter minus :data:`MOON_POINTS` and 0."""
    if mode == "add_to_others":
        return 0, MOON_POINTS
    if mode == "subtract_from_shooter":
        return -MOON_POINTS, 0
    raise ValueError(f"a moon is scored add_to_others or subtract_from_shooter, not {mode!r}")


def moon_choice(
    shooter: int, scores: Sequence[int], rules: HeartsRules = DEFAULT_RULES, single: bool = False
) -> str:
    """Option moon="shooter_chooses": the shooter takes the option better for it in the match.

    Adding to the others is taken unless it would end the match (``scores`` before the hand) with
    the shooter not among the winners; then the points are subtracted from the shooter instead."""
    add = [scores[s] + (0 if s == shooter else MOON_POINTS) for s in range(len(scores))]
    if single or not (match_over(add, rules.target) and add[shooter] > min(add)):
        return "add_to_others"
    return "subtract_from_shooter"


def match_over(scores: Sequence[int], target: int = DEFAULT_RULES.target) -> bool:
    """Rule (match): the match ends after the hand in which someone reaches ``target``."""
    return max(scores) >= target


def match_winners(scores: Sequence[int]) -> tuple[int, ...]:
    """Rule (match): the lowest total wins; a tie for lowest is a shared win."""
    low = min(scores)
    return tuple(s for s, x in enumerate(scores) if x == low)
