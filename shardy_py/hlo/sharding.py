"""``HloSharding``: the GSPMD sharding of one value (or a tuple of values).

Kinds: ``replicated``, ``manual``, ``unknown``, ``unreduced``, ``maximal``
(one device), ``tiled`` (a ``TileAssignment`` whose leading dims tile the data
and whose trailing dims are subgroups) and ``tuple``.

The constructors ``subgroup`` and ``partial_tile`` normalise exactly as XLA's
``HloSharding::Subgroup`` / ``PartialTile`` do, so ``str(h)`` is the text XLA
prints for the same sharding.
"""
from __future__ import annotations

import functools
import math
from collections.abc import Iterable, Sequence

import numpy as np

from shardy_py.hlo.errors import HloShardingError
from shardy_py.hlo.frozen import read_only
from shardy_py.hlo.printing import PLAIN_IOTA_TEMPLATES, plain_iota_template, print_hlo_sharding
from shardy_py.hlo.tile_assignment import TileAssignment, group_minor_iota_dims_sorted

REPLICATED = "replicated"
MANUAL = "manual"
UNREDUCED = "unreduced"
MAXIMAL = "maximal"
#: Subgroup types in the order XLA sorts them (OpSharding enum, replicated moved last).
SUBGROUP_ORDER = (MAXIMAL, MANUAL, UNREDUCED, REPLICATED)
SUBGROUP_TYPES = frozenset(SUBGROUP_ORDER)
#: Printed texts up to this length are kept on the (immutable) sharding; longer ones (V1 lists
#: of many devices) are printed again on each call, so cached shardings stay small.
KEEP_TEXT_CHARS = 1 << 16


_prod = math.prod
_ONE_DIM = (0,)
_SWAPPED = (1, 0)


def _direct_iota_tile(dims: tuple[int, ...], reshape: tuple[int, ...], perm: tuple[int, ...] | None,
                      subgroup_types: tuple[str, ...]) -> HloSharding | None:
    """``HloSharding.iota_tile`` built in one step for the common shapes, or None for the rest.

    The common shapes: a canonical iota of one reshape dim or two transposed ones, with no
    subgroup or with a replicated last tile dim that ``partial_tile`` keeps as it is (the minor
    reshape dim is a multiple of the group).  The result is the general path's
    (``tests/test_hlo_iota_tile.py`` checks it).  Ints that are not Python ints make ``prod``
    differ in type and go the general way, which converts them.
    """
    if len(reshape) == 2:
        if perm != _SWAPPED or reshape[0] < 2 or reshape[1] < 2:
            return None
    elif len(reshape) != 1 or (perm is not None and perm != _ONE_DIM):
        return None
    n = _prod(dims)
    if n != _prod(reshape) or type(n) is not int or not dims or min(dims) < 1:
        return None
    replicate_last = False
    if subgroup_types:
        group = dims[-1]
        if (len(subgroup_types) != 1 or subgroup_types[0] != REPLICATED or not 1 < group < n
                or reshape[0] % group):  # reshape[0] is the minor dim after the transpose
            return None
        replicate_last = True
    ta = TileAssignment._canonical_iota(dims, reshape, _SWAPPED if len(reshape) == 2 else _ONE_DIM)
    return HloSharding("tiled", ta, replicate_on_last_tile_dim=replicate_last)


