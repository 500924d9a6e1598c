"""``rng_bit_generator`` bit for bit as XLA computes it (``xla/hlo/builder/lib/prng.cc`` and the
``RngBitGeneratorExpander``; StableHLO's reference interpreter does not run it): ThreeFry-2x32 with
20 rounds and Philox-4x32 with 10, on whole arrays of uint32 / uint64 counters.  ``DEFAULT`` is
Philox, as XLA's CPU and GPU compilers choose it."""
from __future__ import annotations

import numpy as np

from shardy_py.interpreter import arith
from shardy_py.interpreter.evaluator import InterpretError, enum_attr, handler
from shardy_py.interpreter.values import bit_width

U32 = np.uint32
_ROTATIONS = (13, 15, 26, 6, 17, 29, 16, 24)


def _rotl(v: np.ndarray, d: int) -> np.ndarray:
    return (v << U32(d)) | (v >> U32(32 - d))


def threefry2x32(x0: np.ndarray, x1: np.ndarray, k0: int, k1: int) -> tuple[np.ndarray, np.ndarray]:
    """ThreeFry-2x32 (20 rounds) of the counters (x0, x1) under the key (k0, k1)."""
    ks = (U32(k0), U32(k1), U32(0x1BD11BDA ^ k0 ^ k1))
    with np.errstate(over="ignore"):
        return _threefry_rounds(x0, x1, ks)


def _threefry_rounds(x0: np.ndarray, x1: np.ndarray, ks) -> tuple[np.ndarray, np.ndarray]:
    x0 = x0 + ks[0]
    x1 = x1 + ks[1]
    for block in range(5):
        for r in _ROTATIONS[(block % 2) * 4:(block % 2) * 4 + 4]:
            x0 = x0 + x1
            x1 = _rotl(x1, r) ^ x0
        x0 = x0 + ks[(block + 1) % 3]
        x1 = x1 + ks[(block + 2) % 3] + U32(block + 1)
    return x0, x1


def _split(u64: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    return (u64 & np.uint64(0xFFFFFFFF)).astype(U32), (u64 >> np.uint64(32)).astype(U32)


def _join(lo: np.ndarray, hi: np.ndarray) -> np.ndarray:
    return lo.astype(np.uint64) | (hi.astype(np.uint64) << np.uint64(32))


def _halves(shape: tuple[int, ...]) -> tuple[tuple[int, ...], int]:
    """XLA's SplitShapeIntoHalves: (the half shape, the dimension split); scalars split as [1]."""
    if not shape:
        return (1,), -1
    split = next((i for i, d in enumerate(shape) if d % 2 == 0), None)
    if split is None:
        split = max(range(len(shape)), key=lambda i: (shape[i], -i))
    half = list(shape)
    half[split] = -(-shape[split] // 2)
    return tuple(half), split


def threefry_bits(key: int, counter: int, shape: tuple[int, ...], width: int) -> tuple[np.ndarray, int]:
    """(the random bits of ``shape`` (uint32 or uint64), the new counter)."""
    k0, k1 = key & 0xFFFFFFFF, key >> 32
    if width == 64:
        n = int(np.prod(shape, dtype=np.int64))
        lo, hi = _split(np.uint64(counter) + np.arange(n, dtype=np.uint64))
        x0, x1 = threefry2x32(lo, hi, k0, k1)
        return _join(x0, x1).reshape(shape), (counter + n) % 2**64
    half, split = _halves(shape)
    n = int(np.prod(half, dtype=np.int64))
    lo, hi = _split(np.uint64(counter) + np.arange(n, dtype=np.uint64))
    x0, x1 = threefry2x32(lo, hi, k0, k1)
    if split < 0:
        return x0.reshape(()), (counter + n) % 2**64
    x0, x1 = x0.reshape(half), x1.reshape(half)
    both = np.stack([x0, x1], axis=split + 1)  # the halves side by side along a new dimension
    full = list(shape)
    full[split] = 2 * half[split]
    out = both.reshape(full)
    return out[tuple(slice(0, d) for d in shape)], (counter + n) % 2**64


_PHILOX_W = (0x9E3779B9, 0xBB67AE85)
_PHILOX_M = (np.uint64(0xD2511F53), np.uint64(0xCD9E8D57))


def philox4x32(x: list[np.ndarray], k0: int, k1: int) -> list[np.ndarray]:
    """Philox-4x32 (10 rounds) of the counters ``x`` (four uint32 arrays) under the key (k0, k1)."""
    key = [k0, k1]
    for _ in range(10):
        p0 = x[0].astype(np.uint64) * _PHILOX_M[0]
        p1 = x[2].astype(np.uint64) * _PHILOX_M[1]
        hi0, lo0 = (p0 >> np.uint64(32)).astype(U32), p0.astype(U32)
        hi1, lo1 = (p1 >> np.uint64(32)).astype(U32), p1.astype(U32)
        x = [hi1 ^ x[1] ^ U32(key[0]), lo1, hi0 ^ x[3] ^ U32(key[1]), lo0]
        key = [(key[0] + _PHILOX_W[0]) & 0xFFFFFFFF, (key[1] + _PHILOX_W[1]) & 0xFFFFFFFF]
    return x


def philox_bits(key: int, counter: tuple[int, int], shape: tuple[int, ...], width: int):
    """(the random bits of ``shape``, the new 128-bit counter as (low, high))."""
    n = int(np.prod(shape, dtype=np.int64))
    words = n * 2 if width == 64 else n
    vectors = -(-words // 4)
    low, high = counter
    idx = np.arange(vectors, dtype=np.uint64)
    new_low = np.uint64(low) + idx
    new_high = np.where(new_low < np.uint64(low), np.uint64((high + 1) % 2**64), np.uint64(high))
    x = [*_split(new_low), *_split(new_high)]
    bits = philox4x32(x, key & 0xFFFFFFFF, key >> 32)
    next_low = (low + vectors) % 2**64
    next_counter = (next_low, (high + (1 if next_low < low else 0)) % 2**64)
    if width == 64:
        pairs = np.stack([_join(bits[0], bits[1]), _join(bits[2], bits[3])], axis=1).reshape(-1)
        return pairs[:n].reshape(shape), next_counter
    return np.stack(bits, axis=1).reshape(-1)[:n].reshape(shape), next_counter


@handler("stablehlo.rng_bit_generator")
def _rng_bit_generator(ev, op, args):
    (state,) = args
    algorithm = enum_attr(op, "rng_algorithm", "DEFAULT")
    out_type = op.results[1].type
    name = out_type.element_type
    width = bit_width(name)
    if width not in (8, 16, 32, 64):
        raise InterpretError(f"rng_bit_generator of {name} is not supported")
    s = [int(v) for v in state.astype(np.uint64).reshape(-1)]
    shape = tuple(out_type.shape)
    gen_width = 64 if width == 64 else 32
    if algorithm == "THREE_FRY":
        bits, counter = threefry_bits(s[0], s[1], shape, gen_width)
        new_state = [s[0], counter, *s[2:]]
    else:
        counter = (s[1], s[2]) if len(s) >= 3 else (s[1], s[0])
        bits, (low, high) = philox_bits(s[0], counter, shape, gen_width)
        new_state = [s[0], low, high] if len(s) >= 3 else [s[0], low]
        new_state += s[len(new_state):]
    bits = bits.astype(np.uint64)
    if width < 32:
        bits = bits & np.uint64((1 << width) - 1)
    return [np.array(new_state, dtype=np.uint64).reshape(state.shape).astype(state.dtype),
            arith.from_bits(bits, name)]
