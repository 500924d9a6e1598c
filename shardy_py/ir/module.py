"""``Module``: a parsed MLIR module with its symbol table and value shardings."""
from __future__ import annotations

from collections.abc import Iterator

import attrs

from shardy_py.ir import hooks
from shardy_py.ir.attrs import MeshAttr, TensorShardingAttr, TensorShardingPerValueAttr
from shardy_py.ir.ops import COLLECTIVE_OPS, Block, Operation, Value
from shardy_py.ir.partition_spec import mark_sharding


@attrs.define(eq=False, repr=False)
class Module:
    """A parsed module.

    ``op`` is the ``builtin.module`` operation (synthesised when the text had
    no explicit ``module``: the printer then wraps the ops in ``module {``, as
    MLIR does).  ``source`` and ``filename`` are what was parsed.
    """

    op: Operation
    source: str = ""
    filename: str | None = None
    #: Top-level text that is not an op (attribute/type alias definitions), printed first.
    preamble: list[str] = attrs.field(factory=list)
    #: Such text written after the ops (MLIR prints its location aliases there), printed last.
    postamble: list[str] = attrs.field(factory=list)
    #: What MLIR's verifier says of SSA uses the parser met out of order: (line, column, message,
    #: kind, the using op), kind "isolation" or "dominance" (``syntax.ssa_uses``); ``verify`` reports them.
    ssa_failures: list[tuple] = attrs.field(factory=list)

    @property
    def body(self) -> Block:
        return self.op.regions[0].blocks[0]

    @property
    def ops(self) -> list[Operation]:
        """The ops directly in the module body."""
        return self.body.ops

    def walk(self) -> Iterator[Operation]:
        """Every op, pre-order (the module op itself first)."""
        return self.op.walk()

    @property
    def meshes(self) -> dict[str, MeshAttr]:
        """Symbol table of ``sdy.mesh`` ops: name -> mesh (first definition wins)."""
        out: dict[str, MeshAttr] = {}
        for op in self.ops:
            if op.name == "sdy.mesh":
                out.setdefault(op.properties_view["sym_name"], op.properties_view["mesh"])
        return out

    @property
    def funcs(self) -> dict[str, Operation]:
        """``func.func`` ops by symbol name."""
        return {op.properties_view["sym_name"]: op for op in self.ops if op.name == "func.func"}

    def resolve_mesh(self, mesh_or_ref: str | MeshAttr | TensorShardingAttr) -> MeshAttr | None:
        """The mesh a sharding (or a mesh name, or an inline mesh) refers to; None if undefined."""
        if isinstance(mesh_or_ref, TensorShardingAttr):
            mesh_or_ref = mesh_or_ref.mesh_or_ref
        if isinstance(mesh_or_ref, MeshAttr):
            return mesh_or_ref
        return self.meshes.get(mesh_or_ref)

    def sharding_of(self, value: Value) -> TensorShardingAttr | None:
        """The sharding of ``value``, resolved as Shardy's ``getSharding`` does."""
        return sharding_of(value)

    def mark_sharding(self, value, mesh_name: str, partition_spec, **kwargs):
        """Attach a sharding built from a PartitionSpec to a func argument or op result.

        See ``shardy_py.ir.partition_spec.mark_sharding`` for the arguments (``priority=``,
        ``unreduced=``, ...); returns the ``TensorShardingAttr`` attached.
        """
        return mark_sharding(self, value, mesh_name, partition_spec, **kwargs)

    def __str__(self) -> str:
        return hooks.print_module(self)

    def __repr__(self) -> str:
        return f"<Module {self.filename or ''} {len(self.ops)} top-level ops>"

    def _repr_html_(self) -> str:
        """Notebook picture of every sharded value (what ``python -m shardy_py show`` draws)."""
        return hooks.module_html(self)


#: ``_drop_manual`` results by (sharding, manual axes): both immutable, so a sharding read many times
#: (every verification of every op using a manual computation's argument) is rebuilt once.
_DROPPED_MANUAL: dict[tuple, TensorShardingAttr] = {}


def _drop_manual(s: TensorShardingAttr, manual) -> TensorShardingAttr:
    """``s`` with the manual axes removed (leading dim axes, replicated, unreduced)."""
    key = (s, tuple(manual))
    hit = _DROPPED_MANUAL.get(key)
    if hit is None:
        if len(_DROPPED_MANUAL) > 4096:
            _DROPPED_MANUAL.clear()
        hit = _DROPPED_MANUAL[key] = _drop_manual_uncached(s, key[1])
    return hit


def _drop_manual_uncached(s: TensorShardingAttr, manual: tuple[str, ...]) -> TensorShardingAttr:
    dims = []
    for d in s.dim_shardings:
        axes = list(d.axes)
        while axes and axes[0].name in manual:
            axes.pop(0)
        dims.append(attrs.evolve(d, axes=tuple(axes)))
    return attrs.evolve(
        s, dim_shardings=tuple(dims),
        replicated_axes=tuple(a for a in s.replicated_axes if a.name not in manual),
        unreduced_axes=tuple(a for a in s.unreduced_axes if a.name not in manual))


def _per_value(attr, index: int) -> TensorShardingAttr | None:
    if isinstance(attr, TensorShardingPerValueAttr) and index < len(attr.shardings):
        return attr.shardings[index]
    return None


def sharding_of(value: Value) -> TensorShardingAttr | None:
    """Appendix R of the constraints catalogue: where a value's sharding lives."""
    if value is None:
        return None
    owner = value.owner
    if isinstance(owner, Block):
        region = owner.parent
        op = region.parent if region is not None else None
        if op is None:
            return None
        if op.name == "func.func":
            s = value.attributes.get("sdy.sharding")
            return s if isinstance(s, TensorShardingAttr) else None
        if op.name == "sdy.manual_computation":
            s = _per_value(op.properties_view.get("in_shardings"), value.index)
            manual = op.properties_view.get("manual_axes")
            return _drop_manual(s, manual.axes if manual else ()) if s else None
        if op.name == "sdy.named_computation":
            return _per_value(op.properties_view.get("in_shardings"), value.index)
        if op.name == "stablehlo.async_start" and value.index < len(op.operands):
            return sharding_of(op.operands[value.index])
        return None
    op = owner
    if op.name in ("sdy.sharding_constraint", "sdy.reshard", "sdy.data_flow_edge"):
        return op.properties_view.get("sharding")
    if op.name in COLLECTIVE_OPS:
        return op.properties_view.get("out_sharding")
    if op.name == "sdy.manual_computation":
        return _per_value(op.properties_view.get("out_shardings"), value.index)
    if op.name == "sdy.named_computation":
        return _per_value(op.properties_view.get("out_shardings"), value.index)
    return _per_value(op.attributes_view.get("sdy.sharding"), value.index)
