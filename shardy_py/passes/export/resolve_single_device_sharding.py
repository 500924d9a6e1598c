"""``-sdy-resolve-single-device-sharding`` (export/resolve_single_device_sharding.cc): an op whose
results live on one device (a sharding on a maximal mesh ``<[], device_ids=[d]>``) runs inside a
``stablehlo.if`` taken on device ``d`` only (the other devices produce zeros, or fresh tokens), and
an ``sdy.all_reduce`` over every axis of the module's global mesh hands each tensor result to all
devices.  Reshards that only moved operands onto the device, or results back to a replicated
sharding of the global mesh, are dropped.

The device id is ``stablehlo.partition_id`` (``stablehlo.replica_id`` with ``replica-count`` > 1)
converted to ``i64``.  Functions of a module without a global mesh (one with axes) are left alone.
"""
from __future__ import annotations

from shardy_py.ir.attrs import AxisRefAttr, AxisRefListAttr, DimensionShardingAttr, OpaqueAttr, TensorShardingAttr
from shardy_py.ir.builder import Builder
from shardy_py.ir.edit import clone, erase, insert
from shardy_py.ir.ops import Block, Operation, Region
from shardy_py.ir.types import RankedTensorType, TokenType, parse_type
from shardy_py.ir.walk import walk_post_order
from shardy_py.passes import data_flow as df
from shardy_py.passes.export.export_utils import zero_value_text
from shardy_py.passes.meshes import MeshTable
from shardy_py.passes.registry import Pass, PassOption, register
from shardy_py.passes.shardings import get_sharding


class SingleDeviceError(ValueError):
    """What the C++ ``SDY_CHECK``s reject (it aborts): results on two devices, a result on one
    device beside a sharded one, replicas and partitions both above one."""


def single_device_id(sharding: TensorShardingAttr | None, table: MeshTable) -> int | None:
    """``getSingleDeviceId``: the device of a sharding on a maximal mesh, else None."""
    if sharding is None:
        return None
    mesh = table.mesh_of(sharding)
    if mesh is None or not mesh.is_maximal:
        return None
    return mesh.device_ids[0]


def is_fully_replicated(sharding: TensorShardingAttr) -> bool:
    return all(not d.axes for d in sharding.dim_shardings)


def single_device_id_of_op(op: Operation, table: MeshTable) -> int | None:
    """``getSingleDeviceIdForOp``: the device the op's ranked tensor results are placed on, if any
    is (every such result on that device or fully replicated)."""
    target = None
    sharded = False
    for result in op.results:
        if not isinstance(result.type, RankedTensorType):
            continue
        sharding = get_sharding(result)
        if sharding is None:
            continue
        device = single_device_id(sharding, table)
        if device is not None:
            if target is not None and target != device:
                raise SingleDeviceError(f"'{op.name}' has results on devices {target} and {device}")
            target = device
        elif not is_fully_replicated(sharding):
            sharded = True
    if target is not None and sharded:
        raise SingleDeviceError(f"'{op.name}' has a result on device {target} and a sharded result")
    return target


def _device_id(builder: Builder, replica_count: int, partition_count: int, loc):
    """``getDeviceId`` as jaxlib 0.12 reads it: this device's id, a ``tensor<ui32>`` (the test
    files' commit converted it to i64)."""
    if replica_count != 1 and partition_count != 1:
        raise SingleDeviceError("Shardy partitioner does not support replica_count > 1 && partition_count > 1 yet.")
    name = "stablehlo.replica_id" if replica_count > 1 else "stablehlo.partition_id"
    return builder.create(name, [], result_types=[parse_type("tensor<ui32>")], loc=loc).results[0]


def _block(region: Region) -> Block:
    block = Block(parent=region)
    region.blocks.append(block)
    return block


