"""``-sdy-resolve-permutation-factors`` (export/resolve_permutation_factors.cc): make the ops whose
sharded dimensions need data of other devices (the ``kPermutation`` factors of their sharding
rules: a pad's, slice's, reverse's, convolution's or window's spatial dimensions, ...) computable
shard by shard.

The module's ops are visited in MLIR's post-order walk (ops a visit adds are not visited):

* ``stablehlo.reshape`` (no permutation factor, but data moves between devices when a sharding
  does not divide a dimension): ``resolve_permutation_factors_reshape``;
* with ``enable-halo-exchange`` (the default), ``stablehlo.pad`` and ``stablehlo.slice`` exchange
  halos with their neighbours (``resolve_permutation_factors_pad_slice``) and
  ``stablehlo.reverse`` reverses the device order of its result's mesh
  (``resolve_permutation_factors_reverse``);
* every other stablehlo op with a permutation factor, and a pad or slice a halo exchange cannot
  do, has its permutation factors replicated: ``sdy.reshard`` around the op, as
  ``-sdy-insert-explicit-reshards`` puts them (a slice's or pad's dimension that needs no other
  device's data keeps its sharding).

Options ``replica-count`` and ``partition-count`` choose the device id the halo code reads
(``stablehlo.replica_id`` with more than one replica, else ``stablehlo.partition_id``).

jaxlib 0.12's pass also takes ``rng-bit-generator-unsafe`` (true by default, which changes
nothing): when false, a ``stablehlo.rng_bit_generator`` whose output is sharded generates it
replicated (every device the same numbers) and reshards it to its sharding afterwards.
"""
from __future__ import annotations

from shardy_py.ir.attrs import DimensionShardingAttr, MeshAttr, TensorShardingAttr
from shardy_py.ir.builder import Builder
from shardy_py.ir.ops import Operation
from shardy_py.ir.walk import walk_post_order
from shardy_py.passes.export.explicit_reshards_util import (
    insert_explicit_reshards,
    is_fully_replicated,
    replace_all_uses_except,
)
from shardy_py.passes.export.export_utils import next_channel_id
from shardy_py.passes.export.export_utils_reshape import is_communication_free_pad_dim, is_communication_free_slice_dim
from shardy_py.passes.export.resolve_permutation_factors_exchange import ResolutionState, ResolveError
from shardy_py.passes.export.resolve_permutation_factors_pad_slice import resolve_pad, resolve_slice
from shardy_py.passes.export.resolve_permutation_factors_reshape import resolve_reshape
from shardy_py.passes.export.resolve_permutation_factors_reverse import resolve_reverse
from shardy_py.passes.meshes import MeshTable, common_mesh_or_ref
from shardy_py.passes.propagation.sharding_projection import ShardingProjection, UpdateTensorShardings
from shardy_py.passes.registry import Pass, PassOption, register
from shardy_py.passes.shardings import get_sharding, set_sharding
from shardy_py.rules.props import ints_prop
from shardy_py.rules.registry import TERMINATOR_OPS
from shardy_py.rules.sharding_rule import get_or_create_sharding_rule

#: The ops a halo exchange can do, when enabled.
HALO_OPS = {"stablehlo.pad": resolve_pad, "stablehlo.reverse": resolve_reverse, "stablehlo.slice": resolve_slice}


def _keeps_sharding(op: Operation, factor: int, sharding, mesh: MeshAttr) -> bool:
    """A slice's or pad's dimension ``factor`` whose shards need no other device's data."""
    if op.name == "stablehlo.slice":
        if sharding != get_sharding(op.results[0]):
            raise ResolveError(op, "the slice's operand and result are sharded differently "
                                   "(run sdy-insert-explicit-reshards first)")
        starts, strides = ints_prop(op, "start_indices"), ints_prop(op, "strides")
        return sharding is not None and is_communication_free_slice_dim(
            factor, starts, strides, op.operands[0].type.shape, op.results[0].type.shape, sharding, mesh)
    if op.name == "stablehlo.pad":
        if sharding is None:  # replicated, as jaxlib 0.12 reads it (the test files' commit crashes)
            return True
        low, interior = ints_prop(op, "edge_padding_low"), ints_prop(op, "interior_padding")
        return is_communication_free_pad_dim(factor, low, interior, op.operands[0].type.shape,
                                             op.results[0].type.shape, sharding, mesh)
    return False