class HloSharding:
    """One HloSharding value; build it with the class methods or ``HloSharding.parse``.

    Immutable (like XLA's), so it can be shared through caches (``export_sharding``) and keeps
    its printed texts once computed (up to ``KEEP_TEXT_CHARS``)."""

    __slots__ = ("_kind", "_assignment", "_replicate_on_last_tile_dim", "_subgroup_types", "_device", "_elements",
                 "_shard_group", "_metadata", "_text", "_v1_text")

    def __init__(self, kind: str, assignment: TileAssignment | None = None, *,
                 replicate_on_last_tile_dim: bool = False, subgroup_types: Sequence[str] = (),
                 device: int | None = None, elements: Sequence[HloSharding] = (),
                 shard_group: str = "", metadata: str = ""):
        self._kind = kind
        self._assignment = assignment
        self._replicate_on_last_tile_dim = replicate_on_last_tile_dim
        self._subgroup_types = tuple(subgroup_types)
        self._device = device
        self._elements = tuple(elements)
        self._shard_group = shard_group
        self._metadata = metadata
        self._text = None
        self._v1_text = None

    kind = read_only("HloSharding", "kind",
                     "replicated, manual, unknown, unreduced, maximal, tiled or tuple.")
    assignment = read_only("HloSharding", "assignment", "The ``TileAssignment`` of a tiled sharding, else None.")
    replicate_on_last_tile_dim = read_only("HloSharding", "replicate_on_last_tile_dim",
                                           "True for ``last_tile_dim_replicate``.")
    subgroup_types = read_only("HloSharding", "subgroup_types", "The types of ``last_tile_dims={...}``, in order.")
    device = read_only("HloSharding", "device", "The device of a maximal sharding, else None.")
    elements = read_only("HloSharding", "elements", "The element shardings of a tuple sharding.")
    shard_group = read_only("HloSharding", "shard_group", '``"shard_as N"``, ``"shard_like N"`` or ``""``.')
    metadata = read_only("HloSharding", "metadata", 'The verbatim ``{...}`` after ``metadata=``, or ``""``.')

    def with_annotations(self, shard_group: str = "", metadata: str = "") -> HloSharding:
        """The same sharding with ``shard_as N``/``shard_like N`` and metadata set."""
        return HloSharding(self.kind, self.assignment, replicate_on_last_tile_dim=self.replicate_on_last_tile_dim,
                           subgroup_types=self.subgroup_types, device=self.device, elements=self.elements,
                           shard_group=shard_group, metadata=metadata)

    # -- simple constructors ----------------------------------------------------------------------
    @classmethod
    def replicate(cls) -> HloSharding:
        return cls(REPLICATED)

    @classmethod
    def manual(cls) -> HloSharding:
        return cls(MANUAL)

    @classmethod
    def unknown(cls) -> HloSharding:
        return cls("unknown")

    @classmethod
    def unreduced(cls) -> HloSharding:
        return cls(UNREDUCED)

    @classmethod
    def maximal(cls, device: int) -> HloSharding:
        """Everything on one device: ``{maximal device=N}``."""
        return cls(MAXIMAL, device=int(device))

    @classmethod
    def tuple(cls, elements: Iterable[HloSharding]) -> HloSharding:
        elements = list(elements)
        if any(e.is_tuple for e in elements):
            raise HloShardingError("tuple shardings are flat: an element cannot be a tuple")
        return cls("tuple", elements=elements)

    @classmethod
    def tile(cls, assignment: TileAssignment) -> HloSharding:
        """A fully tiled sharding (every tile dim is a data dim)."""
        return cls("tiled", assignment)

    @classmethod
    def iota_tile(cls, dims: Sequence[int], reshape_dims: Sequence[int] | None = None,
                  perm: Sequence[int] | None = None, subgroup_types: Sequence[str] = ()) -> HloSharding:
        """XLA's ``HloSharding::IotaTile``: ``TileAssignment.iota(dims, reshape_dims, perm)``, the
        trailing ``len(subgroup_types)`` dims being subgroups (normalised as ``subgroup`` does).

        Raises ``HloShardingError`` on dims that do not describe an iota of ``prod(dims)`` devices.
        Memoised (``IOTA_TILE_CACHE_SIZE`` entries; ``clear_iota_tile_cache()`` empties it); the
        common shapes are built directly, the rest through the general normalisation."""
        return _iota_tile_memo(tuple(dims), None if reshape_dims is None else tuple(reshape_dims),
                               None if perm is None else tuple(perm), tuple(subgroup_types))

    # -- normalising constructors (XLA's PartialTile / Subgroup) ---------------------------------
    @classmethod
    def partial_tile(cls, assignment: TileAssignment) -> HloSharding:
        """Tiled with the last tile dim replicated; devices inside each replication group are sorted."""
        n = assignment.num_elements
        if assignment.ndim == 1 or assignment.dims[-1] == n:
            return cls.replicate()
        group = assignment.dims[-1]
        if group == 1:
            return cls("tiled", assignment.reshape(assignment.dims[:-1]))
        if assignment.is_iota:
            rd, perm = assignment.reshape_dims, assignment.perm
            if rd[perm[-1]] == group:
                return cls("tiled", assignment, replicate_on_last_tile_dim=True)
            grouped = group_minor_iota_dims_sorted(rd, perm, group)
            if grouped is not None:
                return cls("tiled", TileAssignment.iota(assignment.dims, *grouped), replicate_on_last_tile_dim=True)
        sorted_devices = np.sort(assignment.array.reshape(-1, group), axis=1).reshape(assignment.dims)
        return cls("tiled", TileAssignment.from_array(sorted_devices), replicate_on_last_tile_dim=True)

    @classmethod
    def subgroup(cls, assignment: TileAssignment, types: Sequence[str]) -> HloSharding:
        """Tiled, with one trailing tile dim per entry of ``types`` (manual/replicated/unreduced/maximal).

        Size-1 subgroup dims are dropped, dims of the same type merged and types put
        in XLA's order (manual, unreduced, replicated); a sharding with nothing left
        but one kind of subgroup becomes ``{manual}`` / ``{replicated}`` / ``{unreduced}``.
        """
        types = tuple(types)
        for t in types:
            if t not in SUBGROUP_TYPES:
                raise HloShardingError(f"unknown subgroup type {t!r}; expected one of {sorted(SUBGROUP_TYPES)}")
        if not types:
            return cls("tiled", assignment)
        if len(types) > assignment.ndim:
            raise HloShardingError(f"{len(types)} subgroup types for a {assignment.ndim}-d tile assignment")
        data_dims = assignment.ndim - len(types)
        if all(t == types[0] for t in types) and _prod(assignment.dims[:data_dims]) == 1:
            if types[0] == MANUAL:
                return cls.manual()
            if types[0] == REPLICATED:
                return cls.replicate()
            if types[0] == UNREDUCED:
                return cls.unreduced()
        by_type: dict[str, list[int]] = {}
        removed: list[int] = []
        needs_merging = False
        for i, t in enumerate(types):
            if assignment.dims[data_dims + i] == 1:
                removed.append(data_dims + i)
                needs_merging = True
                continue
            dims = by_type.setdefault(t, [])
            needs_merging |= bool(dims)
            dims.append(data_dims + i)
        needs_merging |= len(by_type) > 1
        if not needs_merging:
            return cls._create_subgrouped(assignment, types)
        perm = list(range(data_dims))
        merged_shape = list(assignment.dims[:data_dims])
        merged_types = []
        for t in SUBGROUP_ORDER:
            if t not in by_type:
                continue
            size = 1
            for d in by_type[t]:
                perm.append(d)
                size *= assignment.dims[d]
            merged_shape.append(size)
            merged_types.append(t)
        new_assignment = None
        if assignment.is_iota:
            transposed = assignment.transpose(perm + removed)
            if transposed.is_iota:
                new_assignment = TileAssignment.iota(merged_shape, transposed.reshape_dims, transposed.perm)
        if new_assignment is None:
            arr = assignment.array.transpose(perm + removed).reshape(merged_shape)
            new_assignment = TileAssignment.from_array(arr)
        return cls._create_subgrouped(new_assignment, merged_types)

    @classmethod
    def _create_subgrouped(cls, assignment: TileAssignment, types: Sequence[str]) -> HloSharding:
        types = tuple(types)
        if types == (REPLICATED,):
            return cls.partial_tile(assignment)
        if types == (MANUAL,) and assignment.num_elements == assignment.dims[-1]:
            return cls.manual()
        if types and types[-1] == REPLICATED:
            base = cls.partial_tile(assignment)
            if base.kind != "tiled":  # cannot happen for a valid subgroup sharding; keep XLA's shape
                return base
            return cls("tiled", base.assignment, subgroup_types=types)
        return cls("tiled", assignment, subgroup_types=types)

    # -- parsing / printing -----------------------------------------------------------------------
    @classmethod
    def parse(cls, text: str) -> HloSharding:
        """Parse any text XLA prints for an HloSharding (``{devices=[2,2]<=[4]}``, ``{{replicated}, ...}``)."""
        from shardy_py.hlo.text import parse_hlo_sharding

        return parse_hlo_sharding(text)

    def __str__(self) -> str:
        text = self._text
        if text is not None:
            return text
        ta = self._assignment
        if ta is not None and ta._reshape_dims is not None and not self._subgroup_types and not self._shard_group:
            # A plain iota (most shardings): one template chosen by the ranks, filled in place.
            dims, reshape = ta._dims, ta._reshape_dims
            key = (len(dims), len(reshape), self._replicate_on_last_tile_dim)
            template = PLAIN_IOTA_TEMPLATES.get(key) or plain_iota_template(*key)
            text = self._text = template % ((*dims, *reshape, *ta._perm) if key[1] > 1 else (*dims, *reshape))
            return text
        text = print_hlo_sharding(self)
        if len(text) <= KEEP_TEXT_CHARS:
            self._text = text
        return text

    def to_v1_text(self) -> str:
        """The text with every tile assignment written as an explicit device list."""
        text = self._v1_text
        if text is None:
            text = print_hlo_sharding(self, v1=True)
            if len(text) <= KEEP_TEXT_CHARS:
                self._v1_text = text
        return text

    def __repr__(self) -> str:
        text = str(self) if self.kind != "tiled" or self.assignment.is_iota or self.num_devices <= 64 else \
            f"{{devices={list(self.assignment.dims)}<array>}}"
        return f"HloSharding({text})"

    # -- predicates -------------------------------------------------------------------------------
    @property
    def is_tuple(self) -> bool:
        return self.kind == "tuple"

    @property
    def is_replicated(self) -> bool:
        return self.kind == REPLICATED

    @property
    def is_manual(self) -> bool:
        return self.kind == MANUAL

    @property
    def is_unknown(self) -> bool:
        return self.kind == "unknown"

    @property
    def is_unreduced(self) -> bool:
        return self.kind == UNREDUCED

    @property
    def is_maximal(self) -> bool:
        return self.kind == MAXIMAL

    @property
    def is_tiled(self) -> bool:
        return self.kind == "tiled"

    # -- tile assignment queries ------------------------------------------------------------------
    def _require_tiled(self, what: str) -> TileAssignment:
        if self.kind != "tiled":
            raise HloShardingError(f"{what} needs a tiled sharding, not {self}")
        return self.assignment

    @property
    def subgroup_dims(self) -> tuple[str, ...]:
        """The type of each trailing non-data tile dim (``("replicated",)`` for last_tile_dim_replicate)."""
        if self.replicate_on_last_tile_dim:
            return (REPLICATED,)
        return self.subgroup_types

    @property
    def tiled_data_rank(self) -> int:
        """Number of tile dims that tile the data (tile dims minus subgroup dims)."""
        ta = self._require_tiled("tiled_data_rank")
        return ta.ndim - len(self.subgroup_dims)

    @property
    def tile_assignment(self) -> np.ndarray:
        """Device ids as an int64 array: data tile dims, then subgroup dims (``[[d]]``-like for maximal)."""
        if self.kind == MAXIMAL:
            return np.array([self.device], dtype=np.int64)
        return self._require_tiled("tile_assignment").array

    @property
    def tile_dims(self) -> tuple[int, ...]:
        """Number of tiles along each data dimension."""
        ta = self._require_tiled("tile_dims")
        return ta.dims[:self.tiled_data_rank]

    @property
    def num_devices(self) -> int:
        if self.kind == MAXIMAL:
            return 1
        return self._require_tiled("num_devices").num_elements

    def devices_for_tile(self, index: Sequence[int]) -> np.ndarray:
        """Every device holding data tile ``index`` (the whole subgroup), in tile-assignment order."""
        if self.kind == MAXIMAL:
            return np.array([self.device], dtype=np.int64)
        ta = self._require_tiled("devices_for_tile")
        index = tuple(int(i) for i in index)
        if len(index) != self.tiled_data_rank:
            raise HloShardingError(f"tile index {list(index)} has rank {len(index)}, the sharding tiles "
                                   f"{self.tiled_data_rank} dims")
        for i, n in zip(index, ta.dims, strict=False):
            if not 0 <= i < n:
                raise HloShardingError(f"tile index {list(index)} is outside the tile grid {list(self.tile_dims)}")
        if ta.is_iota and ta.ndim == len(index):
            return np.array([ta.value_at(index)], dtype=np.int64)
        return np.array(ta.array[index], dtype=np.int64).reshape(-1)

    def tile_of_device(self, device: int) -> tuple[int, ...]:
        """The data tile index held by ``device`` (XLA's ``TileIndexForDevice``)."""
        if self.kind == MAXIMAL:
            if device != self.device:
                raise HloShardingError(f"device {device} holds no tile of {self}")
            return ()
        ta = self._require_tiled("tile_of_device")
        where = ta.index_of(int(device))
        if where is None:
            raise HloShardingError(f"device {device} does not appear in {self!r}")
        return where[:self.tiled_data_rank]

    def tile_index_of_all_devices(self) -> np.ndarray:
        """Array ``out[device] = data tile index`` (shape ``(num_devices, tiled_data_rank)``),
        for assignments whose devices are ``0..n-1``; vectorised."""
        ta = self._require_tiled("tile_index_of_all_devices")
        flat = ta.array.reshape(-1)
        n = flat.size
        if flat.min() < 0 or flat.max() >= n:
            raise HloShardingError("device ids are not 0..n-1")
        position = np.empty(n, dtype=np.int64)
        position[flat] = np.arange(n, dtype=np.int64)
        coords = np.stack(np.unravel_index(position, ta.dims), axis=1) if ta.ndim else np.zeros((n, 0), np.int64)
        return coords[:, :self.tiled_data_rank]

    # -- equality ---------------------------------------------------------------------------------
    def _key(self):
        return (self.kind, self.replicate_on_last_tile_dim, self.subgroup_types, self.device, self.shard_group)

    def __eq__(self, other) -> bool:
        if not isinstance(other, HloSharding):
            return NotImplemented
        if self._key() != other._key():
            return False
        if self.kind == "tuple":
            return self.elements == other.elements
        return self.assignment == other.assignment

    def __hash__(self) -> int:
        return hash((self._key(), self.assignment.dims if self.assignment is not None else None, len(self.elements)))


def _prod(xs) -> int:
    out = 1
    for x in xs:
        out *= x
    return out


#: Distinct ``HloSharding.iota_tile`` arguments whose result is kept.
IOTA_TILE_CACHE_SIZE = 4096


@functools.lru_cache(maxsize=IOTA_TILE_CACHE_SIZE)
def _iota_tile_memo(dims: tuple[int, ...], reshape_dims: tuple[int, ...] | None, perm: tuple[int, ...] | None,
                    types: tuple[str, ...]) -> HloSharding:
    if reshape_dims is not None:
        direct = _direct_iota_tile(dims, reshape_dims, perm, types)
        if direct is not None:
            return direct
    return HloSharding.subgroup(TileAssignment.iota(dims, reshape_dims, perm), types)


def clear_iota_tile_cache() -> None:
    """Forget memoised ``HloSharding.iota_tile`` results (for cold-start measurements)."""
    _iota_tile_memo.cache_clear()
