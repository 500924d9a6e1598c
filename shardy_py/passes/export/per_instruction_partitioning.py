"""``-sdy-per-instruction-partitioning`` (export/per_instruction_partitioning.cc): partition chosen
ops one at a time and wrap each op's device-local code in an ``sdy.manual_computation``; the rest
of the program stays global.

The candidates are the ops directly in a function body (not terminators, collectives, data-flow
edges, manual computations, barriers, constraints, sharding groups or ``Sharding`` custom calls)
with a sharded operand or result, numbered in order; ``filter`` picks among them: empty (all),
op-name substrings (``dot, pad``) and ``selectLow=N`` / ``selectHigh=N`` bounds on the number.

Each chosen op is copied into a function of its own in a new module (with the module's meshes),
its operands padded at the high end (zeros) to sizes its shardings divide, and the partitioner
runs on that module: ``sdy-resolve-permutation-factors`` (with the pass's ``enable-halo-exchange``
and, as jaxlib 0.12, ``rng-bit-generator-unsafe``), the full
``sdy-insert-explicit-reshards``, ``sdy-reshard-to-collectives``, ``sdy-pad-for-divisibility``,
``sdy-convert-global-to-local`` and ``sdy-drop-sharding-and-mesh``.  The function's body becomes the
manual computation's (manual over every axis the op's shardings use), and padded results are
sliced back to their sizes.
"""
from __future__ import annotations

import attrs

from shardy_py.ir.attrs import (
    DimensionShardingAttr,
    ManualAxesAttr,
    MeshAttr,
    OpaqueAttr,
    TensorShardingAttr,
    TensorShardingPerValueAttr,
)
from shardy_py.ir.builder import Builder
from shardy_py.ir.clone import clone
from shardy_py.ir.edit import add_argument, erase, insert
from shardy_py.ir.module import Module
from shardy_py.ir.ops import COLLECTIVE_OPS, Block, Operation, Region
from shardy_py.ir.types import RankedTensorType
from shardy_py.passes import data_flow as df
from shardy_py.passes.export.export_utils import PartitionError, i64_array
from shardy_py.passes.export.pad_for_divisibility import _scalar_text
from shardy_py.passes.meshes import MeshTable, common_mesh_or_ref
from shardy_py.passes.registry import Pass, PassOption, lookup, register
from shardy_py.passes.shardings import get_sharding
from shardy_py.rules.props import ints_prop
from shardy_py.verify.axes import sharded_size

#: Ops never partitioned on their own.
SKIPPED = frozenset(COLLECTIVE_OPS) | {
    "sdy.data_flow_edge", "sdy.manual_computation", "sdy.mesh", "sdy.propagation_barrier", "sdy.return",
    "sdy.sharding_constraint", "sdy.sharding_group"}
TERMINATORS = frozenset({"func.return", "sdy.return", "stablehlo.return", "func.call_indirect_return"})


@attrs.define
class Filter:
    """``FilterConfig``."""

    low: int = -1
    high: int = -1
    names: list[str] = attrs.field(factory=list)
    everything: bool = False

    @classmethod
    def parse(cls, text: str) -> Filter:
        """``parseFilter``."""
        text = text.strip()
        if not text:
            return cls(everything=True)
        if len(text) >= 2 and text[0] == text[-1] and text[0] in "'\"":
            text = text[1:-1].strip()
        out = cls()
        for token in (t.strip() for t in text.split(",")):
            if not token:
                continue
            for key in ("selectLow=", "selectHigh="):
                if token.startswith(key):
                    value = token[len(key):].strip()
                    if value.lstrip("-").isdigit():
                        setattr(out, "low" if key == "selectLow=" else "high", int(value))
                    break
            else:
                out.names.append(token)
        return out

    def matches(self, op: Operation, number: int) -> bool:
        if self.everything:
            return True
        if 0 <= self.low and number < self.low:
            return False
        if 0 <= self.high and number > self.high:
            return False
        return not self.names or any(name in op.name for name in self.names)


