"""Issue 25, section 1: no student can find a live table's deal from anything they can get.

As a student would try it, with the package in their own kernel: the issue's reproduction (search seeds
0..10^5 for one whose deal gives my hand) finds the deal of a table made the old way (the teacher's notebook
dealt table k from 100 + k) at once, and nothing for a table made the documented way now (no seed: 128 bits
the server draws from ``secrets``). A finished table's record, public once it is over, holds its own seed,
which gives nothing towards another table's deal; Hearts' later hands and the bots draw from the table's
secret seed too.
"""

from __future__ import annotations

import json
import random

from conftest import Client, run_async

from qardlab.classroom import tables
from qardlab.classroom.store import Store
from qardlab.classroom.tables import Classroom
from qardlab.engine import Record
from qardlab.engine.game import check_seed
from qardlab.games.five_sons import FiveSons
from qardlab.games.hearts import Hearts


def search(mine: set[str], seat: int, seeds: range) -> list[int]:
    """The issue's reproduction: every seed whose 4-player deal gives ``seat`` the hand ``mine``."""
    return [s for s in seeds if {c.code for c in FiveSons.new(4, seed=s).hand(seat)} == mine]


def hand_at(server, code: str) -> tuple[int, set[str]]:
    c = Client(server, code)
    try:
        obs = c.wait_step(1)
        return c.seat, set(obs["hand"])
    finally:
        c.close()


def test_the_issues_search_finds_an_old_table_and_nothing_for_a_documented_one(server) -> None:
    """The teacher's notebook and docs/classroom.md now create tables with no seed. Seat 1 of table 2 runs
    the issue's search over seeds 0..10^5: it finds the old notebook's table (seed 101) at once, with every
    hand and the secret; for the table made the documented way it finds only seeds that happen to deal
    the same five cards to seat 1 (one hand of 26,334), none of which gives the table's deal."""
    from qardlab.classroom.teacher import Teacher

    teacher = Teacher(server.url, server.token)
    old = teacher.create_tables(2, "five_sons", players=4, seed=100, bots={3: "logic"}, pace=10)
    now = teacher.create_tables(2, "five_sons", players=4, bots={3: "logic"}, pace=10)  # the notebook's call
    seat, mine = hand_at(server, old[1]["seats"][1]["code"])
    assert seat == 1 and search(mine, 1, range(200)) == [101]  # the attack the issue found: it works
    real = server.get(f"/api/tables/{old[1]['table']}/record")[1]["actions"][0]
    assert FiveSons.new(4, seed=101).record().to_dict()["actions"][0] == real  # every hand, and the secret
    seat, mine = hand_at(server, now[1]["seats"][1]["code"])
    found = search(mine, 1, range(10**5))  # about 4 seeds deal any one hand of 5 to seat 1 by chance
    real = server.get(f"/api/tables/{now[1]['table']}/record")[1]["actions"][0]  # the teacher's truth
    for s in found:  # none of them gives the table's deal: the student learns nothing of it
        deal = FiveSons.new(4, seed=s).record().to_dict()["actions"][0]
        assert deal["secret"] != real["secret"] or deal["hands"] != real["hands"], s
    # what the teacher can read once the game is over: a seed of 128 bits, one per table, drawn anew
    seeds = [Record.from_dict(server.get(f"/api/tables/{t['table']}/record")[1]).seed for t in now]
    assert all(64 < s.bit_length() <= 128 for s in seeds) and seeds[0] != seeds[1]
    assert abs(seeds[0] - seeds[1]) > 2**64  # not one seed and the next: nothing counts up


def test_a_finished_tables_record_gives_nothing_towards_another_tables_deal(server) -> None:
    """Table 1 (all bots) is played out; its record is public. Its seed, and any seed near it, deal
    neither table 2's hand to seat 1 nor table 2's secret; table 2's record stays the teacher's."""
    a = server.create(game="five_sons", players=4, pace=0, bots={str(s): "logic" for s in range(4)})
    b = server.create(game="five_sons", players=4, pace=10, bots={"3": "logic"})
    watch = Client(server, a["teacher"])
    try:
        while watch.obs is None or not watch.obs["is_over"]:
            watch.recv(timeout=60)
    finally:
        watch.close()
    status, data = server.get(f"/api/tables/{a['table']}/record", token=None)  # anyone's, once over
    assert status == 200
    public = Record.from_dict(data)
    assert public.seed.bit_length() > 64
    assert server.get(f"/api/tables/{b['table']}/record", token=None)[0] == 403
    seat, mine = hand_at(server, b["seats"][1]["code"])
    near = [public.seed + k for k in range(-500, 501)] + [public.seed ^ (1 << i) for i in range(128)]
    near += [public.seed * 100 + s for s in range(5)]  # the table's bots' seeds
    assert not [s for s in near if {c.code for c in FiveSons.new(4, seed=s).hand(1)} == mine]
    # the public record holds its own seed only: nothing of table 2's
    hidden = Record.from_dict(server.get(f"/api/tables/{b['table']}/record")[1]).seed
    assert str(hidden) not in json.dumps(data) and hidden not in near


def test_every_draw_of_a_seedless_table_comes_from_its_own_128_bits(tmp_path) -> None:
    """In the tables' logic: without a seed a table's game is seeded from 128 bits of ``secrets`` (a
    Hearts match's later hands come from that RNG), each bot from that seed and its seat; a teacher's
    seed is kept as given (a lesson's tool)."""

    async def main() -> None:
        room = Classroom(Store(tmp_path / "s.db"), "token")
        made = [
            room.create({"game": g, "players": 4, "pace": 10, "bots": {"2": lvl, "3": lvl}})
            for g, lvl in (("five_sons", "random"), ("hearts", "random"), ("five_sons", "logic"))
        ]
        games = [room.tables[m["table"]] for m in made]
        seeds = [t.game.seed for t in games]
        assert len(set(seeds)) == 3 and all(64 < s.bit_length() <= tables.SEED_BITS for s in seeds)
        for t in games:
            for seat, bot in t.driver.bots.items():  # a bot's RNG: random.Random(seed * 100 + seat)
                assert bot.rng.getstate() == random.Random(t.game.seed * 100 + seat).getstate()
        # Hearts: the second hand is the table RNG's next deal (after the first), not a number to guess
        hearts = games[1].game
        follow = Hearts._blank(4, {}, hearts.seed)
        assert follow.chance_outcome() == hearts.history[0]
        given = room.create({"game": "five_sons", "players": 4, "seed": 7, "pace": 10})
        assert room.tables[given["table"]].game.seed == 7  # a lesson's seed, the teacher's choice
        room.close()

    run_async(main())
    again = Classroom(Store(tmp_path / "s.db"), "token")  # stored whole (wider than SQLite's integers)
    assert [t.game.seed.bit_length() > 64 for t in again.tables.values()] == [True, True, True, False]
    again.close()


def test_the_engine_takes_a_128_bit_seed_and_records_it_whole() -> None:
    """``Game.new(seed=int)`` still works for lessons with small seeds, and with the server's big ones a
    record saved as JSON loads and replays the same deal."""
    big = (1 << 127) + 12345
    assert check_seed(big) == big
    g = FiveSons.new(4, seed=big)
    again = Record.from_json(g.record().to_json())
    assert again.seed == big and again.replay().hand(1) == g.hand(1)
    assert FiveSons.new(4, seed=big).hand(0) == g.hand(0) != FiveSons.new(4, seed=big + 1).hand(0)
    assert FiveSons.new(4, seed=7).hand(0) == FiveSons.new(4, seed=7).hand(0)
