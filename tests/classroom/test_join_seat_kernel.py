"""A joined seat's kernel keeps what a seat needs (issue 27: a seat's kernel as small as it can be).

``join`` with a seat's code (the join page's kernel, lesson 09's) bounds the deduction engine's shared
cache of zeta transforms to ``SEAT_ZETA_CACHE_ENTRIES`` (a seat draws its latest step only); the teacher's
view (every seat's cards, the teacher's notebook watching its tables) leaves the kernel's cache as it was.
"""

from __future__ import annotations

import pytest
from conftest import ServerProcess, free_port, run_async

from qardlab.classroom import join
from qardlab.deduction import solve


@pytest.fixture
def srv(tmp_path):
    s = ServerProcess(tmp_path / "seat.db", port=free_port())
    yield s
    s.stop()


@pytest.fixture(autouse=True)
def default_cache():
    solve._ZETA_CACHE.size = solve.ZETA_CACHE_ENTRIES
    yield
    solve._ZETA_CACHE.size = solve.ZETA_CACHE_ENTRIES


def test_joining_a_seat_bounds_the_cache_and_the_teachers_view_does_not(srv) -> None:
    table = srv.create(game="five_sons", players=4, pace=0, bots={"1": "logic", "2": "logic", "3": "logic"})

    async def main() -> None:
        watch = await join(srv.url, table["teacher"])
        assert solve._ZETA_CACHE.size == solve.ZETA_CACHE_ENTRIES
        seat = await join(srv.url, table["seats"][0]["code"])
        assert seat.remote.seat == 0
        assert solve._ZETA_CACHE.size == solve.SEAT_ZETA_CACHE_ENTRIES < solve.ZETA_CACHE_ENTRIES
        assert len(solve._ZETA_CACHE) <= solve.SEAT_ZETA_CACHE_ENTRIES
        seat.close()
        watch.close()

    run_async(main())
