"""Bytes one device holds of a value: its local shape under its sharding, padded up where the
sharding does not divide a dimension, times the size of its element type as XLA stores it.

Element sizes (``element_bits``): ``i1`` is XLA's ``pred``, one byte; the 2- and 4-bit types
(``i2``/``ui2``/``i4``/``ui4``, ``f4E2M1FN``) are packed (``ceil(elements * bits / 8)`` bytes, as XLA
lays them out, ``E(2)``/``E(4)`` in its layouts); other types narrower than a byte (``f6E2M3FN``,
``f6E3M2FN``, odd integer widths) take one byte each; ``index`` is 8 bytes; ``complex<T>`` is two
``T``; a quantized type takes its storage type's size.  Tokens take nothing; a tuple is the sum of
its members.  Measured against ``memory_analysis()`` of programs jax 0.12 compiles for the CPU
(``benchmarks/cost_vs_xla.py``).
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass

from shardy_py.ir.attrs import MeshAttr, TensorShardingAttr
from shardy_py.ir.module import sharding_of
from shardy_py.ir.ops import Block, Value
from shardy_py.ir.types import DYNAMIC, QuantizedType, RankedTensorType, TokenType, TupleType, Type
from shardy_py.passes.shardings import get_sharding
from shardy_py.show.dtypes import element_bits as show_element_bits
from shardy_py.show.dtypes import storage_bytes

_QUANT_STORAGE = re.compile(r"!quant\.uniform<[a-z]*?(\d+)")


def element_bits(element_type: str | Type) -> int | None:
    """Bits of one element as XLA stores it before packing (``"f32"`` 32, ``"i1"`` 8, ``"i4"`` 4,
    ``"complex<f64>"`` 128, a quantized type its storage width); None for a type with no size."""
    if isinstance(element_type, QuantizedType):
        return element_type.storage_width
    m = _QUANT_STORAGE.match(str(element_type).strip())
    return int(m.group(1)) if m else show_element_bits(str(element_type))


def tensor_bytes(shape: tuple[int, ...], element_type: str | Type) -> int | None:
    """Bytes of a dense tensor of ``shape``: packed for 2- and 4-bit elements, whole bytes per element
    otherwise; None when the element type has no known size or a dimension is dynamic."""
    bits = element_bits(element_type)
    if bits is None or any(d == DYNAMIC for d in shape):
        return None
    return storage_bytes(math.prod(shape), bits)


def axes_size(axes, mesh: MeshAttr) -> int:
    """The number of devices ``axes`` (axis refs, sub-axes included) split a dimension into."""
    n = 1
    for ref in axes:
        n *= ref.size(mesh) or 1
    return n


def local_shape(shape: tuple[int, ...], sharding: TensorShardingAttr | None, mesh: MeshAttr | None) -> tuple[int, ...]:
    """The shape one device holds: each dimension divided by the product of its axes' sizes,
    rounded up (the padding a sharding that does not divide leaves).  Replicated and unreduced
    axes do not split; a value without sharding (or a maximal mesh) is held whole."""
    return _split(shape, sharding, mesh)[0]


def _split(shape: tuple[int, ...], sharding: TensorShardingAttr | None,
           mesh: MeshAttr | None) -> tuple[tuple[int, ...], bool]:
    """``(local shape, padded)``."""
    if sharding is None or mesh is None or len(sharding.dim_shardings) != len(shape):
        return tuple(shape), False
    out, padded = [], False
    for d, dim in zip(shape, sharding.dim_shardings, strict=True):
        n = axes_size(dim.axes, mesh)
        if d == DYNAMIC:
            out.append(d)
            continue
        out.append(-(-d // n))
        padded = padded or d % n != 0
    return tuple(out), padded


@dataclass(frozen=True)
class LocalSize:
    """What one device holds of a value: ``bytes`` (None when unknown: dynamic shapes, unsized
    types), its ``local_type`` text, whether ``padded``, and ``device`` (None: every device of the
    mesh; an id: only that device, a maximal sharding)."""

    bytes: int | None
    local_type: str
    padded: bool = False
    device: int | None = None


def _tensor_text(shape: tuple[int, ...], element: str) -> str:
    return "tensor<" + "".join(("?" if d == DYNAMIC else str(d)) + "x" for d in shape) + element + ">"


def type_size(t: Type | None, sharding: TensorShardingAttr | None = None,
              mesh: MeshAttr | None = None) -> LocalSize:
    """``LocalSize`` of a value of type ``t`` sharded by ``sharding`` over ``mesh``."""
    if t is None:
        return LocalSize(None, "?")
    if isinstance(t, TokenType) or str(t) == "!stablehlo.token":
        return LocalSize(0, str(t))
    if isinstance(t, TupleType):
        sizes = [type_size(m) for m in t.types]
        total = None if any(s.bytes is None for s in sizes) else sum(s.bytes for s in sizes)
        return LocalSize(total, str(t))
    if not isinstance(t, RankedTensorType):
        return LocalSize(None, str(t))
    device = None
    if mesh is not None and mesh.is_maximal:
        device = mesh.device_ids[0]
    shape, padded = _split(t.shape, sharding, mesh)
    element = t.element_type
    return LocalSize(tensor_bytes(shape, element), _tensor_text(shape, element), padded, device)


def value_sharding(value: Value) -> TensorShardingAttr | None:
    """The sharding ``value`` is held in: Shardy's ``getSharding`` (a function argument's, an op
    result's ``sdy.sharding``, a collective's ``out_sharding``, a while or case block argument's
    through its op), except that a manual computation's block arguments, whose types are local
    already, are split by its free axes only."""
    owner = value.owner
    if isinstance(owner, Block) and owner.parent is not None and owner.parent.parent is not None \
            and owner.parent.parent.name == "sdy.manual_computation":
        return sharding_of(value)
    return get_sharding(value)


def value_size(value: Value, meshes: dict[str, MeshAttr]) -> LocalSize:
    """``LocalSize`` of ``value`` under its sharding (``value_sharding``); ``meshes`` resolves
    ``@mesh`` references."""
    sharding = value_sharding(value)
    return type_size(value.type, sharding, mesh_of(sharding, meshes))


def mesh_of(sharding: TensorShardingAttr | None, meshes: dict[str, MeshAttr]) -> MeshAttr | None:
    """The mesh ``sharding`` names (inline or ``@name`` in ``meshes``); None without one."""
    if sharding is None:
        return None
    ref = sharding.mesh_or_ref
    return ref if isinstance(ref, MeshAttr) else meshes.get(ref)

