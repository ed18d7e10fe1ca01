"""The tables' public methods refuse bad values clearly (issue 9, section 4): a value that is no
seat or no card is a ValueError naming it; a move the rules refuse comes back False with the
reason in the status line; either way the game is unchanged."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from qardlab.games.five_sons import FiveSons
from qardlab.games.hearts import Hearts
from qardlab.widgets import five_sons_app, hearts_app
from qardlab.widgets.five_sons import FiveSonsTable
from qardlab.widgets.hearts import HeartsTable

values = (
    st.none()
    | st.booleans()
    | st.integers(-3, 9)
    | st.floats(allow_nan=True)
    | st.text(max_size=4)
    | st.sampled_from(["QS", "2C", "8H", "QC", "AH", "KS", "TH", (1, 2), [], {}, object(), b"QS"])
    | st.lists(st.integers(), max_size=2)
)

TABLES: dict[str, Any] = {}


def _tables() -> tuple[FiveSonsTable, HeartsTable]:
    if not TABLES:
        TABLES["five"] = FiveSonsTable(FiveSons.new(4, seed=1), seat=1, human=1, charts=False)  # Bob asks
        TABLES["hearts"] = HeartsTable(Hearts.new(4, seed=1), seat=0, human=0, charts=False)  # passing
    return TABLES["five"], TABLES["hearts"]


CALLS = {
    "FiveSonsTable.ask(target)": lambda f, h, v: f.ask(v, "QC", "8H"),
    "FiveSonsTable.ask(face)": lambda f, h, v: f.ask(2, v, "8H"),
    "FiveSonsTable.ask(number)": lambda f, h, v: f.ask(2, "QC", v),
    "FiveSonsTable.claim": lambda f, h, v: f.claim(v, "8H"),
    "FiveSonsTable.act": lambda f, h, v: f.act(v),
    "FiveSonsTable.seat": lambda f, h, v: setattr(f, "seat", v),
    "HeartsTable.play": lambda f, h, v: h.play(v),
    "HeartsTable.act": lambda f, h, v: h.act(v),
}


def _state(f: FiveSonsTable, h: HeartsTable) -> tuple:
    return f.timeline.record.to_json(), h.timeline.record.to_json(), tuple(h.selected), f.seat


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(sorted(CALLS)), values)
def test_property_table_methods_refuse_bad_values_and_change_nothing(name: str, value: Any) -> None:
    f, h = _tables()
    before = _state(f, h)
    try:
        result = CALLS[name](f, h, value)
    except ValueError:
        assert _state(f, h) == before, f"{name}({value!r}) was refused but changed the game"
        return
    except (TypeError, KeyError, IndexError, AttributeError) as e:  # pragma: no cover - a failure
        raise AssertionError(f"{name}({value!r}) raised {type(e).__name__}: {e}") from e
    if result is False:  # refused by the rules: said why, nothing changed
        assert _state(f, h) == before and f.status.value + h.status.value, f"{name}({value!r})"
    else:  # accepted (a legal question, a card chosen to pass, a view): fresh tables next time
        TABLES.clear()


@pytest.mark.parametrize(
    "make,kwargs,match",
    [
        (
            lambda **k: FiveSonsTable(FiveSons.new(4, seed=1), charts=False, **k),
            {"human": "0"},
            "human seat '0'",
        ),
        (lambda **k: FiveSonsTable(FiveSons.new(4, seed=1), charts=False, **k), {"seat": True}, "seat True"),
        (lambda **k: FiveSonsTable(FiveSons.new(4, seed=1), charts=False, **k), {"bots": 3}, "bots must map"),
        (
            lambda **k: FiveSonsTable(FiveSons.new(4, seed=1), charts=False, **k),
            {"bots": {9: object()}},
            "bots must map",
        ),
        (lambda **k: FiveSonsTable(FiveSons.new(4, seed=1), charts=False, **k), {"pace": []}, r"pace \[\]"),
        (lambda **k: FiveSonsTable(FiveSons.new(4, seed=1), charts=False, **k), {"level": "x"}, "level 'x'"),
        (lambda **k: FiveSonsTable(FiveSons.new(4, seed=1), **k), {"charts": "no"}, "charts must be True or"),
        (lambda **k: HeartsTable(Hearts.new(4, seed=1), charts=False, **k), {"human": 4.0}, "human seat 4.0"),
        (lambda **k: five_sons_app(charts=False, **k), {"players": 6}, "players must be one of"),
        (lambda **k: five_sons_app(charts=False, **k), {"seed": "x"}, "seed must be an integer"),
        (lambda **k: hearts_app(charts=False, **k), {"level": "godlike"}, "level 'godlike'"),
    ],
)
def test_table_and_app_settings_named(make, kwargs: dict, match: str) -> None:
    with pytest.raises(ValueError, match=match):
        make(**kwargs)


def test_refused_moves_say_why() -> None:
    t = FiveSonsTable(FiveSons.new(4, seed=1), seat=1, human=1, charts=False)
    before = t.timeline.record.to_json()
    assert t.ask(1, "QC", "8H") is False and "cannot ask themself" in t.status.value
    assert t.ask(2, "QC", "QS") is False and "QS is not a number card" in t.status.value
    with pytest.raises(ValueError, match="'ZZ'"):
        t.ask(2, "ZZ", "8H")
    with pytest.raises(ValueError, match="target must be a seat number, not '2'"):
        t.ask("2", "QC", "8H")
    h = HeartsTable(Hearts.new(4, seed=1), seat=0, human=0, charts=False)
    not_mine = next(c for c in ("2C", "3C", "4C", "5C") if c not in {x.code for x in h.game.hand(0)})
    assert h.play(not_mine) is False and "not a card you can click" in h.status.value
    with pytest.raises(ValueError, match="'ZZ'"):
        h.play("ZZ")
    assert t.timeline.record.to_json() == before