def _sharded(value) -> bool:
    s = get_sharding(value)
    return s is not None and any(d.axes for d in s.dim_shardings)


def candidates(module: Module, keep: Filter) -> list[Operation]:
    """The ops to partition, in order."""
    out: list[Operation] = []
    number = 0
    for func in module.walk():
        if func.name != "func.func" or not func.regions or not func.regions[0].blocks:
            continue
        for block in func.regions[0].blocks:
            for op in block.ops:
                if op.name in TERMINATORS or op.name in SKIPPED:
                    continue
                if op.name == "stablehlo.custom_call" and str(op.properties_view.get("call_target_name", "")) in (
                        '"Sharding"', '"mhlo.sharding"'):
                    continue
                if not (any(_sharded(r) for r in op.results) or any(_sharded(v) for v in op.operands)):
                    continue
                if keep.matches(op, number):
                    out.append(op)
                number += 1
    return out


def mesh_symbol(module: Module, mesh_or_ref) -> str | None:
    """``getOrCreateMeshSymbol``: the name of the module's mesh equal to an inline one (a new
    ``@mesh`` when there is none)."""
    if isinstance(mesh_or_ref, str):
        return mesh_or_ref
    if not isinstance(mesh_or_ref, MeshAttr):
        return None
    meshes = [op for op in module.ops if op.name == "sdy.mesh"]
    for op in meshes:
        if op.properties_view["mesh"] == mesh_or_ref:
            return op.properties_view["sym_name"]
    names = {op.properties_view["sym_name"] for op in meshes}
    name, k = "mesh", 0
    while name in names:
        name, k = f"mesh_{k}", k + 1
    Builder(module.body, 0).create("sdy.mesh", [], result_types=[], properties={"sym_name": name, "mesh": mesh_or_ref})
    return name


def _closed_replicated(target, rank: int) -> TensorShardingAttr:
    return TensorShardingAttr(target, tuple(DimensionShardingAttr((), is_closed=True) for _ in range(rank)))


def instruction_shardings(op: Operation, symbol: str | None, target):
    """``getInstructionShardingInfo``: operand and result shardings (closed replicated where
    missing; results without unreduced axes) and the axes they use, in order."""
    def of(values, clear_unreduced: bool):
        out = []
        for v in values:
            s = get_sharding(v)
            if s is None:
                s = _closed_replicated(target, len(getattr(v.type, "shape", ())))
            if clear_unreduced or (symbol is not None and isinstance(s.mesh_or_ref, MeshAttr)):
                s = attrs.evolve(s, mesh_or_ref=target, unreduced_axes=() if clear_unreduced else s.unreduced_axes)
            out.append(s)
        return out

    ins, outs = of(op.operands, False), of(op.results, True)
    axes: list[str] = []
    for s in [*ins, *outs]:
        for ref in [*(a for d in s.dim_shardings for a in d.axes), *s.replicated_axes, *s.unreduced_axes]:
            if ref.name not in axes:
                axes.append(ref.name)
    return ins, outs, axes


def padded(type_, sharding: TensorShardingAttr, table: MeshTable, manual: list[str]):
    """``getDivisiblePaddedType`` counting the manual axes only."""
    if not isinstance(type_, RankedTensorType) or all(not d.axes for d in sharding.dim_shardings):
        return type_
    mesh = table.mesh_of(sharding)
    if mesh is None:
        return type_
    shape = []
    for size, dim in zip(type_.shape, sharding.dim_shardings, strict=True):
        n = sharded_size([a for a in dim.axes if a.name in manual], mesh)
        shape.append(size + n - size % n if size >= 0 and n > 1 and size % n else size)
    return RankedTensorType.get(shape, type_.element_type, type_.encoding)


def _reshard_type(op: Operation, ins, outs, table, manual):
    """``getUnifiedPaddedTypeForReshard``: one padded type for a reshard's operand and result."""
    if op.name != "sdy.reshard":
        return None
    t = op.operands[0].type
    a, b = padded(t, ins[0], table, manual), padded(t, outs[0], table, manual)
    if a == t and b == t:
        return None
    return RankedTensorType.get([max(x, y, z) for x, y, z in zip(t.shape, a.shape, b.shape, strict=True)],
                                t.element_type)


