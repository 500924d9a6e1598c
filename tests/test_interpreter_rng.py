"""rng_bit_generator bit for bit as XLA computes it: the Random123 known answers of its two
generators, and jax's own execution on CPU (XLA) for every algorithm, width and a few shapes."""
from __future__ import annotations

import numpy as np
import pytest

import shardy_py
from shardy_py.interpreter.ops_rng import philox4x32, threefry2x32


def test_threefry2x32_known_answer():
    x0, x1 = threefry2x32(np.zeros(1, np.uint32), np.zeros(1, np.uint32), 0, 0)
    assert (int(x0[0]), int(x1[0])) == (0x6B200159, 0x99BA4EFE)


def test_philox4x32_known_answer():
    out = philox4x32([np.zeros(1, np.uint32)] * 4, 0, 0)
    assert [int(v[0]) for v in out] == [0x6627E8D5, 0xE169C58D, 0xBC57AC4C, 0x9B00DBD8]


@pytest.mark.parametrize("algorithm", ["RNG_DEFAULT", "RNG_THREE_FRY", "RNG_PHILOX"])
@pytest.mark.parametrize("dtype", ["uint16", "uint32", "uint64"])
@pytest.mark.parametrize("shape", [(), (5, 3), (4, 7, 1)])
def test_rng_bit_generator_matches_xla(algorithm, dtype, shape):
    jax = pytest.importorskip("jax", reason="the oracle is XLA's rng_bit_generator, through jax 0.12")
    from jax import lax

    key = np.array([0xFFFFFFF0, 0xFFFFFFFF, 7, 12345], np.uint32)  # the counter wraps around
    with jax.enable_x64(True):  # uint64 results stay uint64
        fn = jax.jit(lambda k: lax.rng_bit_generator(k, shape, dtype=np.dtype(dtype),
                                                     algorithm=getattr(lax.RandomAlgorithm, algorithm)))
        want_state, want = fn(key)
        text = fn.lower(key).as_text()
    got_state, got = shardy_py.interpret(text, key)
    assert got.dtype == np.dtype(dtype) and got.shape == shape
    assert np.array_equal(got, np.asarray(want)) and np.array_equal(got_state, np.asarray(want_state))
