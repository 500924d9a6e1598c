"""Reading the three ops of MLIR's ``shard`` dialect (``mesh`` before LLVM 21) that carry
shardings, from their properties (``dialects.shard`` declares them):

```
shard.grid @grid0(shape = 2x2x4)                         mesh.mesh @mesh0(shape = 2x2x4)
%s = shard.sharding @grid0 split_axes = [[0], [], [1, 2]] : !shard.sharding
%s = mesh.sharding @mesh0 split_axes = [[0]] partial = max [1] halo_sizes = [1, 2] : !mesh.sharding
%0 = shard.shard %arg0 to %s annotate_for_users : tensor<4x8xf32>
```

into ``GridSpec``, ``ShardingSpec`` and ``ShardUse`` values; ``build_*`` make those ops.
"""
from __future__ import annotations

import re

import attrs

from shardy_py.dialects import shard as D
from shardy_py.ir.attrs import UNIT_ATTR, OpaqueAttr
from shardy_py.ir.builder import Builder
from shardy_py.ir.ops import Operation, Value
from shardy_py.ir.types import Type

_STRING = re.compile(r'"(?:[^"\\]|\\.)*"')
#: Reduction kinds of ``partial = KIND [...]`` (MLIR's ReductionKind enum).
SHARD_REDUCTIONS = D.REDUCTIONS


class SyntaxProblem(ValueError):
    """Bad shard-dialect syntax: ``message``, and ``needle``, the text to point at."""

    def __init__(self, message: str, needle: str | None = None):
        super().__init__(message)
        self.message = message
        self.needle = needle


@attrs.frozen
class GridSpec:
    """``shard.grid @name(shape = 2x?x4)``: ``None`` for a dynamic (``?``) size."""

    name: str
    shape: tuple[int | None, ...]


@attrs.frozen
class ShardingSpec:
    """The operands of ``shard.sharding``; halo sizes and offsets are kept as written (ints or values)."""

    grid: str
    split_axes: tuple[tuple[int, ...], ...]
    partial_type: str | None = None
    partial_axes: tuple[int, ...] = ()
    halo_sizes: tuple[str, ...] = ()
    sharded_dims_offsets: tuple[str, ...] = ()


@attrs.frozen
class ShardUse:
    """``shard.shard %src to %sharding [annotate_for_users]``."""

    src: str
    sharding: str
    annotate_for_users: bool


def _grid_attr(op: Operation) -> str:
    return "grid" if op.dialect == "shard" else "mesh"


def read_grid(op: Operation) -> GridSpec:
    """The grid a ``shard.grid`` / ``mesh.mesh`` op defines."""
    shape = tuple(None if d == D.DYNAMIC else d for d in D.read_int_array(op.properties.get("shape")))
    return GridSpec(D.string_of(op.properties["sym_name"]), shape)


def read_axis_names(text: str) -> tuple[str, ...]:
    """The strings of an array attribute ``["x", "y"]``."""
    from shardy_py.syntax.sdy_parser import StringEscapeError, unquote

    inner = text.strip()
    if not (inner.startswith("[") and inner.endswith("]")):
        raise SyntaxProblem(f'axis names must be an array of strings like ["x", "y"], not {text}', "axis_names")
    parts = [p.strip() for p in _split_top(inner[1:-1])] if inner[1:-1].strip() else []
    names = []
    for p in parts:
        if not _STRING.fullmatch(p):
            raise SyntaxProblem(f"axis name {p} is not a string", "axis_names")
        try:
            names.append(unquote(p))
        except StringEscapeError as e:
            raise SyntaxProblem(str(e), "axis_names") from None
    return tuple(names)


def _split_top(text: str) -> list[str]:
    out, pos = [], 0
    for m in re.finditer(r'"(?:[^"\\]|\\.)*"|,', text):
        if m.group() == ",":
            out.append(text[pos:m.start()])
            pos = m.end()
    out.append(text[pos:])
    return out


def read_sharding(op: Operation) -> ShardingSpec:
    """The sharding a ``shard.sharding`` / ``mesh.sharding`` op defines."""
    p = op.properties
    spec = ShardingSpec(D.symbol_of(p[_grid_attr(op)]), D.read_axis_array(p["split_axes"]))
    if p.get("partial_type") is not None:
        kind = D._PartialType().print(p["partial_type"])
        spec = attrs.evolve(spec, partial_type=kind, partial_axes=D.read_int_array(p.get("partial_axes")))
    dynamic = {"halo_sizes": op.operands[len(op.operands) - _count(op, "halo_sizes"):],
               "sharded_dims_offsets": op.operands[:_count(op, "sharded_dims_offsets")]}
    for key, values in dynamic.items():
        names = iter(op.operand_names[op.operands.index(v)] if v is not None else "?" for v in values)
        items = tuple(next(names) if x == D.DYNAMIC else str(x) for x in D.read_int_array(p.get(f"static_{key}")))
        spec = attrs.evolve(spec, **{key: items})
    return spec


def _count(op: Operation, key: str) -> int:
    """How many dynamic operands the ``static_<key>`` list of a sharding op stands for."""
    return sum(1 for x in D.read_int_array(op.properties.get(f"static_{key}")) if x == D.DYNAMIC)


def read_shard(op: Operation) -> ShardUse:
    """The operands of a ``shard.shard`` / ``mesh.shard`` op, as written."""
    names = list(op.operand_names) + ["?", "?"]
    return ShardUse(names[0], names[1], op.properties.get("annotate_for_users") is not None)


# ---- building -------------------------------------------------------------------------------------

def build_grid(b: Builder, dialect: str, grid: GridSpec, attributes: dict | None = None) -> Operation:
    """``shard.grid @name(shape = 2x4)`` (``mesh.mesh`` for the mesh spelling)."""
    name = f"{dialect}.{'grid' if dialect == 'shard' else 'mesh'}"
    shape = D.int_array(D.DYNAMIC if d is None else d for d in grid.shape)
    return b.create(name, result_types=(), properties={"sym_name": OpaqueAttr(_quoted(grid.name)), "shape": shape},
                    attributes=attributes)


def build_sharding(b: Builder, dialect: str, spec: ShardingSpec, sharding_type: Type) -> Operation:
    """``shard.sharding @grid split_axes = [...] [partial = KIND [...]]``; trailing empty split axes are
    dropped (at least ``[[]]`` stays), as MLIR keeps them."""
    from shardy_py.syntax import attr_printer as P

    dims = list(spec.split_axes)
    while len(dims) > 1 and not dims[-1]:
        dims.pop()
    props = {"grid" if dialect == "shard" else "mesh": OpaqueAttr(P.symbol_ref(spec.grid)),
             "split_axes": D.axis_array(dialect, dims or [()])}
    if spec.partial_type is not None:
        props["partial_type"] = OpaqueAttr(f"#mesh.partial<{spec.partial_type}>")
        props["partial_axes"] = D.int_array(spec.partial_axes, 16)
    return b.create(f"{dialect}.sharding", result_types=[sharding_type], properties=props)


def build_shard(b: Builder, dialect: str, src: Value, sharding: Value, annotate_for_users: bool,
                attributes: dict | None = None) -> Operation:
    """``shard.shard %src to %sharding [annotate_for_users] : T``."""
    props = {"annotate_for_users": UNIT_ATTR} if annotate_for_users else {}
    return b.create(f"{dialect}.shard", [src, sharding], properties=props, attributes=attributes)


def _quoted(name: str) -> str:
    from shardy_py.syntax import attr_printer as P

    return P.quote_string(name)
