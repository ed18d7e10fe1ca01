"""Experiments over many hands on every core, or on a Dask cluster: ``map_chunks``.

An experiment is cut into fixed chunks of hands (``chunk`` hands each, the last one shorter);
a chunk is a picklable call ``fn(start, stop, chunk_index)`` that plays hands ``start..stop-1``
and returns their results as a list. Whatever seeds a chunk must come from its index (and the
experiment's seed), never from the worker it runs on, so that the same seed gives the same
results for any number of workers: chunks are cut the same way and their results put back in
order.

Chunks run through joblib (``pip install qardlab[parallel]``): on every local core (``n_jobs=-1``),
and on a Dask cluster inside ``joblib.parallel_config(backend="dask")`` with a
``dask.distributed.Client`` connected (``pip install qardlab[cluster]``). Without joblib, or with
one worker, or with one chunk, they run in this process. By default (``n_jobs=None``, joblib's own
local backend) the faster of the two: chunks run here, timed, while the hands left would take less
here than on every core once its workers are started (about a second for fresh workers, nothing for
workers this module started recently; the cores other work keeps busy, by the load average, do not
count), and the rest go to every core as soon as they would not.
The results are the same either way, chunk for chunk. A tqdm progress bar (``tqdm.auto``: a
widget in a notebook, text in a terminal) counts the hands as chunks come back; ``bar=False``
turns it off, and ``progress(hands_done)``, if given, is called as well.
"""

from __future__ import annotations

import functools
import importlib.util
import os
import sys
import time
from typing import Any, Callable, Iterator, Optional

__all__ = ["map_hands", "map_chunks", "chunk_seed", "have_joblib"]


def have_joblib() -> bool:
    """Whether joblib is installed (the ``parallel`` extra)."""
    return importlib.util.find_spec("joblib") is not None


def chunk_seed(seed: int, chunk_index: int, entry: int = 0) -> int:
    """A 32-bit seed for one entry (a bot, a seat) in one chunk of an experiment seeded ``seed``.

    Built by numpy's SeedSequence from the three numbers, so neighbouring chunks and entries get
    unrelated streams, and a chunk's seeds never depend on which worker plays it.
    """
    import numpy as np

    return int(
        np.random.SeedSequence(
            [seed & 0xFFFFFFFF, seed >> 32 & 0xFFFFFFFF, chunk_index, entry]
        ).generate_state(1)[0]
    )


#: what starting joblib's local workers costs before their first chunk comes back (seconds: each is a
#: fresh interpreter that imports the experiment's modules); what sending one chunk and getting its
#: results back costs once they are up; how long idle workers are kept (loky's reusable executor
#: keeps them 300 s; a little less, to be safe)
START_SECONDS = 1.0
CHUNK_OVERHEAD_SECONDS = 0.01
_KEPT_SECONDS = 240.0
_workers_up_until = 0.0  # time.monotonic() until which workers this module started are likely still up


def _default_backend() -> bool:
    """Whether joblib's active backend is its default local one (loky), not one set by
    ``joblib.parallel_config`` (Dask, threads...): only then does ``n_jobs=None`` choose."""
    from joblib.parallel import get_active_backend

    return type(get_active_backend()[0]).__name__ == "LokyBackend"


def _free_cores(workers: int) -> float:
    """How many of ``workers`` local workers would run at once: the cores not busy with other work
    (the load average of the last minute, less this process, which is busy playing), at least one."""
    try:
        load = os.getloadavg()[0]
    except (AttributeError, OSError):  # (no load average on this system)
        return float(workers)
    return max(1.0, min(float(workers), (os.cpu_count() or 1) - load + 1.0))


def _workers_pay(left_here: float, workers: int) -> bool:
    """Whether the chunks left, ``left_here`` seconds of work in this process, finish sooner on
    ``workers`` local workers (started if need be) sharing the cores other work leaves free."""
    start = 0.0 if time.monotonic() < _workers_up_until else START_SECONDS
    return start + left_here / _free_cores(workers) < left_here


def _bounds(total: int, chunk: int) -> list[tuple[int, int, int]]:
    return [(i, start, min(start + chunk, total)) for i, start in enumerate(range(0, total, chunk))]


def _workers(n_jobs: Optional[int], backend: Optional[str]) -> int:
    """How many workers joblib would use (1 with n_jobs=1, or n_jobs=None and no joblib)."""
    if n_jobs == 1:
        return 1
    if not have_joblib():
        if n_jobs is None:
            return 1
        raise ImportError(
            f"n_jobs={n_jobs!r} runs on several cores through joblib, which is not installed: "
            "pip install 'qardlab[parallel]' (or pass n_jobs=1)"
        )
    import joblib

    if backend is None:
        return joblib.effective_n_jobs(-1 if n_jobs is None else n_jobs)
    with joblib.parallel_config(backend=backend):
        return joblib.effective_n_jobs(-1 if n_jobs is None else n_jobs)


