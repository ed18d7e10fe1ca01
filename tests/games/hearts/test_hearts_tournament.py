"""Tournaments in chunks: the same results for the same seed on one worker, two workers, or a Dask cluster."""

from __future__ import annotations

import importlib.util
import os
import random
import time

import pytest

from qardlab.engine import RandomBot
from qardlab.games.hearts import Hearts
from qardlab.games.hearts.bots import CountingBot, RuleBot, tournament
from qardlab.games.hearts.parallel import chunk_seed, map_chunks, map_hands

ENTRIES = [
    ("random", RandomBot),
    ("rule", RuleBot),
    ("counting", lambda s: CountingBot(s, samples=4)),
    ("rule-i", RuleBot(11)),
]
needs_joblib = pytest.mark.skipif(
    importlib.util.find_spec("joblib") is None,
    reason="joblib is not installed (pip install 'qardlab[parallel]')",
)


def _squares(start: int, stop: int, chunk_index: int) -> list[tuple[int, int]]:
    return [(h, chunk_index) for h in range(start, stop)]


def test_map_chunks_cuts_fixed_chunks_and_keeps_order() -> None:
    """Chunks are cut by hand number alone, results come back in hand order, progress counts hands."""
    seen: list[int] = []
    out = map_chunks(_squares, 23, chunk=5, n_jobs=1, bar=False, progress=seen.append)
    assert out == [(h, h // 5) for h in range(23)]
    assert seen == [5, 10, 15, 20, 23]
    for bad in (0, -3, 2.5, True):
        with pytest.raises(ValueError, match="positive number of hands"):
            map_chunks(_squares, bad, n_jobs=1, bar=False)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="chunk must be"):
        map_chunks(_squares, 3, chunk=0, n_jobs=1, bar=False)
    with pytest.raises(ValueError, match="n_jobs must be"):
        map_chunks(_squares, 3, n_jobs=0, bar=False)


def test_chunk_seeds_differ_by_chunk_and_entry() -> None:
    seeds = {chunk_seed(s, c, k) for s in (0, 1, 2**40) for c in range(20) for k in range(6)}
    assert len(seeds) == 3 * 20 * 6
    assert chunk_seed(7, 3, 1) == chunk_seed(7, 3, 1)


def test_tournament_depends_on_seed_not_on_order_of_play() -> None:
    """Bots are seeded per chunk: a chunk played alone gives the hands it gives inside the whole run."""
    whole = tournament(ENTRIES, hands=12, seed=5, chunk=4, n_jobs=1, bar=False)
    again = tournament(ENTRIES, hands=12, seed=5, chunk=4, n_jobs=1, bar=False)
    other = tournament(ENTRIES, hands=12, seed=6, chunk=4, n_jobs=1, bar=False)
    assert whole == again
    assert [r.mean for r in whole] != [r.mean for r in other]
    # a bot instance is copied per chunk: the caller's instance is left as it was
    bot = RuleBot(3)
    state = bot.rng.getstate()
    tournament([*ENTRIES[:3], ("mine", bot)], hands=4, seed=1, chunk=2, n_jobs=1, bar=False)
    assert bot.rng.getstate() == state


@needs_joblib
def test_tournament_same_results_on_one_and_two_workers() -> None:
    """Issue 14: the same seed gives the same table whatever the number of workers (joblib, loky)."""
    one = tournament(ENTRIES, hands=16, seed=9, chunk=4, n_jobs=1, bar=False)
    two = tournament(ENTRIES, hands=16, seed=9, chunk=4, n_jobs=2, bar=False)
    assert one == two
    assert all(r.hands == 16 for r in two)


@needs_joblib
def test_tournament_bar_counts_every_hand(capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("tqdm")
    tournament(ENTRIES, hands=6, seed=2, chunk=3, n_jobs=1, bar=True)
    err = capsys.readouterr().err
    assert "tournament" in err and "6/6" in err


@needs_joblib
def test_tournament_on_a_local_dask_cluster() -> None:
    """The same call on a Dask cluster of two workers (127.0.0.1) through joblib's Dask backend."""
    distributed = pytest.importorskip("dask.distributed", reason="the cluster extra is not installed")
    import joblib

    local = tournament(ENTRIES, hands=12, seed=4, chunk=3, n_jobs=1, bar=False)
    with (
        distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1", dashboard_address=None
        ) as cluster,
        distributed.Client(cluster) as client,
    ):
        assert len(client.scheduler_info()["workers"]) == 2
        with joblib.parallel_config(backend="dask"):
            remote = tournament(ENTRIES, hands=12, seed=4, chunk=3, bar=False)
        direct = tournament(ENTRIES, hands=12, seed=4, chunk=3, bar=False, backend="dask")
        ran_on = client.run(lambda: random.random() is not None)  # both workers answer
    assert local == remote == direct
    assert len(ran_on) == 2


def _queen_taker(h: int) -> int:
    """Lesson 08's experiment for hand h: the seat that takes the Queen of spades, four rule bots."""
    game = Hearts.new(4, seed=1000 + h)
    bots = [RuleBot(seed=h * 10 + s) for s in range(4)]
    while game.phase in ("pass", "play"):
        game.apply(bots[game.to_move].act(game.observation(game.to_move)))
    return next(s for s in range(4) if any(c.code == "QS" for c in game.taken(s)))


@needs_joblib
def test_map_hands_same_list_on_one_and_two_workers() -> None:
    one = map_hands(_queen_taker, 12, chunk=5, n_jobs=1, bar=False)
    two = map_hands(_queen_taker, 12, chunk=5, n_jobs=2, bar=False)
    assert one == two == [_queen_taker(h) for h in range(12)]
    assert map_hands(lambda h: h * h, 7, chunk=3, n_jobs=2, bar=False) == [h * h for h in range(7)]


def _pid_chunk(start: int, stop: int, chunk_index: int) -> list[tuple[int, int, int]]:
    """Each hand's number, chunk and the process that played it (a chunk of work worth a worker)."""
    time.sleep(0.05)
    return [(h, chunk_index, os.getpid()) for h in range(start, stop)]


@needs_joblib
def test_default_plays_here_until_the_workers_would_finish_sooner(monkeypatch: pytest.MonkeyPatch) -> None:
    """n_jobs=None: the chunks run in this process while starting the workers would not pay (a short
    experiment stays here, so a lesson does not wait for fresh interpreters), and the rest go to the
    workers once they would finish sooner; the results are the same, hand for hand, either way."""
    from qardlab.games.hearts import parallel

    here = os.getpid()
    monkeypatch.setattr(parallel, "_free_cores", lambda workers: 2.0)  # two cores are free...
    monkeypatch.setattr(parallel, "START_SECONDS", 1.0)  # ...fresh workers take a second to start
    monkeypatch.setattr(parallel, "_workers_up_until", 0.0)  # (none left up by an earlier test)
    short = map_chunks(_pid_chunk, 12, chunk=4, bar=False)
    assert [h for h, _c, _p in short] == list(range(12)) and {p for *_, p in short} == {here}
    monkeypatch.setattr(parallel, "START_SECONDS", 0.0)  # workers that cost nothing to start
    seen: list[int] = []
    spread = map_chunks(_pid_chunk, 12, chunk=4, bar=False, progress=seen.append)
    assert [(h, c) for h, c, _p in spread] == [(h, h // 4) for h in range(12)] and seen == [4, 8, 12]
    assert spread[0][2] == here and {p for *_, p in spread[4:]} - {here}  # the first chunk timed here
    one = tournament(ENTRIES, hands=16, seed=9, chunk=4, n_jobs=1, bar=False)
    assert tournament(ENTRIES, hands=16, seed=9, chunk=4, bar=False) == one


@needs_joblib
def test_default_short_experiment_does_not_import_joblib() -> None:
    """n_jobs=None in a fresh interpreter: a short experiment, which stays in this process, never imports
    joblib (0.1-0.3 s a lesson's cell would wait for); the hands come back in order all the same."""
    import subprocess
    import sys

    code = (
        "import sys\n"
        "from qardlab.games.hearts.parallel import map_chunks\n"
        "out = map_chunks(lambda a, b, i: list(range(a, b)), 12, chunk=4, bar=False)\n"
        "print(out == list(range(12)), 'joblib' in sys.modules)\n"
    )
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in (root, os.environ.get("PYTHONPATH")) if p))
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["True", "False"]
