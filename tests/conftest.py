"""Settings shared by the whole test suite (generic only; game fixtures live next to their tests).

- numpy's BLAS and OpenMP run on one thread: the machines have two shared cores, and threaded BLAS made the
  small matrix products of the deduction engine many times slower and noisy (DESIGN.md). Set before numpy
  loads, and inherited by the notebook kernels that nbval starts.
- matplotlib draws off screen (Agg) in the test process, and figures are closed after each test.
- Hypothesis has no per-example deadline: timing on a shared machine is noise, not a test result.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

try:  # in this process only: the notebook kernels keep their inline backend
    import matplotlib

    matplotlib.use("Agg")
except ImportError:
    pass

try:
    from hypothesis import HealthCheck, settings

    settings.register_profile("qardlab", deadline=None, suppress_health_check=[HealthCheck.too_slow])
    settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "qardlab"))
except ImportError:  # hypothesis is in the test extra; without it only the property tests are missing
    pass

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="session")
def repo_root() -> Path:
    """The repository's root folder."""
    return ROOT


@pytest.fixture(autouse=True)
def _close_figures() -> Iterator[None]:
    """Close matplotlib figures a test left open (only if pyplot was imported at all)."""
    yield
    if "matplotlib.pyplot" in sys.modules:
        sys.modules["matplotlib.pyplot"].close("all")
