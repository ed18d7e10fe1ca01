"""From one seat's observation to a :class:`~qardlab.deduction.knowledge.Knowledge`.

Only the observation is read (the seat's hand, the hand sizes and the log as the seat saw
it), never the game state, so whatever the reasoning concludes, it concludes from what
the seat could know. Each fact carries the game step it comes from and a sentence a
student can follow, phrased for the seat ("you").
"""

from __future__ import annotations

from typing import Any, Mapping

from ...cards import FACE_CARDS, NUMBER_CARDS, Card, five_sons_deck
from ...deduction.knowledge import SECRET, Knowledge

__all__ = ["knowledge_of"]


def _sym(code: str) -> str:
    return Card.parse(code).symbol


def knowledge_of(obs: Mapping[str, Any]) -> Knowledge:
    """The knowledge of ``obs["seat"]``, built from its Five Sons observation alone."""
    if obs.get("game") != "five_sons":
        raise ValueError(f"not a Five Sons observation (game {obs.get('game')!r})")
    seat: int = obs["seat"]
    players: int = obs["players"]
    names = list(obs.get("names") or [f"seat {s}" for s in range(players)])

    def who(s: int) -> str:
        return "you" if s == seat else names[s]

    if obs.get("phase") == "deal":  # nothing dealt yet: every seat will get its share
        sizes: dict[Any, int] = {s: 20 // players for s in range(players)}
    else:
        sizes = {s: obs["hand_sizes"][s] for s in range(players)}
    sizes[SECRET] = 2
    know = Knowledge(
        seat=seat,
        cards=tuple(five_sons_deck()),
        holders=(*range(players), SECRET),
        sizes=sizes,
        game="five_sons",
        names={**{s: who(s) for s in range(players)}, SECRET: "the secret pair"},
        extra={
            "players": players,
            "ask_mode": obs.get("options", {}).get("ask_mode", "chosen"),
            "phase": obs.get("phase"),
            "to_move": obs.get("to_move"),
            "eliminated": list(obs.get("eliminated", [])),
        },
    )
    know.add_exactly(SECRET, FACE_CARDS, 1, text="The secret pair holds exactly one face card (J, Q or K).")
    know.add_exactly(SECRET, NUMBER_CARDS, 1, text="The secret pair holds exactly one number card (A-10 ♥).")

    turn = 0
    secret_known = False
    for ev in obs["events"]:
        kind, step = ev["kind"], ev["step"]
        if kind == "deal":
            for code in ev.get("hand", obs["hand"]):
                know.add_has(seat, Card.parse(code), step=step, text=f"You were dealt the {_sym(code)}.")
        elif kind == "ask":
            turn = ev.get("turn", turn + 1)
        elif kind == "answer":
            a, asker = ev["answerer"], ev["asker"]
            pair = (Card.parse(ev["face"]), Card.parse(ev["number"]))
            both = f"{_sym(ev['face'])} and {_sym(ev['number'])}"
            if not ev["shown"]:
                if a != seat:
                    nor = f"{_sym(ev['face'])} nor {_sym(ev['number'])}"
                    know.add_none_of(a, pair, step=step,
                                     text=f"Turn {turn}: {who(a)} had neither {nor} ({who(asker)} asked).")
            elif a == seat:
                pass  # the seat showed a card of its own hand: nothing new
            elif "card" in ev:
                know.add_shown(a, Card.parse(ev["card"]), pair, step=step,
                               text=f"Turn {turn}: {who(a)} showed you the {_sym(ev['card'])} "
                                    f"(you asked about {both}).")
            else:
                know.add_one_of(a, pair, step=step,
                                text=f"Turn {turn}: {who(a)} showed {who(asker)} one of {both}.")
        elif kind == "claim":
            c = ev["seat"]
            pair = (Card.parse(ev["face"]), Card.parse(ev["number"]))
            both = f"{_sym(ev['face'])} and {_sym(ev['number'])}"
            if ev["right"] and not secret_known:
                secret_known = True
                for card in pair:
                    know.add_has(SECRET, card, step=step,
                                 text=f"Turn {turn}: {who(c)} claimed {both}, rightly: "
                                      "that is the secret pair.")
            elif not ev["right"]:
                if c == seat and "secret" in ev and not secret_known:
                    secret_known = True
                    for code in ev["secret"]:
                        know.add_has(SECRET, Card.parse(code), step=step,
                                     text=f"Turn {turn}: your wrong claim showed you the secret pair, "
                                          f"{_sym(ev['secret'][0])} and {_sym(ev['secret'][1])}.")
                elif c != seat:
                    know.add_not_both(SECRET, pair, step=step,
                                      text=f"Turn {turn}: {who(c)} claimed {both} and was wrong, "
                                           f"so the secret pair is not {both}.")
        elif kind == "over" and not secret_known:
            secret_known = True
            for code in ev["secret"]:
                know.add_has(SECRET, Card.parse(code), step=step,
                             text=f"The game is over and the secret pair is shown: {_sym(code)} is in it.")
    return know
