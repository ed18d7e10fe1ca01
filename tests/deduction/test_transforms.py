"""The fast zeta / Moebius transforms give exactly what the textbook loop gives (float too)."""

from __future__ import annotations

import numpy as np

from qardlab.deduction.solve import moebius, zeta


def _textbook(arr: np.ndarray, n: int, sign: int) -> np.ndarray:
    for i in range(n):
        v = arr.reshape(-1, 2, 1 << i)
        v[:, 1, :] += sign * v[:, 0, :]
    return arr


def test_transforms_match_the_textbook_loop_bit_for_bit():
    rng = np.random.default_rng(14)
    for n in range(0, 15):
        ints = rng.integers(-3, 9, 1 << n).astype(np.int64)
        floats = rng.random(1 << n) * 0.5 ** rng.integers(0, 4, 1 << n)
        for base in (ints, floats):
            z = zeta(base.copy(), n)
            assert np.array_equal(z, _textbook(base.copy(), n, 1))
            assert np.array_equal(moebius(z.copy(), n), _textbook(z.copy(), n, -1))
        assert np.array_equal(moebius(zeta(ints.copy(), n), n), ints)


def test_transforms_restore_numpy_buffer_size():
    before = np.getbufsize()
    zeta(np.ones(1 << 13, dtype=np.int64), 13)
    assert np.getbufsize() == before
