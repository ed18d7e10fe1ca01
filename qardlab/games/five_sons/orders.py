"""Five Sons' standing orders: choices a person makes in advance, which the seat driver applies for them.

- ``pass_claims`` (True / False): "pass on claims unless I claim". At each claim chance after another
  seat's question the driver passes for the person; after the person's own question (whose answer is
  news to them alone) the person decides.
- ``claim`` (a claim in the record encoding, ``{"type": "claim", "face": "KS", "number": "TH"}``, or
  None): "claim this pair at my next chance". The driver makes it at the person's next claim chance,
  whoever asked. A claim ends the game or puts the seat out, so the order is spent with it.

Both read only the public ``phase``, ``to_move`` and ``question``: they act or wait at the same moments
whatever the seat holds (see :mod:`qardlab.engine.seats`).
"""

from __future__ import annotations

from typing import Any, Mapping

from ...engine.seats import StandingOrders
from .actions import Claim, NoClaim
from .deck import FACE_CARDS, NUMBER_CARDS

__all__ = ["FiveSonsOrders"]

_FACES, _NUMBERS = frozenset(FACE_CARDS), frozenset(NUMBER_CARDS)


class FiveSonsOrders(StandingOrders):
    """ "Pass on claims unless I claim" and "claim this pair at my next chance"; see the module docstring."""

    defaults = {"pass_claims": False, "claim": None}
    recommended = {"pass_claims": True}
    labels = {"pass_claims": "pass on claims unless I claim", "claim": "claim this pair at my next chance"}
    reads = ("phase", "to_move", "question")

    @classmethod
    def check_value(cls, name: str, value: Any) -> Any:
        if name == "pass_claims":
            if not isinstance(value, bool):
                raise ValueError(f"pass_claims must be true or false, not {value!r:.80}")
            return value
        if value is None:
            return None
        if not (
            isinstance(value, Mapping)
            and value.get("type") == "claim"
            and set(value)
            == {
                "type",
                "face",
                "number",
            }
        ):
            raise ValueError(
                'claim must be null or a claim, like {"type": "claim", "face": "KS", "number": "TH"}, '
                f"not {value!r:.80}"
            )
        claim = Claim(value["face"], value["number"])  # ValueError naming a value that is no card
        if claim.face not in _FACES or claim.number not in _NUMBERS:
            raise ValueError(
                f"claim {claim.face.code} {claim.number.code}: a claim names a face card (J, Q or K), then a "
                "number card (A-10 of hearts)"
            )
        return {"type": "claim", "face": claim.face.code, "number": claim.number.code}

    @classmethod
    def action(cls, view: Mapping[str, Any], seat: int, orders: Mapping[str, Any]) -> Any:
        if view["phase"] != "claim" or view["to_move"] != seat:
            return None
        if orders.get("claim"):
            return Claim(orders["claim"]["face"], orders["claim"]["number"])
        if orders.get("pass_claims"):
            question = view.get("question")
            if question and question["asker"] == seat:
                return None  # the person decides after their own question
            return NoClaim()
        return None