def _local_cores() -> int:
    """The cores this process may run on (joblib's count of local workers for ``n_jobs=-1``, less any
    cgroup quota, which only the choice of where to run reads)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # (no affinity on this system)
        return os.cpu_count() or 1


def _results(
    fn: Callable[[int, int, int], list],
    bounds: list[tuple[int, int, int]],
    n_jobs: Optional[int],
    backend: Optional[str],
) -> Iterator[tuple[int, list]]:
    """(hands in the chunk, its results) for every chunk, in chunk order."""
    # n_jobs=None before joblib is imported: no joblib.parallel_config can be active, so its default
    # local backend; the cores are counted without importing it (~0.1-0.3 s), which waits until the
    # chunks are handed on, if they are
    unloaded = n_jobs is None and backend is None and "joblib" not in sys.modules
    if len(bounds) <= 1:
        workers = 1
    elif unloaded:
        workers = _local_cores() if have_joblib() else 1
    else:
        workers = _workers(n_jobs, backend)
    if workers <= 1:
        for i, start, stop in bounds:
            yield stop - start, fn(start, stop, i)
        return
    if n_jobs is None and backend is None and (unloaded or _default_backend()):
        # the faster of this process and every core: chunks run here while what is left would take
        # less time here than on the workers (the estimate: the hands played here so far, timed)
        spent = 0.0
        played = 0
        left = sum(stop - start for _, start, stop in bounds)
        while bounds:
            if played and _workers_pay(spent / played * left + CHUNK_OVERHEAD_SECONDS * len(bounds), workers):
                break
            i, start, stop = bounds[0]
            t = time.perf_counter()
            out = fn(start, stop, i)
            spent += time.perf_counter() - t
            played += stop - start
            left -= stop - start
            bounds = bounds[1:]
            yield stop - start, out
        if not bounds:
            return
    import contextlib

    import joblib

    global _workers_up_until
    # a backend named here is set as joblib.parallel_config would (Parallel(backend="dask") itself
    # hands joblib's nesting level on to Dask's submit in joblib 1.6)
    scope = joblib.parallel_config(backend=backend) if backend is not None else contextlib.nullcontext()
    with scope:
        parallel = joblib.Parallel(n_jobs=-1 if n_jobs is None else n_jobs, return_as="generator")
        calls = (joblib.delayed(fn)(start, stop, i) for i, start, stop in bounds)
        for (_, start, stop), out in zip(bounds, parallel(calls)):
            yield stop - start, out
    _workers_up_until = time.monotonic() + _KEPT_SECONDS


def map_chunks(
    fn: Callable[[int, int, int], list],
    total: int,
    chunk: int = 10,
    n_jobs: Optional[int] = None,
    backend: Optional[str] = None,
    bar: Optional[bool] = None,
    progress: Optional[Callable[[int], None]] = None,
    desc: str = "hands",
) -> list[Any]:
    """Every result of ``fn`` over ``total`` hands cut into chunks of ``chunk``, in hand order.

    ``n_jobs``: joblib's (``-1`` every core or every Dask worker, ``1`` this process); None: this
    process or every core, whichever finishes sooner (see the module), or this process without
    joblib; with a backend named or set by ``joblib.parallel_config``, every worker it has.
    ``backend``: joblib's backend name (None: the one of the enclosing ``joblib.parallel_config``,
    loky by default; ``"dask"`` for a cluster). ``bar``: a tqdm progress bar (None: when tqdm is
    installed; False: none).
    """
    if isinstance(total, bool) or not isinstance(total, int) or total < 1:
        raise ValueError(f"an experiment plays a positive number of hands, not {total!r}")
    if isinstance(chunk, bool) or not isinstance(chunk, int) or chunk < 1:
        raise ValueError(f"chunk must be a positive number of hands, not {chunk!r}")
    if n_jobs is not None and (isinstance(n_jobs, bool) or not isinstance(n_jobs, int) or n_jobs == 0):
        raise ValueError(f"n_jobs must be a non-zero integer (-1: every core) or None, not {n_jobs!r}")
    meter = None
    if bar is None:
        bar = importlib.util.find_spec("tqdm") is not None
    if bar:
        from tqdm.auto import tqdm

        meter = tqdm(total=total, desc=desc, unit="hand")
    out: list[Any] = []
    done = 0
    try:
        for size, results in _results(fn, _bounds(total, chunk), n_jobs, backend):
            out.extend(results)
            done += size
            if meter is not None:
                meter.update(size)
            if progress is not None:
                progress(done)
    finally:
        if meter is not None:
            meter.close()
    return out


def _each_hand(fn: Callable[[int], Any], start: int, stop: int, chunk_index: int) -> list[Any]:
    return [fn(h) for h in range(start, stop)]


def map_hands(
    fn: Callable[[int], Any],
    hands: int,
    chunk: int = 10,
    n_jobs: Optional[int] = None,
    backend: Optional[str] = None,
    bar: Optional[bool] = None,
    progress: Optional[Callable[[int], None]] = None,
    desc: str = "hands",
) -> list[Any]:
    """``[fn(0), fn(1), ..., fn(hands - 1)]``, computed in chunks on every core (see :func:`map_chunks`).

    For an experiment whose hand ``h`` is seeded by ``h`` alone (lesson 08's "who takes the Queen"):
    the list is the same for any number of workers. ``fn`` may be a function or a lambda defined
    in a notebook (joblib sends it to the workers with cloudpickle).
    """
    return map_chunks(
        functools.partial(_each_hand, fn),
        hands,
        chunk=chunk,
        n_jobs=n_jobs,
        backend=backend,
        bar=bar,
        progress=progress,
        desc=desc,
    )