def resolve_single_device_op(op: Operation, device: int, global_mesh: tuple[str, tuple[str, ...]],
                             table: MeshTable, replica_count: int, partition_count: int) -> None:
    """``resolveSingleDeviceOp``."""
    loc = op.loc
    builder = Builder.before(op)
    current = _device_id(builder, replica_count, partition_count, loc)
    target = builder.create("stablehlo.constant", [], result_types=[parse_type("tensor<ui32>")], loc=loc,
                            properties={"value": OpaqueAttr(f"dense<{device}> : tensor<ui32>")})
    guard = builder.create("stablehlo.compare", [current, target.results[0]], result_types=[parse_type("tensor<i1>")],
                           properties={"comparison_direction": OpaqueAttr("#stablehlo<comparison_direction EQ>")},
                           loc=loc)
    result_types = [r.type for r in op.results]
    if_op = builder.create("stablehlo.if", [guard.results[0]], result_types=result_types, loc=loc)
    if_op.generic_form = True
    for _ in range(2):
        if_op.regions.append(Region(parent=if_op))

    true_block = _block(if_op.regions[0])
    copy = clone(op)
    df.remove_attribute(copy, df.SHARDING)
    insert(true_block, 0, copy)
    operand_reshards = []
    for index, operand in enumerate(copy.operands):
        defining = operand.owner if operand is not None and not isinstance(operand.owner, Block) else None
        if defining is not None and defining.name == "sdy.reshard" \
                and single_device_id(defining.properties_view.get("sharding"), table) is not None:
            copy.set_operand(index, defining.operands[0])
            operand_reshards.append(defining)
    Builder.at_end(true_block).create("stablehlo.return", list(copy.results), result_types=[], loc=loc)

    false_block = _block(if_op.regions[1])
    fill = Builder.at_end(false_block)
    zeros = []
    for type_ in result_types:
        if isinstance(type_, RankedTensorType):
            zeros.append(fill.create("stablehlo.constant", [], result_types=[type_], loc=loc,
                                     properties={"value": OpaqueAttr(zero_value_text(type_))}).results[0])
        elif isinstance(type_, TokenType):
            zeros.append(fill.create("stablehlo.create_token", [], result_types=[type_], loc=loc).results[0])
    fill.create("stablehlo.return", zeros, result_types=[], loc=loc)

    mesh_name, axis_names = global_mesh
    reduce_axes = AxisRefListAttr(tuple(AxisRefAttr(name) for name in axis_names))
    after = Builder.after(if_op)
    for result, if_result in zip(op.results, if_op.results, strict=False):
        if not isinstance(if_result.type, RankedTensorType):
            result.replace_all_uses_with(if_result)
            continue
        replicated = TensorShardingAttr(mesh_name, tuple(DimensionShardingAttr(()) for _ in if_result.type.shape))
        all_reduce = after.create("sdy.all_reduce", [if_result], result_types=[if_result.type], loc=loc,
                                  properties={"reduction_axes": reduce_axes, "out_sharding": replicated,
                                              "reduction_op": "sum"})
        for use in list(result.uses):
            user = use.op
            if user.name == "sdy.reshard" and user.properties_view.get("sharding") == replicated:
                user.results[0].replace_all_uses_with(all_reduce.results[0])
                erase(user)
                continue
            user.set_operand(use.index, all_reduce.results[0])
    erase(op)
    for reshard in operand_reshards:
        if reshard.parent is not None and not reshard.results[0].uses:
            erase(reshard)


def global_mesh_of(module_op: Operation) -> tuple[str, tuple[str, ...]] | None:
    """``getGlobalMeshOp``: the first ``sdy.mesh`` with axes (name and axis names)."""
    for op in module_op.regions[0].blocks[0].ops:
        if op.name == "sdy.mesh":
            mesh = op.properties_view["mesh"]
            if not mesh.is_maximal and mesh.axes:
                return op.properties_view["sym_name"], mesh.axis_names
    return None


@register
class ResolveSingleDeviceShardingPass(Pass):
    name = "sdy-resolve-single-device-sharding"
    summary = "Lowers single-device operations into stablehlo.if guarded by target device ID."
    anchor = "func.func"
    options = (
        PassOption("replica-count", int, 1, "Number of replicas per partition."),
        PassOption("partition-count", int, 1, "Number of partitions per replica."),
    )

    def run(self, func, ctx) -> None:
        module_op = func.parent.parent.parent
        global_mesh = global_mesh_of(module_op)
        if global_mesh is None:
            ctx.mark_all_preserved()
            return
        table = MeshTable(_ModuleView(module_op))
        try:
            found = []
            for op in list(walk_post_order(func)):
                if op.name.startswith("sdy."):
                    continue
                device = single_device_id_of_op(op, table)
                if device is not None:
                    found.append((op, device))
            for op, device in found:
                resolve_single_device_op(op, device, global_mesh, table, self.option("replica-count"),
                                         self.option("partition-count"))
        except SingleDeviceError as e:
            ctx.error(func, str(e))
            return
        if not found:
            ctx.mark_all_preserved()


class _ModuleView:
    """What ``MeshTable`` reads of a module (its top-level ops), from the module op."""

    def __init__(self, module_op: Operation):
        self.ops = module_op.regions[0].blocks[0].ops


