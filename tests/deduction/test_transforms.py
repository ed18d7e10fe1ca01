"""The fast zeta / Moebius transforms give exactly what the textbook loop gives (float too);
the advisor's sparse both-held sums equal the dense product."""

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


def test_both_held_sums_match_the_dense_product():
    """The advisor's sparse (hand, pair) sums equal the dense product, sparse or not."""
    from qardlab.deduction.pair_advisor import _both_held

    rng = np.random.default_rng(3)
    nf, nn = 6, 5
    for density in (0.15, 0.9):
        mem = (rng.random((40, nf + nn)) < density).astype(np.float64)
        joint = rng.random((7, 40))
        dense = joint @ (mem[:, :nf, None] * mem[:, None, nf:]).reshape(40, nf * nn)
        assert np.allclose(_both_held(joint, mem, nf, nn).reshape(7, -1), dense, atol=1e-12)
