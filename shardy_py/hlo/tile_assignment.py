"""``TileAssignment``: which device holds which tile, kept symbolic when possible.

An *iota* tile assignment (XLA's ``IotaTileAssignment``, printed
``devices=[4,2]<=[2,4]T(1,0)``) is

    arange(n).reshape(reshape_dims).transpose(perm).reshape(dims)

and is stored as those three tuples; the device array is only built when asked
for (``.array``).  Any other assignment (V1, ``devices=[2,2]3,1,0,2``) is an
int64 numpy array.  The transformations below follow XLA's
``tile_assignment.cc`` step for step, because the printed text of an
HloSharding depends on exactly which of them stay symbolic.
"""
from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from shardy_py.hlo.errors import HloShardingError
from shardy_py.hlo.frozen import read_only
from shardy_py.hlo.printing import device_list_text, iota_text

_new = object.__new__

#: Iota assignments up to this many devices keep their materialised array (see ``TileAssignment.array``).
KEEP_ARRAY_ELEMENTS = 1 << 16


def canonicalize_iota(reshape_dims: Sequence[int], perm: Sequence[int]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Drop size-1 reshape dims and merge reshape dims that stay adjacent after the transpose.

    Example: ``[1,3,1,4,1,5]T(4,3,2,5,1,0)`` -> ``[3,20]T(1,0)``: the ones go, then
    dims 1 and 2 of ``[3,4,5]T(1,2,0)`` are consecutive in the perm and become one dim of 20.
    (XLA repeats drop-and-merge until nothing changes; one pass over maximal runs is the same,
    since merged runs can never become adjacent to each other.)
    """
    dims, perm = tuple(reshape_dims), tuple(perm)
    if len(dims) <= 1 or (1 not in dims and all(a + 1 != b for a, b in zip(perm, perm[1:], strict=False))):
        return (dims, perm) if dims else ((1,), (0,))  # already canonical (the common case)
    kept = [p for p in perm if dims[p] != 1]
    if not kept:
        return (1,), (0,)
    rank = {d: r for r, d in enumerate(sorted(kept))}  # position among the non-1 dims
    runs: list[list[int]] = []  # [first rank, last rank, product], in perm order
    for p in kept:
        r = rank[p]
        if runs and runs[-1][1] + 1 == r:
            runs[-1][1] = r
            runs[-1][2] *= dims[p]
        else:
            runs.append([r, r, dims[p]])
    by_first = sorted(range(len(runs)), key=lambda i: runs[i][0])
    new_position = [0] * len(runs)
    for position, i in enumerate(by_first):
        new_position[i] = position
    return tuple(runs[i][2] for i in by_first), tuple(new_position)


def _check_iota(dims: tuple[int, ...], reshape_dims: tuple[int, ...], perm: tuple[int, ...]) -> None:
    if min(dims, default=1) < 1 or min(reshape_dims, default=1) < 1:
        raise HloShardingError(f"iota dims must be positive: tile dims {list(dims)}, reshape dims {list(reshape_dims)}")
    if math.prod(dims) != math.prod(reshape_dims):
        raise HloShardingError(f"the iota reshape dims {list(reshape_dims)} hold {math.prod(reshape_dims)} devices, "
                               f"the tile dims {list(dims)} {math.prod(dims)}")
    if sorted(perm) != list(range(len(reshape_dims))):
        raise HloShardingError(f"the iota transpose {list(perm)} is not a permutation of the "
                               f"{len(reshape_dims)} reshape dims")


def _transpose_kind(dims: Sequence[int], perm: Sequence[int]) -> str:
    """"noop", "reshape" (only size-1 dims move) or "transpose"."""
    kind = "noop"
    prev = -1
    for i, d in enumerate(perm):
        if dims[d] == 1:
            if d != i and dims[i] != 1:
                kind = "reshape"
            continue
        if d <= prev:
            return "transpose"
        prev = d
    return kind


def prime_factors(n: int) -> list[int]:
    """``n``'s prime factors, smallest first (``[]`` for 1)."""
    out = []
    while n % 2 == 0:
        out.append(2)
        n //= 2
    f = 3
    while f * f <= n:
        while n % f == 0:
            out.append(f)
            n //= f
        f += 2
    if n > 1:
        out.append(n)
    return out


def _fully_decanonicalize(reshape_dims, perm) -> tuple[list[int], list[int], list[int]]:
    """Split every reshape dim into its prime factors (``[4,3]T(1,0)`` -> ``[2,2,3]T(2,0,1)``).

    Also returns, for each position of the new perm, the original reshape dim it came from."""
    new_dims: list[int] = []
    starts = [0]
    for d in reshape_dims:
        new_dims.extend(prime_factors(d))
        starts.append(len(new_dims))
    new_perm = [j for p in perm for j in range(starts[p], starts[p + 1])]
    origin = [p for p in perm for _ in range(starts[p], starts[p + 1])]
    return new_dims, new_perm, origin


class TileAssignment:
    """An n-d array of device ids, symbolic (iota) or materialised (numpy); immutable."""

    __slots__ = ("_dims", "_reshape_dims", "_perm", "_array")

    def __init__(self, dims, reshape_dims=None, perm=None, array: np.ndarray | None = None):
        # Use the ``iota`` / ``from_array`` constructors; this one trusts its arguments.
        self._dims = tuple(map(int, dims))
        self._reshape_dims = reshape_dims
        self._perm = perm
        self._array = array

    dims = read_only("TileAssignment", "dims", "The tile dims (the array's shape), a tuple of ints.")
    reshape_dims = read_only("TileAssignment", "reshape_dims",
                             "An iota's reshape dims (canonical unless built by ``raw_iota``); None for an array.")
    perm = read_only("TileAssignment", "perm", "An iota's transpose of its reshape dims; None for an array.")

    @classmethod
    def _canonical_iota(cls, dims: tuple[int, ...], reshape_dims: tuple[int, ...], perm: tuple[int, ...]):
        """An iota from tuples of ints already in canonical form (no checks, no conversions)."""
        out = _new(cls)
        out._dims = dims
        out._reshape_dims = reshape_dims
        out._perm = perm
        out._array = None
        return out

    # -- constructors -------------------------------------------------------------------------
    @classmethod
    def iota(cls, dims: Sequence[int], reshape_dims: Sequence[int] | None = None,
             perm: Sequence[int] | None = None) -> TileAssignment:
        """``arange(n).reshape(reshape_dims).transpose(perm).reshape(dims)``, canonicalised.

        Raises ``HloShardingError`` when the reshape dims do not hold ``prod(dims)`` devices or
        ``perm`` is not a permutation of them (where XLA's C++ stops the process)."""
        dims = tuple(map(int, dims))
        if reshape_dims is None:
            reshape_dims, perm = (math.prod(dims),), (0,)
        else:
            reshape_dims = tuple(map(int, reshape_dims))
            perm = tuple(range(len(reshape_dims))) if perm is None else tuple(map(int, perm))
            _check_iota(dims, reshape_dims, perm)
        rd, p = canonicalize_iota(reshape_dims, perm)
        return cls._canonical_iota(dims, rd, p)

    @classmethod
    def raw_iota(cls, dims, reshape_dims, perm) -> TileAssignment:
        """An iota assignment exactly as given (no canonicalisation), like XLA's Reshape does."""
        return cls(tuple(dims), tuple(reshape_dims), tuple(perm))

    @classmethod
    def from_array(cls, array) -> TileAssignment:
        """A materialised (V1) assignment; ``array``'s shape is the tile dims."""
        arr = np.array(array, dtype=np.int64)
        arr.setflags(write=False)
        return cls(arr.shape, None, None, arr)

    # -- basic properties ---------------------------------------------------------------------
    @property
    def is_iota(self) -> bool:
        return self._reshape_dims is not None

    @property
    def ndim(self) -> int:
        return len(self._dims)

    @property
    def num_elements(self) -> int:
        return math.prod(self._dims)

    @property
    def array(self) -> np.ndarray:
        """The device ids as a read-only int64 array of shape ``dims``, built on demand.

        An iota keeps its array when it has at most ``KEEP_ARRAY_ELEMENTS`` devices; a larger
        one is rebuilt on each access (about 1 ms per million devices), so shardings shared
        through caches never pin big arrays in memory."""
        if self._array is not None:
            return self._array
        flat = np.arange(math.prod(self._reshape_dims), dtype=np.int64)
        arr = np.ascontiguousarray(flat.reshape(self._reshape_dims).transpose(self._perm)).reshape(self._dims)
        arr.setflags(write=False)
        if arr.size <= KEEP_ARRAY_ELEMENTS:
            self._array = arr
        return arr

    def value_at(self, index: Sequence[int]) -> int:
        """The device at tile ``index`` without materialising the array."""
        if not self.is_iota:
            return int(self.array[tuple(index)])
        linear = int(np.ravel_multi_index(tuple(index), self._dims)) if self._dims else 0
        rd, perm = self._reshape_dims, self._perm
        transposed_shape = [rd[p] for p in perm]
        digits = np.unravel_index(linear, transposed_shape)
        reshape_index = [0] * len(rd)
        for pos, p in enumerate(perm):
            reshape_index[p] = int(digits[pos])
        return int(np.ravel_multi_index(reshape_index, rd))

    def index_of(self, device: int) -> tuple[int, ...] | None:
        """The tile index holding ``device`` (first occurrence), or None when it is not used."""
        if self.is_iota:
            if not 0 <= device < self.num_elements:
                return None
            digits = np.unravel_index(device, self._reshape_dims)
            transposed = [int(digits[p]) for p in self._perm]
            linear = int(np.ravel_multi_index(transposed, [self._reshape_dims[p] for p in self._perm]))
            return tuple(int(i) for i in np.unravel_index(linear, self._dims))
        hits = np.flatnonzero(self.array.reshape(-1) == device)
        if hits.size == 0:
            return None
        return tuple(int(i) for i in np.unravel_index(int(hits[0]), self._dims))

    # -- transformations (XLA semantics) --------------------------------------------------------
    def reshape(self, new_dims: Sequence[int]) -> TileAssignment:
        new_dims = tuple(int(d) for d in new_dims)
        if math.prod(new_dims) != self.num_elements:
            raise ValueError(f"cannot reshape {list(self._dims)} to {list(new_dims)}")
        if self.is_iota:
            return TileAssignment(new_dims, self._reshape_dims, self._perm)
        return TileAssignment.from_array(self.array.reshape(new_dims))

    def transpose(self, perm: Sequence[int]) -> TileAssignment:
        perm = tuple(int(p) for p in perm)
        kind = _transpose_kind(self._dims, perm)
        if kind == "noop":
            return self
        if self.is_iota:
            out = self._iota_transpose(perm, kind)
            if out is not None:
                return out
        return TileAssignment.from_array(self.array.transpose(perm))

    def _iota_transpose(self, perm: tuple[int, ...], kind: str) -> TileAssignment | None:
        dims = self._dims
        new_dims = [dims[p] for p in perm]
        if kind == "reshape":
            return TileAssignment.iota(new_dims, self._reshape_dims, self._perm)
        if len(self._reshape_dims) == 1:
            return TileAssignment.iota(new_dims, dims, perm)
        # A pure transpose: every non-1 tile dim is exactly one reshape dim, in perm order.
        pure = True
        non_one: list[int] = []
        one_to_non_one = [-1] * len(dims)
        for i, dim in enumerate(dims):
            if dim == 1:
                continue
            if len(non_one) >= len(self._reshape_dims) or self._reshape_dims[self._perm[len(non_one)]] != dim:
                pure = False
            one_to_non_one[i] = len(non_one)
            non_one.append(dim)
        if pure:
            new_perm = [self._perm[one_to_non_one[p]] for p in perm if dims[p] != 1]
            return TileAssignment.iota(new_dims, self._reshape_dims, new_perm)
        # Split the reshape dims into prime factors and regroup them per tile dim (XLA's
        # IotaTileAssignment::Transpose).  The factors of one reshape dim may be reordered
        # (it stays the same iota): when the next factor does not divide the tile dim, a
        # later factor of the same reshape dim that does is swapped in.
        prime_dims, prime_perm, origin = _fully_decanonicalize(self._reshape_dims, self._perm)
        positions_of: dict[int, list[int]] = {}
        for k, o in enumerate(origin):
            positions_of.setdefault(o, []).append(k)

        def divisor_at(target: int, k: int) -> int | None:
            dim = prime_perm[k]
            if target % prime_dims[dim] == 0:
                return dim
            for later in positions_of[origin[k]]:
                other = prime_perm[later]
                if later > k and target % prime_dims[other] == 0:
                    prime_dims[dim], prime_dims[other] = prime_dims[other], prime_dims[dim]
                    return dim
            return None

        groups: list[list[int]] = [[] for _ in non_one]
        k = 0
        for i, target in enumerate(non_one):
            if k >= len(prime_dims):
                break
            dim = divisor_at(target, k)
            while dim is not None:
                target //= prime_dims[dim]
                groups[i].append(dim)
                k += 1
                if k >= len(prime_dims):
                    break
                dim = divisor_at(target, k)
            if target != 1:
                return None
        flat_perm = [d for p in perm if one_to_non_one[p] >= 0 for d in groups[one_to_non_one[p]]]
        return TileAssignment.iota(new_dims, prime_dims, flat_perm)

    def as_iota(self) -> TileAssignment | None:
        """This assignment in iota form when its device array is a transposed iota (a V1 list
        "in disguise"), else None.  Vectorised: O(n) numpy work, no per-device Python."""
        if self.is_iota:
            return self
        found = find_iota(self.array)
        return None if found is None else TileAssignment.iota(self._dims, *found)

    def materialized(self) -> TileAssignment:
        """The same assignment in array (V1) form."""
        return self if not self.is_iota else TileAssignment.from_array(self.array)

    # -- text ------------------------------------------------------------------------------------
    def text(self) -> str:
        """``devices=[4,2]<=[2,4]T(1,0)`` for an iota, ``devices=[2,2]0,2,1,3`` otherwise."""
        if self._reshape_dims is not None:
            return iota_text(self._dims, self._reshape_dims, self._perm)
        return device_list_text(self._dims, self._array)

    def v1_text(self) -> str:
        """Always the explicit device list: ``devices=[4,2]0,4,1,5,2,6,3,7``."""
        return device_list_text(self._dims, self.array)

    def __eq__(self, other) -> bool:
        if not isinstance(other, TileAssignment):
            return NotImplemented
        if self._dims != other._dims:
            return False
        if self.is_iota and other.is_iota:
            if (self._reshape_dims, self._perm) == (other._reshape_dims, other._perm):
                return True
        return bool(np.array_equal(self.array, other.array))

    def __hash__(self) -> int:
        return hash(self._dims)

    def __repr__(self) -> str:
        text = self.text() if self.is_iota or self.num_elements <= 64 else f"devices={list(self._dims)}<array>"
        return f"TileAssignment({text})"


def group_minor_iota_dims_sorted(reshape_dims: Sequence[int], perm: Sequence[int], group_size: int):
    """XLA's ``GroupMinorIotaDimsSorted``: rewrite an iota so that its minor-most
    ``group_size`` devices are in increasing order, splitting one reshape dim if needed.

    Returns ``(new_reshape_dims, new_perm)`` or None when that is impossible (the
    caller then sorts a materialised array).
    """
    grouped = 0
    split = None
    for i in range(len(perm) - 1, -1, -1):
        dim = perm[i]
        size = reshape_dims[dim]
        if size <= group_size:
            if group_size % size:
                return None
            group_size //= size
            grouped += 1
        else:
            if size % group_size:
                return None
            split = (dim, size // group_size)
            grouped += 1
            group_size = 1
            break
    if split is None:
        new_perm = list(perm)
        if grouped:
            new_perm[len(new_perm) - grouped:] = sorted(new_perm[len(new_perm) - grouped:])
        return list(reshape_dims), new_perm
    split_i, major = split
    new_dims = list(reshape_dims[:split_i]) + [major, reshape_dims[split_i] // major] + list(reshape_dims[split_i + 1:])
    new_perm = [0] * (len(perm) + 1)
    perm_split = 0
    for i, p in enumerate(perm):
        new_perm[i] = p if p <= split_i else p + 1
        if p == split_i:
            perm_split = i
            break
    new_perm[perm_split + 1] = new_perm[perm_split] + 1
    for i in range(perm_split + 2, len(new_perm)):
        p = perm[i - 1]
        new_perm[i] = p if p <= split_i else p + 1
    new_perm[len(new_perm) - grouped:] = sorted(new_perm[len(new_perm) - grouped:])
    return new_dims, new_perm


def find_iota(devices: np.ndarray) -> tuple[list[int], list[int]] | None:
    """``(reshape_dims, perm)`` with ``arange(n).reshape(reshape_dims).transpose(perm)`` equal to
    ``devices`` (flattened), or None.

    Peel the array from its minor end: the longest run ``0, s, 2s, ...`` at the start is
    one transposed dim of length L and stride s; every block of L must repeat it, and the
    block heads form the next, coarser level.  The levels must tile ``0..n-1`` exactly
    (sorted by stride: 1, L1, L1*L2, ...).  Example: ``0,4,1,5,2,6,3,7`` peels into
    (2, stride 4) then (4, stride 1), i.e. ``[4,2]T(1,0)``.
    """
    cur = np.asarray(devices, dtype=np.int64).reshape(-1)
    n = cur.size
    if n == 0 or cur[0] != 0:
        return None
    levels: list[tuple[int, int]] = []  # (length, stride), minor level first
    while cur.size > 1:
        stride = int(cur[1])
        if stride <= 0:
            return None
        ramp = np.arange(cur.size, dtype=np.int64) * stride
        mismatch = np.flatnonzero(cur != ramp)
        length = int(mismatch[0]) if mismatch.size else cur.size
        if cur.size % length:
            return None
        rows = cur.reshape(-1, length)
        if not np.array_equal(rows, rows[:, :1] + ramp[:length]):
            return None
        levels.append((length, stride))
        cur = rows[:, 0]
    expected = 1
    for length, stride in sorted(levels, key=lambda ls: ls[1]):
        if stride != expected:
            return None
        expected *= length
    if expected != n:
        return None
    by_stride = sorted(range(len(levels)), key=lambda i: -levels[i][1])  # reshape dims, major first
    reshape_dims = [levels[i][0] for i in by_stride]
    position = {level: pos for pos, level in enumerate(by_stride)}
    perm = [position[i] for i in reversed(range(len(levels)))]
    return reshape_dims or [1], perm or [0]