def _pad(b: Builder, value, to: RankedTensorType, sharding, loc):
    zero = b.create("stablehlo.constant", [], result_types=[RankedTensorType.get((), to.element_type)],
                    properties={"value": OpaqueAttr(_scalar_text("zero", to.element_type))}, loc=loc).results[0]
    rank = len(to.shape)
    props = {"edge_padding_low": i64_array([0] * rank),
             "edge_padding_high": i64_array([t - s for t, s in zip(to.shape, value.type.shape, strict=True)]),
             "interior_padding": i64_array([0] * rank)}
    return b.create("stablehlo.pad", [value, zero], result_types=[to], properties=props,
                    attributes={df.SHARDING: TensorShardingPerValueAttr((sharding,))}, loc=loc).results[0]


def outline(module: Module, op: Operation, ins, outs, arg_types, result_types) -> Module:
    """``outlineInstruction``: a module with the meshes and ``@outlined_op`` holding a copy of op."""
    top = Operation("builtin.module", regions=[], properties={})
    region = Region(parent=top)
    region.blocks.append(Block(parent=region))
    top.regions.append(region)
    body = region.blocks[0]
    b = Builder.at_end(body)
    for mesh in module.ops:
        if mesh.name == "sdy.mesh":
            b.create("sdy.mesh", [], result_types=[], properties=dict(mesh.properties_view))
    func = b.create("func.func", [], result_types=[], regions=1, loc=op.loc, properties={
        "sym_name": "outlined_op", "sym_visibility": "private", "arg_types": list(arg_types),
        "arg_attrs": [{} for _ in arg_types], "result_types": list(result_types),
        "res_attrs": [{df.SHARDING: s} for s in outs], "arg_locs": [None] * len(arg_types)})
    block = func.regions[0].blocks[0]
    args = [add_argument(block, t, attributes={df.SHARDING: s}) for t, s in zip(arg_types, ins, strict=True)]
    copy = insert(block, 0, clone(op))
    for i, arg in enumerate(args):  # by position: an op may use one value twice
        copy.set_operand(i, arg)
    for i, (result, to) in enumerate(zip(copy.results, result_types, strict=True)):
        original = op.results[i].type
        if original == to:
            continue
        grow = [t - s for t, s in zip(to.shape, original.shape, strict=True)]
        if copy.name == "stablehlo.slice":
            copy.properties["limit_indices"] = i64_array([v + g for v, g in zip(ints_prop(copy, "limit_indices"),
                                                                                 grow, strict=True)])
        elif copy.name == "stablehlo.pad":
            copy.properties["edge_padding_high"] = i64_array(
                [v + g for v, g in zip(ints_prop(copy, "edge_padding_high"), grow, strict=True)])
        result.type = to
    Builder.at_end(block).create("func.return", list(copy.results), result_types=[], loc=op.loc)
    return Module(top)


def partitioner_passes(options: dict) -> list[Pass]:
    """``runPartitionerPipeline``'s passes."""
    out = [lookup("sdy-resolve-permutation-factors")(
        enable_halo_exchange=options["enable_halo_exchange"], replica_count=options["replica_count"],
        partition_count=options["partition_count"], rng_bit_generator_unsafe=options["rng_bit_generator_unsafe"])]
    out.append(lookup("sdy-insert-explicit-reshards")(enable_full_version=True))
    out.append(lookup("sdy-reshard-to-collectives")())
    out.append(lookup("sdy-pad-for-divisibility")())
    out.append(lookup("sdy-convert-global-to-local")(replica_count=options["replica_count"],
                                                      partition_count=options["partition_count"]))
    out.append(lookup("sdy-drop-sharding-and-mesh")())
    return out