def replicate_permutation_factors(op: Operation, rule, state: ResolutionState) -> None:
    """``resolvePermutationFactorsViaReplication``: every permutation factor (but a slice's or
    pad's communication-free dimension) unsharded, with reshards before and after the op."""
    ins = [get_sharding(v) for v in op.operands]
    outs = [get_sharding(v) for v in op.results]
    name = common_mesh_or_ref([*ins, *outs], state.table, ignore_device_ids=True)
    if name is None:
        return
    if isinstance(name, MeshAttr):
        raise ResolveError(op, "the op's shardings have an inline mesh (a mesh symbol is needed)")
    mesh = state.table.lookup(name)
    if mesh is None or mesh.is_maximal:
        return
    projection = ShardingProjection.build(ins, outs, rule, mesh, closed_if_missing=True)
    update = UpdateTensorShardings.none(len(op.operands), len(op.results))
    for factor in rule.permutation_factors:
        if _keeps_sharding(op, factor, ins[0] if ins else None, mesh):
            continue
        update |= projection.update_sharding(factor, [], [])
    if update.any():
        insert_explicit_reshards(op, ins, outs, projection, update, rule, state.table, name, mesh)


def replicate_rng_output(op: Operation) -> None:
    """jaxlib 0.12 without ``rng-bit-generator-unsafe``: the sharded output of an
    ``stablehlo.rng_bit_generator`` is generated fully replicated (closed dimensions) and
    resharded to its sharding after the op."""
    output = op.results[1]
    sharding = get_sharding(output)
    if is_fully_replicated(sharding):
        return
    rank = len(output.type.shape)
    set_sharding(output, TensorShardingAttr(sharding.mesh_or_ref, (DimensionShardingAttr(),) * rank))
    back = Builder.after(op).create("sdy.reshard", [output], result_types=[output.type], loc=op.loc,
                                    properties={"sharding": sharding}).results[0]
    replace_all_uses_except(output, back)


def resolve(op: Operation, options: dict, state: ResolutionState, warn) -> None:
    """One op of the walk (``options``: the pass's, underscored)."""
    if op.name in TERMINATOR_OPS or not op.name.startswith("stablehlo."):
        return
    enable_halo = options["enable_halo_exchange"]
    if op.name == "stablehlo.reshape":
        resolve_reshape(op, enable_halo, state)
        return
    if op.name == "stablehlo.rng_bit_generator" and not options["rng_bit_generator_unsafe"]:
        replicate_rng_output(op)
        return
    rule = get_or_create_sharding_rule(op, False, set_on_op=False, warn=warn)
    if rule is None or rule.is_custom_rule or not rule.permutation_factors:
        return
    handler = HALO_OPS.get(op.name) if enable_halo else None
    if handler is not None and handler(op, state):
        return
    replicate_permutation_factors(op, rule, state)


@register
class ResolvePermutationFactorsPass(Pass):
    name = "sdy-resolve-permutation-factors"
    summary = "Resolves sharding on dimensions mapped to kPermutation factors."
    options = (
        PassOption("enable-halo-exchange", bool, True, "Implement halo exchange logic for windowed operations."),
        PassOption("replica-count", int, 1, "Number of replicas (data parallelism)."),
        PassOption("partition-count", int, 1, "Number of partitions (model parallelism)."),
        PassOption("rng-bit-generator-unsafe", bool, True,
                   "Whether to allow unsafe partitioning of stablehlo.rng_bit_generator."),
    )

    def run(self, module, ctx) -> None:
        """Visit every op of the module in post-order (module docstring)."""
        cache = {}
        for op in module.ops:
            if op.name == "sdy.mesh":
                cache[op.properties_view["mesh"]] = op.properties_view["sym_name"]
        state = ResolutionState(module, MeshTable(module), cache, next_channel_id(module.op),
                                self.option("replica-count"), self.option("partition-count"))
        for op in list(walk_post_order(module.op)):
            if op.parent is None and op is not module.op:
                continue
            try:
                resolve(op, self.values, state, ctx.warning)
            except ResolveError as e:
                ctx.error(e.op, str(e))
                return