def partition_instruction(module: Module, op: Operation, options: dict) -> None:
    """``partitionAndWrapInstruction``."""
    from shardy_py.passes.manager import PassError, PassManager

    table = MeshTable(module)
    shardings = [get_sharding(v) for v in [*op.operands, *op.results]]
    mesh_or_ref = common_mesh_or_ref(shardings, table)
    if mesh_or_ref is None:
        raise PartitionError(op, f"'{op.name}' op: its operands and results are not on one mesh")
    symbol = mesh_symbol(module, mesh_or_ref)
    table = MeshTable(module)
    target = symbol if symbol is not None else mesh_or_ref
    ins, outs, manual = instruction_shardings(op, symbol, target)
    unified = _reshard_type(op, ins, outs, table, manual)
    b = Builder.before(op)
    operands, arg_types = [], []
    for value, sharding in zip(op.operands, ins, strict=True):
        to = unified or padded(value.type, sharding, table, manual)
        if to != value.type:
            value = _pad(b, value, to, sharding, op.loc)
        operands.append(value)
        arg_types.append(to)
    result_types = [unified or padded(r.type, s, table, manual) for r, s in zip(op.results, outs, strict=True)]
    inner = outline(module, op, ins, outs, arg_types, result_types)
    try:
        PassManager(partitioner_passes(options)).run(inner)
    except PassError as e:
        message = e.diagnostics[0].message if e.diagnostics else str(e)
        raise PartitionError(op, f"partitioning '{op.name}' failed: {message}") from None
    func = next(o for o in inner.ops if o.name == "func.func")
    props = {"in_shardings": TensorShardingPerValueAttr(tuple(ins)),
             "out_shardings": TensorShardingPerValueAttr(tuple(outs)), "manual_axes": ManualAxesAttr(tuple(manual))}
    manual_op = b.create("sdy.manual_computation", operands, result_types=result_types, loc=op.loc, properties=props)
    region = func.regions[0]
    func.regions = []
    region.parent = manual_op
    manual_op.regions = [region]
    for block in region.blocks:
        for arg in block.arguments:
            arg.attributes = {}
        ret = block.ops[-1]
        Builder.at_end(block).create("sdy.return", list(ret.operands), result_types=[], loc=ret.loc)
        erase(ret)
    after = Builder.after(manual_op)
    for i, result in enumerate(op.results):
        value = manual_op.results[i]
        if result.type != result_types[i]:
            rank = len(result.type.shape)
            value = after.create("stablehlo.slice", [value], result_types=[result.type], loc=op.loc, properties={
                "start_indices": i64_array([0] * rank), "limit_indices": i64_array(result.type.shape),
                "strides": i64_array([1] * rank)}, attributes={df.SHARDING: TensorShardingPerValueAttr((outs[i],))}
            ).results[0]
        result.replace_all_uses_with(value)
    erase(op)


@register
class PerInstructionPartitioningPass(Pass):
    name = "sdy-per-instruction-partitioning"
    summary = ("Selectively extracts target instructions, runs the partitioner pipeline on them to generate "
               "device-local code, and wraps them in sdy.manual_computation.")
    options = (
        PassOption("filter", str, "", "Filter string for selective partitioning: empty (all sharded ops), "
                   "comma-separated op name substrings, or 'selectLow=0, selectHigh=10'."),
        PassOption("enable-halo-exchange", bool, True,
                   "Implement halo exchange logic for windowed operations inside the sub-pipeline."),
        PassOption("replica-count", int, 1, "Number of replicas (data parallelism)."),
        PassOption("partition-count", int, 1, "Number of partitions (model parallelism)."),
        PassOption("rng-bit-generator-unsafe", bool, True,
                   "Whether to allow unsafe partitioning of stablehlo.rng_bit_generator."),
    )

    def run(self, module, ctx) -> None:
        """Partition every chosen op (the first failure fails the pass)."""
        chosen = candidates(module, Filter.parse(self.option("filter")))
        for op in chosen:
            try:
                partition_instruction(module, op, dict(self.values))
            except PartitionError as e:
                ctx.error(e.op, str(e))
                return
